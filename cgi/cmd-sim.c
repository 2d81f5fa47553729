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

int cmd_sim(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: spieltisch sim GAME [--games N] [--players P] [--seed S] [--opt KEY=VALUE]...\n");
		return 2;
	}
	const struct game *g = game_find(argv[1]);
	if (!g) {
		fprintf(stderr, "sim: unknown game '%s'\n", argv[1]);
		return 2;
	}
	long nparties = 1000, players = g->min_players, seed = 1;
	int opt[GAME_OPT_MAX];
	int quiet = 0, bench = 0;
	struct rerr e;
	options_default(g, opt);
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "--quiet") == 0) {
			quiet = 1;
			continue;
		}
		if (strcmp(a, "--bench") == 0) {
			bench = 1;
			continue;
		}
		if (!v) {
			fprintf(stderr, "sim: %s needs a value\n", a);
			return 2;
		}
		i++;
		if (strcmp(a, "--games") == 0 && cmd_read_long(v, 1, 100000000, &nparties) == 0)
			continue;
		if (strcmp(a, "--players") == 0 &&
		    cmd_read_long(v, g->min_players, g->max_players, &players) == 0)
			continue;
		if (strcmp(a, "--seed") == 0 && cmd_read_long(v, 0, 0x7fffffffL, &seed) == 0)
			continue;
		if (strcmp(a, "--opt") == 0) {
			if (cmd_set_opt(g, opt, v, &e) == 0)
				continue;
			fprintf(stderr, "sim: %s\n", e.msg);
			return 2;
		}
		fprintf(stderr, "sim: bad argument %s %s\n", a, v);
		return 2;
	}

	struct sim_mem mem = {
		.state = calloc(1, g->state_size),
		.replay = calloc(1, g->state_size),
		.log = calloc(SIM_MAX_STEPS, sizeof(struct sim_step)),
		.max_steps = SIM_MAX_STEPS,
		.snap_a = malloc(GAME_SNAPSHOT_MAX),
		.snap_b = malloc(GAME_SNAPSHOT_MAX),
	};
	int rc = 1;
	if (!mem.state || !mem.replay || !mem.log || !mem.snap_a || !mem.snap_b) {
		fprintf(stderr, "sim: out of memory\n");
		goto out;
	}

	long moves = 0, inv = 0, mism = 0, unfinished = 0, rejected = 0, longest = 0;
	uint64_t sig = PERFT_FNV_SEED;   /* --bench: the final snapshots, in order */
	double t0 = now_seconds();
	for (long n = 0; n < nparties; n++) {
		struct setup s = {
			.nplayers = (int)players,
			.dealer = match_dealer((int)(n % players), 0, (int)players),
			.seed = (uint64_t)seed * 1000003u + (uint64_t)n,
		};
		memcpy(s.opt, opt, sizeof s.opt);
		struct sim_result r;
		sim_party(g, &s, s.seed ^ 0x5eedULL, &mem, &r);
		moves += r.moves;
		if (bench) {
			struct buf b = { mem.snap_a, 0, GAME_SNAPSHOT_MAX, 0 };
			if (g->encode(mem.state, &b) == 0 && !b.overflow)
				sig = perft_fnv(sig, b.p, b.len);
		}
		if (r.moves > longest)
			longest = r.moves;
		inv += r.invariant_failures;
		mism += r.replay_mismatch;
		rejected += r.rejected_legal;
		if (!r.ended)
			unfinished++;
		if (!quiet && (r.invariant_failures || r.replay_mismatch || !r.ended ||
			       r.rejected_legal))
			fprintf(stderr, "sim %s: party %ld (seed %llu): %s\n", g->slug, n,
				(unsigned long long)s.seed, r.err.msg);
	}
	double dt = now_seconds() - t0;
	printf("sim %s: games=%ld players=%ld seed=%ld moves=%ld longest=%ld "
	       "invariant_failures=%ld replay_mismatches=%ld rejected_legal=%ld "
	       "unfinished=%ld games_per_sec=%.0f\n",
	       g->slug, nparties, players, seed, moves, longest, inv, mism, rejected,
	       unfinished, dt > 0 ? (double)nparties / dt : 0.0);
	if (bench)   /* the behaviour signature: no timing in it (docs/perft.md) */
		printf("signature %s players=%ld games=%ld seed=%ld moves=%ld longest=%ld "
		       "final_snapshots=%016llx\n", g->slug, players, nparties, seed, moves, longest,
		       (unsigned long long)sig);
	rc = (inv || mism || unfinished || rejected) ? 1 : 0;
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
