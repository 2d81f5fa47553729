/*
 * gen.c — prepares the databases that `make bench` measures.
 *
 *   gen setup   --db FILE --schema DIR --list OUT [--move-need N] [--opt SLUG:KEY=VALUE]...
 *   gen moves   --db FILE --schema DIR --list FILE --need N --out-dir DIR
 *   gen history --db FILE --schema DIR --parties N
 *   gen scale   --db FILE --schema DIR --list FILE [--opt SLUG:KEY=VALUE]...
 *
 * setup: ten users with one session each; for every registered game one
 * "page" table played by random legal moves to the middle of a party (a
 * fixed number of moves per game, page_moves[] below, then on until no
 * window is open, so that nothing changes by itself while the page and the
 * poll are measured), and enough "move" tables, just dealt, for N moves per
 * game (a table gives about a third of an average party before its end
 * comes near). Everything goes through the party engine (cgi/engine/) as a
 * browser's requests would. OUT lists what the bench needs:
 *   user IDX USER_ID TOKEN CSRF
 *   page SLUG TABLE_ID VERSION USER_IDX
 *   mtable SLUG TABLE_ID
 *
 * moves: run on a copy of the setup database. Plays the move tables forward,
 * one step per table in turn, through play_move() exactly as the server
 * will, and writes each step as a request for wrk.lua into
 * DIR/moves-SLUG.tsv (slot, table, path, cookie, body), at least N per game
 * when the tables have room. Each step is a legal move of a seat that may
 * act, sent with the version it was made at; a step that would end the party
 * is never chosen (the next party's seed is random, so its moves could not be
 * known in advance), and tables stop before that. On the server the same
 * steps arrive in the same order per table, so they are legal there too: the
 * rules are deterministic, no window is left to expire (the tables use the
 * longest window the options allow) and wrk.lua keeps every table on one
 * wrk thread, sending its steps many requests apart.
 *
 * history: adds N finished parties to the database directly with SQLite
 * (one transaction, no journal), on finished tables of 1000 extra users:
 * the real final snapshots, scores and complete move logs of random parties
 * played by the rules core, reused round-robin. The sample logs go into a
 * temporary table once; each party's log is then one INSERT … SELECT.
 *
 * scale: the data of the scale rows, through the store API (and the party
 * engine for the tables that run), appended to the list: a finished Swiss
 * tournament of 1,000 players over 10 rounds of drehwurm at tables of 4
 * (seated by pairing_swiss, 2,500 finished tables, 10,000 result rows, the
 * standings saved), a session for the player listed 501st (whose page
 * shows "my row" below the first page of the standings), and a user
 * "scale-me" with a session at 200 tables: 150 finished, 40 running and 10
 * open, of every game in turn. Lines:
 *   user IDX USER_ID TOKEN CSRF        (IDX 10 and 11: after the setup's)
 *   tourney TOURNEY_ID USER_IDX
 *   me200 USER_IDX
 *
 * Pinned positions: every run of gen, at every commit, builds the same
 * tables, so that the instruction counts of the page, the JSON and the move
 * compare across runs and commits. The party engine deals with libsodium's
 * randombytes (the deal's seed, the first dealer); in this program that is
 * a deterministic stream (det_random below) that is reseeded from the
 * game's slug before each table, and the random moves come from a
 * generator seeded the same way. So the page table of game SLUG is: deal
 * and first dealer from the stream seeded seed_of(SLUG, 0), then
 * page_moves[SLUG] moves (seats and moves from rng_seed(seed_of(SLUG, 1))),
 * then on until no window is open; the page tables are made first, before
 * any move table, so they do not depend on how many move tables the run
 * needs. Move table k of a game is dealt from seed_of(SLUG, 1000000 + k)
 * (a window open after the deal is closed with moves from
 * rng_seed(seed_of(SLUG, 3000000 + k))) and `gen moves` plays it with
 * rng_seed(seed_of(SLUG, 2000000 + k)), so the
 * k-th table's moves are the same whatever the number of tables. The same
 * position is reached at another commit as long as the game's rules deal
 * and list moves as they did (the list says each page table's moves and
 * version, the log the hash of its move log, to check that).
 *
 * Exit status 0, or 1 with a message on stderr.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>
#include <sqlite3.h>

#include "auth.h"
#include "game.h"
#include "lexicon.h"
#include "match.h"
#include "options.h"
#include "play.h"
#include "rng.h"
#include "sim.h"
#include "pairing.h"
#include "store.h"
#include "tourney.h"
#include "tournament.h"

extern const struct game *const games[];
extern const int ngames;

enum {
	GEN_USERS = GAME_MAX_SEATS,
	GEN_MAX_OPTS = 32,
	GEN_MAX_TABLES = 100000,
	GEN_SIM_PARTIES = 20,         /* parties that measure a game's average length */
	GEN_SIM_STEPS = 20000,
	GEN_PICK_TRIES = 24,
	GEN_SETTLE_MAX = 400,         /* extra moves to close an open window */
	GEN_STEPS_MAX = 100000,       /* steps per table, at most */
	GEN_HIST_USERS = 1000,
	GEN_HIST_PER_P = 8,           /* sample parties per game and player count */
	GEN_SAMPLE_IDS = 1000         /* sample ids per game */
};

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The clock of the page tables runs this far ahead (page_table): a clock of
 * theirs that never stops (Wurf & Wort's rounds) then runs out a day after
 * the run, not in the middle of it, and their poll answers "unchanged" to
 * the end. Moved as a whole, the same moves are made: a position depends
 * only on how far apart its steps are. */
enum { PAGE_AHEAD_MS = 86400000 };
static int64_t ahead_ms;

/* The time the party engine is given for a table's steps. */
static int64_t table_now(void)
{
	return now_ms() + ahead_ms;
}

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("gen: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return 1;
}

static int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	if (!s || !*s)
		return -1;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || *end != '\0' || v < min || v > max)
		return -1;
	*out = (long)v;
	return 0;
}

/* ---- pinned randomness (see the top of the file) ---- */

/* The moves to the middle of a party on each game's page table: about half
 * of an average random party at the bench's player count, fixed here so that
 * a change of the rules' average does not move the position. A game not
 * listed uses half its average (and the log says so). */
static const struct {
	const char *slug;
	long moves;
} page_moves[] = {
	{ "drehwurm", 62 }, { "dna", 32 }, { "drachenrummy", 88 }, { "wurfwort", 39 },
	{ "worstgame", 212 },
};

static struct rng det_rng;

static const char *det_name(void) { return "bench-deterministic"; }
static uint32_t det_random(void) { return (uint32_t)(rng_next(&det_rng) >> 32); }
static void det_stir(void) { }
static void det_buf(void *const buf, const size_t size)
{
	unsigned char *p = buf;
	for (size_t i = 0; i < size; i += 8) {
		uint64_t v = rng_next(&det_rng);
		memcpy(p + i, &v, size - i < 8 ? size - i : 8);
	}
}
static int det_close(void) { return 0; }

static struct randombytes_implementation det_impl = {
	.implementation_name = det_name,
	.random = det_random,
	.stir = det_stir,
	.uniform = NULL,
	.buf = det_buf,
	.close = det_close,
};

/* FNV-1a of the slug, mixed with n: the seed of one table's randomness. */
static uint64_t seed_of(const char *slug, uint64_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (const unsigned char *p = (const unsigned char *)slug; *p; p++)
		h = (h ^ *p) * 0x100000001b3ULL;
	return h ^ (n * 0x9e3779b97f4a7c15ULL);
}

/* From here on randombytes (the deals, tokens, salts) comes from seed. */
static void det_reseed(uint64_t seed)
{
	rng_seed(&det_rng, seed);
}

/* ---- options given as SLUG:KEY=VALUE ---- */

struct gen_opts {
	const char *arg[GEN_MAX_OPTS];
	int n;
};

/* The option text for game g: its defaults with every SLUG:KEY=VALUE for it. */
static int options_for(const struct game *g, const struct gen_opts *o, char *out, size_t cap)
{
	int opt[GAME_OPT_MAX];
	struct rerr e;
	size_t sl = strlen(g->slug);
	options_default(g, opt);
	for (int i = 0; i < o->n; i++) {
		const char *a = o->arg[i];
		if (strncmp(a, g->slug, sl) != 0 || a[sl] != ':')
			continue;
		char kv[128];
		snprintf(kv, sizeof kv, "%s", a + sl + 1);
		char *eq = strchr(kv, '=');
		if (!eq)
			return fail("option %s: want SLUG:KEY=VALUE", a);
		*eq = '\0';
		if (options_set(g, opt, kv, eq + 1, &e) != 0)
			return fail("option %s: %s", a, e.msg);
	}
	if (options_format(g, opt, out, cap) != 0)
		return fail("options of %s do not fit", g->slug);
	return 0;
}

/* ---- choosing a legal move that does not end the party ---- */

/* Moves a game does not list because they are typed: a claim of Wurf &
 * Wort is answered with a word (any word is a legal answer; the server
 * and this program look it up in the lexicon and write what they found
 * into the move, ww_annotate). Where the game lists `listed` (the
 * claimer's "withdraw"), one of these words is answered instead, so the
 * prepared moves name words, are voted on and score like a real round. */
static const struct {
	const char *slug, *listed, *verb;
} typed[] = { { "wurfwort", "withdraw", "answer" } };

static const char *const typed_words[] = {
	"Haus", "Baum", "Garten", "Wasser", "Apfel", "Tisch", "Fenster", "Blume", "Sonne",
	"Kirche", "Wolke", "Strasse", "Hund", "Katze", "Schule", "Vogel", "Brot", "Lampe",
};

/* Set by `gen moves` only: the page and scale tables play as they did. */
static int typing;

/* Replaces a listed placeholder move in *move (cap bytes) by a typed one
 * (typed[]) while `typing`; draws from rng only then, so other games'
 * moves stay as they were. */
static void typed_move(const struct game *g, struct rng *rng, char *move, size_t cap)
{
	for (size_t i = 0; typing && i < sizeof typed / sizeof typed[0]; i++)
		if (strcmp(typed[i].slug, g->slug) == 0 && strcmp(typed[i].listed, move) == 0) {
			size_t n = sizeof typed_words / sizeof typed_words[0];
			snprintf(move, cap, "%s %s", typed[i].verb,
				 typed_words[rng_next(rng) % n]);
			return;
		}
}

/* A random seat that may act and a random legal move of it, such that the
 * party goes on after it (tried on a copy in tmp). 0, or -1 when none found. */
static int choose(const struct game *g, const void *st, const struct status *stt,
		  struct rng *rng, void *tmp, int64_t now, int *seat, char *move)
{
	if (!stt->to_act || stt->over)
		return -1;
	for (int t = 0; t < GEN_PICK_TRIES; t++) {
		int s = sim_random_seat(rng, stt->to_act);
		struct sim_pick p = { .rng = rng };
		g->moves(st, s, sim_pick_emit, &p);
		if (!p.seen)
			continue;
		typed_move(g, rng, p.chosen, sizeof p.chosen);
		struct rerr e;
		struct status after;
		memcpy(tmp, st, g->state_size);
		if (g->apply(tmp, s, p.chosen, now, &e) != 0)
			continue;
		g->status(tmp, &after);
		if (after.over)
			continue;
		*seat = s;
		snprintf(move, GAME_MOVE_MAX + 1, "%s", p.chosen);
		return 0;
	}
	return -1;
}

/* ---- setup ---- */

struct user {
	int64_t id;
	char token[AUTH_TOKEN_LEN + 1];
	char csrf[AUTH_TOKEN_LEN + 1];
};

static int user_index(const struct user *u, int n, int64_t id)
{
	for (int i = 0; i < n; i++)
		if (u[i].id == id)
			return i;
	return -1;
}

/* Average moves of a random party of g with p players (rules core only). */
static long average_moves(const struct game *g, int p, const int *opt)
{
	struct sim_mem mem = {
		.state = calloc(1, g->state_size),
		.replay = calloc(1, g->state_size),
		.log = calloc(GEN_SIM_STEPS, sizeof(struct sim_step)),
		.max_steps = GEN_SIM_STEPS,
		.snap_a = malloc(GAME_SNAPSHOT_MAX),
		.snap_b = malloc(GAME_SNAPSHOT_MAX),
	};
	long total = 0;
	if (mem.state && mem.replay && mem.log && mem.snap_a && mem.snap_b) {
		for (int i = 0; i < GEN_SIM_PARTIES; i++) {
			struct setup s = { .nplayers = p, .dealer = 0, .seed = 7000u + (uint64_t)i };
			memcpy(s.opt, opt, sizeof s.opt);
			struct sim_result r;
			sim_party(g, &s, s.seed ^ 0xbe9cULL, &mem, &r);
			total += r.moves;
		}
	}
	free(mem.state);
	free(mem.replay);
	free(mem.log);
	free(mem.snap_a);
	free(mem.snap_b);
	return total / GEN_SIM_PARTIES;
}

/* One step on table tid: load, choose, move. 0 done, 1 nothing left, -1 error.
 * The version the move was made at goes to *v, the acting user to *uidx. */
static int step(struct store *s, const struct user *u, int64_t tid, struct rng *rng,
		void **tmp, size_t *tmpsz, int64_t *v, int *uidx, char *move, int need_calm)
{
	struct play_table pt;
	int64_t now = table_now();
	if (play_load(s, tid, u[0].id, now, &pt) != PLAY_OK)
		return -1;
	int rc = 1;
	if (!pt.has_party || !pt.state || pt.t.status != TABLE_PLAYING)
		goto out;
	if (need_calm && pt.status.deadline == 0) {
		rc = 2;
		goto out;
	}
	if (*tmpsz < pt.g->state_size) {
		free(*tmp);
		*tmp = malloc(pt.g->state_size);
		*tmpsz = *tmp ? pt.g->state_size : 0;
		if (!*tmp) {
			rc = -1;
			goto out;
		}
	}
	int seat;
	if (choose(pt.g, pt.state, &pt.status, rng, *tmp, now, &seat, move) != 0)
		goto out;
	int64_t who = -1;
	for (int i = 0; i < pt.nseated; i++)
		if (pt.seats[i].seat == seat)
			who = pt.seats[i].user_id;
	*uidx = user_index(u, GEN_USERS, who);
	if (*uidx < 0) {
		rc = -1;
		goto out;
	}
	*v = pt.t.version;
	struct rerr e;
	int prc = play_move(s, tid, who, move, pt.t.version, now, &e);
	if (prc != PLAY_OK) {
		fprintf(stderr, "gen: table %lld seat %d '%s': %s %s\n", (long long)tid, seat,
			move, play_message(prc), e.msg);
		rc = -1;
		goto out;
	}
	rc = 0;
out:
	play_free(&pt);
	return rc;
}

/* FNV-1a over the moves made (acting user and text), and their count: what
 * says that two runs reached the same position. */
struct trail {
	uint64_t hash;
	long n;
};

static void trail_add(struct trail *t, int uidx, const char *move)
{
	if (!t)
		return;
	t->hash = (t->hash ^ (uint64_t)(unsigned)uidx) * 0x100000001b3ULL;
	for (const unsigned char *p = (const unsigned char *)move; *p; p++)
		t->hash = (t->hash ^ *p) * 0x100000001b3ULL;
	t->hash = (t->hash ^ 0xffu) * 0x100000001b3ULL;
	t->n++;
}

/* Moves on tid until `moves` are made and no window is open (at most
 * `settle` more moves for that). */
static int advance(struct store *s, const struct user *u, int64_t tid, long moves,
		   long settle, struct rng *rng, void **tmp, size_t *tmpsz, struct trail *tr)
{
	int64_t v;
	int uidx;
	char move[GAME_MOVE_MAX + 1];
	for (long i = 0; i < moves + settle; i++) {
		int rc = step(s, u, tid, rng, tmp, tmpsz, &v, &uidx, move, i >= moves);
		if (rc == 2)
			return 0;
		if (rc != 0)
			return rc < 0 ? -1 : 0;
		trail_add(tr, uidx, move);
	}
	fprintf(stderr, "gen: table %lld still has a window open\n", (long long)tid);
	return 0;
}

static int new_table(struct store *s, const struct game *g, const char *opts, int p,
		     const struct user *u, int64_t *tid)
{
	struct rerr e;
	int64_t now = table_now();
	if (play_create(s, g->slug, opts, p, u[0].id, now, tid, &e) != PLAY_OK)
		return fail("create %s (%s): %s", g->slug, opts, e.msg);
	for (int i = 1; i < p; i++)
		if (play_join(s, *tid, u[i].id, now, &e) != PLAY_OK)
			return fail("join %s table %lld: %s", g->slug, (long long)*tid, e.msg);
	return 0;
}

/* The games whose play is windows from the deal to the end (Wurf & Wort:
 * every round is a race, then an answer, then a vote, each with its
 * deadline), so a move table never settles: it is left as dealt, in its
 * first window, and dealt with the clock a day ahead (as the page tables
 * are played) so that the window runs out a day after the run, not while
 * the bench waits to send its first move. */
static const char *const windows_only[] = { "wurfwort" };

static int never_calm(const struct game *g)
{
	for (size_t i = 0; i < sizeof windows_only / sizeof windows_only[0]; i++)
		if (strcmp(windows_only[i], g->slug) == 0)
			return 1;
	return 0;
}

static int bench_players(const struct game *g)
{
	int p = 4;
	if (p < g->min_players)
		p = g->min_players;
	if (p > g->max_players)
		p = g->max_players;
	return p;
}

/* Half the moves of an average party, unless page_moves[] pins them. */
static long moves_to_middle(const struct game *g, int p, const int *opt, int *pinned)
{
	for (size_t i = 0; i < sizeof page_moves / sizeof page_moves[0]; i++)
		if (strcmp(page_moves[i].slug, g->slug) == 0) {
			*pinned = 1;
			return page_moves[i].moves;
		}
	*pinned = 0;
	return average_moves(g, p, opt) / 2;
}

/* Game g's page table, pinned (see the top of the file); one "page" line. */
static int page_table(struct store *s, const struct game *g, const char *opts, const int *opt,
		      const struct user *u, FILE *f, void **tmp, size_t *tmpsz)
{
	int p = bench_players(g), pinned;
	long mid = moves_to_middle(g, p, opt, &pinned);
	struct rng rng;
	struct trail tr = { 0xcbf29ce484222325ULL, 0 };
	int64_t tid;
	det_reseed(seed_of(g->slug, 0));
	rng_seed(&rng, seed_of(g->slug, 1));
	ahead_ms = PAGE_AHEAD_MS;
	int rc = new_table(s, g, opts, p, u, &tid) != 0 ? 1
		 : advance(s, u, tid, mid, GEN_SETTLE_MAX, &rng, tmp, tmpsz, &tr) != 0
		 ? fail("%s: cannot reach the middle of a party", g->slug) : 0;
	ahead_ms = 0;
	if (rc != 0)
		return rc;
	struct play_table pt;
	if (play_load(s, tid, u[0].id, now_ms(), &pt) != PLAY_OK)
		return fail("%s: cannot load table %lld", g->slug, (long long)tid);
	fprintf(f, "page %s %lld %lld 0\n", g->slug, (long long)tid, (long long)pt.t.version);
	fprintf(stderr, "gen: %s page table %lld: %d players, %ld moves in (%s), %ld made,"
		" version %lld, moves hash %016llx\n", g->slug, (long long)tid, p, mid,
		pinned ? "pinned" : "NOT pinned: half the average", tr.n,
		(long long)pt.t.version, (unsigned long long)tr.hash);
	play_free(&pt);
	return 0;
}

/* The options of g as text (defaults with --opt) and parsed. */
static int game_opts(const struct game *g, const struct gen_opts *o, char *opts, size_t cap,
		     int *opt)
{
	struct rerr e;
	if (options_for(g, o, opts, cap) != 0)
		return 1;
	options_default(g, opt);
	options_parse(g, opt, opts, &e);
	return 0;
}

static int cmd_setup(struct store *s, const char *list, long need, const struct gen_opts *o)
{
	struct user u[GEN_USERS];
	int64_t now = now_ms();
	FILE *f = fopen(list, "w");
	if (!f)
		return fail("cannot write %s", list);
	det_reseed(seed_of("users", 0));
	for (int i = 0; i < GEN_USERS; i++) {
		char name[32];
		snprintf(name, sizeof name, "bench-%d", i);
		if (auth_register(s, name, "bench-password-1", now, &u[i].id) != AUTH_OK)
			return fail("register %s", name);
		if (auth_session_new(s, u[i].id, now, u[i].token, u[i].csrf) != AUTH_OK)
			return fail("session for %s", name);
		fprintf(f, "user %d %lld %s %s\n", i, (long long)u[i].id, u[i].token, u[i].csrf);
	}
	void *tmp = NULL;
	size_t tmpsz = 0;
	char opts[ST_OPTS_MAX + 1];
	int opt[GAME_OPT_MAX];
	/* All page tables first: their ids and positions do not depend on need. */
	for (int gi = 0; gi < ngames; gi++)
		if (game_opts(games[gi], o, opts, sizeof opts, opt) != 0 ||
		    page_table(s, games[gi], opts, opt, u, f, &tmp, &tmpsz) != 0)
			return 1;
	for (int gi = 0; gi < ngames; gi++) {
		const struct game *g = games[gi];
		if (game_opts(g, o, opts, sizeof opts, opt) != 0)
			return 1;
		int p = bench_players(g);
		long avg = average_moves(g, p, opt);
		long per = avg / 3 > 3 ? avg / 3 : 3;
		long mtables = (need + per - 1) / per;
		if (mtables > GEN_MAX_TABLES / ngames)
			mtables = GEN_MAX_TABLES / ngames;
		fprintf(stderr, "gen: %s: %ld move tables\n", g->slug, mtables);
		for (long k = 0; k < mtables; k++) {
			int64_t tid;
			struct rng rng;
			det_reseed(seed_of(g->slug, 1000000 + (uint64_t)k));
			rng_seed(&rng, seed_of(g->slug, 3000000 + (uint64_t)k));
			int windows = never_calm(g);
			ahead_ms = windows ? PAGE_AHEAD_MS : 0;
			int rc = new_table(s, g, opts, p, u, &tid);
			if (rc == 0 && advance(s, u, tid, 0, windows ? 0 : GEN_SETTLE_MAX, &rng, &tmp,
					       &tmpsz, NULL) != 0)
				rc = fail("%s: move table %lld", g->slug, (long long)tid);
			ahead_ms = 0;
			if (rc != 0)
				return 1;
			fprintf(f, "mtable %s %lld\n", g->slug, (long long)tid);
		}
	}
	free(tmp);
	if (fclose(f) != 0)
		return fail("cannot write %s", list);
	return 0;
}

/* ---- moves ---- */

static void urlencode(const char *in, char *out, size_t cap)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = 0;
	for (const unsigned char *p = (const unsigned char *)in; *p && n + 4 < cap; p++) {
		unsigned char c = *p;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '-' || c == '_' || c == '.' || c == '~') {
			out[n++] = (char)c;
		} else {
			out[n++] = '%';
			out[n++] = hex[c >> 4];
			out[n++] = hex[c & 15];
		}
	}
	out[n] = '\0';
}

struct mtab {
	char slug[ST_SLUG_MAX + 1];
	int64_t id;
	int done;
};

static int cmd_moves(struct store *s, const char *list, long need, const char *dir)
{
	static struct mtab t[GEN_MAX_TABLES];
	struct user u[GEN_USERS];
	int nt = 0, nu = 0;
	char line[512];
	FILE *f = fopen(list, "r");
	if (!f)
		return fail("cannot read %s", list);
	while (fgets(line, sizeof line, f)) {
		int idx;
		long long id;
		char a[64], b[64], slug[ST_SLUG_MAX + 1];
		if (sscanf(line, "user %d %lld %63s %63s", &idx, &id, a, b) == 4 && idx >= 0 &&
		    idx < GEN_USERS && nu == idx) {
			u[nu].id = id;
			snprintf(u[nu].token, sizeof u[nu].token, "%.43s", a);
			snprintf(u[nu].csrf, sizeof u[nu].csrf, "%.43s", b);
			nu++;
		} else if (sscanf(line, "mtable %32s %lld", slug, &id) == 2 && nt < GEN_MAX_TABLES) {
			snprintf(t[nt].slug, sizeof t[nt].slug, "%s", slug);
			t[nt].id = id;
			t[nt].done = 0;
			nt++;
		}
	}
	fclose(f);
	if (nu != GEN_USERS)
		return fail("%s: want %d users, found %d", list, GEN_USERS, nu);

	static struct rng trng[GEN_MAX_TABLES];
	void *tmp = NULL;
	typing = 1;
	/* words are looked up as the server does (the moves it logs), in the
	 * files compiled at build time when they are there (the server's
	 * --root is the checkout): milliseconds instead of a minute */
	lexicon_preload(".");
	play_set_lookup(lexicon_lookup());
	size_t tmpsz = 0;
	for (int gi = 0; gi < ngames; gi++) {
		const char *slug = games[gi]->slug;
		char path[1024];
		snprintf(path, sizeof path, "%s/moves-%s.tsv", dir, slug);
		FILE *out = fopen(path, "w");
		if (!out)
			return fail("cannot write %s", path);
		long made = 0, tables = 0;
		double t0 = mono_s();
		for (long stepno = 0; stepno < GEN_STEPS_MAX && made < need; stepno++) {
			int live = 0;
			for (int i = 0, slot = 0; i < nt && made < need; i++) {
				if (strcmp(t[i].slug, slug) != 0)
					continue;
				int my_slot = slot++;
				if (stepno == 0) {
					/* Table k of the game plays the same moves
					 * whatever the number of tables. */
					rng_seed(&trng[i], seed_of(slug, 2000000 + (uint64_t)my_slot));
					tables++;
				}
				if (t[i].done)
					continue;
				int64_t v;
				int uidx;
				char move[GAME_MOVE_MAX + 1], enc[3 * GAME_MOVE_MAX + 1];
				int rc = step(s, u, t[i].id, &trng[i], &tmp, &tmpsz, &v, &uidx, move, 0);
				if (rc < 0)
					return fail("%s: table %lld: step %ld failed", slug,
						    (long long)t[i].id, stepno);
				if (rc > 0) {
					t[i].done = 1;
					continue;
				}
				live++;
				urlencode(move, enc, sizeof enc);
				fprintf(out, "%d\t%lld\t/t/%lld/move\tst=%s\tmove=%s&v=%lld&csrf=%s\n",
					my_slot, (long long)t[i].id, (long long)t[i].id, u[uidx].token,
					enc, (long long)v, u[uidx].csrf);
				made++;
			}
			if (!live)
				break;
		}
		if (fclose(out) != 0)
			return fail("cannot write %s", path);
		printf("moves %s %ld %ld %.1f\n", slug, made, tables, mono_s() - t0);
	}
	free(tmp);
	return 0;
}

/* ---- history ---- */

struct sample {
	int p, dealer;
	uint64_t seed;
	unsigned char *snap;
	size_t snap_len;
	struct party_result res;   /* stored as rows, like the store does */
	struct sim_step *steps;
	int nsteps;
};

static int exec(sqlite3 *db, const char *sql)
{
	char *err = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
		fail("%s: %s", sql, err ? err : "?");
		sqlite3_free(err);
		return -1;
	}
	return 0;
}

/* Sample parties of g: GEN_HIST_PER_P for each player count. */
static struct sample *make_samples(const struct game *g, int *count)
{
	int np = g->max_players - g->min_players + 1;
	int n = np * GEN_HIST_PER_P;
	struct sample *smp = calloc((size_t)n, sizeof *smp);
	struct sim_mem mem = {
		.state = calloc(1, g->state_size),
		.replay = calloc(1, g->state_size),
		.log = calloc(GEN_SIM_STEPS, sizeof(struct sim_step)),
		.max_steps = GEN_SIM_STEPS,
		.snap_a = malloc(GAME_SNAPSHOT_MAX),
		.snap_b = malloc(GAME_SNAPSHOT_MAX),
	};
	if (!smp || !mem.state || !mem.replay || !mem.log || !mem.snap_a || !mem.snap_b)
		goto fail;
	for (int i = 0; i < n; i++) {
		struct sample *x = &smp[i];
		struct setup su = { .nplayers = g->min_players + i / GEN_HIST_PER_P };
		su.dealer = i % su.nplayers;
		su.seed = 900000u + (uint64_t)i;
		options_default(g, su.opt);
		struct sim_result r;
		sim_party(g, &su, su.seed ^ 0x4157ULL, &mem, &r);
		if (!r.ended)
			goto fail;
		struct status st;
		g->status(mem.state, &st);
		struct buf b = { .p = mem.snap_a, .cap = GAME_SNAPSHOT_MAX };
		if (g->encode(mem.state, &b) != 0 || b.overflow)
			goto fail;
		x->p = su.nplayers;
		x->dealer = su.dealer;
		x->seed = su.seed;
		x->snap = malloc(b.len);
		x->steps = malloc((size_t)r.steps * sizeof *x->steps + 1);
		if (!x->snap || !x->steps)
			goto fail;
		memcpy(x->snap, b.p, b.len);
		x->snap_len = b.len;
		memcpy(x->steps, mem.log, (size_t)r.steps * sizeof *x->steps);
		x->nsteps = r.steps;
		party_result(&st, x->p, &x->res);
	}
	free(mem.state);
	free(mem.replay);
	free(mem.log);
	free(mem.snap_a);
	free(mem.snap_b);
	*count = n;
	return smp;
fail:
	fail("%s: cannot make sample parties", g->slug);
	free(mem.state);
	free(mem.replay);
	free(mem.log);
	free(mem.snap_a);
	free(mem.snap_b);
	if (smp)
		for (int i = 0; i < n; i++) {
			free(smp[i].snap);
			free(smp[i].steps);
		}
	free(smp);
	return NULL;
}

static const char *const hist_sql[] = {
	"INSERT INTO users(name, name_key, pwhash, created_at) VALUES (?1, ?1, '!', ?2)",
	"INSERT INTO tables(game, options, nseats, status, version, public_version, next_deadline,"
	" epoch, epoch_version, party_no, nparties, first_dealer, created_by, created_at,"
	" seats_taken, host) VALUES (?1, ?2, ?3, 2, ?4, ?4, 0, 0, ?4, ?5, ?6, 0, ?7, ?8, ?3,"
	" coalesce((SELECT name FROM users WHERE id = ?7), ''))",
	"INSERT INTO seats(table_id, seat, user_id, name)"
	" VALUES (?1, ?2, ?3, (SELECT name FROM users WHERE id = ?3))",
	"INSERT INTO parties(table_id, number, seed, dealer, snapshot, over, created_at)"
	" VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6)",
	"INSERT INTO party_results(party, seat, place, points) VALUES (?1, ?2, ?3, ?4)",
	/* A party's log is copied inside SQLite from its sample: one statement
	 * per party instead of one per move. */
	"INSERT INTO temp.sample_moves(sample, seq, seat, text, at) VALUES (?1, ?2, ?3, ?4, ?5)",
	"INSERT INTO moves(party, seq, seat, text, at, version)"
	" SELECT ?1, seq, seat, text, ?2 + at, ?3 + seq FROM temp.sample_moves"
	" WHERE sample = ?4 ORDER BY seq",
};
enum { H_USER, H_TABLE, H_SEAT, H_PARTY, H_RESULT, H_SAMPLE, H_MOVES, H__MAX };
_Static_assert(sizeof hist_sql / sizeof hist_sql[0] == H__MAX, "one statement per name");

static int run(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int cmd_history(const char *dbpath, long n)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st[H__MAX] = { 0 };
	struct sample *smp[64] = { 0 };
	int nsmp[64] = { 0 };
	int rc = 1;
	long moves = 0;
	double t0 = mono_s();
	int64_t now = now_ms();
	int64_t hist_user0 = 0;

	if (ngames > 64)
		return fail("too many games");
	for (int gi = 0; gi < ngames; gi++)
		if (!(smp[gi] = make_samples(games[gi], &nsmp[gi])))
			goto out;
	if (sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		fail("cannot open %s", dbpath);
		goto out;
	}
	/* A scratch database that nobody else has open: no journal while filling. */
	if (exec(db, "PRAGMA journal_mode=DELETE; PRAGMA journal_mode=OFF;"
		     " PRAGMA synchronous=OFF; PRAGMA cache_size=-262144;"
		     " PRAGMA locking_mode=EXCLUSIVE; PRAGMA temp_store=MEMORY;"
		     " CREATE TEMP TABLE sample_moves(sample INTEGER, seq INTEGER, seat INTEGER,"
		     " text TEXT, at INTEGER, PRIMARY KEY (sample, seq)) WITHOUT ROWID; BEGIN") != 0)
		goto out;
	for (int i = 0; i < H__MAX; i++)
		if (sqlite3_prepare_v2(db, hist_sql[i], -1, &st[i], NULL) != SQLITE_OK) {
			fail("prepare: %s", sqlite3_errmsg(db));
			goto out;
		}
	for (int i = 0; i < GEN_HIST_USERS; i++) {
		char name[32];
		snprintf(name, sizeof name, "hist-%d", i);
		sqlite3_bind_text(st[H_USER], 1, name, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st[H_USER], 2, now);
		if (run(st[H_USER]) != 0)
			goto sqlfail;
		if (i == 0)
			hist_user0 = sqlite3_last_insert_rowid(db);
	}

	for (int gi = 0; gi < ngames; gi++)
		for (int i = 0; i < nsmp[gi]; i++) {
			const struct sample *x = &smp[gi][i];
			for (int j = 0; j < x->nsteps; j++) {
				sqlite3_bind_int(st[H_SAMPLE], 1, gi * GEN_SAMPLE_IDS + i);
				sqlite3_bind_int(st[H_SAMPLE], 2, j + 1);
				sqlite3_bind_int(st[H_SAMPLE], 3, x->steps[j].seat);
				sqlite3_bind_text(st[H_SAMPLE], 4, x->steps[j].text, -1, SQLITE_STATIC);
				sqlite3_bind_int64(st[H_SAMPLE], 5, x->steps[j].at % 100000000);
				if (run(st[H_SAMPLE]) != 0)
					goto sqlfail;
			}
		}

	struct rng rng;
	rng_seed(&rng, 1000003);
	long made = 0;
	for (long tno = 0; made < n; tno++) {
		int gi = (int)(tno % ngames);
		const struct game *g = games[gi];
		int opt[GAME_OPT_MAX];
		char opts[ST_OPTS_MAX + 1];
		options_default(g, opt);
		options_format(g, opt, opts, sizeof opts);
		int p = g->min_players + (int)rng_below(&rng,
			(uint32_t)(g->max_players - g->min_players + 1));
		int np = g->parties(p, opt);
		if (np < 1)
			np = 1;
		if (np > n - made)
			np = (int)(n - made);
		const struct sample *base = &smp[gi][(p - g->min_players) * GEN_HIST_PER_P];
		int64_t at = now - 86400000LL * 30 + tno;
		int64_t steps = 0;
		for (int k = 0; k < np; k++)
			steps += base[(tno + k) % GEN_HIST_PER_P].nsteps;
		int64_t uoff = rng_below(&rng, GEN_HIST_USERS);

		sqlite3_bind_text(st[H_TABLE], 1, g->slug, -1, SQLITE_STATIC);
		sqlite3_bind_text(st[H_TABLE], 2, opts, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int(st[H_TABLE], 3, p);
		sqlite3_bind_int64(st[H_TABLE], 4, steps + p + 1);
		sqlite3_bind_int(st[H_TABLE], 5, np - 1);
		sqlite3_bind_int(st[H_TABLE], 6, np);
		sqlite3_bind_int64(st[H_TABLE], 7, hist_user0 + uoff);
		sqlite3_bind_int64(st[H_TABLE], 8, at);
		if (run(st[H_TABLE]) != 0)
			goto sqlfail;
		int64_t tid = sqlite3_last_insert_rowid(db);
		for (int k = 0; k < p; k++) {
			sqlite3_bind_int64(st[H_SEAT], 1, tid);
			sqlite3_bind_int(st[H_SEAT], 2, k);
			sqlite3_bind_int64(st[H_SEAT], 3, hist_user0 + (uoff + k) % GEN_HIST_USERS);
			if (run(st[H_SEAT]) != 0)
				goto sqlfail;
		}
		int64_t version = p + 1;
		for (int k = 0; k < np; k++) {
			int si = (int)((tno + k) % GEN_HIST_PER_P);
			const struct sample *x = &base[si];
			sqlite3_bind_int64(st[H_PARTY], 1, tid);
			sqlite3_bind_int(st[H_PARTY], 2, k);
			sqlite3_bind_int64(st[H_PARTY], 3, (sqlite3_int64)(x->seed & 0x7fffffffffffffffULL));
			sqlite3_bind_int(st[H_PARTY], 4, x->dealer);
			sqlite3_bind_blob(st[H_PARTY], 5, x->snap, (int)x->snap_len, SQLITE_STATIC);
			sqlite3_bind_int64(st[H_PARTY], 6, at);
			if (run(st[H_PARTY]) != 0)
				goto sqlfail;
			int64_t pid = sqlite3_last_insert_rowid(db);
			for (int j = 0; j < p; j++) {
				sqlite3_bind_int64(st[H_RESULT], 1, pid);
				sqlite3_bind_int(st[H_RESULT], 2, j);
				sqlite3_bind_int(st[H_RESULT], 3, x->res.place[j]);
				sqlite3_bind_int(st[H_RESULT], 4, x->res.points[j]);
				if (run(st[H_RESULT]) != 0)
					goto sqlfail;
			}
			sqlite3_bind_int64(st[H_MOVES], 1, pid);
			sqlite3_bind_int64(st[H_MOVES], 2, at);
			sqlite3_bind_int64(st[H_MOVES], 3, version);
			sqlite3_bind_int(st[H_MOVES], 4, gi * GEN_SAMPLE_IDS +
					 (p - g->min_players) * GEN_HIST_PER_P + si);
			if (run(st[H_MOVES]) != 0)
				goto sqlfail;
			version += x->nsteps;
			moves += x->nsteps;
		}
		made += np;
	}
	/* The tables above were inserted here, not through the store, which
	 * keeps the highest table number given out (id_high) in C since 026:
	 * without this, the next table the store creates takes a number
	 * already used (gen scale: "UNIQUE constraint failed: tables.id"). */
	if (exec(db, "UPDATE id_high SET last = (SELECT max(id) FROM tables) WHERE name = 'tables'"
		     " AND last < (SELECT max(id) FROM tables)") != 0)
		goto out;
	if (exec(db, "COMMIT") != 0)
		goto out;
	for (int i = 0; i < H__MAX; i++) {
		sqlite3_finalize(st[i]);
		st[i] = NULL;
	}
	if (exec(db, "PRAGMA locking_mode=NORMAL; PRAGMA journal_mode=WAL") != 0)
		goto out;
	printf("history %ld parties %ld moves %.1f s\n", made, moves, mono_s() - t0);
	rc = 0;
	goto out;
sqlfail:
	fail("insert: %s", sqlite3_errmsg(db));
out:
	for (int i = 0; i < H__MAX; i++)
		sqlite3_finalize(st[i]);
	if (db)
		sqlite3_close(db);
	for (int gi = 0; gi < ngames; gi++) {
		for (int i = 0; smp[gi] && i < nsmp[gi]; i++) {
			free(smp[gi][i].snap);
			free(smp[gi][i].steps);
		}
		free(smp[gi]);
	}
	return rc;
}

/* ---- scale: a 1,000-player tournament and a user at 200 tables ---- */

/* Everything through the store API (and the party engine for the tables
 * that run), as the server would leave it, in batches of one transaction.
 * Deterministic like the rest: randombytes from seed_of("scale", 0), the
 * places and party points from rng_seed(seed_of("scale", 1)), the seating
 * from pairing_swiss with the scores so far and the tournament's seed. */
enum {
	SCALE_PLAYERS = 1000,
	SCALE_ROUNDS = 10,
	SCALE_SEATS = 4,
	SCALE_MIN_SEATS = 3,
	SCALE_VIEWER_RANK = 500,      /* the viewer's row: on page 6 of the standings */
	SCALE_ME_FINISHED = 150,
	SCALE_ME_LIVE = 50,           /* every fifth of them open, the others running */
	SCALE_LIST_IDX = GEN_USERS    /* the list index of the first scale "user" line */
};
static const char scale_game[] = "drehwurm";
static const uint64_t scale_seed = 0x5ca1e5ca1eULL;

struct scale {
	struct store *s;
	int64_t now;
	int64_t uid[SCALE_PLAYERS];   /* the players, in order of registration */
	int score[SCALE_PLAYERS];     /* tournament points so far */
	unsigned char met[SCALE_PLAYERS * SCALE_PLAYERS];
	struct pairing_out out;
	struct tourney_points tp;
	char opts[ST_OPTS_MAX + 1];   /* the tournament game's options */
	int nparties;                 /* its tables' match length */
	int64_t tid;                  /* the tournament */
	int64_t viewer;               /* the player whose page is measured */
	struct rng rng;
};

/* Ends a batch: commit when rc is ST_OK, else roll back. */
static int batch_end(struct store *s, int rc, const char *what)
{
	if (rc == ST_OK && store_commit(s) == ST_OK)
		return 0;
	if (rc != ST_OK)
		store_rollback(s);
	return fail("scale: %s: store error %d", what, rc);
}

/* The 1,000 players (a password hash nobody can log in with) and the
 * tournament they are registered at: a Swiss of drehwurm at tables of 4
 * (3 at least), 10 rounds, the default points, tie-breaks "party,sb". */
static int scale_tourney(struct scale *z)
{
	struct st_tourney t;
	int rc = store_begin(z->s);
	if (rc != ST_OK)
		return fail("scale: begin: %d", rc);
	for (int i = 0; rc == ST_OK && i < SCALE_PLAYERS; i++) {
		char name[32];
		snprintf(name, sizeof name, "scale-%04d", i);
		rc = store_user_create(z->s, name, "!", z->now, &z->uid[i]);
	}
	memset(&t, 0, sizeof t);
	snprintf(t.name, sizeof t.name, "Großes Schweizer Turnier (%d Spieler)", SCALE_PLAYERS);
	snprintf(t.game, sizeof t.game, "%s", scale_game);
	snprintf(t.options, sizeof t.options, "%s", z->opts);
	snprintf(t.tiebreaks, sizeof t.tiebreaks, "party,sb");
	t.format = TOURNEY_SWISS;
	t.seats = SCALE_SEATS;
	t.min_seats = SCALE_MIN_SEATS;
	t.rounds = SCALE_ROUNDS;
	tourney_points_default(&z->tp, SCALE_SEATS);
	if (tourney_points_format(&z->tp, t.points, sizeof t.points) != 0)
		rc = ST_ERR;
	t.timeouts_max = 3;
	t.register_until = z->now - 86400000LL * 20;
	t.starts_at = t.register_until;
	t.seed = (int64_t)(scale_seed >> 1);
	t.created_by = z->uid[0];
	t.created_at = t.register_until - 86400000LL * 7;
	if (rc == ST_OK)
		rc = store_tourney_create(z->s, &t, &z->tid);
	for (int i = 0; rc == ST_OK && i < SCALE_PLAYERS; i++)
		rc = store_tplayer_add(z->s, z->tid, z->uid[i], t.created_at + i);
	return batch_end(z->s, rc, "players and tournament");
}

/* One finished table of round `round`, number no, of the players
 * (indexes) in seat order: the table, its seats, the tournament's rows
 * (places a seeded permutation, party points following the place). */
static int scale_table(struct scale *z, int round, int no, const int *who, int size)
{
	int64_t id;
	int place[TOURNEY_SEATS_MAX], rc, seat;
	rc = store_table_create(z->s, scale_game, z->opts, size, z->nparties, z->uid[0], z->now,
				&id);
	for (int k = 0; rc == ST_OK && k < size; k++)
		rc = store_seat_take(z->s, id, z->uid[who[k]], &seat);
	if (rc == ST_OK)
		rc = store_table_set_status(z->s, id, TABLE_FINISHED, z->nparties - 1, 0);
	if (rc == ST_OK)
		rc = store_ttable_add(z->s, z->tid, round, no, id);
	for (int k = 0; k < size; k++)
		place[k] = k + 1;
	for (int k = size - 1; k > 0; k--) {
		int j = (int)rng_below(&z->rng, (uint32_t)k + 1), x = place[k];
		place[k] = place[j];
		place[j] = x;
	}
	for (int k = 0; rc == ST_OK && k < size; k++) {
		struct st_tresult r = {
			.round = round, .user_id = z->uid[who[k]], .table_no = no, .table_id = id,
			.seat = k, .place = place[k],
			.points = tourney_place_points(&z->tp, size, place[k], 1),
			.party_points = (size - place[k]) * 40 + (int)rng_below(&z->rng, 40),
		};
		rc = store_tresult_put(z->s, z->tid, &r);
		z->score[who[k]] += r.points;
		for (int j = 0; j < size; j++)
			if (j != k && z->met[who[k] * SCALE_PLAYERS + who[j]] < 255)
				z->met[who[k] * SCALE_PLAYERS + who[j]]++;
	}
	if (rc == ST_OK)
		rc = store_ttable_done(z->s, id);
	return rc;
}

/* Round `round`: seated by pairing_swiss from the scores and meetings so
 * far (as the engine seats it), every table finished; one transaction. */
static int scale_round(struct scale *z, int round)
{
	struct pairing_in in = { .n = SCALE_PLAYERS, .seats = SCALE_SEATS,
				 .min_seats = SCALE_MIN_SEATS, .round = round, .score = z->score,
				 .met = z->met, .byes = NULL, .seed = scale_seed >> 1 };
	if (pairing_swiss(&in, &z->out) != 0 || z->out.nbyes != 0)
		return fail("scale: round %d: pairing failed (%d byes)", round, z->out.nbyes);
	int rc = store_begin(z->s);
	if (rc != ST_OK)
		return fail("scale: begin: %d", rc);
	for (int t = 0; rc == ST_OK && t < z->out.ntables; t++)
		rc = scale_table(z, round, t, z->out.seat[t], z->out.size[t]);
	return batch_end(z->s, rc, "round");
}

static void first_user(void *ctx, const struct st_tstanding *x)
{
	*(int64_t *)ctx = x->user_id;
}

/* Finished after round 10, the standings saved; the viewer is the player
 * listed at SCALE_VIEWER_RANK, off the first page, so that the page shows
 * "my row" below it. */
static int scale_finish(struct scale *z)
{
	int rc = store_begin(z->s);
	if (rc != ST_OK)
		return fail("scale: begin: %d", rc);
	rc = store_tourney_set_state(z->s, z->tid, TOURNEY_FINISHED, SCALE_ROUNDS);
	if (rc == ST_OK && tourney_standings_save(z->s, z->tid) != PLAY_OK)
		rc = ST_ERR;
	if (batch_end(z->s, rc, "standings") != 0)
		return 1;
	z->viewer = 0;
	if (store_tstandings(z->s, z->tid, SCALE_VIEWER_RANK, 1, first_user, &z->viewer) != ST_OK ||
	    !z->viewer)
		return fail("scale: no standings row %d", SCALE_VIEWER_RANK);
	return 0;
}

/* A session for user id, printed as list line "user IDX ...". */
static int scale_session(struct scale *z, FILE *f, int idx, int64_t id)
{
	char token[AUTH_TOKEN_LEN + 1], csrf[AUTH_TOKEN_LEN + 1];
	if (auth_session_new(z->s, id, z->now, token, csrf) != AUTH_OK)
		return fail("scale: session for user %lld", (long long)id);
	fprintf(f, "user %d %lld %s %s\n", idx, (long long)id, token, csrf);
	return 0;
}

/* The n-th co-player of table k at scale-me's tables: players of the
 * tournament, never its viewer (whose page would count those tables). */
static int64_t coplayer(const struct scale *z, int k, int n)
{
	int64_t u = z->uid[(k * 8 + n) % SCALE_PLAYERS];
	return u == z->viewer ? z->uid[(k * 8 + 7) % SCALE_PLAYERS] : u;
}

/* scale-me's 150 finished tables of every game in turn: tables, seats and
 * status through the store (no parties: /me reads only the running ones'),
 * one transaction. */
static int scale_me_finished(struct scale *z, int64_t me, const struct gen_opts *o)
{
	int rc = store_begin(z->s), seat, opt[GAME_OPT_MAX];
	char opts[ST_OPTS_MAX + 1];
	if (rc != ST_OK)
		return fail("scale: begin: %d", rc);
	for (int k = 0; rc == ST_OK && k < SCALE_ME_FINISHED; k++) {
		const struct game *g = games[k % ngames];
		int p = bench_players(g), np;
		int64_t id;
		if (game_opts(g, o, opts, sizeof opts, opt) != 0) {
			rc = ST_ERR;
			break;
		}
		np = g->parties(p, opt) > 0 ? g->parties(p, opt) : 1;
		rc = store_table_create(z->s, g->slug, opts, p, np, me, z->now - 3600000LL * (k + 1),
					&id);
		if (rc == ST_OK)
			rc = store_seat_take(z->s, id, me, &seat);
		for (int j = 0; rc == ST_OK && j < p - 1; j++)
			rc = store_seat_take(z->s, id, coplayer(z, k, j), &seat);
		if (rc == ST_OK)
			rc = store_table_set_status(z->s, id, TABLE_FINISHED, np - 1, 0);
	}
	return batch_end(z->s, rc, "finished tables of scale-me");
}

/* scale-me's 50 live tables, newest last, every game in turn, through the
 * party engine like the page tables: every fifth open (only scale-me
 * seated), the others full and dealt, any window open after the deal
 * closed by moves (deal k from seed_of(SLUG, 4000000 + k), moves from
 * seed_of(SLUG, 5000000 + k)). */
static int scale_me_live(struct scale *z, int64_t me, const struct gen_opts *o)
{
	void *tmp = NULL;
	size_t tmpsz = 0;
	int opt[GAME_OPT_MAX], rc = 0;
	char opts[ST_OPTS_MAX + 1];
	for (int k = 0; rc == 0 && k < SCALE_ME_LIVE; k++) {
		const struct game *g = games[k % ngames];
		struct user u[GEN_USERS];
		struct rng rng;
		struct rerr e;
		int64_t id;
		int p = bench_players(g), running = k % 5 != 4;
		memset(u, 0, sizeof u);
		u[0].id = me;
		det_reseed(seed_of(g->slug, 4000000 + (uint64_t)k));
		rng_seed(&rng, seed_of(g->slug, 5000000 + (uint64_t)k));
		if (game_opts(g, o, opts, sizeof opts, opt) != 0 ||
		    play_create(z->s, g->slug, opts, p, me, z->now, &id, &e) != PLAY_OK) {
			rc = fail("scale: create %s", g->slug);
			break;
		}
		for (int j = 1; running && j < p && rc == 0; j++) {
			u[j].id = coplayer(z, SCALE_ME_FINISHED + k, j - 1);
			if (play_join(z->s, id, u[j].id, z->now, &e) != PLAY_OK)
				rc = fail("scale: join %s table %lld: %s", g->slug, (long long)id, e.msg);
		}
		if (rc == 0 && running &&
		    advance(z->s, u, id, 0, GEN_SETTLE_MAX, &rng, &tmp, &tmpsz, NULL) != 0)
			rc = fail("scale: %s table %lld: a window stays open", g->slug, (long long)id);
	}
	free(tmp);
	return rc;
}

static int cmd_scale(struct store *s, const char *list, const struct gen_opts *o)
{
	struct scale *z = calloc(1, sizeof *z);
	FILE *f = fopen(list, "a");
	double t0 = mono_s();
	int64_t me = 0;
	int opt[GAME_OPT_MAX], rc = 1;
	const struct game *g = game_find(scale_game);
	if (!z || !f || !g) {
		fail("scale: cannot start (%s)", f ? "memory or game" : list);
		goto out;
	}
	z->s = s;
	z->now = now_ms();
	det_reseed(seed_of("scale", 0));
	rng_seed(&z->rng, seed_of("scale", 1));
	if (game_opts(g, o, z->opts, sizeof z->opts, opt) != 0)
		goto out;
	z->nparties = g->parties(SCALE_SEATS, opt) > 0 ? g->parties(SCALE_SEATS, opt) : 1;
	if (scale_tourney(z) != 0)
		goto out;
	for (int r = 1; r <= SCALE_ROUNDS; r++)
		if (scale_round(z, r) != 0)
			goto out;
	if (scale_finish(z) != 0 || scale_session(z, f, SCALE_LIST_IDX, z->viewer) != 0)
		goto out;
	fprintf(f, "tourney %lld %d\n", (long long)z->tid, SCALE_LIST_IDX);
	if (store_user_create(s, "scale-me", "!", z->now, &me) != ST_OK ||
	    scale_session(z, f, SCALE_LIST_IDX + 1, me) != 0 ||
	    scale_me_finished(z, me, o) != 0 || scale_me_live(z, me, o) != 0)
		goto out;
	fprintf(f, "me200 %d\n", SCALE_LIST_IDX + 1);
	printf("scale tournament %lld: %d players, %d rounds, viewer %lld at rank %d;"
	       " scale-me %lld at %d tables; %.1f s\n", (long long)z->tid, SCALE_PLAYERS,
	       SCALE_ROUNDS, (long long)z->viewer, SCALE_VIEWER_RANK + 1, (long long)me,
	       SCALE_ME_FINISHED + SCALE_ME_LIVE, mono_s() - t0);
	rc = 0;
out:
	if (f && fclose(f) != 0 && rc == 0)
		rc = fail("cannot write %s", list);
	free(z);
	return rc;
}

/* ---- main ---- */

/* gen settle: applies every passed deadline of the database, as the
 * lobby's sweep does a few tables a request, until none is left, so that
 * the /me poll measured next answers "unchanged" (its user sits at every
 * move table, whose windows have expired by the time the profile runs).
 * The page tables are a day ahead and untouched. Bounded: 10,000 sweeps. */
static int cmd_settle(struct store *s)
{
	struct play_sweep rule = { 0, 0, 64 };
	struct play_swept out;
	long ticked = 0;
	for (int i = 0; i < 10000; i++) {
		int rc = play_sweep(s, &rule, now_ms(), &out);
		if (rc != PLAY_OK)
			return fail("settle: %s", play_message(rc));
		ticked += out.ticked;
		if (out.ticked == 0) {
			printf("settled %ld tables\n", ticked);
			return 0;
		}
	}
	return fail("settle: deadlines still passed after 10000 sweeps");
}

static int usage(void)
{
	fprintf(stderr,
		"usage: gen setup   --db FILE --schema DIR --list OUT [--move-need N] [--opt SLUG:KEY=VALUE]...\n"
		"       gen moves   --db FILE --schema DIR --list FILE --need N --out-dir DIR\n"
		"       gen history --db FILE --schema DIR --parties N\n"
		"       gen scale   --db FILE --schema DIR --list FILE [--opt SLUG:KEY=VALUE]...\n"
		"       gen settle  --db FILE --schema DIR\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *db = NULL, *schema = NULL, *list = NULL, *dir = NULL;
	long need = 0, parties = 0;
	struct gen_opts o = { .n = 0 };
	if (argc < 2)
		return usage();
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!v)
			return usage();
		i++;
		if (strcmp(a, "--db") == 0)
			db = v;
		else if (strcmp(a, "--schema") == 0)
			schema = v;
		else if (strcmp(a, "--list") == 0)
			list = v;
		else if (strcmp(a, "--out-dir") == 0)
			dir = v;
		else if (strcmp(a, "--move-need") == 0 && parse_long(v, 0, 100000000, &need) == 0)
			;
		else if (strcmp(a, "--need") == 0 && parse_long(v, 1, 100000000, &need) == 0)
			;
		else if (strcmp(a, "--parties") == 0 && parse_long(v, 1, 100000000, &parties) == 0)
			;
		else if (strcmp(a, "--opt") == 0 && o.n < GEN_MAX_OPTS)
			o.arg[o.n++] = v;
		else
			return usage();
	}
	if (!db || !schema)
		return usage();

	struct store *s;
	/* Before sodium_init: the pinned stream instead of the system's. */
	det_reseed(seed_of("gen", 0));
	if (randombytes_set_implementation(&det_impl) != 0)
		return fail("cannot pin randombytes");
	if (auth_init() != 0)
		return fail("auth_init failed");
	if (store_open(&s, db, schema) != ST_OK)
		return fail("cannot open %s", db);
	int rc;
	if (strcmp(argv[1], "setup") == 0 && list) {
		rc = cmd_setup(s, list, need, &o);
		store_close(s);
	} else if (strcmp(argv[1], "moves") == 0 && list && dir && need > 0) {
		rc = cmd_moves(s, list, need, dir);
		store_close(s);
	} else if (strcmp(argv[1], "scale") == 0 && list) {
		rc = cmd_scale(s, list, &o);
		store_close(s);
	} else if (strcmp(argv[1], "settle") == 0) {
		rc = cmd_settle(s);
		store_close(s);
	} else if (strcmp(argv[1], "history") == 0 && parties > 0) {
		store_close(s);
		rc = cmd_history(db, parties);
	} else {
		store_close(s);
		return usage();
	}
	return rc;
}
