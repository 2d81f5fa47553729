/*
 * worstgame.c — Worst Game Ever: ante, draw, attack; cards played at any
 * time go on a stack and resolve last-in-first-out; when someone has no
 * chips at the end of a turn, everyone left plays cards once more and most
 * chips wins, a tie going to whoever shouts "Worst Game Ever!" first
 * (rules-de/worst-game-ever.txt, docs/rulings.md "Worst Game Ever",
 * docs/moves-worstgame.md, docs/cards-worstgame.md).
 *
 * The text has no card texts: ours are the table wg_types below, 41 kinds,
 * 100 cards, each with an effect from a small vocabulary that wg_resolve()
 * interprets.
 *
 * A turn: the active seat antes 1 chip (automatic) and draws a card
 * (automatic), then declares an attack (`attack PLATZ CHIPS`); the server
 * rolls; then the seat may play cards and ends (`end`), discarding down to
 * 7. After each step (ante, draw, attack declared, die rolled, end of turn)
 * a reaction window opens for every seat still in that listens to that
 * kind of step; after a card, for every such seat but the one who played
 * it. What each seat listens to is its own standing choice (`react …`),
 * made in advance by kind of step, never by hand; the window closes when
 * all have passed or at the table's reaction deadline, and then the stack
 * resolves top first.
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
	WG_SEATS = 8,
	WG_CARDS = 100,
	WG_START_HAND = 4,
	WG_START_CHIPS = 12,
	WG_HAND_LIMIT = 7,
	WG_DEMAND_MAX = 6,
	WG_STACK = WG_CARDS,
	WG_TABLE = WG_CARDS,
	WG_LOG = 16,
	WG_FORMAT = 1
};

/* ---- the cards ------------------------------------------------------------ */

/* When a card may be played (docs/rulings.md): W_ANY in any reaction window
 * and on one's own turn; the others only at their step. */
enum { W_ANY = 1, W_ATTACK = 2, W_ROLL = 4, W_COUNTER = 8, W_END = 16 };
/* What a card needs named: nothing, another seat still in, a die face, a
 * card lying in front of a seat. */
enum wg_target { T_NONE, T_SEAT, T_FACE, T_INPLAY, T__MAX };
enum { F_STAYS = 1, F_UNSTOPPABLE = 2 };

enum wg_effect {
	E_NOTHING,      /* does nothing at all */
	E_GAIN,         /* take n from the kitty */
	E_STEAL,        /* take n from the target */
	E_FINE,         /* the target pays n into the kitty */
	E_BIRTHDAY,     /* every other seat gives you n */
	E_GANG,         /* every other seat takes n from the target */
	E_ROUND,        /* every seat still in takes n from the kitty */
	E_GIVE,         /* you give the target n */
	E_ROBIN,        /* the richest gives the poorest n */
	E_MISPRINT,     /* take n from the kitty, then pay n into it */
	E_COIN,         /* roll: 1-3 pay n into the kitty, 4-6 take n from it */
	E_MERCY,        /* a target with at most n chips pays them all */
	E_KICK,         /* a target with exactly n chips pays them */
	E_DRAW,         /* draw n cards */
	E_PICKPOCKET,   /* take a random card from the target's hand */
	E_RECALL,       /* take the top card of the discard pile */
	E_DANCE,        /* every seat still in passes a random card to its left */
	E_TIDY,         /* the target discards n random cards */
	E_CALL_OFF,     /* the attack is called off */
	E_REDIRECT,     /* the attack goes against the target */
	E_DOUBLE,       /* double or nothing */
	E_REROLL,       /* the die is rolled again */
	E_MOD,          /* the die counts n more (or less) */
	E_FIX,          /* the die shows the face named */
	E_GLOAT,        /* if the attack fails, the attacker pays you n */
	E_COUNTER,      /* the card beneath is cancelled; you take n from the kitty */
	E_BOUNCE,       /* the card beneath goes back to its player's hand */
	E_WRECK,        /* a card lying in front of a seat goes */
	E_STAYS,        /* it lies in front of a seat: the passive below */
	E__MAX
};

/* What a card that stays in play does while it lies there. */
enum wg_passive {
	P_NONE,
	P_SHIELD,   /* a won attack on its holder takes at most 1; then it goes */
	P_LUCKY,    /* its holder's attack rolls count 1 more */
	P_JINX,     /* its holder's attack rolls count 1 less; goes at the end of its holder's turn */
	P_MUZZLE,   /* its holder plays no card; goes at the end of its holder's turn */
	P_PIGGY,    /* after its holder's ante 1 chip onto it; at 3: holder takes them and 3 more */
	P_SPIKES,   /* a failed attack on its holder costs the attacker 1 chip, to the holder */
	P_POSE,     /* its holder's won attack takes 1 more from the kitty; a failed one ends it */
	P_KIBITZ,   /* its holder's hand is open; goes at the end of its holder's turn */
	P_TOLL,     /* the others' antes go onto it; its holder takes them at their turn's start */
	P__MAX
};

enum wg_theme {
	TH_KINGMAKING, TH_GLOATING, TH_CHEATING, TH_RECURSION, TH_SILLINESS, TH_ELIMINATION,
	TH_BROKEN, TH_DENIAL, TH_KIBITZING, TH_GANGING_UP, TH__MAX
};
/* Named unlike any card, so that a theme on a page never reads as a card. */
static const char *const theme_name[TH__MAX] = {
	N_("Sieger küren"), N_("Häme"), N_("Schummeln"), N_("Rekursion"), N_("Albernheit"),
	N_("Ausscheiden"), N_("Defekte"), N_("Verweigerung"), N_("Zuschauen"), N_("Verbünden"),
};

struct wg_type {
	const char *slug;             /* in moves: ASCII, lower case */
	const char *name, *text;      /* German: catalog messages, shown translated */
	const char *name_en, *text_en;   /* English, as the catalog (po/) has them */
	uint8_t count, theme, when, target, effect, passive, flags;
	int8_t n;
};

#define STAYS(p) E_STAYS, (p), F_STAYS
static const struct wg_type wg_types[] = {
	{ "topfgriff", N_("Griff in den Topf"), N_("Nimm 2 Chips aus dem Topf."),
	  "Hand in the Kitty", "Take 2 chips from the kitty.",
	  3, TH_CHEATING, W_ANY, T_NONE, E_GAIN, 0, 0, 2 },
	{ "langfinger", N_("Langfinger"), N_("Nimm einer Person deiner Wahl 2 Chips weg."),
	  "Sticky Fingers", "Take 2 chips from a player of your choice.",
	  3, TH_CHEATING, W_ANY, T_SEAT, E_STEAL, 0, 0, 2 },
	{ "strafzettel", N_("Strafzettel"),
	  N_("Eine Person deiner Wahl zahlt 2 Chips in den Topf."),
	  "Parking Ticket", "A player of your choice pays 2 chips into the kitty.",
	  3, TH_DENIAL, W_ANY, T_SEAT, E_FINE, 0, 0, 2 },
	{ "geburtstag", N_("Geburtstag"), N_("Alle anderen schenken dir je 1 Chip."),
	  "Birthday", "Every other player gives you 1 chip.",
	  3, TH_GLOATING, W_ANY, T_NONE, E_BIRTHDAY, 0, 0, 1 },
	{ "alle-gegen-einen", N_("Alle gegen einen"),
	  N_("Wähle eine Person: alle anderen nehmen ihr je 1 Chip weg."),
	  "All Against One", "Choose a player: everybody else takes 1 chip from them.",
	  3, TH_GANGING_UP, W_ANY, T_SEAT, E_GANG, 0, 0, 1 },
	{ "freibier", N_("Freibier"),
	  N_("Alle, die noch dabei sind, nehmen je 2 Chips aus dem Topf."),
	  "Free Beer", "Everybody still in takes 2 chips from the kitty.",
	  2, TH_SILLINESS, W_ANY, T_NONE, E_ROUND, 0, 0, 2 },
	{ "koenigsmacher", N_("Königsmacher"), N_("Gib einer Person deiner Wahl 3 deiner Chips."),
	  "Kingmaker", "Give 3 of your chips to a player of your choice.",
	  2, TH_KINGMAKING, W_ANY, T_SEAT, E_GIVE, 0, 0, 3 },
	{ "robin-hood", N_("Robin Hood"),
	  N_("Wer die meisten Chips hat, gibt 2 an den, der die wenigsten hat."),
	  "Robin Hood", "The player with the most chips gives 2 to the one with the fewest.",
	  2, TH_KINGMAKING, W_ANY, T_NONE, E_ROBIN, 0, 0, 2 },
	{ "fehldruck", N_("Fehldruck"), N_("Nimm 3 Chips aus dem Topf. Zahle 3 Chips in den Topf."),
	  "Misprint", "Take 3 chips from the kitty. Pay 3 chips into the kitty.",
	  2, TH_BROKEN, W_ANY, T_NONE, E_MISPRINT, 0, 0, 3 },
	{ "kaputt", N_("Kaputte Karte"), N_("Diese Karte ist kaputt. Sie tut nichts. Gar nichts."),
	  "Broken Card", "This card is broken. It does nothing. Nothing at all.",
	  2, TH_BROKEN, W_ANY, T_NONE, E_NOTHING, 0, 0, 0 },
	{ "kopf-oder-zahl", N_("Kopf oder Zahl"),
	  N_("Der Würfel rollt: bei 1–3 zahlst du 2 Chips in den Topf, bei 4–6 nimmst du 2 "
	     "heraus."),
	  "Heads or Tails", "Roll the die: on 1–3 pay 2 chips into the kitty, on 4–6 take 2 out.",
	  2, TH_SILLINESS, W_ANY, T_NONE, E_COIN, 0, 0, 2 },
	{ "gnadenstoss", N_("Gnadenstoß"),
	  N_("Hat eine Person deiner Wahl höchstens 2 Chips, zahlt sie alle in den Topf."),
	  "Coup de Grâce", "If a player of your choice has 2 chips or fewer, they pay them all "
	  "into the kitty.",
	  2, TH_ELIMINATION, W_ANY, T_SEAT, E_MERCY, 0, 0, 2 },
	{ "rettungsring", N_("Rettungsring"),
	  N_("Nur am Ende eines Zuges: nimm 2 Chips aus dem Topf."),
	  "Life Ring", "Only at the end of a turn: take 2 chips from the kitty.",
	  2, TH_ELIMINATION, W_END, T_NONE, E_GAIN, 0, 0, 2 },
	{ "rauswurf", N_("Rauswurf"),
	  N_("Nur am Ende eines Zuges: hat eine Person deiner Wahl genau 1 Chip, zahlt sie ihn in "
	     "den Topf."),
	  "Bounced", "Only at the end of a turn: if a player of your choice has exactly 1 chip, "
	  "they pay it into the kitty.",
	  2, TH_ELIMINATION, W_END, T_SEAT, E_KICK, 0, 0, 1 },
	{ "nachschub", N_("Nachschub"), N_("Ziehe 2 Karten."),
	  "Resupply", "Draw 2 cards.",
	  3, TH_CHEATING, W_ANY, T_NONE, E_DRAW, 0, 0, 2 },
	{ "taschendieb", N_("Taschendieb"),
	  N_("Nimm einer Person deiner Wahl eine zufällige Handkarte."),
	  "Pickpocket", "Take a random card from the hand of a player of your choice.",
	  2, TH_CHEATING, W_ANY, T_SEAT, E_PICKPOCKET, 0, 0, 1 },
	{ "zeitschleife", N_("Zeitschleife"),
	  N_("Nimm die oberste Karte des Ablagestapels auf die Hand."),
	  "Time Loop", "Take the top card of the discard pile into your hand.",
	  2, TH_RECURSION, W_ANY, T_NONE, E_RECALL, 0, 0, 1 },
	{ "huehnertanz", N_("Hühnertanz"),
	  N_("Alle, die noch dabei sind, geben eine zufällige Handkarte nach links weiter."),
	  "Chicken Dance", "Everybody still in passes a random card from their hand to the left.",
	  2, TH_SILLINESS, W_ANY, T_NONE, E_DANCE, 0, 0, 1 },
	{ "aufraeumen", N_("Aufräumen"),
	  N_("Eine Person deiner Wahl wirft 2 zufällige Handkarten ab."),
	  "Spring Cleaning", "A player of your choice discards 2 random cards from their hand.",
	  2, TH_DENIAL, W_ANY, T_SEAT, E_TIDY, 0, 0, 2 },
	{ "abgelehnt", N_("Abgelehnt"), N_("Nur gegen einen angesagten Angriff: er fällt aus."),
	  "Denied", "Only against a declared attack: it is called off.",
	  5, TH_DENIAL, W_ATTACK, T_NONE, E_CALL_OFF, 0, 0, 0 },
	{ "suendenbock", N_("Sündenbock"),
	  N_("Nur gegen einen angesagten Angriff: er richtet sich gegen eine Person deiner Wahl "
	     "(nicht gegen den Angreifer)."),
	  "Scapegoat", "Only against a declared attack: it now targets a player of your choice "
	  "(not the attacker).",
	  3, TH_GANGING_UP, W_ATTACK, T_SEAT, E_REDIRECT, 0, 0, 0 },
	{ "doppelt", N_("Doppelt oder nichts"),
	  N_("Nur bei einem angesagten Angriff: gelingt er, bringt er das Doppelte; misslingt er, "
	     "zahlt der Angreifer dem Ziel die Forderung."),
	  "Double or Nothing", "Only during a declared attack: if it succeeds it wins double; "
	  "if it fails the attacker pays the target what was demanded.",
	  2, TH_CHEATING, W_ATTACK, T_NONE, E_DOUBLE, 0, 0, 0 },
	{ "nochmal", N_("Nochmal!"), N_("Nur nach dem Angriffswurf: der Würfel wird neu geworfen."),
	  "Again!", "Only after the attack roll: the die is rolled again.",
	  3, TH_CHEATING, W_ROLL, T_NONE, E_REROLL, 0, 0, 0 },
	{ "falschspieler", N_("Falschspieler"),
	  N_("Nur nach dem Angriffswurf: der Würfel zählt 2 mehr."),
	  "Cardsharp", "Only after the attack roll: the die counts 2 more.",
	  2, TH_CHEATING, W_ROLL, T_NONE, E_MOD, 0, 0, 2 },
	{ "wackeltisch", N_("Wackeltisch"),
	  N_("Nur nach dem Angriffswurf: der Würfel zählt 2 weniger."),
	  "Wobbly Table", "Only after the attack roll: the die counts 2 less.",
	  2, TH_DENIAL, W_ROLL, T_NONE, E_MOD, 0, 0, -2 },
	{ "gezinkt", N_("Gezinkter Würfel"),
	  N_("Nur nach dem Angriffswurf: der Würfel zeigt die Zahl, die du nennst."),
	  "Loaded Die", "Only after the attack roll: the die shows the number you name.",
	  2, TH_CHEATING, W_ROLL, T_FACE, E_FIX, 0, 0, 0 },
	{ "schadenfreude", N_("Schadenfreude"),
	  N_("Nur nach dem Angriffswurf: misslingt der Angriff, zahlt dir der Angreifer 1 Chip."),
	  "Gloat", "Only after the attack roll: if the attack fails, the attacker pays you 1 chip.",
	  2, TH_GLOATING, W_ROLL, T_NONE, E_GLOAT, 0, 0, 1 },
	{ "nein", N_("Nein!"),
	  N_("Auf eine Karte im Stapel: die Karte direkt darunter wirkt nicht."),
	  "No!", "On a card in the stack: the card directly beneath has no effect.",
	  5, TH_DENIAL, W_COUNTER, T_NONE, E_COUNTER, 0, 0, 0 },
	{ "doch", N_("Doch!"),
	  N_("Auf eine Karte im Stapel: die Karte direkt darunter wirkt nicht, und du nimmst "
	     "1 Chip aus dem Topf."),
	  "Yes!", "On a card in the stack: the card directly beneath has no effect, and you take "
	  "1 chip from the kitty.",
	  3, TH_GLOATING, W_COUNTER, T_NONE, E_COUNTER, 0, 0, 1 },
	{ "bumerang", N_("Bumerang"),
	  N_("Auf eine Karte im Stapel: die Karte direkt darunter geht ohne Wirkung zurück auf die "
	     "Hand dessen, der sie gespielt hat."),
	  "Boomerang", "On a card in the stack: the card directly beneath goes back, without "
	  "effect, to the hand of whoever played it.",
	  2, TH_RECURSION, W_COUNTER, T_NONE, E_BOUNCE, 0, 0, 0 },
	{ "unterm-tisch", N_("Unterm Tisch"),
	  N_("Nimm 2 Chips aus dem Topf. Keine Karte kann das verhindern."),
	  "Under the Table", "Take 2 chips from the kitty. No card can stop this.",
	  2, TH_CHEATING, W_ANY, T_NONE, E_GAIN, 0, F_UNSTOPPABLE, 2 },
	{ "abrissbirne", N_("Abrissbirne"),
	  N_("Eine ausliegende Karte deiner Wahl geht auf den Ablagestapel; Chips darauf kommen "
	     "in den Topf."),
	  "Wrecking Ball", "A card in play of your choice goes to the discard pile; chips on it "
	  "go to the kitty.",
	  3, TH_DENIAL, W_ANY, T_INPLAY, E_WRECK, 0, 0, 0 },
	{ "schutzschild", N_("Schutzschild"),
	  N_("BLEIBT LIEGEN. Ein gelungener Angriff auf dich bringt höchstens 1 Chip; danach geht "
	     "der Schild."),
	  "Shield", "STAYS IN PLAY. A successful attack on you wins at most 1 chip; then the "
	  "shield goes.",
	  3, TH_DENIAL, W_ANY, T_NONE, STAYS(P_SHIELD), 0 },
	{ "gluecksbringer", N_("Glücksbringer"),
	  N_("BLEIBT LIEGEN. Deine Angriffswürfe zählen 1 mehr."),
	  "Lucky Charm", "STAYS IN PLAY. Your attack rolls count 1 more.",
	  2, TH_CHEATING, W_ANY, T_NONE, STAYS(P_LUCKY), 0 },
	{ "pechstraehne", N_("Pechsträhne"),
	  N_("BLEIBT LIEGEN vor einer Person deiner Wahl: ihre Angriffswürfe zählen 1 weniger, bis "
	     "ihr Zug endet."),
	  "Losing Streak", "STAYS IN PLAY in front of a player of your choice: their attack "
	  "rolls count 1 less until their turn ends.",
	  2, TH_GANGING_UP, W_ANY, T_SEAT, STAYS(P_JINX), 0 },
	{ "maulkorb", N_("Maulkorb"),
	  N_("BLEIBT LIEGEN vor einer Person deiner Wahl: sie spielt keine Karten, bis ihr Zug "
	     "endet."),
	  "Muzzle", "STAYS IN PLAY in front of a player of your choice: they play no cards "
	  "until their turn ends.",
	  2, TH_DENIAL, W_ANY, T_SEAT, STAYS(P_MUZZLE), 0 },
	{ "sparschwein", N_("Sparschwein"),
	  N_("BLEIBT LIEGEN. Nach deinem Einsatz legst du 1 Chip darauf. Liegen 3 darauf, nimmst "
	     "du sie und 3 aus dem Topf; dann geht das Schwein."),
	  "Piggy Bank", "STAYS IN PLAY. After your ante put 1 chip on it. When it holds 3, "
	  "take them and 3 from the kitty; then the pig goes.",
	  3, TH_RECURSION, W_ANY, T_NONE, STAYS(P_PIGGY), 0 },
	{ "stachelpanzer", N_("Stachelpanzer"),
	  N_("BLEIBT LIEGEN. Misslingt ein Angriff auf dich, zahlt dir der Angreifer 1 Chip."),
	  "Spiked Shell", "STAYS IN PLAY. When an attack on you fails, the attacker pays you "
	  "1 chip.",
	  2, TH_DENIAL, W_ANY, T_NONE, STAYS(P_SPIKES), 0 },
	{ "siegerpose", N_("Siegerpose"),
	  N_("BLEIBT LIEGEN. Gelingt dein Angriff, nimmst du 1 Chip mehr aus dem Topf. Misslingt "
	     "einer, geht die Pose."),
	  "Victory Pose", "STAYS IN PLAY. When your attack succeeds, take 1 more chip from the "
	  "kitty. When one fails, the pose goes.",
	  2, TH_GLOATING, W_ANY, T_NONE, STAYS(P_POSE), 0 },
	{ "kiebitz", N_("Kiebitz"),
	  N_("BLEIBT LIEGEN vor einer Person deiner Wahl: ihre Handkarten liegen offen, bis ihr "
	     "Zug endet."),
	  "Kibitzer", "STAYS IN PLAY in front of a player of your choice: their hand is open "
	  "to all until their turn ends.",
	  2, TH_KIBITZING, W_ANY, T_SEAT, STAYS(P_KIBITZ), 0 },
	{ "mautstelle", N_("Mautstelle"),
	  N_("BLEIBT LIEGEN. Die Einsätze der anderen kommen auf diese Karte statt in den Topf. "
	     "Zu Beginn deines Zuges nimmst du sie; dann geht die Karte."),
	  "Toll Booth", "STAYS IN PLAY. The others' antes go on this card instead of into the "
	  "kitty. At the start of your turn take them; then the card goes.",
	  2, TH_GANGING_UP, W_ANY, T_NONE, STAYS(P_TOLL), 0 },
};
#undef STAYS
enum { WG_TYPES = (int)(sizeof wg_types / sizeof wg_types[0]) };

/* The type of card `card` (0..99): ids are dealt to the types in table
 * order, `count` each (test_card_set checks they make exactly 100). */
static int type_index_walk(unsigned card)
{
	unsigned id = card % WG_CARDS;
	for (int t = 0; t < WG_TYPES; t++) {
		if (id < wg_types[t].count)
			return t;
		id -= wg_types[t].count;
	}
	return 0;
}

/* The walk above, once per card, and each card's passive: every
 * legal-move listing and every window asks for types and passives many
 * times, and the walk costs up to 41 steps. Filled before main() so that
 * threads only ever read them. */
static uint8_t card_type[WG_CARDS], card_passive[WG_CARDS];

__attribute__((constructor)) static void card_type_fill(void)
{
	for (unsigned c = 0; c < WG_CARDS; c++) {
		card_type[c] = (uint8_t)type_index_walk(c);
		card_passive[c] = wg_types[card_type[c]].passive;
	}
}

static int type_index(unsigned card)
{
	return card_type[card % WG_CARDS];
}

static const struct wg_type *type_of(unsigned card)
{
	return &wg_types[type_index(card)];
}

static int type_by_slug(const char *slug)
{
	for (int t = 0; t < WG_TYPES; t++)
		if (wg_types[t].slug[0] == slug[0] && strcmp(wg_types[t].slug, slug) == 0)
			return t;
	return -1;
}

/* ---- the state -------------------------------------------------------------- */

/* The kinds of step a reaction window follows: what a seat's standing
 * choice (`react …`) is made of, one bit each. */
enum wg_kind { K_ANTE, K_DRAW, K_ATTACK, K_ROLL, K_CARD, K_END, K__MAX };
static const char *const kind_word[K__MAX] = { "ante", "draw", "attack", "roll", "card", "end" };
static const char *const kind_name[K__MAX] = { N_("Einsatz"), N_("Ziehen"), N_("Angriff"),
					       N_("Wurf"), N_("Karte"), N_("Zugende") };
enum { LISTEN_ALL = (1 << K__MAX) - 1,
       LISTEN_FEW = (1 << K_ATTACK) | (1 << K_ROLL) | (1 << K_CARD) };

/* What the party waits for (rules/prompt.h). PR_TURN: the active seat
 * (owner) at a step of its turn (state `step`). PR_REACT: a reaction
 * window (arg: its wg_kind; owner: who took the step or played the card),
 * over the turn or the last round. PR_FINAL: everyone still in plays cards
 * once more. PR_SHOUT: the tie is decided by the first shout. */
enum wg_prompt { PR_TURN = 1, PR_REACT, PR_FINAL, PR_SHOUT, PR__MAX };
/* ST_DISCARD: down to the hand limit after `end`; ST_LAST_DISCARD: again
 * after the end-of-turn window, when a card played there drew the hand
 * over the limit (then the turn ends without another window). */
enum wg_step { ST_ATTACK, ST_AFTER, ST_DISCARD, ST_LAST_DISCARD, ST__MAX };
/* What a window follows, and so what comes once the stack has resolved. */
enum wg_base { B_ANTE, B_DRAW, B_ATTACK, B_ROLL, B_END, B_PLAY, B__MAX };

/* Public events (rules/evlog.h): seat acts; `where` another seat; `card`
 * a card; `arg` a number (chips, a die); `num` a second number. */
enum wg_ev {
	EV_TURN,      /* seat's turn: it antes (where: a toll's holder, or nobody) */
	EV_DRAW,      /* seat draws arg cards */
	EV_ATTACK,    /* seat attacks `where` for arg chips */
	EV_ROLL,      /* the die shows arg */
	EV_WON,       /* seat's attack on `where` wins arg chips */
	EV_FAILED,    /* seat's attack on `where` fails (arg: the total) */
	EV_CALLED,    /* the attack is called off */
	EV_PLAY,      /* seat plays card (where: its target seat) */
	EV_RESOLVE,   /* card resolves (arg 0), is cancelled (1), goes back (2) */
	EV_PASSOUT,   /* seat discards card down to the hand limit */
	EV_OUT,       /* seat is out */
	EV_FINAL,     /* the end begins: everyone plays cards once more */
	EV_TIE,       /* a tie (num: the seats as bits): shout! */
	EV_SHOUT,     /* seat shouts first and wins */
	EV_WINNER,    /* seat wins with arg chips (num: the kitty it took) */
	EV_SHARED,    /* nobody shouted: the tied seats (num) share */
	EV_COIN,      /* seat's coin roll shows arg */
	EV__MAX
};

enum wg_opt { O_REACT_SECONDS, O_FEW_WINDOWS, O_PARTIES, O__MAX };
_Static_assert((int)O__MAX <= (int)GAME_OPT_MAX, "options fit struct setup");

static const struct game_option wg_options[O__MAX] = {
	[O_REACT_SECONDS] = { "react_seconds", N_("Zeit für Reaktionen"), OPT_INT, 5, 43200, 20,
			      N_("s") },
	[O_FEW_WINDOWS] = { "few_windows", N_("Reaktionsfenster zu Beginn nur bei Angriff, Wurf "
					      "und Karten (für Partien über Tage)"),
			    OPT_BOOL, 0, 1, 0, NULL },
	[O_PARTIES] = { "parties", N_("Partien pro Runde"), OPT_INT, 1, 10, 1, NULL },
};

/* A card on the stack, waiting to resolve. */
struct wg_entry {
	uint16_t card;
	int8_t seat;        /* who played it */
	int8_t target;      /* T_SEAT: the seat; T_INPLAY: the holder; else -1 */
	int8_t face;        /* T_FACE: the face named; else 0 */
	uint8_t fate;       /* 0 pending, 1 cancelled, 2 goes back to its player */
	uint16_t tcard;     /* T_INPLAY: the card lying there; else EVENT_NO_CARD */
};

/* A card lying in front of a seat. */
struct wg_inplay {
	uint16_t card;
	uint8_t holder;
	uint8_t chips;
};

/* The attack of this turn. */
struct wg_attack {
	uint8_t on;         /* 0 none or called off, 1 declared, 2 rolled, 3 settled */
	int8_t target;
	uint8_t demand;
	uint8_t doubled;    /* "Doppelt oder nichts" cards resolved */
	int8_t die;         /* the face (a card may name any 1..6) */
	int8_t mod;         /* what cards added */
	uint16_t gloat;     /* seats that gloat (bits) */
};

struct wg_state {
	uint8_t n, parties, active, step, base;
	uint8_t few;                      /* option few_windows */
	uint16_t react_seconds;
	uint16_t out;                     /* seats that are out (bits) */
	uint8_t listen[WG_SEATS];         /* kinds each seat listens to (bits of wg_kind) */
	uint32_t epoch;
	struct rng rng;
	struct prompts pr;
	int16_t chips[WG_SEATS];
	int16_t kitty;
	uint16_t deck[WG_CARDS], discard[WG_CARDS], removed[WG_CARDS];
	int ndeck, ndiscard, nremoved;
	uint16_t hand[WG_SEATS][WG_CARDS];
	int nhand[WG_SEATS];
	struct wg_inplay table[WG_TABLE];
	int ntable;
	struct wg_entry stack[WG_STACK];
	int nstack;
	struct wg_attack atk;
	int8_t winner;                    /* once over: the winner, or -1 (shared) */
	uint16_t tied;                    /* seats tied for most chips (bits), once known */
	int8_t place[WG_SEATS];           /* once over */
	struct evlog log;
};

/* ---- little helpers ----------------------------------------------------------- */

static int is_in(const struct wg_state *s, int seat)
{
	return seat >= 0 && seat < s->n && !((s->out >> seat) & 1u);
}

static uint32_t seats_in(const struct wg_state *s)
{
	return ((1u << s->n) - 1) & ~(uint32_t)s->out;
}

static struct game_event *logev(struct wg_state *s, int type, int seat)
{
	return evlog_push(&s->log, WG_LOG, type, seat);
}

/* Cards of passive p lying in front of seat. */
static int lying(const struct wg_state *s, int seat, int p)
{
	int k = 0;
	for (int i = 0; i < s->ntable; i++)
		k += s->table[i].holder == seat && card_passive[s->table[i].card % WG_CARDS] == p;
	return k;
}

/* The seats with a card of passive p in front of them (bits): one pass
 * over the table for all seats. */
static uint32_t holders_of(const struct wg_state *s, int p)
{
	uint32_t m = 0;
	for (int i = 0; i < s->ntable; i++)
		if (card_passive[s->table[i].card % WG_CARDS] == p && s->table[i].holder < 32)
			m |= 1u << s->table[i].holder;
	return m;
}

/* Takes table entry i away: its chips into the kitty, the card onto the
 * discard pile (or out of the game when `removed`). */
static void table_take(struct wg_state *s, int i, int removed)
{
	struct wg_inplay c = s->table[i];
	s->kitty = (int16_t)(s->kitty + c.chips);
	memmove(&s->table[i], &s->table[i + 1], sizeof c * (size_t)(s->ntable - i - 1));
	s->ntable--;
	if (removed)
		s->removed[s->nremoved++] = c.card;
	else
		s->discard[s->ndiscard++] = c.card;
}

/* Every card of passive p in front of seat goes to the discard pile. */
static void table_drop(struct wg_state *s, int seat, int p)
{
	for (int i = s->ntable - 1; i >= 0; i--)
		if (s->table[i].holder == seat && type_of(s->table[i].card)->passive == p)
			table_take(s, i, 0);
}

/* ---- chips ---------------------------------------------------------------------- */

/* Moves up to n chips from seat `from` to seat `to` (what `from` has; nothing
 * to a seat that is out). Returns how many moved. */
static int give(struct wg_state *s, int from, int to, int n)
{
	if (!is_in(s, to) || from == to || n <= 0)
		return 0;
	int k = s->chips[from] < n ? s->chips[from] : n;
	s->chips[from] = (int16_t)(s->chips[from] - k);
	s->chips[to] = (int16_t)(s->chips[to] + k);
	return k;
}

/* Seat pays up to n into the kitty. */
static int pay(struct wg_state *s, int seat, int n)
{
	int k = s->chips[seat] < n ? s->chips[seat] : n;
	if (k < 0)
		k = 0;
	s->chips[seat] = (int16_t)(s->chips[seat] - k);
	s->kitty = (int16_t)(s->kitty + k);
	return k;
}

/* Seat takes up to n from the kitty (nothing when it is out). */
static int take(struct wg_state *s, int seat, int n)
{
	if (!is_in(s, seat) || n <= 0)
		return 0;
	int k = s->kitty < n ? s->kitty : n;
	s->kitty = (int16_t)(s->kitty - k);
	s->chips[seat] = (int16_t)(s->chips[seat] + k);
	return k;
}

/* Several seats take `each` from the kitty at once: when it is short, one
 * chip at a time, clockwise from the active seat (rule "Pot"). each < 0:
 * until the kitty is empty. */
static void kitty_share(struct wg_state *s, uint32_t seats, int each)
{
	seats &= seats_in(s);
	for (int round = 0; seats && s->kitty > 0 && (each < 0 || round < each); round++)
		for (int k = 0; k < s->n && s->kitty > 0; k++) {
			int q = seat_from(s->active, k, s->n);
			if ((seats >> q) & 1u)
				take(s, q, 1);
		}
}

/* ---- cards ----------------------------------------------------------------------- */

/* Draws one card for seat; an empty deck is the discard pile, reshuffled.
 * 0, or -1 when there is no card anywhere. */
static int draw_one(struct wg_state *s, int seat)
{
	if (s->ndeck == 0 && s->ndiscard > 0) {
		memcpy(s->deck, s->discard, sizeof s->deck[0] * (size_t)s->ndiscard);
		s->ndeck = s->ndiscard;
		s->ndiscard = 0;
		rng_shuffle(&s->rng, s->deck, s->ndeck);
	}
	uint16_t c;
	if (pile_pop(s->deck, &s->ndeck, &c) != 0)
		return -1;
	s->hand[seat][s->nhand[seat]++] = c;
	return 0;
}

static int draw(struct wg_state *s, int seat, int n)
{
	int k = 0;
	while (k < n && draw_one(s, seat) == 0)
		k++;
	return k;
}

/* Index in seat's hand of a card of type t, or -1. */
static int hand_find_type(const struct wg_state *s, int seat, int t)
{
	for (int i = 0; i < s->nhand[seat]; i++)
		if (type_index(s->hand[seat][i]) == t)
			return i;
	return -1;
}

/* The kinds of card in seat's hand, as bits (one pass over the hand). */
_Static_assert(WG_TYPES <= 64, "kinds fit a 64-bit mask");
static uint64_t hand_types(const struct wg_state *s, int seat)
{
	uint64_t m = 0;
	for (int i = 0; i < s->nhand[seat]; i++)
		m |= 1ull << type_index(s->hand[seat][i]);
	return m;
}

/* Takes card i out of seat's hand. */
static uint16_t hand_take(struct wg_state *s, int seat, int i)
{
	uint16_t c = s->hand[seat][i];
	pile_remove_at(s->hand[seat], &s->nhand[seat], i);
	return c;
}

static uint16_t hand_take_random(struct wg_state *s, int seat)
{
	return hand_take(s, seat, (int)rng_below(&s->rng, (uint32_t)s->nhand[seat]));
}

/* ---- what a card does --------------------------------------------------------- */

/* The richest (or poorest) seat still in; ties go to the first clockwise
 * from the active seat. */
static int extreme(const struct wg_state *s, int most)
{
	int best = -1;
	for (int k = 0; k < s->n; k++) {
		int q = seat_from(s->active, k, s->n);
		if (!is_in(s, q))
			continue;
		if (best < 0 || (most ? s->chips[q] > s->chips[best] : s->chips[q] < s->chips[best]))
			best = q;
	}
	return best;
}

/* The effects that move chips. */
static void resolve_chips(struct wg_state *s, const struct wg_entry *x, const struct wg_type *t)
{
	int me = x->seat, tg = x->target, n = t->n;
	switch (t->effect) {
	case E_GAIN:
		take(s, me, n);
		return;
	case E_STEAL:
		give(s, tg, me, n);
		return;
	case E_FINE:
		pay(s, tg, n);
		return;
	case E_BIRTHDAY:
		for (int k = 1; k < s->n; k++)
			give(s, seat_from(me, k, s->n), me, n);
		return;
	case E_GANG:
		for (int k = 0; k < s->n; k++) {
			int q = seat_from(s->active, k, s->n);
			if (q != tg)
				give(s, tg, q, n);
		}
		return;
	case E_ROUND:
		kitty_share(s, seats_in(s), n);
		return;
	case E_GIVE:
		give(s, me, tg, n);
		return;
	case E_ROBIN:
		give(s, extreme(s, 1), extreme(s, 0), n);
		return;
	case E_MISPRINT:
		take(s, me, n);
		pay(s, me, n);
		return;
	case E_COIN: {
		int d = rng_die(&s->rng, 6);
		logev(s, EV_COIN, me)->arg = (uint8_t)d;
		if (d <= 3)
			pay(s, me, n);
		else
			take(s, me, n);
		return;
	}
	case E_MERCY:
		if (s->chips[tg] <= n)
			pay(s, tg, s->chips[tg]);
		return;
	case E_KICK:
		if (s->chips[tg] == n)
			pay(s, tg, n);
		return;
	default:
		return;
	}
}

/* The effects on hands and the discard pile. */
static void resolve_cards(struct wg_state *s, const struct wg_entry *x, const struct wg_type *t)
{
	int me = x->seat, tg = x->target;
	switch (t->effect) {
	case E_DRAW:
		logev(s, EV_DRAW, me)->arg = (uint8_t)draw(s, me, t->n);
		return;
	case E_PICKPOCKET:
		if (s->nhand[tg] > 0) {
			uint16_t c = hand_take_random(s, tg);
			s->hand[me][s->nhand[me]++] = c;
		}
		return;
	case E_RECALL:   /* the card itself lies on top by now: the one beneath it */
		if (s->ndiscard > 1 && s->discard[s->ndiscard - 1] == x->card) {
			uint16_t c = s->discard[s->ndiscard - 2];
			pile_remove_at(s->discard, &s->ndiscard, s->ndiscard - 2);
			s->hand[me][s->nhand[me]++] = c;
		}
		return;
	case E_DANCE: {
		int16_t pass[WG_SEATS];
		for (int q = 0; q < s->n; q++)
			pass[q] = (int16_t)(is_in(s, q) && s->nhand[q] > 0 ? hand_take_random(s, q) : -1);
		for (int q = 0; q < s->n; q++) {
			if (pass[q] < 0)
				continue;
			int to = q;
			do
				to = seat_next(to, s->n);
			while (!is_in(s, to));
			s->hand[to][s->nhand[to]++] = (uint16_t)pass[q];
		}
		return;
	}
	case E_TIDY:
		for (int k = 0; k < t->n && s->nhand[tg] > 0; k++)
			s->discard[s->ndiscard++] = hand_take_random(s, tg);
		return;
	default:
		return;
	}
}

/* The effects on the attack; nothing when it is no longer there. */
static void resolve_attack(struct wg_state *s, const struct wg_entry *x, const struct wg_type *t)
{
	struct wg_attack *a = &s->atk;
	int live = a->on == 1 || a->on == 2, rolled = a->on == 2;
	switch (t->effect) {
	case E_CALL_OFF:
		if (a->on == 1) {
			a->on = 0;
			logev(s, EV_CALLED, s->active);
		}
		return;
	case E_REDIRECT:
		if (a->on == 1 && x->target != s->active)
			a->target = x->target;
		return;
	case E_DOUBLE:
		if (live)
			a->doubled++;
		return;
	case E_REROLL:
		if (rolled) {
			a->die = (int8_t)rng_die(&s->rng, 6);
			logev(s, EV_ROLL, s->active)->arg = (uint8_t)a->die;
		}
		return;
	case E_MOD:
		if (rolled)
			a->mod = (int8_t)(a->mod + t->n);
		return;
	case E_FIX:
		if (rolled)
			a->die = x->face;
		return;
	case E_GLOAT:
		if (rolled)
			a->gloat |= (uint16_t)(1u << x->seat);
		return;
	default:
		return;
	}
}

/* The top entry of the stack leaves it and does what it says (or not,
 * when cancelled); then it goes to the discard pile, back to a hand, or
 * in front of a seat. A card whose seat or target is out by now does
 * nothing. */
static void resolve_top(struct wg_state *s)
{
	struct wg_entry x = s->stack[--s->nstack];
	const struct wg_type *t = type_of(x.card);
	int ok = x.fate == 0 && is_in(s, x.seat) && (t->target != T_SEAT || is_in(s, x.target));
	struct game_event *ev = logev(s, EV_RESOLVE, x.seat);
	ev->card = x.card;
	ev->arg = x.fate;
	if (x.fate == 2 && is_in(s, x.seat)) {
		s->hand[x.seat][s->nhand[x.seat]++] = x.card;
		return;
	}
	if (ok && t->effect == E_STAYS && s->ntable < WG_TABLE) {
		int holder = t->target == T_SEAT ? x.target : x.seat;
		s->table[s->ntable++] = (struct wg_inplay){ x.card, (uint8_t)holder, 0 };
		return;
	}
	s->discard[s->ndiscard++] = x.card;
	if (!ok)
		return;
	if (t->effect == E_COUNTER || t->effect == E_BOUNCE) {
		if (s->nstack > 0 && !(type_of(s->stack[s->nstack - 1].card)->flags & F_UNSTOPPABLE))
			s->stack[s->nstack - 1].fate = t->effect == E_BOUNCE ? 2 : 1;
		take(s, x.seat, t->n);
	} else if (t->effect == E_WRECK) {
		for (int i = 0; i < s->ntable; i++)
			if (s->table[i].card == x.tcard) {
				table_take(s, i, 0);
				break;
			}
	}
	resolve_chips(s, &x, t);
	resolve_cards(s, &x, t);
	resolve_attack(s, &x, t);
}

static void resolve_stack(struct wg_state *s)
{
	while (s->nstack > 0)
		resolve_top(s);
}

/* ---- the attack ------------------------------------------------------------------ */

/* What the die counts for the attacker: the face, what cards added, its
 * lucky charms and losing streaks. */
static int attack_total(const struct wg_state *s)
{
	if (s->atk.on == 3)   /* settled: settle() kept what counted */
		return s->atk.die + s->atk.mod;
	return s->atk.die + s->atk.mod + lying(s, s->active, P_LUCKY) - lying(s, s->active, P_JINX);
}

/* The roll is final: higher than the demand wins it (or what the target
 * has), doubled per "Doppelt oder nichts", at most 1 through a shield;
 * otherwise spikes, gloats and double-or-nothing cost the attacker. */
static void settle(struct wg_state *s)
{
	struct wg_attack *a = &s->atk;
	int me = s->active, tg = a->target, total = attack_total(s);
	/* what counted stays what is shown: a charm laid or removed later
	 * changes no settled total */
	a->mod = (int8_t)(total - a->die);
	a->on = 3;
	if (total > a->demand) {
		int want = a->demand << (a->doubled > 4 ? 4 : a->doubled);
		if (lying(s, tg, P_SHIELD) > 0) {
			want = want > 1 ? 1 : want;
			for (int i = 0; i < s->ntable; i++)
				if (s->table[i].holder == tg &&
				    type_of(s->table[i].card)->passive == P_SHIELD) {
					table_take(s, i, 0);
					break;
				}
		}
		int won = give(s, tg, me, want);
		take(s, me, lying(s, me, P_POSE));
		struct game_event *ev = logev(s, EV_WON, me);
		ev->where = (uint8_t)tg;
		ev->arg = (uint8_t)won;
		return;
	}
	struct game_event *ev = logev(s, EV_FAILED, me);
	ev->where = (uint8_t)tg;
	ev->arg = (uint8_t)(total < 0 ? 0 : total);
	if (a->doubled)
		give(s, me, tg, a->demand * a->doubled);
	give(s, me, tg, lying(s, tg, P_SPIKES));
	for (int k = 0; k < s->n; k++) {
		int q = seat_from(me, k, s->n);
		if ((a->gloat >> q) & 1u)
			give(s, me, q, 1);
	}
	table_drop(s, me, P_POSE);
}

/* ---- the flow --------------------------------------------------------------------- */

static void continue_from(struct wg_state *s, int base, int64_t now);
static void start_final(struct wg_state *s, int64_t now);

/* A prompt's clock: from now, or, when the party is being dealt (now < 0),
 * from the first tick (the platform's, at the deal). */
static void clock_from(struct prompt *p, int seconds, int64_t now)
{
	if (now < 0)
		prompt_later(p, seconds);
	else
		p->deadline = deadline_after(now, seconds);
}

/* The seats a window after a step of `kind` by `actor` is for: everyone
 * still in who listens to that kind and may play cards (no muzzle); after
 * a card, not the seat who played it. Decided by the kind of step and the
 * public cards in play, never by a hand. */
static uint32_t window_seats(const struct wg_state *s, int kind, int actor)
{
	uint32_t m = 0, muzzled = holders_of(s, P_MUZZLE);
	for (int q = 0; q < s->n; q++)
		if (is_in(s, q) && ((s->listen[q] >> kind) & 1u) && !((muzzled >> q) & 1u) &&
		    !(kind == K_CARD && q == actor))
			m |= 1u << q;
	return m;
}

/* Opens a reaction window of `kind` after `actor`'s step or card (replacing
 * an open one). 1, or 0 when nobody listens. */
static int open_window(struct wg_state *s, int base, int kind, int actor, int64_t now)
{
	if (prompt_kind(&s->pr) == PR_REACT)
		prompt_pop(&s->pr);
	uint32_t seats = window_seats(s, kind, actor);
	s->base = (uint8_t)base;
	if (!seats)
		return 0;
	struct prompt *p = prompt_push(&s->pr, PR_REACT, seats);
	p->flags |= PROMPT_WINDOW;
	p->owner = (int8_t)actor;
	p->arg = (uint8_t)kind;
	clock_from(p, s->react_seconds, now);
	return 1;
}

/* After a step: its window, or straight on when nobody listens. */
static void step_done(struct wg_state *s, int base, int kind, int64_t now)
{
	if (!open_window(s, base, kind, s->active, now))
		continue_from(s, base, now);
}

/* The window is over (everyone passed, or its deadline): the stack
 * resolves, top first, and the turn goes on. */
static void close_window(struct wg_state *s, int64_t now)
{
	if (prompt_kind(&s->pr) == PR_REACT)
		prompt_pop(&s->pr);
	resolve_stack(s);
	s->epoch++;
	/* in the last round play goes on: whoever is still in gets the
	 * reaction time again to play a card or say done */
	struct prompt *fin = prompt_top(&s->pr);
	if (fin && fin->kind == PR_FINAL)
		clock_from(fin, s->react_seconds, now);
	continue_from(s, s->base, now);
}

/* A seat's turn: collect its tolls, ante (onto another seat's toll if one
 * lies), feed its piggy banks, then the ante's window. */
static void start_turn(struct wg_state *s, int seat, int64_t now)
{
	s->active = (uint8_t)seat;
	s->step = ST_ATTACK;
	memset(&s->atk, 0, sizeof s->atk);
	prompt_clear(&s->pr);
	prompt_push(&s->pr, PR_TURN, 1u << seat)->owner = (int8_t)seat;
	for (int i = s->ntable - 1; i >= 0; i--)
		if (s->table[i].holder == seat && type_of(s->table[i].card)->passive == P_TOLL) {
			s->chips[seat] = (int16_t)(s->chips[seat] + s->table[i].chips);
			s->table[i].chips = 0;
			table_take(s, i, 0);
		}
	struct game_event *ev = logev(s, EV_TURN, seat);
	ev->where = EVENT_NOBODY;
	int toll = -1;
	for (int i = 0; i < s->ntable && toll < 0; i++)
		if (s->table[i].holder != seat && type_of(s->table[i].card)->passive == P_TOLL)
			toll = i;
	if (toll >= 0 && s->chips[seat] > 0) {
		s->chips[seat]--;
		s->table[toll].chips++;
		ev->where = s->table[toll].holder;
	} else {
		pay(s, seat, 1);
	}
	for (int i = s->ntable - 1; i >= 0; i--) {
		struct wg_inplay *c = &s->table[i];
		if (c->holder != seat || type_of(c->card)->passive != P_PIGGY)
			continue;
		if (s->chips[seat] > 0) {
			s->chips[seat]--;
			c->chips++;
		}
		if (c->chips >= 3) {
			s->chips[seat] = (int16_t)(s->chips[seat] + c->chips);
			c->chips = 0;
			table_take(s, i, 0);
			take(s, seat, 3);
		}
	}
	s->epoch++;
	step_done(s, B_ANTE, K_ANTE, now);
}

/* The end of the active seat's turn, its window closed: its losing streaks,
 * muzzles and kibitzers go; every seat without chips is out (its cards
 * leave the game), and then the end begins; else the next seat's turn. */
static void end_turn(struct wg_state *s, int64_t now)
{
	int a = s->active;
	table_drop(s, a, P_JINX);
	table_drop(s, a, P_MUZZLE);
	table_drop(s, a, P_KIBITZ);
	for (int q = 0; q < s->n; q++) {
		if (!is_in(s, q) || s->chips[q] > 0)
			continue;
		s->out |= (uint16_t)(1u << q);
		while (s->nhand[q] > 0)
			s->removed[s->nremoved++] = hand_take(s, q, s->nhand[q] - 1);
		for (int i = s->ntable - 1; i >= 0; i--)
			if (s->table[i].holder == q)
				table_take(s, i, 1);
		logev(s, EV_OUT, q);
	}
	if (s->out) {
		start_final(s, now);
		return;
	}
	start_turn(s, seat_next(a, s->n), now);
}

/* What follows a step once its window has closed. */
static void continue_from(struct wg_state *s, int base, int64_t now)
{
	switch (base) {
	case B_ANTE:
		logev(s, EV_DRAW, s->active)->arg = (uint8_t)draw(s, s->active, 1);
		step_done(s, B_DRAW, K_DRAW, now);
		return;
	case B_ATTACK:
		if (s->atk.on != 1) {
			s->step = ST_AFTER;
			return;
		}
		s->atk.on = 2;
		s->atk.die = (int8_t)rng_die(&s->rng, 6);
		logev(s, EV_ROLL, s->active)->arg = (uint8_t)s->atk.die;
		step_done(s, B_ROLL, K_ROLL, now);
		return;
	case B_ROLL:
		if (s->atk.on == 2)
			settle(s);
		s->step = ST_AFTER;
		return;
	case B_END:
		if (s->nhand[s->active] > WG_HAND_LIMIT) {
			s->step = ST_LAST_DISCARD;   /* a card in the window drew cards */
			return;
		}
		end_turn(s, now);
		return;
	default:   /* B_DRAW, B_PLAY: back to the turn or the last round */
		return;
	}
}

/* The party is decided: the winner takes the kitty; places by chips, the
 * winner (or the seats sharing) first. */
static void finish(struct wg_state *s, int winner)
{
	prompt_clear(&s->pr);
	s->winner = (int8_t)winner;
	if (winner >= 0) {
		struct game_event *ev = logev(s, EV_WINNER, winner);
		ev->num = (uint16_t)s->kitty;
		s->chips[winner] = (int16_t)(s->chips[winner] + s->kitty);
		s->kitty = 0;
		ev->arg = (uint8_t)(s->chips[winner] > 255 ? 255 : s->chips[winner]);
	} else {
		uint16_t out = s->out;
		s->out = seats_in(s) ? out : 0;   /* nobody in: the tied seats share all the same */
		kitty_share(s, s->tied, -1);
		s->out = out;
		logev(s, EV_SHARED, -1)->num = s->tied;
	}
	uint32_t first = winner >= 0 ? 1u << winner : s->tied;
	int nfirst = __builtin_popcount(first);
	for (int q = 0; q < s->n; q++) {
		if ((first >> q) & 1u) {
			s->place[q] = 1;
			continue;
		}
		int better = 0;
		for (int r = 0; r < s->n; r++)
			better += !((first >> r) & 1u) && s->chips[r] > s->chips[q];
		s->place[q] = (int8_t)(1 + nfirst + better);
	}
	s->epoch++;
}

/* Everyone has played cards once more: most chips wins; a tie waits for
 * the first shout of anyone still in (everyone, when nobody is). */
static void count_up(struct wg_state *s, int64_t now)
{
	int best = -1;
	uint32_t in = seats_in(s), who = in ? in : (1u << s->n) - 1;
	s->tied = 0;
	for (int q = 0; q < s->n; q++)
		if ((who >> q) & 1u && s->chips[q] > best)
			best = s->chips[q];
	for (int q = 0; q < s->n; q++)
		if ((who >> q) & 1u && s->chips[q] == best)
			s->tied |= (uint16_t)(1u << q);
	if (__builtin_popcount(s->tied) == 1) {
		finish(s, __builtin_ctz(s->tied));
		return;
	}
	prompt_clear(&s->pr);
	struct prompt *p = prompt_push(&s->pr, PR_SHOUT, who);
	clock_from(p, s->react_seconds, now);
	logev(s, EV_TIE, -1)->num = s->tied;
	s->epoch++;
}

/* Someone is out: everyone still in may play cards once more (until they
 * say `done`, or the reaction deadline). */
static void start_final(struct wg_state *s, int64_t now)
{
	prompt_clear(&s->pr);
	memset(&s->atk, 0, sizeof s->atk);
	/* No turn comes any more: the cards that pay out at a turn's start pay
	 * their holders now ("die Effekte dauerhafter Karten nutzen"), and the
	 * ones that last until their holder's turn ends go. */
	for (int i = s->ntable - 1; i >= 0; i--) {
		struct wg_inplay *c = &s->table[i];
		int p = type_of(c->card)->passive;
		if (p == P_PIGGY || p == P_TOLL) {
			s->chips[c->holder] = (int16_t)(s->chips[c->holder] + c->chips);
			c->chips = 0;
			table_take(s, i, 0);
		} else if (p == P_JINX || p == P_MUZZLE || p == P_KIBITZ) {
			table_take(s, i, 0);
		}
	}
	logev(s, EV_FINAL, -1);
	s->epoch++;
	if (!seats_in(s)) {
		count_up(s, now);
		return;
	}
	clock_from(prompt_push(&s->pr, PR_FINAL, seats_in(s)), s->react_seconds, now);
}

/* ---- setup -------------------------------------------------------------------------- */

static int wg_parties(int nplayers, const int *opt)
{
	(void)nplayers;
	return opt[O_PARTIES];
}

/* 100 cards shuffled, 4 to each seat, 12 chips each; the dealer of the
 * party (the platform's choice: the last winner at this table, else by
 * lot) starts. */
static int wg_setup(void *st, const struct setup *su, struct rerr *e)
{
	struct wg_state *s = st;
	(void)e;
	memset(s, 0, sizeof *s);
	s->n = (uint8_t)su->nplayers;
	s->react_seconds = (uint16_t)su->opt[O_REACT_SECONDS];
	s->few = (uint8_t)su->opt[O_FEW_WINDOWS];
	s->parties = (uint8_t)su->opt[O_PARTIES];
	s->winner = -1;
	rng_seed(&s->rng, su->seed);
	for (int i = 0; i < WG_CARDS; i++)
		s->deck[i] = (uint16_t)i;
	s->ndeck = WG_CARDS;
	rng_shuffle(&s->rng, s->deck, s->ndeck);
	for (int q = 0; q < s->n; q++) {
		s->chips[q] = WG_START_CHIPS;
		s->listen[q] = s->few ? LISTEN_FEW : LISTEN_ALL;
	}
	for (int i = 0; i < WG_START_HAND * s->n; i++)
		draw_one(s, deal_seat(su->dealer, i, s->n));
	start_turn(s, su->dealer, -1);
	return 0;
}

/* ---- moves ------------------------------------------------------------------------------ */

enum wg_verb { V_PLAY, V_PASS, V_ATTACK, V_END, V_DISCARD, V_DONE, V_SHOUT, V_REACT, V__MAX };
static const struct mt_verb wg_verbs[V__MAX] = {
	[V_PLAY] = { "play", NULL, 2, 4, 0, NULL, N_("So spielst du eine Karte: play KARTE, "
		     "mit Ziel play KARTE PLATZ, z. B. play langfinger 2."),
		     "play KARTE [PLATZ|AUGEN] [KARTE]", "play langfinger 2" },
	[V_PASS] = { "pass", NULL, 1, 1, 0, NULL, N_("pass steht allein: du reagierst nicht."),
		     "pass", "pass" },
	[V_ATTACK] = { "attack", NULL, 3, 3, 0, NULL, N_("So greifst du an: attack PLATZ "
		       "CHIPS, z. B. attack 2 3."), "attack PLATZ CHIPS", "attack 2 3" },
	[V_END] = { "end", NULL, 1, 1, 0, NULL, N_("end steht allein: dein Zug ist zu Ende."),
		    "end", "end" },
	[V_DISCARD] = { "discard", NULL, 2, 2, 0, NULL, N_("So wirfst du eine Karte ab: "
			"discard KARTE, z. B. discard kaputt."),
			"discard KARTE", "discard kaputt" },
	[V_DONE] = { "done", NULL, 1, 1, 0, NULL,
		     N_("done steht allein: du spielst keine Karte mehr."), "done", "done" },
	[V_SHOUT] = { "shout", NULL, 1, 1, 0, NULL, N_("shout steht allein: „Worst Game Ever!“"),
		      "shout", "shout" },
	[V_REACT] = { "react", NULL, 2, 7, 0, NULL, N_("So wählst du, wann du gefragt wirst: "
		      "react all, react none oder react mit Schritten aus ante draw attack roll "
		      "card end, z. B. react attack roll card."),
		      "react all|none|SCHRITT [SCHRITT …]", "react attack roll card" },
};

/* One move, checked. */
struct wg_move {
	int verb;
	int type;          /* play, discard: the card's type */
	int hand_at;       /* play, discard: its place in the hand */
	int seat, num;     /* attack: target, demand; play: target seat, face */
	uint16_t tcard;    /* play on a card in play */
	uint8_t mask;      /* react */
};

/* Where seat may play a card now: the window's base, B_PLAY on its own
 * turn or in the last round; -1 when it may not (with why in e). */
static int play_base(const struct wg_state *s, int seat, struct rerr *e)
{
	const struct prompt *p = prompt_peek(&s->pr);
	if (lying(s, seat, P_MUZZLE))
		return rerr_set(e, "Du trägst einen Maulkorb: keine Karten bis zum Ende deines Zuges.");
	switch (p ? p->kind : 0) {
	case PR_REACT:
		if (!prompt_waits(&s->pr, seat) && ((p->seats >> seat) & 1u))
			return rerr_set(e, "Du hast in diesem Fenster schon gepasst.");
		if (!prompt_waits(&s->pr, seat))
			return rerr_set(e, "Dieses Reaktionsfenster ist nicht für dich.");
		return s->base;
	case PR_TURN:
		if (seat != s->active)
			return rerr_set(e, "Karten spielst du, wenn ein Reaktionsfenster für dich offen "
					"ist, oder in deinem Zug.");
		if (s->step >= ST_DISCARD)
			return rerr_set(e, "Erst abwerfen: höchstens %d Karten am Ende des Zuges.",
					WG_HAND_LIMIT);
		return B_PLAY;
	case PR_FINAL:
		if (!prompt_waits(&s->pr, seat) && ((p->seats >> seat) & 1u))
			return rerr_set(e, "Du bist schon fertig.");
		if (!prompt_waits(&s->pr, seat))
			return rerr_set(e, "Du bist ausgeschieden.");
		return B_PLAY;
	default:
		return rerr_set(e, "Jetzt spielt niemand Karten.");
	}
}

/* Whether a card of type t may be played at base now. */
static int when_ok(const struct wg_state *s, const struct wg_type *t, int base, struct rerr *e)
{
	int react = prompt_kind(&s->pr) == PR_REACT;
	if (t->when & W_ANY)
		return 0;
	if ((t->when & W_ATTACK) && react && base == B_ATTACK && s->atk.on == 1)
		return 0;
	if ((t->when & W_ROLL) && react && base == B_ROLL && s->atk.on == 2)
		return 0;
	if ((t->when & W_END) && react && base == B_END)
		return 0;
	if ((t->when & W_COUNTER) && s->nstack > 0) {
		if (type_of(s->stack[s->nstack - 1].card)->flags & F_UNSTOPPABLE)
			return rerr_set(e, "%s kann keine Karte verhindern.",
					type_of(s->stack[s->nstack - 1].card)->name);
		return 0;
	}
	if (t->when == W_COUNTER)
		return rerr_set(e, "Auf dem Stapel liegt keine Karte, auf die %s antworten könnte.",
				t->name);
	return rerr_set(e, "%s: %s", t->name, t->text);
}

/* A seat other than `me` that is still in, from word w. */
static int read_seat(const struct wg_state *s, int me, const char *w, int *out, struct rerr *e)
{
	if (mt_int(w, 0, WG_SEATS - 1, out) != 0 || *out >= s->n)
		return rerr_set(e, "'%s' ist kein Platz an diesem Tisch.", w);
	if (*out == me)
		return rerr_set(e, "Wähle eine andere Person als dich.");
	if (!is_in(s, *out))
		return rerr_set(e, "@%d ist ausgeschieden.", *out);
	return 0;
}

/* What a card needs named, when a move names something else. */
static int target_usage(const struct wg_type *ty, struct rerr *e)
{
	switch (ty->target) {
	case T_NONE:
		return rerr_set(e, "%s braucht kein Ziel: play %s.", ty->name, ty->slug);
	case T_SEAT:
		return rerr_set(e, "%s braucht eine Person: play %s PLATZ.", ty->name, ty->slug);
	case T_FACE:
		return rerr_set(e, "%s braucht eine Augenzahl: play %s AUGEN.", ty->name, ty->slug);
	default:
		return rerr_set(e, "%s braucht eine ausliegende Karte: play %s PLATZ KARTE.",
				ty->name, ty->slug);
	}
}

/* The target words of `play KARTE …` for card type t. */
static int parse_target(const struct wg_state *s, int seat, const struct mtok *t, int type,
			struct wg_move *m, struct rerr *e)
{
	const struct wg_type *ty = &wg_types[type];
	static const int want[T__MAX] = { 2, 3, 3, 4 };
	if (t->n != want[ty->target])
		return target_usage(ty, e);
	m->seat = -1;
	m->tcard = EVENT_NO_CARD;
	switch (ty->target) {
	case T_SEAT:
		if (read_seat(s, seat, t->w[2], &m->seat, e) != 0)
			return -1;
		if (ty->effect == E_REDIRECT && m->seat == s->active)
			return rerr_set(e, "Der Angriff kann sich nicht gegen den Angreifer richten.");
		return 0;
	case T_FACE:
		if (mt_int(t->w[2], 1, 6, &m->num) != 0)
			return rerr_set(e, "Ein Würfel zeigt 1 bis 6, nicht '%s'.", t->w[2]);
		return 0;
	case T_INPLAY: {
		int holder, tt = type_by_slug(t->w[3]);
		if (mt_int(t->w[2], 0, WG_SEATS - 1, &holder) != 0 || !is_in(s, holder))
			return rerr_set(e, "'%s' ist kein Platz, der noch dabei ist.", t->w[2]);
		for (int i = 0; i < s->ntable; i++)
			if (s->table[i].holder == holder && type_index(s->table[i].card) == tt) {
				m->seat = holder;
				m->tcard = s->table[i].card;
				return 0;
			}
		return rerr_set(e, "Vor @%d liegt keine solche Karte.", holder);
	}
	default:
		return 0;
	}
}

static int parse_play(const struct wg_state *s, int seat, const struct mtok *t,
		      struct wg_move *m, struct rerr *e)
{
	char q[4 * MT_QUOTE_CHARS + 1];
	int type = type_by_slug(t->w[1]);
	if (type < 0)
		return rerr_set(e, "Eine Karte '%s' gibt es nicht.",
				mt_clip(q, sizeof q, t->w[1], MT_QUOTE_CHARS));
	int base = play_base(s, seat, e);
	/* a seat that passed in this window: the card's own reasons first,
	 * then that it passed */
	const struct prompt *p = prompt_peek(&s->pr);
	int passed = base < 0 && p && p->kind == PR_REACT && ((p->seats >> seat) & 1u);
	if (base < 0 && !passed)
		return -1;
	struct rerr why = *e;
	m->type = type;
	if ((m->hand_at = hand_find_type(s, seat, type)) < 0)
		return rerr_set(e, "%s hast du nicht auf der Hand.", wg_types[type].name);
	if (when_ok(s, &wg_types[type], passed ? s->base : base, e) != 0 ||
	    parse_target(s, seat, t, type, m, e) != 0)
		return -1;
	if (passed)
		*e = why;
	return passed ? -1 : 0;
}

static int parse_react(const struct mtok *t, struct wg_move *m, struct rerr *e)
{
	m->mask = 0;
	if (t->n == 2 && (mt_is(t, 1, "all") || mt_is(t, 1, "none"))) {
		m->mask = mt_is(t, 1, "all") ? LISTEN_ALL : 0;
		return 0;
	}
	for (int i = 1; i < t->n; i++) {
		int k = 0;
		while (k < K__MAX && !mt_is(t, i, kind_word[k]))
			k++;
		if (k == K__MAX)
			return rerr_set(e, "%s", wg_verbs[V_REACT].usage);
		m->mask |= (uint8_t)(1u << k);
	}
	return 0;
}

/* The turn's own moves: only the active seat, at the right step. */
static int turn_step(const struct wg_state *s, int seat, int step, struct rerr *e)
{
	static const char *const what[ST__MAX] = {
		N_("Erst greifst du an."),
		N_("Du hast schon angegriffen: spiele Karten oder beende deinen Zug (end)."),
		N_("Erst abwerfen."), N_("Erst abwerfen.")
	};
	if (prompt_kind(&s->pr) == PR_REACT && prompt_find((struct prompts *)&s->pr, PR_TURN) &&
	    seat == s->active)
		return rerr_set(e, "Erst schließt das Reaktionsfenster.");
	if (prompt_kind(&s->pr) != PR_TURN || seat != s->active)
		return rerr_set(e, "Du bist nicht am Zug.");
	if (s->step != step)
		return rerr_set(e, "%s", what[s->step]);
	return 0;
}

static int parse_rest(const struct wg_state *s, int seat, const struct mtok *t,
		      struct wg_move *m, struct rerr *e)
{
	switch (m->verb) {
	case V_PASS:
		if (prompt_kind(&s->pr) != PR_REACT)
			return rerr_set(e, "Gerade ist kein Reaktionsfenster offen.");
		if (!prompt_waits(&s->pr, seat) && ((prompt_peek(&s->pr)->seats >> seat) & 1u))
			return rerr_set(e, "Du hast in diesem Fenster schon gepasst.");
		if (!prompt_waits(&s->pr, seat))
			return rerr_set(e, "Dieses Reaktionsfenster ist nicht für dich.");
		return 0;
	case V_ATTACK:
		if (turn_step(s, seat, ST_ATTACK, e) != 0 ||
		    read_seat(s, seat, t->w[1], &m->seat, e) != 0)
			return -1;
		if (mt_int(t->w[2], 1, WG_DEMAND_MAX, &m->num) != 0)
			return rerr_set(e, "Fordere 1 bis %d Chips, nicht '%s'.", WG_DEMAND_MAX,
					t->w[2]);
		return 0;
	case V_END:
		return turn_step(s, seat, ST_AFTER, e);
	case V_DISCARD:
		if (turn_step(s, seat, s->step == ST_LAST_DISCARD ? ST_LAST_DISCARD : ST_DISCARD, e) != 0)
			return -1;
		if ((m->type = type_by_slug(t->w[1])) < 0 ||
		    (m->hand_at = hand_find_type(s, seat, m->type)) < 0)
			return rerr_set(e, "Diese Karte hast du nicht auf der Hand.");
		return 0;
	case V_DONE:
		if (prompt_kind(&s->pr) != PR_FINAL)
			return rerr_set(e, "done gibt es nur in der letzten Runde.");
		if (!prompt_waits(&s->pr, seat) && is_in(s, seat))
			return rerr_set(e, "Du bist schon fertig.");
		if (!prompt_waits(&s->pr, seat))
			return rerr_set(e, "Du bist ausgeschieden.");
		return 0;
	case V_SHOUT: {
		const struct prompt *p = prompt_peek(&s->pr);
		if (!p && s->winner >= 0 && __builtin_popcount(s->tied) > 1)
			return rerr_set(e, "Zu spät: @%d hat zuerst gerufen.", s->winner);
		if (!p)
			return rerr_set(e, "Die Partie ist schon vorbei.");
		if (p->kind != PR_SHOUT)
			return rerr_set(e, "Gerufen wird nur bei Gleichstand am Ende.");
		if (!((p->seats >> seat) & 1u))
			return rerr_set(e, "Du bist ausgeschieden.");
		return 0;
	}
	default:   /* V_REACT */
		return parse_react(t, m, e);
	}
}

static int parse_move(const struct wg_state *s, int seat, const char *text, struct wg_move *m,
		      struct rerr *e)
{
	struct mtok t;
	memset(m, 0, sizeof *m);
	if (seat < 0 || seat >= s->n)
		return rerr_set(e, "Diesen Platz gibt es an diesem Tisch nicht.");
	if (mt_split(text, &t, e) != 0)
		return -1;
	if ((m->verb = mt_verb(wg_verbs, V__MAX, &t, e)) < 0 || mt_form(&wg_verbs[m->verb], &t, e) != 0)
		return -1;
	if (s->pr.n == 0 && m->verb != V_SHOUT)
		return rerr_set(e, "Die Partie ist schon vorbei.");
	if (m->verb == V_PLAY)
		return parse_play(s, seat, &t, m, e);
	return parse_rest(s, seat, &t, m, e);
}

/* A card leaves seat's hand for the stack; the others may answer it. */
static void play_card(struct wg_state *s, int seat, const struct wg_move *m, int64_t now)
{
	int base = prompt_kind(&s->pr) == PR_REACT ? s->base : B_PLAY;
	const struct wg_type *t = &wg_types[m->type];
	struct wg_entry *x = &s->stack[s->nstack++];
	x->card = hand_take(s, seat, m->hand_at);
	x->seat = (int8_t)seat;
	x->target = (int8_t)(t->target == T_SEAT || t->target == T_INPLAY ? m->seat : -1);
	x->face = (int8_t)(t->target == T_FACE ? m->num : 0);
	x->fate = 0;
	x->tcard = m->tcard;
	struct game_event *ev = logev(s, EV_PLAY, seat);
	ev->card = x->card;
	ev->where = x->target >= 0 ? (uint8_t)x->target : EVENT_NOBODY;
	ev->arg = (uint8_t)x->face;
	s->epoch++;
	if (!open_window(s, base, K_CARD, seat, now))
		close_window(s, now);
}

static int wg_apply(void *st, int seat, const char *text, int64_t now, struct rerr *e)
{
	struct wg_state *s = st;
	struct wg_move m;
	if (parse_move(s, seat, text, &m, e) != 0)
		return -1;
	prompt_start(&s->pr, now);
	switch (m.verb) {
	case V_PLAY:
		play_card(s, seat, &m, now);
		return 0;
	case V_PASS:
		if (prompt_done(&s->pr, seat))
			close_window(s, now);
		return 0;
	case V_ATTACK: {
		s->atk = (struct wg_attack){ .on = 1, .target = (int8_t)m.seat,
					     .demand = (uint8_t)m.num };
		struct game_event *ev = logev(s, EV_ATTACK, seat);
		ev->where = (uint8_t)m.seat;
		ev->arg = (uint8_t)m.num;
		s->epoch++;
		step_done(s, B_ATTACK, K_ATTACK, now);
		return 0;
	}
	case V_END:
		s->epoch++;
		if (s->nhand[seat] > WG_HAND_LIMIT)
			s->step = ST_DISCARD;
		else
			step_done(s, B_END, K_END, now);
		return 0;
	case V_DISCARD: {
		uint16_t c = hand_take(s, seat, m.hand_at);
		s->discard[s->ndiscard++] = c;
		logev(s, EV_PASSOUT, seat)->card = c;
		s->epoch++;
		if (s->nhand[seat] <= WG_HAND_LIMIT && s->step == ST_LAST_DISCARD)
			end_turn(s, now);
		else if (s->nhand[seat] <= WG_HAND_LIMIT)
			step_done(s, B_END, K_END, now);
		return 0;
	}
	case V_DONE:
		if (prompt_done(&s->pr, seat))
			count_up(s, now);
		return 0;
	case V_SHOUT:
		logev(s, EV_SHOUT, seat);
		finish(s, seat);
		return 0;
	default:   /* V_REACT: the seat's standing choice, for windows still to open */
		s->listen[seat] = m.mask;
		return 0;
	}
}

/* A deadline passed: the window closes (whoever did not answer passed),
 * the last round is over, nobody shouted (the tied seats share). */
static void wg_expire(void *st, struct prompt *p, int64_t now)
{
	struct wg_state *s = st;
	switch (p->kind) {
	case PR_REACT:
		close_window(s, now);
		return;
	case PR_FINAL:
		count_up(s, now);
		return;
	case PR_SHOUT:
		finish(s, -1);
		return;
	default:
		return;
	}
}

static int wg_tick(void *st, int64_t now)
{
	struct wg_state *s = st;
	return prompt_tick(&s->pr, now, wg_expire, s);
}

static void wg_status(const void *st, struct status *o)
{
	const struct wg_state *s = st;
	memset(o, 0, sizeof *o);
	prompt_status(&s->pr, o);
	int over = s->pr.n == 0;
	o->over = over;
	o->turn = prompt_owner(&s->pr, PR_TURN);
	o->epoch = s->epoch;
	for (int q = 0; q < s->n; q++)
		o->score[q] = s->chips[q];
	for (int q = 0; over && q < s->n; q++)   /* else they stay 0 */
		o->place[q] = s->place[q];
}

/* What the live prompt asks (game.h, doing): public, the same for all. */
static const char *wg_doing(const void *st)
{
	static const char *const step_text[ST__MAX] = {
		[ST_ATTACK] = N_("Karten spielen und angreifen"),
		[ST_AFTER] = N_("Karten spielen oder den Zug beenden"),
		[ST_DISCARD] = N_("abwerfen"),
		[ST_LAST_DISCARD] = N_("abwerfen"),
	};
	const struct wg_state *s = st;
	switch (prompt_kind(&s->pr)) {
	case PR_TURN:
		return s->step < ST__MAX ? step_text[s->step] : NULL;
	case PR_REACT:
		return N_("reagieren oder passen");
	case PR_FINAL:
		return N_("letzte Karten spielen");
	case PR_SHOUT:
		return N_("„Worst Game Ever!“ rufen");
	default:
		return NULL;
	}
}

/* ---- the legal moves ------------------------------------------------------------ */

/* Seats and die faces as move words, so that listing moves formats no
 * numbers. */
static const char *const digit_word[10] = { "0", "1", "2", "3", "4", "5", "6", "7", "8", "9" };
_Static_assert(WG_SEATS <= 10 && WG_DEMAND_MAX < 10, "seats and demands are one digit");

/* Appends " w" to the move text m of length len; returns the new length.
 * The moves listed here are a verb and at most three short words, far
 * below GAME_MOVE_MAX, spelled as mt_spell() would spell them. */
static size_t add_word(char *m, size_t len, const char *w)
{
	size_t n = strlen(w);
	m[len++] = ' ';
	memcpy(m + len, w, n + 1);
	return len + n;
}

/* Every way to play a card of type t now, spelled. */
static int emit_plays_of(const struct wg_state *s, int seat, int t, move_emit_fn emit, void *ctx)
{
	const struct wg_type *ty = &wg_types[t];
	char m[GAME_MOVE_MAX + 1];
	int k = 0;
	memcpy(m, "play", 5);
	size_t len = add_word(m, 4, ty->slug);
	switch (ty->target) {
	case T_NONE:
		emit(ctx, m);
		return 1;
	case T_SEAT:
		for (int q = 0; q < s->n; q++) {
			if (q == seat || !is_in(s, q) || (ty->effect == E_REDIRECT && q == s->active))
				continue;
			add_word(m, len, digit_word[q]);
			emit(ctx, m);
			k++;
		}
		return k;
	case T_FACE:
		for (int f = 1; f <= 6; f++) {
			add_word(m, len, digit_word[f]);
			emit(ctx, m);
			k++;
		}
		return k;
	default:   /* T_INPLAY: each kind of card in front of each seat, once */
		for (int i = 0; i < s->ntable; i++) {
			int tt = type_index(s->table[i].card), dup = 0;
			for (int j = 0; j < i; j++)
				dup |= s->table[j].holder == s->table[i].holder &&
				       type_index(s->table[j].card) == tt;
			if (dup)
				continue;
			add_word(m, add_word(m, len, digit_word[s->table[i].holder]),
				 wg_types[tt].slug);
			emit(ctx, m);
			k++;
		}
		return k;
	}
}

/* Every card seat may play now, each kind once. No error texts: nobody
 * reads why a card is not listed. */
static int emit_plays(const struct wg_state *s, int seat, move_emit_fn emit, void *ctx)
{
	int base = play_base(s, seat, NULL), k = 0;
	if (base < 0)
		return 0;
	for (uint64_t held = hand_types(s, seat); held; held &= held - 1) {
		int t = __builtin_ctzll(held);   /* kinds in table order, as before */
		if (when_ok(s, &wg_types[t], base, NULL) == 0)
			k += emit_plays_of(s, seat, t, emit, ctx);
	}
	return k;
}

/* The discards down to the hand limit, each kind once. */
static int emit_discards(const struct wg_state *s, int seat, move_emit_fn emit, void *ctx)
{
	char m[GAME_MOVE_MAX + 1];
	int k = 0;
	memcpy(m, "discard", 8);
	for (uint64_t held = hand_types(s, seat); held; held &= held - 1) {
		add_word(m, 7, wg_types[__builtin_ctzll(held)].slug);
		emit(ctx, m);
		k++;
	}
	return k;
}

/* Every attack: each target still in, each demand. */
static int emit_attacks(const struct wg_state *s, int seat, move_emit_fn emit, void *ctx)
{
	char m[] = "attack 0 0";
	int k = 0;
	for (int q = 0; q < s->n; q++)
		for (int d = 1; q != seat && is_in(s, q) && d <= WG_DEMAND_MAX; d++) {
			m[7] = (char)('0' + q);
			m[9] = (char)('0' + d);
			emit(ctx, m);
			k++;
		}
	return k;
}

static int wg_moves(const void *st, int seat, move_emit_fn emit, void *ctx)
{
	const struct wg_state *s = st;
	const struct prompt *p = prompt_peek(&s->pr);
	int k = 0;
	if (!p || seat < 0 || seat >= s->n)
		return 0;
	if (p->kind == PR_SHOUT) {
		if ((p->seats >> seat) & 1u) {
			emit(ctx, "shout");
			k++;
		}
		return k;
	}
	if (p->kind == PR_TURN && seat == s->active && s->step >= ST_DISCARD)
		return emit_discards(s, seat, emit, ctx);
	if (p->kind == PR_TURN && seat == s->active && s->step == ST_ATTACK) {
		k += emit_attacks(s, seat, emit, ctx);
	} else if (p->kind == PR_TURN && seat == s->active) {
		emit(ctx, "end");
		k++;
	} else if ((p->kind == PR_REACT || p->kind == PR_FINAL) && prompt_waits(&s->pr, seat)) {
		emit(ctx, p->kind == PR_REACT ? "pass" : "done");
		k++;
	} else {
		return 0;
	}
	return k + emit_plays(s, seat, emit, ctx);
}

/* ---- snapshot and invariants ---------------------------------------------------- */

static void ser_pile(struct buf *b, const uint16_t *a, int n)
{
	ser_u16s(b, a, n);
}

static int de_pile(struct de *d, uint16_t *a, int *n)
{
	int k = de_u16s(d, a, WG_CARDS);
	*n = k < 0 ? 0 : k;
	return k < 0 ? -1 : 0;
}

static int wg_encode(const void *st, struct buf *b)
{
	const struct wg_state *s = st;
	size_t start = snap_begin(b, "worstgame", WG_FORMAT);
	ser_u8(b, s->n);
	ser_u8(b, s->parties);
	ser_u8(b, s->few);
	ser_u16(b, s->react_seconds);
	ser_u8(b, s->active);
	ser_u8(b, s->step);
	ser_u8(b, s->base);
	ser_u16(b, s->out);
	ser_u32(b, s->epoch);
	ser_rng(b, &s->rng);
	prompt_encode(b, &s->pr);
	ser_u16(b, (unsigned)s->kitty);
	for (int q = 0; q < s->n; q++) {
		ser_u16(b, (unsigned)s->chips[q]);
		ser_u8(b, s->listen[q]);
		ser_u8(b, (unsigned)(uint8_t)s->place[q]);
		ser_pile(b, s->hand[q], s->nhand[q]);
	}
	ser_pile(b, s->deck, s->ndeck);
	ser_pile(b, s->discard, s->ndiscard);
	ser_pile(b, s->removed, s->nremoved);
	ser_u8(b, (unsigned)s->ntable);
	for (int i = 0; i < s->ntable; i++) {
		ser_u16(b, s->table[i].card);
		ser_u8(b, s->table[i].holder);
		ser_u8(b, s->table[i].chips);
	}
	ser_u8(b, (unsigned)s->nstack);
	for (int i = 0; i < s->nstack; i++) {
		const struct wg_entry *x = &s->stack[i];
		ser_u16(b, x->card);
		ser_u8(b, (unsigned)(uint8_t)x->seat);
		ser_u8(b, (unsigned)(uint8_t)x->target);
		ser_u8(b, (unsigned)(uint8_t)x->face);
		ser_u8(b, x->fate);
		ser_u16(b, x->tcard);
	}
	const struct wg_attack *a = &s->atk;
	ser_u8(b, a->on);
	ser_u8(b, (unsigned)(uint8_t)a->target);
	ser_u8(b, a->demand);
	ser_u8(b, a->doubled);
	ser_u8(b, (unsigned)(uint8_t)a->die);
	ser_u8(b, (unsigned)(uint8_t)a->mod);
	ser_u16(b, a->gloat);
	ser_u8(b, (unsigned)(uint8_t)s->winner);
	ser_u16(b, s->tied);
	evlog_encode(b, &s->log, 0);
	return snap_end(b, start);
}

static int wg_decode(void *st, struct de *d, struct rerr *e)
{
	struct wg_state *s = st;
	memset(s, 0, sizeof *s);
	s->n = (uint8_t)de_u8(d);
	if (d->err || s->n < 2 || s->n > WG_SEATS)
		return rerr_set(e, "Spielstand beschädigt: Spielerzahl");
	s->parties = (uint8_t)de_u8(d);
	s->few = (uint8_t)de_u8(d);
	s->react_seconds = (uint16_t)de_u16(d);
	s->active = (uint8_t)de_u8(d);
	s->step = (uint8_t)de_u8(d);
	s->base = (uint8_t)de_u8(d);
	s->out = (uint16_t)de_u16(d);
	s->epoch = de_u32(d);
	de_rng(d, &s->rng);
	if (prompt_decode(d, &s->pr) != 0)
		return rerr_set(e, "Spielstand beschädigt: Aufforderungen");
	s->kitty = (int16_t)de_u16(d);
	for (int q = 0; q < s->n; q++) {
		s->chips[q] = (int16_t)de_u16(d);
		s->listen[q] = (uint8_t)de_u8(d);
		s->place[q] = (int8_t)de_u8(d);
		if (de_pile(d, s->hand[q], &s->nhand[q]) != 0)
			return rerr_set(e, "Spielstand beschädigt: Hand");
	}
	if (de_pile(d, s->deck, &s->ndeck) != 0 || de_pile(d, s->discard, &s->ndiscard) != 0 ||
	    de_pile(d, s->removed, &s->nremoved) != 0)
		return rerr_set(e, "Spielstand beschädigt: Stapel");
	s->ntable = (int)de_u8(d);
	if (s->ntable > WG_TABLE)
		return rerr_set(e, "Spielstand beschädigt: Auslage");
	for (int i = 0; i < s->ntable; i++) {
		s->table[i].card = (uint16_t)de_u16(d);
		s->table[i].holder = (uint8_t)de_u8(d);
		s->table[i].chips = (uint8_t)de_u8(d);
	}
	s->nstack = (int)de_u8(d);
	if (s->nstack > WG_STACK)
		return rerr_set(e, "Spielstand beschädigt: Kartenstapel");
	for (int i = 0; i < s->nstack; i++) {
		struct wg_entry *x = &s->stack[i];
		x->card = (uint16_t)de_u16(d);
		x->seat = (int8_t)de_u8(d);
		x->target = (int8_t)de_u8(d);
		x->face = (int8_t)de_u8(d);
		x->fate = (uint8_t)de_u8(d);
		x->tcard = (uint16_t)de_u16(d);
	}
	struct wg_attack *a = &s->atk;
	a->on = (uint8_t)de_u8(d);
	a->target = (int8_t)de_u8(d);
	a->demand = (uint8_t)de_u8(d);
	a->doubled = (uint8_t)de_u8(d);
	a->die = (int8_t)de_u8(d);
	a->mod = (int8_t)de_u8(d);
	a->gloat = (uint16_t)de_u16(d);
	s->winner = (int8_t)de_u8(d);
	s->tied = (uint16_t)de_u16(d);
	if (evlog_decode(d, &s->log, WG_LOG, 0) != 0 || d->err)
		return rerr_set(e, "Spielstand beschädigt: zu kurz");
	return 0;
}

/* Every card exactly once: deck, discard pile, out of the game, hands, in
 * play, the stack. */
static int check_cards(const struct wg_state *s, struct rerr *e)
{
	uint8_t seen[WG_CARDS] = { 0 };
	const uint16_t *piles[3 + WG_SEATS] = { s->deck, s->discard, s->removed };
	int counts[3 + WG_SEATS] = { s->ndeck, s->ndiscard, s->nremoved };
	for (int q = 0; q < s->n; q++) {
		piles[3 + q] = s->hand[q];
		counts[3 + q] = s->nhand[q];
	}
	int total = 0;
	for (int p = 0; p < 3 + s->n; p++)
		for (int i = 0; i < counts[p]; i++, total++)
			if (piles[p][i] >= WG_CARDS || seen[piles[p][i]]++)
				return rerr_set(e, "Worst Game Ever: Karte %u doppelt", piles[p][i]);
	for (int i = 0; i < s->ntable; i++, total++)
		if (s->table[i].card >= WG_CARDS || seen[s->table[i].card]++ ||
		    s->table[i].holder >= s->n || !(type_of(s->table[i].card)->flags & F_STAYS) ||
		    !is_in(s, s->table[i].holder) ||
		    (s->table[i].chips && type_of(s->table[i].card)->passive != P_PIGGY &&
		     type_of(s->table[i].card)->passive != P_TOLL))
			return rerr_set(e, "Worst Game Ever: ausliegende Karte %d ungültig", i);
	for (int i = 0; i < s->nstack; i++, total++) {
		const struct wg_entry *x = &s->stack[i];
		if (x->card >= WG_CARDS || seen[x->card]++ || x->seat < 0 || x->seat >= s->n ||
		    x->target < -1 || x->target >= s->n || x->face < 0 || x->face > 6 ||
		    x->fate > 2)
			return rerr_set(e, "Worst Game Ever: Stapelkarte %d ungültig", i);
	}
	if (total != WG_CARDS)
		return rerr_set(e, "Worst Game Ever: %d statt %d Karten", total, WG_CARDS);
	return 0;
}

/* Chips: none negative, 12 a seat in all (seats, kitty, cards in play);
 * none for a seat that is out while the party runs. */
static int check_chips(const struct wg_state *s, struct rerr *e)
{
	int sum = s->kitty;
	if (s->kitty < 0)
		return rerr_set(e, "Worst Game Ever: Topf negativ");
	for (int q = 0; q < s->n; q++) {
		if (s->chips[q] < 0 || (s->pr.n && !is_in(s, q) && s->chips[q]))
			return rerr_set(e, "Worst Game Ever: Chips von Platz %d falsch", q);
		sum += s->chips[q];
	}
	for (int i = 0; i < s->ntable; i++)
		sum += s->table[i].chips;
	if (sum != WG_START_CHIPS * s->n)
		return rerr_set(e, "Worst Game Ever: %d Chips statt %d", sum, WG_START_CHIPS * s->n);
	return 0;
}

/* The prompts fit the phase: a turn (with a window over it), the last
 * round (with a window over it), the shout, or nothing (over). */
static int check_prompts(const struct wg_state *s, struct rerr *e)
{
	if (prompt_check(&s->pr, PR__MAX, s->n, e) != 0)
		return -1;
	const struct prompt *bottom = s->pr.n ? &s->pr.p[0] : NULL, *top = prompt_peek(&s->pr);
	int k0 = bottom ? bottom->kind : 0;
	if (s->pr.n > 2 || (s->pr.n == 2 && top->kind != PR_REACT) ||
	    (k0 == PR_TURN && (bottom->seats != 1u << s->active || bottom->owner != s->active ||
			       !is_in(s, s->active) || s->out)) ||
	    (k0 == PR_FINAL && (bottom->seats & ~seats_in(s))) || k0 == PR_REACT ||
	    (k0 == PR_SHOUT && s->pr.n != 1))
		return rerr_set(e, "Worst Game Ever: Aufforderungen passen nicht");
	if (top && top->kind == PR_REACT &&
	    (!(top->flags & PROMPT_WINDOW) || top->arg >= K__MAX || top->seats & ~seats_in(s) ||
	     s->base >= B__MAX))
		return rerr_set(e, "Worst Game Ever: Reaktionsfenster ungültig");
	if (s->nstack && (!top || top->kind != PR_REACT))
		return rerr_set(e, "Worst Game Ever: Karten im Stapel ohne Fenster");
	return 0;
}

static int wg_check(const void *st, struct rerr *e)
{
	const struct wg_state *s = st;
	if (s->n < 2 || s->n > WG_SEATS || s->active >= s->n || s->step >= ST__MAX ||
	    s->base >= B__MAX || s->parties < 1 || s->parties > 10 || s->react_seconds < 5 ||
	    s->few > 1 || (s->out >> s->n))
		return rerr_set(e, "Worst Game Ever: Spieler, Schritt oder Optionen falsch");
	for (int q = 0; q < s->n; q++)
		if (s->listen[q] > LISTEN_ALL || s->place[q] < 0 || s->place[q] > s->n ||
		    (s->pr.n == 0) != (s->place[q] > 0))
			return rerr_set(e, "Worst Game Ever: Platz %d ungültig", q);
	const struct wg_attack *a = &s->atk;
	if (a->on > 3 || (a->on && (a->target < 0 || a->target >= s->n || a->target == s->active ||
				    a->demand < 1 || a->demand > WG_DEMAND_MAX)) ||
	    a->die < 0 || a->die > 6 || (a->gloat >> s->n) || s->winner < -1 ||
	    s->winner >= s->n || (s->tied >> s->n))
		return rerr_set(e, "Worst Game Ever: Angriff oder Ergebnis ungültig");
	if (check_cards(s, e) != 0 || check_chips(s, e) != 0 || check_prompts(s, e) != 0)
		return -1;
	return evlog_check(&s->log, WG_LOG, EV__MAX, s->n, e);
}

/* ---- the view -------------------------------------------------------------------------- */

/* What happened to a card, as the log says it: played, resolved,
 * discarded; and a coin roll. */
static void say_card(const struct game_event *ev, struct view_sink *v, const char *key)
{
	const char *card = ev->card < WG_CARDS ? type_of(ev->card)->name : "?";
	switch (ev->type) {
	case EV_PLAY:
		if (ev->where != EVENT_NOBODY)
			vtextf(v, key, "@%d spielt %s gegen @%d.", ev->seat, card, ev->where);
		else if (ev->arg)
			vtextf(v, key, "@%d spielt %s und nennt %d.", ev->seat, card, ev->arg);
		else
			vtextf(v, key, "@%d spielt %s.", ev->seat, card);
		break;
	case EV_RESOLVE:
		if (ev->arg == 0)
			vtextf(v, key, "%s von @%d wirkt.", card, ev->seat);
		else if (ev->arg == 1)
			vtextf(v, key, "%s von @%d wirkt nicht.", card, ev->seat);
		else
			vtextf(v, key, "%s geht zurück auf die Hand von @%d.", card, ev->seat);
		break;
	case EV_PASSOUT:
		vtextf(v, key, "@%d wirft %s ab (Handlimit).", ev->seat, card);
		break;
	default:   /* EV_COIN */
		vtextf(v, key, "Kopf oder Zahl für @%d: der Würfel zeigt %d.", ev->seat, ev->arg);
		break;
	}
}

/* An event as the log says it, one whole sentence per case (a count of
 * one has its own), so that the platform can translate it. */
static void event_say(const struct game_event *ev, struct view_sink *v, const char *key)
{
	switch (ev->type) {
	case EV_TURN:
		if (ev->where == EVENT_NOBODY)
			vtextf(v, key, "@%d ist am Zug und zahlt 1 Chip Einsatz in den Topf.",
			       ev->seat);
		else
			vtextf(v, key, "@%d ist am Zug; der Einsatz kommt auf die Mautstelle "
			       "von @%d.", ev->seat, ev->where);
		break;
	case EV_DRAW:
		if (ev->arg == 1)
			vtextf(v, key, "@%d zieht %d Karte.", ev->seat, ev->arg);
		else
			vtextf(v, key, "@%d zieht %d Karten.", ev->seat, ev->arg);
		break;
	case EV_ATTACK:
		if (ev->arg == 1)
			vtextf(v, key, "@%d greift @%d an und fordert %d Chip.", ev->seat,
			       ev->where, ev->arg);
		else
			vtextf(v, key, "@%d greift @%d an und fordert %d Chips.", ev->seat,
			       ev->where, ev->arg);
		break;
	case EV_ROLL:
		vtextf(v, key, "Der Würfel zeigt %d.", ev->arg);
		break;
	case EV_WON:
		if (ev->arg == 1)
			vtextf(v, key, "Der Angriff von @%d gelingt: @%d gibt %d Chip.", ev->seat,
			       ev->where, ev->arg);
		else
			vtextf(v, key, "Der Angriff von @%d gelingt: @%d gibt %d Chips.", ev->seat,
			       ev->where, ev->arg);
		break;
	case EV_FAILED:
		vtextf(v, key, "Der Angriff von @%d auf @%d misslingt (Wurf zählt %d).", ev->seat,
		       ev->where, ev->arg);
		break;
	case EV_CALLED:
		vtextf(v, key, "Der Angriff von @%d fällt aus.", ev->seat);
		break;
	case EV_OUT:
		vtextf(v, key, "@%d hat keine Chips mehr und scheidet aus.", ev->seat);
		break;
	case EV_FINAL:
		vtext(v, key, "Das Ende ist eingeleitet: alle, die noch dabei sind, dürfen noch "
		      "einmal Karten spielen.");
		break;
	case EV_TIE:
		vtext(v, key, "Gleichstand! Wer zuerst „Worst Game Ever!“ ruft, gewinnt.");
		break;
	case EV_SHOUT:
		vtextf(v, key, "@%d ruft „Worst Game Ever!“", ev->seat);
		break;
	case EV_WINNER:
		vtextf(v, key, "@%d gewinnt, nimmt die %d Chips aus dem Topf und hat %d.", ev->seat,
		       ev->num, ev->arg);
		break;
	case EV_SHARED:
		vtext(v, key, "Niemand hat gerufen: die Gleichstehenden teilen sich den Sieg und "
		      "den Topf.");
		break;
	default:   /* EV_PLAY, EV_RESOLVE, EV_PASSOUT, EV_COIN */
		say_card(ev, v, key);
		break;
	}
}

/* An event's sentence in German as a plain string (the unit tests read
 * the log so). */
__attribute__((unused))
static void event_text(const struct game_event *ev, char *out, size_t cap)
{
	evlog_text(ev, event_say, out, cap);
}

/* A card's name, text, theme and kind, for a card section (a view_group:
 * the JSON writer copies them from its memo). */
static void card_entries(struct view_sink *v, int card)
{
	const struct wg_type *t = type_of(card);
	vstr(v, "slug", t->slug);
	vtext(v, "name", t->name);
	vtext(v, "text", t->text);
	vtext(v, "theme", theme_name[t->theme]);
	vflag(v, "stays", t->flags & F_STAYS);
}

static const struct view_group card_group = { card_entries, WG_CARDS };

/* The fields of card `card`, one the viewer sees. */
static void view_card(struct view_sink *v, unsigned card)
{
	vgroup(v, &card_group, (int)card);
}

/* The keys of a count of chips (view_chips): "<prefix>", "<prefix>_black",
 * "<prefix>_red", "<prefix>_stack", as literals (keys made with snprintf
 * cost a Worst Game Ever view 12k instructions, and the page and its
 * JSON twin measure and check a key that is not a literal each time). */
struct chip_keys {
	const char *n, *black, *red, *stack;
};
static const struct chip_keys seat_chips = { "chips", "chips_black", "chips_red", "chips_stack" },
			      kitty_chips = { "kitty", "kitty_black", "kitty_red", "kitty_stack" };

/* Chips as stacks: black chips are worth 5; "<prefix>_stack" has one item
 * per chip to draw, black ones first. */
static void view_chips(struct view_sink *v, const struct chip_keys *k, int chips)
{
	vnum(v, k->n, chips);
	vnum(v, k->black, chips / 5);
	vnum(v, k->red, chips % 5);
	for (int i = 0; i < chips / 5 + chips % 5; i++) {
		vbegin(v, k->stack);
		vflag(v, "black", i < chips / 5);
		vend(v);
	}
}

struct emit_sink {
	struct view_sink *v;
	const char *section;
	int n;
};

/* An attack button names its target and the demand ("Bert angreifen:
 * 2 Chips"), not the bare number. */
static void attack_label(struct view_sink *v, int target, int demand)
{
	if (demand == 1)
		vtextf(v, "label", "@%d angreifen: 1 Chip", target);
	else
		vtextf(v, "label", "@%d angreifen: %d Chips", target, demand);
}

/* A legal move's label, from its words ("play langfinger 2" → "auf @2";
 * "attack 2 3" → "@2 angreifen: 3 Chips"). */
static void action_label(struct view_sink *v, const struct mtok *t, const char *move)
{
	int ty = mt_is(t, 0, "play") ? type_by_slug(t->w[1]) : -1;
	if (ty >= 0 && t->n == 3 && wg_types[ty].target == T_SEAT)
		vtextf(v, "label", "auf @%s", t->w[2]);
	else if (ty >= 0 && t->n == 3)
		vtextf(v, "label", "Würfel zeigt %s", t->w[2]);
	else if (ty >= 0 && t->n == 4 && type_by_slug(t->w[3]) >= 0)
		vtextf(v, "label", "@%s: %s", t->w[2], wg_types[type_by_slug(t->w[3])].name);
	else if (ty >= 0)
		vtext(v, "label", "Spielen");
	else if (mt_is(t, 0, "attack"))
		attack_label(v, t->w[1][0] - '0', t->w[2][0] - '0');
	else if (mt_is(t, 0, "discard") && type_by_slug(t->w[1]) >= 0)
		vtextf(v, "label", "%s abwerfen", wg_types[type_by_slug(t->w[1])].name);
	else if (mt_is(t, 0, "pass"))
		vtext(v, "label", "Passen");
	else if (mt_is(t, 0, "end"))
		vtext(v, "label", "Zug beenden");
	else if (mt_is(t, 0, "done"))
		vtext(v, "label", "Fertig");
	else
		vstr(v, "label", move);
}

/* A legal move as an item of the current section: the move and its label. */
static void emit_action(void *ctx, const char *move)
{
	struct emit_sink *k = ctx;
	struct mtok t;
	struct rerr e;
	if (mt_split(move, &t, &e) != 0)
		return;
	vbegin(k->v, k->section);
	vstr(k->v, "move", move);
	action_label(k->v, &t, move);
	vend(k->v);
	k->n++;
}

/* The headline of a reaction window after step `kind` of seat `owner`: a
 * whole sentence per step, for the seat it waits for and for the others. */
static void view_window(struct view_sink *v, int kind, int owner, int waits)
{
	static const char *const text[K__MAX][2] = {
		{ N_("Reaktionsfenster nach dem Einsatz von @%d: die anderen dürfen reagieren."),
		  N_("Reaktionsfenster nach dem Einsatz von @%d: spiele eine Karte oder passe.") },
		{ N_("Reaktionsfenster nach dem Ziehen von @%d: die anderen dürfen reagieren."),
		  N_("Reaktionsfenster nach dem Ziehen von @%d: spiele eine Karte oder passe.") },
		{ N_("Reaktionsfenster nach dem Angriff von @%d: die anderen dürfen reagieren."),
		  N_("Reaktionsfenster nach dem Angriff von @%d: spiele eine Karte oder passe.") },
		{ N_("Reaktionsfenster nach dem Wurf von @%d: die anderen dürfen reagieren."),
		  N_("Reaktionsfenster nach dem Wurf von @%d: spiele eine Karte oder passe.") },
		{ N_("Reaktionsfenster nach der Karte von @%d: die anderen dürfen reagieren."),
		  N_("Reaktionsfenster nach der Karte von @%d: spiele eine Karte oder passe.") },
		{ N_("Reaktionsfenster nach dem Zugende von @%d: die anderen dürfen reagieren."),
		  N_("Reaktionsfenster nach dem Zugende von @%d: spiele eine Karte oder passe.") },
	};
	vtextf(v, "headline", text[kind % K__MAX][waits != 0], owner);
}

/* The headline: what happens now, for this seat. */
static void view_headline(const struct wg_state *s, int me, struct view_sink *v)
{
	const struct prompt *p = prompt_peek(&s->pr);
	if (!p && s->winner >= 0)
		vtextf(v, "headline", "@%d gewinnt.", s->winner);
	else if (!p)
		vtext(v, "headline", "Unentschieden: die Gleichstehenden teilen sich den Sieg.");
	else if (p->kind == PR_SHOUT)
		vtext(v, "headline", "Gleichstand! Wer zuerst „Worst Game Ever!“ ruft, gewinnt.");
	else if (p->kind == PR_FINAL && prompt_waits(&s->pr, me))
		vtext(v, "headline", "Das Ende ist eingeleitet: spiele noch Karten oder sag "
		      "„fertig“.");
	else if (p->kind == PR_FINAL)
		vtext(v, "headline", "Das Ende ist eingeleitet: alle spielen noch einmal Karten.");
	else if (p->kind == PR_REACT)
		view_window(v, p->arg, p->owner, prompt_waits(&s->pr, me));
	else if (s->active != me)
		vtextf(v, "headline", "@%d ist am Zug.", s->active);
	else if (s->step == ST_ATTACK)
		vtext(v, "headline", "Du bist am Zug: greif jemanden an.");
	else if (s->step == ST_AFTER)
		vtext(v, "headline", "Spiele noch Karten oder beende deinen Zug.");
	else
		vtext(v, "headline", "Wirf ab: höchstens 7 Karten am Ende des Zuges.");
}

/* The stack of cards waiting to resolve, bottom first (the top resolves
 * first), and the attack of this turn. */
/* The card the newest play or resolution in the log was about (the board
 * marks it "last"): played and waiting on top of the stack (`*stacked`),
 * or resolved and lying in front of someone; -1 when neither. Played
 * cards are public, so the mark tells nothing hidden. */
static int last_card(const struct wg_state *s, int *stacked)
{
	for (int i = s->log.n - 1; i >= 0; i--) {
		const struct game_event *ev = &s->log.ev[i];
		if (ev->type != EV_PLAY && ev->type != EV_RESOLVE)
			continue;
		*stacked = ev->type == EV_PLAY;
		if (ev->card >= WG_CARDS || (ev->type == EV_RESOLVE && ev->arg != 0))
			return -1;
		return ev->card;
	}
	return -1;
}

static void view_stack(const struct wg_state *s, struct view_sink *v)
{
	int stacked = 0, last = last_card(s, &stacked);
	vflag(v, "has_stack", s->nstack > 0);
	for (int i = 0; i < s->nstack; i++) {
		const struct wg_entry *x = &s->stack[i];
		const struct wg_type *t = type_of(x->card);
		vbegin(v, "stack");
		view_card(v, x->card);
		vnum(v, "by_seat", x->seat);
		vflag(v, "top", i == s->nstack - 1);
		int mark = stacked && i == s->nstack - 1 && x->card == last;
		vflag(v, "last", mark);
		if (mark)
			vtext(v, "last_text", "zuletzt gespielt");
		vflag(v, "has_target", x->target >= 0);
		if (x->target >= 0)
			vnum(v, "target_seat", x->target);
		vnum(v, "face", x->face);
		vflag(v, "has_face", x->face > 0);
		vflag(v, "has_target_card", t->target == T_INPLAY && x->tcard < WG_CARDS);
		if (t->target == T_INPLAY && x->tcard < WG_CARDS)
			vtext(v, "target_card", type_of(x->tcard)->name);
		vend(v);
	}
	const struct wg_attack *a = &s->atk;
	vflag(v, "has_attack", a->on >= 1);
	if (a->on >= 1) {
		vnum(v, "attacker_seat", s->active);
		vnum(v, "attack_target_seat", a->target);
		vnum(v, "attack_demand", a->demand);
		vnum(v, "attack_doubled", a->doubled);
		vflag(v, "doubled", a->doubled > 0);
		vflag(v, "attack_rolled", a->on >= 2);
		vflag(v, "attack_settled", a->on == 3);
		if (a->on >= 2) {
			vnum(v, "attack_die", a->die);
			vnum(v, "attack_total", attack_total(s));
		}
	}
}

/* Each seat: chips as stacks, hand size, what lies in front of it, whether
 * it is out, on turn or still to answer the window; an open hand (Kiebitz). */
static void view_seats(const struct wg_state *s, int me, struct view_sink *v)
{
	int stacked = 0, last = last_card(s, &stacked);
	const struct prompt *p = prompt_peek(&s->pr);
	for (int q = 0; q < s->n; q++) {
		vbegin(v, "seats");
		vnum(v, "seat", q);
		vflag(v, "is_me", q == me);
		vflag(v, "is_active", p && s->active == q && prompt_find((struct prompts *)&s->pr,
									  PR_TURN));
		vflag(v, "out", !is_in(s, q));
		/* in a reaction window every seat it is for waits until it closes,
		 * passed or not (only the seat itself sees its own pass) */
		uint32_t w = !p || p->kind == PR_TURN ? 0 :
			     p->kind == PR_REACT && q != me ? p->seats : p->waiting;
		vflag(v, "waiting", (w >> q) & 1u);
		vflag(v, "winner", !p && s->place[q] == 1);
		/* known from the count at the end; a sole winner is no tie */
		vflag(v, "tied", __builtin_popcount(s->tied) > 1 && ((s->tied >> q) & 1u));
		vnum(v, "place", s->place[q]);
		view_chips(v, &seat_chips, s->chips[q]);
		vnum(v, "hand_count", s->nhand[q]);
		vflag(v, "open_hand", lying(s, q, P_KIBITZ) > 0 && q != me);
		for (int i = 0; lying(s, q, P_KIBITZ) > 0 && q != me && i < s->nhand[q]; i++) {
			vbegin(v, "open_cards");
			view_card(v, s->hand[q][i]);
			vend(v);
		}
		for (int i = 0; i < s->ntable; i++) {
			if (s->table[i].holder != q)
				continue;
			vbegin(v, "inplay");
			view_card(v, s->table[i].card);
			int mark = !stacked && s->table[i].card == last;
			vflag(v, "last", mark);
			if (mark)
				vtext(v, "last_text", "zuletzt ausgelegt");
			vnum(v, "on_card", s->table[i].chips);
			vflag(v, "has_chips_on", s->table[i].chips > 0);
			vend(v);
		}
		vend(v);
	}
}

/* My hand, each card with the ways to play it now (under the first card
 * of its kind); and my standing choice of windows. */
static void view_hand(const struct wg_state *s, int me, struct view_sink *v)
{
	struct rerr e;
	int base = play_base(s, me, &e);
	vnum(v, "my_hand_count", s->nhand[me]);
	for (int i = 0; i < s->nhand[me]; i++) {
		int t = type_index(s->hand[me][i]), first = hand_find_type(s, me, t) == i;
		vbegin(v, "hand");
		view_card(v, s->hand[me][i]);
		struct emit_sink k = { v, "plays", 0 };
		if (first && base >= 0 && when_ok(s, &wg_types[t], base, &e) == 0)
			emit_plays_of(s, me, t, emit_action, &k);
		vflag(v, "playable", k.n > 0);
		vend(v);
	}
	for (int k = 0; k < K__MAX; k++) {
		char m[GAME_MOVE_MAX + 1] = "react";
		size_t ml = sizeof "react" - 1;
		unsigned mask = s->listen[me] ^ (1u << k);
		for (int j = 0; j < K__MAX; j++)   /* (snprintf cost 800 a word) */
			if ((mask >> j) & 1u) {
				size_t wl = strlen(kind_word[j]);
				if (ml + 1 + wl >= sizeof m)
					break;
				m[ml++] = ' ';
				memcpy(m + ml, kind_word[j], wl + 1);
				ml += wl;
			}
		vbegin(v, "listen");
		vtext(v, "kind", kind_name[k]);
		vflag(v, "on", (s->listen[me] >> k) & 1u);
		vflag(v, "off", !((s->listen[me] >> k) & 1u));
		vstr(v, "move", mask ? m : "react none");
		if ((s->listen[me] >> k) & 1u)
			vtext(v, "label", "nicht mehr fragen");
		else
			vtext(v, "label", "fragen");
		vend(v);
	}
}

/* The moves of this seat that are not card plays: attack (per target, the
 * demands), pass, end, done, shout, discard. */
static void view_actions(const struct wg_state *s, int me, struct view_sink *v)
{
	const struct prompt *p = prompt_peek(&s->pr);
	int kind = p ? p->kind : 0, mine = p && prompt_waits(&s->pr, me);
	int attacking = kind == PR_TURN && me == s->active && s->step == ST_ATTACK;
	vflag(v, "attacking", attacking);
	for (int q = 0; attacking && q < s->n; q++) {
		if (q == me || !is_in(s, q))
			continue;
		vbegin(v, "targets");
		vnum(v, "seat", q);
		vnum(v, "chips", s->chips[q]);
		for (int d = 1; d <= WG_DEMAND_MAX; d++) {
			char m[32];
			view_format(m, sizeof m, "attack %d %d", q, d);
			vbegin(v, "demands");
			vstr(v, "move", m);
			attack_label(v, q, d);
			vend(v);
		}
		vend(v);
	}
	struct emit_sink k = { v, "actions", 0 };
	if (kind == PR_REACT && mine)
		emit_action(&k, "pass");
	if (kind == PR_TURN && me == s->active && s->step == ST_AFTER)
		emit_action(&k, "end");
	if (kind == PR_FINAL && mine)
		emit_action(&k, "done");
	vflag(v, "discarding", kind == PR_TURN && me == s->active && s->step >= ST_DISCARD);
	if (kind == PR_TURN && me == s->active && s->step >= ST_DISCARD) {
		k.section = "discards";
		wg_moves(s, me, emit_action, &k);
	}
	vflag(v, "can_shout", kind == PR_SHOUT && ((p->seats >> me) & 1u));
	if (kind == PR_SHOUT && ((p->seats >> me) & 1u)) {
		vbegin(v, "shout_actions");
		vstr(v, "move", "shout");
		vtext(v, "label", "Worst Game Ever!");
		vflag(v, "primary", 1);
		vend(v);
	}
}

static void wg_view(const void *st, int seat, struct view_sink *v)
{
	const struct wg_state *s = st;
	const struct prompt *p = prompt_peek(&s->pr);
	int me = seat >= 0 && seat < s->n ? seat : -1;
	view_headline(s, me, v);
	vflag(v, "over", !p);
	vflag(v, "window", p && p->kind == PR_REACT);
	vflag(v, "final", p && p->kind == PR_FINAL);
	vflag(v, "shout", p && p->kind == PR_SHOUT);
	vflag(v, "my_window", p && p->kind != PR_TURN && prompt_waits(&s->pr, me));
	vflag(v, "my_turn", p && p->kind == PR_TURN && me == s->active);
	vnum(v, "deadline", p ? p->deadline : 0);
	vflag(v, "has_deadline", p && p->deadline > 0);
	vnum(v, "react_seconds", s->react_seconds);
	vflag(v, "few_windows", s->few);
	view_chips(v, &kitty_chips, s->kitty);
	vnum(v, "deck_count", s->ndeck);
	vnum(v, "discard_count", s->ndiscard);
	vflag(v, "has_discard", s->ndiscard > 0);
	if (s->ndiscard > 0)
		vtext(v, "discard_top", type_of(s->discard[s->ndiscard - 1])->name);
	vnum(v, "removed_count", s->nremoved);
	view_stack(s, v);
	view_seats(s, me, v);
	vflag(v, "has_hand", me >= 0);
	if (me >= 0) {
		view_hand(s, me, v);
		view_actions(s, me, v);
	}
	evlog_view_text(&s->log, v, event_say);
}

/* Re-deals what `seat` cannot see: the deck and every hand but its own and
 * the open ones, from those cards in id order; the generator's future. */
static void wg_scramble(void *st, int seat, uint64_t seed)
{
	struct wg_state *s = st;
	struct rng r;
	uint16_t pool[WG_CARDS];
	int n = 0, hidden[WG_SEATS];
	rng_seed(&r, seed);
	for (int q = 0; q < s->n; q++) {
		hidden[q] = q != seat && !lying(s, q, P_KIBITZ);
		for (int i = 0; hidden[q] && i < s->nhand[q]; i++)
			pool[n++] = s->hand[q][i];
	}
	for (int i = 0; i < s->ndeck; i++)
		pool[n++] = s->deck[i];
	pile_sort(pool, n);
	rng_shuffle(&r, pool, n);
	int k = 0;
	for (int q = 0; q < s->n; q++)
		for (int i = 0; hidden[q] && i < s->nhand[q]; i++)
			s->hand[q][i] = pool[k++];
	for (int i = 0; i < s->ndeck; i++)
		s->deck[i] = pool[k++];
	rng_seed(&s->rng, rng_next(&r));
}

/* A move from a page older than the last step that changed the table:
 * the standing choice `react` depends on no page; a shout that lost the
 * race is told who shouted first. */
static int wg_late(const void *st, int seat, const char *move, struct rerr *e)
{
	const struct wg_state *s = st;
	struct mtok t;
	struct rerr ve;
	(void)seat;
	if (mt_split(move, &t, &ve) != 0)
		return GAME_LATE_STALE;
	if (mt_is(&t, 0, "react"))
		return GAME_LATE_NOW;
	if (mt_is(&t, 0, "shout") && s->pr.n == 0 && s->winner >= 0 &&
	    __builtin_popcount(s->tied) > 1)
		rerr_set(e, "Zu spät: @%d hat zuerst gerufen.", s->winner);
	return GAME_LATE_STALE;
}

const struct game worstgame_game = {
	.slug = "worstgame",
	.title = "Worst Game Ever",
	.tagline = N_("Karten ziehen und einander angreifen, bis jemand keine Chips mehr hat."),
	.summary = N_("Jede Person hat 12 Chips und 4 Karten. Im Zug: 1 Chip in den Topf, eine "
		      "Karte ziehen, jemanden angreifen: Chips fordern und würfeln, mehr als die "
		      "Forderung gewinnt. Karten darf man jederzeit spielen, sie gehen vor. Hat am "
		      "Ende eines Zuges jemand keine Chips mehr, gewinnt, wer die meisten hat; bei "
		      "Gleichstand, wer zuerst „Worst Game Ever!“ ruft."),
	.min_players = 2,
	.max_players = WG_SEATS,
	.starts_with_winner = 1,
	.state_size = sizeof(struct wg_state),
	.options = wg_options,
	.noptions = O__MAX,
	.verbs = wg_verbs,
	.nverbs = V__MAX,
	.parties = wg_parties,
	.setup = wg_setup,
	.apply = wg_apply,
	.tick = wg_tick,
	.status = wg_status,
	.moves = wg_moves,
	.snap_format = WG_FORMAT,
	.snap_format_min = WG_FORMAT,
	.encode = wg_encode,
	.decode = wg_decode,
	.check = wg_check,
	.view = wg_view,
	.doing = wg_doing,
	.scramble = wg_scramble,
	.late = wg_late,
};
