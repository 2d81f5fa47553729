/*
 * drachenrummy.c — Drachenrummy: roll five dice, reserve cards from the
 * middle with dice of one value (or steal another player's reservation with
 * more dice), then lay down rummy melds (rules-de/drachenrummy.txt,
 * docs/rulings.md "Drachenrummy", docs/moves-drachenrummy.md).
 *
 * A turn is steps, each a move: the seat's reserved cards go to its hand
 * and their dice come back (automatic), `roll`, `keep` at least one die
 * (the rest is rolled again) until all are kept, then `reserve` and
 * `steal`, then `lay` and `add`, then `done`: the middle is refilled to
 * four and the next seat starts. When no card is left in the draw pile or
 * the middle and none is reserved, every seat may lay down once more, in
 * turn order; then laid cards count 1 (2..10) or 2 (B, D, K, A), hand
 * cards -1.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "bytes8.h"
#include "dice.h"
#include "evlog.h"
#include "game.h"
#include "match.h"
#include "movetext.h"
#include "prompt.h"
#include "rng.h"
#include "ser.h"

enum {
	DR_SEATS = 5,
	DR_DICE = 5,
	DR_FACES = 6,
	DR_SUITS = 4,
	DR_RANKS = 13,         /* 2..10, B, D, K, A */
	DR_DECK = 52,          /* faces: suit * 13 + rank index */
	DR_DECKS_MAX = 2,
	DR_CARDS = DR_DECK * DR_DECKS_MAX,
	DR_MIDDLE = 4,
	DR_MELD_MAX = 13,      /* a run A..K; a set has at most four */
	DR_MELDS = DR_CARDS / 3,
	DR_LOG = 12,
	DR_TURN_MAX = 600,     /* the last meld-out starts after this turn (docs/rulings.md) */
	DR_FORMAT = 2         /* snapshot payload format (2: a refill names its
	                       * slots and turn) */
};

/* Suits in Skat order; ranks 2..14 (14: the ace, which may also be 1 in a run). */
static const char *const suit_word[DR_SUITS] = { "kreuz", "pik", "herz", "karo" };
static const char *const suit_sym[DR_SUITS] = { "♣", "♠", "♥", "♦" };
static const char *const rank_word[DR_RANKS] = { "2", "3", "4", "5", "6", "7", "8", "9", "10",
						 "b", "d", "k", "a" };
/* The rank on a card's face: the letters are German (Bube, Dame, König, As),
 * so they go to the catalogs; the numbers are the same everywhere. */
static const char *const rank_short[DR_RANKS] = { "2", "3", "4", "5", "6", "7", "8", "9", "10",
						  N_("B"), N_("D"), N_("K"), N_("A") };
/* A card's name on the page, by face: whole names, so that each is one
 * catalog message, translated also where a sentence names the card. */
static const char *const card_name[DR_DECK] = {
	N_("Kreuz 2"), N_("Kreuz 3"), N_("Kreuz 4"), N_("Kreuz 5"), N_("Kreuz 6"), N_("Kreuz 7"),
	N_("Kreuz 8"), N_("Kreuz 9"), N_("Kreuz 10"), N_("Kreuz Bube"), N_("Kreuz Dame"),
	N_("Kreuz König"), N_("Kreuz As"),
	N_("Pik 2"), N_("Pik 3"), N_("Pik 4"), N_("Pik 5"), N_("Pik 6"), N_("Pik 7"), N_("Pik 8"),
	N_("Pik 9"), N_("Pik 10"), N_("Pik Bube"), N_("Pik Dame"), N_("Pik König"), N_("Pik As"),
	N_("Herz 2"), N_("Herz 3"), N_("Herz 4"), N_("Herz 5"), N_("Herz 6"), N_("Herz 7"),
	N_("Herz 8"), N_("Herz 9"), N_("Herz 10"), N_("Herz Bube"), N_("Herz Dame"),
	N_("Herz König"), N_("Herz As"),
	N_("Karo 2"), N_("Karo 3"), N_("Karo 4"), N_("Karo 5"), N_("Karo 6"), N_("Karo 7"),
	N_("Karo 8"), N_("Karo 9"), N_("Karo 10"), N_("Karo Bube"), N_("Karo Dame"),
	N_("Karo König"), N_("Karo As"),
};

/* Where a card is; own[] names the seat (hand, reservation) or the meld. */
enum loc { L_DECK, L_MIDDLE, L_RESERVED, L_HAND, L_MELD, L__MAX };

/* What the party waits for (rules/prompt.h): the seat on turn at one step
 * of its turn (arg), or in the last meld-out one seat after another (arg:
 * how many seats come after this one). No prompt: over. */
enum dr_prompt { PR_TURN = 1, PR_LAST, PR__MAX };
enum dr_step { S_ROLL = 1, S_KEEP, S_RESERVE, S_MELD, S__MAX };

/* Public events (rules/evlog.h): `num` packs dice faces (3 bits each, arg
 * of them), `card` a card, `where` a seat or a meld, `arg` a count. */
enum dr_ev {
	EV_TAKE,      /* seat took arg reserved cards to hand */
	EV_ROLL,      /* seat rolled the faces in num */
	EV_KEEP,      /* seat kept the faces in num */
	EV_RESERVE,   /* seat reserved card with the faces in num */
	EV_STEAL,     /* seat stole card from `where` with the faces in num */
	EV_LAY,       /* seat laid meld `where` (arg cards) */
	EV_ADD,       /* seat added card to meld `where` */
	EV_REFILL,    /* arg cards refilled the middle: the slots in where (bit i:
	               * slot i), at the end of turn num */
	EV_LAST,      /* the last meld-out began */
	EV_OVER,      /* the party ended */
	EV_LIMIT,     /* the turn limit started the last meld-out */
	EV__MAX
};

struct dr_meld {
	uint8_t owner, n, run;
	uint16_t c[DR_MELD_MAX];   /* card ids in meld order */
};

struct dr_state {
	uint8_t n, decks, steal_any, steal_higher, parties;
	uint16_t ncards, turn;
	uint32_t epoch;
	struct rng rng;
	struct prompts pr;
	uint8_t loc[DR_CARDS], own[DR_CARDS];
	uint8_t dmask[DR_CARDS];          /* a reserved card: its holder's dice on it */
	uint16_t pile[DR_CARDS];          /* the draw pile, top last */
	int npile;
	int16_t middle[DR_MIDDLE];        /* card or -1 */
	struct dice dice[DR_SEATS];
	int nmelds;
	struct dr_meld meld[DR_MELDS];
	struct evlog log;
};

enum dr_opt { O_DECKS, O_STEAL_ANY, O_STEAL_HIGHER, O_PARTIES, O__MAX };
_Static_assert((int)O__MAX <= (int)GAME_OPT_MAX, "options fit struct setup");
_Static_assert((int)DR_SEATS <= (int)GAME_MAX_SEATS, "seats");

static const struct game_option dr_options[O__MAX] = {
	[O_DECKS] = { "decks", N_("Kartenspiele (52 Karten je Spiel)"), OPT_INT, 1, DR_DECKS_MAX,
		      1, N_("Decks") },
	[O_STEAL_ANY] = { "steal_any", N_("Stehlen mit mehr Würfeln beliebiger Augenzahl"),
			  OPT_BOOL, 0, 1, 0, NULL },
	[O_STEAL_HIGHER] = { "steal_higher",
			     N_("Stehlen auch mit gleich vielen Würfeln höherer Augenzahl"),
			     OPT_BOOL, 0, 1, 0, NULL },
	[O_PARTIES] = { "parties", N_("Partien pro Runde"), OPT_INT, 1, 10, 3, NULL },
};

/* ---- cards ---------------------------------------------------------- */

static int face(int c)
{
	return c % DR_DECK;
}

static int suit(int c)
{
	return face(c) / DR_RANKS;
}

/* 0..12: 2..10, B, D, K, A */
static int rank(int c)
{
	return face(c) % DR_RANKS;
}

/* Points of a laid card: 2..10 one, B D K A two. */
static int card_points(int c)
{
	return rank(c) >= 9 ? 2 : 1;
}

/* The name on the page: "Herz König" (a catalog message: the views pass
 * it to a format as it is, no copy). */
static const char *face_label(int f)
{
	return card_name[f];
}

/* Reads a card word into a face: "herz-k"; also the rank spelled out
 * ("herz-könig", "herz-koenig") and upper case (folded by mt_split).
 * 0, or -1. */
static int parse_face_any(const char *w, int *f)
{
	static const char *const long_rank[DR_RANKS] = { NULL, NULL, NULL, NULL, NULL, NULL, NULL,
							 NULL, NULL, "bube", "dame", "könig", "as" };
	const char *dash = strchr(w, '-');
	if (!dash)
		return -1;
	size_t sl = (size_t)(dash - w);
	for (int s = 0; s < DR_SUITS; s++) {
		if (strlen(suit_word[s]) != sl || strncmp(w, suit_word[s], sl) != 0)
			continue;
		for (int r = 0; r < DR_RANKS; r++)
			if (strcmp(dash + 1, rank_word[r]) == 0 ||
			    (long_rank[r] && strcmp(dash + 1, long_rank[r]) == 0) ||
			    (r == 11 && strcmp(dash + 1, "koenig") == 0)) {
				*f = s * DR_RANKS + r;
				return 0;
			}
	}
	return -1;
}

/* The rank of a short rank word ("2".."10", "b", "d", "k", "a"), or -1. */
static int short_rank(const char *r)
{
	if (r[0] == '1' && r[1] == '0' && r[2] == '\0')
		return 8;
	if (r[0] == '\0' || r[1] != '\0')
		return -1;
	if (r[0] >= '2' && r[0] <= '9')
		return r[0] - '2';
	switch (r[0]) {
	case 'b':
		return 9;
	case 'd':
		return 10;
	case 'k':
		return 11;
	case 'a':
		return 12;
	default:
		return -1;
	}
}

/* parse_face, with the words the move lists spell read without string
 * searches (every applied move is parsed); anything else the long way. */
static int parse_face(const char *w, int *f)
{
	int s = w[0] == 'k' ? (w[1] == 'r' ? 0 : 3) : w[0] == 'p' ? 1 : w[0] == 'h' ? 2 : -1;
	if (s >= 0) {
		size_t n = strlen(suit_word[s]);
		int r = -1;
		if (strncmp(w, suit_word[s], n) == 0 && w[n] == '-')
			r = short_rank(w + n + 1);
		if (r >= 0) {
			*f = s * DR_RANKS + r;
			return 0;
		}
	}
	return parse_face_any(w, f);
}

/* The fields of face f (a view_group: the JSON writer copies them from
 * its memo). */
static void face_entries(struct view_sink *v, int f)
{
	vtext(v, "name", card_name[f]);
	vstr(v, "suit", suit_sym[f / DR_RANKS]);
	if (!v->html_only)   /* data for scripts: the board does not print it */
		vstr(v, "suit_class", suit_word[f / DR_RANKS]);
	if (f % DR_RANKS >= 9)
		vtext(v, "rank", rank_short[f % DR_RANKS]);
	else
		vstr(v, "rank", rank_short[f % DR_RANKS]);
	vflag(v, "red", f / DR_RANKS >= 2);
}

static const struct view_group face_group = { face_entries, DR_DECK };

/* The fields of face f, a card the viewer sees. */
static void emit_face(struct view_sink *v, int f)
{
	vgroup(v, &face_group, f);
}

/* ---- melds ---------------------------------------------------------- */

enum meld_kind { MK_NONE, MK_SET, MK_RUN };

/* Whether cards c[0..n) make a meld: three or more of one rank in
 * different suits (a set), or three or more of one suit in sequence (a
 * run), the ace low (A-2-3) or high (D-K-A), never both. With ace_low set
 * the run's ace is its 1. */
static int meld_kind(const uint16_t *c, int n, int *ace_low)
{
	*ace_low = 0;
	if (n < 3 || n > DR_MELD_MAX)
		return MK_NONE;
	int set = n <= DR_SUITS, run = 1;
	unsigned suits = 0, ranks = 0;
	for (int i = 0; i < n; i++) {
		if (rank(c[i]) != rank(c[0]) || ((suits >> suit(c[i])) & 1u))
			set = 0;
		if (suit(c[i]) != suit(c[0]) || ((ranks >> rank(c[i])) & 1u))
			run = 0;
		suits |= 1u << suit(c[i]);
		ranks |= 1u << rank(c[i]);
	}
	if (set)
		return MK_SET;
	if (!run)
		return MK_NONE;
	/* ranks as a 13-bit mask (bit 12: the ace); high: contiguous bits */
	unsigned high = ranks, low = ((ranks << 1) | (ranks >> 12)) & 0x1fffu;
	for (unsigned m = high; m; m >>= 1)
		if (m & 1u) {
			if (((m + 1) & m) == 0)
				return MK_RUN;
			break;
		}
	if ((ranks >> 12) & 1u)
		for (unsigned m = low; m; m >>= 1)
			if (m & 1u) {
				if (((m + 1) & m) == 0) {
					*ace_low = 1;
					return MK_RUN;
				}
				break;
			}
	return MK_NONE;
}

/* The place of card c in a meld's order: a set by suit, a run upwards
 * (its ace first when low). */
static int meld_key(int c, int kind, int ace_low)
{
	if (kind == MK_SET)
		return suit(c) * DR_CARDS + c;
	int r = rank(c);
	return (ace_low && r == 12 ? -1 : r) * DR_CARDS + c;
}

/* Sorts c[0..n) into meld order. */
static void meld_sort(uint16_t *c, int n, int kind, int ace_low)
{
	for (int i = 1; i < n; i++) {
		uint16_t x = c[i];
		int j = i;
		while (j > 0 && meld_key(c[j - 1], kind, ace_low) > meld_key(x, kind, ace_low)) {
			c[j] = c[j - 1];
			j--;
		}
		c[j] = x;
	}
}

/* ---- state helpers --------------------------------------------------- */

static int step(const struct dr_state *s)
{
	return prompt_kind(&s->pr) == PR_TURN ? prompt_peek(&s->pr)->arg : 0;
}

static void set_step(struct dr_state *s, int st)
{
	prompt_top(&s->pr)->arg = (uint8_t)st;
}

static int over(const struct dr_state *s)
{
	return s->pr.n == 0;
}

/* Card scans eight cards at a time: the state is read after every move
 * (scores) and for every list of moves (hand, reservations), and most
 * cards are elsewhere. */
_Static_assert(DR_CARDS % 8 == 0, "loc and own are read in blocks of eight");

/* Bit 8i+7 set for each card i of the block from c (c % 8 == 0) that is at
 * loc and, when own >= 0, owned by own; cards past ncards never. */
static inline uint64_t cards8(const struct dr_state *s, int c, int loc, int own)
{
	uint64_t x = bytes8_load(s->loc + c) ^ BYTES8(loc);
	if (own >= 0)
		x |= bytes8_load(s->own + c) ^ BYTES8(own);
	uint64_t hit = bytes8_zero(x);   /* a zero byte: a match */
	if (s->ncards - c < 8)
		hit &= (UINT64_C(1) << (8 * (s->ncards - c))) - 1;
	return hit;
}

/* The card of the lowest hit of a block from c; the hit is cleared. */
static inline int next_card(int c, uint64_t *hit)
{
	int i = bytes8_first(*hit);
	*hit &= *hit - 1;
	return c + i;
}

/* The first card of face f at loc (owned by own, -1: anyone), or -1. */
static int find_card(const struct dr_state *s, int f, int loc, int own)
{
	for (int c = f; c < s->ncards; c += DR_DECK)
		if (s->loc[c] == loc && (own < 0 || s->own[c] == own))
			return c;
	return -1;
}

static int hand_count(const struct dr_state *s, int seat)
{
	int n = 0;
	for (int c = 0; c < s->ncards; c += 8)
		for (uint64_t hit = cards8(s, c, L_HAND, seat); hit; hit &= hit - 1)
			n++;
	return n;
}

static int reserved_count(const struct dr_state *s)
{
	int n = 0;
	for (int c = 0; c < s->ncards; c += 8)
		for (uint64_t hit = cards8(s, c, L_RESERVED, -1); hit; hit &= hit - 1)
			n++;
	return n;
}

static int middle_count(const struct dr_state *s)
{
	int n = 0;
	for (int i = 0; i < DR_MIDDLE; i++)
		n += s->middle[i] >= 0;
	return n;
}

/* The index of seat's k-th own meld (0-based), or -1. */
static int own_meld(const struct dr_state *s, int seat, int k)
{
	for (int i = 0; i < s->nmelds; i++)
		if (s->meld[i].owner == seat && k-- == 0)
			return i;
	return -1;
}

/* Packs dice faces for the log: 3 bits a face. */
static uint16_t pack_faces(const struct dice *d, unsigned mask, uint8_t *n)
{
	unsigned p = 0;
	int k = 0;
	for (int i = 0; i < d->n; i++)
		if ((mask >> i) & 1u)
			p |= (unsigned)d->face[i] << (3 * k++);
	*n = (uint8_t)k;
	return (uint16_t)p;
}

static struct game_event *logev(struct dr_state *s, int type, int seat, unsigned mask)
{
	struct game_event *e = evlog_push(&s->log, DR_LOG, type, seat);
	if (seat >= 0 && mask)
		e->num = pack_faces(&s->dice[seat], mask, &e->arg);
	return e;
}

/* Every seat's score: laid cards' points, minus one per hand card. The
 * melds hold exactly the laid cards (check_cards), so they are summed
 * meld by meld rather than looked up card by card (status runs after
 * every move). */
static void scores(const struct dr_state *s, int *out)
{
	_Static_assert(DR_DECK % DR_RANKS == 0, "a card's rank is its id modulo 13");
	memset(out, 0, sizeof out[0] * DR_SEATS);
	for (int c = 0; c < s->ncards; c++)
		if (s->loc[c] == L_HAND && s->own[c] < DR_SEATS)
			out[s->own[c]]--;
	for (int i = 0; i < s->nmelds; i++) {
		const struct dr_meld *ml = &s->meld[i];
		int pts = 0;
		for (int j = 0; j < ml->n; j++)   /* card_points: the rank is c % 13 */
			pts += ml->c[j] % DR_RANKS >= 9 ? 2 : 1;
		if (ml->owner < DR_SEATS)
			out[ml->owner] += pts;
	}
}

/* ---- the flow of a party ---------------------------------------------- */

static void start_turn(struct dr_state *s, int seat);

/* The last meld-out, from `first` on in turn order, skipping empty hands;
 * over when nobody is left. */
static void last_round(struct dr_state *s, int first, int left)
{
	for (; left >= 0; left--, first = seat_next(first, s->n)) {
		if (hand_count(s, first) == 0)
			continue;
		prompt_clear(&s->pr);
		struct prompt *p = prompt_push(&s->pr, PR_LAST, 1u << first);
		p->owner = (int8_t)first;
		p->arg = (uint8_t)left;
		return;
	}
	prompt_clear(&s->pr);
	logev(s, EV_OVER, -1, 0);
}

/* Seat's reserved cards go to its hand and their dice come back (logged). */
static void take_reserved(struct dr_state *s, int seat)
{
	int took = 0;
	for (int c0 = 0; c0 < s->ncards; c0 += 8)
		for (uint64_t hit = cards8(s, c0, L_RESERVED, seat); hit;) {
			int c = next_card(c0, &hit);
			dice_back(&s->dice[seat], s->dmask[c]);
			s->loc[c] = L_HAND;
			s->dmask[c] = 0;
			took++;
		}
	if (took)
		logev(s, EV_TAKE, seat, 0)->arg = (uint8_t)took;
}

/* Seat's turn begins: its reserved cards go to its hand and their dice come
 * back; if then no card is left to give out, the last meld-out begins with
 * this seat. After DR_TURN_MAX turns it begins as if every card were given
 * out: every seat takes its reserved cards first (the last meld-out is for
 * hands, and holds no reservation; check_flow). */
static void start_turn(struct dr_state *s, int seat)
{
	take_reserved(s, seat);
	dice_reset(&s->dice[seat]);
	if (s->npile == 0 && middle_count(s) == 0 && reserved_count(s) == 0) {
		logev(s, EV_LAST, -1, 0);
		last_round(s, seat, s->n - 1);
		return;
	}
	if (s->turn >= DR_TURN_MAX) {
		logev(s, EV_LIMIT, -1, 0)->num = s->turn;
		for (int q = 0; q < s->n; q++)
			take_reserved(s, q);
		last_round(s, seat, s->n - 1);
		return;
	}
	s->turn++;
	prompt_clear(&s->pr);
	struct prompt *p = prompt_push(&s->pr, PR_TURN, 1u << seat);
	p->owner = (int8_t)seat;
	p->arg = S_ROLL;
}

/* The turn ends: the dice not on cards are put down, the middle refilled
 * to four from the draw pile, the next seat starts. */
static void end_turn(struct dr_state *s, int seat)
{
	dice_gather(&s->dice[seat]);
	int filled = 0, slots = 0;
	for (int i = 0; i < DR_MIDDLE && s->npile > 0; i++)
		if (s->middle[i] < 0) {
			int c = s->pile[--s->npile];
			s->middle[i] = (int16_t)c;
			s->loc[c] = L_MIDDLE;
			s->own[c] = 0;
			filled++;
			slots |= 1 << i;
		}
	if (filled) {
		struct game_event *ev = logev(s, EV_REFILL, -1, 0);
		ev->arg = (uint8_t)filled;
		ev->where = (uint8_t)slots;
		ev->num = (uint16_t)s->turn;
	}
	start_turn(s, seat_next(seat, s->n));
}

/* ---- setup ------------------------------------------------------------ */

static int dr_parties(int nplayers, const int *opt)
{
	(void)nplayers;
	return opt[O_PARTIES];
}

/* Shuffles, lays four cards face up in the middle, gives everyone five
 * dice; the start player is drawn by lot (the text's "most scales"). */
static int dr_setup(void *st, const struct setup *su, struct rerr *e)
{
	struct dr_state *s = st;
	(void)e;   /* game_setup() has checked the count and the options */
	memset(s, 0, sizeof *s);
	s->n = (uint8_t)su->nplayers;
	s->decks = (uint8_t)su->opt[O_DECKS];
	s->steal_any = (uint8_t)su->opt[O_STEAL_ANY];
	s->steal_higher = (uint8_t)su->opt[O_STEAL_HIGHER];
	s->parties = (uint8_t)su->opt[O_PARTIES];
	s->ncards = (uint16_t)(DR_DECK * s->decks);
	rng_seed(&s->rng, su->seed);
	for (int c = 0; c < s->ncards; c++)
		s->pile[c] = (uint16_t)c;
	s->npile = s->ncards;
	rng_shuffle(&s->rng, s->pile, s->npile);
	for (int i = 0; i < DR_MIDDLE; i++) {
		int c = s->pile[--s->npile];
		s->middle[i] = (int16_t)c;
		s->loc[c] = L_MIDDLE;
	}
	for (int p = 0; p < DR_SEATS; p++)
		dice_init(&s->dice[p], DR_DICE, DR_FACES);
	start_turn(s, (int)rng_below(&s->rng, s->n));
	return 0;
}

/* ---- the move language --------------------------------------------------- */

enum dr_verb { V_ROLL, V_KEEP, V_RESERVE, V_STEAL, V_LAY, V_ADD, V_DONE, V__MAX };
static const struct mt_verb dr_verbs[V__MAX] = {
	[V_ROLL] = { "roll", NULL, 1, 1, 0, NULL, N_("roll steht allein: du würfelst mit allen "
		     "Würfeln."), "roll", "roll" },
	[V_KEEP] = { "keep", NULL, 2, 1 + DR_DICE, 0, NULL, N_("So legst du Würfel zur Seite: keep "
		     "AUGEN …, z. B. keep 6 6."), "keep AUGEN [AUGEN …]", "keep 6 6" },
	[V_RESERVE] = { "reserve", NULL, 4, 3 + DR_DICE, 2, "with", N_("So reservierst du eine "
			"Karte aus der Mitte: reserve KARTE with AUGEN …, z. B. reserve herz-k "
			"with 3 3."), "reserve KARTE with AUGEN [AUGEN …]", "reserve herz-k with 3 3" },
	[V_STEAL] = { "steal", NULL, 6, 5 + DR_DICE, 2, "from", N_("So stiehlst du eine "
		      "reservierte Karte: steal KARTE from PLATZ with AUGEN …, z. B. steal herz-a "
		      "from 2 with 6 6 6 6."), "steal KARTE from PLATZ with AUGEN [AUGEN …]",
		      "steal herz-a from 2 with 6 6 6 6" },
	[V_LAY] = { "lay", NULL, 4, 1 + DR_MELD_MAX, 0, NULL, N_("So legst du ein Set ab: lay "
		    "KARTE KARTE KARTE …, z. B. lay herz-2 herz-3 herz-4."), "lay KARTE KARTE KARTE "
		    "[KARTE …]", "lay herz-2 herz-3 herz-4" },
	[V_ADD] = { "add", NULL, 4, 4, 2, "to", N_("So legst du an ein eigenes Set an: add KARTE "
		    "to SET, z. B. add herz-5 to m1."), "add KARTE to SET", "add herz-5 to m1" },
	[V_DONE] = { "done", NULL, 1, 1, 0, NULL, N_("done steht allein: dein Zug ist zu Ende."),
		     "done", "done" },
};

/* One move, before it is spelled or applied. */
struct dr_move {
	int verb;
	int card;          /* reserve, steal, add: the card (an id); -1 none */
	int target;        /* steal: the seat robbed; add: the meld (index) */
	int face, count;   /* keep: unused; reserve, steal: the dice's face and count */
	unsigned dice;     /* keep, reserve, steal: the seat's dice (a mask) */
	int n;             /* lay: cards */
	uint16_t cards[DR_MELD_MAX];
	const char *text;  /* the move spelled, when its lister spelled it already */
	int sorted;        /* lay: cards already in meld order (as the lists give them) */
};

/* Reads dice faces w[from..t->n) into want[]; -1 with a message. */
static int read_faces(const struct mtok *t, int from, int *want, int *n, struct rerr *e)
{
	char q[4 * MT_QUOTE_CHARS + 1];
	*n = 0;
	for (int i = from; i < t->n; i++) {
		const char *w = t->w[i];
		if (w[0] >= '1' && w[0] <= '0' + DR_FACES && w[1] == '\0') {
			want[(*n)++] = w[0] - '0';   /* one digit, as the lists spell it */
			continue;
		}
		if (mt_int(w, 1, DR_FACES, &want[(*n)++]) != 0)
			return rerr_set(e, "'%s' ist keine Augenzahl (1 bis 6).",
					mt_clip(q, sizeof q, w, MT_QUOTE_CHARS));
	}
	return 0;
}

/* Reads a card word; -1 with a message. */
static int read_face(const char *w, int *f, struct rerr *e)
{
	char q[4 * MT_QUOTE_CHARS + 1];
	if (parse_face(w, f) != 0)
		return rerr_set(e, "Eine Karte '%s' gibt es nicht (so: herz-k, pik-10, karo-a; "
				"b Bube, d Dame, k König, a As).",
				mt_clip(q, sizeof q, w, MT_QUOTE_CHARS));
	return 0;
}

/* Dice of one face: want[0..n) all equal, chosen among seat's kept dice at
 * hand. -1 with a message. */
static int one_face_dice(const struct dr_state *s, int seat, const int *want, int n,
			 struct dr_move *m, struct rerr *e)
{
	for (int i = 1; i < n; i++)
		if (want[i] != want[0])
			return rerr_set(e, "Alle Würfel auf einer Karte brauchen dieselbe Augenzahl.");
	const struct dice *d = &s->dice[seat];
	if (dice_pick(d, d->kept, want, n, &m->dice) != 0)
		return rerr_set(e, "Du hast nicht %d Würfel mit %d übrig.", n, want[0]);
	m->face = want[0];
	m->count = n;
	return 0;
}

/* Whether dice (count of face) beat a reservation made with `old` dice of
 * `oface`: more of the same face; with the variants, more of any face, or
 * as many of a higher face. */
static int beats(const struct dr_state *s, int face_, int count, int oface, int ocount)
{
	return (face_ == oface && count > ocount) || (s->steal_any && count > ocount) ||
	       (s->steal_higher && face_ > oface && count >= ocount);
}

/* Why these dice steal nothing, with what this table's variants add to
 * the stealing rule: a whole sentence each, for the catalogs. */
static int steal_refused(const struct dr_state *s, struct rerr *e)
{
	if (s->steal_any && s->steal_higher)
		return rerr_set(e, "Damit stiehlst du die Karte nicht: du brauchst mehr Würfel mit "
				"derselben Augenzahl (an diesem Tisch auch: mehr Würfel beliebiger "
				"Augenzahl, oder gleich viele mit höherer).");
	if (s->steal_any)
		return rerr_set(e, "Damit stiehlst du die Karte nicht: du brauchst mehr Würfel mit "
				"derselben Augenzahl (an diesem Tisch auch: mehr Würfel beliebiger "
				"Augenzahl).");
	if (s->steal_higher)
		return rerr_set(e, "Damit stiehlst du die Karte nicht: du brauchst mehr Würfel mit "
				"derselben Augenzahl (an diesem Tisch auch: gleich viele mit höherer "
				"Augenzahl).");
	return rerr_set(e, "Damit stiehlst du die Karte nicht: du brauchst mehr Würfel mit "
			"derselben Augenzahl.");
}

/* The face and count of dice on reserved card c: the count of dice and
 * the face of the last die on it (a table for five dice, as this game
 * has; the move lists ask for every reservation). */
static inline void reservation(const struct dr_state *s, int c, int *face_, int *count)
{
	static const uint8_t ones[32] = { 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
					  1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5 };
	static const int8_t last[32] = { -1, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3,
					 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4 };
	const struct dice *d = &s->dice[s->own[c]];
	unsigned mask = s->dmask[c] & ((1u << d->n) - 1);
	if (mask < 32) {
		*count = ones[mask];
		*face_ = mask ? d->face[last[mask]] : 0;
		return;
	}
	*count = 0;
	*face_ = 0;
	for (int i = 0; i < d->n; i++)
		if ((mask >> i) & 1u) {
			(*count)++;
			*face_ = d->face[i];
		}
}

/* "steal KARTE from PLATZ with AUGEN …" (face f read): that player's
 * reservation of the face that these dice beat. */
static int parse_steal(const struct dr_state *s, int seat, const struct mtok *t, int f,
		       struct dr_move *m, struct rerr *e)
{
	char q[4 * MT_QUOTE_CHARS + 1];
	int want[DR_DICE + 1], nw = 0;
	if (mt_int(t->w[3], 1, s->n, &m->target) != 0)
		return rerr_set(e, "Platz '%s' gibt es nicht (1 bis %d).",
				mt_clip(q, sizeof q, t->w[3], MT_QUOTE_CHARS), s->n);
	m->target--;
	if (m->target == seat)
		return rerr_set(e, "Deine eigene Karte kannst du nicht stehlen.");
	if (read_faces(t, 5, want, &nw, e) != 0 || one_face_dice(s, seat, want, nw, m, e))
		return -1;
	int seen = 0;
	for (int c = f; c < s->ncards; c += DR_DECK) {
		if (s->loc[c] != L_RESERVED || s->own[c] != m->target)
			continue;
		int of, oc;
		seen = 1;
		reservation(s, c, &of, &oc);
		if (beats(s, m->face, m->count, of, oc)) {
			m->card = c;
			return 0;
		}
	}
	if (!seen)
		return rerr_set(e, "Platz %d hat %s nicht reserviert.", m->target + 1, t->w[1]);
	return steal_refused(s, e);
}

/* "add KARTE to mN": a hand card to one of seat's own melds, which stays a
 * set or a run. */
static int parse_add(const struct dr_state *s, int seat, const struct mtok *t, struct dr_move *m,
		     struct rerr *e)
{
	char q[4 * MT_QUOTE_CHARS + 1];
	int f = 0, k;
	if (read_face(t->w[1], &f, e) != 0)
		return -1;
	if (t->w[3][0] != 'm' || mt_int(t->w[3] + 1, 1, DR_MELDS, &k) != 0 ||
	    (m->target = own_meld(s, seat, k - 1)) < 0)
		return rerr_set(e, "Ein eigenes Set '%s' hast du nicht (m1, m2, …).",
				mt_clip(q, sizeof q, t->w[3], MT_QUOTE_CHARS));
	m->card = find_card(s, f, L_HAND, seat);
	if (m->card < 0)
		return rerr_set(e, "%s hast du nicht auf der Hand.", t->w[1]);
	const struct dr_meld *ml = &s->meld[m->target];
	uint16_t c[DR_MELD_MAX + 1];
	int lo;
	memcpy(c, ml->c, sizeof ml->c[0] * ml->n);
	c[ml->n] = (uint16_t)m->card;
	int k2 = ml->n < DR_MELD_MAX ? meld_kind(c, ml->n + 1, &lo) : MK_NONE;
	if (k2 != (ml->run ? MK_RUN : MK_SET))
		return rerr_set(e, "%s passt nicht an Set m%d.", t->w[1], k);
	return 0;
}

/* "lay KARTE KARTE KARTE …": distinct hand cards that make a meld. */
static int parse_lay(const struct dr_state *s, int seat, const struct mtok *t, struct dr_move *m,
		     struct rerr *e)
{
	int f = 0;
	for (int i = 1; i < t->n; i++) {
		if (read_face(t->w[i], &f, e) != 0)
			return -1;
		int c = -1;
		for (int x = f; x < s->ncards && c < 0; x += DR_DECK)
			if (s->loc[x] == L_HAND && s->own[x] == seat) {
				c = x;
				for (int j = 0; j < m->n; j++)
					c = m->cards[j] == x ? -1 : c;
			}
		if (c < 0 && find_card(s, f, L_HAND, seat) >= 0)
			return rerr_set(e, "%s hast du nicht so oft auf der Hand.", t->w[i]);
		if (c < 0)
			return rerr_set(e, "%s hast du nicht auf der Hand.", t->w[i]);
		m->cards[m->n++] = (uint16_t)c;
	}
	int lo;
	if (meld_kind(m->cards, m->n, &lo) == MK_NONE)
		return rerr_set(e, "Das ist kein Set: gleicher Wert in verschiedenen Farben, "
				"oder eine Farbe in lückenloser Folge (As als 1 oder als As, "
				"nicht beides).");
	return 0;
}

/* Whether verb may be played at step st (last: in the last meld-out); -1
 * with why not, a whole sentence for each case. */
static int step_allows(int verb, int st, int last, struct rerr *e)
{
	if (last && (verb == V_ROLL || verb == V_KEEP || verb == V_RESERVE || verb == V_STEAL))
		return rerr_set(e, "Alle Karten sind vergeben: jetzt wird nur noch abgelegt "
				"(lay, add) und dann done.");
	switch (verb) {
	case V_ROLL:
		if (st == S_KEEP)
			return rerr_set(e, "Gewürfelt wird nur zu Beginn des Zuges; jetzt legst du "
					"Würfel zur Seite (keep).");
		if (st != S_ROLL)
			return rerr_set(e, "Gewürfelt wird nur zu Beginn des Zuges; jetzt ist das "
					"Würfeln vorbei.");
		return 0;
	case V_KEEP:
		if (st == S_ROLL)
			return rerr_set(e, "Erst würfeln: roll.");
		if (st != S_KEEP)
			return rerr_set(e, "Alle Würfel liegen schon zur Seite.");
		return 0;
	case V_RESERVE:
	case V_STEAL:
		if (st == S_MELD)
			return rerr_set(e, "Reservieren und Stehlen geht nur vor dem Ablegen.");
		if (st != S_RESERVE)
			return rerr_set(e, "Erst alle Würfel zur Seite legen, dann reservieren.");
		return 0;
	case V_LAY:
	case V_ADD:
		if (!last && st != S_RESERVE && st != S_MELD)
			return rerr_set(e, "Abgelegt wird nach dem Würfeln und Reservieren.");
		return 0;
	default:   /* V_DONE */
		if (!last && st == S_ROLL)
			return rerr_set(e, "Erst würfeln: roll.");
		if (!last && st != S_RESERVE && st != S_MELD)
			return rerr_set(e, "Erst alle Würfel zur Seite legen (keep).");
		return 0;
	}
}

/* The whole move checked against the state; nothing changes. */
static int parse_move(const struct dr_state *s, int seat, const char *text, struct dr_move *m,
		      struct rerr *e)
{
	struct mtok t;
	char q[4 * MT_QUOTE_CHARS + 1];
	memset(m, 0, sizeof *m);
	m->card = -1;
	if (seat < 0 || seat >= s->n)
		return rerr_set(e, "Diesen Platz gibt es an diesem Tisch nicht.");
	if (mt_split(text, &t, e) != 0)
		return -1;
	if (over(s))
		return rerr_set(e, "Die Partie ist schon vorbei.");
	if ((m->verb = mt_verb(dr_verbs, V__MAX, &t, e)) < 0 ||
	    mt_form(&dr_verbs[m->verb], &t, e) != 0)
		return -1;
	if (m->verb == V_STEAL && !mt_is(&t, 4, "with"))   /* its second link word */
		return rerr_set(e, "%s", dr_verbs[V_STEAL].usage);
	if (!prompt_waits(&s->pr, seat))
		return rerr_set(e, "Du bist nicht am Zug.");
	if (step_allows(m->verb, step(s), prompt_kind(&s->pr) == PR_LAST, e) != 0)
		return -1;
	const struct dice *d = &s->dice[seat];
	int want[DR_DICE + 1], nw = 0, f = 0;
	switch (m->verb) {
	case V_KEEP:
		if (read_faces(&t, 1, want, &nw, e) != 0)
			return -1;
		if (dice_pick(d, dice_free(d), want, nw, &m->dice) != 0)
			return rerr_set(e, "Diese Augen liegen nicht unter deinen gewürfelten Würfeln "
					"(%s).", dice_text(d, dice_free(d), q, sizeof q));
		return 0;
	case V_RESERVE:
	case V_STEAL:
		if (read_face(t.w[1], &f, e) != 0)
			return -1;
		if (m->verb == V_RESERVE) {
			if (read_faces(&t, 3, want, &nw, e) != 0)
				return -1;
			m->card = find_card(s, f, L_MIDDLE, -1);
			if (m->card < 0)
				return rerr_set(e, "%s liegt nicht in der Mitte.", t.w[1]);
			return one_face_dice(s, seat, want, nw, m, e);
		}
		return parse_steal(s, seat, &t, f, m, e);
	case V_LAY:
		return parse_lay(s, seat, &t, m, e);
	case V_ADD:
		return parse_add(s, seat, &t, m, e);
	default:   /* V_ROLL, V_DONE: the word alone */
		return 0;
	}
}

/* Applies a checked move. */
static void play(struct dr_state *s, int seat, struct dr_move *m)
{
	struct dice *d = &s->dice[seat];
	int last = prompt_kind(&s->pr) == PR_LAST;
	s->epoch++;
	switch (m->verb) {
	case V_ROLL:
		logev(s, EV_ROLL, seat, dice_roll(d, &s->rng));
		set_step(s, S_KEEP);
		return;
	case V_KEEP:
		dice_keep(d, m->dice);
		logev(s, EV_KEEP, seat, m->dice);
		if (dice_free(d))
			logev(s, EV_ROLL, seat, dice_roll(d, &s->rng));
		else
			set_step(s, S_RESERVE);
		return;
	case V_RESERVE: {
		for (int i = 0; i < DR_MIDDLE; i++)
			if (s->middle[i] == m->card)
				s->middle[i] = -1;
		s->loc[m->card] = L_RESERVED;
		s->own[m->card] = (uint8_t)seat;
		s->dmask[m->card] = (uint8_t)m->dice;
		logev(s, EV_RESERVE, seat, m->dice)->card = (uint16_t)m->card;
		dice_away(d, m->dice);
		return;
	}
	case V_STEAL: {
		int from = s->own[m->card];
		dice_back(&s->dice[from], s->dmask[m->card]);
		s->own[m->card] = (uint8_t)seat;
		s->dmask[m->card] = (uint8_t)m->dice;
		struct game_event *ev = logev(s, EV_STEAL, seat, m->dice);
		ev->card = (uint16_t)m->card;
		ev->where = (uint8_t)from;
		dice_away(d, m->dice);
		return;
	}
	case V_LAY: {
		int lo, kind = meld_kind(m->cards, m->n, &lo);
		struct dr_meld *ml = &s->meld[s->nmelds];
		ml->owner = (uint8_t)seat;
		ml->run = kind == MK_RUN;
		ml->n = (uint8_t)m->n;
		memcpy(ml->c, m->cards, sizeof m->cards[0] * (size_t)m->n);
		meld_sort(ml->c, ml->n, kind, lo);
		for (int i = 0; i < m->n; i++) {
			s->loc[m->cards[i]] = L_MELD;
			s->own[m->cards[i]] = (uint8_t)s->nmelds;
		}
		struct game_event *ev = logev(s, EV_LAY, seat, 0);
		ev->where = (uint8_t)s->nmelds;
		ev->arg = (uint8_t)m->n;
		ev->card = ml->c[0];
		ev->num = ml->c[ml->n - 1];
		s->nmelds++;
		if (!last)
			set_step(s, S_MELD);
		return;
	}
	case V_ADD: {
		struct dr_meld *ml = &s->meld[m->target];
		int lo;
		ml->c[ml->n++] = (uint16_t)m->card;
		int kind = meld_kind(ml->c, ml->n, &lo);
		meld_sort(ml->c, ml->n, kind, lo);
		s->loc[m->card] = L_MELD;
		s->own[m->card] = (uint8_t)m->target;
		struct game_event *ev = logev(s, EV_ADD, seat, 0);
		ev->card = (uint16_t)m->card;
		ev->where = (uint8_t)m->target;
		if (!last)
			set_step(s, S_MELD);
		return;
	}
	default:   /* V_DONE */
		if (last) {
			int left = prompt_peek(&s->pr)->arg;
			if (left == 0) {
				prompt_clear(&s->pr);
				logev(s, EV_OVER, -1, 0);
			} else {
				last_round(s, seat_next(seat, s->n), left - 1);
			}
			return;
		}
		end_turn(s, seat);
		return;
	}
}

static int dr_apply(void *st, int seat, const char *text, int64_t now, struct rerr *e)
{
	struct dr_state *s = st;
	struct dr_move m;
	(void)now;   /* no clock in this game (yet): the kernel's prompts carry none */
	if (parse_move(s, seat, text, &m, e) != 0)
		return -1;
	play(s, seat, &m);
	return 0;
}

/* No deadlines: nothing passes. */
static void dr_expire(void *st, struct prompt *p, int64_t now)
{
	(void)st;
	(void)p;
	(void)now;
}

static int dr_tick(void *st, int64_t now)
{
	struct dr_state *s = st;
	return prompt_tick(&s->pr, now, dr_expire, s);
}

static void dr_status(const void *st, struct status *o)
{
	const struct dr_state *s = st;
	memset(o, 0, sizeof *o);
	prompt_status(&s->pr, o);
	o->over = over(s);
	o->turn = prompt_peek(&s->pr) ? prompt_peek(&s->pr)->owner : -1;
	o->epoch = s->epoch;
	int sc[DR_SEATS];
	scores(s, sc);
	for (int p = 0; p < s->n; p++)
		o->score[p] = sc[p];
}

/* ---- listing moves ----------------------------------------------------- */

/* A word of a move as it is spelled, padded so that it is copied with one
 * fixed-size memcpy (moves are listed often: every listed move is spelled). */
struct word16 {
	char w[16];
	uint8_t n;
};

/* The move words of faces ("herz-k", "pik-10") and of verbs, built once from
 * the tables above (the rules run single-threaded). */
static struct word16 face_words[DR_DECK], verb_words[V__MAX];

static void words_init(void)
{
	if (face_words[0].n)
		return;
	for (int x = 0; x < DR_DECK; x++) {
		int n = snprintf(face_words[x].w, sizeof face_words[x].w, "%s-%s",
				 suit_word[x / DR_RANKS], rank_word[x % DR_RANKS]);
		face_words[x].n = (uint8_t)n;
	}
	for (int v = 0; v < V__MAX; v++)
		verb_words[v].n = (uint8_t)snprintf(verb_words[v].w, sizeof verb_words[v].w, "%s",
						    dr_verbs[v].word);
}

/* The move word of face f: "herz-k", "pik-10". */
static const char *face_word(int f)
{
	words_init();
	return face_words[f].w;
}

/* Appends a blank and the move word of face f (the buffer has room for
 * the 16 bytes copied). */
static char *put_face(char *p, int f)
{
	*p = ' ';
	memcpy(p + 1, face_word(f), sizeof face_words[f].w);
	return p + 1 + face_words[f].n;
}

/* Appends a blank and digit v (a die's face, a seat's number). */
static char *put_digit(char *p, int v)
{
	p[0] = ' ';
	p[1] = (char)('0' + v);
	return p + 2;
}

/* Appends a blank and the link word: " with", " from", " to". */
static char *put_link(char *p, const char *w, size_t n)
{
	*p = ' ';
	memcpy(p + 1, w, n);
	return p + 1 + n;
}

/* The dice of a keep, largest faces first, as listed. */
static char *put_keep(char *p, const struct dice *d, unsigned mask)
{
	int cnt[DR_FACES + 1] = { 0 };
	for (int i = 0; i < d->n; i++)
		if ((mask >> i) & 1u)
			cnt[d->face[i]]++;
	for (int v = DR_FACES; v >= 1; v--)
		for (int k = 0; k < cnt[v]; k++)
			p = put_digit(p, v);
	return p;
}

/* The cards of a lay in meld order. */
static char *put_lay(char *p, const struct dr_move *m)
{
	uint16_t c[DR_MELD_MAX];
	int lo;
	memcpy(c, m->cards, sizeof c[0] * (size_t)m->n);
	if (!m->sorted) {
		int kind = meld_kind(c, m->n, &lo);
		meld_sort(c, m->n, kind, lo);
	}
	for (int i = 0; i < m->n; i++)
		p = put_face(p, face(c[i]));
	return p;
}

typedef void (*move_fn)(void *ctx, const struct dr_state *s, const struct dr_move *m);

/* use[v][k-1]: the first k dice of mask showing v, lowest index first (what
 * dice_pick chooses for k dice of v); have[v]: how many show v. */
static void dice_by_face(const struct dice *d, unsigned mask, int *have,
			 unsigned use[][DR_DICE])
{
	for (int v = 0; v <= DR_FACES; v++)
		have[v] = 0;
	for (int i = 0; i < d->n; i++)
		if ((mask >> i) & 1u) {
			int v = d->face[i];
			use[v][have[v]] = (have[v] ? use[v][have[v] - 1] : 0) | 1u << i;
			have[v]++;
		}
}

/* The faces among have[1..DR_FACES] that some die shows, ascending, into
 * fl; how many. */
static int faces_shown(const int *have, int *fl)
{
	int nf = 0;
	for (int v = 1; v <= DR_FACES; v++)
		if (have[v])
			fl[nf++] = v;
	return nf;
}

/* Appends k times a blank and digit v (k <= DR_DICE; out has room for the
 * ten bytes copied). */
static char *put_digits(char *p, int v, int k)
{
	static const char rep[DR_FACES + 1][2 * DR_DICE + 1] = {
		"", " 1 1 1 1 1", " 2 2 2 2 2", " 3 3 3 3 3", " 4 4 4 4 4", " 5 5 5 5 5",
		" 6 6 6 6 6",
	};
	memcpy(p, rep[v], 2 * DR_DICE);
	return p + 2 * k;
}

/* Every sub-multiset of the free dice, largest faces first in each: an
 * odometer over the faces shown, the lowest face turning fastest. */
static int list_keeps(const struct dr_state *s, int seat, move_fn fn, void *ctx)
{
	const struct dice *d = &s->dice[seat];
	int cnt[DR_FACES + 1], fl[DR_FACES], take[DR_FACES] = { 0 }, count = 0;
	unsigned use[DR_FACES + 1][DR_DICE];
	char text[GAME_MOVE_MAX + 1];   /* spelled here: the keeps are many */
	memcpy(text, "keep", 4);
	dice_by_face(d, dice_free(d), cnt, use);
	int nf = faces_shown(cnt, fl);
	struct dr_move m = { .verb = V_KEEP, .card = -1, .text = text };
	/* The faces above the one that turns stay as they are: end[j] is where
	 * the text of faces fl[nf-1..j] ends, dice[j] their dice (faces do not
	 * share dice: the first take[j] of each face). */
	char *end[DR_FACES + 1];
	unsigned dice[DR_FACES + 1];
	for (int j = 0; j <= nf; j++) {
		end[j] = text + 4;   /* after "keep"; the faces largest first */
		dice[j] = 0;
	}
	for (;;) {
		int i = 0;
		while (i < nf && take[i] == cnt[fl[i]])
			take[i++] = 0;
		if (i == nf)
			return count;
		take[i]++;
		end[i] = put_digits(end[i + 1], fl[i], take[i]);
		dice[i] = dice[i + 1] | use[fl[i]][take[i] - 1];
		for (int j = 0; j < i; j++) {   /* the faces below i have none taken now */
			end[j] = end[i];
			dice[j] = dice[i];
		}
		*end[i] = '\0';
		m.dice = dice[i];
		fn(ctx, s, &m);
		count++;
	}
}

/* The fewest dice of face v that beat one of the reservations of[j],
 * oc[j] (face, count), j < nc (beats(): more grows no weaker); more than
 * DR_DICE when none does. */
static int least_beating(const struct dr_state *s, int v, const int *of, const int *oc, int nc)
{
	int least = DR_DICE + 1;
	for (int j = 0; j < nc; j++) {
		if ((v == of[j] || s->steal_any) && oc[j] + 1 < least)
			least = oc[j] + 1;
		if (s->steal_higher && v > of[j] && oc[j] < least)
			least = oc[j];
	}
	return least;
}

/* Whether more dice of its face than on it are at hand for one of the
 * reservations of[j], oc[j] (face, count), j < nc. */
static int same_face_beats(const int *have, const int *of, const int *oc, int nc)
{
	for (int j = 0; j < nc; j++)
		if (of[j] >= 1 && of[j] <= DR_FACES && have[of[j]] > oc[j])
			return 1;
	return 0;
}

/* Every steal from seat t: per face it reserved (its first copy) and face
 * of the thief's kept dice, each number of those dice that beats one of
 * t's reservations of that face. res[0..nres): t's reserved cards, in id
 * order. */
static int list_steals(const struct dr_state *s, int t, const int *res, int nres,
		       const int *have, const int *fl, int nf, unsigned use[][DR_DICE],
		       move_fn fn, void *ctx)
{
	int count = 0;
	for (int r = 0; r < nres; r++) {
		int c0 = res[r];
		if (c0 >= DR_DECK && s->loc[c0 - DR_DECK] == L_RESERVED &&
		    s->own[c0 - DR_DECK] == t)
			continue;   /* a face once: its first copy */
		/* that player's reservations of this face (one per deck) */
		int cards[DR_DECKS_MAX], of[DR_DECKS_MAX], oc[DR_DECKS_MAX], nc = 0;
		for (int x = c0; x < s->ncards; x += DR_DECK)
			if (s->loc[x] == L_RESERVED && s->own[x] == t) {
				reservation(s, x, &of[nc], &oc[nc]);
				cards[nc++] = x;
			}
		if (!s->steal_any && !s->steal_higher && !same_face_beats(have, of, oc, nc))
			continue;   /* the plain rule: only more dice of the same face steal */
		for (int i = 0; i < nf; i++) {
			int v = fl[i];
			if (least_beating(s, v, of, oc, nc) > have[v])
				continue;   /* no number of these dice beats any */
			for (int k = 1; k <= have[v]; k++) {
				int c = -1;
				for (int j = 0; j < nc && c < 0; j++)
					if (beats(s, v, k, of[j], oc[j]))
						c = cards[j];
				if (c < 0)
					continue;
				struct dr_move m = { .verb = V_STEAL, .card = c, .target = t,
						     .face = v, .count = k, .dice = use[v][k - 1] };
				fn(ctx, s, &m);
				count++;
			}
		}
	}
	return count;
}

/* Every reservation and steal: per card (a face once) and face of the
 * seat's kept dice, each number of those dice that may be used. */
static int list_takes(const struct dr_state *s, int seat, move_fn fn, void *ctx)
{
	const struct dice *d = &s->dice[seat];
	int count = 0, have[DR_FACES + 1], fl[DR_FACES];
	unsigned use[DR_FACES + 1][DR_DICE];
	dice_by_face(d, d->kept, have, use);
	int nf = faces_shown(have, fl);
	for (int i = 0; i < DR_MIDDLE; i++) {
		int c = s->middle[i], dup = 0;
		for (int j = 0; j < i && c >= 0; j++)
			dup |= s->middle[j] >= 0 && face(s->middle[j]) == face(c);
		if (c < 0 || dup)
			continue;
		/* spelled here, a die more each time: "reserve herz-k with 3 3" */
		char text[GAME_MOVE_MAX + 1];
		memcpy(text, "reserve", 7);
		char *with = put_link(put_face(text + 7, face(c)), "with", 4);
		struct dr_move m = { .verb = V_RESERVE, .card = c, .text = text };
		for (int j = 0; j < nf; j++) {
			char *p = with;
			m.face = fl[j];
			for (m.count = 1; m.count <= have[m.face]; m.count++) {
				m.dice = use[m.face][m.count - 1];
				p = put_digit(p, m.face);
				*p = '\0';
				fn(ctx, s, &m);
				count++;
			}
		}
	}
	/* the reserved cards once, by holder, not once per seat robbed */
	int res[DR_SEATS][DR_CARDS], nres[DR_SEATS] = { 0 };
	for (int c0 = 0; c0 < s->ncards; c0 += 8)
		for (uint64_t hit = cards8(s, c0, L_RESERVED, -1); hit;) {
			int c = next_card(c0, &hit);
			if (s->own[c] < DR_SEATS)
				res[s->own[c]][nres[s->own[c]]++] = c;
		}
	for (int t = 0; t < s->n; t++)
		if (t != seat && nres[t] > 0)
			count += list_steals(s, t, res[t], nres[t], have, fl, nf, use, fn, ctx);
	return count;
}

/* Seat's hand as one card per face with how many it holds. */
static void hand_faces(const struct dr_state *s, int seat, int *cnt)
{
	memset(cnt, 0, sizeof cnt[0] * DR_DECK);
	for (int c = 0; c < s->ncards; c++)
		if (s->loc[c] == L_HAND && s->own[c] == seat)
			cnt[face(c)]++;
}

/* Seat's hand once for all its melds: first[f], its first card of face f
 * (-1: none); the ranks it holds of each suit and the suits of each rank
 * (masks). */
struct hand {
	int first[DR_DECK];
	unsigned ranks[DR_SUITS], suits[DR_RANKS];
};

static void hand_of(const struct dr_state *s, int seat, struct hand *h)
{
	memset(h, 0, sizeof *h);
	for (int f = 0; f < DR_DECK; f++)
		h->first[f] = -1;
	for (int c0 = 0; c0 < s->ncards; c0 += 8)
		for (uint64_t hit = cards8(s, c0, L_HAND, seat); hit;) {
			int c = next_card(c0, &hit), f = face(c);
			if (h->first[f] < 0)   /* upwards: the first copy */
				h->first[f] = c;
			h->ranks[f / DR_RANKS] |= 1u << (f % DR_RANKS);
			h->suits[f % DR_RANKS] |= 1u << (f / DR_RANKS);
		}
}

/* Runs: in each suit from rank position lo (-1: the ace as 1) up to every
 * hi two or more further on, while the hand has each card. */
static int list_runs(const struct dr_state *s, const struct hand *h, move_fn fn, void *ctx)
{
	struct dr_move m = { .verb = V_LAY, .card = -1 };
	int count = 0;
	for (int su = 0; su < DR_SUITS; su++) {
		/* bit 0: the ace as 1, bit r + 1: rank r */
		unsigned ext = h->ranks[su] << 1 | h->ranks[su] >> (DR_RANKS - 1);
		/* bit lo + 1: three in a row from lo */
		unsigned starts = ext & ext >> 1 & ext >> 2 & ((1u << (DR_RANKS - 1)) - 1);
		for (int lo = -1; starts >> (lo + 1); lo++) {
			if (!((starts >> (lo + 1)) & 1u))
				continue;
			m.n = 0;
			/* from the ace as 1 up to the queen at most: the thirteen
			 * from the ace are the same cards as the thirteen from the 2
			 * up to the ace, listed once, as those (the ace high) */
			for (int r = lo; r < DR_RANKS && !(lo < 0 && r == DR_RANKS - 2); r++) {
				int c = h->first[su * DR_RANKS + (r < 0 ? 12 : r)];
				if (c < 0)
					break;
				m.cards[m.n++] = (uint16_t)c;
				if (m.n >= 3) {
					m.sorted = 1;   /* upwards is meld order */
					fn(ctx, s, &m);
					count++;
				}
			}
		}
	}
	return count;
}

/* Sets: three or four suits of a rank, every choice of suits. */
static int list_sets(const struct dr_state *s, const struct hand *h, move_fn fn, void *ctx)
{
	static const unsigned choice[] = { 7, 11, 13, 14, 15 };   /* three suits or four */
	struct dr_move m = { .verb = V_LAY, .card = -1, .sorted = 1 };   /* suits upwards */
	int count = 0;
	_Static_assert(DR_SUITS == 4, "three of four suits, spelled out below");
	const unsigned *a = h->ranks;   /* the ranks held in three suits or four */
	unsigned three = (a[0] & a[1] & (a[2] | a[3])) | (a[2] & a[3] & (a[0] | a[1]));
	for (int r = 0; three >> r; r++) {
		if (!((three >> r) & 1u))
			continue;
		for (int k = 0; k < 5; k++) {
			if ((h->suits[r] & choice[k]) != choice[k])
				continue;
			m.n = 0;
			for (int su = 0; su < DR_SUITS; su++)
				if ((choice[k] >> su) & 1u)
					m.cards[m.n++] = (uint16_t)h->first[su * DR_RANKS + r];
			fn(ctx, s, &m);
			count++;
		}
	}
	return count;
}

/* Every hand card that fits meld i (seat's own). Only faces of the meld's
 * suit (a run) or rank (a set) can fit; meld_kind decides. */
static int list_adds(const struct dr_state *s, const struct hand *h, int i, move_fn fn,
		     void *ctx)
{
	const struct dr_meld *ml = &s->meld[i];
	int count = 0, from = 0, to = DR_DECK, by = 1;
	unsigned near = (1u << DR_RANKS) - 1;   /* ranks that may fit */
	if (ml->n > 0 && ml->run) {
		from = suit(ml->c[0]) * DR_RANKS;
		to = from + DR_RANKS;
		/* a run grows by a new rank next to one of its own (the ace next
		 * to the 2 and to the king) */
		unsigned rm = 0;
		for (int j = 0; j < ml->n; j++)
			rm |= 1u << rank(ml->c[j]);
		unsigned ace = (rm & 1u) << (DR_RANKS - 1) | rm >> (DR_RANKS - 1);
		near = (rm << 1 | rm >> 1 | ace) & ~rm;
	} else if (ml->n > 0) {
		from = rank(ml->c[0]);
		by = DR_RANKS;
	}
	for (int f = from; f < to && ml->n < DR_MELD_MAX; f += by) {
		if (h->first[f] < 0 || !((near >> rank(f)) & 1u))
			continue;
		uint16_t c[DR_MELD_MAX + 1];
		int lo;
		memcpy(c, ml->c, sizeof c[0] * ml->n);
		c[ml->n] = (uint16_t)h->first[f];
		if (meld_kind(c, ml->n + 1, &lo) != (ml->run ? MK_RUN : MK_SET))
			continue;
		struct dr_move a = { .verb = V_ADD, .card = c[ml->n], .target = i };
		fn(ctx, s, &a);
		count++;
	}
	return count;
}

/* Every meld the hand can lay: runs (the ace low or high), then sets, and
 * every card that fits one of seat's melds. */
static int list_melds(const struct dr_state *s, int seat, move_fn fn, void *ctx)
{
	struct hand h;
	hand_of(s, seat, &h);
	int count = list_runs(s, &h, fn, ctx);   /* runs first: the order is the list's */
	count += list_sets(s, &h, fn, ctx);
	for (int i = 0; i < s->nmelds; i++)
		if (s->meld[i].owner == seat)
			count += list_adds(s, &h, i, fn, ctx);
	return count;
}

/* The one list of seat's legal moves, in canonical order. */
static int legal_moves(const struct dr_state *s, int seat, move_fn fn, void *ctx)
{
	if (seat < 0 || seat >= s->n || !prompt_waits(&s->pr, seat))
		return 0;
	int st = step(s), count = 0;
	struct dr_move m = { .card = -1 };
	if (st == S_ROLL) {
		m.verb = V_ROLL;
		m.text = "roll";
		fn(ctx, s, &m);
		return 1;
	}
	if (st == S_KEEP)
		return list_keeps(s, seat, fn, ctx);
	if (st == S_RESERVE)
		count += list_takes(s, seat, fn, ctx);
	count += list_melds(s, seat, fn, ctx);
	m.verb = V_DONE;
	m.text = "done";
	fn(ctx, s, &m);
	return count + 1;
}

/* The 1-based number of meld i among its owner's melds. */
static int meld_number(const struct dr_state *s, int i)
{
	int k = 0;
	for (int j = 0; j <= i; j++)
		k += s->meld[j].owner == s->meld[i].owner;
	return k;
}

/* The longest move spelled (a lay of 13 cards, 9 bytes each, after "lay"),
 * with the 16 bytes put_face copies past its end. */
enum { DR_TEXT_ROOM = 3 + DR_MELD_MAX * 9 + 16 };
_Static_assert(DR_TEXT_ROOM <= GAME_MOVE_MAX + 1, "a spelled move fits its buffer");
_Static_assert(DR_MELDS < 100, "a meld's number has at most two digits");

/* A move in canonical spelling, the form of the table of verbs (the verb,
 * its words, the link word in its place), written straight into out: this
 * runs for every listed move. out has GAME_MOVE_MAX + 1 bytes. */
static void move_text(const struct dr_state *s, int seat, const struct dr_move *m, char *out)
{
	if (m->text) {
		memcpy(out, m->text, strlen(m->text) + 1);
		return;
	}
	words_init();
	char *p = out;
	memcpy(p, verb_words[m->verb].w, sizeof verb_words[m->verb].w);
	p += verb_words[m->verb].n;
	switch (m->verb) {
	case V_KEEP:
		p = put_keep(p, &s->dice[seat], m->dice);
		break;
	case V_RESERVE:
	case V_STEAL:
		p = put_face(p, face(m->card));
		if (m->verb == V_STEAL) {
			p = put_link(p, "from", 4);
			p = put_digit(p, m->target + 1);
		}
		p = put_link(p, "with", 4);
		for (int k = 0; k < m->count; k++)
			p = put_digit(p, m->face);
		break;
	case V_LAY:
		p = put_lay(p, m);
		break;
	case V_ADD: {
		p = put_face(p, face(m->card));
		p = put_link(p, "to m", 4);
		int k = meld_number(s, m->target);
		if (k >= 10)
			*p++ = (char)('0' + k / 10);
		*p++ = (char)('0' + k % 10);
		break;
	}
	default:
		break;
	}
	*p = '\0';
}

struct emit_ctx {
	move_emit_fn emit;
	void *ctx;
	int seat;
};

static void emit_text(void *vc, const struct dr_state *s, const struct dr_move *m)
{
	struct emit_ctx *c = vc;
	char t[GAME_MOVE_MAX + 1];
	if (m->text) {   /* spelled by its lister */
		c->emit(c->ctx, m->text);
		return;
	}
	move_text(s, c->seat, m, t);
	c->emit(c->ctx, t);
}

static int dr_moves(const void *st, int seat, move_emit_fn emit, void *ctx)
{
	struct emit_ctx c = { emit, ctx, seat };
	return legal_moves(st, seat, emit_text, &c);
}

/* ---- snapshot and invariants --------------------------------------------- */

static int dr_encode(const void *st, struct buf *b)
{
	const struct dr_state *s = st;
	size_t start = snap_begin(b, "drachenrummy", DR_FORMAT);
	ser_u8(b, s->n);
	ser_u8(b, s->decks);
	ser_u8(b, s->steal_any);
	ser_u8(b, s->steal_higher);
	ser_u8(b, s->parties);
	ser_u16(b, s->turn);
	ser_u32(b, s->epoch);
	ser_rng(b, &s->rng);
	prompt_encode(b, &s->pr);
	for (int c = 0; c < s->ncards; c++) {
		ser_u8(b, s->loc[c]);
		ser_u8(b, s->own[c]);
		ser_u8(b, s->dmask[c]);
	}
	ser_u16s(b, s->pile, s->npile);
	for (int i = 0; i < DR_MIDDLE; i++)
		ser_u16(b, (unsigned)(s->middle[i] + 1));
	for (int p = 0; p < s->n; p++)
		dice_encode(b, &s->dice[p]);
	ser_u8(b, (unsigned)s->nmelds);
	for (int i = 0; i < s->nmelds; i++) {
		ser_u8(b, s->meld[i].owner);
		ser_u8(b, s->meld[i].run);
		ser_u16s(b, s->meld[i].c, s->meld[i].n);
	}
	evlog_encode(b, &s->log, 0);
	return snap_end(b, start);
}

static int dr_decode(void *st, struct de *d, struct rerr *e)
{
	struct dr_state *s = st;
	memset(s, 0, sizeof *s);
	s->n = (uint8_t)de_u8(d);
	s->decks = (uint8_t)de_u8(d);
	if (d->err || s->n < 2 || s->n > DR_SEATS || s->decks < 1 || s->decks > DR_DECKS_MAX)
		return rerr_set(e, "Spielstand beschädigt: Spieler- oder Kartenzahl");
	s->ncards = (uint16_t)(DR_DECK * s->decks);
	s->steal_any = (uint8_t)de_u8(d);
	s->steal_higher = (uint8_t)de_u8(d);
	s->parties = (uint8_t)de_u8(d);
	s->turn = (uint16_t)de_u16(d);
	s->epoch = de_u32(d);
	de_rng(d, &s->rng);
	if (prompt_decode(d, &s->pr) != 0)
		return rerr_set(e, "Spielstand beschädigt: Aufforderungen");
	for (int c = 0; c < s->ncards; c++) {
		s->loc[c] = (uint8_t)de_u8(d);
		s->own[c] = (uint8_t)de_u8(d);
		s->dmask[c] = (uint8_t)de_u8(d);
	}
	s->npile = de_u16s(d, s->pile, DR_CARDS);
	for (int i = 0; i < DR_MIDDLE; i++)
		s->middle[i] = (int16_t)((int)de_u16(d) - 1);
	for (int p = 0; p < s->n; p++)
		if (dice_decode(d, &s->dice[p]) != 0)
			return rerr_set(e, "Spielstand beschädigt: Würfel");
	for (int p = s->n; p < DR_SEATS; p++)
		dice_init(&s->dice[p], DR_DICE, DR_FACES);
	s->nmelds = (int)de_u8(d);
	if (s->nmelds > DR_MELDS)
		return rerr_set(e, "Spielstand beschädigt: Sets");
	for (int i = 0; i < s->nmelds; i++) {
		s->meld[i].owner = (uint8_t)de_u8(d);
		s->meld[i].run = (uint8_t)de_u8(d);
		s->meld[i].n = (uint8_t)de_u16s(d, s->meld[i].c, DR_MELD_MAX);
	}
	if (evlog_decode(d, &s->log, DR_LOG, 0) != 0)
		return rerr_set(e, "Spielstand beschädigt: Protokoll");
	if (d->err)
		return rerr_set(e, "Spielstand beschädigt: zu kurz");
	return 0;
}

/* Every card in exactly one place, consistent with the pile, the middle,
 * the reservations' dice and the melds. */
static int check_cards(const struct dr_state *s, struct rerr *e)
{
	uint8_t seen[DR_CARDS] = { 0 };
	if (s->npile < 0 || s->npile > s->ncards)
		return rerr_set(e, "Nachziehstapel: %d Karten", s->npile);
	for (int i = 0; i < s->npile; i++) {
		int c = s->pile[i];
		if (c >= s->ncards || seen[c]++ || s->loc[c] != L_DECK)
			return rerr_set(e, "Nachziehstapel: Karte %d", c);
	}
	for (int i = 0; i < DR_MIDDLE; i++) {
		int c = s->middle[i];
		if (c < -1 || c >= s->ncards || (c >= 0 && (seen[c]++ || s->loc[c] != L_MIDDLE)))
			return rerr_set(e, "Mitte: Karte %d", c);
	}
	unsigned used[DR_SEATS] = { 0 };
	for (int c = 0; c < s->ncards; c++) {
		int l = s->loc[c], o = s->own[c];
		if (l >= L__MAX || (l == L_DECK && !seen[c]) || (l == L_MIDDLE && !seen[c]))
			return rerr_set(e, "Karte %d liegt nirgends", c);
		if ((l == L_HAND || l == L_RESERVED) && o >= s->n)
			return rerr_set(e, "Karte %d: Platz %d", c, o);
		if ((l == L_DECK || l == L_MIDDLE) && o != 0)
			return rerr_set(e, "Karte %d: Besitzer", c);
		if (l == L_MELD && o >= s->nmelds)
			return rerr_set(e, "Karte %d: Set %d", c, o);
		if ((l == L_RESERVED) != (s->dmask[c] != 0))
			return rerr_set(e, "Karte %d: Würfel", c);
		if (l != L_RESERVED)
			continue;
		const struct dice *d = &s->dice[o];
		int f = 0;
		for (int i = 0; i < DR_DICE; i++)
			if ((s->dmask[c] >> i) & 1u) {
				if (f && d->face[i] != f)
					return rerr_set(e, "Karte %d: Würfel verschiedener Augen", c);
				f = d->face[i];
			}
		if ((s->dmask[c] & used[o]) || (s->dmask[c] & ~(unsigned)d->out))
			return rerr_set(e, "Karte %d: Würfel doppelt oder nicht weg", c);
		used[o] |= s->dmask[c];
	}
	for (int p = 0; p < s->n; p++)
		if (used[p] != s->dice[p].out)
			return rerr_set(e, "Platz %d: Würfel weg ohne Karte", p);
	for (int i = 0; i < s->nmelds; i++) {
		const struct dr_meld *ml = &s->meld[i];
		int lo, k = meld_kind(ml->c, ml->n, &lo);
		if (ml->owner >= s->n || k == MK_NONE || ml->run != (k == MK_RUN))
			return rerr_set(e, "Set %d ungültig", i);
		for (int j = 0; j < ml->n; j++)
			if (ml->c[j] >= s->ncards || s->loc[ml->c[j]] != L_MELD || s->own[ml->c[j]] != i ||
			    (j > 0 && meld_key(ml->c[j - 1], k, lo) >= meld_key(ml->c[j], k, lo)))
				return rerr_set(e, "Set %d: Karte %d", i, j);
	}
	int inmelds = 0;
	for (int c = 0; c < s->ncards; c++)
		inmelds += s->loc[c] == L_MELD;
	int total = 0;
	for (int i = 0; i < s->nmelds; i++)
		total += s->meld[i].n;
	if (total != inmelds)
		return rerr_set(e, "Karten in Sets: %d statt %d", inmelds, total);
	return 0;
}

/* The prompts and the dice agree with the step: over, no prompt; the
 * turn: roll (dice all home and unrolled), keep (some rolled and free),
 * reserve or meld (every die at hand kept); the last meld-out: one seat
 * with cards. Seats not on turn hold no kept or rolled dice at hand. */
static int check_flow(const struct dr_state *s, struct rerr *e)
{
	const struct prompts *ps = &s->pr;
	if (prompt_check(ps, PR__MAX, s->n, e) != 0)
		return -1;
	if (ps->n > 1)
		return rerr_set(e, "%d Aufforderungen", ps->n);
	const struct prompt *p = prompt_peek(ps);
	if (p && (p->owner < 0 || p->seats != 1u << p->owner || p->waiting != p->seats ||
		  p->flags || p->deadline ||
		  (p->kind == PR_TURN ? p->arg < S_ROLL || p->arg >= S__MAX : p->arg >= s->n)))
		return rerr_set(e, "Aufforderung falsch");
	if (p && p->kind == PR_LAST &&
	    (reserved_count(s) || (s->turn < DR_TURN_MAX && (s->npile || middle_count(s)))))
		return rerr_set(e, "letztes Ablegen, obwohl noch Karten vergeben werden");
	for (int q = 0; q < s->n; q++) {
		const struct dice *d = &s->dice[q];
		if (dice_check(d, DR_DICE, DR_FACES, e) != 0)
			return -1;
		unsigned home = dice_home(d), rolled = 0;
		for (int i = 0; i < DR_DICE; i++)
			rolled |= (unsigned)(d->face[i] > 0) << i;
		int st = p && p->kind == PR_TURN && p->owner == q ? p->arg : 0;
		int ok = st == S_ROLL ? d->out == 0 && rolled == 0 :
			 st == S_KEEP ? (home & ~rolled) == 0 && dice_free(d) != 0 :
			 st == S_RESERVE || st == S_MELD ? (home & ~d->kept) == 0 :
			 d->kept == 0 && (rolled & home) == 0;
		if (!ok)
			return rerr_set(e, "Platz %d: Würfel passen nicht zum Schritt", q);
	}
	return 0;
}

static int dr_check(const void *st, struct rerr *e)
{
	const struct dr_state *s = st;
	if (s->n < 2 || s->n > DR_SEATS || s->decks < 1 || s->decks > DR_DECKS_MAX ||
	    s->ncards != DR_DECK * s->decks || s->steal_any > 1 || s->steal_higher > 1 ||
	    s->parties < 1 || s->parties > 10 || s->turn > DR_TURN_MAX)
		return rerr_set(e, "Drachenrummy: Spieler, Karten oder Optionen falsch");
	if (s->nmelds < 0 || s->nmelds > DR_MELDS)
		return rerr_set(e, "Drachenrummy: %d Sets", s->nmelds);
	if (check_cards(s, e) != 0 || check_flow(s, e) != 0)
		return -1;
	if (evlog_check(&s->log, DR_LOG, EV__MAX, s->n, e) != 0)
		return -1;
	for (int i = 0; i < s->log.n; i++) {
		const struct game_event *ev = &s->log.ev[i];
		int dice_ev = ev->type == EV_ROLL || ev->type == EV_KEEP || ev->type == EV_RESERVE ||
			      ev->type == EV_STEAL;
		int refill_bad = ev->type == EV_REFILL &&
				 (ev->where >= 1u << DR_MIDDLE || ev->num > DR_TURN_MAX ||
				  (ev->where & 1) + (ev->where >> 1 & 1) + (ev->where >> 2 & 1) +
				  (ev->where >> 3 & 1) != ev->arg);
		if ((ev->card != EVENT_NO_CARD && ev->card >= s->ncards) || (dice_ev && ev->arg > DR_DICE) ||
		    refill_bad)
			return rerr_set(e, "Protokolleintrag %d ungültig", i);
	}
	return 0;
}

/* ---- the view ------------------------------------------------------------ */

/* The first n faces packed by pack_faces as "6, 6, 3" (a face is one
 * digit, 0..7: written as it is, not formatted). */
static void faces_list(uint16_t packed, int n, char *out, size_t cap)
{
	size_t len = 0;
	if (n > DR_DICE)
		n = DR_DICE;   /* five faces fit in the 16 bits; a damaged count is cut */
	for (int k = 0; k < n && len + 4 <= cap; k++) {
		if (k) {
			out[len++] = ',';
			out[len++] = ' ';
		}
		out[len++] = (char)('0' + ((packed >> (3 * k)) & 7u));
	}
	if (cap)
		out[len] = '\0';
}

/* Faces packed by pack_faces as "6, 6 und 3", the German the log's
 * sentences come to (the tests compare them with it). */
__attribute__((unused)) static void faces_words(uint16_t packed, int n, char *out, size_t cap)
{
	char list[24];
	if (n > DR_DICE)
		n = DR_DICE;
	if (n < 2) {
		faces_list(packed, n, out, cap);
		return;
	}
	faces_list(packed, n - 1, list, sizeof list);
	view_format(out, cap, "%s und %u", list, (packed >> (3 * (n - 1))) & 7u);
}

/* A dice event's faces for its sentence: one face alone, or all but the
 * last as a list and the last (the sentence says the "und"), so that the
 * list is digits only and the platform can translate the sentence. */
struct faces {
	int n;
	unsigned last;
	char list[24];
};

static void faces_of(const struct game_event *ev, struct faces *f)
{
	/* at least one: a damaged count of none shows a 0 (only dice events
	 * carry faces; the others' sentences ignore these) */
	f->n = ev->arg > DR_DICE ? DR_DICE : ev->arg < 1 ? 1 : ev->arg;
	faces_list(ev->num, f->n - 1, f->list, sizeof f->list);
	f->last = (ev->num >> (3 * (f->n - 1))) & 7u;
}

/* An event's sentence under key: a whole format for each case (a plural,
 * one die or more), card names as arguments (catalog messages). */
static void event_say(const struct game_event *ev, struct view_sink *v, const char *key)
{
	const char *a = ev->card != EVENT_NO_CARD ? face_label(face(ev->card)) : "";
	struct faces f;
	faces_of(ev, &f);
	switch (ev->type) {
	case EV_TAKE:
		if (ev->arg == 1)
			vtextf(v, key, "@%d nimmt %d reservierte Karte auf die Hand.", ev->seat,
			       ev->arg);
		else
			vtextf(v, key, "@%d nimmt %d reservierte Karten auf die Hand.", ev->seat,
			       ev->arg);
		break;
	case EV_ROLL:
		if (f.n == 1)
			vtextf(v, key, "@%d würfelt %u.", ev->seat, f.last);
		else
			vtextf(v, key, "@%d würfelt %s und %u.", ev->seat, f.list, f.last);
		break;
	case EV_KEEP:
		if (f.n == 1)
			vtextf(v, key, "@%d legt %u zur Seite.", ev->seat, f.last);
		else
			vtextf(v, key, "@%d legt %s und %u zur Seite.", ev->seat, f.list, f.last);
		break;
	case EV_RESERVE:
		if (f.n == 1)
			vtextf(v, key, "@%d reserviert %s mit %u.", ev->seat, a, f.last);
		else
			vtextf(v, key, "@%d reserviert %s mit %s und %u.", ev->seat, a, f.list,
			       f.last);
		break;
	case EV_STEAL:
		if (f.n == 1)
			vtextf(v, key, "@%d stiehlt %s von @%d mit %u.", ev->seat, a, ev->where,
			       f.last);
		else
			vtextf(v, key, "@%d stiehlt %s von @%d mit %s und %u.", ev->seat, a, ev->where,
			       f.list, f.last);
		break;
	case EV_LAY:
		vtextf(v, key, "@%d legt ein Set ab: %d Karten, %s bis %s.", ev->seat, ev->arg, a,
		       face_label(face(ev->num)));
		break;
	case EV_ADD:
		vtextf(v, key, "@%d legt %s an.", ev->seat, a);
		break;
	case EV_REFILL:
		if (ev->arg == 1)
			vtextf(v, key, "Die Mitte wird mit %d Karte aufgefüllt.", ev->arg);
		else
			vtextf(v, key, "Die Mitte wird mit %d Karten aufgefüllt.", ev->arg);
		break;
	case EV_LAST:
		vtext(v, key, "Alle Karten sind vergeben: jede Person darf noch einmal ablegen.");
		break;
	case EV_LIMIT:
		vtextf(v, key, "Nach %u Zügen: jede Person darf noch einmal ablegen.", ev->num);
		break;
	default:
		vtext(v, key, "Die Partie ist vorbei.");
		break;
	}
}

/* An event's sentence in German, as a page without translation shows it
 * (the tests compare it). */
__attribute__((unused))
static void event_text(const struct game_event *ev, char *out, size_t cap)
{
	evlog_text(ev, event_say, out, cap);
}

/* The label of a meld to lay, by its number of cards: the names are
 * arguments, so that the platform translates each. */
static const char *const lay_label[DR_MELD_MAX + 1] = {
	[3] = N_("Ablegen: %s, %s, %s"),
	[4] = N_("Ablegen: %s, %s, %s, %s"),
	[5] = N_("Ablegen: %s, %s, %s, %s, %s"),
	[6] = N_("Ablegen: %s, %s, %s, %s, %s, %s"),
	[7] = N_("Ablegen: %s, %s, %s, %s, %s, %s, %s"),
	[8] = N_("Ablegen: %s, %s, %s, %s, %s, %s, %s, %s"),
	[9] = N_("Ablegen: %s, %s, %s, %s, %s, %s, %s, %s, %s"),
	[10] = N_("Ablegen: %s, %s, %s, %s, %s, %s, %s, %s, %s, %s"),
	[11] = N_("Ablegen: %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s"),
	[12] = N_("Ablegen: %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s"),
	[13] = N_("Ablegen: %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s"),
};

/* A lay's button label (a meld has 3 to 13 cards: list_melds). */
static void lay_say(const struct dr_move *m, struct view_sink *v, const char *key)
{
	const char *nm[DR_MELD_MAX];
	int n = m->n < 3 ? 3 : m->n > DR_MELD_MAX ? DR_MELD_MAX : m->n;
	for (int i = 0; i < DR_MELD_MAX; i++)
		nm[i] = i < m->n ? face_label(face(m->cards[i])) : "";
	vtextf(v, key, lay_label[n], nm[0], nm[1], nm[2], nm[3], nm[4], nm[5], nm[6], nm[7],
	       nm[8], nm[9], nm[10], nm[11], nm[12]);
}

/* A move's button label under key. */
static void move_say(const struct dr_state *s, const struct dr_move *m, struct view_sink *v,
		     const char *key)
{
	const char *a = m->card >= 0 ? face_label(face(m->card)) : "";
	char b[32];
	switch (m->verb) {
	case V_ROLL:
		vtext(v, key, "Würfeln");
		break;
	case V_KEEP: {
		/* the dice in the order the move names them, largest first */
		*put_keep(b, &s->dice[prompt_peek(&s->pr)->owner], m->dice) = '\0';
		vtextf(v, key, "%s zur Seite legen", b + 1);
		break;
	}
	case V_RESERVE:
		vtextf(v, key, "%s mit %d× %d reservieren", a, m->count, m->face);
		break;
	case V_STEAL:
		vtextf(v, key, "%s mit %d× %d stehlen", a, m->count, m->face);
		break;
	case V_LAY:
		lay_say(m, v, key);
		break;
	case V_ADD:
		vtextf(v, key, "an Set %d anlegen", meld_number(s, m->target));
		break;
	default:
		if (prompt_kind(&s->pr) == PR_LAST)
			vtext(v, key, "Fertig");
		else
			vtext(v, key, "Zug beenden");
		break;
	}
}

/* Buttons go to sections by what they act on; the view asks for one kind
 * at a time. */
struct buttons {
	struct view_sink *v;
	const char *section;
	int verb, card_face, target, seat;
};

static void button(void *vc, const struct dr_state *s, const struct dr_move *m)
{
	struct buttons *b = vc;
	if (m->verb != b->verb || (b->card_face >= 0 && (m->card < 0 || face(m->card) != b->card_face)) ||
	    (b->target >= 0 && m->target != b->target))
		return;
	char t[GAME_MOVE_MAX + 1];
	move_text(s, b->seat, m, t);
	vbegin(b->v, b->section);
	vstr(b->v, "move", t);
	move_say(s, m, b->v, "label");
	vend(b->v);
}

/* How many new melds seat may lay now (the page folds a long list). */
struct count_ctx {
	int n;
};

static void count_lays(void *vc, const struct dr_state *s, const struct dr_move *m)
{
	struct count_ctx *c = vc;
	(void)s;
	c->n += m->verb == V_LAY;
}

static void buttons_for(const struct dr_state *s, int me, struct view_sink *v, const char *section,
			int verb, int card_face, int target)
{
	if (me < 0)
		return;
	struct buttons b = { v, section, verb, card_face, target, me };
	legal_moves(s, me, button, &b);
}

static void view_headline(const struct dr_state *s, int me, struct view_sink *v)
{
	const struct prompt *p = prompt_peek(&s->pr);
	if (!p) {
		int best = -1000, nbest = 0, who = 0, sc[DR_SEATS];
		scores(s, sc);
		for (int q = 0; q < s->n; q++) {
			if (sc[q] > best)
				best = sc[q], nbest = 0, who = q;
			nbest += sc[q] == best;
		}
		if (nbest == 1)
			vtextf(v, "headline", "Die Partie ist vorbei: @%d gewinnt mit %d Punkten.", who,
			       best);
		else
			vtextf(v, "headline", "Die Partie ist vorbei: Gleichstand mit %d Punkten.",
			       best);
		return;
	}
	/* what the step asks, a whole sentence each */
	static const char *const mine[S__MAX] = {
		[S_ROLL] = N_("Du bist am Zug: würfeln."),
		[S_KEEP] = N_("Du bist am Zug: Würfel zur Seite legen."),
		[S_RESERVE] = N_("Du bist am Zug: Karten reservieren oder stehlen, dann ablegen."),
		[S_MELD] = N_("Du bist am Zug: Sets ablegen und anlegen."),
	};
	static const char *const theirs[S__MAX] = {
		[S_ROLL] = N_("@%d ist am Zug: würfeln."),
		[S_KEEP] = N_("@%d ist am Zug: Würfel zur Seite legen."),
		[S_RESERVE] = N_("@%d ist am Zug: Karten reservieren oder stehlen, dann ablegen."),
		[S_MELD] = N_("@%d ist am Zug: Sets ablegen und anlegen."),
	};
	if (p->kind == PR_LAST && p->owner == me)
		vtext(v, "headline", "Letztes Ablegen: du darfst noch Sets ablegen.");
	else if (p->kind == PR_LAST)
		vtextf(v, "headline", "Letztes Ablegen: @%d ist dran.", p->owner);
	else if (p->owner == me)
		vtext(v, "headline", mine[p->arg]);
	else
		vtextf(v, "headline", theirs[p->arg], p->owner);
}

/* The newest step that changed a reservation or a meld (the board marks
 * it "last"): its event, or NULL. Reserved and laid cards are public, so
 * the mark tells nothing hidden. */
static const struct game_event *last_change(const struct dr_state *s)
{
	for (int i = s->log.n - 1; i >= 0; i--) {
		const struct game_event *ev = &s->log.ev[i];
		if (ev->type == EV_RESERVE || ev->type == EV_STEAL || ev->type == EV_LAY ||
		    ev->type == EV_ADD)
			return ev;
	}
	return NULL;
}

/* The middle's slots the newest refill filled (bit i: slot i), while the
 * turn right after it runs (the board marks them "neu aufgedeckt"); 0
 * otherwise. The middle lies face up: the mark tells nothing hidden. */
static unsigned fresh_slots(const struct dr_state *s)
{
	for (int i = s->log.n - 1; i >= 0; i--) {
		const struct game_event *ev = &s->log.ev[i];
		if (ev->type == EV_REFILL)
			return ev->num + 1u == (unsigned)s->turn ? ev->where : 0;
	}
	return 0;
}

/* Flags a reservation (card c held by seat q) or a meld (i) as "last" when
 * the newest change was about it, with what happened. */
static void view_last(const struct game_event *ev, int c, int q, int i, struct view_sink *v)
{
	const char *what = NULL;
	if (ev && c >= 0 && ev->card == c && ev->seat == q)
		what = ev->type == EV_RESERVE ? N_("zuletzt reserviert") :
		       ev->type == EV_STEAL ? N_("zuletzt gestohlen") : NULL;
	if (ev && i >= 0 && ev->where == i)
		what = ev->type == EV_LAY ? N_("zuletzt abgelegt") :
		       ev->type == EV_ADD ? N_("zuletzt angelegt") : NULL;
	vflag(v, "last", what != NULL);
	if (what)
		vtext(v, "last_text", what);
}

/* The page's dice of another seat (v->html_only): a die's classes as one
 * text and what it shows as one (a digit, or "·" unrolled) where the JSON
 * twin has index, face and four flags (dice_view), and a template that
 * asked five sections for them; only the flags its hidden text asks for. */
static void page_dice(const struct dice *d, struct view_sink *v)
{
	static const char *const cls[8] = {
		"", " dr-kept", " dr-out", " dr-kept dr-out", " dr-unrolled",
		" dr-kept dr-unrolled", " dr-out dr-unrolled", " dr-kept dr-out dr-unrolled",
	};
	for (int i = 0; i < d->n; i++) {
		unsigned kept = (d->kept >> i) & 1u, out = (d->out >> i) & 1u;
		vbegin(v, "dice");
		vstr(v, "class", cls[kept | out << 1 | (d->face[i] == 0) << 2]);
		if (d->face[i])
			vnum(v, "pip", d->face[i]);
		else
			vstr(v, "pip", "·");
		vflag(v, "kept", kept);
		vflag(v, "out", out);
		vflag(v, "unrolled", d->face[i] == 0);
		vend(v);
	}
}

static void view_seats(const struct dr_state *s, int me, struct view_sink *v)
{
	const struct prompt *p = prompt_peek(&s->pr);
	const struct game_event *last = last_change(s);
	int sc[DR_SEATS];
	scores(s, sc);
	for (int q = 0; q < s->n; q++) {
		vbegin(v, "seats");
		vnum(v, "seat", q);
		vflag(v, "is_me", q == me);
		vflag(v, "is_turn", p && p->owner == q);
		vnum(v, "hand_count", hand_count(s, q));
		vnum(v, "score", sc[q]);
		vflag(v, "show_dice", q != me);   /* mine are shown by my buttons */
		if (!v->html_only)
			dice_view(&s->dice[q], "dice", v);
		else if (q != me)
			page_dice(&s->dice[q], v);
		for (int c = 0; c < s->ncards; c++) {
			if (s->loc[c] != L_RESERVED || s->own[c] != q)
				continue;
			int f, k;
			reservation(s, c, &f, &k);
			vbegin(v, "reserved");
			emit_face(v, face(c));
			view_last(last, c, q, -1, v);
			vnum(v, "face", f);
			vnum(v, "count", k);
			int dup = 0;
			for (int x = face(c); x < c; x += DR_DECK)
				dup |= s->loc[x] == L_RESERVED && s->own[x] == q;
			if (!dup)
				buttons_for(s, me, v, "moves", V_STEAL, face(c), q);
			vend(v);
		}
		for (int i = 0; i < s->nmelds; i++) {
			if (s->meld[i].owner != q)
				continue;
			vbegin(v, "melds");
			vnum(v, "number", meld_number(s, i));
			view_last(last, -1, q, i, v);
			vflag(v, "run", s->meld[i].run);
			int pts = 0;
			for (int j = 0; j < s->meld[i].n; j++) {
				vbegin(v, "cards");
				emit_face(v, face(s->meld[i].c[j]));
				vend(v);
				pts += card_points(s->meld[i].c[j]);
			}
			vnum(v, "points", pts);
			buttons_for(s, me, v, "moves", V_ADD, -1, i);
			vend(v);
		}
		vend(v);
	}
}

/* My dice next to my buttons. While I keep, the page draws them as a form
 * (docs/views.md, a composed move): `keep_form` and, per die, `pick` when
 * it may be kept now; the form posts "keep" and the faces ticked. */
static void view_my_dice(const struct dr_state *s, int me, struct view_sink *v)
{
	const struct prompt *p = prompt_peek(&s->pr);
	const struct dice *d = &s->dice[me];
	int keeping = p && p->owner == me && p->kind != PR_LAST && step(s) == S_KEEP;
	int show = !keeping && p && p->owner == me && d->kept;
	vflag(v, "keep_form", keeping);
	vflag(v, "show_my_dice", show);
	if (v->html_only && !keeping && !show)
		return;   /* the page draws them in these two only */
	unsigned free_ = keeping ? dice_free(d) : 0;
	for (int i = 0; i < d->n; i++) {
		vbegin(v, "my_dice");
		vnum(v, "index", i);
		vnum(v, "face", d->face[i]);
		vflag(v, "pick", (free_ >> i) & 1u);
		vflag(v, "kept", (d->kept >> i) & 1u);
		vflag(v, "out", (d->out >> i) & 1u);
		vflag(v, "unrolled", d->face[i] == 0);
		vend(v);
	}
}

static void dr_view(const void *st, int seat, struct view_sink *v)
{
	const struct dr_state *s = st;
	int me = seat >= 0 && seat < s->n ? seat : -1;
	const struct prompt *p = prompt_peek(&s->pr);
	int st_ = step(s);
	view_headline(s, me, v);
	vflag(v, "over", p == NULL);
	if (p)
		vnum(v, "turn_seat", p->owner);
	vflag(v, "step_roll", st_ == S_ROLL);
	vflag(v, "step_keep", st_ == S_KEEP);
	vflag(v, "step_reserve", st_ == S_RESERVE);
	vflag(v, "step_meld", st_ == S_MELD);
	vflag(v, "last_round", p && p->kind == PR_LAST);
	vnum(v, "draw_count", s->npile);
	vnum(v, "decks", s->decks);
	vnum(v, "turn", s->turn);
	vflag(v, "steal_any", s->steal_any);
	vflag(v, "steal_higher", s->steal_higher);
	unsigned fresh = fresh_slots(s);
	for (int i = 0; i < DR_MIDDLE; i++) {
		int c = s->middle[i];
		vbegin(v, "middle");
		if (!v->html_only)
			vnum(v, "slot", i + 1);
		vflag(v, "empty", c < 0);
		vflag(v, "has_card", c >= 0);
		vflag(v, "last", c >= 0 && ((fresh >> i) & 1u));
		if (c >= 0 && ((fresh >> i) & 1u))
			vtext(v, "last_text", "neu aufgedeckt");
		if (c >= 0) {
			emit_face(v, face(c));
			int dup = 0;
			for (int j = 0; j < i; j++)
				dup |= s->middle[j] >= 0 && face(s->middle[j]) == face(c);
			if (!dup)
				buttons_for(s, me, v, "moves", V_RESERVE, face(c), -1);
		}
		vend(v);
	}
	view_seats(s, me, v);
	vflag(v, "has_hand", me >= 0);
	vflag(v, "my_turn", p && p->owner == me);
	if (me >= 0) {
		int cnt[DR_DECK];
		hand_faces(s, me, cnt);
		vflag(v, "hand_empty", hand_count(s, me) == 0);
		for (int su = 0; su < DR_SUITS; su++)
			for (int r = 0; r < DR_RANKS; r++)
				for (int k = 0; k < cnt[su * DR_RANKS + r]; k++) {
					vbegin(v, "hand");
					emit_face(v, su * DR_RANKS + r);
					vend(v);
				}
		buttons_for(s, me, v, "roll_move", V_ROLL, -1, -1);
		view_my_dice(s, me, v);
		struct count_ctx lays = { 0 };
		if (st_ == S_RESERVE || st_ == S_MELD || (p && p->kind == PR_LAST && p->owner == me))
			legal_moves(s, me, count_lays, &lays);
		vnum(v, "lay_count", lays.n);
		vflag(v, "few_lays", lays.n <= 6);
		vflag(v, "can_lay", lays.n > 0);
		buttons_for(s, me, v, "lay_moves", V_LAY, -1, -1);
		buttons_for(s, me, v, "done_move", V_DONE, -1, -1);
	}
	evlog_view_text(&s->log, v, event_say);
}

/* Re-deals what seat cannot see: the other hands (keeping their sizes), the
 * draw pile's order and the rolls to come. The pool is gathered in id order,
 * so the re-deal depends on nothing hidden (the bots rely on it). */
static void dr_scramble(void *st, int seat, uint64_t seed)
{
	struct dr_state *s = st;
	uint16_t pool[DR_CARDS];
	int n = 0, want[DR_SEATS] = { 0 };
	struct rng r;
	rng_seed(&r, seed);
	for (int c = 0; c < s->ncards; c++) {
		if (s->loc[c] == L_HAND && s->own[c] != seat)
			want[s->own[c]]++;
		else if (s->loc[c] != L_DECK)
			continue;
		pool[n++] = (uint16_t)c;
	}
	rng_shuffle(&r, pool, n);
	int k = 0;
	for (int q = 0; q < s->n; q++)
		for (int i = 0; i < want[q]; i++, k++) {
			s->loc[pool[k]] = L_HAND;
			s->own[pool[k]] = (uint8_t)q;
		}
	for (s->npile = 0; k < n; k++) {
		s->loc[pool[k]] = L_DECK;
		s->own[pool[k]] = 0;
		s->pile[s->npile++] = pool[k];
	}
	rng_seed(&s->rng, rng_next(&r));   /* the dice still to be rolled are hidden too */
}

/* ---- the greedy bot's judgement ---------------------------------------- */

/* What the greedy bot counts a position (game.h bot_worth), in hundredths
 * of a point. The points alone would count a card reserved for a later
 * meld nothing, and -1 once it is in the hand, so a bot on points lays its
 * first meld at once, which ends its reserving, and ends its turn without
 * the cards of the middle. Here a card the seat holds or has reserved
 * counts its points when it is part of a meld the seat could lay, else
 * what a card may still become while cards are to come, down to -1 when
 * none are. */
enum {
	BW_POINT = 100,
	BW_MELD = 10,      /* a card of a meld the seat could lay: its points less this */
	BW_PAIR = 60,      /* a card with a partner, while enough cards are to come */
	BW_LONE = 40,      /* a card without one, likewise */
	BW_COME = 4,       /* "enough": this many cards a seat to come, or more */
	BW_OTHER = 30,     /* a card another seat holds or has reserved */
	BW_DIE = 15,       /* a kept die not on a card yet, while cards lie in the middle */
	BW_RISK = 10,      /* a reserved card, per die fewer than three on it */
	BW_LATE = 2,       /* a reserved card, per turn of the party so far */
};

/* The cards a seat holds or has reserved, by suit: the ranks it has (bit
 * r: rank r, bit 12 the ace) and those it has twice (two decks). */
struct bw_hand {
	unsigned m[DR_SUITS], twice[DR_SUITS];
};

enum { BW_HIGH = 0x1e00u, BW_RANKS = (1u << DR_RANKS) - 1 };   /* B D K A: two points */

/* The bits set in x (no popcount instruction assumed). */
static inline int bw_bits(unsigned x)
{
	x = x - ((x >> 1) & 0x55555555u);
	x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
	return (int)((((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
}

/* Takes the cards of ranks x of suit su (all held) into melds: what they
 * count there, their points less BW_MELD each. */
static long long bw_take(struct bw_hand *h, int su, unsigned x)
{
	h->m[su] = (h->m[su] & ~x) | (h->twice[su] & x);
	h->twice[su] &= ~x;
	return (long long)bw_bits(x) * (BW_POINT - BW_MELD) +
	       (long long)bw_bits(x & BW_HIGH) * BW_POINT;
}

/* The seat's cards that fit its melds, one after another: a set takes
 * its missing suits, a run the ranks next to its ends (meld_kind decides,
 * as for list_adds). */
static long long bw_adds(const struct dr_state *s, int seat, struct bw_hand *h)
{
	long long w = 0;
	for (int i = 0; i < s->nmelds; i++) {
		const struct dr_meld *ml = &s->meld[i];
		if (ml->owner != seat || ml->n == 0)
			continue;
		int n = ml->n, su = suit(ml->c[0]), r0 = rank(ml->c[0]);
		if (!ml->run) {
			unsigned suits = 0;
			for (int j = 0; j < n; j++)
				suits |= 1u << suit(ml->c[j]);
			for (int q = 0; q < DR_SUITS && n < DR_SUITS; q++)
				if (!((suits >> q) & 1u) && (h->m[q] >> r0 & 1u)) {
					w += bw_take(h, q, 1u << r0);
					n++;
				}
			continue;
		}
		uint16_t c[DR_MELD_MAX + 1];
		int lo, grew = 1;
		unsigned rm = 0;
		memcpy(c, ml->c, sizeof c[0] * (size_t)n);
		for (int j = 0; j < n; j++)
			rm |= 1u << rank(ml->c[j]);
		while (grew && n < DR_MELD_MAX) {
			grew = 0;
			unsigned ace = (rm & 1u) << (DR_RANKS - 1) | rm >> (DR_RANKS - 1);
			unsigned near = (rm << 1 | rm >> 1 | ace) & ~rm & BW_RANKS & h->m[su];
			for (; near && !grew; near &= near - 1) {
				int r = __builtin_ctz(near);
				c[n] = (uint16_t)(su * DR_RANKS + r);
				if (meld_kind(c, n + 1, &lo) == MK_RUN) {
					w += bw_take(h, su, 1u << r);
					rm |= 1u << r;
					n++;
					grew = 1;
				}
			}
		}
	}
	return w;
}

/* The runs among the seat's cards (a pass for each copy): in each suit
 * the one from the ace as 1, then every three or more in sequence. */
static long long bw_runs(struct bw_hand *h, int decks)
{
	long long w = 0;
	for (int su = 0; su < DR_SUITS; su++)
		for (int pass = 0; pass < decks; pass++) {
			unsigned m = h->m[su];
			if ((m >> 12 & 1u) && (m & 3u) == 3u) {   /* A-2-3…: the 2 upwards */
				unsigned low = ((~m & (m + 1)) - 1) & (BW_RANKS >> 1);
				w += bw_take(h, su, low | 1u << 12);
				m &= ~low & ~(1u << 12);
			}
			unsigned t = m & m >> 1 & m >> 2;   /* bit r: r, r + 1, r + 2 held */
			w += bw_take(h, su, t | t << 1 | t << 2);
		}
	return w;
}

/* The sets among the seat's cards: three suits of a rank or four. */
static long long bw_sets(struct bw_hand *h, int decks)
{
	long long w = 0;
	_Static_assert(DR_SUITS == 4, "three of four suits, spelled out below");
	for (int pass = 0; pass < decks; pass++) {
		const unsigned *a = h->m;
		unsigned three = (a[0] & a[1] & (a[2] | a[3])) | (a[2] & a[3] & (a[0] | a[1]));
		for (int su = 0; su < DR_SUITS; su++)
			w += bw_take(h, su, h->m[su] & three);
	}
	return w;
}

/* The seat's cards in no meld: with a partner for one (a card of its rank,
 * or of its suit up to two ranks away) or without, from what that is
 * worth while enough cards are to come (BW_COME a seat) down to -1 when
 * none are (left: cards in the pile and the middle). */
static long long bw_rest(const struct bw_hand *h, int left, int nseats)
{
	long long full = (long long)BW_COME * nseats, f = left < full ? left : full;
	long long pair = -BW_POINT + (BW_PAIR + BW_POINT) * f / full;
	long long lone = -BW_POINT + (BW_LONE + BW_POINT) * f / full;
	int npair = 0, nlone = 0;
	for (int su = 0; su < DR_SUITS; su++) {
		unsigned m = h->m[su], others = 0;
		for (int q = 0; q < DR_SUITS; q++)
			others |= q != su ? h->m[q] : 0;
		/* the ranks with the ace also below the 2: bit r + 1, and bit 0 */
		unsigned ext = m << 1 | (m >> 12 & 1u);
		unsigned near = ext << 1 | ext << 2 | ext >> 1 | ext >> 2;
		unsigned paired = m & ((near >> 1) | (near & 1u) << 12 | others);
		npair += bw_bits(paired) + bw_bits(paired & h->twice[su]);
		nlone += bw_bits(m & ~paired) +
			 bw_bits(m & ~paired & h->twice[su]);
	}
	return npair * pair + nlone * lone;
}

/* The seat's cards as melds: runs first or sets first, the better. */
static long long bw_cards(const struct dr_state *s, int seat, const struct bw_hand *h)
{
	struct bw_hand a = *h;
	int left = s->npile + middle_count(s);
	long long base = bw_adds(s, seat, &a);
	struct bw_hand b = a;
	long long wa = bw_runs(&a, s->decks);
	wa += bw_sets(&a, s->decks);
	wa += bw_rest(&a, left, s->n);
	long long wb = bw_sets(&b, s->decks);
	wb += bw_runs(&b, s->decks);
	wb += bw_rest(&b, left, s->n);
	return base + (wa > wb ? wa : wb);
}

/* The seat's laid points and its cards (bw_cards), the dice and
 * reservations as BW_DIE, BW_RISK and BW_LATE say, less the best other
 * seat's laid points and BW_OTHER a card it holds or has reserved (what
 * its hand holds the seat does not know). */
static long long dr_bot_worth(const void *st, int seat)
{
	const struct dr_state *s = st;
	struct bw_hand h;
	long long laid[DR_SEATS] = { 0 }, w = 0;
	memset(&h, 0, sizeof h);
	for (int i = 0; i < s->nmelds; i++) {
		const struct dr_meld *ml = &s->meld[i];
		int pts = 0;
		for (int j = 0; j < ml->n; j++)   /* card_points: the rank is c % 13 */
			pts += ml->c[j] % DR_RANKS >= 9 ? 2 : 1;
		laid[ml->owner % DR_SEATS] += pts * BW_POINT;
	}
	for (int c0 = 0; c0 < s->ncards; c0 += 8)
		for (uint64_t hit = cards8(s, c0, L_HAND, -1) | cards8(s, c0, L_RESERVED, -1); hit;) {
			int c = next_card(c0, &hit), su = suit(c);
			unsigned bit = 1u << rank(c);
			if (s->own[c] != seat) {
				laid[s->own[c] % DR_SEATS] += BW_OTHER;
				continue;
			}
			h.twice[su] |= h.m[su] & bit;
			h.m[su] |= bit;
			if (s->loc[c] == L_RESERVED) {
				int k = bw_bits(s->dmask[c]);
				w -= k < 3 ? BW_RISK * (3 - k) : 0;
				w += (long long)BW_LATE * s->turn;
			}
		}
	w += laid[seat] + bw_cards(s, seat, &h);
	if (step(s) == S_RESERVE && prompt_peek(&s->pr)->owner == seat && middle_count(s) > 0)
		w += (long long)BW_DIE *
		     bw_bits(dice_home(&s->dice[seat]) & s->dice[seat].kept);
	long long best = LLONG_MIN;
	for (int q = 0; q < s->n; q++)
		if (q != seat && laid[q] > best)
			best = laid[q];
	return w - best;
}

/* What the live prompt asks (game.h, doing): public, the same for all. */
static const char *dr_doing(const void *st)
{
	static const char *const step_text[S__MAX] = {
		[S_ROLL] = N_("würfeln"),
		[S_KEEP] = N_("Würfel zur Seite legen"),
		[S_RESERVE] = N_("Karten reservieren oder stehlen, dann ablegen"),
		[S_MELD] = N_("Sets ablegen und anlegen"),
	};
	const struct prompt *p = prompt_peek(&((const struct dr_state *)st)->pr);
	if (!p)
		return NULL;
	if (p->kind == PR_LAST)
		return N_("letztes Ablegen");
	return p->arg < S__MAX ? step_text[p->arg] : NULL;
}

const struct game drachenrummy_game = {
	.slug = "drachenrummy",
	.title = "Drachenrummy",
	.tagline = N_("Mit Würfeln Karten aus der Mitte reservieren oder stehlen und daraus "
		      "Rummy-Sets ablegen."),
	.summary = N_("Wer am Zug ist, würfelt mit fünf Würfeln und legt nach jedem Wurf "
		      "mindestens einen zur Seite, bis alle liegen. Mit Würfeln gleicher Augenzahl "
		      "reserviert man Karten aus der Mitte oder stiehlt anderen eine Reservierung "
		      "mit mehr Würfeln. Reservierte Karten kommen im nächsten Zug auf die Hand; "
		      "aus der Hand legt man Sets ab: gleicher Wert in verschiedenen Farben oder "
		      "eine Farbe in Folge. Abgelegte Karten bringen Punkte, Handkarten am Ende "
		      "Minuspunkte."),
	.min_players = 2,
	.max_players = DR_SEATS,
	.state_size = sizeof(struct dr_state),
	.options = dr_options,
	.noptions = O__MAX,
	.verbs = dr_verbs,
	.nverbs = V__MAX,
	.parties = dr_parties,
	.setup = dr_setup,
	.apply = dr_apply,
	.tick = dr_tick,
	.status = dr_status,
	.moves = dr_moves,
	.snap_format = DR_FORMAT,
	.snap_format_min = DR_FORMAT,
	.encode = dr_encode,
	.decode = dr_decode,
	.check = dr_check,
	.view = dr_view,
	.doing = dr_doing,
	.scramble = dr_scramble,
	.bot_worth = dr_bot_worth,
};
