/*
 * test_bots_web.c — bots and leaving a running table, through real nginx:
 *   - a Drehwurm table of three created by one person, who seats a greedy
 *     and a random bot; the match starts with the last seat (the bots move
 *     whenever a request touches the table); a visitor claims the random
 *     bot's seat and plays it from the second party on; every party
 *     replays from its log;
 *   - a running table of three people where one lets a bot play for them
 *     and takes the seat back (their own move is refused meanwhile), and
 *     another resigns mid-party: the party goes on to its end, and the
 *     resigned seat's result counts as last;
 *   - a table over days (a clock "day" is DAY_SECONDS here, as the server
 *     allows a test) where one of three people never comes back: her clock
 *     runs out, a bot plays her turns, after her second timeout it keeps
 *     her seat, and the two others finish the whole match; she is last.
 * Bounded by MAX_POSTS moves and MAX_SECONDS per table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "integration/suite.h"

enum { MAX_POSTS = 3000, MAX_SECONDS = 150 };
#define DAY_SECONDS "4"

static int start(void **state)
{
	(void)state;
	setenv("SPIELTISCH_DAY_SECONDS", DAY_SECONDS, 1);
	return h_start();
}

static int stop(void **state)
{
	(void)state;
	h_stop();
	return 0;
}

/* Plays table id with the people in who[] until it is finished. */
static int play_out(struct h_client **who, int n, int64_t id, uint64_t seed, int max)
{
	int posts = 0, r = 0;
	double t0 = it_now();
	while (posts < max && it_now() - t0 < MAX_SECONDS && (r = it_one_move(who, n, id, &seed)) >= 0) {
		posts += r;
		if (r == 0) {
			struct timespec ts = { 0, 100 * 1000000L };
			nanosleep(&ts, NULL);
		}
	}
	assert_int_not_equal(r, -2);   /* every move answered 303 or 409 */
	return posts;
}

static void test_one_person_and_two_bots(void **unused)
{
	(void)unused;
	struct h_client *anna = it_register("Anna");
	assert_non_null(anna);
	int64_t id = it_create_table(anna, "drehwurm", 3, "snap_seconds", "3", NULL);
	assert_true(id > 0);
	assert_int_equal(it_post_table(anna, id, "/bot", "level", "greedy", NULL, 0), 303);
	assert_int_equal(it_post_table(anna, id, "/bot", "level", "wild", NULL, 0), 409);
	long status;
	json_t *o = it_table_json(anna, id, &status);
	assert_string_equal(it_jstr(o, "status"), "open");
	assert_string_equal(it_jstr(json_array_get(json_object_get(o, "seats"), 1), "name"),
			    "Bot 2 (gierig)");
	json_decref(o);
	assert_int_equal(it_post_table(anna, id, "/bot", "level", "random", NULL, 0), 303);
	o = it_table_json(anna, id, &status);
	assert_string_equal(it_jstr(o, "status"), "playing");
	json_decref(o);

	/* Vera, who does not sit there, claims the random bot's seat: hers
	 * from the next party on */
	struct h_client *who[2] = { anna, it_register("Vera") };
	assert_non_null(who[1]);
	o = it_table_json(who[1], id, &status);
	assert_true(json_is_true(json_object_get(json_array_get(json_object_get(o, "seats"), 2),
						 "can_claim")));
	json_decref(o);
	char path[64], csrf[128];
	struct h_resp r;
	/* the csrf of the claim form itself, as a browser sends it */
	snprintf(path, sizeof path, "/t/%lld", (long long)id);
	assert_int_equal(h_get(who[1], path, &r), 0);
	const char *form = strstr(r.body, "name=\"act\" value=\"claim\"");
	assert_non_null(form);
	static const char key[] = "name=\"csrf\" value=\"";
	const char *c0 = form;
	while (c0 > r.body && strncmp(c0, key, sizeof key - 1) != 0)
		c0--;
	c0 += sizeof key - 1;
	size_t cl = strcspn(c0, "\"");
	assert_true(cl > 0 && cl < sizeof csrf);
	memcpy(csrf, c0, cl);
	csrf[cl] = '\0';

	h_resp_free(&r);
	snprintf(path, sizeof path, "/t/%lld/seat", (long long)id);
	assert_int_equal(h_post_form(who[1], path, &r, "csrf", csrf, "act", "claim", "seat", "2",
				     NULL), 0);
	assert_int_equal(r.status, 303);
	h_resp_free(&r);
	o = it_table_json(anna, id, &status);
	assert_string_equal(it_jstr(json_array_get(json_object_get(o, "seats"), 2), "claimer"),
			    "Vera");
	json_decref(o);

	int posts = play_out(who, 2, id, 77, MAX_POSTS);
	o = it_table_json(anna, id, &status);
	assert_string_equal(it_jstr(o, "status"), "finished");
	assert_string_equal(it_jstr(json_array_get(json_object_get(o, "seats"), 2), "name"),
			    "Vera");
	json_decref(o);
	print_message("one person and two bots, one of them replaced by a person after the first "
		      "party: %d moves of the people\n", posts);
	char why[256];
	if (it_verify_table(id, why, sizeof why) < 1)
		fail_msg("replay: %s", why);
	assert_true(it_verify_exports(anna, id) >= 1);   /* a person in a bot's seat after party 1 */
}

static void test_bot_for_me_and_resign(void **unused)
{
	(void)unused;
	struct h_client *p[3] = { it_register("Berta"), it_register("Cem"), it_register("Dana") };
	for (int i = 0; i < 3; i++)
		assert_non_null(p[i]);
	int64_t id = it_create_table(p[0], "drehwurm", 3, "snap_seconds", "3", NULL);
	for (int i = 1; i < 3; i++)
		assert_int_equal(it_join(p[i], id), 0);

	/* Cem lets a bot play: his own move is refused with a clear note */
	assert_int_equal(it_post_table(p[1], id, "/seat", "act", "bot", NULL, 0), 303);
	long status;
	json_t *o = it_table_json(p[1], id, &status);
	assert_true(json_is_true(json_object_get(o, "my_bot_plays")));
	assert_true(json_is_true(json_object_get(o, "can_take_back")));
	long st = it_move(p[1], id, it_jstr(o, "csrf"), it_jint(o, "version", -1), "draw");
	assert_int_equal(st, 422);
	json_decref(o);
	assert_int_equal(it_post_table(p[1], id, "/seat", "act", "back", NULL, 0), 303);
	assert_int_equal(it_post_table(p[1], id, "/seat", "act", "back", NULL, 0), 409);

	uint64_t seed = 5;
	for (int k = 0; k < 12; k++)
		assert_int_not_equal(it_one_move(p, 3, id, &seed), -2);
	/* Dana resigns mid-party and cannot come back */
	assert_int_equal(it_post_table(p[2], id, "/seat", "act", "resign", NULL, 0), 303);
	assert_int_equal(it_post_table(p[2], id, "/seat", "act", "back", NULL, 0), 409);
	o = it_table_json(p[0], id, &status);
	assert_true(json_is_true(json_object_get(json_array_get(json_object_get(o, "seats"), 2),
						 "resigned")));
	json_decref(o);
	play_out(p, 2, id, 9, MAX_POSTS);
	o = it_table_json(p[0], id, &status);
	assert_string_equal(it_jstr(o, "status"), "finished");
	json_t *standings = json_object_get(o, "standings");
	size_t last = json_array_size(standings) - 1;
	assert_int_equal(it_jint(json_array_get(standings, last), "seat", -1), 2);
	json_decref(o);
	char why[256];
	if (it_verify_table(id, why, sizeof why) < 1)
		fail_msg("replay: %s", why);
	assert_true(it_verify_exports(p[0], id) >= 1);   /* a bot for a person, a resigned seat */
}

static void test_over_days_one_disappears(void **unused)
{
	(void)unused;
	struct h_client *p[3] = { it_register("Emil"), it_register("Fritz"), it_register("Gabi") };
	for (int i = 0; i < 3; i++)
		assert_non_null(p[i]);
	int64_t id = it_create_table(p[0], "drehwurm", 3, "snap_seconds", "3", "speed", "days",
				     "clock_days", "1", "move_hours", "1", "timeouts", "2", NULL);
	assert_true(id > 0);
	for (int i = 1; i < 3; i++)
		assert_int_equal(it_join(p[i], id), 0);
	long status;
	json_t *o = it_table_json(p[0], id, &status);
	assert_non_null(strstr(it_jstr(o, "speed"), "Über Tage"));
	json_t *seats = json_object_get(o, "seats");
	int running = 0;
	for (size_t i = 0; i < json_array_size(seats); i++)
		running += json_is_true(json_object_get(json_array_get(seats, i), "clock_running"));
	assert_int_equal(running, 1);   /* the first turn's */
	json_decref(o);

	/* Emil and Fritz play; Gabi never does */
	double t0 = it_now();
	int posts = play_out(p, 2, id, 13, MAX_POSTS);
	o = it_table_json(p[0], id, &status);
	assert_string_equal(it_jstr(o, "status"), "finished");
	json_t *gabi = json_array_get(json_object_get(o, "seats"), 2);
	assert_true(json_is_true(json_object_get(gabi, "timed_out")));
	assert_int_equal(it_jint(gabi, "timeouts", -1), 2);
	json_t *standings = json_object_get(o, "standings");
	size_t last = json_array_size(standings) - 1;
	assert_int_equal(it_jint(json_array_get(standings, last), "seat", -1), 2);
	print_message("over days, one gone: %d moves of the two others, the whole match in %.1f s "
		      "(a day is " DAY_SECONDS " s)\n", posts, it_now() - t0);
	json_decref(o);
	char why[256];
	if (it_verify_table(id, why, sizeof why) < 1)
		fail_msg("replay: %s", why);
	assert_true(it_verify_exports(p[0], id) >= 1);   /* timed-out turns, a seat timed out */
}

/* A live table with a time per move: the seat on turn counts down in
 * seconds on the page, and the lobby form's fields say so. */
static void test_live_clock(void **unused)
{
	(void)unused;
	struct h_client *c = it_register("Hanna");
	assert_non_null(c);
	int64_t id = it_create_table(c, "drehwurm", 3, "speed", "live", "move_seconds", "90", NULL);
	assert_true(id > 0);
	assert_int_equal(it_post_table(c, id, "/bot", "level", "greedy", NULL, 0), 303);
	assert_int_equal(it_post_table(c, id, "/bot", "level", "random", NULL, 0), 303);
	long status;
	json_t *o = it_table_json(c, id, &status);
	assert_string_equal(it_jstr(o, "speed"), "Live: 1\xc2\xa0Min. 30\xc2\xa0s pro Zug");
	/* a window the bots opened has its own deadline and no clock: pass it */
	for (int k = 0; k < 10 && !json_is_true(json_object_get(o, "my_turn")); k++) {
		if (json_is_true(json_object_get(o, "window")))
			it_move(c, id, it_jstr(o, "csrf"), it_jint(o, "version", -1), "pass");
		json_decref(o);
		o = it_table_json(c, id, &status);
	}
	assert_true(json_is_true(json_object_get(o, "my_turn")));
	json_t *me = json_array_get(json_object_get(o, "seats"), 0);
	assert_true(json_is_true(json_object_get(me, "clock_running")));
	assert_true(json_is_true(json_object_get(me, "clock_countdown")));
	long long secs = it_jint(me, "clock_seconds", -1);
	assert_true(secs > 0 && secs <= 90);
	json_decref(o);
	char path[64];
	struct h_resp r;
	snprintf(path, sizeof path, "/t/%lld", (long long)id);
	assert_int_equal(h_get(c, path, &r), 0);
	assert_non_null(strstr(r.body, "<span data-countdown=\""));
	h_resp_free(&r);
	print_message("live, 90 s a move: the seat on turn counts down from %lld s\n", secs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_person_and_two_bots),
		cmocka_unit_test(test_bot_for_me_and_resign),
		cmocka_unit_test(test_over_days_one_disappears),
		cmocka_unit_test(test_live_clock),
	};
	return cmocka_run_group_tests_name("bots and leaving through nginx", tests, start, stop);
}
