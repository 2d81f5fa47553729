/*
 * test_trust.c — what a visitor, a crowd behind one address or a second
 * server must not be able to break (docs/reliability.md), through nginx:
 *   - no transaction outlives its request: every route of the route table
 *     (cgi/route.c), with good, unknown and malformed ids, tokens and names,
 *     as a visitor, a player and an outsider, with an empty form, with
 *     each of a list of garbage fields and with each of the site's forms,
 *     answers below 500; the app runs with SPIELTISCH_DEBUG=1, so a request
 *     that left a transaction open would abort its worker (a 502) and log
 *     "left a transaction open";
 *   - an unknown unsubscribe token (POST /mail/off/…) is a 404 and every
 *     write after it still works;
 *   - correct logins from one address never count as failures, and others'
 *     failures there do not lock out a name that logged in there before;
 *   - the last person leaving a table lands on the lobby, and the table's
 *     number is never given out again;
 *   - a writer that finds the writer lock taken by another process gets a
 *     503 after the bound, not an endless wait;
 *   - a second server on the socket of a running one refuses to start and
 *     leaves the first one serving;
 *   - one account organises at most TOURNEY_OPEN_PER_USER tournaments at
 *     a time.
 * The app runs with mail on (SPIELTISCH_MAIL=1), so that the mail routes
 * do their work.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <cmocka.h>

#include "integration/suite.h"
#include "route.h"
#include "tourney.h"

static const char unknown_token[] = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

static int start(void **state)
{
	(void)state;
	setenv("SPIELTISCH_MAIL", "1", 1);
	return h_start();
}

static int stop(void **state)
{
	(void)state;
	h_stop();
	return 0;
}

/* How often the app's log says `needle` (-1: no log). */
static int log_count(const char *needle)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/app.log", h_dir());
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char line[4096];
	int n = 0;
	while (fgets(line, sizeof line, f))
		n += strstr(line, needle) != NULL;
	fclose(f);
	return n;
}

/* The one number `sql` reads from the app's database (-1: none). */
static long long db_int(const char *sql)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *q = NULL;
	long long v = -1;
	if (sqlite3_open_v2(h_db_path(), &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, sql, -1, &q, NULL) == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW)
		v = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	sqlite3_close(db);
	return v;
}

/* A write of client c (its mail settings saved: no mail); the status. */
static long mail_write(struct h_client *c)
{
	char csrf[128];
	struct h_resp r;
	if (it_csrf(c, "/me", csrf, sizeof csrf) != 0)
		return -1;
	if (h_post_form(c, "/me/mail", &r, "csrf", csrf, "address", "", "mode", "none", NULL) != 0)
		return -1;
	long st = r.status;
	h_resp_free(&r);
	return st;
}

/* ---- one anonymous request must not stop a worker's writes ---- */

static void test_mail_off_unknown_token(void **state)
{
	(void)state;
	struct h_client *anna = it_register("trust_anna");
	assert_non_null(anna);
	char csrf[128], path[96];
	snprintf(path, sizeof path, "/mail/off/%s", unknown_token);
	/* a visitor: the pre-session cookie of the login form, then the POST,
	 * several times, so that both workers serve one */
	for (int i = 0; i < 6; i++) {
		struct h_client *v = h_client_new();
		struct h_resp r;
		assert_int_equal(it_csrf(v, "/login", csrf, sizeof csrf), 0);
		assert_int_equal(h_post_form(v, path, &r, "csrf", csrf, NULL), 0);
		assert_int_equal(r.status, 404);
		h_resp_free(&r);
		h_client_free(v);
	}
	/* every write after it still works, whichever worker serves it */
	for (int i = 0; i < 12; i++)
		assert_int_equal(mail_write(anna), 303);
	assert_int_equal(log_count("left a transaction open"), 0);
	h_client_free(anna);
}

/* ---- correct logins are no failures ---- */

/* it_src_login, once more while nginx's own rate limit (2 logins a second
 * per address beyond a burst) refuses it: an app's 429 says "Fehlversuche",
 * nginx's does not. At most 10 s. */
static long src_login_paced(const char *src, const char *tok, const char *name, const char *pw,
			    char *out, size_t cap)
{
	long st = 0;
	for (int i = 0; i < 100; i++) {
		st = it_src_login(src, tok, name, pw, out, cap);
		if (st != 429 || strstr(out, "Fehlversuche"))
			break;
		poll(NULL, 0, 100);
	}
	return st;
}

/* A school behind one address: AUTH_ADDR_FREE + 1 correct logins in a row
 * (as many as nginx lets through at once) all succeed, a brand-new
 * account's last, and the address has no failure on record afterwards.
 * They counted as failures: the last was a 429 ("Zu viele Fehlversuche").
 * Then the class mistypes AUTH_ADDR_FREE times: a name that logged in from
 * there before still gets in; one never seen there waits (a 429). */
static void test_correct_logins_never_count(void **state)
{
	(void)state;
	static char out[65536];
	struct h_client *c = it_register("trust_pupil");
	assert_non_null(c);
	h_client_free(c);
	const char *school = "127.0.0.21";
	char tok[64];
	assert_int_equal(it_presession(school, tok, sizeof tok), 0);
	for (int i = 0; i < AUTH_ADDR_FREE; i++) {
		long st = it_src_login(school, tok, "trust_pupil", it_password, out, sizeof out);
		if (st != 303)
			fprintf(stderr, "login %d: %ld\n", i + 1, st);
		assert_int_equal(st, 303);
	}
	c = it_register("trust_newbie");
	assert_non_null(c);
	h_client_free(c);
	assert_int_equal(it_src_login(school, tok, "trust_newbie", it_password, out, sizeof out),
			 303);
	assert_int_equal(db_int("SELECT count(*) FROM login_failures WHERE name_key LIKE "
				"'%127.0.0.21%'"), 0);
	c = it_register("trust_stranger");
	assert_non_null(c);
	h_client_free(c);
	for (int i = 0; i < AUTH_ADDR_FREE; i++) {
		char name[32];
		snprintf(name, sizeof name, "tippfehler%d", i);
		assert_int_equal(src_login_paced(school, tok, name, "falsch123", out, sizeof out),
				 422);
	}
	assert_int_equal(src_login_paced(school, tok, "trust_pupil", it_password, out, sizeof out),
			 303);
	assert_int_equal(src_login_paced(school, tok, "trust_stranger", it_password, out,
					 sizeof out), 429);
	assert_non_null(strstr(out, "Fehlversuche"));
}

/* ---- the last person leaving ---- */

static void test_last_leave_and_table_numbers(void **state)
{
	(void)state;
	struct h_client *c = it_register("trust_leaver");
	assert_non_null(c);
	int64_t first = it_create_table(c, "drehwurm", 4, NULL);
	assert_true(first > 0);
	char loc[128];
	assert_int_equal(it_post_table(c, first, "/leave", NULL, NULL, loc, sizeof loc), 303);
	assert_string_equal(loc, "/");
	char path[64];
	struct h_resp r;
	snprintf(path, sizeof path, "/t/%lld", (long long)first);
	assert_int_equal(h_get(c, path, &r), 0);
	assert_int_equal(r.status, 404);
	h_resp_free(&r);
	/* the number is not given out again: not to the next table, nor later */
	for (int i = 0; i < 3; i++) {
		int64_t next = it_create_table(c, "dna", 2, NULL);
		assert_true(next > first);
		assert_int_equal(it_post_table(c, next, "/leave", NULL, NULL, loc, sizeof loc), 303);
		assert_string_equal(loc, "/");
		first = next;
	}
	h_client_free(c);
}

/* ---- the writer lock ---- */

/* Another process (this test) holds the writer lock file: a write waits
 * for it at most 5 s, then answers 503 "try again"; once the lock is free,
 * writes work again. The write waited as long as the lock was held (here:
 * until the client's own timeout). */
static void test_writer_lock_bounded(void **state)
{
	(void)state;
	struct h_client *c = it_register("trust_writer");
	assert_non_null(c);
	char csrf[128], lock[4200];
	assert_int_equal(it_csrf(c, "/me", csrf, sizeof csrf), 0);
	snprintf(lock, sizeof lock, "%s-writer", h_db_path());
	int fd = open(lock, O_RDWR | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(flock(fd, LOCK_EX), 0);
	struct h_resp r;
	assert_int_equal(h_post_form(c, "/me/mail", &r, "csrf", csrf, "address", "", "mode", "none",
				     NULL), 0);
	long st = r.status;
	double took = r.seconds;
	flock(fd, LOCK_UN);
	close(fd);
	assert_int_equal(st, 503);
	assert_true(took >= 4.5 && took < 15);
	assert_true(h_has(&r, "versuche es gleich noch einmal"));
	h_resp_free(&r);
	assert_int_equal(mail_write(c), 303);
	h_client_free(c);
}

/* ---- a second server ---- */

/* `spieltisch serve` on the running server's socket (its own database):
 * it exits 1 at once, saying why, and the first one keeps answering. It
 * used to unlink the socket and take it over (the first one's nginx
 * answered 502 from then on). */
static void test_second_server_refuses(void **state)
{
	(void)state;
	char bin[4200], sock[4200], db[4200], err[4200];
	snprintf(bin, sizeof bin, "%s/build/spieltisch", h_root());
	if (getenv("SPIELTISCH_BIN") && *getenv("SPIELTISCH_BIN"))
		snprintf(bin, sizeof bin, "%s", getenv("SPIELTISCH_BIN"));
	snprintf(sock, sizeof sock, "%s/spieltisch.sock", h_dir());
	snprintf(db, sizeof db, "%s/second.db", h_dir());
	snprintf(err, sizeof err, "%s/second.log", h_dir());
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execl(bin, bin, "serve", "--socket", sock, "--workers", "1", "--db", db, "--root",
		      h_root(), (char *)NULL);
		_exit(127);
	}
	int status = 0;
	pid_t got = 0;
	double end = it_now() + 15;
	while ((got = waitpid(pid, &status, WNOHANG)) == 0 && it_now() < end)
		poll(NULL, 0, 20);
	if (got == 0) {   /* it kept running: stop it (it is ours) */
		kill(pid, SIGTERM);
		waitpid(pid, &status, 0);
	}
	assert_int_equal(got, pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 1);
	FILE *f = fopen(err, "r");
	assert_non_null(f);
	char text[4096];
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = '\0';
	assert_non_null(strstr(text, "another server is running"));
	struct h_client *v = h_client_new();
	struct h_resp r;
	assert_int_equal(h_get(v, "/", &r), 0);
	assert_int_equal(r.status, 200);
	h_resp_free(&r);
	h_client_free(v);
}

/* ---- tournaments per organiser ---- */

static void test_tournaments_per_organiser(void **state)
{
	(void)state;
	struct h_client *c = it_register("trust_orga");
	struct h_client *other = it_register("trust_orga2");
	assert_non_null(c);
	assert_non_null(other);
	for (int i = 0; i < TOURNEY_OPEN_PER_USER; i++) {
		char name[32];
		snprintf(name, sizeof name, "Cup %d", i + 1);
		assert_true(it_create_swiss(c, name) > 0);
	}
	char csrf[128];
	struct h_resp r;
	assert_int_equal(it_csrf(c, "/tournaments/new?game=drehwurm", csrf, sizeof csrf), 0);
	assert_int_equal(h_post_form(c, "/tournaments", &r, "csrf", csrf, "game", "drehwurm",
				     "name", "Noch einer", "format", "swiss", "seats", "4",
				     "min_seats", "3", "rounds", "3", "start_minutes", "60",
				     "speed", "live", NULL), 0);
	assert_int_equal(r.status, 422);
	assert_true(h_has(&r, "Du organisierst schon so viele Turniere"));
	h_resp_free(&r);
	assert_int_equal(db_int("SELECT count(*) FROM tournaments WHERE name = 'Noch einer'"), 0);
	/* somebody else still can */
	assert_true(it_create_swiss(other, "Anderer Cup") > 0);
	h_client_free(c);
	h_client_free(other);
}

/* ---- every route ---- */

enum { WALK_PATHS = 8 };

/* The paths that pattern stands for: '#' as a good id (a table's or a
 * tournament's), an unknown one and malformed ones; '$' as a good mail
 * token (for /mail/off), an unknown and a malformed one; '@' as a known,
 * an unknown and a malformed name. Into out[]; how many. */
static int walk_paths(const char *pattern, int64_t table, int64_t tourney, const char *mail_tok,
		      char out[WALK_PATHS][160])
{
	const char *ids[4], *toks[3], *names[3];
	char good_id[24];
	snprintf(good_id, sizeof good_id, "%lld",
		 (long long)(strncmp(pattern, "/tournaments", 12) == 0 ? tourney : table));
	ids[0] = good_id;
	ids[1] = "999999999";
	ids[2] = "999999999999999999";
	ids[3] = "0";
	toks[0] = strncmp(pattern, "/mail/off/", 10) == 0 ? mail_tok : unknown_token;
	toks[1] = unknown_token;
	toks[2] = "AAAA";
	names[0] = "trust_walker";
	names[1] = "niemand_hier";
	names[2] = "%C3";
	int n = 0;
	for (int k = 0; k < 4 && n < WALK_PATHS; k++) {
		char *o = out[n];
		size_t len = 0;
		int used = 0;
		for (const char *c = pattern; *c && len + 64 < 160; c++) {
			const char *sub = NULL;
			if (*c == '#')
				sub = ids[k];
			else if (*c == '$')
				sub = k < 3 ? toks[k] : NULL;
			else if (*c == '@')
				sub = k < 3 ? names[k] : NULL;
			if (*c == '#' || *c == '$' || *c == '@') {
				used = 1;
				if (!sub)
					break;
				len += (size_t)snprintf(o + len, 160 - len, "%s", sub);
			} else
				o[len++] = *c;
			o[len] = '\0';
		}
		if (!used && k > 0)
			break;   /* a fixed path: once */
		if (used && k == 3 && !strchr(pattern, '#'))
			break;
		n++;
	}
	return n;
}

/* The garbage fields a POST of the walk sends, one at a time: the names
 * the forms use, with values no form accepts (and one no form knows). */
static const char *const garbage[][2] = {
	{ "v", "abc" }, { "v", "-1" }, { "move", "%%%" }, { "move", "" }, { "seat", "99" },
	{ "act", "expel" }, { "act", "zz" }, { "name", "<x>" }, { "level", "zz" },
	{ "text", "" }, { "mode", "zz" }, { "address", "x@" }, { "game", "nope" },
	{ "lang", "xx" }, { "format", "zz" }, { "frage", "42" },
};
enum { GARBAGE = (int)(sizeof garbage / sizeof garbage[0]) };

/* Forms a POST of the walk also sends whole: the fields of the site's
 * forms, well-formed, so that the handlers get past their validation (a
 * route with other fields answers 400). They may change things: bots
 * fill the table, which then starts, a move is tried on it, and so on. */
static const char *const forms[][16] = {
	{ "game", "drehwurm", "seats", "4" },
	{ "game", "dna", "seats", "99" },
	{ "name", "trust_walker", "password", "geheim123", "password2", "geheim123" },
	{ "name", "trust_walker", "password", "falsch123" },
	{ "level", "random" },
	{ "level", "greedy" },
	{ "act", "autopass_on" },
	{ "act", "back" },
	{ "act", "resign" },
	{ "act", "bot" },
	{ "act", "expel", "seat", "1" },
	{ "act", "claim", "seat", "0" },
	{ "name", "trust_outsider" },
	{ "name", "niemand_hier" },
	{ "v", "1", "move", "zz" },
	{ "v", "999999", "move", "pass" },
	{ "text", "Hallo" },
	{ "mute", "trust_mate" },
	{ "unmute", "trust_mate" },
	{ "address", "walker@example.org", "mode", "digest" },
	{ "lang", "en", "back", "/" },
	{ "lang", "de", "back", "//example.org/" },
	{ "game", "drehwurm", "name", "Rundgang 2", "format", "swiss", "seats", "4", "min_seats",
	  "3", "rounds", "3", "start_minutes", "60", "speed", "live" },
	{ "game", "drehwurm", "name", "K.O.", "format", "elimination", "seats", "4", "rounds",
	  "2", "advance", "9", "start_minutes", "0" },
};
enum { FORMS = (int)(sizeof forms / sizeof forms[0]) };

static int walked;      /* requests the walk sent */
static int by_class[6]; /* their answers by the status's first digit */

/* One request of the walk: a GET, or a POST with only csrf (g < 0), with
 * garbage field g (g < GARBAGE) or with form g - GARBAGE; fails the test
 * on an answer of 500 or more. */
static void walk_one(struct h_client *c, const char *who, enum http_method m, const char *path,
		     const char *csrf, int g)
{
	const char *kv[16] = { NULL };
	struct h_resp r;
	int rc;
	walked++;
	if (g >= 0 && g < GARBAGE) {
		kv[0] = garbage[g][0];
		kv[1] = garbage[g][1];
	} else if (g >= GARBAGE)
		memcpy(kv, forms[g - GARBAGE], sizeof kv);
	if (m == HTTP_GET)
		rc = h_get(c, path, &r);
	else
		rc = h_post_form(c, path, &r, "csrf", csrf, kv[0], kv[1], kv[2], kv[3], kv[4],
				 kv[5], kv[6], kv[7], kv[8], kv[9], kv[10], kv[11], kv[12], kv[13],
				 kv[14], kv[15], NULL);
	if (rc != 0 || r.status >= 500) {
		fprintf(stderr, "walk: %s %s %s %s=%s %s=%s: %ld\n", who,
			m == HTTP_GET ? "GET" : "POST", path, kv[0] ? kv[0] : "",
			kv[1] ? kv[1] : "", kv[2] ? kv[2] : "", kv[3] ? kv[3] : "", r.status);
		h_dump_logs();
	}
	assert_int_equal(rc, 0);
	assert_true(r.status > 0 && r.status < 500);
	by_class[r.status / 100]++;
	h_resp_free(&r);
}

/* Every route with each of its paths, by each client; POSTs with an empty
 * form, with each garbage field and with each of the forms. /logout last
 * (it ends the session). */
static void walk_all(struct h_client **who, const char *const *names, int nwho, int64_t table,
		     int64_t tourney, const char *mail_tok)
{
	char paths[WALK_PATHS][160];
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < route_count(); i++) {
			enum http_method m;
			const char *pattern = route_pattern(i, &m);
			if ((strcmp(pattern, "/logout") == 0) != (pass == 1))
				continue;
			int n = walk_paths(pattern, table, tourney, mail_tok, paths);
			for (int w = 0; w < nwho; w++) {
				char csrf[128];
				/* a visitor's: the login form's; a user's: the lobby's */
				assert_true(it_csrf(who[w], "/login", csrf, sizeof csrf) == 0 ||
					    it_csrf(who[w], "/", csrf, sizeof csrf) == 0);
				for (int k = 0; k < n; k++) {
					walk_one(who[w], names[w], m, paths[k], csrf, -1);
					for (int g = 0; m == HTTP_POST && g < GARBAGE + FORMS; g++)
						walk_one(who[w], names[w], m, paths[k], csrf, g);
				}
			}
		}
}

static void test_every_route_leaves_no_transaction(void **state)
{
	(void)state;
	struct h_client *walker = it_register("trust_walker");
	struct h_client *mate = it_register("trust_mate");
	struct h_client *outsider = it_register("trust_outsider");
	struct h_client *visitor = h_client_new();
	assert_non_null(walker);
	assert_non_null(mate);
	assert_non_null(outsider);
	int64_t table = it_create_table(walker, "drehwurm", 4, NULL);
	assert_true(table > 0);
	assert_int_equal(it_join(mate, table), 0);
	int64_t tourney = it_create_swiss(walker, "Rundgang");
	assert_true(tourney > 0);
	/* a real unsubscribe token: the walker's mail settings */
	char csrf[128];
	struct h_resp r;
	assert_int_equal(it_csrf(walker, "/me", csrf, sizeof csrf), 0);
	assert_int_equal(h_post_form(walker, "/me/mail", &r, "csrf", csrf, "address",
				     "walker@example.org", "mode", "turn", NULL), 0);
	assert_int_equal(r.status, 303);
	h_resp_free(&r);
	char mail_tok[64] = "";
	{
		sqlite3 *db = NULL;
		sqlite3_stmt *q = NULL;
		if (sqlite3_open_v2(h_db_path(), &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
		    sqlite3_prepare_v2(db, "SELECT token FROM mail_prefs", -1, &q, NULL) == SQLITE_OK &&
		    sqlite3_step(q) == SQLITE_ROW)
			snprintf(mail_tok, sizeof mail_tok, "%s", sqlite3_column_text(q, 0));
		sqlite3_finalize(q);
		sqlite3_close(db);
	}
	assert_int_equal(strlen(mail_tok), AUTH_TOKEN_LEN);
	struct h_client *who[] = { visitor, outsider, walker };
	const char *const names[] = { "visitor", "outsider", "walker" };
	double t0 = it_now();
	walk_all(who, names, 3, table, tourney, mail_tok);
	fprintf(stderr, "trust: walked %d routes with %d requests in %.1f s: %d 2xx, %d 3xx, "
		"%d 4xx\n", route_count(), walked, it_now() - t0, by_class[2], by_class[3],
		by_class[4]);
	/* and afterwards every write still works (the mate, who did not walk:
	 * the walk's logins used up nginx's login burst of this address) */
	for (int i = 0; i < 8; i++)
		assert_int_equal(mail_write(mate), 303);
	assert_int_equal(log_count("left a transaction open"), 0);
	h_client_free(walker);
	h_client_free(mate);
	h_client_free(outsider);
	h_client_free(visitor);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mail_off_unknown_token),
		cmocka_unit_test(test_correct_logins_never_count),
		cmocka_unit_test(test_last_leave_and_table_numbers),
		cmocka_unit_test(test_writer_lock_bounded),
		cmocka_unit_test(test_second_server_refuses),
		cmocka_unit_test(test_tournaments_per_organiser),
		cmocka_unit_test(test_every_route_leaves_no_transaction),
	};
	/* TRUST_ONLY=test_name runs that test alone (each on a fresh server) */
	if (getenv("TRUST_ONLY") && *getenv("TRUST_ONLY"))
		cmocka_set_test_filter(getenv("TRUST_ONLY"));
	return cmocka_run_group_tests(tests, start, stop);
}
