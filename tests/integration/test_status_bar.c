/*
 * test_status_bar.c — the table page's status bar (docs/views.md, "The
 * status bar") through real nginx, as its JSON twin carries it: every seat
 * and a visitor learn whom the party waits for and what they do; a round's
 * deadline counts down in it; over days it shows every seat's clock and the
 * options say that the clocks decide instead of the seconds.
 *
 * (The issue: a Drehwurm player not on turn had no status line at all, and
 * on a phone the clocks were 2,900 px down the page.)
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

static json_t *json_of(struct h_client *c, int64_t id)
{
	long st;
	json_t *o = it_table_json(c, id, &st);
	if (!o)
		fail_msg("table %lld JSON: status %ld", (long long)id, st);
	return o;
}

/* n fresh players named tag0.. at a new table of slug (options after n). */
static int64_t seated(const char *tag, const char *slug, int n, struct h_client **c,
		      const char *k1, const char *v1, const char *k2, const char *v2)
{
	char name[32];
	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof name, "%s%d", tag, i);
		assert_non_null(c[i] = it_register(name));
	}
	int64_t id = it_create_table(c[0], slug, n, k1, v1, k2, v2, NULL);
	assert_true(id > 0);
	for (int i = 1; i < n; i++)
		assert_int_equal(it_join(c[i], id), 0);
	return id;
}

/* A new Drehwurm party's running score is minus the hand ("Punkte jetzt:
 * −5"): the board writes it with a real minus sign (U+2212), and no ASCII
 * "-" stands before a digit in a text of the board. */
static void board_minus_checks(const struct h_resp *r)
{
	const char *dw = strstr(r->body, "<div class=\"dw\">");
	assert_non_null(dw);
	assert_non_null(strstr(dw, "Punkte jetzt: \xe2\x88\x92"));
	assert_null(strstr(dw, "Punkte jetzt: -"));
	for (const char *q = dw + 1; *q; q++)
		if (*q == '-' && q[1] >= '0' && q[1] <= '9' && strchr(" >(:", q[-1]))
			fail_msg("ASCII minus in the board: %.40s", q - 10);
}

/* Drehwurm: the seat on turn reads "Du bist dran: …", the others and a
 * visitor "Warte auf <name>: legen, fressen oder ziehen"; the seat is
 * listed "am Zug"; the tab title of the seat on turn says so without
 * script too. */
static void test_drehwurm_everyone_sees_who_acts(void **unused)
{
	(void)unused;
	struct h_client *c[4];
	int64_t id = seated("sbd", "drehwurm", 3, c, "snap_seconds", "30", NULL, NULL);
	assert_non_null(c[3] = it_register("sbdvisit"));
	json_t *o = json_of(c[0], id);
	int turn = (int)it_jint(o, "turn_seat", -1);
	json_decref(o);
	assert_true(turn >= 0 && turn < 3);
	char want[96], name[32];
	snprintf(name, sizeof name, "sbd%d", turn);
	for (int i = 0; i < 4; i++) {
		o = json_of(c[i], id);
		json_t *b = json_object_get(o, "status_bar");
		assert_non_null(b);
		if (i == turn)
			snprintf(want, sizeof want, "Du bist dran: legen, fressen oder ziehen");
		else
			snprintf(want, sizeof want, "Warte auf %s: legen, fressen oder ziehen", name);
		assert_string_equal(it_jstr(b, "text"), want);
		assert_string_equal(it_jstr(b, "kind"), i == turn ? "turn" : "wait");
		json_t *seats = json_object_get(b, "seats");
		assert_int_equal(json_array_size(seats), 1);
		json_t *s0 = json_array_get(seats, 0);
		assert_string_equal(it_jstr(s0, "name"), name);
		assert_true(json_is_true(json_object_get(s0, "turn")));
		json_decref(o);
	}
	/* the page: the bar above the board, and the title of the seat on turn */
	char path[64];
	snprintf(path, sizeof path, "/t/%lld", (long long)id);
	struct h_resp r;
	assert_int_equal(h_get(c[turn], path, &r), 0);
	assert_int_equal(r.status, 200);
	assert_non_null(strstr(r.body, "<title>Du bist dran! · "));
	const char *bar = strstr(r.body, "class=\"status-bar turn\"");
	assert_non_null(bar);
	assert_true(bar < strstr(r.body, "<div class=\"dw\">"));
	board_minus_checks(&r);
	h_resp_free(&r);
	assert_int_equal(h_get(c[(turn + 1) % 3], path, &r), 0);
	assert_null(strstr(r.body, "<title>Du bist dran!"));
	snprintf(want, sizeof want, "Warte auf %s: legen, fressen oder ziehen", name);
	assert_non_null(strstr(r.body, want));
	h_resp_free(&r);
	for (int i = 0; i < 4; i++)
		h_client_free(c[i]);
}

/* Issue 33, "one status bar for every seat and spectator, in every game":
 * at a new table of each of the five games, every seat and a visitor get
 * the bar (JSON and page, above the board, once) naming who acts and what
 * they do: "Du bist dran: …" for an asked seat, "Warte auf …: …" for the
 * others; the words after the colon are the game's doing(). */
static void test_every_game_every_seat(void **unused)
{
	(void)unused;
	static const char *const slugs[] = { "drehwurm", "dna", "drachenrummy", "wurfwort",
					      "worstgame" };
	struct h_client *c[4];
	char name[16], path[64];
	for (int i = 0; i < 4; i++) {   /* three players at every table, a visitor */
		snprintf(name, sizeof name, i < 3 ? "sbe%d" : "sbevisit", i);
		assert_non_null(c[i] = it_register(name));
	}
	for (size_t g = 0; g < sizeof slugs / sizeof slugs[0]; g++) {
		int64_t id = it_create_table(c[0], slugs[g], 3, NULL);
		assert_true(id > 0);
		for (int i = 1; i < 3; i++)
			assert_int_equal(it_join(c[i], id), 0);
		snprintf(path, sizeof path, "/t/%lld", (long long)id);
		for (int i = 0; i < 4; i++) {
			json_t *o = json_of(c[i], id);
			json_t *b = json_object_get(o, "status_bar");
			assert_non_null(b);
			const char *text = it_jstr(b, "text"), *kind = it_jstr(b, "kind");
			const char *doing = it_jstr(b, "doing");
			if (!*doing)
				fail_msg("%s seat %d: no doing in \"%s\"", slugs[g], i, text);
			int asked = strcmp(kind, "wait") != 0;
			if (asked ? strncmp(text, "Du bist dran: ", 14) != 0 && !strstr(text, "dich")
				  : strncmp(text, "Warte auf ", 10) != 0)
				fail_msg("%s seat %d (%s): \"%s\"", slugs[g], i, kind, text);
			if (!strstr(text, doing))
				fail_msg("%s seat %d: \"%s\" does not say \"%s\"", slugs[g], i, text, doing);
			assert_true(json_array_size(json_object_get(b, "seats")) >= 1);
			assert_false(i == 3 && asked);
			json_decref(o);
			struct h_resp r;
			assert_int_equal(h_get(c[i], path, &r), 0);
			assert_int_equal(r.status, 200);
			const char *bar = strstr(r.body, "class=\"status-bar ");
			assert_non_null(bar);
			assert_null(strstr(bar + 1, "class=\"status-bar "));
			assert_true(bar < strstr(r.body, "<section class=\"board\""));
			h_resp_free(&r);
		}
	}
	for (int i = 0; i < 4; i++)
		h_client_free(c[i]);
}

/* Wurf & Wort: the round waits for everyone, with its countdown. */
static void test_wurfwort_round_counts_down(void **unused)
{
	(void)unused;
	struct h_client *c[3];
	int64_t id = seated("sbw", "wurfwort", 3, c, "round_seconds", "60", NULL, NULL);
	json_t *o = json_of(c[1], id);
	json_t *b = json_object_get(o, "status_bar");
	assert_non_null(b);
	assert_string_equal(it_jstr(b, "text"), "Warte auf sbw0, dich, sbw2: ein passendes Wort suchen "
						"und „Stopp“ rufen");
	json_t *cd = json_object_get(b, "countdown");
	assert_int_equal(json_array_size(cd), 1);
	long long secs = it_jint(json_array_get(cd, 0), "seconds", 0);
	assert_true(secs > 50 && secs <= 60);
	json_decref(o);
	for (int i = 0; i < 3; i++)
		h_client_free(c[i]);
}

/* Over days: every seat's clock in the bar, no game countdown, and the
 * options line says the clock decides instead of "30 s". */
static void test_over_days_clocks_in_the_bar(void **unused)
{
	(void)unused;
	struct h_client *c[3];
	char name[32];
	for (int i = 0; i < 3; i++) {
		snprintf(name, sizeof name, "sbo%d", i);
		assert_non_null(c[i] = it_register(name));
	}
	int64_t id = it_create_table(c[0], "drehwurm", 3, "snap_seconds", "30", "speed", "days",
				     "clock_days", "3", "move_hours", "12", NULL);
	assert_true(id > 0);
	for (int i = 1; i < 3; i++)
		assert_int_equal(it_join(c[i], id), 0);
	json_t *o = json_of(c[0], id);
	json_t *b = json_object_get(o, "status_bar");
	assert_non_null(b);
	assert_true(json_is_true(json_object_get(b, "has_clocks")));
	assert_int_equal(json_array_size(json_object_get(b, "countdown")), 0);
	json_t *seats = json_object_get(b, "seats");
	assert_int_equal(json_array_size(seats), 3);
	int running = 0;
	for (size_t i = 0; i < 3; i++) {
		json_t *s = json_array_get(seats, i);
		assert_string_equal(it_jstr(s, "clock"), i == (size_t)it_jint(o, "turn_seat", -1) ?
							      it_jstr(s, "clock") : "3\xc2\xa0Tage");
		running += json_is_true(json_object_get(s, "clock_running"));
	}
	assert_int_equal(running, 1);
	json_t *opts = json_object_get(o, "opts");
	assert_string_equal(it_jstr(json_array_get(opts, 0), "text"),
			    "so lange die Uhr des Platzes reicht");
	json_decref(o);
	for (int i = 0; i < 3; i++)
		h_client_free(c[i]);
}

/* DNA with a time limit per move: when the limit passes, the seats read
 * "Die Frist ist abgelaufen. Du bist dran!", and a countdown in that line
 * is the new limit's, saying so ("neue Frist"), never a bare "noch 2 s"
 * after "abgelaufen". (The issue: "Die Frist ist abgelaufen. Du bist
 * dran! Noch 31 s.") */
static void test_expired_line_names_the_new_deadline(void **unused)
{
	(void)unused;
	struct h_client *c[2];
	int64_t id = seated("sbx", "dna", 2, c, "turn_seconds", "2", NULL, NULL);
	char path[64];
	snprintf(path, sizeof path, "/t/%lld", (long long)id);
	int seen = 0;
	double t0 = it_now();
	for (int step = 0; step < 200 && !seen && it_now() - t0 < 30; step++) {
		for (int i = 0; i < 2 && !seen; i++) {
			json_t *o = json_of(c[i], id);
			int expired = json_is_true(json_object_get(o, "window_expired")) &&
				      json_is_true(json_object_get(o, "my_turn"));
			json_decref(o);
			if (!expired)
				continue;
			struct h_resp r;
			assert_int_equal(h_get(c[i], path, &r), 0);
			/* every line that says a deadline passed */
			for (const char *at = strstr(r.body, "Die Frist ist abgelaufen"); at;
			     at = strstr(at + 1, "Die Frist ist abgelaufen")) {
				const char *end = strstr(at, "</p>");
				assert_non_null(end);
				char line[1024];
				snprintf(line, sizeof line, "%.*s", (int)(end - at), at);
				assert_null(strstr(line, "Noch <span"));
				assert_null(strstr(line, ">noch <span"));
				if (strstr(line, "data-countdown"))
					assert_non_null(strstr(line, "eue Frist: noch <span"));
				seen = 1;
			}
			/* the new limit runs, and the bar's countdown says it is a new one */
			assert_true(!seen || strstr(r.body, "\xc2\xb7 neue Frist: noch <span"));
			h_resp_free(&r);
		}
		if (!seen) {   /* until the running limit passes */
			json_t *o = json_of(c[0], id);
			it_wait_deadline(o, 3000);
			json_decref(o);
		}
	}
	assert_true(seen);
	for (int i = 0; i < 2; i++)
		h_client_free(c[i]);
}

/* Drehwurm live with a time per move: when a snap window runs out, the
 * seat on turn reads "Die Frist ist abgelaufen. Du bist dran: …" while its
 * own move's time runs at its clock; no countdown follows in that line
 * unless it is the new deadline's and says so ("neue Frist"). (The issue, word for word: "Die Frist ist
 * abgelaufen. Du bist dran! Noch 31 s.") */
static void test_window_expired_then_move_clock(void **unused)
{
	(void)unused;
	struct h_client *c[3];
	int64_t id = seated("sbm", "drehwurm", 3, c, "snap_seconds", "2", "move_seconds", "600");
	char path[64];
	snprintf(path, sizeof path, "/t/%lld", (long long)id);
	uint64_t rnd = 7;
	int seen = 0;
	double t0 = it_now();
	for (int step = 0; step < 400 && !seen && it_now() - t0 < 90; step++) {
		json_t *o = json_of(c[0], id);
		int open = json_is_true(json_object_get(o, "window_open"));
		if (open) {   /* nobody answers: until the window runs out */
			it_wait_deadline(o, 3000);
			json_decref(o);
			for (int i = 0; i < 3 && !seen; i++) {
				json_t *q = json_of(c[i], id);
				int mine = json_is_true(json_object_get(q, "my_turn")) &&
					   json_is_true(json_object_get(q, "window_expired"));
				json_decref(q);
				if (!mine)
					continue;
				struct h_resp r;
				assert_int_equal(h_get(c[i], path, &r), 0);
				const char *at = strstr(r.body, "Die Frist ist abgelaufen. Du bist dran");
				assert_non_null(at);
				const char *end = strstr(at, "</p>");
				assert_non_null(end);
				char line[1024];
				snprintf(line, sizeof line, "%.*s", (int)(end - at), at);
				assert_null(strstr(line, "Noch <span"));
				assert_null(strstr(line, ">noch <span"));
				if (strstr(line, "data-countdown"))
					assert_non_null(strstr(line, "eue Frist: noch <span"));
				/* the move's own time counts down at the seat's clock */
				assert_non_null(strstr(r.body, "clock running"));
				h_resp_free(&r);
				seen = 1;
			}
			continue;
		}
		json_decref(o);
		int rc = it_one_move(c, 3, id, &rnd);
		assert_true(rc >= 0);
	}
	assert_true(seen);
	for (int i = 0; i < 3; i++)
		h_client_free(c[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drehwurm_everyone_sees_who_acts),
		cmocka_unit_test(test_every_game_every_seat),
		cmocka_unit_test(test_wurfwort_round_counts_down),
		cmocka_unit_test(test_over_days_clocks_in_the_bar),
		cmocka_unit_test(test_expired_line_names_the_new_deadline),
		cmocka_unit_test(test_window_expired_then_move_clock),
	};
	return cmocka_run_group_tests_name("the status bar", tests, start, stop);
}
