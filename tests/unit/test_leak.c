/*
 * test_leak.c — hidden information never reaches a seat's page or JSON.
 *
 * For every registered game (no per-game code: a game joins by being in
 * games[]) and every player count, many random positions are reached by
 * random legal moves. For each position and each viewer (every seat and the
 * spectator, -1) the table as that viewer sees it is rendered through the
 * real renderers — the view tree (cgi/view.c), JSON (cgi/json.c) and the
 * table page with the game's board template (templates/table.tpl,
 * templates/game-<slug>.tpl, or game-generic.tpl as the page falls back to,
 * via cgi/tmpl.cc) — together with a canonical
 * dump of the tree and the viewer's legal moves. Then game->scramble()
 * re-deals everything that viewer cannot see (other hands, deck order,
 * face-down cards, unrevealed choices, and the kind of a secret choice
 * where the kind is secret too: a DNA seat's card may become a draw and a
 * draw a card, so a count that moves with the kind shows up) and the same
 * is rendered again:
 * every byte must be identical. If a renderer showed anything hidden, the
 * scrambled position would (with overwhelming probability) render
 * differently.
 *
 * So that the test cannot pass vacuously, it also asserts that scramble
 * really changes the hidden part of the state in most positions, keeps
 * check() passing, and that the public status stays the same.
 *
 * A second check proves that a secret step (a pass in a window, a vote)
 * tells nobody else anything, by any signal: in random positions with a
 * window open, every legal move of a seat in it after which the window is
 * still open is applied to a copy; for every other seat and the spectator
 * the page (tree, JSON, HTML, so its length too) must stay byte for byte
 * the same, and so must the public status the platform derives the rest
 * from: who is shown acting, the window, the deadline (when pages reload),
 * the epoch, the turn, the end (public_version and the poll move only when
 * one of them or the spectator's page changes, cgi/engine/move.c public_same) and
 * each other seat's own acting flag ("Meine Tische", the feed).
 *
 * LEAK_POSITIONS (environment) sets the positions per game (default 1500).
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
#include "json.h"
#include "i18n.h"
#include "tmpl.h"
#include "view.h"
#include "pergame.h"
#include "walk.h"

/* Seat names with markup in them: the page must escape them everywhere. */
static const char *const seat_names[GAME_MAX_SEATS] = {
	"<b>null</b>", "eins&zwei", "\"zwei\"", "<script>x</script>", "v'ier",
	"fünf<", "sechs>", "sieben", "acht", "neun"
};

static int have_templates;

/* Loads the real templates once (from $SPIELTISCH_ROOT/templates or ./templates). */
static int setup_templates(void **unused)
{
	(void)unused;
	const char *root = getenv("SPIELTISCH_ROOT");
	char dir[512];
	snprintf(dir, sizeof dir, "%s/templates", root ? root : ".");
	/* the catalogs first: the templates are translated as they load */
	have_templates = i18n_load_root(root ? root : ".") == 0 && tmpl_load(dir) == 0;
	if (!have_templates)
		fprintf(stderr, "test_leak: templates in %s did not load\n", dir);
	return have_templates ? 0 : -1;
}

/* A growing text the canonical dump is written to. */
struct text {
	char *p;
	size_t len, cap;
};

/* Appends s[0..n) to t, growing it (the test fails without memory). */
static void text_add(struct text *t, const char *s, size_t n)
{
	if (t->len + n + 1 > t->cap) {
		size_t cap = (t->cap ? t->cap * 2 : 4096) + n;
		t->p = realloc(t->p, cap);
		assert_non_null(t->p);
		t->cap = cap;
	}
	memcpy(t->p + t->len, s, n);
	t->len += n;
	t->p[t->len] = '\0';
}

/* Appends printf output (at most 1023 bytes) to t. */
static void text_printf(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void text_printf(struct text *t, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	assert_true(n >= 0 && (size_t)n < sizeof tmp);
	text_add(t, tmp, (size_t)n);
}

/* A canonical dump of a view subtree: one line per node, nesting by depth. */
static void dump(struct text *t, const struct view_node *d, int depth)
{
	for (const struct view_node *n = d->first; n; n = n->next) {
		text_printf(t, "%d %d %s", depth, (int)n->kind, n->key ? n->key : "");
		if (n->kind == VIEW_STR || n->kind == VIEW_INCLUDE) {
			text_add(t, " = ", 3);
			text_add(t, n->str, strlen(n->str));
		} else if (n->kind == VIEW_NUM || n->kind == VIEW_FLAG)
			text_printf(t, " = %lld", n->num);
		text_add(t, "\n", 1);
		if (n->kind == VIEW_SECTION || n->kind == VIEW_INCLUDE)
			dump(t, n, depth + 1);
	}
}

/* moves() callback: one item of the section "moves", as the table page has. */
static void emit_move(void *ctx, const char *move)
{
	struct view *v = ctx;
	view_begin(v, "moves");
	view_str(v, "move", move);
	view_end(v);
}

/* Everything `seat` is shown of state st, rendered three ways and appended
 * to out: the canonical tree, the JSON twin, the table page HTML. */
static void render(const struct game *g, const void *st, int nplayers, int seat,
		   struct arena *a, struct text *out)
{
	struct view v;
	view_init(&v, a);
	struct status s;
	g->status(st, &s);
	int can_act = seat >= 0 && !s.over && (s.to_act >> seat & 1u);
	view_num(&v, "table_id", 7);
	view_num(&v, "v", 42);
	view_str(&v, "game_slug", g->slug);
	view_str(&v, "game_title", g->title);
	view_flag(&v, "is_playing", 1);
	view_flag(&v, "seated", seat >= 0);
	view_flag(&v, "can_act", can_act);
	view_str(&v, "move_url", "/t/7/move");
	view_num(&v, "my_seat", seat);
	view_num(&v, "turn_seat", s.turn);
	view_num(&v, "deadline", s.deadline);
	for (int i = 0; i < nplayers; i++) {
		view_begin(&v, "seats");
		view_num(&v, "number", i + 1);
		view_str(&v, "name", seat_names[i]);
		view_flag(&v, "me", i == seat);
		/* as the table page does (play_acting_mask): an open window
		 * marks every seat it is for until it closes */
		view_flag(&v, "acting", (s.window ? s.window : s.to_act) >> i & 1u);
		view_num(&v, "score", s.score[i]);
		view_end(&v);
	}
	view_list(&v, "moves");
	if (seat >= 0)
		g->moves(st, seat, emit_move, &v);
	char file[64];
	snprintf(file, sizeof file, "game-%s.tpl", g->slug);
	/* as the table page does: a game without its own board uses the generic one */
	view_include(&v, "game", tmpl_exists(file) ? file : "game-generic.tpl");
	view_num(&v, "table_id", 7);
	view_num(&v, "v", 42);
	view_str(&v, "csrf", seat >= 0 ? "TOKEN" : "");
	view_str(&v, "move_url", "/t/7/move");
	view_num(&v, "my_seat", seat);
	view_flag(&v, "can_act", can_act);
	view_names(&v, seat_names, nplayers);
	struct view_sink sink;
	view_sink_init(&v, &sink);
	g->view(st, seat, &sink);
	view_names(&v, NULL, 0);
	view_end(&v);
	assert_false(v.failed);

	dump(out, &v.root, 0);
	size_t len = 0;
	char *json = json_render(a, &v.root, &len);
	if (!json)
		fail_msg("%s: view of seat %d does not render as JSON", g->slug, seat);
	text_add(out, json, len);
	char *html = tmpl_expand(a, "table.tpl", &v.root, &len);
	if (!html)
		fail_msg("%s: table page of seat %d does not expand", g->slug, seat);
	/* the names carry markup: it must never come out raw */
	for (int i = 0; i < nplayers; i++)
		if (strstr(html, seat_names[i]) && strpbrk(seat_names[i], "<>&\"'"))
			fail_msg("%s: seat name %d appears unescaped in the page", g->slug, i);
	text_add(out, html, len);
}

/* Positions per game: LEAK_POSITIONS when it is a sane number, else 1500. */
static long positions_per_game(void)
{
	const char *e = getenv("LEAK_POSITIONS");
	char *end;
	long n = e ? strtol(e, &end, 10) : 1500;
	if (!e || *end || n < 1 || n > 1000000)
		n = 1500;
	return n;
}

/* The leak check for one game (see the file comment). */
static void leak_check_game(const struct game *g)
{
	long npos = positions_per_game();
	void *st = malloc(g->state_size), *sc = malloc(g->state_size);
	unsigned char *enc_a = malloc(GAME_SNAPSHOT_MAX), *enc_b = malloc(GAME_SNAPSHOT_MAX);
	assert_non_null(st);
	assert_non_null(sc);
	assert_non_null(enc_a);
	assert_non_null(enc_b);
	struct arena a;
	arena_init(&a, 64u << 20);
	struct text before = { 0 }, after = { 0 };
	long viewers = 0, changed = 0, renders = 0;
	struct rng rng;
	rng_seed(&rng, 0x1eaca5e);

	for (long pos = 0; pos < npos; pos++) {
		struct setup s;
		struct rerr e;
		/* half the positions with default options, half with random ones */
		int steps = walk_position(g, st, &s, &rng, pos, 400, &e);
		if (steps == -2)
			continue; /* an option combination the game refuses */
		if (steps < 0)
			fail_msg("%s: random walk failed: %s", g->slug, e.msg);
		struct status s0, s1;
		g->status(st, &s0);
		/* every other position in English: a translation must not tell
		 * more than the German (a count, a name the seat cannot know) */
		i18n_use(pos % 2 ? LANG_EN : LANG_DE);
		struct buf ba = { enc_a, 0, GAME_SNAPSHOT_MAX, 0 };
		assert_int_equal(g->encode(st, &ba), 0);

		for (int seat = -1; seat < s.nplayers; seat++) {
			before.len = after.len = 0;
			render(g, st, s.nplayers, seat, &a, &before);
			memcpy(sc, st, g->state_size);
			g->scramble(sc, seat, rng_next(&rng));
			if (g->check(sc, &e) != 0)
				fail_msg("%s: scramble for seat %d broke an invariant: %s", g->slug,
					 seat, e.msg);
			g->status(sc, &s1);
			if (memcmp(&s0, &s1, sizeof s0) != 0) {
				int d = -1;
				for (int i = 0; i < GAME_MAX_SEATS; i++)
					if (s0.score[i] != s1.score[i])
						d = i;
				fail_msg("%s: scramble for seat %d changed the public status: over "
					 "%d/%d to_act %x/%x turn %d/%d deadline %lld/%lld epoch "
					 "%u/%u score[%d] %d/%d", g->slug, seat, s0.over, s1.over,
					 s0.to_act, s1.to_act, s0.turn, s1.turn,
					 (long long)s0.deadline, (long long)s1.deadline, s0.epoch,
					 s1.epoch, d, d >= 0 ? s0.score[d] : 0,
					 d >= 0 ? s1.score[d] : 0);
			}
			struct buf bb = { enc_b, 0, GAME_SNAPSHOT_MAX, 0 };
			assert_int_equal(g->encode(sc, &bb), 0);
			changed += ba.len != bb.len || memcmp(ba.p, bb.p, ba.len) != 0;
			viewers++;
			render(g, sc, s.nplayers, seat, &a, &after);
			renders += 2;
			if (before.len != after.len || memcmp(before.p, after.p, before.len) != 0) {
				size_t k = 0;
				while (k < before.len && k < after.len && before.p[k] == after.p[k])
					k++;
				size_t from = k > 200 ? k - 200 : 0;
				fail_msg("%s, %d players, position %ld after %d steps: seat %d sees "
					 "hidden information. First difference at byte %zu:\n"
					 "--- before ...%.300s\n--- after ...%.300s",
					 g->slug, s.nplayers, pos, steps, seat, k, before.p + from,
					 after.p + from);
			}
			arena_reset(&a);
		}
	}
	/* Scramble must really re-deal: otherwise the comparison proves nothing. */
	fprintf(stderr, "test_leak: %s: %ld positions, %ld viewers, %ld renderings, "
		"scramble changed the state for %ld viewers\n", g->slug, npos, viewers, renders,
		changed);
	if (changed * 10 < viewers * 9)
		fail_msg("%s: scramble changed the hidden state for only %ld of %ld viewers",
			 g->slug, changed, viewers);
	free(before.p);
	free(after.p);
	arena_free(&a);
	free(st);
	free(sc);
	free(enc_a);
	free(enc_b);
}

struct move_list {
	char m[64][GAME_MOVE_MAX + 1];
	int n;
};

/* moves() callback: keeps the first 64 moves. */
static void keep_move(void *ctx, const char *move)
{
	struct move_list *l = ctx;
	if (l->n < 64)
		snprintf(l->m[l->n++], sizeof l->m[0], "%s", move);
}

/* What the platform shows of a status to everybody (see the file comment). */
static int same_public(const struct status *a, const struct status *b, int seat)
{
	uint32_t ma = a->window ? a->window : a->to_act, mb = b->window ? b->window : b->to_act;
	return a->over == b->over && a->turn == b->turn && ma == mb && a->window == b->window &&
	       a->deadline == b->deadline && a->epoch == b->epoch &&
	       (seat < 0 || ((a->to_act ^ b->to_act) >> seat & 1u) == 0);
}

/* The secret-step check for one game (see the file comment). */
static void secret_check_game(const struct game *g)
{
	long npos = positions_per_game() / 3 + 1, steps_checked = 0;
	void *st = malloc(g->state_size), *after = malloc(g->state_size);
	assert_non_null(st);
	assert_non_null(after);
	struct arena a;
	arena_init(&a, 64u << 20);
	struct text before = { 0 }, seen = { 0 };
	struct rng rng;
	rng_seed(&rng, 0x5ec12e7);
	int span = g->max_players - g->min_players + 1;
	static struct move_list ml;
	for (long pos = 0; pos < npos; pos++) {
		struct setup s;
		struct rerr e;
		walk_setup_from(g, &s, (unsigned)(pos % span), (unsigned)rng_below(&rng, 16),
				rng_next(&rng), NULL, 0);
		if (game_setup(g, st, &s, &e) != 0)
			continue;
		int64_t now = 1000000;
		if (walk_random(g, st, &rng, &now, (int)rng_below(&rng, 300), NULL, NULL, 0, &e) < 0)
			fail_msg("%s: random walk failed: %s", g->slug, e.msg);
		struct status s0, s1;
		g->status(st, &s0);
		if (!s0.window || s0.over)
			continue;
		for (int q = 0; q < s.nplayers; q++) {
			if (!((s0.window & s0.to_act) >> q & 1u))
				continue;
			ml.n = 0;
			g->moves(st, q, keep_move, &ml);
			for (int k = 0; k < ml.n; k++) {
				memcpy(after, st, g->state_size);
				if (g->apply(after, q, ml.m[k], now + 1, &e) != 0)
					fail_msg("%s: listed move '%s' refused: %s", g->slug, ml.m[k],
						 e.msg);
				g->status(after, &s1);
				if (s1.window != s0.window || s1.deadline != s0.deadline ||
				    s1.epoch != s0.epoch || s1.over)
					continue;   /* the window closed or moved on: public */
				steps_checked++;
				for (int r = -1; r < s.nplayers; r++) {
					if (r == q)
						continue;
					if (!same_public(&s0, &s1, r))
						fail_msg("%s: seat %d's '%s' changes the public status "
							 "seat %d sees", g->slug, q, ml.m[k], r);
					before.len = seen.len = 0;
					render(g, st, s.nplayers, r, &a, &before);
					render(g, after, s.nplayers, r, &a, &seen);
					if (before.len != seen.len ||
					    memcmp(before.p, seen.p, before.len) != 0) {
						size_t x = 0;
						while (x < before.len && before.p[x] == seen.p[x])
							x++;
						size_t from = x > 200 ? x - 200 : 0;
						fail_msg("%s: seat %d's '%s' shows on the page of seat %d "
							 "(%zu → %zu bytes):\n--- before ...%.300s\n"
							 "--- after ...%.300s", g->slug, q, ml.m[k], r,
							 before.len, seen.len, before.p + from,
							 seen.p + from);
					}
					arena_reset(&a);
				}
			}
		}
	}
	fprintf(stderr, "test_leak: %s: %ld secret steps checked against every other "
		"viewer\n", g->slug, steps_checked);
	free(before.p);
	free(seen.p);
	arena_free(&a);
	free(st);
	free(after);
}

/* One cmocka test per registered game, so a failure names the game. */
static void test_game(void **state)
{
	leak_check_game(*state);
	secret_check_game(*state);
}

/* Runs the leak check once per registered game, after loading the templates. */
int main(void)
{
	return run_per_game("leak", test_game, setup_templates);
}
