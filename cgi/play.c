/*
 * play.c — the party engine: tables, seats, parties and moves, each write
 * one transaction. The game's state lives on the heap only while a request
 * handles it; what lasts is the snapshot and the move log in the store.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "bot.h"
#include "i18n.h"
#include "match.h"
#include "movetext.h"
#include "options.h"
#include "perft.h"
#include "play.h"
#include "ratings.h"
#include "seatclock.h"
#include "ser.h"
#include "sim.h"
#include "tourney.h"

static const char *const messages[] = {
	[PLAY_OK] = N_("Erledigt."),
	[PLAY_STALE] = N_("Die Seite war nicht mehr aktuell: hier ist der neue Stand."),
	[PLAY_REJECTED] = N_("Dieser Zug ist nicht erlaubt."),
	[PLAY_NOT_SEATED] = N_("Du sitzt nicht an diesem Tisch."),
	[PLAY_NOT_FOUND] = N_("Diesen Tisch gibt es nicht."),
	[PLAY_NOT_PLAYING] = N_("An diesem Tisch wird gerade nicht gespielt."),
	[PLAY_FULL] = N_("An diesem Tisch ist kein Platz mehr frei."),
	[PLAY_ALREADY] = N_("Du sitzt schon an diesem Tisch."),
	[PLAY_INVALID] = N_("Diese Angaben passen nicht für einen neuen Tisch."),
	[PLAY_BUSY] = N_("Gerade ist viel los: bitte gleich noch einmal versuchen."),
	[PLAY_ERR] = N_("Interner Fehler, bitte später noch einmal versuchen."),
	[PLAY_NOSPACE] = N_("Der Server hat keinen Speicherplatz mehr: nichts wurde gespeichert."),
	[PLAY_CORRUPT] = N_("Dieser Tisch ist beschädigt: sein Spielstand lässt sich nicht laden."),
};
_Static_assert(sizeof messages / sizeof messages[0] == PLAY__MAX, "one message per code");

static int bots_act(struct store *s, int64_t table, int64_t now);
struct live;
static int clock_step(struct store *s, struct live *l, int64_t now, int *done);

/* A static German sentence for rc (a catalog message); never NULL. */
const char *play_message(enum play_rc rc)
{
	if ((int)rc < 0 || rc >= PLAY__MAX)
		return messages[PLAY_ERR];
	return messages[rc];
}

/* A store result as a play result; `missing` is what ST_NOTFOUND means here. */
int play_from_store(int st, int missing)
{
	switch (st) {
	case ST_OK: return PLAY_OK;
	case ST_NOTFOUND: return missing;
	case ST_BUSY: return PLAY_BUSY;
	case ST_FULL: return PLAY_NOSPACE;
	default: return PLAY_ERR;
	}
}

/* Fills e (when given) with German msg, a catalog message, in the request's
 * language, and returns rc. */
int play_fail(struct rerr *e, int rc, const char *msg)
{
	if (e) {
		snprintf(e->msg, sizeof e->msg, "%s", _(msg));
		e->fmt = NULL;
	}
	return rc;
}

/* This file's short names for play_from_store, play_fail and play_finish
 * (below), which tourney.c shares. */
#define from_store play_from_store
#define fail_msg play_fail
#define finish play_finish

/* The game and options of a stored table; PLAY_ERR (logged) when the game
 * is gone or the stored options no longer parse. */
static int table_game(const struct st_table *t, const struct game **g, int *opt)
{
	struct rerr e;
	*g = game_find(t->game);
	if (!*g) {
		fprintf(stderr, "play: table %lld: unknown game '%s'\n", (long long)t->id, t->game);
		return PLAY_ERR;
	}
	if (options_parse(*g, opt, t->options, &e) != 0) {
		fprintf(stderr, "play: table %lld: options '%s': %s\n", (long long)t->id,
			t->options, e.msg);
		return PLAY_ERR;
	}
	return PLAY_OK;
}

/* Encodes st into snap (GAME_SNAPSHOT_MAX bytes); the length in *len. */
static int encode_state(const struct game *g, const void *st, unsigned char *snap, size_t *len)
{
	struct buf b = { snap, 0, GAME_SNAPSHOT_MAX, 0 };
	if (g->encode(st, &b) != 0 || b.overflow) {
		fprintf(stderr, "play: %s: snapshot larger than %d bytes\n", g->slug,
			GAME_SNAPSHOT_MAX);
		return PLAY_ERR;
	}
	*len = b.len;
	return PLAY_OK;
}

/* Deals party `number` of table t with `dealer` and stores it; the new
 * party's status (deadline, epoch) goes to *st. A window the deal opens
 * (a game's first prompt whose clock waits for a request, prompt_later)
 * starts its clock now, at the deal, logged as the party's first step
 * (PLAY_STEP_START, seat -1, the version the caller's bump gives the
 * table): every deadline runs from when its window opens, the first one
 * too, so an absent seat cannot stall a table that nobody moves at.
 * Inside the caller's transaction. */
static int start_party(struct store *s, const struct st_table *t, int number, int dealer,
		       int64_t now, struct status *st)
{
	const struct game *g;
	int opt[GAME_OPT_MAX];
	struct setup su;
	struct rerr e;
	size_t len;
	int64_t party = 0;
	int started;
	void *state = NULL;
	unsigned char *snap = NULL;
	memset(st, 0, sizeof *st);
	int rc = table_game(t, &g, opt);
	if (rc != PLAY_OK)
		return rc;
	rc = PLAY_ERR;
	state = calloc(1, g->state_size);
	snap = malloc(GAME_SNAPSHOT_MAX);
	if (!state || !snap)
		goto out;
	memset(&su, 0, sizeof su);
	su.nplayers = t->nseats;
	su.dealer = dealer;
	su.seed = auth_random_seed();
	memcpy(su.opt, opt, sizeof su.opt);
	if (game_setup(g, state, &su, &e) != 0) {
		fprintf(stderr, "play: table %lld: setup: %s\n", (long long)t->id, e.msg);
		goto out;
	}
	started = g->tick(state, now);
	if (g->check(state, &e) != 0) {
		fprintf(stderr, "play: table %lld: party %d not dealt: it breaks the game's "
			"invariants: %s\n", (long long)t->id, number, e.msg);
		goto out;
	}
	if ((rc = encode_state(g, state, snap, &len)) != PLAY_OK)
		goto out;
	rc = from_store(store_party_create(s, t->id, number, su.seed, dealer, snap, len, now,
					   &party), PLAY_ERR);
	if (rc == PLAY_OK && started) {
		int64_t v, dl;   /* the version as it stands in this transaction */
		rc = from_store(store_table_poll(s, t->id, &v, &dl), PLAY_ERR);
		if (rc == PLAY_OK)
			rc = from_store(store_move_append(s, party, -1, PLAY_STEP_START, now, v + 1),
					PLAY_ERR);
	}
	if (rc != PLAY_OK)
		goto out;
	g->status(state, st);
out:
	free(snap);
	free(state);
	return rc;
}

enum play_ask play_asked(const struct status *st, int pausing, uint32_t ready, int seat)
{
	if (seat < 0 || seat >= GAME_MAX_SEATS)
		return PLAY_ASK_NONE;
	if (pausing)
		return ready >> seat & 1u ? PLAY_ASK_NONE : PLAY_ASK_CONTINUE;
	if (st->over || !(st->to_act >> seat & 1u))
		return PLAY_ASK_NONE;
	if (st->window || (st->turn >= 0 && st->turn != seat))
		return PLAY_ASK_WINDOW;
	return PLAY_ASK_TURN;
}

void play_seat_flags(const struct status *st, int pausing, uint32_t ready, int nseats,
		     struct play_flags *out)
{
	memset(out, 0, sizeof *out);
	for (int s = 0; s < nseats && s < GAME_MAX_SEATS; s++) {
		enum play_ask k = play_asked(st, pausing, ready, s);
		uint32_t bit = 1u << s;
		out->acting |= k != PLAY_ASK_NONE ? bit : 0;
		out->in_window |= k == PLAY_ASK_WINDOW ? bit : 0;
		out->to_continue |= k == PLAY_ASK_CONTINUE ? bit : 0;
	}
}

enum play_ask play_ask_of_flags(int acting, int in_window, int to_continue)
{
	if (!acting)
		return PLAY_ASK_NONE;
	return to_continue ? PLAY_ASK_CONTINUE : in_window ? PLAY_ASK_WINDOW : PLAY_ASK_TURN;
}

/* The seats' flags (play_seat_flags) after a step of table t: `pausing`
 * while its finished party waits for the next, `ready` who continued. */
static int set_acting(struct store *s, const struct st_table *t, const struct status *st,
		      int pausing, uint32_t ready)
{
	struct play_flags f;
	play_seat_flags(st, pausing, ready, t->nseats, &f);
	return from_store(store_seats_set_acting(s, t->id, f.acting, f.in_window, f.to_continue),
			  PLAY_ERR);
}

/* Starts the match of a full table: random first dealer, party 0, status
 * PLAYING, a new version that makes every open page stale. */
static int start_match(struct store *s, const struct st_table *t, int64_t now)
{
	struct status st;
	int first = (int)(auth_random_seed() % (uint64_t)t->nseats);
	int rc = start_party(s, t, 0, match_dealer(0, first, t->nseats), now, &st);
	int64_t deadline = st.deadline;
	if (rc != PLAY_OK)
		return rc;
	if ((rc = from_store(store_table_set_status(s, t->id, TABLE_PLAYING, 0, first),
			     PLAY_NOT_FOUND)) != PLAY_OK ||
	    (rc = from_store(store_seats_reset_clock(s, t->id, t->clock.first_ms), PLAY_ERR)) !=
		    PLAY_OK ||
	    (rc = from_store(seatclock_sync(s, t, &st, now, &deadline), PLAY_ERR)) != PLAY_OK ||
	    (rc = set_acting(s, t, &st, 0, 0)) != PLAY_OK ||
	    (rc = from_store(store_table_bump(s, t->id, -1, deadline, st.epoch, NULL),
			     PLAY_NOT_FOUND)) != PLAY_OK)
		return rc;
	return from_store(store_table_new_epoch(s, t->id), PLAY_NOT_FOUND);
}

/* Commits (or, on failure, rolls back) a transaction that produced rc. */
int play_finish(struct store *s, int rc)
{
	if (rc != PLAY_OK) {
		store_rollback(s);
		return rc;
	}
	return from_store(store_commit(s), PLAY_ERR);
}

/* The seat `user` holds at the table in *seat (-1: none, or user 0). */
static int seat_of(struct store *s, int64_t table, int64_t user, int *seat)
{
	struct st_seat seats[GAME_MAX_SEATS];
	int n, rc = store_table_seats(s, table, seats, GAME_MAX_SEATS, &n);
	*seat = -1;
	for (int i = 0; rc == ST_OK && user > 0 && i < n; i++)
		if (seats[i].user_id == user)
			*seat = seats[i].seat;
	return from_store(rc, PLAY_ERR);
}

/* A new open table with the creator on seat 0. PLAY_INVALID with e->msg for
 * an unknown game, a seat count outside the game's range or a bad option
 * (a 200 with the form and the note); PLAY_BUSY (503), PLAY_ERR (500). */
int play_create(struct store *s, const char *slug, const char *options, int nseats,
		int64_t user, int64_t now_ms, int64_t *table_id, struct rerr *e)
{
	return play_create_timed(s, slug, options, nseats, NULL, user, now_ms, table_id, e);
}

/* Inside the caller's transaction: table `slug` with canonical options,
 * nseats seats, n parties and the speed, opened by `host`, users[0..k-1]
 * on its first seats; a table whose seats are all taken starts. */
static int table_open(struct store *s, const char *slug, const char *canon, int nseats, int n,
		      const struct play_speed *speed, const int64_t *users, int k, int64_t host,
		      int64_t now_ms, int64_t *id)
{
	struct st_table t;
	int seat;
	int rc = from_store(store_table_create(s, slug, canon, nseats, n, host, now_ms, id),
			    PLAY_ERR);
	if (rc == PLAY_OK && speed && speed->clock.first_ms > 0)
		rc = from_store(store_table_set_clock(s, *id, &speed->clock, speed->timeouts_max),
				PLAY_ERR);
	for (int i = 0; rc == PLAY_OK && i < k; i++)
		rc = from_store(store_seat_take(s, *id, users[i], &seat), PLAY_ERR);
	if (rc == PLAY_OK)
		rc = from_store(store_table_get(s, *id, &t), PLAY_ERR);
	if (rc == PLAY_OK && t.nseats == k)
		rc = start_match(s, &t, now_ms);
	return rc;
}

int play_table_seated(struct store *s, const char *slug, const char *options,
		      const struct play_speed *speed, const int64_t *users, int n, int64_t host,
		      int64_t now_ms, int64_t *id)
{
	const struct game *g = game_find(slug);
	int opt[GAME_OPT_MAX];
	if (!g || n < g->min_players || n > g->max_players ||
	    options_parse(g, opt, options ? options : "", NULL) != 0)
		return PLAY_INVALID;
	int parties = g->parties ? g->parties(n, opt) : 1;
	return table_open(s, slug, options ? options : "", n, parties < 1 ? 1 : parties, speed,
			  users, n, host, now_ms, id);
}

int play_create_timed(struct store *s, const char *slug, const char *options, int nseats,
		      const struct play_speed *speed, int64_t user, int64_t now_ms,
		      int64_t *table_id, struct rerr *e)
{
	int opt[GAME_OPT_MAX];
	char canon[ST_OPTS_MAX + 1];
	int64_t id = 0;
	int n, rc;
	const struct game *g = game_find(slug);
	if (!g)
		return fail_msg(e, PLAY_INVALID, N_("Dieses Spiel gibt es hier nicht."));
	struct rerr pe;
	if (game_players_check(g, nseats, &pe) != 0) {
		if (e)
			*e = pe;
		return PLAY_INVALID;
	}
	if (options_parse(g, opt, options ? options : "", &pe) != 0) {
		if (e)
			*e = pe;
		return PLAY_INVALID;
	}
	if (options_format(g, opt, canon, sizeof canon) != 0) {
		fprintf(stderr, "play: %s: options longer than %d bytes\n", slug, ST_OPTS_MAX);
		return PLAY_ERR;
	}
	n = g->parties ? g->parties(nseats, opt) : 1;
	if (n < 1)
		n = 1;
	if ((rc = from_store(store_begin(s), PLAY_ERR)) != PLAY_OK)
		return rc;
	rc = finish(s, table_open(s, slug, canon, nseats, n, speed, &user, 1, user, now_ms, &id));
	if (rc == PLAY_OK && table_id)
		*table_id = id;
	return rc;
}

/* Takes the lowest free seat and, with the last one, starts party 0.
 * PLAY_NOT_FOUND (404), PLAY_ALREADY / PLAY_FULL / PLAY_NOT_PLAYING (a note
 * on the table page), PLAY_BUSY (503), PLAY_ERR (500). */
int play_join(struct store *s, int64_t table, int64_t user, int64_t now_ms, struct rerr *e)
{
	struct st_table t;
	struct st_seat seats[GAME_MAX_SEATS];
	int seat, n, rc;

	if ((rc = from_store(store_begin(s), PLAY_ERR)) != PLAY_OK)
		return rc;
	if ((rc = from_store(store_table_get(s, table, &t), PLAY_NOT_FOUND)) != PLAY_OK)
		goto out;
	if (t.status != TABLE_OPEN) {
		if ((rc = seat_of(s, table, user, &seat)) == PLAY_OK)
			rc = seat >= 0 ? PLAY_ALREADY
			     : t.status == TABLE_PLAYING ? PLAY_FULL : PLAY_NOT_PLAYING;
		goto out;
	}
	switch (store_seat_take(s, table, user, &seat)) {
	case ST_OK: break;
	case ST_EXISTS: rc = PLAY_ALREADY; goto out;
	case ST_CONFLICT: rc = PLAY_FULL; goto out;
	case ST_NOTFOUND: rc = PLAY_NOT_FOUND; goto out;
	case ST_BUSY: rc = PLAY_BUSY; goto out;
	default: rc = PLAY_ERR; goto out;
	}
	if ((rc = from_store(store_table_seats(s, table, seats, GAME_MAX_SEATS, &n), PLAY_ERR)) !=
	    PLAY_OK)
		goto out;
	if (n >= t.nseats && (rc = start_match(s, &t, now_ms)) == PLAY_OK)
		rc = bots_act(s, table, now_ms);
	else if (n < t.nseats)
		rc = from_store(store_table_bump(s, table, -1, 0, t.epoch, NULL), PLAY_NOT_FOUND);
out:
	if (rc != PLAY_OK && rc != PLAY_BUSY && rc != PLAY_ERR)
		fail_msg(e, rc, play_message(rc));
	return finish(s, rc);
}

/* A bot of `level` (BOT_RANDOM, BOT_GREEDY) takes the lowest free seat of
 * an open table, on the word of someone seated there; with the last seat
 * the match starts (and the bots that are to act, act). PLAY_NOT_SEATED,
 * PLAY_NOT_PLAYING, PLAY_FULL (a note), PLAY_NOT_FOUND (404), PLAY_INVALID
 * for an unknown level. */
int play_add_bot(struct store *s, int64_t table, int64_t user, int level, int64_t now_ms,
		 struct rerr *e)
{
	struct st_table t;
	struct st_seat seats[GAME_MAX_SEATS];
	int seat, n, rc;
	if (level != BOT_RANDOM && level != BOT_GREEDY)
		return fail_msg(e, PLAY_INVALID, N_("Diesen Bot gibt es nicht."));
	if ((rc = from_store(store_begin(s), PLAY_ERR)) != PLAY_OK)
		return rc;
	if ((rc = from_store(store_table_get(s, table, &t), PLAY_NOT_FOUND)) != PLAY_OK ||
	    (rc = seat_of(s, table, user, &seat)) != PLAY_OK)
		goto out;
	if (seat < 0)
		rc = PLAY_NOT_SEATED;
	else if (t.status != TABLE_OPEN)
		rc = PLAY_NOT_PLAYING;
	else if ((rc = from_store(store_seat_add_bot(s, table, level + 1, &seat), PLAY_FULL)) !=
		 PLAY_OK)
		;
	else if ((rc = from_store(store_table_seats(s, table, seats, GAME_MAX_SEATS, &n),
				  PLAY_ERR)) == PLAY_OK && n >= t.nseats) {
		if ((rc = start_match(s, &t, now_ms)) == PLAY_OK)
			rc = bots_act(s, table, now_ms);
	} else if (rc == PLAY_OK) {
		rc = from_store(store_table_bump(s, table, -1, 0, t.epoch, NULL), PLAY_NOT_FOUND);
	}
out:
	if (rc == PLAY_NOT_SEATED || rc == PLAY_NOT_PLAYING || rc == PLAY_FULL)
		fail_msg(e, rc, rc == PLAY_NOT_PLAYING ?
			 N_("Bots setzen sich nur an einen Tisch, der noch auf Mitspieler wartet.") :
			 play_message(rc));
	return finish(s, rc);
}

/* Gives up a seat at an open table; the table goes away with its last
 * player. PLAY_NOT_SEATED / PLAY_NOT_PLAYING (a note), PLAY_NOT_FOUND (404). */
int play_leave(struct store *s, int64_t table, int64_t user, int64_t now_ms, struct rerr *e)
{
	struct st_table t;
	struct st_seat seats[GAME_MAX_SEATS];
	int n, rc;
	(void)now_ms;

	if ((rc = from_store(store_begin(s), PLAY_ERR)) != PLAY_OK)
		return rc;
	if ((rc = from_store(store_table_get(s, table, &t), PLAY_NOT_FOUND)) != PLAY_OK)
		goto out;
	if (t.status != TABLE_OPEN) {
		rc = PLAY_NOT_PLAYING;
		goto out;
	}
	if ((rc = from_store(store_seat_leave(s, table, user), PLAY_NOT_SEATED)) != PLAY_OK ||
	    (rc = from_store(store_table_seats(s, table, seats, GAME_MAX_SEATS, &n), PLAY_ERR)) !=
		    PLAY_OK)
		goto out;
	if (n == 0)
		rc = from_store(store_table_delete(s, table), PLAY_NOT_FOUND);
	else
		rc = from_store(store_table_bump(s, table, -1, 0, t.epoch, NULL), PLAY_NOT_FOUND);
out:
	if (rc == PLAY_NOT_SEATED || rc == PLAY_NOT_PLAYING)
		fail_msg(e, rc, rc == PLAY_NOT_PLAYING
					? N_("Das Spiel läuft schon: der Platz bleibt besetzt.")
					: play_message(rc));
	return finish(s, rc);
}

/* ------------------------------------------------------------------ */
/* One party's state inside a write transaction                        */

struct live {
	struct st_table t;
	const struct game *g;
	int opt[GAME_OPT_MAX];
	struct st_party party;
	void *state;
	unsigned char *snap;       /* GAME_SNAPSHOT_MAX bytes, scratch */
	uint32_t bots;             /* seats a bot plays (bits) */
	uint32_t resigned;         /* seats whose person gave up (bits) */
	uint32_t timed_out;        /* of those, the ones that ran out of time */
	uint32_t ran_out;          /* seats whose clock clock_step() applied now */
	uint32_t autopass;         /* seats whose person passes every window (bits) */
	int level[GAME_MAX_SEATS]; /* a bot seat's level: BOT_RANDOM, BOT_GREEDY */
	int64_t user[GAME_MAX_SEATS]; /* who holds each seat (0: nobody) */
};

/* Who plays each seat of table t: l->bots, l->resigned, l->level, l->user. */
static int live_seats(struct store *s, struct live *l)
{
	struct st_seat seats[GAME_MAX_SEATS];
	int n, rc = from_store(store_table_seats(s, l->t.id, seats, GAME_MAX_SEATS, &n), PLAY_ERR);
	l->bots = l->resigned = l->timed_out = l->autopass = 0;
	memset(l->user, 0, sizeof l->user);
	for (int i = 0; rc == PLAY_OK && i < n; i++) {
		int q = seats[i].seat;
		if (q >= 0 && q < GAME_MAX_SEATS)
			l->user[q] = seats[i].user_id;
		if (q >= 0 && q < GAME_MAX_SEATS && seats[i].autopass)
			l->autopass |= 1u << q;
		if (q < 0 || q >= GAME_MAX_SEATS || !seats[i].bot)
			continue;
		l->bots |= 1u << q;
		l->resigned |= seats[i].resigned ? 1u << q : 0;
		l->timed_out |= seats[i].resigned && seats[i].timeouts ? 1u << q : 0;
		l->level[q] = seats[i].bot == 1 ? BOT_RANDOM : BOT_GREEDY;
	}
	return rc;
}

/* Frees what live_load() allocated; safe on a zeroed struct. */
static void live_free(struct live *l)
{
	free(l->state);
	free(l->snap);
	l->state = NULL;
	l->snap = NULL;
}

struct steps {
	struct sim_step *log;
	int n, cap;
};

/* store_moves() callback: one logged step into the replay log (bounded by cap). */
static void add_step(void *ctx, const struct st_move *m)
{
	struct steps *st = ctx;
	if (st->n >= st->cap)
		return;
	struct sim_step *x = &st->log[st->n++];
	x->seat = m->seat;
	x->at = m->at;
	memcpy(x->text, m->text, sizeof x->text);
}

/* Replays party p of table t from its seed, dealer and log into state
 * (g->state_size bytes), without the pause's continues that follow its end
 * (the game never saw them). PLAY_OK; PLAY_ERR with e->msg when the log
 * does not replay. Inside the caller's transaction. */
static int replay_party(struct store *s, const struct st_table *t, const struct game *g,
			const int *opt, const struct st_party *p, void *state, struct rerr *e)
{
	struct steps steps = { NULL, 0, 0 };
	struct setup su;
	int64_t count;
	int rc;
	if ((rc = from_store(store_move_count(s, p->id, &count), PLAY_ERR)) != PLAY_OK)
		return rc;
	steps.cap = (int)count;
	steps.log = calloc(count > 0 ? (size_t)count : 1, sizeof *steps.log);
	if (!steps.log)
		return fail_msg(e, PLAY_ERR, N_("Kein Speicher für die Wiederholung."));
	if ((rc = from_store(store_moves(s, p->id, 0, add_step, &steps), PLAY_ERR)) != PLAY_OK) {
		free(steps.log);
		return fail_msg(e, rc, N_("Das Protokoll lässt sich nicht lesen."));
	}
	while (p->over && steps.n > 0 && steps.log[steps.n - 1].seat >= 0 &&
	       strcmp(steps.log[steps.n - 1].text, PLAY_CONTINUE) == 0)
		steps.n--;
	memset(&su, 0, sizeof su);
	su.nplayers = t->nseats;
	su.dealer = p->dealer;
	su.seed = p->seed;
	memcpy(su.opt, opt, sizeof su.opt);
	rc = sim_replay(g, &su, steps.log, steps.n, state, e) == 0 ? PLAY_OK : PLAY_ERR;
	free(steps.log);
	return rc;
}

/* The state of party p from its stored snapshot `snap`. The snapshot is a
 * cache of setup and log: one in a format this build no longer reads is
 * rebuilt by replaying the log (the next step stores it anew). PLAY_OK, or
 * PLAY_CORRUPT (logged while the party runs: the table is then closed,
 * close_broken). Inside the caller's transaction. */
static int party_state(struct store *s, const struct st_table *t, const struct game *g,
		       const int *opt, const struct st_party *p, const unsigned char *snap,
		       void *state)
{
	struct rerr e;
	int rc = game_load(g, state, snap, p->snap_len, &e);
	if (rc == SNAP_OK)
		return PLAY_OK;
	if (rc == SNAP_FORMAT) {
		struct rerr why = e;
		if (replay_party(s, t, g, opt, p, state, &e) == PLAY_OK) {
			fprintf(stderr, "play: table %lld party %d: %s: rebuilt from the log\n",
				(long long)t->id, p->number, why.msg);
			return PLAY_OK;
		}
	}
	if (!p->over)   /* (a party closed as broken says so once, in close_broken) */
		fprintf(stderr, "play: table %lld party %d: snapshot: %s\n", (long long)t->id,
			p->number, e.msg);
	return PLAY_CORRUPT;
}

/* Reads table `id` and, when it is being played, its current party,
 * decoded. PLAY_NOT_FOUND, PLAY_NOT_PLAYING, PLAY_BUSY, PLAY_ERR. The
 * caller frees with live_free() whatever the result. */
static int live_load(struct store *s, int64_t id, struct live *l)
{
	int rc;
	memset(l, 0, sizeof *l);
	if ((rc = from_store(store_table_get(s, id, &l->t), PLAY_NOT_FOUND)) != PLAY_OK)
		return rc;
	if (l->t.status != TABLE_PLAYING || l->t.party_no < 0)
		return PLAY_NOT_PLAYING;
	if ((rc = table_game(&l->t, &l->g, l->opt)) != PLAY_OK || (rc = live_seats(s, l)) != PLAY_OK)
		return rc;
	l->state = calloc(1, l->g->state_size);
	l->snap = malloc(GAME_SNAPSHOT_MAX);
	if (!l->state || !l->snap)
		return PLAY_ERR;
	rc = from_store(store_party_get(s, id, l->t.party_no, &l->party, l->snap, GAME_SNAPSHOT_MAX),
			PLAY_ERR);
	if (rc != PLAY_OK)
		return rc;
	return party_state(s, &l->t, l->g, l->opt, &l->party, l->snap, l->state);
}

/* Stores the state after one step by `seat` (-1: "tick"): snapshot, log
 * entry with the version it produces, the version bump with the game's
 * deadline and epoch. When the party is over, its scores stay with it and
 * the table pauses on it until PLAY_PAUSE_SECONDS from now (next_party()
 * deals the next one), or, after the last party, the table is finished.
 * Either way every older page becomes stale. Re-reads l->t afterwards.
 * A state that fails the game's check() is never stored: PLAY_CORRUPT
 * (logged), nothing written; the caller refuses a person's move
 * (play_move) and closes the table when it cannot go on without the step
 * (close_broken: a tick, a bot). Inside the caller's transaction. */
static int save_step(struct store *s, struct live *l, int seat, const char *text, int64_t now,
		     int quiet)
{
	struct status st;
	struct party_result result;
	struct rerr ce;
	size_t len;
	int64_t deadline;
	int rc;

	if (l->g->check(l->state, &ce) != 0) {
		fprintf(stderr, "play: table %lld party %d: step '%s' by seat %d refused, not "
			"stored: it breaks the game's invariants: %s\n", (long long)l->t.id,
			l->party.number, text, seat, ce.msg);
		return PLAY_CORRUPT;
	}
	l->g->status(l->state, &st);
	party_result(&st, l->t.nseats, &result);
	party_resigned_last(&result, l->t.nseats, l->resigned);
	if ((rc = encode_state(l->g, l->state, l->snap, &len)) != PLAY_OK)
		return rc;
	if ((rc = from_store(store_party_save(s, l->party.id, l->snap, len, st.over, &result,
					      l->t.nseats), PLAY_ERR)) != PLAY_OK ||
	    (rc = from_store(store_move_append(s, l->party.id, seat, text, now, l->t.version + 1),
			     PLAY_ERR)) != PLAY_OK)
		return rc;
	deadline = st.deadline;
	if ((rc = from_store(seatclock_sync_after(s, &l->t, &st, now, l->ran_out, &deadline),
			     PLAY_ERR)) != PLAY_OK ||
	    (rc = set_acting(s, &l->t, &st, st.over && l->t.party_no + 1 < l->t.nparties, 0)) !=
		    PLAY_OK)
		return rc;
	if (st.over) {
		int last = l->t.party_no + 1 >= l->t.nparties;
		deadline = last ? 0 : deadline_after(now, PLAY_PAUSE_SECONDS);
		if (last && ((rc = from_store(store_table_set_status(s, l->t.id, TABLE_FINISHED,
								     l->t.party_no, l->t.first_dealer),
					      PLAY_ERR)) != PLAY_OK ||
			     (rc = from_store(ratings_after_match(s, &l->t, now), PLAY_ERR)) !=
				     PLAY_OK ||
			     (rc = tourney_after_table(s, &l->t, now)) != PLAY_OK))
			return rc;
	}
	switch ((quiet && !st.over ? store_table_bump_quiet : store_table_bump)(
			s, l->t.id, l->t.version, deadline, st.epoch, NULL)) {
	case ST_OK: break;
	case ST_CONFLICT: return PLAY_STALE;   /* impossible under BEGIN IMMEDIATE */
	case ST_BUSY: return PLAY_BUSY;
	case ST_FULL: return PLAY_NOSPACE;
	default: return PLAY_ERR;
	}
	if (st.over && (rc = from_store(store_table_new_epoch(s, l->t.id), PLAY_ERR)) != PLAY_OK)
		return rc;
	return from_store(store_table_get(s, l->t.id, &l->t), PLAY_ERR);
}

/* Closes running table `id` whose current party cannot go on: its stored
 * state does not load, or the step it needs next (a passed deadline, a
 * bot's move) would break the game's invariants (save_step refused it).
 * That party ends as a draw (every seat placed first, no points), the
 * table is finished with the parties played (the match totals stand,
 * ratings and a tournament take it as any finished table), every page
 * becomes stale, and the log says why. PLAY_OK also when the table no
 * longer runs. Inside the caller's transaction. */
static int close_broken(struct store *s, int64_t id, int64_t now, const char *why)
{
	struct st_table t;
	struct st_party p;
	struct party_result draw;
	struct status over;
	unsigned char *snap = malloc(GAME_SNAPSHOT_MAX);
	int rc = snap ? from_store(store_table_get(s, id, &t), PLAY_NOT_FOUND) : PLAY_ERR;
	if (rc != PLAY_OK || t.status != TABLE_PLAYING || t.party_no < 0)
		goto out;
	rc = from_store(store_party_get(s, id, t.party_no, &p, snap, GAME_SNAPSHOT_MAX), PLAY_ERR);
	if (rc != PLAY_OK)
		goto out;
	memset(&draw, 0, sizeof draw);
	for (int q = 0; q < t.nseats && q < GAME_MAX_SEATS; q++)
		draw.place[q] = 1;
	memset(&over, 0, sizeof over);
	over.over = 1;
	if ((!p.over && (rc = from_store(store_party_save(s, p.id, snap, p.snap_len, 1, &draw,
							  t.nseats), PLAY_ERR)) != PLAY_OK) ||
	    (rc = set_acting(s, &t, &over, 0, 0)) != PLAY_OK ||
	    (rc = from_store(store_table_set_status(s, id, TABLE_FINISHED, t.party_no,
						    t.first_dealer), PLAY_ERR)) != PLAY_OK ||
	    (rc = from_store(ratings_after_match(s, &t, now), PLAY_ERR)) != PLAY_OK ||
	    (rc = tourney_after_table(s, &t, now)) != PLAY_OK ||
	    (rc = from_store(store_table_bump(s, id, t.version, 0, t.epoch, NULL), PLAY_ERR)) !=
		    PLAY_OK ||
	    (rc = from_store(store_table_new_epoch(s, id), PLAY_ERR)) != PLAY_OK)
		goto out;
	fprintf(stderr, "play: table %lld party %d: %s: table closed, the party counts as a draw, "
		"the match stands with the parties played\n", (long long)id, t.party_no, why);
out:
	free(snap);
	return rc;
}

/* 1 when the loaded party is over while the table still plays: the pause
 * before the next party. */
static int live_pausing(const struct live *l)
{
	struct status st;
	if (l->t.status != TABLE_PLAYING || l->t.party_no != l->party.number)
		return 0;   /* (after next_party() l->state is the finished party) */
	l->g->status(l->state, &st);
	return st.over;
}

/* The dealer of the party after the finished one in l->state: one seat on,
 * or for a game that starts with the winner, that party's winner (by lot
 * when first place is shared). */
static int next_dealer(const struct live *l, int next)
{
	struct status st;
	struct party_result r;
	if (!l->g->starts_with_winner)
		return match_dealer(next, l->t.first_dealer, l->t.nseats);
	l->g->status(l->state, &st);
	party_result(&st, l->t.nseats, &r);
	int w = party_winner(&r, l->t.nseats);
	return w >= 0 ? w : (int)(auth_random_seed() % (uint64_t)l->t.nseats);
}

/* Deals the next party of a pausing table (see next_dealer), with a new
 * version that makes every older page stale; the seats claimed meanwhile
 * change hands first (play_claim). l->t is re-read; l->party and
 * l->state still hold the finished party. Inside the caller's transaction. */
static int next_party(struct store *s, struct live *l, int64_t now)
{
	struct status st;
	memset(&st, 0, sizeof st);
	int next = l->t.party_no + 1;
	int rc = from_store(store_seats_apply_claims(s, l->t.id, l->t.clock.first_ms), PLAY_ERR);
	if (rc == PLAY_OK)
		rc = start_party(s, &l->t, next, next_dealer(l, next), now, &st);
	int64_t deadline = st.deadline;
	if (rc != PLAY_OK ||
	    (rc = from_store(store_table_set_status(s, l->t.id, TABLE_PLAYING, next,
						    l->t.first_dealer), PLAY_ERR)) != PLAY_OK ||
	    (rc = from_store(seatclock_sync(s, &l->t, &st, now, &deadline), PLAY_ERR)) != PLAY_OK ||
	    (rc = set_acting(s, &l->t, &st, 0, 0)) != PLAY_OK ||
	    (rc = from_store(store_table_bump(s, l->t.id, l->t.version, deadline, st.epoch, NULL),
			     PLAY_ERR)) != PLAY_OK ||
	    (rc = from_store(store_table_new_epoch(s, l->t.id), PLAY_ERR)) != PLAY_OK)
		return rc;
	return from_store(store_table_get(s, l->t.id, &l->t), PLAY_ERR);
}

/* The seats that sent PLAY_CONTINUE since `party` ended at version
 * `ended` (the table's epoch_version while it pauses), as bits. */
static int ready_mask(struct store *s, int64_t party, int nseats, int64_t ended, uint32_t *mask)
{
	*mask = 0;
	for (int seat = 0; seat < nseats; seat++) {
		int yes = 0;
		int rc = from_store(store_seat_moved_since(s, party, seat, ended, &yes), PLAY_ERR);
		if (rc != PLAY_OK)
			return rc;
		if (yes)
			*mask |= 1u << seat;
	}
	return PLAY_OK;
}

/* 1 when `move` is the platform's PLAY_CONTINUE in any spelling. */
static int is_continue(const char *move)
{
	struct mtok t;
	struct rerr e;
	return mt_split(move, &t, &e) == 0 && t.n == 1 && strcmp(t.w[0], PLAY_CONTINUE) == 0;
}

/* `seat` continues on a pausing table, from a page at version `seen`:
 * logged in the finished party as (seat, PLAY_CONTINUE) with a version of
 * its own (polls see who is ready; no page gets stale); the last seat to
 * continue deals the next party. A second continue is PLAY_STALE. */
static int party_continue(struct store *s, struct live *l, int seat, const char *move,
			  int64_t now, struct rerr *e)
{
	uint32_t ready;
	int rc;
	if (!is_continue(move))
		return fail_msg(e, PLAY_REJECTED, N_("Die Partie ist vorbei: mit „Weiter“ geht es "
						     "zur nächsten Partie."));
	if ((rc = ready_mask(s, l->party.id, l->t.nseats, l->t.epoch_version, &ready)) != PLAY_OK)
		return rc;
	if (ready >> seat & 1u)
		return fail_msg(e, PLAY_STALE, N_("Du hast schon „Weiter“ gewählt: die nächste "
						  "Partie beginnt, sobald alle so weit sind."));
	if ((rc = from_store(store_move_append(s, l->party.id, seat, PLAY_CONTINUE, now,
					       l->t.version + 1), PLAY_ERR)) != PLAY_OK ||
	    (rc = from_store(store_table_bump(s, l->t.id, l->t.version, l->t.next_deadline,
					      l->t.epoch, NULL), PLAY_ERR)) != PLAY_OK ||
	    (rc = from_store(store_table_get(s, l->t.id, &l->t), PLAY_ERR)) != PLAY_OK)
		return rc;
	ready |= 1u << seat;
	if (ready == (l->t.nseats >= 32 ? ~0u : (1u << l->t.nseats) - 1u))
		return next_party(s, l, now);
	struct status st;
	l->g->status(l->state, &st);
	return set_acting(s, &l->t, &st, 1, ready);
}

/* Applies passed deadlines to a loaded party and logs them as one
 * PLAY_STEP_TICK step (PLAY_STEP_START when nothing was due and the game
 * only started a clock, as start_party() does at the deal); on a pausing table, a passed pause deals the next party. When the game has nothing to apply although the table's deadline
 * passed, the table's deadline is corrected (so that polls stop firing). */
static int live_tick(struct store *s, struct live *l, int64_t now)
{
	struct status st;
	int done = 0, rc;
	if (live_pausing(l))
		return deadline_passed(l->t.next_deadline, now) ? next_party(s, l, now) : PLAY_OK;
	if ((rc = clock_step(s, l, now, &done)) != PLAY_OK || done)
		return rc;
	if (l->g->tick(l->state, now))
		return save_step(s, l, -1, deadline_passed(l->t.next_deadline, now) ?
				 PLAY_STEP_TICK : PLAY_STEP_START, now, 0);
	if (!deadline_passed(l->t.next_deadline, now))
		return PLAY_OK;
	l->g->status(l->state, &st);
	if (deadline_passed(st.deadline, now)) {
		fprintf(stderr, "play: table %lld: deadline %lld passed but tick changed nothing\n",
			(long long)l->t.id, (long long)st.deadline);
		st.deadline = 0;
	}
	int64_t deadline = st.deadline;
	if ((rc = from_store(seatclock_sync(s, &l->t, &st, now, &deadline), PLAY_ERR)) != PLAY_OK)
		return rc;
	rc = from_store(store_table_bump(s, l->t.id, l->t.version, deadline, l->t.epoch, NULL),
			PLAY_ERR);
	return rc == PLAY_OK ? from_store(store_table_get(s, l->t.id, &l->t), PLAY_ERR) : rc;
}

/* PLAY_OK whether or not a deadline had passed; PLAY_NOT_FOUND (404),
 * PLAY_BUSY (503), PLAY_ERR (500). Cheap when nothing is due: one read.
 * Everything due at now_ms is applied, in one transaction: a pause that
 * ends deals a party (its first window's clock starts at the deal), and a page loaded afterwards must not
 * see a deadline pass under its next move that was due before it loaded.
 * TICK_ROUNDS bounds the rounds; a game's tick always moves its deadline. */
int play_tick(struct store *s, int64_t table, int64_t now_ms)
{
	enum { TICK_ROUNDS = 4 };
	struct live l;
	int64_t v, dl;
	int rc = from_store(store_table_poll(s, table, &v, &dl), PLAY_NOT_FOUND);
	if (rc != PLAY_OK || !deadline_passed(dl, now_ms))
		return rc;
	if ((rc = from_store(store_begin(s), PLAY_ERR)) != PLAY_OK)
		return rc;
	for (int round = 0; rc == PLAY_OK && round < TICK_ROUNDS; round++) {
		rc = live_load(s, table, &l);
		int due = rc == PLAY_OK && deadline_passed(l.t.next_deadline, now_ms);
		if (due)
			rc = live_tick(s, &l, now_ms);
		else if (rc == PLAY_NOT_PLAYING)
			rc = PLAY_OK;   /* a finished table has no deadlines to apply */
		live_free(&l);
		if (!due)
			break;
	}
	if (rc == PLAY_CORRUPT)   /* logged: the state does not load, or the tick breaks it */
		rc = close_broken(s, table, now_ms, "the passed deadline cannot be applied");
	if (rc == PLAY_OK)
		rc = bots_act(s, table, now_ms);
	return finish(s, rc);
}

struct canon_ctx {
	const struct mtok *want;
	char *out;
	size_t cap;
	int found;
};

/* moves() callback: keeps the first listed move whose words are want's. */
static void match_listed(void *ctx, const char *move)
{
	struct canon_ctx *c = ctx;
	struct mtok t;
	struct rerr e;
	if (c->found || mt_split(move, &t, &e) != 0 || t.n != c->want->n)
		return;
	for (int i = 0; i < t.n; i++)
		if (strcmp(t.w[i], c->want->w[i]) != 0)
			return;
	snprintf(c->out, c->cap, "%s", move);
	c->found = 1;
}

/* See play.h: the listed spelling, else the folded words, else typed. */
void play_canonical(const struct game *g, const void *st, int seat, const char *typed,
		    char *out, size_t cap)
{
	struct mtok t;
	struct rerr e;
	struct canon_ctx c = { &t, out, cap, 0 };
	size_t len = 0;
	if (cap == 0)
		return;
	snprintf(out, cap, "%s", typed ? typed : "");
	if (!typed || mt_split(typed, &t, &e) != 0)
		return;
	if (g->moves)
		g->moves(st, seat, match_listed, &c);
	if (c.found)
		return;
	out[0] = '\0';
	for (int i = 0; i < t.n && len < cap; i++) {
		int w = snprintf(out + len, cap - len, "%s%s", i ? " " : "", t.w[i]);
		if (w < 0)
			return;
		len += (size_t)w;
	}
}

struct sig_ctx {
	uint64_t h;
};

/* Hashing view sink: every key and value with its terminating byte, so
 * that neighbours stay apart; a number as its eight bytes after a byte no
 * string has (its decimal text cost a move 40k instructions in snprintf).
 * The hash is only compared within one request: before and after a move. */
static void sig_bytes(struct sig_ctx *c, const void *p, size_t n)
{
	/* eight bytes a step (FNV took four instructions a byte), the length
	 * mixed in last so that a shorter tail of zeros differs */
	const unsigned char *b = p;
	uint64_t h = c->h;
	for (; n >= 8; b += 8, n -= 8) {
		uint64_t w;
		memcpy(&w, b, 8);
		h = (h ^ w) * UINT64_C(0x9e3779b97f4a7c15);
		h ^= h >> 29;
	}
	uint64_t w = n;
	for (size_t i = 0; i < n; i++)
		w |= (uint64_t)b[i] << (8 * (i + 1));
	h = (h ^ w) * UINT64_C(0xbf58476d1ce4e5b9);
	c->h = h ^ (h >> 31);
}
static void sig_str(void *ctx, const char *k, const char *v)
{
	sig_bytes(ctx, k, strlen(k) + 1);
	sig_bytes(ctx, v, strlen(v) + 1);
}
static void sig_num(void *ctx, const char *k, long long v)
{
	unsigned char b[9] = { 0xff };
	for (int i = 0; i < 8; i++)
		b[1 + i] = (unsigned char)((unsigned long long)v >> (8 * i));
	sig_bytes(ctx, k, strlen(k) + 1);
	sig_bytes(ctx, b, sizeof b);
}
static void sig_flag(void *ctx, const char *k, int on)
{
	sig_str(ctx, k, on ? "1" : "0");
}
static void sig_begin(void *ctx, const char *sec)
{
	sig_str(ctx, "[", sec);
}
static void sig_end(void *ctx)
{
	sig_str(ctx, "]", "");
}

uint32_t play_acting_mask(const struct status *st)
{
	return st->window ? st->window : st->to_act;
}

/* What every other seat and a spectator can see of a state, as one hash:
 * the spectator's view and the public status (whose turn, who may act as
 * the page shows it, the deadline, the epoch, the end). */
static uint64_t public_sig(const struct game *g, const void *state)
{
	struct sig_ctx c = { PERFT_FNV_SEED };
	struct view_sink v = { sig_str, sig_num, sig_flag, sig_begin, sig_end, &c, NULL };
	struct status st;
	g->status(state, &st);
	long long pub[6] = { st.over, st.turn, play_acting_mask(&st), st.window, st.deadline,
			     st.epoch };
	sig_bytes(&c, pub, sizeof pub);
	g->view(state, -1, &v);
	return c.h;
}

/* Applies `move` by `seat` to the loaded party and saves the step. The log
 * keeps play_canonical()'s spelling when applying that spelling to the
 * state before gives the same snapshot (so a replay stays exact), else the
 * text as typed. PLAY_REJECTED with the game's reason, PLAY_ERR. */
static const struct lookup *play_lookup;

void play_set_lookup(const struct lookup *lk)
{
	play_lookup = lk;
}

static int apply_move(struct store *s, struct live *l, int seat, const char *move, int64_t now,
		      struct rerr *e)
{
	char canon[GAME_MOVE_MAX + 1];
	struct rerr ge;
	void *copy = NULL;
	unsigned char *a = NULL, *b = NULL;
	size_t la = 0, lb = 0;
	const char *text = move;
	int rc = PLAY_ERR;

	/* what the game looks up is written into the move the log keeps */
	char looked[GAME_MOVE_MAX + 1];
	if (l->g->annotate && play_lookup &&
	    l->g->annotate(l->state, seat, move, play_lookup, looked, sizeof looked) == 0)
		move = text = looked;
	uint64_t before = public_sig(l->g, l->state);
	play_canonical(l->g, l->state, seat, move, canon, sizeof canon);
	if (strcmp(canon, move) != 0) {
		if (!(copy = malloc(l->g->state_size)))
			goto out;
		memcpy(copy, l->state, l->g->state_size);
	}
	if (l->g->apply(l->state, seat, move, now, &ge) != 0) {
		if (e)
			*e = ge;
		rc = PLAY_REJECTED;
		goto out;
	}
	if (copy) {
		a = malloc(GAME_SNAPSHOT_MAX);
		b = malloc(GAME_SNAPSHOT_MAX);
		if (!a || !b)
			goto out;
		if (l->g->apply(copy, seat, canon, now, &ge) == 0 &&
		    encode_state(l->g, l->state, a, &la) == PLAY_OK &&
		    encode_state(l->g, copy, b, &lb) == PLAY_OK && la == lb && memcmp(a, b, la) == 0)
			text = canon;
		else
			fprintf(stderr, "play: %s: '%s' is not the same move as '%s': logged as typed\n",
				l->g->slug, canon, move);
	}
	/* A step nobody else can see (a pass in a window) is quiet: other pages
	 * do not reload, so the timing of a reload tells nobody who passed. */
	rc = save_step(s, l, seat, text, now, public_sig(l->g, l->state) == before);
out:
	free(b);
	free(a);
	free(copy);
	return rc;
}

/* A person's move whose state save_step() refused (PLAY_CORRUPT, logged) is
 * refused like an illegal one: nothing is stored, the table plays on. */
static int refused_if_broken(int rc, struct rerr *e)
{
	if (rc != PLAY_CORRUPT)
		return rc;
	return fail_msg(e, PLAY_REJECTED, N_("Dieser Zug wurde nicht ausgeführt: der Spielstand "
					     "danach wäre fehlerhaft. Bitte wähle einen anderen."));
}

enum { BOT_STEPS_MAX = 2000 };   /* bot steps one request may take */

static void find_pass(void *ctx, const char *move)
{
	if (strcmp(move, "pass") == 0)
		*(int *)ctx = 1;
}

/* A seat whose person chose to pass every window, waiting in an open one
 * where "pass" is legal: it passes, in the same request that opened the
 * window, so its timing tells nothing. *acted as bot_step. */
static int autopass_step(struct store *s, struct live *l, const struct status *st, int64_t now,
			 int *acted)
{
	uint32_t who = st->window & st->to_act & l->autopass & ~l->bots;
	for (int q = 0; who; q++, who >>= 1) {
		int legal = 0;
		if (!(who & 1u))
			continue;
		l->g->moves(l->state, q, find_pass, &legal);
		if (!legal)
			continue;
		struct rerr e;
		*acted = 1;
		int rc = apply_move(s, l, q, "pass", now, &e);
		return rc == PLAY_REJECTED ? PLAY_ERR : rc;
	}
	return PLAY_OK;
}

/* The move a bot of `level` makes for seat in l, into move (GAME_MOVE_MAX
 * + 1 bytes); *found 0 when the seat has none. Seeded by the party and the
 * step: the log keeps the move anyway. */
static int bot_move(struct store *s, struct live *l, int seat, enum bot_level level, int64_t now,
		    struct bot_mem *m, char *move, int *found)
{
	int64_t count;
	int rc = from_store(store_move_count(s, l->party.id, &count), PLAY_ERR);
	*found = 0;
	if (rc != PLAY_OK)
		return rc;
	uint64_t seed = l->party.seed * 0x9e3779b97f4a7c15ull ^ (uint64_t)count * 1000003u ^
			(uint64_t)seat;
	*found = bot_choose(l->g, l->state, l->t.nseats, seat, level, seed, now, m, move) == 0;
	return PLAY_OK;
}

/* One step of a bot, if a bot may act in l: a bot seat that has not
 * continued after a party's end continues; a seat on auto-pass passes an
 * open window; else the lowest bot seat that may act makes its bot's move,
 * logged like a person's. *acted says whether anything happened. In the
 * caller's transaction. */
static int bot_step(struct store *s, struct live *l, struct bot_mem *m, int64_t now, int *acted)
{
	struct status st;
	char move[GAME_MOVE_MAX + 1];
	struct rerr e;
	int rc;
	*acted = 0;
	if (live_pausing(l)) {
		uint32_t ready;
		if ((rc = ready_mask(s, l->party.id, l->t.nseats, l->t.epoch_version, &ready)) != PLAY_OK)
			return rc;
		uint32_t todo = l->bots & ~ready;
		if (!todo)
			return PLAY_OK;
		*acted = 1;
		return party_continue(s, l, __builtin_ctz(todo), PLAY_CONTINUE, now, &e);
	}
	l->g->status(l->state, &st);
	uint32_t who = st.to_act & l->bots;
	if (!st.over && (rc = autopass_step(s, l, &st, now, acted)) != PLAY_OK)
		return rc;
	if (*acted || st.over || !who)
		return PLAY_OK;
	int seat = __builtin_ctz(who), found;
	if ((rc = bot_move(s, l, seat, (enum bot_level)l->level[seat], now, m, move, &found)) !=
		    PLAY_OK || !found)
		return rc;
	*acted = 1;
	rc = apply_move(s, l, seat, move, now, &e);
	if (rc == PLAY_REJECTED)
		fprintf(stderr, "play: table %lld: bot move '%s' refused: %s\n", (long long)l->t.id,
			move, e.msg);
	return rc == PLAY_REJECTED ? PLAY_ERR : rc;
}

/* Bots move for their seats until a person must act, the party waits for a
 * deadline, or BOT_STEPS_MAX steps: when a request touches the table, never
 * from a timer. In the caller's transaction. */
static int bots_act(struct store *s, int64_t table, int64_t now)
{
	struct bot_mem m = { .seen = NULL, .trial = NULL };
	struct st_seat seats[GAME_MAX_SEATS];
	int n, rc = from_store(store_table_seats(s, table, seats, GAME_MAX_SEATS, &n), PLAY_ERR),
	       acted = 0;
	for (int i = 0; rc == PLAY_OK && i < n; i++)
		acted |= seats[i].bot || seats[i].autopass;   /* else nothing to do: no load */
	for (int step = 0; rc == PLAY_OK && acted && step < BOT_STEPS_MAX; step++) {
		struct live l;
		rc = live_load(s, table, &l);
		if (rc == PLAY_OK && !m.seen) {
			m.seen = malloc(l.g->state_size);
			m.trial = malloc(l.g->state_size);
			rc = m.seen && m.trial ? PLAY_OK : PLAY_ERR;
		}
		if (rc == PLAY_OK)
			rc = bot_step(s, &l, &m, now, &acted);
		else if (rc == PLAY_NOT_PLAYING)
			rc = PLAY_OK, acted = 0;
		live_free(&l);
	}
	free(m.seen);
	free(m.trial);
	if (rc == PLAY_CORRUPT)   /* logged: the state does not load, or the bot's step breaks it */
		rc = close_broken(s, table, now, "a bot's step cannot be stored");
	return rc;
}

enum { TIMEOUT_MOVES_MAX = 64 };   /* moves of one turn a stand-in makes */

/* What stands in for seat when its time is up: a pass in a window that
 * lets it pass, else the greedy bot's move. *found as bot_move. */
static int stand_in_move(struct store *s, struct live *l, int seat, int64_t now,
			 struct bot_mem *m, char *move, int *found)
{
	struct status st;
	int legal = 0;
	l->g->status(l->state, &st);
	if ((st.window >> seat) & 1u)
		l->g->moves(l->state, seat, find_pass, &legal);
	if (legal) {
		memcpy(move, "pass", sizeof "pass");
		*found = 1;
		return PLAY_OK;
	}
	return bot_move(s, l, seat, BOT_GREEDY, now, m, move, found);
}

/* A running clock that ran out (seatclock.h): the seat's timeout counts,
 * and what stands in for it plays the rest of its turn (a window: its
 * pass). At the table's limit of timeouts the bot keeps the seat. Sets
 * *done when it acted, and at a table over days also when somebody must
 * still act: the game's own deadlines wait for the clocks there. */
static int clock_step(struct store *s, struct live *l, int64_t now, int *done)
{
	struct status st;
	struct bot_mem m = { .seen = NULL, .trial = NULL };
	struct rerr e;
	char move[GAME_MOVE_MAX + 1];
	int seat, takeover, found = 1, rc;
	int64_t next;
	l->g->status(l->state, &st);
	if ((rc = from_store(seatclock_due(s, &l->t, &st, now, &seat, &next), PLAY_ERR)) != PLAY_OK)
		return rc;
	if (seat < 0) {
		*done = l->t.clock.windows && (clock_waiting(&l->t.clock, &st) & ~l->bots);
		if (*done && deadline_passed(l->t.next_deadline, now) &&
		    (rc = from_store(store_table_bump_quiet(s, l->t.id, l->t.version, next,
							    l->t.epoch, NULL), PLAY_ERR)) == PLAY_OK)
			rc = from_store(store_table_get(s, l->t.id, &l->t), PLAY_ERR);
		return rc;
	}
	*done = 1;
	l->ran_out |= 1u << seat;
	if ((rc = from_store(seatclock_timeout(s, &l->t, seat, now, &takeover), PLAY_ERR)) != PLAY_OK)
		return rc;
	if (takeover) {
		l->bots |= 1u << seat;
		l->resigned |= 1u << seat;
		l->level[seat] = BOT_GREEDY;
	}
	m.seen = malloc(l->g->state_size);
	m.trial = malloc(l->g->state_size);
	rc = m.seen && m.trial ? PLAY_OK : PLAY_ERR;
	for (int k = 0; rc == PLAY_OK && found && k < TIMEOUT_MOVES_MAX; k++) {
		l->g->status(l->state, &st);
		if (!(((clock_waiting(&l->t.clock, &st) & st.to_act) >> seat) & 1u) ||
		    (rc = stand_in_move(s, l, seat, now, &m, move, &found)) != PLAY_OK || !found)
			break;
		if ((rc = apply_move(s, l, seat, move, now, &e)) == PLAY_REJECTED) {
			fprintf(stderr, "play: table %lld: stand-in move '%s' refused: %s\n",
				(long long)l->t.id, move, e.msg);
			rc = PLAY_ERR;
		}
	}
	free(m.seen);
	free(m.trial);
	return rc;
}

/* The game's judgement of a move from a page older than the last change
 * of its meaning (struct game.late): GAME_LATE_NOW or GAME_LATE_STALE,
 * with the game's words for a lost race in *why (msg empty: none). */
static int game_late(const struct live *l, int seat, const char *move, struct rerr *why)
{
	memset(why, 0, sizeof *why);
	return l->g->late ? l->g->late(l->state, seat, move, why) : GAME_LATE_STALE;
}

/* Whether a move from the page at version `seen` (struct play_table.seen)
 * may be judged against the state as it is now (after the tick), which is
 * the rule: PLAY_OK. It is stale only when the steps since changed what it
 * means: the seat moved since (a double submit), or the position epoch
 * changed (a card landed, a race was won, a deadline moved the game on):
 * PLAY_STALE with the note, naming the race's winner when the game can.
 * A move the game calls GAME_LATE_NOW (a standing choice) is never stale. */
static int judge_page(struct store *s, struct live *l, int seat, const char *move,
		      int64_t party_before, int64_t seen, struct rerr *e)
{
	struct rerr why;
	int moved, ticked, rc;
	memset(&why, 0, sizeof why);
	if (is_continue(move) && l->t.party_no > 0 && !live_pausing(l) &&
	    (l->t.party_no != l->party.number || l->t.epoch_version > seen))
		/* a continue from the pause page of the party before */
		return fail_msg(e, PLAY_STALE, N_("Zu spät: die nächste Partie hat schon begonnen. "
						  "Hier ist der neue Stand."));
	if (l->t.status != TABLE_PLAYING || l->t.party_no != l->party.number)
		return fail_msg(e, PLAY_STALE, N_("Zu spät: inzwischen hat sich am Tisch etwas "
						  "geändert. Hier ist der neue Stand."));
	if ((rc = from_store(store_seat_moved_since(s, party_before, seat, seen, &moved),
			     PLAY_ERR)) != PLAY_OK)
		return rc;
	int changed = l->t.epoch_version > seen;
	if (!moved && !changed)
		return PLAY_OK;
	if (!live_pausing(l) && game_late(l, seat, move, &why) == GAME_LATE_NOW)
		return PLAY_OK;
	if (moved)
		return fail_msg(e, PLAY_STALE, N_("Doppelt gesendet: dein Zug ist schon "
						  "angekommen."));
	if (why.msg[0]) {   /* a race lost: the game names who came first */
		if (e)
			*e = why;
		return PLAY_STALE;
	}
	/* a deadline applied after the page was seen (here or by anyone's
	 * request) that moved the game on */
	if ((rc = from_store(store_ticked_since(s, party_before, seen, &ticked), PLAY_ERR)) !=
	    PLAY_OK)
		return rc;
	return fail_msg(e, PLAY_STALE, ticked ? N_("Zu spät: die Frist ist inzwischen "
						   "abgelaufen. Hier ist der neue Stand.") :
				       N_("Zu spät: inzwischen hat sich am Tisch etwas "
					  "geändert. Hier ist der neue Stand."));
}

/* A move the game refused, from a page older than a deadline applied since
 * (whose meaning did not change, else judge_page() said so): the window it
 * answered has closed: PLAY_STALE "too late" instead of the refusal. */
static int refused_late(struct store *s, int64_t party, int64_t seen, struct rerr *e)
{
	int ticked;
	int rc = from_store(store_ticked_since(s, party, seen, &ticked), PLAY_ERR);
	if (rc != PLAY_OK)
		return rc;
	return ticked ? fail_msg(e, PLAY_STALE, N_("Zu spät: die Frist ist inzwischen abgelaufen. "
						   "Hier ist der neue Stand.")) :
			PLAY_REJECTED;
}

/* A move that arrives after the one that finished the table (the shout
 * that won a race): PLAY_STALE, with the game's words for who came first
 * when it has them. l holds the finished table; it loads its last party. */
static int finished_note(struct store *s, struct live *l, int64_t user, const char *move,
			 struct rerr *e)
{
	struct rerr why;
	memset(&why, 0, sizeof why);
	if (table_game(&l->t, &l->g, l->opt) == PLAY_OK && l->g->late && l->t.party_no >= 0 &&
	    live_seats(s, l) == PLAY_OK && (l->state = calloc(1, l->g->state_size)) &&
	    (l->snap = malloc(GAME_SNAPSHOT_MAX)) &&
	    store_party_get(s, l->t.id, l->t.party_no, &l->party, l->snap, GAME_SNAPSHOT_MAX) ==
		    ST_OK &&
	    party_state(s, &l->t, l->g, l->opt, &l->party, l->snap, l->state) == PLAY_OK)
		for (int q = 0; user > 0 && q < l->t.nseats && q < GAME_MAX_SEATS; q++)
			if (l->user[q] == user &&
			    l->g->late(l->state, q, move, &why) == GAME_LATE_STALE && why.msg[0]) {
				if (e)
					*e = why;
				return PLAY_STALE;
			}
	return fail_msg(e, PLAY_STALE, N_("Zu spät: die Partie ist inzwischen entschieden. "
					  "Hier ist der Endstand."));
}

/* The whole transaction of one move (see play.h). PLAY_STALE with e->msg
 * (the fresh page with the note), PLAY_REJECTED with the game's reason
 * (the page with the note, the move kept in the form), PLAY_NOT_SEATED
 * (403), PLAY_NOT_FOUND (404), PLAY_NOT_PLAYING (a note), PLAY_BUSY (503),
 * PLAY_ERR (500). Anything but PLAY_OK leaves the database as it was.
 * While the table pauses after a party, only PLAY_CONTINUE is a move. */
int play_move(struct store *s, int64_t table, int64_t user, const char *move,
	      int64_t seen_version, int64_t now_ms, struct rerr *e)
{
	struct live l;
	int seat, rc;
	int64_t party_before;

	memset(&l, 0, sizeof l);
	if (!move || !*move)
		return fail_msg(e, PLAY_REJECTED, N_("Kein Zug angegeben."));
	if (strlen(move) > GAME_MOVE_MAX)
		return fail_msg(e, PLAY_REJECTED, N_("Dieser Zug ist zu lang."));
	for (const unsigned char *p = (const unsigned char *)move; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return fail_msg(e, PLAY_REJECTED, N_("Der Zug enthält unerlaubte "
							     "Zeichen."));

	if ((rc = from_store(store_begin(s), PLAY_ERR)) != PLAY_OK)
		return rc;
	if ((rc = live_load(s, table, &l)) != PLAY_OK) {
		/* the move that finished the table came first (a shout race) */
		if (rc == PLAY_NOT_PLAYING && l.t.status == TABLE_FINISHED && seen_version >= 0 &&
		    seen_version < l.t.version)
			rc = finished_note(s, &l, user, move, e);
		goto out;
	}
	for (seat = 0; seat < l.t.nseats && seat < GAME_MAX_SEATS; seat++)
		if (user > 0 && l.user[seat] == user)
			break;
	if (seat >= l.t.nseats || seat >= GAME_MAX_SEATS) {
		rc = PLAY_NOT_SEATED;
		goto out;
	}
	if ((l.bots >> seat) & 1u) {
		rc = fail_msg(e, PLAY_REJECTED, (l.timed_out >> seat) & 1u ?
			      N_("Deine Zeit ist abgelaufen: ein Bot spielt deinen Platz zu "
				 "Ende.") :
			      (l.resigned >> seat) & 1u ?
			      N_("Du hast aufgegeben: ein Bot spielt deinen Platz zu Ende.") :
			      N_("Ein Bot spielt gerade für dich: nimm deinen Platz zurück, um "
				 "selbst zu spielen."));
		goto out;
	}
	if (seen_version < 0 || seen_version > l.t.version) {
		rc = fail_msg(e, PLAY_STALE, N_("Die Seite passt nicht zu diesem Tisch: hier ist "
						"der aktuelle Stand."));
		goto out;
	}
	party_before = l.party.id;
	if ((rc = live_tick(s, &l, now_ms)) != PLAY_OK)
		goto out;
	if ((l.ran_out >> seat) & 1u) {
		/* (rolled back like every refusal: the page it reloads applies it) */
		rc = fail_msg(e, PLAY_STALE, N_("Zu spät: deine Zeit war abgelaufen, für dich "
						"wurde schon gezogen. Hier ist der neue Stand."));
		goto out;
	}
	if ((rc = judge_page(s, &l, seat, move, party_before, seen_version, e)) != PLAY_OK)
		goto out;
	if (live_pausing(&l))
		rc = party_continue(s, &l, seat, move, now_ms, e);
	else
		rc = apply_move(s, &l, seat, move, now_ms, e);
	/* the game's refusal of a move from a page older than a deadline
	 * applied since is "too late"; a step that would break the state is
	 * refused as such */
	if (rc == PLAY_REJECTED)
		rc = refused_late(s, party_before, seen_version, e);
	rc = refused_if_broken(rc, e);
	/* the seats as loaded (a timeout's takeover included): without a bot
	 * or an autopass there is nothing for bots_act() to read them for */
	if (rc == PLAY_OK && (l.bots | l.autopass))
		rc = bots_act(s, table, now_ms);
out:
	if (rc == PLAY_NOT_SEATED || rc == PLAY_NOT_PLAYING || rc == PLAY_NOT_FOUND)
		fail_msg(e, rc, play_message(rc));
	live_free(&l);
	return finish(s, rc);
}

/* The end of a seat's transaction on a loaded table: the note for a
 * refusal, l freed, committed or rolled back. */
static int live_finish(struct store *s, struct live *l, int rc, struct rerr *e)
{
	if (rc == PLAY_NOT_SEATED || rc == PLAY_NOT_PLAYING)
		fail_msg(e, rc, play_message(rc));
	live_free(l);
	return finish(s, rc);
}

/* After a seat changed hands (a bot took it, its person took it back):
 * the clocks follow (a bot has none), every page becomes stale, and the
 * bots that are to act, act. */
static int seats_changed(struct store *s, struct live *l, int64_t now)
{
	struct status st;
	l->g->status(l->state, &st);
	int64_t deadline = live_pausing(l) ? l->t.next_deadline : st.deadline;
	int rc = live_pausing(l) ? PLAY_OK :
		 from_store(seatclock_sync(s, &l->t, &st, now, &deadline), PLAY_ERR);
	if (rc == PLAY_OK)
		rc = from_store(store_table_bump(s, l->t.id, -1, deadline, l->t.epoch, NULL),
				PLAY_ERR);
	if (rc == PLAY_OK)
		rc = from_store(store_table_new_epoch(s, l->t.id), PLAY_ERR);
	return rc == PLAY_OK ? bots_act(s, l->t.id, now) : rc;
}

/* What a person does with their seat of a running table: let a bot play
 * it, take it back from the bot, or resign (a bot plays on; the results
 * count as last). Every page of the table becomes stale; the bots that are
 * to act, act. PLAY_NOT_SEATED, PLAY_NOT_PLAYING, PLAY_REJECTED (a note:
 * not possible now), PLAY_NOT_FOUND (404). */
int play_seat(struct store *s, int64_t table, int64_t user, enum play_seat_act act,
	      int64_t now_ms, struct rerr *e)
{
	struct live l;
	int seat, rc;
	if ((rc = from_store(store_begin(s), PLAY_ERR)) != PLAY_OK)
		return rc;
	if ((rc = live_load(s, table, &l)) != PLAY_OK || (rc = seat_of(s, table, user, &seat)) !=
							 PLAY_OK)
		goto out;
	int bot = seat >= 0 && ((l.bots >> seat) & 1u), resigned = seat >= 0 &&
								((l.resigned >> seat) & 1u);
	if (seat < 0)
		rc = PLAY_NOT_SEATED;
	else if (resigned)
		rc = fail_msg(e, PLAY_REJECTED, (l.timed_out >> seat) & 1u ?
			      N_("Deine Zeit ist abgelaufen: ein Bot spielt deinen Platz zu "
				 "Ende.") :
			      N_("Du hast schon aufgegeben."));
	else if (act == PLAY_SEAT_BOT && bot)
		rc = fail_msg(e, PLAY_REJECTED, N_("Ein Bot spielt schon für dich."));
	else if (act == PLAY_SEAT_BACK && !bot)
		rc = fail_msg(e, PLAY_REJECTED, N_("Du spielst deinen Platz schon selbst."));
	if (rc != PLAY_OK)
		goto out;
	rc = from_store(store_seat_set_bot(s, table, seat, act == PLAY_SEAT_BACK ? 0 :
					   BOT_GREEDY + 1, act == PLAY_SEAT_RESIGN), PLAY_ERR);
	if (rc == PLAY_OK)
		rc = seats_changed(s, &l, now_ms);
out:
	return live_finish(s, &l, rc, e);
}

int play_claim(struct store *s, int64_t table, int64_t user, int seat, int64_t now_ms,
	       struct rerr *e)
{
	struct st_table t;
	struct st_seat seats[GAME_MAX_SEATS];
	int mine, n, rc;
	(void)now_ms;
	if ((rc = from_store(store_begin(s), PLAY_ERR)) != PLAY_OK)
		return rc;
	if ((rc = from_store(store_table_get(s, table, &t), PLAY_NOT_FOUND)) != PLAY_OK ||
	    (rc = seat_of(s, table, user, &mine)) != PLAY_OK ||
	    (rc = from_store(store_table_seats(s, table, seats, GAME_MAX_SEATS, &n), PLAY_ERR)) !=
		    PLAY_OK)
		goto out;
	if (mine >= 0)
		rc = fail_msg(e, PLAY_ALREADY, play_message(PLAY_ALREADY));
	else if (t.status != TABLE_PLAYING || t.party_no + 1 >= t.nparties)
		rc = fail_msg(e, PLAY_REJECTED, N_("Hier beginnt keine Partie mehr: es gibt keinen "
						   "Platz zu übernehmen."));
	for (int i = 0; rc == PLAY_OK && i < n; i++)
		if (seats[i].claimed_by == user)
			rc = fail_msg(e, PLAY_STALE, N_("Du übernimmst hier schon einen Platz, ab "
							"der nächsten Partie."));
	if (rc == PLAY_OK && store_seat_claim(s, table, seat, user) != ST_OK)
		rc = fail_msg(e, PLAY_REJECTED, N_("Diesen Platz kann gerade niemand übernehmen."));
	if (rc == PLAY_OK)
		rc = from_store(store_table_bump(s, table, -1, t.next_deadline, t.epoch, NULL),
				PLAY_ERR);
out:
	return finish(s, rc);
}

int play_expel(struct store *s, int64_t table, int64_t user, int target, int64_t now_ms,
	       struct rerr *e)
{
	struct live l;
	struct st_seat seats[GAME_MAX_SEATS];
	int seat, n, rc;
	if ((rc = from_store(store_begin(s), PLAY_ERR)) != PLAY_OK)
		return rc;
	if ((rc = live_load(s, table, &l)) != PLAY_OK ||
	    (rc = seat_of(s, table, user, &seat)) != PLAY_OK ||
	    (rc = from_store(store_table_seats(s, table, seats, GAME_MAX_SEATS, &n), PLAY_ERR)) !=
		    PLAY_OK)
		goto out;
	uint32_t voters = target >= 0 && target < l.t.nseats ? seatclock_voters(seats, n, target) : 0;
	uint32_t votes = 0;
	for (int i = 0; i < n; i++)
		votes |= seats[i].seat == target ? seats[i].expel_votes : 0;
	if (seat < 0)
		rc = PLAY_NOT_SEATED;
	else if (!((voters >> seat) & 1u))
		rc = fail_msg(e, PLAY_REJECTED, N_("Abstimmen lässt sich nur über einen Platz, den "
						   "ein Mensch spielt und dessen Zeit schon "
						   "abgelaufen ist."));
	else if ((votes >> seat) & 1u)
		rc = fail_msg(e, PLAY_STALE, N_("Deine Stimme ist schon gezählt."));
	if (rc != PLAY_OK)
		goto out;
	votes |= 1u << seat;
	rc = from_store(store_seat_expel_vote(s, table, target, 1u << seat), PLAY_ERR);
	if (rc == PLAY_OK && (votes & voters) == voters) {
		rc = from_store(store_seat_set_bot(s, table, target, BOT_GREEDY + 1, 1), PLAY_ERR);
		if (rc == PLAY_OK)
			rc = seats_changed(s, &l, now_ms);
	} else if (rc == PLAY_OK) {
		rc = from_store(store_table_bump(s, table, -1, l.t.next_deadline, l.t.epoch, NULL),
				PLAY_ERR);
	}
out:
	return live_finish(s, &l, rc, e);
}

/* The viewer's standing choice at a table they sit at, open or running:
 * pass every window automatically (on) or not. A window open for them now
 * is passed at once. PLAY_NOT_SEATED (a note), PLAY_NOT_FOUND (404). */
int play_autopass(struct store *s, int64_t table, int64_t user, int on, int64_t now_ms,
		  struct rerr *e)
{
	struct st_table t;
	int rc;
	if ((rc = from_store(store_begin(s), PLAY_ERR)) != PLAY_OK)
		return rc;
	if ((rc = from_store(store_table_get(s, table, &t), PLAY_NOT_FOUND)) == PLAY_OK &&
	    (rc = from_store(store_seat_set_autopass(s, table, user, on), PLAY_NOT_SEATED)) ==
		    PLAY_OK &&
	    (rc = from_store(store_table_bump_quiet(s, table, -1, t.next_deadline, t.epoch, NULL),
			     PLAY_ERR)) == PLAY_OK && t.status == TABLE_PLAYING)
		rc = bots_act(s, table, now_ms);
	if (rc == PLAY_NOT_SEATED)
		fail_msg(e, rc, play_message(rc));
	return finish(s, rc);
}

int play_invite(struct store *s, int64_t table, int64_t user, const char *name, int64_t now_ms,
		struct rerr *e)
{
	struct st_table t;
	struct st_user u;
	int mine, theirs, rc;
	if ((rc = from_store(store_begin(s), PLAY_ERR)) != PLAY_OK)
		return rc;
	if ((rc = from_store(store_table_get(s, table, &t), PLAY_NOT_FOUND)) != PLAY_OK ||
	    (rc = seat_of(s, table, user, &mine)) != PLAY_OK)
		goto out;
	if (mine < 0) {
		rc = fail_msg(e, PLAY_NOT_SEATED, N_("Einladen kann nur, wer an diesem Tisch "
						     "sitzt."));
		goto out;
	}
	if (t.status != TABLE_OPEN) {
		rc = fail_msg(e, PLAY_NOT_PLAYING, N_("Der Tisch wartet nicht mehr auf "
						      "Mitspieler."));
		goto out;
	}
	switch (store_user_by_name(s, name ? name : "", &u)) {
	case ST_OK: break;
	case ST_NOTFOUND: rc = fail_msg(e, PLAY_REJECTED, N_("Diesen Namen gibt es hier "
							     "nicht.")); goto out;
	default: rc = PLAY_ERR; goto out;
	}
	if ((rc = seat_of(s, table, u.id, &theirs)) != PLAY_OK)
		goto out;
	if (u.id == user || theirs >= 0)
		rc = fail_msg(e, PLAY_REJECTED, N_("Wer schon an diesem Tisch sitzt, braucht keine "
						   "Einladung."));
	else
		rc = from_store(store_invite(s, table, user, u.id, now_ms), PLAY_ERR);
out:
	return finish(s, rc);
}

int play_rematch(struct store *s, int64_t table, int64_t user, int64_t now_ms, int64_t *next,
		 struct rerr *e)
{
	struct st_table t;
	struct st_seat seats[GAME_MAX_SEATS];
	int mine, n, rc;
	*next = 0;
	if ((rc = from_store(store_begin(s), PLAY_ERR)) != PLAY_OK)
		return rc;
	if ((rc = from_store(store_table_get(s, table, &t), PLAY_NOT_FOUND)) != PLAY_OK ||
	    (rc = seat_of(s, table, user, &mine)) != PLAY_OK)
		goto out;
	if (mine < 0)
		rc = fail_msg(e, PLAY_NOT_SEATED, play_message(PLAY_NOT_SEATED));
	else if (t.status != TABLE_FINISHED)
		rc = fail_msg(e, PLAY_NOT_PLAYING, N_("Das Match läuft noch."));
	if (rc != PLAY_OK || (*next = t.rematch) != 0)
		goto out;   /* (someone asked first: the same new table) */
	struct play_speed sp = { t.clock, t.timeouts_max };
	rc = table_open(s, t.game, t.options, t.nseats, t.nparties, &sp, &user, 1, user, now_ms,
				next);
	if (rc == PLAY_OK)
		rc = from_store(store_table_seats(s, table, seats, GAME_MAX_SEATS, &n), PLAY_ERR);
	for (int i = 0; rc == PLAY_OK && i < n; i++)
		if (seats[i].user_id && seats[i].user_id != user)
			rc = from_store(store_invite(s, *next, user, seats[i].user_id, now_ms), PLAY_ERR);
	if (rc == PLAY_OK)
		rc = from_store(store_table_set_rematch(s, table, *next), PLAY_ERR);
	if (rc == PLAY_OK)
		rc = from_store(store_table_bump(s, table, -1, 0, t.epoch, NULL), PLAY_ERR);
out:
	rc = finish(s, rc);
	if (rc != PLAY_OK)
		*next = 0;
	return rc;
}

enum { SWEEP_MAX = 16 };

/* Removes open table id if it is still open and was created before `before`
 * (another request may have filled or removed it meanwhile). */
static int expire_open(struct store *s, int64_t id, int64_t before, int *done)
{
	struct st_table t;
	int rc = from_store(store_begin(s), PLAY_ERR);
	*done = 0;
	if (rc != PLAY_OK)
		return rc;
	rc = from_store(store_table_get(s, id, &t), PLAY_NOT_FOUND);
	if (rc == PLAY_OK && t.status == TABLE_OPEN && t.created_at < before) {
		rc = from_store(store_table_delete(s, id), PLAY_NOT_FOUND);
		*done = rc == PLAY_OK;
	}
	rc = finish(s, rc);
	return rc == PLAY_NOT_FOUND ? PLAY_OK : rc;
}

/* Closes running table id if its party still saw no step since `before`
 * (a tournament's table counts as played: tourney_after_table). */
static int close_idle(struct store *s, int64_t id, int64_t before, int64_t now, int *done)
{
	int rc = from_store(store_begin(s), PLAY_ERR);
	*done = 0;
	if (rc != PLAY_OK)
		return rc;
	struct st_table t;
	rc = from_store(store_table_close_idle(s, id, before), PLAY_NOT_FOUND);
	*done = rc == PLAY_OK;
	if (rc == PLAY_OK && (rc = from_store(store_table_get(s, id, &t), PLAY_ERR)) == PLAY_OK)
		rc = tourney_after_table(s, &t, now);
	rc = finish(s, rc);
	return rc == PLAY_NOT_FOUND ? PLAY_OK : rc;
}

/* Applies the passed deadlines of the tables in ids; a table another
 * request is at (or that went meanwhile) is left to it. Counts into
 * *ticked; PLAY_OK, or the first error. */
static int tick_ids(struct store *s, const int64_t *ids, int n, int64_t now_ms, int *ticked)
{
	int rc = PLAY_OK;
	for (int i = 0; rc == PLAY_OK && i < n; i++) {
		rc = play_tick(s, ids[i], now_ms);
		*ticked += rc == PLAY_OK;
		if (rc == PLAY_BUSY || rc == PLAY_NOT_FOUND)
			rc = PLAY_OK;   /* someone else is at it */
	}
	return rc;
}

int play_sweep(struct store *s, const struct play_sweep *rule, int64_t now_ms,
	       struct play_swept *out)
{
	int64_t ids[SWEEP_MAX];
	int n, done, max = rule->max < SWEEP_MAX ? rule->max : SWEEP_MAX;
	memset(out, 0, sizeof *out);
	int rc = from_store(store_tables_due(s, now_ms, ids, max, &n), PLAY_ERR);
	if (rc == PLAY_OK)
		rc = tick_ids(s, ids, n, now_ms, &out->ticked);
	if (rc == PLAY_OK && rule->open_ms > 0)
		rc = from_store(store_tables_expired(s, now_ms - rule->open_ms, ids, max, &n),
				PLAY_ERR);
	for (int i = 0; rc == PLAY_OK && rule->open_ms > 0 && i < n; i++)
		if ((rc = expire_open(s, ids[i], now_ms - rule->open_ms, &done)) == PLAY_OK)
			out->expired += done;
	if (rc == PLAY_OK && rule->idle_ms > 0)
		rc = from_store(store_tables_idle(s, now_ms - rule->idle_ms, ids, max, &n), PLAY_ERR);
	for (int i = 0; rc == PLAY_OK && rule->idle_ms > 0 && i < n; i++)
		if ((rc = close_idle(s, ids[i], now_ms - rule->idle_ms, now_ms, &done)) == PLAY_OK)
			out->closed += done;
	return rc;
}

int play_sweep_user(struct store *s, int64_t user, int64_t now_ms, int max)
{
	int64_t ids[SWEEP_MAX], seq = 0, deadline = 0;
	int n = 0, ticked = 0;
	int rc = from_store(store_user_poll(s, user, NULL, now_ms, &seq, &deadline), PLAY_ERR);
	if (rc != PLAY_OK || deadline <= 0 || deadline > now_ms)
		return rc;
	rc = from_store(store_user_tables_due(s, user, now_ms, ids,
					      max < SWEEP_MAX ? max : SWEEP_MAX, &n), PLAY_ERR);
	return rc == PLAY_OK ? tick_ids(s, ids, n, now_ms, &ticked) : rc;
}

/* ------------------------------------------------------------------ */
/* Reading a table for a page                                          */

static void add_party(void *ctx, const struct st_party *p)
{
	struct play_table *pt = ctx;
	match_add_party(&pt->totals, p->result.points, pt->t.nseats);
	if (pt->nfinished < (int)(sizeof pt->party_score / sizeof pt->party_score[0]))
		memcpy(pt->party_score[pt->nfinished++], p->result.points,
		       sizeof p->result.points);
}

/* The current party of out->t, decoded into out->state (snap: scratch).
 * A party the table was closed on because it broke (close_broken: stored
 * as over, while its state does not load or is not over) is shown by its
 * stored result alone: out->broken, no state. PLAY_CORRUPT (logged) when
 * a running party does not load. In the caller's read transaction. */
static int load_party(struct store *s, struct play_table *out, unsigned char *snap)
{
	int rc;
	if ((rc = from_store(store_party_get(s, out->t.id, out->t.party_no, &out->party, snap,
					     GAME_SNAPSHOT_MAX), PLAY_ERR)) != PLAY_OK)
		return rc;
	rc = party_state(s, &out->t, out->g, out->opt, &out->party, snap, out->state);
	if (rc == PLAY_OK)
		out->g->status(out->state, &out->status);
	if (out->party.over && (rc == PLAY_CORRUPT || (rc == PLAY_OK && !out->status.over))) {
		out->broken = 1;
		memset(&out->status, 0, sizeof out->status);
		return PLAY_OK;
	}
	if (rc != PLAY_OK)
		return rc;
	out->has_party = 1;
	int64_t mine = 0;   /* the seat's own last step: its page may show it */
	if (out->my_seat >= 0 &&
	    (rc = from_store(store_seat_last_version(s, out->party.id, out->my_seat, &mine),
			     PLAY_ERR)) != PLAY_OK)
		return rc;
	out->seen = mine > out->seen ? mine : out->seen;
	out->pausing = out->t.status == TABLE_PLAYING && out->status.over;
	if (out->pausing)
		return ready_mask(s, out->party.id, out->t.nseats, out->t.epoch_version,
				  &out->ready);
	return PLAY_OK;
}

/* A running table whose party does not load is closed (close_broken), in a
 * transaction of its own. */
static int close_unloadable(struct store *s, int64_t table, int64_t now_ms)
{
	int rc = from_store(store_begin(s), PLAY_ERR);
	if (rc != PLAY_OK)
		return rc;
	return finish(s, close_broken(s, table, now_ms, "the stored state does not load"));
}

static int load_once(struct store *s, int64_t table, int64_t user, int64_t now_ms,
		     struct play_table *out);

/* Everything a table page shows, read in one read transaction after the
 * passed deadlines were applied. A running table whose party's state no
 * longer loads is closed first (close_broken) and shown finished.
 * PLAY_NOT_FOUND (404), PLAY_ERR (500). The caller calls play_free()
 * whatever the result. */
int play_load(struct store *s, int64_t table, int64_t user, int64_t now_ms,
	      struct play_table *out)
{
	int rc = load_once(s, table, user, now_ms, out);
	if (rc == PLAY_CORRUPT && (rc = close_unloadable(s, table, now_ms)) == PLAY_OK)
		rc = load_once(s, table, user, now_ms, out);
	return rc;
}

static int load_once(struct store *s, int64_t table, int64_t user, int64_t now_ms,
		     struct play_table *out)
{
	unsigned char *snap = NULL;
	int rc;

	memset(out, 0, sizeof *out);
	out->my_seat = -1;
	/* A writer holding the lock past the busy timeout does not keep the page
	 * from showing: it shows the state before the deadline, and the next
	 * load applies it. */
	rc = play_tick(s, table, now_ms);
	if (rc != PLAY_OK && rc != PLAY_BUSY && rc != PLAY_NOSPACE)
		return rc;
	if ((rc = from_store(store_begin_read(s), PLAY_ERR)) != PLAY_OK)
		return rc;
	if ((rc = from_store(store_table_get(s, table, &out->t), PLAY_NOT_FOUND)) != PLAY_OK ||
	    (rc = table_game(&out->t, &out->g, out->opt)) != PLAY_OK ||
	    (rc = from_store(store_table_seats(s, table, out->seats, GAME_MAX_SEATS, &out->nseated),
			     PLAY_ERR)) != PLAY_OK)
		goto out;
	for (int i = 0; user > 0 && i < out->nseated; i++)
		if (out->seats[i].user_id == user)
			out->my_seat = out->seats[i].seat;
	out->seen = out->t.public_version;
	if (out->t.party_no >= 0) {
		rc = PLAY_ERR;
		snap = malloc(GAME_SNAPSHOT_MAX);
		out->state = calloc(1, out->g->state_size);
		if (!snap || !out->state || (rc = load_party(s, out, snap)) != PLAY_OK)
			goto out;
	}
	rc = from_store(store_parties_of_table(s, table, add_party, out), PLAY_ERR);
out:
	free(snap);
	if (rc == PLAY_OK)
		rc = from_store(store_commit(s), PLAY_ERR);
	else
		store_rollback(s);
	if (rc != PLAY_OK) {
		free(out->state);
		out->state = NULL;
		out->has_party = 0;
	}
	return rc;
}

/* Frees the decoded state; the struct itself is the caller's. */
void play_free(struct play_table *pt)
{
	if (!pt)
		return;
	free(pt->state);
	pt->state = NULL;
	pt->has_party = 0;
}

/* ------------------------------------------------------------------ */
/* Replay check                                                        */

/* Rebuilds party `number` from its seed, dealer and log, and compares the
 * encoding with the stored snapshot. PLAY_OK when equal; PLAY_ERR with
 * e->msg when the replay fails or differs; PLAY_NOT_FOUND without such a
 * table or party. Reads only. */
int play_verify_party(struct store *s, int64_t table, int number, struct rerr *e)
{
	struct st_table t;
	struct st_party p;
	int opt[GAME_OPT_MAX] = { 0 };
	const struct game *g;
	size_t len;
	void *state = NULL;
	unsigned char *stored = NULL, *replayed = NULL;
	struct rerr re;
	int rc;

	if ((rc = from_store(store_begin_read(s), PLAY_ERR)) != PLAY_OK)
		return rc;
	if ((rc = from_store(store_table_get(s, table, &t), PLAY_NOT_FOUND)) != PLAY_OK ||
	    (rc = table_game(&t, &g, opt)) != PLAY_OK)
		goto out;
	rc = PLAY_ERR;
	stored = malloc(GAME_SNAPSHOT_MAX);
	replayed = malloc(GAME_SNAPSHOT_MAX);
	state = calloc(1, g->state_size);
	if (!stored || !replayed || !state)
		goto out;
	if ((rc = from_store(store_party_get(s, table, number, &p, stored, GAME_SNAPSHOT_MAX),
			     PLAY_NOT_FOUND)) != PLAY_OK)
		goto out;
	if ((rc = replay_party(s, &t, g, opt, &p, state, &re)) != PLAY_OK) {
		if (e)
			*e = re;
		goto out;
	}
	if ((rc = encode_state(g, state, replayed, &len)) != PLAY_OK)
		goto out;
	if (len != p.snap_len || memcmp(stored, replayed, len) != 0) {
		rc = fail_msg(e, PLAY_ERR, N_("Die Wiederholung aus dem Protokoll ergibt einen "
					      "anderen Stand als gespeichert."));
		goto out;
	}
	rc = PLAY_OK;
out:
	store_rollback(s);
	free(state);
	free(replayed);
	free(stored);
	return rc;
}
