/* dice.c — a player's set of dice; see dice.h. */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "dice.h"
#include "ser.h"

void dice_init(struct dice *d, int n, int faces)
{
	assert(n >= 1 && n <= DICE_MAX && faces >= 2 && faces <= DICE_FACES_MAX);
	memset(d, 0, sizeof *d);
	d->n = (uint8_t)n;
	d->faces = (uint8_t)faces;
}

void dice_reset(struct dice *d)
{
	dice_init(d, d->n, d->faces);
}

void dice_gather(struct dice *d)
{
	d->kept = 0;
	for (int i = 0; i < d->n; i++)
		if (!((d->out >> i) & 1u))
			d->face[i] = 0;
}

unsigned dice_free(const struct dice *d)
{
	return ((1u << d->n) - 1) & ~(unsigned)d->kept & ~(unsigned)d->out;
}

unsigned dice_home(const struct dice *d)
{
	return ((1u << d->n) - 1) & ~(unsigned)d->out;
}

void dice_keep(struct dice *d, unsigned mask)
{
	assert((mask & ~dice_free(d)) == 0);
	for (int i = 0; i < d->n; i++)
		assert(!((mask >> i) & 1u) || d->face[i] > 0);
	d->kept = (uint8_t)(d->kept | mask);
}

void dice_away(struct dice *d, unsigned mask)
{
	assert((mask & ~dice_home(d)) == 0);
	d->kept = (uint8_t)(d->kept & ~mask);
	d->out = (uint8_t)(d->out | mask);
}

void dice_back(struct dice *d, unsigned mask)
{
	assert((mask & ~(unsigned)d->out) == 0);
	d->out = (uint8_t)(d->out & ~mask);
	for (int i = 0; i < d->n; i++)
		if ((mask >> i) & 1u)
			d->face[i] = 0;
}

unsigned dice_roll(struct dice *d, struct rng *r)
{
	unsigned m = dice_free(d);
	for (int i = 0; i < d->n; i++)
		if ((m >> i) & 1u)
			d->face[i] = (uint8_t)rng_die(r, d->faces);
	return m;
}

int dice_count(const struct dice *d, unsigned mask, int face)
{
	int c = 0;
	for (int i = 0; i < d->n; i++)
		c += ((mask >> i) & 1u) && d->face[i] == face;
	return c;
}

int dice_pick(const struct dice *d, unsigned from, const int *want, int n, unsigned *got)
{
	unsigned m = 0;
	for (int k = 0; k < n; k++) {
		int i = 0;
		while (i < d->n && (!((from >> i) & 1u) || ((m >> i) & 1u) || d->face[i] != want[k]))
			i++;
		if (i == d->n)
			return -1;
		m |= 1u << i;
	}
	*got = m;
	return 0;
}

const char *dice_text(const struct dice *d, unsigned mask, char *out, size_t cap)
{
	size_t len = 0;
	assert(cap > 0);
	out[0] = '\0';
	for (int i = 0; i < d->n; i++) {
		if (!((mask >> i) & 1u))
			continue;
		int w = view_format(out + len, cap - len, "%s%d", len ? " " : "", d->face[i]);
		if (w < 0 || (size_t)w >= cap - len)
			break;
		len += (size_t)w;
	}
	return out;
}

void dice_view(const struct dice *d, const char *section, struct view_sink *v)
{
	for (int i = 0; i < d->n; i++) {
		vbegin(v, section);
		vnum(v, "index", i);
		vnum(v, "face", d->face[i]);
		vflag(v, "rolled", d->face[i] > 0);
		vflag(v, "unrolled", d->face[i] == 0);
		vflag(v, "kept", (d->kept >> i) & 1u);
		vflag(v, "out", (d->out >> i) & 1u);
		vend(v);
	}
}

void dice_encode(struct buf *b, const struct dice *d)
{
	ser_u8(b, d->n);
	ser_u8(b, d->faces);
	for (int i = 0; i < d->n; i++)
		ser_u8(b, d->face[i]);
	ser_u8(b, d->kept);
	ser_u8(b, d->out);
}

int dice_decode(struct de *de, struct dice *d)
{
	memset(d, 0, sizeof *d);
	unsigned n = de_u8(de), faces = de_u8(de);
	if (n < 1 || n > DICE_MAX || faces < 2 || faces > DICE_FACES_MAX)
		return -1;
	d->n = (uint8_t)n;
	d->faces = (uint8_t)faces;
	for (unsigned i = 0; i < n; i++)
		d->face[i] = (uint8_t)de_u8(de);
	d->kept = (uint8_t)de_u8(de);
	d->out = (uint8_t)de_u8(de);
	return 0;
}

int dice_check(const struct dice *d, int n, int faces, struct rerr *e)
{
	if (d->n != n || d->faces != faces)
		return rerr_set(e, "%d Würfel mit %d Seiten statt %d mit %d", d->n, d->faces, n, faces);
	unsigned all = (1u << n) - 1;
	if ((d->kept & ~all) || (d->out & ~all) || (d->kept & d->out))
		return rerr_set(e, "Würfel: gehalten %#x, weg %#x", d->kept, d->out);
	for (int i = 0; i < DICE_MAX; i++) {
		int f = d->face[i];
		if (i >= n ? f != 0 : f > faces || (f == 0 && (((d->kept | d->out) >> i) & 1u)))
			return rerr_set(e, "Würfel %d zeigt %d", i + 1, f);
	}
	return 0;
}
