/* cmd-bots.c — `spieltisch bots GAME [--games N] [--players P] [--seed S]
 * [--opt KEY=VALUE]...`: N parties of bots (rules/bot.h), one greedy seat
 * (party k: seat k mod P, so every seat takes its turn) against random
 * ones. Prints how often the greedy seat won and how often a random seat
 * did on average (a shared first place counts for each). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "cmd.h"
#include "game.h"
#include "options.h"

int cmd_bots(int argc, char **argv)
{
	static const char usage[] = "usage: spieltisch bots GAME [--games N] [--players P] "
				    "[--seed S] [--opt KEY=VALUE]...\n";
	const struct game *g = argc >= 2 ? game_find(argv[1]) : NULL;
	if (!g) {
		fputs(usage, stderr);
		return 2;
	}
	long parties = 1000, players = g->min_players, seed = 1;
	struct setup s = { 0 };
	struct rerr e;
	options_default(g, s.opt);
	for (int i = 2; i < argc; i += 2) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (v && strcmp(a, "--games") == 0 && cmd_read_long(v, 1, 1000000, &parties) == 0)
			continue;
		if (v && strcmp(a, "--players") == 0 &&
		    cmd_read_long(v, g->min_players, g->max_players, &players) == 0)
			continue;
		if (v && strcmp(a, "--seed") == 0 && cmd_read_long(v, 0, 0x7fffffffL, &seed) == 0)
			continue;
		if (v && strcmp(a, "--opt") == 0) {
			if (cmd_set_opt(g, s.opt, v, &e) == 0)
				continue;
			fprintf(stderr, "bots: %s\n", e.msg);
			return 2;
		}
		fprintf(stderr, "bots: bad argument %s %s\n%s", a, v ? v : "", usage);
		return 2;
	}
	struct bot_mem m = { malloc(g->state_size), malloc(g->state_size) };
	void *st = malloc(g->state_size);
	if (!m.seen || !m.trial || !st) {
		fputs("bots: out of memory\n", stderr);
		return 1;
	}
	s.nplayers = (int)players;
	long greedy_wins = 0, random_wins = 0, failed = 0;
	for (long k = 0; k < parties; k++) {
		enum bot_level level[GAME_MAX_SEATS];
		int place[GAME_MAX_SEATS], greedy = (int)(k % players);
		for (int p = 0; p < players; p++)
			level[p] = p == greedy ? BOT_GREEDY : BOT_RANDOM;
		s.seed = (uint64_t)seed * 1000003u + (uint64_t)k;
		s.dealer = (int)(k % players);
		if (bot_party(g, &s, level, s.seed ^ 0xb07ULL, 200000, st, &m, place, &e) != 0) {
			if (failed++ == 0)
				fprintf(stderr, "bots: %s party %ld: %s\n", g->slug, k, e.msg);
			continue;
		}
		for (int p = 0; p < players; p++)
			if (place[p] == 1) {
				if (p == greedy)
					greedy_wins++;
				else
					random_wins++;
			}
	}
	long played = parties - failed;
	printf("bots %s: players=%ld games=%ld greedy_won=%.1f%% random_seat_won=%.1f%% failed=%ld\n",
	       g->slug, players, played, played ? 100.0 * (double)greedy_wins / (double)played : 0.0,
	       played ? 100.0 * (double)random_wins / (double)played / (double)(players - 1) : 0.0,
	       failed);
	free(m.seen);
	free(m.trial);
	free(st);
	return failed ? 1 : 0;
}
