/* sim.h — random complete parties for any registered game, with the
 * invariant checker after every step and a replay from the log at the end.
 * Pure: the caller provides every buffer (see struct sim_mem). */
#ifndef SPIELTISCH_SIM_H
#define SPIELTISCH_SIM_H

#include <stdint.h>

#include "game.h"
#include "rng.h"

/* One logged step: a move by a seat, or a tick (seat -1, text "tick"). */
struct sim_step {
	int seat;
	int64_t at;
	char text[GAME_MOVE_MAX + 1];
};

struct sim_mem {
	void *state, *replay;          /* game->state_size bytes each */
	struct sim_step *log;          /* room for max_steps */
	int max_steps;
	unsigned char *snap_a, *snap_b;/* GAME_SNAPSHOT_MAX bytes each */
	int fast;                      /* 1: no invariant check, no replay (the
	                                * rules' own speed: the same moves and
	                                * final states, nothing verified) */
};

struct sim_result {
	int steps;          /* moves and ticks logged */
	int moves;          /* moves only */
	int ended;          /* 1 when the party reached its end */
	int invariant_failures;
	int replay_mismatch;
	int rejected_legal; /* a move listed by moves() that apply() refused */
	int stuck;          /* nobody could act and no deadline was pending */
	struct rerr err;    /* first failure, for the report */
};

/* Choosing at random: shared by the simulator, the tests' random walks and
 * the benchmark's data generator, so that all of them play alike. */

/* Seat number k (k taken modulo their count) among the bits of mask, or -1
 * when mask is empty. */
int sim_nth_seat(uint32_t mask, uint32_t k);
/* A uniformly random seat among the bits of a non-empty mask (-1 if empty). */
int sim_random_seat(struct rng *r, uint32_t mask);

/* A moves() callback keeping one move in `chosen`: with rng, every emitted
 * move equally likely (reservoir sampling, one pass, no list kept);
 * without, the want-th one (0-based). `seen` counts the moves emitted. */
struct sim_pick {
	struct rng *rng;
	int want;
	int seen;
	char chosen[GAME_MOVE_MAX + 1];
};
void sim_pick_emit(void *ctx, const char *move);

/* Plays one party from `s` with random legal moves chosen by `seed`: a
 * random seat among those who may act, a random move of theirs (moves()
 * and, where a game has them, its bot_moves()); now and then
 * the clock jumps past the next deadline and tick() applies it; check()
 * after every step. Then replays the log on mem->replay and compares the
 * encoded snapshots. With mem->fast neither check() nor the replay run. */
void sim_party(const struct game *g, const struct setup *s, uint64_t seed,
	       struct sim_mem *mem, struct sim_result *r);

/* Replays a log from setup into st: 0, or -1 with e set. Also used by the
 * web layer's replay checks. */
int sim_replay(const struct game *g, const struct setup *s,
	       const struct sim_step *log, int n, void *st, struct rerr *e);

#endif
