/*
 * sql-live.c — what changed for the polls, noted as the change is written,
 * for the push (cgi/live.c, docs/api.md "Live channels").
 *
 * SQLite's pre-update hook sees every row written on the connection, by
 * whichever statement or trigger of whichever code path: a write that
 * changes a number a poll compares (tables.public_version, me_seq.seq,
 * tournaments.version) is noted here with its new value. Nothing else is:
 * a pass in a snap window bumps tables.version but not public_version, so
 * it is never noted, and a channel never tells more than the poll.
 *
 * store_live_take() runs after the request, outside any transaction: it
 * reads each noted number again and hands it on only when the value
 * written is in the database now (the numbers only grow), so a change
 * rolled back is never announced. A table's and a tournament's read is
 * their poll's own; a user's reads the number and the token in one.
 *
 * One watched connection per process (the worker's); the notes are a
 * small fixed list, a change past it is dropped (the pages' safety poll
 * finds it).
 */
#include <string.h>

#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#include "internal.h"

enum { LIVE_MAX = 64 };

struct live_note {
	char kind;          /* 't' table, 'm' a user's /me, 'g' tournament */
	int64_t id, value;
};

static struct {
	struct store *s;                 /* the watched connection, NULL none */
	int col_table, col_me, col_tourney;
	int n, dropped, taking;
	struct live_note note[LIVE_MAX];
} L = { .col_table = -1, .col_me = -1, .col_tourney = -1 };

/* The column index of `col` in `table`, -1 when there is none. */
static int column_of(sqlite3 *db, const char *table, const char *col)
{
	sqlite3_stmt *q = NULL;
	int cid = -1;
	if (sqlite3_prepare_v2(db, "SELECT cid FROM pragma_table_info(?1) WHERE name = ?2", -1,
			       &q, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(q, 1, table, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, col, -1, SQLITE_STATIC);
	if (sqlite3_step(q) == SQLITE_ROW)
		cid = sqlite3_column_int(q, 0);
	sqlite3_finalize(q);
	return cid;
}

static void note(char kind, int64_t id, int64_t value)
{
	for (int i = 0; i < L.n; i++)
		if (L.note[i].kind == kind && L.note[i].id == id) {
			if (value > L.note[i].value)
				L.note[i].value = value;
			return;
		}
	if (L.n == LIVE_MAX) {
		L.dropped++;
		return;
	}
	L.note[L.n++] = (struct live_note){ kind, id, value };
}

/* The new value of column `col` when the update changes it, else -1. */
static int64_t changed(sqlite3 *db, int col)
{
	sqlite3_value *old = NULL, *new = NULL;
	if (col < 0 || sqlite3_preupdate_old(db, col, &old) != SQLITE_OK ||
	    sqlite3_preupdate_new(db, col, &new) != SQLITE_OK || !old || !new)
		return -1;
	int64_t a = sqlite3_value_int64(old), b = sqlite3_value_int64(new);
	return a != b ? b : -1;
}

static void on_write(void *ctx, sqlite3 *db, int op, const char *zdb, const char *name,
		     sqlite3_int64 key, sqlite3_int64 key2)
{
	(void)ctx;
	(void)key2;
	if (op != SQLITE_UPDATE || L.taking || strcmp(zdb, "main") != 0)
		return;
	int64_t v;
	if (strcmp(name, "tables") == 0) {
		if ((v = changed(db, L.col_table)) >= 0)
			note('t', key, v);
	} else if (strcmp(name, "me_seq") == 0) {
		if ((v = changed(db, L.col_me)) >= 0)
			note('m', key, v);
	} else if (strcmp(name, "tournaments") == 0) {
		if ((v = changed(db, L.col_tourney)) >= 0)
			note('g', key, v);
	}
}

void st_live_note(struct store *s, char kind, int64_t id, int64_t value)
{
	if (L.s == s && !L.taking)
		note(kind, id, value);
}

int store_live_watch(struct store *s, int on)
{
	if (!on) {
		if (L.s == s && s && s->db)
			sqlite3_preupdate_hook(s->db, NULL, NULL);
		if (L.s == s)
			L.s = NULL;
		return ST_OK;
	}
	if (!s->db) {   /* PostgreSQL: no hook; the backend tells (st_live_note) */
		L.s = s;
		L.n = L.dropped = 0;
		return ST_OK;
	}
	L.col_table = column_of(s->db, "tables", "public_version");
	L.col_me = column_of(s->db, "me_seq", "seq");
	L.col_tourney = column_of(s->db, "tournaments", "version");
	if (L.col_table < 0 || L.col_me < 0 || L.col_tourney < 0)
		return ST_ERR;
	L.s = s;
	L.n = L.dropped = 0;
	sqlite3_preupdate_hook(s->db, on_write, NULL);
	return ST_OK;
}

/* A user's /me number and poll token, in one read (store_user_poll would
 * also recompute a passed deadline: a write, and not the number). `q` is
 * prepared once per store_live_take. 0, or -1 (no such user, no token:
 * nobody listens). */
static int me_now(sqlite3_stmt *q, int64_t user, int64_t *v, char tok[ST_POLL_TOKEN_LEN + 1])
{
	int rc = -1;
	sqlite3_reset(q);
	sqlite3_bind_int64(q, 1, user);
	if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_type(q, 1) == SQLITE_TEXT &&
	    sqlite3_column_bytes(q, 1) <= ST_POLL_TOKEN_LEN) {
		*v = sqlite3_column_int64(q, 0);
		memcpy(tok, sqlite3_column_text(q, 1), (size_t)sqlite3_column_bytes(q, 1) + 1);
		rc = 0;
	}
	sqlite3_reset(q);
	return rc;
}

/* The number the poll of note `n` reads now into *v, the /me token into
 * tok; 0, or -1 when it cannot be read. */
static int read_now(struct store *s, sqlite3_stmt **me, const struct live_note *n, int64_t *v,
		    char tok[ST_POLL_TOKEN_LEN + 1])
{
	int64_t dl = 0;
	tok[0] = '\0';
	switch (n->kind) {
	case 't':
		return store_table_poll(s, n->id, v, &dl) == ST_OK ? 0 : -1;
	case 'g':
		return store_tourney_poll(s, n->id, v, &dl) == ST_OK ? 0 : -1;
	default:
		if (!s->db)   /* PostgreSQL: the store's own statement */
			return st_me_now(s, n->id, v, tok);
		if (!*me && sqlite3_prepare_v2(s->db, "SELECT seq, poll_token FROM me_seq"
					       " WHERE user_id = ?1", -1, me, NULL) != SQLITE_OK)
			return -1;
		return me_now(*me, n->id, v, tok);
	}
}

int store_live_take(struct store *s, store_live_fn fn, void *ctx)
{
	if (L.s != s || (L.n == 0 && L.dropped == 0))
		return 0;
	int dropped = L.dropped;
	struct live_note notes[LIVE_MAX];
	int n = L.n;
	memcpy(notes, L.note, sizeof notes[0] * (size_t)n);
	L.n = L.dropped = 0;
	if (store_in_transaction(s))   /* a bug of the caller: nothing is committed yet */
		return dropped;
	sqlite3_stmt *me = NULL;
	L.taking = 1;
	for (int i = 0; i < n; i++) {
		int64_t v = 0;
		char tok[ST_POLL_TOKEN_LEN + 1];
		if (read_now(s, &me, &notes[i], &v, tok) != 0 || v < notes[i].value)
			continue;   /* gone, no listener, or rolled back */
		fn(ctx, notes[i].kind, notes[i].id, tok, v);
	}
	L.taking = 0;
	sqlite3_finalize(me);
	return dropped;
}
