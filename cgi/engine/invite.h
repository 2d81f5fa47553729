/*
 * invite.h — invitations by name to a table that waits for players, after
 * they are sent (play_invite sends them): the table's list of those still
 * open, and withdrawing one. Knows no HTTP and no HTML.
 */
#ifndef SPIELTISCH_INVITE_H
#define SPIELTISCH_INVITE_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "store.h"

/* `user`, seated at the open `table`, withdraws its invitation `invite`:
 * it leaves the invitee's "Meine Tische" and the table's list. The
 * invitee's name in name (cap bytes). PLAY_OK; PLAY_NOT_FOUND (no table),
 * PLAY_NOT_SEATED, PLAY_NOT_PLAYING (the table no longer waits),
 * PLAY_REJECTED (no such open invitation at this table), each with e->msg;
 * PLAY_BUSY, PLAY_ERR. One transaction. */
int invite_withdraw(struct store *s, int64_t table, int64_t user, int64_t invite, char *name,
		    size_t cap, struct rerr *e);

#endif
