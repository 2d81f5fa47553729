/* clock.c — seat clocks (clock.h). */
#include "clock.h"

/* Clock time from the epoch's first Monday-aligned week to t: weeks of five
 * counted days, and the week's part up to Friday's end. The epoch was a
 * Thursday, so t is shifted by three days to start weeks on a Monday. */
static int64_t counted(const struct clock_rule *r, int64_t t)
{
	if (!r->weekend || r->day_ms <= 0)
		return t;
	int64_t u = t + 3 * r->day_ms, week = 7 * r->day_ms, work = 5 * r->day_ms;
	int64_t w = u / week, rem = u % week;
	return w * work + (rem < work ? rem : work);
}

/* The first wall time at which counted() reaches c. */
static int64_t uncounted(const struct clock_rule *r, int64_t c)
{
	if (!r->weekend || r->day_ms <= 0)
		return c;
	int64_t week = 7 * r->day_ms, work = 5 * r->day_ms;
	int64_t w = c / work, rem = c % work;
	int64_t u = rem == 0 && w > 0 ? (w - 1) * week + work : w * week + rem;
	return u - 3 * r->day_ms;
}

int64_t clock_elapsed(const struct clock_rule *r, int64_t from, int64_t to)
{
	return to > from ? counted(r, to) - counted(r, from) : 0;
}

int64_t clock_runs_out(const struct clock_rule *r, int64_t from, int64_t left)
{
	if (left <= 0)
		return from;
	int64_t t = uncounted(r, counted(r, from) + left);
	return t > from ? t : from;
}

int64_t clock_after_move(const struct clock_rule *r, int64_t left, int64_t from, int64_t to)
{
	int64_t bank = left - clock_elapsed(r, from, to) + r->per_move_ms;
	return r->cap_ms > 0 && bank > r->cap_ms ? r->cap_ms : bank;
}

uint32_t clock_waiting(const struct clock_rule *r, const struct status *st)
{
	if (st->over || r->first_ms <= 0)
		return 0;
	if (st->window)
		return r->windows ? st->window : 0;
	if (st->turn >= 0 && st->turn < GAME_MAX_SEATS)
		return st->to_act & (1u << st->turn);
	return st->to_act;
}
