/*
 * game.h — the interface every game of Spieltisch implements.
 *
 * The rules core is pure C: no I/O, no SQLite, no HTML, no clock, no malloc.
 * A game's whole state is one fixed-size struct (game->state_size bytes, no
 * pointers inside) that the caller provides. Time comes in as now_ms.
 *
 * A move is a short line of text ("play gelb-4 on 2"). The same text is what a
 * form submits, what the move log stores, what a replay feeds back and what a
 * bot emits. setup() plus the logged moves and ticks, with their timestamps,
 * rebuild the state exactly.
 */
#ifndef SPIELTISCH_GAME_H
#define SPIELTISCH_GAME_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

enum {
	GAME_MAX_SEATS = 10,       /* no game seats more */
	GAME_MOVE_MAX = 160,       /* longest move text accepted, bytes */
	GAME_OPT_MAX = 8,          /* options per game */
	GAME_ERR_MAX = 200,        /* longest message for a rejected move */
	GAME_SNAPSHOT_MAX = 32768  /* largest encoded state, bytes */
};

/* Marks a string for the message catalogs (po/, docs/i18n.md) without
 * translating it: the platform translates it where a player reads it. A
 * rejection's format and the texts of vtext() and vtextf() are found
 * without it. */
#define N_(s) (s)

/* Why a move, a snapshot or a setup was rejected, in words a player can read
 * (German), and what it is made of, so that the platform can say it in the
 * reader's language: fmt, the German format (a catalog message; NULL when
 * msg was written otherwise), and its nargs arguments, each already
 * formatted as fmt asked, one after the other with a NUL after each. */
struct rerr {
	char msg[GAME_ERR_MAX];
	const char *fmt;
	int nargs;
	char args[GAME_ERR_MAX];
};

/* Fills e (printf-style) and returns -1, so that `return rerr_set(e, …);`
 * rejects. An argument that is itself a catalog message (a card's name
 * marked N_()) is translated with the format. */
int rerr_set(struct rerr *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A table option a game offers in the lobby. The platform renders the form
 * from this table, validates the value against min..max and passes it in
 * struct setup.opt[] at the option's index. */
enum opt_type { OPT_BOOL, OPT_INT, OPT_TYPE__MAX };

struct game_option {
	const char *key;    /* form field and storage key, [a-z_]+ */
	const char *label;  /* German label for the lobby form (a catalog message) */
	enum opt_type type;
	int min, max, def;  /* OPT_BOOL: 0..1 */
	const char *unit;   /* "s", "Decks", … or NULL (a catalog message) */
};

/* Everything a party starts from. */
struct setup {
	int nplayers;
	int dealer;                /* seat that deals this party: one seat further each
	                            * party of a match; for a game that starts with the
	                            * winner (game.starts_with_winner) the last party's
	                            * winner at this table, else a seat by lot */
	uint64_t seed;
	int opt[GAME_OPT_MAX];     /* indexed like game->options */
};

/* Who may act, whether the party is over, scores. */
struct status {
	int over;                       /* 1 when the party has ended */
	uint32_t to_act;                /* bit s set: seat s has a legal move now */
	int turn;                       /* seat whose regular turn it is; -1 when nobody's
	                                 * in particular: then every seat in to_act is on
	                                 * turn (simultaneous choices) */
	int64_t deadline;               /* next deadline (ms) tick() would apply, 0 if none */
	uint32_t epoch;                 /* changes whenever the position changes so that a
	                                 * decision another seat made on the old page is no
	                                 * longer sound (a card played, a stack turned, choices
	                                 * revealed, a race won, a round decided). Passes,
	                                 * votes and secret choices leave it alone, and so
	                                 * does a deadline that closes a window and changes
	                                 * nothing else: the web layer refuses a move from a
	                                 * page older than the last epoch change ("too late",
	                                 * see game.late), and only then (besides a seat's own
	                                 * double submit). */
	int score[GAME_MAX_SEATS];      /* party points so far (final once over) */
	int place[GAME_MAX_SEATS];      /* once over, a game whose places are not its
	                                 * points' order (DNA: finishing order) gives
	                                 * each seat its 1-based place here, equal for
	                                 * a tie; all 0: places follow the points
	                                 * (party_result() in match.h) */
	uint32_t window;                /* while a window is open (a deadline in which seats
	                                 * may act out of turn, or the seat on turn must
	                                 * wait): bit s set for every seat the window is
	                                 * for. Constant until it closes, whoever has acted
	                                 * or passed in it; 0 when no window is open. */
};

/* A growable-by-caller byte buffer: the caller owns p[0..cap). Writers set
 * `overflow` instead of writing past cap. */
struct de;   /* a snapshot being read (rules/ser.h) */

struct buf {
	unsigned char *p;
	size_t len, cap;
	int overflow;
};

/*
 * What one seat may see, as a tree of named values and repeated sections.
 * The web layer turns it into a template dictionary (HTML) and into JSON, so
 * both show exactly the same. Hidden information is never emitted: a game
 * leaves it out here, not in a template.
 *   str/num/flag: a value in the current section
 *   begin(name):  a new item of the repeated section `name`; end() closes it
 */
struct view_group;

struct view_sink {
	void (*str)(void *ctx, const char *key, const char *val);
	void (*num)(void *ctx, const char *key, long long val);
	void (*flag)(void *ctx, const char *key, int on);
	void (*begin)(void *ctx, const char *section);
	void (*end)(void *ctx);
	void *ctx;
	/* Optional (NULL: str(key, de) instead): a text a player reads, as
	 * vtext() and vtextf() emit it: the German format `fmt` (a catalog
	 * message), its nargs arguments formatted and NUL-separated in args
	 * (as in struct rerr), and the German result `de`. */
	void (*text)(void *ctx, const char *key, const char *fmt, const char *args, int nargs,
		     const char *de);
	/* 1: the entries go to a page's tree (the table page, a replay's
	 * page), which only the game's template reads, never JSON (cgi/view.h,
	 * html_only): a value the template does not show may be left out, and
	 * a text it shows in place of several may be given instead (a class).
	 * 0 for every other reader: the JSON twin must not change
	 * (docs/views.md). */
	int html_only;
	/* Optional (NULL: g->emit(v, index), vgroup): a constant group of
	 * entries, which a sink may write from a memo of the same group
	 * written before (the JSON writer does: cgi/view.c). */
	void (*group)(struct view_sink *v, const struct view_group *g, int index);
};

/* A group of entries that depend on nothing but `index` (a card's face)
 * and the sink's html_only: emit writes them into the open dictionary, as
 * the same calls would one by one. emit sees no game state, so a group
 * holds only what its index says; a game passes an index the viewer may
 * see (a face shown to them). No "@N" names and no seat numbers in a
 * group (a sink's memo could not put the names in). */
struct view_group {
	void (*emit)(struct view_sink *v, int index);
	/* The indices are 0..count-1. A sink that keeps memos makes them all
	 * at the group's first use, so that whether one was kept says nothing
	 * of which faces other viewers were shown. */
	int count;
};

/* Convenience wrappers (rules/view.c); vstrf formats like printf. vstr and
 * vstrf are for data (ids, classes, move texts, words as typed); a text a
 * player reads (a log sentence, a card's name, a label) goes through vtext
 * (a fixed text) or vtextf (a format), which the platform translates. */
void vstrf(struct view_sink *v, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void vtextf(struct view_sink *v, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* vtextf with its arguments as a va_list. */
void vtextv(struct view_sink *v, const char *key, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
/* The others straight to the sink, inline: a board emits hundreds of
 * entries, and a call of its own for each cost a view up to 10k
 * instructions (docs/benchmarks.md, "The view functions' entries"). */
static inline void vstr(struct view_sink *v, const char *key, const char *val)
{
	v->str(v->ctx, key, val ? val : "");
}

static inline void vtext(struct view_sink *v, const char *key, const char *msg)
{
	if (!msg)
		msg = "";
	if (v->text)
		v->text(v->ctx, key, msg, "", 0, msg);
	else
		v->str(v->ctx, key, msg);
}

static inline void vnum(struct view_sink *v, const char *key, long long val)
{
	v->num(v->ctx, key, val);
}

static inline void vflag(struct view_sink *v, const char *key, int on)
{
	v->flag(v->ctx, key, on);
}

static inline void vbegin(struct view_sink *v, const char *section)
{
	v->begin(v->ctx, section);
}

static inline void vend(struct view_sink *v)
{
	v->end(v->ctx);
}

/* The constant group g of entries, for index (struct view_group): written
 * by the sink from its memo, or emitted entry by entry. */
static inline void vgroup(struct view_sink *v, const struct view_group *g, int index)
{
	if (v->group)
		v->group(v, g, index);
	else
		g->emit(v, index);
}
/* vsnprintf with the same result, the conversions the games use (%d %i %u
 * with l or ll, %zu, %s, %c, %%) written without it (rules/view.c). */
int view_vformat(char *out, size_t cap, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
/* snprintf(out, cap, fmt, ...) through view_vformat: for the texts a view
 * puts together (glibc's snprintf cost 800 instructions a call). */
int view_format(char *out, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

typedef void (*move_emit_fn)(void *ctx, const char *move);
struct mt_verb;   /* a verb of a game's move language (rules/movetext.h) */

/* What the platform can look up about a word for a game (Wurf & Wort),
 * outside the pure rules core: its syllables (-1: unknown) and whether the
 * word list has it (1, 0, -1: unknown). */
struct lookup {
	int (*syllables)(void *ctx, const char *word);
	int (*known)(void *ctx, const char *word);
	void *ctx;
};

struct game {
	const char *slug;           /* "drehwurm": URLs, storage, template names */
	const char *title;          /* "Drehwurm" */
	const char *tagline;        /* what the game is, one German line (the lobby) */
	const char *summary;        /* how it is played, a few German sentences: shown
	                             * on an open table before anyone joins */
	int min_players, max_players;
	/* 1: a party after the first is dealt by (begun by) the last party's
	 * winner at the table, else by a seat by lot ("Startspieler ist, wer
	 * zuletzt gewonnen hat"); 0: the deal goes one seat on each party. */
	int starts_with_winner;
	size_t state_size;          /* bytes the caller provides for one state */
	const struct game_option *options;
	int noptions;

	/* The verbs of its move language (rules/movetext.h): their form, usage
	 * message, spelling and docs. */
	const struct mt_verb *verbs;
	int nverbs;

	/* Parties that make one match at this table. */
	int (*parties)(int nplayers, const int *opt);

	/* Deal a new party. Called through game_setup(), which has checked the
	 * player count, the dealer and every option's range. 0, or -1 with e
	 * set for a combination of options the game cannot deal. */
	int (*setup)(void *st, const struct setup *s, struct rerr *e);

	/* Apply one move by `seat`. 0 on success; -1 with a message and the
	 * state byte-for-byte unchanged when the move is malformed or illegal. */
	int (*apply)(void *st, int seat, const char *move, int64_t now_ms, struct rerr *e);

	/* Apply every deadline that has passed by now_ms. 1 if the state changed. */
	int (*tick)(void *st, int64_t now_ms);

	void (*status)(const void *st, struct status *out);

	/* Emit every legal move of `seat` now; returns how many. */
	int (*moves)(const void *st, int seat, move_emit_fn emit, void *ctx);

	/* Optional: moves a computer player may also make that moves() does
	 * not list because a person types them (Wurf & Wort's words: any word
	 * is legal, and the page suggests none). The simulator and the bots
	 * choose among moves() and these; every one must be accepted. */
	int (*bot_moves)(const void *st, int seat, move_emit_fn emit, void *ctx);

	/* Optional (NULL: the seat's points, status.score): what a position
	 * is worth to `seat` for the greedy bot (rules/bot.h), which plays the
	 * move whose outcome is worth most; only the order of the values
	 * counts. For a game whose points do not say what a move is worth
	 * before the party ends (a card reserved for a later meld, a card a
	 * reward will let go). It is called on the bot's re-dealt copy, so it
	 * reads only what `seat` sees (hidden cards by their count). */
	long long (*bot_worth)(const void *st, int seat);

	/* Optional (NULL: nothing to look up). Before a typed move is applied,
	 * the platform lets the game write into it what it looked up (a word's
	 * syllables): 0 with the move to apply and log in out (cap bytes), or
	 * -1 to apply the move as typed. What was looked up travels with the
	 * move, so a replay needs no dictionary and stays exact when one
	 * changes. Whatever a player typed in the looked-up places is replaced. */
	int (*annotate)(const void *st, int seat, const char *move, const struct lookup *lk,
			char *out, size_t cap);

	/* Snapshot (rules/ser.h). encode: the envelope with snap_begin(b, slug,
	 * snap_format), the fields, snap_end; 0 or -1 (buffer too small).
	 * decode: reads the payload's fields from d, whose envelope and format
	 * byte (d->format, snap_format_min..snap_format) the kernel has checked;
	 * 0, or -1 with e set for a value out of range. st is scratch: on -1 it
	 * may hold anything. Callers use game_load(), which decodes into scratch,
	 * runs check() and only then copies. */
	unsigned snap_format, snap_format_min;
	int (*encode)(const void *st, struct buf *out);
	int (*decode)(void *st, struct de *d, struct rerr *e);

	/* Invariants (every card in exactly one place, counts, whose turn).
	 * 0 if they hold, else -1 with a description. */
	int (*check)(const void *st, struct rerr *e);

	/* The state as `seat` may see it; seat -1 is a spectator. */
	void (*view)(const void *st, int seat, struct view_sink *v);

	/* Optional (NULL: the status bar names only whom the party waits for):
	 * what the live prompt asks of the seats it waits for, a German label
	 * that stands alone, marked N_("legen oder ziehen"), the same for every
	 * viewer (public: it may depend on the prompt's kind and public state
	 * only). NULL when the party waits for nobody. The table page's status
	 * bar says "Warte auf Bert: legen oder ziehen" (docs/views.md). */
	const char *(*doing)(const void *st);

	/* Re-deal, with `seed`, everything `seat` cannot see (other hands, the
	 * deck order, face-down cards, unrevealed choices, the generator's
	 * future), keeping every count. view(seat) must not change: the leak
	 * tests rely on it. And the result must depend only on what seat sees
	 * and the seed, not on where the hidden cards were (gather them in id
	 * order before shuffling): the bots think on such a re-dealt copy, so
	 * their choices tell nothing hidden (rules/bot.h). */
	void (*scramble)(void *st, int seat, uint64_t seed);

	/* Optional (NULL: every move depends on the page it was chosen on). A
	 * move is judged against the current state; the platform asks this
	 * only when the page it came from is older than the last change of the
	 * position epoch (status.epoch) or than the seat's own last step
	 * (docs/storage.md, "One move"). GAME_LATE_NOW: the move means the same
	 * whatever the page showed (a standing choice): judge it now like any.
	 * GAME_LATE_STALE: it is too late; the game fills e when it can say who
	 * came first ("Zu spät: @2 hat schon „Stopp“ gerufen."), else leaves
	 * e->msg empty for the platform's note. st may be over (the race
	 * ended the party). */
	int (*late)(const void *st, int seat, const char *move, struct rerr *e);
};
enum { GAME_LATE_STALE, GAME_LATE_NOW };

/* The registry: every game the platform offers, in lobby order. */
extern const struct game *const games[];
extern const int ngames;

/* A game by slug, or NULL. */
const struct game *game_find(const char *slug);

/* What every party's setup must satisfy, whatever the game, checked once
 * here so that no game repeats it: nplayers within min_players ..
 * max_players, a dealer among them, every option within its range.
 * game_players_check checks the count alone. 0, or -1 with e set. */
int game_players_check(const struct game *g, int nplayers, struct rerr *e);
int game_setup_check(const struct game *g, const struct setup *s, struct rerr *e);
/* game_setup_check, then g->setup: the one way to deal a party. */
int game_setup(const struct game *g, void *st, const struct setup *s, struct rerr *e);

/* Games announced in the lobby but not playable yet. */
struct game_coming {
	const char *slug, *title, *tagline;
	int min_players, max_players;
};
extern const struct game_coming games_coming[];
extern const int ngames_coming;

#endif
