/* pageprof.c — one GET answered again and again in one process, without
 * nginx or a socket: the request is parsed, routed and written as a worker
 * does (cgi/server.c), to a writer that only counts bytes. For counting a
 * page's instructions under callgrind (only run_requests() is collected:
 * `valgrind --tool=callgrind --toggle-collect=run_requests …`, then divide
 * by --n) and for a quick look at where they go.
 *
 *   pageprof --db FILE --root DIR --path /t/5 [--cookie 'st=…'] [--accept A] [--n N]
 *            [--dump FILE] [--now MS]
 *   pageprof --db FILE --root DIR --moves TSV [--n N]
 *
 * Prints the status, the body's bytes and the mean wall time per request.
 * --dump writes the first answer (head and body) to FILE, so that two builds'
 * pages can be compared byte for byte; --now pins the clock the requests see
 * (milliseconds since 1970), for pages that show the time.
 *
 * --moves posts prepared moves instead (a file of the bench's tuples,
 * "index TAB table TAB path TAB cookie TAB body", each table's first one
 * as profile.sh picks them): the first quarter (10 at most) warm up, the
 * next N (all by default) are the measured requests, each a 303 once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arena.h"
#include "http.h"
#include "lexicon.h"
#include "page.h"
#include "play.h"
#include "route.h"
#include "store.h"
#include "tmpl.h"

struct sink {
	size_t bytes;
	FILE *dump;   /* when set, the answer is written here as well */
};

static int count(void *ctx, const char *p, size_t n)
{
	struct sink *s = ctx;
	s->bytes += n;
	if (s->dump && fwrite(p, 1, n, s->dump) != n)
		return -1;
	return 0;
}

static int64_t pinned_ms;   /* --now; 0: the real clock */

static int64_t now_ms(void)
{
	if (pinned_ms)
		return pinned_ms;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static double mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* n times the request; the last status into *status. */
__attribute__((noinline)) static void serve(struct store *s, struct arena *a,
					    const struct http_raw *raw, long n,
					    struct sink *out, int *status)
{
	static const struct http_conf conf = { 0 };
	for (long i = 0; i < n; i++) {
		struct http_req req;
		struct page p;
		memset(&p, 0, sizeof p);
		p.a = a;
		p.store = s;
		p.conf = &conf;
		p.req = &req;
		p.now_ms = now_ms();
		if (http_req_parse(a, raw, &req) != HTTP_E_NONE) {
			*status = -1;
			return;
		}
		route_dispatch(&p);
		*status = http_status_code(p.resp.status);
		out->bytes = 0;
		http_respond(a, &conf, &p.resp, 0, count, out);
		arena_reset(a);
	}
}

/* The first request: statements prepared, templates touched. Not counted. */
__attribute__((noinline)) static void warm(struct store *s, struct arena *a,
					   const struct http_raw *raw, struct sink *out,
					   int *status)
{
	serve(s, a, raw, 1, out, status);
}

/* The measured requests. Not inlined, so that callgrind's --toggle-collect
 * finds it (the warm request is outside it). */
__attribute__((noinline)) static void run_requests(struct store *s, struct arena *a,
						   const struct http_raw *raw, long n,
						   struct sink *out, int *status)
{
	serve(s, a, raw, n, out, status);
}

enum { MOVES_MAX = 4096 };

/* The tuples' fields as requests: POST path with the cookie and body. */
static int read_moves(const char *file, struct http_raw *raw, int max)
{
	FILE *f = fopen(file, "r");
	char line[4096];
	int n = 0;
	if (!f) {
		perror(file);
		return -1;
	}
	while (n < max && fgets(line, sizeof line, f)) {
		char *fld[5];
		char *p = line;
		int k;
		line[strcspn(line, "\n")] = '\0';
		for (k = 0; k < 5 && p; k++) {
			fld[k] = p;
			p = strchr(p, '\t');
			if (p)
				*p++ = '\0';
		}
		if (k < 5)
			continue;
		raw[n] = (struct http_raw){ .method = "POST", .uri = strdup(fld[2]),
					    .cookie = strdup(fld[3]),
					    .content_type = "application/x-www-form-urlencoded",
					    .body = strdup(fld[4]), .body_len = strlen(fld[4]),
					    .accept = "text/html", .remote_addr = "127.0.0.1",
					    .host = "127.0.0.1" };
		n++;
	}
	fclose(f);
	return n;
}

/* Each of raw[0..n) once; the statuses other than 303 are counted. The
 * warm-up calls serve() itself: a second function with this body would be
 * folded into this one (gcc's -fipa-icf) and counted with it. */
__attribute__((noinline)) static int run_moves(struct store *s, struct arena *a,
					       const struct http_raw *raw, int n,
					       struct sink *out)
{
	int bad = 0;
	for (int i = 0; i < n; i++) {
		int status = 0;
		serve(s, a, &raw[i], 1, out, &status);
		bad += status != 303;
	}
	return bad;
}

int main(int argc, char **argv)
{
	const char *moves = NULL;
	const char *db = NULL, *root = ".", *path = NULL, *cookie = NULL;
	const char *accept = "text/html", *dump = NULL;
	long n = 100;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--db")) db = argv[i + 1];
		else if (!strcmp(argv[i], "--root")) root = argv[i + 1];
		else if (!strcmp(argv[i], "--path")) path = argv[i + 1];
		else if (!strcmp(argv[i], "--cookie")) cookie = argv[i + 1];
		else if (!strcmp(argv[i], "--accept")) accept = argv[i + 1];
		else if (!strcmp(argv[i], "--n")) n = strtol(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--dump")) dump = argv[i + 1];
		else if (!strcmp(argv[i], "--now")) pinned_ms = strtoll(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--moves")) moves = argv[i + 1];
		else {
			fprintf(stderr, "pageprof: unknown %s\n", argv[i]);
			return 2;
		}
	}
	if (!db || (!path && !moves) || n < 1) {
		fprintf(stderr, "usage: pageprof --db FILE --root DIR --path PATH [--cookie C] "
				"[--accept A] [--n N] [--dump FILE] [--now MS]\n");
		return 2;
	}
	char dir[4096];
	struct store *s = NULL;
	struct arena a;
	snprintf(dir, sizeof dir, "%s/templates", root);
	if (tmpl_load(dir) != 0)
		return 1;
	snprintf(dir, sizeof dir, "%s/schema", root);
	store_maintain(NULL, ST_MAINT_ONE_THREAD, NULL);   /* as cmd_serve */
	if (store_open(&s, db, dir) != ST_OK)
		return 1;
	play_set_lookup(lexicon_lookup());
	arena_init(&a, 16 << 20);
	if (moves) {
		static struct http_raw list[MOVES_MAX];
		struct sink msink = { 0, NULL };
		int total = read_moves(moves, list, MOVES_MAX);
		int half = total < 40 ? total / 4 : 10;
		if (total <= half)
			return 1;
		int meas = total - half < n ? total - half : (int)n;
		if (n == 100)   /* (the default: all of them) */
			meas = total - half;
		int bad = 0;
		for (int i = 0; i < half; i++) {
			int status = 0;
			serve(s, &a, &list[i], 1, &msink, &status);
			bad += status != 303;
		}
		double t0 = mono();
		bad += run_moves(s, &a, list + half, meas, &msink);
		printf("moves: %d measured, %d not 303, %.1f us a move\n", meas, bad,
		       (mono() - t0) / meas * 1e6);
		arena_free(&a);
		store_close(s);
		return bad ? 1 : 0;
	}
	struct http_raw raw = { .method = "GET", .uri = path, .cookie = cookie, .accept = accept,
				.remote_addr = "127.0.0.1", .host = "127.0.0.1" };
	struct sink out = { 0, NULL };
	int status = 0;
	if (dump && !(out.dump = fopen(dump, "wb"))) {
		perror(dump);
		return 1;
	}
	warm(s, &a, &raw, &out, &status);
	if (out.dump && fclose(out.dump) != 0) {
		perror(dump);
		return 1;
	}
	out.dump = NULL;
	double t0 = mono();
	run_requests(s, &a, &raw, n, &out, &status);
	double each = (mono() - t0) / (double)n;
	printf("%s: status %d, %zu bytes, %.1f us a request\n", path, status, out.bytes,
	       each * 1e6);
	arena_free(&a);
	store_close(s);
	return status == 200 || status == 204 ? 0 : 1;
}
