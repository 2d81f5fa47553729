/*
 * sql-me.c — what a user's own pages read: the /me poll (026_one_write.sql),
 * the feed token (009_feed.sql), profiles.
 *
 * Its statements are in stmt_text[] below, next to the functions that use them;
 * sql-core.c prepares them with every other file's at store_open.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

enum {
	STMT_USER_POLL = ST_FIRST(ST_G_ME),
	STMT_USER_OF_TOKEN,
	STMT_USER_POLL_TOKEN,
	STMT_USER_POLL_TOKEN_SET,
	STMT_FEED_GET,
	STMT_FEED_BY_TOKEN,
	STMT_FEED_CREATE,
	STMT_FEED_REPLACE,
	STMT_PROFILE_GAMES,
	STMT_PROFILE_FINISHED,
	STMT_ME_END
};

static const char *const stmt_text[] = {
	/* What "Meine Tische" shows, summed over the user's seats at tables
	 * not over (seats_user_done, each table by its key: the cost grows
	 * with the running tables, not with the history) and their open
	 * invitations: store_user_poll hashes the sums. CROSS JOIN keeps the
	 * seats outside (else SQLite walks every running table of the site). */
	ST_AT(STMT_USER_POLL) =
		"SELECT count(*), total(t.id), total(t.public_version), total(t.status * (s.seat + 1)),"
		" min(CASE WHEN t.status = 1 AND t.next_deadline > 0 THEN t.next_deadline END),"
		" (SELECT count(*) FROM invitations i WHERE i.to_id = ?1),"
		" (SELECT total(i.id * (1 + it.status)) FROM invitations i"
		" JOIN tables it ON it.id = i.table_id WHERE i.to_id = ?1)"
		" FROM seats s CROSS JOIN tables t ON t.id = s.table_id"
		" WHERE s.user_id = ?1 AND s.done = 0",
	ST_AT(STMT_USER_OF_TOKEN) = "SELECT user_id FROM me_seq WHERE poll_token = ?1",
	ST_AT(STMT_USER_POLL_TOKEN) = "SELECT poll_token FROM me_seq WHERE user_id = ?1",
	/* the first token made wins; a second request reads it back */
	ST_AT(STMT_USER_POLL_TOKEN_SET) =
		"INSERT INTO me_seq (user_id, poll_token) VALUES (?1, ?2) ON CONFLICT (user_id)"
		" DO UPDATE SET poll_token = excluded.poll_token WHERE me_seq.poll_token IS NULL",
	ST_AT(STMT_FEED_GET) = "SELECT token, user_id, created_at FROM feeds WHERE user_id = ?1",
	ST_AT(STMT_FEED_BY_TOKEN) =
		"SELECT token, user_id, created_at FROM feeds WHERE token = ?1",
	ST_AT(STMT_FEED_CREATE) =
		"INSERT INTO feeds (user_id, token, created_at) VALUES (?1, ?2, ?3)"
		" ON CONFLICT (user_id) DO NOTHING",
	ST_AT(STMT_FEED_REPLACE) =
		"INSERT INTO feeds (user_id, token, created_at) VALUES (?1, ?2, ?3)"
		" ON CONFLICT (user_id) DO UPDATE SET token = excluded.token, created_at = excluded.created_at",
	/* profiles: the user's finished tables through seats_user, each table
	 * by its primary key; per game, and (the newest first, ?2 tables, -1
	 * all) one row per seat with the match's totals and resignations */
	ST_AT(STMT_PROFILE_GAMES) =
		"SELECT t.game, count(*) FROM seats s JOIN tables t ON t.id = s.table_id"
		" WHERE s.user_id = ?1 AND t.status = 2 GROUP BY t.game ORDER BY 2 DESC, 1",
	ST_AT(STMT_PROFILE_FINISHED) =
		"WITH mine(table_id, my_seat) AS (SELECT s.table_id, s.seat FROM seats s"
		" JOIN tables t ON t.id = s.table_id WHERE s.user_id = ?1 AND t.status = 2"
		" ORDER BY s.table_id DESC LIMIT ?2)"
		" SELECT m.table_id, m.my_seat, t.game, t.nseats,"
		" coalesce((SELECT mv.at FROM moves mv WHERE mv.party = (SELECT p.id FROM parties p"
		" WHERE p.table_id = m.table_id ORDER BY p.number DESC LIMIT 1)"
		" ORDER BY mv.seq DESC LIMIT 1), t.created_at),"
		" (SELECT count(*) FROM parties p WHERE p.table_id = m.table_id AND p.over = 1),"
		" x.seat, x.resigned,"
		" (SELECT coalesce(sum(r.points), 0) FROM parties p JOIN party_results r"
		" ON r.party = p.id WHERE p.table_id = m.table_id AND p.over = 1 AND r.seat = x.seat)"
		" FROM mine m JOIN tables t ON t.id = m.table_id JOIN seats x ON x.table_id = m.table_id"
		" ORDER BY m.table_id DESC, x.seat",
};
_Static_assert(sizeof stmt_text / sizeof stmt_text[0] == STMT_ME_END - ST_FIRST(ST_G_ME),
	       "one SQL text per statement");
const struct st_stmts st_stmts_me = ST_STMTS(stmt_text);

/* Mixes one number into a signature (the finaliser of splitmix64). */
static uint64_t sig_mix(uint64_t h, double v)
{
	h ^= (uint64_t)(int64_t)v + UINT64_C(0x9e3779b97f4a7c15);
	h = (h ^ (h >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	h = (h ^ (h >> 27)) * UINT64_C(0x94d049bb133111eb);
	return h ^ (h >> 31);
}

/* The poll is computed when asked, from what every change already writes
 * (the tables' public versions and statuses, the seats, the invitations):
 * nothing is kept per user on a move (026_one_write.sql). */
int store_user_poll(struct store *s, int64_t user, const char *token, int64_t now_ms,
		    int64_t *sig, int64_t *next_deadline)
{
	sqlite3_stmt *q;
	int rc;
	(void)now_ms;
	if (token) {
		if (!(q = st_query(s, STMT_USER_OF_TOKEN, ST_ARGS(ST_TEXT(token)))))
			return ST_ERR;
		if ((rc = st_one_int64(s, q, &user, "user of token")) != ST_OK)
			return rc;
	}
	if (!(q = st_query(s, STMT_USER_POLL, ST_ARGS(ST_INT(user)))))
		return ST_ERR;
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		uint64_t h = (uint64_t)user;
		for (int c = 0; c < 7; c++)
			if (c != 4)
				h = sig_mix(h, sqlite3_column_double(q, c));
		/* a number a page's script keeps exactly (below 2^53), never 0 */
		*sig = (int64_t)(h >> 11 | 1);
		*next_deadline = sqlite3_column_int64(q, 4);
		rc = ST_OK;
	} else {
		rc = st_fail(s, "user poll");
	}
	st_done(q);
	return rc;
}

int store_user_poll_token(struct store *s, int64_t user, const char *fresh,
			  char out[ST_POLL_TOKEN_LEN + 1])
{
	sqlite3_stmt *q;
	int rc = ST_OK;
	if (fresh) {
		if (!(q = st_query(s, STMT_USER_POLL_TOKEN_SET, ST_ARGS(ST_INT(user),
				ST_TEXT(fresh)))))
			return ST_ERR;
		if ((rc = st_exec(s, q, "user poll token set")) != ST_OK)
			return rc;
	}
	if (!(q = st_query(s, STMT_USER_POLL_TOKEN, ST_ARGS(ST_INT(user)))))
		return ST_ERR;
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW && sqlite3_column_type(q, 0) == SQLITE_TEXT) {
		st_copy_col(out, ST_POLL_TOKEN_LEN + 1, q, 0);
		rc = ST_OK;
	} else {
		rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? ST_NOTFOUND : st_fail(s, "user poll token");
	}
	st_done(q);
	return rc;
}

/* ------------------------------------------------------------------ */
/* The feed token (009_feed.sql)                                       */

/* A one-row read of the feed of a user (STMT_FEED_GET) or of a token
 * (STMT_FEED_BY_TOKEN): token, user, created_at. */
static int feed_read(struct store *s, int id, sqlite3_stmt *q, char *token,
		     int64_t *user, int64_t *created_at)
{
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		if (token)
			st_copy_col(token, ST_FEED_TOKEN_LEN + 1, q, 0);
		if (user)
			*user = sqlite3_column_int64(q, 1);
		if (created_at)
			*created_at = sqlite3_column_int64(q, 2);
		rc = ST_OK;
	} else
		rc = rc == SQLITE_DONE ? ST_NOTFOUND : st_fail(s, st_sql(id));
	st_done(q);
	return rc;
}

int store_feed_get(struct store *s, int64_t user, char token[ST_FEED_TOKEN_LEN + 1],
		   int64_t *created_at)
{
	sqlite3_stmt *q = st_query(s, STMT_FEED_GET, ST_ARGS(ST_INT(user)));
	if (!q)
		return ST_ERR;
	return feed_read(s, STMT_FEED_GET, q, token, NULL, created_at);
}

int store_feed_user(struct store *s, const char *token, int64_t *user, int64_t *created_at)
{
	sqlite3_stmt *q = st_query(s, STMT_FEED_BY_TOKEN, ST_ARGS(ST_TEXT(token)));
	if (!q)
		return ST_ERR;
	return feed_read(s, STMT_FEED_BY_TOKEN, q, NULL, user, created_at);
}

int store_feed_set(struct store *s, int64_t user, const char *token, int64_t now, int replace)
{
	return st_run(s, replace ? STMT_FEED_REPLACE : STMT_FEED_CREATE, "feed set",
			ST_ARGS(ST_INT(user), ST_TEXT(token), ST_INT(now)));
}

/* ------------------------------------------------------------------ */
/* Profiles                                                            */

int store_profile_games(struct store *s, int64_t user, st_game_count_fn fn, void *ctx)
{
	int rc;
	sqlite3_stmt *q = st_query(s, STMT_PROFILE_GAMES, ST_ARGS(ST_INT(user)));
	if (!q)
		return ST_ERR;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		char game[ST_SLUG_MAX + 1];
		st_copy_col(game, sizeof game, q, 0);
		fn(ctx, game, sqlite3_column_int(q, 1));
	}
	rc = rc == SQLITE_DONE ? ST_OK : st_fail(s, "profile games");
	st_done(q);
	return rc;
}

/* One row (a seat of a finished table) into f; a new table starts f anew. */
static void finished_row(sqlite3_stmt *q, struct st_finished *f)
{
	int64_t id = sqlite3_column_int64(q, 0);
	if (f->table_id != id) {
		memset(f, 0, sizeof *f);
		f->table_id = id;
		f->my_seat = sqlite3_column_int(q, 1);
		st_copy_col(f->game, sizeof f->game, q, 2);
		f->nseats = sqlite3_column_int(q, 3);
		f->at = sqlite3_column_int64(q, 4);
		f->totals.parties = sqlite3_column_int(q, 5);
	}
	int seat = sqlite3_column_int(q, 6);
	if (seat < 0 || seat >= GAME_MAX_SEATS)
		return;
	if (sqlite3_column_int(q, 7))
		f->resigned |= 1u << seat;
	f->totals.total[seat] = sqlite3_column_int(q, 8);
}

int store_profile_finished(struct store *s, int64_t user, int limit, st_finished_fn fn,
			   void *ctx)
{
	struct st_finished f;
	int rc;
	sqlite3_stmt *q = st_query(s, STMT_PROFILE_FINISHED, ST_ARGS(ST_INT(user),
			ST_INT(limit < 0 ? -1 : limit)));
	if (!q)
		return ST_ERR;
	memset(&f, 0, sizeof f);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (f.table_id && f.table_id != sqlite3_column_int64(q, 0))
			fn(ctx, &f);
		finished_row(q, &f);
	}
	if (rc == SQLITE_DONE && f.table_id)
		fn(ctx, &f);
	rc = rc == SQLITE_DONE ? ST_OK : st_fail(s, "profile finished");
	st_done(q);
	return rc;
}
