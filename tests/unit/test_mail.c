/* test_mail.c — the e-mail notices' queue (012_mail.sql, cgi/mail.c):
 * addresses, the per-turn mail and its dedupe, the digest at most once a
 * day, the unsubscribe token, retries. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "mail.h"
#include "tmpdb.h"

enum { DAY = 86400000 };

static int64_t make_user(struct store *s, const char *name, int mode)
{
	int64_t id = 0;
	char token[ST_MAIL_TOKEN_LEN + 1];
	assert_int_equal(store_user_create(s, name, "$argon2id$x", 1000, &id), ST_OK);
	mail_token_new(token);
	assert_int_equal(store_mail_prefs_set(s, id, "anna@example.org", mode, token), ST_OK);
	return id;
}

/* A running table where `user` sits at seat 0, which may act (`acting`). */
static int64_t running_table(struct store *s, int64_t user, int acting)
{
	int64_t id = 0;
	int seat = -1;
	assert_int_equal(store_table_create(s, "drehwurm", "", 2, 1, user, 1000, &id), ST_OK);
	assert_int_equal(store_seat_take(s, id, user, &seat), ST_OK);
	assert_int_equal(store_table_set_status(s, id, TABLE_PLAYING, 0, 0), ST_OK);
	assert_int_equal(store_table_set_acting(s, id, acting ? 1u << seat : 0, 0, 0), ST_OK);
	return id;
}

static int queued(struct store *s, int64_t now)
{
	struct st_mail m[8];
	int n = -1;
	assert_int_equal(store_mail_due(s, now, m, 8, &n), ST_OK);
	return n;
}

static void test_address(void **state)
{
	(void)state;
	static const char *const good[] = { "anna@example.org", "a.b+spiel@mail.example.de",
					    "x_y@localhost" };
	static const char *const bad[] = { "", "anna", "@example.org", "anna@", "an na@example.org",
					   "anna@exa mple.org", "anna@example..org", ".anna@example.org",
					   "anna.@example.org", "anna@-example.org", "anna@example.org\n",
					   "Anna <anna@example.org>", "anna@example.org,bert@example.org",
					   "\"a\"@example.org", "anna@exämple.org" };
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
		assert_true(mail_address_ok(good[i]));
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_false(mail_address_ok(bad[i]));
	char longer[300];
	memset(longer, 'a', sizeof longer);
	memcpy(longer + 240, "@example.org", 13);   /* 252 bytes, local part too long */
	assert_false(mail_address_ok(longer));
	memcpy(longer, "anna@", 5);
	for (int i = 5; i < 250; i += 10)
		longer[i] = '.';
	memcpy(longer + 251, ".org", 5);   /* 255 bytes */
	assert_false(mail_address_ok(longer));
}

/* A per-turn mail only for that choice, and one queued per user and table. */
static void test_turn_dedupe(void **state)
{
	struct tmpdb *t = *state;
	int64_t anna = make_user(t->s, "anna", ST_MAIL_TURN);
	int64_t bert = make_user(t->s, "bert", ST_MAIL_DIGEST);
	int64_t t1 = running_table(t->s, anna, 1), t2 = running_table(t->s, anna, 1);
	assert_int_equal(store_mail_turn(t->s, t1, anna, 5000), ST_OK);
	assert_int_equal(store_mail_turn(t->s, t1, anna, 6000), ST_OK);
	assert_int_equal(store_mail_turn(t->s, t1, bert, 6000), ST_OK);   /* not his choice */
	assert_int_equal(queued(t->s, 10000), 1);
	assert_int_equal(store_mail_turn(t->s, t2, anna, 7000), ST_OK);
	assert_int_equal(queued(t->s, 10000), 2);
	struct st_mail m[4];
	int n = 0;
	assert_int_equal(store_mail_due(t->s, 10000, m, 4, &n), ST_OK);
	assert_int_equal(m[0].table_id, t1);
	assert_int_equal(m[0].kind, ST_MAIL_TURN);
	assert_string_equal(m[0].address, "anna@example.org");
	/* sent: the next turn at t1 queues a new one */
	assert_int_equal(store_mail_done(t->s, m[0].id, ST_MAIL_SENT, 10000), ST_OK);
	assert_int_equal(store_mail_turn(t->s, t1, anna, 11000), ST_OK);
	assert_int_equal(queued(t->s, 20000), 2);
	/* a failed try waits; it is not due before its next try */
	assert_int_equal(store_mail_retry(t->s, m[1].id, 50000), ST_OK);
	assert_int_equal(queued(t->s, 20000), 1);
	assert_int_equal(queued(t->s, 50000), 2);
	int yes = 0;
	assert_int_equal(store_mail_acting(t->s, anna, t1, &yes), ST_OK);
	assert_true(yes);
	assert_int_equal(store_table_set_acting(t->s, t1, 0, 0, 0), ST_OK);
	assert_int_equal(store_mail_acting(t->s, anna, t1, &yes), ST_OK);
	assert_false(yes);
	/* asked to continue after a party: no reason for a mail (the pause
	 * ends by itself), though the title counts it */
	int before = 0;
	assert_int_equal(store_user_acting(t->s, anna, &before), ST_OK);
	assert_int_equal(store_table_set_acting(t->s, t1, 1, 0, 1), ST_OK);
	assert_int_equal(store_mail_acting(t->s, anna, t1, &yes), ST_OK);
	assert_false(yes);
	assert_int_equal(store_user_acting(t->s, anna, &n), ST_OK);
	assert_int_equal(n, before + 1);
	assert_int_equal(store_table_set_acting(t->s, t1, 0, 0, 0), ST_OK);
	assert_int_equal(store_mail_purge(t->s, 10001), ST_OK);   /* the sent one goes */
	assert_int_equal(queued(t->s, 50000), 2);
}

/* The digest: only when a table waits, then not again for a day. */
static void test_digest_daily(void **state)
{
	struct tmpdb *t = *state;
	int64_t anna = make_user(t->s, "anna", ST_MAIL_DIGEST);
	int64_t bert = make_user(t->s, "bert", ST_MAIL_TURN);
	int64_t tb = running_table(t->s, anna, 0);
	running_table(t->s, bert, 1);
	int n = -1;
	assert_int_equal(mail_digest_sweep(t->s, 5000, DAY, 3, &n), ST_OK);
	assert_int_equal(n, 0);   /* nothing waits for Anna; Bert wants no digest */
	assert_int_equal(store_table_set_acting(t->s, tb, 1, 0, 1), ST_OK);   /* a pause */
	assert_int_equal(mail_digest_sweep(t->s, 5500, DAY, 3, &n), ST_OK);
	assert_int_equal(n, 0);
	assert_int_equal(store_table_set_acting(t->s, tb, 1, 0, 0), ST_OK);
	assert_int_equal(mail_digest_sweep(t->s, 6000, DAY, 3, &n), ST_OK);
	assert_int_equal(n, 1);
	assert_int_equal(mail_digest_sweep(t->s, 7000, DAY, 3, &n), ST_OK);
	assert_int_equal(n, 0);
	assert_int_equal(mail_digest_sweep(t->s, 6000 + DAY - 1, DAY, 3, &n), ST_OK);
	assert_int_equal(n, 0);
	struct st_mail m[4];
	int k = 0;
	assert_int_equal(store_mail_due(t->s, 6000 + DAY, m, 4, &k), ST_OK);
	assert_int_equal(k, 1);
	assert_int_equal(m[0].kind, ST_MAIL_DIGEST);
	assert_int_equal(m[0].user_id, anna);
	assert_int_equal(store_mail_done(t->s, m[0].id, ST_MAIL_SENT, 6000 + DAY), ST_OK);
	assert_int_equal(mail_digest_sweep(t->s, 6000 + DAY, DAY, 3, &n), ST_OK);
	assert_int_equal(n, 1);   /* a day later, the next */
}

/* The unsubscribe token: unknown ones find nothing; it turns mail off and
 * stays the same when the user saves again. */
static void test_unsubscribe(void **state)
{
	struct tmpdb *t = *state;
	int64_t anna = make_user(t->s, "anna", ST_MAIL_TURN), user = 0;
	struct st_mail_prefs p, q;
	char other[ST_MAIL_TOKEN_LEN + 1];
	assert_int_equal(store_mail_prefs(t->s, anna, &p), ST_OK);
	assert_int_equal(strlen(p.token), ST_MAIL_TOKEN_LEN);
	mail_token_new(other);
	assert_string_not_equal(other, p.token);
	assert_int_equal(store_mail_prefs_set(t->s, anna, "a@example.org", ST_MAIL_DIGEST, other),
			 ST_OK);
	assert_int_equal(store_mail_prefs(t->s, anna, &q), ST_OK);
	assert_string_equal(q.token, p.token);   /* the first token stays */
	assert_int_equal(q.mode, ST_MAIL_DIGEST);
	assert_int_equal(store_mail_off(t->s, other, &user), ST_NOTFOUND);
	assert_int_equal(store_mail_by_token(t->s, p.token, &user, &q), ST_OK);
	assert_int_equal(user, anna);
	assert_int_equal(store_mail_off(t->s, p.token, &user), ST_OK);
	assert_int_equal(store_mail_prefs(t->s, anna, &q), ST_OK);
	assert_int_equal(q.mode, ST_MAIL_NONE);
	assert_string_equal(q.address, "a@example.org");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_address),
		cmocka_unit_test_setup_teardown(test_turn_dedupe, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_digest_daily, tmpdb_setup, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_unsubscribe, tmpdb_setup, tmpdb_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
