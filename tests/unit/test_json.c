/* test_json.c — the JSON writer (cgi/json.c):
 *   - it never turns a string that is not UTF-8 into a failed page: each bad
 *     byte becomes U+FFFD, the rest is kept. A game message that cut a typed
 *     word in the middle of a character ("%.24s") used to make json_render()
 *     fail, and the JSON twin answer 500;
 *   - it writes byte for byte what jansson writes from the same tree (the
 *     writer is our own for speed, docs/benchmarks.md): random view trees
 *     with repeated keys, a key both value and section, markup, control
 *     characters and broken UTF-8, through both, and the texts compared;
 *   - the text written as the view is made (view_json, json_stream_*) is
 *     the one json_render writes of the tree the same calls build: keys
 *     that come back as values and as sections after others, keys not in
 *     the program's image, names put in for "@N" and seat numbers,
 *     unbalanced ends, nesting past the limit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <jansson.h>

#include "http.h"
#include "json.h"
#include "view.h"

/* The JSON of {"s": in, "ok": "fine"} read back: the value of "s" into
 * out, and "ok" must have survived. */
static void round_trip(const char *in, char *out, size_t cap)
{
	struct arena a;
	arena_init(&a, 0);
	struct view v;
	view_init(&v, &a);
	view_str(&v, "s", in);
	view_str(&v, "ok", "grün");
	size_t len = 0;
	char *text = json_render(&a, &v.root, &len);
	assert_non_null(text);
	json_error_t err;
	json_t *o = json_loadb(text, len, 0, &err);
	assert_non_null(o);
	snprintf(out, cap, "%s", json_string_value(json_object_get(o, "s")));
	assert_string_equal(json_string_value(json_object_get(o, "ok")), "grün");
	json_decref(o);
	arena_free(&a);
}

/* ---- the reference: the view tree as jansson writes it ------------------ */

/* s with each byte outside well-formed UTF-8 replaced by U+FFFD (malloc). */
static char *ref_repaired(const char *s, size_t *k)
{
	size_t n = strlen(s);
	char *out = malloc(n * 3 + 1);
	assert_non_null(out);
	*k = 0;
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)s[i];
		size_t len = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3
			     : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
		if (len > 0 && len <= n - i && http_utf8_valid(s + i, len)) {
			memcpy(out + *k, s + i, len);
			*k += len;
			i += len;
		} else {
			memcpy(out + *k, "\xEF\xBF\xBD", 3);
			*k += 3;
			i++;
		}
	}
	return out;
}

static json_t *ref_value(const struct view_node *n, int depth);

/* Dictionary d as a jansson object; NULL where json_render refuses. As
 * jansson did, a later value under a key replaces what was there, a section
 * meeting a value refuses. */
static json_t *ref_dict(const struct view_node *d, int depth)
{
	if (depth > 32)
		return NULL;
	json_t *o = json_object();
	for (const struct view_node *n = d->first; n; n = n->next) {
		if (n->kind == VIEW_SECTION || n->kind == VIEW_LIST) {
			json_t *arr = json_object_get(o, n->key);
			if (!arr)
				json_object_set_new(o, n->key, arr = json_array());
			else if (!json_is_array(arr))
				goto refuse;
			json_t *item = n->kind == VIEW_SECTION ? ref_dict(n, depth + 1) : NULL;
			if (n->kind == VIEW_SECTION && !item)
				goto refuse;
			if (item)
				json_array_append_new(arr, item);
			continue;
		}
		json_t *val = ref_value(n, depth);
		if (!val)
			goto refuse;
		json_object_set_new(o, n->key, val);
	}
	return o;
refuse:
	json_decref(o);
	return NULL;
}

static json_t *ref_value(const struct view_node *n, int depth)
{
	size_t k;
	char *fixed;
	json_t *val;
	switch (n->kind) {
	case VIEW_STR:
		if ((val = json_string(n->str)))
			return val;
		fixed = ref_repaired(n->str, &k);
		val = json_stringn(fixed, k);
		free(fixed);
		return val;
	case VIEW_NUM:
		return json_integer((json_int_t)n->num);
	case VIEW_FLAG:
		return json_boolean(n->num);
	case VIEW_INCLUDE:
		return ref_dict(n, depth + 1);
	default:
		return NULL;
	}
}

/* jansson's compact text with <, >, & escaped and a newline; NULL: refused. */
static char *ref_render(const struct view_node *root)
{
	json_t *o = ref_dict(root, 0);
	char *text = NULL;
	if (o) {
		char *raw = json_dumps(o, JSON_COMPACT);
		assert_non_null(raw);
		text = malloc(strlen(raw) * 6 + 2);
		assert_non_null(text);
		char *q = text;
		for (const char *c = raw; *c; c++) {
			if (*c == '<' || *c == '>' || *c == '&') {
				memcpy(q, *c == '<' ? "\\u003c" : *c == '>' ? "\\u003e" : "\\u0026", 6);
				q += 6;
			} else
				*q++ = *c;
		}
		memcpy(q, "\n", 2);
		free(raw);
	}
	json_decref(o);
	return text;
}

/* ---- random view trees -------------------------------------------------- */

static uint64_t rnd_state = 0x5eed5eedULL;

static unsigned rnd(unsigned n)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return (unsigned)(rnd_state % n);
}

/* Bits of text a view may carry: plain, markup, escapes, multi-byte
 * characters, and bytes that are not UTF-8 (cut, stray, overlong, a
 * surrogate, beyond U+10FFFF). */
static const char *const pieces[] = {
	"x", "Zug", " ", "ü", "€", "\xF0\x9F\x83\x8F", "<", ">", "&", "\"", "\\", "/",
	"\n", "\t", "\x01", "\x1f", "\x7f", "\xC3", "\x80", "\xFF", "\xE2\x82",
	"\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xE0\x80\x80", "\\u0000",
};
static const char *const keys[] = { "a", "b", "c", "seat", "text" };
/* The second round's: more of them, of every length the writer copies
 * differently (up to 3, 4 to 7, 8 to 16, longer; its memo of literal keys
 * keeps them up to 29 bytes), two that need escapes. */
static const char *const more_keys[] = {
	"a", "b", "c", "seat", "text", "name", "card", "is_end", "colour_word",
	"seat_name_long", "a_key_longer_than_sixteen", "<b>", "q\\\"", "ü", "x", "y",
	"key_of_twenty_nine_bytes_long", "key_of_thirty_bytes_long_too_x",
	"a_literal_key_of_forty_bytes_is_not_kept",
};
/* What random_dict draws from: the first round's small trees, or the
 * second's larger ones (long texts, dictionaries past 32 entries). */
static const char *const *key_set = keys;
static unsigned nkeys = sizeof keys / sizeof keys[0], max_entries = 6, max_pieces = 8;
static int stack_keys;   /* some keys copied to the stack first */
/* Literal texts: plain, long, with escapes, with names to put in, cut. */
static const char *const literals[] = {
	"rot", "", "gr\xc3\xbcn", "ein Text, der l\xc3\xa4nger ist als sechzehn Bytes",
	"<b>", "a\"b", "@1 legt", "x@0", "\xc3", "zeile\n",
};

static void random_text(char *out, size_t cap)
{
	size_t n = 0;
	for (unsigned k = rnd(max_pieces); k > 0; k--) {
		const char *p = pieces[rnd(sizeof pieces / sizeof pieces[0])];
		size_t len = strlen(p);
		if (n + len >= cap)
			break;
		memcpy(out + n, p, len);
		n += len;
	}
	out[n] = '\0';
}

static void random_dict(struct view *v, int depth)
{
	static const long long nums[] = { 0, 1, -1, 42, 100, 280, 999, 1000, -100,
					  LLONG_MAX, LLONG_MIN, 1000000007 };
	char text[256];
	static const char *const section_keys[] = { "cards", "items", "seats" };
	for (unsigned k = rnd(depth ? max_entries / 4 + 2 : max_entries); k > 0; k--) {
		const char *key = key_set[rnd(nkeys)];
		unsigned kind = rnd(depth < 4 ? 7 : 4);
		char copy[64];
		if (key_set != keys && (kind == 3 || kind == 4 || kind == 5))
			key = section_keys[rnd(3)];   /* never a value's key: few refusals */
		if (stack_keys && rnd(4) == 0)   /* a key on the stack, not a literal */
			key = strcpy(copy, key);
		switch (kind) {
		case 0:
			if (stack_keys && rnd(3) == 0) {   /* a literal: remembered when plain */
				view_str(v, key, literals[rnd(sizeof literals / sizeof literals[0])]);
				break;
			}
			random_text(text, sizeof text);
			if (v->nnames && rnd(3) == 0)
				strcat(text, rnd(2) ? "@1 und @0" : "@9@");
			view_str(v, key, text);
			break;
		case 1:
			view_num(v, key, nums[rnd(sizeof nums / sizeof nums[0])]);
			break;
		case 2:
			view_flag(v, key, (int)rnd(2));
			break;
		case 3:
			view_list(v, key);
			break;
		case 4:
		case 5:
			view_begin(v, key);
			random_dict(v, depth + 1);
			view_end(v);
			break;
		default:
			view_include(v, key, "part.tpl");
			random_dict(v, depth + 1);
			view_end(v);
			break;
		}
	}
}

static void compare_with_jansson(int trees, int min_refused, int min_repaired);

/* json_render and jansson agree on every tree: the same text, or both
 * refuse (a key that is a value and a section). */
static void test_same_as_jansson(void **state)
{
	(void)state;
	key_set = keys;
	nkeys = sizeof keys / sizeof keys[0];
	max_entries = 6;
	max_pieces = 8;
	compare_with_jansson(20000, 100, 1000);
}

/* The same with larger trees: long texts (the writer copies 16, 8 and
 * 4 bytes at a time), keys of every length, two that need escapes, and
 * dictionaries of up to 40 entries, with the same key again after others
 * (written in one pass or gathered first). */
static void test_same_as_jansson_larger(void **state)
{
	(void)state;
	key_set = more_keys;
	nkeys = sizeof more_keys / sizeof more_keys[0];
	max_entries = 40;
	max_pieces = 30;
	compare_with_jansson(3000, 0, 100);
}

static void compare_with_jansson(int trees, int min_refused, int min_repaired)
{
	int refused = 0, repaired = 0;
	char bad[2048] = "";
	/* the writer's notes of refusals and repairs: thousands, not for the log */
	fflush(stderr);
	int saved = dup(2), null = open("/dev/null", O_WRONLY);
	assert_true(saved >= 0 && null >= 0);
	dup2(null, 2);
	for (int t = 0; t < trees; t++) {
		struct arena a;
		struct view v;
		size_t len = 0;
		arena_init(&a, 0);
		view_init(&v, &a);
		random_dict(&v, 0);
		assert_false(v.failed);
		char *ours = json_render(&a, &v.root, &len);
		char *want = ref_render(&v.root);
		if (!want) {
			refused++;
			if (ours)
				snprintf(bad, sizeof bad, "tree %d: jansson refused, ours wrote %s",
					 t, ours);
		} else {
			repaired += strstr(want, "\xEF\xBF\xBD") != NULL;
			if (!ours || strlen(want) != len || memcmp(ours, want, len) != 0)
				snprintf(bad, sizeof bad, "tree %d:\n ours %s\n want %s", t,
					 ours ? ours : "(refused)", want);
		}
		free(want);
		arena_free(&a);
		if (bad[0])
			break;
	}
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(null);
	if (bad[0])
		fail_msg("%s", bad);
	/* the trees did reach the rare paths */
	assert_true(refused >= min_refused);
	assert_true(repaired > min_repaired);
}

/* Nesting past the limit is refused by both; just within it, written. */
static void test_depth_limit(void **state)
{
	(void)state;
	for (int depth = 30; depth <= 34; depth++) {
		struct arena a;
		struct view v;
		size_t len = 0;
		arena_init(&a, 0);
		view_init(&v, &a);
		for (int i = 0; i < depth; i++)
			view_begin(&v, "a");
		view_num(&v, "n", depth);
		for (int i = 0; i < depth; i++)
			view_end(&v);
		char *ours = json_render(&a, &v.root, &len);
		char *want = ref_render(&v.root);
		assert_int_equal(ours != NULL, want != NULL);
		if (want)
			assert_memory_equal(ours, want, len);
		free(want);
		arena_free(&a);
	}
}

static void test_bad_utf8_is_replaced(void **state)
{
	(void)state;
	static const struct {
		const char *in, *want;
	} cases[] = {
		/* a word cut after the first byte of "ä" (what "%.24s" did) */
		{ "Unbekannter Zug 'x\xc3\xa4\xc3\xa4\xc3'", "Unbekannter Zug 'xää\xef\xbf\xbd'" },
		{ "\xc3", "\xef\xbf\xbd" },                        /* cut at the very end */
		{ "a\x80z", "a\xef\xbf\xbdz" },                    /* lone continuation */
		{ "\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd" },        /* overlong '/' */
		{ "\xed\xa0\x80!", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd!" },   /* surrogate */
		{ "\xf5\x80\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },
		{ "\xf0\x9f\x98", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },      /* 4-byte, cut */
		{ "\xff\xfe", "\xef\xbf\xbd\xef\xbf\xbd" },
		/* well-formed text stays as it is */
		{ "Spieler \xf0\x9f\x98\x80 legt gr\xc3\xbcn-3", "Spieler \xf0\x9f\x98\x80 legt gr\xc3\xbcn-3" },
		{ "", "" },
	};
	char out[256];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		round_trip(cases[i].in, out, sizeof out);
		if (strcmp(out, cases[i].want) != 0)
			fail_msg("case %zu: got '%s', want '%s'", i, out, cases[i].want);
	}
}

/* A byte that is not UTF-8, or a well-formed umlaut, at every place of
 * ASCII texts up to 48 bytes long (the check skips 16 and 8 bytes at a
 * time, and within a block straight to its first byte from 0x80 up): the
 * text as ref_repaired makes it. */
static void test_utf8_at_every_place(void **state)
{
	(void)state;
	static const char *const odd[] = { "\x80", "\xc3", "\xc3\xa4", "\xe2\x82\xac", "\xc3\xa4\x80",
					   "\xf0\x9f\x98" };
	char in[64], out[256];
	for (size_t k = 0; k < sizeof odd / sizeof odd[0]; k++)
		for (size_t len = 1; len <= 48; len++)
			for (size_t at = 0; at + strlen(odd[k]) <= len; at++) {
				memset(in, 'a', len);
				memcpy(in + at, odd[k], strlen(odd[k]));
				in[len] = '\0';
				size_t wl = 0;
				char *want = ref_repaired(in, &wl);
				want[wl] = '\0';
				round_trip(in, out, sizeof out);
				if (strcmp(out, want) != 0)
					fail_msg("'%s' at %zu of %zu: got '%s'", odd[k], at, len, out);
				free(want);
			}
}

/* Markup in a repaired string is still escaped on the way out. */
static void test_repaired_string_stays_inert(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a, 0);
	struct view v;
	view_init(&v, &a);
	view_str(&v, "s", "<img src=x>\xc3");
	size_t len = 0;
	char *text = json_render(&a, &v.root, &len);
	assert_non_null(text);
	assert_null(strchr(text, '<'));
	assert_non_null(strstr(text, "\\u003cimg src=x\\u003e\xef\xbf\xbd"));
	arena_free(&a);
}

/* ---- written as the view is made --------------------------------------- */

static const char *const seat_names[] = { "anna", NULL, "<b>ob</b>" };

/* One random tree's calls (seed `seed`) into v, with names put in for
 * some trees, and now and then an end too many or an end left out. */
static void random_calls(struct view *v, uint64_t seed)
{
	rnd_state = seed;
	if (rnd(3) == 0)
		view_names(v, seat_names, 3);
	random_dict(v, 0);
	unsigned odd = rnd(40);
	if (odd == 0)
		view_end(v);   /* an end without a begin: both fail */
	else if (odd == 1)
		view_begin(v, "left_open");   /* never closed: written as if it were */
}

/* The same calls through a tree (json_render) and through view_json: the
 * same text, or both refuse. */
static void compare_stream(int trees, int larger)
{
	key_set = larger ? more_keys : keys;
	nkeys = larger ? sizeof more_keys / sizeof more_keys[0] : sizeof keys / sizeof keys[0];
	max_entries = larger ? 40 : 6;
	max_pieces = larger ? 30 : 8;
	stack_keys = 1;
	int written = 0;
	char bad[4096] = "";
	fflush(stderr);
	int saved = dup(2), null = open("/dev/null", O_WRONLY);
	assert_true(saved >= 0 && null >= 0);
	dup2(null, 2);
	for (int t = 0; t < trees && !bad[0]; t++) {
		uint64_t seed = 0x5eed0000ULL + (uint64_t)t * 7919 + (uint64_t)larger;
		struct arena a, b;
		struct view tree, stream;
		size_t len = 0, slen = 0;
		arena_init(&a, 0);
		arena_init(&b, 0);
		view_init(&tree, &a);
		random_calls(&tree, seed);
		view_init(&stream, &b);
		view_json(&stream);
		random_calls(&stream, seed);
		char *want = tree.failed ? NULL : json_render(&a, &tree.root, &len);
		char *ours = stream.failed ? NULL : json_stream_finish(stream.js, &slen);
		if (!want != !ours || (want && (len != slen || memcmp(want, ours, len) != 0)))
			snprintf(bad, sizeof bad, "tree %d:\n stream %s\n tree   %s", t,
				 ours ? ours : "(refused)", want ? want : "(refused)");
		written += want != NULL;
		arena_free(&a);
		arena_free(&b);
	}
	stack_keys = 0;
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(null);
	if (bad[0])
		fail_msg("%s", bad);
	assert_true(written > trees / 2);
}

static void test_stream_same_as_tree(void **state)
{
	(void)state;
	compare_stream(20000, 0);
}

static void test_stream_same_as_tree_larger(void **state)
{
	(void)state;
	compare_stream(3000, 1);
}

/* Nesting past the limit: refused as json_render refuses it. */
static void test_stream_depth_limit(void **state)
{
	(void)state;
	for (int depth = 30; depth <= 34; depth++) {
		struct arena a;
		struct view v;
		size_t len = 0;
		arena_init(&a, 0);
		view_init(&v, &a);
		view_json(&v);
		for (int i = 0; i < depth; i++)
			view_begin(&v, "a");
		view_num(&v, "n", depth);
		for (int i = 0; i < depth; i++)
			view_end(&v);
		char *text = v.failed ? NULL : json_stream_finish(v.js, &len);
		assert_int_equal(text != NULL, depth <= 32);
		arena_free(&a);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_utf8_is_replaced),
		cmocka_unit_test(test_utf8_at_every_place),
		cmocka_unit_test(test_repaired_string_stays_inert),
		cmocka_unit_test(test_same_as_jansson),
		cmocka_unit_test(test_same_as_jansson_larger),
		cmocka_unit_test(test_depth_limit),
		cmocka_unit_test(test_stream_same_as_tree),
		cmocka_unit_test(test_stream_same_as_tree_larger),
		cmocka_unit_test(test_stream_depth_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
