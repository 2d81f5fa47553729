/*
 * test_chat_web.c — the table chat end to end, through nginx: two players
 * of a Drehwurm table chat, a spectator reads but cannot write, markup
 * comes back escaped in the page and the JSON twin, a chat message makes
 * other pages reload (the poll) but never makes a pending move stale,
 * unfit text and the rate limit are refused with the page and a German
 * note while nothing is stored, and muting hides an author for the one who
 * muted. Every request loop is bounded in count and in time.
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

#include <jansson.h>

#include "integration/harness.h"
#include "integration/suite.h"

enum { PLAYERS = 3, WAIT_TRIES = 50, RATE_TRIES = 12, RATE_SECONDS = 20 };

static const char *const names[PLAYERS] = { "anna", "bert", "carla" };
static struct h_client *player[PLAYERS];
static struct h_client *watcher;    /* logged in, no seat */
static struct h_client *visitor;    /* not logged in */
static int64_t table_id;
static char table_path[64], chat_path[64];

static int start(void **state)
{
	(void)state;
	if (h_start() != 0)
		return -1;
	for (int i = 0; i < PLAYERS; i++)
		if (!(player[i] = it_register(names[i])))
			return -1;
	if (!(watcher = it_register("dora")) || !(visitor = h_client_new()))
		return -1;
	table_id = it_create_table(player[0], "drehwurm", PLAYERS, NULL);
	if (table_id <= 0 || it_join(player[1], table_id) != 0 || it_join(player[2], table_id) != 0)
		return -1;
	snprintf(table_path, sizeof table_path, "/t/%lld", (long long)table_id);
	snprintf(chat_path, sizeof chat_path, "/t/%lld/chat", (long long)table_id);
	return 0;
}

static int stop(void **state)
{
	(void)state;
	for (int i = 0; i < PLAYERS; i++)
		h_client_free(player[i]);
	h_client_free(watcher);
	h_client_free(visitor);
	h_stop();
	return 0;
}

static json_t *table_json(struct h_client *c, int64_t id)
{
	long st = 0;
	json_t *o = it_table_json(c, id, &st);
	assert_int_equal(st, 200);
	assert_non_null(o);
	return o;
}

static void csrf_of(struct h_client *c, char *out, size_t cap)
{
	assert_int_equal(it_csrf(c, table_path, out, cap), 0);
}

/* Posts a chat form as c to `path` (key, value); the status; the body's
 * copy in *r when r is given (the caller frees it). */
static long chat_form(struct h_client *c, const char *path, const char *key, const char *value,
		      struct h_resp *r)
{
	char csrf[128];
	struct h_resp mine;
	struct h_resp *x = r ? r : &mine;
	if (it_csrf(c, "/", csrf, sizeof csrf) != 0)
		return -1;
	assert_int_equal(h_post_form(c, path, x, "csrf", csrf, key, value, NULL), 0);
	long st = x->status;
	if (!r)
		h_resp_free(x);
	return st;
}

static long say(struct h_client *c, const char *text, struct h_resp *r)
{
	return chat_form(c, chat_path, "text", text, r);
}

/* The chat messages c sees in the JSON twin of the table. */
static size_t chat_count(struct h_client *c, int64_t id)
{
	json_t *o = table_json(c, id);
	json_t *a = json_object_get(o, "chat");
	assert_true(json_is_array(a));
	size_t n = json_array_size(a);
	json_decref(o);
	return n;
}

static void test_two_players_chat(void **state)
{
	(void)state;
	struct h_resp r;
	char loc[128], want[128];
	snprintf(want, sizeof want, "%s#chat", table_path);
	assert_int_equal(say(player[0], "  Hallo zusammen!  ", &r), 303);
	assert_int_equal(h_header(&r, "Location", loc, sizeof loc), 0);
	assert_string_equal(loc, want);
	h_resp_free(&r);
	assert_int_equal(say(player[1], "Servus, viel Glück", NULL), 303);

	json_t *o = table_json(player[0], table_id);
	json_t *chat = json_object_get(o, "chat");
	assert_int_equal(json_array_size(chat), 2);
	json_t *m0 = json_array_get(chat, 0), *m1 = json_array_get(chat, 1);   /* newest first */
	assert_string_equal(it_jstr(m0, "author"), "bert");
	assert_string_equal(it_jstr(m0, "text"), "Servus, viel Glück");
	assert_string_equal(it_jstr(m1, "text"), "Hallo zusammen!");
	assert_true(json_is_false(json_object_get(m0, "mine")));
	assert_true(json_is_true(json_object_get(m0, "can_mute")));
	assert_true(json_is_true(json_object_get(m1, "mine")));
	assert_true(json_is_false(json_object_get(m1, "can_mute")));
	assert_true(it_jint(m1, "at", 0) > 0);
	assert_true(json_is_true(json_object_get(o, "can_chat")));
	json_decref(o);

	/* the page: the form, both messages, a mute button for bert's */
	assert_int_equal(h_get(player[0], table_path, &r), 0);
	assert_int_equal(r.status, 200);
	assert_true(h_has(&r, "id=\"chat\""));
	assert_true(h_has(&r, "name=\"text\""));
	assert_true(h_has(&r, "Servus, viel Glück"));
	assert_true(h_has(&r, "stumm schalten"));
	assert_true(h_has(&r, "?chat#chat"));   /* without script: stop the refresh to write */
	h_resp_free(&r);
	/* ?chat: the page does not refresh itself (a spectator's page otherwise does) */
	char path[96];
	snprintf(path, sizeof path, "%s?chat", table_path);
	assert_int_equal(h_get(watcher, table_path, &r), 0);
	assert_true(h_has(&r, "http-equiv=\"refresh\""));
	h_resp_free(&r);
	assert_int_equal(h_get(watcher, path, &r), 0);
	assert_int_equal(r.status, 200);
	assert_false(h_has(&r, "http-equiv=\"refresh\""));
	h_resp_free(&r);
}

/* Everyone reads: a spectator and a visitor see the messages, no form;
 * the spectator's post is refused (403) and stores nothing. */
static void test_spectator_reads(void **state)
{
	(void)state;
	struct h_resp r;
	size_t before = chat_count(player[0], table_id);
	assert_true(before > 0);
	assert_int_equal(chat_count(watcher, table_id), before);
	assert_int_equal(chat_count(visitor, table_id), before);
	assert_int_equal(h_get(visitor, table_path, &r), 0);
	assert_true(h_has(&r, "Hallo zusammen!"));
	assert_false(h_has(&r, "name=\"text\""));
	assert_false(h_has(&r, "stumm schalten"));   /* only for the logged-in */
	h_resp_free(&r);

	assert_int_equal(say(watcher, "Ich will mitreden", &r), 403);
	assert_true(h_has(&r, "sitzt"));
	assert_true(h_has(&r, "Hallo zusammen!"));   /* the table page with the note */
	h_resp_free(&r);
	json_t *o = table_json(watcher, table_id);
	assert_true(json_is_false(json_object_get(o, "can_chat")));
	json_decref(o);
	assert_int_equal(chat_count(player[0], table_id), before);

	/* a visitor without a session cannot post at all (CSRF) */
	assert_int_equal(h_post_form(visitor, chat_path, &r, "csrf", "x", "text", "hi", NULL), 0);
	assert_int_equal(r.status, 403);
	h_resp_free(&r);
	assert_int_equal(chat_count(player[0], table_id), before);
}

/* Markup is text: escaped in the page, \u003c in the JSON twin. */
static void test_markup_escaped(void **state)
{
	(void)state;
	struct h_resp r;
	const char *evil = "<script>alert(1)</script> & \"x\" <b>fett</b>";
	assert_int_equal(say(player[1], evil, NULL), 303);
	assert_int_equal(h_get(player[2], table_path, &r), 0);
	assert_int_equal(r.status, 200);
	assert_false(h_has(&r, "<script>alert"));
	assert_false(h_has(&r, "<b>fett"));
	assert_true(h_has(&r, "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;"));
	h_resp_free(&r);
	char path[96];
	snprintf(path, sizeof path, "%s.json", table_path);
	assert_int_equal(h_get(player[2], path, &r), 0);
	assert_false(h_has(&r, "<script>"));
	assert_true(h_has(&r, "\\u003cscript\\u003e"));
	h_resp_free(&r);
	json_t *o = table_json(player[2], table_id);
	assert_string_equal(it_jstr(json_array_get(json_object_get(o, "chat"), 0), "text"), evil);
	json_decref(o);
}

/* The player on turn (a regular turn with moves), or -1 while a window is
 * open; move, csrf and the page's version into the arguments. */
static int on_turn(char *move, size_t cap, long long *v, char *csrf, size_t ccap)
{
	for (int i = 0; i < PLAYERS; i++) {
		json_t *o = table_json(player[i], table_id);
		json_t *m = json_array_get(json_object_get(o, "moves"), 0);
		if (json_is_true(json_object_get(o, "my_turn")) && m) {
			snprintf(move, cap, "%s", it_jstr(m, "move"));
			snprintf(csrf, ccap, "%s", it_jstr(o, "csrf"));
			*v = it_jint(o, "version", -1);
			json_decref(o);
			return i;
		}
		json_decref(o);
	}
	return -1;
}

/* A chat message reloads the other pages (the poll answers 200) but the
 * move of a page drawn before it is still taken. */
static void test_chat_keeps_move_fresh(void **state)
{
	(void)state;
	char move[GAME_MOVE_MAX + 1], csrf[128], path[128];
	long long v = -1;
	int t = -1;
	double end = it_now() + 15;
	for (int k = 0; k < WAIT_TRIES && t < 0 && it_now() < end; k++) {
		t = on_turn(move, sizeof move, &v, csrf, sizeof csrf);
		if (t < 0)
			nanosleep(&(struct timespec){ 0, 200 * 1000000L }, NULL);
	}
	assert_true(t >= 0);
	json_t *o = table_json(player[t], table_id);
	long long pv = it_jint(o, "public_version", -1);
	json_decref(o);

	struct h_client *other = player[(t + 1) % PLAYERS];
	assert_int_equal(say(other, "Mach schon, du bist dran!", NULL), 303);
	o = table_json(player[t], table_id);
	assert_int_equal(it_jint(o, "version", -1), v + 1);
	assert_true(it_jint(o, "public_version", -1) > pv);
	json_decref(o);
	struct h_resp r;
	snprintf(path, sizeof path, "%s/poll?v=%lld", table_path, pv);
	assert_int_equal(h_get(visitor, path, &r), 0);
	assert_int_equal(r.status, 200);
	h_resp_free(&r);

	/* the page from before the message: the move is taken, not "zu spät" */
	long long version = 0, steps = 0, steps0 = 0;
	assert_int_equal(it_db_table_state(h_db_path(), table_id, &version, &steps0), 0);
	assert_int_equal(it_move(player[t], table_id, csrf, v, move), 303);
	assert_int_equal(it_db_table_state(h_db_path(), table_id, &version, &steps), 0);
	assert_true(steps > steps0);
	assert_true(version >= v + 2);
}

/* Unfit text: 422 with the page and the reason, the text back in the
 * field, nothing stored; the JSON twin has the reason as chat_note. */
static void test_bad_input(void **state)
{
	(void)state;
	struct h_resp r;
	char longer[400];
	size_t before = chat_count(player[0], table_id);
	long long v0 = 0, s0 = 0, v1 = 0, s1 = 0;
	assert_int_equal(it_db_table_state(h_db_path(), table_id, &v0, &s0), 0);

	assert_int_equal(say(player[0], "   ", &r), 422);
	assert_true(h_has(&r, "Nicht gesendet:"));
	assert_true(h_has(&r, "leer"));
	assert_false(h_has(&r, "http-equiv=\"refresh\""));
	h_resp_free(&r);
	memset(longer, 'x', 301);
	longer[301] = '\0';
	assert_int_equal(say(player[0], longer, &r), 422);
	assert_true(h_has(&r, "höchstens 300 Zeichen"));
	h_resp_free(&r);
	assert_int_equal(say(player[0], "zwei\nZeilen <i>", &r), 422);
	assert_true(h_has(&r, "Steuerzeichen"));
	assert_true(h_has(&r, "value=\"zwei"));   /* the text stays in the field, escaped */
	assert_true(h_has(&r, "&lt;i&gt;\""));
	h_resp_free(&r);
	/* muting oneself, or somebody who never wrote here */
	assert_int_equal(chat_form(player[0], chat_path, "mute", "1", NULL), 422);
	/* neither text nor mute, or both: a malformed form */
	char csrf[128];
	csrf_of(player[0], csrf, sizeof csrf);
	assert_int_equal(h_post_form(player[0], chat_path, &r, "csrf", csrf, NULL), 0);
	assert_int_equal(r.status, 400);
	h_resp_free(&r);
	assert_int_equal(h_post_form(player[0], chat_path, &r, "csrf", csrf, "text", "a", "mute",
				     "2", NULL), 0);
	assert_int_equal(r.status, 400);
	h_resp_free(&r);

	/* a browser is sent back to a GET URL, the reason and its text kept */
	h_client_accept(player[0], "text/html,application/xhtml+xml");
	assert_int_equal(say(player[0], "zwei\nZeilen <b>", &r), 303);
	char loc[128];
	assert_int_equal(h_header(&r, "Location", loc, sizeof loc), 0);
	h_resp_free(&r);
	assert_non_null(strstr(loc, "?chat#chat"));
	*strchr(loc, '#') = '\0';
	assert_int_equal(h_get(player[0], loc, &r), 0);
	assert_int_equal(r.status, 200);
	assert_true(h_has(&r, "Steuerzeichen"));
	assert_true(h_has(&r, "&lt;b&gt;\""));
	h_resp_free(&r);
	h_client_accept(player[0], NULL);

	h_client_accept(player[0], "application/json");
	assert_int_equal(h_post_form(player[0], chat_path, &r, "csrf", csrf, "text", "", NULL), 0);
	h_client_accept(player[0], NULL);
	assert_int_equal(r.status, 422);
	json_t *o = json_loads(r.body, 0, NULL);
	h_resp_free(&r);
	assert_non_null(o);
	assert_non_null(strstr(it_jstr(o, "chat_note"), "leer"));
	json_decref(o);

	assert_int_equal(chat_count(player[0], table_id), before);
	assert_int_equal(it_db_table_state(h_db_path(), table_id, &v1, &s1), 0);
	assert_int_equal(v1, v0);
	assert_int_equal(s1, s0);
}

/* At most five messages in 30 s per user and table: the next is refused
 * (409, "Langsam"), stored nowhere; the others may still write. */
static void test_rate_limit(void **state)
{
	(void)state;
	struct h_resp r;
	char text[32];
	int64_t t2 = it_create_table(player[0], "drehwurm", PLAYERS, NULL);   /* stays open */
	assert_true(t2 > 0);
	assert_int_equal(it_join(player[1], t2), 0);
	char path[64];
	snprintf(path, sizeof path, "/t/%lld/chat", (long long)t2);
	long st = 303;
	int sent = 0;
	double end = it_now() + RATE_SECONDS;
	for (int i = 0; i < RATE_TRIES && it_now() < end; i++) {
		snprintf(text, sizeof text, "Nachricht %d", i + 1);
		st = chat_form(player[0], path, "text", text, &r);
		if (st != 303)
			break;   /* r is looked at below */
		sent++;
		h_resp_free(&r);
	}
	assert_int_equal(sent, 5);
	assert_int_equal(st, 409);
	assert_true(h_has(&r, "Langsam: höchstens 5 Nachrichten in 30 Sekunden"));
	assert_true(h_has(&r, "value=\"Nachricht 6\""));
	h_resp_free(&r);
	assert_int_equal(chat_count(player[1], t2), 5);
	assert_int_equal(chat_form(player[1], path, "text", "Ich darf noch", NULL), 303);
	assert_int_equal(chat_count(player[1], t2), 6);
}

/* Muting hides an author's messages for the one who muted (the spectator
 * here), nobody else; unmuting shows them again. */
static void test_mute(void **state)
{
	(void)state;
	json_t *o = table_json(watcher, table_id);
	json_t *chat = json_object_get(o, "chat");
	long long bert = -1;
	size_t all = json_array_size(chat);
	for (size_t i = 0; i < all; i++)
		if (strcmp(it_jstr(json_array_get(chat, i), "author"), "bert") == 0)
			bert = it_jint(json_array_get(chat, i), "author_id", -1);
	json_decref(o);
	assert_true(bert > 0);
	char id[32];
	snprintf(id, sizeof id, "%lld", bert);
	assert_int_equal(chat_form(watcher, chat_path, "mute", id, NULL), 303);

	o = table_json(watcher, table_id);
	chat = json_object_get(o, "chat");
	assert_true(json_array_size(chat) < all);
	for (size_t i = 0; i < json_array_size(chat); i++)
		assert_string_not_equal(it_jstr(json_array_get(chat, i), "author"), "bert");
	json_t *muted = json_object_get(o, "chat_muted");
	assert_int_equal(json_array_size(muted), 1);
	assert_string_equal(it_jstr(json_array_get(muted, 0), "name"), "bert");
	json_decref(o);
	assert_int_equal(chat_count(player[0], table_id), all);   /* only for dora */
	struct h_resp r;
	assert_int_equal(h_get(watcher, table_path, &r), 0);
	assert_false(h_has(&r, "Servus, viel Glück"));
	assert_true(h_has(&r, "wieder zeigen"));
	h_resp_free(&r);

	assert_int_equal(chat_form(watcher, chat_path, "unmute", id, NULL), 303);
	assert_int_equal(chat_count(watcher, table_id), all);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_players_chat),
		cmocka_unit_test(test_spectator_reads),
		cmocka_unit_test(test_markup_escaped),
		cmocka_unit_test(test_chat_keeps_move_fresh),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_rate_limit),
		cmocka_unit_test(test_mute),
	};
	return cmocka_run_group_tests(tests, start, stop);
}
