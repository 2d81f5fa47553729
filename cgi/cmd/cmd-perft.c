/* cmd-perft.c — `spieltisch perft GAME --players P --seed S --depth D
 * [--opt KEY=VALUE]...`: the positions every legal move sequence reaches
 * from one dealt party (rules/perft.h), a line per depth. The checked-in
 * tables are tests/perft/<slug>.txt (docs/perft.md). */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "game.h"
#include "options.h"
#include "perft.h"

/* The clock for every move: a fixed moment, so that no deadline passes. */
#define PERFT_NOW_MS INT64_C(1700000000000)

int cmd_perft(int argc, char **argv)
{
	static const char usage[] = "usage: spieltisch perft GAME [--players P] [--seed S] "
				    "[--depth D] [--opt KEY=VALUE]...\n";
	if (argc < 2) {
		fputs(usage, stderr);
		return 2;
	}
	const struct game *g = game_find(argv[1]);
	if (!g) {
		fprintf(stderr, "perft: unknown game '%s'\n", argv[1]);
		return 2;
	}
	long players = g->min_players, seed = 1, depth = 3;
	struct setup s = { 0 };
	struct rerr e;
	options_default(g, s.opt);
	for (int i = 2; i < argc; i += 2) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (v && strcmp(a, "--players") == 0 &&
		    cmd_read_long(v, g->min_players, g->max_players, &players) == 0)
			continue;
		if (v && strcmp(a, "--seed") == 0 && cmd_read_long(v, 0, 0x7fffffffL, &seed) == 0)
			continue;
		if (v && strcmp(a, "--depth") == 0 && cmd_read_long(v, 0, PERFT_DEPTH_MAX, &depth) == 0)
			continue;
		if (v && strcmp(a, "--opt") == 0) {
			if (cmd_set_opt(g, s.opt, v, &e) == 0)
				continue;
			fprintf(stderr, "perft: %s\n", e.msg);
			return 2;
		}
		fprintf(stderr, "perft: bad argument %s %s\n%s", a, v ? v : "", usage);
		return 2;
	}
	s.nplayers = (int)players;
	s.dealer = 0;
	s.seed = (uint64_t)seed;

	struct perft_count c;
	if (perft_run(g, &s, (int)depth, PERFT_NOW_MS, &c, &e) != 0) {
		fprintf(stderr, "%s\n", e.msg);
		return 1;
	}
	for (int d = 0; d <= c.depth; d++)
		printf("perft %s players=%ld seed=%ld depth=%d nodes=%llu ended=%llu hash=%016llx\n",
		       g->slug, players, seed, d, (unsigned long long)c.nodes[d],
		       (unsigned long long)c.ended[d], (unsigned long long)c.hash[d]);
	return 0;
}
