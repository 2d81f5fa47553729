/* test_rating.c — Weng-Lin / Plackett-Luce ratings (rules/rating.h)
 * against known answers of the openskill package, and the properties the
 * site relies on: replaying a history gives the same ratings, players in
 * the same position get the same rating, sigma only grows by tau.
 *
 * The known answers below were printed by tests/ratings/reference.js (the
 * package pinned in tests/ratings/package-lock.json). To regenerate them:
 *
 *     cd tests/ratings && npm ci && node reference.js
 *
 * and paste each printed array over the one of the same name here. This
 * test itself needs neither node nor the network. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "rating.h"

/* ---- printed by tests/ratings/reference.js ---- */
/* two_win: places 1, 2 */
static const struct rating two_win[] = {
	{ 27.635389493140, 8.065901413544 },
	{ 22.364610506860, 8.065901413544 },
};
/* two_tie: places 1, 1 */
static const struct rating two_tie[] = {
	{ 25.000000000000, 8.065901413544 },
	{ 25.000000000000, 8.065901413544 },
};
/* four_tie_middle: places 1, 2, 2, 4 */
static const struct rating four_tie_middle[] = {
	{ 27.795252672501, 8.263571791259 },
	{ 24.689416369722, 8.179617988373 },
	{ 24.689416369722, 8.179617988373 },
	{ 22.825914588055, 8.179617988373 },
};
/* nine_two_ties: places 4, 1, 6, 2, 9, 6, 2, 8, 5 */
static const struct rating nine_two_ties[] = {
	{ 26.483899566883, 8.295338344328 },
	{ 27.208594704198, 8.322835984381 },
	{ 24.123463976771, 8.256695541291 },
	{ 25.655676552809, 8.310732851390 },
	{ 21.638794934548, 8.228782726324 },
	{ 24.123463976771, 8.256695541291 },
	{ 25.655676552809, 8.310732851390 },
	{ 24.123463976771, 8.228782726324 },
	{ 25.986965758439, 8.277568383286 },
};
/* different_start: places 4, 1, 2, 2 */
static const struct rating different_start[] = {
	{ 29.117553091111, 3.978760410026 },
	{ 28.813288023606, 8.173617552739 },
	{ 20.319701911181, 5.927694400950 },
	{ 26.965316896388, 2.000481934416 },
};
/* four_tie_middle_no_tau: places 1, 2, 2, 4 */
static const struct rating four_tie_middle_no_tau[] = {
	{ 27.795084971875, 8.263160757613 },
	{ 24.689435003125, 8.179213704945 },
	{ 24.689435003125, 8.179213704945 },
	{ 22.826045021875, 8.179213704945 },
};
/* sequence: the four ratings after each of the five matches */
static const struct rating sequence[5][4] = {
	{ { 27.795252672501, 8.263571791259 },
	  { 26.552918151390, 8.179617988373 },
	  { 24.689416369722, 8.084127880169 },
	  { 20.962412806387, 8.084127880169 } },
	{ { 23.873854380126, 7.980913578120 },
	  { 29.345531014287, 8.054595167425 },
	  { 25.714576740611, 7.837508901133 },
	  { 20.962412806387, 8.084127880169 } },
	{ { 23.873854380126, 7.980913578120 },
	  { 26.023451187626, 7.828148396419 },
	  { 25.714576740611, 7.837508901133 },
	  { 24.308895938434, 7.854297257475 } },
	{ { 26.688858425134, 7.861501220225 },
	  { 26.023451187626, 7.828148396419 },
	  { 24.205217084241, 7.589216625942 },
	  { 23.098325279830, 7.609075274437 } },
	{ { 26.215956604887, 7.708719053020 },
	  { 25.636949934833, 7.681029919418 },
	  { 26.705781198135, 7.533803768688 },
	  { 21.392856673151, 7.490496391340 } },
};
/* ---- end of the printed part ---- */

static const double EPS = 1e-9;

static void assert_near(double got, double want, double eps)
{
	if (!(fabs(got - want) <= eps))
		fail_msg("got %.15f, want %.15f", got, want);
}

static void assert_ratings(const struct rating *got, const struct rating *want, int n)
{
	for (int i = 0; i < n; i++) {
		assert_near(got[i].mu, want[i].mu, EPS);
		assert_near(got[i].sigma, want[i].sigma, EPS);
	}
}

/* n new players (or the given ratings) after one match with places. */
static void one_match(struct rating *r, const struct rating *start, const int *place, int n)
{
	for (int i = 0; i < n; i++) {
		if (start)
			r[i] = start[i];
		else
			rating_default(&r[i]);
	}
	assert_int_equal(rating_update(r, place, n), 0);
}

static void test_rating_defaults_and_ordinal(void **unused)
{
	(void)unused;
	struct rating r;
	struct rating_params p;
	rating_default(&r);
	rating_params_default(&p);
	assert_near(r.mu, 25.0, 0);
	assert_near(r.sigma, 25.0 / 3.0, 0);
	assert_near(p.beta, 25.0 / 6.0, 0);
	assert_near(p.kappa, 0.0001, 0);
	assert_near(p.tau, 25.0 / 300.0, 0);
	/* a new player shows 0; the winner of a first match about 3.4 */
	assert_near(rating_ordinal(&r), 0, 1e-12);
	assert_near(rating_ordinal(&two_win[0]), two_win[0].mu - 3 * two_win[0].sigma, 0);
	assert_near(rating_ordinal(&two_win[0]), 3.438, 0.001);
}

static void test_rating_two_players(void **unused)
{
	(void)unused;
	struct rating r[2];
	one_match(r, NULL, (const int[]){ 1, 2 }, 2);
	assert_ratings(r, two_win, 2);
	one_match(r, NULL, (const int[]){ 1, 1 }, 2);
	assert_ratings(r, two_tie, 2);
	/* the winner's gain is the loser's loss; both learn the same */
	one_match(r, NULL, (const int[]){ 2, 1 }, 2);
	assert_near(r[1].mu - 25, 25 - r[0].mu, 1e-12);
	assert_near(r[0].sigma, r[1].sigma, 1e-12);
	assert_near(r[1].mu, two_win[0].mu, EPS);
}

static void test_rating_ties_and_many_players(void **unused)
{
	(void)unused;
	struct rating r[9];
	one_match(r, NULL, (const int[]){ 1, 2, 2, 4 }, 4);
	assert_ratings(r, four_tie_middle, 4);
	one_match(r, NULL, (const int[]){ 4, 1, 6, 2, 9, 6, 2, 8, 5 }, 9);
	assert_ratings(r, nine_two_ties, 9);
	/* only the order of the places counts */
	one_match(r, NULL, (const int[]){ 1, 2, 2, 3 }, 4);
	assert_ratings(r, four_tie_middle, 4);
	one_match(r, NULL, (const int[]){ 2, 5, 5, 9 }, 4);
	assert_ratings(r, four_tie_middle, 4);
}

static void test_rating_different_start(void **unused)
{
	(void)unused;
	const struct rating start[4] = { { 30, 4 }, { 25, 25.0 / 3.0 }, { 20, 6 }, { 27, 2 } };
	struct rating r[4];
	one_match(r, start, (const int[]){ 4, 1, 2, 2 }, 4);
	assert_ratings(r, different_start, 4);
	/* a sure rating learns so little that tau outweighs it */
	assert_true(r[3].sigma > start[3].sigma);
}

static void test_rating_without_tau(void **unused)
{
	(void)unused;
	struct rating_params p;
	rating_params_default(&p);
	p.tau = 0;
	struct rating r[4];
	for (int i = 0; i < 4; i++)
		rating_default(&r[i]);
	assert_int_equal(rating_update_with(&p, r, (const int[]){ 1, 2, 2, 4 }, 4), 0);
	assert_ratings(r, four_tie_middle_no_tau, 4);
}

/* The five matches of reference.js among players 0..3. */
static const struct {
	int n, who[4], place[4];
} matches[5] = {
	{ 4, { 0, 1, 2, 3 }, { 1, 2, 3, 4 } },
	{ 3, { 0, 1, 2 }, { 3, 1, 2 } },
	{ 2, { 1, 3 }, { 2, 1 } },
	{ 3, { 0, 2, 3 }, { 1, 2, 2 } },
	{ 4, { 0, 1, 2, 3 }, { 2, 2, 1, 4 } },
};

/* Match m applied to the four players' ratings in all. */
static void apply_match(struct rating *all, int m)
{
	struct rating r[4];
	for (int k = 0; k < matches[m].n; k++)
		r[k] = all[matches[m].who[k]];
	assert_int_equal(rating_update(r, matches[m].place, matches[m].n), 0);
	for (int k = 0; k < matches[m].n; k++)
		all[matches[m].who[k]] = r[k];
}

static void test_rating_sequence_and_replay(void **unused)
{
	(void)unused;
	struct rating kept[4], fresh[4];
	for (int i = 0; i < 4; i++)
		rating_default(&kept[i]);
	/* one by one, the ratings kept between the matches */
	for (int m = 0; m < 5; m++) {
		apply_match(kept, m);
		assert_ratings(kept, sequence[m], 4);
	}
	/* recomputed from scratch, from the history alone: the very same */
	for (int i = 0; i < 4; i++)
		rating_default(&fresh[i]);
	for (int m = 0; m < 5; m++)
		apply_match(fresh, m);
	assert_memory_equal(fresh, kept, sizeof kept);
}

/* Players in the same position end in the same position: the seat order
 * does not matter, and tied players with equal ratings stay equal. */
static void test_rating_symmetric(void **unused)
{
	(void)unused;
	static const int place[9] = { 4, 1, 6, 2, 9, 6, 2, 8, 5 };
	static const int perm[9] = { 8, 3, 0, 6, 1, 7, 4, 2, 5 };
	struct rating r[9];
	int shuffled[9];
	for (int i = 0; i < 9; i++) {
		rating_default(&r[i]);
		shuffled[i] = place[perm[i]];
	}
	assert_int_equal(rating_update(r, shuffled, 9), 0);
	for (int i = 0; i < 9; i++) {
		assert_near(r[i].mu, nine_two_ties[perm[i]].mu, 1e-12);
		assert_near(r[i].sigma, nine_two_ties[perm[i]].sigma, 1e-12);
	}
	/* ties between equals: 2 = 2 (seats 3, 6) and 6 = 6 (seats 2, 5) */
	assert_near(nine_two_ties[3].mu, nine_two_ties[6].mu, 1e-12);
	assert_near(nine_two_ties[2].sigma, nine_two_ties[5].sigma, 1e-12);
	/* everybody tied with equal ratings: nobody moves */
	for (int n = 2; n <= RATING_PLAYERS_MAX; n++) {
		int same[RATING_PLAYERS_MAX];
		struct rating t[RATING_PLAYERS_MAX];
		for (int i = 0; i < n; i++) {
			rating_default(&t[i]);
			same[i] = 1;
		}
		assert_int_equal(rating_update(t, same, n), 0);
		for (int i = 0; i < n; i++) {
			assert_near(t[i].mu, 25, 1e-12);
			assert_near(t[i].sigma, t[0].sigma, 1e-12);
		}
	}
}

/* A small fixed generator: the same cases every run. */
static uint32_t next(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

static void test_rating_sigma_grows_only_by_tau(void **unused)
{
	(void)unused;
	struct rating_params p;
	rating_params_default(&p);
	p.tau = 0;
	uint32_t s = 17;
	for (int round = 0; round < 5000; round++) {
		int n = 2 + (int)(next(&s) % (RATING_PLAYERS_MAX - 1)), place[RATING_PLAYERS_MAX];
		struct rating r[RATING_PLAYERS_MAX], before[RATING_PLAYERS_MAX];
		for (int i = 0; i < n; i++) {
			r[i].mu = 5 + (next(&s) % 4000) / 100.0;
			r[i].sigma = 0.5 + (next(&s) % 800) / 100.0;
			place[i] = 1 + (int)(next(&s) % (unsigned)n);
			before[i] = r[i];
		}
		assert_int_equal(rating_update_with(&p, r, place, n), 0);
		for (int i = 0; i < n; i++) {
			assert_true(r[i].sigma <= before[i].sigma);
			assert_true(r[i].sigma >= before[i].sigma * sqrt(p.kappa));
			assert_true(isfinite(r[i].mu));
		}
	}
	/* far apart ratings neither overflow nor lose the winner's gain */
	struct rating far[2] = { { 5000, 8 }, { -5000, 8 } };
	assert_int_equal(rating_update_with(&p, far, (const int[]){ 2, 1 }, 2), 0);
	assert_true(isfinite(far[0].mu) && isfinite(far[1].mu));
	assert_true(far[0].mu < 5000 && far[1].mu > -5000);
}

static void test_rating_bad_input(void **unused)
{
	(void)unused;
	struct rating r[RATING_PLAYERS_MAX + 1], keep[RATING_PLAYERS_MAX + 1];
	int place[RATING_PLAYERS_MAX + 1];
	for (int i = 0; i <= RATING_PLAYERS_MAX; i++) {
		rating_default(&r[i]);
		place[i] = i + 1;
	}
	memcpy(keep, r, sizeof r);
	assert_int_equal(rating_update(r, place, 1), -1);
	assert_int_equal(rating_update(r, place, RATING_PLAYERS_MAX + 1), -1);
	place[1] = 0;
	assert_int_equal(rating_update(r, place, 3), -1);
	place[1] = 2;
	r[2].sigma = 0;
	assert_int_equal(rating_update(r, place, 3), -1);
	r[2].sigma = NAN;
	assert_int_equal(rating_update(r, place, 3), -1);
	r[2].sigma = keep[2].sigma;
	r[0].mu = INFINITY;
	assert_int_equal(rating_update(r, place, 3), -1);
	r[0].mu = keep[0].mu;
	assert_memory_equal(r, keep, sizeof r);
	struct rating_params p;
	rating_params_default(&p);
	p.tau = -1;
	assert_int_equal(rating_update_with(&p, r, place, 3), -1);
	assert_memory_equal(r, keep, sizeof r);
	/* the most players there are */
	assert_int_equal(rating_update(r, place, RATING_PLAYERS_MAX), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rating_defaults_and_ordinal),
		cmocka_unit_test(test_rating_two_players),
		cmocka_unit_test(test_rating_ties_and_many_players),
		cmocka_unit_test(test_rating_different_start),
		cmocka_unit_test(test_rating_without_tau),
		cmocka_unit_test(test_rating_sequence_and_replay),
		cmocka_unit_test(test_rating_symmetric),
		cmocka_unit_test(test_rating_sigma_grows_only_by_tau),
		cmocka_unit_test(test_rating_bad_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
