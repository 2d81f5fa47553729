/*
 * party.c — a match's parties: dealing a party, who acts, the pause and
 * the next party, the table's end and its listeners. Part of the engine
 * (cgi/engine/, engine.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "engine.h"
#include "i18n.h"
#include "movetext.h"
#include "options.h"
#include "seatclock.h"

/* The game and options of a stored table; PLAY_ERR (logged) when the game
 * is gone or the stored options no longer parse. */
int table_game(const struct st_table *t, const struct game **g, int *opt)
{
	struct rerr e;
	*g = game_find(t->game);
	if (!*g) {
		fprintf(stderr, "play: table %lld: unknown game '%s'\n", (long long)t->id, t->game);
		return PLAY_ERR;
	}
	if (options_parse(*g, opt, t->options, &e) != 0) {
		fprintf(stderr, "play: table %lld: options '%s': %s\n", (long long)t->id,
			t->options, e.msg);
		return PLAY_ERR;
	}
	return PLAY_OK;
}

/* Encodes st into snap (GAME_SNAPSHOT_MAX bytes); the length in *len. */
int encode_state(const struct game *g, const void *st, unsigned char *snap, size_t *len)
{
	struct buf b = { snap, 0, GAME_SNAPSHOT_MAX, 0 };
	if (g->encode(st, &b) != 0 || b.overflow) {
		fprintf(stderr, "play: %s: snapshot larger than %d bytes\n", g->slug,
			GAME_SNAPSHOT_MAX);
		return PLAY_ERR;
	}
	*len = b.len;
	return PLAY_OK;
}

/* Deals party `number` of table t with `dealer` and stores it; the new
 * party's status (deadline, epoch) goes to *st. A window the deal opens
 * (a game's first prompt whose clock waits for a request, prompt_later)
 * starts its clock now, at the deal, logged as the party's first step
 * (PLAY_STEP_START, seat -1, the version the caller's bump gives the
 * table): every deadline runs from when its window opens, the first one
 * too, so an absent seat cannot stall a table that nobody moves at.
 * Inside the caller's transaction. */
int start_party(struct store *s, const struct st_table *t, int number, int dealer,
		int64_t now, struct status *st)
{
	const struct game *g;
	int opt[GAME_OPT_MAX];
	struct setup su;
	struct rerr e;
	size_t len;
	int64_t party = 0;
	int started;
	void *state = NULL;
	unsigned char *snap = NULL;
	memset(st, 0, sizeof *st);
	int rc = table_game(t, &g, opt);
	if (rc != PLAY_OK)
		return rc;
	rc = PLAY_ERR;
	state = calloc(1, g->state_size);
	snap = malloc(GAME_SNAPSHOT_MAX);
	if (!state || !snap)
		goto out;
	memset(&su, 0, sizeof su);
	su.nplayers = t->nseats;
	su.dealer = dealer;
	su.seed = auth_random_seed();
	memcpy(su.opt, opt, sizeof su.opt);
	if (game_setup(g, state, &su, &e) != 0) {
		fprintf(stderr, "play: table %lld: setup: %s\n", (long long)t->id, e.msg);
		goto out;
	}
	started = g->tick(state, now);
	if (g->check(state, &e) != 0) {
		fprintf(stderr, "play: table %lld: party %d not dealt: it breaks the game's "
			"invariants: %s\n", (long long)t->id, number, e.msg);
		goto out;
	}
	if ((rc = encode_state(g, state, snap, &len)) != PLAY_OK)
		goto out;
	rc = from_store(store_party_create(s, t->id, number, su.seed, dealer, snap, len, now,
					   &party), PLAY_ERR);
	if (rc == PLAY_OK && started) {
		int64_t v, dl;   /* the version as it stands in this transaction */
		rc = from_store(store_table_poll(s, t->id, &v, &dl), PLAY_ERR);
		if (rc == PLAY_OK)
			rc = from_store(store_step_append(s, party, 0, -1, PLAY_STEP_START, now,
							  v + 1, snap, len), PLAY_ERR);
	}
	if (rc != PLAY_OK)
		goto out;
	g->status(state, st);
out:
	free(snap);
	free(state);
	return rc;
}

/* The seats' flags (play_seat_flags) after a step of table t: `pausing`
 * while its finished party waits for the next, `ready` who continued. */
int set_acting(struct store *s, const struct st_table *t, const struct status *st,
	       int pausing, uint32_t ready)
{
	struct play_flags f;
	play_seat_flags(st, pausing, ready, t->nseats, &f);
	return from_store(store_table_set_acting(s, t->id, f.acting, f.in_window, f.to_continue),
			  PLAY_ERR);
}

/* Starts the match of a full table: random first dealer, party 0, status
 * PLAYING, a new version that makes every open page stale. */
int start_match(struct store *s, const struct st_table *t, int64_t now)
{
	struct status st;
	int first = (int)(auth_random_seed() % (uint64_t)t->nseats);
	int rc = start_party(s, t, 0, match_dealer(0, first, t->nseats), now, &st);
	int64_t deadline = st.deadline;
	if (rc != PLAY_OK)
		return rc;
	if ((rc = store_table_set_status(s, t->id, TABLE_PLAYING, 0, first)) != PLAY_OK ||
	    (rc = from_store(store_seats_reset_clock(s, t->id, t->clock.first_ms), PLAY_ERR)) !=
		    PLAY_OK ||
	    (rc = from_store(seatclock_sync(s, t, &st, now, &deadline), PLAY_ERR)) != PLAY_OK ||
	    (rc = set_acting(s, t, &st, 0, 0)) != PLAY_OK ||
	    (rc = store_table_bump(s, t->id, -1, deadline, st.epoch, NULL)) != PLAY_OK)
		return rc;
	return store_table_new_epoch(s, t->id);
}

/* Runs the table-end listeners (play.h) for table t, just ended, in
 * order; PLAY_OK or the first failure. Inside the caller's transaction,
 * under the cross-table lock (store_lock_cross): what they read and write
 * (ratings, a tournament) other tables' ends read and write too. */
int table_ended(struct store *s, const struct st_table *t, int64_t now)
{
	int lrc = from_store(store_lock_cross(s), PLAY_ERR);
	if (lrc != PLAY_OK)
		return lrc;
	for (const play_table_end_fn *f = play_table_end_listeners; *f; f++) {
		int rc = (*f)(s, t, now);
		if (rc != PLAY_OK)
			return rc;
	}
	return PLAY_OK;
}

/* 1 when the loaded party is over while the table still plays: the pause
 * before the next party. */
int live_pausing(const struct live *l)
{
	struct status st;
	if (l->t.status != TABLE_PLAYING || l->t.party_no != l->party.number)
		return 0;   /* (after next_party() l->state is the finished party) */
	l->g->status(l->state, &st);
	return st.over;
}

/* The dealer of the party after the finished one in l->state: one seat on,
 * or for a game that starts with the winner, that party's winner (by lot
 * when first place is shared). */
static int next_dealer(const struct live *l, int next)
{
	struct status st;
	struct party_result r;
	if (!l->g->starts_with_winner)
		return match_dealer(next, l->t.first_dealer, l->t.nseats);
	l->g->status(l->state, &st);
	party_result(&st, l->t.nseats, &r);
	int w = party_winner(&r, l->t.nseats);
	return w >= 0 ? w : (int)(auth_random_seed() % (uint64_t)l->t.nseats);
}

/* Deals the next party of a pausing table (see next_dealer), with a new
 * version that makes every older page stale; the seats claimed meanwhile
 * change hands first (play_claim). l->t is re-read; l->party and
 * l->state still hold the finished party. Inside the caller's transaction. */
int next_party(struct store *s, struct live *l, int64_t now)
{
	struct status st;
	memset(&st, 0, sizeof st);
	int next = l->t.party_no + 1;
	int rc = from_store(store_seats_apply_claims(s, l->t.id, l->t.clock.first_ms), PLAY_ERR);
	if (rc == PLAY_OK)
		rc = start_party(s, &l->t, next, next_dealer(l, next), now, &st);
	int64_t deadline = st.deadline;
	if (rc != PLAY_OK ||
	    (rc = from_store(store_table_set_status(s, l->t.id, TABLE_PLAYING, next,
						    l->t.first_dealer), PLAY_ERR)) != PLAY_OK ||
	    (rc = from_store(seatclock_sync(s, &l->t, &st, now, &deadline), PLAY_ERR)) != PLAY_OK ||
	    (rc = set_acting(s, &l->t, &st, 0, 0)) != PLAY_OK ||
	    (rc = from_store(store_table_bump(s, l->t.id, l->t.version, deadline, st.epoch, NULL),
			     PLAY_ERR)) != PLAY_OK ||
	    (rc = from_store(store_table_new_epoch(s, l->t.id), PLAY_ERR)) != PLAY_OK)
		return rc;
	return from_store(store_table_get(s, l->t.id, &l->t), PLAY_ERR);
}

/* The seats that sent PLAY_CONTINUE since `party` ended at version
 * `ended` (the table's epoch_version while it pauses), as bits. */
int ready_mask(struct store *s, int64_t party, int nseats, int64_t ended, uint32_t *mask)
{
	*mask = 0;
	for (int seat = 0; seat < nseats; seat++) {
		int yes = 0;
		int rc = from_store(store_seat_moved_since(s, party, seat, ended, &yes), PLAY_ERR);
		if (rc != PLAY_OK)
			return rc;
		if (yes)
			*mask |= 1u << seat;
	}
	return PLAY_OK;
}

/* 1 when `move` is the platform's PLAY_CONTINUE in any spelling. */
int is_continue(const char *move)
{
	struct mtok t;
	struct rerr e;
	return mt_split(move, &t, &e) == 0 && t.n == 1 && strcmp(t.w[0], PLAY_CONTINUE) == 0;
}

/* `seat` continues on a pausing table, from a page at version `seen`:
 * logged in the finished party as (seat, PLAY_CONTINUE) with a version of
 * its own (polls see who is ready; no page gets stale); the last seat to
 * continue deals the next party. A second continue is PLAY_STALE. */
int party_continue(struct store *s, struct live *l, int seat, const char *move,
		   int64_t now, struct rerr *e)
{
	uint32_t ready;
	int rc;
	if (!is_continue(move))
		return fail_msg(e, PLAY_REJECTED, N_("Die Partie ist vorbei: mit „Weiter“ geht es "
						     "zur nächsten Partie."));
	if ((rc = ready_mask(s, l->party.id, l->t.nseats, l->t.epoch_version, &ready)) != PLAY_OK)
		return rc;
	if (ready >> seat & 1u)
		return fail_msg(e, PLAY_STALE, N_("Du hast schon „Weiter“ gewählt: die nächste "
						  "Partie beginnt, sobald alle so weit sind."));
	ready |= 1u << seat;
	/* one step row (the finished position again) and one table update, as
	 * every step (save_step) */
	struct status st;
	struct play_flags f;
	size_t len;
	l->g->status(l->state, &st);
	play_seat_flags(&st, 1, ready, l->t.nseats, &f);
	struct st_step_row row = { .version = l->t.version, .deadline = l->t.next_deadline,
				   .epoch = l->t.epoch };
	step_row_flags(&row, &l->t, &f);
	if ((rc = encode_state(l->g, l->state, l->snap, &len)) != PLAY_OK ||
	    (rc = from_store(store_step_append(s, l->party.id, l->party.steps, seat,
					       PLAY_CONTINUE, now, l->t.version + 1, l->snap, len),
			     PLAY_ERR)) != PLAY_OK ||
	    (rc = from_store(store_table_step(s, l->t.id, &row), PLAY_ERR)) != PLAY_OK)
		return rc;
	l->party.steps++;
	l->t.version++;
	l->t.public_version = l->t.version;
	l->t.acting = f.acting;
	l->t.in_window = f.in_window;
	l->t.to_continue = f.to_continue;
	if (ready == (l->t.nseats >= 32 ? ~0u : (1u << l->t.nseats) - 1u))
		return next_party(s, l, now);
	return PLAY_OK;
}
