/*
 * rc.h — one space of result codes, from the store up to the HTTP status.
 *
 * The store's codes (ST_*, store.h) and the engine's (PLAY_*, play.h) are
 * names of these values, so that a result travels up unchanged: a busy
 * database is RC_BUSY in the store, in the engine and in the page, which
 * answers 503. The one thing a caller may have to say is what "no such
 * row" means to it (rc_missing): a table that is not there is a 404 to
 * the page that asked for it, but an error inside a write that has just
 * read it. The page turns any code into its status and error page in one
 * place (page_fail, page.c: rc_http there).
 */
#ifndef SPIELTISCH_RC_H
#define SPIELTISCH_RC_H

enum rc {
	RC_OK,
	RC_NOTFOUND,     /* no such row, table, user … (404) */
	RC_EXISTS,       /* the row is there already (a name taken) */
	RC_CONFLICT,     /* someone else wrote first, or no room (a full table) */
	RC_BUSY,         /* the database stayed locked: try again (503) */
	RC_ERR,          /* anything else (500, logged where it happened) */
	RC_FULL,         /* the disk is full: nothing was written (503) */
	RC_STALE,        /* a page too old or a race lost: the note and the fresh page */
	RC_REJECTED,     /* the rules refused the move: the message says why */
	RC_NOT_SEATED,   /* the user has no seat at this table (403) */
	RC_NOT_PLAYING,  /* the table has not started, or is finished */
	RC_TABLE_FULL,   /* join: no free seat */
	RC_ALREADY,      /* join: already seated */
	RC_INVALID,      /* create: bad game, seat count or option */
	RC_CORRUPT,      /* the table's stored state does not load (503) */
	RC__MAX
};

/* rc, with RC_NOTFOUND read as `missing` (RC_ERR: the row must exist). */
static inline int rc_missing(int rc, int missing)
{
	return rc == RC_NOTFOUND ? missing : rc;
}

#endif
