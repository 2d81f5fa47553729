/* json.c — view tree → JSON with jansson; see json.h.
 *
 * While json_render() runs, jansson allocates from the request's arena (its
 * allocator functions are swapped in and restored before it returns): the
 * tree is a few thousand small nodes, and a malloc and a free for each cost
 * more than building and writing them. Nothing jansson allocated in that
 * time is freed on its own: the arena's reset frees it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "http.h"
#include "json.h"

enum { JSON_OUT_FIRST = 16 * 1024 };   /* first size of the text buffer */

/* The arena jansson allocates from; set only inside json_render(). */
static struct arena *json_arena;

/* jansson's malloc during json_render(): memory from json_arena. */
static void *arena_malloc(size_t n)
{
	return arena_alloc_raw(json_arena, n);
}

/* jansson's free during json_render(): nothing, the arena's reset frees. */
static void arena_nofree(void *p)
{
	(void)p;
}

/* Bytes of the UTF-8 sequence a lead byte starts (1..4), 0 for a byte no
 * sequence starts with. */
static size_t lead_len(unsigned char c)
{
	return c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3
	       : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
}

/* A JSON string of s with every byte that is not part of well-formed
 * UTF-8 replaced by U+FFFD, so that text cut in the middle of a character
 * (or any other bad byte) becomes a visible mark instead of a failed page.
 * NULL only without memory. */
static json_t *repaired_string(const char *s)
{
	size_t n = strlen(s), k = 0;
	char *out = arena_alloc_raw(json_arena, n * 3 + 1);
	if (!out)
		return NULL;
	for (size_t i = 0; i < n;) {
		size_t len = lead_len((unsigned char)s[i]);
		if (len > 0 && len <= n - i && http_utf8_valid(s + i, len)) {
			memcpy(out + k, s + i, len);
			k += len;
			i += len;
		} else {
			memcpy(out + k, "\xEF\xBF\xBD", 3);
			k += 3;
			i++;
		}
	}
	fprintf(stderr, "json: a string that was not UTF-8 was repaired\n");
	return json_stringn(out, k);
}

/* The entries of dictionary `d` as a new JSON object, or NULL. Keys are the
 * views' own ASCII names, so they skip jansson's UTF-8 check; values do
 * not, and one that fails it is repaired (repaired_string). */
static json_t *dict_to_json(const struct view_node *d, int depth)
{
	if (depth > 32)
		return NULL;
	json_t *o = json_object();
	if (!o)
		return NULL;
	for (const struct view_node *n = d->first; n; n = n->next) {
		json_t *val = NULL;
		switch (n->kind) {
		case VIEW_STR:
			val = json_stringn(n->str, strlen(n->str));
			if (!val)   /* not UTF-8: never a failed page for that */
				val = repaired_string(n->str);
			break;
		case VIEW_NUM:
			val = json_integer((json_int_t)n->num);
			break;
		case VIEW_FLAG:
			val = json_boolean(n->num);
			break;
		case VIEW_INCLUDE:
			val = dict_to_json(n, depth + 1);
			break;
		case VIEW_SECTION:
		case VIEW_LIST: {
			json_t *arr = json_object_get(o, n->key);
			if (!arr) {
				arr = json_array();
				if (!arr || json_object_set_new_nocheck(o, n->key, arr) != 0)
					return NULL;
			} else if (!json_is_array(arr)) {
				fprintf(stderr, "json: '%s' is both a value and a section\n", n->key);
				return NULL;
			}
			if (n->kind == VIEW_SECTION) {
				json_t *item = dict_to_json(n, depth + 1);
				if (!item || json_array_append_new(arr, item) != 0)
					return NULL;
			}
			continue;
		}
		case VIEW_KIND__MAX:
			abort();
		}
		if (!val || json_object_set_new_nocheck(o, n->key, val) != 0)
			return NULL;
	}
	return o;
}

/* The text as jansson writes it, '<', '>' and '&' escaped on the way. */
struct out {
	struct arena *a;
	char *p;
	size_t len, cap;
};

/* json_dump_callback's sink: appends a chunk; -1 when the arena is out. */
static int put_chunk(const char *buf, size_t n, void *ctx)
{
	struct out *o = ctx;
	if (o->cap - o->len < n * 6 + 2) {
		size_t cap = o->cap * 2 > o->len + n * 6 + 2 ? o->cap * 2 : o->len + n * 6 + 2;
		char *p = arena_alloc_raw(o->a, cap);
		if (!p)
			return -1;
		memcpy(p, o->p, o->len);
		o->p = p;
		o->cap = cap;
	}
	char *q = o->p + o->len;
	for (size_t i = 0; i < n; i++) {
		char c = buf[i];
		if (c == '<' || c == '>' || c == '&') {
			memcpy(q, c == '<' ? "\\u003c" : c == '>' ? "\\u003e" : "\\u0026", 6);
			q += 6;
		} else
			*q++ = c;
	}
	o->len = (size_t)(q - o->p);
	return 0;
}

char *json_render(struct arena *a, const struct view_node *root, size_t *len)
{
	json_malloc_t saved_malloc;
	json_free_t saved_free;
	struct out o = { a, NULL, 0, JSON_OUT_FIRST };
	char *text = NULL;

	json_get_alloc_funcs(&saved_malloc, &saved_free);
	json_arena = a;
	json_set_alloc_funcs(arena_malloc, arena_nofree);
	o.p = arena_alloc_raw(a, o.cap);
	json_t *tree = o.p ? dict_to_json(root, 0) : NULL;
	if (!tree || json_dump_callback(tree, put_chunk, &o, JSON_COMPACT) != 0)
		goto out;
	o.p[o.len++] = '\n';   /* put_chunk always leaves room for two more */
	o.p[o.len] = '\0';
	*len = o.len;
	text = o.p;
out:
	/* no json_decref(): the tree is in the arena */
	json_set_alloc_funcs(saved_malloc, saved_free);
	json_arena = NULL;
	return text;
}
