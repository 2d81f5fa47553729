/*
 * numfmt.h — numbers as the reader's language writes them (ICU): a decimal
 * comma in German, a decimal point in English, the minus sign U+2212 in
 * both (never the hyphen-minus "-"). For every number a page shows as
 * text; values a script or a form reads stay plain.
 */
#ifndef SPIELTISCH_NUMFMT_H
#define SPIELTISCH_NUMFMT_H

#include <stddef.h>

#include "i18n.h"

/* x with exactly `digits` decimals (0..6) in language l into out (cap
 * bytes): "−2,8" (de), "−2.8" (en), "1.234" (de) / "1,234" (en). Returns
 * out; on an ICU failure the C locale's text with U+2212. */
char *numfmt_decimal(enum lang l, double x, int digits, char *out, size_t cap);
/* The same for an integer: "−3". */
char *numfmt_int(enum lang l, long long n, char *out, size_t cap);
/* A doubled whole number x2 as x2 / 2: "12" when even, else with one
 * decimal, "12,5" (de) / "12.5" (en), "−0,5"; as numfmt_decimal writes it. */
char *numfmt_halves(enum lang l, long long x2, char *out, size_t cap);

#endif
