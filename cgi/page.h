/*
 * page.h — what every page handler gets and the helpers they share.
 *
 * A handler reads p->req (already decoded and CSRF-checked by route.c),
 * talks to the store through store.h/auth.h/play.h, fills a view tree and
 * ends with exactly one of page_html, page_json, page_redirect, page_error,
 * page_status. Everything it allocates comes from p->a.
 */
#ifndef SPIELTISCH_PAGE_H
#define SPIELTISCH_PAGE_H

#include <stdint.h>

#include "arena.h"
#include "auth.h"
#include "game.h"
#include "http.h"
#include "store.h"
#include "view.h"

struct page {
	struct arena *a;
	struct store *store;
	const struct http_conf *conf;
	struct http_req *req;
	struct http_resp resp;
	int64_t now_ms;
	int64_t user_id;                      /* 0: not logged in */
	char user_name[ST_NAME_MAX + 1];
	const char *token;                    /* the session cookie, NULL without one */
	char csrf[AUTH_TOKEN_LEN + 1];        /* the session's, or the pre-session cookie's */
	int64_t id;                           /* the <id> of /t/<id>…, 0 otherwise */
	const char *name;                     /* the <name> of /u/<name>, decoded and a
	                                       * valid name (route.c); NULL otherwise */
	int head_only;                        /* HEAD: the body is not sent */
	const char *chat_note;               /* a refused chat message: why (page-chat.c) */
	const char *chat_text;               /* … and its text, back in the chat field */
	const char *mail_note;               /* a refused mail address: why (page-mail.c) */
	const char *mail_address;            /* … and the address, back in its field */
};

/* The frame around a page: title and, on a table page, what poll.js reads. */
struct page_head {
	const char *page;                     /* "lobby", …: header.tpl names it in German */
	const char *title;                    /* a title from data (a game's), or NULL */
	const char *game_slug;                /* links static/game-<slug>.css; NULL none */
	const char *poll_url;                 /* NULL: no polling */
	const char *table_url;                /* the GET URL poll.js and the refresh reload */
	long long version;
	const char *alert;                    /* poll.js puts it before the title ("Du bist dran!") */
	int refresh;                          /* <noscript> meta refresh of table_url */
	int attention;                        /* the viewer may act: the favicon's badge */
	int waiting_known;                    /* waiting is the viewer's count of tables
	                                       * waiting for them (store_user_acting), read
	                                       * with the page's data; 0: the frame reads it */
	int waiting;
};

/* Expands `tpl` with v plus the frame (header.tpl, footer.tpl) as the
 * response with `status`; 500 (error page) when expansion fails. */
void page_html(struct page *p, enum http_status status, const char *tpl, struct view *v,
	       const struct page_head *head);
/* The tree as JSON with `status`; 500 when it cannot be written. */
void page_json(struct page *p, enum http_status status, struct view *v);
/* 303 to a path of this site. */
void page_redirect(struct page *p, const char *location);
/* `back` when it is a path of this site (a '/' not followed by '/', then
 * A–Z a–z 0–9 / . _ ~ - and %XX escapes), else "/": where a switch that
 * returns to its page may send the browser. */
const char *page_back(struct page *p, const char *back);
/* The path of table `id` followed by `tail` ("", "/move", "/poll",
 * "#spiel"): every link to a table, in C and (as a view value) in the
 * templates, is built here. A string in the arena, or NULL. */
const char *page_table_url(struct page *p, int64_t id, const char *tail);
/* head, id in decimal, tail, in p's arena (as arena_printf "%s%lld%s" but
 * without formatting: a tournament page makes 500 such links); NULL when
 * the arena is exhausted. */
const char *page_id_url(struct page *p, const char *head, int64_t id, const char *tail);
/* The path of a user's profile, /u/<name> with the name percent-encoded:
 * every link to a profile is built here, never in a template. A string in
 * the arena, or NULL. */
const char *page_user_url(struct page *p, const char *name);
/* The leaderboard of game `slug` (/ratings?game=slug). */
const char *page_ratings_url(struct page *p, const char *slug);
/* 303 to page_table_url(p, id, tail); to "/" when the arena is exhausted. */
void page_redirect_table(struct page *p, int64_t id, const char *tail);
/* A POST whose form is the csrf field alone (the router checked its value):
 * 1, or 0 with the error page answered (a field too many, a malformed one). */
int page_csrf_only(struct page *p);
/* The error page for `status`; `why` names a reason section of error.tpl
 * (an http_err key, "csrf", "login", …) or is NULL. */
void page_error(struct page *p, enum http_status status, const char *why);
/* page_error for a failed store read: 404 "notfound", 503 "busy", else
 * 500 "internal". */
/* The error page of a result code (rc.h; ST_* and PLAY_* are its names):
 * 404 for RC_NOTFOUND, 503 for a busy database, a full disk or a damaged
 * table, 500 for what should not happen. page_fail_as names what was not
 * found ("notable": a table). */
void page_fail(struct page *p, int rc);
void page_fail_as(struct page *p, int rc, const char *notfound);
/* A bodiless answer (204) or a tiny text/plain one. */
void page_status(struct page *p, enum http_status status, const char *text);

/* Makes sure a logged-out visitor has a pre-session CSRF token: reuses the
 * cookie "stc" or sets a new one; afterwards p->csrf is filled. */
void page_presession(struct page *p);

/* 1 when s has the shape of one of our tokens (43 base64url characters). */
int page_token_ok(const char *s);

/* A fresh view tree in the request's arena with the keys every page has
 * (csrf, logged_in, user_name). */
void page_view(struct page *p, struct view *v);
/* The same, for a page answered with page_json only: no tree is built, the
 * entries are written as JSON as they come (view_json). */
void page_view_json(struct page *p, struct view *v);

/* A quantity with its unit for the pages: "15 s", "1 Deck", "2 Decks". Units
 * are given in the plural (struct game_option); a word unit ending in -s
 * drops it after 1. A string in the arena, or NULL. */
const char *page_quantity(struct arena *a, long long n, const char *unit);
/* A clock's time left (ms) in words: "3 Tage", "5 Std. 10 Min.", "45 s";
 * days and hours are the clock's (day_ms long, shorter on a test server). */
const char *page_clock_text(struct arena *a, int64_t ms, int64_t day_ms);
/* A table's speed in words, for the lobby and the table. */
const char *page_speed_text(struct arena *a, const struct st_table *t);

/* The options of a table (their stored text) as section `opts`: label and
 * text ("15 s", "ja", "nein") per option. Nothing when they do not parse. */
void page_options_view(struct page *p, struct view *v, const struct game *g, const char *text);
/* The same at a table: with clock_windows (over days) an option in seconds
 * (a window's or a turn's deadline) says that the seat's clock decides. */
void page_options_view_at(struct page *p, struct view *v, const struct game *g, const char *text,
			  int clock_windows);

/* The form of a new table's game options and speed (a lobby's table, a
 * tournament's tables): PAGE_TABLE_FIELDS rules at most, in this order:
 * the game's options, then speed, move_seconds, clock_days, move_hours,
 * weekend, timeouts. page_table_form_rules writes them to r and returns
 * how many; page_table_form_read reads the validated values f (laid out
 * alike) into the canonical options text and the speed, -1 for a bad
 * speed or options that do not fit. page_table_form_view adds the
 * partial {{>table_fields}} (table-fields.tpl) with the game's options. */
enum { PAGE_TABLE_FIELDS = GAME_OPT_MAX + 6 };
struct play_speed;
int page_table_form_rules(const struct game *g, struct http_rule *r);
int page_table_form_read(const struct game *g, const struct http_value *f, char *opts,
			 size_t cap, struct play_speed *sp);
void page_table_form_view(struct view *v, const struct game *g);
/* A clock's day: a day, or on a test server $SPIELTISCH_DAY_SECONDS
 * (1..86400) seconds, so that a test runs days in seconds. */
int64_t page_day_ms(void);
/* Section "note" with `text` (a refused form's reason); nothing for NULL. */
void page_note_view(struct view *v, const char *note);
/* A time in the server's time zone by strftime format fmt ("%d.%m.%Y":
 * "05.03.2026"), in the arena; "" when it cannot be written. */
const char *page_local_time(struct page *p, int64_t ms, const char *fmt);

/* Tournaments (page-tournaments.c): the format's German name and its key
 * ("swiss"), the status's German text or key ("running"), a tournament's
 * URL with a tail (".json", "/poll", ""), and the fields of one listed
 * tournament (name, url, game_title, format, status, status_text,
 * player_count, round, rounds_total, started, starts). */
struct st_tourney;
const char *page_tourney_format(int format);
const char *page_tourney_format_key(int format);
const char *page_tourney_status(int status, int key);
const char *page_tourney_url(struct page *p, int64_t id, const char *tail);
void page_tourney_row(struct page *p, struct view *v, const struct st_tourney *t);
/* A list of tournaments being read into section "tournaments"
 * (page_tourney_rows as the store's st_tourney_fn): n counts them. */
struct page_tourney_list {
	struct page *p;
	struct view *v;
	int n;
};
void page_tourney_rows(void *ctx, const struct st_tourney *t);

/* The handlers (route.c's table). */
void page_lobby(struct page *p);
void page_me(struct page *p);
void page_table_create(struct page *p);
void page_register_form(struct page *p);
void page_register(struct page *p);
void page_login_form(struct page *p);
void page_login(struct page *p);
void page_logout(struct page *p);
void page_table(struct page *p);
void page_table_json(struct page *p);
void page_table_join(struct page *p);
void page_table_leave(struct page *p);
void page_table_bot(struct page *p);
void page_table_seat(struct page *p);
void page_table_move(struct page *p);
void page_poll(struct page *p);
void page_table_chat(struct page *p);
void page_me_poll(struct page *p);
void page_me_poll_token(struct page *p);
void page_ratings(struct page *p);
void page_tournaments(struct page *p);
void page_tournament_new(struct page *p);
void page_tournament_create(struct page *p);
void page_tournament(struct page *p);
void page_tournament_json(struct page *p);
void page_tournament_poll(struct page *p);
void page_tournament_standings_csv(struct page *p);
void page_tournament_results_csv(struct page *p);
void page_tournament_register(struct page *p);
void page_tournament_withdraw(struct page *p);
void page_tournament_start(struct page *p);
void page_table_invite(struct page *p);
/* POST /t/<id>/uninvite, invite=<id>: withdraws an invitation (invite.h). */
void page_table_uninvite(struct page *p);
void page_table_rematch(struct page *p);
void page_feed(struct page *p);
void page_feed_renew(struct page *p);
void page_profile(struct page *p);
void page_mail_save(struct page *p);
void page_mail_off_form(struct page *p);
void page_mail_off(struct page *p);
void page_lang(struct page *p);
void page_lang_save(struct page *p);
/* page-replay.c: a party position by position, its JSON twin, its
 * export as text, and "Seit deinem letzten Zug"; page_replay_links adds
 * to a table's tree the links to them (`replay_links`). */
void page_replay(struct page *p);
void page_replay_json(struct page *p);
void page_replay_txt(struct page *p);
void page_since(struct page *p);
struct play_table;
void page_replay_links(struct page *p, const struct play_table *pt, struct view *v);
/* 0 when the viewer (seat `my_seat`, -1 none) may not see running table t
 * because it allows no spectators (027_spectators.sql), else 1. */
int page_may_watch(struct page *p, const struct st_table *t, int my_seat);

/* page-lobby.c: the account page (/me) with `status`, p->mail_note and
 * p->mail_address in its mail section. */
void page_me_show(struct page *p, enum http_status status);
/* page-mail.c: section `mail` of the account page while mail is on (the
 * address, the choice, a note). 0, or -1 on a store error. */
int page_mail_view(struct page *p, struct view *v);

/* page-feed.c: section `feed` of the account page (/me): the user's feed
 * address (`url`, the token made on first use) and `renew_url`, the form
 * that replaces it. 0, or -1 on a store error. */
int page_feed_view(struct page *p, struct view *v);

/* page-table.c: table p->id's page (the JSON twin when the request asks
 * for JSON) with `status`, p->chat_note and p->chat_text in its chat card. */
void page_table_show(struct page *p, enum http_status status);
/* A refused chat message: a browser goes back to the table's chat (303,
 * the reason and the text kept for the chat card, signed in a cookie like
 * a refused move's); others get the page with `status`. */
void page_table_chat_refused(struct page *p, enum http_status status, const char *note,
			     const char *text);
/* page-chat.c: the chat of table `table` for the viewer (sections `chat`,
 * `chat_muted`, the form's values); `seated`: the viewer may write.
 * 0, or -1 on a store error. */
int page_chat_view(struct page *p, int64_t table, int seated, int has_chat, struct view *v);

/* page-profile.c: the place of the user's seat (f->my_seat) in a finished
 * table's standings (match_standings: by totals, seats that resigned
 * last); *win is 1 when that is place 1 after at least one finished party.
 * 0 (and no win) for a row that makes no sense. */
int page_profile_place(const struct st_finished *f, int *win);

/* Names of the session cookies. */
#define PAGE_COOKIE_SESSION "st"
#define PAGE_COOKIE_PRESESSION "stc"
#define PAGE_COOKIE_LANG "lang"   /* a visitor's language switch: "en" */

#endif
