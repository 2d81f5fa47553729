/*
 * drehwurm.c — Drehwurm: worm cards go on two-sided stacks that turn over
 * after every card, chickens eat a whole stack, and after every turn-over the
 * other players may snap a card onto that stack (Zwischenwurf).
 *
 * The rule text is rules-de/drehwurm.txt; where it is silent the rulings of
 * docs/rulings.md apply (deck split, ring of ranks, jokers, the snap window,
 * the end). The move language is docs/moves-drehwurm.md.
 *
 * Card ids 0..104 index dw_deck[]: the 90 worm cards (85 coloured, 5 jokers),
 * then the 15 chickens. Piles keep their top as the last element; hands are
 * kept sorted by id, so equal cards sit next to each other and a snapshot has
 * one spelling per position.
 */
#include <stdio.h>
#include <string.h>

#include "evlog.h"
#include "game.h"
#include "match.h"
#include "movetext.h"
#include "pile.h"
#include "prompt.h"
#include "rng.h"
#include "ser.h"

enum dw_colour { DW_ROT, DW_GELB, DW_GRUEN, DW_BLAU, DW_LILA, DW_COLOUR__MAX };
enum dw_kind { DW_WORM, DW_JOKER, DW_CHICKEN, DW_KIND__MAX };

/* A card's face. rank 1..9 (1 is the "1/10" card), 0 for jokers and
 * chickens; a joker's colour is DW_COLOUR__MAX (none). */
struct dw_card {
	uint8_t kind, colour, rank;
};

enum {
	DW_RANKS = 9,          /* the ring 1/10, 2, …, 9 */
	DW_WORMS = 90,
	DW_CHICKENS = 15,
	DW_CARDS = DW_WORMS + DW_CHICKENS,
	DW_SEATS = 6,
	DW_STACKS = 3,
	DW_HAND_CAP = DW_CARDS,
	DW_EATEN_CAP = 2,      /* two chickens each: at most two eaten stacks */
	DW_LOG_MAX = 12,
	DW_DEAL_CHICKENS = 2,
	DW_DEAL_WORMS = 10,
	DW_FORMAT = 3,         /* snapshot payload version (2: public bottom cards;
	                        * 3: the turn and the window as prompts) */
	DW_QUOTE_CHARS = MT_QUOTE_CHARS,   /* characters of a typed word quoted in a message */
	DW_QUOTE_CAP = 4 * DW_QUOTE_CHARS + 1
};

/* The deck (ruling): per colour one "1/10" and two each of 2–9, five
 * jokers, three chickens per colour. This table is the only place the split
 * is written down. */
#define DW_COLOUR_WORMS(c) \
	{ DW_WORM, c, 1 }, { DW_WORM, c, 2 }, { DW_WORM, c, 2 }, { DW_WORM, c, 3 }, \
	{ DW_WORM, c, 3 }, { DW_WORM, c, 4 }, { DW_WORM, c, 4 }, { DW_WORM, c, 5 }, \
	{ DW_WORM, c, 5 }, { DW_WORM, c, 6 }, { DW_WORM, c, 6 }, { DW_WORM, c, 7 }, \
	{ DW_WORM, c, 7 }, { DW_WORM, c, 8 }, { DW_WORM, c, 8 }, { DW_WORM, c, 9 }, \
	{ DW_WORM, c, 9 }
#define DW_JOKER_CARD { DW_JOKER, DW_COLOUR__MAX, 0 }
#define DW_COLOUR_CHICKENS(c) { DW_CHICKEN, c, 0 }, { DW_CHICKEN, c, 0 }, { DW_CHICKEN, c, 0 }

static const struct dw_card dw_deck[] = {
	DW_COLOUR_WORMS(DW_ROT), DW_COLOUR_WORMS(DW_GELB), DW_COLOUR_WORMS(DW_GRUEN),
	DW_COLOUR_WORMS(DW_BLAU), DW_COLOUR_WORMS(DW_LILA),
	DW_JOKER_CARD, DW_JOKER_CARD, DW_JOKER_CARD, DW_JOKER_CARD, DW_JOKER_CARD,
	DW_COLOUR_CHICKENS(DW_ROT), DW_COLOUR_CHICKENS(DW_GELB), DW_COLOUR_CHICKENS(DW_GRUEN),
	DW_COLOUR_CHICKENS(DW_BLAU), DW_COLOUR_CHICKENS(DW_LILA),
};
_Static_assert(sizeof dw_deck / sizeof dw_deck[0] == DW_CARDS, "deck table has 105 cards");
_Static_assert(DW_WORMS <= 0xff, "an eaten stack's size fits an event's uint8_t arg");
_Static_assert(DW_CARDS <= 0xffff, "card ids fit uint16_t");

/* Spellings: the colour word of moves, pages and JSON ("grün"; the reader
 * also takes the ASCII form), and the ASCII form, which is only a CSS class
 * token ("gruen", JSON key colour_class). A colour word is also an argument
 * of texts a player reads ("kein Huhn in grün"), so it is a catalog message. */
static const char *const colour_word[] = { N_("rot"), N_("gelb"), N_("grün"), N_("blau"),
					   N_("lila") };
static const char *const colour_ascii[] = { "rot", "gelb", "gruen", "blau", "lila" };
static const char *const rank_word[] = { "", "1/10", "2", "3", "4", "5", "6", "7", "8", "9" };
_Static_assert(sizeof colour_word / sizeof colour_word[0] == DW_COLOUR__MAX, "a word per colour");
_Static_assert(sizeof colour_ascii / sizeof colour_ascii[0] == DW_COLOUR__MAX, "a class per colour");
_Static_assert(sizeof rank_word / sizeof rank_word[0] == DW_RANKS + 1, "a word per rank");

/* A card's name as a player reads it ("gelb 4", "Joker", "Huhn rot"): whole
 * names, one catalog message each, because a name is an argument of
 * messages and log sentences and the platform translates an argument only
 * when it is a message itself. */
static const char *const worm_name[DW_COLOUR__MAX][DW_RANKS] = {
	[DW_ROT] = { N_("rot 1/10"), N_("rot 2"), N_("rot 3"), N_("rot 4"), N_("rot 5"),
		N_("rot 6"), N_("rot 7"), N_("rot 8"), N_("rot 9") },
	[DW_GELB] = { N_("gelb 1/10"), N_("gelb 2"), N_("gelb 3"), N_("gelb 4"), N_("gelb 5"),
		N_("gelb 6"), N_("gelb 7"), N_("gelb 8"), N_("gelb 9") },
	[DW_GRUEN] = { N_("grün 1/10"), N_("grün 2"), N_("grün 3"), N_("grün 4"), N_("grün 5"),
		N_("grün 6"), N_("grün 7"), N_("grün 8"), N_("grün 9") },
	[DW_BLAU] = { N_("blau 1/10"), N_("blau 2"), N_("blau 3"), N_("blau 4"), N_("blau 5"),
		N_("blau 6"), N_("blau 7"), N_("blau 8"), N_("blau 9") },
	[DW_LILA] = { N_("lila 1/10"), N_("lila 2"), N_("lila 3"), N_("lila 4"), N_("lila 5"),
		N_("lila 6"), N_("lila 7"), N_("lila 8"), N_("lila 9") },
};
static const char *const chicken_name[] = { N_("Huhn rot"), N_("Huhn gelb"), N_("Huhn grün"),
					    N_("Huhn blau"), N_("Huhn lila") };
_Static_assert(sizeof chicken_name / sizeof chicken_name[0] == DW_COLOUR__MAX,
	       "a chicken's name per colour");

/* What the party waits for (rules/prompt.h): the regular turn, always at
 * the bottom while the party runs (its owner is the seat on turn), and over
 * it the snap window after a stack was turned (owner: who turned it, arg:
 * the stack, for every other seat, with a deadline). No prompt: over. */
enum dw_prompt { DW_PR_TURN = 1, DW_PR_SNAP, DW_PR__MAX };

enum dw_end {
	DW_END_NONE,
	DW_END_HAND_EMPTY,     /* a player has no hand cards left */
	DW_END_CHICKENS_USED,  /* every player has used both chickens */
	DW_END_PILE_EMPTY,     /* the draw pile is used up */
	DW_END_PILE_SHORT,     /* too few cards left to lay a new stack */
	DW_END__MAX
};

/* The log's sentence for each end; the one that names a seat is a format
 * (event_say). */
static const char *const end_text[] = {
	[DW_END_NONE] = "",
	/* xgettext:c-format */
	[DW_END_HAND_EMPTY] = N_("@%d hat keine Handkarten mehr."),
	[DW_END_CHICKENS_USED] = N_("Alle haben ihre Hühner eingesetzt."),
	[DW_END_PILE_EMPTY] = N_("Der Nachziehstapel ist aufgebraucht."),
	[DW_END_PILE_SHORT] = N_("Der Nachziehstapel reicht nicht mehr für einen neuen Drehwurm."),
};
_Static_assert(sizeof end_text / sizeof end_text[0] == DW_END__MAX, "a text per end");

/* Public events (rules/evlog.h): `where` is always the stack, `num` a
 * second card. */
enum dw_ev {
	DW_EV_PLAY,      /* seat laid card on stack; num: the new top */
	DW_EV_SNAP,      /* seat snapped card onto stack */
	DW_EV_CHICKEN,   /* seat's chicken (card) ate stack; arg: its size */
	DW_EV_NEW_STACK, /* a new stack was laid; num: its top */
	DW_EV_DRAW_TURN, /* seat drew and turned stack; num: the new top */
	DW_EV_END,       /* the party ended; arg: enum dw_end, seat: whose hand is empty */
	DW_EV__MAX
};

struct dw_pile {
	int n;
	uint16_t c[DW_WORMS];
};

struct dw_eaten {
	uint16_t chicken;
	int n;
	uint16_t c[DW_WORMS];
};

/* The whole party: fixed size, no pointers (game.h). */
struct dw_state {
	int nplayers, dealer, snap_seconds, snap_colour;
	struct rng rng;
	int end_reason;
	uint32_t epoch;
	struct prompts pr;   /* the turn and an open snap window */
	int nhand[DW_SEATS];
	uint16_t hand[DW_SEATS][DW_HAND_CAP];
	struct dw_pile pile;
	struct dw_pile stack[DW_STACKS];
	/* 1 when the bottom card of stack k is public: it was laid face up or
	 * lay face up on top before a turn-over, so everyone saw it go under.
	 * 0 for the face-down card a stack is laid with (setup, after a
	 * chicken) until the stack is first turned. */
	uint8_t bottom_public[DW_STACKS];
	int neaten[DW_SEATS];
	struct dw_eaten eaten[DW_SEATS][DW_EATEN_CAP];
	int nspare;
	uint16_t spare[DW_CHICKENS];   /* chickens not dealt */
	struct evlog log;
};

enum dw_opt { DW_OPT_SNAP_SECONDS, DW_OPT_SNAP_COLOUR, DW_OPT__MAX };
_Static_assert((int)DW_OPT__MAX <= (int)GAME_OPT_MAX, "options fit struct setup");

static const struct game_option dw_options[] = {
	[DW_OPT_SNAP_SECONDS] = { "snap_seconds", N_("Zeit für einen Zwischenwurf"), OPT_INT,
				  2, 600, 10, N_("s") },
	[DW_OPT_SNAP_COLOUR] = { "snap_colour",
				 N_("Variante: Zwischenwurf nur in der Farbe des Stapels"),
				 OPT_BOOL, 0, 1, 0, NULL },
};
_Static_assert(sizeof dw_options / sizeof dw_options[0] == DW_OPT__MAX, "an entry per option");

/* ---- cards ---------------------------------------------------------- */

/* 1 when ranks a and b are next to each other on the ring of nine. */
static int ranks_adjacent(int a, int b)
{
	int d = a > b ? a - b : b - a;
	return d == 1 || d == DW_RANKS - 1;
}

/* 1 when worm card c may go on top card t. Normally (same_colour 0) the
 * colour must differ; in the snap-colour variant (same_colour 1) it must be
 * the same. The number must neighbour either way; a joker on either side
 * fits anything. */
static int worm_fits(int c, int t, int same_colour)
{
	const struct dw_card *a = &dw_deck[c], *b = &dw_deck[t];
	if (a->kind == DW_JOKER || b->kind == DW_JOKER)
		return 1;
	if (same_colour ? a->colour != b->colour : a->colour == b->colour)
		return 0;
	return ranks_adjacent(a->rank, b->rank);
}

/* 1 when a chicken card may eat a stack whose top is t. */
static int chicken_fits(int chicken, int t)
{
	return dw_deck[t].kind == DW_JOKER || dw_deck[t].colour == dw_deck[chicken].colour;
}

/* 1 when cards a and b look the same (same kind, colour and rank). */
static int same_face(int a, int b)
{
	return dw_deck[a].kind == dw_deck[b].kind && dw_deck[a].colour == dw_deck[b].colour &&
	       dw_deck[a].rank == dw_deck[b].rank;
}

/* Appends s at out[*len] (the caller sized out for a move). */
static void put_str(char *out, int *len, const char *s)
{
	size_t n = strlen(s);
	memcpy(out + *len, s, n);
	*len += (int)n;
	out[*len] = '\0';
}

/* The canonical move word of a card: "gelb-4", "rot-1/10", "joker", and
 * for a chicken its colour ("rot"). Writes at out[*len]. */
static void put_card(char *out, int *len, int id)
{
	const struct dw_card *c = &dw_deck[id];
	if (c->kind == DW_JOKER) {
		put_str(out, len, "joker");
		return;
	}
	put_str(out, len, colour_word[c->colour]);
	if (c->kind == DW_CHICKEN)
		return;
	put_str(out, len, "-");
	put_str(out, len, rank_word[c->rank]);
}

/* The card's name as a player reads it (a catalog message): "gelb 4",
 * "rot 1/10", "Joker", "Huhn rot". */
static const char *card_name(int id)
{
	const struct dw_card *c = &dw_deck[id];
	if (c->kind == DW_JOKER)
		return N_("Joker");
	if (c->kind == DW_CHICKEN)
		return chicken_name[c->colour];
	return worm_name[c->colour][c->rank - 1];
}

/* The German name of card id into out[0..cap) (card_name(), as the
 * pages show it when nothing translates it): for callers that want it in a
 * buffer, the tests among them. */
__attribute__((unused))
static void card_label(int id, char *out, size_t cap)
{
	if (cap > 0)
		snprintf(out, cap, "%s", card_name(id));
}

/* The colour named by a move word (grün or gruen), or -1. */
static int parse_colour(const char *w)
{
	for (int c = 0; c < DW_COLOUR__MAX; c++)
		if (strcmp(w, colour_word[c]) == 0 || strcmp(w, colour_ascii[c]) == 0)
			return c;
	return -1;
}

/* Reads a worm card word ("gelb-4", "rot-1/10", "rot-1", "rot-10",
 * "joker") into a face. 0, or -1 when the word names no worm card. */
static int parse_worm(const char *w, struct dw_card *out)
{
	if (strcmp(w, "joker") == 0) {
		*out = (struct dw_card){ DW_JOKER, DW_COLOUR__MAX, 0 };
		return 0;
	}
	const char *dash = strchr(w, '-');
	char col[MT_WORD_MAX];
	int rank;
	if (!dash || (size_t)(dash - w) >= sizeof col)
		return -1;
	memcpy(col, w, (size_t)(dash - w));
	col[dash - w] = '\0';
	int c = parse_colour(col);
	if (c < 0)
		return -1;
	const char *r = dash + 1;
	if (strcmp(r, "1/10") == 0 || strcmp(r, "1") == 0 || strcmp(r, "10") == 0)
		rank = 1;
	else if (mt_int(r, 2, 9, &rank) != 0)
		return -1;
	*out = (struct dw_card){ DW_WORM, (uint8_t)c, (uint8_t)rank };
	return 0;
}

/* Index in seat's hand of the first card with face f, or -1. */
static int hand_find(const struct dw_state *st, int seat, const struct dw_card *f)
{
	for (int i = 0; i < st->nhand[seat]; i++) {
		const struct dw_card *c = &dw_deck[st->hand[seat][i]];
		if (c->kind == f->kind && c->colour == f->colour && c->rank == f->rank)
			return i;
	}
	return -1;
}

/* Puts card into seat's hand at its sorted place. */
static void hand_insert(struct dw_state *st, int seat, uint16_t card)
{
	int i = st->nhand[seat];
	while (i > 0 && st->hand[seat][i - 1] > card) {
		st->hand[seat][i] = st->hand[seat][i - 1];
		i--;
	}
	st->hand[seat][i] = card;
	st->nhand[seat]++;
}

/* Chickens in seat's hand (they sort last). */
static int hand_chickens(const struct dw_state *st, int seat)
{
	int n = 0;
	for (int i = st->nhand[seat] - 1; i >= 0 && dw_deck[st->hand[seat][i]].kind == DW_CHICKEN; i--)
		n++;
	return n;
}

/* The visible top card of stack k (the caller knows it is not empty). */
static int stack_top(const struct dw_state *st, int k)
{
	return st->stack[k].c[st->stack[k].n - 1];
}

/* 1 when seat holds a worm card it could snap onto the window's stack. */
static int can_snap(const struct dw_state *st, int seat, int k)
{
	int top = stack_top(st, k);
	for (int i = 0; i < st->nhand[seat]; i++) {
		int c = st->hand[seat][i];
		if (dw_deck[c].kind == DW_CHICKEN)
			break;
		if (worm_fits(c, top, st->snap_colour))
			return 1;
	}
	return 0;
}

/* Points of one eaten stack: cards of the chicken's colour 3, jokers 2,
 * other worm cards 1; the chicken itself nothing. */
static int eaten_points(const struct dw_eaten *e)
{
	int colour = dw_deck[e->chicken].colour, p = 0;
	for (int i = 0; i < e->n; i++) {
		const struct dw_card *c = &dw_deck[e->c[i]];
		p += c->kind == DW_JOKER ? 2 : c->colour == colour ? 3 : 1;
	}
	return p;
}

/* A seat's party score: its eaten stacks, minus one per hand card. */
static int seat_score(const struct dw_state *st, int seat)
{
	int p = -st->nhand[seat];
	for (int i = 0; i < st->neaten[seat]; i++)
		p += eaten_points(&st->eaten[seat][i]);
	return p;
}

/* A seat's points while the party runs, from public counts only: every
 * card of an eaten stack scores at least 1 (the stacks stay closed until
 * the end: docs/rulings.md), minus one per hand card. The party gives at
 * least this much if it ended now. */
static int running_score(const struct dw_state *st, int seat)
{
	int p = -st->nhand[seat];
	for (int i = 0; i < st->neaten[seat]; i++)
		p += st->eaten[seat][i].n;
	return p;
}

/* The most epoch changes (cards laid, stacks turned or eaten) a party of n
 * can have, so the epoch needs no move limit. A worm card only ever moves
 * forward: draw pile → hand → stack → eaten stack. Draws are at most the
 * draw pile after the deal, 84 − 10n; plays and snaps at most the worm
 * cards that ever reach a hand, 10n + draws ≤ 84; chickens at most 2n. */
static uint32_t epoch_max(int n)
{
	int pile0 = DW_WORMS - 2 * DW_STACKS - DW_DEAL_WORMS * n;
	return (uint32_t)(pile0 + (DW_WORMS - 2 * DW_STACKS) + DW_DEAL_CHICKENS * n);
}

/* ---- events and the end -------------------------------------------- */

/* Appends a public event, dropping the oldest beyond DW_LOG_MAX. */
static void log_event(struct dw_state *st, int type, int seat, int stack, int arg, int card,
		      int card2)
{
	struct game_event *ev = evlog_push(&st->log, DW_LOG_MAX, type, seat);
	ev->where = (uint8_t)stack;
	ev->arg = (uint8_t)arg;
	ev->card = (uint16_t)card;
	ev->num = (uint16_t)card2;
}

/* The seat on turn (-1: the party is over). */
static int turn_seat(const struct dw_state *st)
{
	return prompt_owner(&st->pr, DW_PR_TURN);
}

/* The regular turn goes to seat. */
static void set_turn(struct dw_state *st, int seat)
{
	struct prompt *t = prompt_find(&st->pr, DW_PR_TURN);
	t->owner = (int8_t)seat;
	t->seats = t->waiting = (uint16_t)(1u << seat);
}

/* The snap window, open: its stack, or -1. */
static int snap_stack(const struct dw_state *st)
{
	return prompt_kind(&st->pr) == DW_PR_SNAP ? prompt_peek(&st->pr)->arg : -1;
}

/* Ends the party for `reason`; `seat` names the empty hand, if that. */
static void end_party(struct dw_state *st, int reason, int seat)
{
	st->end_reason = reason;
	prompt_clear(&st->pr);
	log_event(st, DW_EV_END, seat, 0, reason, 0, 0);
}

/* Ends the party if a rule says so now: an empty hand (checked first, so
 * the log names it), all chickens used, or an empty draw pile. 1 if ended. */
static int check_end(struct dw_state *st)
{
	int chickens = 0;
	for (int s = 0; s < st->nplayers; s++) {
		if (st->nhand[s] == 0) {
			end_party(st, DW_END_HAND_EMPTY, s);
			return 1;
		}
		chickens += hand_chickens(st, s);
	}
	if (chickens == 0) {
		end_party(st, DW_END_CHICKENS_USED, 0);
		return 1;
	}
	if (st->pile.n == 0) {
		end_party(st, DW_END_PILE_EMPTY, 0);
		return 1;
	}
	return 0;
}

/* After `opener` turned stack k: opens the snap window for every other
 * seat, if any of them holds a fitting worm card; if none does, no window
 * opens (the automatic pass, a ruling). Inside the window every other seat
 * may act, with or without a card, so the public list of who may act does
 * not tell who holds one. */
static void open_window(struct dw_state *st, int k, int opener, int64_t now)
{
	int any = 0;
	for (int s = 0; s < st->nplayers && !any; s++)
		any = s != opener && can_snap(st, s, k);
	set_turn(st, seat_next(opener, st->nplayers));
	if (!any)
		return;
	struct prompt *w = prompt_push(&st->pr, DW_PR_SNAP,
				       ((1u << st->nplayers) - 1) & ~(1u << opener));
	w->flags = PROMPT_WINDOW;
	w->owner = (int8_t)opener;
	w->arg = (uint8_t)k;
	w->deadline = deadline_after(now, st->snap_seconds);
}

/* Ends the snap window; the regular turn (already set) goes on. */
static void close_window(struct dw_state *st)
{
	prompt_pop(&st->pr);
}

/* ---- setup ---------------------------------------------------------- */

/* Seats 3..6; parties in a match: one per player. */
static int dw_parties(int nplayers, const int *opt)
{
	(void)opt;
	return nplayers;
}

/* Deals a party: two chickens and ten worm cards each (one at a time,
 * clockwise from the dealer's left), three stacks of a face-down and a
 * face-up card, the rest is the draw pile. The dealer's left neighbour
 * starts. */
static int dw_setup(void *vst, const struct setup *s, struct rerr *e)
{
	struct dw_state *st = vst;
	(void)e;   /* game_setup() has checked the count, the dealer and the options */
	memset(st, 0, sizeof *st);
	st->nplayers = s->nplayers;
	st->dealer = s->dealer;
	st->snap_seconds = s->opt[DW_OPT_SNAP_SECONDS];
	st->snap_colour = s->opt[DW_OPT_SNAP_COLOUR];
	rng_seed(&st->rng, s->seed);

	uint16_t chickens[DW_CHICKENS];
	int nch = DW_CHICKENS;
	for (int i = 0; i < DW_CHICKENS; i++)
		chickens[i] = (uint16_t)(DW_WORMS + i);
	rng_shuffle(&st->rng, chickens, DW_CHICKENS);
	st->pile.n = DW_WORMS;
	for (int i = 0; i < DW_WORMS; i++)
		st->pile.c[i] = (uint16_t)i;
	rng_shuffle(&st->rng, st->pile.c, DW_WORMS);

	uint16_t c;
	for (int i = 0; i < DW_DEAL_CHICKENS * st->nplayers; i++)
		hand_insert(st, deal_seat(st->dealer, i, st->nplayers), chickens[--nch]);
	st->nspare = nch;
	memcpy(st->spare, chickens, sizeof chickens[0] * (size_t)nch);
	for (int i = 0; i < DW_DEAL_WORMS * st->nplayers; i++) {
		pile_pop(st->pile.c, &st->pile.n, &c);
		hand_insert(st, deal_seat(st->dealer, i, st->nplayers), c);
	}
	for (int k = 0; k < DW_STACKS; k++)
		for (int j = 0; j < 2; j++) {
			pile_pop(st->pile.c, &st->pile.n, &c);
			pile_push(st->stack[k].c, &st->stack[k].n, DW_WORMS, c);
		}
	prompt_push(&st->pr, DW_PR_TURN, 0);
	set_turn(st, seat_next(st->dealer, st->nplayers));
	return 0;
}

/* ---- moves ---------------------------------------------------------- */

/* The verbs of the move language (docs/moves-drehwurm.md): their form and
 * what a move of the wrong form is told (rules/movetext.h). */
enum dw_verb { DW_MV_PLAY, DW_MV_CHICKEN, DW_MV_DRAW, DW_MV_SNAP, DW_MV_PASS, DW_MV__MAX };
static const struct mt_verb dw_verbs[DW_MV__MAX] = {
	[DW_MV_PLAY] = { "play", NULL, 4, 4, 2, "on", N_("So legst du eine Wurmkarte: play KARTE on "
		"STAPEL, z. B. play gelb-4 on 2."), "play KARTE on STAPEL", "play gelb-4 on 2" },
	[DW_MV_CHICKEN] = { "chicken", NULL, 4, 4, 2, "on", N_("So frisst ein Huhn: chicken FARBE on "
		"STAPEL, z. B. chicken rot on 3."), "chicken FARBE on STAPEL", "chicken rot on 3" },
	[DW_MV_DRAW] = { "draw", "draw turn", 3, 3, 1, "turn", N_("So ziehst du und drehst einen "
		"Stapel: draw turn STAPEL, z. B. draw turn 2."), "draw turn STAPEL", "draw turn 2" },
	[DW_MV_SNAP] = { "snap", NULL, 2, 2, 0, NULL, N_("So wirfst du zwischen: snap KARTE, z. B. "
		"snap blau-5."), "snap KARTE", "snap blau-5" },
	[DW_MV_PASS] = { "pass", NULL, 1, 1, 0, NULL, N_("pass steht allein, ohne weitere Wörter."),
		"pass", "pass" },
};

/* Reads the stack number word (1..3) into *k (0-based). */
static int parse_stack(const char *w, int *k, struct rerr *e)
{
	int n;
	char q[DW_QUOTE_CAP];
	if (mt_int(w, 1, DW_STACKS, &n) != 0)
		return rerr_set(e, "Einen Stapel '%s' gibt es nicht: die Stapel heißen 1 bis %d.",
				mt_clip(q, sizeof q, w, DW_QUOTE_CHARS), DW_STACKS);
	*k = n - 1;
	return 0;
}

/* Reads a worm card word into a face; else a message that says why. */
static int read_worm(const char *w, struct dw_card *f, struct rerr *e)
{
	char q[DW_QUOTE_CAP];
	if (parse_worm(w, f) == 0)
		return 0;
	mt_clip(q, sizeof q, w, DW_QUOTE_CHARS);
	if (parse_colour(w) >= 0)
		return rerr_set(e, "'%s' ist keine Wurmkarte: es fehlt die Zahl, z. B. %s-4. "
				"Ein Huhn legst du mit chicken %s on STAPEL.", q, q, q);
	return rerr_set(e, "Eine Karte '%s' gibt es nicht. Beispiele: gelb-4, rot-1/10, joker.", q);
}

/* Finds a card of face f in seat's hand: its index in *at. */
static int in_hand(const struct dw_state *st, int seat, const struct dw_card *f, const char *w,
		   int *at, struct rerr *e)
{
	char q[DW_QUOTE_CAP];
	*at = hand_find(st, seat, f);
	if (*at < 0)
		return rerr_set(e, "Du hast %s nicht auf der Hand.", mt_clip(q, sizeof q, w, DW_QUOTE_CHARS));
	return 0;
}

/* Why worm card c does not fit top t (for a rejected move). */
static int explain_misfit(int c, int t, int same_colour, struct rerr *e)
{
	const char *cn = card_name(c), *tn = card_name(t);
	if (!same_colour && dw_deck[c].colour == dw_deck[t].colour)
		return rerr_set(e, "%s passt nicht auf %s: die Farbe muss eine andere sein.", cn, tn);
	if (same_colour && dw_deck[c].colour != dw_deck[t].colour)
		return rerr_set(e, "%s passt nicht auf %s: in dieser Variante muss ein Zwischenwurf "
				"dieselbe Farbe haben.", cn, tn);
	return rerr_set(e, "%s passt nicht auf %s: die Zahl muss benachbart sein.", cn, tn);
}

/* The regular turn may be taken by seat now; else the reason. */
static int my_turn(const struct dw_state *st, int seat, struct rerr *e)
{
	if (snap_stack(st) >= 0)
		return rerr_set(e, "Warte: auf Stapel %d läuft noch der Zwischenwurf.", snap_stack(st) + 1);
	if (seat != turn_seat(st))
		return rerr_set(e, "Du bist nicht am Zug.");
	return 0;
}

/* play CARD on N: lay a worm card, turn the stack, open the snap window. */
static int do_play(struct dw_state *st, int seat, const struct mtok *t, int64_t now, struct rerr *e)
{
	int at = 0, k = 0;
	struct dw_card f;
	if (read_worm(t->w[1], &f, e) || parse_stack(t->w[3], &k, e) || my_turn(st, seat, e) ||
	    in_hand(st, seat, &f, t->w[1], &at, e))
		return -1;
	int card = st->hand[seat][at], top = stack_top(st, k);
	if (!worm_fits(card, top, 0))
		return explain_misfit(card, top, 0, e);
	pile_remove_at(st->hand[seat], &st->nhand[seat], at);
	pile_push(st->stack[k].c, &st->stack[k].n, DW_WORMS, (uint16_t)card);
	pile_reverse(st->stack[k].c, st->stack[k].n);
	st->bottom_public[k] = 1;   /* the card just laid face up */
	st->epoch++;
	log_event(st, DW_EV_PLAY, seat, k, 0, card, stack_top(st, k));
	if (check_end(st))
		return 0;
	open_window(st, k, seat, now);
	return 0;
}

/* chicken COLOUR on N: eat the stack, lay a new one from the draw pile. */
static int do_chicken(struct dw_state *st, int seat, const struct mtok *t, struct rerr *e)
{
	int k = 0;
	int colour = parse_colour(t->w[1]);
	char q[DW_QUOTE_CAP];
	if (colour < 0)
		return rerr_set(e, "Eine Hühnerfarbe '%s' gibt es nicht: rot, gelb, grün, blau oder lila.",
				mt_clip(q, sizeof q, t->w[1], DW_QUOTE_CHARS));
	if (parse_stack(t->w[3], &k, e) || my_turn(st, seat, e))
		return -1;
	struct dw_card f = { DW_CHICKEN, (uint8_t)colour, 0 };
	int at = hand_find(st, seat, &f);
	if (at < 0)
		return rerr_set(e, "Du hast kein Huhn in %s auf der Hand.", colour_word[colour]);
	int chicken = st->hand[seat][at], top = stack_top(st, k);
	if (!chicken_fits(chicken, top))
		return rerr_set(e, "Das Huhn in %s frisst nur einen Drehwurm, dessen oberste Karte %s "
				"oder ein Joker ist; auf Stapel %d liegt %s.", colour_word[colour],
				colour_word[colour], k + 1, card_name(top));
	struct dw_eaten *ea = &st->eaten[seat][st->neaten[seat]++];
	ea->chicken = (uint16_t)chicken;
	ea->n = st->stack[k].n;
	memcpy(ea->c, st->stack[k].c, sizeof ea->c[0] * (size_t)ea->n);
	pile_remove_at(st->hand[seat], &st->nhand[seat], at);
	st->stack[k].n = 0;
	st->bottom_public[k] = 0;   /* a new stack's bottom is dealt face down */
	st->epoch++;
	log_event(st, DW_EV_CHICKEN, seat, k, ea->n, chicken, 0);
	set_turn(st, seat_next(seat, st->nplayers));
	if (st->pile.n >= 2) {
		uint16_t c;
		for (int j = 0; j < 2; j++) {
			pile_pop(st->pile.c, &st->pile.n, &c);
			pile_push(st->stack[k].c, &st->stack[k].n, DW_WORMS, c);
		}
		log_event(st, DW_EV_NEW_STACK, seat, k, 0, 0, stack_top(st, k));
	}
	if (!check_end(st) && st->stack[k].n == 0)
		end_party(st, DW_END_PILE_SHORT, 0);
	return 0;
}

/* draw turn N: draw a worm card, turn any stack, open the snap window. */
static int do_draw(struct dw_state *st, int seat, const struct mtok *t, int64_t now, struct rerr *e)
{
	int k = 0;
	if (parse_stack(t->w[2], &k, e) || my_turn(st, seat, e))
		return -1;
	if (st->pile.n == 0)
		return rerr_set(e, "Der Nachziehstapel ist leer.");
	uint16_t c;
	pile_pop(st->pile.c, &st->pile.n, &c);
	hand_insert(st, seat, c);
	pile_reverse(st->stack[k].c, st->stack[k].n);
	st->bottom_public[k] = 1;   /* the top everyone just saw */
	st->epoch++;
	log_event(st, DW_EV_DRAW_TURN, seat, k, 0, 0, stack_top(st, k));
	if (check_end(st))
		return 0;
	open_window(st, k, seat, now);
	return 0;
}

/* The snap window is open for seat; else the reason. */
static int my_window(const struct dw_state *st, int seat, struct rerr *e)
{
	if (snap_stack(st) < 0)
		return rerr_set(e, "Gerade ist kein Zwischenwurf möglich (zu spät?).");
	if (seat == prompt_peek(&st->pr)->owner)
		return rerr_set(e, "Du hast Stapel %d selbst gedreht: der Zwischenwurf ist für die anderen.",
				snap_stack(st) + 1);
	if (!prompt_waits(&st->pr, seat))
		return rerr_set(e, "Für dich ist dieser Zwischenwurf vorbei.");
	return 0;
}

/* snap CARD: the first fitting card on the stack just turned wins the window. */
static int do_snap(struct dw_state *st, int seat, const struct mtok *t, struct rerr *e)
{
	int at;
	struct dw_card f;
	if (parse_worm(t->w[1], &f) != 0 && parse_colour(t->w[1]) >= 0)
		return rerr_set(e, "Hühner darf man nicht zwischenwerfen.");
	if (read_worm(t->w[1], &f, e) || my_window(st, seat, e) ||
	    in_hand(st, seat, &f, t->w[1], &at, e))
		return -1;
	int k = snap_stack(st), card = st->hand[seat][at], top = stack_top(st, k);
	if (!worm_fits(card, top, st->snap_colour))
		return explain_misfit(card, top, st->snap_colour, e);
	pile_remove_at(st->hand[seat], &st->nhand[seat], at);
	pile_push(st->stack[k].c, &st->stack[k].n, DW_WORMS, (uint16_t)card);
	st->epoch++;
	close_window(st);
	log_event(st, DW_EV_SNAP, seat, k, 0, card, card);
	check_end(st);
	return 0;
}

/* pass: this seat does not snap; the window closes when nobody is left. */
static int do_pass(struct dw_state *st, int seat, struct rerr *e)
{
	if (snap_stack(st) < 0)
		return rerr_set(e, "Passen kannst du nur beim Zwischenwurf. Wer nicht legen kann "
				"oder will, zieht: draw turn STAPEL.");
	if (my_window(st, seat, e))
		return -1;
	if (prompt_done(&st->pr, seat))
		close_window(st);
	return 0;
}

/* Applies one move of seat; on any error the state is untouched (every
 * check runs before the first write). */
static int dw_apply(void *vst, int seat, const char *move, int64_t now, struct rerr *e)
{
	struct dw_state *st = vst;
	struct mtok t;
	if (seat < 0 || seat >= st->nplayers)
		return rerr_set(e, "Diesen Platz gibt es an diesem Tisch nicht.");
	if (mt_split(move, &t, e) != 0)
		return -1;
	if (st->end_reason != DW_END_NONE)
		return rerr_set(e, "Die Partie ist schon vorbei.");
	int verb = mt_verb(dw_verbs, DW_MV__MAX, &t, e);
	if (verb < 0 || mt_form(&dw_verbs[verb], &t, e) != 0)
		return -1;
	switch (verb) {
	case DW_MV_PLAY:
		return do_play(st, seat, &t, now, e);
	case DW_MV_CHICKEN:
		return do_chicken(st, seat, &t, e);
	case DW_MV_DRAW:
		return do_draw(st, seat, &t, now, e);
	case DW_MV_SNAP:
		return do_snap(st, seat, &t, e);
	default:
		return do_pass(st, seat, e);
	}
}

/* A deadline passed: the snap window's (the regular turn has none). */
static void dw_expire(void *vst, struct prompt *p, int64_t now)
{
	(void)p;
	(void)now;
	close_window(vst);
}

/* Closes a snap window whose deadline has passed. 1 if it did. */
static int dw_tick(void *vst, int64_t now)
{
	struct dw_state *st = vst;
	return prompt_tick(&st->pr, now, dw_expire, st);
}

/* Who may act, the window's deadline, the epoch, and the scores: final once
 * the party is over; while it runs only the public part (minus one per hand
 * card), since the eaten stacks' contents are hidden until the end. */
static void dw_status(const void *vst, struct status *out)
{
	const struct dw_state *st = vst;
	memset(out, 0, sizeof *out);
	prompt_status(&st->pr, out);
	out->over = st->end_reason != DW_END_NONE;
	out->turn = turn_seat(st);
	out->epoch = st->epoch;
	for (int s = 0; s < st->nplayers; s++)
		out->score[s] = out->over ? seat_score(st, s) : running_score(st, s);
}

/* What the greedy bot weighs (game.h, bot_worth): minus its hand cards
 * while the party runs, the party's points once it is over. */
static long long dw_bot_worth(const void *vst, int seat)
{
	const struct dw_state *st = vst;
	return st->end_reason != DW_END_NONE ? seat_score(st, seat) : -st->nhand[seat];
}

/* What the live prompt asks (game.h, doing): public, the same for all. */
static const char *dw_doing(const void *vst)
{
	const struct dw_state *st = vst;
	switch (prompt_kind(&st->pr)) {
	case DW_PR_TURN:
		return N_("legen, fressen oder ziehen");
	case DW_PR_SNAP:
		return N_("Zwischenwurf");
	default:
		return NULL;
	}
}

/* Move texts are built here; the longest is "chicken gelb on 3". */
struct dw_mbuf {
	char s[48];
};

/* One legal move, before it is spelled: its verb, the hand card it plays
 * (-1: none) and the stack (-1: none). */
struct dw_move {
	enum dw_verb verb;
	int card, stack;
};

/* The one list of seat's legal moves, in canonical order (moves(), the
 * buttons and so the simulator's choices depend on it): during a window
 * its snaps, one per face, and pass; on its turn, per face in hand, every
 * stack a play or a chicken fits, then drawing with each stack to turn.
 * Calls fn for each; returns how many. */
static int legal_moves(const struct dw_state *st, int seat,
		       void (*fn)(void *ctx, const struct dw_move *mv), void *ctx)
{
	int count = 0;
	if (seat < 0 || seat >= st->nplayers || st->end_reason != DW_END_NONE)
		return 0;
	const uint16_t *h = st->hand[seat];
	int nh = st->nhand[seat], snap = snap_stack(st);
	if (snap >= 0) {
		if (!prompt_waits(&st->pr, seat))
			return 0;
		int top = stack_top(st, snap);
		for (int i = 0; i < nh && dw_deck[h[i]].kind != DW_CHICKEN; i++) {
			if ((i > 0 && same_face(h[i], h[i - 1])) || !worm_fits(h[i], top, st->snap_colour))
				continue;
			fn(ctx, &(struct dw_move){ DW_MV_SNAP, h[i], snap });
			count++;
		}
		fn(ctx, &(struct dw_move){ DW_MV_PASS, -1, -1 });
		return count + 1;
	}
	if (seat != turn_seat(st))
		return 0;
	int tops[DW_STACKS];
	for (int k = 0; k < DW_STACKS; k++)
		tops[k] = stack_top(st, k);
	for (int i = 0; i < nh; i++) {
		if (i > 0 && same_face(h[i], h[i - 1]))
			continue;
		int chicken = dw_deck[h[i]].kind == DW_CHICKEN;
		for (int k = 0; k < DW_STACKS; k++) {
			if (chicken ? !chicken_fits(h[i], tops[k]) : !worm_fits(h[i], tops[k], 0))
				continue;
			fn(ctx, &(struct dw_move){ chicken ? DW_MV_CHICKEN : DW_MV_PLAY, h[i], k });
			count++;
		}
	}
	for (int k = 0; st->pile.n > 0 && k < DW_STACKS; k++) {
		fn(ctx, &(struct dw_move){ DW_MV_DRAW, -1, k });
		count++;
	}
	return count;
}

/* mv in canonical spelling ("play gelb-4 on 1", "snap rot-7", "pass",
 * "draw turn 2"). */
/* A legal move in canonical spelling, through the table of verbs (the
 * form the reader checks is the form written). */
static void move_text(const struct dw_move *mv, struct dw_mbuf *m)
{
	char card[16], stack[2] = { (char)('1' + mv->stack), '\0' };
	const char *args[2];
	int n = 0, len = 0;
	if (mv->card >= 0) {
		put_card(card, &len, mv->card);
		args[n++] = card;
	}
	if (mv->verb != DW_MV_SNAP && mv->stack >= 0)
		args[n++] = stack;
	mt_spell(&dw_verbs[mv->verb], args, n, m->s, sizeof m->s);
}

struct emit_ctx {
	move_emit_fn emit;
	void *ctx;
};

static void emit_text(void *vc, const struct dw_move *mv)
{
	struct emit_ctx *c = vc;
	struct dw_mbuf m;
	move_text(mv, &m);
	c->emit(c->ctx, m.s);
}

/* Emits every legal move of seat in canonical spelling (legal_moves()). */
static int dw_moves(const void *vst, int seat, move_emit_fn emit, void *ctx)
{
	struct emit_ctx c = { emit, ctx };
	return legal_moves(vst, seat, emit_text, &c);
}

/* ---- snapshot and invariants ---------------------------------------- */

/* The snapshot: every field of the state in a fixed order, counted arrays
 * only up to their counts, so equal positions encode to equal bytes.
 * 0, or -1 when the buffer is too small. */
static int dw_encode(const void *vst, struct buf *b)
{
	const struct dw_state *st = vst;
	size_t start = snap_begin(b, "drehwurm", DW_FORMAT);
	ser_u8(b, (unsigned)st->nplayers);
	ser_u8(b, (unsigned)st->dealer);
	ser_u16(b, (unsigned)st->snap_seconds);
	ser_u8(b, (unsigned)st->snap_colour);
	ser_rng(b, &st->rng);
	ser_u8(b, (unsigned)st->end_reason);
	ser_u32(b, st->epoch);
	prompt_encode(b, &st->pr);
	for (int s = 0; s < st->nplayers; s++)
		ser_u16s(b, st->hand[s], st->nhand[s]);
	ser_u16s(b, st->pile.c, st->pile.n);
	for (int k = 0; k < DW_STACKS; k++)
		ser_u16s(b, st->stack[k].c, st->stack[k].n);
	for (int s = 0; s < st->nplayers; s++) {
		ser_u8(b, (unsigned)st->neaten[s]);
		for (int i = 0; i < st->neaten[s]; i++) {
			ser_u16(b, st->eaten[s][i].chicken);
			ser_u16s(b, st->eaten[s][i].c, st->eaten[s][i].n);
		}
	}
	ser_u16s(b, st->spare, st->nspare);
	evlog_encode(b, &st->log, 0);
	for (int k = 0; k < DW_STACKS; k++)
		ser_u8(b, st->bottom_public[k]);
	return snap_end(b, start);
}

/* The cards check() has found: which ids, how many, and whether one came twice. */
struct seen {
	uint8_t at[DW_CARDS];
	int count, twice;
};

/* Records every card of a[0..n); -1 on an id outside the kind's range
 * (want_chicken 1: the chickens, 0: the worm cards; dw_deck lists the worm
 * cards first). */
static int mark(struct seen *sn, const uint16_t *a, int n, int want_chicken)
{
	unsigned lo = want_chicken ? DW_WORMS : 0, hi = want_chicken ? DW_CARDS : DW_WORMS;
	for (int i = 0; i < n; i++) {
		if (a[i] < lo || a[i] >= hi)
			return -1;
		sn->twice |= sn->at[a[i]];
		sn->at[a[i]] = 1;
	}
	sn->count += n;
	return 0;
}

/* The prompts: none once over; else the regular turn of one seat, without
 * deadline, and over it perhaps the snap window of a stack for every seat
 * but the one that turned it (whose left neighbour is on turn), some of
 * them still waiting, with a deadline. */
static int check_prompts(const struct dw_state *st, struct rerr *e)
{
	int n = st->nplayers;
	const struct prompts *ps = &st->pr;
	if (prompt_check(ps, DW_PR__MAX, n, e) != 0)
		return -1;
	if ((ps->n == 0) != (st->end_reason != DW_END_NONE) || ps->n > 2)
		return rerr_set(e, "%d Aufforderungen, Ende %d", ps->n, st->end_reason);
	if (ps->n == 0)
		return 0;
	const struct prompt *t = &ps->p[0], *w = &ps->p[1];
	if (t->kind != DW_PR_TURN || t->owner < 0 || t->seats != 1u << t->owner ||
	    t->waiting != t->seats || t->flags || t->deadline || t->arg)
		return rerr_set(e, "Zug ungültig");
	if (ps->n == 2 && (w->kind != DW_PR_SNAP || w->flags != PROMPT_WINDOW || w->owner < 0 ||
			   w->arg >= DW_STACKS || w->seats != (((1u << n) - 1) & ~(1u << w->owner)) ||
			   w->waiting == 0 || w->deadline <= 0 || t->owner != seat_next(w->owner, n)))
		return rerr_set(e, "Zwischenwurf-Fenster ungültig");
	return 0;
}

/* Every invariant of a position: each of the 105 cards in exactly one
 * place and of the right kind for it, the counts, sorted hands, whose turn,
 * the snap window, and that the prompts agree with the end rules. */
static int dw_check(const void *vst, struct rerr *e)
{
	const struct dw_state *st = vst;
	struct seen seen;
	int n = st->nplayers;
	if (n < 3 || n > DW_SEATS)
		return rerr_set(e, "Spieleranzahl %d", n);
	if (st->dealer < 0 || st->dealer >= n)
		return rerr_set(e, "Geber %d", st->dealer);
	if (st->snap_seconds < dw_options[DW_OPT_SNAP_SECONDS].min ||
	    st->snap_seconds > dw_options[DW_OPT_SNAP_SECONDS].max ||
	    st->snap_colour < 0 || st->snap_colour > 1)
		return rerr_set(e, "Optionen außerhalb des Bereichs");
	if (st->end_reason < 0 || st->end_reason >= DW_END__MAX)
		return rerr_set(e, "Ende %d", st->end_reason);
	if (check_prompts(st, e) != 0)
		return -1;
	int chickens_in_hands = 0, empty_hand = 0;
	memset(&seen, 0, sizeof seen);
	for (int s = 0; s < n; s++) {
		if (st->nhand[s] < 0 || st->nhand[s] > DW_HAND_CAP)
			return rerr_set(e, "Hand %d: %d Karten", s, st->nhand[s]);
		for (int i = 1; i < st->nhand[s]; i++)
			if (st->hand[s][i] <= st->hand[s][i - 1])
				return rerr_set(e, "Hand %d: nicht sortiert", s);
		if (st->nhand[s] > 0 && st->hand[s][st->nhand[s] - 1] >= DW_CARDS)
			return rerr_set(e, "Hand %d: unbekannte Karte", s);
		int hc = hand_chickens(st, s), hw = st->nhand[s] - hc;
		if (mark(&seen, st->hand[s], hw, 0) || mark(&seen, st->hand[s] + hw, hc, 1))
			return rerr_set(e, "Hand %d: ungültige oder doppelte Karte", s);
		chickens_in_hands += hc;
		empty_hand |= st->nhand[s] == 0;
		if (st->neaten[s] < 0 || st->neaten[s] > DW_EATEN_CAP ||
		    hc + st->neaten[s] != DW_DEAL_CHICKENS)
			return rerr_set(e, "Platz %d: %d Hühner auf der Hand, %d gefressene Stapel", s, hc,
					st->neaten[s]);
		for (int i = 0; i < st->neaten[s]; i++) {
			const struct dw_eaten *ea = &st->eaten[s][i];
			if (ea->n < 2 || ea->n > DW_WORMS || mark(&seen, &ea->chicken, 1, 1) ||
			    mark(&seen, ea->c, ea->n, 0))
				return rerr_set(e, "Platz %d: gefressener Stapel %d ungültig", s, i);
		}
	}
	for (int s = n; s < DW_SEATS; s++)
		if (st->nhand[s] != 0 || st->neaten[s] != 0)
			return rerr_set(e, "leerer Platz %d hat Karten", s);
	if (st->pile.n < 0 || st->pile.n > DW_WORMS || mark(&seen, st->pile.c, st->pile.n, 0))
		return rerr_set(e, "Nachziehstapel ungültig");
	int empty_stacks = 0;
	for (int k = 0; k < DW_STACKS; k++) {
		if (st->stack[k].n < 0 || st->stack[k].n > DW_WORMS ||
		    mark(&seen, st->stack[k].c, st->stack[k].n, 0))
			return rerr_set(e, "Stapel %d ungültig", k + 1);
		if (st->stack[k].n == 1)
			return rerr_set(e, "Stapel %d hat nur eine Karte", k + 1);
		if (st->bottom_public[k] > (st->stack[k].n > 0))
			return rerr_set(e, "Stapel %d: unterste Karte offen ungültig", k + 1);
		empty_stacks += st->stack[k].n == 0;
	}
	if (st->nspare != DW_CHICKENS - DW_DEAL_CHICKENS * n || mark(&seen, st->spare, st->nspare, 1))
		return rerr_set(e, "übrige Hühner ungültig");
	if (seen.twice || seen.count != DW_CARDS)
		return rerr_set(e, "%d Karten statt %d, oder eine doppelt", seen.count, DW_CARDS);
	if (st->end_reason == DW_END_NONE) {
		if (empty_hand || chickens_in_hands == 0 || st->pile.n == 0 || empty_stacks)
			return rerr_set(e, "Partie läuft, obwohl sie vorbei sein müsste");
	} else {
		int why = st->end_reason;
		if ((why == DW_END_HAND_EMPTY && !empty_hand) ||
		    (why == DW_END_CHICKENS_USED && chickens_in_hands) ||
		    (why == DW_END_PILE_EMPTY && st->pile.n) ||
		    (why == DW_END_PILE_SHORT && empty_stacks != 1))
			return rerr_set(e, "Ende %d passt nicht zur Lage", why);
		if (empty_stacks > 1 || (empty_stacks && st->pile.n >= 2))
			return rerr_set(e, "leerer Stapel, obwohl ein neuer hätte liegen müssen");
	}
	if (st->epoch > epoch_max(n))
		return rerr_set(e, "Epoche %u über der Grenze %u", (unsigned)st->epoch,
				(unsigned)epoch_max(n));
	if (evlog_check(&st->log, DW_LOG_MAX, DW_EV__MAX, n, e) != 0)
		return -1;
	for (int i = 0; i < st->log.n; i++) {
		const struct game_event *ev = &st->log.ev[i];
		if (ev->seat >= n || ev->where >= DW_STACKS ||
		    ev->card >= DW_CARDS || ev->num >= DW_CARDS || ev->n != 0 ||
		    (ev->type == DW_EV_CHICKEN && dw_deck[ev->card].kind != DW_CHICKEN) ||
		    (ev->type == DW_EV_END && (ev->arg == DW_END_NONE || ev->arg >= DW_END__MAX)))
			return rerr_set(e, "Protokolleintrag %d ungültig", i);
	}
	return 0;
}

/* Reads a snapshot into a scratch state, range-checking every field, then
 * runs check(); *vst is written only when all of it passed. */
static int dw_decode(void *vst, struct de *d, struct rerr *e)
{
	struct dw_state *t = vst;
	t->nplayers = (int)de_u8(d);
	t->dealer = (int)de_u8(d);
	t->snap_seconds = (int)de_u16(d);
	t->snap_colour = (int)de_u8(d);
	de_rng(d, &t->rng);
	t->end_reason = (int)de_u8(d);
	t->epoch = de_u32(d);
	if (prompt_decode(d, &t->pr) != 0 || d->err || t->nplayers < 3 || t->nplayers > DW_SEATS)
		return rerr_set(e, "Spielstand beschädigt: Spieleranzahl");
	for (int s = 0; s < t->nplayers; s++)
		t->nhand[s] = de_u16s(d, t->hand[s], DW_HAND_CAP);
	t->pile.n = de_u16s(d, t->pile.c, DW_WORMS);
	for (int k = 0; k < DW_STACKS; k++)
		t->stack[k].n = de_u16s(d, t->stack[k].c, DW_WORMS);
	for (int s = 0; s < t->nplayers && !d->err; s++) {
		t->neaten[s] = (int)de_u8(d);
		if (t->neaten[s] > DW_EATEN_CAP)
			return rerr_set(e, "Spielstand beschädigt: gefressene Stapel");
		for (int i = 0; i < t->neaten[s]; i++) {
			t->eaten[s][i].chicken = (uint16_t)de_u16(d);
			t->eaten[s][i].n = de_u16s(d, t->eaten[s][i].c, DW_WORMS);
		}
	}
	t->nspare = de_u16s(d, t->spare, DW_CHICKENS);
	if (evlog_decode(d, &t->log, DW_LOG_MAX, 0) != 0)
		return rerr_set(e, "Spielstand beschädigt: Protokoll");
	/* Fassung 1 did not record it: a stack of three or more cards has been
	 * turned (a card is only laid or snapped onto a stack that turns), so
	 * its bottom is public; one of two cards stays hidden, which may hide
	 * a card that was public but never shows a secret one. */
	for (int k = 0; k < DW_STACKS; k++)
		t->bottom_public[k] = (uint8_t)de_u8(d);
	return 0;
}

/* ---- view ----------------------------------------------------------- */

/* The face fields of one card in the current section: its name, its colour
 * spelled as in moves ("grün"; "joker" for a joker) and the ASCII class
 * token the board's CSS uses ("gruen"). A view_group: the JSON writer
 * copies them from its memo. */
static void card_entries(struct view_sink *v, int id)
{
	const struct dw_card *c = &dw_deck[id];
	vtext(v, "name", card_name(id));
	vstr(v, "colour", c->kind == DW_JOKER ? "joker" : colour_word[c->colour]);
	vstr(v, "colour_class", c->kind == DW_JOKER ? "joker" : colour_ascii[c->colour]);
	vstr(v, "rank", c->kind == DW_WORM ? rank_word[c->rank] : c->kind == DW_JOKER ? "J" : "");
	vflag(v, "is_worm", c->kind == DW_WORM);
	vflag(v, "is_joker", c->kind == DW_JOKER);
	vflag(v, "is_chicken", c->kind == DW_CHICKEN);
	vflag(v, "wide_rank", c->kind == DW_WORM && c->rank == 1);
}

static const struct view_group card_group = { card_entries, DW_CARDS };

/* The face fields of card id, a card the viewer sees. */
static void emit_card(struct view_sink *v, int id)
{
	vgroup(v, &card_group, id);
}

/* One public event as a sentence under key (seats as @N), one whole
 * format per kind of event so that the platform can translate it. */
static void event_say(const struct game_event *ev, struct view_sink *v, const char *key)
{
	switch (ev->type) {
	case DW_EV_PLAY:
		vtextf(v, key, "@%d legt %s auf Stapel %d und dreht ihn: oben liegt %s.", ev->seat,
		       card_name(ev->card), ev->where + 1, card_name(ev->num));
		break;
	case DW_EV_SNAP:
		vtextf(v, key, "@%d wirft %s auf Stapel %d zwischen.", ev->seat, card_name(ev->card),
		       ev->where + 1);
		break;
	case DW_EV_CHICKEN:
		vtextf(v, key, "@%d frisst mit dem Huhn in %s Stapel %d (%d Karten).", ev->seat,
		       colour_word[dw_deck[ev->card].colour], ev->where + 1, ev->arg);
		break;
	case DW_EV_NEW_STACK:
		vtextf(v, key, "Neuer Drehwurm als Stapel %d: oben liegt %s.", ev->where + 1,
		       card_name(ev->num));
		break;
	case DW_EV_DRAW_TURN:
		vtextf(v, key, "@%d zieht eine Karte und dreht Stapel %d: oben liegt %s.", ev->seat,
		       ev->where + 1, card_name(ev->num));
		break;
	default:
		if (ev->arg == DW_END_HAND_EMPTY)
			vtextf(v, key, end_text[DW_END_HAND_EMPTY], ev->seat);
		else
			vtext(v, key, end_text[ev->arg < DW_END__MAX ? ev->arg : 0]);
		break;
	}
}

/* One public event as its German sentence in out[0..cap), the very words
 * event_say() hands the log (the tests read it so). */
__attribute__((unused))
static void event_text(const struct game_event *ev, char *out, size_t cap)
{
	evlog_text(ev, event_say, out, cap);
}

/* The legal moves of one seat, kept for drawing them as buttons. */
struct move_list {
	int n;
	struct dw_move mv[DW_HAND_CAP * DW_STACKS + DW_STACKS + 1];
};

static void keep_move(void *ctx, const struct dw_move *mv)
{
	struct move_list *l = ctx;
	if (l->n < (int)(sizeof l->mv / sizeof l->mv[0]))
		l->mv[l->n++] = *mv;
}

/* A button for mv in the current section, its label naming the card and
 * the stack ("gelb 4 auf Stapel 1", "Huhn lila frisst Stapel 2") so that it
 * reads right without the card drawn above it. */
static void move_button(struct view_sink *v, const char *section, const struct dw_move *mv)
{
	struct dw_mbuf m;
	const char *name = mv->card >= 0 ? card_name(mv->card) : "";
	move_text(mv, &m);
	vbegin(v, section);
	vstr(v, "move", m.s);
	switch (mv->verb) {
	case DW_MV_PLAY:
		vtextf(v, "label", "%s auf Stapel %d", name, mv->stack + 1);
		break;
	case DW_MV_CHICKEN:
		vtextf(v, "label", "%s frisst Stapel %d", name, mv->stack + 1);
		break;
	case DW_MV_SNAP:
		vtextf(v, "label", "%s zwischenwerfen auf Stapel %d", name, mv->stack + 1);
		break;
	case DW_MV_PASS:
		vtext(v, "label", "Nicht zwischenwerfen");
		break;
	case DW_MV_DRAW:
	default:
		vtextf(v, "label", "Karte ziehen und Stapel %d drehen", mv->stack + 1);
		break;
	}
	vend(v);
}

/* seat's hand, each card with the buttons of its legal moves (every copy
 * of a face shows them), then drawing and passing (legal_moves()). */
static void view_hand(const struct dw_state *st, int seat, struct view_sink *v)
{
	struct move_list l;
	l.n = 0;
	legal_moves(st, seat, keep_move, &l);
	const uint16_t *h = st->hand[seat];
	for (int i = 0; i < st->nhand[seat]; i++) {
		vbegin(v, "hand");
		emit_card(v, h[i]);
		for (int k = 0; k < l.n; k++)
			if (l.mv[k].card >= 0 && same_face(l.mv[k].card, h[i]))
				move_button(v, "moves", &l.mv[k]);
		vend(v);
	}
	for (int k = 0; k < l.n; k++)
		if (l.mv[k].verb == DW_MV_DRAW || l.mv[k].verb == DW_MV_PASS)
			move_button(v, l.mv[k].verb == DW_MV_DRAW ? "draw_moves" : "pass_move",
				    &l.mv[k]);
}

/* The headline of a finished party: its winners and their points, one
 * whole sentence per number of winners so that each can be translated. */
static void winners_headline(const struct dw_state *st, struct view_sink *v)
{
	int best = 0, nbest = 0, w[DW_SEATS];
	for (int s = 0; s < st->nplayers; s++) {
		int p = seat_score(st, s);
		if (s == 0 || p > best) {
			best = p;
			nbest = 0;
		}
		if (p == best)
			w[nbest++] = s;
	}
	switch (nbest) {
	case 1:
		vtextf(v, "headline", "Die Partie ist vorbei: @%d gewinnt mit %d Punkten.", w[0], best);
		break;
	case 2:
		vtextf(v, "headline", "Die Partie ist vorbei: @%d und @%d gewinnen gemeinsam mit %d "
		       "Punkten.", w[0], w[1], best);
		break;
	case 3:
		vtextf(v, "headline", "Die Partie ist vorbei: @%d, @%d und @%d gewinnen gemeinsam mit "
		       "%d Punkten.", w[0], w[1], w[2], best);
		break;
	case 4:
		vtextf(v, "headline", "Die Partie ist vorbei: @%d, @%d, @%d und @%d gewinnen "
		       "gemeinsam mit %d Punkten.", w[0], w[1], w[2], w[3], best);
		break;
	case 5:
		vtextf(v, "headline", "Die Partie ist vorbei: @%d, @%d, @%d, @%d und @%d gewinnen "
		       "gemeinsam mit %d Punkten.", w[0], w[1], w[2], w[3], w[4], best);
		break;
	default:
		vtextf(v, "headline", "Die Partie ist vorbei: @%d, @%d, @%d, @%d, @%d und @%d "
		       "gewinnen gemeinsam mit %d Punkten.", w[0], w[1], w[2], w[3], w[4], w[5],
		       best);
		break;
	}
}

/* The headline: the end, the snap window (and whether seat me may snap),
 * or whose turn it is; each a whole sentence. */
static void view_headline(const struct dw_state *st, int me, struct view_sink *v)
{
	int k = snap_stack(st), turn = turn_seat(st);
	if (st->end_reason != DW_END_NONE)
		winners_headline(st, v);
	else if (k >= 0 && !prompt_waits(&st->pr, me))
		vtextf(v, "headline", "Zwischenwurf auf Stapel %d möglich.", k + 1);
	else if (k >= 0 && can_snap(st, me, k))
		vtextf(v, "headline", "Zwischenwurf auf Stapel %d möglich — du darfst eine Karte "
		       "zwischenwerfen.", k + 1);
	else if (k >= 0)
		vtextf(v, "headline", "Zwischenwurf auf Stapel %d möglich — du hast keine passende "
		       "Karte.", k + 1);
	else if (turn == me)
		vtext(v, "headline", "Du bist am Zug.");
	else
		vtextf(v, "headline", "@%d ist am Zug.", turn);
}

/* The stacks: size, top card, and the bottom card while it is public. */
/* The stack the newest event changed (the board marks it "last"), with
 * what happened to it; -1 when none did (the start, the end). */
static int last_stack(const struct dw_state *st, const char **what)
{
	static const char *const text[DW_EV__MAX] = {
		[DW_EV_PLAY] = N_("zuletzt gelegt und gedreht"),
		[DW_EV_SNAP] = N_("zuletzt dazwischengeworfen"),
		[DW_EV_CHICKEN] = N_("zuletzt gefressen"),
		[DW_EV_NEW_STACK] = N_("zuletzt neu gelegt"),
		[DW_EV_DRAW_TURN] = N_("zuletzt gedreht"),
	};
	if (!st->log.n)
		return -1;
	const struct game_event *ev = &st->log.ev[st->log.n - 1];
	if (ev->type >= DW_EV__MAX || !text[ev->type] || ev->where >= DW_STACKS)
		return -1;
	*what = text[ev->type];
	return ev->where;
}

static void view_stacks(const struct dw_state *st, struct view_sink *v)
{
	const char *what = NULL;
	int last = last_stack(st, &what);
	for (int k = 0; k < DW_STACKS; k++) {
		vbegin(v, "stacks");
		vnum(v, "stack", k + 1);
		vflag(v, "last", k == last);
		if (k == last)
			vtext(v, "last_text", what);
		vnum(v, "size", st->stack[k].n);
		vflag(v, "empty", st->stack[k].n == 0);
		vflag(v, "has_top", st->stack[k].n > 0);
		if (st->stack[k].n > 0)
			emit_card(v, stack_top(st, k));
		int known = st->stack[k].n > 0 && st->bottom_public[k];
		vflag(v, "next_known", known);
		vflag(v, "next_hidden", st->stack[k].n > 0 && !known);
		if (known) {
			vbegin(v, "next");
			emit_card(v, st->stack[k].c[0]);
			vend(v);
		}
		vflag(v, "is_snap", snap_stack(st) == k);
		vend(v);
	}
}

/* Every seat's public counts and eaten stacks (their cards and the score
 * breakdown once the party is over). */
static void view_seats(const struct dw_state *st, int me, struct view_sink *v)
{
	int over = st->end_reason != DW_END_NONE;
	for (int s = 0; s < st->nplayers; s++) {
		vbegin(v, "seats");
		vnum(v, "seat", s);
		vflag(v, "is_me", s == me);
		vflag(v, "is_turn", s == turn_seat(st));
		vflag(v, "is_dealer", s == st->dealer);
		vnum(v, "hand_count", st->nhand[s]);
		vnum(v, "chickens_left", hand_chickens(st, s));
		vnum(v, "eaten_count", st->neaten[s]);
		for (int i = 0; i < st->neaten[s]; i++) {
			const struct dw_eaten *ea = &st->eaten[s][i];
			vbegin(v, "eaten");
			vstr(v, "colour", colour_word[dw_deck[ea->chicken].colour]);
			vstr(v, "colour_class", colour_ascii[dw_deck[ea->chicken].colour]);
			vtext(v, "chicken_name", card_name(ea->chicken));
			vnum(v, "size", ea->n);
			vflag(v, "open", over);
			if (over) {
				vnum(v, "points", eaten_points(ea));
				for (int j = 0; j < ea->n; j++) {
					vbegin(v, "cards");
					emit_card(v, ea->c[j]);
					vend(v);
				}
			}
			vend(v);
		}
		vflag(v, "final", over);
		vflag(v, "running", !over);
		if (!over) {
			vnum(v, "running_score", running_score(st, s));
			vflag(v, "at_least", st->neaten[s] > 0);
			vflag(v, "exact", st->neaten[s] == 0);
		}
		if (over) {
			int total = seat_score(st, s);
			vnum(v, "eaten_points", total + st->nhand[s]);
			vnum(v, "hand_minus", -st->nhand[s]);
			vnum(v, "score", total);
		}
		vend(v);
	}
}

/* The board as seat sees it (-1: spectator): stacks with their top card
 * and, when it is public, the bottom card the next turn-over shows; the
 * draw pile size, every seat's counts and eaten stacks (contents once the
 * party is over), the snap window, the recent events, and only for seat its
 * own hand with a button per legal move. */
static void dw_view(const void *vst, int seat, struct view_sink *v)
{
	const struct dw_state *st = vst;
	int me = seat >= 0 && seat < st->nplayers ? seat : -1;
	int over = st->end_reason != DW_END_NONE, k = snap_stack(st), turn = turn_seat(st);
	int mine = k >= 0 && prompt_waits(&st->pr, me);

	view_headline(st, me, v);
	vflag(v, "over", over);
	if (!over)
		vnum(v, "turn_seat", turn);
	vnum(v, "draw_count", st->pile.n);
	vnum(v, "snap_seconds", st->snap_seconds);
	vflag(v, "snap_colour", st->snap_colour);

	view_stacks(st, v);

	vflag(v, "snap", k >= 0);
	if (k >= 0) {
		const struct prompt *w = prompt_peek(&st->pr);
		vbegin(v, "window");
		vnum(v, "stack", k + 1);
		vnum(v, "opener_seat", w->owner);
		vnum(v, "deadline_ms", w->deadline);
		vflag(v, "in_window", mine);
		vflag(v, "may_snap", mine && can_snap(st, me, k));
		vend(v);
	}

	view_seats(st, me, v);

	if (me >= 0) {
		vflag(v, "has_hand", 1);
		view_hand(st, me, v);
	} else {
		vflag(v, "has_hand", 0);
	}

	evlog_view_text(&st->log, v, event_say);
}

/* ---- scramble ------------------------------------------------------- */

/* Cards collected from hidden places (take), shuffled, and dealt back in
 * the same order of places (give). */
struct pool {
	uint16_t c[DW_CARDS];
	int n, at;
};

/* Appends a[0..n) to the pool. */
static void pool_take(struct pool *pl, const uint16_t *a, int n)
{
	memcpy(pl->c + pl->n, a, sizeof a[0] * (size_t)n);
	pl->n += n;
}

/* Refills a[0..n) from the pool, in the pool's order. */
static void pool_give(struct pool *pl, uint16_t *a, int n)
{
	memcpy(a, pl->c + pl->at, sizeof a[0] * (size_t)n);
	pl->at += n;
}

/* Sorts a hand (few cards: insertion sort). */
static void sort_hand(uint16_t *a, int n)
{
	for (int i = 1; i < n; i++) {
		uint16_t x = a[i];
		int j = i;
		for (; j > 0 && a[j - 1] > x; j--)
			a[j] = a[j - 1];
		a[j] = x;
	}
}

/* Re-deals with `seed` everything seat cannot see, keeping every count and
 * every visible card: other hands (worms with worms, chickens with the
 * undealt chickens), the draw pile, the cards between each stack's top and
 * its bottom (the bottom too while it is face down), and eaten stacks'
 * contents while the party runs. */
static void dw_scramble(void *vst, int seat, uint64_t seed)
{
	struct dw_state *st = vst;
	struct pool worms = { .n = 0 }, chick = { .n = 0 };
	struct rng r;
	int over = st->end_reason != DW_END_NONE, n = st->nplayers;
	rng_seed(&r, seed);

	for (int pass = 0; pass < 2; pass++) {
		for (int s = 0; s < n; s++) {
			if (s == seat)
				continue;
			int hc = hand_chickens(st, s), hw = st->nhand[s] - hc;
			if (pass == 0) {
				pool_take(&worms, st->hand[s], hw);
				pool_take(&chick, st->hand[s] + hw, hc);
			} else {
				pool_give(&worms, st->hand[s], hw);
				pool_give(&chick, st->hand[s] + hw, hc);
				sort_hand(st->hand[s], st->nhand[s]);
			}
		}
		for (int s = 0; s < n && !over; s++)
			for (int i = 0; i < st->neaten[s]; i++) {
				struct dw_eaten *ea = &st->eaten[s][i];
				if (pass == 0)
					pool_take(&worms, ea->c, ea->n);
				else
					pool_give(&worms, ea->c, ea->n);
			}
		for (int k = 0; k < DW_STACKS; k++) {
			int from = st->bottom_public[k], below = st->stack[k].n > 0 ? st->stack[k].n - 1 : 0;
			if (pass == 0)
				pool_take(&worms, st->stack[k].c + from, below - from);
			else
				pool_give(&worms, st->stack[k].c + from, below - from);
		}
		if (pass == 0) {
			pool_take(&worms, st->pile.c, st->pile.n);
			pool_take(&chick, st->spare, st->nspare);
			/* from id order: the re-deal depends on nothing hidden */
			pile_sort(worms.c, worms.n);
			pile_sort(chick.c, chick.n);
			rng_shuffle(&r, worms.c, worms.n);
			rng_shuffle(&r, chick.c, chick.n);
		} else {
			pool_give(&worms, st->pile.c, st->pile.n);
			pool_give(&chick, st->spare, st->nspare);
		}
	}
	rng_seed(&st->rng, rng_next(&r));   /* what the generator would deal later is hidden too */
}

/* A move from a page older than the last card, eat or turn-over: a snap
 * that lost the window to another snap (the newest event, or the one before
 * the end it caused) is told who snapped. */
static int dw_late(const void *vst, int seat, const char *move, struct rerr *e)
{
	const struct dw_state *st = vst;
	struct mtok t;
	struct rerr ve;
	int i = st->log.n - 1;
	(void)seat;
	if (mt_split(move, &t, &ve) != 0 || !mt_is(&t, 0, "snap") || i < 0)
		return GAME_LATE_STALE;
	if (st->log.ev[i].type == DW_EV_END && i > 0)
		i--;
	const struct game_event *ev = &st->log.ev[i];
	if (ev->type == DW_EV_SNAP)
		rerr_set(e, "Zu spät: @%d hat schon auf Stapel %d zwischengeworfen.", ev->seat,
			 ev->where + 1);
	return GAME_LATE_STALE;
}

const struct game drehwurm_game = {
	.slug = "drehwurm",
	.title = "Drehwurm",
	.tagline = N_("Wurmkarten auf Stapel legen, die sich drehen, und mit Hühnern die besten "
		      "Stapel fressen."),
	.summary = N_("Wer am Zug ist, legt eine Wurmkarte auf einen der drei Stapel (andere Farbe, "
		      "Nachbarzahl) oder zieht und dreht einen Stapel. Nach jedem Drehen dürfen die "
		      "anderen schnell eine passende Karte dazwischenwerfen. Ein Huhn frisst einen "
		      "Stapel, dessen oberste Karte seine Farbe hat. Gefressene Stapel bringen "
		      "Punkte, Karten auf der Hand am Ende Minuspunkte; ein Match hat so viele "
		      "Partien, wie Personen mitspielen."),
	.min_players = 3,
	.max_players = DW_SEATS,
	.state_size = sizeof(struct dw_state),
	.options = dw_options,
	.noptions = DW_OPT__MAX,
	.parties = dw_parties,
	.setup = dw_setup,
	.apply = dw_apply,
	.tick = dw_tick,
	.status = dw_status,
	.bot_worth = dw_bot_worth,
	.moves = dw_moves,
	.verbs = dw_verbs,
	.nverbs = DW_MV__MAX,
	.snap_format = DW_FORMAT,
	.snap_format_min = DW_FORMAT,
	.encode = dw_encode,
	.decode = dw_decode,
	.check = dw_check,
	.view = dw_view,
	.doing = dw_doing,
	.scramble = dw_scramble,
	.late = dw_late,
};
