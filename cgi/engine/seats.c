/*
 * seats.c — tables and their seats: create, join, leave, a bot's seat,
 * the seat acts (resign, pause), claim, expel, auto-pass, invitations and
 * the rematch. Part of the engine (cgi/engine/, engine.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "i18n.h"
#include "options.h"
#include "seatclock.h"

/* The seat `user` holds at the table in *seat (-1: none, or user 0). */
static int seat_of(struct store *s, int64_t table, int64_t user, int *seat)
{
	struct st_seat seats[GAME_MAX_SEATS];
	int n, rc = store_table_seats(s, table, seats, GAME_MAX_SEATS, &n);
	*seat = -1;
	for (int i = 0; rc == ST_OK && user > 0 && i < n; i++)
		if (seats[i].user_id == user)
			*seat = seats[i].seat;
	return from_store(rc, PLAY_ERR);
}

/* A new open table with the creator on seat 0. PLAY_INVALID with e->msg for
 * an unknown game, a seat count outside the game's range or a bad option
 * (a 200 with the form and the note); PLAY_BUSY (503), PLAY_ERR (500). */
int play_create(struct store *s, const char *slug, const char *options, int nseats,
		int64_t user, int64_t now_ms, int64_t *table_id, struct rerr *e)
{
	return play_create_timed(s, slug, options, nseats, NULL, user, now_ms, table_id, e);
}

/* Inside the caller's transaction: table `slug` with canonical options,
 * nseats seats, n parties and the speed, opened by `host`, users[0..k-1]
 * on its first seats; a table whose seats are all taken starts. */
static int table_open(struct store *s, const char *slug, const char *canon, int nseats, int n,
		      const struct play_speed *speed, const int64_t *users, int k, int64_t host,
		      int64_t now_ms, int64_t *id)
{
	struct st_table t;
	int seat;
	int rc = from_store(store_table_create(s, slug, canon, nseats, n, host, now_ms, id),
			    PLAY_ERR);
	if (rc == PLAY_OK && speed && speed->clock.first_ms > 0)
		rc = from_store(store_table_set_clock(s, *id, &speed->clock, speed->timeouts_max),
				PLAY_ERR);
	for (int i = 0; rc == PLAY_OK && i < k; i++)
		rc = from_store(store_seat_take(s, *id, users[i], &seat), PLAY_ERR);
	if (rc == PLAY_OK)
		rc = from_store(store_table_get(s, *id, &t), PLAY_ERR);
	if (rc == PLAY_OK && t.nseats == k)
		rc = start_match(s, &t, now_ms);
	return rc;
}

int play_table_seated(struct store *s, const char *slug, const char *options,
		      const struct play_speed *speed, const int64_t *users, int n, int64_t host,
		      int64_t now_ms, int64_t *id)
{
	const struct game *g = game_find(slug);
	int opt[GAME_OPT_MAX];
	if (!g || n < g->min_players || n > g->max_players ||
	    options_parse(g, opt, options ? options : "", NULL) != 0)
		return PLAY_INVALID;
	int parties = g->parties ? g->parties(n, opt) : 1;
	return table_open(s, slug, options ? options : "", n, parties < 1 ? 1 : parties, speed,
			  users, n, host, now_ms, id);
}

int play_create_timed(struct store *s, const char *slug, const char *options, int nseats,
		      const struct play_speed *speed, int64_t user, int64_t now_ms,
		      int64_t *table_id, struct rerr *e)
{
	int opt[GAME_OPT_MAX];
	char canon[ST_OPTS_MAX + 1];
	int64_t id = 0;
	int n, rc;
	const struct game *g = game_find(slug);
	if (!g)
		return fail_msg(e, PLAY_INVALID, N_("Dieses Spiel gibt es hier nicht."));
	struct rerr pe;
	if (game_players_check(g, nseats, &pe) != 0) {
		if (e)
			*e = pe;
		return PLAY_INVALID;
	}
	if (options_parse(g, opt, options ? options : "", &pe) != 0) {
		if (e)
			*e = pe;
		return PLAY_INVALID;
	}
	if (options_format(g, opt, canon, sizeof canon) != 0) {
		fprintf(stderr, "play: %s: options longer than %d bytes\n", slug, ST_OPTS_MAX);
		return PLAY_ERR;
	}
	n = g->parties ? g->parties(nseats, opt) : 1;
	if (n < 1)
		n = 1;
	if ((rc = store_begin(s)) != PLAY_OK)
		return rc;
	rc = finish(s, table_open(s, slug, canon, nseats, n, speed, &user, 1, user, now_ms, &id));
	if (rc == PLAY_OK && table_id)
		*table_id = id;
	return rc;
}

/* Takes the lowest free seat and, with the last one, starts party 0.
 * PLAY_NOT_FOUND (404), PLAY_ALREADY / PLAY_FULL / PLAY_NOT_PLAYING (a note
 * on the table page), PLAY_BUSY (503), PLAY_ERR (500). */
int play_join(struct store *s, int64_t table, int64_t user, int64_t now_ms, struct rerr *e)
{
	struct st_table t;
	struct st_seat seats[GAME_MAX_SEATS];
	int seat, n, rc;

	if ((rc = store_begin(s)) != PLAY_OK)
		return rc;
	if ((rc = store_table_get(s, table, &t)) != PLAY_OK)
		goto out;
	if (t.status != TABLE_OPEN) {
		if ((rc = seat_of(s, table, user, &seat)) == PLAY_OK)
			rc = seat >= 0 ? PLAY_ALREADY
			     : t.status == TABLE_PLAYING ? PLAY_FULL : PLAY_NOT_PLAYING;
		goto out;
	}
	switch (store_seat_take(s, table, user, &seat)) {
	case ST_OK: break;
	case ST_EXISTS: rc = PLAY_ALREADY; goto out;
	case ST_CONFLICT: rc = PLAY_FULL; goto out;
	case ST_NOTFOUND: rc = PLAY_NOT_FOUND; goto out;
	case ST_BUSY: rc = PLAY_BUSY; goto out;
	default: rc = PLAY_ERR; goto out;
	}
	if ((rc = from_store(store_table_seats(s, table, seats, GAME_MAX_SEATS, &n), PLAY_ERR)) !=
	    PLAY_OK)
		goto out;
	if (n >= t.nseats && (rc = start_match(s, &t, now_ms)) == PLAY_OK)
		rc = bots_act(s, table, now_ms);
	else if (n < t.nseats)
		rc = store_table_bump(s, table, -1, 0, t.epoch, NULL);
out:
	if (rc != PLAY_OK && rc != PLAY_BUSY && rc != PLAY_ERR)
		fail_msg(e, rc, play_message(rc));
	return finish(s, rc);
}

/* A bot of `level` (BOT_RANDOM, BOT_GREEDY) takes the lowest free seat of
 * an open table, on the word of someone seated there; with the last seat
 * the match starts (and the bots that are to act, act). PLAY_NOT_SEATED,
 * PLAY_NOT_PLAYING, PLAY_FULL (a note), PLAY_NOT_FOUND (404), PLAY_INVALID
 * for an unknown level. */
int play_add_bot(struct store *s, int64_t table, int64_t user, int level, int64_t now_ms,
		 struct rerr *e)
{
	struct st_table t;
	struct st_seat seats[GAME_MAX_SEATS];
	int seat, n, rc;
	if (level != BOT_RANDOM && level != BOT_GREEDY)
		return fail_msg(e, PLAY_INVALID, N_("Diesen Bot gibt es nicht."));
	if ((rc = store_begin(s)) != PLAY_OK)
		return rc;
	if ((rc = store_table_get(s, table, &t)) != PLAY_OK ||
	    (rc = seat_of(s, table, user, &seat)) != PLAY_OK)
		goto out;
	if (seat < 0)
		rc = PLAY_NOT_SEATED;
	else if (t.status != TABLE_OPEN)
		rc = PLAY_NOT_PLAYING;
	else if ((rc = from_store(store_seat_add_bot(s, table, level + 1, &seat), PLAY_FULL)) !=
		 PLAY_OK)
		;
	else if ((rc = from_store(store_table_seats(s, table, seats, GAME_MAX_SEATS, &n),
				  PLAY_ERR)) == PLAY_OK && n >= t.nseats) {
		if ((rc = start_match(s, &t, now_ms)) == PLAY_OK)
			rc = bots_act(s, table, now_ms);
	} else if (rc == PLAY_OK) {
		rc = store_table_bump(s, table, -1, 0, t.epoch, NULL);
	}
out:
	if (rc == PLAY_NOT_SEATED || rc == PLAY_NOT_PLAYING || rc == PLAY_FULL)
		fail_msg(e, rc, rc == PLAY_NOT_PLAYING ?
			 N_("Bots setzen sich nur an einen Tisch, der noch auf Mitspieler wartet.") :
			 play_message(rc));
	return finish(s, rc);
}

/* Gives up a seat at an open table; the table goes away with its last
 * player. PLAY_NOT_SEATED / PLAY_NOT_PLAYING (a note), PLAY_NOT_FOUND (404). */
int play_leave(struct store *s, int64_t table, int64_t user, int64_t now_ms, struct rerr *e)
{
	struct st_table t;
	struct st_seat seats[GAME_MAX_SEATS];
	int n, rc;
	(void)now_ms;

	if ((rc = store_begin(s)) != PLAY_OK)
		return rc;
	if ((rc = store_table_get(s, table, &t)) != PLAY_OK)
		goto out;
	if (t.status != TABLE_OPEN) {
		rc = PLAY_NOT_PLAYING;
		goto out;
	}
	if ((rc = from_store(store_seat_leave(s, table, user), PLAY_NOT_SEATED)) != PLAY_OK ||
	    (rc = from_store(store_table_seats(s, table, seats, GAME_MAX_SEATS, &n), PLAY_ERR)) !=
		    PLAY_OK)
		goto out;
	if (n == 0)
		rc = store_table_delete(s, table);
	else
		rc = store_table_bump(s, table, -1, 0, t.epoch, NULL);
out:
	if (rc == PLAY_NOT_SEATED || rc == PLAY_NOT_PLAYING)
		fail_msg(e, rc, rc == PLAY_NOT_PLAYING
					? N_("Das Spiel läuft schon: der Platz bleibt besetzt.")
					: play_message(rc));
	return finish(s, rc);
}

/* After a seat changed hands (a bot took it, its person took it back):
 * the clocks follow (a bot has none), every page becomes stale, and the
 * bots that are to act, act. */
static int seats_changed(struct store *s, struct live *l, int64_t now)
{
	struct status st;
	l->g->status(l->state, &st);
	int64_t deadline = live_pausing(l) ? l->t.next_deadline : st.deadline;
	int rc = live_pausing(l) ? PLAY_OK :
		 from_store(seatclock_sync(s, &l->t, &st, now, &deadline), PLAY_ERR);
	if (rc == PLAY_OK)
		rc = from_store(store_table_bump(s, l->t.id, -1, deadline, l->t.epoch, NULL),
				PLAY_ERR);
	if (rc == PLAY_OK)
		rc = from_store(store_table_new_epoch(s, l->t.id), PLAY_ERR);
	return rc == PLAY_OK ? bots_act(s, l->t.id, now) : rc;
}

/* What a person does with their seat of a running table: let a bot play
 * it, take it back from the bot, or resign (a bot plays on; the results
 * count as last). Every page of the table becomes stale; the bots that are
 * to act, act. PLAY_NOT_SEATED, PLAY_NOT_PLAYING, PLAY_REJECTED (a note:
 * not possible now), PLAY_NOT_FOUND (404). */
int play_seat(struct store *s, int64_t table, int64_t user, enum play_seat_act act,
	      int64_t now_ms, struct rerr *e)
{
	struct live l;
	int seat, rc;
	if ((rc = store_begin(s)) != PLAY_OK)
		return rc;
	if ((rc = live_load(s, table, &l)) != PLAY_OK || (rc = seat_of(s, table, user, &seat)) !=
							 PLAY_OK)
		goto out;
	int bot = seat >= 0 && ((l.bots >> seat) & 1u), resigned = seat >= 0 &&
								((l.resigned >> seat) & 1u);
	if (seat < 0)
		rc = PLAY_NOT_SEATED;
	else if (resigned)
		rc = fail_msg(e, PLAY_REJECTED, (l.timed_out >> seat) & 1u ?
			      N_("Deine Zeit ist abgelaufen: ein Bot spielt deinen Platz zu "
				 "Ende.") :
			      N_("Du hast schon aufgegeben."));
	else if (act == PLAY_SEAT_BOT && bot)
		rc = fail_msg(e, PLAY_REJECTED, N_("Ein Bot spielt schon für dich."));
	else if (act == PLAY_SEAT_BACK && !bot)
		rc = fail_msg(e, PLAY_REJECTED, N_("Du spielst deinen Platz schon selbst."));
	if (rc != PLAY_OK)
		goto out;
	rc = from_store(store_seat_set_bot(s, table, seat, act == PLAY_SEAT_BACK ? 0 :
					   BOT_GREEDY + 1, act == PLAY_SEAT_RESIGN), PLAY_ERR);
	if (rc == PLAY_OK)
		rc = seats_changed(s, &l, now_ms);
out:
	return live_finish(s, &l, rc, e);
}

int play_claim(struct store *s, int64_t table, int64_t user, int seat, int64_t now_ms,
	       struct rerr *e)
{
	struct st_table t;
	struct st_seat seats[GAME_MAX_SEATS];
	int mine, n, rc;
	(void)now_ms;
	if ((rc = store_begin(s)) != PLAY_OK)
		return rc;
	if ((rc = store_table_get(s, table, &t)) != PLAY_OK ||
	    (rc = seat_of(s, table, user, &mine)) != PLAY_OK ||
	    (rc = from_store(store_table_seats(s, table, seats, GAME_MAX_SEATS, &n), PLAY_ERR)) !=
		    PLAY_OK)
		goto out;
	if (mine >= 0)
		rc = fail_msg(e, PLAY_ALREADY, play_message(PLAY_ALREADY));
	else if (t.status != TABLE_PLAYING || t.party_no + 1 >= t.nparties)
		rc = fail_msg(e, PLAY_REJECTED, N_("Hier beginnt keine Partie mehr: es gibt keinen "
						   "Platz zu übernehmen."));
	for (int i = 0; rc == PLAY_OK && i < n; i++)
		if (seats[i].claimed_by == user)
			rc = fail_msg(e, PLAY_STALE, N_("Du übernimmst hier schon einen Platz, ab "
							"der nächsten Partie."));
	if (rc == PLAY_OK && store_seat_claim(s, table, seat, user) != ST_OK)
		rc = fail_msg(e, PLAY_REJECTED, N_("Diesen Platz kann gerade niemand übernehmen."));
	if (rc == PLAY_OK)
		rc = from_store(store_table_bump(s, table, -1, t.next_deadline, t.epoch, NULL),
				PLAY_ERR);
out:
	return finish(s, rc);
}

int play_expel(struct store *s, int64_t table, int64_t user, int target, int64_t now_ms,
	       struct rerr *e)
{
	struct live l;
	struct st_seat seats[GAME_MAX_SEATS];
	int seat, n, rc;
	if ((rc = store_begin(s)) != PLAY_OK)
		return rc;
	if ((rc = live_load(s, table, &l)) != PLAY_OK ||
	    (rc = seat_of(s, table, user, &seat)) != PLAY_OK ||
	    (rc = from_store(store_table_seats(s, table, seats, GAME_MAX_SEATS, &n), PLAY_ERR)) !=
		    PLAY_OK)
		goto out;
	uint32_t voters = target >= 0 && target < l.t.nseats ? seatclock_voters(seats, n, target) : 0;
	uint32_t votes = 0;
	for (int i = 0; i < n; i++)
		votes |= seats[i].seat == target ? seats[i].expel_votes : 0;
	if (seat < 0)
		rc = PLAY_NOT_SEATED;
	else if (!((voters >> seat) & 1u))
		rc = fail_msg(e, PLAY_REJECTED, N_("Abstimmen lässt sich nur über einen Platz, den "
						   "ein Mensch spielt und dessen Zeit schon "
						   "abgelaufen ist."));
	else if ((votes >> seat) & 1u)
		rc = fail_msg(e, PLAY_STALE, N_("Deine Stimme ist schon gezählt."));
	if (rc != PLAY_OK)
		goto out;
	votes |= 1u << seat;
	rc = from_store(store_seat_expel_vote(s, table, target, 1u << seat), PLAY_ERR);
	if (rc == PLAY_OK && (votes & voters) == voters) {
		rc = from_store(store_seat_set_bot(s, table, target, BOT_GREEDY + 1, 1), PLAY_ERR);
		if (rc == PLAY_OK)
			rc = seats_changed(s, &l, now_ms);
	} else if (rc == PLAY_OK) {
		rc = from_store(store_table_bump(s, table, -1, l.t.next_deadline, l.t.epoch, NULL),
				PLAY_ERR);
	}
out:
	return live_finish(s, &l, rc, e);
}

/* The viewer's standing choice at a table they sit at, open or running:
 * pass every window automatically (on) or not. A window open for them now
 * is passed at once. PLAY_NOT_SEATED (a note), PLAY_NOT_FOUND (404). */
int play_autopass(struct store *s, int64_t table, int64_t user, int on, int64_t now_ms,
		  struct rerr *e)
{
	struct st_table t;
	int rc;
	if ((rc = store_begin(s)) != PLAY_OK)
		return rc;
	if ((rc = store_table_get(s, table, &t)) == PLAY_OK &&
	    (rc = from_store(store_seat_set_autopass(s, table, user, on), PLAY_NOT_SEATED)) ==
		    PLAY_OK &&
	    (rc = from_store(store_table_bump_quiet(s, table, -1, t.next_deadline, t.epoch, NULL),
			     PLAY_ERR)) == PLAY_OK && t.status == TABLE_PLAYING)
		rc = bots_act(s, table, now_ms);
	if (rc == PLAY_NOT_SEATED)
		fail_msg(e, rc, play_message(rc));
	return finish(s, rc);
}

int play_invite(struct store *s, int64_t table, int64_t user, const char *name, int64_t now_ms,
		struct rerr *e)
{
	struct st_table t;
	struct st_user u;
	int mine, theirs, rc;
	if ((rc = store_begin(s)) != PLAY_OK)
		return rc;
	if ((rc = store_table_get(s, table, &t)) != PLAY_OK ||
	    (rc = seat_of(s, table, user, &mine)) != PLAY_OK)
		goto out;
	if (mine < 0) {
		rc = fail_msg(e, PLAY_NOT_SEATED, N_("Einladen kann nur, wer an diesem Tisch "
						     "sitzt."));
		goto out;
	}
	if (t.status != TABLE_OPEN) {
		rc = fail_msg(e, PLAY_NOT_PLAYING, N_("Der Tisch wartet nicht mehr auf "
						      "Mitspieler."));
		goto out;
	}
	switch (store_user_by_name(s, name ? name : "", &u)) {
	case ST_OK: break;
	case ST_NOTFOUND: rc = fail_msg(e, PLAY_REJECTED, N_("Diesen Namen gibt es hier "
							     "nicht.")); goto out;
	default: rc = PLAY_ERR; goto out;
	}
	if ((rc = seat_of(s, table, u.id, &theirs)) != PLAY_OK)
		goto out;
	if (u.id == user || theirs >= 0)
		rc = fail_msg(e, PLAY_REJECTED, N_("Wer schon an diesem Tisch sitzt, braucht keine "
						   "Einladung."));
	else
		rc = from_store(store_invite(s, table, user, u.id, now_ms), PLAY_ERR);
out:
	return finish(s, rc);
}

int play_rematch(struct store *s, int64_t table, int64_t user, int64_t now_ms, int64_t *next,
		 struct rerr *e)
{
	struct st_table t;
	struct st_seat seats[GAME_MAX_SEATS];
	int mine, n, rc;
	*next = 0;
	if ((rc = store_begin(s)) != PLAY_OK)
		return rc;
	if ((rc = store_table_get(s, table, &t)) != PLAY_OK ||
	    (rc = seat_of(s, table, user, &mine)) != PLAY_OK)
		goto out;
	if (mine < 0)
		rc = fail_msg(e, PLAY_NOT_SEATED, play_message(PLAY_NOT_SEATED));
	else if (t.status != TABLE_FINISHED)
		rc = fail_msg(e, PLAY_NOT_PLAYING, N_("Das Match läuft noch."));
	if (rc != PLAY_OK || (*next = t.rematch) != 0)
		goto out;   /* (someone asked first: the same new table) */
	struct play_speed sp = { t.clock, t.timeouts_max };
	rc = table_open(s, t.game, t.options, t.nseats, t.nparties, &sp, &user, 1, user, now_ms,
				next);
	if (rc == PLAY_OK)
		rc = from_store(store_table_seats(s, table, seats, GAME_MAX_SEATS, &n), PLAY_ERR);
	for (int i = 0; rc == PLAY_OK && i < n; i++)
		if (seats[i].user_id && seats[i].user_id != user)
			rc = from_store(store_invite(s, *next, user, seats[i].user_id, now_ms), PLAY_ERR);
	if (rc == PLAY_OK)
		rc = from_store(store_table_set_rematch(s, table, *next), PLAY_ERR);
	if (rc == PLAY_OK)
		rc = from_store(store_table_bump(s, table, -1, 0, t.epoch, NULL), PLAY_ERR);
out:
	rc = finish(s, rc);
	if (rc != PLAY_OK)
		*next = 0;
	return rc;
}
