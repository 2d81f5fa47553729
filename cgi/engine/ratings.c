/* ratings.c — the ratings of a finished match (ratings.h). */
#include <string.h>

#include "match.h"
#include "rating.h"
#include "ratings.h"

static void add_party(void *ctx, const struct st_party *p)
{
	struct match_final *f = ctx;
	match_add_party(&f->m, p->result.points, f->nseats);
}

int match_final_load(struct store *s, const struct st_table *t, struct match_final *f)
{
	int rc;
	memset(f, 0, sizeof *f);
	f->nseats = t->nseats;
	if ((rc = store_table_seats(s, t->id, f->seats, GAME_MAX_SEATS, &f->n)) != ST_OK)
		return rc;
	for (int i = 0; i < f->n; i++)
		if (f->seats[i].resigned && f->seats[i].seat >= 0 && f->seats[i].seat < GAME_MAX_SEATS)
			f->resigned |= 1u << f->seats[i].seat;
	if ((rc = store_parties_of_table(s, t->id, add_party, f)) != ST_OK)
		return rc;
	match_standings(&f->m, t->nseats, f->resigned, f->place);
	return ST_OK;
}

int ratings_after_match(struct store *s, const struct st_table *t, int64_t now)
{
	struct match_final f;
	struct rating r[RATING_PLAYERS_MAX];
	int64_t who[RATING_PLAYERS_MAX];
	int pl[RATING_PLAYERS_MAX], k = 0, rc = ST_OK;
	if (t->closed_idle || (rc = match_final_load(s, t, &f)) != ST_OK)
		return t->closed_idle ? ST_OK : rc;
	for (int i = 0; i < f.n; i++)
		if ((f.seats[i].bot && !f.seats[i].user_id) || f.seats[i].claimed == 2)
			return ST_OK;   /* a bot's from the start (claimed since or not): unrated */
	if (f.m.parties == 0)
		return ST_OK;
	for (int i = 0; i < f.n && k < RATING_PLAYERS_MAX; i++) {
		const struct st_seat *x = &f.seats[i];
		struct st_rating got;
		if (!x->user_id || ((f.resigned >> x->seat) & 1u) || x->claimed)
			continue;   /* gave up, or came in by a claim: unrated for them */
		if ((rc = store_rating_get(s, x->user_id, t->game, &got)) == ST_OK) {
			r[k].mu = got.mu;
			r[k].sigma = got.sigma;
		} else if (rc == ST_NOTFOUND) {
			rating_default(&r[k]);
		} else {
			return rc;
		}
		who[k] = x->user_id;
		pl[k++] = f.place[x->seat];
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
