/*
 * test_party_end.c — the end of a party through real nginx. Three browsers
 * play a Drehwurm match (three parties) from the JSON twin:
 *   - after the first party the table stays on it: every seat's JSON and
 *     page carry the same summary ("party_end": the game's final sentence,
 *     every seat's points, places and totals), the only move is "weiter",
 *     a spectator sees the summary without a button, the poll stays quiet;
 *   - one seat continues (303, marked ready for all, a second time 409),
 *     then the pause deadline passes (moved forward in the database): the
 *     poll notices it and the next page load deals party 2;
 *   - after party 2 all three continue, and the last continue deals party 3;
 *   - at the end of the match the page leads with the match result, above
 *     the seats, and the JSON names the winners.
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

enum { PLAYERS = 3, MAX_POSTS = 6000, MAX_SECONDS = 120 };

static struct h_client *player[PLAYERS];
static struct h_client *spectator;
static int64_t table_id;
static char table_path[64];

static int start(void **state)
{
	(void)state;
	return h_start();
}

static int stop(void **state)
{
	(void)state;
	for (int i = 0; i < PLAYERS; i++)
		h_client_free(player[i]);
	h_client_free(spectator);
	h_stop();
	return 0;
}

/* The JSON twin as player i sees it (fails the test otherwise). */
static json_t *view_of(struct h_client *c)
{
	long st;
	json_t *o = it_table_json(c, table_id, &st);
	if (!o)
		fail_msg("table JSON: status %ld", st);
	return o;
}

/* Index of the seat client i holds. */
static int seat_of(int i)
{
	json_t *o = view_of(player[i]);
	int s = (int)it_jint(o, "my_seat", -1);
	json_decref(o);
	return s;
}

/* Plays legal game moves from the JSON twin (a fixed pseudo-random choice)
 * until the table pauses on a finished party or the match is over;
 * returns 1 when pausing, 0 when finished. */
static int play_party(unsigned *seed)
{
	double t0 = it_now();
	for (int posts = 0; posts < MAX_POSTS && it_now() - t0 < MAX_SECONDS;) {
		int acted = 0;
		json_t *last = NULL;
		for (int i = 0; i < PLAYERS; i++) {
			json_t *o = view_of(player[i]);
			json_t *pe = json_object_get(o, "party_end");
			if (strcmp(it_jstr(o, "status"), "finished") == 0 ||
			    json_is_true(json_object_get(pe, "pausing"))) {
				int pausing = json_is_true(json_object_get(pe, "pausing"));
				json_decref(o);
				json_decref(last);
				return pausing;
			}
			json_t *mv = json_object_get(o, "moves");
			size_t n = json_array_size(mv);
			if (json_is_true(json_object_get(o, "can_act")) && n > 0) {
				*seed = *seed * 1103515245u + 12345u;
				const char *m = it_jstr(json_array_get(mv, (*seed >> 16) % n), "move");
				assert_string_not_equal(m, "weiter");   /* no pause while playing */
				long st = it_move(player[i], table_id, it_jstr(o, "csrf"),
						  it_jint(o, "version", -1), m);
				assert_true(st == 303 || st == 409);
				acted = 1;
				posts++;
			}
			json_decref(last);
			last = o;
		}
		if (!acted)   /* a snap window nobody can use runs out: until its deadline */
			it_wait_deadline(last, (long)((MAX_SECONDS - (it_now() - t0)) * 1000) + 1);
		json_decref(last);
	}
	fail_msg("the party did not end within the bounds");
	return 0;
}

/* The page of c contains every needle (fails the test otherwise). */
static void page_has(struct h_client *c, const char *const *needles, int n, int want)
{
	struct h_resp r;
	assert_int_equal(h_get(c, table_path, &r), 0);
	assert_int_equal(r.status, 200);
	for (int k = 0; k < n; k++)
		if (h_has(&r, needles[k]) != want)
			fail_msg("page %s '%s'", want ? "lacks" : "shows", needles[k]);
	h_resp_free(&r);
}

/* Every seat and a spectator see the same summary of party `number`, with
 * the seats in `ready` marked; only the others may continue. */
static void check_summary(int number, uint32_t ready)
{
	json_t *first = NULL;
	char head[64];
	snprintf(head, sizeof head, "Partie %d von 3 ist beendet", number);
	for (int i = 0; i <= PLAYERS; i++) {
		struct h_client *c = i < PLAYERS ? player[i] : spectator;
		json_t *o = view_of(c);
		assert_string_equal(it_jstr(o, "status"), "playing");
		assert_int_equal(it_jint(o, "party_number", 0), number);
		json_t *pe = json_object_get(o, "party_end");
		assert_true(json_is_object(pe));
		assert_true(json_is_true(json_object_get(pe, "pausing")));
		assert_false(json_is_true(json_object_get(pe, "match_over")));
		assert_true(strlen(it_jstr(pe, "headline")) > 10);
		assert_true(it_jint(pe, "seconds", 0) > 0);
		assert_true(it_jint(pe, "seconds", 0) <= PLAY_PAUSE_SECONDS);
		json_t *res = json_object_get(pe, "results");
		assert_int_equal(json_array_size(res), PLAYERS);
		/* The summary's points are the party's scores in the match table. */
		json_t *party = json_array_get(json_object_get(o, "parties"), (size_t)number - 1);
		json_t *scores = json_object_get(party, "scores");
		for (size_t k = 0; k < PLAYERS; k++) {
			json_t *row = json_array_get(res, k);
			int s = (int)it_jint(row, "seat", -1);
			assert_true(s >= 0 && s < PLAYERS);
			assert_int_equal(it_jint(row, "score", -999),
					 it_jint(json_array_get(scores, (size_t)s), "score", -998));
			assert_int_equal(json_is_true(json_object_get(row, "ready")),
					 (int)(ready >> s & 1u));
			if (k > 0)
				assert_true(it_jint(row, "score", 0) <=
					    it_jint(json_array_get(res, k - 1), "score", 0));
		}
		int seat = (int)it_jint(o, "my_seat", -1);
		int may = seat >= 0 && !(ready >> seat & 1u);
		json_t *mv = json_object_get(o, "moves");
		assert_int_equal(json_is_true(json_object_get(o, "can_act")), may);
		assert_int_equal(json_array_size(mv), may ? 1 : 0);
		if (may)
			assert_string_equal(it_jstr(json_array_get(mv, 0), "move"), "weiter");
		/* every viewer sees the same summary, apart from "me" and the form */
		if (!first) {
			first = json_deep_copy(res);
		} else {
			for (size_t k = 0; k < PLAYERS; k++) {
				json_t *a = json_array_get(first, k), *b = json_array_get(res, k);
				assert_int_equal(it_jint(a, "seat", -1), it_jint(b, "seat", -2));
				assert_int_equal(it_jint(a, "place", -1), it_jint(b, "place", -2));
				assert_int_equal(it_jint(a, "total", -1), it_jint(b, "total", -2));
			}
		}
		const char *const want[] = { head, "party-end", "Summe" };
		page_has(c, want, 3, 1);
		const char *const button[] = { "value=\"weiter\"" };
		page_has(c, button, 1, may);
		json_decref(o);
	}
	json_decref(first);
}

/* Client i continues from its current page; the HTTP status. */
static long continue_from_page(int i, long long *v_out)
{
	json_t *o = view_of(player[i]);
	long long v = it_jint(o, "version", -1);
	long st = it_move(player[i], table_id, it_jstr(o, "csrf"), v, "weiter");
	if (v_out)
		*v_out = v;
	json_decref(o);
	return st;
}

static void test_party_end(void **state)
{
	(void)state;
	static const char *const names[PLAYERS] = { "Ende-Anna", "Ende-Bert", "Ende-Carla" };
	unsigned seed = 2024;
	for (int i = 0; i < PLAYERS; i++)
		assert_non_null(player[i] = it_register(names[i]));
	spectator = h_client_new();
	assert_non_null(spectator);
	table_id = it_create_table(player[0], "drehwurm", PLAYERS, "snap_seconds", "3", NULL);
	assert_true(table_id > 0);
	for (int i = 1; i < PLAYERS; i++)
		assert_int_equal(it_join(player[i], table_id), 0);
	snprintf(table_path, sizeof table_path, "/t/%lld", (long long)table_id);

	/* Party 1 ends: the summary stays, for everybody. */
	assert_int_equal(play_party(&seed), 1);
	check_summary(1, 0);
	json_t *o = view_of(player[0]);
	long long v = it_jint(o, "version", -1);
	json_decref(o);
	struct h_resp r;
	char poll[96];
	snprintf(poll, sizeof poll, "%s/poll?v=%lld", table_path, v);
	assert_int_equal(h_get(spectator, poll, &r), 0);
	assert_int_equal(r.status, 204);   /* nothing to reload before the deadline */
	h_resp_free(&r);

	/* One seat continues; once is enough. */
	int s0 = seat_of(0);
	long long v0;
	assert_int_equal(continue_from_page(0, &v0), 303);
	assert_int_equal(continue_from_page(0, NULL), 409);
	check_summary(1, 1u << s0);
	const char *const ready[] = { "<td>ja</td>", "Du bist bereit" };
	page_has(player[0], ready, 2, 1);
	page_has(player[1], ready, 1, 1);       /* the others see who is ready */
	page_has(player[1], ready + 1, 1, 0);

	/* The pause runs out (moved forward behind the program's back): the
	 * poll notices the deadline, and the next load deals party 2. */
	assert_int_equal(it_db_exec(h_db_path(), "UPDATE tables SET next_deadline = 1 WHERE id = ?",
				    table_id), 0);
	snprintf(poll, sizeof poll, "%s/poll?v=%lld", table_path, v0 + 1);
	assert_int_equal(h_get(spectator, poll, &r), 0);
	assert_int_equal(r.status, 200);
	h_resp_free(&r);
	o = view_of(player[1]);
	assert_int_equal(it_jint(o, "party_number", 0), 2);
	assert_null(json_object_get(o, "party_end"));
	json_decref(o);
	/* The slow seat's continue from the pause page is too late. */
	o = view_of(player[2]);
	long st = it_move(player[2], table_id, it_jstr(o, "csrf"), v0 + 1, "weiter");
	json_decref(o);
	assert_int_equal(st, 409);

	/* Party 2 ends; all three continue, the last one deals party 3. */
	assert_int_equal(play_party(&seed), 1);
	check_summary(2, 0);
	uint32_t done = 0;
	for (int i = 0; i < PLAYERS; i++) {
		assert_int_equal(continue_from_page(i, NULL), 303);
		done |= 1u << seat_of(i);
		if (i < PLAYERS - 1)
			check_summary(2, done);
	}
	o = view_of(spectator);
	assert_int_equal(it_jint(o, "party_number", 0), 3);
	assert_null(json_object_get(o, "party_end"));
	json_decref(o);

	/* The match ends: the result leads the page, above the seats. */
	assert_int_equal(play_party(&seed), 0);
	for (int i = 0; i <= PLAYERS; i++) {
		struct h_client *c = i < PLAYERS ? player[i] : spectator;
		o = view_of(c);
		assert_string_equal(it_jstr(o, "status"), "finished");
		json_t *pe = json_object_get(o, "party_end");
		assert_true(json_is_true(json_object_get(pe, "match_over")));
		assert_false(json_is_true(json_object_get(pe, "pausing")));
		assert_true(strlen(it_jstr(pe, "winners")) > 0);
		json_t *sd = json_object_get(pe, "standings");
		assert_int_equal(json_array_size(sd), PLAYERS);
		assert_true(json_is_true(json_object_get(json_array_get(sd, 0), "winner")));
		assert_int_equal(json_array_size(json_object_get(o, "moves")), 0);
		json_decref(o);
		assert_int_equal(h_get(c, table_path, &r), 0);
		assert_int_equal(r.status, 200);
		const char *lead = strstr(r.body, "Ergebnis des Matches");
		const char *seats = strstr(r.body, "<h2>Plätze</h2>");
		assert_non_null(lead);
		assert_non_null(seats);
		assert_true(lead < seats);
		assert_false(h_has(&r, "value=\"weiter\""));
		h_resp_free(&r);
	}
	char why[256];
	if (it_verify_table(table_id, why, sizeof why) != 3)
		fail_msg("replay: %s", why);
	/* the three parties' exports (the pauses, the `weiter`s between them) */
	assert_int_equal(it_verify_exports(spectator, table_id), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_party_end),
	};
	return cmocka_run_group_tests(tests, start, stop);
}
