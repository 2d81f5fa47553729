/* test_text.c — what a user types (cgi/text.c): the characters refused in
 * every text a user enters, the cap on stacked combining marks, NFC, the
 * case folding of name keys and the confusable skeletons of names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "text.h"

/* text_clean refuses `in` with a message containing `want`. */
static void refused(const char *in, const char *want)
{
	char out[1024];
	struct rerr e = { .msg = "" };
	if (text_clean(in, out, sizeof out, NULL, &e) == 0)
		fail_msg("'%s' accepted", in);
	if (!strstr(e.msg, want))
		fail_msg("'%s': message '%s' lacks '%s'", in, e.msg, want);
	assert_string_equal(out, "");
}

/* text_clean accepts `in` as `want` (NFC), of `chars` characters. */
static void accepted(const char *in, const char *want, size_t chars)
{
	char out[1024];
	size_t n = 0;
	struct rerr e = { .msg = "" };
	if (text_clean(in, out, sizeof out, &n, &e) != 0)
		fail_msg("'%s' refused: %s", in, e.msg);
	assert_string_equal(out, want);
	assert_int_equal(n, chars);
}

static void test_controls_and_line_breaks(void **u)
{
	(void)u;
	refused("Turnier\nzwei", "Zeilenumbrüche und Steuerzeichen");
	refused("Turnier\r", "Zeilenumbrüche");
	refused("a\x01" "b", "Steuerzeichen");
	refused("a\tb", "Steuerzeichen");
	refused("a\xc2\x85" "b", "Steuerzeichen");            /* U+0085 NEL */
	refused("a\xe2\x80\xa8" "b", "Zeilenumbrüche");       /* U+2028 */
	refused("a\xe2\x80\xa9" "b", "Zeilenumbrüche");       /* U+2029 */
}

/* The list: the override that reverses what follows, the marks and
 * the zero-width characters that hide or reorder text. */
static void test_invisible_format_characters(void **u)
{
	(void)u;
	refused("Cup \xe2\x80\xae" "reniW", "U+202E");
	refused("a\xe2\x80\x8b" "b", "U+200B");
	refused("a\xe2\x80\x8e" "b", "U+200E");
	refused("a\xe2\x80\x8f" "b", "U+200F");
	refused("a\xd8\x9c" "b", "U+061C");
	refused("\xef\xbb\xbf" "Hallo", "U+FEFF");
	refused("a\xe2\x81\xa6" "b", "U+2066");                /* an isolate */
	refused("Ab\xc2\xad" "satz", "U+00AD");               /* soft hyphen */
	refused("a\xe2\x80\x8d" "b", "U+200D");               /* a joiner between letters */
	/* the joiner inside an emoji sequence (man, ZWJ, laptop) is text */
	accepted("\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x92\xbb", "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x92\xbb",
		 3);
}

static void test_unassigned_private_and_invalid(void **u)
{
	(void)u;
	refused("a\xee\x80\x80", "U+E000");                    /* private use */
	refused("a\xf4\x8f\xbf\xbf", "U+10FFFF");             /* a noncharacter, unassigned */
	refused("a\xff", "kein gültiges UTF-8");
	refused("a\xed\xa0\x80", "kein gültiges UTF-8");      /* a surrogate's bytes */
}

/* Stacked combining marks: up to TEXT_MARKS_MAX on one letter (Vietnamese
 * needs two), not 299. */
static void test_stacked_marks(void **u)
{
	(void)u;
	char zalgo[1024];
	size_t n = 0;
	zalgo[n++] = 'a';
	for (int i = 0; i < 299; i++) {
		zalgo[n++] = (char)0xcc;
		zalgo[n++] = (char)(0x80 + i % 0x30);   /* U+0300..U+032F */
	}
	zalgo[n] = '\0';
	refused(zalgo, "Höchstens 3 Akzente");
	/* a and four marks: too many, though NFC makes a and the first one á
	 * (marks are counted in NFD); x and three: fine, in canonical order */
	refused("a\xcc\x81\xcc\x82\xcc\x83\xcc\x84", "Höchstens 3");
	accepted("x\xcc\x81\xcc\xa3\xcc\x83", "x\xcc\xa3\xcc\x81\xcc\x83", 4);   /* reordered */
	/* ệ typed as e + U+0323 + U+0302 is one character in NFC */
	accepted("Vi\x65\xcc\xa3\xcc\x82t", "Vi\xe1\xbb\x87t", 4);
	/* the count starts again at every letter */
	accepted("a\xcc\x81\xcc\x82\xcc\x83" "b\xcc\x81\xcc\x82\xcc\x83",
		 "\xc3\xa1\xcc\x82\xcc\x83" "b\xcc\x81\xcc\x82\xcc\x83", 7);   /* á in NFC */
}

static void test_ordinary_text(void **u)
{
	(void)u;
	accepted("Größenwahn 2026", "Größenwahn 2026", 15);
	accepted("Jo\xcc\x88rg", "Jörg", 4);                    /* o + U+0308 → ö */
	accepted("Привет, مرحبا, שלום", "Привет, مرحبا, שלום", 19);   /* RTL letters are fine */
	accepted("", "", 0);
	char small[4];
	struct rerr e = { .msg = "" };
	assert_int_equal(text_clean("Hallo", small, sizeof small, NULL, &e), -1);
	assert_non_null(strstr(e.msg, "zu lang"));
}

static void test_fold(void **u)
{
	(void)u;
	char out[64];
	assert_int_equal(text_fold("ANNA", out, sizeof out), 0);
	assert_string_equal(out, "anna");
	assert_int_equal(text_fold("JÖRG", out, sizeof out), 0);
	assert_string_equal(out, "jörg");
	assert_int_equal(text_fold("Łukasz", out, sizeof out), 0);
	assert_string_equal(out, "łukasz");
	assert_int_equal(text_fold("Straße", out, sizeof out), 0);
	assert_string_equal(out, "straße");
	assert_int_equal(text_fold("a\xff", out, sizeof out), -1);
	assert_int_equal(text_fold("abcdef", out, 4), -1);
}

/* 1 when a and b have the same skeleton. */
static int same(const char *a, const char *b)
{
	char x[TEXT_KEY_MAX + 1], y[TEXT_KEY_MAX + 1];
	assert_int_equal(text_skeleton(a, x, sizeof x), 0);
	assert_int_equal(text_skeleton(b, y, sizeof y), 0);
	return strcmp(x, y) == 0;
}

static void test_skeletons(void **u)
{
	(void)u;
	assert_true(same("admın", "admin"));            /* dotless ı */
	assert_true(same("ADMIN", "admin"));
	assert_true(same("раураl", "paypal"));           /* Cyrillic р, а, у */
	assert_true(same("adrnin", "admin"));           /* rn reads as m */
	assert_true(same("Anna", "Αnna"));              /* Greek Alpha */
	assert_false(same("Jörg", "Jorg"));
	assert_false(same("Straße", "Strasse"));
	assert_false(same("Anna", "Anne"));
	char tiny[3];
	assert_int_equal(text_skeleton("admin", tiny, sizeof tiny), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_controls_and_line_breaks),
		cmocka_unit_test(test_invisible_format_characters),
		cmocka_unit_test(test_unassigned_private_and_invalid),
		cmocka_unit_test(test_stacked_marks),
		cmocka_unit_test(test_ordinary_text),
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_skeletons),
	};
	return cmocka_run_group_tests_name("text", tests, NULL, NULL);
}
