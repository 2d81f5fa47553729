/*
 * harness.h — integration tests against the real program behind real nginx.
 *
 * h_start() builds a fresh temporary directory, starts
 *   build/spieltisch serve --socket DIR/spieltisch.sock --workers 2
 *                          --db DIR/spieltisch.db --root ROOT
 * and nginx from deploy/nginx.conf.in (filled in with a free port on
 * 127.0.0.1, DIR and ROOT), and waits, at most H_START_TIMEOUT_MS, until a
 * request through nginx reaches the app. Both are stopped at exit (also
 * when an assertion fails) and the directory is removed. When the test is
 * killed or crashes, the servers are still stopped (a signal handler, and
 * on Linux the parent-death signal), but the directory stays behind.
 *
 * ROOT, the project directory, is $SPIELTISCH_ROOT or the nearest directory
 * at or above the current one that holds deploy/nginx.conf.in. The program
 * is $SPIELTISCH_BIN or ROOT/build/spieltisch. The harness sets
 * SPIELTISCH_FAST_HASH=1 for the app, so that registering is quick, and
 * SPIELTISCH_DEBUG=1, so that a request that leaves a transaction open
 * aborts its worker (a 502) instead of being rolled back quietly.
 * With SPIELTISCH_IT_KEEP=1 the directory (logs, database) is kept and its
 * path printed; with SPIELTISCH_IT_LOGS=1 the logs are printed at exit.
 *
 * The client: one struct h_client per simulated browser, each with its own
 * cookie jar; redirects are never followed; every request has a timeout
 * (H_REQUEST_TIMEOUT_MS). A response keeps the status, the raw header block
 * and the body (NUL-terminated).
 *
 * Typical use:
 *   assert_int_equal(h_start(), 0);
 *   struct h_client *c = h_client_new();
 *   struct h_resp r;
 *   assert_int_equal(h_get(c, "/register", &r), 0);
 *   char csrf[128];
 *   assert_int_equal(h_csrf(&r, csrf, sizeof csrf), 0);
 *   h_resp_free(&r);
 *   assert_int_equal(h_post_form(c, "/register", &r, "name", "Anna",
 *                                "password", "geheim123", "csrf", csrf, NULL), 0);
 *   assert_int_equal(r.status, 303);
 *   h_resp_free(&r);
 *   h_client_free(c);
 */
#ifndef SPIELTISCH_HARNESS_H
#define SPIELTISCH_HARNESS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The start may take a minute: the server reads the hyphenation patterns
 * before its workers start (about 2.5 s on a quiet core, over 20 s seen on
 * a busy machine). A request may wait 30 s: two test binaries run at once. */
enum { H_START_TIMEOUT_MS = 60000, H_REQUEST_TIMEOUT_MS = 30000, H_BODY_MAX = 8 << 20 };

/* Starts the app and nginx (once per process; later calls return 0 at
 * once). 0, or -1 with the reason and the logs on stderr. */
int h_start(void);
/* Stops both and removes the directory; also runs at exit. Idempotent. */
void h_stop(void);

/* "http://127.0.0.1:PORT" (no trailing slash); valid after h_start(). */
const char *h_base(void);
/* The temporary directory (database, socket, logs) and the project root
 * (the root is found also before h_start: "" when there is none). */
const char *h_dir(void);
const char *h_root(void);
/* The database file the app uses (to inspect it with SQLite). */
const char *h_db_path(void);
/* Starts argv (argv[0] looked up in $PATH) in a process group of its own,
 * stdin from /dev/null, stdout and stderr appended to logfile; on Linux it
 * gets SIGTERM when the test process dies. Its pid, or -1. For a test that
 * runs more servers than h_start's pair (test_scale: two apps, two nginx,
 * redis); that test stops them itself. */
pid_t h_spawn(char *const argv[], const char *logfile);
/* 1 when the live channels are on: nginx has the Nchan module and
 * SPIELTISCH_NCHAN is not "off"; the app then publishes to DIR/live.sock. */
int h_live(void);
/* Prints the tails of the app's and nginx's logs to stderr (for a failure). */
void h_dump_logs(void);

struct h_client;

/* A new browser with an empty cookie jar; NULL only without memory. */
struct h_client *h_client_new(void);
void h_client_free(struct h_client *c);
/* The Accept header this client sends from now on (NULL or "": none, the
 * default): a browser's "text/html,…", or "application/json". */
void h_client_accept(struct h_client *c, const char *accept);
/* The server this client talks to from now on: "http://127.0.0.1:PORT"
 * (NULL or "": h_base(), the default). For a test with two nginx: the
 * cookie jar is per host, not per port, so both see the same session. */
void h_client_base(struct h_client *c, const char *base);
/* The value of a cookie this client holds for the server, into out;
 * 0, or -1 when it has none. */
int h_cookie(struct h_client *c, const char *name, char *out, size_t cap);

struct h_resp {
	long status;          /* 0 when no HTTP answer came */
	char *headers;        /* the raw header lines of the final answer */
	char *body;           /* NUL-terminated; body_len excludes the NUL */
	size_t body_len;
	double seconds;       /* total time of the request */
};

/* Requests `path` (starting with '/', query included). 0 when an HTTP
 * answer came (whatever its status), -1 on a transport error or timeout
 * (r->status 0). The response is the caller's: h_resp_free(). */
int h_get(struct h_client *c, const char *path, struct h_resp *r);
/* POST with an application/x-www-form-urlencoded body given as
 * NULL-terminated key, value pairs (values are percent-encoded here). */
int h_post_form(struct h_client *c, const char *path, struct h_resp *r, ...);
/* Any method with a raw body (may be NULL) and content type (may be NULL). */
int h_request(struct h_client *c, const char *method, const char *path,
	      const char *content_type, const char *body, size_t len, struct h_resp *r);
void h_resp_free(struct h_resp *r);

/* A header of the response (name case-insensitive, value trimmed) into
 * out; 0, or -1 when absent. */
int h_header(const struct h_resp *r, const char *name, char *out, size_t cap);
/* 1 when the body contains `needle`. */
int h_has(const struct h_resp *r, const char *needle);

/* The value of the first <input> named `name` in the body (entities
 * &amp; &lt; &gt; &quot; &#39; decoded); 0, or -1 when there is none. */
int h_input(const struct h_resp *r, const char *name, char *out, size_t cap);
/* The CSRF token of a page: the input named "csrf". */
int h_csrf(const struct h_resp *r, char *out, size_t cap);
/* The table version a page shows: the input named "v", as a number. */
int h_version(const struct h_resp *r, int64_t *v);

#endif
