/* perft.c — see perft.h. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perft.h"

/* The moves of one seat at one level, as a growing array of texts. */
struct movebuf {
	char (*m)[GAME_MOVE_MAX + 1];
	int n, cap;
	int oom;
};

/* moves() callback: appends one move. */
static void collect(void *ctx, const char *move)
{
	struct movebuf *b = ctx;
	if (b->oom)
		return;
	if (b->n == b->cap) {
		int cap = b->cap ? b->cap * 2 : 64;
		void *p = realloc(b->m, (size_t)cap * sizeof *b->m);
		if (!p) {
			b->oom = 1;
			return;
		}
		b->m = p;
		b->cap = cap;
	}
	snprintf(b->m[b->n], sizeof b->m[b->n], "%s", move);
	b->n++;
}

struct walk {
	const struct game *g;
	int depth;
	int64_t now;
	struct perft_count *c;
	struct rerr *e;
	void *state[PERFT_DEPTH_MAX + 1];   /* the position at each level */
	struct movebuf moves[PERFT_DEPTH_MAX + 1];
	unsigned char *snap;
};

uint64_t perft_fnv(uint64_t h, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= UINT64_C(0x100000001b3);
	}
	return h;
}

/* Counts the position at level d and walks on from it. */
static int visit(struct walk *w, int d)
{
	const struct game *g = w->g;
	const void *st = w->state[d];
	struct buf b = { w->snap, 0, GAME_SNAPSHOT_MAX, 0 };
	struct status s;

	if (g->encode(st, &b) != 0 || b.overflow)
		return rerr_set(w->e, "perft: a snapshot at depth %d does not encode", d);
	w->c->nodes[d]++;
	w->c->hash[d] += perft_fnv(PERFT_FNV_SEED, b.p, b.len);
	g->status(st, &s);
	if (s.over) {
		w->c->ended[d]++;
		return 0;
	}
	if (d == w->depth)
		return 0;
	for (int seat = 0; seat < GAME_MAX_SEATS; seat++) {
		if (!(s.to_act >> seat & 1u))
			continue;
		struct movebuf *mb = &w->moves[d];
		mb->n = 0;
		g->moves(st, seat, collect, mb);
		if (mb->oom)
			return rerr_set(w->e, "perft: out of memory");
		for (int k = 0; k < mb->n; k++) {
			struct rerr ae;
			memcpy(w->state[d + 1], st, g->state_size);
			if (g->apply(w->state[d + 1], seat, mb->m[k], w->now, &ae) != 0)
				return rerr_set(w->e, "perft: listed move '%s' by seat %d refused at "
						      "depth %d: %s", mb->m[k], seat, d, ae.msg);
			if (visit(w, d + 1) != 0)
				return -1;
			/* the list of this level is still intact: deeper levels own theirs */
		}
	}
	return 0;
}

int perft_run(const struct game *g, const struct setup *s, int depth, int64_t now_ms,
	      struct perft_count *c, struct rerr *e)
{
	struct walk w = { g, depth, now_ms, c, e, { NULL }, { { NULL, 0, 0, 0 } }, NULL };
	int rc = -1;
	assert(g && s && c && e);
	assert(depth >= 0 && depth <= PERFT_DEPTH_MAX);
	memset(c, 0, sizeof *c);
	e->msg[0] = '\0';
	c->depth = depth;
	w.snap = malloc(GAME_SNAPSHOT_MAX);
	for (int d = 0; d <= depth; d++)
		if (!(w.state[d] = calloc(1, g->state_size)))
			goto out;
	if (!w.snap) {
		rerr_set(e, "perft: out of memory");
		goto out;
	}
	if (game_setup(g, w.state[0], s, e) != 0)
		goto out;
	rc = visit(&w, 0);
out:
	if (rc != 0 && !e->msg[0])
		rerr_set(e, "perft: out of memory");
	for (int d = 0; d <= depth; d++) {
		free(w.state[d]);
		free(w.moves[d].m);
	}
	free(w.snap);
	return rc;
}
