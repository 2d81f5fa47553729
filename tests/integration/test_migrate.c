/*
 * test_migrate.c — `spieltisch migrate --from FILE.db --to postgresql://…`
 * (issue 36; docs/scaling.md) moves a site that was played on SQLite.
 *
 * Through nginx, on the harness' SQLite app: players register, play a
 * Drachenrummy party to its end (ratings follow), leave a second table in
 * the middle of its party, chat, save mail settings, open a tournament
 * and register for it. Then a throw-away PostgreSQL cluster
 * (tests/pg/cluster.sh) gets the site with `spieltisch migrate`, which
 * must say every table's count is equal and every party replays. The app
 * is then started again on the same socket with `--db postgresql://…`:
 * the same clients (their sessions moved too) must get the same JSON
 * twins, exports, profile and tournament pages byte for byte, the running
 * table must take its next move, and a new player must register (the ids
 * go on after the copied ones). A second migrate into the same database
 * is refused and changes nothing.
 * Skipped (with a message) when no cluster can start (no initdb).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "integration/suite.h"

enum { PAGES = 12, STEPS_MAX = 3000 };

static char pgdir[600], uri[1024];
static pid_t restarted;

static void stop_cluster(void)
{
	char cmd[2048];
	if (restarted > 0) {
		kill(-restarted, SIGTERM);
		waitpid(restarted, NULL, 0);
		restarted = 0;
	}
	if (!uri[0])
		return;
	snprintf(cmd, sizeof cmd, "sh '%s/tests/pg/cluster.sh' stop '%s' >/dev/null 2>&1",
		 h_root(), pgdir);
	if (system(cmd) != 0)
		fprintf(stderr, "test_migrate: cluster.sh stop failed\n");
	uri[0] = '\0';
}

static int setup(void **state)
{
	(void)state;
	setenv("SPIELTISCH_MAIL", "1", 1);   /* the mail settings (test_mail_web) */
	return h_start();
}

static int teardown(void **state)
{
	(void)state;
	stop_cluster();
	h_stop();
	return 0;
}

/* A throw-away cluster's URI into uri; 0, or -1 (no PostgreSQL here). */
static int start_cluster(void)
{
	char cmd[2048];
	snprintf(pgdir, sizeof pgdir, "%s/pg", h_dir());
	snprintf(cmd, sizeof cmd, "sh '%s/tests/pg/cluster.sh' start '%s' 2>'%s/pg.err'",
		 h_root(), pgdir, h_dir());
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	if (!fgets(uri, sizeof uri, p))
		uri[0] = '\0';
	int rc = pclose(p);
	uri[strcspn(uri, "\n")] = '\0';
	if (rc != 0 || strncmp(uri, "postgresql:", 11) != 0) {
		uri[0] = '\0';
		return -1;
	}
	return 0;
}

/* Runs `spieltisch migrate` into the cluster: its exit status, its
 * output in out. */
static int run_migrate(char *out, size_t cap)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "'%s/build/spieltisch' migrate --from '%s' --to '%s' --root '%s'"
		 " 2>&1", h_root(), h_db_path(), uri, h_root());
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	size_t n = fread(out, 1, cap - 1, p);
	out[n] = '\0';
	int rc = pclose(p);
	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* Stops the harness' SQLite app and starts it again on the same socket,
 * on PostgreSQL; waits (bounded) until nginx reaches it. */
static void switch_to_postgres(void)
{
	pid_t kids[16];
	int n = it_children_of(getpid(), kids, 16);
	for (int i = 0; i < n; i++)
		if (it_is_serve(kids[i])) {
			kill(-kids[i], SIGTERM);
			waitpid(kids[i], NULL, 0);
		}
	char bin[700], sock[700], log[700];
	snprintf(bin, sizeof bin, "%s/build/spieltisch", h_root());
	snprintf(sock, sizeof sock, "%s/spieltisch.sock", h_dir());
	snprintf(log, sizeof log, "%s/app-pg.log", h_dir());
	char *argv[] = { bin, "serve", "--socket", sock, "--workers", "2", "--db", uri, "--root",
			 (char *)h_root(), NULL };
	restarted = h_spawn(argv, log);
	assert_true(restarted > 0);
	struct h_client *c = h_client_new();
	double end = it_now() + 60;
	long st = 0;
	while (it_now() < end) {
		struct h_resp r;
		h_get(c, "/", &r);
		st = r.status;
		h_resp_free(&r);
		if (st == 200)
			break;
		assert_int_equal(waitpid(restarted, NULL, WNOHANG), 0);
		struct timespec ts = { 0, 20 * 1000000L };
		nanosleep(&ts, NULL);
	}
	h_client_free(c);
	assert_int_equal(st, 200);
}

struct page {
	struct h_client *c;
	char path[96];
	char *body;
};

static void fetch(struct page *p)
{
	struct h_resp r;
	assert_int_equal(h_get(p->c, p->path, &r), 0);
	if (r.status != 200)
		fail_msg("%s: status %ld", p->path, r.status);
	p->body = strdup(r.body);
	h_resp_free(&r);
}

static void play_to_end(struct h_client **who, int64_t id)
{
	uint64_t rnd = 12345;
	int done = 0;
	for (int i = 0; i < STEPS_MAX && !done; i++) {
		int r = it_one_move(who, 2, id, &rnd);
		assert_true(r != -2);
		done = r == -1;
	}
	assert_true(done);
}

/* The site on SQLite: a finished table (its id in *done), a running one
 * (*open), chat, mail settings, a tournament with a player (*tpath). */
static void play_site(struct h_client **c, int64_t *done_id, int64_t *open_id, uint64_t *rnd,
		      char *tpath, size_t tcap)
{
	c[0] = it_register("Mira");
	c[1] = it_register("Theo");
	assert_non_null(c[0]);
	assert_non_null(c[1]);
	int64_t done = it_create_table(c[0], "drachenrummy", 2, "parties", "1", NULL);
	assert_true(done > 0);
	assert_int_equal(it_join(c[1], done), 0);
	play_to_end(c, done);
	int64_t open = it_create_table(c[1], "drachenrummy", 2, "parties", "1", NULL);
	assert_true(open > 0);
	assert_int_equal(it_join(c[0], open), 0);
	for (int i = 0; i < 6; i++)
		assert_int_equal(it_one_move(c, 2, open, rnd), 1);
	assert_int_equal(it_post_table(c[0], open, "/chat", "text", "Gut gespielt!", NULL, 0), 303);
	char csrf[128];
	struct h_resp r;
	assert_int_equal(it_csrf(c[0], "/me", csrf, sizeof csrf), 0);
	assert_int_equal(h_post_form(c[0], "/me/mail", &r, "csrf", csrf, "address",
				     "mira@example.org", "mode", "turn", NULL), 0);
	assert_int_equal(r.status, 303);
	h_resp_free(&r);
	int64_t tour = it_create_swiss(c[0], "Herbstpokal");
	assert_true(tour > 0);
	snprintf(tpath, tcap, "/tournaments/%lld", (long long)tour);
	char reg[96];
	snprintf(reg, sizeof reg, "%s/register", tpath);
	assert_int_equal(it_csrf(c[1], tpath, csrf, sizeof csrf), 0);
	assert_int_equal(h_post_form(c[1], reg, &r, "csrf", csrf, NULL), 0);
	assert_int_equal(r.status, 303);
	h_resp_free(&r);
	*done_id = done;
	*open_id = open;
}

static void migrate_site(void **state)
{
	(void)state;
	struct h_client *c[2];
	int64_t done, open;
	uint64_t rnd = 7;
	char tpath[64];
	play_site(c, &done, &open, &rnd, tpath, sizeof tpath);

	struct page pages[PAGES];
	int np = 0;
	for (int s = 0; s < 2; s++) {
		pages[np] = (struct page){ .c = c[s] };
		snprintf(pages[np++].path, sizeof pages[0].path, "/t/%lld.json", (long long)done);
		pages[np] = (struct page){ .c = c[s] };
		snprintf(pages[np++].path, sizeof pages[0].path, "/t/%lld.json", (long long)open);
	}
	pages[np] = (struct page){ .c = c[1] };
	snprintf(pages[np++].path, sizeof pages[0].path, "/t/%lld/replay.txt?party=1",
		 (long long)done);
	pages[np] = (struct page){ .c = c[0] };
	snprintf(pages[np++].path, sizeof pages[0].path, "/u/Theo");
	pages[np] = (struct page){ .c = c[1] };
	snprintf(pages[np++].path, sizeof pages[0].path, "%s.json", tpath);
	for (int i = 0; i < np; i++)
		fetch(&pages[i]);

	if (start_cluster() != 0) {
		print_message("test_migrate: skipped: no PostgreSQL cluster could start\n");
		for (int i = 0; i < np; i++)
			free(pages[i].body);
		h_client_free(c[0]);
		h_client_free(c[1]);
		skip();
	}
	char out[8192];
	int rc = run_migrate(out, sizeof out);
	fputs(out, stdout);   /* print_message cuts long text */
	fflush(stdout);
	if (rc != 0)
		fail_msg("spieltisch migrate exits %d", rc);
	static const char *const want[] = { "users", "tables", "parties", "moves", "chat_messages",
					    "mail_prefs", "ratings", "tournaments",
					    "tournament_players" };
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		const char *l = strstr(out, want[i]);
		assert_non_null(l);
		long long a = 0, b = 0;
		assert_int_equal(sscanf(l + strlen(want[i]), " %lld rows, %lld", &a, &b), 2);
		assert_true(a > 0);
		assert_true(a == b);
	}
	assert_non_null(strstr(out, "replayed: 2 parties of 2 tables"));

	switch_to_postgres();
	for (int i = 0; i < np; i++) {
		struct page now = pages[i];
		fetch(&now);
		if (strcmp(now.body, pages[i].body) != 0)
			fail_msg("%s differs on PostgreSQL:\n%s\n---- on SQLite:\n%s", pages[i].path,
				 now.body, pages[i].body);
		free(now.body);
		free(pages[i].body);
	}
	assert_int_equal(it_one_move(c, 2, open, &rnd), 1);
	struct h_client *n = it_register("Neu");
	assert_non_null(n);
	assert_true(it_create_table(n, "drachenrummy", 2, NULL) > open);
	/* a second migrate finds the site there and changes nothing */
	assert_int_equal(run_migrate(out, sizeof out), 2);
	assert_non_null(strstr(out, "holds users or tables already"));
	struct h_resp again;
	assert_int_equal(h_get(n, "/", &again), 0);
	assert_int_equal(again.status, 200);
	h_resp_free(&again);
	h_client_free(n);
	h_client_free(c[0]);
	h_client_free(c[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(migrate_site),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
