/*
 * fuzz_apply.c — libFuzzer target for every registered game's move parser
 * and rules (game->apply), the path every form submission takes.
 *
 * Input:
 *   byte 0      game number (fz_game_index) byte 1   player count selector
 *   bytes 2..9  seed of the party          byte 10  random legal steps first
 *   byte 11     dealer selector            bytes 12..19  option values
 *   then lines separated by '\n'; the first byte of a line says what it is:
 *     0xff        let the clock pass the pending deadline and tick
 *     0x80..0xfe  take a legal move: seat = the (c & 7)-th that may act, move
 *                 = the k-th it lists (k = next byte); then by (c >> 3) & 15:
 *                 0 as it is, 1 by another seat (next byte), 2 with its last
 *                 word replaced by the rest of the line, 3 with the rest
 *                 appended, 4 cut to (next byte) bytes, 5 in upper case,
 *                 6 with its first word replaced, 7 twice in a row,
 *                 8 with word (next byte) swapped for a word of another
 *                 seat's listed move (the byte after), others as it is
 *     else        the rest of the line is applied as a move by seat
 *                 (c mod (players + 3)) - 1, i.e. -1 .. players + 1
 * Promises checked after every apply:
 *   - a refused move leaves the encoded state byte-identical (checked on the
 *     raw state first, on the encodings when the memory differs) and says why;
 *   - an accepted move keeps check() passing and encode/decode identical;
 *   - a move taken unchanged from moves() is accepted;
 *   - at the end, setup + the accepted steps (sim_replay) rebuild exactly
 *     the same snapshot: what a player typed replays as it was applied.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "movetext.h"
#include "ser.h"
#include "walk.h"

/* One fuzz input: deals the party, walks to a position, applies the lines
 * (see the file comment) and replays; aborts on any broken promise. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { LOG_CAP = 8192, LINE_MAX_BYTES = 400 };

static struct sim_step steplog[LOG_CAP];
static unsigned char enc_before[GAME_SNAPSHOT_MAX], enc_after[GAME_SNAPSHOT_MAX];

/* Encodes st into out; fails the run when the buffer is too small. */
static size_t encode(const struct game *g, const void *st, unsigned char *out)
{
	struct buf b = { out, 0, GAME_SNAPSHOT_MAX, 0 };
	if (g->encode(st, &b) != 0)
		fz_fail(g, "encode failed");
	return b.len;
}

/* Words of every listed move of every seat, to recombine into moves that
 * parse but may be illegal (a card another seat holds, a wrong stack). */
struct pool {
	int n;
	char w[256][MT_WORD_MAX];
};

/* moves() callback: adds each word of the move to the pool. */
static void pool_add(void *ctx, const char *move)
{
	struct pool *p = ctx;
	struct mtok t;
	if (mt_split(move, &t, NULL) != 0)
		return;
	for (int i = 0; i < t.n && p->n < 256; i++)
		memcpy(p->w[p->n++], t.w[i], MT_WORD_MAX);
}

/* Applies one move and checks the promises above; logs it when accepted. */
static void try_move(int gi, void *st, int seat, const char *text, int64_t now, int must,
		     int *nlog)
{
	const struct game *g = games[gi];
	void *saved = fz_state(gi, 3, 0);
	memcpy(saved, st, g->state_size);
	struct status s0, s1;
	g->status(st, &s0);
	struct rerr e;
	e.msg[0] = '\0';
	if (g->apply(st, seat, text, now, &e) != 0) {
		if (must)
			fz_fail(g, "listed move '%s' of seat %d refused: %s", text, seat, e.msg);
		if (e.msg[0] == '\0')
			fz_fail(g, "move '%s' refused without saying why", text);
		/* fast path: the memory is untouched; else the encodings must match */
		if (memcmp(saved, st, g->state_size) != 0) {
			size_t after = encode(g, st, enc_after);
			size_t before = encode(g, saved, enc_before);
			if (after != before || memcmp(enc_before, enc_after, after) != 0)
				fz_fail(g, "refused move '%s' of seat %d changed the state", text,
					seat);
		}
		g->status(st, &s1);
		if (memcmp(&s0, &s1, sizeof s0) != 0)
			fz_fail(g, "refused move '%s' of seat %d changed the status", text, seat);
		return;
	}
	if (seat < 0 || seat >= GAME_MAX_SEATS)
		fz_fail(g, "move '%s' accepted from seat %d, which does not exist", text, seat);
	if (g->check(st, &e) != 0)
		fz_fail(g, "check() fails after move '%s' of seat %d: %s", text, seat, e.msg);
	size_t len = encode(g, st, enc_after);
	void *st2 = fz_state(gi, 2, 0xa5);
	if (game_load(g, st2, enc_after, len, &e) != 0)
		fz_fail(g, "decode refused the state after '%s': %s", text, e.msg);
	size_t len2 = encode(g, st2, enc_before);
	if (len2 != len || memcmp(enc_before, enc_after, len) != 0)
		fz_fail(g, "encode/decode not identical after '%s'", text);
	walk_log(steplog, nlog, LOG_CAP, seat, now, text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 20 || ngames < 1)
		return 0;
	int gi = fz_game_index(data[0]);
	if (gi < 0)
		return 0;
	const struct game *g = games[gi];
	uint64_t seed = 0;
	for (int i = 0; i < 8; i++)
		seed |= (uint64_t)data[2 + i] << (8 * i);
	struct setup s;
	walk_setup_from(g, &s, data[1], data[11], seed, data + 12, 8);
	void *st = fz_state(gi, 0, 0);
	struct rerr e;
	if (game_setup(g, st, &s, &e) != 0)
		return 0; /* an option combination the game refuses: fine */
	struct rng rng;
	rng_seed(&rng, seed ^ 0xa991);
	int64_t now = 1000000;
	int nlog = 0;
	if (walk_random(g, st, &rng, &now, data[10], steplog, &nlog, LOG_CAP, &e) < 0)
		fz_fail(g, "random walk failed: %s", e.msg);

	size_t i = 20;
	while (i < size && nlog < LOG_CAP - 2) {
		size_t end = i;
		while (end < size && data[end] != '\n')
			end++;
		const uint8_t *line = data + i;
		size_t ll = end - i;
		i = end + 1;
		if (ll == 0)
			continue;
		now += 137;
		struct status stt;
		g->status(st, &stt);
		unsigned c = line[0];
		char text[LINE_MAX_BYTES + 1];
		size_t rest = ll - 1 < LINE_MAX_BYTES ? ll - 1 : LINE_MAX_BYTES;

		if (c == 0xff) {
			if (stt.deadline > 0 && now < stt.deadline)
				now = stt.deadline;
			if (g->tick(st, now)) {
				if (g->check(st, &e) != 0)
					fz_fail(g, "check() fails after a tick: %s", e.msg);
				walk_log(steplog, &nlog, LOG_CAP, -1, now, "tick");
			}
			continue;
		}
		if (c < 0x80) {
			memcpy(text, line + 1, rest);
			text[rest] = '\0';
			int seat = (int)(c % (unsigned)(s.nplayers + 3)) - 1;
			try_move(gi, st, seat, text, now, 0, &nlog);
			continue;
		}
		int seat = sim_nth_seat(stt.to_act, c & 7);
		if (seat < 0)
			continue;
		struct sim_pick p = { .rng = NULL, .want = ll > 1 ? line[1] : 0 };
		g->moves(st, seat, sim_pick_emit, &p);
		if (p.seen == 0)
			continue;
		if (p.want >= p.seen) {
			p.want %= p.seen;
			p.seen = 0;
			g->moves(st, seat, sim_pick_emit, &p);
		}
		const uint8_t *arg = ll > 2 ? line + 2 : line + ll;
		size_t argn = ll > 2 ? ll - 2 : 0;
		if (argn > LINE_MAX_BYTES / 2)
			argn = LINE_MAX_BYTES / 2;
		size_t ml = strlen(p.chosen);
		memcpy(text, p.chosen, ml + 1);
		int other = seat, must = 0;
		switch ((c >> 3) & 15) {
		case 1:
			other = argn ? (int)(arg[0] % (unsigned)(s.nplayers + 3)) - 1 : -1;
			break;
		case 2: {
			char *sp = strrchr(text, ' ');
			size_t at = sp ? (size_t)(sp - text) + 1 : 0;
			memcpy(text + at, arg, argn);
			text[at + argn] = '\0';
			break;
		}
		case 3:
			memcpy(text + ml, arg, argn);
			text[ml + argn] = '\0';
			break;
		case 4:
			if (argn && arg[0] < ml)
				text[arg[0]] = '\0';
			break;
		case 5:
			for (char *t = text; *t; t++)
				*t = (char)toupper((unsigned char)*t);
			break;
		case 6: {
			char *sp = strchr(text, ' ');
			char tail[GAME_MOVE_MAX + 1];
			size_t tl = sp ? strlen(sp) : 0;
			memcpy(tail, sp ? sp : "", tl + 1);
			memcpy(text, arg, argn);
			memcpy(text + argn, tail, tl + 1);
			break;
		}
		case 8: {
			static struct pool pool;
			pool.n = 0;
			for (int q = 0; q < s.nplayers; q++)
				g->moves(st, q, pool_add, &pool);
			struct mtok t;
			if (argn < 2 || pool.n == 0 || mt_split(text, &t, NULL) != 0)
				break;
			memcpy(t.w[arg[0] % t.n], pool.w[arg[1] % pool.n], MT_WORD_MAX);
			size_t o = 0;
			for (int w = 0; w < t.n; w++) {
				size_t wl = strlen(t.w[w]);
				if (o + wl + 1 > LINE_MAX_BYTES)
					break;
				if (w)
					text[o++] = ' ';
				memcpy(text + o, t.w[w], wl);
				o += wl;
			}
			text[o] = '\0';
			break;
		}
		case 7:
			try_move(gi, st, seat, text, now,
				 !(stt.deadline > 0 && now >= stt.deadline), &nlog);
			now += 1;
			break;
		default:
			/* a listed move must be accepted, unless a deadline has
			 * passed unticked (the web layer always ticks first) */
			must = !(stt.deadline > 0 && now >= stt.deadline);
			break;
		}
		try_move(gi, st, other, text, now, must, &nlog);
	}

	/* Replay: setup + every accepted step must rebuild the same snapshot. */
	void *re = fz_state(gi, 1, 0x5a);
	if (sim_replay(g, &s, steplog, nlog, re, &e) != 0)
		fz_fail(g, "replay of %d steps failed: %s", nlog, e.msg);
	size_t a = encode(g, st, enc_before);
	size_t b = encode(g, re, enc_after);
	if (a != b || memcmp(enc_before, enc_after, a) != 0)
		fz_fail(g, "replay of %d steps gives a different snapshot", nlog);
	return 0;
}
