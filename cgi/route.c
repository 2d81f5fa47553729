/* route.c — the dispatch table and what happens before every handler. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "i18n.h"
#include "route.h"

enum route_flag {
	R_PUBLIC = 0,
	R_LOGIN = 1,        /* only for a logged-in user */
	R_NO_SESSION = 2,   /* skip the session lookup (the poll: one read only) */
};

enum route_id {
	RT_LOBBY, RT_ME, RT_ME_POLL, RT_ME_POLL_TOKEN, RT_CREATE,
	RT_REGISTER_FORM, RT_REGISTER, RT_LOGIN_FORM, RT_LOGIN, RT_LOGOUT,
	RT_TABLE, RT_TABLE_JSON, RT_JOIN, RT_LEAVE, RT_BOT, RT_SEAT, RT_INVITE, RT_UNINVITE, RT_REMATCH,
	RT_MOVE, RT_POLL,
	RT_CHAT,
	RT_FEED, RT_FEED_RENEW,
	RT_PROFILE, RT_RATINGS,
	RT_TOURNAMENTS, RT_TOURNAMENT_NEW, RT_TOURNAMENT_CREATE, RT_TOURNAMENT,
	RT_TOURNAMENT_JSON, RT_TOURNAMENT_POLL, RT_TOURNAMENT_STANDINGS, RT_TOURNAMENT_RESULTS,
	RT_TOURNAMENT_REGISTER, RT_TOURNAMENT_WITHDRAW, RT_TOURNAMENT_START,
	RT_MAIL_SAVE, RT_MAIL_OFF_FORM, RT_MAIL_OFF,
	RT_LANG, RT_LANG_SAVE,
	RT_REPLAY, RT_REPLAY_JSON, RT_REPLAY_TXT, RT_SINCE,
	RT__MAX
};

/* In a pattern, '#' stands for a table id: 1 to 18 digits, no leading 0;
 * '$' for a token: 43 characters of base64url (the handler reads it);
 * '@' for a user name: 1 to NAME_SEG_MAX characters of A–Z a–z 0–9 . - _
 * and %XX escapes (two hex digits), decoded as UTF-8 into p->name, which
 * must then be a valid name (auth_name_valid), else the path is a 404. */
enum { NAME_SEG_MAX = AUTH_NAME_MAX * 6 };   /* 24 letters of two bytes, each as %XX%XX */
static const struct route {
	enum http_method method;
	const char *pattern;
	void (*fn)(struct page *);
	unsigned flags;
} routes[] = {
	[RT_LOBBY] = { HTTP_GET, "/", page_lobby, R_PUBLIC },
	[RT_ME] = { HTTP_GET, "/me", page_me, R_LOGIN },
	[RT_ME_POLL] = { HTTP_GET, "/me/poll", page_me_poll, R_LOGIN },
	[RT_ME_POLL_TOKEN] = { HTTP_GET, "/me/poll/$", page_me_poll_token, R_NO_SESSION },
	[RT_CREATE] = { HTTP_POST, "/tables", page_table_create, R_LOGIN },
	[RT_REGISTER_FORM] = { HTTP_GET, "/register", page_register_form, R_PUBLIC },
	[RT_REGISTER] = { HTTP_POST, "/register", page_register, R_PUBLIC },
	[RT_LOGIN_FORM] = { HTTP_GET, "/login", page_login_form, R_PUBLIC },
	[RT_LOGIN] = { HTTP_POST, "/login", page_login, R_PUBLIC },
	[RT_LOGOUT] = { HTTP_POST, "/logout", page_logout, R_LOGIN },
	[RT_TABLE] = { HTTP_GET, "/t/#", page_table, R_PUBLIC },
	[RT_TABLE_JSON] = { HTTP_GET, "/t/#.json", page_table_json, R_PUBLIC },
	[RT_JOIN] = { HTTP_POST, "/t/#/join", page_table_join, R_LOGIN },
	[RT_LEAVE] = { HTTP_POST, "/t/#/leave", page_table_leave, R_LOGIN },
	[RT_BOT] = { HTTP_POST, "/t/#/bot", page_table_bot, R_LOGIN },
	[RT_SEAT] = { HTTP_POST, "/t/#/seat", page_table_seat, R_LOGIN },
	[RT_INVITE] = { HTTP_POST, "/t/#/invite", page_table_invite, R_LOGIN },
	[RT_UNINVITE] = { HTTP_POST, "/t/#/uninvite", page_table_uninvite, R_LOGIN },
	[RT_REMATCH] = { HTTP_POST, "/t/#/rematch", page_table_rematch, R_LOGIN },
	[RT_MOVE] = { HTTP_POST, "/t/#/move", page_table_move, R_LOGIN },
	[RT_POLL] = { HTTP_GET, "/t/#/poll", page_poll, R_NO_SESSION },
	[RT_CHAT] = { HTTP_POST, "/t/#/chat", page_table_chat, R_LOGIN },
	[RT_FEED] = { HTTP_GET, "/feed/$.atom", page_feed, R_NO_SESSION },
	[RT_FEED_RENEW] = { HTTP_POST, "/me/feed", page_feed_renew, R_LOGIN },
	[RT_PROFILE] = { HTTP_GET, "/u/@", page_profile, R_PUBLIC },
	[RT_RATINGS] = { HTTP_GET, "/ratings", page_ratings, R_PUBLIC },
	[RT_TOURNAMENTS] = { HTTP_GET, "/tournaments", page_tournaments, R_PUBLIC },
	[RT_TOURNAMENT_NEW] = { HTTP_GET, "/tournaments/new", page_tournament_new, R_LOGIN },
	[RT_TOURNAMENT_CREATE] = { HTTP_POST, "/tournaments", page_tournament_create, R_LOGIN },
	[RT_TOURNAMENT] = { HTTP_GET, "/tournaments/#", page_tournament, R_PUBLIC },
	[RT_TOURNAMENT_JSON] = { HTTP_GET, "/tournaments/#.json", page_tournament_json, R_PUBLIC },
	[RT_TOURNAMENT_POLL] = { HTTP_GET, "/tournaments/#/poll", page_tournament_poll,
				 R_NO_SESSION },
	[RT_TOURNAMENT_STANDINGS] = { HTTP_GET, "/tournaments/#/standings.csv",
				      page_tournament_standings_csv, R_PUBLIC },
	[RT_TOURNAMENT_RESULTS] = { HTTP_GET, "/tournaments/#/results.csv",
				    page_tournament_results_csv, R_PUBLIC },
	[RT_TOURNAMENT_REGISTER] = { HTTP_POST, "/tournaments/#/register", page_tournament_register,
				     R_LOGIN },
	[RT_TOURNAMENT_WITHDRAW] = { HTTP_POST, "/tournaments/#/withdraw", page_tournament_withdraw,
				     R_LOGIN },
	[RT_TOURNAMENT_START] = { HTTP_POST, "/tournaments/#/start", page_tournament_start,
				  R_LOGIN },
	[RT_MAIL_SAVE] = { HTTP_POST, "/me/mail", page_mail_save, R_LOGIN },
	[RT_MAIL_OFF_FORM] = { HTTP_GET, "/mail/off/$", page_mail_off_form, R_PUBLIC },
	[RT_MAIL_OFF] = { HTTP_POST, "/mail/off/$", page_mail_off, R_PUBLIC },
	[RT_LANG] = { HTTP_GET, "/lang", page_lang, R_PUBLIC },
	[RT_LANG_SAVE] = { HTTP_POST, "/me/lang", page_lang_save, R_LOGIN },
	/* replays (page-replay.c) */
	[RT_REPLAY] = { HTTP_GET, "/t/#/replay", page_replay, R_PUBLIC },
	[RT_REPLAY_JSON] = { HTTP_GET, "/t/#/replay.json", page_replay_json, R_PUBLIC },
	[RT_REPLAY_TXT] = { HTTP_GET, "/t/#/replay.txt", page_replay_txt, R_PUBLIC },
	[RT_SINCE] = { HTTP_GET, "/t/#/since", page_since, R_LOGIN },
};
_Static_assert(sizeof routes / sizeof routes[0] == RT__MAX, "one row per route");

static int hex_digit(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* The length of the name segment at q ('@'), or 0 when it is none. */
static size_t name_segment(const char *q)
{
	size_t n = 0;
	while (n <= NAME_SEG_MAX) {
		char c = q[n];
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '.' || c == '-' || c == '_')
			n++;
		else if (c == '%' && hex_digit(q[n + 1]) && hex_digit(q[n + 2]))
			n += 3;
		else
			break;
	}
	return n <= NAME_SEG_MAX ? n : 0;
}

/* 1 when path matches pattern; the id '#' stands for goes to *id, the
 * segment '@' stands for to *seg and *seglen. */
static int match(const char *pattern, const char *path, int64_t *id, const char **seg,
		 size_t *seglen)
{
	const char *q = path;
	for (const char *c = pattern; *c; c++) {
		if (*c == '@') {
			size_t n = name_segment(q);
			if (!n)
				return 0;
			*seg = q;
			*seglen = n;
			q += n;
			continue;
		}
		if (*c == '$') {
			for (int k = 0; k < AUTH_TOKEN_LEN; k++, q++)
				if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
				      (*q >= '0' && *q <= '9') || *q == '-' || *q == '_'))
					return 0;
			continue;
		}
		if (*c != '#') {
			if (*q++ != *c)
				return 0;
			continue;
		}
		if (*q < '1' || *q > '9')
			return 0;
		int64_t v = 0;
		int digits = 0;
		while (*q >= '0' && *q <= '9') {
			if (++digits > 18)
				return 0;
			v = v * 10 + (*q++ - '0');
		}
		*id = v;
	}
	return *q == '\0';
}

/* The language of a request before its session is known: the visitor's
 * choice (the cookie), else what the browser asks for, else German. */
static void language(struct page *p)
{
	int l = i18n_parse(http_get(&p->req->cookies, PAGE_COOKIE_LANG));
	i18n_use(l >= 0 ? (enum lang)l : i18n_accept(p->req->accept_language));
}

/* Looks up the session of the cookie; fills user and CSRF token, or the
 * pre-session token for a visitor. A stale session cookie is cleared. The
 * language a user chose for the account wins over the browser's. */
static void session(struct page *p)
{
	const char *tok = http_get(&p->req->cookies, PAGE_COOKIE_SESSION);
	if (tok && *tok) {
		struct st_session ss;
		if (auth_session_read(p->store, tok, p->now_ms, &ss) == AUTH_OK) {
			p->user_id = ss.user_id;
			p->token = tok;
			memcpy(p->user_name, ss.name, sizeof p->user_name);
			memcpy(p->csrf, ss.csrf, sizeof p->csrf);
			int l = i18n_parse(ss.lang);
			if (l >= 0)
				i18n_use((enum lang)l);
			return;
		}
		http_set_cookie(&p->resp, PAGE_COOKIE_SESSION, "", 0);
	}
	const char *pre = http_get(&p->req->cookies, PAGE_COOKIE_PRESESSION);
	if (page_token_ok(pre))
		memcpy(p->csrf, pre, AUTH_TOKEN_LEN + 1);
}

/* Finds the route and runs its handler (see route_dispatch). */
static void dispatch(struct page *p)
{
	enum http_method m = p->req->method == HTTP_HEAD ? HTTP_GET : p->req->method;
	p->head_only = p->req->method == HTTP_HEAD;
	language(p);
	const struct route *hit = NULL;
	char allow[32] = "";
	const char *seg = NULL;
	size_t seglen = 0;
	for (int i = 0; i < RT__MAX; i++) {
		int64_t id = 0;
		const char *s = NULL;
		size_t slen = 0;
		if (!match(routes[i].pattern, p->req->path, &id, &s, &slen))
			continue;
		if (routes[i].method == m) {
			hit = &routes[i];
			p->id = id;
			seg = s;
			seglen = slen;
			break;
		}
		const char *name = routes[i].method == HTTP_GET ? "GET, HEAD" : "POST";
		if (!strstr(allow, name))
			snprintf(allow + strlen(allow), sizeof allow - strlen(allow), "%s%s",
				 allow[0] ? ", " : "", name);
	}
	if (!hit) {
		session(p);   /* an error page, too, shows who is logged in */
		if (allow[0]) {
			page_error(p, HTTP_405, "method");
			p->resp.allow = arena_strdup(p->a, allow);
		} else
			page_error(p, HTTP_404, "notfound");
		return;
	}
	if (!(hit->flags & R_NO_SESSION))
		session(p);
	if (seg) {
		p->name = http_path_decode(p->a, seg, seglen);
		if (!p->name || !auth_name_valid(p->name)) {
			page_error(p, HTTP_404, "notfound");
			return;
		}
	}
	if (m == HTTP_POST) {
		const char *sent = http_get(&p->req->form, "csrf");
		if (!p->csrf[0] || !sent || !auth_csrf_ok(p->csrf, sent)) {
			page_error(p, HTTP_403, "csrf");
			return;
		}
	}
	if ((hit->flags & R_LOGIN) && !p->user_id) {
		if (m == HTTP_GET) {
			char *to = arena_printf(p->a, "/login?next=%s", p->req->path);
			page_redirect(p, to ? to : "/login");
		} else
			page_error(p, HTTP_403, "login");
		return;
	}
	hit->fn(p);
}

/* 1 when SPIELTISCH_DEBUG=1 (the tests): a bug found here aborts. */
static int debug_build(void)
{
	const char *v = getenv("SPIELTISCH_DEBUG");
	return v && strcmp(v, "1") == 0;
}

/* No transaction outlives its request: whatever a handler left open is
 * rolled back here, whatever path it took; that is a bug of the handler,
 * logged as one. An answer that claimed success is replaced by a 500 (the
 * write it reported was just undone); with SPIELTISCH_DEBUG=1 the worker
 * aborts, so that a test sees the bug at once. */
void route_dispatch(struct page *p)
{
	dispatch(p);
	if (!store_end_request(p->store))
		return;
	fprintf(stderr, "BUG: %s %s left a transaction open (answer %d): rolled back\n",
		p->req->method == HTTP_POST ? "POST" : "GET", p->req->path,
		http_status_code(p->resp.status));
	if (debug_build())
		abort();
	if (p->resp.status < HTTP_400)
		page_error(p, HTTP_500, "internal");
}

int route_count(void)
{
	return RT__MAX;
}

const char *route_pattern(int i, enum http_method *method)
{
	if (i < 0 || i >= RT__MAX)
		return NULL;
	if (method)
		*method = routes[i].method;
	return routes[i].pattern;
}
