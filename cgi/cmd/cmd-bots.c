/* cmd-bots.c — `spieltisch bots GAME [--games N] [--players P] [--seed S]
 * [--opt KEY=VALUE]... [--timing [--level random|greedy]]`.
 *
 * Without --timing: N parties of bots (rules/bot.h), one greedy seat
 * (party k: seat k mod P, so every seat takes its turn) against random
 * ones. Prints how often the greedy seat won and how often a random seat
 * did on average (a shared first place counts for each).
 *
 * With --timing: what one bot move costs at each level (or at --level's
 * only). For a level, N parties by bot_party() with every seat at that
 * level, each bot_choose() call timed on CLOCK_MONOTONIC (bot_mem's clock;
 * the cost of reading the clock taken off). Prints one line,
 *   bot move SLUG: random X us, greedy Y us (A, B moves; N parties a level, P players)
 * with the mean microseconds per move and the moves timed at each level. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bot.h"
#include "cmd.h"
#include "game.h"
#include "options.h"

enum { BOTS_MAX_STEPS = 200000 };

/* What `bots` was asked for. */
struct bots_args {
	const struct game *g;
	long parties, players, seed;
	struct setup s;   /* options and player count; seed and dealer per party */
	int timing;
	int level;        /* --level: a BOT_* level, or -1 for every level */
};

/* Scratch for the parties: bot memory and the state. */
struct bots_mem {
	struct bot_mem m;
	void *st;
};

/* The bot_choose() calls of one level: how many, and their nanoseconds. */
struct bots_timing {
	long calls;
	uint64_t ns;
};

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* What one timed interval costs with nothing in it: the mean of many
 * back-to-back clock readings, in nanoseconds. */
static double clock_cost_ns(void)
{
	enum { ROUNDS = 20000 };
	uint64_t sum = 0;
	for (int i = 0; i < ROUNDS; i++) {
		uint64_t t0 = now_ns();
		sum += now_ns() - t0;
	}
	return (double)sum / ROUNDS;
}

/* Reads the arguments into a. 0, or the exit status 2 after a message. */
static int bots_args_read(int argc, char **argv, struct bots_args *a)
{
	static const char usage[] = "usage: spieltisch bots GAME [--games N] [--players P] "
				    "[--seed S] [--opt KEY=VALUE]... [--timing [--level random|greedy]]\n";
	const struct game *g = a->g = argc >= 2 ? game_find(argv[1]) : NULL;
	if (!g) {
		fputs(usage, stderr);
		return 2;
	}
	struct rerr e;
	memset(&a->s, 0, sizeof a->s);
	a->parties = 1000;
	a->players = g->min_players;
	a->seed = 1;
	a->timing = 0;
	a->level = -1;
	options_default(g, a->s.opt);
	for (int i = 2; i < argc; i++) {
		const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(k, "--timing") == 0) {
			a->timing = 1;
			continue;
		}
		i++;
		if (v && strcmp(k, "--games") == 0 && cmd_read_long(v, 1, 1000000, &a->parties) == 0)
			continue;
		if (v && strcmp(k, "--players") == 0 &&
		    cmd_read_long(v, g->min_players, g->max_players, &a->players) == 0)
			continue;
		if (v && strcmp(k, "--seed") == 0 && cmd_read_long(v, 0, 0x7fffffffL, &a->seed) == 0)
			continue;
		if (v && strcmp(k, "--level") == 0) {
			for (int l = 0; l < BOT__MAX; l++)
				if (strcmp(v, bot_level_name[l]) == 0)
					a->level = l;
			if (a->level >= 0)
				continue;
		}
		if (v && strcmp(k, "--opt") == 0) {
			if (cmd_set_opt(g, a->s.opt, v, &e) == 0)
				continue;
			fprintf(stderr, "bots: %s\n", e.msg);
			return 2;
		}
		fprintf(stderr, "bots: bad argument %s %s\n%s", k, v ? v : "", usage);
		return 2;
	}
	if (a->level >= 0 && !a->timing) {
		fprintf(stderr, "bots: --level goes with --timing\n%s", usage);
		return 2;
	}
	a->s.nplayers = (int)a->players;
	return 0;
}

/* Party k's seed and dealer in a->s (the same parties in both modes). */
static void bots_party_setup(struct bots_args *a, long k)
{
	a->s.seed = (uint64_t)a->seed * 1000003u + (uint64_t)k;
	a->s.dealer = (int)(k % a->players);
}

/* Greedy against random: the win rates. The exit status. */
static int bots_win_rates(struct bots_args *a, struct bots_mem *bm)
{
	const struct game *g = a->g;
	struct bot_versus r;
	struct rerr e;
	bot_versus(g, &a->s, a->parties, (uint64_t)a->seed, BOTS_MAX_STEPS, bm->st, &bm->m, &r, &e);
	if (r.failed)
		fprintf(stderr, "bots: %s: %ld parties failed, the first: %s\n", g->slug, r.failed,
			e.msg);
	long played = r.played;
	printf("bots %s: players=%ld games=%ld greedy_won=%.1f%% random_seat_won=%.1f%% failed=%ld\n",
	       g->slug, a->players, played,
	       played ? 100.0 * (double)r.greedy_wins / (double)played : 0.0,
	       played ? 100.0 * (double)r.random_wins / (double)played / (double)(a->players - 1) : 0.0,
	       r.failed);
	return r.failed ? 1 : 0;
}

/* The timed parties of one level. 0, or -1 after a message. */
static int bots_timing_level(struct bots_args *a, enum bot_level level, struct bots_mem *bm,
			     struct bots_timing *t)
{
	const struct game *g = a->g;
	enum bot_level levels[GAME_MAX_SEATS];
	int place[GAME_MAX_SEATS];
	struct rerr e;
	for (int p = 0; p < GAME_MAX_SEATS; p++)
		levels[p] = level;
	bm->m.clock_ns = now_ns;
	bm->m.spent_ns = 0;
	bm->m.choices = 0;
	for (long k = 0; k < a->parties; k++) {
		bots_party_setup(a, k);
		if (bot_party(g, &a->s, levels, a->s.seed ^ 0xb07ULL, BOTS_MAX_STEPS, bm->st, &bm->m,
			      place, &e) != 0) {
			fprintf(stderr, "bots: %s %s party %ld: %s\n", g->slug, bot_level_name[level],
				k, e.msg);
			return -1;
		}
	}
	t->ns = bm->m.spent_ns;
	t->calls = bm->m.choices;
	bm->m.clock_ns = NULL;
	return 0;
}

/* --timing: microseconds per bot move at each level. The exit status. */
static int bots_timing(struct bots_args *a, struct bots_mem *bm)
{
	struct bots_timing t[BOT__MAX];
	double clock_ns = clock_cost_ns();
	memset(t, 0, sizeof t);
	for (int l = 0; l < BOT__MAX; l++)
		if ((a->level < 0 || a->level == l) &&
		    bots_timing_level(a, (enum bot_level)l, bm, &t[l]) != 0)
			return 1;
	printf("bot move %s:", a->g->slug);
	const char *sep = " ";
	for (int l = 0; l < BOT__MAX; l++)
		if (t[l].calls > 0) {
			double us = ((double)t[l].ns - clock_ns * (double)t[l].calls) /
				    (double)t[l].calls / 1000.0;
			printf("%s%s %.2f us", sep, bot_level_name[l], us);
			sep = ", ";
		}
	sep = " (";
	for (int l = 0; l < BOT__MAX; l++)
		if (t[l].calls > 0) {
			printf("%s%ld", sep, t[l].calls);
			sep = ", ";
		}
	printf(" moves; %ld parties a level, %ld players)\n", a->parties, a->players);
	return 0;
}

int cmd_bots(int argc, char **argv)
{
	struct bots_args a;
	int rc = bots_args_read(argc, argv, &a);
	if (rc != 0)
		return rc;
	size_t n = a.g->state_size;
	struct bots_mem bm = { .m = { .seen = malloc(n), .trial = malloc(n) }, .st = malloc(n) };
	if (!bm.m.seen || !bm.m.trial || !bm.st) {
		fputs("bots: out of memory\n", stderr);
		rc = 1;
	} else {
		rc = a.timing ? bots_timing(&a, &bm) : bots_win_rates(&a, &bm);
	}
	free(bm.m.seen);
	free(bm.m.trial);
	free(bm.st);
	return rc;
}
