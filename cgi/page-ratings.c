/* page-ratings.c — GET /ratings?game=<slug>: a game's leaderboard, the
 * players with at least RATED_MIN rated matches by their shown rating
 * (rules/rating.h: mu - 3 sigma), and links to every game's board. */
#include <string.h>

#include "i18n.h"
#include "numfmt.h"
#include "page.h"

enum { BOARD_MAX = 100, RATED_MIN = 3 };

struct board {
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

static void board_row(void *ctx, const struct st_rating *r)
{
	struct board *b = ctx;
	view_begin(b->v, "board");
	view_num(b->v, "rank", ++b->n);
	view_str(b->v, "name", r->name);
	view_str(b->v, "profile_url", page_user_url(b->p, r->name));
	view_str(b->v, "shown", one_decimal(b->p, r->shown));
	view_str(b->v, "mu", one_decimal(b->p, r->mu));
	view_str(b->v, "sigma", one_decimal(b->p, r->sigma));
	view_num(b->v, "matches", r->matches);
	view_flag(b->v, "me", b->p->user_id && r->user_id == b->p->user_id);
	view_end(b->v);
}

/* 200; 404 for a game that does not exist; 400; 500. */
void page_ratings(struct page *p)
{
	static const struct http_rule rules[] = { { "game", HTTP_V_TEXT, 0, 1, ST_SLUG_MAX } };
	struct http_value f[1];
	enum http_err err = http_validate(&p->req->query, rules, 1, f);
	if (err) {
		page_error(p, http_err_status(err), http_err_key(err));
		return;
	}
	const struct game *g = f[0].present ? game_find(f[0].s) : games[0];
	if (!g) {
		page_error(p, HTTP_404, "notfound");
		return;
	}
	struct view v;
	page_view(p, &v);
	for (int i = 0; i < ngames; i++) {
		view_begin(&v, "games");
		view_str(&v, "slug", games[i]->slug);
		view_str(&v, "title", games[i]->title);
		view_str(&v, "url", page_ratings_url(p, games[i]->slug));
		view_flag(&v, "current", games[i] == g);
		view_flag(&v, "other", games[i] != g);
		view_end(&v);
	}
	struct board b = { p, &v, 0 };
	view_str(&v, "game_title", g->title);
	view_num(&v, "rated_min", RATED_MIN);
	view_list(&v, "board");
	if (store_rating_board(p->store, g->slug, RATED_MIN, BOARD_MAX, board_row, &b) != ST_OK) {
		page_error(p, HTTP_500, "internal");
		return;
	}
	view_flag(&v, b.n > 0 ? "has_board" : "no_board", 1);
	if (p->req->wants_json) {
		page_json(p, HTTP_200, &v);
		return;
	}
	const char *title = arena_printf(p->a, _("Wertung: %s"), g->title);
	struct page_head h = { .page = "ratings", .title = title ? title : _("Wertung") };
	page_html(p, HTTP_200, "ratings.tpl", &v, &h);
}
