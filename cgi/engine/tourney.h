/*
 * tourney.h — the tournament engine between a request and the pure
 * tournament core (rules/tournament.h, rules/pairing.h); knows no HTTP and
 * no HTML. Like play.h, every call that writes is one transaction, and a
 * refused one changes nothing (e->msg says why, in German).
 *
 * Rounds are seated lazily, never by a timer: the first request after the
 * start time (the tournament's page, the lobby's sweep) seats round 1; the
 * transaction that finishes the last table of a round seats the next one
 * (tourney_after_table, a table-end listener of the engine: play.h). Every table it seats is an
 * ordinary table of the tournament's game, options and speed, with its
 * match, clocks and bots.
 */
#ifndef SPIELTISCH_TOURNEY_H
#define SPIELTISCH_TOURNEY_H

#include <stdint.h>

#include "game.h"
#include "pairing.h"
#include "play.h"
#include "store.h"
#include "tournament.h"

enum {
	TOURNEY_PLAYERS_MAX = PAIRING_PLAYERS_MAX,   /* registrations */
	TOURNEY_NAME_MIN = 3,
	TOURNEY_OPEN_PER_USER = 3,   /* not yet ended tournaments one user organises */
};

/* What an organiser fills in; validated by tourney_create. */
struct tourney_new {
	char name[ST_TNAME_MAX + 1];
	const char *game;                /* a registered slug */
	const char *options;             /* the game's options, as the lobby's form */
	enum tourney_format format;
	int seats, min_seats, rounds, advance;
	const char *points;              /* "6,4,2,0", or NULL / "" for the default */
	enum tourney_tiebreak tb[TOURNEY_TIEBREAKS];
	struct play_speed speed;
	int64_t register_until, starts_at;
};

/* A new tournament; its organiser is `user` (who need not play).
 * PLAY_INVALID with e->msg for a bad field, or when the user organises
 * TOURNEY_OPEN_PER_USER tournaments already that have not ended. */
int tourney_create(struct store *s, const struct tourney_new *n, int64_t user, int64_t now,
		   int64_t *id, struct rerr *e);
/* The user registers (until the registration deadline and the start). */
int tourney_register(struct store *s, int64_t t, int64_t user, int64_t now, struct rerr *e);
/* `user` leaves: `by` is the user (withdraws) or the organiser (removes a
 * no-show). Before the start the registration is gone; after it the
 * player is seated no more and a bot finishes their seat of the running
 * round (their match unrated for them). */
int tourney_withdraw(struct store *s, int64_t t, int64_t user, int64_t by, int64_t now,
		     struct rerr *e);
/* The organiser starts a tournament still registering now. */
int tourney_start(struct store *s, int64_t t, int64_t user, int64_t now, struct rerr *e);
/* Starts tournament t if its start has come (round 1, or cancelled when
 * too few registered); PLAY_OK when there was nothing to do. */
int tourney_tick(struct store *s, int64_t t, int64_t now);
/* Starts up to `max` tournaments whose start has come (the lobby's sweep). */
int tourney_sweep(struct store *s, int64_t now, int max);

/* Inside the transaction that finished table `t` (or closed it for
 * idleness): when it is a tournament's, its results become rows and, with
 * the round's last table, the next round is seated or the tournament ends.
 * Play codes. */
int tourney_after_table(struct store *s, const struct st_table *t, int64_t now);

/* Writes the standings of tournament id as they stand now (after results
 * changed: tournament_standings), inside the caller's transaction. */
int tourney_standings_save(struct store *s, int64_t id);

/* "party,sb" into tb (TB_NONE-filled); -1 for an unknown word. */
int tourney_tiebreaks_parse(const char *text, enum tourney_tiebreak tb[TOURNEY_TIEBREAKS]);

#endif
