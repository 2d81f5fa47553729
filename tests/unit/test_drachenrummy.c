/* test_drachenrummy.c — Drachenrummy against its rule text (docs/rulings.md
 * names the test of each sentence): the deal, the steps of a turn, rolling
 * and keeping, reserving and stealing (and both variants), melds and their
 * extension, the end and the scoring; the move language and its refusals;
 * snapshots; a known-answer party; random parties through the simulator.
 *
 * The rules file is included so that the tests can set dice and cards to
 * the positions the text talks about. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../rules/drachenrummy.c"
#include "options.h"
#include "pile.h"
#include "sim.h"
#include "unit/viewtext.h"

static const struct game *const G = &drachenrummy_game;

/* Pinned by test_known_answer_seed. (Format 2: a refill's event names its
 * slots and turn, the CRC changed from 0xcf6a347c; length, turn and scores
 * stayed.) */
#define KNOWN_CRC 0xd8155eb4u
#define KNOWN_LEN 399u
#define KNOWN_TURN 14

/* Faces by suit and rank position: H(11) is Herz König. */
enum { KREUZ, PIK, HERZ, KARO };
enum { R2, R3, R4, R5, R6, R7, R8, R9, R10, RB, RD, RK, RA };
#define F(su, r) ((su) * DR_RANKS + (r))

static struct dr_state *deal(int n, uint64_t seed, const char *opts)
{
	struct dr_state *s = calloc(1, sizeof *s);
	struct setup su = { .nplayers = n, .dealer = 0, .seed = seed };
	struct rerr e;
	assert_non_null(s);
	options_default(G, su.opt);
	char buf[200];
	snprintf(buf, sizeof buf, "%s", opts ? opts : "");
	for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
		char *eq = strchr(tok, '=');
		assert_non_null(eq);
		*eq = '\0';
		assert_int_equal(options_set(G, su.opt, tok, eq + 1, &e), 0);
	}
	assert_int_equal(game_setup(G, s, &su, &e), 0);
	return s;
}

static void assert_ok(const struct dr_state *s)
{
	struct rerr e = { .msg = "" };
	if (G->check(s, &e) != 0)
		fail_msg("check: %s", e.msg);
}

static void ok(struct dr_state *s, int seat, const char *move)
{
	struct rerr e = { .msg = "" };
	if (G->apply(s, seat, move, 1000, &e) != 0)
		fail_msg("'%s' by %d refused: %s", move, seat, e.msg);
	assert_ok(s);
}

/* A refused move: its message contains `want`, the state is unchanged. */
static void bad(struct dr_state *s, int seat, const char *move, const char *want)
{
	struct dr_state *keep = malloc(sizeof *keep);
	struct rerr e = { .msg = "" };
	memcpy(keep, s, sizeof *keep);
	assert_int_equal(G->apply(s, seat, move, 1000, &e), -1);
	if (!strstr(e.msg, want))
		fail_msg("'%s': message '%s' lacks '%s'", move, e.msg, want);
	assert_memory_equal(keep, s, sizeof *keep);
	free(keep);
}

/* Takes a card of face f out of the draw pile or the middle and puts it at
 * loc for own. */
static int put(struct dr_state *s, int f, int loc, int own)
{
	int c = -1;
	for (int x = f; x < s->ncards && c < 0; x += DR_DECK)
		if (s->loc[x] == L_DECK || s->loc[x] == L_MIDDLE)
			c = x;
	assert_true(c >= 0);
	if (s->loc[c] == L_DECK)
		pile_remove_at(s->pile, &s->npile, pile_find(s->pile, s->npile, (uint16_t)c));
	for (int i = 0; i < DR_MIDDLE; i++)
		if (s->middle[i] == c)
			s->middle[i] = -1;
	s->loc[c] = (uint8_t)loc;
	s->own[c] = (uint8_t)own;
	return c;
}

/* The middle becomes faces f[0..4) (-1: empty); the old cards go back under
 * the draw pile. */
static void set_middle(struct dr_state *s, const int *f)
{
	for (int i = 0; i < DR_MIDDLE; i++) {
		int c = s->middle[i];
		if (c >= 0) {
			uint16_t x = (uint16_t)c;
			pile_put_under(s->pile, &s->npile, DR_CARDS, &x, 1);
			s->loc[c] = L_DECK;
			s->own[c] = 0;
		}
		s->middle[i] = -1;
	}
	for (int i = 0; i < DR_MIDDLE; i++)
		if (f[i] >= 0)
			s->middle[i] = (int16_t)put(s, f[i], L_MIDDLE, 0);
}

/* The seat on turn, at the start of its turn. */
static int turn_of(const struct dr_state *s)
{
	return prompt_peek(&s->pr)->owner;
}

/* The seat on turn has rolled `faces` and kept them all: its reserve step. */
static void rolled(struct dr_state *s, const int *faces)
{
	int seat = turn_of(s);
	struct dice *d = &s->dice[seat];
	assert_int_equal(step(s), S_ROLL);
	for (int i = 0; i < DR_DICE; i++)
		d->face[i] = (uint8_t)faces[i];
	d->kept = (1u << DR_DICE) - 1;
	set_step(s, S_RESERVE);
	assert_ok(s);
}

/* Whether seat's listed moves contain `move`. */
struct find {
	const char *want;
	int found;
};

static void find_emit(void *ctx, const char *m)
{
	struct find *f = ctx;
	f->found |= strcmp(f->want, m) == 0;
}

static int has_move(const struct dr_state *s, int seat, const char *move)
{
	struct find f = { move, 0 };
	G->moves(s, seat, find_emit, &f);
	return f.found;
}

/* ---- the deal ---------------------------------------------------------- */

/* "Wahlweise 52 oder 2x52 Standardspielkarten. … Vier Karten werden als
 * offene Auslage in die Mitte des Tisches gelegt, der Rest wird als
 * verdeckter Nachziehstapel bereitgelegt. Jeder Spieler erhält 5 Würfel." */
static void test_deal_middle_pile_dice(void **u)
{
	(void)u;
	for (int decks = 1; decks <= 2; decks++) {
		char o[20];
		snprintf(o, sizeof o, "decks=%d", decks);
		struct dr_state *s = deal(4, 5, o);
		assert_int_equal(s->ncards, 52 * decks);
		assert_int_equal(middle_count(s), 4);
		assert_int_equal(s->npile, 52 * decks - 4);
		for (int p = 0; p < 4; p++) {
			assert_int_equal(s->dice[p].n, 5);
			assert_int_equal(dice_home(&s->dice[p]), 0x1f);
			assert_int_equal(hand_count(s, p), 0);
		}
		assert_ok(s);
		free(s);
	}
}

/* "Der Spieler mit den meisten Schuppen beginnt": by lot, from the seed. */
static void test_start_player_by_lot(void **u)
{
	(void)u;
	int seen[5] = { 0 };
	for (uint64_t seed = 1; seed <= 60; seed++) {
		struct dr_state *s = deal(5, seed, NULL), *t = deal(5, seed, NULL);
		assert_int_equal(turn_of(s), turn_of(t));
		seen[turn_of(s)]++;
		assert_int_equal(step(s), S_ROLL);
		free(s);
		free(t);
	}
	for (int p = 0; p < 5; p++)
		assert_true(seen[p] > 0);
}

/* ---- rolling and keeping ------------------------------------------------ */

/* "Der Spieler nimmt alle seine Würfel und würfelt." */
static void test_roll_all_five_dice(void **u)
{
	(void)u;
	struct dr_state *s = deal(3, 9, NULL);
	int p = turn_of(s);
	bad(s, p, "keep 6", "Erst würfeln");
	bad(s, p, "done", "Erst würfeln");
	bad(s, seat_next(p, 3), "roll", "nicht am Zug");
	ok(s, p, "roll");
	for (int i = 0; i < 5; i++)
		assert_true(s->dice[p].face[i] >= 1 && s->dice[p].face[i] <= 6);
	assert_int_equal(step(s), S_KEEP);
	bad(s, p, "roll", "Würfel zur Seite");
	free(s);
}

/* "Danach muss er mindestens einen Würfel zur Seite legen." */
static void test_must_keep_at_least_one_die(void **u)
{
	(void)u;
	struct dr_state *s = deal(3, 9, NULL);
	int p = turn_of(s);
	ok(s, p, "roll");
	bad(s, p, "keep", "So legst du Würfel zur Seite");
	bad(s, p, "done", "Würfel zur Seite");
	/* a face nobody rolled */
	int f = 1;
	while (dice_count(&s->dice[p], 0x1f, f))
		f++;
	char m[20];
	snprintf(m, sizeof m, "keep %d", f);
	if (f <= 6)
		bad(s, p, m, "nicht unter deinen");
	bad(s, p, "keep 7", "keine Augenzahl");
	free(s);
}

/* "Dieser Würfel ist damit fixiert … Mit dem Rest darf der Spieler ein
 * weiteres Mal würfeln … und so weiter, bis alle Würfel zur Seite gelegt
 * sind." */
static void test_rest_rerolled_until_all_kept(void **u)
{
	(void)u;
	struct dr_state *s = deal(2, 3, NULL);
	int p = turn_of(s), rounds = 0;
	ok(s, p, "roll");
	while (step(s) == S_KEEP) {
		struct dice *d = &s->dice[p];
		int i = 0;
		while (!((dice_free(d) >> i) & 1u))
			i++;
		uint8_t kept_face[5];
		memcpy(kept_face, d->face, 5);
		unsigned before = d->kept;
		char m[20];
		snprintf(m, sizeof m, "keep %d", d->face[i]);
		ok(s, p, m);
		for (int k = 0; k < 5; k++)
			if (((before | (1u << i)) >> k) & 1u)
				assert_int_equal(d->face[k], kept_face[k]);   /* kept dice stay */
		assert_int_equal(__builtin_popcount(d->kept), __builtin_popcount(before) + 1);
		rounds++;
	}
	assert_int_equal(rounds, 5);   /* one die at a time: five keeps */
	assert_int_equal(step(s), S_RESERVE);
	assert_int_equal(s->dice[p].kept, 0x1f);
	free(s);
}

/* The log says what was rolled and kept. */
static void test_log_says_rolled_and_kept(void **u)
{
	(void)u;
	struct dr_state *s = deal(2, 3, NULL);
	int p = turn_of(s);
	ok(s, p, "roll");
	char want[64], text[EVENT_TEXT_MAX], f[40];
	const struct game_event *ev = &s->log.ev[s->log.n - 1];
	assert_int_equal(ev->type, EV_ROLL);
	assert_int_equal(ev->arg, 5);
	faces_words(ev->num, 5, f, sizeof f);
	event_text(ev, text, sizeof text);
	snprintf(want, sizeof want, "@%d würfelt %s.", p, f);
	assert_string_equal(text, want);
	char m[20];
	snprintf(m, sizeof m, "keep %d", s->dice[p].face[0]);
	ok(s, p, m);
	event_text(&s->log.ev[s->log.n - 2], text, sizeof text);
	snprintf(want, sizeof want, "@%d legt %d zur Seite.", p, s->dice[p].face[0]);
	assert_string_equal(text, want);
	free(s);
}

/* ---- reserving and stealing ---------------------------------------------- */

/* "Um eine Karte zu reservieren, legt er die Karte vor sich ab und legt eine
 * beliebige Anzahl von Würfeln mit derselben Augenzahl auf die Karte
 * (zumindest aber einen Würfel)." — and any number of cards. */
static void test_reserve_with_dice_of_one_value(void **u)
{
	(void)u;
	struct dr_state *s = deal(2, 4, NULL);
	int p = turn_of(s);
	set_middle(s, (int[]){ F(HERZ, RK), F(HERZ, RA), F(PIK, RA), F(KARO, R7) });
	rolled(s, (int[]){ 3, 3, 6, 6, 6 });
	bad(s, p, "reserve herz-k with", "So reservierst du");
	bad(s, p, "reserve herz-k with 3 6", "dieselbe Augenzahl");
	bad(s, p, "reserve herz-k with 3 3 3", "nicht 3 Würfel mit 3");
	bad(s, p, "reserve kreuz-2 with 3", "nicht in der Mitte");
	bad(s, p, "reserve herz-x with 3", "Eine Karte 'herz-x' gibt es nicht");
	assert_true(has_move(s, p, "reserve herz-k with 3 3"));
	assert_true(has_move(s, p, "reserve herz-k with 3"));
	ok(s, p, "reserve herz-k with 3 3");
	ok(s, p, "Reserve HERZ-A with 6 6 6");
	int k = find_card(s, F(HERZ, RK), L_RESERVED, p), a = find_card(s, F(HERZ, RA), L_RESERVED, p);
	assert_true(k >= 0 && a >= 0);
	assert_int_equal(dice_count(&s->dice[p], s->dmask[k], 3), 2);
	assert_int_equal(dice_count(&s->dice[p], s->dmask[a], 6), 3);
	assert_int_equal(s->dice[p].out, 0x1f);
	bad(s, p, "reserve pik-a with 6", "nicht 1 Würfel mit 6");
	assert_int_equal(middle_count(s), 2);
	free(s);
}

/* Unused dice are fine ("beliebig viele Karten", none too). */
static void test_unused_dice_fine(void **u)
{
	(void)u;
	struct dr_state *s = deal(2, 4, NULL);
	int p = turn_of(s);
	set_middle(s, (int[]){ F(KARO, RD), -1, -1, -1 });
	rolled(s, (int[]){ 1, 2, 3, 4, 5 });
	ok(s, p, "reserve karo-d with 5");
	ok(s, p, "done");
	/* the four unused dice are put down; the 5 stays on the card */
	assert_int_equal(__builtin_popcount(s->dice[p].out), 1);
	assert_int_equal(s->dice[p].kept, 0);
	for (int i = 0; i < DR_DICE; i++)
		if (!((s->dice[p].out >> i) & 1u))
			assert_int_equal(s->dice[p].face[i], 0);
	free(s);
}

/* The text's example: Max rolls two 3s and three 6s, reserves Herz König
 * with the 3s and Herz As with the 6s; Moritz rolls four 6s and a 5, steals
 * Herz As with the four 6s and reserves Pik As with the 5. "Dazu braucht er
 * mehr Würfel mit der Augenzahl, die der andere Spieler für die Reservierung
 * benutzt hat." The stolen card's dice go back to Max. */
static void test_steal_needs_more_dice_same_value(void **u)
{
	(void)u;
	struct dr_state *s = deal(2, 4, NULL);
	int max = turn_of(s), moritz = seat_next(max, 2);
	set_middle(s, (int[]){ F(HERZ, RK), F(HERZ, RA), F(PIK, RA), F(KARO, R7) });
	rolled(s, (int[]){ 3, 3, 6, 6, 6 });
	ok(s, max, "reserve herz-k with 3 3");
	ok(s, max, "reserve herz-a with 6 6 6");
	ok(s, max, "done");
	assert_int_equal(turn_of(s), moritz);
	rolled(s, (int[]){ 6, 6, 6, 5, 6 });
	char m[64];
	/* three 6s are not more; a 5 is another value */
	snprintf(m, sizeof m, "steal herz-a from %d with 6 6 6", max + 1);
	bad(s, moritz, m, "mehr Würfel mit derselben Augenzahl");
	snprintf(m, sizeof m, "steal herz-k from %d with 5", max + 1);
	bad(s, moritz, m, "mehr Würfel mit derselben Augenzahl");
	snprintf(m, sizeof m, "steal pik-a from %d with 5", max + 1);
	bad(s, moritz, m, "nicht reserviert");
	snprintf(m, sizeof m, "steal herz-a from %d with 6 6 6 6", moritz + 1);
	bad(s, moritz, m, "eigene Karte");
	snprintf(m, sizeof m, "steal herz-a from %d with 6 6 6 6", max + 1);
	assert_true(has_move(s, moritz, m));
	ok(s, moritz, m);
	ok(s, moritz, "reserve pik-a with 5");
	int a = find_card(s, F(HERZ, RA), L_RESERVED, moritz);
	assert_true(a >= 0);
	assert_int_equal(dice_count(&s->dice[moritz], s->dmask[a], 6), 4);
	/* Max's three 6s came back to him; his 3s still lie on Herz König */
	assert_int_equal(__builtin_popcount(s->dice[max].out), 2);
	assert_int_equal(find_card(s, F(HERZ, RK), L_RESERVED, max) >= 0, 1);
	assert_int_equal(s->log.ev[s->log.n - 2].type, EV_STEAL);
	free(s);
}

/* Variant: "… nur mehr Würfel mit einer beliebigen Augenzahl braucht …
 * eine mit zwei 4ern reservierte Karte also auch mit drei 1ern." */
static void test_variant_steal_any_value(void **u)
{
	(void)u;
	for (int variant = 0; variant < 2; variant++) {
		struct dr_state *s = deal(2, 4, variant ? "steal_any=1" : NULL);
		int a = turn_of(s), b = seat_next(a, 2);
		set_middle(s, (int[]){ F(KARO, RD), -1, -1, -1 });
		rolled(s, (int[]){ 4, 4, 2, 2, 5 });
		ok(s, a, "reserve karo-d with 4 4");
		ok(s, a, "done");
		rolled(s, (int[]){ 1, 1, 1, 6, 6 });
		char m[64];
		snprintf(m, sizeof m, "steal karo-d from %d with 1 1 1", a + 1);
		if (variant) {
			ok(s, b, m);
		} else {
			bad(s, b, m, "mehr Würfel mit derselben Augenzahl");
			snprintf(m, sizeof m, "steal karo-d from %d with 6 6", a + 1);
			bad(s, b, m, "mehr Würfel");   /* as many is not more */
		}
		free(s);
	}
}

/* Variant: "… wenn man entweder eine höhere Anzahl von Würfeln mit derselben
 * Augenzahl oder mindestens die gleiche Anzahl von Würfeln mit einer höheren
 * Augenzahl hat." */
static void test_variant_steal_higher_value(void **u)
{
	(void)u;
	struct dr_state *s = deal(2, 4, "steal_higher=1");
	int a = turn_of(s), b = seat_next(a, 2);
	set_middle(s, (int[]){ F(KARO, RD), F(KARO, RK), -1, -1 });
	rolled(s, (int[]){ 4, 4, 2, 2, 5 });
	ok(s, a, "reserve karo-d with 4 4");
	ok(s, a, "reserve karo-k with 2 2");
	ok(s, a, "done");
	rolled(s, (int[]){ 5, 5, 3, 1, 1 });
	char m[64];
	snprintf(m, sizeof m, "steal karo-d from %d with 3", a + 1);
	bad(s, b, m, "gleich viele mit höherer");   /* fewer, higher: no */
	snprintf(m, sizeof m, "steal karo-d from %d with 1 1", a + 1);
	bad(s, b, m, "mehr Würfel");                /* as many, lower: no */
	snprintf(m, sizeof m, "steal karo-d from %d with 5 5", a + 1);
	ok(s, b, m);                                /* as many, higher */
	snprintf(m, sizeof m, "steal karo-k from %d with 3", a + 1);
	bad(s, b, m, "mehr Würfel");
	free(s);
}

/* Reserving and stealing come before laying down ("3." before "4."). */
static void test_no_reserve_after_melding(void **u)
{
	(void)u;
	struct dr_state *s = deal(2, 4, NULL);
	int p = turn_of(s);
	set_middle(s, (int[]){ F(KARO, RD), -1, -1, -1 });
	put(s, F(HERZ, R2), L_HAND, p);
	put(s, F(HERZ, R3), L_HAND, p);
	put(s, F(HERZ, R4), L_HAND, p);
	rolled(s, (int[]){ 4, 4, 2, 2, 5 });
	ok(s, p, "lay herz-2 herz-3 herz-4");
	bad(s, p, "reserve karo-d with 4", "vor dem Ablegen");
	assert_false(has_move(s, p, "reserve karo-d with 4"));
	free(s);
}

/* "Falls der Spieler reservierte Karten vor sich liegen hat, darf er diese
 * nun auf die Hand nehmen": at the start of its turn (automatic), and their
 * dice come back. */
static void test_reserved_cards_to_hand_at_turn_start(void **u)
{
	(void)u;
	struct dr_state *s = deal(2, 4, NULL);
	int a = turn_of(s), b = seat_next(a, 2);
	set_middle(s, (int[]){ F(KARO, RD), F(KREUZ, R9), -1, -1 });
	rolled(s, (int[]){ 4, 4, 2, 2, 5 });
	ok(s, a, "reserve karo-d with 4 4");
	ok(s, a, "reserve kreuz-9 with 5");
	ok(s, a, "done");
	assert_int_equal(hand_count(s, a), 0);
	rolled(s, (int[]){ 1, 1, 1, 1, 1 });
	ok(s, b, "done");
	assert_int_equal(turn_of(s), a);
	assert_int_equal(hand_count(s, a), 2);
	assert_int_equal(reserved_count(s), 0);
	assert_int_equal(dice_home(&s->dice[a]), 0x1f);
	assert_int_equal(s->dice[a].face[0], 0);
	assert_int_equal(step(s), S_ROLL);
	free(s);
}

/* "Danach wird die Auslage in der Mitte wieder auf 4 Karten ergänzt, und der
 * nächste Spieler ist an der Reihe." */
static void test_middle_refilled_to_four(void **u)
{
	(void)u;
	struct dr_state *s = deal(3, 4, NULL);
	int a = turn_of(s);
	set_middle(s, (int[]){ F(KARO, RD), F(KREUZ, R9), F(PIK, R2), -1 });
	rolled(s, (int[]){ 4, 4, 2, 2, 5 });
	ok(s, a, "reserve karo-d with 4");
	int pile = s->npile;
	ok(s, a, "done");
	assert_int_equal(middle_count(s), 4);
	assert_int_equal(s->npile, pile - 2);
	assert_int_equal(turn_of(s), seat_next(a, 3));
	free(s);
}

/* ---- melds ----------------------------------------------------------------- */

static int kind_of(const int *faces, int n)
{
	uint16_t c[DR_MELD_MAX];
	int lo;
	for (int i = 0; i < n; i++)
		c[i] = (uint16_t)faces[i];
	return meld_kind(c, n, &lo);
}

/* "… mindestens 3 Karten, die entweder alle denselben Wert und
 * unterschiedliche Farben haben oder alle dieselbe Farbe und
 * aufeinanderfolgende Werte haben." */
static void test_meld_set_or_run(void **u)
{
	(void)u;
	assert_int_equal(kind_of((int[]){ F(HERZ, R7), F(PIK, R7), F(KARO, R7) }, 3), MK_SET);
	assert_int_equal(kind_of((int[]){ F(HERZ, R7), F(PIK, R7), F(KARO, R7), F(KREUZ, R7) }, 4),
			 MK_SET);
	assert_int_equal(kind_of((int[]){ F(HERZ, R7), F(PIK, R7) }, 2), MK_NONE);
	assert_int_equal(kind_of((int[]){ F(HERZ, R7), F(HERZ, R9), F(HERZ, R8) }, 3), MK_RUN);
	assert_int_equal(kind_of((int[]){ F(HERZ, R7), F(HERZ, R9), F(HERZ, R10) }, 3), MK_NONE);
	assert_int_equal(kind_of((int[]){ F(HERZ, R7), F(PIK, R8), F(HERZ, R9) }, 3), MK_NONE);
	assert_int_equal(kind_of((int[]){ F(HERZ, R10), F(HERZ, RB), F(HERZ, RD), F(HERZ, RK) }, 4),
			 MK_RUN);
}

/* "Ein As kann dabei als 1 oder As verwendet werden" — low or high, not
 * both (no K-A-2, ruling). */
static void test_ace_low_or_high_not_both(void **u)
{
	(void)u;
	int lo;
	uint16_t low[3] = { F(PIK, RA), F(PIK, R2), F(PIK, R3) };
	assert_int_equal(meld_kind(low, 3, &lo), MK_RUN);
	assert_int_equal(lo, 1);
	uint16_t high[3] = { F(PIK, RD), F(PIK, RK), F(PIK, RA) };
	assert_int_equal(meld_kind(high, 3, &lo), MK_RUN);
	assert_int_equal(lo, 0);
	assert_int_equal(kind_of((int[]){ F(PIK, RK), F(PIK, RA), F(PIK, R2) }, 3), MK_NONE);
	assert_int_equal(kind_of((int[]){ F(PIK, RD), F(PIK, RK), F(PIK, RA), F(PIK, R2) }, 4),
			 MK_NONE);
	/* the low run is laid ace first, and scores the ace 2 */
	struct dr_state *s = deal(2, 4, NULL);
	int p = turn_of(s);
	put(s, F(PIK, R3), L_HAND, p);
	put(s, F(PIK, RA), L_HAND, p);
	put(s, F(PIK, R2), L_HAND, p);
	put(s, F(PIK, RK), L_HAND, p);
	rolled(s, (int[]){ 1, 1, 1, 1, 1 });
	assert_true(has_move(s, p, "lay pik-a pik-2 pik-3"));
	assert_false(has_move(s, p, "lay pik-k pik-a pik-2"));
	bad(s, p, "lay pik-k pik-a pik-2", "kein Set");
	ok(s, p, "lay pik-3 pik-a pik-2");
	assert_int_equal(s->meld[0].c[0], F(PIK, RA));
	int sc[DR_SEATS];
	scores(s, sc);
	assert_int_equal(sc[p], 2 + 1 + 1 - 1);   /* A 2 3 laid, K in hand */
	free(s);
}

/* With two decks a set still needs different suits (ruling). */
static void test_two_decks_set_needs_different_suits(void **u)
{
	(void)u;
	struct dr_state *s = deal(2, 4, "decks=2");
	int p = turn_of(s);
	put(s, F(HERZ, R7), L_HAND, p);
	put(s, F(HERZ, R7), L_HAND, p);
	put(s, F(PIK, R7), L_HAND, p);
	put(s, F(KARO, R7), L_HAND, p);
	rolled(s, (int[]){ 1, 1, 1, 1, 1 });
	bad(s, p, "lay herz-7 herz-7 pik-7", "kein Set");
	bad(s, p, "lay herz-7 herz-7 herz-7", "nicht so oft");
	ok(s, p, "lay herz-7 pik-7 karo-7");
	bad(s, p, "add herz-7 to m1", "passt nicht");
	free(s);
}

/* "Außerdem kann der Spieler bereits abgelegte (eigene) Sets erweitern, wenn
 * durch das Hinzufügen einer Karte diese Bedingungen erfüllt bleiben." */
static void test_extend_only_own_meld(void **u)
{
	(void)u;
	struct dr_state *s = deal(2, 4, NULL);
	int a = turn_of(s), b = seat_next(a, 2);
	put(s, F(HERZ, R2), L_HAND, a);
	put(s, F(HERZ, R3), L_HAND, a);
	put(s, F(HERZ, R4), L_HAND, a);
	put(s, F(HERZ, R5), L_HAND, b);
	put(s, F(HERZ, R6), L_HAND, a);
	rolled(s, (int[]){ 1, 1, 1, 1, 1 });
	ok(s, a, "lay herz-2 herz-3 herz-4");
	bad(s, a, "add herz-6 to m1", "passt nicht an Set m1");
	bad(s, a, "add herz-6 to m2", "Ein eigenes Set 'm2'");
	ok(s, a, "done");
	rolled(s, (int[]){ 1, 1, 1, 1, 1 });
	/* seat b holds herz-5, which fits a's run: but it is not b's */
	bad(s, b, "add herz-5 to m1", "Ein eigenes Set 'm1'");
	assert_false(has_move(s, b, "add herz-5 to m1"));
	ok(s, b, "done");
	/* a takes nothing, rolls, and extends its own run at the low end? no: 2 is
	 * its lowest; herz-6 needs herz-5 first */
	free(s);
}

static void test_extend_keeps_meld_valid(void **u)
{
	(void)u;
	struct dr_state *s = deal(2, 4, NULL);
	int a = turn_of(s);
	put(s, F(HERZ, R2), L_HAND, a);
	put(s, F(HERZ, R3), L_HAND, a);
	put(s, F(HERZ, R4), L_HAND, a);
	put(s, F(HERZ, R5), L_HAND, a);
	put(s, F(HERZ, RA), L_HAND, a);
	put(s, F(KREUZ, R9), L_HAND, a);
	put(s, F(PIK, R9), L_HAND, a);
	put(s, F(KARO, R9), L_HAND, a);
	put(s, F(HERZ, R9), L_HAND, a);
	rolled(s, (int[]){ 1, 1, 1, 1, 1 });
	ok(s, a, "lay herz-3 herz-4 herz-2");
	ok(s, a, "lay kreuz-9 pik-9 karo-9");
	assert_true(has_move(s, a, "add herz-5 to m1"));
	assert_true(has_move(s, a, "add herz-a to m1"));
	assert_true(has_move(s, a, "add herz-9 to m2"));
	assert_false(has_move(s, a, "add herz-9 to m1"));
	ok(s, a, "add herz-5 to m1");
	ok(s, a, "add herz-a to m1");
	assert_int_equal(s->meld[0].n, 5);
	assert_int_equal(s->meld[0].c[0], F(HERZ, RA));
	ok(s, a, "add herz-9 to m2");
	assert_int_equal(s->meld[1].n, 4);
	free(s);
}

/* A meld has at least three cards: the form of the move says so. */
static void test_meld_needs_three_cards(void **u)
{
	(void)u;
	struct dr_state *s = deal(2, 4, NULL);
	int a = turn_of(s);
	put(s, F(HERZ, R2), L_HAND, a);
	put(s, F(HERZ, R3), L_HAND, a);
	rolled(s, (int[]){ 1, 1, 1, 1, 1 });
	bad(s, a, "lay herz-2 herz-3", "So legst du ein Set ab");
	free(s);
}

/* ---- the end ------------------------------------------------------------- */

/* "Das Spiel endet, wenn alle Karten vergeben sind, d.h. keine Karten mehr in
 * der Mitte liegen und keine Karten mehr reserviert sind. Danach darf jeder
 * Spieler noch Kartensets … ablegen und … anlegen." In turn order, from the
 * seat whose turn it would be; then the scoring: "Die Karten 2-10 zählen
 * jeweils 1 Punkt, … Bub, Dame, König und As jeweils 2 Punkte (auch, wenn
 * das As als 1er verwendet wird). Jede Handkarte … zählt -1 Punkt." */
static void test_end_last_meld_out_and_scoring(void **u)
{
	(void)u;
	struct dr_state *s = deal(3, 4, NULL);
	int a = turn_of(s), b = seat_next(a, 3), c = seat_next(b, 3);
	/* everything but six cards in the pile goes to a's hand */
	set_middle(s, (int[]){ F(KARO, RD), -1, -1, -1 });
	int keep[] = { F(PIK, RA), F(PIK, R2), F(PIK, R3), F(KREUZ, RB), F(HERZ, RB),
		       F(KARO, RB) };
	while (s->npile > 0) {
		int x = s->pile[--s->npile];
		int f = face(x), mine = 0;
		for (int i = 0; i < 6; i++)
			mine |= f == keep[i];
		s->loc[x] = L_HAND;
		s->own[x] = (uint8_t)(mine ? b : c);
	}
	assert_ok(s);
	rolled(s, (int[]){ 2, 2, 2, 2, 2 });
	ok(s, a, "reserve karo-d with 2 2");
	ok(s, a, "done");   /* the middle stays empty: the pile is */
	assert_int_equal(turn_of(s), b);
	assert_int_equal(prompt_kind(&s->pr), PR_TURN);   /* a's reservation is out */
	rolled(s, (int[]){ 1, 1, 1, 1, 1 });
	ok(s, b, "done");
	assert_int_equal(turn_of(s), c);
	rolled(s, (int[]){ 1, 1, 1, 1, 1 });
	ok(s, c, "done");
	/* a takes its card to hand: now every card is given out */
	assert_int_equal(prompt_kind(&s->pr), PR_LAST);
	assert_int_equal(prompt_peek(&s->pr)->owner, a);
	assert_int_equal(hand_count(s, a), 1);
	bad(s, a, "roll", "jetzt wird nur noch abgelegt");
	bad(s, a, "keep 1", "jetzt wird nur noch abgelegt");
	bad(s, b, "done", "nicht am Zug");
	ok(s, a, "done");
	assert_int_equal(prompt_peek(&s->pr)->owner, b);
	ok(s, b, "lay pik-2 pik-a pik-3");
	ok(s, b, "lay kreuz-b herz-b karo-b");
	ok(s, b, "done");
	assert_int_equal(prompt_peek(&s->pr)->owner, c);
	ok(s, c, "done");
	struct status st;
	G->status(s, &st);
	assert_true(st.over);
	assert_int_equal(st.to_act, 0);
	assert_int_equal(st.score[b], 2 + 1 + 1 + 2 * 3);   /* the ace as 1 still counts 2 */
	assert_int_equal(st.score[a], -1);
	assert_int_equal(st.score[c], -(52 - 1 - 6));   /* all but the middle card and b's six */
	bad(s, c, "done", "schon vorbei");
	struct party_result r;
	party_result(&st, 3, &r);
	assert_int_equal(r.place[b], 1);
	free(s);
}

/* Plays roll, keep all, done (the dice set by rolled()) until the turn
 * limit starts the last meld-out; at most DR_TURN_MAX + 2 turns. */
static void idle_to_limit(struct dr_state *s)
{
	for (int k = 0; k < DR_TURN_MAX + 2 && prompt_kind(&s->pr) == PR_TURN; k++) {
		rolled(s, (int[]){ 1, 1, 1, 1, 1 });
		ok(s, turn_of(s), "done");
	}
	assert_int_equal(prompt_kind(&s->pr), PR_LAST);
}

/* Ruling (bounds): after turn 600 the last meld-out begins as if every
 * card were given out, also when seats hold cards (reserved early, taken
 * to hand) while the pile and the middle still have cards: the position
 * passes check(), every hand lays down once more, the party ends. (The
 * `done` that ended turn 600 used to leave a position check() refused.) */
static void test_turn_limit_with_cards_in_hand(void **u)
{
	(void)u;
	struct dr_state *s = deal(2, 4, NULL);
	int a = turn_of(s), b = seat_next(a, 2);
	set_middle(s, (int[]){ F(KARO, RD), F(KREUZ, R9), -1, -1 });
	rolled(s, (int[]){ 4, 4, 2, 2, 5 });
	ok(s, a, "reserve karo-d with 4 4");
	ok(s, a, "reserve kreuz-9 with 5");
	ok(s, a, "done");
	idle_to_limit(s);   /* ok() checks every position on the way */
	assert_int_equal(s->turn, DR_TURN_MAX);
	assert_true(s->npile > 0);
	assert_int_equal(middle_count(s), DR_MIDDLE);
	assert_int_equal(hand_count(s, a), 2);
	assert_int_equal(prompt_peek(&s->pr)->owner, a);   /* b has no cards to lay */
	assert_true(has_move(s, a, "done"));
	assert_false(has_move(s, a, "roll"));
	ok(s, a, "done");
	struct status st;
	G->status(s, &st);
	assert_true(st.over);
	assert_int_equal(st.score[a], -2);
	assert_int_equal(st.score[b], 0);
	(void)b;
	free(s);
}

/* The same limit while a seat holds a reservation (made in the last turn
 * before it): the reservations go to their holders' hands, their dice come
 * back, and that seat lays down in the last meld-out too. */
static void test_turn_limit_takes_reservations(void **u)
{
	(void)u;
	struct dr_state *s = deal(2, 4, NULL);
	s->turn = DR_TURN_MAX - 1;
	int a = turn_of(s), b = seat_next(a, 2);
	rolled(s, (int[]){ 1, 1, 1, 1, 1 });
	ok(s, a, "done");
	assert_int_equal(turn_of(s), b);   /* turn 600 */
	set_middle(s, (int[]){ F(KARO, RD), F(KREUZ, R9), F(PIK, R2), -1 });
	rolled(s, (int[]){ 4, 4, 2, 2, 5 });
	ok(s, b, "reserve karo-d with 4 4");
	ok(s, b, "reserve kreuz-9 with 5");
	ok(s, b, "done");
	assert_int_equal(prompt_kind(&s->pr), PR_LAST);
	assert_int_equal(reserved_count(s), 0);
	assert_int_equal(hand_count(s, b), 2);
	assert_int_equal(dice_home(&s->dice[b]), 0x1f);
	assert_int_equal(prompt_peek(&s->pr)->owner, b);   /* a has no cards to lay */
	ok(s, b, "done");
	struct status st;
	G->status(s, &st);
	assert_true(st.over);
	assert_int_equal(st.score[b], -2);
	free(s);
}

/* A run of all thirteen cards of a suit is one move, listed once (the
 * ace low and the ace high are the same cards, spelled the same), and no
 * move of the list comes twice. */
struct seen_moves {
	char m[512][GAME_MOVE_MAX + 1];
	int n, dup;
};

static void seen_emit(void *ctx, const char *m)
{
	struct seen_moves *x = ctx;
	for (int i = 0; i < x->n; i++)
		x->dup += strcmp(x->m[i], m) == 0;
	if (x->n < 512)
		snprintf(x->m[x->n++], sizeof x->m[0], "%s", m);
}

static void test_thirteen_run_listed_once(void **u)
{
	(void)u;
	struct dr_state *s = deal(2, 4, NULL);
	int p = turn_of(s);
	for (int r = R2; r <= RA; r++)
		put(s, F(PIK, r), L_HAND, p);
	rolled(s, (int[]){ 1, 1, 1, 1, 1 });
	const char *all = "lay pik-2 pik-3 pik-4 pik-5 pik-6 pik-7 pik-8 pik-9 pik-10 pik-b "
			  "pik-d pik-k pik-a";
	struct seen_moves *x = calloc(1, sizeof *x);
	assert_non_null(x);
	G->moves(s, p, seen_emit, x);
	int n13 = 0;
	for (int i = 0; i < x->n; i++)
		n13 += strcmp(x->m[i], all) == 0;
	assert_int_equal(n13, 1);
	assert_int_equal(x->dup, 0);
	/* the twelve from the ace low are still there, and the twelve up to it */
	assert_true(has_move(s, p, "lay pik-a pik-2 pik-3 pik-4 pik-5 pik-6 pik-7 pik-8 pik-9 "
				   "pik-10 pik-b pik-d"));
	assert_true(has_move(s, p, "lay pik-3 pik-4 pik-5 pik-6 pik-7 pik-8 pik-9 pik-10 pik-b "
				   "pik-d pik-k pik-a"));
	ok(s, p, all);
	free(x);
	free(s);
}

/* "Der Spieler mit den meisten Punkte gewinnt": ties share (party_result). */
static void test_ties_share(void **u)
{
	(void)u;
	struct status st;
	struct party_result r;
	memset(&st, 0, sizeof st);
	st.over = 1;
	st.score[0] = 5;
	st.score[1] = 5;
	st.score[2] = -2;
	party_result(&st, 3, &r);
	assert_int_equal(r.place[0], 1);
	assert_int_equal(r.place[1], 1);
	assert_int_equal(r.place[2], 3);
}

/* Matches of several parties: the table chooses how many. */
static void test_match_parties_option(void **u)
{
	(void)u;
	int opt[GAME_OPT_MAX];
	options_default(G, opt);
	assert_int_equal(G->parties(4, opt), 3);
	opt[O_PARTIES] = 7;
	assert_int_equal(G->parties(2, opt), 7);
}

/* ---- the move language ----------------------------------------------------- */

/* Every refusal says why and changes nothing. */
static void test_bad_moves_rejected_state_unchanged(void **u)
{
	(void)u;
	struct dr_state *s = deal(3, 11, NULL);
	int p = turn_of(s), q = seat_next(p, 3);
	static const struct { const char *move, *want; } rows[] = {
		{ "", "Kein Zug angegeben." },
		{ "fly", "Unbekannter Zug 'fly'. Möglich sind roll, keep, reserve, steal, lay, add und done." },
		{ "roll 6", "roll steht allein" },
		{ "keep 1 2 3 4 5 6", "So legst du Würfel" },
		{ "reserve herz-k", "So reservierst du" },
		{ "reserve herz-k on 3", "So reservierst du" },
		{ "steal herz-k from 2", "So stiehlst du" },
		{ "steal herz-k from 2 to 6", "So stiehlst du" },
		{ "lay herz-2", "So legst du ein Set ab" },
		{ "add herz-2 on m1", "So legst du an" },
		{ "done now", "done steht allein" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		bad(s, p, rows[i].move, rows[i].want);
	bad(s, q, "roll", "nicht am Zug");
	bad(s, 7, "roll", "gibt es an diesem Tisch nicht");
	rolled(s, (int[]){ 2, 2, 3, 4, 5 });
	bad(s, p, "steal herz-k from 9 with 2", "Platz '9' gibt es nicht");
	bad(s, p, "add herz-2 to x1", "Ein eigenes Set 'x1'");
	bad(s, p, "keep 2", "liegen schon zur Seite");
	bad(s, p, "reserve herz-k with zwei", "keine Augenzahl");
	free(s);
}

/* Cards are typed suit-rank; ranks b d k a, or spelled out; any case. */
static void test_card_words(void **u)
{
	(void)u;
	int f;
	assert_int_equal(parse_face("herz-k", &f), 0);
	assert_int_equal(f, F(HERZ, RK));
	assert_int_equal(parse_face("herz-könig", &f), 0);
	assert_int_equal(f, F(HERZ, RK));
	assert_int_equal(parse_face("pik-10", &f), 0);
	assert_int_equal(f, F(PIK, R10));
	assert_int_equal(parse_face("karo-as", &f), 0);
	assert_int_equal(f, F(KARO, RA));
	assert_int_equal(parse_face("kreuz-bube", &f), 0);
	assert_int_equal(f, F(KREUZ, RB));
	assert_int_equal(parse_face("herz-1", &f), -1);
	assert_int_equal(parse_face("herz", &f), -1);
	assert_int_equal(parse_face("herzk", &f), -1);
	assert_string_equal(face_word(F(KARO, RD)), "karo-d");
	assert_string_equal(face_label(F(HERZ, RK)), "Herz König");
}

/* Every listed move is accepted, and each one's text reads back as listed,
 * along random parties of every size and both deck counts. */
static void test_listed_moves_accepted(void **u)
{
	(void)u;
	for (int n = 2; n <= 5; n++) {
		struct dr_state *s = deal(n, (uint64_t)n * 31, n % 2 ? "decks=2" : "steal_any=1");
		struct rng r;
		rng_seed(&r, (uint64_t)n);
		for (int k = 0; k < 400 && !over(s); k++) {
			int p = turn_of(s);
			struct sim_pick count = { NULL, -1, 0, "" };
			int nm = G->moves(s, p, sim_pick_emit, &count);
			assert_true(nm > 0);
			for (int i = 0; i < nm; i++) {
				struct dr_state t;
				struct sim_pick pk = { NULL, i, 0, "" };
				struct rerr e;
				G->moves(s, p, sim_pick_emit, &pk);
				memcpy(&t, s, sizeof t);
				if (G->apply(&t, p, pk.chosen, 1000, &e) != 0)
					fail_msg("listed '%s' refused: %s", pk.chosen, e.msg);
				assert_ok(&t);
			}
			struct sim_pick pk = { &r, 0, 0, "" };
			G->moves(s, p, sim_pick_emit, &pk);
			ok(s, p, pk.chosen);
			for (int o = 0; o < n; o++)
				if (o != p)
					assert_int_equal(G->moves(s, o, sim_pick_emit, &count) == 0 ||
							 turn_of(s) == o, 1);
		}
		free(s);
	}
}

/* ---- snapshots ----------------------------------------------------------- */

static size_t encode(const struct dr_state *s, unsigned char *p)
{
	struct buf b = { p, 0, GAME_SNAPSHOT_MAX, 0 };
	assert_int_equal(G->encode(s, &b), 0);
	return b.len;
}

static void fix_crc(unsigned char *p, size_t n)
{
	uint32_t c = crc32_bytes(p, n - 4);
	for (int i = 0; i < 4; i++)
		p[n - 4 + (size_t)i] = (unsigned char)(c >> (8 * i));
}

static void test_snapshot_round_trip(void **u)
{
	(void)u;
	static unsigned char a[GAME_SNAPSHOT_MAX], b[GAME_SNAPSHOT_MAX];
	struct dr_state *s = deal(4, 21, "decks=2 steal_higher=1");
	struct rng r;
	rng_seed(&r, 5);
	for (int k = 0; k < 120 && !over(s); k++) {
		struct sim_pick pk = { &r, 0, 0, "" };
		G->moves(s, turn_of(s), sim_pick_emit, &pk);
		ok(s, turn_of(s), pk.chosen);
		struct dr_state *t = calloc(1, sizeof *t);
		struct rerr e;
		size_t n = encode(s, a);
		assert_int_equal(game_load(G, t, a, n, &e), SNAP_OK);
		size_t m = encode(t, b);
		assert_int_equal(m, n);
		assert_memory_equal(a, b, n);
		free(t);
	}
	free(s);
}

static void test_snapshot_corrupt_rejected(void **u)
{
	(void)u;
	static unsigned char a[GAME_SNAPSHOT_MAX], c[GAME_SNAPSHOT_MAX];
	struct dr_state *s = deal(3, 8, NULL), *t = calloc(1, sizeof *t), *keep = calloc(1, sizeof *keep);
	struct rng r;
	struct rerr e;
	rng_seed(&r, 2);
	for (int k = 0; k < 40; k++) {
		struct sim_pick pk = { &r, 0, 0, "" };
		G->moves(s, turn_of(s), sim_pick_emit, &pk);
		ok(s, turn_of(s), pk.chosen);
	}
	size_t n = encode(s, a);
	memset(t, 0x5a, sizeof *t);
	memcpy(keep, t, sizeof *keep);
	for (size_t i = 0; i < n; i++) {
		memcpy(c, a, n);
		c[i] ^= 0x40;
		assert_int_equal(game_load(G, t, c, n, &e), SNAP_BAD);
	}
	for (size_t m = 0; m < n; m += 5)
		assert_int_equal(game_load(G, t, a, m, &e), SNAP_BAD);
	/* valid CRC, values out of range: players, decks, the prompt, a card's
	 * place; and any flipped payload byte either refused or checked */
	size_t hdr = 4 + 1 + 12 + 4 + 1;   /* envelope, slug "drachenrummy", format */
	static const struct { size_t off; unsigned char v; } poke[] = {
		{ 0, 1 }, { 0, 6 }, { 1, 3 }, { 2, 2 }, { 4, 0 },
	};
	for (size_t i = 0; i < sizeof poke / sizeof poke[0]; i++) {
		memcpy(c, a, n);
		c[hdr + poke[i].off] = poke[i].v;
		fix_crc(c, n);
		if (game_load(G, t, c, n, &e) == SNAP_OK)
			fail_msg("poke %zu accepted", i);
	}
	for (size_t i = hdr; i + 4 < n; i++) {
		memcpy(c, a, n);
		c[i] ^= 0x11;
		fix_crc(c, n);
		if (game_load(G, t, c, n, &e) == SNAP_OK)
			assert_ok(t);
	}
	memset(t, 0x5a, sizeof *t);
	c[hdr - 1] = DR_FORMAT + 1;
	fix_crc(c, n);
	assert_int_equal(game_load(G, t, c, n, &e), SNAP_FORMAT);
	assert_memory_equal(t, keep, sizeof *t);
	free(s);
	free(t);
	free(keep);
}

/* The page's tree (html_only) gives another seat's die as one class text
 * and what it shows, with the flags its hidden text asks, as the JSON
 * twin's flags say; none of the viewer's own dice, which its buttons show. */
static void test_page_dice_as_the_flags_say(void **u)
{
	(void)u;
	struct dr_state *s = deal(3, 7, NULL);
	int a = turn_of(s), b = seat_next(a, 3);
	struct dice *d = &s->dice[b];
	static const uint8_t faces[5] = { 0, 3, 5, 6, 1 };
	memcpy(d->face, faces, sizeof faces);
	d->kept = 1u << 1 | 1u << 4;
	d->out = 1u << 2 | 1u << 4;
	struct vtext *t = calloc(1, sizeof *t);
	struct view_sink v = vt_sink(t);
	v.html_only = 1;
	G->view(s, a, &v);
	static const char *const want[5] = {
		"[dice\nclass= dr-unrolled\npip=·\nkept?0\nout?0\nunrolled?1\n]\n",
		"[dice\nclass= dr-kept\npip=3\nkept?1\nout?0\nunrolled?0\n]\n",
		"[dice\nclass= dr-out\npip=5\nkept?0\nout?1\nunrolled?0\n]\n",
		"[dice\nclass=\npip=6\nkept?0\nout?0\nunrolled?0\n]\n",
		"[dice\nclass= dr-kept dr-out\npip=1\nkept?1\nout?1\nunrolled?0\n]\n",
	};
	char all[512] = "";
	for (int i = 0; i < 5; i++)
		strcat(all, want[i]);
	assert_non_null(strstr(t->s, all));
	/* three seats, the viewer's own without dice on the page */
	int items = 0;
	for (const char *p = t->s; (p = strstr(p, "[dice\n")); p++)
		items++;
	assert_int_equal(items, 10);
	assert_null(strstr(t->s, "[dice\nindex="));   /* the JSON twin's keys: not here */
	v = vt_sink(t);
	G->view(s, a, &v);
	assert_non_null(strstr(t->s, "[dice\nindex=1\nface=3\nrolled?1\nunrolled?0\nkept?1\nout?0\n]\n"));
	assert_null(strstr(t->s, "\nclass="));
	free(t);
	free(s);
}

/* ---- hidden information --------------------------------------------------- */

/* Another seat's page shows how many cards a hand holds, never which; the
 * draw pile shows its size only. */
static void test_view_hides_hands_and_pile(void **u)
{
	(void)u;
	struct dr_state *s = deal(2, 4, NULL);
	int a = turn_of(s), b = seat_next(a, 2);
	put(s, F(HERZ, RK), L_HAND, b);
	put(s, F(PIK, R9), L_HAND, a);
	struct vtext *t = calloc(1, sizeof *t);
	struct view_sink v = vt_sink(t);
	G->view(s, a, &v);
	assert_non_null(strstr(t->s, "name=Pik 9\n"));
	assert_null(strstr(t->s, "name=Herz König\n"));
	assert_non_null(strstr(t->s, "hand_count=1\n"));
	v = vt_sink(t);
	G->view(s, -1, &v);
	assert_null(strstr(t->s, "name=Pik 9\n"));
	assert_null(strstr(t->s, "[hand\n"));
	free(t);
	free(s);
}

/* How often `what` occurs in text. */
static int count_of(const char *text, const char *what)
{
	int n = 0;
	for (const char *p = strstr(text, what); p; p = strstr(p + 1, what))
		n++;
	return n;
}

/* Issue 33: the board marks what the newest step changed: the card just
 * reserved, then the set just laid (and nothing else); after the turn, the
 * cards the refill turned up in the middle, while the next turn runs. */
static void test_view_marks_last_change(void **u)
{
	(void)u;
	struct dr_state *s = deal(2, 4, NULL);
	int p = turn_of(s);
	set_middle(s, (int[]){ F(HERZ, RK), F(HERZ, RA), F(PIK, RA), F(KARO, R7) });
	put(s, F(PIK, R2), L_HAND, p);
	put(s, F(PIK, R3), L_HAND, p);
	put(s, F(PIK, R4), L_HAND, p);
	rolled(s, (int[]){ 3, 3, 6, 6, 6 });
	struct vtext *t = calloc(1, sizeof *t);
	struct view_sink v = vt_sink(t);
	G->view(s, -1, &v);
	assert_null(strstr(t->s, "last?1"));
	ok(s, p, "reserve herz-k with 3 3");
	v = vt_sink(t);
	G->view(s, -1, &v);
	const char *r = strstr(t->s, "[reserved\n");
	assert_non_null(r);
	assert_true(strstr(r, "name=Herz König\n") < strstr(r, "last?1\nlast_text=zuletzt reserviert\n"));
	assert_null(strstr(strstr(t->s, "last?1") + 1, "last?1"));
	ok(s, p, "lay pik-2 pik-3 pik-4");
	v = vt_sink(t);
	G->view(s, -1, &v);
	const char *m = strstr(t->s, "[melds\nnumber=1\nlast?1\nlast_text=zuletzt abgelegt\n");
	assert_non_null(m);
	assert_ptr_equal(strstr(t->s, "last?1"), m + strlen("[melds\nnumber=1\n"));
	assert_null(strstr(strstr(t->s, "last?1") + 1, "last?1"));
	/* the turn ends: the card refilled into slot 1 (Herz König's) is new,
	 * for the whole next turn, as well as the set (the newest move) */
	ok(s, p, "done");
	int q = turn_of(s);
	for (int pass = 0; pass < 2; pass++) {
		v = vt_sink(t);
		G->view(s, pass ? q : -1, &v);
		const char *n = strstr(t->s, "[middle\nslot=1\nempty?0\nhas_card?1\nlast?1\n"
					     "last_text=neu aufgedeckt\n");
		assert_non_null(n);
		assert_ptr_equal(strstr(t->s, "last?1"), n + strlen("[middle\nslot=1\nempty?0\nhas_card?1\n"));
		assert_non_null(strstr(t->s, "last?1\nlast_text=zuletzt abgelegt\n"));
		assert_int_equal(count_of(t->s, "last?1"), 2);
		if (!pass)
			rolled(s, (int[]){ 1, 2, 3, 4, 5 });
	}
	/* the next turn ends without a refill: nothing in the middle is new */
	ok(s, q, "done");
	v = vt_sink(t);
	G->view(s, -1, &v);
	assert_null(strstr(t->s, "neu aufgedeckt"));
	assert_int_equal(count_of(t->s, "last?1"), 1);
	free(t);
	free(s);
}

/* Issue 33: while I keep, my rolled dice are a form (one checkbox a die,
 * keep_form) next to my buttons, not 17 keep buttons; the form's dice are
 * mine only, and the others see them in the player list. */
static void test_view_keep_form_not_buttons(void **u)
{
	(void)u;
	struct dr_state *s = deal(2, 3, NULL);
	int a = turn_of(s), b = seat_next(a, 2);
	ok(s, a, "roll");
	struct vtext *t = calloc(1, sizeof *t);
	struct view_sink v = vt_sink(t);
	G->view(s, a, &v);
	assert_non_null(strstr(t->s, "keep_form?1\n"));
	assert_null(strstr(t->s, "[keep_moves\n"));
	assert_null(strstr(t->s, "move=keep"));
	int picks = 0;
	for (const char *q = t->s; (q = strstr(q, "pick?1\n")); q++)
		picks++;
	assert_int_equal(picks, 5);   /* five rolled dice, none kept yet */
	/* my seat in the player list does not repeat my dice; b's does */
	assert_non_null(strstr(t->s, "show_dice?0\n"));
	assert_non_null(strstr(t->s, "show_dice?1\n"));
	v = vt_sink(t);
	G->view(s, b, &v);
	assert_non_null(strstr(t->s, "keep_form?0\n"));
	assert_null(strstr(t->s, "pick?1\n"));
	/* keep one die: four left to pick, the kept one shown as kept */
	char m[20];
	snprintf(m, sizeof m, "keep %d", s->dice[a].face[0]);
	ok(s, a, m);
	v = vt_sink(t);
	G->view(s, a, &v);
	picks = 0;
	for (const char *q = t->s; (q = strstr(q, "pick?1\n")); q++)
		picks++;
	assert_int_equal(picks, 4);
	free(t);
	free(s);
}

/* ---- known answer and random parties ---------------------------------------- */

/* Seed 7, three players, the first listed move every time for 150 moves:
 * pinned from the first run; a change in the rules shows up here. */
static void test_known_answer_seed(void **u)
{
	(void)u;
	struct dr_state *s = deal(3, 7, NULL);
	for (int k = 0; k < 150 && !over(s); k++) {
		struct sim_pick pk = { NULL, 0, 0, "" };
		G->moves(s, turn_of(s), sim_pick_emit, &pk);
		ok(s, turn_of(s), pk.chosen);
	}
	static unsigned char a[GAME_SNAPSHOT_MAX];
	size_t n = encode(s, a);
	struct status st;
	G->status(s, &st);
	printf("known answer: crc=%08x len=%zu turn=%d scores %d %d %d\n",
	       crc32_bytes(a, n - 4), n, s->turn, st.score[0], st.score[1], st.score[2]);
	assert_int_equal(crc32_bytes(a, n - 4), KNOWN_CRC);
	assert_int_equal(n, KNOWN_LEN);
	assert_int_equal(s->turn, KNOWN_TURN);
	free(s);
}

static void test_sim_parties(void **u)
{
	(void)u;
	static const char *const opts[] = { NULL, "decks=2", "steal_any=1 steal_higher=1" };
	struct sim_mem mem = {
		.state = calloc(1, G->state_size),
		.replay = calloc(1, G->state_size),
		.log = calloc(20000, sizeof(struct sim_step)),
		.max_steps = 20000,
		.snap_a = malloc(GAME_SNAPSHOT_MAX),
		.snap_b = malloc(GAME_SNAPSHOT_MAX),
	};
	for (int n = 2; n <= 5; n++)
		for (int o = 0; o < 3; o++) {
			struct setup su = { .nplayers = n };
			struct rerr e;
			options_default(G, su.opt);
			char buf[64];
			snprintf(buf, sizeof buf, "%s", opts[o] ? opts[o] : "");
			for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
				char *eq = strchr(tok, '=');
				*eq = '\0';
				assert_int_equal(options_set(G, su.opt, tok, eq + 1, &e), 0);
			}
			for (int k = 0; k < 40; k++) {
				su.seed = (uint64_t)k * 7919u + (uint64_t)n;
				struct sim_result r;
				sim_party(G, &su, su.seed ^ 0xabcdefULL, &mem, &r);
				if (r.invariant_failures || r.replay_mismatch || r.rejected_legal ||
				    r.stuck || !r.ended)
					fail_msg("%d players, %s, party %d: %s", n, opts[o] ? opts[o] : "-",
						 k, r.err.msg);
			}
		}
	free(mem.state);
	free(mem.replay);
	free(mem.log);
	free(mem.snap_a);
	free(mem.snap_b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deal_middle_pile_dice),
		cmocka_unit_test(test_start_player_by_lot),
		cmocka_unit_test(test_roll_all_five_dice),
		cmocka_unit_test(test_must_keep_at_least_one_die),
		cmocka_unit_test(test_rest_rerolled_until_all_kept),
		cmocka_unit_test(test_log_says_rolled_and_kept),
		cmocka_unit_test(test_reserve_with_dice_of_one_value),
		cmocka_unit_test(test_unused_dice_fine),
		cmocka_unit_test(test_steal_needs_more_dice_same_value),
		cmocka_unit_test(test_variant_steal_any_value),
		cmocka_unit_test(test_variant_steal_higher_value),
		cmocka_unit_test(test_no_reserve_after_melding),
		cmocka_unit_test(test_reserved_cards_to_hand_at_turn_start),
		cmocka_unit_test(test_middle_refilled_to_four),
		cmocka_unit_test(test_meld_set_or_run),
		cmocka_unit_test(test_ace_low_or_high_not_both),
		cmocka_unit_test(test_two_decks_set_needs_different_suits),
		cmocka_unit_test(test_extend_only_own_meld),
		cmocka_unit_test(test_extend_keeps_meld_valid),
		cmocka_unit_test(test_meld_needs_three_cards),
		cmocka_unit_test(test_end_last_meld_out_and_scoring),
		cmocka_unit_test(test_turn_limit_with_cards_in_hand),
		cmocka_unit_test(test_turn_limit_takes_reservations),
		cmocka_unit_test(test_thirteen_run_listed_once),
		cmocka_unit_test(test_ties_share),
		cmocka_unit_test(test_match_parties_option),
		cmocka_unit_test(test_bad_moves_rejected_state_unchanged),
		cmocka_unit_test(test_card_words),
		cmocka_unit_test(test_listed_moves_accepted),
		cmocka_unit_test(test_snapshot_round_trip),
		cmocka_unit_test(test_snapshot_corrupt_rejected),
		cmocka_unit_test(test_page_dice_as_the_flags_say),
		cmocka_unit_test(test_view_hides_hands_and_pile),
		cmocka_unit_test(test_view_keep_form_not_buttons),
		cmocka_unit_test(test_view_marks_last_change),
		cmocka_unit_test(test_known_answer_seed),
		cmocka_unit_test(test_sim_parties),
	};
	return cmocka_run_group_tests_name("drachenrummy", tests, NULL, NULL);
}
