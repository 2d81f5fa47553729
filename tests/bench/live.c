/*
 * live.c — the load generator of the live-channel row of `make bench`
 * (tests/bench/bench.sh, docs/benchmarks.md "Live channels").
 *
 *   live --port P --moves FILE [--subs N] [--count M] [--tables K] [--nginx PID]
 *        [--longpoll 0|1] [--bare 0|1]
 *
 * Opens N EventSource subscriptions (GET /live/t/<id>, Accept:
 * text/event-stream, with the other headers and the session cookie
 * Chromium sends from a page: what nginx holds for a page; --bare 1: only
 * the Host) spread round-robin over the tables of FILE (gen.c's
 * prepared moves: slot, table, path, cookie, body), from the addresses
 * 127.0.0.2, 127.0.0.3, … (at most 400 each: nginx.conf.in allows 512 open
 * channels per address); with --tables K over the first K tables only (1:
 * every subscriber on one table, the widest fan-out). A reader thread takes every message with its
 * arrival time (CLOCK_MONOTONIC) from one epoll. --longpoll 1: long-polls
 * instead (no Accept header), for the memory only (with --count 0).
 *
 * Then the moves of FILE, one after the other over one keep-alive
 * connection, until M of them were seen on a subscribed table:
 * the time the 303 has arrived is the start; the poll (/t/<id>/poll) tells
 * the version the move made (204: a step nobody else sees, skipped); the
 * move's propagation to each subscriber of its table is the arrival of
 * that version's message minus the start. The next move waits until every
 * such subscriber has it (at most 2 s: then it counts as missing).
 * --count 0: no moves (over the tables of the first 200), the memory only.
 *
 * Prints one line:
 *   live|N|moves|pairs|p50_us|p99_us|max_us|missing|rss_kib_per_1000|tables|
 *       private_dirty_kib_per_1000|shmem_kib_per_1000|eventsource or longpoll
 * (nginx's worker processes, summed, once settled after subscribing minus
 * before, per 1,000 subscribers: VmRSS; Private_Dirty of smaps_rollup, the
 * memory the workers hold for the connections; RssShmem, the pages of the
 * shared zones, Nchan's among them, that they touched; 0 without --nginx).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { SUBS_MAX = 20000, PER_ADDR = 400, TABLES_MAX = 4096, BUF = 2048, WAIT_US = 2000000 };

struct sub {
	int fd;
	long long table;
	char buf[BUF];
	size_t len;
	long long last_v;        /* the newest version received */
	long long last_at;       /* when it came (us) */
	int answered;            /* the answer's first bytes are here */
};

static struct sub *subs;
static int nsubs, port, longpoll, bare;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static long long now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int connect_from(int k)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	struct sockaddr_in me = { .sin_family = AF_INET };
	me.sin_addr.s_addr = htonl(INADDR_LOOPBACK + 1 + (unsigned)k);
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&me, sizeof me) != 0 ||
	    connect(fd, (struct sockaddr *)&to, sizeof to) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Files each "data: N" line of s's stream. */
static void take(struct sub *s, long long at)
{
	ssize_t r;
	while ((r = recv(s->fd, s->buf + s->len, sizeof s->buf - 1 - s->len, MSG_DONTWAIT)) > 0) {
		pthread_mutex_lock(&mu);
		s->answered = 1;
		pthread_mutex_unlock(&mu);
		s->len += (size_t)r;
		s->buf[s->len] = '\0';
		char *line = s->buf, *nl;
		while ((nl = strchr(line, '\n'))) {
			if (strncmp(line, "data: ", 6) == 0) {
				long long v = strtoll(line + 6, NULL, 10);
				pthread_mutex_lock(&mu);
				if (v > s->last_v) {
					s->last_v = v;
					s->last_at = at;
				}
				pthread_mutex_unlock(&mu);
			}
			line = nl + 1;
		}
		s->len -= (size_t)(line - s->buf);
		memmove(s->buf, line, s->len);
		if (s->len == sizeof s->buf - 1)
			s->len = 0;
	}
}

static void *reader(void *arg)
{
	int ep = *(int *)arg;
	struct epoll_event ev[256];
	for (;;) {
		int n = epoll_wait(ep, ev, 256, 1000);
		long long at = now_us();
		for (int i = 0; i < n; i++)
			take(&subs[ev[i].data.u32], at);
	}
	return NULL;
}

/* One request on the keep-alive connection *fd (reconnected when closed);
 * the status, the body into body (cap bytes). */
static int request(int *fd, const char *req, char *body, size_t cap)
{
	for (int tries = 0; tries < 2; tries++) {
		if (*fd < 0) {
			*fd = connect_from(0);
			int one = 1;
			setsockopt(*fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		}
		if (*fd < 0 || send(*fd, req, strlen(req), MSG_NOSIGNAL) < 0) {
			close(*fd);
			*fd = -1;
			continue;
		}
		char buf[16384];
		size_t got = 0;
		long clen = -1;
		char *head_end = NULL;
		while (got < sizeof buf - 1) {
			ssize_t r = recv(*fd, buf + got, sizeof buf - 1 - got, 0);
			if (r <= 0)
				break;
			got += (size_t)r;
			buf[got] = '\0';
			if (!head_end && (head_end = strstr(buf, "\r\n\r\n"))) {
				char *cl = strcasestr(buf, "\r\nContent-Length:");
				clen = cl && cl < head_end ? strtol(cl + 17, NULL, 10) : 0;
			}
			if (head_end && (long)(got - (size_t)(head_end + 4 - buf)) >= clen)
				break;
		}
		if (!head_end) {
			close(*fd);
			*fd = -1;
			continue;
		}
		if (body)
			snprintf(body, cap, "%.*s", (int)clen, head_end + 4);
		return atoi(buf + 9);
	}
	return -1;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return x < y ? -1 : x > y;
}

/* The memory of nginx's worker processes (the children of pid), summed,
 * KiB: the resident set (VmRSS), what is private and dirty (Private_Dirty
 * of smaps_rollup: the worker's heap, its pools, connections and requests,
 * Nchan's subscribers) and what of the resident set is shared memory
 * (RssShmem: the pages of Nchan's zone and nginx's other zones the worker
 * has touched, the same pages for every worker). */
struct mem {
	long rss, priv, shmem;
};

static long field(const char *path, const char *name)
{
	FILE *f = fopen(path, "r");
	char line[256];
	size_t n = strlen(name);
	long v = 0;
	while (f && fgets(line, sizeof line, f))
		if (strncmp(line, name, n) == 0) {
			v = strtol(line + n, NULL, 10);
			break;
		}
	if (f)
		fclose(f);
	return v;
}

static struct mem mem_children(long pid)
{
	struct mem m = { 0, 0, 0 };
	DIR *d = opendir("/proc");
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char p[300];
		snprintf(p, sizeof p, "/proc/%s/status", e->d_name);
		if (e->d_name[0] < '0' || e->d_name[0] > '9' || field(p, "PPid:") != pid)
			continue;
		m.rss += field(p, "VmRSS:");
		m.shmem += field(p, "RssShmem:");
		snprintf(p, sizeof p, "/proc/%s/smaps_rollup", e->d_name);
		m.priv += field(p, "Private_Dirty:");
	}
	if (d)
		closedir(d);
	return m;
}

/* The workers' memory once every subscription has been taken in: the
 * same private part in five samples 100 ms apart (at most 10 s; a
 * long-poll that waits has sent nothing back that would tell). */
static struct mem settled(long pid)
{
	struct mem m = mem_children(pid);
	for (int same = 0, n = 0; same < 5 && n < 100; n++) {
		struct timespec ts = { 0, 100000000L };
		nanosleep(&ts, NULL);
		struct mem x = mem_children(pid);
		same = x.priv == m.priv && x.rss == m.rss ? same + 1 : 0;
		m = x;
	}
	return m;
}

struct move {
	long long table;
	char path[128], cookie[256], body[512];
};

static int read_moves(const char *file, struct move **out)
{
	FILE *f = fopen(file, "r");
	if (!f)
		return -1;
	int n = 0, cap = 0;
	char line[2048];
	struct move *m = NULL;
	while (fgets(line, sizeof line, f)) {
		if (n == cap) {
			cap = cap ? cap * 2 : 1024;
			m = realloc(m, sizeof *m * (size_t)cap);
		}
		line[strcspn(line, "\n")] = '\0';
		char *slot = strtok(line, "\t"), *t = strtok(NULL, "\t"), *p = strtok(NULL, "\t"),
		     *c = strtok(NULL, "\t"), *b = strtok(NULL, "\t");
		if (!slot || !t || !p || !c || !b)
			continue;
		m[n].table = strtoll(t, NULL, 10);
		snprintf(m[n].path, sizeof m[n].path, "%s", p);
		snprintf(m[n].cookie, sizeof m[n].cookie, "%s", c);
		snprintf(m[n].body, sizeof m[n].body, "%s", b);
		n++;
	}
	fclose(f);
	*out = m;
	return n;
}

struct opts {
	const char *file;
	int want, count, only;
	long nginx;
};

static int parse(int argc, char **argv, struct opts *o)
{
	*o = (struct opts){ .want = 1000, .count = 200 };
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--port"))
			port = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--moves"))
			o->file = argv[i + 1];
		else if (!strcmp(argv[i], "--subs"))
			o->want = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--count"))
			o->count = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--tables"))
			o->only = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--bare"))
			bare = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--longpoll"))
			longpoll = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--nginx"))
			o->nginx = atol(argv[i + 1]);
		else
			return -1;
	}
	return port > 0 && o->file && o->count >= 0 && o->want >= 1 && o->want <= SUBS_MAX ? 0 : -1;
}

/* The request of a subscription to table t, as Chromium's EventSource
 * sends it from a page of ours (its headers and the session cookie: about
 * 800 bytes, what nginx reads and holds for the page), or with --bare 1
 * only what nginx needs. A long-poll is the same without the Accept. */
static void sub_request(char *req, size_t cap, long long t, const char *cookie)
{
	const char *accept = longpoll ? "" : "Accept: text/event-stream\r\n";
	if (bare) {
		snprintf(req, cap, "GET /live/t/%lld HTTP/1.1\r\nHost: 127.0.0.1\r\n%s\r\n", t,
			 accept);
		return;
	}
	snprintf(req, cap,
		 "GET /live/t/%lld HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: keep-alive\r\n"
		 "sec-ch-ua: \"Chromium\";v=\"120\", \"Not?A_Brand\";v=\"8\"\r\n%s"
		 "Cache-Control: no-cache\r\nsec-ch-ua-mobile: ?0\r\n"
		 "User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
		 "Chrome/120.0.6099.28 Safari/537.36\r\nsec-ch-ua-platform: \"Linux\"\r\n"
		 "Sec-Fetch-Site: same-origin\r\nSec-Fetch-Mode: cors\r\nSec-Fetch-Dest: empty\r\n"
		 "Referer: http://127.0.0.1:%d/t/%lld\r\nAccept-Encoding: gzip, deflate, br\r\n"
		 "Accept-Language: de-DE,de;q=0.9,en;q=0.8\r\nCookie: %s\r\n\r\n",
		 t, port, accept, port, t, cookie);
}

/* Opens the subscriptions over tables[0..nt-1] (cookies[k]: a session
 * cookie of a player of tables[k]) and starts the reader; returns once
 * every one has its answer's first bytes (at most 20 s; a long-poll that
 * waits has none: at once). */
static int subscribe_all(int want, const long long *tables, char (*cookies)[256], int nt)
{
	static int ep;
	subs = calloc((size_t)want, sizeof *subs);
	ep = epoll_create1(EPOLL_CLOEXEC);
	for (int i = 0; i < want; i++) {
		struct sub *s = &subs[i];
		s->table = tables[i % nt];
		if ((s->fd = connect_from(1 + i / PER_ADDR)) < 0) {
			fprintf(stderr, "live: subscriber %d: %s\n", i, strerror(errno));
			return -1;
		}
		char req[2048];
		sub_request(req, sizeof req, s->table, cookies[i % nt]);
		if (send(s->fd, req, strlen(req), 0) < 0)
			return -1;
		struct epoll_event ev = { .events = EPOLLIN, .data.u32 = (uint32_t)i };
		epoll_ctl(ep, EPOLL_CTL_ADD, s->fd, &ev);
		nsubs++;
	}
	pthread_t th;
	pthread_create(&th, NULL, reader, &ep);
	if (longpoll)
		return 0;   /* a waiting long-poll has no answer yet */
	for (long long end = now_us() + 20000000; now_us() < end;) {
		int answered = 0;
		pthread_mutex_lock(&mu);
		for (int i = 0; i < nsubs; i++)
			answered += subs[i].answered;
		pthread_mutex_unlock(&mu);
		if (answered == nsubs)
			return 0;
		struct timespec ts = { 0, 10000000L };
		nanosleep(&ts, NULL);
	}
	fprintf(stderr, "live: not every subscription was answered within 20 s\n");
	return -1;
}

/* The current version of table id by its poll (0 when it fails). */
static long long poll_now(int *fd, long long id)
{
	char req[256], body[64];
	snprintf(req, sizeof req, "GET /t/%lld/poll?v=0 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", id);
	return request(fd, req, body, sizeof body) == 200 ? strtoll(body, NULL, 10) : 0;
}

/* Waits for version v at every subscriber of `table`; each one's latency
 * after t0 into lat[], the number of those that never got it returned. */
static int collect(long long table, long long v, long long t0, long long *lat, int *npairs)
{
	int missing = 0;
	for (int k = 0; k < nsubs; k++) {
		if (subs[k].table != table)
			continue;
		long long at = 0;
		while (now_us() - t0 < WAIT_US) {
			pthread_mutex_lock(&mu);
			at = subs[k].last_v >= v ? subs[k].last_at : 0;
			pthread_mutex_unlock(&mu);
			if (at)
				break;
			struct timespec ts = { 0, 200000L };
			nanosleep(&ts, NULL);
		}
		if (at)
			lat[(*npairs)++] = at >= t0 ? at - t0 : 0;   /* 0: before the 303 was read */
		else
			missing++;
	}
	return missing;
}

int main(int argc, char **argv)
{
	struct opts o;
	struct move *mv = NULL;
	int nmv = parse(argc, argv, &o) == 0 ? read_moves(o.file, &mv) : -1;
	if (nmv <= 0) {
		fprintf(stderr, "usage: live --port P --moves FILE [--subs N] [--count M] [--tables K] "
				"[--nginx PID]\n");
		return 2;
	}
	int count = o.count < nmv ? o.count : nmv;
	struct rlimit rl;
	getrlimit(RLIMIT_NOFILE, &rl);
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
	/* the tables of the moves measured, in their order */
	static long long tables[TABLES_MAX], table_v[TABLES_MAX];
	static char cookies[TABLES_MAX][256];
	int nt = 0, span = count > 0 ? count : (nmv < 200 ? nmv : 200);
	for (int i = 0; i < span; i++) {
		int seen = 0;
		for (int k = 0; k < nt && !seen; k++)
			seen = tables[k] == mv[i].table;
		if (!seen && nt < TABLES_MAX) {
			snprintf(cookies[nt], sizeof cookies[nt], "%s", mv[i].cookie);
			tables[nt++] = mv[i].table;
		}
	}
	if (o.only > 0 && o.only < nt)
		nt = o.only;
	struct mem m0 = o.nginx ? mem_children(o.nginx) : (struct mem){ 0, 0, 0 };
	if (subscribe_all(o.want, tables, cookies, nt) != 0)
		return 1;
	struct mem m1 = o.nginx ? settled(o.nginx) : m0;
	/* each table's version now: a move that leaves it so is seen by nobody */
	int fd = -1;
	for (int t = 0; t < nt; t++)
		table_v[t] = poll_now(&fd, tables[t]);
	long long *lat = malloc(sizeof *lat * (size_t)count * (size_t)(o.want / nt + 1));
	int npairs = 0, missing = 0, measured = 0;
	for (int i = 0; i < nmv && measured < count; i++) {
		char req[2048];
		snprintf(req, sizeof req, "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: %s\r\n"
			 "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: %zu\r\n\r\n%s",
			 mv[i].path, mv[i].cookie, strlen(mv[i].body), mv[i].body);
		int st = request(&fd, req, NULL, 0);
		long long t0 = now_us();
		int t = 0;
		while (t < nt && tables[t] != mv[i].table)
			t++;
		if (st != 303 || t == nt)
			continue;
		long long v = poll_now(&fd, mv[i].table);
		if (v <= table_v[t])
			continue;   /* a step nobody else sees (a pass in a window): no message */
		table_v[t] = v;
		measured++;
		missing += collect(mv[i].table, v, t0, lat, &npairs);
	}
	qsort(lat, (size_t)npairs, sizeof *lat, cmp_ll);
	long long p50 = npairs ? lat[npairs / 2] : 0, p99 = npairs ? lat[(npairs * 99) / 100] : 0;
	long long mx = npairs ? lat[npairs - 1] : 0;
	printf("live|%d|%d|%d|%lld|%lld|%lld|%d|%ld|%d|%ld|%ld|%s\n", nsubs, measured, npairs,
	       p50, p99, mx, missing, (m1.rss - m0.rss) * 1000 / nsubs, nt,
	       (m1.priv - m0.priv) * 1000 / nsubs, (m1.shmem - m0.shmem) * 1000 / nsubs,
	       longpoll ? "longpoll" : "eventsource");
	return 0;
}
