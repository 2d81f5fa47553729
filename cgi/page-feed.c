/* page-feed.c — every user's Atom feed (GET /feed/<token>.atom) and its
 * secret address on the account page (/me, POST /me/feed makes a new one).
 *
 * The feed says what the user's own pages say: where they may act now, how
 * each finished party and match of their tables ended, who invited them. Entries
 * are derived from the store on every request (no table of their own):
 * the user's FEED_TABLES newest tables, at most FEED_ENTRIES entries, the
 * newest first. The XML is templates/feed.atom.tpl (XML autoescape). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "page.h"
#include "play.h"
#include "tmpl.h"

enum { FEED_TABLES = 30, FEED_ENTRIES = 60, FEED_PARTIES = 64 };

/* The year of the tag URIs' date: fixed forever, so ids never change. */
#define FEED_TAG "tag:spieltisch,2026:"

struct entry {
	const char *id, *title, *summary, *url;
	int64_t at;   /* ms: the entry's <updated> */
};

struct feed {
	struct page *p;
	int64_t user;
	const char *base;            /* "https://host" or "" when the Host is unusable */
	struct entry e[FEED_ENTRIES];
	int n;
	int64_t ids[FEED_TABLES];    /* the user's tables */
	int ntables;
};

/* "http(s)://host" of this request, or "" (links stay relative). */
static const char *base_url(struct page *p)
{
	if (!p->req->host[0])
		return "";
	const char *b = arena_printf(p->a, "%s://%s", p->conf && p->conf->secure_cookies ?
				     "https" : "http", p->req->host);
	return b ? b : "";
}

/* RFC 3339 in UTC, as Atom wants it. */
static const char *rfc3339(struct arena *a, int64_t ms)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;
	char buf[32];
	if (!gmtime_r(&t, &tm) || !strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm))
		return "1970-01-01T00:00:00Z";
	return arena_strdup(a, buf);
}

/* Adds an entry; when full, the oldest one gives way to a newer. */
static void add(struct feed *f, const char *id, const char *title, const char *summary,
		int64_t table, int64_t at)
{
	if (!id || !title || !summary)
		return;
	int slot = f->n;
	if (f->n == FEED_ENTRIES) {
		slot = 0;
		for (int i = 1; i < f->n; i++)
			if (f->e[i].at < f->e[slot].at)
				slot = i;
		if (f->e[slot].at >= at)
			return;
	} else
		f->n++;
	const char *path = page_table_url(f->p, table, "");
	f->e[slot] = (struct entry){ id, title, summary,
				     path ? arena_printf(f->p->a, "%s%s", f->base, path) : NULL, at };
}

/* The name a seat has on the table page. */
static const char *seat_name(struct page *p, const struct play_table *pt, int seat)
{
	for (int i = 0; i < pt->nseated; i++)
		if (pt->seats[i].seat == seat)
			return pt->seats[i].user_id ? pt->seats[i].name :
			       arena_printf(p->a, pt->seats[i].bot == 1 ? _("Bot %d (zufällig)") :
					    _("Bot %d (gierig)"), seat + 1);
	return "?";
}

/* "1. Anna 12, 2. Bert −3" by place; place[] may be NULL (then by the
 * order of the points, as match_places). */
static const char *ranking(struct page *p, const struct play_table *pt, const int *place,
			   const int *points)
{
	int n = pt->t.nseats, order[GAME_MAX_SEATS];
	for (int i = 0; i < n; i++)
		order[i] = i;
	for (int i = 1; i < n; i++)   /* insertion sort by place, then seat */
		for (int j = i; j > 0 && place[order[j]] < place[order[j - 1]]; j--) {
			int x = order[j];
			order[j] = order[j - 1];
			order[j - 1] = x;
		}
	const char *s = "";
	for (int i = 0; i < n && s; i++) {
		int k = order[i], v = points[k];
		s = arena_printf(p->a, "%s%s%d. %s %s%d", s, i ? ", " : "", place[k],
				 seat_name(p, pt, k), v < 0 ? "\xe2\x88\x92" : "", v < 0 ? -v : v);
	}
	return s;
}

/* An entry's title: the German format `fmt` ("Tisch %lld · %s: …", a
 * catalog message, whole so that each language words it itself) with the
 * table, the game and up to two numbers. */
static const char *entry_title(struct page *p, const struct play_table *pt, const char *fmt,
			       int x, int y)
{
	return arena_printf(p->a, _(fmt), (long long)pt->t.id, pt->g ? pt->g->title : pt->t.game,
			    x, y);
}

/* "Du bist dran" / "Ein Fenster ist offen für dich" while the user may act
 * now; the id changes with every public version, so a new turn is a new
 * entry (and a pass nobody else can see makes none). During the pause
 * after a party, "Weiter zur nächsten Partie?" until they continued, one
 * entry per party. What the user is asked is play_asked()'s, as on /me. */
static void turn_entry(struct feed *f, const struct play_table *pt)
{
	struct page *p = f->p;
	int s = pt->my_seat;
	if (pt->t.status != TABLE_PLAYING || !pt->has_party || s < 0)
		return;
	enum play_ask ask = play_asked(&pt->status, pt->pausing, pt->ready, s);
	int64_t at = 0;
	if (ask == PLAY_ASK_NONE ||
	    store_party_step_at(p->store, pt->party.id,
				ask == PLAY_ASK_CONTINUE ? -1 : pt->t.public_version, &at) != ST_OK)
		return;
	if (ask == PLAY_ASK_CONTINUE) {
		add(f, arena_printf(p->a, FEED_TAG "table/%lld/continue/%d", (long long)pt->t.id,
				    pt->party.number + 1),
		    entry_title(p, pt, N_("Tisch %lld \xc2\xb7 %s: Weiter zur nächsten Partie?"), 0,
				0),
		    arena_printf(p->a, _("Partie %d von %d ist vorbei. Mit „Weiter“ geht es zur "
					 "nächsten."), pt->party.number + 1, pt->t.nparties),
		    pt->t.id, at);
		return;
	}
	int my_turn = ask == PLAY_ASK_TURN;
	const char *kind = my_turn ? "turn" : "window";
	add(f, arena_printf(p->a, FEED_TAG "table/%lld/%s/v%lld", (long long)pt->t.id, kind,
			    (long long)pt->t.public_version),
	    entry_title(p, pt, my_turn ? N_("Tisch %lld \xc2\xb7 %s: Du bist dran")
			       : N_("Tisch %lld \xc2\xb7 %s: Ein Fenster ist offen für "
				    "dich"), 0, 0),
	    arena_printf(p->a, my_turn ? _("Partie %d von %d. Du bist am Zug.")
			 : _("Partie %d von %d. Du kannst jetzt außer der Reihe handeln."),
			 pt->party.number + 1, pt->t.nparties),
	    pt->t.id, at);
}

struct parties {
	struct st_party p[FEED_PARTIES];
	int n;
};

static void collect_party(void *ctx, const struct st_party *sp)
{
	struct parties *ps = ctx;
	if (ps->n < FEED_PARTIES)
		ps->p[ps->n++] = *sp;
}

/* One "Partie vorbei" entry per finished party; the end of the last in
 * *last_at. */
static int party_entries(struct feed *f, const struct play_table *pt, int64_t *last_at)
{
	struct page *p = f->p;
	struct parties *ps = arena_alloc(p->a, sizeof *ps);
	if (!ps)
		return -1;
	ps->n = 0;
	if (store_parties_of_table(p->store, pt->t.id, collect_party, ps) != ST_OK)
		return -1;
	for (int i = 0; i < ps->n; i++) {
		const struct st_party *sp = &ps->p[i];
		int64_t at = 0;
		if (store_party_step_at(p->store, sp->id, -1, &at) != ST_OK)
			return -1;
		*last_at = at > *last_at ? at : *last_at;
		add(f, arena_printf(p->a, FEED_TAG "table/%lld/party/%d", (long long)pt->t.id,
				    sp->number + 1),
		    entry_title(p, pt, pt->t.nparties > 1 ?
				N_("Tisch %lld \xc2\xb7 %s: Partie %d von %d vorbei") :
				N_("Tisch %lld \xc2\xb7 %s: Partie vorbei"), sp->number + 1,
				pt->t.nparties),
		    arena_printf(p->a, _("Ergebnis: %s."),
				 ranking(p, pt, sp->result.place, sp->result.points)),
		    pt->t.id, at);
	}
	return 0;
}

/* A finished match's summary: [closed because nobody moved][several
 * parties]. */
static const char *const match_summaries[2][2] = {
	{ N_("Wertung: %s."), N_("Gesamtwertung: %s.") },
	{ N_("Der Tisch wurde geschlossen, weil niemand mehr zog. Wertung: %s."),
	  N_("Der Tisch wurde geschlossen, weil niemand mehr zog. Gesamtwertung: %s.") },
};

/* "Match vorbei" for a finished match of several parties, or a table
 * closed because nobody moved: the final standings. */
static int match_entry(struct feed *f, const struct play_table *pt, int64_t at)
{
	struct page *p = f->p;
	if (pt->t.status != TABLE_FINISHED || (pt->t.nparties <= 1 && !pt->t.closed_idle))
		return 0;
	if (pt->t.closed_idle && pt->has_party &&
	    store_party_step_at(p->store, pt->party.id, -1, &at) != ST_OK)
		return -1;
	int place[GAME_MAX_SEATS];
	match_places(&pt->totals, pt->t.nseats, place);
	add(f, arena_printf(p->a, FEED_TAG "table/%lld/match", (long long)pt->t.id),
	    entry_title(p, pt, N_("Tisch %lld \xc2\xb7 %s: Match vorbei"), 0, 0),
	    arena_printf(p->a, _(match_summaries[pt->t.closed_idle ? 1 : 0][pt->t.nparties > 1]),
			 ranking(p, pt, place, pt->totals.total)),
	    pt->t.id, at);
	return 0;
}

/* "Einladung von Anna" for every open invitation (010_invites.sql): what
 * the invitee's "Meine Tische" shows. */
static int invite_entries(struct feed *f)
{
	struct page *p = f->p;
	struct st_invite *inv = arena_alloc(p->a, sizeof *inv * FEED_TABLES);
	int n = 0;
	if (!inv || store_invites_to(p->store, f->user, inv, FEED_TABLES, &n) != ST_OK)
		return -1;
	for (int i = 0; i < n; i++) {
		const struct game *g = game_find(inv[i].game);
		add(f, arena_printf(p->a, FEED_TAG "table/%lld/invite", (long long)inv[i].table_id),
		    arena_printf(p->a, _("Tisch %lld \xc2\xb7 %s: Einladung von %s"),
				 (long long)inv[i].table_id, g ? g->title : inv[i].game, inv[i].from),
		    arena_printf(p->a, _("%s lädt dich an den Tisch ein; er wartet auf "
					 "Mitspieler."),
				 inv[i].from),
		    inv[i].table_id, inv[i].at);
	}
	return 0;
}

static void collect_table(void *ctx, const struct st_table *t, int seats_taken)
{
	struct feed *f = ctx;
	(void)seats_taken;
	if (f->ntables < FEED_TABLES && t->status != TABLE_OPEN)
		f->ids[f->ntables++] = t->id;
}

/* Every entry of the user's tables into f. 0, or -1 on a store error. */
static int entries(struct feed *f)
{
	struct page *p = f->p;
	if (store_tables_of_user(p->store, f->user, FEED_TABLES, collect_table, f) != ST_OK ||
	    invite_entries(f) != 0)
		return -1;
	struct play_table *pt = arena_alloc(p->a, sizeof *pt);
	if (!pt)
		return -1;
	for (int i = 0; i < f->ntables; i++) {
		int rc = play_load(p->store, f->ids[i], f->user, p->now_ms, pt);
		if (rc == PLAY_NOT_FOUND || rc == PLAY_CORRUPT)
			continue;   /* gone meanwhile, or its page is a 503 too */
		if (rc != PLAY_OK)
			return -1;
		int64_t last = 0;
		turn_entry(f, pt);
		rc = party_entries(f, pt, &last) || match_entry(f, pt, last);
		play_free(pt);
		if (rc)
			return -1;
	}
	return 0;
}

static int newest_first(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	return x->at < y->at ? 1 : x->at > y->at ? -1 : strcmp(x->id, y->id);
}

/* The feed's view: head and entries, newest first. */
static void feed_view(struct feed *f, struct view *v, const char *token, int64_t since)
{
	struct page *p = f->p;
	struct st_user u;
	qsort(f->e, (size_t)f->n, sizeof f->e[0], newest_first);
	view_init(v, p->a);
	view_str(v, "lang", lang_code[i18n_lang()]);   /* the feed's xml:lang */
	view_str(v, "feed_id", arena_printf(p->a, FEED_TAG "user/%lld/feed", (long long)f->user));
	view_str(v, "user_name", store_user_by_id(p->store, f->user, &u) == ST_OK ? u.name : "");
	view_str(v, "updated", rfc3339(p->a, f->n ? f->e[0].at : since));
	view_str(v, "self_url", arena_printf(p->a, "%s/feed/%s.atom", f->base, token));
	view_str(v, "home_url", arena_printf(p->a, "%s/me", f->base));
	view_list(v, "entries");
	for (int i = 0; i < f->n; i++) {
		view_begin(v, "entries");
		view_str(v, "id", f->e[i].id);
		view_str(v, "title", f->e[i].title);
		view_str(v, "summary", f->e[i].summary);
		view_str(v, "url", f->e[i].url);
		view_str(v, "updated", rfc3339(p->a, f->e[i].at));
		view_end(v);
	}
}

/* GET /feed/<token>.atom: the feed (200), 404 for an unknown or replaced
 * token, 503/500. No session: a feed reader has no cookie. */
void page_feed(struct page *p)
{
	char token[AUTH_TOKEN_LEN + 1];
	snprintf(token, sizeof token, "%s", p->req->path + strlen("/feed/"));
	struct feed *f = arena_alloc(p->a, sizeof *f);
	int64_t since = 0;
	if (!f) {
		page_error(p, HTTP_500, "internal");
		return;
	}
	memset(f, 0, sizeof *f);
	f->p = p;
	f->base = base_url(p);
	int rc = auth_feed_user(p->store, token, &f->user, &since);
	if (rc != AUTH_OK) {
		page_error(p, rc == AUTH_WRONG ? HTTP_404 : HTTP_500,
			   rc == AUTH_WRONG ? "notfound" : "internal");
		return;
	}
	struct view v;
	size_t len = 0;
	char *xml = NULL;
	if (entries(f) == 0) {
		feed_view(f, &v, token, since);
		xml = v.failed ? NULL : tmpl_expand(p->a, "feed.atom.tpl", &v.root, &len);
	}
	if (!xml) {
		page_error(p, HTTP_500, "internal");
		return;
	}
	p->resp.status = HTTP_200;
	p->resp.content_type = "application/atom+xml; charset=utf-8";
	p->resp.body = xml;
	p->resp.len = len;
}

int page_feed_view(struct page *p, struct view *v)
{
	char token[AUTH_TOKEN_LEN + 1];
	if (auth_feed_token(p->store, p->user_id, p->now_ms, 0, token) != AUTH_OK)
		return -1;
	view_begin(v, "feed");
	view_str(v, "url", arena_printf(p->a, "%s/feed/%s.atom", base_url(p), token));
	view_str(v, "renew_url", "/me/feed");
	view_end(v);
	return 0;
}

/* POST /me/feed: a new token replaces the old one (whose address is a 404
 * from now on); 303 back to the account page. */
void page_feed_renew(struct page *p)
{
	char token[AUTH_TOKEN_LEN + 1];
	if (!page_csrf_only(p))
		return;
	if (auth_feed_token(p->store, p->user_id, p->now_ms, 1, token) != AUTH_OK) {
		page_error(p, HTTP_500, "internal");
		return;
	}
	page_redirect(p, "/me#feed");
}
