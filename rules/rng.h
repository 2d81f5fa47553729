/* rng.h — a deterministic generator whose state lives inside a game state.
 * xoshiro256** seeded through splitmix64: the same seed gives the same party
 * on every machine. */
#ifndef SPIELTISCH_RNG_H
#define SPIELTISCH_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in 0..n-1 (n >= 1), without modulo bias. */
uint32_t rng_below(struct rng *r, uint32_t n);
/* One roll of a die with `faces` faces: 1..faces. */
int rng_die(struct rng *r, int faces);
/* Fisher–Yates shuffle of n card ids. */
void rng_shuffle(struct rng *r, uint16_t *cards, int n);

#endif
