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
	STMT_USER_POLL_BY_TOKEN,
	STMT_USER_POLL_TOKEN,
	STMT_USER_POLL_TOKEN_SET,
	STMT_USER_DEADLINE,
	STMT_ME_CREATE,
	STMT_ME_STEP,
	STMT_ME_STEP_USER,
	STMT_ME_TABLE,
	STMT_ME_USER,
	STMT_ME_INVITE,
	STMT_ME_CLAIMS,
	STMT_ME_SEAT,
	STMT_ME_ACTING,
	STMT_FEED_GET,
	STMT_FEED_BY_TOKEN,
	STMT_FEED_CREATE,
	STMT_FEED_REPLACE,
	STMT_PROFILE_GAMES,
	STMT_PROFILE_FINISHED,
	STMT_ME_NOW,
	STMT_ME_HEAD,
	STMT_ME_END
};

static const char *const stmt_text[] = {
	ST_AT(STMT_USER_POLL) = "SELECT seq, deadline, user_id FROM me_seq WHERE user_id = ?1",
	ST_AT(STMT_USER_POLL_BY_TOKEN) =
		"SELECT seq, deadline, user_id FROM me_seq WHERE poll_token = ?1",
	ST_AT(STMT_USER_POLL_TOKEN) = "SELECT poll_token FROM me_seq WHERE user_id = ?1",
	/* the first token made wins; a second request reads it back */
	ST_AT(STMT_USER_POLL_TOKEN_SET) =
		"UPDATE me_seq SET poll_token = ?2 WHERE user_id = ?1 AND poll_token IS NULL",
	/* once the kept deadline has passed: the true earliest one again, from
	 * the user's seats at tables not over (the index seats_user_done, 019;
	 * CROSS JOIN keeps the seats outside: else SQLite walks every running
	 * table of the site with a deadline, tables_deadline, and looks for
	 * the user's seat at each) */
	ST_AT(STMT_USER_DEADLINE) =
		"UPDATE me_seq SET deadline = coalesce((SELECT min(t.next_deadline) FROM seats m"
		" CROSS JOIN tables t WHERE t.id = m.table_id AND m.user_id = ?1 AND m.done = 0"
		" AND t.status = 1 AND t.next_deadline > 0), 0) WHERE user_id = ?1"
		" RETURNING seq, deadline, user_id",
	ST_AT(STMT_ME_CREATE) = "INSERT INTO me_seq (user_id) VALUES (?1) ON CONFLICT DO NOTHING",
	/* a step (store_table_step): seq + 1 for the seats whose asked state
	 * changed (bits ?2), the kept deadline lowered to ?3 (> 0) where it
	 * was later; rows that change neither are not written */
	ST_AT(STMT_ME_STEP) =
		"UPDATE me_seq SET seq = seq + ((?2 >> s.seat) & 1),"
		" deadline = CASE WHEN ?3/*::BIGINT*/ > 0 AND (me_seq.deadline = 0"
		" OR me_seq.deadline > ?3) THEN ?3 ELSE me_seq.deadline END"
		" FROM seats s WHERE s.table_id = ?1 AND s.user_id = me_seq.user_id"
		" AND ((?2 >> s.seat) & 1 = 1 OR (?3/*::BIGINT*/ > 0 AND (me_seq.deadline = 0"
		" OR me_seq.deadline > ?3)))",
	/* the same for one user ?1 whose asked state changed (?2 = 1) or whose
	 * kept deadline the step may lower (?2 = 0): one row by its key, where
	 * the join above builds the seats' rows first (measured: a list of
	 * the users in one statement, `user_id IN (?, …)`, cost 100k more) */
	ST_AT(STMT_ME_STEP_USER) =
		"UPDATE me_seq SET seq = seq + ?2,"
		" deadline = CASE WHEN ?3 > 0 AND (deadline = 0 OR deadline > ?3)"
		" THEN ?3 ELSE deadline END"
		" WHERE user_id = ?1 AND (?2/*::BIGINT*/ = 1"
		" OR (?3/*::BIGINT*/ > 0 AND (deadline = 0 OR deadline > ?3)))",
	/* a table starts or ends: everyone seated there or invited to it; a
	 * deadline of 1 (long passed) makes the next poll find the true one */
	ST_AT(STMT_ME_TABLE) =
		"UPDATE me_seq SET seq = seq + 1, deadline = 1 WHERE user_id IN"
		" (SELECT user_id FROM seats WHERE table_id = ?1 AND user_id IS NOT NULL"
		" UNION SELECT to_id FROM invitations WHERE table_id = ?1)",
	/* a seat or an invitation of one user comes or goes */
	ST_AT(STMT_ME_USER) =
		"UPDATE me_seq SET seq = seq + 1, deadline = 1 WHERE user_id = ?1",
	ST_AT(STMT_ME_INVITE) =
		"UPDATE me_seq SET seq = seq + 1 WHERE user_id = (SELECT to_id FROM invitations"
		" WHERE id = ?1)",
	/* who acts set outside a step (store_table_set_acting): the seats whose
	 * bits change, before the table's row does */
	ST_AT(STMT_ME_ACTING) =
		"UPDATE me_seq SET seq = seq + 1 FROM seats s JOIN tables t ON t.id = s.table_id"
		" WHERE s.table_id = ?1 AND s.user_id = me_seq.user_id"
		" AND (((t.acting >> s.seat) & 1) <> ((?2 >> s.seat) & 1)"
		" OR ((t.in_window >> s.seat) & 1) <> ((?3 >> s.seat) & 1)"
		" OR ((t.to_continue >> s.seat) & 1) <> ((?4 >> s.seat) & 1))",
	/* a seat that a bot takes over or gives back: its user's waiting count */
	ST_AT(STMT_ME_SEAT) =
		"UPDATE me_seq SET seq = seq + 1 WHERE user_id = (SELECT user_id FROM seats"
		" WHERE table_id = ?1 AND seat = ?2)",
	/* seats change hands (store_seats_apply_claims): who had and who takes them */
	ST_AT(STMT_ME_CLAIMS) =
		"UPDATE me_seq SET seq = seq + 1, deadline = 1 WHERE user_id IN"
		" (SELECT user_id FROM seats WHERE table_id = ?1 AND claimed_by IS NOT NULL"
		" UNION SELECT claimed_by FROM seats WHERE table_id = ?1 AND claimed_by IS NOT NULL)",
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
		" (SELECT CAST(coalesce(sum(r.points), 0) AS BIGINT) FROM parties p JOIN party_results r"
		" ON r.party = p.id WHERE p.table_id = m.table_id AND p.over = 1 AND r.seat = x.seat)"
		" FROM mine m JOIN tables t ON t.id = m.table_id JOIN seats x ON x.table_id = m.table_id"
		" ORDER BY m.table_id DESC, x.seat",
	/* the live channels' read on PostgreSQL (sql-live.c, st_me_now) */
	ST_AT(STMT_ME_NOW) = "SELECT seq, poll_token FROM me_seq WHERE user_id = ?1",
	/* store_me_head: STMT_USER_POLL's, STMT_USER_POLL_TOKEN's and
	 * STMT_USER_ACTING's columns, and one step into tournament_players_user */
	ST_AT(STMT_ME_HEAD) = "SELECT seq, poll_token, CASE WHEN waiting_seq = seq THEN waiting"
		" ELSE -1 END, CASE WHEN EXISTS (SELECT 1 FROM tournament_players p"
		" WHERE p.user_id = ?1) THEN 1 ELSE 0 END FROM me_seq WHERE user_id = ?1",
};
_Static_assert(sizeof stmt_text / sizeof stmt_text[0] == STMT_ME_END - ST_FIRST(ST_G_ME),
	       "one SQL text per statement");
const struct st_stmts st_stmts_me = ST_STMTS(stmt_text);

/* Where a row of me_seq (seq, deadline, user_id) goes. */
struct poll_row {
	int64_t *seq, *deadline, *user;
};

static int read_poll(void *ctx, struct st_cur *q)
{
	const struct poll_row *r = ctx;
	*r->seq = st_int64(q, 0);
	*r->deadline = st_int64(q, 1);
	*r->user = st_int64(q, 2);
	return 0;
}

/* One row of me_seq through statement `id`, bound to the user's id or
 * their poll token (STMT_USER_DEADLINE: the row its UPDATE returns, one
 * step as before). */
static int user_poll_row(struct store *s, int id, int64_t user, const char *token,
			 int64_t *seq, int64_t *deadline, int64_t *user_out)
{
	struct poll_row r = { seq, deadline, user_out };
	struct st_cur *q = token ? st_query(s, id, ST_ARGS(ST_TEXT(token))) :
				  st_query(s, id, ST_ARGS(ST_INT(user)));
	return st_one(s, q, read_poll, &r, "user poll");
}

int store_user_poll(struct store *s, int64_t user, const char *token, int64_t now_ms,
		    int64_t *sig, int64_t *next_deadline)
{
	int rc = user_poll_row(s, token ? STMT_USER_POLL_BY_TOKEN : STMT_USER_POLL, user, token,
			       sig, next_deadline, &user);
	if (rc == ST_NOTFOUND && !token && user > 0 && (rc = st_me_create(s, user)) == ST_OK)
		rc = user_poll_row(s, STMT_USER_POLL, user, NULL, sig, next_deadline, &user);
	if (rc == ST_OK && *next_deadline > 0 && *next_deadline <= now_ms)
		rc = user_poll_row(s, STMT_USER_DEADLINE, user, NULL, sig, next_deadline, &user);
	return rc;
}

/* What the schema's triggers did before 026: the /me number of the users
 * a change concerns, in the transaction that makes it. */
int st_me_create(struct store *s, int64_t user)
{
	return st_run(s, STMT_ME_CREATE, "me create", ST_ARGS(ST_INT(user)));
}

int st_me_step(struct store *s, int64_t table, uint32_t changed, int64_t lowered,
	       const int64_t *user, int nseats)
{
	if (!changed && lowered <= 0)
		return ST_OK;
	if (!user)
		return st_run(s, STMT_ME_STEP, "me step", ST_ARGS(ST_INT(table),
				ST_INT(changed), ST_INT(lowered)));
	/* the seats' users by key: those whose asked state changed, and, when
	 * the deadline is lowered, every one (written only where it is); in
	 * the order of their ids, so that two tables' moves that share users
	 * lock their rows in one order (PostgreSQL: no deadlock between them) */
	int rc = ST_OK;
	uint32_t left = 0;
	for (int q = 0; q < nseats && q < 32; q++)
		if (user[q] > 0 && ((changed >> q & 1u) || lowered > 0))
			left |= 1u << q;
	while (rc == ST_OK && left) {
		int q = -1;
		for (int k = 0; k < 32; k++)
			if ((left >> k & 1u) && (q < 0 || user[k] < user[q]))
				q = k;
		left &= ~(1u << q);
		rc = st_run(s, STMT_ME_STEP_USER, "me step", ST_ARGS(ST_INT(user[q]),
				ST_INT(changed >> q & 1u), ST_INT(lowered)));
	}
	return rc;
}

int st_me_table(struct store *s, int64_t table)
{
	return st_run(s, STMT_ME_TABLE, "me table", ST_ARGS(ST_INT(table)));
}

int st_me_user(struct store *s, int64_t user)
{
	return user > 0 ? st_run(s, STMT_ME_USER, "me user", ST_ARGS(ST_INT(user))) : ST_OK;
}

int st_me_invite(struct store *s, int64_t invite)
{
	return st_run(s, STMT_ME_INVITE, "me invite", ST_ARGS(ST_INT(invite)));
}

int st_me_acting(struct store *s, int64_t table, uint32_t acting, uint32_t in_window,
		 uint32_t to_continue)
{
	return st_run(s, STMT_ME_ACTING, "me acting", ST_ARGS(ST_INT(table), ST_INT(acting),
			ST_INT(in_window), ST_INT(to_continue)));
}

int st_me_seat(struct store *s, int64_t table, int seat)
{
	return st_run(s, STMT_ME_SEAT, "me seat", ST_ARGS(ST_INT(table), ST_INT(seat)));
}

int st_me_claims(struct store *s, int64_t table)
{
	return st_run(s, STMT_ME_CLAIMS, "me claims", ST_ARGS(ST_INT(table)));
}

/* The poll token into out, if it is set (a NULL column is no token). */
struct poll_token {
	char *out;
	int found;
};

static int read_poll_token(void *ctx, struct st_cur *q)
{
	struct poll_token *t = ctx;
	if (!st_null(q, 0)) {
		st_copy_col(t->out, ST_POLL_TOKEN_LEN + 1, q, 0);
		t->found = 1;
	}
	return 0;
}

int store_user_poll_token(struct store *s, int64_t user, const char *fresh,
			  char out[ST_POLL_TOKEN_LEN + 1])
{
	struct poll_token t = { out, 0 };
	struct st_cur *q;
	int rc = ST_OK;
	if (fresh) {
		if (!(q = st_query(s, STMT_USER_POLL_TOKEN_SET, ST_ARGS(ST_INT(user),
				ST_TEXT(fresh)))))
			return ST_ERR;
		if ((rc = st_exec(s, q, "user poll token set")) != ST_OK)
			return rc;
	}
	rc = st_one(s, st_query(s, STMT_USER_POLL_TOKEN, ST_ARGS(ST_INT(user))), read_poll_token,
		    &t, "user poll token");
	return rc == ST_OK && !t.found ? ST_NOTFOUND : rc;
}

static int read_me_head(void *ctx, struct st_cur *q)
{
	struct st_me_head *h = ctx;
	h->seq = st_int64(q, 0);
	h->poll_token[0] = '\0';
	if (!st_null(q, 1))
		st_copy_col(h->poll_token, sizeof h->poll_token, q, 1);
	h->waiting = st_int(q, 2);
	h->tourneys = st_int(q, 3);
	return 0;
}

int store_me_head(struct store *s, int64_t user, struct st_me_head *out)
{
	return st_one(s, st_query(s, STMT_ME_HEAD, ST_ARGS(ST_INT(user))), read_me_head, out,
		      "me head");
}

/* ------------------------------------------------------------------ */
/* The feed token (009_feed.sql)                                       */

/* Where a feed row (token, user, created_at) goes; NULL: not wanted. */
struct feed_row {
	char *token;
	int64_t *user, *created_at;
};

static int read_feed(void *ctx, struct st_cur *q)
{
	const struct feed_row *f = ctx;
	if (f->token)
		st_copy_col(f->token, ST_FEED_TOKEN_LEN + 1, q, 0);
	if (f->user)
		*f->user = st_int64(q, 1);
	if (f->created_at)
		*f->created_at = st_int64(q, 2);
	return 0;
}

int store_feed_get(struct store *s, int64_t user, char token[ST_FEED_TOKEN_LEN + 1],
		   int64_t *created_at)
{
	struct feed_row f = { token, NULL, created_at };
	return st_one(s, st_query(s, STMT_FEED_GET, ST_ARGS(ST_INT(user))), read_feed, &f,
		      st_sql(STMT_FEED_GET));
}

int store_feed_user(struct store *s, const char *token, int64_t *user, int64_t *created_at)
{
	struct feed_row f = { NULL, user, created_at };
	return st_one(s, st_query(s, STMT_FEED_BY_TOKEN, ST_ARGS(ST_TEXT(token))), read_feed, &f,
		      st_sql(STMT_FEED_BY_TOKEN));
}

int store_feed_set(struct store *s, int64_t user, const char *token, int64_t now, int replace)
{
	return st_run(s, replace ? STMT_FEED_REPLACE : STMT_FEED_CREATE, "feed set",
			ST_ARGS(ST_INT(user), ST_TEXT(token), ST_INT(now)));
}

/* ------------------------------------------------------------------ */
/* Profiles                                                            */

struct game_counts {
	st_game_count_fn fn;
	void *ctx;
};

static int read_game_count(void *ctx, struct st_cur *q)
{
	const struct game_counts *g = ctx;
	char game[ST_SLUG_MAX + 1];
	st_copy_col(game, sizeof game, q, 0);
	g->fn(g->ctx, game, st_int(q, 1));
	return 0;
}

int store_profile_games(struct store *s, int64_t user, st_game_count_fn fn, void *ctx)
{
	struct game_counts g = { fn, ctx };
	return st_each(s, st_query(s, STMT_PROFILE_GAMES, ST_ARGS(ST_INT(user))), read_game_count,
		       &g, "profile games");
}

/* One row (a seat of a finished table) into f; a new table starts f anew. */
static void finished_row(struct st_cur *q, struct st_finished *f)
{
	int64_t id = st_int64(q, 0);
	if (f->table_id != id) {
		memset(f, 0, sizeof *f);
		f->table_id = id;
		f->my_seat = st_int(q, 1);
		st_copy_col(f->game, sizeof f->game, q, 2);
		f->nseats = st_int(q, 3);
		f->at = st_int64(q, 4);
		f->totals.parties = st_int(q, 5);
	}
	int seat = st_int(q, 6);
	if (seat < 0 || seat >= GAME_MAX_SEATS)
		return;
	if (st_int(q, 7))
		f->resigned |= 1u << seat;
	f->totals.total[seat] = st_int(q, 8);
}

/* The finished table being gathered, handed to fn when the next one starts. */
struct finished_rows {
	struct st_finished f;
	st_finished_fn fn;
	void *ctx;
};

static int read_finished(void *ctx, struct st_cur *q)
{
	struct finished_rows *r = ctx;
	if (r->f.table_id && r->f.table_id != st_int64(q, 0))
		r->fn(r->ctx, &r->f);
	finished_row(q, &r->f);
	return 0;
}

int store_profile_finished(struct store *s, int64_t user, int limit, st_finished_fn fn,
			   void *ctx)
{
	struct finished_rows r = { .fn = fn, .ctx = ctx };
	memset(&r.f, 0, sizeof r.f);
	int rc = st_each(s, st_query(s, STMT_PROFILE_FINISHED, ST_ARGS(ST_INT(user),
			ST_INT(limit < 0 ? INT64_MAX : limit))), read_finished, &r, "profile finished");
	if (rc == ST_OK && r.f.table_id)
		fn(ctx, &r.f);
	return rc;
}

/* A user's /me number and poll token in one read (sql-live.c on
 * PostgreSQL): 0, or -1 when there is no row or no token. */
struct me_now {
	int64_t *seq;
	char *tok;
	int ok;
};

static int read_me_now(void *ctx, struct st_cur *q)
{
	struct me_now *m = ctx;
	if (!st_null(q, 1) && st_bytes(q, 1) <= ST_POLL_TOKEN_LEN) {
		*m->seq = st_int64(q, 0);
		st_copy_col(m->tok, ST_POLL_TOKEN_LEN + 1, q, 1);
		m->ok = 1;
	}
	return 0;
}

int st_me_now(struct store *s, int64_t user, int64_t *seq, char tok[ST_POLL_TOKEN_LEN + 1])
{
	struct me_now m = { seq, tok, 0 };
	int rc = st_one(s, st_query(s, STMT_ME_NOW, ST_ARGS(ST_INT(user))), read_me_now, &m,
			"me now");
	return rc == ST_OK && m.ok ? 0 : -1;
}
