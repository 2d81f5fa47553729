/*
 * test_scale.c — several app machines (issue 36; docs/scaling.md): two
 * `spieltisch serve` instances (A on a unix socket, B on a TCP port of
 * 127.0.0.1, standing for two machines) behind one nginx upstream with both, on one database, and two nginx
 * whose live channels (Nchan) share one redis-server. Both nginx run
 * deploy/nginx-scale.conf as it stands, filled in.
 *
 * The database is a throw-away PostgreSQL cluster (tests/pg/cluster.sh);
 * when that cannot start (no initdb, or SPIELTISCH_PG=off) both instances
 * share one SQLite file instead, which the test says. Skipped (with a
 * message) when nginx has no Nchan module or redis-server is missing.
 *
 *   - live: a page subscribed on nginx B sees a move made through nginx A
 *     (both apps publish to nginx A only, so B has it from Redis alone);
 *     the same POST sent again through nginx B is told it happened (409)
 *     and the table's version moves once;
 *   - kill: whole parties of Drachenrummy are played by threads, seat 0
 *     through nginx A and seat 1 through nginx B; meanwhile app A gets
 *     SIGKILL (master and workers at once). A move answered 303 was
 *     acknowledged; one that got no answer (502, a transport error) is
 *     sent again as it was (the page the client saw, its version): it
 *     must then be taken (303) or refused as stale (409), never twice.
 *     Then every party's export (/t/<id>/replay.txt) must hold every
 *     acknowledged move exactly once and in order, nothing else but the
 *     unanswered ones the retry was told had happened; the export replays
 *     to its scores (`spieltisch replay`), and moves were acknowledged
 *     after the kill (play went on through app B).
 * Every wait is bounded; no fixed sleeps.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <cmocka.h>
#include <curl/curl.h>

#include "game.h"
#include "integration/suite.h"

enum { APPS = 2, NGINX = 2, TABLES = 3, SEATS = 2, ATTEMPTS_MAX = 4000, RETRIES = 5,
       START_MS = 60000, WAIT_MS = 10000, KILL_AFTER = 40, GAME_SECONDS = 60 };

static struct {
	char dir[512], root[512], bin[600], db[1024], pgdir[600];
	int on_pg, redis_port, app_b_port, port[NGINX];
	char base[NGINX][64];
	pid_t redis, app[APPS], nginx[NGINX];
} S;

static long long ms_now(void)
{
	return (long long)(it_now() * 1000.0);
}

/* A short pause inside a bounded polling loop. */
static void nap(void)
{
	struct timespec ts = { 0, 20 * 1000000L };
	nanosleep(&ts, NULL);
}

/* Stops a process group: SIGTERM, then SIGKILL after a bounded wait. */
static void stop_pid(pid_t *pid)
{
	if (*pid <= 0)
		return;
	kill(-*pid, SIGTERM);
	long long end = ms_now() + 5000;
	int st;
	while (ms_now() < end && waitpid(*pid, &st, WNOHANG) == 0)
		nap();
	kill(-*pid, SIGKILL);
	waitpid(*pid, &st, WNOHANG);
	*pid = 0;
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void stop_all(void)
{
	for (int i = 0; i < NGINX; i++)
		stop_pid(&S.nginx[i]);
	for (int i = 0; i < APPS; i++)
		stop_pid(&S.app[i]);
	stop_pid(&S.redis);
	if (S.on_pg) {
		char cmd[2048];
		snprintf(cmd, sizeof cmd, "sh '%s/tests/pg/cluster.sh' stop '%s' >/dev/null 2>&1",
			 S.root, S.pgdir);
		if (system(cmd) != 0)
			fprintf(stderr, "test_scale: cluster.sh stop failed\n");
		S.on_pg = 0;
	}
	if (S.dir[0]) {
		const char *keep = getenv("SPIELTISCH_IT_KEEP");
		if (keep && strcmp(keep, "1") == 0)
			fprintf(stderr, "test_scale: kept %s\n", S.dir);
		else
			nftw(S.dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
		S.dir[0] = '\0';
	}
}

static void on_fatal(int sig)
{
	for (int i = 0; i < NGINX; i++)
		if (S.nginx[i] > 0)
			kill(-S.nginx[i], SIGTERM);
	for (int i = 0; i < APPS; i++)
		if (S.app[i] > 0)
			kill(-S.app[i], SIGTERM);
	if (S.redis > 0)
		kill(-S.redis, SIGTERM);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Prints the end of a log file of the directory. */
static void tail_log(const char *name)
{
	char path[700], buf[2001];
	snprintf(path, sizeof path, "%s/%s", S.dir, name);
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	if (fseek(f, 0, SEEK_END) == 0 && ftell(f) > 2000)
		fseek(f, -2000, SEEK_END);
	else
		fseek(f, 0, SEEK_SET);
	size_t n = fread(buf, 1, 2000, f);
	buf[n] = '\0';
	fclose(f);
	fprintf(stderr, "---- %s ----\n%s\n", name, buf);
}

static void dump_logs(void)
{
	tail_log("app-a.log");
	tail_log("app-b.log");
	tail_log("nginx-a/nginx-error.log");
	tail_log("nginx-b/nginx-error.log");
	tail_log("redis.log");
}

/* 1 when something accepts TCP connections on 127.0.0.1:port. */
static int port_open(int port)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	int ok = fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) == 0;
	if (fd >= 0)
		close(fd);
	return ok;
}

/* A port on 127.0.0.1 free a moment ago. */
static int free_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof a;
	int fd = socket(AF_INET, SOCK_STREAM, 0), port = -1;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
	    getsockname(fd, (struct sockaddr *)&a, &len) == 0)
		port = ntohs(a.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

/* Writes DIR/nginx-X/nginx.conf from deploy/nginx-scale.conf. */
static int write_conf(int i, const char *var)
{
	char in[700], out[700], line[4096], port[16], servers[1600], redis[64];
	snprintf(in, sizeof in, "%s/deploy/nginx-scale.conf", S.root);
	snprintf(out, sizeof out, "%s/nginx.conf", var);
	snprintf(port, sizeof port, "%d", S.port[i]);
	snprintf(servers, sizeof servers,
		 "server unix:%s/app-a.sock max_fails=1 fail_timeout=5s; "
		 "server 127.0.0.1:%d max_fails=1 fail_timeout=5s;", S.dir, S.app_b_port);
	snprintf(redis, sizeof redis, "redis://127.0.0.1:%d", S.redis_port);
	FILE *fi = fopen(in, "r"), *fo = fopen(out, "w");
	if (!fi || !fo) {
		if (fi)
			fclose(fi);
		if (fo)
			fclose(fo);
		return -1;
	}
	static const char *const keys[] = { "@PORT@", "@VAR@", "@ROOT@", "@USER@", "@SERVERS@",
					     "@REDIS@" };
	const char *vals[] = { port, var, S.root, geteuid() == 0 ? "user root;" : "", servers,
			       redis };
	while (fgets(line, sizeof line, fi)) {
		for (const char *p = line; *p;) {
			size_t k;
			for (k = 0; k < 6; k++)
				if (strncmp(p, keys[k], strlen(keys[k])) == 0)
					break;
			if (k < 6) {
				fputs(vals[k], fo);
				p += strlen(keys[k]);
			} else {
				fputc(*p++, fo);
			}
		}
	}
	fclose(fi);
	return fclose(fo);
}

/* 1 when a GET / through nginx i got an answer from an app. */
static int answers(int i)
{
	if (!port_open(S.port[i]))   /* not listening yet: no request, no noise */
		return 0;
	struct h_client *c = h_client_new();
	struct h_resp r;
	h_client_base(c, S.base[i]);
	int ok = h_get(c, "/", &r) == 0 && r.status == 200;
	h_resp_free(&r);
	h_client_free(c);
	return ok;
}

/* The database: a throw-away PostgreSQL cluster, else one SQLite file. */
static void start_db(void)
{
	const char *pg = getenv("SPIELTISCH_PG");
	snprintf(S.db, sizeof S.db, "%s/spieltisch.db", S.dir);
	if (pg && strcmp(pg, "off") == 0)
		return;
	char cmd[2048];
	snprintf(S.pgdir, sizeof S.pgdir, "%s/pg", S.dir);
	snprintf(cmd, sizeof cmd, "sh '%s/tests/pg/cluster.sh' start '%s' 2>'%s/pg.err'", S.root,
		 S.pgdir, S.dir);
	FILE *p = popen(cmd, "r");
	char uri[1024] = "";
	if (p) {
		if (!fgets(uri, sizeof uri, p))
			uri[0] = '\0';
		int rc = pclose(p);
		uri[strcspn(uri, "\n")] = '\0';
		if (rc == 0 && strncmp(uri, "postgresql:", 11) == 0) {
			snprintf(S.db, sizeof S.db, "%s", uri);
			S.on_pg = 1;
			return;
		}
	}
	S.on_pg = 1;   /* stop what may have started */
	print_message("test_scale: no PostgreSQL cluster (see pg.err): one SQLite file\n");
	tail_log("pg.err");
}

/* redis-server on a free port of 127.0.0.1, nothing saved. */
static int start_redis(void)
{
	char port[16], log[700];
	S.redis_port = free_port();
	snprintf(port, sizeof port, "%d", S.redis_port);
	snprintf(log, sizeof log, "%s/redis.log", S.dir);
	char *argv[] = { "redis-server", "--port", port, "--bind", "127.0.0.1", "--save", "",
			 "--appendonly", "no", "--dir", S.dir, NULL };
	S.redis = h_spawn(argv, log);
	long long end = ms_now() + START_MS;
	while (ms_now() < end) {
		if (port_open(S.redis_port))
			return 0;
		nap();
	}
	return -1;
}

/* App A on the unix socket DIR/app-a.sock, app B on a TCP port of
 * 127.0.0.1 (as an app machine of its own would listen), both publishing
 * to nginx A. */
static int start_app(int i)
{
	char sock[700], log[700], publish[700], workers[] = "2";
	struct stat st;
	const char *x = i ? "b" : "a";
	if (i)
		snprintf(sock, sizeof sock, "127.0.0.1:%d", S.app_b_port = free_port());
	else
		snprintf(sock, sizeof sock, "%s/app-a.sock", S.dir);
	snprintf(log, sizeof log, "%s/app-%s.log", S.dir, x);
	snprintf(publish, sizeof publish, "unix:%s/nginx-a/live.sock", S.dir);
	char *argv[] = { S.bin, "serve", "--socket", sock, "--workers", workers, "--db", S.db,
			 "--root", S.root, "--publish", publish, NULL };
	/* the password hashing slots' lock files lie beside the socket: for
	 * a TCP one, in the working directory */
	char cwd[600];
	if (!getcwd(cwd, sizeof cwd) || chdir(S.dir) != 0)
		return -1;
	S.app[i] = h_spawn(argv, log);
	if (chdir(cwd) != 0)
		return -1;
	long long end = ms_now() + START_MS;
	while (ms_now() < end) {
		if (i ? port_open(S.app_b_port) : stat(sock, &st) == 0 && S_ISSOCK(st.st_mode))
			return 0;
		if (waitpid(S.app[i], NULL, WNOHANG) != 0) {
			S.app[i] = 0;
			return -1;
		}
		nap();
	}
	return -1;
}

static int start_nginx(int i)
{
	char var[600], conf[700], errlog[700], prefix[700], out[700];
	snprintf(var, sizeof var, "%s/nginx-%s", S.dir, i ? "b" : "a");
	mkdir(var, 0755);
	S.port[i] = free_port();
	snprintf(S.base[i], sizeof S.base[i], "http://127.0.0.1:%d", S.port[i]);
	if (write_conf(i, var) != 0)
		return -1;
	snprintf(conf, sizeof conf, "%s/nginx.conf", var);
	snprintf(errlog, sizeof errlog, "%s/nginx-error.log", var);
	snprintf(prefix, sizeof prefix, "%s/", var);
	snprintf(out, sizeof out, "%s/nginx.out", var);
	char *argv[] = { "nginx", "-p", prefix, "-c", conf, "-e", errlog, "-g", "daemon off;",
			 NULL };
	S.nginx[i] = h_spawn(argv, out);
	long long end = ms_now() + START_MS;
	while (ms_now() < end) {
		if (answers(i))
			return 0;
		if (waitpid(S.nginx[i], NULL, WNOHANG) != 0) {
			S.nginx[i] = 0;
			return -1;
		}
		nap();
	}
	return -1;
}

static int setup(void **state)
{
	(void)state;
	const char *tmp = getenv("TMPDIR");
	if (!h_live() || access("/usr/bin/redis-server", X_OK) != 0) {
		print_message("test_scale: skipped: needs nginx's Nchan module and redis-server\n");
		return 0;
	}
	snprintf(S.root, sizeof S.root, "%s", h_root());
	const char *bin = getenv("SPIELTISCH_BIN");
	snprintf(S.bin, sizeof S.bin, "%s", bin && *bin ? bin : "");
	if (!S.bin[0])
		snprintf(S.bin, sizeof S.bin, "%s/build/spieltisch", S.root);
	if (!S.root[0] || access(S.bin, X_OK) != 0 || curl_global_init(CURL_GLOBAL_DEFAULT) != 0)
		return -1;
	snprintf(S.dir, sizeof S.dir, "%s/spieltisch-scale-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(S.dir))
		return -1;
	chmod(S.dir, 0755);
	atexit(stop_all);
	signal(SIGINT, on_fatal);
	signal(SIGTERM, on_fatal);
	signal(SIGSEGV, on_fatal);
	signal(SIGABRT, on_fatal);
	signal(SIGPIPE, SIG_IGN);
	setenv("SPIELTISCH_FAST_HASH", "1", 0);
	setenv("SPIELTISCH_DEBUG", "1", 0);
	double t0 = it_now();
	start_db();
	char var[600];
	snprintf(var, sizeof var, "%s/nginx-a", S.dir);
	mkdir(var, 0755);
	/* A first, so that the migrations run once; then B */
	if (start_redis() != 0 || start_app(0) != 0 || start_app(1) != 0 || start_nginx(0) != 0 ||
	    start_nginx(1) != 0) {
		dump_logs();
		stop_all();
		return -1;
	}
	print_message("test_scale: two apps on %s, two nginx, redis: up in %.1f s\n",
		      S.on_pg ? "PostgreSQL" : "one SQLite file", it_now() - t0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	stop_all();
	return 0;
}

/* A client registered (or logged in) as name, talking to nginx i. */
static struct h_client *user(const char *name, int i)
{
	/* it_register talks to h_base(): register through a client of its
	 * own base by hand */
	struct h_client *c = h_client_new();
	char csrf[128];
	struct h_resp r;
	h_client_base(c, S.base[i]);
	if (it_csrf(c, "/register", csrf, sizeof csrf) != 0)
		goto fail;
	if (h_post_form(c, "/register", &r, "csrf", csrf, "name", name, "password", it_password,
			"password2", it_password, NULL) != 0 || r.status != 303) {
		h_resp_free(&r);
		goto fail;
	}
	h_resp_free(&r);
	return c;
fail:
	fail_msg("register %s through nginx %c", name, 'A' + i);
	return NULL;
}

/* ---- live: a move through nginx A reaches a page on nginx B ---------- */

/* Subscribes to path on port as a browser's EventSource; the socket. */
static int subscribe(int port, const char *path)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
	char req[512];
	int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n"
			 "Accept: text/event-stream\r\n\r\n", path);
	assert_int_equal(send(fd, req, (size_t)n, 0), n);
	return fd;
}

/* Reads the stream until a "data: N" line with N >= want came (at most
 * WAIT_MS): the highest N seen, or -1. */
static long long wait_data(int fd, long long want)
{
	char buf[8192];
	size_t len = 0;
	long long best = -1;
	double end = it_now() + WAIT_MS / 1000.0;
	while (best < want && it_now() < end && len < sizeof buf - 1) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		if (poll(&p, 1, 50) <= 0)
			continue;
		ssize_t r = recv(fd, buf + len, sizeof buf - 1 - len, MSG_DONTWAIT);
		if (r <= 0)
			break;
		len += (size_t)r;
		buf[len] = '\0';
		for (char *l = strstr(buf, "data: "); l; l = strstr(l + 6, "data: ")) {
			long long v = strtoll(l + 6, NULL, 10);
			if (v > best)
				best = v;
		}
	}
	return best;
}

/* Seat 0 through nginx A, seat 1 through nginx B, at a new table; its id. */
static int64_t open_table(struct h_client **c)
{
	int64_t id = it_create_table(c[0], "drachenrummy", SEATS, "parties", "1", NULL);
	assert_true(id > 0);
	for (int s = 1; s < SEATS; s++)
		assert_int_equal(it_join(c[s], id), 0);
	return id;
}

static void live_across(void **state)
{
	(void)state;
	if (!S.dir[0])
		skip();
	struct h_client *c[SEATS] = { user("LiveA", 0), user("LiveB", 1) };
	int64_t id = open_table(c);
	char path[64];
	snprintf(path, sizeof path, "/live/t/%lld", (long long)id);
	int fd = subscribe(S.port[1], path);
	json_t *o = NULL, *o2;
	int mover = -1;
	for (int s = 0; s < SEATS && mover < 0; s++) {
		o = it_view(c[s], id);
		if (json_is_true(json_object_get(o, "can_act")))
			mover = s;
		else
			json_decref(o);
	}
	assert_true(mover >= 0);
	/* the move goes through nginx A whoever's turn it is */
	struct h_client *mv = c[mover];
	h_client_base(mv, S.base[0]);
	long long v = it_jint(o, "version", -1);
	const char *m = it_jstr(json_array_get(json_object_get(o, "moves"), 0), "move");
	assert_int_equal(it_move(mv, id, it_jstr(o, "csrf"), v, m), 303);
	o2 = it_view(mv, id);
	long long after = it_jint(o2, "version", -1);
	json_decref(o2);
	assert_true(after > v);
	/* the same POST again, as a client that saw no answer would send it,
	 * through the other nginx: told it happened (409), taken once */
	h_client_base(mv, S.base[1]);
	assert_int_equal(it_move(mv, id, it_jstr(o, "csrf"), v, m), 409);
	json_decref(o);
	o2 = it_view(mv, id);
	assert_int_equal(it_jint(o2, "version", -1), after);
	json_decref(o2);
	long long got = wait_data(fd, after);
	close(fd);
	if (got < after)
		fail_msg("nginx B's channel %s: saw version %lld, the move made it %lld", path, got,
			 after);
	print_message("live: a move through nginx A (version %lld) reached nginx B's page\n",
		      after);
	for (int s = 0; s < SEATS; s++)
		h_client_free(c[s]);
}

/* ---- kill: whole parties through both, app A killed mid-play --------- */

enum outcome { ACKED, UNANSWERED_STALE };

struct attempt {
	int seat;
	enum outcome out;
	int after_kill;
	char text[GAME_MOVE_MAX + 1];
};

struct player {
	pthread_t th;
	int64_t id;
	struct h_client *c[SEATS];
	uint64_t rnd;
	struct attempt *a;
	int n;
	long unanswered, resent_ok, resent_409, refused;
	char err[256];
	int finished;
};

static volatile int killed;
static volatile long acked_total;
static volatile int in_flight;   /* moves posted and not answered yet */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

/* Posts a move; when no answer came (transport error, 502, 504) sends it
 * again as it was, at most RETRIES times. The final status. */
static long post_move(struct player *p, int seat, const char *csrf, long long v, const char *m)
{
	__atomic_add_fetch(&in_flight, 1, __ATOMIC_SEQ_CST);
	long st = it_move(p->c[seat], p->id, csrf, v, m);
	__atomic_sub_fetch(&in_flight, 1, __ATOMIC_SEQ_CST);
	if (st == 303 || st == 409)
		return st;
	p->unanswered++;
	for (int k = 0; k < RETRIES && st != 303 && st != 409; k++) {
		if (st != 0 && st != 502 && st != 504)
			break;
		st = it_move(p->c[seat], p->id, csrf, v, m);
	}
	if (st == 303)
		p->resent_ok++;
	else if (st == 409)
		p->resent_409++;
	return st | 0x10000;   /* marks a resent move */
}

/* One move of whoever may act: 1 moved, 0 nobody may, -1 finished, -2 failed. */
static int step(struct player *p)
{
	long status = 0;
	int s;
	json_t *o;
	const char *m;
	/* RETRIES GETs: one nginx could not pass on while an app was killed */
	int r = it_pick_move(p->c, SEATS, p->id, &p->rnd, RETRIES, &s, &o, &m, &status);
	if (r == -2)
		snprintf(p->err, sizeof p->err, "no JSON twin: status %ld", status);
	if (r != 1)
		return r;
	struct attempt *a = &p->a[p->n];
	a->seat = (int)it_jint(o, "my_seat", -1);
	a->after_kill = killed;
	snprintf(a->text, sizeof a->text, "%s", m);
	long st = post_move(p, s, it_jstr(o, "csrf"), it_jint(o, "version", -1), m);
	json_decref(o);   /* m is in it: a->text is the move from here on */
	if ((st & 0xffff) == 303) {
		a->out = ACKED;
		p->n++;
		pthread_mutex_lock(&mu);
		acked_total++;
		pthread_mutex_unlock(&mu);
	} else if (st == (409 | 0x10000)) {
		a->out = UNANSWERED_STALE;   /* the first may have been taken */
		p->n++;
	} else if (st == 409) {
		p->refused++;   /* only this thread moves here: never expected */
	} else {
		snprintf(p->err, sizeof p->err, "move '%s': status %ld", a->text, st & 0xffff);
		return -2;
	}
	return 1;
}

static void *play(void *arg)
{
	struct player *p = arg;
	double end = it_now() + GAME_SECONDS;
	int idle = 0;
	while (p->n < ATTEMPTS_MAX && it_now() < end) {
		int r = step(p);
		if (r == -1) {
			p->finished = 1;
			return NULL;
		}
		if (r == -2)
			return NULL;
		if (r == 0 && ++idle > 500) {
			snprintf(p->err, sizeof p->err, "nobody may act");
			return NULL;
		}
		if (r == 0)
			nap();
	}
	snprintf(p->err, sizeof p->err, "not finished after %d attempts", p->n);
	return NULL;
}

/* The steps of party 1 of table id from its export, into st (seat, text);
 * the count. */
static int export_steps(struct player *p, struct attempt *st, int cap, char *file, size_t fcap)
{
	char path[96];
	struct h_resp r;
	snprintf(path, sizeof path, "/t/%lld/replay.txt?party=1", (long long)p->id);
	assert_int_equal(h_get(p->c[1], path, &r), 0);   /* through nginx B */
	if (r.status != 200)
		fail_msg("%s: status %ld", path, r.status);
	snprintf(file, fcap, "%s/export-%lld.txt", S.dir, (long long)p->id);
	FILE *f = fopen(file, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(r.body, 1, r.body_len, f), r.body_len);
	assert_int_equal(fclose(f), 0);
	int n = 0;
	for (char *l = r.body; l && *l && n < cap; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (strncmp(l, "step ", 5) != 0)
			continue;
		char *e;
		int seat = (int)strtol(l + 5, &e, 10);
		strtoll(e, &e, 10);   /* the time */
		while (*e == ' ')
			e++;
		if (seat < 0)
			continue;   /* a deadline's step, no seat's move */
		st[n].seat = seat;
		snprintf(st[n].text, sizeof st[n].text, "%.*s", (int)strcspn(e, "\n"), e);
		n++;
	}
	h_resp_free(&r);
	return n;
}

/* Every acknowledged move in the log once and in order; an unanswered
 * one told 409 on its resending may be there once. The counts. */
static void compare(struct player *p, long *lost, long *doubled, long *happened)
{
	static struct attempt log[ATTEMPTS_MAX];
	char file[700], out[512], err[512];
	int n = export_steps(p, log, ATTEMPTS_MAX, file, sizeof file), k = 0;
	for (int i = 0; i < p->n; i++) {
		struct attempt *a = &p->a[i];
		int here = k < n && log[k].seat == a->seat && strcmp(log[k].text, a->text) == 0;
		if (here) {
			k++;
			if (a->out == UNANSWERED_STALE)
				(*happened)++;
		} else if (a->out == ACKED) {
			(*lost)++;
			fprintf(stderr, "table %lld: acknowledged '%s' of seat %d is not step %d\n",
				(long long)p->id, a->text, a->seat, k + 1);
		}
	}
	if (k < n) {
		*doubled += n - k;
		fprintf(stderr, "table %lld: %d steps of the log nobody was told of (from step %d)\n",
			(long long)p->id, n - k, k + 1);
	}
	int rc = it_run_replay(file, out, sizeof out, err, sizeof err);
	if (rc != 0)
		fail_msg("table %lld: `spieltisch replay` of its export exits %d: %s %s",
			 (long long)p->id, rc, out, err);
}

static void kill_mid_play(void **state)
{
	(void)state;
	if (!S.dir[0])
		skip();
	static struct player pl[TABLES];
	char name[32];
	double t0 = it_now();
	for (int t = 0; t < TABLES; t++) {
		for (int s = 0; s < SEATS; s++) {
			snprintf(name, sizeof name, "Spieler%d%d", t, s);
			pl[t].c[s] = user(name, s);   /* seat s through nginx A or B */
		}
		pl[t].id = open_table(pl[t].c);
		pl[t].rnd = 0x9e3779b97f4a7c15ULL * (uint64_t)(t + 1);
		pl[t].a = calloc(ATTEMPTS_MAX, sizeof *pl[t].a);
		assert_non_null(pl[t].a);
	}
	for (int t = 0; t < TABLES; t++)
		assert_int_equal(pthread_create(&pl[t].th, NULL, play, &pl[t]), 0);
	/* app A dies, master and workers at once, while moves are in flight */
	double end = it_now() + GAME_SECONDS;
	while (acked_total < KILL_AFTER && it_now() < end)
		nap();
	while (!in_flight && it_now() < end)
		sched_yield();   /* a moment, bounded: kill while a move is posted */
	long at_kill = acked_total;
	kill(-S.app[0], SIGKILL);
	waitpid(S.app[0], NULL, 0);
	S.app[0] = 0;
	killed = 1;
	for (int t = 0; t < TABLES; t++)
		pthread_join(pl[t].th, NULL);
	long moves = 0, acked = 0, after = 0, unanswered = 0, resent_ok = 0, resent_409 = 0;
	long lost = 0, doubled = 0, happened = 0;
	for (int t = 0; t < TABLES; t++) {
		struct player *p = &pl[t];
		if (!p->finished)
			fail_msg("table %lld: %s", (long long)p->id, p->err);
		assert_int_equal(p->refused, 0);
		compare(p, &lost, &doubled, &happened);
		moves += p->n;
		for (int i = 0; i < p->n; i++) {
			acked += p->a[i].out == ACKED;
			after += p->a[i].out == ACKED && p->a[i].after_kill;
		}
		unanswered += p->unanswered;
		resent_ok += p->resent_ok;
		resent_409 += p->resent_409;
	}
	print_message("kill: %d parties on %s, %ld moves sent, %ld acknowledged (%ld before app A "
		      "was killed, %ld begun after), %ld unanswered and resent (%ld then taken, %ld "
		      "told 409: %ld of them had happened), lost %ld, doubled %ld (%.1f s)\n",
		      TABLES, S.on_pg ? "PostgreSQL" : "SQLite", moves, acked, at_kill, after,
		      unanswered, resent_ok, resent_409, happened, lost, doubled, it_now() - t0);
	assert_int_equal(lost, 0);
	assert_int_equal(doubled, 0);
	assert_true(after > 0);   /* play went on through app B */
	/* both nginx still serve every table, from app B alone */
	for (int t = 0; t < TABLES; t++) {
		for (int s = 0; s < SEATS; s++) {
			json_t *o = it_view(pl[t].c[s], pl[t].id);
			assert_string_equal(it_jstr(o, "status"), "finished");
			json_decref(o);
			h_client_free(pl[t].c[s]);
		}
		free(pl[t].a);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(live_across),
		cmocka_unit_test(kill_mid_play),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
