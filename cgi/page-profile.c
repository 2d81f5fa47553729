/* page-profile.c — a user's public profile, /u/<name>: member since, the
 * finished tables per game, the matches won and the latest results.
 *
 * Everything comes from the finished tables the user sat at (seats) and
 * their parties' results (party_results), and the ratings (ratings,
 * rating_history). Tournaments, once they exist, belong here too. */
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "numfmt.h"
#include "page.h"

enum { RESULTS_MAX = 10 };

static const char *game_title(const char *slug)
{
	const struct game *g = game_find(slug);
	return g ? g->title : slug;
}

int page_profile_place(const struct st_finished *f, int *win)
{
	int n = f->nseats, place[GAME_MAX_SEATS];
	if (n < 1 || n > GAME_MAX_SEATS || f->my_seat < 0 || f->my_seat >= n) {
		*win = 0;
		return 0;
	}
	match_standings(&f->totals, n, f->resigned, place);
	*win = place[f->my_seat] == 1 && f->totals.parties > 0;
	return place[f->my_seat];
}

struct tally {
	struct st_finished latest[RESULTS_MAX];
	int n;
	int wins;
};

static void count(void *ctx, const struct st_finished *f)
{
	struct tally *t = ctx;
	int win = 0;
	page_profile_place(f, &win);
	t->wins += win;
	if (t->n < RESULTS_MAX)
		t->latest[t->n++] = *f;
}

struct games {
	struct page *p;
	struct view *v;
	int tables;
};

static void game_row(void *ctx, const char *game, int tables)
{
	struct games *g = ctx;
	view_begin(g->v, "games");
	view_str(g->v, "slug", game);
	view_str(g->v, "game_title", game_title(game));
	view_num(g->v, "tables", tables);
	view_end(g->v);
	g->tables += tables;
}

/* The reader's way of writing a date. */
static const char *date_fmt(void)
{
	/* xgettext:no-c-format */
	return _("%d.%m.%Y");
}

/* Section `results`: the latest finished tables, the newest first. */
static void results_view(struct page *p, const struct tally *t, struct view *v)
{
	view_list(v, "results");
	for (int i = 0; i < t->n; i++) {
		const struct st_finished *f = &t->latest[i];
		int win = 0, place = page_profile_place(f, &win);
		view_begin(v, "results");
		view_num(v, "table_id", f->table_id);
		view_str(v, "url", page_table_url(p, f->table_id, ""));
		view_str(v, "replay_url", page_table_url(p, f->table_id, "/replay?party=1"));
		view_str(v, "game_title", game_title(f->game));
		view_num(v, "at", f->at);
		view_str(v, "date", page_local_time(p, f->at, date_fmt()));
		view_num(v, "place", place);
		view_num(v, "of", f->nseats);
		view_flag(v, "won", win);
		view_end(v);
	}
	view_flag(v, t->n > 0 ? "has_results" : "no_results", 1);
}

/* Sections `ratings` (per game: the shown value, mu and sigma, matches)
 * and `rating_history` (the latest rated matches). */
struct rating_rows {
	struct page *p;
	struct view *v;
	int n;
};

static const char *one_decimal(struct page *p, double x)
{
	char buf[64];
	const char *s = arena_strdup(p->a, numfmt_decimal(i18n_lang(), x, 1, buf, sizeof buf));
	return s ? s : "";
}

static void rating_row(void *ctx, const struct st_rating *r)
{
	struct rating_rows *c = ctx;
	view_begin(c->v, "ratings");
	view_str(c->v, "game_title", game_title(r->game));
	view_str(c->v, "board_url", page_ratings_url(c->p, r->game));
	view_str(c->v, "shown", one_decimal(c->p, r->shown));
	view_str(c->v, "mu", one_decimal(c->p, r->mu));
	view_str(c->v, "sigma", one_decimal(c->p, r->sigma));
	view_num(c->v, "matches", r->matches);
	view_str(c->v, "matches_text", arena_printf(c->p->a, i18n_ntext("%d Match", "%d Matches",
									r->matches), r->matches));
	view_end(c->v);
	c->n++;
}

static void history_row(void *ctx, const struct st_rating_step *h)
{
	struct rating_rows *c = ctx;
	view_begin(c->v, "rating_history");
	view_str(c->v, "game_title", game_title(h->game));
	view_str(c->v, "date", page_local_time(c->p, h->at, date_fmt()));
	view_str(c->v, "shown", one_decimal(c->p, h->shown));
	view_num(c->v, "place", h->place);
	view_num(c->v, "of", h->players);
	view_flag(c->v, "has_table", h->table_id > 0);
	view_str(c->v, "url", h->table_id > 0 ? page_table_url(c->p, h->table_id, "") : "");
	view_end(c->v);
	c->n++;
}

static int ratings_view(struct page *p, int64_t user, struct view *v)
{
	struct rating_rows c = { p, v, 0 };
	view_list(v, "ratings");
	int rc = store_ratings_of_user(p->store, user, 10, rating_row, &c);
	view_flag(v, "has_ratings", c.n > 0);
	c.n = 0;
	view_list(v, "rating_history");
	if (rc == ST_OK)
		rc = store_rating_history(p->store, user, RESULTS_MAX, history_row, &c);
	return rc;
}

/* GET /u/<name>: 200; 404 (no such user, the error page); 500. */
void page_profile(struct page *p)
{
	struct st_user u;
	int rc = store_user_by_name(p->store, p->name, &u);
	if (rc != ST_OK) {
		page_error(p, rc == ST_NOTFOUND ? HTTP_404 : HTTP_500,
			   rc == ST_NOTFOUND ? "notfound" : "internal");
		return;
	}
	struct tally *t = arena_alloc(p->a, sizeof *t);
	struct view v;
	page_view(p, &v);
	struct games g = { p, &v, 0 };
	view_list(&v, "games");
	if (!t || store_begin_read(p->store) != ST_OK) {
		page_error(p, HTTP_500, "internal");
		return;
	}
	memset(t, 0, sizeof *t);
	rc = store_profile_games(p->store, u.id, game_row, &g);
	if (rc == ST_OK)
		rc = store_profile_finished(p->store, u.id, -1, count, t);
	if (rc == ST_OK)
		rc = ratings_view(p, u.id, &v);
	store_rollback(p->store);   /* a read: nothing to keep */
	if (rc != ST_OK) {
		page_fail(p, rc == ST_NOTFOUND ? ST_ERR : rc);
		return;
	}
	view_str(&v, "name", u.name);
	view_str(&v, "profile_url", page_user_url(p, u.name));
	view_num(&v, "created_at", u.created_at);
	view_str(&v, "member_since", page_local_time(p, u.created_at, date_fmt()));
	view_flag(&v, "is_me", p->user_id == u.id);
	view_num(&v, "tables_played", g.tables);
	view_flag(&v, g.tables > 0 ? "has_games" : "no_games", 1);
	view_num(&v, "wins", t->wins);
	results_view(p, t, &v);
	if (p->req->wants_json) {
		page_json(p, HTTP_200, &v);
		return;
	}
	const char *title = arena_printf(p->a, _("Profil: %s"), u.name);
	struct page_head h = { .page = "profile", .title = title ? title : _("Profil") };
	page_html(p, HTTP_200, "profile.tpl", &v, &h);
}
