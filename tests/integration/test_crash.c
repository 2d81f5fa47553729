/*
 * test_crash.c — workers die in the middle of writing, and nothing that
 * was acknowledged is lost.
 *
 * Tables of every registered game (no per-game code: the games come from
 * games[]) are played by several clients through nginx with legal moves
 * from the JSON twin (new tables are opened whenever the matches run out,
 * so the load never stops). Meanwhile the test sends SIGKILL to a random
 * FastCGI worker every 150–600 ms (the master starts a new one), and at the
 * end to the whole program at once, master included, while moves are in
 * flight.
 * Then, as a restart would:
 *   - the database file opens (SQLite recovers its WAL) and
 *     PRAGMA integrity_check says ok;
 *   - every move a client saw acknowledged (303) is in the move log;
 *   - every party of every table equals the replay of its log
 *     (play_verify_party);
 *   - a new `spieltisch serve` on the same socket answers through the same
 *     nginx, shows every table at a version no lower than any client saw,
 *     and takes a move again.
 * Before the load, every worker must run behind its seccomp filter
 * (unless SPIELTISCH_SANDBOX=off). During the kills a client may see 502 (nginx lost its worker) or a
 * transport error: that move was not acknowledged. A 500 from the program
 * itself fails the test.
 * Bounded: CRASH_SECONDS (default 20) of load, every loop bounded in count.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <cmocka.h>

#include "game.h"
#include "integration/suite.h"

enum { USERS = 3, SESSIONS = 2, CLIENTS = USERS * SESSIONS, TABLES_PER_GAME = 2,
       TABLES_MAX = 64, ACKS_MAX = 40000, REQUESTS_MAX = 40000 };

struct ack {
	int table;            /* index into tables[] */
	int seat;
	char text[GAME_MOVE_MAX + 1];
};

struct client {
	pthread_t th;
	struct h_client *c;
	unsigned rng;
	volatile int stop;
	long requests, s303, s409, s422, s500, s502, transport, other, last_other;
	long long seen_v[TABLES_MAX];
	struct ack *acks;
	int nacks;
};

/* Tables are only appended (by the main thread, entry first, then the
 * count), so clients may read them while more are added. */
static int64_t tables[TABLES_MAX];
static int ntables;
static int finished[TABLES_MAX];     /* set by a client that saw the match end */
static struct client clients[CLIENTS];
static struct h_client *owners[USERS];

/* How many tables are in tables[] now (safe while the main thread adds). */
static int tables_now(void)
{
	return __atomic_load_n(&ntables, __ATOMIC_ACQUIRE);
}

/* The load time: CRASH_SECONDS when it is within 2..600, else 20. */
static double crash_seconds(void)
{
	const char *e = getenv("CRASH_SECONDS");
	char *end;
	double s = e ? strtod(e, &end) : 20;
	if (!e || *end || s < 2 || s > 600)
		s = 20;
	return s;
}

/* A small generator per thread (rand() is not thread-safe). */
static unsigned next_rand(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/* Sleeps ms milliseconds. */
static void msleep(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* Counts one answer; anything but the expected kinds is remembered. */
static void count(struct client *k, long st)
{
	k->requests++;
	if (st == 303)
		k->s303++;
	else if (st == 409)
		k->s409++;
	else if (st == 422)
		k->s422++;
	else if (st == 500)
		k->s500++;
	else if (st == 502 || st == 503 || st == 504)
		k->s502++;
	else if (st == 0)
		k->transport++;
	else if (st != 200) {
		k->other++;
		k->last_other = st;
	}
}

/* A client: round the tables, one legal move each where it has one. */
static void *play(void *arg)
{
	struct client *k = arg;
	int t = (int)(next_rand(&k->rng) % (unsigned)tables_now());
	while (!k->stop && k->requests < REQUESTS_MAX) {
		t = (t + 1) % tables_now();
		if (__atomic_load_n(&finished[t], __ATOMIC_RELAXED))
			continue;
		long st;
		json_t *o = it_table_json(k->c, tables[t], &st);
		count(k, st);
		if (!o) {
			msleep(5);
			continue;
		}
		long long v = it_jint(o, "version", -1);
		if (v > k->seen_v[t])
			k->seen_v[t] = v;
		if (strcmp(it_jstr(o, "status"), "finished") == 0)
			__atomic_store_n(&finished[t], 1, __ATOMIC_RELAXED);
		json_t *moves = json_object_get(o, "moves");
		size_t nm = json_array_size(moves);
		int seat = (int)it_jint(o, "my_seat", -1);
		if (nm == 0 || seat < 0) {
			json_decref(o);
			continue;
		}
		char csrf[128], move[GAME_MOVE_MAX + 1];
		snprintf(csrf, sizeof csrf, "%s", it_jstr(o, "csrf"));
		snprintf(move, sizeof move, "%s",
			 it_jstr(json_array_get(moves, next_rand(&k->rng) % nm), "move"));
		json_decref(o);
		st = it_move(k->c, tables[t], csrf, v, move);
		count(k, st);
		if (st == 303 && k->nacks < ACKS_MAX) {
			struct ack *a = &k->acks[k->nacks++];
			a->table = t;
			a->seat = seat;
			snprintf(a->text, sizeof a->text, "%s", move);
		}
	}
	return NULL;
}

/* The Seccomp field of /proc/<pid>/status (2: a filter is on), or -1. */
static int seccomp_mode(pid_t pid)
{
	char path[64], line[256];
	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	int mode = -1;
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (strncmp(line, "Seccomp:", 8) == 0)
			mode = (int)strtol(line + 8, NULL, 10);
	fclose(f);
	return mode;
}

/* The app's master: the child of this process that runs `serve`. */
static pid_t find_master(void)
{
	pid_t kids[16];
	int n = it_children_of(getpid(), kids, 16);
	for (int i = 0; i < n; i++)
		if (it_is_serve(kids[i]))
			return kids[i];
	return -1;
}

/* Repeats a set-up request while workers are being killed: at most 10
 * tries. A lost answer may hide a success, so join accepts 409 (seated). */
static int join_retry(struct h_client *c, int64_t id)
{
	char path[64], csrf[128];
	for (int i = 0; i < 10; i++) {
		snprintf(path, sizeof path, "/t/%lld", (long long)id);
		if (it_csrf(c, path, csrf, sizeof csrf) != 0) {
			msleep(100);
			continue;
		}
		snprintf(path, sizeof path, "/t/%lld/join", (long long)id);
		struct h_resp r;
		h_post_form(c, path, &r, "csrf", csrf, NULL);
		long st = r.status;
		h_resp_free(&r);
		if (st == 303 || st == 409)
			return 0;
		msleep(100);
	}
	return -1;
}

/* A new table of game g with every seat taken, added to tables[]; 0, or
 * -1 when the kills kept it from being set up (then it is left out). */
static int add_table(int g)
{
	int seats = games[g]->min_players > USERS ? -1 :
		    games[g]->max_players < USERS ? games[g]->max_players : USERS;
	if (seats < 0 || tables_now() >= TABLES_MAX)
		return -1;
	int64_t id = -1;
	for (int i = 0; i < 10 && id <= 0; i++) {
		id = it_create_table(owners[0], games[g]->slug, seats, NULL);
		if (id <= 0)
			msleep(100);
	}
	if (id <= 0)
		return -1;
	for (int u = 1; u < seats; u++)
		if (join_retry(owners[u], id) != 0)
			return -1;
	int n = tables_now();
	tables[n] = id;
	__atomic_store_n(&ntables, n + 1, __ATOMIC_RELEASE);
	return 0;
}

/* Tables whose match has not ended (as far as the clients saw). */
static int tables_running(void)
{
	int n = tables_now(), r = 0;
	for (int t = 0; t < n; t++)
		r += !__atomic_load_n(&finished[t], __ATOMIC_RELAXED);
	return r;
}

/* Group set-up: the program and nginx (harness). */
static int start(void **state)
{
	(void)state;
	return h_start();
}

/* Group tear-down: the clients, then the servers (the harness stops what
 * is left of the killed program). */
static int stop(void **state)
{
	(void)state;
	for (int i = 0; i < CLIENTS; i++) {
		h_client_free(clients[i].c);
		free(clients[i].acks);
	}
	for (int u = 0; u < USERS; u++)
		h_client_free(owners[u]);
	h_stop();
	return 0;
}

/* qsort order of moves: table, seat, text. */
static int ack_cmp(const void *a, const void *b)
{
	const struct ack *x = a, *y = b;
	if (x->table != y->table)
		return x->table < y->table ? -1 : 1;
	if (x->seat != y->seat)
		return x->seat < y->seat ? -1 : 1;
	return strcmp(x->text, y->text);
}

/* Starts `spieltisch serve` again on the harness' socket and database, in
 * a process group of its own; its pid, or -1. */
static pid_t restart_app(void)
{
	char bin[700], sock[700], db[700], log[700];
	const char *b = getenv("SPIELTISCH_BIN");
	snprintf(bin, sizeof bin, "%s", b && *b ? b : "");
	if (!bin[0])
		snprintf(bin, sizeof bin, "%s/build/spieltisch", h_root());
	snprintf(sock, sizeof sock, "%s/spieltisch.sock", h_dir());
	snprintf(db, sizeof db, "%s", h_db_path());
	snprintf(log, sizeof log, "%s/app-restarted.log", h_dir());
	pid_t pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		FILE *f = freopen(log, "a", stderr);
		(void)f;
		char *argv[] = { bin, "serve", "--socket", sock, "--workers", "2", "--db", db,
				 "--root", (char *)h_root(), NULL };
		execv(bin, argv);
		_exit(127);
	}
	if (pid > 0)
		setpgid(pid, pid);
	return pid;
}

/* Stops the restarted program: SIGTERM to its group, at most 5 s, then SIGKILL. */
static void stop_app(pid_t pid)
{
	int st;
	kill(-pid, SIGTERM);
	for (int i = 0; i < 250; i++) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			return;
		msleep(20);
	}
	kill(-pid, SIGKILL);
	waitpid(pid, &st, 0);
}

/* The whole crash run: load, kills, the checks after the crash, the restart. */
static void test_crash(void **state)
{
	(void)state;
	char name[32];
	for (int u = 0; u < USERS; u++) {
		snprintf(name, sizeof name, "crash%d", u);
		owners[u] = it_register(name);
		assert_non_null(owners[u]);
	}
	/* every registered game, at a player count our users can fill */
	for (int g = 0; g < ngames; g++) {
		if (games[g]->min_players > USERS)
			fail_msg("%s needs more players than the test has", games[g]->slug);
		for (int k = 0; k < TABLES_PER_GAME; k++)
			assert_int_equal(add_table(g), 0);
	}
	for (int i = 0; i < CLIENTS; i++) {
		snprintf(name, sizeof name, "crash%d", i % USERS);
		clients[i].c = it_login(name);
		assert_non_null(clients[i].c);
		clients[i].rng = 0x2545f491u * (unsigned)(i + 1);
		clients[i].acks = calloc(ACKS_MAX, sizeof *clients[i].acks);
		assert_non_null(clients[i].acks);
	}
	pid_t master = find_master();
	assert_true(master > 0);
	/* the workers run behind their seccomp filter (cgi/sandbox.h) */
	const char *sb = getenv("SPIELTISCH_SANDBOX");
	if (!sb || (strcmp(sb, "off") != 0 && strcmp(sb, "0") != 0)) {
		pid_t w[8];
		int n = it_children_of(master, w, 8);
		assert_true(n > 0);
		for (int i = 0; i < n; i++)
			if (seccomp_mode(w[i]) != 2)
				fail_msg("worker %d runs without its seccomp filter", (int)w[i]);
	}

	for (int i = 0; i < CLIENTS; i++)
		assert_int_equal(pthread_create(&clients[i].th, NULL, play, &clients[i]), 0);
	double t0 = it_now(), until = t0 + crash_seconds();
	unsigned rng = 77;
	int kills = 0;
	int added = 0;
	while (it_now() < until) {
		/* keep the load going: new tables when the matches run out */
		if (tables_running() < 2 * ngames && tables_now() + ngames <= TABLES_MAX)
			for (int g = 0; g < ngames; g++)
				added += add_table(g) == 0;
		msleep(150 + next_rand(&rng) % 450);
		pid_t w[8];
		int n = it_children_of(master, w, 8);
		if (n == 0)
			continue;
		if (kill(w[next_rand(&rng) % (unsigned)n], SIGKILL) == 0)
			kills++;
	}
	/* the end: everything at once, with moves in flight */
	assert_int_equal(kill(-master, SIGKILL), 0);
	msleep(500);
	for (int i = 0; i < CLIENTS; i++)
		clients[i].stop = 1;
	for (int i = 0; i < CLIENTS; i++)
		pthread_join(clients[i].th, NULL);
	double took = it_now() - t0;

	long req = 0, a303 = 0, a409 = 0, a422 = 0, a500 = 0, a502 = 0, tr = 0, oth = 0;
	int nacks = 0;
	for (int i = 0; i < CLIENTS; i++) {
		struct client *k = &clients[i];
		req += k->requests;
		a303 += k->s303;
		a409 += k->s409;
		a422 += k->s422;
		a500 += k->s500;
		a502 += k->s502;
		tr += k->transport;
		oth += k->other;
		nacks += k->nacks;
		if (k->other)
			fprintf(stderr, "crash: client %d saw status %ld\n", i, k->last_other);
	}
	fprintf(stderr, "crash: %.1f s, %d tables of %d games (%d opened during the kills), %d workers killed with SIGKILL and "
		"then the whole program; %ld requests: %ld moves acknowledged, %ld 409, %ld 422, "
		"%ld 502-504 (a worker lost), %ld transport errors, %ld 500, %ld other\n", took,
		ntables, ngames, added, kills, req, a303, a409, a422, a502, tr, a500, oth);
	if (a500 || oth)
		h_dump_logs();
	assert_int_equal(a500, 0);
	assert_int_equal(oth, 0);
	assert_true(kills >= 5);
	assert_true(a303 >= 20);

	/* as after a restart: the file, the log, the replays */
	char why[512];
	if (it_db_integrity(h_db_path(), why, sizeof why) != 0)
		fail_msg("integrity_check after the crash: %s", why);
	struct ack *acked = malloc(sizeof *acked * (size_t)(nacks ? nacks : 1));
	assert_non_null(acked);
	int na = 0;
	for (int i = 0; i < CLIENTS; i++)
		for (int j = 0; j < clients[i].nacks; j++)
			acked[na++] = clients[i].acks[j];
	qsort(acked, (size_t)na, sizeof *acked, ack_cmp);
	int nlogged = 0, parties = 0;
	for (int t = 0; t < ntables; t++) {
		struct it_step *steps;
		int n;
		assert_int_equal(it_db_steps(h_db_path(), tables[t], &steps, &n), 0);
		struct ack *logged = malloc(sizeof *logged * (size_t)(n ? n : 1));
		assert_non_null(logged);
		int nl = 0;
		for (int i = 0; i < n; i++)
			if (steps[i].seat >= 0) {
				logged[nl].table = t;
				logged[nl].seat = steps[i].seat;
				snprintf(logged[nl].text, sizeof logged[0].text, "%s", steps[i].text);
				nl++;
			}
		qsort(logged, (size_t)nl, sizeof *logged, ack_cmp);
		/* every acknowledged move of this table is in its log (as often) */
		int j = 0;
		for (int i = 0; i < na; i++) {
			if (acked[i].table != t)
				continue;
			while (j < nl && ack_cmp(&logged[j], &acked[i]) < 0)
				j++;
			if (j == nl || ack_cmp(&logged[j], &acked[i]) != 0)
				fail_msg("table %lld: acknowledged move '%s' of seat %d is not in the "
					 "log", (long long)tables[t], acked[i].text, acked[i].seat);
			j++;
		}
		nlogged += nl;
		free(logged);
		free(steps);
		int v = it_verify_table(tables[t], why, sizeof why);
		if (v < 0)
			fail_msg("replay after the crash: %s", why);
		parties += v;
	}
	fprintf(stderr, "crash: integrity_check ok; all %d acknowledged moves among the %d logged; "
		"%d parties equal their replay\n", na, nlogged, parties);
	free(acked);

	/* a real restart on the same socket, behind the same nginx */
	pid_t app = restart_app();
	assert_true(app > 0);
	struct h_client *c = it_login("crash0");
	for (int i = 0; i < 150 && !c; i++) {
		msleep(100);
		c = it_login("crash0");
	}
	if (!c) {
		stop_app(app);
		fail_msg("the restarted program does not answer");
	}
	struct h_client *users[USERS] = { c };
	for (int u = 1; u < USERS; u++) {
		snprintf(name, sizeof name, "crash%d", u);
		users[u] = it_login(name);
		assert_non_null(users[u]);
	}
	int moved = 0, playing = 0;
	for (int t = 0; t < ntables; t++) {
		long st;
		json_t *o = it_table_json(c, tables[t], &st);
		assert_non_null(o);
		playing += strcmp(it_jstr(o, "status"), "playing") == 0;
		json_decref(o);
		it_verify_exports(c, tables[t]);   /* parties finished before the crash */
		/* a page's version is the one its seat may know (the public one, or
		 * the seat's own later step): each client against its own user's */
		for (int u = 0; u < USERS; u++) {
			o = it_table_json(users[u], tables[t], &st);
			assert_non_null(o);
			long long v = it_jint(o, "version", -1);
			json_decref(o);
			for (int i = u; i < CLIENTS; i += USERS)
				if (clients[i].seen_v[t] > v)
					fail_msg("table %lld: a client saw version %lld, after the "
						 "restart it is %lld", (long long)tables[t],
						 clients[i].seen_v[t], v);
		}
		/* whoever may move there makes one move */
		for (int u = 0; u < USERS && !moved; u++) {
			o = it_table_json(users[u], tables[t], &st);
			assert_non_null(o);
			json_t *moves = json_object_get(o, "moves");
			if (json_array_size(moves) > 0) {
				char csrf[128], move[GAME_MOVE_MAX + 1];
				snprintf(csrf, sizeof csrf, "%s", it_jstr(o, "csrf"));
				snprintf(move, sizeof move, "%s",
					 it_jstr(json_array_get(moves, 0), "move"));
				assert_int_equal(it_move(users[u], tables[t], csrf,
							 it_jint(o, "version", -1), move), 303);
				moved = 1;
			}
			json_decref(o);
		}
	}
	for (int u = 1; u < USERS; u++)
		h_client_free(users[u]);
	if (playing > 0 && !moved)
		fail_msg("%d tables still play, but the restarted program offers no move", playing);
	h_client_free(c);
	stop_app(app);
	fprintf(stderr, "crash: the restarted program serves every table%s\n",
		moved ? " and took a move" : " (all matches had ended)");
}

/* One test: the crash run. */
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crash),
	};
	return cmocka_run_group_tests(tests, start, stop);
}
