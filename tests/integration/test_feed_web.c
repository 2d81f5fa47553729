/*
 * test_feed_web.c — a user's Atom feed through real nginx, read by a real
 * feed parser (Debian's python3-feedparser, run as a child process):
 *   - the account page (/me) shows the feed's whole address;
 *   - the feed parses as Atom 1.0 without complaint, is served as
 *     application/atom+xml, links to itself and names an author;
 *   - at two running Drehwurm tables where it is not Anna's turn, her feed
 *     has no entry for either; once the others' moves make it her turn at
 *     one of them, an entry for that table says so, and still none for the
 *     other;
 *   - "neu erzeugen" (POST /me/feed) makes the old address a 404 and the
 *     new one a feed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "integration/suite.h"

enum { PLAYERS = 3, STEPS_MAX = 200, LINE_MAX = 1024 };

/* The feed parser: Debian's python3 with python3-feedparser (deploy/deps.sh,
 * test set), not whichever python3 comes first on the PATH. */
#define FEED_PYTHON "/usr/bin/python3"

/* Prints "bozo <0|1>", "version <v>", "self <href>", "author <name>",
 * "updated <date>", then per entry "entry <id>\t<link>\t<title>\t<updated>". */
static const char parse_script[] =
	"import sys, feedparser\n"
	"d = feedparser.parse(open(sys.argv[1], 'rb').read())\n"
	"print('bozo', int(bool(d.bozo)))\n"
	"print('version', d.version)\n"
	"print('self', ''.join(l.href for l in d.feed.get('links', []) if l.rel == 'self'))\n"
	"print('author', d.feed.get('author', ''))\n"
	"print('updated', d.feed.get('updated', ''))\n"
	"for e in d.entries:\n"
	"    print('entry', '\\t'.join([e.id, e.link, e.title, e.updated]))\n";

static const char *const names[PLAYERS] = { "anna", "bert", "carla" };
static struct h_client *player[PLAYERS];

static int start(void **state)
{
	(void)state;
	return h_start();
}

static int stop(void **state)
{
	(void)state;
	for (int i = 0; i < PLAYERS; i++)
		h_client_free(player[i]);
	h_stop();
	return 0;
}

/* Anna's feed path ("/feed/<token>.atom") from her account page. */
static void feed_path(char *out, size_t cap)
{
	struct h_resp r;
	char want[256];
	assert_int_equal(h_get(player[0], "/me", &r), 0);
	assert_int_equal(r.status, 200);
	snprintf(want, sizeof want, "%s/feed/", h_base());
	const char *at = strstr(r.body, want);
	assert_non_null(at);
	at += strlen(h_base());
	const char *end = strstr(at, ".atom");
	assert_non_null(end);
	assert_int_equal(end - at, (long)strlen("/feed/") + 43);
	snprintf(out, cap, "%.*s", (int)(end - at) + 5, at);
	h_resp_free(&r);
}

/* Fetches `path` and runs the parser on it; its output lines in out. */
static void parse_feed(const char *path, char *out, size_t cap)
{
	struct h_resp r;
	char type[128], file[512], script[512], cmd[1200], self[256];
	assert_int_equal(h_get(player[0], path, &r), 0);
	assert_int_equal(r.status, 200);
	assert_int_equal(h_header(&r, "Content-Type", type, sizeof type), 0);
	assert_string_equal(type, "application/atom+xml; charset=utf-8");
	snprintf(file, sizeof file, "%s/feed.xml", h_dir());
	snprintf(script, sizeof script, "%s/parse_feed.py", h_dir());
	FILE *f = fopen(file, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(r.body, 1, r.body_len, f), r.body_len);
	fclose(f);
	h_resp_free(&r);
	f = fopen(script, "w");
	assert_non_null(f);
	fputs(parse_script, f);
	fclose(f);
	snprintf(cmd, sizeof cmd, "%s '%s' '%s'", FEED_PYTHON, script, file);
	FILE *pp = popen(cmd, "r");
	assert_non_null(pp);
	size_t n = fread(out, 1, cap - 1, pp);
	out[n] = '\0';
	assert_int_equal(pclose(pp), 0);
	assert_non_null(strstr(out, "bozo 0\n"));
	assert_non_null(strstr(out, "version atom10\n"));
	snprintf(self, sizeof self, "self %s%s\n", h_base(), path);
	assert_non_null(strstr(out, self));
	assert_non_null(strstr(out, "author Spieltisch\n"));
	assert_null(strstr(out, "updated \n"));
}

/* The parser's entry line for table id, or NULL. */
static const char *entry_for(const char *out, int64_t id)
{
	char link[128];
	snprintf(link, sizeof link, "\t%s/t/%lld\t", h_base(), (long long)id);
	return strstr(out, link);
}

/* 1 when client i may act at table id now. */
static int can_act(int i, int64_t id)
{
	long st;
	json_t *o = it_table_json(player[i], id, &st);
	assert_non_null(o);
	int yes = json_is_true(json_object_get(o, "can_act"));
	json_decref(o);
	return yes;
}

/* Client i plays its first legal move at table id. */
static void move_first(int i, int64_t id)
{
	long st;
	json_t *o = it_table_json(player[i], id, &st);
	assert_non_null(o);
	json_t *m = json_array_get(json_object_get(o, "moves"), 0);
	assert_non_null(m);
	json_t *g = json_object_get(o, "game");
	assert_int_equal(it_move(player[i], id, it_jstr(g, "csrf"), it_jint(o, "v", -1),
				 it_jstr(m, "move")), 303);
	json_decref(o);
}

/* Moves by whoever may act (Anna too unless `until_anna`) until Anna may
 * act (`until_anna`) or may not. */
static void play_until(int64_t id, int until_anna)
{
	for (int k = 0; k < STEPS_MAX; k++) {
		if (can_act(0, id) == until_anna)
			return;
		int moved = 0;
		for (int i = until_anna ? 1 : 0; i < PLAYERS && !moved; i++)
			if (can_act(i, id)) {
				move_first(i, id);
				moved = 1;
			}
		assert_true(moved);
	}
	fail_msg("table %lld: Anna's turn did not %s", (long long)id, until_anna ? "come" : "pass");
}

static void test_feed_turn(void **state)
{
	(void)state;
	for (int i = 0; i < PLAYERS; i++)
		assert_non_null(player[i] = it_register(names[i]));
	int64_t t[2];
	for (int k = 0; k < 2; k++) {
		t[k] = it_create_table(player[0], "drehwurm", PLAYERS, NULL);
		assert_true(t[k] > 0);
		for (int i = 1; i < PLAYERS; i++)
			assert_int_equal(it_join(player[i], t[k]), 0);
		play_until(t[k], 0);   /* not Anna's turn at either */
	}
	char path[128], out[16 * LINE_MAX];
	feed_path(path, sizeof path);
	parse_feed(path, out, sizeof out);
	assert_null(entry_for(out, t[0]));
	assert_null(entry_for(out, t[1]));

	play_until(t[0], 1);   /* the others move until it is Anna's turn at t[0] */
	long st;
	json_t *o = it_table_json(player[0], t[0], &st);
	assert_non_null(o);
	/* what Anna is asked, as every page decides it: her turn, or a window
	 * (a snap window just opened is one, even for the seat next on turn) */
	int my_turn = strcmp(it_jstr(o, "asked"), "turn") == 0;
	long long pv = it_jint(o, "public_version", -1);
	json_decref(o);
	parse_feed(path, out, sizeof out);
	const char *e = entry_for(out, t[0]);
	assert_non_null(e);
	char id[128];
	snprintf(id, sizeof id, "entry tag:spieltisch,2026:table/%lld/%s/v%lld\t", (long long)t[0],
		 my_turn ? "turn" : "window", pv);
	assert_non_null(strstr(out, id));
	assert_non_null(strstr(e, my_turn ? "Du bist dran" : "Ein Fenster ist offen"));
	assert_null(entry_for(out, t[1]));
}

static void test_feed_renew(void **state)
{
	(void)state;
	char old[128], fresh[128], csrf[128], out[16 * LINE_MAX];
	struct h_resp r;
	feed_path(old, sizeof old);
	assert_int_equal(it_csrf(player[0], "/me", csrf, sizeof csrf), 0);
	assert_int_equal(h_post_form(player[0], "/me/feed", &r, "csrf", csrf, NULL), 0);
	assert_int_equal(r.status, 303);
	h_resp_free(&r);
	assert_int_equal(h_post_form(player[0], "/me/feed", &r, "csrf", "falsch", NULL), 0);
	assert_int_equal(r.status, 403);   /* without the session's token: nothing */
	h_resp_free(&r);
	feed_path(fresh, sizeof fresh);
	assert_string_not_equal(old, fresh);
	assert_int_equal(h_get(player[1], old, &r), 0);
	assert_int_equal(r.status, 404);
	h_resp_free(&r);
	parse_feed(fresh, out, sizeof out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_feed_turn),
		cmocka_unit_test(test_feed_renew),
	};
	return cmocka_run_group_tests(tests, start, stop);
}
