/* test_tourney.c — the tournament engine (cgi/engine/tourney.h) on a real
 * database, every table played to its end by bots (each person lets a bot
 * play their seat; the clock is the test's):
 *   - elimination: 9 players at tables of 3, the best of each table go on;
 *     the final is the round played at one table, the tournament ends with
 *     it, whoever did not advance is out in the round they lost;
 *   - round robin in groups: 6 players in two groups of 3 keep their
 *     group, and over 3 rounds everybody sits in every seat once;
 *   - Swiss with a bye: 7 players at tables of 3 only; the bye scores the
 *     documented points, and nobody gets a second bye before all had one;
 *   - registration: closed after its deadline, twice refused, withdrawing
 *     before the start removes the registration; too few at the start
 *     cancel the tournament; only the organiser starts it;
 *   - leaving a running tournament (by oneself or removed by the organiser)
 *     counts once, is in the stored standings at once, and the rest play on;
 *   - a table closed because nobody moved counts as played: everybody at
 *     it shares the last place and scores nothing, and the round goes on;
 *   - the standings as stored equal the rules core's over the result rows.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "pairing.h"
#include "play.h"
#include "tmpdb.h"
#include "tourney.h"

enum { MAXP = 12, T0 = 1000000 };

struct fix {
	struct tmpdb db;
	int64_t org, user[MAXP];
	int64_t now;
};

static int setup(void **state)
{
	static struct fix f;
	memset(&f, 0, sizeof f);
	if (tmpdb_open(&f.db) != 0)
		return -1;
	f.now = T0;
	if (store_user_create(f.db.s, "Orga", "x", f.now, &f.org) != ST_OK)
		return -1;
	for (int i = 0; i < MAXP; i++) {
		char name[16];
		snprintf(name, sizeof name, "P%02d", i);
		if (store_user_create(f.db.s, name, "x", f.now, &f.user[i]) != ST_OK)
			return -1;
	}
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	struct fix *f = *state;
	tmpdb_close(&f->db);
	return 0;
}

/* A tournament of drehwurm by the organiser, starting at once. */
static int64_t create(struct fix *f, enum tourney_format format, int seats, int min_seats,
		      int rounds, int advance, int players)
{
	struct tourney_new n;
	struct rerr e = { .msg = "" };
	int64_t id = 0;
	memset(&n, 0, sizeof n);
	snprintf(n.name, sizeof n.name, "Test %d", format);
	n.game = "drehwurm";
	n.options = "snap_seconds=2";
	n.format = format;
	n.seats = seats;
	n.min_seats = min_seats;
	n.rounds = rounds;
	n.advance = advance;
	n.tb[0] = TB_PARTY;
	n.tb[1] = TB_SB;
	n.register_until = f->now + 60000;
	n.starts_at = f->now + 60000;
	assert_int_equal(tourney_create(f->db.s, &n, f->org, f->now, &id, &e), PLAY_OK);
	for (int i = 0; i < players; i++)
		assert_int_equal(tourney_register(f->db.s, id, f->user[i], f->now, &e), PLAY_OK);
	return id;
}

struct round_tables {
	struct st_ttable x[PAIRING_TABLES_MAX];
	int n;
};

static void add_table(void *ctx, const struct st_ttable *x)
{
	struct round_tables *r = ctx;
	r->x[r->n++] = *x;
}

/* Plays every table of the tournament's current round to its end: bots
 * for every person, then the clock runs on (the pauses between parties
 * end by their deadline). */
/* Every table of round `round`, in order. */
static int tables_of_round(struct fix *f, int64_t id, int round, struct round_tables *r)
{
	struct st_tround all = { .round = round, .first = 0, .last = 1 << 20 };
	return store_tround_tables(f->db.s, id, &all, add_table, r);
}

static void play_round(struct fix *f, int64_t id)
{
	struct st_tourney t;
	struct round_tables r = { .n = 0 };
	struct rerr e;
	assert_int_equal(store_tourney_get(f->db.s, id, &t), ST_OK);
	assert_int_equal(tables_of_round(f, id, t.round, &r), ST_OK);
	assert_true(r.n > 0);
	for (int k = 0; k < r.n; k++) {
		struct st_seat seats[GAME_MAX_SEATS];
		struct st_table tb;
		int n;
		assert_int_equal(store_table_seats(f->db.s, r.x[k].table_id, seats, GAME_MAX_SEATS, &n),
				 ST_OK);
		for (int i = 0; i < n; i++)   /* (who left has a bot already) */
			if (!seats[i].resigned)
				assert_int_equal(play_seat(f->db.s, r.x[k].table_id,
							   seats[i].user_id, PLAY_SEAT_BOT, f->now,
							   &e), PLAY_OK);
		for (int step = 0; step < 400; step++) {
			assert_int_equal(store_table_get(f->db.s, r.x[k].table_id, &tb), ST_OK);
			if (tb.status == TABLE_FINISHED)
				break;
			f->now += 61000;
			int rc = play_tick(f->db.s, r.x[k].table_id, f->now);
			assert_true(rc == PLAY_OK || rc == PLAY_NOT_PLAYING);
		}
		assert_int_equal(tb.status, TABLE_FINISHED);
		assert_int_equal(tb.closed_idle, 0);
		assert_int_equal(tb.party_no + 1, tb.nparties);   /* every party played */
		assert_int_equal(tb.nparties, tb.nseats);
	}
}

/* The players of tournament id, by user. */
static int players(struct fix *f, int64_t id, struct st_tplayer *out)
{
	int n = 0;
	assert_int_equal(store_tplayers(f->db.s, id, out, MAXP, &n), ST_OK);
	return n;
}

struct rows {
	struct st_tresult r[MAXP * 20];
	int n;
};

static void add_result(void *ctx, const struct st_tresult *x)
{
	struct rows *r = ctx;
	r->r[r->n++] = *x;
}

struct stand {
	struct st_tstanding s[MAXP];
	int n;
};

static void add_standing(void *ctx, const struct st_tstanding *x)
{
	struct stand *s = ctx;
	s->s[s->n++] = *x;
}

struct page_rows {
	struct rows res;
	int ntables;
};

static void count_table(void *ctx, const struct st_ttable *x)
{
	(void)x;
	((struct page_rows *)ctx)->ntables++;
}

static void add_page_result(void *ctx, const struct st_tresult *x)
{
	add_result(&((struct page_rows *)ctx)->res, x);
}

/* Every round's tables with their results as the tournament page reads
 * them (store_tround_page: the table's own results text, 029) equal the
 * result rows (store_tround_results), table by table in the same order,
 * in pages of three tables. */
static void check_round_pages(struct fix *f, int64_t id, int rounds)
{
	for (int round = 1; round <= rounds; round++) {
		int ntables = 0;
		assert_int_equal(store_tround_count(f->db.s, id, round, &ntables), ST_OK);
		for (int first = 0; first < ntables; first += 3) {
			struct st_tround which = { round, first, first + 2 };
			struct rows want = { .n = 0 };
			struct page_rows got = { .res = { .n = 0 }, .ntables = 0 };
			assert_int_equal(store_tround_results(f->db.s, id, &which, add_result, &want),
					 ST_OK);
			assert_int_equal(store_tround_page(f->db.s, id, &which, count_table,
							   add_page_result, &got), ST_OK);
			assert_int_equal(got.ntables, ntables - first < 3 ? ntables - first : 3);
			assert_int_equal(got.res.n, want.n);
			for (int i = 0; i < want.n; i++) {
				const struct st_tresult *a = &want.r[i], *b = &got.res.r[i];
				assert_int_equal(b->round, a->round);
				assert_int_equal(b->user_id, a->user_id);
				assert_int_equal(b->table_no, a->table_no);
				assert_int_equal(b->table_id, a->table_id);
				assert_int_equal(b->seat, a->seat);
				assert_int_equal(b->place, a->place);
				assert_int_equal(b->points, a->points);
				assert_int_equal(b->party_points, a->party_points);
				assert_string_equal(b->name, a->name);
			}
		}
	}
}

/* The stored standings equal rules/tournament.h's over the result rows. */
static void check_standings(struct fix *f, int64_t id, int nplayers)
{
	struct rows rows = { .n = 0 };
	struct stand st = { .n = 0 };
	struct st_tplayer p[MAXP];
	struct tourney_result r[MAXP * 20];
	struct tourney_standing want[MAXP];
	enum tourney_tiebreak tb[TOURNEY_TIEBREAKS] = { TB_PARTY, TB_SB };
	int n = players(f, id, p);
	assert_int_equal(n, nplayers);
	assert_int_equal(store_tresults(f->db.s, id, add_result, &rows), ST_OK);
	for (int i = 0; i < rows.n; i++) {
		int who = -1;
		for (int k = 0; k < n; k++)
			if (p[k].user_id == rows.r[i].user_id)
				who = k;
		assert_true(who >= 0);
		r[i] = (struct tourney_result){ who, rows.r[i].round, rows.r[i].table_no,
						rows.r[i].place, rows.r[i].points,
						rows.r[i].party_points };
	}
	/* an elimination ranks how far each got before the points, as the
	 * engine does (tourney.c): the round they went out or withdrew in */
	struct st_tourney t;
	int reach[MAXP];
	assert_int_equal(store_tourney_get(f->db.s, id, &t), ST_OK);
	check_round_pages(f, id, t.round);
	for (int k = 0; k < n; k++) {
		int out = p[k].out_round, left = p[k].left_how ? p[k].left_round : 0;
		reach[k] = out && (!left || out < left) ? out : left;
	}
	assert_int_equal(tourney_standings_reach(r, rows.n, n, tb,
						 t.format == TOURNEY_ELIMINATION ? reach : NULL, want),
			 0);
	assert_int_equal(store_tstandings(f->db.s, id, 0, MAXP, add_standing, &st), ST_OK);
	assert_int_equal(st.n, n);
	for (int i = 0; i < n; i++) {
		assert_int_equal(st.s[i].user_id, p[want[i].player].user_id);
		assert_int_equal(st.s[i].place, want[i].place);
		assert_int_equal(st.s[i].points, want[i].points);
		assert_int_equal(st.s[i].sb2, want[i].sb2);
		assert_int_equal(st.s[i].byes, want[i].byes);
		/* copied in with the row: a page of standings reads nothing else */
		const struct st_tplayer *who = &p[want[i].player];
		assert_string_equal(st.s[i].name, who->name);
		assert_int_equal(st.s[i].left_how, who->left_how);
		assert_int_equal(st.s[i].left_round, who->left_round);
		assert_int_equal(st.s[i].out_round, who->out_round);
	}
}

static void test_elimination(void **state)
{
	struct fix *f = *state;
	struct rerr e;
	int64_t id = create(f, TOURNEY_ELIMINATION, 3, 3, 3, 1, 9);
	assert_int_equal(tourney_start(f->db.s, id, f->user[0], f->now, &e), PLAY_REJECTED);
	assert_int_equal(tourney_start(f->db.s, id, f->org, f->now, &e), PLAY_OK);
	struct st_tourney t;
	assert_int_equal(store_tourney_get(f->db.s, id, &t), ST_OK);
	assert_int_equal(t.status, TOURNEY_RUNNING);
	assert_int_equal(t.round, 1);
	play_round(f, id);
	struct st_tplayer p[MAXP];
	int n = players(f, id, p), in = 0;
	for (int i = 0; i < n; i++)
		in += p[i].out_round == 0;
	/* one of each table goes on, more only on a tie at the cut */
	assert_true(in >= 3 && in <= 9);
	assert_int_equal(store_tourney_get(f->db.s, id, &t), ST_OK);
	while (t.status == TOURNEY_RUNNING) {
		struct round_tables r = { .n = 0 };
		struct st_table tb;
		assert_int_equal(tables_of_round(f, id, t.round, &r), ST_OK);
		assert_int_equal(store_table_get(f->db.s, r.x[0].table_id, &tb), ST_OK);
		n = players(f, id, p);
		in = 0;
		for (int i = 0; i < n; i++)
			in += p[i].out_round == 0;
		/* the final: one table holding everyone still in (one table while
		 * others have a bye, after a tie at the cut, is not) */
		int last = r.n == 1 && tb.nseats == in, round = t.round;
		play_round(f, id);
		assert_int_equal(store_tourney_get(f->db.s, id, &t), ST_OK);
		if (last) {   /* the final ends it */
			assert_int_equal(t.status, TOURNEY_FINISHED);
			assert_int_equal(t.round, round);
		}
	}
	assert_int_equal(t.status, TOURNEY_FINISHED);
	n = players(f, id, p);
	for (int i = 0; i < n; i++)
		assert_true(p[i].out_round >= 0 && p[i].out_round <= t.round);
	check_standings(f, id, 9);
}

static void test_groups(void **state)
{
	struct fix *f = *state;
	struct rerr e;
	int64_t id = create(f, TOURNEY_GROUPS, 3, 3, 3, 0, 6);
	assert_int_equal(tourney_start(f->db.s, id, f->org, f->now, &e), PLAY_OK);
	int seat_of[MAXP][4], group_of[MAXP];
	memset(seat_of, -1, sizeof seat_of);
	for (int round = 1; round <= 3; round++) {
		struct round_tables r = { .n = 0 };
		assert_int_equal(tables_of_round(f, id, round, &r), ST_OK);
		assert_int_equal(r.n, 2);
		for (int k = 0; k < r.n; k++) {
			struct st_seat seats[GAME_MAX_SEATS];
			int n;
			assert_int_equal(store_table_seats(f->db.s, r.x[k].table_id, seats,
							   GAME_MAX_SEATS, &n), ST_OK);
			assert_int_equal(n, 3);
			for (int i = 0; i < n; i++) {
				int u = (int)(seats[i].user_id - f->user[0]);
				assert_true(u >= 0 && u < 6);
				if (round == 1)
					group_of[u] = k;
				assert_int_equal(group_of[u], k);   /* the same group */
				seat_of[u][round] = seats[i].seat;
			}
		}
		play_round(f, id);
	}
	for (int u = 0; u < 6; u++) {   /* every seat once */
		int seen = 0;
		for (int round = 1; round <= 3; round++)
			seen |= 1 << seat_of[u][round];
		assert_int_equal(seen, 7);
	}
	struct st_tourney t;
	assert_int_equal(store_tourney_get(f->db.s, id, &t), ST_OK);
	assert_int_equal(t.status, TOURNEY_FINISHED);
	check_standings(f, id, 6);
}

static void test_swiss_bye(void **state)
{
	struct fix *f = *state;
	struct rerr e;
	int64_t id = create(f, TOURNEY_SWISS, 3, 3, 2, 0, 7);
	assert_int_equal(tourney_start(f->db.s, id, f->org, f->now, &e), PLAY_OK);
	struct rows rows = { .n = 0 };
	play_round(f, id);
	play_round(f, id);
	assert_int_equal(store_tresults(f->db.s, id, add_result, &rows), ST_OK);
	assert_int_equal(rows.n, 14);
	int64_t bye[3] = { 0, 0, 0 };
	for (int i = 0; i < rows.n; i++)
		if (rows.r[i].table_no < 0) {
			assert_int_equal(rows.r[i].points, 2);   /* 4, 2, 0: the middle place */
			assert_int_equal(bye[rows.r[i].round], 0);
			bye[rows.r[i].round] = rows.r[i].user_id;
		}
	assert_true(bye[1] && bye[2] && bye[1] != bye[2]);
	check_standings(f, id, 7);
}

/* What the page reads a page of standings and a page of a round's tables
 * from is the text their first row carries (030, 029), written with the
 * rows: with the rows' names changed behind the store's back, the pages
 * still show the names they were written with, the rows the changed ones
 * (and check_standings saw both the same before). */
static void test_page_texts(void **state)
{
	struct fix *f = *state;
	struct rerr e;
	int64_t id = create(f, TOURNEY_SWISS, 3, 3, 2, 0, 7);
	assert_int_equal(tourney_start(f->db.s, id, f->org, f->now, &e), PLAY_OK);
	play_round(f, id);
	play_round(f, id);
	check_standings(f, id, 7);
	struct stand page = { .n = 0 }, rows = { .n = 0 };
	assert_int_equal(store_tstandings(f->db.s, id, 0, ST_TSTANDINGS_PAGE, add_standing, &page),
			 ST_OK);
	struct st_tround first = { 1, 0, 0 };
	struct page_rows tables = { .res = { .n = 0 }, .ntables = 0 };
	assert_int_equal(store_tround_page(f->db.s, id, &first, count_table, add_page_result,
					   &tables), ST_OK);
	assert_int_equal(tables.ntables, 1);
	assert_true(tables.res.n > 0);
	assert_int_equal(tmpdb_exec(&f->db, "UPDATE tournament_standings SET name = 'Anders'"), 0);
	assert_int_equal(tmpdb_exec(&f->db, "UPDATE tournament_results SET name = 'Anders'"), 0);
	struct stand again = { .n = 0 };
	assert_int_equal(store_tstandings(f->db.s, id, 0, ST_TSTANDINGS_PAGE, add_standing, &again),
			 ST_OK);
	assert_int_equal(store_tstandings(f->db.s, id, 0, 7 /* not a page */, add_standing, &rows),
			 ST_OK);
	assert_int_equal(again.n, 7);
	assert_int_equal(rows.n, 7);
	for (int i = 0; i < 7; i++) {
		assert_string_equal(again.s[i].name, page.s[i].name);
		assert_string_not_equal(page.s[i].name, "Anders");
		assert_string_equal(rows.s[i].name, "Anders");
		assert_int_equal(again.s[i].user_id, rows.s[i].user_id);
		assert_int_equal(again.s[i].points, rows.s[i].points);
		assert_int_equal(again.s[i].sb2, rows.s[i].sb2);
	}
	struct page_rows later = { .res = { .n = 0 }, .ntables = 0 };
	assert_int_equal(store_tround_page(f->db.s, id, &first, count_table, add_page_result,
					   &later), ST_OK);
	assert_int_equal(later.res.n, tables.res.n);
	for (int i = 0; i < later.res.n; i++) {
		assert_string_equal(later.res.r[i].name, tables.res.r[i].name);
		assert_string_not_equal(later.res.r[i].name, "Anders");
	}
}

static void test_registration(void **state)
{
	struct fix *f = *state;
	struct rerr e;
	int64_t id = create(f, TOURNEY_SWISS, 3, 3, 1, 0, 2);
	assert_int_equal(tourney_register(f->db.s, id, f->user[0], f->now, &e), PLAY_ALREADY);
	assert_int_equal(tourney_withdraw(f->db.s, id, f->user[1], f->user[1], f->now, &e),
			 PLAY_OK);
	assert_int_equal(tourney_withdraw(f->db.s, id, f->user[0], f->user[5], f->now, &e),
			 PLAY_REJECTED);   /* only the organiser removes others */
	assert_int_equal(tourney_register(f->db.s, id, f->user[3], f->now + 60000, &e),
			 PLAY_REJECTED);   /* past the deadline */
	assert_true(strstr(e.msg, "geschlossen") != NULL);
	struct st_tourney t;
	assert_int_equal(tourney_tick(f->db.s, id, f->now + 1000), PLAY_OK);
	assert_int_equal(store_tourney_get(f->db.s, id, &t), ST_OK);
	assert_int_equal(t.status, TOURNEY_REGISTERING);   /* not yet its time */
	assert_int_equal(t.players, 1);
	assert_int_equal(tourney_tick(f->db.s, id, f->now + 60000), PLAY_OK);
	assert_int_equal(store_tourney_get(f->db.s, id, &t), ST_OK);
	assert_int_equal(t.status, TOURNEY_CANCELLED);   /* one player is no tournament */
}

/* Leaving a running tournament: the counts in its row and the stored
 * standings follow at once; the rest play on. */
static void test_withdraw_running(void **state)
{
	struct fix *f = *state;
	struct rerr e;
	struct st_tourney t;
	struct st_tstanding me;
	int64_t id = create(f, TOURNEY_SWISS, 3, 3, 2, 0, 6);
	assert_int_equal(tourney_start(f->db.s, id, f->org, f->now, &e), PLAY_OK);
	assert_int_equal(tourney_withdraw(f->db.s, id, f->user[2], f->user[2], f->now, &e),
			 PLAY_OK);
	assert_int_equal(tourney_withdraw(f->db.s, id, f->user[4], f->org, f->now, &e), PLAY_OK);
	assert_int_equal(tourney_withdraw(f->db.s, id, f->user[4], f->org, f->now, &e),
			 PLAY_NOT_SEATED);   /* gone already: nothing counted twice */
	assert_true(strstr(e.msg, "Nicht (mehr) angemeldet") != NULL);
	assert_int_equal(store_tourney_get(f->db.s, id, &t), ST_OK);
	assert_int_equal(t.players, 4);
	assert_int_equal(t.entrants, 6);
	assert_int_equal(store_tstanding_of(f->db.s, id, f->user[2], &me), ST_OK);
	assert_int_equal(me.left_how, 1);   /* withdrew */
	assert_int_equal(me.left_round, 1);
	assert_int_equal(store_tstanding_of(f->db.s, id, f->user[4], &me), ST_OK);
	assert_int_equal(me.left_how, 2);   /* removed by the organiser */
	check_standings(f, id, 6);
	play_round(f, id);
	play_round(f, id);
	assert_int_equal(store_tourney_get(f->db.s, id, &t), ST_OK);
	assert_int_equal(t.status, TOURNEY_FINISHED);
	assert_int_equal(t.players, 4);
	check_standings(f, id, 6);
}

static void test_idle_table(void **state)
{
	struct fix *f = *state;
	struct rerr e;
	int64_t id = create(f, TOURNEY_SWISS, 3, 3, 2, 0, 6);
	assert_int_equal(tourney_start(f->db.s, id, f->org, f->now, &e), PLAY_OK);
	/* nobody moves for days: the lobby's sweep closes both tables */
	struct play_sweep rule = { .open_ms = 0, .idle_ms = 1000, .max = 10 };
	struct play_swept out;
	f->now += 5000;
	assert_int_equal(play_sweep(f->db.s, &rule, f->now, &out), PLAY_OK);
	assert_int_equal(out.closed, 2);
	struct rows rows = { .n = 0 };
	assert_int_equal(store_tresults(f->db.s, id, add_result, &rows), ST_OK);
	assert_int_equal(rows.n, 6);
	for (int i = 0; i < rows.n; i++) {
		assert_int_equal(rows.r[i].place, 3);
		assert_int_equal(rows.r[i].points, 0);
	}
	struct st_tourney t;
	assert_int_equal(store_tourney_get(f->db.s, id, &t), ST_OK);
	assert_int_equal(t.status, TOURNEY_RUNNING);
	assert_int_equal(t.round, 2);
	check_standings(f, id, 6);
}

static void test_bad_rules(void **state)
{
	struct fix *f = *state;
	struct tourney_new n;
	struct rerr e = { .msg = "" };
	int64_t id;
	memset(&n, 0, sizeof n);
	snprintf(n.name, sizeof n.name, "Schlecht");
	n.game = "drehwurm";
	n.format = TOURNEY_ELIMINATION;
	n.seats = 4;
	n.min_seats = 3;
	n.rounds = 3;
	n.advance = 3;   /* a table of 3 cannot send 3 on */
	n.starts_at = n.register_until = f->now;
	assert_int_equal(tourney_create(f->db.s, &n, f->org, f->now, &id, &e), PLAY_INVALID);
	assert_true(e.msg[0] != '\0');
	n.format = TOURNEY_SWISS;
	n.points = "6,4,5,0";   /* rising */
	assert_int_equal(tourney_create(f->db.s, &n, f->org, f->now, &id, &e), PLAY_INVALID);
	n.points = "6,4,2,0";
	n.min_seats = 2;   /* drehwurm is for 3 or more */
	assert_int_equal(tourney_create(f->db.s, &n, f->org, f->now, &id, &e), PLAY_INVALID);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_elimination, setup, teardown),
		cmocka_unit_test_setup_teardown(test_groups, setup, teardown),
		cmocka_unit_test_setup_teardown(test_swiss_bye, setup, teardown),
		cmocka_unit_test_setup_teardown(test_page_texts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_registration, setup, teardown),
		cmocka_unit_test_setup_teardown(test_withdraw_running, setup, teardown),
		cmocka_unit_test_setup_teardown(test_idle_table, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_rules, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
