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

/* Below a thousand no language of ours groups digits, and ICU writes the
 * C locale's digits (with its minus sign): the text without ICU's 1k
 * instructions (a standings page formats two numbers a row). */
static int small(long long n)
{
	return n > -1000 && n < 1000;
}

/* n (small()) into out (8 bytes at least) as ICU writes it, with
 * `decimal` (0: none) and a 5 after it: "−12,5". No printf: its 1.5k
 * instructions are more than ICU's. */
static char *small_text(long long n, char decimal, char *out)
{
	char *q = out;
	if (n < 0) {
		memcpy(q, "\u2212", 3);
		q += 3;
		n = -n;
	}
	if (n >= 100)
		*q++ = (char)('0' + n / 100);
	if (n >= 10)
		*q++ = (char)('0' + n / 10 % 10);
	*q++ = (char)('0' + n % 10);
	if (decimal) {
		*q++ = decimal;
		*q++ = '5';
	}
	*q = '\0';
	return out;
}

char *numfmt_int(enum lang l, long long n, char *out, size_t cap)
{
	if (small(n) && cap >= 8)
		return small_text(n, 0, out);
	if (n > -(1LL << 52) && n < (1LL << 52))
		return numfmt_decimal(l, (double)n, 0, out, cap);
	char c[32];
	snprintf(c, sizeof c, "%lld", n);
	return plain(c, out, cap);
}

char *numfmt_halves(enum lang l, long long x2, char *out, size_t cap)
{
	static char sep[LANG__MAX];
	if (l < 0 || l >= LANG__MAX)
		l = LANG_DE;
	if (x2 % 2 == 0 || !small(x2 / 2) || cap < 16)
		return x2 % 2 ? numfmt_decimal(l, (double)x2 / 2.0, 1, out, cap)
			      : numfmt_int(l, x2 / 2, out, cap);
	if (!sep[l]) {   /* the language's decimal separator, as ICU writes it */
		char b[16];
		numfmt_decimal(l, 0.5, 1, b, sizeof b);
		sep[l] = b[1] == ',' ? ',' : '.';
	}
	if (x2 > -2 && x2 < 0) {   /* −0,5: the sign of a whole part 0 */
		memcpy(out, "\u2212", 3);
		small_text(0, sep[l], out + 3);
		return out;
	}
	return small_text(x2 / 2, sep[l], out);
}
