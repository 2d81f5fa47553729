/*
 * test_i18n_web.c — English beside German through nginx (docs/i18n.md).
 *
 * The language of a request: Accept-Language, the visitor's switch (a
 * cookie), the account's choice over both; lang on every page and in the
 * JSON twin. Then every page and every registered game's board (a party
 * under way, filled with bots; a refused move's note) in both languages:
 * well-formed HTML, the right lang, and in English no German word a
 * template or a game forgot to mark (the words and letters German text
 * cannot do without).
 */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "game.h"
#include "integration/suite.h"

/* The raw answer to a GET of `path` with an Accept-Language header. */
static long get_accept_language(const char *path, const char *al, char *out, size_t cap)
{
	char req[512];
	int n = snprintf(req, sizeof req,
			 "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Language: %s\r\n"
			 "Connection: close\r\n\r\n", path, al);
	return it_raw(req, (size_t)n, out, cap);
}

static void test_accept_language(void **unused)
{
	(void)unused;
	static char out[200000];
	assert_int_equal(get_accept_language("/", "en-GB,en;q=0.9,de;q=0.5", out, sizeof out), 200);
	assert_non_null(strstr(out, "<html lang=\"en\">"));
	assert_int_equal(get_accept_language("/", "de-DE,de;q=0.9,en;q=0.8", out, sizeof out), 200);
	assert_non_null(strstr(out, "<html lang=\"de\">"));
	assert_int_equal(get_accept_language("/", "fr, en;q=0.2", out, sizeof out), 200);
	assert_non_null(strstr(out, "<html lang=\"en\">"));
	assert_int_equal(get_accept_language("/", "fr, it", out, sizeof out), 200);
	assert_non_null(strstr(out, "<html lang=\"de\">"));   /* none of ours: German */
}

/* A request the edge refuses (here a form that is not a form: 415) gets
 * its error page in the reader's language, not in the language of the
 * request that worker answered before. Each round asks German first. */
static void test_refused_request_in_its_language(void **unused)
{
	(void)unused;
	static char out[200000];
	for (int i = 0; i < 4; i++) {
		assert_int_equal(get_accept_language("/", "de", out, sizeof out), 200);
		char req[512];
		int n = snprintf(req, sizeof req,
				 "POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Language: en\r\n"
				 "Accept: text/html\r\nContent-Type: text/plain\r\n"
				 "Content-Length: 3\r\nConnection: close\r\n\r\nabc");
		assert_int_equal(it_raw(req, (size_t)n, out, sizeof out), 415);
		assert_non_null(strstr(out, "<html lang=\"en\">"));
		assert_null(strstr(out, "Falsches Format"));
	}
}

/* The visitor's switch: a cookie, back to the page; a foreign "back" goes
 * home, an unknown language is refused and changes nothing. */
static void test_visitor_switch(void **unused)
{
	(void)unused;
	struct h_client *c = h_client_new();
	struct h_resp r;
	char loc[256], val[16];
	assert_int_equal(h_get(c, "/lang?to=en&back=%2Ft%2F5", &r), 0);
	assert_int_equal(r.status, 303);
	assert_int_equal(h_header(&r, "Location", loc, sizeof loc), 0);
	assert_string_equal(loc, "/t/5");
	h_resp_free(&r);
	assert_int_equal(h_cookie(c, "lang", val, sizeof val), 0);
	assert_string_equal(val, "en");
	assert_int_equal(h_get(c, "/", &r), 0);
	assert_true(h_has(&r, "<html lang=\"en\">"));
	assert_true(h_has(&r, "hreflang=\"de\""));   /* the way back */
	h_resp_free(&r);
	assert_int_equal(h_get(c, "/lang?to=en&back=%2F%2Fevil.example%2F", &r), 0);
	assert_int_equal(h_header(&r, "Location", loc, sizeof loc), 0);
	assert_string_equal(loc, "/");
	h_resp_free(&r);
	assert_int_equal(h_get(c, "/lang?to=xx&back=%2F", &r), 0);
	assert_int_equal(r.status, 400);
	h_resp_free(&r);
	assert_int_equal(h_cookie(c, "lang", val, sizeof val), 0);
	assert_string_equal(val, "en");
	assert_int_equal(h_get(c, "/lang?to=de&back=%2F", &r), 0);
	h_resp_free(&r);
	assert_int_equal(h_get(c, "/", &r), 0);
	assert_true(h_has(&r, "<html lang=\"de\">"));
	h_resp_free(&r);
	h_client_free(c);
}

/* 1 when the tags of html nest: every element opened is closed in order,
 * but the void ones; comments, doctype and script/style bodies skipped. */
static int well_formed(const char *html, char *why, size_t cap)
{
	static const char *const voids[] = { "area", "base", "br", "col", "embed", "hr", "img",
					     "input", "link", "meta", "source", "track", "wbr",
					     "path", "circle", "rect", "ellipse", "line", "polygon" };
	char stack[128][16];
	int depth = 0;
	for (const char *p = strchr(html, '<'); p; p = strchr(p + 1, '<')) {
		if (strncmp(p, "<!--", 4) == 0) {
			p = strstr(p, "-->");
			if (!p)
				break;
			continue;
		}
		if (p[1] == '!')
			continue;
		int closing = p[1] == '/';
		const char *n = p + 1 + closing;
		size_t len = 0;
		while (n[len] && (isalnum((unsigned char)n[len]) || n[len] == '-'))
			len++;
		const char *gt = strchr(n, '>');
		if (!len || !gt || len >= 16) {
			snprintf(why, cap, "a broken tag near: %.60s", p);
			return 0;
		}
		char name[16];
		memcpy(name, n, len);
		name[len] = '\0';
		int is_void = gt[-1] == '/';
		for (size_t i = 0; i < sizeof voids / sizeof voids[0]; i++)
			is_void |= strcmp(name, voids[i]) == 0;
		if (closing) {
			if (depth == 0 || strcmp(stack[depth - 1], name) != 0) {
				snprintf(why, cap, "</%s> closes <%s> near: %.80s", name,
					 depth ? stack[depth - 1] : "", p);
				return 0;
			}
			depth--;
		} else if (!is_void) {
			if (depth == 128)
				return 0;
			memcpy(stack[depth++], name, len + 1);
			if (strcmp(name, "script") == 0 || strcmp(name, "style") == 0) {
				const char *end = strstr(gt, strcmp(name, "script") == 0 ? "</script" : "</style");
				if (!end)
					return 0;
				p = end - 1;
			}
		}
		p = gt - 1;
	}
	if (depth != 0)
		snprintf(why, cap, "<%s> never closed", stack[depth - 1]);
	return depth == 0;
}

/* 1 when p[0..end) contains needle. */
static int has_in(const char *p, const char *end, const char *needle)
{
	size_t n = strlen(needle);
	for (; p + n <= end; p++)
		if (memcmp(p, needle, n) == 0)
			return 1;
	return 0;
}

/* 1 when the tag at p (ending at gt) is a button that sends a move and is
 * labelled with the move itself: the move language is not translated. */
static int move_button(const char *p, const char *gt)
{
	if (strncmp(p, "<button", 7) != 0 || !has_in(p, gt, "name=\"move\""))
		return 0;
	const char *v = strstr(p, "value=\"");
	if (!v || v > gt)
		return 0;
	v += 7;
	const char *ve = strchr(v, '"'), *end = strstr(gt, "</button>");
	if (!ve || !end)
		return 0;
	const char *t = gt + 1;
	while (t < end && isspace((unsigned char)*t))
		t++;
	const char *te = end;
	while (te > t && isspace((unsigned char)te[-1]))
		te--;
	return te - t == ve - v && memcmp(t, v, (size_t)(ve - v)) == 0;
}

/* The first German word or letter in the text a person reads of an
 * English page (tags, attributes other than those read out, names of
 * people left out), or NULL. Wurf & Wort's categories and words are German
 * by design: the board marks them lang="de", and such elements are
 * skipped, as are moves written in the move language (a <code>, a move
 * button labelled with its move) and what stands in “quotes” (a name). */
static const char *german_in(const char *html, char *ctx, size_t cap)
{
	static const char *const words[] = {
		"und", "der", "das", "ist", "nicht", "mit", "auf", "du", "Du", "dein",
		"deine", "Karte", "Karten", "Zug", "Spieler", "wer", "Wer", "noch", "oder", "eine",
		"einen", "Partie", "Tisch", "Tische", "von", "zu", "Punkte", "Runde", "bitte",
		"Anmelden", "Abmelden", "Zuschauen", "Mitspieler", "gibt", "leer", "Stapel",
	};
	static char text[400000];
	size_t o = 0;
	int skip_de = 0;   /* depth inside an element marked lang="de" */
	for (const char *p = html; *p && o + 2 < sizeof text; p++) {
		if (*p == '<') {
			const char *gt = strchr(p, '>');
			if (!gt)
				break;
			if (strncmp(p, "<script", 7) == 0 || strncmp(p, "<style", 6) == 0) {
				const char *end = strstr(p, p[2] == 'c' ? "</script>" : "</style>");
				gt = end ? strchr(end, '>') : NULL;
				if (!gt)
					break;
			} else if (p[1] != '/' && (has_in(p, gt, "lang=\"de\"") ||
						   strncmp(p, "<code", 5) == 0 || move_button(p, gt))) {
				skip_de = 1;
			} else if (skip_de && p[1] == '/') {
				skip_de = 0;
			}
			text[o++] = ' ';
			p = gt;
			continue;
		}
		/* a German name or word in quotes (a category in a log sentence) */
		if (strncmp(p, "\xe2\x80\x9c", 3) == 0) {
			const char *q = strstr(p, "\xe2\x80\x9d");
			if (q && !memchr(p, '<', (size_t)(q - p))) {
				p = q + 2;
				continue;
			}
		}
		if (!skip_de)
			text[o++] = *p;
	}
	text[o] = '\0';
	const char *um[] = { "ä", "ö", "ü", "Ä", "Ö", "Ü", "ß" };
	for (size_t i = 0; i < sizeof um / sizeof um[0]; i++) {
		const char *hit = strstr(text, um[i]);
		if (hit) {
			snprintf(ctx, cap, "%.*s", 80, hit > text + 40 ? hit - 40 : text);
			return um[i];
		}
	}
	for (const char *p = text; *p;) {
		while (*p && !isalpha((unsigned char)*p))
			p++;
		const char *w = p;
		while (*p && (isalpha((unsigned char)*p) || (unsigned char)*p >= 0x80))
			p++;
		for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
			if (strlen(words[i]) == (size_t)(p - w) && memcmp(w, words[i], (size_t)(p - w)) == 0) {
				snprintf(ctx, cap, "%.*s", 80, w > text + 40 ? w - 40 : text);
				return words[i];
			}
	}
	return NULL;
}

/* An answer in language `code`: lang, well-formed and, in English, no
 * German. `what` names it in a failure. */
static void check_html(const struct h_resp *r, const char *what, const char *code)
{
	char why[200] = "", ctx[100] = "", want[32];
	snprintf(want, sizeof want, "<html lang=\"%s\">", code);
	if (!h_has(r, want))
		fprintf(stderr, "%s: not %s\n", what, want);
	assert_true(h_has(r, want));
	int ok = well_formed(r->body, why, sizeof why);
	if (!ok)
		fprintf(stderr, "%s (%s): %s\n", what, code, why);
	assert_true(ok);
	const char *de = strcmp(code, "en") == 0 ? german_in(r->body, ctx, sizeof ctx) : NULL;
	if (de)
		fprintf(stderr, "%s (en): German \"%s\" in: …%s…\n", what, de, ctx);
	assert_null(de);
}

/* Page `path` as c sees it in language `code`, answered with `status`. */
static void check_page_status(struct h_client *c, const char *path, const char *code, long status)
{
	struct h_resp r;
	assert_int_equal(h_get(c, path, &r), 0);
	if (r.status != status)
		fprintf(stderr, "%s (%s): status %ld\n", path, code, r.status);
	assert_int_equal(r.status, status);
	check_html(&r, path, code);
	h_resp_free(&r);
}

static void check_page(struct h_client *c, const char *path, const char *code)
{
	check_page_status(c, path, code, 200);
}

/* A malformed move at table id: refused with its reason in `code`, on the
 * page the answer leaves the browser on. */
static void check_refused(struct h_client *c, int64_t id, const char *code)
{
	char path[64], csrf[128];
	snprintf(path, sizeof path, "/t/%lld", (long long)id);
	assert_int_equal(it_csrf(c, path, csrf, sizeof csrf), 0);
	snprintf(path, sizeof path, "/t/%lld/move", (long long)id);
	struct h_resp r;
	assert_int_equal(h_post_form(c, path, &r, "csrf", csrf, "v", "1", "move", "quatsch 7",
				     NULL), 0);
	assert_true(r.status == 303 || r.status == 409 || r.status == 422);
	if (r.status == 303) {
		char loc[128];
		assert_int_equal(h_header(&r, "Location", loc, sizeof loc), 0);
		h_resp_free(&r);
		assert_int_equal(h_get(c, loc, &r), 0);
	}
	assert_true(h_has(&r, "role=\"alert\""));   /* the note says why */
	check_html(&r, path, code);
	h_resp_free(&r);
}

/* The JSON twin of table id says its language. */
static void check_json(struct h_client *c, int64_t id, const char *code)
{
	long status;
	json_t *o = it_table_json(c, id, &status);
	assert_int_equal(status, 200);
	assert_string_equal(it_jstr(o, "lang"), code);
	json_decref(o);
}

/* The account's language: POST /me/lang, back to where it was sent from. */
static void choose(struct h_client *c, const char *code)
{
	char csrf[128], loc[128];
	struct h_resp r;
	assert_int_equal(it_csrf(c, "/me", csrf, sizeof csrf), 0);
	assert_int_equal(h_post_form(c, "/me/lang", &r, "csrf", csrf, "lang", code, "back", "/me",
				     NULL), 0);
	assert_int_equal(r.status, 303);
	assert_int_equal(h_header(&r, "Location", loc, sizeof loc), 0);
	assert_string_equal(loc, "/me");
	h_resp_free(&r);
}

static void test_every_page_both_languages(void **unused)
{
	(void)unused;
	struct h_client *c = it_register("Lina");
	assert_non_null(c);
	struct h_client *visitor = h_client_new();
	int64_t ids[16];
	assert_true(ngames <= 16);
	for (int i = 0; i < ngames; i++) {
		const struct game *g = games[i];
		ids[i] = it_create_table(c, g->slug, g->min_players, NULL);
		assert_true(ids[i] > 0);
		for (int s = 1; s < g->min_players; s++)
			assert_int_equal(it_post_table(c, ids[i], "/bot", "level", "random", NULL, 0), 303);
	}
	char tpath[48];
	int64_t tid = it_create_swiss(c, "Sprachen-Swiss");
	assert_true(tid > 0);
	snprintf(tpath, sizeof tpath, "/tournaments/%lld", (long long)tid);
	const char *const pages[] = { "/", "/me", "/tournaments", "/ratings", "/u/Lina",
				      "/tournaments/new?game=drehwurm", tpath, "/nowhere" };
	static const char *const open_pages[] = { "/", "/login", "/register", "/tournaments",
						  "/ratings", "/u/Lina" };
	for (int l = 0; l < 2; l++) {
		const char *code = l ? "en" : "de";
		choose(c, code);
		struct h_resp r;
		char path[64];
		snprintf(path, sizeof path, "/lang?to=%s&back=%%2F", code);
		assert_int_equal(h_get(visitor, path, &r), 0);
		h_resp_free(&r);
		for (size_t k = 0; k < sizeof pages / sizeof pages[0]; k++) {
			/* the error page, too */
			check_page_status(c, pages[k], code, strcmp(pages[k], "/nowhere") ? 200 : 404);
		}
		for (size_t k = 0; k < sizeof open_pages / sizeof open_pages[0]; k++)
			check_page(visitor, open_pages[k], code);
		for (int i = 0; i < ngames; i++) {
			snprintf(path, sizeof path, "/t/%lld", (long long)ids[i]);
			check_page(c, path, code);          /* a seat's board */
			check_page(visitor, path, code);    /* a spectator's */
			check_json(c, ids[i], code);
			check_refused(c, ids[i], code);   /* a refused move's reason */
		}
	}
	h_client_free(visitor);
	h_client_free(c);
}

/* The words the page's script writes (the invite link's buttons, the tab
 * title's mark for news) come from the page, in its language. */
static void test_script_words(void **unused)
{
	(void)unused;
	struct h_client *c = it_register("Skript");
	assert_non_null(c);
	int64_t id = it_create_table(c, "drehwurm", 4, NULL);   /* open: an invite link */
	assert_true(id > 0);
	char path[48];
	snprintf(path, sizeof path, "/t/%lld", (long long)id);
	static const char *const words[2][4] = {
		{ "data-copy=\"Link kopieren\"", "data-copied=\"Kopiert\"",
		  "data-share=\"Teilen\"", "data-fresh=\"(neu)\"" },
		{ "data-copy=\"Copy link\"", "data-copied=\"Copied\"", "data-share=\"Share\"",
		  "data-fresh=\"(new)\"" },
	};
	for (int l = 0; l < 2; l++) {
		choose(c, l ? "en" : "de");
		struct h_resp r;
		assert_int_equal(h_get(c, path, &r), 0);
		assert_int_equal(r.status, 200);
		for (int k = 0; k < 4; k++)
			if (!h_has(&r, words[l][k]))
				fail_msg("%s: the table page has no %s", l ? "en" : "de", words[l][k]);
		h_resp_free(&r);
	}
	h_client_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accept_language),
		cmocka_unit_test(test_refused_request_in_its_language),
		cmocka_unit_test(test_visitor_switch),
		cmocka_unit_test(test_every_page_both_languages),
		cmocka_unit_test(test_script_words),
	};
	return cmocka_run_group_tests(tests, it_start, it_stop);
}
