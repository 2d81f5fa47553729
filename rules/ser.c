/* ser.c — snapshot encoding and loading; see ser.h. */
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "ser.h"

static void put(struct buf *b, const unsigned char *p, size_t n)
{
	if (b->overflow || b->cap - b->len < n) {
		b->overflow = 1;
		return;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void put_le(struct buf *b, uint64_t v, int bytes)
{
	unsigned char t[8];
	for (int i = 0; i < bytes; i++)
		t[i] = (unsigned char)(v >> (8 * i));
	put(b, t, (size_t)bytes);
}

void ser_u8(struct buf *b, unsigned v) { put_le(b, v & 0xff, 1); }
void ser_u16(struct buf *b, unsigned v) { put_le(b, v & 0xffff, 2); }
void ser_u32(struct buf *b, uint32_t v) { put_le(b, v, 4); }
void ser_u64(struct buf *b, uint64_t v) { put_le(b, v, 8); }
void ser_i64(struct buf *b, int64_t v) { put_le(b, (uint64_t)v, 8); }

void ser_u16s(struct buf *b, const uint16_t *a, int n)
{
	ser_u16(b, (unsigned)n);
	for (int i = 0; i < n; i++)
		ser_u16(b, a[i]);
}

static uint64_t get_le(struct de *d, int bytes)
{
	if (d->err || d->len - d->off < (size_t)bytes) {
		d->err = 1;
		return 0;
	}
	uint64_t v = 0;
	for (int i = 0; i < bytes; i++)
		v |= (uint64_t)d->p[d->off + (size_t)i] << (8 * i);
	d->off += (size_t)bytes;
	return v;
}

unsigned de_u8(struct de *d) { return (unsigned)get_le(d, 1); }
unsigned de_u16(struct de *d) { return (unsigned)get_le(d, 2); }
uint32_t de_u32(struct de *d) { return (uint32_t)get_le(d, 4); }
uint64_t de_u64(struct de *d) { return get_le(d, 8); }
int64_t de_i64(struct de *d) { return (int64_t)get_le(d, 8); }

int de_u16s(struct de *d, uint16_t *a, int cap)
{
	unsigned n = de_u16(d);
	if (d->err || n > (unsigned)cap) {
		d->err = 1;
		return 0;
	}
	for (unsigned i = 0; i < n; i++)
		a[i] = (uint16_t)de_u16(d);
	return d->err ? 0 : (int)n;
}

uint32_t crc32_bytes(const unsigned char *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
	}
	return ~c;
}

static const unsigned char magic[4] = { 'S', 'T', 'S', '1' };

size_t snap_begin(struct buf *b, const char *slug, unsigned format)
{
	size_t start = b->len;
	size_t sl = strlen(slug);
	put(b, magic, sizeof magic);
	ser_u8(b, (unsigned)sl);
	put(b, (const unsigned char *)slug, sl);
	ser_u32(b, 0); /* payload length, filled in by snap_end */
	ser_u8(b, format);
	return start;
}

int snap_end(struct buf *b, size_t start)
{
	if (b->overflow)
		return -1;
	size_t hdr = start + sizeof magic + 1 + b->p[start + sizeof magic];
	size_t payload = b->len - (hdr + 4);
	for (int i = 0; i < 4; i++)
		b->p[hdr + (size_t)i] = (unsigned char)(payload >> (8 * i));
	ser_u32(b, crc32_bytes(b->p + start, b->len - start));
	return b->overflow ? -1 : 0;
}

int snap_open(struct de *d, const char *slug, const unsigned char *p, size_t n,
	      struct rerr *e)
{
	size_t sl = strlen(slug);
	size_t hdr = sizeof magic + 1 + sl + 4;
	if (!p || n < hdr + 4 || memcmp(p, magic, sizeof magic) != 0)
		return rerr_set(e, "Spielstand beschädigt: kein gültiger Kopf");
	if (p[sizeof magic] != sl || memcmp(p + sizeof magic + 1, slug, sl) != 0)
		return rerr_set(e, "Spielstand gehört zu einem anderen Spiel");
	uint32_t crc = (uint32_t)p[n - 4] | (uint32_t)p[n - 3] << 8 |
		       (uint32_t)p[n - 2] << 16 | (uint32_t)p[n - 1] << 24;
	if (crc != crc32_bytes(p, n - 4))
		return rerr_set(e, "Spielstand beschädigt: Prüfsumme falsch");
	const unsigned char *lp = p + hdr - 4;
	size_t payload = (size_t)lp[0] | (size_t)lp[1] << 8 | (size_t)lp[2] << 16 |
			 (size_t)lp[3] << 24;
	if (payload != n - hdr - 4)
		return rerr_set(e, "Spielstand beschädigt: Länge falsch");
	d->p = p + hdr;
	d->len = payload;
	d->off = 0;
	d->err = 0;
	d->format = de_u8(d);
	if (d->err)
		return rerr_set(e, "Spielstand beschädigt: keine Fassung");
	return 0;
}

int snap_close(const struct de *d, struct rerr *e)
{
	if (d->err)
		return rerr_set(e, "Spielstand beschädigt: zu kurz");
	if (d->off != d->len)
		return rerr_set(e, "Spielstand beschädigt: Daten übrig");
	return 0;
}

/* The payload in d decoded into scratch, read to its end, and checked. */
static int load_into(const struct game *g, void *scratch, struct de *d, struct rerr *e)
{
	struct rerr ce;
	if (g->decode(scratch, d, e) != 0)
		return SNAP_BAD;
	if (d->err) {
		rerr_set(e, "Spielstand beschädigt: zu kurz");
		return SNAP_BAD;
	}
	if (snap_close(d, e) != 0)
		return SNAP_BAD;
	if (g->check(scratch, &ce) != 0) {
		rerr_set(e, "Spielstand beschädigt: %s", ce.msg);
		return SNAP_BAD;
	}
	return SNAP_OK;
}

int game_load(const struct game *g, void *st, const unsigned char *p, size_t n,
	      struct rerr *e)
{
	struct de d;
	if (snap_open(&d, g->slug, p, n, e) != 0)
		return SNAP_BAD;
	if (d.format < g->snap_format_min || d.format > g->snap_format) {
		rerr_set(e, "Spielstand in Fassung %u, gelesen werden %u bis %u", d.format,
			 g->snap_format_min, g->snap_format);
		return SNAP_FORMAT;
	}
	void *scratch = malloc(g->state_size);
	if (!scratch) {
		rerr_set(e, "Spielstand: kein Speicher");
		return SNAP_BAD;
	}
	memset(scratch, 0, g->state_size);
	int rc = load_into(g, scratch, &d, e);
	if (rc == SNAP_OK)
		memcpy(st, scratch, g->state_size);
	free(scratch);
	return rc;
}

void ser_rng(struct buf *b, const struct rng *r)
{
	for (int i = 0; i < 4; i++)
		ser_u64(b, r->s[i]);
}

void de_rng(struct de *d, struct rng *r)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = de_u64(d);
}
