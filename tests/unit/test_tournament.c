/* test_tournament.c — the arithmetic of a tournament (rules/tournament.h):
 * points by place (defaults, parsing, smaller tables, shared places), bye
 * points, who goes on in an elimination, the seat rotation of a group, and
 * the standings with their tie-breaks, by hand-computed examples, against
 * a plain recomputation and over 1,000 players and 10 rounds. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "tournament.h"

static struct tourney_points points_of(int seats, const int *p)
{
	struct tourney_points tp;
	memset(&tp, 0, sizeof tp);
	tp.seats = seats;
	memcpy(tp.p, p, (size_t)seats * sizeof *p);
	return tp;
}

static void test_points_default(void **unused)
{
	(void)unused;
	struct tourney_points tp;
	tourney_points_default(&tp, 3);
	assert_int_equal(tp.seats, 3);
	assert_memory_equal(tp.p, ((int[]){ 4, 2, 0 }), 3 * sizeof(int));
	tourney_points_default(&tp, 4);
	assert_int_equal(tp.seats, 4);
	assert_memory_equal(tp.p, ((int[]){ 6, 4, 2, 0 }), 4 * sizeof(int));
	tourney_points_default(&tp, 5);
	assert_int_equal(tp.seats, 5);
	assert_memory_equal(tp.p, ((int[]){ 8, 6, 4, 2, 0 }), 5 * sizeof(int));
	char buf[64];
	assert_int_equal(tourney_points_format(&tp, buf, sizeof buf), 0);
	assert_string_equal(buf, "8,6,4,2,0");
}

static void parse_ok(int seats, const char *text, const int *want)
{
	struct tourney_points tp;
	struct rerr e = { .msg = "" };
	assert_int_equal(tourney_points_parse(&tp, seats, text, &e), 0);
	assert_int_equal(tp.seats, seats);
	assert_memory_equal(tp.p, want, (size_t)seats * sizeof *want);
}

/* A rejected text: a message, and tp as it was. */
static void parse_bad(int seats, const char *text, const char *msg)
{
	struct tourney_points tp, before;
	struct rerr e = { .msg = "" };
	memset(&tp, 0x5a, sizeof tp);
	before = tp;
	assert_int_equal(tourney_points_parse(&tp, seats, text, &e), -1);
	assert_true(e.msg[0] != '\0');
	if (msg)
		assert_string_equal(e.msg, msg);
	assert_memory_equal(&tp, &before, sizeof tp);
}

static void test_points_parse(void **unused)
{
	(void)unused;
	const char *count4 = "Punkte nach Platz: genau 4 Zahlen, durch Komma getrennt (z. B. 6,4,2,0).";
	const char *count3 = "Punkte nach Platz: genau 3 Zahlen, durch Komma getrennt (z. B. 4,2,0).";
	const char *range = "Punkte nach Platz: 0 bis 100 je Platz.";
	const char *rising = "Punkte nach Platz dürfen nach hinten nicht steigen.";
	parse_ok(4, "6,4,2,0", (int[]){ 6, 4, 2, 0 });
	parse_ok(4, " 6 , 4,2 ,\t0 ", (int[]){ 6, 4, 2, 0 });
	parse_ok(4, "0,0,0,0", (int[]){ 0, 0, 0, 0 });
	parse_ok(5, "10,6,3,1,0", (int[]){ 10, 6, 3, 1, 0 });
	parse_ok(2, "100,100", (int[]){ 100, 100 });
	parse_ok(8, "7,6,5,4,3,2,1,0", (int[]){ 7, 6, 5, 4, 3, 2, 1, 0 });
	parse_bad(4, "6,4,2", count4);
	parse_bad(4, "6,4,2,0,0", count4);
	parse_bad(4, "6,4,2,0,", count4);
	parse_bad(4, "", count4);
	parse_bad(4, NULL, count4);
	parse_bad(4, "6,,2,0", count4);
	parse_bad(4, "6;4;2;0", count4);
	parse_bad(4, "6,4,2,x", count4);
	parse_bad(4, "6 4,2,0", count4);
	parse_bad(4, "6,4,2,0x", count4);
	parse_bad(3, "4,2", count3);
	parse_bad(4, "101,4,2,0", range);
	parse_bad(4, "6,4,2,-1", range);
	parse_bad(4, "99999999999999999999,4,2,0", range);
	parse_bad(4, "6,7,2,0", rising);
	parse_bad(4, "6,4,2,3", rising);
	parse_bad(1, "6", NULL);
	parse_bad(9, "8,7,6,5,4,3,2,1,0", NULL);
}

static void test_points_format(void **unused)
{
	(void)unused;
	struct tourney_points tp = points_of(4, (int[]){ 6, 4, 2, 0 });
	char buf[16];
	assert_int_equal(tourney_points_format(&tp, buf, 8), 0);
	assert_string_equal(buf, "6,4,2,0");
	assert_int_equal(tourney_points_format(&tp, buf, 7), -1);
	assert_int_equal(tourney_points_format(&tp, buf, 0), -1);
	tp = points_of(3, (int[]){ 100, 50, 0 });
	assert_int_equal(tourney_points_format(&tp, buf, sizeof buf), 0);
	assert_string_equal(buf, "100,50,0");
	/* what format writes, parse reads back */
	struct tourney_points back;
	struct rerr e;
	assert_int_equal(tourney_points_parse(&back, 3, buf, &e), 0);
	assert_memory_equal(back.p, tp.p, 3 * sizeof(int));
}

static void test_place_points(void **unused)
{
	(void)unused;
	struct tourney_points tp = points_of(4, (int[]){ 6, 4, 2, 0 });
	/* the full table: the scale itself */
	for (int k = 1; k <= 4; k++)
		assert_int_equal(tourney_place_points(&tp, 4, k, 1), tp.p[k - 1]);
	/* a table of 3: places at 0, 1.5, 3 of the scale: 6, 3, 0 */
	assert_int_equal(tourney_place_points(&tp, 3, 1, 1), 6);
	assert_int_equal(tourney_place_points(&tp, 3, 2, 1), 3);
	assert_int_equal(tourney_place_points(&tp, 3, 3, 1), 0);
	/* a table of 2: the top and the bottom */
	assert_int_equal(tourney_place_points(&tp, 2, 1, 1), 6);
	assert_int_equal(tourney_place_points(&tp, 2, 2, 1), 0);
	assert_int_equal(tourney_place_points(&tp, 2, 1, 2), 3);
	/* shared places at the full table */
	assert_int_equal(tourney_place_points(&tp, 4, 2, 2), 3);       /* (4 + 2) / 2 */
	assert_int_equal(tourney_place_points(&tp, 4, 1, 3), 4);       /* (6 + 4 + 2) / 3 */
	assert_int_equal(tourney_place_points(&tp, 4, 1, 4), 3);       /* 12 / 4 */
	assert_int_equal(tourney_place_points(&tp, 4, 3, 2), 1);       /* (2 + 0) / 2 */
	assert_int_equal(tourney_place_points(&tp, 3, 2, 2), 1);       /* (3 + 0) / 2 = 1.5 */
	assert_int_equal(tourney_place_points(&tp, 3, 1, 2), 4);       /* (6 + 3) / 2 = 4.5 */

	/* 10, 6, 3, 1, 0 at a table of 4: places at 0, 4/3, 8/3, 4 of the
	 * scale: 10; a third of the way from 6 to 3, 5; two thirds of the way
	 * from 3 to 1, 1.67 -> 1; and 0 */
	tp = points_of(5, (int[]){ 10, 6, 3, 1, 0 });
	assert_int_equal(tourney_place_points(&tp, 4, 1, 1), 10);
	assert_int_equal(tourney_place_points(&tp, 4, 2, 1), 5);
	assert_int_equal(tourney_place_points(&tp, 4, 3, 1), 1);
	assert_int_equal(tourney_place_points(&tp, 4, 4, 1), 0);
	assert_int_equal(tourney_place_points(&tp, 4, 1, 2), 7);  /* (10 + 5) / 2 */
	assert_int_equal(tourney_place_points(&tp, 4, 3, 2), 0);  /* (5/3 + 0) / 2 */
	/* at a table of 3: 10, 3, 0 (places at 0, 2, 4) */
	assert_int_equal(tourney_place_points(&tp, 3, 2, 1), 3);
	for (int k = 1; k <= 5; k++)
		assert_int_equal(tourney_place_points(&tp, 5, k, 1), tp.p[k - 1]);

	/* the mean is rounded once: 10, 8, 3, 1, 0 at a table of 4 gives
	 * 19/3 = 6.33 and 5/3 = 1.67 to places 2 and 3; sharing them is
	 * 8 / 2 = 4 (the rounded places would give (6 + 1) / 2 = 3) */
	tp = points_of(5, (int[]){ 10, 8, 3, 1, 0 });
	assert_int_equal(tourney_place_points(&tp, 4, 2, 1), 6);
	assert_int_equal(tourney_place_points(&tp, 4, 3, 1), 1);
	assert_int_equal(tourney_place_points(&tp, 4, 2, 2), 4);

	/* out of range: 0 */
	tp = points_of(4, (int[]){ 6, 4, 2, 0 });
	assert_int_equal(tourney_place_points(&tp, 5, 1, 1), 0);
	assert_int_equal(tourney_place_points(&tp, 1, 1, 1), 0);
	assert_int_equal(tourney_place_points(&tp, 4, 0, 1), 0);
	assert_int_equal(tourney_place_points(&tp, 4, 5, 1), 0);
	assert_int_equal(tourney_place_points(&tp, 4, 1, 0), 0);
	assert_int_equal(tourney_place_points(&tp, 4, 3, 3), 0);
}

static void test_bye_points(void **unused)
{
	(void)unused;
	struct tourney_points tp = points_of(4, (int[]){ 6, 4, 2, 0 });
	assert_int_equal(tourney_bye_points(&tp), 3);
	tp = points_of(5, (int[]){ 10, 6, 3, 1, 0 });
	assert_int_equal(tourney_bye_points(&tp), 3);
	tp = points_of(2, (int[]){ 5, 0 });
	assert_int_equal(tourney_bye_points(&tp), 2);
	tp = points_of(3, (int[]){ 4, 2, 0 });
	assert_int_equal(tourney_bye_points(&tp), 2);
}

static void test_advances(void **unused)
{
	(void)unused;
	/* advance 2 at a table of 4 */
	assert_true(tourney_advances(1, 4, 2));
	assert_true(tourney_advances(2, 4, 2));
	assert_false(tourney_advances(3, 4, 2));
	assert_false(tourney_advances(4, 4, 2));
	/* places 1, 2, 2, 4: both at the cut go on */
	assert_true(tourney_advances(2, 4, 2));
	/* places 1, 1, 3, 4 */
	assert_true(tourney_advances(1, 4, 2));
	assert_false(tourney_advances(3, 4, 2));
	/* a table of 3 with advance 2: as many as of a full table */
	assert_true(tourney_advances(1, 3, 2));
	assert_true(tourney_advances(2, 3, 2));
	assert_false(tourney_advances(3, 3, 2));
	/* a table of 2 with advance 2: never the whole table... */
	assert_true(tourney_advances(1, 2, 2));
	assert_false(tourney_advances(2, 2, 2));
	/* ...unless it is all tied: both have place 1 */
	assert_true(tourney_advances(1, 2, 2));
	/* a table of 1: that player */
	assert_true(tourney_advances(1, 1, 2));
	/* advance 1 */
	assert_true(tourney_advances(1, 4, 1));
	assert_false(tourney_advances(2, 4, 1));
	/* out of range */
	assert_false(tourney_advances(0, 4, 2));
	assert_false(tourney_advances(5, 4, 2));
	assert_false(tourney_advances(1, 4, 0));
	assert_false(tourney_advances(1, 0, 2));
}

static void test_group_seat(void **unused)
{
	(void)unused;
	for (int size = 1; size <= TOURNEY_SEATS_MAX; size++) {
		for (int pos = 0; pos < size; pos++) {
			/* in `size` rounds every seat once */
			int seen = 0;
			for (int round = 1; round <= size; round++) {
				int s = tourney_group_seat(pos, size, round);
				assert_true(s >= 0 && s < size);
				seen |= 1 << s;
			}
			assert_int_equal(seen, (1 << size) - 1);
			/* the first round: the drawn order; then round after
			 * round the same cycle */
			assert_int_equal(tourney_group_seat(pos, size, 1), pos);
			assert_int_equal(tourney_group_seat(pos, size, size + 1), pos);
		}
		/* in every round every seat taken once */
		for (int round = 1; round <= 2 * size; round++) {
			int seen = 0;
			for (int pos = 0; pos < size; pos++)
				seen |= 1 << tourney_group_seat(pos, size, round);
			assert_int_equal(seen, (1 << size) - 1);
		}
	}
	assert_int_equal(tourney_group_seat(1, 4, 2), 2);
	assert_int_equal(tourney_group_seat(3, 4, 2), 0);
	assert_int_equal(tourney_group_seat(-1, 4, 1), -1);
	assert_int_equal(tourney_group_seat(4, 4, 1), -1);
	assert_int_equal(tourney_group_seat(0, 0, 1), -1);
	assert_int_equal(tourney_group_seat(0, 4, 0), -1);
}

/* Six players, two rounds at two tables of 3, points 4, 2, 0.
 *
 * Round 1, no ties:
 *   table 0: player 0 1st (party 30, 4 points), 1 2nd (20, 2), 2 3rd (10, 0)
 *   table 1: player 3 1st (35, 4),              4 2nd (15, 2), 5 3rd (5, 0)
 * Round 2, shared places:
 *   table 0: players 0 and 3 share 1st (20 each, (4 + 2) / 2 = 3),
 *            4 3rd (10, 0)
 *   table 1: player 1 1st (30, 4), 2 and 5 share 2nd (12 each,
 *            (2 + 0) / 2 = 1)
 *
 * Totals: points 0: 7, 1: 6, 2: 1, 3: 7, 4: 2, 5: 1;
 *         party  0: 50, 1: 50, 2: 22, 3: 55, 4: 25, 5: 17.
 * sb2 (behind: twice the opponent's total; shared: once):
 *   0: r1 2*6 + 2*1 = 14, r2 7 (3 shared) + 2*2 = 11     -> 25
 *   1: r1 2*1 = 2,        r2 2*1 + 2*1 = 4               ->  6
 *   2: r1 0,              r2 1 (5 shared)                ->  1
 *   3: r1 2*2 + 2*1 = 6,  r2 7 (0 shared) + 2*2 = 11     -> 17
 *   4: r1 2*1 = 2,        r2 0                           ->  2
 *   5: r1 0,              r2 1 (2 shared)                ->  1 */
static const struct tourney_result six[] = {
	{ 0, 1, 0, 1, 4, 30 }, { 1, 1, 0, 2, 2, 20 }, { 2, 1, 0, 3, 0, 10 },
	{ 3, 1, 1, 1, 4, 35 }, { 4, 1, 1, 2, 2, 15 }, { 5, 1, 1, 3, 0, 5 },
	{ 0, 2, 0, 1, 3, 20 }, { 3, 2, 0, 1, 3, 20 }, { 4, 2, 0, 3, 0, 10 },
	{ 1, 2, 1, 1, 4, 30 }, { 2, 2, 1, 2, 1, 12 }, { 5, 2, 1, 2, 1, 12 },
};

/* The list's players and places in order. */
static void assert_list(const struct tourney_standing *s, int n, const int *players,
			const int *places)
{
	for (int i = 0; i < n; i++) {
		assert_int_equal(s[i].player, players[i]);
		assert_int_equal(s[i].place, places[i]);
		assert_int_equal(s[i].rank_order, i);
	}
}

static const struct tourney_standing *line_of(const struct tourney_standing *s, int n, int player)
{
	for (int i = 0; i < n; i++)
		if (s[i].player == player)
			return &s[i];
	fail();
	return NULL;
}

static void test_standings_six(void **unused)
{
	(void)unused;
	struct tourney_standing s[6];
	enum tourney_tiebreak party_sb[2] = { TB_PARTY, TB_SB };
	assert_int_equal(tourney_standings(six, 12, 6, party_sb, s), 0);
	const int points[] = { 7, 6, 1, 7, 2, 1 }, party[] = { 50, 50, 22, 55, 25, 17 };
	const int sb2[] = { 25, 6, 1, 17, 2, 1 };
	for (int p = 0; p < 6; p++) {
		const struct tourney_standing *l = line_of(s, 6, p);
		assert_int_equal(l->points, points[p]);
		assert_int_equal(l->party_points, party[p]);
		assert_int_equal(l->sb2, sb2[p]);
		assert_int_equal(l->played, 2);
		assert_int_equal(l->byes, 0);
	}
	/* party points first: 3 (55) before 0 (50); 2 (22) before 5 (17) */
	assert_list(s, 6, (int[]){ 3, 0, 1, 4, 2, 5 }, (int[]){ 1, 2, 3, 4, 5, 6 });

	/* the SB first: 0 (25) before 3 (17); 2 and 5 equal on it (1),
	 * party points decide */
	enum tourney_tiebreak sb_party[2] = { TB_SB, TB_PARTY };
	assert_int_equal(tourney_standings(six, 12, 6, sb_party, s), 0);
	assert_list(s, 6, (int[]){ 0, 3, 1, 4, 2, 5 }, (int[]){ 1, 2, 3, 4, 5, 6 });

	/* the SB alone: 2 and 5 share 5th, listed by player number */
	enum tourney_tiebreak sb_only[2] = { TB_SB, TB_NONE };
	assert_int_equal(tourney_standings(six, 12, 6, sb_only, s), 0);
	assert_list(s, 6, (int[]){ 0, 3, 1, 4, 2, 5 }, (int[]){ 1, 2, 3, 4, 5, 5 });

	/* no tie-break: 0 and 3 share 1st, 2 and 5 share 5th; TB_NONE ends
	 * the list, so what follows it is not used */
	enum tourney_tiebreak none[2] = { TB_NONE, TB_NONE };
	assert_int_equal(tourney_standings(six, 12, 6, none, s), 0);
	assert_list(s, 6, (int[]){ 0, 3, 1, 4, 2, 5 }, (int[]){ 1, 1, 3, 4, 5, 5 });
	enum tourney_tiebreak none_party[2] = { TB_NONE, TB_PARTY };
	assert_int_equal(tourney_standings(six, 12, 6, none_party, s), 0);
	assert_list(s, 6, (int[]){ 0, 3, 1, 4, 2, 5 }, (int[]){ 1, 1, 3, 4, 5, 5 });

	/* the results in another order, each table's rows still together */
	struct tourney_result mixed[12];
	for (int i = 0; i < 12; i++)
		mixed[i] = six[(i + 6) % 12];
	mixed[0] = six[8];
	mixed[2] = six[6];
	assert_int_equal(tourney_standings(mixed, 12, 6, party_sb, s), 0);
	assert_list(s, 6, (int[]){ 3, 0, 1, 4, 2, 5 }, (int[]){ 1, 2, 3, 4, 5, 6 });
	assert_int_equal(line_of(s, 6, 0)->sb2, 25);
}

/* Byes, a player without results, and bad input. Points 4, 2, 0: round 1
 * seats 0, 1, 2 (places 1, 2, 3), player 3 has a bye (2 points); player 4
 * withdrew before the start. Player 1 (2 points, party 20) is ahead of 3
 * (2 points, party 0). sb2: 0 gets 2*2 + 2*0 = 4, 1 gets 2*0 = 0. */
static void test_standings_byes(void **unused)
{
	(void)unused;
	const struct tourney_result r[] = {
		{ 3, 1, -1, 0, 2, 0 },
		{ 0, 1, 0, 1, 4, 40 }, { 1, 1, 0, 2, 2, 20 }, { 2, 1, 0, 3, 0, 5 },
	};
	enum tourney_tiebreak tb[2] = { TB_PARTY, TB_SB };
	struct tourney_standing s[5];
	assert_int_equal(tourney_standings(r, 4, 5, tb, s), 0);
	assert_list(s, 5, (int[]){ 0, 1, 3, 2, 4 }, (int[]){ 1, 2, 3, 4, 5 });
	assert_int_equal(s[0].sb2, 4);
	assert_int_equal(s[1].sb2, 0);
	assert_int_equal(s[2].points, 2);
	assert_int_equal(s[2].played, 0);
	assert_int_equal(s[2].byes, 1);
	assert_int_equal(s[2].sb2, 0);
	assert_int_equal(s[4].points, 0);
	assert_int_equal(s[4].played + s[4].byes, 0);
	/* 2 (party 5) and 4 (0) share with no tie-break */
	enum tourney_tiebreak sb[2] = { TB_SB, TB_NONE };
	assert_int_equal(tourney_standings(r, 4, 5, sb, s), 0);
	assert_list(s, 5, (int[]){ 0, 1, 3, 2, 4 }, (int[]){ 1, 2, 2, 4, 4 });
	/* nobody at all */
	assert_int_equal(tourney_standings(NULL, 0, 0, tb, s), 0);

	/* bad input */
	const struct tourney_result bad_player[] = { { 5, 1, 0, 1, 4, 0 } };
	const struct tourney_result neg_player[] = { { -1, 1, 0, 1, 4, 0 } };
	const struct tourney_result bad_table[] = { { 0, 1, -2, 1, 4, 0 } };
	assert_int_equal(tourney_standings(bad_player, 1, 5, tb, s), -1);
	assert_int_equal(tourney_standings(neg_player, 1, 5, tb, s), -1);
	assert_int_equal(tourney_standings(bad_table, 1, 5, tb, s), -1);
	assert_int_equal(tourney_standings(r, 4, -1, tb, s), -1);
	assert_int_equal(tourney_standings(r, -1, 5, tb, s), -1);
	enum tourney_tiebreak out_of_range[2] = { TB_PARTY, TB__MAX };
	assert_int_equal(tourney_standings(r, 4, 5, out_of_range, s), -1);
}

/* ---- generated tournaments ---- */

static uint32_t next(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

enum { BIG = 1000, BIG_ROUNDS = 10, SIZE = 7 };

/* A tournament of n players and `rounds` rounds at tables of SIZE (the
 * rest a bye each round), random seating and places with ties, written
 * table by table into r. Returns the number of results. */
static int generate(struct tourney_result *r, int n, int rounds, uint32_t seed)
{
	struct tourney_points tp;
	tourney_points_default(&tp, SIZE);
	int order[BIG], nr = 0;
	for (int round = 1; round <= rounds; round++) {
		for (int i = 0; i < n; i++)
			order[i] = i;
		for (int i = n - 1; i > 0; i--) {
			int j = (int)(next(&seed) % (uint32_t)(i + 1)), t = order[i];
			order[i] = order[j];
			order[j] = t;
		}
		int tables = n / SIZE;
		for (int t = 0; t < tables; t++) {
			int total[SIZE];
			for (int k = 0; k < SIZE; k++)
				total[k] = (int)(next(&seed) % 6);  /* ties are common */
			for (int k = 0; k < SIZE; k++) {
				int place = 1, tied = 0;
				for (int l = 0; l < SIZE; l++) {
					place += total[l] > total[k];
					tied += total[l] == total[k];
				}
				r[nr++] = (struct tourney_result){ order[t * SIZE + k], round, t, place,
					tourney_place_points(&tp, SIZE, place, tied), total[k] };
			}
		}
		for (int i = tables * SIZE; i < n; i++)
			r[nr++] = (struct tourney_result){ order[i], round, -1, 0,
				tourney_bye_points(&tp), 0 };
	}
	return nr;
}

/* A plain recomputation of one player's sb2: every pair of results. */
static int plain_sb2(const struct tourney_result *r, int nr, const struct tourney_standing *s,
		     int n, int player)
{
	int sum = 0;
	for (int i = 0; i < nr; i++) {
		if (r[i].player != player || r[i].table < 0)
			continue;
		for (int j = 0; j < nr; j++) {
			if (j == i || r[j].round != r[i].round || r[j].table != r[i].table)
				continue;
			int them = line_of(s, n, r[j].player)->points;
			sum += r[i].place < r[j].place ? 2 * them : r[i].place == r[j].place ? them : 0;
		}
	}
	return sum;
}

/* Every player once; the list sorted by points and the tie-breaks with
 * ties in player order; places shared exactly where all of them are
 * equal. */
static void check_list(const struct tourney_standing *s, int n,
		       const enum tourney_tiebreak tb[TOURNEY_TIEBREAKS])
{
	static char seen[BIG];
	memset(seen, 0, sizeof seen);
	for (int i = 0; i < n; i++) {
		assert_true(s[i].player >= 0 && s[i].player < n);
		assert_false(seen[s[i].player]);
		seen[s[i].player] = 1;
		assert_int_equal(s[i].rank_order, i);
		if (i == 0) {
			assert_int_equal(s[i].place, 1);
			continue;
		}
		const struct tourney_standing *a = &s[i - 1], *b = &s[i];
		int k = 0, d = a->points - b->points;
		while (d == 0 && k < TOURNEY_TIEBREAKS && tb[k] != TB_NONE) {
			d = tb[k] == TB_PARTY ? a->party_points - b->party_points : a->sb2 - b->sb2;
			k++;
		}
		assert_true(d >= 0);
		if (d == 0) {
			assert_true(a->player < b->player);
			assert_int_equal(b->place, a->place);
		} else {
			assert_int_equal(b->place, i + 1);
		}
		assert_true(b->place >= a->place);
	}
}

/* An elimination's standings: how far, then the final's places, then
 * points. Round 1: table 0 (0, 1, 2), table 1 (4, 5), 3 a bye; 2, 4 and
 * 5 go out. Round 2, the final of 0, 1, 3: 3 wins and stays in, 0 and 1
 * go out in round 2. 0 has the most points (round 1's 10) but is second;
 * of the round-1 outs, points decide (4: 3, 2: 1, 5: 0). Without the
 * final (round 2 at two tables) points order those still in or out in
 * the same round. */
static void test_standings_elimination(void **unused)
{
	(void)unused;
	const struct tourney_result r[] = {
		{ 3, 1, -1, 0, 2, 0 },
		{ 0, 1, 0, 1, 10, 0 }, { 1, 1, 0, 2, 4, 0 }, { 2, 1, 0, 3, 1, 0 },
		{ 4, 1, 1, 1, 3, 0 }, { 5, 1, 1, 2, 0, 0 },
		{ 3, 2, 0, 1, 6, 0 }, { 0, 2, 0, 2, 3, 0 }, { 1, 2, 0, 3, 0, 0 },
	};
	const int reach[6] = { 2, 2, 1, 0, 1, 1 };
	enum tourney_tiebreak tb[2] = { TB_PARTY, TB_SB };
	struct tourney_standing s[6];
	assert_int_equal(tourney_standings_reach(r, 9, 6, tb, reach, s), 0);
	assert_list(s, 6, (int[]){ 3, 0, 1, 4, 2, 5 }, (int[]){ 1, 2, 3, 4, 5, 6 });
	assert_int_equal(s[0].final_place, 1);
	/* by points alone, 0 would lead */
	assert_int_equal(tourney_standings(r, 9, 6, tb, s), 0);
	assert_int_equal(s[0].player, 0);
	/* no final: the last round at two tables; 0 and 1 both out in round 2
	 * and 3 still in; 0 before 1 on points */
	struct tourney_result two[9];
	memcpy(two, r, sizeof two);
	two[8].table = 1;
	assert_int_equal(tourney_standings_reach(two, 9, 6, tb, reach, s), 0);
	assert_list(s, 6, (int[]){ 3, 0, 1, 4, 2, 5 }, (int[]){ 1, 2, 3, 4, 5, 6 });
	assert_int_equal(s[1].final_place, 0);
	const int bad[6] = { 0, -1, 0, 0, 0, 0 };
	assert_int_equal(tourney_standings_reach(r, 9, 6, tb, bad, s), -1);
}

static void test_standings_generated(void **unused)
{
	(void)unused;
	enum { N = 60, ROUNDS = 5 };
	static struct tourney_result r[N * ROUNDS];
	struct tourney_standing s[N];
	const enum tourney_tiebreak tbs[][2] = {
		{ TB_PARTY, TB_SB }, { TB_SB, TB_PARTY }, { TB_SB, TB_NONE }, { TB_NONE, TB_NONE },
	};
	int nr = generate(r, N, ROUNDS, 7);
	assert_int_equal(nr, N * ROUNDS);
	for (size_t t = 0; t < sizeof tbs / sizeof tbs[0]; t++) {
		assert_int_equal(tourney_standings(r, nr, N, tbs[t], s), 0);
		check_list(s, N, tbs[t]);
		for (int p = 0; p < N; p++) {
			const struct tourney_standing *l = line_of(s, N, p);
			int points = 0, party = 0, played = 0, byes = 0;
			for (int i = 0; i < nr; i++)
				if (r[i].player == p) {
					points += r[i].points;
					party += r[i].party_points;
					played += r[i].table >= 0;
					byes += r[i].table < 0;
				}
			assert_int_equal(l->points, points);
			assert_int_equal(l->party_points, party);
			assert_int_equal(l->played, played);
			assert_int_equal(l->byes, byes);
			assert_int_equal(l->sb2, plain_sb2(r, nr, s, N, p));
		}
	}
}

static void test_standings_big(void **unused)
{
	(void)unused;
	static struct tourney_result r[BIG * BIG_ROUNDS];
	static struct tourney_standing s[BIG];
	enum tourney_tiebreak tb[2] = { TB_PARTY, TB_SB };
	int nr = generate(r, BIG, BIG_ROUNDS, 12345);
	assert_int_equal(nr, BIG * BIG_ROUNDS);
	assert_int_equal(tourney_standings(r, nr, BIG, tb, s), 0);
	check_list(s, BIG, tb);
	long points = 0;
	for (int i = 0; i < nr; i++)
		points += r[i].points;
	for (int i = 0; i < BIG; i++)
		points -= s[i].points;
	assert_int_equal(points, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_points_default),
		cmocka_unit_test(test_points_parse),
		cmocka_unit_test(test_points_format),
		cmocka_unit_test(test_place_points),
		cmocka_unit_test(test_bye_points),
		cmocka_unit_test(test_advances),
		cmocka_unit_test(test_group_seat),
		cmocka_unit_test(test_standings_six),
		cmocka_unit_test(test_standings_byes),
		cmocka_unit_test(test_standings_elimination),
		cmocka_unit_test(test_standings_generated),
		cmocka_unit_test(test_standings_big),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
