/* page-mail.c — the e-mail notices' pages: their section on the account
 * page (/me) and its form (POST /me/mail), and the unsubscribe link of
 * every mail (GET /mail/off/<token> asks, POST turns mail off; no login
 * needed). The section, its form and the unsubscribe pages exist only
 * when mail is on (mail.h): a 404 otherwise. */
#include <string.h>

#include "i18n.h"
#include "mail.h"
#include "page.h"

static const char *const mode_names[ST_MAIL_MODE__MAX] = {
	[ST_MAIL_NONE] = "none", [ST_MAIL_DIGEST] = "digest", [ST_MAIL_TURN] = "turn",
};

int page_mail_view(struct page *p, struct view *v)
{
	if (!mail_enabled())
		return 0;
	struct st_mail_prefs m;
	int rc = store_mail_prefs(p->store, p->user_id, &m);
	if (rc == ST_NOTFOUND) {
		memset(&m, 0, sizeof m);
		rc = ST_OK;
	}
	if (rc != ST_OK)
		return -1;
	view_begin(v, "mail");
	view_str(v, "action", "/me/mail");
	view_str(v, "address", p->mail_address ? p->mail_address : m.address);
	for (int i = 0; i < ST_MAIL_MODE__MAX; i++)
		view_flag(v, arena_printf(p->a, "mode_%s", mode_names[i]), m.mode == i);
	if (p->mail_note) {
		view_begin(v, "note");
		view_str(v, "text", p->mail_note);
		view_end(v);
	}
	view_end(v);
	return 0;
}

/* The mode's number from the form, or -1. */
static int mode_of(const char *s)
{
	for (int i = 0; i < ST_MAIL_MODE__MAX; i++)
		if (strcmp(s, mode_names[i]) == 0)
			return i;
	return -1;
}

/* POST /me/mail (address, mode): 303 back to /me; 422 (/me with a note)
 * for an address we do not send to; 404 while mail is off; 400, 503, 500. */
void page_mail_save(struct page *p)
{
	if (!mail_enabled()) {
		page_error(p, HTTP_404, "notfound");
		return;
	}
	static const struct http_rule rules[] = {
		{ "csrf", HTTP_V_TEXT, 1, 1, 64 },
		{ "address", HTTP_V_TEXT, 0, 0, ST_MAIL_ADDR_MAX },
		{ "mode", HTTP_V_TEXT, 1, 1, 8 },
	};
	struct http_value f[3];
	enum http_err err = http_validate(&p->req->form, rules, 3, f);
	int mode = err ? -1 : mode_of(f[2].s);
	if (err || mode < 0) {
		page_error(p, err ? http_err_status(err) : HTTP_400,
			   err ? http_err_key(err) : "invalid_field");
		return;
	}
	if ((f[1].s[0] || mode != ST_MAIL_NONE) && !mail_address_ok(f[1].s)) {
		p->mail_note = _("Diese E-Mail-Adresse können wir nicht verwenden.");
		p->mail_address = f[1].s;
		page_me_show(p, HTTP_422);
		return;
	}
	char token[ST_MAIL_TOKEN_LEN + 1];
	mail_token_new(token);
	int rc = store_begin(p->store);
	if (rc == ST_OK) {
		rc = store_mail_prefs_set(p->store, p->user_id, f[1].s, mode, token);
		if (rc == ST_OK)
			rc = store_commit(p->store);
		else
			store_rollback(p->store);
	}
	if (rc != ST_OK) {
		page_fail(p, rc == ST_NOTFOUND ? ST_ERR : rc);
		return;
	}
	page_redirect(p, "/me#mail");
}

/* The token of /mail/off/<token> (the router checked its shape). */
static const char *off_token(struct page *p)
{
	return p->req->path + strlen("/mail/off/");
}

/* The unsubscribe page: `done` after the POST, else the question (or that
 * mail is off already). */
static void off_page(struct page *p, const struct st_mail_prefs *m, int done)
{
	struct view v;
	page_view(p, &v);
	view_str(&v, "action", p->req->path);
	view_str(&v, "address", m->address);
	view_flag(&v, done ? "done" : m->mode == ST_MAIL_NONE ? "already_off" : "ask", 1);
	struct page_head h = { .page = "mail_off" };
	page_html(p, HTTP_200, "mail-off.tpl", &v, &h);
}

/* GET /mail/off/<token>: asks (a GET changes nothing); 404 for an unknown
 * token and while mail is off. */
void page_mail_off_form(struct page *p)
{
	if (!mail_enabled()) {
		page_error(p, HTTP_404, "notfound");
		return;
	}
	struct st_mail_prefs m;
	int64_t user = 0;
	int rc = store_mail_by_token(p->store, off_token(p), &user, &m);
	if (rc != ST_OK) {
		page_error(p, rc == ST_NOTFOUND ? HTTP_404 : HTTP_500,
			   rc == ST_NOTFOUND ? "notfound" : "internal");
		return;
	}
	if (!p->user_id)
		page_presession(p);
	off_page(p, &m, 0);
}

/* POST /mail/off/<token>: no more mail for the token's user (200, the
 * page says so); 404 for an unknown token and while mail is off; 503, 500. */
void page_mail_off(struct page *p)
{
	struct st_mail_prefs m;
	int64_t user = 0;
	if (!mail_enabled()) {
		page_error(p, HTTP_404, "notfound");
		return;
	}
	if (!page_csrf_only(p))
		return;
	int rc = store_begin(p->store);
	if (rc == ST_OK) {
		rc = store_mail_off(p->store, off_token(p), &user);
		if (rc == ST_OK)
			rc = store_commit(p->store);
		else
			store_rollback(p->store);
	}
	if (rc == ST_OK)
		rc = store_mail_by_token(p->store, off_token(p), &user, &m);
	if (rc != ST_OK) {
		page_fail(p, rc);
		return;
	}
	off_page(p, &m, 1);
}
