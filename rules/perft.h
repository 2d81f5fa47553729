/* perft.h — counts the positions every legal move sequence reaches from a
 * dealt party, the chess engines' known-answer test for move generators.
 * A change in a game's rules, its moves() or its apply() changes the
 * counts; a refactor that keeps them keeps the game (docs/perft.md).
 * Pure: no clock (the clock stands still, so no deadline passes and tick()
 * is never called), no I/O. */
#ifndef SPIELTISCH_PERFT_H
#define SPIELTISCH_PERFT_H

#include <stdint.h>

#include "game.h"

enum { PERFT_DEPTH_MAX = 8 };

/* Per depth d (0 = the dealt party): positions reached by d moves, how
 * many of them ended the party, and a sum of 64-bit FNV-1a hashes of their
 * snapshots (the sum does not depend on the order of the walk). A ply is
 * one move by one seat: where several seats may act (a snap window, DNA's
 * simultaneous choices), each of them moving is a branch of its own. */
struct perft_count {
	int depth;
	uint64_t nodes[PERFT_DEPTH_MAX + 1];
	uint64_t ended[PERFT_DEPTH_MAX + 1];
	uint64_t hash[PERFT_DEPTH_MAX + 1];
};

/* Walks every move sequence of up to `depth` moves from setup s, the clock
 * standing at now_ms. 0, or -1 with e set: setup refused, a listed move
 * refused by apply(), a snapshot that does not encode, out of memory. */
int perft_run(const struct game *g, const struct setup *s, int depth, int64_t now_ms,
	      struct perft_count *c, struct rerr *e);

/* 64-bit FNV-1a of n bytes, continuing from h (start with PERFT_FNV_SEED). */
#define PERFT_FNV_SEED UINT64_C(0xcbf29ce484222325)
uint64_t perft_fnv(uint64_t h, const unsigned char *p, size_t n);

#endif
