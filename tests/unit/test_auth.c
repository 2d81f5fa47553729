/* test_auth.c — accounts, login throttling, sessions and CSRF tokens. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "auth.h"
#include "tmpdb.h"

enum { T0 = 1700000000 };   /* seconds; tests pass ms = T0 * 1000 + offset */
static const int64_t NOW = (int64_t)T0 * 1000;

static int setup_db(void **state)
{
	struct tmpdb *t = calloc(1, sizeof *t);
	setenv("SPIELTISCH_FAST_HASH", "1", 1);
	if (!t || auth_init() != 0 || tmpdb_open(t) != 0) {
		free(t);
		return -1;
	}
	*state = t;
	return 0;
}

static int teardown_db(void **state)
{
	struct tmpdb *t = *state;
	tmpdb_close(t);
	free(t);
	return 0;
}

static double seconds_since(const struct timespec *a)
{
	struct timespec b;
	clock_gettime(CLOCK_MONOTONIC, &b);
	return (double)(b.tv_sec - a->tv_sec) + (double)(b.tv_nsec - a->tv_nsec) / 1e9;
}

static void test_register_and_login(void **state)
{
	struct tmpdb *t = *state;
	struct st_user u;
	int64_t id = 0, got = 0;
	int retry = -1;

	assert_int_equal(auth_register(t->s, "Anna", "geheim123", NOW, &id), AUTH_OK);
	assert_true(id > 0);
	/* Only a hash is stored: argon2id, and not the password. */
	assert_int_equal(store_user_by_id(t->s, id, &u), ST_OK);
	assert_memory_equal(u.pwhash, "$argon2id$", 10);
	assert_null(strstr(u.pwhash, "geheim123"));

	assert_int_equal(auth_login(t->s, "Anna", "geheim123", NOW, &got, &retry), AUTH_OK);
	assert_int_equal(got, id);
	assert_int_equal(retry, 0);
	assert_int_equal(auth_login(t->s, "aNNA", "geheim123", NOW, &got, &retry), AUTH_OK);
	assert_int_equal(got, id);

	got = 0;
	assert_int_equal(auth_login(t->s, "Anna", "geheim124", NOW, &got, &retry), AUTH_WRONG);
	assert_int_equal(got, 0);
	assert_int_equal(auth_login(t->s, "Niemand", "geheim123", NOW, &got, &retry), AUTH_WRONG);
	assert_int_equal(auth_login(t->s, "Anna", "", NOW, &got, &retry), AUTH_WRONG);

	assert_int_equal(auth_register(t->s, "ANNA", "anderes12", NOW, &id), AUTH_NAME_TAKEN);
	assert_int_equal(auth_register(t->s, "Bernd", "kurz", NOW, &id), AUTH_BAD_PASSWORD);
	char longpw[AUTH_PASS_MAX + 2];
	memset(longpw, 'x', sizeof longpw - 1);
	longpw[sizeof longpw - 1] = '\0';
	assert_int_equal(auth_register(t->s, "Bernd", longpw, NOW, &id), AUTH_BAD_PASSWORD);
	longpw[AUTH_PASS_MAX] = '\0';
	assert_int_equal(auth_register(t->s, "Bernd", longpw, NOW, &id), AUTH_OK);
	assert_int_equal(auth_login(t->s, "bernd", longpw, NOW, &got, &retry), AUTH_OK);
	assert_int_equal(auth_register(t->s, "<b>x</b>", "geheim123", NOW, &id), AUTH_BAD_NAME);
	assert_int_equal(auth_register(t->s, NULL, "geheim123", NOW, &id), AUTH_BAD_NAME);
	assert_int_equal(auth_register(t->s, "Carla", NULL, NOW, &id), AUTH_BAD_PASSWORD);

	for (int rc = 0; rc < AUTH_RC__MAX; rc++)
		assert_true(strlen(auth_message((enum auth_rc)rc)) > 5);
	assert_string_equal(auth_message((enum auth_rc)99), auth_message(AUTH_ERR));
}

static void test_name_validation(void **state)
{
	struct tmpdb *t = *state;
	struct st_user u;
	int64_t id;
	static const char *const good[] = {
		"Anna", "abc", "jörg_1", "a.b-c", "ÄÖÜäöüß", "Łukasz", "Zoë", "123",
		"abcdefghijklmnopqrstuvwx",                           /* 24 */
		"äöüäöüäöüäöüäöüäöüäöüäöü",                           /* 24 two-byte letters */
	};
	static const char *const bad[] = {
		"", "ab", "abcdefghijklmnopqrstuvwxy",                /* 25 */
		"äöüäöüäöüäöüäöüäöüäöüäöüä",                          /* 25 letters */
		"<script>", "Tom&Jerry", "O'Neil", "x\"y\"z", "a b c", "tab\there", "new\nline",
		"a/b/c", "a;b;c", "100%", "über©", "a×b", "a÷b",
		"\xc3", "ab\xc3", "ab\xc3\x28", "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac", /* €€€ */
		"\xf0\x9f\x98\x80xy",                                 /* emoji */
		"\xd0\x90\xd0\xbd\xd0\xbd\xd0\xb0",                   /* Cyrillic look-alike */
		"\300\274ab",                                        /* overlong '<' */
	};
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
		assert_int_equal(auth_name_valid(good[i]), 1);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(auth_name_valid(bad[i]), 0);
		assert_int_equal(auth_register(t->s, bad[i], "geheim123", NOW, &id), AUTH_BAD_NAME);
	}
	assert_int_equal(auth_name_valid(NULL), 0);

	/* The longest name round-trips through the store intact. */
	const char *longest = good[9];
	assert_int_equal(auth_register(t->s, longest, "geheim123", NOW, &id), AUTH_OK);
	assert_int_equal(store_user_by_id(t->s, id, &u), ST_OK);
	assert_string_equal(u.name, longest);
	assert_int_equal(auth_register(t->s, "ÄÖÜÄÖÜÄÖÜÄÖÜÄÖÜÄÖÜÄÖÜÄÖÜ", "geheim123", NOW, &id),
			 AUTH_NAME_TAKEN);
}

static void test_throttling(void **state)
{
	struct tmpdb *t = *state;
	int64_t id = 0, got = 0, now = NOW;
	int retry = -1;
	struct timespec t0;

	assert_int_equal(auth_register(t->s, "Dora", "richtig12", now, &id), AUTH_OK);
	/* Every failure costs a fixed delay. */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < AUTH_FAIL_FREE; i++) {
		assert_int_equal(auth_login(t->s, "Dora", "falsch123", now, &got, &retry), AUTH_WRONG);
		now += 1000;
	}
	assert_true(seconds_since(&t0) >= 0.15 * AUTH_FAIL_FREE);

	/* Now even the right password waits, and says how long. */
	assert_int_equal(auth_login(t->s, "Dora", "richtig12", now - 1000, &got, &retry),
			 AUTH_THROTTLED);
	assert_true(retry > 0);
	int first_wait = retry;
	/* Other names are not affected. */
	assert_int_equal(auth_register(t->s, "Emil", "richtig12", now, &id), AUTH_OK);
	assert_int_equal(auth_login(t->s, "Emil", "richtig12", now, &got, &retry), AUTH_OK);

	/* After the wait one more try is allowed; failing it makes the wait longer. */
	now = now - 1000 + (int64_t)first_wait * 1000;
	assert_int_equal(auth_login(t->s, "dora", "falsch123", now, &got, &retry), AUTH_WRONG);
	assert_int_equal(auth_login(t->s, "Dora", "richtig12", now, &got, &retry), AUTH_THROTTLED);
	assert_true(retry > first_wait);
	now += (int64_t)retry * 1000;
	/* A throttled attempt is not counted: the wait does not grow by asking. */
	assert_int_equal(auth_login(t->s, "Dora", "richtig12", now, &got, &retry), AUTH_OK);
	/* Success clears the record. */
	assert_int_equal(auth_login(t->s, "Dora", "falsch123", now, &got, &retry), AUTH_WRONG);
	assert_int_equal(auth_login(t->s, "Dora", "richtig12", now, &got, &retry), AUTH_OK);

	/* Unknown names are throttled alike (no hint that a name exists). */
	for (int i = 0; i < AUTH_FAIL_FREE; i++)
		assert_int_equal(auth_login(t->s, "Geist", "falsch123", now, &got, &retry),
				 AUTH_WRONG);
	assert_int_equal(auth_login(t->s, "Geist", "falsch123", now, &got, &retry),
			 AUTH_THROTTLED);
	/* Failures older than the window no longer count. */
	now += (int64_t)AUTH_FAIL_WINDOW_S * 1000 + 1;
	assert_int_equal(auth_login(t->s, "Geist", "falsch123", now, &got, &retry), AUTH_WRONG);
}

static void test_sessions(void **state)
{
	struct tmpdb *t = *state;
	char tok[AUTH_TOKEN_LEN + 1], csrf[AUTH_TOKEN_LEN + 1], csrf2[AUTH_TOKEN_LEN + 1];
	char tok2[AUTH_TOKEN_LEN + 1];
	int64_t id = 0, got = 0;

	assert_int_equal(auth_register(t->s, "Frieda", "geheim123", NOW, &id), AUTH_OK);
	assert_int_equal(auth_session_new(t->s, id, NOW, tok, csrf), AUTH_OK);
	assert_int_equal(strlen(tok), AUTH_TOKEN_LEN);
	assert_int_equal(strlen(csrf), AUTH_TOKEN_LEN);
	assert_string_not_equal(tok, csrf);
	for (const char *p = tok; *p; p++)
		assert_non_null(strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				       "0123456789-_", *p));

	memset(csrf2, 0, sizeof csrf2);
	assert_int_equal(auth_session_get(t->s, tok, NOW + 1000, &got, csrf2), AUTH_OK);
	assert_int_equal(got, id);
	assert_string_equal(csrf2, csrf);
	/* The database holds a 32-byte hash, not the token. */
	sqlite3 *db;
	sqlite3_stmt *q;
	assert_int_equal(sqlite3_open(t->path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT count(*) FROM sessions WHERE "
					    "length(token_hash) = 32 AND instr(token_hash, ?1) = 0",
					    -1, &q, NULL), SQLITE_OK);
	sqlite3_bind_blob(q, 1, tok, AUTH_TOKEN_LEN, SQLITE_STATIC);
	assert_int_equal(sqlite3_step(q), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(q, 0), 1);
	sqlite3_finalize(q);
	sqlite3_close(db);

	/* Expired after AUTH_SESSION_DAYS. */
	int64_t end = NOW + (int64_t)AUTH_SESSION_DAYS * 86400 * 1000;
	assert_int_equal(auth_session_get(t->s, tok, end - 1, &got, csrf2), AUTH_OK);
	assert_int_equal(auth_session_get(t->s, tok, end, &got, csrf2), AUTH_WRONG);

	/* A second session; ending it leaves the first one alone. */
	assert_int_equal(auth_session_new(t->s, id, NOW, tok2, csrf2), AUTH_OK);
	assert_string_not_equal(tok, tok2);
	assert_int_equal(auth_session_end(t->s, tok2), AUTH_OK);
	assert_int_equal(auth_session_get(t->s, tok2, NOW, &got, csrf2), AUTH_WRONG);
	assert_int_equal(auth_session_get(t->s, tok, NOW, &got, csrf2), AUTH_OK);
	assert_int_equal(auth_session_end(t->s, tok2), AUTH_OK);   /* twice is fine */

	/* A new session after expiry purges the old ones. */
	assert_int_equal(auth_session_new(t->s, id, end + 1, tok2, csrf2), AUTH_OK);
	assert_int_equal(auth_session_get(t->s, tok, NOW, &got, csrf2), AUTH_WRONG);
	assert_int_equal(auth_session_get(t->s, tok2, end + 2, &got, csrf2), AUTH_OK);
}

static void test_malformed_tokens(void **state)
{
	struct tmpdb *t = *state;
	char tok[AUTH_TOKEN_LEN + 1], csrf[AUTH_TOKEN_LEN + 1], bad[64];
	int64_t id = 0, got = 0;

	assert_int_equal(auth_register(t->s, "Gustav", "geheim123", NOW, &id), AUTH_OK);
	assert_int_equal(auth_session_new(t->s, id, NOW, tok, csrf), AUTH_OK);

	assert_int_equal(auth_session_get(t->s, NULL, NOW, &got, csrf), AUTH_WRONG);
	assert_int_equal(auth_session_get(t->s, "", NOW, &got, csrf), AUTH_WRONG);
	assert_int_equal(auth_session_get(t->s, "abc", NOW, &got, csrf), AUTH_WRONG);
	/* One character short, one too many. */
	snprintf(bad, sizeof bad, "%.*s", AUTH_TOKEN_LEN - 1, tok);
	assert_int_equal(auth_session_get(t->s, bad, NOW, &got, csrf), AUTH_WRONG);
	snprintf(bad, sizeof bad, "%sA", tok);
	assert_int_equal(auth_session_get(t->s, bad, NOW, &got, csrf), AUTH_WRONG);
	/* Right length, characters outside base64url. */
	static const char swaps[] = "+/=.% \"";
	for (const char *c = swaps; *c; c++) {
		snprintf(bad, sizeof bad, "%s", tok);
		bad[5] = *c;
		assert_int_equal(auth_session_get(t->s, bad, NOW, &got, csrf), AUTH_WRONG);
	}
	/* Well-formed but unknown. */
	snprintf(bad, sizeof bad, "%s", tok);
	bad[0] = bad[0] == 'A' ? 'B' : 'A';
	assert_int_equal(auth_session_get(t->s, bad, NOW, &got, csrf), AUTH_WRONG);
	assert_int_equal(auth_session_end(t->s, "garbage"), AUTH_OK);
	assert_int_equal(auth_session_get(t->s, tok, NOW, &got, csrf), AUTH_OK);
}

static void test_csrf(void **state)
{
	(void)state;
	char a[AUTH_TOKEN_LEN + 1], b[AUTH_TOKEN_LEN + 1];
	snprintf(a, sizeof a, "%s", "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcd");
	snprintf(b, sizeof b, "%s", a);
	assert_int_equal(auth_csrf_ok(a, b), 1);
	b[AUTH_TOKEN_LEN - 2] ^= 1;
	assert_int_equal(auth_csrf_ok(a, b), 0);
	b[AUTH_TOKEN_LEN - 2] ^= 1;
	b[0] = 'x';
	assert_int_equal(auth_csrf_ok(a, b), 0);
	assert_int_equal(auth_csrf_ok(a, ""), 0);
	assert_int_equal(auth_csrf_ok("", ""), 0);
	assert_int_equal(auth_csrf_ok(a, NULL), 0);
	assert_int_equal(auth_csrf_ok(NULL, a), 0);
	assert_int_equal(auth_csrf_ok(a, "AbCd"), 0);          /* a prefix is not enough */
	char longer[64];
	snprintf(longer, sizeof longer, "%sX", a);
	assert_int_equal(auth_csrf_ok(a, longer), 0);
}

static void test_random_seed(void **state)
{
	(void)state;
	uint64_t a = auth_random_seed(), b = auth_random_seed(), c = auth_random_seed();
	assert_false(a == b && b == c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_register_and_login, setup_db, teardown_db),
		cmocka_unit_test_setup_teardown(test_name_validation, setup_db, teardown_db),
		cmocka_unit_test_setup_teardown(test_throttling, setup_db, teardown_db),
		cmocka_unit_test_setup_teardown(test_sessions, setup_db, teardown_db),
		cmocka_unit_test_setup_teardown(test_malformed_tokens, setup_db, teardown_db),
		cmocka_unit_test(test_csrf),
		cmocka_unit_test(test_random_seed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
