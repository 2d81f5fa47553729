/*
 * store.c — the only file that speaks SQL.
 *
 * Every statement is in stmt_sql[] below, prepared once per connection (all
 * of them at the end of store_open, so a typo fails at start, not in a
 * request), reset and unbound after every use. Values are always bound;
 * no SQL text is ever assembled at run time. Migration files are executed
 * as they are, each inside BEGIN IMMEDIATE … COMMIT.
 *
 * Times are milliseconds; the store never reads the clock itself.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <signal.h>
#include <sys/file.h>
#include <sys/time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store.h"
#include "text.h"

enum { BUSY_TIMEOUT_MS = 5000, CHECKPOINT_WAIT_MS = 10, MIGRATION_MAX_BYTES = 1 << 20,
       NAME_KEY_MAX = ST_NAME_MAX * 2,
       WRITER_WAIT_MS = BUSY_TIMEOUT_MS };   /* the writer lock file's bound, as SQLite's */

enum stmt {
	STMT_PRAGMA_WAL,
	STMT_PRAGMA_SYNC,
	STMT_PRAGMA_FK,
	STMT_USER_VERSION,
	STMT_BEGIN,
	STMT_BEGIN_READ,
	STMT_COMMIT,
	STMT_ROLLBACK,
	STMT_USER_CREATE,
	STMT_USER_BY_NAME,
	STMT_USER_BY_ID,
	STMT_SESSION_CREATE,
	STMT_SESSION_GET,
	STMT_USER_SET_LANG,
	STMT_SESSION_DELETE,
	STMT_SESSION_PURGE,
	STMT_LOGIN_FAILED,
	STMT_LOGIN_FAILURES,
	STMT_LOGIN_CLEAR,
	STMT_LOGIN_PURGE,
	STMT_LOGIN_FAILED_AT,
	STMT_LOGIN_CLEAR_AT,
	STMT_LOGIN_KNOWN_GET,
	STMT_LOGIN_KNOWN_SET,
	STMT_LOGIN_KNOWN_PURGE,
	STMT_TABLE_CREATE,
	STMT_TABLE_GET,
	STMT_TABLE_SEATS,
	STMT_SEAT_FIND,
	STMT_SEAT_MINE,
	STMT_SEAT_TAKE,
	STMT_SEAT_LEAVE,
	STMT_SEAT_BOT_ADD,
	STMT_SEAT_SET_BOT,
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
	STMT_TABLE_SET_STATUS,
	STMT_TABLE_BUMP,
	STMT_TABLE_VERSION,
	STMT_TABLE_NEW_EPOCH,
	STMT_TABLE_DELETE,
	STMT_TABLE_POLL,
	STMT_USER_POLL,
	STMT_USER_POLL_BY_TOKEN,
	STMT_USER_DEADLINE,
	STMT_USER_POLL_TOKEN,
	STMT_USER_POLL_TOKEN_SET,
	STMT_RATING_GET,
	STMT_RATING_PUT,
	STMT_RATING_HISTORY_ADD,
	STMT_TABLE_SET_RATED,
	STMT_RATING_BOARD,
	STMT_RATINGS_OF_USER,
	STMT_RATING_HISTORY,
	STMT_SEATS_SET_ACTING,
	STMT_USER_ACTING,
	STMT_TABLES_OPEN,
	STMT_TABLES_OF_USER,
	STMT_TABLES_OPEN_FAIR,
	STMT_TABLES_OPEN_BY,
	STMT_TOURNEYS_OPEN_BY,
	STMT_TABLES_RUNNING,
	STMT_INVITE,
	STMT_INVITES_TO,
	STMT_TABLE_SET_REMATCH,
	STMT_CHAT_ADD,
	STMT_CHAT_RATE,
	STMT_CHAT_RECENT,
	STMT_CHAT_MUTE,
	STMT_CHAT_UNMUTE,
	STMT_CHAT_MUTED,
	STMT_TABLE_BUMP_PUBLIC,
	STMT_PARTY_CREATE,
	STMT_PARTY_GET,
	STMT_PARTY_LATEST,
	STMT_PARTY_SAVE,
	STMT_RESULT_CLEAR,
	STMT_RESULT_PUT,
	STMT_RESULTS_OF_PARTY,
	STMT_PARTIES_OF_TABLE,
	STMT_MOVE_APPEND,
	STMT_SEAT_MOVED_SINCE,
	STMT_TICKED_SINCE,
	STMT_SEAT_LAST_VERSION,
	STMT_MOVES,
	STMT_MOVE_COUNT,
	STMT_FEED_GET,
	STMT_FEED_BY_TOKEN,
	STMT_FEED_CREATE,
	STMT_FEED_REPLACE,
	STMT_PARTY_STEP_AT,
	STMT_PROFILE_GAMES,
	STMT_PROFILE_FINISHED,
	STMT_MAIL_PREFS,
	STMT_MAIL_PREFS_SET,
	STMT_MAIL_OFF,
	STMT_MAIL_BY_TOKEN,
	STMT_MAIL_TURN,
	STMT_MAIL_DIGEST_DUE,
	STMT_MAIL_DIGEST_QUEUE,
	STMT_MAIL_DIGEST_NEXT,
	STMT_MAIL_DUE,
	STMT_MAIL_ACTING,
	STMT_MAIL_ACTING_TABLES,
	STMT_MAIL_DONE,
	STMT_MAIL_RETRY,
	STMT_MAIL_PURGE,
	STMT_TOURNEY_CREATE,
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
	STMT_TABLE_TOURNEY,
	STMT_TROUND_COUNT,
	STMT__MAX
};

/* The columns struct st_table is read from, in read_table()'s order. */
#define TABLE_COLS "t.id, t.game, t.options, t.nseats, t.status, t.version, t.next_deadline, " \
	"t.epoch, t.epoch_version, t.party_no, t.nparties, t.first_dealer, " \
	"coalesce(t.created_by, 0), t.created_at, t.public_version, t.clock_first, " \
	"t.clock_per_move, t.clock_cap, t.clock_day, t.clock_weekend, t.over_days, t.timeouts_max, " \
	"t.closed_idle, coalesce((SELECT h.name FROM users h WHERE h.id = t.created_by), ''), " \
	"coalesce(t.rematch, 0)"
enum { TABLE_NCOLS = 25 };   /* columns in TABLE_COLS */
#define SEATS_TAKEN "(SELECT count(*) FROM seats c WHERE c.table_id = t.id)"
/* The columns struct st_my_seat is read from (read_my_seat()), of seats s. */
#define MY_SEAT_COLS "s.seat, s.bot, s.acting, s.in_window, s.clock_left, s.waiting_since, " \
	"s.to_continue"
#define PARTY_COLS "id, table_id, number, seed, dealer, over"
/* The columns struct st_tourney is read from, in read_tourney()'s order. */
#define TOURNEY_COLS "o.id, o.name, o.game, o.options, o.format, o.seats, o.min_seats, " \
	"o.rounds, o.advance, o.points, o.tiebreaks, o.clock_first, o.clock_per_move, " \
	"o.clock_cap, o.clock_day, o.clock_weekend, o.over_days, o.timeouts_max, " \
	"o.register_until, o.starts_at, o.status, o.round, o.seed, o.version, " \
	"coalesce(o.created_by, 0), o.created_at, " \
	"coalesce((SELECT h.name FROM users h WHERE h.id = o.created_by), ''), o.players, o.entrants"
/* The columns struct st_tresult is read from (list_tresults()). */
#define TRESULT_COLS "r.round, r.user_id, r.table_no, coalesce(r.table_id, 0), r.seat, " \
	"r.place, r.points, r.party_points, u.name"
/* The columns struct st_tstanding is read from (read_tstanding()). */
#define TSTANDING_COLS "d.rank_order, d.user_id, d.name, d.place, d.points, d.party_points, " \
	"d.sb2, d.played, d.byes, d.left_how, d.left_round, d.out_round"

static const char *const stmt_sql[] = {
	[STMT_PRAGMA_WAL] = "PRAGMA journal_mode = WAL",
	[STMT_PRAGMA_SYNC] = "PRAGMA synchronous = NORMAL",
	[STMT_PRAGMA_FK] = "PRAGMA foreign_keys = ON",
	[STMT_USER_VERSION] = "PRAGMA user_version",
	[STMT_BEGIN] = "BEGIN IMMEDIATE",
	[STMT_BEGIN_READ] = "BEGIN",
	[STMT_COMMIT] = "COMMIT",
	[STMT_ROLLBACK] = "ROLLBACK",
	[STMT_USER_CREATE] =
		"INSERT INTO users (name, name_key, name_skel, pwhash, created_at)"
		" VALUES (?1, ?2, ?5, ?3, ?4)",
	[STMT_USER_BY_NAME] = "SELECT id, name, pwhash, created_at FROM users WHERE name_key = ?1",
	[STMT_USER_BY_ID] = "SELECT id, name, pwhash, created_at FROM users WHERE id = ?1",
	[STMT_SESSION_CREATE] =
		"INSERT INTO sessions (token_hash, user_id, csrf, expires) VALUES (?1, ?2, ?3, ?4)",
	/* with the user's name: one read for every logged-in request */
	[STMT_SESSION_GET] =
		"SELECT s.user_id, s.csrf, s.expires, u.name, u.lang FROM sessions s JOIN users u"
		" ON u.id = s.user_id WHERE s.token_hash = ?1 AND s.expires > ?2",
	[STMT_USER_SET_LANG] = "UPDATE users SET lang = ?2 WHERE id = ?1",
	[STMT_SESSION_DELETE] = "DELETE FROM sessions WHERE token_hash = ?1",
	[STMT_SESSION_PURGE] = "DELETE FROM sessions WHERE expires <= ?1",
	[STMT_LOGIN_FAILED] = "INSERT INTO login_failures (name_key, at) VALUES (?1, ?2)",
	[STMT_LOGIN_FAILURES] =
		"SELECT count(*), coalesce(max(at), 0) FROM login_failures "
		"WHERE name_key = ?1 AND at >= ?2",
	[STMT_LOGIN_CLEAR] = "DELETE FROM login_failures WHERE name_key = ?1",
	[STMT_LOGIN_PURGE] = "DELETE FROM login_failures WHERE at < ?1",
	[STMT_LOGIN_FAILED_AT] = "INSERT INTO login_failures (name_key, at) VALUES (?1, ?3), (?2, ?3)",
	/* the pair's rows, and the one row of the address the attempt made */
	[STMT_LOGIN_CLEAR_AT] =
		"DELETE FROM login_failures WHERE name_key = ?1 OR id = (SELECT id FROM"
		" login_failures WHERE name_key = ?2 AND at = ?3 LIMIT 1)",
	/* 024_login_known.sql */
	[STMT_LOGIN_KNOWN_GET] = "SELECT at FROM login_known WHERE pair_key = ?1",
	[STMT_LOGIN_KNOWN_SET] =
		"INSERT INTO login_known (pair_key, at) VALUES (?1, ?2)"
		" ON CONFLICT (pair_key) DO UPDATE SET at = excluded.at",
	[STMT_LOGIN_KNOWN_PURGE] = "DELETE FROM login_known WHERE at < ?1",
	[STMT_TABLE_CREATE] =
		/* the number after the highest ever given out (023_table_ids.sql) */
		"INSERT INTO tables (id, game, options, nseats, nparties, created_by, created_at) "
		"VALUES ((SELECT last + 1 FROM id_high WHERE name = 'tables'), ?1, ?2, ?3, ?4,"
		" nullif(?5, 0), ?6)",
	[STMT_TABLE_GET] = "SELECT " TABLE_COLS " FROM tables t WHERE t.id = ?1",
	[STMT_TABLE_SEATS] =
		"SELECT s.seat, coalesce(s.user_id, 0), coalesce(u.name, ''), s.bot, s.resigned,"
		" s.autopass, s.clock_left, s.waiting_since, s.timeouts, s.expel_votes,"
		" coalesce(s.claimed_by, 0), coalesce(c.name, ''), s.claimed"
		" FROM seats s LEFT JOIN users u ON u.id = s.user_id"
		" LEFT JOIN users c ON c.id = s.claimed_by"
		" WHERE s.table_id = ?1 ORDER BY s.seat",
	[STMT_SEAT_FIND] = "SELECT seat FROM seats WHERE table_id = ?1 AND user_id = ?2",
	[STMT_SEAT_MINE] =
		"SELECT " MY_SEAT_COLS " FROM seats s WHERE s.table_id = ?1 AND s.user_id = ?2",
	/* The lowest seat number below nseats that nobody holds; no row when full. */
	[STMT_SEAT_TAKE] =
		"WITH RECURSIVE n(k) AS ("
		" SELECT 0 WHERE 0 < (SELECT nseats FROM tables WHERE id = ?1)"
		" UNION ALL SELECT k + 1 FROM n WHERE k + 1 < (SELECT nseats FROM tables WHERE id = ?1))"
		" INSERT INTO seats (table_id, seat, user_id)"
		" SELECT ?1, min(k), ?2 FROM n"
		" WHERE k NOT IN (SELECT seat FROM seats WHERE table_id = ?1)"
		" HAVING min(k) IS NOT NULL",
	[STMT_SEAT_LEAVE] = "DELETE FROM seats WHERE table_id = ?1 AND user_id = ?2",
	/* A bot of level ?2 on the lowest free seat, as STMT_SEAT_TAKE. */
	[STMT_SEAT_BOT_ADD] =
		"WITH RECURSIVE n(k) AS ("
		" SELECT 0 WHERE 0 < (SELECT nseats FROM tables WHERE id = ?1)"
		" UNION ALL SELECT k + 1 FROM n WHERE k + 1 < (SELECT nseats FROM tables WHERE id = ?1))"
		" INSERT INTO seats (table_id, seat, user_id, bot)"
		" SELECT ?1, min(k), NULL, ?2 FROM n"
		" WHERE k NOT IN (SELECT seat FROM seats WHERE table_id = ?1)"
		" HAVING min(k) IS NOT NULL RETURNING seat",
	[STMT_SEAT_SET_AUTOPASS] =
		"UPDATE seats SET autopass = ?3 WHERE table_id = ?1 AND user_id = ?2",
	[STMT_SEAT_SET_CLOCK] =
		"UPDATE seats SET clock_left = ?3, waiting_since = ?4, timeouts = ?5"
		" WHERE table_id = ?1 AND seat = ?2",
	[STMT_SEATS_RESET_CLOCK] =
		"UPDATE seats SET clock_left = ?2, waiting_since = 0, timeouts = 0, expel_votes = 0"
		" WHERE table_id = ?1",
	[STMT_SEAT_EXPEL_VOTE] =
		"UPDATE seats SET expel_votes = expel_votes | ?3 WHERE table_id = ?1 AND seat = ?2",
	[STMT_SEAT_CLAIM] =
		"UPDATE seats SET claimed_by = ?3 WHERE table_id = ?1 AND seat = ?2 AND bot > 0"
		" AND (user_id IS NULL OR resigned = 1) AND claimed_by IS NULL",
	[STMT_SEATS_APPLY_CLAIMS] =
		"UPDATE seats SET claimed = CASE WHEN user_id IS NULL THEN 2 ELSE 1 END,"
		" user_id = claimed_by, claimed_by = NULL, bot = 0, resigned = 0,"
		" autopass = 0, clock_left = ?2, waiting_since = 0, timeouts = 0, expel_votes = 0"
		" WHERE table_id = ?1 AND claimed_by IS NOT NULL",
	[STMT_TABLE_SET_CLOCK] =
		"UPDATE tables SET clock_first = ?2, clock_per_move = ?3, clock_cap = ?4,"
		" clock_day = ?5, clock_weekend = ?6, over_days = ?7, timeouts_max = ?8 WHERE id = ?1",
	/* open tables nobody completed in time */
	[STMT_TABLES_EXPIRED] =
		"SELECT id FROM tables WHERE status = 0 AND created_at < ?1 ORDER BY id LIMIT ?2",
	/* running tables whose current party saw no step since ?1 */
	[STMT_TABLES_IDLE] =
		"SELECT t.id FROM tables t JOIN parties p ON p.table_id = t.id AND p.number = t.party_no"
		" WHERE t.status = 1 AND coalesce((SELECT max(at) FROM moves m WHERE m.party = p.id),"
		" p.created_at) < ?1 ORDER BY t.id LIMIT ?2",
	[STMT_TABLES_DUE] =
		"SELECT id FROM tables WHERE status = 1 AND next_deadline > 0 AND next_deadline <= ?1"
		" ORDER BY next_deadline LIMIT ?2",
	/* the same for one user's seats (?3), by the index seats_user_done */
	[STMT_USER_TABLES_DUE] =
		"SELECT t.id FROM seats m JOIN tables t ON t.id = m.table_id"
		" WHERE m.user_id = ?3 AND m.done = 0 AND t.status = 1 AND t.next_deadline > 0"
		" AND t.next_deadline <= ?1 ORDER BY t.next_deadline LIMIT ?2",
	[STMT_TABLE_CLOSE_IDLE] =
		"UPDATE tables SET status = 2, closed_idle = 1, next_deadline = 0,"
		" version = version + 1, public_version = version + 1, epoch_version = version + 1"
		" WHERE id = ?1 AND status = 1 AND (SELECT coalesce((SELECT max(at) FROM moves m"
		" WHERE m.party = p.id), p.created_at) FROM parties p WHERE p.table_id = tables.id"
		" AND p.number = tables.party_no) < ?2",
	[STMT_SEAT_SET_BOT] =
		"UPDATE seats SET bot = ?3, resigned = ?4 WHERE table_id = ?1 AND seat = ?2",
	[STMT_TABLE_SET_STATUS] =
		"UPDATE tables SET status = ?2, party_no = ?3, first_dealer = ?4 WHERE id = ?1",
	/* Right-hand sides see the old row: epoch_version becomes the new version
	 * exactly when the epoch changes. */
	[STMT_TABLE_BUMP] =
		"UPDATE tables SET version = version + 1, next_deadline = ?2,"
		" epoch_version = CASE WHEN epoch <> ?3 THEN version + 1 ELSE epoch_version END,"
		" epoch = ?3,"
		" public_version = CASE WHEN ?5 THEN version + 1 ELSE public_version END"
		" WHERE id = ?1 AND (?4 < 0 OR version = ?4)",
	[STMT_TABLE_VERSION] = "SELECT version FROM tables WHERE id = ?1",
	[STMT_TABLE_NEW_EPOCH] = "UPDATE tables SET epoch_version = version WHERE id = ?1",
	[STMT_TABLE_DELETE] = "DELETE FROM tables WHERE id = ?1",
	[STMT_TABLE_POLL] = "SELECT public_version, next_deadline FROM tables WHERE id = ?1",
	[STMT_SEATS_SET_ACTING] =
		"UPDATE seats SET acting = (?2 >> seat) & 1, in_window = (?3 >> seat) & 1,"
		" to_continue = (?4 >> seat) & 1"
		" WHERE table_id = ?1 AND (acting <> (?2 >> seat) & 1"
		" OR in_window <> (?3 >> seat) & 1 OR to_continue <> (?4 >> seat) & 1)",
	/* the user's running tables where their seat may act (seats_user) */
	/* counted up to ?2 only: a title says "9+", and a user at thousands
	 * of tables costs what one at ten does */
	[STMT_USER_ACTING] =   /* acting only at running tables (020) */
		"SELECT count(*) FROM (SELECT 1 FROM seats"
		" WHERE user_id = ?1 AND acting = 1 AND bot = 0 LIMIT ?2)",
	/* ratings (013_ratings.sql) */
	[STMT_RATING_GET] =
		"SELECT mu, sigma, matches FROM ratings WHERE user_id = ?1 AND game = ?2",
	[STMT_RATING_PUT] =
		"INSERT INTO ratings (user_id, game, mu, sigma, shown, matches, updated_at)"
		" VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6) ON CONFLICT (user_id, game) DO UPDATE SET"
		" mu = excluded.mu, sigma = excluded.sigma, shown = excluded.shown,"
		" matches = matches + 1, updated_at = excluded.updated_at",
	[STMT_RATING_HISTORY_ADD] =
		"INSERT INTO rating_history (user_id, game, table_id, mu, sigma, shown, place, players,"
		" at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
	/* once: a second call changes nothing (the caller sees no change) */
	[STMT_TABLE_SET_RATED] = "UPDATE tables SET rated = 1 WHERE id = ?1 AND rated = 0",
	[STMT_RATING_BOARD] =
		"SELECT r.user_id, u.name, r.mu, r.sigma, r.shown, r.matches FROM ratings r"
		" JOIN users u ON u.id = r.user_id WHERE r.game = ?1 AND r.matches >= ?2"
		" ORDER BY r.shown DESC, u.name_key LIMIT ?3",
	[STMT_RATINGS_OF_USER] =
		"SELECT r.user_id, '', r.mu, r.sigma, r.shown, r.matches, r.game FROM ratings r"
		" WHERE r.user_id = ?1 ORDER BY r.matches DESC, r.game LIMIT ?2",
	[STMT_RATING_HISTORY] =
		"SELECT game, coalesce(table_id, 0), shown, place, players, at FROM rating_history"
		" WHERE user_id = ?1 ORDER BY id DESC LIMIT ?2",
	[STMT_USER_POLL] = "SELECT seq, deadline, user_id FROM me_seq WHERE user_id = ?1",
	[STMT_USER_POLL_BY_TOKEN] =
		"SELECT seq, deadline, user_id FROM me_seq WHERE poll_token = ?1",
	[STMT_USER_POLL_TOKEN] = "SELECT poll_token FROM me_seq WHERE user_id = ?1",
	/* the first token made wins; a second request reads it back */
	[STMT_USER_POLL_TOKEN_SET] =
		"UPDATE me_seq SET poll_token = ?2 WHERE user_id = ?1 AND poll_token IS NULL",
	/* once the kept deadline has passed: the true earliest one again, from
	 * the user's seats at tables not over (the index seats_user_done, 019;
	 * CROSS JOIN keeps the seats outside: else SQLite walks every running
	 * table of the site with a deadline, tables_deadline, and looks for
	 * the user's seat at each) */
	[STMT_USER_DEADLINE] =
		"UPDATE me_seq SET deadline = coalesce((SELECT min(t.next_deadline) FROM seats m"
		" CROSS JOIN tables t ON t.id = m.table_id WHERE m.user_id = ?1 AND m.done = 0"
		" AND t.status = 1 AND t.next_deadline > 0), 0) WHERE user_id = ?1"
		" RETURNING seq, deadline, user_id",
	[STMT_TABLES_OPEN] =
		"SELECT " TABLE_COLS ", " SEATS_TAKEN " FROM tables t WHERE t.status = 0"
		" ORDER BY t.id DESC LIMIT ?1",
	/* one kind (done ?3: finished or not) in the order of seats_user_done,
	 * newest first, so that nothing is sorted (store_tables_of_user) */
	[STMT_TABLES_OF_USER] =
		"SELECT " TABLE_COLS ", " SEATS_TAKEN ", " MY_SEAT_COLS " FROM seats s JOIN tables t"
		" ON t.id = s.table_id WHERE s.user_id = ?1 AND s.done = ?3"
		" ORDER BY s.table_id DESC LIMIT ?2",
	[STMT_TABLES_OPEN_FAIR] =
		"SELECT * FROM (SELECT " TABLE_COLS ", " SEATS_TAKEN ", row_number() OVER"
		" (PARTITION BY t.created_by ORDER BY t.id DESC) AS nth FROM tables t"
		" WHERE t.status = 0) WHERE nth <= ?2 ORDER BY 1 DESC LIMIT ?1",
	[STMT_TABLES_OPEN_BY] = "SELECT count(*) FROM tables WHERE status = 0 AND created_by = ?1",
	/* registering or running (enum st_tourney_status) */
	[STMT_TOURNEYS_OPEN_BY] =
		"SELECT count(*) FROM tournaments WHERE status < 2 AND created_by = ?1",
	/* invitations (010_invites.sql): a second one to the same table is no error */
	[STMT_INVITE] =
		"INSERT INTO invitations (table_id, from_id, to_id, at) VALUES (?1, ?2, ?3, ?4)"
		" ON CONFLICT (table_id, to_id) DO NOTHING",
	/* those still open: the table waits for players and the invitee is not seated */
	[STMT_INVITES_TO] =
		"SELECT i.id, i.table_id, t.game, coalesce(f.name, ''), i.at FROM invitations i"
		" JOIN tables t ON t.id = i.table_id LEFT JOIN users f ON f.id = i.from_id"
		" WHERE i.to_id = ?1 AND t.status = 0 AND NOT EXISTS (SELECT 1 FROM seats s"
		" WHERE s.table_id = i.table_id AND s.user_id = ?1) ORDER BY i.id DESC LIMIT ?2",
	[STMT_TABLE_SET_REMATCH] = "UPDATE tables SET rematch = ?2 WHERE id = ?1 AND rematch IS NULL",
	/* running tables to watch, the newest first */
	[STMT_TABLES_RUNNING] =
		"SELECT " TABLE_COLS ", " SEATS_TAKEN " FROM tables t WHERE t.status = 1"
		" ORDER BY t.id DESC LIMIT ?1",
	/* the table chat (008_chat.sql) */
	[STMT_CHAT_ADD] =
		"INSERT INTO chat_messages (table_id, user_id, text, at) VALUES (?1, ?2, ?3, ?4)",
	[STMT_CHAT_RATE] =
		"SELECT count(*), coalesce(min(at), 0) FROM chat_messages"
		" WHERE table_id = ?1 AND user_id = ?2 AND at > ?3",
	[STMT_CHAT_RECENT] =
		"SELECT c.id, c.user_id, u.name, c.at, c.text FROM chat_messages c"
		" JOIN users u ON u.id = c.user_id WHERE c.table_id = ?1 AND NOT EXISTS"
		" (SELECT 1 FROM chat_mutes m WHERE m.user_id = ?2 AND m.muted_id = c.user_id)"
		" ORDER BY c.id DESC LIMIT ?3",
	/* only an author of this table, never oneself; muting again is no error */
	[STMT_CHAT_MUTE] =
		"INSERT INTO chat_mutes (user_id, muted_id, at) SELECT ?1, ?2, ?3"
		" WHERE ?1 <> ?2 AND EXISTS (SELECT 1 FROM chat_messages WHERE table_id = ?4"
		" AND user_id = ?2) ON CONFLICT (user_id, muted_id) DO UPDATE SET at = excluded.at",
	[STMT_CHAT_UNMUTE] = "DELETE FROM chat_mutes WHERE user_id = ?1 AND muted_id = ?2",
	[STMT_CHAT_MUTED] =
		"SELECT m.muted_id, u.name, u.name_key FROM chat_mutes m JOIN users u"
		" ON u.id = m.muted_id WHERE m.user_id = ?1 AND EXISTS (SELECT 1 FROM"
		" chat_messages c WHERE c.table_id = ?2 AND c.user_id = m.muted_id) LIMIT ?3",
	/* a change everybody sees that concerns no position: epoch, epoch_version
	 * and next_deadline stay, so no page becomes stale */
	[STMT_TABLE_BUMP_PUBLIC] =
		"UPDATE tables SET version = version + 1, public_version = version + 1 WHERE id = ?1",
	[STMT_PARTY_CREATE] =
		"INSERT INTO parties (table_id, number, seed, dealer, snapshot, created_at)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	[STMT_PARTY_GET] =
		"SELECT " PARTY_COLS ", snapshot FROM parties WHERE table_id = ?1 AND number = ?2",
	[STMT_PARTY_LATEST] =
		"SELECT " PARTY_COLS ", snapshot FROM parties WHERE table_id = ?1"
		" ORDER BY number DESC LIMIT 1",
	[STMT_PARTY_SAVE] = "UPDATE parties SET snapshot = ?2, over = ?3 WHERE id = ?1",
	[STMT_RESULT_CLEAR] = "DELETE FROM party_results WHERE party = ?1",
	[STMT_RESULT_PUT] =
		"INSERT INTO party_results (party, seat, place, points) VALUES (?1, ?2, ?3, ?4)",
	[STMT_RESULTS_OF_PARTY] = "SELECT seat, place, points FROM party_results WHERE party = ?1",
	[STMT_PARTIES_OF_TABLE] =
		"SELECT " PARTY_COLS ", length(snapshot) FROM parties"
		" WHERE table_id = ?1 AND over = 1 ORDER BY number",
	[STMT_MOVE_APPEND] =
		"INSERT INTO moves (party, seq, seat, text, at, version)"
		" SELECT ?1, coalesce(max(seq), 0) + 1, ?2, ?3, ?4, ?5 FROM moves WHERE party = ?1",
	[STMT_SEAT_MOVED_SINCE] =
		"SELECT EXISTS (SELECT 1 FROM moves WHERE party = ?1 AND seat = ?2 AND version > ?3)",
	[STMT_TICKED_SINCE] =
		"SELECT EXISTS (SELECT 1 FROM moves WHERE party = ?1 AND seat = -1 AND version > ?2"
		" AND text = 'tick')",
	[STMT_SEAT_LAST_VERSION] =
		"SELECT coalesce(max(version), 0) FROM moves WHERE party = ?1 AND seat = ?2",
	[STMT_MOVES] =
		"SELECT seq, seat, at, version, text FROM moves WHERE party = ?1 AND seq > ?2"
		" ORDER BY seq",
	/* seq counts 1, 2, … (STMT_MOVE_APPEND; a step is never deleted alone),
	 * so the count is the last seq: one seek, not a walk over the party */
	[STMT_MOVE_COUNT] = "SELECT coalesce(max(seq), 0) FROM moves WHERE party = ?1",
	[STMT_FEED_GET] = "SELECT token, user_id, created_at FROM feeds WHERE user_id = ?1",
	[STMT_FEED_BY_TOKEN] = "SELECT token, user_id, created_at FROM feeds WHERE token = ?1",
	[STMT_FEED_CREATE] =
		"INSERT INTO feeds (user_id, token, created_at) VALUES (?1, ?2, ?3)"
		" ON CONFLICT (user_id) DO NOTHING",
	[STMT_FEED_REPLACE] =
		"INSERT INTO feeds (user_id, token, created_at) VALUES (?1, ?2, ?3)"
		" ON CONFLICT (user_id) DO UPDATE SET token = excluded.token, created_at = excluded.created_at",
	/* the platform's continue steps come after a party's end: left out */
	[STMT_PARTY_STEP_AT] =
		"SELECT coalesce((SELECT max(at) FROM moves WHERE party = ?1 AND text <> 'weiter'"
		" AND (?2 < 0 OR version <= ?2)), (SELECT created_at FROM parties WHERE id = ?1), 0)",
	/* profiles: the user's finished tables through seats_user, each table
	 * by its primary key; per game, and (the newest first, ?2 tables, -1
	 * all) one row per seat with the match's totals and resignations */
	[STMT_PROFILE_GAMES] =
		"SELECT t.game, count(*) FROM seats s JOIN tables t ON t.id = s.table_id"
		" WHERE s.user_id = ?1 AND t.status = 2 GROUP BY t.game ORDER BY 2 DESC, 1",
	[STMT_PROFILE_FINISHED] =
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
	/* e-mail notices (012_mail.sql): a first save makes the token */
	[STMT_MAIL_PREFS] = "SELECT address, mode, token FROM mail_prefs WHERE user_id = ?1",
	[STMT_MAIL_PREFS_SET] =
		"INSERT INTO mail_prefs (user_id, address, mode, token) VALUES (?1, ?2, ?3, ?4)"
		" ON CONFLICT (user_id) DO UPDATE SET address = excluded.address,"
		" mode = excluded.mode",
	[STMT_MAIL_OFF] = "UPDATE mail_prefs SET mode = 0 WHERE token = ?1 RETURNING user_id",
	[STMT_MAIL_BY_TOKEN] = "SELECT address, mode, token, user_id FROM mail_prefs WHERE token = ?1",
	/* a per-turn mail only for that choice, and one queued per table at most */
	[STMT_MAIL_TURN] =
		"INSERT OR IGNORE INTO mail_queue (user_id, kind, table_id, created_at, next_try)"
		" SELECT ?2, 2, ?1, ?3, ?3 FROM mail_prefs WHERE user_id = ?2 AND mode = 2",
	[STMT_MAIL_DIGEST_DUE] =
		"SELECT p.user_id FROM mail_prefs p WHERE p.mode = 1 AND p.digest_at <= ?1"
		" AND EXISTS (SELECT 1 FROM seats m JOIN tables t ON t.id = m.table_id"
		" WHERE m.user_id = p.user_id AND m.acting = 1 AND m.to_continue = 0 AND m.bot = 0"
		" AND t.status = 1)"
		" ORDER BY p.digest_at LIMIT ?2",
	[STMT_MAIL_DIGEST_QUEUE] =
		"INSERT OR IGNORE INTO mail_queue (user_id, kind, table_id, created_at, next_try)"
		" VALUES (?1, 1, NULL, ?2, ?2)",
	[STMT_MAIL_DIGEST_NEXT] = "UPDATE mail_prefs SET digest_at = ?2 WHERE user_id = ?1",
	[STMT_MAIL_DUE] =
		"SELECT q.id, q.user_id, coalesce(q.table_id, 0), q.kind, q.attempts, q.created_at,"
		" coalesce(p.mode, 0), u.name, coalesce(p.address, ''), coalesce(p.token, ''), u.lang"
		" FROM mail_queue q JOIN users u ON u.id = q.user_id"
		" LEFT JOIN mail_prefs p ON p.user_id = q.user_id"
		" WHERE q.state = 0 AND q.next_try <= ?1 ORDER BY q.next_try, q.id LIMIT ?2",
	[STMT_MAIL_ACTING] =
		"SELECT count(*) FROM seats m JOIN tables t ON t.id = m.table_id WHERE m.user_id = ?1"
		" AND m.table_id = ?2 AND m.acting = 1 AND m.to_continue = 0 AND m.bot = 0"
		" AND t.status = 1",
	[STMT_MAIL_ACTING_TABLES] =
		"SELECT " TABLE_COLS ", " SEATS_TAKEN " FROM seats m JOIN tables t ON t.id = m.table_id"
		" WHERE m.user_id = ?1 AND m.acting = 1 AND m.to_continue = 0 AND m.bot = 0"
		" AND t.status = 1"
		" ORDER BY t.id LIMIT ?2",
	[STMT_MAIL_DONE] = "UPDATE mail_queue SET state = ?2, done_at = ?3 WHERE id = ?1",
	[STMT_MAIL_RETRY] =
		"UPDATE mail_queue SET attempts = attempts + 1, next_try = ?2 WHERE id = ?1",
	[STMT_MAIL_PURGE] = "DELETE FROM mail_queue WHERE state <> 0 AND done_at < ?1",
	/* tournaments (014_tournaments.sql) */
	[STMT_TOURNEY_CREATE] =
		"INSERT INTO tournaments (name, game, options, format, seats, min_seats, rounds,"
		" advance, points, tiebreaks, clock_first, clock_per_move, clock_cap, clock_day,"
		" clock_weekend, over_days, timeouts_max, register_until, starts_at, seed,"
		" created_by, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11,"
		" ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22)",
	[STMT_TOURNEY_GET] = "SELECT " TOURNEY_COLS " FROM tournaments o WHERE o.id = ?1",
	[STMT_TOURNEY_SET_STATE] =
		"UPDATE tournaments SET status = ?2, round = ?3, version = version + 1 WHERE id = ?1",
	[STMT_TOURNEY_BUMP] = "UPDATE tournaments SET version = version + 1 WHERE id = ?1",
	/* started before its time: the start (and the end of registration)
	 * become the time it did */
	[STMT_TOURNEY_STARTED] =
		"UPDATE tournaments SET starts_at = min(starts_at, ?2),"
		" register_until = min(register_until, ?2) WHERE id = ?1",
	/* the ones to come and running first (by start), then the finished */
	[STMT_TOURNEYS_LIST] =
		"SELECT " TOURNEY_COLS " FROM tournaments o"
		" ORDER BY o.status >= 2, CASE WHEN o.status >= 2 THEN -o.starts_at ELSE o.starts_at"
		" END, o.id DESC LIMIT ?1",
	[STMT_TOURNEYS_OF_USER] =
		"SELECT " TOURNEY_COLS " FROM tournament_players m JOIN tournaments o"
		" ON o.id = m.tournament WHERE m.user_id = ?1 ORDER BY o.status >= 2, o.id DESC"
		" LIMIT ?2",
	[STMT_TOURNEYS_DUE] =
		"SELECT id FROM tournaments WHERE status = 0 AND starts_at <= ?1 ORDER BY starts_at"
		" LIMIT ?2",
	[STMT_TPLAYER_ADD] =
		"INSERT INTO tournament_players (tournament, user_id, registered_at) VALUES (?1, ?2, ?3)",
	/* the counts of tournaments.players and .entrants move with the rows */
	[STMT_TOURNEY_COUNT] =
		"UPDATE tournaments SET players = players + ?2, entrants = entrants + ?3 WHERE id = ?1",
	[STMT_TPLAYER_DELETE] = "DELETE FROM tournament_players WHERE tournament = ?1 AND user_id = ?2",
	[STMT_TPLAYER_LEAVE] =
		"UPDATE tournament_players SET left_how = ?3, left_round = ?4"
		" WHERE tournament = ?1 AND user_id = ?2 AND left_how = 0",
	[STMT_TPLAYER_OUT] =
		"UPDATE tournament_players SET out_round = ?3 WHERE tournament = ?1 AND user_id = ?2",
	[STMT_TPLAYER_GROUP] =
		"UPDATE tournament_players SET grp = ?3, gpos = ?4 WHERE tournament = ?1 AND user_id = ?2",
	[STMT_TPLAYERS] =
		"SELECT m.user_id, u.name, m.registered_at, m.left_how, m.left_round, m.out_round,"
		" m.grp, m.gpos FROM tournament_players m JOIN users u ON u.id = m.user_id"
		" WHERE m.tournament = ?1 ORDER BY m.registered_at, m.user_id",
	[STMT_TTABLE_ADD] =
		"INSERT INTO tournament_tables (tournament, round, number, table_id) VALUES (?1, ?2, ?3, ?4)",
	[STMT_TTABLE_OF] =
		"SELECT tournament, round, number, done FROM tournament_tables WHERE table_id = ?1",
	[STMT_TTABLE_DONE] = "UPDATE tournament_tables SET done = 1 WHERE table_id = ?1 AND done = 0",
	[STMT_TROUND_OPEN] =
		"SELECT count(*) FROM tournament_tables WHERE tournament = ?1 AND round = ?2 AND done = 0",
	[STMT_TTABLES] =
		"SELECT x.round, x.number, x.table_id, x.done, t.status, t.party_no, t.nparties"
		" FROM tournament_tables x JOIN tables t ON t.id = x.table_id"
		" WHERE x.tournament = ?1 ORDER BY x.round, x.number",
	[STMT_TRESULT_PUT] =
		"INSERT INTO tournament_results (tournament, round, user_id, table_no, table_id, seat,"
		" place, points, party_points) VALUES (?1, ?2, ?3, ?4, nullif(?5, 0), ?6, ?7, ?8, ?9)",
	[STMT_TRESULTS] =
		"SELECT " TRESULT_COLS " FROM tournament_results r JOIN users u ON u.id = r.user_id"
		" WHERE r.tournament = ?1 ORDER BY r.round, r.table_no, r.place, r.user_id",
	[STMT_TOURNEY_POLL] =
		"SELECT version, CASE WHEN status = 0 THEN starts_at ELSE 0 END FROM tournaments"
		" WHERE id = ?1",
	[STMT_TSTANDINGS_CLEAR] = "DELETE FROM tournament_standings WHERE tournament = ?1",
	[STMT_TSTANDING_PUT] =
		"INSERT INTO tournament_standings (tournament, rank_order, user_id, place, points,"
		" party_points, sb2, played, byes, name, left_how, left_round, out_round)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
	[STMT_TSTANDINGS] =
		"SELECT " TSTANDING_COLS " FROM tournament_standings d"
		" WHERE d.tournament = ?1 AND d.rank_order >= ?2 ORDER BY d.rank_order LIMIT ?3",
	[STMT_TSTANDING_OF] =
		"SELECT " TSTANDING_COLS " FROM tournament_standings d"
		/* (without statistics the planner would walk the whole primary
		 * key range of the tournament instead) */
		" INDEXED BY tournament_standings_user WHERE d.tournament = ?1 AND d.user_id = ?2",
	[STMT_TPLAYER_GET] =
		"SELECT m.user_id, u.name, m.registered_at, m.left_how, m.left_round, m.out_round,"
		" m.grp, m.gpos FROM tournament_players m JOIN users u ON u.id = m.user_id"
		" WHERE m.tournament = ?1 AND m.user_id = ?2",
	[STMT_TROUND_TABLES] =
		"SELECT x.round, x.number, x.table_id, x.done, t.status, t.party_no, t.nparties"
		" FROM tournament_tables x JOIN tables t ON t.id = x.table_id"
		" WHERE x.tournament = ?1 AND x.round = ?2 AND x.number BETWEEN ?3 AND ?4"
		" ORDER BY x.number",
	[STMT_TROUND_RESULTS] =
		"SELECT " TRESULT_COLS " FROM tournament_results r JOIN users u ON u.id = r.user_id"
		" WHERE r.tournament = ?1 AND r.round = ?2 AND r.table_no BETWEEN ?3 AND ?4"
		" ORDER BY r.table_no, r.place, r.user_id",
	/* who sits at the round's tables not done: table number, seat, the
	 * person's name ("" for a bot's own seat), bot, resigned, user */
	[STMT_TROUND_SEATS] =
		"SELECT x.number, s.seat, coalesce(u.name, ''), s.bot, s.resigned, s.user_id"
		" FROM tournament_tables x JOIN seats s ON s.table_id = x.table_id"
		" LEFT JOIN users u ON u.id = s.user_id WHERE x.tournament = ?1 AND x.round = ?2"
		" AND x.done = 0 AND x.number BETWEEN ?3 AND ?4 ORDER BY x.number, s.seat",
	[STMT_TMY_TABLE] =
		"SELECT x.table_id FROM tournament_tables x JOIN seats s ON s.table_id = x.table_id"
		" WHERE x.tournament = ?1 AND x.round = ?2 AND x.done = 0 AND s.user_id = ?3"
		" AND s.resigned = 0",
	/* the numbers run 0..n-1: one seek, not a count of them all */
	[STMT_TROUND_COUNT] =
		"SELECT coalesce(max(number) + 1, 0) FROM tournament_tables"
		" WHERE tournament = ?1 AND round = ?2",
	[STMT_TABLE_TOURNEY] =
		"SELECT o.id, o.name, x.round, x.number FROM tournament_tables x"
		" JOIN tournaments o ON o.id = x.tournament WHERE x.table_id = ?1",
};
_Static_assert(sizeof stmt_sql / sizeof stmt_sql[0] == STMT__MAX,
	       "one SQL text per enum stmt");

struct store {
	sqlite3 *db;
	sqlite3_stmt *st[STMT__MAX];
	int lock_fd;      /* "<db>-writer": flock()ed from BEGIN IMMEDIATE to the end; -1: none */
	int locked;       /* this connection holds lock_fd's lock now */
};

/* Logs SQLite's message for `what`; returns ST_BUSY for a lock that outlasted
 * the busy timeout, else ST_ERR (a 500). */
static int fail(struct store *s, const char *what)
{
	int code = sqlite3_errcode(s->db);
	fprintf(stderr, "store: %s: %s\n", what, sqlite3_errmsg(s->db));
	if (code == SQLITE_FULL)
		return ST_FULL;
	return (code == SQLITE_BUSY || code == SQLITE_LOCKED) ? ST_BUSY : ST_ERR;
}

/* The prepared statement `id`, reset and unbound, ready for binding; NULL
 * (logged) only if it cannot be prepared. */
static sqlite3_stmt *stmt(struct store *s, enum stmt id)
{
	if (!s->st[id] &&
	    sqlite3_prepare_v3(s->db, stmt_sql[id], -1, SQLITE_PREPARE_PERSISTENT, &s->st[id],
			       NULL) != SQLITE_OK) {
		fprintf(stderr, "store: prepare %s: %s\n", stmt_sql[id], sqlite3_errmsg(s->db));
		s->st[id] = NULL;
		return NULL;
	}
	return s->st[id];
}

/* Ends a use of a statement: reset (keeps a failed step's error code out of
 * the next use) and unbind, so no value outlives its request. */
static void done(sqlite3_stmt *q)
{
	sqlite3_reset(q);
	sqlite3_clear_bindings(q);
}

/* Runs a statement without result rows (or ignores them) to the end. */
static int exec_stmt(struct store *s, sqlite3_stmt *q, const char *what)
{
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW)
		;
	if (rc != SQLITE_DONE) {
		int x = sqlite3_extended_errcode(s->db);
		int r = (x == SQLITE_CONSTRAINT_UNIQUE || x == SQLITE_CONSTRAINT_PRIMARYKEY)
			? ST_EXISTS : fail(s, what);
		done(q);
		return r;
	}
	done(q);
	return ST_OK;
}

/* Binds a copy of v (NULL as the empty string). */
static int bind_text(sqlite3_stmt *q, int i, const char *v)
{
	return sqlite3_bind_text(q, i, v ? v : "", -1, SQLITE_TRANSIENT);
}

/* A text column into dst, truncated to cap and always NUL-terminated. */
static void copy_col(char *dst, size_t cap, sqlite3_stmt *q, int col)
{
	const unsigned char *t = sqlite3_column_text(q, col);
	snprintf(dst, cap, "%s", t ? (const char *)t : "");
}

/* Case folding for name uniqueness and lookups: the name in lower case
 * (libunistring's, text_fold). A name that does not fold (not UTF-8, too
 * long) is its own key. */
static void name_key(const char *name, char *out, size_t cap)
{
	if (text_fold(name, out, cap) != 0)
		snprintf(out, cap, "%s", name);
}

/* A name's confusable skeleton (text_skeleton): "" when it has none. */
static void name_skeleton(const char *name, char *out, size_t cap)
{
	if (text_skeleton(name, out, cap) != 0)
		out[0] = '\0';
}

/* The SQL functions st_name_key(name) and st_name_skeleton(name), for the
 * migrations that fill those columns for the names already there. */
static void sql_name_fn(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	char out[TEXT_KEY_MAX + 1];
	const unsigned char *name = argc == 1 ? sqlite3_value_text(argv[0]) : NULL;
	if (!name) {
		sqlite3_result_null(cx);
		return;
	}
	if (sqlite3_user_data(cx))
		name_skeleton((const char *)name, out, sizeof out);
	else
		name_key((const char *)name, out, sizeof out);
	sqlite3_result_text(cx, out, -1, SQLITE_TRANSIENT);
}

static int register_functions(sqlite3 *db)
{
	static int skeleton = 1;
	int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC;
	return sqlite3_create_function(db, "st_name_key", 1, flags, NULL, sql_name_fn, NULL, NULL) ==
			       SQLITE_OK &&
		       sqlite3_create_function(db, "st_name_skeleton", 1, flags, &skeleton, sql_name_fn,
					       NULL, NULL) == SQLITE_OK
		       ? ST_OK
		       : ST_ERR;
}

/* ------------------------------------------------------------------ */
/* Opening and migrations                                              */

static int read_user_version(struct store *s, int *v)
{
	sqlite3_stmt *q = stmt(s, STMT_USER_VERSION);
	if (!q)
		return ST_ERR;
	if (sqlite3_step(q) != SQLITE_ROW) {
		int r = fail(s, "user_version");
		done(q);
		return r;
	}
	*v = sqlite3_column_int(q, 0);
	done(q);
	return ST_OK;
}

/* A migration's number from its file name "NNN_something.sql", or -1. */
static int migration_number(const char *fname)
{
	size_t len = strlen(fname);
	if (len < 9 || strcmp(fname + len - 4, ".sql") != 0 || fname[3] != '_')
		return -1;
	for (int i = 0; i < 3; i++)
		if (fname[i] < '0' || fname[i] > '9')
			return -1;
	char *end;
	long long n = strtoll(fname, &end, 10);
	if (end != fname + 3 || n < 1)
		return -1;
	return (int)n;
}

/* The file's whole text, NUL-terminated, in *out (caller frees). */
static int slurp(const char *path, char **out)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	int rc = ST_ERR;
	if (!f) {
		fprintf(stderr, "store: %s: %s\n", path, strerror(errno));
		return ST_ERR;
	}
	buf = malloc(MIGRATION_MAX_BYTES + 1);
	if (!buf)
		goto out;
	size_t n = fread(buf, 1, MIGRATION_MAX_BYTES + 1, f);
	if (ferror(f) || n > MIGRATION_MAX_BYTES) {
		fprintf(stderr, "store: %s: unreadable or larger than %d bytes\n", path,
			MIGRATION_MAX_BYTES);
		goto out;
	}
	buf[n] = '\0';
	*out = buf;
	buf = NULL;
	rc = ST_OK;
out:
	free(buf);
	fclose(f);
	return rc;
}

/* Applies migration `num` from `path` unless another process already did:
 * one transaction; the file must set PRAGMA user_version to its number. */
static int apply_migration(struct store *s, int num, const char *path)
{
	char *sql = NULL, *err = NULL;
	int v, rc = slurp(path, &sql);
	if (rc != ST_OK)
		return rc;
	if ((rc = store_begin(s)) != ST_OK)
		goto out;
	if ((rc = read_user_version(s, &v)) != ST_OK)
		goto rollback;
	if (v >= num) {
		rc = store_commit(s);
		goto out;
	}
	if (sqlite3_exec(s->db, sql, NULL, NULL, &err) != SQLITE_OK) {
		fprintf(stderr, "store: migration %s: %s\n", path, err ? err : "failed");
		rc = ST_ERR;
		goto rollback;
	}
	if ((rc = read_user_version(s, &v)) != ST_OK)
		goto rollback;
	if (v != num) {
		fprintf(stderr, "store: migration %s must end with PRAGMA user_version = %d\n",
			path, num);
		rc = ST_ERR;
		goto rollback;
	}
	rc = store_commit(s);
	goto out;
rollback:
	store_rollback(s);
out:
	sqlite3_free(err);
	free(sql);
	return rc;
}

/* scandir filter: NNN_name.sql files only. */
static int is_migration(const struct dirent *de)
{
	return migration_number(de->d_name) > 0;
}

/* Applies every migration in schema_dir newer than user_version, in order
 * (three-digit numbers: the names sort as the numbers do). */
static int migrate(struct store *s, const char *schema_dir)
{
	struct dirent **list = NULL;
	char path[4096];
	int have, rc = ST_ERR;
	int n = scandir(schema_dir, &list, is_migration, alphasort);

	if (n < 0) {
		fprintf(stderr, "store: schema directory %s: %s\n", schema_dir, strerror(errno));
		return ST_ERR;
	}
	for (int i = 1; i < n; i++)
		if (migration_number(list[i]->d_name) == migration_number(list[i - 1]->d_name)) {
			fprintf(stderr, "store: %s and %s have the same number\n",
				list[i - 1]->d_name, list[i]->d_name);
			goto out;
		}
	if ((rc = read_user_version(s, &have)) != ST_OK)
		goto out;
	for (int i = 0; i < n && rc == ST_OK; i++) {
		int num = migration_number(list[i]->d_name);
		if (num <= have)
			continue;
		int w = snprintf(path, sizeof path, "%s/%s", schema_dir, list[i]->d_name);
		rc = (w < 0 || (size_t)w >= sizeof path) ? ST_ERR : apply_migration(s, num, path);
	}
out:
	for (int i = 0; i < n; i++)
		free(list[i]);
	free(list);
	return rc;
}

/* Opens the connection with its pragmas, migrates, and prepares every
 * statement. *out is NULL on failure; the caller closes with store_close(). */
int store_open(struct store **out, const char *db_path, const char *schema_dir)
{
	struct store *s = calloc(1, sizeof *s);
	int rc = ST_ERR;

	*out = NULL;
	if (!s)
		return ST_ERR;
	s->lock_fd = -1;
	if (strcmp(db_path, ":memory:") != 0 && *db_path) {
		char lock_path[4096];
		int n = snprintf(lock_path, sizeof lock_path, "%s-writer", db_path);
		if (n < 0 || (size_t)n >= sizeof lock_path) {
			fprintf(stderr, "store: path too long: %s\n", db_path);
			goto out;
		}
		s->lock_fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0660);
		if (s->lock_fd < 0) {
			fprintf(stderr, "store: open %s: %s\n", lock_path, strerror(errno));
			goto out;
		}
	}
	/* A connection is used by one thread only (a worker is a process of one
	 * thread): SQLite need not lock its mutexes around every call (about
	 * 2,000 locks a table page, 3 % of its instructions). Its memory
	 * statistics stay on: server.c's give_back reads them. */
	if (sqlite3_open_v2(db_path, &s->db,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK) {
		fprintf(stderr, "store: open %s: %s\n", db_path,
			s->db ? sqlite3_errmsg(s->db) : "out of memory");
		goto out;
	}
	sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);
	static const enum stmt pragmas[] = { STMT_PRAGMA_WAL, STMT_PRAGMA_SYNC, STMT_PRAGMA_FK };
	for (size_t i = 0; i < sizeof pragmas / sizeof pragmas[0]; i++) {
		sqlite3_stmt *q = stmt(s, pragmas[i]);
		if (!q || (rc = exec_stmt(s, q, stmt_sql[pragmas[i]])) != ST_OK)
			goto out;
	}
	if ((rc = register_functions(s->db)) != ST_OK || (rc = migrate(s, schema_dir)) != ST_OK)
		goto out;
	for (int i = 0; i < STMT__MAX; i++)
		if (!stmt(s, (enum stmt)i)) {
			rc = ST_ERR;
			goto out;
		}
	*out = s;
	s = NULL;
	rc = ST_OK;
out:
	store_close(s);
	return rc;
}

/* Finalizes every statement and closes; NULL is fine. */
void store_close(struct store *s)
{
	if (!s)
		return;
	for (int i = 0; i < STMT__MAX; i++)
		sqlite3_finalize(s->st[i]);
	sqlite3_close(s->db);
	if (s->lock_fd >= 0)
		close(s->lock_fd);   /* drops the writer lock if it is still held */
	free(s);
}

/* ------------------------------------------------------------------ */
/* Transactions                                                        */

static int run(struct store *s, enum stmt id)
{
	sqlite3_stmt *q = stmt(s, id);
	return q ? exec_stmt(s, q, stmt_sql[id]) : ST_ERR;
}

static void on_lock_alarm(int sig)
{
	(void)sig;   /* only interrupts flock() */
}

/* Milliseconds of the monotonic clock: for the lock wait's bound only. */
static int64_t mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits for the writer lock at most WRITER_WAIT_MS: a blocking flock()
 * that a one-shot SIGALRM interrupts at the bound (the process's own
 * SIGALRM disposition and timer are put back). ST_BUSY past the bound. */
static int writer_lock_wait(struct store *s)
{
	struct sigaction sa, old;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_lock_alarm;
	sigemptyset(&sa.sa_mask);   /* no SA_RESTART: flock returns EINTR */
	struct itimerval off, before;
	memset(&off, 0, sizeof off);
	sigaction(SIGALRM, &sa, &old);
	setitimer(ITIMER_REAL, &off, &before);
	int64_t until = mono_ms() + WRITER_WAIT_MS;
	int rc = ST_BUSY;
	for (int64_t left; (left = until - mono_ms()) > 0;) {
		struct itimerval it = { { 0, 0 }, { (time_t)(left / 1000),
						    (suseconds_t)(left % 1000) * 1000 } };
		setitimer(ITIMER_REAL, &it, NULL);
		int r = flock(s->lock_fd, LOCK_EX), err = errno;
		setitimer(ITIMER_REAL, &off, NULL);
		if (r == 0) {
			rc = ST_OK;
			break;
		}
		if (err != EINTR) {
			fprintf(stderr, "store: flock: %s\n", strerror(err));
			rc = ST_ERR;
			break;
		}
	}
	sigaction(SIGALRM, &old, NULL);
	setitimer(ITIMER_REAL, &before, NULL);
	if (rc == ST_BUSY)
		fprintf(stderr, "store: the writer lock stayed taken for %d ms\n", WRITER_WAIT_MS);
	return rc;
}

/* Takes the writer lock file: writers of all worker processes queue here in
 * the kernel, and the one woken runs at once instead of sleeping in SQLite's
 * busy handler (whose steps are 1, 2, 5, 10 … ms, far longer than a write).
 * It is held only from BEGIN IMMEDIATE to COMMIT/ROLLBACK, never across a
 * wait for anything else, so the wait is bounded by the writers ahead; and
 * in any case by WRITER_WAIT_MS, as SQLite's busy timeout bounds its own
 * lock (another process, a tool or a stuck writer, may hold the file).
 * ST_BUSY (a 503) past that, ST_ERR when flock fails. */
static int writer_lock(struct store *s)
{
	if (s->lock_fd < 0 || s->locked)
		return ST_OK;
	int rc = ST_OK;
	if (flock(s->lock_fd, LOCK_EX | LOCK_NB) != 0) {
		if (errno != EWOULDBLOCK && errno != EINTR) {
			fprintf(stderr, "store: flock: %s\n", strerror(errno));
			return ST_ERR;
		}
		rc = writer_lock_wait(s);
	}
	if (rc == ST_OK)
		s->locked = 1;
	return rc;
}

/* Releases the writer lock if this connection holds it. */
static void writer_unlock(struct store *s)
{
	if (!s->locked)
		return;
	flock(s->lock_fd, LOCK_UN);
	s->locked = 0;
}

/* BEGIN IMMEDIATE behind the writer lock: takes the write lock now; ST_BUSY
 * (a 503) when another writer (one that does not take the lock file, such as
 * a single autocommit statement) held it past the busy timeout. */
int store_begin(struct store *s)
{
	int rc = writer_lock(s);
	if (rc != ST_OK)
		return rc;
	rc = run(s, STMT_BEGIN);
	if (rc != ST_OK)
		writer_unlock(s);
	return rc;
}

/* A deferred read transaction: one consistent snapshot for several reads. */
int store_begin_read(struct store *s)
{
	return run(s, STMT_BEGIN_READ);
}

/* COMMIT; on failure the transaction is rolled back (nothing was written).
 * Either way the writer lock is released. */
int store_commit(struct store *s)
{
	int rc = run(s, STMT_COMMIT);
	if (rc != ST_OK)
		store_rollback(s);
	writer_unlock(s);
	return rc;
}

/* ROLLBACK if a transaction is open; harmless otherwise. Releases the
 * writer lock. */
void store_rollback(struct store *s)
{
	if (!sqlite3_get_autocommit(s->db))
		run(s, STMT_ROLLBACK);
	writer_unlock(s);
}

int store_in_transaction(const struct store *s)
{
	return !sqlite3_get_autocommit(s->db) || s->locked;
}

int store_end_request(struct store *s)
{
	if (!store_in_transaction(s))
		return 0;
	store_rollback(s);
	return 1;
}

/* Sets SQLite's automatic checkpoint on commit: past `pages` WAL pages
 * (0 = never). */
void store_autocheckpoint(struct store *s, int pages)
{
	sqlite3_wal_autocheckpoint(s->db, pages);
}

/* PRAGMA max_page_count for this connection: `pages` (at least the pages
 * in use, SQLite's rule), so that a write needing more fails as on a full
 * disk (ST_FULL). The pragma takes no bound value: the number is formatted
 * here, and it is only a number. *now gets the limit in effect (may be NULL). */
int store_limit_pages(struct store *s, int64_t pages, int64_t *now)
{
	char sql[64];
	sqlite3_stmt *q = NULL;
	snprintf(sql, sizeof sql, "PRAGMA max_page_count = %lld", (long long)pages);
	if (sqlite3_prepare_v2(s->db, sql, -1, &q, NULL) != SQLITE_OK)
		return fail(s, "max_page_count");
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW && now)
		*now = sqlite3_column_int64(q, 0);
	rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? ST_OK : fail(s, "max_page_count");
	sqlite3_finalize(q);
	return rc;
}

/* A checkpoint that copies what it can from the WAL into the database.
 * Without `exclusive` it is passive: it waits for no reader or writer. With
 * `exclusive` it holds the writer lock meanwhile, so that no commit races
 * it, and waits up to CHECKPOINT_WAIT_MS for the readers of older
 * snapshots to finish (SQLite's RESTART mode): then the next writer starts
 * the WAL over. *wal_pages gets the WAL's length in pages, *left_pages how
 * many of them are not in the database yet (either may be NULL). */
/* The busy handler while the writers are held off: the readers it waits for
 * are requests that end within a millisecond or so, so it looks again every
 * 0.1 ms (SQLite's own handler sleeps 1, 2, 5 … ms), CHECKPOINT_WAIT_MS in
 * all. */
static int checkpoint_busy(void *arg, int n)
{
	(void)arg;
	if (n >= CHECKPOINT_WAIT_MS * 10)
		return 0;
	struct timespec ts = { 0, 100 * 1000L };
	nanosleep(&ts, NULL);
	return 1;
}

int store_checkpoint(struct store *s, int exclusive, int *wal_pages, int *left_pages)
{
	int log = 0, copied = 0, rc;
	if (exclusive) {
		if ((rc = writer_lock(s)) != ST_OK)
			return rc;
		sqlite3_busy_handler(s->db, checkpoint_busy, NULL);
	}
	rc = sqlite3_wal_checkpoint_v2(s->db, NULL, exclusive ? SQLITE_CHECKPOINT_RESTART
							: SQLITE_CHECKPOINT_PASSIVE, &log, &copied);
	if (exclusive) {
		sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);
		writer_unlock(s);
	}
	if (wal_pages)
		*wal_pages = log > 0 ? log : 0;
	if (left_pages)
		*left_pages = log > copied ? log - copied : 0;
	if (rc != SQLITE_OK && rc != SQLITE_BUSY)
		return fail(s, "wal_checkpoint");
	return ST_OK;
}

/* ------------------------------------------------------------------ */
/* Users                                                               */

/* A new account; ST_EXISTS when the folded name is taken, or a name that
 * looks the same (its confusable skeleton, 025_name_skeleton.sql). */
int store_user_create(struct store *s, const char *name, const char *pwhash, int64_t now,
		      int64_t *id)
{
	char key[NAME_KEY_MAX + 1], skel[TEXT_KEY_MAX + 1];
	sqlite3_stmt *q = stmt(s, STMT_USER_CREATE);
	if (!q)
		return ST_ERR;
	name_key(name, key, sizeof key);
	name_skeleton(name, skel, sizeof skel);
	bind_text(q, 1, name);
	bind_text(q, 2, key);
	bind_text(q, 3, pwhash);
	sqlite3_bind_int64(q, 4, now);
	if (skel[0])
		bind_text(q, 5, skel);
	else
		sqlite3_bind_null(q, 5);
	int rc = exec_stmt(s, q, "user create");
	if (rc == ST_OK && id)
		*id = sqlite3_last_insert_rowid(s->db);
	return rc;
}

/* Steps a bound user query once: ST_OK with *u, ST_NOTFOUND, or an error. */
static int read_user(struct store *s, sqlite3_stmt *q, struct st_user *u, const char *what)
{
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		u->id = sqlite3_column_int64(q, 0);
		copy_col(u->name, sizeof u->name, q, 1);
		copy_col(u->pwhash, sizeof u->pwhash, q, 2);
		u->created_at = sqlite3_column_int64(q, 3);
		rc = ST_OK;
	} else {
		rc = rc == SQLITE_DONE ? ST_NOTFOUND : fail(s, what);
	}
	done(q);
	return rc;
}

/* The account of a name, compared case-insensitively; ST_NOTFOUND if none. */
int store_user_by_name(struct store *s, const char *name, struct st_user *u)
{
	char key[NAME_KEY_MAX + 1];
	sqlite3_stmt *q = stmt(s, STMT_USER_BY_NAME);
	if (!q)
		return ST_ERR;
	name_key(name, key, sizeof key);
	bind_text(q, 1, key);
	return read_user(s, q, u, "user by name");
}

/* The account with this id; ST_NOTFOUND (a stale session: treat as logged out). */
int store_user_by_id(struct store *s, int64_t id, struct st_user *u)
{
	sqlite3_stmt *q = stmt(s, STMT_USER_BY_ID);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, id);
	return read_user(s, q, u, "user by id");
}

/* The language the user chose ("de", "en"; "" none). */
int store_user_set_lang(struct store *s, int64_t id, const char *code)
{
	sqlite3_stmt *q = stmt(s, STMT_USER_SET_LANG);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, id);
	bind_text(q, 2, code);
	return exec_stmt(s, q, "user set lang");
}

/* ------------------------------------------------------------------ */
/* Sessions and failed logins                                          */

int store_session_create(struct store *s, const unsigned char hash[32], int64_t user_id,
			 const char *csrf, int64_t expires)
{
	sqlite3_stmt *q = stmt(s, STMT_SESSION_CREATE);
	if (!q)
		return ST_ERR;
	sqlite3_bind_blob(q, 1, hash, 32, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 2, user_id);
	bind_text(q, 3, csrf);
	sqlite3_bind_int64(q, 4, expires);
	return exec_stmt(s, q, "session create");
}

/* The session of a token hash that has not expired at `now`, else ST_NOTFOUND. */
int store_session_get(struct store *s, const unsigned char hash[32], int64_t now,
		      struct st_session *out)
{
	sqlite3_stmt *q = stmt(s, STMT_SESSION_GET);
	if (!q)
		return ST_ERR;
	sqlite3_bind_blob(q, 1, hash, 32, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 2, now);
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		out->user_id = sqlite3_column_int64(q, 0);
		copy_col(out->csrf, sizeof out->csrf, q, 1);
		out->expires = sqlite3_column_int64(q, 2);
		copy_col(out->name, sizeof out->name, q, 3);
		copy_col(out->lang, sizeof out->lang, q, 4);
		rc = ST_OK;
	} else {
		rc = rc == SQLITE_DONE ? ST_NOTFOUND : fail(s, "session get");
	}
	done(q);
	return rc;
}

/* ST_OK whether or not the session existed (logging out twice is fine). */
int store_session_delete(struct store *s, const unsigned char hash[32])
{
	sqlite3_stmt *q = stmt(s, STMT_SESSION_DELETE);
	if (!q)
		return ST_ERR;
	sqlite3_bind_blob(q, 1, hash, 32, SQLITE_TRANSIENT);
	return exec_stmt(s, q, "session delete");
}

/* Deletes every session expired at `now`. */
int store_session_purge(struct store *s, int64_t now)
{
	sqlite3_stmt *q = stmt(s, STMT_SESSION_PURGE);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, now);
	return exec_stmt(s, q, "session purge");
}

/* Records one failed login for the folded name (known or not). */
int store_login_failed(struct store *s, const char *name, int64_t now)
{
	char key[NAME_KEY_MAX + 1];
	sqlite3_stmt *q = stmt(s, STMT_LOGIN_FAILED);
	if (!q)
		return ST_ERR;
	name_key(name, key, sizeof key);
	bind_text(q, 1, key);
	sqlite3_bind_int64(q, 2, now);
	return exec_stmt(s, q, "login failed");
}

/* Failures of the folded name at or after `since`, and the latest one's time. */
int store_login_failures_last(struct store *s, const char *name, int64_t since, int *count,
			      int64_t *last)
{
	char key[NAME_KEY_MAX + 1];
	sqlite3_stmt *q = stmt(s, STMT_LOGIN_FAILURES);
	if (!q)
		return ST_ERR;
	name_key(name, key, sizeof key);
	bind_text(q, 1, key);
	sqlite3_bind_int64(q, 2, since);
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		*count = sqlite3_column_int(q, 0);
		if (last)
			*last = sqlite3_column_int64(q, 1);
		rc = ST_OK;
	} else {
		rc = fail(s, "login failures");
	}
	done(q);
	return rc;
}

/* Failures of the folded name at or after `since`. */
int store_login_failures(struct store *s, const char *name, int64_t since, int *count)
{
	return store_login_failures_last(s, name, since, count, NULL);
}

/* Forgets the name's failures (after a successful login). */
int store_login_clear(struct store *s, const char *name)
{
	char key[NAME_KEY_MAX + 1];
	sqlite3_stmt *q = stmt(s, STMT_LOGIN_CLEAR);
	if (!q)
		return ST_ERR;
	name_key(name, key, sizeof key);
	bind_text(q, 1, key);
	return exec_stmt(s, q, "login clear");
}

/* Failures per client address share login_failures with the per-name
 * ones, without a schema change: a failure of name N from address A is
 * one row keyed "fold(N) US A" and one keyed "US A" (US = 0x1F, which no
 * name contains: auth.c checks names before they reach the throttle).
 * Rows keyed by a plain name (store_login_failed) are another key space. */
enum { ADDR_KEY_MAX = 64, PAIR_KEY_MAX = NAME_KEY_MAX + 1 + ADDR_KEY_MAX };

/* The key of (name, addr) into out, or of addr alone when name is NULL. */
static void pair_key(const char *name, const char *addr, char out[PAIR_KEY_MAX + 1])
{
	char key[NAME_KEY_MAX + 1] = "";
	if (name)
		name_key(name, key, sizeof key);
	snprintf(out, PAIR_KEY_MAX + 1, "%s\x1f%.*s", key, (int)ADDR_KEY_MAX, addr ? addr : "");
}

/* Records one failed login of the folded name from client address `addr`
 * (auth.c's key of it): one row for the pair, one for the address. */
int store_login_failed_at(struct store *s, const char *name, const char *addr, int64_t now)
{
	char pk[PAIR_KEY_MAX + 1], ak[PAIR_KEY_MAX + 1];
	sqlite3_stmt *q = stmt(s, STMT_LOGIN_FAILED_AT);
	if (!q)
		return ST_ERR;
	pair_key(name, addr, pk);
	pair_key(NULL, addr, ak);
	bind_text(q, 1, pk);
	bind_text(q, 2, ak);
	sqlite3_bind_int64(q, 3, now);
	return exec_stmt(s, q, "login failed at");
}

/* Rows of `key` at or after `since` and the latest one's time (0: none). */
static int count_key(struct store *s, const char *key, int64_t since, int *count, int64_t *last)
{
	sqlite3_stmt *q = stmt(s, STMT_LOGIN_FAILURES);
	if (!q)
		return ST_ERR;
	bind_text(q, 1, key);
	sqlite3_bind_int64(q, 2, since);
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		*count = sqlite3_column_int(q, 0);
		*last = sqlite3_column_int64(q, 1);
		rc = ST_OK;
	} else {
		rc = fail(s, "login failures at");
	}
	done(q);
	return rc;
}

/* Failures of the folded name from `addr` at or after `since`, and the
 * latest one's time (0: none). */
int store_login_pair(struct store *s, const char *name, const char *addr, int64_t since,
		     int *count, int64_t *last)
{
	char pk[PAIR_KEY_MAX + 1];
	pair_key(name, addr, pk);
	return count_key(s, pk, since, count, last);
}

/* Failures from `addr` for any name at or after `since`, and the latest. */
int store_login_addr(struct store *s, const char *addr, int64_t since, int *count,
		     int64_t *last)
{
	char ak[PAIR_KEY_MAX + 1];
	pair_key(NULL, addr, ak);
	return count_key(s, ak, since, count, last);
}

/* Forgets the failures of the folded name from `addr` (a login from there
 * succeeded), and the address's row that this attempt recorded at `at`
 * (store_login_failed_at): a right password is no failure, so it counts
 * against neither budget. Failures from other addresses stay, and so do
 * the address's other rows: logging in to an account of one's own does not
 * buy an address new guesses at other names. */
int store_login_clear_at(struct store *s, const char *name, const char *addr, int64_t at)
{
	char pk[PAIR_KEY_MAX + 1], ak[PAIR_KEY_MAX + 1];
	sqlite3_stmt *q = stmt(s, STMT_LOGIN_CLEAR_AT);
	if (!q)
		return ST_ERR;
	pair_key(name, addr, pk);
	pair_key(NULL, addr, ak);
	bind_text(q, 1, pk);
	bind_text(q, 2, ak);
	sqlite3_bind_int64(q, 3, at);
	return exec_stmt(s, q, "login clear at");
}

/* The latest successful login of the folded name from `addr` in *at (0:
 * none on record). */
int store_login_known_at(struct store *s, const char *name, const char *addr, int64_t *at)
{
	char pk[PAIR_KEY_MAX + 1];
	sqlite3_stmt *q = stmt(s, STMT_LOGIN_KNOWN_GET);
	if (!q)
		return ST_ERR;
	pair_key(name, addr, pk);
	bind_text(q, 1, pk);
	int rc = sqlite3_step(q);
	*at = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
	rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? ST_OK : fail(s, "login known");
	done(q);
	return rc;
}

/* Records a successful login of the folded name from `addr` at `now`. */
int store_login_known_set(struct store *s, const char *name, const char *addr, int64_t now)
{
	char pk[PAIR_KEY_MAX + 1];
	sqlite3_stmt *q = stmt(s, STMT_LOGIN_KNOWN_SET);
	if (!q)
		return ST_ERR;
	pair_key(name, addr, pk);
	bind_text(q, 1, pk);
	sqlite3_bind_int64(q, 2, now);
	return exec_stmt(s, q, "login known set");
}

/* Forgets the successful logins older than `before`. */
int store_login_known_purge(struct store *s, int64_t before)
{
	sqlite3_stmt *q = stmt(s, STMT_LOGIN_KNOWN_PURGE);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, before);
	return exec_stmt(s, q, "login known purge");
}

/* Forgets every failure older than `before`. */
int store_login_purge(struct store *s, int64_t before)
{
	sqlite3_stmt *q = stmt(s, STMT_LOGIN_PURGE);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, before);
	return exec_stmt(s, q, "login purge");
}

/* ------------------------------------------------------------------ */
/* Tables and seats                                                    */

int store_table_create(struct store *s, const char *game, const char *options, int nseats,
		       int nparties, int64_t created_by, int64_t now, int64_t *id)
{
	sqlite3_stmt *q = stmt(s, STMT_TABLE_CREATE);
	if (!q)
		return ST_ERR;
	bind_text(q, 1, game);
	bind_text(q, 2, options);
	sqlite3_bind_int(q, 3, nseats);
	sqlite3_bind_int(q, 4, nparties);
	sqlite3_bind_int64(q, 5, created_by);
	sqlite3_bind_int64(q, 6, now);
	int rc = exec_stmt(s, q, "table create");
	if (rc == ST_EXISTS) {
		fprintf(stderr, "store: table create: %s\n", sqlite3_errmsg(s->db));
		rc = ST_ERR;
	}
	if (rc == ST_OK && id)
		*id = sqlite3_last_insert_rowid(s->db);
	return rc;
}

/* One row of TABLE_COLS starting at column 0. */
static void read_table(sqlite3_stmt *q, struct st_table *t)
{
	memset(t, 0, sizeof *t);
	t->id = sqlite3_column_int64(q, 0);
	copy_col(t->game, sizeof t->game, q, 1);
	copy_col(t->options, sizeof t->options, q, 2);
	t->nseats = sqlite3_column_int(q, 3);
	int st = sqlite3_column_int(q, 4);
	t->status = (st >= 0 && st < TABLE_STATUS__MAX) ? (enum st_table_status)st : TABLE_FINISHED;
	t->version = sqlite3_column_int64(q, 5);
	t->next_deadline = sqlite3_column_int64(q, 6);
	t->epoch = (uint32_t)sqlite3_column_int64(q, 7);
	t->epoch_version = sqlite3_column_int64(q, 8);
	t->party_no = sqlite3_column_int(q, 9);
	t->nparties = sqlite3_column_int(q, 10);
	t->first_dealer = sqlite3_column_int(q, 11);
	t->created_by = sqlite3_column_int64(q, 12);
	t->created_at = sqlite3_column_int64(q, 13);
	t->public_version = sqlite3_column_int64(q, 14);
	t->clock.first_ms = sqlite3_column_int64(q, 15);
	t->clock.per_move_ms = sqlite3_column_int64(q, 16);
	t->clock.cap_ms = sqlite3_column_int64(q, 17);
	t->clock.day_ms = sqlite3_column_int64(q, 18);
	t->clock.weekend = sqlite3_column_int(q, 19);
	t->clock.windows = sqlite3_column_int(q, 20);
	t->timeouts_max = sqlite3_column_int(q, 21);
	t->closed_idle = sqlite3_column_int(q, 22);
	copy_col(t->host, sizeof t->host, q, 23);
	t->rematch = sqlite3_column_int64(q, 24);
}

/* One table by id; ST_NOTFOUND (a 404). */
int store_table_get(struct store *s, int64_t id, struct st_table *t)
{
	sqlite3_stmt *q = stmt(s, STMT_TABLE_GET);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, id);
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		read_table(q, t);
		rc = ST_OK;
	} else {
		rc = rc == SQLITE_DONE ? ST_NOTFOUND : fail(s, "table get");
	}
	done(q);
	return rc;
}

/* The taken seats with their users' names, by seat; at most max are written. */
int store_table_seats(struct store *s, int64_t id, struct st_seat *out, int max, int *n)
{
	sqlite3_stmt *q = stmt(s, STMT_TABLE_SEATS);
	int rc;
	if (!q)
		return ST_ERR;
	*n = 0;
	sqlite3_bind_int64(q, 1, id);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (*n >= max)
			continue;
		struct st_seat *st = &out[(*n)++];
		st->seat = sqlite3_column_int(q, 0);
		st->user_id = sqlite3_column_int64(q, 1);
		copy_col(st->name, sizeof st->name, q, 2);
		st->bot = sqlite3_column_int(q, 3);
		st->resigned = sqlite3_column_int(q, 4);
		st->autopass = sqlite3_column_int(q, 5);
		st->clock_left = sqlite3_column_int64(q, 6);
		st->waiting_since = sqlite3_column_int64(q, 7);
		st->timeouts = sqlite3_column_int(q, 8);
		st->expel_votes = (uint32_t)sqlite3_column_int64(q, 9);
		st->claimed_by = sqlite3_column_int64(q, 10);
		copy_col(st->claimer, sizeof st->claimer, q, 11);
		st->claimed = sqlite3_column_int(q, 12);
	}
	rc = rc == SQLITE_DONE ? ST_OK : fail(s, "table seats");
	done(q);
	return rc;
}

/* Steps a bound statement that reads one number (column 0) into *out:
 * ST_OK, ST_NOTFOUND when there is no row (an aggregate always has one),
 * or the error. Resets the statement. */
static int one_int64(struct store *s, sqlite3_stmt *q, int64_t *out, const char *what)
{
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		*out = sqlite3_column_int64(q, 0);
		rc = ST_OK;
	} else {
		rc = rc == SQLITE_DONE ? ST_NOTFOUND : fail(s, what);
	}
	done(q);
	return rc;
}

/* The seat `user` holds at `table`: ST_OK with *seat, or ST_NOTFOUND. */
static int seat_find(struct store *s, int64_t table, int64_t user, int *seat)
{
	sqlite3_stmt *q = stmt(s, STMT_SEAT_FIND);
	int64_t v = 0;
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, table);
	sqlite3_bind_int64(q, 2, user);
	int rc = one_int64(s, q, &v, "seat find");
	*seat = (int)v;
	return rc;
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
	sqlite3_stmt *q = stmt(s, STMT_SEAT_TAKE);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, table);
	sqlite3_bind_int64(q, 2, user);
	rc = exec_stmt(s, q, "seat take");
	if (rc == ST_EXISTS) /* a concurrent join of the same user */
		return ST_EXISTS;
	if (rc != ST_OK)
		return rc;
	if (sqlite3_changes(s->db) == 0)
		return ST_CONFLICT;
	return seat_find(s, table, user, seat);
}

/* A bot of `level` (1 random, 2 greedy) takes the lowest free seat:
 * ST_OK with *seat, ST_CONFLICT when the table is full. */
int store_seat_add_bot(struct store *s, int64_t table, int level, int *seat)
{
	sqlite3_stmt *q = stmt(s, STMT_SEAT_BOT_ADD);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, table);
	sqlite3_bind_int(q, 2, level);
	int rc = sqlite3_step(q), found = rc == SQLITE_ROW;
	if (found)
		*seat = sqlite3_column_int(q, 0);
	while (rc == SQLITE_ROW)
		rc = sqlite3_step(q);
	rc = rc == SQLITE_DONE ? (found ? ST_OK : ST_CONFLICT) : fail(s, "seat add bot");
	done(q);
	return rc;
}

/* Who plays `seat`: a person (bot 0), or a bot of level 1 or 2; resigned
 * marks a seat whose person gave up. ST_NOTFOUND without the seat. */
int store_seat_set_bot(struct store *s, int64_t table, int seat, int bot, int resigned)
{
	sqlite3_stmt *q = stmt(s, STMT_SEAT_SET_BOT);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, table);
	sqlite3_bind_int(q, 2, seat);
	sqlite3_bind_int(q, 3, bot);
	sqlite3_bind_int(q, 4, resigned);
	int rc = exec_stmt(s, q, "seat set bot");
	if (rc == ST_OK && sqlite3_changes(s->db) == 0)
		rc = ST_NOTFOUND;
	return rc;
}

/* The user's standing choice at the table: pass every window (1) or not.
 * ST_NOTFOUND when the user holds no seat there. */
int store_seat_set_clock(struct store *s, int64_t table, int seat, int64_t left, int64_t since,
			 int timeouts)
{
	sqlite3_stmt *q = stmt(s, STMT_SEAT_SET_CLOCK);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, table);
	sqlite3_bind_int(q, 2, seat);
	sqlite3_bind_int64(q, 3, left);
	sqlite3_bind_int64(q, 4, since);
	sqlite3_bind_int(q, 5, timeouts);
	return exec_stmt(s, q, "seat set clock");
}

/* Runs a statement bound with (?1 table, ?2 value); ST_NOTFOUND when it
 * changed no row and `must_change`. */
static int table_update(struct store *s, enum stmt which, int64_t table, int64_t value,
			const char *what, int must_change)
{
	sqlite3_stmt *q = stmt(s, which);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, table);
	sqlite3_bind_int64(q, 2, value);
	int rc = exec_stmt(s, q, what);
	if (rc == ST_OK && must_change && sqlite3_changes(s->db) == 0)
		rc = ST_NOTFOUND;
	return rc;
}

/* Runs a statement bound with (?1 table, ?2 seat, ?3 value); ST_CONFLICT
 * when it changed no row. */
static int seat_update(struct store *s, enum stmt which, int64_t table, int seat, int64_t value,
		       const char *what)
{
	sqlite3_stmt *q = stmt(s, which);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, table);
	sqlite3_bind_int(q, 2, seat);
	sqlite3_bind_int64(q, 3, value);
	int rc = exec_stmt(s, q, what);
	if (rc == ST_OK && sqlite3_changes(s->db) == 0)
		rc = ST_CONFLICT;
	return rc;
}

int store_seats_reset_clock(struct store *s, int64_t table, int64_t left)
{
	return table_update(s, STMT_SEATS_RESET_CLOCK, table, left, "seats reset clock", 0);
}

int store_seat_claim(struct store *s, int64_t table, int seat, int64_t user)
{
	return seat_update(s, STMT_SEAT_CLAIM, table, seat, user, "seat claim");
}

int store_seats_apply_claims(struct store *s, int64_t table, int64_t clock_left)
{
	return table_update(s, STMT_SEATS_APPLY_CLAIMS, table, clock_left, "seats apply claims", 0);
}

int store_seat_expel_vote(struct store *s, int64_t table, int seat, uint32_t voters)
{
	int rc = seat_update(s, STMT_SEAT_EXPEL_VOTE, table, seat, voters, "seat expel vote");
	return rc == ST_CONFLICT ? ST_NOTFOUND : rc;
}

/* Up to max ids of a listing bound with (?1 time, ?2 max) into ids. */
static int list_ids(struct store *s, enum stmt which, int64_t t, int64_t *ids, int max, int *n,
		    const char *what)
{
	sqlite3_stmt *q = stmt(s, which);
	int rc;
	*n = 0;
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, t);
	sqlite3_bind_int(q, 2, max);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW)
		if (*n < max)
			ids[(*n)++] = sqlite3_column_int64(q, 0);
	rc = rc == SQLITE_DONE ? ST_OK : fail(s, what);
	done(q);
	return rc;
}

int store_tables_expired(struct store *s, int64_t before, int64_t *ids, int max, int *n)
{
	return list_ids(s, STMT_TABLES_EXPIRED, before, ids, max, n, "tables expired");
}

int store_tables_idle(struct store *s, int64_t before, int64_t *ids, int max, int *n)
{
	return list_ids(s, STMT_TABLES_IDLE, before, ids, max, n, "tables idle");
}

int store_tables_due(struct store *s, int64_t now, int64_t *ids, int max, int *n)
{
	return list_ids(s, STMT_TABLES_DUE, now, ids, max, n, "tables due");
}

int store_user_tables_due(struct store *s, int64_t user, int64_t now, int64_t *ids, int max,
			  int *n)
{
	sqlite3_stmt *q = stmt(s, STMT_USER_TABLES_DUE);
	*n = 0;
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 3, user);   /* list_ids binds ?1 and ?2, and clears all */
	return list_ids(s, STMT_USER_TABLES_DUE, now, ids, max, n, "user tables due");
}

int store_table_close_idle(struct store *s, int64_t id, int64_t before)
{
	return table_update(s, STMT_TABLE_CLOSE_IDLE, id, before, "table close idle", 1);
}

int store_table_set_clock(struct store *s, int64_t id, const struct clock_rule *c,
			  int timeouts_max)
{
	sqlite3_stmt *q = stmt(s, STMT_TABLE_SET_CLOCK);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, id);
	sqlite3_bind_int64(q, 2, c->first_ms);
	sqlite3_bind_int64(q, 3, c->per_move_ms);
	sqlite3_bind_int64(q, 4, c->cap_ms);
	sqlite3_bind_int64(q, 5, c->day_ms > 0 ? c->day_ms : CLOCK_DAY_MS);
	sqlite3_bind_int(q, 6, c->weekend ? 1 : 0);
	sqlite3_bind_int(q, 7, c->windows ? 1 : 0);
	sqlite3_bind_int(q, 8, timeouts_max);
	return exec_stmt(s, q, "table set clock");
}

int store_seat_set_autopass(struct store *s, int64_t table, int64_t user, int on)
{
	sqlite3_stmt *q = stmt(s, STMT_SEAT_SET_AUTOPASS);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, table);
	sqlite3_bind_int64(q, 2, user);
	sqlite3_bind_int(q, 3, on ? 1 : 0);
	int rc = exec_stmt(s, q, "seat set autopass");
	if (rc == ST_OK && sqlite3_changes(s->db) == 0)
		rc = ST_NOTFOUND;
	return rc;
}

/* ST_NOTFOUND when the user held no seat there. */
int store_seat_leave(struct store *s, int64_t table, int64_t user)
{
	sqlite3_stmt *q = stmt(s, STMT_SEAT_LEAVE);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, table);
	sqlite3_bind_int64(q, 2, user);
	int rc = exec_stmt(s, q, "seat leave");
	if (rc == ST_OK && sqlite3_changes(s->db) == 0)
		rc = ST_NOTFOUND;
	return rc;
}

/* Runs an UPDATE/DELETE of one table row: ST_NOTFOUND when no row matched. */
static int change_table_row(struct store *s, sqlite3_stmt *q, const char *what)
{
	int rc = exec_stmt(s, q, what);
	if (rc == ST_OK && sqlite3_changes(s->db) == 0)
		rc = ST_NOTFOUND;
	return rc;
}

/* Sets status, current party and first dealer; ST_NOTFOUND without the table. */
int store_table_set_status(struct store *s, int64_t id, enum st_table_status st,
			   int party_no, int first_dealer)
{
	sqlite3_stmt *q = stmt(s, STMT_TABLE_SET_STATUS);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, id);
	sqlite3_bind_int(q, 2, (int)st);
	sqlite3_bind_int(q, 3, party_no);
	sqlite3_bind_int(q, 4, first_dealer);
	return change_table_row(s, q, "table status");
}

/* The table's current version; ST_NOTFOUND without the table. */
static int table_version(struct store *s, int64_t id, int64_t *v)
{
	sqlite3_stmt *q = stmt(s, STMT_TABLE_VERSION);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, id);
	return one_int64(s, q, v, "table version");
}

/* ST_CONFLICT when the version moved on (somebody else wrote first),
 * ST_NOTFOUND when there is no such table. */
/* The one bump; quiet leaves public_version (what polls compare) alone. */
static int table_bump(struct store *s, int64_t id, int64_t expected, int64_t next_deadline,
		      uint32_t epoch, int quiet, int64_t *newv)
{
	int64_t v;
	sqlite3_stmt *q = stmt(s, STMT_TABLE_BUMP);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, id);
	sqlite3_bind_int64(q, 2, next_deadline);
	sqlite3_bind_int64(q, 3, (sqlite3_int64)epoch);
	sqlite3_bind_int64(q, 4, expected);
	sqlite3_bind_int(q, 5, quiet ? 0 : 1);
	int rc = change_table_row(s, q, "table bump");
	if (rc == ST_NOTFOUND) {
		rc = table_version(s, id, &v);
		return rc == ST_OK ? ST_CONFLICT : rc;
	}
	if (rc != ST_OK)
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
	sqlite3_stmt *q = stmt(s, STMT_TABLE_NEW_EPOCH);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, id);
	return change_table_row(s, q, "table new epoch");
}

/* Deletes the table; seats, parties and moves go with it (ON DELETE CASCADE). */
int store_table_delete(struct store *s, int64_t id)
{
	sqlite3_stmt *q = stmt(s, STMT_TABLE_DELETE);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, id);
	return change_table_row(s, q, "table delete");
}

int store_seats_set_acting(struct store *s, int64_t table, uint32_t acting, uint32_t in_window,
			   uint32_t to_continue)
{
	sqlite3_stmt *q = stmt(s, STMT_SEATS_SET_ACTING);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, table);
	sqlite3_bind_int64(q, 2, acting);
	sqlite3_bind_int64(q, 3, in_window);
	sqlite3_bind_int64(q, 4, to_continue);
	return exec_stmt(s, q, "seats set acting");
}

/* The MY_SEAT_COLS of the row at column c on into *m. */
static void read_my_seat(sqlite3_stmt *q, int c, struct st_my_seat *m)
{
	*m = (struct st_my_seat){
		.seat = sqlite3_column_int(q, c), .bot = sqlite3_column_int(q, c + 1),
		.acting = sqlite3_column_int(q, c + 2), .in_window = sqlite3_column_int(q, c + 3),
		.clock_left = sqlite3_column_int64(q, c + 4),
		.waiting_since = sqlite3_column_int64(q, c + 5),
		.to_continue = sqlite3_column_int(q, c + 6),
	};
}

int store_seat_mine(struct store *s, int64_t table, int64_t user, struct st_my_seat *out)
{
	sqlite3_stmt *q = stmt(s, STMT_SEAT_MINE);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, table);
	sqlite3_bind_int64(q, 2, user);
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		read_my_seat(q, 0, out);
		rc = ST_OK;
	} else {
		rc = rc == SQLITE_DONE ? ST_NOTFOUND : fail(s, "seat mine");
	}
	done(q);
	return rc;
}

int store_user_acting(struct store *s, int64_t user, int *n)
{
	sqlite3_stmt *q = stmt(s, STMT_USER_ACTING);
	int64_t v = 0;
	*n = 0;
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, user);
	sqlite3_bind_int(q, 2, ST_ACTING_MAX);
	int rc = one_int64(s, q, &v, "user acting");
	*n = (int)v;
	return rc;
}

int store_rating_get(struct store *s, int64_t user, const char *game, struct st_rating *r)
{
	sqlite3_stmt *q = stmt(s, STMT_RATING_GET);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, user);
	bind_text(q, 2, game);
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		r->user_id = user;
		r->mu = sqlite3_column_double(q, 0);
		r->sigma = sqlite3_column_double(q, 1);
		r->matches = sqlite3_column_int(q, 2);
		rc = ST_OK;
	} else {
		rc = rc == SQLITE_DONE ? ST_NOTFOUND : fail(s, "rating get");
	}
	done(q);
	return rc;
}

int store_rating_put(struct store *s, const char *game, int64_t table, const struct st_rating *r,
		     int place, int players, int64_t now)
{
	sqlite3_stmt *q = stmt(s, STMT_RATING_PUT);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, r->user_id);
	bind_text(q, 2, game);
	sqlite3_bind_double(q, 3, r->mu);
	sqlite3_bind_double(q, 4, r->sigma);
	sqlite3_bind_double(q, 5, r->shown);
	sqlite3_bind_int64(q, 6, now);
	int rc = exec_stmt(s, q, "rating put");
	if (rc != ST_OK || !(q = stmt(s, STMT_RATING_HISTORY_ADD)))
		return rc != ST_OK ? rc : ST_ERR;
	sqlite3_bind_int64(q, 1, r->user_id);
	bind_text(q, 2, game);
	if (table > 0)
		sqlite3_bind_int64(q, 3, table);
	else
		sqlite3_bind_null(q, 3);
	sqlite3_bind_double(q, 4, r->mu);
	sqlite3_bind_double(q, 5, r->sigma);
	sqlite3_bind_double(q, 6, r->shown);
	sqlite3_bind_int(q, 7, place);
	sqlite3_bind_int(q, 8, players);
	sqlite3_bind_int64(q, 9, now);
	return exec_stmt(s, q, "rating history add");
}

int store_table_set_rated(struct store *s, int64_t table)
{
	sqlite3_stmt *q = stmt(s, STMT_TABLE_SET_RATED);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, table);
	int rc = exec_stmt(s, q, "table set rated");
	if (rc == ST_OK && sqlite3_changes(s->db) == 0)
		rc = ST_EXISTS;
	return rc;
}

/* Rows of STMT_RATING_BOARD / STMT_RATINGS_OF_USER into fn. */
static int list_ratings(struct store *s, sqlite3_stmt *q, st_rating_fn fn, void *ctx,
			const char *what)
{
	struct st_rating r;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		memset(&r, 0, sizeof r);
		r.user_id = sqlite3_column_int64(q, 0);
		copy_col(r.name, sizeof r.name, q, 1);
		r.mu = sqlite3_column_double(q, 2);
		r.sigma = sqlite3_column_double(q, 3);
		r.shown = sqlite3_column_double(q, 4);
		r.matches = sqlite3_column_int(q, 5);
		if (sqlite3_column_count(q) > 6)
			copy_col(r.game, sizeof r.game, q, 6);
		fn(ctx, &r);
	}
	rc = rc == SQLITE_DONE ? ST_OK : fail(s, what);
	done(q);
	return rc;
}

int store_rating_board(struct store *s, const char *game, int min_matches, int limit,
		       st_rating_fn fn, void *ctx)
{
	sqlite3_stmt *q = stmt(s, STMT_RATING_BOARD);
	if (!q)
		return ST_ERR;
	bind_text(q, 1, game);
	sqlite3_bind_int(q, 2, min_matches);
	sqlite3_bind_int(q, 3, limit);
	return list_ratings(s, q, fn, ctx, "rating board");
}

int store_ratings_of_user(struct store *s, int64_t user, int limit, st_rating_fn fn, void *ctx)
{
	sqlite3_stmt *q = stmt(s, STMT_RATINGS_OF_USER);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, user);
	sqlite3_bind_int(q, 2, limit);
	return list_ratings(s, q, fn, ctx, "ratings of user");
}

int store_rating_history(struct store *s, int64_t user, int limit, st_rating_step_fn fn,
			 void *ctx)
{
	sqlite3_stmt *q = stmt(s, STMT_RATING_HISTORY);
	int rc;
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, user);
	sqlite3_bind_int(q, 2, limit);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		struct st_rating_step h;
		memset(&h, 0, sizeof h);
		copy_col(h.game, sizeof h.game, q, 0);
		h.table_id = sqlite3_column_int64(q, 1);
		h.shown = sqlite3_column_double(q, 2);
		h.place = sqlite3_column_int(q, 3);
		h.players = sqlite3_column_int(q, 4);
		h.at = sqlite3_column_int64(q, 5);
		fn(ctx, &h);
	}
	rc = rc == SQLITE_DONE ? ST_OK : fail(s, "rating history");
	done(q);
	return rc;
}

/* One row of me_seq (017_me_seq.sql) through statement `id`, bound to the
 * user's id or their poll token. */
static int user_poll_row(struct store *s, enum stmt id, int64_t user, const char *token,
			 int64_t *seq, int64_t *deadline, int64_t *user_out)
{
	sqlite3_stmt *q = stmt(s, id);
	if (!q)
		return ST_ERR;
	if (token)
		sqlite3_bind_text(q, 1, token, -1, SQLITE_STATIC);
	else
		sqlite3_bind_int64(q, 1, user);
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		*seq = sqlite3_column_int64(q, 0);
		*deadline = sqlite3_column_int64(q, 1);
		*user_out = sqlite3_column_int64(q, 2);
		rc = ST_OK;
	} else {
		rc = rc == SQLITE_DONE ? ST_NOTFOUND : fail(s, "user poll");
	}
	done(q);
	return rc;
}

int store_user_poll(struct store *s, int64_t user, const char *token, int64_t now_ms,
		    int64_t *sig, int64_t *next_deadline)
{
	int rc = user_poll_row(s, token ? STMT_USER_POLL_BY_TOKEN : STMT_USER_POLL, user, token,
			       sig, next_deadline, &user);
	if (rc == ST_OK && *next_deadline > 0 && *next_deadline <= now_ms)
		rc = user_poll_row(s, STMT_USER_DEADLINE, user, NULL, sig, next_deadline, &user);
	return rc;
}

int store_user_poll_token(struct store *s, int64_t user, const char *fresh,
			  char out[ST_POLL_TOKEN_LEN + 1])
{
	sqlite3_stmt *q;
	int rc = ST_OK;
	if (fresh) {
		if (!(q = stmt(s, STMT_USER_POLL_TOKEN_SET)))
			return ST_ERR;
		sqlite3_bind_int64(q, 1, user);
		bind_text(q, 2, fresh);
		if ((rc = exec_stmt(s, q, "user poll token set")) != ST_OK)
			return rc;
	}
	if (!(q = stmt(s, STMT_USER_POLL_TOKEN)))
		return ST_ERR;
	sqlite3_bind_int64(q, 1, user);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW && sqlite3_column_type(q, 0) == SQLITE_TEXT) {
		copy_col(out, ST_POLL_TOKEN_LEN + 1, q, 0);
		rc = ST_OK;
	} else {
		rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? ST_NOTFOUND : fail(s, "user poll token");
	}
	done(q);
	return rc;
}

int store_table_poll(struct store *s, int64_t id, int64_t *version, int64_t *next_deadline)
{
	sqlite3_stmt *q = stmt(s, STMT_TABLE_POLL);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, id);
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		*version = sqlite3_column_int64(q, 0);
		*next_deadline = sqlite3_column_int64(q, 1);
		rc = ST_OK;
	} else {
		rc = rc == SQLITE_DONE ? ST_NOTFOUND : fail(s, "table poll");
	}
	done(q);
	return rc;
}

/* Calls fn per row of a bound listing (TABLE_COLS plus the seats taken). */
static int list_tables(struct store *s, sqlite3_stmt *q, st_table_fn fn, void *ctx,
		       const char *what)
{
	struct st_table t;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		read_table(q, &t);
		fn(ctx, &t, sqlite3_column_int(q, TABLE_NCOLS));
	}
	rc = rc == SQLITE_DONE ? ST_OK : fail(s, what);
	done(q);
	return rc;
}

/* Open tables (waiting for players), newest first. */
int store_tables_open(struct store *s, int limit, st_table_fn fn, void *ctx)
{
	sqlite3_stmt *q = stmt(s, STMT_TABLES_OPEN);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int(q, 1, limit);
	return list_tables(s, q, fn, ctx, "tables open");
}

/* Open tables, newest first, at most `per_host` of any one creator (the
 * newest of theirs), `limit` in all. */
int store_tables_open_fair(struct store *s, int limit, int per_host, st_table_fn fn, void *ctx)
{
	sqlite3_stmt *q = stmt(s, STMT_TABLES_OPEN_FAIR);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int(q, 1, limit);
	sqlite3_bind_int(q, 2, per_host);
	return list_tables(s, q, fn, ctx, "tables open fair");
}

int store_invite(struct store *s, int64_t table, int64_t from, int64_t to, int64_t now)
{
	sqlite3_stmt *q = stmt(s, STMT_INVITE);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, table);
	sqlite3_bind_int64(q, 2, from);
	sqlite3_bind_int64(q, 3, to);
	sqlite3_bind_int64(q, 4, now);
	return exec_stmt(s, q, "invite");
}

int store_invites_to(struct store *s, int64_t user, struct st_invite *out, int max, int *n)
{
	sqlite3_stmt *q = stmt(s, STMT_INVITES_TO);
	int rc;
	*n = 0;
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, user);
	sqlite3_bind_int(q, 2, max);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW && *n < max) {
		struct st_invite *x = &out[(*n)++];
		x->id = sqlite3_column_int64(q, 0);
		x->table_id = sqlite3_column_int64(q, 1);
		copy_col(x->game, sizeof x->game, q, 2);
		copy_col(x->from, sizeof x->from, q, 3);
		x->at = sqlite3_column_int64(q, 4);
	}
	rc = rc == SQLITE_DONE || rc == SQLITE_ROW ? ST_OK : fail(s, "invites to");
	done(q);
	return rc;
}

int store_table_set_rematch(struct store *s, int64_t table, int64_t next)
{
	return table_update(s, STMT_TABLE_SET_REMATCH, table, next, "table set rematch", 1);
}

int store_tables_running(struct store *s, int limit, st_table_fn fn, void *ctx)
{
	sqlite3_stmt *q = stmt(s, STMT_TABLES_RUNNING);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int(q, 1, limit);
	return list_tables(s, q, fn, ctx, "tables running");
}

/* How many tables `user` opened that still wait for players, into *n. */
int store_tables_open_by(struct store *s, int64_t user, int *n)
{
	sqlite3_stmt *q = stmt(s, STMT_TABLES_OPEN_BY);
	int64_t v = 0;
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, user);
	int rc = one_int64(s, q, &v, "tables open by");
	*n = (int)v;
	return rc;
}

int store_tourneys_open_by(struct store *s, int64_t user, int *n)
{
	sqlite3_stmt *q = stmt(s, STMT_TOURNEYS_OPEN_BY);
	int64_t v = 0;
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, user);
	int rc = one_int64(s, q, &v, "tournaments open by");
	*n = (int)v;
	return rc;
}

/* The tables where `user` holds a seat, with that seat's row: unfinished
 * first, newest first. Two reads down the index seats_user_done, the
 * unfinished then the finished ones: one query for both sorted the whole
 * table rows it had read, twice (20k instructions a listed table at /me),
 * and /me read each seat again. */
int store_my_tables(struct store *s, int64_t user, int limit, st_my_table_fn fn, void *ctx)
{
	int n = 0, rc = ST_OK;
	for (int over = 0; over <= 1 && rc == ST_OK && n < limit; over++) {
		sqlite3_stmt *q = stmt(s, STMT_TABLES_OF_USER);
		if (!q)
			return ST_ERR;
		sqlite3_bind_int64(q, 1, user);
		sqlite3_bind_int(q, 2, limit - n);
		sqlite3_bind_int(q, 3, over);
		while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
			struct st_table t;
			struct st_my_seat m;
			read_table(q, &t);
			read_my_seat(q, TABLE_NCOLS + 1, &m);
			n++;
			fn(ctx, &t, sqlite3_column_int(q, TABLE_NCOLS), &m);
		}
		rc = rc == SQLITE_DONE ? ST_OK : fail(s, "tables of user");
		done(q);
	}
	return rc;
}

struct without_seat {
	st_table_fn fn;
	void *ctx;
};

static void drop_seat(void *ctx, const struct st_table *t, int taken, const struct st_my_seat *m)
{
	const struct without_seat *w = ctx;
	(void)m;
	w->fn(w->ctx, t, taken);
}

int store_tables_of_user(struct store *s, int64_t user, int limit, st_table_fn fn, void *ctx)
{
	struct without_seat w = { fn, ctx };
	return store_my_tables(s, user, limit, drop_seat, &w);
}

/* ------------------------------------------------------------------ */
/* The table chat                                                      */

int store_chat_add(struct store *s, int64_t table, int64_t user, const char *text, int64_t at)
{
	sqlite3_stmt *q = stmt(s, STMT_CHAT_ADD);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, table);
	sqlite3_bind_int64(q, 2, user);
	bind_text(q, 3, text);
	sqlite3_bind_int64(q, 4, at);
	return exec_stmt(s, q, "chat add");
}

int store_chat_rate(struct store *s, int64_t table, int64_t user, int64_t after, int *count,
		    int64_t *oldest)
{
	sqlite3_stmt *q = stmt(s, STMT_CHAT_RATE);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, table);
	sqlite3_bind_int64(q, 2, user);
	sqlite3_bind_int64(q, 3, after);
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		*count = sqlite3_column_int(q, 0);
		*oldest = sqlite3_column_int64(q, 1);
		rc = ST_OK;
	} else {
		rc = fail(s, "chat rate");
	}
	done(q);
	return rc;
}

int store_chat_recent(struct store *s, int64_t table, int64_t viewer, int limit, st_chat_fn fn,
		      void *ctx)
{
	struct st_chat m;
	int rc;
	sqlite3_stmt *q = stmt(s, STMT_CHAT_RECENT);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, table);
	sqlite3_bind_int64(q, 2, viewer);
	sqlite3_bind_int(q, 3, limit);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		m.id = sqlite3_column_int64(q, 0);
		m.user_id = sqlite3_column_int64(q, 1);
		copy_col(m.author, sizeof m.author, q, 2);
		m.at = sqlite3_column_int64(q, 3);
		copy_col(m.text, sizeof m.text, q, 4);
		fn(ctx, &m);
	}
	rc = rc == SQLITE_DONE ? ST_OK : fail(s, "chat recent");
	done(q);
	return rc;
}

int store_chat_mute(struct store *s, int64_t table, int64_t user, int64_t muted, int on,
		    int64_t at)
{
	sqlite3_stmt *q = stmt(s, on ? STMT_CHAT_MUTE : STMT_CHAT_UNMUTE);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, user);
	sqlite3_bind_int64(q, 2, muted);
	if (on) {
		sqlite3_bind_int64(q, 3, at);
		sqlite3_bind_int64(q, 4, table);
		return change_table_row(s, q, "chat mute");
	}
	return exec_stmt(s, q, "chat unmute");
}

/* One muted writer, sorted by name in C (store_chat_muted). */
struct muted_row {
	int64_t id;
	char name[ST_NAME_MAX + 1], key[ST_NAME_MAX + 1];
};

static int by_name_key(const void *a, const void *b)
{
	return strcmp(((const struct muted_row *)a)->key, ((const struct muted_row *)b)->key);
}

/* The rows come unsorted and are sorted here: an ORDER BY made SQLite set
 * up a sorter even for the usual empty answer, 25k instructions of every
 * table page a signed-in viewer sees. Only the table's players write there,
 * so MUTED_MAX rows hold every answer. */
int store_chat_muted(struct store *s, int64_t table, int64_t user, int limit, st_muted_fn fn,
		     void *ctx)
{
	enum { MUTED_MAX = 64 };
	struct muted_row rows[MUTED_MAX];
	int n = 0, rc;
	sqlite3_stmt *q = stmt(s, STMT_CHAT_MUTED);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, user);
	sqlite3_bind_int64(q, 2, table);
	sqlite3_bind_int(q, 3, MUTED_MAX);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		rows[n].id = sqlite3_column_int64(q, 0);
		copy_col(rows[n].name, sizeof rows[n].name, q, 1);
		copy_col(rows[n].key, sizeof rows[n].key, q, 2);
		n++;
	}
	rc = rc == SQLITE_DONE ? ST_OK : fail(s, "chat muted");
	done(q);
	if (rc != ST_OK)
		return rc;
	qsort(rows, (size_t)n, sizeof rows[0], by_name_key);
	for (int i = 0; i < n && i < limit; i++)
		fn(ctx, rows[i].id, rows[i].name);
	return ST_OK;
}

int store_table_bump_public(struct store *s, int64_t id, int64_t *newv)
{
	sqlite3_stmt *q = stmt(s, STMT_TABLE_BUMP_PUBLIC);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, id);
	int rc = change_table_row(s, q, "table bump public");
	if (rc == ST_OK && newv)
		rc = table_version(s, id, newv);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Parties and moves                                                   */

int store_party_create(struct store *s, int64_t table, int number, uint64_t seed, int dealer,
		       const unsigned char *snap, size_t len, int64_t now, int64_t *id)
{
	sqlite3_stmt *q = stmt(s, STMT_PARTY_CREATE);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, table);
	sqlite3_bind_int(q, 2, number);
	sqlite3_bind_int64(q, 3, (sqlite3_int64)seed);
	sqlite3_bind_int(q, 4, dealer);
	sqlite3_bind_blob(q, 5, snap, (int)len, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 6, now);
	int rc = exec_stmt(s, q, "party create");
	if (rc == ST_OK && id)
		*id = sqlite3_last_insert_rowid(s->db);
	return rc;
}

/* The result rows of a finished party into p->result (zeros without). */
static int read_results(struct store *s, struct st_party *p)
{
	sqlite3_stmt *q = stmt(s, STMT_RESULTS_OF_PARTY);
	int rc;
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, p->id);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		int seat = sqlite3_column_int(q, 0);
		if (seat < 0 || seat >= GAME_MAX_SEATS)
			continue;   /* the schema's CHECK keeps this from happening */
		p->result.place[seat] = sqlite3_column_int(q, 1);
		p->result.points[seat] = sqlite3_column_int(q, 2);
	}
	rc = rc == SQLITE_DONE ? ST_OK : fail(s, "results of party");
	done(q);
	return rc;
}

/* One row of PARTY_COLS (column 6 is the snapshot or its length), with
 * the party's result rows. */
static int read_party(struct store *s, sqlite3_stmt *q, struct st_party *p)
{
	memset(p, 0, sizeof *p);
	p->id = sqlite3_column_int64(q, 0);
	p->table_id = sqlite3_column_int64(q, 1);
	p->number = sqlite3_column_int(q, 2);
	p->seed = (uint64_t)sqlite3_column_int64(q, 3);
	p->dealer = sqlite3_column_int(q, 4);
	p->over = sqlite3_column_int(q, 5);
	return p->over ? read_results(s, p) : ST_OK;
}

/* ST_ERR when the stored snapshot does not fit `cap` (snap may be NULL with
 * cap 0 to read the row only). */
int store_party_get(struct store *s, int64_t table, int number, struct st_party *p,
		    unsigned char *snap, size_t cap)
{
	sqlite3_stmt *q = stmt(s, number < 0 ? STMT_PARTY_LATEST : STMT_PARTY_GET);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, table);
	if (number >= 0)
		sqlite3_bind_int(q, 2, number);
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		const void *blob = sqlite3_column_blob(q, 6);
		rc = read_party(s, q, p);
		p->snap_len = (size_t)sqlite3_column_bytes(q, 6);
		if (rc != ST_OK) {
			/* (said by read_results) */
		} else if (snap && p->snap_len > cap) {
			fprintf(stderr, "store: party %lld: snapshot of %zu bytes > %zu\n",
				(long long)p->id, p->snap_len, cap);
			rc = ST_ERR;
		} else if (snap && p->snap_len) {
			memcpy(snap, blob, p->snap_len);
		}
	} else {
		rc = rc == SQLITE_DONE ? ST_NOTFOUND : fail(s, "party get");
	}
	done(q);
	return rc;
}

/* Replaces the result rows of a party by r's first nseats seats (none
 * when r is NULL). */
static int put_results(struct store *s, int64_t party, const struct party_result *r,
		       int nseats)
{
	sqlite3_stmt *q = stmt(s, STMT_RESULT_CLEAR);
	int rc;
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, party);
	if ((rc = exec_stmt(s, q, "result clear")) != ST_OK)
		return rc;
	for (int seat = 0; r && seat < nseats && seat < GAME_MAX_SEATS; seat++) {
		if (!(q = stmt(s, STMT_RESULT_PUT)))
			return ST_ERR;
		sqlite3_bind_int64(q, 1, party);
		sqlite3_bind_int(q, 2, seat);
		sqlite3_bind_int(q, 3, r->place[seat]);
		sqlite3_bind_int(q, 4, r->points[seat]);
		if ((rc = exec_stmt(s, q, "result put")) != ST_OK)
			return rc;
	}
	return ST_OK;
}

/* Replaces the snapshot and the over flag of one party, and its result
 * rows: r's when over, none otherwise. */
int store_party_save(struct store *s, int64_t party, const unsigned char *snap, size_t len,
		     int over, const struct party_result *r, int nseats)
{
	sqlite3_stmt *q = stmt(s, STMT_PARTY_SAVE);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, party);
	sqlite3_bind_blob(q, 2, snap, (int)len, SQLITE_TRANSIENT);
	sqlite3_bind_int(q, 3, over ? 1 : 0);
	int rc = exec_stmt(s, q, "party save");
	if (rc == ST_OK && sqlite3_changes(s->db) == 0)
		rc = ST_NOTFOUND;
	if (rc == ST_OK)
		rc = put_results(s, party, over ? r : NULL, nseats);
	return rc;
}

/* Finished parties only, by number; p->snap_len is set, no snapshot. */
int store_parties_of_table(struct store *s, int64_t table, st_party_fn fn, void *ctx)
{
	struct st_party p;
	int rc;
	sqlite3_stmt *q = stmt(s, STMT_PARTIES_OF_TABLE);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, table);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (read_party(s, q, &p) != ST_OK) {
			done(q);
			return ST_ERR;
		}
		p.snap_len = (size_t)sqlite3_column_int64(q, 6);
		fn(ctx, &p);
	}
	rc = rc == SQLITE_DONE ? ST_OK : fail(s, "parties of table");
	done(q);
	return rc;
}

/* seq is the party's next number, chosen in the same statement. Call it
 * inside store_begin() so that the step and the version bump land together. */
int store_move_append(struct store *s, int64_t party, int seat, const char *text, int64_t at,
		      int64_t version)
{
	sqlite3_stmt *q = stmt(s, STMT_MOVE_APPEND);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, party);
	sqlite3_bind_int(q, 2, seat);
	bind_text(q, 3, text);
	sqlite3_bind_int64(q, 4, at);
	sqlite3_bind_int64(q, 5, version);
	int rc = exec_stmt(s, q, "move append");
	if (rc == ST_EXISTS) {
		fprintf(stderr, "store: move append: %s\n", sqlite3_errmsg(s->db));
		rc = ST_ERR;
	}
	return rc;
}

/* Steps an EXISTS query into *yes, then resets it. */
static int exists_row(struct store *s, sqlite3_stmt *q, int *yes, const char *what)
{
	int64_t v = 0;
	int rc = one_int64(s, q, &v, what);
	*yes = (int)v;
	return rc;
}

/* *yes = 1 when the seat logged a step with a version above `after` (one index probe). */
int store_seat_moved_since(struct store *s, int64_t party, int seat, int64_t after, int *yes)
{
	sqlite3_stmt *q = stmt(s, STMT_SEAT_MOVED_SINCE);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, party);
	sqlite3_bind_int(q, 2, seat);
	sqlite3_bind_int64(q, 3, after);
	return exists_row(s, q, yes, "seat moved since");
}

/* *yes = 1 when a deadline passed in the party after version `after` (a
 * step of seat -1 logged as "tick", not a clock's "start"). */
int store_ticked_since(struct store *s, int64_t party, int64_t after, int *yes)
{
	sqlite3_stmt *q = stmt(s, STMT_TICKED_SINCE);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, party);
	sqlite3_bind_int64(q, 2, after);
	return exists_row(s, q, yes, "ticked since");
}

/* The version of the seat's last step in the party into *v (0: none). */
int store_seat_last_version(struct store *s, int64_t party, int seat, int64_t *v)
{
	sqlite3_stmt *q = stmt(s, STMT_SEAT_LAST_VERSION);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, party);
	sqlite3_bind_int(q, 2, seat);
	return one_int64(s, q, v, "seat last version");
}


/* The party's steps with seq > after, in order; each row valid during fn only. */
int store_moves(struct store *s, int64_t party, int64_t after, st_move_fn fn, void *ctx)
{
	struct st_move m;
	int rc;
	sqlite3_stmt *q = stmt(s, STMT_MOVES);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, party);
	sqlite3_bind_int64(q, 2, after);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		m.seq = sqlite3_column_int64(q, 0);
		m.seat = sqlite3_column_int(q, 1);
		m.at = sqlite3_column_int64(q, 2);
		m.version = sqlite3_column_int64(q, 3);
		copy_col(m.text, sizeof m.text, q, 4);
		fn(ctx, &m);
	}
	rc = rc == SQLITE_DONE ? ST_OK : fail(s, "moves");
	done(q);
	return rc;
}

/* How many steps the party has logged. */
int store_move_count(struct store *s, int64_t party, int64_t *n)
{
	sqlite3_stmt *q = stmt(s, STMT_MOVE_COUNT);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, party);
	return one_int64(s, q, n, "move count");
}

/* ------------------------------------------------------------------ */
/* The feed token (009_feed.sql)                                       */

/* A one-row read of the feed of a user (STMT_FEED_GET) or of a token
 * (STMT_FEED_BY_TOKEN): token, user, created_at. */
static int feed_read(struct store *s, enum stmt id, sqlite3_stmt *q, char *token,
		     int64_t *user, int64_t *created_at)
{
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		if (token)
			copy_col(token, ST_FEED_TOKEN_LEN + 1, q, 0);
		if (user)
			*user = sqlite3_column_int64(q, 1);
		if (created_at)
			*created_at = sqlite3_column_int64(q, 2);
		rc = ST_OK;
	} else
		rc = rc == SQLITE_DONE ? ST_NOTFOUND : fail(s, stmt_sql[id]);
	done(q);
	return rc;
}

int store_feed_get(struct store *s, int64_t user, char token[ST_FEED_TOKEN_LEN + 1],
		   int64_t *created_at)
{
	sqlite3_stmt *q = stmt(s, STMT_FEED_GET);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, user);
	return feed_read(s, STMT_FEED_GET, q, token, NULL, created_at);
}

int store_feed_user(struct store *s, const char *token, int64_t *user, int64_t *created_at)
{
	sqlite3_stmt *q = stmt(s, STMT_FEED_BY_TOKEN);
	if (!q)
		return ST_ERR;
	bind_text(q, 1, token);
	return feed_read(s, STMT_FEED_BY_TOKEN, q, NULL, user, created_at);
}

int store_feed_set(struct store *s, int64_t user, const char *token, int64_t now, int replace)
{
	sqlite3_stmt *q = stmt(s, replace ? STMT_FEED_REPLACE : STMT_FEED_CREATE);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, user);
	bind_text(q, 2, token);
	sqlite3_bind_int64(q, 3, now);
	return exec_stmt(s, q, "feed set");
}

int store_party_step_at(struct store *s, int64_t party, int64_t upto, int64_t *at)
{
	sqlite3_stmt *q = stmt(s, STMT_PARTY_STEP_AT);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, party);
	sqlite3_bind_int64(q, 2, upto);
	return one_int64(s, q, at, "party step at");
}

/* ------------------------------------------------------------------ */
/* Profiles                                                            */

int store_profile_games(struct store *s, int64_t user, st_game_count_fn fn, void *ctx)
{
	int rc;
	sqlite3_stmt *q = stmt(s, STMT_PROFILE_GAMES);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, user);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		char game[ST_SLUG_MAX + 1];
		copy_col(game, sizeof game, q, 0);
		fn(ctx, game, sqlite3_column_int(q, 1));
	}
	rc = rc == SQLITE_DONE ? ST_OK : fail(s, "profile games");
	done(q);
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
		copy_col(f->game, sizeof f->game, q, 2);
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
	sqlite3_stmt *q = stmt(s, STMT_PROFILE_FINISHED);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, user);
	sqlite3_bind_int(q, 2, limit < 0 ? -1 : limit);
	memset(&f, 0, sizeof f);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (f.table_id && f.table_id != sqlite3_column_int64(q, 0))
			fn(ctx, &f);
		finished_row(q, &f);
	}
	if (rc == SQLITE_DONE && f.table_id)
		fn(ctx, &f);
	rc = rc == SQLITE_DONE ? ST_OK : fail(s, "profile finished");
	done(q);
	return rc;
}

/* ------------------------------------------------------------------ */
/* E-mail notices (012_mail.sql)                                        */

/* One row of mail_prefs (address, mode, token[, user_id]) into out. */
static int mail_prefs_row(struct store *s, sqlite3_stmt *q, struct st_mail_prefs *out,
			  int64_t *user, const char *what)
{
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		copy_col(out->address, sizeof out->address, q, 0);
		out->mode = sqlite3_column_int(q, 1);
		copy_col(out->token, sizeof out->token, q, 2);
		if (user)
			*user = sqlite3_column_int64(q, 3);
		rc = ST_OK;
	} else
		rc = rc == SQLITE_DONE ? ST_NOTFOUND : fail(s, what);
	done(q);
	return rc;
}

int store_mail_prefs(struct store *s, int64_t user, struct st_mail_prefs *out)
{
	sqlite3_stmt *q = stmt(s, STMT_MAIL_PREFS);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, user);
	return mail_prefs_row(s, q, out, NULL, "mail prefs");
}

int store_mail_prefs_set(struct store *s, int64_t user, const char *address, int mode,
			 const char *token)
{
	sqlite3_stmt *q = stmt(s, STMT_MAIL_PREFS_SET);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, user);
	bind_text(q, 2, address);
	sqlite3_bind_int(q, 3, mode);
	bind_text(q, 4, token);
	return exec_stmt(s, q, "mail prefs set");
}

int store_mail_off(struct store *s, const char *token, int64_t *user)
{
	sqlite3_stmt *q = stmt(s, STMT_MAIL_OFF);
	if (!q)
		return ST_ERR;
	bind_text(q, 1, token);
	return one_int64(s, q, user, "mail off");
}

int store_mail_by_token(struct store *s, const char *token, int64_t *user,
			struct st_mail_prefs *out)
{
	sqlite3_stmt *q = stmt(s, STMT_MAIL_BY_TOKEN);
	if (!q)
		return ST_ERR;
	bind_text(q, 1, token);
	return mail_prefs_row(s, q, out, user, "mail by token");
}

int store_mail_turn(struct store *s, int64_t table, int64_t user, int64_t now)
{
	sqlite3_stmt *q = stmt(s, STMT_MAIL_TURN);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, table);
	sqlite3_bind_int64(q, 2, user);
	sqlite3_bind_int64(q, 3, now);
	return exec_stmt(s, q, "mail turn");
}

int store_mail_digest_due(struct store *s, int64_t now, int64_t *ids, int max, int *n)
{
	return list_ids(s, STMT_MAIL_DIGEST_DUE, now, ids, max, n, "mail digest due");
}

int store_mail_digest_queue(struct store *s, int64_t user, int64_t now, int64_t next)
{
	sqlite3_stmt *q = stmt(s, STMT_MAIL_DIGEST_QUEUE);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, user);
	sqlite3_bind_int64(q, 2, now);
	int rc = exec_stmt(s, q, "mail digest queue");
	return rc == ST_OK ? table_update(s, STMT_MAIL_DIGEST_NEXT, user, next, "mail digest next",
					  0) : rc;
}

int store_mail_due(struct store *s, int64_t now, struct st_mail *out, int max, int *n)
{
	int rc;
	sqlite3_stmt *q = stmt(s, STMT_MAIL_DUE);
	*n = 0;
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, now);
	sqlite3_bind_int(q, 2, max);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW && *n < max) {
		struct st_mail *m = &out[(*n)++];
		m->id = sqlite3_column_int64(q, 0);
		m->user_id = sqlite3_column_int64(q, 1);
		m->table_id = sqlite3_column_int64(q, 2);
		m->kind = sqlite3_column_int(q, 3);
		m->attempts = sqlite3_column_int(q, 4);
		m->created_at = sqlite3_column_int64(q, 5);
		m->mode = sqlite3_column_int(q, 6);
		copy_col(m->name, sizeof m->name, q, 7);
		copy_col(m->address, sizeof m->address, q, 8);
		copy_col(m->token, sizeof m->token, q, 9);
		copy_col(m->lang, sizeof m->lang, q, 10);
	}
	rc = rc == SQLITE_DONE || rc == SQLITE_ROW ? ST_OK : fail(s, "mail due");
	done(q);
	return rc;
}

int store_mail_acting(struct store *s, int64_t user, int64_t table, int *yes)
{
	sqlite3_stmt *q = stmt(s, STMT_MAIL_ACTING);
	int64_t v = 0;
	*yes = 0;
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, user);
	sqlite3_bind_int64(q, 2, table);
	int rc = one_int64(s, q, &v, "mail acting");
	*yes = v > 0;
	return rc;
}

int store_mail_acting_tables(struct store *s, int64_t user, int max, st_table_fn fn,
			     void *ctx)
{
	sqlite3_stmt *q = stmt(s, STMT_MAIL_ACTING_TABLES);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, user);
	sqlite3_bind_int(q, 2, max);
	return list_tables(s, q, fn, ctx, "mail acting tables");
}

int store_mail_done(struct store *s, int64_t id, int state, int64_t now)
{
	sqlite3_stmt *q = stmt(s, STMT_MAIL_DONE);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, id);
	sqlite3_bind_int(q, 2, state);
	sqlite3_bind_int64(q, 3, now);
	return exec_stmt(s, q, "mail done");
}

int store_mail_retry(struct store *s, int64_t id, int64_t next_try)
{
	return table_update(s, STMT_MAIL_RETRY, id, next_try, "mail retry", 0);
}

int store_mail_purge(struct store *s, int64_t before)
{
	sqlite3_stmt *q = stmt(s, STMT_MAIL_PURGE);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, before);
	return exec_stmt(s, q, "mail purge");
}

/* ------------------------------------------------------------------ */
/* Tournaments (014_tournaments.sql)                                   */

int store_tourney_create(struct store *s, const struct st_tourney *t, int64_t *id)
{
	sqlite3_stmt *q = stmt(s, STMT_TOURNEY_CREATE);
	if (!q)
		return ST_ERR;
	bind_text(q, 1, t->name);
	bind_text(q, 2, t->game);
	bind_text(q, 3, t->options);
	sqlite3_bind_int(q, 4, t->format);
	sqlite3_bind_int(q, 5, t->seats);
	sqlite3_bind_int(q, 6, t->min_seats);
	sqlite3_bind_int(q, 7, t->rounds);
	sqlite3_bind_int(q, 8, t->advance);
	bind_text(q, 9, t->points);
	bind_text(q, 10, t->tiebreaks);
	sqlite3_bind_int64(q, 11, t->clock.first_ms);
	sqlite3_bind_int64(q, 12, t->clock.per_move_ms);
	sqlite3_bind_int64(q, 13, t->clock.cap_ms);
	sqlite3_bind_int64(q, 14, t->clock.day_ms > 0 ? t->clock.day_ms : 86400000);
	sqlite3_bind_int(q, 15, t->clock.weekend);
	sqlite3_bind_int(q, 16, t->clock.windows);
	sqlite3_bind_int(q, 17, t->timeouts_max);
	sqlite3_bind_int64(q, 18, t->register_until);
	sqlite3_bind_int64(q, 19, t->starts_at);
	sqlite3_bind_int64(q, 20, t->seed);
	if (t->created_by > 0)
		sqlite3_bind_int64(q, 21, t->created_by);
	sqlite3_bind_int64(q, 22, t->created_at);
	int rc = exec_stmt(s, q, "tourney create");
	if (rc == ST_OK && id)
		*id = sqlite3_last_insert_rowid(s->db);
	return rc;
}

/* One row of TOURNEY_COLS. */
static void read_tourney(sqlite3_stmt *q, struct st_tourney *t)
{
	memset(t, 0, sizeof *t);
	t->id = sqlite3_column_int64(q, 0);
	copy_col(t->name, sizeof t->name, q, 1);
	copy_col(t->game, sizeof t->game, q, 2);
	copy_col(t->options, sizeof t->options, q, 3);
	t->format = sqlite3_column_int(q, 4);
	t->seats = sqlite3_column_int(q, 5);
	t->min_seats = sqlite3_column_int(q, 6);
	t->rounds = sqlite3_column_int(q, 7);
	t->advance = sqlite3_column_int(q, 8);
	copy_col(t->points, sizeof t->points, q, 9);
	copy_col(t->tiebreaks, sizeof t->tiebreaks, q, 10);
	t->clock.first_ms = sqlite3_column_int64(q, 11);
	t->clock.per_move_ms = sqlite3_column_int64(q, 12);
	t->clock.cap_ms = sqlite3_column_int64(q, 13);
	t->clock.day_ms = sqlite3_column_int64(q, 14);
	t->clock.weekend = sqlite3_column_int(q, 15);
	t->clock.windows = sqlite3_column_int(q, 16);
	t->timeouts_max = sqlite3_column_int(q, 17);
	t->register_until = sqlite3_column_int64(q, 18);
	t->starts_at = sqlite3_column_int64(q, 19);
	int st = sqlite3_column_int(q, 20);
	t->status = st >= 0 && st < TOURNEY_STATUS__MAX ? (enum st_tourney_status)st
							  : TOURNEY_FINISHED;
	t->round = sqlite3_column_int(q, 21);
	t->seed = sqlite3_column_int64(q, 22);
	t->version = sqlite3_column_int64(q, 23);
	t->created_by = sqlite3_column_int64(q, 24);
	t->created_at = sqlite3_column_int64(q, 25);
	copy_col(t->organiser, sizeof t->organiser, q, 26);
	t->players = sqlite3_column_int(q, 27);
	t->entrants = sqlite3_column_int(q, 28);
}

int store_tourney_get(struct store *s, int64_t id, struct st_tourney *t)
{
	sqlite3_stmt *q = stmt(s, STMT_TOURNEY_GET);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, id);
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		read_tourney(q, t);
		rc = ST_OK;
	} else {
		rc = rc == SQLITE_DONE ? ST_NOTFOUND : fail(s, "tourney get");
	}
	done(q);
	return rc;
}

/* Runs an UPDATE of one row bound to (id, a, b); ST_NOTFOUND when it
 * changed none. */
static int update_two(struct store *s, enum stmt which, int64_t id, int64_t a, int64_t b,
		      const char *what)
{
	sqlite3_stmt *q = stmt(s, which);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, id);
	sqlite3_bind_int64(q, 2, a);
	sqlite3_bind_int64(q, 3, b);
	int rc = exec_stmt(s, q, what);
	return rc == ST_OK && sqlite3_changes(s->db) == 0 ? ST_NOTFOUND : rc;
}

int store_tourney_set_state(struct store *s, int64_t id, enum st_tourney_status st, int round)
{
	return update_two(s, STMT_TOURNEY_SET_STATE, id, st, round, "tourney set state");
}

int store_tourney_bump(struct store *s, int64_t id)
{
	return table_update(s, STMT_TOURNEY_BUMP, id, 0, "tourney bump", 1);
}

int store_tourney_started(struct store *s, int64_t id, int64_t now)
{
	return table_update(s, STMT_TOURNEY_STARTED, id, now, "tourney started", 1);
}

/* Rows of TOURNEY_COLS into fn. */
static int list_tourneys(struct store *s, sqlite3_stmt *q, st_tourney_fn fn, void *ctx,
			 const char *what)
{
	struct st_tourney t;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		read_tourney(q, &t);
		fn(ctx, &t);
	}
	rc = rc == SQLITE_DONE ? ST_OK : fail(s, what);
	done(q);
	return rc;
}

int store_tourneys_list(struct store *s, int limit, st_tourney_fn fn, void *ctx)
{
	sqlite3_stmt *q = stmt(s, STMT_TOURNEYS_LIST);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int(q, 1, limit);
	return list_tourneys(s, q, fn, ctx, "tourneys list");
}

int store_tourneys_of_user(struct store *s, int64_t user, int limit, st_tourney_fn fn,
			   void *ctx)
{
	sqlite3_stmt *q = stmt(s, STMT_TOURNEYS_OF_USER);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, user);
	sqlite3_bind_int(q, 2, limit);
	return list_tourneys(s, q, fn, ctx, "tourneys of user");
}

int store_tourneys_due(struct store *s, int64_t now, int64_t *ids, int max, int *n)
{
	return list_ids(s, STMT_TOURNEYS_DUE, now, ids, max, n, "tourneys due");
}

int store_tplayer_add(struct store *s, int64_t t, int64_t user, int64_t now)
{
	sqlite3_stmt *q = stmt(s, STMT_TPLAYER_ADD);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, t);
	sqlite3_bind_int64(q, 2, user);
	sqlite3_bind_int64(q, 3, now);
	int rc = exec_stmt(s, q, "tplayer add");
	return rc == ST_OK ? update_two(s, STMT_TOURNEY_COUNT, t, 1, 1, "tourney count") : rc;
}

int store_tplayer_delete(struct store *s, int64_t t, int64_t user)
{
	sqlite3_stmt *q = stmt(s, STMT_TPLAYER_DELETE);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, t);
	sqlite3_bind_int64(q, 2, user);
	int rc = exec_stmt(s, q, "tplayer delete");
	if (rc == ST_OK && sqlite3_changes(s->db) == 0)
		return ST_NOTFOUND;
	return rc == ST_OK ? update_two(s, STMT_TOURNEY_COUNT, t, -1, -1, "tourney count") : rc;
}

/* An UPDATE of one player bound to (t, user, a, b); ST_NOTFOUND: none. */
static int tplayer_update(struct store *s, enum stmt which, int64_t t, int64_t user, int a,
			  int b, const char *what)
{
	sqlite3_stmt *q = stmt(s, which);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, t);
	sqlite3_bind_int64(q, 2, user);
	sqlite3_bind_int(q, 3, a);
	sqlite3_bind_int(q, 4, b);
	int rc = exec_stmt(s, q, what);
	return rc == ST_OK && sqlite3_changes(s->db) == 0 ? ST_NOTFOUND : rc;
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
static void read_tplayer(sqlite3_stmt *q, struct st_tplayer *x)
{
	x->user_id = sqlite3_column_int64(q, 0);
	copy_col(x->name, sizeof x->name, q, 1);
	x->registered_at = sqlite3_column_int64(q, 2);
	x->left_how = sqlite3_column_int(q, 3);
	x->left_round = sqlite3_column_int(q, 4);
	x->out_round = sqlite3_column_int(q, 5);
	x->grp = sqlite3_column_int(q, 6);
	x->gpos = sqlite3_column_int(q, 7);
}

int store_tplayer_get(struct store *s, int64_t t, int64_t user, struct st_tplayer *out)
{
	sqlite3_stmt *q = stmt(s, STMT_TPLAYER_GET);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, t);
	sqlite3_bind_int64(q, 2, user);
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		read_tplayer(q, out);
		rc = ST_OK;
	} else {
		rc = rc == SQLITE_DONE ? ST_NOTFOUND : fail(s, "tplayer get");
	}
	done(q);
	return rc;
}

int store_tplayers(struct store *s, int64_t t, struct st_tplayer *out, int max, int *n)
{
	sqlite3_stmt *q = stmt(s, STMT_TPLAYERS);
	int rc;
	if (!q)
		return ST_ERR;
	*n = 0;
	sqlite3_bind_int64(q, 1, t);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (*n >= max) {
			(*n)++;
			continue;
		}
		read_tplayer(q, &out[(*n)++]);
	}
	rc = rc == SQLITE_DONE ? ST_OK : fail(s, "tplayers");
	done(q);
	return rc;
}

int store_ttable_add(struct store *s, int64_t t, int round, int number, int64_t table_id)
{
	sqlite3_stmt *q = stmt(s, STMT_TTABLE_ADD);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, t);
	sqlite3_bind_int(q, 2, round);
	sqlite3_bind_int(q, 3, number);
	sqlite3_bind_int64(q, 4, table_id);
	return exec_stmt(s, q, "ttable add");
}

int store_ttable_of(struct store *s, int64_t table_id, int64_t *t, int *round, int *number,
		    int *isdone)
{
	sqlite3_stmt *q = stmt(s, STMT_TTABLE_OF);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, table_id);
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		*t = sqlite3_column_int64(q, 0);
		*round = sqlite3_column_int(q, 1);
		*number = sqlite3_column_int(q, 2);
		*isdone = sqlite3_column_int(q, 3);
		rc = ST_OK;
	} else {
		rc = rc == SQLITE_DONE ? ST_NOTFOUND : fail(s, "ttable of");
	}
	done(q);
	return rc;
}

int store_ttable_done(struct store *s, int64_t table_id)
{
	sqlite3_stmt *q = stmt(s, STMT_TTABLE_DONE);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, table_id);
	int rc = exec_stmt(s, q, "ttable done");
	return rc == ST_OK && sqlite3_changes(s->db) == 0 ? ST_EXISTS : rc;
}

/* One count of a round's tables by statement `which`. */
static int round_count(struct store *s, enum stmt which, int64_t t, int round, int *n)
{
	sqlite3_stmt *q = stmt(s, which);
	int64_t v = 0;
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, t);
	sqlite3_bind_int(q, 2, round);
	int rc = one_int64(s, q, &v, stmt_sql[which]);
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

/* Rows of STMT_TTABLES / STMT_TROUND_TABLES into fn. */
static int list_ttables(struct store *s, sqlite3_stmt *q, st_ttable_fn fn, void *ctx,
			const char *what)
{
	struct st_ttable x;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		x.round = sqlite3_column_int(q, 0);
		x.number = sqlite3_column_int(q, 1);
		x.table_id = sqlite3_column_int64(q, 2);
		x.done = sqlite3_column_int(q, 3);
		int st = sqlite3_column_int(q, 4);
		x.status = st >= 0 && st < TABLE_STATUS__MAX ? (enum st_table_status)st
							     : TABLE_FINISHED;
		x.party_no = sqlite3_column_int(q, 5);
		x.nparties = sqlite3_column_int(q, 6);
		fn(ctx, &x);
	}
	rc = rc == SQLITE_DONE ? ST_OK : fail(s, what);
	done(q);
	return rc;
}

int store_ttables(struct store *s, int64_t t, st_ttable_fn fn, void *ctx)
{
	sqlite3_stmt *q = stmt(s, STMT_TTABLES);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, t);
	return list_ttables(s, q, fn, ctx, "ttables");
}

/* Binds (tournament, round, first, last) to q. */
static void bind_round(sqlite3_stmt *q, int64_t t, const struct st_tround *r)
{
	sqlite3_bind_int64(q, 1, t);
	sqlite3_bind_int(q, 2, r->round);
	sqlite3_bind_int(q, 3, r->first);
	sqlite3_bind_int(q, 4, r->last);
}

int store_tround_tables(struct store *s, int64_t t, const struct st_tround *r, st_ttable_fn fn,
			void *ctx)
{
	sqlite3_stmt *q = stmt(s, STMT_TROUND_TABLES);
	if (!q)
		return ST_ERR;
	bind_round(q, t, r);
	return list_ttables(s, q, fn, ctx, "tround tables");
}

int store_tresult_put(struct store *s, int64_t t, const struct st_tresult *r)
{
	sqlite3_stmt *q = stmt(s, STMT_TRESULT_PUT);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, t);
	sqlite3_bind_int(q, 2, r->round);
	sqlite3_bind_int64(q, 3, r->user_id);
	sqlite3_bind_int(q, 4, r->table_no);
	sqlite3_bind_int64(q, 5, r->table_id);
	sqlite3_bind_int(q, 6, r->seat);
	sqlite3_bind_int(q, 7, r->place);
	sqlite3_bind_int(q, 8, r->points);
	sqlite3_bind_int(q, 9, r->party_points);
	return exec_stmt(s, q, "tresult put");
}

/* Rows of STMT_TRESULTS / STMT_TROUND_RESULTS into fn. */
static int list_tresults(struct store *s, sqlite3_stmt *q, st_tresult_fn fn, void *ctx,
			 const char *what)
{
	struct st_tresult r;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		r.round = sqlite3_column_int(q, 0);
		r.user_id = sqlite3_column_int64(q, 1);
		r.table_no = sqlite3_column_int(q, 2);
		r.table_id = sqlite3_column_int64(q, 3);
		r.seat = sqlite3_column_int(q, 4);
		r.place = sqlite3_column_int(q, 5);
		r.points = sqlite3_column_int(q, 6);
		r.party_points = sqlite3_column_int(q, 7);
		copy_col(r.name, sizeof r.name, q, 8);
		fn(ctx, &r);
	}
	rc = rc == SQLITE_DONE ? ST_OK : fail(s, what);
	done(q);
	return rc;
}

int store_tresults(struct store *s, int64_t t, st_tresult_fn fn, void *ctx)
{
	sqlite3_stmt *q = stmt(s, STMT_TRESULTS);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, t);
	return list_tresults(s, q, fn, ctx, "tresults");
}

int store_tround_results(struct store *s, int64_t t, const struct st_tround *r,
			 st_tresult_fn fn, void *ctx)
{
	sqlite3_stmt *q = stmt(s, STMT_TROUND_RESULTS);
	if (!q)
		return ST_ERR;
	bind_round(q, t, r);
	return list_tresults(s, q, fn, ctx, "tround results");
}

int store_tourney_poll(struct store *s, int64_t id, int64_t *version, int64_t *deadline)
{
	sqlite3_stmt *q = stmt(s, STMT_TOURNEY_POLL);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, id);
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		*version = sqlite3_column_int64(q, 0);
		*deadline = sqlite3_column_int64(q, 1);
		rc = ST_OK;
	} else {
		rc = rc == SQLITE_DONE ? ST_NOTFOUND : fail(s, "tourney poll");
	}
	done(q);
	return rc;
}

int store_tstandings_replace(struct store *s, int64_t t, const struct st_tstanding *rows, int n)
{
	sqlite3_stmt *q = stmt(s, STMT_TSTANDINGS_CLEAR);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, t);
	int rc = exec_stmt(s, q, "tstandings clear");
	for (int i = 0; rc == ST_OK && i < n; i++) {
		const struct st_tstanding *x = &rows[i];
		if (!(q = stmt(s, STMT_TSTANDING_PUT)))
			return ST_ERR;
		sqlite3_bind_int64(q, 1, t);
		sqlite3_bind_int(q, 2, x->rank_order);
		sqlite3_bind_int64(q, 3, x->user_id);
		sqlite3_bind_int(q, 4, x->place);
		sqlite3_bind_int(q, 5, x->points);
		sqlite3_bind_int(q, 6, x->party_points);
		sqlite3_bind_int(q, 7, x->sb2);
		sqlite3_bind_int(q, 8, x->played);
		sqlite3_bind_int(q, 9, x->byes);
		bind_text(q, 10, x->name);
		sqlite3_bind_int(q, 11, x->left_how);
		sqlite3_bind_int(q, 12, x->left_round);
		sqlite3_bind_int(q, 13, x->out_round);
		rc = exec_stmt(s, q, "tstanding put");
	}
	return rc;
}

/* One row of TSTANDING_COLS. */
static void read_tstanding(sqlite3_stmt *q, struct st_tstanding *x)
{
	x->rank_order = sqlite3_column_int(q, 0);
	x->user_id = sqlite3_column_int64(q, 1);
	copy_col(x->name, sizeof x->name, q, 2);
	x->place = sqlite3_column_int(q, 3);
	x->points = sqlite3_column_int(q, 4);
	x->party_points = sqlite3_column_int(q, 5);
	x->sb2 = sqlite3_column_int(q, 6);
	x->played = sqlite3_column_int(q, 7);
	x->byes = sqlite3_column_int(q, 8);
	x->left_how = sqlite3_column_int(q, 9);
	x->left_round = sqlite3_column_int(q, 10);
	x->out_round = sqlite3_column_int(q, 11);
}

int store_tstandings(struct store *s, int64_t t, int from, int limit, st_tstanding_fn fn,
		     void *ctx)
{
	sqlite3_stmt *q = stmt(s, STMT_TSTANDINGS);
	struct st_tstanding x;
	int rc;
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, t);
	sqlite3_bind_int(q, 2, from);
	sqlite3_bind_int(q, 3, limit);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		read_tstanding(q, &x);
		fn(ctx, &x);
	}
	rc = rc == SQLITE_DONE ? ST_OK : fail(s, "tstandings");
	done(q);
	return rc;
}

int store_tstanding_of(struct store *s, int64_t t, int64_t user, struct st_tstanding *out)
{
	sqlite3_stmt *q = stmt(s, STMT_TSTANDING_OF);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, t);
	sqlite3_bind_int64(q, 2, user);
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		read_tstanding(q, out);
		rc = ST_OK;
	} else {
		rc = rc == SQLITE_DONE ? ST_NOTFOUND : fail(s, "tstanding of");
	}
	done(q);
	return rc;
}

int store_tround_seats(struct store *s, int64_t t, const struct st_tround *r, st_tseat_fn fn,
		       void *ctx)
{
	sqlite3_stmt *q = stmt(s, STMT_TROUND_SEATS);
	int rc;
	if (!q)
		return ST_ERR;
	bind_round(q, t, r);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		struct st_tseat x;
		x.number = sqlite3_column_int(q, 0);
		x.seat = sqlite3_column_int(q, 1);
		copy_col(x.name, sizeof x.name, q, 2);
		x.bot = sqlite3_column_int(q, 3);
		x.resigned = sqlite3_column_int(q, 4);
		x.user_id = sqlite3_column_int64(q, 5);
		fn(ctx, &x);
	}
	rc = rc == SQLITE_DONE ? ST_OK : fail(s, "tround seats");
	done(q);
	return rc;
}

int store_tmy_table(struct store *s, int64_t t, int round, int64_t user, int64_t *table)
{
	sqlite3_stmt *q = stmt(s, STMT_TMY_TABLE);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, t);
	sqlite3_bind_int(q, 2, round);
	sqlite3_bind_int64(q, 3, user);
	return one_int64(s, q, table, "tmy table");
}

int store_table_tourney(struct store *s, int64_t table, struct st_table_tourney *out)
{
	sqlite3_stmt *q = stmt(s, STMT_TABLE_TOURNEY);
	if (!q)
		return ST_ERR;
	sqlite3_bind_int64(q, 1, table);
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		out->id = sqlite3_column_int64(q, 0);
		copy_col(out->name, sizeof out->name, q, 1);
		out->round = sqlite3_column_int(q, 2);
		out->number = sqlite3_column_int(q, 3);
		rc = ST_OK;
	} else {
		rc = rc == SQLITE_DONE ? ST_NOTFOUND : fail(s, "table tourney");
	}
	done(q);
	return rc;
}
