/*
 * sql-pg.c — the PostgreSQL backend behind the store's seam (internal.h):
 * a store opened on a postgresql:// connection string.
 *
 * Not built yet: store_open() answers ST_ERR for such a string, and the
 * cursor's PostgreSQL side is never reached (no cursor has it).
 */
#include <string.h>

#include "internal.h"

int st_is_pg_uri(const char *db)
{
	return strncmp(db, "postgresql://", 13) == 0 || strncmp(db, "postgres://", 11) == 0;
}

int st_pg_open(struct store **out, const char *uri, const char *schema_dir)
{
	(void)schema_dir;
	*out = NULL;
	fprintf(stderr, "store: %s: PostgreSQL is not built in\n", uri);
	return ST_ERR;
}

int64_t st_pg_col_int64(const struct st_cur *q, int col) { (void)q; (void)col; return 0; }
double st_pg_col_double(const struct st_cur *q, int col) { (void)q; (void)col; return 0; }
const unsigned char *st_pg_col_text(const struct st_cur *q, int col) { (void)q; (void)col; return NULL; }
int st_pg_col_bytes(struct st_cur *q, int col) { (void)q; (void)col; return 0; }
const void *st_pg_col_blob(struct st_cur *q, int col) { (void)q; (void)col; return NULL; }
int st_pg_col_null(const struct st_cur *q, int col) { (void)q; (void)col; return 1; }
int st_pg_col_count(const struct st_cur *q) { (void)q; return 0; }
void st_pg_bind(struct st_cur *q, int i, const struct st_arg *a) { (void)q; (void)i; (void)a; }
void st_pg_done(struct st_cur *q) { (void)q; }
int st_pg_step(struct store *s, struct st_cur *q) { (void)s; (void)q; return ST_ERR; }
int64_t st_pg_changes(const struct store *s) { (void)s; return 0; }
int64_t st_pg_last_id(struct store *s) { (void)s; return 0; }
const char *st_pg_errmsg(const struct store *s) { (void)s; return "PostgreSQL is not built in"; }
int st_pg_prepare(struct store *s, int id) { (void)s; (void)id; return ST_ERR; }
int st_pg_fail(struct store *s, const char *what) { (void)s; (void)what; return ST_ERR; }
int st_pg_unique(const struct store *s) { (void)s; return 0; }
int st_pg_begin(struct store *s, int write) { (void)s; (void)write; return ST_ERR; }
int st_pg_commit(struct store *s) { (void)s; return ST_ERR; }
void st_pg_rollback(struct store *s) { (void)s; }
int st_pg_in_transaction(const struct store *s) { (void)s; return 0; }
void st_pg_close(struct store *s) { (void)s; }
