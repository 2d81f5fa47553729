/*
 * test_mail_web.c — the e-mail notices through real nginx, with the
 * server started with mail on (SPIELTISCH_MAIL=1) and a fake sendmail (a
 * shell script that appends what it reads to a file):
 *   - /me has the mail section; an address we cannot use is a 422 with the
 *     note, a good one with "a mail per turn" is saved (303);
 *   - at a DNA table over days, the other player's move that makes it
 *     Anna's turn queues exactly one mail; `spieltisch mail --once` pipes
 *     it into the fake sendmail with the headers of a plain UTF-8 mail,
 *     the table's link and the unsubscribe link, and marks it sent;
 *   - the unsubscribe link, without login: its GET asks and changes
 *     nothing, its POST turns mail off; an unknown token is a 404.
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

enum { STEPS_MAX = 200, OUT_MAX = 16384 };

static struct h_client *anna, *bert;

static int start(void **state)
{
	(void)state;
	setenv("SPIELTISCH_MAIL", "1", 1);
	return h_start();
}

static int stop(void **state)
{
	(void)state;
	h_client_free(anna);
	h_client_free(bert);
	h_stop();
	return 0;
}

/* The one number `sql` reads from the app's database. */
static long long db_int(const char *sql)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *q = NULL;
	long long v = -1;
	if (sqlite3_open_v2(h_db_path(), &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, sql, -1, &q, NULL) == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW)
		v = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	sqlite3_close(db);
	return v;
}

static int can_act(struct h_client *c, int64_t id)
{
	long st;
	json_t *o = it_table_json(c, id, &st);
	assert_non_null(o);
	int yes = json_is_true(json_object_get(o, "can_act"));
	json_decref(o);
	return yes;
}

/* Client c plays its first legal move at table id. */
static void move_first(struct h_client *c, int64_t id)
{
	long st;
	json_t *o = it_table_json(c, id, &st);
	assert_non_null(o);
	json_t *m = json_array_get(json_object_get(o, "moves"), 0);
	assert_non_null(m);
	json_t *g = json_object_get(o, "game");
	assert_int_equal(it_move(c, id, it_jstr(g, "csrf"), it_jint(o, "v", -1),
				 it_jstr(m, "move")), 303);
	json_decref(o);
}

/* Saves Anna's mail settings: the status. */
static long save(const char *address, const char *mode)
{
	char csrf[128];
	struct h_resp r;
	assert_int_equal(it_csrf(anna, "/me", csrf, sizeof csrf), 0);
	assert_int_equal(h_post_form(anna, "/me/mail", &r, "csrf", csrf, "address", address,
				     "mode", mode, NULL), 0);
	long st = r.status;
	if (st == 422)
		assert_true(h_has(&r, "Diese E-Mail-Adresse können wir nicht verwenden."));
	h_resp_free(&r);
	return st;
}

/* Runs the mail command once with the fake sendmail; the outbox's text. */
static void run_mail(char *out, size_t cap)
{
	char script[600], outbox[600], cmd[3000];
	snprintf(script, sizeof script, "%s/fake-sendmail.sh", h_dir());
	snprintf(outbox, sizeof outbox, "%s/outbox", h_dir());
	FILE *f = fopen(script, "w");
	assert_non_null(f);
	fprintf(f, "#!/bin/sh\ncat >> '%s'\n", outbox);
	fclose(f);
	snprintf(cmd, sizeof cmd, "'%s/build/spieltisch' mail --once --db '%s' --root '%s'"
		 " --sendmail 'sh %s' --base '%s' --from 'Spieltisch <spieltisch@example.org>'"
		 " >/dev/null", h_root(), h_db_path(), h_root(), script, h_base());
	assert_int_equal(system(cmd), 0);
	f = fopen(outbox, "r");
	assert_non_null(f);
	size_t n = fread(out, 1, cap - 1, f);
	out[n] = '\0';
	fclose(f);
}

static void test_mail_turn(void **state)
{
	(void)state;
	assert_non_null(anna = it_register("anna"));
	assert_non_null(bert = it_register("bert"));
	struct h_resp r;
	assert_int_equal(h_get(anna, "/me", &r), 0);
	assert_true(h_has(&r, "Benachrichtigungen per E-Mail"));
	h_resp_free(&r);
	assert_int_equal(save("anna at example.org", "turn"), 422);
	assert_int_equal(save("", "digest"), 422);

	int64_t id = it_create_table(anna, "dna", 2, "speed", "days", "clock_days", "3", NULL);
	assert_true(id > 0);
	assert_int_equal(it_join(bert, id), 0);
	for (int k = 0; k < STEPS_MAX && can_act(anna, id); k++)
		move_first(anna, id);
	assert_false(can_act(anna, id));
	assert_int_equal(save("anna@example.org", "turn"), 303);
	assert_int_equal(db_int("SELECT mode FROM mail_prefs"), 2);
	assert_int_equal(db_int("SELECT count(*) FROM mail_queue"), 0);
	for (int k = 0; k < STEPS_MAX && !can_act(anna, id); k++) {
		assert_int_equal(db_int("SELECT count(*) FROM mail_queue"), 0);
		move_first(bert, id);
	}
	assert_true(can_act(anna, id));
	assert_int_equal(db_int("SELECT count(*) FROM mail_queue WHERE state = 0 AND kind = 2"), 1);

	char out[OUT_MAX], want[300];
	run_mail(out, sizeof out);
	assert_int_equal(db_int("SELECT count(*) FROM mail_queue WHERE state = 1"), 1);
	static const char *const headers[] = {
		"From: Spieltisch <spieltisch@example.org>\n", "To: anna@example.org\n",
		"Subject: =?UTF-8?B?", "\nDate: ", "\nMessage-ID: <mail-", "MIME-Version: 1.0\n",
		"Content-Type: text/plain; charset=utf-8\n", "Content-Transfer-Encoding: 8bit\n",
	};
	for (size_t i = 0; i < sizeof headers / sizeof headers[0]; i++)
		assert_non_null(strstr(out, headers[i]));
	snprintf(want, sizeof want, "%s/t/%lld\n", h_base(), (long long)id);
	assert_non_null(strstr(out, want));
	assert_non_null(strstr(out, "Hallo anna,"));
	snprintf(want, sizeof want, "List-Unsubscribe: <%s/mail/off/", h_base());
	const char *u = strstr(out, want);
	assert_non_null(u);
	char token[64], path[128];
	snprintf(token, sizeof token, "%.43s", u + strlen(want));
	assert_int_equal(strlen(token), 43);
	snprintf(want, sizeof want, "Keine Mails mehr: %s/mail/off/%s\n", h_base(), token);
	assert_non_null(strstr(out, want));   /* and in the body */

	/* a second run sends nothing more */
	run_mail(out, sizeof out);
	assert_int_equal(db_int("SELECT count(*) FROM mail_queue WHERE state = 1"), 1);

	/* the link, without login: GET asks, POST turns mail off */
	struct h_client *v = h_client_new();
	char csrf[128];
	snprintf(path, sizeof path, "/mail/off/%s", token);
	assert_int_equal(h_get(v, path, &r), 0);
	assert_int_equal(r.status, 200);
	assert_true(h_has(&r, "anna@example.org"));
	assert_int_equal(h_csrf(&r, csrf, sizeof csrf), 0);
	h_resp_free(&r);
	assert_int_equal(db_int("SELECT mode FROM mail_prefs"), 2);
	assert_int_equal(h_post_form(v, path, &r, "csrf", csrf, NULL), 0);
	assert_int_equal(r.status, 200);
	assert_true(h_has(&r, "keine Benachrichtigungen mehr"));
	h_resp_free(&r);
	assert_int_equal(db_int("SELECT mode FROM mail_prefs"), 0);
	assert_int_equal(h_get(v, "/mail/off/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", &r), 0);
	assert_int_equal(r.status, 404);
	h_resp_free(&r);
	h_client_free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mail_turn),
	};
	return cmocka_run_group_tests(tests, start, stop);
}
