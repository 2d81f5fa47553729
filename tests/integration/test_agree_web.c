/*
 * test_agree_web.c — every page that tells a seat what it is asked says the
 * same thing (play_asked(), docs/api.md "Whose move"), through real nginx:
 *   - in a Drehwurm snap window the seat whose turn comes next is asked in
 *     the window on "Meine Tische" as on its table page (before, /me said
 *     "Du bist dran" while its table said "window");
 *   - during the pause after a party every seat that has not sent "weiter"
 *     is asked to continue: /me marks it, the tab title counts it, its feed
 *     has an entry; once it continued, nothing (the others still are);
 *   - the lobby's games carry their options under table_fields.options,
 *     as docs/api.md says;
 *   - for every game a party is walked from the JSON twin and at every step,
 *     for every seat, the /me entry, the table JSON's asked/my_turn/window/
 *     can_act (and party_end.can_continue), the feed's entry and the page's
 *     title and alert agree; then through the pause (or the table's end).
 * Bounded: every walk stops after MAX_STEPS steps or MAX_SECONDS; a wait for
 * a deadline nobody can act before polls at most WAIT_SECONDS.
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

enum { PLAYERS = 3, MAX_STEPS = 3000, MAX_SECONDS = 240, WAIT_SECONDS = 20, RETRIES = 5 };

struct walker {
	struct h_client *c[PLAYERS];
	char feed[PLAYERS][128];   /* "/feed/<token>.atom" */
	int64_t id;
	uint64_t rnd;
	int checks;                /* seat comparisons made */
	int seen[4];               /* of them: none, turn, window, continue */
};

/* The user's feed path from their /me page. */
static void feed_path(struct h_client *c, char *out, size_t cap)
{
	struct h_resp r;
	char want[256];
	assert_int_equal(h_get(c, "/me", &r), 0);
	assert_int_equal(r.status, 200);
	snprintf(want, sizeof want, "%s/feed/", h_base());
	const char *at = strstr(r.body, want);
	assert_non_null(at);
	at += strlen(h_base());
	const char *end = strstr(at, ".atom");
	assert_non_null(end);
	snprintf(out, cap, "%.*s", (int)(end - at) + 5, at);
	h_resp_free(&r);
}

/* Three new people (names from `tag`) at a new table of `slug`, started. */
static void sit_down(struct walker *w, const char *tag, const char *slug, const char *k1,
		     const char *v1, const char *k2, const char *v2)
{
	char name[32];
	memset(w, 0, sizeof *w);
	w->rnd = 0x5eed;
	for (int i = 0; i < PLAYERS; i++) {
		snprintf(name, sizeof name, "%s%c", tag, 'a' + i);
		w->c[i] = it_register(name);
		assert_non_null(w->c[i]);
		feed_path(w->c[i], w->feed[i], sizeof w->feed[i]);
	}
	w->id = it_create_table(w->c[0], slug, PLAYERS, k1, v1, k2, v2, NULL);
	assert_true(w->id > 0);
	for (int i = 1; i < PLAYERS; i++)
		assert_int_equal(it_join(w->c[i], w->id), 0);
}

static void leave(struct walker *w)
{
	for (int i = 0; i < PLAYERS; i++)
		h_client_free(w->c[i]);
}

static json_t *table_json(struct walker *w, int i)
{
	long st;
	json_t *o = it_table_json(w->c[i], w->id, &st);
	if (!o)
		fail_msg("table %lld JSON: status %ld", (long long)w->id, st);
	return o;
}

/* The /me JSON entry of the walker's table for client c (a new reference). */
static json_t *me_entry(struct walker *w, struct h_client *c)
{
	struct h_resp r;
	h_client_accept(c, "application/json");
	int rc = h_get(c, "/me", &r);
	h_client_accept(c, NULL);
	assert_int_equal(rc, 0);
	assert_int_equal(r.status, 200);
	json_t *o = json_loads(r.body, 0, NULL);
	h_resp_free(&r);
	assert_non_null(o);
	json_t *mine = json_object_get(o, "mine"), *e = NULL;
	for (size_t k = 0; k < json_array_size(mine); k++)
		if (it_jint(json_array_get(mine, k), "id", 0) == w->id)
			e = json_incref(json_array_get(mine, k));
	json_decref(o);
	if (!e)
		fail_msg("/me lists no table %lld", (long long)w->id);
	return e;
}

static int flag(json_t *o, const char *key)
{
	return json_is_true(json_object_get(o, key));
}

/* What the seat of client i is asked, as every page says it: "" nothing,
 * "turn", "window", "continue". 0 when all agree (and *kind is the answer),
 * 1 when the table changed meanwhile (a deadline passed: ask again). */
static int seat_agrees(struct walker *w, int i, const char **kind)
{
	static char asked[16];
	json_t *o = table_json(w, i);
	long long v = it_jint(o, "version", -1);
	snprintf(asked, sizeof asked, "%s", it_jstr(o, "asked"));
	*kind = asked;
	int turn = !strcmp(asked, "turn"), window = !strcmp(asked, "window"),
	    cont = !strcmp(asked, "continue"), any = asked[0] != '\0';
	assert_true(any == (turn || window || cont));
	/* the table page's flags */
	assert_int_equal(flag(o, "my_turn"), turn);
	assert_int_equal(flag(o, "window"), window);
	assert_int_equal(flag(o, "can_act"), any);
	json_t *pe = json_object_get(o, "party_end");
	assert_int_equal(flag(pe, "can_continue"), cont);
	/* its own seat row: out of turn is a window, never a turn */
	json_t *seats = json_object_get(o, "seats");
	int me = (int)it_jint(o, "my_seat", -1);
	json_t *row = json_array_get(seats, (size_t)me);
	assert_non_null(row);
	if (flag(o, "can_act") && !cont)
		assert_int_equal(flag(row, "acting_out_of_turn"), window);
	if (any)
		assert_true(flag(row, "acting"));
	if (flag(pe, "pausing"))   /* who has not continued: public, as party_end says */
		assert_int_equal(flag(row, "acting"), cont);
	json_decref(o);

	/* "Meine Tische" */
	json_t *e = me_entry(w, w->c[i]);
	int me_turn = flag(e, "my_turn"), me_window = flag(e, "window"),
	    me_cont = flag(e, "can_continue");
	json_decref(e);

	/* the feed */
	struct h_resp r;
	char tag[64];
	assert_int_equal(h_get(w->c[i], w->feed[i], &r), 0);
	assert_int_equal(r.status, 200);
	snprintf(tag, sizeof tag, "table/%lld/turn/", (long long)w->id);
	int feed_turn = h_has(&r, tag);
	snprintf(tag, sizeof tag, "table/%lld/window/", (long long)w->id);
	int feed_window = h_has(&r, tag);
	snprintf(tag, sizeof tag, "table/%lld/continue/", (long long)w->id);
	int feed_cont = h_has(&r, tag);
	h_resp_free(&r);

	/* the table page: the tab title's count (each person sits at this one
	 * table only) and the alert the poll script announces */
	char path[64];
	snprintf(path, sizeof path, "/t/%lld", (long long)w->id);
	assert_int_equal(h_get(w->c[i], path, &r), 0);
	assert_int_equal(r.status, 200);
	/* (the count follows the alert the title starts with, "Du bist dran! · ") */
	const char *t0 = strstr(r.body, "<title>"), *t1 = t0 ? strstr(t0, "</title>") : NULL;
	const char *c1 = t0 ? strstr(t0, "(1) ") : NULL;
	int title = c1 && c1 < t1;
	int alert_turn = h_has(&r, "data-alert=\"Du bist dran!\"");
	int alert_window = h_has(&r, "data-alert=\"Du kannst eingreifen!\"");
	int alert_cont = h_has(&r, "data-alert=\"Partie vorbei: weiter?\"");
	h_resp_free(&r);

	o = table_json(w, i);
	int changed = it_jint(o, "version", -1) != v || strcmp(it_jstr(o, "asked"), asked) != 0;
	json_decref(o);
	if (changed)
		return 1;
	if (me_turn != turn || me_window != window || me_cont != cont || feed_turn != turn ||
	    feed_window != window || feed_cont != cont || title != any || alert_turn != turn ||
	    alert_window != window || alert_cont != cont)
		fail_msg("table %lld seat of client %d: table asked '%s'; /me turn %d window %d "
			 "continue %d; feed turn %d window %d continue %d; title %d; alert %d %d %d",
			 (long long)w->id, i, asked, me_turn, me_window, me_cont, feed_turn,
			 feed_window, feed_cont, title, alert_turn, alert_window, alert_cont);
	w->checks++;
	w->seen[turn ? 1 : window ? 2 : cont ? 3 : 0]++;
	return 0;
}

/* Every seat agrees (asking again after a deadline passed mid-way); the
 * kinds into kind[] when given. */
static void all_agree(struct walker *w, const char **kind)
{
	static char keep[PLAYERS][16];
	for (int i = 0; i < PLAYERS; i++) {
		const char *k = "";
		int tries = 0;
		while (seat_agrees(w, i, &k) != 0)
			if (++tries >= RETRIES)
				fail_msg("table %lld kept changing under the check", (long long)w->id);
		snprintf(keep[i], sizeof keep[i], "%s", k);
		if (kind)
			kind[i] = keep[i];
	}
}

/* One legal game move of a seat that may act (never "weiter"): 1 moved,
 * 0 nobody may act, -1 the party is over (pausing or finished). */
static int step(struct walker *w)
{
	for (int i = 0; i < PLAYERS; i++) {
		json_t *o = table_json(w, i);
		json_t *pe = json_object_get(o, "party_end");
		if (strcmp(it_jstr(o, "status"), "finished") == 0 || flag(pe, "pausing")) {
			json_decref(o);
			return -1;
		}
		json_t *mv = json_object_get(o, "moves");
		size_t n = json_array_size(mv);
		if (!flag(o, "can_act") || n == 0) {
			json_decref(o);
			continue;
		}
		w->rnd = w->rnd * 6364136223846793005ULL + 1442695040888963407ULL;
		const char *m = it_jstr(json_array_get(mv, (size_t)(w->rnd >> 33) % n), "move");
		long st = it_move(w->c[i], w->id, it_jstr(o, "csrf"), it_jint(o, "version", -1), m);
		json_decref(o);
		if (st != 303 && st != 409)
			fail_msg("table %lld: move '%s': status %ld", (long long)w->id, m, st);
		return 1;
	}
	return 0;
}

/* Waits (polling, bounded) until a deadline nobody can act before passed. */
static void wait_for_deadline(struct walker *w)
{
	double t0 = it_now();
	while (it_now() - t0 < WAIT_SECONDS) {
		json_t *o = table_json(w, 0);
		int64_t v = it_jint(o, "deadline_seconds", 0);
		json_decref(o);
		for (int i = 0; i < PLAYERS; i++) {
			json_t *x = table_json(w, i);
			int can = flag(x, "can_act") || flag(json_object_get(x, "party_end"), "pausing") ||
				  strcmp(it_jstr(x, "status"), "finished") == 0;
			json_decref(x);
			if (can)
				return;
		}
		if (v <= 0 && it_now() - t0 > 2)
			fail_msg("table %lld: nobody may act and no deadline runs", (long long)w->id);
		usleep(100 * 1000);
	}
	fail_msg("table %lld: the deadline did not pass within %d s", (long long)w->id,
		 WAIT_SECONDS);
}

/* Walks the running party, comparing every seat at every step, until it is
 * over; 1 when the table pauses, 0 when it is finished. */
static int walk_party(struct walker *w)
{
	double t0 = it_now();
	for (int n = 0; n < MAX_STEPS && it_now() - t0 < MAX_SECONDS; n++) {
		all_agree(w, NULL);
		int rc = step(w);
		if (rc < 0) {
			json_t *o = table_json(w, 0);
			int pausing = flag(json_object_get(o, "party_end"), "pausing");
			json_decref(o);
			return pausing;
		}
		if (rc == 0)
			wait_for_deadline(w);
	}
	fail_msg("table %lld: the party did not end within the bounds", (long long)w->id);
	return 0;
}

/* The pause: every seat is asked to continue until it did; the last
 * "weiter" deals the next party. */
static void walk_pause(struct walker *w)
{
	const char *kind[PLAYERS];
	all_agree(w, kind);
	for (int i = 0; i < PLAYERS; i++)
		assert_string_equal(kind[i], "continue");
	for (int i = 0; i < PLAYERS; i++) {
		json_t *o = table_json(w, i);
		long st = it_move(w->c[i], w->id, it_jstr(o, "csrf"), it_jint(o, "version", -1),
				  "weiter");
		json_decref(o);
		assert_int_equal(st, 303);
		all_agree(w, kind);
		for (int k = 0; k < PLAYERS && i + 1 < PLAYERS; k++)
			assert_string_equal(kind[k], k <= i ? "" : "continue");
	}
	json_t *o = table_json(w, 0);
	assert_int_equal(it_jint(o, "party_number", 0), 2);
	assert_null(json_object_get(o, "party_end"));
	json_decref(o);
}

/* Issue item 1: a 3-player Drehwurm table, "draw turn" until a snap window
 * opens; the seat whose turn comes next (asked in the window) sees the
 * window on /me as on its table page. */
static void test_snap_window_agrees(void **unused)
{
	(void)unused;
	struct walker w;
	sit_down(&w, "Snap", "drehwurm", "snap_seconds", "600", NULL, NULL);
	int found = 0;
	for (int n = 0; n < 200 && !found; n++) {
		for (int i = 0; i < PLAYERS && !found; i++) {
			json_t *o = table_json(&w, i);
			const char *draw = NULL;
			json_t *mv = json_object_get(o, "moves");
			for (size_t k = 0; k < json_array_size(mv); k++)
				if (!strncmp(it_jstr(json_array_get(mv, k), "move"), "draw turn", 9))
					draw = it_jstr(json_array_get(mv, k), "move");
			if (flag(o, "window_open") && flag(o, "can_act") &&
			    it_jint(o, "turn_seat", -2) == it_jint(o, "my_seat", -1)) {
				/* the next seat, asked in the window */
				json_decref(o);
				json_t *e = me_entry(&w, w.c[i]);
				assert_false(flag(e, "my_turn"));
				assert_true(flag(e, "window"));
				json_decref(e);
				all_agree(&w, NULL);
				found = 1;
			} else if (flag(o, "my_turn") && draw) {
				long st = it_move(w.c[i], w.id, it_jstr(o, "csrf"),
						  it_jint(o, "version", -1), draw);
				json_decref(o);
				assert_int_equal(st, 303);
			} else if (flag(o, "can_act") && flag(o, "window_open")) {
				long st = it_move(w.c[i], w.id, it_jstr(o, "csrf"),
						  it_jint(o, "version", -1), "pass");
				json_decref(o);
				assert_true(st == 303 || st == 409);
			} else {
				json_decref(o);
			}
		}
	}
	assert_true(found);
	leave(&w);
}

/* Issue item 2: the pause after a party asks every seat to continue. */
static void test_pause_asks_to_continue(void **unused)
{
	(void)unused;
	struct walker w;
	sit_down(&w, "Pause", "drehwurm", "snap_seconds", "600", NULL, NULL);
	assert_int_equal(walk_party(&w), 1);
	/* /me's page shows the mark too */
	struct h_resp r;
	assert_int_equal(h_get(w.c[0], "/me", &r), 0);
	assert_true(h_has(&r, "Partie vorbei: weiter?"));
	assert_true(h_has(&r, "<title>Du bist dran! · (1) Meine Tische"));   /* without script too */
	h_resp_free(&r);
	walk_pause(&w);
	leave(&w);
}

/* Issue item 4: the lobby's JSON carries a game's options under
 * games[].table_fields.options (docs/api.md). */
static void test_lobby_options_path(void **unused)
{
	(void)unused;
	struct h_client *c = h_client_new();
	struct h_resp r;
	h_client_accept(c, "application/json");
	assert_int_equal(h_get(c, "/", &r), 0);
	assert_int_equal(r.status, 200);
	json_t *o = json_loads(r.body, 0, NULL);
	h_resp_free(&r);
	assert_non_null(o);
	json_t *gs = json_object_get(o, "games");
	assert_true(json_array_size(gs) >= 5);
	for (size_t k = 0; k < json_array_size(gs); k++) {
		json_t *g = json_array_get(gs, k);
		assert_null(json_object_get(g, "options"));
		json_t *opts = json_object_get(json_object_get(g, "table_fields"), "options");
		assert_true(json_is_array(opts));
		assert_true(json_array_size(opts) > 0);
		assert_true(strlen(it_jstr(json_array_get(opts, 0), "key")) > 0);
	}
	json_decref(o);
	h_client_free(c);
	/* and docs/api.md says so (it used to put them under games[].options) */
	char path[512];
	snprintf(path, sizeof path, "%s/docs/api.md", h_root());
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	static char doc[1 << 18];
	size_t n = fread(doc, 1, sizeof doc - 1, f);
	fclose(f);
	doc[n] = '\0';
	assert_non_null(strstr(doc, "`games[].table_fields.options`"));
	assert_null(strstr(doc, "`games` (with `options`"));
}

/* The walk of one game: a party, then the pause (or the table's end);
 * the party's export replays to its scores. */
static void walk_game(const char *tag, const char *slug, const char *k1, const char *v1,
		      const char *k2, const char *v2)
{
	struct walker w;
	sit_down(&w, tag, slug, k1, v1, k2, v2);
	int pausing = walk_party(&w);
	if (pausing) {
		walk_pause(&w);
	} else {
		const char *kind[PLAYERS];
		all_agree(&w, kind);
		for (int i = 0; i < PLAYERS; i++)
			assert_string_equal(kind[i], "");
	}
	print_message("%s: %d seat checks agree (none %d, turn %d, window %d, continue %d)%s\n",
		      slug, w.checks, w.seen[0], w.seen[1], w.seen[2], w.seen[3],
		      pausing ? ", through the pause" : ", to the end");
	assert_true(w.seen[1] > 0);
	assert_true(!pausing || w.seen[3] > 0);
	assert_int_equal(it_verify_exports(w.c[0], w.id), 1);   /* the party walked, exported */
	leave(&w);
}

static void test_walk_drehwurm(void **unused)
{
	(void)unused;
	walk_game("Dw", "drehwurm", "snap_seconds", "600", NULL, NULL);
}

static void test_walk_worstgame(void **unused)
{
	(void)unused;
	walk_game("Wg", "worstgame", "react_seconds", "600", "parties", "2");
}

static void test_walk_drachenrummy(void **unused)
{
	(void)unused;
	walk_game("Dr", "drachenrummy", "parties", "2", NULL, NULL);
}

static void test_walk_wurfwort(void **unused)
{
	(void)unused;
	walk_game("Ww", "wurfwort", "parties", "2", "answer_seconds", "5");
}

static void test_walk_dna(void **unused)
{
	(void)unused;
	walk_game("Dn", "dna", NULL, NULL, NULL, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lobby_options_path),
		cmocka_unit_test(test_snap_window_agrees),
		cmocka_unit_test(test_pause_asks_to_continue),
		cmocka_unit_test(test_walk_drehwurm),
		cmocka_unit_test(test_walk_worstgame),
		cmocka_unit_test(test_walk_drachenrummy),
		cmocka_unit_test(test_walk_wurfwort),
		cmocka_unit_test(test_walk_dna),
	};
	return cmocka_run_group_tests(tests, it_start, it_stop);
}
