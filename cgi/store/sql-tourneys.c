/*
 * sql-tourneys.c — tournaments: players, tables, results, standings (014_tournaments.sql).
 *
 * Its statements are in stmt_text[] below, next to the functions that use them;
 * sql-core.c prepares them with every other file's at store_open.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The columns struct st_tourney is read from, in read_tourney()'s order. */
#define TOURNEY_COLS "o.id, o.name, o.game, o.options, o.format, o.seats, o.min_seats, " \
	"o.rounds, o.advance, o.points, o.tiebreaks, o.clock_first, o.clock_per_move, " \
	"o.clock_cap, o.clock_day, o.clock_weekend, o.over_days, o.timeouts_max, " \
	"o.register_until, o.starts_at, o.status, o.round, o.seed, o.version, " \
	"coalesce(o.created_by, 0), o.created_at, " \
	"coalesce((SELECT h.name FROM users h WHERE h.id = o.created_by), ''), o.players, o.entrants"

/* The columns struct st_tresult is read from (list_tresults()). */
#define TRESULT_COLS "r.round, r.user_id, r.table_no, coalesce(r.table_id, 0), r.seat, " \
	"r.place, r.points, r.party_points, r.name"

/* The columns struct st_tstanding is read from (read_tstanding()). */
#define TSTANDING_COLS "d.rank_order, d.user_id, d.name, d.place, d.points, d.party_points, " \
	"d.sb2, d.played, d.byes, d.left_how, d.left_round, d.out_round"

enum {
	STMT_TOURNEY_CREATE = ST_FIRST(ST_G_TOURNEYS),
	STMT_TOURNEY_GET,
	STMT_TOURNEY_SET_STATE,
	STMT_TOURNEY_BUMP,
	STMT_TOURNEY_STARTED,
	STMT_TOURNEYS_LIST,
	STMT_TOURNEYS_OF_USER,
	STMT_TOURNEYS_DUE,
	STMT_TPLAYER_ADD,
	STMT_TOURNEY_COUNT,
	STMT_TPLAYER_DELETE,
	STMT_TPLAYER_LEAVE,
	STMT_TPLAYER_OUT,
	STMT_TPLAYER_GROUP,
	STMT_TPLAYERS,
	STMT_TTABLE_ADD,
	STMT_TTABLE_KEEP,
	STMT_TTABLE_OF,
	STMT_TTABLE_DONE,
	STMT_TROUND_OPEN,
	STMT_TTABLES,
	STMT_TRESULT_PUT,
	STMT_TRESULTS,
	STMT_TOURNEY_POLL,
	STMT_TSTANDINGS_CLEAR,
	STMT_TSTANDING_PUT,
	STMT_TSTANDINGS,
	STMT_TSTANDING_OF,
	STMT_TPLAYER_GET,
	STMT_TROUND_TABLES,
	STMT_TROUND_RESULTS,
	STMT_TROUND_SEATS,
	STMT_TMY_TABLE,
	STMT_TROUND_COUNT,
	STMT_TABLE_TOURNEY,
	STMT_TOURNEY_VIEWED,
	STMT_TTABLE_RESULT_ADD,
	STMT_TROUND_PAGE,
	STMT_TSTANDINGS_PAGE,
	STMT_TOURNEYS_END
};

static const char *const stmt_text[] = {
	/* tournaments (014_tournaments.sql) */
	ST_AT(STMT_TOURNEY_CREATE) =
		"INSERT INTO tournaments (name, game, options, format, seats, min_seats, rounds,"
		" advance, points, tiebreaks, clock_first, clock_per_move, clock_cap, clock_day,"
		" clock_weekend, over_days, timeouts_max, register_until, starts_at, seed,"
		" created_by, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11,"
		" ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22) RETURNING id",
	ST_AT(STMT_TOURNEY_GET) = "SELECT " TOURNEY_COLS " FROM tournaments o WHERE o.id = ?1",
	ST_AT(STMT_TOURNEY_SET_STATE) =
		"UPDATE tournaments SET status = ?2, round = ?3, version = version + 1 WHERE id = ?1",
	ST_AT(STMT_TOURNEY_BUMP) = "UPDATE tournaments SET version = version + 1 WHERE id = ?1",
	/* started before its time: the start (and the end of registration)
	 * become the time it did */
	ST_AT(STMT_TOURNEY_STARTED) =
		"UPDATE tournaments SET starts_at = CASE WHEN starts_at < ?2 THEN starts_at ELSE ?2 END,"
		" register_until = CASE WHEN register_until < ?2 THEN register_until ELSE ?2 END"
		" WHERE id = ?1",
	/* the ones to come and running first (by start), then the finished */
	ST_AT(STMT_TOURNEYS_LIST) =
		"SELECT " TOURNEY_COLS " FROM tournaments o"
		" ORDER BY o.status >= 2, CASE WHEN o.status >= 2 THEN -o.starts_at ELSE o.starts_at"
		" END, o.id DESC LIMIT ?1",
	/* one kind (?3: finished or cancelled, or not) in the order of the index
	 * tournament_players_user, newest first: ordered by the status, SQLite
	 * sorted in a temporary B-tree, 30k instructions even for no rows */
	ST_AT(STMT_TOURNEYS_OF_USER) =
		"SELECT " TOURNEY_COLS " FROM tournament_players m JOIN tournaments o"
		" ON o.id = m.tournament WHERE m.user_id = ?1 AND (o.status >= 2) = (?3/*::BIGINT*/ <> 0)"
		" ORDER BY m.tournament DESC LIMIT ?2",
	ST_AT(STMT_TOURNEYS_DUE) =
		"SELECT id FROM tournaments WHERE status = 0 AND starts_at <= ?1 ORDER BY starts_at"
		" LIMIT ?2",
	ST_AT(STMT_TPLAYER_ADD) =
		"INSERT INTO tournament_players (tournament, user_id, registered_at) VALUES (?1, ?2, ?3)",
	/* the counts of tournaments.players and .entrants move with the rows */
	ST_AT(STMT_TOURNEY_COUNT) =
		"UPDATE tournaments SET players = players + ?2, entrants = entrants + ?3 WHERE id = ?1",
	ST_AT(STMT_TPLAYER_DELETE) =
		"DELETE FROM tournament_players WHERE tournament = ?1 AND user_id = ?2",
	ST_AT(STMT_TPLAYER_LEAVE) =
		"UPDATE tournament_players SET left_how = ?3, left_round = ?4"
		" WHERE tournament = ?1 AND user_id = ?2 AND left_how = 0",
	ST_AT(STMT_TPLAYER_OUT) =
		"UPDATE tournament_players SET out_round = ?3 WHERE tournament = ?1 AND user_id = ?2",
	ST_AT(STMT_TPLAYER_GROUP) =
		"UPDATE tournament_players SET grp = ?3, gpos = ?4 WHERE tournament = ?1 AND user_id = ?2",
	ST_AT(STMT_TPLAYERS) =
		"SELECT m.user_id, u.name, m.registered_at, m.left_how, m.left_round, m.out_round,"
		" m.grp, m.gpos FROM tournament_players m JOIN users u ON u.id = m.user_id"
		" WHERE m.tournament = ?1 ORDER BY m.registered_at, m.user_id",
	ST_AT(STMT_TTABLE_ADD) =
		"INSERT INTO tournament_tables (tournament, round, number, table_id) VALUES (?1, ?2, ?3, ?4)",
	/* the table's row keeps its tournament for the table page (032) */
	ST_AT(STMT_TTABLE_KEEP) =
		"UPDATE tables SET tourney = (SELECT ?1/*::BIGINT*/ || ' ' || ?2/*::BIGINT*/ || ' '"
		" || ?3/*::BIGINT*/ || ' ' || o.name FROM tournaments o WHERE o.id = ?1) WHERE id = ?4",
	ST_AT(STMT_TTABLE_OF) =
		"SELECT tournament, round, number, done FROM tournament_tables WHERE table_id = ?1",
	ST_AT(STMT_TTABLE_DONE) =
		"UPDATE tournament_tables SET done = 1 WHERE table_id = ?1 AND done = 0",
	ST_AT(STMT_TROUND_OPEN) =
		"SELECT count(*) FROM tournament_tables WHERE tournament = ?1 AND round = ?2 AND done = 0",
	ST_AT(STMT_TTABLES) =
		"SELECT x.round, x.number, x.table_id, x.done, t.status, t.party_no, t.nparties"
		" FROM tournament_tables x JOIN tables t ON t.id = x.table_id"
		" WHERE x.tournament = ?1 ORDER BY x.round, x.number",
	ST_AT(STMT_TRESULT_PUT) =
		"INSERT INTO tournament_results (tournament, round, user_id, table_no, table_id, seat,"
		" place, points, party_points, name) VALUES (?1, ?2, ?3, ?4, nullif(?5/*::BIGINT*/, 0), ?6,"
		" ?7, ?8, ?9, coalesce((SELECT u.name FROM users u WHERE u.id = ?3), ''))",
	ST_AT(STMT_TRESULTS) =
		"SELECT " TRESULT_COLS " FROM tournament_results r"
		" WHERE r.tournament = ?1 ORDER BY r.round, r.table_no, r.place, r.user_id",
	ST_AT(STMT_TOURNEY_POLL) =
		"SELECT version, CASE WHEN status = 0 THEN starts_at ELSE 0 END FROM tournaments"
		" WHERE id = ?1",
	ST_AT(STMT_TSTANDINGS_CLEAR) = "DELETE FROM tournament_standings WHERE tournament = ?1",
	ST_AT(STMT_TSTANDING_PUT) =
		"INSERT INTO tournament_standings (tournament, rank_order, user_id, place, points,"
		" party_points, sb2, played, byes, name, left_how, left_round, out_round, page_rows)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
	ST_AT(STMT_TSTANDINGS) =
		"SELECT " TSTANDING_COLS " FROM tournament_standings d"
		" WHERE d.tournament = ?1 AND d.rank_order >= ?2 ORDER BY d.rank_order LIMIT ?3",
	ST_AT(STMT_TSTANDING_OF) =
		"SELECT " TSTANDING_COLS " FROM tournament_standings d"
		/* (without statistics the planner would walk the whole primary
		 * key range of the tournament instead) */
		" INDEXED BY tournament_standings_user WHERE d.tournament = ?1 AND d.user_id = ?2",
	ST_AT(STMT_TPLAYER_GET) =
		"SELECT m.user_id, u.name, m.registered_at, m.left_how, m.left_round, m.out_round,"
		" m.grp, m.gpos FROM tournament_players m JOIN users u ON u.id = m.user_id"
		" WHERE m.tournament = ?1 AND m.user_id = ?2",
	ST_AT(STMT_TROUND_TABLES) =
		"SELECT x.round, x.number, x.table_id, x.done, t.status, t.party_no, t.nparties"
		" FROM tournament_tables x JOIN tables t ON t.id = x.table_id"
		" WHERE x.tournament = ?1 AND x.round = ?2 AND x.number BETWEEN ?3 AND ?4"
		" ORDER BY x.number",
	/* what the page shows of a result (list_tround_result): not the
	 * round (asked for), the table's id or the seat */
	ST_AT(STMT_TROUND_RESULTS) =
		"SELECT r.user_id, r.table_no, r.place, r.points, r.party_points, r.name"
		" FROM tournament_results r"
		" WHERE r.tournament = ?1 AND r.round = ?2 AND r.table_no BETWEEN ?3 AND ?4"
		" ORDER BY r.table_no, r.place, r.user_id",
	/* who sits at the round's tables not done: table number, seat, the
	 * person's name ("" for a bot's own seat), bot, resigned, user */
	ST_AT(STMT_TROUND_SEATS) =
		"SELECT x.number, s.seat, coalesce(u.name, ''), s.bot, s.resigned, s.user_id"
		" FROM tournament_tables x JOIN seats s ON s.table_id = x.table_id"
		" LEFT JOIN users u ON u.id = s.user_id WHERE x.tournament = ?1 AND x.round = ?2"
		" AND x.done = 0 AND x.number BETWEEN ?3 AND ?4 ORDER BY x.number, s.seat",
	ST_AT(STMT_TMY_TABLE) =
		"SELECT x.table_id FROM tournament_tables x JOIN seats s ON s.table_id = x.table_id"
		" WHERE x.tournament = ?1 AND x.round = ?2 AND x.done = 0 AND s.user_id = ?3"
		" AND s.resigned = 0",
	/* the numbers run 0..n-1: one seek, not a count of them all */
	ST_AT(STMT_TROUND_COUNT) =
		"SELECT coalesce(max(number) + 1, 0) FROM tournament_tables"
		" WHERE tournament = ?1 AND round = ?2",
	ST_AT(STMT_TABLE_TOURNEY) =
		"SELECT o.id, o.name, x.round, x.number FROM tournament_tables x"
		" JOIN tournaments o ON o.id = x.tournament WHERE x.table_id = ?1",
	/* the tournament and the viewer's registration (the page's first read) */
	ST_AT(STMT_TOURNEY_VIEWED) =
		"SELECT " TOURNEY_COLS ", m.user_id, m.registered_at, m.left_how, m.left_round,"
		" m.out_round, m.grp, m.gpos FROM tournaments o LEFT JOIN tournament_players m"
		" ON m.tournament = o.id AND m.user_id = ?2 WHERE o.id = ?1",
	/* a result's line in its table's results (029): "user place points
	 * party_points " (?4), the name, a newline */
	ST_AT(STMT_TTABLE_RESULT_ADD) =
		"UPDATE tournament_tables SET results = results || ?4 || coalesce((SELECT u.name"
		" FROM users u WHERE u.id = ?5), '') || ?6"
		" WHERE tournament = ?1 AND round = ?2 AND number = ?3",
	/* a page of a round's tables with their results (029); the table's
	 * row only while it runs (a done one: finished, its parties not read;
	 * SQLite does not seek a NULL key) */
	ST_AT(STMT_TROUND_PAGE) =
		"SELECT x.round, x.number, x.table_id, x.done, coalesce(t.status, 2),"
		" coalesce(t.party_no, 0), coalesce(t.nparties, 1), x.results"
		" FROM tournament_tables x LEFT JOIN tables t"
		" ON t.id = CASE WHEN x.done = 0 THEN x.table_id END"
		" WHERE x.tournament = ?1 AND x.round = ?2 AND x.number BETWEEN ?3 AND ?4"
		" ORDER BY x.number",
	/* a page of standings as its first row carries it (030) */
	ST_AT(STMT_TSTANDINGS_PAGE) =
		"SELECT d.page_rows FROM tournament_standings d"
		" WHERE d.tournament = ?1 AND d.rank_order = ?2",
};
_Static_assert(sizeof stmt_text / sizeof stmt_text[0] ==
	       STMT_TOURNEYS_END - ST_FIRST(ST_G_TOURNEYS),
	       "one SQL text per statement");
const struct st_stmts st_stmts_tourneys = ST_STMTS(stmt_text);

/* ------------------------------------------------------------------ */
/* Tournaments (014_tournaments.sql)                                   */

int store_tourney_create(struct store *s, const struct st_tourney *t, int64_t *id)
{
	struct st_cur *q = st_query(s, STMT_TOURNEY_CREATE, ST_ARGS(ST_TEXT(t->name),
			ST_TEXT(t->game), ST_TEXT(t->options), ST_INT(t->format), ST_INT(t->seats),
			ST_INT(t->min_seats), ST_INT(t->rounds), ST_INT(t->advance),
			ST_TEXT(t->points), ST_TEXT(t->tiebreaks), ST_INT(t->clock.first_ms),
			ST_INT(t->clock.per_move_ms), ST_INT(t->clock.cap_ms),
			ST_INT(t->clock.day_ms > 0 ? t->clock.day_ms : 86400000),
			ST_INT(t->clock.weekend), ST_INT(t->clock.windows), ST_INT(t->timeouts_max),
			ST_INT(t->register_until), ST_INT(t->starts_at), ST_INT(t->seed)));
	if (!q)
		return ST_ERR;
	if (t->created_by > 0)
		st_bind_int64(q, 21, t->created_by);
	st_bind_int64(q, 22, t->created_at);
	int64_t made = 0;
	int rc = st_one_int64(s, q, &made, "tourney create");
	if (rc == ST_OK && id)
		*id = made;
	return rc == ST_NOTFOUND ? ST_ERR : rc;
}

/* One row of TOURNEY_COLS. */
static int read_tourney(void *ctx, struct st_cur *q)
{
	struct st_tourney *t = ctx;
	memset(t, 0, sizeof *t);
	t->id = st_int64(q, 0);
	st_copy_col(t->name, sizeof t->name, q, 1);
	st_copy_col(t->game, sizeof t->game, q, 2);
	st_copy_col(t->options, sizeof t->options, q, 3);
	t->format = st_int(q, 4);
	t->seats = st_int(q, 5);
	t->min_seats = st_int(q, 6);
	t->rounds = st_int(q, 7);
	t->advance = st_int(q, 8);
	st_copy_col(t->points, sizeof t->points, q, 9);
	st_copy_col(t->tiebreaks, sizeof t->tiebreaks, q, 10);
	st_read_clock(q, 11, &t->clock);
	t->timeouts_max = st_int(q, 17);
	t->register_until = st_int64(q, 18);
	t->starts_at = st_int64(q, 19);
	int st = st_int(q, 20);
	t->status = st >= 0 && st < TOURNEY_STATUS__MAX ? (enum st_tourney_status)st
							  : TOURNEY_FINISHED;
	t->round = st_int(q, 21);
	t->seed = st_int64(q, 22);
	t->version = st_int64(q, 23);
	t->created_by = st_int64(q, 24);
	t->created_at = st_int64(q, 25);
	st_copy_col(t->organiser, sizeof t->organiser, q, 26);
	t->players = st_int(q, 27);
	t->entrants = st_int(q, 28);
	return 0;
}

int store_tourney_get(struct store *s, int64_t id, struct st_tourney *t)
{
	return st_one(s, st_query(s, STMT_TOURNEY_GET, ST_ARGS(ST_INT(id))), read_tourney, t,
		      "tourney get");
}

/* store_tourney_viewed's answer. */
struct tourney_viewed {
	struct st_tourney *t;
	struct st_tplayer *me;
	int *registered;
};

static int read_viewed(void *ctx, struct st_cur *q)
{
	struct tourney_viewed *v = ctx;
	enum { C = 29 };   /* the columns of TOURNEY_COLS */
	read_tourney(v->t, q);
	*v->registered = !st_null(q, C);
	*v->me = (struct st_tplayer){
		.user_id = st_int64(q, C), .registered_at = st_int64(q, C + 1),
		.left_how = st_int(q, C + 2), .left_round = st_int(q, C + 3),
		.out_round = st_int(q, C + 4), .grp = st_int(q, C + 5),
		.gpos = st_int(q, C + 6),
	};
	return 0;
}

int store_tourney_viewed(struct store *s, int64_t id, int64_t user, struct st_tourney *t,
			 struct st_tplayer *me, int *registered)
{
	struct tourney_viewed v = { t, me, registered };
	return st_one(s, st_query(s, STMT_TOURNEY_VIEWED, ST_ARGS(ST_INT(id), ST_INT(user))),
		      read_viewed, &v, "tourney viewed");
}

/* Runs an UPDATE of one row bound to (id, a, b); ST_NOTFOUND when it
 * changed none. */
static int update_two(struct store *s, int which, int64_t id, int64_t a, int64_t b,
		      const char *what)
{
	struct st_cur *q = st_query(s, which, ST_ARGS(ST_INT(id), ST_INT(a), ST_INT(b)));
	if (!q)
		return ST_ERR;
	int rc = st_exec(s, q, what);
	return rc == ST_OK && st_changes(s) == 0 ? ST_NOTFOUND : rc;
}

int store_tourney_set_state(struct store *s, int64_t id, enum st_tourney_status st, int round)
{
	return update_two(s, STMT_TOURNEY_SET_STATE, id, st, round, "tourney set state");
}

int store_tourney_bump(struct store *s, int64_t id)
{
	return st_update(s, STMT_TOURNEY_BUMP, id, 0, "tourney bump", 1);
}

int store_tourney_started(struct store *s, int64_t id, int64_t now)
{
	return st_update(s, STMT_TOURNEY_STARTED, id, now, "tourney started", 1);
}

struct tourney_to {
	st_tourney_fn fn;
	void *ctx;
	int n;   /* rows so far */
};

/* A row of TOURNEY_COLS to the caller. */
static int list_tourney(void *ctx, struct st_cur *q)
{
	struct tourney_to *to = ctx;
	struct st_tourney t;
	read_tourney(&t, q);
	to->n++;
	to->fn(to->ctx, &t);
	return 0;
}

int store_tourneys_list(struct store *s, int limit, st_tourney_fn fn, void *ctx)
{
	struct tourney_to to = { fn, ctx, 0 };
	return st_each(s, st_query(s, STMT_TOURNEYS_LIST, ST_ARGS(ST_INT(limit))), list_tourney,
		       &to, "tourneys list");
}

int store_tourneys_of_user(struct store *s, int64_t user, int limit, st_tourney_fn fn,
			   void *ctx)
{
	struct tourney_to to = { fn, ctx, 0 };
	int rc = ST_OK;
	for (int over = 0; over <= 1 && rc == ST_OK && to.n < limit; over++)
		rc = st_each(s, st_query(s, STMT_TOURNEYS_OF_USER, ST_ARGS(ST_INT(user),
				ST_INT(limit - to.n), ST_INT(over))), list_tourney, &to,
			     "tourneys of user");
	return rc;
}

int store_tourneys_due(struct store *s, int64_t now, int64_t *ids, int max, int *n)
{
	return st_list_ids(s, STMT_TOURNEYS_DUE, now, ids, max, n, "tourneys due");
}

int store_tplayer_add(struct store *s, int64_t t, int64_t user, int64_t now)
{
	struct st_cur *q = st_query(s, STMT_TPLAYER_ADD, ST_ARGS(ST_INT(t), ST_INT(user),
			ST_INT(now)));
	if (!q)
		return ST_ERR;
	int rc = st_exec(s, q, "tplayer add");
	return rc == ST_OK ? update_two(s, STMT_TOURNEY_COUNT, t, 1, 1, "tourney count") : rc;
}

int store_tplayer_delete(struct store *s, int64_t t, int64_t user)
{
	struct st_cur *q = st_query(s, STMT_TPLAYER_DELETE, ST_ARGS(ST_INT(t), ST_INT(user)));
	if (!q)
		return ST_ERR;
	int rc = st_exec(s, q, "tplayer delete");
	if (rc == ST_OK && st_changes(s) == 0)
		return ST_NOTFOUND;
	return rc == ST_OK ? update_two(s, STMT_TOURNEY_COUNT, t, -1, -1, "tourney count") : rc;
}

/* An UPDATE of one player bound to (t, user, a, b); ST_NOTFOUND: none. */
static int tplayer_update(struct store *s, int which, int64_t t, int64_t user, int a,
			  int b, const char *what)
{
	struct st_cur *q = st_query(s, which, ST_ARGS(ST_INT(t), ST_INT(user), ST_INT(a),
			ST_INT(b)));
	if (!q)
		return ST_ERR;
	int rc = st_exec(s, q, what);
	return rc == ST_OK && st_changes(s) == 0 ? ST_NOTFOUND : rc;
}

int store_tplayer_leave(struct store *s, int64_t t, int64_t user, int how, int round)
{
	int rc = tplayer_update(s, STMT_TPLAYER_LEAVE, t, user, how, round, "tplayer leave");
	return rc == ST_OK ? update_two(s, STMT_TOURNEY_COUNT, t, -1, 0, "tourney count") : rc;
}

int store_tplayer_out(struct store *s, int64_t t, int64_t user, int round)
{
	return update_two(s, STMT_TPLAYER_OUT, t, user, round, "tplayer out");
}

int store_tplayer_group(struct store *s, int64_t t, int64_t user, int grp, int gpos)
{
	return tplayer_update(s, STMT_TPLAYER_GROUP, t, user, grp, gpos, "tplayer group");
}

/* One row of STMT_TPLAYERS / STMT_TPLAYER_GET. */
static int read_tplayer(void *ctx, struct st_cur *q)
{
	struct st_tplayer *x = ctx;
	x->user_id = st_int64(q, 0);
	st_copy_col(x->name, sizeof x->name, q, 1);
	x->registered_at = st_int64(q, 2);
	x->left_how = st_int(q, 3);
	x->left_round = st_int(q, 4);
	x->out_round = st_int(q, 5);
	x->grp = st_int(q, 6);
	x->gpos = st_int(q, 7);
	return 0;
}

int store_tplayer_get(struct store *s, int64_t t, int64_t user, struct st_tplayer *out)
{
	return st_one(s, st_query(s, STMT_TPLAYER_GET, ST_ARGS(ST_INT(t), ST_INT(user))),
		      read_tplayer, out, "tplayer get");
}

/* store_tplayers' rows: out[] up to max, *n counts them all. */
struct tplayer_rows {
	struct st_tplayer *out;
	int max, *n;
};

static int list_tplayer(void *ctx, struct st_cur *q)
{
	struct tplayer_rows *r = ctx;
	if (*r->n < r->max)
		read_tplayer(&r->out[*r->n], q);
	(*r->n)++;
	return 0;
}

int store_tplayers(struct store *s, int64_t t, struct st_tplayer *out, int max, int *n)
{
	struct tplayer_rows r = { out, max, n };
	*n = 0;
	return st_each(s, st_query(s, STMT_TPLAYERS, ST_ARGS(ST_INT(t))), list_tplayer, &r,
		       "tplayers");
}

int store_ttable_add(struct store *s, int64_t t, int round, int number, int64_t table_id)
{
	int rc = st_run(s, STMT_TTABLE_ADD, "ttable add", ST_ARGS(ST_INT(t), ST_INT(round),
			ST_INT(number), ST_INT(table_id)));
	if (rc == ST_OK)
		rc = st_run(s, STMT_TTABLE_KEEP, "ttable keep", ST_ARGS(ST_INT(t), ST_INT(round),
			    ST_INT(number), ST_INT(table_id)));
	return rc;
}

/* store_ttable_of's answer. */
struct ttable_of {
	int64_t *t;
	int *round, *number, *isdone;
};

static int read_ttable_of(void *ctx, struct st_cur *q)
{
	struct ttable_of *o = ctx;
	*o->t = st_int64(q, 0);
	*o->round = st_int(q, 1);
	*o->number = st_int(q, 2);
	*o->isdone = st_int(q, 3);
	return 0;
}

int store_ttable_of(struct store *s, int64_t table_id, int64_t *t, int *round, int *number,
		    int *isdone)
{
	struct ttable_of o = { t, round, number, isdone };
	return st_one(s, st_query(s, STMT_TTABLE_OF, ST_ARGS(ST_INT(table_id))), read_ttable_of,
		      &o, "ttable of");
}

int store_ttable_done(struct store *s, int64_t table_id)
{
	struct st_cur *q = st_query(s, STMT_TTABLE_DONE, ST_ARGS(ST_INT(table_id)));
	if (!q)
		return ST_ERR;
	int rc = st_exec(s, q, "ttable done");
	return rc == ST_OK && st_changes(s) == 0 ? ST_EXISTS : rc;
}

/* One count of a round's tables by statement `which`. */
static int round_count(struct store *s, int which, int64_t t, int round, int *n)
{
	int64_t v = 0;
	int rc = st_one_int64(s, st_query(s, which, ST_ARGS(ST_INT(t), ST_INT(round))), &v,
			      st_sql(which));
	*n = (int)v;
	return rc;
}

int store_tround_count(struct store *s, int64_t t, int round, int *n)
{
	return round_count(s, STMT_TROUND_COUNT, t, round, n);
}

int store_tround_open(struct store *s, int64_t t, int round, int *open)
{
	return round_count(s, STMT_TROUND_OPEN, t, round, open);
}

struct ttable_to {
	st_ttable_fn fn;
	void *ctx;
};

/* A round's table from the first seven columns of STMT_TTABLES,
 * STMT_TROUND_TABLES or STMT_TROUND_PAGE. */
static void read_ttable(struct st_cur *q, struct st_ttable *x)
{
	x->round = st_int(q, 0);
	x->number = st_int(q, 1);
	x->table_id = st_int64(q, 2);
	x->done = st_int(q, 3);
	int st = st_int(q, 4);
	x->status = st >= 0 && st < TABLE_STATUS__MAX ? (enum st_table_status)st : TABLE_FINISHED;
	x->party_no = st_int(q, 5);
	x->nparties = st_int(q, 6);
}

/* A row of STMT_TTABLES / STMT_TROUND_TABLES to the caller. */
static int list_ttable(void *ctx, struct st_cur *q)
{
	struct ttable_to *to = ctx;
	struct st_ttable x;
	read_ttable(q, &x);
	to->fn(to->ctx, &x);
	return 0;
}

int store_ttables(struct store *s, int64_t t, st_ttable_fn fn, void *ctx)
{
	struct ttable_to to = { fn, ctx };
	return st_each(s, st_query(s, STMT_TTABLES, ST_ARGS(ST_INT(t))), list_ttable, &to,
		       "ttables");
}

/* Statement `which` bound to (tournament, round, first, last). */
static struct st_cur *round_query(struct store *s, int which, int64_t t, const struct st_tround *r)
{
	return st_query(s, which, ST_ARGS(ST_INT(t), ST_INT(r->round), ST_INT(r->first),
			ST_INT(r->last)));
}

int store_tround_tables(struct store *s, int64_t t, const struct st_tround *r, st_ttable_fn fn,
			void *ctx)
{
	struct ttable_to to = { fn, ctx };
	return st_each(s, round_query(s, STMT_TROUND_TABLES, t, r), list_ttable, &to,
		       "tround tables");
}

int store_tresult_put(struct store *s, int64_t t, const struct st_tresult *r)
{
	int rc = st_run(s, STMT_TRESULT_PUT, "tresult put", ST_ARGS(ST_INT(t), ST_INT(r->round),
			ST_INT(r->user_id), ST_INT(r->table_no), ST_INT(r->table_id),
			ST_INT(r->seat), ST_INT(r->place), ST_INT(r->points),
			ST_INT(r->party_points)));
	if (rc != ST_OK || r->table_no < 0)
		return rc;
	/* and its line in the table's results (029), which the page reads */
	char head[96];
	snprintf(head, sizeof head, "%lld %d %d %d ", (long long)r->user_id, r->place, r->points,
		 r->party_points);
	return st_run(s, STMT_TTABLE_RESULT_ADD, "ttable result add", ST_ARGS(ST_INT(t),
			ST_INT(r->round), ST_INT(r->table_no), ST_TEXT(head), ST_INT(r->user_id),
			ST_TEXT("\n")));
}

/* The results text of table x (029) as rows (round, number as table_no,
 * seat -1, table_id 0, as store_tround_results has them), in the order
 * (place, user) into out (max); their count. A line cut short ends it. */
static int results_of(const struct st_ttable *x, const char *text, struct st_tresult *out, int max)
{
	int n = 0;
	for (const char *p = text; p && *p && n < max;) {
		const char *nl = strchr(p, '\n');
		struct st_tresult *y = &out[n];
		y->round = x->round;
		y->table_no = x->number;
		y->table_id = 0;
		y->seat = -1;
		y->user_id = st_line_num(&p);
		y->place = (int)st_line_num(&p);
		y->points = (int)st_line_num(&p);
		y->party_points = (int)st_line_num(&p);
		if (!nl || p > nl)
			break;
		size_t len = (size_t)(nl - p) < sizeof y->name ? (size_t)(nl - p) : sizeof y->name - 1;
		memcpy(y->name, p, len);
		y->name[len] = '\0';
		p = nl + 1;
		/* into its place: the lines come in the order they were put */
		int k = n++;
		while (k > 0 && (out[k - 1].place > y->place ||
				 (out[k - 1].place == y->place && out[k - 1].user_id > y->user_id))) {
			struct st_tresult tmp = out[k - 1];
			out[k - 1] = out[k];
			out[k] = tmp;
			y = &out[--k];
		}
	}
	return n;
}

struct tround_page_to {
	st_ttable_fn table;
	st_tresult_fn result;
	void *ctx;
};

/* A row of STMT_TROUND_PAGE: the table, then its results. */
static int list_tround_page(void *ctx, struct st_cur *q)
{
	struct tround_page_to *to = ctx;
	struct st_ttable x;
	read_ttable(q, &x);
	to->table(to->ctx, &x);
	struct st_tresult rows[ST_TRESULTS_TABLE_MAX];
	int n = results_of(&x, (const char *)st_text(q, 7), rows, ST_TRESULTS_TABLE_MAX);
	for (int i = 0; i < n; i++)
		to->result(to->ctx, &rows[i]);
	return 0;
}

int store_tround_page(struct store *s, int64_t t, const struct st_tround *r, st_ttable_fn table,
		      st_tresult_fn result, void *ctx)
{
	struct tround_page_to to = { table, result, ctx };
	return st_each(s, round_query(s, STMT_TROUND_PAGE, t, r), list_tround_page, &to,
		       "tround page");
}

struct tresult_to {
	st_tresult_fn fn;
	void *ctx;
};

/* A row of STMT_TRESULTS / STMT_TROUND_RESULTS (TRESULT_COLS) to the caller. */
static int list_tresult(void *ctx, struct st_cur *q)
{
	struct tresult_to *to = ctx;
	struct st_tresult r;
	r.round = st_int(q, 0);
	r.user_id = st_int64(q, 1);
	r.table_no = st_int(q, 2);
	r.table_id = st_int64(q, 3);
	r.seat = st_int(q, 4);
	r.place = st_int(q, 5);
	r.points = st_int(q, 6);
	r.party_points = st_int(q, 7);
	st_copy_col(r.name, sizeof r.name, q, 8);
	to->fn(to->ctx, &r);
	return 0;
}

int store_tresults(struct store *s, int64_t t, st_tresult_fn fn, void *ctx)
{
	struct tresult_to to = { fn, ctx };
	return st_each(s, st_query(s, STMT_TRESULTS, ST_ARGS(ST_INT(t))), list_tresult, &to,
		       "tresults");
}

/* A row of STMT_TROUND_RESULTS to the caller: three columns fewer than
 * TRESULT_COLS (the page reads 40 a request). */
struct tround_result_to {
	st_tresult_fn fn;
	void *ctx;
	int round;
};

static int list_tround_result(void *ctx, struct st_cur *q)
{
	struct tround_result_to *to = ctx;
	struct st_tresult r;
	r.round = to->round;
	r.user_id = st_int64(q, 0);
	r.table_no = st_int(q, 1);
	r.table_id = 0;
	r.seat = -1;
	r.place = st_int(q, 2);
	r.points = st_int(q, 3);
	r.party_points = st_int(q, 4);
	st_copy_col(r.name, sizeof r.name, q, 5);
	to->fn(to->ctx, &r);
	return 0;
}

int store_tround_results(struct store *s, int64_t t, const struct st_tround *r,
			 st_tresult_fn fn, void *ctx)
{
	struct tround_result_to to = { fn, ctx, r->round };
	return st_each(s, round_query(s, STMT_TROUND_RESULTS, t, r), list_tround_result, &to,
		       "tround results");
}

/* store_tourney_poll's answer. */
struct tourney_poll {
	int64_t *version, *deadline;
};

static int read_poll(void *ctx, struct st_cur *q)
{
	struct tourney_poll *p = ctx;
	*p->version = st_int64(q, 0);
	*p->deadline = st_int64(q, 1);
	return 0;
}

int store_tourney_poll(struct store *s, int64_t id, int64_t *version, int64_t *deadline)
{
	struct tourney_poll p = { version, deadline };
	return st_one(s, st_query(s, STMT_TOURNEY_POLL, ST_ARGS(ST_INT(id))), read_poll, &p,
		      "tourney poll");
}

/* Into out (cap bytes): the lines (030) of the rows whose rank_order lies
 * in the page of ST_TSTANDINGS_PAGE beginning at `head`, in the order of
 * rows; 0, or -1 when they do not fit. */
static int page_text(const struct st_tstanding *rows, int n, int head, char *out, size_t cap)
{
	size_t o = 0;
	out[0] = '\0';
	for (int i = 0; i < n; i++) {
		const struct st_tstanding *x = &rows[i];
		if (x->rank_order < head || x->rank_order >= head + ST_TSTANDINGS_PAGE)
			continue;
		int w = snprintf(out + o, cap - o, "%d %lld %d %d %d %d %d %d %d %d %d %s\n",
				 x->rank_order, (long long)x->user_id, x->place, x->points,
				 x->party_points, x->sb2, x->played, x->byes, x->left_how,
				 x->left_round, x->out_round, x->name);
		if (w < 0 || (size_t)w >= cap - o)
			return -1;
		o += (size_t)w;
	}
	return 0;
}

int store_tstandings_replace(struct store *s, int64_t t, const struct st_tstanding *rows, int n)
{
	enum { PAGE_TEXT_MAX = ST_TSTANDINGS_PAGE * (11 * 12 + ST_NAME_MAX + 2) + 1 };
	char *text = malloc(PAGE_TEXT_MAX);
	struct st_cur *q = text ? st_query(s, STMT_TSTANDINGS_CLEAR, ST_ARGS(ST_INT(t))) : NULL;
	if (!q) {
		free(text);
		return ST_ERR;
	}
	int rc = st_exec(s, q, "tstandings clear");
	for (int i = 0; rc == ST_OK && i < n; i++) {
		const struct st_tstanding *x = &rows[i];
		/* the first row of a page carries the page (030) */
		int head = x->rank_order % ST_TSTANDINGS_PAGE == 0;
		if (head && page_text(rows, n, x->rank_order, text, PAGE_TEXT_MAX) != 0) {
			rc = ST_ERR;
			break;
		}
		if (!(q = st_query(s, STMT_TSTANDING_PUT, ST_ARGS(ST_INT(t), ST_INT(x->rank_order),
				ST_INT(x->user_id), ST_INT(x->place), ST_INT(x->points),
				ST_INT(x->party_points), ST_INT(x->sb2), ST_INT(x->played),
				ST_INT(x->byes), ST_TEXT(x->name), ST_INT(x->left_how),
				ST_INT(x->left_round), ST_INT(x->out_round),
				ST_TEXT(head ? text : ""))))) {
			rc = ST_ERR;
			break;
		}
		rc = st_exec(s, q, "tstanding put");
	}
	free(text);
	return rc;
}

/* One row of TSTANDING_COLS. */
static int read_tstanding(void *ctx, struct st_cur *q)
{
	struct st_tstanding *x = ctx;
	x->rank_order = st_int(q, 0);
	x->user_id = st_int64(q, 1);
	st_copy_col(x->name, sizeof x->name, q, 2);
	x->place = st_int(q, 3);
	x->points = st_int(q, 4);
	x->party_points = st_int(q, 5);
	x->sb2 = st_int(q, 6);
	x->played = st_int(q, 7);
	x->byes = st_int(q, 8);
	x->left_how = st_int(q, 9);
	x->left_round = st_int(q, 10);
	x->out_round = st_int(q, 11);
	return 0;
}

struct tstanding_to {
	st_tstanding_fn fn;
	void *ctx;
};

static int list_tstanding(void *ctx, struct st_cur *q)
{
	struct tstanding_to *to = ctx;
	struct st_tstanding x;
	read_tstanding(&x, q);
	to->fn(to->ctx, &x);
	return 0;
}

/* The lines of a page's text (030) into out (ST_TSTANDINGS_PAGE at most),
 * each in its place by rank_order from `from` on; their count, or -1 for a
 * text that is not such lines. */
static int page_rows_of(const char *text, int from, struct st_tstanding *out)
{
	int n = 0;
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		struct st_tstanding x;
		x.rank_order = (int)st_line_num(&p);
		x.user_id = st_line_num(&p);
		x.place = (int)st_line_num(&p);
		x.points = (int)st_line_num(&p);
		x.party_points = (int)st_line_num(&p);
		x.sb2 = (int)st_line_num(&p);
		x.played = (int)st_line_num(&p);
		x.byes = (int)st_line_num(&p);
		x.left_how = (int)st_line_num(&p);
		x.left_round = (int)st_line_num(&p);
		x.out_round = (int)st_line_num(&p);
		int k = x.rank_order - from;
		if (!nl || p > nl || k < 0 || k >= ST_TSTANDINGS_PAGE || out[k].rank_order >= 0)
			return -1;
		size_t len = (size_t)(nl - p) < sizeof x.name ? (size_t)(nl - p) : sizeof x.name - 1;
		memcpy(x.name, p, len);
		x.name[len] = '\0';
		out[k] = x;
		n++;
		p = nl + 1;
	}
	return n;
}

struct page_read {
	struct st_tstanding *rows;
	int from, n;
};

static int read_page_rows(void *ctx, struct st_cur *q)
{
	struct page_read *r = ctx;
	const char *text = (const char *)st_text(q, 0);
	r->n = page_rows_of(text ? text : "", r->from, r->rows);
	return 0;
}

int store_tstandings(struct store *s, int64_t t, int from, int limit, st_tstanding_fn fn,
		     void *ctx)
{
	if (from >= 0 && from % ST_TSTANDINGS_PAGE == 0 && limit == ST_TSTANDINGS_PAGE) {
		/* a whole page: the text its first row carries (030), one read;
		 * the rows themselves when it has none (no such row: a page
		 * past the end; or rows written without it) */
		struct st_tstanding rows[ST_TSTANDINGS_PAGE];
		for (int i = 0; i < ST_TSTANDINGS_PAGE; i++)
			rows[i].rank_order = -1;
		struct page_read r = { rows, from, 0 };
		int rc = st_one(s, st_query(s, STMT_TSTANDINGS_PAGE, ST_ARGS(ST_INT(t),
				ST_INT(from))), read_page_rows, &r, "tstandings page");
		if (rc != ST_OK && rc != ST_NOTFOUND)
			return rc;
		int whole = r.n > 0;   /* the rows in order from `from`, none left out */
		for (int i = 0; whole && i < r.n; i++)
			whole = rows[i].rank_order == from + i;
		for (int i = 0; whole && i < r.n; i++)
			fn(ctx, &rows[i]);
		if (whole)
			return ST_OK;
	}
	struct tstanding_to to = { fn, ctx };
	return st_each(s, st_query(s, STMT_TSTANDINGS, ST_ARGS(ST_INT(t), ST_INT(from),
			ST_INT(limit))), list_tstanding, &to, "tstandings");
}

int store_tstanding_of(struct store *s, int64_t t, int64_t user, struct st_tstanding *out)
{
	return st_one(s, st_query(s, STMT_TSTANDING_OF, ST_ARGS(ST_INT(t), ST_INT(user))),
		      read_tstanding, out, "tstanding of");
}

struct tseat_to {
	st_tseat_fn fn;
	void *ctx;
};

static int list_tseat(void *ctx, struct st_cur *q)
{
	struct tseat_to *to = ctx;
	struct st_tseat x;
	x.number = st_int(q, 0);
	x.seat = st_int(q, 1);
	st_copy_col(x.name, sizeof x.name, q, 2);
	x.bot = st_int(q, 3);
	x.resigned = st_int(q, 4);
	x.user_id = st_int64(q, 5);
	to->fn(to->ctx, &x);
	return 0;
}

int store_tround_seats(struct store *s, int64_t t, const struct st_tround *r, st_tseat_fn fn,
		       void *ctx)
{
	struct tseat_to to = { fn, ctx };
	return st_each(s, round_query(s, STMT_TROUND_SEATS, t, r), list_tseat, &to,
		       "tround seats");
}

int store_tmy_table(struct store *s, int64_t t, int round, int64_t user, int64_t *table)
{
	return st_one_int64(s, st_query(s, STMT_TMY_TABLE, ST_ARGS(ST_INT(t), ST_INT(round),
			ST_INT(user))), table, "tmy table");
}

static int read_table_tourney(void *ctx, struct st_cur *q)
{
	struct st_table_tourney *out = ctx;
	out->id = st_int64(q, 0);
	st_copy_col(out->name, sizeof out->name, q, 1);
	out->round = st_int(q, 2);
	out->number = st_int(q, 3);
	return 0;
}

int store_table_tourney(struct store *s, int64_t table, struct st_table_tourney *out)
{
	return st_one(s, st_query(s, STMT_TABLE_TOURNEY, ST_ARGS(ST_INT(table))),
		      read_table_tourney, out, "table tourney");
}
