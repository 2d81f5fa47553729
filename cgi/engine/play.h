/*
 * play.h — the party engine between a request and the rules core; knows no
 * HTTP and no HTML. Every write is one transaction (store_begin … commit):
 * load snapshot → tick → apply → save snapshot, append to the log, bump the
 * version → commit. A rejected move changes nothing.
 *
 * Staleness: a form carries `v`, the version the player's page was at
 * (struct play_table.seen: the public version, or the seat's own later
 * step; never the full version, which counts the others' hidden steps). A
 * move is judged against the current state; it is refused as stale only
 * when the steps since v changed its meaning: this seat moved since v (a
 * double click), or the game's position epoch (struct status.epoch)
 * changed after v (somebody else's card landed first, a race was won, a
 * deadline moved the game on: "too late", naming the race's winner where
 * the game can, game.late). A deadline that closed a window and changed
 * nothing else makes a move "too late" only when the game now refuses it.
 * A standing choice (game.late says GAME_LATE_NOW) is never stale. Other
 * seats' passes, votes and secret choices do not make a page stale.
 *
 * Matches: when a party ends, its scores are saved and the table pauses on
 * the finished party (docs/storage.md, "The end of a party"): every seat may
 * send the platform move PLAY_CONTINUE ("weiter", logged in the finished
 * party's log); the last one, or the first request after the pause deadline
 * (PLAY_PAUSE_SECONDS, in tables.next_deadline), deals the next party (new
 * seed, dealer one seat further clockwise). After the game's parties() the
 * table is finished at once.
 */
#ifndef SPIELTISCH_PLAY_H
#define SPIELTISCH_PLAY_H

#include <stdint.h>

#include "game.h"
#include "match.h"
#include "store.h"

/* The platform's own move after a party: "I have seen the result". No game
 * may use this word as a move. */
#define PLAY_CONTINUE "weiter"
/* The texts of the log's steps by seat -1: a deadline passed, or a clock
 * started (replayed alike, as the game's tick; only a passed deadline makes
 * an older page's move "too late"). */
#define PLAY_STEP_TICK "tick"
#define PLAY_STEP_START "start"
/* How long a table waits on a finished party before it deals the next. */
enum { PLAY_PAUSE_SECONDS = 60 };

/* The engine's names of the result codes (rc.h): a store result is one of
 * them as it is. */
enum play_rc {
	PLAY_OK = RC_OK,
	PLAY_STALE = RC_STALE,             /* page too old or a race lost: note + fresh page */
	PLAY_REJECTED = RC_REJECTED,       /* the rules refused the move: e->msg says why */
	PLAY_NOT_SEATED = RC_NOT_SEATED,   /* the user has no seat at this table */
	PLAY_NOT_FOUND = RC_NOTFOUND,      /* no such table */
	PLAY_NOT_PLAYING = RC_NOT_PLAYING, /* the table has not started, or is finished */
	PLAY_FULL = RC_TABLE_FULL,         /* join: no free seat */
	PLAY_ALREADY = RC_ALREADY,         /* join: already seated */
	PLAY_INVALID = RC_INVALID,         /* create: bad game, seat count or option (e->msg) */
	PLAY_BUSY = RC_BUSY,               /* the database stayed locked: try again */
	PLAY_ERR = RC_ERR,                 /* anything else: 500 */
	PLAY_NOSPACE = RC_FULL,            /* the disk is full: nothing was written (503) */
	PLAY_CORRUPT = RC_CORRUPT,         /* the table's stored state does not load (503) */
	PLAY__MAX = RC__MAX
};

/* German note for a result, a catalog message (e->msg is more precise where
 * set). */
const char *play_message(enum play_rc rc);

/* A store result as the engine's: the same code (rc.h), with ST_NOTFOUND
 * read as `missing` (what "no such row" means to the caller). */
int play_from_store(int st, int missing);
/* Fills e->msg (when e is given) with German msg, a catalog message, in the
 * request's language (e->fmt NULL) and returns rc. */
int play_fail(struct rerr *e, int rc, const char *msg);
/* Ends the transaction that produced rc: commits it when rc is PLAY_OK,
 * else rolls it back; the result. */
int play_finish(struct store *s, int rc);

/* What follows a table's end — its match rated, its tournament's next
 * round — listens for it: the engine runs every listener inside the
 * transaction that ended the table (the last party finished, a damaged
 * table closed, an idle table closed; t is the table as ended, its status
 * TABLE_FINISHED) and the first one that fails undoes the whole write.
 * A listener returns a play_rc. The engine names no listener: the list,
 * NULL-terminated, is the program's wiring (cgi/engine/table-end.c),
 * constant and linked in, so the server, the tools and the tests run the
 * same ones. */
typedef int (*play_table_end_fn)(struct store *s, const struct st_table *t, int64_t now);
extern const play_table_end_fn play_table_end_listeners[];

/* Everything a page needs about one table, loaded once per request. */
struct play_table {
	struct st_table t;
	int64_t seen;                /* the version this viewer's page carries (its forms'
	                              * `v`, the JSON's "version"): the public version, or
	                              * the viewer's own later step that others cannot see;
	                              * never t.version, which counts everybody's hidden
	                              * steps too */
	const struct game *g;
	int opt[GAME_OPT_MAX];
	struct st_seat seats[GAME_MAX_SEATS];
	int nseated;
	int my_seat;                 /* -1: spectator or not logged in */
	int64_t my_last;             /* the version of the seat's own last step in the
	                              * current party (0: none; spectators 0) */
	int has_party;
	struct st_party party;       /* the current (or, when finished, last) party */
	void *state;                 /* g->state_size bytes, decoded; NULL without a party */
	struct status status;
	struct match_totals totals;  /* finished parties only */
	int party_score[64][GAME_MAX_SEATS]; /* finished parties' scores, for the match table */
	int64_t party_id[64];        /* finished parties' ids (their logs), by number */
	int party_number[64];
	int nfinished;
	int pausing;                 /* the party is over, the next one not dealt yet */
	uint32_t ready;              /* while pausing: bit s, seat s sent PLAY_CONTINUE */
	int broken;                  /* the table was closed on this party because its state
	                              * broke: a draw; has_party 0 (no state to show) */
	int in_tourney;              /* a tournament's table: which, its round and number */
	struct st_table_tourney tourney;
	int viewer_waiting;          /* the viewer's tables waiting for them (every page's
	                              * title, store_user_acting); -1: not read */
	int has_chat;                /* its chat has a message (else the chat is not read) */
};

/* Creates a table of `slug` with nseats seats and options from the lobby
 * (options_parse text), and seats the creator at seat 0. */
int play_create(struct store *s, const char *slug, const char *options, int nseats,
		int64_t user, int64_t now_ms, int64_t *table_id, struct rerr *e);
/* The same with a speed: the seats' clock (rules/clock.h; first_ms 0: none)
 * and the timeouts after which a bot keeps a seat (0: never). */
struct play_speed {
	struct clock_rule clock;
	int timeouts_max;
};
int play_create_timed(struct store *s, const char *slug, const char *options, int nseats,
		      const struct play_speed *speed, int64_t user, int64_t now_ms,
		      int64_t *table_id, struct rerr *e);
/* Inside the caller's transaction: a table of `slug` with canonical
 * options and the speed, users[0..n-1] on seats 0..n-1, its match started
 * at once; opened by `host` (a tournament's organiser, 0 none). */
int play_table_seated(struct store *s, const char *slug, const char *options,
		      const struct play_speed *speed, const int64_t *users, int n, int64_t host,
		      int64_t now_ms, int64_t *id);
/* Takes a free seat; when the last seat is taken, the first party starts. */
int play_join(struct store *s, int64_t table, int64_t user, int64_t now_ms, struct rerr *e);
/* Gives up a seat of a table that has not started. */
int play_leave(struct store *s, int64_t table, int64_t user, int64_t now_ms, struct rerr *e);

/* A bot (level BOT_RANDOM or BOT_GREEDY, rules/bot.h) takes the lowest
 * free seat of an open table, asked for by someone seated there; with the
 * last seat the match starts. Bots move when a request touches the table:
 * after a move, a tick, a join; never from a timer. */
int play_add_bot(struct store *s, int64_t table, int64_t user, int level, int64_t now_ms,
		 struct rerr *e);

/* What a person does with their seat of a running table. */
enum play_seat_act {
	PLAY_SEAT_BOT,     /* a bot plays it for now */
	PLAY_SEAT_BACK,    /* take it back from the bot */
	PLAY_SEAT_RESIGN,  /* give up: a bot plays on; the results count as last */
	PLAY_SEAT__MAX
};
int play_seat(struct store *s, int64_t table, int64_t user, enum play_seat_act act,
	      int64_t now_ms, struct rerr *e);
/* A vote of the user's seat to let a bot take over seat `target` for the
 * rest of the match (its results count as last), allowed once target has
 * run out of time; when every other seat a person plays has voted, the bot
 * takes it. PLAY_REJECTED (a note) when the vote is not possible. */
int play_expel(struct store *s, int64_t table, int64_t user, int target, int64_t now_ms,
	       struct rerr *e);

/* The user, not seated at the running table, claims `seat`, which a bot
 * holds for nobody (a bot's from the start, or its person resigned or was
 * replaced): they play it from the next party on, with its totals so far.
 * PLAY_ALREADY (seated), PLAY_STALE (already claiming a seat here),
 * PLAY_REJECTED (not such a seat, claimed, or no party left). */
int play_claim(struct store *s, int64_t table, int64_t user, int seat, int64_t now_ms,
	       struct rerr *e);

/* A person seated at a table that waits for players invites another user
 * by name: the invitation shows on their "Meine Tische" and in their feed.
 * PLAY_NOT_SEATED, PLAY_NOT_PLAYING (the table no longer waits),
 * PLAY_REJECTED (no such user, oneself, already seated; the note says). */
int play_invite(struct store *s, int64_t table, int64_t user, const char *name, int64_t now_ms,
		struct rerr *e);
/* "Noch ein Match" at a finished table: a new table with the same game,
 * options, seats and speed, the user seated, every other person of the old
 * table invited; a second request (anyone's) finds the same new table.
 * *next: its id. PLAY_NOT_SEATED, PLAY_NOT_PLAYING (not finished). */
int play_rematch(struct store *s, int64_t table, int64_t user, int64_t now_ms, int64_t *next,
		 struct rerr *e);

/* Housekeeping that a request does on the side (no timer process): up to
 * `max` tables each whose deadline has passed are ticked (their clocks and
 * windows apply even when nobody looks at them), open tables older than
 * open_ms are removed, and running tables whose party saw no step for
 * idle_ms are closed with the result of their finished parties. Each table
 * its own transaction; counts into *out. PLAY_OK, or the first error. */
struct play_sweep {
	int64_t open_ms, idle_ms;
	int max;
};
struct play_swept {
	int ticked, expired, closed;
};
int play_sweep(struct store *s, const struct play_sweep *rule, int64_t now_ms,
	       struct play_swept *out);
/* The same for the passed deadlines of one user's running tables, at most
 * `max` (like the lobby's sweep, on the side of their "Meine Tische"),
 * only once the deadline the /me poll keeps for them has passed (one read
 * otherwise): the poll says "changed" while one has passed, also at a
 * table /me does not list. PLAY_OK, or the first error. */
int play_sweep_user(struct store *s, int64_t user, int64_t now_ms, int max);

/* The user's standing choice for a table they sit at: pass every window
 * (a snap, a reaction) automatically. It depends on nothing in the hand;
 * an open window for them is passed at once. */
int play_autopass(struct store *s, int64_t table, int64_t user, int on, int64_t now_ms,
		  struct rerr *e);

/* Loads a table for `user` (0: not logged in). Applies passed deadlines
 * first (a write, logged as a "tick" step). Free with play_free(). */
int play_load(struct store *s, int64_t table, int64_t user, int64_t now_ms,
	      struct play_table *out);
void play_free(struct play_table *pt);

/* One move, as described above. */
int play_move(struct store *s, int64_t table, int64_t user, const char *move,
	      int64_t seen_version, int64_t now_ms, struct rerr *e);

/* The spelling of `typed` the move log keeps: the move of moves(st, seat)
 * whose words equal typed's words after mt_split's folding, else those
 * words joined by single blanks (typed itself when it does not split).
 * At most cap - 1 bytes in out. */
void play_canonical(const struct game *g, const void *st, int seat, const char *typed,
		    char *out, size_t cap);

/* The seats the table page shows as "may act": every seat an open window is
 * for (constant until it closes, so nobody sees who passed), else to_act. */
uint32_t play_acting_mask(const struct status *st);

/* What a seat is asked to do now. play_asked() decides it once for every
 * page that tells a seat so: the table page (`my_turn`, `window`), "Meine
 * Tische" (from the seat row, play_seat_flags), the feed, the tab title's
 * count and the per-turn mail (docs/api.md, "Whose move"). */
enum play_ask {
	PLAY_ASK_NONE,       /* nothing to do now */
	PLAY_ASK_TURN,       /* its regular turn (or a simultaneous choice: turn < 0) */
	PLAY_ASK_WINDOW,     /* it may act while a window is open (also the seat on
	                      * turn, asked inside a window of its own turn), or out
	                      * of turn while another seat has the turn */
	PLAY_ASK_CONTINUE,   /* the pause after a party: it has not sent "weiter" */
	PLAY_ASK__MAX
};

/* What `seat` is asked to do, from its party's status as given (whatever
 * the game reports: who may still act in a window is the game's business),
 * `pausing` (the party is over and the next one not dealt) and `ready` (while
 * pausing: bit s, seat s sent PLAY_CONTINUE). Pure: no store, no clock. */
enum play_ask play_asked(const struct status *st, int pausing, uint32_t ready, int seat);

/* The seats' flags kept after every step (011_acting.sql, 018_in_window.sql,
 * 021_to_continue.sql), bits by seat, from play_asked(): `acting` asked
 * anything, `in_window` PLAY_ASK_WINDOW, `to_continue` PLAY_ASK_CONTINUE.
 * "Meine Tische" reads them back with play_ask_of_flags() instead of
 * loading the table; the tab title counts `acting`. */
struct play_flags {
	uint32_t acting, in_window, to_continue;
};
void play_seat_flags(const struct status *st, int pausing, uint32_t ready, int nseats,
		     struct play_flags *out);
/* The play_asked() answer one seat's stored flags stand for. */
enum play_ask play_ask_of_flags(int acting, int in_window, int to_continue);

/* What play_move() lets a game look up (game->annotate): set once per
 * process (the server's worker: the German lexicon, cgi/lexicon.h); NULL,
 * the default, looks nothing up and applies moves as typed. */
void play_set_lookup(const struct lookup *lk);

/* Applies passed deadlines of a table: PLAY_OK whether or not one had passed. */
int play_tick(struct store *s, int64_t table, int64_t now_ms);

/* Rebuilds a party from setup + its log and compares with the stored
 * snapshot: PLAY_OK when identical (used by tests and the crash suite). */
int play_verify_party(struct store *s, int64_t table, int number, struct rerr *e);

/* ---- Replays (cgi/engine/replay.c, docs/rulings.md "Replays") ----
 * A party position by position, rebuilt from its seed, dealer, options and
 * stored steps by the rules core. Frame 0 is the deal; frame f the
 * position after frame_step[f] steps. A finished party (or any party of a
 * finished table) has one frame per step and may be seen from any seat
 * (viewer -1..nseats-1); a running one only from the viewer's own seat
 * (a visitor: the spectator's view), one frame per position that seat's
 * page showed: its own steps and every step that changed what it sees;
 * another seat's step text is left out. */
enum { PLAY_REPLAY_DEAL = -2 };   /* step_seat of frame 0 */
struct sim_step;
struct play_replay {
	struct st_table t;
	const struct game *g;
	int opt[GAME_OPT_MAX];
	struct st_seat seats[GAME_MAX_SEATS];
	int nseated;
	struct st_party party;
	int my_seat;       /* the user's seat at the table, -1 none */
	int over;          /* every step, any viewpoint */
	int viewer;        /* whose view is shown: a seat, or -1 (spectator) */
	int nframes, frame;
	int last_own;      /* running: the frame of the viewer's own last step (0 none) */
	int step_no;       /* finished: steps played up to this frame (the log's seq);
	                    * running: the frame (the log's count is not the seat's) */
	int step_seat;     /* who made the frame's step: a seat, -1 a deadline or a
	                    * clock's start, PLAY_REPLAY_DEAL at frame 0 */
	int step_shown;    /* 1 when step_text may be shown to this viewer */
	char step_text[GAME_MOVE_MAX + 1];
	int64_t step_at;   /* finished parties only (ms), else 0 */
	void *state;       /* the position at `frame` */
	void *prev;        /* … and at frame - 1 (frame > 0) */
	struct status status;
};
/* Loads party `number` (0-based; -1 the current one) of `table` at
 * `frame` (-1 or beyond the last: the last) for `user` (0: a visitor)
 * from seat `viewer` (used only for a finished party; -2: the user's own
 * seat). PLAY_NOT_FOUND (no table or party), PLAY_NOT_PLAYING (no party
 * yet), PLAY_CORRUPT (the log does not replay: e says why), PLAY_ERR.
 * Free with play_replay_free() whatever the result. */
int play_replay(struct store *s, int64_t table, int number, int64_t user, int viewer, int frame,
		struct play_replay *r, struct rerr *e);
void play_replay_free(struct play_replay *r);
/* The steps of finished party `number` for the export, in order (without
 * the continues after its end), with r's table, game, options and party
 * filled (no state). PLAY_NOT_PLAYING while the party runs. */
typedef void (*play_step_fn)(void *ctx, int seat, int64_t at, const char *text);
int play_replay_steps(struct store *s, int64_t table, int number, struct play_replay *r,
		      play_step_fn fn, void *ctx);
/* Pure (the tests'): the frames of log[0..n) from setup su for `viewer`
 * (all: one per step) into frame_step (n + 1 entries); scratch holds a
 * state (g->state_size bytes). The count, or -1 with e when a step does
 * not replay. */
int play_replay_frames(const struct game *g, const struct setup *su, const struct sim_step *log,
		       int n, int viewer, int all, int *frame_step, void *scratch, struct rerr *e);
/* What `seat` (-1: a spectator) sees of a position, as one hash: its view
 * and the public status (whose turn, who is shown acting, the window, the
 * deadline, the epoch, the end) and whether it may act itself. The move
 * transaction's "is this step public" and the replays' steps are this
 * (cgi/engine/move.c). */
uint64_t play_view_sig(const struct game *g, const void *st, int seat);

#endif
