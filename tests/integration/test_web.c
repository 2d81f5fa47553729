/*
 * test_web.c — the web platform end to end, through nginx: accounts, a
 * Drehwurm table created in the lobby and joined by the invite link, a whole
 * match played with legal moves taken from the JSON twin, and the ways a
 * request is refused (CSRF, wrong seat, stale page, lost race, limits,
 * unknown paths), how a browser is sent back to the table after a refusal,
 * what a snap window says to whom. Every loop is bounded in count and in
 * time.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>
#include <cmocka.h>

#include <jansson.h>

#include "integration/harness.h"
#include "integration/suite.h"

enum { PLAYERS = 3, MATCH_STEPS_MAX = 4000, MATCH_SECONDS_MAX = 240 };

static const char *const names[PLAYERS] = { "anna", "bert", "carla" };
static struct h_client *player[PLAYERS];
static struct h_client *outsider;
static char table_path[64];      /* "/t/<id>" */
static int64_t table_id;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int start(void **state)
{
	(void)state;
	if (h_start() != 0)
		return -1;
	return 0;
}

static int stop(void **state)
{
	(void)state;
	for (int i = 0; i < PLAYERS; i++)
		h_client_free(player[i]);
	h_client_free(outsider);
	h_stop();
	return 0;
}

/* The JSON twin of the table as `c` sees it; the caller json_decref()s. */
static json_t *table_json(struct h_client *c)
{
	char path[96];
	snprintf(path, sizeof path, "%s.json", table_path);
	struct h_resp r;
	assert_int_equal(h_get(c, path, &r), 0);
	assert_int_equal(r.status, 200);
	char ct[128];
	assert_int_equal(h_header(&r, "Content-Type", ct, sizeof ct), 0);
	assert_non_null(strstr(ct, "application/json"));
	json_error_t err;
	json_t *o = json_loads(r.body, 0, &err);
	h_resp_free(&r);
	assert_non_null(o);
	return o;
}

static int64_t jint(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	assert_true(json_is_integer(v));
	return (int64_t)json_integer_value(v);
}

static const char *jstr(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	assert_true(json_is_string(v));
	return json_string_value(v);
}

static int jbool(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	assert_true(json_is_boolean(v));
	return json_is_true(v);
}

static int64_t version_of(struct h_client *c)
{
	json_t *o = table_json(c);
	int64_t v = jint(o, "version");
	json_decref(o);
	return v;
}

/* Posts `move` with version v and c's CSRF token; returns the status. */
static long post_move(struct h_client *c, const char *csrf, int64_t v, const char *move)
{
	char path[96], vs[32];
	snprintf(path, sizeof path, "%s/move", table_path);
	snprintf(vs, sizeof vs, "%lld", (long long)v);
	struct h_resp r;
	assert_int_equal(h_post_form(c, path, &r, "csrf", csrf, "v", vs, "move", move, NULL), 0);
	long st = r.status;
	h_resp_free(&r);
	return st;
}

/* Registers `name` with a fresh client: GET the form, POST it, 303. */
static struct h_client *register_user(const char *name, const char *next)
{
	struct h_client *c = h_client_new();
	assert_non_null(c);
	struct h_resp r;
	char csrf[128];
	assert_int_equal(h_get(c, "/register", &r), 0);
	assert_int_equal(r.status, 200);
	assert_int_equal(h_csrf(&r, csrf, sizeof csrf), 0);
	h_resp_free(&r);
	assert_int_equal(h_post_form(c, "/register", &r, "csrf", csrf, "name", name,
				     "password", "geheim123", "password2", "geheim123",
				     "next", next ? next : "/", NULL), 0);
	assert_int_equal(r.status, 303);
	char loc[128];
	assert_int_equal(h_header(&r, "Location", loc, sizeof loc), 0);
	assert_string_equal(loc, next ? next : "/");
	h_resp_free(&r);
	char tok[128];
	assert_int_equal(h_cookie(c, "st", tok, sizeof tok), 0);
	return c;
}

static void test_headers_and_errors(void **state)
{
	(void)state;
	struct h_client *c = h_client_new();
	struct h_resp r;
	char v[512];
	assert_int_equal(h_get(c, "/", &r), 0);
	assert_int_equal(r.status, 200);
	assert_int_equal(h_header(&r, "Content-Security-Policy", v, sizeof v), 0);
	assert_string_equal(v, "default-src 'self'; script-src 'self'; style-src 'self'; "
			       "img-src 'self' data:; frame-ancestors 'none'; form-action 'self'; "
			       "base-uri 'none'");
	assert_int_equal(h_header(&r, "X-Content-Type-Options", v, sizeof v), 0);
	assert_string_equal(v, "nosniff");
	assert_int_equal(h_header(&r, "Referrer-Policy", v, sizeof v), 0);
	assert_string_equal(v, "same-origin");
	assert_int_equal(h_header(&r, "Cache-Control", v, sizeof v), 0);
	assert_string_equal(v, "no-store");
	assert_true(h_has(&r, "Drehwurm"));
	assert_true(h_has(&r, "Worst Game Ever"));
	assert_false(h_has(&r, "class=\"game coming\""));   /* every game is playable now */
	assert_false(h_has(&r, "<script>"));     /* no inline script anywhere */
	h_resp_free(&r);

	assert_int_equal(h_get(c, "/nowhere", &r), 0);
	assert_int_equal(r.status, 404);
	assert_int_equal(h_header(&r, "Content-Security-Policy", v, sizeof v), 0);
	assert_true(h_has(&r, "Diese Seite gibt es nicht."));
	h_resp_free(&r);
	assert_int_equal(h_get(c, "/t/0", &r), 0);      /* ids have no leading zero */
	assert_int_equal(r.status, 404);
	h_resp_free(&r);
	assert_int_equal(h_get(c, "/t/999999", &r), 0);
	assert_int_equal(r.status, 404);
	h_resp_free(&r);
	assert_int_equal(h_get(c, "/t/999999/poll?v=1", &r), 0);
	assert_int_equal(r.status, 404);
	h_resp_free(&r);

	assert_int_equal(h_request(c, "DELETE", "/", NULL, NULL, 0, &r), 0);
	assert_int_equal(r.status, 405);
	assert_int_equal(h_header(&r, "Allow", v, sizeof v), 0);
	assert_string_equal(v, "GET, HEAD");
	h_resp_free(&r);
	assert_int_equal(h_get(c, "/logout", &r), 0);
	assert_int_equal(r.status, 405);
	h_resp_free(&r);

	/* over the app's 16 KiB (nginx lets 64 KiB through): 413 with a reason */
	size_t n = 20000;
	char *big = malloc(n + 1);
	memcpy(big, "name=", 5);
	memset(big + 5, 'a', n - 5);
	big[n] = '\0';
	assert_int_equal(h_request(c, "POST", "/login", "application/x-www-form-urlencoded",
				   big, n, &r), 0);
	assert_int_equal(r.status, 413);
	assert_true(h_has(&r, "größer"));
	h_resp_free(&r);
	free(big);

	/* a bad escape, a repeated key: 400 with a sentence */
	assert_int_equal(h_get(c, "/?a=%zz", &r), 0);
	assert_int_equal(r.status, 400);
	assert_true(h_has(&r, "Prozentzeichen"));
	h_resp_free(&r);
	assert_int_equal(h_get(c, "/?a=1&a=2", &r), 0);
	assert_int_equal(r.status, 400);
	h_resp_free(&r);

	/* a login POST without the pre-session token is refused */
	assert_int_equal(h_post_form(c, "/login", &r, "name", "x", "password", "y", NULL), 0);
	assert_int_equal(r.status, 403);
	h_resp_free(&r);
	h_client_free(c);
}

static void test_accounts(void **state)
{
	(void)state;
	struct h_client *c = register_user("dora", NULL);
	struct h_resp r;
	char csrf[128];

	/* the same name again (other case) is taken: 409, no session */
	struct h_client *d = h_client_new();
	assert_int_equal(h_get(d, "/register", &r), 0);
	assert_int_equal(h_csrf(&r, csrf, sizeof csrf), 0);
	h_resp_free(&r);
	assert_int_equal(h_post_form(d, "/register", &r, "csrf", csrf, "name", "Dora",
				     "password", "geheim123", "password2", "geheim123", NULL), 0);
	assert_int_equal(r.status, 409);
	h_resp_free(&r);
	char tok[128];
	assert_int_equal(h_cookie(d, "st", tok, sizeof tok), -1);

	/* wrong password: 422, the form again */
	assert_int_equal(h_post_form(d, "/login", &r, "csrf", csrf, "name", "dora",
				     "password", "falsch123", NULL), 0);
	assert_int_equal(r.status, 422);
	assert_true(h_has(&r, "name=\"password\""));
	h_resp_free(&r);
	/* right password: 303 and a session; `next` leads back */
	assert_int_equal(h_post_form(d, "/login", &r, "csrf", csrf, "name", "dora",
				     "password", "geheim123", "next", "/me", NULL), 0);
	assert_int_equal(r.status, 303);
	char loc[128];
	assert_int_equal(h_header(&r, "Location", loc, sizeof loc), 0);
	assert_string_equal(loc, "/me");
	h_resp_free(&r);
	/* not to another host */
	assert_int_equal(h_get(c, "/me", &r), 0);
	assert_int_equal(r.status, 200);
	assert_int_equal(h_csrf(&r, csrf, sizeof csrf), 0);
	h_resp_free(&r);

	/* logout needs the token; then /me sends to the login */
	assert_int_equal(h_post_form(c, "/logout", &r, NULL), 0);
	assert_int_equal(r.status, 403);
	h_resp_free(&r);
	assert_int_equal(h_post_form(c, "/logout", &r, "csrf", csrf, NULL), 0);
	assert_int_equal(r.status, 303);
	h_resp_free(&r);
	assert_int_equal(h_get(c, "/me", &r), 0);
	assert_int_equal(r.status, 303);
	assert_int_equal(h_header(&r, "Location", loc, sizeof loc), 0);
	assert_string_equal(loc, "/login?next=/me");
	h_resp_free(&r);
	h_client_free(c);
	h_client_free(d);
}

static void test_create_and_join(void **state)
{
	(void)state;
	player[0] = register_user(names[0], NULL);
	struct h_resp r;
	char csrf[128];
	assert_int_equal(h_get(player[0], "/", &r), 0);
	assert_int_equal(h_csrf(&r, csrf, sizeof csrf), 0);
	assert_true(h_has(&r, "name=\"snap_seconds\""));   /* the form comes from the options */
	/* each game, playable or announced, says in one line what it is */
	assert_true(h_has(&r, "mit Hühnern die besten Stapel fressen"));
	assert_true(h_has(&r, "Set-Karten an drei Stränge anlegen"));
	assert_true(h_has(&r, "Schnell ein Wort finden"));
	assert_true(h_has(&r, "Mit Würfeln Karten aus der Mitte reservieren"));
	h_resp_free(&r);
	/* an option out of range is refused before anything is stored */
	assert_int_equal(h_post_form(player[0], "/tables", &r, "csrf", csrf, "game", "drehwurm",
				     "seats", "3", "snap_seconds", "100000", NULL), 0);
	assert_int_equal(r.status, 400);
	h_resp_free(&r);
	assert_int_equal(h_post_form(player[0], "/tables", &r, "csrf", csrf, "game", "drehwurm",
				     "seats", "3", "snap_seconds", "2", NULL), 0);
	assert_int_equal(r.status, 303);
	assert_int_equal(h_header(&r, "Location", table_path, sizeof table_path), 0);
	h_resp_free(&r);
	assert_int_equal(strncmp(table_path, "/t/", 3), 0);
	table_id = strtoll(table_path + 3, NULL, 10);
	assert_true(table_id > 0);
	/* the lobby lists it with its options as the table page words them */
	assert_int_equal(h_get(player[0], "/", &r), 0);
	assert_true(h_has(&r, "Zeit für einen Zwischenwurf: 2\xc2\xa0s"));
	h_resp_free(&r);

	/* the others follow the invite link, register from there and join */
	for (int i = 1; i < PLAYERS; i++) {
		struct h_client *v = h_client_new();
		assert_int_equal(h_get(v, table_path, &r), 0);
		assert_int_equal(r.status, 200);
		assert_true(h_has(&r, "Anmelden, um mitzuspielen"));
		/* what the game is and how it is played, before joining */
		assert_true(h_has(&r, "So wird Drehwurm gespielt"));
		assert_true(h_has(&r, "dazwischenwerfen"));
		h_resp_free(&r);
		h_client_free(v);
		player[i] = register_user(names[i], table_path);
		assert_int_equal(h_get(player[i], table_path, &r), 0);
		assert_int_equal(r.status, 200);
		assert_true(h_has(&r, "Mitspielen"));
		assert_int_equal(h_csrf(&r, csrf, sizeof csrf), 0);
		h_resp_free(&r);
		char path[96];
		snprintf(path, sizeof path, "%s/join", table_path);
		assert_int_equal(h_post_form(player[i], path, &r, "csrf", csrf, NULL), 0);
		assert_int_equal(r.status, 303);
		h_resp_free(&r);
		/* joining twice is refused */
		assert_int_equal(h_post_form(player[i], path, &r, "csrf", csrf, NULL), 0);
		assert_int_equal(r.status, 409);
		h_resp_free(&r);
	}
	json_t *o = table_json(player[0]);
	assert_string_equal(jstr(o, "status"), "playing");
	assert_int_equal(jint(o, "my_seat"), 0);
	assert_int_equal(json_array_size(json_object_get(o, "seats")), PLAYERS);
	assert_true(json_is_object(json_object_get(o, "game")));
	json_decref(o);

	/* an outsider sees the table but has no seat and no moves */
	outsider = register_user("erik", NULL);
	o = table_json(outsider);
	assert_int_equal(jint(o, "my_seat"), -1);
	assert_int_equal(json_array_size(json_object_get(o, "moves")), 0);
	json_decref(o);
}

/* The seat whose regular turn it is and its first legal move. */
static int turn_player(char *move, size_t cap, int64_t *v, char *csrf, size_t ccap)
{
	for (int i = 0; i < PLAYERS; i++) {
		json_t *o = table_json(player[i]);
		if (jbool(o, "my_turn")) {
			json_t *m = json_array_get(json_object_get(o, "moves"), 0);
			assert_non_null(m);
			snprintf(move, cap, "%s", jstr(m, "move"));
			snprintf(csrf, ccap, "%s", jstr(o, "csrf"));
			*v = jint(o, "version");
			json_decref(o);
			return i;
		}
		json_decref(o);
	}
	return -1;
}

static void test_refusals(void **state)
{
	(void)state;
	char move[200], csrf[128];
	int64_t v = -1;
	int t = turn_player(move, sizeof move, &v, csrf, sizeof csrf);
	assert_true(t >= 0);
	char path[96], vs[32];
	snprintf(path, sizeof path, "%s/move", table_path);
	snprintf(vs, sizeof vs, "%lld", (long long)v);
	struct h_resp r;

	/* no CSRF token, or a wrong one: 403 and nothing changed */
	assert_int_equal(h_post_form(player[t], path, &r, "v", vs, "move", move, NULL), 0);
	assert_int_equal(r.status, 403);
	h_resp_free(&r);
	assert_int_equal(h_post_form(player[t], path, &r, "csrf", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
				     "v", vs, "move", move, NULL), 0);
	assert_int_equal(r.status, 403);
	h_resp_free(&r);
	assert_int_equal(version_of(player[t]), v);

	/* another seat plays the turn player's move: refused by the rules */
	int o = (t + 1) % PLAYERS;
	json_t *oj = table_json(player[o]);
	char ocsrf[128];
	snprintf(ocsrf, sizeof ocsrf, "%s", jstr(oj, "csrf"));
	json_decref(oj);
	long st = post_move(player[o], ocsrf, v, move);
	assert_true(st == 422 || st == 409);
	assert_int_equal(version_of(player[o]), v);
	/* somebody without a seat: 403 with a note */
	oj = table_json(outsider);
	snprintf(ocsrf, sizeof ocsrf, "%s", jstr(oj, "csrf"));
	json_decref(oj);
	assert_int_equal(post_move(outsider, ocsrf, v, move), 403);
	assert_int_equal(version_of(outsider), v);

	/* a page from before the party began: stale, a note, nothing changed */
	char spath[96];
	snprintf(spath, sizeof spath, "%s/move", table_path);
	assert_int_equal(h_post_form(player[t], spath, &r, "csrf", csrf, "v", "1", "move", move, NULL), 0);
	assert_int_equal(r.status, 409);
	assert_true(h_has(&r, "class=\"note stale\""));
	h_resp_free(&r);
	assert_int_equal(version_of(player[t]), v);
	/* nonsense: 422 with the rules' sentence, the text stays in the field */
	assert_int_equal(h_post_form(player[t], spath, &r, "csrf", csrf, "v", vs, "move", "tanz <b>", NULL), 0);
	assert_int_equal(r.status, 422);
	assert_true(h_has(&r, "class=\"note rejected\""));
	assert_true(h_has(&r, "value=\"tanz &lt;b&gt;\""));
	h_resp_free(&r);
	assert_int_equal(version_of(player[t]), v);
	/* a version that is not a number: 400 */
	assert_int_equal(h_post_form(player[t], spath, &r, "csrf", csrf, "v", "12a", "move", move, NULL), 0);
	assert_int_equal(r.status, 400);
	h_resp_free(&r);

	/* poll: 204 while nothing changed; the move; then 200 with the version */
	char ppath[128];
	snprintf(ppath, sizeof ppath, "%s/poll?v=%lld", table_path, (long long)v);
	assert_int_equal(h_get(outsider, ppath, &r), 0);
	assert_int_equal(r.status, 204);
	h_resp_free(&r);
	assert_int_equal(post_move(player[t], csrf, v, move), 303);
	assert_int_equal(h_get(outsider, ppath, &r), 0);
	assert_int_equal(r.status, 200);
	assert_true(strtoll(r.body, NULL, 10) > v);
	h_resp_free(&r);
	/* the same form sent twice (a double click): the second is stale */
	assert_int_equal(post_move(player[t], csrf, v, move), 409);
}

static const char browser_accept[] = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

/* An error page (404 by route and by handler, 405) still shows who is
 * logged in: the header names the user, and offers no "Anmelden". */
static void test_error_pages_login(void **state)
{
	(void)state;
	struct h_resp r;
	char path[96];
	const char *paths[3] = { "/nowhere", path, "/t/999999" };
	const long want[3] = { 404, 405, 404 };
	snprintf(path, sizeof path, "%s/move", table_path);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(h_get(player[0], paths[i], &r), 0);
		assert_int_equal(r.status, want[i]);
		assert_true(h_has(&r, "<span class=\"who\">anna</span>"));
		assert_false(h_has(&r, "<a href=\"/login\">Anmelden</a>"));
		h_resp_free(&r);
	}
}

/* The note cookie of client c into out (0), or -1 when it has none (or
 * an emptied one). */
static int note_cookie(struct h_client *c, char *out, size_t cap)
{
	return h_cookie(c, "stn", out, cap) == 0 && out[0] ? 0 : -1;
}

/* A browser (Accept: text/html) is never left on the move URL: a refused
 * move is a 303 to the table's board, and the GET that follows shows the
 * note and the typed move once. Clients that ask for JSON keep the status
 * and a JSON body. A note moved into another session is not shown. */
static void test_browser_redirect(void **state)
{
	(void)state;
	char move[200], csrf[128], loc[128], want[128], stn[1024], tok[128];
	int64_t v = -1;
	int t = -1;
	for (int k = 0; k < 50 && t < 0; k++) {   /* a snap window may be open: wait it out */
		t = turn_player(move, sizeof move, &v, csrf, sizeof csrf);
		if (t < 0)
			nanosleep(&(struct timespec){ 0, 200 * 1000000L }, NULL);
	}
	assert_true(t >= 0);
	char path[96], vs[32];
	snprintf(path, sizeof path, "%s/move", table_path);
	snprintf(vs, sizeof vs, "%lld", (long long)v);
	snprintf(want, sizeof want, "%s#spiel", table_path);
	struct h_resp r;
	struct h_client *c = player[t];
	h_client_accept(c, browser_accept);

	assert_int_equal(h_post_form(c, path, &r, "csrf", csrf, "v", vs, "move", "tanz <b>", NULL), 0);
	assert_int_equal(r.status, 303);
	assert_int_equal(h_header(&r, "Location", loc, sizeof loc), 0);
	assert_string_equal(loc, want);
	h_resp_free(&r);
	assert_int_equal(note_cookie(c, stn, sizeof stn), 0);
	assert_int_equal(h_get(c, table_path, &r), 0);
	assert_int_equal(r.status, 200);
	assert_true(h_has(&r, "class=\"note rejected\""));
	assert_true(h_has(&r, "value=\"tanz &lt;b&gt;\""));
	h_resp_free(&r);
	assert_int_equal(note_cookie(c, loc, sizeof loc), -1);   /* shown once */
	assert_int_equal(h_get(c, table_path, &r), 0);
	assert_false(h_has(&r, "class=\"note"));
	h_resp_free(&r);
	assert_int_equal(version_of(c), v);

	/* a stale page: 303 too, the note says so */
	assert_int_equal(h_post_form(c, path, &r, "csrf", csrf, "v", "1", "move", move, NULL), 0);
	assert_int_equal(r.status, 303);
	h_resp_free(&r);
	assert_int_equal(note_cookie(c, stn, sizeof stn), 0);
	assert_int_equal(h_get(c, table_path, &r), 0);
	assert_true(h_has(&r, "class=\"note stale\""));
	h_resp_free(&r);

	/* join and leave, refused, land on the table as well */
	snprintf(path, sizeof path, "%s/join", table_path);
	assert_int_equal(h_post_form(c, path, &r, "csrf", csrf, NULL), 0);
	assert_int_equal(r.status, 303);
	h_resp_free(&r);
	assert_int_equal(note_cookie(c, stn, sizeof stn), 0);

	/* that note in another session (the outsider's) is not shown */
	assert_int_equal(h_cookie(outsider, "st", tok, sizeof tok), 0);
	char req[2048], *out = malloc(1 << 20);
	assert_non_null(out);
	int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: %s\r\n"
			 "Cookie: st=%s; stn=%s\r\nConnection: close\r\n\r\n", table_path,
			 browser_accept, tok, stn);
	assert_true(n > 0 && n < (int)sizeof req);
	assert_int_equal(it_raw(req, (size_t)n, out, 1 << 20), 200);
	assert_null(strstr(out, "class=\"note"));
	free(out);
	assert_int_equal(h_get(c, table_path, &r), 0);   /* c's own note, then gone */
	assert_true(h_has(&r, "class=\"note refused\""));
	h_resp_free(&r);

	/* a JSON client keeps the status and gets JSON */
	snprintf(path, sizeof path, "%s/move", table_path);
	h_client_accept(c, "application/json");
	assert_int_equal(h_post_form(c, path, &r, "csrf", csrf, "v", vs, "move", "tanz", NULL), 0);
	assert_int_equal(r.status, 422);
	assert_true(h_has(&r, "\"kind\": \"rejected\"") || h_has(&r, "\"kind\":\"rejected\""));
	h_resp_free(&r);
	h_client_accept(c, NULL);
	assert_int_equal(version_of(c), v);
}

/* The seat on turn's HTML says nothing of a turn while a window is open;
 * the platform's status line appears once: in the status bar, which
 * replaces the old banner while a party runs. */
static void check_window_page(struct h_client *c, const char *must)
{
	struct h_resp r;
	assert_int_equal(h_get(c, table_path, &r), 0);
	assert_false(h_has(&r, "Du bist dran!"));
	assert_true(h_has(&r, must));
	const char *first = strstr(r.body, "class=\"status-bar");
	assert_non_null(first);
	assert_null(strstr(first + 1, "class=\"status-bar"));
	assert_false(h_has(&r, "class=\"banner"));
	h_resp_free(&r);
}

/* seats[k].acting of the JSON twin as c sees it. */
static int acting_of(struct h_client *c, int k)
{
	json_t *o = table_json(c);
	int a = jbool(json_array_get(json_object_get(o, "seats"), (size_t)k), "acting");
	json_decref(o);
	return a;
}

/* The player on turn (if any) makes their first listed move. */
static void turn_player_moves(void)
{
	for (int i = 0; i < PLAYERS; i++) {
		json_t *o = table_json(player[i]);
		json_t *mv = json_object_get(o, "moves");
		int mine = jbool(o, "my_turn") && json_array_size(mv) > 0;
		if (mine)
			post_move(player[i], jstr(o, "csrf"), jint(o, "version"),
				  jstr(json_array_get(mv, 0), "move"));
		json_decref(o);
		if (mine)
			break;
	}
}

/* Sleeps until the wall clock is past deadline_ms (plus a margin). */
static void sleep_past(int64_t deadline_ms)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	long wait_ms = (long)(deadline_ms - ((int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000)) + 300;
	assert_true(wait_ms < 10000);
	if (wait_ms > 0) {
		ts = (struct timespec){ wait_ms / 1000, (wait_ms % 1000) * 1000000L };
		nanosleep(&ts, NULL);
	}
}

/* One fresh snap window (every seat but the opener may act): the seat on
 * turn is told it may intervene and is next, not "Du bist dran!"; the
 * other one passes, and everybody still sees both as able to act; after
 * the deadline the late pass of the seat on turn is "zu spät" (409), and
 * its page says that the window expired and that it is on turn now. */
/* The line that says a deadline passed never counts that deadline down:
 * a countdown in it is the new deadline's, and says so. */
static void expired_line_checks(const struct h_resp *r)
{
	const char *at = strstr(r->body, "Die Frist ist abgelaufen. Du bist dran");
	assert_non_null(at);
	const char *end = strstr(at, "</p>");
	assert_non_null(end);
	int len = (int)(end - at);
	char line[1024];
	snprintf(line, sizeof line, "%.*s", len, at);
	assert_null(strstr(line, "Noch <span"));
	assert_null(strstr(line, ">noch <span"));
	if (strstr(line, "data-countdown"))
		assert_non_null(strstr(line, "eue Frist: noch <span"));   /* Neue / neue */
}

/* A seat in a window is named with the same words in the status bar and
 * in the seat list ("kann noch eingreifen"), and no other words. */
static void window_words_checks(void)
{
	struct h_resp r;
	assert_int_equal(h_get(outsider, table_path, &r), 0);
	const char *bar = strstr(r.body, "class=\"status-seats\"");
	const char *list = strstr(r.body, "<ol class=\"seats\"");
	assert_non_null(bar);
	assert_non_null(list);
	const char *badge = "<span class=\"badge window\">kann noch eingreifen</span>";
	const char *in_bar = strstr(bar, badge), *in_list = strstr(list, badge);
	assert_non_null(in_bar);
	assert_true(in_bar < list);
	assert_non_null(in_list);
	assert_false(h_has(&r, ">kann eingreifen<"));
	assert_false(h_has(&r, "kann reagieren"));
	assert_false(h_has(&r, "danach am Zug"));
	h_resp_free(&r);
}

static void window_checks(int turn, int other, int64_t deadline)
{
	window_words_checks();
	json_t *o = table_json(player[turn]);
	assert_false(jbool(o, "my_turn"));
	assert_true(jbool(o, "window"));
	char csrf[128];
	snprintf(csrf, sizeof csrf, "%s", jstr(o, "csrf"));
	json_decref(o);
	check_window_page(player[turn], "Du darfst jetzt eingreifen; danach bist du dran.");
	struct h_resp r;
	assert_int_equal(h_get(player[turn], table_path, &r), 0);
	assert_false(h_has(&r, "http-equiv=\"refresh\""));   /* it may act: no refresh */
	assert_true(h_has(&r, "Neu laden"));
	h_resp_free(&r);
	assert_int_equal(h_get(outsider, table_path, &r), 0);
	assert_true(h_has(&r, "http-equiv=\"refresh\""));    /* a spectator: refreshed */
	h_resp_free(&r);

	o = table_json(player[other]);
	int64_t v = jint(o, "version");
	assert_int_equal(post_move(player[other], jstr(o, "csrf"), v, "pass"), 303);
	json_decref(o);
	v++;
	/* the passer's flag stays as it was, for everyone, itself included */
	assert_true(acting_of(player[turn], other));
	assert_true(acting_of(outsider, other));
	assert_true(acting_of(player[other], turn));
	check_window_page(player[other], "Du hast dich entschieden");

	sleep_past(deadline);
	assert_true(version_of(outsider) > v);       /* somebody's page applies the deadline */
	char vs[32], path[96];
	snprintf(vs, sizeof vs, "%lld", (long long)v);
	snprintf(path, sizeof path, "%s/move", table_path);
	assert_int_equal(h_post_form(player[turn], path, &r, "csrf", csrf, "v", vs, "move", "pass",
				     NULL), 0);
	assert_int_equal(r.status, 409);
	assert_true(h_has(&r, "Zu spät"));
	assert_false(h_has(&r, "Passen kannst du nur"));
	h_resp_free(&r);
	o = table_json(player[turn]);
	assert_true(jbool(o, "my_turn"));
	assert_true(jbool(o, "window_expired"));
	json_decref(o);
	assert_int_equal(h_get(player[turn], table_path, &r), 0);
	assert_true(h_has(&r, "Die Frist ist abgelaufen. Du bist dran"));
	expired_line_checks(&r);
	h_resp_free(&r);
}

/* Plays regular moves until a snap window opens, then window_checks(). */
static void test_window(void **state)
{
	(void)state;
	double t0 = now_s();
	for (int step = 0; step < 300 && now_s() - t0 < 60; step++) {
		json_t *o = table_json(outsider);
		if (strcmp(jstr(o, "status"), "playing") != 0) {
			json_decref(o);
			skip();
		}
		int open = jbool(o, "window_open");
		int turn = (int)jint(o, "turn_seat");
		int64_t deadline = jint(o, "deadline");
		json_decref(o);
		if (open) {
			int can[PLAYERS], n = 0, other = -1;
			for (int i = 0; i < PLAYERS; i++) {
				o = table_json(player[i]);
				can[i] = jbool(o, "can_act");
				json_decref(o);
				n += can[i];
				if (can[i] && i != turn)
					other = i;
			}
			if (n == PLAYERS - 1 && can[turn] && other >= 0) {
				window_checks(turn, other, deadline);
				return;
			}
			sleep_past(deadline);   /* not a fresh window: let it pass */
			continue;
		}
		turn_player_moves();
	}
	fail_msg("no fresh snap window came up within the bounds");
}

/* A passed deadline shows in the poll without anybody moving: 204 while
 * the snap window is open, 200 once its deadline passed (same version), and
 * the reload that follows applies it (a new version). */
static void test_poll_deadline(void **state)
{
	(void)state;
	double t0 = now_s();
	for (int step = 0; step < 300 && now_s() - t0 < 60; step++) {
		json_t *o = table_json(player[0]);
		if (strcmp(jstr(o, "status"), "playing") != 0) {
			json_decref(o);
			skip();
		}
		int64_t v = jint(o, "version"), deadline = jint(o, "deadline");
		json_decref(o);
		if (deadline > 0) {
			char ppath[128];
			snprintf(ppath, sizeof ppath, "%s/poll?v=%lld", table_path, (long long)v);
			struct h_resp r;
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			int64_t now = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
			if (deadline - now > 300) {
				assert_int_equal(h_get(outsider, ppath, &r), 0);
				assert_int_equal(r.status, 204);
				h_resp_free(&r);
			}
			long wait_ms = (long)(deadline - now) + 250;
			assert_true(wait_ms < 10000);
			if (wait_ms > 0) {
				ts = (struct timespec){ wait_ms / 1000, (wait_ms % 1000) * 1000000L };
				nanosleep(&ts, NULL);
			}
			assert_int_equal(h_get(outsider, ppath, &r), 0);
			assert_int_equal(r.status, 200);
			assert_int_equal(strtoll(r.body, NULL, 10), v);
			h_resp_free(&r);
			assert_true(version_of(outsider) > v);
			return;
		}
		/* no window open: the turn player moves on */
		turn_player_moves();
	}
	fail_msg("no deadline came up within the bounds");
}

struct racer {
	struct h_client *c;
	char csrf[128], move[200];
	int64_t v;
	long status;
	pthread_barrier_t *go;
};

static void *race(void *arg)
{
	struct racer *x = arg;
	char path[96], vs[32];
	snprintf(path, sizeof path, "%s/move", table_path);
	snprintf(vs, sizeof vs, "%lld", (long long)x->v);
	struct h_resp r;
	pthread_barrier_wait(x->go);
	if (h_post_form(x->c, path, &r, "csrf", x->csrf, "v", vs, "move", x->move, NULL) == 0)
		x->status = r.status;
	h_resp_free(&r);
	return NULL;
}

/* Plays first legal moves until two seats may snap on the same version,
 * sends both snaps at once: exactly one lands, the other is told it was
 * too late, and the version moved by one. */
static void test_snap_race(void **state)
{
	(void)state;
	double t0 = now_s();
	for (int step = 0; step < 600 && now_s() - t0 < 90; step++) {
		struct racer x[PLAYERS];
		int nsnap = 0, acted = 0;
		int64_t v = -1;
		for (int i = 0; i < PLAYERS; i++) {
			json_t *o = table_json(player[i]);
			if (strcmp(jstr(o, "status"), "playing") != 0) {
				json_decref(o);
				skip();
			}
			v = jint(o, "version");
			json_t *mv = json_object_get(o, "moves");
			for (size_t k = 0; k < json_array_size(mv); k++) {
				const char *m = jstr(json_array_get(mv, k), "move");
				if (strncmp(m, "snap ", 5) == 0 && nsnap < PLAYERS) {
					x[nsnap] = (struct racer){ .c = player[i], .v = v };
					snprintf(x[nsnap].csrf, sizeof x[nsnap].csrf, "%s", jstr(o, "csrf"));
					snprintf(x[nsnap].move, sizeof x[nsnap].move, "%s", m);
					nsnap++;
					break;
				}
			}
			json_decref(o);
		}
		if (nsnap >= 2) {
			/* An open window shows how long it has left. */
			json_t *w = table_json(x[0].c);
			json_t *cd = json_object_get(w, "countdown");
			assert_int_equal(json_array_size(cd), 1);
			json_int_t left = json_integer_value(json_object_get(json_array_get(cd, 0), "seconds"));
			assert_true(left >= 1 && left <= 600);
			json_decref(w);
			pthread_barrier_t go;
			pthread_barrier_init(&go, NULL, 2);
			pthread_t th[2];
			for (int k = 0; k < 2; k++) {
				x[k].go = &go;
				pthread_create(&th[k], NULL, race, &x[k]);
			}
			for (int k = 0; k < 2; k++)
				pthread_join(th[k], NULL);
			pthread_barrier_destroy(&go);
			int won = (x[0].status == 303) + (x[1].status == 303);
			assert_int_equal(won, 1);
			long lost = x[0].status == 303 ? x[1].status : x[0].status;
			assert_true(lost == 409 || lost == 422);
			assert_int_equal(version_of(player[0]), v + 1);
			return;
		}
		/* otherwise move on: the turn player's first move, or a pass */
		json_t *last = NULL;
		for (int i = 0; i < PLAYERS && !acted; i++) {
			json_t *o = table_json(player[i]);
			json_t *mv = json_object_get(o, "moves");
			if (jbool(o, "can_act") && json_array_size(mv) > 0) {
				post_move(player[i], jstr(o, "csrf"), jint(o, "version"),
					  jstr(json_array_get(mv, 0), "move"));
				acted = 1;
			}
			json_decref(last);
			last = o;
		}
		if (!acted)   /* nobody can act: until the table's deadline */
			it_wait_deadline(last, 10000);
		json_decref(last);
	}
	fail_msg("no two seats could snap at once within the bounds");
}

/* Plays the match to its end with legal moves from the JSON twin (a fixed
 * pseudo-random choice), then checks the final page and JSON, and that
 * every party's export replays to its scores. */
static void test_play_to_end(void **state)
{
	(void)state;
	double t0 = now_s();
	unsigned seed = 12345;
	int steps = 0, finished = 0, idle = 0;
	while (steps < MATCH_STEPS_MAX && now_s() - t0 < MATCH_SECONDS_MAX && !finished) {
		int acted = 0;
		json_t *last = NULL;
		for (int i = 0; i < PLAYERS && !finished; i++) {
			json_t *o = table_json(player[i]);
			if (strcmp(jstr(o, "status"), "finished") == 0)
				finished = 1;
			json_t *mv = json_object_get(o, "moves");
			size_t n = json_array_size(mv);
			if (!finished && jbool(o, "can_act") && n > 0) {
				seed = seed * 1103515245u + 12345u;
				const char *m = jstr(json_array_get(mv, (seed >> 16) % n), "move");
				long st = post_move(player[i], jstr(o, "csrf"), jint(o, "version"), m);
				assert_true(st == 303 || st == 409);
				acted = 1;
				steps++;
			}
			json_decref(last);
			last = o;
		}
		if (!acted && !finished) {
			if (++idle > 200)
				break;
			it_wait_deadline(last, 10000);   /* nobody can act: until the table's deadline */
		}
		json_decref(last);
	}
	assert_true(finished);

	json_t *o = table_json(player[1]);
	assert_string_equal(jstr(o, "status"), "finished");
	assert_false(jbool(o, "can_act"));
	assert_int_equal(json_array_size(json_object_get(o, "moves")), 0);
	int64_t nparties = jint(o, "nparties");
	assert_int_equal(nparties, PLAYERS);      /* a match is one party per player */
	assert_int_equal(jint(o, "parties_played"), nparties);
	assert_int_equal((int64_t)json_array_size(json_object_get(o, "parties")), nparties);
	assert_int_equal((int64_t)json_array_size(json_object_get(o, "party_logs")), nparties);
	json_t *standings = json_object_get(o, "standings");
	assert_int_equal(json_array_size(standings), PLAYERS);
	int winners = 0;
	int64_t best = jint(json_array_get(standings, 0), "total");
	for (size_t k = 0; k < json_array_size(standings); k++) {
		json_t *s = json_array_get(standings, k);
		int w = jbool(s, "winner");
		winners += w;
		assert_int_equal(w, jint(s, "total") == best);   /* ties share the win */
		assert_int_equal(w, jint(s, "place") == 1);
	}
	assert_true(winners >= 1);
	json_decref(o);
	/* every party's export replays to the scores the table shows */
	assert_int_equal(it_verify_exports(player[1], table_id), nparties);

	struct h_resp r;
	assert_int_equal(h_get(player[2], table_path, &r), 0);
	assert_int_equal(r.status, 200);
	assert_true(h_has(&r, "Endstand"));
	assert_true(h_has(&r, "Zugprotokoll"));
	assert_false(h_has(&r, "http-equiv=\"refresh\""));   /* no reloading once over */
	assert_true(h_has(&r, "data-poll="));   /* (but its chat and the next match reach it) */
	h_resp_free(&r);
	/* and the finished table is listed under "Meine Tische" */
	assert_int_equal(h_get(player[0], "/me", &r), 0);
	assert_int_equal(r.status, 200);
	assert_true(h_has(&r, table_path));
	h_resp_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_headers_and_errors),
		cmocka_unit_test(test_accounts),
		cmocka_unit_test(test_create_and_join),
		cmocka_unit_test(test_error_pages_login),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_browser_redirect),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_poll_deadline),
		cmocka_unit_test(test_snap_race),
		cmocka_unit_test(test_play_to_end),
	};
	return cmocka_run_group_tests(tests, start, stop);
}
