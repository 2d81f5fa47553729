/*
 * engine.h — what the files of the engine (cgi/engine/) share and
 * nobody else sees: the party a write transaction holds (struct live) and
 * the steps more than one room takes. Each is documented where it is
 * defined. The engine's public face is play.h.
 */
#ifndef SPIELTISCH_ENGINE_H
#define SPIELTISCH_ENGINE_H

#include <stdint.h>

#include "bot.h"
#include "game.h"
#include "play.h"
#include "store.h"

/* Short names for play_from_store, play_fail and play_finish. */
#define from_store play_from_store
#define fail_msg play_fail
#define finish play_finish

/* One party's state inside a write transaction: the table, its current
 * party decoded, and who plays each seat (live_load, live_free). */
struct live {
	struct st_table t;
	const struct game *g;
	int opt[GAME_OPT_MAX];
	struct st_party party;
	void *state;
	unsigned char *snap;       /* GAME_SNAPSHOT_MAX bytes, scratch */
	uint32_t bots;             /* seats a bot plays (bits) */
	uint32_t resigned;         /* seats whose person gave up (bits) */
	uint32_t timed_out;        /* of those, the ones that ran out of time */
	uint32_t ran_out;          /* seats whose clock clock_step() applied now */
	uint32_t autopass;         /* seats whose person passes every window (bits) */
	int level[GAME_MAX_SEATS]; /* a bot seat's level: BOT_RANDOM, BOT_GREEDY */
	int64_t user[GAME_MAX_SEATS]; /* who holds each seat (0: nobody) */
};

/* party.c */
int table_game(const struct st_table *t, const struct game **g, int *opt);
int encode_state(const struct game *g, const void *st, unsigned char *snap, size_t *len);
int start_party(struct store *s, const struct st_table *t, int number, int dealer,
		int64_t now, struct status *st);
int set_acting(struct store *s, const struct st_table *t, const struct status *st,
	       int pausing, uint32_t ready);
int start_match(struct store *s, const struct st_table *t, int64_t now);
int table_ended(struct store *s, const struct st_table *t, int64_t now);
int live_pausing(const struct live *l);
int next_party(struct store *s, struct live *l, int64_t now);
int ready_mask(struct store *s, int64_t party, int nseats, int64_t ended, uint32_t *mask);
int is_continue(const char *move);
int party_continue(struct store *s, struct live *l, int seat, const char *move,
		   int64_t now, struct rerr *e);

/* load.c */
/* The logged steps of party p in order (malloc'd log, free() it), without
 * the pause's continues after its end (the game never saw them). */
struct sim_step;
struct party_log {
	struct sim_step *log;
	int n, cap;
};
int party_log_read(struct store *s, const struct st_party *p, struct party_log *out);
int live_seats(struct store *s, struct live *l);
int party_state(struct store *s, const struct st_table *t, const struct game *g,
		const int *opt, const struct st_party *p, const unsigned char *snap,
		void *state);
void live_free(struct live *l);
int live_load(struct store *s, int64_t id, struct live *l);
int close_broken(struct store *s, int64_t id, int64_t now, const char *why);

/* move.c */
/* Who acts after a step (f) into row, with what that changes against the
 * table as loaded (t): the seats whose asked state changes, and the new
 * deadline when it is earlier (what /me must notice, store_table_step). */
void step_row_flags(struct st_step_row *row, const struct st_table *t,
		    const struct play_flags *f);
int save_step(struct store *s, struct live *l, int seat, const char *text, int64_t now,
	      int quiet);
int apply_move(struct store *s, struct live *l, int seat, const char *move, int64_t now,
	       struct rerr *e);
int live_finish(struct store *s, struct live *l, int rc, struct rerr *e);

/* bots.c */
void find_pass(void *ctx, const char *move);
int bot_move(struct store *s, struct live *l, int seat, enum bot_level level, int64_t now,
	     struct bot_mem *m, char *move, int *found);
int bots_act(struct store *s, int64_t table, int64_t now);

/* sweep.c */
int live_tick(struct store *s, struct live *l, int64_t now);
int clock_step(struct store *s, struct live *l, int64_t now, int *done);

#endif
