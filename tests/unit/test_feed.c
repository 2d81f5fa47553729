/* test_feed.c — the Atom feed of a user's tables, in-process through the
 * router (GET /feed/<token>.atom) and the account page:
 *   - the token is made once and kept; the account page shows its address;
 *   - the feed has Atom's required elements, its content type, and an
 *     entry "Du bist dran" for exactly the seat that may act;
 *   - a name with < & " ' comes out escaped (in the feed's title and in a
 *     party's result), never raw;
 *   - a finished party is an entry with the scores, with a stable id;
 *   - a new token makes the old address a 404, the new one works;
 *   - an open invitation is an entry until the invitee sits down. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "auth.h"
#include "page.h"
#include "play.h"
#include "route.h"
#include "tmpdb.h"
#include "tmpl.h"

enum { NUSERS = 3, STEPS_MAX = 5000 };

/* Not a name auth_register() accepts: the store takes it as it is, so it
 * stands for any text of a table page that means something in XML. */
static const char odd_name[] = "Z<&\"'z";
static const char odd_escaped[] = "Z&lt;&amp;&quot;&#39;z";

struct fx {
	struct tmpdb db;
	int64_t user[NUSERS];
	int64_t now;
	struct arena a;
	struct http_conf conf;
	struct http_req req;
	struct page p;
};

static int setup_fx(void **state)
{
	struct fx *f = calloc(1, sizeof *f);
	static const char *const names[NUSERS] = { "Anna", odd_name, "Bert" };
	const char *root = getenv("SPIELTISCH_ROOT");
	char dir[512];
	snprintf(dir, sizeof dir, "%s/templates", root ? root : ".");
	if (!f || auth_init() != 0 || tmpdb_open(&f->db) != 0 || tmpl_load(dir) != 0) {
		free(f);
		return -1;
	}
	for (int i = 0; i < NUSERS; i++)
		if (store_user_create(f->db.s, names[i], "$argon2id$test", 1, &f->user[i]) != ST_OK)
			return -1;
	f->now = 1700000000000;
	arena_init(&f->a, 16 << 20);
	*state = f;
	return 0;
}

static int teardown_fx(void **state)
{
	struct fx *f = *state;
	tmpdb_close(&f->db);
	arena_free(&f->a);
	free(f);
	return 0;
}

/* A fresh request of `method` for `uri` (a form body for POST) as `user`
 * (0: none) in f->p, with the Host a browser sends. */
static struct page *request(struct fx *f, const char *method, const char *uri, int64_t user,
			    const char *body)
{
	arena_reset(&f->a);
	struct http_raw raw = { .method = method, .uri = arena_strdup(&f->a, uri),
				.host = "spiel.example:8080", .remote_addr = "127.0.0.1" };
	if (body) {
		raw.content_type = "application/x-www-form-urlencoded";
		raw.body = arena_strdup(&f->a, body);
		raw.body_len = strlen(body);
	}
	assert_int_equal(http_req_parse(&f->a, &raw, &f->req), HTTP_E_NONE);
	memset(&f->p, 0, sizeof f->p);
	f->p.a = &f->a;
	f->p.store = f->db.s;
	f->p.conf = &f->conf;
	f->p.req = &f->req;
	f->p.now_ms = f->now;
	f->p.user_id = user;
	snprintf(f->p.csrf, sizeof f->p.csrf, "x");
	return &f->p;
}

/* GET the feed of `token` through the router; the page with the answer. */
static struct page *get_feed(struct fx *f, const char *token)
{
	char uri[192];
	snprintf(uri, sizeof uri, "/feed/%s.atom", token);
	struct page *p = request(f, "GET", uri, 0, NULL);
	route_dispatch(p);
	return p;
}

/* Occurrences of needle in the answer's body. */
static int count(const struct page *p, const char *needle)
{
	int n = 0;
	for (const char *c = p->resp.body; c && (c = strstr(c, needle)); c += strlen(needle))
		n++;
	return n;
}

/* A 200 feed with every element RFC 4287 requires, once per entry. */
static void assert_atom(const struct page *p, const char *token)
{
	char self[160];
	assert_int_equal(p->resp.status, HTTP_200);
	assert_string_equal(p->resp.content_type, "application/atom+xml; charset=utf-8");
	assert_memory_equal(p->resp.body, "<?xml version=\"1.0\" encoding=\"utf-8\"?>", 38);
	assert_int_equal(count(p, "<feed xmlns=\"http://www.w3.org/2005/Atom\""), 1);
	snprintf(self, sizeof self, "<link rel=\"self\" type=\"application/atom+xml\" "
		 "href=\"http://spiel.example:8080/feed/%s.atom\"/>", token);
	assert_int_equal(count(p, self), 1);
	assert_int_equal(count(p, "<author><name>"), 1);
	int entries = count(p, "<entry>");
	assert_int_equal(count(p, "</entry>"), entries);
	assert_int_equal(count(p, "<id>"), entries + 1);
	assert_int_equal(count(p, "<title>"), entries + 1);
	assert_int_equal(count(p, "<updated>"), entries + 1);
	assert_int_equal(count(p, "<summary>"), entries);
	assert_int_equal(count(p, "<link rel=\"alternate\" type=\"text/html\" "
			       "href=\"http://spiel.example:8080/t/"), entries);
	assert_int_equal(count(p, "</feed>"), 1);
	assert_null(strstr(p->resp.body, odd_name));
}

static void first_move(void *ctx, const char *move)
{
	char *m = ctx;
	if (!m[0])
		snprintf(m, GAME_MOVE_MAX + 1, "%s", move);
}

/* Plays the first legal move of some seat; 0 when nobody can move. */
static int play_one(struct fx *f, int64_t tid)
{
	struct play_table pt;
	char move[GAME_MOVE_MAX + 1] = "";
	assert_int_equal(play_load(f->db.s, tid, 0, f->now, &pt), PLAY_OK);
	int64_t who = 0, v = pt.t.version;
	for (int i = 0; i < pt.nseated && !who && pt.has_party && !pt.status.over; i++) {
		pt.g->moves(pt.state, pt.seats[i].seat, first_move, move);
		if (move[0])
			who = pt.seats[i].user_id;
	}
	int pausing = pt.pausing || pt.t.status != TABLE_PLAYING;
	play_free(&pt);
	if (!who || pausing)
		return 0;
	struct rerr e = { .msg = "" };
	f->now += 1000;
	assert_int_equal(play_move(f->db.s, tid, who, move, v, f->now, &e), PLAY_OK);
	return 1;
}

/* The users' feeds while a table runs: "Du bist dran" for the one who may
 * act, nothing for the others; escaping; the end of the first party. */
static void test_feed_entries(void **state)
{
	struct fx *f = *state;
	char tok[NUSERS][AUTH_TOKEN_LEN + 1], again[AUTH_TOKEN_LEN + 1];
	for (int i = 0; i < NUSERS; i++)
		assert_int_equal(auth_feed_token(f->db.s, f->user[i], f->now, 0, tok[i]), AUTH_OK);
	assert_int_equal(auth_feed_token(f->db.s, f->user[1], f->now, 0, again), AUTH_OK);
	assert_string_equal(again, tok[1]);   /* made once, then kept */
	assert_string_not_equal(tok[0], tok[1]);

	struct page *p = get_feed(f, tok[1]);   /* no table yet: no entry */
	assert_atom(p, tok[1]);
	assert_int_equal(count(p, "<entry>"), 0);
	assert_non_null(strstr(p->resp.body, odd_escaped));   /* the feed's title */
	assert_non_null(strstr(p->resp.body, "<updated>2023-11-14T22:13:20Z</updated>"));

	int64_t tid = 0;
	struct rerr e;
	assert_int_equal(play_create(f->db.s, "drehwurm", "", NUSERS, f->user[0], f->now, &tid, &e),
			 PLAY_OK);
	for (int i = 1; i < NUSERS; i++)
		assert_int_equal(play_join(f->db.s, tid, f->user[i], f->now, &e), PLAY_OK);
	play_one(f, tid);
	struct play_table pt;
	assert_int_equal(play_load(f->db.s, tid, 0, f->now, &pt), PLAY_OK);
	uint32_t to_act = pt.status.to_act, window = pt.status.window;
	long long pv = pt.t.public_version;
	int turn = pt.status.turn;
	play_free(&pt);
	assert_true(turn >= 0);
	/* while the snap window the move opened is open, everyone who may act
	 * in it, the seat on turn next too, has a window's entry (as /me) */
	char id[128];
	snprintf(id, sizeof id, "<id>tag:spieltisch,2026:table/%lld/%s/v%lld</id>",
		 (long long)tid, window ? "window" : "turn", pv);
	for (int i = 0; i < NUSERS; i++) {   /* seats are taken in order: seat i is user i */
		p = get_feed(f, tok[i]);
		assert_atom(p, tok[i]);
		int acts = (to_act >> i & 1u) != 0;
		assert_int_equal(count(p, "Du bist dran"), acts && !window && i == turn);
		assert_int_equal(count(p, "<entry>"), acts);
		assert_int_equal(count(p, id), acts && (window || i == turn));
	}

	/* to the end of the first party: an entry with the scores, escaped */
	for (int k = 0; k < STEPS_MAX && play_one(f, tid); k++)
		;
	snprintf(id, sizeof id, "<id>tag:spieltisch,2026:table/%lld/party/1</id>", (long long)tid);
	for (int i = 0; i < NUSERS; i++) {
		p = get_feed(f, tok[i]);
		assert_atom(p, tok[i]);
		assert_int_equal(count(p, id), 1);
		assert_int_equal(count(p, "vorbei</title>"), 1);
		assert_int_equal(count(p, "Du bist dran"), 0);
		assert_non_null(strstr(p->resp.body, odd_escaped));   /* in the result */
		assert_non_null(strstr(p->resp.body, "<summary>Ergebnis: 1. "));
	}
	if (getenv("TEST_FEED_PRINT"))
		fprintf(stderr, "%s", p->resp.body);
}

/* The account page shows the address; a new token (POST /me/feed) makes
 * the old address a 404 and the new one a feed; a token of the right shape
 * that nobody has is a 404 too, and the wrong shape no route at all. */
static void test_feed_revoke(void **state)
{
	struct fx *f = *state;
	char old[AUTH_TOKEN_LEN + 1], fresh[AUTH_TOKEN_LEN + 1], want[128];
	assert_int_equal(auth_feed_token(f->db.s, f->user[2], f->now, 0, old), AUTH_OK);
	struct page *p = request(f, "GET", "/me", f->user[2], NULL);
	page_me(p);
	assert_int_equal(p->resp.status, HTTP_200);
	snprintf(want, sizeof want, "http://spiel.example:8080/feed/%s.atom", old);
	assert_non_null(strstr(p->resp.body, want));
	assert_non_null(strstr(p->resp.body, "action=\"/me/feed\""));

	p = request(f, "POST", "/me/feed", f->user[2], "csrf=x");
	page_feed_renew(p);
	assert_int_equal(p->resp.status, HTTP_303);
	assert_int_equal(auth_feed_token(f->db.s, f->user[2], f->now, 0, fresh), AUTH_OK);
	assert_string_not_equal(old, fresh);

	assert_int_equal(get_feed(f, old)->resp.status, HTTP_404);
	assert_atom(get_feed(f, fresh), fresh);
	char nobody[AUTH_TOKEN_LEN + 1];
	memset(nobody, 'A', AUTH_TOKEN_LEN);
	nobody[AUTH_TOKEN_LEN] = '\0';
	assert_int_equal(get_feed(f, nobody)->resp.status, HTTP_404);
	assert_int_equal(get_feed(f, "short")->resp.status, HTTP_404);
	p = request(f, "POST", "/feed/x.atom", 0, "csrf=x");
	route_dispatch(p);
	assert_int_equal(p->resp.status, HTTP_404);
}

/* An invitation to a table that waits for players is an entry of the
 * invitee's feed, until they sit down. */
static void test_feed_invite(void **state)
{
	struct fx *f = *state;
	char tok[AUTH_TOKEN_LEN + 1], id[128];
	int64_t tid = 0;
	struct rerr e;
	assert_int_equal(auth_feed_token(f->db.s, f->user[1], f->now, 0, tok), AUTH_OK);
	assert_int_equal(play_create(f->db.s, "drehwurm", "", NUSERS, f->user[0], f->now, &tid, &e),
			 PLAY_OK);
	assert_int_equal(store_invite(f->db.s, tid, f->user[0], f->user[1], f->now + 5000), ST_OK);
	snprintf(id, sizeof id, "<id>tag:spieltisch,2026:table/%lld/invite</id>", (long long)tid);
	struct page *p = get_feed(f, tok);
	assert_atom(p, tok);
	assert_int_equal(count(p, id), 1);
	assert_int_equal(count(p, "Einladung von Anna</title>"), 1);
	assert_int_equal(count(p, "<updated>2023-11-14T22:13:25Z</updated>"), 2);
	assert_int_equal(play_join(f->db.s, tid, f->user[1], f->now, &e), PLAY_OK);
	assert_int_equal(count(get_feed(f, tok), id), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_feed_entries, setup_fx, teardown_fx),
		cmocka_unit_test_setup_teardown(test_feed_revoke, setup_fx, teardown_fx),
		cmocka_unit_test_setup_teardown(test_feed_invite, setup_fx, teardown_fx),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
