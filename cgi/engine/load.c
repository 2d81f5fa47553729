/*
 * load.c — a table's state from the store: the party inside a write
 * (struct live), a table for a page (play_load), the replay checks and
 * the close of a table whose state does not load. Part of the engine
 * (cgi/engine/, engine.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "i18n.h"
#include "ser.h"
#include "sim.h"

/* Who plays each seat of table t: l->bots, l->resigned, l->level, l->user. */
int live_seats(struct store *s, struct live *l)
{
	struct st_seat seats[GAME_MAX_SEATS];
	int n, rc = from_store(store_table_seats_bare(s, l->t.id, seats, GAME_MAX_SEATS, &n),
			       PLAY_ERR);
	l->bots = l->resigned = l->timed_out = l->autopass = 0;
	memset(l->user, 0, sizeof l->user);
	for (int i = 0; rc == PLAY_OK && i < n; i++) {
		int q = seats[i].seat;
		if (q >= 0 && q < GAME_MAX_SEATS)
			l->user[q] = seats[i].user_id;
		if (q >= 0 && q < GAME_MAX_SEATS && seats[i].autopass)
			l->autopass |= 1u << q;
		if (q < 0 || q >= GAME_MAX_SEATS || !seats[i].bot)
			continue;
		l->bots |= 1u << q;
		l->resigned |= seats[i].resigned ? 1u << q : 0;
		l->timed_out |= seats[i].resigned && seats[i].timeouts ? 1u << q : 0;
		l->level[q] = seats[i].bot == 1 ? BOT_RANDOM : BOT_GREEDY;
	}
	return rc;
}

/* Frees what live_load() allocated; safe on a zeroed struct. */
void live_free(struct live *l)
{
	free(l->state);
	free(l->snap);
	l->state = NULL;
	l->snap = NULL;
}

/* store_moves() callback: one logged step into the replay log (bounded by cap). */
static void add_step(void *ctx, const struct st_move *m)
{
	struct party_log *st = ctx;
	if (st->n >= st->cap)
		return;
	struct sim_step *x = &st->log[st->n++];
	x->seat = m->seat;
	x->at = m->at;
	memcpy(x->text, m->text, sizeof x->text);
}

int party_log_read(struct store *s, const struct st_party *p, struct party_log *out)
{
	int64_t count = 0;
	int rc;
	memset(out, 0, sizeof *out);
	if ((rc = from_store(store_move_count(s, p->id, &count), PLAY_ERR)) != PLAY_OK)
		return rc;
	out->cap = (int)count;
	out->log = calloc(count > 0 ? (size_t)count : 1, sizeof *out->log);
	if (!out->log)
		return PLAY_ERR;
	if ((rc = from_store(store_moves(s, p->id, 0, add_step, out), PLAY_ERR)) != PLAY_OK) {
		free(out->log);
		out->log = NULL;
		return rc;
	}
	/* the pause's continues after the end: the game never saw them */
	while (p->over && out->n > 0 && out->log[out->n - 1].seat >= 0 &&
	       strcmp(out->log[out->n - 1].text, PLAY_CONTINUE) == 0)
		out->n--;
	return PLAY_OK;
}

/* Replays party p of table t from its seed, dealer and log into state
 * (g->state_size bytes), without the pause's continues that follow its end
 * (the game never saw them). PLAY_OK; PLAY_ERR with e->msg when the log
 * does not replay. Inside the caller's transaction. */
static int replay_party(struct store *s, const struct st_table *t, const struct game *g,
			const int *opt, const struct st_party *p, void *state, struct rerr *e)
{
	struct party_log steps;
	struct setup su;
	int rc;
	if ((rc = party_log_read(s, p, &steps)) != PLAY_OK)
		return fail_msg(e, rc, N_("Das Protokoll lässt sich nicht lesen."));
	memset(&su, 0, sizeof su);
	su.nplayers = t->nseats;
	su.dealer = p->dealer;
	su.seed = p->seed;
	memcpy(su.opt, opt, sizeof su.opt);
	rc = sim_replay(g, &su, steps.log, steps.n, state, e) == 0 ? PLAY_OK : PLAY_ERR;
	free(steps.log);
	return rc;
}

/* The states decoded last, each with the snapshot it came from: between
 * two moves a table's page, its JSON twin and every viewer's reload read
 * the same snapshot, and its decode and check gave the same state each
 * time (DNA 26k instructions a read, the others 9-15k). A snapshot equal
 * byte for byte to one here gets a copy of its state; any other is
 * decoded as before and takes the place used longest ago. Per process
 * (a worker serves one request at a time); nothing in it is ever handed
 * out but copies (docs/benchmarks.md, "The shared view, JSON and load
 * path"). */
enum { STATE_MEMO = 4 };
static struct state_memo {
	const struct game *g;      /* NULL: empty */
	size_t len;                /* snap's bytes */
	unsigned char *snap;       /* snap_cap bytes, reused */
	void *state;               /* g->state_size of state_cap bytes, reused */
	size_t snap_cap, state_cap;
	unsigned long long used;   /* when last found or made */
} state_memo[STATE_MEMO];
static unsigned long long state_memo_clock;

/* memcpy in strides of 256 bytes, each a few vector moves: glibc copies
 * more than 2 KB with `rep movsb`, one instruction a byte as callgrind
 * counts it (as ser.c's zero_state). */
static void copy_state(void *to, const void *from, size_t n)
{
	unsigned char *t = to;
	const unsigned char *f = from;
	for (; n >= 256; t += 256, f += 256, n -= 256)
		memcpy(t, f, 256);
	memcpy(t, f, n);
}

/* Buffer *p of *cap bytes with room for n (kept when it has; 0 when out
 * of memory). */
static int room_for(void **p, size_t *cap, size_t n)
{
	if (*cap >= n && *p)
		return 1;
	free(*p);
	*cap = 0;
	if (!(*p = malloc(n)))
		return 0;
	*cap = n;
	return 1;
}

/* Keeps state, decoded from snap (len bytes), in place m. */
static void remember_state(struct state_memo *m, const struct game *g, const void *state,
			   const unsigned char *snap, size_t len)
{
	void *sp = m->snap;
	m->g = NULL;
	if (!room_for(&sp, &m->snap_cap, len ? len : 1) ||
	    !room_for(&m->state, &m->state_cap, g->state_size)) {
		m->snap = sp;
		return;
	}
	m->snap = sp;
	memcpy(m->snap, snap, len);
	copy_state(m->state, state, g->state_size);
	m->g = g;
	m->len = len;
	m->used = ++state_memo_clock;
}

/* game_load_over(g, state, snap, len, e), or a copy of the state a
 * snapshot of the same bytes gave before. */
static int load_state(const struct game *g, void *state, const unsigned char *snap, size_t len,
		      struct rerr *e)
{
	struct state_memo *old = &state_memo[0];
	for (int i = 0; i < STATE_MEMO; i++) {
		struct state_memo *m = &state_memo[i];
		if (m->g == g && m->len == len && memcmp(m->snap, snap, len) == 0) {
			m->used = ++state_memo_clock;
			copy_state(state, m->state, g->state_size);
			return SNAP_OK;
		}
		if (m->used < old->used)
			old = m;
	}
	int rc = game_load_over(g, state, snap, len, e);
	if (rc == SNAP_OK)
		remember_state(old, g, state, snap, len);
	return rc;
}

/* The state of party p from its stored snapshot `snap`. The snapshot is a
 * cache of setup and log: one in a format this build no longer reads is
 * rebuilt by replaying the log (the next step stores it anew). PLAY_OK, or
 * PLAY_CORRUPT (logged while the party runs: the table is then closed,
 * close_broken). state need not be zeroed: it is all decoded, or zeroed
 * (and then rebuilt by the replay, or left zero) when the snapshot does not
 * load. Inside the caller's transaction. */
int party_state(struct store *s, const struct st_table *t, const struct game *g,
		const int *opt, const struct st_party *p, const unsigned char *snap,
		void *state)
{
	struct rerr e;
	int rc = load_state(g, state, snap, p->snap_len, &e);
	if (rc == SNAP_OK)
		return PLAY_OK;
	memset(state, 0, g->state_size);   /* as the callers' zeroed state was before */
	if (rc == SNAP_FORMAT) {
		struct rerr why = e;
		if (replay_party(s, t, g, opt, p, state, &e) == PLAY_OK) {
			fprintf(stderr, "play: table %lld party %d: %s: rebuilt from the log\n",
				(long long)t->id, p->number, why.msg);
			return PLAY_OK;
		}
	}
	if (!p->over)   /* (a party closed as broken says so once, in close_broken) */
		fprintf(stderr, "play: table %lld party %d: snapshot: %s\n", (long long)t->id,
			p->number, e.msg);
	return PLAY_CORRUPT;
}

/* Reads table `id` and, when it is being played, its current party,
 * decoded. PLAY_NOT_FOUND, PLAY_NOT_PLAYING, PLAY_BUSY, PLAY_ERR. The
 * caller frees with live_free() whatever the result. */
int live_load(struct store *s, int64_t id, struct live *l)
{
	int rc;
	memset(l, 0, sizeof *l);
	/* (the engine never reads the host's name: l->t.host stays "") */
	if ((rc = store_table_get_bare(s, id, &l->t)) != PLAY_OK)
		return rc;
	if (l->t.status != TABLE_PLAYING || l->t.party_no < 0)
		return PLAY_NOT_PLAYING;
	if ((rc = table_game(&l->t, &l->g, l->opt)) != PLAY_OK || (rc = live_seats(s, l)) != PLAY_OK)
		return rc;
	l->state = malloc(l->g->state_size);   /* party_state fills or zeroes it */
	l->snap = malloc(GAME_SNAPSHOT_MAX);
	if (!l->state || !l->snap)
		return PLAY_ERR;
	rc = from_store(store_party_get(s, id, l->t.party_no, &l->party, l->snap, GAME_SNAPSHOT_MAX),
			PLAY_ERR);
	if (rc != PLAY_OK)
		return rc;
	return party_state(s, &l->t, l->g, l->opt, &l->party, l->snap, l->state);
}

/* Closes running table `id` whose current party cannot go on: its stored
 * state does not load, or the step it needs next (a passed deadline, a
 * bot's move) would break the game's invariants (save_step refused it).
 * That party ends as a draw (every seat placed first, no points), the
 * table is finished with the parties played (the match totals stand,
 * ratings and a tournament take it as any finished table), every page
 * becomes stale, and the log says why. PLAY_OK also when the table no
 * longer runs. Inside the caller's transaction. */
int close_broken(struct store *s, int64_t id, int64_t now, const char *why)
{
	struct st_table t;
	struct st_party p;
	struct party_result draw;
	struct status over;
	unsigned char *snap = malloc(GAME_SNAPSHOT_MAX);
	int rc = snap ? store_table_get(s, id, &t) : PLAY_ERR;
	if (rc != PLAY_OK || t.status != TABLE_PLAYING || t.party_no < 0)
		goto out;
	rc = from_store(store_party_get(s, id, t.party_no, &p, snap, GAME_SNAPSHOT_MAX), PLAY_ERR);
	if (rc != PLAY_OK)
		goto out;
	memset(&draw, 0, sizeof draw);
	for (int q = 0; q < t.nseats && q < GAME_MAX_SEATS; q++)
		draw.place[q] = 1;
	memset(&over, 0, sizeof over);
	over.over = 1;
	if ((!p.over && (rc = from_store(store_party_end(s, p.id, snap, p.snap_len, &draw,
							 t.nseats), PLAY_ERR)) != PLAY_OK) ||
	    (rc = set_acting(s, &t, &over, 0, 0)) != PLAY_OK ||
	    (rc = from_store(store_table_set_status(s, id, TABLE_FINISHED, t.party_no,
						    t.first_dealer), PLAY_ERR)) != PLAY_OK ||
	    (rc = table_ended(s, &t, now)) != PLAY_OK ||
	    (rc = from_store(store_table_bump(s, id, t.version, 0, t.epoch, NULL), PLAY_ERR)) !=
		    PLAY_OK ||
	    (rc = from_store(store_table_new_epoch(s, id), PLAY_ERR)) != PLAY_OK)
		goto out;
	fprintf(stderr, "play: table %lld party %d: %s: table closed, the party counts as a draw, "
		"the match stands with the parties played\n", (long long)id, t.party_no, why);
out:
	free(snap);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Reading a table for a page                                          */

/* Where store_table_page's finished parties go: the table being read
 * (its seats count) and the page's match table. */
struct finished_to {
	const struct st_table_page *pg;
	struct play_table *pt;
};

static void add_party(void *ctx, const struct st_party *p)
{
	struct finished_to *f = ctx;
	struct play_table *pt = f->pt;
	match_add_party(&pt->totals, p->result.points, f->pg->t.nseats);
	if (pt->nfinished < (int)(sizeof pt->party_score / sizeof pt->party_score[0])) {
		pt->party_id[pt->nfinished] = p->id;
		pt->party_number[pt->nfinished] = p->number;
		memcpy(pt->party_score[pt->nfinished++], p->result.points,
		       sizeof p->result.points);
	}
}

/* The current party of out->t (pg->party, its position in snap), decoded
 * into out->state. A party the table was closed on because it broke
 * (close_broken: stored as over, while its state does not load or is not
 * over) is shown by its stored result alone: out->broken, no state.
 * PLAY_CORRUPT (logged) when a running party does not load. */
static int load_party(struct store *s, struct play_table *out, const struct st_table_page *pg,
		      const unsigned char *snap)
{
	int rc;
	out->party = pg->party;
	rc = party_state(s, &out->t, out->g, out->opt, &out->party, snap, out->state);
	if (rc == PLAY_OK)
		out->g->status(out->state, &out->status);
	if (out->party.over && (rc == PLAY_CORRUPT || (rc == PLAY_OK && !out->status.over))) {
		out->broken = 1;
		memset(&out->status, 0, sizeof out->status);
		return PLAY_OK;
	}
	if (rc != PLAY_OK)
		return rc;
	out->has_party = 1;
	/* the seat's own last step: its page may show it */
	int64_t mine = out->my_seat >= 0 ? pg->my_last : 0;
	out->my_last = mine;
	out->seen = mine > out->seen ? mine : out->seen;
	out->pausing = out->t.status == TABLE_PLAYING && out->status.over;
	if (out->pausing && !out->party.over)   /* (the store marks an ended party over) */
		return ready_mask(s, out->party.id, out->t.nseats, out->t.epoch_version,
				  &out->ready);
	if (out->pausing)
		out->ready = pg->continued;
	return PLAY_OK;
}

/* A running table whose party does not load is closed (close_broken), in a
 * transaction of its own. */
static int close_unloadable(struct store *s, int64_t table, int64_t now_ms)
{
	int rc = store_begin(s);
	if (rc != PLAY_OK)
		return rc;
	return finish(s, close_broken(s, table, now_ms, "the stored state does not load"));
}

static int load_once(struct store *s, int64_t table, int64_t user, int64_t now_ms,
		     struct play_table *out);

/* Everything a table page shows, read in one snapshot (store_table_page)
 * after the passed deadlines were applied. A running table whose party's
 * state no longer loads is closed first (close_broken) and shown finished.
 * PLAY_NOT_FOUND (404), PLAY_ERR (500). The caller calls play_free()
 * whatever the result. */
int play_load(struct store *s, int64_t table, int64_t user, int64_t now_ms,
	      struct play_table *out)
{
	int rc = load_once(s, table, user, now_ms, out);
	if (rc == PLAY_CORRUPT && (rc = close_unloadable(s, table, now_ms)) == PLAY_OK)
		rc = load_once(s, table, user, now_ms, out);
	return rc;
}

/* One read of the table's page (store_table_page); when a deadline of the
 * running table has passed, it is applied first (its own write) and the
 * table read anew. A writer holding the lock past the busy timeout does not
 * keep the page from showing: it shows the state before the deadline, and
 * the next load applies it. */
static int read_page(struct store *s, int64_t table, int64_t user, int64_t now_ms,
		     struct st_table_page *pg, unsigned char *snap, struct play_table *out)
{
	struct finished_to f = { pg, out };
	int rc = from_store(store_table_page(s, table, user, pg, snap, GAME_SNAPSHOT_MAX, add_party,
					     &f), PLAY_NOT_FOUND);
	if (rc != PLAY_OK || pg->t.status != TABLE_PLAYING ||
	    !deadline_passed(pg->t.next_deadline, now_ms))
		return rc;
	rc = play_tick(s, table, now_ms);
	if (rc != PLAY_OK && rc != PLAY_BUSY && rc != PLAY_NOSPACE)
		return rc;
	memset(&out->totals, 0, sizeof out->totals);
	out->nfinished = 0;
	return from_store(store_table_page(s, table, user, pg, snap, GAME_SNAPSHOT_MAX, add_party,
					   &f), PLAY_NOT_FOUND);
}

static int load_once(struct store *s, int64_t table, int64_t user, int64_t now_ms,
		     struct play_table *out)
{
	struct st_table_page *pg = malloc(sizeof *pg);
	unsigned char *snap = malloc(GAME_SNAPSHOT_MAX);
	int rc = PLAY_ERR;

	memset(out, 0, sizeof *out);
	out->my_seat = -1;
	if (!pg || !snap || (rc = read_page(s, table, user, now_ms, pg, snap, out)) != PLAY_OK ||
	    (rc = table_game(&pg->t, &out->g, out->opt)) != PLAY_OK)
		goto out;
	out->t = pg->t;
	memcpy(out->seats, pg->seats, sizeof out->seats);
	out->nseated = pg->nseated;
	out->in_tourney = pg->in_tourney;
	out->tourney = pg->tourney;
	out->viewer_waiting = user > 0 ? pg->waiting : -1;
	out->has_chat = pg->has_chat;
	for (int i = 0; user > 0 && i < out->nseated; i++)
		if (out->seats[i].user_id == user)
			out->my_seat = out->seats[i].seat;
	out->seen = out->t.public_version;
	if (out->t.party_no >= 0) {
		out->state = malloc(out->g->state_size);   /* party_state fills or zeroes it */
		rc = !out->state ? PLAY_ERR : !pg->has_party ? from_store(ST_NOTFOUND, PLAY_ERR) :
		     load_party(s, out, pg, snap);
	}
out:
	free(snap);
	free(pg);
	if (rc != PLAY_OK) {
		free(out->state);
		out->state = NULL;
		out->has_party = 0;
	}
	return rc;
}

/* Frees the decoded state; the struct itself is the caller's. */
void play_free(struct play_table *pt)
{
	if (!pt)
		return;
	free(pt->state);
	pt->state = NULL;
	pt->has_party = 0;
}

/* ------------------------------------------------------------------ */
/* Replay check                                                        */

/* Rebuilds party `number` from its seed, dealer and log, and compares the
 * encoding with the stored snapshot. PLAY_OK when equal; PLAY_ERR with
 * e->msg when the replay fails or differs; PLAY_NOT_FOUND without such a
 * table or party. Reads only. */
int play_verify_party(struct store *s, int64_t table, int number, struct rerr *e)
{
	struct st_table t;
	struct st_party p;
	int opt[GAME_OPT_MAX] = { 0 };
	const struct game *g;
	size_t len;
	void *state = NULL;
	unsigned char *stored = NULL, *replayed = NULL;
	struct rerr re;
	int rc;

	if ((rc = store_begin_read(s)) != PLAY_OK)
		return rc;
	if ((rc = store_table_get(s, table, &t)) != PLAY_OK ||
	    (rc = table_game(&t, &g, opt)) != PLAY_OK)
		goto out;
	rc = PLAY_ERR;
	stored = malloc(GAME_SNAPSHOT_MAX);
	replayed = malloc(GAME_SNAPSHOT_MAX);
	state = calloc(1, g->state_size);
	if (!stored || !replayed || !state)
		goto out;
	if ((rc = store_party_get(s, table, number, &p, stored, GAME_SNAPSHOT_MAX)) != PLAY_OK)
		goto out;
	if ((rc = replay_party(s, &t, g, opt, &p, state, &re)) != PLAY_OK) {
		if (e)
			*e = re;
		goto out;
	}
	if ((rc = encode_state(g, state, replayed, &len)) != PLAY_OK)
		goto out;
	if (len != p.snap_len || memcmp(stored, replayed, len) != 0) {
		rc = fail_msg(e, PLAY_ERR, N_("Die Wiederholung aus dem Protokoll ergibt einen "
					      "anderen Stand als gespeichert."));
		goto out;
	}
	rc = PLAY_OK;
out:
	store_rollback(s);
	free(state);
	free(replayed);
	free(stored);
	return rc;
}
