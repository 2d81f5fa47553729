/* view.c — the small helpers games use to emit their views, and rerr. */
#include <stdarg.h>
#include <stdio.h>

#include "game.h"

int rerr_set(struct rerr *e, const char *fmt, ...)
{
	if (e) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(e->msg, sizeof e->msg, fmt, ap);
		va_end(ap);
	}
	return -1;
}

void vstr(struct view_sink *v, const char *key, const char *val)
{
	v->str(v->ctx, key, val ? val : "");
}

void vstrf(struct view_sink *v, const char *key, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	v->str(v->ctx, key, tmp);
}

void vnum(struct view_sink *v, const char *key, long long val)
{
	v->num(v->ctx, key, val);
}

void vflag(struct view_sink *v, const char *key, int on)
{
	v->flag(v->ctx, key, on);
}

void vbegin(struct view_sink *v, const char *section)
{
	v->begin(v->ctx, section);
}

void vend(struct view_sink *v)
{
	v->end(v->ctx);
}
