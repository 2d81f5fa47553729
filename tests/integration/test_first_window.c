/*
 * test_first_window.c — the first window of a party runs out like every
 * other, through real nginx. Right after the deal of a Worst Game Ever
 * table (reaction 5 s) and of a Wurf & Wort table (round 10 s) the table's
 * JSON carries a deadline (the countdown the page shows); nobody moves,
 * and once it has passed the poll says so (200) and the next page load
 * closes the window: whoever did not answer passed (Worst Game Ever), the
 * round scores nothing (Wurf & Wort). The log holds the clock's start at
 * the deal and the passed deadline, and replays to the snapshot.
 *
 * (The issue: the first window's deadline was 0 after the deal and only a
 * move started its clock, so one absent player stalled a live table.)
 *
 * No fixed sleep: the poll is asked every 100 ms until it answers 200, at
 * most until the deadline plus WAIT_MARGIN_S.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "integration/suite.h"

enum { MAX_PLAYERS = 3, WAIT_MARGIN_S = 10 };

static int start(void **state)
{
	(void)state;
	return h_start();
}

static int stop(void **state)
{
	(void)state;
	h_stop();
	return 0;
}

static int64_t wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The table's JSON as c sees it (fails otherwise). */
static json_t *json_of(struct h_client *c, int64_t id)
{
	long st;
	json_t *o = it_table_json(c, id, &st);
	if (!o)
		fail_msg("table %lld JSON: status %ld", (long long)id, st);
	return o;
}

/* Asks the poll at version v every 100 ms until it answers 200; fails
 * when it still says 204 WAIT_MARGIN_S seconds after `deadline`. */
static void poll_until_changed(struct h_client *c, int64_t id, long long v, int64_t deadline)
{
	char path[96];
	snprintf(path, sizeof path, "/t/%lld/poll?v=%lld", (long long)id, v);
	int64_t until = deadline + WAIT_MARGIN_S * 1000;
	for (int k = 0; k < 10 * (WAIT_MARGIN_S + 700); k++) {
		struct h_resp r;
		assert_int_equal(h_get(c, path, &r), 0);
		long st = r.status;
		h_resp_free(&r);
		if (st == 200)
			return;
		assert_int_equal(st, 204);
		if (wall_ms() > until)
			break;
		nanosleep(&(struct timespec){ 0, 100 * 1000000L }, NULL);
	}
	fail_msg("the poll never noticed the deadline %lld", (long long)deadline);
}

/* Opens a table of slug for n fresh players (names from tag) with one
 * option; its id, the players in c[]. */
static int64_t seated_table(const char *tag, const char *slug, int n, const char *key,
			    const char *val, struct h_client **c)
{
	char name[32];
	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof name, "%s%d", tag, i);
		assert_non_null(c[i] = it_register(name));
	}
	int64_t id = it_create_table(c[0], slug, n, key, val, NULL);
	assert_true(id > 0);
	for (int i = 1; i < n; i++)
		assert_int_equal(it_join(c[i], id), 0);
	return id;
}

/* The table's steps: the first is the clock's start at the deal, and a
 * passed deadline ("tick") follows with no seat having moved. */
static void assert_started_then_ticked(int64_t id)
{
	struct it_step *steps;
	int n;
	assert_int_equal(it_db_steps(h_db_path(), id, &steps, &n), 0);
	assert_true(n >= 2);
	assert_int_equal(steps[0].seat, -1);
	assert_string_equal(steps[0].text, "start");
	int ticked = 0;
	for (int i = 1; i < n; i++) {
		assert_int_equal(steps[i].seat, -1);   /* nobody moved */
		ticked |= strcmp(steps[i].text, "tick") == 0;
	}
	assert_true(ticked);
	free(steps);
	char why[256];
	if (it_verify_table(id, why, sizeof why) < 1)
		fail_msg("replay: %s", why);
}

/* The deal's window, as the JSON shows it at once: a deadline `seconds`
 * (± 2 s) from now; its version in *v. */
static int64_t first_deadline(struct h_client *c, int64_t id, int seconds, long long *v)
{
	int64_t before = wall_ms();
	json_t *o = json_of(c, id);
	assert_string_equal(it_jstr(o, "status"), "playing");
	int64_t deadline = it_jint(o, "deadline", 0);
	*v = it_jint(o, "version", -1);
	json_t *g = json_object_get(o, "game");
	assert_int_equal(it_jint(g, "deadline", -1), deadline);
	json_decref(o);
	if (deadline < before + (seconds - 2) * 1000 || deadline > before + (seconds + 2) * 1000)
		fail_msg("deadline %lld, %d s after %lld expected", (long long)deadline, seconds,
			 (long long)before);
	return deadline;
}

static void test_worstgame_first_reaction_runs_out(void **unused)
{
	(void)unused;
	struct h_client *c[MAX_PLAYERS];
	int64_t id = seated_table("Wgfw", "worstgame", 2, "react_seconds", "5", c);
	long long v;
	int64_t deadline = first_deadline(c[1], id, 5, &v);
	json_t *o = json_of(c[0], id);
	assert_true(json_is_true(json_object_get(json_object_get(o, "game"), "has_deadline")));
	json_decref(o);
	poll_until_changed(c[1], id, v, deadline);
	o = json_of(c[1], id);   /* the load applies the passed deadline */
	assert_true(it_jint(o, "version", -1) > v);
	assert_true(it_jint(o, "deadline", 0) != deadline);
	json_decref(o);
	assert_started_then_ticked(id);
	for (int i = 0; i < 2; i++)
		h_client_free(c[i]);
}

static void test_wurfwort_first_round_runs_out(void **unused)
{
	(void)unused;
	struct h_client *c[MAX_PLAYERS];
	int64_t id = seated_table("Wwfw", "wurfwort", 3, "round_seconds", "10", c);
	long long v;
	int64_t deadline = first_deadline(c[2], id, 10, &v);
	json_t *o = json_of(c[0], id);
	long long round = it_jint(json_object_get(o, "game"), "round_number", -1);
	json_decref(o);
	poll_until_changed(c[0], id, v, deadline);
	o = json_of(c[2], id);
	assert_true(it_jint(o, "version", -1) > v);
	assert_true(it_jint(o, "deadline", 0) > deadline);   /* the next round's race */
	assert_int_equal(it_jint(json_object_get(o, "game"), "round_number", -2), round + 1);
	json_decref(o);
	assert_started_then_ticked(id);
	for (int i = 0; i < 3; i++)
		h_client_free(c[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_worstgame_first_reaction_runs_out),
		cmocka_unit_test(test_wurfwort_first_round_runs_out),
	};
	return cmocka_run_group_tests_name("the first window runs out", tests, start, stop);
}
