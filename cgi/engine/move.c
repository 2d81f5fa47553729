/*
 * move.c — the move transaction: a person's move from the typed text to
 * the saved step (play_move), its staleness check, the step's save
 * (save_step) and the engine's result codes and messages. Part of the
 * engine (cgi/engine/, engine.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "i18n.h"
#include "movetext.h"
#include "perft.h"
#include "seatclock.h"

static const char *const messages[] = {
	[PLAY_OK] = N_("Erledigt."),
	[PLAY_STALE] = N_("Die Seite war nicht mehr aktuell: hier ist der neue Stand."),
	[PLAY_REJECTED] = N_("Dieser Zug ist nicht erlaubt."),
	[PLAY_NOT_SEATED] = N_("Du sitzt nicht an diesem Tisch."),
	[PLAY_NOT_FOUND] = N_("Diesen Tisch gibt es nicht."),
	[PLAY_NOT_PLAYING] = N_("An diesem Tisch wird gerade nicht gespielt."),
	[PLAY_FULL] = N_("An diesem Tisch ist kein Platz mehr frei."),
	[PLAY_ALREADY] = N_("Du sitzt schon an diesem Tisch."),
	[PLAY_INVALID] = N_("Diese Angaben passen nicht für einen neuen Tisch."),
	[PLAY_BUSY] = N_("Gerade ist viel los: bitte gleich noch einmal versuchen."),
	[PLAY_ERR] = N_("Interner Fehler, bitte später noch einmal versuchen."),
	[PLAY_NOSPACE] = N_("Der Server hat keinen Speicherplatz mehr: nichts wurde gespeichert."),
	[PLAY_CORRUPT] = N_("Dieser Tisch ist beschädigt: sein Spielstand lässt sich nicht laden."),
	[RC_EXISTS] = N_("Interner Fehler, bitte später noch einmal versuchen."),
	[RC_CONFLICT] = N_("Interner Fehler, bitte später noch einmal versuchen."),
};

_Static_assert(sizeof messages / sizeof messages[0] == PLAY__MAX, "one message per code");

/* A static German sentence for rc (a catalog message); never NULL. */
const char *play_message(enum play_rc rc)
{
	if ((int)rc < 0 || rc >= PLAY__MAX)
		return messages[PLAY_ERR];
	return messages[rc];
}

int play_from_store(int st, int missing)
{
	return rc_missing(st, missing);
}

/* Fills e (when given) with German msg, a catalog message, in the request's
 * language, and returns rc. */
int play_fail(struct rerr *e, int rc, const char *msg)
{
	if (e) {
		snprintf(e->msg, sizeof e->msg, "%s", _(msg));
		e->fmt = NULL;
	}
	return rc;
}

enum play_ask play_asked(const struct status *st, int pausing, uint32_t ready, int seat)
{
	if (seat < 0 || seat >= GAME_MAX_SEATS)
		return PLAY_ASK_NONE;
	if (pausing)
		return ready >> seat & 1u ? PLAY_ASK_NONE : PLAY_ASK_CONTINUE;
	if (st->over || !(st->to_act >> seat & 1u))
		return PLAY_ASK_NONE;
	if (st->window || (st->turn >= 0 && st->turn != seat))
		return PLAY_ASK_WINDOW;
	return PLAY_ASK_TURN;
}

void play_seat_flags(const struct status *st, int pausing, uint32_t ready, int nseats,
		     struct play_flags *out)
{
	memset(out, 0, sizeof *out);
	for (int s = 0; s < nseats && s < GAME_MAX_SEATS; s++) {
		enum play_ask k = play_asked(st, pausing, ready, s);
		uint32_t bit = 1u << s;
		out->acting |= k != PLAY_ASK_NONE ? bit : 0;
		out->in_window |= k == PLAY_ASK_WINDOW ? bit : 0;
		out->to_continue |= k == PLAY_ASK_CONTINUE ? bit : 0;
	}
}

enum play_ask play_ask_of_flags(int acting, int in_window, int to_continue)
{
	if (!acting)
		return PLAY_ASK_NONE;
	return to_continue ? PLAY_ASK_CONTINUE : in_window ? PLAY_ASK_WINDOW : PLAY_ASK_TURN;
}

/* Commits (or, on failure, rolls back) a transaction that produced rc. */
int play_finish(struct store *s, int rc)
{
	if (rc != PLAY_OK) {
		store_rollback(s);
		return rc;
	}
	return store_commit(s);
}

void step_row_flags(struct st_step_row *row, const struct st_table *t,
		    const struct play_flags *f)
{
	row->acting = f->acting;
	row->in_window = f->in_window;
	row->to_continue = f->to_continue;
	row->changed = (t->acting ^ f->acting) | (t->in_window ^ f->in_window) |
		       (t->to_continue ^ f->to_continue);
	row->deadline_before = t->next_deadline;
	row->lowered = row->deadline > 0 && (t->next_deadline <= 0 ||
					     row->deadline < t->next_deadline) ? row->deadline : 0;
}

/* Stores the state after one step by `seat` (-1: "tick"): the step row
 * with the position after it and the version it produces, then the one
 * update of the table's row (version, the game's deadline and epoch, who
 * acts: store_table_step). When the party is over, its scores stay with
 * it and the table pauses on it until PLAY_PAUSE_SECONDS from now
 * (next_party() deals the next one), or, after the last party, the table
 * is finished; either way every older page becomes stale. l->t is brought
 * up to date here, not read again. A state that fails the game's check()
 * is never stored: PLAY_CORRUPT (logged), nothing written; the caller
 * refuses a person's move (play_move) and closes the table when it cannot
 * go on without the step (close_broken: a tick, a bot). Inside the
 * caller's transaction. */
int save_step(struct store *s, struct live *l, int seat, const char *text, int64_t now,
	      int quiet)
{
	struct status st;
	struct party_result result;
	struct play_flags f;
	struct rerr ce;
	size_t len;
	int rc;

	if (l->g->check(l->state, &ce) != 0) {
		fprintf(stderr, "play: table %lld party %d: step '%s' by seat %d refused, not "
			"stored: it breaks the game's invariants: %s\n", (long long)l->t.id,
			l->party.number, text, seat, ce.msg);
		return PLAY_CORRUPT;
	}
	l->g->status(l->state, &st);
	if ((rc = encode_state(l->g, l->state, l->snap, &len)) != PLAY_OK ||
	    (rc = from_store(store_step_append(s, l->party.id, l->party.steps, seat, text, now,
					       l->t.version + 1, l->snap, len), PLAY_ERR)) != PLAY_OK)
		return rc;
	l->party.steps++;
	struct st_step_row row = { .version = l->t.version, .deadline = st.deadline,
				   .epoch = st.epoch, .quiet = quiet && !st.over,
				   .new_epoch = st.over };
	if ((rc = from_store(seatclock_sync_after(s, &l->t, &st, now, l->ran_out, &row.deadline),
			     PLAY_ERR)) != PLAY_OK)
		return rc;
	if (st.over) {
		int last = l->t.party_no + 1 >= l->t.nparties;
		party_result(&st, l->t.nseats, &result);
		party_resigned_last(&result, l->t.nseats, l->resigned);
		row.deadline = last ? 0 : deadline_after(now, PLAY_PAUSE_SECONDS);
		if ((rc = from_store(store_party_end(s, l->party.id, l->snap, len, &result,
						     l->t.nseats),
				     PLAY_ERR)) != PLAY_OK)
			return rc;
		l->party.over = 1;
		l->party.result = result;
		if (last && ((rc = from_store(store_table_set_status(s, l->t.id, TABLE_FINISHED,
								     l->t.party_no, l->t.first_dealer),
					      PLAY_ERR)) != PLAY_OK ||
			     (rc = table_ended(s, &l->t, now)) != PLAY_OK))
			return rc;
		if (last)
			l->t.status = TABLE_FINISHED;
	}
	play_seat_flags(&st, st.over && l->t.status != TABLE_FINISHED, 0, l->t.nseats, &f);
	if (l->t.status == TABLE_FINISHED)
		memset(&f, 0, sizeof f);
	step_row_flags(&row, &l->t, &f);
	row.user = l->user;
	row.nseats = l->t.nseats < GAME_MAX_SEATS ? l->t.nseats : GAME_MAX_SEATS;
	switch (store_table_step(s, l->t.id, &row)) {
	case ST_OK: break;
	case ST_CONFLICT: return PLAY_STALE;   /* impossible under BEGIN IMMEDIATE */
	case ST_BUSY: return PLAY_BUSY;
	case ST_FULL: return PLAY_NOSPACE;
	default: return PLAY_ERR;
	}
	l->t.version++;
	if (!row.quiet)
		l->t.public_version = l->t.version;
	if (row.epoch != l->t.epoch || row.new_epoch)
		l->t.epoch_version = l->t.version;
	l->t.epoch = row.epoch;
	l->t.next_deadline = row.deadline;
	l->t.acting = row.acting;
	l->t.in_window = row.in_window;
	l->t.to_continue = row.to_continue;
	return PLAY_OK;
}

struct canon_ctx {
	const struct mtok *want;
	char *out;
	size_t cap;
	int found;
};

/* moves() callback: keeps the first listed move whose words are want's.
 * A move whose first byte (ASCII folded, as mt_split folds it) is not the
 * first of want's words cannot be it: not split (Drehwurm lists dozens). */
static void match_listed(void *ctx, const char *move)
{
	struct canon_ctx *c = ctx;
	struct mtok t;
	struct rerr e;
	const unsigned char *m = (const unsigned char *)move;
	if (c->found)
		return;
	while (*m == ' ' || *m == '\t')
		m++;
	if ((*m >= 'A' && *m <= 'Z' ? *m + 32 : *m) != (unsigned char)c->want->w[0][0])
		return;
	if (mt_split(move, &t, &e) != 0 || t.n != c->want->n)
		return;
	for (int i = 0; i < t.n; i++)
		if (strcmp(t.w[i], c->want->w[i]) != 0)
			return;
	snprintf(c->out, c->cap, "%s", move);
	c->found = 1;
}

/* See play.h: the listed spelling, else the folded words, else typed. */
void play_canonical(const struct game *g, const void *st, int seat, const char *typed,
		    char *out, size_t cap)
{
	struct mtok t;
	struct rerr e;
	struct canon_ctx c = { &t, out, cap, 0 };
	size_t len = 0;
	if (cap == 0)
		return;
	snprintf(out, cap, "%s", typed ? typed : "");
	if (!typed || mt_split(typed, &t, &e) != 0)
		return;
	if (g->moves)
		g->moves(st, seat, match_listed, &c);
	if (c.found)
		return;
	out[0] = '\0';
	for (int i = 0; i < t.n && len < cap; i++) {
		int w = snprintf(out + len, cap - len, "%s%s", i ? " " : "", t.w[i]);
		if (w < 0)
			return;
		len += (size_t)w;
	}
}

struct sig_ctx {
	uint64_t h;
};

/* Hashing view sink: every key and value with its terminating byte, so
 * that neighbours stay apart; a number as its eight bytes after a byte no
 * string has (its decimal text cost a move 40k instructions in snprintf).
 * The hash is only compared within one request: before and after a move. */
static void sig_bytes(struct sig_ctx *c, const void *p, size_t n)
{
	/* eight bytes a step (FNV took four instructions a byte), the length
	 * mixed in last so that a shorter tail of zeros differs */
	const unsigned char *b = p;
	uint64_t h = c->h;
	for (; n >= 8; b += 8, n -= 8) {
		uint64_t w;
		memcpy(&w, b, 8);
		h = (h ^ w) * UINT64_C(0x9e3779b97f4a7c15);
		h ^= h >> 29;
	}
	uint64_t w = n;
	for (size_t i = 0; i < n; i++)
		w |= (uint64_t)b[i] << (8 * (i + 1));
	h = (h ^ w) * UINT64_C(0xbf58476d1ce4e5b9);
	c->h = h ^ (h >> 31);
}

static void sig_str(void *ctx, const char *k, const char *v)
{
	sig_bytes(ctx, k, strlen(k) + 1);
	sig_bytes(ctx, v, strlen(v) + 1);
}

static void sig_num(void *ctx, const char *k, long long v)
{
	unsigned char b[9] = { 0xff };
	for (int i = 0; i < 8; i++)
		b[1 + i] = (unsigned char)((unsigned long long)v >> (8 * i));
	sig_bytes(ctx, k, strlen(k) + 1);
	sig_bytes(ctx, b, sizeof b);
}

static void sig_flag(void *ctx, const char *k, int on)
{
	sig_str(ctx, k, on ? "1" : "0");
}

static void sig_begin(void *ctx, const char *sec)
{
	sig_str(ctx, "[", sec);
}

static void sig_end(void *ctx)
{
	sig_str(ctx, "]", "");
}

uint32_t play_acting_mask(const struct status *st)
{
	return st->window ? st->window : st->to_act;
}

enum { SIG_PUB = 7 };

/* The public status a seat's signature starts with (seat -1: nobody's
 * own turn bit). */
static void sig_pub(const struct status *st, int seat, long long pub[SIG_PUB])
{
	long long p[SIG_PUB] = { st->over, st->turn, play_acting_mask(st), st->window,
				 st->deadline, st->epoch,
				 seat >= 0 ? (long long)(st->to_act >> seat & 1u) : 0 };
	memcpy(pub, p, sizeof p);
}

/* See play.h: the seat's view and the public status, hashed. */
uint64_t play_view_sig(const struct game *g, const void *state, int seat)
{
	struct sig_ctx c = { PERFT_FNV_SEED };
	struct view_sink v = { sig_str, sig_num, sig_flag, sig_begin, sig_end, &c, NULL, 0, NULL };
	struct status st;
	long long pub[SIG_PUB];
	g->status(state, &st);
	sig_pub(&st, seat, pub);
	sig_bytes(&c, pub, sizeof pub);
	g->view(state, seat, &v);
	return c.h;
}

/* Whether a step from state `before` to `after` changed nothing every
 * other seat and a spectator can see: the public status and the
 * spectator's view (play_view_sig(…, -1) of both alike). The status is
 * compared first, and only a step that left it as it was (a pass in a
 * window, a card laid while the same seat keeps the turn) renders the
 * two views: most steps move the turn, the window or the deadline on,
 * and rendering a view twice was up to a third of a move's cost. */
static int public_same(const struct game *g, const void *before, const void *after)
{
	struct status a, b;
	long long pa[SIG_PUB], pb[SIG_PUB];
	g->status(before, &b);
	g->status(after, &a);
	sig_pub(&b, -1, pb);
	sig_pub(&a, -1, pa);
	return memcmp(pa, pb, sizeof pa) == 0 &&
	       play_view_sig(g, before, -1) == play_view_sig(g, after, -1);
}

/* Applies `move` by `seat` to the loaded party and saves the step. The log
 * keeps play_canonical()'s spelling when applying that spelling to the
 * state before gives the same snapshot (so a replay stays exact), else the
 * text as typed. PLAY_REJECTED with the game's reason, PLAY_ERR. */
static const struct lookup *play_lookup;

void play_set_lookup(const struct lookup *lk)
{
	play_lookup = lk;
}

int apply_move(struct store *s, struct live *l, int seat, const char *move, int64_t now,
	       struct rerr *e)
{
	char canon[GAME_MOVE_MAX + 1];
	struct rerr ge;
	void *copy = NULL, *prev = NULL;
	unsigned char *a = NULL, *b = NULL;
	size_t la = 0, lb = 0;
	const char *text = move;
	int rc = PLAY_ERR;

	/* what the game looks up is written into the move the log keeps */
	char looked[GAME_MOVE_MAX + 1];
	if (l->g->annotate && play_lookup &&
	    l->g->annotate(l->state, seat, move, play_lookup, looked, sizeof looked) == 0)
		move = text = looked;
	if (!(prev = malloc(l->g->state_size)))
		goto out;
	memcpy(prev, l->state, l->g->state_size);
	play_canonical(l->g, l->state, seat, move, canon, sizeof canon);
	if (strcmp(canon, move) != 0) {
		if (!(copy = malloc(l->g->state_size)))
			goto out;
		memcpy(copy, l->state, l->g->state_size);
	}
	if (l->g->apply(l->state, seat, move, now, &ge) != 0) {
		if (e)
			*e = ge;
		rc = PLAY_REJECTED;
		goto out;
	}
	if (copy) {
		a = malloc(GAME_SNAPSHOT_MAX);
		b = malloc(GAME_SNAPSHOT_MAX);
		if (!a || !b)
			goto out;
		if (l->g->apply(copy, seat, canon, now, &ge) == 0 &&
		    encode_state(l->g, l->state, a, &la) == PLAY_OK &&
		    encode_state(l->g, copy, b, &lb) == PLAY_OK && la == lb && memcmp(a, b, la) == 0)
			text = canon;
		else
			fprintf(stderr, "play: %s: '%s' is not the same move as '%s': logged as typed\n",
				l->g->slug, canon, move);
	}
	/* A step nobody else can see (a pass in a window) is quiet: other pages
	 * do not reload, so the timing of a reload tells nobody who passed. */
	rc = save_step(s, l, seat, text, now, public_same(l->g, prev, l->state));
out:
	free(prev);
	free(b);
	free(a);
	free(copy);
	return rc;
}

/* A person's move whose state save_step() refused (PLAY_CORRUPT, logged) is
 * refused like an illegal one: nothing is stored, the table plays on. */
static int refused_if_broken(int rc, struct rerr *e)
{
	if (rc != PLAY_CORRUPT)
		return rc;
	return fail_msg(e, PLAY_REJECTED, N_("Dieser Zug wurde nicht ausgeführt: der Spielstand "
					     "danach wäre fehlerhaft. Bitte wähle einen anderen."));
}

/* The game's judgement of a move from a page older than the last change
 * of its meaning (struct game.late): GAME_LATE_NOW or GAME_LATE_STALE,
 * with the game's words for a lost race in *why (msg empty: none). */
static int game_late(const struct live *l, int seat, const char *move, struct rerr *why)
{
	memset(why, 0, sizeof *why);
	return l->g->late ? l->g->late(l->state, seat, move, why) : GAME_LATE_STALE;
}

/* Whether a move from the page at version `seen` (struct play_table.seen)
 * may be judged against the state as it is now (after the tick), which is
 * the rule: PLAY_OK. It is stale only when the steps since changed what it
 * means: the seat moved since (a double submit), or the position epoch
 * changed (a card landed, a race was won, a deadline moved the game on):
 * PLAY_STALE with the note, naming the race's winner when the game can.
 * A move the game calls GAME_LATE_NOW (a standing choice) is never stale. */
static int judge_page(struct store *s, struct live *l, int seat, const char *move,
		      int64_t party_before, int64_t seen, struct rerr *e)
{
	struct rerr why;
	int moved, ticked, rc;
	memset(&why, 0, sizeof why);
	if (is_continue(move) && l->t.party_no > 0 && !live_pausing(l) &&
	    (l->t.party_no != l->party.number || l->t.epoch_version > seen))
		/* a continue from the pause page of the party before */
		return fail_msg(e, PLAY_STALE, N_("Zu spät: die nächste Partie hat schon begonnen. "
						  "Hier ist der neue Stand."));
	if (l->t.status != TABLE_PLAYING || l->t.party_no != l->party.number)
		return fail_msg(e, PLAY_STALE, N_("Zu spät: inzwischen hat sich am Tisch etwas "
						  "geändert. Hier ist der neue Stand."));
	/* (a page of the version now: no step since it, nothing to look up) */
	moved = 0;
	if (seen < l->t.version &&
	    (rc = from_store(store_seat_moved_since(s, party_before, seat, seen, &moved),
			     PLAY_ERR)) != PLAY_OK)
		return rc;
	int changed = l->t.epoch_version > seen;
	if (!moved && !changed)
		return PLAY_OK;
	if (!live_pausing(l) && game_late(l, seat, move, &why) == GAME_LATE_NOW)
		return PLAY_OK;
	if (moved)
		return fail_msg(e, PLAY_STALE, N_("Doppelt gesendet: dein Zug ist schon "
						  "angekommen."));
	if (why.msg[0]) {   /* a race lost: the game names who came first */
		if (e)
			*e = why;
		return PLAY_STALE;
	}
	/* a deadline applied after the page was seen (here or by anyone's
	 * request) that moved the game on */
	if ((rc = from_store(store_ticked_since(s, party_before, seen, &ticked), PLAY_ERR)) !=
	    PLAY_OK)
		return rc;
	return fail_msg(e, PLAY_STALE, ticked ? N_("Zu spät: die Frist ist inzwischen "
						   "abgelaufen. Hier ist der neue Stand.") :
				       N_("Zu spät: inzwischen hat sich am Tisch etwas "
					  "geändert. Hier ist der neue Stand."));
}

/* A move the game refused, from a page older than a deadline applied since
 * (whose meaning did not change, else judge_page() said so): the window it
 * answered has closed: PLAY_STALE "too late" instead of the refusal. */
static int refused_late(struct store *s, int64_t party, int64_t seen, struct rerr *e)
{
	int ticked;
	int rc = from_store(store_ticked_since(s, party, seen, &ticked), PLAY_ERR);
	if (rc != PLAY_OK)
		return rc;
	return ticked ? fail_msg(e, PLAY_STALE, N_("Zu spät: die Frist ist inzwischen abgelaufen. "
						   "Hier ist der neue Stand.")) :
			PLAY_REJECTED;
}

/* A move that arrives after the one that finished the table (the shout
 * that won a race): PLAY_STALE, with the game's words for who came first
 * when it has them. l holds the finished table; it loads its last party. */
static int finished_note(struct store *s, struct live *l, int64_t user, const char *move,
			 struct rerr *e)
{
	struct rerr why;
	memset(&why, 0, sizeof why);
	if (table_game(&l->t, &l->g, l->opt) == PLAY_OK && l->g->late && l->t.party_no >= 0 &&
	    live_seats(s, l) == PLAY_OK && (l->state = calloc(1, l->g->state_size)) &&
	    (l->snap = malloc(GAME_SNAPSHOT_MAX)) &&
	    store_party_get(s, l->t.id, l->t.party_no, &l->party, l->snap, GAME_SNAPSHOT_MAX) ==
		    ST_OK &&
	    party_state(s, &l->t, l->g, l->opt, &l->party, l->snap, l->state) == PLAY_OK)
		for (int q = 0; user > 0 && q < l->t.nseats && q < GAME_MAX_SEATS; q++)
			if (l->user[q] == user &&
			    l->g->late(l->state, q, move, &why) == GAME_LATE_STALE && why.msg[0]) {
				if (e)
					*e = why;
				return PLAY_STALE;
			}
	return fail_msg(e, PLAY_STALE, N_("Zu spät: die Partie ist inzwischen entschieden. "
					  "Hier ist der Endstand."));
}

/* The whole transaction of one move (see play.h). PLAY_STALE with e->msg
 * (the fresh page with the note), PLAY_REJECTED with the game's reason
 * (the page with the note, the move kept in the form), PLAY_NOT_SEATED
 * (403), PLAY_NOT_FOUND (404), PLAY_NOT_PLAYING (a note), PLAY_BUSY (503),
 * PLAY_ERR (500). Anything but PLAY_OK leaves the database as it was.
 * While the table pauses after a party, only PLAY_CONTINUE is a move. */
int play_move(struct store *s, int64_t table, int64_t user, const char *move,
	      int64_t seen_version, int64_t now_ms, struct rerr *e)
{
	struct live l;
	int seat, rc;
	int64_t party_before;

	memset(&l, 0, sizeof l);
	if (!move || !*move)
		return fail_msg(e, PLAY_REJECTED, N_("Kein Zug angegeben."));
	if (strlen(move) > GAME_MOVE_MAX)
		return fail_msg(e, PLAY_REJECTED, N_("Dieser Zug ist zu lang."));
	for (const unsigned char *p = (const unsigned char *)move; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return fail_msg(e, PLAY_REJECTED, N_("Der Zug enthält unerlaubte "
							     "Zeichen."));

	if ((rc = store_begin_table(s, table)) != PLAY_OK)
		return rc;
	if ((rc = live_load(s, table, &l)) != PLAY_OK) {
		/* the move that finished the table came first (a shout race) */
		if (rc == PLAY_NOT_PLAYING && l.t.status == TABLE_FINISHED && seen_version >= 0 &&
		    seen_version < l.t.version)
			rc = finished_note(s, &l, user, move, e);
		goto out;
	}
	for (seat = 0; seat < l.t.nseats && seat < GAME_MAX_SEATS; seat++)
		if (user > 0 && l.user[seat] == user)
			break;
	if (seat >= l.t.nseats || seat >= GAME_MAX_SEATS) {
		rc = PLAY_NOT_SEATED;
		goto out;
	}
	if ((l.bots >> seat) & 1u) {
		rc = fail_msg(e, PLAY_REJECTED, (l.timed_out >> seat) & 1u ?
			      N_("Deine Zeit ist abgelaufen: ein Bot spielt deinen Platz zu "
				 "Ende.") :
			      (l.resigned >> seat) & 1u ?
			      N_("Du hast aufgegeben: ein Bot spielt deinen Platz zu Ende.") :
			      N_("Ein Bot spielt gerade für dich: nimm deinen Platz zurück, um "
				 "selbst zu spielen."));
		goto out;
	}
	if (seen_version < 0 || seen_version > l.t.version) {
		rc = fail_msg(e, PLAY_STALE, N_("Die Seite passt nicht zu diesem Tisch: hier ist "
						"der aktuelle Stand."));
		goto out;
	}
	party_before = l.party.id;
	if ((rc = live_tick(s, &l, now_ms)) != PLAY_OK)
		goto out;
	if ((l.ran_out >> seat) & 1u) {
		/* (rolled back like every refusal: the page it reloads applies it) */
		rc = fail_msg(e, PLAY_STALE, N_("Zu spät: deine Zeit war abgelaufen, für dich "
						"wurde schon gezogen. Hier ist der neue Stand."));
		goto out;
	}
	if ((rc = judge_page(s, &l, seat, move, party_before, seen_version, e)) != PLAY_OK)
		goto out;
	if (live_pausing(&l))
		rc = party_continue(s, &l, seat, move, now_ms, e);
	else
		rc = apply_move(s, &l, seat, move, now_ms, e);
	/* the game's refusal of a move from a page older than a deadline
	 * applied since is "too late"; a step that would break the state is
	 * refused as such */
	if (rc == PLAY_REJECTED)
		rc = refused_late(s, party_before, seen_version, e);
	rc = refused_if_broken(rc, e);
	/* the seats as loaded (a timeout's takeover included): without a bot
	 * or an autopass there is nothing for bots_act() to read them for */
	if (rc == PLAY_OK && (l.bots | l.autopass))
		rc = bots_act(s, table, now_ms);
out:
	if (rc == PLAY_NOT_SEATED || rc == PLAY_NOT_PLAYING || rc == PLAY_NOT_FOUND)
		fail_msg(e, rc, play_message(rc));
	live_free(&l);
	return finish(s, rc);
}

/* The end of a seat's transaction on a loaded table: the note for a
 * refusal, l freed, committed or rolled back. */
int live_finish(struct store *s, struct live *l, int rc, struct rerr *e)
{
	if (rc == PLAY_NOT_SEATED || rc == PLAY_NOT_PLAYING)
		fail_msg(e, rc, play_message(rc));
	live_free(l);
	return finish(s, rc);
}
