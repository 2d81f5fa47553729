/*
 * suite.h — what the reliability suite's integration tests share (race,
 * crash, abuse): accounts, tables, the JSON twin, moves, a raw HTTP client
 * for requests libcurl will not send, and readers of the database file.
 * Header-only (static inline), included once per test binary, on top of
 * the harness (harness.h). Nothing here asserts but the last sections
 * (it_view, the exports): the functions return codes, so they may run in
 * worker threads (cmocka's asserts may not).
 */
#ifndef SPIELTISCH_SUITE_H
#define SPIELTISCH_SUITE_H

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <sqlite3.h>

#include "auth.h"
#include "integration/harness.h"
#include "play.h"
#include "store.h"

enum { IT_PASSWORD_LEN = 9 };
static const char it_password[] = "geheim123";

/* A group's setup and teardown for cmocka_run_group_tests(): the servers
 * start before the group's first test and stop after its last. */
static inline int it_start(void **state)
{
	(void)state;
	return h_start();
}

static inline int it_stop(void **state)
{
	(void)state;
	h_stop();
	return 0;
}

/* A group's teardown with clients: frees the n clients (NULL ones too),
 * then stops the servers. */
static inline int it_stop_clients(struct h_client **c, int n)
{
	for (int i = 0; i < n; i++)
		h_client_free(c[i]);
	h_stop();
	return 0;
}

/* Monotonic seconds. */
static inline double it_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* When nobody at a table can act, what changes it next is its deadline (a
 * window that runs out): waits until the JSON twin's `deadline` (ms since
 * the epoch, docs/api.md) has passed, at most max_ms, rather than for a
 * fixed time. A deadline already past returns at once (the next read
 * applies it); with none ahead it yields the processor for a moment, so a
 * caller's bounded loop does not spin. Returns the ms it waited. */
static inline long it_wait_deadline(json_t *table, long max_ms)
{
	json_t *d = json_object_get(table, "deadline");
	long long deadline = json_is_integer(d) ? (long long)json_integer_value(d) : 0;
	struct timespec ts;
	long wait_ms = 10;
	if (deadline > 0) {
		clock_gettime(CLOCK_REALTIME, &ts);
		long long now = (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
		wait_ms = deadline + 20 > now ? (long)(deadline + 20 - now) : 0;
	}
	if (wait_ms > max_ms)
		wait_ms = max_ms;
	if (wait_ms > 0) {
		ts = (struct timespec){ wait_ms / 1000, (wait_ms % 1000) * 1000000L };
		nanosleep(&ts, NULL);
	}
	return wait_ms;
}

/* The CSRF token of page `path` as client c sees it; 0 or -1. */
static inline int it_csrf(struct h_client *c, const char *path, char *out, size_t cap)
{
	struct h_resp r;
	if (h_get(c, path, &r) != 0 || r.status != 200 || h_csrf(&r, out, cap) != 0) {
		h_resp_free(&r);
		return -1;
	}
	h_resp_free(&r);
	return 0;
}

/* A new client registered (and so logged in) as `name`; NULL on failure. */
static inline struct h_client *it_register(const char *name)
{
	struct h_client *c = h_client_new();
	char csrf[128];
	struct h_resp r;
	if (!c || it_csrf(c, "/register", csrf, sizeof csrf) != 0)
		goto fail;
	if (h_post_form(c, "/register", &r, "csrf", csrf, "name", name, "password", it_password,
			"password2", it_password, NULL) != 0 || r.status != 303) {
		fprintf(stderr, "suite: register %s: status %ld\n", name, r.status);
		h_resp_free(&r);
		goto fail;
	}
	h_resp_free(&r);
	return c;
fail:
	h_client_free(c);
	return NULL;
}

/* A new client logged in as `name` (a session of its own); NULL on failure. */
static inline struct h_client *it_login(const char *name)
{
	struct h_client *c = h_client_new();
	char csrf[128];
	struct h_resp r;
	if (!c || it_csrf(c, "/login", csrf, sizeof csrf) != 0)
		goto fail;
	if (h_post_form(c, "/login", &r, "csrf", csrf, "name", name, "password", it_password,
			NULL) != 0 || r.status != 303) {
		fprintf(stderr, "suite: login %s: status %ld\n", name, r.status);
		h_resp_free(&r);
		goto fail;
	}
	h_resp_free(&r);
	return c;
fail:
	h_client_free(c);
	return NULL;
}

/* Creates a table of `slug` with `seats` seats (options: NULL-terminated
 * key, value pairs after seats, at most 6 pairs); its id, or -1. */
static inline int64_t it_create_table(struct h_client *c, const char *slug, int seats, ...)
{
	char csrf[128], ns[16], loc[128];
	const char *kv[12] = { 0 };
	va_list ap;
	va_start(ap, seats);
	for (int i = 0; i < 12; i++) {
		kv[i] = va_arg(ap, const char *);
		if (!kv[i])
			break;
	}
	va_end(ap);
	if (it_csrf(c, "/", csrf, sizeof csrf) != 0)
		return -1;
	snprintf(ns, sizeof ns, "%d", seats);
	struct h_resp r;
	if (h_post_form(c, "/tables", &r, "csrf", csrf, "game", slug, "seats", ns, kv[0], kv[1],
			kv[2], kv[3], kv[4], kv[5], kv[6], kv[7], kv[8], kv[9], kv[10], kv[11],
			NULL) != 0 ||
	    r.status != 303 || h_header(&r, "Location", loc, sizeof loc) != 0 ||
	    strncmp(loc, "/t/", 3) != 0) {
		fprintf(stderr, "suite: create %s: status %ld\n", slug, r.status);
		h_resp_free(&r);
		return -1;
	}
	h_resp_free(&r);
	return strtoll(loc + 3, NULL, 10);
}

/* A Swiss tournament of Drehwurm named `name` (tables of 4, else 3; three
 * rounds; live; start in an hour), organised by c: its id, or -1. */
static inline int64_t it_create_swiss(struct h_client *c, const char *name)
{
	char csrf[128], loc[128];
	struct h_resp r;
	if (it_csrf(c, "/tournaments/new?game=drehwurm", csrf, sizeof csrf) != 0)
		return -1;
	if (h_post_form(c, "/tournaments", &r, "csrf", csrf, "game", "drehwurm", "name", name,
			"format", "swiss", "seats", "4", "min_seats", "3", "rounds", "3",
			"tiebreaks", "party,sb", "start_minutes", "60", "snap_seconds", "2",
			"speed", "live", "move_seconds", "0", NULL) != 0 ||
	    r.status != 303 || h_header(&r, "Location", loc, sizeof loc) != 0 ||
	    strncmp(loc, "/tournaments/", 13) != 0) {
		fprintf(stderr, "suite: tournament %s: status %ld\n", name, r.status);
		h_resp_free(&r);
		return -1;
	}
	h_resp_free(&r);
	return strtoll(loc + 13, NULL, 10);
}

/* POST to /t/<id><what> ("/seat", "/bot", "/invite", …) with the table
 * page's csrf and one field (key NULL: none); the status, or -1 when the
 * page or the request failed. The Location into loc (cap bytes; "" when
 * there is none) when loc is given. */
static inline long it_post_table(struct h_client *c, int64_t id, const char *what,
				 const char *key, const char *val, char *loc, size_t cap)
{
	char path[64], csrf[128];
	struct h_resp r;
	snprintf(path, sizeof path, "/t/%lld", (long long)id);
	if (it_csrf(c, path, csrf, sizeof csrf) != 0)
		return -1;
	snprintf(path, sizeof path, "/t/%lld%s", (long long)id, what);
	if (h_post_form(c, path, &r, "csrf", csrf, key, val, NULL) != 0)
		return -1;
	long st = r.status;
	if (loc && (st != 303 || h_header(&r, "Location", loc, cap) != 0))
		loc[0] = '\0';
	h_resp_free(&r);
	return st;
}

/* Client c takes a seat at table id; 0 or -1. */
static inline int it_join(struct h_client *c, int64_t id)
{
	char path[64], csrf[128];
	snprintf(path, sizeof path, "/t/%lld", (long long)id);
	if (it_csrf(c, path, csrf, sizeof csrf) != 0)
		return -1;
	snprintf(path, sizeof path, "/t/%lld/join", (long long)id);
	struct h_resp r;
	int ok = h_post_form(c, path, &r, "csrf", csrf, NULL) == 0 && r.status == 303;
	h_resp_free(&r);
	return ok ? 0 : -1;
}

/* The JSON twin of table id as c sees it (the caller json_decref()s), or
 * NULL; *status gets the HTTP status (0 on a transport error). */
static inline json_t *it_table_json(struct h_client *c, int64_t id, long *status)
{
	char path[64];
	snprintf(path, sizeof path, "/t/%lld.json", (long long)id);
	struct h_resp r;
	int rc = h_get(c, path, &r);
	*status = r.status;
	json_t *o = NULL;
	if (rc == 0 && r.status == 200)
		o = json_loads(r.body, 0, NULL);
	h_resp_free(&r);
	return o;
}

/* Integer member of a JSON object, or def. */
static inline long long it_jint(json_t *o, const char *key, long long def)
{
	json_t *v = json_object_get(o, key);
	return json_is_integer(v) ? (long long)json_integer_value(v) : def;
}

/* String member of a JSON object, or "". */
static inline const char *it_jstr(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_string(v) ? json_string_value(v) : "";
}

/* Posts one move; the HTTP status (0 on a transport error). */
static inline long it_move(struct h_client *c, int64_t id, const char *csrf, long long v,
			   const char *move)
{
	char path[64], vs[32];
	snprintf(path, sizeof path, "/t/%lld/move", (long long)id);
	snprintf(vs, sizeof vs, "%lld", v);
	struct h_resp r;
	h_post_form(c, path, &r, "csrf", csrf, "v", vs, "move", move, NULL);
	long st = r.status;
	h_resp_free(&r);
	return st;
}

/* The first of who[0..n-1] who may act at table id, and a random one of
 * their listed moves (by *rnd): 1 with *at (their index), *twin (their JSON
 * twin, the caller's to json_decref) and *move (in *twin) set; 0 when nobody
 * may, -1 when the table is finished, -2 when a JSON twin could not be read
 * in tries GETs (*status: the last answer's). */
static inline int it_pick_move(struct h_client **who, int n, int64_t id, uint64_t *rnd, int tries,
			       int *at, json_t **twin, const char **move, long *status)
{
	for (int i = 0; i < n; i++) {
		json_t *o = NULL;
		for (int k = 0; k < tries && !o; k++)
			o = it_table_json(who[i], id, status);
		if (!o)
			return -2;
		if (strcmp(it_jstr(o, "status"), "finished") == 0) {
			json_decref(o);
			return -1;
		}
		json_t *mv = json_object_get(o, "moves");
		if (!json_is_true(json_object_get(o, "can_act")) || json_array_size(mv) == 0) {
			json_decref(o);
			continue;
		}
		*rnd = *rnd * 6364136223846793005ULL + 1442695040888963407ULL;
		*move = it_jstr(json_array_get(mv, (size_t)(*rnd >> 33) % json_array_size(mv)), "move");
		*at = i;
		*twin = o;
		return 1;
	}
	return 0;
}

/* One legal move of whichever of the people who[0..n-1] may act at table
 * id (it_pick_move): 1 when one moved, 0 when nobody may, -1 when the
 * table is finished, -2 on a failure (no JSON twin, a move answered other
 * than 303 or 409: a deadline passed meanwhile). */
static inline int it_one_move(struct h_client **who, int n, int64_t id, uint64_t *rnd)
{
	long status;
	int i;
	json_t *o;
	const char *m;
	int r = it_pick_move(who, n, id, rnd, 1, &i, &o, &m, &status);
	if (r != 1)
		return r;
	long st = it_move(who[i], id, it_jstr(o, "csrf"), it_jint(o, "version", -1), m);
	json_decref(o);
	return st == 303 || st == 409 ? 1 : -2;
}

/* ---- a raw HTTP/1.1 client, for what libcurl would not send ---- */

/* The port of the harness' nginx. */
static inline int it_port(void)
{
	const char *b = strrchr(h_base(), ':');
	return b ? (int)strtol(b + 1, NULL, 10) : -1;
}

/* Sends req[0..n) on the connected socket fd and reads the answer (until
 * the server closes, at most cap-1 bytes, at most `timeout` seconds) into
 * out, then closes fd. Returns the status of the answer's first line, 0
 * when none came. */
static inline long it_exchange(int fd, const char *req, size_t n, char *out, size_t cap,
			       double timeout)
{
	size_t got = 0;
	long status = 0;
	for (size_t sent = 0; sent < n;) {
		ssize_t w = send(fd, req + sent, n - sent, MSG_NOSIGNAL);
		if (w <= 0)
			break;   /* the server may close early (413): read what it said */
		sent += (size_t)w;
	}
	double end = it_now() + timeout;
	while (got + 1 < cap && it_now() < end) {
		struct pollfd p = { fd, POLLIN, 0 };
		if (poll(&p, 1, 100) <= 0)
			continue;
		ssize_t r = recv(fd, out + got, cap - 1 - got, 0);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	if (cap)
		out[got < cap ? got : cap - 1] = '\0';
	if (got > 12 && strncmp(out, "HTTP/1.", 7) == 0)
		status = strtol(out + 9, NULL, 10);
	return status;
}

/* Sends req[0..n) as it is to nginx on 127.0.0.1 and reads the answer
 * (it_exchange, at most 10 s) into out. The status, 0 when none came. */
static inline long it_raw(const char *req, size_t n, char *out, size_t cap)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	if (cap)
		out[0] = '\0';
	if (fd < 0)
		return 0;
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)it_port()) };
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
		close(fd);
		return 0;
	}
	return it_exchange(fd, req, n, out, cap, 10);
}

/* ---- clients at other addresses ---- */
/* Every 127.x.y.z reaches nginx on 127.0.0.1, and nginx passes it on as
 * $remote_addr: one address per simulated school or attacker. */

/* A socket from source address src, connected to nginx; -1 on failure. */
static inline int it_src_connect(const char *src)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return -1;
	struct sockaddr_in me = { .sin_family = AF_INET };
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons((uint16_t)it_port()) };
	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (inet_pton(AF_INET, src, &me.sin_addr) != 1 ||
	    bind(fd, (struct sockaddr *)&me, sizeof me) != 0 ||
	    connect(fd, (struct sockaddr *)&to, sizeof to) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Like it_raw(), from source address src, waiting at most `timeout`
 * seconds for the answer. The status, 0 when none came. */
static inline long it_src_raw(const char *src, const char *req, size_t n, char *out, size_t cap,
			      double timeout)
{
	int fd = it_src_connect(src);
	if (cap)
		out[0] = '\0';
	if (fd < 0)
		return 0;
	return it_exchange(fd, req, n, out, cap, timeout);
}

/* The pre-session token (= the login form's CSRF token) that address src
 * gets with the login form; 0 or -1. */
static inline int it_presession(const char *src, char *tok, size_t cap)
{
	char buf[65536];
	const char *req = "GET /login HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
	if (it_src_raw(src, req, strlen(req), buf, sizeof buf, 15) != 200)
		return -1;
	const char *p = strstr(buf, "\nSet-Cookie: stc=");
	if (!p)
		return -1;
	p += strlen("\nSet-Cookie: stc=");
	snprintf(tok, cap, "%.*s", (int)strcspn(p, ";\r\n"), p);
	return strlen(tok) == AUTH_TOKEN_LEN ? 0 : -1;
}

/* POST /login (name, password: plain ASCII) from address src with its
 * token; the status, the answer in out. */
static inline long it_src_login(const char *src, const char *tok, const char *name,
				const char *pw, char *out, size_t cap)
{
	char body[256], req[1024];
	int bl = snprintf(body, sizeof body, "csrf=%s&name=%s&password=%s", tok, name, pw);
	int n = snprintf(req, sizeof req,
			 "POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
			 "Cookie: stc=%s\r\nContent-Type: application/x-www-form-urlencoded\r\n"
			 "Content-Length: %d\r\n\r\n%s", tok, bl, body);
	if (bl <= 0 || n <= 0 || (size_t)n >= sizeof req)
		return 0;
	return it_src_raw(src, req, (size_t)n, out, cap, 15);
}

/* ---- processes, from /proc ---- */

/* pid's state letter ('Z' zombie) and parent from /proc/<pid>/stat (either
 * may be NULL). 0, or -1 when pid is gone. */
static inline int it_proc_stat(pid_t pid, char *state, pid_t *parent)
{
	char path[64], buf[512];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	const char *p = strrchr(buf, ')');
	char st;
	int pp;
	if (!p || sscanf(p + 2, "%c %d", &st, &pp) != 2)
		return -1;
	if (state)
		*state = st;
	if (parent)
		*parent = (pid_t)pp;
	return 0;
}

/* The children of `parent` (at most max) into out; how many. */
static inline int it_children_of(pid_t parent, pid_t *out, int max)
{
	DIR *d = opendir("/proc");
	int n = 0;
	struct dirent *e;
	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		pid_t pp;
		if (*end || pid <= 0)
			continue;
		if (it_proc_stat((pid_t)pid, NULL, &pp) == 0 && pp == parent)
			out[n++] = (pid_t)pid;
	}
	closedir(d);
	return n;
}

/* 1 when pid's second argument is "serve" (the app, not nginx). */
static inline int it_is_serve(pid_t pid)
{
	char path[64], buf[4096];
	snprintf(path, sizeof path, "/proc/%d/cmdline", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	size_t first = strnlen(buf, n);
	return first + 1 < n && strcmp(buf + first + 1, "serve") == 0;
}

/* ---- the database file ---- */

/* PRAGMA integrity_check of the file: 0 when it answers exactly "ok". */
static inline int it_db_integrity(const char *path, char *why, size_t cap)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	int rc = -1;
	snprintf(why, cap, "cannot open");
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK)
		goto out;
	sqlite3_busy_timeout(db, 10000);
	if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL) != SQLITE_OK)
		goto out;
	if (sqlite3_step(st) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(st, 0);
		snprintf(why, cap, "%s", t ? t : "(null)");
		rc = t && strcmp(t, "ok") == 0 && sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	}
out:
	sqlite3_finalize(st);
	sqlite3_close(db);
	return rc;
}

/* The table's version and the number of steps in its log, from the
 * database file: what "nothing changed" is measured by. 0 or -1. */
static inline int it_db_table_state(const char *path, int64_t id, long long *version,
				    long long *steps)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	int rc = -1;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		goto out;
	sqlite3_busy_timeout(db, 10000);
	if (sqlite3_prepare_v2(db, "SELECT t.version, (SELECT count(*) FROM moves m JOIN parties p "
				   "ON p.id = m.party WHERE p.table_id = t.id) FROM tables t "
				   "WHERE t.id = ?", -1, &st, NULL) != SQLITE_OK)
		goto out;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		*version = sqlite3_column_int64(st, 0);
		*steps = sqlite3_column_int64(st, 1);
		rc = 0;
	}
out:
	sqlite3_finalize(st);
	sqlite3_close(db);
	return rc;
}

/* Runs one SQL statement with an integer parameter on the database file
 * (a test reaching behind the program, e.g. to expire a session); 0 or -1. */
static inline int it_db_exec(const char *path, const char *sql, long long arg)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	int rc = -1;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK)
		goto out;
	sqlite3_busy_timeout(db, 10000);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		goto out;
	if (sqlite3_bind_parameter_count(st) > 0)
		sqlite3_bind_int64(st, 1, arg);
	int s = sqlite3_step(st);
	rc = s == SQLITE_DONE || s == SQLITE_ROW ? 0 : -1;
out:
	sqlite3_finalize(st);
	sqlite3_close(db);
	return rc;
}

/* One logged step of a table, as read from the database. */
struct it_step {
	int party;            /* party number within the table */
	int seat;
	char text[GAME_MOVE_MAX + 1];
};

/* Every step of every party of table id, in order, into a malloc'd array
 * (*out, *n); 0 or -1. */
static inline int it_db_steps(const char *path, int64_t id, struct it_step **out, int *n)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	int rc = -1, cap = 0;
	*out = NULL;
	*n = 0;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		goto out;
	sqlite3_busy_timeout(db, 10000);
	if (sqlite3_prepare_v2(db, "SELECT p.number, m.seat, m.text FROM moves m "
				   "JOIN parties p ON p.id = m.party WHERE p.table_id = ? "
				   "ORDER BY p.number, m.seq", -1, &st, NULL) != SQLITE_OK)
		goto out;
	sqlite3_bind_int64(st, 1, id);
	int s;
	while ((s = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 1024;
			struct it_step *p = realloc(*out, sizeof **out * (size_t)cap);
			if (!p)
				goto out;
			*out = p;
		}
		struct it_step *x = &(*out)[(*n)++];
		x->party = sqlite3_column_int(st, 0);
		x->seat = sqlite3_column_int(st, 1);
		snprintf(x->text, sizeof x->text, "%s", (const char *)sqlite3_column_text(st, 2));
	}
	rc = s == SQLITE_DONE ? 0 : -1;
out:
	sqlite3_finalize(st);
	sqlite3_close(db);
	return rc;
}

/* Opens the database as the program does (store_open) and rebuilds every
 * party of table id from setup + log, comparing with the stored snapshot
 * (play_verify_party). Returns the parties verified, or -1 with why. */
static inline int it_verify_table(int64_t id, char *why, size_t cap)
{
	struct store *s = NULL;
	char schema[600];
	snprintf(schema, sizeof schema, "%s/schema", h_root());
	if (store_open(&s, h_db_path(), schema) != ST_OK) {
		snprintf(why, cap, "store_open failed");
		return -1;
	}
	struct st_table t;
	int n = -1;
	if (store_table_get(s, id, &t) != ST_OK) {
		snprintf(why, cap, "table %lld not found", (long long)id);
		goto out;
	}
	n = 0;
	for (int k = 0; k <= t.party_no; k++) {
		struct rerr e = { .msg = "" };
		int rc = play_verify_party(s, id, k, &e);
		if (rc != PLAY_OK) {
			snprintf(why, cap, "table %lld party %d: %s (%s)", (long long)id, k,
				 play_message(rc), e.msg);
			n = -1;
			goto out;
		}
		n++;
	}
out:
	store_close(s);
	return n;
}

/* ---- for a test's main thread only: these fail the test (cmocka's
 * fail_msg; every includer includes <cmocka.h> before this file) ---- */

/* The JSON twin of table `id` as client c sees it (the caller decrefs);
 * the test fails when it cannot be read. */
static inline json_t *it_view(struct h_client *c, int64_t id)
{
	long st = 0;
	json_t *o = it_table_json(c, id, &st);
	if (!o)
		fail_msg("table %lld JSON: status %ld", (long long)id, st);
	return o;
}

/* ---- a finished party's export, played back (issue 37: the export of
 * every party played in the integration tests replays to the same
 * scores) ---- */

/* Runs `spieltisch replay file` (SPIELTISCH_BIN, else the build's): its
 * exit status, its first output line in out (newline cut), the first line
 * it said on stderr in err ("" when none). */
static inline int it_run_replay(const char *file, char *out, size_t cap, char *err, size_t ecap)
{
	char cmd[4096], errfile[1024];
	const char *bin = getenv("SPIELTISCH_BIN");
	snprintf(errfile, sizeof errfile, "%s.err", file);
	if (bin && *bin)
		snprintf(cmd, sizeof cmd, "'%s' replay '%s' 2>'%s'", bin, file, errfile);
	else
		snprintf(cmd, sizeof cmd, "'%s/build/spieltisch' replay '%s' 2>'%s'", h_root(),
			 file, errfile);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	out[0] = '\0';
	if (!fgets(out, (int)cap, p))
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
	char rest[256];
	while (fgets(rest, sizeof rest, p))   /* read to the end: no SIGPIPE */
		;
	int rc = pclose(p);
	FILE *e = fopen(errfile, "r");
	if (ecap)
		err[0] = '\0';
	if (e) {
		if (ecap && fgets(err, (int)ecap, e))
			err[strcspn(err, "\n")] = '\0';
		fclose(e);
	}
	unlink(errfile);
	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* The export of party k (1-based) of table id as c may fetch it
 * (GET /t/<id>/replay.txt?party=k: 200, text/plain), written to a file
 * in the harness' directory: its path in out. */
static inline void it_export_file(struct h_client *c, int64_t id, int k, char *out, size_t cap)
{
	char path[96], type[64];
	struct h_resp r;
	snprintf(path, sizeof path, "/t/%lld/replay.txt?party=%d", (long long)id, k);
	assert_int_equal(h_get(c, path, &r), 0);
	if (r.status != 200)
		fail_msg("%s: status %ld", path, r.status);
	assert_int_equal(h_header(&r, "Content-Type", type, sizeof type), 0);
	assert_non_null(strstr(type, "text/plain"));
	assert_non_null(strstr(r.body, "\nseed "));
	snprintf(out, cap, "%s/export-%lld-%d.txt", h_dir(), (long long)id, k);
	FILE *f = fopen(out, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(r.body, 1, r.body_len, f), r.body_len);
	assert_int_equal(fclose(f), 0);
	h_resp_free(&r);
}

/* The scores of a finished party as the table's JSON twin lists it (an
 * element of `parties`): " 3 -2 5", in seat order. */
static inline void it_party_scores(json_t *party, char *out, size_t cap)
{
	json_t *sc = json_object_get(party, "scores");
	size_t n = 0;
	out[0] = '\0';
	for (size_t i = 0; i < json_array_size(sc) && n < cap; i++)
		n += (size_t)snprintf(out + n, cap - n, " %lld",
				      it_jint(json_array_get(sc, i), "score", 0));
}

/* Every finished party of table id (the JSON twin's `parties`, as c sees
 * it): its export is fetched and played back by `spieltisch replay`,
 * which must exit 0 and print the scores the table shows for that party.
 * The test fails otherwise, saying which party and why. Returns the
 * parties verified. */
static inline int it_verify_exports(struct h_client *c, int64_t id)
{
	json_t *o = it_view(c, id);
	json_t *parties = json_object_get(o, "parties");
	char file[600], line[512], err[512], want[256];
	double t0 = it_now();
	size_t i;
	for (i = 0; i < json_array_size(parties); i++) {
		json_t *pa = json_array_get(parties, i);
		int k = (int)it_jint(pa, "number", 0);
		assert_true(k >= 1);
		it_party_scores(pa, want, sizeof want);
		it_export_file(c, id, k, file, sizeof file);
		int rc = it_run_replay(file, line, sizeof line, err, sizeof err);
		const char *got = strstr(line, ", scores");   /* "dna: 80 steps, scores 3 -2" */
		if (rc != 0 || !got || strcmp(got + strlen(", scores"), want) != 0)
			fail_msg("table %lld party %d: `spieltisch replay` exits %d, prints '%s' "
				 "(%s); the table says scores%s", (long long)id, k, rc, line, err,
				 want);
		unlink(file);
	}
	json_decref(o);
	print_message("exports: table %lld: %d parties replay to their scores (%.2f s)\n",
		      (long long)id, (int)i, it_now() - t0);
	return (int)i;
}

#endif
