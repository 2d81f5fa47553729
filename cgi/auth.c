/*
 * auth.c — accounts, sessions and CSRF tokens with libsodium.
 *
 * Password hashes: argon2id at the interactive limits (about 64 MiB and a
 * few tens of milliseconds); with SPIELTISCH_FAST_HASH=1 in the environment
 * (tests only) the minimum limits. Cookie tokens are 32 random bytes in
 * base64url; the database keeps only their SHA-256, so a leaked database
 * does not log anybody in. Times are milliseconds.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "auth.h"

enum { FAIL_DELAY_MS = 200, TOKEN_BYTES = 32 };
_Static_assert(sodium_base64_ENCODED_LEN(TOKEN_BYTES, sodium_base64_VARIANT_URLSAFE_NO_PADDING)
	       == AUTH_TOKEN_LEN + 1, "32 bytes are 43 base64url characters");
_Static_assert((int)ST_CSRF_LEN == (int)AUTH_TOKEN_LEN, "the store keeps the whole CSRF token");
_Static_assert((int)AUTH_NAME_MAX * 2 <= (int)ST_NAME_MAX, "a name's bytes fit the store");
_Static_assert(crypto_pwhash_STRBYTES <= ST_HASH_MAX + 1, "a hash fits the store");

static const char *const messages[] = {
	[AUTH_OK] = "Angemeldet.",
	[AUTH_BAD_NAME] = ("Der Name muss 3 bis 24 Zeichen lang sein: Buchstaben, Ziffern, "
			   "'-', '_' oder '.'."),
	[AUTH_BAD_PASSWORD] = "Das Passwort muss 8 bis 128 Zeichen lang sein.",
	[AUTH_NAME_TAKEN] = "Dieser Name ist schon vergeben.",
	[AUTH_WRONG] = "Name oder Passwort stimmt nicht.",
	[AUTH_THROTTLED] = "Zu viele Fehlversuche: bitte etwas warten.",
	[AUTH_ERR] = "Interner Fehler, bitte später noch einmal versuchen.",
};
_Static_assert(sizeof messages / sizeof messages[0] == AUTH_RC__MAX, "one message per code");

/* A static German sentence for rc; never NULL. */
const char *auth_message(enum auth_rc rc)
{
	if ((int)rc < 0 || rc >= AUTH_RC__MAX)
		return messages[AUTH_ERR];
	return messages[rc];
}

/* 0, or -1 when libsodium cannot start (no random source): the program
 * should not serve then. */
int auth_init(void)
{
	return sodium_init() < 0 ? -1 : 0;
}

/* Length in bytes of one accepted name character at p, or 0: ASCII letters
 * and digits, '-', '_', '.', and the letters of Latin-1 and Latin
 * Extended-A (ä, ß, é, ł, …). Nothing that means anything in HTML, no
 * spaces, no control characters, no look-alike scripts. */
static size_t name_char(const unsigned char *p)
{
	if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
	    *p == '-' || *p == '_' || *p == '.')
		return 1;
	if ((p[0] & 0xE0) == 0xC0 && (p[1] & 0xC0) == 0x80) {
		unsigned cp = ((p[0] & 0x1Fu) << 6) | (p[1] & 0x3Fu);
		if (cp >= 0xC0 && cp <= 0x17F && cp != 0xD7 && cp != 0xF7)
			return 2;
	}
	return 0;
}

/* 1 when name is 3..24 accepted characters, else 0. */
int auth_name_valid(const char *name)
{
	const unsigned char *p = (const unsigned char *)name;
	int chars = 0;
	if (!p)
		return 0;
	while (*p) {
		size_t n = name_char(p);
		if (n == 0 || ++chars > AUTH_NAME_MAX)
			return 0;
		p += n;
	}
	return chars >= AUTH_NAME_MIN;
}

/* 1 for AUTH_PASS_MIN..AUTH_PASS_MAX bytes (any bytes: the hash does not care). */
static int password_valid(const char *pw)
{
	size_t n = pw ? strlen(pw) : 0;
	return n >= AUTH_PASS_MIN && n <= AUTH_PASS_MAX;
}

/* 1 when SPIELTISCH_FAST_HASH=1 (tests): minimum argon2 limits. */
static int fast_hash(void)
{
	const char *v = getenv("SPIELTISCH_FAST_HASH");
	return v && strcmp(v, "1") == 0;
}

/* argon2id string of pw into out; -1 when the memory for it is missing. */
static int hash_password(const char *pw, char out[crypto_pwhash_STRBYTES])
{
	unsigned long long ops = fast_hash() ? crypto_pwhash_OPSLIMIT_MIN
					     : crypto_pwhash_OPSLIMIT_INTERACTIVE;
	size_t mem = fast_hash() ? crypto_pwhash_MEMLIMIT_MIN : crypto_pwhash_MEMLIMIT_INTERACTIVE;
	return crypto_pwhash_str_alg(out, pw, strlen(pw), ops, mem, crypto_pwhash_ALG_ARGON2ID13);
}

/* A new account. AUTH_BAD_NAME / AUTH_BAD_PASSWORD / AUTH_NAME_TAKEN are the
 * user's to fix (a 200 with the form again); AUTH_ERR is a 500. */
int auth_register(struct store *s, const char *name, const char *password, int64_t now_ms,
		  int64_t *user_id)
{
	char hash[crypto_pwhash_STRBYTES];
	struct st_user u;
	if (!auth_name_valid(name))
		return AUTH_BAD_NAME;
	if (!password_valid(password))
		return AUTH_BAD_PASSWORD;
	int rc = store_user_by_name(s, name, &u);
	if (rc == ST_OK)
		return AUTH_NAME_TAKEN;
	if (rc != ST_NOTFOUND)
		return AUTH_ERR;
	if (hash_password(password, hash) != 0)
		return AUTH_ERR;
	rc = store_user_create(s, name, hash, now_ms, user_id);
	sodium_memzero(hash, sizeof hash);
	if (rc == ST_EXISTS)
		return AUTH_NAME_TAKEN;
	return rc == ST_OK ? AUTH_OK : AUTH_ERR;
}

/* Sleeps ms, resuming after signals. */
static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0)
		;
}

/* Seconds a name must wait after `count` failures in the window: nothing
 * up to AUTH_FAIL_FREE - 1, then 2, 4, 8, … up to the window. */
static int64_t penalty_s(int count)
{
	if (count < AUTH_FAIL_FREE)
		return 0;
	int shift = count - AUTH_FAIL_FREE + 1;
	if (shift > 20)
		return AUTH_FAIL_WINDOW_S;
	int64_t d = (int64_t)1 << shift;
	return d > AUTH_FAIL_WINDOW_S ? AUTH_FAIL_WINDOW_S : d;
}

/* Checks name and password. AUTH_THROTTLED (with *retry_s) when the name
 * failed AUTH_FAIL_FREE times or more in the window and its penalty has
 * not run out; the password is not even looked at then. Unknown names and
 * wrong passwords are the same AUTH_WRONG, cost the same argon2 time and a
 * fixed delay, and count as failures. A 200 with the form in every case
 * but AUTH_ERR (500). */
int auth_login(struct store *s, const char *name, const char *password, int64_t now_ms,
	       int64_t *user_id, int *retry_s)
{
	struct st_user u;
	int count = 0, rc;
	int64_t last = 0;

	if (retry_s)
		*retry_s = 0;
	if (!name || !password || strlen(name) > ST_NAME_MAX || strlen(password) > AUTH_PASS_MAX)
		return AUTH_WRONG;
	if (store_login_failures_last(s, name, now_ms - (int64_t)AUTH_FAIL_WINDOW_S * 1000, &count,
				      &last) != ST_OK)
		return AUTH_ERR;
	int64_t until = last + penalty_s(count) * 1000;
	if (count >= AUTH_FAIL_FREE && now_ms < until) {
		if (retry_s)
			*retry_s = (int)((until - now_ms + 999) / 1000);
		return AUTH_THROTTLED;
	}

	rc = store_user_by_name(s, name, &u);
	if (rc != ST_OK && rc != ST_NOTFOUND)
		return AUTH_ERR;
	int ok;
	if (rc == ST_OK) {
		ok = crypto_pwhash_str_verify(u.pwhash, password, strlen(password)) == 0;
	} else {
		char dummy[crypto_pwhash_STRBYTES];
		if (hash_password(password, dummy) != 0)
			return AUTH_ERR;
		ok = 0;
	}
	if (ok) {
		if (store_login_clear(s, name) != ST_OK)
			return AUTH_ERR;
		if (user_id)
			*user_id = u.id;
		return AUTH_OK;
	}
	if (store_login_failed(s, name, now_ms) != ST_OK)
		return AUTH_ERR;
	sleep_ms(FAIL_DELAY_MS);
	return AUTH_WRONG;
}

/* 32 random bytes as 43 characters of base64url into out. */
static void random_token(unsigned char raw[TOKEN_BYTES], char out[AUTH_TOKEN_LEN + 1])
{
	randombytes_buf(raw, TOKEN_BYTES);
	sodium_bin2base64(out, AUTH_TOKEN_LEN + 1, raw, TOKEN_BYTES,
			  sodium_base64_VARIANT_URLSAFE_NO_PADDING);
}

/* The SHA-256 of a cookie token's bytes; -1 when the token is not exactly
 * 43 characters of base64url for 32 bytes. */
static int token_hash(const char *token, unsigned char hash[crypto_hash_sha256_BYTES])
{
	unsigned char raw[TOKEN_BYTES];
	size_t len = 0;
	const char *end = NULL;
	if (!token || strlen(token) != AUTH_TOKEN_LEN)
		return -1;
	if (sodium_base642bin(raw, sizeof raw, token, AUTH_TOKEN_LEN, NULL, &len, &end,
			      sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0 ||
	    len != TOKEN_BYTES || end != token + AUTH_TOKEN_LEN)
		return -1;
	crypto_hash_sha256(hash, raw, sizeof raw);
	sodium_memzero(raw, sizeof raw);
	return 0;
}

/* A new session for user_id, valid AUTH_SESSION_DAYS; also forgets expired
 * sessions and old failures. The caller sets the cookie from token. */
int auth_session_new(struct store *s, int64_t user_id, int64_t now_ms,
		     char token[AUTH_TOKEN_LEN + 1], char csrf[AUTH_TOKEN_LEN + 1])
{
	unsigned char raw[TOKEN_BYTES], csrf_raw[TOKEN_BYTES], hash[crypto_hash_sha256_BYTES];
	int64_t expires = now_ms + (int64_t)AUTH_SESSION_DAYS * 86400 * 1000;

	if (store_session_purge(s, now_ms) != ST_OK ||
	    store_login_purge(s, now_ms - (int64_t)AUTH_FAIL_WINDOW_S * 1000) != ST_OK)
		return AUTH_ERR;
	random_token(raw, token);
	random_token(csrf_raw, csrf);
	crypto_hash_sha256(hash, raw, sizeof raw);
	sodium_memzero(raw, sizeof raw);
	if (store_session_create(s, hash, user_id, csrf, expires) != ST_OK) {
		sodium_memzero(token, AUTH_TOKEN_LEN + 1);
		return AUTH_ERR;
	}
	return AUTH_OK;
}

/* AUTH_OK with the user and the session's CSRF token; AUTH_WRONG for a
 * malformed, unknown or expired token (treat as logged out), AUTH_ERR (500). */
int auth_session_get(struct store *s, const char *token, int64_t now_ms, int64_t *user_id,
		     char csrf[AUTH_TOKEN_LEN + 1])
{
	unsigned char hash[crypto_hash_sha256_BYTES];
	struct st_session ss;
	if (token_hash(token, hash) != 0)
		return AUTH_WRONG;
	int rc = store_session_get(s, hash, now_ms, &ss);
	if (rc == ST_NOTFOUND)
		return AUTH_WRONG;
	if (rc != ST_OK)
		return AUTH_ERR;
	if (user_id)
		*user_id = ss.user_id;
	if (csrf)
		memcpy(csrf, ss.csrf, AUTH_TOKEN_LEN + 1);
	return AUTH_OK;
}

/* Ends the session of a token; AUTH_OK also when there was none. */
int auth_session_end(struct store *s, const char *token)
{
	unsigned char hash[crypto_hash_sha256_BYTES];
	if (token_hash(token, hash) != 0)
		return AUTH_OK;
	return store_session_delete(s, hash) == ST_OK ? AUTH_OK : AUTH_ERR;
}

/* 1 only for two equal non-empty tokens; the comparison of equally long
 * tokens takes the same time wherever they differ. */
int auth_csrf_ok(const char *expected, const char *submitted)
{
	if (!expected || !submitted)
		return 0;
	size_t n = strlen(expected);
	if (n == 0 || strlen(submitted) != n)
		return 0;
	return sodium_memcmp(expected, submitted, n) == 0;
}

/* 64 bits from the system's random source, for dealing a party. */
uint64_t auth_random_seed(void)
{
	uint64_t seed;
	randombytes_buf(&seed, sizeof seed);
	return seed;
}
