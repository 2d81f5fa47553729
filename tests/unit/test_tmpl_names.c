/*
 * test_tmpl_names.c — a game's board never shows an outer dictionary's value
 * in place of an item's own.
 *
 * A template asks its dictionary for a name, and a dictionary that lacks it
 * (or holds it as a flag that is off) passes the question on to the one
 * around it: that is how an item reads the page's csrf or its seat's name.
 * It goes wrong where the item itself writes the same name only sometimes:
 * Wurf & Wort's round without a caller lacked `has_claimer`, so its row
 * showed the running round's caller. This test plays random positions of
 * every game, builds each seat's tree as a page does (the full tree and the
 * page's leaner html_only one), and fails when a name the game's template
 * asks inside an item is one the item sometimes writes and, in an item
 * without it, an outer dictionary has it on. A name that no item writes is
 * the outer one by design (Worst Game Ever's seats read the game's `final`).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "game.h"
#include "view.h"
#include "pergame.h"
#include "walk.h"

enum { MAX_USES = 512, MAX_PATHS = 64, MAX_KEYS = 160, MAX_DEPTH = 8, PATH_LEN = 128,
       NAME_LEN = 48, POSITIONS = 120 };

/* A name the template asks, with the sections around it as written. */
struct use {
	char stack[MAX_DEPTH][NAME_LEN];
	int depth;
	char name[NAME_LEN];
	char path[PATH_LEN];  /* the items' path it is asked at (resolve()) */
	int inner;            /* stack[inner..depth): flags' sections inside that item */
};

/* What the trees had at one path of sections ("seats/dice"). */
struct path {
	char path[PATH_LEN];
	char keys[MAX_KEYS][NAME_LEN];      /* every key an item there wrote */
	char sections[MAX_KEYS][NAME_LEN];  /* the keys that were items (sections) */
	char missed[MAX_KEYS][NAME_LEN];    /* names an item lacked while an outer one had them on */
	int nkeys, nsections, nmissed;
};

struct names {
	struct use uses[MAX_USES];
	int nuses;
	struct path paths[MAX_PATHS];
	int npaths;
};

static int has(char (*list)[NAME_LEN], int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (strcmp(list[i], s) == 0)
			return 1;
	return 0;
}

static void add(char (*list)[NAME_LEN], int *n, const char *s)
{
	if (has(list, *n, s))
		return;
	assert_true(*n < MAX_KEYS && strlen(s) < NAME_LEN);
	strcpy(list[(*n)++], s);
}

static struct path *path_at(struct names *nm, const char *p)
{
	for (int i = 0; i < nm->npaths; i++)
		if (strcmp(nm->paths[i].path, p) == 0)
			return &nm->paths[i];
	assert_true(nm->npaths < MAX_PATHS && strlen(p) < PATH_LEN);
	struct path *r = &nm->paths[nm->npaths++];
	memset(r, 0, sizeof *r);
	strcpy(r->path, p);
	return r;
}

/* Reads the names of templates/game-SLUG.tpl with the sections around each. */
static void read_template(const struct game *g, struct names *nm)
{
	const char *root = getenv("SPIELTISCH_ROOT");
	char file[512];
	snprintf(file, sizeof file, "%s/templates/game-%s.tpl", root ? root : ".", g->slug);
	FILE *f = fopen(file, "r");
	if (!f) {   /* the generic board, which reads the game's top level only */
		snprintf(file, sizeof file, "%s/templates/game-generic.tpl", root ? root : ".");
		f = fopen(file, "r");
		if (!f)
			fail_msg("no templates at %s (SPIELTISCH_ROOT)", root ? root : ".");
		fclose(f);
		return;
	}
	static char text[1 << 18];
	size_t len = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[len] = '\0';
	char stack[MAX_DEPTH][NAME_LEN];
	int depth = 0;
	for (const char *p = strstr(text, "{{"); p; p = strstr(p + 2, "{{")) {
		const char *q = p + 2;
		char kind = strchr("#/>!", *q) && *q ? *q++ : 0;
		size_t n = strcspn(q, ":}");
		if (kind == '!' || kind == '>' || n == 0 || n >= NAME_LEN)
			continue;
		char name[NAME_LEN];
		memcpy(name, q, n);
		name[n] = '\0';
		if (kind == '/') {
			if (depth > 0 && strcmp(stack[depth - 1], name) == 0)
				depth--;
			continue;
		}
		if (depth > 0) {
			assert_true(nm->nuses < MAX_USES);
			struct use *u = &nm->uses[nm->nuses++];
			memcpy(u->stack, stack, sizeof stack);
			u->depth = depth;
			strcpy(u->name, name);
		}
		if (kind == '#') {
			assert_true(depth < MAX_DEPTH);
			strcpy(stack[depth++], name);
		}
	}
}

/* On: a flag that is on, a value (of any text), an item. */
static const struct view_node *find(const struct view_node *d, const char *key)
{
	for (const struct view_node *n = d->first; n; n = n->next)
		if (n->key && strcmp(n->key, key) == 0)
			return n;
	return NULL;
}

static int on(const struct view_node *n)
{
	return n && (n->kind != VIEW_FLAG || n->num != 0);
}

/* Whether the template asks use u of dictionary d: every flag's section
 * around it inside the item is shown (in d or, as ctemplate looks, further out). */
static int asked(const struct use *u, const struct view_node *d,
		 const struct view_node **outer, int nouter)
{
	for (int f = u->inner; f < u->depth; f++) {
		int shown = on(find(d, u->stack[f]));
		for (int i = nouter - 1; i >= 0 && !shown; i--)
			shown = on(find(outer[i], u->stack[f]));
		if (!shown)
			return 0;
	}
	return 1;
}

/* Walks the dictionaries under d; outer[0..nouter) are those around d, the
 * game's own first. First pass (check 0): what the items at each path wrote.
 * Second (check 1): for each name asked at d's path that d lacks, whether an
 * outer dictionary has it on. */
static void walk_tree(struct names *nm, const struct view_node *d, const char *path,
		      const struct view_node **outer, int nouter, int check)
{
	struct path *p = path_at(nm, path);
	for (const struct view_node *n = d->first; n && !check; n = n->next)
		if (n->key) {
			add(p->keys, &p->nkeys, n->key);
			if (n->kind == VIEW_SECTION)
				add(p->sections, &p->nsections, n->key);
		}
	for (int u = 0; check && nouter > 0 && u < nm->nuses; u++) {
		const struct use *x = &nm->uses[u];
		if (strcmp(x->path, path) != 0 || on(find(d, x->name)) ||
		    has(p->missed, p->nmissed, x->name) || !asked(x, d, outer, nouter))
			continue;
		for (int i = nouter - 1; i >= 0; i--)
			if (on(find(outer[i], x->name))) {
				add(p->missed, &p->nmissed, x->name);
				break;
			}
	}
	assert_true(nouter < MAX_DEPTH);
	outer[nouter] = d;
	for (const struct view_node *n = d->first; n; n = n->next)
		if (n->kind == VIEW_SECTION) {
			char sub[PATH_LEN];
			int w = snprintf(sub, sizeof sub, "%s%s%s", path, *path ? "/" : "", n->key);
			assert_true(w > 0 && w < PATH_LEN);
			walk_tree(nm, n, sub, outer, nouter + 1, check);
		}
}

/* The game's dictionary as the table page builds it for `seat`. */
static void game_tree(struct names *nm, const struct game *g, const void *st, int nplayers,
		      int seat, int html_only, struct arena *a, int check)
{
	static const char *const seat_names[GAME_MAX_SEATS] = {
		"Ada", "Bea", "Cem", "Dan", "Eli", "Fee", "Gil", "Hal", "Ida", "Jo"
	};
	struct view v;
	view_init(&v, a);
	v.html_only = html_only;
	view_include(&v, "game", "game.tpl");
	view_num(&v, "table_id", 7);
	view_num(&v, "v", 42);
	view_str(&v, "csrf", seat >= 0 ? "TOKEN" : "");
	view_str(&v, "move_url", "/t/7/move");
	view_num(&v, "my_seat", seat);
	view_names(&v, seat_names, nplayers);
	struct view_sink sink;
	view_sink_init(&v, &sink);
	g->view(st, seat, &sink);
	view_names(&v, NULL, 0);
	view_end(&v);
	assert_false(v.failed);
	const struct view_node *outer[MAX_DEPTH];
	walk_tree(nm, v.root.first, "", outer, 0, check);
}

/* Each use's path: the sections around it that were items (a flag's
 * section is the same dictionary), after the first pass. */
static void resolve(struct names *nm)
{
	for (int u = 0; u < nm->nuses; u++) {
		struct use *x = &nm->uses[u];
		x->path[0] = '\0';
		x->inner = 0;
		for (int i = 0; i < x->depth; i++) {
			struct path *p = path_at(nm, x->path);
			if (!has(p->sections, p->nsections, x->stack[i]))
				continue;
			size_t l = strlen(x->path);
			snprintf(x->path + l, sizeof x->path - l, "%s%s", l ? "/" : "", x->stack[i]);
			x->inner = i + 1;
		}
	}
}

/* Fails for every name the template asks inside an item that the item
 * writes only sometimes, where an outer dictionary answered in its place. */
static void judge(const struct game *g, struct names *nm)
{
	int bad = 0;
	for (int u = 0; u < nm->nuses; u++) {
		const struct use *x = &nm->uses[u];
		struct path *p = path_at(nm, x->path);
		if (*x->path && has(p->keys, p->nkeys, x->name) &&
		    has(p->missed, p->nmissed, x->name)) {
			print_error("%s: {{%s}} in %s: an item without it shows an outer one's\n",
				    g->slug, x->name, x->path);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* Random positions of g, each seat's trees (the full one and the page's
 * html_only one) walked; the same positions in both passes. */
static void play(const struct game *g, struct names *nm, void *st, struct arena *a, int check)
{
	struct rng rng;
	rng_seed(&rng, 0x7e3b1a);
	for (long pos = 0; pos < POSITIONS; pos++) {
		struct setup s;
		struct rerr e;
		int steps = walk_position(g, st, &s, &rng, pos, 400, &e);
		if (steps == -2)
			continue;   /* an option combination the game refuses */
		if (steps < 0)
			fail_msg("%s: random walk failed: %s", g->slug, e.msg);
		for (int seat = -1; seat < s.nplayers; seat++)
			for (int html_only = 0; html_only < 2; html_only++) {
				arena_reset(a);
				game_tree(nm, g, st, s.nplayers, seat, html_only, a, check);
			}
	}
}

static void test_game(void **state)
{
	const struct game *g = *state;
	static struct names nm;
	memset(&nm, 0, sizeof nm);
	read_template(g, &nm);
	void *st = malloc(g->state_size);
	assert_non_null(st);
	struct arena a;
	arena_init(&a, 16u << 20);
	play(g, &nm, st, &a, 0);
	resolve(&nm);
	play(g, &nm, st, &a, 1);
	arena_free(&a);
	free(st);
	judge(g, &nm);
}

/* One cmocka test per registered game, so a failure names the game. */
int main(void)
{
	return run_per_game("tmpl_names", test_game, NULL);
}
