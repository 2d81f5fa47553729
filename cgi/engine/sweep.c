/*
 * sweep.c — time: passed deadlines (a tick), the stand-in move of a seat
 * whose time ran out, and the housekeeping sweeps (open tables that
 * expire, idle tables that close). Part of the engine (cgi/engine/,
 * engine.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "seatclock.h"

/* Applies passed deadlines to a loaded party and logs them as one
 * PLAY_STEP_TICK step (PLAY_STEP_START when nothing was due and the game
 * only started a clock, as start_party() does at the deal); on a pausing table, a passed pause deals the next party. When the game has nothing to apply although the table's deadline
 * passed, the table's deadline is corrected (so that polls stop firing). */
int live_tick(struct store *s, struct live *l, int64_t now)
{
	struct status st;
	int done = 0, rc;
	if (live_pausing(l))
		return deadline_passed(l->t.next_deadline, now) ? next_party(s, l, now) : PLAY_OK;
	if ((rc = clock_step(s, l, now, &done)) != PLAY_OK || done)
		return rc;
	if (l->g->tick(l->state, now))
		return save_step(s, l, -1, deadline_passed(l->t.next_deadline, now) ?
				 PLAY_STEP_TICK : PLAY_STEP_START, now, 0);
	if (!deadline_passed(l->t.next_deadline, now))
		return PLAY_OK;
	l->g->status(l->state, &st);
	if (deadline_passed(st.deadline, now)) {
		fprintf(stderr, "play: table %lld: deadline %lld passed but tick changed nothing\n",
			(long long)l->t.id, (long long)st.deadline);
		st.deadline = 0;
	}
	int64_t deadline = st.deadline;
	if ((rc = from_store(seatclock_sync(s, &l->t, &st, now, &deadline), PLAY_ERR)) != PLAY_OK)
		return rc;
	rc = from_store(store_table_bump(s, l->t.id, l->t.version, deadline, l->t.epoch, NULL),
			PLAY_ERR);
	return rc == PLAY_OK ? from_store(store_table_get(s, l->t.id, &l->t), PLAY_ERR) : rc;
}

/* PLAY_OK whether or not a deadline had passed; PLAY_NOT_FOUND (404),
 * PLAY_BUSY (503), PLAY_ERR (500). Cheap when nothing is due: one read.
 * Everything due at now_ms is applied, in one transaction: a pause that
 * ends deals a party (its first window's clock starts at the deal), and a page loaded afterwards must not
 * see a deadline pass under its next move that was due before it loaded.
 * TICK_ROUNDS bounds the rounds; a game's tick always moves its deadline. */
int play_tick(struct store *s, int64_t table, int64_t now_ms)
{
	enum { TICK_ROUNDS = 4 };
	struct live l;
	int64_t v, dl;
	int rc = store_table_poll(s, table, &v, &dl);
	if (rc != PLAY_OK || !deadline_passed(dl, now_ms))
		return rc;
	if ((rc = store_begin_table(s, table)) != PLAY_OK)
		return rc;
	for (int round = 0; rc == PLAY_OK && round < TICK_ROUNDS; round++) {
		rc = live_load(s, table, &l);
		int due = rc == PLAY_OK && deadline_passed(l.t.next_deadline, now_ms);
		if (due)
			rc = live_tick(s, &l, now_ms);
		else if (rc == PLAY_NOT_PLAYING)
			rc = PLAY_OK;   /* a finished table has no deadlines to apply */
		live_free(&l);
		if (!due)
			break;
	}
	if (rc == PLAY_CORRUPT)   /* logged: the state does not load, or the tick breaks it */
		rc = close_broken(s, table, now_ms, "the passed deadline cannot be applied");
	if (rc == PLAY_OK)
		rc = bots_act(s, table, now_ms);
	return finish(s, rc);
}

enum { TIMEOUT_MOVES_MAX = 64 };   /* moves of one turn a stand-in makes */

/* What stands in for seat when its time is up: a pass in a window that
 * lets it pass, else the greedy bot's move. *found as bot_move. */
static int stand_in_move(struct store *s, struct live *l, int seat, int64_t now,
			 struct bot_mem *m, char *move, int *found)
{
	struct status st;
	int legal = 0;
	l->g->status(l->state, &st);
	if ((st.window >> seat) & 1u)
		l->g->moves(l->state, seat, find_pass, &legal);
	if (legal) {
		memcpy(move, "pass", sizeof "pass");
		*found = 1;
		return PLAY_OK;
	}
	return bot_move(s, l, seat, BOT_GREEDY, now, m, move, found);
}

/* A running clock that ran out (seatclock.h): the seat's timeout counts,
 * and what stands in for it plays the rest of its turn (a window: its
 * pass). At the table's limit of timeouts the bot keeps the seat. Sets
 * *done when it acted, and at a table over days also when somebody must
 * still act: the game's own deadlines wait for the clocks there. */
int clock_step(struct store *s, struct live *l, int64_t now, int *done)
{
	struct status st;
	struct bot_mem m = { .seen = NULL, .trial = NULL };
	struct rerr e;
	char move[GAME_MOVE_MAX + 1];
	int seat, takeover, found = 1, rc;
	int64_t next;
	l->g->status(l->state, &st);
	if ((rc = from_store(seatclock_due(s, &l->t, &st, now, &seat, &next), PLAY_ERR)) != PLAY_OK)
		return rc;
	if (seat < 0) {
		*done = l->t.clock.windows && (clock_waiting(&l->t.clock, &st) & ~l->bots);
		if (*done && deadline_passed(l->t.next_deadline, now) &&
		    (rc = from_store(store_table_bump_quiet(s, l->t.id, l->t.version, next,
							    l->t.epoch, NULL), PLAY_ERR)) == PLAY_OK)
			rc = from_store(store_table_get(s, l->t.id, &l->t), PLAY_ERR);
		return rc;
	}
	*done = 1;
	l->ran_out |= 1u << seat;
	if ((rc = from_store(seatclock_timeout(s, &l->t, seat, now, &takeover), PLAY_ERR)) != PLAY_OK)
		return rc;
	if (takeover) {
		l->bots |= 1u << seat;
		l->resigned |= 1u << seat;
		l->level[seat] = BOT_GREEDY;
	}
	m.seen = malloc(l->g->state_size);
	m.trial = malloc(l->g->state_size);
	rc = m.seen && m.trial ? PLAY_OK : PLAY_ERR;
	for (int k = 0; rc == PLAY_OK && found && k < TIMEOUT_MOVES_MAX; k++) {
		l->g->status(l->state, &st);
		if (!(((clock_waiting(&l->t.clock, &st) & st.to_act) >> seat) & 1u) ||
		    (rc = stand_in_move(s, l, seat, now, &m, move, &found)) != PLAY_OK || !found)
			break;
		if ((rc = apply_move(s, l, seat, move, now, &e)) == PLAY_REJECTED) {
			fprintf(stderr, "play: table %lld: stand-in move '%s' refused: %s\n",
				(long long)l->t.id, move, e.msg);
			rc = PLAY_ERR;
		}
	}
	free(m.seen);
	free(m.trial);
	return rc;
}

enum { SWEEP_MAX = 16 };

/* Removes open table id if it is still open and was created before `before`
 * (another request may have filled or removed it meanwhile). */
static int expire_open(struct store *s, int64_t id, int64_t before, int *done)
{
	struct st_table t;
	int rc = store_begin(s);
	*done = 0;
	if (rc != PLAY_OK)
		return rc;
	rc = store_table_get(s, id, &t);
	if (rc == PLAY_OK && t.status == TABLE_OPEN && t.created_at < before) {
		rc = store_table_delete(s, id);
		*done = rc == PLAY_OK;
	}
	rc = finish(s, rc);
	return rc == PLAY_NOT_FOUND ? PLAY_OK : rc;
}

/* Closes running table id if its party still saw no step since `before`
 * (its listeners hear of its end: a tournament's table counts as played,
 * a match closed idle is not rated). */
static int close_idle(struct store *s, int64_t id, int64_t before, int64_t now, int *done)
{
	int rc = store_begin(s);
	*done = 0;
	if (rc != PLAY_OK)
		return rc;
	struct st_table t;
	rc = store_table_close_idle(s, id, before);
	*done = rc == PLAY_OK;
	if (rc == PLAY_OK && (rc = from_store(store_table_get(s, id, &t), PLAY_ERR)) == PLAY_OK)
		rc = table_ended(s, &t, now);
	rc = finish(s, rc);
	return rc == PLAY_NOT_FOUND ? PLAY_OK : rc;
}

/* Applies the passed deadlines of the tables in ids; a table another
 * request is at (or that went meanwhile) is left to it. Counts into
 * *ticked; PLAY_OK, or the first error. */
static int tick_ids(struct store *s, const int64_t *ids, int n, int64_t now_ms, int *ticked)
{
	int rc = PLAY_OK;
	for (int i = 0; rc == PLAY_OK && i < n; i++) {
		rc = play_tick(s, ids[i], now_ms);
		*ticked += rc == PLAY_OK;
		if (rc == PLAY_BUSY || rc == PLAY_NOT_FOUND)
			rc = PLAY_OK;   /* someone else is at it */
	}
	return rc;
}

int play_sweep(struct store *s, const struct play_sweep *rule, int64_t now_ms,
	       struct play_swept *out)
{
	int64_t ids[SWEEP_MAX];
	int n, done, max = rule->max < SWEEP_MAX ? rule->max : SWEEP_MAX;
	memset(out, 0, sizeof *out);
	int rc = from_store(store_tables_due(s, now_ms, ids, max, &n), PLAY_ERR);
	if (rc == PLAY_OK)
		rc = tick_ids(s, ids, n, now_ms, &out->ticked);
	if (rc == PLAY_OK && rule->open_ms > 0)
		rc = from_store(store_tables_expired(s, now_ms - rule->open_ms, ids, max, &n),
				PLAY_ERR);
	for (int i = 0; rc == PLAY_OK && rule->open_ms > 0 && i < n; i++)
		if ((rc = expire_open(s, ids[i], now_ms - rule->open_ms, &done)) == PLAY_OK)
			out->expired += done;
	if (rc == PLAY_OK && rule->idle_ms > 0)
		rc = from_store(store_tables_idle(s, now_ms - rule->idle_ms, ids, max, &n), PLAY_ERR);
	for (int i = 0; rc == PLAY_OK && rule->idle_ms > 0 && i < n; i++)
		if ((rc = close_idle(s, ids[i], now_ms - rule->idle_ms, now_ms, &done)) == PLAY_OK)
			out->closed += done;
	return rc;
}

int play_sweep_user(struct store *s, int64_t user, int64_t now_ms, int max)
{
	int64_t ids[SWEEP_MAX], seq = 0, deadline = 0;
	int n = 0, ticked = 0;
	int rc = from_store(store_user_poll(s, user, NULL, now_ms, &seq, &deadline), PLAY_ERR);
	if (rc != PLAY_OK || deadline <= 0 || deadline > now_ms)
		return rc;
	rc = from_store(store_user_tables_due(s, user, now_ms, ids,
					      max < SWEEP_MAX ? max : SWEEP_MAX, &n), PLAY_ERR);
	return rc == PLAY_OK ? tick_ids(s, ids, n, now_ms, &ticked) : rc;
}
