/*
 * walk.h — random positions of any registered game, for the fuzz targets
 * and the leak test. Header-only (static inline) so that a fuzz target and
 * a unit test can both use it without another object file.
 *
 * A walk deals a party from a seed and plays random legal moves (a random
 * seat among those who may act, a random move from game->moves()); when a
 * deadline is pending it sometimes lets the clock pass it and ticks. Every
 * step can be logged as a struct sim_step, so that sim_replay() can rebuild
 * the position.
 */
#ifndef SPIELTISCH_TESTS_WALK_H
#define SPIELTISCH_TESTS_WALK_H

#include <stdint.h>
#include <string.h>

#include "game.h"
#include "options.h"
#include "rng.h"
#include "sim.h"

/* Fills s for game g from small numbers: a player count chosen by psel
 * within the game's range, dealer by dsel, the seed, and each option chosen
 * by optb[i] within its min..max (defaults where optb runs out). */
static inline void walk_setup_from(const struct game *g, struct setup *s, unsigned psel,
				   unsigned dsel, uint64_t seed, const unsigned char *optb,
				   size_t noptb)
{
	memset(s, 0, sizeof *s);
	s->nplayers = g->min_players + (int)(psel % (unsigned)(g->max_players - g->min_players + 1));
	s->dealer = (int)(dsel % (unsigned)s->nplayers);
	s->seed = seed;
	options_default(g, s->opt);
	for (int i = 0; i < g->noptions && i < GAME_OPT_MAX && (size_t)i < noptb; i++) {
		const struct game_option *o = &g->options[i];
		unsigned span = (unsigned)(o->max - o->min) + 1u;
		s->opt[i] = o->min + (int)(optb[i] % span);
	}
}

/* Appends one step to log (when log is not NULL and there is room). */
static inline void walk_log(struct sim_step *log, int *nlog, int cap, int seat, int64_t at,
			    const char *text)
{
	if (!log || *nlog >= cap)
		return;
	struct sim_step *st = &log[(*nlog)++];
	st->seat = seat;
	st->at = at;
	size_t n = strnlen(text, GAME_MOVE_MAX);
	memcpy(st->text, text, n);
	st->text[n] = '\0';
}

/* One random step from the position in st at *now: a legal move or a tick.
 * Returns 1 when a step was taken (and logged), 0 when the party is over,
 * -1 when nobody can act and no deadline is pending, when a listed move
 * was refused, or when check() fails after the step (err then says which). */
static inline int walk_step(const struct game *g, void *st, struct rng *rng, int64_t *now,
			    struct sim_step *log, int *nlog, int cap, struct rerr *err)
{
	struct status stt;
	g->status(st, &stt);
	if (stt.over)
		return 0;
	*now += 200 + (int64_t)rng_below(rng, 3000);
	if (stt.deadline > 0 && (stt.to_act == 0 || rng_below(rng, 8) == 0)) {
		if (*now < stt.deadline)
			*now = stt.deadline;
		if (g->tick(st, *now))
			walk_log(log, nlog, cap, -1, *now, "tick");
		return g->check(st, err) == 0 ? 1 : -1;
	}
	int seat = sim_nth_seat(stt.to_act, rng_below(rng, 32));
	if (seat < 0)
		return rerr_set(err, "nobody can act and no deadline is pending");
	struct sim_pick p = { .rng = rng };
	g->moves(st, seat, sim_pick_emit, &p);
	if (p.seen == 0)
		return rerr_set(err, "seat %d may act but has no move", seat);
	if (g->apply(st, seat, p.chosen, *now, err) != 0)
		return -1;
	walk_log(log, nlog, cap, seat, *now, p.chosen);
	if (g->check(st, err) != 0) {
		struct rerr why = *err;
		return rerr_set(err, "after '%s' by seat %d: %s", p.chosen, seat, why.msg);
	}
	return 1;
}

/* Up to `steps` random steps; returns how many were taken, or -1 as
 * walk_step does. */
static inline int walk_random(const struct game *g, void *st, struct rng *rng, int64_t *now,
			      int steps, struct sim_step *log, int *nlog, int cap,
			      struct rerr *err)
{
	int done = 0;
	while (done < steps) {
		int r = walk_step(g, st, rng, now, log, nlog, cap, err);
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		done++;
	}
	return done;
}

/* Position `pos` of a run over g's positions: a player count chosen by pos,
 * every other span of them with random options; then up to max_steps
 * random steps from *rng. Returns how many steps it was asked to take (≥ 0,
 * with *s and st filled), -2 when the game refuses the option combination (a
 * position to skip), -1 when the walk failed (err says why). */
static inline int walk_position(const struct game *g, void *st, struct setup *s,
				struct rng *rng, long pos, uint32_t max_steps, struct rerr *err)
{
	int span = g->max_players - g->min_players + 1;
	unsigned char optb[GAME_OPT_MAX];
	for (int i = 0; i < GAME_OPT_MAX; i++)
		optb[i] = (unsigned char)rng_below(rng, 256);
	walk_setup_from(g, s, (unsigned)(pos % span), (unsigned)rng_below(rng, 16),
			rng_next(rng), optb, (pos / span) % 2 ? GAME_OPT_MAX : 0);
	if (game_setup(g, st, s, err) != 0)
		return -2;
	int64_t now = 1000000;
	int steps = (int)rng_below(rng, max_steps);
	return walk_random(g, st, rng, &now, steps, NULL, NULL, 0, err) < 0 ? -1 : steps;
}

#endif
