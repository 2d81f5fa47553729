/*
 * internal.h — what the files of the store (cgi/store/sql-*.c) share and
 * nothing outside it sees: the connection, the statement registry and the
 * helpers every file uses. The interface of the store is store.h.
 */
#ifndef ST_INTERNAL_H
#define ST_INTERNAL_H

#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "store.h"

/* The files with statements, each a group of at most ST_GROUP_MAX: statement
 * id = group * ST_GROUP_MAX + its index in the file's stmt_text[]. */
enum st_group {
	ST_G_CORE, ST_G_USERS, ST_G_TABLES, ST_G_RATINGS, ST_G_ME, ST_G_CHAT, ST_G_PARTIES, ST_G_MAIL,
	ST_G_TOURNEYS, ST_G_WATCH, ST_NGROUPS
};
enum { ST_GROUP_MAX = 64, ST_NSTMT = ST_NGROUPS * ST_GROUP_MAX };
#define ST_FIRST(group) ((group) * ST_GROUP_MAX)
/* The designator of statement `id` in its file's stmt_text[]. */
#define ST_AT(id) [(id) % ST_GROUP_MAX]

/* One file's statements: sql[0 .. n-1], each prepared at store_open. */
struct st_stmts {
	const char *const *sql;
	int n;
};
#define ST_STMTS(a) { (a), (int)(sizeof (a) / sizeof (a)[0]) }

extern const struct st_stmts st_stmts_core, st_stmts_users, st_stmts_tables, st_stmts_ratings,
	st_stmts_me, st_stmts_chat, st_stmts_parties, st_stmts_mail, st_stmts_tourneys,
	st_stmts_watch;

/* A bound statement and the row it stands on: SQLite's statement, or the
 * values and result of PostgreSQL's (sql-pg.c). Every reader of a row and
 * every binder takes one; nothing but sql-core.c and sql-pg.c (and the
 * SQLite-only features of sql-live.c and sql-users.c) sees the backend. */
struct st_pgq;
struct st_cur {
	sqlite3_stmt *lite;   /* SQLite: the prepared statement; NULL on PostgreSQL */
	struct st_pgq *pg;    /* PostgreSQL: its statement's values and result (sql-pg.c) */
};

struct st_pg;

struct store {
	sqlite3 *db;      /* SQLite; NULL on PostgreSQL */
	struct st_pg *pg; /* PostgreSQL's connection (sql-pg.c); NULL on SQLite */
	struct st_cur cur[ST_NSTMT];
	int lock_fd;      /* "<db>-writer": flock()ed from BEGIN IMMEDIATE to the end; -1: none */
	int locked;       /* this connection holds lock_fd's lock now */
};

/* The columns struct st_table is read from, in read_table()'s order; a
 * read of one table adds t.spectators (the listings do not need it). */
#define TABLE_COLS_HEAD "t.id, t.game, t.options, t.nseats, t.status, t.version, " \
	"t.next_deadline, t.epoch, t.epoch_version, t.party_no, t.nparties, t.first_dealer, " \
	"coalesce(t.created_by, 0), t.created_at, t.public_version, t.clock_first, " \
	"t.clock_per_move, t.clock_cap, t.clock_day, t.clock_weekend, t.over_days, t.timeouts_max, " \
	"t.closed_idle, "
#define TABLE_COLS_TAIL ", coalesce(t.rematch, 0), t.acting, t.in_window, t.to_continue"
/* the host's name kept in the row (032_page_kept.sql) */
#define TABLE_COLS TABLE_COLS_HEAD "t.host" TABLE_COLS_TAIL
/* the same without the host's name ('': no lookup in users), for a write */
#define TABLE_COLS_BARE TABLE_COLS_HEAD "''" TABLE_COLS_TAIL

/* A party p's position (026_one_write.sql: a step is one row, with its
 * position): while it runs, the snapshot of its last step, or the deal it
 * started from; once over, the final one the party row keeps. */
#define PARTY_SNAPSHOT "CASE WHEN p.over = 1 THEN p.snapshot ELSE coalesce((SELECT m.snapshot" \
	" FROM moves m WHERE m.party = p.id ORDER BY m.seq DESC LIMIT 1), p.snapshot) END"

/* Whether that step is a deadline that passed (struct st_party.last_tick). */
#define PARTY_LAST_TICK "coalesce((SELECT CASE WHEN m.seat = -1 AND m.text = 'tick' THEN 1 ELSE 0" \
	" END FROM moves m WHERE m.party = p.id ORDER BY m.seq DESC LIMIT 1), 0)"

/* how many seats of table t are held (031_seats_taken.sql: kept by the
 * statements that take and leave one) */
#define SEATS_TAKEN "t.seats_taken"

/* The values a statement is bound to, ?1, ?2, … in order: ST_ARGS(ST_INT(id),
 * ST_TEXT(name)) is an array ended by a mark, so that one call prepares,
 * binds and (st_run) runs a statement: the shape every function of the
 * store had written out. Integers of every width bind as 64-bit (SQLite
 * stores them so); text NULL binds as ""; a blob is copied. */
enum st_kind { ST_KEND, ST_KINT, ST_KTEXT, ST_KREAL, ST_KBLOB, ST_KNULL };
struct st_arg {
	enum st_kind kind;
	int n;                        /* a blob's length */
	union {
		int64_t i;
		double d;
		const void *p;
	};
};
#define ST_INT(x) { .kind = ST_KINT, .i = (x) }
#define ST_TEXT(x) { .kind = ST_KTEXT, .p = (x) }
#define ST_REAL(x) { .kind = ST_KREAL, .d = (x) }
#define ST_BLOB(x, len) { .kind = ST_KBLOB, .p = (x), .n = (len) }
#define ST_ARGS(...) ((const struct st_arg[]){ __VA_ARGS__, { .kind = ST_KEND } })

/* The machinery (sql-core.c). */
const char *st_sql(int id);                  /* statement id's text, for messages */
/* Logs SQLite's message for `what`: ST_BUSY, ST_FULL or ST_ERR. */
int st_fail(struct store *s, const char *what);
/* Runs a bound statement to its end: ST_OK, ST_EXISTS (a unique key), or
 * the error; ends the use. */
int st_exec(struct store *s, struct st_cur *q, const char *what);
/* Reads the row q stands on into ctx (st_int, st_text, …); returns 0 to go
 * on, anything else to stop (st_each; st_one ignores it). */
typedef int (*st_row_fn)(void *ctx, struct st_cur *q);
/* The one reader of the store: steps a bound statement once. ST_OK with the
 * row given to fn, ST_NOTFOUND when there is none, or the error (st_fail,
 * logged as `what`). q NULL (it could not be prepared): ST_ERR. Always ends
 * the use (st_done), so `return st_one(s, st_query(…), fn, ctx, what);`. */
int st_one(struct store *s, struct st_cur *q, st_row_fn fn, void *ctx, const char *what);
/* Every row of a bound statement to fn until fn says stop: ST_OK (no row is
 * no error), or the error; q NULL: ST_ERR. Always ends the use. */
int st_each(struct store *s, struct st_cur *q, st_row_fn fn, void *ctx, const char *what);
/* One number (column 0) of a bound statement: ST_OK, ST_NOTFOUND, or the error. */
int st_one_int64(struct store *s, struct st_cur *q, int64_t *out, const char *what);
/* Up to max ids of statement `which` bound with (?1 t, ?2 max). */
int st_list_ids(struct store *s, int which, int64_t t, int64_t *ids, int max, int *n,
		const char *what);

/* Runs statement `which` bound with (?1 id, ?2 value); ST_NOTFOUND when
 * it changed no row and `must_change`. */
int st_update(struct store *s, int which, int64_t table, int64_t value,
	      const char *what, int must_change);
/* Runs a bound UPDATE/DELETE of one row: ST_NOTFOUND when no row matched. */
int st_change_row(struct store *s, struct st_cur *q, const char *what);

/* The /me numbers (me_seq, sql-me.c) of the users a change concerns,
 * written by the statements that make it (the schema's triggers before
 * 026): a new user's row; a step's seats whose asked state changed (bits)
 * and a deadline earlier than before (> 0); everyone at a table that
 * starts, ends or goes; one user's seat or invitation; an invitation by
 * its id (before it goes); the seats of a table that change hands. */
int st_me_create(struct store *s, int64_t user);
int st_me_step(struct store *s, int64_t table, uint32_t changed, int64_t lowered,
	       const int64_t *user, int nseats);
int st_me_table(struct store *s, int64_t table);
int st_me_user(struct store *s, int64_t user);
int st_me_invite(struct store *s, int64_t invite);
int st_me_claims(struct store *s, int64_t table);
int st_me_seat(struct store *s, int64_t table, int seat);
int st_me_acting(struct store *s, int64_t table, uint32_t acting, uint32_t in_window,
		 uint32_t to_continue);
/* A user's /me number and poll token in one read: 0, or -1 (no row, no token). */
int st_me_now(struct store *s, int64_t user, int64_t *seq, char tok[ST_POLL_TOKEN_LEN + 1]);

/* Users (sql-users.c): registers the SQL functions st_name_key(name) and
 * st_name_skeleton(name) that the migrations use, before they run. */
int st_name_functions(sqlite3 *db);

/* Tables (sql-tables.c), for the files that list tables too. */
int st_list_tables(struct store *s, struct st_cur *q, st_table_fn fn, void *ctx,
		   const char *what);

/* PostgreSQL's side of the cursor (sql-pg.c): the readers of a result's
 * row, the binders, the end of a use, a step. */
int64_t st_pg_col_int64(const struct st_cur *q, int col);
double st_pg_col_double(const struct st_cur *q, int col);
const unsigned char *st_pg_col_text(const struct st_cur *q, int col);
int st_pg_col_bytes(struct st_cur *q, int col);
const void *st_pg_col_blob(struct st_cur *q, int col);
int st_pg_col_null(const struct st_cur *q, int col);
int st_pg_col_count(const struct st_cur *q);
void st_pg_bind(struct st_cur *q, int i, const struct st_arg *a);
void st_pg_done(struct st_cur *q);
int st_pg_step(struct store *s, struct st_cur *q);
int64_t st_pg_changes(const struct store *s);
int64_t st_pg_last_id(struct store *s);
const char *st_pg_errmsg(const struct store *s);
/* … and of the connection: open (migrations included), prepare, the
 * last error (logged as `what`: ST_BUSY, ST_ERR …; a unique key),
 * transactions (write: the writer lock taken), close. */
int st_pg_open(struct store **out, const char *uri, const char *schema_dir);
int st_pg_prepare(struct store *s, int id);
int st_pg_fail(struct store *s, const char *what);
int st_pg_unique(const struct store *s);
int st_pg_begin(struct store *s, int write);
int st_pg_begin_table(struct store *s, int64_t table);
int st_pg_lock_cross(struct store *s);
int st_pg_commit(struct store *s);
void st_pg_rollback(struct store *s);
int st_pg_in_transaction(const struct store *s);
void st_pg_close(struct store *s);
/* A number the live channels follow changed (sql-live.c: kind 't' a
 * table's public version, 'm' a user's /me number, 'g' a tournament's
 * version), told by the PostgreSQL backend, where SQLite's hook sees it. */
void st_live_note(struct store *s, char kind, int64_t id, int64_t value);
/* A connection string store_open hands to PostgreSQL (postgresql://…). */
int st_is_pg_uri(const char *db);

/* A step's outcome, as SQLite numbers them (PostgreSQL's step answers the
 * same; any other number is an error: st_fail). */
enum { ST_ROW = SQLITE_ROW, ST_DONE = SQLITE_DONE };

/* The helpers every function of the store calls, inline: a statement, its
 * values, its end cost what the same lines written out in place cost. */
struct st_cur *st_prepare(struct store *s, int id);

/* Statement id, prepared (at open: this only looks it up). */
static inline struct st_cur *st_stmt(struct store *s, int id)
{
	struct st_cur *q = &s->cur[id];
	return q->lite || q->pg ? q : st_prepare(s, id);
}

/* Reset and unbind: every use of a statement ends here, so that no value
 * outlives its request and a failed step's code stays out of the next use. */
static inline void st_done(struct st_cur *q)
{
	if (q->lite) {
		sqlite3_reset(q->lite);
		sqlite3_clear_bindings(q->lite);
	} else {
		st_pg_done(q);
	}
}

/* One step: ST_ROW, ST_DONE, or an error (st_fail tells which). */
static inline int st_step(struct store *s, struct st_cur *q)
{
	return q->lite ? sqlite3_step(q->lite) : st_pg_step(s, q);
}

/* The row q stands on, column col (from 0). */
static inline int st_int(struct st_cur *q, int col)
{
	return q->lite ? sqlite3_column_int(q->lite, col) : (int)st_pg_col_int64(q, col);
}

static inline int64_t st_int64(struct st_cur *q, int col)
{
	return q->lite ? sqlite3_column_int64(q->lite, col) : st_pg_col_int64(q, col);
}

static inline double st_double(struct st_cur *q, int col)
{
	return q->lite ? sqlite3_column_double(q->lite, col) : st_pg_col_double(q, col);
}

/* Text: NULL for a NULL column; valid until the next step or st_done. */
static inline const unsigned char *st_text(struct st_cur *q, int col)
{
	return q->lite ? sqlite3_column_text(q->lite, col) : st_pg_col_text(q, col);
}

/* A blob (call before st_bytes, as SQLite asks), then its length. */
static inline const void *st_blob(struct st_cur *q, int col)
{
	return q->lite ? sqlite3_column_blob(q->lite, col) : st_pg_col_blob(q, col);
}

static inline int st_bytes(struct st_cur *q, int col)
{
	return q->lite ? sqlite3_column_bytes(q->lite, col) : st_pg_col_bytes(q, col);
}

static inline int st_null(struct st_cur *q, int col)
{
	return q->lite ? sqlite3_column_type(q->lite, col) == SQLITE_NULL : st_pg_col_null(q, col);
}

/* A clock rule's six columns from col on, in the order tables and
 * tournaments both keep them: first, per move, cap, day, weekend, windows. */
static inline void st_read_clock(struct st_cur *q, int col, struct clock_rule *c)
{
	c->first_ms = st_int64(q, col);
	c->per_move_ms = st_int64(q, col + 1);
	c->cap_ms = st_int64(q, col + 2);
	c->day_ms = st_int64(q, col + 3);
	c->weekend = st_int(q, col + 4);
	c->windows = st_int(q, col + 5);
}

static inline int st_columns(struct st_cur *q)
{
	return q->lite ? sqlite3_column_count(q->lite) : st_pg_col_count(q);
}

/* The rows the last write changed; the id the last INSERT made; the
 * backend's last message. */
static inline int64_t st_changes(struct store *s)
{
	return s->db ? sqlite3_changes(s->db) : st_pg_changes(s);
}

static inline int64_t st_last_id(struct store *s)
{
	return s->db ? sqlite3_last_insert_rowid(s->db) : st_pg_last_id(s);
}

static inline const char *st_errmsg(struct store *s)
{
	return s->db ? sqlite3_errmsg(s->db) : st_pg_errmsg(s);
}

/* Binds value ?i (from 1) of q; text NULL as "", a copy. */
static inline void st_bind_int64(struct st_cur *q, int i, int64_t v)
{
	if (q->lite)
		sqlite3_bind_int64(q->lite, i, v);
	else
		st_pg_bind(q, i, &(const struct st_arg)ST_INT(v));
}

static inline void st_bind_double(struct st_cur *q, int i, double v)
{
	if (q->lite)
		sqlite3_bind_double(q->lite, i, v);
	else
		st_pg_bind(q, i, &(const struct st_arg)ST_REAL(v));
}

static inline void st_bind_null(struct st_cur *q, int i)
{
	if (q->lite)
		sqlite3_bind_null(q->lite, i);
	else
		st_pg_bind(q, i, &(const struct st_arg){ .kind = ST_KNULL });
}

static inline void st_bind_text(struct st_cur *q, int i, const char *v)
{
	if (q->lite)
		sqlite3_bind_text(q->lite, i, v ? v : "", -1, SQLITE_TRANSIENT);
	else
		st_pg_bind(q, i, &(const struct st_arg)ST_TEXT(v));
}

/* A text column into dst, truncated to cap and always NUL-terminated. */
static inline void st_copy_col(char *dst, size_t cap, struct st_cur *q, int col)
{
	const unsigned char *t = st_text(q, col);
	if (!cap)
		return;
	/* snprintf(dst, cap, "%s", t)'s bytes; as a call 500 instructions a
	 * column (a tournament page copies 700 names) */
	size_t n = t ? strnlen((const char *)t, cap - 1) : 0;
	memcpy(dst, t ? (const char *)t : "", n);
	dst[n] = '\0';
}

/* A whole number at *p in a text of numbers and spaces (a '-' first for
 * one below 0), *p moved past it and the space after it (sql-tourneys.c:
 * the results texts of 029; the page statement's tournament). */
static inline long long st_line_num(const char **p)
{
	const char *c = *p;
	int neg = *c == '-';
	unsigned long long u = 0;
	for (c += neg; *c >= '0' && *c <= '9'; c++)
		u = u * 10 + (unsigned)(*c - '0');
	*p = *c == ' ' ? c + 1 : c;
	return neg ? -(long long)u : (long long)u;
}

static inline void st_bind_args(struct st_cur *q, const struct st_arg *a)
{
	if (!q->lite) {
		for (int i = 1; a->kind != ST_KEND; a++, i++)
			st_pg_bind(q, i, a);
		return;
	}
	sqlite3_stmt *l = q->lite;
	for (int i = 1; a->kind != ST_KEND; a++, i++)
		switch (a->kind) {
		case ST_KINT:
			sqlite3_bind_int64(l, i, a->i);
			break;
		case ST_KTEXT:
			sqlite3_bind_text(l, i, a->p ? a->p : "", -1, SQLITE_TRANSIENT);
			break;
		case ST_KREAL:
			sqlite3_bind_double(l, i, a->d);
			break;
		case ST_KBLOB:
			sqlite3_bind_blob(l, i, a->p, a->n, SQLITE_TRANSIENT);
			break;
		case ST_KNULL:
			sqlite3_bind_null(l, i);
			break;
		case ST_KEND:
			break;
		}
}

/* Statement `id` prepared and bound to `a`; NULL (logged) if it cannot be
 * prepared. Step it, read it, and end with st_done() as before. */
static inline struct st_cur *st_query(struct store *s, int id, const struct st_arg *a)
{
	struct st_cur *q = st_stmt(s, id);
	if (q)
		st_bind_args(q, a);
	return q;
}

/* Statement `id` bound to `a` and run to its end (st_exec): ST_OK,
 * ST_EXISTS for a unique key taken, or an error logged as `what`. */
static inline int st_run(struct store *s, int id, const char *what, const struct st_arg *a)
{
	struct st_cur *q = st_query(s, id, a);
	return q ? st_exec(s, q, what) : ST_ERR;
}

#endif
