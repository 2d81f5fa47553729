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
	{ "worst-game-ever", "Worst Game Ever",
	  "Karten ziehen und einander angreifen, bis jemand keine Chips mehr hat.", 2, 8 },
	{ "drachenrummy", "Drachenrummy",
	  "Mit Würfeln und Karten möglichst viele Kartensets ablegen.", 2, 5 },
	{ "wurf-und-wort", "Wurf & Wort",
	  "Schnell Begriffe finden, die Karten und Würfel vorgeben.", 3, 8 },
};
const int ngames_coming = (int)(sizeof games_coming / sizeof games_coming[0]);

const struct game *game_find(const char *slug)
{
	for (int i = 0; i < ngames; i++)
		if (slug && strcmp(games[i]->slug, slug) == 0)
			return games[i];
	return NULL;
}
