/* prompt.c — who must or may act now; see prompt.h. */
#include <assert.h>
#include <string.h>

#include "match.h"
#include "prompt.h"
#include "ser.h"

struct prompt *prompt_push(struct prompts *ps, int kind, uint32_t seats)
{
	assert(ps->n < PROMPT_DEPTH && kind > 0 && kind < 256 && seats < (1u << GAME_MAX_SEATS));
	struct prompt *p = &ps->p[ps->n++];
	memset(p, 0, sizeof *p);
	p->kind = (uint8_t)kind;
	p->owner = -1;
	p->seats = p->waiting = (uint16_t)seats;
	return p;
}

void prompt_later(struct prompt *p, int seconds)
{
	assert(seconds >= 0 && seconds <= UINT16_MAX);
	p->flags |= PROMPT_LATER;
	p->seconds = (uint16_t)seconds;
	p->deadline = 0;
}

void prompt_pop(struct prompts *ps)
{
	assert(ps->n > 0);
	ps->n--;
	memset(&ps->p[ps->n], 0, sizeof ps->p[0]);
}

void prompt_clear(struct prompts *ps)
{
	memset(ps, 0, sizeof *ps);
}

struct prompt *prompt_find(struct prompts *ps, int kind)
{
	for (int i = ps->n - 1; i >= 0; i--)
		if (ps->p[i].kind == kind)
			return &ps->p[i];
	return NULL;
}

int prompt_owner(const struct prompts *ps, int kind)
{
	for (int i = ps->n - 1; i >= 0; i--)
		if (ps->p[i].kind == kind)
			return ps->p[i].owner;
	return -1;
}

int prompt_done(struct prompts *ps, int seat)
{
	struct prompt *p = prompt_top(ps);
	assert(p && seat >= 0 && seat < GAME_MAX_SEATS);
	p->waiting &= (uint16_t)~(1u << seat);
	return p->waiting == 0;
}

void prompt_drop_seat(struct prompts *ps, int seat)
{
	assert(seat >= 0 && seat < GAME_MAX_SEATS);
	for (int i = 0; i < ps->n; i++)
		ps->p[i].waiting &= (uint16_t)~(1u << seat);
}

int prompt_start(struct prompts *ps, int64_t now)
{
	struct prompt *p = prompt_top(ps);
	if (!p || !(p->flags & PROMPT_LATER))
		return 0;
	p->flags &= (uint8_t)~PROMPT_LATER;
	p->deadline = deadline_after(now, p->seconds);
	p->seconds = 0;
	return 1;
}

int prompt_tick(struct prompts *ps, int64_t now,
		void (*expire)(void *st, struct prompt *p, int64_t now), void *st)
{
	if (prompt_start(ps, now))
		return 1;
	struct prompt *p = prompt_top(ps);
	if (!p || !deadline_passed(p->deadline, now))
		return 0;
	p->deadline = 0;
	expire(st, p, now);
	return 1;
}

void prompt_status(const struct prompts *ps, struct status *out)
{
	const struct prompt *p = prompt_peek(ps);
	out->to_act = p ? p->waiting : 0;
	out->deadline = p ? p->deadline : 0;
	out->window = p && (p->flags & PROMPT_WINDOW) ? p->seats : 0;
}

void prompt_encode(struct buf *b, const struct prompts *ps)
{
	ser_u8(b, ps->n);
	for (int i = 0; i < ps->n; i++) {
		const struct prompt *p = &ps->p[i];
		ser_u8(b, p->kind);
		ser_u8(b, p->flags);
		ser_u8(b, (unsigned)(p->owner + 1));
		ser_u8(b, p->arg);
		ser_u16(b, p->seats);
		ser_u16(b, p->waiting);
		ser_u16(b, p->seconds);
		ser_i64(b, p->deadline);
	}
}

int prompt_decode(struct de *d, struct prompts *ps)
{
	memset(ps, 0, sizeof *ps);
	unsigned n = de_u8(d);
	if (n > PROMPT_DEPTH)
		return -1;
	ps->n = (uint8_t)n;
	for (unsigned i = 0; i < n; i++) {
		struct prompt *p = &ps->p[i];
		p->kind = (uint8_t)de_u8(d);
		p->flags = (uint8_t)de_u8(d);
		p->owner = (int8_t)((int)de_u8(d) - 1);
		p->arg = (uint8_t)de_u8(d);
		p->seats = (uint16_t)de_u16(d);
		p->waiting = (uint16_t)de_u16(d);
		p->seconds = (uint16_t)de_u16(d);
		p->deadline = de_i64(d);
	}
	return 0;
}

int prompt_check(const struct prompts *ps, int kinds, int nseats, struct rerr *e)
{
	if (ps->n > PROMPT_DEPTH)
		return rerr_set(e, "%d Aufforderungen (höchstens %d)", ps->n, PROMPT_DEPTH);
	uint32_t all = (1u << nseats) - 1;
	for (int i = 0; i < ps->n; i++) {
		const struct prompt *p = &ps->p[i];
		if (p->kind == 0 || p->kind >= kinds || (p->flags & ~PROMPT_FLAGS) ||
		    p->owner < -1 || p->owner >= nseats || (p->seats & ~all) ||
		    (p->waiting & ~p->seats) || p->deadline < 0)
			return rerr_set(e, "Aufforderung %d (Art %d) falsch", i + 1, p->kind);
		if ((p->flags & PROMPT_LATER) ? p->deadline != 0 || i != ps->n - 1 : p->seconds != 0)
			return rerr_set(e, "Aufforderung %d: Uhr falsch", i + 1);
	}
	for (int i = ps->n; i < PROMPT_DEPTH; i++)
		if (ps->p[i].kind)
			return rerr_set(e, "Aufforderung jenseits des Stapels");
	return 0;
}
