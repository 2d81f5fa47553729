/* page-tournament.c — one tournament, /tournaments/<id>: its rule, the
 * players, every round's tables with their live status, the standings;
 * the JSON twin (.json), the CSV exports (/standings.csv, /results.csv),
 * the poll, and the forms: register, withdraw (or the organiser removes
 * a player), start now. Visiting it after the start time starts it
 * (tourney_tick): rounds are seated by requests, never by a timer. */
#include <stdio.h>
#include <string.h>

#include "page.h"
#include "play.h"
#include "tmpl.h"
#include "tourney.h"

static const char *name_of(const struct tourney_data *d, int64_t user)
{
	int i = tourney_player_index(d, user);
	return i >= 0 ? d->players[i].name : "";
}

/* "12,5" (comma: German) or "12.5" for a doubled whole number (the
 * Sonneborn-Berger-like sum; never below 0). */
static const char *halves(struct page *p, int x2, char comma)
{
	const char *s = x2 % 2 ? arena_printf(p->a, "%d%c5", x2 / 2, comma)
			       : arena_printf(p->a, "%d", x2 / 2);
	return s ? s : "";
}

static void rule_view(struct page *p, struct view *v, const struct tourney_data *d)
{
	const struct st_tourney *t = &d->t;
	struct st_table speed;
	memset(&speed, 0, sizeof speed);
	speed.clock = t->clock;
	speed.timeouts_max = t->timeouts_max;
	page_tourney_row(p, v, t);
	view_str(v, "slug", t->game);
	view_str(v, "format_key", page_tourney_format_key(t->format));
	view_num(v, "seats", t->seats);
	view_num(v, "min_seats", t->min_seats);
	view_str(v, "rounds_text", page_quantity(p->a, t->rounds,
						 t->rounds == 1 ? "Runde" : "Runden"));
	view_flag(v, "smaller_tables", t->min_seats < t->seats);
	view_num(v, "advance", t->advance);
	view_flag(v, "elimination", t->format == TOURNEY_ELIMINATION);
	view_str(v, "points", t->points);
	view_num(v, "bye_points", tourney_bye_points(&d->points));
	view_flag(v, "tb_party", d->tb[0] == TB_PARTY);
	view_flag(v, "tb_sb", d->tb[0] == TB_SB);
	view_flag(v, "tb_then_party", d->tb[0] == TB_SB && d->tb[1] == TB_PARTY);
	view_flag(v, "tb_then_sb", d->tb[0] == TB_PARTY && d->tb[1] == TB_SB);
	view_str(v, "speed", page_speed_text(p->a, &speed));
	page_options_view(p, v, d->g, t->options);
	view_str(v, "organiser", t->organiser);
	if (t->organiser[0]) {
		view_begin(v, "organiser_link");
		view_str(v, "url", page_user_url(p, t->organiser));
		view_end(v);
	}
	view_str(v, "register_until", page_local_time(p, t->register_until, "%d.%m.%Y %H:%M"));
	view_flag(v, t->status == TOURNEY_REGISTERING ? "is_registering" :
		  t->status == TOURNEY_RUNNING ? "is_running" : "is_over", 1);
}

static void players_view(struct page *p, struct view *v, const struct tourney_data *d, int org)
{
	int open = d->t.status == TOURNEY_REGISTERING || d->t.status == TOURNEY_RUNNING;
	view_list(v, "players");
	for (int i = 0; i < d->nplayers; i++) {
		const struct st_tplayer *x = &d->players[i];
		view_begin(v, "players");
		view_str(v, "name", x->name);
		view_str(v, "profile_url", page_user_url(p, x->name));
		view_flag(v, "me", x->user_id == p->user_id);
		const char *state = x->left_how == 1 ? "abgemeldet in Runde %d"
				    : x->left_how ? "entfernt in Runde %d"
				    : x->out_round ? "ausgeschieden in Runde %d" : NULL;
		if (state) {
			view_begin(v, "state");
			view_str(v, "text", arena_printf(p->a, state, x->left_how ? x->left_round
											: x->out_round));
			view_end(v);
		}
		view_flag(v, "can_remove", org && open && !x->left_how && x->user_id != p->user_id);
		view_end(v);
	}
}

/* The players of a table not done yet, by seat. */
static void seated_view(struct page *p, struct view *v, int64_t table)
{
	struct st_seat seats[GAME_MAX_SEATS];
	int n = 0;
	if (store_table_seats(p->store, table, seats, GAME_MAX_SEATS, &n) != ST_OK)
		return;
	for (int k = 0; k < n; k++) {
		view_begin(v, "players");
		view_str(v, "name", seats[k].name);
		view_flag(v, "me", seats[k].user_id && seats[k].user_id == p->user_id);
		view_flag(v, "bot", seats[k].bot);
		view_end(v);
	}
}

/* The rows of round r, table no (done) into section "players". */
static void results_view(struct page *p, struct view *v, const struct tourney_data *d, int r,
			 int no)
{
	for (int i = 0; i < d->nresults; i++) {
		const struct st_tresult *x = &d->results[i];
		if (x->round != r || x->table_no != no)
			continue;
		view_begin(v, "players");
		view_str(v, "name", name_of(d, x->user_id));
		view_flag(v, "me", x->user_id == p->user_id);
		view_flag(v, "done", 1);
		view_num(v, "place", x->place);
		view_num(v, "points", x->points);
		view_num(v, "party_points", x->party_points);
		view_end(v);
	}
}

static void table_view(struct page *p, struct view *v, const struct tourney_data *d,
		       const struct st_ttable *x, int64_t *mine)
{
	view_begin(v, "tables");
	view_num(v, "number", x->number + 1);
	view_str(v, "url", page_table_url(p, x->table_id, ""));
	view_flag(v, "done", x->done);
	if (x->done)
		view_str(v, "status", "beendet");
	else
		view_str(v, "status", arena_printf(p->a, "läuft: Partie %d von %d",
						   x->party_no + 1, x->nparties));
	view_list(v, "players");
	if (x->done)
		results_view(p, v, d, x->round, x->number);
	else
		seated_view(p, v, x->table_id);
	view_end(v);
	if (!x->done && x->round == d->t.round && !*mine && p->user_id) {
		struct st_seat seats[GAME_MAX_SEATS];
		int n = 0;
		if (store_table_seats(p->store, x->table_id, seats, GAME_MAX_SEATS, &n) == ST_OK)
			for (int k = 0; k < n; k++)
				if (seats[k].user_id == p->user_id && !seats[k].resigned)
					*mine = x->table_id;
	}
}

/* The rounds, the newest first; *mine: the viewer's running table. */
static void rounds_view(struct page *p, struct view *v, const struct tourney_data *d,
			int64_t *mine)
{
	view_list(v, "rounds");
	for (int r = d->t.round; r >= 1; r--) {
		view_begin(v, "rounds");
		view_num(v, "round", r);
		view_list(v, "tables");
		for (int i = 0; i < d->ntables; i++)
			if (d->tables[i].round == r)
				table_view(p, v, d, &d->tables[i], mine);
		view_list(v, "byes");
		for (int i = 0; i < d->nresults; i++)
			if (d->results[i].round == r && d->results[i].table_no < 0) {
				view_begin(v, "byes");
				view_str(v, "name", name_of(d, d->results[i].user_id));
				view_num(v, "points", d->results[i].points);
				view_end(v);
			}
		view_end(v);
	}
}

static void standings_view(struct page *p, struct view *v, const struct tourney_data *d)
{
	view_list(v, "standings");
	for (int i = 0; i < d->nplayers; i++) {
		const struct tourney_standing *s = &d->standings[i];
		const struct st_tplayer *x = &d->players[s->player];
		view_begin(v, "standings");
		view_num(v, "place", s->place);
		view_str(v, "name", x->name);
		view_str(v, "profile_url", page_user_url(p, x->name));
		view_flag(v, "me", x->user_id == p->user_id);
		view_flag(v, "gone", x->left_how != 0 || x->out_round != 0);
		view_num(v, "points", s->points);
		view_num(v, "party_points", s->party_points);
		view_str(v, "sb", halves(p, s->sb2, ','));
		view_str(v, "sb_dot", halves(p, s->sb2, '.'));
		view_num(v, "played", s->played);
		view_num(v, "byes", s->byes);
		view_end(v);
	}
}

/* What the viewer may do. */
static void actions_view(struct page *p, struct view *v, const struct tourney_data *d,
			 int64_t mine)
{
	int me = tourney_player_index(d, p->user_id);
	int in = me >= 0 && d->players[me].left_how == 0;
	int reg = d->t.status == TOURNEY_REGISTERING;
	int org = p->user_id && p->user_id == d->t.created_by;
	view_flag(v, "login_to_register", !p->user_id && reg && p->now_ms < d->t.register_until);
	view_flag(v, "can_register", p->user_id && me < 0 && reg && p->now_ms < d->t.register_until);
	view_flag(v, "registered", in);
	view_flag(v, "can_withdraw", in && (reg || d->t.status == TOURNEY_RUNNING) &&
		  !d->players[me].out_round);
	view_flag(v, "can_start", org && reg);
	view_flag(v, "organiser", org);
	if (mine) {
		view_begin(v, "my_table");
		view_str(v, "url", page_table_url(p, mine, ""));
		view_end(v);
	}
}

/* The whole page's view of d. */
static void tournament_view(struct page *p, struct view *v, const struct tourney_data *d)
{
	int64_t mine = 0;
	int org = p->user_id && p->user_id == d->t.created_by;
	rule_view(p, v, d);
	players_view(p, v, d, org);
	rounds_view(p, v, d, &mine);
	standings_view(p, v, d);
	actions_view(p, v, d, mine);
	view_str(v, "json_url", page_tourney_url(p, d->t.id, ".json"));
	view_str(v, "standings_csv", page_tourney_url(p, d->t.id, "/standings.csv"));
	view_str(v, "results_csv", page_tourney_url(p, d->t.id, "/results.csv"));
	view_str(v, "action_url", page_tourney_url(p, d->t.id, ""));
	view_num(v, "version", d->t.version);
}

/* Loads tournament p->id (started first when its time came); 0, or -1
 * with the error page answered. */
static int load(struct page *p, struct tourney_data *d)
{
	int rc = tourney_tick(p->store, p->id, p->now_ms);
	if (rc == PLAY_OK || rc == PLAY_BUSY)
		rc = tourney_load(p->store, p->id, d);
	if (rc == PLAY_OK)
		return 0;
	page_error(p, rc == PLAY_NOT_FOUND ? HTTP_404 : rc == PLAY_BUSY ? HTTP_503 : HTTP_500,
		   rc == PLAY_NOT_FOUND ? "notfound" : rc == PLAY_BUSY ? "busy" : "internal");
	return -1;
}

/* The page with an optional note (a refused form) and status. */
static void show(struct page *p, enum http_status status, const char *note)
{
	struct tourney_data d;
	if (load(p, &d) != 0)
		return;
	struct view v;
	page_view(p, &v);
	tournament_view(p, &v, &d);
	if (note) {
		view_begin(&v, "note");
		view_str(&v, "text", note);
		view_end(&v);
	}
	if (p->req->wants_json) {
		tourney_free(&d);
		page_json(p, status, &v);
		return;
	}
	const char *url = page_tourney_url(p, d.t.id, "");
	struct page_head h = { .page = "tournament", .title = d.t.name,
			       .poll_url = page_tourney_url(p, d.t.id, "/poll"), .table_url = url,
			       .version = d.t.version, .refresh = 1 };
	page_html(p, status, "tournament.tpl", &v, &h);
	tourney_free(&d);
}

/* GET /tournaments/<id>: 200, 404, 503, 500. */
void page_tournament(struct page *p)
{
	show(p, HTTP_200, NULL);
}

/* GET /tournaments/<id>.json: the page's view as JSON. */
void page_tournament_json(struct page *p)
{
	p->req->wants_json = 1;
	show(p, HTTP_200, NULL);
}

/* GET /tournaments/<id>/standings.csv and /results.csv. */
static void csv(struct page *p, const char *tpl)
{
	struct tourney_data d;
	if (load(p, &d) != 0)
		return;
	struct view v;
	page_view(p, &v);
	standings_view(p, &v, &d);
	view_list(&v, "results");
	for (int i = 0; i < d.nresults; i++) {
		const struct st_tresult *x = &d.results[i];
		view_begin(&v, "results");
		view_num(&v, "round", x->round);
		if (x->table_no >= 0) {
			view_num(&v, "table", x->table_no + 1);
			view_num(&v, "table_id", x->table_id);
			view_num(&v, "seat", x->seat + 1);
			view_num(&v, "place", x->place);
		}
		view_str(&v, "name", name_of(&d, x->user_id));
		view_num(&v, "points", x->points);
		view_num(&v, "party_points", x->party_points);
		view_end(&v);
	}
	tourney_free(&d);
	size_t len = 0;
	char *body = v.failed ? NULL : tmpl_expand(p->a, tpl, &v.root, &len);
	if (!body) {
		page_error(p, HTTP_500, "internal");
		return;
	}
	p->resp.status = HTTP_200;
	p->resp.content_type = "text/csv; charset=utf-8";
	p->resp.body = body;
	p->resp.len = len;
}

void page_tournament_standings_csv(struct page *p)
{
	csv(p, "standings.csv.tpl");
}

void page_tournament_results_csv(struct page *p)
{
	csv(p, "results.csv.tpl");
}

/* GET /tournaments/<id>/poll?v=N: as a table's poll (page-poll.c). */
void page_tournament_poll(struct page *p)
{
	static const struct http_rule rules[] = { { "v", HTTP_V_INT, 1, 0, INT64_MAX } };
	struct http_value f[1];
	int64_t version = 0, deadline = 0;
	enum http_err err = http_validate(&p->req->query, rules, 1, f);
	if (err) {
		page_error(p, http_err_status(err), http_err_key(err));
		return;
	}
	int rc = store_tourney_poll(p->store, p->id, &version, &deadline);
	if (rc != ST_OK) {
		page_error(p, rc == ST_NOTFOUND ? HTTP_404 : rc == ST_BUSY ? HTTP_503 : HTTP_500,
			   rc == ST_NOTFOUND ? "notfound" : rc == ST_BUSY ? "busy" : "internal");
		return;
	}
	if (version == f[0].n && !(deadline > 0 && deadline <= p->now_ms)) {
		page_status(p, HTTP_204, NULL);
		return;
	}
	char *body = arena_printf(p->a, "%lld\n", (long long)version);
	page_status(p, HTTP_200, body ? body : "\n");
}

/* The answer to a tournament form: 303 back to the page, or the page with
 * the note (409 for a refusal). */
static void answer(struct page *p, int rc, const struct rerr *e)
{
	if (rc == PLAY_OK) {
		page_redirect(p, page_tourney_url(p, p->id, ""));
		return;
	}
	if (rc == PLAY_NOT_FOUND || rc == PLAY_BUSY || rc == PLAY_NOSPACE || rc == PLAY_ERR) {
		page_error(p, rc == PLAY_NOT_FOUND ? HTTP_404 : rc == PLAY_ERR ? HTTP_500 : HTTP_503,
			   rc == PLAY_NOT_FOUND ? "notfound" : rc == PLAY_ERR ? "internal" : "busy");
		return;
	}
	show(p, HTTP_409, e->msg[0] ? e->msg : play_message((enum play_rc)rc));
}

/* POST /tournaments/<id>/register (csrf). */
void page_tournament_register(struct page *p)
{
	struct rerr e = { "" };
	if (page_csrf_only(p))
		answer(p, tourney_register(p->store, p->id, p->user_id, p->now_ms, &e), &e);
}

/* POST /tournaments/<id>/withdraw (csrf; name: the organiser removes that
 * player). */
void page_tournament_withdraw(struct page *p)
{
	static const struct http_rule rules[] = {
		{ "csrf", HTTP_V_TEXT, 1, 1, 64 },
		{ "name", HTTP_V_TEXT, 0, 1, ST_NAME_MAX },
	};
	struct http_value f[2];
	struct rerr e = { "" };
	enum http_err err = http_validate(&p->req->form, rules, 2, f);
	if (err) {
		page_error(p, http_err_status(err), http_err_key(err));
		return;
	}
	int64_t who = p->user_id;
	if (f[1].present) {
		struct st_user u;
		int rc = store_user_by_name(p->store, f[1].s, &u);
		if (rc != ST_OK) {
			answer(p, rc == ST_NOTFOUND ? PLAY_NOT_SEATED : PLAY_ERR, &e);
			return;
		}
		who = u.id;
	}
	answer(p, tourney_withdraw(p->store, p->id, who, p->user_id, p->now_ms, &e), &e);
}

/* POST /tournaments/<id>/start (csrf): the organiser starts it now. */
void page_tournament_start(struct page *p)
{
	struct rerr e = { "" };
	if (page_csrf_only(p))
		answer(p, tourney_start(p->store, p->id, p->user_id, p->now_ms, &e), &e);
}
