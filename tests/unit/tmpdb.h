/*
 * tmpdb.h — a fresh database file in its own mkdtemp directory for one
 * unit test, removed again afterwards. Header-only: each test binary
 * includes it once.
 *
 * The schema directory is $SPIELTISCH_ROOT/schema, or ./schema when the
 * variable is unset (make unit runs from the project root).
 */
#ifndef SPIELTISCH_TESTS_TMPDB_H
#define SPIELTISCH_TESTS_TMPDB_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store.h"

struct tmpdb {
	char dir[256];
	char path[300];
	char schema[512];
	struct store *s;
};

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

/* Closes the store and removes the directory. */
static inline void tmpdb_close(struct tmpdb *t)
{
	store_close(t->s);
	t->s = NULL;
	if (t->dir[0])
		tmpdb_remove_dir(t->dir);
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
