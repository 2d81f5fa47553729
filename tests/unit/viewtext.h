/* viewtext.h — a view as text, for the unit tests: every value on a line
 * of its own ("key=value", flags "key?1"), sections as "[name" … "]", so a
 * test can look for what a seat is shown with strstr(). */
#ifndef SPIELTISCH_VIEWTEXT_H
#define SPIELTISCH_VIEWTEXT_H

#include <stdarg.h>
#include <stdio.h>

#include "game.h"

struct vtext {
	char s[65536];
	size_t len;
};

static void vt_put(struct vtext *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void vt_put(struct vtext *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int w = vsnprintf(t->s + t->len, sizeof t->s - t->len, fmt, ap);
	va_end(ap);
	assert_true(w >= 0 && (size_t)w < sizeof t->s - t->len);
	t->len += (size_t)w;
}

static void vt_str(void *c, const char *k, const char *v) { vt_put(c, "%s=%s\n", k, v); }
static void vt_num(void *c, const char *k, long long v) { vt_put(c, "%s=%lld\n", k, v); }
static void vt_flag(void *c, const char *k, int on) { vt_put(c, "%s?%d\n", k, on); }
static void vt_begin(void *c, const char *sec) { vt_put(c, "[%s\n", sec); }
static void vt_end(void *c) { vt_put(c, "]\n"); }

/* A sink that writes into t, emptied first. */
static inline struct view_sink vt_sink(struct vtext *t)
{
	t->len = 0;
	t->s[0] = '\0';
	return (struct view_sink){ vt_str, vt_num, vt_flag, vt_begin, vt_end, t, NULL, 0, NULL };
}

#endif
