/*
 * test_worstgame_web.c — Worst Game Ever through real nginx, three players
 * acting from their own JSON twins:
 *   - the party is dealt from a seed the test chose (written into the
 *     store before the first move), so that a fixed way of choosing moves
 *     reaches a tie at the end: the same moves are made locally on the rules
 *     core and through HTTP, and both must agree;
 *   - on the way cards are played in reaction windows by one seat while
 *     another's card waits on the stack, and answered;
 *   - no seat's page or JSON ever names a card of another seat's hand that
 *     is not public (on the stack, on the discard pile, in play, in the log,
 *     or in its own hand), and no seat's JSON carries another seat's hand;
 *   - the shout race: the two tied players shout at the same moment from
 *     the same page version: exactly one wins, the other is told it was too
 *     late, the log holds one shout;
 *   - the party replays from its log.
 * Bounded by MAX_MOVES moves and MAX_SECONDS.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "integration/suite.h"
#include "options.h"
#include "rng.h"

enum { PLAYERS = 3, MAX_MOVES = 600, MAX_SECONDS = 240, MAXLIST = 600 };
static const char *const OPTS = "react_seconds=600";

static struct h_client *player[PLAYERS];
static int64_t table_id;
static const struct game *G;

static int start(void **state)
{
	(void)state;
	G = game_find("worstgame");
	return G ? h_start() : -1;
}

static int stop(void **state)
{
	(void)state;
	for (int i = 0; i < PLAYERS; i++)
		h_client_free(player[i]);
	h_stop();
	return 0;
}

struct list {
	int n;
	char m[MAXLIST][GAME_MOVE_MAX + 1];
};

static void add(void *ctx, const char *move)
{
	struct list *l = ctx;
	if (l->n < MAXLIST)
		snprintf(l->m[l->n++], sizeof l->m[0], "%s", move);
}

/* The fixed way of choosing: the lowest seat that may act, mostly a pass
 * in a window, else any of its moves. 0 with *seat and move, or -1 when
 * nobody may act; *shout is set when the moves are the tie's shouts. */
static int choose(const void *st, struct rng *r, int *seat, char *move, int *shout)
{
	struct status s;
	static struct list l;
	G->status(st, &s);
	if (s.over || !s.to_act)
		return -1;
	*seat = __builtin_ctz(s.to_act);
	l.n = 0;
	G->moves(st, *seat, add, &l);
	*shout = l.n == 1 && strcmp(l.m[0], "shout") == 0;
	uint32_t k = rng_below(r, (uint32_t)l.n);
	int quiet = strcmp(l.m[0], "pass") == 0 || strcmp(l.m[0], "done") == 0;
	strcpy(move, quiet && rng_below(r, 10) < 6 ? l.m[0] : l.m[k]);
	return 0;
}

static void deal(void *st, uint64_t seed)
{
	struct setup su = { .nplayers = PLAYERS, .dealer = 0, .seed = seed };
	struct rerr e;
	assert_int_equal(options_parse(G, su.opt, OPTS, &e), 0);
	assert_int_equal(game_setup(G, st, &su, &e), 0);
}

/* A seed whose party, played the fixed way, reaches the shout. */
static uint64_t find_seed(void *st)
{
	char move[GAME_MOVE_MAX + 1];
	struct rerr e;
	for (uint64_t seed = 1; seed < 2000; seed++) {
		struct rng r;
		int seat, shout = 0, k = 0;
		deal(st, seed);
		rng_seed(&r, seed);
		while (k++ < MAX_MOVES && choose(st, &r, &seat, move, &shout) == 0 && !shout)
			assert_int_equal(G->apply(st, seat, move, 1000 + k, &e), 0);
		if (shout)
			return seed;
	}
	fail_msg("no seed reaches a tie");
	return 0;
}

/* Party 0 of the table is dealt anew from seed (dealer 0), before any move. */
static void redeal(uint64_t seed, void *st)
{
	unsigned char *snap = malloc(GAME_SNAPSHOT_MAX);
	struct buf b = { snap, 0, GAME_SNAPSHOT_MAX, 0 };
	sqlite3 *db;
	sqlite3_stmt *q;
	assert_non_null(snap);
	deal(st, seed);
	assert_int_equal(G->encode(st, &b), 0);
	assert_int_equal(sqlite3_open(h_db_path(), &db), SQLITE_OK);
	sqlite3_busy_timeout(db, 5000);
	assert_int_equal(sqlite3_prepare_v2(db, "UPDATE parties SET seed = ?1, dealer = 0, "
					    "snapshot = ?2 WHERE table_id = ?3 AND number = 0", -1,
					    &q, NULL), SQLITE_OK);
	sqlite3_bind_int64(q, 1, (sqlite3_int64)seed);
	sqlite3_bind_blob(q, 2, snap, (int)b.len, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 3, table_id);
	assert_int_equal(sqlite3_step(q), SQLITE_DONE);
	assert_int_equal(sqlite3_changes(db), 1);
	sqlite3_finalize(q);
	sqlite3_close(db);
	free(snap);
}

static json_t *game_of(json_t *o)
{
	return json_object_get(o, "game");
}

/* The names in the `name` fields of section `sec` of o's game view. */
static void names_of(json_t *arr, char *out, size_t cap)
{
	for (size_t k = 0; k < json_array_size(arr); k++) {
		const char *nm = it_jstr(json_array_get(arr, k), "name");
		if (nm && strlen(out) + strlen(nm) + 2 < cap) {
			strcat(out, nm);
			strcat(out, "|");
		}
	}
}

/* Everything seat i's JSON shows in public or of its own: its hand, the
 * stack, the discard pile's top, cards in play, open hands, the log. */
static void public_text(json_t *o, char *out, size_t cap)
{
	json_t *g = game_of(o), *seats = json_object_get(g, "seats");
	out[0] = '\0';
	names_of(json_object_get(g, "hand"), out, cap);
	names_of(json_object_get(g, "stack"), out, cap);
	for (size_t k = 0; k < json_array_size(seats); k++) {
		names_of(json_object_get(json_array_get(seats, k), "inplay"), out, cap);
		names_of(json_object_get(json_array_get(seats, k), "open_cards"), out, cap);
	}
	const char *top = it_jstr(g, "discard_top");
	if (top && strlen(out) + strlen(top) + 2 < cap) {
		strcat(out, top);
		strcat(out, "|");
	}
	json_t *log = json_object_get(g, "log");
	for (size_t k = 0; k < json_array_size(log); k++) {
		const char *t = it_jstr(json_array_get(log, k), "text");
		if (t && strlen(out) + strlen(t) + 2 < cap) {
			strcat(out, t);
			strcat(out, "|");
		}
	}
}

/* Seat i's page and JSON hold only its own hand; a card another seat holds
 * shows nowhere unless it is public. */
static void assert_hands_hidden(json_t **js, char **html)
{
	static char pub[65536];
	for (int i = 0; i < PLAYERS; i++) {
		json_t *g = game_of(js[i]), *seats = json_object_get(g, "seats");
		for (size_t k = 0; k < json_array_size(seats); k++) {
			json_t *s = json_array_get(seats, k);
			assert_null(json_object_get(s, "hand"));
			if (it_jint(s, "seat", -1) == i)
				assert_int_equal((long long)json_array_size(json_object_get(g, "hand")),
						 it_jint(s, "hand_count", -1));
		}
		public_text(js[i], pub, sizeof pub);
		char *dump = json_dumps(js[i], JSON_COMPACT);
		for (int o = 0; o < PLAYERS; o++) {
			json_t *hand = json_object_get(game_of(js[o]), "hand");
			for (size_t k = 0; o != i && k < json_array_size(hand); k++) {
				const char *nm = it_jstr(json_array_get(hand, k), "name");
				if (!nm || strstr(pub, nm))
					continue;
				if (strstr(dump, nm) || strstr(html[i], nm))
					fail_msg("seat %d is shown %s from seat %d's hand", i, nm, o);
			}
		}
		free(dump);
	}
}

static json_t *shown(int i, char **html)
{
	long status;
	char path[64];
	struct h_resp r;
	json_t *o = it_table_json(player[i], table_id, &status);
	assert_non_null(o);
	snprintf(path, sizeof path, "/t/%lld", (long long)table_id);
	assert_int_equal(h_get(player[i], path, &r), 0);
	assert_int_equal(r.status, 200);
	*html = strdup(r.body);
	h_resp_free(&r);
	return o;
}

struct press {
	int seat;
	const char *csrf;
	long long v;
	pthread_barrier_t *go;
	long status;
};

static void *press(void *arg)
{
	struct press *p = arg;
	pthread_barrier_wait(p->go);
	p->status = it_move(player[p->seat], table_id, p->csrf, p->v, "shout");
	return NULL;
}

/* The two seats that may shout do so at once: one wins. */
static void shout_race(int a, int b)
{
	long status;
	json_t *ja = it_table_json(player[a], table_id, &status);
	json_t *jb = it_table_json(player[b], table_id, &status);
	assert_true(json_is_true(json_object_get(game_of(ja), "can_shout")));
	assert_true(json_is_true(json_object_get(game_of(jb), "can_shout")));
	pthread_barrier_t go;
	pthread_barrier_init(&go, NULL, 2);
	struct press pa = { a, it_jstr(ja, "csrf"), it_jint(ja, "version", -1), &go, 0 };
	struct press pb = { b, it_jstr(jb, "csrf"), it_jint(jb, "version", -1), &go, 0 };
	pthread_t ta, tb;
	pthread_create(&ta, NULL, press, &pa);
	pthread_create(&tb, NULL, press, &pb);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	pthread_barrier_destroy(&go);
	assert_true((pa.status == 303) != (pb.status == 303));
	assert_true(pa.status == 409 || pb.status == 409);
	int winner = pa.status == 303 ? a : b;
	json_t *o = it_table_json(player[0], table_id, &status);
	assert_string_equal(it_jstr(o, "status"), "finished");
	json_t *w = json_array_get(json_object_get(o, "standings"), 0);
	assert_int_equal(it_jint(w, "seat", -1), winner);
	assert_true(json_is_true(json_object_get(w, "winner")));
	struct it_step *steps = NULL;
	int n = 0, shouts = 0;
	assert_int_equal(it_db_steps(h_db_path(), table_id, &steps, &n), 0);
	for (int k = 0; k < n; k++)
		shouts += strcmp(steps[k].text, "shout") == 0;
	free(steps);
	assert_int_equal(shouts, 1);
	print_message("worstgame: seats %d and %d shouted at once: seat %d wins (%ld, %ld)\n",
		      a, b, winner, pa.status, pb.status);
	json_decref(ja);
	json_decref(jb);
	json_decref(o);
}

static void test_worstgame_party_through_nginx(void **unused)
{
	(void)unused;
	static const char *names[PLAYERS] = { "Jana", "Kurt", "Lena" };
	void *st = calloc(1, G->state_size);
	assert_non_null(st);
	uint64_t seed = find_seed(st);
	for (int i = 0; i < PLAYERS; i++)
		assert_non_null(player[i] = it_register(names[i]));
	table_id = it_create_table(player[0], "worstgame", PLAYERS, "react_seconds", "600", NULL);
	assert_true(table_id > 0);
	for (int i = 1; i < PLAYERS; i++)
		assert_int_equal(it_join(player[i], table_id), 0);
	redeal(seed, st);

	struct rng r;
	char move[GAME_MOVE_MAX + 1];
	struct rerr e;
	int seat, shout = 0, moves = 0, reactions = 0;
	double t0 = it_now();
	rng_seed(&r, seed);
	while (moves < MAX_MOVES && it_now() - t0 < MAX_SECONDS &&
	       choose(st, &r, &seat, move, &shout) == 0 && !shout) {
		json_t *js[PLAYERS];
		char *html[PLAYERS];
		for (int i = 0; i < PLAYERS; i++)
			js[i] = shown(i, &html[i]);
		assert_hands_hidden(js, html);
		json_t *g = game_of(js[seat]);
		if (strncmp(move, "play ", 5) == 0 && json_is_true(json_object_get(g, "window")) &&
		    json_is_true(json_object_get(g, "has_stack")))
			reactions++;   /* a card on a card another seat played */
		long status = it_move(player[seat], table_id, it_jstr(js[seat], "csrf"),
				      it_jint(js[seat], "version", -1), move);
		if (status != 303)
			fail_msg("move %d '%s' by seat %d: %ld", moves, move, seat, status);
		assert_int_equal(G->apply(st, seat, move, 1000 + moves, &e), 0);
		moves++;
		for (int i = 0; i < PLAYERS; i++) {
			json_decref(js[i]);
			free(html[i]);
		}
	}
	assert_true(shout);
	print_message("worstgame through nginx: seed %llu, %d moves, %d cards answering cards, "
		      "%.1f s\n", (unsigned long long)seed, moves, reactions, it_now() - t0);
	assert_true(reactions > 0);

	struct status s;
	G->status(st, &s);
	int a = __builtin_ctz(s.to_act), b = __builtin_ctz(s.to_act & (s.to_act - 1));
	shout_race(a, b);
	char why[256];
	if (it_verify_table(table_id, why, sizeof why) < 1)
		fail_msg("replay: %s", why);
	assert_int_equal(it_db_integrity(h_db_path(), why, sizeof why), 0);
	free(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_worstgame_party_through_nginx),
	};
	return cmocka_run_group_tests_name("worstgame through nginx", tests, start, stop);
}
