/* ser.h — snapshot encoding shared by every game.
 *
 * A snapshot is an envelope: "STS1", the game slug, a payload length, the
 * payload, and a CRC-32 of everything before it. The payload's first byte
 * is the game's snapshot format (game->snap_format). Games write the rest
 * field by field with ser_* and read it back with de_*; readers never run
 * past the end (they set err and return 0), and decode() must still range-
 * check every value. game_load() does the rest: envelope, format, decoding
 * into scratch, check(), copy.
 *
 * A snapshot is a cache of the party's setup and move log: a format this
 * build no longer reads is SNAP_FORMAT, and the platform rebuilds the state
 * by replaying the log (cgi/engine/load.c). */
#ifndef SPIELTISCH_SER_H
#define SPIELTISCH_SER_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"

void ser_u8(struct buf *b, unsigned v);
void ser_u16(struct buf *b, unsigned v);
void ser_u32(struct buf *b, uint32_t v);
void ser_u64(struct buf *b, uint64_t v);
void ser_i64(struct buf *b, int64_t v);
void ser_u16s(struct buf *b, const uint16_t *a, int n);   /* n (u16) then n values */
/* A game's generator (its four words), the same in every game's snapshot. */
struct rng;
void ser_rng(struct buf *b, const struct rng *r);

struct de {
	const unsigned char *p;
	size_t len, off;
	int err;
	unsigned format;   /* the payload's first byte, read by snap_open */
};

/* The next `bytes` bytes, little-endian; 0 and d->err once past the end.
 * Inline: a snapshot's decode reads hundreds of them (a DNA page's load
 * made 250 calls of de_u8 alone). */
static inline uint64_t de_le(struct de *d, int bytes)
{
	if (d->err || d->len - d->off < (size_t)bytes) {
		d->err = 1;
		return 0;
	}
	const unsigned char *q = d->p + d->off;
	uint64_t v = 0;
	for (int i = 0; i < bytes; i++)
		v |= (uint64_t)q[i] << (8 * i);
	d->off += (size_t)bytes;
	return v;
}
static inline unsigned de_u8(struct de *d) { return (unsigned)de_le(d, 1); }
static inline unsigned de_u16(struct de *d) { return (unsigned)de_le(d, 2); }
static inline uint32_t de_u32(struct de *d) { return (uint32_t)de_le(d, 4); }
static inline uint64_t de_u64(struct de *d) { return de_le(d, 8); }
static inline int64_t de_i64(struct de *d) { return (int64_t)de_le(d, 8); }
/* Reads a count and that many values; err when the count exceeds cap. */
int de_u16s(struct de *d, uint16_t *a, int cap);
void de_rng(struct de *d, struct rng *r);

/* Envelope. snap_begin writes the header and the format byte and returns
 * the offset to finish; snap_end fills in the length and appends the CRC.
 * 0 or -1 on overflow. */
size_t snap_begin(struct buf *b, const char *slug, unsigned format);
int snap_end(struct buf *b, size_t start);
/* Checks the envelope for `slug` and reads the format byte into d->format;
 * on success *d reads the rest of the payload. */
int snap_open(struct de *d, const char *slug, const unsigned char *p, size_t n,
	      struct rerr *e);
/* After reading the payload: 0 if it was consumed exactly and without error. */
int snap_close(const struct de *d, struct rerr *e);

uint32_t crc32_bytes(const unsigned char *p, size_t n);

/* What game_load() found. */
enum { SNAP_OK = 0, SNAP_BAD = -1, SNAP_FORMAT = -2 };

/* Loads snapshot p/n of game g into st (g->state_size bytes): envelope,
 * format byte within g->snap_format_min..g->snap_format, g->decode into
 * scratch, snap_close, g->check, then the copy. st is unchanged unless
 * SNAP_OK. SNAP_FORMAT: a well-formed snapshot in a format this build does
 * not read (rebuild it from the log); SNAP_BAD: anything else. e says why. */
int game_load(const struct game *g, void *st, const unsigned char *p, size_t n,
	      struct rerr *e);

/* game_load() decoding straight into st, without the scratch copy: st is
 * zeroed and decoded into once the envelope and format are good (the same
 * bytes as game_load() on SNAP_OK), and holds anything after SNAP_BAD; it is
 * unchanged after a SNAP_FORMAT or a bad envelope. For a caller that drops
 * st when the load fails (a page's read: zeroing and copying the scratch
 * was 7k instructions a page). */
int game_load_over(const struct game *g, void *st, const unsigned char *p, size_t n,
		   struct rerr *e);

#endif
