/*
 * tmpdb.h — a fresh database file in its own mkdtemp directory for one
 * unit test, removed again afterwards. Header-only: each test binary
 * includes it once.
 *
 * The schema directory is $SPIELTISCH_ROOT/schema, or ./schema when the
 * variable is unset (make unit runs from the project root).
 *
 * SPIELTISCH_TEST_DB=postgresql://… (make pg-check) runs the same tests on
 * PostgreSQL: each gets a database of its own on that server (CREATE
 * DATABASE through that URI's connection), t->path is its URI, and it is
 * dropped afterwards. tmpdb_pg() tells a test which backend it has, for
 * the few that look at SQLite's files.
 */
#ifndef SPIELTISCH_TESTS_TMPDB_H
#define SPIELTISCH_TESTS_TMPDB_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libpq-fe.h>
#include <sqlite3.h>

#include "store.h"

struct tmpdb {
	char dir[256];
	char path[1024];
	char schema[512];
	char pgname[64];   /* PostgreSQL: the test's database, "" on SQLite */
	struct store *s;
};

/* The PostgreSQL server the tests run on (SPIELTISCH_TEST_DB), or NULL. */
static inline const char *tmpdb_pg(void)
{
	const char *u = getenv("SPIELTISCH_TEST_DB");
	return u && (strncmp(u, "postgresql://", 13) == 0 || strncmp(u, "postgres://", 11) == 0)
		? u : NULL;
}

/* Runs one statement on the server's own database (CREATE/DROP DATABASE,
 * which take no values: the name is the test's own, made here); 0 or -1. */
static inline int tmpdb_pg_admin(const char *sql)
{
	PGconn *c = PQconnectdb(tmpdb_pg());
	int ok = PQstatus(c) == CONNECTION_OK;
	if (ok) {
		PGresult *r = PQexec(c, sql);
		ok = PQresultStatus(r) == PGRES_COMMAND_OK;
		if (!ok)
			fprintf(stderr, "tmpdb: %s: %s", sql, PQresultErrorMessage(r));
		PQclear(r);
	} else {
		fprintf(stderr, "tmpdb: %s", PQerrorMessage(c));
	}
	PQfinish(c);
	return ok ? 0 : -1;
}

/* A fresh database for one test on the server, its URI in t->path. */
static inline int tmpdb_pg_create(struct tmpdb *t)
{
	static unsigned n;
	char sql[128];
	const char *u = tmpdb_pg();
	snprintf(t->pgname, sizeof t->pgname, "t_%ld_%u", (long)getpid(), n++);
	snprintf(sql, sizeof sql, "CREATE DATABASE %s", t->pgname);
	if (tmpdb_pg_admin(sql) != 0)
		return -1;
	snprintf(t->path, sizeof t->path, "%s%sdbname=%s", u, strchr(u, '?') ? "&" : "?",
		 t->pgname);
	return 0;
}

/* Creates the directory and opens (migrates) the database in it; 0 or -1. */
static inline int tmpdb_open(struct tmpdb *t)
{
	const char *root = getenv("SPIELTISCH_ROOT");
	memset(t, 0, sizeof *t);
	snprintf(t->dir, sizeof t->dir, "%s/spieltisch-test-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(t->dir))
		return -1;
	snprintf(t->path, sizeof t->path, "%s/test.db", t->dir);
	snprintf(t->schema, sizeof t->schema, "%s/schema", root ? root : ".");
	if (tmpdb_pg() && tmpdb_pg_create(t) != 0)
		return -1;
	return store_open(&t->s, t->path, t->schema) == ST_OK ? 0 : -1;
}

/* Removes every file in the directory (the database, its WAL and shared
 * memory files, anything a test put there) and the directory. */
static inline void tmpdb_remove_dir(const char *dir)
{
	char p[600];
	DIR *d = opendir(dir);
	struct dirent *de;
	if (d) {
		while ((de = readdir(d)) != NULL) {
			if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
				continue;
			snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
			unlink(p);
		}
		closedir(d);
	}
	rmdir(dir);
}

/* Runs an SQL text without values on a connection of its own, on either
 * backend (a test that damages what the store wrote); 0 or -1. */
static inline int tmpdb_exec(const struct tmpdb *t, const char *sql)
{
	if (!tmpdb_pg()) {
		sqlite3 *db = NULL;
		int rc = sqlite3_open(t->path, &db) == SQLITE_OK &&
			 sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
		sqlite3_close(db);
		return rc;
	}
	PGconn *c = PQconnectdb(t->path);
	PGresult *r = PQstatus(c) == CONNECTION_OK ? PQexec(c, sql) : NULL;
	int rc = r && PQresultStatus(r) == PGRES_COMMAND_OK ? 0 : -1;
	PQclear(r);
	PQfinish(c);
	return rc;
}

/* A test of what only SQLite has (its files, the page limit, its SQL
 * spelling in a test's own statements) is skipped on PostgreSQL. Needs
 * cmocka.h. */
#define TMPDB_SQLITE_ONLY() \
	do { \
		if (tmpdb_pg()) \
			skip(); \
	} while (0)

/* Closes the store and removes the directory. */
static inline void tmpdb_close(struct tmpdb *t)
{
	store_close(t->s);
	t->s = NULL;
	if (t->dir[0])
		tmpdb_remove_dir(t->dir);
	if (t->pgname[0]) {
		char sql[128];
		snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s WITH (FORCE)", t->pgname);
		tmpdb_pg_admin(sql);
		t->pgname[0] = '\0';
	}
}

/* cmocka fixtures: a fresh database per test as *state, and its end. */
static inline int tmpdb_setup(void **state)
{
	struct tmpdb *t = calloc(1, sizeof *t);
	if (!t || tmpdb_open(t) != 0) {
		free(t);
		return -1;
	}
	*state = t;
	return 0;
}

static inline int tmpdb_teardown(void **state)
{
	struct tmpdb *t = *state;
	tmpdb_close(t);
	free(t);
	return 0;
}

#endif
