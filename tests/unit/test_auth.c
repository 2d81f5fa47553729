/* test_auth.c — accounts, login throttling, sessions and CSRF tokens. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "auth.h"
#include "tmpdb.h"

enum { T0 = 1700000000 };   /* seconds; tests pass ms = T0 * 1000 + offset */
static const int64_t NOW = (int64_t)T0 * 1000;
static const char ADDR[] = "192.0.2.1";     /* the client's address (REMOTE_ADDR) */

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

	assert_int_equal(auth_login(t->s, "Anna", "geheim123", ADDR, NOW, &got, &retry), AUTH_OK);
	assert_int_equal(got, id);
	assert_int_equal(retry, 0);
	assert_int_equal(auth_login(t->s, "aNNA", "geheim123", ADDR, NOW, &got, &retry), AUTH_OK);
	assert_int_equal(got, id);

	got = 0;
	assert_int_equal(auth_login(t->s, "Anna", "geheim124", ADDR, NOW, &got, &retry), AUTH_WRONG);
	assert_int_equal(got, 0);
	assert_int_equal(auth_login(t->s, "Niemand", "geheim123", ADDR, NOW, &got, &retry), AUTH_WRONG);
	assert_int_equal(auth_login(t->s, "Anna", "", ADDR, NOW, &got, &retry), AUTH_WRONG);

	assert_int_equal(auth_register(t->s, "ANNA", "anderes12", NOW, &id), AUTH_NAME_TAKEN);
	assert_int_equal(auth_register(t->s, "Bernd", "kurz", NOW, &id), AUTH_BAD_PASSWORD);
	char longpw[AUTH_PASS_MAX + 2];
	memset(longpw, 'x', sizeof longpw - 1);
	longpw[sizeof longpw - 1] = '\0';
	assert_int_equal(auth_register(t->s, "Bernd", longpw, NOW, &id), AUTH_BAD_PASSWORD);
	longpw[AUTH_PASS_MAX] = '\0';
	assert_int_equal(auth_register(t->s, "Bernd", longpw, NOW, &id), AUTH_OK);
	assert_int_equal(auth_login(t->s, "bernd", longpw, ADDR, NOW, &got, &retry), AUTH_OK);
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
	/* No failure sleeps in the worker (it used to cost 200 ms each): a
	 * delay is a refusal with a time to wait, not a worker held. */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < AUTH_FAIL_FREE; i++) {
		assert_int_equal(auth_login(t->s, "Dora", "falsch123", ADDR, now, &got, &retry),
				 AUTH_WRONG);
		now += 1000;
	}
	assert_true(seconds_since(&t0) < 0.1 * AUTH_FAIL_FREE);

	/* Now even the right password waits, and says how long. */
	assert_int_equal(auth_login(t->s, "Dora", "richtig12", ADDR, now - 1000, &got, &retry),
			 AUTH_THROTTLED);
	assert_true(retry > 0);
	int first_wait = retry;
	/* Other names are not affected. */
	assert_int_equal(auth_register(t->s, "Emil", "richtig12", now, &id), AUTH_OK);
	assert_int_equal(auth_login(t->s, "Emil", "richtig12", ADDR, now, &got, &retry), AUTH_OK);

	/* After the wait one more try is allowed; failing it makes the wait longer. */
	now = now - 1000 + (int64_t)first_wait * 1000;
	assert_int_equal(auth_login(t->s, "dora", "falsch123", ADDR, now, &got, &retry), AUTH_WRONG);
	assert_int_equal(auth_login(t->s, "Dora", "richtig12", ADDR, now, &got, &retry), AUTH_THROTTLED);
	assert_true(retry > first_wait);
	now += (int64_t)retry * 1000;
	/* A throttled attempt is not counted: the wait does not grow by asking. */
	assert_int_equal(auth_login(t->s, "Dora", "richtig12", ADDR, now, &got, &retry), AUTH_OK);
	/* Success clears the record. */
	assert_int_equal(auth_login(t->s, "Dora", "falsch123", ADDR, now, &got, &retry), AUTH_WRONG);
	assert_int_equal(auth_login(t->s, "Dora", "richtig12", ADDR, now, &got, &retry), AUTH_OK);

	/* Unknown names are throttled alike (no hint that a name exists). */
	for (int i = 0; i < AUTH_FAIL_FREE; i++)
		assert_int_equal(auth_login(t->s, "Geist", "falsch123", ADDR, now, &got, &retry),
				 AUTH_WRONG);
	assert_int_equal(auth_login(t->s, "Geist", "falsch123", ADDR, now, &got, &retry),
			 AUTH_THROTTLED);
	/* Failures older than the window no longer count. */
	now += (int64_t)AUTH_FAIL_WINDOW_S * 1000 + 1;
	assert_int_equal(auth_login(t->s, "Geist", "falsch123", ADDR, now, &got, &retry), AUTH_WRONG);
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
	char name[ST_NAME_MAX + 1] = "";
	assert_int_equal(auth_session_get(t->s, tok, NOW + 1000, &got, csrf2, name), AUTH_OK);
	assert_int_equal(got, id);
	assert_string_equal(csrf2, csrf);
	assert_true(name[0] != '\0');   /* the user's name, read with the session */
	/* The database holds a 32-byte hash, not the token (SQLite's file). */
	if (tmpdb_pg())
		goto expiry;
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

expiry:
	/* Expired after AUTH_SESSION_DAYS. */
	int64_t end = NOW + (int64_t)AUTH_SESSION_DAYS * 86400 * 1000;
	assert_int_equal(auth_session_get(t->s, tok, end - 1, &got, csrf2, NULL), AUTH_OK);
	assert_int_equal(auth_session_get(t->s, tok, end, &got, csrf2, NULL), AUTH_WRONG);

	/* A second session; ending it leaves the first one alone. */
	assert_int_equal(auth_session_new(t->s, id, NOW, tok2, csrf2), AUTH_OK);
	assert_string_not_equal(tok, tok2);
	assert_int_equal(auth_session_end(t->s, tok2), AUTH_OK);
	assert_int_equal(auth_session_get(t->s, tok2, NOW, &got, csrf2, NULL), AUTH_WRONG);
	assert_int_equal(auth_session_get(t->s, tok, NOW, &got, csrf2, NULL), AUTH_OK);
	assert_int_equal(auth_session_end(t->s, tok2), AUTH_OK);   /* twice is fine */

	/* A new session after expiry purges the old ones. */
	assert_int_equal(auth_session_new(t->s, id, end + 1, tok2, csrf2), AUTH_OK);
	assert_int_equal(auth_session_get(t->s, tok, NOW, &got, csrf2, NULL), AUTH_WRONG);
	assert_int_equal(auth_session_get(t->s, tok2, end + 2, &got, csrf2, NULL), AUTH_OK);
}

static void test_malformed_tokens(void **state)
{
	struct tmpdb *t = *state;
	char tok[AUTH_TOKEN_LEN + 1], csrf[AUTH_TOKEN_LEN + 1], bad[64];
	int64_t id = 0, got = 0;

	assert_int_equal(auth_register(t->s, "Gustav", "geheim123", NOW, &id), AUTH_OK);
	assert_int_equal(auth_session_new(t->s, id, NOW, tok, csrf), AUTH_OK);

	assert_int_equal(auth_session_get(t->s, NULL, NOW, &got, csrf, NULL), AUTH_WRONG);
	assert_int_equal(auth_session_get(t->s, "", NOW, &got, csrf, NULL), AUTH_WRONG);
	assert_int_equal(auth_session_get(t->s, "abc", NOW, &got, csrf, NULL), AUTH_WRONG);
	/* One character short, one too many. */
	snprintf(bad, sizeof bad, "%.*s", AUTH_TOKEN_LEN - 1, tok);
	assert_int_equal(auth_session_get(t->s, bad, NOW, &got, csrf, NULL), AUTH_WRONG);
	snprintf(bad, sizeof bad, "%sA", tok);
	assert_int_equal(auth_session_get(t->s, bad, NOW, &got, csrf, NULL), AUTH_WRONG);
	/* Right length, characters outside base64url. */
	static const char swaps[] = "+/=.% \"";
	for (const char *c = swaps; *c; c++) {
		snprintf(bad, sizeof bad, "%s", tok);
		bad[5] = *c;
		assert_int_equal(auth_session_get(t->s, bad, NOW, &got, csrf, NULL), AUTH_WRONG);
	}
	/* A byte above 127 where the token has '_': libsodium's decoder read
	 * every such byte as '_' (63), so the altered cookie logged in as the
	 * token itself; only base64url's own characters are read now. */
	char *under = NULL;
	for (int tries = 0; tries < 64 && !(under = strchr(tok, '_')); tries++)
		assert_int_equal(auth_session_new(t->s, id, NOW, tok, csrf), AUTH_OK);
	assert_non_null(under);
	snprintf(bad, sizeof bad, "%s", tok);
	bad[under - tok] = (char)0xc1;
	assert_int_equal(auth_session_get(t->s, bad, NOW, &got, csrf, NULL), AUTH_WRONG);
	bad[under - tok] = (char)0xff;
	assert_int_equal(auth_session_get(t->s, bad, NOW, &got, csrf, NULL), AUTH_WRONG);
	/* Well-formed but unknown. */
	snprintf(bad, sizeof bad, "%s", tok);
	bad[0] = bad[0] == 'A' ? 'B' : 'A';
	assert_int_equal(auth_session_get(t->s, bad, NOW, &got, csrf, NULL), AUTH_WRONG);
	assert_int_equal(auth_session_end(t->s, "garbage"), AUTH_OK);
	assert_int_equal(auth_session_get(t->s, tok, NOW, &got, csrf, NULL), AUTH_OK);
}

/* A token's hash is kept once read (by a keyed digest of the token, in
 * slots that many tokens share): each of many sessions' tokens, read again
 * and again in other orders, still finds its own session; an ended session
 * none though its token was read before; a token one character off none. */
static void test_token_memo(void **state)
{
	struct tmpdb *t = *state;
	enum { N = 150 };
	static char tok[N][AUTH_TOKEN_LEN + 1];
	char csrf[AUTH_TOKEN_LEN + 1], bad[AUTH_TOKEN_LEN + 1];
	int64_t id[2] = { 0, 0 }, got = 0;

	assert_int_equal(auth_register(t->s, "Hanna", "geheim123", NOW, &id[0]), AUTH_OK);
	assert_int_equal(auth_register(t->s, "Ida", "geheim123", NOW, &id[1]), AUTH_OK);
	for (int i = 0; i < N; i++)
		assert_int_equal(auth_session_new(t->s, id[i & 1], NOW, tok[i], csrf), AUTH_OK);
	for (int round = 0; round < 3; round++)
		for (int k = 0; k < N; k++) {
			int i = round == 1 ? N - 1 - k : round == 2 ? (k * 37) % N : k;
			got = 0;
			assert_int_equal(auth_session_get(t->s, tok[i], NOW, &got, csrf, NULL),
					 AUTH_OK);
			assert_int_equal(got, id[i & 1]);
		}
	assert_int_equal(auth_session_end(t->s, tok[7]), AUTH_OK);
	assert_int_equal(auth_session_get(t->s, tok[7], NOW, &got, csrf, NULL), AUTH_WRONG);
	assert_int_equal(auth_session_get(t->s, tok[8], NOW, &got, csrf, NULL), AUTH_OK);
	assert_int_equal(got, id[0]);
	for (int i = 0; i < N; i++) {
		memcpy(bad, tok[i], sizeof bad);
		bad[0] = bad[0] == 'A' ? 'B' : 'A';
		assert_int_equal(auth_session_get(t->s, bad, NOW, &got, csrf, NULL), AUTH_WRONG);
		bad[0] = tok[i][0];
		bad[AUTH_TOKEN_LEN - 1] = (char)0xff;
		assert_int_equal(auth_session_get(t->s, bad, NOW, &got, csrf, NULL), AUTH_WRONG);
	}
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

/* The address key: IPv4 as is, IPv6 by its /64, mapped IPv4 as IPv4,
 * anything else one shared key. */
static void test_addr_key(void **state)
{
	(void)state;
	char k[AUTH_ADDR_MAX];
	auth_addr_key("192.0.2.1", k);
	assert_string_equal(k, "192.0.2.1");
	auth_addr_key("::ffff:192.0.2.1", k);
	assert_string_equal(k, "192.0.2.1");
	auth_addr_key("2001:db8:1:2:aaaa:bbbb:cccc:dddd", k);
	assert_string_equal(k, "2001:db8:1:2::/64");
	auth_addr_key("2001:db8:1:2::7", k);
	assert_string_equal(k, "2001:db8:1:2::/64");
	const char *odd[] = { NULL, "", "unix:", "999.1.1.1", "192.0.2.1 ", "x' OR 1=1" };
	for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
		auth_addr_key(odd[i], k);
		assert_string_equal(k, "-");
	}
}

/* Guessing at one address never locks the owner out at another; and an
 * address that fails for many names is throttled as a whole. */
static void test_throttle_per_address(void **state)
{
	struct tmpdb *t = *state;
	int64_t id = 0, got = 0, now = NOW;
	int retry = 0;
	char name[32];
	assert_int_equal(auth_register(t->s, "Ida", "richtig12", now, &id), AUTH_OK);
	for (int i = 0; i < 3 * AUTH_FAIL_FREE; i++)
		assert_int_not_equal(auth_login(t->s, "Ida", "falsch123", "198.51.100.7", now, &got,
						&retry), AUTH_OK);
	assert_int_equal(auth_login(t->s, "Ida", "richtig12", "198.51.100.7", now, &got, &retry),
			 AUTH_THROTTLED);
	/* the owner at home: at once, every time */
	for (int i = 0; i < 3; i++) {
		got = 0;
		assert_int_equal(auth_login(t->s, "ida", "richtig12", ADDR, now, &got, &retry), AUTH_OK);
		assert_int_equal(got, id);
	}
	/* the guesser's success elsewhere did not reset the guesser's record */
	assert_int_equal(auth_login(t->s, "Ida", "richtig12", "198.51.100.7", now, &got, &retry),
			 AUTH_THROTTLED);
	/* fresh names from one address: AUTH_ADDR_FREE failures, then the
	 * address waits, whatever name it tries; another address does not */
	const char *spray = "2001:db8:5::1";
	for (int i = 0; i < AUTH_ADDR_FREE; i++) {
		snprintf(name, sizeof name, "frisch%d", i);
		assert_int_equal(auth_login(t->s, name, "falsch123", spray, now, &got, &retry),
				 AUTH_WRONG);
	}
	/* another host of the same /64 is the same client */
	assert_int_equal(auth_login(t->s, "Ida", "richtig12", "2001:db8:5::9", now, &got, &retry),
			 AUTH_THROTTLED);
	int wait = retry;
	assert_true(wait > 0);
	assert_int_equal(auth_login(t->s, "Ida", "richtig12", "2001:db8:6::1", now, &got, &retry),
			 AUTH_OK);
	/* and the address's wait runs out */
	now += (int64_t)wait * 1000;
	assert_int_equal(auth_login(t->s, "Ida", "richtig12", spray, now, &got, &retry), AUTH_OK);
}

/* With every hashing slot taken (by another worker), a login or a
 * registration is refused at once with AUTH_BUSY and nothing is counted. */
static void test_hash_slots(void **state)
{
	TMPDB_SQLITE_ONLY();
	struct tmpdb *t = *state;
	int64_t id = 0, got = 0;
	int retry = 0, n = -1;
	char lock[sizeof t->path + 8];
	assert_int_equal(auth_register(t->s, "Jana", "richtig12", NOW, &id), AUTH_OK);
	assert_int_equal(auth_hash_slots(t->path, 1), 0);
	snprintf(lock, sizeof lock, "%s-hash0", t->path);
	int fd = open(lock, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);   /* "another worker" hashes */
	assert_int_equal(auth_login(t->s, "Jana", "falsch123", ADDR, NOW, &got, &retry), AUTH_BUSY);
	assert_int_equal(retry, AUTH_BUSY_RETRY_S);
	assert_int_equal(auth_register(t->s, "Kurt", "richtig12", NOW, &id), AUTH_BUSY);
	assert_int_equal(store_login_failures(t->s, "Jana", 0, &n), ST_OK);
	assert_int_equal(n, 0);
	flock(fd, LOCK_UN);
	assert_int_equal(auth_login(t->s, "Jana", "richtig12", ADDR, NOW, &got, &retry), AUTH_OK);
	assert_int_equal(auth_register(t->s, "Kurt", "richtig12", NOW, &id), AUTH_OK);
	close(fd);
	assert_int_equal(auth_hash_slots(t->path, 0), 0);
}

/* Parallel wrong guesses for one name from one address, each in its own
 * process with its own connection and the real argon2 cost: no more than
 * AUTH_FAIL_FREE of them get their password checked (the throttle reads
 * and records in one transaction); the rest are refused. */
static void test_throttle_race(void **state)
{
	enum { RACERS = 8 };
	struct tmpdb *t = *state;
	int64_t id = 0;
	int go[2], wrong = 0, throttled = 0;
	pid_t kids[RACERS];
	unsetenv("SPIELTISCH_FAST_HASH");   /* the real cost: a wide window */
	assert_int_equal(auth_register(t->s, "Lena", "richtig12", NOW, &id), AUTH_OK);
	setenv("SPIELTISCH_FAST_HASH", "1", 1);
	assert_int_equal(pipe(go), 0);
	for (int i = 0; i < RACERS; i++) {
		kids[i] = fork();
		assert_true(kids[i] >= 0);
		if (kids[i] == 0) {
			struct store *s = NULL;
			char c;
			int64_t got;
			int retry;
			close(go[1]);
			if (store_open(&s, t->path, t->schema) != ST_OK || read(go[0], &c, 1) != 1)
				_exit(100);
			int rc = auth_login(s, "Lena", "falsch123", ADDR, NOW, &got, &retry);
			store_close(s);
			_exit(rc);
		}
	}
	close(go[0]);
	char all[RACERS] = { 0 };
	assert_int_equal(write(go[1], all, RACERS), RACERS);
	close(go[1]);
	for (int i = 0; i < RACERS; i++) {
		int st = 0;
		assert_int_equal(waitpid(kids[i], &st, 0), kids[i]);
		assert_true(WIFEXITED(st));
		wrong += WEXITSTATUS(st) == AUTH_WRONG;
		throttled += WEXITSTATUS(st) == AUTH_THROTTLED;
	}
	fprintf(stderr, "test_auth: %d parallel guesses: %d checked, %d throttled\n", RACERS, wrong,
		throttled);
	assert_int_equal(wrong + throttled, RACERS);
	assert_true(wrong <= AUTH_FAIL_FREE);
}

/* A school behind one address: correct logins never count, however many;
 * once others there failed AUTH_ADDR_FREE times, the names that logged in
 * from there before still get in (their own budget only), while a name
 * never seen there waits: guessing many names stays slowed. */
static void test_school_behind_one_address(void **state)
{
	struct tmpdb *t = *state;
	int64_t id = 0, got = 0, now = NOW;
	int retry = 0;
	const char *school = "203.0.113.5";
	assert_int_equal(auth_register(t->s, "Lehrerin", "richtig12", now, &id), AUTH_OK);
	assert_int_equal(auth_register(t->s, "Schüler", "richtig12", now, &id), AUTH_OK);
	assert_int_equal(auth_register(t->s, "Neuling", "richtig12", now, &id), AUTH_OK);
	for (int i = 0; i < 3 * AUTH_ADDR_FREE; i++)
		assert_int_equal(auth_login(t->s, "Lehrerin", "richtig12", school, now + i, &got,
					    &retry), AUTH_OK);
	now += 1000;
	assert_int_equal(auth_login(t->s, "Schüler", "richtig12", school, now, &got, &retry),
			 AUTH_OK);
	char name[32];
	for (int i = 0; i < AUTH_ADDR_FREE; i++) {
		snprintf(name, sizeof name, "tippfehler%d", i);
		assert_int_equal(auth_login(t->s, name, "falsch123", school, now, &got, &retry),
				 AUTH_WRONG);
	}
	assert_int_equal(auth_login(t->s, "Neuling", "richtig12", school, now, &got, &retry),
			 AUTH_THROTTLED);
	assert_true(retry > 0);
	assert_int_equal(auth_login(t->s, "lehrerin", "richtig12", school, now, &got, &retry),
			 AUTH_OK);
	assert_int_equal(auth_login(t->s, "Schüler", "vertippt1", school, now, &got, &retry),
			 AUTH_WRONG);
	assert_int_equal(auth_login(t->s, "Schüler", "richtig12", school, now, &got, &retry),
			 AUTH_OK);
	/* known means lately: after AUTH_KNOWN_DAYS the name is a stranger again */
	int64_t later = now + (int64_t)(AUTH_KNOWN_DAYS + 1) * 86400 * 1000;
	for (int i = 0; i < AUTH_ADDR_FREE; i++) {
		snprintf(name, sizeof name, "tippfehler%d", i);
		assert_int_equal(auth_login(t->s, name, "falsch123", school, later, &got, &retry),
				 AUTH_WRONG);
	}
	assert_int_equal(auth_login(t->s, "Lehrerin", "richtig12", school, later, &got, &retry),
			 AUTH_THROTTLED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_register_and_login, setup_db, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_name_validation, setup_db, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_throttling, setup_db, tmpdb_teardown),
		cmocka_unit_test(test_addr_key),
		cmocka_unit_test_setup_teardown(test_throttle_per_address, setup_db, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_school_behind_one_address, setup_db,
						tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_hash_slots, setup_db, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_throttle_race, setup_db, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_sessions, setup_db, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_malformed_tokens, setup_db, tmpdb_teardown),
		cmocka_unit_test_setup_teardown(test_token_memo, setup_db, tmpdb_teardown),
		cmocka_unit_test(test_csrf),
		cmocka_unit_test(test_random_seed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
