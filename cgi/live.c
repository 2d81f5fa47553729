/*
 * live.c — the push of poll numbers to nginx's Nchan channels; see live.h
 * and docs/api.md "Live channels".
 *
 * Workers → publisher: a SOCK_DGRAM socketpair made by the master before
 * the fork (the sandboxed workers may neither make nor connect sockets).
 * A datagram is "t <id> <version>", "m <token> <version>" or
 * "g <id> <version>"; the worker sends it with MSG_DONTWAIT, so a full
 * queue drops it instead of holding the worker.
 *
 * Publisher → nginx: per channel (t<id>, me<token>, tournaments<id>) one
 * HTTP/1.0 POST /pub/<channel> on a
 * fresh unix-socket connection (a connect costs microseconds), body the
 * version; every step bounded by PUB_TIMEOUT_MS. The datagrams that queued
 * meanwhile are read in one batch and each channel published once, with
 * the highest version. A failure is logged once, until a publish works
 * again: pages that get no message fall back on their safety poll.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "live.h"

enum {
	DGRAM_MAX = 96,          /* "m " + a 43-byte token + " " + a version */
	BATCH_MAX = 256,         /* channels published per round at most */
	PUB_TIMEOUT_MS = 200,    /* connect, write and read of one publish */
	CHANNEL_MAX = 64
};

static struct {
	char path[sizeof ((struct sockaddr_un *)0)->sun_path];
	int rd, wr;               /* the socketpair's ends, -1 none */
	int send_failing;         /* a worker: logged already */
} G = { .rd = -1, .wr = -1 };

int live_open(const char *addr)
{
	if (!addr || !*addr)
		return 0;
	if (strncmp(addr, "unix:", 5) != 0 || strlen(addr + 5) == 0 ||
	    strlen(addr + 5) >= sizeof G.path || addr[5] != '/') {
		fprintf(stderr, "serve: --publish wants unix:/absolute/path, not '%s'\n", addr);
		return -1;
	}
	memcpy(G.path, addr + 5, strlen(addr + 5) + 1);
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) != 0) {
		fprintf(stderr, "serve: socketpair: %s\n", strerror(errno));
		return -1;
	}
	G.rd = sv[0];
	G.wr = sv[1];
	return 0;
}

int live_on(void)
{
	return G.wr >= 0;
}

int live_worker(struct store *s)
{
	if (!live_on())
		return 0;
	close(G.rd);   /* the publisher's end */
	G.rd = -1;
	return store_live_watch(s, 1) == ST_OK ? 0 : -1;
}

/* One change to the publisher, without waiting. */
static void send_one(void *ctx, char kind, int64_t id, const char *token, int64_t version)
{
	(void)ctx;
	char d[DGRAM_MAX];
	int n = kind == 'm' ? snprintf(d, sizeof d, "m %s %lld", token, (long long)version)
			    : snprintf(d, sizeof d, "%c %lld %lld", kind, (long long)id,
				       (long long)version);
	if (n <= 0 || (size_t)n >= sizeof d)
		return;
	if (send(G.wr, d, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL) == n) {
		G.send_failing = 0;
		return;
	}
	if (!G.send_failing)
		fprintf(stderr, "live: the publisher's queue is full or gone (%s); pages poll\n",
			strerror(errno));
	G.send_failing = 1;
}

void live_after_request(struct store *s)
{
	if (!live_on())
		return;
	if (store_live_take(s, send_one, NULL) > 0)
		fprintf(stderr, "live: a request changed more than can be announced\n");
}

int live_url(const char *poll_url, char *out, size_t cap)
{
	static const struct { const char *head, *tail, *live; } map[] = {
		{ "/t/", "/poll", "/live/t/" },
		{ "/tournaments/", "/poll", "/live/tournaments/" },
		{ "/me/poll/", "", "/live/me/" },
	};
	if (!live_on() || !poll_url)
		return -1;
	size_t len = strlen(poll_url);
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
		size_t h = strlen(map[i].head), t = strlen(map[i].tail);
		if (len <= h + t || strncmp(poll_url, map[i].head, h) != 0 ||
		    strcmp(poll_url + len - t, map[i].tail) != 0)
			continue;
		int n = snprintf(out, cap, "%s%.*s", map[i].live, (int)(len - h - t), poll_url + h);
		return n > 0 && (size_t)n < cap ? 0 : -1;
	}
	return -1;
}

/* ------------------------------------------------------------------ */
/* The publisher child                                                 */

struct chan {
	char name[CHANNEL_MAX];
	long long version;
};

static long long ms_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits until fd is ready for `events` before `end` (ms); 0, -1 on timeout. */
static int wait_fd(int fd, short events, long long end)
{
	for (;;) {
		long long left = end - ms_now();
		if (left <= 0)
			return -1;
		struct pollfd p = { .fd = fd, .events = events };
		int r = poll(&p, 1, (int)left);
		if (r > 0)
			return 0;
		if (r < 0 && errno != EINTR)
			return -1;
	}
}

/* One POST of `version` to /pub/<name>; 0 when nginx answered 2xx. */
static int publish(const struct chan *c)
{
	long long end = ms_now() + PUB_TIMEOUT_MS;
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	memcpy(sa.sun_path, G.path, sizeof sa.sun_path);
	int rc = -1;
	char req[256], resp[512];
	int n = snprintf(req, sizeof req,
			 "POST /pub/%s HTTP/1.0\r\nHost: live\r\nContent-Type: text/plain\r\n"
			 "Content-Length: %d\r\n\r\n%lld",
			 c->name, snprintf(NULL, 0, "%lld", c->version), c->version);
	if (n <= 0 || (size_t)n >= sizeof req)
		goto out;
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0 &&
	    (errno != EINPROGRESS && errno != EAGAIN))
		goto out;
	size_t done = 0;
	while (done < (size_t)n) {
		if (wait_fd(fd, POLLOUT, end) != 0)
			goto out;
		ssize_t w = send(fd, req + done, (size_t)n - done, MSG_NOSIGNAL);
		if (w < 0 && errno != EAGAIN && errno != EINTR)
			goto out;
		if (w > 0)
			done += (size_t)w;
	}
	/* the status line is enough; the rest is read until nginx closes */
	size_t got = 0;
	for (;;) {
		if (wait_fd(fd, POLLIN, end) != 0)
			goto out;
		ssize_t r = recv(fd, resp + got, sizeof resp - 1 - got, 0);
		if (r < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
		if (got == sizeof resp - 1)
			break;
	}
	resp[got] = '\0';
	rc = strncmp(resp, "HTTP/1.", 7) == 0 && strlen(resp) > 12 && resp[9] == '2' ? 0 : -1;
out:
	close(fd);
	return rc;
}

/* A datagram into the batch (the highest version per channel). */
static void batch_add(struct chan *b, int *n, const char *d)
{
	char kind = d[0], key[48];
	long long version = 0;
	if (!strchr("tmg", kind) || d[1] != ' ' ||
	    sscanf(d + 2, "%47[A-Za-z0-9_-] %lld", key, &version) != 2 || version < 0)
		return;
	/* the channel names of deploy/nginx.conf.in */
	char name[CHANNEL_MAX];
	snprintf(name, sizeof name, "%s%s", kind == 't' ? "t" : kind == 'm' ? "me" : "tournaments",
		 key);
	for (int i = 0; i < *n; i++)
		if (strcmp(b[i].name, name) == 0) {
			if (version > b[i].version)
				b[i].version = version;
			return;
		}
	if (*n == BATCH_MAX)
		return;
	memcpy(b[*n].name, name, sizeof name);
	b[*n].version = version;
	(*n)++;
}

int live_publisher(volatile sig_atomic_t *stop)
{
	if (G.wr >= 0)
		close(G.wr);
	G.wr = -1;
	static struct chan batch[BATCH_MAX];
	int failing = 0;
	while (!*stop) {
		struct pollfd p = { .fd = G.rd, .events = POLLIN };
		if (poll(&p, 1, 500) <= 0)
			continue;
		int n = 0;
		char d[DGRAM_MAX];
		ssize_t r;
		while ((r = recv(G.rd, d, sizeof d - 1, MSG_DONTWAIT)) > 0) {
			d[r] = '\0';
			batch_add(batch, &n, d);
		}
		for (int i = 0; i < n; i++) {
			if (publish(&batch[i]) == 0) {
				if (failing)
					fprintf(stderr, "live: publishing works again\n");
				failing = 0;
			} else if (!failing) {
				fprintf(stderr, "live: cannot publish to unix:%s (%s); pages poll\n",
					G.path, strerror(errno));
				failing = 1;
			}
		}
	}
	return 0;
}
