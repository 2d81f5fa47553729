/*
 * test_text_web.c — text that would rewrite the page, through real nginx
 * (cgi/text.c):
 *   - "admın" (dotless ı) cannot register beside "admin", nor "ADMIN" or
 *     "adrnin": their confusable skeletons are the same (409, the reason);
 *   - a chat message with U+202E (the override that reverses what
 *     follows), U+200B, U+FEFF, or 299 stacked combining marks is refused
 *     with the reason, and nothing is written;
 *   - a tournament named with a line break or U+202E is refused, and none
 *     is created; an invitation by a name with U+200F is refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <jansson.h>

#include "integration/harness.h"
#include "integration/suite.h"

static int start(void **state)
{
	(void)state;
	return h_start();
}

static int stop(void **state)
{
	(void)state;
	h_stop();
	return 0;
}

/* Registers `name` on a new client: the status; the body has `want` when
 * want is given. */
static long try_register(const char *name, const char *want)
{
	struct h_client *c = h_client_new();
	char csrf[128];
	struct h_resp r;
	assert_non_null(c);
	assert_int_equal(it_csrf(c, "/register", csrf, sizeof csrf), 0);
	assert_int_equal(h_post_form(c, "/register", &r, "csrf", csrf, "name", name, "password",
				     it_password, "password2", it_password, NULL), 0);
	long st = r.status;
	if (want && !h_has(&r, want))
		fail_msg("register %s: %ld without '%s'", name, st, want);
	h_resp_free(&r);
	h_client_free(c);
	return st;
}

static void test_lookalike_names(void **u)
{
	(void)u;
	assert_int_equal(try_register("admin", NULL), 303);
	static const char *const alike[] = { "admın", "ADMIN", "adrnin", "Admin" };
	for (size_t i = 0; i < sizeof alike / sizeof alike[0]; i++)
		assert_int_equal(try_register(alike[i], "zum Verwechseln ähnlich"), 409);
	/* the dotless ı cannot log in as admin either */
	struct h_client *c = h_client_new();
	char csrf[128];
	struct h_resp r;
	assert_int_equal(it_csrf(c, "/login", csrf, sizeof csrf), 0);
	assert_int_equal(h_post_form(c, "/login", &r, "csrf", csrf, "name", "admın", "password",
				     it_password, NULL), 0);
	assert_int_equal(r.status, 422);
	h_resp_free(&r);
	h_client_free(c);
	/* different names stay possible */
	assert_int_equal(try_register("admins", NULL), 303);
	assert_int_equal(try_register("Jörg", NULL), 303);
	assert_int_equal(try_register("Jorg", NULL), 303);
}

/* Posts `text` to the chat of table id as c: the status; the body (the
 * JSON twin's chat_note) has `want` when given. */
static long say(struct h_client *c, int64_t id, const char *text, const char *want)
{
	long st;
	json_t *o = it_table_json(c, id, &st);
	assert_non_null(o);
	char path[64];
	snprintf(path, sizeof path, "/t/%lld/chat", (long long)id);
	struct h_resp r;
	assert_int_equal(h_post_form(c, path, &r, "csrf", it_jstr(o, "csrf"), "text", text, NULL), 0);
	json_decref(o);
	st = r.status;
	if (want && !h_has(&r, want))
		fail_msg("chat '%s': %ld without '%s': %.300s", text, st, want, r.body);
	h_resp_free(&r);
	return st;
}

static void test_chat_refuses_invisible_and_stacked(void **u)
{
	(void)u;
	struct h_client *a = it_register("Wanda"), *b = it_register("Xaver");
	assert_non_null(a);
	assert_non_null(b);
	int64_t id = it_create_table(a, "drehwurm", 3, NULL);
	assert_true(id > 0);
	assert_int_equal(it_join(b, id), 0);
	assert_int_equal(say(a, id, "Hallo \xe2\x80\xae" "!ztuB", "U+202E"), 422);
	assert_int_equal(say(a, id, "unsicht\xe2\x80\x8b" "bar", "U+200B"), 422);
	assert_int_equal(say(a, id, "\xef\xbb\xbf" "Hallo", "U+FEFF"), 422);
	assert_int_equal(say(a, id, "rechts\xe2\x80\x8f" "links", "U+200F"), 422);
	assert_int_equal(say(a, id, "arab\xd8\x9c" "isch", "U+061C"), 422);
	char zalgo[700];
	size_t n = 0;
	zalgo[n++] = 'Z';
	for (int i = 0; i < 299; i++) {
		zalgo[n++] = (char)0xcc;
		zalgo[n++] = (char)(0x80 + i % 0x30);
	}
	zalgo[n] = '\0';
	assert_int_equal(say(a, id, zalgo, "Höchstens 3 Akzente"), 422);
	/* nothing of it was written; ordinary text with accents and an emoji is */
	long st;
	json_t *o = it_table_json(b, id, &st);
	assert_non_null(o);
	assert_int_equal(json_array_size(json_object_get(o, "chat")), 0);
	json_decref(o);
	assert_int_equal(say(a, id, "Grüße, ça va? \xf0\x9f\x91\x8d", NULL), 303);
	o = it_table_json(b, id, &st);
	assert_int_equal(json_array_size(json_object_get(o, "chat")), 1);
	json_decref(o);
	/* an invitation by a name with a bidirectional mark */
	char loc[128];
	assert_int_equal(it_post_table(a, id, "/invite", "name", "Xa\xe2\x80\x8fver", loc, sizeof loc),
			 409);
	h_client_free(a);
	h_client_free(b);
}

/* Creates a Swiss tournament named `name` as c: the status; the body has
 * `want` when given. */
static long found(struct h_client *c, const char *name, const char *want)
{
	char csrf[128];
	struct h_resp r;
	assert_int_equal(it_csrf(c, "/tournaments/new?game=drehwurm", csrf, sizeof csrf), 0);
	assert_int_equal(h_post_form(c, "/tournaments", &r, "csrf", csrf, "game", "drehwurm", "name",
				     name, "format", "swiss", "seats", "4", "min_seats", "3",
				     "rounds", "3", "tiebreaks", "party,sb", "start_minutes", "60",
				     "snap_seconds", "2", "speed", "live", "move_seconds", "0", NULL),
			 0);
	long st = r.status;
	if (want && !h_has(&r, want))
		fail_msg("tournament '%s': %ld without '%s'", name, st, want);
	h_resp_free(&r);
	return st;
}

static void test_tournament_names(void **u)
{
	(void)u;
	struct h_client *c = it_register("Yvonne");
	assert_non_null(c);
	assert_int_equal(found(c, "Herbst\nPokal", "Zeilenumbrüche"), 422);
	assert_int_equal(found(c, "Herbst\x01Pokal", "Steuerzeichen"), 422);
	assert_int_equal(found(c, "Pokal \xe2\x80\xae" "retniW", "U+202E"), 422);
	struct h_resp r;
	assert_int_equal(h_get(c, "/tournaments", &r), 0);
	assert_int_equal(r.status, 200);
	assert_false(h_has(&r, "Pokal"));
	h_resp_free(&r);
	assert_int_equal(found(c, "Herbstpokal der Grünen", NULL), 303);
	h_client_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookalike_names),
		cmocka_unit_test(test_chat_refuses_invisible_and_stacked),
		cmocka_unit_test(test_tournament_names),
	};
	return cmocka_run_group_tests_name("text through nginx", tests, start, stop);
}
