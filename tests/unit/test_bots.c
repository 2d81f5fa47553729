/* test_bots.c — the bots of rules/bot.h, for every registered game: they
 * play whole parties with legal moves only, at every level and player
 * count; they choose the same move whatever the cards their seat cannot see
 * are; the same seed gives the same choice; a greedy seat wins more often
 * than a random one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bot.h"
#include "game.h"
#include "options.h"
#include "walk.h"

struct scratch {
	void *st, *copy;
	struct bot_mem m;
};

static struct scratch *scratch_for(const struct game *g)
{
	struct scratch *x = calloc(1, sizeof *x);
	assert_non_null(x);
	x->st = calloc(1, g->state_size);
	x->copy = calloc(1, g->state_size);
	x->m.seen = calloc(1, g->state_size);
	x->m.trial = calloc(1, g->state_size);
	assert_true(x->st && x->copy && x->m.seen && x->m.trial);
	return x;
}

static void scratch_free(struct scratch *x)
{
	free(x->st);
	free(x->copy);
	free(x->m.seen);
	free(x->m.trial);
	free(x);
}

/* Bots play every game to its end at every player count, greedy and random
 * mixed: every move they choose is accepted and the end state checks. */
static void test_bots_play_whole_parties(void **u)
{
	(void)u;
	for (int gi = 0; gi < ngames; gi++) {
		const struct game *g = games[gi];
		struct scratch *x = scratch_for(g);
		for (int p = g->min_players; p <= g->max_players; p++)
			for (int k = 0; k < 3; k++) {
				struct setup s = { .nplayers = p, .dealer = k % p, .seed = 77u + (uint64_t)k };
				struct rerr e;
				enum bot_level level[GAME_MAX_SEATS];
				int place[GAME_MAX_SEATS];
				options_default(g, s.opt);
				for (int q = 0; q < p; q++)
					level[q] = (q + k) % 2 ? BOT_GREEDY : BOT_RANDOM;
				if (bot_party(g, &s, level, (uint64_t)k, 100000, x->st, &x->m, place, &e) != 0)
					fail_msg("%s, %d players, party %d: %s", g->slug, p, k, e.msg);
				assert_int_equal(g->check(x->st, &e), 0);
				int first = 0;
				for (int q = 0; q < p; q++) {
					assert_true(place[q] >= 1 && place[q] <= p);
					first += place[q] == 1;
				}
				assert_true(first >= 1);
			}
		scratch_free(x);
	}
}

/* A bot's move does not depend on what its seat cannot see: re-dealing
 * the hidden cards (scramble) leaves its choice, at both levels, as it was;
 * and the same seed chooses the same move. */
static void test_bots_see_only_their_seat(void **u)
{
	(void)u;
	for (int gi = 0; gi < ngames; gi++) {
		const struct game *g = games[gi];
		struct scratch *x = scratch_for(g);
		int checked = 0;
		for (unsigned party = 0; party < 12; party++) {
			struct setup s;
			struct rerr e;
			struct rng r;
			int64_t now = 1000000;
			walk_setup_from(g, &s, party, party * 5, 500u + party, NULL, 0);
			assert_int_equal(game_setup(g, x->st, &s, &e), 0);
			rng_seed(&r, party);
			for (int step = 0; step < 120; step++) {
				struct status st;
				g->status(x->st, &st);
				if (st.over)
					break;
				for (int seat = 0; seat < s.nplayers; seat++) {
					if (!((st.to_act >> seat) & 1u))
						continue;
					for (int lv = 0; lv < BOT__MAX; lv++) {
						char a[GAME_MOVE_MAX + 1], b[GAME_MOVE_MAX + 1], c[GAME_MOVE_MAX + 1];
						uint64_t seed = (uint64_t)step * 31u + (uint64_t)seat;
						assert_int_equal(bot_choose(g, x->st, s.nplayers, seat, lv, seed, now,
									    &x->m, a), 0);
						assert_int_equal(bot_choose(g, x->st, s.nplayers, seat, lv, seed, now,
									    &x->m, c), 0);
						assert_string_equal(a, c);
						memcpy(x->copy, x->st, g->state_size);
						g->scramble(x->copy, seat, 0xfeedu + (uint64_t)step);
						assert_int_equal(bot_choose(g, x->copy, s.nplayers, seat, lv, seed,
									    now, &x->m, b), 0);
						if (strcmp(a, b) != 0)
							fail_msg("%s, party %u step %d, seat %d, %s: '%s', but '%s' "
								 "once the hidden cards are re-dealt", g->slug, party,
								 step, seat, bot_level_name[lv], a, b);
						checked++;
					}
				}
				if (walk_step(g, x->st, &r, &now, NULL, NULL, 0, &e) != 1)
					break;
			}
		}
		print_message("%s: %d bot choices compared\n", g->slug, checked);
		assert_true(checked > 100);
		scratch_free(x);
	}
}

/* Parties per game and player count in test_greedy_beats_random, and the
 * margin: the greedy seat's wins must exceed a random seat's (the random
 * seats' wins over their number) by a quarter. */
enum { VERSUS_PARTIES = 300, VERSUS_SEED = 1, VERSUS_NUM = 5, VERSUS_DEN = 4 };

/* A greedy seat beats a random one at every game and player count, with
 * the default options (issue: greedy lost at Drachenrummy with two
 * players and was at chance with three, and at DNA with nine): the
 * parties of `spieltisch bots` (bot_versus), a fixed seed and number.
 * Across seeds 1 to 20 the smallest ratio of every count stayed above
 * the margin (docs/benchmarks.md, "Bot strength"), so this passing is no
 * luck of the seed. */
static void test_greedy_beats_random(void **u)
{
	(void)u;
	for (int gi = 0; gi < ngames; gi++) {
		const struct game *g = games[gi];
		struct scratch *x = scratch_for(g);
		for (int p = g->min_players; p <= g->max_players; p++) {
			struct setup s = { .nplayers = p };
			struct bot_versus r;
			struct rerr e;
			options_default(g, s.opt);
			bot_versus(g, &s, VERSUS_PARTIES, VERSUS_SEED, 100000, x->st, &x->m, &r, &e);
			if (r.failed)
				fail_msg("%s, %d players: %ld parties failed: %s", g->slug, p, r.failed,
					 e.msg);
			assert_int_equal(r.played, VERSUS_PARTIES);
			double greedy = (double)r.greedy_wins / (double)r.played;
			double random = (double)r.random_wins / (double)r.played / (double)(p - 1);
			print_message("%s, %d players: greedy won %.1f%%, a random seat %.1f%%\n",
				      g->slug, p, 100.0 * greedy, 100.0 * random);
			if (r.greedy_wins * (p - 1) * VERSUS_DEN <= r.random_wins * VERSUS_NUM)
				fail_msg("%s, %d players: the greedy seat won %.1f%% of %d parties, a "
					 "random seat %.1f%%: not %d/%d of it", g->slug, p, 100.0 * greedy,
					 VERSUS_PARTIES, 100.0 * random, VERSUS_NUM, VERSUS_DEN);
		}
		scratch_free(x);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bots_play_whole_parties),
		cmocka_unit_test(test_bots_see_only_their_seat),
		cmocka_unit_test(test_greedy_beats_random),
	};
	return cmocka_run_group_tests_name("bots", tests, NULL, NULL);
}
