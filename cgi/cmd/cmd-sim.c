/* cmd-sim.c — `spieltisch sim GAME`: random complete parties through the
 * rules core, invariants after every step, a replay of each party from its
 * log, and one summary line. Exit 1 on any failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "game.h"
#include "match.h"
#include "movetext.h"
#include "options.h"
#include "perft.h"
#include "sim.h"

enum { SIM_MAX_STEPS = 20000 };

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* What `sim` was asked for. */
struct sim_args {
	const struct game *g;
	long nparties, players, seed;
	int opt[GAME_OPT_MAX];
	int quiet, bench, fast;
};

/* What the parties added up to. */
struct sim_totals {
	long moves, inv, mism, unfinished, rejected, longest;
	long *lengths;  /* moves of each party, in order (a->nparties) */
	uint64_t sig;   /* --bench: the final snapshots, in order */
	double seconds;
};

/* Reads `sim GAME [--games N] [--players P] [--seed S] [--opt K=V]...
 * [--quiet] [--bench] [--fast]` into a. 0, or the exit status 2 after a message. */
static int sim_args_read(int argc, char **argv, struct sim_args *a)
{
	if (argc < 2) {
		fprintf(stderr, "usage: spieltisch sim GAME [--games N] [--players P] [--seed S] [--opt KEY=VALUE]...\n");
		return 2;
	}
	const struct game *g = a->g = game_find(argv[1]);
	if (!g) {
		fprintf(stderr, "sim: unknown game '%s'\n", argv[1]);
		return 2;
	}
	a->nparties = 1000;
	a->players = g->min_players;
	a->seed = 1;
	a->quiet = a->bench = a->fast = 0;
	struct rerr e;
	options_default(g, a->opt);
	for (int i = 2; i < argc; i++) {
		const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(k, "--quiet") == 0) {
			a->quiet = 1;
			continue;
		}
		if (strcmp(k, "--bench") == 0) {
			a->bench = 1;
			continue;
		}
		if (strcmp(k, "--fast") == 0) {
			a->fast = 1;
			continue;
		}
		if (!v) {
			fprintf(stderr, "sim: %s needs a value\n", k);
			return 2;
		}
		i++;
		if (strcmp(k, "--games") == 0 && cmd_read_long(v, 1, 100000000, &a->nparties) == 0)
			continue;
		if (strcmp(k, "--players") == 0 &&
		    cmd_read_long(v, g->min_players, g->max_players, &a->players) == 0)
			continue;
		if (strcmp(k, "--seed") == 0 && cmd_read_long(v, 0, 0x7fffffffL, &a->seed) == 0)
			continue;
		if (strcmp(k, "--opt") == 0) {
			if (cmd_set_opt(g, a->opt, v, &e) == 0)
				continue;
			fprintf(stderr, "sim: %s\n", e.msg);
			return 2;
		}
		fprintf(stderr, "sim: bad argument %s %s\n", k, v);
		return 2;
	}
	return 0;
}

/* Plays a->nparties parties with the memory in mem and adds them up in t;
 * with --bench, a hash of every final snapshot in order. */
static void sim_run(const struct sim_args *a, struct sim_mem *mem, struct sim_totals *t)
{
	const struct game *g = a->g;
	long *lengths = t->lengths;
	memset(t, 0, sizeof *t);
	t->lengths = lengths;
	t->sig = PERFT_FNV_SEED;
	double t0 = now_seconds();
	for (long n = 0; n < a->nparties; n++) {
		struct setup s = {
			.nplayers = (int)a->players,
			.dealer = match_dealer((int)(n % a->players), 0, (int)a->players),
			.seed = (uint64_t)a->seed * 1000003u + (uint64_t)n,
		};
		memcpy(s.opt, a->opt, sizeof s.opt);
		struct sim_result r;
		sim_party(g, &s, s.seed ^ 0x5eedULL, mem, &r);
		t->moves += r.moves;
		t->lengths[n] = r.moves;
		if (a->bench) {
			struct buf b = { mem->snap_a, 0, GAME_SNAPSHOT_MAX, 0 };
			if (g->encode(mem->state, &b) == 0 && !b.overflow)
				t->sig = perft_fnv(t->sig, b.p, b.len);
		}
		if (r.moves > t->longest)
			t->longest = r.moves;
		t->inv += r.invariant_failures;
		t->mism += r.replay_mismatch;
		t->rejected += r.rejected_legal;
		if (!r.ended)
			t->unfinished++;
		if (!a->quiet && (r.invariant_failures || r.replay_mismatch || !r.ended ||
				  r.rejected_legal))
			fprintf(stderr, "sim %s: party %ld (seed %llu): %s\n", g->slug, n,
				(unsigned long long)s.seed, r.err.msg);
	}
	t->seconds = now_seconds() - t0;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

/* How long the parties were, in moves: the distribution (sorts lengths). */
static void print_lengths(const struct game *g, long *lengths, long n)
{
	if (n <= 0)
		return;
	qsort(lengths, (size_t)n, sizeof *lengths, cmp_long);
	printf("lengths %s: shortest=%ld p10=%ld p25=%ld median=%ld p75=%ld p90=%ld p99=%ld "
	       "longest=%ld\n", g->slug, lengths[0], lengths[n / 10], lengths[n / 4],
	       lengths[n / 2], lengths[3 * n / 4], lengths[9 * n / 10], lengths[99 * n / 100],
	       lengths[n - 1]);
}

int cmd_sim(int argc, char **argv)
{
	struct sim_args a;
	int rc = sim_args_read(argc, argv, &a);
	if (rc != 0)
		return rc;
	const struct game *g = a.g;
	struct sim_mem mem = {
		.state = calloc(1, g->state_size),
		.replay = calloc(1, g->state_size),
		.log = calloc(SIM_MAX_STEPS, sizeof(struct sim_step)),
		.max_steps = SIM_MAX_STEPS,
		.snap_a = malloc(GAME_SNAPSHOT_MAX),
		.snap_b = malloc(GAME_SNAPSHOT_MAX),
		.fast = a.fast,
	};
	rc = 1;
	if (!mem.state || !mem.replay || !mem.log || !mem.snap_a || !mem.snap_b) {
		fprintf(stderr, "sim: out of memory\n");
		goto out;
	}
	struct sim_totals t = { .lengths = calloc((size_t)a.nparties, sizeof(long)) };
	if (!t.lengths) {
		fprintf(stderr, "sim: out of memory\n");
		goto out;
	}
	sim_run(&a, &mem, &t);
	printf("sim %s: games=%ld players=%ld seed=%ld moves=%ld longest=%ld "
	       "invariant_failures=%ld replay_mismatches=%ld rejected_legal=%ld "
	       "unfinished=%ld games_per_sec=%.0f\n",
	       g->slug, a.nparties, a.players, a.seed, t.moves, t.longest, t.inv, t.mism,
	       t.rejected, t.unfinished, t.seconds > 0 ? (double)a.nparties / t.seconds : 0.0);
	if (a.bench)   /* the behaviour signature: no timing in it (docs/perft.md) */
		printf("signature %s players=%ld games=%ld seed=%ld moves=%ld longest=%ld "
		       "final_snapshots=%016llx\n", g->slug, a.players, a.nparties, a.seed, t.moves,
		       t.longest, (unsigned long long)t.sig);
	print_lengths(g, t.lengths, a.nparties);
	free(t.lengths);
	rc = (t.inv || t.mism || t.unfinished || t.rejected) ? 1 : 0;
out:
	free(mem.state);
	free(mem.replay);
	free(mem.log);
	free(mem.snap_a);
	free(mem.snap_b);
	return rc;
}

/* `spieltisch games`: one line per registered game, for scripts that run a
 * suite over every game (tests/sim-check.sh, the benchmarks). */
int cmd_games(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	for (int i = 0; i < ngames; i++)
		printf("%s %d %d\n", games[i]->slug, games[i]->min_players,
		       games[i]->max_players);
	return 0;
}
