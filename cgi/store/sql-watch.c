/*
 * sql-watch.c — who may watch a running table (027_spectators.sql): the
 * table option "Zuschauer erlaubt" and the lobby's list of running tables
 * to watch. Part of the store (internal.h); the interface is store.h.
 */
#include <string.h>

#include "internal.h"

enum {
	STMT_SPECTATORS_SET = ST_FIRST(ST_G_WATCH),
	STMT_SPECTATORS_GET,
	STMT_TABLES_WATCHABLE,
	STMT_WATCH_END
};

static const char *const stmt_text[] = {
	ST_AT(STMT_SPECTATORS_SET) = "UPDATE tables SET spectators = ?2 WHERE id = ?1",
	ST_AT(STMT_SPECTATORS_GET) = "SELECT spectators FROM tables WHERE id = ?1",
	ST_AT(STMT_TABLES_WATCHABLE) =
		"SELECT " TABLE_COLS ", " SEATS_TAKEN " FROM tables t"
		" WHERE t.status = 1 AND t.spectators = 1 ORDER BY t.id DESC LIMIT ?1",
};
_Static_assert(sizeof stmt_text / sizeof stmt_text[0] == STMT_WATCH_END - ST_FIRST(ST_G_WATCH),
	       "one SQL text per statement");
const struct st_stmts st_stmts_watch = ST_STMTS(stmt_text);

int store_table_spectators_set(struct store *s, int64_t table, int on)
{
	return st_update(s, STMT_SPECTATORS_SET, table, on ? 1 : 0, "spectators set", 1);
}

int store_table_spectators(struct store *s, int64_t table, int *on)
{
	int64_t v = 1;
	struct st_cur *q = st_query(s, STMT_SPECTATORS_GET, ST_ARGS(ST_INT(table)));
	int rc = q ? st_one_int64(s, q, &v, "spectators") : ST_ERR;
	*on = v != 0;
	return rc;
}

int store_tables_watchable(struct store *s, int limit, st_table_fn fn, void *ctx)
{
	struct st_cur *q = st_query(s, STMT_TABLES_WATCHABLE, ST_ARGS(ST_INT(limit)));
	return st_list_tables(s, q, fn, ctx, "tables watchable");
}
