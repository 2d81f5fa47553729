/* page.c — the helpers every page shares; see page.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "i18n.h"
#include "json.h"
#include "live.h"
#include "options.h"
#include "page.h"
#include "play.h"
#include "tmpl.h"

static const char html_type[] = "text/html; charset=utf-8";

/* A last resort when even the error page cannot be expanded: in the
 * reader's language, both when even that text cannot be made. */
static void plain_500(struct page *p)
{
	static const char both[] = "500 Interner Fehler / Internal Server Error\n";
	const char *msg = arena_printf(p->a, "500 %s\n", _("Interner Fehler"));
	if (!msg)
		msg = both;
	p->resp = (struct http_resp){ .status = HTTP_500, .content_type = "text/plain; charset=utf-8",
				      .body = msg, .len = strlen(msg) };
}

static void page_view_fill(struct page *p, struct view *v);

void page_view(struct page *p, struct view *v)
{
	view_init(v, p->a);
	page_view_fill(p, v);
}

void page_view_json(struct page *p, struct view *v)
{
	view_init(v, p->a);
	view_json(v);
	page_view_fill(p, v);
}

/* What every page's view starts with. */
static void page_view_fill(struct page *p, struct view *v)
{
	view_str(v, "lang", lang_code[i18n_lang()]);   /* the language of the texts */
	view_global_str(v, "csrf", p->csrf);   /* every form, the move form too */
	view_flag(v, p->user_id ? "logged_in" : "logged_out", 1);
	if (p->user_id)
		view_str(v, "user_name", p->user_name);
}

/* The footer's language switch: every other language, as a form that
 * sets the account's (a user) or a link that sets the cookie (a visitor),
 * each coming back to this page. */
static void switcher(struct page *p, struct view *v)
{
	const char *here = p->req ? p->req->path : "/";
	const char *esc = http_path_escape(p->a, here);
	view_str(v, "csrf", p->csrf);
	view_str(v, "back", here);
	view_flag(v, p->user_id ? "logged_in" : "logged_out", 1);
	for (int l = 0; l < LANG__MAX; l++) {
		if (l == (int)i18n_lang())
			continue;
		view_begin(v, "langs");
		view_str(v, "code", lang_code[l]);
		view_str(v, "name", lang_name[l]);
		view_str(v, "url", arena_printf(p->a, "/lang?to=%s&back=%s", lang_code[l],
						esc ? esc : "%2F"));
		view_end(v);
	}
}

/* Adds the header and footer includes (their own dictionaries). */
static void frame(struct page *p, struct view *v, const struct page_head *h)
{
	view_include(v, "header", "header.tpl");
	view_str(v, "lang", lang_code[i18n_lang()]);
	if (h && h->title)
		view_str(v, "title", h->title);
	if (h && h->page) {
		char *k = arena_printf(p->a, "p_%s", h->page);
		if (k)
			view_flag(v, k, 1);
	}
	view_str(v, "csrf", p->csrf);
	if (p->user_id) {
		view_flag(v, "logged_in", 1);
		view_str(v, "user_name", p->user_name);
	} else
		view_flag(v, "logged_out", 1);
	if (h && h->game_slug) {
		view_begin(v, "game_css");
		view_str(v, "slug", h->game_slug);
		view_end(v);
	}
	if (h && h->poll_url) {
		view_begin(v, "poll");
		view_str(v, "poll_url", h->poll_url);
		view_str(v, "table_url", h->table_url ? h->table_url : "");
		view_num(v, "version", h->version);
		view_str(v, "alert", h->alert ? h->alert : "");
		char live[128];
		if (p->conf && p->conf->live && live_url(h->poll_url, live, sizeof live) == 0) {
			view_begin(v, "live");   /* the channel poll.js subscribes to */
			view_str(v, "live_url", live);
			view_end(v);
		}
		view_end(v);
	}
	/* the alert in the title without script too (poll.js leaves it) */
	if (h && h->alert) {
		view_begin(v, "title_alert");
		view_str(v, "text", h->alert);
		view_end(v);
	}
	/* how many of my tables wait for me: the tab title counts them ("9+"
	 * from ten on) and the favicon has its badge, on every page (one
	 * indexed read of at most ten rows) */
	int acting = h && h->waiting_known ? h->waiting : 0;
	if (p->user_id && !(h && h->waiting_known) &&
	    store_user_acting(p->store, p->user_id, &acting) != ST_OK)
		acting = 0;
	if (acting > 0) {
		view_begin(v, "acting");
		if (acting < ST_ACTING_MAX)
			view_num(v, "n", acting);
		else
			view_strf(v, "n", "%d+", ST_ACTING_MAX - 1);
		view_end(v);
	}
	view_str(v, "favicon", (h && h->attention) || acting > 0 ? "favicon-turn.svg" :
								  "favicon.svg");
	if (h && h->refresh && h->table_url) {
		view_begin(v, "refresh");
		view_str(v, "url", h->table_url);
		view_end(v);
	}
	view_end(v);
	view_include(v, "footer", "footer.tpl");
	switcher(p, v);
	view_end(v);
}

void page_html(struct page *p, enum http_status status, const char *tpl, struct view *v,
	       const struct page_head *head)
{
	while (v->cur != &v->root && !v->failed)
		view_end(v);
	frame(p, v, head);
	size_t len = 0;
	char *html = v->failed ? NULL : tmpl_expand(p->a, tpl, &v->root, &len);
	if (!html) {
		if (strcmp(tpl, "error.tpl") == 0)
			plain_500(p);
		else
			page_error(p, HTTP_500, "internal");
		return;
	}
	p->resp.status = status;
	p->resp.content_type = html_type;
	p->resp.body = html;
	p->resp.len = len;
}

void page_json(struct page *p, enum http_status status, struct view *v)
{
	size_t len = 0;
	char *text = v->failed ? NULL : v->js ? json_stream_finish(v->js, &len)
					      : json_render(p->a, &v->root, &len);
	if (!text) {
		page_error(p, HTTP_500, "internal");
		return;
	}
	p->resp.status = status;
	p->resp.content_type = "application/json";
	p->resp.body = text;
	p->resp.len = len;
}

void page_redirect(struct page *p, const char *location)
{
	p->resp.status = HTTP_303;
	p->resp.location = location;
	p->resp.content_type = NULL;
}

const char *page_back(struct page *p, const char *back)
{
	if (!back || back[0] != '/' || back[1] == '/')
		return "/";
	for (const char *c = back; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || strchr("/._~-%", *c)))
			return "/";
	return arena_strdup(p->a, back) ? back : "/";
}

const char *page_id_url(struct page *p, const char *head, int64_t id, const char *tail)
{
	char num[24], *e = num + sizeof num, *d = e;
	unsigned long long u = id < 0 ? 0ULL - (unsigned long long)id : (unsigned long long)id;
	do
		*--d = (char)('0' + u % 10);
	while (u /= 10);
	if (id < 0)
		*--d = '-';
	tail = tail ? tail : "(null)";   /* what the "%s" of a format wrote */
	size_t hl = strlen(head), nl = (size_t)(e - d), tl = strlen(tail);
	char *o = arena_alloc_raw(p->a, hl + nl + tl + 1);
	if (!o)
		return NULL;
	memcpy(o, head, hl);
	memcpy(o + hl, d, nl);
	memcpy(o + hl + nl, tail, tl + 1);
	return o;
}

const char *page_table_url(struct page *p, int64_t id, const char *tail)
{
	return page_id_url(p, "/t/", id, tail);
}

const char *page_user_url(struct page *p, const char *name)
{
	return http_path_escape_after(p->a, "/u/", name ? name : "");
}

void page_redirect_table(struct page *p, int64_t id, const char *tail)
{
	const char *to = page_table_url(p, id, tail);
	page_redirect(p, to ? to : "/");
}

void page_error(struct page *p, enum http_status status, const char *why)
{
	struct view v;
	page_view(p, &v);
	int code = http_status_code(status);
	view_num(&v, "code", code);
	char key[16];
	snprintf(key, sizeof key, "e%d", code);
	view_flag(&v, key, 1);
	if (why) {
		char *k = arena_printf(p->a, "why_%s", why);
		if (k)
			view_flag(&v, k, 1);
		view_str(&v, "why", why);
	}
	if (p->req && p->req->wants_json) {
		page_json(p, status, &v);
		if (p->resp.status == status)
			return;
	}
	struct page_head h = { .page = "error" };
	page_html(p, status, "error.tpl", &v, &h);
}

/* The status and the error page's reason for every result code (rc.h):
 * the one place a code becomes an HTTP status. */
static const struct {
	enum http_status status;
	const char *why;
} rc_http[RC__MAX] = {
	[RC_OK] = { HTTP_500, "internal" },   /* (a success is no error: a bug) */
	[RC_NOTFOUND] = { HTTP_404, "notfound" },
	[RC_EXISTS] = { HTTP_500, "internal" },
	[RC_CONFLICT] = { HTTP_500, "internal" },
	[RC_BUSY] = { HTTP_503, "busy" },
	[RC_ERR] = { HTTP_500, "internal" },
	[RC_FULL] = { HTTP_503, "nospace" },
	[RC_STALE] = { HTTP_500, "internal" },
	[RC_REJECTED] = { HTTP_500, "internal" },
	[RC_NOT_SEATED] = { HTTP_403, NULL },
	[RC_NOT_PLAYING] = { HTTP_500, "internal" },
	[RC_TABLE_FULL] = { HTTP_500, "internal" },
	[RC_ALREADY] = { HTTP_500, "internal" },
	[RC_INVALID] = { HTTP_400, NULL },
	[RC_CORRUPT] = { HTTP_503, "corrupt" },
};

void page_fail_as(struct page *p, int rc, const char *notfound)
{
	if (rc < 0 || rc >= RC__MAX)
		rc = RC_ERR;
	page_error(p, rc_http[rc].status,
		   rc == RC_NOTFOUND && notfound ? notfound : rc_http[rc].why);
}

void page_fail(struct page *p, int rc)
{
	page_fail_as(p, rc, NULL);
}

void page_status(struct page *p, enum http_status status, const char *text)
{
	p->resp.status = status;
	if (text) {
		p->resp.content_type = "text/plain; charset=utf-8";
		p->resp.body = text;
		p->resp.len = strlen(text);
	}
}

int page_token_ok(const char *s)
{
	if (!s || strlen(s) != AUTH_TOKEN_LEN)
		return 0;
	for (const char *c = s; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || *c == '-' || *c == '_'))
			return 0;
	return 1;
}

void page_presession(struct page *p)
{
	if (p->user_id || p->csrf[0])
		return;
	const char *c = http_get(&p->req->cookies, PAGE_COOKIE_PRESESSION);
	if (page_token_ok(c)) {
		memcpy(p->csrf, c, AUTH_TOKEN_LEN + 1);
		return;
	}
	unsigned char raw[32];
	randombytes_buf(raw, sizeof raw);
	sodium_bin2base64(p->csrf, sizeof p->csrf, raw, sizeof raw,
			  sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	char *val = arena_strdup(p->a, p->csrf);
	if (val)
		http_set_cookie(&p->resp, PAGE_COOKIE_PRESESSION, val, 24L * 3600);
}

const char *page_quantity(struct arena *a, long long n, const char *unit)
{
	if (!unit || !*unit)
		return arena_printf(a, "%lld", n);
	size_t len = strlen(unit);
	if (n == 1 && len > 1 && unit[len - 1] == 's')
		return arena_printf(a, "1\xc2\xa0%.*s", (int)(len - 1), unit);
	return arena_printf(a, "%lld\xc2\xa0%s", n, unit);
}

const char *page_clock_text(struct arena *a, int64_t ms, int64_t day_ms)
{
	if (ms <= 0)
		return "0";
	if (day_ms <= 0)
		day_ms = CLOCK_DAY_MS;
	int64_t hour = day_ms / 24 > 0 ? day_ms / 24 : 1, min = hour / 60 > 0 ? hour / 60 : 1;
	long long d = ms / day_ms, h = ms % day_ms / hour, m = ms % hour / min;
	if (day_ms == CLOCK_DAY_MS && ms < 3600000) {   /* a live table's minutes and seconds */
		long long secs = (long long)(ms + 999) / 1000, mm = secs / 60, ss = secs % 60;
		if (!mm)
			return arena_printf(a, "%lld\xc2\xa0s", ss);
		return ss ? arena_printf(a, _("%lld\xc2\xa0Min. %lld\xc2\xa0s"), mm, ss) :
			    arena_printf(a, _("%lld\xc2\xa0Min."), mm);
	}
	if (d > 0)
		return h ? arena_printf(a, _("%lld\xc2\xa0T. %lld\xc2\xa0Std."), d, h) :
			   arena_printf(a, d == 1 ? _("%lld\xc2\xa0Tag") :
					_("%lld\xc2\xa0Tage"), d);
	if (h > 0)
		return m ? arena_printf(a, _("%lld\xc2\xa0Std. %lld\xc2\xa0Min."), h, m) :
			   arena_printf(a, _("%lld\xc2\xa0Std."), h);
	return arena_printf(a, _("%lld\xc2\xa0Min."), m > 0 ? m : 1);
}

const char *page_speed_text(struct arena *a, const struct st_table *t)
{
	const struct clock_rule *c = &t->clock;
	if (c->first_ms <= 0)
		return _("Live, ohne Zeitlimit");
	if (!c->windows)
		return arena_printf(a, _("Live: %s pro Zug"), page_clock_text(a, c->per_move_ms,
									     CLOCK_DAY_MS));
	/* One whole sentence per case, so that each language words it itself. */
	const char *first = page_clock_text(a, c->first_ms, c->day_ms),
		   *per = page_clock_text(a, c->per_move_ms, c->day_ms),
		   *cap = page_clock_text(a, c->cap_ms, c->day_ms);
	if (t->timeouts_max <= 0)
		return arena_printf(a, c->weekend ?
				    _("Über Tage: %s für den ersten Zug, +%s pro Zug (höchstens "
				      "%s), Wochenenden zählen nicht") :
				    _("Über Tage: %s für den ersten Zug, +%s pro Zug (höchstens "
				      "%s)"),
				    first, per, cap);
	return arena_printf(a, c->weekend ?
			    _("Über Tage: %s für den ersten Zug, +%s pro Zug (höchstens %s), "
			      "Wochenenden zählen nicht; nach %d-mal Zeit überschritten spielt ein "
			      "Bot") :
			    _("Über Tage: %s für den ersten Zug, +%s pro Zug (höchstens %s); nach "
			      "%d-mal Zeit überschritten spielt ein Bot"),
			    first, per, cap, t->timeouts_max);
}

void page_options_view(struct page *p, struct view *v, const struct game *g, const char *text)
{
	page_options_view_at(p, v, g, text, 0);
}

struct options_of {
	struct page *p;
	const struct game *g;
	const char *text;
	int clock_windows;
};

static void options_view(struct view *v, const void *arg)
{
	const struct options_of *a = arg;
	struct page *p = a->p;
	const struct game *g = a->g;
	int opt[GAME_OPT_MAX], clock_windows = a->clock_windows;
	struct rerr e;
	view_list(v, "opts");
	if (!g || options_parse(g, opt, a->text, &e) != 0)
		return;
	view_flag(v, "has_opts", g->noptions > 0);
	for (int i = 0; i < g->noptions && i < GAME_OPT_MAX; i++) {
		const struct game_option *o = &g->options[i];
		view_begin(v, "opts");
		view_str(v, "label", _(o->label));
		/* over days a game's deadlines wait for the seats' clocks
		 * (clock.h): its seconds do not apply there */
		int secs = o->unit && strcmp(o->unit, "s") == 0;
		const char *q = o->type == OPT_BOOL ? (opt[i] ? _("ja") : _("nein"))
				: clock_windows && secs ? _("so lange die Uhr des Platzes reicht")
				: page_quantity(p->a, opt[i], o->unit ? _(o->unit) : NULL);
		view_str(v, "text", q ? q : "");
		view_end(v);
	}
}

/* A table's options (public, and the same for every table of the same
 * options): JSON writes them from a memo of the same options' text
 * (view_memo), a page's tree gets them entry by entry. */
void page_options_view_at(struct page *p, struct view *v, const struct game *g, const char *text,
			  int clock_windows)
{
	struct options_of a = { p, g, text ? text : "", clock_windows };
	const char *key = g ? arena_printf(p->a, "%s %d %s", g->slug, clock_windows, a.text) : NULL;
	if (!key || !view_memo(v, key, options_view, &a))
		options_view(v, &a);
}

int page_csrf_only(struct page *p)
{
	static const struct http_rule rules[] = { { "csrf", HTTP_V_TEXT, 1, 1, 64 } };
	struct http_value f[1];
	enum http_err err = http_validate(&p->req->form, rules, 1, f);
	if (err)
		page_error(p, http_err_status(err), http_err_key(err));
	return !err;
}

const char *page_ratings_url(struct page *p, const char *slug)
{
	const char *u = arena_printf(p->a, "/ratings?game=%s", slug);
	return u ? u : "/ratings";
}

int64_t page_day_ms(void)
{
	const char *env = getenv("SPIELTISCH_DAY_SECONDS");
	long d = env ? strtol(env, NULL, 10) : 0;
	return d >= 1 && d <= 86400 ? (int64_t)d * 1000 : CLOCK_DAY_MS;
}

int page_table_form_rules(const struct game *g, struct http_rule *r)
{
	int n = 0;
	for (int k = 0; k < g->noptions && k < GAME_OPT_MAX; k++) {
		const struct game_option *o = &g->options[k];
		r[n++] = (struct http_rule){ o->key, o->type == OPT_BOOL ? HTTP_V_BOOL : HTTP_V_INT,
					     0, o->min, o->max };
	}
	r[n++] = (struct http_rule){ "speed", HTTP_V_TEXT, 0, 4, 4 };
	r[n++] = (struct http_rule){ "move_seconds", HTTP_V_INT, 0, 0, 3600 };
	r[n++] = (struct http_rule){ "clock_days", HTTP_V_INT, 0, 1, 14 };
	r[n++] = (struct http_rule){ "move_hours", HTTP_V_INT, 0, 1, 72 };
	r[n++] = (struct http_rule){ "weekend", HTTP_V_BOOL, 0, 0, 1 };
	r[n++] = (struct http_rule){ "timeouts", HTTP_V_INT, 0, 1, 9 };
	return n;
}

/* The speed from its six fields: live with a time per move (none without
 * move_seconds), or over days: clock_days for the first move and at most,
 * move_hours more after each move, the weekend's pause, a bot after
 * `timeouts` timeouts (3 unless given). -1 for an unknown speed. */
static int speed_of(const struct http_value *f, struct play_speed *sp)
{
	memset(sp, 0, sizeof *sp);
	int64_t day = page_day_ms();
	sp->clock.day_ms = day;
	sp->timeouts_max = f[5].present ? (int)f[5].n : 3;
	if (!f[0].present || strcmp(f[0].s, "live") == 0) {
		int64_t ms = f[1].present ? f[1].n * 1000 : 0;
		sp->clock.first_ms = sp->clock.per_move_ms = sp->clock.cap_ms = ms;
		return 0;
	}
	if (strcmp(f[0].s, "days") != 0)
		return -1;
	sp->clock.first_ms = sp->clock.cap_ms = (f[2].present ? f[2].n : 3) * day;
	sp->clock.per_move_ms = (f[3].present ? f[3].n : 24) * day / 24;
	sp->clock.weekend = (int)f[4].n;
	sp->clock.windows = 1;
	return 0;
}

int page_table_form_read(const struct game *g, const struct http_value *f, char *opts,
			 size_t cap, struct play_speed *sp)
{
	int opt[GAME_OPT_MAX], k;
	options_default(g, opt);
	for (k = 0; k < g->noptions && k < GAME_OPT_MAX; k++)
		if (f[k].present || g->options[k].type == OPT_BOOL)
			opt[k] = (int)f[k].n;
	if (speed_of(&f[k], sp) != 0)
		return -1;
	return options_format(g, opt, opts, cap);
}

void page_table_form_view(struct view *v, const struct game *g)
{
	view_include(v, "table_fields", "table-fields.tpl");
	for (int k = 0; k < g->noptions; k++) {
		const struct game_option *o = &g->options[k];
		view_begin(v, "options");
		view_str(v, "key", o->key);
		view_str(v, "label", _(o->label));
		view_flag(v, o->type == OPT_BOOL ? "is_bool" : "is_int", 1);
		view_num(v, "min", o->min);
		view_num(v, "max", o->max);
		view_num(v, "def", o->def);
		view_flag(v, "checked", o->type == OPT_BOOL && o->def);
		view_str(v, "unit", o->unit ? _(o->unit) : "");
		view_end(v);
	}
	view_end(v);
}

const char *page_local_time(struct page *p, int64_t ms, const char *fmt)
{
	char buf[64];
	struct tm tm;
	time_t t = (time_t)(ms / 1000);
	if (!localtime_r(&t, &tm) || strftime(buf, sizeof buf, fmt, &tm) == 0)
		return "";
	const char *s = arena_strdup(p->a, buf);
	return s ? s : "";
}

void page_note_view(struct view *v, const char *note)
{
	if (!note)
		return;
	view_begin(v, "note");
	view_str(v, "text", note);
	view_end(v);
}
