/* test_core.c — the helpers every game shares: generator, piles, snapshot
 * envelope, the move-text reader, options, seats, deadlines and matches. */
#include <stdarg.h>
#include <stddef.h>
#include <limits.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dice.h"
#include "evlog.h"
#include "game.h"
#include "match.h"
#include "movetext.h"
#include "options.h"
#include "perft.h"
#include "pile.h"
#include "prompt.h"
#include "rng.h"
#include "ser.h"
#include "unit/viewtext.h"

static void test_rng_same_seed_same_sequence(void **unused)
{
	(void)unused;
	struct rng a, b;
	rng_seed(&a, 42);
	rng_seed(&b, 42);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(rng_next(&a), rng_next(&b));
	rng_seed(&b, 43);
	rng_seed(&a, 42);
	assert_int_not_equal(rng_next(&a), rng_next(&b));
}

/* A known answer pins the generator: a snapshot made today must replay the
 * same way after any refactoring. */
static void test_rng_known_answer(void **unused)
{
	(void)unused;
	struct rng r;
	rng_seed(&r, 1);
	uint64_t first = rng_next(&r);
	struct rng r2;
	rng_seed(&r2, 1);
	assert_int_equal(first, rng_next(&r2));
	assert_int_equal(first, 0xb3f2af6d0fc710c5ULL);
}

static void test_rng_below_in_range_and_uniform(void **unused)
{
	(void)unused;
	struct rng r;
	int count[6] = { 0 };
	rng_seed(&r, 7);
	for (int i = 0; i < 60000; i++) {
		int d = rng_die(&r, 6);
		assert_in_range(d, 1, 6);
		count[d - 1]++;
	}
	for (int f = 0; f < 6; f++)
		assert_in_range(count[f], 9400, 10600);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(rng_below(&r, 1), 0);
}

static void test_shuffle_is_a_permutation(void **unused)
{
	(void)unused;
	struct rng r;
	uint16_t a[90];
	int seen[90] = { 0 };
	rng_seed(&r, 3);
	for (int i = 0; i < 90; i++)
		a[i] = (uint16_t)i;
	rng_shuffle(&r, a, 90);
	int moved = 0;
	for (int i = 0; i < 90; i++) {
		seen[a[i]]++;
		moved += a[i] != i;
	}
	for (int i = 0; i < 90; i++)
		assert_int_equal(seen[i], 1);
	assert_true(moved > 45);
}

static void test_pile_push_pop_capacity(void **unused)
{
	(void)unused;
	uint16_t a[3];
	int n = 0;
	uint16_t c;
	assert_int_equal(pile_pop(a, &n, &c), -1);
	assert_int_equal(pile_push(a, &n, 3, 1), 0);
	assert_int_equal(pile_push(a, &n, 3, 2), 0);
	assert_int_equal(pile_push(a, &n, 3, 3), 0);
	assert_int_equal(pile_push(a, &n, 3, 4), -1);
	assert_int_equal(n, 3);
	assert_int_equal(pile_pop(a, &n, &c), 0);
	assert_int_equal(c, 3);
	assert_int_equal(pile_find(a, n, 2), 1);
	assert_int_equal(pile_find(a, n, 9), -1);
}

static void test_pile_remove_under_reverse(void **unused)
{
	(void)unused;
	uint16_t a[8] = { 1, 2, 3, 4 };
	int n = 4;
	assert_int_equal(pile_remove_at(a, &n, 1), 0);
	assert_int_equal(n, 3);
	assert_int_equal(a[0], 1);
	assert_int_equal(a[1], 3);
	assert_int_equal(pile_remove_at(a, &n, 3), -1);
	uint16_t under[2] = { 8, 9 };
	assert_int_equal(pile_put_under(a, &n, 8, under, 2), 0);
	uint16_t want[5] = { 8, 9, 1, 3, 4 };
	assert_memory_equal(a, want, sizeof want);
	assert_int_equal(pile_put_under(a, &n, 6, under, 2), -1);
	pile_reverse(a, n);
	uint16_t rev[5] = { 4, 3, 1, 9, 8 };
	assert_memory_equal(a, rev, sizeof rev);
}

/* view_vformat writes what vsnprintf writes, cut the same way, and says
 * the same length. */
static int both(char *mine, char *libc, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int both(char *mine, char *libc, size_t cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int a = view_vformat(mine, cap, fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	int b = vsnprintf(libc, cap, fmt, ap);
	va_end(ap);
	assert_int_equal(a, b);
	if (cap)
		assert_string_equal(mine, libc);
	return a;
}

static void test_view_format_is_vsnprintf(void **state)
{
	(void)state;
	char m[64], l[64];
	size_t caps[] = { 64, 1, 2, 7, 12 };
	for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
		size_t c = caps[i];
		both(m, l, c, "Bärbel legt %d auf Stapel %u.", -17, 4u);
		both(m, l, c, "%d %d %d %i", INT_MIN, INT_MAX, 0, -1);
		both(m, l, c, "%ld|%lld|%lu|%llu", LONG_MIN, LLONG_MIN, ULONG_MAX, ULLONG_MAX);
		both(m, l, c, "%zu/%u/%c%c%%", (size_t)-1, UINT_MAX, 'x', '!');
		both(m, l, c, "%s und %s: %s", "Anna", "Bärbel & \"Co\"", "");
		both(m, l, c, "%5d|%-3s|%.2s|%#x|% d", 42, "a", "abcdef", 255, 7);   /* vsnprintf's */
		both(m, l, c, "%s", "");
		both(m, l, c, "ohne Umwandlung");
		/* plain ones first, then one that is not: vsnprintf's from the start */
		both(m, l, c, "%d, %s, dann %05d", 3, "x", 42);
		both(m, l, c, "%u %lu %zx", 1u, 2ul, (size_t)255);
		both(m, l, c, "%lld%%%ld %hd", -1LL, 7L, (short)-3);
	}
	assert_int_equal(both(m, l, 0, "%d", 12345), 5);
	/* view_format, the games' snprintf in their views: the same text, cut
	 * and length, for the formats they put together */
	for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
		size_t c = caps[i];
		assert_int_equal(view_format(m, c, "%se%d", " ", 12), snprintf(l, c, "%se%d", " ", 12));
		assert_string_equal(m, l);
		assert_int_equal(view_format(m, c, "%s und %u", "6, 6", 3u),
				 snprintf(l, c, "%s und %u", "6, 6", 3u));
		assert_string_equal(m, l);
		assert_int_equal(view_format(m, c, "attack %d %d", 7, 3),
				 snprintf(l, c, "attack %d %d", 7, 3));
		assert_string_equal(m, l);
	}
}

/* The snapshots' checksum is CRC-32 as zlib computes it: its check value,
 * the empty input, and a long input against the bit-by-bit definition. */
static void test_crc32_known_answers(void **state)
{
	(void)state;
	assert_int_equal(crc32_bytes((const unsigned char *)"123456789", 9), 0xcbf43926u);
	assert_int_equal(crc32_bytes((const unsigned char *)"", 0), 0);
	unsigned char buf[3000];
	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = (unsigned char)(i * 131 + (i >> 3));
	uint32_t c = 0xffffffffu;
	for (size_t i = 0; i < sizeof buf; i++) {
		c ^= buf[i];
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
	}
	assert_int_equal(crc32_bytes(buf, sizeof buf), ~c);
	/* every length up to 40 from every alignment: the eight-byte steps,
	 * the tail byte by byte */
	for (size_t at = 0; at < 8; at++)
		for (size_t n = 0; n <= 40; n++) {
			c = 0xffffffffu;
			for (size_t i = 0; i < n; i++) {
				c ^= buf[at + i];
				for (int k = 0; k < 8; k++)
					c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
			}
			assert_int_equal(crc32_bytes(buf + at, n), ~c);
		}
}

static void test_snapshot_envelope_round_trip(void **unused)
{
	(void)unused;
	unsigned char mem[128];
	struct buf b = { mem, 0, sizeof mem, 0 };
	size_t start = snap_begin(&b, "demo", 1);
	ser_u8(&b, 7);
	ser_u16(&b, 513);
	ser_u64(&b, 0x0102030405060708ULL);
	ser_i64(&b, -5);
	uint16_t cards[3] = { 10, 20, 30 };
	ser_u16s(&b, cards, 3);
	assert_int_equal(snap_end(&b, start), 0);

	struct de d;
	struct rerr e;
	assert_int_equal(snap_open(&d, "demo", mem, b.len, &e), 0);
	assert_int_equal(d.format, 1);   /* the payload's first byte */
	assert_int_equal(de_u8(&d), 7);
	assert_int_equal(de_u16(&d), 513);
	assert_int_equal(de_u64(&d), 0x0102030405060708ULL);
	assert_int_equal(de_i64(&d), -5);
	uint16_t back[3];
	assert_int_equal(de_u16s(&d, back, 3), 3);
	assert_memory_equal(back, cards, sizeof cards);
	assert_int_equal(snap_close(&d, &e), 0);
}

static void test_snapshot_envelope_rejects_damage(void **unused)
{
	(void)unused;
	unsigned char mem[64];
	struct buf b = { mem, 0, sizeof mem, 0 };
	size_t start = snap_begin(&b, "demo", 1);
	ser_u32(&b, 12345);
	assert_int_equal(snap_end(&b, start), 0);
	struct de d;
	struct rerr e;

	assert_int_equal(snap_open(&d, "other", mem, b.len, &e), -1);
	assert_non_null(strstr(e.msg, "anderen Spiel"));
	assert_int_equal(snap_open(&d, "demo", mem, b.len - 1, &e), -1);
	assert_int_equal(snap_open(&d, "demo", mem, 3, &e), -1);
	assert_int_equal(snap_open(&d, "demo", NULL, 0, &e), -1);
	for (size_t i = 0; i < b.len; i++) {
		mem[i] ^= 0x10;
		assert_int_equal(snap_open(&d, "demo", mem, b.len, &e), -1);
		mem[i] ^= 0x10;
	}
	/* Reading past the payload is an error, never an overrun. */
	assert_int_equal(snap_open(&d, "demo", mem, b.len, &e), 0);
	(void)de_u64(&d);
	assert_int_equal(snap_close(&d, &e), -1);
	/* Leftover bytes are an error too. */
	assert_int_equal(snap_open(&d, "demo", mem, b.len, &e), 0);
	(void)de_u16(&d);
	assert_int_equal(snap_close(&d, &e), -1);
}

static void test_buffer_overflow_is_reported(void **unused)
{
	(void)unused;
	unsigned char mem[12];
	struct buf b = { mem, 0, sizeof mem, 0 };
	size_t start = snap_begin(&b, "demo", 1);
	ser_u64(&b, 1);
	assert_true(b.overflow);
	assert_int_equal(snap_end(&b, start), -1);
}

static void test_de_u16s_refuses_more_than_capacity(void **unused)
{
	(void)unused;
	unsigned char mem[16];
	struct buf b = { mem, 0, sizeof mem, 0 };
	uint16_t a[4] = { 1, 2, 3, 4 };
	ser_u16s(&b, a, 4);
	struct de d = { mem, b.len, 0, 0, 0 };
	uint16_t small[2];
	assert_int_equal(de_u16s(&d, small, 2), 0);
	assert_true(d.err);
}

static void test_movetext_splits_and_folds_case(void **unused)
{
	(void)unused;
	struct mtok t;
	struct rerr e;
	assert_int_equal(mt_split("  Play  Gelb-4\ton 2 ", &t, &e), 0);
	assert_int_equal(t.n, 4);
	assert_string_equal(t.w[0], "play");
	assert_string_equal(t.w[1], "gelb-4");
	assert_true(mt_is(&t, 2, "on"));
	assert_false(mt_is(&t, 4, "on"));
	assert_int_equal(mt_split("grün-3", &t, &e), 0);
	assert_string_equal(t.w[0], "grün-3");
}

static void test_movetext_rejects_bad_input(void **unused)
{
	(void)unused;
	struct mtok t;
	struct rerr e;
	char longmove[GAME_MOVE_MAX + 10];
	memset(longmove, 'a', sizeof longmove - 1);
	longmove[sizeof longmove - 1] = '\0';
	const char *bad[] = { "", "   ", "play\x01", "play \xff", "caf\xc3", "a\x7f",
			      "\xc0\xaf", longmove };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		e.msg[0] = '\0';
		assert_int_equal(mt_split(bad[i], &t, &e), -1);
		assert_true(strlen(e.msg) > 0);
	}
	assert_int_equal(mt_split(NULL, &t, &e), -1);
	assert_int_equal(mt_split("a b c d e f g h i j k l m n o p q", &t, &e), -1);
	/* a word has at most MT_WORD_MAX - 1 bytes (a game's own limit may be
	 * lower: Wurf & Wort's 20 letters take up to 40) */
	char word[MT_WORD_MAX + 1];
	memset(word, 'a', MT_WORD_MAX);
	word[MT_WORD_MAX] = '\0';
	assert_int_equal(mt_split(word, &t, &e), -1);
	assert_non_null(strstr(e.msg, "zu lang"));
	word[MT_WORD_MAX - 1] = '\0';
	assert_int_equal(mt_split(word, &t, &e), 0);
	assert_string_equal(t.w[0], word);
}

static void test_movetext_strict_integers(void **unused)
{
	(void)unused;
	int v = -1;
	assert_int_equal(mt_int("3", 1, 3, &v), 0);
	assert_int_equal(v, 3);
	assert_int_equal(mt_int("0", 0, 3, &v), 0);
	assert_int_equal(v, 0);
	const char *bad[] = { "", "4", "-1", "+1", "01", "1x", " 1", "99999999999999" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(mt_int(bad[i], 0, 3, &v), -1);
	assert_int_equal(mt_int(NULL, 0, 3, &v), -1);
	assert_int_equal(mt_int("0", 1, 3, &v), -1);
}

/* A quoted word is cut by characters, never inside a UTF-8 sequence. */
static void test_movetext_clip_keeps_utf8_whole(void **unused)
{
	(void)unused;
	char b[64];
	assert_string_equal(mt_clip(b, sizeof b, "grün", 3), "grü");
	assert_string_equal(mt_clip(b, sizeof b, "ääääää", 4), "ääää");
	assert_string_equal(mt_clip(b, 4, "ääää", 10), "ä");   /* 2 bytes + room for NUL */
	assert_string_equal(mt_clip(b, sizeof b, "ab\xc3", 10), "ab");
	assert_string_equal(mt_clip(b, sizeof b, NULL, 10), "");
	assert_string_equal(mt_clip(b, sizeof b, "\xf0\x9f\x90\x89x", 1), "\xf0\x9f\x90\x89");
}

static const struct game_option demo_opts[] = {
	{ "snap_seconds", "Zwischenwurf-Frist", OPT_INT, 2, 60, 8, "s" },
	{ "colour", "Farbvariante", OPT_BOOL, 0, 1, 0, NULL },
};
static const struct game demo = {
	.slug = "demo", .title = "Demo", .min_players = 2, .max_players = 4,
	.options = demo_opts, .noptions = 2,
};

static void test_options_defaults_set_format_parse(void **unused)
{
	(void)unused;
	int opt[GAME_OPT_MAX];
	struct rerr e;
	char text[64];
	options_default(&demo, opt);
	assert_int_equal(opt[0], 8);
	assert_int_equal(opt[1], 0);
	assert_int_equal(options_set(&demo, opt, "colour", "on", &e), 0);
	assert_int_equal(options_set(&demo, opt, "snap_seconds", "20", &e), 0);
	assert_int_equal(options_format(&demo, opt, text, sizeof text), 0);
	assert_string_equal(text, "snap_seconds=20;colour=1");
	int back[GAME_OPT_MAX];
	assert_int_equal(options_parse(&demo, back, text, &e), 0);
	assert_memory_equal(back, opt, 2 * sizeof(int));
	assert_int_equal(options_format(&demo, opt, text, 5), -1);
}

static void test_options_reject_bad_values(void **unused)
{
	(void)unused;
	int opt[GAME_OPT_MAX];
	struct rerr e;
	options_default(&demo, opt);
	assert_int_equal(options_set(&demo, opt, "snap_seconds", "1", &e), -1);
	assert_non_null(strstr(e.msg, "2 bis 60"));
	assert_int_equal(options_set(&demo, opt, "snap_seconds", "abc", &e), -1);
	assert_int_equal(options_set(&demo, opt, "colour", "maybe", &e), -1);
	assert_int_equal(options_set(&demo, opt, "nope", "1", &e), -1);
	assert_int_equal(opt[0], 8);
	assert_int_equal(options_parse(&demo, opt, "snap_seconds", &e), -1);
	assert_int_equal(options_parse(&demo, opt, "x=1", &e), -1);
	assert_int_equal(options_parse(&demo, opt, "", &e), 0);
	assert_int_equal(opt[0], 8);
}

static void test_seats_rotate_clockwise(void **unused)
{
	(void)unused;
	assert_int_equal(seat_next(0, 4), 1);
	assert_int_equal(seat_next(3, 4), 0);
	assert_int_equal(seat_from(2, 5, 4), 3);
	/* dealing from the dealer's left, one card a seat a round */
	static const int order[8] = { 3, 0, 1, 2, 3, 0, 1, 2 };
	for (int i = 0; i < 8; i++)
		assert_int_equal(deal_seat(2, i, 4), order[i]);
	for (int k = 0; k < 4; k++)
		assert_int_equal(match_dealer(k, 1, 4), (1 + k) % 4);
}

static void test_deadlines(void **unused)
{
	(void)unused;
	assert_int_equal(deadline_after(1000, 5), 6000);
	assert_int_equal(deadline_after(1000, 0), 0);
	assert_false(deadline_passed(0, 99999));
	assert_false(deadline_passed(6000, 5999));
	assert_true(deadline_passed(6000, 6000));
	assert_int_equal(deadline_min(0, 5), 5);
	assert_int_equal(deadline_min(7, 0), 7);
	assert_int_equal(deadline_min(7, 5), 5);
	assert_int_equal(deadline_min(0, 0), 0);
}

static void test_match_totals_ties_share_the_win(void **unused)
{
	(void)unused;
	struct match_totals m = { 0 };
	int p1[3] = { 5, 2, 1 }, p2[3] = { -1, 2, 4 };
	match_add_party(&m, p1, 3);
	match_add_party(&m, p2, 3);
	assert_int_equal(m.parties, 2);
	assert_int_equal(m.total[0], 4);
	assert_int_equal(m.total[1], 4);
	assert_int_equal(m.total[2], 5);
	assert_int_equal(match_leaders(&m, 3), 1u << 2);
	int p3[3] = { 1, 1, 0 };
	match_add_party(&m, p3, 3);
	assert_int_equal(match_leaders(&m, 3), 7u);
	int place[3];
	match_places(&m, 3, place);
	assert_int_equal(place[0], 1);
	assert_int_equal(place[2], 1);
}

/* perft's counts: depth 0 is the dealt party, depth 1 one position per
 * listed move of every seat that may act; two walks agree to the bit. */
static void count_move(void *ctx, const char *move)
{
	(void)move;
	++*(int *)ctx;
}

static void test_perft_counts_listed_moves(void **unused)
{
	(void)unused;
	for (int i = 0; i < ngames; i++) {
		const struct game *g = games[i];
		struct setup s = { .nplayers = g->min_players, .dealer = 0, .seed = 7 };
		struct perft_count a, b;
		struct rerr e;
		options_default(g, s.opt);
		if (perft_run(g, &s, 2, 1000, &a, &e) != 0)
			fail_msg("%s: %s", g->slug, e.msg);
		assert_int_equal(perft_run(g, &s, 2, 1000, &b, &e), 0);
		assert_memory_equal(&a, &b, sizeof a);
		void *st = calloc(1, g->state_size);
		struct status stt;
		int listed = 0;
		assert_non_null(st);
		assert_int_equal(game_setup(g, st, &s, &e), 0);
		g->status(st, &stt);
		for (int seat = 0; seat < s.nplayers; seat++)
			if (stt.to_act >> seat & 1u)
				g->moves(st, seat, count_move, &listed);
		free(st);
		assert_true(a.nodes[0] == 1);
		assert_true(a.nodes[1] == (uint64_t)listed);
		assert_true(a.nodes[2] > a.nodes[1]);
		assert_true(a.hash[1] != a.hash[2]);
	}
}

/* Every game says in one line what it is and in a few sentences how it
 * is played (the lobby and an open table show them before anyone joins);
 * every announced game has its line too. */
static void test_games_describe_themselves(void **unused)
{
	(void)unused;
	for (int i = 0; i < ngames; i++) {
		assert_non_null(games[i]->tagline);
		assert_non_null(games[i]->summary);
		assert_true(strlen(games[i]->tagline) > 20);
		assert_true(strlen(games[i]->summary) > strlen(games[i]->tagline));
	}
	for (int i = 0; i < ngames_coming; i++) {
		assert_non_null(games_coming[i].tagline);
		assert_true(strlen(games_coming[i].tagline) > 20);
	}
}

/* Every game's table of verbs agrees with itself: distinct words, each
 * example read as its own verb and of its form, the form beginning with
 * the verb as shown; and the example, spelled by mt_spell from its own
 * arguments, comes out again. */
static void test_verb_tables(void **unused)
{
	(void)unused;
	struct rerr e;
	struct mtok t;
	for (int i = 0; i < ngames; i++) {
		const struct game *g = games[i];
		assert_non_null(g->verbs);
		assert_true(g->nverbs > 0);
		for (int k = 0; k < g->nverbs; k++) {
			const struct mt_verb *v = &g->verbs[k];
			const char *shown = v->shown ? v->shown : v->word;
			assert_non_null(v->usage);
			assert_non_null(v->form);
			assert_non_null(v->example);
			assert_int_equal(strncmp(v->form, shown, strlen(shown)), 0);
			assert_int_equal(mt_split(v->example, &t, &e), 0);
			assert_int_equal(mt_verb(g->verbs, g->nverbs, &t, &e), k);
			if (mt_form(v, &t, &e) != 0)
				fail_msg("%s: example '%s': %s", g->slug, v->example, e.msg);
			const char *args[MT_MAX_WORDS];
			int n = 0;
			for (int w = 1; w < t.n; w++)
				if (!(v->link && w == v->link_at))
					args[n++] = t.w[w];
			char out[GAME_MOVE_MAX + 1];
			assert_int_equal(mt_spell(v, args, n, out, sizeof out), (int)strlen(v->example));
			assert_string_equal(out, v->example);
			assert_int_equal(mt_spell(v, args, n, out, strlen(v->example)), -1);   /* no room for the end */
			for (int j = 0; j < k; j++)
				assert_string_not_equal(g->verbs[j].word, v->word);
		}
	}
}

/* A set of dice: rolling rolls only the free dice, from the party's
 * generator (the same seed rolls the same); keeping, going away and coming
 * back; picking dice by their faces; text, view and snapshot; check(). */
static void test_dice(void **unused)
{
	(void)unused;
	struct dice d, back;
	struct rng r, r2;
	struct rerr e;
	rng_seed(&r, 7);
	rng_seed(&r2, 7);
	dice_init(&d, 5, 6);
	assert_int_equal(dice_free(&d), 0x1f);
	assert_int_equal(dice_check(&d, 5, 6, &e), 0);
	assert_int_equal(dice_roll(&d, &r), 0x1f);
	for (int i = 0; i < 5; i++) {
		assert_true(d.face[i] >= 1 && d.face[i] <= 6);
		assert_int_equal(d.face[i], rng_die(&r2, 6));   /* the generator's rolls, in order */
	}
	uint8_t first[DICE_MAX];
	memcpy(first, d.face, sizeof first);
	dice_keep(&d, 0x05);
	assert_int_equal(dice_roll(&d, &r), 0x1a);
	assert_int_equal(d.face[0], first[0]);   /* kept dice stay */
	assert_int_equal(d.face[2], first[2]);

	/* faces chosen for a test: 3 5 5 6 1 */
	static const uint8_t f[5] = { 3, 5, 5, 6, 1 };
	memcpy(d.face, f, sizeof f);
	d.kept = 0x1f;
	assert_int_equal(dice_count(&d, 0x1f, 5), 2);
	assert_int_equal(dice_count(&d, 0x03, 5), 1);
	unsigned got = 0;
	assert_int_equal(dice_pick(&d, 0x1f, (int[]){ 5, 5 }, 2, &got), 0);
	assert_int_equal(got, 0x06);
	assert_int_equal(dice_pick(&d, 0x1f, (int[]){ 5, 5, 5 }, 3, &got), -1);
	assert_int_equal(dice_pick(&d, 0x1b, (int[]){ 5, 5 }, 2, &got), -1);   /* die 2 not among them */
	char txt[32];
	assert_string_equal(dice_text(&d, 0x1f, txt, sizeof txt), "3 5 5 6 1");
	assert_string_equal(dice_text(&d, 0x06, txt, sizeof txt), "5 5");
	assert_string_equal(dice_text(&d, 0x1f, txt, 6), "3 5 5");   /* cut at a whole face */

	dice_away(&d, 0x06);
	assert_int_equal(d.out, 0x06);
	assert_int_equal(d.kept, 0x19);
	assert_int_equal(dice_home(&d), 0x19);
	assert_int_equal(dice_free(&d), 0);
	assert_int_equal(dice_check(&d, 5, 6, &e), 0);

	unsigned char mem[64];
	struct buf b = { mem, 0, sizeof mem, 0 };
	dice_encode(&b, &d);
	assert_int_equal(b.len, 2 + 5 + 2);
	struct de de = { mem, b.len, 0, 0, 0 };
	assert_int_equal(dice_decode(&de, &back), 0);
	assert_int_equal(de.off, b.len);
	assert_memory_equal(&back, &d, sizeof d);
	mem[0] = DICE_MAX + 1;
	de.off = 0;
	assert_int_equal(dice_decode(&de, &back), -1);

	static struct vtext vt;
	struct view_sink v = vt_sink(&vt);
	dice_view(&d, "dice", &v);
	assert_non_null(strstr(vt.s, "[dice\nindex=1\nface=5\nrolled?1\nunrolled?0\nkept?0\nout?1\n]\n"));
	assert_non_null(strstr(vt.s, "[dice\nindex=4\nface=1\nrolled?1\nunrolled?0\nkept?1\nout?0\n]\n"));

	struct dice g = d;
	dice_gather(&g);
	assert_int_equal(g.kept, 0);
	assert_int_equal(g.out, 0x06);
	assert_int_equal(g.face[0], 0);
	assert_int_equal(g.face[1], 5);   /* away on a card: it keeps its face */
	assert_int_equal(dice_check(&g, 5, 6, &e), 0);
	dice_back(&d, 0x02);
	assert_int_equal(d.out, 0x04);
	assert_int_equal(d.face[1], 0);   /* back unrolled and free */
	assert_int_equal(dice_free(&d), 0x02);
	dice_reset(&d);
	assert_int_equal(dice_free(&d), 0x1f);
	assert_int_equal(d.face[3], 0);

	/* what check() refuses */
	memcpy(d.face, f, sizeof f);
	assert_int_equal(dice_check(&d, 5, 6, &e), 0);
	assert_int_equal(dice_check(&d, 4, 6, &e), -1);
	struct dice x = d;
	x.face[2] = 7;
	assert_int_equal(dice_check(&x, 5, 6, &e), -1);   /* no such face */
	x = d;
	x.kept = x.out = 0x01;
	assert_int_equal(dice_check(&x, 5, 6, &e), -1);   /* kept and away */
	x = d;
	x.kept = 0x20;
	assert_int_equal(dice_check(&x, 5, 6, &e), -1);   /* a sixth die */
	x = d;
	x.face[0] = 0;
	x.kept = 0x01;
	assert_int_equal(dice_check(&x, 5, 6, &e), -1);   /* kept before it was rolled */
	x = d;
	x.face[6] = 2;
	assert_int_equal(dice_check(&x, 5, 6, &e), -1);   /* a face beyond the set */
}

/* A party's result: places by points (ties share, the next place is
 * skipped) unless the game gives its own places. */
static void test_party_result_places(void **unused)
{
	(void)unused;
	struct status st;
	struct party_result r;
	memset(&st, 0, sizeof st);
	st.over = 1;
	int score[4] = { -3, 5, 5, 0 };
	memcpy(st.score, score, sizeof score);
	party_result(&st, 4, &r);
	assert_int_equal(r.place[0], 4);
	assert_int_equal(r.place[1], 1);
	assert_int_equal(r.place[2], 1);
	assert_int_equal(r.place[3], 3);
	assert_int_equal(r.points[0], -3);
	assert_int_equal(r.points[3], 0);
	/* a game's own order wins over its points */
	int own[4] = { 2, 1, 4, 3 };
	memcpy(st.place, own, sizeof own);
	party_result(&st, 4, &r);
	assert_memory_equal(r.place, own, sizeof own);
	assert_int_equal(r.points[1], 5);
	assert_int_equal(party_winner(&r, 4), 1);
	/* the seats that resigned count as last; the others close up */
	party_resigned_last(&r, 4, 1u << 1);
	int after[4] = { 1, 4, 3, 2 };
	assert_memory_equal(r.place, after, sizeof after);
	assert_int_equal(party_winner(&r, 4), 0);
	party_resigned_last(&r, 4, (1u << 0) | (1u << 2));
	int both[4] = { 3, 2, 3, 1 };
	assert_memory_equal(r.place, both, sizeof both);
	/* a shared first place has no single winner */
	int shared[4] = { 1, 1, 3, 4 };
	memcpy(r.place, shared, sizeof shared);
	assert_int_equal(party_winner(&r, 4), -1);
}

/* What a sink was given last: the text, and for a translating sink the
 * format, its arguments and their number. */
struct said {
	char de[600], fmt[600], args[600];
	int nargs, calls;
};

static void said_str(void *ctx, const char *key, const char *val)
{
	struct said *w = ctx;
	(void)key;
	snprintf(w->de, sizeof w->de, "%s", val);
	w->calls++;
}

/* The bytes of n NUL-ended arguments. */
static size_t args_len(const char *args, int n)
{
	size_t len = 0;
	for (int i = 0; i < n; i++)
		len += strlen(args + len) + 1;
	return len;
}

static void said_text(void *ctx, const char *key, const char *fmt, const char *args,
		      int nargs, const char *de)
{
	struct said *w = ctx;
	(void)key;
	snprintf(w->de, sizeof w->de, "%s", de);
	snprintf(w->fmt, sizeof w->fmt, "%s", fmt);
	size_t len = args_len(args, nargs);   /* the arguments' bytes, not the sink's buffer */
	memcpy(w->args, args, len < sizeof w->args ? len : sizeof w->args);
	w->nargs = nargs;
	w->calls++;
}


/* evlog_textf and vtextf give a sink the same: the formatted German text
 * (the format split once, then from the memo), and a translating sink the
 * same format and arguments. */
#define SAME_AS_VTEXTF(...) do {                                                  \
	struct said a = { 0 }, b = { 0 };                                          \
	struct view_sink va = { .str = said_str, .ctx = &a };                      \
	struct view_sink vb = { .str = said_str, .ctx = &b };                      \
	for (int k = 0; k < 2; k++) {   /* the second time from the memo */       \
		evlog_textf(&va, "text", __VA_ARGS__);                             \
		vtextf(&vb, "text", __VA_ARGS__);                                  \
		assert_string_equal(a.de, b.de);                                   \
		assert_int_equal(a.calls, b.calls);                                \
	}                                                                          \
	va.text = vb.text = said_text;                                             \
	evlog_textf(&va, "text", __VA_ARGS__);                                     \
	vtextf(&vb, "text", __VA_ARGS__);                                          \
	assert_string_equal(a.de, b.de);                                           \
	assert_string_equal(a.fmt, b.fmt);                                         \
	assert_int_equal(a.nargs, b.nargs);                                        \
	assert_memory_equal(a.args, b.args, args_len(a.args, a.nargs));            \
} while (0)

static void test_log_sentence_as_vtextf(void **unused)
{
	(void)unused;
	char long_label[700];
	memset(long_label, 'x', sizeof long_label - 1);
	long_label[sizeof long_label - 1] = '\0';
	SAME_AS_VTEXTF("@%d legt %s an e%d, e%d und e%d an und verbindet sie.", 2,
		       "3 grün · voll · Welle", 1, 12, 4);
	SAME_AS_VTEXTF("Zug %d: @%d hat das Deck.", 7, 0);
	SAME_AS_VTEXTF("%d%d%s%s", INT_MIN, INT_MAX, "", "ä");
	SAME_AS_VTEXTF("%s am Anfang, %d am Ende %d", "Text", -5, 0);
	SAME_AS_VTEXTF("ohne Umwandlung");
	SAME_AS_VTEXTF("@%d: %s (zu lang, gekürzt wie vtextf)", 1, long_label);
	SAME_AS_VTEXTF("nicht nur %%d und %%s: %u, %5d, %%", 3u, 42);
	SAME_AS_VTEXTF("%d %d %d %d %d %d %d %d %d %d %d %d %d (mehr Teile)", 1, 2, 3, 4, 5, 6,
		       7, 8, 9, 10, 11, 12, 13);
	SAME_AS_VTEXTF("Ein Format, dessen Text länger ist, als der Speicher eines Formats fasst "
		       "(224 Bytes): %d, dann noch mehr Text, damit es sicher reicht, und noch "
		       "mehr und noch mehr und noch mehr Text, %s, und noch viel mehr Text, "
		       "bis es endlich zu Ende ist.", 5, "ä");
}

/* The shared event log: a bounded ring, oldest dropped; its snapshot form
 * with and without lists; what evlog_check refuses. */
static void test_event_log(void **unused)
{
	(void)unused;
	static struct evlog l, back;
	memset(&l, 0, sizeof l);
	for (int i = 0; i < 7; i++) {
		struct game_event *e = evlog_push(&l, 5, i % 3, i == 6 ? -1 : i % 4);
		assert_int_equal(e->card, EVENT_NO_CARD);
		e->where = 2;
		e->num = (uint16_t)(100 + i);
		e->n = 2;
		e->list[0] = 7;
		e->list[1] = (uint8_t)i;
	}
	assert_int_equal(l.n, 5);
	assert_int_equal(l.ev[0].num, 102);   /* 100 and 101 were dropped */
	assert_int_equal(l.ev[4].num, 106);
	assert_int_equal(l.ev[4].seat, EVENT_NOBODY);
	struct rerr e;
	assert_int_equal(evlog_check(&l, 5, 3, 4, &e), 0);
	assert_int_equal(evlog_check(&l, 4, 3, 4, &e), -1);   /* over the cap */
	assert_int_equal(evlog_check(&l, 5, 2, 4, &e), -1);   /* a type 2 */
	assert_int_equal(evlog_check(&l, 5, 3, 3, &e), -1);   /* seat 3 of 3 */

	unsigned char mem[512];
	for (int lists = 0; lists < 2; lists++) {
		struct buf b = { mem, 0, sizeof mem, 0 };
		evlog_encode(&b, &l, lists);
		assert_int_equal(b.len, 1 + 5 * (8 + (lists ? 3 : 0)));
		struct de d = { mem, b.len, 0, 0, 0 };
		assert_int_equal(evlog_decode(&d, &back, 5, lists), 0);
		assert_int_equal(d.off, b.len);
		assert_int_equal(back.n, 5);
		for (int i = 0; i < 5; i++) {
			assert_int_equal(back.ev[i].num, l.ev[i].num);
			assert_int_equal(back.ev[i].seat, l.ev[i].seat);
			assert_int_equal(back.ev[i].n, lists ? 2 : 0);
			if (lists)
				assert_int_equal(back.ev[i].list[1], l.ev[i].list[1]);
		}
		d.off = 0;
		assert_int_equal(evlog_decode(&d, &back, 4, lists), -1);   /* 5 > cap 4 */
	}
	/* a list longer than EVENT_LIST_MAX */
	struct buf b = { mem, 0, sizeof mem, 0 };
	l.n = 1;
	l.ev[0].n = EVENT_LIST_MAX;
	evlog_encode(&b, &l, 1);
	mem[9] = EVENT_LIST_MAX + 1;
	struct de d = { mem, b.len, 0, 0, 0 };
	assert_int_equal(evlog_decode(&d, &back, 5, 1), -1);
}

/* What a prompt_tick() expiry did, for test_prompts. */
struct expired {
	int calls, kind;
	int64_t now;
};

static void note_expiry(void *ctx, struct prompt *p, int64_t now)
{
	struct expired *x = ctx;
	x->calls++;
	x->kind = p->kind;
	x->now = now;
}

/* The prompt stack: the live prompt answers who may act and until when; a
 * prompt pushed over another interrupts it; a late clock starts at the
 * first request; the snapshot round-trips; check() finds what is wrong. */
static void test_prompts(void **unused)
{
	(void)unused;
	struct prompts ps, back;
	struct status st;
	struct rerr e;
	struct expired x = { 0, 0, 0 };
	memset(&ps, 0, sizeof ps);
	assert_null(prompt_top(&ps));
	assert_int_equal(prompt_kind(&ps), 0);
	assert_int_equal(prompt_tick(&ps, 5000, note_expiry, &x), 0);

	struct prompt *t = prompt_push(&ps, 1, 1u << 2);
	t->owner = 2;
	prompt_status(&ps, &st);
	assert_int_equal(st.to_act, 1u << 2);
	assert_int_equal(st.deadline, 0);
	assert_int_equal(st.window, 0);
	assert_true(prompt_waits(&ps, 2));
	assert_false(prompt_waits(&ps, 1));

	/* a window over the turn, with a clock that starts later */
	struct prompt *w = prompt_push(&ps, 2, 0x0b);
	w->flags |= PROMPT_WINDOW;
	prompt_later(w, 10);
	assert_int_equal(prompt_check(&ps, 3, 4, &e), 0);
	prompt_status(&ps, &st);
	assert_int_equal(st.to_act, 0x0b);
	assert_int_equal(st.window, 0x0b);
	assert_int_equal(st.deadline, 0);
	assert_int_equal(prompt_tick(&ps, 1000, note_expiry, &x), 1);   /* the clock starts */
	assert_int_equal(prompt_peek(&ps)->deadline, 11000);
	assert_int_equal(prompt_tick(&ps, 10999, note_expiry, &x), 0);
	assert_int_equal(x.calls, 0);
	assert_int_equal(prompt_done(&ps, 0), 0);
	prompt_drop_seat(&ps, 3);
	assert_int_equal(prompt_peek(&ps)->waiting, 0x02);
	assert_int_equal(prompt_peek(&ps)->seats, 0x0b);   /* whom it was for stays */
	assert_int_equal(prompt_owner(&ps, 1), 2);
	assert_int_equal(prompt_owner(&ps, 3), -1);
	assert_ptr_equal(prompt_find(&ps, 1), &ps.p[0]);

	unsigned char mem[256];
	struct buf b = { mem, 0, sizeof mem, 0 };
	prompt_encode(&b, &ps);
	assert_int_equal(b.len, 1 + 2 * 18);
	struct de d = { mem, b.len, 0, 0, 0 };
	assert_int_equal(prompt_decode(&d, &back), 0);
	assert_int_equal(d.off, b.len);
	assert_memory_equal(&back, &ps, sizeof ps);
	mem[0] = PROMPT_DEPTH + 1;
	d.off = 0;
	assert_int_equal(prompt_decode(&d, &back), -1);

	assert_int_equal(prompt_tick(&ps, 11000, note_expiry, &x), 1);
	assert_int_equal(x.calls, 1);
	assert_int_equal(x.kind, 2);
	assert_int_equal(x.now, 11000);
	assert_int_equal(prompt_peek(&ps)->deadline, 0);   /* cleared before the expiry */
	prompt_pop(&ps);
	assert_int_equal(prompt_kind(&ps), 1);
	prompt_status(&ps, &st);
	assert_int_equal(st.to_act, 1u << 2);
	assert_int_equal(prompt_done(&ps, 2), 1);

	/* what check() refuses */
	struct prompts bad;
	memcpy(&bad, &ps, sizeof bad);
	assert_int_equal(prompt_check(&bad, 2, 4, &e), 0);
	assert_int_equal(prompt_check(&bad, 1, 4, &e), -1);   /* kind 1 of 1 */
	bad.p[0].owner = 4;
	assert_int_equal(prompt_check(&bad, 2, 4, &e), -1);   /* owner not at the table */
	memcpy(&bad, &ps, sizeof bad);
	bad.p[0].waiting = 1u << 3;
	assert_int_equal(prompt_check(&bad, 2, 4, &e), -1);   /* waiting, but not for it */
	memcpy(&bad, &ps, sizeof bad);
	bad.p[0].seats = 1u << 5;
	assert_int_equal(prompt_check(&bad, 2, 4, &e), -1);   /* seat 5 of 4 */
	memcpy(&bad, &ps, sizeof bad);
	bad.p[0].flags = 8;
	assert_int_equal(prompt_check(&bad, 2, 4, &e), -1);   /* unknown flag */
	memcpy(&bad, &ps, sizeof bad);
	prompt_later(&bad.p[0], 5);
	bad.p[0].deadline = 7;
	assert_int_equal(prompt_check(&bad, 2, 4, &e), -1);   /* a late clock with a deadline */
	memcpy(&bad, &ps, sizeof bad);
	prompt_push(&bad, 1, 1);
	prompt_later(&bad.p[0], 5);
	assert_int_equal(prompt_check(&bad, 2, 4, &e), -1);   /* a late clock below the top */
	memcpy(&bad, &ps, sizeof bad);
	bad.p[2].kind = 1;
	assert_int_equal(prompt_check(&bad, 2, 4, &e), -1);   /* beyond the stack */
	prompt_clear(&ps);
	assert_int_equal(ps.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rng_same_seed_same_sequence),
		cmocka_unit_test(test_rng_known_answer),
		cmocka_unit_test(test_rng_below_in_range_and_uniform),
		cmocka_unit_test(test_shuffle_is_a_permutation),
		cmocka_unit_test(test_pile_push_pop_capacity),
		cmocka_unit_test(test_pile_remove_under_reverse),
		cmocka_unit_test(test_view_format_is_vsnprintf),
		cmocka_unit_test(test_crc32_known_answers),
		cmocka_unit_test(test_snapshot_envelope_round_trip),
		cmocka_unit_test(test_snapshot_envelope_rejects_damage),
		cmocka_unit_test(test_buffer_overflow_is_reported),
		cmocka_unit_test(test_de_u16s_refuses_more_than_capacity),
		cmocka_unit_test(test_movetext_splits_and_folds_case),
		cmocka_unit_test(test_movetext_rejects_bad_input),
		cmocka_unit_test(test_movetext_strict_integers),
		cmocka_unit_test(test_movetext_clip_keeps_utf8_whole),
		cmocka_unit_test(test_options_defaults_set_format_parse),
		cmocka_unit_test(test_options_reject_bad_values),
		cmocka_unit_test(test_seats_rotate_clockwise),
		cmocka_unit_test(test_deadlines),
		cmocka_unit_test(test_match_totals_ties_share_the_win),
		cmocka_unit_test(test_party_result_places),
		cmocka_unit_test(test_games_describe_themselves),
		cmocka_unit_test(test_verb_tables),
		cmocka_unit_test(test_perft_counts_listed_moves),
		cmocka_unit_test(test_event_log),
		cmocka_unit_test(test_log_sentence_as_vtextf),
		cmocka_unit_test(test_prompts),
		cmocka_unit_test(test_dice),
	};
	return cmocka_run_group_tests_name("core", tests, NULL, NULL);
}
