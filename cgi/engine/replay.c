/*
 * replay.c — a party position by position, rebuilt from its seed, dealer,
 * options and stored steps by the rules core (no position is stored for
 * it): the replay of a finished party, "Seit deinem letzten Zug" at a
 * running one, and the export's check. Part of the engine (engine.h);
 * its public face is in play.h (play_replay, play_replay_frames).
 *
 * A finished party (or one of a finished table) shows every step to
 * everyone, from any seat's point of view. A running party shows a seat
 * only the positions its own page showed: a step of another seat that
 * changed nothing that seat sees (a pass in a window, a secret choice that
 * shows only later) is folded into the next position it did see, and the
 * text of another seat's step is left out (docs/rulings.md, "Replays").
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "sim.h"

/* ---- the frames: the positions a viewer steps through -------------- */

/* One step applied to st (a tick for seat < 0). 0, or -1 with e. */
static int step_apply(const struct game *g, void *st, const struct sim_step *x, struct rerr *e)
{
	if (x->seat < 0) {
		g->tick(st, x->at);
		return 0;
	}
	return g->apply(st, x->seat, x->text, x->at, e);
}

int play_replay_frames(const struct game *g, const struct setup *su, const struct sim_step *log,
		       int n, int viewer, int all, int *frame_step, void *scratch, struct rerr *e)
{
	if (game_setup(g, scratch, su, e) != 0)
		return -1;
	int nf = 0;
	frame_step[nf++] = 0;
	uint64_t seen = all ? 0 : play_view_sig(g, scratch, viewer);
	for (int i = 0; i < n; i++) {
		if (step_apply(g, scratch, &log[i], e) != 0)
			return -1;
		if (all || (viewer >= 0 && log[i].seat == viewer)) {
			frame_step[nf++] = i + 1;
			if (!all)
				seen = play_view_sig(g, scratch, viewer);
			continue;
		}
		uint64_t now = play_view_sig(g, scratch, viewer);
		if (now != seen) {
			frame_step[nf++] = i + 1;
			seen = now;
		}
	}
	return nf;
}

/* ---- reading a party from the store -------------------------------- */

/* The table, its seats and party `number` (-1: the current one) into r,
 * its steps into *steps (malloc'd). In the caller's read transaction. */
static int read_party(struct store *s, int64_t table, int number, struct play_replay *r,
		      struct party_log *steps)
{
	int rc;
	if ((rc = from_store(store_table_get(s, table, &r->t), PLAY_NOT_FOUND)) != PLAY_OK)
		return rc;
	if (r->t.party_no < 0)
		return PLAY_NOT_PLAYING;
	if ((rc = table_game(&r->t, &r->g, r->opt)) != PLAY_OK ||
	    (rc = from_store(store_table_seats(s, table, r->seats, GAME_MAX_SEATS, &r->nseated),
			     PLAY_ERR)) != PLAY_OK)
		return rc;
	unsigned char *snap = malloc(GAME_SNAPSHOT_MAX);
	if (!snap)
		return PLAY_ERR;
	rc = from_store(store_party_get(s, table, number < 0 ? r->t.party_no : number, &r->party,
					snap, GAME_SNAPSHOT_MAX), PLAY_NOT_FOUND);
	free(snap);
	return rc == PLAY_OK ? party_log_read(s, &r->party, steps) : rc;
}

/* The viewer's seat at the table (-1 none) and the seat last_own frame. */
static void find_seat(struct play_replay *r, int64_t user)
{
	r->my_seat = -1;
	for (int i = 0; user > 0 && i < r->nseated; i++)
		if (r->seats[i].user_id == user)
			r->my_seat = r->seats[i].seat;
}

/* Plays the steps into r->state up to frame r->frame, keeping the
 * position of the frame before in r->prev, and fills the step fields. */
static int play_to(struct play_replay *r, const struct setup *su, const struct party_log *st,
		   const int *frame_step, struct rerr *e)
{
	int upto = frame_step[r->frame], before = r->frame > 0 ? frame_step[r->frame - 1] : 0;
	if (game_setup(r->g, r->state, su, e) != 0)
		return PLAY_CORRUPT;
	for (int i = 0; i < upto; i++) {
		if (i == before && r->frame > 0)
			memcpy(r->prev, r->state, r->g->state_size);
		if (step_apply(r->g, r->state, &st->log[i], e) != 0)
			return PLAY_CORRUPT;
	}
	r->g->status(r->state, &r->status);
	r->step_seat = PLAY_REPLAY_DEAL;
	/* while the party runs, steps count by the positions the seat saw:
	 * the log's count would tell how many it did not see */
	r->step_no = r->over ? upto : r->frame;
	if (r->frame == 0)
		return PLAY_OK;
	const struct sim_step *x = &st->log[upto - 1];
	r->step_seat = x->seat;
	r->step_at = r->over ? x->at : 0;
	r->step_shown = r->over || x->seat < 0 || (r->viewer >= 0 && x->seat == r->viewer);
	if (r->step_shown)
		memcpy(r->step_text, x->text, sizeof r->step_text);
	return PLAY_OK;
}

/* The frame of the viewer's own last step (running party), 0 when none. */
static int own_last_frame(const struct play_replay *r, const struct party_log *st,
			  const int *frame_step)
{
	int last = 0;
	for (int f = 1; f < r->nframes && r->viewer >= 0; f++)
		if (st->log[frame_step[f] - 1].seat == r->viewer)
			last = f;
	return last;
}

int play_replay(struct store *s, int64_t table, int number, int64_t user, int viewer, int frame,
		struct play_replay *r, struct rerr *e)
{
	struct party_log st = { NULL, 0, 0 };
	int *frame_step = NULL, rc;
	struct setup su;
	memset(r, 0, sizeof *r);
	if ((rc = from_store(store_begin_read(s), PLAY_ERR)) != PLAY_OK)
		return rc;
	rc = read_party(s, table, number, r, &st);
	store_rollback(s);
	if (rc != PLAY_OK)
		goto out;
	find_seat(r, user);
	r->over = r->party.over || r->t.status == TABLE_FINISHED;
	/* a running party: the viewer's own seat, or a spectator's view */
	r->viewer = r->over ? (viewer >= -1 && viewer < r->t.nseats ? viewer : r->my_seat)
			    : r->my_seat;
	memset(&su, 0, sizeof su);
	su.nplayers = r->t.nseats;
	su.dealer = r->party.dealer;
	su.seed = r->party.seed;
	memcpy(su.opt, r->opt, sizeof su.opt);
	rc = PLAY_ERR;
	r->state = calloc(1, r->g->state_size);
	r->prev = calloc(1, r->g->state_size);
	frame_step = calloc((size_t)st.n + 1, sizeof *frame_step);
	if (!r->state || !r->prev || !frame_step)
		goto out;
	r->nframes = play_replay_frames(r->g, &su, st.log, st.n, r->viewer, r->over, frame_step,
					r->state, e);
	if (r->nframes < 0) {
		rc = PLAY_CORRUPT;
		goto out;
	}
	r->last_own = r->over ? 0 : own_last_frame(r, &st, frame_step);
	r->frame = frame < 0 || frame >= r->nframes ? r->nframes - 1 : frame;
	rc = play_to(r, &su, &st, frame_step, e);
out:
	free(frame_step);
	free(st.log);
	if (rc != PLAY_OK)
		play_replay_free(r);
	return rc;
}

void play_replay_free(struct play_replay *r)
{
	if (!r)
		return;
	free(r->state);
	free(r->prev);
	r->state = r->prev = NULL;
}

/* ---- the export ------------------------------------------------------ */

int play_replay_steps(struct store *s, int64_t table, int number, struct play_replay *r,
		      play_step_fn fn, void *ctx)
{
	struct party_log st = { NULL, 0, 0 };
	int rc;
	memset(r, 0, sizeof *r);
	if ((rc = from_store(store_begin_read(s), PLAY_ERR)) != PLAY_OK)
		return rc;
	rc = read_party(s, table, number, r, &st);
	store_rollback(s);
	r->over = rc == PLAY_OK && r->party.over;
	r->viewer = -1;
	if (rc == PLAY_OK && !r->over)
		rc = PLAY_NOT_PLAYING;   /* a running party has no export */
	for (int i = 0; rc == PLAY_OK && i < st.n; i++)
		fn(ctx, st.log[i].seat, st.log[i].at, st.log[i].text);
	r->nframes = st.n + 1;
	free(st.log);
	return rc;
}
