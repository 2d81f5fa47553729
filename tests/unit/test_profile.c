/* test_profile.c — what a profile (/u/<name>) reads: finished tables per
 * game, wins from the final standings (a tie shares place 1, a resigned
 * seat counts last, a table without a finished party wins nothing), the
 * latest results the newest first, and a name's way into and out of a URL. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "page.h"
#include "tmpdb.h"

static int64_t make_user(struct store *s, const char *name)
{
	int64_t id = 0;
	assert_int_equal(store_user_create(s, name, "$argon2id$x", 1000, &id), ST_OK);
	return id;
}

/* A table of `game` with users[0..n) seated in order. */
static int64_t seated_table(struct store *s, const char *game, const int64_t *users, int n)
{
	int64_t id = 0;
	assert_int_equal(store_table_create(s, game, "", n, 1, users[0], 2000, &id), ST_OK);
	for (int i = 0; i < n; i++) {
		int seat = -1;
		assert_int_equal(store_seat_take(s, id, users[i], &seat), ST_OK);
		assert_int_equal(seat, i);
	}
	return id;
}

/* A finished party `number` of table with these points (places by them;
 * the profile counts totals, not these places), its last step at `at`. */
static void finished_party(struct store *s, int64_t table, int number, const int *points, int n,
			   int64_t at)
{
	unsigned char snap[4] = { 1, 2, 3, 4 };
	int64_t party = 0;
	struct party_result r;
	memset(&r, 0, sizeof r);
	for (int i = 0; i < n; i++) {
		r.points[i] = points[i];
		r.place[i] = 1;
	}
	assert_int_equal(store_party_create(s, table, number, 7, 0, snap, sizeof snap, at - 10,
					    &party), ST_OK);
	assert_int_equal(store_move_append(s, party, 0, "zug", at - 5, 2, snap, sizeof snap), ST_OK);
	assert_int_equal(store_move_append(s, party, 1, "zug", at, 3, snap, sizeof snap), ST_OK);
	assert_int_equal(store_party_end(s, party, snap, sizeof snap, &r, n), ST_OK);
}

static void finish(struct store *s, int64_t table)
{
	assert_int_equal(store_table_set_status(s, table, TABLE_FINISHED, 0, 0), ST_OK);
}

struct rows {
	struct st_finished f[16];
	int n;
};

static void collect(void *ctx, const struct st_finished *f)
{
	struct rows *r = ctx;
	if (r->n < 16)
		r->f[r->n++] = *f;
}

struct games {
	char game[4][ST_SLUG_MAX + 1];
	int tables[4];
	int n;
};

static void collect_game(void *ctx, const char *game, int tables)
{
	struct games *g = ctx;
	if (g->n < 4) {
		snprintf(g->game[g->n], sizeof g->game[0], "%s", game);
		g->tables[g->n++] = tables;
	}
}

/* Finished tables per game, the most first; open and running ones do not count. */
static void test_tables_per_game(void **state)
{
	struct tmpdb *t = *state;
	int64_t u[2] = { make_user(t->s, "Anna"), make_user(t->s, "Bert") };
	int pts[2] = { 3, 1 };
	for (int k = 0; k < 2; k++) {
		int64_t id = seated_table(t->s, "drehwurm", u, 2);
		finished_party(t->s, id, 0, pts, 2, 5000);
		finish(t->s, id);
	}
	int64_t dna = seated_table(t->s, "dna", u, 2);
	finish(t->s, dna);
	int64_t running = seated_table(t->s, "drehwurm", u, 2);
	assert_int_equal(store_table_set_status(t->s, running, TABLE_PLAYING, 0, 0), ST_OK);
	seated_table(t->s, "wurfwort", u, 1);   /* open */

	struct games g = { .n = 0 };
	assert_int_equal(store_profile_games(t->s, u[0], collect_game, &g), ST_OK);
	assert_int_equal(g.n, 2);
	assert_string_equal(g.game[0], "drehwurm");
	assert_int_equal(g.tables[0], 2);
	assert_string_equal(g.game[1], "dna");
	assert_int_equal(g.tables[1], 1);
	int64_t nobody = make_user(t->s, "Cleo");
	g.n = 0;
	assert_int_equal(store_profile_games(t->s, nobody, collect_game, &g), ST_OK);
	assert_int_equal(g.n, 0);

	struct st_user user;
	assert_int_equal(store_user_by_name(t->s, "anna", &user), ST_OK);
	assert_int_equal(user.created_at, 1000);
}

/* Equal totals share place 1: both win. Totals count over every party. */
static void test_wins_tie(void **state)
{
	struct tmpdb *t = *state;
	int64_t u[3] = { make_user(t->s, "Anna"), make_user(t->s, "Bert"), make_user(t->s, "Cleo") };
	int64_t id = seated_table(t->s, "drehwurm", u, 3);
	int p1[3] = { 5, 2, 1 }, p2[3] = { 0, 3, 9 };   /* totals 5, 5, 10: Cleo first */
	finished_party(t->s, id, 0, p1, 3, 5000);
	finished_party(t->s, id, 1, p2, 3, 6000);
	finish(t->s, id);
	int64_t tie = seated_table(t->s, "drehwurm", u, 2);
	int p3[2] = { 4, 4 };
	finished_party(t->s, tie, 0, p3, 2, 7000);
	finish(t->s, tie);

	struct rows r = { .n = 0 };
	assert_int_equal(store_profile_finished(t->s, u[1], -1, collect, &r), ST_OK);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.f[0].table_id, tie);   /* the newest first */
	assert_int_equal(r.f[0].totals.parties, 1);
	int win = 0;
	assert_int_equal(page_profile_place(&r.f[0], &win), 1);
	assert_int_equal(win, 1);
	assert_int_equal(r.f[1].table_id, id);
	assert_int_equal(r.f[1].totals.parties, 2);
	assert_int_equal(r.f[1].totals.total[1], 5);
	assert_int_equal(r.f[1].my_seat, 1);
	assert_int_equal(page_profile_place(&r.f[1], &win), 2);
	assert_int_equal(win, 0);
	r.n = 0;
	assert_int_equal(store_profile_finished(t->s, u[0], -1, collect, &r), ST_OK);
	assert_int_equal(page_profile_place(&r.f[0], &win), 1);   /* the tie, Anna too */
	assert_int_equal(win, 1);
	assert_int_equal(page_profile_place(&r.f[1], &win), 2);   /* 5 and 5 behind 10 */
	r.n = 0;
	assert_int_equal(store_profile_finished(t->s, u[2], -1, collect, &r), ST_OK);
	assert_int_equal(r.n, 1);
	assert_int_equal(page_profile_place(&r.f[0], &win), 1);
	assert_int_equal(win, 1);
}

/* A resigned seat counts last whatever its points; the others move up. A
 * table closed before any party ended gives place 1 but no win. */
static void test_wins_resigned(void **state)
{
	struct tmpdb *t = *state;
	int64_t u[3] = { make_user(t->s, "Anna"), make_user(t->s, "Bert"), make_user(t->s, "Cleo") };
	int64_t id = seated_table(t->s, "drehwurm", u, 3);
	int pts[3] = { 20, 4, 9 };
	finished_party(t->s, id, 0, pts, 3, 5000);
	assert_int_equal(store_seat_set_bot(t->s, id, 0, 2, 1), ST_OK);   /* Anna resigned */
	finish(t->s, id);
	int win = 0;
	struct rows r = { .n = 0 };
	assert_int_equal(store_profile_finished(t->s, u[0], -1, collect, &r), ST_OK);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.f[0].resigned, 1u);
	assert_int_equal(page_profile_place(&r.f[0], &win), 3);
	assert_int_equal(win, 0);
	r.n = 0;
	assert_int_equal(store_profile_finished(t->s, u[2], -1, collect, &r), ST_OK);
	assert_int_equal(page_profile_place(&r.f[0], &win), 1);
	assert_int_equal(win, 1);
	r.n = 0;
	assert_int_equal(store_profile_finished(t->s, u[1], -1, collect, &r), ST_OK);
	assert_int_equal(page_profile_place(&r.f[0], &win), 2);

	int64_t closed = seated_table(t->s, "dna", u, 2);
	finish(t->s, closed);
	r.n = 0;
	assert_int_equal(store_profile_finished(t->s, u[1], -1, collect, &r), ST_OK);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.f[0].table_id, closed);
	assert_int_equal(r.f[0].totals.parties, 0);
	assert_int_equal(r.f[0].at, 2000);   /* no step: the table's creation */
	assert_int_equal(page_profile_place(&r.f[0], &win), 1);
	assert_int_equal(win, 0);
}

/* The latest finished tables, the newest first, at most `limit`; the date
 * is the last step of the last party. */
static void test_last_results_order(void **state)
{
	struct tmpdb *t = *state;
	int64_t u[2] = { make_user(t->s, "Anna"), make_user(t->s, "Bert") };
	int64_t ids[12];
	int pts[2] = { 1, 2 };
	for (int k = 0; k < 12; k++) {
		ids[k] = seated_table(t->s, k % 2 ? "dna" : "drehwurm", u, 2);
		finished_party(t->s, ids[k], 0, pts, 2, 10000 + k * 1000);
		if (k != 5)   /* one stays running: not a result */
			finish(t->s, ids[k]);
	}
	struct rows r = { .n = 0 };
	assert_int_equal(store_profile_finished(t->s, u[0], 10, collect, &r), ST_OK);
	assert_int_equal(r.n, 10);
	int k = 11;
	for (int i = 0; i < r.n; i++, k--) {
		if (k == 5)
			k--;
		assert_int_equal(r.f[i].table_id, ids[k]);
		assert_int_equal(r.f[i].at, 10000 + k * 1000);
		assert_int_equal(r.f[i].nseats, 2);
		assert_string_equal(r.f[i].game, k % 2 ? "dna" : "drehwurm");
	}
	r.n = 0;
	assert_int_equal(store_profile_finished(t->s, u[0], -1, collect, &r), ST_OK);
	assert_int_equal(r.n, 11);
}

/* A name goes into a URL percent-encoded as UTF-8 and comes back intact;
 * '+' in a path is no space. */
static void test_name_in_url(void **state)
{
	(void)state;
	struct arena arena, *a = &arena;
	arena_init(a, 1 << 16);
	assert_string_equal(http_path_escape(a, "J\xc3\xb6rg_1.x"), "J%C3%B6rg_1.x");
	assert_string_equal(http_path_escape(a, "a b<&>"), "a%20b%3C%26%3E");
	assert_string_equal(http_path_decode(a, "J%C3%b6rg", 9), "J\xc3\xb6rg");
	assert_string_equal(http_path_decode(a, "a+b", 3), "a+b");
	assert_null(http_path_decode(a, "J%C3", 4));      /* not UTF-8 */
	assert_null(http_path_decode(a, "%00x", 4));
	assert_null(http_path_decode(a, "%4", 2));
	arena_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_tables_per_game, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_wins_tie, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_wins_resigned, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_last_results_order, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test(test_name_in_url),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
