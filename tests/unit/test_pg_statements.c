/* test_pg_statements.c — every statement of the store prepares on
 * PostgreSQL (docs/storage.md, "PostgreSQL").
 *
 * Needs a server: SPIELTISCH_TEST_DB=postgresql://… names one whose user
 * may create databases. The test creates a fresh database there, builds
 * the schema from schema/pg/ (every file in order), and prepares every
 * statement text of every file's registry (st_stmts_*) as st_pg_text()
 * turns it. Each parameter must come out as one of the types the store
 * binds (BIGINT, TEXT, BYTEA, DOUBLE PRECISION): one PostgreSQL took for a
 * 32-bit INTEGER would refuse a time in milliseconds or a binary 64-bit
 * value. Each result column must be one of those or an INTEGER (a literal
 * 0 or 1: it reads as the same 64-bit integer), never a BOOLEAN (not 0/1)
 * or a NUMERIC (sum() of BIGINTs). Without the variable every test is
 * skipped, saying so.
 *
 * The core's statements (PRAGMAs, BEGIN IMMEDIATE) are the engine's own:
 * the backend has its own for PostgreSQL, so they are not prepared here.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <libpq-fe.h>

#include "store/dialect.h"
#include "store/internal.h"

/* pg_type's oids of the types the store binds and reads. */
enum { OID_BYTEA = 17, OID_INT8 = 20, OID_INT4 = 23, OID_TEXT = 25, OID_FLOAT8 = 701 };

static const struct {
	const char *name;
	const struct st_stmts *g;
} groups[] = {
	{ "users", &st_stmts_users },       { "tables", &st_stmts_tables },
	{ "ratings", &st_stmts_ratings },   { "me", &st_stmts_me },
	{ "chat", &st_stmts_chat },         { "parties", &st_stmts_parties },
	{ "mail", &st_stmts_mail },         { "tourneys", &st_stmts_tourneys },
	{ "watch", &st_stmts_watch },
};

struct pg {
	PGconn *admin, *db;
	char name[64];
};

static const char *test_db(void)
{
	const char *url = getenv("SPIELTISCH_TEST_DB");
	return url && *url ? url : NULL;
}

static int skipped(void)
{
	if (test_db())
		return 0;
	print_message("skipped: SPIELTISCH_TEST_DB=postgresql://… is not set (a server "
		      "whose user may create databases)\n");
	return 1;
}

/* A connection to url, or to its server's database `name` when given. */
static PGconn *connect_to(const char *url, const char *name)
{
	const char *keys[] = { "dbname", "dbname", NULL };
	const char *vals[] = { url, name, NULL };
	if (!name)
		keys[1] = NULL;
	PGconn *c = PQconnectdbParams(keys, vals, 1);
	if (PQstatus(c) != CONNECTION_OK)
		fail_msg("connect %s: %s", name ? name : url, PQerrorMessage(c));
	return c;
}

static void exec_ok(PGconn *c, const char *sql, const char *what)
{
	PGresult *r = PQexec(c, sql);
	ExecStatusType st = PQresultStatus(r);
	/* a migration kept for its number only has no statement */
	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK && st != PGRES_EMPTY_QUERY)
		fail_msg("%s: %s", what, PQresultErrorMessage(r));
	PQclear(r);
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	long n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	char *buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static int migration_file(const struct dirent *de)
{
	const char *n = de->d_name;
	size_t len = strlen(n);
	return len > 8 && n[0] >= '0' && n[0] <= '9' && n[3] == '_' &&
	       strcmp(n + len - 4, ".sql") == 0;
}

/* Every file of schema/pg/ in order, each in a transaction; returns how
 * many there were (as many as SQLite's, each named as SQLite's). */
static int build_schema(PGconn *c)
{
	const char *root = getenv("SPIELTISCH_ROOT");
	char dir[512], path[1024];
	struct dirent **list;
	snprintf(dir, sizeof dir, "%s/schema/pg", root ? root : ".");
	int n = scandir(dir, &list, migration_file, alphasort);
	assert_true(n > 0);
	for (int i = 0; i < n; i++) {
		/* numbered without gaps, each as SQLite's migration of its number */
		assert_int_equal(strtol(list[i]->d_name, NULL, 10), i + 1);
		snprintf(path, sizeof path, "%s/schema/%s", root ? root : ".", list[i]->d_name);
		if (access(path, R_OK) != 0)
			fail_msg("schema/pg/%s has no SQLite twin %s", list[i]->d_name, path);
		snprintf(path, sizeof path, "%s/%s", dir, list[i]->d_name);
		char *sql = read_all(path);
		exec_ok(c, "BEGIN", "begin");
		exec_ok(c, sql, list[i]->d_name);
		exec_ok(c, "COMMIT", "commit");
		free(sql);
		free(list[i]);
	}
	free(list);
	return n;
}

/* How many migrations SQLite has (schema/NNN_name.sql). */
static int sqlite_migrations(void)
{
	const char *root = getenv("SPIELTISCH_ROOT");
	char dir[512];
	struct dirent **list;
	snprintf(dir, sizeof dir, "%s/schema", root ? root : ".");
	int n = scandir(dir, &list, migration_file, alphasort);
	for (int i = 0; i < n; i++)
		free(list[i]);
	free(list);
	return n;
}

static int setup(void **state)
{
	static struct pg p;
	*state = &p;
	if (!test_db())
		return 0;
	char sql[128];
	p.admin = connect_to(test_db(), NULL);
	exec_ok(p.admin, "SET client_min_messages = warning", "quiet");
	snprintf(p.name, sizeof p.name, "spieltisch_stmts_%ld", (long)getpid());
	snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s", p.name);
	exec_ok(p.admin, sql, "drop");
	snprintf(sql, sizeof sql, "CREATE DATABASE %s", p.name);
	exec_ok(p.admin, sql, "create database");
	p.db = connect_to(test_db(), p.name);
	exec_ok(p.db, "SET client_min_messages = warning", "quiet");
	return 0;
}

static int teardown(void **state)
{
	struct pg *p = *state;
	char sql[128];
	if (p->db)
		PQfinish(p->db);
	if (p->admin) {
		snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s", p->name);
		PQclear(PQexec(p->admin, sql));
		PQfinish(p->admin);
	}
	return 0;
}

static int store_type(Oid t)
{
	return t == OID_INT8 || t == OID_TEXT || t == OID_BYTEA || t == OID_FLOAT8;
}

/* Prepares one statement; 1 when it and its types are right, else 0 with
 * the reason printed. */
static int prepare_one(PGconn *c, const char *group, int i, const char *text)
{
	char pg[8192];
	int ok = 1;
	if (st_pg_text(text, pg, sizeof pg) == 0) {
		print_error("%s[%d]: does not fit: %s\n", group, i, text);
		return 0;
	}
	PGresult *r = PQprepare(c, "", pg, 0, NULL);
	if (PQresultStatus(r) != PGRES_COMMAND_OK) {
		print_error("%s[%d]: %s  %s\n", group, i, PQresultErrorMessage(r), pg);
		PQclear(r);
		return 0;
	}
	PQclear(r);
	r = PQdescribePrepared(c, "");
	assert_int_equal(PQresultStatus(r), PGRES_COMMAND_OK);
	for (int k = 0; k < PQnparams(r); k++)
		if (!store_type(PQparamtype(r, k))) {
			print_error("%s[%d]: $%d is of type %u  %s\n", group, i, k + 1,
				    PQparamtype(r, k), pg);
			ok = 0;
		}
	for (int k = 0; k < PQnfields(r); k++)
		if (!store_type(PQftype(r, k)) && PQftype(r, k) != OID_INT4) {
			print_error("%s[%d]: column %d (%s) is of type %u  %s\n", group, i, k + 1,
				    PQfname(r, k), PQftype(r, k), pg);
			ok = 0;
		}
	PQclear(r);
	return ok;
}

/* The schema builds, and every statement of every registry prepares with
 * the store's types. */
static void test_every_statement_prepares(void **state)
{
	struct pg *p = *state;
	if (skipped())
		skip();
	assert_int_equal(build_schema(p->db), sqlite_migrations());
	int total = 0, good = 0;
	for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++)
		for (int i = 0; i < groups[g].g->n; i++) {
			const char *text = groups[g].g->sql[i];
			if (!text)
				continue;
			total++;
			good += prepare_one(p->db, groups[g].name, i, text);
		}
	print_message("%d of %d statements prepare on PostgreSQL\n", good, total);
	assert_true(total > 150);
	assert_int_equal(good, total);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_statement_prepares),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
