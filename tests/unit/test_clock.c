/* test_clock.c — seat clocks (rules/clock.h) against known answers: the
 * first move, the time per move, the cap, the weekend pause, and which
 * seats' clocks run. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "clock.h"

enum { H = 3600000 };
static const int64_t DAY = CLOCK_DAY_MS;
/* UTC: Friday 20 November 2026 18:00, Saturday 21 12:00, Monday 23 00:00
 * and 18:00, Tuesday 24 00:00, Wednesday 25 00:00. */
static const int64_t FRI_18 = 1795197600000, SAT_12 = 1795262400000, MON_00 = 1795392000000,
		     MON_18 = 1795456800000, TUE_00 = 1795478400000, WED_00 = 1795564800000;

static struct clock_rule days(int first, int per_move, int cap, int weekend)
{
	struct clock_rule r = { first * DAY, per_move * DAY, cap * DAY, DAY, weekend, 1 };
	return r;
}

static void test_clock_without_weekend_is_wall_time(void **unused)
{
	(void)unused;
	struct clock_rule r = days(3, 1, 7, 0);
	assert_true(clock_elapsed(&r, FRI_18, MON_18) == 3 * DAY);
	assert_true(clock_runs_out(&r, FRI_18, 3 * DAY) == MON_18);
	assert_true(clock_elapsed(&r, MON_18, FRI_18) == 0);
	assert_true(clock_runs_out(&r, FRI_18, 0) == FRI_18);
}

static void test_clock_weekend_does_not_count(void **unused)
{
	(void)unused;
	struct clock_rule r = days(3, 1, 7, 1);
	/* Friday 18:00 to Monday 18:00: six hours of Friday, eighteen of Monday */
	assert_true(clock_elapsed(&r, FRI_18, MON_18) == DAY);
	assert_true(clock_runs_out(&r, FRI_18, DAY) == MON_18);
	/* a wait that starts on Saturday starts counting on Monday */
	assert_true(clock_elapsed(&r, SAT_12, MON_18) == 18 * (int64_t)H);
	assert_true(clock_runs_out(&r, SAT_12, 2 * DAY) == WED_00);
	/* the weekend alone costs nothing */
	assert_true(clock_elapsed(&r, SAT_12, MON_00) == 0);
	/* a bank that ends exactly with Friday runs out at Friday's end, not Monday's start */
	assert_true(clock_runs_out(&r, FRI_18, 6 * (int64_t)H) == FRI_18 + 6 * (int64_t)H);
	assert_true(clock_runs_out(&r, MON_00, DAY) == TUE_00);
}

static void test_clock_first_move_per_move_and_cap(void **unused)
{
	(void)unused;
	struct clock_rule r = days(3, 1, 5, 0);
	/* the first move after one day: 3 - 1 + 1 */
	int64_t bank = clock_after_move(&r, r.first_ms, MON_00, TUE_00);
	assert_true(bank == 3 * DAY);
	/* quick moves fill it up to the cap and no further */
	bank = clock_after_move(&r, bank, TUE_00, TUE_00 + H);
	bank = clock_after_move(&r, bank, TUE_00, TUE_00 + H);
	bank = clock_after_move(&r, bank, TUE_00, TUE_00 + H);
	assert_true(bank == 5 * DAY);
	/* a slow move spends more than it earns */
	assert_true(clock_after_move(&r, 2 * DAY, MON_00, WED_00 + 12 * (int64_t)H) ==
		    DAY / 2);
	/* a live table: every turn starts with the full time */
	struct clock_rule live = { 90000, 90000, 90000, DAY, 0, 0 };
	assert_true(clock_after_move(&live, 90000, 0, 30000) == 90000);
	assert_true(clock_after_move(&live, 90000, 0, 100) == 90000);
}

/* Whatever the day's length (a test's "day" of a second), counting and
 * running out agree: the bank runs out exactly when its time is used. */
static void test_clock_short_days_agree_with_themselves(void **unused)
{
	(void)unused;
	struct clock_rule r = { 3000, 1000, 7000, 1000, 1, 1 };
	for (int64_t from = 0; from < 20000; from += 137)
		for (int64_t left = 1; left < 9000; left += 331) {
			int64_t end = clock_runs_out(&r, from, left);
			assert_true(clock_elapsed(&r, from, end) == left);
			assert_true(clock_elapsed(&r, from, end - 1) < left);
		}
}

static void test_clock_runs_for_the_seats_that_must_act(void **unused)
{
	(void)unused;
	struct clock_rule over_days = days(3, 1, 7, 0), live = { 60000, 60000, 60000, DAY, 0, 0 };
	struct status st;
	memset(&st, 0, sizeof st);
	/* a regular turn: the seat on turn, not others who may play out of turn */
	st.turn = 1;
	st.to_act = 0x7;
	assert_int_equal(clock_waiting(&over_days, &st), 0x2);
	assert_int_equal(clock_waiting(&live, &st), 0x2);
	/* simultaneous choices: everyone who may act */
	st.turn = -1;
	assert_int_equal(clock_waiting(&live, &st), 0x7);
	/* a window: over days it waits for its seats (seat 0 passed: its clock
	 * runs on until the window closes); live, for its deadline */
	st.window = 0x5;
	st.to_act = 0x4;
	assert_int_equal(clock_waiting(&over_days, &st), 0x5);
	assert_int_equal(clock_waiting(&live, &st), 0);
	/* no clock at all, or the party is over */
	struct clock_rule none = { 0, 0, 0, DAY, 0, 0 };
	assert_int_equal(clock_waiting(&none, &st), 0);
	st.window = 0;
	st.over = 1;
	assert_int_equal(clock_waiting(&over_days, &st), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clock_without_weekend_is_wall_time),
		cmocka_unit_test(test_clock_weekend_does_not_count),
		cmocka_unit_test(test_clock_first_move_per_move_and_cap),
		cmocka_unit_test(test_clock_short_days_agree_with_themselves),
		cmocka_unit_test(test_clock_runs_for_the_seats_that_must_act),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
