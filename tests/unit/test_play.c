/* test_play.c — the party engine with Drehwurm: tables, seats, moves,
 * staleness, races, deadlines, whole matches and the replay check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <sys/wait.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "auth.h"
#include "bot.h"
#include "match.h"
#include "play.h"
#include "ser.h"
#include "tmpdb.h"

enum { NUSERS = 6, MAXMOVES = 256 };

struct fx {
	struct tmpdb db;
	struct store *s;
	int64_t user[NUSERS];
	int64_t now;
};

static int setup_fx(void **state)
{
	struct fx *f = calloc(1, sizeof *f);
	static const char *const names[NUSERS] = { "Anna", "Bert", "Carla", "Dora", "Emil",
						   "Frieda" };
	setenv("SPIELTISCH_FAST_HASH", "1", 1);
	if (!f || auth_init() != 0 || tmpdb_open(&f->db) != 0) {
		free(f);
		return -1;
	}
	f->s = f->db.s;
	for (int i = 0; i < NUSERS; i++)
		if (store_user_create(f->s, names[i], "$argon2id$test", 1, &f->user[i]) != ST_OK)
			return -1;
	f->now = 1700000000000;
	*state = f;
	return 0;
}

static int teardown_fx(void **state)
{
	struct fx *f = *state;
	tmpdb_close(&f->db);
	free(f);
	return 0;
}

/* A table of `game` with n seats, every seat taken (users 0..n-1): playing. */
static int64_t full_table_of(struct fx *f, const char *game, int n, const char *opts)
{
	int64_t tid = 0;
	struct rerr e;
	assert_int_equal(play_create(f->s, game, opts, n, f->user[0], f->now, &tid, &e), PLAY_OK);
	for (int i = 1; i < n; i++)
		assert_int_equal(play_join(f->s, tid, f->user[i], f->now, &e), PLAY_OK);
	return tid;
}

/* A Drehwurm table of n seats, every seat taken: playing. */
static int64_t full_table(struct fx *f, int n, const char *opts)
{
	return full_table_of(f, "drehwurm", n, opts);
}

/* What a test compares to prove that nothing changed. */
struct sig {
	unsigned char snap[GAME_SNAPSHOT_MAX];
	size_t len;
	int64_t version, deadline, moves;
	int party_no;
};

static void take_sig(struct fx *f, int64_t tid, struct sig *g)
{
	struct st_party p;
	struct st_table t;
	assert_int_equal(store_table_get(f->s, tid, &t), ST_OK);
	assert_int_equal(store_party_get(f->s, tid, t.party_no, &p, g->snap, sizeof g->snap), ST_OK);
	g->len = p.snap_len;
	g->version = t.version;
	g->deadline = t.next_deadline;
	g->party_no = t.party_no;
	assert_int_equal(store_move_count(f->s, p.id, &g->moves), ST_OK);
}

static void assert_unchanged(struct fx *f, int64_t tid, const struct sig *before)
{
	struct sig *now = malloc(sizeof *now);
	assert_non_null(now);
	take_sig(f, tid, now);
	assert_int_equal(now->version, before->version);
	assert_int_equal(now->deadline, before->deadline);
	assert_int_equal(now->moves, before->moves);
	assert_int_equal(now->party_no, before->party_no);
	assert_int_equal(now->len, before->len);
	assert_memory_equal(now->snap, before->snap, before->len);
	free(now);
}

struct movelist {
	int n;
	char m[MAXMOVES][GAME_MOVE_MAX + 1];
};

static void add_move(void *ctx, const char *move)
{
	struct movelist *l = ctx;
	if (l->n < MAXMOVES)
		snprintf(l->m[l->n++], sizeof l->m[0], "%s", move);
}

/* The legal moves of `seat` in a loaded table. */
static void moves_of(const struct play_table *pt, int seat, struct movelist *l)
{
	l->n = 0;
	pt->g->moves(pt->state, seat, add_move, l);
}

/* The user on `seat` of table tid. */
static int64_t user_of_seat(struct fx *f, int64_t tid, int seat)
{
	struct st_seat seats[GAME_MAX_SEATS];
	int n;
	assert_int_equal(store_table_seats(f->s, tid, seats, GAME_MAX_SEATS, &n), ST_OK);
	for (int i = 0; i < n; i++)
		if (seats[i].seat == seat)
			return seats[i].user_id;
	return 0;
}

/* The first legal move of seat that starts with prefix, or NULL. */
static const char *move_like(const struct movelist *l, const char *prefix)
{
	for (int i = 0; i < l->n; i++)
		if (strncmp(l->m[i], prefix, strlen(prefix)) == 0)
			return l->m[i];
	return NULL;
}

static int64_t user_of(const struct play_table *pt, int seat)
{
	for (int i = 0; i < pt->nseated; i++)
		if (pt->seats[i].seat == seat)
			return pt->seats[i].user_id;
	return 0;
}

static int lowest_bit(uint32_t x)
{
	for (int b = 0; b < 32; b++)
		if (x & (1u << b))
			return b;
	return -1;
}

static int bits(uint32_t x)
{
	int n = 0;
	for (; x; x &= x - 1)
		n++;
	return n;
}

struct step_seen {
	struct st_move last;
	int n;
};

static void keep_last(void *ctx, const struct st_move *m)
{
	struct step_seen *s = ctx;
	s->last = *m;
	s->n++;
}

static struct st_move last_step(struct fx *f, int64_t tid)
{
	struct st_party p;
	struct step_seen s;
	memset(&s, 0, sizeof s);
	assert_int_equal(store_party_get(f->s, tid, -1, &p, NULL, 0), ST_OK);
	assert_int_equal(store_moves(f->s, p.id, 0, keep_last, &s), ST_OK);
	assert_true(s.n > 0);
	return s.last;
}

/* Plays one move chosen by `rnd` for the lowest seat that may act (a
 * window with nobody able to act lets the clock run past its deadline).
 * After a party, the lowest seat that has not continued continues, or
 * (as rnd says) the clock runs past the pause. Returns 0 once the table
 * is finished. */
static int play_one(struct fx *f, int64_t tid, uint32_t *rnd)
{
	struct play_table pt;
	struct movelist *l = malloc(sizeof *l);
	struct rerr e;
	assert_non_null(l);
	f->now += 700;
	assert_int_equal(play_load(f->s, tid, 0, f->now, &pt), PLAY_OK);
	if (pt.t.status == TABLE_FINISHED) {
		play_free(&pt);
		free(l);
		return 0;
	}
	assert_int_equal(pt.t.status, TABLE_PLAYING);
	*rnd = *rnd * 1103515245u + 12345u;
	if (pt.pausing) {
		assert_int_equal(pt.status.over, 1);
		int seat = lowest_bit(~pt.ready);
		if ((*rnd >> 12) % 4 == 0)
			f->now = pt.t.next_deadline;
		else
			assert_int_equal(play_move(f->s, tid, user_of(&pt, seat), PLAY_CONTINUE,
						   pt.t.version, f->now, &e), PLAY_OK);
		play_free(&pt);
		free(l);
		return 1;
	}
	assert_int_equal(pt.status.over, 0);
	if (pt.status.to_act == 0) {
		assert_true(pt.status.deadline > 0);
		f->now = pt.status.deadline;
		play_free(&pt);
		free(l);
		return 1;
	}
	int seat = lowest_bit(pt.status.to_act);
	moves_of(&pt, seat, l);
	assert_true(l->n > 0);
	const char *m = l->m[(*rnd >> 8) % (uint32_t)l->n];
	int rc = play_move(f->s, tid, user_of(&pt, seat), m, pt.t.version, f->now, &e);
	if (rc != PLAY_OK)
		fail_msg("move '%s' by seat %d refused (%d): %s", m, seat, rc, e.msg);
	play_free(&pt);
	free(l);
	return 1;
}

/* 1 when the table pauses on a finished party. */
static int pausing_now(struct fx *f, int64_t tid)
{
	struct play_table pt;
	assert_int_equal(play_load(f->s, tid, 0, f->now, &pt), PLAY_OK);
	int p = pt.pausing;
	play_free(&pt);
	return p;
}

/* Plays random moves until the first party of table tid is over. */
static void play_to_pause(struct fx *f, int64_t tid, uint32_t *rnd)
{
	for (int steps = 0; !pausing_now(f, tid); steps++) {
		assert_true(steps < 20000);
		assert_int_equal(play_one(f, tid, rnd), 1);
	}
}

/* ------------------------------------------------------------------ */

static void test_create_join_start(void **state)
{
	struct fx *f = *state;
	struct play_table pt;
	struct rerr e;
	int64_t tid = 0, other = 0;

	/* What the lobby may get wrong. */
	assert_int_equal(play_create(f->s, "schach", "", 3, f->user[0], f->now, &tid, &e),
			 PLAY_INVALID);
	assert_true(strlen(e.msg) > 0);
	assert_int_equal(play_create(f->s, "drehwurm", "", 2, f->user[0], f->now, &tid, &e),
			 PLAY_INVALID);
	assert_non_null(strstr(e.msg, "3 bis 6"));
	assert_int_equal(play_create(f->s, "drehwurm", "", 7, f->user[0], f->now, &tid, &e),
			 PLAY_INVALID);
	assert_int_equal(play_create(f->s, "drehwurm", "snap_seconds=1", 3, f->user[0], f->now,
				     &tid, &e), PLAY_INVALID);
	assert_int_equal(play_create(f->s, "drehwurm", "farbe=rot", 3, f->user[0], f->now, &tid,
				     &e), PLAY_INVALID);

	assert_int_equal(play_create(f->s, "drehwurm", "snap_seconds=7", 3, f->user[0], f->now,
				     &tid, &e), PLAY_OK);
	assert_int_equal(play_load(f->s, tid, f->user[0], f->now, &pt), PLAY_OK);
	assert_int_equal(pt.t.status, TABLE_OPEN);
	assert_string_equal(pt.t.options, "snap_seconds=7;snap_colour=0");
	assert_int_equal(pt.opt[0], 7);
	assert_int_equal(pt.t.nparties, 3);
	assert_int_equal(pt.nseated, 1);
	assert_int_equal(pt.my_seat, 0);
	assert_int_equal(pt.has_party, 0);
	assert_null(pt.state);
	int64_t v0 = pt.t.version;
	play_free(&pt);

	/* Joining and leaving an open table. */
	assert_int_equal(play_join(f->s, tid, f->user[1], f->now, &e), PLAY_OK);
	assert_int_equal(play_join(f->s, tid, f->user[1], f->now, &e), PLAY_ALREADY);
	assert_int_equal(play_leave(f->s, tid, f->user[1], f->now, &e), PLAY_OK);
	assert_int_equal(play_leave(f->s, tid, f->user[1], f->now, &e), PLAY_NOT_SEATED);
	assert_int_equal(play_join(f->s, tid, f->user[3], f->now, &e), PLAY_OK);
	assert_int_equal(play_load(f->s, tid, f->user[3], f->now, &pt), PLAY_OK);
	assert_int_equal(pt.my_seat, 1);
	assert_true(pt.t.version > v0);        /* every seat change is seen by polls */
	play_free(&pt);
	assert_int_equal(play_join(f->s, tid + 99, f->user[1], f->now, &e), PLAY_NOT_FOUND);

	/* The last seat starts party 0. */
	assert_int_equal(play_join(f->s, tid, f->user[2], f->now, &e), PLAY_OK);
	assert_int_equal(play_load(f->s, tid, f->user[2], f->now, &pt), PLAY_OK);
	assert_int_equal(pt.t.status, TABLE_PLAYING);
	assert_int_equal(pt.t.party_no, 0);
	assert_int_equal(pt.has_party, 1);
	assert_non_null(pt.state);
	assert_int_equal(pt.my_seat, 2);
	assert_true(pt.t.first_dealer >= 0 && pt.t.first_dealer < 3);
	assert_int_equal(pt.party.dealer, pt.t.first_dealer);
	assert_int_equal(pt.status.over, 0);
	assert_int_equal(pt.status.turn, (pt.t.first_dealer + 1) % 3);
	assert_int_equal(pt.status.to_act, 1u << pt.status.turn);
	assert_int_equal(pt.t.epoch_version, pt.t.version);
	assert_int_equal(pt.nfinished, 0);
	play_free(&pt);

	/* Full now; a seat at a running table cannot be given up. */
	assert_int_equal(play_join(f->s, tid, f->user[4], f->now, &e), PLAY_FULL);
	assert_int_equal(play_join(f->s, tid, f->user[0], f->now, &e), PLAY_ALREADY);
	assert_int_equal(play_leave(f->s, tid, f->user[0], f->now, &e), PLAY_NOT_PLAYING);

	/* A table everybody left goes away. */
	assert_int_equal(play_create(f->s, "drehwurm", "", 4, f->user[5], f->now, &other, &e),
			 PLAY_OK);
	assert_int_equal(play_leave(f->s, other, f->user[5], f->now, &e), PLAY_OK);
	assert_int_equal(play_load(f->s, other, 0, f->now, &pt), PLAY_NOT_FOUND);
	play_free(&pt);

	for (int rc = 0; rc < PLAY__MAX; rc++)
		assert_true(strlen(play_message((enum play_rc)rc)) > 5);
}

/* pt's state is what the stored snapshot of its party decodes to. */
static void assert_state_is_stored(struct fx *f, int64_t tid, const struct play_table *pt)
{
	struct sig *g = malloc(sizeof *g);
	void *fresh = malloc(pt->g->state_size);
	struct rerr e;
	assert_non_null(g);
	assert_non_null(fresh);
	take_sig(f, tid, g);
	assert_int_equal(game_load(pt->g, fresh, g->snap, g->len, &e), SNAP_OK);
	assert_memory_equal(pt->state, fresh, pt->g->state_size);
	free(fresh);
	free(g);
}

/* A loaded state is a copy of what its snapshot decodes to, whether the
 * same bytes were decoded before or not (load.c keeps the last few): six
 * tables of five games read in turns, more than are kept, each state
 * scribbled on by its reader; after a move the new position's state. */
static void test_loaded_state_is_the_snapshots(void **state)
{
	struct fx *f = *state;
	static const char *const slugs[] = { "drehwurm", "dna", "drachenrummy", "wurfwort",
					     "worstgame", "dna" };
	enum { T = sizeof slugs / sizeof slugs[0] };
	int64_t tid[T];
	struct play_table pt;
	for (int i = 0; i < T; i++)
		tid[i] = full_table_of(f, slugs[i], game_find(slugs[i])->min_players, "");
	for (int round = 0; round < 4; round++)
		for (int k = 0; k < T; k++) {
			int i = round & 1 ? T - 1 - k : (k * (round + 1)) % T;
			assert_int_equal(play_load(f->s, tid[i], 0, f->now, &pt), PLAY_OK);
			assert_true(pt.has_party);
			assert_state_is_stored(f, tid[i], &pt);
			memset(pt.state, 0x5a, pt.g->state_size);   /* the reader's own copy */
			play_free(&pt);
		}
	/* a move: the next read decodes the new snapshot */
	struct movelist *l = malloc(sizeof *l);
	struct rerr e;
	assert_non_null(l);
	assert_int_equal(play_load(f->s, tid[0], 0, f->now, &pt), PLAY_OK);
	int turn = pt.status.turn;
	int64_t v = pt.t.version, me = user_of(&pt, turn);
	moves_of(&pt, turn, l);
	const char *m = move_like(l, "draw turn");
	assert_non_null(m);
	play_free(&pt);
	f->now += 1000;
	assert_int_equal(play_move(f->s, tid[0], me, m, v, f->now, &e), PLAY_OK);
	assert_int_equal(play_load(f->s, tid[0], 0, f->now, &pt), PLAY_OK);
	assert_int_equal(pt.t.version, v + 1);
	assert_state_is_stored(f, tid[0], &pt);
	play_free(&pt);
	free(l);
}

static void test_legal_and_illegal_moves(void **state)
{
	struct fx *f = *state;
	struct play_table pt;
	struct movelist *l = malloc(sizeof *l);
	struct sig *before = malloc(sizeof *before);
	struct rerr e;
	assert_non_null(l);
	assert_non_null(before);
	int64_t tid = full_table(f, 3, "snap_seconds=10");

	assert_int_equal(play_load(f->s, tid, 0, f->now, &pt), PLAY_OK);
	int turn = pt.status.turn, other = (turn + 1) % 3;
	int64_t v = pt.t.version, me = user_of(&pt, turn), them = user_of(&pt, other);
	moves_of(&pt, turn, l);
	assert_true(l->n > 0);
	play_free(&pt);

	/* Illegal in many ways: nothing changes. */
	take_sig(f, tid, before);
	static const char *const bad[] = { "play lila-99 on 1", "dance", "draw turn 4",
					   "snap rot-3", "pass" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		memset(&e, 0, sizeof e);
		assert_int_equal(play_move(f->s, tid, me, bad[i], v, f->now, &e), PLAY_REJECTED);
		assert_true(strlen(e.msg) > 0);
		assert_unchanged(f, tid, before);
	}
	/* A legal move of the seat on turn, sent by another seat. */
	assert_int_equal(play_move(f->s, tid, them, l->m[0], v, f->now, &e), PLAY_REJECTED);
	assert_non_null(strstr(e.msg, "nicht am Zug"));
	assert_unchanged(f, tid, before);
	/* Malformed text never reaches the rules. */
	assert_int_equal(play_move(f->s, tid, me, "", v, f->now, &e), PLAY_REJECTED);
	assert_int_equal(play_move(f->s, tid, me, "draw\nturn 1", v, f->now, &e), PLAY_REJECTED);
	char longmove[GAME_MOVE_MAX + 10];
	memset(longmove, 'a', sizeof longmove - 1);
	longmove[sizeof longmove - 1] = '\0';
	assert_int_equal(play_move(f->s, tid, me, longmove, v, f->now, &e), PLAY_REJECTED);
	/* People and tables that are not there. */
	assert_int_equal(play_move(f->s, tid, f->user[5], l->m[0], v, f->now, &e), PLAY_NOT_SEATED);
	assert_int_equal(play_move(f->s, tid, 0, l->m[0], v, f->now, &e), PLAY_NOT_SEATED);
	assert_int_equal(play_move(f->s, tid + 50, me, l->m[0], v, f->now, &e), PLAY_NOT_FOUND);
	/* A version from the future or below zero is no page we served. */
	assert_int_equal(play_move(f->s, tid, me, l->m[0], v + 1, f->now, &e), PLAY_STALE);
	assert_int_equal(play_move(f->s, tid, me, l->m[0], -1, f->now, &e), PLAY_STALE);
	assert_unchanged(f, tid, before);

	/* The legal one: applied, logged with version v + 1. */
	const char *m = move_like(l, "draw turn");
	assert_non_null(m);
	f->now += 1000;
	assert_int_equal(play_move(f->s, tid, me, m, v, f->now, &e), PLAY_OK);
	struct st_move last = last_step(f, tid);
	assert_string_equal(last.text, m);
	assert_int_equal(last.seat, turn);
	assert_int_equal(last.version, v + 1);
	assert_int_equal(last.at, f->now);
	assert_int_equal(last.seq, before->moves + 1);
	assert_int_equal(play_load(f->s, tid, me, f->now, &pt), PLAY_OK);
	assert_int_equal(pt.t.version, v + 1);
	assert_int_equal(pt.t.epoch_version, v + 1);   /* a stack turned: the position changed */
	assert_int_equal(pt.t.next_deadline, pt.status.deadline);
	play_free(&pt);

	struct sig *after = malloc(sizeof *after);
	assert_non_null(after);
	take_sig(f, tid, after);
	assert_true(after->len != before->len || memcmp(after->snap, before->snap, after->len) != 0);
	assert_int_equal(after->moves, before->moves + 1);
	free(after);

	/* Double submit: the same form again is stale, and changes nothing. */
	take_sig(f, tid, before);
	assert_int_equal(play_move(f->s, tid, me, m, v, f->now + 10, &e), PLAY_STALE);
	assert_non_null(strstr(e.msg, "Doppelt"));
	assert_unchanged(f, tid, before);
	/* Another seat's page from before the stack turned is too late. */
	assert_int_equal(play_move(f->s, tid, them, "pass", v, f->now + 10, &e), PLAY_STALE);
	assert_non_null(strstr(e.msg, "Zu spät"));
	assert_unchanged(f, tid, before);

	assert_int_equal(play_verify_party(f->s, tid, 0, &e), PLAY_OK);
	free(l);
	free(before);
}

/* Plays until a snap window is open in which at least `need` seats hold a
 * snap move and at least `pending` seats may act; 1 when found (the table
 * is loaded into pt), 0 when the match ended first. Turns always draw, and
 * windows close by passing, so the hands stay full of cards. */
static int find_window(struct fx *f, int64_t tid, int need, int pending, struct play_table *pt,
		       struct movelist *l)
{
	struct rerr e;
	for (int step = 0; step < 3000; step++) {
		f->now += 500;
		assert_int_equal(play_load(f->s, tid, 0, f->now, pt), PLAY_OK);
		if (pt->t.status != TABLE_PLAYING) {
			play_free(pt);
			return 0;
		}
		if (pt->pausing) {   /* between parties: let the pause run out */
			f->now = pt->t.next_deadline;
			play_free(pt);
			continue;
		}
		uint32_t act = pt->status.to_act;
		if (pt->status.deadline > 0) {
			int snappers = 0;
			for (int s = 0; s < pt->t.nseats; s++)
				if (act & (1u << s)) {
					moves_of(pt, s, l);
					snappers += move_like(l, "snap ") != NULL;
				}
			if (snappers >= need && bits(act) >= pending)
				return 1;
			int s = lowest_bit(act);
			assert_int_equal(play_move(f->s, tid, user_of(pt, s), "pass", pt->t.version,
						   f->now, &e), PLAY_OK);
		} else {
			int s = pt->status.turn;
			moves_of(pt, s, l);
			const char *m = move_like(l, "draw turn");
			if (!m)
				m = l->m[0];
			assert_int_equal(play_move(f->s, tid, user_of(pt, s), m, pt->t.version, f->now,
						   &e), PLAY_OK);
		}
		play_free(pt);
	}
	fail_msg("no snap window for %d seats in 3000 steps", need);
	return 0;
}

/* Two seats snap on the same page: the first commit wins, the second is
 * told it came too late, and keeps its card. A pass by a third seat in
 * between does not make anyone's page stale. */
static void test_snap_race(void **state)
{
	struct fx *f = *state;
	struct play_table pt;
	struct movelist *l = malloc(sizeof *l);
	struct sig *before = malloc(sizeof *before);
	struct rerr e;
	char snap_a[GAME_MOVE_MAX + 1], snap_b[GAME_MOVE_MAX + 1];
	assert_non_null(l);
	assert_non_null(before);
	int64_t tid = full_table(f, 5, "snap_seconds=60");

	assert_int_equal(find_window(f, tid, 2, 2, &pt, l), 1);
	int64_t v = pt.t.version;
	int a = -1, b = -1;
	for (int s = 0; s < pt.t.nseats; s++) {
		if (!(pt.status.to_act & (1u << s)))
			continue;
		moves_of(&pt, s, l);
		if (!move_like(l, "snap "))
			continue;
		if (a < 0) {
			a = s;
			snprintf(snap_a, sizeof snap_a, "%s", move_like(l, "snap "));
		} else if (b < 0) {
			b = s;
			snprintf(snap_b, sizeof snap_b, "%s", move_like(l, "snap "));
		}
	}
	assert_true(a >= 0 && b >= 0);
	int64_t ua = user_of(&pt, a), ub = user_of(&pt, b);
	/* A third pending seat passes first, if there is one. */
	uint32_t rest = pt.status.to_act & ~(1u << a) & ~(1u << b);
	int64_t upass = rest ? user_of(&pt, lowest_bit(rest)) : 0;
	play_free(&pt);
	if (upass) {
		assert_int_equal(play_move(f->s, tid, upass, "pass", v, f->now, &e), PLAY_OK);
		assert_int_equal(play_load(f->s, tid, 0, f->now, &pt), PLAY_OK);
		assert_int_equal(pt.t.version, v + 1);
		assert_true(pt.t.epoch_version <= v);
		play_free(&pt);
	}

	/* Both snap from the page at version v. */
	assert_int_equal(play_move(f->s, tid, ua, snap_a, v, f->now + 1, &e), PLAY_OK);
	take_sig(f, tid, before);
	memset(&e, 0, sizeof e);
	assert_int_equal(play_move(f->s, tid, ub, snap_b, v, f->now + 2, &e), PLAY_STALE);
	assert_non_null(strstr(e.msg, "Zu spät"));
	assert_unchanged(f, tid, before);   /* b keeps its card */
	/* Exactly one snap is in the log. */
	struct st_move last = last_step(f, tid);
	assert_string_equal(last.text, snap_a);
	assert_int_equal(last.seat, a);

	assert_int_equal(play_verify_party(f->s, tid, before->party_no, &e), PLAY_OK);
	free(l);
	free(before);
}

/* The same race with real processes, each with its own connection, all
 * released at once: BEGIN IMMEDIATE lets exactly one snap land. */
static void test_snap_race_processes(void **state)
{
	struct fx *f = *state;
	struct play_table pt;
	struct movelist *l = malloc(sizeof *l);
	struct sig *before = malloc(sizeof *before);
	char snaps[GAME_MAX_SEATS][GAME_MOVE_MAX + 1];
	int64_t users[GAME_MAX_SEATS];
	pid_t pids[GAME_MAX_SEATS];
	int gate[2], n = 0;
	assert_non_null(l);
	assert_non_null(before);
	int64_t tid = full_table(f, 6, "snap_seconds=60");

	assert_int_equal(find_window(f, tid, 3, 3, &pt, l), 1);
	int64_t v = pt.t.version;
	for (int s = 0; s < pt.t.nseats; s++) {
		if (!(pt.status.to_act & (1u << s)))
			continue;
		moves_of(&pt, s, l);
		const char *m = move_like(l, "snap ");
		if (!m)
			continue;
		snprintf(snaps[n], sizeof snaps[n], "%s", m);
		users[n++] = user_of(&pt, s);
	}
	play_free(&pt);
	assert_true(n >= 3);
	take_sig(f, tid, before);

	assert_int_equal(pipe(gate), 0);
	for (int i = 0; i < n; i++) {
		pids[i] = fork();
		assert_true(pids[i] >= 0);
		if (pids[i] == 0) {
			struct store *own = NULL;
			struct rerr e;
			char go;
			close(gate[1]);
			if (store_open(&own, f->db.path, f->db.schema) != ST_OK)
				_exit(100);
			if (read(gate[0], &go, 1) != 0)   /* EOF: all released together */
				_exit(101);
			int rc = play_move(own, tid, users[i], snaps[i], v, f->now + 1, &e);
			store_close(own);
			_exit(rc);
		}
	}
	close(gate[0]);
	close(gate[1]);
	int ok = 0, stale = 0;
	for (int i = 0; i < n; i++) {
		int st;
		assert_int_equal(waitpid(pids[i], &st, 0), pids[i]);
		assert_true(WIFEXITED(st));
		ok += WEXITSTATUS(st) == PLAY_OK;
		stale += WEXITSTATUS(st) == PLAY_STALE;
	}
	assert_int_equal(ok, 1);
	assert_int_equal(stale, n - 1);

	struct sig *after = malloc(sizeof *after);
	assert_non_null(after);
	take_sig(f, tid, after);
	assert_int_equal(after->version, before->version + 1);
	assert_int_equal(after->moves, before->moves + 1);
	struct st_move last = last_step(f, tid);
	assert_int_equal(strncmp(last.text, "snap ", 5), 0);
	assert_int_equal(play_verify_party(f->s, tid, after->party_no, NULL), PLAY_OK);
	free(after);
	free(l);
	free(before);
}

/* A pass does not change the position: the other seat's snap from the
 * same page still counts. */
static void test_pass_keeps_page_fresh(void **state)
{
	struct fx *f = *state;
	struct play_table pt;
	struct movelist *l = malloc(sizeof *l);
	struct rerr e;
	char snap[GAME_MOVE_MAX + 1];
	assert_non_null(l);
	int64_t tid = full_table(f, 4, "snap_seconds=60");

	assert_int_equal(find_window(f, tid, 1, 2, &pt, l), 1);
	int64_t v = pt.t.version;
	int snapper = -1, passer = -1;
	for (int s = 0; s < pt.t.nseats; s++) {
		if (!(pt.status.to_act & (1u << s)))
			continue;
		moves_of(&pt, s, l);
		if (snapper < 0 && move_like(l, "snap ")) {
			snapper = s;
			snprintf(snap, sizeof snap, "%s", move_like(l, "snap "));
		} else if (passer < 0) {
			passer = s;
		}
	}
	assert_true(snapper >= 0 && passer >= 0);
	int64_t us = user_of(&pt, snapper), up = user_of(&pt, passer);
	play_free(&pt);
	int64_t pv0 = 0, pv1 = 0, pdl = 0;
	assert_int_equal(store_table_poll(f->s, tid, &pv0, &pdl), ST_OK);
	assert_int_equal(play_move(f->s, tid, up, "pass", v, f->now, &e), PLAY_OK);
	/* The pass changed nothing another seat can see: the poll's version
	 * stays, so no other page reloads and its timing tells nobody who
	 * passed (a quick pass suggests an empty hand). */
	assert_int_equal(store_table_poll(f->s, tid, &pv1, &pdl), ST_OK);
	assert_int_equal(pv1, pv0);
	assert_int_equal(play_move(f->s, tid, us, snap, v, f->now + 1, &e), PLAY_OK);
	assert_int_equal(store_table_poll(f->s, tid, &pv1, &pdl), ST_OK);
	assert_true(pv1 > pv0);   /* the snap is seen by everyone */
	struct st_move last = last_step(f, tid);
	assert_string_equal(last.text, snap);
	assert_int_equal(last.version, v + 2);
	free(l);
}

/* A window whose deadline passed is closed by the next page load, logged
 * as a tick step; a move sent from before is too late. */
static void test_deadline_tick(void **state)
{
	struct fx *f = *state;
	struct play_table pt;
	struct movelist *l = malloc(sizeof *l);
	struct sig *before = malloc(sizeof *before);
	struct rerr e;
	int64_t v, dl, pv, pdl;
	assert_non_null(l);
	assert_non_null(before);
	int64_t tid = full_table(f, 3, "snap_seconds=5");

	assert_int_equal(find_window(f, tid, 1, 1, &pt, l), 1);
	v = pt.t.version;
	dl = pt.status.deadline;
	int s = lowest_bit(pt.status.to_act);
	int64_t u = user_of(&pt, s);
	assert_int_equal(pt.t.next_deadline, dl);
	play_free(&pt);

	/* The poll's read sees the deadline; before it, loading changes nothing. */
	assert_int_equal(store_table_poll(f->s, tid, &pv, &pdl), ST_OK);
	assert_int_equal(pv, v);
	assert_int_equal(pdl, dl);
	take_sig(f, tid, before);
	assert_int_equal(play_load(f->s, tid, 0, dl - 1, &pt), PLAY_OK);
	play_free(&pt);
	assert_unchanged(f, tid, before);

	assert_int_equal(play_load(f->s, tid, 0, dl, &pt), PLAY_OK);
	assert_int_equal(pt.t.version, v + 1);
	assert_int_equal(pt.t.next_deadline, 0);
	assert_int_equal(pt.status.deadline, 0);
	assert_int_equal(bits(pt.status.to_act), 1);
	play_free(&pt);
	struct st_move last = last_step(f, tid);
	assert_int_equal(last.seat, -1);
	assert_string_equal(last.text, "tick");
	assert_int_equal(last.at, dl);
	assert_int_equal(last.version, v + 1);
	/* Loading again applies nothing more. */
	take_sig(f, tid, before);
	assert_int_equal(play_tick(f->s, tid, dl + 5000), PLAY_OK);
	assert_unchanged(f, tid, before);

	/* A pass from the page before the tick: the window is gone, and the
	 * answer says so ("zu spät"), not the rules. */
	assert_int_equal(play_move(f->s, tid, u, "pass", v, dl + 10, &e), PLAY_STALE);
	assert_non_null(strstr(e.msg, "Zu spät"));
	assert_unchanged(f, tid, before);
	assert_int_equal(play_verify_party(f->s, tid, before->party_no, &e), PLAY_OK);
	free(l);
	free(before);
}

/* A move that arrives after the deadline: the tick runs first inside the
 * move's transaction, and the move is judged on the ticked state. */
static void test_move_after_deadline(void **state)
{
	struct fx *f = *state;
	struct play_table pt;
	struct movelist *l = malloc(sizeof *l);
	struct sig *before = malloc(sizeof *before);
	struct rerr e;
	assert_non_null(l);
	assert_non_null(before);
	int64_t tid = full_table(f, 3, "snap_seconds=5");

	assert_int_equal(find_window(f, tid, 1, 1, &pt, l), 1);
	int64_t v = pt.t.version, dl = pt.status.deadline;
	/* The window is open to every other seat; take one that holds a snap. */
	int s = -1;
	const char *snap = NULL;
	for (int k = 0; k < pt.t.nseats && !snap; k++) {
		if (!(pt.status.to_act >> k & 1u))
			continue;
		moves_of(&pt, k, l);
		snap = move_like(l, "snap ");
		s = k;
	}
	assert_non_null(snap);
	int64_t u = user_of(&pt, s);
	play_free(&pt);
	take_sig(f, tid, before);
	/* Too late for the snap: refused, and the tick is not kept either. */
	assert_int_not_equal(play_move(f->s, tid, u, snap, v, dl + 1, &e), PLAY_OK);
	assert_unchanged(f, tid, before);
	free(l);
	free(before);
}

/* A whole match of three parties: after each party's end and its pause
 * (continues or the pause deadline) the next starts with the dealer one
 * seat on; the last one finishes the table with totals;
 * every party replays to its stored snapshot. */
static void test_whole_match(void **state)
{
	struct fx *f = *state;
	struct play_table pt;
	struct st_party p;
	struct rerr e;
	uint32_t rnd = 12345;
	int steps = 0, first_dealer;
	int64_t tid = full_table(f, 3, "snap_seconds=3");

	assert_int_equal(play_load(f->s, tid, 0, f->now, &pt), PLAY_OK);
	first_dealer = pt.t.first_dealer;
	play_free(&pt);

	int seen_party = 0;
	while (play_one(f, tid, &rnd)) {
		assert_true(++steps < 20000);
		struct st_table t;
		assert_int_equal(store_table_get(f->s, tid, &t), ST_OK);
		if (t.status == TABLE_PLAYING && t.party_no != seen_party) {
			/* A new party: the previous one is over with its scores. */
			assert_int_equal(t.party_no, seen_party + 1);
			assert_int_equal(store_party_get(f->s, tid, seen_party, &p, NULL, 0), ST_OK);
			assert_int_equal(p.over, 1);
			assert_int_equal(store_party_get(f->s, tid, t.party_no, &p, NULL, 0), ST_OK);
			assert_int_equal(p.over, 0);
			assert_int_equal(p.dealer, (first_dealer + t.party_no) % 3);
			assert_int_equal(t.epoch_version, t.version);
			seen_party = t.party_no;
		}
	}
	assert_int_equal(seen_party, 2);
	print_message("whole match: %d steps over three parties\n", steps);

	assert_int_equal(play_load(f->s, tid, f->user[1], f->now, &pt), PLAY_OK);
	assert_int_equal(pt.t.status, TABLE_FINISHED);
	assert_int_equal(pt.t.party_no, 2);
	assert_int_equal(pt.t.next_deadline, 0);
	assert_int_equal(pt.has_party, 1);
	assert_int_equal(pt.status.over, 1);
	assert_int_equal(pt.nfinished, 3);
	assert_int_equal(pt.totals.parties, 3);
	for (int s = 0; s < 3; s++) {
		int sum = 0;
		for (int k = 0; k < 3; k++)
			sum += pt.party_score[k][s];
		assert_int_equal(pt.totals.total[s], sum);
		assert_int_equal(pt.party_score[2][s], pt.status.score[s]);
	}
	int64_t v = pt.t.version;
	play_free(&pt);

	/* Its match is rated once, by the final places: every player has one
	 * rated match, more certain than a new player's; the winner gains. */
	struct st_rating rt;
	for (int s2 = 0; s2 < 3; s2++) {
		assert_int_equal(store_rating_get(f->s, user_of_seat(f, tid, s2), "drehwurm", &rt),
				 ST_OK);
		assert_int_equal(rt.matches, 1);
		assert_true(rt.sigma < 25.0 / 3);
	}
	assert_int_equal(store_table_set_rated(f->s, tid), ST_EXISTS);

	/* A finished table takes no more moves. */
	assert_int_equal(play_move(f->s, tid, f->user[0], "pass", v, f->now, &e), PLAY_NOT_PLAYING);
	for (int k = 0; k < 3; k++)
		assert_int_equal(play_verify_party(f->s, tid, k, &e), PLAY_OK);
	assert_int_equal(play_verify_party(f->s, tid, 3, &e), PLAY_NOT_FOUND);

	/* The check is real: a party whose last game step went missing is
	 * caught (the continues after its end are no game steps). */
	assert_int_equal(tmpdb_exec(&f->db, "DELETE FROM moves WHERE party = (SELECT min(id) FROM "
				    "parties) AND seq = (SELECT max(seq) FROM moves WHERE party = "
				    "(SELECT min(id) FROM parties) AND text <> 'weiter')"), 0);
	assert_int_equal(play_verify_party(f->s, tid, 0, &e), PLAY_ERR);
	assert_true(strlen(e.msg) > 0);
	assert_int_equal(play_verify_party(f->s, tid, 1, &e), PLAY_OK);
}

/* In a game that starts with the winner (Worst Game Ever: "Startspieler
 * ist, wer zuletzt ein Spiel gewonnen hat"), each party after the first is
 * dealt by, and begun by, the previous party's winner. */
static void test_winner_starts_next_party(void **state)
{
	struct fx *f = *state;
	struct st_party p;
	uint32_t rnd = 4242;
	int steps = 0, seen_party = 0, checked = 0;
	int64_t tid = full_table_of(f, "worstgame", 3, "parties=3;react_seconds=5");
	while (play_one(f, tid, &rnd)) {
		assert_true(++steps < 20000);
		struct st_table t;
		assert_int_equal(store_table_get(f->s, tid, &t), ST_OK);
		if (t.status != TABLE_PLAYING || t.party_no == seen_party)
			continue;
		/* the finished party's winner, from its stored final state */
		const struct game *g = game_find("worstgame");
		unsigned char *snap = malloc(GAME_SNAPSHOT_MAX);
		void *st = calloc(1, g->state_size);
		struct status fin;
		struct party_result r;
		struct rerr e;
		assert_non_null(snap);
		assert_non_null(st);
		assert_int_equal(store_party_get(f->s, tid, seen_party, &p, snap, GAME_SNAPSHOT_MAX),
				 ST_OK);
		assert_int_equal(p.over, 1);
		assert_int_equal(game_load(g, st, snap, p.snap_len, &e), SNAP_OK);
		g->status(st, &fin);
		party_result(&fin, 3, &r);
		int want = party_winner(&r, 3);
		assert_int_equal(store_party_get(f->s, tid, t.party_no, &p, NULL, 0), ST_OK);
		if (want >= 0) {
			assert_int_equal(p.dealer, want);
			checked++;
		}
		free(st);
		free(snap);
		seen_party = t.party_no;
	}
	assert_int_equal(seen_party, 2);
	assert_true(checked >= 1);
}

/* A table filled with bots by its creator starts; the bots move whenever a
 * request touches the table, so one person plays a whole match alone; every
 * party replays from its log (the bots' moves are logged like anyone's). */
static void test_bots_fill_a_table(void **state)
{
	struct fx *f = *state;
	struct rerr e;
	struct play_table pt;
	uint32_t rnd = 99;
	int64_t tid = 0;
	int steps = 0;
	assert_int_equal(play_create(f->s, "worstgame", "parties=2;react_seconds=5", 3, f->user[0],
				     f->now, &tid, &e), PLAY_OK);
	assert_int_equal(play_add_bot(f->s, tid, f->user[1], BOT_GREEDY, f->now, &e),
			 PLAY_NOT_SEATED);
	assert_int_equal(play_add_bot(f->s, tid, f->user[0], 7, f->now, &e), PLAY_INVALID);
	assert_int_equal(play_add_bot(f->s, tid, f->user[0], BOT_GREEDY, f->now, &e), PLAY_OK);
	assert_int_equal(play_load(f->s, tid, f->user[0], f->now, &pt), PLAY_OK);
	assert_int_equal(pt.t.status, TABLE_OPEN);
	assert_int_equal(pt.nseated, 2);
	assert_int_equal(pt.seats[1].bot, 2);
	assert_int_equal(pt.seats[1].user_id, 0);
	play_free(&pt);
	assert_int_equal(play_add_bot(f->s, tid, f->user[0], BOT_RANDOM, f->now, &e), PLAY_OK);
	assert_int_equal(play_add_bot(f->s, tid, f->user[0], BOT_RANDOM, f->now, &e),
			 PLAY_NOT_PLAYING);
	while (play_one(f, tid, &rnd))
		assert_true(++steps < 5000);
	assert_int_equal(play_load(f->s, tid, f->user[0], f->now, &pt), PLAY_OK);
	assert_int_equal(pt.t.status, TABLE_FINISHED);
	assert_int_equal(pt.nfinished, 2);
	play_free(&pt);
	struct st_rating rt;   /* a match with bots is unrated */
	assert_int_equal(store_rating_get(f->s, f->user[0], "worstgame", &rt), ST_NOTFOUND);
	for (int k = 0; k < 2; k++)
		assert_int_equal(play_verify_party(f->s, tid, k, &e), PLAY_OK);
	print_message("one person and two bots: %d steps of the person\n", steps);
}

/* A person lets a bot play for them and takes the seat back; meanwhile
 * their own moves are refused. A person who resigns cannot come back, a
 * bot plays on, and the seat's result counts as last. */
static void test_bot_for_me_and_resign(void **state)
{
	struct fx *f = *state;
	struct rerr e;
	struct play_table pt;
	struct st_party p;
	uint32_t rnd = 5;
	int steps = 0;
	int64_t tid = full_table_of(f, "worstgame", 3, "react_seconds=5");
	assert_int_equal(play_seat(f->s, tid, f->user[1], PLAY_SEAT_BACK, f->now, &e),
			 PLAY_REJECTED);
	assert_int_equal(play_seat(f->s, tid, f->user[1], PLAY_SEAT_BOT, f->now, &e), PLAY_OK);
	assert_int_equal(play_seat(f->s, tid, f->user[1], PLAY_SEAT_BOT, f->now, &e),
			 PLAY_REJECTED);
	assert_int_equal(play_load(f->s, tid, f->user[1], f->now, &pt), PLAY_OK);
	assert_int_equal(pt.seats[1].bot, 2);
	assert_int_equal(pt.status.to_act & 2u, 0);   /* the bot has moved */
	assert_int_equal(play_move(f->s, tid, f->user[1], "pass", pt.t.version, f->now, &e),
			 PLAY_REJECTED);
	assert_non_null(strstr(e.msg, "Bot"));
	play_free(&pt);
	assert_int_equal(play_seat(f->s, tid, f->user[1], PLAY_SEAT_BACK, f->now, &e), PLAY_OK);
	for (int k = 0; k < 20 && play_one(f, tid, &rnd); k++)
		;
	assert_int_equal(play_seat(f->s, tid, f->user[2], PLAY_SEAT_RESIGN, f->now, &e), PLAY_OK);
	assert_int_equal(play_seat(f->s, tid, f->user[2], PLAY_SEAT_BACK, f->now, &e),
			 PLAY_REJECTED);
	while (play_one(f, tid, &rnd))
		assert_true(++steps < 5000);
	assert_int_equal(store_party_get(f->s, tid, 0, &p, NULL, 0), ST_OK);
	assert_int_equal(p.over, 1);
	assert_int_equal(p.result.place[2], 3);
	assert_true(p.result.place[0] == 1 || p.result.place[1] == 1);
	/* rated for the two who played on, not for the one who gave up */
	struct st_rating rt;
	assert_int_equal(store_rating_get(f->s, f->user[0], "worstgame", &rt), ST_OK);
	assert_int_equal(store_rating_get(f->s, f->user[1], "worstgame", &rt), ST_OK);
	assert_int_equal(store_rating_get(f->s, f->user[2], "worstgame", &rt), ST_NOTFOUND);
	assert_int_equal(play_verify_party(f->s, tid, 0, &e), PLAY_OK);
}

/* A Drehwurm table of n seats with a clock: "days" of day_ms, the first
 * move's bank `first` days, one day per move, capped at `first`. */
static int64_t clocked_table(struct fx *f, int n, const char *opts, int over_days,
			     int64_t day_ms, int first, int timeouts_max)
{
	struct play_speed sp = { { first * day_ms, day_ms, first * day_ms, day_ms, 0, over_days },
				 timeouts_max };
	int64_t tid = 0;
	struct rerr e;
	assert_int_equal(play_create_timed(f->s, "drehwurm", opts, n, &sp, f->user[0], f->now, &tid,
					   &e), PLAY_OK);
	for (int i = 1; i < n; i++)
		assert_int_equal(play_join(f->s, tid, f->user[i], f->now, &e), PLAY_OK);
	return tid;
}

/* The seat's row of a loaded table. */
static const struct st_seat *seat_row(const struct play_table *pt, int seat)
{
	for (int i = 0; i < pt->nseated; i++)
		if (pt->seats[i].seat == seat)
			return &pt->seats[i];
	fail_msg("no seat %d", seat);
	return NULL;
}

/* A clock that runs out on a regular turn: the greedy bot plays it, the
 * timeout counts, the bank starts again from the time per move; at the table's
 * second timeout the bot keeps the seat and its result counts as last. */
static void test_clock_timeout_bot_then_takeover(void **state)
{
	struct fx *f = *state;
	struct play_table pt;
	const int64_t day = 1000;
	int64_t tid = clocked_table(f, 3, "", 1, day, 3, 2);
	assert_int_equal(play_load(f->s, tid, 0, f->now, &pt), PLAY_OK);
	int q = pt.status.turn;
	assert_true(q >= 0);
	assert_true(seat_row(&pt, q)->waiting_since == f->now);
	assert_true(seat_row(&pt, q)->clock_left == 3 * day);
	assert_true(pt.t.next_deadline == f->now + 3 * day);
	int64_t v = pt.t.version;
	play_free(&pt);
	/* a move sent after the end is too late, and says why */
	struct rerr e;
	assert_int_equal(play_move(f->s, tid, f->user[q], "draw", v, f->now + 3 * day, &e),
			 PLAY_STALE);
	assert_non_null(strstr(e.msg, "Zeit"));
		/* a moment before the end nothing happens */
	f->now += 3 * day - 1;
	assert_int_equal(play_load(f->s, tid, 0, f->now, &pt), PLAY_OK);
	assert_true(pt.t.version == v);
	play_free(&pt);
	f->now += 1;
	assert_int_equal(play_load(f->s, tid, 0, f->now, &pt), PLAY_OK);
	struct st_move m = last_step(f, tid);
	assert_int_equal(m.seat, q);
	assert_string_not_equal(m.text, "pass");
	assert_int_equal(seat_row(&pt, q)->timeouts, 1);
	assert_int_equal(seat_row(&pt, q)->bot, 0);
	assert_true(seat_row(&pt, q)->waiting_since == 0);
	/* a new wait began with the time per move; the stand-in's move earns
	 * nothing more (docs/rulings.md: the clock "starts again from the time
	 * per move") */
	assert_true(seat_row(&pt, q)->clock_left == day);
	play_free(&pt);
	/* nobody moves again: every clock runs out, until q's second timeout */
	for (int k = 0; k < 40; k++) {
		assert_int_equal(play_load(f->s, tid, 0, f->now, &pt), PLAY_OK);
		int bot = seat_row(&pt, q)->bot;
		f->now = pt.t.next_deadline > f->now ? pt.t.next_deadline : f->now + day;
		play_free(&pt);
		if (bot)
			break;
	}
	assert_int_equal(play_load(f->s, tid, 0, f->now, &pt), PLAY_OK);
	assert_int_equal(seat_row(&pt, q)->bot, BOT_GREEDY + 1);
	assert_int_equal(seat_row(&pt, q)->resigned, 1);
	assert_int_equal(seat_row(&pt, q)->timeouts, 2);
	play_free(&pt);
}

/* Over days a window waits for the seats' clocks, not its own deadline;
 * when a seat's clock runs out in it, the seat passes. Live, the window
 * closes at its own deadline as always and the clock only runs on turns. */
static void test_clock_windows_over_days_and_live(void **state)
{
	struct fx *f = *state;
	struct rerr e;
	struct play_table pt;
	uint32_t rnd = 3;
	for (int over_days = 1; over_days >= 0; over_days--) {
		int64_t tid = clocked_table(f, 3, "snap_seconds=5", over_days, 3600000, 2, 0);
		int found = 0;
		for (int k = 0; k < 400 && !found; k++) {
			assert_int_equal(play_load(f->s, tid, 0, f->now, &pt), PLAY_OK);
			found = pt.status.window && (pt.status.to_act & pt.status.window);
			if (!found && pt.status.to_act) {
				struct movelist *l = malloc(sizeof *l);
				int seat = lowest_bit(pt.status.to_act);
				moves_of(&pt, seat, l);
				rnd = rnd * 1103515245u + 12345u;
				assert_int_equal(play_move(f->s, tid, user_of(&pt, seat),
							   l->m[(rnd >> 8) % (uint32_t)l->n],
							   pt.t.version, f->now, &e), PLAY_OK);
				free(l);
			}
			play_free(&pt);
			f->now += 100;
		}
		assert_true(found);
		assert_int_equal(play_load(f->s, tid, 0, f->now, &pt), PLAY_OK);
		uint32_t waiting = pt.status.to_act & pt.status.window;
		int w = lowest_bit(waiting);
		play_free(&pt);
		f->now += 6000;   /* past the window's own five seconds */
		assert_int_equal(play_load(f->s, tid, 0, f->now, &pt), PLAY_OK);
		assert_int_equal((pt.status.to_act & pt.status.window) == waiting, over_days);
		if (over_days) {
			assert_true(seat_row(&pt, w)->waiting_since > 0);
			f->now = pt.t.next_deadline;
			play_free(&pt);
			assert_int_equal(play_load(f->s, tid, 0, f->now, &pt), PLAY_OK);
			/* every seat the window waited for passed (a new wait may begin) */
			for (int z = 0; z < 3; z++)
				if ((waiting >> z) & 1u) {
					assert_int_equal(seat_row(&pt, z)->timeouts, 1);
					assert_true(seat_row(&pt, z)->waiting_since == 0 ||
						    seat_row(&pt, z)->waiting_since == f->now);
				}
		} else {
			assert_int_equal(seat_row(&pt, w)->timeouts, 0);
		}
		play_free(&pt);
	}
}

/* After a seat's timeout the others may vote to let a bot take it over
 * for good; not before, not twice, not for themselves. */
static void test_clock_expel_vote(void **state)
{
	struct fx *f = *state;
	struct rerr e;
	struct play_table pt;
	int64_t tid = clocked_table(f, 3, "", 1, 1000, 1, 0);
	assert_int_equal(play_load(f->s, tid, 0, f->now, &pt), PLAY_OK);
	int q = pt.status.turn, a = (q + 1) % 3, b = (q + 2) % 3;
	play_free(&pt);
	assert_int_equal(play_expel(f->s, tid, f->user[a], q, f->now, &e), PLAY_REJECTED);
	f->now += 1000;
	assert_int_equal(play_load(f->s, tid, 0, f->now, &pt), PLAY_OK);
	assert_int_equal(seat_row(&pt, q)->timeouts, 1);
	play_free(&pt);
	assert_int_equal(play_expel(f->s, tid, f->user[q], q, f->now, &e), PLAY_REJECTED);
	assert_int_equal(play_expel(f->s, tid, f->user[a], q, f->now, &e), PLAY_OK);
	assert_int_equal(play_expel(f->s, tid, f->user[a], q, f->now, &e), PLAY_STALE);
	assert_int_equal(play_expel(f->s, tid, f->user[4], q, f->now, &e), PLAY_NOT_SEATED);
	assert_int_equal(play_load(f->s, tid, 0, f->now, &pt), PLAY_OK);
	assert_int_equal(seat_row(&pt, q)->bot, 0);
	play_free(&pt);
	assert_int_equal(play_expel(f->s, tid, f->user[b], q, f->now, &e), PLAY_OK);
	assert_int_equal(play_load(f->s, tid, 0, f->now, &pt), PLAY_OK);
	assert_int_equal(seat_row(&pt, q)->bot, BOT_GREEDY + 1);
	assert_int_equal(seat_row(&pt, q)->resigned, 1);
	play_free(&pt);
}

/* A seat a bot holds for nobody is offered to a new player: one claim a
 * person, not by someone seated, not twice; it changes hands when the next
 * party is dealt, with the seat's totals and a full clock. */
static void test_claim_a_bot_seat(void **state)
{
	struct fx *f = *state;
	struct rerr e;
	struct play_table pt;
	uint32_t rnd = 17;
	int64_t tid = 0;
	assert_int_equal(play_create(f->s, "worstgame", "parties=2;react_seconds=5", 3, f->user[0],
				     f->now, &tid, &e), PLAY_OK);
	assert_int_equal(play_add_bot(f->s, tid, f->user[0], BOT_GREEDY, f->now, &e), PLAY_OK);
	assert_int_equal(play_claim(f->s, tid, f->user[3], 1, f->now, &e), PLAY_REJECTED);
	assert_int_equal(play_join(f->s, tid, f->user[1], f->now, &e), PLAY_OK);
	assert_int_equal(play_claim(f->s, tid, f->user[1], 1, f->now, &e), PLAY_ALREADY);
	assert_int_equal(play_claim(f->s, tid, f->user[3], 2, f->now, &e), PLAY_REJECTED);
	assert_int_equal(play_claim(f->s, tid, f->user[3], 1, f->now, &e), PLAY_OK);
	assert_int_equal(play_claim(f->s, tid, f->user[3], 1, f->now, &e), PLAY_STALE);
	assert_int_equal(play_claim(f->s, tid, f->user[4], 1, f->now, &e), PLAY_REJECTED);
	assert_int_equal(play_load(f->s, tid, f->user[3], f->now, &pt), PLAY_OK);
	assert_int_equal(seat_row(&pt, 1)->claimed_by, f->user[3]);
	assert_int_equal(seat_row(&pt, 1)->bot, BOT_GREEDY + 1);
	assert_int_equal(pt.my_seat, -1);
	play_free(&pt);
	/* the first party runs to its end with the bot; then the seat is hers */
	for (int k = 0; k < 5000; k++) {
		assert_int_equal(play_load(f->s, tid, 0, f->now, &pt), PLAY_OK);
		int party = pt.t.party_no;
		play_free(&pt);
		if (party == 1)
			break;
		assert_int_equal(play_one(f, tid, &rnd), 1);
	}
	assert_int_equal(play_load(f->s, tid, f->user[3], f->now, &pt), PLAY_OK);
	assert_int_equal(pt.t.party_no, 1);
	assert_int_equal(pt.my_seat, 1);
	assert_int_equal(seat_row(&pt, 1)->bot, 0);
	assert_int_equal(seat_row(&pt, 1)->claimed_by, 0);
	assert_int_equal(pt.nfinished, 1);
	play_free(&pt);
	/* the last party: nothing left to claim */
	assert_int_equal(play_claim(f->s, tid, f->user[4], 1, f->now, &e), PLAY_REJECTED);
}

/* Inviting by name: only someone seated, only while the table waits, only
 * someone who exists and is not seated; the invitee sees it until they sit
 * down. The rematch of a finished table: the same game, options, seats and
 * speed, the asker seated, the others invited, one new table however many
 * ask; joining it by all starts it. */
static void test_invite_and_rematch(void **state)
{
	struct fx *f = *state;
	struct rerr e;
	struct st_invite in[4];
	struct st_table t, nt;
	int n;
	int64_t tid = 0, next = 0, again = 0;
	struct play_speed sp = { { 60000, 60000, 60000, CLOCK_DAY_MS, 0, 0 }, 2 };
	assert_int_equal(play_create_timed(f->s, "dna", "", 2, &sp, f->user[0], f->now, &tid, &e),
			 PLAY_OK);
	assert_int_equal(play_invite(f->s, tid, f->user[1], "Anna", f->now, &e), PLAY_NOT_SEATED);
	assert_int_equal(play_invite(f->s, tid, f->user[0], "Niemand", f->now, &e), PLAY_REJECTED);
	assert_int_equal(play_invite(f->s, tid, f->user[0], "anna", f->now, &e), PLAY_REJECTED);
	assert_int_equal(play_invite(f->s, tid, f->user[0], "bert", f->now, &e), PLAY_OK);
	assert_int_equal(play_invite(f->s, tid, f->user[0], "Bert", f->now, &e), PLAY_OK);
	assert_int_equal(store_invites_to(f->s, f->user[1], in, 4, &n), ST_OK);
	assert_int_equal(n, 1);
	assert_true(in[0].table_id == tid);
	assert_string_equal(in[0].from, "Anna");
	assert_int_equal(play_rematch(f->s, tid, f->user[0], f->now, &next, &e), PLAY_NOT_PLAYING);
	assert_int_equal(play_join(f->s, tid, f->user[1], f->now, &e), PLAY_OK);
	assert_int_equal(store_invites_to(f->s, f->user[1], in, 4, &n), ST_OK);
	assert_int_equal(n, 0);   /* seated: settled */
	assert_int_equal(play_invite(f->s, tid, f->user[0], "Carla", f->now, &e), PLAY_NOT_PLAYING);
	/* the match ends (the sweep closes it: the quickest way to an end) */
	struct play_sweep rule = { 0, 1000, 3 };
	struct play_swept out;
	assert_int_equal(play_sweep(f->s, &rule, f->now + 2000, &out), PLAY_OK);
	assert_int_equal(store_table_get(f->s, tid, &t), ST_OK);
	assert_int_equal(t.status, TABLE_FINISHED);
	assert_int_equal(play_rematch(f->s, tid, f->user[2], f->now, &next, &e), PLAY_NOT_SEATED);
	assert_int_equal(play_rematch(f->s, tid, f->user[1], f->now, &next, &e), PLAY_OK);
	assert_int_equal(play_rematch(f->s, tid, f->user[0], f->now, &again, &e), PLAY_OK);
	assert_true(next > 0 && again == next);
	assert_int_equal(store_table_get(f->s, next, &nt), ST_OK);
	assert_string_equal(nt.game, t.game);
	assert_string_equal(nt.options, t.options);
	assert_int_equal(nt.nseats, t.nseats);
	assert_true(nt.clock.first_ms == 60000 && nt.timeouts_max == 2);
	assert_int_equal(nt.status, TABLE_OPEN);
	assert_int_equal(store_invites_to(f->s, f->user[0], in, 4, &n), ST_OK);
	assert_int_equal(n, 1);
	assert_true(in[0].table_id == next);
	assert_string_equal(in[0].from, "Bert");
	assert_int_equal(play_join(f->s, next, f->user[0], f->now, &e), PLAY_OK);
	assert_int_equal(store_table_get(f->s, next, &nt), ST_OK);
	assert_int_equal(nt.status, TABLE_PLAYING);
}

/* The housekeeping a request does on the side: a table whose clock ran
 * out is ticked although nobody looks at it, an open table nobody filled
 * in time goes, a running table nobody moved at is closed with the result
 * of its finished parties; anything younger stays as it is. */
static void test_sweep(void **state)
{
	struct fx *f = *state;
	struct rerr e;
	struct play_table pt;
	struct st_table t;
	struct play_swept out;
	const int64_t day = 1000;
	struct play_sweep rule = { 7 * day, 14 * day, 3 };
	int64_t open = 0, clocked = clocked_table(f, 3, "", 1, day, 3, 0);
	assert_int_equal(play_create(f->s, "drehwurm", "", 3, f->user[4], f->now, &open, &e),
			 PLAY_OK);
	int64_t idle = full_table(f, 3, "");
	int64_t t0 = f->now;
	/* nothing is due yet */
	assert_int_equal(play_sweep(f->s, &rule, t0 + day, &out), PLAY_OK);
	assert_true(out.ticked == 0 && out.expired == 0 && out.closed == 0);
	/* the clock ran out: ticked without a page */
	assert_int_equal(play_sweep(f->s, &rule, t0 + 3 * day, &out), PLAY_OK);
	assert_true(out.ticked >= 1 && out.expired == 0 && out.closed == 0);
	assert_int_equal(store_table_get(f->s, clocked, &t), ST_OK);
	assert_true(t.next_deadline > t0 + 3 * day);
	/* a week: the open table goes */
	assert_int_equal(play_sweep(f->s, &rule, t0 + 7 * day + 1, &out), PLAY_OK);
	assert_int_equal(out.expired, 1);
	assert_int_equal(store_table_get(f->s, open, &t), ST_NOTFOUND);
	/* two weeks without a step: the table without a clock closes; the
	 * clocked one keeps moving as its clocks run out */
	f->now = t0 + 14 * day + 1;
	assert_int_equal(play_sweep(f->s, &rule, f->now, &out), PLAY_OK);
	assert_int_equal(out.closed, 1);
	assert_int_equal(store_table_get(f->s, idle, &t), ST_OK);
	assert_int_equal(t.status, TABLE_FINISHED);
	assert_int_equal(t.closed_idle, 1);
	assert_int_equal(store_table_get(f->s, clocked, &t), ST_OK);
	assert_int_equal(t.status, TABLE_PLAYING);
	assert_int_equal(play_load(f->s, idle, f->user[0], f->now, &pt), PLAY_OK);
	long long v = pt.t.version;
	play_free(&pt);
	assert_int_equal(play_move(f->s, idle, f->user[0], "pass", v, f->now, &e), PLAY_NOT_PLAYING);
}

/* A standing choice made in advance: seats 1 and 2 pass every window
 * automatically, so no open window ever waits for them, while seat 0
 * still answers its own; the auto-passes are logged as moves. */
static void test_autopass_answers_windows(void **state)
{
	struct fx *f = *state;
	struct rerr e;
	uint32_t rnd = 31;
	int64_t tid = full_table(f, 3, "snap_seconds=30");
	assert_int_equal(play_autopass(f->s, tid, f->user[1], 1, f->now, &e), PLAY_OK);
	assert_int_equal(play_autopass(f->s, tid, f->user[2], 1, f->now, &e), PLAY_OK);
	assert_int_equal(play_autopass(f->s, tid, f->user[4], 1, f->now, &e), PLAY_NOT_SEATED);
	int windows_for_me = 0;
	for (int k = 0; k < 300 && play_one(f, tid, &rnd); k++) {
		struct play_table pt;
		assert_int_equal(play_load(f->s, tid, f->user[0], f->now, &pt), PLAY_OK);
		assert_int_equal(pt.status.to_act & pt.status.window & 6u, 0);
		windows_for_me += (pt.status.window & pt.status.to_act & 1u) != 0;
		assert_int_equal(pt.seats[1].autopass, 1);
		play_free(&pt);
	}
	assert_int_equal(play_autopass(f->s, tid, f->user[1], 0, f->now, &e), PLAY_OK);
	print_message("seat 0 answered %d windows itself\n", windows_for_me);
	assert_true(windows_for_me > 0);
}

/* The end of a party stays on the table: the party is over, its scores are
 * counted, the table waits PLAY_PAUSE_SECONDS and the poll sees that
 * deadline; game moves are refused, a page from before the end is too late,
 * each seat continues once, and the last continue deals the next party. */
static void test_party_end_stays(void **state)
{
	struct fx *f = *state;
	struct play_table pt;
	struct sig *before = malloc(sizeof *before);
	struct rerr e;
	uint32_t rnd = 777;
	int64_t pv, pdl;
	assert_non_null(before);
	int64_t tid = full_table(f, 3, "snap_seconds=3");

	play_to_pause(f, tid, &rnd);
	struct st_move end_step = last_step(f, tid);
	assert_int_equal(play_load(f->s, tid, f->user[0], f->now, &pt), PLAY_OK);
	assert_int_equal(pt.t.status, TABLE_PLAYING);
	assert_int_equal(pt.t.party_no, 0);
	assert_int_equal(pt.pausing, 1);
	assert_int_equal(pt.ready, 0);
	assert_int_equal(pt.status.over, 1);
	assert_int_equal(pt.nfinished, 1);
	for (int s = 0; s < 3; s++)
		assert_int_equal(pt.party_score[0][s], pt.status.score[s]);
	assert_int_equal(pt.t.next_deadline, end_step.at + PLAY_PAUSE_SECONDS * 1000);
	assert_int_equal(pt.t.epoch_version, pt.t.version);   /* the end makes pages stale */
	int64_t v = pt.t.version, dl = pt.t.next_deadline;
	int64_t u[3] = { user_of(&pt, 0), user_of(&pt, 1), user_of(&pt, 2) };
	play_free(&pt);

	/* The poll sees the pause deadline; before it nothing changes. */
	assert_int_equal(store_table_poll(f->s, tid, &pv, &pdl), ST_OK);
	assert_int_equal(pv, v);
	assert_int_equal(pdl, dl);
	take_sig(f, tid, before);
	f->now = dl - 1;
	assert_int_equal(play_tick(f->s, tid, f->now), PLAY_OK);
	assert_unchanged(f, tid, before);

	/* No game move now; a page from before the end is too late for anything. */
	assert_int_equal(play_move(f->s, tid, u[0], "draw turn 1", v, f->now, &e), PLAY_REJECTED);
	assert_non_null(strstr(e.msg, "Weiter"));
	/* (a seat that did not make the last step: for that one, a page from
	 * before its own move is a double submit, which is stale too) */
	int other = end_step.seat == 0 ? 1 : 0;
	assert_int_equal(play_move(f->s, tid, u[other], PLAY_CONTINUE, v - 1, f->now, &e),
			 PLAY_STALE);
	assert_non_null(strstr(e.msg, "Zu spät"));
	assert_int_equal(play_move(f->s, tid, u[end_step.seat < 0 ? 0 : end_step.seat],
				   PLAY_CONTINUE, v - 1, f->now, &e), PLAY_STALE);
	assert_unchanged(f, tid, before);

	/* Seat 0 continues (typed in any spelling): logged in the finished
	 * party, a new version for the polls, no page gets stale. */
	assert_int_equal(play_move(f->s, tid, u[0], "  WEITER ", v, f->now, &e), PLAY_OK);
	struct st_move last = last_step(f, tid);
	assert_int_equal(last.seat, 0);
	assert_string_equal(last.text, PLAY_CONTINUE);
	assert_int_equal(last.version, v + 1);
	assert_int_equal(play_load(f->s, tid, 0, f->now, &pt), PLAY_OK);
	assert_int_equal(pt.pausing, 1);
	assert_int_equal(pt.ready, 1u);
	assert_int_equal(pt.t.version, v + 1);
	assert_int_equal(pt.t.epoch_version, v);
	assert_int_equal(pt.t.next_deadline, dl);
	play_free(&pt);
	/* Once is enough: the same page again, or a newer one. */
	take_sig(f, tid, before);
	assert_int_equal(play_move(f->s, tid, u[0], PLAY_CONTINUE, v, f->now, &e), PLAY_STALE);
	assert_non_null(strstr(e.msg, "Doppelt"));
	assert_int_equal(play_move(f->s, tid, u[0], PLAY_CONTINUE, v + 1, f->now, &e), PLAY_STALE);
	assert_non_null(strstr(e.msg, "schon"));
	assert_unchanged(f, tid, before);
	/* Seat 2's page from before seat 0 continued is still good. */
	assert_int_equal(play_move(f->s, tid, u[2], PLAY_CONTINUE, v, f->now, &e), PLAY_OK);
	assert_int_equal(play_load(f->s, tid, 0, f->now, &pt), PLAY_OK);
	assert_int_equal(pt.ready, 5u);
	assert_int_equal(pt.t.party_no, 0);
	play_free(&pt);

	/* The last one deals party 1 at once, the dealer one seat on. */
	assert_int_equal(play_move(f->s, tid, u[1], PLAY_CONTINUE, v + 2, f->now, &e), PLAY_OK);
	assert_int_equal(play_load(f->s, tid, 0, f->now, &pt), PLAY_OK);
	assert_int_equal(pt.t.status, TABLE_PLAYING);
	assert_int_equal(pt.t.party_no, 1);
	assert_int_equal(pt.pausing, 0);
	assert_int_equal(pt.status.over, 0);
	assert_int_equal(pt.party.dealer, (pt.t.first_dealer + 1) % 3);
	assert_int_equal(pt.t.version, v + 4);
	assert_int_equal(pt.t.epoch_version, v + 4);
	assert_int_equal(pt.t.next_deadline, pt.status.deadline);
	assert_int_equal(pt.nfinished, 1);
	play_free(&pt);
	/* A continue from the pause page now comes too late, and changes nothing. */
	take_sig(f, tid, before);
	assert_int_equal(play_move(f->s, tid, u[1], PLAY_CONTINUE, v + 2, f->now, &e), PLAY_STALE);
	assert_non_null(strstr(e.msg, "nächste Partie"));
	assert_unchanged(f, tid, before);
	/* The finished party, continues and all, replays to its snapshot. */
	assert_int_equal(play_verify_party(f->s, tid, 0, &e), PLAY_OK);
	free(before);
}

/* Nobody (or not everybody) continues: the first load after the pause
 * deadline deals the next party; a continue after the deadline is too late. */
static void test_party_end_deadline(void **state)
{
	struct fx *f = *state;
	struct play_table pt;
	struct sig *before = malloc(sizeof *before);
	struct rerr e;
	uint32_t rnd = 4242;
	assert_non_null(before);
	int64_t tid = full_table(f, 4, "snap_seconds=3");

	play_to_pause(f, tid, &rnd);
	assert_int_equal(play_load(f->s, tid, 0, f->now, &pt), PLAY_OK);
	int64_t v = pt.t.version, dl = pt.t.next_deadline;
	int64_t u3 = user_of(&pt, 3), u1 = user_of(&pt, 1);
	play_free(&pt);
	assert_int_equal(play_move(f->s, tid, u3, PLAY_CONTINUE, v, dl - 5, &e), PLAY_OK);

	take_sig(f, tid, before);
	assert_int_equal(play_load(f->s, tid, 0, dl - 1, &pt), PLAY_OK);
	assert_int_equal(pt.pausing, 1);
	play_free(&pt);
	assert_unchanged(f, tid, before);

	/* Seat 1 was too slow: its continue finds the next party dealt. */
	assert_int_equal(play_move(f->s, tid, u1, PLAY_CONTINUE, v + 1, dl, &e), PLAY_STALE);
	assert_non_null(strstr(e.msg, "nächste Partie"));
	assert_unchanged(f, tid, before);   /* a refused move rolls the deal back too */
	assert_int_equal(play_load(f->s, tid, 0, dl, &pt), PLAY_OK);
	assert_int_equal(pt.t.party_no, 1);
	assert_int_equal(pt.pausing, 0);
	assert_int_equal(pt.ready, 0);
	assert_int_equal(pt.status.over, 0);
	assert_int_equal(pt.t.version, v + 2);
	assert_int_equal(pt.t.epoch_version, v + 2);
	assert_int_equal(pt.t.next_deadline, pt.status.deadline);
	play_free(&pt);
	assert_int_equal(play_verify_party(f->s, tid, 0, &e), PLAY_OK);
	free(before);
}

/* The last party of a match does not pause: the table is finished at once,
 * with the match's totals, and takes no continue. */
static void test_match_end_no_pause(void **state)
{
	struct fx *f = *state;
	struct play_table pt;
	struct rerr e;
	uint32_t rnd = 99;
	int64_t tid = 0;
	/* DNA at two seats is a single party. */
	assert_int_equal(play_create(f->s, "dna", "", 2, f->user[0], f->now, &tid, &e), PLAY_OK);
	assert_int_equal(play_join(f->s, tid, f->user[1], f->now, &e), PLAY_OK);
	for (int steps = 0; play_one(f, tid, &rnd); steps++) {
		assert_true(steps < 20000);
		assert_int_equal(pausing_now(f, tid), 0);
	}
	assert_int_equal(play_load(f->s, tid, f->user[0], f->now, &pt), PLAY_OK);
	assert_int_equal(pt.t.status, TABLE_FINISHED);
	assert_int_equal(pt.t.nparties, 1);
	assert_int_equal(pt.pausing, 0);
	assert_int_equal(pt.t.next_deadline, 0);
	assert_int_equal(pt.nfinished, 1);
	int64_t v = pt.t.version;
	play_free(&pt);
	assert_int_equal(play_move(f->s, tid, f->user[0], PLAY_CONTINUE, v, f->now, &e),
			 PLAY_NOT_PLAYING);
}

/* `m` as a careless typist sends it: upper case, blanks doubled, padded. */
static void sloppy(const char *m, char *out, size_t cap)
{
	size_t k = 0;
	if (k + 1 < cap)
		out[k++] = ' ';
	for (const char *p = m; *p && k + 3 < cap; p++) {
		out[k++] = *p >= 'a' && *p <= 'z' ? (char)(*p - 'a' + 'A') : *p;
		if (*p == ' ')
			out[k++] = ' ';
	}
	if (k + 1 < cap)
		out[k++] = ' ';
	out[k] = '\0';
}

/* The log keeps a move as moves() lists it, whatever spelling was typed
 * ("  draw   turn   1 ", "CHICKEN LILA  ON  2"), and the party still
 * replays to its snapshot. */
static void test_canonical_log(void **state)
{
	struct fx *f = *state;
	struct play_table pt;
	struct movelist *l = malloc(sizeof *l);
	struct rerr e;
	char typed[GAME_MOVE_MAX + 1];
	uint32_t rnd = 31337;
	assert_non_null(l);
	int64_t tid = full_table(f, 3, "snap_seconds=3");

	assert_int_equal(play_load(f->s, tid, 0, f->now, &pt), PLAY_OK);
	int turn = pt.status.turn;
	int64_t u = user_of(&pt, turn), v = pt.t.version;
	play_free(&pt);
	assert_int_equal(play_move(f->s, tid, u, "  draw   turn   1 ", v, f->now, &e), PLAY_OK);
	assert_string_equal(last_step(f, tid).text, "draw turn 1");

	/* Every other move is typed sloppily until a chicken has eaten. */
	int chickens = 0;
	for (int steps = 0; chickens == 0; steps++) {
		assert_true(steps < 20000);
		f->now += 700;
		assert_int_equal(play_load(f->s, tid, 0, f->now, &pt), PLAY_OK);
		assert_int_equal(pt.pausing, 0);   /* a chicken comes long before the end */
		if (pt.status.to_act == 0) {
			f->now = pt.status.deadline;
			play_free(&pt);
			continue;
		}
		int seat = lowest_bit(pt.status.to_act);
		moves_of(&pt, seat, l);
		const char *m = move_like(l, "chicken ");
		rnd = rnd * 1103515245u + 12345u;
		if (!m)
			m = l->m[(rnd >> 8) % (uint32_t)l->n];
		chickens += strncmp(m, "chicken ", 8) == 0;
		sloppy(m, typed, sizeof typed);
		assert_int_equal(play_move(f->s, tid, user_of(&pt, seat), typed, pt.t.version, f->now,
					   &e), PLAY_OK);
		struct st_move last = last_step(f, tid);
		assert_string_equal(last.text, m);
		assert_int_equal(last.seat, seat);
		play_free(&pt);
	}
	assert_int_equal(play_verify_party(f->s, tid, 0, &e), PLAY_OK);
	free(l);
}

/* A game whose moves() lists "Take Card" and "pass". */
static int fake_moves(const void *st, int seat, move_emit_fn emit, void *ctx)
{
	(void)st;
	(void)seat;
	emit(ctx, "Take Card");
	emit(ctx, "pass");
	return 2;
}

/* play_canonical on its own: the listed spelling wins; a move the list does
 * not hold keeps its folded words joined by single blanks; text that does
 * not split stays as typed. */
static void test_canonical_spelling(void **state)
{
	(void)state;
	struct game fake;
	char out[GAME_MOVE_MAX + 1];
	memset(&fake, 0, sizeof fake);
	fake.slug = "fake";
	fake.moves = fake_moves;
	play_canonical(&fake, NULL, 0, "  take   CARD ", out, sizeof out);
	assert_string_equal(out, "Take Card");
	play_canonical(&fake, NULL, 0, "PASS", out, sizeof out);
	assert_string_equal(out, "pass");
	play_canonical(&fake, NULL, 0, "  Play   Gelb-4   ON 2 ", out, sizeof out);
	assert_string_equal(out, "play gelb-4 on 2");
	play_canonical(&fake, NULL, 0, " Grün  Ä ", out, sizeof out);
	assert_string_equal(out, "grün Ä");
	play_canonical(&fake, NULL, 0, "take card \xff", out, sizeof out);
	assert_string_equal(out, "take card \xff");   /* not UTF-8: as typed */
	char small[5];
	play_canonical(&fake, NULL, 0, "  take   CARD ", small, sizeof small);
	assert_string_equal(small, "Take");
}

/* Every registered game, at its smallest and largest table: a whole match
 * through the engine, each party replayed from its log. */
/* A lookup for the tests: every word has three syllables and is known. */
static int fake_syllables(void *ctx, const char *word)
{
	(void)ctx;
	(void)word;
	return 3;
}

static int fake_known(void *ctx, const char *word)
{
	(void)ctx;
	return strcmp(word, "fechtmeister") == 0;
}

/* A game that looks words up (Wurf & Wort) gets the platform's lookup into
 * the typed move before it is applied, and the log keeps the completed
 * move; what the player typed in the looked-up places does not survive.
 * Without a lookup the move is applied as typed. */
static void test_lookups_written_into_the_move(void **state)
{
	struct fx *f = *state;
	static const struct lookup lk = { fake_syllables, fake_known, NULL };
	struct rerr e;
	int64_t tid = 0;
	assert_int_equal(play_create(f->s, "wurfwort", "", 3, f->user[0], f->now, &tid, &e),
			 PLAY_OK);
	for (int i = 1; i < 3; i++)
		assert_int_equal(play_join(f->s, tid, f->user[i], f->now, &e), PLAY_OK);
	struct play_table pt;
	assert_int_equal(play_load(f->s, tid, f->user[1], f->now, &pt), PLAY_OK);
	int64_t v = pt.t.version;
	play_free(&pt);
	assert_int_equal(play_move(f->s, tid, f->user[1], "stopp", v, f->now, &e), PLAY_OK);
	assert_int_equal(play_load(f->s, tid, f->user[1], f->now, &pt), PLAY_OK);
	v = pt.t.version;
	play_free(&pt);
	play_set_lookup(&lk);
	assert_int_equal(play_move(f->s, tid, f->user[1], "Fechtmeister s=1", v, f->now, &e),
			 PLAY_REJECTED);   /* a bare word has no more words */
	assert_int_equal(play_move(f->s, tid, f->user[1], "answer Fechtmeister s=1 w=0", v,
				   f->now, &e), PLAY_OK);
	play_set_lookup(NULL);
	struct st_move m = last_step(f, tid);
	assert_string_equal(m.text, "answer fechtmeister s=3 w=1");
	assert_int_equal(play_verify_party(f->s, tid, 0, &e), PLAY_OK);
}

static void test_every_game(void **state)
{
	struct fx *f = *state;
	struct play_table pt;
	struct rerr e;
	for (int gi = 0; gi < ngames; gi++) {
		const struct game *g = games[gi];
		int sizes[2] = { g->min_players, g->max_players < NUSERS ? g->max_players : NUSERS };
		for (int k = 0; k < 2; k++) {
			int n = sizes[k], steps = 0;
			uint32_t rnd = (uint32_t)(gi * 31 + n);
			int64_t tid = 0;
			assert_int_equal(play_create(f->s, g->slug, "", n, f->user[0], f->now, &tid, &e),
					 PLAY_OK);
			for (int i = 1; i < n; i++)
				assert_int_equal(play_join(f->s, tid, f->user[i], f->now, &e), PLAY_OK);
			while (play_one(f, tid, &rnd))
				assert_true(++steps < 50000);
			assert_int_equal(play_load(f->s, tid, 0, f->now, &pt), PLAY_OK);
			assert_int_equal(pt.t.status, TABLE_FINISHED);
			assert_int_equal(pt.nfinished, pt.t.nparties);
			int parties = pt.t.nparties;
			play_free(&pt);
			for (int p = 0; p < parties; p++)
				if (play_verify_party(f->s, tid, p, &e) != PLAY_OK)
					fail_msg("%s, %d players, party %d: %s", g->slug, n, p, e.msg);
			print_message("%s with %d: %d steps, %d parties\n", g->slug, n, steps, parties);
		}
	}
}

/* play_asked(), the one decision of what a seat is asked (docs/api.md,
 * "Whose move"), and its stored flags: a window asks everyone in it to act
 * in the window, also the seat whose turn comes next (Drehwurm's snap) and
 * the seat on turn asked in a window of its own turn (Worst Game Ever);
 * the pause asks every seat that has not continued; the flags the seat
 * rows keep read back as the same answer for every seat. */
static void test_asked_one_decision(void **state)
{
	(void)state;
	struct status snap = { .to_act = 0x6, .turn = 1, .window = 0x6 };   /* seat 0 turned */
	assert_int_equal(play_asked(&snap, 0, 0, 0), PLAY_ASK_NONE);
	assert_int_equal(play_asked(&snap, 0, 0, 1), PLAY_ASK_WINDOW);   /* next, in the window */
	assert_int_equal(play_asked(&snap, 0, 0, 2), PLAY_ASK_WINDOW);
	struct status react = { .to_act = 0x3, .turn = 0, .window = 0x3 };
	assert_int_equal(play_asked(&react, 0, 0, 0), PLAY_ASK_WINDOW);  /* its own turn's window */
	struct status turn = { .to_act = 0x2, .turn = 1 };
	assert_int_equal(play_asked(&turn, 0, 0, 1), PLAY_ASK_TURN);
	assert_int_equal(play_asked(&turn, 0, 0, 0), PLAY_ASK_NONE);
	struct status out_of_turn = { .to_act = 0x5, .turn = 0 };
	assert_int_equal(play_asked(&out_of_turn, 0, 0, 2), PLAY_ASK_WINDOW);
	struct status all = { .to_act = 0x7, .turn = -1 };   /* simultaneous choices */
	for (int s = 0; s < 3; s++)
		assert_int_equal(play_asked(&all, 0, 0, s), PLAY_ASK_TURN);
	struct status over = { .over = 1, .to_act = 0x7, .turn = 0 };
	assert_int_equal(play_asked(&over, 0, 0, 0), PLAY_ASK_NONE);     /* the match is over */
	assert_int_equal(play_asked(&over, 1, 0x2, 0), PLAY_ASK_CONTINUE);
	assert_int_equal(play_asked(&over, 1, 0x2, 1), PLAY_ASK_NONE);   /* it continued */
	assert_int_equal(play_asked(&turn, 0, 0, -1), PLAY_ASK_NONE);    /* a spectator */
	const struct status *cases[] = { &snap, &react, &turn, &out_of_turn, &all, &over };
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
		for (int pausing = 0; pausing <= (int)cases[k]->over; pausing++) {
			struct play_flags f;
			play_seat_flags(cases[k], pausing, 0x2, 3, &f);
			for (int s = 0; s < 3; s++)
				assert_int_equal(play_ask_of_flags(f.acting >> s & 1u,
								   f.in_window >> s & 1u,
								   f.to_continue >> s & 1u),
						 play_asked(cases[k], pausing, 0x2, s));
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_create_join_start, setup_fx, teardown_fx),
		cmocka_unit_test_setup_teardown(test_loaded_state_is_the_snapshots, setup_fx,
						teardown_fx),
		cmocka_unit_test_setup_teardown(test_legal_and_illegal_moves, setup_fx, teardown_fx),
		cmocka_unit_test_setup_teardown(test_snap_race, setup_fx, teardown_fx),
		cmocka_unit_test_setup_teardown(test_snap_race_processes, setup_fx, teardown_fx),
		cmocka_unit_test_setup_teardown(test_pass_keeps_page_fresh, setup_fx, teardown_fx),
		cmocka_unit_test_setup_teardown(test_deadline_tick, setup_fx, teardown_fx),
		cmocka_unit_test_setup_teardown(test_move_after_deadline, setup_fx, teardown_fx),
		cmocka_unit_test_setup_teardown(test_winner_starts_next_party, setup_fx, teardown_fx),
		cmocka_unit_test_setup_teardown(test_bots_fill_a_table, setup_fx, teardown_fx),
		cmocka_unit_test_setup_teardown(test_bot_for_me_and_resign, setup_fx, teardown_fx),
		cmocka_unit_test_setup_teardown(test_autopass_answers_windows, setup_fx, teardown_fx),
		cmocka_unit_test_setup_teardown(test_clock_timeout_bot_then_takeover, setup_fx,
						teardown_fx),
		cmocka_unit_test_setup_teardown(test_clock_windows_over_days_and_live, setup_fx,
						teardown_fx),
		cmocka_unit_test_setup_teardown(test_clock_expel_vote, setup_fx, teardown_fx),
		cmocka_unit_test_setup_teardown(test_sweep, setup_fx, teardown_fx),
		cmocka_unit_test_setup_teardown(test_claim_a_bot_seat, setup_fx, teardown_fx),
		cmocka_unit_test_setup_teardown(test_invite_and_rematch, setup_fx, teardown_fx),
		cmocka_unit_test_setup_teardown(test_whole_match, setup_fx, teardown_fx),
		cmocka_unit_test_setup_teardown(test_party_end_stays, setup_fx, teardown_fx),
		cmocka_unit_test_setup_teardown(test_party_end_deadline, setup_fx, teardown_fx),
		cmocka_unit_test_setup_teardown(test_match_end_no_pause, setup_fx, teardown_fx),
		cmocka_unit_test_setup_teardown(test_canonical_log, setup_fx, teardown_fx),
		cmocka_unit_test(test_canonical_spelling),
		cmocka_unit_test(test_asked_one_decision),
		cmocka_unit_test_setup_teardown(test_lookups_written_into_the_move, setup_fx,
						teardown_fx),
		cmocka_unit_test_setup_teardown(test_every_game, setup_fx, teardown_fx),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
