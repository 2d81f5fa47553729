/*
 * bots.c — the seats nobody types for: bots' moves and the auto-pass of
 * a person who asked for it. Part of the engine (cgi/engine/, engine.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

enum { BOT_STEPS_MAX = 2000 };   /* bot steps one request may take */

void find_pass(void *ctx, const char *move)
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
int bot_move(struct store *s, struct live *l, int seat, enum bot_level level, int64_t now,
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
int bots_act(struct store *s, int64_t table, int64_t now)
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
