/*
 * test_live_web.c — the live channels (issue 32; docs/api.md "Live
 * channels") through nginx with the Nchan module, as a browser's
 * EventSource sees them:
 *
 *   - a subscriber of a Drehwurm table's channel, and of each player's
 *     /me channel, receives exactly the versions the polls report after
 *     each step, in order, nothing else;
 *   - a pass in a snap window (a step only its seat may know) sends
 *     nothing on any channel: the spectator's channel (the table's, the
 *     same the seats subscribe to) carries nothing a seat's does not;
 *   - every page names the channel of its poll, the spectator's the same
 *     as the seats'; the /me channel needs the poll token;
 *   - a tournament's channel says what its poll says when somebody
 *     registers;
 *   - nobody can publish through the public port.
 *
 * Skipped (with a message) when nginx has no Nchan module: the pages then
 * poll, which the other tests cover.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "integration/suite.h"

enum { PLAYERS = 3, STEPS = 40, WAIT_MS = 5000, MSG_MAX = 256, BUF = 8192 };

static struct h_client *pl[PLAYERS], *watcher;

/* One EventSource connection, read by hand: its messages' data. */
struct sub {
	int fd;
	char buf[BUF];
	size_t len;
	long long msg[MSG_MAX];
	int n, taken;      /* messages received; how many the test looked at */
};

static int start(void **state)
{
	(void)state;
	return h_start();
}

static int stop(void **state)
{
	(void)state;
	for (int i = 0; i < PLAYERS; i++)
		h_client_free(pl[i]);
	h_client_free(watcher);
	h_stop();
	return 0;
}

/* The data-live attribute of the page at path as c sees it, into out. */
static void live_of(struct h_client *c, const char *path, char *out, size_t cap)
{
	struct h_resp r;
	assert_int_equal(h_get(c, path, &r), 0);
	assert_int_equal(r.status, 200);
	const char *a = strstr(r.body, "data-live=\"");
	if (!a)
		fail_msg("%s has no data-live", path);
	a += strlen("data-live=\"");
	snprintf(out, cap, "%.*s", (int)strcspn(a, "\""), a);
	h_resp_free(&r);
}

static void subscribe(struct sub *s, const char *path)
{
	memset(s, 0, sizeof *s);
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)it_port()) };
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	s->fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(s->fd >= 0);
	assert_int_equal(connect(s->fd, (struct sockaddr *)&sa, sizeof sa), 0);
	char req[512];
	int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n"
			 "Accept: text/event-stream\r\n\r\n", path);
	assert_int_equal(send(s->fd, req, (size_t)n, 0), n);
}

/* Reads what has come (waiting at most ms), and files each "data:" line. */
static void pump(struct sub *s, int ms)
{
	struct pollfd p = { .fd = s->fd, .events = POLLIN };
	if (poll(&p, 1, ms) <= 0)
		return;
	ssize_t r = recv(s->fd, s->buf + s->len, sizeof s->buf - 1 - s->len, MSG_DONTWAIT);
	if (r <= 0)
		return;
	s->len += (size_t)r;
	s->buf[s->len] = '\0';
	char *line, *nl;
	size_t used = 0;
	for (line = s->buf; (nl = strchr(line, '\n')); line = nl + 1) {
		if (strncmp(line, "data: ", 6) == 0 && s->n < MSG_MAX)
			s->msg[s->n++] = strtoll(line + 6, NULL, 10);
		used = (size_t)(nl + 1 - s->buf);
	}
	memmove(s->buf, s->buf + used, s->len - used);
	s->len -= used;
}

/* The next message not looked at yet, waiting at most WAIT_MS for it;
 * -1 when none came. */
static long long next_msg(struct sub *s)
{
	double end = it_now() + WAIT_MS / 1000.0;
	while (s->taken == s->n && it_now() < end)
		pump(s, 50);
	return s->taken < s->n ? s->msg[s->taken++] : -1;
}

/* What the poll at path answers for ?v=0: the version it reports. */
static long long poll_version(struct h_client *c, const char *path)
{
	char url[160];
	snprintf(url, sizeof url, "%s?v=0", path);
	struct h_resp r;
	assert_int_equal(h_get(c, url, &r), 0);
	assert_int_equal(r.status, 200);
	long long v = strtoll(r.body, NULL, 10);
	h_resp_free(&r);
	return v;
}

/* The /me poll URL of c's page (with its token). */
static void me_poll_of(struct h_client *c, char *out, size_t cap)
{
	struct h_resp r;
	assert_int_equal(h_get(c, "/me", &r), 0);
	const char *a = strstr(r.body, "data-poll=\"");
	assert_non_null(a);
	a += strlen("data-poll=\"");
	snprintf(out, cap, "%.*s", (int)strcspn(a, "\""), a);
	h_resp_free(&r);
}

struct world {
	int64_t id;
	char table_poll[64], me_poll[PLAYERS][128];
	struct sub table, me[PLAYERS];
};

/* The table channel's next message is what its poll answers now; and on
 * each /me channel (unless only the table's is asked for), a message with
 * what its poll answers whenever that moved since the channel's last one:
 * a step changes the /me number only of the players it asks or stops
 * asking (docs/storage.md), and those get it on their channel. */
static void expect(struct world *w, const char *after, int table_only)
{
	long long want = poll_version(watcher, w->table_poll), got = next_msg(&w->table);
	if (got != want)
		fail_msg("after %s the table channel said %lld, the poll %lld", after, got, want);
	for (int i = 0; i < PLAYERS && !table_only; i++) {
		struct sub *m = &w->me[i];
		want = poll_version(pl[i], w->me_poll[i]);
		if (m->taken > 0 && m->msg[m->taken - 1] == want)
			continue;   /* the same number: no message is due */
		/* (a player's own pass changed their own /me, after the table
		 * channel alone was looked at: its messages came in order) */
		long long last = m->taken > 0 ? m->msg[m->taken - 1] : 0;
		while ((got = next_msg(m)) >= 0 && got != want && got > last)
			last = got;
		if (got != want)
			fail_msg("after %s player %d's /me channel said %lld, the poll %lld", after,
				 i, got, want);
	}
}

static int has_move(json_t *o, const char *move)
{
	json_t *mv = json_object_get(o, "moves");
	for (size_t i = 0; i < json_array_size(mv); i++)
		if (strcmp(it_jstr(json_array_get(mv, i), "move"), move) == 0)
			return 1;
	return 0;
}

/* Seat i's first legal move that is not a pass ("" none) into out. */
static int public_move(json_t *o, char *out, size_t cap)
{
	json_t *mv = json_object_get(o, "moves");
	if (!json_is_true(json_object_get(o, "can_act")))
		return -1;
	for (size_t i = 0; i < json_array_size(mv); i++) {
		const char *m = it_jstr(json_array_get(mv, i), "move");
		if (strcmp(m, "pass") != 0) {
			snprintf(out, cap, "%s", m);
			return 0;
		}
	}
	return -1;
}

static void setup_world(struct world *w)
{
	static const char *const names[PLAYERS] = { "Lina", "Mats", "Nele" };
	for (int i = 0; i < PLAYERS; i++)
		assert_non_null(pl[i] = it_register(names[i]));
	assert_non_null(watcher = it_register("Olli"));
	w->id = it_create_table(pl[0], "drehwurm", PLAYERS, "snap_seconds", "600", NULL);
	assert_true(w->id > 0);
	for (int i = 1; i < PLAYERS; i++)
		assert_int_equal(it_join(pl[i], w->id), 0);
	char path[64], live[160], seat_live[160];
	snprintf(path, sizeof path, "/t/%lld", (long long)w->id);
	snprintf(w->table_poll, sizeof w->table_poll, "/t/%lld/poll", (long long)w->id);
	live_of(watcher, path, live, sizeof live);
	for (int i = 0; i < PLAYERS; i++) {
		live_of(pl[i], path, seat_live, sizeof seat_live);
		assert_string_equal(seat_live, live);   /* one channel for everybody */
	}
	char want[64];
	snprintf(want, sizeof want, "/live/t/%lld", (long long)w->id);
	assert_string_equal(live, want);
	subscribe(&w->table, live);
	for (int i = 0; i < PLAYERS; i++) {
		me_poll_of(pl[i], w->me_poll[i], sizeof w->me_poll[i]);
		live_of(pl[i], "/me", live, sizeof live);
		assert_string_equal(live + strlen("/live/me/"), w->me_poll[i] + strlen("/me/poll/"));
		subscribe(&w->me[i], live);
	}
	/* a new subscriber gets the newest message kept: what the poll says
	 * now (the page may be older than the subscription); the /me channels
	 * have none yet (their token was made after the joins) */
	expect(w, "the start", 1);
}

/* Steps of the table until a window is open for two seats, each step's
 * messages checked; then one seat passes (seen by nobody else) and
 * another plays: the next message on every channel is that play's. */
static void test_channels_carry_the_polls(void **u)
{
	(void)u;
	if (!h_live()) {
		print_message("skipped: nginx has no Nchan module (the pages poll)\n");
		skip();
	}
	static struct world w;
	setup_world(&w);
	int steps = 0, passed = 0;
	for (int step = 0; step < STEPS && !passed; step++) {
		json_t *o[PLAYERS];
		int in = 0;
		for (int i = 0; i < PLAYERS; i++) {
			long st;
			assert_non_null(o[i] = it_table_json(pl[i], w.id, &st));
			in += has_move(o[i], "pass") && it_jint(o[i], "deadline", 0) > 0;
		}
		char m[128];
		int other = -1;
		for (int i = 1; i < PLAYERS && in >= 2; i++)
			if (has_move(o[i], "pass") && public_move(o[i], m, sizeof m) == 0)
				other = i;
		int passer = -1;
		for (int i = 0; i < PLAYERS && other >= 0; i++)
			if (i != other && has_move(o[i], "pass"))
				passer = i;
		if (passer >= 0 && steps >= 4) {
			long long v = it_jint(o[passer], "version", -1);
			assert_int_equal(it_move(pl[passer], w.id, it_jstr(o[passer], "csrf"), v, "pass"),
					 303);
			json_decref(o[other]);
			long st;
			assert_non_null(o[other] = it_table_json(pl[other], w.id, &st));
			assert_int_equal(public_move(o[other], m, sizeof m), 0);
			assert_int_equal(it_move(pl[other], w.id, it_jstr(o[other], "csrf"),
						 it_jint(o[other], "version", -1), m), 303);
			expect(&w, "a pass in a window, then a public move", 0);
			passed = 1;
		} else {
			/* a step everybody sees (a pass in a window is the one that
			 * is not, above) */
			int moved = 0;
			for (int i = 0; i < PLAYERS && !moved; i++) {
				if (public_move(o[i], m, sizeof m) != 0)
					continue;
				long st = it_move(pl[i], w.id, it_jstr(o[i], "csrf"),
						  it_jint(o[i], "version", -1), m);
				assert_int_equal(st, 303);
				moved = 1;
			}
			if (!moved)
				fail_msg("nobody has a move but a pass");
			expect(&w, "a move", 0);
			steps++;
		}
		for (int i = 0; i < PLAYERS; i++)
			json_decref(o[i]);
	}
	if (!passed)
		fail_msg("no window for two seats within %d steps", STEPS);
	print_message("%d steps and a secret pass: every channel said exactly what its poll "
		      "did, in order\n", steps);
	/* nothing more came meanwhile */
	pump(&w.table, 0);
	assert_int_equal(w.table.n, w.table.taken);
	close(w.table.fd);
	for (int i = 0; i < PLAYERS; i++)
		close(w.me[i].fd);
}

/* The publisher is not on the public port; a POST to a channel's
 * subscriber address publishes nothing. */
static void test_nobody_publishes_from_outside(void **u)
{
	(void)u;
	if (!h_live())
		skip();
	if (!watcher)
		assert_non_null(watcher = it_register("Olli2"));
	int64_t id = it_create_table(watcher, "drehwurm", 3, NULL);
	assert_true(id > 0);
	char path[64];
	snprintf(path, sizeof path, "/live/t/%lld", (long long)id);
	struct sub s;
	subscribe(&s, path);
	struct h_resp r;
	const char *tries[] = { path, "/pub/t1", "/pub/" };
	char pub[64];
	snprintf(pub, sizeof pub, "/pub/t%lld", (long long)id);
	tries[1] = pub;
	for (size_t i = 0; i < sizeof tries / sizeof tries[0]; i++) {
		assert_int_equal(h_request(watcher, "POST", tries[i], "text/plain", "999999", 6, &r),
				 0);
		assert_true(r.status >= 400);
		h_resp_free(&r);
	}
	/* a real change comes through, and is the first message */
	struct h_client *pia = it_register("Pia");
	assert_non_null(pia);
	assert_int_equal(it_join(pia, id), 0);
	char poll[64];
	snprintf(poll, sizeof poll, "/t/%lld/poll", (long long)id);
	long long want = poll_version(pia, poll), got = next_msg(&s);
	if (got != want)
		fail_msg("after a join the channel said %lld, the poll %lld", got, want);
	h_client_free(pia);
	close(s.fd);
}

/* A tournament's page names its channel; a registration is announced with
 * the number its poll then reports. */
static void test_tournament_channel(void **u)
{
	(void)u;
	if (!h_live())
		skip();
	struct h_client *org = it_register("Quirin"), *pl2 = it_register("Rike");
	assert_non_null(org);
	assert_non_null(pl2);
	int64_t id = it_create_swiss(org, "Live-Turnier");
	assert_true(id > 0);
	char path[64], live[96], want[96], poll[96];
	snprintf(path, sizeof path, "/tournaments/%lld", (long long)id);
	live_of(pl2, path, live, sizeof live);
	snprintf(want, sizeof want, "/live/tournaments/%lld", (long long)id);
	assert_string_equal(live, want);
	struct sub s;
	subscribe(&s, live);
	char csrf[128];
	assert_int_equal(it_csrf(pl2, path, csrf, sizeof csrf), 0);
	snprintf(path, sizeof path, "/tournaments/%lld/register", (long long)id);
	struct h_resp r;
	assert_int_equal(h_post_form(pl2, path, &r, "csrf", csrf, NULL), 0);
	assert_int_equal(r.status, 303);
	h_resp_free(&r);
	snprintf(poll, sizeof poll, "/tournaments/%lld/poll", (long long)id);
	long long v = poll_version(pl2, poll), got = next_msg(&s);
	if (got != v)
		fail_msg("after a registration the tournament channel said %lld, the poll %lld", got, v);
	close(s.fd);
	h_client_free(org);
	h_client_free(pl2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_channels_carry_the_polls),
		cmocka_unit_test(test_tournament_channel),
		cmocka_unit_test(test_nobody_publishes_from_outside),
	};
	return cmocka_run_group_tests(tests, start, stop);
}
