/* seatclock.c — the seats' clocks of a table (seatclock.h). */
#include <stdio.h>

#include "seatclock.h"

#include "bot.h"
#include "clock.h"
#include "mail.h"

/* The seats a bot plays (bits). */
static uint32_t bot_seats(const struct st_seat *seats, int n)
{
	uint32_t bots = 0;
	for (int i = 0; i < n; i++)
		if (seats[i].bot && seats[i].seat >= 0 && seats[i].seat < GAME_MAX_SEATS)
			bots |= 1u << seats[i].seat;
	return bots;
}

/* A person's clock starts at a table over days: their per-turn mail, when
 * mail is on and that is their choice (store_mail_turn). A mail that cannot
 * be queued is logged and does not fail the step. */
static void notify(struct store *s, const struct st_table *t, const struct st_seat *x,
		   int64_t now)
{
	if (!t->clock.windows || !x->user_id || x->bot || !mail_enabled())
		return;
	if (store_mail_turn(s, t->id, x->user_id, now) != ST_OK)
		fprintf(stderr, "seatclock: table %lld: per-turn mail not queued\n",
			(long long)t->id);
}

int seatclock_sync(struct store *s, const struct st_table *t, const struct status *st,
		   int64_t now, int64_t *deadline)
{
	return seatclock_sync_after(s, t, st, now, 0, deadline);
}

int seatclock_sync_after(struct store *s, const struct st_table *t, const struct status *st,
			 int64_t now, uint32_t timed_out, int64_t *deadline)
{
	struct st_seat seats[GAME_MAX_SEATS];
	int n, rc;
	const struct clock_rule *c = &t->clock;
	if (c->first_ms <= 0)
		return ST_OK;
	if ((rc = store_table_seats(s, t->id, seats, GAME_MAX_SEATS, &n)) != ST_OK)
		return rc;
	uint32_t waiting = clock_waiting(c, st) & ~bot_seats(seats, n);
	int64_t runs_out = 0;
	for (int i = 0; i < n && rc == ST_OK; i++) {
		const struct st_seat *x = &seats[i];
		int64_t left = x->clock_left, since = x->waiting_since;
		int w = x->seat >= 0 && x->seat < GAME_MAX_SEATS && ((waiting >> x->seat) & 1u);
		if (since && !w) {
			/* the stand-in's move after a timeout earns nothing: the
			 * bank starts again from the time per move */
			left = (timed_out >> x->seat) & 1u ? left - clock_elapsed(c, since, now)
							  : clock_after_move(c, left, since, now);
			since = 0;
		} else if (!since && w) {
			since = now;
			notify(s, t, x, now);
		}
		/* a seat that may no longer act (it passed in the window) and
		 * whose time is up sets no deadline, as if it had timed out */
		int64_t out = w ? clock_runs_out(c, since, left) : 0;
		if (w && (out > now || ((st->to_act >> x->seat) & 1u)))
			runs_out = deadline_min(runs_out, out);
		if (left != x->clock_left || since != x->waiting_since)
			rc = store_seat_set_clock(s, t->id, x->seat, left, since, x->timeouts);
	}
	if (waiting && c->windows)
		*deadline = runs_out;
	else
		*deadline = deadline_min(*deadline, runs_out);
	return rc;
}

int seatclock_due(struct store *s, const struct st_table *t, const struct status *st,
		  int64_t now, int *seat, int64_t *next)
{
	struct st_seat seats[GAME_MAX_SEATS];
	int n, rc;
	*seat = -1;
	*next = 0;
	if (t->clock.first_ms <= 0)
		return ST_OK;
	if ((rc = store_table_seats(s, t->id, seats, GAME_MAX_SEATS, &n)) != ST_OK)
		return rc;
	uint32_t waiting = clock_waiting(&t->clock, st) & ~bot_seats(seats, n);
	for (int i = 0; i < n; i++) {
		const struct st_seat *x = &seats[i];
		if (x->seat < 0 || x->seat >= GAME_MAX_SEATS || !((waiting >> x->seat) & 1u) ||
		    !x->waiting_since)
			continue;
		int64_t out = clock_runs_out(&t->clock, x->waiting_since, x->clock_left);
		if (out > now)
			*next = deadline_min(*next, out);
		else if (((st->to_act >> x->seat) & 1u) && *seat < 0)
			*seat = x->seat;   /* (one that passed has nothing left to time out) */
	}
	return ST_OK;
}

int seatclock_timeout(struct store *s, const struct st_table *t, int seat, int64_t now,
		      int *takeover)
{
	struct st_seat seats[GAME_MAX_SEATS];
	int n, rc;
	*takeover = 0;
	if ((rc = store_table_seats(s, t->id, seats, GAME_MAX_SEATS, &n)) != ST_OK)
		return rc;
	for (int i = 0; i < n; i++) {
		const struct st_seat *x = &seats[i];
		if (x->seat != seat)
			continue;
		/* the bank is spent: a new wait with the time per move begins, so
		 * that a wait that goes on (a window, then the seat's turn) does
		 * not run out again at once */
		int timeouts = x->timeouts + 1;
		if ((rc = store_seat_set_clock(s, t->id, seat, t->clock.per_move_ms, now, timeouts)) !=
		    ST_OK)
			return rc;
		if (t->timeouts_max > 0 && timeouts >= t->timeouts_max) {
			*takeover = 1;
			return store_seat_set_bot(s, t->id, seat, BOT_GREEDY + 1, 1);
		}
		return ST_OK;
	}
	return ST_NOTFOUND;
}

uint32_t seatclock_voters(const struct st_seat *seats, int n, int seat)
{
	uint32_t voters = 0;
	int ok = 0;
	for (int i = 0; i < n; i++) {
		const struct st_seat *x = &seats[i];
		if (x->seat == seat)
			ok = !x->bot && x->timeouts > 0;
		else if (!x->bot && x->seat >= 0 && x->seat < GAME_MAX_SEATS)
			voters |= 1u << x->seat;
	}
	return ok ? voters : 0;
}
