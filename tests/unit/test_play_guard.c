/* test_play_guard.c — no step that breaks a game's invariants is stored,
 * and a table whose party can no longer go on is closed cleanly.
 *
 * The engine's own header (engine.h) is included so that the save path
 * (save_step) and the close (close_broken) can be driven with a state no legal move reaches: the
 * games' own tests and the simulator prove that legal moves keep check()
 * passing; this proves what happens when a bug breaks that promise. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#undef fail_msg   /* cmocka's: the engine has its own */
#include "auth.h"
#include "engine.h"
#include "damage.h"
#include "unit/tmpdb.h"

struct fx {
	struct tmpdb db;
	struct store *s;
	int64_t user[2];
	int64_t now;
};

static int setup_fx(void **state)
{
	struct fx *f = calloc(1, sizeof *f);
	setenv("SPIELTISCH_FAST_HASH", "1", 1);
	if (!f || auth_init() != 0 || tmpdb_open(&f->db) != 0) {
		free(f);
		return -1;
	}
	f->s = f->db.s;
	if (store_user_create(f->s, "Anna", "$argon2id$test", 1, &f->user[0]) != ST_OK ||
	    store_user_create(f->s, "Bert", "$argon2id$test", 1, &f->user[1]) != ST_OK)
		return -1;
	f->now = 1700000000000;
	*state = f;
	return 0;
}

static int teardown_fx(void **state)
{
	struct fx *f = *state;
	tmpdb_close(&f->db);
	free(f);
	return 0;
}

/* A running two-player Drachenrummy table of two parties. */
static int64_t table_of_two(struct fx *f)
{
	int64_t tid = 0;
	struct rerr e;
	assert_int_equal(play_create(f->s, "drachenrummy", "parties=2", 2, f->user[0], f->now, &tid,
				     &e), PLAY_OK);
	assert_int_equal(play_join(f->s, tid, f->user[1], f->now, &e), PLAY_OK);
	return tid;
}

/* What must not change when a step is refused. */
struct sig {
	unsigned char snap[GAME_SNAPSHOT_MAX];
	size_t len;
	int64_t version, moves;
	int over;
};

static void take_sig(struct fx *f, int64_t tid, struct sig *g)
{
	struct st_party p;
	struct st_table t;
	assert_int_equal(store_table_get(f->s, tid, &t), ST_OK);
	assert_int_equal(store_party_get(f->s, tid, t.party_no, &p, g->snap, sizeof g->snap), ST_OK);
	g->len = p.snap_len;
	g->version = t.version;
	g->over = p.over;
	assert_int_equal(store_move_count(f->s, p.id, &g->moves), ST_OK);
}

/* A step whose state fails the game's check() is refused (PLAY_CORRUPT,
 * logged) before anything is written: the snapshot, the log and the
 * version stay as they were, and the table still loads and plays. */
static void test_step_breaking_invariants_not_stored(void **state)
{
	struct fx *f = *state;
	int64_t tid = table_of_two(f);
	struct sig *before = malloc(sizeof *before), *after = malloc(sizeof *after);
	assert_non_null(before);
	assert_non_null(after);
	take_sig(f, tid, before);

	struct live l;
	struct rerr e;
	assert_int_equal(store_begin(f->s), ST_OK);
	assert_int_equal(live_load(f->s, tid, &l), PLAY_OK);
	assert_int_equal(l.g->check(l.state, &e), 0);
	memset(l.state, 0xff, l.g->state_size);   /* no player count, no card where it belongs */
	assert_int_not_equal(l.g->check(l.state, &e), 0);
	assert_int_equal(save_step(f->s, &l, 0, "roll", f->now + 1000, 0), PLAY_CORRUPT);
	live_free(&l);
	assert_int_equal(finish(f->s, PLAY_CORRUPT), PLAY_CORRUPT);   /* rolled back */

	take_sig(f, tid, after);
	assert_int_equal(after->version, before->version);
	assert_int_equal(after->moves, before->moves);
	assert_int_equal(after->over, 0);
	assert_int_equal(after->len, before->len);
	assert_memory_equal(after->snap, before->snap, before->len);
	struct play_table pt;
	assert_int_equal(play_load(f->s, tid, f->user[0], f->now + 2000, &pt), PLAY_OK);
	assert_int_equal(pt.t.status, TABLE_PLAYING);
	assert_true(pt.has_party);
	assert_false(pt.broken);
	play_free(&pt);
	free(before);
	free(after);
}

/* A party that cannot go on (close_broken): it ends as a draw (over, every
 * seat first, no points), the table is finished and its pages stale; the
 * page shows it closed without the board. */
static void test_close_broken_ends_party_as_draw(void **state)
{
	struct fx *f = *state;
	int64_t tid = table_of_two(f);
	struct st_table t0;
	assert_int_equal(store_table_get(f->s, tid, &t0), ST_OK);
	assert_int_equal(store_begin(f->s), ST_OK);
	assert_int_equal(finish(f->s, close_broken(f->s, tid, f->now + 1000, "a test")), PLAY_OK);

	struct play_table pt;
	assert_int_equal(play_load(f->s, tid, f->user[1], f->now + 2000, &pt), PLAY_OK);
	assert_int_equal(pt.t.status, TABLE_FINISHED);
	assert_true(pt.t.version > t0.version);
	assert_true(pt.broken);
	assert_false(pt.has_party);
	assert_false(pt.pausing);
	assert_int_equal(pt.nfinished, 1);
	assert_int_equal(pt.totals.total[0], 0);
	assert_int_equal(pt.totals.total[1], 0);
	assert_true(pt.party.over);
	assert_int_equal(pt.party.result.place[0], 1);
	assert_int_equal(pt.party.result.place[1], 1);
	play_free(&pt);
	struct rerr e;
	assert_int_equal(play_move(f->s, tid, f->user[0], "roll", pt.t.version, f->now + 3000, &e),
			 PLAY_NOT_PLAYING);
}

/* A running party whose stored snapshot does not load (damaged through the
 * store) no longer answers PLAY_CORRUPT for ever: the load closes the
 * table as above and shows it. */
static void test_unloadable_party_closed_on_load(void **state)
{
	TMPDB_SQLITE_ONLY();
	struct fx *f = *state;
	int64_t tid = table_of_two(f);
	struct st_party p;
	assert_int_equal(store_party_get(f->s, tid, 0, &p, NULL, 0), ST_OK);
	assert_int_equal(damage_position(f->db.path, p.id), 0);

	struct play_table pt;
	assert_int_equal(play_load(f->s, tid, f->user[0], f->now + 1000, &pt), PLAY_OK);
	assert_int_equal(pt.t.status, TABLE_FINISHED);
	assert_true(pt.broken);
	assert_false(pt.has_party);
	assert_true(pt.party.over);
	play_free(&pt);
	/* and again: steady */
	assert_int_equal(play_load(f->s, tid, f->user[1], f->now + 2000, &pt), PLAY_OK);
	assert_true(pt.broken);
	play_free(&pt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_step_breaking_invariants_not_stored, setup_fx,
						teardown_fx),
		cmocka_unit_test_setup_teardown(test_close_broken_ends_party_as_draw, setup_fx,
						teardown_fx),
		cmocka_unit_test_setup_teardown(test_unloadable_party_closed_on_load, setup_fx,
						teardown_fx),
	};
	return cmocka_run_group_tests_name("play: invariants guarded", tests, NULL, NULL);
}
