/*
 * test_worstgame_web.c — Worst Game Ever through real nginx, three players
 * acting from their own JSON twins and pages:
 *   - a table of three is opened and joined; its party is then dealt anew
 *     from a seed the test chose (written into the store before the first
 *     move), so that a fixed way of choosing moves reaches a tie at the
 *     end: the same moves are made locally on the rules core and through
 *     HTTP, and both must agree;
 *   - on the way, cards are played in reaction windows on a card another
 *     seat played, by at least two different seats;
 *   - every legal move of a seat is a button on its board (the page draws
 *     what the view offers), and the headline is on the page;
 *   - no seat's page or JSON ever names a card of another seat's hand that
 *     is not public (on the stack, the discard pile's top, in play, in an
 *     open hand, in the log, or in its own hand), and no seat's JSON carries
 *     another seat's hand;
 *   - the shout race: two players shout at the same moment from the same
 *     page version: exactly one wins, the other is told who shouted first, the
 *     log holds one shout; a later shout from a browser lands on the table
 *     with a "too late" note and changes nothing;
 *   - the party replays from its log.
 * Bounded by SEEDS deals tried locally, MAX_MOVES moves and MAX_SECONDS.
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

enum { PLAYERS = 3, MAX_MOVES = 600, MAX_SECONDS = 240, MAXLIST = 600, SEEDS = 4000 };
static const char *const OPTS = "react_seconds=600";
static const char browser_accept[] = "text/html,application/xhtml+xml,application/xml;q=0.9,"
				     "*/*;q=0.8";

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

/* ---- what a seat's view says about the stack, read locally ---------------- */

struct peek {
	int depth, in_stack, item_top, item_by;
	int window, nstack, top_by;
};

static void pk_str(void *ctx, const char *key, const char *val)
{
	(void)ctx;
	(void)key;
	(void)val;
}

static void pk_num(void *ctx, const char *key, long long val)
{
	struct peek *k = ctx;
	if (k->in_stack && k->depth == 1 && strcmp(key, "by_seat") == 0)
		k->item_by = (int)val;
}

static void pk_flag(void *ctx, const char *key, int on)
{
	struct peek *k = ctx;
	if (k->in_stack && k->depth == 1 && strcmp(key, "top") == 0)
		k->item_top = on;
	if (k->depth == 0 && strcmp(key, "window") == 0)
		k->window = on;
}

static void pk_begin(void *ctx, const char *section)
{
	struct peek *k = ctx;
	if (k->depth++ == 0 && strcmp(section, "stack") == 0) {
		k->in_stack = 1;
		k->item_top = 0;
		k->item_by = -1;
		k->nstack++;
	}
}

static void pk_end(void *ctx)
{
	struct peek *k = ctx;
	if (--k->depth == 0 && k->in_stack) {
		if (k->item_top)
			k->top_by = k->item_by;
		k->in_stack = 0;
	}
}

/* 1 when `move` by seat is a card played in a reaction window on a card
 * that another seat played (the top of the stack is not its own). */
static int answers_card(const void *st, int seat, const char *move)
{
	struct peek k = { .top_by = -1 };
	struct view_sink v = { pk_str, pk_num, pk_flag, pk_begin, pk_end, &k, NULL, 0, NULL };
	if (strncmp(move, "play ", 5) != 0)
		return 0;
	G->view(st, seat, &v);
	return k.window && k.nstack > 0 && k.top_by >= 0 && k.top_by != seat;
}

/* ---- the fixed way of playing ------------------------------------------------ */

/* The lowest seat that may act, mostly a pass in a window, else any of its
 * moves. 0 with *seat and move, or -1 when nobody may act; *shout is set
 * when the moves are the tie's shouts. */
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

/* A seed whose party, played the fixed way, reaches the shout after cards
 * answered other seats' cards from at least two seats. */
static uint64_t find_seed(void *st)
{
	char move[GAME_MOVE_MAX + 1];
	struct rerr e;
	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		struct rng r;
		int seat, shout = 0, k = 0;
		unsigned answered = 0;
		deal(st, seed);
		rng_seed(&r, seed);
		while (k++ < MAX_MOVES && choose(st, &r, &seat, move, &shout) == 0 && !shout) {
			if (answers_card(st, seat, move))
				answered |= 1u << seat;
			assert_int_equal(G->apply(st, seat, move, 1000 + k, &e), 0);
		}
		if (shout && __builtin_popcount(answered) >= 2)
			return seed;
	}
	fail_msg("no seed reaches a tie with answers from two seats");
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
	/* the deal's start step (a window opened at the deal) carries the
	 * position too (026_one_write.sql) */
	assert_int_equal(sqlite3_prepare_v2(db, "UPDATE moves SET snapshot = ?1 WHERE party = "
					    "(SELECT id FROM parties WHERE table_id = ?2 AND "
					    "number = 0)", -1, &q, NULL), SQLITE_OK);
	sqlite3_bind_blob(q, 1, snap, (int)b.len, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 2, table_id);
	assert_int_equal(sqlite3_step(q), SQLITE_DONE);
	sqlite3_finalize(q);
	sqlite3_close(db);
	free(snap);
}

/* ---- what the pages show --------------------------------------------------------- */

static json_t *game_of(json_t *o)
{
	return json_object_get(o, "game");
}

static void append(char *out, size_t cap, const char *s)
{
	if (s && strlen(out) + strlen(s) + 2 < cap) {
		strcat(out, s);
		strcat(out, "|");
	}
}

/* The names in the `name` fields of the items of arr. */
static void names_of(json_t *arr, char *out, size_t cap)
{
	for (size_t k = 0; k < json_array_size(arr); k++)
		append(out, cap, it_jstr(json_array_get(arr, k), "name"));
}

/* Everything a seat's JSON shows in public or of its own: its hand, the
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
	append(out, cap, it_jstr(g, "discard_top"));
	json_t *log = json_object_get(g, "log");
	for (size_t k = 0; k < json_array_size(log); k++)
		append(out, cap, it_jstr(json_array_get(log, k), "text"));
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
				if (!*nm || strstr(pub, nm))
					continue;
				if (strstr(dump, nm) || strstr(html[i], nm))
					fail_msg("seat %d is shown %s from seat %d's hand", i, nm, o);
			}
		}
		free(dump);
	}
}

/* The board of a table page: from its section to the next one. */
static char *board_of(const char *html)
{
	const char *b = strstr(html, "<section class=\"board\"");
	assert_non_null(b);
	const char *e = strstr(b, "<section class=\"card");
	size_t n = e ? (size_t)(e - b) : strlen(b);
	char *out = malloc(n + 1);
	assert_non_null(out);
	memcpy(out, b, n);
	out[n] = '\0';
	return out;
}

/* Seat i's board draws what its view offers: the headline, and every legal
 * move as a button. How many of its buttons were moves. */
static int assert_board_offers(int i, json_t *o, const char *html)
{
	char *board = board_of(html), want[GAME_MOVE_MAX + 32];
	json_t *moves = json_object_get(o, "moves");
	const char *head = it_jstr(game_of(o), "headline");
	if (!*head || !strstr(board, head))
		fail_msg("seat %d's board lacks its headline \"%s\"", i, head);
	for (size_t k = 0; k < json_array_size(moves); k++) {
		const char *m = it_jstr(json_array_get(moves, k), "move");
		snprintf(want, sizeof want, "name=\"move\" value=\"%s\"", m);
		if (!strstr(board, want))
			fail_msg("seat %d may \"%s\", but its board has no button for it", i, m);
	}
	free(board);
	return (int)json_array_size(moves);
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

/* ---- the shout race ---------------------------------------------------------------- */

struct press {
	int seat;
	const char *csrf;
	long long v;
	pthread_barrier_t *go;
	long status;
	char *body;
};

/* Posts "shout" for p->seat once both threads are ready; keeps the answer. */
static void *press(void *arg)
{
	struct press *p = arg;
	char path[64], vs[32];
	struct h_resp r;
	snprintf(path, sizeof path, "/t/%lld/move", (long long)table_id);
	snprintf(vs, sizeof vs, "%lld", p->v);
	pthread_barrier_wait(p->go);
	h_post_form(player[p->seat], path, &r, "csrf", p->csrf, "v", vs, "move", "shout", NULL);
	p->status = r.status;
	p->body = r.body ? strdup(r.body) : NULL;
	h_resp_free(&r);
	return NULL;
}

/* What a shout that came too late was told, when it was not "Zu spät"
 * (checked last, after the replay). */
static char not_too_late[2][240];

/* The note of page `body` into out (one line, at most cap bytes) when it
 * does not say "Zu spät"; "" when it does. */
static void keep_note(const char *body, char *out, size_t cap)
{
	const char *n = strstr(body, "class=\"note");
	out[0] = '\0';
	if (!strstr(body, "Zu spät"))
		snprintf(out, cap, "%.*s", (int)strcspn(n ? n : body, "\n"), n ? n : body);
}

static int shouts_logged(void)
{
	struct it_step *steps = NULL;
	int n = 0, shouts = 0;
	assert_int_equal(it_db_steps(h_db_path(), table_id, &steps, &n), 0);
	for (int k = 0; k < n; k++)
		shouts += strcmp(steps[k].text, "shout") == 0;
	free(steps);
	return shouts;
}

/* Seat `late` shouts once more from a browser, from the page it raced
 * with (version v): it lands on the table with a "too late" note, and
 * nothing changes. */
static void late_shout(int late, const char *csrf, long long v)
{
	long long v0, s0, v1, s1;
	char path[64];
	struct h_resp r;
	assert_int_equal(it_db_table_state(h_db_path(), table_id, &v0, &s0), 0);
	h_client_accept(player[late], browser_accept);
	assert_int_equal(it_move(player[late], table_id, csrf, v, "shout"), 303);
	snprintf(path, sizeof path, "/t/%lld", (long long)table_id);
	assert_int_equal(h_get(player[late], path, &r), 0);
	h_client_accept(player[late], NULL);
	assert_int_equal(r.status, 200);
	assert_true(h_has(&r, "class=\"note stale\""));
	keep_note(r.body, not_too_late[1], sizeof not_too_late[1]);
	assert_true(h_has(&r, "ruft „Worst Game Ever!“"));   /* the winner's, in the log */
	h_resp_free(&r);
	assert_int_equal(it_db_table_state(h_db_path(), table_id, &v1, &s1), 0);
	assert_int_equal(v1, v0);
	assert_int_equal(s1, s0);
}

/* The two seats shout at once from the same page version: one wins. */
static void shout_race(int a, int b)
{
	long status;
	json_t *ja = it_table_json(player[a], table_id, &status);
	json_t *jb = it_table_json(player[b], table_id, &status);
	assert_true(json_is_true(json_object_get(game_of(ja), "can_shout")));
	assert_true(json_is_true(json_object_get(game_of(jb), "can_shout")));
	assert_int_equal(it_jint(ja, "version", -1), it_jint(jb, "version", -2));
	pthread_barrier_t go;
	pthread_barrier_init(&go, NULL, 2);
	struct press pa = { a, it_jstr(ja, "csrf"), it_jint(ja, "version", -1), &go, 0, NULL };
	struct press pb = { b, it_jstr(jb, "csrf"), it_jint(jb, "version", -1), &go, 0, NULL };
	pthread_t ta, tb;
	pthread_create(&ta, NULL, press, &pa);
	pthread_create(&tb, NULL, press, &pb);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	pthread_barrier_destroy(&go);
	assert_true((pa.status == 303) != (pb.status == 303));
	struct press *lost = pa.status == 303 ? &pb : &pa;
	int winner = pa.status == 303 ? a : b;
	assert_int_equal(lost->status, 409);
	assert_non_null(lost->body);
	keep_note(lost->body, not_too_late[0], sizeof not_too_late[0]);
	/* the loser is told who won the race, by name */
	if (!strstr(lost->body, "hat zuerst gerufen"))
		fail_msg("the shout race's loser is not told who shouted first");
	json_t *o = it_table_json(player[0], table_id, &status);
	assert_string_equal(it_jstr(o, "status"), "finished");
	json_t *w = json_array_get(json_object_get(o, "standings"), 0);
	assert_int_equal(it_jint(w, "seat", -1), winner);
	assert_true(json_is_true(json_object_get(w, "winner")));
	assert_int_equal(shouts_logged(), 1);
	print_message("worstgame: seats %d and %d shouted at once: seat %d wins (%ld, %ld)\n",
		      a, b, winner, pa.status, pb.status);
	late_shout(lost->seat, lost->csrf, lost->v);
	assert_int_equal(shouts_logged(), 1);
	free(pa.body);
	free(pb.body);
	json_decref(ja);
	json_decref(jb);
	json_decref(o);
}

/* ---- the party ----------------------------------------------------------------------- */

struct run {
	int moves, answers, buttons;
	unsigned answered;   /* seats that answered another seat's card */
	int window_words;    /* pages naming a window seat in the board and the bar */
};

/* One state, one wording: a seat that may still answer in a window is
 * "kann noch eingreifen" on the board as in the status bar and the seat
 * list (the board said "kann reagieren"). */
static int window_words(const char *html)
{
	assert_null(strstr(html, "kann reagieren"));
	return strstr(html, "<span class=\"wg-badge\">kann noch eingreifen</span>") &&
	       strstr(html, "<span class=\"badge window\">kann noch eingreifen</span>");
}

/* One move of the fixed way, made through HTTP by seat `seat` after every
 * seat's page and JSON were checked, then locally. */
static void one_move(void *st, int seat, const char *move, struct run *run)
{
	json_t *js[PLAYERS];
	char *html[PLAYERS];
	struct rerr e;
	for (int i = 0; i < PLAYERS; i++) {
		js[i] = shown(i, &html[i]);
		run->buttons += assert_board_offers(i, js[i], html[i]);
		run->window_words += window_words(html[i]);
	}
	assert_hands_hidden(js, html);
	json_t *g = game_of(js[seat]);
	if (answers_card(st, seat, move)) {
		json_t *stack = json_object_get(g, "stack");
		json_t *top = json_array_get(stack, json_array_size(stack) - 1);
		assert_true(json_is_true(json_object_get(g, "my_window")));
		assert_true(json_is_true(json_object_get(top, "top")));
		assert_int_not_equal(it_jint(top, "by_seat", seat), seat);
		run->answers++;
		run->answered |= 1u << seat;
	}
	long status = it_move(player[seat], table_id, it_jstr(js[seat], "csrf"),
			      it_jint(js[seat], "version", -1), move);
	if (status != 303)
		fail_msg("move %d '%s' by seat %d: %ld", run->moves, move, seat, status);
	assert_int_equal(G->apply(st, seat, move, 1000 + run->moves, &e), 0);
	run->moves++;
	for (int i = 0; i < PLAYERS; i++) {
		json_decref(js[i]);
		free(html[i]);
	}
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
	struct run run = { 0, 0, 0, 0, 0 };
	char move[GAME_MOVE_MAX + 1];
	int seat, shout = 0;
	double t0 = it_now();
	rng_seed(&r, seed);
	while (run.moves < MAX_MOVES && it_now() - t0 < MAX_SECONDS &&
	       choose(st, &r, &seat, move, &shout) == 0 && !shout)
		one_move(st, seat, move, &run);
	assert_true(shout);
	print_message("worstgame through nginx: seed %llu, %d moves, %d cards answering another "
		      "seat's card (seats 0x%x), %d buttons checked, %.1f s\n",
		      (unsigned long long)seed, run.moves, run.answers, run.answered, run.buttons,
		      it_now() - t0);
	assert_true(__builtin_popcount(run.answered) >= 2);
	assert_true(run.window_words > 0);

	/* the tie: every seat still in may shout, from a button on its board */
	struct status s;
	G->status(st, &s);
	assert_true(__builtin_popcount(s.to_act) >= 2);
	json_t *js[PLAYERS];
	char *html[PLAYERS];
	for (int i = 0; i < PLAYERS; i++) {
		js[i] = shown(i, &html[i]);
		if ((s.to_act >> i) & 1u) {
			assert_int_equal(assert_board_offers(i, js[i], html[i]), 1);
			assert_non_null(strstr(html[i], "Worst Game Ever!"));
		}
	}
	assert_hands_hidden(js, html);
	for (int i = 0; i < PLAYERS; i++) {
		json_decref(js[i]);
		free(html[i]);
	}
	int a = __builtin_ctz(s.to_act), b = __builtin_ctz(s.to_act & (s.to_act - 1));
	shout_race(a, b);
	char why[256];
	if (it_verify_table(table_id, why, sizeof why) < 1)
		fail_msg("replay: %s", why);
	assert_true(it_verify_exports(player[0], table_id) >= 1);   /* and the exports */
	assert_int_equal(it_db_integrity(h_db_path(), why, sizeof why), 0);
	free(st);
	for (int k = 0; k < 2; k++)
		if (not_too_late[k][0])
			fail_msg("the %s shout is not told it was too late: %s",
				 k ? "late browser's" : "race's second", not_too_late[k]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_worstgame_party_through_nginx),
	};
	return cmocka_run_group_tests_name("worstgame through nginx", tests, start, stop);
}
