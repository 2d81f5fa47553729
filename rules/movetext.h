/* movetext.h — the strict reader shared by every game's move parser.
 * A move is one line of printable text: at most GAME_MOVE_MAX bytes, no
 * control characters, words separated by single or repeated blanks. ASCII
 * letters are folded to lower case, so "Play Gelb-4 on 2" reads like
 * "play gelb-4 on 2"; other bytes (ü in grün) are kept as they are. */
#ifndef SPIELTISCH_MOVETEXT_H
#define SPIELTISCH_MOVETEXT_H

#include "game.h"

enum { MT_MAX_WORDS = 16, MT_WORD_MAX = 32 };

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

#endif
