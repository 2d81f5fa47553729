/*
 * test_profile_web.c — profiles (/u/<name>) through real nginx:
 *   - Jörg (a name with an umlaut, percent-encoded as UTF-8 in the URL) and
 *     Ulla play a DNA table to its end, Ulla resigned: both profiles show
 *     the table, Jörg on place 1 of 2 with a win, Ulla on place 2 of 2,
 *     page and JSON twin alike, to a visitor who is not logged in;
 *   - the table page's seats and the lobby's host link to the profiles;
 *   - an unknown name is a 404 with the error page, and so is a path that
 *     is no name at all (markup, a bad escape, a slash): names cannot
 *     contain markup (auth_name_valid), and nothing of the path comes back
 *     unescaped.
 * Bounded: MAX_POSTS moves and MAX_SECONDS for the table, a fixed list of
 * requests otherwise.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "integration/suite.h"

enum { MAX_POSTS = 3000, MAX_SECONDS = 150 };

#define JOERG "J\xc3\xb6rg"
#define JOERG_URL "/u/J%C3%B6rg"

/* c plays random legal moves at table id until it is finished, within
 * MAX_POSTS moves and MAX_SECONDS; 1 when it finished. */
static int play_out(struct h_client *c, int64_t id)
{
	uint64_t rnd = 11;
	double t0 = it_now();
	for (int posts = 0; posts < MAX_POSTS && it_now() - t0 < MAX_SECONDS;) {
		long status;
		json_t *o = it_table_json(c, id, &status);
		assert_non_null(o);
		if (strcmp(it_jstr(o, "status"), "finished") == 0) {
			json_decref(o);
			return 1;
		}
		json_t *mv = json_object_get(o, "moves");
		if (!json_is_true(json_object_get(o, "can_act")) || json_array_size(mv) == 0) {
			/* a window or the others: until the table's deadline */
			it_wait_deadline(o, (long)((MAX_SECONDS - (it_now() - t0)) * 1000) + 1);
			json_decref(o);
			continue;
		}
		rnd = rnd * 6364136223846793005ULL + 1442695040888963407ULL;
		const char *m = it_jstr(json_array_get(mv, (size_t)(rnd >> 33) % json_array_size(mv)),
					"move");
		long st = it_move(c, id, it_jstr(o, "csrf"), it_jint(o, "version", -1), m);
		json_decref(o);
		assert_true(st == 303 || st == 409);
		posts++;
	}
	return 0;
}

/* The profile at `path` as JSON for a visitor (200 expected). */
static json_t *profile_json(struct h_client *c, const char *path)
{
	struct h_resp r;
	assert_int_equal(h_get(c, path, &r), 0);
	assert_int_equal(r.status, 200);
	json_t *o = json_loads(r.body, 0, NULL);
	h_resp_free(&r);
	assert_non_null(o);
	return o;
}

/* The one result of a profile: table id, its place of 2; and wins. */
static void check_result(json_t *o, const char *name, int64_t id, int place, int wins)
{
	assert_string_equal(it_jstr(o, "name"), name);
	assert_int_equal(it_jint(o, "tables_played", -1), 1);
	assert_int_equal(it_jint(o, "wins", -1), wins);
	json_t *g = json_array_get(json_object_get(o, "games"), 0);
	assert_string_equal(it_jstr(g, "slug"), "dna");
	assert_int_equal(it_jint(g, "tables", -1), 1);
	json_t *res = json_object_get(o, "results");
	assert_int_equal(json_array_size(res), 1);
	json_t *x = json_array_get(res, 0);
	assert_int_equal(it_jint(x, "table_id", -1), id);
	assert_int_equal(it_jint(x, "place", -1), place);
	assert_int_equal(it_jint(x, "of", -1), 2);
	char url[64];
	snprintf(url, sizeof url, "/t/%lld", (long long)id);
	assert_string_equal(it_jstr(x, "url"), url);
	assert_int_equal(strlen(it_jstr(o, "member_since")), 10);   /* "05.03.2026" */
}

static void test_finished_table_on_both_profiles(void **unused)
{
	(void)unused;
	struct h_client *joerg = it_register(JOERG), *ulla = it_register("Ulla");
	assert_non_null(joerg);
	assert_non_null(ulla);
	int64_t id = it_create_table(joerg, "dna", 2, NULL);
	assert_true(id > 0);
	assert_int_equal(it_join(ulla, id), 0);
	assert_int_equal(it_post_table(ulla, id, "/seat", "act", "resign", NULL, 0), 303);

	/* the seats link to the profiles, the name percent-encoded */
	struct h_resp r;
	char path[64];
	snprintf(path, sizeof path, "/t/%lld", (long long)id);
	assert_int_equal(h_get(joerg, path, &r), 0);
	assert_true(h_has(&r, "<a href=\"" JOERG_URL "\">" JOERG "</a>"));
	assert_true(h_has(&r, "<a href=\"/u/Ulla\">Ulla</a>"));
	h_resp_free(&r);

	assert_int_equal(play_out(joerg, id), 1);
	assert_true(it_verify_exports(joerg, id) >= 1);   /* a resigned seat's match */

	struct h_client *visitor = h_client_new();
	assert_non_null(visitor);
	assert_int_equal(h_get(visitor, JOERG_URL, &r), 0);
	assert_int_equal(r.status, 200);
	assert_true(h_has(&r, "<h1>" JOERG));
	assert_true(h_has(&r, "Platz 1 von 2"));
	snprintf(path, sizeof path, "<a href=\"/t/%lld\">", (long long)id);
	assert_true(h_has(&r, path));
	h_resp_free(&r);
	assert_int_equal(h_get(visitor, "/u/Ulla", &r), 0);
	assert_int_equal(r.status, 200);
	assert_true(h_has(&r, "Platz 2 von 2"));
	h_resp_free(&r);

	h_client_accept(visitor, "application/json");
	json_t *o = profile_json(visitor, JOERG_URL);
	check_result(o, JOERG, id, 1, 1);
	assert_true(json_is_false(json_object_get(o, "is_me")));
	json_decref(o);
	o = profile_json(visitor, "/u/ulla");   /* names compare case-insensitively */
	check_result(o, "Ulla", id, 2, 0);
	json_decref(o);
	h_client_free(visitor);
	h_client_free(joerg);
	h_client_free(ulla);
	print_message("a finished DNA table: place 1 and 2 of 2 on both profiles\n");
}

static void test_lobby_links_host(void **unused)
{
	(void)unused;
	struct h_client *vera = it_register("V\xc3\xa9ra");
	assert_non_null(vera);
	assert_true(it_create_table(vera, "dna", 3, NULL) > 0);
	struct h_client *visitor = h_client_new();
	assert_non_null(visitor);
	struct h_resp r;
	assert_int_equal(h_get(visitor, "/", &r), 0);
	assert_int_equal(r.status, 200);
	assert_true(h_has(&r, "von <a href=\"/u/V%C3%A9ra\">V\xc3\xa9ra</a>"));
	h_resp_free(&r);
	assert_int_equal(h_get(visitor, "/u/V%C3%A9ra", &r), 0);
	assert_int_equal(r.status, 200);
	assert_true(h_has(&r, "Noch kein Tisch zu Ende gespielt."));
	h_resp_free(&r);
	h_client_free(visitor);
	h_client_free(vera);
}

static void test_unknown_and_malformed_names(void **unused)
{
	(void)unused;
	static const char *const paths[] = {
		"/u/Niemand",            /* a valid name nobody has */
		"/u/%3Cscript%3E",       /* markup: no name can contain it */
		"/u/a%22b%27c",
		"/u/ab",                 /* too short for a name */
		"/u/J%C3",               /* not UTF-8 */
		"/u/Anna/x",
		"/u/",
		"/u/%E2%80%AEanna",      /* a bidirectional override */
	};
	struct h_client *c = h_client_new();
	assert_non_null(c);
	for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
		struct h_resp r;
		assert_int_equal(h_get(c, paths[i], &r), 0);
		if (r.status != 404)
			fail_msg("%s: %ld", paths[i], r.status);
		assert_true(h_has(&r, "Nicht gefunden"));
		assert_false(h_has(&r, "<script>"));
		h_resp_free(&r);
	}
	/* a bad escape is a malformed request before any route */
	struct h_resp r;
	assert_int_equal(h_get(c, "/u/J%ZZrg", &r), 0);
	assert_int_equal(r.status, 400);
	h_resp_free(&r);
	/* a name with markup-like characters cannot be registered at all */
	assert_null(it_register("<b>x</b>"));
	h_client_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_finished_table_on_both_profiles),
		cmocka_unit_test(test_lobby_links_host),
		cmocka_unit_test(test_unknown_and_malformed_names),
	};
	return cmocka_run_group_tests(tests, it_start, it_stop);
}
