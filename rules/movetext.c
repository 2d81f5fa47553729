#include <string.h>

#include "movetext.h"

/* Length of the valid UTF-8 sequence starting at p, or 0. */
static int utf8_len(const unsigned char *p)
{
	if (p[0] < 0x80)
		return 1;
	int n = (p[0] & 0xe0) == 0xc0 ? 2 : (p[0] & 0xf0) == 0xe0 ? 3 :
		(p[0] & 0xf8) == 0xf0 ? 4 : 0;
	if (n == 0 || (n == 2 && p[0] < 0xc2))
		return 0;
	for (int i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

int mt_split(const char *move, struct mtok *t, struct rerr *e)
{
	t->n = 0;
	if (!move)
		return rerr_set(e, "Kein Zug angegeben.");
	size_t len = strnlen(move, GAME_MOVE_MAX + 1);
	if (len > GAME_MOVE_MAX)
		return rerr_set(e, "Der Zug ist zu lang (höchstens %d Zeichen).", GAME_MOVE_MAX);
	const unsigned char *p = (const unsigned char *)move;
	size_t i = 0;
	while (i < len) {
		if (p[i] == ' ' || p[i] == '\t') {
			i++;
			continue;
		}
		if (t->n == MT_MAX_WORDS)
			return rerr_set(e, "Der Zug hat zu viele Wörter.");
		char *w = t->w[t->n];
		size_t wl = 0;
		while (i < len && p[i] != ' ' && p[i] != '\t') {
			if (p[i] < 0x20 || p[i] == 0x7f)
				return rerr_set(e, "Der Zug enthält ein Steuerzeichen.");
			int ul = utf8_len(p + i);
			if (ul == 0 || i + (size_t)ul > len)
				return rerr_set(e, "Der Zug ist kein gültiges UTF-8.");
			if (wl + (size_t)ul >= MT_WORD_MAX)
				return rerr_set(e, "Ein Wort im Zug ist zu lang.");
			for (int k = 0; k < ul; k++) {
				unsigned char c = p[i + (size_t)k];
				w[wl++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
			}
			i += (size_t)ul;
		}
		w[wl] = '\0';
		t->n++;
	}
	if (t->n == 0)
		return rerr_set(e, "Kein Zug angegeben.");
	return 0;
}

int mt_int(const char *word, int min, int max, int *out)
{
	if (!word || !*word)
		return -1;
	if (word[0] == '0' && word[1] != '\0')
		return -1;
	long v = 0;
	for (const char *c = word; *c; c++) {
		if (*c < '0' || *c > '9')
			return -1;
		v = v * 10 + (*c - '0');
		if (v > max)
			return -1;
	}
	if (v < min)
		return -1;
	*out = (int)v;
	return 0;
}

int mt_is(const struct mtok *t, int i, const char *s)
{
	return i >= 0 && i < t->n && strcmp(t->w[i], s) == 0;
}
