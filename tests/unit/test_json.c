/* test_json.c — the JSON writer never turns a string that is not UTF-8
 * into a failed page: each bad byte becomes U+FFFD, the rest is kept. A
 * game message that cut a typed word in the middle of a character ("%.24s")
 * used to make json_render() fail, and the JSON twin answer 500. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <jansson.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_utf8_is_replaced),
		cmocka_unit_test(test_repaired_string_stays_inert),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
