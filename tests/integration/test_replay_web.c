/*
 * test_replay_web.c — replays and the export through real nginx:
 *   - for every game a table of one person and greedy bots, the person's
 *     seat handed to a bot, played until its first party is over; then
 *     the export (/t/<id>/replay.txt) of every party finished by then is
 *     played back by `spieltisch replay FILE` and must give the scores the
 *     table shows,
 *     and a file with one score changed must fail; the replay pages step
 *     from the deal to the end (HTML and the JSON twin), whose last
 *     position has the same scores; a visitor may choose any seat's view;
 *   - bad input changes nothing and says so: party 0, a party that does
 *     not exist, an unknown field, the export of a running party;
 *   - "Seit deinem letzten Zug" at a running two-person Drachenrummy
 *     table: it starts at the seat's own last move and ends at the page's
 *     position; the other seat's move texts are not shown, only what the
 *     game's log says; a visitor gets no such page;
 *   - "Zuschauer erlaubt": a running table that allows spectators (the
 *     default) is listed in the lobby with its players and its party, and
 *     a visitor sees it; one that does not is not listed, and a visitor
 *     gets 403 for its page, its JSON twin and its running party's
 *     replay, while its seat sees all of them.
 * Bounded by MAX_SECONDS per table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "integration/suite.h"

enum { MAX_SECONDS = 90 };

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

static json_t *get_json(struct h_client *c, const char *path, long *status)
{
	struct h_resp r;
	json_t *o = NULL;
	*status = 0;
	if (h_get(c, path, &r) == 0) {
		*status = r.status;
		if (r.status == 200)
			o = json_loads(r.body, 0, NULL);
	}
	h_resp_free(&r);
	return o;
}

static long get_status(struct h_client *c, const char *path)
{
	struct h_resp r;
	h_get(c, path, &r);
	long st = r.status;
	h_resp_free(&r);
	return st;
}

/* A table of `slug` with the person c and greedy bots on `seats` seats,
 * c's seat handed to a bot: its id once its first party is over. */
static int64_t bots_party(struct h_client *c, const char *slug, int seats)
{
	int64_t id = it_create_table(c, slug, seats, NULL);
	assert_true(id > 0);
	for (int i = 1; i < seats; i++)
		assert_int_equal(it_post_table(c, id, "/bot", "level", "greedy", NULL, 0), 303);
	assert_int_equal(it_post_table(c, id, "/seat", "act", "bot", NULL, 0), 303);
	double t0 = it_now();
	long st;
	for (int k = 0; k < 100000 && it_now() - t0 < MAX_SECONDS; k++) {
		json_t *o = it_table_json(c, id, &st);
		assert_non_null(o);
		if (it_jint(o, "parties_played", 0) >= 1) {
			json_decref(o);
			return id;
		}
		/* bots act when a request touches the table; a window waits for
		 * its deadline */
		it_wait_deadline(o, 2000);
		json_decref(o);
	}
	fail_msg("%s: the first party did not end in time", slug);
	return -1;
}

/* A copy of file with the last score changed by one. */
static void spoil(const char *file, char *out, size_t cap)
{
	snprintf(out, cap, "%s.bad", file);
	FILE *f = fopen(file, "r"), *g = fopen(out, "w");
	assert_non_null(f);
	assert_non_null(g);
	char line[1024];
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, "scores ", 7) == 0) {
			char *last = strrchr(line, ' ');
			long v = strtol(last + 1, NULL, 10);
			snprintf(last, sizeof line - (size_t)(last - line), " %ld\n", v + 1);
		}
		fputs(line, g);
	}
	fclose(f);
	fclose(g);
}

/* Steps through party 1 of table id from the deal to the end. */
static void step_through(struct h_client *c, int64_t id, const char *scores)
{
	char path[128];
	long st;
	snprintf(path, sizeof path, "/t/%lld/replay.json?party=1", (long long)id);
	json_t *o = get_json(c, path, &st);
	assert_non_null(o);
	long long frames = it_jint(o, "frames", -1), n = 0;
	assert_true(frames > 0);
	assert_int_equal(it_jint(o, "frame", -1), frames);
	assert_true(json_is_true(json_object_get(o, "party_over")));
	char got[256] = "";
	json_t *seats = json_object_get(o, "seats");
	for (size_t i = 0; i < json_array_size(seats); i++)
		n += snprintf(got + n, sizeof got - (size_t)n, " %lld",
			      it_jint(json_array_get(seats, i), "score", 0));
	assert_string_equal(got, scores);
	json_decref(o);
	/* the deal, a step in the middle, and every seat's view of it (HTML) */
	struct h_resp r;
	snprintf(path, sizeof path, "/t/%lld/replay?party=1&step=0", (long long)id);
	assert_int_equal(h_get(c, path, &r), 0);
	assert_int_equal(r.status, 200);
	assert_true(h_has(&r, "rel=\"next\""));
	assert_false(h_has(&r, "rel=\"prev\""));
	assert_true(h_has(&r, "<fieldset disabled"));
	h_resp_free(&r);
	snprintf(path, sizeof path, "/t/%lld/replay?party=1&step=%lld&seat=2", (long long)id,
		 frames / 2);
	assert_int_equal(h_get(c, path, &r), 0);
	assert_int_equal(r.status, 200);
	assert_true(h_has(&r, "rel=\"prev\""));
	assert_true(h_has(&r, "rel=\"next\""));
	h_resp_free(&r);
	snprintf(path, sizeof path, "/t/%lld/replay.json?party=1&step=%lld&seat=2", (long long)id,
		 frames / 2);
	o = get_json(c, path, &st);
	assert_non_null(o);
	assert_int_equal(it_jint(o, "viewer", -9), 1);
	json_t *step = json_array_get(json_object_get(o, "step"), 0);
	if (it_jint(step, "seat", -9) >= 0)   /* a finished party shows every move */
		assert_true(json_is_true(json_object_get(step, "text_shown")));
	json_decref(o);
}

static void one_game(const char *slug, int seats)
{
	char name[32], file[600], bad[700], line[256], err[256], scores[256];
	snprintf(name, sizeof name, "Rp%s", slug);
	name[8] = '\0';
	struct h_client *c = it_register(name);
	assert_non_null(c);
	int64_t id = bots_party(c, slug, seats);
	/* every party finished so far (the bots play on) */
	assert_true(it_verify_exports(c, id) >= 1);
	json_t *o = it_view(c, id);
	it_party_scores(json_array_get(json_object_get(o, "parties"), 0), scores, sizeof scores);
	json_decref(o);
	it_export_file(c, id, 1, file, sizeof file);
	assert_int_equal(it_run_replay(file, line, sizeof line, err, sizeof err), 0);
	spoil(file, bad, sizeof bad);
	assert_int_equal(it_run_replay(bad, line, sizeof line, err, sizeof err), 1);
	FILE *f = fopen(bad, "w");   /* a file that is no export: 2 */
	assert_non_null(f);
	fputs("game nosuchgame\nplayers 3\n", f);
	fclose(f);
	assert_int_equal(it_run_replay(bad, line, sizeof line, err, sizeof err), 2);
	/* the table page, the profile link the replay */
	struct h_resp r;
	char path[96], link[64];
	snprintf(link, sizeof link, "/t/%lld/replay?party=1", (long long)id);
	snprintf(path, sizeof path, "/t/%lld", (long long)id);
	assert_int_equal(h_get(c, path, &r), 0);
	assert_true(h_has(&r, link));
	h_resp_free(&r);
	snprintf(path, sizeof path, "/u/%s", name);
	assert_int_equal(h_get(c, path, &r), 0);
	if (r.body && strstr(r.body, "Letzte Ergebnisse"))   /* once the table is finished */
		assert_true(h_has(&r, link));
	h_resp_free(&r);
	struct h_client *visitor = h_client_new();
	step_through(visitor, id, scores);
	h_client_free(visitor);
	h_client_free(c);
}

static void test_drehwurm(void **unused)
{
	(void)unused;
	one_game("drehwurm", 3);
}

static void test_dna(void **unused)
{
	(void)unused;
	one_game("dna", 2);
}

static void test_drachenrummy(void **unused)
{
	(void)unused;
	one_game("drachenrummy", 2);
}

static void test_wurfwort(void **unused)
{
	(void)unused;
	one_game("wurfwort", 3);
}

static void test_worstgame(void **unused)
{
	(void)unused;
	one_game("worstgame", 2);
}

static void test_bad_input(void **unused)
{
	(void)unused;
	struct h_client *c = it_register("Rpbad");
	assert_non_null(c);
	int64_t id = it_create_table(c, "drachenrummy", 2, NULL);
	assert_true(id > 0);
	char path[128];
	snprintf(path, sizeof path, "/t/%lld/replay?party=1", (long long)id);
	assert_int_equal(get_status(c, path), 404);   /* not started */
	assert_int_equal(it_post_table(c, id, "/bot", "level", "greedy", NULL, 0), 303);
	snprintf(path, sizeof path, "/t/%lld/replay?party=0", (long long)id);
	assert_int_equal(get_status(c, path), 400);
	snprintf(path, sizeof path, "/t/%lld/replay?party=2", (long long)id);
	assert_int_equal(get_status(c, path), 404);
	snprintf(path, sizeof path, "/t/%lld/replay?party=1&foo=1", (long long)id);
	assert_int_equal(get_status(c, path), 400);
	snprintf(path, sizeof path, "/t/%lld/replay?party=1&step=x", (long long)id);
	assert_int_equal(get_status(c, path), 400);
	snprintf(path, sizeof path, "/t/%lld/replay", (long long)id);
	assert_int_equal(get_status(c, path), 400);
	snprintf(path, sizeof path, "/t/%lld/replay.txt?party=1", (long long)id);
	assert_int_equal(get_status(c, path), 404);   /* the party runs: no export */
	snprintf(path, sizeof path, "/t/%lld/replay?party=1", (long long)id);
	assert_int_equal(get_status(c, path), 200);   /* running: as my seat saw it */
	snprintf(path, sizeof path, "/t/999999/replay?party=1");
	assert_int_equal(get_status(c, path), 404);
	h_client_free(c);
}

/* Two people at Drachenrummy: Anna moves, then Bert moves until it is
 * Anna's turn again; Anna steps through what happened since. */
static void test_since_my_last_move(void **unused)
{
	(void)unused;
	struct h_client *p[2] = { it_register("Rpanna"), it_register("Rpbert") };
	assert_non_null(p[0]);
	assert_non_null(p[1]);
	int64_t id = it_create_table(p[0], "drachenrummy", 2, NULL);
	assert_int_equal(it_join(p[1], id), 0);
	uint64_t seed = 7;
	int anna_moved = 0, bert_after = 0;
	for (int k = 0; k < 400 && !(anna_moved && bert_after >= 2); k++) {
		long st;
		json_t *o = it_table_json(p[0], id, &st);
		int anna = json_is_true(json_object_get(o, "can_act"));
		json_decref(o);
		if (anna && bert_after >= 2)
			break;
		int r = it_one_move(anna ? p : p + 1, 1, id, &seed);
		assert_true(r >= 0);
		if (r == 1 && anna) {
			anna_moved = 1;
			bert_after = 0;
		} else if (r == 1)
			bert_after += anna_moved;
	}
	assert_true(anna_moved);
	char path[128], link[64];
	long st;
	struct h_resp r;
	/* Anna's table offers it, Bert (who moved last) has nothing new */
	snprintf(path, sizeof path, "/t/%lld", (long long)id);
	snprintf(link, sizeof link, "/t/%lld/since", (long long)id);
	assert_int_equal(h_get(p[0], path, &r), 0);
	assert_true(h_has(&r, link));
	h_resp_free(&r);
	assert_int_equal(h_get(p[1], path, &r), 0);
	assert_false(h_has(&r, link));
	h_resp_free(&r);
	snprintf(path, sizeof path, "/t/%lld/since", (long long)id);
	assert_int_equal(h_get(p[0], path, &r), 0);
	assert_int_equal(r.status, 200);
	assert_true(h_has(&r, "rel=\"next\""));
	assert_false(h_has(&r, "rel=\"prev\""));
	h_resp_free(&r);
	/* JSON: it starts at Anna's own move; Bert's move texts are not shown */
	h_client_accept(p[0], "application/json");
	json_t *o = get_json(p[0], path, &st);
	assert_non_null(o);
	long long first = it_jint(o, "first_frame", -1), last = it_jint(o, "frames", -1);
	assert_true(first > 0 && last > first);
	assert_int_equal(it_jint(json_array_get(json_object_get(o, "step"), 0), "seat", -9), 0);
	assert_true(json_is_true(json_object_get(json_array_get(json_object_get(o, "step"), 0), "text_shown")));
	json_decref(o);
	for (long long f = first + 1; f <= last; f++) {
		snprintf(path, sizeof path, "/t/%lld/since?step=%lld", (long long)id, f);
		o = get_json(p[0], path, &st);
		assert_non_null(o);
		json_t *step = json_array_get(json_object_get(o, "step"), 0);
		long long seat = it_jint(step, "seat", -9);
		if (seat == 1) {
			assert_true(json_is_true(json_object_get(step, "text_hidden")));
			assert_string_equal(it_jstr(step, "text"), "");
		}
		json_decref(o);
	}
	/* before Anna's own move: the page starts at it anyway */
	snprintf(path, sizeof path, "/t/%lld/since?step=0", (long long)id);
	o = get_json(p[0], path, &st);
	assert_non_null(o);
	assert_int_equal(it_jint(o, "frame", -1), first);
	json_decref(o);
	h_client_accept(p[0], NULL);
	/* a visitor has no seat to look back from */
	struct h_client *v = h_client_new();
	snprintf(path, sizeof path, "/t/%lld/since", (long long)id);
	assert_int_equal(get_status(v, path), 303);
	h_client_free(v);
	h_client_free(p[0]);
	h_client_free(p[1]);
}

static void test_watching(void **unused)
{
	(void)unused;
	struct h_client *w = it_register("Rpwatch");
	assert_non_null(w);
	int64_t closed = it_create_table(w, "drachenrummy", 2, "spectators", "0", NULL);
	int64_t open = it_create_table(w, "drachenrummy", 2, NULL);
	assert_true(closed > 0 && open > 0);
	assert_int_equal(it_post_table(w, closed, "/bot", "level", "greedy", NULL, 0), 303);
	assert_int_equal(it_post_table(w, open, "/bot", "level", "random", NULL, 0), 303);
	struct h_client *v = h_client_new();
	struct h_resp r;
	char a[64], b[64], path[96];
	snprintf(a, sizeof a, "href=\"/t/%lld\"", (long long)open);
	snprintf(b, sizeof b, "href=\"/t/%lld\"", (long long)closed);
	assert_int_equal(h_get(v, "/", &r), 0);
	assert_true(h_has(&r, a));
	assert_false(h_has(&r, b));
	assert_true(h_has(&r, "Rpwatch, Bot 2 (zufällig)"));
	h_resp_free(&r);
	const char *tails[] = { "", ".json", "/replay?party=1", "/replay.json?party=1" };
	for (int i = 0; i < 4; i++) {
		snprintf(path, sizeof path, "/t/%lld%s", (long long)closed, tails[i]);
		assert_int_equal(get_status(v, path), 403);
		assert_int_equal(get_status(w, path), 200);
		snprintf(path, sizeof path, "/t/%lld%s", (long long)open, tails[i]);
		assert_int_equal(get_status(v, path), 200);
	}
	h_client_free(v);
	h_client_free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_since_my_last_move),
		cmocka_unit_test(test_watching),
		cmocka_unit_test(test_drehwurm),
		cmocka_unit_test(test_dna),
		cmocka_unit_test(test_drachenrummy),
		cmocka_unit_test(test_wurfwort),
		cmocka_unit_test(test_worstgame),
	};
	return cmocka_run_group_tests(tests, start, stop);
}
