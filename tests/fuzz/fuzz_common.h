/*
 * fuzz_common.h — what the game fuzz targets share: one state buffer per
 * registered game (exactly state_size bytes, so ASan sees any overrun), a
 * view sink that checks the tree a view emits is well formed, and a failure
 * report that names the game before aborting.
 */
#ifndef SPIELTISCH_FUZZ_COMMON_H
#define SPIELTISCH_FUZZ_COMMON_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"

/* A fuzz input names its game by a fixed number (byte mod FZ_GAME_SLOTS),
 * not by its place in the registry: a newly registered game takes the next
 * free number here, and the checked-in corpora keep meaning the same games. */
enum { FZ_GAME_SLOTS = 16 };
static const char *const fz_game_numbers[FZ_GAME_SLOTS] = {
	"drehwurm", "dna", "worstgame", "drachenrummy", "wurfwort",
};

/* The registry index of game number (b mod FZ_GAME_SLOTS), or -1 when
 * that number names no registered game (the caller skips the input). */
static inline int fz_game_index(unsigned b)
{
	const char *slug = fz_game_numbers[b % FZ_GAME_SLOTS];
	for (int i = 0; slug && i < ngames; i++)
		if (strcmp(games[i]->slug, slug) == 0)
			return i;
	return -1;
}

/* Prints why the run failed and aborts, so libFuzzer saves the input. */
static inline void fz_fail(const struct game *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
static inline void fz_fail(const struct game *g, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "FUZZ FAILURE [%s]: ", g ? g->slug : "-");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/* State buffer `which` (0..3) of game index gi, allocated once with
 * exactly state_size bytes and filled with `fill` before it is handed out. */
static inline void *fz_state(int gi, int which, int fill)
{
	static void *bufs[64][4];
	if (gi < 0 || gi >= 64 || which < 0 || which > 3)
		abort();
	if (!bufs[gi][which]) {
		bufs[gi][which] = malloc(games[gi]->state_size);
		if (!bufs[gi][which])
			abort();
	}
	memset(bufs[gi][which], fill, games[gi]->state_size);
	return bufs[gi][which];
}

/* 1 when p[0..n) is well-formed UTF-8 (RFC 3629). */
static inline int fz_utf8_ok(const unsigned char *p, size_t n)
{
	size_t i = 0;
	while (i < n) {
		unsigned c = p[i];
		if (c < 0x80) {
			i++;
			continue;
		}
		size_t len;
		unsigned lo = 0x80, hi = 0xbf;
		if (c >= 0xc2 && c <= 0xdf)
			len = 2;
		else if (c >= 0xe0 && c <= 0xef) {
			len = 3;
			lo = c == 0xe0 ? 0xa0 : 0x80;
			hi = c == 0xed ? 0x9f : 0xbf;
		} else if (c >= 0xf0 && c <= 0xf4) {
			len = 4;
			lo = c == 0xf0 ? 0x90 : 0x80;
			hi = c == 0xf4 ? 0x8f : 0xbf;
		} else
			return 0;
		if (n - i < len || p[i + 1] < lo || p[i + 1] > hi)
			return 0;
		for (size_t k = 2; k < len; k++)
			if (p[i + k] < 0x80 || p[i + k] > 0xbf)
				return 0;
		i += len;
	}
	return 1;
}

/* A view sink that checks, for every call, what the renderers rely on:
 * keys are non-empty [a-z0-9_], strings valid UTF-8, sections balanced. */
struct fz_vcheck {
	const struct game *g;
	int depth, items;
};

/* Checks one key of the view tree and counts the items. */
static inline void fz_vkey(struct fz_vcheck *c, const char *key)
{
	if (!key || !*key)
		fz_fail(c->g, "view emitted an empty key");
	for (const char *k = key; *k; k++)
		if (!((*k >= 'a' && *k <= 'z') || (*k >= '0' && *k <= '9') || *k == '_'))
			fz_fail(c->g, "view key '%s' is not [a-z0-9_]", key);
	if (++c->items > 200000)
		fz_fail(c->g, "view emitted more than 200000 items");
}

/* view_sink.str: a checked key and a value that must be valid UTF-8. */
static inline void fz_vstr(void *ctx, const char *key, const char *val)
{
	struct fz_vcheck *c = ctx;
	fz_vkey(c, key);
	if (!val || !fz_utf8_ok((const unsigned char *)val, strlen(val)))
		fz_fail(c->g, "view value of '%s' is not valid UTF-8", key);
}

/* view_sink.num: a checked key. */
static inline void fz_vnum(void *ctx, const char *key, long long val)
{
	(void)val;
	fz_vkey(ctx, key);
}

/* view_sink.flag: a checked key. */
static inline void fz_vflag(void *ctx, const char *key, int on)
{
	(void)on;
	fz_vkey(ctx, key);
}

/* view_sink.begin: a checked section name, nesting at most 16 deep. */
static inline void fz_vbegin(void *ctx, const char *section)
{
	struct fz_vcheck *c = ctx;
	fz_vkey(c, section);
	if (++c->depth > 16)
		fz_fail(c->g, "view sections nested deeper than 16");
}

/* view_sink.end: never closes more sections than were opened. */
static inline void fz_vend(void *ctx)
{
	struct fz_vcheck *c = ctx;
	if (--c->depth < 0)
		fz_fail(c->g, "view closed a section it never opened");
}

/* Renders view(seat) into the checking sink; fails on anything malformed. */
static inline void fz_view_ok(const struct game *g, const void *st, int seat)
{
	struct fz_vcheck c = { g, 0, 0 };
	struct view_sink v = { fz_vstr, fz_vnum, fz_vflag, fz_vbegin, fz_vend, &c, NULL, 0, NULL };
	g->view(st, seat, &v);
	if (c.depth != 0)
		fz_fail(g, "view(seat %d) left %d section(s) open", seat, c.depth);
}

/* moves() callback that checks each emitted move is a sane line of text. */
static inline void fz_move_ok(void *ctx, const char *move)
{
	const struct game *g = ctx;
	size_t n = move ? strnlen(move, GAME_MOVE_MAX + 1) : 0;
	if (n == 0 || n > GAME_MOVE_MAX || !fz_utf8_ok((const unsigned char *)move, n))
		fz_fail(g, "moves() emitted an empty, overlong or non-UTF-8 move");
}

#endif
