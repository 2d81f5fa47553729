/*
 * test_wurfwort_web.c — Wurf & Wort through real nginx, three players:
 *   - two of them press "Stopp" at the same moment (two threads, the same
 *     page version): exactly one claims the round, the table's version
 *     moves by exactly one step, and the other's press changes nothing;
 *   - a whole party with words typed as players type them (the word alone)
 *     and votes: the log keeps every answer completed with what the server
 *     looked up ("answer haus s=1 w=1"), the table finishes, every party
 *     replays to its snapshot.
 *   - a round nobody called (all pass) shows no caller in the page's table of
 *     rounds while a later round has one (the page looked the running
 *     round's caller up for it: "Kai: " before a round of "kein Wort");
 *   - the page's table of rounds lists in each round's points cell the
 *     seats whose points it changed (as the JSON twin has them), "keine"
 *     for a round that changed none;
 *   - the first word the server looks up, sent at the same moment as a
 *     Drehwurm move at another table: both are answered, and the app's log
 *     shows the dictionaries were read once, by the master before the
 *     workers started, never at a lookup (inside a move's transaction,
 *     where it took 10–22 s and held every other move up); before it, a
 *     word of 21 letters is refused with the limit, and the first word has
 *     20 letters in 36 bytes (the limit counts letters, not bytes);
 * Bounded by MAX_POSTS and MAX_SECONDS.
 */
#include <pthread.h>
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "integration/suite.h"

enum { PLAYERS = 3, MAX_POSTS = 600, MAX_SECONDS = 120 };

static struct h_client *player[PLAYERS];
static const char *names[PLAYERS] = { "Jana", "Kai", "Lene" };
static int64_t table_id;

static int stop(void **state)
{
	(void)state;
	return it_stop_clients(player, PLAYERS);
}

static json_t *view_of(int i)
{
	return it_view(player[i], table_id);
}

static json_t *game_of(json_t *o)
{
	return json_object_get(o, "game");
}

/* Two presses of "Stopp" from pages of the same version, at once. */
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
	p->status = it_move(player[p->seat], table_id, p->csrf, p->v, "stopp");
	return NULL;
}

static void test_simultaneous_stopp(void)
{
	json_t *a = view_of(0), *b = view_of(1);
	long long v = it_jint(a, "version", -1);
	assert_int_equal(v, it_jint(b, "version", -2));
	pthread_barrier_t go;
	pthread_barrier_init(&go, NULL, 2);
	struct press pa = { 0, it_jstr(a, "csrf"), v, &go, 0 }, pb = { 1, it_jstr(b, "csrf"), v, &go, 0 };
	pthread_t ta, tb;
	pthread_create(&ta, NULL, press, &pa);
	pthread_create(&tb, NULL, press, &pb);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	pthread_barrier_destroy(&go);
	assert_true(pa.status == 303 || pa.status == 409);
	assert_true(pb.status == 303 || pb.status == 409);
	json_t *c = view_of(2);
	json_t *g = game_of(c);
	assert_true(json_is_true(json_object_get(g, "answering")));
	long long claimer = it_jint(g, "claimer_seat", -1);
	assert_true(claimer == 0 || claimer == 1);
	/* one stopp (and, before it, the step that started the first clock) */
	long long after = it_jint(c, "version", -1);
	assert_true(after == v + 1 || after == v + 2);
	print_message("wurfwort: seats 0 and 1 pressed Stopp at once: %s (%ld, %ld)\n",
		      claimer == 0 ? "seat 0 claims" : "seat 1 claims", pa.status, pb.status);
	json_decref(a);
	json_decref(b);
	json_decref(c);
}

/* In the first finished party's log: the steps by a seat before the first
 * that is not "stopp" (the simultaneous presses: exactly one was taken). */
static int first_stopps(json_t *o)
{
	json_t *steps = json_object_get(json_array_get(json_object_get(o, "party_logs"), 0), "steps");
	int n = 0;
	for (size_t k = 0; k < json_array_size(steps); k++) {
		json_t *st = json_array_get(steps, k);
		if (it_jint(st, "seat", -1) < 0)
			continue;
		if (strcmp(it_jstr(st, "text"), "stopp") != 0)
			break;
		n++;
	}
	return n;
}

/* The logged text of every finished party's steps that starts with prefix,
 * counted; the one numbered `which` (0: the first) into out (cap bytes). */
static int logged(json_t *o, const char *prefix, int which, char *out, size_t cap)
{
	int n = 0;
	json_t *logs = json_object_get(o, "party_logs");
	out[0] = '\0';
	for (size_t i = 0; i < json_array_size(logs); i++) {
		json_t *steps = json_object_get(json_array_get(logs, i), "steps");
		for (size_t k = 0; k < json_array_size(steps); k++) {
			const char *t = it_jstr(json_array_get(steps, k), "text");
			if (t && strncmp(t, prefix, strlen(prefix)) == 0 && n++ == which)
				snprintf(out, cap, "%s", t);
		}
	}
	return n;
}

/* A word from the list that has the round's required letters and not its
 * forbidden one (as the board shows them), the next one round-robin when
 * none fits: most rounds go to a vote, whatever the table's dice. */
static const char *pick_word(json_t *g, int *round)
{
	static const char *const words[] = {
		"Haus", "Nebel", "Garten", "Fenster", "Tisch", "Hemd", "Blume", "Kirsche",
		"Insel", "Lampe", "Himmel", "Kerze", "Stuhl", "Teppich", "Pflaume", "Salz",
		"Wolke", "Stern", "Tinte", "Brett", "Mantel", "Helm", "Leiter", "Tulpe",
	};
	enum { NW = sizeof words / sizeof words[0] };
	const char *need[3] = { NULL, NULL, NULL };
	if (json_is_true(json_object_get(g, "uses_g1")))
		need[0] = it_jstr(g, "g1_letter");
	if (json_is_true(json_object_get(g, "uses_g2")))
		need[1] = it_jstr(g, "g2_letter");
	if (json_is_true(json_object_get(g, "uses_forbidden")))
		need[2] = it_jstr(g, "forbidden");
	for (int k = 0; k < NW; k++) {
		const char *w = words[(*round + k) % NW];
		int ok = 1;
		for (int i = 0; i < 3; i++) {
			if (!need[i] || !need[i][0])
				continue;
			int has = strchr(w, need[i][0] | 0x20) || strchr(w, need[i][0] & ~0x20);
			ok &= i < 2 ? has : !has;
		}
		if (ok) {
			*round += k + 1;
			return w;
		}
	}
	return words[(*round)++ % NW];
}

/* The app log's lines that contain `needle`, counted. */
static int log_lines(const char *needle)
{
	char path[4096], line[512];
	snprintf(path, sizeof path, "%s/app.log", h_dir());
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	int n = 0;
	while (fgets(line, sizeof line, f))
		if (strstr(line, needle)) {
			n++;
			print_message("wurfwort: %s", line);
		}
	fclose(f);
	return n;
}

/* A move posted from a thread once both threads are ready. */
struct post {
	struct h_client *who;
	int64_t table;
	const char *csrf, *move;
	long long v;
	pthread_barrier_t *go;
	long status;
};

static void *post_move(void *arg)
{
	struct post *p = arg;
	pthread_barrier_wait(p->go);
	p->status = it_move(p->who, p->table, p->csrf, p->v, p->move);
	return NULL;
}

/* The claimer's first word, and at the same moment a Drehwurm move at
 * another table (the same three people): the lexicon was read before the
 * workers started, so neither waits for a file; both are answered. */
static void test_first_word_and_another_table(void)
{
	/* read at start, by the master, once */
	assert_int_equal(log_lines("lexicon: read in"), 1);
	assert_int_equal(log_lines("before the workers start"), 1);
	int64_t other = it_create_table(player[1], "drehwurm", PLAYERS, NULL);
	assert_true(other > 0);
	for (int i = 0; i < PLAYERS; i++)
		if (i != 1)
			assert_int_equal(it_join(player[i], other), 0);
	json_t *w = view_of(0);
	long long claimer = it_jint(game_of(w), "claimer_seat", -1);
	json_decref(w);
	assert_true(claimer >= 0 && claimer < PLAYERS);
	w = view_of((int)claimer);
	json_t *d = NULL;
	int mover = -1;
	for (int i = 0; i < PLAYERS && mover < 0; i++) {
		long st;
		d = it_table_json(player[i], other, &st);
		assert_non_null(d);
		if (json_is_true(json_object_get(d, "can_act")) &&
		    json_array_size(json_object_get(d, "moves")) > 0)
			mover = i;
		else
			json_decref(d);
	}
	assert_true(mover >= 0);
	/* the mover's own second browser: one client is never used by two
	 * threads at once (the mover may be the claimer) */
	json_decref(d);
	struct h_client *second = it_login(names[mover]);
	assert_non_null(second);
	long st;
	d = it_table_json(second, other, &st);
	assert_non_null(d);
	/* a word of 21 letters is refused with the limit, before any lookup */
	char vs[32];
	snprintf(vs, sizeof vs, "%lld", it_jint(w, "version", -1));
	char path[64];
	snprintf(path, sizeof path, "/t/%lld/move", (long long)table_id);
	struct h_resp r;
	assert_int_equal(h_post_form(player[claimer], path, &r, "csrf", it_jstr(w, "csrf"), "v", vs,
				     "move", "Übermäßigkeitsgefühle", NULL), 0);
	assert_int_equal(r.status, 422);
	assert_true(h_has(&r, "ist zu lang: ein Wort hat höchstens 20 Buchstaben."));
	h_resp_free(&r);
	pthread_barrier_t go;
	pthread_barrier_init(&go, NULL, 2);
	/* the first word: 20 letters, 36 bytes (ä, ö, ü, ß count one letter) */
	struct post pw = { player[claimer], table_id, it_jstr(w, "csrf"), "Äöüßäöüßäöüßäöüßabcd",
			   it_jint(w, "version", -1), &go, 0 };
	struct post pd = { second, other, it_jstr(d, "csrf"),
			   it_jstr(json_array_get(json_object_get(d, "moves"), 0), "move"),
			   it_jint(d, "version", -1), &go, 0 };
	pthread_t tw, td;
	pthread_create(&tw, NULL, post_move, &pw);
	pthread_create(&td, NULL, post_move, &pd);
	pthread_join(tw, NULL);
	pthread_join(td, NULL);
	pthread_barrier_destroy(&go);
	print_message("wurfwort: the first word '%s' (%ld) and a drehwurm move '%s' (%ld) at once\n",
		      pw.move, pw.status, pd.move, pd.status);
	assert_int_equal(pw.status, 303);
	assert_int_equal(pd.status, 303);
	json_decref(w);
	json_decref(d);
	h_client_free(second);
	/* the word was looked up, and nobody read the files again for it */
	assert_int_equal(log_lines("lexicon: read in"), 1);
	assert_int_equal(log_lines("at a first lookup"), 0);
}

/* The page's row of round `number` (1-based), as player i sees it: its
 * caller cell (the text after class="ww-said">) into out. */
static void said_in_row(int i, int number, char *out, size_t cap)
{
	char path[64], row[32];
	struct h_resp r;
	snprintf(path, sizeof path, "/t/%lld", (long long)table_id);
	snprintf(row, sizeof row, "<td>%d</td><td>", number);
	assert_int_equal(h_get(player[i], path, &r), 0);
	assert_int_equal(r.status, 200);
	const char *at = strstr(r.body, row), *said = at ? strstr(at, "class=\"ww-said\">") : NULL;
	assert_non_null(said);
	said += strlen("class=\"ww-said\">");
	const char *end = strstr(said, "<span lang=\"de\">");
	assert_non_null(end);
	snprintf(out, cap, "%.*s", (int)(end - said), said);
	h_resp_free(&r);
}

/* Round `nobody` went by without a caller, and the running round has one:
 * the page's row of `nobody` names none (it showed the running round's). */
static void test_nobody_round_row(json_t *o, int i, int nobody)
{
	json_t *rd = json_array_get(json_object_get(game_of(o), "rounds"), (size_t)nobody - 1);
	assert_false(json_is_true(json_object_get(rd, "has_claimer")));
	assert_true(json_is_true(json_object_get(game_of(o), "has_claimer")));
	char said[128];
	said_in_row(i, nobody, said, sizeof said);
	print_message("wurfwort: round %d without a caller, while round %lld has one: \"%s\"\n",
		      nobody, it_jint(game_of(o), "round_number", -1), said);
	assert_string_equal(said, "");
}

/* The points cell of every round in the page's table of rounds, as player
 * i sees it, against the JSON twin's rounds: the seats whose points the
 * round changed, in seat order, each with its name and its points ("−3"),
 * or "keine" for a round that changed nobody's; never a seat's 0 (a row
 * read out or seen on a phone is who scored, not a list of every seat). */
static void test_points_cells(int i, json_t *o)
{
	char path[64];
	struct h_resp r;
	snprintf(path, sizeof path, "/t/%lld", (long long)table_id);
	assert_int_equal(h_get(player[i], path, &r), 0);
	assert_int_equal(r.status, 200);
	const char *table = strstr(r.body, "class=\"ww-rounds\"");
	assert_non_null(table);
	json_t *rounds = json_object_get(game_of(o), "rounds");
	int nobody = 0, scored = 0;
	for (size_t k = 0; k < json_array_size(rounds); k++) {
		json_t *rd = json_array_get(rounds, k), *pts = json_object_get(rd, "points");
		char want[1024] = "", row[32];
		size_t n = 0;
		for (size_t q = 0; q < json_array_size(pts); q++) {
			json_t *pt = json_array_get(pts, q);
			long long val = it_jint(pt, "value", 0);
			if (!val)
				continue;
			n += (size_t)snprintf(want + n, sizeof want - n,
					      "<li><span class=\"ww-pts-name\">%s</span> "
					      "<span class=\"ww-pts\">%s%lld</span></li>",
					      it_jstr(pt, "seat_name"), val < 0 ? "\u2212" : "",
					      val < 0 ? -val : val);
			assert_true(n < sizeof want);
		}
		if (!n)
			snprintf(want, sizeof want, "<li>keine</li>");
		nobody += !n;
		scored += n > 0;
		snprintf(row, sizeof row, "<td>%lld</td><td>", it_jint(rd, "number", -1));
		const char *at = strstr(table, row);
		const char *ul = at ? strstr(at, "<ul class=\"ww-pts-list\">") : NULL;
		assert_non_null(ul);
		ul += strlen("<ul class=\"ww-pts-list\">");
		const char *end = strstr(ul, "</ul>");
		assert_non_null(end);
		if ((size_t)(end - ul) != strlen(want) || memcmp(ul, want, strlen(want)) != 0)
			fail_msg("round %s: the points cell is \"%.*s\", not \"%s\"",
				 row, (int)(end - ul), ul, want);
	}
	print_message("wurfwort: %d rounds with points, %d without, on the page as the twin has them\n",
		      scored, nobody);
	assert_true(scored > 0 && nobody > 0);
	h_resp_free(&r);
}

static void test_wurfwort_through_nginx(void **unused)
{
	(void)unused;
	for (int i = 0; i < PLAYERS; i++)
		assert_non_null(player[i] = it_register(names[i]));
	table_id = it_create_table(player[0], "wurfwort", PLAYERS, NULL);
	assert_true(table_id > 0);
	for (int i = 1; i < PLAYERS; i++)
		assert_int_equal(it_join(player[i], table_id), 0);
	test_simultaneous_stopp();
	test_first_word_and_another_table();

	uint64_t rnd = 99;
	int posts = 0, answers = 0, votes = 0, finished = 0, round = 0, nobody = 0, looked = 0;
	double t0 = it_now();
	while (posts < MAX_POSTS && it_now() - t0 < MAX_SECONDS && !finished) {
		int acted = 0;
		for (int i = 0; i < PLAYERS && !finished; i++) {
			json_t *o = view_of(i), *g = game_of(o);
			if (strcmp(it_jstr(o, "status"), "finished") == 0) {
				finished = 1;
				json_decref(o);
				break;
			}
			if (!json_is_true(json_object_get(o, "can_act"))) {
				json_decref(o);
				continue;
			}
			rnd = rnd * 6364136223846793005ULL + 1442695040888963407ULL;
			const char *m = NULL;
			int number = (int)it_jint(g, "round_number", -1);
			if (json_is_true(json_object_get(g, "race")) && !nobody)
				nobody = number;   /* every seat passes this round */
			if (nobody && number > nobody && !looked &&
			    json_is_true(json_object_get(g, "answering"))) {
				test_nobody_round_row(o, i, nobody);
				looked = 1;
			}
			if (json_is_true(json_object_get(g, "race")))
				m = number == nobody || (rnd >> 40) % 4 == 0 ? "pass" : "stopp";
			else if (json_is_true(json_object_get(g, "answering")))
				m = pick_word(g, &round), answers++;
			else if (json_is_true(json_object_get(g, "voting")))
				/* the first words are voted down: a round with −3 on the page */
				m = answers <= 2 || (rnd >> 40) % 3 == 0 ? "vote down" : "vote up",
				votes++;
			if (m && json_is_true(json_object_get(g, "answering"))) {
				/* the claimer's word field under the card (issue 33):
				 * a composed move, "answer" and the word in arg0 */
				assert_true(json_is_true(json_object_get(g, "word_form")));
				char path[64], vs[32];
				struct h_resp r;
				snprintf(path, sizeof path, "/t/%lld/move", (long long)table_id);
				snprintf(vs, sizeof vs, "%lld", it_jint(o, "version", -1));
				assert_int_equal(h_post_form(player[i], path, &r, "csrf",
							     it_jstr(o, "csrf"), "v", vs, "move",
							     "answer", "arg0", m, NULL), 0);
				assert_true(r.status == 303 || r.status == 409);
				h_resp_free(&r);
				posts++;
				acted = 1;
			} else if (m) {
				long st = it_move(player[i], table_id, it_jstr(o, "csrf"),
						  it_jint(o, "version", -1), m);
				assert_true(st == 303 || st == 409);
				posts++;
				acted = 1;
			}
			json_decref(o);
		}
		if (!acted && !finished) {
			struct timespec ts = { 0, 50 * 1000000L };
			nanosleep(&ts, NULL);
		}
	}
	print_message("wurfwort through nginx: %d moves, %d words, %d votes, %.1f s\n", posts, answers,
		      votes, it_now() - t0);
	assert_true(finished);
	assert_true(answers > 0 && votes > 0);
	assert_true(looked);
	/* the page writes points with the minus sign of the rules ("−3"), as
	 * the rounds table and the scores: never an ASCII "-3" beside it */
	{
		char path[64];
		struct h_resp r;
		snprintf(path, sizeof path, "/t/%lld", (long long)table_id);
		assert_int_equal(h_get(player[1], path, &r), 0);
		assert_int_equal(r.status, 200);
		assert_null(strstr(r.body, "class=\"ww-pts\">-"));
		assert_null(strstr(r.body, "class=\"ww-score\">-"));
		/* (whether a round cost anyone points depends on the deal: where
		 * one did, the cell is "−" and the number) */
		assert_non_null(strstr(r.body, "class=\"ww-pts\">"));
		const char *neg = strstr(r.body, "class=\"ww-pts\">\u2212");
		if (neg)
			assert_true(isdigit((unsigned char)neg[strlen("class=\"ww-pts\">\u2212")]));
		h_resp_free(&r);
	}
	json_t *o = view_of(1);
	test_points_cells(1, o);
	char first[200], second[200];
	int n = logged(o, "answer ", 0, first, sizeof first);
	logged(o, "answer ", 1, second, sizeof second);
	print_message("wurfwort: %d answers logged, the first two: \"%s\", \"%s\"\n", n, first,
		      second);
	assert_true(n > 1);
	assert_int_equal(first_stopps(o), 1);
	/* the 20 letters of 36 bytes as typed (lower case), not in the word list */
	static const char typed[] = "answer äöüßäöüßäöüßäöüßabcd ";
	assert_int_equal(strncmp(first, typed, sizeof typed - 1), 0);
	assert_non_null(strstr(first, " w=0"));
	/* every word of the list has its syllables and is in the word list */
	assert_non_null(strstr(second, " s="));
	assert_non_null(strstr(second, " w=1"));
	json_decref(o);
	/* the dictionaries were read once, before the workers, never at a lookup */
	assert_int_equal(log_lines("lexicon: read in"), 1);
	assert_int_equal(log_lines("at a first lookup"), 0);
	char why[256];
	if (it_verify_table(table_id, why, sizeof why) < 1)
		fail_msg("replay: %s", why);
	assert_true(it_verify_exports(player[0], table_id) >= 1);   /* and the exports */
	assert_int_equal(it_db_integrity(h_db_path(), why, sizeof why), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wurfwort_through_nginx),
	};
	return cmocka_run_group_tests_name("wurfwort through nginx", tests, it_start, stop);
}
