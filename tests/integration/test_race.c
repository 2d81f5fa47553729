/*
 * test_race.c — many browsers racing at one table through real nginx, for
 * every registered game in turn: 16 clients (the six seated players, each
 * logged in with two or three sessions of their own) fetch the JSON twin
 * and post moves as fast as they can — legal moves, the same move twice (a
 * double click, and the same seat from two sessions at once), moves with a
 * stale version, moves from an old page — while Drehwurm's snap windows
 * open to five seats at once and DNA's six players choose at the same time.
 *
 * Afterwards:
 *   - no 5xx and no transport error at all; a move post answers only 303
 *     (taken), 409 (stale page or race lost) or 422 (refused by the rules);
 *   - nothing lost or doubled: the (seat, move) pairs of every 303 a client
 *     saw equal, as a multiset, the moves in the table's log (read from the
 *     database file); and no two 303s share a seat and the version they
 *     were posted with (a seat moves at most once per page it saw, however
 *     many sessions and clicks);
 *   - every party's snapshot equals the replay of its log
 *     (play_verify_party on the database file), integrity_check is ok;
 *   - no client ever saw the table's version go backwards.
 * RACE_SECONDS (default 30) are shared equally by the registered games; a
 * match at one table ends within seconds, so each game's share is run in
 * rounds, one fresh table at a time, each round checked on its own. Bounded
 * also by RACE_REQUESTS per client.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <cmocka.h>

#include "integration/suite.h"

enum { SEATS = 6, CLIENTS = 16, RACE_REQUESTS = 4000, ACKS_MAX = 20000 };

struct ack {
	int seat;
	long long v;          /* the version the move was posted with */
	char text[GAME_MOVE_MAX + 1];
};

struct racer {
	pthread_t th;
	int idx;
	struct h_client *c;
	unsigned rng;
	double until;
	/* results, read by the main thread after the join */
	long requests, posts, s303, s409, s422, s5xx, transport, other, backwards;
	long snaps, snaps_taken;     /* snap posts, and those that won the window */
	long last_other;
	struct ack *acks;
	int nacks;
};

static int64_t table_id;
static struct racer racers[CLIENTS];

/* The load time: RACE_SECONDS when it is within 1..600, else 20. */
static double race_seconds(void)
{
	const char *e = getenv("RACE_SECONDS");
	char *end;
	double s = e ? strtod(e, &end) : 30;
	if (!e || *end || s < 1 || s > 600)
		s = 30;
	return s;
}

/* A small per-thread generator (rand() is not thread-safe). */
static unsigned next_rand(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/* Records one move post's answer; a 303 becomes an acknowledged move. */
static void count_post(struct racer *r, long st, int seat, long long v, const char *move)
{
	r->posts++;
	r->requests++;
	if (strncmp(move, "snap ", 5) == 0) {
		r->snaps++;
		r->snaps_taken += st == 303;
	}
	if (st == 303) {
		r->s303++;
		if (r->nacks < ACKS_MAX) {
			r->acks[r->nacks].seat = seat;
			r->acks[r->nacks].v = v;
			snprintf(r->acks[r->nacks].text, sizeof r->acks[0].text, "%s", move);
			r->nacks++;
		}
	} else if (st == 409)
		r->s409++;
	else if (st == 422)
		r->s422++;
	else if (st >= 500)
		r->s5xx++;
	else if (st == 0)
		r->transport++;
	else {
		r->other++;
		r->last_other = st;
	}
}

/* One client's loop: bounded by time and by RACE_REQUESTS. */
static void *race(void *arg)
{
	struct racer *r = arg;
	long long last_v = -1, old_v = -1;
	char old_move[GAME_MOVE_MAX + 1] = "";
	while (it_now() < r->until && r->requests < RACE_REQUESTS) {
		long st;
		json_t *o = it_table_json(r->c, table_id, &st);
		r->requests++;
		if (!o) {
			if (st >= 500)
				r->s5xx++;
			else if (st == 0)
				r->transport++;
			else {
				r->other++;
				r->last_other = st;
			}
			continue;
		}
		long long v = it_jint(o, "version", -1);
		if (v < last_v)
			r->backwards++;
		last_v = v;
		if (strcmp(it_jstr(o, "status"), "finished") == 0) {
			json_decref(o);
			break;
		}
		int seat = (int)it_jint(o, "my_seat", -1);
		char csrf[128];
		snprintf(csrf, sizeof csrf, "%s", it_jstr(o, "csrf"));
		json_t *moves = json_object_get(o, "moves");
		size_t nm = json_array_size(moves);
		if (nm == 0) {
			json_decref(o);
			usleep(2000 + next_rand(&r->rng) % 8000);
			continue;
		}
		char move[GAME_MOVE_MAX + 1];
		json_t *m = json_array_get(moves, next_rand(&r->rng) % nm);
		/* in a snap window, snap rather than pass three times in four: the
		 * other seats are racing for the same window */
		size_t nsnap = 0;
		for (size_t i = 0; i < nm; i++)
			nsnap += strncmp(it_jstr(json_array_get(moves, i), "move"), "snap ", 5) == 0;
		if (nsnap > 0 && next_rand(&r->rng) % 4 != 0) {
			size_t want = next_rand(&r->rng) % nsnap;
			for (size_t i = 0; i < nm; i++)
				if (strncmp(it_jstr(json_array_get(moves, i), "move"), "snap ", 5) == 0 &&
				    want-- == 0)
					m = json_array_get(moves, i);
		}
		snprintf(move, sizeof move, "%s", it_jstr(m, "move"));
		json_decref(o);

		unsigned kind = next_rand(&r->rng) % 10;
		if (kind < 6) {                          /* a legal move */
			count_post(r, it_move(r->c, table_id, csrf, v, move), seat, v, move);
		} else if (kind < 8) {                   /* double click */
			count_post(r, it_move(r->c, table_id, csrf, v, move), seat, v, move);
			count_post(r, it_move(r->c, table_id, csrf, v, move), seat, v, move);
		} else if (kind < 9) {                   /* a stale version */
			long long sv = v - 1 - (long long)(next_rand(&r->rng) % 3);
			sv = sv < 1 ? 1 : sv;
			count_post(r, it_move(r->c, table_id, csrf, sv, move), seat, sv, move);
		} else if (old_v > 0) {                  /* a move from an old page */
			count_post(r, it_move(r->c, table_id, csrf, old_v, old_move), seat, old_v,
				   old_move);
		}
		old_v = v;
		snprintf(old_move, sizeof old_move, "%s", move);
	}
	return NULL;
}

/* Group set-up: the program and nginx (harness). */
static int start(void **state)
{
	(void)state;
	return h_start();
}

/* Group tear-down: the clients, then the servers. */
static int stop(void **state)
{
	(void)state;
	for (int i = 0; i < CLIENTS; i++) {
		h_client_free(racers[i].c);
		free(racers[i].acks);
	}
	h_stop();
	return 0;
}

/* qsort order of acknowledged moves: seat, then the version posted with. */
static int ack_v_cmp(const void *a, const void *b)
{
	const struct ack *x = a, *y = b;
	if (x->seat != y->seat)
		return x->seat < y->seat ? -1 : 1;
	return x->v < y->v ? -1 : x->v > y->v;
}

/* qsort order of acknowledged moves / log steps: seat, then text. */
static int ack_cmp(const void *a, const void *b)
{
	const struct ack *x = a, *y = b;
	if (x->seat != y->seat)
		return x->seat < y->seat ? -1 : 1;
	return strcmp(x->text, y->text);
}

/* After one round: the acknowledged moves of this round against table id's
 * log, every party against its replay. Returns the parties checked. */
static int check_round(int64_t id)
{
	int nacks = 0;
	for (int i = 0; i < CLIENTS; i++)
		nacks += racers[i].nacks;
	/* nothing lost, nothing doubled */
	struct ack *acked = malloc(sizeof *acked * (size_t)(nacks ? nacks : 1));
	assert_non_null(acked);
	int k = 0;
	for (int i = 0; i < CLIENTS; i++)
		for (int j = 0; j < racers[i].nacks; j++)
			acked[k++] = racers[i].acks[j];
	qsort(acked, (size_t)nacks, sizeof *acked, ack_v_cmp);
	for (int i = 1; i < nacks; i++)
		if (ack_v_cmp(&acked[i - 1], &acked[i]) == 0)
			fail_msg("seat %d moved twice from the page of version %lld: '%s' and '%s'",
				 acked[i].seat, acked[i].v, acked[i - 1].text, acked[i].text);
	qsort(acked, (size_t)nacks, sizeof *acked, ack_cmp);
	struct it_step *steps;
	int nsteps;
	assert_int_equal(it_db_steps(h_db_path(), id, &steps, &nsteps), 0);
	struct ack *logged = malloc(sizeof *logged * (size_t)(nsteps ? nsteps : 1));
	assert_non_null(logged);
	int nlogged = 0, ticks = 0;
	for (int i = 0; i < nsteps; i++) {
		if (steps[i].seat < 0) {
			ticks++;
			continue;
		}
		logged[nlogged].seat = steps[i].seat;
		snprintf(logged[nlogged].text, sizeof logged[0].text, "%s", steps[i].text);
		nlogged++;
	}
	qsort(logged, (size_t)nlogged, sizeof *logged, ack_cmp);
	int parties = nsteps ? steps[nsteps - 1].party + 1 : 0;
	fprintf(stderr, "race: table %lld: the log holds %d moves and %d ticks over %d parties; "
		"%d moves acknowledged\n", (long long)id, nlogged, ticks, parties, nacks);
	for (int i = 0; i < nacks && i < nlogged; i++)
		if (ack_cmp(&acked[i], &logged[i]) != 0)
			fail_msg("acknowledged and logged moves differ at %d: seat %d '%s' / seat %d "
				 "'%s'", i, acked[i].seat, acked[i].text, logged[i].seat,
				 logged[i].text);
	assert_int_equal(nacks, nlogged);

	char why[512];
	int verified = it_verify_table(id, why, sizeof why);
	if (verified < 0)
		fail_msg("replay: %s", why);
	/* When the last "weiter" of a round started the next party just before
	 * the round's time ran out, that party is on the table without a step. */
	if (verified != parties && verified != parties + 1)
		fail_msg("table %lld: %d parties replayed, the log has steps in %d",
			 (long long)id, verified, parties);
	free(steps);
	free(acked);
	free(logged);
	return verified;
}

/* The whole race: set-up, rounds of load on one fresh table each (a match
 * ends within seconds) until the time is up, then every assertion of the
 * file comment. */
static void test_race(void **state)
{
	(void)state;
	char name[32];
	struct h_client *seated[SEATS];
	for (int i = 0; i < SEATS; i++) {
		snprintf(name, sizeof name, "racer%d", i);
		seated[i] = it_register(name);
		assert_non_null(seated[i]);
	}
	for (int i = 0; i < CLIENTS; i++) {
		struct racer *r = &racers[i];
		snprintf(name, sizeof name, "racer%d", i % SEATS);
		r->idx = i;
		r->c = it_login(name);
		assert_non_null(r->c);
		r->rng = 0x9e3779b9u * (unsigned)(i + 1);
		r->acks = calloc(ACKS_MAX, sizeof *r->acks);
		assert_non_null(r->acks);
	}
	double start_t = it_now(), total = race_seconds();
	int rounds = 0, parties = 0, acked_total = 0;
	for (int gi = 0; gi < ngames; gi++) {
		const struct game *g = games[gi];
		int nseats = SEATS < g->min_players ? g->min_players :
			     SEATS > g->max_players ? g->max_players : SEATS;
		double until = start_t + total * (gi + 1) / ngames;
		int game_rounds = 0;
		do {
			/* Default options: a snap window closes when all five others
			 * have passed or snapped, long before its deadline. */
			table_id = it_create_table(seated[0], g->slug, nseats, NULL);
			assert_true(table_id > 0);
			for (int i = 1; i < nseats; i++)
				assert_int_equal(it_join(seated[i], table_id), 0);
			for (int i = 0; i < CLIENTS; i++) {
				racers[i].until = until;
				racers[i].nacks = 0;
				assert_int_equal(pthread_create(&racers[i].th, NULL, race, &racers[i]), 0);
			}
			for (int i = 0; i < CLIENTS; i++) {
				pthread_join(racers[i].th, NULL);
				acked_total += racers[i].nacks;
			}
			fprintf(stderr, "race: %s round %d\n", g->slug, game_rounds + 1);
			parties += check_round(table_id);
			/* the finished parties, raced and ticked, replay from
			 * their exports (a few ms a table) */
			it_verify_exports(seated[0], table_id);
			rounds++;
			game_rounds++;
		} while (it_now() < until - 1 && game_rounds < 50);
	}
	for (int i = 0; i < SEATS; i++)
		h_client_free(seated[i]);
	double took = it_now() - start_t;

	long req = 0, posts = 0, a303 = 0, a409 = 0, a422 = 0, a5xx = 0, tr = 0, oth = 0, back = 0;
	long snaps = 0, snaps_taken = 0;
	for (int i = 0; i < CLIENTS; i++) {
		struct racer *r = &racers[i];
		req += r->requests;
		posts += r->posts;
		a303 += r->s303;
		a409 += r->s409;
		a422 += r->s422;
		a5xx += r->s5xx;
		tr += r->transport;
		oth += r->other;
		back += r->backwards;
		snaps += r->snaps;
		snaps_taken += r->snaps_taken;
		if (r->other)
			fprintf(stderr, "race: client %d saw status %ld\n", i, r->last_other);
	}
	fprintf(stderr, "race: %d clients, %d tables one after the other, %.1f s: %ld requests "
		"(%.0f/s), %ld move posts: %ld taken (303), %ld stale or lost (409), %ld refused "
		"(422), %ld 5xx, %ld transport errors, %ld other\n", CLIENTS, rounds, took, req,
		(double)req / took, posts, a303, a409, a422, a5xx, tr, oth);
	fprintf(stderr, "race: %ld snap posts, %ld won their window, %ld too late or stale\n",
		snaps, snaps_taken, snaps - snaps_taken);
	if (a5xx || tr || oth)
		h_dump_logs();
	assert_int_equal(a5xx, 0);
	assert_int_equal(tr, 0);
	assert_int_equal(oth, 0);
	assert_int_equal(back, 0);
	assert_true(a303 >= 30);        /* the tables really moved */
	assert_true(a409 >= 10);        /* and the races really happened */
	assert_true(snaps - snaps_taken >= 1);   /* a snap race lost */
	assert_true(acked_total == a303);        /* every 303 was recorded */

	char why[512];
	if (it_db_integrity(h_db_path(), why, sizeof why) != 0)
		fail_msg("integrity_check: %s", why);
	fprintf(stderr, "race: %d parties replayed identically, integrity_check ok\n", parties);
}

/* One test: the race. */
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_race),
	};
	return cmocka_run_group_tests(tests, start, stop);
}
