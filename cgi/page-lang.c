/* page-lang.c — the language switch: a visitor's link (GET /lang: a
 * cookie) and a user's choice for the account (POST /me/lang), both back
 * to the page they came from. docs/i18n.md says how the language of a
 * request is found. */
#include <string.h>

#include "i18n.h"
#include "page.h"

enum { LANG_COOKIE_SECONDS = 365L * 24 * 3600 };

/* GET /lang?to=en&back=/t/5: the visitor's language in a cookie, then 303
 * back (to "/" for a back that is not a path of ours). A GET: a link works
 * without a form, and what it changes is the visitor's own display. */
void page_lang(struct page *p)
{
	int l = i18n_parse(http_get(&p->req->query, "to"));
	if (l < 0) {
		page_error(p, HTTP_400, "invalid_field");
		return;
	}
	http_set_cookie(&p->resp, PAGE_COOKIE_LANG, lang_code[l], LANG_COOKIE_SECONDS);
	page_redirect(p, page_back(p, http_get(&p->req->query, "back")));
}

/* POST /me/lang (lang, back): the account's language (mails too), and the
 * cookie, so that the browser keeps it after logging out; 303 back. */
void page_lang_save(struct page *p)
{
	static const struct http_rule rules[] = {
		{ "csrf", HTTP_V_TEXT, 1, 1, 64 },
		{ "lang", HTTP_V_TEXT, 1, 1, 8 },
		{ "back", HTTP_V_TEXT, 0, 0, 512 },
	};
	struct http_value f[3];
	enum http_err err = http_validate(&p->req->form, rules, 3, f);
	int l = err ? -1 : i18n_parse(f[1].s);
	if (l < 0) {
		page_error(p, err ? http_err_status(err) : HTTP_400,
			   err ? http_err_key(err) : "invalid_field");
		return;
	}
	int rc = store_user_set_lang(p->store, p->user_id, lang_code[l]);
	if (rc != ST_OK) {
		page_fail(p, rc);
		return;
	}
	http_set_cookie(&p->resp, PAGE_COOKIE_LANG, lang_code[l], LANG_COOKIE_SECONDS);
	page_redirect(p, page_back(p, f[2].s));
}
