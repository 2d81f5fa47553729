/*
 * sql-mail.c — e-mail notices: preferences and the queue (012_mail.sql).
 *
 * Its statements are in stmt_text[] below, next to the functions that use them;
 * sql-core.c prepares them with every other file's at store_open.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

enum {
	STMT_MAIL_PREFS = ST_FIRST(ST_G_MAIL),
	STMT_MAIL_PREFS_SET,
	STMT_MAIL_OFF,
	STMT_MAIL_BY_TOKEN,
	STMT_MAIL_TURN,
	STMT_MAIL_DIGEST_DUE,
	STMT_MAIL_DIGEST_QUEUE,
	STMT_MAIL_DIGEST_NEXT,
	STMT_MAIL_DUE,
	STMT_MAIL_ACTING,
	STMT_MAIL_ACTING_TABLES,
	STMT_MAIL_DONE,
	STMT_MAIL_RETRY,
	STMT_MAIL_PURGE,
	STMT_MAIL_END
};

static const char *const stmt_text[] = {
	/* e-mail notices (012_mail.sql): a first save makes the token */
	ST_AT(STMT_MAIL_PREFS) = "SELECT address, mode, token FROM mail_prefs WHERE user_id = ?1",
	ST_AT(STMT_MAIL_PREFS_SET) =
		"INSERT INTO mail_prefs (user_id, address, mode, token) VALUES (?1, ?2, ?3, ?4)"
		" ON CONFLICT (user_id) DO UPDATE SET address = excluded.address,"
		" mode = excluded.mode",
	ST_AT(STMT_MAIL_OFF) = "UPDATE mail_prefs SET mode = 0 WHERE token = ?1 RETURNING user_id",
	ST_AT(STMT_MAIL_BY_TOKEN) =
		"SELECT address, mode, token, user_id FROM mail_prefs WHERE token = ?1",
	/* a per-turn mail only for that choice, and one queued per table at most */
	ST_AT(STMT_MAIL_TURN) =
		"INSERT INTO mail_queue (user_id, kind, table_id, created_at, next_try)"
		" SELECT ?2, 2, ?1, ?3, ?3 FROM mail_prefs WHERE user_id = ?2 AND mode = 2"
		" ON CONFLICT DO NOTHING",
	ST_AT(STMT_MAIL_DIGEST_DUE) =
		"SELECT p.user_id FROM mail_prefs p WHERE p.mode = 1 AND p.digest_at <= ?1"
		" AND EXISTS (SELECT 1 FROM seats m JOIN tables t ON t.id = m.table_id"
		" WHERE m.user_id = p.user_id AND m.done = 0 AND (t.acting >> m.seat) & 1 = 1"
		" AND (t.to_continue >> m.seat) & 1 = 0 AND m.bot = 0"
		" AND t.status = 1)"
		" ORDER BY p.digest_at LIMIT ?2",
	ST_AT(STMT_MAIL_DIGEST_QUEUE) =
		"INSERT INTO mail_queue (user_id, kind, table_id, created_at, next_try)"
		" VALUES (?1, 1, NULL, ?2, ?2) ON CONFLICT DO NOTHING",
	ST_AT(STMT_MAIL_DIGEST_NEXT) = "UPDATE mail_prefs SET digest_at = ?2 WHERE user_id = ?1",
	ST_AT(STMT_MAIL_DUE) =
		"SELECT q.id, q.user_id, coalesce(q.table_id, 0), q.kind, q.attempts, q.created_at,"
		" coalesce(p.mode, 0), u.name, coalesce(p.address, ''), coalesce(p.token, ''), u.lang"
		" FROM mail_queue q JOIN users u ON u.id = q.user_id"
		" LEFT JOIN mail_prefs p ON p.user_id = q.user_id"
		" WHERE q.state = 0 AND q.next_try <= ?1 ORDER BY q.next_try, q.id LIMIT ?2",
	ST_AT(STMT_MAIL_ACTING) =
		"SELECT count(*) FROM seats m JOIN tables t ON t.id = m.table_id WHERE m.user_id = ?1"
		" AND m.table_id = ?2 AND (t.acting >> m.seat) & 1 = 1"
		" AND (t.to_continue >> m.seat) & 1 = 0 AND m.bot = 0"
		" AND t.status = 1",
	ST_AT(STMT_MAIL_ACTING_TABLES) =
		"SELECT " TABLE_COLS ", " SEATS_TAKEN " FROM seats m JOIN tables t ON t.id = m.table_id"
		" WHERE m.user_id = ?1 AND m.done = 0 AND (t.acting >> m.seat) & 1 = 1"
		" AND (t.to_continue >> m.seat) & 1 = 0 AND m.bot = 0"
		" AND t.status = 1"
		" ORDER BY t.id LIMIT ?2",
	ST_AT(STMT_MAIL_DONE) = "UPDATE mail_queue SET state = ?2, done_at = ?3 WHERE id = ?1",
	ST_AT(STMT_MAIL_RETRY) =
		"UPDATE mail_queue SET attempts = attempts + 1, next_try = ?2 WHERE id = ?1",
	ST_AT(STMT_MAIL_PURGE) = "DELETE FROM mail_queue WHERE state <> 0 AND done_at < ?1",
};
_Static_assert(sizeof stmt_text / sizeof stmt_text[0] == STMT_MAIL_END - ST_FIRST(ST_G_MAIL),
	       "one SQL text per statement");
const struct st_stmts st_stmts_mail = ST_STMTS(stmt_text);

/* ------------------------------------------------------------------ */
/* E-mail notices (012_mail.sql)                                        */

/* Where a row of mail_prefs goes. */
struct prefs_to {
	struct st_mail_prefs *out;
	int64_t *user;   /* NULL: not read */
};

/* One row of mail_prefs (address, mode, token[, user_id]). */
static int read_prefs(void *ctx, struct st_cur *q)
{
	struct prefs_to *to = ctx;
	st_copy_col(to->out->address, sizeof to->out->address, q, 0);
	to->out->mode = st_int(q, 1);
	st_copy_col(to->out->token, sizeof to->out->token, q, 2);
	if (to->user)
		*to->user = st_int64(q, 3);
	return 0;
}

int store_mail_prefs(struct store *s, int64_t user, struct st_mail_prefs *out)
{
	struct prefs_to to = { out, NULL };
	return st_one(s, st_query(s, STMT_MAIL_PREFS, ST_ARGS(ST_INT(user))), read_prefs, &to,
		      "mail prefs");
}

int store_mail_prefs_set(struct store *s, int64_t user, const char *address, int mode,
			 const char *token)
{
	return st_run(s, STMT_MAIL_PREFS_SET, "mail prefs set", ST_ARGS(ST_INT(user),
			ST_TEXT(address), ST_INT(mode), ST_TEXT(token)));
}

int store_mail_off(struct store *s, const char *token, int64_t *user)
{
	return st_one_int64(s, st_query(s, STMT_MAIL_OFF, ST_ARGS(ST_TEXT(token))), user,
			    "mail off");
}

int store_mail_by_token(struct store *s, const char *token, int64_t *user,
			struct st_mail_prefs *out)
{
	struct prefs_to to = { out, user };
	return st_one(s, st_query(s, STMT_MAIL_BY_TOKEN, ST_ARGS(ST_TEXT(token))), read_prefs, &to,
		      "mail by token");
}

int store_mail_turn(struct store *s, int64_t table, int64_t user, int64_t now)
{
	return st_run(s, STMT_MAIL_TURN, "mail turn", ST_ARGS(ST_INT(table), ST_INT(user),
			ST_INT(now)));
}

int store_mail_digest_due(struct store *s, int64_t now, int64_t *ids, int max, int *n)
{
	return st_list_ids(s, STMT_MAIL_DIGEST_DUE, now, ids, max, n, "mail digest due");
}

int store_mail_digest_queue(struct store *s, int64_t user, int64_t now, int64_t next)
{
	struct st_cur *q = st_query(s, STMT_MAIL_DIGEST_QUEUE, ST_ARGS(ST_INT(user), ST_INT(now)));
	if (!q)
		return ST_ERR;
	int rc = st_exec(s, q, "mail digest queue");
	return rc == ST_OK ? st_update(s, STMT_MAIL_DIGEST_NEXT, user, next, "mail digest next",
					  0) : rc;
}

/* store_mail_due's rows so far. */
struct mail_rows {
	struct st_mail *out;
	int max, *n;
};

static int read_mail(void *ctx, struct st_cur *q)
{
	struct mail_rows *r = ctx;
	if (*r->n >= r->max)
		return 1;
	struct st_mail *m = &r->out[(*r->n)++];
	m->id = st_int64(q, 0);
	m->user_id = st_int64(q, 1);
	m->table_id = st_int64(q, 2);
	m->kind = st_int(q, 3);
	m->attempts = st_int(q, 4);
	m->created_at = st_int64(q, 5);
	m->mode = st_int(q, 6);
	st_copy_col(m->name, sizeof m->name, q, 7);
	st_copy_col(m->address, sizeof m->address, q, 8);
	st_copy_col(m->token, sizeof m->token, q, 9);
	st_copy_col(m->lang, sizeof m->lang, q, 10);
	return 0;
}

int store_mail_due(struct store *s, int64_t now, struct st_mail *out, int max, int *n)
{
	struct mail_rows r = { out, max, n };
	*n = 0;
	return st_each(s, st_query(s, STMT_MAIL_DUE, ST_ARGS(ST_INT(now), ST_INT(max))), read_mail,
		       &r, "mail due");
}

int store_mail_acting(struct store *s, int64_t user, int64_t table, int *yes)
{
	int64_t v = 0;
	*yes = 0;
	int rc = st_one_int64(s, st_query(s, STMT_MAIL_ACTING, ST_ARGS(ST_INT(user),
			ST_INT(table))), &v, "mail acting");
	*yes = v > 0;
	return rc;
}

int store_mail_acting_tables(struct store *s, int64_t user, int max, st_table_fn fn,
			     void *ctx)
{
	struct st_cur *q = st_query(s, STMT_MAIL_ACTING_TABLES, ST_ARGS(ST_INT(user), ST_INT(max)));
	return st_list_tables(s, q, fn, ctx, "mail acting tables");
}

int store_mail_done(struct store *s, int64_t id, int state, int64_t now)
{
	return st_run(s, STMT_MAIL_DONE, "mail done", ST_ARGS(ST_INT(id), ST_INT(state),
			ST_INT(now)));
}

int store_mail_retry(struct store *s, int64_t id, int64_t next_try)
{
	return st_update(s, STMT_MAIL_RETRY, id, next_try, "mail retry", 0);
}

int store_mail_purge(struct store *s, int64_t before)
{
	return st_run(s, STMT_MAIL_PURGE, "mail purge", ST_ARGS(ST_INT(before)));
}
