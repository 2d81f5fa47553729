/* bytes8.h — eight bytes of a per-card array at a time. The games keep, for
 * every card, a byte of where it lies and a byte of whose it is; finding a
 * seat's hand or the cards at a place is asked for every list of moves and
 * every status, so they are scanned a 64-bit word (eight cards) at a time:
 * load eight bytes, mark the bytes that match, take the marked cards from
 * the lowest. */
#ifndef SPIELTISCH_BYTES8_H
#define SPIELTISCH_BYTES8_H

#include <stdint.h>
#include <string.h>

/* Byte value v in each of the eight bytes of a word. */
#define BYTES8(v) (UINT64_C(0x0101010101010101) * (uint64_t)(v))

/* Eight bytes from p as a number, byte i in bits 8i..8i+7 whatever the
 * machine's byte order. */
static inline uint64_t bytes8_load(const uint8_t *p)
{
	uint64_t w;
	memcpy(&w, p, sizeof w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

/* 0x80 in every byte of w that is zero, nothing elsewhere. */
static inline uint64_t bytes8_zero(uint64_t w)
{
	return ~(((w & BYTES8(0x7f)) + BYTES8(0x7f)) | w | BYTES8(0x7f));
}

/* The index (0..7) of the lowest byte of m with a bit set; m is not 0. */
static inline int bytes8_first(uint64_t m)
{
	return __builtin_ctzll(m) >> 3;
}

#endif
