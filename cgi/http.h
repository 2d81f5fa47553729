/*
 * http.h — the edge of the program: strict decoding of what a browser sends
 * (query string, form body, cookies, numbers) and the one function every
 * response goes through.
 *
 * Decisions (docs/api.md repeats them for clients):
 *   - A key given twice in a query or a form is refused (400): no handler
 *     ever has to guess which one counts.
 *   - Keys are 1..HTTP_KEY_MAX bytes of [A-Za-z0-9_.-]; values are valid
 *     UTF-8 without NUL after decoding; '+' is a space; a '%' not followed by
 *     two hex digits is refused (400).
 *   - At most HTTP_FIELDS_MAX fields and HTTP_BODY_MAX body bytes (413).
 *   - Cookies are read leniently: a malformed pair (someone else's cookie on
 *     the same host) is skipped, never an error; the first of a name wins.
 * Everything decoded lives in the request's arena.
 */
#ifndef SPIELTISCH_HTTP_H
#define SPIELTISCH_HTTP_H

#include <stddef.h>

#include "arena.h"

enum {
	HTTP_BODY_MAX = 16 * 1024,   /* bytes of a form body */
	HTTP_QUERY_MAX = 2048,       /* bytes of a query string */
	HTTP_FIELDS_MAX = 32,        /* fields of one query or form */
	HTTP_KEY_MAX = 40,           /* bytes of one key */
	HTTP_VALUE_MAX = 8192,       /* bytes of one decoded value */
	HTTP_COOKIES_MAX = 24,       /* cookies read; more are ignored */
	HTTP_SET_COOKIES_MAX = 3,    /* Set-Cookie headers of one response */
	HTTP_COOKIE_VALUE_MAX = 2048 /* bytes of a cookie value we set (a table's note) */
};

enum http_method { HTTP_GET, HTTP_HEAD, HTTP_POST, HTTP_METHOD_OTHER, HTTP_METHOD__MAX };

enum http_status {
	HTTP_200, HTTP_204, HTTP_303, HTTP_400, HTTP_403, HTTP_404, HTTP_405, HTTP_409,
	HTTP_413, HTTP_415, HTTP_422, HTTP_429, HTTP_500, HTTP_503, HTTP_STATUS__MAX
};

/* Why a request was refused at the edge. Each has a status and a key that
 * the error page turns into a German sentence (templates/error.tpl). */
enum http_err {
	HTTP_E_NONE,
	HTTP_E_ESCAPE,        /* 400: '%' not followed by two hex digits */
	HTTP_E_UTF8,          /* 400: a value is not valid UTF-8 */
	HTTP_E_NUL,           /* 400: a decoded NUL byte */
	HTTP_E_KEY,           /* 400: empty key, too long, or characters outside the set */
	HTTP_E_REPEATED,      /* 400: a key given twice */
	HTTP_E_VALUE_LONG,    /* 413: one value over HTTP_VALUE_MAX */
	HTTP_E_TOO_MANY,      /* 413: more than HTTP_FIELDS_MAX fields */
	HTTP_E_TOO_LARGE,     /* 413: body or query over its limit */
	HTTP_E_BODY_TYPE,     /* 415: a body that is not a urlencoded form */
	HTTP_E_BODY_SHORT,    /* 400: fewer body bytes than Content-Length said */
	HTTP_E_UNKNOWN,       /* 400: a field no handler expects */
	HTTP_E_MISSING,       /* 400: a required field is absent */
	HTTP_E_INVALID,       /* 400: a field fails its validator */
	HTTP_E_PATH,          /* 400: no path, or one that does not start with '/' */
	HTTP_E__MAX
};

enum http_status http_err_status(enum http_err e);
/* "escape", "utf8", …: the name of the error page's section for e. */
const char *http_err_key(enum http_err e);
/* 200 for HTTP_200 … */
int http_status_code(enum http_status s);

struct http_field {
	const char *key;
	const char *val;   /* NUL-terminated; len excludes the NUL */
	size_t len;
};

struct http_fields {
	struct http_field f[HTTP_FIELDS_MAX];
	int n;
};

/* The value of `key`, or NULL. */
const char *http_get(const struct http_fields *f, const char *key);

/* Decodes "k=v&k2=v2" (a query string or an urlencoded body) of n bytes
 * into out (strings in the arena). HTTP_E_NONE or why not; on error out is
 * left partly filled and must not be used. */
enum http_err http_decode_form(struct arena *a, const char *s, size_t n, struct http_fields *out);

/* Reads a Cookie header ("a=1; b=2"); never fails, skips what is malformed. */
void http_decode_cookies(struct arena *a, const char *header, struct http_fields *out);

/* A path segment s[0..n) percent-decoded ('+' stays '+') into a new arena
 * string; NULL for a bad escape, a NUL or invalid UTF-8 (or no memory). */
char *http_path_decode(struct arena *a, const char *s, size_t n);
/* s percent-encoded for a path segment: every byte but A–Z a–z 0–9 - _ . ~
 * as %XX (UTF-8 bytes one by one). A new arena string, or NULL. */
char *http_path_escape(struct arena *a, const char *s);
/* head, then s escaped as http_path_escape does, in one arena string: a
 * link such as "/u/" and a name (page_user_url: 21 a tournament page). */
char *http_path_escape_after(struct arena *a, const char *head, const char *s);

/* 1 when s[0..n) is well-formed UTF-8 (no overlong forms, no surrogates). */
int http_utf8_valid(const char *s, size_t n);

/* Strict decimal integer: optional '-', digits only, the whole string,
 * within min..max. 0 and *out set, or -1. */
int http_int(const char *s, long long min, long long max, long long *out);

/* ---- the request ---- */

/* What the server hands over, straight from the FastCGI parameters. */
struct http_raw {
	const char *method;        /* REQUEST_METHOD */
	const char *uri;           /* REQUEST_URI: path and query as sent */
	const char *content_type;  /* CONTENT_TYPE or NULL */
	const char *cookie;        /* HTTP_COOKIE or NULL */
	const char *accept;        /* HTTP_ACCEPT or NULL */
	const char *accept_language;   /* HTTP_ACCEPT_LANGUAGE or NULL */
	const char *remote_addr;   /* REMOTE_ADDR or NULL */
	const char *host;          /* HTTP_HOST or NULL */
	const char *body;          /* the body read so far (may be NULL when len is 0) */
	size_t body_len;
};

struct http_req {
	enum http_method method;
	const char *path;          /* the URL path, not decoded, no query */
	struct http_fields query, form, cookies;
	const char *accept;        /* "" when absent */
	const char *accept_language;   /* "" when absent */
	const char *remote_addr;   /* "" when absent */
	const char *host;          /* the Host header; "" when absent or not a plain
	                            * host[:port] (letters, digits, . - : [ ]) */
	int wants_json;            /* Accept names application/json and not text/html */
};

/* Fills req from raw: HTTP_E_NONE, or why the request is refused
 * (http_err_status() gives 400/413/415). */
enum http_err http_req_parse(struct arena *a, const struct http_raw *raw, struct http_req *req);

/* ---- validation at the edge: a table of fields per form ---- */

enum http_vkind {
	HTTP_V_TEXT,   /* min..max bytes, valid UTF-8 (already checked) */
	HTTP_V_INT,    /* strict integer in min..max */
	HTTP_V_BOOL,   /* a checkbox: absent 0, "1" or "on" 1 */
	HTTP_V__MAX
};

struct http_rule {
	const char *key;
	enum http_vkind kind;
	int required;
	long long min, max;
};

struct http_value {
	int present;
	const char *s;     /* the text ("" when absent) */
	long long n;       /* HTTP_V_INT, HTTP_V_BOOL */
};

/* Checks every field of f against rules (out[i] for rules[i]): unknown
 * keys, missing required ones and values failing their validator are
 * refused (HTTP_E_UNKNOWN / _MISSING / _INVALID, all 400). */
enum http_err http_validate(const struct http_fields *f, const struct http_rule *rules,
			    int nrules, struct http_value *out);

/* ---- the response ---- */

struct http_cookie {
	const char *name, *value;
	long max_age;              /* seconds; 0 deletes the cookie */
};

struct http_resp {
	enum http_status status;
	const char *content_type;  /* NULL: no body (204, 303) */
	const char *body;
	size_t len;
	const char *location;      /* 303 */
	const char *allow;         /* 405 */
	int retry_after;           /* seconds for Retry-After (429, 503); 0: none */
	struct http_cookie cookies[HTTP_SET_COOKIES_MAX];
	int ncookies;
};

struct http_conf {
	int secure_cookies;        /* add Secure to every Set-Cookie */
	int live;                  /* pages name their live channel (serve --publish) */
};

typedef int (*http_write_fn)(void *ctx, const char *p, size_t n);

/* The one way out: formats status, security headers (CSP, nosniff,
 * Referrer-Policy, Cache-Control: no-store), content type, cookies
 * (HttpOnly; SameSite=Lax; Path=/; Secure when configured), Location, and
 * the body (left out when head_only) into one buffer and hands it to `write`
 * in one call. Returns write's result, or -1 when formatting failed (bad
 * cookie or header text: a programmer's error, logged). */
int http_respond(struct arena *a, const struct http_conf *conf, const struct http_resp *r,
		 int head_only, http_write_fn write, void *ctx);

/* Adds a cookie to r (ignored past HTTP_SET_COOKIES_MAX, which is a bug). */
void http_set_cookie(struct http_resp *r, const char *name, const char *value, long max_age);

#endif
