/* match.h — what every game shares about seats, deadlines and matches.
 * Seats are numbered 0..n-1 clockwise: the player on seat s+1 sits left of s. */
#ifndef SPIELTISCH_MATCH_H
#define SPIELTISCH_MATCH_H

#include <stdint.h>

#include "game.h"

/* The seat clockwise after `seat` (its left neighbour). */
int seat_next(int seat, int n);
/* The k-th seat clockwise from `from` (k may be 0 or larger than n). */
int seat_from(int from, int k, int n);
/* Who gets the i-th card (from 0) when `dealer` deals one card a seat a
 * round, beginning at their left: for (i = 0; i < rounds * n; i++). */
int deal_seat(int dealer, int i, int n);

/* A deadline `seconds` after now; 0 (none) when seconds <= 0. */
int64_t deadline_after(int64_t now_ms, int seconds);
/* 1 when deadline d is set and has passed at now. */
int deadline_passed(int64_t d, int64_t now_ms);
/* The earlier of two deadlines, 0 meaning none. */
int64_t deadline_min(int64_t a, int64_t b);

/* The dealer of party `index` (0-based) of a match: one seat further
 * clockwise every party, starting from `first`. */
int match_dealer(int index, int first, int nplayers);

/* What a finished party yields for each seat: its place (1-based, equal
 * places for a tie) and its points. The store keeps it as one row per
 * seat, so match totals, tournaments and ratings are plain SQL. */
struct party_result {
	int place[GAME_MAX_SEATS];
	int points[GAME_MAX_SEATS];
};

/* The result of a party from its final status: points are the scores;
 * places are the game's own (status.place) when it gives any, else the
 * order of the points (more is better, ties share). */
void party_result(const struct status *st, int nplayers, struct party_result *r);

/* Seats that resigned (bits) take the last places (shared among them);
 * the others keep their order among themselves, from place 1. */
void party_resigned_last(struct party_result *r, int nplayers, uint32_t resigned);

/* The one seat with place 1, or -1 when first place is shared. */
int party_winner(const struct party_result *r, int nplayers);

/* Running totals of a match: parties played and points per seat. */
struct match_totals {
	int parties;
	int total[GAME_MAX_SEATS];
};

void match_add_party(struct match_totals *m, const int *score, int nplayers);
/* Seats with the highest total, as a bit mask: ties share the win. */
uint32_t match_leaders(const struct match_totals *m, int nplayers);
/* 1-based place of each seat (equal totals share a place). */
void match_places(const struct match_totals *m, int nplayers, int *place);
/* The standings of a match: places by totals (match_places), the seats
 * that resigned (bits) last (party_resigned_last). What the table page
 * shows and what a profile counts as a win (place 1). */
void match_standings(const struct match_totals *m, int nplayers, uint32_t resigned, int *place);

#endif
