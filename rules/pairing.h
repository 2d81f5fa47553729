/* pairing.h — seating one round of a tournament of many players at tables
 * of several seats (docs/rulings.md, "Tournaments: pairing").
 *
 * The caller numbers the active players 0..n-1 and keeps their history:
 * points so far, byes so far and how often each two of them sat at one
 * table already. One call seats one round: the tables (player ids in seat
 * order), who sits out (a bye) and how many pairs meet again.
 *
 * Two formats:
 * - Swiss: players with similar scores sit together, repeat meetings are
 *   avoided first (pairing_swiss).
 * - Elimination: the ranking is spread over the tables (the strongest at
 *   different tables); the caller advances the best K of each table
 *   (pairing_elimination).
 * Round robin in groups needs no pairing: see docs/tournaments.md.
 *
 * Pure functions: no allocation, no I/O, no global state; the same input
 * (and seed) gives the same seating on every machine. */
#ifndef SPIELTISCH_PAIRING_H
#define SPIELTISCH_PAIRING_H

#include <stdint.h>

enum {
	PAIRING_PLAYERS_MAX = 1000,
	PAIRING_SEATS_MIN = 3,
	PAIRING_SEATS_MAX = 8,
	/* the most tables: every table has at least 2 players */
	PAIRING_TABLES_MAX = PAIRING_PLAYERS_MAX / 2,
};

struct pairing_in {
	int n;          /* active players, 0..PAIRING_PLAYERS_MAX */
	int seats;      /* seats per table S, 3..8 */
	int min_seats;  /* the smallest table allowed M, 2..S */
	int round;      /* 0, 1, 2, ...: mixed into the seed */
	const int *score;          /* n: points so far (more is better) */
	const unsigned char *met;  /* n * n: met[a * n + b], times a and b sat
	                            * at one table (symmetric; the diagonal is
	                            * not read) */
	const int *byes;           /* n: byes so far; NULL for none yet */
	uint64_t seed;
};

struct pairing_out {
	int ntables;
	int size[PAIRING_TABLES_MAX];
	/* seat[t][k]: the player on seat k of table t, for k < size[t];
	 * tables from the top of the ranking down */
	int seat[PAIRING_TABLES_MAX][PAIRING_SEATS_MAX];
	int nbyes;
	int bye[PAIRING_PLAYERS_MAX];
	/* pairs seated together this round who had met before (each pair
	 * once, however often they met) */
	int repeats;
};

/* How n players split into tables of seats S with none smaller than M:
 * as few tables as possible (all of S when n divides), the players short
 * of full tables taken from as few tables as possible, evenly, the smaller
 * tables last: 14 at S 4, M 3 gives 4, 4, 3, 3; 9 at S 8, M 2 gives 5, 4.
 * When no split exists, the fewest players sit out so that one does (n = 5
 * at S 4, M 4: one; n < M: all of them, no table). Writes the sizes
 * (PAIRING_TABLES_MAX of room) and their number; returns how many players
 * sit out, or -1 for bad input (n, S or M out of range). */
int pairing_table_sizes(int n, int seats, int min_seats, int *sizes, int *ntables);

/* A Swiss round. The ranking: score, higher first; equal scores in a
 * seeded random order. Byes (when the split needs them): the lowest-ranked
 * among those with the fewest byes so far. Tables are filled from the top
 * of the ranking, then players are swapped between tables while that
 * lowers, in this order: the pairs at a table who met before (the repeat
 * meetings), the sum of their met counts, the sum of the score
 * differences of each pair at a table. Neighbouring tables first, farther
 * ones only while meetings repeat. Repeats left: a local search over all
 * tables (each player at a table with somebody met before takes the best
 * swap with anybody; stuck, seeded random swaps and again, the best
 * seating kept); fields of at most 24 players then an exact search (a
 * branch and bound, bounded in steps) for the fewest repeat pairs, then
 * meetings. Fields of at most 36 players with nobody out: a seating
 * without repeats after which the next round could have none either is
 * preferred (a short search of that round, a few other such seatings
 * tried). All of it bounded by a count of the work done, growing with
 * the players seated. Seat order at each table: a seeded shuffle.
 * 0, or -1 for bad input (out untouched). */
int pairing_swiss(const struct pairing_in *in, struct pairing_out *out);

/* An elimination round: the same ranking, dealt over the tables in snake
 * order (1st, 2nd, ... to table 1, 2, ..., then back), so the strongest
 * sit at different tables. Byes advance: they go to the highest-ranked
 * among those with the fewest byes so far. To avoid repeat meetings each
 * tier (the players of one pass of the deal) after the first is rotated
 * over the tables, then players of the same tier are swapped between
 * tables while that lowers the met counts; a table keeps one player of
 * each tier. Seat order: a seeded shuffle. 0, or -1 for bad input. */
int pairing_elimination(const struct pairing_in *in, struct pairing_out *out);

/* A round after the first of round robin in groups. grp[i], gpos[i]: the
 * group of active player i and their position in it (-1: in none: a bye
 * last round, or new). The byes, when the players cannot all be seated,
 * go as in Swiss: the lowest-ranked among those with the fewest byes so
 * far, so nobody has a second before everyone had one. The seat a bye
 * player leaves in their group goes to a player without a group (last
 * round's bye), others without one join the groups with the fewest
 * members that have room; a group left smaller than M is merged: its
 * members join the other groups with room (the fewest members first).
 * When that cannot seat everybody, the groups are drawn afresh as a Swiss
 * round seats them. Each group is one table, its seat order rotated by
 * the round (as tourney_group_seat). ngrp, ngpos (n each) receive every
 * player's group and position from now on (-1 for a bye). 0, or -1 for
 * bad input. */
int pairing_groups(const struct pairing_in *in, const int *grp, const int *gpos,
		   struct pairing_out *out, int *ngrp, int *ngpos);

#endif
