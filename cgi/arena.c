/* arena.c — bump allocation in blocks; see arena.h. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "game.h"   /* view_vformat */

enum { ARENA_BLOCK = 64 * 1024 };

struct arena_block {
	struct arena_block *next;
	size_t cap;
	_Alignas(16) unsigned char data[];
};

void arena_init(struct arena *a, size_t limit)
{
	a->head = NULL;
	a->next = a->end = NULL;
	a->total = 0;
	a->limit = limit;
}

/* n bytes (rounded up for alignment) from the newest block, or a new one;
 * not zeroed. The inline arena_alloc_raw comes here when the newest block
 * has no room (or for n = 0, or over the limit, which fails here). */
void *arena_take(struct arena *a, size_t n)
{
	if (n == 0)
		n = 1;
	if (n > SIZE_MAX / 2)
		return NULL;
	n = (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	if (a->limit && a->total + n > a->limit)
		return NULL;
	if (!a->head || (size_t)(a->end - a->next) < n) {
		size_t cap = n > ARENA_BLOCK ? n : ARENA_BLOCK;
		struct arena_block *b = malloc(sizeof *b + cap);
		if (!b)
			return NULL;
		b->cap = cap;
		b->next = a->head;
		a->head = b;
		a->next = b->data;
		a->end = b->data + cap;
	}
	void *p = a->next;
	a->next += n;
	a->total += n;
	return p;
}

void *arena_alloc(struct arena *a, size_t n)
{
	void *p = arena_alloc_raw(a, n);
	if (p)
		memset(p, 0, n ? n : 1);
	return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc_raw(a, n + 1);
	if (!p)
		return NULL;
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

/* Formats straight into the newest block's free room when the text fits
 * there (once instead of once to measure and once to write), with
 * view_vformat: the plain conversions without vsnprintf. */
char *arena_printf(struct arena *a, const char *fmt, ...)
{
	va_list ap;
	size_t room = (size_t)(a->end - a->next);
	if (room > 0) {
		char *at = (char *)a->next;
		va_start(ap, fmt);
		int n = view_vformat(at, room, fmt, ap);
		va_end(ap);
		if (n < 0)
			return NULL;
		size_t need = ((size_t)n + 1 + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
		if (need <= room)   /* arena_alloc_raw hands out that very place */
			return arena_alloc_raw(a, (size_t)n + 1);
	}
	va_start(ap, fmt);
	int n = view_vformat(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	char *p = arena_alloc_raw(a, (size_t)n + 1);
	if (!p)
		return NULL;
	va_start(ap, fmt);
	view_vformat(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void arena_reset(struct arena *a)
{
	struct arena_block *b = a->head;
	if (!b)
		return;
	/* Keep the oldest block (the first one allocated) if it is a normal one. */
	struct arena_block *keep = NULL;
	while (b) {
		struct arena_block *next = b->next;
		if (!next && b->cap == ARENA_BLOCK)
			keep = b;
		else
			free(b);
		b = next;
	}
	if (keep)
		keep->next = NULL;
	a->head = keep;
	a->next = keep ? keep->data : NULL;
	a->end = keep ? keep->data + keep->cap : NULL;
	a->total = 0;
}

void arena_free(struct arena *a)
{
	struct arena_block *b = a->head;
	while (b) {
		struct arena_block *next = b->next;
		free(b);
		b = next;
	}
	a->head = NULL;
	a->next = a->end = NULL;
	a->total = 0;
}
