/* ratings.h — the ratings of a finished match (rules/rating.h is the
 * model), applied once by the transaction that finishes the table. */
#ifndef SPIELTISCH_RATINGS_H
#define SPIELTISCH_RATINGS_H

#include <stdint.h>

#include "match.h"
#include "store.h"

/* A finished (or closed) table's final standings: its seats, the match
 * totals of its finished parties, the places by them with the seats whose
 * person resigned or ran out of time last (match_standings). */
struct match_final {
	struct st_seat seats[GAME_MAX_SEATS];
	int n;                           /* seats taken */
	int nseats;
	struct match_totals m;           /* .parties finished, .total[seat] */
	int place[GAME_MAX_SEATS];       /* by seat, 1-based */
	uint32_t resigned;               /* seats, as bits */
};
int match_final_load(struct store *s, const struct st_table *t, struct match_final *f);

/* Rates the finished match of table t by its final standings (the match
 * totals; seats whose person resigned or ran out of time last): every
 * seat a person held to the end, when at least two did. Unrated: a match
 * a bot played from the start, a table closed for idleness, a match
 * without a finished party; a seat whose person gave up is unrated for
 * them. Never twice for one table. Store codes; inside the caller's
 * transaction. */
int ratings_after_match(struct store *s, const struct st_table *t, int64_t now);

#endif
