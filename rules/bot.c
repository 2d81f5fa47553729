/* bot.c — computer players; see bot.h. */
#include <limits.h>
#include <string.h>

#include "bot.h"
#include "match.h"
#include "rng.h"
#include "sim.h"

const char *const bot_level_name[BOT__MAX] = { "random", "greedy" };

/* What a seat's position is worth to it: the game's judgement
 * (game->bot_worth), else its own points. (Its points minus the best other
 * seat's would make a bot end its turn whenever that costs the next seat
 * something: in Drachenrummy, the reserved cards it takes to its hand
 * count -1 until they are laid.) */
static long long worth(const struct game *g, const void *st, int seat)
{
	if (g->bot_worth)
		return g->bot_worth(st, seat);
	struct status s;
	g->status(st, &s);
	return s.score[seat];
}

/* What a move leads to once nobody answers it: the windows it opens pass
 * their deadlines (a played card resolves, an attack is rolled). Only
 * window deadlines: a turn's own clock is not the move's consequence. */
static void settle(const struct game *g, void *st, int64_t now)
{
	enum { SETTLE_ROUNDS = 3 };
	for (int k = 0; k < SETTLE_ROUNDS; k++) {
		struct status s;
		g->status(st, &s);
		if (s.over || !s.window || s.deadline <= 0)
			return;
		g->tick(st, s.deadline > now ? s.deadline : now);
	}
}

/* The move being chosen while the seat's moves are listed. */
struct choice {
	const struct game *g;
	struct bot_mem *m;
	int seat, greedy;
	int64_t now;
	struct rng rng;
	int seen, ties;
	long long best;
	char out[GAME_MOVE_MAX + 1];
};

static void keep(struct choice *c, const char *move)
{
	size_t n = strnlen(move, GAME_MOVE_MAX);
	memcpy(c->out, move, n);
	c->out[n] = '\0';
}

/* moves() callback: random keeps each move with equal chance (reservoir);
 * greedy tries it on a copy of what the seat sees. */
static void consider(void *ctx, const char *move)
{
	struct choice *c = ctx;
	c->seen++;
	if (!c->greedy) {
		if (rng_below(&c->rng, (uint32_t)c->seen) == 0)
			keep(c, move);
		return;
	}
	struct rerr e;
	memcpy(c->m->trial, c->m->seen, c->g->state_size);
	if (c->g->apply(c->m->trial, c->seat, move, c->now, &e) != 0)
		return;   /* a listed move is always accepted; the simulator checks that */
	settle(c->g, c->m->trial, c->now);
	long long w = worth(c->g, c->m->trial, c->seat);
	if (c->ties == 0 || w > c->best) {
		c->best = w;
		c->ties = 1;
		keep(c, move);
	} else if (w == c->best && rng_below(&c->rng, (uint32_t)++c->ties) == 0) {
		keep(c, move);
	}
}

int bot_choose(const struct game *g, const void *st, int nplayers, int seat,
	       enum bot_level level, uint64_t seed, int64_t now_ms, struct bot_mem *m, char *out)
{
	struct choice c = { .g = g, .m = m, .seat = seat, .greedy = level == BOT_GREEDY,
			    .now = now_ms };
	(void)nplayers;   /* the state knows it */
	rng_seed(&c.rng, seed);
	memcpy(m->seen, st, g->state_size);
	g->scramble(m->seen, seat, seed ^ 0x5eed5eed5eedULL);
	g->moves(m->seen, seat, consider, &c);
	if (g->bot_moves)
		g->bot_moves(m->seen, seat, consider, &c);
	if (c.out[0] == '\0')
		return -1;
	memcpy(out, c.out, strlen(c.out) + 1);
	return 0;
}

int bot_party(const struct game *g, const struct setup *s, const enum bot_level *level,
	      uint64_t seed, int max_steps, void *st, struct bot_mem *m, int *place,
	      struct rerr *e)
{
	struct rng rng;
	struct status stt;
	int64_t now = 1000000;
	char move[GAME_MOVE_MAX + 1];
	rng_seed(&rng, seed);
	if (game_setup(g, st, s, e) != 0)
		return -1;
	for (int step = 0; step < max_steps; step++) {
		g->status(st, &stt);
		if (stt.over) {
			struct party_result r;
			party_result(&stt, s->nplayers, &r);
			memcpy(place, r.place, sizeof r.place[0] * (size_t)s->nplayers);
			return 0;
		}
		now += 1000;
		if (stt.to_act == 0) {
			if (stt.deadline <= 0)
				return rerr_set(e, "niemand kann ziehen, keine Frist offen");
			if (now < stt.deadline)
				now = stt.deadline;
			g->tick(st, now);
			continue;
		}
		int seat = sim_random_seat(&rng, stt.to_act);
		uint64_t bseed = rng_next(&rng), t0 = m->clock_ns ? m->clock_ns() : 0;
		int rc = bot_choose(g, st, s->nplayers, seat, level[seat], bseed, now, m, move);
		if (m->clock_ns) {
			m->spent_ns += m->clock_ns() - t0;
			m->choices++;
		}
		if (rc != 0)
			return rerr_set(e, "Platz %d soll ziehen, hat aber keinen Zug", seat);
		if (g->apply(st, seat, move, now, e) != 0)
			return -1;
	}
	return rerr_set(e, "nach %d Schritten nicht zu Ende", max_steps);
}

void bot_versus(const struct game *g, const struct setup *s, long parties, uint64_t seed,
		int max_steps, void *st, struct bot_mem *m, struct bot_versus *r, struct rerr *e)
{
	struct setup su = *s;
	int n = s->nplayers;
	memset(r, 0, sizeof *r);
	for (long k = 0; k < parties; k++) {
		enum bot_level level[GAME_MAX_SEATS];
		int place[GAME_MAX_SEATS], greedy = (int)(k % n);
		struct rerr pe;
		for (int p = 0; p < n; p++)
			level[p] = p == greedy ? BOT_GREEDY : BOT_RANDOM;
		su.seed = seed * 1000003u + (uint64_t)k;
		su.dealer = (int)(k % n);
		if (bot_party(g, &su, level, su.seed ^ 0xb07ULL, max_steps, st, m, place, &pe) != 0) {
			if (r->failed++ == 0)
				*e = pe;
			continue;
		}
		r->played++;
		for (int p = 0; p < n; p++)
			if (place[p] == 1) {
				if (p == greedy)
					r->greedy_wins++;
				else
					r->random_wins++;
			}
	}
}
