/* test_faults.c — a full disk and a table whose stored state no longer
 * loads, in-process: a full disk is a clear 503 that says what happened and
 * changes nothing, never a 500; a move at a table whose state no longer
 * loads is such a 503 too, and its page closes the table cleanly (the
 * party a draw, the match as played) and shows it.
 *
 * The full disk is the database's page limit (store_maintain's
 * ST_MAINT_LIMIT_PAGES, SQLite's max_page_count): a write that needs one more page fails with SQLITE_FULL,
 * exactly as when the file system is full. The corrupt table is a snapshot
 * overwritten with bytes no game decodes. A snapshot in a format this build
 * no longer reads is not a fault: it is rebuilt from the log. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "auth.h"
#include "page.h"
#include "play.h"
#include "ser.h"
#include "tmpdb.h"
#include "tmpl.h"

enum { NUSERS = 3, STEPS_MAX = 3000 };

struct fx {
	struct tmpdb db;
	int64_t user[NUSERS];
	int64_t now;
	struct arena a;
	int64_t cap;      /* the page limit in effect (limit_pages) */
};

static int setup_fx(void **state)
{
	struct fx *f = calloc(1, sizeof *f);
	static const char *const names[NUSERS] = { "Anna", "Bert", "Carla" };
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

/* A Drehwurm table of three, every seat taken: playing. */
static int64_t full_table(struct fx *f)
{
	int64_t tid = 0;
	struct rerr e;
	assert_int_equal(play_create(f->db.s, "drehwurm", "", NUSERS, f->user[0], f->now, &tid, &e),
			 PLAY_OK);
	for (int i = 1; i < NUSERS; i++)
		assert_int_equal(play_join(f->db.s, tid, f->user[i], f->now, &e), PLAY_OK);
	return tid;
}

struct pick {
	char move[GAME_MOVE_MAX + 1];
};

static void first_move(void *ctx, const char *move)
{
	struct pick *p = ctx;
	if (!p->move[0])
		snprintf(p->move, sizeof p->move, "%s", move);
}

/* A legal move at table tid: its user, text and the version it is for;
 * 0 when nobody can move (the match is over). */
static int64_t next_move(struct fx *f, int64_t tid, struct pick *pk, int64_t *version)
{
	struct play_table pt;
	assert_int_equal(play_load(f->db.s, tid, 0, f->now, &pt), PLAY_OK);
	int64_t who = 0;
	memset(pk, 0, sizeof *pk);
	for (int i = 0; i < pt.nseated && !who && pt.has_party && !pt.status.over; i++) {
		pt.g->moves(pt.state, pt.seats[i].seat, first_move, pk);
		if (pk->move[0])
			who = pt.seats[i].user_id;
	}
	*version = pt.t.version;
	play_free(&pt);
	return who;
}

/* The table's version and number of logged steps, from the store. */
static void state_of(struct fx *f, int64_t tid, int64_t *version, int64_t *steps)
{
	struct st_table t;
	struct st_party p;
	unsigned char snap[GAME_SNAPSHOT_MAX];
	assert_int_equal(store_table_get(f->db.s, tid, &t), ST_OK);
	assert_int_equal(store_party_get(f->db.s, tid, t.party_no, &p, snap, sizeof snap), ST_OK);
	*version = t.version;
	assert_int_equal(store_move_count(f->db.s, p.id, steps), ST_OK);
}

/* POST /t/<tid>/move as `user`, through the page handler: the answer is in
 * p->resp (the CSRF check is the router's, before this). */
static void post_move(struct fx *f, struct page *p, struct http_req *req, int64_t tid,
		      int64_t user, int64_t v, const char *move)
{
	char body[256], uri[64];
	snprintf(uri, sizeof uri, "/t/%lld/move", (long long)tid);
	snprintf(body, sizeof body, "csrf=x&v=%lld&move=%s", (long long)v, move);
	for (char *c = body; *c; c++)
		if (*c == ' ')
			*c = '+';
	arena_reset(&f->a);
	struct http_raw raw = { .method = "POST", .uri = arena_strdup(&f->a, uri),
				.content_type = "application/x-www-form-urlencoded",
				.body = arena_strdup(&f->a, body), .body_len = strlen(body) };
	assert_int_equal(http_req_parse(&f->a, &raw, req), HTTP_E_NONE);
	memset(p, 0, sizeof *p);
	p->a = &f->a;
	p->store = f->db.s;
	p->req = req;
	p->now_ms = f->now;
	p->user_id = user;
	p->id = tid;
	page_table_move(p);
}

/* Caps the database at `pages` (f->cap: the cap in effect). */
static int limit_pages(struct fx *f, int64_t pages)
{
	struct st_maint m = { .pages = pages };
	int rc = store_maintain(f->db.s, ST_MAINT_LIMIT_PAGES, &m);
	f->cap = m.pages;
	return rc;
}

/* A move that meets a full disk: 503, a page saying it was not taken,
 * nothing stored; with room again the same move is taken. */
static void test_disk_full_move(void **state)
{
	TMPDB_SQLITE_ONLY();
	struct fx *f = *state;
	int64_t tid = full_table(f), v, v0, n0, v1, n1, cap = 0;
	struct pick pk;
	struct page p;
	struct http_req req;
	int full = 0, steps = 0;
	while (!full && steps < STEPS_MAX) {
		int64_t who = next_move(f, tid, &pk, &v);
		if (!who) {   /* the match ended: another table (with room for it) */
			assert_int_equal(limit_pages(f, 1 << 30), ST_OK);
			tid = full_table(f);
			continue;
		}
		/* the database may not grow by a single page from here */
		assert_int_equal(limit_pages(f, 1), ST_OK);
		cap = f->cap;
		state_of(f, tid, &v0, &n0);
		post_move(f, &p, &req, tid, who, v, pk.move);
		steps++;
		if (p.resp.status == HTTP_303)
			continue;
		full = 1;
		assert_int_equal(p.resp.status, HTTP_503);
		assert_non_null(p.resp.body);
		assert_non_null(strstr(p.resp.body, "Speicherplatz"));
		assert_non_null(strstr(p.resp.body, "<strong>nicht</strong> ausgeführt"));
		state_of(f, tid, &v1, &n1);
		assert_int_equal(v1, v0);
		assert_int_equal(n1, n0);
		/* the engine says so too */
		struct rerr e = { .msg = "" };
		assert_int_equal(play_move(f->db.s, tid, who, pk.move, v, f->now, &e), PLAY_NOSPACE);
		/* the page itself still shows, and room again takes the move */
		struct play_table pt;
		assert_int_equal(play_load(f->db.s, tid, who, f->now, &pt), PLAY_OK);
		play_free(&pt);
		assert_int_equal(limit_pages(f, 1 << 30), ST_OK);
		post_move(f, &p, &req, tid, who, v, pk.move);
		assert_int_equal(p.resp.status, HTTP_303);
	}
	fprintf(stderr, "test_faults: the disk was full at move %d (database of %lld pages)\n",
		steps, (long long)cap);
	assert_true(full);
}

/* A table whose snapshot does not decode: a move answers 503 "beschädigt"
 * and changes nothing; the page closes the table (close_broken: the party
 * a draw, the table finished, a new version) and, like the JSON twin,
 * answers 200 with the note why; other tables are fine. */
/* The current party's stored snapshot of table tid, read straight from the
 * database file; its length. */
static size_t stored_snapshot(struct fx *f, int64_t tid, unsigned char *out, size_t cap)
{
	struct st_table t;
	struct st_party p;
	assert_int_equal(store_table_get(f->db.s, tid, &t), ST_OK);
	assert_int_equal(store_party_get(f->db.s, tid, t.party_no, &p, out, cap), ST_OK);
	return p.snap_len;
}

/* A snapshot in a format this build does not read (as after an upgrade
 * that changed a game's snapshot): the page loads the state rebuilt from
 * the party's log, the same state as before, and the next move stores it
 * in today's format. */
static void test_old_snapshot_format_rebuilt(void **state)
{
	TMPDB_SQLITE_ONLY();
	struct fx *f = *state;
	int64_t tid = full_table(f), v;
	struct pick pk;
	struct rerr e = { .msg = "" };
	for (int i = 0; i < 3; i++) {
		int64_t who = next_move(f, tid, &pk, &v);
		assert_true(who > 0);
		assert_int_equal(play_move(f->db.s, tid, who, pk.move, v, f->now, &e), PLAY_OK);
	}
	static unsigned char before[GAME_SNAPSHOT_MAX], old[GAME_SNAPSHOT_MAX],
		after[GAME_SNAPSHOT_MAX];
	size_t n = stored_snapshot(f, tid, before, sizeof before);
	/* format byte: after 4 magic, 1 slug length, "drehwurm", 4 length */
	size_t at = 4 + 1 + 8 + 4;
	assert_int_equal(before[at], game_find("drehwurm")->snap_format);
	memcpy(old, before, n);
	old[at] = 0;   /* no build reads format 0 */
	uint32_t crc = crc32_bytes(old, n - 4);
	for (int i = 0; i < 4; i++)
		old[n - 4 + (size_t)i] = (unsigned char)(crc >> (8 * i));
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	assert_int_equal(sqlite3_open(f->db.path, &db), SQLITE_OK);
	sqlite3_busy_timeout(db, 5000);
	assert_int_equal(sqlite3_prepare_v2(db, "UPDATE parties SET snapshot = ? WHERE table_id = ?",
					    -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_blob(st, 1, old, (int)n, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, tid);
	assert_int_equal(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
	sqlite3_close(db);

	struct play_table pt;
	assert_int_equal(play_load(f->db.s, tid, 0, f->now, &pt), PLAY_OK);
	unsigned char enc[GAME_SNAPSHOT_MAX];
	struct buf b = { enc, 0, sizeof enc, 0 };
	assert_int_equal(pt.g->encode(pt.state, &b), 0);
	assert_int_equal(b.len, n);
	assert_memory_equal(enc, before, n);   /* the same state, from the log */
	play_free(&pt);

	int64_t who = next_move(f, tid, &pk, &v);
	assert_true(who > 0);
	assert_int_equal(play_move(f->db.s, tid, who, pk.move, v, f->now, &e), PLAY_OK);
	stored_snapshot(f, tid, after, sizeof after);
	assert_int_equal(after[at], game_find("drehwurm")->snap_format);
	assert_int_equal(play_verify_party(f->db.s, tid, 0, &e), PLAY_OK);
}

static void test_corrupt_table(void **state)
{
	TMPDB_SQLITE_ONLY();
	struct fx *f = *state;
	int64_t tid = full_table(f), other = full_table(f), v, v0, n0, v1, n1;
	struct pick pk;
	int64_t who = next_move(f, tid, &pk, &v);
	assert_true(who > 0);
	sqlite3 *db = NULL;
	assert_int_equal(sqlite3_open(f->db.path, &db), SQLITE_OK);
	sqlite3_busy_timeout(db, 5000);
	char sql[128];
	snprintf(sql, sizeof sql, "UPDATE parties SET snapshot = x'00ff00ff' WHERE table_id = %lld",
		 (long long)tid);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	state_of(f, tid, &v0, &n0);

	struct rerr e = { .msg = "" };
	assert_int_equal(play_move(f->db.s, tid, who, pk.move, v, f->now, &e), PLAY_CORRUPT);

	struct page p;
	struct http_req req;
	post_move(f, &p, &req, tid, who, v, pk.move);
	assert_int_equal(p.resp.status, HTTP_503);
	assert_non_null(strstr(p.resp.body, "Dieser Tisch ist beschädigt"));
	state_of(f, tid, &v1, &n1);
	assert_int_equal(v1, v0);
	assert_int_equal(n1, n0);
	/* GET /t/<id> closes the table; its JSON twin shows it too */
	char uri[64];
	for (int json = 0; json < 2; json++) {
		snprintf(uri, sizeof uri, "/t/%lld%s", (long long)tid, json ? ".json" : "");
		arena_reset(&f->a);
		struct http_raw raw = { .method = "GET", .uri = arena_strdup(&f->a, uri) };
		assert_int_equal(http_req_parse(&f->a, &raw, &req), HTTP_E_NONE);
		memset(&p, 0, sizeof p);
		p.a = &f->a;
		p.store = f->db.s;
		p.req = &req;
		p.now_ms = f->now;
		p.user_id = who;
		p.id = tid;
		if (json)
			page_table_json(&p);
		else
			page_table(&p);
		assert_int_equal(p.resp.status, HTTP_200);
		if (!strstr(p.resp.body, json ? "\"closed_broken\":true" :
				"Geschlossen, weil der Spielstand beschädigt war"))
			fail_msg("%s: %.*s", uri, (int)p.resp.len, p.resp.body);
	}
	struct play_table pt;
	assert_int_equal(play_load(f->db.s, tid, who, f->now, &pt), PLAY_OK);
	assert_int_equal(pt.t.status, TABLE_FINISHED);
	assert_true(pt.broken);
	play_free(&pt);
	state_of(f, tid, &v1, &n1);
	assert_int_equal(v1, v0 + 1);   /* one new version: every page stale */
	assert_int_equal(n1, n0);       /* no step logged */
	/* the move from the page before: "too late, the party is decided" */
	assert_int_equal(play_move(f->db.s, tid, who, pk.move, v, f->now, &e), PLAY_STALE);
	/* the other table plays on */
	who = next_move(f, other, &pk, &v);
	assert_true(who > 0);
	assert_int_equal(play_move(f->db.s, other, who, pk.move, v, f->now, &e), PLAY_OK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_disk_full_move, setup_fx, teardown_fx),
		cmocka_unit_test_setup_teardown(test_corrupt_table, setup_fx, teardown_fx),
		cmocka_unit_test_setup_teardown(test_old_snapshot_format_rebuilt, setup_fx,
						teardown_fx),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
