/*
 * test_replay.c — a running party's replay shows a seat nothing its own
 * page did not show at that step (cgi/engine/replay.c, play_replay_frames).
 *
 * For every registered game (no per-game code) and every player count,
 * random parties are played by random legal moves (tests/walk.h) with
 * their log. For every viewer (each seat and the spectator, -1) the frames
 * a running party's replay steps through are taken from the log, and:
 *   - every frame is a position that seat's page showed: the position
 *     after a step, and the positions between two frames look the same to
 *     it (play_view_sig: its view and the public status), so no step it
 *     saw is left out and none it did not see gets a frame of its own;
 *     the last frame is the position its page shows now;
 *   - the leak test's scramble applied to every step: re-dealing what the
 *     seat cannot see (game->scramble) changes neither what it sees of any
 *     position (so where the frames fall tells nothing hidden) nor the
 *     replay page of any frame, rendered through the real renderers (the
 *     view tree, JSON, templates/replay.tpl with the game's board): byte
 *     for byte the same;
 *   - a finished party's replay has one frame per step.
 * So that the test cannot pass vacuously, it counts the steps a seat did
 * not see (folded into the next frame) and the states scramble changed.
 *
 * REPLAY_PARTIES (environment) sets the parties per game and player count
 * (default 1: every player count of every game once; more with the environment).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "game.h"
#include "i18n.h"
#include "json.h"
#include "pergame.h"
#include "play.h"
#include "tmpl.h"
#include "view.h"
#include "walk.h"

enum { STEPS_MAX = 400 };

static const char *const seat_names[GAME_MAX_SEATS] = {
	"Anna", "Bert", "Cem", "Dana", "Emil", "Fritzi", "Gül", "Hans", "Ida", "Jan"
};

static int setup_templates(void **unused)
{
	(void)unused;
	const char *root = getenv("SPIELTISCH_ROOT");
	char dir[512];
	snprintf(dir, sizeof dir, "%s/templates", root ? root : ".");
	if (i18n_load_root(root ? root : ".") != 0 || tmpl_load(dir) != 0) {
		fprintf(stderr, "test_replay: templates in %s did not load\n", dir);
		return -1;
	}
	return 0;
}

/* The replay page of one position for `seat` (what page-replay.c puts
 * around the board that depends on the position): the JSON of the tree
 * and templates/replay.tpl expanded, appended to out (malloc'd). */
static char *render(const struct game *g, const void *st, int nplayers, int seat,
		    struct arena *a, size_t *outlen)
{
	struct view v;
	struct status s;
	view_init(&v, a);
	g->status(st, &s);
	view_str(&v, "game_title", g->title);
	view_flag(&v, "replay", 1);
	view_flag(&v, "party_running", 1);
	view_list(&v, "seats");
	for (int i = 0; i < nplayers; i++) {
		view_begin(&v, "seats");
		view_num(&v, "number", i + 1);
		view_str(&v, "name", seat_names[i]);
		view_flag(&v, "me", i == seat);
		view_num(&v, "score", s.score[i]);
		view_flag(&v, "final", s.over);
		view_end(&v);
	}
	char file[64];
	snprintf(file, sizeof file, "game-%s.tpl", g->slug);
	view_include(&v, "game", tmpl_exists(file) ? file : "game-generic.tpl");
	view_str(&v, "csrf", "");
	view_str(&v, "move_url", "");
	view_num(&v, "my_seat", seat);
	view_flag(&v, "can_act", 0);
	view_names(&v, seat_names, nplayers);
	struct view_sink sink;
	view_sink_init(&v, &sink);
	g->view(st, seat, &sink);
	view_names(&v, NULL, 0);
	view_end(&v);
	assert_false(v.failed);
	size_t jl = 0, hl = 0;
	char *json = json_render(a, &v.root, &jl);
	char *html = tmpl_expand(a, "replay.tpl", &v.root, &hl);
	assert_non_null(json);
	assert_non_null(html);
	char *out = malloc(jl + hl + 1);
	assert_non_null(out);
	memcpy(out, json, jl);
	memcpy(out + jl, html, hl);
	*outlen = jl + hl;
	return out;
}

struct tally {
	long parties, frames, steps_folded, scrambled, compared;
};

/* The frames of one logged party for one viewer, checked as above. */
static void check_viewer(const struct game *g, const struct setup *su,
			 const struct sim_step *log, int n, int seat, void *states,
			 struct arena *a, struct rng *rng, struct tally *t)
{
	size_t sz = g->state_size;
	int fs[STEPS_MAX + 1];
	void *scratch = malloc(sz), *sc = malloc(sz);
	assert_non_null(scratch);
	assert_non_null(sc);
	struct rerr e;
	int nf = play_replay_frames(g, su, log, n, seat, 0, fs, scratch, &e);
	if (nf < 1)
		fail_msg("%s: the log does not replay: %s", g->slug, e.msg);
	assert_int_equal(fs[0], 0);
	t->frames += nf;
	/* every step: a frame, or a position the seat sees as the frame before */
	int f = 0;
	uint64_t shown = play_view_sig(g, states, seat);
	for (int k = 1; k <= n; k++) {
		const void *pos = (const char *)states + (size_t)k * sz;
		uint64_t now = play_view_sig(g, pos, seat);
		int framed = f + 1 < nf && fs[f + 1] == k;
		if (framed) {
			f++;
			shown = now;
		} else {
			if (now != shown)
				fail_msg("%s: seat %d saw step %d change its page, but the replay "
					 "has no frame for it", g->slug, seat, k);
			if (seat >= 0 && log[k - 1].seat == seat)
				fail_msg("%s: seat %d's own step %d has no frame", g->slug, seat, k);
			t->steps_folded++;
		}
		/* scramble applied to every step: what the seat sees stays */
		memcpy(sc, pos, sz);
		g->scramble(sc, seat, rng_next(rng));
		t->scrambled += memcmp(sc, pos, sz) != 0;
		if (play_view_sig(g, sc, seat) != now)
			fail_msg("%s: seat %d: scrambling step %d changes what it sees", g->slug,
				 seat, k);
		if (!framed)
			continue;
		/* the frame's page, byte for byte */
		size_t la, lb;
		char *x = render(g, pos, su->nplayers, seat, a, &la);
		char *y = render(g, sc, su->nplayers, seat, a, &lb);
		if (la != lb || memcmp(x, y, la) != 0)
			fail_msg("%s: seat %d: the replay of step %d shows hidden information",
				 g->slug, seat, k);
		t->compared++;
		free(x);
		free(y);
		arena_reset(a);
	}
	assert_int_equal(f, nf - 1);   /* the last frame is the page's position */
	assert_int_equal(play_replay_frames(g, su, log, n, seat, 1, fs, scratch, &e), n + 1);
	free(scratch);
	free(sc);
}

static long parties_per_count(void)
{
	const char *v = getenv("REPLAY_PARTIES");
	char *end;
	long n = v ? strtol(v, &end, 10) : 1;
	return v && (*end || n < 1 || n > 10000) ? 1 : n;
}

static void replay_check_game(const struct game *g)
{
	struct sim_step *log = calloc(STEPS_MAX, sizeof *log);
	void *states = malloc(g->state_size * (STEPS_MAX + 1));
	assert_non_null(log);
	assert_non_null(states);
	struct arena a;
	arena_init(&a, 32u << 20);
	struct rng rng;
	rng_seed(&rng, 0x5e1740);
	struct tally t = { 0 };
	long per = parties_per_count();
	for (int np = g->min_players; np <= g->max_players; np++)
		for (long k = 0; k < per; k++) {
			struct setup su;
			struct rerr e;
			walk_setup_from(g, &su, (unsigned)(np - g->min_players),
					(unsigned)rng_below(&rng, 16), rng_next(&rng), NULL, 0);
			if (game_setup(g, states, &su, &e) != 0)
				continue;
			/* the walk on a copy, every position kept */
			int n = 0;
			int64_t now = 1000000;
			for (int s = 0; s < STEPS_MAX; s++) {
				void *next = (char *)states + (size_t)(n + 1) * g->state_size;
				memcpy(next, (char *)states + (size_t)n * g->state_size,
				       g->state_size);
				int was = n;
				int r = walk_step(g, next, &rng, &now, log, &n, STEPS_MAX, &e);
				if (r < 0)
					fail_msg("%s: random walk failed: %s", g->slug, e.msg);
				if (r == 0)
					break;
				if (n == was)   /* a tick that changed nothing is not logged */
					memcpy((char *)states + (size_t)n * g->state_size, next,
					       g->state_size);
			}
			i18n_use(k % 2 ? LANG_EN : LANG_DE);
			for (int seat = -1; seat < np; seat++)
				check_viewer(g, &su, log, n, seat, states, &a, &rng, &t);
			t.parties++;
		}
	fprintf(stderr, "test_replay: %s: %ld parties, %ld frames, %ld steps a seat did not "
		"see, %ld frames compared, scramble changed %ld states\n", g->slug, t.parties,
		t.frames, t.steps_folded, t.compared, t.scrambled);
	assert_true(t.parties > 0);
	assert_true(t.compared > 0);
	assert_true(t.scrambled > 0);
	arena_free(&a);
	free(states);
	free(log);
}

static void test_game(void **state)
{
	replay_check_game((const struct game *)*state);
}

int main(void)
{
	return run_per_game("test_replay", test_game, setup_templates);
}
