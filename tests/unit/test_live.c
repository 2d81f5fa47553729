/* test_live.c — the live channels' store side (cgi/store/sql-live.c) and
 * the channel names (cgi/live.c): a committed change of a public version
 * is announced once with the number the poll reads, a rolled-back one and
 * a step nobody else sees (version without public_version) are not; a
 * page's channel follows from its poll URL. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "live.h"
#include "tmpdb.h"

struct got {
	int n;
	char kind[8];
	int64_t id[8], v[8];
};

static void collect(void *ctx, char kind, int64_t id, const char *token, int64_t version)
{
	(void)token;
	struct got *g = ctx;
	if (g->n < 8) {
		g->kind[g->n] = kind;
		g->id[g->n] = id;
		g->v[g->n] = version;
	}
	g->n++;
}

static void test_notes(void **unused)
{
	(void)unused;
	struct tmpdb t;
	assert_int_equal(tmpdb_open(&t), 0);
	int64_t user, table, v, dl, nv;
	assert_int_equal(store_user_create(t.s, "Anna", "x", 1, &user), ST_OK);
	assert_int_equal(store_table_create(t.s, "drehwurm", "", 3, 1, user, 1, &table), ST_OK);
	assert_int_equal(store_live_watch(t.s, 1), ST_OK);
	struct got g = { 0 };

	/* a public change, committed: announced with the poll's number */
	assert_int_equal(store_begin(t.s), ST_OK);
	assert_int_equal(store_table_bump_public(t.s, table, &nv), ST_OK);
	assert_int_equal(store_commit(t.s), ST_OK);
	assert_int_equal(store_live_take(t.s, collect, &g), 0);
	assert_int_equal(store_table_poll(t.s, table, &v, &dl), ST_OK);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.kind[0], 't');
	assert_int_equal(g.id[0], table);
	assert_int_equal(g.v[0], v);

	/* the same rolled back: nothing */
	g.n = 0;
	assert_int_equal(store_begin(t.s), ST_OK);
	assert_int_equal(store_table_bump_public(t.s, table, &nv), ST_OK);
	store_rollback(t.s);
	assert_int_equal(store_live_take(t.s, collect, &g), 0);
	assert_int_equal(g.n, 0);

	/* a step only its seat sees (public_version stays): nothing */
	assert_int_equal(store_begin(t.s), ST_OK);
	assert_int_equal(store_table_bump_quiet(t.s, table, -1, 0, 0, &nv), ST_OK);
	assert_int_equal(store_commit(t.s), ST_OK);
	assert_int_equal(store_live_take(t.s, collect, &g), 0);
	assert_int_equal(g.n, 0);

	/* two changes in one request: one announcement, the newest number */
	for (int i = 0; i < 2; i++) {
		assert_int_equal(store_begin(t.s), ST_OK);
		assert_int_equal(store_table_bump_public(t.s, table, &nv), ST_OK);
		assert_int_equal(store_commit(t.s), ST_OK);
	}
	assert_int_equal(store_live_take(t.s, collect, &g), 0);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.v[0], nv);

	/* unwatched: nothing is noted */
	assert_int_equal(store_live_watch(t.s, 0), ST_OK);
	g.n = 0;
	assert_int_equal(store_begin(t.s), ST_OK);
	assert_int_equal(store_table_bump_public(t.s, table, &nv), ST_OK);
	assert_int_equal(store_commit(t.s), ST_OK);
	assert_int_equal(store_live_take(t.s, collect, &g), 0);
	assert_int_equal(g.n, 0);
	tmpdb_close(&t);
}

/* A step's /me rows, written by key (as a move writes them): on PostgreSQL
 * these writes are sent on without waiting for their answers, which are
 * read with the next statement's or the COMMIT's (sql-pg.c, queueable). Each
 * step, the first on the connection and those after it: a read in the
 * same transaction sees them, each changed seat's user is announced after
 * the commit with the number their /me poll reads, a rolled-back step
 * writes and announces nothing. */
static void test_step_me_notes(void **unused)
{
	(void)unused;
	struct tmpdb t;
	assert_int_equal(tmpdb_open(&t), 0);
	int64_t u[3], table, sig, kept;
	const char *name[3] = { "Anna", "Bert", "Cleo" };
	for (int i = 0; i < 3; i++) {
		assert_int_equal(store_user_create(t.s, name[i], "x", 1, &u[i]), ST_OK);
		assert_int_equal(store_user_poll(t.s, u[i], NULL, 1, &sig, &kept), ST_OK);
		char tok[ST_POLL_TOKEN_LEN + 1], got[ST_POLL_TOKEN_LEN + 1];
		memset(tok, 'A' + i, ST_POLL_TOKEN_LEN);   /* a listener's token */
		tok[ST_POLL_TOKEN_LEN] = '\0';
		assert_int_equal(store_user_poll_token(t.s, u[i], tok, got), ST_OK);
	}
	assert_int_equal(store_table_create(t.s, "drehwurm", "", 3, 1, u[0], 1, &table), ST_OK);
	int seat;
	for (int i = 0; i < 3; i++)
		assert_int_equal(store_seat_take(t.s, table, u[i], &seat), ST_OK);
	assert_int_equal(store_table_set_status(t.s, table, TABLE_PLAYING, 0, 0), ST_OK);
	assert_int_equal(store_live_watch(t.s, 1), ST_OK);
	struct got g = { 0 };
	assert_int_equal(store_live_take(t.s, collect, &g), 0);
	for (int k = 0; k < 4; k++) {
		struct st_table tb;
		int64_t before[3], after[3];
		assert_int_equal(store_table_get(t.s, table, &tb), ST_OK);
		for (int i = 0; i < 3; i++)
			assert_int_equal(store_user_poll(t.s, u[i], NULL, 1, &before[i], &kept), ST_OK);
		/* seats 0 and 2 asked anew, seat 1 not */
		struct st_step_row row = { .version = tb.version, .changed = 5, .user = u,
					   .nseats = 3 };
		assert_int_equal(store_begin_table(t.s, table), ST_OK);
		assert_int_equal(store_table_step(t.s, table, &row), ST_OK);
		assert_int_equal(store_user_poll(t.s, u[2], NULL, 1, &sig, &kept), ST_OK);
		assert_int_equal(sig, before[2] + 1);
		if (k == 3) {   /* rolled back: nothing written, nothing announced */
			store_rollback(t.s);
			g.n = 0;
			assert_int_equal(store_live_take(t.s, collect, &g), 0);
			assert_int_equal(g.n, 0);
			for (int i = 0; i < 3; i++) {
				assert_int_equal(store_user_poll(t.s, u[i], NULL, 1, &sig, &kept),
						 ST_OK);
				assert_int_equal(sig, before[i]);
			}
			break;
		}
		assert_int_equal(store_commit(t.s), ST_OK);
		for (int i = 0; i < 3; i++)
			assert_int_equal(store_user_poll(t.s, u[i], NULL, 1, &after[i], &kept), ST_OK);
		assert_int_equal(after[0], before[0] + 1);
		assert_int_equal(after[1], before[1]);
		assert_int_equal(after[2], before[2] + 1);
		g.n = 0;
		assert_int_equal(store_live_take(t.s, collect, &g), 0);
		int seen0 = 0, seen2 = 0;
		for (int i = 0; i < g.n && i < 8; i++) {
			if (g.kind[i] != 'm')
				continue;
			assert_true(g.id[i] == u[0] || g.id[i] == u[2]);
			seen0 += g.id[i] == u[0] && g.v[i] == after[0];
			seen2 += g.id[i] == u[2] && g.v[i] == after[2];
		}
		assert_int_equal(seen0, 1);
		assert_int_equal(seen2, 1);
	}
	tmpdb_close(&t);
}

static void test_channel_names(void **unused)
{
	(void)unused;
	char out[128];
	assert_int_equal(live_url("/t/5/poll", out, sizeof out), -1);   /* not configured */
	assert_int_equal(live_open("tcp:127.0.0.1:80"), -1);
	assert_int_equal(live_open("unix:relative"), -1);
	assert_int_equal(live_open("unix:/nowhere/live.sock"), 0);
	assert_true(live_on());
	assert_int_equal(live_url("/t/5/poll", out, sizeof out), 0);
	assert_string_equal(out, "/live/t/5");
	assert_int_equal(live_url("/tournaments/12/poll", out, sizeof out), 0);
	assert_string_equal(out, "/live/tournaments/12");
	assert_int_equal(live_url("/me/poll/abcDEF_-123", out, sizeof out), 0);
	assert_string_equal(out, "/live/me/abcDEF_-123");
	assert_int_equal(live_url("/me/poll", out, sizeof out), -1);   /* no token: no channel */
	assert_int_equal(live_url("/me", out, sizeof out), -1);
	assert_int_equal(live_url("/t/5/poll", out, 8), -1);            /* too long */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_notes),
		cmocka_unit_test(test_step_me_notes),
		cmocka_unit_test(test_channel_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
