/* clock.h — the time a seat has to move, the same for every game.
 *
 * A table is live (a clock per move in seconds, the windows' own deadlines
 * as each game sets them) or over days (a clock per seat in days, and the
 * windows wait for the seats). Either way a seat has a bank of time that
 * runs while it must act and stops when it has acted: it starts with
 * `first_ms`, and every wait that ends with the seat's move adds
 * `per_move_ms`, up to `cap_ms`. A live table's clock is first = per move =
 * cap: every turn starts with the full time again.
 *
 * The clock is lazy like every other deadline: nothing ticks; a request
 * that finds a seat's time used up applies the timeout (cgi/engine/sweep.c). Days have
 * `day_ms` milliseconds (a day; shorter in tests), and with `weekend` set
 * Saturdays and Sundays (UTC, days counted from the epoch) do not count.
 * Pure functions: no clock is read here. */
#ifndef SPIELTISCH_CLOCK_H
#define SPIELTISCH_CLOCK_H

#include <stdint.h>

#include "game.h"

enum { CLOCK_DAY_MS = 86400000 };

struct clock_rule {
	int64_t first_ms;     /* the bank at the start of the match; 0: no clock */
	int64_t per_move_ms;  /* added when a wait ends with the seat's move */
	int64_t cap_ms;       /* the most a bank holds; 0: no cap */
	int64_t day_ms;       /* a day's length (the weekend's unit) */
	int weekend;          /* Saturday and Sunday do not count */
	int windows;          /* over days: the clock runs in windows too, which
	                       * then wait for the seats instead of their own
	                       * deadlines */
};

/* Clock time between the wall times from and to (ms): to - from, less the
 * weekend when it pauses; 0 when to <= from. */
int64_t clock_elapsed(const struct clock_rule *r, int64_t from, int64_t to);

/* The wall time at which a bank of `left` ms, running from `from`, is used
 * up (the first instant it is; from itself when left <= 0). */
int64_t clock_runs_out(const struct clock_rule *r, int64_t from, int64_t left);

/* The bank after a wait from..to that the seat ended by moving: left less
 * the time used, plus per_move, at most cap. */
int64_t clock_after_move(const struct clock_rule *r, int64_t left, int64_t from, int64_t to);

/* The seats whose clock runs in a status: the seat on turn (or, when
 * nobody's turn in particular, every seat that may act), and over days
 * every seat a window is for, whether it has passed or not, until the
 * window closes: who passed is nobody else's business, so no clock shown,
 * no charge and no deadline may depend on it. Only a seat that may still
 * act can run out of time. Nobody's once the party is over. */
uint32_t clock_waiting(const struct clock_rule *r, const struct status *st);

#endif
