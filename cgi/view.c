/* view.c — the view tree; see view.h. */
#define _GNU_SOURCE   /* strchrnul */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "game.h"
#include "i18n.h"
#include "json.h"
#include "view.h"

/* The entries of a view_json() view (at the end of this file). */
static inline __attribute__((always_inline)) void
stream_str(struct view *v, const char *key, const char *val);
static inline __attribute__((always_inline)) void
stream_num(struct view *v, const char *key, long long val);
static inline __attribute__((always_inline)) void
stream_flag(struct view *v, const char *key, int on);
static inline __attribute__((always_inline)) void
stream_open(struct view *v, const char *key, enum view_kind kind);
static void stream_sink_init(struct view *v, struct view_sink *out);
/* The sinks, not inlined: view_str, view_num and view_flag jump to the
 * JSON twin's or the tree's, each saving only the registers it needs (the
 * tree's code inlined, a JSON twin's entry paid its prologue and epilogue,
 * twelve instructions). */
static __attribute__((noinline)) void ssink_str(void *ctx, const char *key, const char *val);
static __attribute__((noinline)) void ssink_num(void *ctx, const char *key, long long val);
static __attribute__((noinline)) void ssink_flag(void *ctx, const char *key, int on);
static __attribute__((noinline)) void sink_str(void *ctx, const char *key, const char *val);
static __attribute__((noinline)) void sink_num(void *ctx, const char *key, long long val);
static __attribute__((noinline)) void sink_flag(void *ctx, const char *key, int on);

void view_init(struct view *v, struct arena *a)
{
	memset(v, 0, sizeof *v);
	v->a = a;
	v->root.kind = VIEW_INCLUDE;
	v->root.key = "";
	v->cur = &v->root;
}

/* The program's read-only image, from its first byte to where its writable
 * data begins (the linker's symbols): a text there is a literal of the
 * program, the same for as long as it runs. */
extern const char __executable_start[], __init_array_start[];

/* 1 when s is such a literal: the tree points at it instead of copying it
 * (as the kernel's kstrdup_const does), the keys of a page being almost
 * all literals. */
static inline int is_literal(const char *s)
{
	return (uintptr_t)s >= (uintptr_t)__executable_start &&
	       (uintptr_t)s < (uintptr_t)__init_array_start;
}

/* Appends a node of `kind` under the current dictionary, with `key` itself
 * when it is a literal, else with a copy in the same allocation; NULL (and
 * the tree marked failed) when the arena is exhausted. The memory is not
 * zeroed: every field is set here (clearing each node and its key was a
 * measurable part of a page: docs/benchmarks.md, "Figures from the code's
 * comments"). */
/* The length and view_key_hash of the literal keys seen last, by their
 * address: a page adds its few dozen keys (card, x, y, label …) hundreds of
 * times, and a literal's text never changes while the program runs, so
 * each is measured once per process (per thread) instead of once per node. */
struct key_memo {
	const char *key;
	unsigned len, hash;
};
static _Thread_local struct key_memo key_memo[1024];

/* The length and hash of literal key (is_literal) into *len, *hash. */
static inline __attribute__((always_inline)) void literal_key(const char *key, size_t *len,
							      unsigned *hash)
{
	uintptr_t a = (uintptr_t)key;
	struct key_memo *m = &key_memo[(a ^ (a >> 10)) & 1023];
	if (m->key != key) {
		size_t kl = strlen(key);
		*m = (struct key_memo){ key, (unsigned)kl, view_key_hash(key, kl) };
	}
	*len = m->len;
	*hash = m->hash;
}

/* add_named() sets each field of a node by name: a field added to struct
 * view_node must be set there too (the size changes, and this says so). */
_Static_assert(sizeof(struct view_node) == 15 * 8,
	       "a new field of struct view_node: set it in add_named()");

/* Appends a node of `kind` named key[0..kl) with hash kh (view_key_hash)
 * under the current dictionary; the key is pointed at, not copied, unless
 * copy (then in the node's allocation). */
static inline __attribute__((always_inline)) struct view_node *
add_named(struct view *v, enum view_kind kind, const char *key, size_t kl, unsigned kh, int copy)
{
	struct view_node *n = arena_alloc_raw(v->a, sizeof *n + (copy ? kl + 1 : 0));
	if (!n) {
		v->failed = 1;
		return NULL;
	}
	const char *k = key;
	if (copy)
		k = memcpy(n + 1, key, kl + 1);
	/* each field set by itself: as one compound literal, the compiler
	 * cleared the whole node with `rep stos` first, slow to start for so
	 * few bytes (docs/benchmarks.md, "The table page's tree and view
	 * functions, cheaper") */
	n->kind = kind;
	n->key = k;
	n->str = NULL;
	n->num = 0;
	n->first = n->last = n->next = NULL;
	n->up = v->cur;
	n->prev = v->cur->last;
	n->global = 0;
	n->klen = (unsigned)kl;
	n->khash = kh;
	n->lookup = NULL;
	n->count = 0;
	n->vmask = n->smask = 0;
	if (v->cur->last)
		v->cur->last->next = n;
	else
		v->cur->first = n;
	v->cur->last = n;
	v->cur->count++;
	v->cur->lookup = NULL;   /* an index tmpl.cc made of it no longer holds */
	if (kind == VIEW_STR || kind == VIEW_NUM)
		v->cur->vmask |= view_key_bit(n->khash);
	else if (kind != VIEW_FLAG)   /* a flag: view_flag, when it is on */
		v->cur->smask |= view_key_bit(n->khash);
	return n;
}

static inline __attribute__((always_inline)) struct view_node *
add(struct view *v, enum view_kind kind, const char *key)
{
	if (!key) {
		v->failed = 1;
		return NULL;
	}
	size_t kl;
	unsigned kh;
	if (is_literal(key)) {
		literal_key(key, &kl, &kh);
		return add_named(v, kind, key, kl, kh, 0);
	}
	kl = strlen(key);
	return add_named(v, kind, key, kl, view_key_hash(key, kl), 1);
}

/* What is known of the literal values seen last (a card's colour, a
 * class, a label: the same few texts again and again), by address: the
 * length and whether an '@' is in it. */
struct value_memo {
	const char *s;
	unsigned len, at;
};
static _Thread_local struct value_memo value_memo[1024];

/* 1 when literal s has an '@' (names may go in); its length in *len. */
static inline int literal_has_at(const char *s, size_t *len)
{
	uintptr_t a = (uintptr_t)s;
	struct value_memo *m = &value_memo[(a ^ (a >> 10)) & 1023];
	if (m->s != s) {
		const char *at = strchrnul(s, '@');
		size_t l = (size_t)(at - s) + (*at ? strlen(at) : 0);
		*m = (struct value_memo){ s, (unsigned)l, *at != '\0' };
	}
	*len = m->len;
	return (int)m->at;
}

/* The seat of "@N" at p (p[0] is '@'; N below v->nnames), else -1. */
static inline int at_seat(const struct view *v, const char *p)
{
	int d = p[1] >= '0' && p[1] <= '9' ? p[1] - '0' : -1;
	return d < v->nnames ? d : -1;
}

/* s (sl bytes, its first '@' at `at`) with every "@N" (N a seat that has
 * a name) replaced by that name, in the arena; its length in *len. The
 * text between the '@' is copied a span at a time (memchr, memcpy): byte
 * by byte it was 19k instructions of a DNA page's event log; the names'
 * lengths are view_names()'s. */
static const char *put_names(struct view *v, const char *s, const char *at, size_t sl,
			     size_t *len)
{
	const char *end = s + sl;
	size_t need = sl + 1;
	for (const char *p = at; p; p = memchr(p, '@', (size_t)(end - p))) {
		int d = at_seat(v, p);
		if (d >= 0) {
			need = need - 2 + v->name_len[d];
			p += 2;
		} else {
			p++;
		}
	}
	char *o = arena_alloc_raw(v->a, need), *q = o;
	if (!o)
		return NULL;
	const char *from = s;
	for (const char *p = at; p; p = memchr(p, '@', (size_t)(end - p))) {
		int d = at_seat(v, p);
		if (d < 0) {
			p++;
			continue;
		}
		memcpy(q, from, (size_t)(p - from));
		q += p - from;
		if (v->names[d])
			memcpy(q, v->names[d], v->name_len[d]);
		q += v->name_len[d];
		p += 2;
		from = p;
	}
	memcpy(q, from, (size_t)(end - from));
	q += end - from;
	*q = '\0';
	*len = (size_t)(q - o);
	return o;
}

/* s with every "@N" (N a seat that has a name) replaced by that name (a
 * literal without '@' as it is, any other text in the arena); its length
 * in *len. Inlined into both callers: a call for each string of the page
 * cost a DNA page 10k (view_str's path is mostly its first lines). */
static inline __attribute__((always_inline)) const char *substitute(struct view *v, const char *s,
								   size_t *len)
{
	int lit = is_literal(s);
	if (lit && (!literal_has_at(s, len) || !v->nnames))
		return s;   /* *len set: nothing to put in */
	/* the first '@' and the length in one pass where names are put in */
	const char *at = v->nnames ? strchrnul(s, '@') : s + strlen(s);
	if (!*at) {
		*len = (size_t)(at - s);
		return lit ? s : arena_strndup(v->a, s, *len);
	}
	return put_names(v, s, at, (size_t)(at - s) + strlen(at), len);
}

/* view_str() of a tree (not view_json()), inline in its sink. */
static inline __attribute__((always_inline)) void tree_str(struct view *v, const char *key, const char *val)
{
	struct view_node *n = add(v, VIEW_STR, key);
	if (!n)
		return;
	size_t len = 0;
	n->str = substitute(v, val ? val : "", &len);
	n->num = (long long)len;   /* a string's length, for tmpl.cc */
	if (!n->str)
		v->failed = 1;
}

void view_str(struct view *v, const char *key, const char *val)
{
	if (v->js)
		ssink_str(v, key, val);
	else
		sink_str(v, key, val);
}

void view_strf(struct view *v, const char *key, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;
	va_start(ap, fmt);
	view_vformat(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	view_str(v, key, tmp);
}

/* key (of length n) is "seat" or ends in "_seat". */
static inline int is_seat_key(const char *key, size_t n)
{
	return n >= 4 && memcmp(key + n - 4, "seat", 4) == 0 &&
	       (n == 4 || (n > 5 && key[n - 5] == '_'));
}

/* "<key>_name" of the literal seat keys ("seat", "holder_seat" …), made
 * once per process (per thread) instead of once per number: trees point at
 * them, so a slot once taken is never written again (a key whose slot
 * another took gets its "_name" in the arena, as any other key). */
struct seat_name_key {
	const char *seat_key;
	unsigned len, hash;
	char name[32];
};
static _Thread_local struct seat_name_key seat_name_keys[16];

/* Appends the string node "<key>_name" for seat number node n (its value
 * set by the caller); NULL (the tree marked failed) when out of memory. */
static struct view_node *add_name_of(struct view *v, const struct view_node *n)
{
	size_t kl = n->klen;
	if (is_literal(n->key) && kl + sizeof "_name" <= sizeof seat_name_keys[0].name) {
		uintptr_t a = (uintptr_t)n->key;
		struct seat_name_key *sk = &seat_name_keys[(a ^ (a >> 8)) & 15];
		if (!sk->seat_key) {
			memcpy(sk->name, n->key, kl);
			memcpy(sk->name + kl, "_name", sizeof "_name");
			sk->len = (unsigned)(kl + sizeof "_name" - 1);
			sk->hash = view_key_hash(sk->name, sk->len);
			sk->seat_key = n->key;
		}
		if (sk->seat_key == n->key)
			return add_named(v, VIEW_STR, sk->name, sk->len, sk->hash, 0);
	}
	char *k = arena_alloc_raw(v->a, kl + sizeof "_name");
	if (!k) {
		v->failed = 1;
		return NULL;
	}
	memcpy(k, n->key, kl);
	memcpy(k + kl, "_name", sizeof "_name");
	return add_named(v, VIEW_STR, k, kl + sizeof "_name" - 1,
			 view_key_hash(k, kl + sizeof "_name" - 1), 0);
}

static inline __attribute__((always_inline)) void tree_num(struct view *v, const char *key, long long val)
{
	struct view_node *n = add(v, VIEW_NUM, key);
	if (!n)
		return;
	n->num = val;
	if (v->nnames && is_seat_key(n->key, n->klen)) {
		int seat = val >= 0 && val < v->nnames ? (int)val : -1;
		struct view_node *s = add_name_of(v, n);
		if (!s) {
			v->failed = 1;
			return;
		}
		s->str = seat >= 0 && v->names[seat] ? v->names[seat] : "";
		s->num = seat >= 0 ? (long long)v->name_len[seat] : 0;
	}
}

void view_num(struct view *v, const char *key, long long val)
{
	if (v->js)
		ssink_num(v, key, val);
	else
		sink_num(v, key, val);
}

/* Marks the first node added to the current dictionary after `before`
 * (NULL: its first) as template-global, and the dictionaries it lies in as
 * holding one, so that tmpl.cc looks for them there only. */
static void mark_global(struct view *v, struct view_node *before)
{
	struct view_node *n = before ? before->next : v->cur->first;
	if (!n)
		return;
	n->global = 1;
	for (struct view_node *d = v->cur; d && !d->global; d = d->up)
		d->global = 1;
}

void view_global_str(struct view *v, const char *key, const char *val)
{
	if (v->js) {
		stream_str(v, key, val);
		return;
	}
	struct view_node *before = v->cur->last;
	view_str(v, key, val);
	mark_global(v, before);
}

void view_global_num(struct view *v, const char *key, long long val)
{
	if (v->js) {
		stream_num(v, key, val);
		return;
	}
	struct view_node *before = v->cur->last;
	view_num(v, key, val);
	mark_global(v, before);
}

static inline __attribute__((always_inline)) void tree_flag(struct view *v, const char *key, int on)
{
	/* tmpl.cc shows a section for a flag that is on only, and looks for it
	 * in the dictionaries around as when there is no flag at all: the
	 * flags that are off, half of a board's entries, need no node */
	if (!on && v->html_only && key)
		return;
	struct view_node *n = add(v, VIEW_FLAG, key);
	if (!n)
		return;
	n->num = on != 0;
	if (on)
		v->cur->smask |= view_key_bit(n->khash);
}

void view_flag(struct view *v, const char *key, int on)
{
	if (v->js)
		ssink_flag(v, key, on);
	else
		sink_flag(v, key, on);
}

static inline __attribute__((always_inline)) void tree_begin(struct view *v, const char *key)
{
	struct view_node *n = add(v, VIEW_SECTION, key);
	if (n)
		v->cur = n;
}

void view_begin(struct view *v, const char *key)
{
	if (v->js)
		stream_open(v, key, VIEW_SECTION);
	else
		tree_begin(v, key);
}

void view_include(struct view *v, const char *key, const char *file)
{
	if (v->js) {
		stream_open(v, key, VIEW_INCLUDE);
		return;
	}
	struct view_node *n = add(v, VIEW_INCLUDE, key);
	if (!n)
		return;
	n->str = arena_strdup(v->a, file);
	if (!n->str)
		v->failed = 1;
	v->cur = n;
}

void view_end(struct view *v)
{
	if (v->js) {
		if (!json_stream_end(v->js))
			v->failed = 1;
		return;
	}
	if (v->cur == &v->root || !v->cur->up) {
		fprintf(stderr, "view: end without begin\n");
		v->failed = 1;
		return;
	}
	v->cur = v->cur->up;
}

void view_list(struct view *v, const char *key)
{
	if (v->js) {
		stream_open(v, key, VIEW_LIST);
		return;
	}
	add(v, VIEW_LIST, key);
}

void view_names(struct view *v, const char *const *names, int n)
{
	if (n < 0 || n > 10 || !names)
		n = 0;
	v->names = names;
	v->nnames = n;
	/* each name measured and looked at once: a board names seats
	 * hundreds of times (a round's points, each a seat's) */
	v->name_plain = 0;
	for (int i = 0; i < n; i++) {
		const char *nm = names[i] ? names[i] : "";
		size_t l = 0;
		int plain = 1;
		for (; nm[l]; l++)
			plain &= (unsigned char)nm[l] >= 0x20 && (unsigned char)nm[l] < 0x7f &&
				 !strchr("\"&<>\\", nm[l]);
		v->name_len[i] = (unsigned)l;
		v->name_plain |= (unsigned)plain << i;
	}
}

/* The sinks of a tree (view_sink_init gives them only to a tree, a
 * view_json() view has its own below): the entry made at once, without
 * view_str's call and its test of v->js in between. */
static void sink_str(void *ctx, const char *key, const char *val)
{
	tree_str(ctx, key, val);
}

static void sink_num(void *ctx, const char *key, long long val)
{
	tree_num(ctx, key, val);
}

static void sink_flag(void *ctx, const char *key, int on)
{
	tree_flag(ctx, key, on);
}

static void sink_begin(void *ctx, const char *key)
{
	tree_begin(ctx, key);
}

static void sink_end(void *ctx)
{
	view_end(ctx);
}

/* A game's text with its format translated (i18n.h), then as any string:
 * names put in. */
static void sink_text(void *ctx, const char *key, const char *fmt, const char *args, int nargs,
		      const char *de)
{
	char out[1024];
	view_str(ctx, key, i18n_format(i18n_lang(), fmt, args, nargs, de, out, sizeof out));
}

void view_sink_init(struct view *v, struct view_sink *out)
{
	if (v->js) {
		stream_sink_init(v, out);
		return;
	}
	/* German is what the game writes: a German request takes its texts as
	 * plain strings, and the game keeps no arguments for it */
	*out = (struct view_sink){ sink_str, sink_num, sink_flag, sink_begin, sink_end, v,
				   i18n_lang() == LANG_DE ? NULL : sink_text, v->html_only, NULL };
}

/* ---- view_json: the entries written as JSON at once ------------------- */

void view_json(struct view *v)
{
	if (!(v->js = json_stream_new(v->a)))
		v->failed = 1;
}

/* A string as view_str has it: "@N" names put in. */
static inline __attribute__((always_inline)) void
stream_str(struct view *v, const char *key, const char *val)
{
	const char *s = val ? val : "";
	int lit = is_literal(s), known = lit && key ? json_stream_known(v->js, key, s) : 0;
	if (known) {   /* a literal without '@' written before */
		if (known < 0)
			v->failed = 1;
		return;
	}
	size_t len = strlen(s);
	if (!key) {
		v->failed = 1;
		return;
	}
	const char *at = v->nnames ? memchr(s, '@', len) : NULL;
	if (at) {
		if (!(s = put_names(v, s, at, len, &len)))
			v->failed = 1;
		else if (!json_stream_value(v->js, key, VIEW_STR, s, (long long)len))
			v->failed = 1;
		return;
	}
	if (!(lit ? json_stream_literal(v->js, key, s, len)
		  : json_stream_value(v->js, key, VIEW_STR, s, (long long)len)))
		v->failed = 1;
}

/* The "<key>_name" of the games' and pages' seat keys, as literals: the
 * JSON writer measures and checks a literal key once, any other key each
 * time (a round's "claimer_seat_name" was 16k instructions of a Wurf &
 * Wort JSON twin). A key not here is made in a buffer, as before. */
static const char *const seat_name_literals[] = {
	"my_seat_name", "turn_seat_name", "claimer_seat_name", "holder_seat_name",
	"opener_seat_name", "target_seat_name", "attacker_seat_name",
	"attack_target_seat_name", "by_seat_name",
};

/* Literal seat keys and their seat_name_literals entry (NULL: none), by
 * address, found once per process (per thread). */
static _Thread_local struct {
	const char *key, *name;
} seat_name_memo[16];

/* The literal "<key>_name" of seat key `key` (kl bytes), or NULL. */
static const char *seat_name_literal(const char *key, size_t kl)
{
	if (!is_literal(key))
		return NULL;
	uintptr_t a = (uintptr_t)key;
	size_t slot = (a ^ (a >> 8)) & 15;
	if (seat_name_memo[slot].key == key)
		return seat_name_memo[slot].name;
	const char *name = NULL;
	for (size_t i = 0; i < sizeof seat_name_literals / sizeof *seat_name_literals; i++)
		if (strlen(seat_name_literals[i]) == kl + 5 &&
		    memcmp(seat_name_literals[i], key, kl) == 0)
			name = seat_name_literals[i];
	seat_name_memo[slot].key = key;
	seat_name_memo[slot].name = name;
	return name;
}

/* stream_num()'s memo of literal keys: each one's "<key>_name" literal
 * (seat_name_literal; NULL: a seat key without one), or not_a_seat_key. */
static const char not_a_seat_key[] = "";
static _Thread_local struct seat_key_memo {
	const char *key, *name;
} seat_key_memo[256];

/* A number as view_num has it: a seat's name after a seat's number. */
static inline __attribute__((always_inline)) void
stream_num(struct view *v, const char *key, long long val)
{
	if (!key || !json_stream_num(v->js, key, val)) {
		v->failed = 1;
		return;
	}
	if (!v->nnames)
		return;
	size_t kl = 0;
	const char *k = NULL;
	if (is_literal(key)) {
		/* a literal key's "<key>_name" literal, or that it is no seat
		 * key, remembered by its address (one look instead of three) */
		uintptr_t a = (uintptr_t)key;
		struct seat_key_memo *m = &seat_key_memo[(a ^ (a >> 8)) & 255];
		if (m->key != key) {
			size_t n = strlen(key);
			m->name = !is_seat_key(key, n) ? not_a_seat_key
				  : n == 4 ? "seat_name" : seat_name_literal(key, n);
			m->key = key;
		}
		k = m->name;
		if (k == not_a_seat_key)
			return;
		if (!k)
			kl = strlen(key);
	} else {
		kl = strlen(key);
		if (!is_seat_key(key, kl))
			return;
	}
	/* as a literal, which the JSON writer knows, when it is one of them */
	char buf[64];
	if (!k) {
		char *b = kl + sizeof "_name" <= sizeof buf ? buf
			  : arena_alloc_raw(v->a, kl + sizeof "_name");
		if (!b) {
			v->failed = 1;
			return;
		}
		memcpy(b, key, kl);
		memcpy(b + kl, "_name", sizeof "_name");
		k = b;
	}
	int seat = val >= 0 && val < v->nnames ? (int)val : -1;
	const char *nm = seat >= 0 && v->names[seat] ? v->names[seat] : "";
	size_t nl = seat >= 0 ? v->name_len[seat] : 0;
	if (!(seat >= 0 && (v->name_plain >> seat & 1) ? json_stream_plain(v->js, k, nm, nl)
	      : json_stream_value(v->js, k, VIEW_STR, nm, (long long)nl)))
		v->failed = 1;
}

static inline __attribute__((always_inline)) void
stream_flag(struct view *v, const char *key, int on)
{
	if (!key || !json_stream_flag(v->js, key, on != 0))
		v->failed = 1;
}

static inline __attribute__((always_inline)) void
stream_open(struct view *v, const char *key, enum view_kind kind)
{
	if (!key || !json_stream_open(v->js, key, kind))
		v->failed = 1;
}

static void ssink_str(void *ctx, const char *key, const char *val)
{
	stream_str(ctx, key, val);
}

static void ssink_num(void *ctx, const char *key, long long val)
{
	stream_num(ctx, key, val);
}

static void ssink_flag(void *ctx, const char *key, int on)
{
	stream_flag(ctx, key, on);
}

static void ssink_begin(void *ctx, const char *key)
{
	stream_open(ctx, key, VIEW_SECTION);
}

/* A constant group's JSON text (json_group, json.h), per process (per
 * thread), by the group, its index and the language its texts are in;
 * none: the entries one by one. A group's indices lie in consecutive
 * slots from one of the group's and language's; a text is looked for in
 * its slot and the three after it, and made in the first of them that is
 * free, else in its own slot (the four games' faces and cards in two
 * languages are about 700 texts). */
enum { GROUP_MEMO = 2048, GROUP_PROBE = 4 };
static _Thread_local struct group_memo {
	const struct view_group *g;
	int index, lang, made;
	struct json_group *text;
} group_memo[GROUP_MEMO];

static void ssink_group(struct view_sink *self, const struct view_group *g, int index);

/* view_sink_init() of a view_json() view: the game's entries straight to
 * the text (a game's texts in English through sink_text as before). */
static void stream_sink_init(struct view *v, struct view_sink *out)
{
	*out = (struct view_sink){ ssink_str, ssink_num, ssink_flag, ssink_begin, sink_end, v,
				   i18n_lang() == LANG_DE ? NULL : sink_text, 0, ssink_group };
}

/* Set when a group's entries have a seat's number (its name is the
 * request's: no memo). */
static _Thread_local int group_seat;

static void group_num(void *ctx, const char *key, long long val)
{
	if (key && is_seat_key(key, strlen(key)))
		group_seat = 1;
	stream_num(ctx, key, val);
}

/* The JSON text of the entries fill(sv, arg) writes into a view of their
 * own (a memo's: view_memo, a constant group's), or NULL: no text (fill
 * failed the view, or the text cannot be kept: json_group_take). Not
 * reentrant: fill makes no memo of its own. */
static struct json_group *json_text_of(void (*fill)(struct view *sv, const void *arg),
				       const void *arg)
{
	static _Thread_local struct arena a;   /* reset after each, its block kept */
	struct json_group *text = NULL;
	struct view sv;
	view_init(&sv, &a);
	view_json(&sv);
	if (!sv.failed) {
		fill(&sv, arg);
		if (!sv.failed)
			text = json_group_take(sv.js);
	}
	arena_reset(&a);
	return text;
}

struct group_of {
	const struct view_group *g;
	int index;
};

/* A group's entries through the stream's sink (one level, no names); a
 * seat's number among them fails the view: no memo. */
static void group_fill(struct view *sv, const void *arg)
{
	const struct group_of *go = arg;
	struct view_sink s;
	stream_sink_init(sv, &s);
	s.group = NULL;   /* a group inside: its entries, as they are */
	s.num = group_num;
	group_seat = 0;
	go->g->emit(&s, go->index);
	if (group_seat)
		sv->failed = 1;
}

/* m made for group g's index in language lang: its entries written by a
 * view of their own, their text taken. */
static void group_memo_make(struct group_memo *m, const struct view_group *g, int index,
			    int lang)
{
	json_group_free(m->text);
	*m = (struct group_memo){ g, index, lang, 1, NULL };
	struct group_of go = { g, index };
	m->text = json_text_of(group_fill, &go);
}

/* Group g's memo of `index` in language lang, or NULL; *slot: where to
 * make it (the first free one of its probes, else its own). */
static struct group_memo *group_memo_at(const struct view_group *g, int index, int lang,
					struct group_memo **slot)
{
	uint64_t h = ((uint64_t)(uintptr_t)g + (uint64_t)lang) * 0x9E3779B97F4A7C15ULL;
	size_t at = (size_t)(h >> 40) + (size_t)index;
	struct group_memo *free_slot = NULL;
	for (size_t k = 0; k < GROUP_PROBE; k++) {
		struct group_memo *t = &group_memo[(at + k) & (GROUP_MEMO - 1)];
		if (t->made && t->g == g && t->index == index && t->lang == lang)
			return t;
		if (!t->made && !free_slot)
			free_slot = t;
	}
	*slot = free_slot ? free_slot : &group_memo[at & (GROUP_MEMO - 1)];
	return NULL;
}

/* Whether group g in language lang was met before in this process (the
 * first meeting makes the memos of all its indices: which of them exist
 * then depends on no viewer's faces). */
static int group_met(const struct view_group *g, int lang)
{
	enum { GROUPS_MET = 32 };
	static _Thread_local struct { const struct view_group *g; int lang; } met[GROUPS_MET];
	static _Thread_local int nmet;
	for (int i = 0; i < nmet; i++)
		if (met[i].g == g && met[i].lang == lang)
			return 1;
	if (nmet < GROUPS_MET) {
		met[nmet].g = g;
		met[nmet++].lang = lang;
	}
	return 0;
}

/* view_memo's texts, per process (per thread): by the key's hash in one
 * of VIEW_MEMO slots, the key kept to compare (a key of VIEW_MEMO_KEY
 * bytes or more: no memo); a slot taken by another key frees its text. */
enum { VIEW_MEMO = 64, VIEW_MEMO_KEY = 240 };
static _Thread_local struct view_memo_slot {
	void (*emit)(struct view *v, const void *arg);
	int lang;
	char key[VIEW_MEMO_KEY];
	struct json_group *text;   /* NULL: not made, or no text (write the entries) */
} view_memos[VIEW_MEMO];

/* The slot of key (len bytes) for emit in language lang, made by emit(arg)
 * when it holds another key. */
static struct view_memo_slot *view_memo_slot(const char *key, size_t len, int lang,
					     void (*emit)(struct view *v, const void *arg),
					     const void *arg)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ (uint64_t)lang;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)key[i]) * 0x100000001b3ULL;
	struct view_memo_slot *m = &view_memos[(h >> 32) & (VIEW_MEMO - 1)];
	if (m->emit == emit && m->lang == lang && memcmp(m->key, key, len + 1) == 0)
		return m;
	json_group_free(m->text);
	*m = (struct view_memo_slot){ emit, lang, { 0 }, NULL };
	memcpy(m->key, key, len + 1);
	m->text = json_text_of(emit, arg);
	return m;
}

int view_memo(struct view *v, const char *key, void (*emit)(struct view *v, const void *arg),
	      const void *arg)
{
	size_t len = strlen(key);
	if (!v->js || v->failed || len >= VIEW_MEMO_KEY)
		return 0;
	struct view_memo_slot *m = view_memo_slot(key, len, (int)i18n_lang(), emit, arg);
	int done = m->text ? json_stream_group(v->js, m->text) : 0;
	if (done < 0)
		v->failed = 1;
	return done != 0;
}

/* A constant group: its text copied from the memo (made at the group's
 * first use, with those of all its indices), or its entries one by one
 * where the text cannot go as it is. */
static void ssink_group(struct view_sink *self, const struct view_group *g, int index)
{
	struct view *v = self->ctx;
	int lang = (int)i18n_lang();
	struct group_memo *slot = NULL, *m = group_memo_at(g, index, lang, &slot);
	if (!m && !group_met(g, lang))
		for (int i = 0; i < g->count; i++) {
			struct group_memo *s = NULL;
			if (!group_memo_at(g, i, lang, &s))
				group_memo_make(s, g, i, lang);
		}
	if (!m && !(m = group_memo_at(g, index, lang, &slot))) {
		m = slot;
		group_memo_make(m, g, index, lang);
	}
	int done = m->text ? json_stream_group(v->js, m->text) : 0;
	if (done < 0)
		v->failed = 1;
	else if (!done)
		g->emit(self, index);
}
