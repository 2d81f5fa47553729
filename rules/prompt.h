/* prompt.h — who must or may act now, and until when: a small stack of
 * prompts in the game state, the same for every game.
 *
 * A prompt is a game's kind of wait (Drehwurm: a regular turn, a snap
 * window; DNA: the opening race, the secret choice, a refill, a discard,
 * the deck holder's pick): the seats it is for, who of them has not acted
 * yet, a deadline and what the game does when it passes. Only the top
 * prompt is live: a prompt pushed over another interrupts it (a discard
 * step in the middle of a resolution, a reaction to a reaction) and the
 * one below goes on when it is popped, with its own deadline.
 *
 * From the top prompt the kernel answers what every game's status() and
 * tick() used to answer each in its own way: who may act (status.to_act),
 * the next deadline, the open window, and whether a deadline has passed.
 * A game says what happens then in its `expire` function.
 *
 * A clock may start late: a prompt pushed with prompt_later() has no
 * deadline until the next tick() or move (setup has no clock). The
 * platform ticks a party at its deal, so the first window's clock runs
 * from the deal (logged as the step "start"); the simulator's first step
 * starts it. */
#ifndef SPIELTISCH_PROMPT_H
#define SPIELTISCH_PROMPT_H

#include <stdint.h>

#include "game.h"

enum {
	PROMPT_DEPTH = 4,          /* prompts a stack can hold */
	PROMPT_WINDOW = 1,         /* flag: an out-of-turn window (status.window) */
	PROMPT_LATER = 2,          /* flag: the clock starts at the next request */
	PROMPT_FLAGS = PROMPT_WINDOW | PROMPT_LATER
};

struct prompt {
	uint8_t kind;        /* the game's kind of prompt, 1..; 0 is never used */
	uint8_t flags;       /* PROMPT_* */
	int8_t owner;        /* the seat it belongs to (whose turn, who opened a
	                      * window), or -1 */
	uint8_t arg;         /* the game's (Drehwurm: the stack; DNA: strand slots) */
	uint16_t seats;      /* every seat it is for: constant until it closes */
	uint16_t waiting;    /* those of them who have neither acted nor passed */
	uint16_t seconds;    /* PROMPT_LATER: the deadline once the clock starts */
	int64_t deadline;    /* ms; 0: none (or not started) */
};

struct prompts {
	uint8_t n;
	struct prompt p[PROMPT_DEPTH];
};

/* Opens a prompt of `kind` for `seats` (all of them waiting) on top of the
 * stack, without deadline or owner; the caller sets what else it needs.
 * The stack must have room (assert). */
struct prompt *prompt_push(struct prompts *ps, int kind, uint32_t seats);
/* Its clock starts at the next request: `seconds` from then (0: no deadline). */
void prompt_later(struct prompt *p, int seconds);
/* Closes the top prompt; the one below, if any, is live again. */
void prompt_pop(struct prompts *ps);
/* Closes every prompt (the party is over). */
void prompt_clear(struct prompts *ps);

/* The live prompt, or NULL; its kind, or 0. Inline, like prompt_waits():
 * a game's move list and checks ask them several times a move. */
static inline struct prompt *prompt_top(struct prompts *ps)
{
	return ps->n ? &ps->p[ps->n - 1] : NULL;
}

static inline const struct prompt *prompt_peek(const struct prompts *ps)
{
	return ps->n ? &ps->p[ps->n - 1] : NULL;
}

static inline int prompt_kind(const struct prompts *ps)
{
	return ps->n ? ps->p[ps->n - 1].kind : 0;
}

/* The topmost prompt of `kind`, live or interrupted, or NULL; its owner,
 * or -1. */
struct prompt *prompt_find(struct prompts *ps, int kind);
int prompt_owner(const struct prompts *ps, int kind);

/* 1 when seat is waiting on the live prompt. */
static inline int prompt_waits(const struct prompts *ps, int seat)
{
	const struct prompt *p = prompt_peek(ps);
	return p && seat >= 0 && seat < GAME_MAX_SEATS && ((p->waiting >> seat) & 1u);
}
/* Seat has acted or passed on the live prompt. 1 when nobody is left
 * waiting on it (the caller closes it). */
int prompt_done(struct prompts *ps, int seat);
/* Seat is out of the party: it waits on no prompt any more. */
void prompt_drop_seat(struct prompts *ps, int seat);

/* Starts the live prompt's clock if it waits for a start. 1 if
 * it did. */
int prompt_start(struct prompts *ps, int64_t now);
/* What a game's tick() is: starts a waiting clock (1), else, when the live
 * prompt's deadline has passed, clears it and calls expire(st, prompt,
 * now), which closes or renews the prompt (1); else 0. */
int prompt_tick(struct prompts *ps, int64_t now,
		void (*expire)(void *st, struct prompt *p, int64_t now), void *st);
/* Fills to_act, deadline and window of a status from the live prompt. */
void prompt_status(const struct prompts *ps, struct status *out);

/* In a snapshot: the count, then each prompt's fields. decode: -1 when the
 * count exceeds PROMPT_DEPTH (the reader's error flag covers the rest). */
void prompt_encode(struct buf *b, const struct prompts *ps);
int prompt_decode(struct de *d, struct prompts *ps);
/* What holds for any game's prompts: kinds 1..kinds-1, known flags, seats
 * and owners among nseats, waiting within seats, no deadline on a clock
 * not started and no clock waiting below the top. */
int prompt_check(const struct prompts *ps, int kinds, int nseats, struct rerr *e);

#endif
