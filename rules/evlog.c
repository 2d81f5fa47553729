/* evlog.c — the public event log; see evlog.h. */
#include <assert.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "evlog.h"
#include "ser.h"

struct game_event *evlog_push(struct evlog *l, int cap, int type, int seat)
{
	assert(cap > 0 && cap <= EVLOG_MAX && l->n <= cap);
	if (l->n == cap) {
		memmove(l->ev, l->ev + 1, sizeof l->ev[0] * (size_t)(cap - 1));
		l->n--;
	}
	struct game_event *e = &l->ev[l->n++];
	memset(e, 0, sizeof *e);
	e->type = (uint8_t)type;
	e->seat = (uint8_t)(seat < 0 ? EVENT_NOBODY : seat);
	e->card = EVENT_NO_CARD;
	return e;
}

void evlog_encode(struct buf *b, const struct evlog *l, int lists)
{
	ser_u8(b, l->n);
	for (int i = 0; i < l->n; i++) {
		const struct game_event *e = &l->ev[i];
		ser_u8(b, e->type);
		ser_u8(b, e->seat);
		ser_u8(b, e->where);
		ser_u8(b, e->arg);
		ser_u16(b, e->card);
		ser_u16(b, e->num);
		if (!lists)
			continue;
		ser_u8(b, e->n);
		for (int k = 0; k < e->n && k < EVENT_LIST_MAX; k++)
			ser_u8(b, e->list[k]);
	}
}

int evlog_decode(struct de *d, struct evlog *l, int cap, int lists)
{
	assert(cap > 0 && cap <= EVLOG_MAX);
	memset(l, 0, sizeof *l);
	unsigned n = de_u8(d);
	if (n > (unsigned)cap)
		return -1;
	l->n = (uint8_t)n;
	for (unsigned i = 0; i < n; i++) {
		struct game_event *e = &l->ev[i];
		e->type = (uint8_t)de_u8(d);
		e->seat = (uint8_t)de_u8(d);
		e->where = (uint8_t)de_u8(d);
		e->arg = (uint8_t)de_u8(d);
		e->card = (uint16_t)de_u16(d);
		e->num = (uint16_t)de_u16(d);
		if (!lists)
			continue;
		e->n = (uint8_t)de_u8(d);
		if (e->n > EVENT_LIST_MAX)
			return -1;
		for (int k = 0; k < e->n; k++)
			e->list[k] = (uint8_t)de_u8(d);
	}
	return 0;
}

int evlog_check(const struct evlog *l, int cap, int types, int nseats, struct rerr *e)
{
	if (l->n > cap)
		return rerr_set(e, "Protokoll: %d Einträge, höchstens %d", l->n, cap);
	for (int i = 0; i < l->n; i++) {
		const struct game_event *ev = &l->ev[i];
		if (ev->type >= types || (ev->seat != EVENT_NOBODY && ev->seat >= nseats) ||
		    ev->n > EVENT_LIST_MAX)
			return rerr_set(e, "Protokolleintrag %d ungültig", i);
	}
	return 0;
}

void evlog_view_text(const struct evlog *l, struct view_sink *v,
		     void (*say)(const struct game_event *ev, struct view_sink *v, const char *key))
{
	for (int i = l->n - 1; i >= 0; i--) {   /* newest first */
		vbegin(v, "log");
		say(&l->ev[i], v, "text");
		vend(v);
	}
}

/* A log sentence's format split once a worker: its literal parts (their
 * text kept here, each padded for a copy 16 bytes at a time), each
 * followed by a conversion (%d or %s; 0 after the last part). A sentence
 * is then its parts copied and its arguments put between them, without
 * looking for the '%' again (view_vformat's search and copies were about
 * 400 instructions of a DNA log line's 1.3k). The memo is by the format's
 * address (a literal); which formats it holds depends only on the public
 * log's kinds of events. */
enum { SAY_PARTS = 12, SAY_TEXT = 224, SAY_MEMO = 128 };
struct say_format {
	const char *fmt;
	int nparts;   /* 0: not only %d and %s, or too long (view_vformat's) */
	struct {
		uint8_t off, len;
		char conv;
	} part[SAY_PARTS];
	char text[SAY_TEXT + 16];
};
static _Thread_local struct say_format say_memo[SAY_MEMO];

static void say_split(struct say_format *m, const char *fmt)
{
	m->fmt = fmt;
	m->nparts = 0;
	const char *from = fmt;
	size_t at = 0;
	for (int n = 0; n < SAY_PARTS; n++) {
		const char *pc = strchr(from, '%');
		size_t len = pc ? (size_t)(pc - from) : strlen(from);
		if (at + len > SAY_TEXT || (pc && pc[1] != 'd' && pc[1] != 's'))
			return;
		memcpy(m->text + at, from, len);
		m->part[n].off = (uint8_t)at;
		m->part[n].len = (uint8_t)len;
		m->part[n].conv = pc ? pc[1] : 0;
		at += len;
		if (!pc) {
			m->nparts = n + 1;
			return;
		}
		from = pc + 2;
	}
}

/* s[0..n) at q, as 16-byte copies: q and s have room for n rounded up. */
static inline void copy16(char *q, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i += 16)
		memcpy(q + i, s + i, 16);
}

/* The sentence of split format m into out[0..cap); its length, or -1 when
 * it would not fit (nothing is cut here: view_vformat does that). */
static int say_put(char *out, size_t cap, const struct say_format *m, va_list ap)
{
	size_t o = 0;
	for (int i = 0; i < m->nparts; i++) {
		size_t len = m->part[i].len;
		if (o + len + 16 >= cap)
			return -1;
		copy16(out + o, m->text + m->part[i].off, len);
		o += len;
		if (m->part[i].conv == 's') {
			const char *a = va_arg(ap, const char *);
			a = a ? a : "(null)";
			len = strlen(a);
			if (o + len >= cap)
				return -1;
			memcpy(out + o, a, len);
		} else if (m->part[i].conv == 'd') {
			char num[32], *e = num + 16, *p = e;   /* 16 bytes from p */
			int x = va_arg(ap, int);
			unsigned u = x < 0 ? 0U - (unsigned)x : (unsigned)x;
			do
				*--p = (char)('0' + u % 10);
			while (u /= 10);
			if (x < 0)
				*--p = '-';
			len = (size_t)(e - p);
			if (o + 16 >= cap)
				return -1;
			memcpy(out + o, p, 16);
		} else {
			continue;
		}
		o += len;
	}
	out[o] = '\0';
	return (int)o;
}

void evlog_textf(struct view_sink *v, const char *key, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (v->text) {   /* the platform translates: it needs the arguments */
		vtextv(v, key, fmt, ap);
		va_end(ap);
		return;
	}
	uintptr_t a = (uintptr_t)fmt;
	struct say_format *m = &say_memo[(a * 0x9E3779B97F4A7C15ULL) >> 57];
	if (m->fmt != fmt)
		say_split(m, fmt);
	char tmp[512];
	va_list again;
	va_copy(again, ap);
	if (!m->nparts || say_put(tmp, sizeof tmp, m, ap) < 0)
		view_vformat(tmp, sizeof tmp, fmt, again);
	va_end(again);
	va_end(ap);
	v->str(v->ctx, key, tmp);
}

/* evlog_text's sink: keeps the one text written. */
struct text_buf {
	char *out;
	size_t cap;
};

static void text_keep(void *ctx, const char *key, const char *val)
{
	struct text_buf *t = ctx;
	(void)key;
	snprintf(t->out, t->cap, "%s", val);
}

void evlog_text(const struct game_event *ev,
		void (*say)(const struct game_event *ev, struct view_sink *v, const char *key),
		char *out, size_t cap)
{
	struct text_buf t = { out, cap };
	struct view_sink v = { .str = text_keep, .ctx = &t };
	if (cap == 0)
		return;
	out[0] = '\0';
	say(ev, &v, "text");
}
