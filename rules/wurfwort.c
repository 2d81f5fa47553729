/*
 * wurfwort.c — Wurf & Wort: a category card and dice say what a word must
 * have; the first to press "Stopp" names a word, the machine checks what can
 * be checked, the others vote on the rest (rules-de/wurf-und-wort.txt,
 * docs/rulings.md "Wurf & Wort").
 *
 * A party is 25 rounds. Each reveals a card (category, the dice it uses,
 * a multiplier, the category's word stems) and rolls its dice: two
 * Gebotswürfel (a letter the word must contain, with a small number), a
 * Verbotswürfel (a letter it must not contain), a Silbenwürfel (how many
 * syllables). Then a race: every seat may press `stopp`, or `pass`; the
 * first `stopp` claims the round and names a word (`answer`), or takes it
 * back (`withdraw`, -10). A word that misses a required letter, has the
 * forbidden one or a stem of the category gives every other seat +10;
 * otherwise the others vote `up` or `down`: a majority of downs gives -3,
 * else the claimer scores the numbers of the Gebotswürfel used times the
 * multiplier. The syllables are the platform's suggestion (it looks the
 * word up and writes what it found into the move: `answer WORT s=3 w=1`);
 * when the suggestion is missing or differs from the die, the vote decides
 * them too: the word stands only if a majority of the others votes up.
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

enum {
	WW_SEATS = 8,
	WW_ROUNDS = 25,
	WW_CARDS = 75,
	WW_FACES = 6,
	WW_LETTERS_MIN = 2,    /* letters of a word (ä, ö, ü, ß count one) */
	WW_LETTERS_MAX = 20,
	WW_WORD_MAX = 2 * WW_LETTERS_MAX,   /* bytes of a word: ä, ö, ü, ß take two */
	WW_STEMS = 3,
	WW_LOG = 12,
	WW_BONUS = 10,         /* the others' points for an objectively wrong word */
	WW_REJECTED = -3,      /* a word the majority votes down */
	WW_WITHDRAWN = -10,    /* "kein Rückzieher" */
	WW_FORMAT = 1
};

/* The dice a card uses. */
enum { G1 = 1, G2 = 2, DV = 4, DS = 8 };

struct ww_face {
	const char *letter;   /* lower case, as in a word */
	const char *shown;    /* on the die */
	int points;
};

/* Two Gebotswürfel: common letters count 1, rarer ones more. */
static const struct ww_face gebot[2][WW_FACES] = {
	{ { "r", "R", 1 }, { "e", "E", 1 }, { "n", "N", 1 }, { "l", "L", 2 }, { "g", "G", 2 },
	  { "k", "K", 3 } },
	{ { "s", "S", 1 }, { "t", "T", 1 }, { "i", "I", 1 }, { "h", "H", 2 }, { "m", "M", 2 },
	  { "p", "P", 2 } },
};
/* The Verbotswürfel: common letters. */
static const struct ww_face verbot[WW_FACES] = {
	{ "a", "A", 0 }, { "i", "I", 0 }, { "o", "O", 0 }, { "u", "U", 0 }, { "r", "R", 0 },
	{ "n", "N", 0 },
};
/* The Silbenwürfel. */
static const int silben[WW_FACES] = { 1, 2, 2, 3, 3, 4 };

struct ww_card {
	const char *category;
	unsigned dice;
	int mult;
	const char *stems[WW_STEMS];   /* lower case; the category or a part of it */
};

static const struct ww_card ww_cards[WW_CARDS] = {
	{ N_("Am Strand"), G1|G2|DV|DS, 1, { "strand" } },
	{ N_("In der Sportwelt"), G1|G2|DV, 2, { "sport", "welt" } },
	{ N_("In der Küche"), G1|DV|DS, 2, { "küche" } },
	{ N_("Im Zoo"), G1|G2|DS, 3, { "zoo" } },
	{ N_("Auf dem Bauernhof"), G1|G2, 1, { "bauer", "hof" } },
	{ N_("Im Supermarkt"), G1|G2|DV|DS, 1, { "super", "markt" } },
	{ N_("In der Schule"), G1|G2|DV, 2, { "schule" } },
	{ N_("Im Garten"), G1|DV|DS, 2, { "garten" } },
	{ N_("Im Wald"), G1|G2|DS, 3, { "wald" } },
	{ N_("Auf dem Jahrmarkt"), G1|G2, 1, { "jahr", "markt" } },
	{ N_("Im Krankenhaus"), G1|G2|DV|DS, 1, { "kranken", "haus" } },
	{ N_("Im Weltall"), G1|G2|DV, 2, { "welt", "all" } },
	{ N_("Unter Wasser"), G1|DV|DS, 2, { "wasser" } },
	{ N_("Im Zirkus"), G1|G2|DS, 3, { "zirkus" } },
	{ N_("In der Stadt"), G1|G2, 1, { "stadt" } },
	{ N_("Auf dem Berg"), G1|G2|DV|DS, 1, { "berg" } },
	{ N_("Im Winter"), G1|G2|DV, 2, { "winter" } },
	{ N_("Im Sommer"), G1|DV|DS, 2, { "sommer" } },
	{ N_("Auf der Baustelle"), G1|G2|DS, 3, { "bau", "stelle" } },
	{ N_("Im Orchester"), G1|G2, 1, { "orchester" } },
	{ N_("Beim Frühstück"), G1|G2|DV|DS, 1, { "frühstück" } },
	{ N_("Im Kino"), G1|G2|DV, 2, { "kino" } },
	{ N_("Auf dem Spielplatz"), G1|DV|DS, 2, { "spiel", "platz" } },
	{ N_("Im Badezimmer"), G1|G2|DS, 3, { "bad", "zimmer" } },
	{ N_("Im Kinderzimmer"), G1|G2, 1, { "kinder", "zimmer" } },
	{ N_("In der Werkstatt"), G1|G2|DV|DS, 1, { "werk", "statt" } },
	{ N_("Am Flughafen"), G1|G2|DV, 2, { "flug", "hafen" } },
	{ N_("Am Bahnhof"), G1|DV|DS, 2, { "bahn", "hof" } },
	{ N_("Im Restaurant"), G1|G2|DS, 3, { "restaurant" } },
	{ N_("Auf der Party"), G1|G2, 1, { "party" } },
	{ N_("Im Märchen"), G1|G2|DV|DS, 1, { "märchen" } },
	{ N_("Im Mittelalter"), G1|G2|DV, 2, { "mittel", "alter" } },
	{ N_("Im Urlaub"), G1|DV|DS, 2, { "urlaub" } },
	{ N_("Beim Camping"), G1|G2|DS, 3, { "camping" } },
	{ N_("Im Museum"), G1|G2, 1, { "museum" } },
	{ N_("In der Bäckerei"), G1|G2|DV|DS, 1, { "bäcker" } },
	{ N_("Im Kleiderschrank"), G1|G2|DV, 2, { "kleid", "schrank" } },
	{ N_("Im Werkzeugkasten"), G1|DV|DS, 2, { "werkzeug", "kasten" } },
	{ N_("Auf dem Wochenmarkt"), G1|G2|DS, 3, { "woche", "markt" } },
	{ N_("In der Wüste"), G1|G2, 1, { "wüste" } },
	{ N_("Im Dschungel"), G1|G2|DV|DS, 1, { "dschungel" } },
	{ N_("Am Meer"), G1|G2|DV, 2, { "meer" } },
	{ N_("Auf der Autobahn"), G1|DV|DS, 2, { "auto", "bahn" } },
	{ N_("Im Fußballstadion"), G1|G2|DS, 3, { "fußball", "stadion" } },
	{ N_("In der Zeitung"), G1|G2, 1, { "zeitung" } },
	{ N_("Im Theater"), G1|G2|DV|DS, 1, { "theater" } },
	{ N_("Im Büro"), G1|G2|DV, 2, { "büro" } },
	{ N_("Beim Arzt"), G1|DV|DS, 2, { "arzt" } },
	{ N_("Im Schwimmbad"), G1|G2|DS, 3, { "schwimm", "bad" } },
	{ N_("Auf dem Schiff"), G1|G2, 1, { "schiff" } },
	{ N_("Am Computer"), G1|G2|DV|DS, 1, { "computer" } },
	{ N_("In der Musik"), G1|G2|DV, 2, { "musik" } },
	{ N_("Im Gebirge"), G1|DV|DS, 2, { "gebirge" } },
	{ N_("Beim Wandern"), G1|G2|DS, 3, { "wander" } },
	{ N_("Im Herbst"), G1|G2, 1, { "herbst" } },
	{ N_("Im Frühling"), G1|G2|DV|DS, 1, { "frühling" } },
	{ N_("Zum Geburtstag"), G1|G2|DV, 2, { "geburt", "tag" } },
	{ N_("Zu Weihnachten"), G1|DV|DS, 2, { "weihnacht", "nacht" } },
	{ N_("Im Tierheim"), G1|G2|DS, 3, { "tier", "heim" } },
	{ N_("Auf der Insel"), G1|G2, 1, { "insel" } },
	{ N_("Im Labor"), G1|G2|DV|DS, 1, { "labor" } },
	{ N_("In der Bibliothek"), G1|G2|DV, 2, { "bibliothek" } },
	{ N_("Auf dem Fluss"), G1|DV|DS, 2, { "fluss" } },
	{ N_("Im Hotel"), G1|G2|DS, 3, { "hotel" } },
	{ N_("Auf der Hochzeit"), G1|G2, 1, { "hochzeit", "zeit" } },
	{ N_("Im Fernsehen"), G1|G2|DV|DS, 1, { "fernseh", "sehen" } },
	{ N_("Beim Backen"), G1|G2|DV, 2, { "back" } },
	{ N_("In der Apotheke"), G1|DV|DS, 2, { "apotheke" } },
	{ N_("Im Keller"), G1|G2|DS, 3, { "keller" } },
	{ N_("Auf dem Dachboden"), G1|G2, 1, { "dach", "boden" } },
	{ N_("Am Himmel"), G1|G2|DV|DS, 1, { "himmel" } },
	{ N_("Beim Kochen"), G1|G2|DV, 2, { "koch" } },
	{ N_("Im Wohnzimmer"), G1|DV|DS, 2, { "wohn", "zimmer" } },
	{ N_("Auf der Ritterburg"), G1|G2|DS, 3, { "ritter", "burg" } },
	{ N_("Bei den Piraten"), G1|G2, 1, { "pirat" } },
};

/* Words the bots and the simulator answer with (bot_moves), with their
 * syllables as the German hyphenation patterns divide them; all are in the
 * German word list. A person is never shown them. */
static const struct ww_sample {
	const char *word;
	int syllables;
} samples[] = {
	{ "adler", 2 }, { "affe", 2 }, { "anker", 2 }, { "apfel", 2 }, { "auto", 2 },
	{ "axt", 1 }, { "bahnhof", 2 }, { "ball", 1 }, { "baum", 1 }, { "berg", 1 },
	{ "besen", 2 }, { "bett", 1 }, { "bild", 1 }, { "birne", 2 }, { "blatt", 1 },
	{ "blitz", 1 }, { "blume", 2 }, { "boot", 1 }, { "bremse", 2 }, { "brief", 1 },
	{ "brot", 1 }, { "buch", 1 }, { "burg", 1 }, { "butter", 2 }, { "bär", 1 },
	{ "bürste", 2 }, { "decke", 2 }, { "delfin", 2 }, { "donner", 2 }, { "drache", 2 },
	{ "eichel", 2 }, { "eimer", 2 }, { "eis", 1 }, { "elefant", 3 }, { "ente", 2 },
	{ "eule", 2 }, { "farbe", 2 }, { "fenster", 2 }, { "feuer", 2 }, { "fisch", 1 },
	{ "fluss", 1 }, { "flöte", 2 }, { "flügel", 3 }, { "fuchs", 1 }, { "gabel", 2 },
	{ "gans", 1 }, { "garten", 2 }, { "geige", 2 }, { "giraffe", 3 }, { "gitarre", 3 },
	{ "gleis", 1 }, { "glocke", 2 }, { "gurke", 2 }, { "hai", 1 }, { "hammer", 2 },
	{ "handschuh", 2 }, { "handtuch", 2 }, { "harfe", 2 }, { "hase", 2 }, { "haus", 1 },
	{ "heft", 1 }, { "helm", 1 }, { "hemd", 1 }, { "herd", 1 }, { "hirsch", 1 },
	{ "holz", 1 }, { "honig", 2 }, { "hose", 2 }, { "huhn", 1 }, { "hund", 1 },
	{ "igel", 2 }, { "insel", 2 }, { "jacke", 2 }, { "kaffee", 2 }, { "kamel", 2 },
	{ "karte", 2 }, { "kartoffel", 3 }, { "katze", 2 }, { "kerze", 2 }, { "kirsche", 2 },
	{ "kissen", 2 }, { "kiste", 2 }, { "klavier", 2 }, { "koffer", 2 }, { "komet", 2 },
	{ "kompass", 2 }, { "krabbe", 2 }, { "kreide", 2 }, { "krokodil", 3 }, { "krone", 2 },
	{ "kuchen", 2 }, { "kuh", 1 }, { "kürbis", 2 }, { "lampe", 2 }, { "lehrer", 2 },
	{ "leiter", 2 }, { "lenker", 2 }, { "löffel", 2 }, { "löwe", 2 }, { "mais", 1 },
	{ "mantel", 2 }, { "maus", 1 }, { "meer", 1 }, { "messer", 2 }, { "milch", 1 },
	{ "mond", 1 }, { "moos", 1 }, { "motor", 2 }, { "muschel", 2 }, { "möhre", 2 },
	{ "mütze", 2 }, { "nagel", 2 }, { "nebel", 2 }, { "netz", 1 }, { "nudel", 2 },
	{ "ofen", 2 }, { "orgel", 2 }, { "paket", 2 }, { "pfanne", 2 }, { "pfeffer", 3 },
	{ "pferd", 1 }, { "pflaume", 2 }, { "pilot", 2 }, { "pilz", 1 }, { "pinguin", 3 },
	{ "pinsel", 2 }, { "pirat", 2 }, { "pizza", 2 }, { "planet", 2 }, { "pokal", 2 },
	{ "rahmen", 2 }, { "rakete", 3 }, { "regal", 2 }, { "regen", 2 }, { "reh", 1 },
	{ "reifen", 2 }, { "ritter", 2 }, { "robbe", 2 }, { "salat", 2 }, { "sattel", 2 },
	{ "schaf", 1 }, { "schal", 1 }, { "schatz", 1 }, { "scheune", 2 }, { "schiff", 1 },
	{ "schild", 1 }, { "schirm", 1 }, { "schlange", 2 }, { "schlitten", 2 },
	{ "schnee", 1 }, { "schraube", 2 }, { "schuh", 1 }, { "schwan", 1 }, { "schwein", 1 },
	{ "schwert", 1 }, { "segel", 2 }, { "seife", 2 }, { "seite", 2 }, { "sessel", 2 },
	{ "sofa", 2 }, { "sonne", 2 }, { "spiegel", 2 }, { "stern", 1 }, { "sterne", 2 },
	{ "stift", 1 }, { "strand", 1 }, { "stuhl", 1 }, { "suppe", 2 }, { "säge", 2 },
	{ "tafel", 2 }, { "tanne", 2 }, { "tee", 1 }, { "teller", 2 }, { "ticket", 2 },
	{ "tiger", 2 }, { "tisch", 1 }, { "tomate", 3 }, { "topf", 1 }, { "tor", 1 },
	{ "torte", 2 }, { "traktor", 2 }, { "trikot", 2 }, { "trommel", 2 }, { "trompete", 3 },
	{ "vogel", 2 }, { "wal", 1 }, { "weizen", 2 }, { "welle", 2 }, { "wiese", 2 },
	{ "wind", 1 }, { "wolf", 1 }, { "wolke", 2 }, { "zange", 2 }, { "zapfen", 2 },
	{ "zebra", 2 }, { "zeitung", 2 }, { "zelt", 1 }, { "ziege", 2 }, { "zucker", 2 },
	{ "zug", 1 }, { "zwiebel", 2 },
};
enum { NSAMPLES = (int)(sizeof samples / sizeof samples[0]) };

/* What the party waits for (rules/prompt.h): the race (every seat, until
 * the round's deadline), the claimer's word (until the answer deadline),
 * the others' votes (until the vote deadline). No prompt: over. */
enum ww_prompt { PR_RACE = 1, PR_ANSWER, PR_VOTE, PR__MAX };

/* How a round ended. */
enum ww_result { R_OPEN, R_NOBODY, R_SCORED, R_REJECTED, R_WRONG, R_WITHDRAWN, R__MAX };

/* What the machine found wrong with a word (objective checks). */
enum { F_LETTER = 1, F_FORBIDDEN = 2, F_STEM = 4 };
/* The syllables: as the die says, not, or unknown (no suggestion). */
enum ww_syl { SYL_NA, SYL_OK, SYL_OFF, SYL_UNKNOWN, SYL__MAX };

enum ww_ev { EV_ROUND, EV_STOPP, EV_NOBODY, EV_ANSWER, EV_WRONG, EV_SCORED, EV_REJECTED,
	     EV_WITHDRAWN, EV_OVER, EV__MAX };

struct ww_round {
	int8_t claimer;                /* -1: nobody */
	uint8_t result;                /* enum ww_result */
	int8_t syl;                    /* the suggested syllables, -1 none */
	uint8_t known;                 /* 0 no, 1 yes, 2 not looked up */
	uint8_t syl_state;             /* enum ww_syl */
	uint8_t faults;                /* F_* */
	uint8_t face[4];               /* G1, G2, V, S: face index */
	int8_t pts[WW_SEATS];
	char word[WW_WORD_MAX + 1];
};

struct ww_state {
	uint8_t n, parties;
	uint16_t round_seconds, answer_seconds, vote_seconds;
	uint32_t epoch;
	struct rng rng;
	struct prompts pr;
	uint8_t deck[WW_ROUNDS];       /* the party's cards, in order */
	uint8_t round;                 /* the current one; WW_ROUNDS once over */
	uint8_t vote[WW_SEATS];        /* this round: 0 none, 1 up, 2 down */
	struct ww_round rounds[WW_ROUNDS];
	struct evlog log;
};

enum ww_opt { O_ROUND_SECONDS, O_ANSWER_SECONDS, O_VOTE_SECONDS, O_PARTIES, O__MAX };
_Static_assert((int)O__MAX <= (int)GAME_OPT_MAX, "options fit struct setup");
_Static_assert((int)WW_SEATS <= (int)GAME_MAX_SEATS, "seats");

static const struct game_option ww_options[O__MAX] = {
	[O_ROUND_SECONDS] = { "round_seconds", N_("Zeit bis „Stopp“"), OPT_INT, 10, 600, 90,
			      N_("s") },
	[O_ANSWER_SECONDS] = { "answer_seconds", N_("Zeit für das Wort nach „Stopp“"), OPT_INT,
			       5, 300, 30, N_("s") },
	[O_VOTE_SECONDS] = { "vote_seconds", N_("Zeit für die Abstimmung"), OPT_INT, 5, 300, 30,
			     N_("s") },
	[O_PARTIES] = { "parties", N_("Partien pro Runde"), OPT_INT, 1, 10, 1, NULL },
};

/* ---- words ------------------------------------------------------------ */

/* A typed word in lower case (ASCII and the umlauts Ä Ö Ü), letters only
 * (a–z, ä, ö, ü, ß), into out (cap bytes, at least WW_WORD_MAX + 1); its
 * length in bytes; -1 for a character that is not such a letter, -2 for
 * fewer than WW_LETTERS_MIN letters, -3 for more than WW_LETTERS_MAX
 * (letters, not bytes: "Größe" is five). */
static int word_norm(const char *w, char *out, size_t cap)
{
	size_t n = 0;
	int letters = 0;
	for (const unsigned char *p = (const unsigned char *)w; *p; p++, letters++) {
		unsigned char c = *p;
		if (c >= 'A' && c <= 'Z')
			c += 0x20;
		if (c >= 'a' && c <= 'z') {
			if (n + 1 < cap)
				out[n++] = (char)c;
			continue;
		}
		/* ä ö ü ß and Ä Ö Ü in UTF-8: C3 A4/B6/BC/9F, C3 84/96/9C */
		unsigned char d = p[1];
		if (c != 0xc3 || !(d == 0xa4 || d == 0xb6 || d == 0xbc || d == 0x9f || d == 0x84 ||
				   d == 0x96 || d == 0x9c))
			return -1;
		if (n + 2 < cap) {
			out[n++] = (char)c;
			out[n++] = (char)(d == 0x84 || d == 0x96 || d == 0x9c ? d + 0x20 : d);
		}
		p++;
	}
	out[n < cap ? n : cap - 1] = '\0';
	if (letters < WW_LETTERS_MIN)
		return -2;
	return letters > WW_LETTERS_MAX ? -3 : (int)n;
}

/* The objective faults of word w for card k with faces f[]: a required
 * letter missing, the forbidden letter there, a stem of the category in it.
 * Ä is not A: the letters compare as bytes of UTF-8. */
static unsigned faults_of(const char *w, int k, const uint8_t *f)
{
	const struct ww_card *c = &ww_cards[k];
	unsigned bad = 0;
	if ((c->dice & G1) && !strstr(w, gebot[0][f[0]].letter))
		bad |= F_LETTER;
	if ((c->dice & G2) && !strstr(w, gebot[1][f[1]].letter))
		bad |= F_LETTER;
	if ((c->dice & DV) && strstr(w, verbot[f[2]].letter))
		bad |= F_FORBIDDEN;
	for (int i = 0; i < WW_STEMS && c->stems[i]; i++)
		if (strstr(w, c->stems[i]))
			bad |= F_STEM;
	return bad;
}

/* The claimer's points for an accepted word: the numbers of the
 * Gebotswürfel used, times the multiplier. */
static int word_points(int k, const uint8_t *f)
{
	const struct ww_card *c = &ww_cards[k];
	int p = 0;
	if (c->dice & G1)
		p += gebot[0][f[0]].points;
	if (c->dice & G2)
		p += gebot[1][f[1]].points;
	return p * c->mult;
}

/* ---- state helpers ------------------------------------------------------ */

static int card_of(const struct ww_state *s)
{
	return s->deck[s->round < WW_ROUNDS ? s->round : WW_ROUNDS - 1];
}

static struct ww_round *cur(struct ww_state *s)
{
	return &s->rounds[s->round];
}

static uint32_t all_seats(const struct ww_state *s)
{
	return (1u << s->n) - 1;
}

static struct game_event *logev(struct ww_state *s, int type, int seat)
{
	return evlog_push(&s->log, WW_LOG, type, seat);
}

/* ---- the flow ------------------------------------------------------------- */

/* The next round: its card revealed, its dice rolled, the race open until
 * the round deadline (the first round's clock starts at the first tick: the
 * platform's, at the deal).
 * After the last round, the party is over. */
static void start_round(struct ww_state *s, int64_t now, int first)
{
	prompt_clear(&s->pr);
	memset(s->vote, 0, sizeof s->vote);
	if (s->round >= WW_ROUNDS) {
		logev(s, EV_OVER, -1);
		return;
	}
	struct ww_round *r = cur(s);
	const struct ww_card *c = &ww_cards[card_of(s)];
	memset(r, 0, sizeof *r);
	r->claimer = -1;
	r->syl = -1;
	r->known = 2;
	for (int i = 0; i < 4; i++)
		r->face[i] = (uint8_t)((c->dice >> i) & 1u ? rng_below(&s->rng, WW_FACES) : 0);
	struct prompt *p = prompt_push(&s->pr, PR_RACE, all_seats(s));
	if (first)
		prompt_later(p, s->round_seconds);
	else
		p->deadline = deadline_after(now, s->round_seconds);
	s->epoch++;
	logev(s, EV_ROUND, -1)->num = (uint16_t)card_of(s);
}

/* The round is decided: on to the next one. */
static void end_round(struct ww_state *s, int result, int64_t now)
{
	cur(s)->result = (uint8_t)result;
	s->round++;
	start_round(s, now, 0);
}

/* The word was objectively wrong: every other seat +10 (at most 10 a word). */
static void wrong_word(struct ww_state *s, int64_t now)
{
	struct ww_round *r = cur(s);
	for (int p = 0; p < s->n; p++)
		if (p != r->claimer)
			r->pts[p] = WW_BONUS;
	logev(s, EV_WRONG, r->claimer);
	end_round(s, R_WRONG, now);
}

/* The votes are in (or their time is up): a majority of the others voting
 * down (a tie is none) costs the claimer 3; syllables that the suggestion
 * did not confirm count only when a majority of the others votes up;
 * otherwise the word scores. */
static void count_votes(struct ww_state *s, int64_t now)
{
	struct ww_round *r = cur(s);
	int up = 0, down = 0, others = s->n - 1;
	for (int p = 0; p < s->n; p++) {
		up += s->vote[p] == 1;
		down += s->vote[p] == 2;
	}
	if (r->syl_state == SYL_OFF || r->syl_state == SYL_UNKNOWN) {
		if (2 * up <= others) {   /* the suggestion stands: wrong */
			wrong_word(s, now);
			return;
		}
	} else if (2 * down > others) {
		r->pts[r->claimer] = WW_REJECTED;
		logev(s, EV_REJECTED, r->claimer);
		end_round(s, R_REJECTED, now);
		return;
	}
	r->pts[r->claimer] = (int8_t)word_points(card_of(s), r->face);
	logev(s, EV_SCORED, r->claimer)->arg = (uint8_t)r->pts[r->claimer];
	end_round(s, R_SCORED, now);
}

/* The claimer takes the round back, or its time ran out: -10. */
static void withdrawn(struct ww_state *s, int64_t now)
{
	struct ww_round *r = cur(s);
	r->pts[r->claimer] = WW_WITHDRAWN;
	logev(s, EV_WITHDRAWN, r->claimer);
	end_round(s, R_WITHDRAWN, now);
}

/* ---- setup ------------------------------------------------------------ */

static int ww_parties(int nplayers, const int *opt)
{
	(void)nplayers;
	return opt[O_PARTIES];
}

/* 25 of the 75 cards, shuffled; the first round begins. */
static int ww_setup(void *st, const struct setup *su, struct rerr *e)
{
	struct ww_state *s = st;
	uint16_t all[WW_CARDS];
	(void)e;
	memset(s, 0, sizeof *s);
	s->n = (uint8_t)su->nplayers;
	s->round_seconds = (uint16_t)su->opt[O_ROUND_SECONDS];
	s->answer_seconds = (uint16_t)su->opt[O_ANSWER_SECONDS];
	s->vote_seconds = (uint16_t)su->opt[O_VOTE_SECONDS];
	s->parties = (uint8_t)su->opt[O_PARTIES];
	rng_seed(&s->rng, su->seed);
	for (int i = 0; i < WW_CARDS; i++)
		all[i] = (uint16_t)i;
	rng_shuffle(&s->rng, all, WW_CARDS);
	for (int i = 0; i < WW_ROUNDS; i++)
		s->deck[i] = (uint8_t)all[i];
	start_round(s, 0, 1);
	return 0;
}

/* ---- moves ------------------------------------------------------------- */

enum ww_verb { V_STOPP, V_PASS, V_ANSWER, V_WITHDRAW, V_VOTE, V__MAX };
/* The usages are catalog messages: a move of the wrong form is told one
 * through rerr_set's "%s", which translates it as an argument. */
static const struct mt_verb ww_verbs[V__MAX] = {
	[V_STOPP] = { "stopp", NULL, 1, 1, 0, NULL, N_("stopp steht allein."), "stopp", "stopp" },
	[V_PASS] = { "pass", NULL, 1, 1, 0, NULL, N_("pass steht allein."), "pass", "pass" },
	[V_ANSWER] = { "answer", NULL, 2, 4, 0, NULL,
		       N_("So nennst du dein Wort: answer WORT, z. B. answer Fechtmeister "
			  "(oder nur das Wort)."),
		       "answer WORT [s=SILBEN] [w=0|1]", "answer fechtmeister s=3 w=1" },
	[V_WITHDRAW] = { "withdraw", NULL, 1, 1, 0, NULL, N_("withdraw steht allein."), "withdraw",
			 "withdraw" },
	[V_VOTE] = { "vote", NULL, 2, 2, 0, NULL, N_("So stimmst du ab: vote up oder vote down."),
		     "vote up|down", "vote up" },
};

/* One move, checked. */
struct ww_move {
	int verb;
	int up;                         /* vote */
	int syl, known;                 /* answer: the lookups, -1 none */
	char word[WW_WORD_MAX + 1];
};

/* The answer's word and what the platform looked up ("s=3", "w=1"). */
static int parse_answer(const struct mtok *t, int from, struct ww_move *m, struct rerr *e)
{
	char q[4 * MT_QUOTE_CHARS + 1];
	m->syl = m->known = -1;
	int len = word_norm(t->w[from], m->word, sizeof m->word);
	if (len == -3)
		return rerr_set(e, "'%s' ist zu lang: ein Wort hat höchstens %d Buchstaben.",
				mt_clip(q, sizeof q, t->w[from], MT_QUOTE_CHARS), WW_LETTERS_MAX);
	if (len < 0)
		return rerr_set(e, "'%s' ist kein Wort: nur Buchstaben (mit ä, ö, ü, ß), 2 bis %d.",
				mt_clip(q, sizeof q, t->w[from], MT_QUOTE_CHARS), WW_LETTERS_MAX);
	for (int i = from + 1; i < t->n; i++) {
		int v;
		if (strncmp(t->w[i], "s=", 2) == 0 && mt_int(t->w[i] + 2, 1, 20, &v) == 0)
			m->syl = v;
		else if (strncmp(t->w[i], "w=", 2) == 0 && mt_int(t->w[i] + 2, 0, 1, &v) == 0)
			m->known = v;
		else
			return rerr_set(e, "%s", ww_verbs[V_ANSWER].usage);
	}
	return 0;
}

static int parse_move(const struct ww_state *s, int seat, const char *text, struct ww_move *m,
		      struct rerr *e)
{
	struct mtok t;
	memset(m, 0, sizeof *m);
	if (seat < 0 || seat >= s->n)
		return rerr_set(e, "Diesen Platz gibt es an diesem Tisch nicht.");
	if (mt_split(text, &t, e) != 0)
		return -1;
	if (s->pr.n == 0)
		return rerr_set(e, "Die Partie ist schon vorbei.");
	int kind = prompt_kind(&s->pr), mine = prompt_waits(&s->pr, seat);
	const struct ww_round *r = &s->rounds[s->round];
	/* the claimer may type the word alone */
	if (kind == PR_ANSWER && mine && t.n == 1 && !mt_is(&t, 0, "withdraw") &&
	    !mt_is(&t, 0, "answer")) {
		m->verb = V_ANSWER;
		return parse_answer(&t, 0, m, e);
	}
	struct rerr ve;
	if ((m->verb = mt_verb(ww_verbs, V__MAX, &t, &ve)) < 0) {
		*e = ve;
		return -1;
	}
	if (mt_form(&ww_verbs[m->verb], &t, e) != 0)
		return -1;
	switch (m->verb) {
	case V_STOPP:
	case V_PASS:
		if (kind != PR_RACE)
			return r->claimer >= 0 ? rerr_set(e, "Zu spät: @%d hat schon „Stopp“ gerufen.",
							  r->claimer)
					       : rerr_set(e, "Gerade läuft keine Runde.");
		if (!mine)
			return rerr_set(e, "Du hast in dieser Runde schon gepasst.");
		return 0;
	case V_ANSWER:
	case V_WITHDRAW:
		if (kind != PR_ANSWER || !mine)
			return rerr_set(e, "Ein Wort nennt nur, wer als Erstes „Stopp“ gerufen hat.");
		return m->verb == V_ANSWER ? parse_answer(&t, 1, m, e) : 0;
	default:   /* V_VOTE */
		if (kind != PR_VOTE)
			return rerr_set(e, "Gerade wird nicht abgestimmt.");
		if (seat == r->claimer)
			return rerr_set(e, "Über dein eigenes Wort stimmen die anderen ab.");
		if (!mine)
			return rerr_set(e, "Du hast schon abgestimmt.");
		if (!mt_is(&t, 1, "up") && !mt_is(&t, 1, "down"))
			return rerr_set(e, "%s", ww_verbs[V_VOTE].usage);
		m->up = mt_is(&t, 1, "up");
		return 0;
	}
}

static int ww_apply(void *st, int seat, const char *text, int64_t now, struct rerr *e)
{
	struct ww_state *s = st;
	struct ww_move m;
	if (parse_move(s, seat, text, &m, e) != 0)
		return -1;
	prompt_start(&s->pr, now);
	struct ww_round *r = cur(s);
	/* The epoch moves when the meaning of a move does: a claim, a word, a
	 * round decided (start_round). A pass or a vote leaves it, so that
	 * passes and votes at the same moment all count. */
	switch (m.verb) {
	case V_STOPP: {
		s->epoch++;
		r->claimer = (int8_t)seat;
		prompt_clear(&s->pr);
		struct prompt *p = prompt_push(&s->pr, PR_ANSWER, 1u << seat);
		p->owner = (int8_t)seat;
		p->deadline = deadline_after(now, s->answer_seconds);
		logev(s, EV_STOPP, seat);
		return 0;
	}
	case V_PASS:
		if (prompt_done(&s->pr, seat)) {
			logev(s, EV_NOBODY, -1);
			end_round(s, R_NOBODY, now);
		}
		return 0;
	case V_WITHDRAW:
		withdrawn(s, now);
		return 0;
	case V_ANSWER: {
		s->epoch++;
		const struct ww_card *c = &ww_cards[card_of(s)];
		memcpy(r->word, m.word, sizeof r->word);
		r->syl = (int8_t)m.syl;
		r->known = (uint8_t)(m.known < 0 ? 2 : m.known);
		r->faults = (uint8_t)faults_of(r->word, card_of(s), r->face);
		r->syl_state = !(c->dice & DS) ? SYL_NA : m.syl < 0 ? SYL_UNKNOWN :
			       m.syl == silben[r->face[3]] ? SYL_OK : SYL_OFF;
		logev(s, EV_ANSWER, seat);
		if (r->faults) {
			wrong_word(s, now);
			return 0;
		}
		prompt_clear(&s->pr);
		struct prompt *p = prompt_push(&s->pr, PR_VOTE, all_seats(s) & ~(1u << seat));
		p->owner = (int8_t)seat;
		p->deadline = deadline_after(now, s->vote_seconds);
		return 0;
	}
	default:   /* V_VOTE */
		s->vote[seat] = m.up ? 1 : 2;
		if (prompt_done(&s->pr, seat))
			count_votes(s, now);
		return 0;
	}
}

/* A deadline passed: the race (nobody claimed), the word (-10), the vote
 * (counted as it stands). */
static void ww_expire(void *st, struct prompt *p, int64_t now)
{
	struct ww_state *s = st;
	switch (p->kind) {   /* each way ends the round: start_round() moves the epoch */
	case PR_RACE:
		logev(s, EV_NOBODY, -1);
		end_round(s, R_NOBODY, now);
		return;
	case PR_ANSWER:
		withdrawn(s, now);
		return;
	default:
		count_votes(s, now);
		return;
	}
}

static int ww_tick(void *st, int64_t now)
{
	struct ww_state *s = st;
	return prompt_tick(&s->pr, now, ww_expire, s);
}

static void scores(const struct ww_state *s, int *out)
{
	memset(out, 0, sizeof out[0] * WW_SEATS);
	for (int i = 0; i < s->round && i < WW_ROUNDS; i++)   /* the decided rounds */
		for (int p = 0; p < s->n; p++)
			out[p] += s->rounds[i].pts[p];
}

static void ww_status(const void *st, struct status *o)
{
	const struct ww_state *s = st;
	int sc[WW_SEATS];
	memset(o, 0, sizeof *o);
	prompt_status(&s->pr, o);
	o->over = s->pr.n == 0;
	o->turn = -1;   /* a race and a vote: nobody's turn in particular */
	o->epoch = s->epoch;
	/* The race and the vote are windows: every seat they are for looks the
	 * same until they close, passed, voted or not ("gleichzeitig"). */
	const struct prompt *top = prompt_peek(&s->pr);
	if (top && (top->kind == PR_RACE || top->kind == PR_VOTE))
		o->window = top->seats;
	scores(s, sc);
	for (int p = 0; p < s->n; p++)
		o->score[p] = sc[p];
}

/* A move from a page older than the last claim, word or round: a race
 * press after the round was claimed is told who claimed it. */
static int ww_late(const void *st, int seat, const char *move, struct rerr *e)
{
	const struct ww_state *s = st;
	struct mtok t;
	struct rerr ve;
	(void)seat;
	if (s->round < WW_ROUNDS && s->rounds[s->round].claimer >= 0 &&
	    mt_split(move, &t, &ve) == 0 && t.n == 1 &&
	    (mt_is(&t, 0, "stopp") || mt_is(&t, 0, "pass")))
		rerr_set(e, "Zu spät: @%d hat schon „Stopp“ gerufen.", s->rounds[s->round].claimer);
	return GAME_LATE_STALE;
}

/* Every legal move but the words (any word is one): `stopp` and `pass` in
 * the race, `withdraw` for the claimer, `vote up` and `vote down`. A word
 * is typed; the page never suggests one. */
static int ww_moves(const void *st, int seat, move_emit_fn emit, void *ctx)
{
	const struct ww_state *s = st;
	static const char *const race[] = { "stopp", "pass" }, *const vote[] = { "vote up",
										 "vote down" };
	if (seat < 0 || seat >= s->n || !prompt_waits(&s->pr, seat))
		return 0;
	switch (prompt_kind(&s->pr)) {
	case PR_RACE:
		emit(ctx, race[0]);
		emit(ctx, race[1]);
		return 2;
	case PR_VOTE:
		emit(ctx, vote[0]);
		emit(ctx, vote[1]);
		return 2;
	default:
		emit(ctx, "withdraw");
		return 1;
	}
}

/* ---- snapshot and invariants -------------------------------------------- */

static int ww_encode(const void *st, struct buf *b)
{
	const struct ww_state *s = st;
	size_t start = snap_begin(b, "wurfwort", WW_FORMAT);
	ser_u8(b, s->n);
	ser_u8(b, s->parties);
	ser_u16(b, s->round_seconds);
	ser_u16(b, s->answer_seconds);
	ser_u16(b, s->vote_seconds);
	ser_u32(b, s->epoch);
	ser_rng(b, &s->rng);
	prompt_encode(b, &s->pr);
	for (int i = 0; i < WW_ROUNDS; i++)
		ser_u8(b, s->deck[i]);
	ser_u8(b, s->round);
	for (int p = 0; p < s->n; p++)
		ser_u8(b, s->vote[p]);
	for (int i = 0; i < WW_ROUNDS && i <= s->round; i++) {
		const struct ww_round *r = &s->rounds[i];
		ser_u8(b, (unsigned)(r->claimer + 1));
		ser_u8(b, r->result);
		ser_u8(b, (unsigned)(r->syl + 1));
		ser_u8(b, r->known);
		ser_u8(b, r->syl_state);
		ser_u8(b, r->faults);
		for (int k = 0; k < 4; k++)
			ser_u8(b, r->face[k]);
		for (int p = 0; p < s->n; p++)
			ser_u8(b, (unsigned)(uint8_t)r->pts[p]);
		size_t len = strlen(r->word);
		ser_u8(b, (unsigned)len);
		for (size_t k = 0; k < len; k++)
			ser_u8(b, (unsigned char)r->word[k]);
	}
	evlog_encode(b, &s->log, 0);
	return snap_end(b, start);
}

static int ww_decode(void *st, struct de *d, struct rerr *e)
{
	struct ww_state *s = st;
	memset(s, 0, sizeof *s);
	s->n = (uint8_t)de_u8(d);
	if (d->err || s->n < 3 || s->n > WW_SEATS)
		return rerr_set(e, "Spielstand beschädigt: Spielerzahl");
	s->parties = (uint8_t)de_u8(d);
	s->round_seconds = (uint16_t)de_u16(d);
	s->answer_seconds = (uint16_t)de_u16(d);
	s->vote_seconds = (uint16_t)de_u16(d);
	s->epoch = de_u32(d);
	de_rng(d, &s->rng);
	if (prompt_decode(d, &s->pr) != 0)
		return rerr_set(e, "Spielstand beschädigt: Aufforderungen");
	for (int i = 0; i < WW_ROUNDS; i++)
		s->deck[i] = (uint8_t)de_u8(d);
	s->round = (uint8_t)de_u8(d);
	if (s->round > WW_ROUNDS)
		return rerr_set(e, "Spielstand beschädigt: Runde");
	for (int p = 0; p < s->n; p++)
		s->vote[p] = (uint8_t)de_u8(d);
	for (int i = 0; i < WW_ROUNDS && i <= s->round && !d->err; i++) {
		struct ww_round *r = &s->rounds[i];
		r->claimer = (int8_t)((int)de_u8(d) - 1);
		r->result = (uint8_t)de_u8(d);
		r->syl = (int8_t)((int)de_u8(d) - 1);
		r->known = (uint8_t)de_u8(d);
		r->syl_state = (uint8_t)de_u8(d);
		r->faults = (uint8_t)de_u8(d);
		for (int k = 0; k < 4; k++)
			r->face[k] = (uint8_t)de_u8(d);
		for (int p = 0; p < s->n; p++)
			r->pts[p] = (int8_t)de_u8(d);
		unsigned len = de_u8(d);
		if (len > WW_WORD_MAX)
			return rerr_set(e, "Spielstand beschädigt: Wort");
		for (unsigned k = 0; k < len; k++)
			r->word[k] = (char)de_u8(d);
	}
	if (evlog_decode(d, &s->log, WW_LOG, 0) != 0 || d->err)
		return rerr_set(e, "Spielstand beschädigt: zu kurz");
	return 0;
}

/* One decided or running round: its fields within range and its points
 * as its result says. */
static int check_round(const struct ww_state *s, int i, struct rerr *e)
{
	const struct ww_round *r = &s->rounds[i];
	const struct ww_card *c = &ww_cards[s->deck[i]];
	int open = i == s->round;
	if (r->claimer < -1 || r->claimer >= s->n || r->result >= R__MAX ||
	    (open != (r->result == R_OPEN)) || r->syl < -1 || r->known > 2 ||
	    r->syl_state >= SYL__MAX || (r->faults & ~7u))
		return rerr_set(e, "Runde %d ungültig", i + 1);
	for (int k = 0; k < 4; k++)
		if (r->face[k] >= WW_FACES || (!((c->dice >> k) & 1u) && r->face[k]))
			return rerr_set(e, "Runde %d: Würfel ungültig", i + 1);
	char w[WW_WORD_MAX + 1];
	int has_word = r->word[0] != '\0';
	if (has_word && (word_norm(r->word, w, sizeof w) < 0 || strcmp(w, r->word) != 0 ||
			 faults_of(r->word, s->deck[i], r->face) != r->faults))
		return rerr_set(e, "Runde %d: Wort ungültig", i + 1);
	int want_word = r->result == R_SCORED || r->result == R_REJECTED || r->result == R_WRONG ||
			(open && prompt_kind(&s->pr) == PR_VOTE);
	if (has_word != want_word || ((r->claimer >= 0) != (r->result != R_NOBODY &&
							   !(open && prompt_kind(&s->pr) == PR_RACE))))
		return rerr_set(e, "Runde %d: Wort oder Rufer passt nicht", i + 1);
	for (int p = 0; p < s->n; p++) {
		int want = 0;
		if (r->result == R_WRONG)
			want = p == r->claimer ? 0 : WW_BONUS;
		else if (r->result == R_REJECTED && p == r->claimer)
			want = WW_REJECTED;
		else if (r->result == R_WITHDRAWN && p == r->claimer)
			want = WW_WITHDRAWN;
		else if (r->result == R_SCORED && p == r->claimer)
			want = word_points(s->deck[i], r->face);
		if (r->pts[p] != want)
			return rerr_set(e, "Runde %d: Punkte von Platz %d falsch", i + 1, p);
	}
	(void)c;
	return 0;
}

static int ww_check(const void *st, struct rerr *e)
{
	const struct ww_state *s = st;
	uint8_t seen[WW_CARDS] = { 0 };
	if (s->n < 3 || s->n > WW_SEATS || s->round > WW_ROUNDS || s->parties < 1 ||
	    s->parties > 10 || s->round_seconds < 10 || s->answer_seconds < 5 || s->vote_seconds < 5)
		return rerr_set(e, "Wurf & Wort: Spieler, Runde oder Optionen falsch");
	for (int i = 0; i < WW_ROUNDS; i++)
		if (s->deck[i] >= WW_CARDS || seen[s->deck[i]]++)
			return rerr_set(e, "Wurf & Wort: Karte %d doppelt oder ungültig", i + 1);
	if (prompt_check(&s->pr, PR__MAX, s->n, e) != 0)
		return -1;
	const struct prompt *p = prompt_peek(&s->pr);
	if ((p == NULL) != (s->round == WW_ROUNDS) || s->pr.n > 1)
		return rerr_set(e, "Wurf & Wort: Aufforderung passt nicht zur Runde");
	if (p) {
		int claimer = s->rounds[s->round].claimer;
		if ((p->kind == PR_RACE && (p->seats != all_seats(s) || p->owner != -1)) ||
		    (p->kind == PR_ANSWER && (p->owner != claimer || p->seats != 1u << claimer)) ||
		    (p->kind == PR_VOTE && (p->owner != claimer ||
					    p->seats != (all_seats(s) & ~(1u << claimer)))) ||
		    p->flags & PROMPT_WINDOW || (p->deadline == 0 && !(p->flags & PROMPT_LATER)))
			return rerr_set(e, "Wurf & Wort: Aufforderung ungültig");
	}
	for (int q = 0; q < s->n; q++) {
		int voting = p && p->kind == PR_VOTE && ((p->seats >> q) & 1u);
		if (s->vote[q] > 2 || (s->vote[q] && (!voting || ((p->waiting >> q) & 1u))) ||
		    (voting && !s->vote[q] && !((p->waiting >> q) & 1u)))
			return rerr_set(e, "Wurf & Wort: Stimme von Platz %d falsch", q);
	}
	for (int i = 0; i < WW_ROUNDS && i <= s->round; i++)
		if (i < WW_ROUNDS && (i < s->round || p) && check_round(s, i, e) != 0)
			return -1;
	return evlog_check(&s->log, WW_LOG, EV__MAX, s->n, e);
}

/* ---- the view ------------------------------------------------------------ */

/* The log's sentences of one seat ("@2 ruft „Stopp“."), as the German
 * texts they are for each seat: a German view (no text call) takes the
 * literal, whose "@N" the platform replaces by the name, without
 * formatting it for every sentence of every request; any other language
 * gets the format (event_say). test_wurfwort test_log_literals checks
 * each against its format. */
#define WW_BY_SEAT(head, tail)                                                              \
	{ head "0" tail, head "1" tail, head "2" tail, head "3" tail, head "4" tail,        \
	  head "5" tail, head "6" tail, head "7" tail }
_Static_assert(WW_SEATS == 8 && WW_BONUS == 10 && WW_REJECTED == -3 && WW_WITHDRAWN == -10,
	       "the literals below");
static const char *const say_stopp[WW_SEATS] = WW_BY_SEAT("@", " ruft „Stopp“.");
static const char *const say_answer[WW_SEATS] = WW_BY_SEAT("@", " nennt ein Wort.");
static const char *const say_wrong[WW_SEATS] =
	WW_BY_SEAT("Das Wort von @", " erfüllt die Würfel nicht: alle anderen +10.");
static const char *const say_rejected[WW_SEATS] =
	WW_BY_SEAT("Die Mehrheit lehnt das Wort von @", " ab: -3 Punkte.");
static const char *const say_withdrawn[WW_SEATS] =
	WW_BY_SEAT("@", " nimmt „Stopp“ zurück: -10 Punkte.");

/* 1 when seat's German literal of de went to the view (a German view). */
static int said_literal(struct view_sink *v, const char *key, const char *const de[WW_SEATS],
			int seat)
{
	if (v->text || seat < 0 || seat >= WW_SEATS)
		return 0;
	vstr(v, key, de[seat]);
	return 1;
}

/* One log sentence, under key: a whole format each, so that the platform
 * can translate it; the category's name is a catalog message of its own. */
static void event_say(const struct game_event *ev, struct view_sink *v, const char *key)
{
	switch (ev->type) {
	case EV_ROUND:
		vtextf(v, key, "Neue Karte: „%s“.", ww_cards[ev->num % WW_CARDS].category);
		break;
	case EV_STOPP:
		if (!said_literal(v, key, say_stopp, ev->seat))
			vtextf(v, key, "@%d ruft „Stopp“.", ev->seat);
		break;
	case EV_NOBODY:
		vtext(v, key, "Niemand hat ein Wort gefunden.");
		break;
	case EV_ANSWER:
		if (!said_literal(v, key, say_answer, ev->seat))
			vtextf(v, key, "@%d nennt ein Wort.", ev->seat);
		break;
	case EV_WRONG:
		if (!said_literal(v, key, say_wrong, ev->seat))
			vtextf(v, key, "Das Wort von @%d erfüllt die Würfel nicht: alle anderen +%d.",
			       ev->seat, WW_BONUS);
		break;
	case EV_SCORED:
		vtextf(v, key, "@%d bekommt %u Punkte.", ev->seat, ev->arg);
		break;
	case EV_REJECTED:
		if (!said_literal(v, key, say_rejected, ev->seat))
			vtextf(v, key, "Die Mehrheit lehnt das Wort von @%d ab: %d Punkte.", ev->seat,
			       WW_REJECTED);
		break;
	case EV_WITHDRAWN:
		if (!said_literal(v, key, say_withdrawn, ev->seat))
			vtextf(v, key, "@%d nimmt „Stopp“ zurück: %d Punkte.", ev->seat, WW_WITHDRAWN);
		break;
	default:
		vtext(v, key, "Alle 25 Karten sind gespielt.");
		break;
	}
}

static const char *const result_text[R__MAX] = {
	[R_OPEN] = N_("läuft"), [R_NOBODY] = N_("kein Wort"), [R_SCORED] = N_("Punkte"),
	[R_REJECTED] = N_("abgelehnt"), [R_WRONG] = N_("Würfel nicht erfüllt"),
	[R_WITHDRAWN] = N_("zurückgenommen"),
};

/* Why a word the machine refused (R_WRONG) failed, one `why` item a
 * reason: a required letter missing, the forbidden letter there, the stems
 * of the category it contains, the syllables the others did not confirm. */
static void view_why(const struct ww_round *r, int k, struct view_sink *v)
{
	const struct ww_card *c = &ww_cards[k];
	const char *w = r->word;
	for (int g = 0; g < 2; g++)
		if ((c->dice & (g ? G2 : G1)) && !strstr(w, gebot[g][r->face[g]].letter)) {
			vbegin(v, "why");
			vtextf(v, "text", "kein %s darin", gebot[g][r->face[g]].shown);
			vend(v);
		}
	if ((c->dice & DV) && strstr(w, verbot[r->face[2]].letter)) {
		vbegin(v, "why");
		vtextf(v, "text", "verbotenes %s darin", verbot[r->face[2]].shown);
		vend(v);
	}
	for (int i = 0; i < WW_STEMS && c->stems[i]; i++)
		if (strstr(w, c->stems[i])) {
			vbegin(v, "why");
			vtextf(v, "text", "enthält „%s“ aus der Kategorie", c->stems[i]);
			vend(v);
		}
	if (!r->faults) {
		vbegin(v, "why");
		vtext(v, "text", "Silben nicht bestätigt");
		vend(v);
	}
}

static void view_round(const struct ww_state *s, struct view_sink *v)
{
	const struct ww_round *r = &s->rounds[s->round];
	const struct ww_card *c = &ww_cards[card_of(s)];
	vtext(v, "category", c->category);
	vnum(v, "multiplier", c->mult);
	vflag(v, "uses_g1", c->dice & G1);
	vflag(v, "uses_g2", c->dice & G2);
	vflag(v, "uses_forbidden", c->dice & DV);
	vflag(v, "uses_syllables", c->dice & DS);
	if (c->dice & G1) {
		vstr(v, "g1_letter", gebot[0][r->face[0]].shown);
		vnum(v, "g1_points", gebot[0][r->face[0]].points);
	}
	if (c->dice & G2) {
		vstr(v, "g2_letter", gebot[1][r->face[1]].shown);
		vnum(v, "g2_points", gebot[1][r->face[1]].points);
	}
	if (c->dice & DV)
		vstr(v, "forbidden", verbot[r->face[2]].shown);
	if (c->dice & DS)
		vnum(v, "syllables", silben[r->face[3]]);
	vflag(v, "has_claimer", r->claimer >= 0);
	if (r->claimer >= 0)
		vnum(v, "claimer_seat", r->claimer);
	vflag(v, "has_word", r->word[0] != '\0');
	if (r->word[0]) {
		vstr(v, "word", r->word);
		int shown = r->syl >= 0 && (c->dice & DS);   /* only where the card counts them */
		vflag(v, "has_suggestion", shown);
		if (shown)
			vnum(v, "suggested_syllables", r->syl);
		vflag(v, "syllables_confirmed", r->syl_state == SYL_OK);
		vflag(v, "syllables_in_doubt", r->syl_state == SYL_OFF || r->syl_state == SYL_UNKNOWN);
		vflag(v, "in_word_list", r->known == 1);
		vflag(v, "not_in_word_list", r->known == 0);
	}
}

/* A decided round's caller, "Bea: " (the names put in by the platform),
 * as the page's tree has it (v->html_only) in place of has_claimer,
 * claimer_seat and its name: one value, and a round without a caller has
 * none, where the page looked has_claimer up and found the running
 * round's (the flags that are off are not in the page's tree). */
static void view_said(const struct ww_round *r, struct view_sink *v)
{
	static const char *const said[WW_SEATS] = { "@0: ", "@1: ", "@2: ", "@3: ",
						    "@4: ", "@5: ", "@6: ", "@7: " };
	if (!v->html_only) {
		vflag(v, "has_claimer", r->claimer >= 0);
		if (r->claimer >= 0)
			vnum(v, "claimer_seat", r->claimer);
	} else if (r->claimer >= 0 && r->claimer < WW_SEATS) {
		vstr(v, "said", said[r->claimer]);
	}
}

/* One seat's points in a decided round: `seat` (the platform names it:
 * seat_name) and `value`. */
static inline void view_point(struct view_sink *v, int q, int value)
{
	vbegin(v, "points");
	vnum(v, "seat", q);
	vnum(v, "value", value);
	vend(v);
}

/* A decided round's points, each seat's. The page's tree (v->html_only)
 * lists only the seats whose points changed, and a round that changed
 * none has the flag `no_points` ("keine"): a row read out or seen on a
 * phone is one line of who scored, not every seat's 0
 * (docs/moves-wurfwort.md). */
static void view_points(const struct ww_state *s, const struct ww_round *r, struct view_sink *v)
{
	if (!v->html_only) {
		for (int q = 0; q < s->n; q++)
			view_point(v, q, r->pts[q]);
		return;
	}
	int any = 0;
	for (int q = 0; q < s->n; q++)
		if (r->pts[q]) {
			view_point(v, q, r->pts[q]);
			any = 1;
		}
	if (!any)
		vflag(v, "no_points", 1);
}

static void ww_view(const void *st, int seat, struct view_sink *v)
{
	const struct ww_state *s = st;
	const struct prompt *p = prompt_peek(&s->pr);
	int me = seat >= 0 && seat < s->n ? seat : -1, kind = prompt_kind(&s->pr), sc[WW_SEATS];
	scores(s, sc);
	if (!p)
		vtext(v, "headline", "Alle 25 Karten sind gespielt.");
	else if (kind == PR_RACE)
		vtext(v, "headline", "Wer zuerst ein passendes Wort hat, ruft „Stopp“!");
	else if (kind == PR_ANSWER && p->owner == me)
		vtext(v, "headline", "Du hast „Stopp“ gerufen: nenne dein Wort.");
	else if (kind == PR_ANSWER)
		vtextf(v, "headline", "@%d hat „Stopp“ gerufen und nennt ein Wort.", p->owner);
	else if (p->owner == me)
		vtext(v, "headline", "Die anderen stimmen über dein Wort ab.");
	else
		vtextf(v, "headline", "Passt das Wort von @%d? Stimme ab.", p->owner);
	vflag(v, "over", !p);
	vflag(v, "race", kind == PR_RACE);
	vflag(v, "answering", kind == PR_ANSWER);
	/* the claimer's word field, right under the card (a composed move:
	 * "answer" and the word typed) */
	vflag(v, "word_form", kind == PR_ANSWER && p->owner == me);
	vflag(v, "voting", kind == PR_VOTE);
	vnum(v, "deadline", p ? p->deadline : 0);
	vnum(v, "round_number", s->round < WW_ROUNDS ? s->round + 1 : WW_ROUNDS);
	vnum(v, "rounds_total", WW_ROUNDS);
	vflag(v, "has_card", p != NULL);
	if (p)
		view_round(s, v);
	for (int q = 0; q < s->n; q++) {
		vbegin(v, "seats");
		vnum(v, "seat", q);
		vflag(v, "is_me", q == me);
		vnum(v, "score", sc[q]);
		/* another seat's pass and vote stay secret until the window
		 * closes: it looks as if it had not answered yet */
		uint32_t waits = q == me ? p ? p->waiting : 0 : p ? p->seats : 0;
		vflag(v, "passed", kind == PR_RACE && !((waits >> q) & 1u));
		vflag(v, "voted_up", kind == PR_VOTE && q == me && s->vote[q] == 1);
		vflag(v, "voted_down", kind == PR_VOTE && q == me && s->vote[q] == 2);
		vflag(v, "to_vote", kind == PR_VOTE && ((waits >> q) & 1u));
		vend(v);
	}
	vflag(v, "has_rounds", s->round > 0);
	for (int i = 0; i < s->round && i < WW_ROUNDS; i++) {
		const struct ww_round *r = &s->rounds[i];
		int last = i == s->round - 1;   /* the round just decided */
		vbegin(v, v->html_only && last ? "last_round" : "rounds");
		vnum(v, "number", i + 1);
		if (!v->html_only)
			vflag(v, "last", last);
		vtext(v, "category", ww_cards[s->deck[i]].category);
		vtext(v, "result", result_text[r->result]);
		view_said(r, v);
		/* most decided rounds have none: the literal "" is written
		 * without a look, the state's empty buffer measured and copied */
		vstr(v, "word", r->word[0] ? r->word : "");
		if (r->result == R_WRONG)
			view_why(r, s->deck[i], v);
		view_points(s, r, v);
		vend(v);
	}
	if (me >= 0) {
		if (kind == PR_RACE && ((p->waiting >> me) & 1u)) {
			vbegin(v, "actions");
			vstr(v, "move", "stopp");
			vtext(v, "label", "Stopp!");
			vflag(v, "primary", 1);
			vend(v);
			vbegin(v, "actions");
			vstr(v, "move", "pass");
			vtext(v, "label", "Ich finde keins (passen)");
			vend(v);
		} else if (kind == PR_ANSWER && p->owner == me) {
			vbegin(v, "actions");
			vstr(v, "move", "withdraw");
			vtext(v, "label", "Zurücknehmen (−10)");
			vend(v);
		} else if (kind == PR_VOTE && ((p->waiting >> me) & 1u)) {
			vbegin(v, "actions");
			vstr(v, "move", "vote up");
			vtext(v, "label", "Daumen hoch");
			vflag(v, "primary", 1);
			vend(v);
			vbegin(v, "actions");
			vstr(v, "move", "vote down");
			vtext(v, "label", "Daumen runter");
			vend(v);
		}
	}
	evlog_view_text(&s->log, v, event_say);
}

/* Re-deals what no seat can see: the cards still to come (from all not yet
 * revealed, in id order) and the rolls to come. */
static void ww_scramble(void *st, int seat, uint64_t seed)
{
	struct ww_state *s = st;
	struct rng r;
	uint8_t used[WW_CARDS] = { 0 };
	uint16_t pool[WW_CARDS];
	int n = 0, from = s->round < WW_ROUNDS ? s->round + 1 : WW_ROUNDS;
	rng_seed(&r, seed);
	for (int i = 0; i < from; i++)
		used[s->deck[i]] = 1;
	for (int c = 0; c < WW_CARDS; c++)
		if (!used[c])
			pool[n++] = (uint16_t)c;
	rng_shuffle(&r, pool, n);
	for (int i = from, k = 0; i < WW_ROUNDS; i++)
		s->deck[i] = (uint8_t)pool[k++];
	/* the others' votes cast so far, up or down, are secret too */
	for (int q = 0; q < s->n; q++) {
		uint8_t way = (uint8_t)(1 + rng_below(&r, 2));   /* drawn for all alike */
		if (q != seat && s->vote[q])
			s->vote[q] = way;
	}
	rng_seed(&s->rng, rng_next(&r));
}

/* For the claimer, up to three words of the sample list that pass the
 * machine's checks, as the platform would complete them. */
static int ww_bot_moves(const void *st, int seat, move_emit_fn emit, void *ctx)
{
	const struct ww_state *s = st;
	if (prompt_kind(&s->pr) != PR_ANSWER || !prompt_waits(&s->pr, seat))
		return 0;
	const struct ww_round *r = &s->rounds[s->round];
	int n = 0;
	for (int i = 0; i < NSAMPLES && n < 3; i++) {
		if (faults_of(samples[i].word, card_of(s), r->face))
			continue;
		char sw[8], m[GAME_MOVE_MAX + 1];
		snprintf(sw, sizeof sw, "s=%d", samples[i].syllables);
		const char *args[3] = { samples[i].word, sw, "w=1" };
		if (mt_spell(&ww_verbs[V_ANSWER], args, 3, m, sizeof m) > 0) {
			emit(ctx, m);
			n++;
		}
	}
	return n;
}

/* The claimer's answer with what the platform looked up, spelled through
 * the table of verbs: "answer fechtmeister s=3 w=1" (a part left out when
 * the lookup does not know). Whatever was typed after the word is dropped.
 * -1 for any other move, or a word the rules will refuse anyway. */
static int ww_annotate(const void *st, int seat, const char *move, const struct lookup *lk,
		       char *out, size_t cap)
{
	const struct ww_state *s = st;
	struct mtok t;
	struct rerr e;
	if (prompt_kind(&s->pr) != PR_ANSWER || !prompt_waits(&s->pr, seat) ||
	    mt_split(move, &t, &e) != 0)
		return -1;
	int from = mt_is(&t, 0, "answer") ? 1 : t.n == 1 && !mt_is(&t, 0, "withdraw") ? 0 : -1;
	char w[WW_WORD_MAX + 1], sw[8], kw[8];
	if (from < 0 || from >= t.n || word_norm(t.w[from], w, sizeof w) < 0)
		return -1;
	int syl = lk->syllables(lk->ctx, w), known = lk->known(lk->ctx, w), n = 0;
	const char *args[3];
	args[n++] = w;
	if (syl >= 1 && syl <= 20) {
		snprintf(sw, sizeof sw, "s=%d", syl);
		args[n++] = sw;
	}
	if (known == 0 || known == 1) {
		snprintf(kw, sizeof kw, "w=%d", known);
		args[n++] = kw;
	}
	return mt_spell(&ww_verbs[V_ANSWER], args, n, out, cap) < 0 ? -1 : 0;
}

/* What the live prompt asks (game.h, doing): public, the same for all. */
static const char *ww_doing(const void *st)
{
	static const char *const text[PR__MAX] = {
		[PR_RACE] = N_("ein passendes Wort suchen und „Stopp“ rufen"),
		[PR_ANSWER] = N_("ein Wort nennen"),
		[PR_VOTE] = N_("über das Wort abstimmen"),
	};
	return text[prompt_kind(&((const struct ww_state *)st)->pr)];
}

const struct game wurfwort_game = {
	.slug = "wurfwort",
	.title = "Wurf & Wort",
	.tagline = N_("Schnell ein Wort finden, das Karte und Würfel vorgeben, und „Stopp“ rufen."),
	.summary = N_("Eine Karte nennt eine Kategorie, Würfel geben Buchstaben vor, die im Wort "
		      "stehen müssen, einen, der fehlen muss, und die Zahl der Silben. Wer zuerst "
		      "ein passendes Wort hat, ruft „Stopp“ und nennt es; die anderen stimmen ab. "
		      "25 Karten, die meisten Punkte gewinnen."),
	.min_players = 3,
	.max_players = WW_SEATS,
	.state_size = sizeof(struct ww_state),
	.options = ww_options,
	.noptions = O__MAX,
	.verbs = ww_verbs,
	.nverbs = V__MAX,
	.parties = ww_parties,
	.setup = ww_setup,
	.apply = ww_apply,
	.tick = ww_tick,
	.status = ww_status,
	.moves = ww_moves,
	.bot_moves = ww_bot_moves,
	.annotate = ww_annotate,
	.snap_format = WW_FORMAT,
	.snap_format_min = WW_FORMAT,
	.encode = ww_encode,
	.decode = ww_decode,
	.check = ww_check,
	.view = ww_view,
	.doing = ww_doing,
	.scramble = ww_scramble,
	.late = ww_late,
};
