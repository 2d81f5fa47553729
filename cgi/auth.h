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
	AUTH_FAIL_FREE = 5          /* failures before the delay starts */
};

enum auth_rc { AUTH_OK, AUTH_BAD_NAME, AUTH_BAD_PASSWORD, AUTH_NAME_TAKEN, AUTH_WRONG,
	       AUTH_THROTTLED, AUTH_ERR, AUTH_RC__MAX };

/* German message for a result, for the page. */
const char *auth_message(enum auth_rc rc);

/* sodium_init(); call once per process before anything else here. */
int auth_init(void);

/* Names: 3..24 characters of letters (UTF-8 letters too), digits, '-', '_', '.'. */
int auth_name_valid(const char *name);

int auth_register(struct store *s, const char *name, const char *password, int64_t now_ms,
		  int64_t *user_id);
/* AUTH_THROTTLED when this name failed too often lately: the caller says
 * "wait N seconds" (*retry_s, growing with the failures); every failure
 * also costs a small fixed delay inside (docs/storage.md). */
int auth_login(struct store *s, const char *name, const char *password, int64_t now_ms,
	       int64_t *user_id, int *retry_s);

/* A new session: token (for the cookie) and csrf filled in, NUL-terminated. */
int auth_session_new(struct store *s, int64_t user_id, int64_t now_ms,
		     char token[AUTH_TOKEN_LEN + 1], char csrf[AUTH_TOKEN_LEN + 1]);
/* The session of a cookie token: AUTH_OK with user and csrf, AUTH_WRONG if
 * unknown, malformed or expired. */
int auth_session_get(struct store *s, const char *token, int64_t now_ms, int64_t *user_id,
		     char csrf[AUTH_TOKEN_LEN + 1]);
int auth_session_end(struct store *s, const char *token);

/* 1 when the submitted token equals the session's, in constant time. */
int auth_csrf_ok(const char *expected, const char *submitted);

/* Random 64-bit seed for a new party. */
uint64_t auth_random_seed(void);

#endif
