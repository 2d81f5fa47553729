/*
 * store.h — the only module that speaks SQL (cgi/store/). One connection per
 * FastCGI worker, opened after the fork: WAL, synchronous=NORMAL, a busy
 * timeout, foreign keys on, every statement prepared once and kept in one
 * table, every value bound. Writes run inside store_begin() (BEGIN IMMEDIATE)
 * … store_commit()/store_rollback().
 *
 * Return codes: ST_OK, or one of the others; ST_ERR is logged to stderr with
 * SQLite's message and means "500". They are names of the project's one
 * space of result codes (rc.h): the engine passes them on as they are.
 */
#ifndef SPIELTISCH_STORE_H
#define SPIELTISCH_STORE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "clock.h"
#include "game.h"
#include "match.h"
#include "rc.h"

/* ST_FULL: the disk (or the database's page limit) is full: nothing was
 * written, and it is not the request's fault (a 503). */
enum st_rc {
	ST_OK = RC_OK, ST_NOTFOUND = RC_NOTFOUND, ST_EXISTS = RC_EXISTS, ST_CONFLICT = RC_CONFLICT,
	ST_BUSY = RC_BUSY, ST_ERR = RC_ERR, ST_FULL = RC_FULL
};

/* ST_NAME_MAX is in bytes: a name has at most 24 characters (auth.h), each
 * a Latin letter of at most two bytes in UTF-8. */
enum { ST_NAME_MAX = 48, ST_SLUG_MAX = 32, ST_OPTS_MAX = 256, ST_HASH_MAX = 128,
       ST_CSRF_LEN = 43, ST_LANG_MAX = 7 };

struct store;

/* Opens (creating) the database and applies every schema/NNN_*.sql not yet
 * applied (tracked in PRAGMA user_version), in order, each in a transaction.
 * A db_path of postgresql://… (or postgres://…) opens PostgreSQL instead
 * and applies schema/pg/NNN_*.sql (tracked in its table schema_migrations);
 * any other is SQLite's file. */
int store_open(struct store **out, const char *db_path, const char *schema_dir);
/* Whether db_path names a PostgreSQL server (no file of this machine). */
int store_is_postgres(const char *db_path);
void store_close(struct store *s);

/* BEGIN IMMEDIATE, after taking the lock file "<db>-writer" (flock) that
 * serialises the writers of all processes; store_commit()/store_rollback()
 * release it. ST_BUSY when the lock file or SQLite's lock stayed taken for
 * 5 s (another process holding it): a 503 "try again", never an endless wait. */
int store_begin(struct store *s);
/* A write transaction that changes one table (its moves, its deadlines,
 * its bots): on SQLite store_begin() itself. On PostgreSQL it waits only
 * for the writers of the same table (the table's row FOR UPDATE, under a
 * site-wide lock taken shared, which store_begin() takes exclusive):
 * writers of other tables run at the same time. The first of two writers
 * of one table to commit wins; the second then reads its change. What it
 * reads of other tables is read committed: before reading what the
 * transactions of other tables also write, it takes store_lock_cross(). */
int store_begin_table(struct store *s, int64_t table);
/* Inside store_begin_table(): waits until no other such transaction holds
 * the cross-table lock (ratings, a tournament's results and rounds: what a
 * table's end writes), and holds it to the transaction's end, so that those
 * reads see every earlier end and no two ends write them at once. Inside
 * store_begin() and on SQLite: nothing to wait for (ST_OK). ST_BUSY on a
 * deadlock or past the lock timeout: the caller rolls back, nothing stays. */
int store_lock_cross(struct store *s);
/* BEGIN (deferred): a read transaction, so that several reads see one
 * consistent state; end it with store_commit() or store_rollback(). */
int store_begin_read(struct store *s);
int store_commit(struct store *s);
void store_rollback(struct store *s);
/* 1 when this connection is inside a transaction (SQLite says so: not in
 * autocommit) or holds the writer lock; 0 between requests, always. */
int store_in_transaction(const struct store *s);
/* What the dispatcher calls after every request: rolls back a transaction
 * the request left open and releases the writer lock; 1 when there was one
 * (a bug of the handler), 0 when nothing was open. */
int store_end_request(struct store *s);

/* ---- maintenance: what is not data, behind one call ----
 * ST_MAINT_WORKER: a worker's connection; SQLite checkpoints on commit only
 *   as a backstop (a WAL past 1 GiB: the checkpointer is gone).
 * ST_MAINT_CHECKPOINTER: the checkpointer's connection; never on commit.
 * ST_MAINT_CHECKPOINT: the checkpointer's round (server.c, twenty times a
 *   second): passive checkpoints while they leave much behind, and once
 *   the WAL is past 256 MiB the short rest under the writer lock, so that
 *   the WAL starts over; m->wal_pages and m->left_pages: the WAL after it.
 *   m->stop (may be NULL): checked between the checkpoints of a round.
 * ST_MAINT_LIMIT_PAGES: caps the database at m->pages pages for this
 *   connection (PRAGMA max_page_count; at least the pages in use): a write
 *   needing more fails with ST_FULL, as on a full disk. For tests and an
 *   operator's quota; m->pages gets the cap in effect.
 * ST_MAINT_MEMORY: the store's heap of this process (s may be NULL): the
 *   bytes held now (m->held) and the most since the last such call (m->peak),
 *   which starts the next peak.
 * ST_MAINT_ONE_THREAD: this process calls the store from one thread only
 *   (the server's processes, s NULL): SQLite then takes no mutex around
 *   its calls and allocations (4k instructions of a table page's read),
 *   and its heap is counted by the store, not by SQLite's statistics
 *   (3k more; ST_MAINT_MEMORY reads either).
 *   Before the first store_open() of the process, else without effect.
 * m may be NULL for the first two and the last. */
enum st_maint_op {
	ST_MAINT_WORKER,
	ST_MAINT_CHECKPOINTER,
	ST_MAINT_CHECKPOINT,
	ST_MAINT_LIMIT_PAGES,
	ST_MAINT_MEMORY,
	ST_MAINT_ONE_THREAD
};
struct st_maint {
	int64_t pages;                 /* LIMIT_PAGES: the cap asked; then the one in effect */
	int64_t held, peak;            /* MEMORY */
	int wal_pages, left_pages;     /* CHECKPOINT */
	const volatile sig_atomic_t *stop;   /* CHECKPOINT: set when the process is told to stop */
};
int store_maintain(struct store *s, enum st_maint_op op, struct st_maint *m);

/* ---- users ---- */
struct st_user {
	int64_t id;
	char name[ST_NAME_MAX + 1];
	char pwhash[ST_HASH_MAX + 1];
	int64_t created_at;              /* ms: member since */
};
int store_user_create(struct store *s, const char *name, const char *pwhash,
		      int64_t now, int64_t *id);                  /* ST_EXISTS: name taken (case-insensitive) */
int store_user_by_name(struct store *s, const char *name, struct st_user *u);
int store_user_by_id(struct store *s, int64_t id, struct st_user *u);
int store_user_set_lang(struct store *s, int64_t id, const char *code);

/* ---- sessions: only the SHA-256 of the token is stored ---- */
struct st_session {
	int64_t user_id;
	char csrf[ST_CSRF_LEN + 1];
	int64_t expires;
	char name[ST_NAME_MAX + 1];      /* the user's */
	char lang[ST_LANG_MAX + 1];      /* the user's language, "" none chosen */
};
int store_session_create(struct store *s, const unsigned char hash[32], int64_t user_id,
			 const char *csrf, int64_t expires);
/* ST_NOTFOUND when unknown or expired at `now`. */
int store_session_get(struct store *s, const unsigned char hash[32], int64_t now,
		      struct st_session *out);
int store_session_delete(struct store *s, const unsigned char hash[32]);
int store_session_purge(struct store *s, int64_t now);   /* expired ones */

/* ---- failed logins, per name, for slowing down guessing ---- */
int store_login_failed(struct store *s, const char *name, int64_t now);
/* Failures for `name` since `since`. */
int store_login_failures(struct store *s, const char *name, int64_t since, int *count);
int store_login_clear(struct store *s, const char *name);
/* Like store_login_failures, and the time of the latest one in *last (0: none). */
int store_login_failures_last(struct store *s, const char *name, int64_t since, int *count,
			      int64_t *last);
/* Forgets failures older than `before` (any name). */
int store_login_purge(struct store *s, int64_t before);
/* Per (name, client address): `addr` is auth.c's key of the address. The
 * throttle reads and records inside one store_begin() transaction. */
int store_login_failed_at(struct store *s, const char *name, const char *addr, int64_t now);
int store_login_pair(struct store *s, const char *name, const char *addr, int64_t since,
		     int *count, int64_t *last);
/* Failures from `addr` for any name since `since`, the latest in *last. */
int store_login_addr(struct store *s, const char *addr, int64_t since, int *count,
		     int64_t *last);
int store_login_clear_at(struct store *s, const char *name, const char *addr, int64_t at);
/* Successful logins per (name, address) (024_login_known.sql): the latest
 * one's time in *at (0: none), a new one recorded, old ones forgotten. */
int store_login_known_at(struct store *s, const char *name, const char *addr, int64_t *at);
int store_login_known_set(struct store *s, const char *name, const char *addr, int64_t now);
int store_login_known_purge(struct store *s, int64_t before);

/* ---- tables ---- */
enum st_table_status { TABLE_OPEN, TABLE_PLAYING, TABLE_FINISHED, TABLE_STATUS__MAX };

struct st_table {
	int64_t id;
	char game[ST_SLUG_MAX + 1];
	char options[ST_OPTS_MAX + 1];   /* options_format() text */
	int nseats;
	enum st_table_status status;
	int64_t version;                 /* +1 on every change a poll should see */
	int64_t next_deadline;           /* ms, 0 none: lets a poll see a passed window */
	uint32_t epoch;                  /* the game's status.epoch at the last change */
	int64_t epoch_version;           /* the version at which epoch last changed */
	int party_no;                    /* current party, 0-based; -1 before the start */
	int nparties;                    /* parties in this table's match */
	int first_dealer;
	int64_t created_by;
	int64_t created_at;
	int64_t public_version;          /* the version of the last change others can see:
	                                  * what polls compare (003_public_version.sql) */
	struct clock_rule clock;         /* the table's speed (006_clocks.sql) */
	int timeouts_max;                /* timeouts before a bot takes a seat; 0 never */
	int closed_idle;                 /* closed because nobody moved (007_idle.sql) */
	char host[ST_NAME_MAX + 1];      /* the name of who opened it ("" when gone) */
	int64_t rematch;                 /* the table of the next match, 0 none (010) */
	uint32_t acting, in_window, to_continue;   /* who is asked, a bit a seat (026) */
	int spectators;                  /* "Zuschauer erlaubt" (027_spectators.sql): read
	                                  * with one table (store_table_get,
	                                  * store_table_page); a listing's rows say 1 */
};

struct st_seat {
	int seat;
	int64_t user_id;                 /* 0: a bot's from the start */
	char name[ST_NAME_MAX + 1];      /* the user's; "" for a bot's own seat */
	int bot;                         /* 0 a person plays; 1 random, 2 greedy bot */
	int resigned;                    /* the person gave up: results count as last */
	int autopass;                    /* the person passes every window automatically */
	int64_t clock_left;              /* the seat's bank (ms; below 0 once overrun) */
	int64_t waiting_since;           /* since when its clock runs; 0: it does not */
	int timeouts;                    /* timeouts in this match */
	uint32_t expel_votes;            /* seats that voted to let a bot take it (bits) */
	int64_t claimed_by;              /* who takes it over at the next party; 0 nobody */
	char claimer[ST_NAME_MAX + 1];   /* their name */
	int claimed;                     /* taken over by a claim: 1 from a person
	                                  * who gave up, 2 from a bot's own seat */
};

int store_table_create(struct store *s, const char *game, const char *options, int nseats,
		       int nparties, int64_t created_by, int64_t now, int64_t *id);
int store_table_get(struct store *s, int64_t id, struct st_table *t);
/* The same with host "" (no lookup of the user): for a write's load. */
int store_table_get_bare(struct store *s, int64_t id, struct st_table *t);
/* Tables for the sweep, at most max ids each, oldest first: open ones
 * created before `before`; running ones whose party saw no step since
 * `before`; running ones whose next deadline has passed at now. */
int store_tables_expired(struct store *s, int64_t before, int64_t *ids, int max, int *n);
int store_tables_idle(struct store *s, int64_t before, int64_t *ids, int max, int *n);
int store_tables_due(struct store *s, int64_t now, int64_t *ids, int max, int *n);
/* The same as store_tables_due for the tables `user` sits at. */
int store_user_tables_due(struct store *s, int64_t user, int64_t now, int64_t *ids, int max,
			  int *n);
/* Finishes a running table whose party saw no step since `before`
 * (closed_idle), with a new version that makes every page stale.
 * ST_NOTFOUND when it is not running or not idle (any more). */
int store_table_close_idle(struct store *s, int64_t id, int64_t before);
/* Sets a new table's speed: its clock rule and timeouts before a takeover. */
int store_table_set_clock(struct store *s, int64_t id, const struct clock_rule *c,
			  int timeouts_max);
/* Seats taken, ordered by seat; returns the count in *n (at most max). */
int store_table_seats(struct store *s, int64_t id, struct st_seat *out, int max, int *n);
/* What a write that loads the table needs of its seats: seat, user_id,
 * bot, resigned, autopass, timeouts (the rest zero), without a lookup of
 * each user's name. */
int store_table_seats_bare(struct store *s, int64_t id, struct st_seat *out, int max, int *n);
/* The lowest free seat for user (ST_EXISTS: already seated, ST_CONFLICT: full). */
int store_seat_take(struct store *s, int64_t table, int64_t user, int *seat);
int store_seat_leave(struct store *s, int64_t table, int64_t user);
/* A bot of level 1 (random) or 2 (greedy) on the lowest free seat: ST_OK
 * with *seat, ST_CONFLICT when full. */
int store_seat_add_bot(struct store *s, int64_t table, int level, int *seat);
/* The user's standing choice: pass every window automatically (005). */
int store_seat_set_autopass(struct store *s, int64_t table, int64_t user, int on);
/* Who plays seat: bot 0 (its person), 1 or 2; resigned 0 or 1. */
int store_seat_set_bot(struct store *s, int64_t table, int seat, int bot, int resigned);
/* A seat's clock: its bank, since when it runs (0: not), its timeouts. */
int store_seat_set_clock(struct store *s, int64_t table, int seat, int64_t left, int64_t since,
			 int timeouts);
/* Every seat of a table starts the match with `left`, no timeouts, no votes. */
int store_seats_reset_clock(struct store *s, int64_t table, int64_t left);
/* `user` claims `seat`, which a bot holds for nobody (a bot's own, or its
 * person resigned), from the next party on. ST_CONFLICT: not such a seat,
 * or claimed already. */
int store_seat_claim(struct store *s, int64_t table, int seat, int64_t user);
/* Every claim of the table takes effect: the claimer plays the seat, with
 * a full clock (`clock_left`), no timeouts, votes or resignation. */
int store_seats_apply_claims(struct store *s, int64_t table, int64_t clock_left);
/* One more seat (bits) votes to let a bot take `seat` over. */
int store_seat_expel_vote(struct store *s, int64_t table, int seat, uint32_t voters);
int store_table_set_status(struct store *s, int64_t id, enum st_table_status st,
			   int party_no, int first_dealer);
/* version = version + 1, next_deadline, and epoch (epoch_version = the new
 * version when epoch differs from the stored one); only when version ==
 * expected (ST_CONFLICT otherwise), expected < 0 skips the check. The new
 * version is put in *newv (may be NULL). */
int store_table_bump(struct store *s, int64_t id, int64_t expected, int64_t next_deadline,
		     uint32_t epoch, int64_t *newv);
/* The same for a step nobody else can see (a pass in a window): version
 * grows, public_version (what polls compare) stays. */
int store_table_bump_quiet(struct store *s, int64_t id, int64_t expected, int64_t next_deadline,
			   uint32_t epoch, int64_t *newv);
/* epoch_version = version: a new party or the end of the match makes every
 * older page stale, whatever the game's epoch counter says. */
int store_table_new_epoch(struct store *s, int64_t id);
/* Removes a table with its seats, parties and moves (an open table that
 * everybody left). */
int store_table_delete(struct store *s, int64_t id);
/* The poll's one indexed read. */
int store_table_poll(struct store *s, int64_t id, int64_t *version, int64_t *next_deadline);
/* What "Meine Tische" polls (026_one_write.sql): a number that changes
 * whenever one of the user's tables or invitations changes what /me shows,
 * is joined or goes (never 0, below 2^53), and the earliest deadline of
 * the running ones (0 none). The user by their id, or by their poll token
 * when `token` is not NULL (ST_NOTFOUND for a token nobody has). One read
 * over the user's seats at tables not over; nothing is written for it.
 * now_ms is not used (kept for the callers). */
int store_user_poll(struct store *s, int64_t user, const char *token, int64_t now_ms,
		    int64_t *sig, int64_t *next_deadline);
/* The user's poll token into out; ST_NOTFOUND while they have none. With
 * `fresh`, it is first given to them unless they have one already (two
 * first views at once: the first wins, and both read it back). */
enum { ST_POLL_TOKEN_LEN = 43 };
int store_user_poll_token(struct store *s, int64_t user, const char *fresh,
			  char out[ST_POLL_TOKEN_LEN + 1]);
/* What /me's page shows of the user's row of the poll in one read, after
 * its listing (store_user_poll, store_user_poll_token and store_user_acting
 * read it a statement each): the poll number, the poll token ("" while
 * they have none) and the count of tables waiting for their move (-1
 * while it is to be counted again: store_user_acting); and whether they
 * are registered at any tournament (else store_tourneys_of_user has no
 * row to give: two reads spared). ST_NOTFOUND without the row. */
struct st_me_head {
	int64_t seq;
	char poll_token[ST_POLL_TOKEN_LEN + 1];
	int waiting;
	int tourneys;
};
int store_me_head(struct store *s, int64_t user, struct st_me_head *out);

/* Ratings (013_ratings.sql; the model is rules/rating.h). */
struct st_rating {
	int64_t user_id;
	char name[ST_NAME_MAX + 1];      /* the leaderboard's */
	char game[ST_SLUG_MAX + 1];      /* a user's list's */
	double mu, sigma, shown;
	int matches;
};
typedef void (*st_rating_fn)(void *ctx, const struct st_rating *r);
struct st_rating_step {
	char game[ST_SLUG_MAX + 1];
	int64_t table_id, at;
	double shown;
	int place, players;
};
typedef void (*st_rating_step_fn)(void *ctx, const struct st_rating_step *h);
/* A user's rating at a game: ST_OK (mu, sigma, matches) or ST_NOTFOUND. */
int store_rating_get(struct store *s, int64_t user, const char *game, struct st_rating *r);
/* The rating after one more rated match at `table` (0: none; place of players),
 * and its row in the history. */
int store_rating_put(struct store *s, const char *game, int64_t table, const struct st_rating *r,
		     int place, int players, int64_t now);
/* Marks a finished table's match rated: ST_EXISTS when it already was. */
int store_table_set_rated(struct store *s, int64_t table);
/* The best `limit` of a game with at least min_matches, by shown value. */
int store_rating_board(struct store *s, const char *game, int min_matches, int limit,
		       st_rating_fn fn, void *ctx);
/* A user's ratings (most played games first) and their latest changes. */
int store_ratings_of_user(struct store *s, int64_t user, int limit, st_rating_fn fn, void *ctx);
int store_rating_history(struct store *s, int64_t user, int limit, st_rating_step_fn fn,
			 void *ctx);
/* Which seats of a table are asked to act now, which of those in a window,
 * which to continue after a party (bits, play_seat_flags), on the table's
 * row (026_one_write.sql). A step sets them with store_table_step. */
int store_table_set_acting(struct store *s, int64_t table, uint32_t acting, uint32_t in_window,
			   uint32_t to_continue);
/* What one step changes on the table's row (store_table_step). */
struct st_step_row {
	int64_t version;     /* the version the step was made on (ST_CONFLICT otherwise) */
	int64_t deadline;    /* the next deadline (0: none) */
	uint32_t epoch;      /* the game's epoch after the step */
	int quiet;           /* 1: nobody else can see the step (public_version stays) */
	int new_epoch;       /* 1: every older page is stale (a party's end) */
	uint32_t acting, in_window, to_continue;   /* as store_table_set_acting */
	uint32_t changed;    /* the seats whose asked state changes (their /me) */
	int64_t lowered;     /* the deadline, when it is earlier than before (else 0) */
	int64_t deadline_before;   /* the table's deadline before the step, as the
	                            * caller read it (equal to deadline: kept) */
	const int64_t *user; /* when set: user[q] sits at seat q (0: nobody), q < nseats,
	                      * so the /me rows are written by key, not by a join */
	int nseats;
};
/* The step's one update of the table: version + 1 (and public_version
 * unless quiet), deadline, epoch (epoch_version = the new version when it
 * differs or new_epoch), who acts. */
int store_table_step(struct store *s, int64_t id, const struct st_step_row *r);
/* The seat `user` holds at `table` as "Meine Tische" shows it, without
 * loading the party: ST_OK, or ST_NOTFOUND when they hold none. */
struct st_my_seat {
	int seat, bot;
	int acting, in_window;           /* the seat's bits of store_table_set_acting */
	int64_t clock_left, waiting_since;   /* as in struct st_seat */
	int to_continue;                 /* the same (021_to_continue.sql) */
};
int store_seat_mine(struct store *s, int64_t table, int64_t user, struct st_my_seat *out);
/* What /me shows of a table where the user sits (store_my_tables), with
 * their seat as store_seat_mine reads it. Only what the status needs is
 * read: next_deadline, the clock and the seat only at a running table
 * (0 at any other), of them bot, clock_left, waiting_since and the clock
 * rule past first_ms only at a table with a clock; seats_taken is nseats
 * but at an open table. */
struct st_my_row {
	int64_t id;
	char game[ST_SLUG_MAX + 1];
	int nseats, seats_taken;
	enum st_table_status status;
	int64_t next_deadline;
	struct clock_rule clock;
	struct st_my_seat mine;
};
/* The rows of store_tables_of_user, as struct st_my_row (valid during the call). */
typedef void (*st_my_row_fn)(void *ctx, const struct st_my_row *r);
int store_my_tables(struct store *s, int64_t user, int limit, st_my_row_fn fn, void *ctx);
/* How many running tables wait for the user's own move, into *n, counted
 * up to ST_ACTING_MAX (that many: "more than ST_ACTING_MAX - 1"). */
enum { ST_ACTING_MAX = 10 };
int store_user_acting(struct store *s, int64_t user, int *n);

/* Listing: fn is called once per row; the row is only valid during the call. */
typedef void (*st_table_fn)(void *ctx, const struct st_table *t, int seats_taken);
int store_tables_open(struct store *s, int limit, st_table_fn fn, void *ctx);
/* The tables where `user` holds a seat: unfinished first, newest first. */
int store_tables_of_user(struct store *s, int64_t user, int limit, st_table_fn fn, void *ctx);
/* Open tables, newest first, at most per_host of each creator's newest. */
int store_tables_open_fair(struct store *s, int limit, int per_host, st_table_fn fn, void *ctx);
/* An invitation to a table that waits for players (010_invites.sql). */
struct st_invite {
	int64_t id, table_id, at;
	char game[ST_SLUG_MAX + 1];
	char from[ST_NAME_MAX + 1];
};
/* `from` invites `to` to `table` (again: nothing new). */
int store_invite(struct store *s, int64_t table, int64_t from, int64_t to, int64_t now);
/* The user's open invitations (the table still waits and they are not
 * seated there), newest first, at most max into out. */
int store_invites_to(struct store *s, int64_t user, struct st_invite *out, int max, int *n);
/* A table's open invitations (the invitee not seated there), oldest
 * first: who is invited (`to`) and by whom. */
struct st_invitee {
	int64_t id, at;
	char to[ST_NAME_MAX + 1];
	char from[ST_NAME_MAX + 1];
};
int store_invites_at(struct store *s, int64_t table, struct st_invitee *out, int max, int *n);
/* Deletes invitation `invite` of `table`; ST_NOTFOUND when there is none. */
int store_invite_withdraw(struct store *s, int64_t table, int64_t invite);
/* The finished `table`'s next match is at `next` (once: ST_NOTFOUND when
 * it already has one). */
int store_table_set_rematch(struct store *s, int64_t table, int64_t next);
/* Running tables, the newest first (the lobby's tables to watch). */
int store_tables_running(struct store *s, int limit, st_table_fn fn, void *ctx);
/* "Zuschauer erlaubt" (027_spectators.sql, sql-watch.c): the table's
 * option (1, the default, or 0: only its seats see it while it runs),
 * and the running tables that allow it, newest first. */
int store_table_spectators_set(struct store *s, int64_t table, int on);
int store_table_spectators(struct store *s, int64_t table, int *on);
int store_tables_watchable(struct store *s, int limit, st_table_fn fn, void *ctx);
/* Open tables (waiting for players) that `user` created, into *n. */
int store_tables_open_by(struct store *s, int64_t user, int *n);
/* How many tournaments `user` organises that have not ended (registering
 * or running). */
int store_tourneys_open_by(struct store *s, int64_t user, int *n);

/* ---- the table chat (008_chat.sql) ---- */
enum { ST_CHAT_BYTES = 1200 };   /* a message's bytes: 300 characters of up to 4 */
struct st_chat {
	int64_t id;                      /* the order of the messages */
	int64_t user_id;
	char author[ST_NAME_MAX + 1];
	int64_t at;                      /* ms */
	char text[ST_CHAT_BYTES + 1];
};
/* A message of `user` at `table` (checked by cgi/chat.c); the table's row
 * keeps that its chat has one (store_table_page). Inside store_begin()
 * together with store_table_bump_public(). */
int store_chat_add(struct store *s, int64_t table, int64_t user, const char *text, int64_t at);
/* How many messages `user` wrote at `table` after `after`, and when the
 * oldest of them was written (0: none): the rate limit. */
int store_chat_rate(struct store *s, int64_t table, int64_t user, int64_t after, int *count,
		    int64_t *oldest);
/* The newest `limit` messages of `table`, newest first, without those of
 * the users `viewer` muted (viewer 0: nobody is muted). */
typedef void (*st_chat_fn)(void *ctx, const struct st_chat *m);
int store_chat_recent(struct store *s, int64_t table, int64_t viewer, int limit, st_chat_fn fn,
		      void *ctx);
/* `user` mutes (on) or unmutes `muted` on every table. Muting needs a
 * message of `muted` at `table` and another user: ST_NOTFOUND otherwise;
 * muting twice or unmuting somebody not muted is ST_OK. */
int store_chat_mute(struct store *s, int64_t table, int64_t user, int64_t muted, int on,
		    int64_t at);
/* The users `user` muted who wrote at `table`, by name, at most `limit`. */
typedef void (*st_muted_fn)(void *ctx, int64_t user_id, const char *name);
/* The chat card in one read: the last `limit` messages the viewer sees
 * (store_chat_recent) to fn, then the writers the viewer muted here
 * (store_chat_muted, by name) to muted. */
int store_chat_card(struct store *s, int64_t table, int64_t viewer, int limit, st_chat_fn fn,
		    st_muted_fn muted, void *ctx);
int store_chat_muted(struct store *s, int64_t table, int64_t user, int limit, st_muted_fn fn,
		     void *ctx);
/* version + 1 and public_version with it, nothing else: a change every page
 * should see that concerns no position (a chat message). Epoch,
 * epoch_version and next_deadline stay, so no page becomes stale. The new
 * version in *newv (may be NULL); ST_NOTFOUND without the table. */
int store_table_bump_public(struct store *s, int64_t id, int64_t *newv);

/* ---- parties, snapshots and the move log ---- */
struct st_party {
	int64_t id;
	int64_t table_id;
	int number;                 /* 0-based within the match */
	uint64_t seed;
	int dealer;
	int over;
	struct party_result result; /* once over: place and points per seat */
	size_t snap_len;
	int last_tick;              /* store_table_page: its newest step is a deadline
	                             * that passed (seat -1, "tick"); store_party_get: 0 */
	int64_t steps;              /* store_party_get: the seq of its last step (0: none) */
};

int store_party_create(struct store *s, int64_t table, int number, uint64_t seed, int dealer,
		       const unsigned char *snap, size_t len, int64_t now, int64_t *id);
/* A party ended: over, its final position (snap, kept on the party's row:
 * what a replay of its log is checked against), its result rows (r's first
 * nseats seats), and its steps keep the position of every
 * ST_PARTY_CHECKPOINT-th step only (they are what replays start from). */
enum { ST_PARTY_CHECKPOINT = 16 };
int store_party_end(struct store *s, int64_t party, const unsigned char *snap, size_t len,
		    const struct party_result *r, int nseats);
/* The party `number` of a table (or the latest when number < 0); its
 * position (the snapshot of its last step, or the deal without one) is
 * copied into snap[0..cap) and its length put in p->snap_len. */
int store_party_get(struct store *s, int64_t table, int number, struct st_party *p,
		    unsigned char *snap, size_t cap);
/* Every finished party of a table with its result, in order. */
typedef void (*st_party_fn)(void *ctx, const struct st_party *p);
int store_parties_of_table(struct store *s, int64_t table, st_party_fn fn, void *ctx);

struct st_move {
	int64_t seq;        /* 1, 2, … within the party */
	int seat;           /* -1: a deadline applied by tick */
	int64_t at;         /* ms */
	int64_t version;    /* the table version this step produced */
	char text[GAME_MOVE_MAX + 1];
};
int store_move_append(struct store *s, int64_t party, int seat, const char *text, int64_t at,
		      int64_t version, const unsigned char *snap, size_t len);
/* store_move_append for a caller that knows the party's last step, `last`
 * (st_party.steps, kept up to date; 0: none): that step gives up its
 * position by its key, a party's first step runs no statement for it, and
 * the step goes in at `last` + 1 by its key. A `last` lower than the truth
 * only sheds less: the number is taken, and the step goes after the last
 * one as store_move_append puts it. */
int store_step_append(struct store *s, int64_t party, int64_t last, int seat, const char *text,
		      int64_t at, int64_t version, const unsigned char *snap, size_t len);
/* 1 in *yes when `seat` has a step in this party with version > after. */
int store_seat_moved_since(struct store *s, int64_t party, int seat, int64_t after, int *yes);
/* 1 in *yes when a deadline passed in this party (a "tick" step) with
 * version > after; a clock's "start" step does not count. */
int store_ticked_since(struct store *s, int64_t party, int64_t after, int *yes);
/* The version of `seat`'s last step in this party into *v (0: none): with
 * the public version, what that seat's page may carry (play_table.seen). */
int store_seat_last_version(struct store *s, int64_t party, int seat, int64_t *v);
/* Moves of a party in order, from seq > after; fn per row. */
typedef void (*st_move_fn)(void *ctx, const struct st_move *m);
int store_moves(struct store *s, int64_t party, int64_t after, st_move_fn fn, void *ctx);
/* The steps of every finished party of a table, by party number and then
 * in order, to fn(ctx, number, step); a finished party without steps once
 * with step NULL. Each step is valid during fn only. One read. */
typedef void (*st_log_fn)(void *ctx, int number, const struct st_move *m);
int store_table_logs(struct store *s, int64_t table, st_log_fn fn, void *ctx);
int store_move_count(struct store *s, int64_t party, int64_t *n);

/* ---- the feed token (009_feed.sql): one per user, kept as it is ---- */
enum { ST_FEED_TOKEN_LEN = 43 };
/* The user's token and when it was made; ST_NOTFOUND: none yet. */
int store_feed_get(struct store *s, int64_t user, char token[ST_FEED_TOKEN_LEN + 1],
		   int64_t *created_at);
/* The user a token belongs to; ST_NOTFOUND for an unknown (or replaced) one. */
int store_feed_user(struct store *s, const char *token, int64_t *user, int64_t *created_at);
/* Gives the user `token` made at `now`: replace 0 keeps a token the user
 * already has (two first uses at once: the first wins), 1 replaces it. */
int store_feed_set(struct store *s, int64_t user, const char *token, int64_t now, int replace);
/* The time of the party's latest step with a version at most `upto` (any
 * when upto < 0), the platform's "weiter" steps left out; the party's
 * start when there is none. */
int store_party_step_at(struct store *s, int64_t party, int64_t upto, int64_t *at);

/* ---- profiles (/u/<name>): what a user played, from the finished tables
 * they sit at. Ratings and tournaments would read party_results the same
 * way (one row per seat and party) and get their own functions here. ---- */
/* Finished tables the user sat at, per game (slug): the most first. */
typedef void (*st_game_count_fn)(void *ctx, const char *game, int tables);
int store_profile_games(struct store *s, int64_t user, st_game_count_fn fn, void *ctx);

/* A finished table the user sat at, with what its final standings need. */
struct st_finished {
	int64_t table_id;
	char game[ST_SLUG_MAX + 1];
	int nseats;
	int my_seat;
	int64_t at;                      /* the last step of its last party (ms); its
	                                  * creation when there is none */
	struct match_totals totals;      /* finished parties, points per seat */
	uint32_t resigned;               /* seats whose person resigned (bits) */
};
typedef void (*st_finished_fn)(void *ctx, const struct st_finished *f);
/* The user's finished tables, the newest (highest id) first, at most
 * `limit` (-1: all); fn once per table. */
int store_profile_finished(struct store *s, int64_t user, int limit, st_finished_fn fn,
			   void *ctx);


/* ---- e-mail notices (012_mail.sql) ---- */
enum st_mail_mode { ST_MAIL_NONE, ST_MAIL_DIGEST, ST_MAIL_TURN, ST_MAIL_MODE__MAX };
enum st_mail_state { ST_MAIL_QUEUED, ST_MAIL_SENT, ST_MAIL_DROPPED, ST_MAIL_FAILED };
enum { ST_MAIL_ADDR_MAX = 254, ST_MAIL_TOKEN_LEN = 43 };
struct st_mail_prefs {
	char address[ST_MAIL_ADDR_MAX + 1];
	int mode;                        /* enum st_mail_mode */
	char token[ST_MAIL_TOKEN_LEN + 1];
};
/* The user's address, choice and unsubscribe token; ST_NOTFOUND: none yet. */
int store_mail_prefs(struct store *s, int64_t user, struct st_mail_prefs *out);
/* Sets address and mode; `token` is the unsubscribe token of a first
 * save (a user who has one keeps it). */
int store_mail_prefs_set(struct store *s, int64_t user, const char *address, int mode,
			 const char *token);
/* The unsubscribe link: mode none for the token's user, into *user;
 * ST_NOTFOUND for an unknown token. store_mail_by_token only reads. */
int store_mail_off(struct store *s, const char *token, int64_t *user);
int store_mail_by_token(struct store *s, const char *token, int64_t *user,
			struct st_mail_prefs *out);
/* A seat's person must act at `table` now: a per-turn mail for `user` when
 * that is their choice and none for this table is queued already. */
int store_mail_turn(struct store *s, int64_t table, int64_t user, int64_t now);
/* Users whose choice is the digest, whose next look is due at `now` and
 * who have a running table waiting for them (seats.acting), the longest
 * due first, at most max into ids. */
int store_mail_digest_due(struct store *s, int64_t now, int64_t *ids, int max, int *n);
/* Queues the user's digest (once: one queued at most) and sets the next
 * look at the digest to `next`. */
int store_mail_digest_queue(struct store *s, int64_t user, int64_t now, int64_t next);
/* A queued mail with what sending it needs. */
struct st_mail {
	int64_t id, user_id, table_id;   /* table_id 0: a digest */
	int kind;                        /* ST_MAIL_DIGEST or ST_MAIL_TURN */
	int attempts;
	int64_t created_at;
	int mode;                        /* the user's choice now */
	char name[ST_NAME_MAX + 1];
	char address[ST_MAIL_ADDR_MAX + 1];
	char token[ST_MAIL_TOKEN_LEN + 1];
	char lang[ST_LANG_MAX + 1];        /* the account's language, "" none */
};
/* Queued mails whose next try is due at `now`, the oldest first. */
int store_mail_due(struct store *s, int64_t now, struct st_mail *out, int max, int *n);
/* 1 in *yes when the user's seat at `table` may act (a running table; the
 * pause after a party, which ends by itself, is no reason for a mail). */
int store_mail_acting(struct store *s, int64_t user, int64_t table, int *yes);
/* The user's running tables waiting for them (not in a pause), the oldest
 * first. */
int store_mail_acting_tables(struct store *s, int64_t user, int max, st_table_fn fn,
			     void *ctx);
/* A mail is sent, dropped or given up (state) at `now`. */
int store_mail_done(struct store *s, int64_t id, int state, int64_t now);
/* A failed try: one more attempt, the next at `next_try`. */
int store_mail_retry(struct store *s, int64_t id, int64_t next_try);
/* Forgets mails that left the queue before `before`. */
int store_mail_purge(struct store *s, int64_t before);

/* ---- tournaments (014_tournaments.sql; docs/tournaments.md) ---- */

enum { ST_TNAME_MAX = 120, ST_TPOINTS_MAX = 40, ST_TTIEBREAKS_MAX = 16 };
enum st_tourney_status {
	TOURNEY_REGISTERING, TOURNEY_RUNNING, TOURNEY_FINISHED, TOURNEY_CANCELLED,
	TOURNEY_STATUS__MAX
};
struct st_tourney {
	int64_t id;
	char name[ST_TNAME_MAX + 1];
	char game[ST_SLUG_MAX + 1];
	char options[ST_OPTS_MAX + 1];
	int format;                      /* enum tourney_format (rules/tournament.h) */
	int seats, min_seats, rounds;
	int advance;                     /* elimination: the best K of a table go on */
	char points[ST_TPOINTS_MAX + 1]; /* points by place, "6,4,2,0" */
	char tiebreaks[ST_TTIEBREAKS_MAX + 1]; /* "party,sb", "sb,party", "party", "sb", "" */
	struct clock_rule clock;         /* the speed of every table */
	int timeouts_max;
	int64_t register_until, starts_at;
	enum st_tourney_status status;
	int round;                       /* rounds seated so far */
	int64_t seed, version, created_by, created_at;
	char organiser[ST_NAME_MAX + 1]; /* "" when the account is gone */
	int players;                     /* registered and not withdrawn */
	int entrants;                    /* registered, withdrawn or not */
};
int store_tourney_create(struct store *s, const struct st_tourney *t, int64_t *id);
int store_tourney_get(struct store *s, int64_t id, struct st_tourney *t);
/* Status and rounds seated; the version grows. */
int store_tourney_set_state(struct store *s, int64_t id, enum st_tourney_status st, int round);
int store_tourney_bump(struct store *s, int64_t id);
/* It starts at now: a start (and an end of registration) still to come
 * becomes now, so that the pages show when it did start. */
int store_tourney_started(struct store *s, int64_t id, int64_t now);
/* What the tournament page's poll compares: the version, and the start
 * while it registers (a deadline: the page reloads to start it). */
int store_tourney_poll(struct store *s, int64_t id, int64_t *version, int64_t *deadline);
typedef void (*st_tourney_fn)(void *ctx, const struct st_tourney *t);
/* The ones to come and running by their start, then the finished ones. */
int store_tourneys_list(struct store *s, int limit, st_tourney_fn fn, void *ctx);
int store_tourneys_of_user(struct store *s, int64_t user, int limit, st_tourney_fn fn,
			   void *ctx);
/* Tournaments still registering whose start has come. */
int store_tourneys_due(struct store *s, int64_t now, int64_t *ids, int max, int *n);

struct st_tplayer {
	int64_t user_id;
	char name[ST_NAME_MAX + 1];
	int64_t registered_at;
	int left_how;                    /* 0 in, 1 withdrew, 2 removed */
	int left_round, out_round, grp, gpos;
};
/* ST_EXISTS: registered already. */
int store_tplayer_add(struct store *s, int64_t t, int64_t user, int64_t now);
/* Before the start: the registration is gone. ST_NOTFOUND: none. */
int store_tplayer_delete(struct store *s, int64_t t, int64_t user);
/* After the start: withdrew (how 1) or removed (2) in `round`. ST_NOTFOUND:
 * not a player, or gone already. */
int store_tplayer_leave(struct store *s, int64_t t, int64_t user, int how, int round);
int store_tplayer_out(struct store *s, int64_t t, int64_t user, int round);
int store_tplayer_group(struct store *s, int64_t t, int64_t user, int grp, int gpos);
/* Every player in order of registration; at most max written, *n all. */
int store_tplayers(struct store *s, int64_t t, struct st_tplayer *out, int max, int *n);
/* One player's registration; ST_NOTFOUND: never registered. */
int store_tplayer_get(struct store *s, int64_t t, int64_t user, struct st_tplayer *out);
/* store_tourney_get and, in the same read, store_tplayer_get of user (0:
 * nobody) into *me without its name, *registered 1 when there is one. */
int store_tourney_viewed(struct store *s, int64_t id, int64_t user, struct st_tourney *t,
			 struct st_tplayer *me, int *registered);

struct st_ttable {
	int round, number;
	int64_t table_id;
	int done;                        /* results recorded */
	enum st_table_status status;     /* the table's */
	int party_no, nparties;
};
/* Table table_id is number `number` of round `round` of tournament t; the
 * table's row keeps that (store_table_page). */
int store_ttable_add(struct store *s, int64_t t, int round, int number, int64_t table_id);
/* The tournament, round and number of a table; ST_NOTFOUND: not one. */
int store_ttable_of(struct store *s, int64_t table_id, int64_t *t, int *round, int *number,
		    int *done);
/* The tournament a table belongs to: ST_NOTFOUND for most tables. */
struct st_table_tourney {
	int64_t id;
	char name[ST_TNAME_MAX + 1];
	int round, number;
};
int store_table_tourney(struct store *s, int64_t table, struct st_table_tourney *out);

/* Everything a table's page reads of the table, in one read transaction
 * (one consistent state; two statements, docs/storage.md): the table row;
 * its current party (t.party_no) with the position of its last step into
 * snap (at most cap bytes) and, when over, its result; the
 * version of the viewer's own last step in it; the seats that continued
 * since t.epoch_version while it is over; the tournament it belongs to;
 * the seats with their users; and every finished party (over, with its
 * result), to `finished` by number. `viewer` 0: nobody logged in.
 * ST_NOTFOUND without the table; ST_ERR when the snapshot does not fit. */
enum { ST_PAGE_PARTIES_MAX = 64 };
struct st_table_page {
	struct st_table t;
	int has_party;                   /* the current party's row was there */
	struct st_party party;
	int64_t my_last;                 /* the viewer's seat's last step's version, 0 none */
	uint32_t continued;              /* a party over: seats with a step after
	                                  * t.epoch_version (bit a seat) */
	int in_tourney;
	struct st_table_tourney tourney;
	int waiting;                     /* the viewer's tables waiting for them as
	                                  * store_user_acting counts them; -1: to be
	                                  * counted (or nobody logged in) */
	int has_chat;                    /* the table's chat has a message */
	struct st_seat seats[GAME_MAX_SEATS];
	int nseated;
};
int store_table_page(struct store *s, int64_t table, int64_t viewer, struct st_table_page *out,
		     unsigned char *snap, size_t cap, st_party_fn finished, void *ctx);

/* Marks the table's results recorded; ST_EXISTS when they were already. */
int store_ttable_done(struct store *s, int64_t table_id);
/* Tables of the round whose results are not in yet; all of its tables. */
int store_tround_open(struct store *s, int64_t t, int round, int *open);
int store_tround_count(struct store *s, int64_t t, int round, int *n);
typedef void (*st_ttable_fn)(void *ctx, const struct st_ttable *x);
int store_ttables(struct store *s, int64_t t, st_ttable_fn fn, void *ctx);
/* A round's tables numbered first..last (0-based), and what goes with them. */
struct st_tround {
	int round, first, last;
};
int store_tround_tables(struct store *s, int64_t t, const struct st_tround *r, st_ttable_fn fn,
			void *ctx);
/* Who sits at the round's tables (first..last) whose results are not in. */
struct st_tseat {
	int number, seat;
	char name[ST_NAME_MAX + 1];      /* "" for a bot's own seat */
	int bot, resigned;
	int64_t user_id;
};
typedef void (*st_tseat_fn)(void *ctx, const struct st_tseat *x);
int store_tround_seats(struct store *s, int64_t t, const struct st_tround *r, st_tseat_fn fn,
		       void *ctx);
/* The table of `round` not done where `user` still plays; ST_NOTFOUND. */
int store_tmy_table(struct store *s, int64_t t, int round, int64_t user, int64_t *table);

struct st_tresult {
	int round;
	int64_t user_id;
	int table_no;                    /* -1: a bye */
	int64_t table_id;                /* 0: none */
	int seat, place, points, party_points;
	char name[ST_NAME_MAX + 1];      /* the player's (read only) */
};
int store_tresult_put(struct store *s, int64_t t, const struct st_tresult *r);
typedef void (*st_tresult_fn)(void *ctx, const struct st_tresult *r);
/* By round, table, place: the rows of one table together. */
int store_tresults(struct store *s, int64_t t, st_tresult_fn fn, void *ctx);
/* The results of the round's tables first..last (-1..-1: its byes), as
 * the page shows them: table_id 0 and seat -1 (not read). */
int store_tround_results(struct store *s, int64_t t, const struct st_tround *r,
			 st_tresult_fn fn, void *ctx);
/* The round's tables first..last as store_tround_tables, each followed by
 * its results as store_tround_results has them (none before they are in),
 * from the table's own row (029_ttable_results.sql): one read for a page
 * of tables. At most ST_TRESULTS_TABLE_MAX results a table. A done
 * table's row is not read: its status is TABLE_FINISHED, party_no 0 and
 * nparties 1. */
enum { ST_TRESULTS_TABLE_MAX = 10 };
int store_tround_page(struct store *s, int64_t t, const struct st_tround *r, st_ttable_fn table,
		      st_tresult_fn result, void *ctx);

/* The standings as stored (tournament_standings), with each player's name
 * and whether they left or went out (copied in: one read for a page). */
struct st_tstanding {
	int rank_order, place;
	int64_t user_id;
	char name[ST_NAME_MAX + 1];
	int points, party_points, sb2, played, byes;
	int left_how, left_round, out_round;
};
/* Replaces the tournament's standings by rows[0..n-1]. */
int store_tstandings_replace(struct store *s, int64_t t, const struct st_tstanding *rows, int n);
typedef void (*st_tstanding_fn)(void *ctx, const struct st_tstanding *x);
/* At most `limit` rows from rank_order `from` on, in order. A page of
 * ST_TSTANDINGS_PAGE rows from a multiple of it is one read: the text its
 * first row carries (030_standings_pages.sql). */
enum { ST_TSTANDINGS_PAGE = 20 };
int store_tstandings(struct store *s, int64_t t, int from, int limit, st_tstanding_fn fn,
		     void *ctx);
/* The user's row; ST_NOTFOUND: none (yet). */
int store_tstanding_of(struct store *s, int64_t t, int64_t user, struct st_tstanding *out);

/* Live channels (sql-live.c, cgi/live.c): with the watch on, every write
 * on this connection that changes a number a poll compares is noted (one
 * watched connection per process). store_live_take(), after the request
 * and outside a transaction, reads each again as its poll would and calls
 * fn for those whose written value is committed: kind 't' (a table, id),
 * 'm' (a user's /me, token their poll token), 'g' (a tournament), with the
 * number the poll answers now. Returns how many notes were dropped (more
 * than fit in one request). */
int store_live_watch(struct store *s, int on);
typedef void (*store_live_fn)(void *ctx, char kind, int64_t id, const char *token,
			      int64_t version);
int store_live_take(struct store *s, store_live_fn fn, void *ctx);

/* Moving a site (sql-copy.c, `spieltisch migrate`, docs/scaling.md): every
 * row of every table of the SQLite store `from` into the PostgreSQL
 * database at uri, which has its schema (store_open on it first) and no
 * users or tables yet, in one transaction there. counts[0 .. *n-1] get each
 * table's rows on both sides after the copy (equal, or nothing is
 * committed). ST_OK, or ST_ERR with the reason in err. */
enum { ST_COPY_TABLES_MAX = 48 };
struct st_copy_count {
	char table[32];
	int64_t from, to;
};
int store_copy_to_postgres(struct store *from, const char *uri, struct st_copy_count *counts,
			   int *n, char *err, size_t cap);
/* The ids of every table (the game tables) of a SQLite store, malloc'd. */
int store_copy_table_ids(struct store *s, int64_t **ids, int *n);

#endif
