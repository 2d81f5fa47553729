/* tournament.h — the arithmetic of a tournament of many tables
 * (docs/tournaments.md): points by place, byes, who goes on in an
 * elimination, the seat rotation of a group, and the standings with their
 * tie-breaks. rules/pairing.h seats a Swiss or elimination round; the
 * platform stores the rounds and results (one row per player and round)
 * and asks these functions what they mean.
 *
 * Pure functions: no allocation, no I/O, no global state. */
#ifndef SPIELTISCH_TOURNAMENT_H
#define SPIELTISCH_TOURNAMENT_H

#include <stddef.h>

#include "game.h"

enum tourney_format {
	TOURNEY_SWISS,        /* similar scores together, repeats avoided */
	TOURNEY_ELIMINATION,  /* the best `advance` of each table go on */
	TOURNEY_GROUPS,       /* round robin in groups: one group a table, every
	                       * round the same players, the seat order rotated */
	TOURNEY_FORMAT__MAX
};

enum tourney_tiebreak {
	TB_NONE,
	TB_PARTY,   /* the sum of the player's match totals (party points) */
	TB_SB,      /* Sonneborn-Berger-like: over every table, each opponent
	             * placed behind adds that opponent's tournament points, a
	             * shared place adds half of them */
	TB__MAX
};

enum {
	TOURNEY_SEATS_MAX = 8,      /* the seats of a table (pairing's bound) */
	TOURNEY_ROUNDS_MAX = 20,
	TOURNEY_POINTS_MAX = 100,   /* points of one place */
	TOURNEY_TIEBREAKS = 2,      /* tie-breaks after the points, in order */
};

/* The points of the places 1..seats at a full table, non-increasing,
 * each 0..TOURNEY_POINTS_MAX. */
struct tourney_points {
	int seats;
	int p[TOURNEY_SEATS_MAX];
};

/* The default: 2 (S - 1), 2 (S - 2), ..., 0; for 4 seats 6, 4, 2, 0. */
void tourney_points_default(struct tourney_points *tp, int seats);

/* Reads "6,4,2,0" (exactly `seats` numbers, non-increasing, 0..MAX each;
 * spaces around the numbers allowed). 0, or -1 with a German message in e
 * and tp untouched. */
int tourney_points_parse(struct tourney_points *tp, int seats, const char *text, struct rerr *e);

/* Writes "6,4,2,0" into out (cap bytes). 0, or -1 when it does not fit. */
int tourney_points_format(const struct tourney_points *tp, char *out, size_t cap);

/* The points of place `place` (1-based) at a table of `size` players
 * (2..seats), shared by `tied` players (1..size - place + 1) who all have
 * that place. A smaller table spreads the full table's scale over its
 * places: place k stands at (k - 1) (S - 1) / (size - 1) of the way down
 * the full table's places, between two places the points are interpolated
 * (6, 4, 2, 0 at a table of 3: 6, 3, 0). Players sharing a place get the
 * mean of the points of the places they take together (two sharing 2nd of
 * 4: (4 + 2) / 2 = 3). Every result rounded down. 0 for input out of
 * range. */
int tourney_place_points(const struct tourney_points *tp, int size, int place, int tied);

/* A bye's points: what a player of the middle place of a full table gets,
 * the mean of the two middle places when the seats are even (6, 4, 2, 0:
 * 3), rounded down. */
int tourney_bye_points(const struct tourney_points *tp);

/* Elimination: whether a player of place `place` at a table of `size`
 * goes on when the best `advance` of each table do. Everyone sharing the
 * place at the cut goes on; of a table smaller than the full one as many
 * go on as of a full one, but never the whole table unless a tie at the
 * cut takes it in (a table of one: that player). 0 for input out of
 * range (advance below 1 among it). */
int tourney_advances(int place, int size, int advance);

/* Groups: the seat (0..size-1) of the group member at position `pos`
 * (0..size-1) of its group in round `round` (1-based): the order rotates
 * one seat a round, so in `size` rounds everyone sits in every seat.
 * -1 for input out of range. */
int tourney_group_seat(int pos, int size, int round);

/* One player's result in one round. */
struct tourney_result {
	int player;        /* 0..nplayers-1 */
	int round;         /* 1.. */
	int table;         /* 0.. the table of that round; -1: a bye */
	int place;         /* 1.. at the table; 0 for a bye */
	int points;        /* tournament points of this round */
	int party_points;  /* the player's match total at the table (0 bye) */
};

/* One player's line of the standings. */
struct tourney_standing {
	int player;
	int place;         /* 1-based; equal on everything compared: shared */
	int points;        /* the sum of the rounds' points */
	int party_points;  /* the sum of the match totals */
	int sb2;           /* the Sonneborn-Berger-like sum, doubled (whole) */
	int played;        /* tables played */
	int byes;
	int rank_order;    /* the order in which they are listed (0 first) */
	int reach;         /* elimination: how far they got (see
	                    * tourney_standings_reach); 0 otherwise */
	int final_place;   /* elimination: the place at the final table;
	                    * 0 otherwise */
};

/* The standings of nplayers players from nr results (any order, except
 * that the results of one round at one table follow each other, as the
 * store reads them by round, table and place; byes need not; a player
 * without results stands with zeros): out is the list, sorted by points,
 * then by the tie-breaks tb[0], tb[1] (TB_NONE ends the list), higher
 * first; who is equal on all of those shares the place; the list keeps
 * equal players in player order. out has room for nplayers. 0, or -1 for
 * bad input (a player number out of range, nplayers < 0, a tie-break out
 * of range, a table below -1). */
int tourney_standings(const struct tourney_result *r, int nr, int nplayers,
		      const enum tourney_tiebreak tb[TOURNEY_TIEBREAKS],
		      struct tourney_standing *out);

/* The same for an elimination: before the points, how far a player got
 * counts, then the place at the final. reach[player]: the round in which
 * they were knocked out (or withdrew), 0 when still in; still in is
 * furthest. When the last round of the results was played at one table
 * (the final), its places come next (1st before 2nd; who did not play
 * it, behind them); then points and tie-breaks as above. reach NULL:
 * tourney_standings. 0, or -1 for bad input (also a reach below 0). */
int tourney_standings_reach(const struct tourney_result *r, int nr, int nplayers,
			    const enum tourney_tiebreak tb[TOURNEY_TIEBREAKS], const int *reach,
			    struct tourney_standing *out);

#endif
