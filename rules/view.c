/* view.c — the small helpers games use to emit their views, and rerr. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "game.h"

/* The length of the conversion that starts at f (f[0] == '%'), its type
 * letter in *conv and whether its width or precision is '*' (*stars). */
static size_t conv_len(const char *f, char *conv, int *stars)
{
	size_t i = 1;
	*stars = 0;
	while (f[i] && strchr("-+ #0'123456789.*hlLqjzt", f[i])) {
		if (f[i] == '*')
			(*stars)++;
		i++;
	}
	*conv = f[i];
	return f[i] ? i + 1 : i;
}

/* One argument of a conversion, as the conversion formats it, into out. */
static int conv_one(char *out, size_t cap, const char *spec, char conv, va_list *ap)
{
	int l = strstr(spec, "ll") ? 2 : strchr(spec, 'l') || strchr(spec, 'z') ||
		strchr(spec, 'j') || strchr(spec, 't') ? 1 : 0;
	switch (conv) {
	case 'd': case 'i': case 'c':
		if (l == 2)
			return snprintf(out, cap, spec, va_arg(*ap, long long));
		if (l == 1)
			return snprintf(out, cap, spec, va_arg(*ap, long));
		return snprintf(out, cap, spec, va_arg(*ap, int));
	case 'u': case 'x': case 'X': case 'o':
		if (l == 2)
			return snprintf(out, cap, spec, va_arg(*ap, unsigned long long));
		if (l == 1)
			return snprintf(out, cap, spec, va_arg(*ap, unsigned long));
		return snprintf(out, cap, spec, va_arg(*ap, unsigned));
	case 'e': case 'f': case 'g': case 'E': case 'G':
		return snprintf(out, cap, spec, va_arg(*ap, double));
	case 's':
		return snprintf(out, cap, spec, va_arg(*ap, const char *));
	case 'p':
		return snprintf(out, cap, spec, va_arg(*ap, void *));
	default:
		return snprintf(out, cap, "%s", "");
	}
}

/* The decimal digits of v (negative: with its sign) ending at e. */
static char *digits(char *e, unsigned long long u, int negative)
{
	do
		*--e = (char)('0' + u % 10);
	while (u /= 10);
	if (negative)
		*--e = '-';
	return e;
}

/* s[0..n) written at out[o..] as far as out (cap bytes, the last kept for
 * the NUL) has room. */
static inline void put_span(char *out, size_t cap, size_t o, const char *s, size_t n)
{
	if (o + 1 < cap)
		memcpy(out + o, s, n < cap - 1 - o ? n : cap - 1 - o);
}

/* vsnprintf(out, cap, fmt, ap), the same text and cut, but the plain
 * conversions (%d %i %u with l or ll, %zu, %s, %c, %%, without flags,
 * width or precision) written here, in the one pass over fmt; at any other
 * conversion the whole text is vsnprintf's after all: glibc's vsnprintf is
 * costly a call, and a table page formats dozens of texts (arena_printf
 * formats with it too; docs/benchmarks.md, "Figures from the code's
 * comments"). */
int view_vformat(char *out, size_t cap, const char *fmt, va_list ap)
{
	va_list again;   /* for vsnprintf, at the first conversion not plain */
	va_copy(again, ap);
	size_t o = 0;
#define PUT(ch) do { if (o + 1 < cap) out[o] = (ch); o++; } while (0)
	for (const char *f = fmt; *f; f++) {
		if (*f != '%') {   /* the text up to the next '%' in one copy */
			const char *pc = strchr(f, '%');
			size_t span = pc ? (size_t)(pc - f) : strlen(f);
			put_span(out, cap, o, f, span);
			o += span;
			f += span - 1;
			continue;
		}
		char num[24], *e = num + sizeof num, *p;
		f++;
		if (*f == '%') {
			PUT('%');
			continue;
		}
		if (*f == 's') {
			const char *a = va_arg(ap, char *);
			a = a ? a : "(null)";
			size_t al = strlen(a);
			put_span(out, cap, o, a, al);
			o += al;
			continue;
		}
		if (*f == 'c') {
			PUT((char)va_arg(ap, int));
			continue;
		}
		if (f[0] == 'z' && f[1] == 'u') {
			f++;
			p = digits(e, va_arg(ap, size_t), 0);
		} else {
			int l = f[0] == 'l' ? (f[1] == 'l' ? 2 : 1) : 0;
			f += l;
			if (*f == 'u') {
				p = digits(e, l == 2 ? va_arg(ap, unsigned long long) :
					   l == 1 ? va_arg(ap, unsigned long) : va_arg(ap, unsigned), 0);
			} else if (*f == 'd' || *f == 'i') {
				long long v = l == 2 ? va_arg(ap, long long) :
					      l == 1 ? va_arg(ap, long) : va_arg(ap, int);
				p = digits(e, v < 0 ? 0ULL - (unsigned long long)v :
						      (unsigned long long)v, v < 0);
			} else {   /* flags, a width, another conversion: vsnprintf's */
				int r = vsnprintf(out, cap, fmt, again);
				va_end(again);
				return r;
			}
		}
		for (; p < e; p++)
			PUT(*p);
	}
#undef PUT
	va_end(again);
	if (cap)
		out[o < cap ? o : cap - 1] = '\0';
	return o > (size_t)INT_MAX ? -1 : (int)o;
}

/* Formats fmt into out and each of its arguments, formatted alone, into
 * args (NUL after each); the number of arguments. A '*' width is not
 * supported (the formats in the catalogs do without). */
static int fmt_capture(char *out, size_t cap, char *args, size_t acap, const char *fmt,
		       va_list ap)
{
	va_list copy;
	va_copy(copy, ap);
	view_vformat(out, cap, fmt, copy);
	va_end(copy);
	int n = 0;
	size_t used = 0;
	args[0] = '\0';
	va_list each;
	va_copy(each, ap);
	for (const char *f = strchr(fmt, '%'); f; f = strchr(f, '%')) {
		char conv, spec[24];
		int stars;
		size_t len = conv_len(f, &conv, &stars);
		if (conv == '%' || !conv || stars || len >= sizeof spec) {
			f += len ? len : 1;
			continue;
		}
		memcpy(spec, f, len);
		spec[len] = '\0';
		int w = conv_one(args + used, acap - used, spec, conv, &each);
		if (w < 0 || (size_t)w + 1 >= acap - used) {
			args[used] = '\0';
			used = acap - 1;
		} else {
			used += (size_t)w + 1;
		}
		n++;
		f += len;
	}
	va_end(each);
	return n;
}

int view_format(char *out, size_t cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = view_vformat(out, cap, fmt, ap);
	va_end(ap);
	return n;
}

int rerr_set(struct rerr *e, const char *fmt, ...)
{
	if (e) {
		va_list ap;
		va_start(ap, fmt);
		e->fmt = fmt;
		e->nargs = fmt_capture(e->msg, sizeof e->msg, e->args, sizeof e->args, fmt, ap);
		va_end(ap);
	}
	return -1;
}

void vstrf(struct view_sink *v, const char *key, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	va_start(ap, fmt);
	view_vformat(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	v->str(v->ctx, key, tmp);
}

void vtextv(struct view_sink *v, const char *key, const char *fmt, va_list ap)
{
	char tmp[512], args[512];
	if (v->text) {
		int n = fmt_capture(tmp, sizeof tmp, args, sizeof args, fmt, ap);
		v->text(v->ctx, key, fmt, args, n, tmp);
	} else {   /* German as it is: no arguments to keep */
		view_vformat(tmp, sizeof tmp, fmt, ap);
		v->str(v->ctx, key, tmp);
	}
}

void vtextf(struct view_sink *v, const char *key, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vtextv(v, key, fmt, ap);
	va_end(ap);
}
