/* registry.c — the one table of games. A new game is one line here (and its
 * file in rules/, its templates); nothing else in the platform changes. */
#include <string.h>

#include "game.h"

extern const struct game drehwurm_game;
extern const struct game dna_game;
extern const struct game drachenrummy_game;
extern const struct game wurfwort_game;
extern const struct game worstgame_game;

const struct game *const games[] = {
	&drehwurm_game,
	&dna_game,
	&drachenrummy_game,
	&wurfwort_game,
	&worstgame_game,
};
const int ngames = (int)(sizeof games / sizeof games[0]);

/* Every announced game is playable now: none to come (the one element is a
 * placeholder, C has no empty arrays). */
const struct game_coming games_coming[1] = { { NULL, NULL, NULL, 0, 0 } };
const int ngames_coming = 0;

const struct game *game_find(const char *slug)
{
	for (int i = 0; i < ngames; i++)
		if (slug && strcmp(games[i]->slug, slug) == 0)
			return games[i];
	return NULL;
}

int game_players_check(const struct game *g, int nplayers, struct rerr *e)
{
	if (nplayers < g->min_players || nplayers > g->max_players || nplayers > GAME_MAX_SEATS)
		return rerr_set(e, "%s spielt man zu %d bis %d.", g->title, g->min_players,
				g->max_players);
	return 0;
}

int game_setup_check(const struct game *g, const struct setup *s, struct rerr *e)
{
	if (game_players_check(g, s->nplayers, e) != 0)
		return -1;
	if (s->dealer < 0 || s->dealer >= s->nplayers)
		return rerr_set(e, "Ungültiger Geber.");
	for (int i = 0; i < g->noptions; i++) {
		const struct game_option *o = &g->options[i];
		if (s->opt[i] < o->min || s->opt[i] > o->max)
			return rerr_set(e, "%s: bitte einen Wert von %d bis %d angeben.", o->label,
					o->min, o->max);
	}
	return 0;
}

int game_setup(const struct game *g, void *st, const struct setup *s, struct rerr *e)
{
	if (game_setup_check(g, s, e) != 0)
		return -1;
	return g->setup(st, s, e);
}
