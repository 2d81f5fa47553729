/*
 * sql-core.c — the connection: open, migrations, transactions, the writer lock,
 * maintenance (checkpoints, the page limit, memory), and the statement
 * machinery every other file uses (internal.h).
 *
 * Every statement of the store is in the stmt_text[] of the file that uses it,
 * prepared once per connection (all of them at the end of store_open, so a
 * typo fails at start, not in a request), reset and unbound after every
 * use. Values are always bound; no SQL text is ever assembled at run time.
 * Migration files are executed as they are, each inside BEGIN IMMEDIATE …
 * COMMIT.
 *
 * Times are milliseconds; the store never reads the clock itself.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sys/file.h>
#include <sys/time.h>
#include <unistd.h>

#include "internal.h"

enum { BUSY_TIMEOUT_MS = 5000, CHECKPOINT_WAIT_MS = 10, MIGRATION_MAX_BYTES = 1 << 20,
       WRITER_WAIT_MS = BUSY_TIMEOUT_MS,   /* the writer lock file's bound, as SQLite's */
       CHECKPOINT_TRIES = 8,               /* passive checkpoints in a round at most */
       CHECKPOINT_LOCKED_PAGES = 256,      /* the most a round copies under the writer lock */
       WAL_CATCH_UP_PAGES = 65536,         /* past this (256 MiB) the WAL is made to start over */
       WAL_BACKSTOP_PAGES = 262144 };      /* the workers checkpoint on commit only past this
					      (1 GiB): no checkpointer running */

enum {
	STMT_PRAGMA_WAL = ST_FIRST(ST_G_CORE),
	STMT_PRAGMA_SYNC,
	STMT_PRAGMA_FK,
	STMT_USER_VERSION,
	STMT_BEGIN,
	STMT_BEGIN_READ,
	STMT_COMMIT,
	STMT_ROLLBACK,
	STMT_CORE_END
};

static const char *const stmt_text[] = {
	ST_AT(STMT_PRAGMA_WAL) = "PRAGMA journal_mode = WAL",
	ST_AT(STMT_PRAGMA_SYNC) = "PRAGMA synchronous = NORMAL",
	ST_AT(STMT_PRAGMA_FK) = "PRAGMA foreign_keys = ON",
	ST_AT(STMT_USER_VERSION) = "PRAGMA user_version",
	ST_AT(STMT_BEGIN) = "BEGIN IMMEDIATE",
	ST_AT(STMT_BEGIN_READ) = "BEGIN",
	ST_AT(STMT_COMMIT) = "COMMIT",
	ST_AT(STMT_ROLLBACK) = "ROLLBACK",
};
_Static_assert(sizeof stmt_text / sizeof stmt_text[0] == STMT_CORE_END - ST_FIRST(ST_G_CORE),
	       "one SQL text per statement");
const struct st_stmts st_stmts_core = ST_STMTS(stmt_text);

/* The files' statements by group (enum st_group): the registry store_open
 * prepares from. A new file of the store adds its table here. */
static const struct st_stmts *const registry[ST_NGROUPS] = {
	[ST_G_CORE] = &st_stmts_core,
	[ST_G_USERS] = &st_stmts_users,
	[ST_G_TABLES] = &st_stmts_tables,
	[ST_G_RATINGS] = &st_stmts_ratings,
	[ST_G_ME] = &st_stmts_me,
	[ST_G_CHAT] = &st_stmts_chat,
	[ST_G_PARTIES] = &st_stmts_parties,
	[ST_G_MAIL] = &st_stmts_mail,
	[ST_G_TOURNEYS] = &st_stmts_tourneys,
	[ST_G_WATCH] = &st_stmts_watch,
};

const char *st_sql(int id)
{
	const struct st_stmts *g = registry[id / ST_GROUP_MAX];
	int i = id % ST_GROUP_MAX;
	return i < g->n && g->sql[i] ? g->sql[i] : "(no statement)";
}

/* Logs SQLite's message for `what`; returns ST_BUSY for a lock that outlasted
 * the busy timeout, else ST_ERR (a 500). */
int st_fail(struct store *s, const char *what)
{
	if (!s->db)
		return st_pg_fail(s, what);
	int code = sqlite3_errcode(s->db);
	fprintf(stderr, "store: %s: %s\n", what, sqlite3_errmsg(s->db));
	if (code == SQLITE_FULL)
		return ST_FULL;
	return (code == SQLITE_BUSY || code == SQLITE_LOCKED) ? ST_BUSY : ST_ERR;
}

/* Prepares statement `id` (st_stmt's slow path: at open); NULL, logged, if
 * it cannot be. */
struct st_cur *st_prepare(struct store *s, int id)
{
	struct st_cur *q = &s->cur[id];
	if (!s->db)
		return st_pg_prepare(s, id) == ST_OK ? q : NULL;
	if (sqlite3_prepare_v3(s->db, st_sql(id), -1, SQLITE_PREPARE_PERSISTENT, &q->lite,
			       NULL) != SQLITE_OK) {
		fprintf(stderr, "store: prepare %s: %s\n", st_sql(id), sqlite3_errmsg(s->db));
		q->lite = NULL;
		return NULL;
	}
	return q;
}

/* The last step failed on a unique key (or primary key). */
static int unique_violated(struct store *s)
{
	if (!s->db)
		return st_pg_unique(s);
	int x = sqlite3_extended_errcode(s->db);
	return x == SQLITE_CONSTRAINT_UNIQUE || x == SQLITE_CONSTRAINT_PRIMARYKEY;
}

/* Runs a statement without result rows (or ignores them) to the end. */
int st_exec(struct store *s, struct st_cur *q, const char *what)
{
	int rc;
	while ((rc = st_step(s, q)) == ST_ROW)
		;
	if (rc != ST_DONE) {
		int r = unique_violated(s) ? ST_EXISTS : st_fail(s, what);
		st_done(q);
		return r;
	}
	st_done(q);
	return ST_OK;
}

int st_one(struct store *s, struct st_cur *q, st_row_fn fn, void *ctx, const char *what)
{
	if (!q)
		return ST_ERR;
	int rc = st_step(s, q);
	if (rc == ST_ROW) {
		fn(ctx, q);
		rc = ST_OK;
	} else {
		rc = rc == ST_DONE ? ST_NOTFOUND : st_fail(s, what);
	}
	st_done(q);
	return rc;
}

int st_each(struct store *s, struct st_cur *q, st_row_fn fn, void *ctx, const char *what)
{
	if (!q)
		return ST_ERR;
	int rc;
	while ((rc = st_step(s, q)) == ST_ROW)
		if (fn(ctx, q))
			break;
	rc = rc == ST_DONE || rc == ST_ROW ? ST_OK : st_fail(s, what);
	st_done(q);
	return rc;
}

static int row_int64(void *out, struct st_cur *q)
{
	*(int64_t *)out = st_int64(q, 0);
	return 0;
}

/* Steps a bound statement that reads one number (column 0) into *out:
 * ST_OK, ST_NOTFOUND when there is no row (an aggregate always has one),
 * or the error. Resets the statement. */
int st_one_int64(struct store *s, struct st_cur *q, int64_t *out, const char *what)
{
	return st_one(s, q, row_int64, out, what);
}

/* st_list_ids' rows: ids[] up to max. */
struct id_list {
	int64_t *ids;
	int max, *n;
};

static int row_id(void *ctx, struct st_cur *q)
{
	struct id_list *l = ctx;
	if (*l->n < l->max)
		l->ids[(*l->n)++] = st_int64(q, 0);
	return 0;
}

/* Up to max ids of a listing bound with (?1 time, ?2 max) into ids. */
int st_list_ids(struct store *s, int which, int64_t t, int64_t *ids, int max, int *n,
		    const char *what)
{
	struct id_list l = { ids, max, n };
	*n = 0;
	return st_each(s, st_query(s, which, ST_ARGS(ST_INT(t), ST_INT(max))), row_id, &l, what);
}

/* Runs a statement bound with (?1 table, ?2 value); ST_NOTFOUND when it
 * changed no row and `must_change`. */
int st_update(struct store *s, int which, int64_t table, int64_t value,
	      const char *what, int must_change)
{
	struct st_cur *q = st_query(s, which, ST_ARGS(ST_INT(table), ST_INT(value)));
	if (!q)
		return ST_ERR;
	int rc = st_exec(s, q, what);
	if (rc == ST_OK && must_change && st_changes(s) == 0)
		rc = ST_NOTFOUND;
	return rc;
}

/* Runs an UPDATE/DELETE of one row: ST_NOTFOUND when no row matched. */
int st_change_row(struct store *s, struct st_cur *q, const char *what)
{
	int rc = st_exec(s, q, what);
	if (rc == ST_OK && st_changes(s) == 0)
		rc = ST_NOTFOUND;
	return rc;
}


/* ------------------------------------------------------------------ */
/* Opening and migrations                                              */

static int read_user_version(struct store *s, int *v)
{
	int64_t n = 0;
	int rc = st_one_int64(s, st_stmt(s, STMT_USER_VERSION), &n, "user_version");
	*v = (int)n;
	return rc == ST_NOTFOUND ? st_fail(s, "user_version") : rc;
}

/* A migration's number from its file name "NNN_something.sql", or -1. */
static int migration_number(const char *fname)
{
	size_t len = strlen(fname);
	if (len < 9 || strcmp(fname + len - 4, ".sql") != 0 || fname[3] != '_')
		return -1;
	for (int i = 0; i < 3; i++)
		if (fname[i] < '0' || fname[i] > '9')
			return -1;
	char *end;
	long long n = strtoll(fname, &end, 10);
	if (end != fname + 3 || n < 1)
		return -1;
	return (int)n;
}

/* The file's whole text, NUL-terminated, in *out (caller frees). */
static int slurp(const char *path, char **out)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	int rc = ST_ERR;
	if (!f) {
		fprintf(stderr, "store: %s: %s\n", path, strerror(errno));
		return ST_ERR;
	}
	buf = malloc(MIGRATION_MAX_BYTES + 1);
	if (!buf)
		goto out;
	size_t n = fread(buf, 1, MIGRATION_MAX_BYTES + 1, f);
	if (ferror(f) || n > MIGRATION_MAX_BYTES) {
		fprintf(stderr, "store: %s: unreadable or larger than %d bytes\n", path,
			MIGRATION_MAX_BYTES);
		goto out;
	}
	buf[n] = '\0';
	*out = buf;
	buf = NULL;
	rc = ST_OK;
out:
	free(buf);
	fclose(f);
	return rc;
}

/* Applies migration `num` from `path` unless another process already did:
 * one transaction; the file must set PRAGMA user_version to its number. */
static int apply_migration(struct store *s, int num, const char *path)
{
	char *sql = NULL, *err = NULL;
	int v, rc = slurp(path, &sql);
	if (rc != ST_OK)
		return rc;
	if ((rc = store_begin(s)) != ST_OK)
		goto out;
	if ((rc = read_user_version(s, &v)) != ST_OK)
		goto rollback;
	if (v >= num) {
		rc = store_commit(s);
		goto out;
	}
	if (sqlite3_exec(s->db, sql, NULL, NULL, &err) != SQLITE_OK) {
		fprintf(stderr, "store: migration %s: %s\n", path, err ? err : "failed");
		rc = ST_ERR;
		goto rollback;
	}
	if ((rc = read_user_version(s, &v)) != ST_OK)
		goto rollback;
	if (v != num) {
		fprintf(stderr, "store: migration %s must end with PRAGMA user_version = %d\n",
			path, num);
		rc = ST_ERR;
		goto rollback;
	}
	rc = store_commit(s);
	goto out;
rollback:
	store_rollback(s);
out:
	sqlite3_free(err);
	free(sql);
	return rc;
}

/* scandir filter: NNN_name.sql files only. */
static int is_migration(const struct dirent *de)
{
	return migration_number(de->d_name) > 0;
}

/* Applies every migration in schema_dir newer than user_version, in order
 * (three-digit numbers: the names sort as the numbers do). */
static int migrate(struct store *s, const char *schema_dir)
{
	struct dirent **list = NULL;
	char path[4096];
	int have, rc = ST_ERR;
	int n = scandir(schema_dir, &list, is_migration, alphasort);

	if (n < 0) {
		fprintf(stderr, "store: schema directory %s: %s\n", schema_dir, strerror(errno));
		return ST_ERR;
	}
	for (int i = 1; i < n; i++)
		if (migration_number(list[i]->d_name) == migration_number(list[i - 1]->d_name)) {
			fprintf(stderr, "store: %s and %s have the same number\n",
				list[i - 1]->d_name, list[i]->d_name);
			goto out;
		}
	if ((rc = read_user_version(s, &have)) != ST_OK)
		goto out;
	for (int i = 0; i < n && rc == ST_OK; i++) {
		int num = migration_number(list[i]->d_name);
		if (num <= have)
			continue;
		int w = snprintf(path, sizeof path, "%s/%s", schema_dir, list[i]->d_name);
		rc = (w < 0 || (size_t)w >= sizeof path) ? ST_ERR : apply_migration(s, num, path);
	}
out:
	for (int i = 0; i < n; i++)
		free(list[i]);
	free(list);
	return rc;
}

/* Opens the connection with its pragmas, migrates, and prepares every
 * statement. *out is NULL on failure; the caller closes with store_close(). */
/* Every file's statements, each prepared (a typo fails here, at start);
 * a hole in a file's stmt_text[] is an error as well. */
static int prepare_all(struct store *s)
{
	for (int g = 0; g < ST_NGROUPS; g++)
		for (int i = 0; i < registry[g]->n; i++)
			if (!registry[g]->sql[i] || !st_stmt(s, ST_FIRST(g) + i)) {
				fprintf(stderr, "store: statement %d of group %d\n", i, g);
				return ST_ERR;
			}
	return ST_OK;
}

static int tracing;   /* SPIELTISCH_SQL_TRACE=1 (store_open) */

/* sqlite3_trace_v2() callback: the statement's text, one line each. */
static int trace_stmt(unsigned kind, void *ctx, void *p, void *x)
{
	(void)ctx;
	if (kind == SQLITE_TRACE_STMT)
		fprintf(stderr, "sql %d: %s\n", (int)getpid(), sqlite3_sql(p) && ((const char *)x)[0] != '-' ?
			sqlite3_sql(p) : (const char *)x);
	return 0;
}

int store_open(struct store **out, const char *db_path, const char *schema_dir)
{
	struct store *s = calloc(1, sizeof *s);
	int rc = ST_ERR;

	*out = NULL;
	if (st_is_pg_uri(db_path)) {
		free(s);
		return st_pg_open(out, db_path, schema_dir);
	}
	if (!s)
		return ST_ERR;
	s->lock_fd = -1;
	if (strcmp(db_path, ":memory:") != 0 && *db_path) {
		char lock_path[4096];
		int n = snprintf(lock_path, sizeof lock_path, "%s-writer", db_path);
		if (n < 0 || (size_t)n >= sizeof lock_path) {
			fprintf(stderr, "store: path too long: %s\n", db_path);
			goto out;
		}
		s->lock_fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0660);
		if (s->lock_fd < 0) {
			fprintf(stderr, "store: open %s: %s\n", lock_path, strerror(errno));
			goto out;
		}
	}
	/* A connection is used by one thread only (a worker is a process of one
	 * thread): SQLite need not lock its mutexes around every call, of which
	 * a page makes thousands (docs/benchmarks.md, "Figures from the code's
	 * comments"). Its memory statistics stay on, except in the server's
	 * processes, which count SQLite's heap themselves (one_thread):
	 * server.c's give_back reads them (ST_MAINT_MEMORY). */
	if (sqlite3_open_v2(db_path, &s->db,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK) {
		fprintf(stderr, "store: open %s: %s\n", db_path,
			s->db ? sqlite3_errmsg(s->db) : "out of memory");
		goto out;
	}
	sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);
	/* SPIELTISCH_SQL_TRACE=1: every statement (and trigger) a request runs,
	 * on stderr: how the statement budgets of docs/storage.md are counted */
	const char *trace = getenv("SPIELTISCH_SQL_TRACE");
	if (trace && *trace == '1' && (tracing = 1))
		sqlite3_trace_v2(s->db, SQLITE_TRACE_STMT, trace_stmt, NULL);
	static const int pragmas[] = { STMT_PRAGMA_WAL, STMT_PRAGMA_SYNC, STMT_PRAGMA_FK };
	for (size_t i = 0; i < sizeof pragmas / sizeof pragmas[0]; i++) {
		struct st_cur *q = st_stmt(s, pragmas[i]);
		if (!q || (rc = st_exec(s, q, st_sql(pragmas[i]))) != ST_OK)
			goto out;
	}
	if ((rc = st_name_functions(s->db)) != ST_OK || (rc = migrate(s, schema_dir)) != ST_OK)
		goto out;
	if ((rc = prepare_all(s)) != ST_OK)
		goto out;
	*out = s;
	s = NULL;
	rc = ST_OK;
out:
	store_close(s);
	return rc;
}

/* Finalizes every statement and closes; NULL is fine. */
void store_close(struct store *s)
{
	if (!s)
		return;
	if (!s->db) {
		st_pg_close(s);
		free(s);
		return;
	}
	for (int i = 0; i < ST_NSTMT; i++)
		sqlite3_finalize(s->cur[i].lite);
	sqlite3_close(s->db);
	if (s->lock_fd >= 0)
		close(s->lock_fd);   /* drops the writer lock if it is still held */
	free(s);
}

/* ------------------------------------------------------------------ */
/* Transactions                                                        */

static int run(struct store *s, int id)
{
	struct st_cur *q = st_stmt(s, id);
	return q ? st_exec(s, q, st_sql(id)) : ST_ERR;
}

static void on_lock_alarm(int sig)
{
	(void)sig;   /* only interrupts flock() */
}

/* Milliseconds of the monotonic clock: for the lock wait's bound only. */
static int64_t mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits for the writer lock at most WRITER_WAIT_MS: a blocking flock()
 * that a one-shot SIGALRM interrupts at the bound (the process's own
 * SIGALRM disposition and timer are put back). ST_BUSY past the bound. */
static int writer_lock_wait(struct store *s)
{
	struct sigaction sa, old;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_lock_alarm;
	sigemptyset(&sa.sa_mask);   /* no SA_RESTART: flock returns EINTR */
	struct itimerval off, before;
	memset(&off, 0, sizeof off);
	sigaction(SIGALRM, &sa, &old);
	setitimer(ITIMER_REAL, &off, &before);
	int64_t until = mono_ms() + WRITER_WAIT_MS;
	int rc = ST_BUSY;
	for (int64_t left; (left = until - mono_ms()) > 0;) {
		struct itimerval it = { { 0, 0 }, { (time_t)(left / 1000),
						    (suseconds_t)(left % 1000) * 1000 } };
		setitimer(ITIMER_REAL, &it, NULL);
		int r = flock(s->lock_fd, LOCK_EX), err = errno;
		setitimer(ITIMER_REAL, &off, NULL);
		if (r == 0) {
			rc = ST_OK;
			break;
		}
		if (err != EINTR) {
			fprintf(stderr, "store: flock: %s\n", strerror(err));
			rc = ST_ERR;
			break;
		}
	}
	sigaction(SIGALRM, &old, NULL);
	setitimer(ITIMER_REAL, &before, NULL);
	if (rc == ST_BUSY)
		fprintf(stderr, "store: the writer lock stayed taken for %d ms\n", WRITER_WAIT_MS);
	return rc;
}

/* Takes the writer lock file: writers of all worker processes queue here in
 * the kernel, and the one woken runs at once instead of sleeping in SQLite's
 * busy handler (whose steps are 1, 2, 5, 10 … ms, far longer than a write).
 * It is held only from BEGIN IMMEDIATE to COMMIT/ROLLBACK, never across a
 * wait for anything else, so the wait is bounded by the writers ahead; and
 * in any case by WRITER_WAIT_MS, as SQLite's busy timeout bounds its own
 * lock (another process, a tool or a stuck writer, may hold the file).
 * ST_BUSY (a 503) past that, ST_ERR when flock fails. */
static int writer_lock(struct store *s)
{
	if (s->lock_fd < 0 || s->locked)
		return ST_OK;
	int rc = ST_OK;
	if (flock(s->lock_fd, LOCK_EX | LOCK_NB) != 0) {
		if (errno != EWOULDBLOCK && errno != EINTR) {
			fprintf(stderr, "store: flock: %s\n", strerror(errno));
			return ST_ERR;
		}
		rc = writer_lock_wait(s);
	}
	if (rc == ST_OK)
		s->locked = 1;
	return rc;
}

/* Releases the writer lock if this connection holds it. */
static void writer_unlock(struct store *s)
{
	if (!s->locked)
		return;
	flock(s->lock_fd, LOCK_UN);
	s->locked = 0;
}

/* BEGIN IMMEDIATE behind the writer lock: takes the write lock now; ST_BUSY
 * (a 503) when another writer (one that does not take the lock file, such as
 * a single autocommit statement) held it past the busy timeout. */
int store_begin(struct store *s)
{
	if (!s->db)
		return st_pg_begin(s, 1);
	int rc = writer_lock(s);
	if (rc != ST_OK)
		return rc;
	rc = run(s, STMT_BEGIN);
	if (rc != ST_OK)
		writer_unlock(s);
	return rc;
}

/* SQLite has one writer lock for the whole file: store_begin(). */
int store_begin_table(struct store *s, int64_t table)
{
	if (!s->db)
		return st_pg_begin_table(s, table);
	return store_begin(s);
}

int store_lock_cross(struct store *s)
{
	return s->db ? ST_OK : st_pg_lock_cross(s);
}

/* A deferred read transaction: one consistent snapshot for several reads. */
int store_begin_read(struct store *s)
{
	if (!s->db)
		return st_pg_begin(s, 0);
	return run(s, STMT_BEGIN_READ);
}

/* COMMIT; on failure the transaction is rolled back (nothing was written).
 * Either way the writer lock is released. */
int store_commit(struct store *s)
{
	if (!s->db)
		return st_pg_commit(s);
	int rc = run(s, STMT_COMMIT);
	if (rc != ST_OK)
		store_rollback(s);
	writer_unlock(s);
	return rc;
}

/* ROLLBACK if a transaction is open; harmless otherwise. Releases the
 * writer lock. */
void store_rollback(struct store *s)
{
	if (!s->db) {
		st_pg_rollback(s);
		return;
	}
	if (!sqlite3_get_autocommit(s->db))
		run(s, STMT_ROLLBACK);
	writer_unlock(s);
}

int store_in_transaction(const struct store *s)
{
	if (!s->db)
		return st_pg_in_transaction(s);
	return !sqlite3_get_autocommit(s->db) || s->locked;
}

int store_end_request(struct store *s)
{
	if (tracing)
		fprintf(stderr, "sql %d: ---- end of request\n", (int)getpid());
	if (!store_in_transaction(s))
		return 0;
	store_rollback(s);
	return 1;
}

/* ------------------------------------------------------------------ */
/* Maintenance (store_maintain)                                        */

/* PRAGMA max_page_count for this connection: `pages` (at least the pages
 * in use, SQLite's rule), so that a write needing more fails as on a full
 * disk (ST_FULL). The pragma takes no bound value: the number is formatted
 * here, and it is only a number. *now gets the limit in effect (may be NULL). */
static int limit_pages(struct store *s, int64_t pages, int64_t *now)
{
	char sql[64];
	struct st_cur q = { 0 };
	snprintf(sql, sizeof sql, "PRAGMA max_page_count = %lld", (long long)pages);
	if (sqlite3_prepare_v2(s->db, sql, -1, &q.lite, NULL) != SQLITE_OK)
		return st_fail(s, "max_page_count");
	int64_t n = 0;
	int rc = st_one_int64(s, &q, &n, "max_page_count");
	if (rc == ST_OK && now)
		*now = n;
	sqlite3_finalize(q.lite);
	rc = rc == ST_NOTFOUND ? ST_OK : rc;
	return rc;
}

/* SQLite's heap in a process of one thread (ST_MAINT_ONE_THREAD): counted
 * here, SQLite's own statistics off. Those cost a malloc_usable_size and
 * status updates at every allocation and free (3k instructions of a table
 * page's statement); server.c's give_back still reads the bytes held and
 * their peak (ST_MAINT_MEMORY). Each block carries its size in front. */
enum { HEAP_HEAD = 16 };   /* (keeps malloc's alignment) */
static int64_t heap_held, heap_peak;
static int heap_ours;

static int heap_size(void *p)
{
	int n;
	memcpy(&n, (unsigned char *)p - HEAP_HEAD, sizeof n);
	return n;
}

static void *heap_malloc(int n)
{
	unsigned char *b = malloc((size_t)n + HEAP_HEAD);
	if (!b)
		return NULL;
	memcpy(b, &n, sizeof n);
	if ((heap_held += n) > heap_peak)
		heap_peak = heap_held;
	return b + HEAP_HEAD;
}

static void heap_free(void *p)
{
	if (!p)
		return;
	heap_held -= heap_size(p);
	free((unsigned char *)p - HEAP_HEAD);
}

static void *heap_realloc(void *p, int n)
{
	int was = heap_size(p);
	unsigned char *b = realloc((unsigned char *)p - HEAP_HEAD, (size_t)n + HEAP_HEAD);
	if (!b)
		return NULL;
	memcpy(b, &n, sizeof n);
	if ((heap_held += n - was) > heap_peak)
		heap_peak = heap_held;
	return b + HEAP_HEAD;
}

static int heap_roundup(int n)
{
	return (n + 7) & ~7;
}

static int heap_init(void *unused)
{
	(void)unused;
	return SQLITE_OK;
}

static void heap_shutdown(void *unused)
{
	(void)unused;
}

/* ST_MAINT_ONE_THREAD: no mutexes, and the heap counted above. */
static void one_thread(void)
{
	static const sqlite3_mem_methods heap = { heap_malloc, heap_free, heap_realloc,
		heap_size, heap_roundup, heap_init, heap_shutdown, NULL };
	if (sqlite3_config(SQLITE_CONFIG_SINGLETHREAD) != SQLITE_OK)
		return;   /* (SQLITE_MISUSE once SQLite has started) */
	if (sqlite3_config(SQLITE_CONFIG_MALLOC, &heap) == SQLITE_OK &&
	    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) == SQLITE_OK)
		heap_ours = 1;
}

static void memory(int64_t *held, int64_t *peak)
{
	sqlite3_int64 h = 0, p = 0;
	if (heap_ours) {
		h = heap_held;
		p = heap_peak;
		heap_peak = heap_held;
	} else {
		sqlite3_status64(SQLITE_STATUS_MEMORY_USED, &h, &p, 1);
	}
	if (held)
		*held = h;
	if (peak)
		*peak = p;
}

/* A checkpoint that copies what it can from the WAL into the database.
 * Without `exclusive` it is passive: it waits for no reader or writer. With
 * `exclusive` it holds the writer lock meanwhile, so that no commit races
 * it, and waits up to CHECKPOINT_WAIT_MS for the readers of older
 * snapshots to finish (SQLite's RESTART mode): then the next writer starts
 * the WAL over. *wal_pages gets the WAL's length in pages, *left_pages how
 * many of them are not in the database yet (either may be NULL). */
/* The busy handler while the writers are held off: the readers it waits for
 * are requests that end within a millisecond or so, so it looks again every
 * 0.1 ms (SQLite's own handler sleeps 1, 2, 5 … ms), CHECKPOINT_WAIT_MS in
 * all. */
static int checkpoint_busy(void *arg, int n)
{
	(void)arg;
	if (n >= CHECKPOINT_WAIT_MS * 10)
		return 0;
	struct timespec ts = { 0, 100 * 1000L };
	nanosleep(&ts, NULL);
	return 1;
}

static int checkpoint(struct store *s, int exclusive, int *wal_pages, int *left_pages)
{
	int log = 0, copied = 0, rc;
	if (exclusive) {
		if ((rc = writer_lock(s)) != ST_OK)
			return rc;
		sqlite3_busy_handler(s->db, checkpoint_busy, NULL);
	}
	rc = sqlite3_wal_checkpoint_v2(s->db, NULL, exclusive ? SQLITE_CHECKPOINT_RESTART
							: SQLITE_CHECKPOINT_PASSIVE, &log, &copied);
	if (exclusive) {
		sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);
		writer_unlock(s);
	}
	if (wal_pages)
		*wal_pages = log > 0 ? log : 0;
	if (left_pages)
		*left_pages = log > copied ? log - copied : 0;
	if (rc != SQLITE_OK && rc != SQLITE_BUSY)
		return st_fail(s, "wal_checkpoint");
	return ST_OK;
}

/* The checkpointer's round. Under a steady stream of commits a passive
 * checkpoint never reaches the WAL's end, and the WAL only starts over when
 * one has; so once the WAL is longer than WAL_CATCH_UP_PAGES, the last short
 * remainder is copied under the writer lock: a few hundred pages and two
 * syncs, 4–15 ms that every writer waits out; so it is made rare (a WAL of
 * 256 MiB: every few seconds at thousands of moves a second, never where
 * writes pause and the passive checkpoints catch up; docs/benchmarks.md,
 * "The moves' tail"). */
static int checkpoint_round(struct store *s, struct st_maint *m)
{
	int wal = 0, left = 0, rc = ST_OK;
	for (int i = 0; i < CHECKPOINT_TRIES && !(m->stop && *m->stop); i++)
		if ((rc = checkpoint(s, 0, &wal, &left)) != ST_OK ||
		    left <= CHECKPOINT_LOCKED_PAGES)
			break;
	if (!(m->stop && *m->stop) && wal > WAL_CATCH_UP_PAGES && left <= CHECKPOINT_LOCKED_PAGES)
		rc = checkpoint(s, 1, &wal, &left);
	m->wal_pages = wal;
	m->left_pages = left;
	return rc;
}

int store_maintain(struct store *s, enum st_maint_op op, struct st_maint *m)
{
	struct st_maint none = { 0 };
	if (!m)
		m = &none;
	if (op == ST_MAINT_ONE_THREAD) {
		one_thread();
		return ST_OK;
	}
	if (op != ST_MAINT_MEMORY && !s->db) {   /* PostgreSQL keeps its own files */
		if (op != ST_MAINT_LIMIT_PAGES)
			return ST_OK;
		fprintf(stderr, "store: a page limit is SQLite's only\n");
		return ST_ERR;
	}
	switch (op) {
	case ST_MAINT_WORKER:
		sqlite3_wal_autocheckpoint(s->db, WAL_BACKSTOP_PAGES);
		return ST_OK;
	case ST_MAINT_CHECKPOINTER:
		sqlite3_wal_autocheckpoint(s->db, 0);
		return ST_OK;
	case ST_MAINT_CHECKPOINT:
		return checkpoint_round(s, m);
	case ST_MAINT_LIMIT_PAGES:
		return limit_pages(s, m->pages, &m->pages);
	case ST_MAINT_MEMORY:
		memory(&m->held, &m->peak);
		return ST_OK;
	case ST_MAINT_ONE_THREAD:
		break;
	}
	return ST_ERR;
}
