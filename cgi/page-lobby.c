/* page-lobby.c — the lobby (games, open tables, the create form, my
 * tables), "Meine Tische" and creating a table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "mail.h"
#include "options.h"
#include "page.h"
#include "play.h"
#include "tourney.h"

/* OPEN_PER_USER: open tables (waiting for players) one user may have;
 * OPEN_PER_HOST: how many of one host's open tables the lobby lists (the
 * newest), so that nobody's tables push everybody else's out of it. */
enum { OPEN_LIMIT = 40, MINE_LIMIT = 30, WATCH_LIMIT = 20, TICK_MAX = 10,
       CREATE_FIELDS = 4 + PAGE_TABLE_FIELDS, OPEN_PER_USER = 5, OPEN_PER_HOST = 3 };

static const char *const status_names[] = {
	[TABLE_OPEN] = "open", [TABLE_PLAYING] = "playing", [TABLE_FINISHED] = "finished",
};
_Static_assert(sizeof status_names / sizeof status_names[0] == TABLE_STATUS__MAX, "status_names");

struct rows {
	struct st_table *t;
	int *taken;
	int n, cap;
};

static void collect(void *ctx, const struct st_table *t, int seats_taken)
{
	struct rows *r = ctx;
	if (r->n >= r->cap)
		return;
	r->t[r->n] = *t;
	r->taken[r->n] = seats_taken;
	r->n++;
}

static int rows_init(struct rows *r, struct page *p, int cap)
{
	r->n = 0;
	r->cap = cap;
	r->t = arena_alloc(p->a, sizeof *r->t * (size_t)cap);
	r->taken = arena_alloc(p->a, sizeof *r->taken * (size_t)cap);
	return r->t && r->taken ? 0 : -1;
}

/* The rows of "Meine Tische" (store_my_tables). */
struct my_rows {
	struct st_my_row *r;
	int n, cap;
};

static void collect_mine(void *ctx, const struct st_my_row *x)
{
	struct my_rows *m = ctx;
	if (m->n < m->cap)
		m->r[m->n++] = *x;
}

static const char *game_title(const char *slug)
{
	const struct game *g = game_find(slug);
	return g ? g->title : slug;
}

/* Section `mine`: the user's tables, each with markers my_turn (a regular
 * turn) and window (another chance to act, e.g. a snap window). Reading a
 * running table applies its passed deadlines first (play_load). 0, or -1
 * on a store error (the caller answers 500). */
/* Section `invites`: the tables the viewer is invited to that still wait. */
static int invites_view(struct page *p, struct view *v)
{
	enum { INVITES_MAX = 20 };
	struct st_invite *in = arena_alloc_raw(p->a, INVITES_MAX * sizeof *in);
	int n = 0;
	if (!in || store_invites_to(p->store, p->user_id, in, INVITES_MAX, &n) != ST_OK)
		return -1;
	view_list(v, "invites");
	for (int i = 0; i < n; i++) {
		view_begin(v, "invites");
		view_num(v, "id", in[i].table_id);
		view_str(v, "url", page_table_url(p, in[i].table_id, ""));
		view_str(v, "game_title", game_title(in[i].game));
		view_str(v, "from", in[i].from);
		view_str(v, "from_url", page_user_url(p, in[i].from));
		view_end(v);
	}
	view_flag(v, "has_invites", n > 0);
	return 0;
}

/* The viewer's seat at a loaded table as store_seat_mine() reads it: 0,
 * or -1 when they hold none. */
static int seat_of_loaded(const struct play_table *pt, struct st_my_seat *m)
{
	struct play_flags f;
	play_seat_flags(&pt->status, pt->pausing, pt->ready, pt->t.nseats, &f);
	for (int i = 0; pt->my_seat >= 0 && i < pt->nseated; i++) {
		const struct st_seat *x = &pt->seats[i];
		if (x->seat != pt->my_seat)
			continue;
		*m = (struct st_my_seat){ .seat = x->seat, .bot = x->bot,
					  .acting = f.acting >> x->seat & 1u,
					  .in_window = f.in_window >> x->seat & 1u,
					  .to_continue = f.to_continue >> x->seat & 1u,
					  .clock_left = x->clock_left,
					  .waiting_since = x->waiting_since };
		return 0;
	}
	return -1;
}

/* Where the viewer stands at a running table: what they are asked to do
 * (play_asked(), as the table page says it), their clock in words (NULL:
 * no clock, or a bot plays the seat). A table whose deadline has passed is
 * loaded, which applies it (a write, as on the table's own page); for any
 * other their seat row as the listing read it (`row`), which every step
 * keeps (011_acting.sql, 018_in_window.sql, 021_to_continue.sql), instead
 * of loading and decoding the party. */
static void my_standing(struct page *p, const struct st_my_row *t, enum play_ask *ask,
			const char **clock)
{
	struct st_my_seat m = t->mine;
	*ask = PLAY_ASK_NONE;
	*clock = NULL;
	if (t->next_deadline > 0 && t->next_deadline <= p->now_ms) {
		struct play_table *pt = arena_alloc(p->a, sizeof *pt);
		if (!pt || play_load(p->store, t->id, p->user_id, p->now_ms, pt) != PLAY_OK)
			return;
		int seated = seat_of_loaded(pt, &m);
		play_free(pt);
		if (seated != 0)
			return;
	}
	*ask = play_ask_of_flags(m.acting, m.in_window, m.to_continue);
	const struct clock_rule *c = &t->clock;
	if (c->first_ms > 0 && !m.bot) {
		int64_t left = m.clock_left -
			       (m.waiting_since ? clock_elapsed(c, m.waiting_since, p->now_ms) : 0);
		*clock = page_clock_text(p->a, left, c->day_ms);
	}
}

/* One item of section `mine`. The page (html) leaves out what its
 * templates (lobby.tpl, me.tpl) do not read of it: the status's key, a
 * flag that is off (a section the dictionary lacks is hidden as one whose
 * flag is off), the seats of a table not open, an empty clock; it adds
 * "attention" when the viewer is asked (the item's class). The JSON twin
 * shows all of it but "attention". */
static void mine_item(struct page *p, struct view *v, const struct st_my_row *t,
		      enum play_ask ask, const char *clock, int html)
{
	view_begin(v, "mine");
	view_num(v, "id", t->id);
	view_str(v, "url", page_table_url(p, t->id, ""));
	view_str(v, "game_title", game_title(t->game));
	if (!html)
		view_str(v, "status", status_names[t->status]);
	view_flag(v, t->status == TABLE_OPEN ? "is_open" :
		     t->status == TABLE_PLAYING ? "is_playing" : "is_finished", 1);
	if (!html || t->status == TABLE_OPEN) {
		view_num(v, "seats_taken", t->seats_taken);
		view_num(v, "nseats", t->nseats);
	}
	if (!html) {
		view_flag(v, "my_turn", ask == PLAY_ASK_TURN);
		view_flag(v, "window", ask == PLAY_ASK_WINDOW);
		view_flag(v, "can_continue", ask == PLAY_ASK_CONTINUE);
		view_flag(v, "has_my_clock", clock != NULL);
		view_str(v, "my_clock", clock ? clock : "");
	} else if (ask != PLAY_ASK_NONE) {   /* and "attention": one of the three */
		view_flag(v, ask == PLAY_ASK_TURN ? "my_turn" : ask == PLAY_ASK_WINDOW ?
			     "window" : "can_continue", 1);
		view_flag(v, "attention", 1);
	}
	if (html && clock) {
		view_flag(v, "has_my_clock", 1);
		view_str(v, "my_clock", clock);
	}
	view_end(v);
}

static int mine_view(struct page *p, struct view *v, int *waiting_out)
{
	struct my_rows r = { arena_alloc_raw(p->a, MINE_LIMIT * sizeof *r.r), 0, MINE_LIMIT };
	if (!r.r || store_my_tables(p->store, p->user_id, MINE_LIMIT, collect_mine, &r) != ST_OK)
		return -1;
	view_list(v, "mine");
	int waiting = 0;
	for (int i = 0; i < r.n; i++) {
		const struct st_my_row *t = &r.r[i];
		enum play_ask ask = PLAY_ASK_NONE;
		const char *clock = NULL;
		if (t->status == TABLE_PLAYING)
			my_standing(p, t, &ask, &clock);
		waiting += ask != PLAY_ASK_NONE;
		mine_item(p, v, t, ask, clock, !p->req->wants_json);
	}
	if (invites_view(p, v) != 0)
		return -1;
	view_num(v, "mine_count", r.n);
	view_num(v, "waiting_count", waiting);
	/* a count of tables, not "0 von 1 Tischen" beside an invitation */
	view_str(v, "waiting_text", waiting == 0 ? _("Gerade wartet kein Tisch auf deinen Zug.") :
		 arena_printf(p->a, i18n_ntext("%d Tisch wartet auf dich.", "%d Tische warten auf "
					       "dich.", waiting), waiting));
	if (waiting_out)
		*waiting_out = waiting;
	view_flag(v, r.n > 0 ? "has_mine" : "no_mine", 1);
	return 0;
}

/* The create form of every playable game, from its option table. */
static void games_view(struct page *p, struct view *v, int logged_in)
{
	for (int i = 0; i < ngames; i++) {
		const struct game *g = games[i];
		view_begin(v, "games");
		view_str(v, "slug", g->slug);
		view_str(v, "title", g->title);
		view_str(v, "tagline", g->tagline ? _(g->tagline) : "");
		view_num(v, "min_players", g->min_players);
		view_num(v, "max_players", g->max_players);
		view_str(v, "ratings_url", page_ratings_url(p, g->slug));
		view_flag(v, logged_in ? "can_create" : "login_to_create", 1);
		for (int n = g->min_players; n <= g->max_players; n++) {
			view_begin(v, "seat_choices");
			view_num(v, "n", n);
			view_flag(v, "selected", n == g->min_players);
			view_end(v);
		}
		page_table_form_view(v, g);
		view_end(v);
	}
	for (int i = 0; i < ngames_coming; i++) {
		view_begin(v, "coming");
		view_str(v, "slug", games_coming[i].slug);
		view_str(v, "title", games_coming[i].title);
		view_str(v, "tagline", games_coming[i].tagline ? _(games_coming[i].tagline) : "");
		view_num(v, "min_players", games_coming[i].min_players);
		view_num(v, "max_players", games_coming[i].max_players);
		view_end(v);
	}
}

/* Section `players` of a table to watch: who sits there, by seat. */
static int watch_players(struct page *p, const struct st_table *t, struct view *v)
{
	struct st_seat seats[GAME_MAX_SEATS];
	int n = 0;
	if (store_table_seats(p->store, t->id, seats, GAME_MAX_SEATS, &n) != ST_OK)
		return -1;
	view_list(v, "players");
	for (int i = 0; i < n; i++) {
		view_begin(v, "players");
		view_str(v, "name", seats[i].user_id ? seats[i].name :
			 arena_printf(p->a, seats[i].bot == 1 ? _("Bot %d (zufällig)") :
				      _("Bot %d (gierig)"), seats[i].seat + 1));
		view_flag(v, "more", i + 1 < n);
		view_end(v);
	}
	return 0;
}

/* Section `watch`: running tables anyone may watch ("Zuschauer erlaubt",
 * 027_spectators.sql), the newest first, with who plays there. */
static int watch_view(struct page *p, struct view *v)
{
	struct rows r;
	if (rows_init(&r, p, WATCH_LIMIT) != 0 ||
	    store_tables_watchable(p->store, WATCH_LIMIT, collect, &r) != ST_OK)
		return -1;
	view_list(v, "watch");
	for (int i = 0; i < r.n; i++) {
		const struct st_table *t = &r.t[i];
		view_begin(v, "watch");
		view_num(v, "id", t->id);
		view_str(v, "url", page_table_url(p, t->id, ""));
		view_str(v, "game_title", game_title(t->game));
		view_num(v, "nseats", t->nseats);
		view_num(v, "party_number", t->party_no + 1);
		view_num(v, "nparties", t->nparties);
		view_str(v, "speed", page_speed_text(p->a, t));
		if (watch_players(p, t, v) != 0)
			return -1;
		view_end(v);
	}
	view_flag(v, r.n > 0 ? "has_watch" : "no_watch", 1);
	return 0;
}

/* The lobby with an optional note; `status` 200, or 422 after a refused
 * create; 500 on a store error. */
static void lobby(struct page *p, enum http_status status, const char *note)
{
	struct view v;
	page_view(p, &v);
	games_view(p, &v, p->user_id != 0);
	struct rows r;
	if (rows_init(&r, p, OPEN_LIMIT) != 0 ||
	    store_tables_open_fair(p->store, OPEN_LIMIT, OPEN_PER_HOST, collect, &r) != ST_OK) {
		page_error(p, HTTP_500, "internal");
		return;
	}
	view_list(&v, "open_tables");
	for (int i = 0; i < r.n; i++) {
		view_begin(&v, "open_tables");
		view_num(&v, "id", r.t[i].id);
		view_str(&v, "url", page_table_url(p, r.t[i].id, ""));
		view_str(&v, "game_title", game_title(r.t[i].game));
		view_num(&v, "seats_taken", r.taken[i]);
		view_num(&v, "nseats", r.t[i].nseats);
		page_options_view(p, &v, game_find(r.t[i].game), r.t[i].options);
		view_str(&v, "speed", page_speed_text(p->a, &r.t[i]));
		view_str(&v, "host", r.t[i].host);
		view_str(&v, "host_url", r.t[i].host[0] ? page_user_url(p, r.t[i].host) : "");
		view_flag(&v, "has_host", r.t[i].host[0] != '\0');
		view_end(&v);
	}
	view_flag(&v, r.n > 0 ? "has_open" : "no_open", 1);
	if (watch_view(p, &v) != 0) {
		page_error(p, HTTP_500, "internal");
		return;
	}
	if (p->user_id && mine_view(p, &v, NULL) != 0) {
		page_error(p, HTTP_500, "internal");
		return;
	}
	page_note_view(&v, note);
	if (p->req->wants_json) {
		page_json(p, status, &v);
		return;
	}
	struct page_head h = { .page = "lobby" };
	page_html(p, status, "lobby.tpl", &v, &h);
}

/* A whole number of days from the environment (1..365), else def. */
static int64_t env_days(const char *name, long def)
{
	const char *env = getenv(name);
	long d = env ? strtol(env, NULL, 10) : 0;
	return d >= 1 && d <= 365 ? d : def;
}

/* The lobby's request does the housekeeping (play_sweep), at most once a
 * clock "minute" per worker: tables with a passed deadline are ticked, open
 * tables not full after SPIELTISCH_OPEN_DAYS (7) days go, running tables
 * nobody moved at for SPIELTISCH_IDLE_DAYS (14) days are closed; with mail
 * on, a few users' daily digests are queued (mail.h). */
static void sweep(struct page *p)
{
	static int64_t last;
	int64_t day = page_day_ms();
	if (last && p->now_ms - last >= 0 && p->now_ms - last < day / 1440)
		return;
	last = p->now_ms;
	struct play_sweep rule = { env_days("SPIELTISCH_OPEN_DAYS", 7) * day,
				   env_days("SPIELTISCH_IDLE_DAYS", 14) * day, 3 };
	struct play_swept out;
	int rc = play_sweep(p->store, &rule, p->now_ms, &out);
	if (rc != PLAY_OK)
		fprintf(stderr, "lobby: sweep: %s\n", play_message(rc));
	else if (out.expired || out.closed)
		fprintf(stderr, "lobby: sweep: %d ticked, %d open expired, %d idle closed\n",
			out.ticked, out.expired, out.closed);
	if ((rc = tourney_sweep(p->store, p->now_ms, 3)) != PLAY_OK)
		fprintf(stderr, "lobby: sweep: tournaments: %s\n", play_message(rc));
	int queued = 0;
	if (mail_enabled() && (rc = mail_digest_sweep(p->store, p->now_ms, day, 3, &queued)) != ST_OK)
		fprintf(stderr, "lobby: sweep: mail digests: store error %d\n", rc);
}

/* GET /: the lobby (200; 500 on a store error). */
void page_lobby(struct page *p)
{
	sweep(p);
	lobby(p, HTTP_200, NULL);
}

/* GET /me: my tables with markers (200; 500). */
void page_me(struct page *p)
{
	page_me_show(p, HTTP_200);
}

/* Section "tournaments": the user's, the running and coming first; none
 * read when `any` says they have none (store_me_head). */
static int my_tourneys_view(struct page *p, struct view *v, int any)
{
	struct page_tourney_list m = { p, v, 0 };
	view_list(v, "tournaments");
	if (any && store_tourneys_of_user(p->store, p->user_id, MINE_LIMIT, page_tourney_rows,
					  &m) != ST_OK)
		return -1;
	view_flag(v, "has_tournaments", m.n > 0);
	return 0;
}

/* The page's frame: it polls like a table, the number kept for all the
 * user's tables (m, read after they were loaded and ticked) at the address
 * of the user's poll token (no session lookup per poll); the title's count
 * of tables waiting for a move from the same row when it is up to date. */
static void me_html(struct page *p, enum http_status status, struct view *v,
		    const struct st_me_head *m, int waiting)
{
	char token[AUTH_TOKEN_LEN + 1];
	const char *poll = m->poll_token[0] ? arena_printf(p->a, "/me/poll/%s", m->poll_token) :
			   auth_poll_token(p->store, p->user_id, token) == AUTH_OK ?
				   arena_printf(p->a, "/me/poll/%s", token) : NULL;
	const char *alert = waiting > 0 ? _("Du bist dran!") : NULL;   /* (the title counts) */
	struct page_head h = { .page = "me", .poll_url = poll ? poll : "/me/poll",
			       .table_url = "/me",
			       .version = m->seq, .alert = alert, .refresh = 1,
			       .attention = waiting > 0,
			       .waiting_known = m->waiting >= 0, .waiting = m->waiting };
	page_html(p, status, "me.tpl", v, &h);
}

void page_me_show(struct page *p, enum http_status status)
{
	struct view v;
	if (p->req->wants_json)
		page_view_json(p, &v);   /* no tree: the JSON written as it is made */
	else
		page_view(p, &v);
	/* first the passed deadlines of the user's tables, also those not
	 * listed: else their poll would reload the page every 2 s */
	int rc = play_sweep_user(p->store, p->user_id, p->now_ms, TICK_MAX);
	if (rc != PLAY_OK && rc != PLAY_BUSY)
		fprintf(stderr, "me: sweep: %s\n", play_message(rc));
	int waiting = 0;
	struct st_me_head m;
	if (mine_view(p, &v, &waiting) != 0) {
		page_error(p, HTTP_500, "internal");
		return;
	}
	/* the user's row of the poll, after the listing's loads */
	if (store_me_head(p->store, p->user_id, &m) != ST_OK)   /* the first poll reloads */
		m = (struct st_me_head){ .seq = 0, .waiting = -1, .tourneys = 1 };
	if (my_tourneys_view(p, &v, m.tourneys) != 0) {
		page_error(p, HTTP_500, "internal");
		return;
	}
	if (p->req->wants_json) {
		page_json(p, status, &v);
		return;
	}
	/* the feed and mail sections: the page only, not its JSON */
	if (page_feed_view(p, &v) != 0 || page_mail_view(p, &v) != 0) {
		page_error(p, HTTP_500, "internal");
		return;
	}
	me_html(p, status, &v, &m, waiting);
}

/* 1 when the user may open one more table; else 0 with the lobby (422,
 * and a note saying why) or an error page already answered. */
static int may_open(struct page *p)
{
	int n = 0, rc = store_tables_open_by(p->store, p->user_id, &n);
	if (rc != ST_OK) {
		page_fail(p, rc);
		return 0;
	}
	if (n < OPEN_PER_USER)
		return 1;
	const char *note = arena_printf(p->a, _("Du hast schon %d offene Tische, die auf "
						"Mitspieler warten. Eröffne einen neuen, wenn "
						"einer davon voll ist oder du ihn verlassen "
						"hast."), n);
	lobby(p, HTTP_422, note ? note : _("Du hast schon zu viele offene Tische."));
	return 0;
}

/* POST /tables (game, seats, the game's options): 303 to the new table;
 * 400 for a malformed form or an unknown game, 422 (lobby with the note)
 * when the rules refuse the combination or the user has OPEN_PER_USER
 * tables waiting already, 503 (busy, disk full), 500. */
void page_table_create(struct page *p)
{
	const struct game *g = game_find(http_get(&p->req->form, "game"));
	if (!g) {
		page_error(p, HTTP_400, "invalid_field");
		return;
	}
	struct http_rule rules[CREATE_FIELDS] = {
		{ "csrf", HTTP_V_TEXT, 1, 1, 64 },
		{ "game", HTTP_V_TEXT, 1, 1, ST_SLUG_MAX },
		{ "seats", HTTP_V_INT, 1, g->min_players, g->max_players },
	};
	int n = 3 + page_table_form_rules(g, &rules[3]);
	rules[n++] = (struct http_rule){ "spectators", HTTP_V_INT, 0, 0, 1 };   /* absent: 1 */
	struct http_value f[CREATE_FIELDS];
	struct play_speed sp;
	char text[ST_OPTS_MAX + 1];
	enum http_err err = http_validate(&p->req->form, rules, n, f);
	if (!err && page_table_form_read(g, &f[3], text, sizeof text, &sp) != 0)
		err = HTTP_E_INVALID;
	if (err) {
		page_error(p, http_err_status(err), http_err_key(err));
		return;
	}
	if (!may_open(p))
		return;
	int64_t id = 0;
	struct rerr e = { .msg = "" };
	int rc = play_create_timed(p->store, g->slug, text, (int)f[2].n, &sp, p->user_id, p->now_ms,
				   &id, &e);
	/* "Zuschauer erlaubt" off: before anybody can join, so before the start */
	if (rc == PLAY_OK && f[n - 1].present && !f[n - 1].n &&
	    store_table_spectators_set(p->store, id, 0) != ST_OK)
		rc = PLAY_ERR;
	if (rc == PLAY_OK) {
		page_redirect_table(p, id, "");
	} else if (rc == PLAY_INVALID)
		lobby(p, HTTP_422, e.msg[0] ? i18n_rerr(&e) : _(play_message(rc)));
	else
		page_fail(p, rc == PLAY_NOT_FOUND ? PLAY_ERR : rc);
}
