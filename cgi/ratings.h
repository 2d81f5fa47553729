/* ratings.h — the ratings of a finished match (rules/rating.h is the
 * model), applied once by the transaction that finishes the table. */
#ifndef SPIELTISCH_RATINGS_H
#define SPIELTISCH_RATINGS_H

#include <stdint.h>

#include "store.h"

/* Rates the finished match of table t by its final standings (the match
 * totals; seats whose person resigned or ran out of time last): every
 * seat a person held to the end, when at least two did. Unrated: a match
 * a bot played from the start, a table closed for idleness, a match
 * without a finished party; a seat whose person gave up is unrated for
 * them. Never twice for one table. Store codes; inside the caller's
 * transaction. */
int ratings_after_match(struct store *s, const struct st_table *t, int64_t now);

#endif
