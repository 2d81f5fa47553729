/*
 * dna.c — DNA: branching strands of SET cards, simultaneous secret choices,
 * resolved clockwise from the deck holder.
 *
 * Cards: id = copy * 81 + face; face = number + 3*colour + 9*fill + 27*shape,
 * every attribute 0..2. Several decks give identical faces; identical cards
 * are interchangeable, so moves name faces and the rules take the copy with
 * the lowest id.
 *
 * The table is a graph: every placed card links to up to DNA_JOIN_MAX cards
 * placed before it. An end is a (previous, last) pair; it exists exactly when
 * `last` has one neighbour, `previous`. Strands are the connected pieces,
 * labelled by slot 0..2. The ends a turn's choices may name are copied into
 * the state when the turn starts (tend_*), so that a choice keeps its meaning
 * while the table changes during the resolution.
 *
 * Rulings are in docs/rulings.md, the move language in docs/moves-dna.md.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "bytes8.h"
#include "evlog.h"
#include "game.h"
#include "match.h"
#include "movetext.h"
#include "pile.h"
#include "prompt.h"
#include "rng.h"
#include "ser.h"

enum {
	DNA_FACES = 81,
	DNA_DECKS_MAX = 3,
	DNA_CARDS = DNA_FACES * DNA_DECKS_MAX,
	DNA_STRANDS = 3,
	DNA_JOIN_MAX = 4,     /* ends one card may join at once (ruling) */
	DNA_HAND_DEAL = 8,
	DNA_SEATS = 9,
	DNA_LOG = 32,
	DNA_RACE_SECONDS = 20,
	DNA_END_IDS = 250,    /* end ids are 1..DNA_END_IDS */
	DNA_PICK_SECONDS = 30,/* the deck holder's choice of a strand, without a turn time */
	DNA_TURN_MAX = 3000,  /* the party ends after this turn (docs/rulings.md) */
	DNA_FORMAT = 3        /* snapshot payload format (2: the shared event log;
	                       * 3: waits and deadlines as prompts) */
};
_Static_assert((int)DNA_SEATS <= (int)GAME_MAX_SEATS, "seats");
_Static_assert(DNA_CARDS <= DNA_END_IDS, "an end id per card");
/* turn numbers and card placings stay far inside their 16-bit fields: pseq
 * is renumbered 0..ntab-1 at every turn start, and a turn places at most a
 * few hundred cards (docs/rulings.md, "Limits") */
_Static_assert(DNA_TURN_MAX < 65535, "turn counter");

/* Where a card is. Hands and pending choices name their seat in own[]. */
enum loc { L_NONE, L_DECK, L_TABLE, L_HAND, L_CHOICE, L__MAX };

/* What a seat chose for this turn. */
enum choice { CH_NONE, CH_ATTACH, CH_SET, CH_DRAW, CH__MAX };

/* Where the party is. Three stages wait for the players, each with its
 * prompt (rules/prompt.h); the others run by themselves, unless the discard
 * step or the deck holder's pick interrupts them. */
enum stage {
	ST_RACE,     /* opening race window */
	ST_CHOOSE,   /* secret choices */
	ST_RESOLVE,  /* choices revealed, being resolved clockwise */
	ST_CLEANUP,  /* clear strands with a set or without ends */
	ST_REVEAL,   /* reveal a card for every missing strand */
	ST_REFILL,   /* rewarded players attach a hand card to a revealed card */
	ST_FILL,     /* revealed cards left alone take a deck card */
	ST_NEXT,     /* pass the deck, start the next turn */
	ST_OVER,
	ST__MAX
};

/* What the party waits for: the stage's prompt (for every seat still in,
 * each waiting until it has passed, chosen or refilled), or, pushed over a
 * running resolution, the discard step (those who must discard) or the
 * deck holder's pick (arg: the strand slots to pick from). The first
 * prompt's clock starts at the first tick (the platform's, at the deal). */
enum dna_prompt { PR_RACE = 1, PR_CHOOSE, PR_REFILL, PR_DISCARD, PR_PICK, PR__MAX };

/* Table options, in lobby order. */
enum opt { O_DECKS, O_PLAY_ON, O_RACE, O_TURN_SECONDS, O_LAST_MUST_DRAW, O_PENALISE, O__MAX };
_Static_assert((int)O__MAX <= (int)GAME_OPT_MAX, "options");

/* Public events kept for the log section (rules/evlog.h): `where` is the
 * strand, `card` the card shown, `num` a number (the turn, the cards
 * cleared, the place), `list` the ends a card was laid at. */
enum ev {
	EV_TURN, EV_ATTACH, EV_SET, EV_DRAW, EV_AUTODRAW, EV_FORCEDRAW, EV_MISFIT,
	EV_FALSESET, EV_CLEAR_SET, EV_CLEAR_NOENDS, EV_REVEAL, EV_REFILL, EV_DECKCARD,
	EV_RELAY, EV_DISCARD_STEP, EV_DISCARD, EV_AUTODISCARD, EV_OUT, EV_OPEN,
	EV_RACE_NONE, EV_OVER, EV_RACE, EV_PICK, EV_TURN_LIMIT, EV__MAX
};


struct dna_state {
	uint8_t n, decks, play_on, race, last_must_draw, penalise;
	uint16_t turn_seconds;
	uint16_t ncards;
	uint8_t stage, holder;
	uint16_t turn;
	uint32_t epoch;
	struct prompts pr;       /* who must decide now, until when */
	struct rng rng;

	uint8_t loc[DNA_CARDS], own[DNA_CARDS];
	uint16_t deck[DNA_CARDS];
	int ndeck;

	/* table cards */
	uint8_t strand[DNA_CARDS], npar[DNA_CARDS], endid[DNA_CARDS], setm[DNA_CARDS];
	uint16_t par[DNA_CARDS][DNA_JOIN_MAX];
	uint16_t pseq[DNA_CARDS];
	uint16_t nseq;
	/* nseq when this turn's ends were numbered: a card with pseq >= tseq
	 * was laid during the turn and is part of no start-of-turn end */
	uint16_t tseq;
	/* the table cards by ascending id: derived from loc[] (not in the
	 * snapshot), so that loops over the table skip the rest of the deck */
	int ntab;
	uint16_t tab[DNA_CARDS];

	/* the ends at the start of this turn */
	int ntend;
	uint8_t tend_id[DNA_CARDS];
	uint16_t tend_a[DNA_CARDS], tend_b[DNA_CARDS];
	uint8_t took[DNA_END_IDS + 1];   /* cards laid at each end this turn, 0..2 (2: two or more) */

	/* choices */
	uint8_t choice_kind[DNA_SEATS];                /* enum choice */
	uint16_t choice_card[DNA_SEATS];
	uint8_t choice_nends[DNA_SEATS];               /* ends named in choice_ends */
	uint8_t choice_ends[DNA_SEATS][DNA_JOIN_MAX];
	/* a draw nobody chose: 1 the deadline passed, 2 the last to choose draws */
	uint8_t choice_auto[DNA_SEATS];

	/* resolution */
	uint8_t order[DNA_SEATS], norder, resi;
	int8_t owing_seat;       /* the seat that still draws owed_cards, or -1 */
	uint8_t owed_cards;
	uint8_t rew[DNA_SEATS], nrew;
	int8_t refill_slot[DNA_SEATS];   /* the strand a rewarded seat refills, or -1 */

	/* finishing order */
	uint8_t fin[DNA_SEATS], nfin;
	uint16_t finmask;

	struct evlog log;
};

/* ---- cards ---- */

/* The words of the move codes ("2-rot-voll-welle") and the drawing's
 * classes: move language, never translated. */
static const char *const colour_name[3] = { "rot", "gruen", "lila" };
/* the colours as a person reads them (the page's language) */
static const char *const colour_word[3] = { N_("rot"), N_("grün"), N_("lila") };
static const char *const fill_name[3] = { "voll", "gestreift", "leer" };
static const char *const shape_name[3] = { "raute", "welle", "oval" };
static const int attr_div[4] = { 1, 3, 9, 27 };

/* The German name of every face, by face (number, then colour, fill and
 * shape, as face ids count). Each is a catalog message of its own, so that
 * the platform translates a card named in a sentence along with it. */
static const char *const face_label[DNA_FACES] = {
	/* Raute */
	N_("1 rot · voll · Raute"),
	N_("2 rot · voll · Raute"),
	N_("3 rot · voll · Raute"),
	N_("1 grün · voll · Raute"),
	N_("2 grün · voll · Raute"),
	N_("3 grün · voll · Raute"),
	N_("1 lila · voll · Raute"),
	N_("2 lila · voll · Raute"),
	N_("3 lila · voll · Raute"),
	N_("1 rot · gestreift · Raute"),
	N_("2 rot · gestreift · Raute"),
	N_("3 rot · gestreift · Raute"),
	N_("1 grün · gestreift · Raute"),
	N_("2 grün · gestreift · Raute"),
	N_("3 grün · gestreift · Raute"),
	N_("1 lila · gestreift · Raute"),
	N_("2 lila · gestreift · Raute"),
	N_("3 lila · gestreift · Raute"),
	N_("1 rot · leer · Raute"),
	N_("2 rot · leer · Raute"),
	N_("3 rot · leer · Raute"),
	N_("1 grün · leer · Raute"),
	N_("2 grün · leer · Raute"),
	N_("3 grün · leer · Raute"),
	N_("1 lila · leer · Raute"),
	N_("2 lila · leer · Raute"),
	N_("3 lila · leer · Raute"),
	/* Welle */
	N_("1 rot · voll · Welle"),
	N_("2 rot · voll · Welle"),
	N_("3 rot · voll · Welle"),
	N_("1 grün · voll · Welle"),
	N_("2 grün · voll · Welle"),
	N_("3 grün · voll · Welle"),
	N_("1 lila · voll · Welle"),
	N_("2 lila · voll · Welle"),
	N_("3 lila · voll · Welle"),
	N_("1 rot · gestreift · Welle"),
	N_("2 rot · gestreift · Welle"),
	N_("3 rot · gestreift · Welle"),
	N_("1 grün · gestreift · Welle"),
	N_("2 grün · gestreift · Welle"),
	N_("3 grün · gestreift · Welle"),
	N_("1 lila · gestreift · Welle"),
	N_("2 lila · gestreift · Welle"),
	N_("3 lila · gestreift · Welle"),
	N_("1 rot · leer · Welle"),
	N_("2 rot · leer · Welle"),
	N_("3 rot · leer · Welle"),
	N_("1 grün · leer · Welle"),
	N_("2 grün · leer · Welle"),
	N_("3 grün · leer · Welle"),
	N_("1 lila · leer · Welle"),
	N_("2 lila · leer · Welle"),
	N_("3 lila · leer · Welle"),
	/* Oval */
	N_("1 rot · voll · Oval"),
	N_("2 rot · voll · Oval"),
	N_("3 rot · voll · Oval"),
	N_("1 grün · voll · Oval"),
	N_("2 grün · voll · Oval"),
	N_("3 grün · voll · Oval"),
	N_("1 lila · voll · Oval"),
	N_("2 lila · voll · Oval"),
	N_("3 lila · voll · Oval"),
	N_("1 rot · gestreift · Oval"),
	N_("2 rot · gestreift · Oval"),
	N_("3 rot · gestreift · Oval"),
	N_("1 grün · gestreift · Oval"),
	N_("2 grün · gestreift · Oval"),
	N_("3 grün · gestreift · Oval"),
	N_("1 lila · gestreift · Oval"),
	N_("2 lila · gestreift · Oval"),
	N_("3 lila · gestreift · Oval"),
	N_("1 rot · leer · Oval"),
	N_("2 rot · leer · Oval"),
	N_("3 rot · leer · Oval"),
	N_("1 grün · leer · Oval"),
	N_("2 grün · leer · Oval"),
	N_("3 grün · leer · Oval"),
	N_("1 lila · leer · Oval"),
	N_("2 lila · leer · Oval"),
	N_("3 lila · leer · Oval"),
};

/* The attributes of every face, so that the tests of fit and set (every
 * move of every turn) read them instead of dividing. */
#define FACE_ATTRS(f) { (f) % 3, (f) / 3 % 3, (f) / 9 % 3, (f) / 27 % 3 }
#define FACE_ATTRS3(f) FACE_ATTRS(f), FACE_ATTRS((f) + 1), FACE_ATTRS((f) + 2)
#define FACE_ATTRS9(f) FACE_ATTRS3(f), FACE_ATTRS3((f) + 3), FACE_ATTRS3((f) + 6)
#define FACE_ATTRS27(f) FACE_ATTRS9(f), FACE_ATTRS9((f) + 9), FACE_ATTRS9((f) + 18)
static const uint8_t face_attr[DNA_FACES][4] = {
	FACE_ATTRS27(0), FACE_ATTRS27(27), FACE_ATTRS27(54)
};

/* Attribute k (0 number-1, 1 colour, 2 fill, 3 shape) of a face. */
static int attr(int f, int k)
{
	return face_attr[f][k];
}

/* The set face of every pair of faces, written once per process on first
 * use: every turn start and every move list asks it for each end. */
static uint8_t third_tab[DNA_FACES][DNA_FACES];
static int third_ready;

/* Writes third_tab[] (once; the rules run single-threaded). */
static void third_init(void)
{
	for (int fa = 0; fa < DNA_FACES; fa++)
		for (int fb = 0; fb < DNA_FACES; fb++) {
			int r = 0;
			for (int k = 0; k < 4; k++)
				r += (6 - attr(fa, k) - attr(fb, k)) % 3 * attr_div[k];
			third_tab[fa][fb] = (uint8_t)r;
		}
	third_ready = 1;
}

/* The face that makes a set with faces a and b. */
static int third(int fa, int fb)
{
	if (!third_ready)
		third_init();
	return third_tab[fa][fb];
}

/* A face packed two bits per attribute, by face, for counting differences
 * without reading four attributes. */
#define FACE_PACK(f) ((f) % 3 | (f) / 3 % 3 << 2 | (f) / 9 % 3 << 4 | (f) / 27 % 3 << 6)
#define FACE_PACK3(f) FACE_PACK(f), FACE_PACK((f) + 1), FACE_PACK((f) + 2)
#define FACE_PACK9(f) FACE_PACK3(f), FACE_PACK3((f) + 3), FACE_PACK3((f) + 6)
#define FACE_PACK27(f) FACE_PACK9(f), FACE_PACK9((f) + 9), FACE_PACK9((f) + 18)
static const uint8_t face_pack[DNA_FACES] = {
	FACE_PACK27(0), FACE_PACK27(27), FACE_PACK27(54)
};

/* A face packed two bits per attribute, for counting differences fast. */
static unsigned packed(int f)
{
	return face_pack[f];
}

/* The non-zero two-bit fields of every byte: the attributes that differ
 * between two packed faces a and b are nonzero2[a ^ b]. */
#define NZ2(x) (((x) & 3) != 0) + (((x) >> 2 & 3) != 0) + (((x) >> 4 & 3) != 0) + \
	       (((x) >> 6 & 3) != 0)
#define NZ2_4(x) NZ2(x), NZ2((x) + 1), NZ2((x) + 2), NZ2((x) + 3)
#define NZ2_16(x) NZ2_4(x), NZ2_4((x) + 4), NZ2_4((x) + 8), NZ2_4((x) + 12)
#define NZ2_64(x) NZ2_16(x), NZ2_16((x) + 16), NZ2_16((x) + 32), NZ2_16((x) + 48)
static const uint8_t nonzero2[256] = {
	NZ2_64(0), NZ2_64(64), NZ2_64(128), NZ2_64(192)
};

/* Attributes that differ between two packed faces. */
static int pdiff(unsigned a, unsigned b)
{
	return nonzero2[(a ^ b) & 0xffu];
}

/* How many attributes of two faces differ. */
static int ndiff(int fa, int fb)
{
	return pdiff(packed(fa), packed(fb));
}

/* The face (0..80) of card id c. */
static int face(int c)
{
	return c % DNA_FACES;
}

/* 1 when card x fits the end (a, b): one attribute away from the set card. */
static int fits(int x, int a, int b)
{
	return ndiff(face(x), third(face(a), face(b))) == 1;
}

/* 1 when card x completes a set with a and b. */
static int makes_set(int x, int a, int b)
{
	return face(x) == third(face(a), face(b));
}

/* The move code ("2-rot-voll-welle") of every face, by face, as literals
 * of the program (the parts are colour_name, fill_name and shape_name):
 * moves and views copy it instead of formatting it per card, and a view
 * gives it as a literal, which the page's tree points at and the JSON
 * writer copies without measuring or checking it again (cgi/view.c). */
struct face_text {
	const char *code;
	uint8_t code_len;
};
#define FACE_CODE(n, c, fl, sh) { n "-" c "-" fl "-" sh, sizeof(n "-" c "-" fl "-" sh) - 1 }
#define FACE_CODE3(c, fl, sh) FACE_CODE("1", c, fl, sh), FACE_CODE("2", c, fl, sh), \
			      FACE_CODE("3", c, fl, sh)
#define FACE_CODE9(fl, sh) FACE_CODE3("rot", fl, sh), FACE_CODE3("gruen", fl, sh), \
			   FACE_CODE3("lila", fl, sh)
#define FACE_CODE27(sh) FACE_CODE9("voll", sh), FACE_CODE9("gestreift", sh), \
			FACE_CODE9("leer", sh)
static const struct face_text face_texts[DNA_FACES] = {
	FACE_CODE27("raute"), FACE_CODE27("welle"), FACE_CODE27("oval")
};

/* Appends the n bytes at p to out at *len. */
static void put_bytes(char *out, size_t *len, const char *p, size_t n)
{
	memcpy(out + *len, p, n);
	*len += n;
}

/* The texts of face f; valid for the life of the process. */
static const struct face_text *face_text(int f)
{
	return &face_texts[f];
}

/* Writes the move code of a face ("2-rot-voll-welle") into out. */
static void face_code(int f, char *out, size_t cap)
{
	const struct face_text *t = face_text(f);
	if (cap > t->code_len)
		memcpy(out, t->code, (size_t)t->code_len + 1);
	else if (cap)
		out[0] = '\0';
}

/* 1 when the len bytes at w (no NUL among them) are the word name. One
 * pass, stopping at the first difference: every move names a card. */
static int word_is(const char *name, const char *w, size_t len)
{
	size_t k = 0;
	while (k < len && name[k] == w[k])
		k++;
	return k == len && name[k] == '\0';
}

/* Index of word w in a table of three, or -1. */
static int word3(const char *w, size_t len, const char *const *names, const char *alt)
{
	for (int i = 0; i < 3; i++)
		if (word_is(names[i], w, len))
			return i;
	if (alt && word_is(alt, w, len))
		return 1;
	return -1;
}

/* Reads a card code into a face: 0, or -1 when it is not one (four parts
 * between exactly three dashes, found in one pass). */
static int parse_face(const char *w, int *out)
{
	const char *part[4] = { w };
	size_t len[4], i = 0;
	int np = 1;
	for (; w[i]; i++)
		if (w[i] == '-') {
			if (np == 4)
				return -1;
			len[np - 1] = (size_t)(w + i - part[np - 1]);
			part[np++] = w + i + 1;
		}
	if (np != 4)
		return -1;
	len[3] = (size_t)(w + i - part[3]);
	if (len[0] != 1 || part[0][0] < '1' || part[0][0] > '3')
		return -1;
	int c = word3(part[1], len[1], colour_name, "grün");
	int fl = word3(part[2], len[2], fill_name, NULL);
	int sh = word3(part[3], len[3], shape_name, NULL);
	if (c < 0 || fl < 0 || sh < 0)
		return -1;
	*out = (part[0][0] - '1') + 3 * c + 9 * fl + 27 * sh;
	return 0;
}

/* ---- places ---- */

/* 1 while seat still holds cards (has not finished). */
/* 1 when card x, chosen as `kind` (CH_SET or CH_ATTACH), may be laid at
 * the end (a, b): it completes a set there, or it fits. */
static int joins(int kind, int x, int a, int b)
{
	return kind == CH_SET ? makes_set(x, a, b) : fits(x, a, b);
}

/* 1 when seat's choice lays a card (attach or set), which then lies in
 * choice_card with loc L_CHOICE until it is resolved. */
static int lays_card(const struct dna_state *s, int seat)
{
	return s->choice_kind[seat] == CH_ATTACH || s->choice_kind[seat] == CH_SET;
}

static int active(const struct dna_state *s, int seat)
{
	return !((s->finmask >> seat) & 1u);
}

/* Players still in. */
static int nactive(const struct dna_state *s)
{
	return s->n - s->nfin;
}

/* The bytes of a word of loc[] for L_HAND and L_CHOICE (bit 2 of each
 * byte). loc is below L__MAX in every state (decode and check keep it so):
 * loc + 1 never carries into the next byte and has bit 2 set exactly for
 * L_HAND (3) and L_CHOICE (4); of the two, only L_CHOICE has it already. */
_Static_assert(L_HAND == 3 && L_CHOICE == 4 && L__MAX == 5, "loc values");
#define LOC_HELD(w) (((w) + BYTES8(1)) & BYTES8(4))
#define LOC_HAND(w) (((w) + BYTES8(1)) & ~(w) & BYTES8(4))

/* Cards c..c+7 (those below ncards) in a hand, or also chosen (choice), and
 * unless seat is -1, owned by seat: bit 2 of byte j for card c + j. Hands
 * are looked for on every move (the move list, the scores, a seat running
 * out); eight cards at a time this costs a fraction of a loop over them. */
static inline uint64_t match8(const struct dna_state *s, int c, int choice, int seat)
{
	uint64_t m = 0;
	if (c + 8 > s->ncards) {
		for (int j = 0; c + j < s->ncards; j++)
			if ((s->loc[c + j] == L_HAND || (choice && s->loc[c + j] == L_CHOICE)) &&
			    (seat < 0 || s->own[c + j] == seat))
				m |= 4ull << (8 * j);
		return m;
	}
	uint64_t w = bytes8_load(s->loc + c);
	m = choice ? LOC_HELD(w) : LOC_HAND(w);
	if (seat >= 0) {   /* own is below n <= 9: x + 15 has bit 4 unless x is 0 */
		uint64_t x = bytes8_load(s->own + c) ^ BYTES8(seat);
		m &= (~(x + BYTES8(0x0f)) & BYTES8(0x10)) >> 2;
	}
	return m;
}

/* The card of the lowest marked byte of a match8() mask for cards from c. */
static int match_card(uint64_t m, int c)
{
	return c + bytes8_first(m);
}

/* Cards of seat in hand, or also chosen (choice). */
static int count_cards(const struct dna_state *s, int choice, int seat)
{
	int k = 0;
	for (int c = 0; c < s->ncards; c += 8)
		for (uint64_t m = match8(s, c, choice, seat); m; m &= m - 1)
			k++;
	return k;
}

/* Cards in seat's hand (pending choice cards are not in the hand). */
static int hand_count(const struct dna_state *s, int seat)
{
	return count_cards(s, 0, seat);
}

/* 1 when seat has a card in hand. */
static int has_hand(const struct dna_state *s, int seat)
{
	for (int c = 0; c < s->ncards; c += 8)
		if (match8(s, c, 0, seat))
			return 1;
	return 0;
}

/* Cards seat holds, a chosen card not yet laid included: the figure the
 * others see, the same whatever the seat chose. */
static int held(const struct dna_state *s, int seat)
{
	return count_cards(s, 1, seat);
}

/* The hand copy of a face with the lowest id, or -1. */
static int hand_card(const struct dna_state *s, int seat, int f)
{
	for (int c = f; c < s->ncards; c += DNA_FACES)
		if (s->loc[c] == L_HAND && s->own[c] == seat)
			return c;
	return -1;
}

/* Appends a public event; the oldest one goes when the log is full. */
static struct game_event *logev(struct dna_state *s, int type, int seat, int card, int num,
				 int strand)
{
	struct game_event *e = evlog_push(&s->log, DNA_LOG, type, seat);
	e->card = (uint16_t)(card < 0 ? EVENT_NO_CARD : card);
	e->num = (uint16_t)num;
	e->where = (uint8_t)strand;
	return e;
}

/* ---- the table graph ---- */

/* Neighbour counts of every table card into deg[]. */
static void degrees(const struct dna_state *s, uint8_t *deg)
{
	memset(deg, 0, DNA_CARDS);
	for (int ti = 0, c = 0; ti < s->ntab && (c = s->tab[ti]) >= 0; ti++) {
		deg[c] = (uint8_t)(deg[c] + s->npar[c]);
		for (int k = 0; k < s->npar[c]; k++)
			deg[s->par[c][k]]++;
	}
}

/* 1 when table cards a and b are linked. */
static int linked(const struct dna_state *s, int a, int b)
{
	for (int k = 0; k < s->npar[a]; k++)
		if (s->par[a][k] == b)
			return 1;
	for (int k = 0; k < s->npar[b]; k++)
		if (s->par[b][k] == a)
			return 1;
	return 0;
}

/* Cards per strand slot. */
static void strand_sizes(const struct dna_state *s, int *size)
{
	for (int i = 0; i < DNA_STRANDS; i++)
		size[i] = 0;
	for (int ti = 0; ti < s->ntab; ti++)
		size[s->strand[s->tab[ti]]]++;
}

/* Puts card c (already taken from where it was) on the table in `slot`. */
static void place(struct dna_state *s, int c, int slot)
{
	int i = s->ntab++;
	while (i > 0 && s->tab[i - 1] > c) {
		s->tab[i] = s->tab[i - 1];
		i--;
	}
	s->tab[i] = (uint16_t)c;
	s->loc[c] = L_TABLE;
	s->own[c] = 0;
	s->strand[c] = (uint8_t)slot;
	s->npar[c] = 0;
	s->endid[c] = 0;
	s->setm[c] = 0;
	s->pseq[c] = s->nseq++;
}

/* Links c to table card p and merges p's strand into c's (lower slot wins). */
static void link_to(struct dna_state *s, int c, int p)
{
	s->par[c][s->npar[c]++] = (uint16_t)p;
	int from = s->strand[p], to = s->strand[c];
	if (from == to)
		return;
	if (from < to) {
		int t = from;
		from = to;
		to = t;
	}
	for (int ti = 0; ti < s->ntab; ti++)
		if (s->strand[s->tab[ti]] == from)
			s->strand[s->tab[ti]] = (uint8_t)to;
}

/* Takes every card of strand `slot` off the table, shuffles them and puts
 * them under the deck. */
static void clear_strand(struct dna_state *s, int slot)
{
	uint16_t tmp[DNA_CARDS];
	int m = 0, keep = 0;
	for (int ti = 0; ti < s->ntab; ti++) {
		int c = s->tab[ti];
		if (s->strand[c] != slot) {
			s->tab[keep++] = (uint16_t)c;
			continue;
		}
		{
			tmp[m++] = (uint16_t)c;
			s->loc[c] = L_DECK;
			s->strand[c] = 0;
			s->npar[c] = 0;
			s->endid[c] = 0;
			s->setm[c] = 0;
			s->pseq[c] = 0;
		}
	}
	s->ntab = keep;
	rng_shuffle(&s->rng, tmp, m);
	pile_put_under(s->deck, &s->ndeck, DNA_CARDS, tmp, m);
}

/* The deck's top card, taken off it; -1 when the deck is empty. */
static int pop_deck(struct dna_state *s)
{
	uint16_t c;
	if (pile_pop(s->deck, &s->ndeck, &c) != 0)
		return -1;
	return c;
}

static void deck_empty(struct dna_state *s, int64_t now);
static void finish_seat(struct dna_state *s, int seat);

/* Deals the top deck card to a new strand in `slot`, or -1 if the deck is empty. */
static int reveal_into(struct dna_state *s, int slot)
{
	int c = pop_deck(s);
	if (c < 0)
		return -1;
	place(s, c, slot);
	return c;
}

/* Draws one card into seat's hand; runs the empty-deck rule when the deck
 * runs out. -1 when there was no card. */
static int draw_one(struct dna_state *s, int seat, int64_t now)
{
	int c = pop_deck(s);
	if (c < 0)
		return -1;
	s->loc[c] = L_HAND;
	s->own[c] = (uint8_t)seat;
	if (s->ndeck == 0)
		deck_empty(s, now);
	return 0;
}

/* The strand slots the deck holder picks from (a mask), or 0: no pick. */
static unsigned pick_mask(const struct dna_state *s)
{
	return prompt_kind(&s->pr) == PR_PICK ? prompt_peek(&s->pr)->arg : 0;
}

/* The resolution waits for a discard or the holder's pick. */
static int interrupted(const struct dna_state *s)
{
	int k = prompt_kind(&s->pr);
	return k == PR_DISCARD || k == PR_PICK;
}

/* The seats still in, as a mask. */
static uint32_t active_mask(const struct dna_state *s)
{
	return ((1u << s->n) - 1) & ~(uint32_t)s->finmask;
}

/* The deadline of a step starting now: the table's turn time, or none. */
static int64_t timer(const struct dna_state *s, int64_t now)
{
	return deadline_after(now, s->turn_seconds);
}

/* Strand `slot` goes into the deck and is laid anew from two deck cards. */
static void relay(struct dna_state *s, int slot)
{
	int size[DNA_STRANDS];
	strand_sizes(s, size);
	clear_strand(s, slot);
	logev(s, EV_RELAY, -1, -1, size[slot], slot);
	int a = reveal_into(s, slot);
	int b = reveal_into(s, slot);
	link_to(s, b, a);
}

/* The lowest slot in a non-empty mask of strand slots. */
static int lowest_slot(unsigned mask)
{
	int i = 0;
	while (i < DNA_STRANDS - 1 && !((mask >> i) & 1u))
		i++;
	return i;
}

/* The slots of the longest strands with at least three cards (a mask, 0 if none). */
static unsigned longest_strands(const struct dna_state *s)
{
	int size[DNA_STRANDS], best = 2;
	unsigned mask = 0;
	strand_sizes(s, size);
	for (int i = 0; i < DNA_STRANDS; i++)
		if (size[i] > best)
			best = size[i];
	for (int i = 0; i < DNA_STRANDS; i++)
		if (best > 2 && size[i] == best)
			mask |= 1u << i;
	return mask;
}

/* The deadline of the deck holder's pick: the turn time, else a fixed one,
 * so that the resolution never waits on an absent holder for long. */
static int64_t pick_deadline(const struct dna_state *s, int64_t now)
{
	return deadline_after(now, s->turn_seconds ? s->turn_seconds : DNA_PICK_SECONDS);
}

/* The deck ran out: the longest strand (at least three cards) goes into the
 * deck and is laid anew from two deck cards; among equally long ones the
 * deck holder picks (a prompt that stops the resolution; a holder who is
 * out picks nobody: the lowest slot). If every strand is that short,
 * everyone discards one card. */
static void deck_empty(struct dna_state *s, int64_t now)
{
	if (s->stage == ST_OVER || s->ndeck > 0 || pick_mask(s))
		return;
	unsigned tie = longest_strands(s);
	if (tie & (tie - 1u) && active(s, s->holder)) {
		struct prompt *p = prompt_push(&s->pr, PR_PICK, 1u << s->holder);
		p->owner = (int8_t)s->holder;
		p->arg = (uint8_t)tie;
		p->deadline = pick_deadline(s, now);
		s->epoch++;
		return;
	}
	if (tie) {
		relay(s, lowest_slot(tie));
		return;
	}
	uint16_t need = 0;
	for (int p = 0; p < s->n; p++)
		if (active(s, p) && hand_count(s, p) > 0)
			need |= (uint16_t)(1u << p);
	if (!need)
		return;
	prompt_push(&s->pr, PR_DISCARD, need)->deadline = timer(s, now);
	logev(s, EV_DISCARD_STEP, -1, -1, 0, 0);
}

/* Returns every pending choice card to its owner's hand. */
static void return_choices(struct dna_state *s)
{
	for (int p = 0; p < s->n; p++) {
		if (lays_card(s, p) && s->loc[s->choice_card[p]] == L_CHOICE) {
			s->loc[s->choice_card[p]] = L_HAND;
			s->own[s->choice_card[p]] = (uint8_t)p;
		}
		s->choice_kind[p] = CH_NONE;
		s->choice_nends[p] = 0;
		s->choice_card[p] = 0;
		s->choice_auto[p] = 0;
		memset(s->choice_ends[p], 0, sizeof s->choice_ends[p]);
	}
}

/* Ends the party: pending cards back to the hands, nothing left to do. */
static void game_over(struct dna_state *s)
{
	return_choices(s);
	s->stage = ST_OVER;
	prompt_clear(&s->pr);
	s->owed_cards = 0;
	s->owing_seat = -1;
	for (int p = 0; p < s->n; p++)
		s->refill_slot[p] = -1;
	s->epoch++;
	logev(s, EV_OVER, -1, -1, 0, 0);
}

/* Seat has no cards left: it takes the next place; the party ends unless
 * the table plays on and two players are still in. */
static void finish_seat(struct dna_state *s, int seat)
{
	if (!active(s, seat) || s->stage == ST_OVER)
		return;
	s->fin[s->nfin++] = (uint8_t)seat;
	s->finmask |= (uint16_t)(1u << seat);
	if (s->choice_kind[seat] == CH_DRAW)   /* out by a discard before its draw came */
		s->choice_kind[seat] = CH_NONE;
	prompt_drop_seat(&s->pr, seat);
	s->refill_slot[seat] = -1;
	logev(s, EV_OUT, seat, -1, s->nfin, 0);
	if (!s->play_on || nactive(s) <= 1) {
		if (s->play_on)
			for (int p = 0; p < s->n; p++)
				if (active(s, p)) {
					s->fin[s->nfin++] = (uint8_t)p;
					s->finmask |= (uint16_t)(1u << p);
				}
		game_over(s);
	}
}

/* Seat's hand and pending choice are both empty. */
static int out_of_cards(const struct dna_state *s, int seat)
{
	if (has_hand(s, seat))
		return 0;
	return !lays_card(s, seat) ||
	       s->loc[s->choice_card[seat]] != L_CHOICE;
}

/* Index of end id in this turn's ends, or -1. */
static int tend_index(const struct dna_state *s, int id)
{
	for (int i = 0; i < s->ntend; i++)
		if (s->tend_id[i] == id)
			return i;
	return -1;
}

/* 1 when this turn's end i is still on the table: both its cards lie there,
 * linked, and neither was laid during this turn (a strand cleared mid-turn
 * and laid anew from the same two cards is a new strand, not the old end). */
static int tend_present(const struct dna_state *s, int i)
{
	int a = s->tend_a[i], b = s->tend_b[i];
	return s->loc[a] == L_TABLE && s->loc[b] == L_TABLE && linked(s, a, b) &&
	       s->pseq[a] < s->tseq && s->pseq[b] < s->tseq;
}

/* Renumbering the placing order of the table cards 0..ntab-1 (same order)
 * keeps the counter from growing past one turn's placings. The old numbers
 * are below nseq, about ntab (renumbered last turn, plus this turn's
 * placings): one stable counting pass over 0..nseq sorts them (this runs
 * every turn; two passes over 256 buckets cost four times more). */
enum { SEQ_SPAN = 2 * DNA_CARDS };

/* One pass over the table for the turn start: the placing numbers counted
 * into cnt[1..nseq] (1 when all are below nseq <= SEQ_SPAN, else 0: cnt is
 * not used), the neighbour counts into deg[] and, for every table card some
 * card links to, that card into child[]: the neighbour of an end that
 * links to no earlier card is its only child. */
static int count_table(const struct dna_state *s, uint16_t *cnt, uint8_t *deg, uint16_t *child)
{
	int span = s->nseq, fast = span <= SEQ_SPAN;
	memset(deg, 0, DNA_CARDS);
	if (fast)
		memset(cnt, 0, sizeof cnt[0] * (size_t)(span + 1));
	for (int ti = 0; ti < s->ntab; ti++) {
		int c = s->tab[ti];
		if (s->pseq[c] >= span)   /* (dna_check's invariant) */
			fast = 0;
		else if (fast)
			cnt[s->pseq[c] + 1]++;
		deg[c] = (uint8_t)(deg[c] + s->npar[c]);
		for (int k = 0; k < s->npar[c]; k++) {
			deg[s->par[c][k]]++;
			child[s->par[c][k]] = (uint16_t)c;
		}
	}
	return fast;
}

/* Renumbers the placings (cnt, fast: count_table()'s). */
static void renumber_placings(struct dna_state *s, uint16_t *cnt, int fast)
{
	int n = s->ntab, span = s->nseq;
	if (fast) {   /* each card's new number is its place in the counted order */
		for (int k = 0; k < span; k++)
			cnt[k + 1] = (uint16_t)(cnt[k + 1] + cnt[k]);
		for (int i = 0; i < n; i++)
			s->pseq[s->tab[i]] = cnt[s->pseq[s->tab[i]]]++;
	} else {   /* (not after a renumbering) a stable insertion sort */
		uint16_t a[DNA_CARDS];
		for (int i = 0; i < n; i++) {
			uint16_t c = s->tab[i];
			int j = i;
			for (; j > 0 && s->pseq[a[j - 1]] > s->pseq[c]; j--)
				a[j] = a[j - 1];
			a[j] = c;
		}
		for (int i = 0; i < n; i++)
			s->pseq[a[i]] = (uint16_t)i;
	}
	s->nseq = (uint16_t)n;
	s->tseq = (uint16_t)n;
}

/* Names the ends in fresh[0..nf) (their endid is 0) with the lowest free
 * ids (used[]), in placing order, so the numbers read along the strands. */
static void name_fresh_ends(struct dna_state *s, uint16_t *fresh, int nf, uint8_t *used)
{
	int id = 1;
	for (int i = 1; i < nf; i++)
		for (int j = i; j > 0 && s->pseq[fresh[j]] < s->pseq[fresh[j - 1]]; j--) {
			uint16_t t = fresh[j];
			fresh[j] = fresh[j - 1];
			fresh[j - 1] = t;
		}
	for (int i = 0; i < nf; i++) {
		while (used[id])
			id++;
		used[id] = 1;
		s->endid[fresh[i]] = (uint8_t)id;
	}
}

/* Gives every end card an id (kept where it has one), builds this turn's
 * end table and forgets set marks. One pass over the table does what does
 * not need all the ids: this runs at every turn start. */
static void number_ends(struct dna_state *s)
{
	uint8_t deg[DNA_CARDS], used[DNA_END_IDS + 1];
	uint16_t child[DNA_CARDS], ends[DNA_CARDS], fresh[DNA_CARDS];
	int nends = 0, nf = 0;
	uint16_t cnt[SEQ_SPAN + 1];
	renumber_placings(s, cnt, count_table(s, cnt, deg, child));
	memset(used, 0, sizeof used);
	for (int ti = 0; ti < s->ntab; ti++) {
		int c = s->tab[ti];
		s->setm[c] = 0;
		if (s->loc[c] != L_TABLE || deg[c] != 1) {
			s->endid[c] = 0;
			continue;
		}
		ends[nends++] = (uint16_t)c;
		if (s->endid[c] == 0 || used[s->endid[c]]) {   /* a new end, or a name taken */
			s->endid[c] = 0;
			fresh[nf++] = (uint16_t)c;
		} else {
			used[s->endid[c]] = 1;
		}
	}
	name_fresh_ends(s, fresh, nf, used);
	s->ntend = 0;
	for (int i = 0; i < nends; i++) {
		int c = ends[i], j = s->ntend++;
		while (j > 0 && s->tend_id[j - 1] > s->endid[c]) {
			s->tend_id[j] = s->tend_id[j - 1];
			s->tend_a[j] = s->tend_a[j - 1];
			s->tend_b[j] = s->tend_b[j - 1];
			j--;
		}
		s->tend_id[j] = s->endid[c];
		s->tend_b[j] = (uint16_t)c;
		/* an end's one neighbour: the card it links to, or the one linking to it */
		s->tend_a[j] = s->npar[c] ? s->par[c][0] : child[c];
	}
	memset(s->took, 0, sizeof s->took);
}

/* Starts a turn: choices cleared, ends numbered, the deadline set. */
static void start_turn(struct dna_state *s, int64_t now)
{
	return_choices(s);
	number_ends(s);
	s->turn++;
	s->stage = ST_CHOOSE;
	s->nrew = 0;
	s->resi = s->norder = 0;
	s->owed_cards = 0;
	s->owing_seat = -1;
	prompt_push(&s->pr, PR_CHOOSE, active_mask(s))->deadline = timer(s, now);
	s->epoch++;
	logev(s, EV_TURN, s->holder, -1, s->turn, 0);
}

/* The seat among those still in, first at or after `from` clockwise. */
static int next_active(const struct dna_state *s, int from)
{
	for (int k = 0; k < s->n; k++) {
		int p = seat_from(from, k, s->n);
		if (active(s, p))
			return p;
	}
	return from;
}

/* Seat will lay a hand card at a revealed card (in resolution order). */
static void add_reward(struct dna_state *s, int seat)
{
	s->rew[s->nrew++] = (uint8_t)seat;
}

/* Card x was just laid at this turn's ends present[0..np): an end that gets
 * exactly one card, and a card laid at that end only, passes its name on;
 * when a second card comes to an end, the first one loses the name again. */
static void name_new_end(struct dna_state *s, int x, const int *present, int np)
{
	for (int i = 0; i < np; i++) {
		int id = s->tend_id[present[i]];
		if (s->took[id] == 1)
			for (int ti = 0; ti < s->ntab; ti++)
				if (s->endid[s->tab[ti]] == id && s->pseq[s->tab[ti]] >= s->tseq)
					s->endid[s->tab[ti]] = 0;
		if (np == 1 && s->took[id] == 0)
			s->endid[x] = (uint8_t)id;
		if (s->took[id] < 2)
			s->took[id]++;
	}
}

/* Resolves seat's revealed choice. */
static void resolve(struct dna_state *s, int seat)
{
	int k = s->choice_kind[seat], x = s->choice_card[seat], nends = s->choice_nends[seat];
	int au = s->choice_auto[seat];
	uint8_t ends[DNA_JOIN_MAX];
	memcpy(ends, s->choice_ends[seat], sizeof ends);
	s->choice_kind[seat] = CH_NONE;
	s->choice_nends[seat] = 0;
	s->choice_card[seat] = 0;
	s->choice_auto[seat] = 0;
	memset(s->choice_ends[seat], 0, sizeof s->choice_ends[seat]);
	if (k == CH_DRAW) {
		logev(s, au == 1 ? EV_AUTODRAW :
			 au == 2 ? EV_FORCEDRAW : EV_DRAW, seat, -1, 0, 0);
		s->owing_seat = (int8_t)seat;
		s->owed_cards = 1;
		return;
	}
	if (k == CH_NONE)
		return;
	int present[DNA_JOIN_MAX], np = 0;
	for (int i = 0; i < nends; i++) {
		int t = tend_index(s, ends[i]);
		if (t < 0 || !tend_present(s, t))
			continue;
		/* checked when chosen, unless the table punishes errors */
		if (joins(k, x, s->tend_a[t], s->tend_b[t]))
			present[np++] = t;
	}
	struct game_event *e;
	if (np == 0) {
		s->loc[x] = L_HAND;
		s->own[x] = (uint8_t)seat;
		e = logev(s, k == CH_SET ? EV_FALSESET : EV_MISFIT, seat, x, 0, 0);
		e->n = (uint8_t)nends;
		memcpy(e->list, ends, sizeof e->list);
		s->owing_seat = (int8_t)seat;
		s->owed_cards = k == CH_SET ? 3 : 2;
		return;
	}
	int slot = s->strand[s->tend_b[present[0]]];
	place(s, x, slot);
	for (int i = 0; i < np; i++) {
		link_to(s, x, s->tend_b[present[i]]);
		s->endid[s->tend_b[present[i]]] = 0;
	}
	name_new_end(s, x, present, np);
	if (k == CH_SET)
		s->setm[x] = 1;
	e = logev(s, k == CH_SET ? EV_SET : EV_ATTACH, seat, x, 0, s->strand[x]);
	e->n = (uint8_t)np;
	for (int i = 0; i < np; i++)
		e->list[i] = s->tend_id[present[i]];
	if (k == CH_SET || np > 1)
		add_reward(s, seat);
	if (out_of_cards(s, seat))
		finish_seat(s, seat);
}

/* Strands with a set or without ends leave the table. */
static void cleanup(struct dna_state *s)
{
	uint8_t deg[DNA_CARDS];
	degrees(s, deg);
	int hasset[DNA_STRANDS] = { 0 }, hasend[DNA_STRANDS] = { 0 }, size[DNA_STRANDS] = { 0 };
	for (int ti = 0, c = 0; ti < s->ntab && (c = s->tab[ti]) >= 0; ti++) {
		size[s->strand[c]]++;   /* strand_sizes(), in the same pass */
		if (s->loc[c] != L_TABLE)
			continue;
		hasset[s->strand[c]] |= s->setm[c];
		hasend[s->strand[c]] |= deg[c] == 1;
	}
	for (int i = 0; i < DNA_STRANDS; i++) {
		if (size[i] == 0)
			continue;
		if (hasset[i]) {
			logev(s, EV_CLEAR_SET, -1, -1, size[i], i);
			clear_strand(s, i);
		} else if (!hasend[i] && size[i] > 1) {
			logev(s, EV_CLEAR_NOENDS, -1, -1, size[i], i);
			clear_strand(s, i);
		}
	}
}

/* ST_CHOOSE: when every seat still in has chosen, the choices are
 * resolved clockwise from the deck holder. 0 while somebody is choosing. */
static int choices_complete(struct dna_state *s)
{
	if (prompt_peek(&s->pr)->waiting)
		return 0;
	prompt_pop(&s->pr);
	s->norder = 0;
	for (int k = 0; k < s->n; k++) {
		int p = seat_from(s->holder, k, s->n);
		if (active(s, p))
			s->order[s->norder++] = (uint8_t)p;
	}
	s->resi = 0;
	s->stage = ST_RESOLVE;
	s->epoch++;
	return 1;
}

/* ST_RESOLVE: one step: a card owed by the last resolved seat, or the next
 * seat's choice, or on to the clean-up. */
static void resolve_step(struct dna_state *s, int64_t now)
{
	if (s->owed_cards > 0 && !active(s, s->owing_seat))
		s->owed_cards = 0;
	if (s->owed_cards > 0) {
		s->owed_cards--;
		if (draw_one(s, s->owing_seat, now) != 0)
			s->owed_cards = 0;
		return;
	}
	if (s->resi == s->norder) {
		s->stage = ST_CLEANUP;
		return;
	}
	resolve(s, s->order[s->resi++]);
}

/* The first strand slot of n cards (size[]: cards per slot), or -1. */
static int strand_with(const int *size, int n)
{
	for (int i = 0; i < DNA_STRANDS; i++)
		if (size[i] == n)
			return i;
	return -1;
}

/* ST_REVEAL: a card revealed for an empty strand slot; when none is empty,
 * the rewarded seats are given the strands of one card to refill. 0 when
 * the refill starts (they decide). */
static int reveal_step(struct dna_state *s, int64_t now)
{
	int size[DNA_STRANDS];
	strand_sizes(s, size);
	int slot = strand_with(size, 0);
	if (slot >= 0) {
		int c = reveal_into(s, slot);
		if (c < 0) {
			s->stage = ST_FILL;
			return 1;
		}
		logev(s, EV_REVEAL, -1, c, 0, slot);
		if (s->ndeck == 0)
			deck_empty(s, now);
		return 1;
	}
	int got = 0, r = 0;
	uint32_t refill = 0;
	for (int i = 0; i < DNA_STRANDS; i++) {
		if (size[i] != 1)
			continue;
		while (r < s->nrew && (!active(s, s->rew[r]) || hand_count(s, s->rew[r]) == 0 ||
				       s->refill_slot[s->rew[r]] >= 0))
			r++;
		if (r == s->nrew)
			break;
		s->refill_slot[s->rew[r]] = (int8_t)i;
		refill |= 1u << s->rew[r];
		got++;
	}
	s->nrew = 0;
	s->stage = got ? ST_REFILL : ST_FILL;
	if (!got)
		return 1;
	prompt_push(&s->pr, PR_REFILL, refill)->deadline = timer(s, now);
	s->epoch++;
	return 0;
}

/* ST_REFILL: on to the fill once nobody has a strand left to refill. 0
 * while somebody has. */
static int refills_done(struct dna_state *s)
{
	if (prompt_peek(&s->pr)->waiting)
		return 0;
	prompt_pop(&s->pr);
	s->stage = ST_FILL;
	return 1;
}

/* ST_FILL: a deck card for a strand of one card, or on to the next turn. */
static void fill_step(struct dna_state *s, int64_t now)
{
	int size[DNA_STRANDS];
	strand_sizes(s, size);
	int slot = strand_with(size, 1);
	if (slot < 0) {
		s->stage = ST_NEXT;
		return;
	}
	int a = -1;
	for (int ti = 0; ti < s->ntab && a < 0; ti++)
		if (s->strand[s->tab[ti]] == slot)
			a = s->tab[ti];
	int c = pop_deck(s);
	if (c < 0) {
		s->stage = ST_NEXT;
		return;
	}
	place(s, c, slot);
	link_to(s, c, a);
	logev(s, EV_DECKCARD, -1, c, 0, slot);
	if (s->ndeck == 0)
		deck_empty(s, now);
}

/* ST_NEXT: the deck passes to the next seat still in and its turn starts;
 * after the last turn the party ends. */
static void next_turn(struct dna_state *s, int64_t now)
{
	if (s->turn >= DNA_TURN_MAX) {
		logev(s, EV_TURN_LIMIT, -1, -1, s->turn, 0);
		game_over(s);
		return;
	}
	s->holder = (uint8_t)next_active(s, seat_next(s->holder, s->n));
	start_turn(s, now);
}

/* Runs the party forward, one step of its stage at a time, until someone
 * has to decide (a choice, a refill, a discard, the holder's pick) or it
 * is over. */
static void advance(struct dna_state *s, int64_t now)
{
	int go = 1;
	while (go && s->stage != ST_OVER && !interrupted(s)) {
		switch (s->stage) {
		case ST_CHOOSE:
			go = choices_complete(s);
			break;
		case ST_RESOLVE:
			resolve_step(s, now);
			break;
		case ST_CLEANUP:
			cleanup(s);
			s->stage = ST_REVEAL;
			break;
		case ST_REVEAL:
			go = reveal_step(s, now);
			break;
		case ST_REFILL:
			go = refills_done(s);
			break;
		case ST_FILL:
			fill_step(s, now);
			break;
		case ST_NEXT:
			next_turn(s, now);
			go = 0;
			break;
		default:   /* ST_RACE: the race's own moves and deadline end it */
			go = 0;
			break;
		}
	}
}

/* ---- setup ---- */

static const struct game_option dna_options[] = {
	[O_DECKS] = { "decks", N_("SET-Decks"), OPT_INT, 1, DNA_DECKS_MAX, 1, N_("Decks") },
	[O_PLAY_ON] = { "play_on", N_("Um die weiteren Plätze weiterspielen"), OPT_BOOL, 0, 1, 0,
			NULL },
	[O_RACE] = { "opening_race",
		     N_("Eröffnungsrennen (20 s: wer zuerst ein Set findet, beginnt)"),
		     OPT_BOOL, 0, 1, 0, NULL },
	[O_TURN_SECONDS] = { "turn_seconds",
			     N_("Zeitlimit pro Zug (0 = keins; danach wird gezogen)"),
			     OPT_INT, 0, 600, 0, N_("s") },
	[O_LAST_MUST_DRAW] = { "last_must_draw", N_("Wer als Letzter wählt, muss ziehen"),
			       OPT_BOOL, 0, 1, 0, NULL },
	[O_PENALISE] = { "penalties", N_("Fehler werden bestraft (jede Handkarte ist wählbar; "
					 "passt sie nicht: 2 Strafkarten, falsches Set: 3)"),
			 OPT_BOOL, 0, 1, 0, NULL },
};
_Static_assert(sizeof dna_options / sizeof dna_options[0] == O__MAX, "option table");

/* Hand size for n players and d decks: 8, fewer when the deck would run
 * short (30 cards per deck stay for the strands and the draw pile). */
static int hand_size(int n, int decks)
{
	int h = (DNA_FACES * decks - 30) / n;
	return h < DNA_HAND_DEAL ? h : DNA_HAND_DEAL;
}

/* One party per match. */
static int dna_parties(int nplayers, const int *opt)
{
	(void)nplayers;
	(void)opt;
	return 1;
}

/* Shuffles, deals the hands clockwise from the dealer's left, lays three
 * strands of two cards; the first turn (or the opening race) begins. */
static int dna_setup(void *st, const struct setup *su, struct rerr *e)
{
	struct dna_state *s = st;
	(void)e;   /* game_setup() has checked the count, the dealer and the options */
	memset(s, 0, sizeof *s);
	s->n = (uint8_t)su->nplayers;
	s->decks = (uint8_t)su->opt[O_DECKS];
	s->play_on = (uint8_t)su->opt[O_PLAY_ON];
	s->race = (uint8_t)su->opt[O_RACE];
	s->turn_seconds = (uint16_t)su->opt[O_TURN_SECONDS];
	s->last_must_draw = (uint8_t)su->opt[O_LAST_MUST_DRAW];
	s->penalise = (uint8_t)su->opt[O_PENALISE];
	s->ncards = (uint16_t)(DNA_FACES * s->decks);
	s->holder = (uint8_t)su->dealer;
	s->owing_seat = -1;
	for (int p = 0; p < DNA_SEATS; p++)
		s->refill_slot[p] = -1;
	rng_seed(&s->rng, su->seed);
	for (int c = 0; c < s->ncards; c++) {
		s->deck[c] = (uint16_t)c;
		s->loc[c] = L_DECK;
	}
	s->ndeck = s->ncards;
	rng_shuffle(&s->rng, s->deck, s->ndeck);
	for (int i = 0; i < hand_size(s->n, s->decks) * s->n; i++) {
		int c = pop_deck(s);
		s->loc[c] = L_HAND;
		s->own[c] = (uint8_t)deal_seat(s->holder, i, s->n);
	}
	for (int i = 0; i < DNA_STRANDS; i++) {
		int a = reveal_into(s, i);
		int b = reveal_into(s, i);
		link_to(s, b, a);
	}
	if (s->race) {
		number_ends(s);
		s->stage = ST_RACE;
		prompt_later(prompt_push(&s->pr, PR_RACE, active_mask(s)), DNA_RACE_SECONDS);
		logev(s, EV_RACE, -1, -1, DNA_RACE_SECONDS, 0);
		return 0;
	}
	s->turn = 0;
	start_turn(s, 0);
	prompt_later(prompt_top(&s->pr), s->turn_seconds);
	return 0;
}

/* ---- moves ---- */

enum cmd { C_ATTACH, C_SET, C_DRAW, C_OPEN, C_PASS, C_REFILL, C_DISCARD, C_CLEAR, C__MAX };

struct dna_cmd {
	int kind, face, card, n, strand;
	int ends[DNA_JOIN_MAX];
};

/* The verbs of the move language (docs/moves-dna.md): their form and what
 * a move of the wrong form is told (rules/movetext.h; a catalog message,
 * as the player reads it). */
static const struct mt_verb dna_verbs[C__MAX] = {
	[C_ATTACH] = { "attach", NULL, 4, MT_MAX_WORDS, 2, "to",
		       N_("So geht der Zug nicht: attach 2-rot-voll-welle to e1 e4."),
		       "attach KARTE to ENDE [ENDE …]", "attach 2-rot-voll-welle to e1 e4" },
	[C_SET] = { "set", NULL, 4, 4, 2, "on",
		    N_("So geht der Zug nicht: set 2-rot-voll-welle on e3."),
		    "set KARTE on ENDE", "set 2-rot-voll-welle on e3" },
	[C_DRAW] = { "draw", NULL, 1, 1, 0, NULL, N_("So geht der Zug nicht: draw."),
		     "draw", "draw" },
	[C_OPEN] = { "open", NULL, 4, 4, 2, "on",
		     N_("So geht der Zug nicht: open 2-rot-voll-welle on s1."),
		     "open KARTE on STRANG", "open 2-rot-voll-welle on s1" },
	[C_PASS] = { "pass", NULL, 1, 1, 0, NULL, N_("So geht der Zug nicht: pass."),
		     "pass", "pass" },
	[C_REFILL] = { "refill", NULL, 4, 4, 2, "to",
		       N_("So geht der Zug nicht: refill 2-rot-voll-welle to s1."),
		       "refill KARTE to STRANG", "refill 2-rot-voll-welle to s1" },
	[C_DISCARD] = { "discard", NULL, 2, 2, 0, NULL,
			N_("So geht der Zug nicht: discard 2-rot-voll-welle."),
			"discard KARTE", "discard 2-rot-voll-welle" },
	[C_CLEAR] = { "clear", NULL, 2, 2, 0, NULL, N_("So geht der Zug nicht: clear s2."),
		      "clear STRANG", "clear s2" },
};

/* Reads "e<id>" or "s<n>": 0 with *out, or -1. */
static int parse_ref(const char *w, char tag, int max, int *out)
{
	if (w[0] != tag)
		return -1;
	return mt_int(w + 1, 1, max, out);
}

/* The strand slot of a two-card strand both of whose ends are in ids[], or -1. */
static int two_card_both(const struct dna_state *s, const int *idx, int n)
{
	int size[DNA_STRANDS];
	if (n < 2)   /* (most moves name one end: no need to count the strands) */
		return -1;
	strand_sizes(s, size);
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			int si = s->strand[s->tend_b[idx[i]]];
			if (size[si] == 2 && si == s->strand[s->tend_b[idx[j]]])
				return si;
		}
	return -1;
}

/* The move's form, whatever the stage: a known verb by a seat still in
 * the party, the verb's words, and the card, which must be in hand (its
 * code into *code, for the messages). Fills m->kind, m->face, m->card. */
static int parse_form(const struct dna_state *s, int seat, const struct mtok *t,
		      struct dna_cmd *m, const char **code, struct rerr *e)
{
	char clip[4 * 30 + 1];
	memset(m, 0, sizeof *m);
	m->card = -1;
	if ((m->kind = mt_verb(dna_verbs, C__MAX, t, e)) < 0)
		return -1;
	if (seat < 0 || seat >= s->n)
		return rerr_set(e, "Du sitzt nicht an diesem Tisch.");
	if (s->stage == ST_OVER)
		return rerr_set(e, "Die Partie ist vorbei.");
	if (!active(s, seat))
		return rerr_set(e, "Du hast schon alle Karten abgelegt.");
	if (mt_form(&dna_verbs[m->kind], t, e) != 0)
		return -1;
	if (t->n >= 2 && m->kind != C_DRAW && m->kind != C_PASS && m->kind != C_CLEAR) {
		if (parse_face(t->w[1], &m->face) != 0)
			return rerr_set(e, "Unbekannte Karte '%s' (so: 2-rot-voll-welle; "
					"Anzahl-Farbe-Füllung-Form).",
					mt_clip(clip, sizeof clip, t->w[1], 30));
		*code = face_text(m->face)->code;
		m->card = hand_card(s, seat, m->face);
		if (m->card < 0) {
			char own[40];   /* (a copy, as the tests spell their moves) */
			face_code(m->face, own, sizeof own);
			return rerr_set(e, "Du hast %s nicht auf der Hand.", own);
		}
	}
	return 0;
}

/* The deck holder's pick of a strand to relay ("clear sN"). */
static int parse_pick(const struct dna_state *s, int seat, const struct mtok *t,
		      struct dna_cmd *m, struct rerr *e)
{
	if (m->kind != C_CLEAR)
		return rerr_set(e, "Das Deck ist leer: erst wählt, wer das Deck hat, welcher "
				"der längsten Stränge neu gelegt wird.");
	if (seat != s->holder)
		return rerr_set(e, "Den Strang wählt, wer das Deck hat.");
	unsigned pick = pick_mask(s);
	if (parse_ref(t->w[1], 's', DNA_STRANDS, &m->strand) == 0 &&
	    ((pick >> (m->strand - 1)) & 1u)) {
		m->strand--;
		return 0;
	}
	/* whole sentences: "oder" is no word to pass along */
	if (pick == 3)
		return rerr_set(e, "Wähle einen der längsten Stränge: s1 oder s2.");
	if (pick == 5)
		return rerr_set(e, "Wähle einen der längsten Stränge: s1 oder s3.");
	if (pick == 6)
		return rerr_set(e, "Wähle einen der längsten Stränge: s2 oder s3.");
	return rerr_set(e, "Wähle einen der längsten Stränge: s1, s2 oder s3.");
}

/* The opening race: "open <card> on sN", a set with that strand's end, or
 * "pass". */
static int parse_race(const struct dna_state *s, int seat, const struct mtok *t,
		      struct dna_cmd *m, const char *code, struct rerr *e)
{
	char clip[4 * 20 + 1];
	if (m->kind != C_OPEN && m->kind != C_PASS)
		return rerr_set(e, "Erst läuft das Eröffnungsrennen: open … oder pass.");
	if (!prompt_waits(&s->pr, seat))
		return rerr_set(e, "Du hast beim Eröffnungsrennen schon gepasst.");
	if (m->kind == C_PASS)
		return 0;
	if (parse_ref(t->w[3], 's', DNA_STRANDS, &m->strand) != 0)
		return rerr_set(e, "Strang '%s' gibt es nicht (s1 bis s3).",
				mt_clip(clip, sizeof clip, t->w[3], 20));
	m->strand--;
	for (int i = 0; i < s->ntend; i++)
		if (s->strand[s->tend_b[i]] == m->strand) {
			if (!makes_set(m->card, s->tend_a[i], s->tend_b[i]))
				return rerr_set(e, "%s bildet mit Strang %d kein Set.", code,
						m->strand + 1);
			m->ends[0] = i;
			m->n = 1;
			return 0;
		}
	return rerr_set(e, "Strang %d gibt es nicht.", m->strand + 1);
}

/* The ends a chosen card goes to ("attach … to e1 e4", "set … on e3"):
 * distinct ends of this turn, each fitting (or completing a set) unless
 * the table punishes errors, never both ends of a two-card strand. */
static int parse_ends(const struct dna_state *s, const struct mtok *t, struct dna_cmd *m,
		      const char *code, struct rerr *e)
{
	char clip[4 * 20 + 1];
	int nref = m->kind == C_SET ? 1 : t->n - 3;
	if (nref > DNA_JOIN_MAX)
		return rerr_set(e, "Eine Karte geht an höchstens %d Enden.", DNA_JOIN_MAX);
	for (int i = 0; i < nref; i++) {
		int id, ti;
		if (parse_ref(t->w[3 + i], 'e', DNA_END_IDS, &id) != 0 ||
		    (ti = tend_index(s, id)) < 0)
			return rerr_set(e, "Ende '%s' gibt es nicht.",
					mt_clip(clip, sizeof clip, t->w[3 + i], 20));
		for (int j = 0; j < i; j++)
			if (m->ends[j] == ti)
				return rerr_set(e, "Ende e%d ist doppelt genannt.", id);
		/* with penalties, a wrong card is the player's risk (resolve()) */
		if (!s->penalise && m->kind == C_SET &&
		    !makes_set(m->card, s->tend_a[ti], s->tend_b[ti]))
			return rerr_set(e, "%s bildet an e%d kein Set.", code, id);
		if (!s->penalise && m->kind == C_ATTACH &&
		    !fits(m->card, s->tend_a[ti], s->tend_b[ti]))
			return rerr_set(e, "%s passt nicht an e%d.", code, id);
		m->ends[i] = ti;
	}
	m->n = nref;
	int two = two_card_both(s, m->ends, m->n);
	if (two >= 0)
		return rerr_set(e, "Eine Karte darf nicht an beide Enden des Zwei-Karten-Strangs "
				"s%d.", two + 1);
	return 0;
}

/* Parses and checks a move against the state; nothing changes. The form
 * first, then what the stage allows. */
/* 1 when seat has made its secret choice of this turn and may still
 * change it: the others have not all chosen yet (the last choice resolves
 * the turn at once), no strand is to be picked, nobody discards. */
static int may_rechoose(const struct dna_state *s, int seat)
{
	return seat >= 0 && seat < s->n && s->stage == ST_CHOOSE && !pick_mask(s) &&
	       prompt_kind(&s->pr) != PR_DISCARD && s->choice_kind[seat] != CH_NONE &&
	       !s->choice_auto[seat] && active(s, seat);
}

/* Takes seat's choice back: its card to its hand, the seat waiting again
 * (the state as before the choice: a hand has no order). */
static void unchoose(struct dna_state *s, int seat)
{
	if (lays_card(s, seat)) {
		s->loc[s->choice_card[seat]] = L_HAND;
		s->own[s->choice_card[seat]] = (uint8_t)seat;
	}
	s->choice_kind[seat] = CH_NONE;
	s->choice_nends[seat] = 0;
	s->choice_card[seat] = 0;
	s->choice_auto[seat] = 0;
	memset(s->choice_ends[seat], 0, sizeof s->choice_ends[seat]);
	prompt_top(&s->pr)->waiting |= (uint16_t)(1u << seat);
}

static int parse_move(const struct dna_state *s, int seat, const char *move,
		      struct dna_cmd *m, struct rerr *e)
{
	struct mtok t;
	const char *code = "";
	if (mt_split(move, &t, e) != 0 || parse_form(s, seat, &t, m, &code, e) != 0)
		return -1;
	if (pick_mask(s))
		return parse_pick(s, seat, &t, m, e);
	if (m->kind == C_CLEAR)
		return rerr_set(e, "Einen Strang wählst du nur, wenn das Deck leer ist und mehrere "
				"Stränge gleich lang die längsten sind.");
	if (prompt_kind(&s->pr) == PR_DISCARD) {
		if (m->kind != C_DISCARD)
			return rerr_set(e, "Das Deck ist leer: erst wirft jeder eine Handkarte ab.");
		if (!prompt_waits(&s->pr, seat))
			return rerr_set(e, "Du hast schon abgeworfen.");
		return 0;
	}
	if (m->kind == C_DISCARD)
		return rerr_set(e, "Abwerfen gibt es nur, wenn das Deck leer ist.");
	if (s->stage == ST_RACE)
		return parse_race(s, seat, &t, m, code, e);
	if (m->kind == C_OPEN || m->kind == C_PASS)
		return rerr_set(e, "Das Eröffnungsrennen ist vorbei.");
	if (s->stage == ST_REFILL) {
		if (m->kind != C_REFILL)
			return rerr_set(e, "Jetzt werden nur die aufgedeckten Karten ergänzt.");
		if (s->refill_slot[seat] < 0)
			return rerr_set(e, "Du legst in diesem Zug keine Karte an eine aufgedeckte an.");
		if (parse_ref(t.w[3], 's', DNA_STRANDS, &m->strand) != 0 ||
		    m->strand - 1 != s->refill_slot[seat])
			return rerr_set(e, "Deine Karte gehört an Strang s%d.",
					s->refill_slot[seat] + 1);
		m->strand--;
		return 0;
	}
	if (m->kind == C_REFILL)
		return rerr_set(e, "Ergänzen gibt es nur nach dem Wegräumen.");
	if (s->stage != ST_CHOOSE)
		return rerr_set(e, "Gerade wird nicht gewählt.");
	if (s->choice_kind[seat] != CH_NONE)
		return rerr_set(e, "Du hast für diesen Zug schon gewählt.");
	if (m->kind == C_DRAW)
		return 0;
	return parse_ends(s, &t, m, code, e);
}

/* Ends the opening race: nobody opened, so the first turn starts. */
static void race_over(struct dna_state *s, int64_t now)
{
	prompt_pop(&s->pr);
	logev(s, EV_RACE_NONE, -1, -1, 0, 0);
	s->turn = 0;
	start_turn(s, now);
}

/* Completes the discard step once everyone has discarded; a step it
 * interrupted gets its full time again. */
static void discard_done(struct dna_state *s, int64_t now)
{
	if (s->stage == ST_OVER || prompt_peek(&s->pr)->waiting)
		return;
	prompt_pop(&s->pr);
	rng_shuffle(&s->rng, s->deck, s->ndeck);
	if (prompt_top(&s->pr))
		prompt_top(&s->pr)->deadline = timer(s, now);
	s->epoch++;
	advance(s, now);
}

/* Seat puts card c face down into the deck; the step ends with the last. */
static void do_discard(struct dna_state *s, int seat, int c, int autom, int64_t now)
{
	s->loc[c] = L_DECK;
	s->own[c] = 0;
	s->deck[s->ndeck++] = (uint16_t)c;
	prompt_done(&s->pr, seat);
	logev(s, autom ? EV_AUTODISCARD : EV_DISCARD, seat, -1, 0, 0);
	if (out_of_cards(s, seat))
		finish_seat(s, seat);
	discard_done(s, now);
}

/* Forced draw for the last undecided seat (variant "last must draw"). It
 * applies while four or more players are in: with fewer, one forced draw
 * per turn outweighs what the others lay and the party stalls. */
static void last_draws(struct dna_state *s)
{
	if (!s->last_must_draw || nactive(s) < 4)
		return;
	int last = -1, waiting = 0;
	for (int p = 0; p < s->n; p++)
		if (active(s, p) && s->choice_kind[p] == CH_NONE) {
			waiting++;
			last = p;
		}
	if (waiting == 1) {
		s->choice_kind[last] = CH_DRAW;
		s->choice_auto[last] = 2;
		prompt_done(&s->pr, last);
	}
}

/* The deck holder's pick (autom: the deadline's, the lowest slot) is made:
 * that strand is laid anew and the interrupted resolution goes on. */
static void do_pick(struct dna_state *s, int slot, int autom, int64_t now)
{
	logev(s, EV_PICK, s->holder, -1, autom, slot);
	prompt_pop(&s->pr);
	relay(s, slot);
	s->epoch++;
	advance(s, now);
}

/* Checks the move fully, then applies it and runs the party forward; a
 * refused move leaves the state untouched. */
static int dna_apply(void *st, int seat, const char *move, int64_t now, struct rerr *e)
{
	struct dna_state *s = st;
	struct dna_cmd m;
	if (may_rechoose(s, seat)) {
		/* a new choice replaces the old one: judged as if it were the
		 * first (the old card back in the hand) */
		static _Thread_local struct dna_state keep;
		keep = *s;
		unchoose(s, seat);
		if (parse_move(s, seat, move, &m, e) != 0) {
			*s = keep;
			return -1;
		}
	} else if (parse_move(s, seat, move, &m, e) != 0) {
		return -1;
	}
	prompt_start(&s->pr, now);
	switch (m.kind) {
	case C_CLEAR:
		do_pick(s, m.strand, 0, now);
		return 0;
	case C_DISCARD:
		do_discard(s, seat, m.card, 0, now);
		return 0;
	case C_PASS:
		if (prompt_done(&s->pr, seat))
			race_over(s, now);
		return 0;
	case C_OPEN: {
		int i = m.ends[0];
		place(s, m.card, m.strand);
		link_to(s, m.card, s->tend_b[i]);
		s->setm[m.card] = 1;
		logev(s, EV_OPEN, seat, m.card, 0, m.strand);
		prompt_pop(&s->pr);
		s->nrew = 0;
		add_reward(s, seat);
		s->stage = ST_CLEANUP;
		s->epoch++;
		if (out_of_cards(s, seat))
			finish_seat(s, seat);
		advance(s, now);
		return 0;
	}
	case C_REFILL: {
		int a = -1;
		for (int ti = 0; ti < s->ntab && a < 0; ti++)
			if (s->strand[s->tab[ti]] == m.strand)
				a = s->tab[ti];
		place(s, m.card, m.strand);
		link_to(s, m.card, a);
		s->refill_slot[seat] = -1;
		prompt_done(&s->pr, seat);
		logev(s, EV_REFILL, seat, m.card, 0, m.strand);
		if (out_of_cards(s, seat))
			finish_seat(s, seat);
		advance(s, now);
		return 0;
	}
	case C_DRAW:
		s->choice_kind[seat] = CH_DRAW;
		prompt_done(&s->pr, seat);
		break;
	default:
		s->choice_kind[seat] = m.kind == C_SET ? CH_SET : CH_ATTACH;
		s->choice_card[seat] = (uint16_t)m.card;
		s->choice_nends[seat] = (uint8_t)m.n;
		memset(s->choice_ends[seat], 0, sizeof s->choice_ends[seat]);
		for (int i = 0; i < m.n; i++)
			s->choice_ends[seat][i] = s->tend_id[m.ends[i]];
		s->loc[m.card] = L_CHOICE;
		s->own[m.card] = (uint8_t)seat;
		prompt_done(&s->pr, seat);
		break;
	}
	last_draws(s);
	advance(s, now);
	return 0;
}

/* A deadline passed (prompt_tick): the holder's pick falls to the lowest
 * slot, missing discards are made, the race ends, undecided seats draw,
 * unclaimed revealed cards take deck cards. */
static void dna_expire(void *st, struct prompt *pr, int64_t now)
{
	struct dna_state *s = st;
	switch (pr->kind) {
	case PR_PICK:
		do_pick(s, lowest_slot(pr->arg), 1, now);
		return;
	case PR_DISCARD:
		for (int p = 0; p < s->n && s->stage != ST_OVER; p++)
			if (prompt_waits(&s->pr, p)) {
				int c = -1;
				for (int x = 0; x < s->ncards && c < 0; x++)
					if (s->loc[x] == L_HAND && s->own[x] == p)
						c = x;
				s->loc[c] = L_DECK;
				s->own[c] = 0;
				s->deck[s->ndeck++] = (uint16_t)c;
				prompt_done(&s->pr, p);
				logev(s, EV_AUTODISCARD, p, -1, 0, 0);
				if (out_of_cards(s, p))
					finish_seat(s, p);
			}
		discard_done(s, now);
		return;
	case PR_RACE:
		race_over(s, now);
		return;
	case PR_CHOOSE:
		for (int p = 0; p < s->n; p++)
			if (prompt_waits(&s->pr, p)) {
				s->choice_kind[p] = CH_DRAW;
				s->choice_auto[p] = 1;
				prompt_done(&s->pr, p);
			}
		advance(s, now);
		return;
	default:   /* PR_REFILL */
		for (int p = 0; p < s->n; p++)
			s->refill_slot[p] = -1;
		pr->waiting = 0;
		advance(s, now);
		return;
	}
}

/* Starts the first clock, or applies a passed deadline. */
static int dna_tick(void *st, int64_t now)
{
	struct dna_state *s = st;
	return prompt_tick(&s->pr, now, dna_expire, s);
}

static void places(const struct dna_state *s, int *place);

/* Place points when playing on (n - place once the party is over, which
 * ranks by hand cards those the turn limit stopped); otherwise minus the
 * cards in hand (a pending choice card still counts as in hand). */
static void dna_status(const void *st, struct status *o)
{
	const struct dna_state *s = st;
	memset(o, 0, sizeof *o);
	prompt_status(&s->pr, o);
	o->over = s->stage == ST_OVER;
	/* Everyone chooses at once: nobody's turn in particular (see game.h). */
	o->turn = -1;
	o->epoch = s->epoch;
	if (s->stage == ST_OVER)
		places(s, o->place);
	if (s->play_on && s->stage == ST_OVER) {
		for (int p = 0; p < s->n; p++)
			o->score[p] = s->n - o->place[p];
		return;
	}
	if (s->play_on) {
		for (int i = 0; i < s->nfin; i++)
			o->score[s->fin[i]] = s->n - 1 - i;
		return;
	}
	for (int c = 0; c < s->ncards; c += 8)
		for (uint64_t m = match8(s, c, 1, -1); m; m &= m - 1)
			o->score[s->own[match_card(m, c)]]--;
}

/* What a listed move does, for its button (the text is the move itself):
 * the verb, a strand (open, refill, clear) and the ends of this turn it
 * names (attach, set: indices into tend_*). */
struct move_info {
	int kind;
	int strand;
	int n;
	const int *ends;
};

struct emitter {
	void (*emit)(void *ctx, const char *move, const struct move_info *mi);
	void *ctx;
	int count;
};

/* Hands one move to the caller and counts it. */
static void put(struct emitter *em, const char *m, const struct move_info *mi)
{
	em->emit(em->ctx, m, mi);
	em->count++;
}

/* Appends " e<id>" at m + len; returns the new length. */
static int put_end(char *m, int len, int id)
{
	char d[4];
	int k = 0;
	m[len++] = ' ';
	m[len++] = 'e';
	do {
		d[k++] = (char)('0' + id % 10);
		id /= 10;
	} while (id);
	while (k)
		m[len++] = d[--k];
	m[len] = '\0';
	return len;
}

/* Emits "attach X to …" for every subset of the fitting ends fit[] of size
 * 1..DNA_JOIN_MAX that does not hold both ends of a two-card strand; m holds
 * the text so far (len bytes). */
static void emit_subsets(const struct dna_state *s, struct emitter *em, char *m, int len,
			 const int *fit, int nfit, const int *size, int from, int *pick, int np)
{
	if (np > 0)
		put(em, m, &(struct move_info){ C_ATTACH, 0, np, pick });
	if (np == DNA_JOIN_MAX)
		return;
	for (int i = from; i < nfit; i++) {
		int si = s->strand[s->tend_b[fit[i]]], bad = 0;
		if (np > 0 && size[si] == 2)   /* (alone, an end is never both ends) */
			for (int j = 0; j < np; j++)
				bad |= s->strand[s->tend_b[pick[j]]] == si;
		if (bad)
			continue;
		pick[np] = fit[i];
		int l2 = put_end(m, len, s->tend_id[fit[i]]);
		emit_subsets(s, em, m, l2, fit, nfit, size, i + 1, pick, np + 1);
		m[len] = '\0';
	}
}

/* The faces in seat's hand, each once, ascending. */
static int hand_faces(const struct dna_state *s, int seat, int *faces)
{
	uint8_t has[DNA_FACES];
	int n = 0;
	if (s->ncards == DNA_FACES) {   /* one deck: the cards are the faces */
		for (int c = 0; c < s->ncards; c += 8)
			for (uint64_t m = match8(s, c, 0, seat); m; m &= m - 1)
				faces[n++] = match_card(m, c);
		return n;
	}
	memset(has, 0, sizeof has);
	for (int c = 0; c < s->ncards; c += 8)
		for (uint64_t m = match8(s, c, 0, seat); m; m &= m - 1)
			has[face(match_card(m, c))] = 1;
	for (int f = 0; f < DNA_FACES; f++)
		if (has[f])
			faces[n++] = f;
	return n;
}

/* What every move of one turn is checked against, computed once. */
struct mctx {
	int size[DNA_STRANDS];   /* strand_sizes(), once sized (only joins need them) */
	int sized;
	unsigned pick;           /* pick_mask() */
	int pkind;               /* prompt_kind() */
	/* the set face of each end of this turn, packed; room for reading the
	 * last ends eight at a time */
	uint8_t tf[DNA_CARDS + 8];
};

/* Fills mc for the current table. */
static void mctx_init(const struct dna_state *s, struct mctx *mc)
{
	mc->pick = pick_mask(s);
	mc->pkind = prompt_kind(&s->pr);
	mc->sized = 0;
	for (int i = 0; i < s->ntend; i++)
		mc->tf[i] = (uint8_t)packed(third(face(s->tend_a[i]), face(s->tend_b[i])));
	memset(mc->tf + s->ntend, 0, 8);   /* read with the last ends, never used */
}

/* The start of every move that names a card, as the table of verbs spells
 * it ("attach <card> to", "set <card> on", "open <card> on", "refill <card>
 * to", "discard <card>"), by verb and face; written once per process on
 * first use: the move list copies it whole instead of spelling word by
 * word for every face of every listing. */
struct prefix_text {
	char text[48];
	uint8_t len;
};
static struct prefix_text prefix_texts[C__MAX][DNA_FACES];
static int prefix_texts_ready;

/* Writes prefix_texts[] (once; the rules run single-threaded). */
static void prefix_texts_init(void)
{
	static const int kinds[] = { C_ATTACH, C_SET, C_OPEN, C_REFILL, C_DISCARD };
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		const struct mt_verb *v = &dna_verbs[kinds[k]];
		size_t wl = strlen(v->word), ll = v->link ? strlen(v->link) : 0;
		assert(!v->link || v->link_at == 2);   /* the link right after the card */
		for (int f = 0; f < DNA_FACES; f++) {
			const struct face_text *t = face_text(f);
			struct prefix_text *p = &prefix_texts[kinds[k]][f];
			size_t len = 0;
			assert(wl + t->code_len + ll + 3 <= sizeof p->text);
			put_bytes(p->text, &len, v->word, wl);
			p->text[len++] = ' ';
			put_bytes(p->text, &len, t->code, t->code_len);
			if (v->link) {
				p->text[len++] = ' ';
				put_bytes(p->text, &len, v->link, ll);
			}
			p->text[len] = '\0';
			p->len = (uint8_t)len;
		}
	}
	prefix_texts_ready = 1;
}

/* The start of a move of verb `kind` (one of those above) for face f into
 * m (GAME_MOVE_MAX + 1 bytes); returns its length. */
static size_t move_prefix(char *m, int kind, int f)
{
	if (!prefix_texts_ready)
		prefix_texts_init();
	const struct prefix_text *p = &prefix_texts[kind][f];
	memcpy(m, p->text, sizeof p->text);
	return p->len;
}

/* The move of verb `kind` (open, refill) for face f and strand slot i:
 * "refill <card> to s2". */
static const char *card_to_strand(char *m, int kind, int f, int i)
{
	size_t len = move_prefix(m, kind, f);
	m[len++] = ' ';
	m[len++] = 's';
	m[len++] = (char)('1' + i);
	m[len] = '\0';
	return m;
}

/* A move of verb `kind` with the arguments a and b (NULL: fewer), spelled
 * through the table of verbs into m (GAME_MOVE_MAX + 1 bytes). */
static const char *spell(char *m, int kind, const char *a, const char *b)
{
	const char *args[2] = { a, b };
	mt_spell(&dna_verbs[kind], args, (a != NULL) + (b != NULL), m, GAME_MOVE_MAX + 1);
	return m;
}

/* "draw", spelled once per process: every seat choosing is offered it. */
static const char *draw_move(void)
{
	static char m[GAME_MOVE_MAX + 1];
	if (!m[0])
		spell(m, C_DRAW, NULL, NULL);
	return m;
}

/* Strand slot i as a move word: "s1". */
static const char *strand_word(char *w, int i)
{
	w[0] = 's';
	w[1] = (char)('1' + i);
	w[2] = '\0';
	return w;
}

/* Emits the move `kind` (attach, set) of the card at end i of this turn. */
static void put_one_end(const struct dna_state *s, struct emitter *em, int kind, int f, int i)
{
	char m[GAME_MOVE_MAX + 1];
	put_end(m, (int)move_prefix(m, kind, f), s->tend_id[i]);
	put(em, m, &(struct move_info){ kind, 0, 1, &i });
}

/* With the option "penalties": face f to every end and as a set on every
 * end, fitting or not, so that the list tells nothing; joins of several
 * ends are typed (docs/moves-dna.md). */
static void penalised_moves(const struct dna_state *s, struct emitter *em, int f)
{
	for (int i = 0; i < s->ntend; i++) {
		put_one_end(s, em, C_ATTACH, f, i);
		put_one_end(s, em, C_SET, f, i);
	}
}

/* The attributes in which packed face pf differs from each of the eight
 * packed faces in w (pdiff() of every byte, into that byte). */
static uint64_t end_dist8(uint64_t w, unsigned pf)
{
	uint64_t x = w ^ BYTES8(pf);
	uint64_t y = (x | x >> 1) & BYTES8(0x55);                   /* a bit per differing field */
	uint64_t c2 = (y & BYTES8(0x33)) + (y >> 2 & BYTES8(0x33)); /* per two fields */
	return (c2 & BYTES8(0x0f)) + (c2 >> 4 & BYTES8(0x0f));      /* per byte */
}

/* The choices of a seat choosing that play face f: a set at every end it
 * completes, joins of the ends it fits (eight ends compared at once: each
 * face is compared with every end in every listing). */
static void choose_moves(const struct dna_state *s, struct mctx *mc, int f,
			 struct emitter *em)
{
	char m[GAME_MOVE_MAX + 1];
	int fit[DNA_CARDS], nfit = 0, pick[DNA_JOIN_MAX];
	unsigned pf = packed(f);
	if (s->penalise) {
		penalised_moves(s, em, f);
		return;
	}
	for (int i = 0; i < s->ntend; i += 8) {   /* eight ends at a time, see end_dist8() */
		uint64_t keep = s->ntend - i >= 8 ? ~0ull : (1ull << (8 * (s->ntend - i))) - 1;
		uint64_t d = end_dist8(bytes8_load(mc->tf + i), pf);
		uint64_t set = bytes8_zero(d) & keep, one = bytes8_zero(d ^ BYTES8(1)) & keep;
		for (uint64_t hit = set | one; hit; hit &= hit - 1) {
			if (set & hit & (~hit + 1))
				put_one_end(s, em, C_SET, f, match_card(hit, i));
			else
				fit[nfit++] = match_card(hit, i);
		}
	}
	if (nfit >= 2 && !mc->sized) {   /* a join of two ends: is it one two-card strand? */
		strand_sizes(s, mc->size);
		mc->sized = 1;
	}
	if (nfit) {
		size_t len = move_prefix(m, C_ATTACH, f);
		emit_subsets(s, em, m, (int)len, fit, nfit, mc->size, 0, pick, 0);
	}
}

/* Every legal move of seat that plays face f (-1: the moves without a card). */
static void moves_for(const struct dna_state *s, struct mctx *mc, int seat, int f,
		      struct emitter *em)
{
	char m[GAME_MOVE_MAX + 1], sw[3];
	if (mc->pick) {
		for (int i = 0; f < 0 && seat == s->holder && i < DNA_STRANDS; i++)
			if ((mc->pick >> i) & 1u) {
				put(em, spell(m, C_CLEAR, strand_word(sw, i), NULL),
				    &(struct move_info){ C_CLEAR, i, 0, NULL });
			}
		return;
	}
	if (mc->pkind == PR_DISCARD) {
		if (f >= 0 && prompt_waits(&s->pr, seat)) {
			move_prefix(m, C_DISCARD, f);
			put(em, m,
			    &(struct move_info){ C_DISCARD, 0, 0, NULL });
		}
		return;
	}
	switch (s->stage) {
	case ST_RACE:
		if (!prompt_waits(&s->pr, seat))
			return;
		if (f < 0) {
			put(em, spell(m, C_PASS, NULL, NULL), &(struct move_info){ C_PASS, 0, 0, NULL });
			return;
		}
		for (int slot = 0; slot < DNA_STRANDS; slot++)
			for (int i = 0; i < s->ntend; i++)
				if (s->strand[s->tend_b[i]] == slot) {
					if (makes_set(f, s->tend_a[i], s->tend_b[i])) {
						put(em, card_to_strand(m, C_OPEN, f, slot),
						    &(struct move_info){ C_OPEN, slot, 0, NULL });
					}
					break;
				}
		return;
	case ST_REFILL:
		if (f >= 0 && s->refill_slot[seat] >= 0) {
			int r = s->refill_slot[seat];
			put(em, card_to_strand(m, C_REFILL, f, r),
			    &(struct move_info){ C_REFILL, r, 0, NULL });
		}
		return;
	case ST_CHOOSE: {
		if (s->choice_kind[seat] != CH_NONE)
			return;
		if (f < 0) {
			put(em, draw_move(), &(struct move_info){ C_DRAW, 0, 0, NULL });
			return;
		}
		choose_moves(s, mc, f, em);
		return;
	}
	default:
		return;
	}
}

/* Every legal move of seat: those without a card first, then per face. */
struct plain {
	move_emit_fn emit;
	void *ctx;
};

static void emit_plain(void *ctx, const char *move, const struct move_info *mi)
{
	const struct plain *p = ctx;
	(void)mi;
	p->emit(p->ctx, move);
}

static int dna_moves(const void *st, int seat, move_emit_fn emit, void *ctx)
{
	const struct dna_state *s = st;
	struct plain pl = { emit, ctx };
	struct emitter em = { emit_plain, &pl, 0 };
	struct mctx mc;
	int faces[DNA_FACES];
	if (seat < 0 || seat >= s->n || s->stage == ST_OVER || !active(s, seat))
		return 0;
	if (may_rechoose(s, seat)) {
		/* the choices it may change to: those of the state without its
		 * choice */
		static _Thread_local struct dna_state un;
		un = *s;
		unchoose(&un, seat);
		s = &un;
	}
	mctx_init(s, &mc);
	moves_for(s, &mc, seat, -1, &em);
	/* the usual case, choosing, straight to the choices per face (what
	 * moves_for() does for each face then) */
	int choosing = !mc.pick && mc.pkind != PR_DISCARD && s->stage == ST_CHOOSE;
	if (choosing && s->choice_kind[seat] != CH_NONE)
		return em.count;
	int nf = hand_faces(s, seat, faces);
	for (int i = 0; i < nf; i++) {
		if (choosing)
			choose_moves(s, &mc, faces[i], &em);
		else
			moves_for(s, &mc, seat, faces[i], &em);
	}
	return em.count;
}

/* ---- snapshot ---- */

/* Writes the whole state (the table list is derived and left out). */
static int dna_encode(const void *st, struct buf *b)
{
	const struct dna_state *s = st;
	size_t start = snap_begin(b, "dna", DNA_FORMAT);
	ser_u8(b, s->n);
	ser_u8(b, s->decks);
	ser_u8(b, s->play_on);
	ser_u8(b, s->race);
	ser_u8(b, s->last_must_draw);
	ser_u8(b, s->penalise);
	ser_u16(b, s->turn_seconds);
	ser_u8(b, s->stage);
	ser_u8(b, s->holder);
	ser_u16(b, s->turn);
	ser_u32(b, s->epoch);
	prompt_encode(b, &s->pr);
	ser_rng(b, &s->rng);
	for (int c = 0; c < s->ncards; c++) {
		ser_u8(b, s->loc[c]);
		ser_u8(b, s->own[c]);
		if (s->loc[c] != L_TABLE)
			continue;
		ser_u8(b, s->strand[c]);
		ser_u8(b, s->endid[c]);
		ser_u8(b, s->setm[c]);
		ser_u16(b, s->pseq[c]);
		ser_u16s(b, s->par[c], s->npar[c]);
	}
	ser_u16s(b, s->deck, s->ndeck);
	ser_u16(b, s->nseq);
	ser_u16(b, s->tseq);
	ser_u16(b, (unsigned)s->ntend);
	for (int i = 0; i < s->ntend; i++) {
		ser_u8(b, s->tend_id[i]);
		ser_u16(b, s->tend_a[i]);
		ser_u16(b, s->tend_b[i]);
	}
	int ntook = 0;
	for (int i = 1; i <= DNA_END_IDS; i++)
		ntook += s->took[i] != 0;
	ser_u8(b, (unsigned)ntook);
	for (int i = 1; i <= DNA_END_IDS; i++)
		if (s->took[i]) {
			ser_u8(b, (unsigned)i);
			ser_u8(b, s->took[i]);
		}
	for (int p = 0; p < s->n; p++) {
		ser_u8(b, s->choice_kind[p]);
		ser_u8(b, s->choice_auto[p]);
		ser_u16(b, s->choice_card[p]);
		ser_u8(b, s->choice_nends[p]);
		for (int i = 0; i < DNA_JOIN_MAX; i++)
			ser_u8(b, s->choice_ends[p][i]);
		ser_u8(b, (unsigned)(s->refill_slot[p] + 1));
	}
	ser_u8(b, s->norder);
	for (int i = 0; i < s->norder; i++)
		ser_u8(b, s->order[i]);
	ser_u8(b, s->resi);
	ser_u8(b, (unsigned)(s->owing_seat + 1));
	ser_u8(b, s->owed_cards);
	ser_u8(b, s->nrew);
	for (int i = 0; i < s->nrew; i++)
		ser_u8(b, s->rew[i]);
	ser_u8(b, s->nfin);
	for (int i = 0; i < s->nfin; i++)
		ser_u8(b, s->fin[i]);
	evlog_encode(b, &s->log, 1);
	return snap_end(b, start);
}

static int dna_check(const void *st, struct rerr *e);

/* Reads one byte that must lie in lo..hi. */
static unsigned rd8(struct de *d, unsigned lo, unsigned hi, int *bad)
{
	unsigned v = de_u8(d);
	if (v < lo || v > hi) {
		*bad = 1;
		return lo;   /* never an out-of-range count or index, even on the way to failing */
	}
	return v;
}

/* Reads two bytes that must lie in lo..hi. */
static unsigned rd16(struct de *d, unsigned lo, unsigned hi, int *bad)
{
	unsigned v = de_u16(d);
	if (v < lo || v > hi) {
		*bad = 1;
		return lo;
	}
	return v;
}

/* Reads a snapshot: envelope, every field range-checked, then check(); on
 * failure the state is zeroed. */
static int dna_decode(void *st, struct de *d, struct rerr *e)
{
	struct dna_state *s = st;
	int bad = 0;
	s->n = (uint8_t)rd8(d, 2, DNA_SEATS, &bad);
	s->decks = (uint8_t)rd8(d, 1, DNA_DECKS_MAX, &bad);
	if (bad || d->err)
		return rerr_set(e, "Spielstand beschädigt: Spieler- oder Deckzahl");
	s->ncards = (uint16_t)(DNA_FACES * s->decks);
	s->play_on = (uint8_t)rd8(d, 0, 1, &bad);
	s->race = (uint8_t)rd8(d, 0, 1, &bad);
	s->last_must_draw = (uint8_t)rd8(d, 0, 1, &bad);
	s->penalise = (uint8_t)rd8(d, 0, 1, &bad);
	s->turn_seconds = (uint16_t)rd16(d, 0, 600, &bad);
	s->stage = (uint8_t)rd8(d, 0, ST_OVER, &bad);
	s->holder = (uint8_t)rd8(d, 0, s->n - 1u, &bad);
	s->turn = (uint16_t)rd16(d, 0, DNA_TURN_MAX, &bad);
	s->epoch = de_u32(d);
	if (prompt_decode(d, &s->pr) != 0)
		bad = 1;
	de_rng(d, &s->rng);
	for (int c = 0; c < s->ncards && !bad && !d->err; c++) {
		s->loc[c] = (uint8_t)rd8(d, L_DECK, L__MAX - 1, &bad);
		s->own[c] = (uint8_t)rd8(d, 0, s->n - 1u, &bad);
		if (s->loc[c] != L_TABLE)
			continue;
		s->strand[c] = (uint8_t)rd8(d, 0, DNA_STRANDS - 1, &bad);
		s->endid[c] = (uint8_t)rd8(d, 0, DNA_END_IDS, &bad);
		s->setm[c] = (uint8_t)rd8(d, 0, 1, &bad);
		s->pseq[c] = (uint16_t)de_u16(d);
		s->npar[c] = (uint8_t)de_u16s(d, s->par[c], DNA_JOIN_MAX);
		for (int k = 0; k < s->npar[c]; k++)
			if (s->par[c][k] >= s->ncards)
				bad = 1;
	}
	for (int c = 0; c < s->ncards; c++)
		if (s->loc[c] == L_TABLE)
			s->tab[s->ntab++] = (uint16_t)c;
	s->ndeck = de_u16s(d, s->deck, DNA_CARDS);
	for (int i = 0; i < s->ndeck; i++)
		if (s->deck[i] >= s->ncards)
			bad = 1;
	s->nseq = (uint16_t)de_u16(d);
	s->tseq = (uint16_t)de_u16(d);
	s->ntend = (int)rd16(d, 0, s->ncards, &bad);
	for (int i = 0; i < s->ntend && !bad && !d->err; i++) {
		s->tend_id[i] = (uint8_t)rd8(d, 1, DNA_END_IDS, &bad);
		s->tend_a[i] = (uint16_t)rd16(d, 0, s->ncards - 1u, &bad);
		s->tend_b[i] = (uint16_t)rd16(d, 0, s->ncards - 1u, &bad);
	}
	unsigned ntook = rd8(d, 0, DNA_END_IDS, &bad);
	for (unsigned i = 0; i < ntook && !bad; i++) {
		unsigned id = rd8(d, 1, DNA_END_IDS, &bad);
		if (s->took[id])
			bad = 1;
		s->took[id] = (uint8_t)rd8(d, 1, 2, &bad);
	}
	for (int q = 0; q < s->n; q++) {
		s->choice_kind[q] = (uint8_t)rd8(d, 0, CH__MAX - 1, &bad);
		s->choice_auto[q] = (uint8_t)rd8(d, 0, 2, &bad);
		s->choice_card[q] = (uint16_t)rd16(d, 0, s->ncards - 1u, &bad);
		s->choice_nends[q] = (uint8_t)rd8(d, 0, DNA_JOIN_MAX, &bad);
		for (int i = 0; i < DNA_JOIN_MAX; i++)
			s->choice_ends[q][i] = (uint8_t)rd8(d, 0, DNA_END_IDS, &bad);
		s->refill_slot[q] = (int8_t)((int)rd8(d, 0, DNA_STRANDS, &bad) - 1);
	}
	for (int q = s->n; q < DNA_SEATS; q++)
		s->refill_slot[q] = -1;
	s->norder = (uint8_t)rd8(d, 0, s->n, &bad);
	for (int i = 0; i < s->norder; i++)
		s->order[i] = (uint8_t)rd8(d, 0, s->n - 1u, &bad);
	s->resi = (uint8_t)rd8(d, 0, s->norder, &bad);
	s->owing_seat = (int8_t)((int)rd8(d, 0, s->n, &bad) - 1);
	s->owed_cards = (uint8_t)rd8(d, 0, 3, &bad);
	s->nrew = (uint8_t)rd8(d, 0, s->n, &bad);
	for (int i = 0; i < s->nrew; i++)
		s->rew[i] = (uint8_t)rd8(d, 0, s->n - 1u, &bad);
	s->nfin = (uint8_t)rd8(d, 0, s->n, &bad);
	for (int i = 0; i < s->nfin; i++) {
		s->fin[i] = (uint8_t)rd8(d, 0, s->n - 1u, &bad);
		if ((s->finmask >> s->fin[i]) & 1u)
			bad = 1;
		s->finmask |= (uint16_t)(1u << s->fin[i]);
	}
	if (evlog_decode(d, &s->log, DNA_LOG, 1) != 0)
		bad = 1;
	if (d->err)
		return rerr_set(e, "Spielstand beschädigt: zu kurz");
	if (bad)
		return rerr_set(e, "Spielstand beschädigt: Wert außerhalb des Bereichs");
	return 0;
}

/* ---- invariants ---- */

/* The log's events are well-formed, and in each turn, oldest first: once
 * a strand was cleared into the deck and laid anew, no card of that turn's
 * choices is laid on it (its start-of-turn ends are gone; the new strand
 * has none of them). */
static int check_log(const struct dna_state *s, struct rerr *e)
{
	unsigned relaid = 0;
	if (evlog_check(&s->log, DNA_LOG, EV__MAX, s->n, e) != 0)
		return -1;
	for (int i = 0; i < s->log.n; i++) {
		const struct game_event *v = &s->log.ev[i];
		int ends_ok = v->n <= DNA_JOIN_MAX;
		for (int k = 0; k < v->n && ends_ok; k++)
			ends_ok = v->list[k] >= 1 && v->list[k] <= DNA_END_IDS;
		if (v->where >= DNA_STRANDS || v->arg != 0 || !ends_ok ||
		    (v->card != EVENT_NO_CARD && v->card >= s->ncards))
			return rerr_set(e, "DNA: Protokolleintrag %d ungültig", i);
		if (v->type == EV_TURN)
			relaid = 0;
		else if (v->type == EV_RELAY)
			relaid |= 1u << v->where;
		else if ((v->type == EV_ATTACH || v->type == EV_SET) && ((relaid >> v->where) & 1u))
			return rerr_set(e, "DNA: Karte an Strang %d gelegt, nachdem er in diesem Zug "
					"neu gelegt wurde", v->where + 1);
	}
	return 0;
}

/* Counters, the placing order since the turn start and the holder's pick. */
static int check_turn_extras(const struct dna_state *s, struct rerr *e)
{
	if (s->turn > DNA_TURN_MAX || s->tseq > s->nseq || s->penalise > 1)
		return rerr_set(e, "DNA: Zugzähler oder Legefolge falsch");
	for (int i = 1; i <= DNA_END_IDS; i++)
		if (s->took[i] > 2)
			return rerr_set(e, "DNA: Ende e%d zu oft gezählt", i);
	if ((s->stage == ST_CHOOSE || s->stage == ST_RACE) && s->nseq != s->tseq)
		return rerr_set(e, "DNA: Karte gelegt, bevor gewählt wurde");
	for (int i = 0; i < s->ntend && (s->stage == ST_CHOOSE || s->stage == ST_RACE); i++)
		if (s->pseq[s->tend_a[i]] >= s->tseq || s->pseq[s->tend_b[i]] >= s->tseq)
			return rerr_set(e, "DNA: Ende e%d ist jünger als der Zug", s->tend_id[i]);
	unsigned pick = pick_mask(s);
	if (prompt_kind(&s->pr) == PR_PICK) {
		const struct prompt *p = prompt_peek(&s->pr);
		int resolving = s->stage == ST_RESOLVE || s->stage == ST_CLEANUP ||
				s->stage == ST_REVEAL || s->stage == ST_FILL;
		if (!resolving || s->ndeck != 0 || p->deadline == 0 || p->owner != s->holder ||
		    p->seats != 1u << s->holder || p->waiting != p->seats ||
		    !active(s, s->holder) || pick != longest_strands(s) || !(pick & (pick - 1u)))
			return rerr_set(e, "DNA: Wahl des Deckhalters unmöglich");
	}
	return check_log(s, e);
}

/* Cards: the deck, every card in exactly one place, the table list, the
 * links between table cards. Counts each seat's cards in hand or chosen
 * into hc[] and the chosen cards into *nchoice. */
static int check_cards(const struct dna_state *s, int *hc, int *nchoice, struct rerr *e)
{
	uint8_t seen[DNA_CARDS];
	memset(seen, 0, sizeof seen);
	if (s->ndeck < 0 || s->ndeck > s->ncards)
		return rerr_set(e, "DNA: Deckgröße falsch");
	for (int i = 0; i < s->ndeck; i++) {
		int c = s->deck[i];
		if (c >= s->ncards || seen[c] || s->loc[c] != L_DECK)
			return rerr_set(e, "DNA: Deckkarte %d doppelt oder nicht im Deck", c);
		seen[c] = 1;
	}
	int nt = 0;
	for (int c = 0; c < s->ncards; c++) {
		if (s->loc[c] == L_HAND || s->loc[c] == L_CHOICE)
			hc[s->own[c] < DNA_SEATS ? s->own[c] : 0]++;
		if (s->loc[c] == L_TABLE) {
			if (nt >= s->ntab || s->tab[nt] != c)
				return rerr_set(e, "DNA: Liste der Tischkarten falsch");
			if (s->pseq[c] >= s->nseq)
				return rerr_set(e, "DNA: Legefolge von Karte %d zu groß", c);
			nt++;
		}
		if (s->loc[c] == L_DECK && !seen[c])
			return rerr_set(e, "DNA: Karte %d gilt als Deckkarte, liegt aber nicht im Deck", c);
		if (s->loc[c] <= L_NONE || s->loc[c] >= L__MAX || s->own[c] >= s->n)
			return rerr_set(e, "DNA: Karte %d hat keinen Ort", c);
		if (s->loc[c] == L_CHOICE) {
			int p = s->own[c];
			if (!lays_card(s, p) || s->choice_card[p] != c)
				return rerr_set(e, "DNA: gewählte Karte %d ohne Wahl", c);
			(*nchoice)++;
		}
		/* with play_on, the party's end places the last one still in,
		 * who keeps the cards in hand */
		if (s->loc[c] == L_HAND && !active(s, s->own[c]) &&
		    !(s->stage == ST_OVER && s->play_on && s->own[c] == s->fin[s->nfin - 1]))
			return rerr_set(e, "DNA: fertiger Spieler hat noch Karte %d", c);
		if (s->loc[c] != L_TABLE)
			continue;
		if (s->strand[c] >= DNA_STRANDS || s->npar[c] > DNA_JOIN_MAX)
			return rerr_set(e, "DNA: Strangkarte %d falsch", c);
		for (int k = 0; k < s->npar[c]; k++) {
			int q = s->par[c][k];
			if (q >= s->ncards || s->loc[q] != L_TABLE || s->strand[q] != s->strand[c] ||
			    q == c)
				return rerr_set(e, "DNA: Verbindung %d–%d falsch", c, q);
			if (s->pseq[q] >= s->pseq[c])
				return rerr_set(e, "DNA: Karte %d hängt an später gelegter Karte", c);
			for (int j = 0; j < k; j++)
				if (s->par[c][j] == q)
					return rerr_set(e, "DNA: doppelte Verbindung an Karte %d", c);
		}
	}
	if (nt != s->ntab)
		return rerr_set(e, "DNA: Liste der Tischkarten falsch");
	return 0;
}

/* Choices and refills of every seat, against the cards (hc, nchoice from
 * check_cards) and the stage. */
static int check_choices(const struct dna_state *s, const int *hc, int nchoice, struct rerr *e)
{
	int pending = 0;
	for (int p = 0; p < s->n; p++) {
		if (s->choice_kind[p] >= CH__MAX || s->choice_nends[p] > DNA_JOIN_MAX)
			return rerr_set(e, "DNA: Wahl von Platz %d falsch", p);
		if (lays_card(s, p)) {
			int c = s->choice_card[p], ne = s->choice_nends[p];
			if (c >= s->ncards || s->loc[c] != L_CHOICE || s->own[c] != p)
				return rerr_set(e, "DNA: gewählte Karte von Platz %d fehlt", p);
			if (ne < 1 || (s->choice_kind[p] == CH_SET && ne != 1))
				return rerr_set(e, "DNA: Wahl von Platz %d ohne Enden", p);
			for (int i = 0; i < s->choice_nends[p]; i++)
				if (tend_index(s, s->choice_ends[p][i]) < 0)
					return rerr_set(e, "DNA: Wahl von Platz %d nennt ein unbekanntes Ende", p);
			pending++;
		}
		if (s->choice_kind[p] != CH_NONE && s->stage != ST_CHOOSE && s->stage != ST_RESOLVE)
			return rerr_set(e, "DNA: Wahl außerhalb des Zuges");
		int rs = s->refill_slot[p];
		if (rs >= DNA_STRANDS || (rs >= 0 && s->stage != ST_REFILL))
			return rerr_set(e, "DNA: Ergänzung von Platz %d falsch", p);
	}
	if (pending != nchoice)
		return rerr_set(e, "DNA: gewählte Karten und Wahlen passen nicht zusammen");
	for (int p = 0; p < s->n; p++) {
		if (!active(s, p) && s->choice_kind[p] != CH_NONE)
			return rerr_set(e, "DNA: fertiger Platz %d hat gewählt", p);
		if (active(s, p) && s->stage != ST_OVER && hc[p] == 0)
			return rerr_set(e, "DNA: Platz %d hat keine Karten, ist aber noch dabei", p);
		if (prompt_kind(&s->pr) == PR_DISCARD && prompt_waits(&s->pr, p) &&
		    hand_count(s, p) == 0)
			return rerr_set(e, "DNA: Platz %d soll abwerfen, hat aber keine Handkarte", p);
	}
	if ((s->stage == ST_CHOOSE || s->stage == ST_RACE) && !active(s, s->holder))
		return rerr_set(e, "DNA: der Deckhalter ist schon fertig");
	if (s->stage == ST_RACE && prompt_peek(&s->pr)->waiting == 0)
		return rerr_set(e, "DNA: alle haben gepasst, das Rennen läuft aber noch");
	if (s->owed_cards > 0 && s->owing_seat < 0)
		return rerr_set(e, "DNA: Strafkarten ohne Spieler");
	return 0;
}

/* Strands: connected, at most three, ends numbered uniquely, and at the
 * start of a turn the ends of the turn's list lie open on the table. */
static int check_strands(const struct dna_state *s, const int *size, struct rerr *e)
{
	uint8_t deg[DNA_CARDS];
	degrees(s, deg);
	uint16_t up[DNA_CARDS];
	for (int ti = 0, c = 0; ti < s->ntab && (c = s->tab[ti]) >= 0; ti++)
		up[c] = (uint16_t)c;
	for (int ti = 0, c = 0; ti < s->ntab && (c = s->tab[ti]) >= 0; ti++)
			for (int k = 0; k < s->npar[c]; k++) {
				int x = c, y = s->par[c][k];
				while (up[x] != x)
					x = up[x];
				while (up[y] != y)
					y = up[y];
				if (x != y)
					up[x < y ? y : x] = (uint16_t)(x < y ? x : y);
			}
	int rootof[DNA_STRANDS] = { -1, -1, -1 };
	for (int ti = 0, c = 0; ti < s->ntab && (c = s->tab[ti]) >= 0; ti++) {
		int x = c;
		while (up[x] != x)
			x = up[x];
		if (rootof[s->strand[c]] < 0)
			rootof[s->strand[c]] = x;
		else if (rootof[s->strand[c]] != x)
			return rerr_set(e, "DNA: Strang %d ist nicht zusammenhängend", s->strand[c] + 1);
	}
	uint8_t used[DNA_END_IDS + 1];
	memset(used, 0, sizeof used);
	for (int ti = 0, c = 0; ti < s->ntab && (c = s->tab[ti]) >= 0; ti++)
		if (s->endid[c]) {
			if (used[s->endid[c]] || s->endid[c] > DNA_END_IDS)
				return rerr_set(e, "DNA: Ende e%d doppelt", s->endid[c]);
			used[s->endid[c]] = 1;
		}
	for (int i = 0; i < s->ntend; i++)
		for (int j = 0; j < i; j++)
			if (s->tend_id[i] == s->tend_id[j])
				return rerr_set(e, "DNA: Ende e%d doppelt in der Zugliste", s->tend_id[i]);
	if (s->stage == ST_CHOOSE || s->stage == ST_RACE) {
		for (int i = 0; i < s->ntend; i++) {
			int a = s->tend_a[i], b = s->tend_b[i];
			if (s->loc[a] != L_TABLE || s->loc[b] != L_TABLE || !linked(s, a, b) ||
			    deg[b] != 1 || s->endid[b] != s->tend_id[i])
				return rerr_set(e, "DNA: Ende e%d liegt nicht auf dem Tisch", s->tend_id[i]);
		}
		int ends = 0;
		for (int ti = 0, c = 0; ti < s->ntab && (c = s->tab[ti]) >= 0; ti++)
			ends += deg[c] == 1;
		if (ends != s->ntend)
			return rerr_set(e, "DNA: Zahl der Enden stimmt nicht");
		for (int i = 0; i < DNA_STRANDS; i++)
			if (size[i] == 1)
				return rerr_set(e, "DNA: Strang %d hat zu Zugbeginn nur eine Karte", i + 1);
		if (s->ndeck == 0 && prompt_kind(&s->pr) != PR_DISCARD)
			return rerr_set(e, "DNA: leeres Deck ohne Abwurf");
	}
	return 0;
}

/* The party moves on: the resolution's counters, the end, somebody able to
 * act or a step that runs by itself, possible refills (size: cards per
 * strand). */
static int check_progress(const struct dna_state *s, const int *size, struct rerr *e)
{
	if (s->owing_seat >= s->n || s->owed_cards > 3 || s->resi > s->norder || s->nrew > s->n)
		return rerr_set(e, "DNA: Auflösung falsch");
	if (s->stage == ST_OVER && s->pr.n)
		return rerr_set(e, "DNA: vorbei, aber noch eine Frist offen");
	if (s->stage != ST_OVER && nactive(s) < (s->play_on ? 2 : s->n))
		return rerr_set(e, "DNA: Partie müsste vorbei sein");
	for (int i = 0; i < s->pr.n; i++)
		if (s->pr.p[i].waiting & s->finmask)
			return rerr_set(e, "DNA: fertiger Spieler soll handeln");
	for (int i = 0; i < s->nfin; i++)
		if (!((s->finmask >> s->fin[i]) & 1u))
			return rerr_set(e, "DNA: Platzliste falsch");
	const struct prompt *top = prompt_peek(&s->pr);
	if ((s->stage == ST_RACE || s->stage == ST_CHOOSE) && top->waiting == 0 &&
	    top->deadline == 0 && !(top->flags & PROMPT_LATER))
		return rerr_set(e, "DNA: niemand kann handeln");
	if ((s->stage == ST_RESOLVE || s->stage == ST_CLEANUP || s->stage == ST_REVEAL ||
	     s->stage == ST_FILL || s->stage == ST_NEXT) && !interrupted(s))
		return rerr_set(e, "DNA: Auflösung steht still");
	if (s->stage == ST_REFILL && top->waiting == 0)
		return rerr_set(e, "DNA: Ergänzung ohne Spieler");
	int slotuse[DNA_STRANDS] = { 0 };
	for (int p = 0; p < s->n; p++) {
		if (s->refill_slot[p] < 0)
			continue;
		if (!active(s, p) || hand_count(s, p) == 0 || size[s->refill_slot[p]] != 1 ||
		    slotuse[s->refill_slot[p]]++)
			return rerr_set(e, "DNA: Ergänzung von Platz %d ist nicht möglich", p);
	}
	return 0;
}

/* The prompts agree with the stage: none once over; while the race, the
 * choice or the refill runs, that stage's prompt alone (for the seats
 * still in; waiting: who has not passed, chosen, refilled); while the
 * party resolves, the discard step or the holder's pick over it. */
static int check_prompts(const struct dna_state *s, struct rerr *e)
{
	const struct prompts *ps = &s->pr;
	if (prompt_check(ps, PR__MAX, s->n, e) != 0)
		return -1;
	static const uint8_t want[ST__MAX] = {
		[ST_RACE] = PR_RACE, [ST_CHOOSE] = PR_CHOOSE, [ST_REFILL] = PR_REFILL,
	};
	int k = prompt_kind(ps);
	if (s->stage == ST_OVER ? ps->n != 0 :
	    ps->n != 1 || (want[s->stage] ? k != want[s->stage] : k != PR_DISCARD && k != PR_PICK))
		return rerr_set(e, "DNA: Aufforderung %d passt nicht zur Phase %d", k, s->stage);
	if (ps->n == 0)
		return 0;
	const struct prompt *p = &ps->p[0];
	uint32_t undecided = 0, refill = 0;
	for (int q = 0; q < s->n; q++) {
		undecided |= (uint32_t)(active(s, q) && s->choice_kind[q] == CH_NONE) << q;
		refill |= (uint32_t)(s->refill_slot[q] >= 0) << q;
	}
	if ((p->flags & PROMPT_WINDOW) || (p->owner >= 0) != (k == PR_PICK) ||
	    (k != PR_PICK && p->arg) || (p->waiting & ~active_mask(s)) ||
	    ((k == PR_RACE || k == PR_CHOOSE) && p->seats != active_mask(s)) ||
	    (k == PR_CHOOSE && p->waiting != undecided) ||
	    (k == PR_REFILL && p->waiting != refill))
		return rerr_set(e, "DNA: Aufforderung %d falsch", k);
	return 0;
}

/* A pending choice names distinct ends of this turn that its card fits
 * (attach) or completes a set with (set), as when it was chosen. */
static int check_pending(const struct dna_state *s, struct rerr *e)
{
	for (int p = 0; p < s->n; p++) {
		if (!lays_card(s, p) || s->loc[s->choice_card[p]] != L_CHOICE)
			continue;
		if (s->choice_nends[p] < 1 || s->choice_nends[p] > DNA_JOIN_MAX)
			return rerr_set(e, "DNA: Wahl von Platz %d ohne Enden", p);
		for (int i = 0; i < s->choice_nends[p]; i++) {
			int t = tend_index(s, s->choice_ends[p][i]);
			if (t < 0)
				return rerr_set(e, "DNA: Wahl von Platz %d nennt ein fremdes Ende", p);
			for (int k = 0; k < i; k++)
				if (s->choice_ends[p][k] == s->choice_ends[p][i])
					return rerr_set(e, "DNA: Wahl von Platz %d nennt ein Ende doppelt", p);
			int ok = joins(s->choice_kind[p], s->choice_card[p], s->tend_a[t], s->tend_b[t]);
			/* with penalties any card may be chosen; resolve() judges it */
			if (!ok && !s->penalise)
				return rerr_set(e, "DNA: gewählte Karte von Platz %d passt nicht", p);
		}
	}
	return 0;
}

/* Invariants: every card in exactly one place, strands connected and at
 * most three, ends numbered once, choices consistent, somebody can act. */
static int dna_check(const void *st, struct rerr *e)
{
	const struct dna_state *s = st;
	int hc[DNA_SEATS] = { 0 }, nchoice = 0, size[DNA_STRANDS];
	if (s->n < 2 || s->n > DNA_SEATS || s->decks < 1 || s->decks > DNA_DECKS_MAX ||
	    s->ncards != DNA_FACES * s->decks)
		return rerr_set(e, "DNA: Spieler- oder Kartenzahl falsch");
	if (s->stage >= ST__MAX || s->holder >= s->n)
		return rerr_set(e, "DNA: Phase oder Deckhalter falsch");
	if (check_prompts(s, e) != 0)
		return -1;
	if (check_cards(s, hc, &nchoice, e) != 0 || check_choices(s, hc, nchoice, e) != 0)
		return -1;
	strand_sizes(s, size);
	if (check_strands(s, size, e) != 0 || check_progress(s, size, e) != 0 ||
	    check_pending(s, e) != 0)
		return -1;
	return check_turn_extras(s, e);
}

/* ---- view ---- */

/* A card on the table: its symbols in the top 60 units, its colour as a
 * word below them (readable without telling colours apart); an end's tag
 * under the card. */
enum { CARD_W = 40, CARD_H = 70, COL_W = 56, ROW_H = 84 };

/* Emits the fields every drawn card has, those of face f (a view_group:
 * the JSON writer copies them from its memo). A page's tree (html_only)
 * gets what the template reads only, in fewer values: no code and number,
 * a symbol's class (colour and fill) as one text, and no symbols but a
 * flag sym1, sym2 or sym3, as the template places them itself; the JSON
 * twin gets every entry (docs/benchmarks.md, "DNA's view, cheaper"). */
static void face_fields(struct view_sink *v, int f)
{
	/* a symbol's class, its colour and fill, as one text (page's tree) */
#define SYM_CLASS(col) { "dna-sym dna-c-" col " dna-f-voll", \
			 "dna-sym dna-c-" col " dna-f-gestreift", "dna-sym dna-c-" col " dna-f-leer" }
	static const char *const sym_class[3][3] = { SYM_CLASS("rot"), SYM_CLASS("gruen"),
						     SYM_CLASS("lila") };
#undef SYM_CLASS
	int num = attr(f, 0) + 1, html = v->html_only;
	const char *colour = colour_name[attr(f, 1)], *fill = fill_name[attr(f, 2)],
		   *shape = shape_name[attr(f, 3)];
	if (!html)
		vstr(v, "code", face_text(f)->code);
	vtext(v, "label", face_label[f]);
	if (!html) {
		vnum(v, "num", num);
		vstr(v, "colour", colour);
	}
	vtext(v, "colour_word", colour_word[attr(f, 1)]);   /* readable without colour */
	if (html)
		vstr(v, "sym_class", sym_class[attr(f, 1)][attr(f, 2)]);
	else
		vstr(v, "fill", fill);
	vstr(v, "shape", shape);
	if (html) {   /* the template places 1, 2 or 3 symbols itself */
		static const char *const count[3] = { "sym1", "sym2", "sym3" };
		vflag(v, count[num - 1], 1);
		return;
	}
	static const int ys[3][3] = { { 22 }, { 13, 31 }, { 4, 22, 40 } };
	for (int i = 0; i < num; i++) {
		vbegin(v, "sym");
		vnum(v, "sy", ys[num - 1][i]);
		vstr(v, "shape", shape);
		vstr(v, "colour", colour);
		vstr(v, "fill", fill);
		vend(v);
	}
}

static const struct view_group face_group = { face_fields, DNA_FACES };

/* The fields of card c's face (face_fields), a card the viewer sees. */
static void view_card_fields(struct view_sink *v, int c)
{
	vgroup(v, &face_group, face(c));
}

/* Sorts the cards of one column, cc[0..n), by where their neighbours in
 * column `by` lie (their mean row; ties, and cards without one there, in
 * placing order) and numbers their rows anew. */
static void column_sort(const struct dna_state *s, const uint16_t *q, int m, const int16_t *col,
			int16_t *row, uint16_t *cc, int n, int by)
{
	int32_t key[DNA_CARDS];
	for (int i = 0; i < n; i++) {
		int c = cc[i], sum = 0, cnt = 0;
		for (int j = 0; j < m; j++)
			if (col[q[j]] == by && linked(s, c, q[j]))
				sum += row[q[j]], cnt++;
		key[c] = cnt ? sum * 64 / cnt : row[c] * 64;
	}
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && (key[cc[j]] < key[cc[j - 1]] ||
					  (key[cc[j]] == key[cc[j - 1]] &&
					   s->pseq[cc[j]] < s->pseq[cc[j - 1]])); j--) {
			uint16_t t = cc[j];
			cc[j] = cc[j - 1];
			cc[j - 1] = t;
		}
	for (int i = 0; i < n; i++)
		row[cc[i]] = (int16_t)i;
}

/* Orders each column by where its cards' neighbours lie (the barycentre
 * method of layered drawings): left to right by the column before, then
 * back and forth again, so that a card laid at several ends comes between
 * them. q[0..m): the cards, columns ascending; row[]: the walk's order. */
static void strand_rows(const struct dna_state *s, const uint16_t *q, int m, const int16_t *col,
			int16_t *row, int maxcol)
{
	uint16_t cc[DNA_CARDS];
	for (int sweep = 0; sweep < 3; sweep++) {
		int back = sweep % 2;
		for (int k = back ? maxcol - 1 : 1; back ? k >= 0 : k <= maxcol; k += back ? -1 : 1) {
			int n = 0;
			for (int i = 0; i < m; i++)
				if (col[q[i]] == k)
					cc[n++] = q[i];
			for (int i = 1; i < n; i++)   /* the current order first */
				for (int j = i; j > 0 && row[cc[j]] < row[cc[j - 1]]; j--) {
					uint16_t t = cc[j];
					cc[j] = cc[j - 1];
					cc[j - 1] = t;
				}
			column_sort(s, q, m, col, row, cc, n, back ? k + 1 : k - 1);
		}
	}
}

/* 1 when the lines a0-a1 and b0-b1 (cards at col/row) cross inside both.
 * Lines whose columns overlap in one column at most never do (they could
 * meet only at an end of one of them), as most pairs of a strand: they are
 * told apart by their columns first. */
static int lines_cross(const int16_t *col, const int16_t *row, int a0, int a1, int b0, int b1)
{
	int alo = col[a0] < col[a1] ? col[a0] : col[a1], ahi = col[a0] ^ col[a1] ^ alo,
	    blo = col[b0] < col[b1] ? col[b0] : col[b1], bhi = col[b0] ^ col[b1] ^ blo;
	if (ahi <= blo || bhi <= alo)
		return 0;
	long ax = col[a1] - col[a0], ay = row[a1] - row[a0], bx = col[b1] - col[b0],
	     by = row[b1] - row[b0];
	long d1 = ax * (row[b0] - row[a0]) - ay * (col[b0] - col[a0]);
	long d2 = ax * (row[b1] - row[a0]) - ay * (col[b1] - col[a0]);
	long d3 = bx * (row[a0] - row[b0]) - by * (col[a0] - col[b0]);
	long d4 = bx * (row[a1] - row[b0]) - by * (col[a1] - col[b0]);
	return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

/* How many lines cross one of the lines at card x or y. */
static int crossings_at(const struct dna_state *s, const uint16_t *q, int m, const int16_t *col,
			const int16_t *row, int x, int y)
{
	int n = 0;
	for (int i = 0; i < m; i++)
		for (int k = 0; k < s->npar[q[i]]; k++) {
			int a0 = q[i], a1 = s->par[a0][k];
			if (a0 != x && a1 != x && a0 != y && a1 != y)
				continue;
			for (int j = 0; j < m; j++)
				for (int l = 0; l < s->npar[q[j]]; l++)
					n += lines_cross(col, row, a0, a1, q[j], s->par[q[j]][l]);
		}
	return n;
}

/* 1 when two lines of the strand q[0..m) cross. */
static int any_crossing(const struct dna_state *s, const uint16_t *q, int m, const int16_t *col,
			const int16_t *row)
{
	for (int i = 0; i < m; i++)
		for (int k = 0; k < s->npar[q[i]]; k++)
			for (int j = i; j < m; j++)
				for (int l = j == i ? k + 1 : 0; l < s->npar[q[j]]; l++)
					if (lines_cross(col, row, q[i], s->par[q[i]][k], q[j],
							s->par[q[j]][l]))
						return 1;
	return 0;
}

/* Swaps neighbours in a column where that makes fewer lines cross (what
 * the barycentres leave around a card laid at several ends). Where no
 * lines cross, no swap can make fewer: each pair of neighbours' count of
 * crossings is not looked at then (it would be 0). */
static void strand_untangle(const struct dna_state *s, const uint16_t *q, int m,
			    const int16_t *col, int16_t *row)
{
	if (!any_crossing(s, q, m, col, row))
		return;
	for (int pass = 0; pass < 3; pass++) {
		int swapped = 0;
		for (int i = 0; i < m; i++)
			for (int j = 0; j < m; j++) {
				int x = q[i], y = q[j];
				if (col[x] != col[y] || row[y] != row[x] + 1)
					continue;
				int before = crossings_at(s, q, m, col, row, x, y);
				if (!before)
					continue;
				row[x]++, row[y]--;
				if (crossings_at(s, q, m, col, row, x, y) < before)
					swapped = 1;
				else
					row[x]--, row[y]++;
			}
		if (!swapped)
			return;
	}
}

/* A strand's drawing: every card's column and row, and every link (a card
 * and one card it was laid at) either drawn as a line or, where a line
 * would cross one already drawn, shown as a letter on both cards (mark
 * 1 = A, 2 = B, ...). Lines never cross: joins can make a strand that no
 * drawing in the plane shows without crossings (two cards laid in one turn
 * at the same three ends give the graph K3,3), so a link whose line would
 * cross is named instead (docs/views.md, "DNA's strands"). */
struct strand_link {
	uint16_t c, p;   /* c was laid at p */
	uint8_t mark;    /* 0: a line; else its letter */
};
struct strand_draw {
	int16_t col[DNA_CARDS], row[DNA_CARDS];   /* row: the order within the column */
	int16_t y[DNA_CARDS];       /* where the card is drawn: rows apart, in row order */
	uint16_t via[DNA_CARDS];    /* the card the walk came from (the root: itself) */
	uint16_t byseq[DNA_CARDS];  /* the strand's cards in placing order */
	int m, maxcol, maxrow;      /* maxrow: the largest y */
	struct strand_link link[DNA_CARDS * DNA_JOIN_MAX];
	int nlink, nmark;
};

/* Sorts the cards a[0..n) by placing order. */
static void sort_by_seq(const struct dna_state *s, uint16_t *a, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && s->pseq[a[j]] < s->pseq[a[j - 1]]; j--) {
			uint16_t t = a[j];
			a[j] = a[j - 1];
			a[j - 1] = t;
		}
}

/* Decides for every link of d, at the rows `row`, line or letter: the
 * walk's links first (their lines never cross each other in the walk's
 * order), then the others, each in placing order; a link is a line unless
 * it crosses a line taken before it, or joins two cards of one column that
 * are not next to each other (its line would run through the cards between).
 * Returns the number of letters. */
static int strand_lines(const struct dna_state *s, struct strand_draw *d, const int16_t *row)
{
	int n = 0, marks = 0;
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < d->m; i++) {
			int c = d->byseq[i];
			for (int k = 0; k < s->npar[c]; k++) {
				int p = s->par[c][k], walk = d->via[c] == p || d->via[p] == c;
				if (walk != (pass == 0))
					continue;
				int dr = row[c] - row[p], cross = d->col[c] == d->col[p] && (dr > 1 || dr < -1);
				for (int j = 0; j < n && !cross; j++)
					cross = !d->link[j].mark &&
						lines_cross(d->col, row, c, p, d->link[j].c, d->link[j].p);
				d->link[n].c = (uint16_t)c;
				d->link[n].p = (uint16_t)p;
				d->link[n].mark = (uint8_t)(cross ? ++marks : 0);
				n++;
			}
		}
	d->nlink = n;
	d->nmark = marks;
	return marks;
}

/* The breadth-first walk from the strand's oldest card (root): col[] = its
 * distance from the root, row[] = the order the walk reaches a column's
 * cards in, taking each card's new neighbours in placing order. So a card's
 * children come in the order of their parents and the walk's links from one
 * column to the next never cross. Returns the number of cards (0: no such
 * strand). */
static int strand_walk(const struct dna_state *s, int slot, struct strand_draw *d, int newest)
{
	uint16_t *q = d->byseq;
	uint16_t mem[DNA_CARDS];   /* the strand's cards, ascending: all the walk looks at */
	int ncol[DNA_CARDS];
	int head = 0, tail = 0, root = -1, nmem = 0;
	for (int ti = 0; ti < s->ntab; ti++) {   /* (col[] is read for these only) */
		int c = s->tab[ti];
		if (s->loc[c] != L_TABLE || s->strand[c] != slot)
			continue;
		d->col[c] = -1;
		mem[nmem++] = (uint16_t)c;
		if (root < 0 || (s->pseq[c] < s->pseq[root]) != newest)
			root = c;
	}
	d->m = d->maxcol = d->maxrow = d->nlink = d->nmark = 0;
	if (root < 0)
		return 0;
	memset(ncol, 0, sizeof ncol);
	d->col[root] = 0;
	d->via[root] = (uint16_t)root;
	q[tail++] = (uint16_t)root;
	while (head < tail) {
		int c = q[head++], first = tail;
		d->row[c] = (int16_t)ncol[d->col[c]]++;
		if (d->col[c] > d->maxcol)
			d->maxcol = d->col[c];
		if (d->row[c] > d->maxrow)
			d->maxrow = d->row[c];
		for (int i = 0; i < nmem; i++) {
			int x = mem[i];
			if (d->col[x] >= 0 || !linked(s, c, x))
				continue;
			d->col[x] = (int16_t)(d->col[c] + 1);
			d->via[x] = (uint16_t)c;
			q[tail++] = (uint16_t)x;
		}
		sort_by_seq(s, q + first, tail - first);   /* the new ones in placing order */
	}
	return d->m = tail;
}

/* Moves card x to place r of its column, the cards between moving one
 * place towards where x was. */
static void column_move(const struct strand_draw *d, int16_t *row, int x, int r)
{
	int from = row[x];
	for (int i = 0; i < d->m; i++) {
		int y = d->byseq[i];
		if (y == x || d->col[y] != d->col[x])
			continue;
		if (r < from && row[y] >= r && row[y] < from)
			row[y]++;
		else if (r > from && row[y] > from && row[y] <= r)
			row[y]--;
	}
	row[x] = (int16_t)r;
}

/* Moves the cards at the links shown as letters within their columns
 * wherever that leaves fewer letters (a few rounds; a card laid at two
 * cards of one column, say, next to them). Returns the letters left. */
static int strand_improve(const struct dna_state *s, struct strand_draw *d, int16_t *row)
{
	int best = strand_lines(s, d, row);
	int ncol[DNA_CARDS] = { 0 };
	for (int i = 0; i < d->m; i++)
		ncol[d->col[d->byseq[i]]]++;
	for (int round = 0; round < 4 && best > 0; round++) {
		struct strand_link mk[8];
		int nmk = 0, better = 0;
		for (int i = 0; i < d->nlink && nmk < 8; i++)
			if (d->link[i].mark)
				mk[nmk++] = d->link[i];
		for (int i = 0; i < nmk * 2; i++) {
			int x = i % 2 ? mk[i / 2].p : mk[i / 2].c, from = row[x], to = from;
			for (int r = 0; r < ncol[d->col[x]]; r++) {
				column_move(d, row, x, r);
				int n = strand_lines(s, d, row);
				if (n < best)
					best = n, to = r, better = 1;
				column_move(d, row, x, from);
			}
			column_move(d, row, x, to);
		}
		strand_lines(s, d, row);
		if (!better)
			break;
	}
	return best;
}

/* Lays out strand `slot` (struct strand_draw) from its oldest card (or its
 * newest): the walk's rows, or those the barycentres and swaps make of them
 * (a card laid at several ends comes between them), whichever leaves fewer
 * links as letters (a tie: the barycentres), each improved by
 * strand_improve(). Returns the number of letters. */
/* Rounds a / 64 to the nearest whole number, halves up, for any sign. */
static int round64(int a)
{
	return (a + 32 - ((a + 32) % 64 + 64) % 64) / 64;
}

/* Places the cards of one column, cc[0..n) in row order, as close to
 * where their neighbours in the next columns are as the order allows (one
 * row apart at least, all within rows 0..h-1): least squares under that
 * order, by pooling adjacent violators on want - i, then held within the
 * rows. */
static void column_place(const struct dna_state *s, struct strand_draw *d, const uint16_t *cc, int n,
			 int h)
{
	int z[DNA_CARDS], start[DNA_CARDS], sum[DNA_CARDS], len[DNA_CARDS], nb = 0;
	for (int i = 0; i < n; i++) {
		int c = cc[i], tot = 0, cnt = 0;
		for (int j = 0; j < d->m; j++) {
			int x = d->byseq[j];
			if ((d->col[x] == d->col[c] + 1 || d->col[x] == d->col[c] - 1) && linked(s, c, x))
				tot += d->y[x], cnt++;
		}
		z[i] = (cnt ? tot * 64 / cnt : d->y[c] * 64) - i * 64;
		start[nb] = i, sum[nb] = z[i], len[nb] = 1, nb++;
		while (nb > 1 && sum[nb - 2] * len[nb - 1] > sum[nb - 1] * len[nb - 2]) {
			sum[nb - 2] += sum[nb - 1], len[nb - 2] += len[nb - 1];
			nb--;
		}
	}
	for (int b = 0; b < nb; b++) {
		int zb = round64(sum[b] / len[b]);
		zb = zb < 0 ? 0 : zb > h - n ? h - n : zb;
		for (int k = 0; k < len[b]; k++)
			d->y[cc[start[b] + k]] = (int16_t)(zb + start[b] + k);
	}
}

/* Where the cards are drawn (y): the rows' order kept, so no line crosses
 * another that did not (two lines between the same two columns cross
 * exactly when their ends come in opposite orders), but a card as near to
 * its neighbours as that allows, so that lines run flat and not under
 * other cards, within as many rows as the fullest column needs (the
 * drawing grows no taller). A few sweeps to and fro; then the top is 0. */
static void strand_slots(const struct dna_state *s, struct strand_draw *d)
{
	uint16_t cc[DNA_CARDS];
	int h = 0;
	for (int i = 0; i < d->m; i++) {
		d->y[d->byseq[i]] = d->row[d->byseq[i]];
		h = d->row[d->byseq[i]] >= h ? d->row[d->byseq[i]] + 1 : h;
	}
	if (h == 1) {   /* a card a column: every card in row 0 already */
		d->maxrow = 0;
		return;
	}
	for (int sweep = 0; sweep < 4; sweep++)
		for (int k0 = 0; k0 <= d->maxcol; k0++) {
			int k = sweep % 2 ? d->maxcol - k0 : k0, n = 0;
			for (int i = 0; i < d->m; i++)
				if (d->col[d->byseq[i]] == k)
					cc[n++] = d->byseq[i];
			for (int i = 1; i < n; i++)
				for (int j = i; j > 0 && d->row[cc[j]] < d->row[cc[j - 1]]; j--) {
					uint16_t t = cc[j];
					cc[j] = cc[j - 1];
					cc[j - 1] = t;
				}
			column_place(s, d, cc, n, h);
		}
	int top = 0, bottom = 0;
	for (int i = 0; i < d->m; i++) {
		int y = d->y[d->byseq[i]];
		top = i == 0 || y < top ? y : top;
		bottom = i == 0 || y > bottom ? y : bottom;
	}
	for (int i = 0; i < d->m; i++)
		d->y[d->byseq[i]] = (int16_t)(d->y[d->byseq[i]] - top);
	d->maxrow = bottom - top;
}

/* strand_layout_from() past the walk (d as strand_walk() leaves it): the
 * rows of the walk or of the barycentres, whichever leaves fewer letters;
 * the number of letters. A chain needs none of it: each column has one
 * card, in row 0, and every line runs flat between two neighbouring
 * columns, so none crosses another (test_dna, test_chain_layout). */
static int strand_order(const struct dna_state *s, struct strand_draw *d)
{
	int16_t walk[DNA_CARDS];
	uint16_t *q = d->byseq;   /* the walk's order, columns ascending */
	for (int i = 0; i < d->m; i++)
		walk[q[i]] = d->row[q[i]];
	strand_rows(s, q, d->m, d->col, d->row, d->maxcol);
	strand_untangle(s, q, d->m, d->col, d->row);
	sort_by_seq(s, d->byseq, d->m);
	int a = strand_improve(s, d, walk), b = strand_improve(s, d, d->row);
	if (a >= b)   /* d's lines are those of d->row already (strand_improve) */
		return b;
	for (int i = 0; i < d->m; i++)
		d->row[q[i]] = walk[q[i]];
	return strand_lines(s, d, d->row);
}

static int strand_layout_from(const struct dna_state *s, int slot, struct strand_draw *d, int newest)
{
	if (strand_walk(s, slot, d, newest) == 0)
		return 0;
	if (d->maxrow == 0) {   /* a chain, a card a column: nothing to order or cross */
		sort_by_seq(s, d->byseq, d->m);
		return strand_lines(s, d, d->row);
	}
	return strand_order(s, d);
}

/* Lays out strand `slot` from its oldest card, unless the walk from its
 * newest leaves fewer letters. Returns the number of cards (0: no such
 * strand). Each walk is laid out once, the newest's beside the oldest's
 * (it was laid out again, up to four times a strand in all: a third of
 * a DNA view's layouts; docs/benchmarks.md, "The view functions'
 * entries"). */
static int strand_layout(const struct dna_state *s, int slot, struct strand_draw *d)
{
	if (strand_layout_from(s, slot, d, 0) > 0) {
		struct strand_draw newest;   /* (8 kB) */
		if (strand_layout_from(s, slot, &newest, 1) < d->nmark)
			*d = newest;
	}
	if (d->m > 0)
		strand_slots(s, d);
	return d->m;
}

/* The cards the newest resolution laid on the table (the board marks them
 * "last"): those the log's newest run of placing events since a turn
 * began names (attached, set, opened, refilled, revealed, dealt from the
 * deck) and that still lie there; not the cards dealt at the start. Laid cards are public, so the mark tells
 * nothing hidden; a choice still face down is never in the log. */
static void last_laid(const struct dna_state *s, uint8_t *mark)
{
	memset(mark, 0, DNA_CARDS);
	int i = s->log.n - 1, seen = 0;
	for (; i >= 0; i--) {
		const struct game_event *e = &s->log.ev[i];
		int laid = e->type == EV_ATTACH || e->type == EV_SET || e->type == EV_OPEN ||
			   e->type == EV_REFILL || e->type == EV_REVEAL || e->type == EV_DECKCARD;
		if (seen && e->type == EV_TURN)
			break;
		if (!laid || e->card >= DNA_CARDS)
			continue;
		seen = 1;
		mark[e->card] = s->loc[e->card] == L_TABLE;
	}
	if (i < 0 && s->log.n < DNA_LOG)   /* no turn before it: the deal, no move */
		memset(mark, 0, DNA_CARDS);
}

/* The letters of card c's links drawn as letters (struct strand_draw). */
static void view_card_marks(const struct strand_draw *d, int c, struct view_sink *v)
{
	int k = 0;
	for (int i = 0; i < d->nlink; i++) {
		const struct strand_link *l = &d->link[i];
		if (!l->mark || (l->c != c && l->p != c))
			continue;
		char letter[8] = { (char)('A' + l->mark - 1) };   /* (snprintf cost 800) */
		if (l->mark > 26)
			snprintf(letter, sizeof letter, "%d", l->mark);
		vbegin(v, "joins");
		vstr(v, "mark", letter);
		vnum(v, "my", 8 + 14 * k++);
		vend(v);
	}
}

/* The i-th card of d in placing order: its number n (placing order) and
 * the numbers of the cards it was laid at. */
static void view_card_after(const struct dna_state *s, const struct strand_draw *d, int i,
			    struct view_sink *v)
{
	int c = d->byseq[i];
	vnum(v, "n", i + 1);
	for (int k = 0; k < s->npar[c]; k++)
		for (int j = 0; j < i; j++)
			if (d->byseq[j] == s->par[c][k]) {
				vbegin(v, "after");
				vnum(v, "n", j + 1);
				vend(v);
			}
}

/* Strand `slot` as a layered drawing (strand_layout); `last` marks the
 * cards the newest resolution laid (last_laid). */
static void view_strand(const struct dna_state *s, int slot, const uint8_t *deg,
			const uint8_t *last, struct view_sink *v)
{
	struct strand_draw d;   /* (8 kB) */
	int m = strand_layout(s, slot, &d);
	if (m == 0)
		return;
	const int16_t *col = d.col, *row = d.y;   /* drawn where y says */
	vbegin(v, "strands");
	vnum(v, "number", slot + 1);
	vnum(v, "cards_count", m);
	vnum(v, "w", (d.maxcol + 1) * COL_W);
	vnum(v, "h", (d.maxrow + 1) * ROW_H);
	vnum(v, "pw", (d.maxcol + 1) * COL_W * 5 / 4);
	vnum(v, "ph", (d.maxrow + 1) * ROW_H * 5 / 4);
	vflag(v, "single", m == 1);
	vflag(v, "many_cards", m > 1);   /* "1 Karte" or "n Karten" */
	vflag(v, "has_marks", d.nmark > 0);
	int any = 0;
	for (int i = 0; i < m; i++)
		any |= last[d.byseq[i]];
	vflag(v, "has_last", any);
	if (any)
		vtext(v, "last_text", "zuletzt angelegt");
	for (int i = 0; i < d.nlink; i++) {
		int c = d.link[i].c, p = d.link[i].p;
		if (d.link[i].mark)
			continue;
		vbegin(v, "links");
		vnum(v, "x1", col[p] * COL_W + CARD_W / 2);
		vnum(v, "y1", row[p] * ROW_H + CARD_H / 2);
		vnum(v, "x2", col[c] * COL_W + CARD_W / 2);
		vnum(v, "y2", row[c] * ROW_H + CARD_H / 2);
		vend(v);
	}
	for (int i = 0; i < m; i++) {
		int c = d.byseq[i];
		vbegin(v, "cards");
		vnum(v, "x", col[c] * COL_W);
		vnum(v, "y", row[c] * ROW_H);
		view_card_fields(v, c);
		/* the graph without the drawing: n in placing order, and the
		 * cards (by n) this one was laid at (not on the page) */
		if (!v->html_only)
			view_card_after(s, &d, i, v);
		view_card_marks(&d, c, v);
		int id = s->stage == ST_CHOOSE || s->stage == ST_RACE ? s->endid[c] : 0;
		vflag(v, "is_end", deg[c] == 1 && id > 0);
		if (!v->html_only || (deg[c] == 1 && id > 0))
			vnum(v, "end_id", id);
		vflag(v, "last", last[c]);
		if (last[c])
			vtext(v, "last_text", "zuletzt angelegt");
		vend(v);
	}
	vend(v);
}

struct collect {
	struct view_sink *v;
	const struct dna_state *s;
};

/* One button per move, labelled from what the move does. The ends ("e1
 * e4") are move words, passed along as they are. */
static void emit_button(void *ctx, const char *move, const struct move_info *mi)
{
	struct collect *cl = ctx;
	char ends[64] = "";
	size_t len = 0;
	for (int k = 0; k < mi->n && len < sizeof ends; k++) {
		int w = view_format(ends + len, sizeof ends - len, "%se%d", k ? " " : "",
				    cl->s->tend_id[mi->ends[k]]);
		len += w > 0 ? (size_t)w : 0;
	}
	vbegin(cl->v, "moves");
	vstr(cl->v, "move", move);
	switch (mi->kind) {
	case C_ATTACH:
		vtextf(cl->v, "label", "anlegen an %s", ends);
		break;
	case C_SET:
		vtextf(cl->v, "label", "Set an %s", ends);
		break;
	case C_OPEN:
		vtextf(cl->v, "label", "Set! Eröffnen an Strang %d", mi->strand + 1);
		break;
	case C_REFILL:
		vtextf(cl->v, "label", "an Strang %d anlegen", mi->strand + 1);
		break;
	case C_CLEAR:
		vtextf(cl->v, "label", "Strang %d ins Deck mischen und neu legen", mi->strand + 1);
		break;
	case C_DISCARD:
		vtext(cl->v, "label", "verdeckt abwerfen");
		break;
	case C_DRAW:
		vtext(cl->v, "label", "Karte ziehen");
		break;
	default:   /* C_PASS */
		vtext(cl->v, "label", "Kein Set gefunden — passen");
		break;
	}
	vend(cl->v);
}

/* The name of the card an event shows, or "". */
static const char *event_card(const struct game_event *ev)
{
	return ev->card != EVENT_NO_CARD ? face_label[face(ev->card)] : "";
}

/* The sentence of an event that lays a card at ends (list: their ids): a
 * whole sentence for each number of ends, as "und" joins the last two. */
static void say_laid(const struct game_event *ev, struct view_sink *v, const char *key)
{
	const char *lbl = event_card(ev);
	const uint8_t *e = ev->list;
	int seat = ev->seat;
	switch (ev->type) {
	case EV_SET:
		evlog_textf(v, key, "@%d sagt Set an und legt %s an e%d.", seat, lbl, e[0]);
		break;
	case EV_FALSESET:
		evlog_textf(v, key, "@%d sagt Set an e%d an, aber %s bildet dort kein Set "
		            "mehr: zurück auf die Hand und 3 Strafkarten.", seat, e[0], lbl);
		break;
	case EV_MISFIT:
		if (ev->n >= 4)
			evlog_textf(v, key, "@%d deckt %s für e%d, e%d, e%d und e%d auf: passt "
			            "nirgends mehr. Zurück auf die Hand und 2 Strafkarten.",
			            seat, lbl, e[0], e[1], e[2], e[3]);
		else if (ev->n == 3)
			evlog_textf(v, key, "@%d deckt %s für e%d, e%d und e%d auf: passt "
			            "nirgends mehr. Zurück auf die Hand und 2 Strafkarten.",
			            seat, lbl, e[0], e[1], e[2]);
		else if (ev->n == 2)
			evlog_textf(v, key, "@%d deckt %s für e%d und e%d auf: passt nirgends "
			            "mehr. Zurück auf die Hand und 2 Strafkarten.", seat, lbl,
			            e[0], e[1]);
		else
			evlog_textf(v, key, "@%d deckt %s für e%d auf: passt nirgends mehr. "
			            "Zurück auf die Hand und 2 Strafkarten.", seat, lbl, e[0]);
		break;
	default:   /* EV_ATTACH */
		if (ev->n >= 4)
			evlog_textf(v, key, "@%d legt %s an e%d, e%d, e%d und e%d an und "
			            "verbindet sie.", seat, lbl, e[0], e[1], e[2], e[3]);
		else if (ev->n == 3)
			evlog_textf(v, key, "@%d legt %s an e%d, e%d und e%d an und verbindet "
			            "sie.", seat, lbl, e[0], e[1], e[2]);
		else if (ev->n == 2)
			evlog_textf(v, key, "@%d legt %s an e%d und e%d an und verbindet sie.",
			            seat, lbl, e[0], e[1]);
		else
			evlog_textf(v, key, "@%d legt %s an e%d an.", seat, lbl, e[0]);
		break;
	}
}

/* The sentence of an event about a strand (st: its number) or a card
 * laid there. */
static void say_strand(const struct game_event *ev, struct view_sink *v, const char *key)
{
	const char *lbl = event_card(ev);
	int st = ev->where + 1, seat = ev->seat;
	switch (ev->type) {
	case EV_CLEAR_SET:
		evlog_textf(v, key, "Strang %d hatte ein Set und wird weggeräumt (%d Karten "
		            "unter das Deck).", st, ev->num);
		break;
	case EV_CLEAR_NOENDS:
		evlog_textf(v, key, "Strang %d hat keine Enden mehr und wird weggeräumt (%d "
		            "Karten unter das Deck).", st, ev->num);
		break;
	case EV_REVEAL:
		evlog_textf(v, key, "Für Strang %d wird %s aufgedeckt.", st, lbl);
		break;
	case EV_REFILL:
		evlog_textf(v, key, "@%d legt %s an die aufgedeckte Karte von Strang %d.",
		            seat, lbl, st);
		break;
	case EV_DECKCARD:
		evlog_textf(v, key, "Strang %d bekommt %s vom Deck.", st, lbl);
		break;
	case EV_RELAY:
		evlog_textf(v, key, "Das Deck ist leer: der längste Strang %d (%d Karten) wird "
		            "ins Deck gemischt und aus zwei Karten neu gelegt.", st, ev->num);
		break;
	case EV_OPEN:
		evlog_textf(v, key, "@%d findet zuerst ein Set: %s an Strang %d eröffnet die "
		            "Partie.", seat, lbl, st);
		break;
	default:   /* EV_PICK */
		if (ev->num)
			evlog_textf(v, key, "@%d hat keinen der längsten Stränge gewählt: "
			            "Strang %d (die kleinste Nummer).", seat, st);
		else
			evlog_textf(v, key, "@%d wählt Strang %d.", seat, st);
		break;
	}
}

/* One log line, in German; the platform says it in the reader's language. */
static void say_event(const struct game_event *ev, struct view_sink *v, const char *key)
{
	int seat = ev->seat;
	switch (ev->type) {
	case EV_ATTACH: case EV_SET: case EV_MISFIT: case EV_FALSESET:
		say_laid(ev, v, key);
		break;
	case EV_CLEAR_SET: case EV_CLEAR_NOENDS: case EV_REVEAL: case EV_REFILL:
	case EV_DECKCARD: case EV_RELAY: case EV_OPEN: case EV_PICK:
		say_strand(ev, v, key);
		break;
	case EV_TURN:
		evlog_textf(v, key, "Zug %d: @%d hat das Deck. Alle wählen verdeckt.", ev->num,
		            seat);
		break;
	case EV_DRAW:
		evlog_textf(v, key, "@%d zieht eine Karte.", seat);
		break;
	case EV_AUTODRAW:
		evlog_textf(v, key, "@%d hat nicht rechtzeitig gewählt und zieht.", seat);
		break;
	case EV_FORCEDRAW:
		evlog_textf(v, key, "@%d hat als Letzter gewählt und muss ziehen.", seat);
		break;
	case EV_DISCARD_STEP:
		vtext(v, key, "Das Deck ist leer und kein Strang ist länger als zwei Karten: alle "
		      "werfen eine Handkarte verdeckt ab.");
		break;
	case EV_DISCARD:
		evlog_textf(v, key, "@%d wirft eine Karte verdeckt ab.", seat);
		break;
	case EV_AUTODISCARD:
		evlog_textf(v, key, "@%d hat nicht rechtzeitig abgeworfen; eine Karte geht ins "
		            "Deck.", seat);
		break;
	case EV_OUT:
		evlog_textf(v, key, "@%d hat keine Handkarten mehr: Platz %d!", seat, ev->num);
		break;
	case EV_TURN_LIMIT:
		evlog_textf(v, key, "Zug %d war der letzte: die Partie endet nach der "
		            "Zuggrenze, weniger Handkarten sind besser.", ev->num);
		break;
	case EV_RACE_NONE:
		vtext(v, key, "Niemand hat ein Eröffnungsset gefunden: die Partie beginnt normal.");
		break;
	case EV_RACE:
		evlog_textf(v, key, "Eröffnungsrennen: %d s, um mit einem Strang und einer "
		            "Handkarte ein Set zu bilden.", ev->num);
		break;
	default:
		vtext(v, key, "Die Partie ist zu Ende.");
		break;
	}
}

/* Final places: finishing order, then fewer hand cards first. */
static void places(const struct dna_state *s, int *place)
{
	int hand[DNA_SEATS];   /* each hand counted once, not once per pair */
	for (int p = 0; p < s->n; p++) {
		place[p] = 0;
		hand[p] = hand_count(s, p);
	}
	for (int i = 0; i < s->nfin; i++)
		place[s->fin[i]] = i + 1;
	for (int p = 0; p < s->n; p++) {
		if (place[p])
			continue;
		int better = s->nfin;
		for (int o = 0; o < s->n; o++)
			if (o != p && !((s->finmask >> o) & 1u) && hand[o] < hand[p])
				better++;
		place[p] = better + 1;
	}
}

/* The headline: what the party waits for now (act: seats that may act). */
static void view_headline(const struct dna_state *s, uint32_t act, struct view_sink *v)
{
	if (s->stage == ST_OVER) {
		if (s->nfin > 0 && !s->play_on)
			vtextf(v, "headline", "@%d hat keine Handkarten mehr und gewinnt.",
			       s->fin[0]);
		else if (s->nfin > 0)
			vtextf(v, "headline", "Die Partie ist zu Ende: @%d gewinnt.", s->fin[0]);
		else
			vtext(v, "headline", "Die Partie ist zu Ende.");
	} else if (pick_mask(s)) {
		vtextf(v, "headline", "Das Deck ist leer: @%d wählt, welcher der gleich langen "
		       "längsten Stränge ins Deck gemischt und neu gelegt wird.", s->holder);
	} else if (prompt_kind(&s->pr) == PR_DISCARD) {
		vtext(v, "headline", "Das Deck ist leer: alle werfen eine Handkarte verdeckt ab.");
	} else if (s->stage == ST_RACE) {
		vtext(v, "headline", "Eröffnungsrennen: wer zuerst mit einem Strang und einer "
		      "Handkarte ein Set bildet, beginnt.");
	} else if (s->stage == ST_REFILL) {
		vtext(v, "headline", "Wer verbunden oder ein Set gespielt hat, legt eine Handkarte "
		      "an eine aufgedeckte Karte.");
	} else {
		int waiting = 0;
		for (int p = 0; p < s->n; p++)
			waiting += (act >> p) & 1u;
		vtextf(v, "headline", "Zug %d: alle wählen verdeckt (noch %d). @%d hat das Deck.",
		       s->turn, waiting, s->holder);
	}
}

/* What seat `me` chose this turn, which only it sees. */
static void view_choice(const struct dna_state *s, int me, struct view_sink *v)
{
	char ends[64] = "";
	size_t len = 0;
	if (s->choice_kind[me] == CH_DRAW && s->choice_auto[me] == 2) {
		vtext(v, "my_choice", "Du bist als Letzter dran und ziehst eine Karte.");
		return;
	}
	if (s->choice_kind[me] == CH_DRAW) {
		vtext(v, "my_choice", "Du ziehst eine Karte.");
		return;
	}
	/* the ends ("e1 e4") are move words, passed along as they are */
	for (int i = 0; i < s->choice_nends[me] && len < sizeof ends; i++) {
		int w = view_format(ends + len, sizeof ends - len, "%se%d", i ? " " : "",
				    s->choice_ends[me][i]);
		len += w > 0 ? (size_t)w : 0;
	}
	const char *lbl = face_label[face(s->choice_card[me])];
	if (s->choice_kind[me] == CH_SET)
		vtextf(v, "my_choice", "Set: %s an %s", lbl, ends);
	else
		vtextf(v, "my_choice", "Du legst %s an %s", lbl, ends);
}

/* Seat `me`'s hand with a button per move a card allows, the moves without
 * a card, and what they chose this turn or must refill. */
static void view_hand(const struct dna_state *chosen, int me, struct view_sink *v)
{
	/* a seat that has chosen sees its choice and, while it may change it,
	 * its whole hand with the choices it may change to */
	const struct dna_state *s = chosen;
	static _Thread_local struct dna_state un;
	if (may_rechoose(chosen, me)) {
		un = *chosen;
		unchoose(&un, me);
		s = &un;
	}
	int faces[DNA_FACES];
	int nf = hand_faces(s, me, faces);
	vflag(v, "has_hand", nf > 0);
	struct collect cl = { v, s };
	struct emitter em = { emit_button, &cl, 0 };
	struct mctx mc;
	mctx_init(s, &mc);
	for (int i = 0; i < nf; i++) {
		int f = faces[i], copies = 0;
		for (int c = f; c < s->ncards; c += DNA_FACES)
			copies += s->loc[c] == L_HAND && s->own[c] == me;
		vbegin(v, "hand");
		view_card_fields(v, f);
		vnum(v, "copies", copies);
		vflag(v, "several", copies > 1);
		em.count = 0;
		moves_for(s, &mc, me, f, &em);
		/* the page: pick the card, then one of its moves */
		vflag(v, "has_moves", em.count > 0);
		vnum(v, "move_count", em.count);
		vend(v);
	}
	em.count = 0;
	vbegin(v, "plain");
	moves_for(s, &mc, me, -1, &em);
	vend(v);
	s = chosen;
	vflag(v, "has_choice", s->choice_kind[me] != CH_NONE && s->stage == ST_CHOOSE);
	vflag(v, "may_change", may_rechoose(s, me));
	if (s->choice_kind[me] != CH_NONE && s->stage == ST_CHOOSE)
		view_choice(s, me, v);
	vflag(v, "has_refill", s->stage == ST_REFILL && s->refill_slot[me] >= 0);
	if (s->stage == ST_REFILL && s->refill_slot[me] >= 0)
		vnum(v, "refill_strand", s->refill_slot[me] + 1);
}

/* The seats: cards held, who has the deck, chosen, waits, is done (place:
 * places()); the table page's tree without what its board does not show. */
static void view_seats(const struct dna_state *s, uint32_t act, int me, const int *place,
		       struct view_sink *v)
{
	int html = v->html_only;
	struct status stt;
	if (!html)   /* (for the scores only) */
		dna_status(s, &stt);
	for (int p = 0; p < s->n; p++) {
		vbegin(v, "seats");
		vnum(v, "seat", p);
		/* a chosen card still counts: the kind of a choice is secret */
		vnum(v, "hand_count", held(s, p));
		vflag(v, "holder", p == s->holder);
		vflag(v, "chosen", s->stage == ST_CHOOSE && active(s, p) &&
				   s->choice_kind[p] != CH_NONE);
		vflag(v, "waiting", (act >> p) & 1u);
		if (!html)
			vflag(v, "finished", !active(s, p) && hand_count(s, p) == 0);
		vflag(v, "me", p == me);
		int has_place = !active(s, p) || s->stage == ST_OVER;
		if (!html || has_place)
			vnum(v, "place", has_place ? place[p] : 0);
		vflag(v, "has_place", has_place);
		if (!html)
			vnum(v, "score", stt.score[p]);
		vend(v);
	}
}

/* What seat may see: strands, own hand with its moves, who has chosen,
 * the log, places; seat -1 sees no hand. */
static void dna_view(const void *st, int seat, struct view_sink *v)
{
	const struct dna_state *s = st;
	uint8_t deg[DNA_CARDS];
	const struct prompt *top = prompt_peek(&s->pr);
	uint32_t act = top ? top->waiting : 0;
	int me = seat >= 0 && seat < s->n ? seat : -1, html = v->html_only;
	unsigned pick = pick_mask(s);

	view_headline(s, act, v);
	if (!html)
		vnum(v, "turn", s->turn);
	vnum(v, "holder_seat", s->holder);
	vnum(v, "deck_count", s->ndeck);
	if (!html)
		vnum(v, "deadline", top ? top->deadline : 0);
	vflag(v, "race", prompt_kind(&s->pr) == PR_RACE);
	if (!html)
		vflag(v, "choosing", prompt_kind(&s->pr) == PR_CHOOSE);
	vflag(v, "refilling", prompt_kind(&s->pr) == PR_REFILL);
	vflag(v, "discarding", prompt_kind(&s->pr) == PR_DISCARD);
	vflag(v, "picking", pick != 0);
	for (int i = 0; i < DNA_STRANDS && !html; i++)
		if ((pick >> i) & 1u) {
			vbegin(v, "pick");
			vnum(v, "strand", i + 1);
			vend(v);
		}
	vflag(v, "over", s->stage == ST_OVER);
	vflag(v, "play_on", s->play_on);
	if (!html)
		vnum(v, "decks", s->decks);

	int place[DNA_SEATS];
	places(s, place);
	view_seats(s, act, me, place, v);
	degrees(s, deg);
	uint8_t last[DNA_CARDS];
	last_laid(s, last);
	for (int i = 0; i < DNA_STRANDS; i++)
		view_strand(s, i, deg, last, v);
	if (s->stage == ST_CHOOSE && !html)   /* (the page draws them on the strands) */
		for (int i = 0; i < s->ntend; i++) {
			vbegin(v, "ends");
			vnum(v, "id", s->tend_id[i]);
			vnum(v, "strand", s->strand[s->tend_b[i]] + 1);
			vstr(v, "prev", face_text(face(s->tend_a[i]))->code);
			vstr(v, "last", face_text(face(s->tend_b[i]))->code);
			vend(v);
		}
	if (me >= 0)
		view_hand(s, me, v);
	evlog_view_text(&s->log, v, say_event);
	if (s->stage == ST_OVER)
		for (int k = 1; k <= s->n; k++)
			for (int p = 0; p < s->n; p++)
				if (place[p] == k) {
					vbegin(v, "places");
					vnum(v, "place", k);
					vnum(v, "seat", p);
					vnum(v, "cards", hand_count(s, p));
					vend(v);
				}
}

/* ---- scramble ---- */

/* Re-deals what seat cannot see: other hands, the deck order, the kind of
 * other seats' pending choices and their cards. Whether a seat has chosen is
 * public; what it chose is not, so each other chosen (not forced) choice
 * becomes a draw or a card at a random end it fits, at even odds. Every
 * hidden card is gathered in id order first, so the re-deal depends only
 * on what seat sees and the seed (the bots rely on it), and every count
 * the view shows (cards held, deck size) stays. */
static void dna_scramble(void *st, int seat, uint64_t seed)
{
	struct dna_state *s = st;
	struct rng r;
	uint16_t pool[DNA_CARDS];
	int np = 0, hold[DNA_SEATS] = { 0 };
	rng_seed(&r, seed);
	for (int p = 0; p < s->n; p++)
		hold[p] = held(s, p);
	for (int c = 0; c < s->ncards; c++)
		if (s->loc[c] == L_DECK ||
		    ((s->loc[c] == L_HAND || s->loc[c] == L_CHOICE) && s->own[c] != seat))
			pool[np++] = (uint16_t)c;
	for (int p = 0; p < s->n; p++) {
		if (p == seat || s->choice_kind[p] == CH_NONE || s->choice_auto[p])
			continue;
		s->choice_kind[p] = CH_DRAW;
		s->choice_card[p] = 0;
		s->choice_nends[p] = 0;
		memset(s->choice_ends[p], 0, sizeof s->choice_ends[p]);
		if (s->ntend == 0 || rng_below(&r, 2))
			continue;
		int t = (int)rng_below(&r, (uint32_t)s->ntend), cand[DNA_CARDS], nc = 0;
		for (int i = 0; i < np; i++)
			if (s->penalise || fits(pool[i], s->tend_a[t], s->tend_b[t]))
				cand[nc++] = i;
		if (nc == 0 || hold[p] == 0)
			continue;
		int i = cand[rng_below(&r, (uint32_t)nc)];
		s->loc[pool[i]] = L_CHOICE;
		s->own[pool[i]] = (uint8_t)p;
		s->choice_kind[p] = CH_ATTACH;
		s->choice_card[p] = pool[i];
		s->choice_nends[p] = 1;
		s->choice_ends[p][0] = s->tend_id[t];
		pool[i] = pool[--np];   /* out of the pool; the rest is re-sorted below */
		pile_sort(pool, np);
	}
	/* the rest: deal the pool anew over the deck and the hands */
	rng_shuffle(&r, pool, np);
	int k = 0;
	for (int i = 0; i < s->ndeck; i++, k++) {
		s->deck[i] = pool[k];
		s->loc[pool[k]] = L_DECK;
		s->own[pool[k]] = 0;
	}
	for (int p = 0; p < s->n; p++) {
		if (p == seat)
			continue;
		int want = hold[p] - (lays_card(s, p) ? 1 : 0);
		for (int j = 0; j < want; j++, k++) {
			s->loc[pool[k]] = L_HAND;
			s->own[pool[k]] = (uint8_t)p;
		}
	}
	rng_seed(&s->rng, rng_next(&r));   /* the deck's later shuffles are hidden too */
}

/* The greedy bot's judgement (game.h bot_worth): fewer cards held is
 * better, and a finished seat better still, by its place. A chosen card has
 * left the hand already; a choice that will be rewarded (a set, a card
 * joining ends) counts most of a card more, as does a strand to refill:
 * the reward lets one more hand card go (if a strand is free for it). */
static long long dna_bot_worth(const void *st, int seat)
{
	enum { CARD = 100, REWARD = 60, PLACE = 100000 };
	const struct dna_state *s = st;
	for (int i = 0; i < s->nfin; i++)
		if (s->fin[i] == seat)
			return (long long)PLACE * (DNA_SEATS - i);
	long long w = -(long long)CARD * hand_count(s, seat);
	int k = s->choice_kind[seat];
	if (k == CH_SET || (k == CH_ATTACH && s->choice_nends[seat] > 1))
		w += REWARD;
	if (s->refill_slot[seat] >= 0)
		w += REWARD;
	return w;
}

/* What the live prompt asks (game.h, doing): public, the same for all. */
static const char *dna_doing(const void *st)
{
	static const char *const text[PR__MAX] = {
		[PR_RACE] = N_("Eröffnungsrennen"),
		[PR_CHOOSE] = N_("verdeckt wählen"),
		[PR_REFILL] = N_("eine Handkarte anlegen"),
		[PR_DISCARD] = N_("eine Handkarte verdeckt abwerfen"),
		[PR_PICK] = N_("einen Strang wählen"),
	};
	return text[prompt_kind(&((const struct dna_state *)st)->pr)];
}

const struct game dna_game = {
	.slug = "dna",
	.title = "DNA",
	.tagline = N_("Set-Karten an drei Stränge anlegen: alle wählen gleichzeitig und "
		      "verdeckt."),
	.summary = N_("In jedem Zug wählen alle gleichzeitig und verdeckt: eine Karte an ein "
		      "Ende eines Strangs anlegen, ein Set spielen oder eine Karte ziehen. Eine "
		      "Karte passt an ein Ende, wenn sie sich von der Karte, die mit dessen beiden "
		      "letzten Karten ein Set bilden würde, in genau einer Eigenschaft "
		      "unterscheidet. Dann werden alle Wahlen im Uhrzeigersinn aufgedeckt und "
		      "ausgeführt. Wer zuerst keine Handkarten mehr hat, gewinnt."),
	.min_players = 2,
	.max_players = DNA_SEATS,
	.state_size = sizeof(struct dna_state),
	.options = dna_options,
	.noptions = O__MAX,
	.parties = dna_parties,
	.setup = dna_setup,
	.apply = dna_apply,
	.tick = dna_tick,
	.status = dna_status,
	.moves = dna_moves,
	.verbs = dna_verbs,
	.nverbs = C__MAX,
	.snap_format = DNA_FORMAT,
	.snap_format_min = DNA_FORMAT,
	.encode = dna_encode,
	.decode = dna_decode,
	.check = dna_check,
	.view = dna_view,
	.doing = dna_doing,
	.scramble = dna_scramble,
	.bot_worth = dna_bot_worth,
};
