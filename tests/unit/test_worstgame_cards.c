/* test_worstgame_cards.c — Worst Game Ever card by card: a named test per
 * kind of card (test_card_SLUG, docs/cards-worstgame.md names them), each
 * putting the card into a scenario and checking its exact effect (chips of
 * every seat and the kitty, hands, the discard pile, cards in play, the
 * attack); cards answering cards on the stack; the cards that stay in play
 * over turns and their end conditions; a card whose player or target is
 * out; the card set itself; and that the card document lists every card.
 *
 * The rules file is included so that a test can set hands, chips, the deck
 * and the cards in play to the position it needs; every card stays where
 * it is exactly once (cards are moved out of the deck, never invented),
 * and every step is checked. Play itself goes through apply() with real
 * moves, so that the windows and the stack work as players use them; seats
 * that should not be asked say `react none`.
 *
 * The tests run from the repository root (make unit). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../rules/worstgame.c"
#include "options.h"
#include "unit/viewtext.h"

static const struct game *const G = &worstgame_game;
static const int64_t T0 = 1000000;
static const char *const CARDS_DOC = "docs/cards-worstgame.md";

/* ---- helpers ---------------------------------------------------------------------- */

static void assert_ok(const struct wg_state *s)
{
	struct rerr e = { .msg = "" };
	if (G->check(s, &e) != 0)
		fail_msg("check: %s", e.msg);
}

static void ok(struct wg_state *s, int seat, const char *move)
{
	struct rerr e = { .msg = "" };
	if (G->apply(s, seat, move, T0, &e) != 0)
		fail_msg("'%s' by %d refused: %s", move, seat, e.msg);
	assert_ok(s);
}

/* A refused move: its message contains `want`, the state is unchanged. */
static void bad(struct wg_state *s, int seat, const char *move, const char *want)
{
	struct wg_state *keep = malloc(sizeof *keep);
	struct rerr e = { .msg = "" };
	assert_non_null(keep);
	memcpy(keep, s, sizeof *keep);
	assert_int_equal(G->apply(s, seat, move, T0, &e), -1);
	if (!strstr(e.msg, want))
		fail_msg("'%s' by %d: message '%s' lacks '%s'", move, seat, e.msg, want);
	assert_memory_equal(keep, s, sizeof *keep);
	free(keep);
}

static struct wg_state *deal(int n, uint64_t seed)
{
	struct wg_state *s = calloc(1, sizeof *s);
	struct setup su = { .nplayers = n, .dealer = 0, .seed = seed };
	struct rerr e;
	assert_non_null(s);
	options_default(G, su.opt);
	assert_int_equal(game_setup(G, s, &su, &e), 0);
	assert_ok(s);
	return s;
}

/* Seat's hand goes under the deck (where no draw in a test reaches). */
static void empty_hand(struct wg_state *s, int seat)
{
	assert_int_equal(pile_put_under(s->deck, &s->ndeck, WG_CARDS, s->hand[seat], s->nhand[seat]),
			 0);
	s->nhand[seat] = 0;
}

/* A party of n: nobody is asked in any window (`react none`), the first
 * ante's window passed; seat 0 on turn, about to attack; every hand empty
 * (all 100 cards in the deck); chips 11, 12, 12, … and 1 in the kitty. */
static struct wg_state *start(int n, uint64_t seed)
{
	struct wg_state *s = deal(n, seed);
	for (int q = 0; q < n; q++)
		ok(s, q, "react none");
	uint32_t w = prompt_peek(&s->pr)->waiting;   /* the ante's window, opened at the deal */
	for (int q = 0; q < n; q++)
		if ((w >> q) & 1u)
			ok(s, q, "pass");
	assert_int_equal(prompt_kind(&s->pr), PR_TURN);
	assert_int_equal(s->active, 0);
	assert_int_equal(s->step, ST_ATTACK);
	for (int q = 0; q < n; q++)
		empty_hand(s, q);
	assert_int_equal(s->ndeck, WG_CARDS);
	assert_ok(s);
	return s;
}

/* Takes a card of kind `slug` out of the deck: its id. */
static uint16_t take_free(struct wg_state *s, const char *slug)
{
	int t = type_by_slug(slug);
	assert_true(t >= 0);
	for (int i = s->ndeck - 1; i >= 0; i--)
		if (type_index(s->deck[i]) == t) {
			uint16_t c = s->deck[i];
			pile_remove_at(s->deck, &s->ndeck, i);
			return c;
		}
	fail_msg("no '%s' left in the deck", slug);
	return 0;
}

static uint16_t to_hand(struct wg_state *s, int seat, const char *slug)
{
	uint16_t c = take_free(s, slug);
	s->hand[seat][s->nhand[seat]++] = c;
	assert_ok(s);
	return c;
}

/* The next card drawn is this one of `slug`. */
static uint16_t to_deck_top(struct wg_state *s, const char *slug)
{
	uint16_t c = take_free(s, slug);
	s->deck[s->ndeck++] = c;
	return c;
}

/* A card of `slug` lies in front of holder with `chips` of the holder's
 * chips on it (a position, for cards that are not the one tested). */
static uint16_t lay(struct wg_state *s, int holder, const char *slug, int chips)
{
	uint16_t c = take_free(s, slug);
	assert_true(s->chips[holder] >= chips);
	s->chips[holder] = (int16_t)(s->chips[holder] - chips);
	s->table[s->ntable++] = (struct wg_inplay){ c, (uint8_t)holder, (uint8_t)chips };
	assert_ok(s);
	return c;
}

#define NARGS(...) ((int)(sizeof((const int[]){ __VA_ARGS__ }) / sizeof(int)))

/* Every seat's chips; the kitty has the rest. */
static void set_all(struct wg_state *s, const int *c, int n)
{
	int rest = WG_START_CHIPS * s->n;
	assert_int_equal(n, s->n);
	for (int q = 0; q < n; q++) {
		s->chips[q] = (int16_t)c[q];
		rest -= c[q];
	}
	for (int i = 0; i < s->ntable; i++)
		rest -= s->table[i].chips;
	assert_true(rest >= 0);
	s->kitty = (int16_t)rest;
	assert_ok(s);
}
#define SET(s, ...) set_all((s), (const int[]){ __VA_ARGS__ }, NARGS(__VA_ARGS__))

static void chips_are(const struct wg_state *s, int kitty, const int *c, int n, int line)
{
	assert_int_equal(n, s->n);
	for (int q = 0; q < n; q++)
		if (s->chips[q] != c[q])
			fail_msg("line %d: seat %d has %d chips, not %d", line, q, s->chips[q], c[q]);
	if (s->kitty != kitty)
		fail_msg("line %d: the kitty has %d chips, not %d", line, s->kitty, kitty);
}
/* CHIPS(s, kitty, seat 0, seat 1, …) */
#define CHIPS(s, kitty, ...) \
	chips_are((s), (kitty), (const int[]){ __VA_ARGS__ }, NARGS(__VA_ARGS__), __LINE__)

/* Pile a holds exactly the cards c (in order when `ordered`). */
static void cards_are(const uint16_t *a, int na, const int *c, int n, int ordered,
		      const char *what, int line)
{
	if (na != n)
		fail_msg("line %d: %s has %d cards, not %d", line, what, na, n);
	for (int i = 0; i < n; i++)
		if (ordered ? a[i] != c[i] : pile_find(a, na, (uint16_t)c[i]) < 0)
			fail_msg("line %d: %s lacks card %d (place %d)", line, what, c[i], i);
}
/* The hand of seat q is exactly these cards (any order). */
#define HAND(s, q, ...) \
	cards_are((s)->hand[q], (s)->nhand[q], (const int[]){ __VA_ARGS__ }, NARGS(__VA_ARGS__), 0, \
		  "the hand", __LINE__)
/* The discard pile is exactly these cards, bottom first. */
#define DISCARD(s, ...) \
	cards_are((s)->discard, (s)->ndiscard, (const int[]){ __VA_ARGS__ }, NARGS(__VA_ARGS__), 1, \
		  "the discard pile", __LINE__)

/* The generator's next roll of a d6 is `face`. */
static void pin_die(struct wg_state *s, int face)
{
	for (int i = 0; i < 1000; i++) {
		struct rng r = s->rng;
		if (rng_die(&r, 6) == face)
			return;
		rng_next(&s->rng);
	}
	fail_msg("die not pinned to %d", face);
}

static int in_pile(const uint16_t *a, int n, uint16_t c)
{
	return pile_find(a, n, c) >= 0;
}

/* The holder of card c lying in play, or -1. */
static int holder_of(const struct wg_state *s, uint16_t c)
{
	for (int i = 0; i < s->ntable; i++)
		if (s->table[i].card == c)
			return s->table[i].holder;
	return -1;
}

static int chips_on(const struct wg_state *s, uint16_t c)
{
	for (int i = 0; i < s->ntable; i++)
		if (s->table[i].card == c)
			return s->table[i].chips;
	fail_msg("card %u does not lie", c);
	return -1;
}

/* The newest event of `type` in the log, or fails. */
static const struct game_event *last_ev(const struct wg_state *s, int type)
{
	for (int i = s->log.n - 1; i >= 0; i--)
		if (s->log.ev[i].type == type)
			return &s->log.ev[i];
	fail_msg("no event of type %d", type);
	return NULL;
}

static int count_ev(const struct wg_state *s, int type)
{
	int k = 0;
	for (int i = 0; i < s->log.n; i++)
		k += s->log.ev[i].type == type;
	return k;
}

/* How card c resolved last: 0 it worked, 1 cancelled, 2 went back. */
static int fate_of(const struct wg_state *s, uint16_t c)
{
	for (int i = s->log.n - 1; i >= 0; i--)
		if (s->log.ev[i].type == EV_RESOLVE && s->log.ev[i].card == c)
			return s->log.ev[i].arg;
	fail_msg("card %u never resolved", c);
	return -1;
}

/* The open window's kind (K_*) and seats, or -1 and 0. */
static int window_kind(const struct wg_state *s)
{
	const struct prompt *p = prompt_peek(&s->pr);
	return p && p->kind == PR_REACT ? p->arg : -1;
}

static uint32_t window_for(const struct wg_state *s)
{
	const struct prompt *p = prompt_peek(&s->pr);
	return p && p->kind == PR_REACT ? p->seats : 0;
}

struct find {
	const char *want;
	int found;
};

static void find_emit(void *ctx, const char *m)
{
	struct find *f = ctx;
	f->found |= strcmp(f->want, m) == 0;
}

static int has_move(const struct wg_state *s, int seat, const char *move)
{
	struct find f = { move, 0 };
	G->moves(s, seat, find_emit, &f);
	return f.found;
}

/* The active seat attacks the next seat for 6 on a pinned 1 (it fails,
 * whatever lies) and ends its turn; the next seat antes and draws. Nobody
 * listens to anything. */
static void finish_turn(struct wg_state *s)
{
	int a = s->active, next = seat_next(a, s->n);
	char m[32];
	if (s->step == ST_ATTACK) {
		snprintf(m, sizeof m, "attack %d 6", next);
		pin_die(s, 1);
		ok(s, a, m);
	}
	assert_int_equal(s->step, ST_AFTER);
	ok(s, a, "end");
	assert_int_equal(prompt_kind(&s->pr), PR_TURN);
	assert_int_equal(s->active, next);
	assert_int_equal(s->step, ST_ATTACK);
}

/* What `viewer` is shown of `seat` (its section of the view), into t. */
static const char *seat_view(const struct wg_state *s, int viewer, int seat, struct vtext *t)
{
	struct view_sink v = vt_sink(t);
	char key[32];
	G->view(s, viewer, &v);
	snprintf(key, sizeof key, "[seats\nseat=%d\n", seat);
	char *a = strstr(t->s, key);
	assert_non_null(a);
	char *b = strstr(a + 1, "\n[seats\n");
	if (!b)
		b = strstr(a, "\nhas_hand?");
	assert_non_null(b);
	*b = '\0';
	return a;
}

/* ---- chips ----------------------------------------------------------------------------- */

/* "Nimm 2 Chips aus dem Topf." A short kitty gives what it has. */
static void test_card_topfgriff(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 1);
	SET(s, 10, 10, 10, 10);
	uint16_t c = to_hand(s, 0, "topfgriff"), d = to_hand(s, 0, "topfgriff");
	ok(s, 0, "play topfgriff");
	CHIPS(s, 6, 12, 10, 10, 10);
	HAND(s, 0, d);
	DISCARD(s, c);
	assert_int_equal(fate_of(s, c), 0);
	assert_int_equal(s->nstack + s->ntable, 0);
	assert_int_equal(prompt_kind(&s->pr), PR_TURN);
	assert_int_equal(s->step, ST_ATTACK);   /* played before the attack; the turn goes on */
	SET(s, 12, 12, 11, 12);                 /* kitty 1 */
	ok(s, 0, "play topfgriff");
	CHIPS(s, 0, 13, 12, 11, 12);
	assert_int_equal(s->nhand[0], 0);
	DISCARD(s, c, d);
	free(s);
}

/* "Nimm einer Person deiner Wahl 2 Chips weg." At most what it has. */
static void test_card_langfinger(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 2);
	SET(s, 10, 10, 10, 10);
	uint16_t c = to_hand(s, 0, "langfinger"), d = to_hand(s, 0, "langfinger");
	bad(s, 0, "play langfinger", "Langfinger braucht eine Person: play langfinger PLATZ.");
	bad(s, 0, "play langfinger 0", "Wähle eine andere Person als dich.");
	bad(s, 0, "play langfinger 4", "'4' ist kein Platz an diesem Tisch.");
	assert_true(has_move(s, 0, "play langfinger 3"));
	assert_false(has_move(s, 0, "play langfinger 0"));
	ok(s, 0, "play langfinger 2");
	CHIPS(s, 8, 12, 10, 8, 10);
	assert_int_equal(last_ev(s, EV_PLAY)->where, 2);
	SET(s, 10, 10, 1, 10);
	ok(s, 0, "play langfinger 2");
	CHIPS(s, 17, 11, 10, 0, 10);
	assert_int_equal(s->nhand[0], 0);
	DISCARD(s, c, d);
	free(s);
}

/* "Eine Person deiner Wahl zahlt 2 Chips in den Topf." */
static void test_card_strafzettel(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 3);
	SET(s, 10, 10, 10, 10);
	uint16_t c = to_hand(s, 0, "strafzettel"), d = to_hand(s, 0, "strafzettel");
	ok(s, 0, "play strafzettel 3");
	CHIPS(s, 10, 10, 10, 10, 8);
	SET(s, 10, 10, 10, 1);
	ok(s, 0, "play strafzettel 3");
	CHIPS(s, 18, 10, 10, 10, 0);
	DISCARD(s, c, d);
	free(s);
}

/* "Alle anderen schenken dir je 1 Chip." Who has none gives none. */
static void test_card_geburtstag(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 4);
	SET(s, 10, 10, 1, 0);
	uint16_t c = to_hand(s, 0, "geburtstag");
	ok(s, 0, "play geburtstag");
	CHIPS(s, 27, 12, 9, 0, 0);
	DISCARD(s, c);
	/* played by another seat in a window: it receives */
	ok(s, 2, "react attack");
	uint16_t d = to_hand(s, 2, "geburtstag");
	SET(s, 10, 10, 10, 10);
	pin_die(s, 1);
	ok(s, 0, "attack 1 6");
	assert_int_equal(window_for(s), 1u << 2);
	ok(s, 2, "play geburtstag");
	CHIPS(s, 8, 9, 9, 13, 9);
	DISCARD(s, c, d);
	free(s);
}

/* "Wähle eine Person: alle anderen nehmen ihr je 1 Chip weg." When she has
 * too few, one at a time clockwise from the active seat (as from a short
 * kitty), not from the card's player. */
static void test_card_alle_gegen_einen(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 5);
	SET(s, 10, 10, 10, 10);
	uint16_t c = to_hand(s, 0, "alle-gegen-einen");
	ok(s, 0, "play alle-gegen-einen 2");
	CHIPS(s, 8, 11, 11, 7, 11);
	ok(s, 3, "react attack");
	uint16_t d = to_hand(s, 3, "alle-gegen-einen");
	SET(s, 10, 10, 2, 10);
	pin_die(s, 1);
	ok(s, 0, "attack 1 6");
	ok(s, 3, "play alle-gegen-einen 2");
	CHIPS(s, 16, 11, 11, 0, 10);
	DISCARD(s, c, d);
	free(s);
}

/* "Alle, die noch dabei sind, nehmen je 2 Chips aus dem Topf." A short
 * kitty: one chip at a time, clockwise from the active seat. */
static void test_card_freibier(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 6);
	SET(s, 10, 10, 10, 10);
	uint16_t c = to_hand(s, 0, "freibier"), d = to_hand(s, 0, "freibier");
	ok(s, 0, "play freibier");
	CHIPS(s, 0, 12, 12, 12, 12);
	SET(s, 10, 10, 10, 13);   /* kitty 5: a round of 1 each, then seat 0 */
	ok(s, 0, "play freibier");
	CHIPS(s, 0, 12, 11, 11, 14);
	DISCARD(s, c, d);
	free(s);
}

/* "Gib einer Person deiner Wahl 3 deiner Chips." At most what you have. */
static void test_card_koenigsmacher(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 7);
	SET(s, 10, 10, 10, 10);
	uint16_t c = to_hand(s, 0, "koenigsmacher"), d = to_hand(s, 0, "koenigsmacher");
	ok(s, 0, "play koenigsmacher 1");
	CHIPS(s, 8, 7, 13, 10, 10);
	SET(s, 2, 10, 10, 10);
	ok(s, 0, "play koenigsmacher 3");
	CHIPS(s, 16, 0, 10, 10, 12);
	DISCARD(s, c, d);
	free(s);
}

/* "Wer die meisten Chips hat, gibt 2 an den, der die wenigsten hat." Ties:
 * the first clockwise from the active seat. */
static void test_card_robin_hood(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 8);
	SET(s, 5, 15, 3, 10);
	uint16_t c = to_hand(s, 0, "robin-hood"), d = to_hand(s, 0, "robin-hood");
	ok(s, 0, "play robin-hood");
	CHIPS(s, 15, 5, 13, 5, 10);
	SET(s, 10, 12, 4, 12);
	ok(s, 0, "play robin-hood");
	CHIPS(s, 10, 10, 10, 6, 12);
	DISCARD(s, c, d);
	free(s);
}

/* "Nimm 3 Chips aus dem Topf. Zahle 3 Chips in den Topf." Nothing, as
 * long as the kitty has 3; from a short kitty you take less than you pay. */
static void test_card_fehldruck(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 9);
	SET(s, 10, 10, 10, 10);
	uint16_t c = to_hand(s, 0, "fehldruck"), d = to_hand(s, 0, "fehldruck");
	ok(s, 0, "play fehldruck");
	CHIPS(s, 8, 10, 10, 10, 10);
	SET(s, 12, 12, 11, 12);   /* kitty 1: take 1, pay 3 */
	ok(s, 0, "play fehldruck");
	CHIPS(s, 3, 10, 12, 11, 12);
	DISCARD(s, c, d);
	free(s);
}

/* "Diese Karte ist kaputt. Sie tut nichts. Gar nichts." */
static void test_card_kaputt(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 10);
	SET(s, 10, 10, 10, 10);
	uint16_t c = to_hand(s, 0, "kaputt"), x = to_hand(s, 1, "topfgriff");
	int deck = s->ndeck;
	ok(s, 0, "play kaputt");
	CHIPS(s, 8, 10, 10, 10, 10);
	assert_int_equal(s->nhand[0], 0);
	HAND(s, 1, x);
	assert_int_equal(s->ndeck, deck);
	DISCARD(s, c);
	assert_int_equal(fate_of(s, c), 0);
	assert_int_equal(s->ntable + s->nstack, 0);
	assert_int_equal(s->atk.on, 0);
	assert_int_equal(s->step, ST_ATTACK);
	free(s);
}

/* "Der Würfel rollt: bei 1–3 zahlst du 2 Chips in den Topf, bei 4–6 nimmst
 * du 2 heraus." The roll is in the log. */
static void test_card_kopf_oder_zahl(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 11);
	SET(s, 10, 10, 10, 10);
	uint16_t c = to_hand(s, 0, "kopf-oder-zahl"), d = to_hand(s, 0, "kopf-oder-zahl");
	pin_die(s, 3);
	ok(s, 0, "play kopf-oder-zahl");
	CHIPS(s, 10, 8, 10, 10, 10);
	assert_int_equal(last_ev(s, EV_COIN)->arg, 3);
	assert_int_equal(last_ev(s, EV_COIN)->seat, 0);
	pin_die(s, 4);
	ok(s, 0, "play kopf-oder-zahl");
	CHIPS(s, 8, 10, 10, 10, 10);
	assert_int_equal(last_ev(s, EV_COIN)->arg, 4);
	DISCARD(s, c, d);
	free(s);
}

/* "Hat eine Person deiner Wahl höchstens 2 Chips, zahlt sie alle in den
 * Topf." With 3 nothing happens; with 2 she has none, and at the end of the
 * turn she is out and the end begins. */
static void test_card_gnadenstoss(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 12);
	SET(s, 10, 10, 2, 3);
	uint16_t c = to_hand(s, 0, "gnadenstoss"), d = to_hand(s, 0, "gnadenstoss");
	ok(s, 0, "play gnadenstoss 3");
	CHIPS(s, 23, 10, 10, 2, 3);
	ok(s, 0, "play gnadenstoss 2");
	CHIPS(s, 25, 10, 10, 0, 3);
	DISCARD(s, c, d);
	pin_die(s, 1);
	ok(s, 0, "attack 1 6");
	ok(s, 0, "end");
	assert_int_equal(s->out, 1u << 2);
	assert_int_equal(last_ev(s, EV_OUT)->seat, 2);
	assert_int_equal(prompt_kind(&s->pr), PR_FINAL);
	assert_int_equal(prompt_peek(&s->pr)->seats, 0xbu);
	free(s);
}

/* "Nur am Ende eines Zuges: nimm 2 Chips aus dem Topf." Refused before;
 * in the window after `end` anyone listening may play it, before anyone
 * is out: a seat without chips saves itself. Then the next turn begins. */
static void test_card_rettungsring(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 13);
	SET(s, 10, 10, 0, 10);
	uint16_t mine = to_hand(s, 0, "rettungsring"), c = to_hand(s, 2, "rettungsring");
	ok(s, 2, "react end");
	bad(s, 0, "play rettungsring", "Rettungsring: Nur am Ende eines Zuges");
	assert_false(has_move(s, 0, "play rettungsring"));
	pin_die(s, 1);
	ok(s, 0, "attack 1 6");
	bad(s, 0, "play rettungsring", "Rettungsring: Nur am Ende eines Zuges");
	ok(s, 0, "end");
	assert_int_equal(window_kind(s), K_END);
	assert_int_equal(window_for(s), 1u << 2);
	assert_true(has_move(s, 2, "play rettungsring"));
	ok(s, 2, "play rettungsring");
	/* seat 2 took 2 and is not out; seat 1's turn: its ante */
	assert_int_equal(s->out, 0);
	CHIPS(s, 17, 10, 9, 2, 10);
	assert_int_equal(s->active, 1);
	HAND(s, 0, mine);
	assert_int_equal(s->nhand[2], 0);
	DISCARD(s, c);
	free(s);
}

/* "Nur am Ende eines Zuges: hat eine Person deiner Wahl genau 1 Chip,
 * zahlt sie ihn in den Topf." With 2 nothing; with 1 she has none and is
 * out at once, the turn being over. */
static void test_card_rauswurf(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 14);
	SET(s, 10, 10, 1, 2);
	uint16_t x = to_hand(s, 0, "rauswurf"), y = to_hand(s, 1, "rauswurf");
	ok(s, 0, "react end");
	ok(s, 1, "react card");
	bad(s, 0, "play rauswurf 2", "Rauswurf: Nur am Ende eines Zuges");
	pin_die(s, 1);
	ok(s, 0, "attack 2 6");
	ok(s, 0, "end");
	assert_int_equal(window_for(s), 1u << 0);
	ok(s, 0, "play rauswurf 3");
	assert_int_equal(window_for(s), 1u << 1);   /* the card's window is still the end */
	ok(s, 1, "play rauswurf 2");
	CHIPS(s, 26, 10, 10, 0, 2);
	DISCARD(s, y, x);
	assert_int_equal(s->out, 1u << 2);
	assert_int_equal(prompt_kind(&s->pr), PR_FINAL);
	free(s);
}

/* ---- hands and the discard pile ------------------------------------------------------- */

/* "Ziehe 2 Karten." The two from the top of the deck. */
static void test_card_nachschub(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 15);
	SET(s, 10, 10, 10, 10);
	uint16_t a = to_deck_top(s, "kaputt"), b = to_deck_top(s, "topfgriff");
	uint16_t c = to_hand(s, 0, "nachschub");
	int deck = s->ndeck;
	ok(s, 0, "play nachschub");
	HAND(s, 0, a, b);
	assert_int_equal(s->ndeck, deck - 2);
	assert_int_equal(last_ev(s, EV_DRAW)->arg, 2);
	assert_int_equal(last_ev(s, EV_DRAW)->seat, 0);
	DISCARD(s, c);
	CHIPS(s, 8, 10, 10, 10, 10);
	free(s);
}

/* "Nimm einer Person deiner Wahl eine zufällige Handkarte." From an empty
 * hand nothing. */
static void test_card_taschendieb(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 16);
	SET(s, 10, 10, 10, 10);
	uint16_t x = to_hand(s, 2, "kaputt");
	uint16_t c = to_hand(s, 0, "taschendieb"), d = to_hand(s, 0, "taschendieb");
	ok(s, 0, "play taschendieb 2");
	HAND(s, 0, d, x);
	assert_int_equal(s->nhand[2], 0);
	ok(s, 0, "play taschendieb 2");
	HAND(s, 0, x);
	assert_int_equal(s->nhand[2], 0);
	DISCARD(s, c, d);
	CHIPS(s, 8, 10, 10, 10, 10);
	free(s);
}

/* "Nimm die oberste Karte des Ablagestapels auf die Hand." The card that
 * lay on top when it was played, not the Zeitschleife itself; from an
 * empty pile nothing. */
static void test_card_zeitschleife(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 17);
	SET(s, 10, 10, 10, 10);
	uint16_t z1 = to_hand(s, 0, "zeitschleife"), z2 = to_hand(s, 0, "zeitschleife");
	uint16_t k = to_hand(s, 0, "kaputt");
	ok(s, 0, "play zeitschleife");
	HAND(s, 0, z2, k);
	DISCARD(s, z1);
	ok(s, 0, "play kaputt");
	DISCARD(s, z1, k);
	ok(s, 0, "play zeitschleife");
	HAND(s, 0, k);
	DISCARD(s, z1, z2);
	CHIPS(s, 8, 10, 10, 10, 10);
	free(s);
}

/* "Alle, die noch dabei sind, geben eine zufällige Handkarte nach links
 * weiter." To the next seat clockwise; an empty hand passes nothing. */
static void test_card_huehnertanz(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 18);
	SET(s, 10, 10, 10, 10);
	uint16_t h = to_hand(s, 0, "huehnertanz"), a = to_hand(s, 0, "kaputt");
	uint16_t b = to_hand(s, 1, "topfgriff"), c = to_hand(s, 2, "nein");
	ok(s, 0, "play huehnertanz");
	assert_int_equal(s->nhand[0], 0);
	HAND(s, 1, a);
	HAND(s, 2, b);
	HAND(s, 3, c);
	DISCARD(s, h);
	CHIPS(s, 8, 10, 10, 10, 10);
	free(s);
}

/* "Eine Person deiner Wahl wirft 2 zufällige Handkarten ab." Of one card,
 * the one. */
static void test_card_aufraeumen(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 19);
	SET(s, 10, 10, 10, 10);
	uint16_t x = to_hand(s, 3, "kaputt"), y = to_hand(s, 3, "topfgriff");
	uint16_t a1 = to_hand(s, 0, "aufraeumen"), a2 = to_hand(s, 0, "aufraeumen");
	ok(s, 0, "play aufraeumen 3");
	assert_int_equal(s->nhand[3], 0);
	assert_int_equal(s->ndiscard, 3);
	assert_int_equal(s->discard[0], a1);
	assert_true(in_pile(s->discard + 1, 2, x) && in_pile(s->discard + 1, 2, y));
	uint16_t z = to_hand(s, 3, "nein");
	ok(s, 0, "play aufraeumen 3");
	assert_int_equal(s->nhand[3], 0);
	assert_int_equal(s->ndiscard, 5);
	assert_int_equal(s->discard[3], a2);
	assert_int_equal(s->discard[4], z);
	CHIPS(s, 8, 10, 10, 10, 10);
	free(s);
}

/* ---- the attack -------------------------------------------------------------------------- */

/* "Nur gegen einen angesagten Angriff: er fällt aus." No roll, no chips;
 * the attacker goes on after its attack. */
static void test_card_abgelehnt(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 20);
	SET(s, 10, 10, 10, 10);
	uint16_t mine = to_hand(s, 0, "abgelehnt"), c = to_hand(s, 1, "abgelehnt");
	ok(s, 1, "react attack");
	bad(s, 0, "play abgelehnt", "Abgelehnt: Nur gegen einen angesagten Angriff: er fällt aus.");
	int rolls = count_ev(s, EV_ROLL);
	ok(s, 0, "attack 1 3");
	assert_int_equal(window_kind(s), K_ATTACK);
	assert_int_equal(window_for(s), 1u << 1);
	assert_true(has_move(s, 1, "play abgelehnt"));
	ok(s, 1, "play abgelehnt");
	assert_int_equal(s->atk.on, 0);
	assert_int_equal(last_ev(s, EV_CALLED)->seat, 0);
	assert_int_equal(count_ev(s, EV_ROLL), rolls);
	assert_int_equal(prompt_kind(&s->pr), PR_TURN);
	assert_int_equal(s->step, ST_AFTER);
	bad(s, 0, "play abgelehnt", "Abgelehnt: Nur gegen einen angesagten Angriff");
	CHIPS(s, 8, 10, 10, 10, 10);
	HAND(s, 0, mine);
	assert_int_equal(s->nhand[1], 0);
	DISCARD(s, c);
	free(s);
}

/* "Nur gegen einen angesagten Angriff: er richtet sich gegen eine Person
 * deiner Wahl (nicht gegen den Angreifer)." */
static void test_card_suendenbock(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 21);
	SET(s, 10, 10, 10, 10);
	uint16_t c = to_hand(s, 1, "suendenbock");
	ok(s, 1, "react attack");
	ok(s, 0, "attack 1 3");
	bad(s, 1, "play suendenbock 0", "Der Angriff kann sich nicht gegen den Angreifer richten.");
	assert_false(has_move(s, 1, "play suendenbock 0"));
	assert_true(has_move(s, 1, "play suendenbock 2"));
	pin_die(s, 6);
	ok(s, 1, "play suendenbock 2");
	assert_int_equal(s->atk.target, 2);
	assert_int_equal(last_ev(s, EV_WON)->where, 2);
	assert_int_equal(last_ev(s, EV_WON)->arg, 3);
	CHIPS(s, 8, 13, 10, 7, 10);
	DISCARD(s, c);
	free(s);
}

/* "Nur bei einem angesagten Angriff: gelingt er, bringt er das Doppelte;
 * misslingt er, zahlt der Angreifer dem Ziel die Forderung." */
static void test_card_doppelt(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 22);
	SET(s, 10, 10, 10, 10);
	uint16_t c = to_hand(s, 0, "doppelt");
	ok(s, 0, "react attack");
	bad(s, 0, "play doppelt", "Doppelt oder nichts: Nur bei einem angesagten Angriff");
	ok(s, 0, "attack 2 2");
	pin_die(s, 6);
	ok(s, 0, "play doppelt");
	assert_int_equal(s->atk.doubled, 1);
	assert_int_equal(last_ev(s, EV_WON)->arg, 4);
	CHIPS(s, 8, 14, 10, 6, 10);
	DISCARD(s, c);
	free(s);
	/* the target doubles, and the attack fails */
	s = start(4, 22);
	SET(s, 10, 10, 10, 10);
	c = to_hand(s, 2, "doppelt");
	ok(s, 2, "react attack");
	ok(s, 0, "attack 2 2");
	pin_die(s, 2);
	ok(s, 2, "play doppelt");
	assert_int_equal(last_ev(s, EV_FAILED)->arg, 2);
	CHIPS(s, 8, 8, 10, 12, 10);
	DISCARD(s, c);
	free(s);
}

/* "Nur nach dem Angriffswurf: der Würfel wird neu geworfen." */
static void test_card_nochmal(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 23);
	SET(s, 10, 10, 10, 10);
	uint16_t c = to_hand(s, 0, "nochmal");
	ok(s, 0, "react roll");
	bad(s, 0, "play nochmal", "Nochmal!: Nur nach dem Angriffswurf");
	int rolls = count_ev(s, EV_ROLL);
	pin_die(s, 1);
	ok(s, 0, "attack 1 3");
	assert_int_equal(window_kind(s), K_ROLL);
	assert_int_equal(s->atk.die, 1);
	pin_die(s, 6);
	ok(s, 0, "play nochmal");
	assert_int_equal(s->atk.die, 6);
	assert_int_equal(count_ev(s, EV_ROLL), rolls + 2);
	assert_int_equal(last_ev(s, EV_WON)->arg, 3);
	CHIPS(s, 8, 13, 7, 10, 10);
	DISCARD(s, c);
	free(s);
}

/* "Nur nach dem Angriffswurf: der Würfel zählt 2 mehr." Anyone may help:
 * a 2 against a demand of 3 counts 4 and wins. */
static void test_card_falschspieler(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 24);
	SET(s, 10, 10, 10, 10);
	uint16_t c = to_hand(s, 2, "falschspieler");
	ok(s, 2, "react roll");
	pin_die(s, 2);
	ok(s, 0, "attack 1 3");
	assert_int_equal(window_for(s), 1u << 2);
	ok(s, 2, "play falschspieler");
	assert_int_equal(s->atk.die, 2);
	assert_int_equal(attack_total(s), 4);
	CHIPS(s, 8, 13, 7, 10, 10);
	DISCARD(s, c);
	free(s);
}

/* "Nur nach dem Angriffswurf: der Würfel zählt 2 weniger." A 5 against 3
 * counts 3 and fails. */
static void test_card_wackeltisch(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 25);
	SET(s, 10, 10, 10, 10);
	uint16_t c = to_hand(s, 1, "wackeltisch");
	ok(s, 1, "react roll");
	pin_die(s, 5);
	ok(s, 0, "attack 1 3");
	ok(s, 1, "play wackeltisch");
	assert_int_equal(attack_total(s), 3);
	assert_int_equal(last_ev(s, EV_FAILED)->arg, 3);
	CHIPS(s, 8, 10, 10, 10, 10);
	DISCARD(s, c);
	free(s);
}

/* "Nur nach dem Angriffswurf: der Würfel zeigt die Zahl, die du nennst." */
static void test_card_gezinkt(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 26);
	SET(s, 10, 10, 10, 10);
	uint16_t c = to_hand(s, 0, "gezinkt");
	ok(s, 0, "react roll");
	bad(s, 0, "play gezinkt 6", "Gezinkter Würfel: Nur nach dem Angriffswurf");
	pin_die(s, 1);
	ok(s, 0, "attack 3 5");
	bad(s, 0, "play gezinkt", "Gezinkter Würfel braucht eine Augenzahl: play gezinkt AUGEN.");
	bad(s, 0, "play gezinkt 7", "Ein Würfel zeigt 1 bis 6, nicht '7'.");
	for (int f = 1; f <= 6; f++) {
		char m[32];
		snprintf(m, sizeof m, "play gezinkt %d", f);
		assert_true(has_move(s, 0, m));
	}
	ok(s, 0, "play gezinkt 6");
	assert_int_equal(s->atk.die, 6);
	assert_int_equal(last_ev(s, EV_PLAY)->arg, 6);
	CHIPS(s, 8, 15, 10, 10, 5);
	DISCARD(s, c);
	free(s);
}

/* "Nur nach dem Angriffswurf: misslingt der Angriff, zahlt dir der
 * Angreifer 1 Chip." If it succeeds, nothing. */
static void test_card_schadenfreude(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 27);
	SET(s, 10, 10, 10, 10);
	uint16_t c = to_hand(s, 2, "schadenfreude");
	ok(s, 2, "react roll");
	pin_die(s, 2);
	ok(s, 0, "attack 1 3");
	ok(s, 2, "play schadenfreude");
	assert_int_equal(last_ev(s, EV_FAILED)->arg, 2);
	CHIPS(s, 8, 9, 10, 11, 10);
	DISCARD(s, c);
	free(s);
	s = start(4, 27);
	SET(s, 10, 10, 10, 10);
	c = to_hand(s, 3, "schadenfreude");
	ok(s, 3, "react roll");
	pin_die(s, 6);
	ok(s, 0, "attack 1 3");
	ok(s, 3, "play schadenfreude");
	CHIPS(s, 8, 13, 7, 10, 10);
	DISCARD(s, c);
	free(s);
}

/* ---- cards on cards ------------------------------------------------------------------------- */

/* "Auf eine Karte im Stapel: die Karte direkt darunter wirkt nicht."
 * Refused with nothing on the stack. */
static void test_card_nein(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 28);
	SET(s, 10, 10, 10, 10);
	uint16_t mine = to_hand(s, 0, "nein"), t = to_hand(s, 0, "topfgriff");
	uint16_t c = to_hand(s, 1, "nein");
	ok(s, 1, "react card");
	bad(s, 0, "play nein", "Auf dem Stapel liegt keine Karte, auf die Nein! antworten könnte.");
	assert_false(has_move(s, 0, "play nein"));
	ok(s, 0, "play topfgriff");
	assert_int_equal(window_kind(s), K_CARD);
	assert_int_equal(window_for(s), 1u << 1);
	ok(s, 1, "play nein");
	CHIPS(s, 8, 10, 10, 10, 10);
	assert_int_equal(fate_of(s, c), 0);
	assert_int_equal(fate_of(s, t), 1);
	DISCARD(s, c, t);
	HAND(s, 0, mine);
	assert_int_equal(s->step, ST_ATTACK);
	free(s);
}

/* "Auf eine Karte im Stapel: die Karte direkt darunter wirkt nicht, und du
 * nimmst 1 Chip aus dem Topf." */
static void test_card_doch(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 29);
	SET(s, 10, 10, 10, 10);
	uint16_t l = to_hand(s, 0, "langfinger"), c = to_hand(s, 1, "doch");
	ok(s, 1, "react card");
	ok(s, 0, "play langfinger 1");
	ok(s, 1, "play doch");
	CHIPS(s, 7, 10, 11, 10, 10);
	assert_int_equal(fate_of(s, l), 1);
	DISCARD(s, c, l);
	free(s);
}

/* "Auf eine Karte im Stapel: die Karte direkt darunter geht ohne Wirkung
 * zurück auf die Hand dessen, der sie gespielt hat." It may be played
 * again. */
static void test_card_bumerang(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 30);
	SET(s, 10, 10, 10, 10);
	uint16_t st = to_hand(s, 0, "strafzettel"), c = to_hand(s, 1, "bumerang");
	ok(s, 1, "react card");
	ok(s, 0, "play strafzettel 1");
	ok(s, 1, "play bumerang");
	CHIPS(s, 8, 10, 10, 10, 10);
	assert_int_equal(fate_of(s, st), 2);
	HAND(s, 0, st);
	assert_int_equal(s->nhand[1], 0);
	DISCARD(s, c);
	ok(s, 0, "play strafzettel 1");
	ok(s, 1, "pass");
	CHIPS(s, 10, 10, 8, 10, 10);
	DISCARD(s, c, st);
	free(s);
}

/* "Nimm 2 Chips aus dem Topf. Keine Karte kann das verhindern." Nein, Doch
 * and Bumerang on it are refused (and not offered); another card on top
 * is fine. */
static void test_card_unterm_tisch(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 31);
	SET(s, 10, 10, 10, 10);
	uint16_t c = to_hand(s, 0, "unterm-tisch");
	uint16_t n = to_hand(s, 1, "nein"), d = to_hand(s, 1, "doch"), b = to_hand(s, 1, "bumerang");
	uint16_t t = to_hand(s, 1, "topfgriff");
	ok(s, 1, "react card");
	ok(s, 0, "play unterm-tisch");
	assert_int_equal(window_for(s), 1u << 1);
	bad(s, 1, "play nein", "Unterm Tisch kann keine Karte verhindern.");
	bad(s, 1, "play doch", "Unterm Tisch kann keine Karte verhindern.");
	bad(s, 1, "play bumerang", "Unterm Tisch kann keine Karte verhindern.");
	assert_false(has_move(s, 1, "play nein"));
	assert_true(has_move(s, 1, "play topfgriff"));
	ok(s, 1, "play topfgriff");
	CHIPS(s, 4, 12, 12, 10, 10);
	assert_int_equal(fate_of(s, c), 0);
	HAND(s, 1, n, d, b);
	DISCARD(s, t, c);
	free(s);
}

/* "Eine ausliegende Karte deiner Wahl geht auf den Ablagestapel; Chips
 * darauf kommen in den Topf." */
static void test_card_abrissbirne(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 32);
	SET(s, 10, 10, 10, 10);
	uint16_t pig = lay(s, 3, "sparschwein", 2), toll = lay(s, 2, "mautstelle", 3);
	uint16_t a1 = to_hand(s, 0, "abrissbirne"), a2 = to_hand(s, 0, "abrissbirne");
	CHIPS(s, 8, 10, 10, 7, 8);
	bad(s, 0, "play abrissbirne 1 sparschwein", "Vor @1 liegt keine solche Karte.");
	bad(s, 0, "play abrissbirne 3", "Abrissbirne braucht eine ausliegende Karte: play "
	    "abrissbirne PLATZ KARTE.");
	assert_true(has_move(s, 0, "play abrissbirne 3 sparschwein"));
	assert_true(has_move(s, 0, "play abrissbirne 2 mautstelle"));
	ok(s, 0, "play abrissbirne 3 sparschwein");
	CHIPS(s, 10, 10, 10, 7, 8);
	assert_int_equal(holder_of(s, pig), -1);
	DISCARD(s, a1, pig);
	ok(s, 0, "play abrissbirne 2 mautstelle");
	CHIPS(s, 13, 10, 10, 7, 8);
	DISCARD(s, a1, pig, a2, toll);
	assert_int_equal(s->ntable, 0);
	free(s);
}

/* ---- cards that stay in play ------------------------------------------------------------------ */

/* "BLEIBT LIEGEN. Ein gelungener Angriff auf dich bringt höchstens 1 Chip;
 * danach geht der Schild." Played against the very attack; a failed
 * attack leaves it lying, over turns; the next won one goes through it
 * once, and then the full demand. */
static void test_card_schutzschild(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 33);
	SET(s, 10, 10, 10, 10);
	uint16_t c = to_hand(s, 1, "schutzschild");
	ok(s, 1, "react attack");
	ok(s, 0, "attack 1 3");
	pin_die(s, 6);
	ok(s, 1, "play schutzschild");
	assert_int_equal(last_ev(s, EV_WON)->arg, 1);
	CHIPS(s, 8, 11, 9, 10, 10);
	assert_int_equal(s->ntable, 0);
	DISCARD(s, c);
	free(s);

	s = start(4, 33);
	SET(s, 10, 10, 10, 10);
	c = to_hand(s, 1, "schutzschild");
	ok(s, 1, "react attack");
	ok(s, 0, "attack 1 3");
	pin_die(s, 2);
	ok(s, 1, "play schutzschild");
	ok(s, 1, "react none");
	assert_int_equal(holder_of(s, c), 1);
	CHIPS(s, 8, 10, 10, 10, 10);
	ok(s, 0, "end");
	finish_turn(s);                 /* seat 1's own turn */
	assert_int_equal(holder_of(s, c), 1);
	CHIPS(s, 10, 10, 9, 9, 10);
	pin_die(s, 6);
	ok(s, 2, "attack 1 4");
	CHIPS(s, 10, 10, 8, 10, 10);
	assert_int_equal(holder_of(s, c), -1);
	DISCARD(s, c);
	ok(s, 2, "end");
	pin_die(s, 6);
	ok(s, 3, "attack 1 4");
	CHIPS(s, 11, 10, 4, 10, 13);
	free(s);
}

/* "BLEIBT LIEGEN. Deine Angriffswürfe zählen 1 mehr." Not the attacks on
 * its holder; it outlasts its holder's turn. */
static void test_card_gluecksbringer(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 34);
	SET(s, 10, 10, 10, 10);
	uint16_t c = to_hand(s, 0, "gluecksbringer");
	ok(s, 0, "play gluecksbringer");
	assert_int_equal(holder_of(s, c), 0);
	assert_int_equal(s->ndiscard, 0);
	pin_die(s, 3);
	ok(s, 0, "attack 1 3");
	assert_int_equal(attack_total(s), 4);
	CHIPS(s, 8, 13, 7, 10, 10);
	ok(s, 0, "end");
	CHIPS(s, 9, 13, 6, 10, 10);
	pin_die(s, 3);
	ok(s, 1, "attack 0 3");
	assert_int_equal(attack_total(s), 3);
	CHIPS(s, 9, 13, 6, 10, 10);
	assert_int_equal(holder_of(s, c), 0);
	free(s);
}

/* "BLEIBT LIEGEN vor einer Person deiner Wahl: ihre Angriffswürfe zählen 1
 * weniger, bis ihr Zug endet." It lasts over the player's turn end, works
 * on its holder's roll and goes when the holder's turn ends. */
static void test_card_pechstraehne(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 35);
	SET(s, 10, 10, 10, 10);
	uint16_t c = to_hand(s, 0, "pechstraehne");
	bad(s, 0, "play pechstraehne", "Pechsträhne braucht eine Person");
	bad(s, 0, "play pechstraehne 0", "Wähle eine andere Person als dich.");
	ok(s, 0, "play pechstraehne 1");
	assert_int_equal(holder_of(s, c), 1);
	pin_die(s, 4);
	ok(s, 0, "attack 1 3");
	assert_int_equal(attack_total(s), 4);
	CHIPS(s, 8, 13, 7, 10, 10);
	ok(s, 0, "end");
	assert_int_equal(holder_of(s, c), 1);
	CHIPS(s, 9, 13, 6, 10, 10);
	pin_die(s, 4);
	ok(s, 1, "attack 2 3");
	assert_int_equal(attack_total(s), 3);
	assert_int_equal(last_ev(s, EV_FAILED)->arg, 3);
	CHIPS(s, 9, 13, 6, 10, 10);
	assert_int_equal(holder_of(s, c), 1);
	ok(s, 1, "end");
	assert_int_equal(s->ntable, 0);
	DISCARD(s, c);
	CHIPS(s, 10, 13, 6, 9, 10);
	free(s);
}

/* "BLEIBT LIEGEN vor einer Person deiner Wahl: sie spielt keine Karten,
 * bis ihr Zug endet." While it lies its holder is refused and not asked
 * in any window, over the player's turn and its own; then it goes. */
static void test_card_maulkorb(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 36);
	SET(s, 10, 10, 10, 10);
	uint16_t c = to_hand(s, 0, "maulkorb"), t = to_hand(s, 1, "topfgriff");
	ok(s, 1, "react all");
	ok(s, 0, "play maulkorb 1");
	assert_int_equal(window_for(s), 1u << 1);   /* it may still be answered */
	ok(s, 1, "pass");
	assert_int_equal(holder_of(s, c), 1);
	bad(s, 1, "play topfgriff", "Du trägst einen Maulkorb");
	assert_false(has_move(s, 1, "play topfgriff"));
	pin_die(s, 1);
	ok(s, 0, "attack 2 6");   /* seat 1 listens, but is not asked */
	assert_int_equal(prompt_kind(&s->pr), PR_TURN);
	ok(s, 0, "end");
	assert_int_equal(s->active, 1);
	assert_int_equal(prompt_kind(&s->pr), PR_TURN);
	assert_int_equal(holder_of(s, c), 1);
	bad(s, 1, "play topfgriff", "Du trägst einen Maulkorb");
	pin_die(s, 1);
	ok(s, 1, "attack 2 6");
	ok(s, 1, "end");
	assert_int_equal(s->ntable, 0);
	DISCARD(s, c);
	assert_int_equal(s->active, 2);
	assert_int_equal(window_kind(s), K_ANTE);
	assert_int_equal(window_for(s), 1u << 1);
	ok(s, 1, "play topfgriff");
	CHIPS(s, 8, 10, 11, 9, 10);
	DISCARD(s, c, t);
	free(s);
}

/* "BLEIBT LIEGEN. Nach deinem Einsatz legst du 1 Chip darauf. Liegen 3
 * darauf, nimmst du sie und 3 aus dem Topf; dann geht das Schwein." */
static void test_card_sparschwein(void **u)
{
	(void)u;
	struct wg_state *s = start(2, 37);
	SET(s, 10, 10);
	uint16_t c = to_hand(s, 0, "sparschwein");
	ok(s, 0, "play sparschwein");
	assert_int_equal(holder_of(s, c), 0);
	assert_int_equal(chips_on(s, c), 0);
	finish_turn(s);
	CHIPS(s, 5, 10, 9);
	finish_turn(s);
	CHIPS(s, 6, 8, 9);
	assert_int_equal(chips_on(s, c), 1);
	finish_turn(s);
	CHIPS(s, 7, 8, 8);
	finish_turn(s);
	CHIPS(s, 8, 6, 8);
	assert_int_equal(chips_on(s, c), 2);
	finish_turn(s);
	CHIPS(s, 9, 6, 7);
	finish_turn(s);   /* ante 5, the third chip 4, then 4 + 3 + 3 */
	CHIPS(s, 7, 10, 7);
	assert_int_equal(s->ntable, 0);
	DISCARD(s, c);
	free(s);
}

/* "BLEIBT LIEGEN. Misslingt ein Angriff auf dich, zahlt dir der Angreifer
 * 1 Chip." Not its holder's own attacks; a won attack costs nothing more;
 * it stays. */
static void test_card_stachelpanzer(void **u)
{
	(void)u;
	struct wg_state *s = start(3, 38);
	SET(s, 10, 10, 10);
	uint16_t c = to_hand(s, 1, "stachelpanzer");
	ok(s, 1, "react attack");
	ok(s, 0, "attack 1 3");
	pin_die(s, 2);
	ok(s, 1, "play stachelpanzer");
	CHIPS(s, 6, 9, 11, 10);
	ok(s, 1, "react none");
	ok(s, 0, "end");
	CHIPS(s, 7, 9, 10, 10);
	finish_turn(s);   /* seat 1's failed attack on seat 2 */
	CHIPS(s, 8, 9, 10, 9);
	pin_die(s, 6);
	ok(s, 2, "attack 1 2");
	CHIPS(s, 8, 9, 8, 11);
	assert_int_equal(holder_of(s, c), 1);
	assert_int_equal(s->ndiscard, 0);
	free(s);
}

/* "BLEIBT LIEGEN. Gelingt dein Angriff, nimmst du 1 Chip mehr aus dem
 * Topf. Misslingt einer, geht die Pose." A failed attack on its holder
 * does not end it. */
static void test_card_siegerpose(void **u)
{
	(void)u;
	struct wg_state *s = start(2, 39);
	SET(s, 10, 10);
	uint16_t c = to_hand(s, 0, "siegerpose");
	ok(s, 0, "play siegerpose");
	pin_die(s, 6);
	ok(s, 0, "attack 1 2");
	CHIPS(s, 3, 13, 8);
	ok(s, 0, "end");
	finish_turn(s);   /* seat 1's failed attack on seat 0 */
	CHIPS(s, 5, 12, 7);
	assert_int_equal(holder_of(s, c), 0);
	pin_die(s, 1);
	ok(s, 0, "attack 1 2");
	CHIPS(s, 5, 12, 7);
	assert_int_equal(s->ntable, 0);
	DISCARD(s, c);
	free(s);
}

/* "BLEIBT LIEGEN vor einer Person deiner Wahl: ihre Handkarten liegen
 * offen, bis ihr Zug endet." Every other seat (and a spectator) sees them,
 * the holder's view is as before; a re-deal of the hidden cards for
 * another seat leaves them; once it goes, they are hidden again. */
static void test_card_kiebitz(void **u)
{
	(void)u;
	struct wg_state *s = start(3, 40);
	SET(s, 10, 10, 10);
	struct vtext *t = malloc(sizeof *t);
	assert_non_null(t);
	uint16_t c = to_hand(s, 0, "kiebitz");
	to_hand(s, 1, "topfgriff");
	to_hand(s, 1, "nein");
	to_hand(s, 2, "kaputt");
	assert_non_null(strstr(seat_view(s, 2, 1, t), "open_hand?0"));
	assert_null(strstr(seat_view(s, 2, 1, t), "[open_cards"));
	ok(s, 0, "play kiebitz 1");
	assert_int_equal(holder_of(s, c), 1);
	static const int viewers[] = { -1, 0, 2 };   /* a spectator, the player, another */
	for (size_t i = 0; i < sizeof viewers / sizeof viewers[0]; i++) {
		const char *v = seat_view(s, viewers[i], 1, t);
		assert_non_null(strstr(v, "open_hand?1"));
		assert_non_null(strstr(v, "[open_cards\nslug=topfgriff\n"));
		assert_non_null(strstr(v, "[open_cards\nslug=nein\n"));
	}
	assert_non_null(strstr(seat_view(s, 1, 1, t), "open_hand?0"));
	assert_non_null(strstr(seat_view(s, 2, 0, t), "open_hand?0"));
	struct wg_state *copy = malloc(sizeof *copy);
	assert_non_null(copy);
	memcpy(copy, s, sizeof *copy);
	G->scramble(copy, 2, 99);
	assert_memory_equal(copy->hand[1], s->hand[1], sizeof s->hand[1][0] * (size_t)s->nhand[1]);
	free(copy);
	finish_turn(s);
	assert_int_equal(holder_of(s, c), 1);   /* the player's turn ended, not the holder's */
	assert_non_null(strstr(seat_view(s, 2, 1, t), "open_hand?1"));
	finish_turn(s);
	assert_int_equal(s->ntable, 0);
	DISCARD(s, c);
	assert_non_null(strstr(seat_view(s, 2, 1, t), "open_hand?0"));
	assert_null(strstr(seat_view(s, 2, 1, t), "[open_cards"));
	free(t);
	free(s);
}

/* "BLEIBT LIEGEN. Die Einsätze der anderen kommen auf diese Karte statt in
 * den Topf. Zu Beginn deines Zuges nimmst du sie; dann geht die Karte." */
static void test_card_mautstelle(void **u)
{
	(void)u;
	struct wg_state *s = start(3, 41);
	SET(s, 10, 10, 10);
	uint16_t c = to_hand(s, 0, "mautstelle");
	ok(s, 0, "play mautstelle");
	assert_int_equal(holder_of(s, c), 0);
	finish_turn(s);
	CHIPS(s, 6, 10, 9, 10);
	assert_int_equal(chips_on(s, c), 1);
	assert_int_equal(last_ev(s, EV_TURN)->where, 0);
	finish_turn(s);
	CHIPS(s, 6, 10, 9, 9);
	assert_int_equal(chips_on(s, c), 2);
	finish_turn(s);   /* seat 0 takes 2, then antes into the kitty */
	CHIPS(s, 7, 11, 9, 9);
	assert_int_equal(last_ev(s, EV_TURN)->where, EVENT_NOBODY);
	assert_int_equal(s->ntable, 0);
	DISCARD(s, c);
	free(s);
}

/* ---- the stack ----------------------------------------------------------------------------------- */

/* An attack, "abgelehnt" against it, "nein" on "abgelehnt", "doch" on
 * "nein": last in, first out, so doch cancels nein (and takes a chip),
 * nein does nothing, and abgelehnt calls the attack off. */
static void test_stack_doch_nein_abgelehnt(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 42);
	SET(s, 10, 10, 10, 10);
	uint16_t a = to_hand(s, 1, "abgelehnt"), n = to_hand(s, 0, "nein"), d = to_hand(s, 2, "doch");
	ok(s, 0, "react card");
	ok(s, 1, "react attack card");
	ok(s, 2, "react card");
	int rolls = count_ev(s, EV_ROLL);
	ok(s, 0, "attack 1 3");
	assert_int_equal(window_for(s), 1u << 1);
	ok(s, 1, "play abgelehnt");
	assert_int_equal(window_kind(s), K_CARD);
	assert_int_equal(window_for(s), 0x5u);
	ok(s, 0, "play nein");
	assert_int_equal(window_for(s), 0x6u);
	ok(s, 2, "play doch");
	assert_int_equal(window_for(s), 0x3u);
	assert_int_equal(s->nstack, 3);
	ok(s, 0, "pass");
	ok(s, 1, "pass");
	assert_int_equal(s->nstack, 0);
	assert_int_equal(fate_of(s, d), 0);
	assert_int_equal(fate_of(s, n), 1);
	assert_int_equal(fate_of(s, a), 0);
	assert_int_equal(s->atk.on, 0);
	assert_int_equal(count_ev(s, EV_ROLL), rolls);
	assert_int_equal(s->step, ST_AFTER);
	CHIPS(s, 7, 10, 10, 11, 10);
	DISCARD(s, d, n, a);
	free(s);
}

/* Without the doch: nein cancels abgelehnt and the attack goes on. */
static void test_stack_nein_abgelehnt(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 43);
	SET(s, 10, 10, 10, 10);
	uint16_t a = to_hand(s, 1, "abgelehnt"), n = to_hand(s, 0, "nein");
	ok(s, 0, "react card");
	ok(s, 1, "react attack card");
	ok(s, 0, "attack 1 3");
	ok(s, 1, "play abgelehnt");
	ok(s, 0, "play nein");
	pin_die(s, 6);
	ok(s, 1, "pass");
	assert_int_equal(fate_of(s, a), 1);
	assert_int_equal(last_ev(s, EV_WON)->arg, 3);
	CHIPS(s, 8, 13, 7, 10, 10);
	DISCARD(s, n, a);
	free(s);
}

/* Bumerang on abgelehnt: it goes back to its player's hand without effect
 * and the attack goes on. */
static void test_stack_bumerang_abgelehnt(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 44);
	SET(s, 10, 10, 10, 10);
	uint16_t a = to_hand(s, 1, "abgelehnt"), b = to_hand(s, 0, "bumerang");
	ok(s, 0, "react card");
	ok(s, 1, "react attack");
	ok(s, 0, "attack 1 3");
	ok(s, 1, "play abgelehnt");
	assert_int_equal(window_for(s), 1u << 0);
	pin_die(s, 6);
	ok(s, 0, "play bumerang");
	assert_int_equal(fate_of(s, a), 2);
	HAND(s, 1, a);
	assert_int_equal(s->nhand[0], 0);
	DISCARD(s, b);
	assert_int_equal(last_ev(s, EV_WON)->arg, 3);
	CHIPS(s, 8, 13, 7, 10, 10);
	free(s);
}

/* Unterm Tisch cannot be countered, but a card above it can: nein on a
 * topfgriff played over it works, unterm-tisch works too. */
static void test_stack_unterm_tisch_not_countered(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 45);
	SET(s, 10, 10, 10, 10);
	uint16_t c = to_hand(s, 0, "unterm-tisch"), t = to_hand(s, 1, "topfgriff");
	uint16_t n = to_hand(s, 2, "nein"), n1 = to_hand(s, 1, "nein");
	ok(s, 1, "react card");
	ok(s, 2, "react card");
	ok(s, 0, "play unterm-tisch");
	bad(s, 1, "play nein", "Unterm Tisch kann keine Karte verhindern.");
	bad(s, 2, "play nein", "Unterm Tisch kann keine Karte verhindern.");
	ok(s, 1, "play topfgriff");
	ok(s, 2, "play nein");
	ok(s, 1, "pass");
	CHIPS(s, 6, 12, 10, 10, 10);
	assert_int_equal(fate_of(s, t), 1);
	HAND(s, 1, n1);
	DISCARD(s, n, t, c);
	free(s);
}

/* A card whose player or target is out by the time it resolves does
 * nothing: a Maulkorb meant for the out seat goes to the discard pile, a
 * Strafzettel or a Nein of the out seat does nothing, and the Topfgriff
 * beneath that Nein works. In play nobody goes out while a card waits, so
 * the stack below the real card is built by hand in the last round. */
static void test_cards_of_out_seat_do_nothing(void **u)
{
	(void)u;
	struct wg_state *s = start(4, 46);
	SET(s, 10, 10, 0, 10);
	pin_die(s, 1);
	ok(s, 0, "attack 1 6");
	ok(s, 0, "end");
	assert_int_equal(s->out, 1u << 2);
	assert_int_equal(prompt_kind(&s->pr), PR_FINAL);
	ok(s, 1, "react card");
	uint16_t k = to_hand(s, 0, "kaputt");
	ok(s, 0, "play kaputt");
	assert_int_equal(window_for(s), 1u << 1);
	uint16_t t3 = take_free(s, "topfgriff"), n2 = take_free(s, "nein");
	uint16_t f2 = take_free(s, "strafzettel"), m1 = take_free(s, "maulkorb");
	s->stack[4] = s->stack[0];
	s->stack[0] = (struct wg_entry){ t3, 3, -1, 0, 0, EVENT_NO_CARD };
	s->stack[1] = (struct wg_entry){ n2, 2, -1, 0, 0, EVENT_NO_CARD };
	s->stack[2] = (struct wg_entry){ f2, 2, 3, 0, 0, EVENT_NO_CARD };
	s->stack[3] = (struct wg_entry){ m1, 1, 2, 0, 0, EVENT_NO_CARD };
	s->nstack = 5;
	assert_ok(s);
	ok(s, 1, "pass");
	CHIPS(s, 16, 10, 10, 0, 12);
	assert_int_equal(s->ntable, 0);
	DISCARD(s, k, m1, f2, n2, t3);
	assert_int_equal(prompt_kind(&s->pr), PR_FINAL);
	free(s);
}

/* ---- the set and its document ------------------------------------------------------------------- */

static int ascii_slug(const char *w)
{
	if (!*w)
		return 0;
	for (; *w; w++)
		if (!((*w >= 'a' && *w <= 'z') || *w == '-'))
			return 0;
	return 1;
}

/* What a card's text says of when it may be played. */
static void when_in_text(const struct wg_type *t)
{
	static const struct {
		int when;
		const char *de, *en;
	} says[] = {
		{ W_ATTACK, "angesagten Angriff", "declared attack" },
		{ W_ROLL, "Nur nach dem Angriffswurf", "Only after the attack roll" },
		{ W_END, "Nur am Ende eines Zuges", "Only at the end of a turn" },
		{ W_COUNTER, "Auf eine Karte im Stapel", "On a card in the stack" },
	};
	for (size_t i = 0; i < sizeof says / sizeof says[0]; i++)
		if ((t->when == says[i].when) != (strstr(t->text, says[i].de) != NULL) ||
		    (t->when == says[i].when) != (strstr(t->text_en, says[i].en) != NULL))
			fail_msg("%s: its text and when it may be played disagree", t->slug);
}

/* 100 cards, 41 kinds, unique ASCII slugs, names and texts in both
 * languages, every theme used; a card that stays in play has a passive
 * and says so; when a card may be played is in its text; ids are dealt
 * to the kinds in table order. */
static void test_card_set(void **u)
{
	(void)u;
	int total = 0, themes[TH__MAX] = { 0 }, per[WG_TYPES] = { 0 };
	assert_int_equal(WG_TYPES, 41);
	for (int i = 0; i < WG_TYPES; i++) {
		const struct wg_type *t = &wg_types[i];
		assert_true(ascii_slug(t->slug));
		assert_int_equal(type_by_slug(t->slug), i);
		for (int j = 0; j < i; j++) {
			assert_string_not_equal(t->name, wg_types[j].name);
			assert_string_not_equal(t->name_en, wg_types[j].name_en);
		}
		assert_true(*t->name && *t->text && *t->name_en && *t->text_en);
		assert_true(t->count >= 1 && t->theme < TH__MAX && t->target < T__MAX &&
			    t->effect < E__MAX && t->passive < P__MAX);
		assert_true(t->when == W_ANY || t->when == W_ATTACK || t->when == W_ROLL ||
			    t->when == W_END || t->when == W_COUNTER);
		int stays = (t->flags & F_STAYS) != 0;
		assert_int_equal(stays, t->effect == E_STAYS);
		assert_int_equal(stays, t->passive != P_NONE);
		assert_int_equal(stays, strncmp(t->text, "BLEIBT LIEGEN", 13) == 0);
		assert_int_equal(stays, strncmp(t->text_en, "STAYS IN PLAY", 13) == 0);
		assert_int_equal(stays && t->target == T_SEAT, strstr(t->text, "vor einer Person") != 0);
		assert_int_equal((t->flags & F_UNSTOPPABLE) != 0,
				 strstr(t->text, "Keine Karte kann das verhindern") != NULL);
		when_in_text(t);
		themes[t->theme]++;
		total += t->count;
	}
	assert_int_equal(total, 100);
	assert_int_equal(total, WG_CARDS);
	for (int th = 0; th < TH__MAX; th++)
		if (!themes[th])
			fail_msg("theme %s unused", theme_name[th]);
	for (unsigned c = 0; c < WG_CARDS; c++)
		per[type_index(c)]++;
	for (int i = 0; i < WG_TYPES; i++)
		assert_int_equal(per[i], wg_types[i].count);
	for (int p = P_NONE + 1; p < P__MAX; p++) {
		int k = 0;
		for (int i = 0; i < WG_TYPES; i++)
			k += wg_types[i].passive == p;
		assert_int_equal(k, 1);
	}
}

/* The document's table row of a card: the line that has `slug` as a
 * cell, split into its cells (trimmed) into cells; how many, or 0. */
static int doc_row(const char *doc, const char *slug, char cells[][400], int max)
{
	char want[64], line[2048];
	snprintf(want, sizeof want, "| `%s` |", slug);
	for (const char *l = doc; *l;) {
		const char *end = strchr(l, '\n');
		size_t len = end ? (size_t)(end - l) : strlen(l);
		snprintf(line, sizeof line, "%.*s", (int)len, l);
		l += len + (end != NULL);
		if (line[0] != '|' || !strstr(line, want))
			continue;
		int n = 0;
		for (char *c = line + 1, *bar; n < max && (bar = strchr(c, '|')) != NULL; n++) {
			char *e = bar;
			while (*c == ' ')
				c++;
			while (e > c && e[-1] == ' ')
				e--;
			snprintf(cells[n], 400, "%.*s", (int)(e - c), c);
			c = bar + 1;
		}
		return n;
	}
	return 0;
}

static char *read_doc(void)
{
	FILE *f = fopen(CARDS_DOC, "r");
	if (!f)
		fail_msg("%s not found (the tests run from the repository root)", CARDS_DOC);
	static char buf[1 << 17];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	assert_true(n < sizeof buf - 1);
	buf[n] = '\0';
	return buf;
}

/* docs/cards-worstgame.md lists every card exactly as the table has it: a
 * row per kind with its German and English name, slug, count, German and
 * English text and the test that covers it; no row for a card that does
 * not exist; 41 kinds, 100 cards. */
static void test_cards_doc(void **u)
{
	(void)u;
	const char *doc = read_doc();
	static char cells[12][400];
	int rows = 0;
	for (int i = 0; i < WG_TYPES; i++) {
		const struct wg_type *t = &wg_types[i];
		char count[8], test[64], slug[64];
		int n = doc_row(doc, t->slug, cells, 12);
		if (n != 9)
			fail_msg("%s: no row of 9 cells for `%s`", CARDS_DOC, t->slug);
		snprintf(count, sizeof count, "%d", t->count);
		snprintf(slug, sizeof slug, "`%s`", t->slug);
		int k = snprintf(test, sizeof test, "`test_card_%s`", t->slug);
		for (int j = 0; j < k; j++)
			test[j] = test[j] == '-' ? '_' : test[j];
		const char *want[9] = { t->name, t->name_en, slug, count, NULL, NULL, t->text,
					t->text_en, test };
		for (int c = 0; c < 9; c++)
			if (want[c] && strcmp(cells[c], want[c]) != 0)
				fail_msg("%s, `%s`: cell %d is '%s', not '%s'", CARDS_DOC, t->slug, c,
					 cells[c], want[c]);
		rows++;
	}
	/* every card row names a card of the table */
	int listed = 0;
	for (const char *l = doc; (l = strstr(l, "\n| ")) != NULL; l++) {
		char name[64];
		int at = 0;
		const char *a = strstr(l, "| `"), *nl = strchr(l + 1, '\n');
		if (!a || (nl && a > nl) || sscanf(a, "| `%63[a-z-]%n", name, &at) != 1 ||
		    strncmp(a + at, "` |", 3) != 0)
			continue;
		if (type_by_slug(name) < 0)
			fail_msg("%s lists `%s`, which is no card", CARDS_DOC, name);
		listed++;
	}
	assert_int_equal(rows, WG_TYPES);
	assert_int_equal(listed, WG_TYPES);
	/* a section per theme, with how many kinds and cards it has */
	for (int th = 0; th < TH__MAX; th++) {
		int kinds = 0, cards = 0;
		char head[160];
		for (int i = 0; i < WG_TYPES; i++)
			if (wg_types[i].theme == th) {
				kinds++;
				cards += wg_types[i].count;
			}
		snprintf(head, sizeof head, "\n### %s (", theme_name[th]);
		const char *h = strstr(doc, head);
		if (!h)
			fail_msg("%s: no section for the theme %s", CARDS_DOC, theme_name[th]);
		snprintf(head, sizeof head, " — %d %s, %d cards\n", kinds, kinds == 1 ? "kind" : "kinds",
			 cards);
		const char *nl = strchr(h + 1, '\n'), *at = strstr(h + 1, head);
		if (at != nl - strlen(head) + 1)
			fail_msg("%s: the theme %s has %d kinds, %d cards", CARDS_DOC, theme_name[th],
				 kinds, cards);
	}
	assert_non_null(strstr(doc, "41 kinds"));
	assert_non_null(strstr(doc, "100 cards"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_card_topfgriff),
		cmocka_unit_test(test_card_langfinger),
		cmocka_unit_test(test_card_strafzettel),
		cmocka_unit_test(test_card_geburtstag),
		cmocka_unit_test(test_card_alle_gegen_einen),
		cmocka_unit_test(test_card_freibier),
		cmocka_unit_test(test_card_koenigsmacher),
		cmocka_unit_test(test_card_robin_hood),
		cmocka_unit_test(test_card_fehldruck),
		cmocka_unit_test(test_card_kaputt),
		cmocka_unit_test(test_card_kopf_oder_zahl),
		cmocka_unit_test(test_card_gnadenstoss),
		cmocka_unit_test(test_card_rettungsring),
		cmocka_unit_test(test_card_rauswurf),
		cmocka_unit_test(test_card_nachschub),
		cmocka_unit_test(test_card_taschendieb),
		cmocka_unit_test(test_card_zeitschleife),
		cmocka_unit_test(test_card_huehnertanz),
		cmocka_unit_test(test_card_aufraeumen),
		cmocka_unit_test(test_card_abgelehnt),
		cmocka_unit_test(test_card_suendenbock),
		cmocka_unit_test(test_card_doppelt),
		cmocka_unit_test(test_card_nochmal),
		cmocka_unit_test(test_card_falschspieler),
		cmocka_unit_test(test_card_wackeltisch),
		cmocka_unit_test(test_card_gezinkt),
		cmocka_unit_test(test_card_schadenfreude),
		cmocka_unit_test(test_card_nein),
		cmocka_unit_test(test_card_doch),
		cmocka_unit_test(test_card_bumerang),
		cmocka_unit_test(test_card_unterm_tisch),
		cmocka_unit_test(test_card_abrissbirne),
		cmocka_unit_test(test_card_schutzschild),
		cmocka_unit_test(test_card_gluecksbringer),
		cmocka_unit_test(test_card_pechstraehne),
		cmocka_unit_test(test_card_maulkorb),
		cmocka_unit_test(test_card_sparschwein),
		cmocka_unit_test(test_card_stachelpanzer),
		cmocka_unit_test(test_card_siegerpose),
		cmocka_unit_test(test_card_kiebitz),
		cmocka_unit_test(test_card_mautstelle),
		cmocka_unit_test(test_stack_doch_nein_abgelehnt),
		cmocka_unit_test(test_stack_nein_abgelehnt),
		cmocka_unit_test(test_stack_bumerang_abgelehnt),
		cmocka_unit_test(test_stack_unterm_tisch_not_countered),
		cmocka_unit_test(test_cards_of_out_seat_do_nothing),
		cmocka_unit_test(test_card_set),
		cmocka_unit_test(test_cards_doc),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}
