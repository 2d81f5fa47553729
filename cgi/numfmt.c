/* numfmt.c — numbers in the reader's language (numfmt.h), by ICU's
 * number formats; one formatter per language, opened on first use. */
#include "numfmt.h"

#include <stdio.h>
#include <string.h>

#include <unicode/unum.h>
#include <unicode/ustring.h>

static UNumberFormat *fmts[LANG__MAX];

static UNumberFormat *formatter(enum lang l)
{
	if (l < 0 || l >= LANG__MAX)
		l = LANG_DE;
	if (!fmts[l]) {
		UErrorCode st = U_ZERO_ERROR;
		UNumberFormat *f = unum_open(UNUM_DECIMAL, NULL, 0, lang_code[l], NULL, &st);
		static const UChar minus[] = { 0x2212, 0 };
		if (U_SUCCESS(st))
			unum_setSymbol(f, UNUM_MINUS_SIGN_SYMBOL, minus, 1, &st);
		if (U_FAILURE(st)) {
			if (f)
				unum_close(f);
			return NULL;
		}
		fmts[l] = f;
	}
	return fmts[l];
}

/* The C locale's text of s (a number) with its '-' as U+2212. */
static char *plain(const char *s, char *out, size_t cap)
{
	snprintf(out, cap, "%s%s", s[0] == '-' ? "\u2212" : "", s[0] == '-' ? s + 1 : s);
	return out;
}

char *numfmt_decimal(enum lang l, double x, int digits, char *out, size_t cap)
{
	if (cap == 0)
		return out;
	digits = digits < 0 ? 0 : digits > 6 ? 6 : digits;
	UNumberFormat *f = formatter(l);
	UChar buf[64];
	UErrorCode st = U_ZERO_ERROR;
	if (f) {
		unum_setAttribute(f, UNUM_MIN_FRACTION_DIGITS, digits);
		unum_setAttribute(f, UNUM_MAX_FRACTION_DIGITS, digits);
		int32_t n = unum_formatDouble(f, x, buf, 64, NULL, &st);
		if (U_SUCCESS(st) && n < 64)
			u_strToUTF8(out, (int32_t)cap, NULL, buf, n, &st);
		if (U_SUCCESS(st) && st != U_STRING_NOT_TERMINATED_WARNING)
			return out;
	}
	char c[64];
	snprintf(c, sizeof c, "%.*f", digits, x);
	return plain(c, out, cap);
}

char *numfmt_int(enum lang l, long long n, char *out, size_t cap)
{
	if (n > -(1LL << 52) && n < (1LL << 52))
		return numfmt_decimal(l, (double)n, 0, out, cap);
	char c[32];
	snprintf(c, sizeof c, "%lld", n);
	return plain(c, out, cap);
}
