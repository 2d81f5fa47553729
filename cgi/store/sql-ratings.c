/*
 * sql-ratings.c — ratings and their history (013_ratings.sql).
 *
 * Its statements are in stmt_text[] below, next to the functions that use them;
 * sql-core.c prepares them with every other file's at store_open.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

enum {
	STMT_RATING_GET = ST_FIRST(ST_G_RATINGS),
	STMT_RATING_PUT,
	STMT_RATING_HISTORY_ADD,
	STMT_TABLE_SET_RATED,
	STMT_RATING_BOARD,
	STMT_RATINGS_OF_USER,
	STMT_RATING_HISTORY,
	STMT_RATINGS_END
};

static const char *const stmt_text[] = {
	/* ratings (013_ratings.sql) */
	ST_AT(STMT_RATING_GET) =
		"SELECT mu, sigma, matches FROM ratings WHERE user_id = ?1 AND game = ?2",
	ST_AT(STMT_RATING_PUT) =
		"INSERT INTO ratings (user_id, game, mu, sigma, shown, matches, updated_at)"
		" VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6) ON CONFLICT (user_id, game) DO UPDATE SET"
		" mu = excluded.mu, sigma = excluded.sigma, shown = excluded.shown,"
		" matches = ratings.matches + 1, updated_at = excluded.updated_at",
	ST_AT(STMT_RATING_HISTORY_ADD) =
		"INSERT INTO rating_history (user_id, game, table_id, mu, sigma, shown, place, players,"
		" at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
	/* once: a second call changes nothing (the caller sees no change) */
	ST_AT(STMT_TABLE_SET_RATED) = "UPDATE tables SET rated = 1 WHERE id = ?1 AND rated = 0",
	ST_AT(STMT_RATING_BOARD) =
		"SELECT r.user_id, u.name, r.mu, r.sigma, r.shown, r.matches FROM ratings r"
		" JOIN users u ON u.id = r.user_id WHERE r.game = ?1 AND r.matches >= ?2"
		" ORDER BY r.shown DESC, u.name_key LIMIT ?3",
	ST_AT(STMT_RATINGS_OF_USER) =
		"SELECT r.user_id, '', r.mu, r.sigma, r.shown, r.matches, r.game FROM ratings r"
		" WHERE r.user_id = ?1 ORDER BY r.matches DESC, r.game LIMIT ?2",
	ST_AT(STMT_RATING_HISTORY) =
		"SELECT game, coalesce(table_id, 0), shown, place, players, at FROM rating_history"
		" WHERE user_id = ?1 ORDER BY id DESC LIMIT ?2",
};
_Static_assert(sizeof stmt_text / sizeof stmt_text[0] == STMT_RATINGS_END - ST_FIRST(ST_G_RATINGS),
	       "one SQL text per statement");
const struct st_stmts st_stmts_ratings = ST_STMTS(stmt_text);

static int read_rating(void *ctx, struct st_cur *q)
{
	struct st_rating *r = ctx;
	r->mu = st_double(q, 0);
	r->sigma = st_double(q, 1);
	r->matches = st_int(q, 2);
	return 0;
}

int store_rating_get(struct store *s, int64_t user, const char *game, struct st_rating *r)
{
	int rc = st_one(s, st_query(s, STMT_RATING_GET, ST_ARGS(ST_INT(user), ST_TEXT(game))),
			read_rating, r, "rating get");
	if (rc == ST_OK)
		r->user_id = user;
	return rc;
}

int store_rating_put(struct store *s, const char *game, int64_t table, const struct st_rating *r,
		     int place, int players, int64_t now)
{
	struct st_cur *q = st_query(s, STMT_RATING_PUT, ST_ARGS(ST_INT(r->user_id), ST_TEXT(game),
			ST_REAL(r->mu), ST_REAL(r->sigma), ST_REAL(r->shown), ST_INT(now)));
	if (!q)
		return ST_ERR;
	int rc = st_exec(s, q, "rating put");
	if (rc != ST_OK || !(q = st_stmt(s, STMT_RATING_HISTORY_ADD)))
		return rc != ST_OK ? rc : ST_ERR;
	st_bind_int64(q, 1, r->user_id);
	st_bind_text(q, 2, game);
	if (table > 0)
		st_bind_int64(q, 3, table);
	else
		st_bind_null(q, 3);
	st_bind_double(q, 4, r->mu);
	st_bind_double(q, 5, r->sigma);
	st_bind_double(q, 6, r->shown);
	st_bind_int64(q, 7, place);
	st_bind_int64(q, 8, players);
	st_bind_int64(q, 9, now);
	return st_exec(s, q, "rating history add");
}

int store_table_set_rated(struct store *s, int64_t table)
{
	struct st_cur *q = st_query(s, STMT_TABLE_SET_RATED, ST_ARGS(ST_INT(table)));
	if (!q)
		return ST_ERR;
	int rc = st_exec(s, q, "table set rated");
	if (rc == ST_OK && st_changes(s) == 0)
		rc = ST_EXISTS;
	return rc;
}

/* The caller of a listing. */
struct rating_to {
	st_rating_fn fn;
	void *ctx;
};

/* One row of STMT_RATING_BOARD / STMT_RATINGS_OF_USER. */
static int list_rating(void *ctx, struct st_cur *q)
{
	struct rating_to *to = ctx;
	struct st_rating r;
	memset(&r, 0, sizeof r);
	r.user_id = st_int64(q, 0);
	st_copy_col(r.name, sizeof r.name, q, 1);
	r.mu = st_double(q, 2);
	r.sigma = st_double(q, 3);
	r.shown = st_double(q, 4);
	r.matches = st_int(q, 5);
	if (st_columns(q) > 6)
		st_copy_col(r.game, sizeof r.game, q, 6);
	to->fn(to->ctx, &r);
	return 0;
}

int store_rating_board(struct store *s, const char *game, int min_matches, int limit,
		       st_rating_fn fn, void *ctx)
{
	struct rating_to to = { fn, ctx };
	return st_each(s, st_query(s, STMT_RATING_BOARD, ST_ARGS(ST_TEXT(game),
			ST_INT(min_matches), ST_INT(limit))), list_rating, &to, "rating board");
}

int store_ratings_of_user(struct store *s, int64_t user, int limit, st_rating_fn fn, void *ctx)
{
	struct rating_to to = { fn, ctx };
	return st_each(s, st_query(s, STMT_RATINGS_OF_USER, ST_ARGS(ST_INT(user), ST_INT(limit))),
		       list_rating, &to, "ratings of user");
}

struct history_to {
	st_rating_step_fn fn;
	void *ctx;
};

static int read_history(void *ctx, struct st_cur *q)
{
	struct history_to *to = ctx;
	struct st_rating_step h;
	memset(&h, 0, sizeof h);
	st_copy_col(h.game, sizeof h.game, q, 0);
	h.table_id = st_int64(q, 1);
	h.shown = st_double(q, 2);
	h.place = st_int(q, 3);
	h.players = st_int(q, 4);
	h.at = st_int64(q, 5);
	to->fn(to->ctx, &h);
	return 0;
}

int store_rating_history(struct store *s, int64_t user, int limit, st_rating_step_fn fn,
			 void *ctx)
{
	struct history_to to = { fn, ctx };
	return st_each(s, st_query(s, STMT_RATING_HISTORY, ST_ARGS(ST_INT(user), ST_INT(limit))),
		       read_history, &to, "rating history");
}
