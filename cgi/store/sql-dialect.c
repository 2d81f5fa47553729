/*
 * sql-dialect.c — a statement text written for SQLite as PostgreSQL takes
 * it (dialect.h). Pure text work: no library of either engine.
 */
#include <string.h>

#include "dialect.h"

/* The output so far; full once a byte did not fit. */
struct out {
	char *p;
	size_t n, cap;
	int full;
};

static void put(struct out *o, const char *s, size_t len)
{
	if (o->full || len >= o->cap - o->n) {
		o->full = 1;
		return;
	}
	memcpy(o->p + o->n, s, len);
	o->n += len;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_';
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Whether the word at s is kw (lower case), whole, in any case. */
static int word_is(const char *s, const char *kw)
{
	size_t k = 0;
	for (; kw[k]; k++)
		if (lower(s[k]) != kw[k])
			return 0;
	return !is_word(s[k]);
}

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	return s;
}

/* The end of a quoted literal or name starting at s (its quote doubled
 * inside stays in it). */
static const char *quoted_end(const char *s)
{
	char q = *s++;
	for (; *s; s++)
		if (*s == q) {
			if (s[1] != q)
				return s + 1;
			s++;
		}
	return s;
}

/* "INDEXED BY name" at s: the text after it (and the blanks before its
 * next word), else NULL. */
static const char *indexed_by(const char *s)
{
	if (!word_is(s, "indexed"))
		return NULL;
	const char *t = skip_blanks(s + 7);
	if (!word_is(t, "by"))
		return NULL;
	t = skip_blanks(t + 2);
	if (!is_word(*t))
		return NULL;
	while (is_word(*t))
		t++;
	return skip_blanks(t);
}

/* The end of a type hint at s, a comment holding "::TYPE" (TYPE letters,
 * digits, '_' and blanks; dialect.h), else NULL. */
static const char *type_hint(const char *s)
{
	if (strncmp(s, "/*::", 4) != 0 || !is_word(s[4]))
		return NULL;
	for (s += 4; is_word(*s) || *s == ' '; s++)
		;
	return s[0] == '*' && s[1] == '/' ? s + 2 : NULL;
}

/* A placeholder at s ('?'): $N written, and a type hint right after it as
 * PostgreSQL's cast; the text after them returned. */
static const char *placeholder(struct out *o, const char *s, long *high)
{
	char num[24];
	long n = 0;
	s++;
	if (is_digit(*s)) {
		for (; is_digit(*s); s++)
			n = n < 100000 ? n * 10 + (*s - '0') : n;
	} else {
		n = *high + 1;
	}
	if (n > *high)
		*high = n;
	size_t k = sizeof num;
	num[--k] = '\0';
	do
		num[--k] = (char)('0' + n % 10);
	while ((n /= 10) > 0 && k > 1);
	num[--k] = '$';
	put(o, num + k, sizeof num - 1 - k);
	const char *end = type_hint(s);
	if (end) {
		put(o, "::", 2);
		put(o, s + 4, (size_t)(end - 2 - (s + 4)));
		s = end;
	}
	return s;
}

size_t st_pg_text(const char *sqlite_sql, char *out, size_t cap)
{
	struct out o = { out, 0, cap, cap == 0 };
	long high = 0;
	const char *s = sqlite_sql, *next;
	while (*s && !o.full) {
		if (*s == '\'' || *s == '"') {
			next = quoted_end(s);
			put(&o, s, (size_t)(next - s));
			s = next;
		} else if (*s == '?') {
			s = placeholder(&o, s, &high);
		} else if ((s == sqlite_sql || !is_word(s[-1])) && (next = indexed_by(s))) {
			s = next;
		} else {
			put(&o, s++, 1);
		}
	}
	if (o.full) {
		if (cap)
			out[0] = '\0';
		return 0;
	}
	out[o.n] = '\0';
	return o.n;
}
