/* registry.c — the one table of games. A new game is one line here (and its
 * file in rules/, its templates); nothing else in the platform changes. */
#include <string.h>

#include "game.h"

extern const struct game drehwurm_game;
extern const struct game dna_game;

const struct game *const games[] = {
	&drehwurm_game,
	&dna_game,
};
const int ngames = (int)(sizeof games / sizeof games[0]);

const struct game_coming games_coming[] = {
	{ "worst-game-ever", "Worst Game Ever", 2, 8 },
	{ "drachenrummy", "Drachenrummy", 2, 5 },
	{ "wurf-und-wort", "Wurf & Wort", 3, 8 },
};
const int ngames_coming = (int)(sizeof games_coming / sizeof games_coming[0]);

const struct game *game_find(const char *slug)
{
	for (int i = 0; i < ngames; i++)
		if (slug && strcmp(games[i]->slug, slug) == 0)
			return games[i];
	return NULL;
}
