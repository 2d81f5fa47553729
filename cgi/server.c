/*
 * server.c — `spieltisch serve`: the FastCGI socket, pre-forked workers and
 * their accept loop.
 *
 * The master opens the socket (or inherits it as fd 0 from a spawner),
 * applies the schema once, forks N workers and restarts any that dies.
 * SIGTERM or SIGINT stops everything: the master passes SIGTERM on, a worker
 * finishes the request it is in and leaves its accept loop.
 * The catalogs, the templates and the German lexicon (cgi/lexicon.h) are
 * loaded before the fork, so that the workers share them; each worker opens its own store after it;
 * per request it uses one arena that is reset when the answer is out, and
 * after a request that left much memory free it gives that back (give_back).
 *
 * One more child, the checkpointer, copies the WAL into the database twenty
 * times a second, so that no request pays for a checkpoint: the workers'
 * automatic checkpoint on commit is only a backstop for a WAL far larger
 * than normal.
 *
 * With --publish unix:PATH a third kind of child, the publisher, pushes the
 * public versions the workers' writes changed to nginx's Nchan channels
 * (live.h; docs/api.md "Live channels").
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <fcgiapp.h>

#include "auth.h"
#include "cmd.h"
#include "http.h"
#include "i18n.h"
#include "page.h"
#include "route.h"
#include "lexicon.h"
#include "live.h"
#include "play.h"
#include "sandbox.h"
#include "store.h"
#include "text.h"
#include "tmpl.h"

enum {
	WORKERS_MAX = 64,
	EXIT_CONFIG = 78,                 /* a worker cannot start: do not restart it */
	REQUEST_ARENA_MAX = 16 << 20,     /* bytes one request may allocate */
	REQUEST_LARGE = 1 << 20,          /* a request whose arena took more is a large one */
	HEAP_DROP = 128 << 10,            /* SQLite's memory fallen this far below its peak */
	TRIM_EVERY_MS = 1000,             /* malloc_trim at most this often */
	BACKLOG = 128,
	CHECKPOINT_EVERY_MS = 50          /* the checkpointer's period: its syncs hold up
					     the commits' WAL writes in the kernel, the
					     longer the more they sync (docs/benchmarks.md,
					     "The moves' tail") */
};

struct serve_opts {
	const char *socket, *db, *root;
	const char *publish;              /* --publish unix:PATH (live.h), NULL off */
	int workers;
	struct http_conf http;
};

static volatile sig_atomic_t stopping;

static void on_stop(int sig)
{
	(void)sig;
	stopping = 1;
}

static void on_stop_worker(int sig)
{
	(void)sig;
	stopping = 1;
	FCGX_ShutdownPending();
}

static void set_signal(int sig, void (*fn)(int))
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;   /* no SA_RESTART: accept() and wait() return EINTR */
	sigaction(sig, &sa, NULL);
}

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int fcgi_write(void *ctx, const char *p, size_t n)
{
	if (n > INT_MAX)
		return -1;
	return FCGX_PutStr(p, (int)n, ctx) == (int)n ? 0 : -1;
}

/* Reads exactly `want` body bytes into the arena; fewer means a short body. */
static char *read_body(FCGX_Request *rq, struct arena *a, size_t want, size_t *got)
{
	char *buf = arena_alloc(a, want + 1);
	*got = 0;
	if (!buf)
		return NULL;
	while (*got < want) {
		int n = FCGX_GetStr(buf + *got, (int)(want - *got), rq->in);
		if (n <= 0)
			break;
		*got += (size_t)n;
	}
	return buf;
}

/* One request from accept to the written answer. Answers 400/413/415 for
 * what the edge refuses, else whatever the route and handler decide. */
/* The request's parameters the app reads, found in one pass over the
 * environment: FCGX_GetParam walks it from the start for every name (4.6k
 * instructions a request for these nine). As there, a name's first entry
 * wins and a missing one is NULL. */
enum { P_METHOD, P_URI, P_CTYPE, P_COOKIE, P_ACCEPT, P_LANG, P_ADDR, P_HOST, P_CLEN, P_N };

static void request_params(char **envp, const char *out[P_N])
{
	static const char *const name[P_N] = {
		"REQUEST_METHOD", "REQUEST_URI", "CONTENT_TYPE", "HTTP_COOKIE", "HTTP_ACCEPT",
		"HTTP_ACCEPT_LANGUAGE", "REMOTE_ADDR", "HTTP_HOST", "CONTENT_LENGTH" };
	static const unsigned char len[P_N] = { 14, 11, 12, 11, 11, 20, 11, 9, 14 };
	for (int i = 0; i < P_N; i++)
		out[i] = NULL;
	for (; envp && *envp; envp++) {
		const char *e = *envp;
		for (int i = 0; i < P_N; i++)
			if (!out[i] && e[0] == name[i][0] && strncmp(e, name[i], len[i]) == 0 &&
			    e[len[i]] == '=') {
				out[i] = e + len[i] + 1;
				break;
			}
	}
}

static void handle(FCGX_Request *rq, struct store *store, struct arena *a,
		   const struct serve_opts *o)
{
	struct http_req req;
	struct page p;
	memset(&p, 0, sizeof p);
	p.a = a;
	p.store = store;
	p.conf = &o->http;
	p.req = &req;
	p.now_ms = now_ms();

	const char *prm[P_N];
	request_params(rq->envp, prm);
	struct http_raw raw = {
		.method = prm[P_METHOD],
		.uri = prm[P_URI],
		.content_type = prm[P_CTYPE],
		.cookie = prm[P_COOKIE],
		.accept = prm[P_ACCEPT],
		.accept_language = prm[P_LANG],
		.remote_addr = prm[P_ADDR],
		.host = prm[P_HOST],
	};
	enum http_err err = HTTP_E_NONE;
	const char *cl = prm[P_CLEN];
	long long clen = 0;
	if (cl && *cl && http_int(cl, 0, LLONG_MAX, &clen) != 0)
		err = HTTP_E_INVALID;
	else if (clen > HTTP_BODY_MAX)
		err = HTTP_E_TOO_LARGE;
	else if (clen > 0) {
		size_t got = 0;
		raw.body = read_body(rq, a, (size_t)clen, &got);
		raw.body_len = got;
		if (!raw.body || got != (size_t)clen)
			err = HTTP_E_BODY_SHORT;
	}
	if (err == HTTP_E_NONE)
		err = http_req_parse(a, &raw, &req);
	else
		memset(&req, 0, sizeof req);
	if (err != HTTP_E_NONE) {
		if (!req.path)
			req.path = "/";
		/* the error page in the reader's language, not the last request's */
		i18n_use(i18n_accept(raw.accept_language));
		page_error(&p, http_err_status(err), http_err_key(err));
	} else
		route_dispatch(&p);
	if (p.resp.status >= HTTP_500)
		fprintf(stderr, "serve: %s %s -> %d\n", raw.method ? raw.method : "?",
			raw.uri ? raw.uri : "?", http_status_code(p.resp.status));
	if (http_respond(a, &o->http, &p.resp, p.head_only, fcgi_write, rq->out) != 0)
		fprintf(stderr, "serve: could not write the answer to %s\n", raw.uri ? raw.uri : "?");
}

/* After a request that left much of the heap free, gives the free pages
 * back to the system: malloc keeps them otherwise, and a worker's resident
 * size would stay that of its largest request and its largest page cache.
 * Much: a large request (the reset frees its arena's blocks), or SQLite's
 * memory HEAP_DROP below its peak during the request (a page cache read
 * anew after another process wrote, a large query's temporary pages). At
 * most every TRIM_EVERY_MS, so that a request that does this every time
 * pays for it (a trim, then the pages touched anew) once a second, not
 * each time. The checks cost a few dozen instructions. */
static void give_back(size_t request_bytes)
{
	static int64_t last_ms;
	struct st_maint m = { 0 };
	store_maintain(NULL, ST_MAINT_MEMORY, &m);
	if (request_bytes <= REQUEST_LARGE && m.peak - m.held <= HEAP_DROP)
		return;
	int64_t ms = now_ms();
	if (ms - last_ms < TRIM_EVERY_MS)
		return;
	last_ms = ms;
	malloc_trim(0);
}

/* A worker: its own store, then requests until told to stop. */
static int worker(int fd, const struct serve_opts *o)
{
	set_signal(SIGTERM, on_stop_worker);
	set_signal(SIGINT, on_stop_worker);
	signal(SIGPIPE, SIG_IGN);
	char path[PATH_MAX];
	struct store *store = NULL;
	struct arena a;
	arena_init(&a, REQUEST_ARENA_MAX);
	int rc = EXIT_CONFIG;

	snprintf(path, sizeof path, "%s/schema", o->root);
	if (store_open(&store, o->db, path) != ST_OK) {
		fprintf(stderr, "serve: cannot open %s\n", o->db);
		goto out;
	}
	store_maintain(store, ST_MAINT_WORKER, NULL);
	if (live_worker(store) != 0) {
		fprintf(stderr, "serve: cannot watch the store for the live channels\n");
		goto out;
	}
	play_set_lookup(lexicon_lookup());   /* read by the master: lexicon_preload() */
	/* password hashing may occupy half the workers at most (at least one),
	 * so that a login flood leaves the others to the game pages */
	/* (their lock files lie beside SQLite's file; on PostgreSQL beside the socket) */
	const char *slots = store_is_postgres(o->db) ? o->socket : o->db;
	if (slots && auth_hash_slots(slots, o->workers / 2 > 0 ? o->workers / 2 : 1) != 0)
		goto out;
	FCGX_Request rq;
	if (FCGX_InitRequest(&rq, fd, 0) != 0)
		goto out;
	/* start-up is done: from here on no exec, no new process, no socket */
	if (sandbox_wanted() && sandbox_enter() != 0)
		goto out;
	rc = 0;
	while (!stopping) {
		if (FCGX_Accept_r(&rq) < 0)
			break;
		handle(&rq, store, &a, o);
		FCGX_Finish_r(&rq);
		live_after_request(store);   /* the answer is out: then the push */
		size_t used = a.total;
		arena_reset(&a);
		give_back(used);
	}
	FCGX_Free(&rq, 1);
out:
	arena_free(&a);
	if (store)
		store_close(store);
	return rc;
}

/* The checkpointer: every CHECKPOINT_EVERY_MS it copies the WAL into the
 * database outside the requests (the store's round, ST_MAINT_CHECKPOINT,
 * which also makes a long WAL start over). Exits 0 when told to stop,
 * EXIT_CONFIG when the database does not open. */
static int checkpointer(int fd, const struct serve_opts *o)
{
	set_signal(SIGTERM, on_stop);
	set_signal(SIGINT, on_stop);
	close(fd);
	char path[PATH_MAX];
	struct store *store = NULL;
	snprintf(path, sizeof path, "%s/schema", o->root);
	if (store_open(&store, o->db, path) != ST_OK) {
		fprintf(stderr, "serve: checkpointer cannot open %s\n", o->db);
		return EXIT_CONFIG;
	}
	store_maintain(store, ST_MAINT_CHECKPOINTER, NULL);
	if (sandbox_wanted() && sandbox_enter() != 0) {
		store_close(store);
		return EXIT_CONFIG;
	}
	while (!stopping) {
		struct timespec ts = { CHECKPOINT_EVERY_MS / 1000,
				       (CHECKPOINT_EVERY_MS % 1000) * 1000000L };
		nanosleep(&ts, NULL);
		struct st_maint m = { .stop = &stopping };
		if (!stopping)
			store_maintain(store, ST_MAINT_CHECKPOINT, &m);
	}
	store_close(store);
	return 0;
}

static int parse_opts(int argc, char **argv, struct serve_opts *o)
{
	*o = (struct serve_opts){ .db = "spieltisch.db", .root = ".", .workers = 2 };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *next = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "--secure-cookies") == 0) {
			o->http.secure_cookies = 1;
			continue;
		}
		if (!next)
			return -1;
		if (strcmp(a, "--socket") == 0)
			o->socket = next;
		else if (strcmp(a, "--db") == 0)
			o->db = next;
		else if (strcmp(a, "--root") == 0)
			o->root = next;
		else if (strcmp(a, "--publish") == 0)
			o->publish = next;
		else if (strcmp(a, "--workers") == 0) {
			long long n;
			if (http_int(next, 1, WORKERS_MAX, &n) != 0)
				return -1;
			o->workers = (int)n;
		} else
			return -1;
		i++;
	}
	return 0;
}

/* The publisher (live.c): no store; sandboxed but for socket and connect
 * (it connects to nginx's unix socket). */
static int publisher(int fd)
{
	set_signal(SIGTERM, on_stop);
	set_signal(SIGINT, on_stop);
	close(fd);
	if (sandbox_wanted() && sandbox_enter_client() != 0)
		return EXIT_CONFIG;
	return live_publisher(&stopping);
}

/* 1 when a server answers on the unix socket at path (a connection is
 * accepted into its backlog), 0 when none does (a stale file: refused). */
static int socket_live(const char *path)
{
	struct sockaddr_un sa;
	if (strlen(path) >= sizeof sa.sun_path)
		return 0;
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	int live = connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0 || errno == EAGAIN;
	close(fd);
	return live;
}

/* The listening socket: --socket PATH (a stale socket file is replaced; a
 * live one, another server's, is left alone and this one does not start),
 * or fd 0 when a spawner passed one; -1 otherwise. */
static int listen_socket(const struct serve_opts *o)
{
	if (!o->socket) {
		struct stat st;
		if (fstat(0, &st) == 0 && S_ISSOCK(st.st_mode))
			return 0;
		fprintf(stderr, "serve: no --socket and fd 0 is not a socket\n");
		return -1;
	}
	struct stat st;
	if (lstat(o->socket, &st) == 0 && S_ISSOCK(st.st_mode)) {
		if (socket_live(o->socket)) {
			fprintf(stderr, "serve: another server is running on %s; stop it first "
					"(or give this one another --socket)\n", o->socket);
			return -1;
		}
		unlink(o->socket);
	}
	int fd = FCGX_OpenSocket(o->socket, BACKLOG);
	if (fd < 0) {
		fprintf(stderr, "serve: cannot listen on %s: %s\n", o->socket, strerror(errno));
		return -1;
	}
	/* nginx's workers run as another user; who may reach the socket is
	 * decided by the directory it is in. */
	if (chmod(o->socket, 0666) != 0)
		fprintf(stderr, "serve: chmod %s: %s\n", o->socket, strerror(errno));
	return fd;
}

/* Starts child `i`: a worker, or the checkpointer when i == o->workers.
 * A child gets SIGTERM when the master dies (even by SIGKILL), so no
 * worker outlives it holding the socket; if the master died before the
 * child asked for that, the child leaves at once. */
static pid_t spawn(int fd, const struct serve_opts *o, int i)
{
	pid_t master = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != master)
			_exit(0);
		/* exit, not _exit: leak checkers run at exit */
		exit(i < o->workers ? worker(fd, o) : i == o->workers ? checkpointer(fd, o) :
								      publisher(fd));
	}
	if (pid < 0)
		fprintf(stderr, "serve: fork: %s\n", strerror(errno));
	return pid;
}

/* Stops every worker: SIGTERM, then SIGKILL after 5 s. */
static void stop_all(pid_t *pids, int n)
{
	for (int i = 0; i < n; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGTERM);
	for (int tries = 0; tries < 50; tries++) {
		int alive = 0;
		for (int i = 0; i < n; i++) {
			if (pids[i] > 0 && waitpid(pids[i], NULL, WNOHANG) == pids[i])
				pids[i] = 0;
			alive += pids[i] > 0;
		}
		if (!alive)
			return;
		struct timespec ts = { 0, 100 * 1000000L };
		nanosleep(&ts, NULL);
	}
	for (int i = 0; i < n; i++)
		if (pids[i] > 0) {
			kill(pids[i], SIGKILL);
			waitpid(pids[i], NULL, 0);
		}
}

int cmd_serve(int argc, char **argv)
{
	struct serve_opts o;
	if (parse_opts(argc, argv, &o) != 0) {
		fprintf(stderr, "usage: spieltisch serve [--socket PATH] [--workers N] [--db FILE|postgresql://...] "
				"[--root DIR] [--secure-cookies] [--publish unix:PATH]\n");
		return 2;
	}
	/* every process of the server (master, checkpointer, workers) calls
	 * SQLite from its main thread only: no mutexes (before any store_open) */
	store_maintain(NULL, ST_MAINT_ONE_THREAD, NULL);
	if (auth_init() != 0 || FCGX_Init() != 0) {
		fprintf(stderr, "serve: cannot initialise libsodium or libfcgi\n");
		return 1;
	}
	char schema[PATH_MAX];
	snprintf(schema, sizeof schema, "%s/schema", o.root);
	struct store *s = NULL;
	if (store_open(&s, o.db, schema) != ST_OK) {   /* migrations run once, here */
		fprintf(stderr, "serve: cannot open %s with %s\n", o.db, schema);
		return 1;
	}
	store_close(s);
	/* Loaded before the fork, so that the workers share the pages of the
	 * catalogs and the German templates instead of each keeping a copy. */
	char templates[PATH_MAX];
	snprintf(templates, sizeof templates, "%s/templates", o.root);
	if (i18n_load_root(o.root) != 0 || tmpl_load(templates) != 0) {
		fprintf(stderr, "serve: templates in %s do not load\n", templates);
		return 1;
	}
	if (live_open(o.publish) != 0)
		return 1;
	o.http.live = live_on();
	int fd = listen_socket(&o);
	if (fd < 0)
		return 1;

	set_signal(SIGTERM, on_stop);
	set_signal(SIGINT, on_stop);
	signal(SIGPIPE, SIG_IGN);
	/* The word game's patterns and word list, before the fork like the
	 * templates: the first word a worker looks up costs what any later one
	 * costs, and no move's write transaction ever waits for a file to load.
	 * Milliseconds with the patterns compiled at build time (cgi/lexfile.h),
	 * seconds with libhyphen's loader when that file is missing or stale:
	 * the socket is open already, so requests wait in its queue meanwhile
	 * instead of being refused. Without the
	 * files the lookups answer "unknown" (logged); the site still runs. */
	lexicon_preload(o.root);
	text_init();   /* ICU's confusable data, likewise shared */
	/* the workers, the checkpointer, the publisher (with --publish) */
	pid_t pids[WORKERS_MAX + 2] = { 0 };
	time_t started[WORKERS_MAX + 2] = { 0 };
	int children = o.workers + 1 + live_on();
	for (int i = 0; i < children; i++) {
		pids[i] = spawn(fd, &o, i);
		started[i] = time(NULL);
	}
	fprintf(stderr, "serve: %d workers on %s\n", o.workers, o.socket ? o.socket : "fd 0");
	int rc = 0;
	while (!stopping) {
		int status;
		pid_t dead = waitpid(-1, &status, 0);
		if (dead < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int i = 0; i < children; i++) {
			if (pids[i] != dead)
				continue;
			pids[i] = 0;
			if (stopping)
				break;
			if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_CONFIG) {
				fprintf(stderr, "serve: a worker could not start; stopping\n");
				stopping = 1;
				rc = 1;
				break;
			}
			fprintf(stderr, "serve: worker %d ended (%s %d); restarting\n", (int)dead,
				WIFSIGNALED(status) ? "signal" : "exit",
				WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
			if (time(NULL) - started[i] < 1)
				sleep(1);   /* no busy loop of a worker that dies at once */
			pids[i] = spawn(fd, &o, i);
			started[i] = time(NULL);
		}
	}
	stop_all(pids, children);
	if (o.socket)
		unlink(o.socket);
	fprintf(stderr, "serve: stopped\n");
	return rc;
}
