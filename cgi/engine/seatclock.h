/* seatclock.h — the seats' clocks of a table in the store (rules/clock.h
 * is the rule; this applies it to a table's seats inside the caller's
 * transaction). Store codes (ST_*) throughout. */
#ifndef SPIELTISCH_SEATCLOCK_H
#define SPIELTISCH_SEATCLOCK_H

#include <stdint.h>

#include "store.h"

/* After a step (or a party's start) that left the party in status st: a
 * seat whose clock ran and no longer does is charged for its wait (and
 * credited the time per move); one that must act now starts its clock.
 * Bots have no clock. *deadline (the game's, on entry) becomes the table's
 * next deadline: the earliest time a running clock runs out and the game's
 * own, except at a table over days, where the seats' clocks replace the
 * game's deadlines while anyone must act. Nothing on a table without a
 * clock. A person's clock that starts at a table over days queues their
 * per-turn mail when mail is on and that is their choice (mail.h). */
int seatclock_sync(struct store *s, const struct st_table *t, const struct status *st,
		   int64_t now, int64_t *deadline);

/* The same after a step that the stand-in made for seats whose time ran
 * out at now (timed_out, bits): their wait ends without the time per
 * move, so that the bank they had from the timeout (seatclock_timeout)
 * stays the time per move, as the rule says. */
int seatclock_sync_after(struct store *s, const struct st_table *t, const struct status *st,
			 int64_t now, uint32_t timed_out, int64_t *deadline);

/* The lowest seat that may act and whose clock has run out at now, or -1;
 * *next: the earliest run-out still to come (0: none). */
int seatclock_due(struct store *s, const struct st_table *t, const struct status *st,
		  int64_t now, int *seat, int64_t *next);

/* Seat's time is up: one more timeout, and a new wait from now with the
 * time per move. At the table's limit of timeouts a bot
 * takes the seat over for good (*takeover = 1): its results count as last. */
int seatclock_timeout(struct store *s, const struct st_table *t, int seat, int64_t now,
		      int *takeover);

/* The seats that may vote to let a bot take `seat` over now (bits): every
 * other seat a person plays, once `seat` has had a timeout; 0 when it may
 * not be taken (a bot plays it, or it has never run out of time). */
uint32_t seatclock_voters(const struct st_seat *seats, int n, int seat);

#endif
