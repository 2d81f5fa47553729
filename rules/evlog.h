/* evlog.h — the public event log every game keeps: the last few things
 * that happened, oldest first, shown newest first under "Zuletzt".
 *
 * An event is a game's kind of event plus a few fields whose meaning the
 * game gives (next to its event enum) and turns into a German sentence in
 * its own text function. The log lives in the game state, is part of the
 * snapshot (evlog_encode/evlog_decode) and is checked by evlog_check; a
 * game checks the meaning of the fields in its own check(). */
#ifndef SPIELTISCH_EVLOG_H
#define SPIELTISCH_EVLOG_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"

enum {
	EVLOG_MAX = 32,          /* events a log can hold; a game keeps at most its `cap` */
	EVENT_LIST_MAX = 4,      /* entries of an event's list */
	EVENT_NOBODY = 0xff,     /* seat: nobody in particular */
	EVENT_NO_CARD = 0xffff,  /* card: none */
	EVENT_TEXT_MAX = 400     /* one event's sentence, bytes */
};

struct game_event {
	uint8_t type;            /* the game's kind of event */
	uint8_t seat;            /* who, or EVENT_NOBODY */
	uint8_t where;           /* a place (Drehwurm: a stack, DNA: a strand) */
	uint8_t arg;             /* a small number (a count, a reason) */
	uint16_t card;           /* a card, or EVENT_NO_CARD */
	uint16_t num;            /* a second card or a larger number */
	uint8_t n;               /* entries in list (DNA: the ends a card joined) */
	uint8_t list[EVENT_LIST_MAX];
};

struct evlog {
	uint8_t n;
	struct game_event ev[EVLOG_MAX];
};

struct de;

/* Appends an event of `type` by `seat` (-1: EVENT_NOBODY) with every other
 * field zero (card: EVENT_NO_CARD); beyond `cap` events the oldest goes.
 * Returns the new event for the caller to fill. cap <= EVLOG_MAX. */
struct game_event *evlog_push(struct evlog *l, int cap, int type, int seat);

/* The log in a snapshot: the count, then each event's fields; the list
 * (count and entries) only when `lists` (a game's choice, fixed for its
 * snapshot format). evlog_decode: -1 when the count exceeds cap or a list
 * is longer than EVENT_LIST_MAX (the reader's error flag covers the rest). */
void evlog_encode(struct buf *b, const struct evlog *l, int lists);
int evlog_decode(struct de *d, struct evlog *l, int cap, int lists);

/* What holds for any game's log: at most cap events, types below `types`,
 * seats below nseats or EVENT_NOBODY, lists within EVENT_LIST_MAX. */
int evlog_check(const struct evlog *l, int cap, int types, int nseats, struct rerr *e);

/* The log as section "log", newest first, one item each, whose "text"
 * the game's `say` writes with vtext() or vtextf() under `key`, so that
 * the platform can translate it. */
void evlog_view_text(const struct evlog *l, struct view_sink *v,
		     void (*say)(const struct game_event *ev, struct view_sink *v, const char *key));

/* vtextf() for a log sentence of `say`: fmt a literal with only %d and
 * %s (any other conversion is formatted as vtextf would); in German the
 * format is split once a worker instead of searched at each sentence. */
void evlog_textf(struct view_sink *v, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The sentence `say` writes for one event, in German, into out[0..cap)
 * (cut to fit; "" for none): what a page without translation shows. */
void evlog_text(const struct game_event *ev,
		void (*say)(const struct game_event *ev, struct view_sink *v, const char *key),
		char *out, size_t cap);

#endif
