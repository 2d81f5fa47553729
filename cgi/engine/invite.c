/* invite.c — withdrawing an invitation by name (invite.h). */
#include "invite.h"

#include <stdio.h>

#include "i18n.h"
#include "play.h"

enum { INVITES_MAX = 64 };

/* 1 when `user` holds a seat at `table`; -1 on a store error. */
static int seated(struct store *s, int64_t table, int64_t user)
{
	struct st_seat seats[GAME_MAX_SEATS];
	int n;
	if (store_table_seats(s, table, seats, GAME_MAX_SEATS, &n) != ST_OK)
		return -1;
	for (int i = 0; user > 0 && i < n; i++)
		if (seats[i].user_id == user)
			return 1;
	return 0;
}

/* The invitee of open invitation `invite` at `table` into name: PLAY_OK,
 * PLAY_REJECTED when the table has no such open invitation. */
static int invitee(struct store *s, int64_t table, int64_t invite, char *name, size_t cap,
		   struct rerr *e)
{
	struct st_invitee list[INVITES_MAX];
	int n;
	if (store_invites_at(s, table, list, INVITES_MAX, &n) != ST_OK)
		return PLAY_ERR;
	for (int i = 0; i < n; i++)
		if (list[i].id == invite) {
			snprintf(name, cap, "%s", list[i].to);
			return PLAY_OK;
		}
	return play_fail(e, PLAY_REJECTED, N_("Diese Einladung gibt es an diesem Tisch nicht "
					      "(mehr)."));
}

int invite_withdraw(struct store *s, int64_t table, int64_t user, int64_t invite, char *name,
		    size_t cap, struct rerr *e)
{
	struct st_table t;
	int rc, mine;
	if (cap)
		name[0] = '\0';
	if ((rc = store_begin(s)) != PLAY_OK)
		return rc;
	if ((rc = play_from_store(store_table_get(s, table, &t), PLAY_NOT_FOUND)) != PLAY_OK)
		goto out;
	if ((mine = seated(s, table, user)) < 0) {
		rc = PLAY_ERR;
		goto out;
	}
	if (!mine)
		rc = play_fail(e, PLAY_NOT_SEATED, N_("Eine Einladung zurückziehen kann nur, wer an "
						      "diesem Tisch sitzt."));
	else if (t.status != TABLE_OPEN)
		rc = play_fail(e, PLAY_NOT_PLAYING, N_("Der Tisch wartet nicht mehr auf "
						       "Mitspieler."));
	else if ((rc = invitee(s, table, invite, name, cap, e)) == PLAY_OK)
		rc = play_from_store(store_invite_withdraw(s, table, invite), PLAY_REJECTED);
out:
	return play_finish(s, rc);
}
