/*
 * test_tourney_fair_web.c — tournaments that end right and share byes
 * fairly, and clocks that keep their word, through real nginx. The tables
 * of a round are finished by their players letting a bot play for them
 * (their results count as their own), so a round takes a second or two.
 *   - an elimination of 10 at tables of 4 (4 at least), 2 going on, ends
 *     only when one table holds everyone still in (the byes play the
 *     final), and its standings follow how far each got, then the final;
 *   - groups of 9 at tables of 4 (4 at least): the bye goes round, nobody
 *     has a second before everyone had one; groups of 9 at tables of 4 (3
 *     at least) where a withdrawal leaves a group of 2: it is merged and
 *     nobody sits out;
 *   - a Swiss of 13 at tables of 6 (3 at least): 6, 4, 3 (the shortfall
 *     from as few tables as possible), and every round's repeat pairs and
 *     their meetings are the fewest possible (checked by trying every
 *     seating);
 *   - a tournament started early shows the time it did start;
 *   - over days, a timeout leaves the seat the time per move (not twice),
 *     and the JSON twin's deadline is the running clock's end;
 *   - a seat a bot held from the start and a person claimed: the match
 *     stays unrated.
 * Every wait is bounded in requests and seconds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "integration/suite.h"

enum { PLAYERS = 13, MAX_TABLES = 8, MAX_ROWS = 400, WAIT_GETS = 400, WAIT_SECONDS = 120 };
#define DAY_SECONDS "2"

static struct h_client *player[PLAYERS];
static char names[PLAYERS][16];
static struct h_client *org;

static int start(void **state)
{
	(void)state;
	setenv("SPIELTISCH_DAY_SECONDS", DAY_SECONDS, 1);
	if (h_start() != 0)
		return -1;
	org = it_register("Veranstalterin");
	for (int i = 0; i < PLAYERS; i++) {
		snprintf(names[i], sizeof names[i], "Spielerin%02d", i + 1);
		player[i] = it_register(names[i]);
		if (!player[i] || !org)
			return -1;
	}
	return 0;
}

static int stop(void **state)
{
	(void)state;
	for (int i = 0; i < PLAYERS; i++)
		h_client_free(player[i]);
	h_client_free(org);
	h_stop();
	return 0;
}

static void pause_briefly(void)
{
	struct timespec ts = { 0, 50 * 1000000L };
	nanosleep(&ts, NULL);
}

static int player_of(const char *name)
{
	for (int i = 0; i < PLAYERS; i++)
		if (strcmp(names[i], name) == 0)
			return i;
	return -1;
}

/* A Drehwurm tournament by org, live without a clock: its id. */
static int64_t create(const char *name, const char *format, const char *seats,
		      const char *min_seats, const char *rounds, const char *advance)
{
	char csrf[128], loc[128];
	struct h_resp r;
	assert_int_equal(it_csrf(org, "/tournaments/new?game=drehwurm", csrf, sizeof csrf), 0);
	assert_int_equal(h_post_form(org, "/tournaments", &r, "csrf", csrf, "game", "drehwurm",
				     "name", name, "format", format, "seats", seats, "min_seats",
				     min_seats, "rounds", rounds, "start_minutes", "60",
				     "snap_seconds", "2", "speed", "live", "move_seconds", "0",
				     advance ? "advance" : NULL, advance, NULL), 0);
	assert_int_equal(r.status, 303);
	assert_int_equal(h_header(&r, "Location", loc, sizeof loc), 0);
	h_resp_free(&r);
	return strtoll(loc + 13, NULL, 10);
}

static long tpost(struct h_client *c, int64_t id, const char *what)
{
	char path[64], csrf[128];
	struct h_resp r;
	snprintf(path, sizeof path, "/tournaments/%lld", (long long)id);
	assert_int_equal(it_csrf(c, path, csrf, sizeof csrf), 0);
	snprintf(path, sizeof path, "/tournaments/%lld%s", (long long)id, what);
	assert_int_equal(h_post_form(c, path, &r, "csrf", csrf, NULL), 0);
	long st = r.status;
	h_resp_free(&r);
	return st;
}

static json_t *tjson(int64_t id)
{
	char path[64];
	struct h_resp r;
	snprintf(path, sizeof path, "/tournaments/%lld.json", (long long)id);
	assert_int_equal(h_get(org, path, &r), 0);
	assert_int_equal(r.status, 200);
	json_t *o = json_loads(r.body, 0, NULL);
	h_resp_free(&r);
	assert_non_null(o);
	return o;
}

/* Players 0..n-1 register, org starts it. */
static void fill_and_start(int64_t id, int n)
{
	for (int i = 0; i < n; i++)
		assert_int_equal(tpost(player[i], id, "/register"), 303);
	assert_int_equal(tpost(org, id, "/start"), 303);
}

/* The newest round's tables: ids and players; their number. */
static int round_tables(json_t *t, int64_t *ids, int who[][8], int *size)
{
	json_t *tables = json_object_get(json_array_get(json_object_get(t, "rounds"), 0), "tables");
	int n = (int)json_array_size(tables);
	assert_true(n <= MAX_TABLES);
	for (int k = 0; k < n; k++) {
		json_t *x = json_array_get(tables, (size_t)k), *ps = json_object_get(x, "players");
		ids[k] = strtoll(it_jstr(x, "url") + 3, NULL, 10);
		size[k] = (int)json_array_size(ps);
		for (int s = 0; s < size[k]; s++) {
			who[k][s] = player_of(it_jstr(json_array_get(ps, (size_t)s), "name"));
			assert_true(who[k][s] >= 0);
		}
	}
	return n;
}

/* Waits until table id is finished (bounded); 0, or -1. */
static int wait_finished(struct h_client *c, int64_t id)
{
	double t0 = it_now();
	for (int k = 0; k < WAIT_GETS && it_now() - t0 < WAIT_SECONDS; k++) {
		long status;
		json_t *o = it_table_json(c, id, &status);
		int over = o && strcmp(it_jstr(o, "status"), "finished") == 0;
		json_decref(o);
		if (over)
			return 0;
		pause_briefly();
	}
	return -1;
}

/* Every table of the newest round played to its end by bots standing in
 * for its players; `quit` (>= 0) withdraws from the tournament first. The
 * round's number. */
static int finish_round(int64_t id, int quit)
{
	int64_t ids[MAX_TABLES];
	int who[MAX_TABLES][8], size[MAX_TABLES];
	json_t *t = tjson(id);
	assert_string_equal(it_jstr(t, "status"), "running");
	int round = (int)it_jint(t, "round", 0), n = round_tables(t, ids, who, size);
	json_decref(t);
	if (quit >= 0)
		assert_int_equal(tpost(player[quit], id, "/withdraw"), 303);
	for (int k = 0; k < n; k++)
		for (int s = 0; s < size[k]; s++)
			if (who[k][s] != quit)
				assert_int_equal(it_post_table(player[who[k][s]], ids[k], "/seat", "act",
							       "bot", NULL, 0), 303);
	for (int k = 0; k < n; k++)
		assert_int_equal(wait_finished(player[who[k][0]], ids[k]), 0);
	/* the parties, played by bots standing in, replay from their exports */
	for (int k = 0; k < n; k++)
		assert_true(it_verify_exports(player[who[k][0]], ids[k]) >= 1);
	return round;
}

/* One row of results.csv; table -1 for a bye. */
struct row {
	int round, table, place, points, player;
};

/* Field k (0-based) of a CSV line as a number; def when empty. */
static int field(const char *line, int k, int def)
{
	for (int i = 0; i < k; i++) {
		line = strchr(line, ',');
		if (!line)
			return def;
		line++;
	}
	return *line && *line != ',' && *line != '\n' ? (int)strtol(line, NULL, 10) : def;
}

static int read_results(int64_t id, struct row *out)
{
	char path[80];
	struct h_resp r;
	int n = 0;
	snprintf(path, sizeof path, "/tournaments/%lld/results.csv", (long long)id);
	assert_int_equal(h_get(org, path, &r), 0);
	assert_int_equal(r.status, 200);
	for (char *line = strchr(r.body, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
		char name[32];
		const char *l = line + 1, *c = l;
		for (int i = 0; i < 4 && c; i++)
			c = strchr(c, ',') ? strchr(c, ',') + 1 : NULL;
		assert_non_null(c);
		size_t len = strcspn(c, ",");
		assert_true(len < sizeof name);
		memcpy(name, c, len);
		name[len] = '\0';
		assert_true(n < MAX_ROWS);
		out[n] = (struct row){ field(l, 0, 0), field(l, 1, 0) - 1, field(l, 5, 0),
				       field(l, 6, 0), player_of(name) };
		assert_true(out[n].player >= 0);
		n++;
	}
	h_resp_free(&r);
	return n;
}

/* ---- an elimination ends when one table holds everyone still in ---- */

static void test_elimination_final_holds_everyone(void **unused)
{
	(void)unused;
	struct row rows[MAX_ROWS];
	int64_t id = create("K.-o. mit Freilosen", "elimination", "4", "4", "5", "2");
	fill_and_start(id, 10);
	int rounds = 0;
	for (int k = 0; k < 5; k++) {
		json_t *t = tjson(id);
		int running = strcmp(it_jstr(t, "status"), "running") == 0;
		json_decref(t);
		if (!running)
			break;
		rounds = finish_round(id, -1);
	}
	json_t *t = tjson(id);
	assert_string_equal(it_jstr(t, "status"), "finished");
	int n = read_results(id, rows), byes[PLAYERS] = { 0 }, last_tables = 0, last_byes = 0;
	int final_table = -1, final_tables = 0;
	/* 10: 2 tables + 2 byes; 6: 1 table + 2 byes; 4: the final (a tie at a
	 * cut sends one more on, and the final may come a round later, at a
	 * table of 3) */
	assert_true(rounds >= 3);
	for (int i = 0; i < n; i++) {
		if (rows[i].table < 0) {
			byes[rows[i].player]++;
			assert_int_equal(byes[rows[i].player], 1);   /* nobody a second */
		}
		if (rows[i].round == rounds) {
			last_byes += rows[i].table < 0;
			last_tables += rows[i].table >= 0;
			if (rows[i].table >= 0 && rows[i].table != final_table)
				final_table = rows[i].table, final_tables++;
		}
	}
	/* round 1 on the page (its byes and its tables' results come in one
	 * read): its 2 tables of 4, each with its 4 players by place, and its 2 byes */
	char path[80];
	struct h_resp r;
	snprintf(path, sizeof path, "/tournaments/%lld.json?round=1", (long long)id);
	assert_int_equal(h_get(org, path, &r), 0);
	assert_int_equal(r.status, 200);
	json_t *o = json_loads(r.body, 0, NULL), *r1 = json_array_get(json_object_get(o, "rounds"), 0);
	h_resp_free(&r);
	assert_non_null(r1);
	assert_int_equal(it_jint(r1, "round", -1), 1);
	assert_int_equal(json_array_size(json_object_get(r1, "byes")), 2);
	json_t *tables = json_object_get(r1, "tables");
	assert_int_equal(json_array_size(tables), 2);
	for (size_t k = 0; k < 2; k++) {
		json_t *ps = json_object_get(json_array_get(tables, k), "players");
		assert_int_equal(json_array_size(ps), 4);
		for (long long i = 0, prev = 1; i < 4; i++) {   /* by place (a tie shares one) */
			long long place = it_jint(json_array_get(ps, (size_t)i), "place", -1);
			assert_true(place >= prev && place <= i + 1);
			prev = place;
		}
	}
	json_decref(o);
	/* the last round is one table that holds everyone still in */
	assert_int_equal(last_byes, 0);
	assert_int_equal(final_tables, 1);
	assert_true(last_tables >= 3 && last_tables <= 4);
	/* the standings: the final's places first, in order, then those out
	 * in round 2, then round 1 */
	json_t *st = json_object_get(t, "standings");
	assert_int_equal(json_array_size(st), 10);
	int prev_reach = 99, prev_final = 0;
	for (size_t k = 0; k < json_array_size(st); k++) {
		int p = player_of(it_jstr(json_array_get(st, k), "name")), reach = 0, final = 9;
		for (int i = 0; i < n; i++)
			if (rows[i].player == p) {
				reach = rows[i].round > reach ? rows[i].round : reach;
				if (rows[i].round == rounds)
					final = rows[i].place;
			}
		assert_true(reach <= prev_reach);
		if (reach == rounds)
			assert_true(final >= prev_final);
		if (k == 0)
			assert_int_equal(final, 1);
		prev_reach = reach;
		prev_final = final;
	}
	print_message("elimination of 10 at tables of 4, 2 on: %d rounds, the final of 4 last\n",
		      rounds);
	json_decref(t);
}

/* ---- groups: the bye goes round; a group too small is merged ---- */

static void test_groups_byes_go_round(void **unused)
{
	(void)unused;
	struct row rows[MAX_ROWS];
	int64_t id = create("Gruppen zu neunt", "groups", "4", "4", "4", NULL);
	fill_and_start(id, 9);
	for (int r = 1; r <= 4; r++)
		assert_int_equal(finish_round(id, -1), r);
	json_t *t = tjson(id);
	assert_string_equal(it_jstr(t, "status"), "finished");
	json_decref(t);
	int n = read_results(id, rows), byes[PLAYERS] = { 0 }, per_round[5] = { 0 }, most = 0;
	for (int i = 0; i < n; i++)
		if (rows[i].table < 0) {
			byes[rows[i].player]++;
			per_round[rows[i].round]++;
			most = byes[rows[i].player] > most ? byes[rows[i].player] : most;
		}
	for (int r = 1; r <= 4; r++)
		assert_int_equal(per_round[r], 1);
	assert_int_equal(most, 1);   /* 4 byes, 4 different players */
	print_message("groups of 9 at tables of 4: 4 rounds, 4 byes, %d at most for one player\n",
		      most);
}

static void test_groups_small_group_merged(void **unused)
{
	(void)unused;
	struct row rows[MAX_ROWS];
	int64_t id = create("Gruppen mit Abmeldung", "groups", "4", "3", "3", NULL);
	fill_and_start(id, 9);
	json_t *t = tjson(id);
	int64_t ids[MAX_TABLES];
	int who[MAX_TABLES][8], size[MAX_TABLES];
	assert_int_equal(round_tables(t, ids, who, size), 3);   /* 3, 3, 3 */
	json_decref(t);
	int quit = who[2][0];
	finish_round(id, quit);   /* a group of 2 is left */
	for (int r = 2; r <= 3; r++) {
		t = tjson(id);
		assert_int_equal(it_jint(t, "round", 0), r);
		int nt = round_tables(t, ids, who, size);
		json_decref(t);
		assert_int_equal(nt, 2);
		assert_int_equal(size[0] + size[1], 8);
		finish_round(id, -1);
	}
	int n = read_results(id, rows), byes = 0;
	for (int i = 0; i < n; i++)
		byes += rows[i].table < 0;
	assert_int_equal(byes, 0);
}

/* ---- Swiss: the fewest repeats there are ---- */

struct best {
	int n, who[PLAYERS], sizes[MAX_TABLES], ntables;
	unsigned char met[PLAYERS][PLAYERS];
	int table[PLAYERS], count[MAX_TABLES];
	int br, bm, r, m;
};

/* Every seating of the round's players into its table sizes (the
 * first free table of a size only, so equal tables are not counted twice
 * over), cut off when it cannot beat the best. */
static void try_all(struct best *b, int k)
{
	if (b->r > b->br || (b->r == b->br && b->m >= b->bm))
		return;
	if (k == b->n) {
		b->br = b->r;
		b->bm = b->m;
		return;
	}
	for (int t = 0; t < b->ntables; t++) {
		if (b->count[t] == b->sizes[t])
			continue;
		int twin = 0;   /* an empty table of the same size before this one */
		for (int u = 0; u < t; u++)
			twin |= b->count[u] == 0 && b->count[t] == 0 && b->sizes[u] == b->sizes[t];
		if (twin)
			continue;
		int dr = 0, dm = 0;
		for (int j = 0; j < k; j++)
			if (b->table[j] == t) {
				int m = b->met[b->who[k]][b->who[j]];
				dr += m > 0;
				dm += m;
			}
		b->table[k] = t;
		b->count[t]++;
		b->r += dr;
		b->m += dm;
		try_all(b, k + 1);
		b->r -= dr;
		b->m -= dm;
		b->count[t]--;
		b->table[k] = -1;
	}
}

/* The repeat pairs and their meetings of round `round` as seated, and
 * the fewest possible (*best_r, *best_m), from the results. */
static void round_repeats(const struct row *rows, int n, int round, int *r, int *m, int *best_r,
			  int *best_m)
{
	static struct best b;
	memset(&b, 0, sizeof b);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			if (i != j && rows[i].round < round && rows[i].round == rows[j].round &&
			    rows[i].table >= 0 && rows[i].table == rows[j].table)
				b.met[rows[i].player][rows[j].player]++;
	*r = *m = 0;
	for (int i = 0; i < n; i++) {
		if (rows[i].round != round || rows[i].table < 0)
			continue;
		b.who[b.n++] = rows[i].player;
		b.ntables = rows[i].table + 1 > b.ntables ? rows[i].table + 1 : b.ntables;
		b.sizes[rows[i].table]++;
		for (int j = 0; j < i; j++)
			if (rows[j].round == round && rows[j].table == rows[i].table) {
				int x = b.met[rows[i].player][rows[j].player];
				*r += x > 0;
				*m += x;
			}
	}
	for (int k = 0; k < b.n; k++)
		b.table[k] = -1;
	b.br = *r;
	b.bm = *m + 1;   /* so that a seating as good as the server's is found */
	try_all(&b, 0);
	*best_r = b.br;
	*best_m = b.bm;
}

static void test_swiss_fewest_repeats(void **unused)
{
	(void)unused;
	struct row rows[MAX_ROWS];
	int64_t id = create("Swiss zu dreizehnt", "swiss", "6", "3", "4", NULL);
	fill_and_start(id, PLAYERS);
	json_t *t = tjson(id);
	int64_t ids[MAX_TABLES];
	int who[MAX_TABLES][8], size[MAX_TABLES];
	/* 5 seats short: from as few tables as possible, 6, 4, 3 */
	assert_int_equal(round_tables(t, ids, who, size), 3);
	json_decref(t);
	assert_int_equal(size[0], 6);
	assert_int_equal(size[1], 4);
	assert_int_equal(size[2], 3);
	for (int r = 1; r <= 4; r++)
		finish_round(id, -1);
	int n = read_results(id, rows);
	for (int round = 2; round <= 4; round++) {
		int rp, m, br, bm;
		round_repeats(rows, n, round, &rp, &m, &br, &bm);
		print_message("Swiss of 13 at 6 (3): round %d: %d repeat pairs, %d meetings before; "
			      "the fewest possible %d and %d\n", round, rp, m, br, bm);
		assert_int_equal(rp, br);
		assert_int_equal(m, bm);
	}
}

/* ---- started early: the start shown is when it started ---- */

static void test_started_early_shows_start(void **unused)
{
	(void)unused;
	int64_t id = create("Frühstart", "swiss", "3", "3", "1", NULL);
	json_t *t = tjson(id);
	char planned[64];
	snprintf(planned, sizeof planned, "%s", it_jstr(t, "starts"));
	json_decref(t);
	fill_and_start(id, 3);
	t = tjson(id);
	assert_string_not_equal(it_jstr(t, "starts"), planned);
	/* the page's time (minutes) is now's: the planned one was an hour on */
	time_t now = time(NULL);
	char hm[8], hm2[8];
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(hm, sizeof hm, "%H:%M", &tm);
	now += 60;
	gmtime_r(&now, &tm);
	strftime(hm2, sizeof hm2, "%H:%M", &tm);
	const char *starts = it_jstr(t, "starts");
	assert_true(strstr(starts, hm) || strstr(starts, hm2));
	json_decref(t);
}

/* ---- clocks over days ---- */

/* Seat s's object in table JSON o. */
static json_t *seat_of(json_t *o, int s)
{
	return json_array_get(json_object_get(o, "seats"), (size_t)s);
}

static void test_timeout_leaves_time_per_move(void **unused)
{
	(void)unused;
	/* a day of 2 s: 1 day to start with, 1 hour (83 ms) per move */
	int64_t id = it_create_table(player[0], "drehwurm", 3, "snap_seconds", "3", "speed", "days",
				     "clock_days", "1", "move_hours", "1", "timeouts", "3", NULL);
	assert_true(id > 0);
	for (int i = 1; i < 3; i++)
		assert_int_equal(it_join(player[i], id), 0);
	long status;
	json_t *o;
	double t0 = it_now();
	json_t *out = NULL;
	for (int k = 0; k < WAIT_GETS && it_now() - t0 < 30 && !out; k++) {
		o = it_table_json(player[0], id, &status);
		assert_non_null(o);
		for (int s = 0; s < 3 && !out; s++)
			if (it_jint(seat_of(o, s), "timeouts", 0) > 0)
				out = json_incref(seat_of(o, s));
		json_decref(o);
		if (!out)
			pause_briefly();
	}
	assert_non_null(out);
	long long left = it_jint(out, "clock_left_ms", -1);
	print_message("over days (83 ms per move): after a timeout the seat holds %lld ms\n", left);
	assert_true(left > 0 && left <= 2000 / 24);
	json_decref(out);
}

static void test_days_deadline_in_json(void **unused)
{
	(void)unused;
	int64_t id = it_create_table(player[6], "drehwurm", 3, "snap_seconds", "3", "speed", "days",
				     "clock_days", "1", "move_hours", "1", NULL);
	assert_true(id > 0);
	for (int i = 7; i < 9; i++)
		assert_int_equal(it_join(player[i], id), 0);
	long status;
	json_t *o = it_table_json(player[6], id, &status);
	/* the JSON's deadline is the running clock's end (a day: 2 s), not 0 */
	long long deadline = it_jint(o, "deadline", 0), now_ms = (long long)time(NULL) * 1000;
	assert_true(deadline > now_ms - 1000 && deadline <= now_ms + 3500);
	json_decref(o);
}

/* ---- claiming a bot's seat ---- */

static void test_claimed_bot_seat_unrated(void **unused)
{
	(void)unused;
	struct h_client *a = player[3], *b = player[4], *c = player[5];
	int64_t id = it_create_table(a, "drehwurm", 3, "snap_seconds", "2", NULL);
	assert_true(id > 0);
	assert_int_equal(it_join(b, id), 0);
	assert_int_equal(it_post_table(a, id, "/bot", "level", "greedy", NULL, 0), 303);
	/* the bot's seat is 2; c claims it during the first party */
	char path[64], csrf[128];
	struct h_resp r;
	snprintf(path, sizeof path, "/t/%lld", (long long)id);
	assert_int_equal(it_csrf(c, path, csrf, sizeof csrf), 0);
	snprintf(path, sizeof path, "/t/%lld/seat", (long long)id);
	assert_int_equal(h_post_form(c, path, &r, "csrf", csrf, "act", "claim", "seat", "2", NULL),
			 0);
	assert_int_equal(r.status, 303);
	h_resp_free(&r);
	struct h_client *who[3] = { a, b, c };
	uint64_t rnd = 7;
	double t0 = it_now();
	int moves = 0, res = 0;
	while (moves < 6000 && it_now() - t0 < WAIT_SECONDS && (res = it_one_move(who, 3, id, &rnd)) >= 0) {
		assert_int_not_equal(res, -2);
		moves += res;
		if (res == 0)
			pause_briefly();
	}
	assert_int_equal(res, -1);
	long status;
	json_t *o = it_table_json(a, id, &status);
	assert_string_equal(it_jstr(seat_of(o, 2), "name"), names[5]);   /* c holds it now */
	json_decref(o);
	assert_true(it_verify_exports(a, id) >= 1);   /* a bot's party a person claimed */
	sqlite3 *db = NULL;
	sqlite3_stmt *q = NULL;
	assert_int_equal(sqlite3_open_v2(h_db_path(), &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT count(*) FROM rating_history WHERE"
					    " table_id = ?1", -1, &q, NULL), SQLITE_OK);
	sqlite3_bind_int64(q, 1, id);
	assert_int_equal(sqlite3_step(q), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(q, 0), 0);
	sqlite3_finalize(q);
	sqlite3_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_started_early_shows_start),
		cmocka_unit_test(test_timeout_leaves_time_per_move),
		cmocka_unit_test(test_days_deadline_in_json),
		cmocka_unit_test(test_elimination_final_holds_everyone),
		cmocka_unit_test(test_groups_byes_go_round),
		cmocka_unit_test(test_groups_small_group_merged),
		cmocka_unit_test(test_swiss_fewest_repeats),
		cmocka_unit_test(test_claimed_bot_seat_unrated),
	};
	return cmocka_run_group_tests(tests, start, stop);
}
