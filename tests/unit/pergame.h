/* pergame.h — a unit test run once per registered game, so that a failure
 * names the game: each test gets the game as its state (*state). */
#ifndef SPIELTISCH_PERGAME_H
#define SPIELTISCH_PERGAME_H

#include <stdlib.h>

#include "game.h"

/* Runs f once per game in cmocka group `group`, after setup (may be NULL). */
static inline int run_per_game(const char *group, CMUnitTestFunction f,
			       CMFixtureFunction setup)
{
	struct CMUnitTest *tests = calloc((size_t)ngames, sizeof *tests);
	assert_non_null(tests);
	for (int i = 0; i < ngames; i++) {
		tests[i].name = games[i]->slug;
		tests[i].test_func = f;
		tests[i].initial_state = (void *)games[i];
	}
	int rc = _cmocka_run_group_tests(group, tests, (size_t)ngames, setup, NULL);
	free(tests);
	return rc;
}

#endif
