/* movetext.h — the strict reader shared by every game's move parser.
 * A move is one line of printable text: at most GAME_MOVE_MAX bytes, no
 * control characters, words separated by single or repeated blanks. ASCII
 * letters are folded to lower case, so "Play Gelb-4 on 2" reads like
 * "play gelb-4 on 2"; other bytes (ü in grün) are kept as they are. */
#ifndef SPIELTISCH_MOVETEXT_H
#define SPIELTISCH_MOVETEXT_H

#include "game.h"

/* A word may have 63 bytes: a game's own limit, in letters, comes after
 * (Wurf & Wort's 20 letters may take 40 bytes with ä, ö, ü, ß), so that a
 * player is told that limit rather than a generic "too long". */
enum { MT_MAX_WORDS = 16, MT_WORD_MAX = 64 };

struct mtok {
	int n;
	char w[MT_MAX_WORDS][MT_WORD_MAX];
};

/* Splits a move into words. 0, or -1 with a message for empty, overlong,
 * control characters, invalid UTF-8, too many or too long words. */
int mt_split(const char *move, struct mtok *t, struct rerr *e);

/* Strict decimal in min..max: digits only, no sign, no leading zeros beyond
 * "0". 0 with *out set, or -1. */
int mt_int(const char *word, int min, int max, int *out);

/* 1 when word i exists and equals s. */
int mt_is(const struct mtok *t, int i, const char *s);

/* Copies at most `chars` characters of s into buf (cap bytes), never cutting
 * a UTF-8 sequence and stopping at a byte that is not well-formed UTF-8, so
 * that a message quoting what a player typed stays valid UTF-8. Returns buf.
 * Use it instead of "%.Ns", which cuts by bytes. */
const char *mt_clip(char *buf, size_t cap, const char *s, int chars);

/* One verb of a game's move language, in the game's table of verbs (the
 * game registers it: game->verbs): its word, how it is named in the list
 * of verbs ("draw turn"; NULL: the word), how many words a move with it has
 * (min_words..max_words), a word that must stand at a fixed place ("on" at
 * 2; link NULL: none), the whole message a move of the wrong form gets, and
 * for the move docs its form with placeholders ("play KARTE on STAPEL")
 * and an example. From the one table come the reading of a move's form
 * (mt_verb, mt_form), its canonical spelling (mt_spell) and the table of
 * verbs in docs/moves-<game>.md (`spieltisch verbs GAME`, checked by make
 * test). */
struct mt_verb {
	const char *word, *shown;
	int min_words, max_words;
	int link_at;
	const char *link;
	const char *usage;
	const char *form, *example;
};

enum { MT_QUOTE_CHARS = 20 };   /* characters of a typed word quoted in a message */

/* The index of t's verb among verbs[0..n), or -1 with e naming the verbs
 * ("Unbekannter Zug 'x'. Möglich sind play, snap und pass."). */
int mt_verb(const struct mt_verb *verbs, int n, const struct mtok *t, struct rerr *e);
/* 0 when t has the form of verb v (word count and link word), else -1 with
 * v's usage. */
int mt_form(const struct mt_verb *v, const struct mtok *t, struct rerr *e);

/* Spells a move of verb v in canonical form: the verb, then args[0..nargs)
 * with the link word put in its place ({"gelb-4", "2"} → "play gelb-4 on
 * 2"). The result always has v's form (assert). Returns its length, or -1
 * when it does not fit cap bytes. */
int mt_spell(const struct mt_verb *v, const char *const *args, int nargs, char *out, size_t cap);

#endif
