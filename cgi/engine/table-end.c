/*
 * table-end.c — the wiring of what follows a table's end (play.h,
 * play_table_end_listeners): the engine runs these, in this order, inside
 * the transaction that ended a table, and knows none of them by name.
 * The match is rated first (ratings.c: a closed idle table is not), then
 * its tournament hears of it (tourney.c: results, the next round).
 */
#include "play.h"
#include "ratings.h"
#include "tourney.h"

/* ratings_after_match, whose result is a store result, as a listener. */
static int rate_match(struct store *s, const struct st_table *t, int64_t now)
{
	return play_from_store(ratings_after_match(s, t, now), PLAY_ERR);
}

const play_table_end_fn play_table_end_listeners[] = {
	rate_match,
	tourney_after_table,
	NULL,
};
