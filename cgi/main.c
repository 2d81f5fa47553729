/* main.c — the one program: `spieltisch serve` (FastCGI), `sim`, `perft`, `verbs`, `bots`, `games`, `mail`, `lexicon`, `replay`, `migrate`. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *usage;
} commands[] = {
	{ "serve", cmd_serve, "serve [--socket PATH] [--workers N] [--db FILE|postgresql://...] [--root DIR] [--secure-cookies]" },
	{ "games", cmd_games, "games   (one line per game: slug, fewest and most players)" },
	{ "sim", cmd_sim, "sim GAME [--games N] [--players P] [--seed S] [--opt KEY=VALUE]... [--bench]" },
	{ "perft", cmd_perft, "perft GAME [--players P] [--seed S] [--depth D] [--opt KEY=VALUE]..." },
	{ "bots", cmd_bots, "bots GAME [--games N] [--players P] [--seed S] [--opt KEY=VALUE]... [--timing [--level L]]" },
	{ "mail", cmd_mail, "mail --db FILE --sendmail CMD --base URL --from ADDR [--root DIR] [--once]" },
	{ "lexicon", cmd_lexicon, "lexicon hyph DIC OUT | lexicon words LIST OUT   (compiled for mapping, cgi/lexfile.h)" },
	{ "replay", cmd_replay, "replay FILE   (plays a party's export, /t/<id>/replay.txt, back and checks it)" },
	{ "migrate", cmd_migrate, "migrate --from FILE.db --to postgresql://... [--root DIR]   (moves a site to PostgreSQL, docs/scaling.md)" },
	{ "verbs", cmd_verbs, "verbs GAME   (the move language's verbs, as in docs/moves-GAME.md)" },
};

static int usage(void)
{
	fprintf(stderr, "usage:\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(stderr, "  spieltisch %s\n", commands[i].usage);
	return 2;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage();
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].fn(argc - 1, argv + 1);
	return usage();
}
