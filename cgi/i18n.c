/* i18n.c — message catalogs (GNU .mo files) and the request's language; see i18n.h. */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "game.h"
#include "i18n.h"

const char *const lang_code[LANG__MAX] = { "de", "en" };
const char *const lang_name[LANG__MAX] = { "Deutsch", "English" };

/* One loaded .mo: its bytes, and its tables of n (length, offset) pairs for
 * the ids (sorted, as msgfmt writes them) and their translations. */
struct catalog {
	unsigned char *data;
	size_t size;
	uint32_t n, orig, trans;
	int swap;   /* written on a machine of the other byte order */
};

static struct catalog cats[LANG__MAX];
static enum lang cur = LANG_DE;

static uint32_t word(const struct catalog *c, size_t off)
{
	uint32_t w;
	memcpy(&w, c->data + off, 4);
	return c->swap ? __builtin_bswap32(w) : w;
}

/* The string of pair i of table `tab` (a NUL follows it: checked on load). */
static const char *str_at(const struct catalog *c, uint32_t tab, uint32_t i)
{
	return (const char *)c->data + word(c, tab + 8 * (size_t)i + 4);
}

/* 0 when every pair of table `tab` lies inside the file and ends in a NUL. */
static int table_ok(const struct catalog *c, uint32_t tab)
{
	if (tab > c->size || (c->size - tab) / 8 < c->n)
		return -1;
	for (uint32_t i = 0; i < c->n; i++) {
		uint32_t len = word(c, tab + 8 * (size_t)i), off = word(c, tab + 8 * (size_t)i + 4);
		if (off >= c->size || c->size - off <= len || c->data[off + len] != '\0')
			return -1;
	}
	return 0;
}

static int load_one(struct catalog *c, const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "i18n: %s: %s\n", path, strerror(errno));
		return -1;
	}
	unsigned char *data = NULL;
	size_t size = 0, cap = 0, got;
	do {
		if (size == cap) {
			unsigned char *p = realloc(data, cap = cap ? 2 * cap : 65536);
			if (!p) {
				free(data);
				fclose(f);
				return -1;
			}
			data = p;
		}
		got = fread(data + size, 1, cap - size, f);
		size += got;
	} while (got > 0);
	fclose(f);
	*c = (struct catalog){ .data = data, .size = size };
	uint32_t magic = size >= 28 ? word(c, 0) : 0;
	c->swap = magic == 0xde120495u;
	if (c->swap || magic == 0x950412deu) {
		c->n = word(c, 8);
		c->orig = word(c, 12);
		c->trans = word(c, 16);
		if (table_ok(c, c->orig) == 0 && table_ok(c, c->trans) == 0)
			return 0;
	}
	fprintf(stderr, "i18n: %s is not a message catalog\n", path);
	free(data);
	*c = (struct catalog){ 0 };
	return -1;
}

int i18n_load(const char *dir)
{
	int bad = 0;
	for (int l = 0; l < LANG__MAX; l++) {
		if (l == LANG_DE || cats[l].data)
			continue;
		char path[512];
		snprintf(path, sizeof path, "%s/%s.mo", dir, lang_code[l]);
		bad |= load_one(&cats[l], path);
	}
	return bad ? -1 : 0;
}

int i18n_load_root(const char *root)
{
	char dir[512];
	snprintf(dir, sizeof dir, "%s/locale", root);
	if (access(dir, R_OK | X_OK) != 0)   /* not installed: a source tree */
		snprintf(dir, sizeof dir, "%s/build/locale", root);
	return i18n_load(dir);
}

int i18n_parse(const char *s)
{
	if (!s)
		return -1;
	for (int l = 0; l < LANG__MAX; l++) {
		size_t n = strlen(lang_code[l]);
		if (strncasecmp(s, lang_code[l], n) == 0 && (s[n] == '\0' || s[n] == '-' || s[n] == '_'))
			return l;
	}
	return -1;
}

/* The q of one Accept-Language item's parameters (";q=0.8"): 0..1000. */
static int quality(const char *p, const char *end)
{
	const char *q = p;
	while ((q = memchr(q, 'q', (size_t)(end - q))) != NULL) {
		if (q + 1 < end && q[1] == '=') {
			q += 2;
			int v = 0, digits = 0, scale = 1000;
			if (q < end && *q == '1')
				return 1000;
			if (q < end && *q == '0')
				q++;
			if (q < end && *q == '.')
				for (q++; q < end && isdigit((unsigned char)*q) && digits < 3; q++, digits++)
					v += (*q - '0') * (scale /= 10);
			return v;
		}
		q++;
	}
	return 1000;
}

enum lang i18n_accept(const char *header)
{
	enum lang best = LANG_DE;
	int best_q = 0;
	for (const char *p = header; p && *p;) {
		const char *end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		char tag[16];
		size_t n = 0;
		while (p + n < end && p[n] != ';' && p[n] != ' ' && n + 1 < sizeof tag) {
			tag[n] = p[n];
			n++;
		}
		tag[n] = '\0';
		int l = i18n_parse(tag), q = quality(p + n, end);
		if (l >= 0 && q > best_q) {
			best = (enum lang)l;
			best_q = q;
		}
		p = *end ? end + 1 : end;
	}
	return best;
}

void i18n_use(enum lang l)
{
	cur = l >= 0 && l < LANG__MAX ? l : LANG_DE;
}

enum lang i18n_lang(void)
{
	return cur;
}

/* The index of msgid among language l's ids, or -1 (German, not there).
 * A plural entry's id is its singular: "one\0many" compares as "one". */
static long find(enum lang l, const char *msgid)
{
	const struct catalog *c = l > LANG_DE && l < LANG__MAX ? &cats[l] : NULL;
	if (!c || !c->data || !msgid || !*msgid)
		return -1;
	uint32_t lo = 0, hi = c->n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int d = strcmp(msgid, str_at(c, c->orig, mid));
		if (d == 0)
			return (long)mid;
		if (d < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

const char *i18n_get(enum lang l, const char *msgid)
{
	long i = find(l, msgid);
	return i < 0 ? msgid : str_at(&cats[l], cats[l].trans, (uint32_t)i);
}

const char *i18n_nget(enum lang l, const char *one, const char *many, long n)
{
	/* German and English alike: one form for 1, the other for every
	 * other number (the catalogs' Plural-Forms: nplurals=2; n != 1) */
	int form = n != 1;
	long i = find(l, one);
	if (i < 0)
		return form ? many : one;
	const struct catalog *c = &cats[l];
	uint32_t len = word(c, c->trans + 8 * (size_t)i);
	const char *t = str_at(c, c->trans, (uint32_t)i);
	if (form && strlen(t) < len)   /* the second form follows the first's NUL */
		return t + strlen(t) + 1;
	return form ? many : t;
}

const char *i18n_ntext(const char *one, const char *many, long n)
{
	return i18n_nget(cur, one, many, n);
}

const char *i18n_text(const char *msgid)
{
	return i18n_get(cur, msgid);
}

/* Argument i (0-based) of nargs NUL-terminated strings, or "". */
static const char *arg_at(const char *args, int nargs, int i)
{
	if (i < 0 || i >= nargs)
		return "";
	while (i-- > 0)
		args += strlen(args) + 1;
	return args;
}

char *i18n_format(enum lang l, const char *fmt, const char *args, int nargs, const char *de,
		  char *out, size_t cap)
{
	const char *t = fmt ? i18n_get(l, fmt) : NULL;
	if (cap == 0)
		return out;
	if (!t || t == fmt) {
		snprintf(out, cap, "%s", de ? de : "");
		return out;
	}
	size_t o = 0;
	int next = 0;
	for (const char *p = t; *p && o + 1 < cap; p++) {
		if (*p != '%') {
			out[o++] = *p;
			continue;
		}
		if (p[1] == '%') {
			out[o++] = '%';
			p++;
			continue;
		}
		int idx = next++;
		const char *q = p + 1;
		if (isdigit((unsigned char)*q)) {
			int n = 0;
			const char *r = q;
			while (isdigit((unsigned char)*r))
				n = n * 10 + (*r++ - '0');
			if (*r == '$') {
				idx = n - 1;
				q = r + 1;
			}
		}
		while (*q && strchr("-+ #0'123456789.hlLqjzt", *q))
			q++;
		if (!*q)
			break;
		const char *a = i18n_get(l, arg_at(args, nargs, idx));
		size_t al = strlen(a);
		if (al > cap - 1 - o)
			al = cap - 1 - o;
		memcpy(out + o, a, al);
		o += al;
		p = q;
	}
	out[o] = '\0';
	return out;
}

const char *i18n_rerr(const struct rerr *e)
{
	static char ring[4][2 * GAME_ERR_MAX];
	static unsigned turn;
	if (!e->fmt || cur == LANG_DE)
		return e->msg;
	char *out = ring[turn++ % 4];
	return i18n_format(cur, e->fmt, e->args, e->nargs, e->msg, out, sizeof ring[0]);
}
