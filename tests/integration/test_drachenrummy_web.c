/*
 * test_drachenrummy_web.c — a whole Drachenrummy party through real nginx:
 * three players, each acting from its own JSON twin with a legal move when
 * it is on turn, until the table is finished. What must hold on the way:
 *   - every seat's JSON has a hand only for itself, as long as its count;
 *     no other seat's entry carries cards of a hand;
 *   - the draw pile is secret: a card that the refill brings to the middle
 *     (one deck: every card's name is unique) was on nobody's page and in
 *     nobody's JSON before;
 *   - the finished party replays to its snapshot, SQLite's integrity check
 *     is ok, and the standings follow the points.
 * Bounded by MAX_POSTS moves and MAX_SECONDS.
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

enum { PLAYERS = 3, MAX_POSTS = 1500, MAX_SECONDS = 150, NAMES = 8 };

static struct h_client *player[PLAYERS];
static int64_t table_id;

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
	h_stop();
	return 0;
}

static json_t *game_of(json_t *o)
{
	return json_object_get(o, "game");
}

/* Seat i's page and its JSON dump, concatenated: all it was shown. */
static char *shown(int i, json_t **json)
{
	long status;
	char path[64];
	struct h_resp r;
	*json = it_table_json(player[i], table_id, &status);
	assert_non_null(*json);
	snprintf(path, sizeof path, "/t/%lld", (long long)table_id);
	assert_int_equal(h_get(player[i], path, &r), 0);
	assert_int_equal(r.status, 200);
	char *dump = json_dumps(*json, JSON_COMPACT);
	assert_non_null(dump);
	size_t n = strlen(r.body), m = strlen(dump);
	char *all = malloc(n + m + 1);
	assert_non_null(all);
	memcpy(all, r.body, n);
	memcpy(all + n, dump, m + 1);
	free(dump);
	h_resp_free(&r);
	return all;
}

/* The names of the middle's cards in a JSON twin. */
static int middle_names(json_t *o, char names[][32])
{
	int n = 0;
	json_t *mid = json_object_get(game_of(o), "middle");
	for (size_t k = 0; k < json_array_size(mid) && n < NAMES; k++) {
		const char *name = it_jstr(json_array_get(mid, k), "name");
		if (name && *name)
			snprintf(names[n++], 32, "%s", name);
	}
	return n;
}

/* Seat i's JSON shows its own hand, as many cards as its count, and no
 * other seat's. */
static void assert_own_hand_only(json_t *o, int i)
{
	json_t *g = game_of(o), *seats = json_object_get(g, "seats");
	size_t hand = json_array_size(json_object_get(g, "hand"));
	for (size_t k = 0; k < json_array_size(seats); k++) {
		json_t *s = json_array_get(seats, k);
		assert_null(json_object_get(s, "hand"));
		if (it_jint(s, "seat", -1) == i)
			assert_int_equal((long long)hand, it_jint(s, "hand_count", -1));
	}
}

static void test_drachenrummy_party_through_nginx(void **unused)
{
	(void)unused;
	static const char *names[PLAYERS] = { "Gina", "Hugo", "Ines" };
	for (int i = 0; i < PLAYERS; i++)
		assert_non_null(player[i] = it_register(names[i]));
	table_id = it_create_table(player[0], "drachenrummy", PLAYERS, "parties", "1", NULL);
	assert_true(table_id > 0);
	for (int i = 1; i < PLAYERS; i++)
		assert_int_equal(it_join(player[i], table_id), 0);

	uint64_t rnd = 4242;
	int posts = 0, taken = 0, refills = 0, finished = 0;
	double t0 = it_now();
	while (posts < MAX_POSTS && it_now() - t0 < MAX_SECONDS && !finished) {
		json_t *js[PLAYERS];
		char *seen[PLAYERS];
		int actor = -1;
		for (int i = 0; i < PLAYERS; i++) {
			seen[i] = shown(i, &js[i]);
			if (strcmp(it_jstr(js[i], "status"), "finished") == 0)
				finished = 1;
			else
				assert_own_hand_only(js[i], i);
			if (json_is_true(json_object_get(js[i], "can_act")) &&
			    json_array_size(json_object_get(js[i], "moves")) > 0)
				actor = i;
		}
		if (!finished && actor >= 0) {
			char before[NAMES][32], after[NAMES][32];
			int nb = middle_names(js[actor], before);
			json_t *mv = json_object_get(js[actor], "moves");
			rnd = rnd * 6364136223846793005ULL + 1442695040888963407ULL;
			const char *m = it_jstr(json_array_get(mv, (size_t)(rnd >> 33) %
							       json_array_size(mv)), "move");
			long st = it_move(player[actor], table_id, it_jstr(js[actor], "csrf"),
					  it_jint(js[actor], "version", -1), m);
			posts++;
			assert_int_equal(st, 303);
			taken++;
			json_t *o;
			char *now = shown(actor, &o);
			int na = middle_names(o, after);
			for (int k = 0; k < na; k++) {
				int old = 0;
				for (int j = 0; j < nb; j++)
					old |= strcmp(after[k], before[j]) == 0;
				if (old)
					continue;
				refills++;
				for (int i = 0; i < PLAYERS; i++)
					if (strstr(seen[i], after[k]))
						fail_msg("%s, refilled from the pile after \"%s\", was on "
							 "seat %d's page before", after[k], m, i);
			}
			free(now);
			json_decref(o);
		}
		for (int i = 0; i < PLAYERS; i++) {
			free(seen[i]);
			json_decref(js[i]);
		}
		if (actor < 0 && !finished) {
			struct timespec ts = { 0, 50 * 1000000L };
			nanosleep(&ts, NULL);
		}
	}
	print_message("drachenrummy through nginx: %d moves, %d cards refilled from the secret "
		      "pile, %.1f s\n", taken, refills, it_now() - t0);
	assert_true(finished);
	assert_true(refills > 0);

	long status;
	json_t *o = it_table_json(player[1], table_id, &status);
	assert_non_null(o);
	json_t *standings = json_object_get(o, "standings");
	assert_int_equal(json_array_size(standings), PLAYERS);
	long long best = it_jint(json_array_get(standings, 0), "total", -1000);
	for (size_t k = 0; k < json_array_size(standings); k++) {
		json_t *s = json_array_get(standings, k);
		assert_int_equal(json_is_true(json_object_get(s, "winner")),
				 it_jint(s, "total", -1000) == best);
	}
	json_decref(o);
	char why[256];
	if (it_verify_table(table_id, why, sizeof why) < 1)
		fail_msg("replay: %s", why);
	assert_int_equal(it_verify_exports(player[1], table_id), 1);   /* and its export */
	assert_int_equal(it_db_integrity(h_db_path(), why, sizeof why), 0);
}

/* The move of o's list that starts with verb and has the most words (a
 * keep of every die), or NULL. */
static const char *longest_move(json_t *o, const char *verb)
{
	json_t *mv = json_object_get(o, "moves");
	const char *best = NULL;
	size_t best_len = 0, vl = strlen(verb);
	for (size_t k = 0; k < json_array_size(mv); k++) {
		const char *m = it_jstr(json_array_get(mv, k), "move");
		if (strncmp(m, verb, vl) == 0 && (m[vl] == ' ' || m[vl] == '\0') &&
		    strlen(m) > best_len) {
			best = m;
			best_len = strlen(m);
		}
	}
	return best;
}

/* Posts `verb`'s longest listed move of client c (its fresh JSON); 1 when
 * posted (303), 0 when c has no such move. */
static int post_longest(struct h_client *c, const char *verb)
{
	long status;
	json_t *o = it_table_json(c, table_id, &status);
	if (!o)
		fail_msg("table JSON: status %ld", status);
	const char *m = longest_move(o, verb);
	int posted = 0;
	if (m) {
		long st = it_move(c, table_id, it_jstr(o, "csrf"), it_jint(o, "version", -1), m);
		if (st != 303)
			fail_msg("'%s': status %ld", m, st);
		posted = 1;
	}
	json_decref(o);
	return posted;
}

/* Issue: a long party bricked its table. Two players reserve a card or two
 * early, then only roll, keep all and done: the turn limit (600, docs/
 * rulings.md) starts the last meld-out while the pile and the middle still
 * hold cards. The `done` that ended turn 600 was accepted and every later
 * GET of the table answered 503 ("Tisch beschädigt"); now the seats with
 * cards lay down once more, the party and the match end, and the page
 * loads. Bounded by MAX_LONG_POSTS moves and MAX_LONG_SECONDS. */
enum { MAX_LONG_POSTS = 4 * 620, MAX_LONG_SECONDS = 300 };

static void test_long_party_ends_at_turn_limit(void **unused)
{
	(void)unused;
	struct h_client *two[2];
	assert_non_null(two[0] = it_register("Jana"));
	assert_non_null(two[1] = it_register("Kurt"));
	table_id = it_create_table(two[0], "drachenrummy", 2, "parties", "1", NULL);
	assert_true(table_id > 0);
	assert_int_equal(it_join(two[1], table_id), 0);
	int posts = 0, reserved = 0, finished = 0, turns = 0;
	double t0 = it_now();
	while (posts < MAX_LONG_POSTS && it_now() - t0 < MAX_LONG_SECONDS && !finished) {
		long status;
		int acted = 0;
		for (int i = 0; i < 2 && !acted; i++) {
			json_t *o = it_table_json(two[i], table_id, &status);
			if (!o)
				fail_msg("table JSON after %d turns: status %ld", turns, status);
			finished = strcmp(it_jstr(o, "status"), "finished") == 0;
			int mine = !finished && json_is_true(json_object_get(o, "can_act"));
			int rolls = mine && longest_move(o, "roll") != NULL;
			json_decref(o);
			if (!mine)
				continue;
			acted = 1;
			if (!rolls) {   /* the last meld-out: pass it on */
				posts += post_longest(two[i], "done");
				continue;
			}
			posts += post_longest(two[i], "roll");
			while (posts < MAX_LONG_POSTS && post_longest(two[i], "keep"))
				posts++;   /* (keeping all at once ends the keeping) */
			if (reserved < 3 && post_longest(two[i], "reserve")) {
				posts++;
				reserved++;
			}
			posts += post_longest(two[i], "done");
			turns++;
		}
		if (!acted && !finished)
			fail_msg("nobody may act after %d turns", turns);
	}
	print_message("drachenrummy to the turn limit: %d turns, %d posts, %d reserved, %.1f s\n",
		      turns, posts, reserved, it_now() - t0);
	assert_true(finished);
	assert_true(reserved > 0);
	assert_true(turns >= 600);
	char path[64];
	struct h_resp r;
	snprintf(path, sizeof path, "/t/%lld", (long long)table_id);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(h_get(two[i], path, &r), 0);
		assert_int_equal(r.status, 200);
		h_resp_free(&r);
	}
	char why[256];
	if (it_verify_table(table_id, why, sizeof why) < 1)
		fail_msg("replay: %s", why);
	assert_int_equal(it_verify_exports(two[0], table_id), 1);   /* a party of 600 turns too */
	for (int i = 0; i < 2; i++)
		h_client_free(two[i]);
}

/* Issue 33: the keep form (a composed move, docs/views.md) posts "keep"
 * and one `argN` per die ticked (N the die's index); the page handler joins them into the move
 * "keep F F". Ticking two dice keeps two; ticking none is refused with the
 * keep's own message and changes nothing; the page draws the form with a
 * checkbox per rolled die, not a button per choice. */
static void test_keep_form_composes_move(void **unused)
{
	(void)unused;
	struct h_client *two[2];
	assert_non_null(two[0] = it_register("Lena"));
	assert_non_null(two[1] = it_register("Malte"));
	int64_t id = it_create_table(two[0], "drachenrummy", 2, NULL, NULL, NULL);
	assert_true(id > 0);
	assert_int_equal(it_join(two[1], id), 0);
	long status;
	struct h_client *me = NULL;
	json_t *o = NULL;
	for (int i = 0; i < 2 && !me; i++) {
		o = it_table_json(two[i], id, &status);
		assert_non_null(o);
		if (json_is_true(json_object_get(o, "can_act")))
			me = two[i];
		else
			json_decref(o);
	}
	assert_non_null(me);
	assert_int_equal(it_move(me, id, it_jstr(o, "csrf"), it_jint(o, "version", -1), "roll"), 303);
	json_decref(o);
	o = it_table_json(me, id, &status);
	assert_non_null(o);
	json_t *dice = json_object_get(game_of(o), "my_dice");
	assert_int_equal(json_array_size(dice), 5);
	char f0[4], f1[4], path[64], vs[32];
	snprintf(f0, sizeof f0, "%lld", (long long)it_jint(json_array_get(dice, 0), "face", 0));
	snprintf(f1, sizeof f1, "%lld", (long long)it_jint(json_array_get(dice, 1), "face", 0));
	snprintf(path, sizeof path, "/t/%lld/move", (long long)id);
	snprintf(vs, sizeof vs, "%lld", (long long)it_jint(o, "version", -1));
	char csrf[80];
	snprintf(csrf, sizeof csrf, "%s", it_jstr(o, "csrf"));
	json_decref(o);
	/* the page: a checkbox per rolled die, no keep buttons */
	struct h_resp r;
	snprintf(path, sizeof path, "/t/%lld", (long long)id);
	assert_int_equal(h_get(me, path, &r), 0);
	assert_non_null(strstr(r.body, "name=\"move\" value=\"keep\""));
	assert_non_null(strstr(r.body, "type=\"checkbox\" name=\"arg0\""));
	/* (the folded list of every legal move, id="moves", still has them) */
	char *all = strstr(r.body, "id=\"moves\"");
	if (all)
		*all = '\0';
	assert_null(strstr(r.body, "value=\"keep "));
	h_resp_free(&r);
	snprintf(path, sizeof path, "/t/%lld/move", (long long)id);
	/* nothing ticked: refused, nothing changes */
	assert_int_equal(h_post_form(me, path, &r, "csrf", csrf, "v", vs, "move", "keep", NULL), 0);
	assert_int_equal(r.status, 422);   /* the rules refused it */
	assert_non_null(strstr(r.body, "So legst du Würfel zur Seite"));
	h_resp_free(&r);
	o = it_table_json(me, id, &status);
	assert_int_equal(it_jint(o, "version", -1), atoll(vs));
	json_decref(o);
	/* a composed text longer than a move may be: refused, nothing changes */
	char longarg[160];   /* GAME_MOVE_MAX: "keep " and 159 more are too long */
	memset(longarg, '6', sizeof longarg - 1);
	longarg[sizeof longarg - 1] = '\0';
	assert_int_equal(h_post_form(me, path, &r, "csrf", csrf, "v", vs, "move", "keep", "arg0",
				     longarg, NULL), 0);
	assert_int_equal(r.status, 422);
	assert_non_null(strstr(r.body, "zu lang"));
	h_resp_free(&r);
	o = it_table_json(me, id, &status);
	assert_int_equal(it_jint(o, "version", -1), atoll(vs));
	json_decref(o);
	/* two dice ticked: "keep F0 F1" */
	assert_int_equal(h_post_form(me, path, &r, "csrf", csrf, "v", vs, "move", "keep", "arg0", f0,
				     "arg1", f1, NULL), 0);
	assert_int_equal(r.status, 303);
	h_resp_free(&r);
	o = it_table_json(me, id, &status);
	assert_non_null(o);
	assert_true(it_jint(o, "version", -1) > atoll(vs));
	dice = json_object_get(game_of(o), "my_dice");
	int kept = 0;
	for (size_t k = 0; k < json_array_size(dice); k++)
		kept += json_is_true(json_object_get(json_array_get(dice, k), "kept"));
	assert_true(kept >= 2);
	json_decref(o);
	for (int i = 0; i < 2; i++)
		h_client_free(two[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keep_form_composes_move),
		cmocka_unit_test(test_drachenrummy_party_through_nginx),
		cmocka_unit_test(test_long_party_ends_at_turn_limit),
	};
	return cmocka_run_group_tests_name("drachenrummy through nginx", tests, start, stop);
}
