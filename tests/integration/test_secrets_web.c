/*
 * test_secrets_web.c — secrets stay secret and moves made at the same
 * moment all count, through real nginx (docs/rulings.md, "Every game:
 * what is public when"; docs/storage.md, "One move"):
 *   - Drehwurm and Worst Game Ever: one seat passes in a window open to
 *     several; every other seat's and a spectator's JSON twin and HTML page
 *     (bytes, so length, and headers but the date), their "Meine Tische"
 *     and Atom feed are what they were, and the table's and /me's polls
 *     still answer 204 (no reload): the full version, which counts the
 *     pass, is nobody's but the mover's;
 *   - Wurf & Wort: a vote is secret (another voter's page does not change),
 *     and six more voters posting at the same moment from pages of the
 *     same version are all counted; a pass does not make another seat's
 *     "Stopp" stale; the loser of a "Stopp" race is told who won;
 *   - Drehwurm: a move from a page shown during a snap window, sent after
 *     its deadline closed it with no snap, counts (the deadline changed
 *     nothing it means);
 *   - Worst Game Ever: the standing choice `react`, changed twice from one
 *     page, is taken both times (not "Doppelt gesendet");
 *   - Drehwurm: the loser of two snaps at the same moment is told who
 *     snapped.
 * Bounded by STEPS_MAX moves and WAIT_SECONDS per wait.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <cmocka.h>

#include "integration/suite.h"

enum { PLAYERS_MAX = 8, STEPS_MAX = 400, WAIT_SECONDS = 20 };

static struct h_client *pl[PLAYERS_MAX], *watcher;
static int registered;

static int start(void **state)
{
	(void)state;
	return h_start();
}

static int stop(void **state)
{
	(void)state;
	for (int i = 0; i < PLAYERS_MAX; i++)
		h_client_free(pl[i]);
	h_client_free(watcher);
	h_stop();
	return 0;
}

/* Registers the people once: pl[0..PLAYERS_MAX-1] and a spectator. */
static void people(void)
{
	static const char *const names[PLAYERS_MAX] = { "Anna", "Bert", "Cleo", "Dirk",
							"Edda", "Finn", "Gesa", "Hugo" };
	if (registered)
		return;
	for (int i = 0; i < PLAYERS_MAX; i++)
		assert_non_null(pl[i] = it_register(names[i]));
	assert_non_null(watcher = it_register("Zoe"));
	registered = 1;
}

/* A table of slug for the first n people, options as key, value pairs. */
static int64_t table_for(const char *slug, int n, const char *k1, const char *v1,
			 const char *k2, const char *v2)
{
	int64_t id = it_create_table(pl[0], slug, n, k1, v1, k2, v2, NULL);
	assert_true(id > 0);
	for (int i = 1; i < n; i++)
		assert_int_equal(it_join(pl[i], id), 0);
	return id;
}

static json_t *twin(struct h_client *c, int64_t id)
{
	long st;
	json_t *o = it_table_json(c, id, &st);
	assert_non_null(o);
	return o;
}

/* 1 when the seat's move list of o has `move` (a prefix when prefix). */
static int has_move(json_t *o, const char *move, int prefix)
{
	json_t *mv = json_object_get(o, "moves");
	for (size_t i = 0; i < json_array_size(mv); i++) {
		const char *m = it_jstr(json_array_get(mv, i), "move");
		if (prefix ? strncmp(m, move, strlen(move)) == 0 : strcmp(m, move) == 0)
			return 1;
	}
	return 0;
}

/* The body of GET path as c sees it (malloc'd), its status into *st; its
 * header lines but the date into *head (malloc'd) when head is given. */
static char *fetch(struct h_client *c, const char *path, long *st, char **head)
{
	struct h_resp r;
	int rc = h_get(c, path, &r);
	*st = r.status;
	char *b = rc == 0 && r.body ? strdup(r.body) : NULL;
	if (head) {
		const char *h = r.headers ? r.headers : "";
		char *out = malloc(strlen(h) + 1), *o = out;
		assert_non_null(out);
		for (const char *line = h; *line;) {
			size_t n = strcspn(line, "\n");
			if (strncasecmp(line, "Date:", 5) != 0) {
				memcpy(o, line, n);
				o += n;
				*o++ = '\n';
			}
			line += n + (line[n] == '\n');
		}
		*o = '\0';
		*head = out;
	}
	h_resp_free(&r);
	return b;
}

static char *body_of(struct h_client *c, const char *path, long *st)
{
	return fetch(c, path, st, NULL);
}

/* Everything a viewer can fetch about table id: its JSON twin, its HTML
 * page, the poll's answer for the version the page polls with; and of
 * their own: "Meine Tische", its poll's answer, their Atom feed. */
struct seen {
	char *json, *html, *me, *feed, *json_head, *html_head;
	long poll, me_poll;
};

/* The poll of a page (path: its poll URL without ?v) for its data-version. */
static long poll_of(struct h_client *c, const char *html, const char *path)
{
	const char *dv = strstr(html, "data-version=\"");
	assert_non_null(dv);
	char url[128];
	long st;
	snprintf(url, sizeof url, "%s?v=%lld", path, strtoll(dv + 14, NULL, 10));
	free(body_of(c, url, &st));
	return st;
}

static void look(struct h_client *c, int64_t id, struct seen *s)
{
	char path[96];
	long st;
	snprintf(path, sizeof path, "/t/%lld.json", (long long)id);
	assert_non_null(s->json = fetch(c, path, &st, &s->json_head));
	assert_int_equal(st, 200);
	snprintf(path, sizeof path, "/t/%lld", (long long)id);
	assert_non_null(s->html = fetch(c, path, &st, &s->html_head));
	assert_int_equal(st, 200);
	snprintf(path, sizeof path, "/t/%lld/poll", (long long)id);
	s->poll = poll_of(c, s->html, path);
	assert_non_null(s->me = body_of(c, "/me", &st));
	assert_int_equal(st, 200);
	s->me_poll = poll_of(c, s->me, "/me/poll");
	const char *f = strstr(s->me, "/feed/");
	assert_non_null(f);
	snprintf(path, sizeof path, "%.*s", (int)strcspn(f, "\""), f);
	assert_non_null(s->feed = body_of(c, path, &st));
	assert_int_equal(st, 200);
}

static void forget(struct seen *s)
{
	free(s->json);
	free(s->html);
	free(s->me);
	free(s->feed);
	free(s->json_head);
	free(s->html_head);
}

/* The same bytes (and length) before and after, and no reload. */
static void assert_same(const char *who, const struct seen *a, const struct seen *b)
{
	if (strcmp(a->json, b->json) != 0 && getenv("SECRETS_DUMP")) {
		FILE *f = fopen("/tmp/secrets_a.json", "w");
		fputs(a->json, f);
		fclose(f);
		f = fopen("/tmp/secrets_b.json", "w");
		fputs(b->json, f);
		fclose(f);
	}
	if (strcmp(a->json, b->json) != 0)
		fail_msg("%s: the JSON twin changed (%zu → %zu bytes)", who, strlen(a->json),
			 strlen(b->json));
	if (strcmp(a->html, b->html) != 0)
		fail_msg("%s: the page changed (%zu → %zu bytes)", who, strlen(a->html),
			 strlen(b->html));
	if (strcmp(a->json_head, b->json_head) != 0 || strcmp(a->html_head, b->html_head) != 0)
		fail_msg("%s: the headers changed:\n%s\n---\n%s", who, a->html_head, b->html_head);
	if (strcmp(a->me, b->me) != 0)
		fail_msg("%s: \"Meine Tische\" changed (%zu → %zu bytes)", who, strlen(a->me),
			 strlen(b->me));
	if (strcmp(a->feed, b->feed) != 0)
		fail_msg("%s: the feed changed (%zu → %zu bytes)", who, strlen(a->feed),
			 strlen(b->feed));
	assert_int_equal(a->poll, 204);
	assert_int_equal(b->poll, 204);
	assert_int_equal(a->me_poll, 204);
	assert_int_equal(b->me_poll, 204);
}

/* Plays legal moves (a card before anything else, a pass last) until a
 * window whose clock runs is open for at least two of the n seats; *in
 * gets them as bits. (A game's first window starts its clock at the first
 * move, publicly: that is not the step under test.) */
static void reach_window(int64_t id, int n, uint32_t *in)
{
	uint64_t rnd = 7;
	for (int step = 0; step < STEPS_MAX; step++) {
		*in = 0;
		long long deadline = 0;
		for (int i = 0; i < n; i++) {
			json_t *o = twin(pl[i], id);
			*in |= has_move(o, "pass", 0) ? 1u << i : 0;
			deadline = it_jint(o, "deadline", 0);
			json_decref(o);
		}
		if (__builtin_popcount(*in) >= 2 && deadline > 0)
			return;
		for (int i = 0; i < n; i++) {
			json_t *o = twin(pl[i], id);
			json_t *mv = json_object_get(o, "moves");
			size_t k = json_array_size(mv);
			if (!json_is_true(json_object_get(o, "can_act")) || k == 0) {
				json_decref(o);
				continue;
			}
			rnd = rnd * 6364136223846793005ULL + 1442695040888963407ULL;
			const char *m = NULL;
			for (size_t j = 0; j < k && !m; j++) {
				const char *x = it_jstr(json_array_get(mv, (j + (rnd >> 33)) % k),
							"move");
				if (strncmp(x, "play ", 5) == 0 || strncmp(x, "attack ", 7) == 0)
					m = x;
			}
			for (size_t j = 0; j < k && !m; j++) {
				const char *x = it_jstr(json_array_get(mv, j), "move");
				if (strcmp(x, "pass") != 0)
					m = x;
			}
			if (!m)
				m = it_jstr(json_array_get(mv, 0), "move");
			if (m) {
				long st = it_move(pl[i], id, it_jstr(o, "csrf"),
						  it_jint(o, "version", -1), m);
				assert_true(st == 303 || st == 409 || st == 422);
			}
			json_decref(o);
			break;
		}
	}
	fail_msg("no window for two seats within %d steps", STEPS_MAX);
}

/* One seat of a window passes: everyone else sees nothing of it. */
static void pass_is_secret(const char *slug, int n, const char *opt, const char *val)
{
	int64_t id = table_for(slug, n, opt, val, NULL, NULL);
	uint32_t in;
	reach_window(id, n, &in);
	int passer = __builtin_ctz(in);
	struct seen before[PLAYERS_MAX + 1], after[PLAYERS_MAX + 1];
	for (int i = 0; i <= n; i++)
		if (i != passer)
			look(i < n ? pl[i] : watcher, id, &before[i]);
	json_t *o = twin(pl[passer], id);
	long long v = it_jint(o, "version", -1);
	assert_int_equal(it_move(pl[passer], id, it_jstr(o, "csrf"), v, "pass"), 303);
	json_decref(o);
	o = twin(pl[passer], id);
	assert_true(it_jint(o, "version", -1) > v);   /* the mover's page knows */
	assert_false(has_move(o, "pass", 0));
	json_decref(o);
	for (int i = 0; i <= n; i++) {
		if (i == passer)
			continue;
		look(i < n ? pl[i] : watcher, id, &after[i]);
		char who[64];
		snprintf(who, sizeof who, "%s: %s after seat %d passed", slug,
			 i < n ? "another seat" : "a spectator", passer);
		assert_same(who, &before[i], &after[i]);
		forget(&before[i]);
		forget(&after[i]);
	}
	print_message("%s: seat %d passed in a window for seats %#x: %d other pages and "
		      "their polls unchanged\n", slug, passer, in, n);
}

static void test_drehwurm_pass_is_secret(void **u)
{
	(void)u;
	people();
	pass_is_secret("drehwurm", 3, "snap_seconds", "600");
}

static void test_worstgame_pass_is_secret(void **u)
{
	(void)u;
	people();
	pass_is_secret("worstgame", 3, "react_seconds", "600");
}

/* Posts a move; the status, and the answer's body into *body (malloc'd). */
static long post(struct h_client *c, int64_t id, const char *csrf, long long v, const char *move,
		 char **body)
{
	char path[64], vs[32];
	snprintf(path, sizeof path, "/t/%lld/move", (long long)id);
	snprintf(vs, sizeof vs, "%lld", v);
	struct h_resp r;
	h_post_form(c, path, &r, "csrf", csrf, "v", vs, "move", move, NULL);
	long st = r.status;
	if (body)
		*body = r.body ? strdup(r.body) : NULL;
	h_resp_free(&r);
	return st;
}

struct shot {
	int seat;
	int64_t id;
	const char *csrf, *move;
	long long v;
	pthread_barrier_t *go;
	long status;
	char *body;
};

static void *shoot(void *arg)
{
	struct shot *s = arg;
	pthread_barrier_wait(s->go);
	s->status = post(pl[s->seat], s->id, s->csrf, s->v, s->move, &s->body);
	return NULL;
}

/* The same move by seats[0..n-1] at one moment, each from its own page:
 * pre[i] when given (taken earlier), else fetched now. */
static void at_once(int64_t id, const int *seats, int n, const char *move, json_t **pre,
		    struct shot *out)
{
	pthread_barrier_t go;
	pthread_t th[PLAYERS_MAX];
	json_t *o[PLAYERS_MAX];
	pthread_barrier_init(&go, NULL, (unsigned)n);
	for (int i = 0; i < n; i++) {
		o[i] = pre ? pre[i] : twin(pl[seats[i]], id);
		out[i] = (struct shot){ seats[i], id, it_jstr(o[i], "csrf"), move,
					it_jint(o[i], "version", -1), &go, 0, NULL };
	}
	for (int i = 0; i < n; i++)
		pthread_create(&th[i], NULL, shoot, &out[i]);
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&go);
	for (int i = 0; i < n; i++)
		json_decref(o[i]);
}

/* A word with the round's required letters and not its forbidden one. */
static const char *word_for(json_t *g)
{
	static const char *const words[] = {
		"Haus", "Nebel", "Garten", "Fenster", "Tisch", "Hemd", "Blume", "Kirsche",
		"Insel", "Lampe", "Himmel", "Kerze", "Stuhl", "Teppich", "Pflaume", "Salz",
		"Wolke", "Stern", "Tinte", "Brett", "Mantel", "Helm", "Leiter", "Tulpe",
		"Pinsel", "Spiegel", "Kreis", "Regen", "Garn", "Engel", "Heimat", "Kugel",
	};
	const char *need[3] = { NULL, NULL, NULL };
	if (json_is_true(json_object_get(g, "uses_g1")))
		need[0] = it_jstr(g, "g1_letter");
	if (json_is_true(json_object_get(g, "uses_g2")))
		need[1] = it_jstr(g, "g2_letter");
	if (json_is_true(json_object_get(g, "uses_forbidden")))
		need[2] = it_jstr(g, "forbidden");
	for (size_t k = 0; k < sizeof words / sizeof words[0]; k++) {
		int ok = 1;
		for (int i = 0; i < 3; i++) {
			if (!need[i] || !need[i][0])
				continue;
			int has = strchr(words[k], need[i][0] | 0x20) ||
				  strchr(words[k], need[i][0] & ~0x20);
			ok &= i < 2 ? has : !has;
		}
		if (ok)
			return words[k];
	}
	return NULL;
}

/* Wurf & Wort with eight: the race, the vote, all at the same moment. */
static void test_wurfwort_at_the_same_moment(void **u)
{
	(void)u;
	people();
	enum { N = 8 };
	int64_t id = table_for("wurfwort", N, "vote_seconds", "300", "round_seconds", "600");
	struct shot sh[N];
	int voted = 0;
	for (int round = 0; round < 25 && !voted; round++) {
		/* (the first round's clock starts at the first move, publicly) */
		json_t *a = twin(pl[5], id);
		assert_int_equal(it_move(pl[5], id, it_jstr(a, "csrf"), it_jint(a, "version", -1),
					 "pass"), 303);
		json_decref(a);
		/* a pass does not make another seat's "Stopp" stale: the racers'
		 * pages are from before seat 6 passes */
		int racers[2] = { 0, 1 };
		json_t *pages[2] = { twin(pl[0], id), twin(pl[1], id) };
		a = twin(pl[6], id);
		json_t *b = twin(pl[7], id);
		assert_true(json_is_true(json_object_get(json_object_get(a, "game"), "race")));
		long long va = it_jint(a, "version", -1);
		assert_int_equal(it_move(pl[6], id, it_jstr(a, "csrf"), va, "pass"), 303);
		json_t *b2 = twin(pl[7], id);
		assert_string_equal(json_dumps(b, JSON_SORT_KEYS), json_dumps(b2, JSON_SORT_KEYS));
		json_decref(b2);
		json_decref(a);
		json_decref(b);
		/* two presses at once: one claims, the other is told who did */
		at_once(id, racers, 2, "stopp", pages, sh);
		int won = sh[0].status == 303 ? 0 : 1, lost = 1 - won;
		assert_int_equal(sh[won].status, 303);
		assert_int_equal(sh[lost].status, 409);
		assert_non_null(sh[lost].body);
		if (!strstr(sh[lost].body, "hat schon „Stopp“ gerufen"))
			fail_msg("the race's loser is not told who won");
		assert_non_null(strstr(sh[lost].body, won == 0 ? "Anna" : "Bert"));
		free(sh[0].body);
		free(sh[1].body);
		json_t *o = twin(pl[won], id);
		const char *w = word_for(json_object_get(o, "game"));
		long st = it_move(pl[won], id, it_jstr(o, "csrf"), it_jint(o, "version", -1),
				  w ? w : "withdraw");
		assert_int_equal(st, 303);
		json_decref(o);
		o = twin(pl[lost], id);
		voted = json_is_true(json_object_get(json_object_get(o, "game"), "voting"));
		json_decref(o);
		if (!voted)
			continue;
		/* one vote is secret: another voter's page stays as it was */
		int voters[N - 1], nv = 0;
		for (int i = 0; i < N; i++)
			if (i != won)
				voters[nv++] = i;
		struct seen before, after;
		look(pl[voters[1]], id, &before);
		o = twin(pl[voters[0]], id);
		assert_int_equal(it_move(pl[voters[0]], id, it_jstr(o, "csrf"),
					 it_jint(o, "version", -1), "vote down"), 303);
		json_decref(o);
		look(pl[voters[1]], id, &after);
		assert_same("wurfwort: a voter after another voted", &before, &after);
		forget(&before);
		forget(&after);
		/* the other six at one moment: every vote counts */
		at_once(id, voters + 1, nv - 1, "vote up", NULL, sh);
		int taken = 0;
		for (int i = 0; i < nv - 1; i++) {
			taken += sh[i].status == 303;
			free(sh[i].body);
		}
		print_message("wurfwort: %d of %d simultaneous votes taken\n", taken, nv - 1);
		assert_int_equal(taken, nv - 1);
		o = twin(pl[won], id);
		json_t *rounds = json_object_get(json_object_get(o, "game"), "rounds");
		json_t *last = json_array_get(rounds, json_array_size(rounds) - 1);
		json_t *pts = json_object_get(last, "points");
		/* 6 up of 7: the word scored */
		assert_true(it_jint(json_array_get(pts, (size_t)won), "value", 0) > 0);
		json_decref(o);
	}
	assert_true(voted);
	char why[256];
	if (it_verify_table(id, why, sizeof why) < 1)
		fail_msg("replay: %s", why);
}

/* Drehwurm, 2 s snap windows: a draw from a page shown while the window
 * was open, sent after its deadline passed with no snap, counts. */
static void test_deadline_changes_nothing_it_means(void **u)
{
	(void)u;
	people();
	int64_t id = table_for("drehwurm", 3, "snap_seconds", "2", NULL, NULL);
	uint32_t in;
	reach_window(id, 3, &in);
	json_t *o = twin(pl[0], id);
	int turn = (int)it_jint(json_object_get(o, "game"), "turn_seat", -1);
	json_decref(o);
	assert_true(turn >= 0 && turn < 3);
	o = twin(pl[turn], id);
	assert_false(has_move(o, "draw turn", 1));   /* the window first */
	long long v = it_jint(o, "version", -1);
	char csrf[128], path[96];
	snprintf(csrf, sizeof csrf, "%s", it_jstr(o, "csrf"));
	const char *dv = NULL;
	json_decref(o);
	long st;
	char *html;
	snprintf(path, sizeof path, "/t/%lld", (long long)id);
	assert_non_null(html = body_of(watcher, path, &st));
	assert_non_null(dv = strstr(html, "data-version=\""));
	snprintf(path, sizeof path, "/t/%lld/poll?v=%lld", (long long)id,
		 strtoll(dv + 14, NULL, 10));
	free(html);
	/* the poll says "changed" once the deadline has passed (nobody ticks) */
	double t0 = it_now();
	for (st = 204; st == 204 && it_now() - t0 < WAIT_SECONDS;) {
		char *b = body_of(watcher, path, &st);
		free(b);
		if (st == 204) {
			struct timespec ts = { 0, 100 * 1000000L };
			nanosleep(&ts, NULL);
		}
	}
	assert_int_equal(st, 200);
	char *body = NULL;
	st = post(pl[turn], id, csrf, v, "draw turn 1", &body);
	if (st != 303)
		fail_msg("a draw after the window's deadline: %ld %s", st,
			 body && strstr(body, "Frist") ? "(\"die Frist ist abgelaufen\")" : "");
	free(body);
	char why[256];
	if (it_verify_table(id, why, sizeof why) < 1)
		fail_msg("replay: %s", why);
}

/* Worst Game Ever: `react` twice from one page: both are taken. */
static void test_react_twice_from_one_page(void **u)
{
	(void)u;
	people();
	int64_t id = table_for("worstgame", 3, "react_seconds", "600", NULL, NULL);
	json_t *o = twin(pl[1], id);
	long long v = it_jint(o, "version", -1);
	assert_int_equal(it_move(pl[1], id, it_jstr(o, "csrf"), v, "react all"), 303);
	char *body = NULL;
	long st = post(pl[1], id, it_jstr(o, "csrf"), v, "react attack roll card", &body);
	if (st != 303)
		fail_msg("react from the same page again: %ld%s", st,
			 body && strstr(body, "Doppelt") ? " (\"Doppelt gesendet\")" : "");
	free(body);
	json_decref(o);
}

/* The first snap move of o's list into out (cap bytes); 0, or -1. */
static int first_snap(json_t *o, char *out, size_t cap)
{
	json_t *mv = json_object_get(o, "moves");
	for (size_t i = 0; i < json_array_size(mv); i++) {
		const char *m = it_jstr(json_array_get(mv, i), "move");
		if (strncmp(m, "snap ", 5) == 0) {
			snprintf(out, cap, "%s", m);
			return 0;
		}
	}
	return -1;
}

/* Drehwurm: two seats snap at the same moment from pages of one version:
 * one card lands, the other seat is told who snapped ("Zu spät: … hat
 * schon auf Stapel N zwischengeworfen."). Windows where fewer than two can
 * snap are passed by everyone in them. */
static void test_snap_race_loser_named(void **u)
{
	(void)u;
	people();
	int64_t id = table_for("drehwurm", 3, "snap_seconds", "600", NULL, NULL);
	for (int tries = 0; tries < 60; tries++) {
		uint32_t in;
		reach_window(id, 3, &in);
		char snap[2][GAME_MOVE_MAX + 1];
		int who[2], k = 0;
		json_t *pages[2] = { NULL, NULL };
		for (int i = 0; i < 3 && k < 2; i++) {
			json_t *o = twin(pl[i], id);
			if (first_snap(o, snap[k], sizeof snap[k]) == 0) {
				who[k] = i;
				pages[k++] = o;
			} else {
				json_decref(o);
			}
		}
		if (k < 2) {
			for (int i = 0; i < k; i++)
				json_decref(pages[i]);
			for (int i = 0; i < 3; i++) {
				json_t *o = twin(pl[i], id);
				if (has_move(o, "pass", 0))
					assert_int_equal(it_move(pl[i], id, it_jstr(o, "csrf"),
								 it_jint(o, "version", -1), "pass"),
							 303);
				json_decref(o);
			}
			continue;
		}
		struct shot sh[2];
		pthread_barrier_t go;
		pthread_t th[2];
		pthread_barrier_init(&go, NULL, 2);
		for (int i = 0; i < 2; i++) {
			sh[i] = (struct shot){ who[i], id, it_jstr(pages[i], "csrf"), snap[i],
					       it_jint(pages[i], "version", -1), &go, 0, NULL };
			pthread_create(&th[i], NULL, shoot, &sh[i]);
		}
		for (int i = 0; i < 2; i++)
			pthread_join(th[i], NULL);
		pthread_barrier_destroy(&go);
		assert_true((sh[0].status == 303) != (sh[1].status == 303));
		struct shot *lost = sh[0].status == 303 ? &sh[1] : &sh[0];
		assert_int_equal(lost->status, 409);
		if (!lost->body || !strstr(lost->body, "zwischengeworfen"))
			fail_msg("the snap race's loser is not told who snapped");
		print_message("drehwurm: seats %d and %d snapped at once: seat %d's card landed, "
			      "the other was told who snapped\n", who[0], who[1],
			      sh[0].status == 303 ? who[0] : who[1]);
		for (int i = 0; i < 2; i++) {
			free(sh[i].body);
			json_decref(pages[i]);
		}
		return;
	}
	fail_msg("no window in which two seats could snap");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drehwurm_pass_is_secret),
		cmocka_unit_test(test_worstgame_pass_is_secret),
		cmocka_unit_test(test_wurfwort_at_the_same_moment),
		cmocka_unit_test(test_deadline_changes_nothing_it_means),
		cmocka_unit_test(test_react_twice_from_one_page),
		cmocka_unit_test(test_snap_race_loser_named),
	};
	return cmocka_run_group_tests(tests, start, stop);
}
