/* page-tournaments.c — the tournaments: GET /tournaments (the ones to come,
 * running and finished; links to organise one per game), GET
 * /tournaments/new?game=<slug> (the organiser's form) and POST
 * /tournaments (creating one). docs/tournaments.md explains the rules. */
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "page.h"
#include "pairing.h"
#include "play.h"
#include "tourney.h"

enum {
	LIST_MAX = 50,
	START_MINUTES_MAX = 60 * 24 * 60,   /* 60 days ahead at most */
	NEW_FIELDS = 12 + PAGE_TABLE_FIELDS,
};

static const char *const format_names[TOURNEY_FORMAT__MAX] = {
	[TOURNEY_SWISS] = N_("Schweizer System"),
	[TOURNEY_ELIMINATION] = N_("K.-o.-System"),
	[TOURNEY_GROUPS] = N_("Jeder gegen jeden in Gruppen"),
};
static const char *const format_keys[TOURNEY_FORMAT__MAX] = {
	[TOURNEY_SWISS] = "swiss", [TOURNEY_ELIMINATION] = "elimination",
	[TOURNEY_GROUPS] = "groups",
};
static const char *const status_texts[TOURNEY_STATUS__MAX] = {
	[TOURNEY_REGISTERING] = N_("Anmeldung offen"), [TOURNEY_RUNNING] = N_("läuft"),
	[TOURNEY_FINISHED] = N_("beendet"), [TOURNEY_CANCELLED] = N_("abgesagt"),
};
static const char *const status_keys[TOURNEY_STATUS__MAX] = {
	[TOURNEY_REGISTERING] = "registering", [TOURNEY_RUNNING] = "running",
	[TOURNEY_FINISHED] = "finished", [TOURNEY_CANCELLED] = "cancelled",
};

const char *page_tourney_format(int format)
{
	return format >= 0 && format < TOURNEY_FORMAT__MAX ? _(format_names[format]) : "";
}

const char *page_tourney_format_key(int format)
{
	return format >= 0 && format < TOURNEY_FORMAT__MAX ? format_keys[format] : "";
}

const char *page_tourney_status(int status, int key)
{
	if (status < 0 || status >= TOURNEY_STATUS__MAX)
		return "";
	return key ? status_keys[status] : _(status_texts[status]);
}

const char *page_tourney_url(struct page *p, int64_t id, const char *tail)
{
	const char *u = page_id_url(p, "/tournaments/", id, tail);
	return u ? u : "/tournaments";
}

void page_tourney_row(struct page *p, struct view *v, const struct st_tourney *t)
{
	const struct game *g = game_find(t->game);
	view_str(v, "name", t->name);
	view_str(v, "url", page_tourney_url(p, t->id, ""));
	view_str(v, "game_title", g ? g->title : t->game);
	view_str(v, "format", page_tourney_format(t->format));
	view_str(v, "status", page_tourney_status(t->status, 1));
	view_str(v, "status_text", page_tourney_status(t->status, 0));
	view_num(v, "player_count", t->players);
	view_num(v, "round", t->round);
	view_flag(v, "started", t->round > 0);
	view_num(v, "rounds_total", t->rounds);
	view_str(v, "starts",
		 /* xgettext:no-c-format */
		 page_local_time(p, t->starts_at, _("%d.%m.%Y %H:%M")));
}

void page_tourney_rows(void *ctx, const struct st_tourney *t)
{
	struct page_tourney_list *l = ctx;
	view_begin(l->v, "tournaments");
	page_tourney_row(l->p, l->v, t);
	view_end(l->v);
	l->n++;
}

/* GET /tournaments: 200, 500. */
void page_tournaments(struct page *p)
{
	struct view v;
	page_view(p, &v);
	struct page_tourney_list l = { p, &v, 0 };
	(void)tourney_sweep(p->store, p->now_ms, 3);   /* starts the ones whose time came */
	view_list(&v, "tournaments");
	if (store_tourneys_list(p->store, LIST_MAX, page_tourney_rows, &l) != ST_OK) {
		page_error(p, HTTP_500, "internal");
		return;
	}
	view_flag(&v, l.n ? "has_tournaments" : "no_tournaments", 1);
	for (int i = 0; i < ngames; i++) {
		view_begin(&v, "games");
		view_str(&v, "title", games[i]->title);
		const char *u = arena_printf(p->a, "/tournaments/new?game=%s", games[i]->slug);
		view_str(&v, "new_url", u ? u : "/tournaments");
		view_end(&v);
	}
	view_flag(&v, p->user_id ? "can_organise" : "login_to_organise", 1);
	if (p->req->wants_json) {
		page_json(p, HTTP_200, &v);
		return;
	}
	struct page_head h = { .page = "tournaments", .title = _("Turniere") };
	page_html(p, HTTP_200, "tournaments.tpl", &v, &h);
}

/* The organiser's form for game g, with a note (422) or without (200). */
static void new_form(struct page *p, const struct game *g, enum http_status status,
		     const char *note)
{
	struct view v;
	page_view(p, &v);
	view_str(&v, "game", g->slug);
	view_str(&v, "game_title", g->title);
	page_note_view(&v, note);
	int lo = g->min_players > PAIRING_SEATS_MIN ? g->min_players : PAIRING_SEATS_MIN;
	int hi = g->max_players < TOURNEY_SEATS_MAX ? g->max_players : TOURNEY_SEATS_MAX;
	int def = 4 < lo ? lo : 4 > hi ? hi : 4;           /* tables of 4 where the game allows */
	int def_min = def - 1 < g->min_players ? def : def - 1;
	for (int n = lo; n <= hi; n++) {
		view_begin(&v, "seat_choices");
		view_num(&v, "n", n);
		view_flag(&v, "selected", n == def);
		view_end(&v);
	}
	for (int n = g->min_players; n <= hi; n++) {
		view_begin(&v, "min_choices");
		view_num(&v, "n", n);
		view_flag(&v, "selected", n == def_min);
		view_end(&v);
	}
	page_table_form_view(&v, g);
	const char *title = arena_printf(p->a, _("Turnier ausrichten: %s"), g->title);
	struct page_head h = { .page = "tournament_new", .title = title ? title : _("Turnier") };
	page_html(p, status, "tournament-new.tpl", &v, &h);
}

/* GET /tournaments/new?game=<slug>: 200; 404 for an unknown game. */
void page_tournament_new(struct page *p)
{
	static const struct http_rule rules[] = { { "game", HTTP_V_TEXT, 1, 1, ST_SLUG_MAX } };
	struct http_value f[1];
	enum http_err err = http_validate(&p->req->query, rules, 1, f);
	const struct game *g = err ? NULL : game_find(f[0].s);
	if (err || !g) {
		page_error(p, err ? http_err_status(err) : HTTP_404, err ? http_err_key(err)
									 : "notfound");
		return;
	}
	new_form(p, g, HTTP_200, NULL);
}

/* The format's key into *out; -1 for none known. */
static int format_of(const char *key, enum tourney_format *out)
{
	for (int k = 0; k < TOURNEY_FORMAT__MAX; k++)
		if (strcmp(key, format_keys[k]) == 0) {
			*out = (enum tourney_format)k;
			return 0;
		}
	return -1;
}

/* The rule from the validated fields f (NEW_FIELDS layout); -1 bad. */
static int rule_of(struct page *p, const struct game *g, const struct http_value *f,
		   struct tourney_new *n, char *opts, size_t cap)
{
	memset(n, 0, sizeof *n);
	snprintf(n->name, sizeof n->name, "%s", f[2].s);
	n->game = g->slug;
	if (format_of(f[3].s, &n->format) != 0 ||
	    tourney_tiebreaks_parse(f[9].present ? f[9].s : "", n->tb) != 0 ||
	    page_table_form_read(g, &f[12], opts, cap, &n->speed) != 0)
		return -1;
	n->options = opts;
	n->seats = (int)f[4].n;
	n->min_seats = f[5].present ? (int)f[5].n : n->seats;
	n->rounds = (int)f[6].n;
	n->advance = f[7].present ? (int)f[7].n : 0;
	n->points = f[8].present ? f[8].s : "";
	n->starts_at = p->now_ms + f[10].n * 60000;
	n->register_until = n->starts_at - (f[11].present ? f[11].n : 0) * 60000;
	if (n->register_until < p->now_ms)
		n->register_until = p->now_ms;
	return 0;
}

/* POST /tournaments: 303 to the new tournament; 400 malformed; 422 (the
 * form with a note) for a rule the game or the formats refuse; 503, 500. */
void page_tournament_create(struct page *p)
{
	const struct game *g = game_find(http_get(&p->req->form, "game"));
	if (!g) {
		page_error(p, HTTP_400, "invalid_field");
		return;
	}
	struct http_rule rules[NEW_FIELDS] = {
		{ "csrf", HTTP_V_TEXT, 1, 1, 64 },
		{ "game", HTTP_V_TEXT, 1, 1, ST_SLUG_MAX },
		{ "name", HTTP_V_TEXT, 1, 1, ST_TNAME_MAX },
		{ "format", HTTP_V_TEXT, 1, 1, 16 },
		{ "seats", HTTP_V_INT, 1, 2, TOURNEY_SEATS_MAX },
		{ "min_seats", HTTP_V_INT, 0, 2, TOURNEY_SEATS_MAX },
		{ "rounds", HTTP_V_INT, 1, 1, TOURNEY_ROUNDS_MAX },
		{ "advance", HTTP_V_INT, 0, 0, TOURNEY_SEATS_MAX },
		{ "points", HTTP_V_TEXT, 0, 0, ST_TPOINTS_MAX },
		{ "tiebreaks", HTTP_V_TEXT, 0, 0, ST_TTIEBREAKS_MAX },
		{ "start_minutes", HTTP_V_INT, 1, 0, START_MINUTES_MAX },
		{ "close_minutes", HTTP_V_INT, 0, 0, START_MINUTES_MAX },
	};
	int n = 12 + page_table_form_rules(g, &rules[12]);
	struct http_value f[NEW_FIELDS];
	struct tourney_new tn;
	char opts[ST_OPTS_MAX + 1];
	enum http_err err = http_validate(&p->req->form, rules, n, f);
	if (!err && rule_of(p, g, f, &tn, opts, sizeof opts) != 0)
		err = HTTP_E_INVALID;
	if (err) {
		page_error(p, http_err_status(err), http_err_key(err));
		return;
	}
	int64_t id = 0;
	struct rerr e = { .msg = "" };
	int rc = tourney_create(p->store, &tn, p->user_id, p->now_ms, &id, &e);
	if (rc == PLAY_OK)
		page_redirect(p, page_tourney_url(p, id, ""));
	else if (rc == PLAY_INVALID)
		new_form(p, g, HTTP_422, e.msg[0] ? i18n_rerr(&e) : _(play_message(rc)));
	else
		page_fail(p, rc == PLAY_NOT_FOUND ? PLAY_ERR : rc);
}
