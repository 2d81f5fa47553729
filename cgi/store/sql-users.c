/*
 * sql-users.c — users, sessions and the login throttle (failed logins, known pairs).
 *
 * Its statements are in stmt_text[] below, next to the functions that use them;
 * sql-core.c prepares them with every other file's at store_open.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "text.h"

enum { NAME_KEY_MAX = ST_NAME_MAX * 2 };

enum {
	STMT_USER_CREATE = ST_FIRST(ST_G_USERS),
	STMT_USER_BY_NAME,
	STMT_USER_BY_ID,
	STMT_SESSION_CREATE,
	STMT_SESSION_GET,
	STMT_USER_SET_LANG,
	STMT_SESSIONS_SET_LANG,
	STMT_SESSION_DELETE,
	STMT_SESSION_PURGE,
	STMT_LOGIN_FAILED,
	STMT_LOGIN_FAILURES,
	STMT_LOGIN_CLEAR,
	STMT_LOGIN_PURGE,
	STMT_LOGIN_FAILED_AT,
	STMT_LOGIN_CLEAR_AT,
	STMT_LOGIN_KNOWN_GET,
	STMT_LOGIN_KNOWN_SET,
	STMT_LOGIN_KNOWN_PURGE,
	STMT_USERS_END
};

static const char *const stmt_text[] = {
	ST_AT(STMT_USER_CREATE) =
		"INSERT INTO users (name, name_key, name_skel, pwhash, created_at)"
		" VALUES (?1, ?2, ?5, ?3, ?4) ON CONFLICT DO NOTHING RETURNING id",
	ST_AT(STMT_USER_BY_NAME) =
		"SELECT id, name, pwhash, created_at FROM users WHERE name_key = ?1",
	ST_AT(STMT_USER_BY_ID) = "SELECT id, name, pwhash, created_at FROM users WHERE id = ?1",
	ST_AT(STMT_SESSION_CREATE) =
		"INSERT INTO sessions (token_hash, user_id, csrf, expires, name, lang) VALUES (?1, ?2,"
		" ?3, ?4, (SELECT u.name FROM users u WHERE u.id = ?2),"
		" (SELECT u.lang FROM users u WHERE u.id = ?2))",
	/* with the user's name and language, kept in the session's row
	 * (032_page_kept.sql): one read for every logged-in request, no join */
	ST_AT(STMT_SESSION_GET) =
		"SELECT user_id, csrf, expires, name, lang FROM sessions"
		" WHERE token_hash = ?1 AND expires > ?2",
	ST_AT(STMT_USER_SET_LANG) = "UPDATE users SET lang = ?2 WHERE id = ?1",
	ST_AT(STMT_SESSIONS_SET_LANG) = "UPDATE sessions SET lang = ?2 WHERE user_id = ?1",
	ST_AT(STMT_SESSION_DELETE) = "DELETE FROM sessions WHERE token_hash = ?1",
	ST_AT(STMT_SESSION_PURGE) = "DELETE FROM sessions WHERE expires <= ?1",
	ST_AT(STMT_LOGIN_FAILED) = "INSERT INTO login_failures (name_key, at) VALUES (?1, ?2)",
	ST_AT(STMT_LOGIN_FAILURES) =
		"SELECT count(*), coalesce(max(at), 0) FROM login_failures "
		"WHERE name_key = ?1 AND at >= ?2",
	ST_AT(STMT_LOGIN_CLEAR) = "DELETE FROM login_failures WHERE name_key = ?1",
	ST_AT(STMT_LOGIN_PURGE) = "DELETE FROM login_failures WHERE at < ?1",
	ST_AT(STMT_LOGIN_FAILED_AT) =
		"INSERT INTO login_failures (name_key, at) VALUES (?1, ?3), (?2, ?3)",
	/* the pair's rows, and the one row of the address the attempt made */
	ST_AT(STMT_LOGIN_CLEAR_AT) =
		"DELETE FROM login_failures WHERE name_key = ?1 OR id = (SELECT id FROM"
		" login_failures WHERE name_key = ?2 AND at = ?3 LIMIT 1)",
	/* 024_login_known.sql */
	ST_AT(STMT_LOGIN_KNOWN_GET) = "SELECT at FROM login_known WHERE pair_key = ?1",
	ST_AT(STMT_LOGIN_KNOWN_SET) =
		"INSERT INTO login_known (pair_key, at) VALUES (?1, ?2)"
		" ON CONFLICT (pair_key) DO UPDATE SET at = excluded.at",
	ST_AT(STMT_LOGIN_KNOWN_PURGE) = "DELETE FROM login_known WHERE at < ?1",
};
_Static_assert(sizeof stmt_text / sizeof stmt_text[0] == STMT_USERS_END - ST_FIRST(ST_G_USERS),
	       "one SQL text per statement");
const struct st_stmts st_stmts_users = ST_STMTS(stmt_text);

/* Case folding for name uniqueness and lookups: the name in lower case
 * (libunistring's, text_fold). A name that does not fold (not UTF-8, too
 * long) is its own key. */
static void name_key(const char *name, char *out, size_t cap)
{
	if (text_fold(name, out, cap) != 0)
		snprintf(out, cap, "%s", name);
}

/* A name's confusable skeleton (text_skeleton): "" when it has none. */
static void name_skeleton(const char *name, char *out, size_t cap)
{
	if (text_skeleton(name, out, cap) != 0)
		out[0] = '\0';
}

/* The SQL functions st_name_key(name) and st_name_skeleton(name), for the
 * migrations that fill those columns for the names already there. */
static void sql_name_fn(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	char out[TEXT_KEY_MAX + 1];
	const unsigned char *name = argc == 1 ? sqlite3_value_text(argv[0]) : NULL;
	if (!name) {
		sqlite3_result_null(cx);
		return;
	}
	if (sqlite3_user_data(cx))
		name_skeleton((const char *)name, out, sizeof out);
	else
		name_key((const char *)name, out, sizeof out);
	sqlite3_result_text(cx, out, -1, SQLITE_TRANSIENT);
}

int st_name_functions(sqlite3 *db)
{
	static int skeleton = 1;
	int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC;
	return sqlite3_create_function(db, "st_name_key", 1, flags, NULL, sql_name_fn, NULL, NULL) ==
			       SQLITE_OK &&
		       sqlite3_create_function(db, "st_name_skeleton", 1, flags, &skeleton, sql_name_fn,
					       NULL, NULL) == SQLITE_OK
		       ? ST_OK
		       : ST_ERR;
}

/* ------------------------------------------------------------------ */
/* Users                                                               */

/* A new account; ST_EXISTS when the folded name is taken, or a name that
 * looks the same (its confusable skeleton, 025_name_skeleton.sql). */
int store_user_create(struct store *s, const char *name, const char *pwhash, int64_t now,
		      int64_t *id)
{
	char key[NAME_KEY_MAX + 1], skel[TEXT_KEY_MAX + 1];
	name_key(name, key, sizeof key);
	name_skeleton(name, skel, sizeof skel);
	struct st_cur *q = st_query(s, STMT_USER_CREATE, ST_ARGS(ST_TEXT(name), ST_TEXT(key),
			ST_TEXT(pwhash), ST_INT(now)));
	if (!q)
		return ST_ERR;
	if (skel[0])
		st_bind_text(q, 5, skel);
	else
		st_bind_null(q, 5);
	int64_t made = 0;   /* no row: the name or its look-alike is taken */
	int rc = st_one_int64(s, q, &made, "user create");
	if (rc != ST_OK)
		return rc == ST_NOTFOUND ? ST_EXISTS : rc;
	if (id)
		*id = made;
	/* (outside a transaction this is a second one: a user without the row
	 * gets it on their first poll, store_user_poll) */
	return st_me_create(s, made);
}

/* One row of a user query (id, name, pwhash, created_at). */
static int read_user(void *ctx, struct st_cur *q)
{
	struct st_user *u = ctx;
	u->id = st_int64(q, 0);
	st_copy_col(u->name, sizeof u->name, q, 1);
	st_copy_col(u->pwhash, sizeof u->pwhash, q, 2);
	u->created_at = st_int64(q, 3);
	return 0;
}

/* The account of a name, compared case-insensitively; ST_NOTFOUND if none. */
int store_user_by_name(struct store *s, const char *name, struct st_user *u)
{
	char key[NAME_KEY_MAX + 1];
	name_key(name, key, sizeof key);
	return st_one(s, st_query(s, STMT_USER_BY_NAME, ST_ARGS(ST_TEXT(key))), read_user, u,
		      "user by name");
}

/* The account with this id; ST_NOTFOUND (a stale session: treat as logged out). */
int store_user_by_id(struct store *s, int64_t id, struct st_user *u)
{
	return st_one(s, st_query(s, STMT_USER_BY_ID, ST_ARGS(ST_INT(id))), read_user, u,
		      "user by id");
}

/* The language the user chose ("de", "en"; "" none). */
/* The user's row and their sessions' (which keep it for the session's
 * read), in one transaction unless the caller has one. */
int store_user_set_lang(struct store *s, int64_t id, const char *code)
{
	int own = !store_in_transaction(s);
	int rc = own ? store_begin(s) : ST_OK;
	if (rc == ST_OK)
		rc = st_run(s, STMT_USER_SET_LANG, "user set lang", ST_ARGS(ST_INT(id), ST_TEXT(code)));
	if (rc == ST_OK)
		rc = st_run(s, STMT_SESSIONS_SET_LANG, "sessions set lang",
			    ST_ARGS(ST_INT(id), ST_TEXT(code)));
	if (own && rc == ST_OK)
		return store_commit(s);
	if (own)
		store_rollback(s);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Sessions and failed logins                                          */

int store_session_create(struct store *s, const unsigned char hash[32], int64_t user_id,
			 const char *csrf, int64_t expires)
{
	return st_run(s, STMT_SESSION_CREATE, "session create", ST_ARGS(ST_BLOB(hash, 32),
			ST_INT(user_id), ST_TEXT(csrf), ST_INT(expires)));
}

static int read_session(void *ctx, struct st_cur *q)
{
	struct st_session *out = ctx;
	out->user_id = st_int64(q, 0);
	st_copy_col(out->csrf, sizeof out->csrf, q, 1);
	out->expires = st_int64(q, 2);
	st_copy_col(out->name, sizeof out->name, q, 3);
	st_copy_col(out->lang, sizeof out->lang, q, 4);
	return 0;
}

/* The session of a token hash that has not expired at `now`, else ST_NOTFOUND. */
int store_session_get(struct store *s, const unsigned char hash[32], int64_t now,
		      struct st_session *out)
{
	return st_one(s, st_query(s, STMT_SESSION_GET, ST_ARGS(ST_BLOB(hash, 32), ST_INT(now))),
		      read_session, out, "session get");
}

/* ST_OK whether or not the session existed (logging out twice is fine). */
int store_session_delete(struct store *s, const unsigned char hash[32])
{
	return st_run(s, STMT_SESSION_DELETE, "session delete", ST_ARGS(ST_BLOB(hash, 32)));
}

/* Deletes every session expired at `now`. */
int store_session_purge(struct store *s, int64_t now)
{
	return st_run(s, STMT_SESSION_PURGE, "session purge", ST_ARGS(ST_INT(now)));
}

/* Records one failed login for the folded name (known or not). */
int store_login_failed(struct store *s, const char *name, int64_t now)
{
	char key[NAME_KEY_MAX + 1];
	name_key(name, key, sizeof key);
	return st_run(s, STMT_LOGIN_FAILED, "login failed", ST_ARGS(ST_TEXT(key), ST_INT(now)));
}

/* count_key's answer. */
struct key_count {
	int *count;
	int64_t *last;
};

static int read_key_count(void *ctx, struct st_cur *q)
{
	struct key_count *k = ctx;
	*k->count = st_int(q, 0);
	if (k->last)
		*k->last = st_int64(q, 1);
	return 0;
}

/* Rows of `key` at or after `since` and the latest one's time (0: none),
 * if last is not NULL. */
static int count_key(struct store *s, const char *key, int64_t since, int *count, int64_t *last,
		     const char *what)
{
	struct key_count k = { count, last };
	int rc = st_one(s, st_query(s, STMT_LOGIN_FAILURES, ST_ARGS(ST_TEXT(key), ST_INT(since))),
			read_key_count, &k, what);
	return rc == ST_NOTFOUND ? st_fail(s, what) : rc;   /* an aggregate has its row */
}

/* Failures of the folded name at or after `since`, and the latest one's time. */
int store_login_failures_last(struct store *s, const char *name, int64_t since, int *count,
			      int64_t *last)
{
	char key[NAME_KEY_MAX + 1];
	name_key(name, key, sizeof key);
	return count_key(s, key, since, count, last, "login failures");
}

/* Failures of the folded name at or after `since`. */
int store_login_failures(struct store *s, const char *name, int64_t since, int *count)
{
	return store_login_failures_last(s, name, since, count, NULL);
}

/* Forgets the name's failures (after a successful login). */
int store_login_clear(struct store *s, const char *name)
{
	char key[NAME_KEY_MAX + 1];
	name_key(name, key, sizeof key);
	return st_run(s, STMT_LOGIN_CLEAR, "login clear", ST_ARGS(ST_TEXT(key)));
}

/* Failures per client address share login_failures with the per-name
 * ones, without a schema change: a failure of name N from address A is
 * one row keyed "fold(N) US A" and one keyed "US A" (US = 0x1F, which no
 * name contains: auth.c checks names before they reach the throttle).
 * Rows keyed by a plain name (store_login_failed) are another key space. */
enum { ADDR_KEY_MAX = 64, PAIR_KEY_MAX = NAME_KEY_MAX + 1 + ADDR_KEY_MAX };

/* The key of (name, addr) into out, or of addr alone when name is NULL. */
static void pair_key(const char *name, const char *addr, char out[PAIR_KEY_MAX + 1])
{
	char key[NAME_KEY_MAX + 1] = "";
	if (name)
		name_key(name, key, sizeof key);
	snprintf(out, PAIR_KEY_MAX + 1, "%s\x1f%.*s", key, (int)ADDR_KEY_MAX, addr ? addr : "");
}

/* Records one failed login of the folded name from client address `addr`
 * (auth.c's key of it): one row for the pair, one for the address. */
int store_login_failed_at(struct store *s, const char *name, const char *addr, int64_t now)
{
	char pk[PAIR_KEY_MAX + 1], ak[PAIR_KEY_MAX + 1];
	pair_key(name, addr, pk);
	pair_key(NULL, addr, ak);
	return st_run(s, STMT_LOGIN_FAILED_AT, "login failed at", ST_ARGS(ST_TEXT(pk), ST_TEXT(ak),
			ST_INT(now)));
}

/* Failures of the folded name from `addr` at or after `since`, and the
 * latest one's time (0: none). */
int store_login_pair(struct store *s, const char *name, const char *addr, int64_t since,
		     int *count, int64_t *last)
{
	char pk[PAIR_KEY_MAX + 1];
	pair_key(name, addr, pk);
	return count_key(s, pk, since, count, last, "login failures at");
}

/* Failures from `addr` for any name at or after `since`, and the latest. */
int store_login_addr(struct store *s, const char *addr, int64_t since, int *count,
		     int64_t *last)
{
	char ak[PAIR_KEY_MAX + 1];
	pair_key(NULL, addr, ak);
	return count_key(s, ak, since, count, last, "login failures at");
}

/* Forgets the failures of the folded name from `addr` (a login from there
 * succeeded), and the address's row that this attempt recorded at `at`
 * (store_login_failed_at): a right password is no failure, so it counts
 * against neither budget. Failures from other addresses stay, and so do
 * the address's other rows: logging in to an account of one's own does not
 * buy an address new guesses at other names. */
int store_login_clear_at(struct store *s, const char *name, const char *addr, int64_t at)
{
	char pk[PAIR_KEY_MAX + 1], ak[PAIR_KEY_MAX + 1];
	pair_key(name, addr, pk);
	pair_key(NULL, addr, ak);
	return st_run(s, STMT_LOGIN_CLEAR_AT, "login clear at", ST_ARGS(ST_TEXT(pk), ST_TEXT(ak),
			ST_INT(at)));
}

/* The latest successful login of the folded name from `addr` in *at (0:
 * none on record). */
int store_login_known_at(struct store *s, const char *name, const char *addr, int64_t *at)
{
	char pk[PAIR_KEY_MAX + 1];
	pair_key(name, addr, pk);
	*at = 0;
	int rc = st_one_int64(s, st_query(s, STMT_LOGIN_KNOWN_GET, ST_ARGS(ST_TEXT(pk))), at,
			      "login known");
	return rc == ST_NOTFOUND ? ST_OK : rc;
}

/* Records a successful login of the folded name from `addr` at `now`. */
int store_login_known_set(struct store *s, const char *name, const char *addr, int64_t now)
{
	char pk[PAIR_KEY_MAX + 1];
	pair_key(name, addr, pk);
	return st_run(s, STMT_LOGIN_KNOWN_SET, "login known set", ST_ARGS(ST_TEXT(pk),
			ST_INT(now)));
}

/* Forgets the successful logins older than `before`. */
int store_login_known_purge(struct store *s, int64_t before)
{
	return st_run(s, STMT_LOGIN_KNOWN_PURGE, "login known purge", ST_ARGS(ST_INT(before)));
}

/* Forgets every failure older than `before`. */
int store_login_purge(struct store *s, int64_t before)
{
	return st_run(s, STMT_LOGIN_PURGE, "login purge", ST_ARGS(ST_INT(before)));
}
