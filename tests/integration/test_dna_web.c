/*
 * test_dna_web.c — a whole DNA party through real nginx: three browsers make
 * their secret choices at the same time, each from its own page, until the
 * party ends. After every round of requests, for every pair of seats A ≠ B:
 *   - no move code of a card in B's hand, nor of B's unrevealed choice,
 *     appears anywhere in A's table page or A's JSON (one SET deck, so every
 *     code names exactly one card; the game's log names revealed cards by
 *     their German label, so this holds even for cards revealed earlier);
 *   - once B has chosen, A's JSON says so (seats[B].chosen) without saying what.
 * Then the table is finished, every party replays to its snapshot and
 * SQLite's integrity check is ok. PARTIES tables, each bounded by
 * MAX_POSTS moves and MAX_SECONDS.
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

enum { PLAYERS = 3, PARTIES = 4, MAX_POSTS = 4000, MAX_SECONDS = 150, CODES_MAX = 128 };

struct seatview {
	json_t *json;
	char *html;
	char codes[CODES_MAX][32];   /* cards in this seat's hand */
	int ncodes;
	char choice[64];             /* the card of its unrevealed choice, if any */
};

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

/* The move code of the card a move text names ("attach CODE to …",
 * "set CODE on …"), into out; "" for a move without a card. */
static void card_of(const char *move, char *out, size_t cap)
{
	out[0] = '\0';
	const char *sp = strchr(move, ' ');
	if (!sp || (strncmp(move, "attach ", 7) != 0 && strncmp(move, "set ", 4) != 0))
		return;
	const char *end = strchr(sp + 1, ' ');
	size_t n = end ? (size_t)(end - sp - 1) : strlen(sp + 1);
	if (n >= cap)
		n = cap - 1;
	memcpy(out, sp + 1, n);
	out[n] = '\0';
}

static json_t *game_of(json_t *o)
{
	return json_object_get(o, "game");
}

/* Fetches seat i's JSON and page, and notes its hand. */
static void load(int i, struct seatview *sv)
{
	long status;
	char path[64];
	struct h_resp r;
	sv->json = it_table_json(player[i], table_id, &status);
	assert_non_null(sv->json);
	snprintf(path, sizeof path, "/t/%lld", (long long)table_id);
	assert_int_equal(h_get(player[i], path, &r), 0);
	assert_int_equal(r.status, 200);
	sv->html = strdup(r.body);
	h_resp_free(&r);
	assert_non_null(sv->html);
	sv->ncodes = 0;
	json_t *hand = json_object_get(game_of(sv->json), "hand");
	for (size_t k = 0; k < json_array_size(hand) && sv->ncodes < CODES_MAX; k++)
		snprintf(sv->codes[sv->ncodes++], sizeof sv->codes[0], "%s",
			 it_jstr(json_array_get(hand, k), "code"));
}

static void unload(struct seatview *sv)
{
	json_decref(sv->json);
	free(sv->html);
	sv->json = NULL;
	sv->html = NULL;
}

/* A's page and JSON show nothing of B's hand or unrevealed choice. */
static void assert_hidden(const struct seatview *a, const struct seatview *b, int ai, int bi)
{
	char *dump = json_dumps(a->json, JSON_COMPACT);
	assert_non_null(dump);
	for (int k = 0; k < b->ncodes; k++) {
		if (strstr(dump, b->codes[k]) || strstr(a->html, b->codes[k]))
			fail_msg("seat %d sees card %s of seat %d's hand", ai, b->codes[k], bi);
	}
	if (b->choice[0] && (strstr(dump, b->choice) || strstr(a->html, b->choice)))
		fail_msg("seat %d sees seat %d's secret choice %s", ai, bi, b->choice);
	free(dump);
}

/* seats[b].chosen in a's JSON. */
static int shows_chosen(const struct seatview *a, int b)
{
	json_t *seats = json_object_get(game_of(a->json), "seats");
	for (size_t k = 0; k < json_array_size(seats); k++) {
		json_t *s = json_array_get(seats, k);
		if (it_jint(s, "seat", -1) == b)
			return json_is_true(json_object_get(s, "chosen"));
	}
	return 0;
}

/* One party at a fresh table, checked as described at the top. */
static void one_party(void)
{
	table_id = it_create_table(player[0], "dna", PLAYERS, NULL);
	assert_true(table_id > 0);
	for (int i = 1; i < PLAYERS; i++)
		assert_int_equal(it_join(player[i], table_id), 0);

	struct seatview sv[PLAYERS];
	memset(sv, 0, sizeof sv);
	uint64_t rnd = 12345;
	int posts = 0, taken = 0, chosen_seen = 0, finished = 0;
	double t0 = it_now();
	while (posts < MAX_POSTS && it_now() - t0 < MAX_SECONDS) {
		for (int i = 0; i < PLAYERS; i++)
			load(i, &sv[i]);
		/* A finished table shows its whole move log: nothing is hidden then. */
		if (strcmp(it_jstr(sv[0].json, "status"), "finished") == 0) {
			finished = 1;
			for (int i = 0; i < PLAYERS; i++)
				unload(&sv[i]);
			break;
		}
		for (int a = 0; a < PLAYERS; a++)
			for (int b = 0; b < PLAYERS; b++)
				if (a != b)
					assert_hidden(&sv[a], &sv[b], a, b);
		/* Every seat that may act chooses now, each from its own page. */
		for (int i = 0; i < PLAYERS; i++) {
			json_t *mv = json_object_get(sv[i].json, "moves");
			if (!json_is_true(json_object_get(sv[i].json, "can_act")) ||
			    json_array_size(mv) == 0)
				continue;
			rnd = rnd * 6364136223846793005ULL + 1442695040888963407ULL;
			size_t pick = (size_t)(rnd >> 33) % json_array_size(mv);
			/* Prefer playing a card: draws alone make a long party. */
			const char *m = it_jstr(json_array_get(mv, pick), "move");
			if (strcmp(m, "draw") == 0 && json_array_size(mv) > 1)
				m = it_jstr(json_array_get(mv, (pick + 1) % json_array_size(mv)), "move");
			long st = it_move(player[i], table_id, it_jstr(sv[i].json, "csrf"),
					  it_jint(sv[i].json, "version", -1), m);
			posts++;
			assert_true(st == 303 || st == 409);
			if (st != 303)
				continue;
			taken++;
			/* Everyone's view as of now: the others see that i has
			 * chosen (while the turn is still open), never what. */
			struct seatview now[PLAYERS];
			memset(now, 0, sizeof now);
			for (int a = 0; a < PLAYERS; a++)
				load(a, &now[a]);
			if (strcmp(it_jstr(now[0].json, "status"), "finished") == 0) {
				for (int a = 0; a < PLAYERS; a++)
					unload(&now[a]);
				break;
			}
			card_of(m, now[i].choice, sizeof now[i].choice);
			int open = json_is_true(json_object_get(game_of(now[i].json), "has_choice"));
			for (int a = 0; a < PLAYERS; a++) {
				if (a == i)
					continue;
				if (open) {
					assert_true(shows_chosen(&now[a], i));
					chosen_seen++;
				} else {
					now[i].choice[0] = '\0';   /* revealed already */
				}
				assert_hidden(&now[a], &now[i], a, i);
			}
			for (int a = 0; a < PLAYERS; a++)
				unload(&now[a]);
		}
		for (int i = 0; i < PLAYERS; i++)
			unload(&sv[i]);
	}
	print_message("dna through nginx: %d moves posted, %d taken, %d 'has chosen' checks, %.1f s\n",
		      posts, taken, chosen_seen, it_now() - t0);
	assert_true(finished);
	assert_true(chosen_seen > 0);

	char why[256];
	if (it_verify_table(table_id, why, sizeof why) < 1)
		fail_msg("replay: %s", why);
	assert_true(it_verify_exports(player[0], table_id) >= 1);   /* and the exports */
	assert_int_equal(it_db_integrity(h_db_path(), why, sizeof why), 0);
}

static void test_dna_parties_through_nginx(void **unused)
{
	(void)unused;
	static const char *names[PLAYERS] = { "Dora", "Emil", "Fritz" };
	for (int i = 0; i < PLAYERS; i++)
		assert_non_null(player[i] = it_register(names[i]));
	for (int k = 0; k < PARTIES; k++)
		one_party();
}

/* Issue 33: a secret choice may be changed until the last player has
 * chosen, through the page: Gina draws, then (her page's list now offers
 * the choices again) chooses something else; her page shows the new
 * choice, the others still only "hat gewählt". The last choice resolves
 * the turn; then a change is refused and changes nothing. */
static void test_choice_changed_through_nginx(void **unused)
{
	(void)unused;
	struct h_client *c[2];
	assert_non_null(c[0] = it_register("Gina"));
	assert_non_null(c[1] = it_register("Hans"));
	int64_t id = it_create_table(c[0], "dna", 2, NULL);
	assert_true(id > 0);
	assert_int_equal(it_join(c[1], id), 0);
	long status;
	json_t *o = it_table_json(c[0], id, &status);
	assert_non_null(o);
	assert_true(json_is_true(json_object_get(o, "can_act")));
	/* her first choice: a card if she can lay one, else a draw */
	char first[128] = "draw";
	json_t *mv = json_object_get(o, "moves");
	for (size_t i = 0; i < json_array_size(mv); i++) {
		const char *m = it_jstr(json_array_get(mv, i), "move");
		if (strncmp(m, "attach ", 7) == 0 || strncmp(m, "set ", 4) == 0) {
			snprintf(first, sizeof first, "%s", m);
			break;
		}
	}
	assert_int_equal(it_move(c[0], id, it_jstr(o, "csrf"), it_jint(o, "version", -1), first), 303);
	json_decref(o);
	o = it_table_json(c[0], id, &status);
	assert_non_null(o);
	assert_false(json_is_true(json_object_get(o, "can_act")));   /* the turn does not wait for her */
	json_t *g = json_object_get(o, "game");
	assert_true(json_is_true(json_object_get(g, "may_change")));
	long long v = it_jint(o, "version", -1);
	char csrf[80];
	snprintf(csrf, sizeof csrf, "%s", it_jstr(o, "csrf"));
	json_decref(o);
	/* she changes it: to a draw (or, having drawn, to a draw again) */
	assert_int_equal(it_move(c[0], id, csrf, v, "draw"), 303);
	o = it_table_json(c[0], id, &status);
	const char *mine = it_jstr(json_object_get(o, "game"), "my_choice");
	print_message("first \"%s\", then draw: %s\n", first, mine);
	assert_non_null(strstr(mine, "ziehst"));
	v = it_jint(o, "version", -1);
	json_decref(o);
	/* Hans sees only that she has chosen */
	o = it_table_json(c[1], id, &status);
	char *dump = json_dumps(o, JSON_COMPACT);
	assert_non_null(strstr(dump, "\"chosen\":true"));
	free(dump);
	assert_int_equal(it_move(c[1], id, it_jstr(o, "csrf"), it_jint(o, "version", -1), "draw"), 303);
	json_decref(o);
	/* resolved with her draw; her old page's change is refused, nothing changes */
	o = it_table_json(c[0], id, &status);
	long long after = it_jint(o, "version", -1);
	dump = json_dumps(o, JSON_COMPACT);
	assert_non_null(strstr(dump, "Gina zieht"));
	free(dump);
	json_decref(o);
	long st = it_move(c[0], id, csrf, v, "draw");
	assert_true(st == 409 || st == 422);
	o = it_table_json(c[0], id, &status);
	assert_int_equal(it_jint(o, "version", -1), after);
	json_decref(o);
	for (int i = 0; i < 2; i++)
		h_client_free(c[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_choice_changed_through_nginx),
		cmocka_unit_test(test_dna_parties_through_nginx),
	};
	return cmocka_run_group_tests_name("dna through nginx", tests, start, stop);
}
