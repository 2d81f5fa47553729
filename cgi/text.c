/* text.c — what a user types; see text.h. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unicase.h>
#include <unictype.h>
#include <uninorm.h>
#include <unistr.h>
#include <unicode/uspoof.h>

#include "text.h"

enum { ZWJ = 0x200D };

/* The library's result into out (cap bytes, NUL-terminated): r is out
 * itself when it fitted, else a buffer of the library's (freed here). */
static int take(uint8_t *r, size_t len, char *out, size_t cap)
{
	if (!r)
		return -1;
	if (r != (uint8_t *)out) {
		free(r);
		return -1;
	}
	if (len >= cap)
		return -1;
	out[len] = '\0';
	return 0;
}

/* The categories refused in any text a user enters (text.h). */
static int refused(ucs4_t c)
{
	return uc_is_general_category(c, UC_CATEGORY_Co) ||
	       uc_is_general_category(c, UC_CATEGORY_Cn) ||
	       uc_is_general_category(c, UC_CATEGORY_Cs);
}

static int is_line_break_or_control(ucs4_t c)
{
	return uc_is_general_category(c, UC_CATEGORY_Cc) ||
	       uc_is_general_category(c, UC_CATEGORY_Zl) ||
	       uc_is_general_category(c, UC_CATEGORY_Zp);
}

static int symbol(ucs4_t c)
{
	return uc_is_general_category(c, UC_CATEGORY_So) ||
	       uc_is_general_category(c, UC_CATEGORY_Sk);
}

/* Checks the code points of NFC text s (n bytes): 0 with *chars, or -1. */
static int check_points(const uint8_t *s, size_t n, size_t *chars, struct rerr *e)
{
	size_t count = 0;
	int after_symbol = 0;
	for (size_t i = 0; i < n;) {
		ucs4_t c;
		int len = u8_mbtouc(&c, s + i, n - i);
		i += (size_t)len;
		count++;
		if (is_line_break_or_control(c))
			return rerr_set(e, "Zeilenumbrüche und Steuerzeichen gehen hier nicht.");
		if (uc_is_general_category(c, UC_CATEGORY_Cf)) {
			ucs4_t next = 0;
			if (i < n)
				u8_mbtouc(&next, s + i, n - i);
			if (c == ZWJ && after_symbol && symbol(next))
				continue;   /* an emoji sequence */
			return rerr_set(e, "Unsichtbare Zeichen, die Schreibrichtung oder Darstellung "
					   "ändern (hier U+%04lX), gehen hier nicht.", (unsigned long)c);
		}
		if (refused(c))
			return rerr_set(e, "Das Zeichen U+%04lX ist nicht vergeben oder privat.",
					(unsigned long)c);
		if (!uc_is_general_category(c, UC_CATEGORY_M))
			after_symbol = symbol(c);
	}
	if (chars)
		*chars = count;
	return 0;
}

/* The most combining marks on one character of text s (n bytes), counted
 * in NFD (so "á" is a and one mark); -1 without the memory for it. */
static int most_marks(const uint8_t *s, size_t n)
{
	size_t len = 0;
	uint8_t *d = u8_normalize(UNINORM_NFD, s, n, NULL, &len);
	if (!d)
		return -1;
	int most = 0, marks = 0;
	for (size_t i = 0; i < len;) {
		ucs4_t c;
		i += (size_t)u8_mbtouc(&c, d + i, len - i);
		marks = uc_is_general_category(c, UC_CATEGORY_M) ? marks + 1 : 0;
		if (marks > most)
			most = marks;
	}
	free(d);
	return most;
}

int text_clean(const char *in, char *out, size_t cap, size_t *chars, struct rerr *e)
{
	size_t n = in ? strlen(in) : 0;
	if (cap == 0)
		return -1;
	out[0] = '\0';
	if (u8_check((const uint8_t *)in, n) != NULL)
		return rerr_set(e, "Der Text ist kein gültiges UTF-8.");
	size_t len = cap;
	uint8_t *r = u8_normalize(UNINORM_NFC, (const uint8_t *)(in ? in : ""), n, (uint8_t *)out,
				  &len);
	if (take(r, len, out, cap) != 0) {
		out[0] = '\0';
		return rerr_set(e, "Der Text ist zu lang.");
	}
	if (check_points((const uint8_t *)out, len, chars, e) != 0) {
		out[0] = '\0';
		return -1;
	}
	int most = len ? most_marks((const uint8_t *)out, len) : 0;
	if (most < 0 || most > TEXT_MARKS_MAX) {
		out[0] = '\0';
		return rerr_set(e, "Höchstens %d Akzente oder andere Zeichen übereinander auf einem "
				   "Buchstaben.", TEXT_MARKS_MAX);
	}
	return 0;
}

int text_fold(const char *in, char *out, size_t cap)
{
	size_t n = strlen(in), len = cap;
	if (cap == 0 || u8_check((const uint8_t *)in, n) != NULL)
		return -1;
	uint8_t *r = u8_tolower((const uint8_t *)in, n, NULL, UNINORM_NFC, (uint8_t *)out, &len);
	return take(r, len, out, cap);
}

static USpoofChecker *spoof;

int text_init(void)
{
	UErrorCode st = U_ZERO_ERROR;
	if (spoof)
		return 0;
	spoof = uspoof_open(&st);
	if (U_FAILURE(st)) {
		fprintf(stderr, "text: ICU's spoof checker does not open: %s\n", u_errorName(st));
		spoof = NULL;
		return -1;
	}
	char probe[32];
	return text_skeleton("Probe", probe, sizeof probe);   /* loads the data now */
}

int text_skeleton(const char *in, char *out, size_t cap)
{
	uint8_t folded[4 * TEXT_KEY_MAX];
	size_t n = strlen(in), len = sizeof folded;
	if (cap == 0 || cap > INT32_MAX || u8_check((const uint8_t *)in, n) != NULL ||
	    (!spoof && text_init() != 0))
		return -1;
	uint8_t *r = u8_tolower((const uint8_t *)in, n, NULL, UNINORM_NFKC, folded, &len);
	if (!r)
		return -1;
	if (r != folded || len > INT32_MAX) {
		free(r);
		return -1;
	}
	UErrorCode st = U_ZERO_ERROR;
	int32_t got = uspoof_getSkeletonUTF8(spoof, 0, (const char *)folded, (int32_t)len, out,
					     (int32_t)cap, &st);
	if (U_FAILURE(st) || got < 0 || (size_t)got >= cap) {
		out[0] = '\0';
		return -1;
	}
	out[got] = '\0';
	return 0;
}
