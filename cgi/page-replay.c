/* page-replay.c — a party position by position (play_replay, play.h):
 *   GET /t/<id>/replay?party=N&step=K&seat=S  one position of party N
 *       (1-based) after step K (0: the deal), from seat S's point of view
 *       (1-based; 0 the spectator's; only for a finished party), and its
 *       JSON twin (/t/<id>/replay.json, or Accept: application/json);
 *   GET /t/<id>/since?step=K  "Seit deinem letzten Zug": the running
 *       party from the seat's own last step on, as that seat saw it;
 *   GET /t/<id>/replay.txt?party=N  a finished party's steps in the move
 *       language with its setup, for `spieltisch replay FILE`.
 * The board is the game's own template (game-<slug>.tpl) with the game's
 * view for the viewer, drawn inside a disabled fieldset: its forms show
 * what the seat could do, and do nothing. No game logic here. */
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "page.h"
#include "play.h"
#include "tmpl.h"

enum { REPLAY_PARTIES_MAX = 64 };

struct rq {
	int since;         /* the "since my last move" page */
	int party;         /* 0-based, -1 the current one */
	int frame;         /* -1: the default */
	int viewer;        /* -1 spectator, -2 the user's own seat */
};

/* The query of a replay URL into q; 0, or -1 with the 400 answered. */
static int read_query(struct page *p, struct rq *q, int since)
{
	static const struct http_rule rules[] = {
		{ "party", HTTP_V_INT, 0, 1, REPLAY_PARTIES_MAX },
		{ "step", HTTP_V_INT, 0, 0, 1000000 },
		{ "seat", HTTP_V_INT, 0, 0, GAME_MAX_SEATS },
	};
	struct http_value f[3];
	enum http_err err = http_validate(&p->req->query, rules, since ? 2 : 3, f);
	if (!err && since && f[0].present)
		err = HTTP_E_UNKNOWN;
	if (!err && !since && !f[0].present)
		err = HTTP_E_MISSING;
	if (err) {
		page_error(p, http_err_status(err), http_err_key(err));
		return -1;
	}
	q->since = since;
	q->party = since ? -1 : (int)f[0].n - 1;
	q->frame = f[1].present ? (int)f[1].n : -1;
	q->viewer = f[2].present ? (int)f[2].n - 1 : -2;
	return 0;
}

static void answer_error(struct page *p, int rc)
{
	page_error(p, rc == PLAY_NOT_FOUND || rc == PLAY_NOT_PLAYING ? HTTP_404 :
		      rc == PLAY_BUSY ? HTTP_503 : rc == PLAY_CORRUPT ? HTTP_503 : HTTP_500,
		   rc == PLAY_NOT_FOUND || rc == PLAY_NOT_PLAYING ? "notfound" :
		   rc == PLAY_BUSY ? "busy" : rc == PLAY_CORRUPT ? "corrupt" : "internal");
}

/* Each seat's name, as the table shows it, in the arena. */
static const char **seat_names(struct page *p, const struct play_replay *r)
{
	const char **nm = arena_alloc(p->a, sizeof(char *) * GAME_MAX_SEATS);
	if (!nm)
		return NULL;
	memset(nm, 0, sizeof(char *) * GAME_MAX_SEATS);
	for (int i = 0; i < r->nseated; i++) {
		const struct st_seat *st = &r->seats[i];
		if (st->seat < 0 || st->seat >= GAME_MAX_SEATS)
			continue;
		nm[st->seat] = st->user_id ? st->name :
			       arena_printf(p->a, st->bot == 1 ? _("Bot %d (zufällig)") :
					    _("Bot %d (gierig)"), st->seat + 1);
	}
	for (int s = 0; s < GAME_MAX_SEATS; s++)
		if (!nm[s])
			nm[s] = "";
	return nm;
}

/* The URL of frame f of this replay (the same party, viewer and page). */
static const char *frame_url(struct page *p, const struct play_replay *r, const struct rq *q,
			     int f)
{
	if (q->since)
		return page_table_url(p, r->t.id, arena_printf(p->a, "/since?step=%d", f));
	if (r->over && q->viewer != -2)
		return page_table_url(p, r->t.id, arena_printf(p->a, "/replay?party=%d&step=%d&seat=%d",
							      r->party.number + 1, f, r->viewer + 1));
	return page_table_url(p, r->t.id, arena_printf(p->a, "/replay?party=%d&step=%d",
						      r->party.number + 1, f));
}

/* The texts of the first section "log" (the game's "Zuletzt", newest
 * first) in a view tree, at most cap of them; their count. */
static int log_texts(const struct view_node *n, const char **out, int cap)
{
	for (const struct view_node *c = n->first; c; c = c->next) {
		if (c->kind == VIEW_SECTION && strcmp(c->key, "log") == 0) {
			int k = 0;
			for (const struct view_node *i = c; i && k < cap; i = i->next) {
				if (i->kind != VIEW_SECTION || strcmp(i->key, "log") != 0)
					continue;
				const char *t = "";
				for (const struct view_node *x = i->first; x; x = x->next)
					if (x->kind == VIEW_STR && strcmp(x->key, "text") == 0)
						t = x->str;
				out[k++] = t;
			}
			return k;
		}
		if ((c->kind == VIEW_SECTION || c->kind == VIEW_INCLUDE) && c->first) {
			int k = log_texts(c, out, cap);
			if (k > 0)
				return k;
		}
	}
	return 0;
}

/* The game's view of st for the viewer, as a tree of its own. */
static struct view_node *game_tree(struct page *p, const struct play_replay *r, const void *st,
				   const char *const *names)
{
	struct view *t = arena_alloc(p->a, sizeof *t);
	struct view_sink sink;
	if (!t)
		return NULL;
	view_init(t, p->a);
	view_names(t, names, r->t.nseats);
	view_sink_init(t, &sink);
	r->g->view(st, r->viewer, &sink);
	return t->failed ? NULL : &t->root;
}

/* Section "step_log": the lines the frame's step added to the game's
 * "Zuletzt" (its view before and after, newest first). */
static void step_log_view(struct page *p, const struct play_replay *r, const char *const *names,
			  struct view *v)
{
	enum { LINES = 64 };
	const char *now[LINES], *was[LINES];
	int n = 0, m = 0, d = 0;
	view_list(v, "step_log");
	if (r->frame > 0) {
		struct view_node *a = game_tree(p, r, r->state, names);
		struct view_node *b = game_tree(p, r, r->prev, names);
		n = a ? log_texts(a, now, LINES) : 0;
		m = b ? log_texts(b, was, LINES) : 0;
	}
	/* the fewest new lines after which the rest is the old log's start */
	for (d = 0; d < n; d++) {
		int same = 1;
		for (int i = d; i < n && same; i++)
			same = i - d < m && strcmp(now[i], was[i - d]) == 0;
		if (same)
			break;
	}
	for (int i = d - 1; i >= 0; i--) {   /* oldest first */
		view_begin(v, "step_log");
		view_str(v, "text", now[i]);
		view_end(v);
	}
	view_flag(v, "has_step_log", d > 0);
}

/* What the frame's step was: the deal, a deadline, a seat's move (its
 * text when this viewer may read it). */
static void step_view(struct page *p, const struct play_replay *r, const char *const *names,
		      struct view *v)
{
	view_begin(v, "step");
	view_num(v, "number", r->step_no);
	view_num(v, "seat", r->step_seat);
	int bys = r->step_seat >= 0;
	view_str(v, "seat_name", bys ? names[r->step_seat] : "");
	view_flag(v, "deal", r->step_seat == PLAY_REPLAY_DEAL);
	view_flag(v, "tick", r->step_seat == -1 && strcmp(r->step_text, PLAY_STEP_START) != 0);
	view_flag(v, "clock", r->step_seat == -1 && strcmp(r->step_text, PLAY_STEP_START) == 0);
	view_flag(v, "by_seat", bys);
	view_flag(v, "mine", bys && r->step_seat == r->my_seat);
	view_flag(v, "text_shown", bys && r->step_shown);
	view_flag(v, "text_hidden", bys && !r->step_shown);
	view_str(v, "text", bys && r->step_shown ? r->step_text : "");
	view_flag(v, "has_time", r->over && r->frame > 0);
	view_str(v, "time", r->over && r->frame > 0 ?
			    page_local_time(p, r->step_at, "%d.%m.%Y %H:%M:%S") : "");
	view_end(v);
}

/* First, previous, next and last frame (the since page starts at the
 * seat's own last step). */
static void nav_view(struct page *p, const struct play_replay *r, const struct rq *q,
		     struct view *v)
{
	int first = q->since ? r->last_own : 0, last = r->nframes - 1, f = r->frame;
	view_num(v, "frame", f);
	view_num(v, "frames", last);
	view_num(v, "first_frame", first);
	view_num(v, "shown_frame", f - first);
	view_num(v, "shown_frames", last - first);
	view_flag(v, "has_prev", f > first);
	view_flag(v, "has_next", f < last);
	view_flag(v, "at_first", f <= first);
	view_flag(v, "at_last", f >= last);
	view_str(v, "first_url", frame_url(p, r, q, first));
	view_str(v, "prev_url", frame_url(p, r, q, f > first ? f - 1 : first));
	view_str(v, "next_url", frame_url(p, r, q, f < last ? f + 1 : last));
	view_str(v, "last_url", frame_url(p, r, q, last));
}

/* Whose view: a finished party offers every seat's and the spectator's. */
static void viewpoints_view(struct page *p, const struct play_replay *r, const char *const *names,
			    struct view *v)
{
	view_num(v, "viewer", r->viewer);
	view_str(v, "viewer_name", r->viewer >= 0 ? names[r->viewer] : "");
	view_flag(v, "viewer_spectator", r->viewer < 0);
	view_flag(v, "can_choose_view", r->over);
	view_list(v, "viewpoints");
	if (!r->over)
		return;
	for (int s = -1; s < r->t.nseats; s++) {
		view_begin(v, "viewpoints");
		view_num(v, "seat", s);
		view_str(v, "name", s >= 0 ? names[s] : "");
		view_flag(v, "spectator", s < 0);
		view_flag(v, "current", s == r->viewer);
		view_str(v, "url", page_table_url(p, r->t.id,
			 arena_printf(p->a, "/replay?party=%d&step=%d&seat=%d", r->party.number + 1,
				      r->frame, s + 1)));
		view_end(v);
	}
}

/* The seats with their points at this position. */
static void seats_view(const struct play_replay *r, const char *const *names, struct view *v)
{
	view_list(v, "seats");
	for (int s = 0; s < r->t.nseats && s < GAME_MAX_SEATS; s++) {
		view_begin(v, "seats");
		view_num(v, "seat", s);
		view_num(v, "number", s + 1);
		view_str(v, "name", names[s]);
		view_flag(v, "me", s == r->my_seat);
		view_flag(v, "viewer", s == r->viewer);
		view_num(v, "score", r->status.score[s]);
		view_flag(v, "final", r->status.over);
		view_end(v);
	}
}

/* The board: the game's template with its view for the viewer. */
static int board_view(struct page *p, const struct play_replay *r, const char *const *names,
		      struct view *v)
{
	char *file = arena_printf(p->a, "game-%s.tpl", r->g->slug);
	if (!file)
		return -1;
	if (!tmpl_exists(file))
		file = "game-generic.tpl";
	view_include(v, "game", file);
	view_num(v, "table_id", r->t.id);
	view_num(v, "v", 0);
	view_str(v, "csrf", "");
	view_str(v, "move_url", "");
	view_num(v, "my_seat", r->viewer);
	view_flag(v, "can_act", 0);
	view_names(v, names, r->t.nseats);
	struct view_sink sink;
	view_sink_init(v, &sink);
	r->g->view(r->state, r->viewer, &sink);
	view_names(v, NULL, 0);
	view_end(v);
	return 0;
}

/* Section `party_links`: every party of the match so far. */
static void party_links(struct page *p, const struct play_replay *r, struct view *v)
{
	view_list(v, "party_links");
	for (int k = 0; k <= r->t.party_no && k < REPLAY_PARTIES_MAX && r->t.nparties > 1; k++) {
		view_begin(v, "party_links");
		view_num(v, "number", k + 1);
		view_flag(v, "current", k == r->party.number);
		view_flag(v, "other", k != r->party.number);
		view_str(v, "url", page_table_url(p, r->t.id, arena_printf(p->a, "/replay?party=%d",
									    k + 1)));
		view_end(v);
	}
}

static int replay_tree(struct page *p, const struct play_replay *r, const struct rq *q,
		       struct view *v)
{
	const char **names = seat_names(p, r);
	if (!names)
		return -1;
	view_num(v, "table_id", r->t.id);
	view_str(v, "table_url", page_table_url(p, r->t.id, ""));
	view_str(v, "game_slug", r->g->slug);
	view_str(v, "game_title", r->g->title);
	view_num(v, "party_number", r->party.number + 1);
	view_num(v, "nparties", r->t.nparties);
	view_flag(v, r->t.nparties <= 1 ? "single_party" : "multi_party", 1);
	view_flag(v, "since", q->since);
	view_flag(v, "replay", !q->since);
	view_flag(v, "party_over", r->over);
	view_flag(v, "party_running", !r->over);
	view_num(v, "my_seat", r->my_seat);
	view_flag(v, "seated", r->my_seat >= 0);
	view_flag(v, "nothing_since", q->since && r->frame == r->last_own &&
				       r->last_own == r->nframes - 1);
	view_flag(v, "never_moved", q->since && r->last_own == 0);
	view_str(v, "export_url", r->over ? page_table_url(p, r->t.id,
				  arena_printf(p->a, "/replay.txt?party=%d", r->party.number + 1)) : "");
	view_flag(v, "has_export", r->over && r->party.over);
	nav_view(p, r, q, v);
	if (!q->since)
		party_links(p, r, v);
	step_view(p, r, names, v);
	step_log_view(p, r, names, v);
	viewpoints_view(p, r, names, v);
	seats_view(r, names, v);
	return board_view(p, r, names, v);
}

static void show(struct page *p, int since, int json)
{
	struct rq q;
	if (read_query(p, &q, since) != 0)
		return;
	if (since && !p->user_id) {
		page_redirect(p, arena_printf(p->a, "/login?next=%s", p->req->path));
		return;
	}
	struct play_replay *r = arena_alloc(p->a, sizeof *r);
	struct rerr e = { .msg = "" };
	if (!r) {
		page_error(p, HTTP_500, "internal");
		return;
	}
	int rc = play_replay(p->store, p->id, q.party, p->user_id, q.viewer, q.frame, r, &e);
	if (rc == PLAY_OK && !r->over && !page_may_watch(p, &r->t, r->my_seat)) {
		play_replay_free(r);
		page_error(p, HTTP_403, "nowatch");
		return;
	}
	if (rc == PLAY_OK && since && (r->over || r->t.status != TABLE_PLAYING || r->my_seat < 0))
		rc = PLAY_NOT_PLAYING;   /* "since my last move" is a seat's, at a running party */
	/* the since page starts at the seat's own last step */
	if (rc == PLAY_OK && since && (q.frame < 0 || r->frame < r->last_own)) {
		int want = r->last_own;
		play_replay_free(r);
		rc = play_replay(p->store, p->id, -1, p->user_id, -2, want, r, &e);
	}
	if (rc != PLAY_OK) {
		play_replay_free(r);
		answer_error(p, rc);
		return;
	}
	struct view v;
	page_view(p, &v);
	/* the page's tree is only expanded; the JSON twin keeps every value */
	v.html_only = !json && !p->req->wants_json;
	int bad = replay_tree(p, r, &q, &v);
	char *file = arena_printf(p->a, "game-%s.tpl", r->g->slug);
	struct page_head h = {
		.title = r->g->title,
		.game_slug = file && tmpl_exists(file) ? r->g->slug : NULL,
	};
	play_replay_free(r);
	if (bad)
		page_error(p, HTTP_500, "internal");
	else if (json || p->req->wants_json)
		page_json(p, HTTP_200, &v);
	else
		page_html(p, HTTP_200, "replay.tpl", &v, &h);
}

/* GET /t/<id>/replay: see the top. 200; 400; 404 (no such table or
 * party); 503. */
void page_replay(struct page *p)
{
	show(p, 0, 0);
}

/* GET /t/<id>/replay.json: the JSON twin. */
void page_replay_json(struct page *p)
{
	show(p, 0, 1);
}

/* GET /t/<id>/since: see the top. 200; 303 to the login; 404 (not seated
 * at a running party). */
void page_since(struct page *p)
{
	show(p, 1, 0);
}

/* ---- the export -------------------------------------------------------- */

/* One exported step. */
static void export_step(void *ctx, int seat, int64_t at, const char *text)
{
	struct view *v = ctx;
	view_begin(v, "steps");
	view_num(v, "seat", seat);
	view_num(v, "at", at);
	view_str(v, "text", text);
	view_end(v);
}

/* GET /t/<id>/replay.txt?party=N: a finished party as plain text
 * (docs/api.md, "Replays"). 200 (text/plain); 400; 404 (no such table or
 * party, or the party still runs). */
void page_replay_txt(struct page *p)
{
	static const struct http_rule rules[] = {
		{ "party", HTTP_V_INT, 1, 1, REPLAY_PARTIES_MAX },
	};
	struct http_value f[1];
	enum http_err err = http_validate(&p->req->query, rules, 1, f);
	if (err) {
		page_error(p, http_err_status(err), http_err_key(err));
		return;
	}
	struct play_replay *r = arena_alloc(p->a, sizeof *r);
	struct rerr e = { .msg = "" };
	if (!r) {
		page_error(p, HTTP_500, "internal");
		return;
	}
	struct view v;
	view_init(&v, p->a);
	view_list(&v, "steps");
	int rc = play_replay_steps(p->store, p->id, (int)f[0].n - 1, r, export_step, &v);
	if (rc == PLAY_OK)
		rc = play_replay(p->store, p->id, (int)f[0].n - 1, 0, -1, -1, r, &e);
	if (rc != PLAY_OK) {
		play_replay_free(r);
		answer_error(p, rc);
		return;
	}
	view_str(&v, "game", r->g->slug);
	view_num(&v, "table", r->t.id);
	view_num(&v, "party", r->party.number + 1);
	view_num(&v, "players", r->t.nseats);
	view_num(&v, "dealer", r->party.dealer);
	view_strf(&v, "seed", "%llu", (unsigned long long)r->party.seed);
	view_str(&v, "options", r->t.options);
	view_strf(&v, "position", "%016llx",
		  (unsigned long long)play_view_sig(r->g, r->state, -1));
	/* the party's stored points (the rules' scores when its log ended it);
	 * a party its log does not end was closed with the damaged table: a
	 * draw without points, and the file says so */
	view_flag(&v, "closed", !r->status.over);
	for (int s = 0; s < r->t.nseats; s++) {
		view_begin(&v, "scores");
		view_num(&v, "score", r->party.result.points[s]);
		view_end(&v);
	}
	play_replay_free(r);
	size_t len = 0;
	char *body = v.failed ? NULL : tmpl_expand(p->a, "replay.txt.tpl", &v.root, &len);
	if (!body) {
		page_error(p, HTTP_500, "internal");
		return;
	}
	p->resp.status = HTTP_200;
	p->resp.content_type = "text/plain; charset=utf-8";
	p->resp.body = body;
	p->resp.len = len;
}

int page_may_watch(struct page *p, const struct st_table *t, int my_seat)
{
	(void)p;
	return my_seat >= 0 || t->status != TABLE_PLAYING || t->spectators;
}

/* ---- the links from a table's page --------------------------------------- */

/* Section `replay_links` of a table's tree: "Seit deinem letzten Zug"
 * (`since_url`) for a seat of a running party once anything the others
 * can see happened since its own last step (the public version passed
 * it: nothing hidden decides), and every finished party's replay
 * (`replays`: number, url). Nothing when there is neither. */
void page_replay_links(struct page *p, const struct play_table *pt, struct view *v)
{
	int since = pt->has_party && pt->my_seat >= 0 && pt->t.status == TABLE_PLAYING &&
		    !pt->pausing && !pt->status.over && pt->my_last > 0 &&
		    pt->t.public_version > pt->my_last;
	if (!since && pt->nfinished == 0)
		return;
	view_begin(v, "replay_links");
	view_flag(v, "has_since", since);
	view_str(v, "since_url", since ? page_table_url(p, pt->t.id, "/since#schritt") : "");
	view_list(v, "replays");
	for (int k = 0; k < pt->nfinished && k < REPLAY_PARTIES_MAX; k++) {
		view_begin(v, "replays");
		view_num(v, "number", k + 1);
		view_str(v, "url", page_table_url(p, pt->t.id,
						  arena_printf(p->a, "/replay?party=%d", k + 1)));
		view_end(v);
	}
	view_flag(v, "has_replays", pt->nfinished > 0);
	view_end(v);
}
