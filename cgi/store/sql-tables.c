/*
 * sql-tables.c — tables and seats: creating, seating, clocks, versions, the lists of
 * tables (lobby, running, a user's), invitations.
 *
 * Its statements are in stmt_text[] below, next to the functions that use them;
 * sql-core.c prepares them with every other file's at store_open.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

enum { TABLE_NCOLS = 28 };   /* columns in TABLE_COLS */

/* STMT_TABLE_PAGE's columns: TABLE_COLS and what follows them (PAGE_*).
 * STMT_TABLE_PAGE_ROWS's: a seat's (STMT_TABLE_SEATS's, 13) or a finished
 * party's result (PAGE_RESULT_*, 7, then NULLs), then the kind of row
 * (PAGE_ROWS_KIND: 1 a seat, 2 a result): the result's numbers over the
 * seat's numbers, NULL over its two texts, so that every column has one
 * type on every engine (PostgreSQL unites no text with a number). */
enum { PAGE_RESULT_NUMBER = 0, PAGE_RESULT_ID = 3, PAGE_RESULT_SEAT, PAGE_RESULT_PLACE,
       PAGE_RESULT_POINTS, PAGE_ROWS_KIND = 13 };
enum { PAGE_SPECTATORS = TABLE_NCOLS, PAGE_PARTY, PAGE_SNAP = PAGE_PARTY + 5, PAGE_TICK,
       PAGE_MY_LAST, PAGE_TOURNEY, PAGE_WAITING, PAGE_CHAT };

/* The columns struct st_my_seat is read from (read_my_seat()), of seats s
 * and their table t: who acts is one bit a seat on the table's row (026). */
#define MY_SEAT_COLS "s.seat, s.bot, (t.acting >> s.seat) & 1, (t.in_window >> s.seat) & 1, " \
	"s.clock_left, s.waiting_since, (t.to_continue >> s.seat) & 1"

enum {
	STMT_TABLE_CREATE = ST_FIRST(ST_G_TABLES),
	STMT_TABLE_GET,
	STMT_TABLE_SEATS,
	STMT_SEAT_FIND,
	STMT_SEAT_MINE,
	STMT_SEAT_TAKE,
	STMT_SEAT_LEAVE,
	STMT_SEATS_TAKEN_ADD,
	STMT_SEAT_BOT_ADD,
	STMT_SEAT_SET_AUTOPASS,
	STMT_SEAT_SET_CLOCK,
	STMT_SEATS_RESET_CLOCK,
	STMT_SEAT_EXPEL_VOTE,
	STMT_SEAT_CLAIM,
	STMT_SEATS_APPLY_CLAIMS,
	STMT_TABLE_SET_CLOCK,
	STMT_TABLES_EXPIRED,
	STMT_TABLES_IDLE,
	STMT_TABLES_DUE,
	STMT_USER_TABLES_DUE,
	STMT_TABLE_CLOSE_IDLE,
	STMT_SEAT_SET_BOT,
	STMT_TABLE_SET_STATUS,
	STMT_TABLE_BUMP,
	STMT_TABLE_VERSION,
	STMT_TABLE_NEW_EPOCH,
	STMT_TABLE_DELETE,
	STMT_TABLE_POLL,
	STMT_SEATS_SET_ACTING,
	STMT_USER_ACTING,
	STMT_USER_ACTING_COUNT,
	STMT_TABLES_OPEN,
	STMT_TABLES_OF_USER,
	STMT_MY_TABLES,
	STMT_TABLES_OPEN_FAIR,
	STMT_TABLES_OPEN_BY,
	STMT_TOURNEYS_OPEN_BY,
	STMT_INVITE,
	STMT_INVITES_TO,
	STMT_INVITES_AT,
	STMT_INVITE_WITHDRAW,
	STMT_TABLE_SET_REMATCH,
	STMT_TABLES_RUNNING,
	STMT_TABLE_BUMP_PUBLIC,
	STMT_TABLE_STEP,
	STMT_TABLE_STEP_KEPT,
	STMT_TABLE_SEATS_BARE,
	STMT_TABLE_GET_BARE,
	STMT_TABLE_ID_HIGH,
	STMT_SEATS_DONE,
	STMT_TABLE_PAGE,
	STMT_TABLE_PAGE_ROWS,
	STMT_TABLE_PAGE_SEATS,
	STMT_TABLE_PAGE_PAUSE,
	STMT_TABLES_END
};

/* store_table_page's table row: the table, its current party, the
 * viewer's (?2) last step in it, its tournament,
 * the viewer's count of waiting tables and whether its chat has a message
 * (without one the chat is not read). The tournament and the chat's flag
 * are kept in the table's row (032_page_kept.sql), not read by subqueries:
 * PostgreSQL builds every subquery's state at every execution. */
#define PAGE_TABLE_ROW \
	"SELECT " TABLE_COLS ", t.spectators, p.id, p.number, p.seed, p.dealer, p.over, " \
	PARTY_SNAPSHOT ", " PARTY_LAST_TICK "," \
	" coalesce((SELECT m.version FROM moves m WHERE m.party = p.id AND m.seat =" \
	" (SELECT y.seat FROM seats y WHERE y.table_id = t.id AND y.user_id = ?2)" \
	" ORDER BY m.version DESC LIMIT 1), 0)," \
	" t.tourney, (SELECT CASE WHEN e.waiting_seq = e.seq THEN e.waiting ELSE -1 END" \
	" FROM me_seq e WHERE e.user_id = ?2), t.has_chat" \
	" FROM tables t LEFT JOIN parties p ON p.table_id = t.id AND p.number = t.party_no" \
	" WHERE t.id = ?1"
/* A seat (the columns of STMT_TABLE_SEATS), then its kind. */
#define PAGE_SEAT_ROWS \
	"SELECT s.seat, s.name, s.claimer, coalesce(s.user_id, 0), s.bot, s.resigned, s.autopass, s.clock_left," \
	" s.waiting_since, s.timeouts, s.expel_votes, coalesce(s.claimed_by, 0), s.claimed, " \
	"1 FROM seats s WHERE s.table_id = ?1"
/* A finished party and one seat's result (a party without results: seat
 * NULL), NULL up to the seat's 13 columns, then its kind. */
#define PAGE_RESULT_ROWS \
	"SELECT p.number, NULL, NULL, p.id, r.seat, r.place, r.points," \
	" NULL, NULL, NULL, NULL, NULL, NULL, 2" \
	" FROM parties p LEFT JOIN party_results r ON r.party = p.id" \
	" WHERE p.table_id = ?1 AND p.over = 1"
/* While a running table pauses after a party (the party over, ?2): the
 * seats that continued since (a step after the epoch, ?4), as one mask in
 * the first column, then NULLs and its kind. Only then: PostgreSQL builds
 * a subquery's state at every execution, whether it runs or not. */
#define PAGE_CONTINUED_ROW \
	"SELECT CAST(coalesce(sum(DISTINCT CAST(1 AS BIGINT) << CAST(m.seat AS INTEGER)), 0)" \
	" AS BIGINT), NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 3" \
	" FROM moves m WHERE m.party = ?2 AND m.seat >= 0 AND m.seat < ?3 AND m.version > ?4"

static const char *const stmt_text[] = {
	ST_AT(STMT_TABLE_CREATE) =
		/* the number after the highest ever given out (023_table_ids.sql);
		 * the host's name kept in the row (032_page_kept.sql) */
		"INSERT INTO tables (id, game, options, nseats, nparties, created_by, created_at, host) "
		"VALUES ((SELECT last + 1 FROM id_high WHERE name = 'tables'), ?1, ?2, ?3, ?4,"
		" nullif(?5/*::BIGINT*/, 0), ?6,"
		" coalesce((SELECT u.name FROM users u WHERE u.id = ?5), '')) RETURNING id",
	ST_AT(STMT_TABLE_GET) = "SELECT " TABLE_COLS ", t.spectators FROM tables t WHERE t.id = ?1",
	/* what a write's load needs of the table (store_table_get_bare): no
	 * host's name, so no lookup of the user */
	ST_AT(STMT_TABLE_GET_BARE) =
		"SELECT " TABLE_COLS_BARE ", t.spectators FROM tables t WHERE t.id = ?1",
	/* the names kept in the seat's row (032_page_kept.sql) */
	ST_AT(STMT_TABLE_SEATS) =
		"SELECT s.seat, s.name, s.claimer, coalesce(s.user_id, 0), s.bot, s.resigned,"
		" s.autopass, s.clock_left, s.waiting_since, s.timeouts, s.expel_votes,"
		" coalesce(s.claimed_by, 0), s.claimed"
		" FROM seats s WHERE s.table_id = ?1 ORDER BY s.seat",
	/* what a write's load needs of the seats (store_table_seats_bare): no
	 * names, so no lookups of users */
	ST_AT(STMT_TABLE_SEATS_BARE) =
		"SELECT seat, coalesce(user_id, 0), bot, resigned, autopass, timeouts"
		" FROM seats WHERE table_id = ?1 ORDER BY seat",
	ST_AT(STMT_SEAT_FIND) = "SELECT seat FROM seats WHERE table_id = ?1 AND user_id = ?2",
	ST_AT(STMT_SEAT_MINE) =
		"SELECT " MY_SEAT_COLS " FROM seats s JOIN tables t ON t.id = s.table_id"
		" WHERE s.table_id = ?1 AND s.user_id = ?2",
	/* The lowest seat number below nseats that nobody holds; no row when full. */
	ST_AT(STMT_SEAT_TAKE) =
		"WITH RECURSIVE n(k) AS ("
		" SELECT 0 WHERE 0 < (SELECT nseats FROM tables WHERE id = ?1)"
		" UNION ALL SELECT k + 1 FROM n WHERE k + 1 < (SELECT nseats FROM tables WHERE id = ?1))"
		" INSERT INTO seats (table_id, seat, user_id, name)"
		" SELECT ?1, min(k), ?2, (SELECT u.name FROM users u WHERE u.id = ?2) FROM n"
		" WHERE k NOT IN (SELECT seat FROM seats WHERE table_id = ?1)"
		" HAVING min(k) IS NOT NULL",
	ST_AT(STMT_SEAT_LEAVE) = "DELETE FROM seats WHERE table_id = ?1 AND user_id = ?2",
	/* tables.seats_taken (031) follows every seat taken or left */
	ST_AT(STMT_SEATS_TAKEN_ADD) = "UPDATE tables SET seats_taken = seats_taken + ?2 WHERE id = ?1",
	/* A bot of level ?2 on the lowest free seat, as STMT_SEAT_TAKE. */
	ST_AT(STMT_SEAT_BOT_ADD) =
		"WITH RECURSIVE n(k) AS ("
		" SELECT 0 WHERE 0 < (SELECT nseats FROM tables WHERE id = ?1)"
		" UNION ALL SELECT k + 1 FROM n WHERE k + 1 < (SELECT nseats FROM tables WHERE id = ?1))"
		" INSERT INTO seats (table_id, seat, user_id, bot)"
		" SELECT ?1, min(k), NULL, ?2 FROM n"
		" WHERE k NOT IN (SELECT seat FROM seats WHERE table_id = ?1)"
		" HAVING min(k) IS NOT NULL RETURNING seat",
	ST_AT(STMT_SEAT_SET_AUTOPASS) =
		"UPDATE seats SET autopass = ?3 WHERE table_id = ?1 AND user_id = ?2",
	ST_AT(STMT_SEAT_SET_CLOCK) =
		"UPDATE seats SET clock_left = ?3, waiting_since = ?4, timeouts = ?5"
		" WHERE table_id = ?1 AND seat = ?2",
	ST_AT(STMT_SEATS_RESET_CLOCK) =
		"UPDATE seats SET clock_left = ?2, waiting_since = 0, timeouts = 0, expel_votes = 0"
		" WHERE table_id = ?1",
	ST_AT(STMT_SEAT_EXPEL_VOTE) =
		"UPDATE seats SET expel_votes = expel_votes | ?3 WHERE table_id = ?1 AND seat = ?2",
	/* the seat keeps its user's and its claimer's names (032) */
	ST_AT(STMT_SEAT_CLAIM) =
		"UPDATE seats SET claimed_by = ?3, claimer = (SELECT u.name FROM users u"
		" WHERE u.id = ?3) WHERE table_id = ?1 AND seat = ?2 AND bot > 0"
		" AND (user_id IS NULL OR resigned = 1) AND claimed_by IS NULL",
	ST_AT(STMT_SEATS_APPLY_CLAIMS) =
		"UPDATE seats SET claimed = CASE WHEN user_id IS NULL THEN 2 ELSE 1 END,"
		" user_id = claimed_by, name = claimer, claimed_by = NULL, claimer = '', bot = 0,"
		" resigned = 0,"
		" autopass = 0, clock_left = ?2, waiting_since = 0, timeouts = 0, expel_votes = 0"
		" WHERE table_id = ?1 AND claimed_by IS NOT NULL",
	ST_AT(STMT_TABLE_SET_CLOCK) =
		"UPDATE tables SET clock_first = ?2, clock_per_move = ?3, clock_cap = ?4,"
		" clock_day = ?5, clock_weekend = ?6, over_days = ?7, timeouts_max = ?8 WHERE id = ?1",
	/* open tables nobody completed in time */
	ST_AT(STMT_TABLES_EXPIRED) =
		"SELECT id FROM tables WHERE status = 0 AND created_at < ?1 ORDER BY id LIMIT ?2",
	/* running tables whose current party saw no step since ?1 */
	ST_AT(STMT_TABLES_IDLE) =
		"SELECT t.id FROM tables t JOIN parties p ON p.table_id = t.id AND p.number = t.party_no"
		" WHERE t.status = 1 AND coalesce((SELECT max(at) FROM moves m WHERE m.party = p.id),"
		" p.created_at) < ?1 ORDER BY t.id LIMIT ?2",
	ST_AT(STMT_TABLES_DUE) =
		"SELECT id FROM tables WHERE status = 1 AND next_deadline > 0 AND next_deadline <= ?1"
		" ORDER BY next_deadline LIMIT ?2",
	/* the same for one user's seats (?3), by the index seats_user_done */
	ST_AT(STMT_USER_TABLES_DUE) =
		"SELECT t.id FROM seats m JOIN tables t ON t.id = m.table_id"
		" WHERE m.user_id = ?3 AND m.done = 0 AND t.status = 1 AND t.next_deadline > 0"
		" AND t.next_deadline <= ?1 ORDER BY t.next_deadline LIMIT ?2",
	ST_AT(STMT_TABLE_CLOSE_IDLE) =
		"UPDATE tables SET status = 2, closed_idle = 1, next_deadline = 0,"
		" acting = 0, in_window = 0, to_continue = 0, version = version + 1,"
		" public_version = version + 1, epoch_version = version + 1"
		" WHERE id = ?1 AND status = 1 AND (SELECT coalesce((SELECT max(at) FROM moves m"
		" WHERE m.party = p.id), p.created_at) FROM parties p WHERE p.table_id = tables.id"
		" AND p.number = tables.party_no) < ?2",
	ST_AT(STMT_SEAT_SET_BOT) =
		"UPDATE seats SET bot = ?3, resigned = ?4 WHERE table_id = ?1 AND seat = ?2",
	ST_AT(STMT_TABLE_SET_STATUS) =
		"UPDATE tables SET status = ?2, party_no = ?3, first_dealer = ?4,"
		" acting = CASE WHEN ?2/*::BIGINT*/ = 2 THEN 0 ELSE acting END,"
		" in_window = CASE WHEN ?2 = 2 THEN 0 ELSE in_window END,"
		" to_continue = CASE WHEN ?2 = 2 THEN 0 ELSE to_continue END WHERE id = ?1",
	/* Right-hand sides see the old row: epoch_version becomes the new version
	 * exactly when the epoch changes. */
	ST_AT(STMT_TABLE_BUMP) =
		"UPDATE tables SET version = version + 1, next_deadline = ?2,"
		" epoch_version = CASE WHEN epoch <> ?3 THEN version + 1 ELSE epoch_version END,"
		" epoch = ?3,"
		" public_version = CASE WHEN ?5/*::BIGINT*/ <> 0 THEN version + 1 ELSE public_version END"
		" WHERE id = ?1 AND (?4/*::BIGINT*/ < 0 OR version = ?4)",
	ST_AT(STMT_TABLE_VERSION) = "SELECT version FROM tables WHERE id = ?1",
	ST_AT(STMT_TABLE_NEW_EPOCH) = "UPDATE tables SET epoch_version = version WHERE id = ?1",
	ST_AT(STMT_TABLE_DELETE) = "DELETE FROM tables WHERE id = ?1",
	ST_AT(STMT_TABLE_POLL) = "SELECT public_version, next_deadline FROM tables WHERE id = ?1",
	ST_AT(STMT_SEATS_SET_ACTING) =
		"UPDATE tables SET acting = ?2, in_window = ?3, to_continue = ?4"
		" WHERE id = ?1 AND (acting <> ?2 OR in_window <> ?3 OR to_continue <> ?4)",
	/* the user's running tables where their seat may act (seats_user) */
	/* counted up to ?2 only: a title says "9+", and a user at thousands
	 * of tables costs what one at ten does */
	/* the count kept with the user's /me number (026): read while the
	 * number is the one it was counted at, else counted again over the
	 * user's running seats (seats_user_done, each table by its key) */
	ST_AT(STMT_USER_ACTING) =
		"SELECT CASE WHEN waiting_seq = seq THEN waiting ELSE -1 END FROM me_seq"
		" WHERE user_id = ?1",
	ST_AT(STMT_USER_ACTING_COUNT) =
		"UPDATE me_seq SET waiting = (SELECT count(*) FROM (SELECT 1 FROM seats s"
		" CROSS JOIN tables t WHERE t.id = s.table_id AND s.user_id = ?1 AND s.done = 0"
		" AND s.bot = 0 AND (t.acting >> s.seat) & 1 = 1 LIMIT ?2) AS w), waiting_seq = seq"
		" WHERE user_id = ?1 RETURNING waiting",
	ST_AT(STMT_TABLES_OPEN) =
		"SELECT " TABLE_COLS ", " SEATS_TAKEN " FROM tables t WHERE t.status = 0"
		" ORDER BY t.id DESC LIMIT ?1",
	/* one kind (done ?3: finished or not) in the order of seats_user_done,
	 * newest first, so that nothing is sorted (store_tables_of_user) */
	ST_AT(STMT_TABLES_OF_USER) =
		"SELECT " TABLE_COLS ", " SEATS_TAKEN " FROM seats s JOIN tables t"
		" ON t.id = s.table_id WHERE s.user_id = ?1 AND s.done = ?3"
		" ORDER BY s.table_id DESC LIMIT ?2",
	/* What "Meine Tische" shows of a table (struct st_my_row): not the
	 * whole row, the host's name or the options; the seats held as the
	 * row keeps them (031). The seat's MY_SEAT_COLS come from the index
	 * (seat) and the table's row (who acts: its masks whole, read_my_row
	 * takes the seat's bits), but for those of its clock: a table with a
	 * clock is joined with the seat's row again (c), one without has NULL
	 * there (its key is NULL: SQLite does not seek), so that the listing
	 * reads no seat row at all for tables without a clock
	 * (docs/benchmarks.md, "The tournament page and /me: fewer entries, no
	 * seat rows"). */
	ST_AT(STMT_MY_TABLES) =
		"SELECT t.id, t.game, t.nseats, t.status, t.next_deadline, t.clock_first,"
		" t.clock_per_move, t.clock_cap, t.clock_day, t.clock_weekend, t.over_days,"
		" " SEATS_TAKEN ","
		" s.seat, c.bot, t.acting, t.in_window, c.clock_left, c.waiting_since, t.to_continue"
		" FROM seats s JOIN tables t ON t.id = s.table_id LEFT JOIN seats c"
		" ON c.table_id = CASE WHEN t.clock_first > 0 THEN s.table_id END AND c.seat = s.seat"
		" WHERE s.user_id = ?1 AND s.done = ?3 ORDER BY s.table_id DESC LIMIT ?2",
	ST_AT(STMT_TABLES_OPEN_FAIR) =
		"SELECT * FROM (SELECT " TABLE_COLS ", " SEATS_TAKEN ", row_number() OVER"
		" (PARTITION BY t.created_by ORDER BY t.id DESC) AS nth FROM tables t"
		" WHERE t.status = 0) AS f WHERE nth <= ?2 ORDER BY 1 DESC LIMIT ?1",
	ST_AT(STMT_TABLES_OPEN_BY) =
		"SELECT count(*) FROM tables WHERE status = 0 AND created_by = ?1",
	/* registering or running (enum st_tourney_status) */
	ST_AT(STMT_TOURNEYS_OPEN_BY) =
		"SELECT count(*) FROM tournaments WHERE status < 2 AND created_by = ?1",
	/* invitations (010_invites.sql): a second one to the same table is no error */
	ST_AT(STMT_INVITE) =
		"INSERT INTO invitations (table_id, from_id, to_id, at) VALUES (?1, ?2, ?3, ?4)"
		" ON CONFLICT (table_id, to_id) DO NOTHING",
	/* those still open: the table waits for players and the invitee is not seated */
	ST_AT(STMT_INVITES_TO) =
		"SELECT i.id, i.table_id, t.game, coalesce(f.name, ''), i.at FROM invitations i"
		" JOIN tables t ON t.id = i.table_id LEFT JOIN users f ON f.id = i.from_id"
		" WHERE i.to_id = ?1 AND t.status = 0 AND NOT EXISTS (SELECT 1 FROM seats s"
		" WHERE s.table_id = i.table_id AND s.user_id = ?1) ORDER BY i.id DESC LIMIT ?2",
	/* a table's open invitations (the invitee is not seated), oldest first */
	ST_AT(STMT_INVITES_AT) =
		"SELECT i.id, coalesce(u.name, ''), coalesce(f.name, ''), i.at FROM invitations i"
		" JOIN users u ON u.id = i.to_id LEFT JOIN users f ON f.id = i.from_id"
		" WHERE i.table_id = ?1 AND NOT EXISTS (SELECT 1 FROM seats s"
		" WHERE s.table_id = i.table_id AND s.user_id = i.to_id) ORDER BY i.id LIMIT ?2",
	ST_AT(STMT_INVITE_WITHDRAW) = "DELETE FROM invitations WHERE id = ?1 AND table_id = ?2",
	ST_AT(STMT_TABLE_SET_REMATCH) =
		"UPDATE tables SET rematch = ?2 WHERE id = ?1 AND rematch IS NULL",
	/* running tables to watch, the newest first */
	ST_AT(STMT_TABLES_RUNNING) =
		"SELECT " TABLE_COLS ", " SEATS_TAKEN " FROM tables t WHERE t.status = 1"
		" ORDER BY t.id DESC LIMIT ?1",
	/* a change everybody sees that concerns no position: epoch, epoch_version
	 * and next_deadline stay, so no page becomes stale */
	ST_AT(STMT_TABLE_BUMP_PUBLIC) =
		"UPDATE tables SET version = version + 1, public_version = version + 1 WHERE id = ?1",
	/* what a step changes on the table's row, in one statement (026): the
	 * version (public unless ?5 is 0), the deadline, the epoch (?6: every
	 * older page stale, as a party's end makes it), who acts */
	ST_AT(STMT_TABLE_STEP) =
		"UPDATE tables SET version = version + 1, next_deadline = ?2,"
		" epoch_version = CASE WHEN epoch <> ?3 OR ?6/*::BIGINT*/ <> 0 THEN version + 1"
		" ELSE epoch_version END, epoch = ?3,"
		" public_version = CASE WHEN ?5/*::BIGINT*/ <> 0 THEN version + 1 ELSE public_version END,"
		" acting = ?7, in_window = ?8, to_continue = ?9"
		" WHERE id = ?1 AND version = ?4",
	/* the same for a step that keeps the deadline ?2: next_deadline is
	 * not set, so the index tables_deadline is not rewritten (an UPDATE
	 * that names an indexed column deletes and inserts its entry, one
	 * more page a commit writes, even when the value stays) */
	ST_AT(STMT_TABLE_STEP_KEPT) =
		"UPDATE tables SET version = version + 1,"
		" epoch_version = CASE WHEN epoch <> ?3 OR ?6/*::BIGINT*/ <> 0 THEN version + 1"
		" ELSE epoch_version END, epoch = ?3,"
		" public_version = CASE WHEN ?5/*::BIGINT*/ <> 0 THEN version + 1 ELSE public_version END,"
		" acting = ?7, in_window = ?8, to_continue = ?9"
		" WHERE id = ?1 AND version = ?4 AND next_deadline = ?2",
	/* the highest number ever given out (023_table_ids.sql) */
	ST_AT(STMT_TABLE_ID_HIGH) =
		"UPDATE id_high SET last = ?1 WHERE name = 'tables' AND last < ?1",
	/* a seat at a finished table is done (seats_user_done, 019) */
	ST_AT(STMT_SEATS_DONE) =
		"UPDATE seats SET done = ?2 WHERE table_id = ?1 AND done <> ?2",
	/* store_table_page, two statements in one read transaction: the table
	 * row, then its seats and its finished parties' results, each row as
	 * narrow as a seat's. Not one UNION of the three: every branch would carry
	 * the table row's 41 columns, the seats' and results' rows as NULLs,
	 * and PostgreSQL builds every column of every branch at every
	 * execution (docs/benchmarks.md, "PostgreSQL: the page as two
	 * statements"; cheaper on SQLite as well). The seats' names are
	 * kept in their rows (032), neither joined (PostgreSQL's generic
	 * plan of the join hashed the whole users table twice) nor looked up
	 * by subqueries (whose state PostgreSQL builds at every execution).
	 * The tournament is one text kept in
	 * the table's row ("id round number name", read_page_tourney; 032),
	 * not two joins: PostgreSQL builds each join's state, as wide as the
	 * table row, at every execution (docs/benchmarks.md, "PostgreSQL: the
	 * page statement's tournament and last step").
	 * The viewer's last step by the index moves_party_seat, newest first,
	 * not the maximum over a join (one seek, no aggregate). */
	ST_AT(STMT_TABLE_PAGE) = PAGE_TABLE_ROW,
	ST_AT(STMT_TABLE_PAGE_ROWS) = PAGE_SEAT_ROWS " UNION ALL " PAGE_RESULT_ROWS,
	/* the same before the first party's end: no finished party to read */
	ST_AT(STMT_TABLE_PAGE_SEATS) = PAGE_SEAT_ROWS,
	/* the same with who continued, while the table pauses after a party */
	ST_AT(STMT_TABLE_PAGE_PAUSE) =
		PAGE_SEAT_ROWS " UNION ALL " PAGE_RESULT_ROWS " UNION ALL " PAGE_CONTINUED_ROW,
};
_Static_assert(sizeof stmt_text / sizeof stmt_text[0] == STMT_TABLES_END - ST_FIRST(ST_G_TABLES),
	       "one SQL text per statement");
const struct st_stmts st_stmts_tables = ST_STMTS(stmt_text);

/* ------------------------------------------------------------------ */
/* Tables and seats                                                    */

int store_table_create(struct store *s, const char *game, const char *options, int nseats,
		       int nparties, int64_t created_by, int64_t now, int64_t *id)
{
	struct st_cur *q = st_query(s, STMT_TABLE_CREATE, ST_ARGS(ST_TEXT(game), ST_TEXT(options),
			ST_INT(nseats), ST_INT(nparties), ST_INT(created_by), ST_INT(now)));
	if (!q)
		return ST_ERR;
	int64_t made = 0;
	int rc = st_one_int64(s, q, &made, "table create");
	if (rc != ST_OK)
		return rc == ST_NOTFOUND ? ST_ERR : rc;
	if (id)
		*id = made;
	return st_run(s, STMT_TABLE_ID_HIGH, "table id high", ST_ARGS(ST_INT(made)));
}

/* One row of TABLE_COLS starting at column 0. */
static void read_table(struct st_cur *q, struct st_table *t)
{
	memset(t, 0, sizeof *t);
	t->id = st_int64(q, 0);
	st_copy_col(t->game, sizeof t->game, q, 1);
	st_copy_col(t->options, sizeof t->options, q, 2);
	t->nseats = st_int(q, 3);
	int st = st_int(q, 4);
	t->status = (st >= 0 && st < TABLE_STATUS__MAX) ? (enum st_table_status)st : TABLE_FINISHED;
	t->version = st_int64(q, 5);
	t->next_deadline = st_int64(q, 6);
	t->epoch = (uint32_t)st_int64(q, 7);
	t->epoch_version = st_int64(q, 8);
	t->party_no = st_int(q, 9);
	t->nparties = st_int(q, 10);
	t->first_dealer = st_int(q, 11);
	t->created_by = st_int64(q, 12);
	t->created_at = st_int64(q, 13);
	t->public_version = st_int64(q, 14);
	st_read_clock(q, 15, &t->clock);
	t->timeouts_max = st_int(q, 21);
	t->closed_idle = st_int(q, 22);
	st_copy_col(t->host, sizeof t->host, q, 23);
	t->rematch = st_int64(q, 24);
	t->acting = (uint32_t)st_int64(q, 25);
	t->in_window = (uint32_t)st_int64(q, 26);
	t->to_continue = (uint32_t)st_int64(q, 27);
	t->spectators = 1;   /* (a listing's; a read of one table reads it) */
}

/* A row of TABLE_COLS and t.spectators. */
static int read_table_row(void *ctx, struct st_cur *q)
{
	struct st_table *t = ctx;
	read_table(q, t);
	t->spectators = st_int(q, TABLE_NCOLS);
	return 0;
}

/* One table by id; ST_NOTFOUND (a 404). */
int store_table_get(struct store *s, int64_t id, struct st_table *t)
{
	return st_one(s, st_query(s, STMT_TABLE_GET, ST_ARGS(ST_INT(id))), read_table_row, t,
		      "table get");
}

int store_table_get_bare(struct store *s, int64_t id, struct st_table *t)
{
	return st_one(s, st_query(s, STMT_TABLE_GET_BARE, ST_ARGS(ST_INT(id))), read_table_row, t,
		      "table get bare");
}

/* Where store_table_seats' rows go: out[*n], at most max. */
struct seat_rows {
	struct st_seat *out;
	int max, *n;
	int col;   /* the column of the first (0: STMT_TABLE_SEATS, STMT_TABLE_PAGE) */
};

/* A row past max is read over, not written (the listing runs to its end). */
static int read_seat(void *ctx, struct st_cur *q)
{
	struct seat_rows *r = ctx;
	if (*r->n >= r->max)
		return 0;
	struct st_seat *st = &r->out[(*r->n)++];
	int c = r->col;
	st->seat = st_int(q, c);
	st_copy_col(st->name, sizeof st->name, q, c + 1);
	st_copy_col(st->claimer, sizeof st->claimer, q, c + 2);
	st->user_id = st_int64(q, c + 3);
	st->bot = st_int(q, c + 4);
	st->resigned = st_int(q, c + 5);
	st->autopass = st_int(q, c + 6);
	st->clock_left = st_int64(q, c + 7);
	st->waiting_since = st_int64(q, c + 8);
	st->timeouts = st_int(q, c + 9);
	st->expel_votes = (uint32_t)st_int64(q, c + 10);
	st->claimed_by = st_int64(q, c + 11);
	st->claimed = st_int(q, c + 12);
	return 0;
}

/* The taken seats with their users' names, by seat; at most max are written. */
int store_table_seats(struct store *s, int64_t id, struct st_seat *out, int max, int *n)
{
	struct seat_rows r = { out, max, n, 0 };
	*n = 0;
	return st_each(s, st_query(s, STMT_TABLE_SEATS, ST_ARGS(ST_INT(id))), read_seat, &r,
		       "table seats");
}

/* A row of STMT_TABLE_SEATS_BARE: the rest of the seat zero. */
static int read_seat_bare(void *ctx, struct st_cur *q)
{
	struct seat_rows *r = ctx;
	if (*r->n >= r->max)
		return 0;
	struct st_seat *st = &r->out[(*r->n)++];
	*st = (struct st_seat){
		.seat = st_int(q, 0), .user_id = st_int64(q, 1),
		.bot = st_int(q, 2), .resigned = st_int(q, 3),
		.autopass = st_int(q, 4), .timeouts = st_int(q, 5),
	};
	return 0;
}

int store_table_seats_bare(struct store *s, int64_t id, struct st_seat *out, int max, int *n)
{
	struct seat_rows r = { out, max, n, 0 };
	*n = 0;
	return st_each(s, st_query(s, STMT_TABLE_SEATS_BARE, ST_ARGS(ST_INT(id))), read_seat_bare,
		       &r, "table seats");
}

/* The seat `user` holds at `table`: ST_OK with *seat, or ST_NOTFOUND. */
static int seat_find(struct store *s, int64_t table, int64_t user, int *seat)
{
	int64_t v = 0;
	struct st_cur *q = st_query(s, STMT_SEAT_FIND, ST_ARGS(ST_INT(table), ST_INT(user)));
	if (!q)
		return ST_ERR;
	int rc = st_one_int64(s, q, &v, "seat find");
	*seat = (int)v;
	return rc;
}

/* tables.seats_taken (031_seats_taken.sql) by `by` after a seat was taken
 * or left: the count the listings read instead of counting seat rows. */
static int seats_taken_add(struct store *s, int64_t table, int by)
{
	return st_run(s, STMT_SEATS_TAKEN_ADD, "seats taken", ST_ARGS(ST_INT(table), ST_INT(by)));
}

/* One INSERT picks the lowest free seat, so two joiners never get the same
 * one even outside a transaction. ST_NOTFOUND: no such table. */
int store_seat_take(struct store *s, int64_t table, int64_t user, int *seat)
{
	struct st_table t;
	int rc = seat_find(s, table, user, seat);
	if (rc == ST_OK)
		return ST_EXISTS;
	if (rc != ST_NOTFOUND)
		return rc;
	if ((rc = store_table_get(s, table, &t)) != ST_OK)
		return rc;
	struct st_cur *q = st_query(s, STMT_SEAT_TAKE, ST_ARGS(ST_INT(table), ST_INT(user)));
	if (!q)
		return ST_ERR;
	rc = st_exec(s, q, "seat take");
	if (rc == ST_EXISTS) /* a concurrent join of the same user */
		return ST_EXISTS;
	if (rc != ST_OK)
		return rc;
	if (st_changes(s) == 0)
		return ST_CONFLICT;
	if ((rc = seats_taken_add(s, table, 1)) != ST_OK || (rc = st_me_user(s, user)) != ST_OK)
		return rc;
	return seat_find(s, table, user, seat);
}

/* A bot of `level` (1 random, 2 greedy) takes the lowest free seat:
 * ST_OK with *seat, ST_CONFLICT when the table is full. */
int store_seat_add_bot(struct store *s, int64_t table, int level, int *seat)
{
	struct st_cur *q = st_query(s, STMT_SEAT_BOT_ADD, ST_ARGS(ST_INT(table), ST_INT(level)));
	if (!q)
		return ST_ERR;
	int rc = st_step(s, q), found = rc == ST_ROW;
	if (found)
		*seat = st_int(q, 0);
	while (rc == ST_ROW)
		rc = st_step(s, q);
	rc = rc == ST_DONE ? (found ? ST_OK : ST_CONFLICT) : st_fail(s, "seat add bot");
	st_done(q);
	return rc == ST_OK ? seats_taken_add(s, table, 1) : rc;
}

/* Who plays `seat`: a person (bot 0), or a bot of level 1 or 2; resigned
 * marks a seat whose person gave up. ST_NOTFOUND without the seat. */
int store_seat_set_bot(struct store *s, int64_t table, int seat, int bot, int resigned)
{
	struct st_cur *q = st_query(s, STMT_SEAT_SET_BOT, ST_ARGS(ST_INT(table), ST_INT(seat),
			ST_INT(bot), ST_INT(resigned)));
	if (!q)
		return ST_ERR;
	int rc = st_exec(s, q, "seat set bot");
	if (rc == ST_OK && st_changes(s) == 0)
		rc = ST_NOTFOUND;
	return rc == ST_OK ? st_me_seat(s, table, seat) : rc;
}

/* The user's standing choice at the table: pass every window (1) or not.
 * ST_NOTFOUND when the user holds no seat there. */
int store_seat_set_clock(struct store *s, int64_t table, int seat, int64_t left, int64_t since,
			 int timeouts)
{
	return st_run(s, STMT_SEAT_SET_CLOCK, "seat set clock",
			ST_ARGS(ST_INT(table), ST_INT(seat), ST_INT(left), ST_INT(since),
			ST_INT(timeouts)));
}

/* Runs a statement bound with (?1 table, ?2 seat, ?3 value); ST_CONFLICT
 * when it changed no row. */
static int seat_update(struct store *s, int which, int64_t table, int seat, int64_t value,
		       const char *what)
{
	struct st_cur *q = st_query(s, which, ST_ARGS(ST_INT(table), ST_INT(seat), ST_INT(value)));
	if (!q)
		return ST_ERR;
	int rc = st_exec(s, q, what);
	if (rc == ST_OK && st_changes(s) == 0)
		rc = ST_CONFLICT;
	return rc;
}

int store_seats_reset_clock(struct store *s, int64_t table, int64_t left)
{
	return st_update(s, STMT_SEATS_RESET_CLOCK, table, left, "seats reset clock", 0);
}

int store_seat_claim(struct store *s, int64_t table, int seat, int64_t user)
{
	return seat_update(s, STMT_SEAT_CLAIM, table, seat, user, "seat claim");
}

int store_seats_apply_claims(struct store *s, int64_t table, int64_t clock_left)
{
	int rc = st_me_claims(s, table);
	return rc == ST_OK ? st_update(s, STMT_SEATS_APPLY_CLAIMS, table, clock_left,
				       "seats apply claims", 0) : rc;
}

int store_seat_expel_vote(struct store *s, int64_t table, int seat, uint32_t voters)
{
	int rc = seat_update(s, STMT_SEAT_EXPEL_VOTE, table, seat, voters, "seat expel vote");
	return rc == ST_CONFLICT ? ST_NOTFOUND : rc;
}

int store_tables_expired(struct store *s, int64_t before, int64_t *ids, int max, int *n)
{
	return st_list_ids(s, STMT_TABLES_EXPIRED, before, ids, max, n, "tables expired");
}

int store_tables_idle(struct store *s, int64_t before, int64_t *ids, int max, int *n)
{
	return st_list_ids(s, STMT_TABLES_IDLE, before, ids, max, n, "tables idle");
}

int store_tables_due(struct store *s, int64_t now, int64_t *ids, int max, int *n)
{
	return st_list_ids(s, STMT_TABLES_DUE, now, ids, max, n, "tables due");
}

int store_user_tables_due(struct store *s, int64_t user, int64_t now, int64_t *ids, int max,
			  int *n)
{
	struct st_cur *q = st_stmt(s, STMT_USER_TABLES_DUE);
	*n = 0;
	if (!q)
		return ST_ERR;
	st_bind_int64(q, 3, user);   /* list_ids binds ?1 and ?2, and clears all */
	return st_list_ids(s, STMT_USER_TABLES_DUE, now, ids, max, n, "user tables due");
}

/* The seats of a table that finished (done 1) or plays again are marked so
 * (the index seats_user_done, 019): what a trigger did before 026. */
static int seats_done(struct store *s, int64_t table, int done)
{
	return st_run(s, STMT_SEATS_DONE, "seats done", ST_ARGS(ST_INT(table), ST_INT(done)));
}

int store_table_close_idle(struct store *s, int64_t id, int64_t before)
{
	int rc = st_update(s, STMT_TABLE_CLOSE_IDLE, id, before, "table close idle", 1);
	if (rc == ST_OK)
		rc = seats_done(s, id, 1);
	return rc == ST_OK ? st_me_table(s, id) : rc;
}

int store_table_set_clock(struct store *s, int64_t id, const struct clock_rule *c,
			  int timeouts_max)
{
	return st_run(s, STMT_TABLE_SET_CLOCK, "table set clock", ST_ARGS(ST_INT(id),
			ST_INT(c->first_ms), ST_INT(c->per_move_ms), ST_INT(c->cap_ms),
			ST_INT(c->day_ms > 0 ? c->day_ms : CLOCK_DAY_MS),
			ST_INT(c->weekend ? 1 : 0), ST_INT(c->windows ? 1 : 0),
			ST_INT(timeouts_max)));
}

int store_seat_set_autopass(struct store *s, int64_t table, int64_t user, int on)
{
	struct st_cur *q = st_query(s, STMT_SEAT_SET_AUTOPASS, ST_ARGS(ST_INT(table), ST_INT(user),
			ST_INT(on ? 1 : 0)));
	if (!q)
		return ST_ERR;
	int rc = st_exec(s, q, "seat set autopass");
	if (rc == ST_OK && st_changes(s) == 0)
		rc = ST_NOTFOUND;
	return rc;
}

/* ST_NOTFOUND when the user held no seat there. */
int store_seat_leave(struct store *s, int64_t table, int64_t user)
{
	struct st_cur *q = st_query(s, STMT_SEAT_LEAVE, ST_ARGS(ST_INT(table), ST_INT(user)));
	if (!q)
		return ST_ERR;
	int rc = st_exec(s, q, "seat leave");
	if (rc == ST_OK && st_changes(s) == 0)
		rc = ST_NOTFOUND;
	if (rc == ST_OK)
		rc = seats_taken_add(s, table, -1);
	return rc == ST_OK ? st_me_user(s, user) : rc;
}

/* Sets status, current party and first dealer; ST_NOTFOUND without the table. */
int store_table_set_status(struct store *s, int64_t id, enum st_table_status st,
			   int party_no, int first_dealer)
{
	struct st_cur *q = st_query(s, STMT_TABLE_SET_STATUS, ST_ARGS(ST_INT(id), ST_INT((int)st),
			ST_INT(party_no), ST_INT(first_dealer)));
	if (!q)
		return ST_ERR;
	int rc = st_change_row(s, q, "table status");
	if (rc == ST_OK)
		rc = seats_done(s, id, st == TABLE_FINISHED);
	return rc == ST_OK ? st_me_table(s, id) : rc;
}

/* The table's current version; ST_NOTFOUND without the table. */
static int table_version(struct store *s, int64_t id, int64_t *v)
{
	struct st_cur *q = st_query(s, STMT_TABLE_VERSION, ST_ARGS(ST_INT(id)));
	return st_one_int64(s, q, v, "table version");
}

/* ST_CONFLICT when the version moved on (somebody else wrote first),
 * ST_NOTFOUND when there is no such table. */
/* The one bump; quiet leaves public_version (what polls compare) alone. */
static int table_bump(struct store *s, int64_t id, int64_t expected, int64_t next_deadline,
		      uint32_t epoch, int quiet, int64_t *newv)
{
	int64_t v;
	struct st_cur *q = st_query(s, STMT_TABLE_BUMP, ST_ARGS(ST_INT(id), ST_INT(next_deadline),
			ST_INT((int64_t)epoch), ST_INT(expected), ST_INT(quiet ? 0 : 1)));
	if (!q)
		return ST_ERR;
	int rc = st_change_row(s, q, "table bump");
	if (rc == ST_NOTFOUND) {
		rc = table_version(s, id, &v);
		return rc == ST_OK ? ST_CONFLICT : rc;
	}
	if (rc != ST_OK)
		return rc;
	/* (a change of seats, a clock, a deadline: /me shows the seats taken
	 * and keeps the earliest deadline; a quiet one shows nothing else) */
	if ((rc = st_me_step(s, id, quiet ? 0 : ~0u, next_deadline, NULL, 0)) != ST_OK)
		return rc;
	if (newv && (rc = table_version(s, id, newv)) != ST_OK)
		return rc;
	return ST_OK;
}

int store_table_bump(struct store *s, int64_t id, int64_t expected, int64_t next_deadline,
		     uint32_t epoch, int64_t *newv)
{
	return table_bump(s, id, expected, next_deadline, epoch, 0, newv);
}

int store_table_bump_quiet(struct store *s, int64_t id, int64_t expected, int64_t next_deadline,
			   uint32_t epoch, int64_t *newv)
{
	return table_bump(s, id, expected, next_deadline, epoch, 1, newv);
}

/* Makes every page older than the current version stale (epoch_version = version). */
int store_table_new_epoch(struct store *s, int64_t id)
{
	struct st_cur *q = st_query(s, STMT_TABLE_NEW_EPOCH, ST_ARGS(ST_INT(id)));
	if (!q)
		return ST_ERR;
	return st_change_row(s, q, "table new epoch");
}

/* Deletes the table; seats, parties and moves go with it (ON DELETE CASCADE). */
int store_table_delete(struct store *s, int64_t id)
{
	int rc = st_me_table(s, id);
	if (rc != ST_OK)
		return rc;
	struct st_cur *q = st_query(s, STMT_TABLE_DELETE, ST_ARGS(ST_INT(id)));
	if (!q)
		return ST_ERR;
	return st_change_row(s, q, "table delete");
}

int store_table_set_acting(struct store *s, int64_t table, uint32_t acting, uint32_t in_window,
			   uint32_t to_continue)
{
	int rc = st_me_acting(s, table, acting, in_window, to_continue);
	return rc != ST_OK ? rc : st_run(s, STMT_SEATS_SET_ACTING, "table set acting",
			ST_ARGS(ST_INT(table), ST_INT(acting), ST_INT(in_window),
				ST_INT(to_continue)));
}

/* One of the two table step statements, run: ST_NOTFOUND when no row
 * matched. */
static int table_step_run(struct store *s, int stmt, int64_t id, const struct st_step_row *r)
{
	struct st_cur *q = st_query(s, stmt, ST_ARGS(ST_INT(id), ST_INT(r->deadline),
			ST_INT((int64_t)r->epoch), ST_INT(r->version), ST_INT(r->quiet ? 0 : 1),
			ST_INT(r->new_epoch ? 1 : 0), ST_INT(r->acting), ST_INT(r->in_window),
			ST_INT(r->to_continue)));
	return q ? st_change_row(s, q, "table step") : ST_ERR;
}

int store_table_step(struct store *s, int64_t id, const struct st_step_row *r)
{
	int64_t v;
	int rc = ST_NOTFOUND;
	/* a deadline kept as it was: the statement that leaves it (and its
	 * index) alone; when the row's deadline was not what the caller
	 * thought, the full one */
	if (r->deadline == r->deadline_before)
		rc = table_step_run(s, STMT_TABLE_STEP_KEPT, id, r);
	if (rc == ST_NOTFOUND)
		rc = table_step_run(s, STMT_TABLE_STEP, id, r);
	if (rc == ST_NOTFOUND) {
		rc = table_version(s, id, &v);
		return rc == ST_OK ? ST_CONFLICT : rc;
	}
	return rc == ST_OK ? st_me_step(s, id, r->changed, r->lowered, r->user, r->nseats) : rc;
}

/* The MY_SEAT_COLS of the row at column c on into *m. */
static void read_my_seat(struct st_cur *q, int c, struct st_my_seat *m)
{
	*m = (struct st_my_seat){
		.seat = st_int(q, c), .bot = st_int(q, c + 1),
		.acting = st_int(q, c + 2), .in_window = st_int(q, c + 3),
		.clock_left = st_int64(q, c + 4),
		.waiting_since = st_int64(q, c + 5),
		.to_continue = st_int(q, c + 6),
	};
}

static int read_my_seat_row(void *ctx, struct st_cur *q)
{
	read_my_seat(q, 0, ctx);
	return 0;
}

int store_seat_mine(struct store *s, int64_t table, int64_t user, struct st_my_seat *out)
{
	return st_one(s, st_query(s, STMT_SEAT_MINE, ST_ARGS(ST_INT(table), ST_INT(user))),
		      read_my_seat_row, out, "seat mine");
}

int store_user_acting(struct store *s, int64_t user, int *n)
{
	int64_t v = -1;
	*n = 0;
	int rc = st_one_int64(s, st_query(s, STMT_USER_ACTING, ST_ARGS(ST_INT(user))), &v,
			      "user acting");
	if (rc == ST_NOTFOUND && (rc = st_me_create(s, user)) == ST_OK)
		v = -1;
	if (rc == ST_OK && v < 0)
		rc = st_one_int64(s, st_query(s, STMT_USER_ACTING_COUNT, ST_ARGS(ST_INT(user),
				ST_INT(ST_ACTING_MAX))), &v, "user acting count");
	*n = rc == ST_OK ? (int)v : 0;
	return rc;
}

/* Where a table's poll row (version, next_deadline) goes. */
struct table_poll {
	int64_t *version, *next_deadline;
};

static int read_table_poll(void *ctx, struct st_cur *q)
{
	const struct table_poll *p = ctx;
	*p->version = st_int64(q, 0);
	*p->next_deadline = st_int64(q, 1);
	return 0;
}

int store_table_poll(struct store *s, int64_t id, int64_t *version, int64_t *next_deadline)
{
	struct table_poll p = { version, next_deadline };
	return st_one(s, st_query(s, STMT_TABLE_POLL, ST_ARGS(ST_INT(id))), read_table_poll, &p,
		      "table poll");
}

struct table_rows {
	st_table_fn fn;
	void *ctx;
};

static int read_listed_table(void *ctx, struct st_cur *q)
{
	const struct table_rows *r = ctx;
	struct st_table t;
	read_table(q, &t);
	r->fn(r->ctx, &t, st_int(q, TABLE_NCOLS));
	return 0;
}

/* Calls fn per row of a bound listing (TABLE_COLS plus the seats taken). */
int st_list_tables(struct store *s, struct st_cur *q, st_table_fn fn, void *ctx,
		       const char *what)
{
	struct table_rows r = { fn, ctx };
	return st_each(s, q, read_listed_table, &r, what);
}

/* Open tables (waiting for players), newest first. */
int store_tables_open(struct store *s, int limit, st_table_fn fn, void *ctx)
{
	struct st_cur *q = st_query(s, STMT_TABLES_OPEN, ST_ARGS(ST_INT(limit)));
	return st_list_tables(s, q, fn, ctx, "tables open");
}

/* Open tables, newest first, at most `per_host` of any one creator (the
 * newest of theirs), `limit` in all. */
int store_tables_open_fair(struct store *s, int limit, int per_host, st_table_fn fn, void *ctx)
{
	struct st_cur *q = st_query(s, STMT_TABLES_OPEN_FAIR, ST_ARGS(ST_INT(limit),
			ST_INT(per_host)));
	return st_list_tables(s, q, fn, ctx, "tables open fair");
}

int store_invite(struct store *s, int64_t table, int64_t from, int64_t to, int64_t now)
{
	int rc = st_run(s, STMT_INVITE, "invite", ST_ARGS(ST_INT(table), ST_INT(from), ST_INT(to),
			ST_INT(now)));
	return rc == ST_OK ? st_me_user(s, to) : rc;
}

/* Where an invitation listing's rows go: out[*n], at most max. */
struct invite_rows {
	struct st_invite *out;
	int max, *n;
};

/* A row past max stops the listing. */
static int read_invite(void *ctx, struct st_cur *q)
{
	struct invite_rows *r = ctx;
	if (*r->n >= r->max)
		return 1;
	struct st_invite *x = &r->out[(*r->n)++];
	x->id = st_int64(q, 0);
	x->table_id = st_int64(q, 1);
	st_copy_col(x->game, sizeof x->game, q, 2);
	st_copy_col(x->from, sizeof x->from, q, 3);
	x->at = st_int64(q, 4);
	return 0;
}

int store_invites_to(struct store *s, int64_t user, struct st_invite *out, int max, int *n)
{
	struct invite_rows r = { out, max, n };
	*n = 0;
	return st_each(s, st_query(s, STMT_INVITES_TO, ST_ARGS(ST_INT(user), ST_INT(max))),
		       read_invite, &r, "invites to");
}

struct invitee_rows {
	struct st_invitee *out;
	int max, *n;
};

static int read_invitee(void *ctx, struct st_cur *q)
{
	struct invitee_rows *r = ctx;
	if (*r->n >= r->max)
		return 1;
	struct st_invitee *x = &r->out[(*r->n)++];
	x->id = st_int64(q, 0);
	st_copy_col(x->to, sizeof x->to, q, 1);
	st_copy_col(x->from, sizeof x->from, q, 2);
	x->at = st_int64(q, 3);
	return 0;
}

int store_invites_at(struct store *s, int64_t table, struct st_invitee *out, int max, int *n)
{
	struct invitee_rows r = { out, max, n };
	*n = 0;
	return st_each(s, st_query(s, STMT_INVITES_AT, ST_ARGS(ST_INT(table), ST_INT(max))),
		       read_invitee, &r, "invites at");
}

int store_invite_withdraw(struct store *s, int64_t table, int64_t invite)
{
	int rc = st_me_invite(s, invite);
	if (rc == ST_OK)
		rc = st_run(s, STMT_INVITE_WITHDRAW, "invite withdraw",
			    ST_ARGS(ST_INT(invite), ST_INT(table)));
	if (rc == ST_OK && st_changes(s) == 0)
		rc = ST_NOTFOUND;
	return rc;
}

int store_table_set_rematch(struct store *s, int64_t table, int64_t next)
{
	return st_update(s, STMT_TABLE_SET_REMATCH, table, next, "table set rematch", 1);
}

int store_tables_running(struct store *s, int limit, st_table_fn fn, void *ctx)
{
	struct st_cur *q = st_query(s, STMT_TABLES_RUNNING, ST_ARGS(ST_INT(limit)));
	return st_list_tables(s, q, fn, ctx, "tables running");
}

/* How many tables `user` opened that still wait for players, into *n. */
int store_tables_open_by(struct store *s, int64_t user, int *n)
{
	int64_t v = 0;
	struct st_cur *q = st_query(s, STMT_TABLES_OPEN_BY, ST_ARGS(ST_INT(user)));
	if (!q)
		return ST_ERR;
	int rc = st_one_int64(s, q, &v, "tables open by");
	*n = (int)v;
	return rc;
}

int store_tourneys_open_by(struct store *s, int64_t user, int *n)
{
	int64_t v = 0;
	struct st_cur *q = st_query(s, STMT_TOURNEYS_OPEN_BY, ST_ARGS(ST_INT(user)));
	if (!q)
		return ST_ERR;
	int rc = st_one_int64(s, q, &v, "tournaments open by");
	*n = (int)v;
	return rc;
}

/* The tables where `user` holds a seat (`my`: what /me shows of them,
 * with that seat's row), unfinished first, newest first. Two reads down
 * the index seats_user_done, the unfinished then the finished ones: one
 * query for both sorted the whole table rows it had read, twice (20k
 * instructions a listed table at /me), and /me read each seat again. */
struct my_table_rows {
	st_my_row_fn my;
	st_table_fn fn;
	void *ctx;
	int n;
};

/* A row of STMT_MY_TABLES: only the columns its table's status needs (an
 * API read is about 120 instructions, 22 a row before): the seats taken
 * at an open table (nseats at any other), who acts and the deadline at a
 * running one, the clock's columns only at one with a clock. */
static int read_my_row(void *ctx, struct st_cur *q)
{
	struct my_table_rows *r = ctx;
	struct st_my_row m = { .id = st_int64(q, 0) };
	int st = st_int(q, 3);
	st_copy_col(m.game, sizeof m.game, q, 1);
	m.nseats = st_int(q, 2);
	m.status = (st >= 0 && st < TABLE_STATUS__MAX) ? (enum st_table_status)st : TABLE_FINISHED;
	m.seats_taken = m.status == TABLE_OPEN ? st_int(q, 11) : m.nseats;
	if (m.status == TABLE_PLAYING) {
		m.next_deadline = st_int64(q, 4);
		m.clock.first_ms = st_int64(q, 5);
		if (m.clock.first_ms > 0) {
			st_read_clock(q, 5, &m.clock);
			m.mine.bot = st_int(q, 13);
			m.mine.clock_left = st_int64(q, 16);
			m.mine.waiting_since = st_int64(q, 17);
		}
		/* the seat's bits of the table's masks taken here, not by
		 * SQLite's expressions (18k instructions for /me's thirty rows) */
		unsigned seat = (unsigned)st_int(q, 12) & 63u;
		m.mine.seat = (int)seat;
		m.mine.acting = (int)((uint64_t)st_int64(q, 14) >> seat & 1u);
		m.mine.in_window = (int)((uint64_t)st_int64(q, 15) >> seat & 1u);
		m.mine.to_continue = (int)((uint64_t)st_int64(q, 18) >> seat & 1u);
	}
	r->n++;
	r->my(r->ctx, &m);
	return 0;
}

static int read_user_table(void *ctx, struct st_cur *q)
{
	struct my_table_rows *r = ctx;
	struct st_table t;
	read_table(q, &t);
	r->n++;
	r->fn(r->ctx, &t, st_int(q, TABLE_NCOLS));
	return 0;
}

/* The two reads of STMT_MY_TABLES or STMT_TABLES_OF_USER, each row to read. */
static int user_tables(struct store *s, int stmt, int64_t user, int limit,
		       struct my_table_rows *r, int (*read)(void *, struct st_cur *))
{
	int rc = ST_OK;
	for (int over = 0; over <= 1 && rc == ST_OK && r->n < limit; over++)
		rc = st_each(s, st_query(s, stmt, ST_ARGS(ST_INT(user), ST_INT(limit - r->n),
				ST_INT(over))), read, r, "tables of user");
	return rc;
}

int store_my_tables(struct store *s, int64_t user, int limit, st_my_row_fn fn, void *ctx)
{
	struct my_table_rows r = { fn, NULL, ctx, 0 };
	return user_tables(s, STMT_MY_TABLES, user, limit, &r, read_my_row);
}

int store_tables_of_user(struct store *s, int64_t user, int limit, st_table_fn fn, void *ctx)
{
	struct my_table_rows r = { NULL, fn, ctx, 0 };
	return user_tables(s, STMT_TABLES_OF_USER, user, limit, &r, read_user_table);
}

int store_table_bump_public(struct store *s, int64_t id, int64_t *newv)
{
	struct st_cur *q = st_query(s, STMT_TABLE_BUMP_PUBLIC, ST_ARGS(ST_INT(id)));
	if (!q)
		return ST_ERR;
	int rc = st_change_row(s, q, "table bump public");
	if (rc == ST_OK && newv)
		rc = table_version(s, id, newv);
	return rc;
}

/* store_table_page's rows so far. */
struct page_rows {
	struct st_table_page *out;
	unsigned char *snap;
	size_t cap;
	int found, rc;
	struct seat_rows seats;
	struct st_party fin[ST_PAGE_PARTIES_MAX];
	int nfin;
};

/* The table's tournament as the page statement has it: "id round number
 * name" (the name the rest of the text). */
static void read_page_tourney(const char *text, struct st_table_tourney *t)
{
	t->id = st_line_num(&text);
	t->round = (int)st_line_num(&text);
	t->number = (int)st_line_num(&text);
	snprintf(t->name, sizeof t->name, "%s", text);
}

/* The table row (kind 0): the table, its current party, what goes with them. */
static void page_table_row(struct page_rows *r, struct st_cur *q)
{
	struct st_table_page *o = r->out;
	read_table(q, &o->t);
	o->t.spectators = st_int(q, PAGE_SPECTATORS);
	r->found = 1;
	o->has_party = !st_null(q, PAGE_PARTY);
	if (o->has_party) {
		struct st_party *p = &o->party;
		p->id = st_int64(q, PAGE_PARTY);
		p->table_id = o->t.id;
		p->number = st_int(q, PAGE_PARTY + 1);
		p->seed = (uint64_t)st_int64(q, PAGE_PARTY + 2);
		p->dealer = st_int(q, PAGE_PARTY + 3);
		p->over = st_int(q, PAGE_PARTY + 4);
		const void *blob = st_blob(q, PAGE_SNAP);
		p->snap_len = (size_t)st_bytes(q, PAGE_SNAP);
		p->last_tick = st_int(q, PAGE_TICK);
		if (p->snap_len > r->cap) {
			fprintf(stderr, "store: party %lld: snapshot of %zu bytes > %zu\n",
				(long long)p->id, p->snap_len, r->cap);
			r->rc = ST_ERR;
		} else if (p->snap_len) {
			memcpy(r->snap, blob, p->snap_len);
		}
	}
	o->my_last = st_int64(q, PAGE_MY_LAST);
	o->in_tourney = !st_null(q, PAGE_TOURNEY);
	if (o->in_tourney)
		read_page_tourney((const char *)st_text(q, PAGE_TOURNEY), &o->tourney);
	o->waiting = st_null(q, PAGE_WAITING) ? -1 :
		     st_int(q, PAGE_WAITING);
	o->has_chat = st_int(q, PAGE_CHAT) != 0;
}

/* A finished party's result row (kind 2), gathered by party. */
static void page_result_row(struct page_rows *r, struct st_cur *q)
{
	int64_t id = st_int64(q, PAGE_RESULT_ID);
	int k = 0;
	while (k < r->nfin && r->fin[k].id != id)
		k++;
	if (k == r->nfin) {
		if (r->nfin == ST_PAGE_PARTIES_MAX)
			return;
		memset(&r->fin[k], 0, sizeof r->fin[k]);
		r->fin[k].id = id;
		r->fin[k].number = st_int(q, PAGE_RESULT_NUMBER);
		r->fin[k].over = 1;
		r->nfin++;
	}
	int seat = st_null(q, PAGE_RESULT_SEAT) ? -1 : st_int(q, PAGE_RESULT_SEAT);
	if (seat >= 0 && seat < GAME_MAX_SEATS) {
		r->fin[k].result.place[seat] = st_int(q, PAGE_RESULT_PLACE);
		r->fin[k].result.points[seat] = st_int(q, PAGE_RESULT_POINTS);
	}
}

/* STMT_TABLE_PAGE's row (a table is in one tournament: one row). */
static int read_page_head(void *ctx, struct st_cur *q)
{
	struct page_rows *r = ctx;
	if (!r->found)
		page_table_row(r, q);
	return 0;
}

/* A row of STMT_TABLE_PAGE_ROWS or _PAUSE: a seat, a result or who
 * continued. */
static int read_page_row(void *ctx, struct st_cur *q)
{
	struct page_rows *r = ctx;
	int kind = st_int(q, PAGE_ROWS_KIND);
	if (kind == 1)
		return read_seat(&r->seats, q);
	if (kind == 3)
		r->out->continued = (uint32_t)st_int64(q, 0);
	else
		page_result_row(r, q);
	return 0;
}

/* The second statement of store_table_page, by what the table row says:
 * parties are numbered from 0, so before the first's end none is over and
 * the seats are all; who continued only while a running table pauses
 * after a party (a table that ended continues no more). */
static struct st_cur *page_rows_query(struct store *s, const struct st_table_page *o)
{
	int over = o->has_party && o->party.over;
	if (over && o->t.status == TABLE_PLAYING)
		return st_query(s, STMT_TABLE_PAGE_PAUSE, ST_ARGS(ST_INT(o->t.id),
				ST_INT(o->party.id), ST_INT(o->t.nseats), ST_INT(o->t.epoch_version)));
	return st_query(s, o->t.party_no > 0 || over ? STMT_TABLE_PAGE_ROWS : STMT_TABLE_PAGE_SEATS,
			ST_ARGS(ST_INT(o->t.id)));
}

int store_table_page(struct store *s, int64_t table, int64_t viewer, struct st_table_page *out,
		     unsigned char *snap, size_t cap, st_party_fn finished, void *ctx)
{
	struct page_rows *r = malloc(sizeof *r);
	if (!r)
		return ST_ERR;
	memset(out, 0, sizeof *out);
	r->out = out;
	r->snap = snap;
	r->cap = cap;
	r->found = r->nfin = 0;
	r->rc = ST_OK;
	r->seats = (struct seat_rows){ out->seats, GAME_MAX_SEATS, &out->nseated, 0 };
	/* the two statements in one snapshot (a read transaction) */
	int rc = store_begin_read(s);
	if (rc == ST_OK) {
		rc = st_each(s, st_query(s, STMT_TABLE_PAGE, ST_ARGS(ST_INT(table), ST_INT(viewer))),
			     read_page_head, r, "table page");
		if (rc == ST_OK && r->found)
			rc = st_each(s, page_rows_query(s, out), read_page_row, r, "table page rows");
		store_rollback(s);
	}
	if (rc == ST_OK)
		rc = !r->found ? ST_NOTFOUND : r->rc;
	/* the seats by number, the finished parties by number (as the reads
	 * that each were before listed them) */
	for (int i = 1; rc == ST_OK && i < out->nseated; i++)
		for (int j = i; j > 0 && out->seats[j - 1].seat > out->seats[j].seat; j--) {
			struct st_seat x = out->seats[j];
			out->seats[j] = out->seats[j - 1];
			out->seats[j - 1] = x;
		}
	for (int i = 1; rc == ST_OK && i < r->nfin; i++)
		for (int j = i; j > 0 && r->fin[j - 1].number > r->fin[j].number; j--) {
			struct st_party x = r->fin[j];
			r->fin[j] = r->fin[j - 1];
			r->fin[j - 1] = x;
		}
	for (int i = 0; rc == ST_OK && i < r->nfin; i++) {
		r->fin[i].table_id = table;
		if (out->has_party && r->fin[i].id == out->party.id)
			out->party.result = r->fin[i].result;
		if (finished)
			finished(ctx, &r->fin[i]);
	}
	free(r);
	return rc;
}
