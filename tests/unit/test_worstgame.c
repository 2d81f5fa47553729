/* test_worstgame.c — Worst Game Ever against its rule text (a test per rule
 * sentence; docs/rulings.md names them): the setup, the turn (ante, draw,
 * attack, the roll), reaction windows and the stack, the standing choice
 * and what it does not tell, cards that stay in play, the hand limit and
 * the deck, the short kitty, elimination, the last round and the shout;
 * refusals; snapshots; a known-answer party; random parties.
 *
 * The rules file is included so that a test can set hands, chips, the
 * stack and the deck to the position a rule talks about. What each card
 * does is tested in test_worstgame_cards.c. */
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
#include "sim.h"
#include "unit/viewtext.h"

static const struct game *const G = &worstgame_game;
static const int64_t T0 = 1000000;

/* Pinned by test_known_answer. */
#define KNOWN_CRC 0x2debd046u
#define KNOWN_LEN 448u

static void assert_ok(const struct wg_state *s)
{
	struct rerr e = { .msg = "" };
	if (G->check(s, &e) != 0)
		fail_msg("check: %s", e.msg);
}

/* A party of n from `dealer` (the platform's choice), options as
 * "key=value key=value". */
static struct wg_state *deal_with(int n, int dealer, uint64_t seed, const char *opts)
{
	struct wg_state *s = calloc(1, sizeof *s);
	struct setup su = { .nplayers = n, .dealer = dealer, .seed = seed };
	struct rerr e;
	char buf[200];
	assert_non_null(s);
	options_default(G, su.opt);
	snprintf(buf, sizeof buf, "%s", opts ? opts : "");
	for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
		char *eq = strchr(tok, '=');
		assert_non_null(eq);
		*eq = '\0';
		assert_int_equal(options_set(G, su.opt, tok, eq + 1, &e), 0);
	}
	assert_int_equal(game_setup(G, s, &su, &e), 0);
	assert_ok(s);
	return s;
}

static struct wg_state *deal(int n, int dealer, uint64_t seed)
{
	return deal_with(n, dealer, seed, NULL);
}

static void ok_at(struct wg_state *s, int seat, const char *move, int64_t now)
{
	struct rerr e = { .msg = "" };
	if (G->apply(s, seat, move, now, &e) != 0)
		fail_msg("'%s' by %d refused: %s", move, seat, e.msg);
	assert_ok(s);
}

static void ok(struct wg_state *s, int seat, const char *move)
{
	ok_at(s, seat, move, T0);
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

static struct status status_of(const struct wg_state *s)
{
	struct status st;
	G->status(s, &st);
	return st;
}

/* The open window's kind of step (K_*), or -1 when none is open. */
static int window_kind(const struct wg_state *s)
{
	const struct prompt *p = prompt_peek(&s->pr);
	return p && p->kind == PR_REACT ? p->arg : -1;
}

/* The seats the open window is for (status.window). */
static uint32_t window_seats_now(const struct wg_state *s)
{
	return status_of(s).window;
}

/* Everyone still waiting in the open window passes: it closes. */
static void pass_window(struct wg_state *s)
{
	assert_int_equal(prompt_kind(&s->pr), PR_REACT);
	uint32_t w = prompt_peek(&s->pr)->waiting;
	for (int q = 0; q < s->n; q++)
		if ((w >> q) & 1u)
			ok(s, q, "pass");
}

/* Windows are passed until none is open. */
static void pass_windows(struct wg_state *s)
{
	while (prompt_kind(&s->pr) == PR_REACT)
		pass_window(s);
}

/* Every seat makes the same move (a standing choice). */
static void everyone(struct wg_state *s, const char *move)
{
	for (int q = 0; q < s->n; q++)
		ok(s, q, move);
}

/* Takes a card of type `slug` out of the deck, the discard pile or a hand
 * other than `not_seat`'s (in that order): its id. */
static uint16_t take_free(struct wg_state *s, const char *slug, int not_seat)
{
	int t = type_by_slug(slug);
	assert_true(t >= 0);
	for (int where = 0; where < 2 + s->n; where++) {
		uint16_t *a = where == 0 ? s->deck : where == 1 ? s->discard : s->hand[where - 2];
		int *n = where == 0 ? &s->ndeck : where == 1 ? &s->ndiscard : &s->nhand[where - 2];
		if (where - 2 == not_seat)
			continue;
		for (int i = 0; i < *n; i++)
			if (type_index(a[i]) == t) {
				uint16_t c = a[i];
				pile_remove_at(a, n, i);
				return c;
			}
	}
	fail_msg("no free card '%s'", slug);
	return 0;
}

static uint16_t to_hand(struct wg_state *s, int seat, const char *slug)
{
	uint16_t c = take_free(s, slug, seat);
	s->hand[seat][s->nhand[seat]++] = c;
	return c;
}

/* The next card drawn is one of `slug`. */
static void to_deck_top(struct wg_state *s, const char *slug)
{
	uint16_t c = take_free(s, slug, -1);
	s->deck[s->ndeck++] = c;
}

/* Seat's hand goes under the deck (where no draw in a test reaches). */
static void empty_hand(struct wg_state *s, int seat)
{
	assert_int_equal(pile_put_under(s->deck, &s->ndeck, WG_CARDS, s->hand[seat], s->nhand[seat]),
			 0);
	s->nhand[seat] = 0;
}

/* Seat has n chips; the difference goes to or comes from the kitty. */
static void set_chips(struct wg_state *s, int seat, int n)
{
	s->kitty = (int16_t)(s->kitty + s->chips[seat] - n);
	s->chips[seat] = (int16_t)n;
	assert_true(s->kitty >= 0);
}

/* A card of `slug` lies in front of holder with `chips` of the holder's
 * chips on it. */
static uint16_t lay(struct wg_state *s, int holder, const char *slug, int chips)
{
	uint16_t c = take_free(s, slug, -1);
	assert_true(s->chips[holder] >= chips);
	s->chips[holder] = (int16_t)(s->chips[holder] - chips);
	s->table[s->ntable++] = (struct wg_inplay){ c, (uint8_t)holder, (uint8_t)chips };
	assert_ok(s);
	return c;
}

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

static int lies(const struct wg_state *s, uint16_t c)
{
	for (int i = 0; i < s->ntable; i++)
		if (s->table[i].card == c)
			return 1;
	return 0;
}

/* The newest event of `type` in the log, or NULL. */
static const struct game_event *last_ev(const struct wg_state *s, int type)
{
	for (int i = s->log.n - 1; i >= 0; i--)
		if (s->log.ev[i].type == type)
			return &s->log.ev[i];
	return NULL;
}

static int count_ev(const struct wg_state *s, int type)
{
	int k = 0;
	for (int i = 0; i < s->log.n; i++)
		k += s->log.ev[i].type == type;
	return k;
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

static int count_moves(const struct wg_state *s, int seat)
{
	struct find f = { "", 0 };
	return G->moves(s, seat, find_emit, &f);
}

/* ---- the setup --------------------------------------------------------------- */

/* "Die Karten werden gemischt und an jeden Spieler 4 Handkarten
 * ausgeteilt. Jeder Spieler erhält Chips im Wert von 12." 100 cards, each
 * in one place; the kitty starts empty and the first ante goes in. */
static void test_setup_4_cards_12_chips_100_cards(void **u)
{
	(void)u;
	for (int n = 2; n <= WG_SEATS; n++) {
		struct wg_state *s = deal(n, 0, 100u + (uint64_t)n);
		for (int q = 0; q < n; q++) {
			assert_int_equal(s->nhand[q], WG_START_HAND);
			assert_int_equal(s->chips[q], q == 0 ? WG_START_CHIPS - 1 : WG_START_CHIPS);
		}
		assert_int_equal(s->kitty, 1);   /* 0, then the dealer's ante */
		assert_int_equal(s->ndeck, WG_CARDS - 4 * n);
		assert_int_equal(s->ndiscard + s->nremoved + s->ntable + s->nstack, 0);
		assert_int_equal(s->log.n, 1);
		assert_int_equal(s->log.ev[0].type, EV_TURN);
		assert_int_equal(s->log.ev[0].where, EVENT_NOBODY);
		char text[EVENT_TEXT_MAX];
		event_text(&s->log.ev[0], text, sizeof text);
		assert_string_equal(text, "@0 ist am Zug und zahlt 1 Chip Einsatz in den Topf.");
		/* check() counts every card once and 12 chips a seat */
		assert_ok(s);
		free(s);
	}
	/* a different seed deals differently */
	struct wg_state *a = deal(4, 0, 1), *b = deal(4, 0, 2);
	assert_memory_not_equal(a->deck, b->deck, sizeof a->deck);
	free(a);
	free(b);
}

/* "Startspieler ist, wer zuletzt ein Spiel gewonnen hat." The platform
 * passes that seat (else one by lot) as the dealer; the dealer starts. */
static void test_dealer_starts(void **u)
{
	(void)u;
	static const int sizes[] = { 2, 3, 5, 8 };
	assert_int_equal(G->starts_with_winner, 1);
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
		for (int d = 0; d < sizes[i]; d++) {
			struct wg_state *s = deal(sizes[i], d, 9);
			assert_int_equal(s->active, d);
			assert_int_equal(status_of(s).turn, d);
			assert_int_equal(s->chips[d], WG_START_CHIPS - 1);
			assert_int_equal(prompt_peek(&s->pr)->owner, d);
			assert_int_equal(s->log.ev[0].seat, d);
			free(s);
		}
}

/* Matches: the table chooses how many parties make one (default 1). */
static void test_match_parties_option(void **u)
{
	(void)u;
	int opt[GAME_OPT_MAX];
	options_default(G, opt);
	assert_int_equal(G->parties(4, opt), 1);
	opt[O_PARTIES] = 5;
	assert_int_equal(G->parties(2, opt), 5);
}

/* ---- the turn ----------------------------------------------------------------- */

/* "1. Spieleinsatz zahlen 2. Eine Karte ziehen 3. Jemanden angreifen":
 * ante (automatic), draw (automatic), `attack PLATZ CHIPS`, the server's
 * roll; "Ist die Augenzahl höher als die gewünschte Anzahl an Chips,
 * bekommt er die geforderte Summe." Then `end`, and the next seat
 * clockwise antes. */
static void test_turn_ante_draw_attack(void **u)
{
	(void)u;
	struct wg_state *s = deal(4, 0, 3);
	assert_int_equal(window_kind(s), K_ANTE);
	bad(s, 0, "attack 1 3", "Erst schließt das Reaktionsfenster.");
	int deck = s->ndeck;
	pass_window(s);
	assert_int_equal(s->nhand[0], 5);
	assert_int_equal(s->ndeck, deck - 1);
	assert_int_equal(last_ev(s, EV_DRAW)->arg, 1);
	assert_int_equal(window_kind(s), K_DRAW);
	pass_window(s);
	assert_int_equal(prompt_kind(&s->pr), PR_TURN);
	assert_int_equal(s->step, ST_ATTACK);
	assert_int_equal(status_of(s).to_act, 1u);
	ok(s, 0, "attack 1 3");
	assert_int_equal(window_kind(s), K_ATTACK);
	assert_int_equal(s->atk.on, 1);
	assert_int_equal(s->atk.target, 1);
	assert_int_equal(s->atk.demand, 3);
	pass_window(s);
	assert_int_equal(window_kind(s), K_ROLL);
	assert_int_equal(s->atk.on, 2);
	assert_int_equal(last_ev(s, EV_ROLL)->arg, s->atk.die);
	s->atk.die = 4;   /* the die is pinned inside the window */
	pass_window(s);
	assert_int_equal(s->chips[1], 9);
	assert_int_equal(s->chips[0], 14);
	assert_int_equal(last_ev(s, EV_WON)->arg, 3);
	assert_int_equal(s->step, ST_AFTER);
	ok(s, 0, "end");
	assert_int_equal(window_kind(s), K_END);
	pass_window(s);
	assert_int_equal(s->active, 1);
	assert_int_equal(window_kind(s), K_ANTE);
	assert_int_equal(s->chips[1], 8);
	assert_int_equal(s->kitty, 2);
	free(s);
}

/* Issue 33: an attack button names its target and the demand
 * ("@1 angreifen: 2 Chips", the page puts the name for @1), not "2". */
static void test_attack_button_names_target_and_amount(void **u)
{
	(void)u;
	struct wg_state *s = deal(3, 0, 3);
	pass_window(s);
	pass_window(s);
	assert_int_equal(s->step, ST_ATTACK);
	struct vtext *t = calloc(1, sizeof *t);
	struct view_sink v = vt_sink(t);
	G->view(s, 0, &v);
	assert_non_null(strstr(t->s, "move=attack 1 2\nlabel=@1 angreifen: 2 Chips\n"));
	assert_non_null(strstr(t->s, "move=attack 2 1\nlabel=@2 angreifen: 1 Chip\n"));
	assert_null(strstr(t->s, "label=2\n"));
	free(t);
	free(s);
}

/* "Ist die Augenzahl höher … Andernfalls geht er leer aus.": a demand of 3
 * wins on 4, 5, 6 and nothing on 1, 2, 3 (equal is not higher). */
static void test_attack_higher_wins_equal_or_lower_nothing(void **u)
{
	(void)u;
	for (int die = 1; die <= 6; die++) {
		struct wg_state *s = deal(3, 0, 5);
		pass_windows(s);
		pin_die(s, die);
		ok(s, 0, "attack 2 3");
		pass_windows(s);
		assert_int_equal(s->atk.die, die);
		int won = die > 3 ? 3 : 0;
		assert_int_equal(s->chips[2], 12 - won);
		assert_int_equal(s->chips[0], 11 + won);
		if (won)
			assert_int_equal(last_ev(s, EV_WON)->arg, 3);
		else
			assert_int_equal(last_ev(s, EV_FAILED)->arg, die);
		assert_int_equal(s->step, ST_AFTER);
		free(s);
	}
}

/* An attack asking more than the target has takes what there is. */
static void test_attack_takes_what_target_has(void **u)
{
	(void)u;
	struct wg_state *s = deal(3, 0, 5);
	everyone(s, "react none");
	pass_windows(s);
	set_chips(s, 1, 2);
	pin_die(s, 6);
	ok(s, 0, "attack 1 5");
	assert_int_equal(s->step, ST_AFTER);   /* nobody listens: rolled and settled */
	assert_int_equal(s->chips[1], 0);
	assert_int_equal(s->chips[0], 13);
	assert_int_equal(last_ev(s, EV_WON)->arg, 2);
	free(s);
}

/* ---- reaction windows and the stack ---------------------------------------------- */

/* After each step (ante, draw, attack declared, die rolled, card played,
 * end of turn) a window opens for the seats that listen to it: the active
 * seat too after its own steps, but never after its own card; nobody
 * after a card who played it. */
static void test_windows_after_every_step(void **u)
{
	(void)u;
	struct wg_state *s = deal(4, 0, 6);
	to_hand(s, 1, "topfgriff");
	to_hand(s, 0, "kaputt");
	assert_ok(s);
	assert_int_equal(window_kind(s), K_ANTE);
	assert_int_equal(window_seats_now(s), 0xfu);
	pass_window(s);
	assert_int_equal(window_kind(s), K_DRAW);
	assert_int_equal(window_seats_now(s), 0xfu);
	ok(s, 1, "play topfgriff");
	assert_int_equal(window_kind(s), K_CARD);
	assert_int_equal(window_seats_now(s), 0xdu);   /* not seat 1 */
	assert_int_equal(prompt_peek(&s->pr)->owner, 1);
	pass_window(s);
	assert_int_equal(s->step, ST_ATTACK);
	ok(s, 0, "play kaputt");                       /* on its own turn */
	assert_int_equal(window_kind(s), K_CARD);
	assert_int_equal(window_seats_now(s), 0xeu);   /* not the active seat */
	pass_window(s);
	ok(s, 0, "attack 3 2");
	assert_int_equal(window_kind(s), K_ATTACK);
	assert_int_equal(window_seats_now(s), 0xfu);
	pass_window(s);
	assert_int_equal(window_kind(s), K_ROLL);
	assert_int_equal(window_seats_now(s), 0xfu);   /* the attacker may cheat on its roll */
	assert_true(has_move(s, 0, "pass"));
	pass_window(s);
	ok(s, 0, "end");
	assert_int_equal(window_kind(s), K_END);
	assert_int_equal(window_seats_now(s), 0xfu);
	free(s);
}

/* A window closes when all have passed, or at the deadline: whoever has
 * not answered has passed. The first window's clock starts at the first
 * tick (setup has no clock; the platform ticks a party at its deal); each
 * later one `react_seconds` after the step. */
static void test_window_closes_all_passed_or_deadline(void **u)
{
	(void)u;
	struct wg_state *s = deal(4, 0, 7);
	assert_int_equal(status_of(s).deadline, 0);
	assert_int_equal(G->tick(s, T0), 1);   /* the clock starts */
	int64_t dl = status_of(s).deadline;
	assert_int_equal(dl, T0 + 20 * 1000);
	ok(s, 1, "pass");
	ok(s, 3, "pass");
	assert_int_equal(window_kind(s), K_ANTE);
	assert_int_equal(status_of(s).to_act, 0x5u);
	assert_int_equal(status_of(s).window, 0xfu);   /* constant while open */
	assert_int_equal(G->tick(s, dl - 1), 0);
	assert_int_equal(window_kind(s), K_ANTE);
	assert_int_equal(G->tick(s, dl), 1);
	assert_ok(s);
	assert_int_equal(window_kind(s), K_DRAW);      /* closed; drawn; the next window */
	assert_int_equal(s->nhand[0], 5);
	assert_int_equal(status_of(s).deadline, dl + 20 * 1000);
	pass_window(s);                                /* all passed: closed at once */
	assert_int_equal(prompt_kind(&s->pr), PR_TURN);
	assert_int_equal(status_of(s).deadline, 0);    /* a turn has no deadline */
	free(s);
}

/* "Wenn zwei oder mehr Spieler Karten ausspielen, wird die zuletzt
 * ausgespielte Karte zuerst ausgeführt." Three cards, each answering the
 * one before: "doch" resolves first and cancels "nein", so "nein" does
 * nothing and "topfgriff" works. The stack resolves completely when the
 * window closes, then the turn goes on. */
static void test_stack_resolves_last_in_first_out(void **u)
{
	(void)u;
	struct wg_state *s = deal(4, 0, 8);
	set_chips(s, 0, 6);   /* kitty 6 */
	to_hand(s, 1, "topfgriff");
	to_hand(s, 2, "nein");
	to_hand(s, 3, "doch");
	assert_ok(s);
	ok(s, 1, "play topfgriff");
	ok(s, 2, "play nein");
	ok(s, 3, "play doch");
	assert_int_equal(s->nstack, 3);
	assert_int_equal(window_seats_now(s), 0x7u);
	int hand0 = s->nhand[0];
	pass_window(s);
	assert_int_equal(s->nstack, 0);
	assert_int_equal(s->chips[1], 14);   /* topfgriff: +2 */
	assert_int_equal(s->chips[2], 12);   /* nein: cancelled */
	assert_int_equal(s->chips[3], 13);   /* doch: +1 */
	assert_int_equal(s->kitty, 3);
	/* the log: doch, then nein (cancelled), then topfgriff */
	int order[3], k = 0;
	for (int i = 0; i < s->log.n && k < 3; i++)
		if (s->log.ev[i].type == EV_RESOLVE)
			order[k++] = i;
	assert_int_equal(k, 3);
	assert_int_equal(s->log.ev[order[0]].seat, 3);
	assert_int_equal(s->log.ev[order[0]].arg, 0);
	assert_int_equal(s->log.ev[order[1]].seat, 2);
	assert_int_equal(s->log.ev[order[1]].arg, 1);
	assert_int_equal(s->log.ev[order[2]].seat, 1);
	assert_int_equal(s->log.ev[order[2]].arg, 0);
	assert_int_equal(s->nhand[0], hand0 + 1);   /* the turn went on: drawn */
	assert_int_equal(window_kind(s), K_DRAW);
	free(s);
}

/* A counter hits the card directly beneath it, no other. */
static void test_counter_hits_card_directly_beneath(void **u)
{
	(void)u;
	struct wg_state *s = deal(4, 0, 8);
	set_chips(s, 0, 6);
	to_hand(s, 1, "topfgriff");
	to_hand(s, 2, "langfinger");
	to_hand(s, 3, "nein");
	assert_ok(s);
	ok(s, 1, "play topfgriff");
	ok(s, 2, "play langfinger 1");
	ok(s, 3, "play nein");
	pass_window(s);
	assert_int_equal(s->chips[1], 14);   /* topfgriff worked, langfinger did not */
	assert_int_equal(s->chips[2], 12);
	free(s);
}

/* "Karten haben immer Vorrang vor allen anderen Regeln.": "gezinkt" makes
 * the die a 6, and a demand of 5 wins on a roll of 1. The attacker plays it
 * on its own roll. */
static void test_cards_win_over_rules(void **u)
{
	(void)u;
	struct wg_state *s = deal(4, 0, 10);
	to_hand(s, 0, "gezinkt");
	pass_windows(s);
	pin_die(s, 1);
	ok(s, 0, "attack 2 5");
	pass_window(s);
	assert_int_equal(window_kind(s), K_ROLL);
	assert_int_equal(s->atk.die, 1);
	assert_true(has_move(s, 0, "play gezinkt 6"));
	ok(s, 0, "play gezinkt 6");
	pass_windows(s);
	assert_int_equal(s->atk.die, 6);
	assert_int_equal(s->chips[2], 7);
	assert_int_equal(s->chips[0], 16);
	free(s);
}

/* ---- the standing choice ---------------------------------------------------------- */

/* `react …` chooses, by kind of step, the windows a seat is asked in; it
 * applies to windows opened after it. A seat not listening is not asked;
 * when nobody listens, the step goes straight on. */
static void test_react_choice_not_listening_not_asked(void **u)
{
	(void)u;
	struct wg_state *s = deal(4, 0, 11);
	uint32_t epoch = s->epoch;
	ok(s, 1, "react none");
	ok(s, 2, "react attack roll card");
	assert_int_equal(s->epoch, epoch);              /* a setting, not a change of the position */
	assert_int_equal(window_seats_now(s), 0xfu);   /* the open window stays as it is */
	pass_window(s);
	assert_int_equal(window_kind(s), K_DRAW);
	assert_int_equal(window_seats_now(s), 0x9u);
	pass_window(s);
	bad(s, 1, "pass", "Gerade ist kein Reaktionsfenster offen.");
	ok(s, 0, "attack 3 1");
	assert_int_equal(window_seats_now(s), 0xdu);
	bad(s, 1, "pass", "nicht für dich");
	bad(s, 1, "play topfgriff", "Dieses Reaktionsfenster ist nicht für dich.");
	assert_int_equal(count_moves(s, 1), 0);
	pass_window(s);
	assert_int_equal(window_kind(s), K_ROLL);
	assert_int_equal(window_seats_now(s), 0xdu);
	pass_window(s);
	ok(s, 0, "end");
	assert_int_equal(window_seats_now(s), 0x9u);
	pass_window(s);
	/* nobody listens: a whole turn without a window */
	everyone(s, "react none");
	pass_windows(s);   /* the ante window opened before */
	assert_int_equal(prompt_kind(&s->pr), PR_TURN);
	assert_int_equal(s->active, 1);
	assert_int_equal(s->step, ST_ATTACK);
	ok(s, 1, "attack 2 1");
	assert_int_equal(s->step, ST_AFTER);
	assert_int_equal(s->atk.on, 3);
	ok(s, 1, "end");
	assert_int_equal(s->active, 2);
	assert_int_equal(prompt_kind(&s->pr), PR_TURN);
	assert_int_equal(s->nhand[2] > 0, 1);
	ok(s, 3, "react all");
	assert_int_equal(s->listen[3], LISTEN_ALL);
	ok(s, 2, "attack 3 1");
	assert_int_equal(window_seats_now(s), 0x8u);
	free(s);
}

/* Two parties that differ only in what seat 2 holds (and the bottom deck
 * cards its hand was swapped with, which nobody draws here). */
struct twin {
	struct wg_state *a, *b;
	int hidden;
	struct vtext *ta, *tb;
};

static void twin_same(struct twin *w)
{
	struct status sa = status_of(w->a), sb = status_of(w->b);
	assert_int_equal(sa.to_act, sb.to_act);
	assert_int_equal(sa.window, sb.window);
	assert_int_equal(sa.deadline, sb.deadline);
	assert_int_equal(sa.epoch, sb.epoch);
	assert_memory_equal(&sa, &sb, sizeof sa);
	for (int q = -1; q < w->a->n; q++) {
		if (q == w->hidden)
			continue;
		struct view_sink va = vt_sink(w->ta), vb = vt_sink(w->tb);
		G->view(w->a, q, &va);
		G->view(w->b, q, &vb);
		assert_string_equal(w->ta->s, w->tb->s);
	}
}

static void twin_move(struct twin *w, int seat, const char *move)
{
	ok(w->a, seat, move);
	ok(w->b, seat, move);
	twin_same(w);
}

static uint32_t twin_passes(struct twin *w)
{
	uint32_t asked = 0;
	while (prompt_kind(&w->a->pr) == PR_REACT) {
		uint32_t wt = prompt_peek(&w->a->pr)->waiting;
		asked |= status_of(w->a).window;
		for (int q = 0; q < w->a->n; q++)
			if ((wt >> q) & 1u)
				twin_move(w, q, "pass");
	}
	return asked;
}

static void twin_deal(struct twin *w)
{
	static const char *const quiet[4] = { "kaputt", "kaputt", "rettungsring", "rauswurf" };
	static const char *const sharp[4] = { "nein", "doch", "gezinkt", "abgelehnt" };
	struct wg_state *a = deal(4, 0, 77);
	empty_hand(a, 2);
	for (int i = 0; i < 4; i++) {
		uint16_t c = take_free(a, quiet[i], -1);
		assert_int_equal(pile_put_under(a->deck, &a->ndeck, WG_CARDS, &c, 1), 0);
	}
	for (int i = 0; i < 4; i++)
		to_hand(a, 2, sharp[i]);
	to_hand(a, 0, "topfgriff");
	assert_ok(a);
	struct wg_state *b = malloc(sizeof *b);
	memcpy(b, a, sizeof *b);
	for (int i = 0; i < 4; i++) {
		uint16_t c = b->hand[2][i];
		b->hand[2][i] = b->deck[i];
		b->deck[i] = c;
	}
	assert_ok(b);
	assert_memory_not_equal(a->hand[2], b->hand[2], 4 * sizeof a->hand[2][0]);
	*w = (struct twin){ a, b, 2, calloc(1, sizeof(struct vtext)), calloc(1, sizeof(struct vtext)) };
}

/* The standing choice leaks nothing: whatever seat 2 holds, the status
 * (who may act, the window, its deadline, the epoch) and every other
 * seat's page are the same after the same moves, whether seat 2 listens
 * or not. */
static void test_react_choice_leaks_nothing(void **u)
{
	(void)u;
	static const char *const choice[2] = { "react none", "react all" };
	for (int v = 0; v < 2; v++) {
		struct twin w;
		uint32_t asked = 0;
		twin_deal(&w);
		twin_same(&w);
		twin_move(&w, 2, choice[v]);
		/* the ante window opened before the choice: everyone is in it */
		uint32_t wt = prompt_peek(&w.a->pr)->waiting;
		assert_int_equal(wt, 0xfu);
		for (int q = 0; q < 4; q++)
			twin_move(&w, q, "pass");
		asked |= twin_passes(&w);
		twin_move(&w, 0, "play topfgriff");
		asked |= twin_passes(&w);
		pin_die(w.a, 5);
		pin_die(w.b, 5);
		twin_move(&w, 0, "attack 2 3");
		asked |= twin_passes(&w);
		twin_move(&w, 0, "end");
		asked |= twin_passes(&w);
		twin_move(&w, 1, "attack 2 1");
		asked |= twin_passes(&w);
		twin_move(&w, 1, "end");
		asked |= twin_passes(&w);
		assert_int_equal(w.a->active, 2);
		assert_int_equal((asked >> 2) & 1u, (unsigned)v);   /* asked only when listening */
		free(w.a);
		free(w.b);
		free(w.ta);
		free(w.tb);
	}
}

/* Option few_windows (games over days): every seat starts listening to the
 * attack, the roll and cards only, so ante and draw go straight on; option
 * react_seconds is the window's deadline. */
static void test_few_windows_and_react_seconds_options(void **u)
{
	(void)u;
	struct wg_state *s = deal_with(4, 1, 12, "few_windows=1 react_seconds=45");
	for (int q = 0; q < 4; q++)
		assert_int_equal(s->listen[q], LISTEN_FEW);
	assert_int_equal(prompt_kind(&s->pr), PR_TURN);
	assert_int_equal(s->active, 1);
	assert_int_equal(s->step, ST_ATTACK);
	assert_int_equal(s->nhand[1], 5);
	assert_int_equal(s->kitty, 1);
	ok(s, 1, "attack 2 2");
	assert_int_equal(window_kind(s), K_ATTACK);
	assert_int_equal(status_of(s).deadline, T0 + 45 * 1000);
	struct vtext *t = calloc(1, sizeof *t);
	struct view_sink v = vt_sink(t);
	G->view(s, 0, &v);
	assert_non_null(strstr(t->s, "few_windows?1\n"));
	assert_non_null(strstr(t->s, "react_seconds=45\n"));
	free(t);
	free(s);
	s = deal(4, 1, 12);
	for (int q = 0; q < 4; q++)
		assert_int_equal(s->listen[q], LISTEN_ALL);
	assert_int_equal(s->react_seconds, 20);
	free(s);
}

/* ---- cards that stay in play ------------------------------------------------------ */

/* "Karten, auf denen STAYS IN PLAY steht, werden vor einem Spieler
 * ausgelegt. Sie bleiben liegen bis sie entweder durch eine andere Karte
 * entfernt werden können oder durch eine auf der Karte selbst aufgedruckte
 * Bedingung." A shield lies in front of its player over turns until a won
 * attack uses it up; a losing streak goes at the end of its holder's turn;
 * a wrecking ball removes any of them. */
static void test_stays_in_play_until_removed(void **u)
{
	(void)u;
	struct wg_state *s = deal(4, 0, 13);
	uint16_t shield = to_hand(s, 2, "schutzschild");
	uint16_t jinx = to_hand(s, 1, "pechstraehne");
	uint16_t charm = lay(s, 3, "gluecksbringer", 0);
	to_hand(s, 1, "abrissbirne");
	assert_ok(s);
	ok(s, 2, "play schutzschild");
	pass_window(s);
	assert_true(lies(s, shield));
	assert_false(in_pile(s->hand[2], s->nhand[2], shield));
	ok(s, 1, "play pechstraehne 0");
	pass_window(s);
	assert_true(lies(s, jinx));
	assert_int_equal(lying(s, 0, P_JINX), 1);
	pin_die(s, 6);
	ok(s, 0, "attack 2 4");   /* 6 - 1 = 5 > 4: won, but the shield lets 1 go */
	pass_windows(s);
	assert_int_equal(attack_total(s), 5);
	assert_int_equal(s->chips[2], 11);
	assert_false(lies(s, shield));
	assert_true(in_pile(s->discard, s->ndiscard, shield));
	assert_true(lies(s, jinx));
	ok(s, 0, "end");
	pass_window(s);
	assert_false(lies(s, jinx));   /* its holder's turn ended */
	assert_true(in_pile(s->discard, s->ndiscard, jinx));
	assert_true(lies(s, charm));   /* nothing ends it but another card */
	ok(s, 1, "play abrissbirne 3 gluecksbringer");
	pass_window(s);
	assert_false(lies(s, charm));
	assert_true(in_pile(s->discard, s->ndiscard, charm));
	free(s);
}

/* The board marks the card the last step was about: a card just played on
 * top of the stack ("zuletzt gespielt"), then, once it resolved and stays,
 * where it lies ("zuletzt ausgelegt"); one mark at a time. */
static void test_view_marks_last_card(void **u)
{
	(void)u;
	static struct vtext t;
	struct wg_state *s = deal(4, 0, 13);
	to_hand(s, 2, "schutzschild");
	assert_ok(s);
	struct view_sink v = vt_sink(&t);
	G->view(s, 1, &v);
	assert_null(strstr(t.s, "last?1"));
	ok(s, 2, "play schutzschild");
	v = vt_sink(&t);
	G->view(s, 1, &v);
	const char *m = strstr(t.s, "[stack\nslug=schutzschild\n");
	assert_non_null(m);
	assert_non_null(strstr(m, "top?1\nlast?1\nlast_text=zuletzt gespielt\n"));
	assert_null(strstr(strstr(t.s, "last?1") + 1, "last?1"));
	pass_window(s);
	v = vt_sink(&t);
	G->view(s, 1, &v);
	m = strstr(t.s, "[inplay\nslug=schutzschild\n");
	assert_non_null(m);
	assert_non_null(strstr(m, "last?1\nlast_text=zuletzt ausgelegt\n"));
	assert_true(strstr(t.s, "last?1") > m);
	assert_null(strstr(strstr(t.s, "last?1") + 1, "last?1"));
	free(s);
}

/* Chips on a card that stays in play go to the kitty when it goes. */
static void test_chips_on_card_go_to_kitty(void **u)
{
	(void)u;
	struct wg_state *s = deal(4, 0, 14);
	uint16_t pig = lay(s, 3, "sparschwein", 2);
	to_hand(s, 1, "abrissbirne");
	assert_ok(s);
	int kitty = s->kitty;
	ok(s, 1, "play abrissbirne 3 sparschwein");
	pass_window(s);
	assert_false(lies(s, pig));
	assert_true(in_pile(s->discard, s->ndiscard, pig));
	assert_int_equal(s->kitty, kitty + 2);
	assert_int_equal(s->chips[3], 10);
	free(s);
}

/* ---- the hand limit and the deck -------------------------------------------------- */

/* "Am Ende seines Spielzuges darf ein Spieler nicht mehr als 7 Karten auf
 * der Hand haben.": `end` with more asks `discard KARTE` until 7 are left;
 * with 7 the turn simply ends. */
static void test_hand_limit_7_at_end_of_turn(void **u)
{
	(void)u;
	struct wg_state *s = deal(3, 0, 15);
	everyone(s, "react none");
	pass_windows(s);
	ok(s, 0, "attack 1 1");
	to_hand(s, 0, "kaputt");
	to_hand(s, 0, "kaputt");
	to_hand(s, 0, "fehldruck");
	to_hand(s, 0, "nachschub");
	assert_int_equal(s->nhand[0], 9);
	ok(s, 0, "end");
	assert_int_equal(s->step, ST_DISCARD);
	assert_int_equal(s->active, 0);
	assert_true(has_move(s, 0, "discard kaputt"));
	bad(s, 0, "end", "Erst abwerfen.");
	bad(s, 0, "play fehldruck", "Erst abwerfen: höchstens 7 Karten");
	int nd = s->ndiscard;
	ok(s, 0, "discard kaputt");
	assert_int_equal(s->step, ST_DISCARD);
	assert_int_equal(last_ev(s, EV_PASSOUT)->seat, 0);
	ok(s, 0, "discard kaputt");
	assert_int_equal(s->nhand[0], 7);
	assert_int_equal(s->ndiscard, nd + 2);
	assert_int_equal(s->active, 1);   /* nobody listens: the turn ended */
	/* seat 1 ends with exactly 7: no discarding */
	assert_int_equal(s->nhand[1], 5);
	ok(s, 1, "attack 2 1");
	to_hand(s, 1, "nein");
	to_hand(s, 1, "doch");
	assert_int_equal(s->nhand[1], WG_HAND_LIMIT);
	assert_ok(s);
	ok(s, 1, "end");
	assert_int_equal(s->active, 2);
	free(s);
}

/* "Am Ende seines Spielzuges": a card the active seat plays in its own
 * end-of-turn window that draws it over 7 is discarded down again before
 * the turn ends, without another window. */
static void test_hand_limit_after_end_window(void **u)
{
	(void)u;
	struct wg_state *s = deal(3, 0, 15);
	everyone(s, "react none");
	pass_windows(s);
	ok(s, 0, "attack 1 1");
	empty_hand(s, 0);
	static const char *const six[] = { "kaputt", "kaputt", "fehldruck", "fehldruck",
					   "topfgriff", "topfgriff" };
	for (int i = 0; i < 6; i++)
		to_hand(s, 0, six[i]);
	to_hand(s, 0, "nachschub");
	ok(s, 0, "react end card");
	ok(s, 1, "react card");
	ok(s, 0, "end");
	assert_int_equal(window_kind(s), K_END);
	ok(s, 0, "play nachschub");
	pass_windows(s);   /* seat 1 lets the card resolve: 6 + 2 cards */
	assert_int_equal(s->nhand[0], 8);
	assert_int_equal(s->active, 0);
	assert_int_equal(s->step, ST_LAST_DISCARD);
	assert_true(has_move(s, 0, "discard kaputt"));
	bad(s, 0, "end", "Erst abwerfen.");
	bad(s, 0, "play kaputt", "Erst abwerfen");
	ok(s, 0, "discard kaputt");
	assert_int_equal(s->nhand[0], 7);
	assert_int_equal(s->active, 1);   /* the turn ended without another window */
	assert_ok(s);
	free(s);
}

/* "Wenn der Nachziehstapel aufgebraucht ist, wird der Ablagestapel neu
 * gemischt." */
static void test_discard_reshuffled_when_deck_runs_out(void **u)
{
	(void)u;
	struct wg_state *s = deal(4, 0, 16);
	while (s->ndeck > 0)
		s->discard[s->ndiscard++] = s->deck[--s->ndeck];
	assert_ok(s);
	int nd = s->ndiscard;
	uint16_t before[WG_CARDS];
	memcpy(before, s->discard, sizeof before);
	pass_window(s);   /* the ante window: then the draw */
	assert_int_equal(s->nhand[0], 5);
	assert_int_equal(s->ndiscard, 0);
	assert_int_equal(s->ndeck, nd - 1);
	assert_true(in_pile(before, nd, s->hand[0][4]));
	assert_memory_not_equal(before, s->deck, sizeof s->deck[0] * (size_t)s->ndeck);
	free(s);
}

/* ---- the kitty --------------------------------------------------------------------- */

/* "Sollten mehrere Spieler zugleich Chips aus dem Pot erhalten und die
 * Summe reicht nicht aus, werden die vorhandenen Chips beim aktiven Spieler
 * beginnend im Uhrzeigersinn gleichmäßig ausgeteilt.": Freibier (2 each)
 * with a kitty of 3 in a game of 4 whose active seat is 1, played by seat
 * 3: one chip each to seats 1, 2, 3; none to seat 0. */
static void test_short_kitty_shared_clockwise_from_active(void **u)
{
	(void)u;
	struct wg_state *s = deal(4, 1, 17);
	set_chips(s, 0, 10);
	assert_int_equal(s->kitty, 3);
	to_hand(s, 3, "freibier");
	assert_ok(s);
	ok(s, 3, "play freibier");
	pass_window(s);
	assert_int_equal(s->kitty, 0);
	assert_int_equal(s->chips[0], 10);
	assert_int_equal(s->chips[1], 12);
	assert_int_equal(s->chips[2], 13);
	assert_int_equal(s->chips[3], 13);
	free(s);
}

/* ---- elimination and the end -------------------------------------------------------- */

/* Seat 0 on turn, after its attack; seat 2 has no chips, 4 cards in hand
 * and a piggy bank with 1 chip in front of it; seat 1 has no chips either
 * but takes 2 from the kitty in the end window. */
static struct wg_state *before_elimination(void)
{
	struct wg_state *s = deal(4, 0, 18);
	to_hand(s, 1, "topfgriff");
	pass_windows(s);
	pin_die(s, 1);
	ok(s, 0, "attack 3 2");
	pass_windows(s);
	lay(s, 2, "sparschwein", 1);
	set_chips(s, 2, 0);
	set_chips(s, 1, 0);
	assert_ok(s);
	return s;
}

/* "Ein Spieler scheidet aus, wenn er am Ende des Zuges irgendeines
 * Spielers keine Chips mehr hat. … Alle Karten dieses Spielers werden aus
 * dem Spiel genommen. Er kann keine Karten mehr spielen und auch keine
 * Chips mehr aus dem Pot erhalten." At the end of seat 0's turn seat 2 is
 * out (not seat 1: it has chips again by then); its hand and the card in
 * front of it leave the game, the chips on that card go to the kitty; it
 * is never asked again and gets nothing. */
static void test_out_at_end_of_any_turn(void **u)
{
	(void)u;
	struct wg_state *s = before_elimination();
	uint16_t hand2[4];
	memcpy(hand2, s->hand[2], sizeof hand2);
	int kitty = s->kitty;
	ok(s, 0, "end");
	ok(s, 1, "play topfgriff");
	pass_windows(s);
	assert_int_equal(s->out, 1u << 2);
	assert_int_equal(s->chips[1], 2);
	assert_int_equal(s->nhand[2], 0);
	assert_int_equal(s->nremoved, 5);
	for (int i = 0; i < 4; i++)
		assert_true(in_pile(s->removed, s->nremoved, hand2[i]));
	assert_int_equal(s->ntable, 0);
	assert_int_equal(s->kitty, kitty - 2 + 1);   /* topfgriff took 2; the pig's chip came */
	assert_int_equal(last_ev(s, EV_OUT)->seat, 2);
	assert_int_equal(count_ev(s, EV_OUT), 1);   /* seat 1 is not out */
	assert_non_null(last_ev(s, EV_FINAL));
	assert_int_equal(prompt_kind(&s->pr), PR_FINAL);
	assert_int_equal(status_of(s).to_act, 0xbu);
	assert_int_equal(count_moves(s, 2), 0);
	/* the last round: a card of seat 1's opens a window without seat 2, and
	 * Freibier gives seat 2 nothing */
	to_hand(s, 1, "freibier");
	assert_ok(s);
	ok(s, 1, "play freibier");
	assert_int_equal(window_seats_now(s), 0x9u);
	pass_window(s);
	assert_int_equal(s->chips[2], 0);
	assert_int_equal(prompt_kind(&s->pr), PR_FINAL);
	bad(s, 2, "done", "Du bist ausgeschieden.");
	free(s);
}

/* "Alle Spieler, die noch nicht ausgeschieden sind, dürfen noch einmal
 * Karten spielen …, bevor das Spiel endet und der Spieler mit den meisten
 * Chips gewinnt." Each says `done`; the winner takes the kitty; places by
 * chips (status.place), scores are the chips. */
static void test_last_round_then_most_chips_wins(void **u)
{
	(void)u;
	struct wg_state *s = before_elimination();
	ok(s, 0, "end");
	ok(s, 1, "play topfgriff");
	pass_windows(s);
	to_hand(s, 3, "topfgriff");
	set_chips(s, 0, 15);
	set_chips(s, 3, 14);
	assert_ok(s);
	ok(s, 0, "done");
	bad(s, 0, "done", "Du bist schon fertig.");
	bad(s, 0, "play topfgriff", "Du bist schon fertig.");
	ok(s, 3, "play topfgriff");   /* 16 now */
	pass_window(s);
	ok(s, 1, "done");
	int kitty = s->kitty;
	ok(s, 3, "done");
	struct status st = status_of(s);
	assert_true(st.over);
	assert_int_equal(st.to_act, 0);
	assert_int_equal(s->winner, 3);
	assert_int_equal(st.score[3], 16 + kitty);
	assert_int_equal(s->kitty, 0);
	assert_int_equal(last_ev(s, EV_WINNER)->num, kitty);
	assert_int_equal(st.place[3], 1);
	assert_int_equal(st.place[0], 2);
	assert_int_equal(st.place[1], 3);
	assert_int_equal(st.place[2], 4);
	bad(s, 1, "pass", "Die Partie ist schon vorbei.");
	free(s);
}

/* "… dürfen noch einmal Karten spielen oder die Effekte dauerhafter Karten
 * nutzen": when the end begins, a piggy bank and a toll booth pay what lies
 * on them to their holders (no turn start comes any more), and the cards
 * that last until their holder's turn ends go. */
static void test_last_round_pays_out_stays(void **u)
{
	(void)u;
	struct wg_state *s = before_elimination();
	uint16_t pig = lay(s, 3, "sparschwein", 2);
	uint16_t toll = lay(s, 0, "mautstelle", 1);
	uint16_t muzzle = lay(s, 3, "maulkorb", 0);
	uint16_t jinx = lay(s, 0, "pechstraehne", 0);
	to_hand(s, 3, "topfgriff");
	int c0 = s->chips[0], c3 = s->chips[3];   /* lay() moved the chips onto the cards */
	ok(s, 0, "end");
	ok(s, 1, "play topfgriff");
	pass_windows(s);
	assert_int_equal(prompt_kind(&s->pr), PR_FINAL);
	assert_int_equal(s->chips[3], c3 + 2);
	assert_int_equal(s->chips[0], c0 + 1);
	for (int i = 0; i < s->ntable; i++)
		assert_true(s->table[i].card != pig && s->table[i].card != toll &&
			    s->table[i].card != muzzle && s->table[i].card != jinx);
	assert_true(in_pile(s->discard, s->ndiscard, pig));
	assert_true(in_pile(s->discard, s->ndiscard, muzzle));
	ok(s, 3, "play topfgriff");   /* no muzzle any more */
	assert_ok(s);
	free(s);
}

/* The reaction deadline also ends the last round. */
static void test_last_round_deadline(void **u)
{
	(void)u;
	struct wg_state *s = before_elimination();
	ok(s, 0, "end");
	ok(s, 1, "play topfgriff");
	pass_windows(s);
	set_chips(s, 0, 20);
	ok(s, 3, "done");
	int64_t dl = status_of(s).deadline;
	assert_int_equal(dl, T0 + 20 * 1000);
	assert_int_equal(G->tick(s, dl - 1), 0);
	assert_int_equal(G->tick(s, dl), 1);
	assert_ok(s);
	assert_true(status_of(s).over);
	assert_int_equal(s->winner, 0);
	free(s);
}

/* A window's deadline in the last round: whoever has not answered has
 * passed, and play goes on ("everyone still in may play cards once more"):
 * the round's reaction time starts again, the party does not end before
 * the seats still in said `done` or that time ran out. */
static void test_last_round_window_deadline_goes_on(void **u)
{
	(void)u;
	struct wg_state *s = before_elimination();
	ok(s, 0, "end");
	ok(s, 1, "play topfgriff");
	pass_windows(s);
	assert_int_equal(prompt_kind(&s->pr), PR_FINAL);
	int64_t fin = status_of(s).deadline;
	to_hand(s, 3, "topfgriff");
	ok_at(s, 3, "play topfgriff", fin - 1000);
	assert_int_equal(prompt_kind(&s->pr), PR_REACT);
	int64_t dl = status_of(s).deadline;
	assert_true(dl > fin);
	for (int i = 0; i < 4; i++)   /* as the platform ticks: until nothing is due */
		G->tick(s, dl);
	assert_ok(s);
	assert_false(status_of(s).over);
	assert_int_equal(prompt_kind(&s->pr), PR_FINAL);
	assert_int_equal(status_of(s).deadline, dl + 20 * 1000);
	ok_at(s, 0, "done", dl + 1);
	assert_int_equal(G->tick(s, dl + 20 * 1000), 1);
	assert_true(status_of(s).over);
	free(s);
}

/* A sole winner is no tie: nobody's page says "gleichauf". */
static void test_sole_winner_not_tied(void **u)
{
	(void)u;
	static struct vtext t;
	struct wg_state *s = before_elimination();
	ok(s, 0, "end");
	ok(s, 1, "play topfgriff");
	pass_windows(s);
	set_chips(s, 0, 20);
	ok(s, 0, "done");
	ok(s, 1, "done");
	ok(s, 3, "done");
	assert_true(status_of(s).over);
	assert_int_equal(s->winner, 0);
	struct view_sink v = vt_sink(&t);
	G->view(s, -1, &v);
	assert_non_null(strstr(t.s, "winner?1"));
	assert_null(strstr(t.s, "tied?1"));
	free(s);
}

/* The attack total shown is the one that counted when the attack was
 * settled: a Glücksbringer laid afterwards changes no failed attack into a
 * winning total. */
static void test_settled_attack_total_stays(void **u)
{
	(void)u;
	static struct vtext t;
	struct wg_state *s = deal(4, 0, 5);
	pass_windows(s);
	pin_die(s, 3);
	ok(s, 0, "attack 1 3");
	pass_windows(s);
	assert_int_equal(s->atk.on, 3);
	assert_int_equal(last_ev(s, EV_FAILED)->arg, 3);
	lay(s, 0, "gluecksbringer", 0);
	assert_int_equal(attack_total(s), 3);
	struct view_sink v = vt_sink(&t);
	G->view(s, -1, &v);
	assert_non_null(strstr(t.s, "attack_total=3\n"));
	free(s);
}

/* After a pass, a refusal still says its own reason: a card the seat does
 * not hold is "nicht auf der Hand", only a card it could play is refused
 * as "schon gepasst". */
static void test_refusal_after_pass_says_why(void **u)
{
	(void)u;
	struct wg_state *s = deal(4, 0, 5);
	uint32_t in = window_seats_now(s);
	assert_true(in != 0);
	int q = __builtin_ctz(in);
	uint16_t c = to_hand(s, q, "topfgriff");
	(void)c;
	ok(s, q, "pass");
	int missing = -1;
	for (int t = 0; t < (int)(sizeof wg_types / sizeof wg_types[0]) && missing < 0; t++)
		if (hand_find_type(s, q, t) < 0)
			missing = t;
	char m[80];
	snprintf(m, sizeof m, "play %s", wg_types[missing].slug);
	bad(s, q, m, "hast du nicht auf der Hand");
	bad(s, q, "play topfgriff", "Du hast in diesem Fenster schon gepasst.");
	free(s);
}

/* The last round ended with seats 0 and 1 tied at 15, seat 3 has 10. */
static struct wg_state *tied(void)
{
	struct wg_state *s = before_elimination();
	ok(s, 0, "end");
	ok(s, 1, "play topfgriff");
	pass_windows(s);
	set_chips(s, 0, 15);
	set_chips(s, 1, 15);
	set_chips(s, 3, 10);
	ok(s, 0, "done");
	ok(s, 1, "done");
	ok(s, 3, "done");
	assert_int_equal(prompt_kind(&s->pr), PR_SHOUT);
	assert_int_equal(s->tied, 0x3u);
	return s;
}

/* The standing choice `react` means the same on any page (never stale);
 * a shout that lost the race names who shouted first. */
static void test_late_moves(void **u)
{
	(void)u;
	struct wg_state *s = deal(3, 0, 5);
	struct rerr e = { .msg = "" };
	assert_int_equal(G->late(s, 1, "react all", &e), GAME_LATE_NOW);
	assert_int_equal(G->late(s, 1, "pass", &e), GAME_LATE_STALE);
	assert_string_equal(e.msg, "");
	free(s);
	s = tied();
	ok(s, 3, "shout");
	assert_int_equal(G->late(s, 0, "shout", &e), GAME_LATE_STALE);
	assert_string_equal(e.msg, "Zu spät: @3 hat zuerst gerufen.");
	free(s);
}

/* "Bei Gleichstand gewinnt der Spieler, der zuerst ausruft: „Worst Game
 * Ever.“ Ja, das kann JEDER Spieler sein." Every seat still in, tied or
 * not, may shout; the first shout committed wins and takes the kitty; a
 * later one is refused and changes nothing. */
static void test_tie_first_shout_wins(void **u)
{
	(void)u;
	struct wg_state *s = tied();
	assert_int_equal(status_of(s).to_act, 0xbu);
	assert_true(has_move(s, 3, "shout"));
	assert_false(has_move(s, 2, "shout"));
	bad(s, 2, "shout", "Du bist ausgeschieden.");
	int kitty = s->kitty;
	ok(s, 3, "shout");
	struct status st = status_of(s);
	assert_true(st.over);
	assert_int_equal(s->winner, 3);
	assert_int_equal(st.score[3], 10 + kitty);
	assert_int_equal(st.place[3], 1);
	assert_int_equal(last_ev(s, EV_SHOUT)->seat, 3);
	bad(s, 0, "shout", "Zu spät: @3 hat zuerst gerufen.");
	bad(s, 3, "shout", "Zu spät: @3 hat zuerst gerufen.");
	free(s);
}

/* Nobody shouts before the deadline: the tied seats share first place and
 * the kitty (one chip at a time, clockwise from the active seat). */
static void test_tie_nobody_shouts_shared(void **u)
{
	(void)u;
	struct wg_state *s = tied();
	assert_int_equal(s->kitty, 8);
	s->kitty = (int16_t)(s->kitty + 1);
	s->chips[3]--;   /* an odd kitty: 9 */
	assert_ok(s);
	int64_t dl = status_of(s).deadline;
	assert_int_equal(G->tick(s, dl), 1);
	assert_ok(s);
	struct status st = status_of(s);
	assert_true(st.over);
	assert_int_equal(s->winner, -1);
	assert_int_equal(s->kitty, 0);
	assert_int_equal(st.score[0], 20);   /* the active seat first */
	assert_int_equal(st.score[1], 19);
	assert_int_equal(st.place[0], 1);
	assert_int_equal(st.place[1], 1);
	assert_int_equal(st.place[3], 3);
	assert_int_equal(st.place[2], 4);
	assert_non_null(last_ev(s, EV_SHARED));
	bad(s, 0, "shout", "Die Partie ist schon vorbei.");
	free(s);
}

/* Everyone out at once: every seat may shout (nobody is still in), and
 * nobody shouting shares among all of them. */
static void test_shout_open_to_all_when_nobody_is_in(void **u)
{
	(void)u;
	for (int shout = 0; shout < 2; shout++) {
		struct wg_state *s = deal(3, 0, 19);
		everyone(s, "react none");
		pass_windows(s);
		ok(s, 0, "attack 1 1");
		for (int q = 0; q < 3; q++)
			set_chips(s, q, 0);
		ok(s, 0, "end");
		assert_int_equal(s->out, 0x7u);
		assert_int_equal(prompt_kind(&s->pr), PR_SHOUT);
		assert_int_equal(status_of(s).to_act, 0x7u);
		if (shout) {
			ok(s, 2, "shout");
			assert_int_equal(status_of(s).score[2], 36);
		} else {
			assert_int_equal(G->tick(s, status_of(s).deadline), 1);
			assert_ok(s);
			for (int q = 0; q < 3; q++) {
				assert_int_equal(status_of(s).score[q], 12);
				assert_int_equal(status_of(s).place[q], 1);
			}
		}
		assert_int_equal(s->kitty, 0);
		free(s);
	}
}

/* A card whose player or target is out by the time it resolves does
 * nothing (a safeguard: in play nobody goes out while a card waits, so the
 * position is built by hand). */
static void test_card_of_out_seat_does_nothing(void **u)
{
	(void)u;
	struct wg_state *s = before_elimination();
	ok(s, 0, "end");
	ok(s, 1, "play topfgriff");
	pass_windows(s);
	to_hand(s, 1, "kaputt");
	assert_ok(s);
	ok(s, 1, "play kaputt");
	/* beneath it: a topfgriff of the out seat 2, a langfinger of seat 3's on 2 */
	uint16_t a = take_free(s, "topfgriff", -1), b = take_free(s, "langfinger", -1);
	memmove(&s->stack[2], &s->stack[0], sizeof s->stack[0]);
	s->stack[0] = (struct wg_entry){ a, 2, -1, 0, 0, EVENT_NO_CARD };
	s->stack[1] = (struct wg_entry){ b, 3, 2, 0, 0, EVENT_NO_CARD };
	s->nstack = 3;
	assert_ok(s);
	int kitty = s->kitty, c3 = s->chips[3];
	pass_window(s);
	assert_int_equal(s->chips[2], 0);
	assert_int_equal(s->kitty, kitty);
	assert_int_equal(s->chips[3], c3);
	assert_true(in_pile(s->discard, s->ndiscard, a));
	assert_true(in_pile(s->discard, s->ndiscard, b));
	free(s);
}

/* ---- refusals ------------------------------------------------------------------------ */

enum {
	P_ANTE, P_PASSED, P_ATTACK, P_ATTACK_WINDOW, P_ROLL, P_AFTER, P_DISCARD, P_UNSTOPPABLE,
	P_MUZZLED, P_FINAL, P_FINAL_DONE, P_SHOUT, P_OVER, P__N
};

/* Seat 0 on turn with 7 known cards (the draw brings an 8th, fehldruck);
 * seat 1 holds nein, suendenbock, topfgriff; then as far as position pos. */
static struct wg_state *position(int pos)
{
	static const char *const mine[] = { "topfgriff", "langfinger", "nein", "abgelehnt",
					    "gezinkt", "rettungsring", "unterm-tisch" };
	struct wg_state *s = deal(4, 0, 41);
	empty_hand(s, 0);
	empty_hand(s, 1);
	for (size_t i = 0; i < sizeof mine / sizeof mine[0]; i++)
		to_hand(s, 0, mine[i]);
	to_hand(s, 1, "nein");
	to_hand(s, 1, "suendenbock");
	to_hand(s, 1, "topfgriff");
	to_deck_top(s, "fehldruck");
	assert_ok(s);
	if (pos == P_ANTE)
		return s;
	if (pos == P_PASSED) {
		ok(s, 1, "pass");
		return s;
	}
	pass_windows(s);
	if (pos == P_ATTACK)
		return s;
	if (pos == P_MUZZLED) {
		lay(s, 0, "maulkorb", 0);
		return s;
	}
	if (pos == P_UNSTOPPABLE) {
		ok(s, 0, "play unterm-tisch");
		return s;
	}
	pin_die(s, 2);
	ok(s, 0, "attack 1 3");
	if (pos == P_ATTACK_WINDOW)
		return s;
	pass_window(s);
	if (pos == P_ROLL)
		return s;
	pass_windows(s);
	if (pos == P_AFTER)
		return s;
	ok(s, 0, "end");
	if (pos == P_DISCARD)
		return s;
	ok(s, 0, "discard fehldruck");
	set_chips(s, 2, 0);
	pass_windows(s);
	assert_int_equal(prompt_kind(&s->pr), PR_FINAL);
	if (pos == P_FINAL)
		return s;
	ok(s, 0, "done");
	if (pos == P_FINAL_DONE)
		return s;
	set_chips(s, 0, 15);
	set_chips(s, 1, 15);
	set_chips(s, 3, 10);
	ok(s, 1, "done");
	ok(s, 3, "done");
	if (pos == P_SHOUT)
		return s;
	ok(s, 3, "shout");
	return s;
}

static const struct {
	int pos, seat;
	const char *move, *want;
} bad_rows[] = {
	/* malformed, unknown verbs and cards, seats */
	{ P_ANTE, 0, "", "Kein Zug angegeben." },
	{ P_ANTE, 0, "fly", "Unbekannter Zug 'fly'" },
	{ P_ANTE, 0, "pass now", "pass steht allein" },
	{ P_ANTE, 0, "play", "So spielst du eine Karte" },
	{ P_ANTE, 0, "play topfgriff 1 2 3", "So spielst du eine Karte" },
	{ P_ANTE, 0, "attack 1", "So greifst du an" },
	{ P_ANTE, 0, "discard", "So wirfst du eine Karte ab" },
	{ P_ANTE, 0, "react sometimes", "So wählst du, wann du gefragt wirst" },
	{ P_ANTE, 0, "react all roll", "So wählst du, wann du gefragt wirst" },
	{ P_ANTE, 0, "shout loud", "shout steht allein" },
	{ P_ANTE, 9, "pass", "Diesen Platz gibt es an diesem Tisch nicht." },
	{ P_ANTE, 4, "pass", "Diesen Platz gibt es an diesem Tisch nicht." },
	{ P_ANTE, 0, "play zauberstab", "Eine Karte 'zauberstab' gibt es nicht." },
	/* a step of the turn during a window, or out of turn */
	{ P_ANTE, 0, "attack 1 3", "Erst schließt das Reaktionsfenster." },
	{ P_ANTE, 2, "attack 1 3", "Du bist nicht am Zug." },
	{ P_ANTE, 2, "end", "Du bist nicht am Zug." },
	{ P_ATTACK, 1, "attack 0 3", "Du bist nicht am Zug." },
	{ P_ATTACK, 1, "play topfgriff", "Karten spielst du, wenn ein Reaktionsfenster" },
	/* the attack: target, demand */
	{ P_ATTACK, 0, "attack 0 3", "Wähle eine andere Person als dich." },
	{ P_ATTACK, 0, "attack 1 0", "Fordere 1 bis 6 Chips, nicht '0'." },
	{ P_ATTACK, 0, "attack 1 7", "Fordere 1 bis 6 Chips, nicht '7'." },
	{ P_ATTACK, 0, "attack 4 3", "'4' ist kein Platz an diesem Tisch." },
	{ P_ATTACK, 0, "attack x 3", "'x' ist kein Platz an diesem Tisch." },
	/* the wrong step */
	{ P_ATTACK, 0, "end", "Erst greifst du an." },
	{ P_ATTACK, 0, "discard nein", "Erst greifst du an." },
	{ P_ATTACK, 0, "pass", "Gerade ist kein Reaktionsfenster offen." },
	{ P_ATTACK, 0, "done", "done gibt es nur in der letzten Runde." },
	{ P_ATTACK, 0, "shout", "Gerufen wird nur bei Gleichstand am Ende." },
	{ P_AFTER, 0, "attack 1 3", "Du hast schon angegriffen" },
	{ P_DISCARD, 0, "end", "Erst abwerfen." },
	{ P_DISCARD, 0, "attack 1 3", "Erst abwerfen." },
	{ P_DISCARD, 0, "play topfgriff", "Erst abwerfen: höchstens 7 Karten" },
	{ P_DISCARD, 0, "discard kaputt", "Diese Karte hast du nicht auf der Hand." },
	{ P_DISCARD, 0, "discard zauberstab", "Diese Karte hast du nicht auf der Hand." },
	/* cards: in hand, their step, their target */
	{ P_ATTACK, 0, "play kaputt", "Kaputte Karte hast du nicht auf der Hand." },
	{ P_ATTACK, 0, "play nein", "Auf dem Stapel liegt keine Karte, auf die Nein! antworten" },
	{ P_ATTACK, 0, "play gezinkt 6", "Gezinkter Würfel: Nur nach dem Angriffswurf" },
	{ P_ATTACK, 0, "play abgelehnt", "Abgelehnt: Nur gegen einen angesagten Angriff" },
	{ P_ATTACK, 0, "play rettungsring", "Rettungsring: Nur am Ende eines Zuges" },
	{ P_ROLL, 0, "play abgelehnt", "Abgelehnt: Nur gegen einen angesagten Angriff" },
	{ P_ATTACK, 0, "play langfinger", "Langfinger braucht eine Person: play langfinger PLATZ." },
	{ P_ATTACK, 0, "play topfgriff 1", "Griff in den Topf braucht kein Ziel" },
	{ P_ATTACK, 0, "play langfinger 0", "Wähle eine andere Person als dich." },
	{ P_ATTACK, 0, "play langfinger 5", "'5' ist kein Platz an diesem Tisch." },
	{ P_ROLL, 0, "play gezinkt 7", "Ein Würfel zeigt 1 bis 6, nicht '7'." },
	{ P_ROLL, 0, "play gezinkt 0", "Ein Würfel zeigt 1 bis 6, nicht '0'." },
	{ P_ATTACK_WINDOW, 1, "play suendenbock 0", "nicht gegen den Angreifer" },
	/* counters: on an unstoppable card; the window after one's own card */
	{ P_UNSTOPPABLE, 1, "play nein", "Unterm Tisch kann keine Karte verhindern." },
	{ P_UNSTOPPABLE, 0, "play nein", "Dieses Reaktionsfenster ist nicht für dich." },
	{ P_UNSTOPPABLE, 0, "pass", "Dieses Reaktionsfenster ist nicht für dich." },
	/* playing after passing */
	{ P_PASSED, 1, "play topfgriff", "Du hast in diesem Fenster schon gepasst." },
	{ P_PASSED, 1, "pass", "Du hast in diesem Fenster schon gepasst." },
	/* a muzzled seat */
	{ P_MUZZLED, 0, "play topfgriff", "Du trägst einen Maulkorb" },
	/* the last round: a target that is out, a seat that is out, done */
	{ P_FINAL, 0, "play langfinger 2", "@2 ist ausgeschieden." },
	{ P_FINAL, 2, "play topfgriff", "Du bist ausgeschieden." },
	{ P_FINAL, 2, "done", "Du bist ausgeschieden." },
	{ P_FINAL, 0, "attack 1 3", "Du bist nicht am Zug." },
	{ P_FINAL, 0, "end", "Du bist nicht am Zug." },
	{ P_FINAL, 0, "pass", "Gerade ist kein Reaktionsfenster offen." },
	{ P_FINAL, 0, "shout", "Gerufen wird nur bei Gleichstand am Ende." },
	{ P_FINAL_DONE, 0, "done", "Du bist schon fertig." },
	{ P_FINAL_DONE, 0, "play topfgriff", "Du bist schon fertig." },
	/* the shout */
	{ P_SHOUT, 2, "shout", "Du bist ausgeschieden." },
	{ P_SHOUT, 0, "done", "done gibt es nur in der letzten Runde." },
	{ P_SHOUT, 0, "play topfgriff", "Jetzt spielt niemand Karten." },
	{ P_OVER, 0, "shout", "Zu spät: @3 hat zuerst gerufen." },
	{ P_OVER, 1, "pass", "Die Partie ist schon vorbei." },
	{ P_OVER, 1, "react all", "Die Partie ist schon vorbei." },
};

/* Every refusal: -1, a clear German message, the state byte for byte as it
 * was. */
static void test_bad_moves(void **u)
{
	(void)u;
	struct wg_state *pos[P__N];
	for (int p = 0; p < P__N; p++)
		pos[p] = position(p);
	for (size_t i = 0; i < sizeof bad_rows / sizeof bad_rows[0]; i++)
		bad(pos[bad_rows[i].pos], bad_rows[i].seat, bad_rows[i].move, bad_rows[i].want);
	for (int p = 0; p < P__N; p++)
		free(pos[p]);
}

/* ---- snapshots ------------------------------------------------------------------------ */

static size_t encode(const struct wg_state *s, unsigned char *p)
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

static void round_trip(const struct wg_state *s)
{
	static unsigned char a[GAME_SNAPSHOT_MAX], b[GAME_SNAPSHOT_MAX];
	struct wg_state *t = calloc(1, sizeof *t);
	struct rerr e;
	size_t n = encode(s, a);
	if (game_load(G, t, a, n, &e) != SNAP_OK)
		fail_msg("load: %s", e.msg);
	assert_int_equal(encode(t, b), n);
	assert_memory_equal(a, b, n);
	free(t);
}

/* encode → game_load → the same bytes again, at every position of the
 * refusal table (windows, a card on the stack, the last round, the shout,
 * over) and with cards in play carrying chips. */
static void test_snapshot_round_trip(void **u)
{
	(void)u;
	for (int p = 0; p < P__N; p++) {
		struct wg_state *s = position(p);
		round_trip(s);
		free(s);
	}
	struct wg_state *s = deal_with(8, 5, 3, "few_windows=1 react_seconds=300 parties=4");
	lay(s, 1, "sparschwein", 2);
	lay(s, 6, "mautstelle", 0);
	round_trip(s);
	free(s);
}

static void test_snapshot_corrupt_rejected(void **u)
{
	(void)u;
	static unsigned char a[GAME_SNAPSHOT_MAX], c[GAME_SNAPSHOT_MAX];
	struct wg_state *s = position(P_UNSTOPPABLE), *t = calloc(1, sizeof *t);
	struct wg_state *keep = calloc(1, sizeof *keep);
	struct rerr e;
	lay(s, 3, "sparschwein", 1);
	size_t n = encode(s, a);
	memset(t, 0x5a, sizeof *t);
	memcpy(keep, t, sizeof *keep);
	for (size_t i = 0; i < n; i++) {
		memcpy(c, a, n);
		c[i] ^= 0x40;
		assert_int_equal(game_load(G, t, c, n, &e), SNAP_BAD);
	}
	for (size_t m = 0; m < n; m += 3)
		assert_int_equal(game_load(G, t, a, m, &e), SNAP_BAD);
	assert_memory_equal(t, keep, sizeof *t);
	/* a valid CRC with values out of range: refused, or loaded and sound */
	size_t hdr = 4 + 1 + 9 + 4 + 1;   /* envelope, slug "worstgame", format */
	static const struct { size_t off; unsigned char v; } poke[] = { { 0, 1 }, { 0, 9 } };
	for (size_t i = 0; i < sizeof poke / sizeof poke[0]; i++) {
		memcpy(c, a, n);
		c[hdr + poke[i].off] = poke[i].v;
		fix_crc(c, n);
		assert_int_equal(game_load(G, t, c, n, &e), SNAP_BAD);
	}
	for (size_t i = hdr; i + 4 < n; i++) {
		memcpy(c, a, n);
		c[i] ^= 0x11;
		fix_crc(c, n);
		if (game_load(G, t, c, n, &e) == SNAP_OK)
			assert_ok(t);
	}
	memcpy(c, a, n);
	c[hdr - 1] = WG_FORMAT + 1;
	fix_crc(c, n);
	assert_int_equal(game_load(G, t, c, n, &e), SNAP_FORMAT);
	free(s);
	free(t);
	free(keep);
}

/* ---- a known answer and random parties ------------------------------------------------ */

static struct sim_mem sim_alloc(int max_steps)
{
	return (struct sim_mem){
		.state = calloc(1, G->state_size),
		.replay = calloc(1, G->state_size),
		.log = calloc((size_t)max_steps, sizeof(struct sim_step)),
		.max_steps = max_steps,
		.snap_a = malloc(GAME_SNAPSHOT_MAX),
		.snap_b = malloc(GAME_SNAPSHOT_MAX),
	};
}

static void sim_free(struct sim_mem *mem)
{
	free(mem->state);
	free(mem->replay);
	free(mem->log);
	free(mem->snap_a);
	free(mem->snap_b);
}

/* Seed 2024, four players, dealer 2, the simulator's choices from seed 7:
 * the final snapshot pinned from the first run; a change in the rules
 * shows up here. */
static void test_known_answer(void **u)
{
	(void)u;
	static unsigned char a[GAME_SNAPSHOT_MAX];
	struct sim_mem mem = sim_alloc(20000);
	struct setup su = { .nplayers = 4, .dealer = 2, .seed = 2024 };
	struct sim_result r;
	options_default(G, su.opt);
	sim_party(G, &su, 7, &mem, &r);
	assert_true(r.ended);
	assert_int_equal(r.invariant_failures + r.replay_mismatch + r.rejected_legal + r.stuck, 0);
	size_t n = encode(mem.state, a);
	uint32_t crc = crc32_bytes(a, n - 4);
	struct status st;
	G->status(mem.state, &st);
	printf("known answer: crc=%08x len=%zu steps=%d scores %d %d %d %d\n", crc, n, r.steps,
	       st.score[0], st.score[1], st.score[2], st.score[3]);
	assert_int_equal(crc, KNOWN_CRC);
	assert_int_equal(n, KNOWN_LEN);
	sim_free(&mem);
}

/* Random parties of 2 to 8 players, both window settings: every step
 * checked, every party ends, the log replays to the same state. */
static void test_random_parties(void **u)
{
	(void)u;
	struct sim_mem mem = sim_alloc(20000);
	int parties = 0;
	for (int n = 2; n <= WG_SEATS; n++)
		for (int few = 0; few < 2; few++)
			for (int k = 0; k < 40; k++) {
				struct setup su = { .nplayers = n, .dealer = k % n,
						    .seed = (uint64_t)k * 7919u + (uint64_t)n };
				struct sim_result r;
				options_default(G, su.opt);
				su.opt[O_FEW_WINDOWS] = few;
				sim_party(G, &su, su.seed ^ 0x5eedULL, &mem, &r);
				if (r.invariant_failures || r.replay_mismatch || r.rejected_legal ||
				    r.stuck || !r.ended)
					fail_msg("%d players, few_windows=%d, party %d: %s", n, few, k,
						 r.err.msg);
				parties++;
			}
	assert_int_equal(parties, 7 * 2 * 40);
	sim_free(&mem);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_setup_4_cards_12_chips_100_cards),
		cmocka_unit_test(test_dealer_starts),
		cmocka_unit_test(test_match_parties_option),
		cmocka_unit_test(test_turn_ante_draw_attack),
		cmocka_unit_test(test_attack_button_names_target_and_amount),
		cmocka_unit_test(test_attack_higher_wins_equal_or_lower_nothing),
		cmocka_unit_test(test_attack_takes_what_target_has),
		cmocka_unit_test(test_windows_after_every_step),
		cmocka_unit_test(test_window_closes_all_passed_or_deadline),
		cmocka_unit_test(test_stack_resolves_last_in_first_out),
		cmocka_unit_test(test_counter_hits_card_directly_beneath),
		cmocka_unit_test(test_cards_win_over_rules),
		cmocka_unit_test(test_react_choice_not_listening_not_asked),
		cmocka_unit_test(test_react_choice_leaks_nothing),
		cmocka_unit_test(test_few_windows_and_react_seconds_options),
		cmocka_unit_test(test_stays_in_play_until_removed),
		cmocka_unit_test(test_view_marks_last_card),
		cmocka_unit_test(test_chips_on_card_go_to_kitty),
		cmocka_unit_test(test_hand_limit_7_at_end_of_turn),
		cmocka_unit_test(test_hand_limit_after_end_window),
		cmocka_unit_test(test_discard_reshuffled_when_deck_runs_out),
		cmocka_unit_test(test_short_kitty_shared_clockwise_from_active),
		cmocka_unit_test(test_out_at_end_of_any_turn),
		cmocka_unit_test(test_last_round_then_most_chips_wins),
		cmocka_unit_test(test_last_round_pays_out_stays),
		cmocka_unit_test(test_last_round_deadline),
		cmocka_unit_test(test_last_round_window_deadline_goes_on),
		cmocka_unit_test(test_sole_winner_not_tied),
		cmocka_unit_test(test_settled_attack_total_stays),
		cmocka_unit_test(test_refusal_after_pass_says_why),
		cmocka_unit_test(test_tie_first_shout_wins),
		cmocka_unit_test(test_tie_nobody_shouts_shared),
		cmocka_unit_test(test_shout_open_to_all_when_nobody_is_in),
		cmocka_unit_test(test_late_moves),
		cmocka_unit_test(test_card_of_out_seat_does_nothing),
		cmocka_unit_test(test_bad_moves),
		cmocka_unit_test(test_snapshot_round_trip),
		cmocka_unit_test(test_snapshot_corrupt_rejected),
		cmocka_unit_test(test_known_answer),
		cmocka_unit_test(test_random_parties),
	};
	return cmocka_run_group_tests_name("worstgame", tests, NULL, NULL);
}
