/*
 * sql-pg.c — the PostgreSQL backend behind the store's seam (internal.h):
 * a store opened on a postgresql:// connection string (docs/storage.md,
 * "PostgreSQL").
 *
 * The statements are the files' stmt_text[], written for SQLite and turned
 * into PostgreSQL's by st_pg_text (dialect.h) once per connection, each
 * prepared (PQprepare) at its first use on the connection (st_pg_prepare).
 * Values are always bound as parameters: numbers and text in text form,
 * blobs in binary; results come back in text form and the cursor's readers
 * (st_int, st_text, …) convert them. Write transactions are READ
 * COMMITTED behind locks taken at BEGIN (docs/scaling.md, "The write
 * locks"): store_begin takes the site's advisory lock exclusive, so its
 * writers queue as they do on SQLite (BEGIN IMMEDIATE and the lock file);
 * store_begin_table takes it shared and then its table's row FOR UPDATE,
 * so only the writers of one table queue, and a table's end takes the
 * cross-table lock (store_lock_cross) before the ratings and tournaments.
 * Behind the lock a writer reads what the writers before it committed, and
 * the first of two to commit wins, the second then reads the change
 * (ST_CONFLICT from the version it expected, as on SQLite). Every wait is
 * bounded as SQLite's busy timeout is (lock_timeout): ST_BUSY past it, and
 * on a deadlock or a serialization failure, the transaction rolled back.
 * A read transaction is one snapshot (REPEATABLE READ).
 *
 * Migrations are schema/pg/NNN_name.sql, numbered as SQLite's; each one
 * missing from the table schema_migrations is applied at open, in order,
 * in a transaction of its own that records it (PostgreSQL has no
 * user_version), under the same lock, so two processes starting together
 * apply each one once.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "dialect.h"
#include "internal.h"

enum {
	PG_PARAMS = 32,             /* the most values a statement binds ($1 … $32) */
	PG_SQL_MAX = 16384,         /* a statement's text, translated */
	PG_MIGRATION_MAX = 1 << 20, /* a migration file's bytes */
	PG_STEP_ERR = 1,            /* a step that failed (not ST_ROW, not ST_DONE) */
	PG_QUEUE_MAX = 32,          /* the writes sent on without waiting, at most */
	/* pg_type.oid of the types values are bound as */
	BYTEA_OID = 17, INT8_OID = 20, TEXT_OID = 25, FLOAT8_OID = 701
};

/* The site's writer lock and the migrations' lock: one key ("Spie"), held
 * to the transaction's end; store_begin() takes it exclusive. A table's
 * writer (store_begin_table) takes it shared, then its table's row FOR
 * UPDATE (in this order: a site writer that waits for the table writers
 * holds no row they wait for); a table's end (store_lock_cross) then takes
 * the cross-table key ("Spif") exclusive. */
#define LOCK_SQL "SELECT pg_advisory_xact_lock(1399875941)"
#define LOCK_TABLE_SQL "SELECT pg_advisory_xact_lock_shared(1399875941)," \
	" (SELECT 1 FROM tables WHERE id = $1 FOR UPDATE)"
#define LOCK_CROSS_SQL "SELECT pg_advisory_xact_lock(1399875942)"
#define READ_BEGIN_SQL "BEGIN ISOLATION LEVEL REPEATABLE READ"
enum { SCOPE_NONE, SCOPE_SITE, SCOPE_TABLE, SCOPE_CROSS };

/* One statement's values and result (a cursor's PostgreSQL side). */
struct st_pgq {
	char name[16];                 /* the prepared statement's name */
	char *sql;                     /* its text, translated; NULL once prepared */
	int nparams;                   /* $1 … $nparams */
	Oid type[PG_PARAMS];           /* the values' types at the first use (0: let the server say) */
	const char *val[PG_PARAMS];    /* NULL: SQL NULL (unbound, as on SQLite) */
	int len[PG_PARAMS], fmt[PG_PARAMS];
	char *own[PG_PARAMS];          /* copies of text and blobs */
	char num[PG_PARAMS][32];       /* numbers, as text */
	PGresult *res;                 /* after the first step, until st_done */
	int row, rows;
	char live;                     /* 't', 'm', 'g': an UPDATE the live channels follow */
	char queue;                    /* a write sent on without waiting (queueable) */
	unsigned char *blob;           /* the bytea last decoded (PQunescapeBytea) */
	size_t blob_len;
	int blob_row, blob_col;
};

struct st_pg {
	PGconn *conn;
	int err;              /* the last failure: ST_EXISTS (a unique key), ST_BUSY, ST_FULL, ST_ERR */
	char msg[512];        /* and its message */
	int64_t changes;      /* rows the last statement wrote */
	int64_t last_id;      /* the id the last INSERT … RETURNING gave, 0 none */
	int scope;            /* the write transaction's locks: SCOPE_* */
	int locks_ready;      /* LOCK_TABLE_SQL and LOCK_CROSS_SQL prepared */
	int tracing;          /* SPIELTISCH_SQL_TRACE=1 */
	int queued;           /* writes sent in the pipeline, their results not read */
	int read_due;         /* a read's BEGIN, to go with its first statement (st_pg_begin) */
	int reading;          /* inside a read transaction (st_pg_begin without write) */
	int read_wrote;       /* and a statement in it wrote: its end is waited for */
	int end_sent;         /* a read's ROLLBACK or COMMIT sent, its answer not read yet */
	char queued_live[PG_QUEUE_MAX]; /* and their st_pgq.live */
	char id_tables[1024]; /* " name name … ": the tables with a column id (at open) */
};

int st_is_pg_uri(const char *db)
{
	return strncmp(db, "postgresql://", 13) == 0 || strncmp(db, "postgres://", 11) == 0;
}

int store_is_postgres(const char *db_path)
{
	return st_is_pg_uri(db_path);
}

/* ------------------------------------------------------------------ */
/* Errors                                                              */

/* Keeps a failed result's class and message (the SQLSTATE decides). */
static void note_error(struct st_pg *p, const PGresult *res)
{
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	const char *m = res ? PQresultErrorMessage(res) : "";
	if (!m || !*m)
		m = PQerrorMessage(p->conn);
	snprintf(p->msg, sizeof p->msg, "%s", m ? m : "failed");
	size_t n = strlen(p->msg);
	while (n > 0 && (p->msg[n - 1] == '\n' || p->msg[n - 1] == ' '))
		p->msg[--n] = '\0';
	p->err = ST_ERR;
	if (!state)
		return;
	if (strcmp(state, "23505") == 0)
		p->err = ST_EXISTS;            /* unique_violation */
	else if (strcmp(state, "40001") == 0 || strcmp(state, "40P01") == 0 ||
		 strcmp(state, "55P03") == 0 || strcmp(state, "57014") == 0)
		p->err = ST_BUSY;              /* serialization, deadlock, lock timeout, cancel */
	else if (strcmp(state, "53100") == 0)
		p->err = ST_FULL;              /* disk full */
}

int st_pg_fail(struct store *s, const char *what)
{
	fprintf(stderr, "store: %s: %s\n", what, s->pg->msg);
	return s->pg->err == ST_EXISTS ? ST_ERR : s->pg->err;
}

int st_pg_unique(const struct store *s)
{
	return s->pg->err == ST_EXISTS;
}

const char *st_pg_errmsg(const struct store *s)
{
	return s->pg->msg;
}

/* Runs a text without values (BEGIN, COMMIT, a migration): ST_OK or the
 * error, kept and logged as `what`. */
static int flush_queue(struct store *s, int commit);
static void settle(struct store *s);

static int exec_plain(struct store *s, const char *sql, const char *what)
{
	settle(s);
	if (s->pg->queued && flush_queue(s, 0) != ST_OK)
		return st_pg_fail(s, "queued write");
	if (s->pg->tracing)
		fprintf(stderr, "sql: %s\n", sql);
	PGresult *r = PQexec(s->pg->conn, sql);
	ExecStatusType st = PQresultStatus(r);
	int rc = ST_OK;
	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK && st != PGRES_EMPTY_QUERY) {
		note_error(s->pg, r);
		rc = st_pg_fail(s, what);
	}
	PQclear(r);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Statements                                                          */

/* The highest $N of a translated text (its parameters). */
static int count_params(const char *sql)
{
	int high = 0;
	char quote = 0;
	for (const char *p = sql; *p; p++) {
		if (quote) {
			quote = *p == quote ? 0 : quote;
		} else if (*p == '\'' || *p == '"') {
			quote = *p;
		} else if (*p == '$' && p[1] >= '0' && p[1] <= '9') {
			int v = 0;
			while (p[1] >= '0' && p[1] <= '9')
				v = v * 10 + (*++p - '0');
			high = v > high ? v : high;
		}
	}
	return high;
}

/* Appends more to the text in sql (cap bytes); 0 when it does not fit. */
static int append(char *sql, size_t cap, const char *more)
{
	size_t n = strlen(sql), m = strlen(more);
	if (n + m >= cap)
		return 0;
	memcpy(sql + n, more, m + 1);
	return 1;
}

/* An INSERT into a table with a column id says RETURNING id, when its text
 * does not say RETURNING already: st_last_id's answer (SQLite's
 * last_insert_rowid, which PostgreSQL has no counterpart of). */
static void returning_id(const struct st_pg *p, char *sql, size_t cap)
{
	static const char ins[] = "INSERT INTO ";
	char name[80] = " ";
	size_t n = 1;
	if (strncmp(sql, ins, sizeof ins - 1) != 0 || strstr(sql, "RETURNING"))
		return;
	for (const char *c = sql + sizeof ins - 1; *c && *c != ' ' && *c != '(' &&
						  n < sizeof name - 2; c++)
		name[n++] = *c;
	name[n++] = ' ';
	name[n] = '\0';
	if (strstr(p->id_tables, name))
		append(sql, cap, " RETURNING id");
}

/* The tables that have a column id, into p->id_tables. */
static int load_id_tables(struct store *s)
{
	struct st_pg *p = s->pg;
	PGresult *r = PQexec(p->conn, "SELECT table_name FROM information_schema.columns"
			     " WHERE column_name = 'id' AND table_schema = current_schema()");
	int rc = ST_OK;
	if (PQresultStatus(r) != PGRES_TUPLES_OK) {
		note_error(p, r);
		rc = st_pg_fail(s, "id tables");
	} else {
		size_t n = 1;
		p->id_tables[0] = ' ';
		for (int i = 0; i < PQntuples(r); i++) {
			int w = snprintf(p->id_tables + n, sizeof p->id_tables - n, "%s ",
					 PQgetvalue(r, i, 0));
			if (w < 0 || (size_t)w >= sizeof p->id_tables - n)
				break;
			n += (size_t)w;
		}
	}
	PQclear(r);
	return rc;
}

/* The numbers the live channels follow (sql-live.c), by table. SQLite's
 * pre-update hook sees each row's number before and after a write; here an
 * UPDATE of one of these tables without RETURNING is made to return, per
 * row, its key, the number after, and the number before (a subquery in
 * RETURNING reads the statement's own snapshot: the row as it was), and
 * st_pg_step notes the rows whose number changed (st_live_note). */
static const struct {
	const char *table, *key, *col;
	char kind;
} live_cols[] = {
	{ "tables", "id", "public_version", 't' },
	{ "me_seq", "user_id", "seq", 'm' },
	{ "tournaments", "id", "version", 'g' },
};

static char live_rewrite(char *sql, size_t cap)
{
	static const char upd[] = "UPDATE ";
	if (strncmp(sql, upd, sizeof upd - 1) != 0 || strstr(sql, "RETURNING"))
		return 0;
	const char *p = sql + sizeof upd - 1;
	for (size_t i = 0; i < sizeof live_cols / sizeof live_cols[0]; i++) {
		const char *tb = live_cols[i].table, *key = live_cols[i].key,
			   *col = live_cols[i].col;
		size_t n = strlen(tb);
		if (strncmp(p, tb, n) != 0 || p[n] != ' ')
			continue;
		char ref[32], extra[256];
		const char *a = p + n + 1;
		size_t k = 0;
		if (strncmp(a, "SET ", 4) == 0)
			snprintf(ref, sizeof ref, "%s", tb);
		else
			while (a[k] && a[k] != ' ' && k < sizeof ref - 1)
				ref[k] = a[k], k++;
		if (k)
			ref[k] = '\0';
		int w = snprintf(extra, sizeof extra,
				 " RETURNING %s.%s, %s.%s, (SELECT o_.%s FROM %s o_ WHERE o_.%s = %s.%s)",
				 ref, key, ref, col, col, tb, key, ref, key);
		if (w < 0 || (size_t)w >= sizeof extra || !append(sql, cap, extra))
			return 0;
		return live_cols[i].kind;
	}
	return 0;
}

/* Whether a write's answer may wait for the commit (st_pg_step): the /me
 * rows' numbers that a step raises (sql-me.c), one statement per seated
 * user, whose callers read no count of rows. Inside a write transaction
 * they are sent on in libpq's pipeline without waiting, and their answers
 * read with the next statement's or the COMMIT's: a move at four seats
 * waits for one round trip where it waited for five. A failure among them
 * fails the transaction as before (PostgreSQL skips the rest, COMMIT
 * answers ROLLBACK). */
static int queueable(const char *sql)
{
	static const char me[] = "UPDATE me_seq SET seq = seq + ";
	return strncmp(sql, me, sizeof me - 1) == 0;
}

/* Translates statement id for the connection; it is prepared (PQprepare)
 * at its first use, with the types of the values bound then: the server
 * cannot always tell a value's type from the text alone (SQLite has none),
 * and a statement binds the same kinds of values every time (ST_ARGS). */
int st_pg_prepare(struct store *s, int id)
{
	static char sql[PG_SQL_MAX];
	struct st_cur *c = &s->cur[id];
	if (!st_pg_text(st_sql(id), sql, sizeof sql)) {
		fprintf(stderr, "store: statement too long for PostgreSQL: %s\n", st_sql(id));
		return ST_ERR;
	}
	struct st_pgq *q = c->pg ? c->pg : calloc(1, sizeof *q);
	if (!q)
		return ST_ERR;
	snprintf(q->name, sizeof q->name, "s%d", id);
	returning_id(s->pg, sql, sizeof sql);
	q->live = live_rewrite(sql, sizeof sql);
	q->queue = queueable(sql);
	q->nparams = count_params(sql);
	free(q->sql);
	q->sql = strdup(sql);
	if (q->nparams > PG_PARAMS || !q->sql) {
		fprintf(stderr, "store: more than %d values: %s\n", PG_PARAMS, sql);
		free(q->sql);
		free(q);
		c->pg = NULL;
		return ST_ERR;
	}
	c->pg = q;
	return ST_OK;
}

/* Prepares q on the connection at its first use. */
static int prepare_now(struct st_pg *p, struct st_pgq *q)
{
	PGresult *r = PQprepare(p->conn, q->name, q->sql, q->nparams, q->type);
	int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
	if (!ok) {
		note_error(p, r);
		fprintf(stderr, "store: prepare %s: %s\n", q->sql, p->msg);
	} else {
		free(q->sql);
		q->sql = NULL;
	}
	PQclear(r);
	return ok;
}

void st_pg_bind(struct st_cur *c, int i, const struct st_arg *a)
{
	struct st_pgq *q = c->pg;
	if (i < 1 || i > q->nparams)
		return;   /* as SQLite: a value for no placeholder is not bound */
	int k = i - 1;
	free(q->own[k]);
	q->own[k] = NULL;
	q->val[k] = NULL;
	q->len[k] = 0;
	q->fmt[k] = 0;
	switch (a->kind) {
	case ST_KINT:
		snprintf(q->num[k], sizeof q->num[k], "%lld", (long long)a->i);
		q->val[k] = q->num[k];
		if (q->sql)
			q->type[k] = INT8_OID;
		break;
	case ST_KREAL:
		snprintf(q->num[k], sizeof q->num[k], "%.17g", a->d);
		q->val[k] = q->num[k];
		if (q->sql)
			q->type[k] = FLOAT8_OID;
		break;
	case ST_KTEXT:
		q->val[k] = q->own[k] = strdup(a->p ? a->p : "");
		if (q->sql)
			q->type[k] = TEXT_OID;
		break;
	case ST_KBLOB:
		if (q->sql)
			q->type[k] = BYTEA_OID;
		q->own[k] = malloc(a->n > 0 ? (size_t)a->n : 1);
		if (q->own[k] && a->n > 0)
			memcpy(q->own[k], a->p, (size_t)a->n);
		q->val[k] = q->own[k];
		q->len[k] = a->n;
		q->fmt[k] = 1;
		break;
	case ST_KNULL:
	case ST_KEND:
		break;
	}
}

void st_pg_done(struct st_cur *c)
{
	struct st_pgq *q = c->pg;
	PQclear(q->res);
	q->res = NULL;
	q->row = q->rows = 0;
	for (int k = 0; k < q->nparams; k++) {
		free(q->own[k]);
		q->own[k] = NULL;
		q->val[k] = NULL;
	}
	PQfreemem(q->blob);
	q->blob = NULL;
}

/* The rows of a followed UPDATE (live: its kind) whose number changed,
 * to sql-live.c. */
static void note_live(struct store *s, char live, const PGresult *res)
{
	int rows = PQntuples(res);
	for (int r = 0; r < rows; r++) {
		const char *after = PQgetvalue(res, r, 1), *before = PQgetvalue(res, r, 2);
		if (PQgetisnull(res, r, 2) || strcmp(after, before) != 0)
			st_live_note(s, live, strtoll(PQgetvalue(res, r, 0), NULL, 10),
				     strtoll(after, NULL, 10));
	}
}

/* One queued answer (or COMMIT's, is_commit), to its end (NULL): rc, or
 * the first failure's. */
static int queued_result(struct store *s, char live, int is_commit, int rc)
{
	PGresult *r;
	while ((r = PQgetResult(s->pg->conn)) != NULL) {
		ExecStatusType st = PQresultStatus(r);
		if (st == PGRES_TUPLES_OK && live && !is_commit) {
			note_live(s, live, r);
		} else if (rc == ST_OK && st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
			note_error(s->pg, r);
			rc = s->pg->err == ST_EXISTS ? ST_ERR : s->pg->err;
		} else if (rc == ST_OK && is_commit && strcmp(PQcmdStatus(r), "COMMIT") != 0) {
			snprintf(s->pg->msg, sizeof s->pg->msg, "the transaction had failed");
			s->pg->err = rc = ST_ERR;
		}
		PQclear(r);
	}
	return rc;
}

/* Sends COMMIT too (commit), then a sync, and reads the queued writes'
 * answers (sql-live.c's notes of them), then COMMIT's: ST_OK or the first
 * failure's (kept, not logged). Leaves the pipeline. */
static int flush_queue(struct store *s, int commit)
{
	struct st_pg *p = s->pg;
	int rc = ST_OK;
	if ((commit && !PQsendQueryParams(p->conn, "COMMIT", 0, NULL, NULL, NULL, NULL, 0)) ||
	    !PQpipelineSync(p->conn)) {
		snprintf(p->msg, sizeof p->msg, "%s", PQerrorMessage(p->conn));
		p->err = rc = ST_ERR;
		commit = 0;
	}
	for (int i = 0; i < p->queued; i++)
		rc = queued_result(s, p->queued_live[i], 0, rc);
	if (commit)
		rc = queued_result(s, 0, 1, rc);
	PGresult *r;
	while ((r = PQgetResult(p->conn)) != NULL) {   /* the sync */
		ExecStatusType st = PQresultStatus(r);
		PQclear(r);
		if (st == PGRES_PIPELINE_SYNC)
			break;
	}
	p->queued = 0;
	if (!PQexitPipelineMode(p->conn) && rc == ST_OK) {
		snprintf(p->msg, sizeof p->msg, "%s", PQerrorMessage(p->conn));
		p->err = rc = ST_ERR;
	}
	return rc;
}

/* Sends q on in the pipeline (queueable, inside a write transaction):
 * 1 when sent, 0 when it is to run as any statement. */
static int send_queued(struct store *s, struct st_pgq *q)
{
	struct st_pg *p = s->pg;
	if (p->queued == PG_QUEUE_MAX && flush_queue(s, 0) != ST_OK)
		return 0;   /* (the transaction failed: the statement says so again) */
	if (!p->queued && !PQenterPipelineMode(p->conn))
		return 0;
	if (!PQsendQueryPrepared(p->conn, q->name, q->nparams, q->val, q->len, q->fmt, 0)) {
		if (!p->queued)
			PQexitPipelineMode(p->conn);
		return 0;
	}
	p->queued_live[p->queued++] = q->live;
	p->changes = 0;
	return 1;
}

static PGresult *read_begin_with(struct st_pg *p, const struct st_pgq *q);

/* The first step runs the statement; each step stands on the next row. */
int st_pg_step(struct store *s, struct st_cur *c)
{
	struct st_pgq *q = c->pg;
	struct st_pg *p = s->pg;
	settle(s);
	if (!q->res) {
		if (q->queue && !q->sql && p->scope != SCOPE_NONE && send_queued(s, q)) {
			if (p->tracing)
				fprintf(stderr, "sql: %s (queued)\n", st_sql((int)(c - s->cur)));
			q->row = q->rows = 0;
			return ST_DONE;
		}
		if (p->queued && flush_queue(s, 0) != ST_OK)
			return PG_STEP_ERR;
		if (q->sql && !prepare_now(p, q))
			return PG_STEP_ERR;
		if (p->tracing)
			fprintf(stderr, "sql: %s\n", st_sql((int)(c - s->cur)));
		q->res = p->read_due ? read_begin_with(p, q) :
			 PQexecPrepared(p->conn, q->name, q->nparams, q->val, q->len, q->fmt, 0);
		ExecStatusType st = PQresultStatus(q->res);
		q->row = -1;
		q->rows = 0;
		if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK) {
			note_error(p, q->res);
			return PG_STEP_ERR;
		}
		q->rows = PQntuples(q->res);
		p->changes = strtoll(PQcmdTuples(q->res), NULL, 10);
		if (p->reading && strncmp(PQcmdStatus(q->res), "SELECT", 6) != 0)
			p->read_wrote = 1;
		if (q->rows > 0 && PQnfields(q->res) > 0 &&
		    strncmp(PQcmdStatus(q->res), "INSERT", 6) == 0)
			p->last_id = strtoll(PQgetvalue(q->res, 0, 0), NULL, 10);
		if (q->live)
			note_live(s, q->live, q->res);
	}
	if (q->row + 1 < q->rows) {
		q->row++;
		return ST_ROW;
	}
	q->row = q->rows;
	return ST_DONE;
}

int64_t st_pg_changes(const struct store *s)
{
	return s->pg->changes;
}

/* The id of the row the last INSERT made: its statement returns it
 * (RETURNING id), PostgreSQL keeping no such number for a connection. */
int64_t st_pg_last_id(struct store *s)
{
	if (!s->pg->last_id)
		fprintf(stderr, "store: an INSERT whose id is asked for must say RETURNING id\n");
	return s->pg->last_id;
}

/* ------------------------------------------------------------------ */
/* A row's columns                                                     */

/* The value at col of the row q stands on; NULL for SQL NULL or no row. */
static const char *value(const struct st_cur *c, int col)
{
	const struct st_pgq *q = c->pg;
	if (!q->res || q->row < 0 || q->row >= q->rows || col < 0 || col >= PQnfields(q->res) ||
	    PQgetisnull(q->res, q->row, col))
		return NULL;
	return PQgetvalue(q->res, q->row, col);
}

int64_t st_pg_col_int64(const struct st_cur *c, int col)
{
	const char *v = value(c, col);
	if (!v)
		return 0;
	if (*v == 't' || *v == 'f')   /* a boolean */
		return *v == 't';
	return strtoll(v, NULL, 10);
}

double st_pg_col_double(const struct st_cur *c, int col)
{
	const char *v = value(c, col);
	return v ? strtod(v, NULL) : 0;
}

const unsigned char *st_pg_col_text(const struct st_cur *c, int col)
{
	return (const unsigned char *)value(c, col);
}

/* A bytea column decoded (once per row and column) into q->blob. */
static int decode_bytea(struct st_cur *c, int col)
{
	struct st_pgq *q = c->pg;
	if (q->blob && q->blob_row == q->row && q->blob_col == col)
		return 1;
	const char *v = value(c, col);
	PQfreemem(q->blob);
	q->blob = NULL;
	if (!v)
		return 0;
	q->blob = PQunescapeBytea((const unsigned char *)v, &q->blob_len);
	q->blob_row = q->row;
	q->blob_col = col;
	return q->blob != NULL;
}

static int is_bytea(const struct st_cur *c, int col)
{
	const struct st_pgq *q = c->pg;
	return q->res && col >= 0 && col < PQnfields(q->res) && PQftype(q->res, col) == BYTEA_OID;
}

const void *st_pg_col_blob(struct st_cur *c, int col)
{
	if (is_bytea(c, col))
		return decode_bytea(c, col) ? c->pg->blob : NULL;
	return value(c, col);
}

int st_pg_col_bytes(struct st_cur *c, int col)
{
	if (is_bytea(c, col))
		return decode_bytea(c, col) ? (int)c->pg->blob_len : 0;
	const char *v = value(c, col);
	return v ? PQgetlength(c->pg->res, c->pg->row, col) : 0;
}

int st_pg_col_null(const struct st_cur *c, int col)
{
	return value(c, col) == NULL;
}

int st_pg_col_count(const struct st_cur *c)
{
	return c->pg->res ? PQnfields(c->pg->res) : 0;
}

/* ------------------------------------------------------------------ */
/* Transactions                                                        */

/* A read transaction's round trips (docs/benchmarks.md, "PostgreSQL: where
 * a read's CPU goes, and its round trips"): its BEGIN is not sent alone but
 * in one pipeline with its first statement (read_begin_with), and its end
 * (ROLLBACK, or COMMIT when nothing in it wrote) is sent without waiting for
 * the answer, which is read at the connection's next use (settle). A read
 * of the table page waits for two answers where it waited for four. */
int st_pg_begin(struct store *s, int write)
{
	settle(s);
	if (!write && PQtransactionStatus(s->pg->conn) != PQTRANS_IDLE)
		return exec_plain(s, READ_BEGIN_SQL, "begin read");   /* (as before: a warning) */
	if (!write) {
		if (s->pg->tracing)
			fprintf(stderr, "sql: %s (with the next statement)\n", READ_BEGIN_SQL);
		s->pg->read_due = s->pg->reading = 1;
		s->pg->read_wrote = 0;
		return ST_OK;
	}
	int rc = exec_plain(s, "BEGIN", "begin");
	if (rc != ST_OK)
		return rc;
	if ((rc = exec_plain(s, LOCK_SQL, "writer lock")) != ST_OK) {
		exec_plain(s, "ROLLBACK", "rollback");
		return rc;
	}
	s->pg->scope = SCOPE_SITE;
	return ST_OK;
}

/* The table and cross-table locks as statements of the connection. */
static int prepare_locks(struct store *s)
{
	static const char *const sql[2] = { LOCK_TABLE_SQL, LOCK_CROSS_SQL };
	static const char *const name[2] = { "lock_t", "lock_x" };
	static const Oid int8[1] = { INT8_OID };
	for (int i = 0; i < 2; i++) {
		PGresult *r = PQprepare(s->pg->conn, name[i], sql[i], i == 0, int8);
		int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
		if (!ok)
			note_error(s->pg, r);
		PQclear(r);
		if (!ok)
			return st_pg_fail(s, "prepare the locks");
	}
	s->pg->locks_ready = 1;
	return ST_OK;
}

/* The results of one statement sent in the pipeline, up to its end (NULL):
 * rc, or the first failure's, kept and logged as `what`. */
static int pipeline_results(struct store *s, int rc, const char *what)
{
	PGresult *r;
	while ((r = PQgetResult(s->pg->conn)) != NULL) {
		ExecStatusType st = PQresultStatus(r);
		if (rc == ST_OK && st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
			note_error(s->pg, r);
			rc = st_pg_fail(s, what);
		}
		PQclear(r);
	}
	return rc;
}

/* The results up to the pipeline's sync, dropped; leaves the pipeline. */
static void pipeline_end(struct st_pg *p)
{
	PGresult *r;
	while ((r = PQgetResult(p->conn)) != NULL) {
		ExecStatusType st = PQresultStatus(r);
		PQclear(r);
		if (st == PGRES_PIPELINE_SYNC)
			break;
	}
	PQexitPipelineMode(p->conn);
}

/* Reads the answer to a read's end sent without waiting (end_read), at the
 * connection's next use: a failure is logged (a read wrote nothing, so
 * nothing is lost), and a transaction still open is rolled back. */
static void settle(struct store *s)
{
	struct st_pg *p = s->pg;
	if (!p->end_sent)
		return;
	p->end_sent = 0;
	pipeline_results(s, ST_OK, "end of read");
	pipeline_end(p);
	if (PQtransactionStatus(p->conn) == PQTRANS_INTRANS ||
	    PQtransactionStatus(p->conn) == PQTRANS_INERROR)
		exec_plain(s, "ROLLBACK", "rollback");
}

/* Ends a read transaction (sql: ROLLBACK or COMMIT) without waiting for
 * the answer: 1 when sent (or when its BEGIN never went out), 0 when it is
 * to run as any statement. */
static int end_read(struct store *s, const char *sql)
{
	struct st_pg *p = s->pg;
	if (!p->reading || p->read_wrote || p->queued || p->end_sent)
		return 0;
	p->reading = 0;
	if (p->read_due) {   /* no statement ran: no transaction on the server */
		p->read_due = 0;
		return 1;
	}
	if (p->tracing)
		fprintf(stderr, "sql: %s (its answer read at the next statement)\n", sql);
	if (!PQenterPipelineMode(p->conn))
		return 0;
	if (!PQsendQueryParams(p->conn, sql, 0, NULL, NULL, NULL, NULL, 0) ||
	    !PQpipelineSync(p->conn)) {
		pipeline_end(p);
		return 0;
	}
	p->end_sent = 1;
	return 1;
}

/* A read's BEGIN and statement q in one round trip: q's result, or BEGIN's
 * when that failed (NULL when nothing could be sent). */
static PGresult *read_begin_with(struct st_pg *p, const struct st_pgq *q)
{
	PGresult *begin = NULL, *res = NULL, *r;
	p->read_due = 0;
	if (!PQenterPipelineMode(p->conn))
		return NULL;
	if (!PQsendQueryParams(p->conn, READ_BEGIN_SQL, 0, NULL, NULL, NULL, NULL, 0) ||
	    !PQsendQueryPrepared(p->conn, q->name, q->nparams, q->val, q->len, q->fmt, 0) ||
	    !PQpipelineSync(p->conn)) {
		pipeline_end(p);
		return NULL;
	}
	for (int i = 0; i < 2; i++)
		while ((r = PQgetResult(p->conn)) != NULL) {
			PGresult **keep = i == 0 ? &begin : &res;
			if (!*keep)
				*keep = r;
			else
				PQclear(r);
		}
	pipeline_end(p);
	if (PQresultStatus(begin) != PGRES_COMMAND_OK) {
		PQclear(res);
		return begin;
	}
	PQclear(begin);
	return res;
}

/* BEGIN and the table's lock in one round trip (libpq's pipeline): READ
 * COMMITTED, so that every statement after the lock's wait reads what the
 * writer before it committed. ST_BUSY past lock_timeout or on a deadlock
 * (the transaction is rolled back). */
int st_pg_begin_table(struct store *s, int64_t table)
{
	struct st_pg *p = s->pg;
	char id[32];
	const char *v[1] = { id };
	settle(s);
	int rc = p->locks_ready ? ST_OK : prepare_locks(s);
	if (rc != ST_OK)
		return rc;
	snprintf(id, sizeof id, "%lld", (long long)table);
	if (p->tracing)
		fprintf(stderr, "sql: BEGIN; %s ($1 = %s)\n", LOCK_TABLE_SQL, id);
	if (!PQenterPipelineMode(p->conn)) {
		fprintf(stderr, "store: pipeline: %s", PQerrorMessage(p->conn));
		return ST_ERR;
	}
	int sent = PQsendQueryParams(p->conn, "BEGIN", 0, NULL, NULL, NULL, NULL, 0) &&
		   PQsendQueryPrepared(p->conn, "lock_t", 1, v, NULL, NULL, 0) &&
		   PQpipelineSync(p->conn);
	if (!sent) {
		snprintf(p->msg, sizeof p->msg, "%s", PQerrorMessage(p->conn));
		p->err = ST_ERR;
		rc = st_pg_fail(s, "begin table");
	} else {
		rc = pipeline_results(s, ST_OK, "begin");
		rc = pipeline_results(s, rc, "table lock");
		PGresult *r = PQgetResult(p->conn);   /* the sync */
		PQclear(r);
	}
	PQexitPipelineMode(p->conn);
	if (rc != ST_OK) {
		st_pg_rollback(s);
		return rc;
	}
	p->scope = SCOPE_TABLE;
	return ST_OK;
}

int st_pg_lock_cross(struct store *s)
{
	struct st_pg *p = s->pg;
	if (p->scope != SCOPE_TABLE)
		return ST_OK;   /* the site's lock, or a cross lock held: nothing runs beside */
	if (p->tracing)
		fprintf(stderr, "sql: %s\n", LOCK_CROSS_SQL);
	if (p->queued && flush_queue(s, 0) != ST_OK)
		return st_pg_fail(s, "queued write");
	PGresult *r = PQexecPrepared(p->conn, "lock_x", 0, NULL, NULL, NULL, 0);
	int rc = ST_OK;
	if (PQresultStatus(r) != PGRES_TUPLES_OK) {
		note_error(p, r);
		rc = st_pg_fail(s, "cross-table lock");
	}
	PQclear(r);
	if (rc == ST_OK)
		p->scope = SCOPE_CROSS;
	return rc;
}

/* COMMIT; a transaction that failed on the way is rolled back by it
 * (PostgreSQL answers ROLLBACK): nothing was written, ST_ERR. */
int st_pg_commit(struct store *s)
{
	struct st_pg *p = s->pg;
	if (end_read(s, "COMMIT"))
		return ST_OK;   /* (a read that wrote nothing: its COMMIT cannot fail) */
	settle(s);
	p->reading = 0;
	if (p->tracing)
		fprintf(stderr, "sql: COMMIT\n");
	int rc = ST_OK;
	if (p->queued) {   /* the queued writes and COMMIT, one round trip */
		if ((rc = flush_queue(s, 1)) != ST_OK)
			rc = st_pg_fail(s, "commit");
	} else {
		PGresult *r = PQexec(p->conn, "COMMIT");
		if (PQresultStatus(r) != PGRES_COMMAND_OK) {
			note_error(p, r);
			rc = st_pg_fail(s, "commit");
		} else if (strcmp(PQcmdStatus(r), "COMMIT") != 0) {
			fprintf(stderr, "store: commit: the transaction had failed and was rolled back\n");
			rc = ST_ERR;
		}
		PQclear(r);
	}
	if (PQtransactionStatus(p->conn) != PQTRANS_IDLE)
		exec_plain(s, "ROLLBACK", "rollback");
	p->scope = SCOPE_NONE;
	return rc;
}

void st_pg_rollback(struct store *s)
{
	if (end_read(s, "ROLLBACK"))
		return;
	settle(s);
	s->pg->reading = s->pg->read_due = 0;
	if (s->pg->queued)
		flush_queue(s, 0);   /* (their answers are dropped with the transaction) */
	if (PQtransactionStatus(s->pg->conn) != PQTRANS_IDLE)
		exec_plain(s, "ROLLBACK", "rollback");
	s->pg->scope = SCOPE_NONE;
}

int st_pg_in_transaction(const struct store *s)
{
	if (s->pg->read_due)
		return 1;
	return !s->pg->end_sent && PQtransactionStatus(s->pg->conn) != PQTRANS_IDLE;
}

/* ------------------------------------------------------------------ */
/* Opening, migrations, closing                                        */

/* A migration's number from "NNN_name.sql", or -1. */
static int migration_number(const char *f)
{
	size_t len = strlen(f);
	if (len < 9 || strcmp(f + len - 4, ".sql") != 0 || f[3] != '_')
		return -1;
	int n = 0;
	for (int i = 0; i < 3; i++) {
		if (f[i] < '0' || f[i] > '9')
			return -1;
		n = n * 10 + (f[i] - '0');
	}
	return n > 0 ? n : -1;
}

static int is_migration(const struct dirent *de)
{
	return migration_number(de->d_name) > 0;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "store: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	char *buf = malloc(PG_MIGRATION_MAX + 1);
	size_t n = buf ? fread(buf, 1, PG_MIGRATION_MAX + 1, f) : 0;
	if (buf && (ferror(f) || n > PG_MIGRATION_MAX)) {
		fprintf(stderr, "store: %s: unreadable or too large\n", path);
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Runs sql on schema_migrations with $1 = num, expecting `want`; *rows,
 * when given, the rows it answered (inside the migration's transaction). */
static int migration_row(struct store *s, const char *sql, int num, ExecStatusType want,
			 int *rows)
{
	char n[16];
	const char *v[1] = { n };
	snprintf(n, sizeof n, "%d", num);
	PGresult *r = PQexecParams(s->pg->conn, sql, 1, NULL, v, NULL, NULL, 0);
	int rc = ST_OK;
	if (PQresultStatus(r) != want) {
		note_error(s->pg, r);
		rc = st_pg_fail(s, "schema_migrations");
	} else if (rows) {
		*rows = PQntuples(r);
	}
	PQclear(r);
	return rc;
}

/* Applies migration num from path unless it is recorded: one transaction
 * under the lock, the file's statements and the record. */
static int apply_migration(struct store *s, int num, const char *path)
{
	char *sql = slurp(path);
	int yes = 0, rc;
	if (!sql)
		return ST_ERR;
	if ((rc = st_pg_begin(s, 1)) != ST_OK)
		goto out;
	rc = exec_plain(s, "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY,"
			" applied_at TIMESTAMPTZ NOT NULL DEFAULT now())", "schema_migrations");
	if (rc == ST_OK)
		rc = migration_row(s, "SELECT 1 FROM schema_migrations WHERE version = $1", num,
				   PGRES_TUPLES_OK, &yes);
	if (rc == ST_OK && !yes && (rc = exec_plain(s, sql, path)) == ST_OK)
		rc = migration_row(s, "INSERT INTO schema_migrations (version) VALUES ($1)", num,
				   PGRES_COMMAND_OK, NULL);
	if (rc == ST_OK)
		rc = st_pg_commit(s);
	else
		st_pg_rollback(s);
out:
	free(sql);
	return rc;
}

/* The migrations recorded already, read without a lock (none when the
 * table is not there yet): a process that opens the store while others
 * write takes the site's lock only for a migration that is missing. */
static void recorded_migrations(struct store *s, unsigned char *done, int max)
{
	PGresult *r = PQexec(s->pg->conn, "SELECT version FROM schema_migrations");
	if (PQresultStatus(r) == PGRES_TUPLES_OK)
		for (int i = 0; i < PQntuples(r); i++) {
			long v = strtol(PQgetvalue(r, i, 0), NULL, 10);
			if (v > 0 && v < max)
				done[v] = 1;
		}
	PQclear(r);
}

/* Every migration of schema_dir/pg not yet recorded, in order. */
static int migrate(struct store *s, const char *schema_dir)
{
	char dir[4096], path[4352];
	struct dirent **list = NULL;
	unsigned char done[1000] = { 0 };
	int rc = ST_OK;
	int w = snprintf(dir, sizeof dir, "%s/pg", schema_dir);
	if (w < 0 || (size_t)w >= sizeof dir)
		return ST_ERR;
	int n = scandir(dir, &list, is_migration, alphasort);
	if (n < 0) {
		fprintf(stderr, "store: schema directory %s: %s\n", dir, strerror(errno));
		return ST_ERR;
	}
	for (int i = 0; i < n && rc == ST_OK; i++) {
		if (i > 0 && migration_number(list[i]->d_name) ==
				     migration_number(list[i - 1]->d_name)) {
			fprintf(stderr, "store: %s and %s have the same number\n",
				list[i - 1]->d_name, list[i]->d_name);
			rc = ST_ERR;
			break;
		}
		if (i == 0)
			recorded_migrations(s, done, (int)sizeof done);
		if (migration_number(list[i]->d_name) < (int)sizeof done &&
		    done[migration_number(list[i]->d_name)])
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, list[i]->d_name);
		rc = apply_migration(s, migration_number(list[i]->d_name), path);
	}
	for (int i = 0; i < n; i++)
		free(list[i]);
	free(list);
	return rc;
}

/* Notices ("relation already exists, skipping") are not logged. */
static void ignore_notice(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

int st_pg_open(struct store **out, const char *uri, const char *schema_dir)
{
	struct store *s = calloc(1, sizeof *s);
	*out = NULL;
	if (!s || !(s->pg = calloc(1, sizeof *s->pg))) {
		free(s);
		return ST_ERR;
	}
	s->lock_fd = -1;
	const char *trace = getenv("SPIELTISCH_SQL_TRACE");
	s->pg->tracing = trace && *trace == '1';
	s->pg->conn = PQconnectdb(uri);
	if (PQstatus(s->pg->conn) != CONNECTION_OK) {
		fprintf(stderr, "store: connect: %s", PQerrorMessage(s->pg->conn));
		store_close(s);
		return ST_ERR;
	}
	PQsetNoticeProcessor(s->pg->conn, ignore_notice, NULL);
	/* the writer lock's wait bounded as SQLite's busy timeout is */
	int rc = exec_plain(s, "SET lock_timeout = '5s'", "lock_timeout");
	if (rc == ST_OK)
		rc = migrate(s, schema_dir);
	if (rc == ST_OK)
		rc = load_id_tables(s);
	/* every statement of every file but the core's (SQLite's pragmas and
	 * transactions; this file has its own) */
	for (int id = ST_GROUP_MAX; rc == ST_OK && id < ST_NSTMT; id++)
		if (strcmp(st_sql(id), "(no statement)") != 0 && st_pg_prepare(s, id) != ST_OK)
			rc = ST_ERR;
	if (rc != ST_OK) {
		store_close(s);
		return rc;
	}
	*out = s;
	return ST_OK;
}

void st_pg_close(struct store *s)
{
	for (int i = 0; i < ST_NSTMT; i++)
		if (s->cur[i].pg) {
			st_pg_done(&s->cur[i]);
			free(s->cur[i].pg->sql);
			free(s->cur[i].pg);
		}
	if (s->pg) {
		PQfinish(s->pg->conn);
		free(s->pg);
	}
}
