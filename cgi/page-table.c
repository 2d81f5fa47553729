/* page-table.c — the table page and its JSON twin, moves, join, leave.
 * No game logic here: only the game interface (view, moves, status). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "page.h"
#include "party-end.h"
#include "play.h"
#include "tmpl.h"

static const char *const status_names[] = {
	[TABLE_OPEN] = "open", [TABLE_PLAYING] = "playing", [TABLE_FINISHED] = "finished",
};
_Static_assert(sizeof status_names / sizeof status_names[0] == TABLE_STATUS__MAX, "status_names");

enum { NOTE_NONE, NOTE_STALE, NOTE_REJECTED, NOTE_REFUSED, NOTE__MAX };
static const char *const note_kinds[] = {
	[NOTE_NONE] = "", [NOTE_STALE] = "stale", [NOTE_REJECTED] = "rejected",
	[NOTE_REFUSED] = "refused",
};
_Static_assert(sizeof note_kinds / sizeof note_kinds[0] == NOTE__MAX, "note_kinds");

struct names {
	const char *name[GAME_MAX_SEATS];
};

static void emit_move(void *ctx, const char *move)
{
	struct view *v = ctx;
	view_begin(v, "moves");
	view_str(v, "move", move);
	view_end(v);
}

struct logctx {
	struct view *v;
	const struct names *nm;
};

static void emit_step(void *ctx, const struct st_move *m)
{
	struct logctx *l = ctx;
	view_begin(l->v, "steps");
	view_num(l->v, "seq", m->seq);
	view_num(l->v, "seat", m->seat);
	view_str(l->v, "seat_name", m->seat >= 0 && m->seat < GAME_MAX_SEATS && l->nm->name[m->seat] ?
				   l->nm->name[m->seat] : "");
	view_flag(l->v, m->seat < 0 ? "tick" : "by_seat", 1);
	view_str(l->v, "text", m->text);
	view_num(l->v, "at", m->at);
	view_end(l->v);
}

struct partyrows {
	struct st_party *p;
	int n, cap;
};

static void collect_party(void *ctx, const struct st_party *p)
{
	struct partyrows *r = ctx;
	if (r->n < r->cap && p->over)
		r->p[r->n++] = *p;
}

/* The raw move log of every finished party (section party_logs). Only
 * finished parties: their hidden information is no longer hidden. 0 or -1. */
static int logs_view(struct page *p, const struct play_table *pt, struct view *v,
		     const struct names *nm)
{
	struct partyrows r = { arena_alloc(p->a, sizeof(struct st_party) * 64), 0, 64 };
	if (!r.p || store_parties_of_table(p->store, pt->t.id, collect_party, &r) != ST_OK)
		return -1;
	view_list(v, "party_logs");
	view_flag(v, "has_logs", r.n > 0);
	for (int i = 0; i < r.n; i++) {
		view_begin(v, "party_logs");
		view_num(v, "number", r.p[i].number + 1);
		view_list(v, "steps");
		struct logctx l = { v, nm };
		if (store_moves(p->store, r.p[i].id, 0, emit_step, &l) != ST_OK)
			return -1;
		view_end(v);
	}
	return 0;
}

/* Scores of finished parties, running totals and the standings (places
 * shared on equal totals, every leader a winner once the match is over). */
static void scores_view(const struct play_table *pt, struct view *v, const struct names *nm)
{
	int n = pt->t.nseats;
	view_list(v, "parties");
	view_flag(v, "has_parties", pt->nfinished > 0);
	for (int k = 0; k < pt->nfinished && k < 64; k++) {
		view_begin(v, "parties");
		view_num(v, "number", k + 1);
		for (int s = 0; s < n; s++) {
			view_begin(v, "scores");
			view_num(v, "seat", s);
			view_num(v, "score", pt->party_score[k][s]);
			view_end(v);
		}
		view_end(v);
	}
	int place[GAME_MAX_SEATS];
	match_places(&pt->totals, n, place);
	uint32_t leaders = match_leaders(&pt->totals, n);
	int over = pt->t.status == TABLE_FINISHED;
	view_num(v, "parties_played", pt->totals.parties);
	view_list(v, "standings");
	for (int pl = 1; pl <= n; pl++)
		for (int s = 0; s < n; s++) {
			if (place[s] != pl)
				continue;
			view_begin(v, "standings");
			view_num(v, "place", pl);
			view_num(v, "seat", s);
			view_str(v, "name", nm->name[s] ? nm->name[s] : "");
			view_num(v, "total", pt->totals.total[s]);
			view_flag(v, "winner", over && pt->totals.parties > 0 && (leaders >> s & 1u));
			view_end(v);
		}
}

/* The whole table as one tree: what the page shows and the JSON twin
 * carries. Hidden information is whatever game->view leaves out for
 * my_seat. 0, or -1 on a store error. */
static int table_view(struct page *p, struct play_table *pt, struct view *v, int note_kind,
		      const char *note, const char *typed)
{
	const struct game *g = pt->g;
	const struct st_table *t = &pt->t;
	struct names nm = { { 0 } };
	for (int i = 0; i < pt->nseated; i++)
		if (pt->seats[i].seat >= 0 && pt->seats[i].seat < GAME_MAX_SEATS)
			nm.name[pt->seats[i].seat] = pt->seats[i].name;
	const char **names = arena_alloc(p->a, sizeof(char *) * GAME_MAX_SEATS);
	if (!names)
		return -1;
	memcpy(names, nm.name, sizeof nm.name);

	int me = pt->my_seat;
	int playing = t->status == TABLE_PLAYING && pt->has_party && !pt->status.over;
	int can_act = playing && me >= 0 && (pt->status.to_act >> me & 1u);
	int turn = playing ? pt->status.turn : -1;
	char *move_url = arena_printf(p->a, "/t/%lld/move", (long long)t->id);
	if (!move_url)
		return -1;

	view_num(v, "table_id", t->id);
	view_num(v, "version", t->version);
	view_num(v, "v", t->version);
	view_str(v, "game_slug", g->slug);
	view_str(v, "game_title", g->title);
	view_str(v, "status", status_names[t->status]);
	view_flag(v, t->status == TABLE_OPEN ? "is_open" :
		     t->status == TABLE_PLAYING ? "is_playing" : "is_finished", 1);
	view_str(v, "move_url", move_url);
	view_strf(v, "invite_path", "/t/%lld", (long long)t->id);
	view_num(v, "nseats", t->nseats);
	view_num(v, "seats_taken", pt->nseated);
	view_num(v, "party_number", pt->has_party ? pt->party.number + 1 : 0);
	view_num(v, "nparties", t->nparties);
	view_num(v, "my_seat", me);
	view_str(v, "my_seat_name", me >= 0 ? nm.name[me] : "");
	view_flag(v, "seated", me >= 0);
	view_flag(v, "can_act", can_act);
	view_flag(v, "my_turn", can_act && (turn == me || turn < 0));
	view_flag(v, "window", can_act && turn >= 0 && turn != me);
	view_num(v, "turn_seat", turn);
	view_str(v, "turn_seat_name", turn >= 0 && turn < GAME_MAX_SEATS && nm.name[turn] ?
					   nm.name[turn] : "");
	view_num(v, "deadline", playing ? pt->status.deadline : 0);
	/* Seconds left in the open window, counted from the server's clock so
	 * that a wrong clock on the phone does not matter; poll.js counts down. */
	if (playing && pt->status.deadline > p->now_ms) {
		view_begin(v, "countdown");
		view_num(v, "seconds", (pt->status.deadline - p->now_ms + 999) / 1000);
		view_end(v);
	}
	view_flag(v, "can_join", p->user_id && me < 0 && t->status == TABLE_OPEN &&
				       pt->nseated < t->nseats);
	view_flag(v, "can_leave", me >= 0 && t->status == TABLE_OPEN);
	view_flag(v, "login_needed", !p->user_id && t->status == TABLE_OPEN);

	for (int s = 0; s < t->nseats && s < GAME_MAX_SEATS; s++) {
		view_begin(v, "seats");
		view_num(v, "seat", s);
		view_num(v, "number", s + 1);
		view_str(v, "name", nm.name[s] ? nm.name[s] : "");
		view_flag(v, "empty", !nm.name[s]);
		view_flag(v, "me", s == me);
		int acting = playing && (pt->status.to_act >> s & 1u);
		/* turn < 0: everyone who may act is on turn (simultaneous choices). */
		view_flag(v, "turn", s == turn || (turn < 0 && acting));
		view_flag(v, "acting", acting);
		view_flag(v, "acting_out_of_turn", acting && turn >= 0 && s != turn);
		view_num(v, "score", pt->has_party ? pt->status.score[s] : 0);
		view_num(v, "total", pt->totals.total[s]);
		view_end(v);
	}

	view_list(v, "moves");
	if (can_act)
		g->moves(pt->state, me, emit_move, v);
	view_str(v, "typed", typed ? typed : "");

	if (note) {
		view_begin(v, "note");
		view_str(v, "kind", note_kinds[note_kind]);
		view_flag(v, note_kinds[note_kind], 1);
		view_str(v, "text", note);
		view_end(v);
	}

	if (pt->has_party) {
		char *file = arena_printf(p->a, "game-%s.tpl", g->slug);
		if (!file)
			return -1;
		if (!tmpl_exists(file))
			file = "game-generic.tpl";   /* a game whose board is not drawn yet */
		view_include(v, "game", file);
		view_num(v, "table_id", t->id);
		view_num(v, "v", t->version);
		view_str(v, "csrf", me >= 0 ? p->csrf : "");
		view_str(v, "move_url", move_url);
		view_num(v, "my_seat", me);
		view_flag(v, "can_act", can_act);
		view_names(v, names, t->nseats);
		struct view_sink sink;
		view_sink_init(v, &sink);
		g->view(pt->state, me, &sink);
		view_names(v, NULL, 0);
		view_end(v);
	}
	if (party_end_view(p, pt, v, names) != 0)
		return -1;
	scores_view(pt, v, &nm);
	return logs_view(p, pt, v, &nm);
}

static enum http_status load_status(int rc)
{
	return rc == PLAY_NOT_FOUND ? HTTP_404 : rc == PLAY_BUSY || rc == PLAY_NOSPACE ||
	       rc == PLAY_CORRUPT ? HTTP_503 : HTTP_500;
}

static const char *load_why(int rc)
{
	return rc == PLAY_NOT_FOUND ? "notable" : rc == PLAY_BUSY ? "busy" : rc == PLAY_NOSPACE ?
	       "nospace" : rc == PLAY_CORRUPT ? "corrupt" : "internal";
}

/* Loads table p->id and answers with its page (or JSON when `json`) with
 * `status` and an optional note: 404/503/500 when it cannot be loaded. */
static void show(struct page *p, int json, enum http_status status, int note_kind,
		 const char *note, const char *typed)
{
	struct play_table *pt = arena_alloc(p->a, sizeof *pt);
	if (!pt) {
		page_error(p, HTTP_500, "internal");
		return;
	}
	int rc = play_load(p->store, p->id, p->user_id, p->now_ms, pt);
	if (rc != PLAY_OK) {
		play_free(pt);
		page_error(p, load_status(rc), load_why(rc));
		return;
	}
	struct view v;
	page_view(p, &v);
	if (table_view(p, pt, &v, note_kind, note, typed) != 0) {
		play_free(pt);
		page_error(p, HTTP_500, "internal");
		return;
	}
	int me = pt->my_seat;
	/* The game's stylesheet comes with its board template. */
	char *file = arena_printf(p->a, "game-%s.tpl", pt->g->slug);
	int board = file && tmpl_exists(file);
	int running = pt->t.status == TABLE_PLAYING || pt->t.status == TABLE_OPEN;
	struct page_head h = {
		.title = pt->g->title,
		.game_slug = board ? pt->g->slug : NULL,
		.poll_url = running ? arena_printf(p->a, "/t/%lld/poll", (long long)pt->t.id) : NULL,
		.version = pt->t.version,
		.my_turn = pt->has_party && !pt->status.over && me >= 0 && (pt->status.to_act >> me & 1u),
		.refresh = running,
	};
	play_free(pt);
	if (json)
		page_json(p, status, &v);
	else
		page_html(p, status, "table.tpl", &v, &h);
}

/* GET /t/<id>: the page, or the JSON twin when Accept asks for JSON.
 * 200, 404, 503, 500. */
void page_table(struct page *p)
{
	show(p, p->req->wants_json, HTTP_200, NOTE_NONE, NULL, NULL);
}

/* GET /t/<id>.json: the JSON twin. 200, 404, 503, 500. */
void page_table_json(struct page *p)
{
	show(p, 1, HTTP_200, NOTE_NONE, NULL, NULL);
}

enum mv_field { MV_CSRF, MV_V, MV_MOVE, MV__MAX };
static const struct http_rule mv_rules[] = {
	[MV_CSRF] = { "csrf", HTTP_V_TEXT, 1, 1, 64 },
	[MV_V] = { "v", HTTP_V_INT, 1, 0, INT64_MAX },
	[MV_MOVE] = { "move", HTTP_V_TEXT, 1, 0, GAME_MOVE_MAX },
};
_Static_assert(sizeof mv_rules / sizeof mv_rules[0] == MV__MAX, "mv_rules");

/* POST /t/<id>/move (csrf, v, move): 303 back to the table on success
 * (post/redirect/get). Otherwise the fresh page with a note and nothing
 * changed: 409 (stale page, a race lost, not playing), 422 (the rules
 * refused the move), 403 (no seat here); 404, 400, 503, 500. */
void page_table_move(struct page *p)
{
	struct http_value f[MV__MAX];
	enum http_err err = http_validate(&p->req->form, mv_rules, MV__MAX, f);
	if (err) {
		page_error(p, http_err_status(err), http_err_key(err));
		return;
	}
	struct rerr e = { "" };
	int rc = play_move(p->store, p->id, p->user_id, f[MV_MOVE].s, f[MV_V].n, p->now_ms, &e);
	const char *note = e.msg[0] ? e.msg : play_message(rc);
	int json = p->req->wants_json;
	switch (rc) {
	case PLAY_OK: {
		char *to = arena_printf(p->a, "/t/%lld", (long long)p->id);
		page_redirect(p, to ? to : "/");
		return;
	}
	case PLAY_STALE:
	case PLAY_NOT_PLAYING:
		show(p, json, HTTP_409, NOTE_STALE, note, NULL);
		return;
	case PLAY_REJECTED:
		show(p, json, HTTP_422, NOTE_REJECTED, note, f[MV_MOVE].s);
		return;
	case PLAY_NOT_SEATED:
		show(p, json, HTTP_403, NOTE_REFUSED, note, NULL);
		return;
	default:
		page_error(p, load_status(rc), load_why(rc));
	}
}

/* Join or leave: 303 back to the table; a refusal shows the page with the
 * note (409); 404, 503, 500. */
static void seat_change(struct page *p, int join)
{
	static const struct http_rule rules[] = { { "csrf", HTTP_V_TEXT, 1, 1, 64 } };
	struct http_value f[1];
	enum http_err err = http_validate(&p->req->form, rules, 1, f);
	if (err) {
		page_error(p, http_err_status(err), http_err_key(err));
		return;
	}
	struct rerr e = { "" };
	int rc = join ? play_join(p->store, p->id, p->user_id, p->now_ms, &e) :
			play_leave(p->store, p->id, p->user_id, p->now_ms, &e);
	const char *note = e.msg[0] ? e.msg : play_message(rc);
	switch (rc) {
	case PLAY_OK: {
		char *to = arena_printf(p->a, "/t/%lld", (long long)p->id);
		page_redirect(p, to ? to : "/");
		return;
	}
	case PLAY_FULL:
	case PLAY_ALREADY:
	case PLAY_NOT_PLAYING:
	case PLAY_NOT_SEATED:
	case PLAY_STALE:
		show(p, p->req->wants_json, HTTP_409, NOTE_REFUSED, note, NULL);
		return;
	case PLAY_NOT_FOUND:
		if (!join) {
			/* The last seat left: the table is gone. */
			page_redirect(p, "/");
			return;
		}
		/* fall through */
	default:
		page_error(p, load_status(rc), load_why(rc));
	}
}

/* POST /t/<id>/join: see seat_change. */
void page_table_join(struct page *p)
{
	seat_change(p, 1);
}

/* POST /t/<id>/leave: see seat_change. */
void page_table_leave(struct page *p)
{
	seat_change(p, 0);
}
