/* test_store.c — the SQL layer against real database files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <sys/stat.h>
#include <sys/wait.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "tmpdb.h"

static int64_t make_user(struct store *s, const char *name)
{
	int64_t id = 0;
	assert_int_equal(store_user_create(s, name, "$argon2id$x", 1000, &id), ST_OK);
	assert_true(id > 0);
	return id;
}

static int64_t make_table(struct store *s, int nseats, int64_t creator)
{
	int64_t id = 0;
	assert_int_equal(store_table_create(s, "drehwurm", "snap=5", nseats, nseats, creator, 2000,
					    &id),
			 ST_OK);
	return id;
}

/* A Drehwurm tournament named `name` of `seats` seats a table and `rounds`
 * rounds (points 3,2,1, ties by party), its id. */
static int64_t make_tourney(struct store *s, const char *name, int seats, int rounds)
{
	struct st_tourney tt;
	int64_t id = 0;
	memset(&tt, 0, sizeof tt);
	snprintf(tt.name, sizeof tt.name, "%s", name);
	snprintf(tt.game, sizeof tt.game, "drehwurm");
	snprintf(tt.points, sizeof tt.points, "3,2,1");
	snprintf(tt.tiebreaks, sizeof tt.tiebreaks, "party");
	tt.seats = seats;
	tt.min_seats = 2;
	tt.rounds = rounds;
	tt.created_at = 1000;
	assert_int_equal(store_tourney_create(s, &tt, &id), ST_OK);
	return id;
}

/* Reads one integer with a fresh connection of its own (not the store's),
 * on PostgreSQL when the tests run there (tmpdb.h). */
static long long peek_int(const char *path, const char *sql)
{
	if (tmpdb_pg()) {
		PGconn *c = PQconnectdb(path);
		assert_int_equal(PQstatus(c), CONNECTION_OK);
		PGresult *r = PQexec(c, sql);
		assert_int_equal(PQresultStatus(r), PGRES_TUPLES_OK);
		long long n = PQntuples(r) > 0 ? strtoll(PQgetvalue(r, 0, 0), NULL, 10) : -1;
		PQclear(r);
		PQfinish(c);
		return n;
	}
	sqlite3 *db;
	sqlite3_stmt *q;
	long long v = -1;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &q, NULL), SQLITE_OK);
	if (sqlite3_step(q) == SQLITE_ROW)
		v = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	sqlite3_close(db);
	return v;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	fclose(f);
}

static void copy_file(const char *from, const char *to)
{
	char buf[65536];
	FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
	assert_non_null(in);
	assert_non_null(out);
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		assert_int_equal(fwrite(buf, 1, n, out), n);
	fclose(in);
	fclose(out);
}

/* The project's migrations, in order. */
static const char *const real_migrations[] = { "001_init.sql", "002_results.sql",
						  "003_public_version.sql", "004_bots.sql",
						  "005_autopass.sql", "006_clocks.sql",
						  "007_idle.sql", "008_chat.sql",
						  "009_feed.sql", "010_invites.sql",
						  "011_acting.sql", "012_mail.sql", "013_ratings.sql",
						  "014_tournaments.sql", "015_acting_index.sql",
						  "016_lang.sql", "017_me_seq.sql", "018_in_window.sql",
						  "019_seats_done.sql", "020_acting_ends.sql",
						  "021_to_continue.sql", "022_claimed.sql",
						  "023_table_ids.sql", "024_login_known.sql",
						  "025_name_skeleton.sql", "026_one_write.sql",
						  "027_spectators.sql", "028_results_covering.sql",
						  "029_ttable_results.sql", "030_standings_pages.sql",
						  "031_seats_taken.sql", "032_page_kept.sql" };
enum { NMIGRATIONS = (int)(sizeof real_migrations / sizeof real_migrations[0]),
       SCHEMA_VERSION = NMIGRATIONS };

/* A fresh file gets every migration; opening again changes nothing; a new
 * migration is applied once; a broken one is rolled back and fails the open. */
/* The tests of SQLite's own files (its migrations, WAL, page limit) do not
 * run on PostgreSQL (make pg-check); test_pg_migrations is its own. */
#define SQLITE_ONLY() \
	do { \
		if (tmpdb_pg()) \
			skip(); \
	} while (0)

static void test_migrations(void **state)
{
	struct tmpdb *t = *state;
	char schema[600], p[700], db2[700], src[700], sql[200];
	SQLITE_ONLY();

	assert_int_equal(peek_int(t->path, "PRAGMA user_version"), SCHEMA_VERSION);
	assert_int_equal(peek_int(t->path, "SELECT count(*) FROM sqlite_master WHERE name IN "
				   "('users','sessions','login_failures','tables','seats',"
				   "'parties','moves','party_results')"), 8);
	assert_int_equal(peek_int(t->path, "SELECT count(*) FROM pragma_journal_mode "
				   "WHERE journal_mode = 'wal'"), 1);
	long long objects = peek_int(t->path, "SELECT count(*) FROM sqlite_master");

	store_close(t->s);
	t->s = NULL;
	assert_int_equal(store_open(&t->s, t->path, t->schema), ST_OK);
	assert_int_equal(peek_int(t->path, "PRAGMA user_version"), SCHEMA_VERSION);
	assert_int_equal(peek_int(t->path, "SELECT count(*) FROM sqlite_master"), objects);
	make_user(t->s, "Anna");

	/* A schema directory of our own with one more migration. */
	snprintf(schema, sizeof schema, "%s/schema2", t->dir);
	assert_int_equal(mkdir(schema, 0700), 0);
	for (int k = 0; k < NMIGRATIONS; k++) {
		snprintf(src, sizeof src, "%s/%s", t->schema, real_migrations[k]);
		snprintf(p, sizeof p, "%s/%s", schema, real_migrations[k]);
		copy_file(src, p);
	}
	snprintf(p, sizeof p, "%s/%03d_extra.sql", schema, SCHEMA_VERSION + 1);
	snprintf(sql, sizeof sql, "CREATE TABLE extra (x INTEGER);\nPRAGMA user_version = %d;\n",
		 SCHEMA_VERSION + 1);
	write_file(p, sql);
	snprintf(p, sizeof p, "%s/README", schema);
	write_file(p, "not a migration\n");
	store_close(t->s);
	t->s = NULL;
	assert_int_equal(store_open(&t->s, t->path, schema), ST_OK);
	assert_int_equal(peek_int(t->path, "PRAGMA user_version"), SCHEMA_VERSION + 1);
	assert_int_equal(peek_int(t->path, "SELECT count(*) FROM users"), 1);
	assert_int_equal(peek_int(t->path, "SELECT count(*) FROM sqlite_master WHERE name='extra'"),
			 1);

	/* A migration that forgets its user_version is refused and undone. */
	snprintf(p, sizeof p, "%s/%03d_bad.sql", schema, SCHEMA_VERSION + 2);
	write_file(p, "CREATE TABLE bad (x INTEGER);\n");
	store_close(t->s);
	t->s = NULL;
	assert_int_equal(store_open(&t->s, t->path, schema), ST_ERR);
	assert_null(t->s);
	assert_int_equal(peek_int(t->path, "PRAGMA user_version"), SCHEMA_VERSION + 1);
	assert_int_equal(peek_int(t->path, "SELECT count(*) FROM sqlite_master WHERE name='bad'"),
			 0);
	/* So is one with an SQL error half way. */
	snprintf(sql, sizeof sql, "CREATE TABLE bad (x INTEGER);\nINSERT INTO nowhere VALUES (1);\n"
		 "PRAGMA user_version = %d;\n", SCHEMA_VERSION + 2);
	write_file(p, sql);
	assert_int_equal(store_open(&t->s, t->path, schema), ST_ERR);
	assert_int_equal(peek_int(t->path, "SELECT count(*) FROM sqlite_master WHERE name='bad'"),
			 0);
	unlink(p);
	/* Two files with one number are ambiguous: refused. */
	snprintf(p, sizeof p, "%s/%03d_twin.sql", schema, SCHEMA_VERSION + 1);
	snprintf(sql, sizeof sql, "PRAGMA user_version = %d;\n", SCHEMA_VERSION + 1);
	write_file(p, sql);
	assert_int_equal(store_open(&t->s, t->path, schema), ST_ERR);
	unlink(p);

	/* A brand-new file with the same directory gets all of them. */
	snprintf(db2, sizeof db2, "%s/second.db", t->dir);
	assert_int_equal(store_open(&t->s, db2, schema), ST_OK);
	assert_int_equal(peek_int(db2, "PRAGMA user_version"), SCHEMA_VERSION + 1);
	store_close(t->s);
	t->s = NULL;
	for (int k = 0; k < NMIGRATIONS; k++) {
		snprintf(p, sizeof p, "%s/%s", schema, real_migrations[k]);
		unlink(p);
	}
	snprintf(p, sizeof p, "%s/%03d_extra.sql", schema, SCHEMA_VERSION + 1);
	unlink(p);
	snprintf(p, sizeof p, "%s/README", schema);
	unlink(p);
	rmdir(schema);

	/* A missing schema directory is an error, not an empty database. */
	snprintf(p, sizeof p, "%s/no-such-dir", t->dir);
	assert_int_equal(store_open(&t->s, db2, p), ST_ERR);
	assert_int_equal(store_open(&t->s, t->path, t->schema), ST_OK);
}

static void collect_party(void *ctx, const struct st_party *p);

/* The whole file as a string (free it). */
static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	char *text = calloc(1, 1 << 16);
	assert_non_null(text);
	size_t n = fread(text, 1, (1 << 16) - 1, f);
	assert_true(n > 0 && n < (1 << 16) - 1);
	fclose(f);
	return text;
}

/* Runs sql on the file with a connection of its own. */
static void exec_sql(const char *path, const char *sql)
{
	sqlite3 *db;
	char *err = NULL;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	int rc = sqlite3_exec(db, sql, NULL, NULL, &err);
	if (rc != SQLITE_OK)
		fail_msg("%s: %s", sql, err ? err : "?");
	sqlite3_close(db);
}

/* 002_results: the comma-separated scores of finished parties become one
 * row per seat, places by points with ties sharing; unfinished parties get
 * no rows; the old column is gone. */
static void test_results_migration(void **state)
{
	SQLITE_ONLY();
	struct tmpdb *t = *state;
	char src[700], db1[700];

	/* A version-1 file, written by 001_init.sql alone (the store prepares
	 * today's statements, so it cannot open such a file without migrating). */
	snprintf(src, sizeof src, "%s/001_init.sql", t->schema);
	snprintf(db1, sizeof db1, "%s/v1.db", t->dir);
	char *init = read_file(src);
	exec_sql(db1, init);
	free(init);
	store_close(t->s);
	t->s = NULL;
	exec_sql(db1, "INSERT INTO users (id, name, name_key, pwhash, created_at)"
		      " VALUES (1, 'Ole', 'ole', '$argon2id$x', 1);"
		      "INSERT INTO tables (id, game, options, nseats, nparties, created_by, created_at)"
		      " VALUES (5, 'drehwurm', '', 4, 3, 1, 1);"
		      "INSERT INTO parties (id, table_id, number, seed, dealer, snapshot, over, scores,"
		      " created_at) VALUES (10, 5, 0, 1, 0, x'00', 1, '3,-1,3,0', 1),"
		      " (11, 5, 1, 2, 1, x'00', 1, '-12,7,0,-4', 2),"
		      " (12, 5, 2, 3, 2, x'00', 0, '', 3)");
	int64_t tab = 5;

	assert_int_equal(store_open(&t->s, db1, t->schema), ST_OK);
	assert_int_equal(peek_int(db1, "PRAGMA user_version"), SCHEMA_VERSION);
	assert_int_equal(peek_int(db1, "SELECT count(*) FROM party_results"), 8);
	assert_int_equal(peek_int(db1, "SELECT count(*) FROM party_results WHERE party = 12"), 0);
	assert_int_equal(peek_int(db1, "SELECT count(*) FROM pragma_table_info('parties')"
				   " WHERE name = 'scores'"), 0);

	struct st_party fin[2];
	memset(fin, 0, sizeof fin);
	fin[0].number = -1;
	assert_int_equal(store_parties_of_table(t->s, tab, collect_party, fin), ST_OK);
	static const int points0[4] = { 3, -1, 3, 0 }, place0[4] = { 1, 4, 1, 3 };
	static const int points1[4] = { -12, 7, 0, -4 }, place1[4] = { 4, 1, 2, 3 };
	for (int seat = 0; seat < 4; seat++) {
		assert_int_equal(fin[0].result.points[seat], points0[seat]);
		assert_int_equal(fin[0].result.place[seat], place0[seat]);
		assert_int_equal(fin[1].result.points[seat], points1[seat]);
		assert_int_equal(fin[1].result.place[seat], place1[seat]);
	}
	/* match totals are one query now */
	assert_int_equal(peek_int(db1, "SELECT sum(points) FROM party_results WHERE seat = 1"), 6);
	store_close(t->s);
	t->s = NULL;
	assert_int_equal(store_open(&t->s, t->path, t->schema), ST_OK);
}

/* Names that look alike (025_name_skeleton.sql, cgi/text.c): a name whose
 * confusable skeleton is taken is taken, though its letters differ. */
static void test_users_look_alike(void **state)
{
	struct tmpdb *t = *state;
	struct st_user u;
	int64_t id = 0;
	int64_t admin = make_user(t->s, "admin");
	assert_int_equal(store_user_create(t->s, "admın", "h", 1, &id), ST_EXISTS);   /* dotless */
	assert_int_equal(store_user_create(t->s, "adrnin", "h", 1, &id), ST_EXISTS);
	assert_int_equal(store_user_create(t->s, "ADMIN", "h", 1, &id), ST_EXISTS);
	assert_int_equal(store_user_by_name(t->s, "admın", &u), ST_NOTFOUND);
	assert_int_equal(store_user_by_name(t->s, "Admin", &u), ST_OK);
	assert_int_equal(u.id, admin);
	make_user(t->s, "admins");
	make_user(t->s, "Jörg");
	make_user(t->s, "Jorg");
	assert_int_equal(peek_int(t->path, "SELECT count(*) FROM users WHERE name_skel IS NULL"), 0);
}

/* 021 on names already there: two that look alike both stay (the later
 * one's skeleton gets its id), so the migration does not fail and nobody
 * is locked out; İ's key is written anew (store.c folded it to ı by hand). */
static void test_skeleton_migration(void **state)
{
	SQLITE_ONLY();
	struct tmpdb *t = *state;
	char src[700], db1[700];
	snprintf(src, sizeof src, "%s/001_init.sql", t->schema);
	snprintf(db1, sizeof db1, "%s/v1.db", t->dir);
	char *init = read_file(src);
	exec_sql(db1, init);
	free(init);
	store_close(t->s);
	t->s = NULL;
	exec_sql(db1, "INSERT INTO users (id, name, name_key, pwhash, created_at) VALUES"
		      " (1, 'admin', 'admin', 'h', 1), (2, 'admın', 'admın', 'h', 2),"
		      " (3, 'İlker', 'ılker', 'h', 3), (4, 'Bert', 'bert', 'h', 4),"
		      " (5, 'adrnin', 'adrnin', 'h', 5)");
	assert_int_equal(store_open(&t->s, db1, t->schema), ST_OK);
	assert_int_equal(peek_int(db1, "SELECT count(*) FROM users"), 5);
	assert_int_equal(peek_int(db1, "SELECT count(DISTINCT name_skel) FROM users"), 5);
	assert_int_equal(peek_int(db1, "SELECT count(*) FROM users WHERE instr(name_skel, char(31))"
				   " > 0 AND id IN (2, 5)"), 2);
	assert_int_equal(peek_int(db1, "SELECT count(*) FROM users WHERE instr(name_skel, char(31))"
				   " = 0 AND id IN (1, 3, 4)"), 3);
	struct st_user u;
	for (int64_t id = 1; id <= 5; id++) {
		static const char *const names[] = { "", "admin", "admın", "İlker", "Bert", "adrnin" };
		assert_int_equal(store_user_by_name(t->s, names[id], &u), ST_OK);
		assert_int_equal(u.id, id);
	}
	int64_t id = 0;
	assert_int_equal(store_user_create(t->s, "admın", "h", 1, &id), ST_EXISTS);
	assert_int_equal(store_user_create(t->s, "bert", "h", 1, &id), ST_EXISTS);
	assert_int_equal(store_user_create(t->s, "Berta", "h", 1, &id), ST_OK);
}

static void test_users_case_insensitive(void **state)
{
	struct tmpdb *t = *state;
	struct st_user u;
	int64_t id = 0;

	int64_t anna = make_user(t->s, "Anna");
	assert_int_equal(store_user_create(t->s, "ANNA", "h", 1, &id), ST_EXISTS);
	assert_int_equal(store_user_create(t->s, "anna", "h", 1, &id), ST_EXISTS);
	assert_int_equal(store_user_by_name(t->s, "aNNa", &u), ST_OK);
	assert_int_equal(u.id, anna);
	assert_string_equal(u.name, "Anna");
	assert_string_equal(u.pwhash, "$argon2id$x");

	/* German and other Latin letters fold too. */
	int64_t joerg = make_user(t->s, "Jörg");
	assert_int_equal(store_user_create(t->s, "JÖRG", "h", 1, &id), ST_EXISTS);
	assert_int_equal(store_user_by_name(t->s, "jÖrg", &u), ST_OK);
	assert_int_equal(u.id, joerg);
	make_user(t->s, "Łukasz");
	assert_int_equal(store_user_create(t->s, "łukasz", "h", 1, &id), ST_EXISTS);
	/* …but distinct letters stay distinct. */
	make_user(t->s, "Jorg");
	make_user(t->s, "Straße");
	make_user(t->s, "Strasse");

	assert_int_equal(store_user_by_id(t->s, anna, &u), ST_OK);
	assert_string_equal(u.name, "Anna");
	assert_int_equal(store_user_by_id(t->s, 999999, &u), ST_NOTFOUND);
	assert_int_equal(store_user_by_name(t->s, "Berta", &u), ST_NOTFOUND);
}

static void test_sessions_expire(void **state)
{
	struct tmpdb *t = *state;
	unsigned char h1[32], h2[32];
	struct st_session ss;
	int64_t uid = make_user(t->s, "Carla");
	const char *csrf = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ";

	memset(h1, 1, sizeof h1);
	memset(h2, 2, sizeof h2);
	assert_int_equal(store_session_create(t->s, h1, uid, csrf, 5000), ST_OK);
	assert_int_equal(store_session_create(t->s, h2, uid, csrf, 9000), ST_OK);
	assert_int_equal(store_session_get(t->s, h1, 4999, &ss), ST_OK);
	assert_int_equal(ss.user_id, uid);
	assert_string_equal(ss.csrf, csrf);
	assert_int_equal(ss.expires, 5000);
	assert_int_equal(store_session_get(t->s, h1, 5000, &ss), ST_NOTFOUND);

	assert_int_equal(store_session_purge(t->s, 6000), ST_OK);
	assert_int_equal(peek_int(t->path, "SELECT count(*) FROM sessions"), 1);
	assert_int_equal(store_session_get(t->s, h2, 6000, &ss), ST_OK);
	assert_int_equal(store_session_delete(t->s, h2), ST_OK);
	assert_int_equal(store_session_get(t->s, h2, 6000, &ss), ST_NOTFOUND);
	assert_int_equal(store_session_delete(t->s, h2), ST_OK);
	/* A session needs a real user (foreign keys are on). */
	assert_int_not_equal(store_session_create(t->s, h1, 424242, csrf, 5000), ST_OK);
}

static void test_login_failures(void **state)
{
	struct tmpdb *t = *state;
	int n = -1;
	int64_t last = -1;

	for (int i = 0; i < 4; i++)
		assert_int_equal(store_login_failed(t->s, "Dora", 1000 + i * 100), ST_OK);
	assert_int_equal(store_login_failed(t->s, "Emil", 1000), ST_OK);
	assert_int_equal(store_login_failures(t->s, "DORA", 0, &n), ST_OK);
	assert_int_equal(n, 4);
	assert_int_equal(store_login_failures_last(t->s, "dora", 1150, &n, &last), ST_OK);
	assert_int_equal(n, 2);
	assert_int_equal(last, 1300);
	assert_int_equal(store_login_failures_last(t->s, "Nobody", 0, &n, &last), ST_OK);
	assert_int_equal(n, 0);
	assert_int_equal(last, 0);
	assert_int_equal(store_login_clear(t->s, "Dora"), ST_OK);
	assert_int_equal(store_login_failures(t->s, "Dora", 0, &n), ST_OK);
	assert_int_equal(n, 0);
	assert_int_equal(store_login_purge(t->s, 1001), ST_OK);
	assert_int_equal(store_login_failures(t->s, "Emil", 0, &n), ST_OK);
	assert_int_equal(n, 0);
}

static void test_seats_until_full(void **state)
{
	struct tmpdb *t = *state;
	struct st_seat seats[GAME_MAX_SEATS];
	int seat = -1, n = 0;
	int64_t u[5];
	const char *names[5] = { "Ute", "Vera", "Wim", "Xaver", "Yvonne" };
	for (int i = 0; i < 5; i++)
		u[i] = make_user(t->s, names[i]);
	int64_t tab = make_table(t->s, 3, u[0]);

	for (int i = 0; i < 3; i++) {
		assert_int_equal(store_seat_take(t->s, tab, u[i], &seat), ST_OK);
		assert_int_equal(seat, i);
	}
	assert_int_equal(store_seat_take(t->s, tab, u[3], &seat), ST_CONFLICT);
	assert_int_equal(store_seat_take(t->s, tab, u[1], &seat), ST_EXISTS);
	assert_int_equal(seat, 1);
	assert_int_equal(store_seat_take(t->s, 99999, u[3], &seat), ST_NOTFOUND);

	/* Leaving frees exactly that seat; the next joiner gets the lowest free one. */
	assert_int_equal(store_seat_leave(t->s, tab, u[1]), ST_OK);
	assert_int_equal(store_seat_leave(t->s, tab, u[1]), ST_NOTFOUND);
	/* the table's kept count (031) follows: neither the refused joins nor
	 * the second leave moved it */
	char q[160];
	snprintf(q, sizeof q, "SELECT seats_taken FROM tables WHERE id = %lld", (long long)tab);
	assert_int_equal(peek_int(t->path, q), 2);
	assert_int_equal(store_seat_take(t->s, tab, u[4], &seat), ST_OK);
	assert_int_equal(seat, 1);
	assert_int_equal(peek_int(t->path, q), 3);

	assert_int_equal(store_table_seats(t->s, tab, seats, GAME_MAX_SEATS, &n), ST_OK);
	assert_int_equal(n, 3);
	assert_int_equal(seats[0].user_id, u[0]);
	assert_string_equal(seats[1].name, "Yvonne");
	assert_int_equal(seats[2].seat, 2);
	/* A short buffer is filled, never overrun. */
	assert_int_equal(store_table_seats(t->s, tab, seats, 2, &n), ST_OK);
	assert_int_equal(n, 2);
}

struct listed {
	int n;
	int64_t ids[8];
	int taken[8];
	enum st_table_status status[8];
};

static void collect(void *ctx, const struct st_table *tb, int seats_taken)
{
	struct listed *l = ctx;
	if (l->n < 8) {
		l->ids[l->n] = tb->id;
		l->taken[l->n] = seats_taken;
		l->status[l->n] = tb->status;
	}
	l->n++;
}

static void test_lobby_and_my_tables(void **state)
{
	struct tmpdb *t = *state;
	struct listed l;
	int seat;
	int64_t a = make_user(t->s, "Alma"), b = make_user(t->s, "Bert");
	int64_t t1 = make_table(t->s, 3, a), t2 = make_table(t->s, 4, b), t3 = make_table(t->s, 3, a);
	assert_int_equal(store_seat_take(t->s, t1, a, &seat), ST_OK);
	assert_int_equal(store_seat_take(t->s, t1, b, &seat), ST_OK);
	assert_int_equal(store_seat_take(t->s, t2, b, &seat), ST_OK);
	assert_int_equal(store_seat_take(t->s, t3, a, &seat), ST_OK);
	assert_int_equal(store_table_set_status(t->s, t3, TABLE_FINISHED, 0, 0), ST_OK);

	memset(&l, 0, sizeof l);
	assert_int_equal(store_tables_open(t->s, 10, collect, &l), ST_OK);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.ids[0], t2);   /* newest first */
	assert_int_equal(l.taken[0], 1);
	assert_int_equal(l.ids[1], t1);
	assert_int_equal(l.taken[1], 2);

	memset(&l, 0, sizeof l);
	assert_int_equal(store_tables_open(t->s, 1, collect, &l), ST_OK);
	assert_int_equal(l.n, 1);

	memset(&l, 0, sizeof l);
	assert_int_equal(store_tables_of_user(t->s, a, 10, collect, &l), ST_OK);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.ids[0], t1);   /* unfinished before finished */
	assert_int_equal(l.ids[1], t3);
	assert_int_equal(l.status[1], TABLE_FINISHED);

	/* Deleting a table takes its seats with it. */
	assert_int_equal(store_table_delete(t->s, t1), ST_OK);
	assert_int_equal(peek_int(t->path, "SELECT count(*) FROM seats WHERE table_id = 1"), 0);
	assert_int_equal(store_table_delete(t->s, t1), ST_NOTFOUND);
}

/* The tables waiting for the user: running, the user's seat may act, a
 * person plays it; counted up to ST_ACTING_MAX. */
static void test_user_acting(void **state)
{
	struct tmpdb *t = *state;
	int seat, n = -1;
	int64_t a = make_user(t->s, "Alma"), b = make_user(t->s, "Bert");
	for (int k = 0; k < ST_ACTING_MAX + 3; k++) {
		int64_t id = make_table(t->s, 2, a);
		assert_int_equal(store_seat_take(t->s, id, a, &seat), ST_OK);
		assert_int_equal(store_seat_take(t->s, id, b, &seat), ST_OK);
		assert_int_equal(store_table_set_status(t->s, id, TABLE_PLAYING, 0, 2), ST_OK);
		/* Alma (seat 0) acts at the first five, Bert at all of them */
		assert_int_equal(store_table_set_acting(t->s, id, k < 5 ? 3u : 2u, 0, 0), ST_OK);
		if (k == 0) {   /* a finished table does not wait: its seats act no more */
			assert_int_equal(store_table_set_status(t->s, id, TABLE_FINISHED, 0, 0),
					 ST_OK);
			char q[128];
			snprintf(q, sizeof q, "SELECT acting + in_window + to_continue FROM tables"
				 " WHERE id = %lld", (long long)id);
			assert_int_equal(peek_int(t->path, q), 0);
		}
	}
	assert_int_equal(store_user_acting(t->s, a, &n), ST_OK);
	assert_int_equal(n, 4);
	assert_int_equal(store_user_acting(t->s, b, &n), ST_OK);
	assert_int_equal(n, ST_ACTING_MAX);   /* 12 wait for him: counted up to the cap */

	/* what /me reads of a seat without loading the party: a window of
	 * Bert's (seat 1) while Alma has the turn counts as waiting too */
	int64_t w = make_table(t->s, 2, a);
	struct st_my_seat m;
	assert_int_equal(store_seat_mine(t->s, w, a, &m), ST_NOTFOUND);
	assert_int_equal(store_seat_take(t->s, w, a, &seat), ST_OK);
	assert_int_equal(store_seat_take(t->s, w, b, &seat), ST_OK);
	assert_int_equal(store_table_set_acting(t->s, w, 3u, 2u, 0), ST_OK);
	assert_int_equal(store_seat_mine(t->s, w, a, &m), ST_OK);
	assert_true(m.seat == 0 && m.acting == 1 && m.in_window == 0 && m.bot == 0);
	assert_int_equal(store_seat_mine(t->s, w, b, &m), ST_OK);
	assert_true(m.seat == 1 && m.acting == 1 && m.in_window == 1);
	assert_int_equal(store_table_set_acting(t->s, w, 1u, 0u, 0), ST_OK);   /* the window closed */
	assert_int_equal(store_seat_mine(t->s, w, b, &m), ST_OK);
	assert_true(m.acting == 0 && m.in_window == 0 && m.to_continue == 0);
	/* the pause after a party: Bert has not continued yet, Alma has (021) */
	assert_int_equal(store_table_set_acting(t->s, w, 2u, 0u, 2u), ST_OK);
	assert_int_equal(store_seat_mine(t->s, w, b, &m), ST_OK);
	assert_true(m.acting == 1 && m.in_window == 0 && m.to_continue == 1);
	assert_int_equal(store_seat_mine(t->s, w, a, &m), ST_OK);
	assert_true(m.acting == 0 && m.to_continue == 0);
	/* the table's end clears it with the rest (store_table_set_status) */
	assert_int_equal(store_table_set_status(t->s, w, TABLE_FINISHED, 0, 0), ST_OK);
	assert_int_equal(store_seat_mine(t->s, w, b, &m), ST_OK);
	assert_true(m.acting == 0 && m.to_continue == 0);
}

/* The /me poll's number moves with every change /me shows, and only with
 * those; its deadline is the earliest of the user's running tables
 * whenever it has passed, a lower bound of it before. */
static void test_user_poll(void **state)
{
	struct tmpdb *t = *state;
	int seat;
	const int64_t late = INT64_MAX / 2;   /* every deadline has passed */
	int64_t sig = 0, was, deadline = -1;
	int64_t a = make_user(t->s, "Alma"), b = make_user(t->s, "Bert"), c = make_user(t->s, "Cleo");
	assert_int_equal(store_user_poll(t->s, a, NULL, late, &sig, &deadline), ST_OK);
	assert_true(sig > 0);   /* never 0: v=0 always asks for the number */
	assert_int_equal(deadline, 0);
#define POLL(now) \
	assert_int_equal(store_user_poll(t->s, a, NULL, (now), &sig, &deadline), ST_OK)
#define MOVED(what)                      \
	do {                             \
		was = sig;               \
		what;                    \
		POLL(late);              \
		assert_true(sig != was); \
	} while (0)
	int64_t t1 = make_table(t->s, 2, b), t2 = make_table(t->s, 2, b);
	POLL(late);
	was = sig;
	assert_int_equal(store_seat_take(t->s, t1, b, &seat), ST_OK);   /* not Alma's table */
	POLL(late);
	assert_true(sig == was);
	MOVED(assert_int_equal(store_seat_take(t->s, t1, a, &seat), ST_OK));
	MOVED(assert_int_equal(store_table_set_status(t->s, t1, TABLE_PLAYING, 0, 0), ST_OK));
	MOVED(assert_int_equal(store_table_bump(t->s, t1, -1, 5000, 0, NULL), ST_OK));
	assert_int_equal(deadline, 5000);
	/* a later deadline: the kept one stays until it passes, then the true one */
	MOVED(assert_int_equal(store_table_bump(t->s, t1, -1, 8000, 0, NULL), ST_OK));
	POLL(4000);
	assert_int_equal(deadline, 8000);   /* (the poll at `late` above computed it) */
	assert_int_equal(store_table_bump(t->s, t1, -1, 9000, 0, NULL), ST_OK);
	POLL(4000);
	assert_int_equal(deadline, 8000);   /* kept: not yet passed, no read of the tables */
	POLL(8500);
	assert_int_equal(deadline, 9000);   /* passed: the true one */
	int64_t due[4];
	int ndue = -1;   /* what /me ticks first: the user's tables past their deadline */
	assert_int_equal(store_user_tables_due(t->s, a, 8999, due, 4, &ndue), ST_OK);
	assert_int_equal(ndue, 0);
	assert_int_equal(store_user_tables_due(t->s, a, 9000, due, 4, &ndue), ST_OK);
	assert_true(ndue == 1 && due[0] == t1);
	assert_int_equal(store_user_tables_due(t->s, c, 9000, due, 4, &ndue), ST_OK);
	assert_int_equal(ndue, 0);   /* Cleo does not sit there */
	MOVED(assert_int_equal(store_invite(t->s, t2, b, a, 1000), ST_OK));
	was = sig;   /* /me shows an invitation, not the invited table's steps */
	assert_int_equal(store_table_bump(t->s, t2, -1, 0, 0, NULL), ST_OK);
	POLL(late);
	assert_true(sig == was);
	MOVED(assert_int_equal(store_table_set_status(t->s, t2, TABLE_PLAYING, 0, 0), ST_OK));
	was = sig;   /* a step nobody sees: the same number, the earlier deadline at once */
	assert_int_equal(store_table_bump_quiet(t->s, t1, -1, 3000, 0, NULL), ST_OK);
	POLL(0);
	assert_true(sig == was);
	assert_int_equal(deadline, 3000);
	MOVED(assert_int_equal(store_table_set_status(t->s, t1, TABLE_FINISHED, 0, 0), ST_OK));
	MOVED(assert_int_equal(store_table_bump(t->s, t1, -1, 0, 0, NULL), ST_OK));
	assert_int_equal(deadline, 0);   /* a finished table has none */
	MOVED(assert_int_equal(store_table_delete(t->s, t2), ST_OK));   /* the invitation goes */
	MOVED(assert_int_equal(store_table_delete(t->s, t1), ST_OK));   /* the seat goes */
#undef MOVED
#undef POLL
	assert_int_equal(store_user_poll(t->s, c, NULL, late, &sig, &deadline), ST_OK);
	assert_true(sig > 0);

	/* the poll by token: none until one is given, the first one given wins */
	char tok[ST_POLL_TOKEN_LEN + 1], got[ST_POLL_TOKEN_LEN + 1];
	const char *t1k = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
	const char *t2k = "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB";
	/* /me's one read of the row: the number as polled, no token yet */
	struct st_me_head head;
	int acting = -1;
	assert_int_equal(store_user_poll(t->s, a, NULL, late, &sig, &deadline), ST_OK);
	assert_int_equal(store_me_head(t->s, a, &head), ST_OK);
	assert_true(head.seq == sig);
	assert_string_equal(head.poll_token, "");
	assert_int_equal(head.waiting, -1);   /* never counted: store_user_acting counts */
	assert_int_equal(head.tourneys, 0);   /* registered at no tournament */
	assert_int_equal(store_me_head(t->s, 9999, &head), ST_NOTFOUND);
	assert_int_equal(store_user_poll_token(t->s, a, NULL, tok), ST_NOTFOUND);
	assert_int_equal(store_user_poll(t->s, 0, t1k, late, &sig, &deadline), ST_NOTFOUND);
	assert_int_equal(store_user_poll_token(t->s, a, t1k, tok), ST_OK);
	/* ... and with the token; the waiting count once it was counted */
	assert_int_equal(store_user_acting(t->s, a, &acting), ST_OK);
	assert_int_equal(store_me_head(t->s, a, &head), ST_OK);
	assert_string_equal(head.poll_token, t1k);
	assert_int_equal(head.waiting, acting);
	assert_string_equal(tok, t1k);
	assert_int_equal(store_user_poll_token(t->s, a, t2k, got), ST_OK);
	assert_string_equal(got, t1k);
	int64_t by_id, by_token;
	assert_int_equal(store_user_poll(t->s, a, NULL, late, &by_id, &deadline), ST_OK);
	assert_int_equal(store_user_poll(t->s, 0, t1k, late, &by_token, &deadline), ST_OK);
	assert_true(by_id == by_token);
	assert_int_equal(store_user_poll(t->s, 0, t2k, late, &sig, &deadline), ST_NOTFOUND);
}

/* The /me rows a step writes (store_table_step): by the seats' users when
 * the engine gives them, by the join over the seats otherwise; both alike:
 * seq + 1 only for the users whose asked state changed, the kept deadline
 * lowered for every seated user whose bound was later or none, nobody
 * else's row touched. */
static void step_me(struct tmpdb *t, int by_key, const int64_t *u, int64_t other, int64_t due)
{
	char sql[160];
	long long seq0[4], seq1[4], dl[4];
	int64_t tab = make_table(t->s, 3, u[0]);
	int seat;
	for (int i = 0; i < 3; i++)
		assert_int_equal(store_seat_take(t->s, tab, u[i], &seat), ST_OK);
	assert_int_equal(store_table_set_status(t->s, tab, TABLE_PLAYING, 0, 0), ST_OK);
	const int64_t who[4] = { u[0], u[1], u[2], other };
	/* a step that passes the turn from seat 0 to seat 1 and opens a window */
	struct st_step_row row = { .deadline = due, .acting = 2, .changed = 3, .lowered = due,
				   .deadline_before = 0, .user = by_key ? u : NULL, .nseats = 3 };
	struct st_table tb;
	assert_int_equal(store_table_get(t->s, tab, &tb), ST_OK);
	row.version = tb.version;
	for (int i = 0; i < 4; i++) {
		int64_t sig, kept;   /* the kept bounds made true (a seat taken sets 1) */
		assert_int_equal(store_user_poll(t->s, who[i], NULL, INT64_MAX / 2, &sig, &kept),
				 ST_OK);
		snprintf(sql, sizeof sql, "SELECT seq FROM me_seq WHERE user_id = %lld",
			 (long long)who[i]);
		seq0[i] = peek_int(t->path, sql);
	}
	assert_int_equal(store_table_step(t->s, tab, &row), ST_OK);
	for (int i = 0; i < 4; i++) {
		snprintf(sql, sizeof sql, "SELECT seq FROM me_seq WHERE user_id = %lld",
			 (long long)who[i]);
		seq1[i] = peek_int(t->path, sql);
		snprintf(sql, sizeof sql, "SELECT deadline FROM me_seq WHERE user_id = %lld",
			 (long long)who[i]);
		dl[i] = peek_int(t->path, sql);
	}
	assert_int_equal(seq1[0], seq0[0] + 1);   /* seat 0: no longer asked */
	assert_int_equal(seq1[1], seq0[1] + 1);   /* seat 1: asked now */
	assert_int_equal(seq1[2], seq0[2]);       /* seat 2: as it was */
	assert_int_equal(seq1[3], seq0[3]);       /* not seated here */
	assert_int_equal(dl[0], due);
	assert_int_equal(dl[1], due);
	assert_int_equal(dl[2], 5000);   /* kept: earlier than the step's */
	assert_int_equal(dl[3], 0);
}

static void test_step_me_rows(void **state)
{
	struct tmpdb *t = *state;
	const int64_t u[3] = { make_user(t->s, "Alma"), make_user(t->s, "Bert"),
			       make_user(t->s, "Cleo") };
	int64_t other = make_user(t->s, "Dora"), cleo = make_table(t->s, 2, u[2]);
	int seat;
	/* Cleo's kept bound is earlier than the steps' deadlines below */
	assert_int_equal(store_seat_take(t->s, cleo, u[2], &seat), ST_OK);
	assert_int_equal(store_table_set_status(t->s, cleo, TABLE_PLAYING, 0, 0), ST_OK);
	assert_int_equal(store_table_bump_quiet(t->s, cleo, -1, 5000, 0, NULL), ST_OK);
	step_me(t, 1, u, other, 7000);
	/* the same users at a second table, the rows written by the join */
	step_me(t, 0, u, other, 6000);
}

static void test_bump_and_poll(void **state)
{
	struct tmpdb *t = *state;
	struct st_table tb;
	int64_t v = 0, dl = -1, newv = 0;
	int64_t a = make_user(t->s, "Hugo");
	int64_t tab = make_table(t->s, 3, a);

	assert_int_equal(store_table_poll(t->s, tab, &v, &dl), ST_OK);
	assert_int_equal(v, 1);
	assert_int_equal(dl, 0);
	assert_int_equal(store_table_poll(t->s, tab + 100, &v, &dl), ST_NOTFOUND);

	assert_int_equal(store_table_bump(t->s, tab, 1, 123456, 7, &newv), ST_OK);
	assert_int_equal(newv, 2);
	assert_int_equal(store_table_get(t->s, tab, &tb), ST_OK);
	assert_int_equal(tb.epoch, 7);
	assert_int_equal(tb.epoch_version, 2);
	/* A writer that saw version 1 lost the race. */
	assert_int_equal(store_table_bump(t->s, tab, 1, 0, 8, &newv), ST_CONFLICT);
	assert_int_equal(store_table_poll(t->s, tab, &v, &dl), ST_OK);
	assert_int_equal(v, 2);
	assert_int_equal(dl, 123456);
	/* Same epoch: the version moves, epoch_version stays. */
	assert_int_equal(store_table_bump(t->s, tab, 2, 0, 7, &newv), ST_OK);
	assert_int_equal(newv, 3);
	assert_int_equal(store_table_get(t->s, tab, &tb), ST_OK);
	assert_int_equal(tb.epoch_version, 2);
	assert_int_equal(tb.next_deadline, 0);
	/* A quiet bump: the version moves, what the poll reads does not. */
	int64_t pv = 0;
	assert_int_equal(store_table_poll(t->s, tab, &pv, &dl), ST_OK);
	assert_int_equal(pv, 3);
	assert_int_equal(store_table_bump_quiet(t->s, tab, 3, 0, 7, &newv), ST_OK);
	assert_int_equal(newv, 4);
	assert_int_equal(store_table_poll(t->s, tab, &v, &dl), ST_OK);
	assert_int_equal(v, pv);
	assert_int_equal(store_table_get(t->s, tab, &tb), ST_OK);
	assert_int_equal(tb.public_version, 3);
	/* No check wanted. */
	assert_int_equal(store_table_bump(t->s, tab, -1, 0, 9, NULL), ST_OK);
	assert_int_equal(store_table_get(t->s, tab, &tb), ST_OK);
	assert_int_equal(tb.version, 5);
	assert_int_equal(tb.public_version, 5);
	assert_int_equal(tb.epoch_version, 5);
	assert_int_equal(store_table_bump(t->s, tab + 100, -1, 0, 9, NULL), ST_NOTFOUND);
	/* A forced epoch change without a new epoch number. */
	assert_int_equal(store_table_bump(t->s, tab, -1, 0, 9, NULL), ST_OK);
	assert_int_equal(store_table_new_epoch(t->s, tab), ST_OK);
	assert_int_equal(store_table_get(t->s, tab, &tb), ST_OK);
	assert_int_equal(tb.epoch_version, 6);
	assert_string_equal(tb.game, "drehwurm");
	assert_string_equal(tb.options, "snap=5");
	assert_int_equal(tb.nparties, 3);
	assert_int_equal(tb.party_no, -1);
	assert_int_equal(tb.status, TABLE_OPEN);
	assert_int_equal(tb.created_by, a);
}

struct moves_seen {
	int n;
	struct st_move m[8];
};

static void collect_move(void *ctx, const struct st_move *m)
{
	struct moves_seen *ms = ctx;
	if (ms->n < 8)
		ms->m[ms->n] = *m;
	ms->n++;
}

static void collect_party(void *ctx, const struct st_party *p)
{
	struct st_party *out = ctx;
	out[out[0].number == -1 ? 0 : 1] = *p;
}

/* While a party runs, a step gives up its position when the next one is
 * appended, unless it is a checkpoint (every ST_PARTY_CHECKPOINT-th): the
 * last step's is the party's position, and a rolled-back append gives the
 * shed one back (SQLite's rows only: docs/storage.md). */
static void test_steps_shed_positions(void **state)
{
	struct tmpdb *t = *state;
	SQLITE_ONLY();
	unsigned char snap[32], got[32];
	struct st_party p;
	int64_t party = 0, v = 0;
	int64_t a = make_user(t->s, "Ute");
	int64_t tab = make_table(t->s, 2, a);

	memset(snap, 0x11, sizeof snap);
	assert_int_equal(store_party_create(t->s, tab, 0, 7, 0, snap, sizeof snap, 1000, &party),
			 ST_OK);
	assert_int_equal(store_table_set_status(t->s, tab, TABLE_PLAYING, 0, 0), ST_OK);
	for (int i = 1; i <= ST_PARTY_CHECKPOINT + 2; i++) {
		snap[0] = (unsigned char)i;
		assert_int_equal(store_begin(t->s), ST_OK);
		assert_int_equal(store_move_append(t->s, party, i % 2, "zug", 1000 + i, i + 1, snap,
						   sizeof snap), ST_OK);
		assert_int_equal(store_table_bump(t->s, tab, i, 0, i, &v), ST_OK);
		assert_int_equal(store_commit(t->s), ST_OK);
		assert_int_equal(store_party_get(t->s, tab, 0, &p, got, sizeof got), ST_OK);
		assert_int_equal(p.snap_len, sizeof snap);
		assert_int_equal(got[0], i);
	}
	/* the checkpoint and the last step keep theirs */
	assert_int_equal(peek_int(t->path, "SELECT count(*) FROM moves"), ST_PARTY_CHECKPOINT + 2);
	assert_int_equal(peek_int(t->path, "SELECT count(*) FROM moves WHERE snapshot IS NOT NULL"),
			 2);
	assert_int_equal(peek_int(t->path, "SELECT min(seq) FROM moves WHERE snapshot IS NOT NULL"),
			 ST_PARTY_CHECKPOINT);
	assert_int_equal(peek_int(t->path, "SELECT max(seq) FROM moves WHERE snapshot IS NOT NULL"),
			 ST_PARTY_CHECKPOINT + 2);

	/* a rolled-back append leaves the last step its position */
	assert_int_equal(store_begin(t->s), ST_OK);
	assert_int_equal(store_move_append(t->s, party, 0, "zug", 2000, 99, snap, 5), ST_OK);
	store_rollback(t->s);
	assert_int_equal(store_party_get(t->s, tab, 0, &p, got, sizeof got), ST_OK);
	assert_int_equal(p.snap_len, sizeof snap);
	assert_int_equal(got[0], ST_PARTY_CHECKPOINT + 2);
	assert_int_equal(peek_int(t->path, "SELECT count(*) FROM moves WHERE snapshot IS NOT NULL"),
			 2);

	/* store_step_append: the party read says its last step, and that one
	 * gives up its position by its key */
	assert_int_equal(store_party_get(t->s, tab, 0, &p, got, sizeof got), ST_OK);
	assert_int_equal(p.steps, ST_PARTY_CHECKPOINT + 2);
	assert_int_equal(store_begin(t->s), ST_OK);
	snap[0] = 0x77;
	assert_int_equal(store_step_append(t->s, party, p.steps, 1, "zug", 3000, 50, snap,
					   sizeof snap), ST_OK);
	assert_int_equal(store_commit(t->s), ST_OK);
	assert_int_equal(store_party_get(t->s, tab, 0, &p, got, sizeof got), ST_OK);
	assert_int_equal(p.steps, ST_PARTY_CHECKPOINT + 3);
	assert_int_equal(got[0], 0x77);
	assert_int_equal(peek_int(t->path, "SELECT count(*) FROM moves WHERE snapshot IS NOT NULL"),
			 2);
	/* a first step sheds nothing */
	int64_t party2 = 0;
	assert_int_equal(store_party_create(t->s, tab, 1, 8, 0, snap, sizeof snap, 1000, &party2),
			 ST_OK);
	assert_int_equal(store_party_get(t->s, tab, 1, &p, got, sizeof got), ST_OK);
	assert_int_equal(p.steps, 0);
	assert_int_equal(store_step_append(t->s, party2, p.steps, 0, "zug", 3100, 51, snap,
					   sizeof snap), ST_OK);
	assert_int_equal(peek_int(t->path, "SELECT count(*) FROM moves WHERE snapshot IS NOT NULL"),
			 3);
}

/* store_step_append puts the step at `last` + 1 by its key; a `last`
 * behind the party's true count (a caller that appended without counting)
 * still appends after the last step, once, nothing else changed. Both
 * backends. */
static void test_step_append_seq(void **state)
{
	struct tmpdb *t = *state;
	unsigned char snap[16], got[16];
	struct st_party p;
	struct moves_seen l = { 0 };
	int64_t party = 0;
	int64_t a = make_user(t->s, "Udo");
	int64_t tab = make_table(t->s, 2, a);

	memset(snap, 0x22, sizeof snap);
	assert_int_equal(store_party_create(t->s, tab, 0, 7, 0, snap, sizeof snap, 1000, &party),
			 ST_OK);
	assert_int_equal(store_begin(t->s), ST_OK);
	assert_int_equal(store_step_append(t->s, party, 0, 0, "eins", 1001, 2, snap, sizeof snap),
			 ST_OK);
	assert_int_equal(store_move_append(t->s, party, 1, "zwei", 1002, 3, snap, sizeof snap),
			 ST_OK);
	/* the caller still counts 1 step: the third lands at 3, not on 2 */
	snap[0] = 0x33;
	assert_int_equal(store_step_append(t->s, party, 1, 0, "drei", 1003, 4, snap, sizeof snap),
			 ST_OK);
	assert_int_equal(store_commit(t->s), ST_OK);
	assert_int_equal(store_moves(t->s, party, 0, collect_move, &l), ST_OK);
	assert_int_equal(l.n, 3);
	assert_int_equal(l.m[0].seq, 1);
	assert_string_equal(l.m[0].text, "eins");
	assert_int_equal(l.m[1].seq, 2);
	assert_string_equal(l.m[1].text, "zwei");
	assert_int_equal(l.m[1].version, 3);
	assert_int_equal(l.m[2].seq, 3);
	assert_string_equal(l.m[2].text, "drei");
	assert_int_equal(l.m[2].version, 4);
	assert_int_equal(store_party_get(t->s, tab, 0, &p, got, sizeof got), ST_OK);
	assert_int_equal(p.steps, 3);
	assert_int_equal(got[0], 0x33);
}

/* The write sequence of one move, committed; then one rolled back. */
static void test_move_transaction(void **state)
{
	struct tmpdb *t = *state;
	unsigned char snap[64], got[64];
	struct st_party p;
	struct moves_seen ms;
	int64_t party = 0, n = -1, v = 0;
	int yes = -1;
	struct party_result score = { { 1, 3, 2 }, { 5, -2, 0 } };
	int64_t a = make_user(t->s, "Ida");
	int64_t tab = make_table(t->s, 3, a);

	memset(snap, 0xAB, sizeof snap);
	assert_int_equal(store_party_create(t->s, tab, 0, UINT64_C(0xFEDCBA9876543210), 2, snap,
					    sizeof snap, 3000, &party),
			 ST_OK);
	assert_int_equal(store_table_set_status(t->s, tab, TABLE_PLAYING, 0, 2), ST_OK);

	/* the party's position is its deal until it has a step */
	assert_int_equal(store_party_get(t->s, tab, 0, &p, got, sizeof got), ST_OK);
	assert_int_equal(p.snap_len, sizeof snap);
	assert_memory_equal(got, snap, sizeof snap);

	assert_int_equal(store_begin(t->s), ST_OK);
	snap[0] = 1;
	assert_int_equal(store_move_append(t->s, party, 1, "play rot-3 on 2", 4000, 2, snap, 10),
			 ST_OK);
	assert_int_equal(store_table_bump(t->s, tab, 1, 0, 1, &v), ST_OK);
	assert_int_equal(store_commit(t->s), ST_OK);
	assert_int_equal(v, 2);

	assert_int_equal(store_party_get(t->s, tab, 0, &p, got, sizeof got), ST_OK);
	assert_int_equal(p.id, party);
	assert_int_equal(p.snap_len, 10);
	assert_memory_equal(got, snap, 10);
	assert_true(p.seed == UINT64_C(0xFEDCBA9876543210));
	assert_int_equal(p.dealer, 2);
	assert_int_equal(p.over, 0);
	/* A snapshot larger than the buffer is an error, not a short copy. */
	assert_int_equal(store_party_get(t->s, tab, 0, &p, got, 5), ST_ERR);
	assert_int_equal(store_party_get(t->s, tab, 7, &p, got, sizeof got), ST_NOTFOUND);

	/* A write that is rolled back leaves no trace. */
	assert_int_equal(store_begin(t->s), ST_OK);
	assert_int_equal(store_move_append(t->s, party, 0, "pass", 5000, 3, snap, 11), ST_OK);
	assert_int_equal(store_table_bump(t->s, tab, 2, 0, 2, NULL), ST_OK);
	store_rollback(t->s);
	assert_int_equal(store_move_count(t->s, party, &n), ST_OK);
	assert_int_equal(n, 1);
	assert_int_equal(store_table_poll(t->s, tab, &v, &n), ST_OK);
	assert_int_equal(v, 2);
	store_rollback(t->s);   /* harmless without a transaction */

	assert_int_equal(store_begin(t->s), ST_OK);
	assert_int_equal(store_move_append(t->s, party, -1, "tick", 6000, 3, snap, 10), ST_OK);
	assert_int_equal(store_move_append(t->s, party, 0, "pass", 6000, 4, snap, 12), ST_OK);
	assert_int_equal(store_party_end(t->s, party, snap, 12, &score, 3), ST_OK);
	assert_int_equal(store_commit(t->s), ST_OK);
	/* the finished party's position is its last step's */
	assert_int_equal(store_party_get(t->s, tab, 0, &p, got, sizeof got), ST_OK);
	assert_int_equal(p.snap_len, 12);
	assert_int_equal(p.over, 1);

	memset(&ms, 0, sizeof ms);
	assert_int_equal(store_moves(t->s, party, 0, collect_move, &ms), ST_OK);
	assert_int_equal(ms.n, 3);
	assert_int_equal(ms.m[0].seq, 1);
	assert_string_equal(ms.m[0].text, "play rot-3 on 2");
	assert_int_equal(ms.m[0].seat, 1);
	assert_int_equal(ms.m[0].at, 4000);
	assert_int_equal(ms.m[1].seat, -1);
	assert_int_equal(ms.m[2].seq, 3);
	assert_int_equal(ms.m[2].version, 4);
	memset(&ms, 0, sizeof ms);
	assert_int_equal(store_moves(t->s, party, 2, collect_move, &ms), ST_OK);
	assert_int_equal(ms.n, 1);

	assert_int_equal(store_seat_moved_since(t->s, party, 1, 1, &yes), ST_OK);
	assert_int_equal(yes, 1);
	assert_int_equal(store_seat_moved_since(t->s, party, 1, 2, &yes), ST_OK);
	assert_int_equal(yes, 0);
	assert_int_equal(store_seat_moved_since(t->s, party, 0, 3, &yes), ST_OK);
	assert_int_equal(yes, 1);
	assert_int_equal(store_seat_moved_since(t->s, party, 2, 0, &yes), ST_OK);
	assert_int_equal(yes, 0);

	/* Finished parties with their scores, in order; the latest by number -1. */
	int64_t party2;
	assert_int_equal(store_party_create(t->s, tab, 1, 42, 0, snap, 3, 7000, &party2), ST_OK);
	struct st_party fin[2];
	memset(fin, 0, sizeof fin);
	fin[0].number = -1;
	assert_int_equal(store_parties_of_table(t->s, tab, collect_party, fin), ST_OK);
	assert_int_equal(fin[0].number, 0);
	assert_int_equal(fin[0].over, 1);
	assert_int_equal(fin[0].result.points[0], 5);
	assert_int_equal(fin[0].result.points[1], -2);
	assert_int_equal(fin[0].result.points[2], 0);
	assert_int_equal(fin[0].result.place[0], 1);
	assert_int_equal(fin[0].result.place[1], 3);
	assert_int_equal(fin[0].result.place[2], 2);
	/* one row per seat, so totals are plain SQL */
	assert_int_equal(peek_int(t->path, "SELECT count(*) FROM party_results"), 3);
	assert_int_equal(peek_int(t->path, "SELECT sum(points) FROM party_results"), 3);
	assert_int_equal(fin[0].snap_len, 12);
	assert_int_equal(fin[1].number, 0);   /* party 2 is not over: not listed */
	assert_int_equal(store_party_get(t->s, tab, -1, &p, NULL, 0), ST_OK);
	assert_int_equal(p.id, party2);
	assert_int_equal(p.number, 1);
	/* Party numbers are unique per table. */
	assert_int_not_equal(store_party_create(t->s, tab, 1, 43, 0, snap, 3, 7000, NULL), ST_OK);
}

/* What the table page's reads hand on (test_table_page). */
struct page_seen {
	int nfin, nlog, nchat, nmuted;
	struct st_party fin[4];
	int log_number[8];
	int64_t log_seq[8];
	int64_t chat_user[4], muted[4];
};

static void page_fin(void *ctx, const struct st_party *p)
{
	struct page_seen *ps = ctx;
	if (ps->nfin < 4)
		ps->fin[ps->nfin] = *p;
	ps->nfin++;
}

static void page_log(void *ctx, int number, const struct st_move *m)
{
	struct page_seen *ps = ctx;
	if (ps->nlog < 8) {
		ps->log_number[ps->nlog] = number;
		ps->log_seq[ps->nlog] = m ? m->seq : 0;
	}
	ps->nlog++;
}

static void page_chat(void *ctx, const struct st_chat *m)
{
	struct page_seen *ps = ctx;
	assert_int_equal(ps->nmuted, 0);   /* every message before the muted */
	if (ps->nchat < 4)
		ps->chat_user[ps->nchat] = m->user_id;
	ps->nchat++;
}

static void page_muted(void *ctx, int64_t user, const char *name)
{
	struct page_seen *ps = ctx;
	(void)name;
	if (ps->nmuted < 4)
		ps->muted[ps->nmuted] = user;
	ps->nmuted++;
}

/* The table page's reads: store_table_page (the table, its current party at
 * its last step, the viewer's last step, the seats in order, the finished
 * parties with their results), store_chat_card and store_table_logs give
 * what the single reads before them gave. */
/* A table whose first party (number 0) is its only one and over: the page
 * reads its result though no later party was started (the page's second
 * statement reads results only once a party can be over). */
static void test_table_page_first_over(void **state)
{
	struct tmpdb *t = *state;
	unsigned char snap[4] = { 1, 2, 3, 4 }, got[16];
	struct party_result score = { { 2, 1 }, { -3, 3 } };
	struct st_table_page pg;
	struct page_seen ps;
	int64_t a = make_user(t->s, "Ada"), b = make_user(t->s, "Bea");
	int64_t tab = make_table(t->s, 2, a), p0;
	int seat;
	assert_int_equal(store_seat_take(t->s, tab, a, &seat), ST_OK);
	assert_int_equal(store_seat_take(t->s, tab, b, &seat), ST_OK);
	assert_int_equal(store_party_create(t->s, tab, 0, 11, 0, snap, 4, 1000, &p0), ST_OK);
	assert_int_equal(store_table_set_status(t->s, tab, TABLE_PLAYING, 0, 0), ST_OK);
	memset(&ps, 0, sizeof ps);
	assert_int_equal(store_table_page(t->s, tab, a, &pg, got, sizeof got, page_fin, &ps),
			 ST_OK);
	assert_int_equal(ps.nfin, 0);   /* party 0 running: nothing finished */
	assert_int_equal(pg.nseated, 2);
	assert_int_equal(store_party_end(t->s, p0, snap, 4, &score, 2), ST_OK);
	assert_int_equal(store_table_set_status(t->s, tab, TABLE_FINISHED, 0, 0), ST_OK);
	memset(&ps, 0, sizeof ps);
	assert_int_equal(store_table_page(t->s, tab, a, &pg, got, sizeof got, page_fin, &ps),
			 ST_OK);
	assert_int_equal(pg.party.over, 1);
	assert_int_equal(pg.nseated, 2);
	assert_string_equal(pg.seats[1].name, "Bea");
	assert_int_equal(ps.nfin, 1);
	assert_int_equal(ps.fin[0].id, p0);
	assert_int_equal(ps.fin[0].result.place[1], 1);
	assert_int_equal(ps.fin[0].result.points[0], -3);
	assert_int_equal(pg.party.result.points[1], 3);
}

/* A running table pausing after its party: the page's second statement
 * says who continued (a step after the epoch), with the party's result;
 * only then (the table row no longer reads it). */
static void test_table_page_pause(void **state)
{
	struct tmpdb *t = *state;
	unsigned char snap[4] = { 1, 2, 3, 4 }, got[16];
	struct party_result score = { { 1, 2, 3 }, { 5, 2, 0 } };
	struct st_table_page pg;
	struct page_seen ps;
	int64_t a = make_user(t->s, "Ada"), b = make_user(t->s, "Bea"), c = make_user(t->s, "Cem");
	int64_t tab = make_table(t->s, 3, a), p0, v = 0;
	int seat;
	assert_int_equal(store_seat_take(t->s, tab, a, &seat), ST_OK);
	assert_int_equal(store_seat_take(t->s, tab, b, &seat), ST_OK);
	assert_int_equal(store_seat_take(t->s, tab, c, &seat), ST_OK);
	assert_int_equal(store_party_create(t->s, tab, 0, 11, 0, snap, 4, 1000, &p0), ST_OK);
	assert_int_equal(store_table_set_status(t->s, tab, TABLE_PLAYING, 0, 0), ST_OK);
	assert_int_equal(store_move_append(t->s, p0, 2, "a", 1100, 2, snap, 4), ST_OK);
	assert_int_equal(store_table_page(t->s, tab, a, &pg, got, sizeof got, NULL, NULL),
			 ST_OK);
	assert_int_equal(pg.continued, 0);   /* running: nobody continues */
	assert_int_equal(store_party_end(t->s, p0, snap, 4, &score, 3), ST_OK);
	for (int i = 0; i < 3; i++)
		assert_int_equal(store_table_bump_public(t->s, tab, &v), ST_OK);
	assert_int_equal(store_table_new_epoch(t->s, tab), ST_OK);
	memset(&ps, 0, sizeof ps);
	assert_int_equal(store_table_page(t->s, tab, a, &pg, got, sizeof got, page_fin, &ps),
			 ST_OK);
	assert_int_equal(pg.continued, 0);   /* seat 2's step was before the epoch */
	assert_int_equal(ps.nfin, 1);
	assert_int_equal(store_move_append(t->s, p0, 1, "weiter", 1200, v + 1, snap, 4), ST_OK);
	assert_int_equal(store_move_append(t->s, p0, 2, "weiter", 1300, v + 2, snap, 4), ST_OK);
	memset(&ps, 0, sizeof ps);
	assert_int_equal(store_table_page(t->s, tab, c, &pg, got, sizeof got, page_fin, &ps),
			 ST_OK);
	assert_int_equal(pg.continued, 0x6);
	assert_int_equal(pg.nseated, 3);
	assert_int_equal(ps.nfin, 1);
	assert_int_equal(ps.fin[0].result.points[0], 5);
	assert_int_equal(pg.party.result.place[2], 3);
	/* a table that ended continues no more */
	assert_int_equal(store_table_set_status(t->s, tab, TABLE_FINISHED, 0, 0), ST_OK);
	assert_int_equal(store_table_page(t->s, tab, c, &pg, got, sizeof got, NULL, NULL), ST_OK);
	assert_int_equal(pg.continued, 0);
}

static void test_table_page(void **state)
{
	struct tmpdb *t = *state;
	unsigned char snap[16], got[16];
	struct party_result score = { { 2, 1, 3 }, { 4, 9, -1 } };
	struct st_table_page pg;
	struct page_seen ps;
	int64_t a = make_user(t->s, "Ada"), b = make_user(t->s, "Bea"), c = make_user(t->s, "Cem");
	int64_t tab = make_table(t->s, 3, a), p0, p1;
	int seat;
	assert_int_equal(store_seat_take(t->s, tab, a, &seat), ST_OK);
	assert_int_equal(store_seat_take(t->s, tab, b, &seat), ST_OK);
	assert_int_equal(store_seat_take(t->s, tab, c, &seat), ST_OK);
	memset(snap, 7, sizeof snap);
	assert_int_equal(store_party_create(t->s, tab, 0, 11, 0, snap, 4, 1000, &p0), ST_OK);
	assert_int_equal(store_move_append(t->s, p0, 0, "a", 1100, 2, snap, 4), ST_OK);
	assert_int_equal(store_move_append(t->s, p0, 1, "b", 1200, 3, snap, 4), ST_OK);
	assert_int_equal(store_party_end(t->s, p0, snap, 4, &score, 3), ST_OK);
	assert_int_equal(store_party_create(t->s, tab, 1, 12, 1, snap, 4, 2000, &p1), ST_OK);
	snap[0] = 42;
	assert_int_equal(store_move_append(t->s, p1, 1, "c", 2100, 5, snap, 9), ST_OK);
	assert_int_equal(store_move_append(t->s, p1, 0, "d", 2200, 6, snap, 10), ST_OK);
	assert_int_equal(store_table_set_status(t->s, tab, TABLE_PLAYING, 1, 0), ST_OK);

	memset(&ps, 0, sizeof ps);
	assert_int_equal(store_table_page(t->s, tab, b, &pg, got, sizeof got, page_fin, &ps),
			 ST_OK);
	assert_int_equal(pg.t.id, tab);
	assert_int_equal(pg.t.status, TABLE_PLAYING);
	assert_int_equal(pg.t.spectators, 1);
	assert_true(pg.has_party);
	assert_int_equal(pg.party.id, p1);
	assert_int_equal(pg.party.number, 1);
	assert_int_equal(pg.party.dealer, 1);
	assert_int_equal(pg.party.over, 0);
	assert_int_equal(pg.party.snap_len, 10);   /* the last step's position */
	assert_memory_equal(got, snap, 10);
	assert_int_equal(pg.my_last, 5);           /* Bea holds seat 1 */
	assert_int_equal(pg.in_tourney, 0);
	assert_int_equal(pg.nseated, 3);
	for (int i = 0; i < 3; i++)
		assert_int_equal(pg.seats[i].seat, i);
	assert_string_equal(pg.seats[1].name, "Bea");
	assert_int_equal(ps.nfin, 1);
	assert_int_equal(ps.fin[0].id, p0);
	assert_int_equal(ps.fin[0].number, 0);
	assert_int_equal(ps.fin[0].result.points[1], 9);
	assert_int_equal(ps.fin[0].result.place[2], 3);
	/* the waiting count is the one store_user_acting keeps */
	int n = -1;
	assert_int_equal(store_user_acting(t->s, b, &n), ST_OK);
	assert_int_equal(store_table_page(t->s, tab, b, &pg, got, sizeof got, NULL, NULL), ST_OK);
	assert_int_equal(pg.waiting, n);
	assert_false(pg.has_chat);   /* no message yet: the page reads no chat */
	/* nobody logged in: no last step, no count */
	assert_int_equal(store_table_page(t->s, tab, 0, &pg, got, sizeof got, NULL, NULL), ST_OK);
	assert_int_equal(pg.my_last, 0);
	assert_int_equal(pg.waiting, -1);
	assert_int_equal(store_table_page(t->s, tab, a, &pg, got, 5, NULL, NULL), ST_ERR);
	assert_int_equal(store_table_page(t->s, tab + 99, a, &pg, got, sizeof got, NULL, NULL),
			 ST_NOTFOUND);

	/* the finished parties' steps in one read, in order */
	memset(&ps, 0, sizeof ps);
	assert_int_equal(store_table_logs(t->s, tab, page_log, &ps), ST_OK);
	assert_int_equal(ps.nlog, 2);
	assert_int_equal(ps.log_number[0], 0);
	assert_int_equal(ps.log_seq[0], 1);
	assert_int_equal(ps.log_seq[1], 2);

	/* the chat card: Bea muted Cem, so she sees Ada's message and Cem muted */
	assert_int_equal(store_chat_add(t->s, tab, a, "hallo", 3000), ST_OK);
	assert_int_equal(store_chat_add(t->s, tab, c, "moin", 3100), ST_OK);
	assert_int_equal(store_chat_add(t->s, tab, a, "na", 3200), ST_OK);
	assert_int_equal(store_chat_mute(t->s, tab, b, c, 1, 3300), ST_OK);
	memset(&ps, 0, sizeof ps);
	assert_int_equal(store_chat_card(t->s, tab, b, 10, page_chat, page_muted, &ps), ST_OK);
	assert_int_equal(ps.nchat, 2);
	assert_int_equal(ps.chat_user[0], a);
	assert_int_equal(ps.nmuted, 1);
	assert_int_equal(ps.muted[0], c);
	memset(&ps, 0, sizeof ps);
	assert_int_equal(store_chat_card(t->s, tab, 0, 2, page_chat, page_muted, &ps), ST_OK);
	assert_int_equal(ps.nchat, 2);   /* the newest two, nobody muted */
	assert_int_equal(ps.chat_user[0], a);
	assert_int_equal(ps.chat_user[1], c);
	assert_int_equal(ps.nmuted, 0);
	/* with a message the page statement says so, whoever looks */
	assert_int_equal(store_table_page(t->s, tab, 0, &pg, got, sizeof got, NULL, NULL), ST_OK);
	assert_true(pg.has_chat);
	assert_int_equal(store_table_page(t->s, tab, b, &pg, got, sizeof got, NULL, NULL), ST_OK);
	assert_true(pg.has_chat);

	/* a tournament's table: its tournament in the same read, the name
	 * whole (spaces and digits in it) */
	int64_t tid = make_tourney(t->s, "Pokal 3 der Freunde", 3, 4);
	assert_int_equal(store_ttable_add(t->s, tid, 2, 7, tab), ST_OK);
	assert_int_equal(store_table_page(t->s, tab, b, &pg, got, sizeof got, NULL, NULL), ST_OK);
	assert_true(pg.in_tourney);
	assert_int_equal(pg.tourney.id, tid);
	assert_int_equal(pg.tourney.round, 2);
	assert_int_equal(pg.tourney.number, 7);
	assert_string_equal(pg.tourney.name, "Pokal 3 der Freunde");
	assert_int_equal(pg.my_last, 5);
}

/* 032: the table's row keeps its tournament, whether its chat has a
 * message and its host's name, and the reads take them from there: each
 * follows the one call that changes it (store_ttable_add, store_chat_add,
 * store_table_create) for that table only. */
static void test_page_kept(void **state)
{
	struct tmpdb *t = *state;
	unsigned char got[16];
	struct st_table_page pg;
	struct st_table tb;
	int64_t a = make_user(t->s, "Ada"), b = make_user(t->s, "Bea");
	int64_t one = make_table(t->s, 2, a), two = make_table(t->s, 2, b), tid = 0, none = 0;
	assert_int_equal(store_table_page(t->s, one, a, &pg, got, sizeof got, NULL, NULL), ST_OK);
	assert_false(pg.has_chat);
	assert_false(pg.in_tourney);
	assert_string_equal(pg.t.host, "Ada");
	assert_int_equal(store_table_get(t->s, two, &tb), ST_OK);
	assert_string_equal(tb.host, "Bea");
	assert_int_equal(store_table_create(t->s, "drehwurm", "", 2, 1, 0, 2000, &none), ST_OK);
	assert_int_equal(store_table_get(t->s, none, &tb), ST_OK);
	assert_string_equal(tb.host, "");   /* nobody opened it (a tournament's) */
	assert_int_equal(store_chat_add(t->s, one, a, "hallo", 3000), ST_OK);
	assert_int_equal(store_table_page(t->s, one, a, &pg, got, sizeof got, NULL, NULL), ST_OK);
	assert_true(pg.has_chat);
	assert_int_equal(store_chat_add(t->s, one, a, "noch was", 3100), ST_OK);
	assert_int_equal(store_table_page(t->s, one, 0, &pg, got, sizeof got, NULL, NULL), ST_OK);
	assert_true(pg.has_chat);
	assert_int_equal(store_table_page(t->s, two, a, &pg, got, sizeof got, NULL, NULL), ST_OK);
	assert_false(pg.has_chat);   /* the other table's chat */

	tid = make_tourney(t->s, "Herbst 12", 2, 3);
	assert_int_equal(store_ttable_add(t->s, tid, 1, 0, two), ST_OK);
	assert_int_equal(store_table_page(t->s, two, 0, &pg, got, sizeof got, NULL, NULL), ST_OK);
	assert_true(pg.in_tourney);
	assert_int_equal(pg.tourney.id, tid);
	assert_int_equal(pg.tourney.round, 1);
	assert_int_equal(pg.tourney.number, 0);
	assert_string_equal(pg.tourney.name, "Herbst 12");
	assert_false(pg.has_chat);
	assert_int_equal(store_table_page(t->s, one, a, &pg, got, sizeof got, NULL, NULL), ST_OK);
	assert_false(pg.in_tourney);   /* the other table's tournament */

	/* a seat keeps its user's and its claimer's names: taken, a bot's,
	 * claimed, the claim taken effect, in the page's and the seats' read */
	struct st_seat seats[4];
	int seat = -1, n = 0;
	assert_int_equal(store_seat_take(t->s, two, b, &seat), ST_OK);
	assert_int_equal(store_seat_add_bot(t->s, two, 2, &seat), ST_OK);
	assert_int_equal(seat, 1);
	assert_int_equal(store_table_seats(t->s, two, seats, 4, &n), ST_OK);
	assert_int_equal(n, 2);
	assert_string_equal(seats[0].name, "Bea");
	assert_string_equal(seats[1].name, "");
	assert_string_equal(seats[1].claimer, "");
	assert_int_equal(store_seat_claim(t->s, two, 1, a), ST_OK);
	assert_int_equal(store_table_page(t->s, two, a, &pg, got, sizeof got, NULL, NULL), ST_OK);
	assert_string_equal(pg.seats[1].name, "");
	assert_string_equal(pg.seats[1].claimer, "Ada");
	assert_int_equal(pg.seats[1].claimed_by, a);
	assert_string_equal(pg.seats[0].claimer, "");
	assert_int_equal(store_seats_apply_claims(t->s, two, 5000), ST_OK);
	assert_int_equal(store_table_seats(t->s, two, seats, 4, &n), ST_OK);
	assert_string_equal(seats[1].name, "Ada");
	assert_string_equal(seats[1].claimer, "");
	assert_int_equal(seats[1].user_id, a);
	assert_string_equal(seats[0].name, "Bea");
	/* a seat left and taken again is its new user's */
	assert_int_equal(store_seat_leave(t->s, two, b), ST_OK);
	int64_t c = make_user(t->s, "Cem");
	assert_int_equal(store_seat_take(t->s, two, c, &seat), ST_OK);
	assert_int_equal(seat, 0);
	assert_int_equal(store_table_seats(t->s, two, seats, 4, &n), ST_OK);
	assert_string_equal(seats[0].name, "Cem");

	/* a session keeps its user's name and language: at its start, and
	 * every session of the user when the language changes */
	unsigned char h1[32], h2[32], h3[32];
	struct st_session ss;
	memset(h1, 1, sizeof h1);
	memset(h2, 2, sizeof h2);
	memset(h3, 3, sizeof h3);
	assert_int_equal(store_user_set_lang(t->s, a, "en"), ST_OK);
	assert_int_equal(store_session_create(t->s, h1, a, "c1", 9000), ST_OK);
	assert_int_equal(store_session_create(t->s, h2, a, "c2", 9000), ST_OK);
	assert_int_equal(store_session_create(t->s, h3, b, "c3", 9000), ST_OK);
	assert_int_equal(store_session_get(t->s, h1, 10, &ss), ST_OK);
	assert_string_equal(ss.name, "Ada");
	assert_string_equal(ss.lang, "en");
	assert_int_equal(store_user_set_lang(t->s, a, "de"), ST_OK);
	assert_int_equal(store_session_get(t->s, h1, 10, &ss), ST_OK);
	assert_string_equal(ss.lang, "de");
	assert_int_equal(store_session_get(t->s, h2, 10, &ss), ST_OK);
	assert_string_equal(ss.lang, "de");
	assert_int_equal(store_session_get(t->s, h3, 10, &ss), ST_OK);
	assert_string_equal(ss.name, "Bea");
	assert_string_equal(ss.lang, "");   /* the other user's: none chosen */
	/* inside the caller's transaction, and undone with it */
	assert_int_equal(store_begin(t->s), ST_OK);
	assert_int_equal(store_user_set_lang(t->s, b, "en"), ST_OK);
	store_rollback(t->s);
	assert_int_equal(store_session_get(t->s, h3, 10, &ss), ST_OK);
	assert_string_equal(ss.lang, "");
}

/* 032 fills the kept values of the rows a version-31 file holds (made
 * here from a file of this version: its tables and tournament's rows
 * written by the store, then 032's columns dropped). */
static void test_page_kept_migration(void **state)
{
	SQLITE_ONLY();
	struct tmpdb *t = *state;
	unsigned char got[16];
	struct st_table_page pg;
	int64_t a = make_user(t->s, "Ole"), tid = 0;
	int64_t one = make_table(t->s, 2, a), two = make_table(t->s, 2, a);
	tid = make_tourney(t->s, "Cup 2", 2, 4);
	assert_int_equal(store_ttable_add(t->s, tid, 3, 1, two), ST_OK);
	assert_int_equal(store_chat_add(t->s, one, a, "hi", 2000), ST_OK);
	int seat = -1;
	assert_int_equal(store_seat_add_bot(t->s, one, 1, &seat), ST_OK);
	assert_int_equal(store_seat_claim(t->s, one, seat, a), ST_OK);
	assert_int_equal(store_seat_take(t->s, one, a, &seat), ST_OK);
	unsigned char h[32];
	struct st_session ss;
	memset(h, 7, sizeof h);
	assert_int_equal(store_user_set_lang(t->s, a, "en"), ST_OK);
	assert_int_equal(store_session_create(t->s, h, a, "c", 5000), ST_OK);
	store_close(t->s);
	t->s = NULL;
	exec_sql(t->path, "ALTER TABLE tables DROP COLUMN tourney;"
		 "ALTER TABLE tables DROP COLUMN has_chat; ALTER TABLE tables DROP COLUMN host;"
		 "ALTER TABLE sessions DROP COLUMN name; ALTER TABLE sessions DROP COLUMN lang;"
		 "ALTER TABLE seats DROP COLUMN name; ALTER TABLE seats DROP COLUMN claimer;"
		 " PRAGMA user_version = 31");
	assert_int_equal(store_open(&t->s, t->path, t->schema), ST_OK);
	assert_int_equal(peek_int(t->path, "PRAGMA user_version"), SCHEMA_VERSION);
	assert_int_equal(store_table_page(t->s, one, 0, &pg, got, sizeof got, NULL, NULL), ST_OK);
	assert_true(pg.has_chat);
	assert_false(pg.in_tourney);
	assert_string_equal(pg.t.host, "Ole");
	assert_int_equal(pg.nseated, 2);
	assert_string_equal(pg.seats[0].name, "");      /* the bot */
	assert_string_equal(pg.seats[0].claimer, "Ole");
	assert_string_equal(pg.seats[1].name, "Ole");
	assert_string_equal(pg.seats[1].claimer, "");
	assert_int_equal(store_table_page(t->s, two, 0, &pg, got, sizeof got, NULL, NULL), ST_OK);
	assert_false(pg.has_chat);
	assert_true(pg.in_tourney);
	assert_int_equal(pg.tourney.id, tid);
	assert_int_equal(pg.tourney.round, 3);
	assert_int_equal(pg.tourney.number, 1);
	assert_string_equal(pg.tourney.name, "Cup 2");
	assert_int_equal(store_session_get(t->s, h, 10, &ss), ST_OK);
	assert_string_equal(ss.name, "Ole");
	assert_string_equal(ss.lang, "en");
}

/* Two connections: the second writer waits for the first one's lock and
 * then sees its commit. */
/* 004_bots: the seats of a version-3 file keep their people (bot 0); a bot
 * takes the lowest free seat without a user; a seat with neither a user nor
 * a bot, or resigned without a bot, is refused by the schema. */
static void test_bots_migration(void **state)
{
	SQLITE_ONLY();
	struct tmpdb *t = *state;
	char src[700], db3[700];
	snprintf(db3, sizeof db3, "%s/v3.db", t->dir);
	for (int i = 0; i < 3; i++) {
		snprintf(src, sizeof src, "%s/%s", t->schema, real_migrations[i]);
		char *sql = read_file(src);
		exec_sql(db3, sql);
		free(sql);
	}
	exec_sql(db3, "INSERT INTO users (id, name, name_key, pwhash, created_at)"
		      " VALUES (1, 'Ole', 'ole', '$argon2id$x', 1);"
		      "INSERT INTO tables (id, game, options, nseats, nparties, created_by, created_at)"
		      " VALUES (5, 'drehwurm', '', 3, 1, 1, 1);"
		      "INSERT INTO seats (table_id, seat, user_id) VALUES (5, 1, 1)");
	store_close(t->s);
	assert_int_equal(store_open(&t->s, db3, t->schema), ST_OK);
	assert_int_equal(peek_int(db3, "PRAGMA user_version"), SCHEMA_VERSION);
	assert_int_equal(peek_int(db3, "SELECT count(*) FROM seats WHERE table_id = 5 AND seat = 1"
				   " AND user_id = 1 AND bot = 0 AND resigned = 0"), 1);
	/* 031 counted the seat the file held; a bot added counts as one more */
	assert_int_equal(peek_int(db3, "SELECT seats_taken FROM tables WHERE id = 5"), 1);
	int seat = -1, n = 0;
	struct st_seat seats[10];
	assert_int_equal(store_seat_add_bot(t->s, 5, 2, &seat), ST_OK);
	assert_int_equal(seat, 0);
	assert_int_equal(store_seat_add_bot(t->s, 5, 1, &seat), ST_OK);
	assert_int_equal(seat, 2);
	assert_int_equal(store_seat_add_bot(t->s, 5, 1, &seat), ST_CONFLICT);
	assert_int_equal(peek_int(db3, "SELECT seats_taken FROM tables WHERE id = 5"), 3);
	assert_int_equal(store_table_seats(t->s, 5, seats, 10, &n), ST_OK);
	assert_int_equal(n, 3);
	assert_int_equal(seats[0].bot, 2);
	assert_int_equal(seats[0].user_id, 0);
	assert_string_equal(seats[0].name, "");
	assert_string_equal(seats[1].name, "Ole");
	assert_int_equal(store_seat_set_bot(t->s, 5, 1, 2, 1), ST_OK);
	assert_int_equal(store_table_seats(t->s, 5, seats, 10, &n), ST_OK);
	assert_int_equal(seats[1].resigned, 1);
	assert_int_equal(seats[1].user_id, 1);
	assert_int_equal(store_seat_set_bot(t->s, 5, 1, 0, 1), ST_ERR);   /* resigned needs a bot */
	assert_int_equal(store_seat_set_bot(t->s, 5, 0, 0, 0), ST_ERR);   /* no user, no bot */
	assert_int_equal(store_seat_set_bot(t->s, 5, 7, 1, 0), ST_NOTFOUND);
}

/* A table's speed and its seats' clocks: written, read back, reset at the
 * match's start; votes to let a bot take a seat add up. */
static void test_table_clock(void **state)
{
	struct tmpdb *t = *state;
	int64_t a = make_user(t->s, "Uta"), b = make_user(t->s, "Veit"), id = 0;
	struct st_table tb;
	struct st_seat seats[4];
	int seat, n;
	assert_int_equal(store_table_create(t->s, "drehwurm", "", 2, 1, a, 1000, &id), ST_OK);
	assert_int_equal(store_table_get(t->s, id, &tb), ST_OK);
	assert_true(tb.clock.first_ms == 0 && tb.clock.day_ms == CLOCK_DAY_MS && !tb.clock.windows);
	struct clock_rule c = { 3 * 86400000LL, 86400000LL, 3 * 86400000LL, 2000, 1, 1 };
	assert_int_equal(store_table_set_clock(t->s, id, &c, 3), ST_OK);
	assert_int_equal(store_table_get(t->s, id, &tb), ST_OK);
	assert_true(tb.clock.first_ms == c.first_ms && tb.clock.per_move_ms == c.per_move_ms &&
		    tb.clock.cap_ms == c.cap_ms && tb.clock.day_ms == 2000 && tb.clock.weekend == 1 &&
		    tb.clock.windows == 1 && tb.timeouts_max == 3);
	assert_int_equal(store_seat_take(t->s, id, a, &seat), ST_OK);
	assert_int_equal(store_seat_take(t->s, id, b, &seat), ST_OK);
	assert_int_equal(store_seats_reset_clock(t->s, id, c.first_ms), ST_OK);
	assert_int_equal(store_seat_set_clock(t->s, id, 1, -5, 777, 2), ST_OK);
	assert_int_equal(store_seat_expel_vote(t->s, id, 1, 1u), ST_OK);
	assert_int_equal(store_seat_expel_vote(t->s, id, 1, 4u), ST_OK);
	assert_int_equal(store_table_seats(t->s, id, seats, 4, &n), ST_OK);
	assert_int_equal(n, 2);
	assert_true(seats[0].clock_left == c.first_ms && seats[0].waiting_since == 0);
	assert_true(seats[1].clock_left == -5 && seats[1].waiting_since == 777);
	assert_int_equal(seats[1].timeouts, 2);
	assert_int_equal(seats[1].expel_votes, 5);
	assert_int_equal(store_seats_reset_clock(t->s, id, 10), ST_OK);
	assert_int_equal(store_table_seats(t->s, id, seats, 4, &n), ST_OK);
	assert_true(seats[1].clock_left == 10 && seats[1].timeouts == 0 && !seats[1].expel_votes);
}

static void board_name(void *ctx, const struct st_rating *r)
{
	char *out = ctx;
	size_t n = strlen(out);
	snprintf(out + n, 200 - n, "%s ", r->name);
}

static void history_place(void *ctx, const struct st_rating_step *h)
{
	int *sum = ctx;
	*sum = *sum * 10 + h->place;
}

/* Ratings: written with their history, read back; the board lists those
 * with enough matches, best first. */
static void test_ratings_board(void **state)
{
	struct tmpdb *t = *state;
	int64_t a = make_user(t->s, "Rita"), b = make_user(t->s, "Sven"), c = make_user(t->s, "Tara");
	struct st_rating r = { .user_id = a, .mu = 28, .sigma = 7, .shown = 7 };
	assert_int_equal(store_rating_get(t->s, a, "dna", &r), ST_NOTFOUND);
	r = (struct st_rating){ .user_id = a, .mu = 28, .sigma = 7, .shown = 7 };
	assert_int_equal(store_rating_put(t->s, "dna", 0, &r, 1, 3, 1000), ST_OK);
	assert_int_equal(store_rating_put(t->s, "dna", 0, &r, 2, 3, 2000), ST_OK);
	r = (struct st_rating){ .user_id = b, .mu = 30, .sigma = 6, .shown = 12 };
	assert_int_equal(store_rating_put(t->s, "dna", 0, &r, 1, 3, 1000), ST_OK);
	assert_int_equal(store_rating_put(t->s, "dna", 0, &r, 1, 3, 2000), ST_OK);
	r = (struct st_rating){ .user_id = c, .mu = 40, .sigma = 2, .shown = 34 };
	assert_int_equal(store_rating_put(t->s, "dna", 0, &r, 1, 2, 1000), ST_OK);   /* once */
	struct st_rating got;
	assert_int_equal(store_rating_get(t->s, a, "dna", &got), ST_OK);
	assert_int_equal(got.matches, 2);
	assert_true(got.mu == 28 && got.sigma == 7);
	char names[200] = "";
	assert_int_equal(store_rating_board(t->s, "dna", 2, 10, board_name, names), ST_OK);
	assert_string_equal(names, "Sven Rita ");
	int places = 0;
	assert_int_equal(store_rating_history(t->s, a, 10, history_place, &places), ST_OK);
	assert_int_equal(places, 21);   /* newest first */
}

static void test_two_connections(void **state)
{
	struct tmpdb *t = *state;
	struct store *other = NULL;
	struct st_user u;
	assert_int_equal(store_open(&other, t->path, t->schema), ST_OK);
	assert_int_equal(store_begin(t->s), ST_OK);
	make_user(t->s, "Otto");
	/* Not committed yet: the other connection does not see it. */
	assert_int_equal(store_user_by_name(other, "Otto", &u), ST_NOTFOUND);
	assert_int_equal(store_commit(t->s), ST_OK);
	assert_int_equal(store_user_by_name(other, "otto", &u), ST_OK);
	assert_int_equal(store_begin(other), ST_OK);
	assert_int_equal(store_commit(other), ST_OK);
	store_close(other);
}

/* Whatever a request left open, store_end_request ends: a write
 * transaction (and the writer lock with it) or a read one; 1 then, 0 when
 * nothing was open. A writer lock that another connection holds makes
 * store_begin give up with ST_BUSY after the bound (5 s), not wait on. */
static void test_end_request_and_lock_bound(void **state)
{
	struct tmpdb *t = *state;
	struct store *other = NULL;
	assert_int_equal(store_in_transaction(t->s), 0);
	assert_int_equal(store_end_request(t->s), 0);
	assert_int_equal(store_begin(t->s), ST_OK);
	make_user(t->s, "Vergessen");
	assert_int_equal(store_in_transaction(t->s), 1);
	assert_int_equal(store_end_request(t->s), 1);
	assert_int_equal(store_in_transaction(t->s), 0);
	struct st_user u;
	assert_int_equal(store_user_by_name(t->s, "Vergessen", &u), ST_NOTFOUND);   /* undone */
	assert_int_equal(store_begin_read(t->s), ST_OK);
	assert_int_equal(store_end_request(t->s), 1);
	assert_int_equal(store_begin(t->s), ST_OK);   /* the lock was given back */
	assert_int_equal(store_commit(t->s), ST_OK);

	assert_int_equal(store_open(&other, t->path, t->schema), ST_OK);
	assert_int_equal(store_begin(other), ST_OK);
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	assert_int_equal(store_begin(t->s), ST_BUSY);
	clock_gettime(CLOCK_MONOTONIC, &b);
	double waited = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	assert_true(waited >= 4.9 && waited < 8);
	assert_int_equal(store_in_transaction(t->s), 0);
	assert_int_equal(store_commit(other), ST_OK);
	assert_int_equal(store_begin(t->s), ST_OK);
	assert_int_equal(store_commit(t->s), ST_OK);
	store_close(other);
}

/* A read transaction is one snapshot from its first statement to its end,
 * however it ends (PostgreSQL sends a read's BEGIN with its first statement
 * and its end without waiting, sql-pg.c): a user another connection makes
 * meanwhile is not seen inside it and is seen after its ROLLBACK or
 * COMMIT; one ended before any statement leaves nothing open; a read
 * transaction that wrote commits what it wrote; and a table's write
 * transaction right after a read's end commits. */
static void test_read_ends(void **state)
{
	struct tmpdb *t = *state;
	struct store *other = NULL;
	struct st_user u;
	assert_int_equal(store_open(&other, t->path, t->schema), ST_OK);
	for (int end = 0; end < 2; end++) {
		const char *name = end ? "Rita" : "Rolf";
		assert_int_equal(store_begin_read(t->s), ST_OK);
		assert_int_equal(store_in_transaction(t->s), 1);
		assert_int_equal(store_user_by_name(t->s, name, &u), ST_NOTFOUND);
		make_user(other, name);
		assert_int_equal(store_user_by_name(t->s, name, &u), ST_NOTFOUND);   /* its snapshot */
		if (end)
			assert_int_equal(store_commit(t->s), ST_OK);
		else
			store_rollback(t->s);
		assert_int_equal(store_in_transaction(t->s), 0);
		assert_int_equal(store_end_request(t->s), 0);
		assert_int_equal(store_user_by_name(t->s, name, &u), ST_OK);
	}
	assert_int_equal(store_begin_read(t->s), ST_OK);   /* ended before any statement */
	store_rollback(t->s);
	assert_int_equal(store_in_transaction(t->s), 0);
	assert_int_equal(store_begin_read(t->s), ST_OK);
	assert_int_equal(store_commit(t->s), ST_OK);
	assert_int_equal(store_in_transaction(t->s), 0);
	assert_int_equal(store_begin_read(t->s), ST_OK);   /* a read that wrote */
	assert_int_equal(store_user_by_name(t->s, "Rita", &u), ST_OK);
	make_user(t->s, "Wera");
	assert_int_equal(store_commit(t->s), ST_OK);
	assert_int_equal(store_user_by_name(other, "Wera", &u), ST_OK);
	int64_t tab = make_table(t->s, 2, u.id), version = 0, before = 0, seen = 0, deadline = 0;
	assert_int_equal(store_table_poll(other, tab, &before, &deadline), ST_OK);
	assert_int_equal(store_begin_read(t->s), ST_OK);   /* a read, then a table's write */
	assert_int_equal(store_user_by_name(t->s, "Wera", &u), ST_OK);
	store_rollback(t->s);
	assert_int_equal(store_begin_table(t->s, tab), ST_OK);
	assert_int_equal(store_table_bump_public(t->s, tab, &version), ST_OK);
	assert_int_equal(store_commit(t->s), ST_OK);
	assert_int_equal(store_table_poll(other, tab, &seen, &deadline), ST_OK);
	assert_true(version > 0 && seen > before);
	store_close(other);
}

/* The second writer of a table (a child process, a connection of its
 * own): its store_begin_table waits for the first, then reads the first's
 * step (version seen + 1), and its own step from the page it saw (seen)
 * conflicts: the first commit won. 0, or which check failed. */
static int second_writer(const char *path, const char *schema, int64_t table, int64_t seen)
{
	struct store *s = NULL;
	struct st_table x;
	int rc = 0;
	if (store_open(&s, path, schema) != ST_OK)
		return 2;
	if (store_begin_table(s, table) != ST_OK)
		rc = 3;
	else if (store_table_get(s, table, &x) != ST_OK || x.version != seen + 1)
		rc = 4;
	else if (store_table_bump(s, table, seen, 0, x.epoch, NULL) != ST_CONFLICT)
		rc = 5;
	store_rollback(s);
	store_close(s);
	return rc;
}

/* Waits (bounded: 10 s) until some connection waits for a lock. */
static void until_lock_waited(const char *path)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	for (int i = 0; i < 1000; i++) {
		if (peek_int(path, "SELECT count(*) FROM pg_locks WHERE NOT granted") > 0)
			return;
		nanosleep(&tick, NULL);
	}
	fail_msg("nobody waited for the table's lock within 10 s");
}

/* Writers of one table each (store_begin_table): on PostgreSQL a writer of
 * t2 begins, steps and commits while a writer of t1 holds its transaction
 * open; a second writer of t1 waits for the first and then sees its step
 * (first commit wins); a table's end (store_lock_cross) waits for another
 * end and gives up with ST_BUSY past the lock timeout, its step undone. On
 * SQLite every writer takes the one writer lock, as store_begin does. */
static void test_table_writers(void **state)
{
	struct tmpdb *t = *state;
	struct store *other = NULL;
	struct st_table x1, x2;
	int64_t u = make_user(t->s, "Tischweise");
	int64_t t1 = make_table(t->s, 2, u), t2 = make_table(t->s, 2, u);
	assert_int_equal(store_table_get(t->s, t1, &x1), ST_OK);
	assert_int_equal(store_table_get(t->s, t2, &x2), ST_OK);
	assert_int_equal(store_begin_table(t->s, t1), ST_OK);
	assert_int_equal(store_table_bump(t->s, t1, x1.version, 0, x1.epoch, NULL), ST_OK);
	assert_int_equal(store_lock_cross(t->s), ST_OK);
	if (!tmpdb_pg()) {
		assert_int_equal(store_commit(t->s), ST_OK);
		return;
	}
	assert_int_equal(store_open(&other, t->path, t->schema), ST_OK);
	/* t2's writer runs beside t1's, up to the cross-table lock */
	assert_int_equal(store_begin_table(other, t2), ST_OK);
	assert_int_equal(store_table_bump(other, t2, x2.version, 0, x2.epoch, NULL), ST_OK);
	assert_int_equal(store_lock_cross(other), ST_BUSY);
	store_rollback(other);
	struct st_table y;
	assert_int_equal(store_table_get(other, t2, &y), ST_OK);
	assert_int_equal(y.version, x2.version);   /* undone */
	assert_int_equal(store_begin_table(other, t2), ST_OK);
	assert_int_equal(store_table_bump(other, t2, x2.version, 0, x2.epoch, NULL), ST_OK);
	assert_int_equal(store_commit(other), ST_OK);
	/* a second writer of t1 waits for the first and loses to it */
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(second_writer(t->path, t->schema, t1, x1.version));
	until_lock_waited(t->path);
	assert_int_equal(store_commit(t->s), ST_OK);
	int status = 0;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(store_table_get(t->s, t1, &y), ST_OK);
	assert_int_equal(y.version, x1.version + 1);
	assert_int_equal(store_table_get(t->s, t2, &y), ST_OK);
	assert_int_equal(y.version, x2.version + 1);
	store_close(other);
}

/* Maintenance through its one call: the checkpointer's round copies the
 * WAL into the database (nothing left behind when no reader holds an old
 * snapshot) and stops before it starts when told to; the page limit makes
 * a write that needs room fail as on a full disk and is lifted again; the
 * store's heap is reported. */
static void test_maintain(void **state)
{
	SQLITE_ONLY();
	struct tmpdb *t = *state;
	struct store *other = NULL;
	assert_int_equal(store_open(&other, t->path, t->schema), ST_OK);
	assert_int_equal(store_maintain(t->s, ST_MAINT_WORKER, NULL), ST_OK);
	assert_int_equal(store_maintain(other, ST_MAINT_CHECKPOINTER, NULL), ST_OK);
	char name[16];
	for (int i = 0; i < 50; i++) {
		snprintf(name, sizeof name, "Wal%d", i);
		make_user(t->s, name);
	}
	volatile sig_atomic_t stop = 1;
	struct st_maint m = { .stop = &stop, .wal_pages = -1 };
	assert_int_equal(store_maintain(other, ST_MAINT_CHECKPOINT, &m), ST_OK);
	assert_int_equal(m.wal_pages, 0);   /* told to stop: no checkpoint at all */
	stop = 0;
	assert_int_equal(store_maintain(other, ST_MAINT_CHECKPOINT, &m), ST_OK);
	assert_true(m.wal_pages > 0);
	assert_int_equal(m.left_pages, 0);

	m = (struct st_maint){ .pages = 1 };
	assert_int_equal(store_maintain(t->s, ST_MAINT_LIMIT_PAGES, &m), ST_OK);
	assert_true(m.pages > 1);   /* at least the pages in use */
	int rc = ST_OK;
	for (int i = 0; i < 2000 && rc == ST_OK; i++) {
		snprintf(name, sizeof name, "Voll%d", i);
		rc = store_user_create(t->s, name, "hash-hash-hash-hash-hash-hash", 1, NULL);
	}
	assert_int_equal(rc, ST_FULL);
	m = (struct st_maint){ .pages = 1 << 30 };
	assert_int_equal(store_maintain(t->s, ST_MAINT_LIMIT_PAGES, &m), ST_OK);
	assert_int_equal(m.pages, 1 << 30);
	assert_int_equal(store_user_create(t->s, "Platz", "hash", 1, NULL), ST_OK);

	m = (struct st_maint){ 0 };
	assert_int_equal(store_maintain(NULL, ST_MAINT_MEMORY, &m), ST_OK);
	assert_true(m.held > 0 && m.peak >= m.held);
	store_close(other);
}

/* A deleted table's number is never given out again (023_table_ids.sql):
 * not when it was the newest, not after reopening. */
static void test_table_ids_not_reused(void **state)
{
	struct tmpdb *t = *state;
	int64_t u = make_user(t->s, "Ida");
	int64_t a = make_table(t->s, 2, u);
	int64_t b = make_table(t->s, 2, u);
	assert_true(b > a);
	assert_int_equal(store_table_delete(t->s, b), ST_OK);
	int64_t c = make_table(t->s, 2, u);
	assert_true(c > b);
	assert_int_equal(store_table_delete(t->s, c), ST_OK);
	store_close(t->s);
	assert_int_equal(store_open(&t->s, t->path, t->schema), ST_OK);
	assert_true(make_table(t->s, 2, u) > c);
}

/* PostgreSQL (make pg-check): every schema/pg/NNN_*.sql is applied once
 * and recorded in schema_migrations, and a second store on the database
 * applies none again; of two writers that read the same version, the
 * first to commit wins and the second is told (ST_CONFLICT), as on SQLite;
 * a name taken is ST_EXISTS on the other connection too. */
static void test_pg_migrations(void **state)
{
	struct tmpdb *t = *state;
	struct store *other = NULL;
	char dir[600];
	if (!tmpdb_pg())
		skip();
	snprintf(dir, sizeof dir, "%s/pg", t->schema);
	struct dirent **list = NULL;
	int n = scandir(dir, &list, NULL, alphasort), files = 0, high = 0;
	for (int i = 0; i < n; i++) {
		const char *f = list[i]->d_name;
		size_t len = strlen(f);
		if (len > 8 && f[3] == '_' && strcmp(f + len - 4, ".sql") == 0) {
			files++;
			high = (int)strtol(f, NULL, 10);
		}
		free(list[i]);
	}
	free(list);
	assert_true(files > 0);
	assert_int_equal(peek_int(t->path, "SELECT count(*) FROM schema_migrations"), files);
	assert_int_equal(peek_int(t->path, "SELECT max(version) FROM schema_migrations"), high);
	assert_int_equal(store_open(&other, t->path, t->schema), ST_OK);
	assert_int_equal(peek_int(t->path, "SELECT count(*) FROM schema_migrations"), files);

	int64_t tb = make_table(t->s, 2, make_user(t->s, "Erst"));
	struct st_table x;
	assert_int_equal(store_table_get(t->s, tb, &x), ST_OK);
	assert_int_equal(store_begin(t->s), ST_OK);
	assert_int_equal(store_table_bump(t->s, tb, x.version, 0, 0, NULL), ST_OK);
	assert_int_equal(store_commit(t->s), ST_OK);
	assert_int_equal(store_begin(other), ST_OK);
	assert_int_equal(store_table_bump(other, tb, x.version, 0, 0, NULL), ST_CONFLICT);
	store_rollback(other);
	assert_int_equal(store_user_create(other, "ERST", "$argon2id$x", 1, NULL), ST_EXISTS);
	store_close(other);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_migrations, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_users_case_insensitive, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_users_look_alike, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_skeleton_migration, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_sessions_expire, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_login_failures, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_seats_until_full, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_lobby_and_my_tables, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_user_acting, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_user_poll, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_bump_and_poll, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_step_me_rows, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_move_transaction, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_steps_shed_positions, tmpdb_setup,
						tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_step_append_seq, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_table_page, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_table_page_pause, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_page_kept, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_page_kept_migration, tmpdb_setup,
						tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_table_page_first_over, tmpdb_setup,
						tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_results_migration, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_bots_migration, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_table_clock, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_ratings_board, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_two_connections, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_read_ends, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_end_request_and_lock_bound, tmpdb_setup,
						tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_table_writers, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_table_ids_not_reused, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_pg_migrations, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_maintain, tmpdb_setup, tmpdb_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
