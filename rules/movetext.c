#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "movetext.h"

/* Length of the well-formed UTF-8 sequence starting at p (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF), or 0. Reads no
 * further than the first byte that is not a continuation byte, so a NUL
 * stops it. */
static int utf8_len(const unsigned char *p)
{
	if (p[0] < 0x80)
		return 1;
	int n;
	unsigned lo = 0x80, hi = 0xbf;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		n = 3;
		lo = p[0] == 0xe0 ? 0xa0 : 0x80;
		hi = p[0] == 0xed ? 0x9f : 0xbf;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 4;
		lo = p[0] == 0xf0 ? 0x90 : 0x80;
		hi = p[0] == 0xf4 ? 0x8f : 0xbf;
	} else
		return 0;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (int i = 2; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* A move spelled as every listed move is: lower-case ASCII letters, digits
 * and '-', single blanks between the words, within the limits. The general
 * split below finds the same words in it; this one skips its per-byte
 * checks (the simulator and the bots parse every move they pick). -1 for
 * anything else, which the general split then judges and explains. */
static int plain_char(unsigned char c)
{
	return (unsigned)(c - 'a') < 26u || (unsigned)(c - '0') < 10u || c == '-';
}

static int split_plain(const char *move, struct mtok *t)
{
	const unsigned char *p = (const unsigned char *)move;
	size_t i = 0;
	int n = 0;
	for (;;) {
		if (n == MT_MAX_WORDS)
			return -1;
		char *w = t->w[n];
		size_t wl = 0;
		while (plain_char(p[i])) {
			if (wl + 1 >= MT_WORD_MAX)
				return -1;
			w[wl++] = (char)p[i++];
		}
		if (wl == 0)
			return -1;
		w[wl] = '\0';
		n++;
		if (p[i] == '\0')
			break;
		if (p[i++] != ' ')
			return -1;
	}
	t->n = n;
	return i <= GAME_MOVE_MAX ? 0 : -1;   /* i: the length */
}

int mt_split(const char *move, struct mtok *t, struct rerr *e)
{
	if (move && split_plain(move, t) == 0)
		return 0;
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

/* strcmp(a, b) == 0 without a call: the words of a move are short. */
static int same_word(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

int mt_is(const struct mtok *t, int i, const char *s)
{
	return i >= 0 && i < t->n && same_word(t->w[i], s);
}

const char *mt_clip(char *buf, size_t cap, const char *s, int chars)
{
	size_t o = 0;
	if (cap == 0)
		return buf;
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	while (*p && chars > 0) {
		int ul = utf8_len(p);
		if (ul == 0 || o + (size_t)ul >= cap)
			break;
		memcpy(buf + o, p, (size_t)ul);
		o += (size_t)ul;
		p += ul;
		chars--;
	}
	buf[o] = '\0';
	return buf;
}

int mt_verb(const struct mt_verb *verbs, int n, const struct mtok *t, struct rerr *e)
{
	const char *first = t->n > 0 ? t->w[0] : "";
	for (int k = 0; k < n; k++)
		if (same_word(first, verbs[k].word))
			return k;
	char list[GAME_ERR_MAX], q[4 * MT_QUOTE_CHARS + 1];
	size_t len = 0;
	list[0] = '\0';
	/* All verbs but the last, comma-separated; the last joins them in the
	 * format itself, so that each language says its own "und". */
	for (int k = 0; k + 1 < n && len < sizeof list; k++) {
		int w = snprintf(list + len, sizeof list - len, "%s%s", k == 0 ? "" : ", ",
				 verbs[k].shown ? verbs[k].shown : verbs[k].word);
		len += w > 0 ? (size_t)w : 0;
	}
	const char *last = n < 1 ? "" : verbs[n - 1].shown ? verbs[n - 1].shown : verbs[n - 1].word;
	mt_clip(q, sizeof q, t->n > 0 ? t->w[0] : "", MT_QUOTE_CHARS);
	if (n < 2)
		return rerr_set(e, "Unbekannter Zug '%s'. Möglich sind %s.", q, last);
	return rerr_set(e, "Unbekannter Zug '%s'. Möglich sind %s und %s.", q, list, last);
}

int mt_form(const struct mt_verb *v, const struct mtok *t, struct rerr *e)
{
	if (t->n < v->min_words || t->n > v->max_words || (v->link && !mt_is(t, v->link_at, v->link)))
		return rerr_set(e, "%s", v->usage);
	return 0;
}

/* Appends word w and a blank before it unless it is the first; -1 when it
 * does not fit. */
static int spell_word(char *out, size_t cap, size_t *len, const char *w)
{
	size_t n = strlen(w), at = *len + (*len > 0);
	if (at + n >= cap)
		return -1;
	if (*len > 0)
		out[*len] = ' ';
	memcpy(out + at, w, n);
	*len = at + n;
	out[*len] = '\0';
	return 0;
}

int mt_spell(const struct mt_verb *v, const char *const *args, int nargs, char *out, size_t cap)
{
	int words = 1 + nargs + (v->link != NULL);
	assert(cap > 0 && words >= v->min_words && words <= v->max_words);
	assert(!v->link || (v->link_at >= 1 && v->link_at <= nargs + 1));
	size_t len = 0;
	out[0] = '\0';
	if (spell_word(out, cap, &len, v->word) != 0)
		return -1;
	for (int i = 0, w = 1; i < nargs; i++, w++) {
		if (v->link && w == v->link_at) {
			if (spell_word(out, cap, &len, v->link) != 0)
				return -1;
			w++;
		}
		assert(args[i][0] && !strchr(args[i], ' '));
		if (spell_word(out, cap, &len, args[i]) != 0)
			return -1;
	}
	if (v->link && v->link_at == nargs + 1 && spell_word(out, cap, &len, v->link) != 0)
		return -1;
	return (int)len;
}
