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
 * as \u003c, \u003e, \u0026. A dictionary whose keys come in that order
 * already (each new, or the next item of the section before it) is
 * written straight from its entries; only the others are sorted into
 * slots first (docs/benchmarks.md, "The JSON twin's text, cheaper"). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "http.h"
#include "json.h"

enum {
	JSON_OUT_FIRST = 16 * 1024,   /* first size of the text buffer */
	JSON_MAX_DEPTH = 32,          /* deeper dictionaries fail the page */
	LINEAR_KEYS = 32,             /* up to this many entries, keys are found by a scan */
	KEY_CACHE = 1024              /* literal keys known to need no escape */
};

/* The text being written. */
struct out {
	struct arena *a;
	char *p;
	size_t len, cap;
};

/* Grows the text for n more bytes (and two): where it lies when nothing
 * was allocated behind it, else a copy; 0 when out of memory. */
static __attribute__((noinline)) int grow(struct out *o, size_t n)
{
	size_t need = o->len + n + 2;
	size_t cap = o->cap * 2 > need ? o->cap * 2 : need;
	cap = (cap + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	if (arena_grow_last(o->a, o->p, o->cap, cap)) {
		o->cap = cap;
		return 1;
	}
	char *p = arena_alloc_raw(o->a, cap);
	if (!p)
		return 0;
	memcpy(p, o->p, o->len);
	o->p = p;
	o->cap = cap;
	return 1;
}

/* Room for n more bytes (and the final "\n" and NUL); 0 when out of memory. */
static inline int reserve(struct out *o, size_t n)
{
	return o->cap - o->len >= n + 2 || grow(o, n);
}

/* One byte of punctuation. */
static inline int put_ch(struct out *o, char c)
{
	if (!reserve(o, 1))
		return 0;
	o->p[o->len++] = c;
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

/* 1 when none of the eight bytes of x needs an escape (escape_of); a byte
 * from 0x80 up needs none. */
static inline int word_plain(uint64_t x)
{
	/* x | 2 is 0x3e for '<' and '>' only, x | 4 is 0x26 for '"' and '&' */
	return !(BYTE_BELOW(x, 0x20) | BYTE_IS(x | ONES * 2, 0x3e) | BYTE_IS(x | ONES * 4, 0x26) |
		 BYTE_IS(x, '\\'));
}

#ifdef __SSE2__
/* The same for the 16 bytes at s: a bit for each byte that needs an
 * escape; *high gets a bit for each byte from 0x80 up. */
static inline unsigned escapes16(const char *s, unsigned *high)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)s);
	__m128i ctl = _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(0x1f)), x);
	__m128i angle = _mm_cmpeq_epi8(_mm_or_si128(x, _mm_set1_epi8(2)), _mm_set1_epi8(0x3e));
	__m128i quote = _mm_cmpeq_epi8(_mm_or_si128(x, _mm_set1_epi8(4)), _mm_set1_epi8(0x26));
	__m128i back = _mm_cmpeq_epi8(x, _mm_set1_epi8('\\'));
	*high |= (unsigned)_mm_movemask_epi8(x);
	return (unsigned)_mm_movemask_epi8(
		_mm_or_si128(_mm_or_si128(ctl, angle), _mm_or_si128(quote, back)));
}
#endif

static inline uint64_t load8(const char *s)
{
	uint64_t w;
	memcpy(&w, s, 8);
	return w;
}

static inline uint64_t load4(const char *s)
{
	uint32_t w;
	memcpy(&w, s, 4);
	return w;
}

/* Writes the bytes s[i..end) at q, escaped; returns the end of what it wrote. */
static char *escape_bytes(char *q, const char *s, size_t i, size_t end)
{
	static const char hex[] = "0123456789ABCDEF", lower[] = "0123456789abcdef";
	for (; i < end; i++) {
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
	return q;
}

/* s[0..n) escaped at q (room for n * 6 + 8 bytes); *high gets the bytes'
 * high bits. Sixteen bytes (SSE2) or eight that need no escape are copied
 * at once, the last ones as a word that overlaps the one before it, four to seven bytes
 * as two overlapping 4-byte words; other bytes one at a time through the
 * table (docs/benchmarks.md, "Figures from the code's comments" and "The
 * JSON twin's text, cheaper"). */
static char *escape_into(char *q, const char *s, size_t n, uint64_t *high)
{
	size_t i = 0;
	uint64_t h = 0;
	if (n < 8) {
		if (n >= 4) {
			uint64_t lo = load4(s), hi = load4(s + n - 4);
			if (word_plain(lo | hi << 32)) {
				*high = (lo | hi) & HIGHS;
				memcpy(q, &lo, 4);
				memcpy(q + n - 4, &hi, 4);
				return q + n;
			}
		}
		for (size_t k = 0; k < n; k++)
			h |= (unsigned char)s[k];
		*high = h & 0x80;
		return escape_bytes(q, s, 0, n);
	}
	int copied = 0;   /* the last eight bytes went as a word */
#ifdef __SSE2__
	unsigned h16 = 0;
	for (; n - i >= 16; i += 16) {
		if (!escapes16(s + i, &h16)) {
			memcpy(q, s + i, 16);
			q += 16;
			copied = 1;
		} else {
			q = escape_bytes(q, s, i, i + 16);
			copied = 0;
		}
	}
	h |= h16 ? HIGHS : 0;
#endif
	while (n - i >= 8) {
		uint64_t w = load8(s + i);
		h |= w;
		if (word_plain(w)) {
			memcpy(q, &w, 8);
			q += 8;
			copied = 1;
		} else {
			q = escape_bytes(q, s, i, i + 8);
			copied = 0;
		}
		i += 8;
	}
	if (i < n) {
		uint64_t w = load8(s + n - 8);
		h |= w;
		if (copied && word_plain(w)) {
			memcpy(q - (8 - (n - i)), &w, 8);
			q += n - i;
		} else {
			q = escape_bytes(q, s, i, n);
		}
	}
	*high = h & HIGHS;
	return q;
}

/* Bytes of the UTF-8 sequence a lead byte starts (1..4), 0 for a byte no
 * sequence starts with. */
static size_t lead_len(unsigned char c)
{
	return c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3
	       : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
}

/* 1 when s[0..n) is well-formed UTF-8: ASCII skipped sixteen (SSE2) or
 * eight bytes at a time, and in a block with a byte from 0x80 up straight
 * to that byte (byte by byte up to it was 10k instructions of a DNA twin's
 * German texts); a two-byte sequence (the umlauts) checked here, longer
 * ones by http_utf8_valid. */
static int utf8_ok(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n) {
#ifdef __SSE2__
		if (n - i >= 16) {
			unsigned m = (unsigned)_mm_movemask_epi8(
				_mm_loadu_si128((const __m128i *)(const void *)(s + i)));
			if (!m) {
				i += 16;
				continue;
			}
			i += (size_t)__builtin_ctz(m);
		} else
#endif
		if (n - i >= 8) {
			uint64_t w = load8(s + i) & HIGHS;
			if (!w) {
				i += 8;
				continue;
			}
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			i += (size_t)__builtin_ctzll(w) / 8;
#endif
		}
		unsigned char c = (unsigned char)s[i];
		size_t len = lead_len(c);
		if (len == 1) {
			i++;
			continue;
		}
		if (!len || len > n - i)
			return 0;
		if (len == 2 ? ((unsigned char)s[i + 1] & 0xC0) != 0x80 : !http_utf8_valid(s + i, len))
			return 0;
		i += len;
	}
	return 1;
}

/* s[0..n) as a JSON string: 1, 0 out of memory, -1 (nothing written) when
 * it is not well-formed UTF-8. ASCII is checked as the text is copied;
 * only a string with a byte from 0x80 up is validated as well. */
static int put_string(struct out *o, const char *s, size_t n)
{
	if (!reserve(o, n * 6 + 10))
		return 0;
	char *q = o->p + o->len;
	uint64_t high;
	*q = '"';
	char *e = escape_into(q + 1, s, n, &high);
	if (high && !utf8_ok(s, n))
		return -1;
	*e++ = '"';
	o->len = (size_t)(e - o->p);
	return 1;
}

/* A value string of n bytes: as it is when it is well-formed UTF-8; else
 * with every byte that is not part of well-formed UTF-8 replaced by
 * U+FFFD, so that text cut in the middle of a character (or any other bad
 * byte) becomes a visible mark instead of a failed page. */
static int put_value(struct out *o, const char *s, size_t n)
{
	int r = put_string(o, s, n);
	if (r >= 0)
		return r;
	size_t k = 0;
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
	return put_string(o, fixed, k) > 0;
}

/* The program's read-only image (as in view.c): a key there is a literal,
 * the same text at the same address for as long as the program runs. */
extern const char __executable_start[], __init_array_start[];

/* Literal keys seen to be well-formed UTF-8 that needs no escape, by address:
 * such a key is written as it is, without looking at its bytes again. */
static const char *plain_keys[KEY_CACHE];

static inline size_t key_slot(const char *k)
{
	return (size_t)((uint64_t)(uintptr_t)k * 0x9E3779B97F4A7C15ULL >> 54) & (KEY_CACHE - 1);
}

/* Short copies (keys) without a call: n <= 16 as two overlapping words,
 * n < 4 as three bytes that may overlap. */
static inline void copy_short(char *q, const char *s, size_t n)
{
	if (n >= 8 && n <= 16) {
		uint64_t a = load8(s), b = load8(s + n - 8);
		memcpy(q, &a, 8);
		memcpy(q + n - 8, &b, 8);
	} else if (n >= 4 && n < 8) {
		uint32_t a = (uint32_t)load4(s), b = (uint32_t)load4(s + n - 4);
		memcpy(q, &a, 4);
		memcpy(q + n - 4, &b, 4);
	} else if (n > 0 && n < 4) {
		char a = s[0], b = s[n / 2], c = s[n - 1];
		q[0] = a;
		q[n / 2] = b;
		q[n - 1] = c;
	} else if (n) {
		memcpy(q, s, n);
	}
}

/* "00" to "99". */
static const char two_digits[] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* A number, without printf: below 100 straight into the text, else two
 * digits at a time backwards into a small buffer, copied as words. */
static int put_int(struct out *o, long long v)
{
	if (!reserve(o, 24))
		return 0;
	char *q = o->p + o->len;
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	if (v < 0)
		*q++ = '-';
	if (u < 10) {
		*q++ = (char)('0' + u);
	} else if (u < 100) {
		memcpy(q, two_digits + 2 * u, 2);
		q += 2;
	} else {
		char tmp[24], *e = tmp + sizeof tmp, *p = e;
		for (; u >= 100; u /= 100) {
			p -= 2;
			memcpy(p, two_digits + 2 * (u % 100), 2);
		}
		if (u < 10) {
			*--p = (char)('0' + u);
		} else {
			p -= 2;
			memcpy(p, two_digits + 2 * u, 2);
		}
		copy_short(q, p, (size_t)(e - p));
		q += e - p;
	}
	o->len = (size_t)(q - o->p);
	return 1;
}

/* put_key() of a key not known yet: written with its escapes, and
 * remembered when it is a literal that needs none. */
static __attribute__((noinline)) int put_new_key(struct out *o, const char *k, size_t kl)
{
	size_t before = o->len;
	if (put_string(o, k, kl) <= 0 || !put_ch(o, ':'))
		return 0;
	if (o->len - before == kl + 3 && (uintptr_t)k >= (uintptr_t)__executable_start &&
	    (uintptr_t)k < (uintptr_t)__init_array_start)
		plain_keys[key_slot(k)] = k;   /* well-formed, and written as it is */
	return 1;
}

/* A key and its colon; the caller reserved room for klen + 3 bytes. Keys
 * must be well-formed UTF-8 (jansson refused others, and so does this). */
static inline int put_key(struct out *o, const char *k, size_t kl)
{
	const char **c = &plain_keys[key_slot(k)];
	if (*c == k) {
		char *q = o->p + o->len;
		q[0] = '"';
		copy_short(q + 1, k, kl);
		q[kl + 1] = '"';
		q[kl + 2] = ':';
		o->len += kl + 3;
		return 1;
	}
	return put_new_key(o, k, kl);
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
	return a->key == b->key ||
	       (a->klen == b->klen && a->khash == b->khash && memcmp(a->key, b->key, a->klen) == 0);
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
	uint64_t seen;    /* up to LINEAR_KEYS entries: a bit of each key's hash */
};

/* The slot of entry n's key, a new empty one if it has none yet. Up to
 * LINEAR_KEYS entries, a key whose bit is not yet in `seen` is new
 * without a scan. */
static struct slot *slot_of(struct keys *ks, const struct view_node *n)
{
	size_t h = 0;
	if (ks->hash) {
		for (h = n->khash & ks->mask; ks->hash[h]; h = (h + 1) & ks->mask)
			if (same_key(ks->slot[ks->hash[h] - 1].named, n))
				return &ks->slot[ks->hash[h] - 1];
		ks->hash[h] = ks->n + 1;
	} else {
		uint64_t bit = 1ULL << (n->khash & 63);
		if (ks->seen & bit) {
			for (int i = 0; i < ks->n; i++)
				if (same_key(ks->slot[i].named, n))
					return &ks->slot[i];
		}
		ks->seen |= bit;
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

/* Sorts the entries of dictionary `d` (at `depth`) into keys, in `room`
 * (LINEAR_KEYS slots) when they fit, else in the arena; 0 without memory
 * or when a section meets a value of the same key (which jansson refused
 * as well). An entry of the same key as the one before it (the items of a
 * section) takes its slot without a search. */
static int gather(struct arena *a, const struct view_node *d, int depth, struct keys *ks,
		  struct slot *room)
{
	size_t count = d->count;
	*ks = (struct keys){ 0 };
	ks->slot = count <= LINEAR_KEYS ? room : arena_alloc_raw(a, count * sizeof *ks->slot);
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
	struct slot *s = NULL;
	for (const struct view_node *n = d->first; n; n = n->next) {
		if (n->kind == VIEW_KIND__MAX)
			abort();
		if (!s || !same_key(s->named, n))
			s = slot_of(ks, n);
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
	struct slot room[LINEAR_KEYS];
	if (depth > JSON_MAX_DEPTH || !gather(a, d, depth, &ks, room))
		return 0;
	for (int i = 0; i < ks.n; i++)
		if (!check_replaced(a, &ks.slot[i], depth))
			return 0;
	return 1;
}

static int put_dict(struct out *o, const struct view_node *d, int depth);

/* A value entry (not a section) as JSON. */
static int put_entry(struct out *o, const struct view_node *n, int depth)
{
	switch (n->kind) {
	case VIEW_STR:
		return put_value(o, n->str, (size_t)n->num);
	case VIEW_NUM:
		return put_int(o, n->num);
	case VIEW_FLAG:
		if (!reserve(o, 8))
			return 0;
		memcpy(o->p + o->len, n->num ? "true" : "fals", 4);   /* "false": one more */
		o->p[o->len + 4] = 'e';
		o->len += n->num ? 4 : 5;
		return 1;
	case VIEW_INCLUDE:
		return put_dict(o, n, depth + 1);
	default:
		return 0;
	}
}

/* The value of one key. */
static int put_slot(struct out *o, const struct slot *s, int depth)
{
	if (!s->val) {
		if (!put_ch(o, '['))
			return 0;
		for (const struct view_node *it = s->first; it; it = next_item(s, it))
			if ((it != s->first && !put_ch(o, ',')) || !put_dict(o, it, depth + 1))
				return 0;
		return put_ch(o, ']');
	}
	return put_entry(o, s->val, depth);
}

/* 1 when an entry before n in its dictionary, from `first` up to `prev`,
 * has n's key. */
static int seen_before(const struct view_node *first, const struct view_node *prev,
		       const struct view_node *n)
{
	for (const struct view_node *e = first;; e = e->next) {
		if (same_key(e, n))
			return 1;
		if (e == prev)
			return 0;
	}
}

/* 1 when every key of dictionary d is new or continues the sections of
 * the entry before it (almost every dictionary of a page), so that it can
 * be written in one pass over its entries: no slots, and no search but
 * for a key whose bit (of 128) an earlier key set. */
static int in_order(const struct view_node *d)
{
	uint64_t seen[2] = { 0, 0 };
	const struct view_node *prev = NULL;
	for (const struct view_node *n = d->first; n; prev = n, n = n->next) {
		int section = n->kind == VIEW_SECTION || n->kind == VIEW_LIST;
		if (prev && same_key(prev, n)) {
			if (!section || !(prev->kind == VIEW_SECTION || prev->kind == VIEW_LIST))
				return 0;
			continue;
		}
		unsigned b = n->khash & 127;
		if ((seen[b >> 6] >> (b & 63) & 1) && seen_before(d->first, prev, n))
			return 0;
		seen[b >> 6] |= 1ULL << (b & 63);
	}
	return 1;
}

/* Dictionary d, in_order(), in one pass over its entries. */
static int put_direct(struct out *o, const struct view_node *d, int depth)
{
	const struct view_node *prev = NULL;
	int open = 0, items = 0;   /* an array of prev's key is open, with items */
	if (!put_ch(o, '{'))
		return 0;
	for (const struct view_node *n = d->first; n; prev = n, n = n->next) {
		if (n->kind == VIEW_KIND__MAX)
			abort();
		int section = n->kind == VIEW_SECTION || n->kind == VIEW_LIST;
		if (!prev || !same_key(prev, n)) {
			/* room for "],", the key and a number, true, false or "[" */
			if (!reserve(o, n->klen + 32))
				return 0;
			if (open)
				o->p[o->len++] = ']';
			if (prev)
				o->p[o->len++] = ',';
			if (!put_key(o, n->key, n->klen))
				return 0;
			open = section;
			items = 0;
			if (!section) {
				if (!put_entry(o, n, depth))
					return 0;
				continue;
			}
			o->p[o->len++] = '[';
		}
		if (n->kind == VIEW_SECTION &&
		    ((items++ && !put_ch(o, ',')) || !put_dict(o, n, depth + 1)))
			return 0;
	}
	return (!open || put_ch(o, ']')) && put_ch(o, '}');
}

/* The gathered keys of a dictionary as one JSON object. */
static int put_keys(struct out *o, const struct keys *ks, int depth)
{
	if (!put_ch(o, '{'))
		return 0;
	for (int i = 0; i < ks->n; i++) {
		const struct view_node *named = ks->slot[i].named;
		if (!reserve(o, named->klen + 4))
			return 0;
		if (i > 0)
			o->p[o->len++] = ',';
		if (!put_key(o, named->key, named->klen) ||
		    !put_slot(o, &ks->slot[i], depth))
			return 0;
	}
	return put_ch(o, '}');
}

/* Dictionary `d` as one JSON object. */
static int put_dict(struct out *o, const struct view_node *d, int depth)
{
	struct keys ks;
	struct slot room[LINEAR_KEYS];
	if (depth > JSON_MAX_DEPTH)
		return 0;
	if (in_order(d))
		return put_direct(o, d, depth);
	return gather(o->a, d, depth, &ks, room) && put_keys(o, &ks, depth);
}

/* The size of the last text written, for the next one's buffer. */
static size_t last_len;

char *json_render(struct arena *a, const struct view_node *root, size_t *len)
{
	size_t first = last_len + last_len / 8 + 64;
	struct out o = { a, NULL, 0, first > JSON_OUT_FIRST ? first : JSON_OUT_FIRST };
	o.cap = (o.cap + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	o.p = arena_alloc_raw(a, o.cap);
	if (!o.p || !put_dict(&o, root, 0))
		return NULL;
	o.p[o.len++] = '\n';   /* reserve() always leaves room for two more */
	o.p[o.len] = '\0';
	*len = o.len;
	last_len = o.len;
	return o.p;
}

/* ---- written as the view is made (json_stream_*, json.h) ----------------
 * The same text as json_render() of the tree those calls would build, with
 * no tree: each entry is written where it goes as it comes. A dictionary
 * keeps a record of each of its keys while it is open (where its key lies
 * in the text); a key that comes back (a later value, or items of a
 * section after other keys) has its text written at the end and then
 * moved into the first one's place, as json_render's slots put it. Whether
 * a key is new is told by a bit of its hash (of 512, or of 4,096 in the
 * root and included dictionaries) in most cases. */

/* One key of an open dictionary. Its value follows its key and colon and
 * ends where the next key's comma is (or the text's end, for the last). */
struct jrec {
	uint32_t kpos;         /* its key's first byte in the text */
	uint32_t meta;         /* an array: its items << 1 | 1; a value: 0 */
	uint32_t khash;        /* view_key_hash */
	uint16_t klen, wlen;   /* the key's bytes, and as written (with escapes) */
	const char *kcopy;     /* only when wlen != klen: the key's bytes */
};

_Static_assert(offsetof(struct jrec, klen) == offsetof(struct jrec, khash) + 4 &&
		       offsetof(struct jrec, wlen) == offsetof(struct jrec, khash) + 6,
	       "fast_key() copies khash, klen and wlen as 8 bytes");

/* One open dictionary. */
struct jlvl {
	unsigned rec0;         /* its first record */
	unsigned bits;         /* its bits of key hashes, less one: 511, or 4095 for the
				  root and included dictionaries (a board's hundred keys) */
	int open;              /* its last record is an array not closed yet */
	int pend;              /* the record that the open child's text goes to, -1: none */
	int append;            /* that text is an item of the record's array, else its value */
	uint32_t pend_at;      /* where that text starts */
	uint64_t seen[64];     /* a bit of each of its keys' hashes (bits + 1 of them) */
};

struct json_stream {
	struct out o;
	struct jrec *rec;
	unsigned nrec, caprec;
	int depth;             /* the open dictionary: lvl[depth] */
	int maxdepth;          /* the deepest depth so far (json_group_take) */
	int failed;
	struct jlvl *cur;      /* &lvl[depth] */
	struct jlvl lvl[JSON_MAX_DEPTH + 1];
};

enum { JSON_RECS_FIRST = 512, JSON_KEY_MAX = 0xFFFF, JSON_TEXT_MAX = 0x7FFFFFFF };

/* Literal keys written once without an escape, by address (as plain_keys),
 * with their length and hash: such a key is neither measured nor hashed
 * again. Two ways: a literal is in the slot its address gives or in the
 * other of that pair of slots (one way alone, two keys of a page that
 * met in a slot took the slow path at every request, and which keys met
 * changed with any change of the program's read-only data: 1-5k of a
 * JSON twin). A slot once taken keeps its literal; a third one of a pair
 * takes the second slot. */
enum { STREAM_KEYS = 4096, STREAM_KEY_TEXT = 32 };
static struct stream_key {
	const char *k;
	unsigned klen, khash;
	uint64_t hlw;   /* a record's khash, klen and wlen as fast_key() stores them */
	/* "key": as it is written, copied as 32 bytes at once (a key longer
	 * than STREAM_KEY_TEXT - 3 is not kept) */
	char text[STREAM_KEY_TEXT];
} stream_keys[STREAM_KEYS];

static inline size_t stream_slot(const char *k)
{
	return (size_t)((uint64_t)(uintptr_t)k * 0x9E3779B97F4A7C15ULL >> 52) & (STREAM_KEYS - 1);
}

/* The slot where literal key k is when it is known (else the second). */
static inline size_t stream_key_slot(const char *k)
{
	size_t s = stream_slot(k);
	return stream_keys[s].k == k ? s : s ^ 1;
}

struct json_stream *json_stream_new(struct arena *a)
{
	struct json_stream *js = arena_alloc_raw(a, sizeof *js);
	struct jrec *rec = arena_alloc_raw(a, JSON_RECS_FIRST * sizeof *rec);
	size_t first = last_len + last_len / 8 + 64;
	if (!js || !rec)
		return NULL;
	js->o = (struct out){ a, NULL, 0, first > JSON_OUT_FIRST ? first : JSON_OUT_FIRST };
	js->o.cap = (js->o.cap + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	js->o.p = arena_alloc_raw(a, js->o.cap);
	if (!js->o.p)
		return NULL;
	js->rec = rec;
	js->nrec = 0;
	js->caprec = JSON_RECS_FIRST;
	js->depth = 0;
	js->maxdepth = 0;
	js->failed = 0;
	js->lvl[0] = (struct jlvl){ .pend = -1, .bits = 4095 };
	js->cur = &js->lvl[0];
	js->o.p[js->o.len++] = '{';
	return js;
}

/* Marks the stream failed; 0. */
static __attribute__((noinline, cold)) int js_fail(struct json_stream *js)
{
	js->failed = 1;
	js->caprec = 0;   /* fast_key()'s test of the records' room refuses from now on */
	return 0;
}

/* A key: its length and hash, from the cache when it is a known literal. */
struct jkey {
	const char *k;
	unsigned len, hash;
	int known;
};

static inline void key_of(struct jkey *k, const char *key)
{
	size_t slot = stream_key_slot(key);
	k->k = key;
	if (stream_keys[slot].k == key) {
		k->len = stream_keys[slot].klen;
		k->hash = stream_keys[slot].khash;
		k->known = 1;
		return;
	}
	size_t n = strlen(key);
	k->len = n > JSON_KEY_MAX ? JSON_KEY_MAX + 1 : (unsigned)n;
	k->hash = view_key_hash(key, n);
	k->known = 0;
}

/* 1 when record r has key k. */
static inline int rec_is(const struct json_stream *js, const struct jrec *r, const struct jkey *k)
{
	return r->khash == k->hash && r->klen == k->len &&
	       memcmp(r->wlen == r->klen ? js->o.p + r->kpos : r->kcopy, k->k, k->len) == 0;
}

/* 1 when k may be a key of dictionary L already (its bit was set), and
 * sets the bit. */
static inline int maybe_seen(struct jlvl *L, const struct jkey *k)
{
	unsigned b = (k->hash >> 3) & L->bits;
	uint64_t bit = 1ULL << (b & 63), *w = &L->seen[b >> 6];
	int was = (*w & bit) != 0;
	*w |= bit;
	return was;
}

/* The record of key k in dictionary L (whose bit was set), or NULL. */
static __attribute__((noinline)) struct jrec *rec_find(struct json_stream *js,
							const struct jlvl *L,
							const struct jkey *k)
{
	for (struct jrec *r = js->rec + L->rec0, *e = js->rec + js->nrec; r < e; r++)
		if (rec_is(js, r, k))
			return r;
	return NULL;
}

/* Where record r's value ends: the next key's comma, or `end` for the
 * dictionary's last. */
static inline size_t rec_end(const struct json_stream *js, const struct jrec *r, size_t end)
{
	return r + 1 < js->rec + js->nrec ? r[1].kpos - 2 : end;
}

/* Closes the array of the open dictionary's last key, when one is open. */
static inline int close_array(struct json_stream *js, struct jlvl *L)
{
	if (!L->open)
		return 1;
	L->open = 0;
	return put_ch(&js->o, ']');
}

/* More room for records. */
static __attribute__((noinline)) int more_recs(struct json_stream *js)
{
	struct jrec *r = arena_alloc_raw(js->o.a, 2 * js->caprec * sizeof *r);
	if (!r)
		return 0;
	memcpy(r, js->rec, js->nrec * sizeof *r);
	js->rec = r;
	js->caprec *= 2;
	return 1;
}

/* new_key() of a key not known yet: written with its escapes, and cached
 * when it is a literal written as it is. */
static __attribute__((noinline)) int put_stream_key(struct out *o, const struct jkey *k)
{
	size_t before = o->len;
	if (k->len > JSON_KEY_MAX || put_string(o, k->k, k->len) <= 0 || !put_ch(o, ':'))
		return 0;
	if (o->len - before == k->len + 3 && k->len + 3 <= STREAM_KEY_TEXT &&
	    (uintptr_t)k->k >= (uintptr_t)__executable_start &&
	    (uintptr_t)k->k < (uintptr_t)__init_array_start) {
		size_t slot = stream_slot(k->k);
		if (stream_keys[slot].k)   /* taken: the pair's other slot */
			slot ^= 1;
		struct jrec r = { .khash = k->hash, .klen = (uint16_t)k->len,
				  .wlen = (uint16_t)k->len };
		stream_keys[slot].k = k->k;
		stream_keys[slot].klen = k->len;
		stream_keys[slot].khash = k->hash;
		memcpy(&stream_keys[slot].hlw, &r.khash, 8);
		memcpy(stream_keys[slot].text, o->p + before, k->len + 3);
	}
	return 1;
}

/* A new key in the open dictionary: its comma, the key and its colon
 * written, its record made (a value's); its value goes next. NULL when out
 * of memory or the key is not UTF-8. */
static inline struct jrec *new_key(struct json_stream *js, struct jlvl *L, const struct jkey *k)
{
	struct out *o = &js->o;
	if ((js->nrec == js->caprec && !more_recs(js)) || !reserve(o, k->len + 40) ||
	    o->len > JSON_TEXT_MAX)
		return NULL;
	if (js->nrec > L->rec0)
		o->p[o->len++] = ',';
	size_t kpos = o->len + 1;
	if (k->known) {
		char *q = o->p + o->len;
		q[0] = '"';
		copy_short(q + 1, k->k, k->len);
		q[k->len + 1] = '"';
		q[k->len + 2] = ':';
		o->len += k->len + 3;
	} else if (!put_stream_key(o, k)) {
		return NULL;
	}
	struct jrec *r = &js->rec[js->nrec++];
	r->kpos = (uint32_t)kpos;
	r->khash = k->hash;
	r->klen = (uint16_t)k->len;
	r->wlen = (uint16_t)(o->len - kpos - 2);
	r->meta = 0;
	r->kcopy = k->known ? k->k : NULL;   /* a known literal: json_stream_open's test */
	if (r->wlen != r->klen && !(r->kcopy = arena_strndup(o->a, k->k, k->len)))
		return NULL;   /* (a key written with escapes is compared with a copy) */
	return r;
}

/* Moves the text written since L->pend_at into record r's place: as its
 * new value, or as one more item of its array. */
static __attribute__((noinline)) int splice(struct json_stream *js, struct jlvl *L,
					    struct jrec *r)
{
	struct out *o = &js->o;
	size_t at = L->pend_at, n = o->len - at, from = r->kpos + r->wlen + 2,
	       to = rec_end(js, r, at);
	char stack[1024], *tmp = n + 1 <= sizeof stack ? stack : arena_alloc_raw(o->a, n + 1);
	if (!tmp || !reserve(o, 1))
		return 0;
	size_t m = 0;
	if (L->append) {
		from = to - 1;   /* before its ']' */
		to = from;
		if (r->meta >> 1)
			tmp[m++] = ',';
		r->meta += 2;
	} else {
		r->meta = 0;
	}
	memcpy(tmp + m, o->p + at, n);
	m += n;
	memmove(o->p + from + m, o->p + to, at - to);
	memcpy(o->p + from, tmp, m);
	o->len = at - (to - from) + m;
	uint32_t delta = (uint32_t)(m - (to - from));   /* (modulo: it may shrink) */
	for (struct jrec *e = r + 1; e < js->rec + js->nrec; e++)
		e->kpos += delta;
	L->pend = -1;
	return 1;
}

/* Opens a child dictionary (its '{' written): an included one (big, 1) or
 * a section's item (0). */
static inline int push(struct json_stream *js, int big)
{
	if (js->depth >= JSON_MAX_DEPTH || !put_ch(&js->o, '{'))
		return js_fail(js);
	struct jlvl *C = js->cur = &js->lvl[++js->depth];
	if (js->depth > js->maxdepth)
		js->maxdepth = js->depth;
	C->bits = big ? 4095 : 511;
	memset(C->seen, 0, (C->bits + 1) / 8);
	C->rec0 = js->nrec;
	C->open = 0;
	C->pend = -1;
	return 1;
}

/* The value (not a dictionary) of one entry, without its key. */
static inline int put_scalar(struct out *o, enum view_kind kind, const char *s, long long num)
{
	if (kind == VIEW_STR)
		return put_value(o, s, (size_t)num);
	if (kind == VIEW_NUM)
		return put_int(o, num);
	if (!reserve(o, 8))
		return 0;
	memcpy(o->p + o->len, num ? "true" : "fals", 4);   /* "false": one more */
	o->p[o->len + 4] = 'e';
	o->len += num ? 4 : 5;
	return 1;
}

/* json_stream_value() of a key whose bit was set: a later value takes the
 * first one's place; or it is new after all. */
static __attribute__((noinline)) int value_again(struct json_stream *js, struct jlvl *L,
						 const struct jkey *k, enum view_kind kind,
						 const char *s, long long num)
{
	struct jrec *r = rec_find(js, L, k);
	if (!r)
		return (new_key(js, L, k) && put_scalar(&js->o, kind, s, num)) || js_fail(js);
	L->pend_at = (uint32_t)js->o.len;
	L->append = 0;
	return (put_scalar(&js->o, kind, s, num) && splice(js, L, r)) || js_fail(js);
}

/* json_stream_value() of any key: known or not, new or not. */
static __attribute__((noinline)) int value_slow(struct json_stream *js, const char *key,
						enum view_kind kind, const char *s, long long num)
{
	struct jlvl *L = js->cur;
	struct jkey k;
	if (js->failed || !close_array(js, L))
		return js_fail(js);
	key_of(&k, key);
	if (maybe_seen(L, &k))
		return value_again(js, L, &k, kind, s, num);
	if (!new_key(js, L, &k) || !put_scalar(&js->o, kind, s, num))
		return js_fail(js);
	return 1;
}

/* The common case inline: a known literal key, new in a dictionary with
 * no array open: its comma, key and colon written, its record made, room
 * for `room` bytes more; the caller sets the text's length past what it
 * writes there. NULL when the slow path must take it. The key's cached
 * fields are read through K where they are used (the key's length once
 * more after the bytes are written, which may alias anything): read all
 * before, they took three more callee-saved registers, pushed and popped
 * at every entry (2-6k a JSON twin). */
static inline __attribute__((always_inline)) char *fast_key(struct json_stream *js,
							     const char *key, size_t room)
{
	struct jlvl *L = js->cur;
	const struct stream_key *K = &stream_keys[stream_key_slot(key)];
	size_t len = js->o.len;
	unsigned nrec = js->nrec;
	unsigned b = (K->khash >> 3) & L->bits;
	uint64_t bit = 1ULL << (b & 63), *w = &L->seen[b >> 6];
	/* each test a branch of its own: fewer instructions than the flags
	 * or'ed together, and each is almost never taken */
	if (__builtin_expect(K->k != key, 0) || __builtin_expect(L->open, 0) ||
	    __builtin_expect(nrec >= js->caprec, 0) ||   /* (or failed: js_fail) */
	    __builtin_expect(js->o.cap - len < room + STREAM_KEY_TEXT + 2, 0) ||
	    __builtin_expect(len > JSON_TEXT_MAX, 0) || __builtin_expect((*w & bit) != 0, 0))
		return NULL;
	*w |= bit;
	size_t comma = nrec > L->rec0;
	js->nrec = nrec + 1;
	/* kpos and meta 0 in one store, khash, klen and wlen in another (the
	 * key's bytes as written: kcopy is never read) */
	struct jrec *r = &js->rec[nrec];
	r->kpos = (uint32_t)(len + comma + 1);
	r->meta = 0;
	memcpy(&r->khash, &K->hlw, 8);
	char *q = js->o.p + len;
	q[0] = ',';
	q += comma;
	memcpy(q, K->text, STREAM_KEY_TEXT);   /* "key": and what the value overwrites */
	return q + K->klen + 3;
}

/* fast_key() after a section's array: the array closed, and the common
 * case as before (a card's number after its symbols: the slow path took
 * a DNA twin's 50 such values a request). NULL: the slow path's. */
static __attribute__((noinline)) char *fast_key_closed(struct json_stream *js, const char *key,
							 size_t room)
{
	if (!js->cur->open || js->failed || !close_array(js, js->cur))
		return NULL;
	return fast_key(js, key, room);
}

int json_stream_value(struct json_stream *js, const char *key, enum view_kind kind,
		      const char *s, long long num)
{
	char *q = fast_key(js, key, 40);
	if (!q && !(q = fast_key_closed(js, key, 40)))
		return value_slow(js, key, kind, s, num);
	struct out *o = &js->o;
	switch (kind) {
	case VIEW_FLAG:
		memcpy(q, num ? "true" : "fals", 4);   /* "false": one more */
		q[4] = 'e';
		o->len = (size_t)(q - o->p) + (num ? 4 : 5);
		return 1;
	case VIEW_NUM:
		if (num >= 0 && num < 100) {
			if (num < 10) {
				*q++ = (char)('0' + num);
			} else {
				memcpy(q, two_digits + 2 * num, 2);
				q += 2;
			}
			o->len = (size_t)(q - o->p);
			return 1;
		}
		o->len = (size_t)(q - o->p);
		return put_int(o, num) || js_fail(js);
	default:
		o->len = (size_t)(q - o->p);
		return put_value(o, s, (size_t)num) || js_fail(js);
	}
}

/* json_stream_value() of a flag and of a number, each on its own: the
 * common case (a known key, new) without the other kinds' code around it. */
static inline __attribute__((always_inline)) int flag_at(struct json_stream *js, char *q, int on)
{
	memcpy(q, on ? "true" : "fals", 4);   /* "false": one more */
	q[4] = 'e';
	js->o.len = (size_t)(q - js->o.p) + (on ? 4 : 5);
	return 1;
}

/* json_stream_flag() past its fast path: after a section's array (a
 * board's flag after its dice), or the slow path's. */
static __attribute__((noinline)) int flag_slow(struct json_stream *js, const char *key, int on)
{
	char *q = fast_key_closed(js, key, 16);
	if (!q)
		return value_slow(js, key, VIEW_FLAG, NULL, on);
	return flag_at(js, q, on);
}

int json_stream_flag(struct json_stream *js, const char *key, int on)
{
	char *q = fast_key(js, key, 16);
	if (__builtin_expect(!q, 0))
		return flag_slow(js, key, on);
	return flag_at(js, q, on);
}

int json_stream_num(struct json_stream *js, const char *key, long long num)
{
	char *q = fast_key(js, key, 40);
	if (__builtin_expect(!q, 0))
		return json_stream_value(js, key, VIEW_NUM, NULL, num);
	if (__builtin_expect((unsigned long long)num < 1000, 1)) {
		if (num < 10) {
			*q++ = (char)('0' + num);
		} else if (num < 100) {
			memcpy(q, two_digits + 2 * num, 2);
			q += 2;
		} else {   /* a board's coordinates: put_int's call was 60 more */
			q[0] = (char)('0' + num / 100);
			memcpy(q + 1, two_digits + 2 * (num % 100), 2);
			q += 3;
		}
		js->o.len = (size_t)(q - js->o.p);
		return 1;
	}
	js->o.len = (size_t)(q - js->o.p);
	return put_int(&js->o, num) || js_fail(js);
}

/* Literal strings (a game's colour and shape names, the page's words)
 * once written as they are, without '@', by address: such a value is
 * copied with its quotes, without measuring or checking it again. */
static struct {
	const char *s;
	size_t len;
} stream_vals[STREAM_KEYS];

int json_stream_literal(struct json_stream *js, const char *key, const char *s, size_t len)
{
	unsigned n = js->nrec;
	int depth = js->depth;
	if (!json_stream_value(js, key, VIEW_STR, s, (long long)len))
		return 0;
	/* a new key's value, written as "s": nothing in s to escape or repair */
	const struct jrec *r = &js->rec[js->nrec - 1];
	size_t at = r->kpos + r->wlen + 2;
	if (js->nrec == n + 1 && js->depth == depth && js->o.len - at == len + 2 &&
	    memcmp(js->o.p + at + 1, s, len) == 0 && !memchr(s, '@', len)) {
		size_t slot = stream_slot(s);
		if (stream_vals[slot].s)   /* taken: the pair's other slot (as stream_keys) */
			slot ^= 1;
		stream_vals[slot].s = s;
		stream_vals[slot].len = len;
	}
	return 1;
}

int json_stream_known(struct json_stream *js, const char *key, const char *s)
{
	size_t slot = stream_slot(s);
	if (stream_vals[slot].s != s && stream_vals[slot ^= 1].s != s)
		return 0;
	size_t len = stream_vals[slot].len;
	char *q = fast_key(js, key, len + 8);
	if (!q)
		return json_stream_value(js, key, VIEW_STR, s, (long long)len) ? 1 : -1;
	q[0] = '"';
	if (len <= 16)
		copy_short(q + 1, s, len);
	else
		memcpy(q + 1, s, len);
	q[len + 1] = '"';
	js->o.len = (size_t)(q - js->o.p) + len + 2;
	return 1;
}

int json_stream_plain(struct json_stream *js, const char *key, const char *s, size_t len)
{
	char *q = fast_key(js, key, len + 8);
	if (!q)
		return json_stream_value(js, key, VIEW_STR, s, (long long)len);
	q[0] = '"';
	copy_short(q + 1, s, len);   /* (a seat's name: mostly 16 bytes or fewer) */
	q[len + 1] = '"';
	js->o.len = (size_t)(q - js->o.p) + len + 2;
	return 1;
}

/* json_stream_open() of a key whose bit was set: a dictionary whose text
 * goes to an earlier key's place once it is closed; or a new key after
 * all. */
static __attribute__((noinline)) int open_again(struct json_stream *js, struct jlvl *L,
						const struct jkey *k, enum view_kind kind)
{
	struct jrec *r = rec_find(js, L, k);
	if (!r)
		return 0;
	if (kind != VIEW_INCLUDE && !(r->meta & 1)) {
		fprintf(stderr, "json: '%s' is both a value and a section\n", k->k);
		return -1;
	}
	if (kind == VIEW_LIST)
		return 1;
	L->pend = (int)(r - js->rec);
	L->append = kind != VIEW_INCLUDE;
	L->pend_at = (uint32_t)js->o.len;
	return push(js, kind == VIEW_INCLUDE) ? 1 : -1;
}

/* json_stream_open() of any key, in any state. */
static __attribute__((noinline)) int open_slow(struct json_stream *js, const char *key,
					       enum view_kind kind)
{
	struct jlvl *L = js->cur;
	struct out *o = &js->o;
	struct jkey k;
	if (js->failed)
		return 0;
	key_of(&k, key);
	/* an array is open: its record is new_key()'s, whose kcopy is the key
	 * when that was a known literal (then the same address is the same key) */
	if (L->open && kind != VIEW_INCLUDE &&
	    ((k.known && js->rec[js->nrec - 1].kcopy == key) ||
	     rec_is(js, &js->rec[js->nrec - 1], &k))) {
		/* the next item of the array just before */
		struct jrec *r = &js->rec[js->nrec - 1];
		if (kind == VIEW_LIST)
			return 1;
		if ((r->meta >> 1) && !put_ch(o, ','))
			return js_fail(js);
		r->meta += 2;
		return push(js, 0);
	}
	if (!close_array(js, L))
		return js_fail(js);
	if (maybe_seen(L, &k)) {
		int again = open_again(js, L, &k, kind);
		if (again)
			return again > 0 || js_fail(js);
	}
	struct jrec *r = new_key(js, L, &k);
	if (!r)
		return js_fail(js);
	if (kind == VIEW_INCLUDE)
		return push(js, 1);
	r->meta = kind == VIEW_LIST ? 1 : 3;
	L->open = 1;
	if (!put_ch(o, '['))
		return js_fail(js);
	return kind == VIEW_LIST || push(js, 0);
}

/* The common case without open_slow's frame: the next item of a section
 * whose array is open just before, its key a known literal (a card of
 * "cards", a line of "log": about 120 of a DNA twin's opens). */
int json_stream_open(struct json_stream *js, const char *key, enum view_kind kind)
{
	struct jlvl *L = js->cur;
	if (__builtin_expect(!js->failed && L->open && kind == VIEW_SECTION, 1)) {
		struct jrec *r = &js->rec[js->nrec - 1];
		if (r->kcopy == key && stream_keys[stream_key_slot(key)].k == key) {
			if ((r->meta >> 1) && !put_ch(&js->o, ','))
				return js_fail(js);
			r->meta += 2;
			return push(js, 0);
		}
	}
	return open_slow(js, key, kind);
}

/* Closes the open dictionary, its text to where it goes. */
static int pop(struct json_stream *js)
{
	struct jlvl *C = js->cur;
	if (!close_array(js, C) || !put_ch(&js->o, '}'))
		return js_fail(js);
	js->nrec = C->rec0;
	struct jlvl *P = js->cur = &js->lvl[--js->depth];
	if (P->pend >= 0 && !splice(js, P, &js->rec[P->pend]))
		return js_fail(js);
	return 1;
}

int json_stream_end(struct json_stream *js)
{
	if (js->failed)
		return 0;
	if (js->depth == 0) {
		fprintf(stderr, "view: end without begin\n");
		return js_fail(js);
	}
	return pop(js);
}

char *json_stream_finish(struct json_stream *js, size_t *len)
{
	while (!js->failed && js->depth > 0)
		pop(js);   /* what was left open, as json_render writes it */
	if (js->failed || !close_array(js, &js->lvl[0]) || !put_ch(&js->o, '}'))
		return NULL;
	struct out *o = &js->o;
	o->p[o->len++] = '\n';   /* reserve() always leaves room for two more */
	o->p[o->len] = '\0';
	*len = o->len;
	last_len = o->len;
	return o->p;
}

/* ---- constant groups: a group's text written once, then copied ---- */

/* A group's text without its braces, and the records of its keys (their
 * key's place relative to the text's start). */
struct json_group {
	char *text;
	size_t len;
	int depth;             /* how deep its sections go */
	unsigned nkeys;
	struct jrec keys[];
};

struct json_group *json_group_take(struct json_stream *js)
{
	if (js->failed || js->depth != 0 || !close_array(js, js->cur) || js->o.len < 1)
		return NULL;
	const char *t = js->o.p + 1;   /* past the '{' */
	size_t len = js->o.len - 1;
	if (memchr(t, '@', len))   /* a name to put in: the request's */
		return NULL;
	for (unsigned i = 0; i < js->nrec; i++)
		if (js->rec[i].wlen != js->rec[i].klen)
			return NULL;
	struct json_group *g = malloc(sizeof *g + js->nrec * sizeof *g->keys);
	char *text = malloc(len ? len : 1);
	if (!g || !text) {
		free(g);
		free(text);
		return NULL;
	}
	memcpy(text, t, len);
	*g = (struct json_group){ text, len, js->maxdepth, js->nrec };
	for (unsigned i = 0; i < js->nrec; i++) {
		g->keys[i] = js->rec[i];
		g->keys[i].kpos -= 1;
		g->keys[i].kcopy = NULL;
	}
	return g;
}

void json_group_free(struct json_group *g)
{
	if (g)
		free(g->text);
	free(g);
}

int json_stream_group(struct json_stream *js, const struct json_group *g)
{
	struct jlvl *L = js->cur;
	struct out *o = &js->o;
	if (js->failed || js->depth + g->depth > JSON_MAX_DEPTH ||
	    o->len + g->len + 1 > JSON_TEXT_MAX)
		return 0;
	for (unsigned i = 0; i < g->nkeys; i++) {   /* a key it may have already */
		unsigned b = (g->keys[i].khash >> 3) & L->bits;
		if (L->seen[b >> 6] >> (b & 63) & 1)
			return 0;
	}
	while (js->nrec + g->nkeys > js->caprec)
		if (!more_recs(js)) {
			js_fail(js);
			return -1;
		}
	if (!close_array(js, L) || !reserve(o, g->len + 1)) {
		js_fail(js);
		return -1;
	}
	if (js->nrec > L->rec0 && g->len)
		o->p[o->len++] = ',';
	size_t base = o->len;
	memcpy(o->p + base, g->text, g->len);
	o->len += g->len;
	for (unsigned i = 0; i < g->nkeys; i++) {
		struct jrec *r = &js->rec[js->nrec++];
		unsigned b = (g->keys[i].khash >> 3) & L->bits;
		L->seen[b >> 6] |= 1ULL << (b & 63);
		*r = g->keys[i];
		r->kpos += (uint32_t)base;
	}
	return 1;
}
