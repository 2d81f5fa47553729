/* page-account.c — register, log in, log out. */
#include <stdio.h>
#include <string.h>

#include "auth.h"
#include "i18n.h"
#include "page.h"

enum { SESSION_MAX_AGE = AUTH_SESSION_DAYS * 24 * 3600 };

enum acc_field { ACC_CSRF, ACC_NAME, ACC_PASSWORD, ACC_PASSWORD2, ACC_NEXT, ACC__MAX };

/* Lengths are generous here: auth_register/auth_login judge the content
 * and give the message a person can act on. */
static const struct http_rule acc_rules[] = {
	[ACC_CSRF] = { "csrf", HTTP_V_TEXT, 1, 1, 64 },
	[ACC_NAME] = { "name", HTTP_V_TEXT, 1, 0, 256 },
	[ACC_PASSWORD] = { "password", HTTP_V_TEXT, 1, 0, 1024 },
	[ACC_PASSWORD2] = { "password2", HTTP_V_TEXT, 0, 0, 1024 },
	[ACC_NEXT] = { "next", HTTP_V_TEXT, 0, 0, 64 },
};
_Static_assert(sizeof acc_rules / sizeof acc_rules[0] == ACC__MAX, "acc_rules");

/* Where to go after logging in: only "/" or a path of ours from the
 * `next` field (never another host). */
static const char *safe_next(struct page *p, const char *next)
{
	if (!next || next[0] != '/' || next[1] == '/' || next[1] == '\\')
		return "/";
	for (const char *c = next; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '/' ||
		      *c == '.' || *c == '-'))
			return "/";
	return arena_strdup(p->a, next) ? next : "/";
}

/* The login or register form with an optional message; status as given. */
static void form(struct page *p, enum http_status status, int reg, const char *name,
		 const char *msg, const char *flag, int retry_s)
{
	page_presession(p);
	struct view v;
	page_view(p, &v);
	view_str(&v, "csrf", p->csrf);
	view_str(&v, "name", name ? name : "");
	view_str(&v, "next", safe_next(p, http_get(&p->req->query, "next") ?
					      http_get(&p->req->query, "next") :
					      http_get(&p->req->form, "next")));
	if (msg) {
		view_begin(&v, "message");
		view_str(&v, "text", msg);
		view_end(&v);
	}
	if (flag)
		view_flag(&v, flag, 1);
	if (retry_s > 0) {
		view_num(&v, "retry_s", retry_s);
		view_str(&v, "throttled_text",
			 arena_printf(p->a, i18n_ntext("Zu viele Fehlversuche für diesen Namen. Bitte "
						       "warte %d Sekunde und versuche es dann noch "
						       "einmal.",
						       "Zu viele Fehlversuche für diesen Namen. Bitte "
						       "warte %d Sekunden und versuche es dann noch "
						       "einmal.", retry_s), retry_s));
	}
	struct page_head h = { .page = reg ? "register" : "login" };
	page_html(p, status, reg ? "register.tpl" : "login.tpl", &v, &h);
}

/* Starts a session for user and sends 303 to `next`; 500 when the session
 * cannot be stored. */
static void log_in(struct page *p, int64_t user, const char *next)
{
	char token[AUTH_TOKEN_LEN + 1], csrf[AUTH_TOKEN_LEN + 1];
	if (auth_session_new(p->store, user, p->now_ms, token, csrf) != AUTH_OK) {
		page_error(p, HTTP_500, "internal");
		return;
	}
	char *tok = arena_strdup(p->a, token);
	if (!tok) {
		page_error(p, HTTP_500, "internal");
		return;
	}
	p->resp.ncookies = 0;
	http_set_cookie(&p->resp, PAGE_COOKIE_SESSION, tok, SESSION_MAX_AGE);
	http_set_cookie(&p->resp, PAGE_COOKIE_PRESESSION, "", 0);
	page_redirect(p, safe_next(p, next));
}

/* GET /register: the form (200), or 303 home when already logged in. */
void page_register_form(struct page *p)
{
	if (p->user_id) {
		page_redirect(p, "/");
		return;
	}
	form(p, HTTP_200, 1, NULL, NULL, NULL, 0);
}

/* POST /register: 303 (logged in) or the form again with the reason:
 * 422 (name or password unfit, passwords differ), 409 (name taken),
 * 503 with Retry-After (every password-hashing slot busy), 400 (malformed
 * form), 500. */
void page_register(struct page *p)
{
	struct http_value f[ACC__MAX];
	enum http_err err = http_validate(&p->req->form, acc_rules, ACC__MAX, f);
	if (err) {
		page_error(p, http_err_status(err), http_err_key(err));
		return;
	}
	const char *name = f[ACC_NAME].s;
	if (f[ACC_PASSWORD2].present && strcmp(f[ACC_PASSWORD].s, f[ACC_PASSWORD2].s) != 0) {
		form(p, HTTP_422, 1, name, NULL, "mismatch", 0);
		return;
	}
	int64_t uid = 0;
	int rc = auth_register(p->store, name, f[ACC_PASSWORD].s, p->now_ms, &uid);
	if (rc == AUTH_OK) {
		/* the account keeps the language it was made in (its mails too);
		 * a failure here leaves it to the browser's, so it is not fatal */
		if (store_user_set_lang(p->store, uid, lang_code[i18n_lang()]) != ST_OK)
			fprintf(stderr, "register: language of user %lld not saved\n", (long long)uid);
		log_in(p, uid, f[ACC_NEXT].s);
		return;
	}
	enum http_status st = rc == AUTH_NAME_TAKEN ? HTTP_409 : rc == AUTH_ERR ? HTTP_500 :
			      rc == AUTH_BUSY ? HTTP_503 : HTTP_422;
	if (rc == AUTH_BUSY)
		p->resp.retry_after = AUTH_BUSY_RETRY_S;
	form(p, st, 1, name, auth_message(rc), NULL, 0);
}

/* GET /login: the form (200), or 303 home when already logged in. */
void page_login_form(struct page *p)
{
	if (p->user_id) {
		page_redirect(p, "/");
		return;
	}
	form(p, HTTP_200, 0, NULL, NULL, NULL, 0);
}

/* POST /login: 303 (logged in) or the form again: 422 (wrong name or
 * password), 429 (too many failures from this address: how long to wait,
 * also as Retry-After), 503 with Retry-After (every password-hashing slot
 * busy), 400, 500. The client address is nginx's REMOTE_ADDR. */
void page_login(struct page *p)
{
	struct http_value f[ACC__MAX];
	enum http_err err = http_validate(&p->req->form, acc_rules, ACC__MAX, f);
	if (err) {
		page_error(p, http_err_status(err), http_err_key(err));
		return;
	}
	int64_t uid = 0;
	int retry = 0;
	int rc = auth_login(p->store, f[ACC_NAME].s, f[ACC_PASSWORD].s, p->req->remote_addr,
			    p->now_ms, &uid, &retry);
	if (rc == AUTH_OK) {
		log_in(p, uid, f[ACC_NEXT].s);
		return;
	}
	enum http_status st = rc == AUTH_THROTTLED ? HTTP_429 : rc == AUTH_ERR ? HTTP_500 :
			      rc == AUTH_BUSY ? HTTP_503 : HTTP_422;
	if (rc == AUTH_THROTTLED || rc == AUTH_BUSY)
		p->resp.retry_after = retry > 0 ? retry : AUTH_BUSY_RETRY_S;
	form(p, st, 0, f[ACC_NAME].s, rc == AUTH_THROTTLED ? NULL : auth_message(rc),
	     rc == AUTH_THROTTLED ? "throttled" : NULL, rc == AUTH_THROTTLED ? retry : 0);
}

/* POST /logout: ends the session, clears the cookie, 303 home. */
void page_logout(struct page *p)
{
	if (p->token)
		auth_session_end(p->store, p->token);
	http_set_cookie(&p->resp, PAGE_COOKIE_SESSION, "", 0);
	page_redirect(p, "/");
}
