/* test_drehwurm.c — every sentence of the Drehwurm rule text and every
 * ruling, as named tests; the move language's rejections; snapshots;
 * hidden information; known answers; thousands of simulated parties.
 *
 * The game file is included so that a test can lay out a position card by
 * card (build() below) without any test hook in the game itself. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drehwurm.c"
#include "arena.h"
#include "options.h"
#include "sim.h"
#include "tmpl.h"
#include "view.h"
#include "unit/viewtext.h"

static const struct game *const G = &drehwurm_game;
static const int64_t T0 = 1000000;

/* Where a party is, in the tests' words: a regular turn, a snap window
 * open, or over (the game keeps it as prompts, rules/prompt.h). */
enum { DW_PLAY, DW_SNAP, DW_OVER };

static int phase(const struct dw_state *st)
{
	return st->end_reason != DW_END_NONE ? DW_OVER : snap_stack(st) >= 0 ? DW_SNAP : DW_PLAY;
}

/* The seats still waiting on the open snap window (0: none open). */
static uint32_t pending(const struct dw_state *st)
{
	return snap_stack(st) >= 0 ? prompt_peek(&st->pr)->waiting : 0;
}

/* ---- helpers -------------------------------------------------------- */

/* A position written as card words. Stacks list bottom first, top last;
 * the pile lists the next card to draw first; eaten is "rot: gelb-4 rot-5"
 * (one stack) or "rot: … | blau: …" (two). Worm cards not named anywhere
 * fill the draw pile below the named cards up to pile_n (0: all of them),
 * and the rest go into the middle of stack 3, where no turn-over shows
 * them. Hands name chickens as huhn-FARBE. */
struct spec {
	int n, turn, snap_colour, snap_seconds, pile_n;
	const char *hand[DW_SEATS];
	const char *stack[DW_STACKS];
	const char *pile;
	const char *eaten[DW_SEATS];
};

/* The first card id of the named face not yet used. */
static int take_card(const char *w, uint8_t *used)
{
	struct dw_card f;
	if (strncmp(w, "huhn-", 5) == 0) {
		int c = parse_colour(w + 5);
		assert_true(c >= 0);
		f = (struct dw_card){ DW_CHICKEN, (uint8_t)c, 0 };
	} else {
		if (parse_worm(w, &f) != 0)
			fail_msg("test spec names no card: %s", w);
	}
	for (int id = 0; id < DW_CARDS; id++)
		if (!used[id] && dw_deck[id].kind == f.kind && dw_deck[id].colour == f.colour &&
		    dw_deck[id].rank == f.rank) {
			used[id] = 1;
			return id;
		}
	fail_msg("test spec uses more %s than the deck has", w);
	return -1;
}

/* Reads the words of list into ids; returns how many. */
static int take_list(const char *list, uint8_t *used, uint16_t *ids)
{
	char buf[600], *save = NULL;
	int n = 0;
	if (!list)
		return 0;
	snprintf(buf, sizeof buf, "%s", list);
	for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
		ids[n++] = (uint16_t)take_card(w, used);
	return n;
}

static void build(struct dw_state *st, const struct spec *sp)
{
	uint8_t used[DW_CARDS] = { 0 };
	uint16_t ids[DW_CARDS];
	struct rerr e;
	memset(st, 0, sizeof *st);
	st->nplayers = sp->n;
	prompt_push(&st->pr, DW_PR_TURN, 0);
	set_turn(st, sp->turn);
	st->dealer = seat_from(sp->turn, sp->n - 1, sp->n);
	st->snap_colour = sp->snap_colour;
	st->snap_seconds = sp->snap_seconds ? sp->snap_seconds : 10;
	rng_seed(&st->rng, 99);
	for (int s = 0; s < sp->n; s++) {
		int m = take_list(sp->hand[s], used, ids);
		for (int i = 0; i < m; i++)
			hand_insert(st, s, ids[i]);
		if (!sp->eaten[s])
			continue;
		char buf[600], *save = NULL;
		snprintf(buf, sizeof buf, "%s", sp->eaten[s]);
		for (char *part = strtok_r(buf, "|", &save); part; part = strtok_r(NULL, "|", &save)) {
			char *colon = strchr(part, ':');
			assert_non_null(colon);
			*colon = '\0';
			char cw[16];
			sscanf(part, "%15s", cw);
			char hw[24];
			snprintf(hw, sizeof hw, "huhn-%s", cw);
			struct dw_eaten *ea = &st->eaten[s][st->neaten[s]++];
			ea->chicken = (uint16_t)take_card(hw, used);
			ea->n = take_list(colon + 1, used, ea->c);
		}
	}
	for (int k = 0; k < DW_STACKS; k++)
		st->stack[k].n = take_list(sp->stack[k], used, st->stack[k].c);
	uint16_t named[DW_WORMS];
	int nnamed = take_list(sp->pile, used, named);
	uint16_t rest[DW_WORMS];
	int nrest = 0;
	for (int id = 0; id < DW_WORMS; id++)
		if (!used[id])
			rest[nrest++] = (uint16_t)id;
	int want = sp->pile_n ? sp->pile_n - nnamed : nrest;
	assert_true(want >= 0 && want <= nrest);
	for (int i = 0; i < want; i++)
		st->pile.c[st->pile.n++] = rest[i];
	for (int i = nnamed - 1; i >= 0; i--)
		st->pile.c[st->pile.n++] = named[i];
	struct dw_pile *mid = &st->stack[2];
	int extra = nrest - want;
	assert_true(mid->n >= 2);
	memmove(mid->c + 1 + extra, mid->c + 1, sizeof mid->c[0] * (size_t)(mid->n - 1));
	memcpy(mid->c + 1, rest + want, sizeof rest[0] * (size_t)extra);
	mid->n += extra;
	for (int id = DW_WORMS; id < DW_CARDS; id++)
		if (!used[id])
			st->spare[st->nspare++] = (uint16_t)id;
	if (dw_check(st, &e) != 0)
		fail_msg("test position breaks an invariant: %s", e.msg);
}

/* The lowest seat in a non-empty mask. */
static int lowest_seat(uint32_t mask)
{
	int s = 0;
	while (!(mask >> s & 1u))
		s++;
	return s;
}

/* Applies a move that must be legal, and checks the invariants after it. */
static void ok(struct dw_state *st, int seat, const char *move)
{
	struct rerr e = { .msg = "" };
	if (G->apply(st, seat, move, T0, &e) != 0)
		fail_msg("'%s' by seat %d rejected: %s", move, seat, e.msg);
	if (G->check(st, &e) != 0)
		fail_msg("after '%s': %s", move, e.msg);
}

/* Applies a move that must be rejected with a message containing `want`,
 * and checks that the state did not change by a single byte. */
static void bad(struct dw_state *st, int seat, const char *move, const char *want)
{
	struct dw_state before;
	struct rerr e = { .msg = "" };
	memcpy(&before, st, sizeof before);
	if (G->apply(st, seat, move, T0, &e) == 0)
		fail_msg("'%s' by seat %d accepted", move, seat);
	if (!strstr(e.msg, want))
		fail_msg("'%s': message '%s' lacks '%s'", move, e.msg, want);
	assert_memory_equal(&before, st, sizeof before);
}

static int top_is(const struct dw_state *st, int k, const char *w)
{
	char name[48];
	int len = 0;
	name[0] = '\0';
	put_card(name, &len, stack_top(st, k));
	return strcmp(name, w) == 0;
}

static int holds(const struct dw_state *st, int seat, const char *w)
{
	struct dw_card f;
	if (strncmp(w, "huhn-", 5) == 0)
		f = (struct dw_card){ DW_CHICKEN, (uint8_t)parse_colour(w + 5), 0 };
	else if (parse_worm(w, &f) != 0)
		return 0;
	return hand_find(st, seat, &f) >= 0;
}

/* Collects moves() output as one string: "\nmove\nmove\n". */
struct mlist {
	char s[8192];
	size_t len;
	int n;
};

static void collect(void *ctx, const char *move)
{
	struct mlist *m = ctx;
	if (m->len == 0)
		m->s[m->len++] = '\n';
	int w = snprintf(m->s + m->len, sizeof m->s - m->len, "%s\n", move);
	assert_true(w > 0 && (size_t)w < sizeof m->s - m->len);
	m->len += (size_t)w;
	m->n++;
}

static void list_moves(const struct dw_state *st, int seat, struct mlist *m)
{
	m->len = 0;
	m->n = 0;
	m->s[0] = '\0';
	G->moves(st, seat, collect, m);
}

static int listed(const struct mlist *m, const char *move)
{
	char line[GAME_MOVE_MAX + 4];
	size_t n = strlen(move);
	if (n > GAME_MOVE_MAX)
		return 0;
	line[0] = '\n';
	memcpy(line + 1, move, n);
	line[n + 1] = '\n';
	line[n + 2] = '\0';
	return m->n > 0 && strstr(m->s, line) != NULL;
}

static int has_move(const struct dw_state *st, int seat, const char *move)
{
	static struct mlist m;
	list_moves(st, seat, &m);
	return listed(&m, move);
}

/* The k-th listed move (0-based), copied out. */
static void nth_move(const struct mlist *m, int k, char *out, size_t cap)
{
	const char *p = m->s + 1;
	for (int i = 0; i < k; i++)
		p = strchr(p, '\n') + 1;
	size_t n = (size_t)(strchr(p, '\n') - p);
	assert_true(n < cap);
	memcpy(out, p, n);
	out[n] = '\0';
}

/* Plays a random legal move of a random seat that may act. */
static void random_step(struct dw_state *st, struct rng *r, int64_t now)
{
	static struct mlist m;
	struct status s;
	char mv[GAME_MOVE_MAX + 1];
	G->status(st, &s);
	assert_int_not_equal(s.to_act, 0);
	int seat;
	do
		seat = (int)rng_below(r, (uint32_t)st->nplayers);
	while (!(s.to_act & (1u << seat)));
	list_moves(st, seat, &m);
	assert_true(m.n > 0);
	nth_move(&m, (int)rng_below(r, (uint32_t)m.n), mv, sizeof mv);
	struct rerr e;
	if (G->apply(st, seat, mv, now, &e) != 0)
		fail_msg("listed move '%s' rejected: %s", mv, e.msg);
}

/* A view sink that writes the tree as text: "key=value", "[section", "]". */
static void view_text(const struct dw_state *st, int seat, struct vtext *t)
{
	struct view_sink v = vt_sink(t);
	G->view(st, seat, &v);
}

static void std_setup(struct dw_state *st, int n, int dealer, uint64_t seed)
{
	struct setup s = { .nplayers = n, .dealer = dealer, .seed = seed };
	struct rerr e;
	options_default(G, s.opt);
	assert_int_equal(game_setup(G, st, &s, &e), 0);
	assert_int_equal(G->check(st, &e), 0);
}

/* A plain position: seat 0 to move, every seat with two chickens. */
static const struct spec base = {
	.n = 3,
	.turn = 0,
	.hand = { "gelb-3 rot-4 huhn-rot huhn-gelb", "blau-7 lila-8 huhn-blau huhn-lila",
		  "grün-2 grün-9 huhn-grün huhn-rot" },
	.stack = { "lila-6 gelb-3", "rot-8 blau-5", "gelb-9 grün-1/10" },
};

/* ---- Spielvorbereitung ---------------------------------------------- */

/* Ruling: 5 colours × (one 1/10 and two each of 2–9), 5 jokers, 3
 * chickens per colour. */
static void test_deck_split(void **u)
{
	(void)u;
	int per[DW_COLOUR__MAX][DW_RANKS + 1] = { { 0 } }, jokers = 0, worms = 0;
	int chickens[DW_COLOUR__MAX] = { 0 };
	for (int id = 0; id < DW_CARDS; id++) {
		const struct dw_card *c = &dw_deck[id];
		if (c->kind == DW_WORM)
			per[c->colour][c->rank]++, worms++;
		else if (c->kind == DW_JOKER)
			jokers++, worms++;
		else
			chickens[c->colour]++;
		/* worm cards first, then chickens: the deal relies on it */
		assert_int_equal(c->kind == DW_CHICKEN, id >= DW_WORMS);
	}
	assert_int_equal(worms, 90);
	assert_int_equal(jokers, 5);
	for (int c = 0; c < DW_COLOUR__MAX; c++) {
		assert_int_equal(per[c][1], 1);
		for (int r = 2; r <= 9; r++)
			assert_int_equal(per[c][r], 2);
		assert_int_equal(chickens[c], 3);
	}
}

static void test_setup_two_chickens_each_rest_unused(void **u)
{
	(void)u;
	struct dw_state st;
	for (int n = 3; n <= 6; n++) {
		std_setup(&st, n, 0, 7u + (unsigned)n);
		for (int s = 0; s < n; s++)
			assert_int_equal(hand_chickens(&st, s), 2);
		assert_int_equal(st.nspare, 15 - 2 * n);
	}
}

/* The chickens are shuffled: over many deals every colour reaches the
 * first seat, and which chickens stay out differs. */
static void test_setup_chickens_shuffled(void **u)
{
	(void)u;
	struct dw_state st;
	int seen[DW_COLOUR__MAX] = { 0 }, spare_first[DW_CHICKENS] = { 0 };
	for (unsigned seed = 1; seed <= 200; seed++) {
		std_setup(&st, 3, 0, seed);
		for (int i = 0; i < st.nhand[1]; i++)
			if (dw_deck[st.hand[1][i]].kind == DW_CHICKEN)
				seen[dw_deck[st.hand[1][i]].colour]++;
		spare_first[st.spare[0] - DW_WORMS]++;
	}
	for (int c = 0; c < DW_COLOUR__MAX; c++)
		assert_in_range(seen[c], 40, 120);
	int distinct = 0;
	for (int i = 0; i < DW_CHICKENS; i++)
		distinct += spare_first[i] > 0;
	assert_true(distinct >= 10);
}

static void test_setup_ten_worms_each(void **u)
{
	(void)u;
	struct dw_state st;
	std_setup(&st, 5, 2, 3);
	for (int s = 0; s < 5; s++)
		assert_int_equal(st.nhand[s] - hand_chickens(&st, s), 10);
}

/* Three stacks of a face-down and a face-up card; the view shows only the top. */
static void test_setup_three_stacks_of_two(void **u)
{
	(void)u;
	struct dw_state st;
	struct vtext t;
	char name[40];
	std_setup(&st, 4, 0, 11);
	view_text(&st, -1, &t);
	for (int k = 0; k < DW_STACKS; k++) {
		assert_int_equal(st.stack[k].n, 2);
		card_label(stack_top(&st, k), name, sizeof name);
		char line[64];
		snprintf(line, sizeof line, "name=%s\n", name);
		assert_non_null(strstr(t.s, line));
		card_label(st.stack[k].c[0], name, sizeof name);
		snprintf(line, sizeof line, "name=%s\n", name);
		/* the face-down card shows nowhere (unless an equal card is on top) */
		if (!same_face(st.stack[k].c[0], stack_top(&st, 0)) &&
		    !same_face(st.stack[k].c[0], stack_top(&st, 1)) &&
		    !same_face(st.stack[k].c[0], stack_top(&st, 2)))
			assert_null(strstr(t.s, line));
	}
}

static void test_setup_rest_is_draw_pile(void **u)
{
	(void)u;
	struct dw_state st;
	for (int n = 3; n <= 6; n++) {
		std_setup(&st, n, 1, 5);
		assert_int_equal(st.pile.n, 90 - 10 * n - 6);
	}
}

/* The deal comes from the seed: the same seed deals the same party. */
static void test_setup_shuffles_by_seed(void **u)
{
	(void)u;
	struct dw_state a, b;
	std_setup(&a, 4, 0, 1234);
	std_setup(&b, 4, 0, 1234);
	assert_memory_equal(&a, &b, sizeof a);
	std_setup(&b, 4, 0, 1235);
	assert_memory_not_equal(a.pile.c, b.pile.c, sizeof a.pile.c);
}

/* ---- Spielablauf: match ------------------------------------------------ */

static void test_match_has_one_party_per_player(void **u)
{
	(void)u;
	int opt[GAME_OPT_MAX];
	options_default(G, opt);
	for (int n = 3; n <= 6; n++)
		assert_int_equal(G->parties(n, opt), n);
}

/* Each party another dealer, clockwise; the dealer's left neighbour starts. */
static void test_match_dealer_rotates_left_starts(void **u)
{
	(void)u;
	struct dw_state st;
	struct status s;
	for (int party = 0; party < 4; party++) {
		int dealer = match_dealer(party, 2, 4);
		assert_int_equal(dealer, (2 + party) % 4);
		std_setup(&st, 4, dealer, 50u + (unsigned)party);
		G->status(&st, &s);
		assert_int_equal(s.turn, seat_next(dealer, 4));
		assert_int_equal(s.to_act, 1u << seat_next(dealer, 4));
	}
}

/* After everyone dealt once, the highest total wins; ties share. */
static void test_match_ties_share_the_win(void **u)
{
	(void)u;
	struct match_totals m = { 0 };
	int p1[3] = { 5, 2, 7 }, p2[3] = { 4, 6, 2 }, p3[3] = { 0, 0, 0 };
	match_add_party(&m, p1, 3);
	match_add_party(&m, p2, 3);
	match_add_party(&m, p3, 3);
	assert_int_equal(m.parties, G->parties(3, NULL));
	assert_int_equal(match_leaders(&m, 3), (1u << 0) | (1u << 2));
}

/* ---- Spielablauf: one card per move ----------------------------------- */

static void test_one_card_per_move(void **u)
{
	(void)u;
	struct dw_state st;
	build(&st, &base);
	bad(&st, 0, "play gelb-3 rot-4 on 2", "play KARTE on STAPEL");
	ok(&st, 0, "play rot-4 on 1");
	assert_int_equal(st.nhand[0], 3);
	while (phase(&st) == DW_SNAP)
		ok(&st, lowest_seat(pending(&st)), "pass");
	bad(&st, 0, "play gelb-3 on 1", "nicht am Zug");
}

/* ---- (A) Wurmkarte ---------------------------------------------------- */

static void test_worm_needs_other_colour(void **u)
{
	(void)u;
	struct dw_state st;
	struct spec sp = base;
	sp.hand[0] = "gelb-4 blau-4 huhn-rot huhn-gelb";
	build(&st, &sp);
	bad(&st, 0, "play gelb-4 on 1", "Farbe muss eine andere sein");
	assert_false(has_move(&st, 0, "play gelb-4 on 1"));
	ok(&st, 0, "play blau-4 on 1");
}

static void test_worm_needs_neighbouring_number(void **u)
{
	(void)u;
	struct dw_state st;
	struct spec sp = base;
	sp.hand[0] = "rot-5 rot-2 huhn-rot huhn-gelb";
	build(&st, &sp);
	bad(&st, 0, "play rot-5 on 1", "Zahl muss benachbart sein");
	assert_false(has_move(&st, 0, "play rot-5 on 1"));
	ok(&st, 0, "play rot-2 on 1");
}

/* The text's example: on a yellow 3 go a 2 or a 4 that is not yellow. */
static void test_example_yellow_three(void **u)
{
	(void)u;
	static const char *const fits[] = { "rot-2", "rot-4", "blau-2", "lila-4", "grün-2" };
	static const char *const misfits[] = { "gelb-2", "gelb-4", "rot-3", "rot-5", "blau-6",
					       "rot-1/10" };
	int top = 17 * DW_GELB + 3; /* a yellow 3 */
	assert_int_equal(dw_deck[top].colour, DW_GELB);
	assert_int_equal(dw_deck[top].rank, 3);
	for (size_t i = 0; i < sizeof fits / sizeof fits[0]; i++) {
		uint8_t used[DW_CARDS] = { 0 };
		assert_true(worm_fits(take_card(fits[i], used), top, 0));
	}
	for (size_t i = 0; i < sizeof misfits / sizeof misfits[0]; i++) {
		uint8_t used[DW_CARDS] = { 0 };
		assert_false(worm_fits(take_card(misfits[i], used), top, 0));
	}
}

/* Ruling: the ranks form a ring of nine; 1/10 neighbours 2 and 9. */
static void test_one_ten_neighbours_two_and_nine(void **u)
{
	(void)u;
	struct dw_state st;
	struct spec sp = base;
	sp.hand[0] = "rot-2 rot-9 rot-8 huhn-rot huhn-gelb";
	sp.stack[0] = "lila-6 gelb-1/10";
	build(&st, &sp);
	assert_true(has_move(&st, 0, "play rot-2 on 1"));
	assert_true(has_move(&st, 0, "play rot-9 on 1"));
	assert_false(has_move(&st, 0, "play rot-8 on 1"));
	bad(&st, 0, "play rot-8 on 1", "benachbart");
	ok(&st, 0, "play rot-9 on 1");
	assert_true(ranks_adjacent(1, 2) && ranks_adjacent(1, 9) && ranks_adjacent(9, 1));
	assert_false(ranks_adjacent(1, 1) || ranks_adjacent(1, 3) || ranks_adjacent(1, 8));
}

/* Ruling: a joker has no colour and any number: it goes on any card. */
static void test_joker_on_any_card(void **u)
{
	(void)u;
	struct dw_state st;
	struct spec sp = base;
	sp.hand[0] = "joker huhn-rot huhn-gelb rot-7";
	build(&st, &sp);
	for (int k = 1; k <= 3; k++) {
		char mv[32];
		snprintf(mv, sizeof mv, "play joker on %d", k);
		assert_true(has_move(&st, 0, mv));
	}
	ok(&st, 0, "play joker on 2");
}

static void test_any_worm_on_joker(void **u)
{
	(void)u;
	struct dw_state st;
	struct spec sp = base;
	sp.hand[0] = "gelb-3 rot-7 lila-1/10 huhn-rot huhn-gelb";
	sp.stack[0] = "rot-2 joker";
	build(&st, &sp);
	assert_true(has_move(&st, 0, "play gelb-3 on 1"));
	assert_true(has_move(&st, 0, "play rot-7 on 1"));
	assert_true(has_move(&st, 0, "play lila-1/10 on 1"));
	ok(&st, 0, "play rot-7 on 1");
}

/* After laying, the whole stack turns over: the bottom card is now on top
 * and the laid card is at the bottom. */
static void test_stack_turns_after_play(void **u)
{
	(void)u;
	struct dw_state st;
	build(&st, &base);
	ok(&st, 0, "play rot-4 on 1");   /* stack 1: lila-6 gelb-3 */
	assert_int_equal(st.stack[0].n, 3);
	assert_true(top_is(&st, 0, "lila-6"));
	char name[48];
	int len = 0;
	put_card(name, &len, st.stack[0].c[0]);
	assert_string_equal(name, "rot-4");
}

/* ---- (B) Hühnerkarte -------------------------------------------------- */

static void test_chicken_needs_its_colour_on_top(void **u)
{
	(void)u;
	struct dw_state st;
	build(&st, &base);
	bad(&st, 0, "chicken rot on 1", "frisst nur");
	assert_false(has_move(&st, 0, "chicken rot on 1"));
	/* the text's example: a yellow chicken on a stack with a yellow card on top */
	assert_true(has_move(&st, 0, "chicken gelb on 1"));
	ok(&st, 0, "chicken gelb on 1");
}

static void test_chicken_eats_joker_top(void **u)
{
	(void)u;
	struct dw_state st;
	struct spec sp = base;
	sp.stack[1] = "rot-8 joker";
	build(&st, &sp);
	assert_true(has_move(&st, 0, "chicken rot on 2"));
	assert_true(has_move(&st, 0, "chicken gelb on 2"));
	ok(&st, 0, "chicken rot on 2");
	assert_int_equal(st.neaten[0], 1);
}

/* The whole stack, with the chicken on top, goes to the player. */
static void test_chicken_takes_whole_stack(void **u)
{
	(void)u;
	struct dw_state st;
	struct spec sp = base;
	sp.stack[0] = "lila-6 blau-2 rot-9 gelb-3";
	build(&st, &sp);
	ok(&st, 0, "chicken gelb on 1");
	assert_int_equal(st.neaten[0], 1);
	assert_int_equal(st.eaten[0][0].n, 4);
	assert_int_equal(dw_deck[st.eaten[0][0].chicken].kind, DW_CHICKEN);
	assert_int_equal(dw_deck[st.eaten[0][0].chicken].colour, DW_GELB);
	assert_false(holds(&st, 0, "huhn-gelb"));
	assert_true(holds(&st, 0, "huhn-rot"));
}

/* A second eaten stack is kept apart from the first. */
static void test_second_eaten_stack_kept_apart(void **u)
{
	(void)u;
	struct dw_state st;
	struct spec sp = base;
	sp.stack[1] = "rot-8 rot-5";
	sp.hand[1] = "blau-7 lila-8 gelb-2 huhn-blau huhn-lila";
	build(&st, &sp);
	ok(&st, 0, "chicken gelb on 1");
	ok(&st, 1, "draw turn 3");
	while (phase(&st) == DW_SNAP)
		ok(&st, lowest_seat(pending(&st)), "pass");
	ok(&st, 2, "draw turn 3");
	while (phase(&st) == DW_SNAP)
		ok(&st, lowest_seat(pending(&st)), "pass");
	ok(&st, 0, "chicken rot on 2");
	assert_int_equal(st.neaten[0], 2);
	assert_int_equal(st.eaten[0][0].n, 2);
	assert_int_equal(st.eaten[0][1].n, 2);
	assert_int_equal(dw_deck[st.eaten[0][1].chicken].colour, DW_ROT);
}

/* A new stack replaces the eaten one: the top draw card face down, the
 * next one face up on it. */
static void test_chicken_lays_new_stack_from_pile(void **u)
{
	(void)u;
	struct dw_state st;
	struct spec sp = base;
	sp.pile = "blau-9 lila-2 rot-6";
	build(&st, &sp);
	int before = st.pile.n;
	ok(&st, 0, "chicken gelb on 1");
	assert_int_equal(st.stack[0].n, 2);
	assert_true(top_is(&st, 0, "lila-2"));
	char name[48];
	int len = 0;
	put_card(name, &len, st.stack[0].c[0]);
	assert_string_equal(name, "blau-9");
	assert_int_equal(st.pile.n, before - 2);
	/* laying a new stack is not a turn-over: no snap window */
	assert_int_equal(phase(&st), DW_PLAY);
	assert_int_equal(turn_seat(&st), 1);
}

/* ---- can't or won't: draw and turn ------------------------------------ */

static void test_draw_then_turn_any_stack(void **u)
{
	(void)u;
	struct dw_state st;
	struct spec sp = base;
	sp.pile = "lila-5";
	build(&st, &sp);
	int pile = st.pile.n;
	ok(&st, 0, "draw turn 2");  /* stack 2: rot-8 blau-5 */
	assert_true(holds(&st, 0, "lila-5"));
	assert_int_equal(st.nhand[0], 5);
	assert_int_equal(st.pile.n, pile - 1);
	assert_true(top_is(&st, 1, "rot-8"));
	assert_int_equal(st.stack[1].n, 2);
}

static void test_draw_allowed_even_with_playable_card(void **u)
{
	(void)u;
	struct dw_state st;
	build(&st, &base);
	assert_true(has_move(&st, 0, "play rot-4 on 1"));
	for (int k = 1; k <= 3; k++) {
		char mv[32];
		snprintf(mv, sizeof mv, "draw turn %d", k);
		assert_true(has_move(&st, 0, mv));
	}
	ok(&st, 0, "draw turn 3");
}

/* ---- Karte außer der Reihe (snap) ------------------------------------- */

/* Seat 1 and 2 both hold a card for lila-6 (the top after stack 1 turns). */
static const struct spec snap_spec = {
	.n = 4,
	.turn = 0,
	.hand = { "rot-4 gelb-8 huhn-rot huhn-gelb", "gelb-5 blau-2 huhn-blau huhn-lila",
		  "rot-7 grün-4 huhn-grün huhn-rot", "blau-2 grün-3 huhn-gelb huhn-blau" },
	.stack = { "lila-6 gelb-3", "rot-8 blau-5", "gelb-9 grün-1/10" },
};

/* The part of a view text that describes stack k (1-based). */
static const char *stack_part(const struct vtext *t, int k, char *out, size_t cap)
{
	char head[32];
	snprintf(head, sizeof head, "[stacks\nstack=%d\n", k);
	const char *a = strstr(t->s, head), *b = a ? strstr(a, "is_snap?") : NULL;
	assert_non_null(b);
	size_t n = (size_t)(b - a);
	assert_true(n < cap);
	memcpy(out, a, n);
	out[n] = '\0';
	return out;
}

/* Issue: a player returning after a day cannot tell from the last twelve
 * log lines which card the next turn-over of a stack shows. Every stack
 * shows its bottom card to everyone once it is public (laid face up, or the
 * top everyone saw before a draw-and-turn), and never the face-down card a
 * stack is laid with. */
static void test_stack_shows_public_bottom_card(void **u)
{
	(void)u;
	static struct vtext t;
	char part[1024];
	struct dw_state st;
	build(&st, &snap_spec);
	for (int seat = -1; seat < 4; seat++) {
		view_text(&st, seat, &t);
		for (int k = 1; k <= DW_STACKS; k++) {
			stack_part(&t, k, part, sizeof part);
			assert_non_null(strstr(part, "next_known?0\nnext_hidden?1\n"));
			assert_null(strstr(part, "[next"));
		}
	}
	ok(&st, 0, "play rot-4 on 1");   /* stack 1 turns: lila-6 on top, rot-4 below */
	for (int seat = -1; seat < 4; seat++) {
		view_text(&st, seat, &t);
		assert_non_null(strstr(stack_part(&t, 1, part, sizeof part),
				       "next_known?1\nnext_hidden?0\n[next\nname=rot 4\n"));
		assert_null(strstr(stack_part(&t, 2, part, sizeof part), "[next"));
	}
	ok(&st, 1, "snap gelb-5");       /* a snap goes on top: the bottom stays */
	view_text(&st, -1, &t);
	assert_non_null(strstr(stack_part(&t, 1, part, sizeof part), "name=gelb 5\n"));
	assert_non_null(strstr(part, "[next\nname=rot 4\n"));
	ok(&st, 1, "draw turn 2");       /* rot-8 up, the blau-5 everyone saw goes under */
	view_text(&st, 3, &t);
	assert_non_null(strstr(stack_part(&t, 2, part, sizeof part), "[next\nname=blau 5\n"));
	assert_int_equal(phase(&st), DW_PLAY);
	ok(&st, 2, "chicken rot on 2");  /* the new stack's bottom is face down */
	view_text(&st, 3, &t);
	assert_null(strstr(stack_part(&t, 2, part, sizeof part), "[next"));
	assert_non_null(strstr(part, "next_hidden?1\n"));
	assert_non_null(strstr(stack_part(&t, 1, part, sizeof part), "[next\nname=rot 4\n"));
}

static void test_snap_window_after_play(void **u)
{
	(void)u;
	struct dw_state st;
	struct status s;
	build(&st, &snap_spec);
	ok(&st, 0, "play rot-4 on 1");
	assert_int_equal(phase(&st), DW_SNAP);
	assert_int_equal(snap_stack(&st), 0);
	G->status(&st, &s);
	assert_int_equal(s.to_act, (1u << 1) | (1u << 2) | (1u << 3));
	assert_int_equal(s.deadline, T0 + 10 * 1000);
	assert_true(has_move(&st, 1, "snap gelb-5"));
	assert_true(has_move(&st, 2, "snap rot-7"));
	assert_true(has_move(&st, 1, "pass"));
}

static void test_snap_window_after_draw_turn(void **u)
{
	(void)u;
	struct dw_state st;
	build(&st, &snap_spec);
	ok(&st, 0, "draw turn 1");   /* the stack turns: lila-6 on top */
	assert_int_equal(phase(&st), DW_SNAP);
	assert_int_equal(pending(&st), (1u << 1) | (1u << 2) | (1u << 3));
	ok(&st, 2, "snap rot-7");
	assert_true(top_is(&st, 0, "rot-7"));
}

static void test_snap_not_by_turner(void **u)
{
	(void)u;
	struct spec sp = snap_spec;
	struct dw_state st;
	sp.hand[0] = "rot-4 gelb-5 huhn-rot huhn-gelb";
	build(&st, &sp);
	ok(&st, 0, "play rot-4 on 1");
	assert_false(pending(&st) & 1u);
	assert_false(has_move(&st, 0, "snap gelb-5"));
	bad(&st, 0, "snap gelb-5", "selbst gedreht");
	bad(&st, 0, "pass", "selbst gedreht");
}

/* A snap follows the normal rules: other colour, neighbouring number. */
static void test_snap_follows_normal_rules(void **u)
{
	(void)u;
	struct spec sp = snap_spec;
	struct dw_state st;
	sp.hand[1] = "gelb-5 lila-7 blau-2 huhn-blau huhn-lila";
	build(&st, &sp);
	ok(&st, 0, "play rot-4 on 1");
	bad(&st, 1, "snap lila-7", "Farbe muss eine andere sein");
	bad(&st, 1, "snap blau-2", "benachbart");
	assert_false(has_move(&st, 1, "snap lila-7"));
	ok(&st, 1, "snap gelb-5");
}

static void test_snap_no_chicken(void **u)
{
	(void)u;
	struct dw_state st;
	build(&st, &snap_spec);
	ok(&st, 0, "play rot-4 on 1");
	bad(&st, 1, "snap blau", "Hühner darf man nicht zwischenwerfen");
	bad(&st, 1, "chicken blau on 1", "Zwischenwurf");
}

/* Only the quickest snap stays: the first valid one closes the window and
 * the second snapper is too late, keeping the card. */
static void test_snap_first_valid_wins(void **u)
{
	(void)u;
	struct dw_state st;
	struct status s0, s1;
	build(&st, &snap_spec);
	ok(&st, 0, "play rot-4 on 1");
	G->status(&st, &s0);
	ok(&st, 2, "snap rot-7");
	G->status(&st, &s1);
	assert_int_not_equal(s0.epoch, s1.epoch);
	assert_int_equal(phase(&st), DW_PLAY);
	bad(&st, 1, "snap gelb-5", "kein Zwischenwurf");
	assert_true(holds(&st, 1, "gelb-5"));
	assert_false(holds(&st, 2, "rot-7"));
	/* the loser of the race, from a page older than the winning snap, is
	 * told who won it (the platform asks game.late) */
	struct rerr e = { .msg = "" };
	assert_int_equal(G->late(&st, 1, "snap gelb-5", &e), GAME_LATE_STALE);
	assert_string_equal(e.msg, "Zu spät: @2 hat schon auf Stapel 1 zwischengeworfen.");
	struct rerr none = { .msg = "" };
	assert_int_equal(G->late(&st, 1, "draw turn 1", &none), GAME_LATE_STALE);
	assert_string_equal(none.msg, "");
}

/* After a snap the stack is not turned again. */
static void test_snapped_stack_not_turned(void **u)
{
	(void)u;
	struct dw_state st;
	build(&st, &snap_spec);
	ok(&st, 0, "play rot-4 on 1");
	int n = st.stack[0].n;
	ok(&st, 1, "snap gelb-5");
	assert_int_equal(st.stack[0].n, n + 1);
	assert_true(top_is(&st, 0, "gelb-5"));
}

/* Then the player who was originally next plays: a snap does not change
 * the turn order, even when the snapper sits further round. */
static void test_after_snap_turn_order_unchanged(void **u)
{
	(void)u;
	struct dw_state st;
	struct status s;
	build(&st, &snap_spec);
	ok(&st, 0, "play rot-4 on 1");
	ok(&st, 2, "snap rot-7");
	G->status(&st, &s);
	assert_int_equal(s.turn, 1);
	assert_int_equal(s.to_act, 1u << 1);
	bad(&st, 2, "draw turn 1", "nicht am Zug");
	ok(&st, 1, "draw turn 2");
}

/* Ruling: the window closes when all others have passed. */
static void test_window_closes_when_all_passed(void **u)
{
	(void)u;
	struct dw_state st;
	struct status s;
	build(&st, &snap_spec);
	ok(&st, 0, "play rot-4 on 1");
	ok(&st, 1, "pass");
	assert_int_equal(phase(&st), DW_SNAP);
	bad(&st, 1, "pass", "vorbei");
	bad(&st, 1, "snap gelb-5", "vorbei");
	ok(&st, 2, "pass");
	assert_int_equal(phase(&st), DW_SNAP);
	ok(&st, 3, "pass");
	G->status(&st, &s);
	assert_int_equal(phase(&st), DW_PLAY);
	assert_int_equal(s.to_act, 1u << 1);
	assert_int_equal(s.deadline, 0);
}

/* Ruling: the window closes at the table's snap deadline (tick). */
static void test_window_closes_at_deadline(void **u)
{
	(void)u;
	struct dw_state st;
	struct spec sp = snap_spec;
	sp.snap_seconds = 5;
	build(&st, &sp);
	ok(&st, 0, "play rot-4 on 1");
	assert_int_equal(prompt_peek(&st.pr)->deadline, T0 + 5000);
	assert_int_equal(G->tick(&st, T0 + 4999), 0);
	assert_int_equal(phase(&st), DW_SNAP);
	assert_int_equal(G->tick(&st, T0 + 5000), 1);
	assert_int_equal(phase(&st), DW_PLAY);
	assert_int_equal(G->tick(&st, T0 + 9000), 0);
	bad(&st, 1, "snap gelb-5", "kein Zwischenwurf");
}

/* Ruling: the next regular move waits for the window. */
static void test_regular_move_waits_for_window(void **u)
{
	(void)u;
	struct dw_state st;
	build(&st, &snap_spec);
	ok(&st, 0, "play rot-4 on 1");
	bad(&st, 1, "draw turn 2", "läuft noch der Zwischenwurf");
	bad(&st, 1, "play blau-2 on 2", "läuft noch der Zwischenwurf");
	assert_false(has_move(&st, 1, "draw turn 2"));
}

/* Ruling: inside a window every other seat may act, whether or not it holds
 * a fitting card, so the public list of who may act (status.to_act) tells
 * nobody who holds one; a seat without a card can only pass. */
static void test_window_does_not_tell_who_can_snap(void **u)
{
	(void)u;
	struct dw_state st, other;
	struct status s1, s2;
	struct vtext t, t1;
	build(&st, &snap_spec);
	ok(&st, 0, "play rot-4 on 1");
	assert_true(pending(&st) & (1u << 3));   /* blau-2 grün-3: nothing fits lila-6 */
	static struct mlist m;
	list_moves(&st, 3, &m);
	assert_int_equal(m.n, 1);
	assert_true(listed(&m, "pass"));
	/* the same position with a fitting card in seat 3's hand: same status */
	struct spec sp = snap_spec;
	sp.hand[3] = "blau-5 grün-3 huhn-gelb huhn-blau";
	build(&other, &sp);
	ok(&other, 0, "play rot-4 on 1");
	G->status(&st, &s1);
	G->status(&other, &s2);
	assert_int_equal(s1.to_act, s2.to_act);
	assert_int_equal(s1.deadline, s2.deadline);
	/* and another seat's page is the same in both */
	view_text(&st, 1, &t);
	view_text(&other, 1, &t1);
	assert_string_equal(t.s, t1.s);
	/* seat 3's own page says it has no card, and offers only the pass */
	view_text(&st, 3, &t);
	assert_non_null(strstr(t.s, "in_window?1"));
	assert_non_null(strstr(t.s, "may_snap?0"));
	assert_non_null(strstr(t.s, "keine passende Karte"));
	assert_non_null(strstr(t.s, "move=pass\n"));
	/* a pass is not announced: seat 1's page is the same before and after */
	view_text(&st, 1, &t);
	ok(&st, 3, "pass");
	view_text(&st, 1, &t1);
	assert_string_equal(t.s, t1.s);
	assert_null(strstr(t1.s, "gepasst"));
}

/* Ruling (automatic pass): with nobody able to snap, no window opens. */
static void test_no_window_when_nobody_can_snap(void **u)
{
	(void)u;
	struct dw_state st;
	struct spec sp = snap_spec;
	sp.hand[1] = "blau-2 grün-3 huhn-blau huhn-lila";
	sp.hand[2] = "rot-6 rot-2 huhn-grün huhn-rot";
	build(&st, &sp);
	ok(&st, 0, "play rot-4 on 1");
	assert_int_equal(phase(&st), DW_PLAY);
	assert_int_equal(turn_seat(&st), 1);
}

/* Variant (reading in docs/rulings.md): the snapped card must have the
 * colour of the top it lands on, instead of another colour; the number
 * still neighbours; jokers stay wild. */
static void test_variant_snap_same_colour(void **u)
{
	(void)u;
	struct dw_state st;
	struct spec sp = snap_spec;
	sp.snap_colour = 1;
	sp.hand[1] = "gelb-5 lila-7 blau-2 huhn-blau huhn-lila";
	sp.hand[2] = "lila-5 joker huhn-grün huhn-rot";
	build(&st, &sp);
	ok(&st, 0, "play rot-4 on 1");   /* top: lila-6 */
	assert_true(has_move(&st, 1, "snap lila-7"));
	assert_false(has_move(&st, 1, "snap gelb-5"));
	assert_true(has_move(&st, 2, "snap lila-5"));
	assert_true(has_move(&st, 2, "snap joker"));
	bad(&st, 1, "snap gelb-5", "dieselbe Farbe");
	ok(&st, 1, "snap lila-7");
	/* the regular move keeps the normal rule */
	build(&st, &sp);
	bad(&st, 0, "play gelb-8 on 1", "Farbe muss eine andere sein");
}

/* ---- Ende der Partie -------------------------------------------------- */

static void test_party_ends_when_hand_empty(void **u)
{
	(void)u;
	struct dw_state st;
	struct status s;
	struct spec sp = base;
	sp.hand[0] = "rot-4";
	sp.eaten[0] = "rot: rot-3 gelb-7 | gelb: blau-1/10 lila-2";
	build(&st, &sp);
	ok(&st, 0, "play rot-4 on 1");
	G->status(&st, &s);
	assert_true(s.over);
	assert_int_equal(st.end_reason, DW_END_HAND_EMPTY);
	assert_int_equal(s.to_act, 0);
	assert_int_equal(s.deadline, 0);
	assert_int_equal(G->moves(&st, 1, collect, &(struct mlist){ .len = 0 }), 0);
	bad(&st, 1, "draw turn 1", "vorbei");
}

static void test_party_ends_when_hand_empty_by_snap(void **u)
{
	(void)u;
	struct dw_state st;
	struct status s;
	struct spec sp = snap_spec;
	sp.hand[2] = "rot-7";
	sp.eaten[2] = "grün: grün-3 rot-2 | rot: rot-5 blau-6";
	build(&st, &sp);
	ok(&st, 0, "play rot-4 on 1");
	ok(&st, 2, "snap rot-7");
	G->status(&st, &s);
	assert_true(s.over);
	assert_int_equal(st.end_reason, DW_END_HAND_EMPTY);
	assert_int_equal(s.score[2], 3 + 1 + 3 + 1);
}

static void test_party_ends_when_all_chickens_used(void **u)
{
	(void)u;
	struct dw_state st;
	struct spec sp = base;
	sp.hand[0] = "gelb-3 rot-4 huhn-gelb";
	sp.eaten[0] = "rot: rot-2 blau-6";
	sp.hand[1] = "blau-7 lila-8";
	sp.eaten[1] = "blau: blau-2 gelb-6 | lila: lila-4 rot-9";
	sp.hand[2] = "grün-2 grün-9";
	sp.eaten[2] = "grün: lila-3 gelb-5 | rot: rot-6 grün-4";
	build(&st, &sp);
	ok(&st, 0, "chicken gelb on 1");
	assert_int_equal(phase(&st), DW_OVER);
	assert_int_equal(st.end_reason, DW_END_CHICKENS_USED);
}

static void test_party_ends_when_draw_pile_empty(void **u)
{
	(void)u;
	struct dw_state st;
	struct spec sp = base;
	sp.pile_n = 1;
	build(&st, &sp);
	ok(&st, 0, "draw turn 1");
	assert_int_equal(st.pile.n, 0);
	assert_int_equal(phase(&st), DW_OVER);
	assert_int_equal(st.end_reason, DW_END_PILE_EMPTY);
	assert_int_equal(pending(&st), 0);
}

/* Ruling: when the pile is too small to lay a new stack, the party ends. */
static void test_party_ends_when_pile_too_small_for_new_stack(void **u)
{
	(void)u;
	struct dw_state st;
	struct spec sp = base;
	sp.pile_n = 1;
	build(&st, &sp);
	ok(&st, 0, "chicken gelb on 1");
	assert_int_equal(phase(&st), DW_OVER);
	assert_int_equal(st.end_reason, DW_END_PILE_SHORT);
	assert_int_equal(st.stack[0].n, 0);
	assert_int_equal(st.pile.n, 1);
	/* with two cards left the new stack is laid and then the pile is empty */
	sp.pile_n = 2;
	build(&st, &sp);
	ok(&st, 0, "chicken gelb on 1");
	assert_int_equal(st.stack[0].n, 2);
	assert_int_equal(st.end_reason, DW_END_PILE_EMPTY);
}

/* ---- Wertung ---------------------------------------------------------- */

/* Each eaten stack is scored with its own chicken's colour. */
static void test_scoring_each_stack_separately(void **u)
{
	(void)u;
	struct dw_state st;
	struct status s;
	struct spec sp = base;
	sp.hand[1] = "blau-7 lila-8";
	/* one stack scored together would be all blau or all rot: 3+3+3+3 */
	sp.eaten[1] = "blau: blau-2 rot-6 | rot: blau-4 rot-9";
	build(&st, &sp);
	assert_int_equal(seat_score(&st, 1), (3 + 1) + (1 + 3) - 2);
	end_party(&st, DW_END_PILE_EMPTY, 0);   /* as if: only the score matters here */
	G->status(&st, &s);
	assert_int_equal(s.score[1], 6);
}

static void test_scoring_colour_three_joker_two_other_one(void **u)
{
	(void)u;
	struct dw_state st;
	struct status s;
	struct spec sp = base;
	sp.hand[2] = "grün-2 grün-9 huhn-grün";
	sp.eaten[2] = "rot: rot-2 rot-1/10 joker gelb-4 lila-5";
	build(&st, &sp);
	end_party(&st, DW_END_PILE_EMPTY, 0);
	G->status(&st, &s);
	assert_int_equal(s.score[2], 3 + 3 + 2 + 1 + 1 - 3);
	assert_int_equal(eaten_points(&st.eaten[2][0]), 10);
}

/* Every card left in hand costs one: worms, jokers and chickens alike. */
static void test_scoring_minus_one_per_hand_card(void **u)
{
	(void)u;
	struct dw_state st;
	struct status s;
	struct spec sp = base;
	sp.hand[0] = "joker gelb-3 rot-4 blau-9 huhn-rot huhn-gelb";
	build(&st, &sp);
	end_party(&st, DW_END_PILE_EMPTY, 0);
	G->status(&st, &s);
	assert_int_equal(s.score[0], -6);
	assert_int_equal(s.score[1], -4);
}

/* While the party runs, status shows only the public part of the score
 * (the hand penalty): the eaten stacks' contents are hidden until the end. */
static void test_running_score_is_public(void **u)
{
	(void)u;
	struct dw_state st, sc;
	struct status s, s2;
	struct spec sp = base;
	sp.hand[1] = "blau-7 lila-8";
	sp.eaten[1] = "blau: blau-2 rot-6 | rot: blau-4 rot-9";
	build(&st, &sp);
	G->status(&st, &s);
	/* at least one point per eaten card (the stacks give 8 at the end),
	 * minus the hand; the bot still weighs only the hand */
	assert_int_equal(s.score[0], -4);
	assert_int_equal(s.score[1], 4 - 2);
	assert_int_equal(G->bot_worth(&st, 1), -2);
	struct vtext t;
	view_text(&st, 0, &t);
	assert_non_null(strstr(t.s, "running_score=2\n"));
	assert_non_null(strstr(t.s, "at_least?1\n"));
	memcpy(&sc, &st, sizeof sc);
	G->scramble(&sc, 0, 5);
	G->status(&sc, &s2);
	assert_memory_equal(&s, &s2, sizeof s);
}

/* The final breakdown shows each stack's points and the hand penalty. */
static void test_final_scoring_in_view(void **u)
{
	(void)u;
	struct dw_state st;
	struct vtext t;
	struct spec sp = base;
	sp.hand[0] = "rot-4";
	sp.eaten[0] = "rot: rot-3 gelb-7 | gelb: blau-1/10 lila-2";
	build(&st, &sp);
	view_text(&st, 1, &t);
	assert_null(strstr(t.s, "points="));
	assert_null(strstr(t.s, "name=rot 3"));
	ok(&st, 0, "play rot-4 on 1");
	view_text(&st, 1, &t);
	assert_non_null(strstr(t.s, "points=4\n"));
	assert_non_null(strstr(t.s, "points=2\n"));
	assert_non_null(strstr(t.s, "name=rot 3"));
	assert_non_null(strstr(t.s, "score=6\n"));
	assert_non_null(strstr(t.s, "hand_minus=-4\n"));
	assert_non_null(strstr(t.s, "headline=Die Partie ist vorbei: @0 gewinnt mit 6 Punkten."));
}

/* Equal party scores share the win in the headline. */
static void test_party_tie_shares_the_win(void **u)
{
	(void)u;
	struct dw_state st;
	struct vtext t;
	struct spec sp = base;
	sp.hand[0] = "rot-4";
	sp.eaten[0] = "rot: rot-3 gelb-7 | gelb: blau-1/10 lila-2";   /* 4 + 2 */
	sp.hand[2] = "grün-2";
	sp.eaten[2] = "grün: grün-3 lila-4 gelb-4 | rot: lila-3 blau-4";   /* 5 + 2 - 1 */
	build(&st, &sp);
	ok(&st, 0, "play rot-4 on 1");
	view_text(&st, -1, &t);
	assert_non_null(strstr(t.s, "headline=Die Partie ist vorbei: @0 und @2 gewinnen gemeinsam mit 6 Punkten.\n"));
}

/* ---- status and epoch ------------------------------------------------- */

/* The epoch moves when a card lands, a stack is eaten or turned, or a
 * snap lands; never on a pass or when the window runs out. */
static void test_epoch_changes_on_card_not_on_pass(void **u)
{
	(void)u;
	struct dw_state st;
	struct status s;
	uint32_t e0;
	build(&st, &snap_spec);
	G->status(&st, &s);
	e0 = s.epoch;
	ok(&st, 0, "play rot-4 on 1");
	G->status(&st, &s);
	assert_int_equal(s.epoch, e0 + 1);
	ok(&st, 1, "pass");
	G->status(&st, &s);
	assert_int_equal(s.epoch, e0 + 1);
	G->tick(&st, T0 + 60000);
	G->status(&st, &s);
	assert_int_equal(s.epoch, e0 + 1);
	ok(&st, 1, "draw turn 2");   /* rot-8 on top, nobody can snap */
	G->status(&st, &s);
	assert_int_equal(s.epoch, e0 + 2);
	assert_int_equal(phase(&st), DW_PLAY);
	ok(&st, 2, "chicken rot on 2");
	G->status(&st, &s);
	assert_int_equal(s.epoch, e0 + 3);
}

/* ---- move language ---------------------------------------------------- */

/* Spellings: grün and gruen, 1/10 as rot-1/10, rot-1 or rot-10, upper case. */
static void test_card_spellings(void **u)
{
	(void)u;
	struct dw_state st, a;
	struct spec sp = base;
	sp.hand[0] = "grün-2 gelb-3 huhn-rot huhn-grün";
	sp.stack[0] = "lila-6 rot-1/10";
	sp.stack[2] = "gelb-9 grün-3";
	build(&st, &sp);
	static const char *const same[] = { "play grün-2 on 1", "play gruen-2 on 1", "Play Gruen-2 On 1",
					    "play  grün-2   on 1" };
	for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
		memcpy(&a, &st, sizeof a);
		ok(&a, 0, same[i]);
		assert_true(top_is(&a, 0, "lila-6"));
	}
	static const char *const chick[] = { "chicken grün on 3", "chicken gruen on 3" };
	for (size_t i = 0; i < 2; i++) {
		memcpy(&a, &st, sizeof a);
		ok(&a, 0, chick[i]);
		assert_int_equal(a.neaten[0], 1);
	}
	sp.hand[0] = "rot-1/10 gelb-3 huhn-rot huhn-grün";
	sp.stack[0] = "lila-6 gelb-9";
	build(&st, &sp);
	static const char *const ones[] = { "play rot-1/10 on 1", "play rot-1 on 1", "play rot-10 on 1" };
	for (size_t i = 0; i < 3; i++) {
		memcpy(&a, &st, sizeof a);
		ok(&a, 0, ones[i]);
		assert_false(holds(&a, 0, "rot-1/10"));
	}
	assert_true(has_move(&st, 0, "play rot-1/10 on 1"));
	bad(&st, 0, "play rot-01 on 1", "gibt es nicht");
	bad(&st, 0, "play rot-11 on 1", "gibt es nicht");
}

/* Every malformed or illegal move: its message, and not one byte changed. */
static void test_bad_moves_rejected_state_unchanged(void **u)
{
	(void)u;
	struct dw_state st;
	char overlong[GAME_MOVE_MAX + 20];
	memset(overlong, 'a', sizeof overlong - 1);
	overlong[sizeof overlong - 1] = '\0';
	static const struct {
		int seat;
		const char *move, *want;
	} cases[] = {
		{ 0, "", "Kein Zug" },
		{ 0, "   ", "Kein Zug" },
		{ 0, "play\x01 gelb-3 on 2", "Steuerzeichen" },
		{ 0, "play gr\xc3 on 2", "UTF-8" },
		{ 0, "jump", "Unbekannter Zug" },
		{ 0, "play", "play KARTE on STAPEL" },
		{ 0, "play rot-4", "play KARTE on STAPEL" },
		{ 0, "play rot-4 to 1", "play KARTE on STAPEL" },
		{ 0, "play rot-4 on 1 now", "play KARTE on STAPEL" },
		{ 0, "play pink-4 on 1", "gibt es nicht" },
		{ 0, "play rot-0 on 1", "gibt es nicht" },
		{ 0, "play rot-4 on 4", "Stapel '4' gibt es nicht" },
		{ 0, "play rot-4 on 0", "Stapel '0' gibt es nicht" },
		{ 0, "play rot-4 on 01", "gibt es nicht" },
		{ 0, "play rot on 1", "keine Wurmkarte" },
		{ 0, "play blau-9 on 1", "nicht auf der Hand" },
		{ 0, "play gelb-3 on 1", "Farbe muss eine andere sein" },
		{ 0, "play rot-4 on 3", "benachbart" },
		{ 1, "play blau-7 on 1", "nicht am Zug" },
		{ 1, "draw turn 1", "nicht am Zug" },
		{ 2, "chicken grün on 3", "nicht am Zug" },
		{ 0, "chicken", "chicken FARBE on STAPEL" },
		{ 0, "chicken rot on 1 now", "chicken FARBE on STAPEL" },
		{ 0, "chicken pink on 1", "Hühnerfarbe" },
		{ 0, "chicken blau on 2", "kein Huhn in blau" },
		{ 0, "chicken rot on 1", "frisst nur" },
		{ 0, "draw", "draw turn STAPEL" },
		{ 0, "draw 1", "draw turn STAPEL" },
		{ 0, "draw turn", "draw turn STAPEL" },
		{ 0, "draw turn 2 3", "draw turn STAPEL" },
		{ 0, "draw turn 9", "gibt es nicht" },
		{ 1, "snap blau-7", "kein Zwischenwurf" },
		{ 1, "snap blau", "Hühner" },
		{ 1, "snap", "snap KARTE" },
		{ 1, "pass", "nur beim Zwischenwurf" },
		{ 0, "pass now", "allein" },
		{ 7, "pass", "Platz" },
		{ -1, "pass", "Platz" },
	};
	build(&st, &base);
	bad(&st, 0, overlong, "zu lang");
	bad(&st, 0, NULL, "Kein Zug");
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		bad(&st, cases[i].seat, cases[i].move, cases[i].want);
}

/* 1 when s is well-formed UTF-8 (no cut sequence, no stray byte). */
static int utf8_ok(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		int n = *p < 0x80 ? 0 : (*p & 0xe0) == 0xc0 ? 1 : (*p & 0xf0) == 0xe0 ? 2
		      : (*p & 0xf8) == 0xf0 ? 3 : -1;
		if (n < 0)
			return 0;
		p++;
		for (int i = 0; i < n; i++, p++)
			if ((*p & 0xc0) != 0x80)
				return 0;
	}
	return 1;
}

/* A typed word with multi-byte letters is quoted by characters (mt_clip),
 * never cut inside a letter: the message stays valid UTF-8 for the JSON
 * twin, and a word of up to 20 characters is quoted whole. */
static void test_message_quotes_typed_text_by_characters(void **u)
{
	(void)u;
	struct dw_state st;
	struct rerr e;
	static const struct {
		const char *move, *want;
	} cases[] = {
		{ "play ääääääääääääää on 1", "Eine Karte 'ääääääääääääää' gibt es nicht" },
		{ "play xäääääääääääää on 1", "Eine Karte 'xäääääääääääää' gibt es nicht" },
		{ "xäääääääääääää", "Unbekannter Zug 'xäääääääääääää'" },
		{ "chicken xäääääääääääää on 1", "Hühnerfarbe 'xäääääääääääää'" },
		{ "play rot-4 on xäääääääääääää", "Stapel 'xäääääääääääää'" },
		{ "play aaaaaaaaaaaaaaaaaaaää on 1", "Eine Karte 'aaaaaaaaaaaaaaaaaaaä' gibt" },
	};
	build(&st, &base);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		bad(&st, 0, cases[i].move, cases[i].want);
		assert_int_equal(G->apply(&st, 0, cases[i].move, T0, &e), -1);
		if (!utf8_ok(e.msg))
			fail_msg("'%s': message is not UTF-8", cases[i].move);
	}
}

/* Every candidate text, legal or not, is accepted exactly when moves()
 * lists it, over many random positions of real parties. */
static void test_moves_match_apply(void **u)
{
	(void)u;
	static char cand[1200][48];
	int nc = 0;
	static const char *const words[] = { "joker", "rot", "gelb", "grün", "blau", "lila" };
	for (int id = 0; id < DW_WORMS; id++) {
		if (id > 0 && same_face(id, id - 1))
			continue;
		char w[24];
		int len = 0;
		w[0] = '\0';
		put_card(w, &len, id);
		snprintf(cand[nc++], sizeof cand[0], "snap %s", w);
		for (int k = 1; k <= 3; k++)
			snprintf(cand[nc++], sizeof cand[0], "play %s on %d", w, k);
	}
	for (int c = 1; c < 6; c++)
		for (int k = 1; k <= 3; k++)
			snprintf(cand[nc++], sizeof cand[0], "chicken %s on %d", words[c], k);
	for (int k = 1; k <= 3; k++)
		snprintf(cand[nc++], sizeof cand[0], "draw turn %d", k);
	snprintf(cand[nc++], sizeof cand[0], "pass");

	static struct dw_state st, tmp;
	static struct mlist m;
	struct rng r;
	rng_seed(&r, 2024);
	int positions = 0;
	for (int party = 0; party < 16; party++) {
		std_setup(&st, 3 + party % 4, party % 3, 900u + (unsigned)party);
		int64_t now = T0;
		while (phase(&st) != DW_OVER) {
			for (int seat = 0; seat < st.nplayers; seat++) {
				list_moves(&st, seat, &m);
				memcpy(&tmp, &st, sizeof tmp);
				for (int i = 0; i < nc; i++) {
					struct rerr e = { .msg = "" };
					int want = listed(&m, cand[i]);
					int acc = G->apply(&st, seat, cand[i], now, &e) == 0;
					if (acc != want)
						fail_msg("seat %d '%s': listed %d accepted %d (%s)", seat,
							 cand[i], want, acc, e.msg);
					if (acc)
						memcpy(&st, &tmp, sizeof st);
					else if (memcmp(&st, &tmp, sizeof st) != 0)
						fail_msg("rejected '%s' changed the state", cand[i]);
				}
			}
			positions++;
			now += 100;
			random_step(&st, &r, now);
		}
	}
	assert_true(positions > 1000);
}

/* moves() lists nothing twice and only canonical spellings. */
static void test_moves_canonical_no_duplicates(void **u)
{
	(void)u;
	struct dw_state st;
	struct spec sp = base;
	sp.hand[0] = "gelb-2 gelb-2 joker joker rot-4 huhn-gelb huhn-gelb";
	sp.stack[1] = "rot-8 gelb-1/10";
	build(&st, &sp);
	static struct mlist m;
	list_moves(&st, 0, &m);
	char a[64], b[64];
	for (int i = 0; i < m.n; i++) {
		nth_move(&m, i, a, sizeof a);
		assert_null(strstr(a, "gruen"));
		for (int j = i + 1; j < m.n; j++) {
			nth_move(&m, j, b, sizeof b);
			if (strcmp(a, b) == 0)
				fail_msg("'%s' listed twice", a);
		}
	}
	assert_int_equal(G->moves(&st, 0, collect, &(struct mlist){ .len = 0 }), m.n);
	assert_non_null(strstr(m.s, "play joker on 2\n"));
	assert_non_null(strstr(m.s, "chicken gelb on 1\n"));
}

/* ---- snapshots -------------------------------------------------------- */

static size_t encode(const struct dw_state *st, unsigned char *p)
{
	struct buf b = { p, 0, GAME_SNAPSHOT_MAX, 0 };
	assert_int_equal(G->encode(st, &b), 0);
	return b.len;
}

static void test_snapshot_round_trip(void **u)
{
	(void)u;
	static unsigned char a[GAME_SNAPSHOT_MAX], b[GAME_SNAPSHOT_MAX];
	struct dw_state st, back;
	struct rerr e;
	build(&st, &snap_spec);
	ok(&st, 0, "play rot-4 on 1");   /* a window is open */
	for (int round = 0; round < 2; round++) {
		size_t na = encode(&st, a);
		memset(&back, 0xa5, sizeof back);
		assert_int_equal(game_load(G, &back, a, na, &e), 0);
		size_t nb = encode(&back, b);
		assert_int_equal(na, nb);
		assert_memory_equal(a, b, na);
		assert_int_equal(G->check(&back, &e), 0);
		if (round == 0)
			ok(&st, 1, "snap gelb-5");
	}
}

/* Re-writes the CRC of a snapshot after a payload change. */
static void fix_crc(unsigned char *p, size_t n)
{
	uint32_t c = crc32_bytes(p, n - 4);
	for (int i = 0; i < 4; i++)
		p[n - 4 + (size_t)i] = (unsigned char)(c >> (8 * i));
}

/* A snapshot of an earlier Fassung (1: before the public bottom cards, 2:
 * before the turn and the window became prompts) is not read any more:
 * game_load says SNAP_FORMAT, leaves the state alone, and the platform
 * rebuilds the party from its log (cgi/engine/load.c, test_faults). */
static void test_snapshot_earlier_format_rebuilt(void **u)
{
	(void)u;
	static unsigned char a[GAME_SNAPSHOT_MAX];
	struct dw_state st, back, keep;
	struct rerr e;
	build(&st, &snap_spec);
	ok(&st, 0, "play rot-4 on 1");
	size_t n = encode(&st, a);
	memset(&back, 0x5a, sizeof back);
	memcpy(&keep, &back, sizeof keep);
	for (unsigned f = 1; f < DW_FORMAT; f++) {
		a[17] = (unsigned char)f;
		fix_crc(a, n);
		assert_int_equal(game_load(G, &back, a, n, &e), SNAP_FORMAT);
		assert_memory_equal(&back, &keep, sizeof back);
	}
	a[17] = DW_FORMAT;
	fix_crc(a, n);
	assert_int_equal(game_load(G, &back, a, n, &e), SNAP_OK);
}

static void test_snapshot_corrupt_rejected(void **u)
{
	(void)u;
	static unsigned char a[GAME_SNAPSHOT_MAX], c[GAME_SNAPSHOT_MAX];
	struct dw_state st, out, keep;
	struct rerr e;
	std_setup(&st, 4, 0, 77);
	size_t n = encode(&st, a);
	memset(&out, 0x5a, sizeof out);
	memcpy(&keep, &out, sizeof keep);
	/* every single flipped byte */
	for (size_t i = 0; i < n; i++) {
		memcpy(c, a, n);
		c[i] ^= 0x40;
		assert_int_equal(game_load(G, &out, c, n, &e), -1);
	}
	/* every truncation */
	for (size_t len = 0; len < n; len++)
		assert_int_equal(game_load(G, &out, a, len, &e), -1);
	assert_memory_equal(&out, &keep, sizeof out);
	/* another game's envelope */
	struct buf b = { c, 0, sizeof c, 0 };
	size_t start = snap_begin(&b, "dna", 1);
	for (int i = 0; i < 8; i++)
		ser_u64(&b, 0);
	snap_end(&b, start);
	assert_int_equal(game_load(G, &out, c, b.len, &e), -1);
	assert_non_null(strstr(e.msg, "anderen Spiel"));
	/* valid CRC, out-of-range fields: header offset of the payload is
	 * 4 magic + 1 + 8 slug + 4 length = 17 */
	static const struct {
		size_t off;
		unsigned char val;
	} poke[] = {
		{ 17, 4 },      /* format version: a later one */
		{ 17, 2 },      /* an earlier one (rebuilt from the log) */
		{ 17, 0 },
		{ 18, 7 },      /* players */
		{ 18, 2 },
		{ 19, 4 },      /* dealer */
		{ 20, 1 },      /* snap seconds 1 */
		{ 22, 2 },      /* snap colour */
		{ 55, 1 },      /* end reason while playing */
		{ 55, 9 },      /* no such end */
		{ 60, 0 },      /* no prompt: over, but nothing ended */
		{ 60, 5 },      /* more prompts than the stack holds */
		{ 61, 2 },      /* the turn is a window */
		{ 61, 3 },      /* no such prompt */
		{ 62, 4 },      /* no such flag */
		{ 63, 0 },      /* the turn of nobody */
		{ 63, 7 },      /* the turn of a seat not at the table */
		{ 65, 3 },      /* the turn of two seats */
		{ 67, 0 },      /* the seat on turn not waiting */
		{ 71, 1 },      /* a deadline on the turn */
	};
	for (size_t i = 0; i < sizeof poke / sizeof poke[0]; i++) {
		memcpy(c, a, n);
		c[poke[i].off] = poke[i].val;
		fix_crc(c, n);
		int rc = game_load(G, &out, c, n, &e);
		if (rc != (poke[i].off == 17 ? SNAP_FORMAT : SNAP_BAD))
			fail_msg("poke %zu at %zu: %d (%s)", i, poke[i].off, rc, e.msg);
	}
	/* a card id out of range, and a duplicated card: the first hand card */
	size_t hand0 = 17 + 1 + 1 + 1 + 2 + 1 + 32 + 1 + 4 + 1 + 18;
	assert_int_equal(a[hand0] | a[hand0 + 1] << 8, st.nhand[0]);
	memcpy(c, a, n);
	c[hand0 + 2] = 0xff;
	fix_crc(c, n);
	assert_int_equal(game_load(G, &out, c, n, &e), -1);
	memcpy(c, a, n);
	c[hand0 + 2] = c[hand0 + 4];
	c[hand0 + 3] = c[hand0 + 5];
	fix_crc(c, n);
	assert_int_equal(game_load(G, &out, c, n, &e), -1);
	/* a count beyond capacity */
	memcpy(c, a, n);
	c[hand0] = 0xff;
	fix_crc(c, n);
	assert_int_equal(game_load(G, &out, c, n, &e), -1);
	assert_memory_equal(&out, &keep, sizeof out);
	/* and the untouched one decodes */
	assert_int_equal(game_load(G, &out, a, n, &e), 0);
}

/* check() finds a missing card, a duplicated one and a broken window. */
static void test_check_catches_broken_invariants(void **u)
{
	(void)u;
	struct dw_state st, t;
	struct rerr e;
	build(&st, &snap_spec);
	memcpy(&t, &st, sizeof t);
	t.pile.n--;
	assert_int_equal(G->check(&t, &e), -1);
	memcpy(&t, &st, sizeof t);
	t.pile.c[0] = t.pile.c[1];
	assert_int_equal(G->check(&t, &e), -1);
	memcpy(&t, &st, sizeof t);
	t.pr.p[0].kind = DW_PR_SNAP;
	assert_int_equal(G->check(&t, &e), -1);
	memcpy(&t, &st, sizeof t);
	t.pr.p[0].owner = 4;
	assert_int_equal(G->check(&t, &e), -1);
	memcpy(&t, &st, sizeof t);
	uint16_t x = t.hand[0][0];
	t.hand[0][0] = t.hand[0][1];
	t.hand[0][1] = x;
	assert_int_equal(G->check(&t, &e), -1);
	ok(&st, 0, "play rot-4 on 1");
	memcpy(&t, &st, sizeof t);
	t.pr.p[1].waiting |= 1u;   /* the turner may not snap */
	assert_int_equal(G->check(&t, &e), -1);
	assert_int_equal(G->check(&st, &e), 0);
}

/* ---- hidden information ----------------------------------------------- */

static void test_view_hides_other_hands(void **u)
{
	(void)u;
	struct dw_state st;
	struct vtext t;
	struct spec sp = base;
	sp.hand[1] = "blau-7 lila-8 joker huhn-blau huhn-lila";
	build(&st, &sp);
	view_text(&st, 0, &t);
	assert_non_null(strstr(t.s, "name=rot 4"));
	assert_null(strstr(t.s, "name=blau 7"));
	assert_null(strstr(t.s, "name=Huhn blau"));
	assert_non_null(strstr(t.s, "move=play rot-4 on 1"));
	assert_non_null(strstr(t.s, "hand_count=5"));
	assert_non_null(strstr(t.s, "chickens_left=2"));
	assert_non_null(strstr(t.s, "draw_count="));
	view_text(&st, -1, &t);
	assert_null(strstr(t.s, "[hand"));
	assert_null(strstr(t.s, "move="));
}

/* Issue 9: a button names the card it plays, not only the stack, so that
 * a screen reader (which reads the button, not the card drawn above it)
 * says what the click does. */
static void test_buttons_name_their_card(void **u)
{
	(void)u;
	struct dw_state st;
	static struct vtext t;
	build(&st, &base);
	view_text(&st, 0, &t);
	assert_non_null(strstr(t.s, "move=play rot-4 on 1\nlabel=rot 4 auf Stapel 1\n"));
	assert_non_null(strstr(t.s, "move=chicken gelb on 1\nlabel=Huhn gelb frisst Stapel 1\n"));
	build(&st, &snap_spec);
	ok(&st, 0, "play rot-4 on 1");
	view_text(&st, 1, &t);
	assert_non_null(strstr(t.s, "move=snap gelb-5\nlabel=gelb 5 zwischenwerfen auf Stapel 1\n"));
	/* every hand button starts with the name of its card */
	struct spec sp = base;
	sp.hand[0] = "grün-2 gelb-3 blau-1/10 joker huhn-rot huhn-grün";
	sp.stack[0] = "lila-6 rot-1/10";
	sp.stack[2] = "gelb-9 grün-3";
	build(&st, &sp);
	view_text(&st, 0, &t);
	int buttons = 0;
	for (const char *p = t.s; (p = strstr(p, "[hand\nname=")); p++) {
		char name[48];
		const char *q = p + strlen("[hand\nname=");
		size_t n = (size_t)(strchr(q, '\n') - q);
		memcpy(name, q, n);
		name[n] = '\0';
		const char *next = strstr(q, "[hand\n");
		if (!next)
			next = strstr(q, "[draw_moves\n");
		for (const char *l = q; (l = strstr(l, "label=")) && (!next || l < next); l++, buttons++)
			if (strncmp(l + 6, name, n) != 0 || l[6 + n] != ' ')
				fail_msg("button of %s: %.40s", name, l);
	}
	assert_true(buttons >= 6);
}

/* Issue 9: the view and its JSON twin spell a colour as the move language
 * does ("grün", not "gruen"); the ASCII form is only the CSS class token. */
static void test_view_spells_colours_like_moves(void **u)
{
	(void)u;
	struct dw_state st;
	static struct vtext t;
	struct spec sp = base;
	sp.hand[0] = "grün-2 gelb-3 huhn-rot huhn-grün";
	sp.stack[0] = "lila-6 rot-1/10";
	sp.stack[2] = "gelb-9 grün-3";
	build(&st, &sp);
	view_text(&st, 0, &t);
	assert_non_null(strstr(t.s, "name=grün 2\ncolour=grün\ncolour_class=gruen\n"));
	assert_non_null(strstr(t.s, "move=play grün-2 on 1\n"));
	assert_non_null(strstr(t.s, "name=Huhn grün\ncolour=grün\ncolour_class=gruen\n"));
	ok(&st, 0, "chicken gruen on 3");
	view_text(&st, -1, &t);
	assert_non_null(strstr(t.s, "[eaten\ncolour=grün\ncolour_class=gruen\n"));
	assert_null(strstr(t.s, "colour=gruen"));
	assert_null(strstr(t.s, "colour_name"));
}

/* The view's window says which stack, until when, and whether I may snap. */
static void test_view_snap_window(void **u)
{
	(void)u;
	struct dw_state st;
	struct vtext t;
	build(&st, &snap_spec);
	ok(&st, 0, "play rot-4 on 1");
	view_text(&st, 1, &t);
	assert_non_null(strstr(t.s, "[window\nstack=1\n"));
	assert_non_null(strstr(t.s, "deadline_ms=1010000\n"));
	assert_non_null(strstr(t.s, "may_snap?1"));
	assert_non_null(strstr(t.s, "move=snap gelb-5\n"));
	assert_non_null(strstr(t.s, "move=pass\n"));
	assert_non_null(strstr(t.s, "headline=Zwischenwurf auf Stapel 1 möglich — du darfst"));
	view_text(&st, 0, &t);
	assert_non_null(strstr(t.s, "may_snap?0"));
	assert_null(strstr(t.s, "move="));
}

/* The log keeps the last twelve public events, shown newest first; a
 * drawn card is never named. */
static void test_view_log_keeps_last_twelve(void **u)
{
	(void)u;
	struct dw_state st;
	struct vtext t;
	std_setup(&st, 3, 0, 4242);
	for (int i = 0; i < 40 && phase(&st) != DW_OVER; i++) {
		if (phase(&st) == DW_SNAP) {
			G->tick(&st, T0 + 100000);
			continue;
		}
		ok(&st, turn_seat(&st), "draw turn 2");
	}
	assert_int_equal(st.log.n, DW_LOG_MAX);
	view_text(&st, -1, &t);
	int n = 0;
	for (const char *p = t.s; (p = strstr(p, "[log\n")); p++)
		n++;
	assert_int_equal(n, DW_LOG_MAX);
	assert_non_null(strstr(t.s, "zieht eine Karte und dreht Stapel 2: oben liegt"));
	assert_null(strstr(t.s, "zieht gelb"));
	/* newest first: the first log item is the newest event, the last the oldest */
	char want[260], text[200];
	event_text(&st.log.ev[st.log.n - 1], text, sizeof text);
	snprintf(want, sizeof want, "[log\ntext=%s\n]\n", text);
	assert_ptr_equal(strstr(t.s, "[log\n"), strstr(t.s, want));
	event_text(&st.log.ev[0], text, sizeof text);
	snprintf(want, sizeof want, "[log\ntext=%s\n]\n", text);
	const char *last = NULL;
	for (const char *p = t.s; (p = strstr(p, "[log\n")); p++)
		last = p;
	assert_non_null(last);
	assert_memory_equal(last, want, strlen(want));
}

/* scramble(seat) re-deals what seat cannot see: view(seat) stays the same,
 * every count stays, the invariants hold, and something hidden did move. */
static void test_scramble_keeps_view(void **u)
{
	(void)u;
	static struct vtext a, b;
	struct dw_state st, sc;
	struct rerr e;
	struct rng r;
	rng_seed(&r, 31337);
	int moved = 0, checked = 0;
	for (int party = 0; party < 60; party++) {
		std_setup(&st, 3 + party % 4, party % 3, 7000u + (unsigned)party);
		int64_t now = T0;
		while (phase(&st) != DW_OVER || party % 5 == 0) {
			if (rng_below(&r, 4) == 0 || phase(&st) == DW_OVER) {
				for (int seat = -1; seat < st.nplayers; seat++) {
					memcpy(&sc, &st, sizeof sc);
					G->scramble(&sc, seat, rng_next(&r));
					assert_int_equal(G->check(&sc, &e), 0);
					view_text(&st, seat, &a);
					view_text(&sc, seat, &b);
					assert_string_equal(a.s, b.s);
					moved += memcmp(sc.pile.c, st.pile.c, sizeof st.pile.c) != 0;
					checked++;
				}
			}
			if (phase(&st) == DW_OVER)
				break;
			now += 100;
			random_step(&st, &r, now);
		}
	}
	assert_true(checked > 1000);
	assert_true(moved > checked / 2);
}

/* ---- the board page --------------------------------------------------- */

/* The board template (templates/game-drehwurm.tpl, loaded from
 * $SPIELTISCH_ROOT or the working directory) as seat sees st, into out. */
static void render_board(const struct dw_state *st, int seat, char *out, size_t cap)
{
	static int loaded;
	struct arena a;
	struct view v;
	struct view_sink sink;
	if (!loaded) {
		const char *root = getenv("SPIELTISCH_ROOT");
		char dir[512];
		snprintf(dir, sizeof dir, "%s/templates", root ? root : ".");
		assert_int_equal(tmpl_load(dir), 0);
		loaded = 1;
	}
	arena_init(&a, 8u << 20);
	view_init(&v, &a);
	view_num(&v, "v", 3);
	view_str(&v, "csrf", "TOKEN");
	view_str(&v, "move_url", "/t/1/move");
	view_sink_init(&v, &sink);
	G->view(st, seat, &sink);
	assert_false(v.failed);
	size_t len = 0;
	char *html = tmpl_expand(&a, "game-drehwurm.tpl", &v.root, &len);
	assert_non_null(html);
	assert_true(len < cap);
	memcpy(out, html, len + 1);
	arena_free(&a);
}

/* Issue 9: the page states the rules and the rulings that apply, with the
 * table's options in force (snap deadline, the snap-colour variant); every
 * card carries its colour's symbol and its name as text; a public bottom
 * card is shown under its stack; buttons name their card. */
/* The stack the last move changed is marked on the board, in words too;
 * the status bar's words name the prompt. */
static void test_view_marks_last_stack(void **u)
{
	(void)u;
	static char html[262144];
	struct dw_state st;
	struct spec sp = snap_spec;
	build(&st, &sp);
	assert_string_equal(G->doing(&st), "legen, fressen oder ziehen");
	render_board(&st, 1, html, sizeof html);
	assert_null(strstr(html, "dw-stack last"));
	ok(&st, 0, "play rot-4 on 1");
	render_board(&st, 1, html, sizeof html);
	assert_non_null(strstr(html, "dw-snap last\">\n<span class=\"dw-label\">Stapel 1 "
				     "<span class=\"last-mark\">zuletzt gelegt und gedreht</span>"));
	assert_null(strstr(strstr(html, "last-mark") + 1, "last-mark"));
}

static void test_page_states_rules_and_options(void **u)
{
	(void)u;
	static char html[262144];
	struct dw_state st;
	struct spec sp = snap_spec;
	sp.snap_seconds = 15;
	build(&st, &sp);
	render_board(&st, 0, html, sizeof html);
	assert_non_null(strstr(html, "<summary>Kurzregeln und Regelentscheidungen</summary>"));
	assert_non_null(strstr(html, "(15 s Frist), nach den normalen Regeln (andere Farbe, Nachbarzahl). Kein Huhn."));
	assert_null(strstr(html, "Variante an diesem Tisch"));
	assert_non_null(strstr(html, "rot ●, gelb ▲, grün ■, blau ◆, lila ★"));
	assert_non_null(strstr(html, "der Nachziehstapel aufgebraucht ist oder nicht mehr für einen neuen Stapel reicht"));
	assert_non_null(strstr(html, "Was in gefressenen Stapeln liegt, zeigt die Seite erst am Ende"));
	assert_non_null(strstr(html, "so viele Partien wie Mitspieler"));
	/* a worm card: class token, symbol, name as text */
	assert_non_null(strstr(html, "<span class=\"dw-card dw-rot\" title=\"rot 4\"><span class=\"dw-sym\" "
				     "aria-hidden=\"true\"></span>"));
	assert_non_null(strstr(html, "<span class=\"dw-corner\">rot 4</span>"));
	assert_non_null(strstr(html, "<span class=\"dw-card dw-gruen\" title=\"grün 1/10\">"));
	assert_null(strstr(html, "dw-grün"));
	assert_non_null(strstr(html, ">rot 4 auf Stapel 1</button>"));
	assert_non_null(strstr(html, "unten: verdeckt"));
	ok(&st, 0, "play rot-4 on 1");
	render_board(&st, 2, html, sizeof html);
	assert_non_null(strstr(html, "unten: <span class=\"dw-nw\"><span class=\"dw-mini dw-rot\" "
				     "aria-hidden=\"true\"><span class=\"dw-sym\"></span>4</span> rot 4</span>"));
	sp.snap_colour = 1;
	build(&st, &sp);
	render_board(&st, -1, html, sizeof html);
	assert_non_null(strstr(html, "<strong>Variante an diesem Tisch:</strong> statt einer anderen Farbe"));
}

/* ---- bounded counters ------------------------------------------------ */

/* A move of a random seat that may act, avoiding chickens while anything
 * else is listed: parties as long as random play makes them. */
static void long_step(struct dw_state *st, struct rng *r, int64_t now)
{
	static struct mlist m;
	char mv[GAME_MOVE_MAX + 1], pick[GAME_MOVE_MAX + 1] = "";
	struct status s;
	G->status(st, &s);
	int seat;
	do
		seat = (int)rng_below(r, (uint32_t)st->nplayers);
	while (!(s.to_act & (1u << seat)));
	list_moves(st, seat, &m);
	for (int tries = 0; tries < 8 && (!pick[0] || strncmp(pick, "chicken", 7) == 0); tries++) {
		nth_move(&m, (int)rng_below(r, (uint32_t)m.n), mv, sizeof mv);
		memcpy(pick, mv, sizeof pick);
	}
	struct rerr e;
	if (G->apply(st, seat, pick, now, &e) != 0)
		fail_msg("listed move '%s' rejected: %s", pick, e.msg);
}

/* Issue 10 (a party must not outlive its counters): every integer of the
 * state is bounded by the rules, so Drehwurm needs no move limit (see
 * docs/rulings.md). Counts are bounded by the 105 cards, the log is a ring
 * of twelve, and the epoch by epoch_max(n) = 168 − 8n; a party has at most
 * epoch_max(n) + (n − 1)(168 − 10n) moves (each play or draw opens at most
 * one window with n − 1 passes). Long parties stay inside both bounds; a
 * state exactly at the epoch bound passes check() and survives the
 * snapshot, one beyond it is refused. */
static void test_party_counters_bounded(void **u)
{
	(void)u;
	static unsigned char a[GAME_SNAPSHOT_MAX];
	static struct dw_state st, back;
	struct rerr e;
	struct rng r;
	rng_seed(&r, 2718);
	for (int n = 3; n <= DW_SEATS; n++) {
		uint32_t most = 0;
		int longest = 0, moves_max = (int)epoch_max(n) + (n - 1) * (168 - 10 * n);
		assert_int_equal(epoch_max(n), 168 - 8 * n);
		for (int party = 0; party < 400; party++) {
			std_setup(&st, n, party % n, 9000u + (unsigned)party);
			int64_t now = T0;
			int moves = 0;
			while (phase(&st) != DW_OVER) {
				now += 100;
				long_step(&st, &r, now);
				moves++;
				assert_true(st.log.n <= DW_LOG_MAX);
				for (int s = 0; s < n; s++)
					assert_true(st.nhand[s] <= DW_HAND_CAP && st.neaten[s] <= DW_EATEN_CAP);
			}
			assert_int_equal(G->check(&st, &e), 0);
			most = st.epoch > most ? st.epoch : most;
			longest = moves > longest ? moves : longest;
		}
		assert_true(most <= epoch_max(n) && most > epoch_max(n) / 2);
		assert_true(longest <= moves_max);
	}
	std_setup(&st, 3, 0, 5);
	st.epoch = epoch_max(3);
	assert_int_equal(G->check(&st, &e), 0);
	size_t len = encode(&st, a);
	assert_int_equal(game_load(G, &back, a, len, &e), 0);
	assert_int_equal(back.epoch, 144);
	st.epoch++;
	assert_int_equal(G->check(&st, &e), -1);
	len = encode(&st, a);
	assert_int_equal(game_load(G, &back, a, len, &e), -1);
	assert_non_null(strstr(e.msg, "Grenze"));
}

/* ---- known answers ---------------------------------------------------- */

/* Seed 42, three players, seat 2 deals: a fixed move list (with one window
 * that runs out) gives a fixed board, fixed scores and a fixed snapshot. */
static void test_known_answer_seed_moves(void **u)
{
	(void)u;
	static const struct {
		int seat;
		const char *move;
		int64_t at;
	} steps[] = {
		{ 0, "play grün-8 on 1", 1001000 },
		{ 2, "snap grün-3", 1002000 },
		{ 1, "draw turn 3", 1003000 },
		{ 0, "snap grün-6", 1004000 },
		{ 2, "chicken grün on 3", 1005000 },
		{ 0, "chicken rot on 3", 1006000 },
		{ 1, "draw turn 2", 1007000 },
		{ 0, "pass", 1008000 },
		{ -1, "tick", 1017000 },
		{ 2, "chicken grün on 1", 1018000 },
		{ 0, "draw turn 3", 1019000 },
		{ 1, "snap joker", 1020000 },
		{ 1, "chicken blau on 3", 1021000 },
		{ 2, "play blau-3 on 1", 1022000 },
		{ 0, "snap blau-7", 1023000 },
		{ 0, "chicken blau on 1", 1024000 },
		{ 1, "chicken gelb on 2", 1025000 },
	};
	static unsigned char snap[GAME_SNAPSHOT_MAX];
	static struct vtext t;
	struct dw_state st;
	struct status s;
	struct rerr e;
	std_setup(&st, 3, 2, 42);
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
		if (steps[i].seat < 0) {
			/* the window is still open a millisecond before its deadline */
			assert_int_equal(G->tick(&st, steps[i].at - 1), 0);
			assert_int_equal(G->tick(&st, steps[i].at), 1);
			continue;
		}
		if (G->apply(&st, steps[i].seat, steps[i].move, steps[i].at, &e) != 0)
			fail_msg("step %zu '%s': %s", i, steps[i].move, e.msg);
		assert_int_equal(G->check(&st, &e), 0);
	}
	G->status(&st, &s);
	assert_true(s.over);
	assert_int_equal(st.end_reason, DW_END_CHICKENS_USED);
	assert_int_equal(s.epoch, 15);
	assert_int_equal(s.score[0], 6);
	assert_int_equal(s.score[1], -1);
	assert_int_equal(s.score[2], 5);
	assert_int_equal(st.pile.n, 39);
	assert_true(top_is(&st, 0, "lila-1/10"));
	assert_true(top_is(&st, 1, "rot-2"));
	assert_true(top_is(&st, 2, "grün-5"));
	view_text(&st, -1, &t);
	assert_non_null(strstr(t.s, "headline=Die Partie ist vorbei: @0 gewinnt mit 6 Punkten.\n"));
	assert_non_null(strstr(t.s, "draw_count=39\n"));
	assert_non_null(strstr(t.s, "text=@0 frisst mit dem Huhn in blau Stapel 1 (4 Karten).\n"));
	assert_non_null(strstr(t.s, "text=Alle haben ihre Hühner eingesetzt.\n"));
	assert_int_equal(st.nhand[0], 8);
	assert_int_equal(st.nhand[1], 11);
	assert_int_equal(st.nhand[2], 8);
	/* The CRC of the payload without its trailing CRC (the CRC of a whole
	 * snapshot is the same constant for every snapshot). Fassung 2 changed
	 * it from 070c939d (415 bytes): the version byte and three flags of
	 * public bottom cards; Fassung 3 from f59c0224 (418 bytes): the turn
	 * and the snap window became prompts (an empty stack once over). The
	 * game itself played the same both times. */
	size_t n = encode(&st, snap);
	assert_int_equal(n, 406);
	assert_int_equal(crc32_bytes(snap, n - 4), 0xe1e08a00u);
}

/* ---- the simulator ---------------------------------------------------- */

static void run_sim(int players, int parties, const int *opt)
{
	static unsigned char sa[GAME_SNAPSHOT_MAX], sb[GAME_SNAPSHOT_MAX];
	static struct sim_step log[4000];
	static struct dw_state s1, s2;
	struct sim_mem mem = { .state = &s1, .replay = &s2, .log = log, .max_steps = 4000,
				.snap_a = sa, .snap_b = sb };
	int ticks = 0, snaps = 0;
	for (int i = 0; i < parties; i++) {
		struct setup s = { .nplayers = players, .dealer = i % players,
				   .seed = 555u + (uint64_t)i * 7 };
		memcpy(s.opt, opt, sizeof s.opt);
		struct sim_result r;
		sim_party(G, &s, s.seed ^ 0xabcULL, &mem, &r);
		if (!r.ended || r.invariant_failures || r.replay_mismatch || r.rejected_legal || r.stuck)
			fail_msg("%d players, party %d: %s", players, i, r.err.msg);
		for (int k = 0; k < r.steps; k++) {
			ticks += log[k].seat < 0;
			snaps += strncmp(log[k].text, "snap ", 5) == 0;
		}
	}
	/* the random parties did reach the snap window and its deadline */
	assert_true(ticks > 0);
	assert_true(snaps > 0);
}

static void test_sim_many_parties(void **u)
{
	(void)u;
	int opt[GAME_OPT_MAX];
	options_default(G, opt);
	for (int n = 3; n <= 6; n++)
		run_sim(n, 1500, opt);
	opt[DW_OPT_SNAP_COLOUR] = 1;
	opt[DW_OPT_SNAP_SECONDS] = 2;
	for (int n = 3; n <= 6; n++)
		run_sim(n, 500, opt);
}

static void test_setup_rejects_bad_players_and_options(void **u)
{
	(void)u;
	struct dw_state st;
	struct setup s = { .nplayers = 2, .dealer = 0, .seed = 1 };
	struct rerr e;
	options_default(G, s.opt);
	assert_int_equal(game_setup(G, &st, &s, &e), -1);
	s.nplayers = 7;
	assert_int_equal(game_setup(G, &st, &s, &e), -1);
	s.nplayers = 3;
	s.dealer = 3;
	assert_int_equal(game_setup(G, &st, &s, &e), -1);
	s.dealer = 0;
	s.opt[DW_OPT_SNAP_SECONDS] = 1;
	assert_int_equal(game_setup(G, &st, &s, &e), -1);
	s.opt[DW_OPT_SNAP_SECONDS] = 10;
	assert_int_equal(game_setup(G, &st, &s, &e), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deck_split),
		cmocka_unit_test(test_setup_two_chickens_each_rest_unused),
		cmocka_unit_test(test_setup_chickens_shuffled),
		cmocka_unit_test(test_setup_ten_worms_each),
		cmocka_unit_test(test_setup_three_stacks_of_two),
		cmocka_unit_test(test_setup_rest_is_draw_pile),
		cmocka_unit_test(test_setup_shuffles_by_seed),
		cmocka_unit_test(test_setup_rejects_bad_players_and_options),
		cmocka_unit_test(test_match_has_one_party_per_player),
		cmocka_unit_test(test_match_dealer_rotates_left_starts),
		cmocka_unit_test(test_match_ties_share_the_win),
		cmocka_unit_test(test_one_card_per_move),
		cmocka_unit_test(test_worm_needs_other_colour),
		cmocka_unit_test(test_worm_needs_neighbouring_number),
		cmocka_unit_test(test_example_yellow_three),
		cmocka_unit_test(test_one_ten_neighbours_two_and_nine),
		cmocka_unit_test(test_joker_on_any_card),
		cmocka_unit_test(test_any_worm_on_joker),
		cmocka_unit_test(test_stack_turns_after_play),
		cmocka_unit_test(test_stack_shows_public_bottom_card),
		cmocka_unit_test(test_chicken_needs_its_colour_on_top),
		cmocka_unit_test(test_chicken_eats_joker_top),
		cmocka_unit_test(test_chicken_takes_whole_stack),
		cmocka_unit_test(test_second_eaten_stack_kept_apart),
		cmocka_unit_test(test_chicken_lays_new_stack_from_pile),
		cmocka_unit_test(test_draw_then_turn_any_stack),
		cmocka_unit_test(test_draw_allowed_even_with_playable_card),
		cmocka_unit_test(test_snap_window_after_play),
		cmocka_unit_test(test_snap_window_after_draw_turn),
		cmocka_unit_test(test_snap_not_by_turner),
		cmocka_unit_test(test_snap_follows_normal_rules),
		cmocka_unit_test(test_snap_no_chicken),
		cmocka_unit_test(test_snap_first_valid_wins),
		cmocka_unit_test(test_snapped_stack_not_turned),
		cmocka_unit_test(test_after_snap_turn_order_unchanged),
		cmocka_unit_test(test_window_closes_when_all_passed),
		cmocka_unit_test(test_window_closes_at_deadline),
		cmocka_unit_test(test_regular_move_waits_for_window),
		cmocka_unit_test(test_window_does_not_tell_who_can_snap),
		cmocka_unit_test(test_no_window_when_nobody_can_snap),
		cmocka_unit_test(test_variant_snap_same_colour),
		cmocka_unit_test(test_party_ends_when_hand_empty),
		cmocka_unit_test(test_party_ends_when_hand_empty_by_snap),
		cmocka_unit_test(test_party_ends_when_all_chickens_used),
		cmocka_unit_test(test_party_ends_when_draw_pile_empty),
		cmocka_unit_test(test_party_ends_when_pile_too_small_for_new_stack),
		cmocka_unit_test(test_scoring_each_stack_separately),
		cmocka_unit_test(test_scoring_colour_three_joker_two_other_one),
		cmocka_unit_test(test_scoring_minus_one_per_hand_card),
		cmocka_unit_test(test_running_score_is_public),
		cmocka_unit_test(test_final_scoring_in_view),
		cmocka_unit_test(test_party_tie_shares_the_win),
		cmocka_unit_test(test_epoch_changes_on_card_not_on_pass),
		cmocka_unit_test(test_card_spellings),
		cmocka_unit_test(test_bad_moves_rejected_state_unchanged),
		cmocka_unit_test(test_message_quotes_typed_text_by_characters),
		cmocka_unit_test(test_moves_match_apply),
		cmocka_unit_test(test_moves_canonical_no_duplicates),
		cmocka_unit_test(test_snapshot_round_trip),
		cmocka_unit_test(test_snapshot_corrupt_rejected),
		cmocka_unit_test(test_snapshot_earlier_format_rebuilt),
		cmocka_unit_test(test_check_catches_broken_invariants),
		cmocka_unit_test(test_view_hides_other_hands),
		cmocka_unit_test(test_view_snap_window),
		cmocka_unit_test(test_buttons_name_their_card),
		cmocka_unit_test(test_view_spells_colours_like_moves),
		cmocka_unit_test(test_view_log_keeps_last_twelve),
		cmocka_unit_test(test_scramble_keeps_view),
		cmocka_unit_test(test_page_states_rules_and_options),
		cmocka_unit_test(test_view_marks_last_stack),
		cmocka_unit_test(test_party_counters_bounded),
		cmocka_unit_test(test_known_answer_seed_moves),
		cmocka_unit_test(test_sim_many_parties),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
