/*
 * test_me_web.c — "Meine Tische" through real nginx: the page polls like a
 * table (204 while none of my tables changed, 200 once another player
 * moved at one of them, never for a table I do not sit at), counts the
 * tables waiting for me in the tab title, shows the favicon with its badge
 * while I may act, and my clock's time at a table over days.
 * Bounded: a handful of requests, no loops over the network.
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

/* The status of GET /me/poll?v=sig for c. */
static long me_poll(struct h_client *c, long long sig)
{
	char path[64];
	struct h_resp r;
	snprintf(path, sizeof path, "/me/poll?v=%lld", sig);
	assert_int_equal(h_get(c, path, &r), 0);
	long st = r.status;
	h_resp_free(&r);
	return st;
}

/* GET /me for c: the page's poll version (data-version) into *sig; the
 * page in r (the caller frees it). */
static void me_page(struct h_client *c, struct h_resp *r, long long *sig)
{
	assert_int_equal(h_get(c, "/me", r), 0);
	assert_int_equal(r->status, 200);
	assert_non_null(strstr(r->body, "data-poll=\"/me/poll\""));
	const char *v = strstr(r->body, "data-version=\"");
	assert_non_null(v);
	*sig = strtoll(v + 14, NULL, 10);
}

/* Whoever of a and b may act plays the first legal move; 1 if one did. */
static int someone_moves(struct h_client **who, int n, int64_t id)
{
	long status;
	for (int i = 0; i < n; i++) {
		json_t *o = it_table_json(who[i], id, &status);
		json_t *mv = json_object_get(o, "moves");
		if (json_is_true(json_object_get(o, "can_act")) && json_array_size(mv) > 0) {
			long st = it_move(who[i], id, it_jstr(o, "csrf"), it_jint(o, "version", -1),
					  it_jstr(json_array_get(mv, 0), "move"));
			json_decref(o);
			assert_true(st == 303 || st == 409);
			return 1;
		}
		json_decref(o);
	}
	return 0;
}

static void test_my_tables_poll_and_mark(void **unused)
{
	(void)unused;
	struct h_client *p[3] = { it_register("Ida"), it_register("Jonas"), it_register("Kim") };
	for (int i = 0; i < 3; i++)
		assert_non_null(p[i]);
	/* Ida and Jonas play over days; Kim has a table of her own */
	int64_t id = it_create_table(p[0], "drehwurm", 3, "speed", "days", "clock_days", "3", NULL);
	assert_true(id > 0);
	assert_int_equal(it_join(p[1], id), 0);
	int64_t other = it_create_table(p[2], "dna", 2, NULL);
	assert_true(other > 0);
	assert_int_equal(it_join(p[2], id), 0);   /* the last seat: the party starts */

	struct h_resp r;
	long long sig[3];
	for (int i = 0; i < 3; i++) {
		me_page(p[i], &r, &sig[i]);
		h_resp_free(&r);
		assert_int_equal(me_poll(p[i], sig[i]), 204);
	}
	/* somebody moves at the common table: everyone's page notices */
	int moved = 0;
	for (int k = 0; k < 5 && !moved; k++)
		moved = someone_moves(p, 3, id);
	assert_true(moved);
	for (int i = 0; i < 3; i++)
		assert_int_equal(me_poll(p[i], sig[i]), 200);
	/* a table Ida does not sit at changes: her page does not */
	me_page(p[0], &r, &sig[0]);
	h_resp_free(&r);
	char path[64], csrf[128];
	snprintf(path, sizeof path, "/t/%lld", (long long)other);
	assert_int_equal(it_csrf(p[2], path, csrf, sizeof csrf), 0);
	snprintf(path, sizeof path, "/t/%lld/leave", (long long)other);
	assert_int_equal(h_post_form(p[2], path, &r, "csrf", csrf, NULL), 0);
	assert_int_equal(r.status, 303);
	h_resp_free(&r);
	assert_int_equal(me_poll(p[0], sig[0]), 204);

	/* whoever may act sees the count in the title, the badge, the clock */
	int waiting = 0;
	for (int i = 0; i < 3; i++) {
		long long s;
		me_page(p[i], &r, &s);
		int mine = strstr(r.body, "Du bist dran!") != NULL ||
			   strstr(r.body, "Fenster offen") != NULL;
		waiting += mine;
		assert_int_equal(strstr(r.body, "data-alert=\"(1) Du bist dran!\"") != NULL, mine);
		assert_int_equal(strstr(r.body, "favicon-turn.svg") != NULL, mine);
		assert_non_null(strstr(r.body, "Deine Uhr:"));
		h_resp_free(&r);
	}
	assert_true(waiting >= 1);
	print_message("my tables: polls 204 until a move at my table, 200 after; %d of 3 waited\n",
		      waiting);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_my_tables_poll_and_mark),
	};
	return cmocka_run_group_tests(tests, start, stop);
}
