/* test_numfmt.c — numbers in the reader's language (cgi/numfmt.c) and the
 * plural forms of the catalogs (i18n_nget, cgi/i18n.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "i18n.h"
#include "numfmt.h"

/* German writes a decimal comma, English a point; both the minus sign
 * U+2212, never "-" (a rating of -2.8 was "-2.8" on the German page). */
static void test_decimals_and_minus(void **unused)
{
	(void)unused;
	char b[64];
	assert_string_equal(numfmt_decimal(LANG_DE, -2.84, 1, b, sizeof b), "\u22122,8");
	assert_string_equal(numfmt_decimal(LANG_EN, -2.84, 1, b, sizeof b), "\u22122.8");
	assert_string_equal(numfmt_decimal(LANG_DE, 25.0, 1, b, sizeof b), "25,0");
	assert_string_equal(numfmt_decimal(LANG_DE, 1234.5, 1, b, sizeof b), "1.234,5");
	assert_string_equal(numfmt_decimal(LANG_EN, 1234.5, 1, b, sizeof b), "1,234.5");
	assert_string_equal(numfmt_int(LANG_DE, -3, b, sizeof b), "\u22123");
	assert_string_equal(numfmt_int(LANG_EN, 0, b, sizeof b), "0");
	assert_null(strchr(numfmt_int(LANG_DE, -17, b, sizeof b), '-'));
	/* below a thousand without ICU, above with it: the same text */
	assert_string_equal(numfmt_int(LANG_DE, 999, b, sizeof b), "999");
	assert_string_equal(numfmt_int(LANG_DE, -999, b, sizeof b), "\u2212999");
	assert_string_equal(numfmt_int(LANG_DE, 1000, b, sizeof b), "1.000");
	assert_string_equal(numfmt_int(LANG_EN, -1000, b, sizeof b), "\u22121,000");
	for (long long x2 = -2100; x2 <= 2100; x2++) {
		char want[64];
		for (int l = 0; l < LANG__MAX; l++) {
			if (x2 % 2)
				numfmt_decimal((enum lang)l, (double)x2 / 2.0, 1, want, sizeof want);
			else
				numfmt_decimal((enum lang)l, (double)(x2 / 2), 0, want, sizeof want);
			assert_string_equal(numfmt_halves((enum lang)l, x2, b, sizeof b), want);
		}
	}
	assert_string_equal(numfmt_halves(LANG_DE, 25, b, sizeof b), "12,5");
	assert_string_equal(numfmt_halves(LANG_EN, -1, b, sizeof b), "\u22120.5");
	/* a small buffer gets a cut or empty text, never an overrun */
	char small[3];
	numfmt_decimal(LANG_DE, -2.84, 1, small, sizeof small);
	assert_true(strlen(small) < sizeof small);
}

/* ngettext: German picks by the number itself, English by its catalog's
 * msgstr[0] / msgstr[1] ("1 Matches" was the old page). */
static void test_plural_forms(void **unused)
{
	(void)unused;
	assert_int_equal(i18n_load_root("."), 0);
	assert_string_equal(i18n_nget(LANG_DE, "%d Match", "%d Matches", 1), "%d Match");
	assert_string_equal(i18n_nget(LANG_DE, "%d Match", "%d Matches", 0), "%d Matches");
	assert_string_equal(i18n_nget(LANG_DE, "%d Match", "%d Matches", 2), "%d Matches");
	assert_string_equal(i18n_nget(LANG_EN, "%d Match", "%d Matches", 1), "%d match");
	assert_string_equal(i18n_nget(LANG_EN, "%d Match", "%d Matches", 3), "%d matches");
	/* a message the catalog lacks: the German forms */
	assert_string_equal(i18n_nget(LANG_EN, "%d Nichts", "%d Nichtse", 1), "%d Nichts");
	assert_string_equal(i18n_nget(LANG_EN, "%d Nichts", "%d Nichtse", 5), "%d Nichtse");
	/* a singular message looked up as a plural: the one form there is */
	assert_string_equal(i18n_nget(LANG_EN, "Spielbrett", "Spielbretter", 1), "Game board");
	i18n_use(LANG_EN);
	assert_string_equal(i18n_ntext("%d Tisch wartet auf dich.", "%d Tische warten auf dich.", 2),
			    "%d tables are waiting for you.");
	i18n_use(LANG_DE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decimals_and_minus),
		cmocka_unit_test(test_plural_forms),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
