/* bot.h — computer players for every registered game, from the rules core
 * alone: they choose among the seat's legal moves (game->moves), so a bot
 * never plays a move a person could not, and its choice is seeded, so a
 * replay of the log stays exact.
 *
 * A bot sees what its seat sees and nothing more: before it thinks it
 * copies the state and re-deals everything the seat cannot see
 * (game->scramble with a seed of its own), and it works on that copy only.
 * Whatever the hidden cards really are, the bot chooses the same move
 * (test_bots_see_only_their_seat).
 *
 * Levels:
 *   random  every legal move equally likely;
 *   greedy  a one-move lookahead: each legal move is tried on the copy and
 *           judged by what the game says the outcome is worth to the seat
 *           (game->bot_worth), else by the seat's points (game->status);
 *           ties broken at random. A greedy seat wins more often than a
 *           random one at every game and player count
 *           (test_greedy_beats_random, `make bench`). */
#ifndef SPIELTISCH_BOT_H
#define SPIELTISCH_BOT_H

#include <stdint.h>

#include "game.h"

enum bot_level { BOT_RANDOM, BOT_GREEDY, BOT__MAX };
extern const char *const bot_level_name[BOT__MAX];

/* Scratch for a bot: two states of g->state_size bytes each. Optionally a
 * clock (nanoseconds) that bot_party() reads around each bot_choose(),
 * adding what the choices took to spent_ns and their number to choices
 * (`spieltisch bots --timing`); the rules core itself reads no clock. */
struct bot_mem {
	void *seen, *trial;
	uint64_t (*clock_ns)(void);
	uint64_t spent_ns;
	long choices;
};

/* The move of `seat` (of nplayers) at `level` in state st at now_ms, into
 * out (GAME_MOVE_MAX + 1 bytes): 0, or -1 when the seat has no legal move.
 * `seed` decides ties and random choices (derive it from the party and the
 * step, never from hidden information). */
int bot_choose(const struct game *g, const void *st, int nplayers, int seat,
	       enum bot_level level, uint64_t seed, int64_t now_ms, struct bot_mem *m, char *out);

/* One party played by bots, seat s at level[s]: the seat that may act (a
 * random one when several may), its bot's move; a pending deadline passes
 * when nobody may act. st holds the final state. 0 with place[] (1-based,
 * ties share), or -1 with e set (a refused move, a stuck party, more than
 * max_steps steps). */
int bot_party(const struct game *g, const struct setup *s, const enum bot_level *level,
	      uint64_t seed, int max_steps, void *st, struct bot_mem *m, int *place,
	      struct rerr *e);

/* Greedy against random: `parties` parties at s's player count P and
 * options, party k dealt from seed * 1000003 + k by seat k mod P, with
 * seat k mod P greedy and the others random (so every seat takes its
 * turn). What `spieltisch bots` prints and test_greedy_beats_random
 * asserts: the parties played, how often the greedy seat won and how often
 * a random seat did, all random seats together (a shared first place
 * counts for each), and the parties that failed (e: the first failure). */
struct bot_versus {
	long played, greedy_wins, random_wins, failed;
};
void bot_versus(const struct game *g, const struct setup *s, long parties, uint64_t seed,
		int max_steps, void *st, struct bot_mem *m, struct bot_versus *r, struct rerr *e);

#endif
