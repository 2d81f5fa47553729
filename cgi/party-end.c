/* party-end.c — the party summary of the table page; see party-end.h.
 * No game logic: the scores come from the game's status, the sentence
 * from the game's own final view (its "headline"). */
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "match.h"
#include "party-end.h"

enum { HEADLINE_MAX = 512 };

/* Keeps the top-level "headline" string a game's view emits. */
struct headline {
	char text[HEADLINE_MAX];
	int depth;
};

static void hl_str(void *ctx, const char *key, const char *val)
{
	struct headline *h = ctx;
	if (h->depth == 0 && strcmp(key, "headline") == 0)
		snprintf(h->text, sizeof h->text, "%s", val ? val : "");
}

/* A headline a game emits as a text: in the reader's language. */
static void hl_text(void *ctx, const char *key, const char *fmt, const char *args, int nargs,
		    const char *de)
{
	struct headline *h = ctx;
	if (h->depth == 0 && strcmp(key, "headline") == 0)
		i18n_format(i18n_lang(), fmt, args, nargs, de, h->text, sizeof h->text);
}

static void hl_num(void *ctx, const char *key, long long val)
{
	(void)ctx;
	(void)key;
	(void)val;
}

static void hl_flag(void *ctx, const char *key, int on)
{
	(void)ctx;
	(void)key;
	(void)on;
}

static void hl_begin(void *ctx, const char *section)
{
	(void)section;
	((struct headline *)ctx)->depth++;
}

static void hl_end(void *ctx)
{
	((struct headline *)ctx)->depth--;
}

/* Points as people write them: "12", "−3" (a real minus sign), "0". */
static const char *points_text(struct page *p, int n)
{
	return n < 0 ? arena_printf(p->a, "\u2212%d", -n) : arena_printf(p->a, "%d", n);
}

/* "Anna", "Anna und Bert", "Anna, Bert und Carla": the seats in mask. */
static const char *names_text(struct page *p, uint32_t mask, int n, const char *const *names)
{
	char buf[512];
	size_t len = 0;
	int last = -1;
	for (int s = 0; s < n; s++)
		if (mask >> s & 1u)
			last = s;
	buf[0] = '\0';
	/* All but the last joined with commas; the last with the language's
	 * "A und B" (a whole format rather than a glued " und "). */
	for (int s = 0; s < last && len < sizeof buf; s++) {
		if (!(mask >> s & 1u))
			continue;
		int w = snprintf(buf + len, sizeof buf - len, "%s%s", len ? ", " : "",
				 names[s] ? names[s] : "?");
		if (w < 0)
			break;
		len += (size_t)w;
	}
	if (last < 0)
		return arena_strdup(p->a, "");
	const char *name = names[last] ? names[last] : "?";
	return len ? arena_printf(p->a, _("%s und %s"), buf, name) : arena_strdup(p->a, name);
}

/* Section `key`: one item per seat in order of `place`, with the seat's
 * name, party points (from score, NULL: none), match total and, while
 * pausing, whether it continued. */
static void seat_rows(struct page *p, const struct play_table *pt, struct view *v,
		      const char *key, const int *place, const int *score, uint32_t best,
		      const char *const *names)
{
	int n = pt->t.nseats;
	for (int pl = 1; pl <= n; pl++)
		for (int s = 0; s < n; s++) {
			if (place[s] != pl)
				continue;
			view_begin(v, key);
			view_num(v, "place", pl);
			view_num(v, "seat", s);
			view_str(v, "name", names[s] ? names[s] : "");
			view_flag(v, "me", s == pt->my_seat);
			view_flag(v, "winner", best >> s & 1u);
			if (score) {
				view_num(v, "score", score[s]);
				view_str(v, "score_text", points_text(p, score[s]));
			}
			view_num(v, "total", pt->totals.total[s]);
			view_str(v, "total_text", points_text(p, pt->totals.total[s]));
			/* ctemplate shows a section only from the item's own flags */
			view_flag(v, "several", pt->t.nparties > 1);
			view_flag(v, "pausing", pt->pausing);
			view_flag(v, "ready", pt->pausing && (pt->ready >> s & 1u));
			view_flag(v, "waiting", pt->pausing && !(pt->ready >> s & 1u));
			view_end(v);
		}
}

/* The match result at the end of a match of several parties. */
static void match_result(struct page *p, const struct play_table *pt, struct view *v,
			 const char *const *names)
{
	int n = pt->t.nseats, place[GAME_MAX_SEATS];
	uint32_t leaders = match_leaders(&pt->totals, n);
	int nleaders = 0;
	for (int s = 0; s < n; s++)
		nleaders += leaders >> s & 1u;
	match_places(&pt->totals, n, place);
	view_str(v, "winners", names_text(p, leaders, n, names));
	view_flag(v, "shared_win", nleaders > 1);
	view_flag(v, "sole_win", nleaders == 1);
	view_list(v, "standings");
	seat_rows(p, pt, v, "standings", place, NULL, leaders, names);
}

/* See party-end.h. */
int party_end_view(struct page *p, const struct play_table *pt, struct view *v,
		   const char *const *names)
{
	const struct st_table *t = &pt->t;
	int n = t->nseats, me = pt->my_seat;
	if (!pt->has_party || !pt->status.over)
		return 0;
	int can_continue = pt->pausing && me >= 0 && !(pt->ready >> me & 1u);
	if (can_continue) {
		view_flag(v, "can_act", 1);
		view_begin(v, "moves");
		view_str(v, "move", PLAY_CONTINUE);
		view_end(v);
	}

	struct headline h = { "", 0 };
	struct view_sink sink = { hl_str, hl_num, hl_flag, hl_begin, hl_end, &h, hl_text, 0, NULL };
	pt->g->view(pt->state, me, &sink);

	struct party_result r;
	party_result(&pt->status, n, &r);
	uint32_t best = 0;
	for (int s = 0; s < n; s++)
		best |= (r.place[s] == 1 ? 1u : 0u) << s;

	view_include(v, "party_end", "party-end.tpl");
	view_num(v, "table_id", t->id);
	view_num(v, "v", pt->seen);
	view_str(v, "csrf", me >= 0 ? p->csrf : "");
	view_str(v, "move_url", page_table_url(p, t->id, "/move"));
	view_str(v, "continue_move", PLAY_CONTINUE);
	if (can_continue) {   /* the button, drawn by the one move form */
		view_begin(v, "continue_button");
		view_str(v, "move", PLAY_CONTINUE);
		view_strf(v, "label", _("Weiter zu Partie %d"), pt->party.number + 2);
		view_flag(v, "primary", 1);
		view_end(v);
	}
	view_num(v, "number", pt->party.number + 1);
	view_num(v, "next_number", pt->party.number + 2);
	view_num(v, "nparties", t->nparties);
	view_flag(v, "single", t->nparties == 1);
	view_flag(v, "several", t->nparties > 1);
	view_flag(v, "pausing", pt->pausing);
	view_flag(v, "match_over", t->status == TABLE_FINISHED && t->nparties > 1);
	view_names(v, names, n);
	view_str(v, "headline", h.text);
	view_names(v, NULL, 0);
	view_str(v, "party_winners", names_text(p, best, n, names));
	view_list(v, "results");
	seat_rows(p, pt, v, "results", r.place, r.points, best, names);
	if (t->status == TABLE_FINISHED && t->nparties > 1)
		match_result(p, pt, v, names);
	if (pt->pausing) {
		int64_t left = t->next_deadline > p->now_ms ? t->next_deadline - p->now_ms : 0;
		int ready = 0;
		for (int s = 0; s < n; s++)
			ready += pt->ready >> s & 1u;
		view_num(v, "seconds", (left + 999) / 1000);
		view_num(v, "deadline", t->next_deadline);
		view_num(v, "ready_count", ready);
		view_num(v, "nseats", n);
		view_flag(v, "can_continue", can_continue);
		view_flag(v, "continued", me >= 0 && (pt->ready >> me & 1u));
	}
	view_end(v);
	return v->failed ? -1 : 0;
}
