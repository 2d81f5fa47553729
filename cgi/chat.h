/*
 * chat.h — the table chat: short messages of the people seated at a table,
 * read by everyone who looks at it, and muting an author for oneself.
 *
 * Rules (docs/api.md): a message is 1–CHAT_CHARS_MAX characters after
 * trimming blanks at both ends, without control characters (nor the
 * invisible ones that reorder text); a user writes at most CHAT_RATE_COUNT
 * messages per table within CHAT_RATE_MS. Writing needs a seat at the
 * table (any status); muting needs a message of the muted user at this
 * table, and works on every table. A message bumps the table's version and
 * public version (other pages reload) but never the epoch: no pending move
 * becomes stale. No HTML here: the templates escape the text.
 */
#ifndef SPIELTISCH_CHAT_H
#define SPIELTISCH_CHAT_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "store.h"

enum {
	CHAT_CHARS_MAX = 300,        /* characters of a message, after trimming */
	CHAT_RATE_COUNT = 5,         /* messages per user and table … */
	CHAT_RATE_MS = 30000,        /* … within this many ms */
	CHAT_SHOW = 30,              /* the newest messages a page shows */
};
_Static_assert(CHAT_CHARS_MAX * 4 <= ST_CHAT_BYTES, "a message fits in struct st_chat");

enum chat_rc {
	CHAT_OK,
	CHAT_INVALID,      /* empty, too long, control characters, muting oneself (422) */
	CHAT_TOO_FAST,     /* the rate limit (409) */
	CHAT_NOT_SEATED,   /* only the seated write (403) */
	CHAT_NO_AUTHOR,    /* mute: nobody of that id wrote at this table (422) */
	CHAT_NOT_FOUND,    /* no such table (404) */
	CHAT_BUSY,         /* the database stayed locked (503) */
	CHAT_NOSPACE,      /* the disk is full (503) */
	CHAT_ERR,          /* 500 */
	CHAT_RC__MAX
};

/* Trims `text` and checks it: CHAT_OK with the trimmed text in out (cap at
 * least ST_CHAT_BYTES + 1), else CHAT_INVALID with the reason in e. */
int chat_clean(const char *text, char *out, size_t cap, struct rerr *e);

/* `user` writes `text` at `table` at now_ms: checks, the seat, the rate
 * limit, the message and the version bump in one transaction. Anything but
 * CHAT_OK changes nothing; e says why in German. */
int chat_post(struct store *s, int64_t table, int64_t user, const char *text, int64_t now_ms,
	      struct rerr *e);

/* `user` mutes (on) or unmutes `muted` for themselves. */
int chat_mute(struct store *s, int64_t table, int64_t user, int64_t muted, int on,
	      int64_t now_ms, struct rerr *e);

#endif
