/* startup.c — how long `spieltisch serve` takes from its start until its
 * socket answers a request (docs/benchmarks.md, "Server start"): with the
 * German patterns compiled at build time (build/lexicon/, cgi/lexfile.h)
 * and without them (libhyphen's loader at every start), alternately.
 *
 *   build/bench/startup build/spieltisch ROOT RUNS
 *
 * Each run gets a scratch root whose schema, templates and build/locale
 * link to ROOT's, and build/lexicon only in the "compiled" runs; a fresh
 * database and socket in it. One FastCGI GET of / is sent as soon as the
 * socket takes connections (it waits in the queue until a worker
 * accepts); the time to its first answer byte is printed, per run and as
 * the median of each kind. Every wait is bounded (120 s). */
#include <limits.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { LIMIT_MS = 120000, RUNS_MAX = 50 };

static long long now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void put_record(unsigned char **p, int type, const void *body, size_t len)
{
	unsigned char h[8] = { 1, (unsigned char)type, 0, 1, (unsigned char)(len >> 8),
			       (unsigned char)len, 0, 0 };
	memcpy(*p, h, sizeof h);
	memcpy(*p + 8, body, len);
	*p += 8 + len;
}

/* A FastCGI GET of / on fd: 0, or -1. */
static int send_get(int fd)
{
	static const char *params[][2] = {
		{ "REQUEST_METHOD", "GET" }, { "REQUEST_URI", "/" }, { "SCRIPT_NAME", "/" },
		{ "QUERY_STRING", "" }, { "SERVER_NAME", "127.0.0.1" }, { "SERVER_PORT", "80" },
		{ "REMOTE_ADDR", "127.0.0.1" }, { "HTTP_HOST", "127.0.0.1" },
	};
	unsigned char buf[1024], pb[512], *p = buf;
	size_t n = 0;
	static const unsigned char begin[8] = { 0, 1, 0, 0, 0, 0, 0, 0 };   /* responder */
	put_record(&p, 1, begin, sizeof begin);
	for (size_t i = 0; i < sizeof params / sizeof params[0]; i++) {
		size_t k = strlen(params[i][0]), v = strlen(params[i][1]);
		pb[n++] = (unsigned char)k;
		pb[n++] = (unsigned char)v;
		memcpy(pb + n, params[i][0], k);
		memcpy(pb + n + k, params[i][1], v);
		n += k + v;
	}
	put_record(&p, 4, pb, n);
	put_record(&p, 4, "", 0);
	put_record(&p, 5, "", 0);
	return write(fd, buf, (size_t)(p - buf)) == p - buf ? 0 : -1;
}

/* Milliseconds from now until the server on sock answers, or -1. */
static long long await_answer(const char *sock, long long t0)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	snprintf(a.sun_path, sizeof a.sun_path, "%s", sock);
	while (now_ms() - t0 < LIMIT_MS) {
		int fd = socket(AF_UNIX, SOCK_STREAM, 0);
		if (fd < 0)
			return -1;
		if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
			close(fd);
			poll(NULL, 0, 2);   /* the socket is not there yet */
			continue;
		}
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		char c;
		int ok = send_get(fd) == 0 &&
			 poll(&pf, 1, (int)(LIMIT_MS - (now_ms() - t0))) == 1 && read(fd, &c, 1) == 1;
		close(fd);
		return ok ? now_ms() - t0 : -1;
	}
	return -1;
}

/* One start in a scratch root (with build/lexicon when compiled): its ms, or -1. */
static long long one_run(const char *bin, const char *root, int compiled)
{
	char dir[] = "/tmp/startup.XXXXXX", cmd[3 * PATH_MAX + 256], sock[64], db[64];
	if (!mkdtemp(dir))
		return -1;
	snprintf(cmd, sizeof cmd,
		 "mkdir -p %s/build && ln -s %s/schema %s/templates %s/ && ln -s %s/build/locale %s/build/",
		 dir, root, root, dir, root, dir);
	if (system(cmd) != 0 ||
	    (compiled && (snprintf(cmd, sizeof cmd, "ln -s %s/build/lexicon %s/build/", root, dir),
			  system(cmd) != 0)))
		return -1;
	snprintf(sock, sizeof sock, "%s/app.sock", dir);
	snprintf(db, sizeof db, "%s/app.db", dir);
	long long t0 = now_ms();
	pid_t pid = fork();
	if (pid == 0) {
		execl(bin, bin, "serve", "--socket", sock, "--workers", "2", "--db", db, "--root", dir,
		      (char *)NULL);
		_exit(127);
	}
	long long ms = pid > 0 ? await_answer(sock, t0) : -1;
	if (pid > 0) {
		kill(pid, SIGTERM);
		waitpid(pid, NULL, 0);
	}
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		return -1;
	return ms;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	long long ms[2][RUNS_MAX];
	char root[PATH_MAX];
	long runs = argc == 4 ? strtol(argv[3], NULL, 10) : 0;
	if (runs < 1 || runs > RUNS_MAX || !realpath(argv[2], root)) {
		fprintf(stderr, "usage: startup BIN ROOT RUNS (1..%d)\n", RUNS_MAX);
		return 2;
	}
	for (int r = 0; r < runs; r++)
		for (int k = 1; k >= 0; k--) {
			if ((ms[k][r] = one_run(argv[1], root, k)) < 0) {
				fprintf(stderr, "startup: no answer within %d ms\n", LIMIT_MS);
				return 1;
			}
			printf("%s %lld ms\n", k ? "compiled" : "loader  ", ms[k][r]);
			fflush(stdout);
		}
	for (int k = 1; k >= 0; k--) {
		qsort(ms[k], (size_t)runs, sizeof ms[k][0], cmp_ll);
		printf("median %s %lld ms\n", k ? "compiled" : "loader", ms[k][runs / 2]);
	}
	return 0;
}
