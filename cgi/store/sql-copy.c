/*
 * sql-copy.c — moving a site from SQLite to PostgreSQL (`spieltisch
 * migrate`, docs/scaling.md): every row of every table of an open SQLite
 * store into a PostgreSQL database, column by column, in one transaction
 * on the target. Part of the store (internal.h); the interface is store.h.
 *
 * The statements here are built from the tables' own column lists (the
 * target's information_schema), not the registry: they run once, on one
 * engine each, and their names come from the schema, never from input. The
 * source is read through its SQLite connection (a SQLite-only feature, as
 * sql-live.c's hook); the target through a libpq connection of its own, so
 * that nothing of the app's PostgreSQL backend changes.
 *
 * The target must have its schema (store_open on it applies schema/pg/)
 * and no users and no tables yet; the rows migrations put there (id_high,
 * say) are replaced. Foreign keys are checked at the end of the
 * transaction only where a row may point to a later one (tables.rematch):
 * such a column is copied empty and filled in afterwards. Identity columns
 * continue after the highest id copied.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "internal.h"

enum { COPY_SQL_MAX = 4096, COPY_COLS_MAX = 64, BYTEA_OID = 17 };

/* Every table, in an order in which each row's references exist before it
 * (schema/pg/001_init.sql's order). A table of the source not named here
 * stops the copy: a new migration adds its table to this list. */
static const char *const copy_tables[] = {
	"users", "sessions", "login_failures", "login_known", "tables", "id_high", "seats",
	"parties", "moves", "party_results", "chat_messages", "chat_mutes", "feeds",
	"invitations", "mail_prefs", "mail_queue", "ratings", "rating_history", "tournaments",
	"tournament_players", "tournament_tables", "tournament_results",
	"tournament_standings", "me_seq",
};
enum { COPY_NTABLES = sizeof copy_tables / sizeof copy_tables[0] };
_Static_assert((int)COPY_NTABLES <= (int)ST_COPY_TABLES_MAX, "room for every table's counts");

/* A column copied empty and set afterwards: it may name a later row. */
static int is_late(const char *table, const char *col)
{
	return strcmp(table, "tables") == 0 && strcmp(col, "rematch") == 0;
}

struct copy {
	struct store *from;
	PGconn *pg;
	char *err;
	size_t cap;
	char cols[COPY_COLS_MAX][64];
	int ncols;
};

static int fail(struct copy *c, const char *what, const char *detail)
{
	snprintf(c->err, c->cap, "%s: %s", what, detail ? detail : "");
	c->err[strcspn(c->err, "\n")] = '\0';
	return ST_ERR;
}

/* Runs a statement without values on the target; ST_OK or ST_ERR. */
static int pg_run(struct copy *c, const char *sql)
{
	PGresult *r = PQexec(c->pg, sql);
	ExecStatusType st = PQresultStatus(r);
	int rc = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK ? ST_OK :
		 fail(c, sql, PQresultErrorMessage(r));
	PQclear(r);
	return rc;
}

/* One number a statement on the target answers; -1 on an error. */
static int64_t pg_number(struct copy *c, const char *sql)
{
	PGresult *r = PQexec(c->pg, sql);
	int64_t v = -1;
	if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1)
		v = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
	else
		fail(c, sql, PQresultErrorMessage(r));
	PQclear(r);
	return v;
}

/* One number a statement on the source answers; -1 on an error. */
static int64_t lite_number(struct copy *c, const char *sql)
{
	sqlite3_stmt *q = NULL;
	int64_t v = -1;
	if (sqlite3_prepare_v2(c->from->db, sql, -1, &q, NULL) == SQLITE_OK &&
	    sqlite3_step(q) == SQLITE_ROW)
		v = sqlite3_column_int64(q, 0);
	else
		fail(c, sql, sqlite3_errmsg(c->from->db));
	sqlite3_finalize(q);
	return v;
}

/* The target's columns of `table`, in their order, into c->cols. */
static int load_columns(struct copy *c, const char *table)
{
	const char *v[1] = { table };
	PGresult *r = PQexecParams(c->pg, "SELECT column_name FROM information_schema.columns"
				   " WHERE table_schema = current_schema() AND table_name = $1"
				   " ORDER BY ordinal_position", 1, NULL, v, NULL, NULL, 0);
	int rc = ST_OK;
	c->ncols = 0;
	if (PQresultStatus(r) != PGRES_TUPLES_OK)
		rc = fail(c, table, PQresultErrorMessage(r));
	else if (PQntuples(r) == 0 || PQntuples(r) > COPY_COLS_MAX)
		rc = fail(c, table, "no such table on the target");
	for (int i = 0; rc == ST_OK && i < PQntuples(r); i++)
		snprintf(c->cols[c->ncols++], sizeof c->cols[0], "%s", PQgetvalue(r, i, 0));
	PQclear(r);
	return rc;
}

/* "a, b, c" of c->cols (late ones as NULL when `select` and late_null),
 * or "$1, $2, …" when dollars. */
static void col_list(const struct copy *c, const char *table, int dollars, int late_null,
		     char *out, size_t cap)
{
	size_t n = 0;
	out[0] = '\0';
	for (int i = 0; i < c->ncols && n < cap; i++) {
		const char *sep = i ? ", " : "";
		int w = dollars ? snprintf(out + n, cap - n, "%s$%d", sep, i + 1) :
			late_null && is_late(table, c->cols[i]) ?
				  snprintf(out + n, cap - n, "%sNULL", sep) :
				  snprintf(out + n, cap - n, "%s\"%s\"", sep, c->cols[i]);
		if (w < 0)
			return;
		n += (size_t)w;
	}
}

/* Binds row q's column i for libpq: its text (numbers as text), a blob
 * binary. */
static void bind_value(sqlite3_stmt *q, int i, const char **val, int *len, int *fmt, Oid *type,
		       char num[][32])
{
	len[i] = 0;
	fmt[i] = 0;
	type[i] = 0;
	switch (sqlite3_column_type(q, i)) {
	case SQLITE_NULL:
		val[i] = NULL;
		break;
	case SQLITE_INTEGER:
		snprintf(num[i], 32, "%" PRId64, (int64_t)sqlite3_column_int64(q, i));
		val[i] = num[i];
		break;
	case SQLITE_FLOAT:
		snprintf(num[i], 32, "%.17g", sqlite3_column_double(q, i));
		val[i] = num[i];
		break;
	case SQLITE_BLOB:
		val[i] = sqlite3_column_blob(q, i);
		len[i] = sqlite3_column_bytes(q, i);
		fmt[i] = 1;
		type[i] = BYTEA_OID;
		if (!val[i])
			val[i] = "";
		break;
	default:
		val[i] = (const char *)sqlite3_column_text(q, i);
		break;
	}
}

/* Every row of `table` from the source into the target. */
static int copy_rows(struct copy *c, const char *table)
{
	char cols[COPY_SQL_MAX], sql[COPY_SQL_MAX], dollars[COPY_SQL_MAX];
	col_list(c, table, 0, 1, cols, sizeof cols);
	snprintf(sql, sizeof sql, "SELECT %s FROM \"%s\"", cols, table);
	sqlite3_stmt *q = NULL;
	if (sqlite3_prepare_v2(c->from->db, sql, -1, &q, NULL) != SQLITE_OK)
		return fail(c, sql, sqlite3_errmsg(c->from->db));
	col_list(c, table, 0, 0, cols, sizeof cols);
	col_list(c, table, 1, 0, dollars, sizeof dollars);
	snprintf(sql, sizeof sql, "INSERT INTO \"%s\" (%s) VALUES (%s)",
		 table, cols, dollars);
	const char *val[COPY_COLS_MAX];
	int len[COPY_COLS_MAX], fmt[COPY_COLS_MAX], rc = ST_OK, s;
	Oid type[COPY_COLS_MAX];
	char num[COPY_COLS_MAX][32];
	while (rc == ST_OK && (s = sqlite3_step(q)) == SQLITE_ROW) {
		for (int i = 0; i < c->ncols; i++)
			bind_value(q, i, val, len, fmt, type, num);
		PGresult *r = PQexecParams(c->pg, sql, c->ncols, type, val, len, fmt, 0);
		if (PQresultStatus(r) != PGRES_COMMAND_OK)
			rc = fail(c, table, PQresultErrorMessage(r));
		PQclear(r);
	}
	if (rc == ST_OK && s != SQLITE_DONE)
		rc = fail(c, table, sqlite3_errmsg(c->from->db));
	sqlite3_finalize(q);
	return rc;
}

/* The late columns, now that every row is there. */
static int copy_late(struct copy *c)
{
	sqlite3_stmt *q = NULL;
	const char *sql = "SELECT id, rematch FROM tables WHERE rematch IS NOT NULL";
	int rc = ST_OK, s;
	if (sqlite3_prepare_v2(c->from->db, sql, -1, &q, NULL) != SQLITE_OK)
		return fail(c, sql, sqlite3_errmsg(c->from->db));
	while (rc == ST_OK && (s = sqlite3_step(q)) == SQLITE_ROW) {
		char a[32], b[32];
		const char *v[2] = { a, b };
		snprintf(a, sizeof a, "%" PRId64, (int64_t)sqlite3_column_int64(q, 0));
		snprintf(b, sizeof b, "%" PRId64, (int64_t)sqlite3_column_int64(q, 1));
		PGresult *r = PQexecParams(c->pg, "UPDATE tables SET rematch = $2 WHERE id = $1", 2,
					   NULL, v, NULL, NULL, 0);
		if (PQresultStatus(r) != PGRES_COMMAND_OK)
			rc = fail(c, "tables.rematch", PQresultErrorMessage(r));
		PQclear(r);
	}
	if (rc == ST_OK && s != SQLITE_DONE)
		rc = fail(c, sql, sqlite3_errmsg(c->from->db));
	sqlite3_finalize(q);
	return rc;
}

/* Every table of the source is one of copy_tables. */
static int all_known(struct copy *c)
{
	sqlite3_stmt *q = NULL;
	int rc = ST_OK, s;
	const char *sql = "SELECT name FROM sqlite_master WHERE type = 'table'"
			  " AND name NOT LIKE 'sqlite_%'";
	if (sqlite3_prepare_v2(c->from->db, sql, -1, &q, NULL) != SQLITE_OK)
		return fail(c, sql, sqlite3_errmsg(c->from->db));
	while (rc == ST_OK && (s = sqlite3_step(q)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(q, 0);
		int k = 0;
		while (k < COPY_NTABLES && strcmp(copy_tables[k], name) != 0)
			k++;
		if (k == COPY_NTABLES)
			rc = fail(c, name, "a table the copy does not know (sql-copy.c, copy_tables)");
	}
	sqlite3_finalize(q);
	return rc;
}

/* Empties the target's tables (after checking it holds no site yet). */
static int empty_target(struct copy *c)
{
	char sql[COPY_SQL_MAX];
	size_t n = 0;
	if (pg_number(c, "SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM tables)") !=
	    0)
		return c->err[0] ? ST_ERR : fail(c, "the target", "holds users or tables already");
	n += (size_t)snprintf(sql, sizeof sql, "TRUNCATE");
	for (int k = 0; k < COPY_NTABLES && n < sizeof sql; k++)
		n += (size_t)snprintf(sql + n, sizeof sql - n, "%s \"%s\"", k ? "," : "",
				      copy_tables[k]);
	return pg_run(c, sql);
}

/* Identity columns go on after the highest id copied. */
static int restart_ids(struct copy *c, const char *table)
{
	char sql[512];
	snprintf(sql, sizeof sql, "SELECT setval(pg_get_serial_sequence('\"%s\"', 'id'),"
		 " coalesce(max(id), 0) + 1, false) FROM \"%s\"", table, table);
	return pg_number(c, sql) < 0 ? ST_ERR : ST_OK;
}

/* Copies one table and counts both sides. */
static int copy_table(struct copy *c, int k, struct st_copy_count *count)
{
	const char *t = copy_tables[k];
	char sql[256];
	snprintf(count->table, sizeof count->table, "%s", t);
	if (load_columns(c, t) != ST_OK || copy_rows(c, t) != ST_OK)
		return ST_ERR;
	int has_id = 0;
	for (int i = 0; i < c->ncols; i++)
		has_id |= strcmp(c->cols[i], "id") == 0;
	snprintf(sql, sizeof sql, "SELECT pg_get_serial_sequence('\"%s\"', 'id') IS NOT NULL",
		 t);
	if (has_id) {
		PGresult *r = PQexec(c->pg, sql);
		int seq = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 &&
			  strcmp(PQgetvalue(r, 0, 0), "t") == 0;
		PQclear(r);
		if (seq && restart_ids(c, t) != ST_OK)
			return ST_ERR;
	}
	snprintf(sql, sizeof sql, "SELECT count(*) FROM \"%s\"", t);
	count->from = lite_number(c, sql);
	count->to = pg_number(c, sql);
	return count->from < 0 || count->to < 0 ? ST_ERR : ST_OK;
}

int store_copy_to_postgres(struct store *from, const char *uri, struct st_copy_count *counts,
			   int *n, char *err, size_t cap)
{
	struct copy c = { .from = from, .err = err, .cap = cap };
	*n = 0;
	err[0] = '\0';
	if (!from->db)
		return fail(&c, "the source", "is not a SQLite store");
	if (all_known(&c) != ST_OK)
		return ST_ERR;
	c.pg = PQconnectdb(uri);
	if (PQstatus(c.pg) != CONNECTION_OK) {
		fail(&c, "connect", PQerrorMessage(c.pg));
		PQfinish(c.pg);
		return ST_ERR;
	}
	int rc = pg_run(&c, "BEGIN");
	if (rc == ST_OK)
		rc = empty_target(&c);
	for (int k = 0; rc == ST_OK && k < COPY_NTABLES; k++) {
		rc = copy_table(&c, k, &counts[k]);
		if (rc == ST_OK && counts[k].from != counts[k].to)
			rc = fail(&c, copy_tables[k], "the counts differ");
		*n = k + 1;
	}
	if (rc == ST_OK)
		rc = copy_late(&c);
	if (rc == ST_OK)
		rc = pg_run(&c, "COMMIT");
	else
		pg_run(&c, "ROLLBACK");
	PQfinish(c.pg);
	return rc;
}

int store_copy_table_ids(struct store *s, int64_t **ids, int *n)
{
	sqlite3_stmt *q = NULL;
	int cap = 0, rc = ST_OK, st;
	*ids = NULL;
	*n = 0;
	if (!s->db || sqlite3_prepare_v2(s->db, "SELECT id FROM tables ORDER BY id", -1, &q,
					 NULL) != SQLITE_OK)
		return ST_ERR;
	while (rc == ST_OK && (st = sqlite3_step(q)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 256;
			int64_t *p = realloc(*ids, sizeof **ids * (size_t)cap);
			if (!p) {
				rc = ST_ERR;
				break;
			}
			*ids = p;
		}
		(*ids)[(*n)++] = sqlite3_column_int64(q, 0);
	}
	if (rc == ST_OK && st != SQLITE_DONE)
		rc = ST_ERR;
	sqlite3_finalize(q);
	return rc;
}
