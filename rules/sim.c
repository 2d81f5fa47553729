#include <string.h>

#include "sim.h"

static uint32_t popcount32(uint32_t x)
{
	uint32_t n = 0;
	for (; x; x &= x - 1)
		n++;
	return n;
}

int sim_nth_seat(uint32_t mask, uint32_t k)
{
	uint32_t n = popcount32(mask);
	if (n == 0)
		return -1;
	k %= n;
	for (int b = 0; b < 32; b++)
		if ((mask >> b) & 1u) {
			if (k == 0)
				return b;
			k--;
		}
	return -1;
}

int sim_random_seat(struct rng *r, uint32_t mask)
{
	uint32_t n = popcount32(mask);
	return n ? sim_nth_seat(mask, rng_below(r, n)) : -1;
}

void sim_pick_emit(void *ctx, const char *move)
{
	struct sim_pick *p = ctx;
	int take = p->rng ? rng_below(p->rng, (uint32_t)p->seen + 1) == 0 : p->seen == p->want;
	p->seen++;
	if (take) {
		size_t n = strnlen(move, GAME_MOVE_MAX);
		memcpy(p->chosen, move, n);
		p->chosen[n] = '\0';
	}
}

static void log_step(struct sim_mem *mem, struct sim_result *r, int seat,
		     int64_t at, const char *text)
{
	struct sim_step *st = &mem->log[r->steps++];
	st->seat = seat;
	st->at = at;
	strncpy(st->text, text, GAME_MOVE_MAX);
	st->text[GAME_MOVE_MAX] = '\0';
}

int sim_replay(const struct game *g, const struct setup *s,
	       const struct sim_step *log, int n, void *st, struct rerr *e)
{
	if (game_setup(g, st, s, e) != 0)
		return -1;
	for (int i = 0; i < n; i++) {
		if (log[i].seat < 0) {
			g->tick(st, log[i].at);
			continue;
		}
		if (g->apply(st, log[i].seat, log[i].text, log[i].at, e) != 0)
			return -1;
	}
	return 0;
}

void sim_party(const struct game *g, const struct setup *s, uint64_t seed,
	       struct sim_mem *mem, struct sim_result *r)
{
	struct rng rng;
	struct status stt;
	int64_t now = 1000000;

	memset(r, 0, sizeof *r);
	rng_seed(&rng, seed);
	if (game_setup(g, mem->state, s, &r->err) != 0) {
		r->invariant_failures++;
		return;
	}
	while (r->steps < mem->max_steps) {
		if (!mem->fast && g->check(mem->state, &r->err) != 0) {
			r->invariant_failures++;
			return;
		}
		g->status(mem->state, &stt);
		if (stt.over) {
			r->ended = 1;
			break;
		}
		now += 200 + rng_below(&rng, 3000);
		/* Sometimes let a pending deadline pass instead of acting. */
		if (stt.deadline > 0 && (stt.to_act == 0 || rng_below(&rng, 8) == 0)) {
			if (now < stt.deadline)
				now = stt.deadline;
			if (g->tick(mem->state, now))
				log_step(mem, r, -1, now, "tick");
			continue;
		}
		if (stt.to_act == 0) {
			r->stuck = 1;
			rerr_set(&r->err, "niemand kann ziehen, keine Frist offen");
			return;
		}
		int seat = sim_random_seat(&rng, stt.to_act);
		struct sim_pick p = { .rng = &rng };
		g->moves(mem->state, seat, sim_pick_emit, &p);
		if (g->bot_moves)
			g->bot_moves(mem->state, seat, sim_pick_emit, &p);
		if (p.seen == 0) {
			r->stuck = 1;
			rerr_set(&r->err, "Platz %d soll ziehen, hat aber keinen Zug", seat);
			return;
		}
		struct rerr e;
		if (g->apply(mem->state, seat, p.chosen, now, &e) != 0) {
			r->rejected_legal++;
			rerr_set(&r->err, "angebotener Zug '%s' von Platz %d abgelehnt: %s",
				 p.chosen, seat, e.msg);
			return;
		}
		log_step(mem, r, seat, now, p.chosen);
		r->moves++;
	}
	if (!r->ended || mem->fast)
		return;

	struct rerr e;
	if (sim_replay(g, s, mem->log, r->steps, mem->replay, &e) != 0) {
		r->replay_mismatch++;
		r->err = e;
		return;
	}
	struct buf a = { mem->snap_a, 0, GAME_SNAPSHOT_MAX, 0 };
	struct buf b = { mem->snap_b, 0, GAME_SNAPSHOT_MAX, 0 };
	if (g->encode(mem->state, &a) != 0 || g->encode(mem->replay, &b) != 0 ||
	    a.len != b.len || memcmp(a.p, b.p, a.len) != 0) {
		r->replay_mismatch++;
		rerr_set(&r->err, "Wiederholung aus dem Protokoll ergibt einen anderen Stand");
	}
}
