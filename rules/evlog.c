/* evlog.c — the public event log; see evlog.h. */
#include <assert.h>
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
