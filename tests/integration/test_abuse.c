/*
 * test_abuse.c — hostile requests through real nginx: each gets the right
 * status and changes nothing. "Nothing" is measured in the database file:
 * the table's version and the number of steps in its move log are the
 * same before and after (tables of two games, so a game's own handling is
 * not what is tested).
 *
 * Covered: oversized bodies (413 from the program, and from nginx), many,
 * deep, long and repeated form keys, invalid UTF-8 and NUL, bad numbers,
 * wrong content types; header and cookie garbage sent byte for byte;
 * CSRF missing, wrong, or from another session (403); session fixation (a
 * cookie value the attacker chose never becomes a session, login issues a
 * fresh token); expired sessions; a user moving for another seat or at a
 * table where they have no seat; login guessing slowed down (429, even
 * for the right password); one address registering account after account
 * (429 after the burst); markup in names and move texts refused or
 * escaped in the lobby, the table page and the JSON twin.
 */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <cmocka.h>

#include "auth.h"
#include "integration/suite.h"

enum { RAW_MAX = 1 << 20 };

static struct h_client *ca, *cb, *cc, *cd, *ce, *co;   /* T1: a b c; T2: d e; outsider o */
static int64_t t1, t2;
static char raw_out[RAW_MAX];

struct tstate {
	long long v, n;
};

/* The state of table id now. */
static struct tstate state_of(int64_t id)
{
	struct tstate s = { -1, -1 };
	assert_int_equal(it_db_table_state(h_db_path(), id, &s.v, &s.n), 0);
	return s;
}

/* Fails when table id is not in state s any more. */
static void unchanged(int64_t id, struct tstate s, const char *what)
{
	struct tstate now = state_of(id);
	if (now.v != s.v || now.n != s.n)
		fail_msg("%s changed table %lld: version %lld → %lld, steps %lld → %lld", what,
			 (long long)id, s.v, now.v, s.n, now.n);
}

/* The seat of T1 that may move now: its client, CSRF token, version and a
 * legal move; *idle gets a seated client that has no move. */
static struct h_client *turn(char *csrf, long long *v, char *move, struct h_client **idle)
{
	struct h_client *all[3] = { ca, cb, cc }, *who = NULL;
	*idle = NULL;
	for (int i = 0; i < 3; i++) {
		long st;
		json_t *o = it_table_json(all[i], t1, &st);
		assert_non_null(o);
		json_t *m = json_object_get(o, "moves");
		if (json_array_size(m) > 0 && !who) {
			who = all[i];
			snprintf(csrf, 128, "%s", it_jstr(o, "csrf"));
			*v = it_jint(o, "version", -1);
			snprintf(move, GAME_MOVE_MAX + 1, "%s", it_jstr(json_array_get(m, 0), "move"));
		} else if (json_array_size(m) == 0)
			*idle = all[i];
		json_decref(o);
	}
	assert_non_null(who);
	return who;
}

/* A raw request (cookie, accept, content type may be NULL); its status,
 * the whole answer in raw_out. */
static long raw(const char *method, const char *path, const char *cookie, const char *accept,
		const char *ctype, const char *body)
{
	size_t bl = body ? strlen(body) : 0;
	size_t cap = bl + 4096 + (cookie ? strlen(cookie) : 0);
	char *req = malloc(cap);
	assert_non_null(req);
	int n = snprintf(req, cap, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
			 "%s%s%s%s%s%s%s%s%s"
			 "Content-Length: %zu\r\n\r\n",
			 method, path, cookie ? "Cookie: " : "", cookie ? cookie : "", cookie ? "\r\n" : "",
			 accept ? "Accept: " : "", accept ? accept : "", accept ? "\r\n" : "",
			 ctype ? "Content-Type: " : "", ctype ? ctype : "", ctype ? "\r\n" : "", bl);
	assert_true(n > 0 && (size_t)n + bl < cap);
	memcpy(req + n, body ? body : "", bl);
	long st = it_raw(req, (size_t)n + bl, raw_out, sizeof raw_out);
	free(req);
	return st;
}

/* The value of cookie `name` set by the raw answer in raw_out, or "". */
static void set_cookie_of(const char *name, char *out, size_t cap)
{
	out[0] = '\0';
	char pat[64];
	snprintf(pat, sizeof pat, "\nSet-Cookie: %s=", name);
	const char *p = strstr(raw_out, pat);
	if (!p)
		return;
	p += strlen(pat);
	size_t n = strcspn(p, ";\r\n");
	snprintf(out, cap, "%.*s", (int)n, p);
}

/* The body of the raw answer in raw_out. */
static const char *raw_body(void)
{
	const char *b = strstr(raw_out, "\r\n\r\n");
	return b ? b + 4 : "";
}

/* Group set-up: the servers, six users, a Drehwurm table of three (a, b, c)
 * and a DNA table of two (d, e); o has no seat. */
static int start(void **state)
{
	(void)state;
	if (h_start() != 0)
		return -1;
	ca = it_register("abuse_a");
	cb = it_register("abuse_b");
	cc = it_register("abuse_c");
	cd = it_register("abuse_d");
	ce = it_register("abuse_e");
	co = it_register("abuse_o");
	if (!ca || !cb || !cc || !cd || !ce || !co)
		return -1;
	t1 = it_create_table(ca, "drehwurm", 3, NULL);
	if (t1 <= 0 || it_join(cb, t1) != 0 || it_join(cc, t1) != 0)
		return -1;
	t2 = it_create_table(cd, "dna", 2, NULL);
	if (t2 <= 0 || it_join(ce, t2) != 0)
		return -1;
	return 0;
}

/* Group tear-down: the clients, then the servers. */
static int stop(void **state)
{
	(void)state;
	struct h_client *all[] = { ca, cb, cc, cd, ce, co };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		h_client_free(all[i]);
	h_stop();
	return 0;
}

/* POSTs body to /t/<t1>/move as client c; the status. */
static long post_body(struct h_client *c, const char *ctype, const char *body, size_t len)
{
	char path[64];
	snprintf(path, sizeof path, "/t/%lld/move", (long long)t1);
	struct h_resp r;
	h_request(c, "POST", path, ctype, body, len, &r);
	long st = r.status;
	h_resp_free(&r);
	return st;
}

/* Bodies and form fields the edge must refuse (413, 400, 415). */
static void test_bodies_and_fields(void **state)
{
	(void)state;
	char csrf[128], move[GAME_MOVE_MAX + 1];
	long long v;
	struct h_client *idle;
	struct h_client *c = turn(csrf, &v, move, &idle);
	struct tstate s0 = state_of(t1);
	const char *form = "application/x-www-form-urlencoded";
	static char body[200000];

	struct {
		const char *what;
		long want;
		size_t pad;             /* bytes of padding value, 0 none */
		const char *fmt;        /* printf with csrf, v, then the padding */
	} cases[] = {
		{ "a body over the program's 16 KiB", 413, 20000, "csrf=%s&v=%lld&move=pass&pad=%s" },
		{ "a body over nginx's limit", 413, 150000, "csrf=%s&v=%lld&move=pass&pad=%s" },
		{ "a repeated key", 400, 0, "csrf=%s&v=%lld&move=pass&move=pass%s" },
		{ "a deep key", 400, 0, "csrf=%s&v=%lld&move=pass&a[b][c][d]=1%s" },
		{ "a key of 41 bytes", 400, 0,
		  "csrf=%s&v=%lld&move=pass&kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk=1%s" },
		{ "an unknown key", 400, 0, "csrf=%s&v=%lld&move=pass&admin=1%s" },
		{ "invalid UTF-8 (lone continuation)", 400, 0, "csrf=%s&v=%lld&move=%%80%s" },
		{ "invalid UTF-8 (surrogate)", 400, 0, "csrf=%s&v=%lld&move=%%ED%%A0%%80%s" },
		{ "invalid UTF-8 (overlong)", 400, 0, "csrf=%s&v=%lld&move=%%C0%%AF%s" },
		{ "a NUL byte", 400, 0, "csrf=%s&v=%lld&move=pa%%00ss%s" },
		{ "a broken escape", 400, 0, "csrf=%s&v=%lld&move=%%G1%s" },
		{ "a version that is no number", 400, 0, "csrf=%s&v=%lld0x1&move=pass%s" },
		{ "a version past 64 bits", 400, 0, "csrf=%s&v=%lld99999999999999999999&move=pass%s" },
		{ "a move of 161 bytes", 400, 161, "csrf=%s&v=%lld&move=%s" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		static char pad[160001];
		size_t pn = cases[i].pad < sizeof pad - 1 ? cases[i].pad : sizeof pad - 1;
		memset(pad, 'a', pn);
		pad[pn] = '\0';
		int n = snprintf(body, sizeof body, cases[i].fmt, csrf, v, pad);
		assert_true(n > 0 && (size_t)n < sizeof body);
		long st = post_body(c, form, body, (size_t)n);
		if (st != cases[i].want)
			fail_msg("%s: status %ld, expected %ld", cases[i].what, st, cases[i].want);
		unchanged(t1, s0, cases[i].what);
	}
	/* 40 fields */
	int n = snprintf(body, sizeof body, "csrf=%s&v=%lld&move=pass", csrf, v);
	for (int k = 0; k < 40; k++)
		n += snprintf(body + n, sizeof body - (size_t)n, "&f%d=1", k);
	assert_int_equal(post_body(c, form, body, (size_t)n), 413);
	unchanged(t1, s0, "40 fields");
	/* not a urlencoded form */
	n = snprintf(body, sizeof body, "csrf=%s&v=%lld&move=pass", csrf, v);
	assert_int_equal(post_body(c, "multipart/form-data; boundary=x", body, (size_t)n), 415);
	assert_int_equal(post_body(c, "text/plain", body, (size_t)n), 415);
	/* no content type at all (libcurl would add one: sent raw) */
	char cookie[256], st[128], path[64];
	assert_int_equal(h_cookie(c, "st", st, sizeof st), 0);
	snprintf(cookie, sizeof cookie, "st=%s", st);
	snprintf(path, sizeof path, "/t/%lld/move", (long long)t1);
	assert_int_equal(raw("POST", path, cookie, NULL, NULL, body), 415);
	unchanged(t1, s0, "a wrong content type");
	/* and the same move, well-formed, is taken: the refusals were about form */
	assert_int_equal(it_move(c, t1, csrf, v, move), 303);
}

/* Raw header and cookie garbage: 4xx or harmless, never a session. */
static void test_header_and_cookie_garbage(void **state)
{
	(void)state;
	struct tstate s0 = state_of(t1);
	static char big[20000];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	static char huge[70000];
	struct {
		const char *what;
		const char *req;
	} bad[] = {
		{ "a garbage request line", "GARBAGE\r\n\r\n" },
		{ "a Content-Length that is no number",
		  "POST /login HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n" },
		{ "a negative Content-Length",
		  "POST /login HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n" },
		{ "two Content-Lengths",
		  "POST /login HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 5\r\n\r\nabc" },
		{ "a broken chunk", "POST /login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
				    "Content-Type: application/x-www-form-urlencoded\r\n\r\nzz\r\nabc\r\n0\r\n\r\n" },
		{ "no Host in HTTP/1.1", "GET / HTTP/1.1\r\n\r\n" },
		{ "a path with ..", "GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		long st = it_raw(bad[i].req, strlen(bad[i].req), raw_out, sizeof raw_out);
		if (st < 400 || st > 499)
			fail_msg("%s: status %ld, expected 4xx", bad[i].what, st);
	}
	/* an HTTP version nobody speaks: 505 from nginx, nothing reaches the program */
	const char *v9 = "GET / HTTP/9.0\r\nHost: x\r\n\r\n";
	assert_int_equal(it_raw(v9, strlen(v9), raw_out, sizeof raw_out), 505);
	/* headers nginx drops as invalid (ignore_invalid_headers): harmless */
	const char *ignored[] = {
		"GET / HTTP/1.1\r\nHost: x\r\nNoColonHere\r\nConnection: close\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: x\r\nX-A\001: b\r\nConnection: close\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: x\r\nX-B: a\001b\r\nConnection: close\r\n\r\n",
	};
	for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++) {
		long st = it_raw(ignored[i], strlen(ignored[i]), raw_out, sizeof raw_out);
		if (st != 200 && st != 400)
			fail_msg("invalid header %zu: status %ld", i, st);
	}
	/* a header of 70 KB: nginx refuses it */
	int n = snprintf(huge, sizeof huge, "GET / HTTP/1.1\r\nHost: x\r\nX-Big: ");
	memset(huge + n, 'y', sizeof huge - (size_t)n - 5);
	memcpy(huge + sizeof huge - 5, "\r\n\r\n", 5);
	long st = it_raw(huge, sizeof huge - 1, raw_out, sizeof raw_out);
	if (st < 400 || st > 499)
		fail_msg("a 70 KB header: status %ld", st);

	/* cookie garbage is read leniently: the page comes, logged out */
	static char cookie[16384];
	const char *garbage[] = {
		"st=%%%; ;;; =; st=\x7f; =====; stc",
		"st=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",      /* right shape, no session */
		"st=\"quoted\"; stc=<script>alert(1)</script>",
		"st=\xc3\x28\xed\xa0\x80; stc=\xff\xfe",
	};
	for (size_t i = 0; i < sizeof garbage / sizeof garbage[0]; i++) {
		st = raw("GET", "/", garbage[i], NULL, NULL, NULL);
		if (st != 200)
			fail_msg("cookie garbage %zu: status %ld", i, st);
		if (strstr(raw_body(), "<script>alert"))
			fail_msg("cookie garbage %zu is echoed unescaped", i);
		st = raw("GET", "/me", garbage[i], NULL, NULL, NULL);
		if (st != 303)
			fail_msg("cookie garbage %zu logged somebody in: /me gave %ld", i, st);
	}
	n = 0;
	for (int k = 0; k < 400 && n < (int)sizeof cookie - 64; k++)
		n += snprintf(cookie + n, sizeof cookie - (size_t)n, "c%d=%d; ", k, k);
	st = raw("GET", "/", cookie, NULL, NULL, NULL);
	if (st != 200)
		fail_msg("400 cookies: status %ld", st);
	/* a move with a garbage session cookie and somebody's real CSRF token */
	char csrf[128], move[GAME_MOVE_MAX + 1], body[512];
	long long v;
	struct h_client *idle;
	turn(csrf, &v, move, &idle);
	snprintf(body, sizeof body, "csrf=%s&v=%lld&move=%s", csrf, v, "pass");
	char path[64];
	snprintf(path, sizeof path, "/t/%lld/move", (long long)t1);
	st = raw("POST", path, "st=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", NULL,
		 "application/x-www-form-urlencoded", body);
	assert_int_equal(st, 403);
	unchanged(t1, s0, "header and cookie garbage");
}

/* Every state-changing POST needs the session's own CSRF token (403). */
static void test_csrf(void **state)
{
	(void)state;
	char csrf[128], move[GAME_MOVE_MAX + 1], other[128];
	long long v;
	struct h_client *idle;
	struct h_client *c = turn(csrf, &v, move, &idle);
	struct tstate s0 = state_of(t1);
	char path[64], vs[32];
	snprintf(path, sizeof path, "/t/%lld/move", (long long)t1);
	snprintf(vs, sizeof vs, "%lld", v);
	struct h_resp r;
	/* missing */
	h_post_form(c, path, &r, "v", vs, "move", move, NULL);
	assert_int_equal(r.status, 403);
	h_resp_free(&r);
	/* wrong: right shape, and one character off */
	h_post_form(c, path, &r, "csrf", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "v", vs, "move",
		    move, NULL);
	assert_int_equal(r.status, 403);
	h_resp_free(&r);
	char off[128];
	snprintf(off, sizeof off, "%s", csrf);
	off[0] = off[0] == 'A' ? 'B' : 'A';
	h_post_form(c, path, &r, "csrf", off, "v", vs, "move", move, NULL);
	assert_int_equal(r.status, 403);
	h_resp_free(&r);
	/* another session's token (the outsider's), and a logged-out visitor's */
	assert_int_equal(it_csrf(co, "/", other, sizeof other), 0);
	h_post_form(c, path, &r, "csrf", other, "v", vs, "move", move, NULL);
	assert_int_equal(r.status, 403);
	h_resp_free(&r);
	struct h_client *anon = h_client_new();
	assert_int_equal(it_csrf(anon, "/login", other, sizeof other), 0);
	h_post_form(c, path, &r, "csrf", other, "v", vs, "move", move, NULL);
	assert_int_equal(r.status, 403);
	h_resp_free(&r);
	/* the visitor with its own valid pre-session token: not logged in */
	h_post_form(anon, path, &r, "csrf", other, "v", vs, "move", move, NULL);
	assert_int_equal(r.status, 403);
	h_resp_free(&r);
	h_client_free(anon);
	unchanged(t1, s0, "a move without the right CSRF token");

	/* the other state-changing forms too */
	const char *posts[] = { "/t/%lld/leave", "/t/%lld/join", "/tables", "/logout" };
	for (size_t i = 0; i < sizeof posts / sizeof posts[0]; i++) {
		snprintf(path, sizeof path, posts[i], (long long)t2);
		h_post_form(co, path, &r, "game", "dna", "seats", "2", NULL);
		if (r.status != 403)
			fail_msg("POST %s without CSRF: %ld", path, r.status);
		h_resp_free(&r);
	}
	struct tstate s2 = state_of(t2);
	unchanged(t2, s2, "forms without CSRF");
	/* the outsider is still logged in (logout was refused) */
	h_get(co, "/me", &r);
	assert_int_equal(r.status, 200);
	h_resp_free(&r);
}

/* A cookie value chosen by an attacker never becomes a session. */
static void test_session_fixation(void **state)
{
	(void)state;
	const char *chosen = "FixFixFixFixFixFixFixFixFixFixFixFixFixFixF";   /* 43 chars */
	assert_int_equal(strlen(chosen), 43);
	char cookie[512], stc[128], st[128], csrf[128], body[512];
	/* the planted cookie is no session: /me sends to the login, the cookie is cleared */
	snprintf(cookie, sizeof cookie, "st=%s", chosen);
	assert_int_equal(raw("GET", "/me", cookie, NULL, NULL, NULL), 303);
	/* the login form, with the planted cookie: a pre-session token comes */
	assert_int_equal(raw("GET", "/login", cookie, NULL, NULL, NULL), 200);
	set_cookie_of("stc", stc, sizeof stc);
	assert_true(strlen(stc) == 43);
	const char *in = strstr(raw_body(), "name=\"csrf\" value=\"");
	assert_non_null(in);
	snprintf(csrf, sizeof csrf, "%.43s", in + strlen("name=\"csrf\" value=\""));
	/* the victim logs in carrying the attacker's cookie */
	snprintf(cookie, sizeof cookie, "st=%s; stc=%s", chosen, stc);
	snprintf(body, sizeof body, "csrf=%s&name=abuse_o&password=%s", csrf, it_password);
	assert_int_equal(raw("POST", "/login", cookie, NULL, "application/x-www-form-urlencoded",
			     body), 303);
	set_cookie_of("st", st, sizeof st);
	assert_int_equal(strlen(st), 43);
	assert_string_not_equal(st, chosen);
	/* the fresh token is a session, the planted one still is not */
	snprintf(cookie, sizeof cookie, "st=%s", st);
	assert_int_equal(raw("GET", "/me", cookie, NULL, NULL, NULL), 200);
	snprintf(cookie, sizeof cookie, "st=%s", chosen);
	assert_int_equal(raw("GET", "/me", cookie, NULL, NULL, NULL), 303);
	/* the same user logging in again elsewhere gets yet another token */
	snprintf(cookie, sizeof cookie, "stc=%s", stc);
	assert_int_equal(raw("POST", "/login", cookie, NULL, "application/x-www-form-urlencoded",
			     body), 303);
	char st2[128];
	set_cookie_of("st", st2, sizeof st2);
	assert_int_equal(strlen(st2), 43);
	assert_string_not_equal(st2, st);
	assert_string_not_equal(st2, chosen);
}

/* Nobody moves for another seat or at a table where they have no seat. */
static void test_other_seat_and_table(void **state)
{
	(void)state;
	char csrf[128], move[GAME_MOVE_MAX + 1], icsrf[128];
	long long v;
	struct h_client *idle;
	turn(csrf, &v, move, &idle);
	struct tstate s1 = state_of(t1), s2 = state_of(t2);
	/* a seated player plays the move of the seat whose turn it is */
	if (idle) {
		long st;
		json_t *o = it_table_json(idle, t1, &st);
		assert_non_null(o);
		snprintf(icsrf, sizeof icsrf, "%s", it_jstr(o, "csrf"));
		json_decref(o);
		long r = it_move(idle, t1, icsrf, v, move);
		if (r != 422 && r != 409)
			fail_msg("a move for another seat: status %ld", r);
	}
	/* somebody without a seat at this table */
	char ocsrf[128];
	assert_int_equal(it_csrf(co, "/", ocsrf, sizeof ocsrf), 0);
	assert_int_equal(it_move(co, t1, ocsrf, v, move), 403);
	/* a player of T1 at T2, with a move legal there */
	long st;
	json_t *o = it_table_json(cd, t2, &st);
	assert_non_null(o);
	json_t *m = json_object_get(o, "moves");
	char m2[GAME_MOVE_MAX + 1] = "draw";
	if (json_array_size(m) > 0)
		snprintf(m2, sizeof m2, "%s", it_jstr(json_array_get(m, 0), "move"));
	long long v2 = it_jint(o, "version", -1);
	json_decref(o);
	char acsrf[128];
	assert_int_equal(it_csrf(ca, "/", acsrf, sizeof acsrf), 0);
	assert_int_equal(it_move(ca, t2, acsrf, v2, m2), 403);
	/* leaving a running table, joining a full one */
	char path[64];
	struct h_resp r;
	snprintf(path, sizeof path, "/t/%lld/leave", (long long)t2);
	h_post_form(cd, path, &r, "csrf", acsrf, NULL);
	assert_int_equal(r.status, 403);            /* cd with ca's token */
	h_resp_free(&r);
	snprintf(path, sizeof path, "/t/%lld/join", (long long)t2);
	h_post_form(ca, path, &r, "csrf", acsrf, NULL);
	assert_int_equal(r.status, 409);
	h_resp_free(&r);
	/* a table that does not exist */
	assert_int_equal(it_move(ca, 999999, acsrf, 1, "pass"), 404);
	unchanged(t1, s1, "a move for another seat");
	unchanged(t2, s2, "a move at another table");
}

/* Markup in names and move texts is refused or escaped everywhere. */
static void test_markup_is_inert(void **state)
{
	(void)state;
	struct h_client *c = h_client_new();
	char csrf[128];
	struct h_resp r;
	/* a name with markup cannot be registered */
	assert_int_equal(it_csrf(c, "/register", csrf, sizeof csrf), 0);
	h_post_form(c, "/register", &r, "csrf", csrf, "name", "<b>x</b>", "password", it_password,
		    "password2", it_password, NULL);
	assert_true(r.status >= 400 && r.status < 500);
	assert_false(h_has(&r, "<b>x</b>"));
	h_resp_free(&r);
	char tok[128];
	assert_int_equal(h_cookie(c, "st", tok, sizeof tok), -1);
	/* typed into the login form, it comes back escaped */
	assert_int_equal(it_csrf(c, "/login", csrf, sizeof csrf), 0);
	h_post_form(c, "/login", &r, "csrf", csrf, "name", "<script>x</script>", "password",
		    "whatever1", NULL);
	assert_true(r.status == 422 || r.status == 429);
	assert_false(h_has(&r, "<script>x"));
	h_resp_free(&r);
	h_client_free(c);

	/* a move text with markup: refused, escaped in the page and in the JSON */
	char move[GAME_MOVE_MAX + 1], tcsrf[128];
	long long v;
	struct h_client *idle;
	struct h_client *who = turn(tcsrf, &v, move, &idle);
	struct tstate s0 = state_of(t1);
	const char *evil = "<img src=x onerror=alert(1)>";
	char path[64], vs[32];
	snprintf(path, sizeof path, "/t/%lld/move", (long long)t1);
	snprintf(vs, sizeof vs, "%lld", v);
	h_post_form(who, path, &r, "csrf", tcsrf, "v", vs, "move", evil, NULL);
	assert_int_equal(r.status, 422);
	assert_false(h_has(&r, "<img src=x"));
	assert_true(h_has(&r, "&lt;img src=x"));
	h_resp_free(&r);
	char cookie[256], st[128], body[512];
	assert_int_equal(h_cookie(who, "st", st, sizeof st), 0);
	snprintf(cookie, sizeof cookie, "st=%s", st);
	snprintf(body, sizeof body, "csrf=%s&v=%s&move=%%3Cimg%%20src%%3Dx%%20onerror%%3Dalert(1)%%3E",
		 tcsrf, vs);
	assert_int_equal(raw("POST", path, cookie, "application/json",
			     "application/x-www-form-urlencoded", body), 422);
	assert_non_null(strstr(raw_out, "application/json"));
	assert_null(strstr(raw_body(), "<img"));
	unchanged(t1, s0, "a move text with markup");
	/* the lobby, the table page and its JSON carry no raw markup at all */
	const char *pages[] = { "/", "/t/%lld", "/t/%lld.json", "/me" };
	for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
		snprintf(path, sizeof path, pages[i], (long long)t1);
		assert_int_equal(h_get(who, path, &r), 0);
		assert_int_equal(r.status, 200);
		if (h_has(&r, "<script>x") || h_has(&r, "<img src=x") || h_has(&r, "<b>x</b>"))
			fail_msg("%s carries user markup unescaped", path);
		h_resp_free(&r);
	}
}

/* Password guessing is slowed down, and not into a permanent lock-out. */
static void test_login_guessing_slowed(void **state)
{
	(void)state;
	struct h_client *v = it_register("abuse_bf");
	assert_non_null(v);
	h_client_free(v);
	struct h_client *c = h_client_new();
	char csrf[128];
	struct h_resp r;
	assert_int_equal(it_csrf(c, "/login", csrf, sizeof csrf), 0);
	double t0 = it_now();
	int wrong = 0;
	for (int i = 0; i < AUTH_FAIL_FREE; i++) {
		h_post_form(c, "/login", &r, "csrf", csrf, "name", "abuse_bf", "password", "falsch123",
			    NULL);
		assert_int_equal(r.status, 422);
		h_resp_free(&r);
		wrong++;
	}
	double per = (it_now() - t0) / wrong;
	/* now even the right password is refused for a while, without a session;
	 * the page says how long in words that fit the number (issue 33: "Bitte
	 * warte 1 Sekunden") */
	h_post_form(c, "/login", &r, "csrf", csrf, "name", "abuse_bf", "password", it_password, NULL);
	assert_int_equal(r.status, 429);
	const char *wait = strstr(r.body, "Bitte warte ");
	assert_non_null(wait);
	long secs = strtol(wait + strlen("Bitte warte "), NULL, 10);
	assert_true(secs > 0);
	assert_non_null(strstr(wait, secs == 1 ? " Sekunde und" : " Sekunden und"));
	h_resp_free(&r);
	char tok[128];
	assert_int_equal(h_cookie(c, "st", tok, sizeof tok), -1);
	/* a further guess is refused too, without looking at the password */
	h_post_form(c, "/login", &r, "csrf", csrf, "name", "abuse_bf", "password", "falsch124", NULL);
	assert_int_equal(r.status, 429);
	h_resp_free(&r);
	/* after the penalty, the right password works (the lock is not permanent) */
	int ok = 0;
	for (int i = 0; i < 40 && !ok; i++) {
		struct timespec ts = { 0, 250000000L };
		nanosleep(&ts, NULL);
		h_post_form(c, "/login", &r, "csrf", csrf, "name", "abuse_bf", "password",
			    it_password, NULL);
		assert_true(r.status == 429 || r.status == 303);
		ok = r.status == 303;
		h_resp_free(&r);
	}
	assert_true(ok);
	fprintf(stderr, "abuse: a wrong password costs %.0f ms; try %d is refused (429)\n",
		per * 1000, AUTH_FAIL_FREE + 1);
	h_client_free(c);
}

/* An expired session acts for nobody. */
static void test_expired_session(void **state)
{
	(void)state;
	char csrf[128], move[GAME_MOVE_MAX + 1];
	long long v;
	struct h_client *idle;
	struct h_client *who = turn(csrf, &v, move, &idle);
	struct tstate s0 = state_of(t1);
	long st;
	json_t *o = it_table_json(who, t1, &st);
	assert_non_null(o);
	int seat = (int)it_jint(o, "my_seat", -1);
	json_decref(o);
	assert_true(seat >= 0);
	/* every session of the user on that seat runs out */
	char sql[256];
	snprintf(sql, sizeof sql, "UPDATE sessions SET expires = 1 WHERE user_id = "
		 "(SELECT user_id FROM seats WHERE table_id = ? AND seat = %d)", seat);
	assert_int_equal(it_db_exec(h_db_path(), sql, t1), 0);
	struct h_resp r;
	h_get(who, "/me", &r);
	assert_int_equal(r.status, 303);      /* logged out */
	h_resp_free(&r);
	o = it_table_json(who, t1, &st);
	assert_non_null(o);
	assert_int_equal(it_jint(o, "my_seat", 0), -1);
	json_decref(o);
	/* the move that was legal a moment ago, with the old session: refused */
	assert_int_equal(it_move(who, t1, csrf, v, move), 403);
	unchanged(t1, s0, "a move with an expired session");
}

/* ---- clients at other addresses ------------------------------------- */
/* One address per simulated attacker (suite.h, it_src_*), while the
 * players of the tables above stay at 127.0.0.1. */

enum { FLOOD_MAX = 400, PAGES_MAX = 50000, IDLE_CONNS = 1100, BUSY_CONNS = 40 };

/* An integer from the environment in lo..hi, else def. */
static int env_int(const char *name, int def, int lo, int hi)
{
	const char *v = getenv(name);
	long x = v && *v ? strtol(v, NULL, 10) : def;
	return x < lo || x > hi ? def : (int)x;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The flood: failed logins with fresh names from one address. */
static struct {
	const char *src;
	char tok[64];
	double until;
	int seq;
	int by_status[600];    /* [0]: no answer */
} fl;

/* One flooding client: a failed login after the other until fl.until. */
static void *flood_client(void *arg)
{
	char out[8192], name[32];
	(void)arg;
	while (it_now() < fl.until) {
		int k = __atomic_fetch_add(&fl.seq, 1, __ATOMIC_RELAXED);
		snprintf(name, sizeof name, "flood%d", k);
		long st = it_src_login(fl.src, fl.tok, name, "falsch12345", out, sizeof out);
		__atomic_fetch_add(&fl.by_status[st > 0 && st < 600 ? st : 0], 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

/* Latencies of GET path by client c: n requests into lat (seconds), sorted;
 * while `until` (> 0) has not passed, or n times; how many. All 200, or
 * the test fails with the first other status. */
static int page_latencies(struct h_client *c, const char *path, double until, int n,
			  double *lat, int cap)
{
	int k = 0;
	while (k < cap && (until > 0 ? it_now() < until : k < n)) {
		struct h_resp r;
		int rc = h_get(c, path, &r);
		long st = r.status;
		lat[k++] = r.seconds;
		h_resp_free(&r);
		if (rc != 0 || st != 200)
			fail_msg("%s answered %ld during the flood (request %d)", path, st, k);
	}
	qsort(lat, (size_t)k, sizeof *lat, cmp_double);
	return k;
}

/* A flood of parallel failed logins from one address (ABUSE_FLOOD_CLIENTS,
 * default 24, for ABUSE_FLOOD_SECONDS, default 2): meanwhile a player at
 * another address keeps loading their table page, and every load is a 200.
 * The latencies are printed (docs/reliability.md), not asserted. */
static void test_login_flood(void **state)
{
	(void)state;
	int clients = env_int("ABUSE_FLOOD_CLIENTS", 24, 1, FLOOD_MAX);
	int secs = env_int("ABUSE_FLOOD_SECONDS", 2, 1, 60);
	static double lat[PAGES_MAX];
	static pthread_t th[FLOOD_MAX];
	char path[64];
	snprintf(path, sizeof path, "/t/%lld", (long long)t1);
	memset(&fl, 0, sizeof fl);
	fl.src = "127.0.0.2";
	assert_int_equal(it_presession(fl.src, fl.tok, sizeof fl.tok), 0);
	int n0 = page_latencies(cb, path, 0, 20, lat, PAGES_MAX);
	double quiet = lat[n0 / 2];
	fl.until = it_now() + secs;
	for (int i = 0; i < clients; i++)
		assert_int_equal(pthread_create(&th[i], NULL, flood_client, NULL), 0);
	int n = page_latencies(cb, path, fl.until, 0, lat, PAGES_MAX);
	for (int i = 0; i < clients; i++)
		pthread_join(th[i], NULL);
	assert_true(n > 0);
	fprintf(stderr, "abuse: flood of %d parallel failed logins for %d s: %d pages of another "
		"player, median %.0f ms, p95 %.0f ms, max %.0f ms (quiet: %.0f ms); flood answers: "
		"%d in all, %d 422, %d 429, %d 503, %d 502, %d none\n", clients, secs, n,
		lat[n / 2] * 1000, lat[n * 95 / 100] * 1000, lat[n - 1] * 1000, quiet * 1000,
		fl.seq, fl.by_status[422], fl.by_status[429], fl.by_status[503], fl.by_status[502],
		fl.by_status[0]);
}

/* Somebody at another address guessing a player's password does not lock
 * the player out: the owner's own address has its own budget. The guesser
 * is refused with 429 and Retry-After, even with the right password. */
static void test_no_lockout_by_others(void **state)
{
	(void)state;
	static char out[65536];
	struct h_client *owner = it_register("abuse_lock");
	assert_non_null(owner);
	h_client_free(owner);
	const char *att = "127.0.0.3";
	char tok[64];
	assert_int_equal(it_presession(att, tok, sizeof tok), 0);
	for (int i = 0; i < AUTH_FAIL_FREE; i++)
		assert_int_equal(it_src_login(att, tok, "abuse_lock", "falsch123", out, sizeof out), 422);
	/* the owner, at home, logs in at once, again and again */
	for (int i = 0; i < 3; i++) {
		struct h_client *c = it_login("abuse_lock");
		assert_non_null(c);
		h_client_free(c);
	}
	/* the guesser waits, told how long, even with the right password */
	long st = it_src_login(att, tok, "abuse_lock", it_password, out, sizeof out);
	assert_int_equal(st, 429);
	assert_non_null(strstr(out, "\nRetry-After: "));
	assert_null(strstr(out, "Set-Cookie: st="));
	/* and the owner's own typo costs only the owner's budget */
	struct h_client *c = h_client_new();
	char csrf[128];
	struct h_resp r;
	assert_int_equal(it_csrf(c, "/login", csrf, sizeof csrf), 0);
	h_post_form(c, "/login", &r, "csrf", csrf, "name", "abuse_lock", "password", "vertippt1",
		    NULL);
	assert_int_equal(r.status, 422);
	h_resp_free(&r);
	h_post_form(c, "/login", &r, "csrf", csrf, "name", "abuse_lock", "password", it_password,
		    NULL);
	assert_int_equal(r.status, 303);
	h_resp_free(&r);
	h_client_free(c);
}

/* Parallel guesses for one name from one address: the throttle's read and
 * its record are one transaction, so no more than AUTH_FAIL_FREE of them
 * have their password checked (422); the rest are refused unchecked. */
static struct {
	const char *src;
	char tok[64];
	int go;
	int by_status[600];
} race;

static void *race_client(void *arg)
{
	char out[8192];
	(void)arg;
	while (!__atomic_load_n(&race.go, __ATOMIC_ACQUIRE))
		;
	long st = it_src_login(race.src, race.tok, "abuse_race", "falsch123", out, sizeof out);
	__atomic_fetch_add(&race.by_status[st > 0 && st < 600 ? st : 0], 1, __ATOMIC_RELAXED);
	return NULL;
}

static void test_throttle_race(void **state)
{
	(void)state;
	enum { RACERS = 16 };
	pthread_t th[RACERS];
	struct h_client *owner = it_register("abuse_race");
	assert_non_null(owner);
	h_client_free(owner);
	memset(&race, 0, sizeof race);
	race.src = "127.0.0.4";
	assert_int_equal(it_presession(race.src, race.tok, sizeof race.tok), 0);
	for (int i = 0; i < RACERS; i++)
		assert_int_equal(pthread_create(&th[i], NULL, race_client, NULL), 0);
	__atomic_store_n(&race.go, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < RACERS; i++)
		pthread_join(th[i], NULL);
	fprintf(stderr, "abuse: %d parallel guesses: %d checked (422), %d 429, %d 503\n", RACERS,
		race.by_status[422], race.by_status[429], race.by_status[503]);
	assert_int_equal(race.by_status[0], 0);
	assert_int_equal(race.by_status[422] + race.by_status[429] + race.by_status[503], RACERS);
	if (race.by_status[422] > AUTH_FAIL_FREE)
		fail_msg("%d of %d parallel guesses were checked, at most %d may be",
			 race.by_status[422], RACERS, AUTH_FAIL_FREE);
}

/* Idle connections from one address do not lock everybody else out: more
 * half-sent request headers than the old worker_connections (1024), and
 * requests stuck in their body beyond the per-address limit; meanwhile
 * another address is served, and the stuck address is refused (429). */
static void test_idle_connections(void **state)
{
	(void)state;
	static int fds[IDLE_CONNS + BUSY_CONNS];
	static char out[65536];
	int n = 0;
	const char *half = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ";
	const char *stuck = "POST /tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
			    "Content-Type: application/x-www-form-urlencoded\r\n"
			    "Content-Length: 1000\r\n\r\ncsrf=";
	for (int i = 0; i < IDLE_CONNS; i++) {
		int fd = it_src_connect("127.0.0.5");
		if (fd < 0)
			break;
		send(fd, half, strlen(half), MSG_NOSIGNAL);
		fds[n++] = fd;
	}
	for (int i = 0; i < BUSY_CONNS; i++) {
		int fd = it_src_connect("127.0.0.6");
		if (fd < 0)
			break;
		send(fd, stuck, strlen(stuck), MSG_NOSIGNAL);
		fds[n++] = fd;
	}
	struct timespec ts = { 0, 300000000L };
	nanosleep(&ts, NULL);
	char path[64];
	snprintf(path, sizeof path, "/t/%lld", (long long)t1);
	struct h_resp r;
	double t0 = it_now();
	int rc = h_get(cb, path, &r);
	long st = r.status;
	h_resp_free(&r);
	double took = it_now() - t0;
	const char *req = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
	long busy = it_src_raw("127.0.0.6", req, strlen(req), out, sizeof out, 5);
	for (int i = 0; i < n; i++)
		close(fds[i]);
	fprintf(stderr, "abuse: with %d idle connections a page took %.0f ms (status %ld); the "
		"address with %d stuck requests got %ld\n", n, took * 1000, st, BUSY_CONNS, busy);
	assert_int_equal(rc, 0);
	assert_int_equal(st, 200);
	assert_int_equal(busy, 429);
}

/* One user cannot flood the lobby: OPEN_PER_USER (5) open tables, the next
 * is refused with a message; the lobby lists at most three of any host's
 * open tables, so another host's table stays in view. */
static void test_lobby_spam(void **state)
{
	(void)state;
	enum { CAP = 5, PER_HOST = 3 };
	struct h_client *spam = it_register("abuse_spam");
	struct h_client *fair = it_register("abuse_fair");
	assert_non_null(spam);
	assert_non_null(fair);
	int64_t theirs = it_create_table(fair, "drehwurm", 4, NULL);
	assert_true(theirs > 0);
	int64_t mine[CAP];
	for (int i = 0; i < CAP; i++) {
		mine[i] = it_create_table(spam, i % 2 ? "dna" : "drehwurm", 4, NULL);
		assert_true(mine[i] > 0);
	}
	char csrf[128];
	struct h_resp r;
	assert_int_equal(it_csrf(spam, "/", csrf, sizeof csrf), 0);
	h_post_form(spam, "/tables", &r, "csrf", csrf, "game", "drehwurm", "seats", "4", NULL);
	assert_int_equal(r.status, 422);
	assert_true(h_has(&r, "Du hast schon 5 offene Tische"));
	h_resp_free(&r);
	/* what another visitor sees: the other host's table, and only the
	 * newest three of the spammer's */
	struct h_client *v = h_client_new();
	assert_int_equal(h_get(v, "/", &r), 0);
	assert_int_equal(r.status, 200);
	char link[64];
	snprintf(link, sizeof link, "href=\"/t/%lld\"", (long long)theirs);
	assert_true(h_has(&r, link));
	int shown = 0;
	for (int i = 0; i < CAP; i++) {
		snprintf(link, sizeof link, "href=\"/t/%lld\"", (long long)mine[i]);
		if (h_has(&r, link)) {
			shown++;
			if (i < CAP - PER_HOST)
				fail_msg("an older table of the spammer (%lld) is listed", (long long)mine[i]);
		}
	}
	assert_int_equal(shown, PER_HOST);
	h_resp_free(&r);
	h_client_free(v);
	/* leaving one makes room for one more */
	char path[64];
	snprintf(path, sizeof path, "/t/%lld", (long long)mine[0]);
	assert_int_equal(it_csrf(spam, path, csrf, sizeof csrf), 0);
	snprintf(path, sizeof path, "/t/%lld/leave", (long long)mine[0]);
	h_post_form(spam, path, &r, "csrf", csrf, NULL);
	assert_int_equal(r.status, 303);
	h_resp_free(&r);
	assert_true(it_create_table(spam, "drehwurm", 4, NULL) > 0);
	h_client_free(spam);
	h_client_free(fair);
}

/* A rejected move quoting a typed word of multi-byte letters: the JSON twin
 * answers 422 with valid JSON (it was a 500 when the message cut a letter
 * in two), and the HTML page too; nothing changes. */
static void test_multibyte_move_message(void **state)
{
	(void)state;
	static const char *const words[] = {
		"x\xc3\xa4\xc3\xa4\xc3\xa4\xc3\xa4\xc3\xa4\xc3\xa4\xc3\xa4\xc3\xa4\xc3\xa4\xc3\xa4"
		"\xc3\xa4\xc3\xa4",                                   /* xäää… (25 bytes) */
		"play x\xc3\xb6\xc3\xb6\xc3\xb6\xc3\xb6\xc3\xb6\xc3\xb6\xc3\xb6\xc3\xb6\xc3\xb6\xc3\xb6"
		"\xc3\xb6\xc3\xb6 on 1",
		"chicken x\xc3\xbc\xc3\xbc\xc3\xbc\xc3\xbc\xc3\xbc\xc3\xbc\xc3\xbc\xc3\xbc\xc3\xbc\xc3\xbc"
		" on 1",
	};
	struct { struct h_client *c[3]; int n; int64_t t; } tables[] = {
		{ { ca, cb, cc }, 3, t1 }, { { cd, ce, NULL }, 2, t2 },
	};
	for (size_t k = 0; k < sizeof tables / sizeof tables[0]; k++) {
		struct h_client *who = NULL;
		char csrf[128] = "";
		long long v = -1;
		for (int i = 0; i < tables[k].n && !who; i++) {
			long st;
			json_t *o = it_table_json(tables[k].c[i], tables[k].t, &st);
			assert_non_null(o);
			if (json_array_size(json_object_get(o, "moves")) > 0) {
				who = tables[k].c[i];
				snprintf(csrf, sizeof csrf, "%s", it_jstr(o, "csrf"));
				v = it_jint(o, "version", -1);
			}
			json_decref(o);
		}
		if (!who)
			continue;   /* the party is between moves of nobody (over) */
		struct tstate s0 = state_of(tables[k].t);
		char path[64], vs[32], cookie[256], st[128];
		snprintf(path, sizeof path, "/t/%lld/move", (long long)tables[k].t);
		snprintf(vs, sizeof vs, "%lld", v);
		assert_int_equal(h_cookie(who, "st", st, sizeof st), 0);
		snprintf(cookie, sizeof cookie, "st=%s", st);
		for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
			char body[512], enc[256];
			size_t e = 0;
			for (const unsigned char *c = (const unsigned char *)words[w]; *c && e + 4 < sizeof enc; c++)
				e += (size_t)snprintf(enc + e, sizeof enc - e, *c == ' ' ? "+" : "%%%02X", *c);
			snprintf(body, sizeof body, "csrf=%s&v=%s&move=%s", csrf, vs, enc);
			long code = raw("POST", path, cookie, "application/json",
					"application/x-www-form-urlencoded", body);
			if (code != 422)
				fail_msg("table %lld, move '%s': JSON answer %ld", (long long)tables[k].t,
					 words[w], code);
			json_error_t err;
			json_t *o = json_loads(raw_body(), 0, &err);
			if (!o)
				fail_msg("move '%s': the JSON does not parse: %s", words[w], err.text);
			json_decref(o);
			struct h_resp r;
			h_post_form(who, path, &r, "csrf", csrf, "v", vs, "move", words[w], NULL);
			assert_int_equal(r.status, 422);
			h_resp_free(&r);
		}
		unchanged(tables[k].t, s0, "a rejected multi-byte move");
	}
}

/* The state of /proc/<pid> ('Z' zombie, 0 when gone). */
static char proc_state(pid_t pid)
{
	char st;
	return it_proc_stat(pid, &st, NULL) == 0 ? st : 0;
}

/* A master killed with SIGKILL takes its workers and checkpointer along
 * (PR_SET_PDEATHSIG): a second `serve` of its own, on its own socket and
 * database, so the servers of the other cases are not touched. */
/* One address registering account after account: nginx lets a burst of 20
 * through, then about six a minute, and refuses the rest with 429 before the
 * app hashes a password. Runs after every test that registers. */
static void test_register_flood(void **state)
{
	(void)state;
	int made = 0, refused = 0, other = 0;
	for (int i = 0; i < 40 && refused < 3; i++) {
		struct h_client *c = h_client_new();
		char csrf[128], name[32];
		struct h_resp r;
		assert_non_null(c);
		assert_int_equal(it_csrf(c, "/register", csrf, sizeof csrf), 0);
		snprintf(name, sizeof name, "flood_%d", i);
		h_post_form(c, "/register", &r, "csrf", csrf, "name", name, "password", it_password,
			    "password2", it_password, NULL);
		made += r.status == 303;
		refused += r.status == 429;
		other += r.status != 303 && r.status != 429;
		h_resp_free(&r);
		h_client_free(c);
	}
	fprintf(stderr, "abuse: registering from one address: %d made, then %d refused (429)\n",
		made, refused);
	assert_int_equal(other, 0);
	assert_int_equal(refused, 3);
	assert_true(made <= 22);   /* the burst, and a minute's rate at most */
}

static void test_master_death(void **state)
{
	(void)state;
	char bin[600], sock[600], db[600], log[600];
	const char *env = getenv("SPIELTISCH_BIN");
	snprintf(bin, sizeof bin, "%s", env && *env ? env : "");
	if (!bin[0])
		snprintf(bin, sizeof bin, "%s/build/spieltisch", h_root());
	snprintf(sock, sizeof sock, "%s/death.sock", h_dir());
	snprintf(db, sizeof db, "%s/death.db", h_dir());
	snprintf(log, sizeof log, "%s/death.log", h_dir());
	pid_t m = fork();
	assert_true(m >= 0);
	if (m == 0) {
		FILE *lf = freopen(log, "a", stderr);
		(void)lf;
		execl(bin, bin, "serve", "--socket", sock, "--workers", "2", "--db", db, "--root",
		      h_root(), (char *)NULL);
		_exit(127);
	}
	pid_t kids[8];
	int n = 0;
	/* two workers and the checkpointer; the master reads the lexicon first,
	 * which on a busy machine takes seconds: bounded by the harness's start
	 * limit, not by a quiet machine's start */
	for (int i = 0; i < 1200 && n < 3; i++) {
		struct timespec ts = { 0, 50000000L };
		nanosleep(&ts, NULL);
		n = it_children_of(m, kids, 8);
	}
	if (n < 3) {
		kill(m, SIGKILL);
		waitpid(m, NULL, 0);
		fail_msg("the second server started %d children, not 3", n);
	}
	kill(m, SIGKILL);
	waitpid(m, NULL, 0);
	double t0 = it_now();
	int alive = n;
	while (alive > 0 && it_now() - t0 < 5) {
		struct timespec ts = { 0, 20000000L };
		nanosleep(&ts, NULL);
		alive = 0;
		for (int i = 0; i < n; i++) {
			char s = proc_state(kids[i]);
			alive += s != 0 && s != 'Z';
		}
	}
	fprintf(stderr, "abuse: master killed: %d of its %d children left after %.0f ms\n", alive,
		n, (it_now() - t0) * 1000);
	for (int i = 0; i < n && alive > 0; i++)
		kill(kids[i], SIGKILL);
	assert_int_equal(alive, 0);
}

/* The abuse cases, in this order (the expired session comes last). */
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bodies_and_fields),
		cmocka_unit_test(test_header_and_cookie_garbage),
		cmocka_unit_test(test_csrf),
		cmocka_unit_test(test_session_fixation),
		cmocka_unit_test(test_other_seat_and_table),
		cmocka_unit_test(test_markup_is_inert),
		cmocka_unit_test(test_login_guessing_slowed),
		cmocka_unit_test(test_login_flood),
		cmocka_unit_test(test_no_lockout_by_others),
		cmocka_unit_test(test_throttle_race),
		cmocka_unit_test(test_idle_connections),
		cmocka_unit_test(test_lobby_spam),
		cmocka_unit_test(test_multibyte_move_message),
		cmocka_unit_test(test_register_flood),
		cmocka_unit_test(test_master_death),
		cmocka_unit_test(test_expired_session),
	};
	return cmocka_run_group_tests(tests, start, stop);
}
