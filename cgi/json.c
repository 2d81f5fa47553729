/* json.c — view tree → JSON; see json.h.
 *
 * The tree is written in one pass into the request's arena. It used to be
 * copied into a jansson tree first (an object with its own hash table per
 * dictionary, a node per value) and dumped from there: most of a JSON
 * twin's instructions went to that copy and dump (docs/benchmarks.md,
 * "Instructions per request: fixes"). The text is the one jansson wrote
 * with JSON_COMPACT, byte for byte: keys in the order they first appear, a
 * repeated key's later value in the first one's place, the items of a
 * section gathered into one array where its key first appears; strings
 * escaped as jansson escapes them ('"', '\\', \b \f \n \r \t, other control
 * characters as \u00XX; UTF-8 as it is, '/' as it is), and '<', '>', '&'
 * as \u003c, \u003e, \u0026. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http.h"
#include "json.h"

enum {
	JSON_OUT_FIRST = 16 * 1024,   /* first size of the text buffer */
	JSON_MAX_DEPTH = 32,          /* deeper dictionaries fail the page */
	LINEAR_KEYS = 8               /* up to this many entries, keys are found by a scan */
};

/* The text being written. */
struct out {
	struct arena *a;
	char *p;
	size_t len, cap;
};

/* Room for n more bytes (and the final "\n" and NUL); 0 when out of memory. */
static int reserve(struct out *o, size_t n)
{
	if (o->cap - o->len >= n + 2)
		return 1;
	size_t cap = o->cap * 2 > o->len + n + 2 ? o->cap * 2 : o->len + n + 2;
	char *p = arena_alloc_raw(o->a, cap);
	if (!p)
		return 0;
	memcpy(p, o->p, o->len);
	o->p = p;
	o->cap = cap;
	return 1;
}

/* One byte of punctuation: reserve() leaves room for two more than asked,
 * and the usual case (room left) does not call it. */
static inline int put_ch(struct out *o, char c)
{
	if (o->cap - o->len < 3 && !reserve(o, 1))
		return 0;
	o->p[o->len++] = c;
	return 1;
}

static int put(struct out *o, const char *s, size_t n)
{
	if (!reserve(o, n))
		return 0;
	memcpy(o->p + o->len, s, n);
	o->len += n;
	return 1;
}

/* What a byte becomes inside a JSON string: 0 itself, 1 \u00XX, else the
 * character after a backslash ('"', '\\', b f n r t), or 'u' for the
 * \u003c-style escapes of '<', '>', '&'. */
static const unsigned char escape_of[256] = {
	[0x00] = 1, [0x01] = 1, [0x02] = 1, [0x03] = 1, [0x04] = 1, [0x05] = 1, [0x06] = 1,
	[0x07] = 1, ['\b'] = 'b', ['\t'] = 't', ['\n'] = 'n', [0x0b] = 1, ['\f'] = 'f',
	['\r'] = 'r', [0x0e] = 1, [0x0f] = 1, [0x10] = 1, [0x11] = 1, [0x12] = 1, [0x13] = 1,
	[0x14] = 1, [0x15] = 1, [0x16] = 1, [0x17] = 1, [0x18] = 1, [0x19] = 1, [0x1a] = 1,
	[0x1b] = 1, [0x1c] = 1, [0x1d] = 1, [0x1e] = 1, [0x1f] = 1, ['"'] = '"',
	['\\'] = '\\', ['<'] = 'u', ['>'] = 'u', ['&'] = 'u',
};

/* Eight bytes at a time (SWAR): ONES has 1 in every byte. */
#define ONES 0x0101010101010101ULL
#define HIGHS (ONES * 0x80)

/* Nonzero when a byte of x is below n (n <= 128) or equal to b. */
#define BYTE_BELOW(x, n) (((x) - ONES * (n)) & ~(x) & HIGHS)
#define BYTE_IS(x, b) BYTE_BELOW((x) ^ (ONES * (b)), 1)

/* 1 when none of the eight bytes of x needs an escape (escape_of). */
static inline int word_plain(uint64_t x)
{
	return !(BYTE_BELOW(x, 0x20) | BYTE_IS(x, '"') | BYTE_IS(x, '\\') | BYTE_IS(x, '<') |
		 BYTE_IS(x, '>') | BYTE_IS(x, '&'));
}

/* s[0..n) as a JSON string; s must be well-formed UTF-8. Eight bytes that
 * need no escape are copied as a word; a byte is otherwise a table
 * look-up, cheaper than the comparisons per byte it replaces
 * (docs/benchmarks.md, "Figures from the code's comments"). */
static int put_string(struct out *o, const char *s, size_t n)
{
	static const char hex[] = "0123456789ABCDEF", lower[] = "0123456789abcdef";
	if (!reserve(o, n * 6 + 2))
		return 0;
	char *q = o->p + o->len;
	*q++ = '"';
	size_t i = 0;
	while (i < n) {
		uint64_t w;
		if (n - i >= 8 && (memcpy(&w, s + i, 8), word_plain(w))) {
			memcpy(q, &w, 8);
			q += 8;
			i += 8;
			continue;
		}
		for (size_t end = n - i >= 8 ? i + 8 : n; i < end; i++) {
			unsigned char c = (unsigned char)s[i], e = escape_of[c];
			if (!e) {
				*q++ = (char)c;
			} else if (e == 1 || e == 'u') {   /* jansson: "\u003c", but "\u001F" */
				memcpy(q, "\\u00", 4);
				q[4] = (e == 'u' ? lower : hex)[c >> 4];
				q[5] = (e == 'u' ? lower : hex)[c & 15];
				q += 6;
			} else {
				q[0] = '\\';
				q[1] = (char)e;
				q += 2;
			}
		}
	}
	*q++ = '"';
	o->len = (size_t)(q - o->p);
	return 1;
}

/* 1 when s[0..n) is plain ASCII or well-formed UTF-8 (ASCII checked eight
 * bytes at a time). */
static int utf8_ok(const char *s, size_t n)
{
	size_t i = 0;
	for (uint64_t w; n - i >= 8 && (memcpy(&w, s + i, 8), !(w & HIGHS)); i += 8)
		;
	for (; i < n; i++)
		if ((unsigned char)s[i] >= 0x80)
			return http_utf8_valid(s + i, n - i);
	return 1;
}

/* Bytes of the UTF-8 sequence a lead byte starts (1..4), 0 for a byte no
 * sequence starts with. */
static size_t lead_len(unsigned char c)
{
	return c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3
	       : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
}

/* A value string: as it is when it is well-formed UTF-8; else with every
 * byte that is not part of well-formed UTF-8 replaced by U+FFFD, so that
 * text cut in the middle of a character (or any other bad byte) becomes a
 * visible mark instead of a failed page. */
static int put_value(struct out *o, const char *s)
{
	size_t n = strlen(s), k = 0;
	if (utf8_ok(s, n))
		return put_string(o, s, n);
	char *fixed = arena_alloc_raw(o->a, n * 3 + 1);
	if (!fixed)
		return 0;
	for (size_t i = 0; i < n;) {
		size_t len = lead_len((unsigned char)s[i]);
		if (len > 0 && len <= n - i && http_utf8_valid(s + i, len)) {
			memcpy(fixed + k, s + i, len);
			k += len;
			i += len;
		} else {
			memcpy(fixed + k, "\xEF\xBF\xBD", 3);
			k += 3;
			i++;
		}
	}
	fprintf(stderr, "json: a string that was not UTF-8 was repaired\n");
	return put_string(o, fixed, k);
}

static int put_int(struct out *o, long long v)
{
	char tmp[24], *e = tmp + sizeof tmp, *p = e;
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--p = '-';
	return put(o, p, (size_t)(e - p));
}

/* One key of a dictionary as JSON has it: its last value, or the items of
 * its sections (an array, maybe empty): the entries from `first` to `last`
 * that are sections of this key (no list of its own to allocate). */
struct slot {
	const struct view_node *named;   /* the first entry of the key: its name */
	const struct view_node *val;     /* NULL: an array of items */
	const struct view_node *first, *last;
};

/* 1 when entries a and b have the same key (their kept length and hash
 * first: most keys differ there). */
static int same_key(const struct view_node *a, const struct view_node *b)
{
	return a->klen == b->klen && a->khash == b->khash && memcmp(a->key, b->key, a->klen) == 0;
}

/* The item after `it` in slot s, or NULL. */
static const struct view_node *next_item(const struct slot *s, const struct view_node *it)
{
	while (it != s->last) {
		it = it->next;
		if (it->kind == VIEW_SECTION && same_key(it, s->named))
			return it;
	}
	return NULL;
}

/* The keys of one dictionary, in the order they first appear. */
struct keys {
	struct slot *slot;
	int n;
	int *hash;        /* past LINEAR_KEYS entries: slot index + 1, 0 empty */
	size_t mask;
};

/* The slot of entry n's key, a new empty one if it has none yet. */
static struct slot *slot_of(struct keys *ks, const struct view_node *n)
{
	size_t h = 0;
	if (ks->hash) {
		for (h = n->khash & ks->mask; ks->hash[h]; h = (h + 1) & ks->mask)
			if (same_key(ks->slot[ks->hash[h] - 1].named, n))
				return &ks->slot[ks->hash[h] - 1];
		ks->hash[h] = ks->n + 1;
	} else {
		for (int i = 0; i < ks->n; i++)
			if (same_key(ks->slot[i].named, n))
				return &ks->slot[i];
	}
	struct slot *s = &ks->slot[ks->n++];
	*s = (struct slot){ n, NULL, NULL, NULL };
	return s;
}

static int check_dict(struct arena *a, const struct view_node *d, int depth);

/* What a later value of the same key replaces must still be a dictionary
 * that can be written (jansson built it, and failed the page if not). */
static int check_replaced(struct arena *a, const struct slot *s, int depth)
{
	if (s->val && s->val->kind == VIEW_INCLUDE && !check_dict(a, s->val, depth + 1))
		return 0;
	for (const struct view_node *it = s->first; it; it = next_item(s, it))
		if (!check_dict(a, it, depth + 1))
			return 0;
	return 1;
}

/* Sorts the entries of dictionary `d` (at `depth`) into keys; 0 without
 * memory or when a section meets a value of the same key (which jansson
 * refused as well). */
static int gather(struct arena *a, const struct view_node *d, int depth, struct keys *ks)
{
	size_t count = 0;
	for (const struct view_node *n = d->first; n; n = n->next)
		count++;
	memset(ks, 0, sizeof *ks);
	ks->slot = arena_alloc_raw(a, (count ? count : 1) * sizeof *ks->slot);
	if (!ks->slot)
		return 0;
	if (count > LINEAR_KEYS) {
		size_t size = 16;
		while (size < count * 2)
			size *= 2;
		ks->hash = arena_alloc(a, size * sizeof *ks->hash);
		if (!ks->hash)
			return 0;
		ks->mask = size - 1;
	}
	for (const struct view_node *n = d->first; n; n = n->next) {
		if (n->kind == VIEW_KIND__MAX)
			abort();
		struct slot *s = slot_of(ks, n);
		int section = n->kind == VIEW_SECTION || n->kind == VIEW_LIST;
		if (!section) {
			if ((s->val || s->first) && !check_replaced(a, s, depth))
				return 0;
			s->val = n;   /* a later value takes the first one's place */
			s->first = s->last = NULL;
			continue;
		}
		if (s->val) {
			fprintf(stderr, "json: '%s' is both a value and a section\n", n->key);
			return 0;
		}
		if (n->kind == VIEW_LIST)
			continue;
		if (!s->first)
			s->first = n;
		s->last = n;
	}
	return 1;
}

/* 1 when dictionary `d` could be written (put_dict without the text). */
static int check_dict(struct arena *a, const struct view_node *d, int depth)
{
	struct keys ks;
	if (depth > JSON_MAX_DEPTH || !gather(a, d, depth, &ks))
		return 0;
	for (int i = 0; i < ks.n; i++)
		if (!check_replaced(a, &ks.slot[i], depth))
			return 0;
	return 1;
}

static int put_dict(struct out *o, const struct view_node *d, int depth);

/* The value of one key. */
static int put_slot(struct out *o, const struct slot *s, int depth)
{
	const struct view_node *n = s->val;
	if (!n) {
		if (!put_ch(o, '['))
			return 0;
		for (const struct view_node *it = s->first; it; it = next_item(s, it))
			if ((it != s->first && !put_ch(o, ',')) || !put_dict(o, it, depth + 1))
				return 0;
		return put_ch(o, ']');
	}
	switch (n->kind) {
	case VIEW_STR:
		return put_value(o, n->str);
	case VIEW_NUM:
		return put_int(o, n->num);
	case VIEW_FLAG:
		return n->num ? put(o, "true", 4) : put(o, "false", 5);
	case VIEW_INCLUDE:
		return put_dict(o, n, depth + 1);
	default:
		return 0;
	}
}

/* Dictionary `d` as one JSON object. */
static int put_dict(struct out *o, const struct view_node *d, int depth)
{
	struct keys ks;
	if (depth > JSON_MAX_DEPTH || !gather(o->a, d, depth, &ks) || !put_ch(o, '{'))
		return 0;
	for (int i = 0; i < ks.n; i++) {
		const char *k = ks.slot[i].named->key;
		size_t kl = ks.slot[i].named->klen;
		if ((i > 0 && !put_ch(o, ',')) || !utf8_ok(k, kl) || !put_string(o, k, kl) ||
		    !put_ch(o, ':') || !put_slot(o, &ks.slot[i], depth))
			return 0;
	}
	return put_ch(o, '}');
}

char *json_render(struct arena *a, const struct view_node *root, size_t *len)
{
	struct out o = { a, NULL, 0, JSON_OUT_FIRST };
	o.p = arena_alloc_raw(a, o.cap);
	if (!o.p || !put_dict(&o, root, 0))
		return NULL;
	o.p[o.len++] = '\n';   /* reserve() always leaves room for two more */
	o.p[o.len] = '\0';
	*len = o.len;
	return o.p;
}
