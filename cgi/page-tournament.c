/* page-tournament.c — one tournament, /tournaments/<id>: its rule, the
 * players, every round's tables with their live status, the standings;
 * the JSON twin (.json), the CSV exports (/standings.csv, /results.csv)
 * and the forms (its poll is in page-poll.c): register, withdraw (or the organiser removes
 * a player), start now. Visiting it after the start time starts it
 * (tourney_tick): rounds are seated by requests, never by a timer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "numfmt.h"
#include "page.h"
#include "pairing.h"
#include "play.h"
#include "tmpl.h"
#include "tourney.h"

/* What one page shows at most, so that a tournament of a thousand costs
 * what one of twelve does: standings rows, tables of a round. */
enum { STANDINGS_PAGE = ST_TSTANDINGS_PAGE, TABLES_PAGE = 10 };

/* What one request of the page reads, in one read transaction. */
struct tpage {
	struct page *p;
	struct view *v;
	struct st_tourney t;
	const struct game *g;
	struct tourney_points points;
	enum tourney_tiebreak tb[TOURNEY_TIEBREAKS];
	int org;                       /* the viewer organises it */
	int round;                     /* the round shown (0: none yet) */
	int from;                      /* the first standings row shown */
	int tables_from;               /* the first table of the round shown */
	const char *url;               /* /tournaments/<id> */
	const char *page_url;          /* url "?page=" */
	const char *round_url;         /* url "?round=" */
	struct st_tplayer me;          /* the viewer's registration ... */
	int registered;                /* ... when there is one */
	int html;                      /* the page itself: not its JSON twin, not an export */
	int failed;
	/* "Platz %s, %s Punkte (%s in der Partie)" translated, cut at its
	 * "%s" (place_cut): the text before each number and after the last */
	const char *cut[4];
	size_t cut_len[4];
	int ncut;                      /* 0: not cut yet */
};

/* A flag of the view. The page leaves out a flag that is off: a section
 * the dictionary does not hold is hidden as one whose flag is off
 * (tmpl.cc looks for a shown one up the dictionaries either way), and a
 * shorter dictionary is cheaper to fill and to look in. The JSON twin and
 * the exports show every flag. */
static void tflag(struct tpage *tp, const char *key, int on)
{
	if (on || !tp->html)
		view_flag(tp->v, key, on);
}

/* Appends text (n bytes) at out[*o] within cap (ends written: out must
 * hold cap bytes). */
static void put(char *out, size_t cap, size_t *o, const char *text, size_t n)
{
	if (*o + n >= cap)
		n = *o < cap ? cap - 1 - *o : 0;
	memcpy(out + *o, text, n);
	*o += n;
}

/* Appends n >= 0 in digits at out[*o] within cap (as put). */
static void put_int(char *out, size_t cap, size_t *o, int n)
{
	char digits[16], *e = digits + sizeof digits, *d = e;
	unsigned u = n < 0 ? 0u : (unsigned)n;
	do
		*--d = (char)('0' + u % 10);
	while (u /= 10);
	put(out, cap, o, d, (size_t)(e - d));
}

/* Value key: a + digits of x [+ b + digits of y] (y < 0: none), without
 * printf (view_strf): the pagers' 20-odd addresses and texts a page. */
static void view_pair(struct view *v, const char *key, const char *a, int x, const char *b, int y)
{
	char buf[256];
	size_t o = 0;
	put(buf, sizeof buf, &o, a, strlen(a));
	put_int(buf, sizeof buf, &o, x);
	if (y >= 0) {
		put(buf, sizeof buf, &o, b, strlen(b));
		put_int(buf, sizeof buf, &o, y);
	}
	buf[o] = '\0';
	view_str(v, key, buf);
}

/* fmt (a translated message whose conversions are "%s" only) with each
 * "%s" replaced by the next of args, appended at out[*o]: no printf (a
 * line a player, 40 on the page). */
static void fill(char *out, size_t cap, size_t *o, const char *fmt, const char *const *args,
		 int nargs)
{
	int k = 0;
	for (const char *pc = strchr(fmt, '%'); pc; pc = strchr(pc, '%')) {
		if (pc[1] == 's' && k < nargs) {
			put(out, cap, o, fmt, (size_t)(pc - fmt));
			put(out, cap, o, args[k], strlen(args[k]));
			k++;
			fmt = pc + 2;
		}
		pc += pc[1] ? 2 : 1;
	}
	put(out, cap, o, fmt, strlen(fmt));
	out[*o] = '\0';
}

/* "12.5" (for the CSV: `comma` is the separator) for a doubled whole number (the
 * Sonneborn-Berger-like sum; never below 0). */
static const char *halves(struct page *p, int x2, char comma)
{
	const char tail[3] = { comma, '5', '\0' };   /* as "%d%c5" and "%d" wrote it */
	const char *s = page_id_url(p, "", x2 / 2, x2 % 2 ? tail : "");
	return s ? s : "";
}

static void rule_view(struct tpage *tp)
{
	struct page *p = tp->p;
	struct view *v = tp->v;
	const struct st_tourney *t = &tp->t;
	struct st_table speed;
	memset(&speed, 0, sizeof speed);
	speed.clock = t->clock;
	speed.timeouts_max = t->timeouts_max;
	page_tourney_row(p, v, t);
	view_str(v, "slug", t->game);
	view_str(v, "format_key", page_tourney_format_key(t->format));
	view_num(v, "seats", t->seats);
	view_num(v, "min_seats", t->min_seats);
	view_str(v, "rounds_text", arena_printf(p->a, t->rounds == 1 ? _("%d\xc2\xa0Runde") :
						_("%d\xc2\xa0Runden"), t->rounds));
	view_flag(v, "smaller_tables", t->min_seats < t->seats);
	view_num(v, "advance", t->advance);
	view_flag(v, "elimination", t->format == TOURNEY_ELIMINATION);
	view_str(v, "points", t->points);
	view_num(v, "bye_points", tourney_bye_points(&tp->points));
	view_flag(v, "tb_party", tp->tb[0] == TB_PARTY);
	view_flag(v, "tb_sb", tp->tb[0] == TB_SB);
	view_flag(v, "tb_then_party", tp->tb[0] == TB_SB && tp->tb[1] == TB_PARTY);
	view_flag(v, "tb_then_sb", tp->tb[0] == TB_PARTY && tp->tb[1] == TB_SB);
	view_str(v, "speed", page_speed_text(p->a, &speed));
	page_options_view(p, v, tp->g, t->options);
	view_str(v, "organiser", t->organiser);
	if (t->organiser[0]) {
		view_begin(v, "organiser_link");
		view_str(v, "url", page_user_url(p, t->organiser));
		view_end(v);
	}
	view_str(v, "register_until",
		 /* xgettext:no-c-format */
		 page_local_time(p, t->register_until, _("%d.%m.%Y %H:%M")));
	view_num(v, "entrants", t->entrants);
	view_flag(v, "has_standings", t->status == TOURNEY_RUNNING || t->status == TOURNEY_FINISHED);
	view_flag(v, t->status == TOURNEY_REGISTERING ? "is_registering" :
		  t->status == TOURNEY_RUNNING ? "is_running" : "is_over", 1);
}

/* Section "state" of a player who left or went out. */
static void state_view(struct tpage *tp, int left_how, int left_round, int out_round)
{
	const char *fmt = left_how == 1 ? _("abgemeldet in Runde %d")
			  : left_how ? _("entfernt in Runde %d")
			  : out_round ? _("ausgeschieden in Runde %d") : NULL;
	if (!fmt)
		return;
	view_begin(tp->v, "state");
	view_str(tp->v, "text", arena_printf(tp->p->a, fmt, left_how ? left_round : out_round));
	view_end(tp->v);
}

/* Before the start: who registered (section "players"). */
static void registrants_view(struct tpage *tp)
{
	struct st_tplayer *all = malloc(TOURNEY_PLAYERS_MAX * sizeof *all);
	int n = 0;
	view_list(tp->v, "players");
	if (!all || store_tplayers(tp->p->store, tp->t.id, all, TOURNEY_PLAYERS_MAX, &n) != ST_OK) {
		free(all);
		tp->failed = 1;
		return;
	}
	for (int i = 0; i < n && i < TOURNEY_PLAYERS_MAX; i++) {
		view_begin(tp->v, "players");
		view_str(tp->v, "name", all[i].name);
		view_str(tp->v, "profile_url", page_user_url(tp->p, all[i].name));
		view_flag(tp->v, "me", all[i].user_id == tp->p->user_id);
		view_flag(tp->v, "can_remove", tp->org && all[i].user_id != tp->p->user_id);
		view_end(tp->v);
	}
	free(all);
}

static void standing_row(void *ctx, const struct st_tstanding *x)
{
	struct tpage *tp = ctx;
	struct page *p = tp->p;
	struct view *v = tp->v;
	view_num(v, "place", x->place);
	view_str(v, "name", x->name);
	view_str(v, "profile_url", page_user_url(p, x->name));
	tflag(tp, "me", x->user_id == p->user_id);
	tflag(tp, "gone", x->left_how != 0 || x->out_round != 0);
	state_view(tp, x->left_how, x->left_round, x->out_round);
	view_num(v, "points", x->points);
	view_num(v, "party_points", x->party_points);
	char sb[64];   /* the page's language (numfmt.c): "12,5" in German, "12.5" in English */
	view_str(v, "sb", numfmt_halves(i18n_lang(), x->sb2, sb, sizeof sb));
	if (!tp->html)   /* the exports' and the JSON's; the page shows "sb" */
		view_str(v, "sb_dot", halves(p, x->sb2, '.'));
	view_num(v, "played", x->played);
	view_num(v, "byes", x->byes);
	tflag(tp, "can_remove", tp->org && tp->t.status == TOURNEY_RUNNING && !x->left_how &&
	      !x->out_round && x->user_id != p->user_id);
}

static void standings_row(void *ctx, const struct st_tstanding *x)
{
	struct tpage *tp = ctx;
	view_begin(tp->v, "standings");
	standing_row(tp, x);
	view_end(tp->v);
}

/* The pages (0-based, of npages) a pager links while page cur is shown:
 * the first, the last and two on each side of cur, in order, into out;
 * their count. A tournament of a thousand has 50 pages of standings. */
enum { PAGER_MAX = 7 };
static int pager_pages(int npages, int cur, int *out)
{
	int n = 0;
	for (int k = 0; k < npages && n < PAGER_MAX; k++)
		if (k == 0 || k == npages - 1 || (k >= cur - 2 && k <= cur + 2))
			out[n++] = k;
	return n;
}

/* In a pager's item: "current" or "other", and "gap" when pages were left
 * out before it. */
static void pager_item(struct view *v, const int *shown, int i, int cur)
{
	view_flag(v, shown[i] == cur ? "current" : "other", 1);
	view_flag(v, "gap", i > 0 && shown[i] > shown[i - 1] + 1);
}

/* A page of the standings from row tp->from, the pages' links, and the
 * viewer's own row when it is on another page. */
static void standings_view(struct tpage *tp, int limit)
{
	struct page *p = tp->p;
	view_list(tp->v, "standings");
	if (store_tstandings(p->store, tp->t.id, tp->from, limit, standings_row, tp) != ST_OK) {
		tp->failed = 1;
		return;
	}
	int pages = (tp->t.entrants + STANDINGS_PAGE - 1) / STANDINGS_PAGE;
	int cur = tp->from / STANDINGS_PAGE, shown[PAGER_MAX];
	int n = pages > 1 && limit == STANDINGS_PAGE ? pager_pages(pages, cur, shown) : 0;
	view_flag(tp->v, "standings_pager", n > 0);
	for (int i = 0; i < n; i++) {
		view_begin(tp->v, "standings_pages");
		view_num(tp->v, "n", shown[i] + 1);
		view_pair(tp->v, "url", tp->page_url, shown[i] + 1, NULL, -1);
		pager_item(tp->v, shown, i, cur);
		view_end(tp->v);
	}
	struct st_tstanding mine;
	if (p->user_id && limit == STANDINGS_PAGE &&
	    store_tstanding_of(p->store, tp->t.id, p->user_id, &mine) == ST_OK &&
	    (mine.rank_order < tp->from || mine.rank_order >= tp->from + STANDINGS_PAGE)) {
		view_begin(tp->v, "my_standing");
		standing_row(tp, &mine);
		view_end(tp->v);
	}
}

/* The shown page of a round: its tables, who sits there (or how they
 * did), its byes (fewer than a table's seats). */
enum { ROUND_ROWS = (TABLES_PAGE + 1) * TOURNEY_SEATS_MAX };
struct round_rows {
	struct st_ttable tables[TABLES_PAGE];
	int ntables;
	struct st_tresult results[ROUND_ROWS];
	int nresults;
	struct st_tseat seats[ROUND_ROWS];
	int nseats;
};

static void add_round_table(void *ctx, const struct st_ttable *x)
{
	struct round_rows *r = ctx;
	if (r->ntables < TABLES_PAGE)
		r->tables[r->ntables++] = *x;
}

static void add_round_result(void *ctx, const struct st_tresult *x)
{
	struct round_rows *r = ctx;
	if (r->nresults < ROUND_ROWS)
		r->results[r->nresults++] = *x;
}

static void add_round_seat(void *ctx, const struct st_tseat *x)
{
	struct round_rows *r = ctx;
	if (r->nseats < ROUND_ROWS)
		r->seats[r->nseats++] = *x;
}

/* Appends n as {{n:x-minus}} writes it (tmpl.cc: digits, U+2212 for a
 * minus sign, no grouping) at out[*o]; out has room for 27 bytes more. */
static void put_minus(char *out, size_t *o, long long n)
{
	char digits[24], *e = digits + sizeof digits, *d = e;
	unsigned long long u = n < 0 ? 0ULL - (unsigned long long)n : (unsigned long long)n;
	do
		*--d = (char)('0' + u % 10);
	while (u /= 10);
	if (n < 0) {
		memcpy(out + *o, "\xe2\x88\x92", 3);
		*o += 3;
	}
	memcpy(out + *o, d, (size_t)(e - d));
	*o += (size_t)(e - d);
}

/* The result's message cut at its first three "%s" into tp->cut, once a
 * request (fill() puts the numbers in where it has "%s", and keeps any
 * other '%' and the character after it, as here). */
static void place_cut(struct tpage *tp)
{
	const char *fmt = _("Platz %s, %s Punkte (%s in der Partie)");
	int k = 0;
	for (const char *pc = strchr(fmt, '%'); pc && k < 3; pc = strchr(pc, '%')) {
		if (pc[1] == 's') {
			tp->cut[k] = fmt;
			tp->cut_len[k++] = (size_t)(pc - fmt);
			fmt = pc + 2;
		}
		pc += pc[1] ? 2 : 1;
	}
	tp->cut[k] = fmt;
	tp->cut_len[k] = strlen(fmt);
	tp->ncut = k + 1;
}

/* What the page writes of a player at a table (HTML only; the JSON has
 * the numbers): "name: Platz 1, 6 Punkte (150 in der Partie)" when done,
 * else "name" or "name (Bot)". One value instead of five a player, the
 * numbers as {{n:x-minus}} writes them; the message cut once a request
 * (place_cut) and the digits written in place: 40 lines a page. */
static void player_line(struct tpage *tp, const char *name, const struct st_tresult *y, int bot)
{
	char line[ST_NAME_MAX + 256];
	size_t o = 0;
	put(line, sizeof line, &o, name, strlen(name));
	if (y) {
		if (!tp->ncut)
			place_cut(tp);
		long long nums[3] = { y->place, y->points, y->party_points };
		put(line, sizeof line, &o, ": ", 2);
		for (int k = 0; k < tp->ncut; k++) {
			put(line, sizeof line, &o, tp->cut[k], tp->cut_len[k]);
			if (k < tp->ncut - 1 && o + 27 < sizeof line)
				put_minus(line, &o, nums[k]);
		}
		line[o < sizeof line ? o : sizeof line - 1] = '\0';
	} else if (bot) {
		const char *bot_text = _("(Bot)");
		put(line, sizeof line, &o, " ", 1);
		fill(line, sizeof line, &o, bot_text, NULL, 0);
	} else {
		line[o] = '\0';
	}
	view_str(tp->v, "line", line);
}

/* Section "players" of table x: its results when done, else who sits. */
static void round_table_players(struct tpage *tp, const struct round_rows *r,
				const struct st_ttable *x)
{
	struct view *v = tp->v;
	view_list(v, "players");
	for (int i = 0; x->done && i < r->nresults; i++) {
		const struct st_tresult *y = &r->results[i];
		if (y->table_no != x->number)
			continue;
		view_begin(v, "players");
		if (tp->html) {
			tflag(tp, "me", y->user_id == tp->p->user_id);
			player_line(tp, y->name, y, 0);
		} else {
			view_str(v, "name", y->name);
			view_flag(v, "me", y->user_id == tp->p->user_id);
			view_flag(v, "done", 1);
			view_num(v, "place", y->place);
			view_num(v, "points", y->points);
			view_num(v, "party_points", y->party_points);
		}
		view_end(v);
	}
	for (int i = 0; !x->done && i < r->nseats; i++) {
		const struct st_tseat *y = &r->seats[i];
		if (y->number != x->number)
			continue;
		view_begin(v, "players");
		if (tp->html) {
			tflag(tp, "me", y->user_id && y->user_id == tp->p->user_id);
			player_line(tp, y->name, NULL, y->bot);
		} else {
			view_str(v, "name", y->name);
			view_flag(v, "me", y->user_id && y->user_id == tp->p->user_id);
			view_flag(v, "bot", y->bot);
		}
		view_end(v);
	}
}
/* The shown page of round tp->round into r, its count of tables into
 * *ntables: the round's byes (table -1), the tables with the results of
 * those done (one read: store_tround_page), then who sits at those not
 * done, when there are any. The store's code. */
static int round_read(struct tpage *tp, struct round_rows *r, int *ntables)
{
	struct store *st = tp->p->store;
	int64_t id = tp->t.id;
	struct st_tround which = { tp->round, tp->tables_from, tp->tables_from + TABLES_PAGE - 1 };
	struct st_tround byes = { tp->round, -1, -1 };
	int rc, running = 0;
	if ((rc = store_tround_count(st, id, tp->round, ntables)) != ST_OK ||
	    (rc = store_tround_results(st, id, &byes, add_round_result, r)) != ST_OK ||
	    (rc = store_tround_page(st, id, &which, add_round_table, add_round_result, r)) != ST_OK)
		return rc;
	for (int i = 0; i < r->ntables; i++)
		running += r->tables[i].done == 0;
	return running ? store_tround_seats(st, id, &which, add_round_seat, r) : ST_OK;
}

/* Section "table_pages": the shown round's tables by TABLES_PAGE. */
static void table_pages_view(struct tpage *tp, int ntables)
{
	int pages = (ntables + TABLES_PAGE - 1) / TABLES_PAGE, cur = tp->tables_from / TABLES_PAGE;
	int shown[PAGER_MAX], n = pages > 1 ? pager_pages(pages, cur, shown) : 0;
	view_list(tp->v, "table_pages");
	view_flag(tp->v, "table_pager", n > 0);
	for (int i = 0; i < n; i++) {
		int k = shown[i];
		int last = (k + 1) * TABLES_PAGE < ntables ? (k + 1) * TABLES_PAGE : ntables;
		view_begin(tp->v, "table_pages");
		view_pair(tp->v, "text", "", k * TABLES_PAGE + 1, "–", last);
		view_pair(tp->v, "url", tp->round_url, tp->round, "&tables=", k + 1);
		pager_item(tp->v, shown, i, cur);
		view_end(tp->v);
	}
}

/* Section "rounds" (the shown round) and "round_links" (all of them). */
static void round_view(struct tpage *tp)
{
	struct page *p = tp->p;
	struct view *v = tp->v;
	struct round_rows *r = arena_alloc_raw(p->a, sizeof *r);
	view_list(v, "rounds");
	view_list(v, "round_links");
	if (!r) {
		tp->failed = 1;
		return;
	}
	r->ntables = r->nresults = r->nseats = 0;
	view_flag(v, "round_pager", tp->t.round > 1);
	for (int k = 1; tp->t.round > 1 && k <= tp->t.round; k++) {
		view_begin(v, "round_links");
		view_num(v, "n", k);
		view_pair(v, "url", tp->round_url, k, NULL, -1);
		view_flag(v, k == tp->round ? "current" : "other", 1);
		view_end(v);
	}
	int ntables = 0;
	if (tp->round > 0 && round_read(tp, r, &ntables) != ST_OK) {
		tp->failed = 1;
		return;
	}
	table_pages_view(tp, ntables);
	if (tp->round > 0) {
		view_begin(v, "rounds");
		view_num(v, "round", tp->round);
		for (int i = 0; i < r->ntables; i++) {
			const struct st_ttable *x = &r->tables[i];
			view_begin(v, "tables");
			view_num(v, "number", x->number + 1);
			view_str(v, "url", page_table_url(p, x->table_id, ""));
			tflag(tp, "done", x->done);
			if (x->done || !tp->html)   /* the page reads it when done */
				view_str(v, "replay_url", x->done ? page_table_url(p, x->table_id,
									      "/replay?party=1") : "");
			if (x->done)
				view_str(v, "status", _("beendet"));
			else
				view_strf(v, "status", _("läuft: Partie %d von %d"), x->party_no + 1,
					  x->nparties);
			round_table_players(tp, r, x);
			view_end(v);
		}
		view_list(v, "byes");
		for (int i = 0; i < r->nresults; i++)
			if (r->results[i].table_no < 0) {
				view_begin(v, "byes");
				view_str(v, "name", r->results[i].name);
				view_num(v, "points", r->results[i].points);
				view_end(v);
			}
		view_end(v);
	}
}

/* What the viewer may do; their running table. */
static void actions_view(struct tpage *tp)
{
	struct page *p = tp->p;
	struct view *v = tp->v;
	const struct st_tourney *t = &tp->t;
	int in = tp->registered && tp->me.left_how == 0;
	int reg = t->status == TOURNEY_REGISTERING, open = reg && p->now_ms < t->register_until;
	int64_t mine = 0;
	view_flag(v, "login_to_register", !p->user_id && open);
	view_flag(v, "can_register", p->user_id && !tp->registered && open);
	view_flag(v, "registered", in);
	view_flag(v, "can_withdraw", in && (reg || t->status == TOURNEY_RUNNING) &&
		  !tp->me.out_round);
	view_flag(v, "can_start", tp->org && reg);
	view_flag(v, "organiser", tp->org);
	if (in && t->status == TOURNEY_RUNNING &&
	    store_tmy_table(p->store, t->id, t->round, p->user_id, &mine) == ST_OK && mine) {
		view_begin(v, "my_table");
		view_str(v, "url", page_table_url(p, mine, ""));
		view_end(v);
	}
}

/* Reads the rule and the viewer's registration into tp; the store codes. */
static int read_rule(struct tpage *tp)
{
	struct page *p = tp->p;
	int rc = store_tourney_viewed(p->store, p->id, p->user_id, &tp->t, &tp->me,
				      &tp->registered);
	if (rc != ST_OK)
		return rc;
	tp->g = game_find(tp->t.game);
	if (!tp->g || tourney_points_parse(&tp->points, tp->t.seats, tp->t.points, NULL) != 0 ||
	    tourney_tiebreaks_parse(tp->t.tiebreaks, tp->tb) != 0)
		return ST_ERR;
	tp->org = p->user_id && p->user_id == tp->t.created_by;
	return ST_OK;
}

/* The round (?round=) and the standings' page (?page=) asked for; -1
 * with the error page answered. */
static int wanted(struct page *p, int *round, int *page, int *tables)
{
	static const struct http_rule rules[] = {
		{ "round", HTTP_V_INT, 0, 1, TOURNEY_ROUNDS_MAX },
		{ "page", HTTP_V_INT, 0, 1, TOURNEY_PLAYERS_MAX },
		{ "tables", HTTP_V_INT, 0, 1, TOURNEY_PLAYERS_MAX },
	};
	struct http_value f[3];
	enum http_err err = http_validate(&p->req->query, rules, 3, f);
	if (err) {
		page_error(p, http_err_status(err), http_err_key(err));
		return -1;
	}
	*round = f[0].present ? (int)f[0].n : 0;
	*page = f[1].present ? (int)f[1].n : 1;
	*tables = f[2].present ? (int)f[2].n : 1;
	return 0;
}

/* The whole view, read in one read transaction after the start was
 * looked after (tourney_tick); 0, or -1 with the error page answered. */
static int build(struct tpage *tp, int csv)
{
	struct page *p = tp->p;
	int round = 0, page = 1, tables = 1, rc = tourney_tick(p->store, p->id, p->now_ms);
	if (rc != PLAY_OK && rc != PLAY_BUSY && rc != PLAY_NOT_FOUND) {
		page_error(p, HTTP_500, "internal");
		return -1;
	}
	if (!csv && wanted(p, &round, &page, &tables) != 0)
		return -1;
	if ((rc = store_begin_read(p->store)) == ST_OK) {
		if ((rc = read_rule(tp)) == ST_OK) {
			tp->round = round >= 1 && round <= tp->t.round ? round : tp->t.round;
			tp->url = page_tourney_url(p, tp->t.id, "");
			tp->page_url = page_tourney_url(p, tp->t.id, "?page=");
			tp->round_url = page_tourney_url(p, tp->t.id, "?round=");
			tp->from = (page - 1) * STANDINGS_PAGE;
			tp->tables_from = (tables - 1) * TABLES_PAGE;
			rule_view(tp);
			if (tp->t.status == TOURNEY_REGISTERING || tp->t.status == TOURNEY_CANCELLED)
				registrants_view(tp);
			standings_view(tp, csv ? TOURNEY_PLAYERS_MAX : STANDINGS_PAGE);
			if (!csv) {
				round_view(tp);
				actions_view(tp);
			}
		}
		store_commit(p->store);
	}
	if (rc == ST_OK && !tp->failed)
		return 0;
	page_fail(p, rc == ST_OK ? ST_ERR : rc);
	return -1;
}

/* The view of the page (csv: of an export) read into v, tp its reads;
 * -1 with the error page answered. */
static int read_page(struct page *p, struct view *v, struct tpage *tp, int csv)
{
	memset(tp, 0, sizeof *tp);
	tp->p = p;
	tp->v = v;
	tp->html = !csv && !p->req->wants_json;
	if (!csv && p->req->wants_json)
		page_view_json(p, v);   /* no tree: the JSON written as it is made */
	else
		page_view(p, v);
	return build(tp, csv);
}

/* The page with an optional note (a refused form) and status. */
static void show(struct page *p, enum http_status status, const char *note)
{
	struct view v;
	struct tpage tp;
	if (read_page(p, &v, &tp, 0) != 0)
		return;
	view_str(&v, "json_url", page_tourney_url(p, tp.t.id, ".json"));
	view_str(&v, "standings_csv", page_tourney_url(p, tp.t.id, "/standings.csv"));
	view_str(&v, "results_csv", page_tourney_url(p, tp.t.id, "/results.csv"));
	view_str(&v, "action_url", page_tourney_url(p, tp.t.id, ""));
	view_num(&v, "version", tp.t.version);
	page_note_view(&v, note);
	if (p->req->wants_json) {
		page_json(p, status, &v);
		return;
	}
	struct page_head h = { .page = "tournament", .title = tp.t.name,
			       .poll_url = page_tourney_url(p, tp.t.id, "/poll"),
			       .table_url = page_tourney_url(p, tp.t.id, ""),
			       .version = tp.t.version, .refresh = 1 };
	page_html(p, status, "tournament.tpl", &v, &h);
}

/* GET /tournaments/<id>[?round=N][&page=K]: 200, 400, 404, 503, 500. */
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

static void add_csv_result(void *ctx, const struct st_tresult *x)
{
	struct view *v = ctx;
	view_begin(v, "results");
	view_num(v, "round", x->round);
	if (x->table_no >= 0) {
		view_num(v, "table", x->table_no + 1);
		view_num(v, "table_id", x->table_id);
		view_num(v, "seat", x->seat + 1);
		view_num(v, "place", x->place);
	}
	view_str(v, "name", x->name);
	view_num(v, "points", x->points);
	view_num(v, "party_points", x->party_points);
	view_end(v);
}

/* GET /tournaments/<id>/standings.csv and /results.csv: every row. */
static void csv(struct page *p, const char *tpl, int results)
{
	struct view v;
	struct tpage tp;
	if (read_page(p, &v, &tp, 1) != 0)
		return;
	view_list(&v, "results");
	if (results && store_tresults(p->store, tp.t.id, add_csv_result, &v) != ST_OK) {
		page_error(p, HTTP_500, "internal");
		return;
	}
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
	csv(p, "standings.csv.tpl", 0);
}

void page_tournament_results_csv(struct page *p)
{
	csv(p, "results.csv.tpl", 1);
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
		page_fail(p, rc);
		return;
	}
	show(p, HTTP_409, e->msg[0] ? i18n_rerr(e) : _(play_message((enum play_rc)rc)));
}

/* POST /tournaments/<id>/register (csrf). */
void page_tournament_register(struct page *p)
{
	struct rerr e = { .msg = "" };
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
	struct rerr e = { .msg = "" };
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
	struct rerr e = { .msg = "" };
	if (page_csrf_only(p))
		answer(p, tourney_start(p->store, p->id, p->user_id, p->now_ms, &e), &e);
}
