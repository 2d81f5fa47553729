/*
 * fuzz_movetext.c — libFuzzer target for the move reader (rules/movetext.c).
 *
 * Input: arbitrary bytes, read as one move text (up to the first NUL).
 * Promises checked on every input:
 *   - mt_split never reads or writes out of bounds (ASan) and either
 *     rejects with a message or yields 1..MT_MAX_WORDS words, each non-empty,
 *     shorter than MT_WORD_MAX, without blanks, control bytes or ASCII
 *     upper case;
 *   - splitting the words joined by one blank gives the same words again
 *     (the reader is idempotent, so a logged move replays as it was read);
 *   - whatever it accepts is valid UTF-8 by RFC 3629 (no overlong forms, no
 *     surrogates, nothing above U+10FFFF): move texts end up in JSON, and
 *     a JSON writer refuses anything else;
 *   - mt_int accepts exactly the canonical decimals in range: whatever it
 *     accepts prints back to the same word, and it agrees with a reference
 *     reading done here independently.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "movetext.h"

/* One fuzz input read as a move text; aborts on any broken promise. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The reference: canonical decimal (no sign, no leading zero but "0") in
 * min..max, computed without overflow. 0 with *out set, or -1. */
static int ref_int(const char *w, int min, int max, int *out)
{
	size_t n = strlen(w);
	if (n == 0 || n > 10 || (w[0] == '0' && n > 1))
		return -1;
	long long v = 0;
	for (size_t i = 0; i < n; i++) {
		if (w[i] < '0' || w[i] > '9')
			return -1;
		v = v * 10 + (w[i] - '0');
	}
	if (v < min || v > max)
		return -1;
	*out = (int)v;
	return 0;
}

/* Checks mt_int on one word against the reference for a few ranges. */
static void check_int(const char *w)
{
	static const int ranges[][2] = { { 0, 9 }, { 1, 6 }, { 0, 100 }, { 0, 2147483647 },
					 { 5, 5 }, { 10, 99 } };
	for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
		int a = -7, b = -7;
		int ra = mt_int(w, ranges[r][0], ranges[r][1], &a);
		int rb = ref_int(w, ranges[r][0], ranges[r][1], &b);
		if (ra != rb || (ra == 0 && a != b))
			abort();
		if (ra == 0) {
			char back[16];
			snprintf(back, sizeof back, "%d", a);
			if (strcmp(back, w) != 0)
				abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char move[GAME_MOVE_MAX * 2 + 2];
	size_t n = size < sizeof move - 1 ? size : sizeof move - 1;
	memcpy(move, data, n);
	move[n] = '\0';

	struct mtok t;
	struct rerr e;
	e.msg[0] = '\0';
	if (mt_split(move, &t, &e) != 0) {
		if (e.msg[0] == '\0')
			abort();                 /* a rejection always says why */
		if (strlen(move) > 0 && t.n > MT_MAX_WORDS)
			abort();
		check_int(move);
		return 0;
	}
	if (t.n < 1 || t.n > MT_MAX_WORDS)
		abort();
	if (!fz_utf8_ok((const unsigned char *)move, strlen(move)))
		abort();                         /* accepted a malformed sequence */
	char joined[MT_MAX_WORDS * MT_WORD_MAX + MT_MAX_WORDS + 1];
	size_t jl = 0;
	for (int i = 0; i < t.n; i++) {
		size_t wl = strnlen(t.w[i], MT_WORD_MAX);
		if (wl == 0 || wl >= MT_WORD_MAX)
			abort();
		for (size_t k = 0; k < wl; k++) {
			unsigned char c = (unsigned char)t.w[i][k];
			if (c <= 0x20 || c == 0x7f || (c >= 'A' && c <= 'Z'))
				abort();
		}
		if (!mt_is(&t, i, t.w[i]) || mt_is(&t, t.n, t.w[i]) || mt_is(&t, -1, t.w[i]))
			abort();
		check_int(t.w[i]);
		if (i)
			joined[jl++] = ' ';
		memcpy(joined + jl, t.w[i], wl);
		jl += wl;
	}
	joined[jl] = '\0';
	struct mtok again;
	if (jl <= GAME_MOVE_MAX) {
		if (mt_split(joined, &again, &e) != 0 || again.n != t.n)
			abort();
		for (int i = 0; i < t.n; i++)
			if (strcmp(again.w[i], t.w[i]) != 0)
				abort();
	}
	return 0;
}
