/* dice.h — a player's set of dice inside a game state, the same for every
 * game that rolls (Drachenrummy's five, Wurf & Wort's letter dice, Worst
 * Game Ever's single die).
 *
 * A die shows a face 1..faces (0: not rolled yet); what a face means (a
 * number, a letter) is the game's. Dice are kept (set aside: not rolled
 * again) or free, and any of them may be out (lying on a card, given away)
 * until they come back. Rolling rolls every die that is neither kept nor
 * out; the rolls come from the party's generator, so a replay rolls the
 * same. Masks name dice by index: bit i is die i. */
#ifndef SPIELTISCH_DICE_H
#define SPIELTISCH_DICE_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "rng.h"

enum { DICE_MAX = 8, DICE_FACES_MAX = 20 };

struct dice {
	uint8_t n, faces;
	uint8_t face[DICE_MAX];   /* 1..faces; 0 before the first roll */
	uint8_t kept;             /* mask: set aside, not rolled again */
	uint8_t out;              /* mask: away from the player (on a card) */
};

/* n dice of `faces` faces, none rolled, kept or out. */
void dice_init(struct dice *d, int n, int faces);
/* All of them back, unrolled and free (a new turn). */
void dice_reset(struct dice *d);
/* Rolls every die neither kept nor out; returns the mask rolled. */
unsigned dice_roll(struct dice *d, struct rng *r);
/* Sets rolled free dice aside (mask within dice_free, all rolled). */
void dice_keep(struct dice *d, unsigned mask);
/* Dice go away (onto a card: mask within the dice at hand), or come back
 * unrolled and free. */
void dice_away(struct dice *d, unsigned mask);
void dice_back(struct dice *d, unsigned mask);
/* The dice at hand are put down: unrolled and free (the end of a turn);
 * the away ones stay where they are. */
void dice_gather(struct dice *d);
/* The dice neither kept nor out; the dice at hand (not out). */
unsigned dice_free(const struct dice *d);
unsigned dice_home(const struct dice *d);
/* How many dice of mask show `face`. */
int dice_count(const struct dice *d, unsigned mask, int face);
/* Chooses dice among `from` that show the faces want[0..n) (a face named
 * twice takes two dice), lowest index first. 0 with *got, or -1 when there
 * are not enough. */
int dice_pick(const struct dice *d, unsigned from, const int *want, int n, unsigned *got);

/* The faces of mask as text, in index order: "3 5 5" (cap bytes). */
const char *dice_text(const struct dice *d, unsigned mask, char *out, size_t cap);
/* Section `section`, one item per die: index, face, flags kept, out,
 * rolled (face > 0) and unrolled (templates have no "not"). */
void dice_view(const struct dice *d, const char *section, struct view_sink *v);

/* In a snapshot: n, faces, the faces, kept, out. decode: -1 for n or
 * faces out of range (the reader's error flag covers the rest). */
struct de;
void dice_encode(struct buf *b, const struct dice *d);
int dice_decode(struct de *de, struct dice *d);
/* n and faces as the game has them; every face 0..faces, masks within n,
 * a kept or out die rolled, no die both kept and out. */
int dice_check(const struct dice *d, int n, int faces, struct rerr *e);

#endif
