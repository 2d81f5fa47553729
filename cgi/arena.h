/* arena.h — per-request memory: everything a request allocates comes from
 * one arena and is released at once by arena_reset() when the response is
 * out, so nothing outlives a request in a FastCGI worker. */
#ifndef SPIELTISCH_ARENA_H
#define SPIELTISCH_ARENA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct arena_block;

struct arena {
	struct arena_block *head;   /* newest block first */
	unsigned char *next, *end;  /* the newest block's free room */
	size_t total;               /* bytes handed out since the last reset */
	size_t limit;               /* 0: none; else arena_alloc fails past it */
};

enum { ARENA_ALIGN = 16 };

/* arena_alloc_raw past the newest block's room, or over the limit. */
void *arena_take(struct arena *a, size_t n);

/* An empty arena; `limit` caps what one request may take (0: no cap). */
void arena_init(struct arena *a, size_t limit);
/* n zeroed bytes, aligned for any type, valid until the next reset;
 * NULL when out of memory or over the limit (the caller answers 500). */
void *arena_alloc(struct arena *a, size_t n);
/* The same, not zeroed: for a buffer the caller writes completely. Inline:
 * a page takes a thousand of them, and the call alone was a third of each. */
static inline void *arena_alloc_raw(struct arena *a, size_t n)
{
	size_t r = (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	if (n == 0 || r < n || r > (size_t)(a->end - a->next) ||
	    (a->limit && a->total + r > a->limit))
		return arena_take(a, n);
	void *p = a->next;
	a->next += r;
	a->total += r;
	return p;
}
/* Grows p, the newest allocation (old bytes, a multiple of ARENA_ALIGN),
 * to n bytes where it lies when its block has the room: 1, else 0 (then p
 * is as it was). For a buffer that grows, so that it is not copied. */
static inline int arena_grow_last(struct arena *a, void *p, size_t old, size_t n)
{
	size_t r = (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	unsigned char *top = (unsigned char *)p + old;
	if (top != a->next || r < n || r < old || r - old > (size_t)(a->end - a->next) ||
	    (a->limit && a->total + (r - old) > a->limit))
		return 0;
	a->next += r - old;
	a->total += r - old;
	return 1;
}
/* A NUL-terminated copy of s[0..n). */
char *arena_strndup(struct arena *a, const char *s, size_t n);
char *arena_strdup(struct arena *a, const char *s);
/* printf into the arena; NULL on failure. */
char *arena_printf(struct arena *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Frees every block but the first, which it keeps for the next request. */
void arena_reset(struct arena *a);
/* Frees everything. */
void arena_free(struct arena *a);

#ifdef __cplusplus
}
#endif

#endif
