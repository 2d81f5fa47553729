/* cmd-verbs.c — `spieltisch verbs GAME`: the game's table of verbs as the
 * Markdown table that docs/moves-<game>.md carries between its "verbs"
 * markers; `make docs-check` compares the two (tests/docs-check.sh), so the
 * move docs say what the reader checks. */
#include <stdio.h>

#include "cmd.h"
#include "game.h"
#include "movetext.h"

int cmd_verbs(int argc, char **argv)
{
	const struct game *g = argc == 2 ? game_find(argv[1]) : NULL;
	if (!g) {
		fputs("usage: spieltisch verbs GAME\n", stderr);
		return 2;
	}
	puts("| verb | form | example | a move of another form is told |");
	puts("|---|---|---|---|");
	for (int i = 0; i < g->nverbs; i++) {
		const struct mt_verb *v = &g->verbs[i];
		printf("| `%s` | `%s` | `%s` | %s |\n", v->shown ? v->shown : v->word, v->form,
		       v->example, v->usage);
	}
	return 0;
}
