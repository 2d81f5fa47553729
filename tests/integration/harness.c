/*
 * harness.c — starts the app and nginx for an integration test and talks
 * HTTP to them with libcurl (see harness.h for the promises).
 *
 * The two servers run in process groups of their own, so that stopping a
 * group also stops its workers; on Linux they also receive SIGTERM when the
 * test process dies without cleaning up.
 *
 * The public functions are documented in harness.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <curl/curl.h>

#include "harness.h"

enum { START_ATTEMPTS = 3, STOP_GRACE_MS = 5000, LOG_TAIL_BYTES = 3000 };

/* The one pair of servers of this test process. */
static struct {
	int started, stopping, quiet;
	char root[PATH_MAX], dir[PATH_MAX], bin[PATH_MAX + 32], db[PATH_MAX + 32];
	char base[64];
	int port;
	volatile pid_t app, nginx;
} H;

struct h_client {
	CURL *curl;
	char accept[128];   /* the Accept header it sends; "" sends none */
	char base[64];      /* the server it talks to; "" is h_base() */
};

/* Sleeps ms, resuming after signals. */
static void msleep(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* Monotonic milliseconds, for timeouts. */
static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ------------------------------------------------------------------ */
/* Finding things                                                      */

static int is_root(const char *dir)
{
	char p[PATH_MAX + 32];
	snprintf(p, sizeof p, "%s/deploy/nginx.conf.in", dir);
	return access(p, R_OK) == 0;
}

/* $SPIELTISCH_ROOT, or the nearest directory upwards holding the nginx
 * template. 0, or -1 with a message. */
static int find_root(void)
{
	const char *env = getenv("SPIELTISCH_ROOT");
	if (env && *env) {
		if (!realpath(env, H.root) || !is_root(H.root)) {
			fprintf(stderr, "harness: SPIELTISCH_ROOT=%s holds no deploy/nginx.conf.in\n", env);
			return -1;
		}
		return 0;
	}
	if (!getcwd(H.root, sizeof H.root))
		return -1;
	for (;;) {
		if (is_root(H.root))
			return 0;
		char *slash = strrchr(H.root, '/');
		if (!slash || slash == H.root) {
			fprintf(stderr, "harness: no project root (deploy/nginx.conf.in) at or above "
					"the current directory; set SPIELTISCH_ROOT\n");
			return -1;
		}
		*slash = '\0';
	}
}

/* A port on 127.0.0.1 that was free a moment ago (nginx may still lose it
 * to somebody else: h_start retries then). */
static int free_port(void)
{
	struct sockaddr_in a;
	socklen_t len = sizeof a;
	int fd = socket(AF_INET, SOCK_STREAM, 0), port = -1;
	if (fd < 0)
		return -1;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
	    getsockname(fd, (struct sockaddr *)&a, &len) == 0)
		port = ntohs(a.sin_port);
	close(fd);
	return port;
}

/* 1 when nginx has the Nchan module and SPIELTISCH_NCHAN is not "off":
 * the live channels are on (deploy/nginx.conf.in, @NCHAN@). */
int h_live(void)
{
	const char *v = getenv("SPIELTISCH_NCHAN");
	if (v && strcmp(v, "off") == 0)
		return 0;
	return access("/usr/lib/nginx/modules/ngx_nchan_module.so", R_OK) == 0;
}

/* Writes the nginx template with @PORT@, @VAR@, @ROOT@, @USER@ and @NCHAN@
 * filled in. */
static int write_nginx_conf(void)
{
	char in[PATH_MAX + 32], out[PATH_MAX + 32], port[16];
	char line[4096];
	int rc = -1;
	snprintf(in, sizeof in, "%s/deploy/nginx.conf.in", H.root);
	snprintf(out, sizeof out, "%s/nginx.conf", H.dir);
	snprintf(port, sizeof port, "%d", H.port);
	FILE *fi = fopen(in, "r"), *fo = fopen(out, "w");
	if (!fi || !fo)
		goto out;
	while (fgets(line, sizeof line, fi)) {
		for (const char *p = line; *p;) {
			const char *val = NULL;
			size_t skip = 0;
			if (strncmp(p, "@PORT@", 6) == 0)
				val = port, skip = 6;
			else if (strncmp(p, "@VAR@", 5) == 0)
				val = H.dir, skip = 5;
			else if (strncmp(p, "@ROOT@", 6) == 0)
				val = H.root, skip = 6;
			else if (strncmp(p, "@USER@", 6) == 0)   /* see nginx.conf.in */
				val = geteuid() == 0 ? "user root;" : "", skip = 6;
			else if (strncmp(p, "@NCHAN@", 7) == 0)
				val = h_live() ? "" : "#", skip = 7;
			if (val) {
				fputs(val, fo);
				p += skip;
			} else {
				fputc(*p++, fo);
			}
		}
	}
	rc = ferror(fi) || ferror(fo) ? -1 : 0;
out:
	if (fi)
		fclose(fi);
	if (fo && fclose(fo) != 0)
		rc = -1;
	if (rc)
		fprintf(stderr, "harness: cannot write %s from %s\n", out, in);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Processes                                                           */

/* Starts argv in a process group of its own, stdout and stderr to logfile.
 * The child's pid, or -1. */
pid_t h_spawn(char *const argv[], const char *logfile)
{
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		setpgid(0, 0);
#ifdef __linux__
		prctl(PR_SET_PDEATHSIG, SIGTERM);
#endif
		int in = open("/dev/null", O_RDONLY);
		int log = open(logfile, O_WRONLY | O_CREAT | O_APPEND, 0644);
		if (in >= 0)
			dup2(in, 0);
		if (log >= 0) {
			dup2(log, 1);
			dup2(log, 2);
		}
		execvp(argv[0], argv);
		if (strcmp(argv[0], "nginx") == 0)
			execv("/usr/sbin/nginx", argv);
		dprintf(2, "harness: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	return pid;
}

/* 1 while pid has not exited (and reaps it when it has). */
static int alive(pid_t pid)
{
	int st;
	return pid > 0 && waitpid(pid, &st, WNOHANG) == 0;
}

/* Sends sig to the group, waits up to STOP_GRACE_MS for the leader and
 * for the group to empty, then kills what is left. */
static void stop_group(pid_t pid, int sig)
{
	int st;
	if (pid <= 0)
		return;
	kill(-pid, sig);
	long long end = now_ms() + STOP_GRACE_MS;
	int reaped = 0;
	while (now_ms() < end) {
		if (!reaped && waitpid(pid, &st, WNOHANG) != 0)
			reaped = 1;
		if (reaped && kill(-pid, 0) != 0 && errno == ESRCH)
			return;
		msleep(10);
	}
	kill(-pid, SIGKILL);
	if (!reaped)
		waitpid(pid, &st, 0);
}

/* On a crash or an interrupt: stop the servers (kill only), then die the
 * usual way. */
static void on_fatal(int sig)
{
	if (H.nginx > 0)
		kill(-H.nginx, SIGTERM);
	if (H.app > 0)
		kill(-H.app, SIGTERM);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* nftw callback: removes one file or (emptied) directory. */
static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

/* Prints the last LOG_TAIL_BYTES of a file in the directory to stderr. */
static void tail_file(const char *name)
{
	char path[PATH_MAX + 64], buf[LOG_TAIL_BYTES + 1];
	snprintf(path, sizeof path, "%s/%s", H.dir, name);
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	if (fseek(f, 0, SEEK_END) == 0) {
		long size = ftell(f);
		if (size > LOG_TAIL_BYTES)
			fseek(f, size - LOG_TAIL_BYTES, SEEK_SET);
		else
			fseek(f, 0, SEEK_SET);
	}
	size_t n = fread(buf, 1, LOG_TAIL_BYTES, f);
	buf[n] = '\0';
	fclose(f);
	if (n)
		fprintf(stderr, "---- %s ----\n%s%s", path, buf, buf[n - 1] == '\n' ? "" : "\n");
}

/* Prints the ends of the app's and nginx's logs. */
void h_dump_logs(void)
{
	if (!H.dir[0])
		return;
	tail_file("app.log");
	tail_file("nginx.out");
	tail_file("nginx-error.log");
}

/* Stops nginx, then the app, and removes the directory (unless kept). */
void h_stop(void)
{
	if (H.stopping)
		return;
	H.stopping = 1;
	pid_t n = H.nginx, a = H.app;
	H.nginx = 0;
	H.app = 0;
	stop_group(n, SIGTERM);
	stop_group(a, SIGTERM);
	if (H.dir[0]) {
		const char *logs = getenv("SPIELTISCH_IT_LOGS"), *keep = getenv("SPIELTISCH_IT_KEEP");
		if (logs && strcmp(logs, "1") == 0)
			h_dump_logs();
		if (keep && strcmp(keep, "1") == 0)
			fprintf(stderr, "harness: kept %s\n", H.dir);
		else
			nftw(H.dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
		H.dir[0] = '\0';
	}
	H.started = 0;
	H.stopping = 0;
}

/* 1 when a request through nginx got an answer from the app. */
static int answers(void)
{
	struct h_client *c = h_client_new();
	struct h_resp r;
	int ok = 0;
	if (!c)
		return 0;
	H.quiet = 1;
	int got = h_get(c, "/", &r);
	H.quiet = 0;
	if (got == 0)
		ok = r.status != 502 && r.status != 503 && r.status != 504;
	h_resp_free(&r);
	h_client_free(c);
	return ok;
}

/* Starts nginx on a fresh port and waits for it to answer; 0, -1 when it
 * stopped (port lost: the caller tries another), -2 on a timeout. */
static int start_nginx(long long deadline)
{
	char conf[PATH_MAX + 32], errlog[PATH_MAX + 32], prefix[PATH_MAX + 2], out[PATH_MAX + 32];
	if ((H.port = free_port()) < 0 || write_nginx_conf() != 0)
		return -2;
	snprintf(H.base, sizeof H.base, "http://127.0.0.1:%d", H.port);
	snprintf(conf, sizeof conf, "%s/nginx.conf", H.dir);
	snprintf(errlog, sizeof errlog, "%s/nginx-error.log", H.dir);
	snprintf(prefix, sizeof prefix, "%s/", H.dir);
	snprintf(out, sizeof out, "%s/nginx.out", H.dir);
	char *argv[] = { "nginx", "-p", prefix, "-c", conf, "-e", errlog, "-g", "daemon off;", NULL };
	H.nginx = h_spawn(argv, out);
	if (H.nginx < 0)
		return -2;
	while (now_ms() < deadline) {
		if (!alive(H.nginx)) {
			H.nginx = 0;
			return -1;
		}
		if (!alive(H.app)) {
			H.app = 0;
			fprintf(stderr, "harness: the app stopped\n");
			return -2;
		}
		if (answers())
			return 0;
		msleep(50);
	}
	fprintf(stderr, "harness: no answer through nginx on %s within %d ms\n", H.base,
		H_START_TIMEOUT_MS);
	return -2;
}

/* See harness.h. */
int h_start(void)
{
	char sock[PATH_MAX + 32], applog[PATH_MAX + 32], workers[] = "2";
	struct stat st;
	if (H.started)
		return 0;
	if (find_root() != 0)
		return -1;
	const char *bin = getenv("SPIELTISCH_BIN");
	snprintf(H.bin, sizeof H.bin, "%s", bin && *bin ? bin : "");
	if (!H.bin[0])
		snprintf(H.bin, sizeof H.bin, "%s/build/spieltisch", H.root);
	if (access(H.bin, X_OK) != 0) {
		fprintf(stderr, "harness: %s is not there: run make first\n", H.bin);
		return -1;
	}
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		return -1;
	snprintf(H.dir, sizeof H.dir, "%s/spieltisch-it-XXXXXX",
		 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(H.dir)) {
		fprintf(stderr, "harness: mkdtemp: %s\n", strerror(errno));
		H.dir[0] = '\0';
		return -1;
	}
	/* nginx's workers may run as another user: they must reach the socket. */
	chmod(H.dir, 0755);
	atexit(h_stop);
	signal(SIGINT, on_fatal);
	signal(SIGTERM, on_fatal);
	signal(SIGSEGV, on_fatal);
	signal(SIGABRT, on_fatal);
	signal(SIGBUS, on_fatal);
	signal(SIGPIPE, SIG_IGN);
	setenv("SPIELTISCH_FAST_HASH", "1", 0);
	setenv("SPIELTISCH_DEBUG", "1", 0);   /* a bug the dispatcher finds aborts (route.c) */

	long long deadline = now_ms() + H_START_TIMEOUT_MS;
	snprintf(sock, sizeof sock, "%s/spieltisch.sock", H.dir);
	snprintf(H.db, sizeof H.db, "%s/spieltisch.db", H.dir);
	snprintf(applog, sizeof applog, "%s/app.log", H.dir);
	char publish[PATH_MAX + 32];
	snprintf(publish, sizeof publish, "unix:%s/live.sock", H.dir);
	char *argv[] = { H.bin, "serve", "--socket", sock, "--workers", workers, "--db", H.db,
			 "--root", H.root, h_live() ? "--publish" : NULL, publish, NULL };
	H.app = h_spawn(argv, applog);
	if (H.app < 0)
		goto fail;
	while (stat(sock, &st) != 0 || !S_ISSOCK(st.st_mode)) {
		if (!alive(H.app)) {
			H.app = 0;
			fprintf(stderr, "harness: the app stopped at start\n");
			goto fail;
		}
		if (now_ms() > deadline) {
			fprintf(stderr, "harness: no socket %s within %d ms\n", sock, H_START_TIMEOUT_MS);
			goto fail;
		}
		msleep(20);
	}
	for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
		int rc = start_nginx(deadline);
		if (rc == 0) {
			H.started = 1;
			return 0;
		}
		if (rc == -2)
			break;
		fprintf(stderr, "harness: nginx stopped at start (port %d taken?), trying again\n",
			H.port);
	}
fail:
	h_dump_logs();
	h_stop();
	return -1;
}

const char *h_base(void)
{
	return H.base;
}

const char *h_dir(void)
{
	return H.dir;
}

const char *h_root(void)
{
	if (!H.root[0] && find_root() != 0)
		H.root[0] = '\0';
	return H.root;
}

const char *h_db_path(void)
{
	return H.db;
}

/* ------------------------------------------------------------------ */
/* The client                                                          */

struct h_client *h_client_new(void)
{
	struct h_client *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->curl = curl_easy_init();
	if (!c->curl) {
		free(c);
		return NULL;
	}
	curl_easy_setopt(c->curl, CURLOPT_COOKIEFILE, "");   /* an empty jar in memory */
	return c;
}

void h_client_free(struct h_client *c)
{
	if (!c)
		return;
	curl_easy_cleanup(c->curl);
	free(c);
}

int h_cookie(struct h_client *c, const char *name, char *out, size_t cap)
{
	struct curl_slist *list = NULL;
	int rc = -1;
	if (curl_easy_getinfo(c->curl, CURLINFO_COOKIELIST, &list) != CURLE_OK)
		return -1;
	/* Netscape format: domain, subdomains, path, secure, expiry, name, value. */
	for (struct curl_slist *l = list; l && rc != 0; l = l->next) {
		const char *f = l->data;
		for (int i = 0; i < 5 && f; i++) {
			f = strchr(f, '\t');
			if (f)
				f++;
		}
		if (!f)
			continue;
		const char *tab = strchr(f, '\t');
		if (!tab || (size_t)(tab - f) != strlen(name) || strncmp(f, name, strlen(name)) != 0)
			continue;
		snprintf(out, cap, "%s", tab + 1);
		rc = 0;
	}
	curl_slist_free_all(list);
	return rc;
}

struct sink {
	char *p;
	size_t len, cap;
	int over;
};

/* Appends to a growing buffer, kept NUL-terminated; -1 beyond H_BODY_MAX. */
static int sink_add(struct sink *s, const char *data, size_t n)
{
	if (s->len + n + 1 > H_BODY_MAX) {
		s->over = 1;
		return -1;
	}
	if (s->len + n + 1 > s->cap) {
		size_t cap = s->cap ? s->cap : 4096;
		while (cap < s->len + n + 1)
			cap *= 2;
		char *p = realloc(s->p, cap);
		if (!p)
			return -1;
		s->p = p;
		s->cap = cap;
	}
	memcpy(s->p + s->len, data, n);
	s->len += n;
	s->p[s->len] = '\0';
	return 0;
}

/* curl write callback: the body into a sink. */
static size_t on_body(char *data, size_t size, size_t n, void *ud)
{
	return sink_add(ud, data, size * n) == 0 ? size * n : 0;
}

/* Keeps only the header block of the last answer (a 100 Continue, if one
 * comes, is dropped when the final status line arrives). */
static size_t on_header(char *data, size_t size, size_t n, void *ud)
{
	struct sink *s = ud;
	if (size * n >= 5 && strncmp(data, "HTTP/", 5) == 0)
		s->len = 0;
	return sink_add(s, data, size * n) == 0 ? size * n : 0;
}

int h_request(struct h_client *c, const char *method, const char *path,
	      const char *content_type, const char *body, size_t len, struct h_resp *r)
{
	char url[4096], ct[256];
	struct sink hb = { 0 }, bb = { 0 };
	struct curl_slist *hdr = NULL;
	CURL *k = c->curl;
	int rc = -1;

	memset(r, 0, sizeof *r);
	if (snprintf(url, sizeof url, "%s%s", c->base[0] ? c->base : H.base, path) >=
	    (int)sizeof url)
		return -1;
	/* Every option a request sets is set here each time (no
	 * curl_easy_reset: the handle keeps its cookie jar and connection). */
	curl_easy_setopt(k, CURLOPT_URL, url);
	curl_easy_setopt(k, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(k, CURLOPT_TIMEOUT_MS, (long)H_REQUEST_TIMEOUT_MS);
	curl_easy_setopt(k, CURLOPT_CONNECTTIMEOUT_MS, 3000L);
	curl_easy_setopt(k, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(k, CURLOPT_PATH_AS_IS, 1L);   /* send "..", "//" as the test wrote them */
	curl_easy_setopt(k, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(k, CURLOPT_WRITEDATA, &bb);
	curl_easy_setopt(k, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(k, CURLOPT_HEADERDATA, &hb);
	curl_easy_setopt(k, CURLOPT_CUSTOMREQUEST, NULL);
	curl_easy_setopt(k, CURLOPT_NOBODY, 0L);
	curl_easy_setopt(k, CURLOPT_HTTPGET, 1L);
	hdr = curl_slist_append(hdr, "Expect:");
	if (c->accept[0]) {
		char ah[160];
		snprintf(ah, sizeof ah, "Accept: %s", c->accept);
		hdr = curl_slist_append(hdr, ah);
	}
	if (content_type) {
		snprintf(ct, sizeof ct, "Content-Type: %s", content_type);
		hdr = curl_slist_append(hdr, ct);
	}
	curl_easy_setopt(k, CURLOPT_HTTPHEADER, hdr);
	if (strcmp(method, "GET") == 0) {
		/* HTTPGET is set above */
	} else if (strcmp(method, "HEAD") == 0) {
		curl_easy_setopt(k, CURLOPT_NOBODY, 1L);
	} else {
		if (strcmp(method, "POST") != 0)
			curl_easy_setopt(k, CURLOPT_CUSTOMREQUEST, method);
		if (body || strcmp(method, "POST") == 0) {
			curl_easy_setopt(k, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
			curl_easy_setopt(k, CURLOPT_POSTFIELDS, body ? body : "");
		}
	}
	long long t0 = now_ms();
	CURLcode cc = curl_easy_perform(k);
	r->seconds = (double)(now_ms() - t0) / 1000.0;
	if (cc == CURLE_OK) {
		curl_easy_getinfo(k, CURLINFO_RESPONSE_CODE, &r->status);
		rc = 0;
	} else if (!H.quiet) {
		fprintf(stderr, "harness: %s %s: %s\n", method, path, curl_easy_strerror(cc));
	}
	curl_easy_setopt(k, CURLOPT_HTTPHEADER, NULL);
	curl_easy_setopt(k, CURLOPT_POSTFIELDS, NULL);
	curl_slist_free_all(hdr);
	r->headers = hb.p ? hb.p : strdup("");
	r->body = bb.p ? bb.p : strdup("");
	r->body_len = bb.len;
	if (!r->headers || !r->body) {
		h_resp_free(r);
		return -1;
	}
	return rc;
}

void h_client_accept(struct h_client *c, const char *accept)
{
	snprintf(c->accept, sizeof c->accept, "%s", accept ? accept : "");
}

void h_client_base(struct h_client *c, const char *base)
{
	snprintf(c->base, sizeof c->base, "%s", base ? base : "");
}

int h_get(struct h_client *c, const char *path, struct h_resp *r)
{
	return h_request(c, "GET", path, NULL, NULL, 0, r);
}

int h_post_form(struct h_client *c, const char *path, struct h_resp *r, ...)
{
	struct sink form = { 0 };
	va_list ap;
	const char *key;
	int rc = -1, first = 1;

	memset(r, 0, sizeof *r);
	va_start(ap, r);
	while ((key = va_arg(ap, const char *)) != NULL) {
		const char *val = va_arg(ap, const char *);
		char *ek = curl_easy_escape(c->curl, key, 0);
		char *ev = curl_easy_escape(c->curl, val ? val : "", 0);
		int bad = !ek || !ev || (!first && sink_add(&form, "&", 1) != 0) ||
			  sink_add(&form, ek, strlen(ek)) != 0 || sink_add(&form, "=", 1) != 0 ||
			  sink_add(&form, ev, strlen(ev)) != 0;
		curl_free(ek);
		curl_free(ev);
		first = 0;
		if (bad)
			goto out;
	}
	rc = h_request(c, "POST", path, "application/x-www-form-urlencoded",
		       form.p ? form.p : "", form.len, r);
out:
	va_end(ap);
	free(form.p);
	return rc;
}

void h_resp_free(struct h_resp *r)
{
	if (!r)
		return;
	free(r->headers);
	free(r->body);
	r->headers = r->body = NULL;
	r->body_len = 0;
}

int h_header(const struct h_resp *r, const char *name, char *out, size_t cap)
{
	size_t n = strlen(name);
	for (const char *l = r->headers; l && *l;) {
		const char *end = strchr(l, '\n');
		size_t len = end ? (size_t)(end - l) : strlen(l);
		if (len > n && strncasecmp(l, name, n) == 0 && l[n] == ':') {
			const char *v = l + n + 1;
			const char *e = l + len;
			while (v < e && (*v == ' ' || *v == '\t'))
				v++;
			while (e > v && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
				e--;
			snprintf(out, cap, "%.*s", (int)(e - v), v);
			return 0;
		}
		l = end ? end + 1 : NULL;
	}
	return -1;
}

int h_has(const struct h_resp *r, const char *needle)
{
	return r->body && strstr(r->body, needle) != NULL;
}

/* Copies an attribute value with the usual entities decoded. */
static void decode_attr(const char *v, size_t n, char *out, size_t cap)
{
	static const struct {
		const char *ent;
		char c;
	} ents[] = { { "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' }, { "&quot;", '"' },
		     { "&#34;", '"' }, { "&#39;", '\'' }, { "&#x27;", '\'' } };
	size_t o = 0;
	for (size_t i = 0; i < n && o + 1 < cap;) {
		size_t k;
		for (k = 0; k < sizeof ents / sizeof ents[0]; k++) {
			size_t el = strlen(ents[k].ent);
			if (i + el <= n && strncmp(v + i, ents[k].ent, el) == 0) {
				out[o++] = ents[k].c;
				i += el;
				break;
			}
		}
		if (k == sizeof ents / sizeof ents[0])
			out[o++] = v[i++];
	}
	if (cap)
		out[o] = '\0';
}

/* Reads one attribute of a tag at *p (up to end): its name and value
 * ranges; 0, or -1 at the end of the tag. */
static int next_attr(const char **p, const char *end, const char **name, size_t *nlen,
		     const char **val, size_t *vlen)
{
	const char *s = *p;
	while (s < end && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '/'))
		s++;
	if (s >= end)
		return -1;
	*name = s;
	while (s < end && *s != '=' && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r' &&
	       *s != '/')
		s++;
	*nlen = (size_t)(s - *name);
	*val = s;
	*vlen = 0;
	if (s < end && *s == '=') {
		s++;
		if (s < end && (*s == '"' || *s == '\'')) {
			char q = *s++;
			*val = s;
			while (s < end && *s != q)
				s++;
			*vlen = (size_t)(s - *val);
			if (s < end)
				s++;
		} else {
			*val = s;
			while (s < end && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
				s++;
			*vlen = (size_t)(s - *val);
		}
	}
	*p = s;
	return *nlen ? 0 : -1;
}

int h_input(const struct h_resp *r, const char *name, char *out, size_t cap)
{
	const char *p = r->body;
	while (p && (p = strcasestr(p, "<input")) != NULL) {
		const char *end = strchr(p, '>');
		if (!end)
			return -1;
		const char *a = p + 6, *an, *av, *value = NULL;
		size_t anl, avl, valuel = 0;
		int named = 0;
		while (next_attr(&a, end, &an, &anl, &av, &avl) == 0) {
			if (anl == 4 && strncasecmp(an, "name", 4) == 0)
				named = avl == strlen(name) && strncmp(av, name, avl) == 0;
			else if (anl == 5 && strncasecmp(an, "value", 5) == 0)
				value = av, valuel = avl;
		}
		if (named) {
			decode_attr(value ? value : "", value ? valuel : 0, out, cap);
			return 0;
		}
		p = end;
	}
	return -1;
}

int h_csrf(const struct h_resp *r, char *out, size_t cap)
{
	return h_input(r, "csrf", out, cap);
}

int h_version(const struct h_resp *r, int64_t *v)
{
	char buf[32], *end;
	if (h_input(r, "v", buf, sizeof buf) != 0 || !buf[0])
		return -1;
	errno = 0;
	long long x = strtoll(buf, &end, 10);
	if (errno || *end || x < 0)
		return -1;
	*v = x;
	return 0;
}
