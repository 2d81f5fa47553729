/* pile.h — ordered piles of card ids kept in fixed arrays inside a game
 * state (the deck, a hand, a stack). The top of a pile is its last element.
 * Every function checks capacity and returns -1 instead of overrunning. */
#ifndef SPIELTISCH_PILE_H
#define SPIELTISCH_PILE_H

#include <stdint.h>

/* Push on top. 0, or -1 when the pile is full. */
int pile_push(uint16_t *a, int *n, int cap, uint16_t card);
/* Take the top card into *card. 0, or -1 when empty. */
int pile_pop(uint16_t *a, int *n, uint16_t *card);
/* Remove the element at index i, keeping the order of the rest. */
int pile_remove_at(uint16_t *a, int *n, int i);
/* Index of the first `card`, or -1. */
int pile_find(const uint16_t *a, int n, uint16_t card);
/* Put `m` cards under the pile (index 0 side), in the given order. */
int pile_put_under(uint16_t *a, int *n, int cap, const uint16_t *cards, int m);
/* Reverse the pile in place: a two-sided stack turned over. */
void pile_reverse(uint16_t *a, int n);
/* Sort by card id, ascending (a canonical order: what a re-deal of hidden
 * cards starts from, so that it does not depend on where they were). */
void pile_sort(uint16_t *a, int n);

#endif
