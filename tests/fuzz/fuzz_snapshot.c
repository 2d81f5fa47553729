/*
 * fuzz_snapshot.c — libFuzzer target for every registered game's snapshot
 * decoder (game->decode through game_load), the one place where bytes from
 * the database turn into a state.
 *
 * Input: byte 0 picks the game (game number byte0 / 3, fz_game_index) and one of three modes
 * (byte0 mod 3):
 *   0  the rest is decoded as it is (envelope, slug, length, CRC all fuzzed);
 *   1  the rest is a payload (format byte first): it gets a correct
 *      envelope and CRC for the game, so the game's own field validation
 *      is what is tested;
 *   2  a real snapshot: bytes 1..8 seed a party, byte 9 the player count,
 *      byte 10 how many random legal steps to play, byte 11 the dealer;
 *      the rest is a list of 4-byte edits (op, offset lo, offset hi, value)
 *      applied to the payload, which is then sealed with a correct CRC.
 * Promises checked whenever decode accepts:
 *   - check() passes (game.h: "a decoded state always passes check()");
 *   - encode → decode → encode gives identical bytes, also when the second
 *     decode starts from a differently filled buffer (nothing is left
 *     uninitialised);
 *   - status(), view() for the spectator and every seat that may act, and
 *     moves() for those seats run cleanly and emit well-formed output, and
 *     a move moves() lists is accepted with check() passing afterwards.
 * When decode refuses, it says why.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "ser.h"
#include "walk.h"

/* One fuzz input: builds the bytes of the chosen mode, decodes them with
 * the chosen game and, when accepted, checks the state. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned char snap_a[GAME_SNAPSHOT_MAX], snap_b[GAME_SNAPSHOT_MAX];
static unsigned char input[GAME_SNAPSHOT_MAX + 64];

/* Seals payload[0..n) (its first byte is the format) into input[] as a
 * snapshot of g; returns its length. */
static size_t seal(const struct game *g, const unsigned char *payload, size_t n)
{
	struct buf b = { input, 0, sizeof input, 0 };
	size_t start = snap_begin(&b, g->slug, n ? payload[0] : 0);
	if (n > 0) {
		payload++;
		n--;
	}
	if (n > b.cap - b.len - 4)
		n = b.cap - b.len - 4;
	memcpy(b.p + b.len, payload, n);
	b.len += n;
	if (snap_end(&b, start) != 0)
		fz_fail(g, "could not seal a payload of %zu bytes", n);
	return b.len;
}

/* Builds a real snapshot from the party described by d[0..11) into snap_a;
 * returns its length, or 0 when d is too short. */
static size_t real_snapshot(int gi, const uint8_t *d, size_t n)
{
	const struct game *g = games[gi];
	if (n < 11)
		return 0;
	uint64_t seed = 0;
	for (int i = 0; i < 8; i++)
		seed |= (uint64_t)d[i] << (8 * i);
	struct setup s;
	walk_setup_from(g, &s, d[8], d[10], seed, NULL, 0);
	void *st = fz_state(gi, 2, 0);
	struct rerr e;
	if (game_setup(g, st, &s, &e) != 0)
		fz_fail(g, "setup refused %d players: %s", s.nplayers, e.msg);
	struct rng rng;
	rng_seed(&rng, seed ^ 0x5eed);
	int64_t now = 1000000;
	if (walk_random(g, st, &rng, &now, d[9], NULL, NULL, 0, &e) < 0)
		fz_fail(g, "random walk failed: %s", e.msg);
	struct buf b = { snap_a, 0, sizeof snap_a, 0 };
	if (g->encode(st, &b) != 0)
		fz_fail(g, "encode of a played position failed");
	return b.len;
}

/* The properties every accepted snapshot must have (see the file comment). */
static void accepted(int gi, void *st)
{
	const struct game *g = games[gi];
	struct rerr e;
	if (g->check(st, &e) != 0)
		fz_fail(g, "decode accepted a state that fails check(): %s", e.msg);
	struct buf a = { snap_a, 0, sizeof snap_a, 0 };
	if (g->encode(st, &a) != 0)
		fz_fail(g, "encode of a decoded state failed");
	void *st2 = fz_state(gi, 1, 0xff);
	if (game_load(g, st2, a.p, a.len, &e) != 0)
		fz_fail(g, "decode refused its own encoding: %s", e.msg);
	struct buf b = { snap_b, 0, sizeof snap_b, 0 };
	if (g->encode(st2, &b) != 0 || a.len != b.len || memcmp(a.p, b.p, a.len) != 0)
		fz_fail(g, "encode → decode → encode is not identical");

	struct status stt;
	g->status(st, &stt);
	fz_view_ok(g, st, -1);
	for (int seat = 0; seat < GAME_MAX_SEATS; seat++) {
		if (!((stt.to_act >> seat) & 1u))
			continue;
		fz_view_ok(g, st, seat);
		g->moves(st, seat, fz_move_ok, (void *)g);
	}
	int seat = sim_nth_seat(stt.to_act, 0);
	if (seat < 0 || stt.over)
		return;
	struct sim_pick p = { .rng = NULL, .want = 0 };
	g->moves(st, seat, sim_pick_emit, &p);
	if (p.seen == 0)
		return;
	if (g->apply(st, seat, p.chosen, stt.deadline > 0 ? stt.deadline - 1 : 1, &e) != 0)
		fz_fail(g, "a decoded state refused its own listed move '%s' of seat %d: %s",
			p.chosen, seat, e.msg);
	if (g->check(st, &e) != 0)
		fz_fail(g, "check() fails after a listed move on a decoded state: %s", e.msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || ngames < 1)
		return 0;
	int mode = data[0] % 3;
	int gi = fz_game_index(data[0] / 3u);
	if (gi < 0)
		return 0;
	const struct game *g = games[gi];
	const unsigned char *p = data + 1;
	size_t n = size - 1;

	if (mode == 1) {
		n = seal(g, p, n);
		p = input;
	} else if (mode == 2) {
		size_t len = real_snapshot(gi, p, n);
		if (len == 0)
			return 0;
		/* payload of snap_a: after magic, slug length, slug, length */
		size_t hdr = 4 + 1 + strlen(g->slug) + 4;
		size_t plen = len - hdr - 4;
		unsigned char payload[GAME_SNAPSHOT_MAX];
		memcpy(payload, snap_a + hdr, plen);
		for (size_t i = 11; i + 4 <= n; i += 4) {
			size_t off = plen ? ((size_t)p[i + 1] | (size_t)p[i + 2] << 8) % plen : 0;
			switch (p[i] % 4) {
			case 0: if (plen) payload[off] = p[i + 3]; break;
			case 1: if (plen) payload[off] ^= p[i + 3]; break;
			case 2: plen = off; break;
			case 3: if (plen) payload[off] = (unsigned char)(payload[off] + p[i + 3]); break;
			}
		}
		n = seal(g, payload, plen);
		p = input;
	}

	void *st = fz_state(gi, 0, 0);
	struct rerr e;
	e.msg[0] = '\0';
	if (game_load(g, st, p, n, &e) != 0) {
		if (e.msg[0] == '\0')
			fz_fail(g, "decode refused without saying why");
		return 0;
	}
	accepted(gi, st);
	return 0;
}
