/*
 * sql-chat.c — the table chat and its mutes (008_chat.sql).
 *
 * Its statements are in stmt_text[] below, next to the functions that use them;
 * sql-core.c prepares them with every other file's at store_open.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

enum {
	STMT_CHAT_ADD = ST_FIRST(ST_G_CHAT),
	STMT_CHAT_KEEP,
	STMT_CHAT_RATE,
	STMT_CHAT_RECENT,
	STMT_CHAT_MUTE,
	STMT_CHAT_UNMUTE,
	STMT_CHAT_MUTED,
	STMT_CHAT_CARD,
	STMT_CHAT_END
};

static const char *const stmt_text[] = {
	/* the table chat (008_chat.sql) */
	ST_AT(STMT_CHAT_ADD) =
		"INSERT INTO chat_messages (table_id, user_id, text, at) VALUES (?1, ?2, ?3, ?4)",
	/* the table's row keeps that its chat has a message, for the table
	 * page (032; messages are never deleted); written once */
	ST_AT(STMT_CHAT_KEEP) = "UPDATE tables SET has_chat = 1 WHERE id = ?1 AND has_chat = 0",
	ST_AT(STMT_CHAT_RATE) =
		"SELECT count(*), coalesce(min(at), 0) FROM chat_messages"
		" WHERE table_id = ?1 AND user_id = ?2 AND at > ?3",
	ST_AT(STMT_CHAT_RECENT) =
		"SELECT c.id, c.user_id, u.name, c.at, c.text FROM chat_messages c"
		" JOIN users u ON u.id = c.user_id WHERE c.table_id = ?1 AND NOT EXISTS"
		" (SELECT 1 FROM chat_mutes m WHERE m.user_id = ?2 AND m.muted_id = c.user_id)"
		" ORDER BY c.id DESC LIMIT ?3",
	/* only an author of this table, never oneself; muting again is no error */
	ST_AT(STMT_CHAT_MUTE) =
		"INSERT INTO chat_mutes (user_id, muted_id, at) SELECT ?1, ?2, ?3"
		" WHERE ?1/*::BIGINT*/ <> ?2/*::BIGINT*/ AND EXISTS (SELECT 1 FROM chat_messages"
		" WHERE table_id = ?4 AND user_id = ?2) ON CONFLICT (user_id, muted_id) DO UPDATE SET at = excluded.at",
	ST_AT(STMT_CHAT_UNMUTE) = "DELETE FROM chat_mutes WHERE user_id = ?1 AND muted_id = ?2",
	ST_AT(STMT_CHAT_MUTED) =
		"SELECT m.muted_id, u.name, u.name_key FROM chat_mutes m JOIN users u"
		" ON u.id = m.muted_id WHERE m.user_id = ?1 AND EXISTS (SELECT 1 FROM"
		" chat_messages c WHERE c.table_id = ?2 AND c.user_id = m.muted_id) LIMIT ?3",
	/* STMT_CHAT_RECENT's rows (kind 0, the last column), then
	 * STMT_CHAT_MUTED's (kind 1: id, name, name key as columns 0, 2, 4) */
	ST_AT(STMT_CHAT_CARD) =
		"SELECT * FROM (SELECT c.id, c.user_id, u.name, c.at, c.text, 0"
		" FROM chat_messages c JOIN users u ON u.id = c.user_id WHERE c.table_id = ?1"
		" AND NOT EXISTS"
		" (SELECT 1 FROM chat_mutes m WHERE m.user_id = ?2 AND m.muted_id = c.user_id)"
		" ORDER BY c.id DESC LIMIT ?3) AS recent"
		" UNION ALL SELECT * FROM (SELECT m.muted_id, 0, u.name, 0, u.name_key, 1"
		" FROM chat_mutes m JOIN users u ON u.id = m.muted_id WHERE m.user_id = ?2"
		" AND EXISTS (SELECT 1 FROM chat_messages c WHERE c.table_id = ?1"
		" AND c.user_id = m.muted_id) LIMIT ?4) AS muted",
};
_Static_assert(sizeof stmt_text / sizeof stmt_text[0] == STMT_CHAT_END - ST_FIRST(ST_G_CHAT),
	       "one SQL text per statement");
const struct st_stmts st_stmts_chat = ST_STMTS(stmt_text);

/* ------------------------------------------------------------------ */
/* The table chat                                                      */

int store_chat_add(struct store *s, int64_t table, int64_t user, const char *text, int64_t at)
{
	int rc = st_run(s, STMT_CHAT_ADD, "chat add", ST_ARGS(ST_INT(table), ST_INT(user),
			ST_TEXT(text), ST_INT(at)));
	return rc == ST_OK ? st_run(s, STMT_CHAT_KEEP, "chat keep", ST_ARGS(ST_INT(table))) : rc;
}

/* store_chat_rate's answer. */
struct chat_rate {
	int *count;
	int64_t *oldest;
};

static int read_rate(void *ctx, struct st_cur *q)
{
	struct chat_rate *r = ctx;
	*r->count = st_int(q, 0);
	*r->oldest = st_int64(q, 1);
	return 0;
}

int store_chat_rate(struct store *s, int64_t table, int64_t user, int64_t after, int *count,
		    int64_t *oldest)
{
	struct chat_rate r = { count, oldest };
	int rc = st_one(s, st_query(s, STMT_CHAT_RATE, ST_ARGS(ST_INT(table), ST_INT(user),
			ST_INT(after))), read_rate, &r, "chat rate");
	return rc == ST_NOTFOUND ? st_fail(s, "chat rate") : rc;   /* an aggregate has its row */
}

/* store_chat_recent's caller. */
struct chat_to {
	st_chat_fn fn;
	void *ctx;
};

static int read_chat(void *ctx, struct st_cur *q)
{
	struct chat_to *to = ctx;
	struct st_chat m;
	m.id = st_int64(q, 0);
	m.user_id = st_int64(q, 1);
	st_copy_col(m.author, sizeof m.author, q, 2);
	m.at = st_int64(q, 3);
	st_copy_col(m.text, sizeof m.text, q, 4);
	to->fn(to->ctx, &m);
	return 0;
}

int store_chat_recent(struct store *s, int64_t table, int64_t viewer, int limit, st_chat_fn fn,
		      void *ctx)
{
	struct chat_to to = { fn, ctx };
	return st_each(s, st_query(s, STMT_CHAT_RECENT, ST_ARGS(ST_INT(table), ST_INT(viewer),
			ST_INT(limit))), read_chat, &to, "chat recent");
}

int store_chat_mute(struct store *s, int64_t table, int64_t user, int64_t muted, int on,
		    int64_t at)
{
	struct st_cur *q = st_query(s, on ? STMT_CHAT_MUTE : STMT_CHAT_UNMUTE, ST_ARGS(ST_INT(user),
			ST_INT(muted)));
	if (!q)
		return ST_ERR;
	if (on) {
		st_bind_int64(q, 3, at);
		st_bind_int64(q, 4, table);
		return st_change_row(s, q, "chat mute");
	}
	return st_exec(s, q, "chat unmute");
}

/* One muted writer, sorted by name in C (store_chat_muted). */
struct muted_row {
	int64_t id;
	char name[ST_NAME_MAX + 1], key[ST_NAME_MAX + 1];
};

/* store_chat_muted's rows so far. */
struct muted_rows {
	struct muted_row *row;
	int n, max;
};

static int read_muted(void *ctx, struct st_cur *q)
{
	struct muted_rows *m = ctx;
	struct muted_row *r = &m->row[m->n++];
	r->id = st_int64(q, 0);
	st_copy_col(r->name, sizeof r->name, q, 1);
	st_copy_col(r->key, sizeof r->key, q, 2);
	return m->n >= m->max;
}

static int by_name_key(const void *a, const void *b)
{
	return strcmp(((const struct muted_row *)a)->key, ((const struct muted_row *)b)->key);
}

/* The rows come unsorted and are sorted here: an ORDER BY made SQLite set
 * up a sorter even for the usual empty answer, on every table page a
 * signed-in viewer sees (docs/benchmarks.md, "Figures from the code's
 * comments"). Only the table's players write there, so MUTED_MAX rows hold
 * every answer. */
int store_chat_muted(struct store *s, int64_t table, int64_t user, int limit, st_muted_fn fn,
		     void *ctx)
{
	enum { MUTED_MAX = 64 };
	struct muted_row rows[MUTED_MAX];
	struct muted_rows m = { rows, 0, MUTED_MAX };
	int rc = st_each(s, st_query(s, STMT_CHAT_MUTED, ST_ARGS(ST_INT(user), ST_INT(table),
			ST_INT(MUTED_MAX))), read_muted, &m, "chat muted");
	if (rc != ST_OK)
		return rc;
	qsort(rows, (size_t)m.n, sizeof rows[0], by_name_key);
	for (int i = 0; i < m.n && i < limit; i++)
		fn(ctx, rows[i].id, rows[i].name);
	return ST_OK;
}

/* store_chat_card's rows: the messages go on at once, the muted wait. */
struct card_rows {
	struct chat_to to;
	struct muted_rows m;
};

static int read_card(void *ctx, struct st_cur *q)
{
	struct card_rows *c = ctx;
	if (st_int(q, 5) == 0)
		return read_chat(&c->to, q);
	if (c->m.n >= c->m.max)
		return 0;
	struct muted_row *r = &c->m.row[c->m.n++];
	r->id = st_int64(q, 0);
	st_copy_col(r->name, sizeof r->name, q, 2);
	st_copy_col(r->key, sizeof r->key, q, 4);
	return 0;
}

int store_chat_card(struct store *s, int64_t table, int64_t viewer, int limit, st_chat_fn fn,
		    st_muted_fn muted, void *ctx)
{
	enum { MUTED_MAX = 64 };
	struct muted_row rows[MUTED_MAX];
	struct card_rows c = { { fn, ctx }, { rows, 0, MUTED_MAX } };
	int rc = st_each(s, st_query(s, STMT_CHAT_CARD, ST_ARGS(ST_INT(table), ST_INT(viewer),
			ST_INT(limit), ST_INT(MUTED_MAX))), read_card, &c, "chat card");
	if (rc != ST_OK)
		return rc;
	qsort(rows, (size_t)c.m.n, sizeof rows[0], by_name_key);
	for (int i = 0; i < c.m.n && i < limit; i++)
		muted(ctx, rows[i].id, rows[i].name);
	return ST_OK;
}
