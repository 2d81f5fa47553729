/*
 * auth.h — accounts, sessions and CSRF tokens (libsodium).
 *
 * Passwords: crypto_pwhash_str (argon2id, interactive limits). Session
 * token: 32 random bytes, sent as base64url in the cookie "st", stored as
 * its SHA-256 (crypto_hash_sha256). Every session has its own CSRF token
 * (32 random bytes, base64url), compared in constant time (sodium_memcmp).
 */
#ifndef SPIELTISCH_AUTH_H
#define SPIELTISCH_AUTH_H

#include <stdint.h>

#include "store.h"

enum {
	AUTH_TOKEN_LEN = 43,        /* base64url of 32 bytes, no padding */
	AUTH_SESSION_DAYS = 30,
	AUTH_NAME_MIN = 3, AUTH_NAME_MAX = 24,
	AUTH_PASS_MIN = 8, AUTH_PASS_MAX = 128,
	AUTH_FAIL_WINDOW_S = 900,   /* failures counted over 15 minutes */
	AUTH_FAIL_FREE = 5,         /* failures per (name, address) before the delay starts */
	AUTH_ADDR_FREE = 20,        /* failures per address, any names, before its delay */
	AUTH_KNOWN_DAYS = 90,       /* a name that logged in from an address this recently
				       is exempt there from the address's delay */
	AUTH_ADDR_MAX = 64,         /* bytes of an address key, NUL included */
	AUTH_SLOTS_MAX = 32,        /* password hashes at the same time, at most */
	AUTH_BUSY_RETRY_S = 1       /* Retry-After when no hashing slot is free */
};

/* AUTH_BUSY: no password-hashing slot was free (all are taken by other
 * workers): nothing was checked or counted; the caller answers 503 with
 * Retry-After AUTH_BUSY_RETRY_S. */
enum auth_rc { AUTH_OK, AUTH_BAD_NAME, AUTH_BAD_PASSWORD, AUTH_NAME_TAKEN, AUTH_WRONG,
	       AUTH_THROTTLED, AUTH_ERR, AUTH_BUSY, AUTH_RC__MAX };

/* German message for a result, for the page. */
const char *auth_message(enum auth_rc rc);

/* sodium_init(); call once per process before anything else here. */
int auth_init(void);

/* Names: 3..24 characters of letters (UTF-8 letters too), digits, '-', '_', '.'. */
int auth_name_valid(const char *name);

/* The key the throttle counts a client address under, into out: an IPv4
 * address as it is, an IPv6 address by its /64 (one host usually holds a
 * whole /64), an IPv4-mapped IPv6 address as IPv4; "-" for anything else
 * (a missing or malformed REMOTE_ADDR, a unix socket): all such clients
 * share one budget. */
void auth_addr_key(const char *remote_addr, char out[AUTH_ADDR_MAX]);

/* Bounds how many password hashes run at the same time across all the
 * processes that call this with the same db_path: `n` slots, each a lock
 * file "<db_path>-hash<i>" held with flock() while hashing. Call once per
 * process after fork (a lock belongs to the open file). Without it (tests,
 * tools) hashing is not bounded. 0, or -1 when a file cannot be opened. */
int auth_hash_slots(const char *db_path, int n);

/* A new account; AUTH_BUSY when no hashing slot is free. */
int auth_register(struct store *s, const char *name, const char *password, int64_t now_ms,
		  int64_t *user_id);
/* Checks name and password of a client at `remote_addr` (REMOTE_ADDR).
 * AUTH_THROTTLED when this (name, address) failed AUTH_FAIL_FREE times, or
 * this address AUTH_ADDR_FREE times for any names, within the window and
 * the growing delay after the latest failure has not run out: *retry_s
 * says how long. Then the password is not looked at. Other addresses keep
 * their own budget, so a guesser elsewhere never locks the owner out; and
 * a name that logged in from this address within AUTH_KNOWN_DAYS is held
 * only to its own budget there, not to the address's, so that others'
 * failures behind the same address (a school's NAT) never lock it out.
 * A right password counts against no budget.
 * AUTH_BUSY when no hashing slot is free. Never sleeps. */
int auth_login(struct store *s, const char *name, const char *password,
	       const char *remote_addr, int64_t now_ms, int64_t *user_id, int *retry_s);

/* A new session: token (for the cookie) and csrf filled in, NUL-terminated. */
int auth_session_new(struct store *s, int64_t user_id, int64_t now_ms,
		     char token[AUTH_TOKEN_LEN + 1], char csrf[AUTH_TOKEN_LEN + 1]);
/* The session of a cookie token: AUTH_OK with user, csrf and the user's
 * name (each may be NULL), AUTH_WRONG if unknown, malformed or expired. */
int auth_session_get(struct store *s, const char *token, int64_t now_ms, int64_t *user_id,
		     char csrf[AUTH_TOKEN_LEN + 1], char name[ST_NAME_MAX + 1]);
/* The same, with all the session's read brings (the user's language, too). */
int auth_session_read(struct store *s, const char *token, int64_t now_ms, struct st_session *out);
int auth_session_end(struct store *s, const char *token);

/* 1 when the submitted token equals the session's, in constant time. */
int auth_csrf_ok(const char *expected, const char *submitted);

/* The feed token of a user (GET /feed/<token>.atom): the one they have,
 * made on first use, or with renew a new one that replaces it (the old
 * address is a 404 from then on). Kept as it is in the store, because the
 * account page shows the address again; it opens nothing but the feed. */
int auth_feed_token(struct store *s, int64_t user, int64_t now_ms, int renew,
		    char out[AUTH_TOKEN_LEN + 1]);
/* The user of a feed token and when it was made: AUTH_OK, AUTH_WRONG
 * (malformed, unknown or replaced), AUTH_ERR. */
int auth_feed_user(struct store *s, const char *token, int64_t *user, int64_t *since_ms);

/* The secret of the user's "Meine Tische" poll address
 * (GET /me/poll/<token>, 017_me_seq.sql): the one they have, made on first
 * use. It tells nothing but whether their tables changed. */
int auth_poll_token(struct store *s, int64_t user, char out[AUTH_TOKEN_LEN + 1]);

/* Random 64-bit seed for a new party. */
uint64_t auth_random_seed(void);

#endif
