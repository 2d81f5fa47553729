/* ratings.c — the ratings of a finished match (ratings.h). */
#include <string.h>

#include "match.h"
#include "rating.h"
#include "ratings.h"

struct totals {
	struct match_totals m;
	int n;
};

static void add_party(void *ctx, const struct st_party *p)
{
	struct totals *c = ctx;
	match_add_party(&c->m, p->result.points, c->n);
}

int ratings_after_match(struct store *s, const struct st_table *t, int64_t now)
{
	struct st_seat seats[GAME_MAX_SEATS];
	struct totals c;
	struct rating r[RATING_PLAYERS_MAX];
	int64_t who[RATING_PLAYERS_MAX];
	int place[GAME_MAX_SEATS], pl[RATING_PLAYERS_MAX], n, k = 0, rc;
	uint32_t resigned = 0;
	if (t->closed_idle || (rc = store_table_seats(s, t->id, seats, GAME_MAX_SEATS, &n)) != ST_OK)
		return t->closed_idle ? ST_OK : rc;
	for (int i = 0; i < n; i++) {
		if (seats[i].bot && !seats[i].user_id)
			return ST_OK;   /* a bot's from the start: unrated */
		if (seats[i].resigned && seats[i].seat >= 0 && seats[i].seat < GAME_MAX_SEATS)
			resigned |= 1u << seats[i].seat;
	}
	memset(&c, 0, sizeof c);
	c.n = t->nseats;
	if ((rc = store_parties_of_table(s, t->id, add_party, &c)) != ST_OK || c.m.parties == 0)
		return rc;
	match_standings(&c.m, t->nseats, resigned, place);
	for (int i = 0; i < n && k < RATING_PLAYERS_MAX; i++) {
		const struct st_seat *x = &seats[i];
		struct st_rating got;
		if (!x->user_id || ((resigned >> x->seat) & 1u))
			continue;   /* gave up: unrated for them */
		if ((rc = store_rating_get(s, x->user_id, t->game, &got)) == ST_OK) {
			r[k].mu = got.mu;
			r[k].sigma = got.sigma;
		} else if (rc == ST_NOTFOUND) {
			rating_default(&r[k]);
		} else {
			return rc;
		}
		who[k] = x->user_id;
		pl[k++] = place[x->seat];
	}
	if (k < 2)
		return ST_OK;
	if ((rc = store_table_set_rated(s, t->id)) != ST_OK)
		return rc == ST_EXISTS ? ST_OK : rc;
	if (rating_update(r, pl, k) != 0)
		return ST_ERR;
	for (int i = 0; i < k && rc == ST_OK; i++) {
		struct st_rating x = { .user_id = who[i], .mu = r[i].mu, .sigma = r[i].sigma,
				       .shown = rating_ordinal(&r[i]) };
		rc = store_rating_put(s, t->game, t->id, &x, pl[i], k, now);
	}
	return rc;
}
