/*
 * auth.c — accounts, sessions and CSRF tokens with libsodium.
 *
 * Password hashes: argon2id at the interactive limits (about 64 MiB and a
 * few tens of milliseconds); with SPIELTISCH_FAST_HASH=1 in the environment
 * (tests only) the minimum limits. Cookie tokens are 32 random bytes in
 * base64url; the database keeps only their SHA-256, so a leaked database
 * does not log anybody in. Times are milliseconds.
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include <sodium.h>

#include "auth.h"
#include "i18n.h"

enum { TOKEN_BYTES = 32 };
_Static_assert(sodium_base64_ENCODED_LEN(TOKEN_BYTES, sodium_base64_VARIANT_URLSAFE_NO_PADDING)
	       == AUTH_TOKEN_LEN + 1, "32 bytes are 43 base64url characters");
_Static_assert(AUTH_TOKEN_LEN == 43 && TOKEN_BYTES == 32, "token_bytes reads 40 + 3 characters");
_Static_assert((int)ST_CSRF_LEN == (int)AUTH_TOKEN_LEN, "the store keeps the whole CSRF token");
_Static_assert((int)AUTH_NAME_MAX * 2 <= (int)ST_NAME_MAX, "a name's bytes fit the store");
_Static_assert(crypto_pwhash_STRBYTES <= ST_HASH_MAX + 1, "a hash fits the store");

static const char *const messages[] = {
	[AUTH_OK] = N_("Angemeldet."),
	[AUTH_BAD_NAME] = N_("Der Name muss 3 bis 24 Zeichen lang sein: Buchstaben, Ziffern, "
			   "'-', '_' oder '.'."),
	[AUTH_BAD_PASSWORD] = N_("Das Passwort muss 8 bis 128 Zeichen lang sein."),
	[AUTH_NAME_TAKEN] = N_("Dieser Name ist schon vergeben oder einem vergebenen zum "
			       "Verwechseln ähnlich."),
	[AUTH_WRONG] = N_("Name oder Passwort stimmt nicht."),
	[AUTH_THROTTLED] = N_("Zu viele Fehlversuche: bitte etwas warten."),
	[AUTH_ERR] = N_("Interner Fehler, bitte später noch einmal versuchen."),
	[AUTH_BUSY] = N_("Gerade melden sich sehr viele an. Bitte versuche es in einer Sekunde "
			 "noch einmal."),
};
_Static_assert(sizeof messages / sizeof messages[0] == AUTH_RC__MAX, "one message per code");

/* A static sentence for rc in the request's language; never NULL. */
const char *auth_message(enum auth_rc rc)
{
	if ((int)rc < 0 || rc >= AUTH_RC__MAX)
		return _(messages[AUTH_ERR]);
	return _(messages[rc]);
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

/* The hashing slots of this process (auth_hash_slots); nslots 0: unbounded. */
static int slot_fd[AUTH_SLOTS_MAX];
static int nslots;

enum { SLOT_FREE_RUN = -1, SLOT_NONE = -2 };

int auth_hash_slots(const char *db_path, int n)
{
	char path[4096];
	for (int i = 0; i < nslots; i++)
		close(slot_fd[i]);
	nslots = 0;
	if (n > AUTH_SLOTS_MAX)
		n = AUTH_SLOTS_MAX;
	for (int i = 0; i < n; i++) {
		int w = snprintf(path, sizeof path, "%s-hash%d", db_path, i);
		int fd = w > 0 && (size_t)w < sizeof path ?
			 open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600) : -1;
		if (fd < 0) {
			fprintf(stderr, "auth: cannot open %s\n", path);
			return -1;
		}
		slot_fd[nslots++] = fd;
	}
	return 0;
}

/* A free hashing slot, taken without waiting: its index, SLOT_FREE_RUN
 * when slots are not bounded in this process, SLOT_NONE when all are
 * taken. A worker never waits here: waiting would occupy it as much as
 * hashing does. */
static int slot_take(void)
{
	if (nslots == 0)
		return SLOT_FREE_RUN;
	for (int i = 0; i < nslots; i++)
		if (flock(slot_fd[i], LOCK_EX | LOCK_NB) == 0)
			return i;
	return SLOT_NONE;
}

/* Gives back what slot_take() returned. */
static void slot_give(int slot)
{
	if (slot >= 0 && slot < nslots)
		flock(slot_fd[slot], LOCK_UN);
}

void auth_addr_key(const char *remote_addr, char out[AUTH_ADDR_MAX])
{
	unsigned char b[16];
	snprintf(out, AUTH_ADDR_MAX, "-");
	if (!remote_addr || !*remote_addr)
		return;
	if (inet_pton(AF_INET, remote_addr, b) == 1) {
		inet_ntop(AF_INET, b, out, AUTH_ADDR_MAX);
		return;
	}
	if (inet_pton(AF_INET6, remote_addr, b) != 1)
		return;
	static const unsigned char mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	if (memcmp(b, mapped, sizeof mapped) == 0) {
		inet_ntop(AF_INET, b + 12, out, AUTH_ADDR_MAX);
		return;
	}
	memset(b + 8, 0, 8);
	char net[INET6_ADDRSTRLEN];
	if (inet_ntop(AF_INET6, b, net, sizeof net))
		snprintf(out, AUTH_ADDR_MAX, "%s/64", net);
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
	int slot = slot_take();
	if (slot == SLOT_NONE)
		return AUTH_BUSY;
	rc = hash_password(password, hash);
	slot_give(slot);
	if (rc != 0)
		return AUTH_ERR;
	rc = store_user_create(s, name, hash, now_ms, user_id);
	sodium_memzero(hash, sizeof hash);
	if (rc == ST_EXISTS)
		return AUTH_NAME_TAKEN;
	return rc == ST_OK ? AUTH_OK : AUTH_ERR;
}

/* Seconds to wait after `count` failures in the window when `free` are
 * free: nothing up to free - 1, then 2, 4, 8, … up to the window. */
static int64_t penalty_s(int count, int free)
{
	if (count < free)
		return 0;
	int shift = count - free + 1;
	if (shift > 20)
		return AUTH_FAIL_WINDOW_S;
	int64_t d = (int64_t)1 << shift;
	return d > AUTH_FAIL_WINDOW_S ? AUTH_FAIL_WINDOW_S : d;
}

/* AUTH_THROTTLED (with *retry_s) when the pair (name, addr) or the address
 * alone must still wait at now_ms; AUTH_OK when not; AUTH_ERR. */
static int throttled(struct store *s, const char *name, const char *addr, int64_t now_ms,
		     int *retry_s)
{
	int64_t since = now_ms - (int64_t)AUTH_FAIL_WINDOW_S * 1000, last = 0, last_a = 0;
	int n = 0, n_a = 0;
	if (store_login_pair(s, name, addr, since, &n, &last) != ST_OK ||
	    store_login_addr(s, addr, since, &n_a, &last_a) != ST_OK)
		return AUTH_ERR;
	int64_t until = n >= AUTH_FAIL_FREE ? last + penalty_s(n, AUTH_FAIL_FREE) * 1000 : 0;
	int64_t until_a = n_a >= AUTH_ADDR_FREE ? last_a + penalty_s(n_a, AUTH_ADDR_FREE) * 1000 : 0;
	if (until_a > until && until_a > now_ms) {
		/* the address's budget is for names not known there: a name that
		 * logged in from it lately answers only for its own failures */
		int64_t known = 0;
		if (store_login_known_at(s, name, addr, &known) != ST_OK)
			return AUTH_ERR;
		if (known >= now_ms - (int64_t)AUTH_KNOWN_DAYS * 86400 * 1000)
			until_a = 0;
	}
	if (until_a > until)
		until = until_a;
	if (now_ms >= until)
		return AUTH_OK;
	*retry_s = (int)((until - now_ms + 999) / 1000);
	return AUTH_THROTTLED;
}

/* In one write transaction: the throttle once more, and unless it refuses,
 * this attempt recorded as a failure before its password is checked. So
 * parallel attempts each see the ones before them (a success clears the
 * record again). AUTH_OK, AUTH_THROTTLED, AUTH_BUSY (the database stayed
 * locked), AUTH_ERR. */
static int reserve(struct store *s, const char *name, const char *addr, int64_t now_ms,
		   int *retry_s)
{
	int st = store_begin(s);
	if (st != ST_OK)
		return st == ST_BUSY ? AUTH_BUSY : AUTH_ERR;
	int rc = throttled(s, name, addr, now_ms, retry_s);
	if (rc == AUTH_OK && store_login_failed_at(s, name, addr, now_ms) != ST_OK)
		rc = AUTH_ERR;
	if (rc != AUTH_OK) {
		store_rollback(s);
		return rc;
	}
	st = store_commit(s);
	return st == ST_OK ? AUTH_OK : st == ST_BUSY || st == ST_FULL ? AUTH_BUSY : AUTH_ERR;
}

/* 1 when password is the user's (argon2 verify); for an unknown name the
 * same work is spent on a dummy hash and the answer is 0; -1 on error. */
static int password_matches(struct store *s, const char *name, const char *password,
			    int64_t *user_id)
{
	struct st_user u;
	int rc = store_user_by_name(s, name, &u);
	if (rc == ST_OK) {
		*user_id = u.id;
		return crypto_pwhash_str_verify(u.pwhash, password, strlen(password)) == 0;
	}
	if (rc != ST_NOTFOUND)
		return -1;
	char dummy[crypto_pwhash_STRBYTES];
	return hash_password(password, dummy) == 0 ? 0 : -1;
}

/* See auth.h. The order keeps a flood cheap: a throttled attempt costs two
 * indexed reads; then a hashing slot (none free: AUTH_BUSY at once); then
 * the throttle again and the attempt recorded, in one transaction; only
 * then the argon2 work. Unknown names and wrong passwords are the same
 * AUTH_WRONG at the same cost. A 200 with the form for AUTH_WRONG, 429 for
 * AUTH_THROTTLED, 503 for AUTH_BUSY, 500 for AUTH_ERR. */
int auth_login(struct store *s, const char *name, const char *password,
	       const char *remote_addr, int64_t now_ms, int64_t *user_id, int *retry_s)
{
	char addr[AUTH_ADDR_MAX];
	int64_t uid = 0;
	int retry = 0, rc;

	if (retry_s)
		*retry_s = 0;
	if (!name || !password || strlen(name) > ST_NAME_MAX || strlen(password) > AUTH_PASS_MAX)
		return AUTH_WRONG;
	/* A name no account can have is wrong without any work: the name
	 * rules are public, so this tells nobody anything. */
	if (!auth_name_valid(name))
		return AUTH_WRONG;
	auth_addr_key(remote_addr, addr);
	if ((rc = throttled(s, name, addr, now_ms, &retry)) != AUTH_OK)
		goto out;
	int slot = slot_take();
	if (slot == SLOT_NONE) {
		retry = AUTH_BUSY_RETRY_S;
		rc = AUTH_BUSY;
		goto out;
	}
	rc = reserve(s, name, addr, now_ms, &retry);
	int ok = rc == AUTH_OK ? password_matches(s, name, password, &uid) : 0;
	slot_give(slot);
	if (rc != AUTH_OK)
		goto out;
	if (ok < 0) {
		rc = AUTH_ERR;
	} else if (ok) {
		rc = store_login_clear_at(s, name, addr, now_ms) == ST_OK &&
		     store_login_known_set(s, name, addr, now_ms) == ST_OK ? AUTH_OK : AUTH_ERR;
		if (rc == AUTH_OK && user_id)
			*user_id = uid;
	} else {
		rc = AUTH_WRONG;
	}
out:
	if (retry_s && (rc == AUTH_THROTTLED || rc == AUTH_BUSY))
		*retry_s = rc == AUTH_BUSY && retry <= 0 ? AUTH_BUSY_RETRY_S : retry;
	return rc;
}

/* 32 random bytes as 43 characters of base64url into out. */
static void random_token(unsigned char raw[TOKEN_BYTES], char out[AUTH_TOKEN_LEN + 1])
{
	randombytes_buf(raw, TOKEN_BYTES);
	sodium_bin2base64(out, AUTH_TOKEN_LEN + 1, raw, TOKEN_BYTES,
			  sodium_base64_VARIANT_URLSAFE_NO_PADDING);
}

/* A byte's value in base64url (0..63), or -1 when it is none; the same
 * time for every byte (no table indexed by the secret, no branch on it), as
 * libsodium's decoder: (lo - 1 - c) & (c - hi - 1) is negative exactly for
 * c in lo..hi, and >> 8 makes that a mask of ones. */
static int b64url_value(int c)
{
	int v = -1;
	v += (('A' - 1 - c) & (c - 'Z' - 1)) >> 8 & (c - 'A' + 1);
	v += (('a' - 1 - c) & (c - 'z' - 1)) >> 8 & (c - 'a' + 27);
	v += (('0' - 1 - c) & (c - '9' - 1)) >> 8 & (c - '0' + 53);
	v += (('-' - 1 - c) & (c - '-' - 1)) >> 8 & 63;
	v += (('_' - 1 - c) & (c - '_' - 1)) >> 8 & 64;
	return v;
}

/* 43 characters of base64url into 32 bytes, as sodium_base642bin's
 * URLSAFE_NO_PADDING variant decodes them (the two bits left over must be
 * zero; a byte above 127 is no character, where libsodium took it for
 * '_'); -1 otherwise. Four characters a step, three bytes. */
static int token_bytes(const char *token, unsigned char raw[TOKEN_BYTES])
{
	const unsigned char *t = (const unsigned char *)token;
	int bad = 0;
	size_t n = 0;
	for (int i = 0; i + 4 <= AUTH_TOKEN_LEN; i += 4) {
		int a = b64url_value(t[i]), b = b64url_value(t[i + 1]);
		int c = b64url_value(t[i + 2]), d = b64url_value(t[i + 3]);
		bad |= a | b | c | d;
		uint32_t w = (uint32_t)a << 18 | (uint32_t)b << 12 | (uint32_t)c << 6 | (uint32_t)d;
		raw[n++] = (unsigned char)(w >> 16);
		raw[n++] = (unsigned char)(w >> 8);
		raw[n++] = (unsigned char)w;
	}
	/* the last three characters: 18 bits, two bytes and two zero bits */
	int a = b64url_value(t[40]), b = b64url_value(t[41]), c = b64url_value(t[42]);
	bad |= a | b | c;
	uint32_t w = (uint32_t)a << 12 | (uint32_t)b << 6 | (uint32_t)c;
	raw[n++] = (unsigned char)(w >> 10);
	raw[n] = (unsigned char)(w >> 2);
	return ((bad & ~63) | (c & 3)) ? -1 : 0;
}

/* The SHA-256 of the cookie tokens read last (a user's pages and polls send
 * the same cookie again and again; its decode and hash were 5k instructions
 * of every request), each under a keyed SipHash of the token (128 bits, a
 * key drawn per process and thread): no token is kept, only what the
 * sessions table holds, and a token that is not one of them finds no
 * digest of its own here. 64 sets of 4, the oldest of a set replaced: the
 * digests fall into sets by the key, which differs from run to run, and a
 * set of one place would make two users' tokens take turns in it in one
 * run but not in the next (docs/benchmarks.md, "The shared view, JSON and
 * load path"). */
enum { TOKEN_SETS = 64, TOKEN_WAYS = 4 };
static _Thread_local struct token_memo {
	uint64_t digest[2];
	unsigned char hash[crypto_hash_sha256_BYTES];
	int used;
} token_memo[TOKEN_SETS][TOKEN_WAYS];
static _Thread_local unsigned token_memo_next[TOKEN_SETS];
static _Thread_local unsigned char token_memo_key[crypto_shorthash_siphashx24_KEYBYTES];
static _Thread_local int token_memo_keyed;

/* The SHA-256 of a cookie token's bytes; -1 when the token is not exactly
 * 43 characters of base64url for 32 bytes. */
static int token_hash(const char *token, unsigned char hash[crypto_hash_sha256_BYTES])
{
	unsigned char raw[TOKEN_BYTES];
	uint64_t digest[2];
	if (!token || strnlen(token, AUTH_TOKEN_LEN + 1) != AUTH_TOKEN_LEN)
		return -1;
	if (!token_memo_keyed) {
		randombytes_buf(token_memo_key, sizeof token_memo_key);
		token_memo_keyed = 1;
	}
	_Static_assert(sizeof digest == crypto_shorthash_siphashx24_BYTES, "128 bits");
	crypto_shorthash_siphashx24((unsigned char *)digest, (const unsigned char *)token,
				    AUTH_TOKEN_LEN, token_memo_key);
	unsigned set = (unsigned)(digest[0] % TOKEN_SETS);
	struct token_memo *ways = token_memo[set];
	for (int w = 0; w < TOKEN_WAYS; w++)
		if (ways[w].used && !((ways[w].digest[0] ^ digest[0]) | (ways[w].digest[1] ^ digest[1]))) {
			memcpy(hash, ways[w].hash, crypto_hash_sha256_BYTES);
			return 0;
		}
	if (token_bytes(token, raw) != 0) {
		sodium_memzero(raw, sizeof raw);
		return -1;
	}
	crypto_hash_sha256(hash, raw, sizeof raw);
	sodium_memzero(raw, sizeof raw);
	struct token_memo *m = &ways[token_memo_next[set]++ % TOKEN_WAYS];
	memcpy(m->digest, digest, sizeof digest);
	memcpy(m->hash, hash, crypto_hash_sha256_BYTES);
	m->used = 1;
	return 0;
}

/* A new session for user_id, valid AUTH_SESSION_DAYS; also forgets expired
 * sessions, old failures and old known logins. The caller sets the cookie
 * from token. */
int auth_session_new(struct store *s, int64_t user_id, int64_t now_ms,
		     char token[AUTH_TOKEN_LEN + 1], char csrf[AUTH_TOKEN_LEN + 1])
{
	unsigned char raw[TOKEN_BYTES], csrf_raw[TOKEN_BYTES], hash[crypto_hash_sha256_BYTES];
	int64_t expires = now_ms + (int64_t)AUTH_SESSION_DAYS * 86400 * 1000;

	if (store_session_purge(s, now_ms) != ST_OK ||
	    store_login_purge(s, now_ms - (int64_t)AUTH_FAIL_WINDOW_S * 1000) != ST_OK ||
	    store_login_known_purge(s, now_ms - (int64_t)AUTH_KNOWN_DAYS * 86400 * 1000) != ST_OK)
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

/* AUTH_OK with the user, the session's CSRF token and the user's name (one
 * read); AUTH_WRONG for a malformed, unknown or expired token (treat as
 * logged out), AUTH_ERR (500). */
int auth_session_get(struct store *s, const char *token, int64_t now_ms, int64_t *user_id,
		     char csrf[AUTH_TOKEN_LEN + 1], char name[ST_NAME_MAX + 1])
{
	struct st_session ss;
	int rc = auth_session_read(s, token, now_ms, &ss);
	if (rc != AUTH_OK)
		return rc;
	if (user_id)
		*user_id = ss.user_id;
	if (csrf)
		memcpy(csrf, ss.csrf, AUTH_TOKEN_LEN + 1);
	if (name)
		memcpy(name, ss.name, sizeof ss.name);
	return AUTH_OK;
}

int auth_session_read(struct store *s, const char *token, int64_t now_ms, struct st_session *out)
{
	unsigned char hash[crypto_hash_sha256_BYTES];
	if (token_hash(token, hash) != 0)
		return AUTH_WRONG;
	int rc = store_session_get(s, hash, now_ms, out);
	return rc == ST_NOTFOUND ? AUTH_WRONG : rc != ST_OK ? AUTH_ERR : AUTH_OK;
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

_Static_assert((int)ST_FEED_TOKEN_LEN == (int)AUTH_TOKEN_LEN, "a feed token is a token");

/* The user's feed token into out: the one they have, or (renew, or none
 * yet) a new one of 32 random bytes that replaces it. */
int auth_feed_token(struct store *s, int64_t user, int64_t now_ms, int renew,
		    char out[AUTH_TOKEN_LEN + 1])
{
	unsigned char raw[TOKEN_BYTES];
	int rc = renew ? ST_NOTFOUND : store_feed_get(s, user, out, NULL);
	if (rc == ST_OK)
		return AUTH_OK;
	if (rc != ST_NOTFOUND)
		return AUTH_ERR;
	char fresh[AUTH_TOKEN_LEN + 1];
	random_token(raw, fresh);
	sodium_memzero(raw, sizeof raw);
	if (store_feed_set(s, user, fresh, now_ms, renew) != ST_OK)
		return AUTH_ERR;
	/* read back: a first use in another request at the same time may have won */
	return store_feed_get(s, user, out, NULL) == ST_OK ? AUTH_OK : AUTH_ERR;
}

_Static_assert((int)ST_POLL_TOKEN_LEN == (int)AUTH_TOKEN_LEN, "a poll token is a token");

int auth_poll_token(struct store *s, int64_t user, char out[AUTH_TOKEN_LEN + 1])
{
	int rc = store_user_poll_token(s, user, NULL, out);
	if (rc == ST_NOTFOUND) {
		unsigned char raw[TOKEN_BYTES];
		char fresh[AUTH_TOKEN_LEN + 1];
		random_token(raw, fresh);
		sodium_memzero(raw, sizeof raw);
		rc = store_user_poll_token(s, user, fresh, out);
	}
	return rc == ST_OK ? AUTH_OK : AUTH_ERR;
}

/* The user of a feed token: AUTH_OK, AUTH_WRONG (malformed, unknown or
 * replaced), AUTH_ERR. */
int auth_feed_user(struct store *s, const char *token, int64_t *user, int64_t *since_ms)
{
	if (!token || strlen(token) != AUTH_TOKEN_LEN)
		return AUTH_WRONG;
	int rc = store_feed_user(s, token, user, since_ms);
	return rc == ST_OK ? AUTH_OK : rc == ST_NOTFOUND ? AUTH_WRONG : AUTH_ERR;
}
