/*
 * view.h — the view tree of one request (docs/views.md).
 *
 * Pages and games fill one tree of named values and repeated sections; the
 * same tree is expanded by ctemplate (tmpl.h) and written as JSON (json.h),
 * so both renderings show the same data. The tree lives in the request's
 * arena: nothing here is freed on its own.
 */
#ifndef SPIELTISCH_VIEW_H
#define SPIELTISCH_VIEW_H

#include "arena.h"

struct view_sink;   /* rules/game.h */
struct json_stream; /* json.h */

#ifdef __cplusplus
extern "C" {
#endif

enum view_kind {
	VIEW_STR,       /* {{key}} / "key": "text" */
	VIEW_NUM,       /* {{key}} / "key": 12 */
	VIEW_FLAG,      /* section shown / "key": true|false */
	VIEW_SECTION,   /* one item of a repeated section / one object of "key": [ … ] */
	VIEW_INCLUDE,   /* an included template with its own dictionary / "key": { … } */
	VIEW_LIST,      /* "key": [] even when no item follows (JSON only) */
	VIEW_KIND__MAX
};

struct view_node {
	enum view_kind kind;
	const char *key;
	const char *str;                  /* VIEW_STR: text; VIEW_INCLUDE: template file */
	long long num;                    /* VIEW_NUM; VIEW_FLAG: 0 or 1; VIEW_STR: strlen(str) */
	struct view_node *first, *last;   /* SECTION, INCLUDE: the entries inside */
	struct view_node *next, *up;
	struct view_node *prev;           /* the entry before it in its dictionary */
	int global;                       /* STR, NUM: seen by included templates too;
					     SECTION, INCLUDE: such a value lies inside */
	unsigned klen, khash;             /* strlen(key), view_key_hash(key, klen) */
	void *lookup;                     /* SECTION, INCLUDE: tmpl.cc's index of the
					     entries, made while a template reads them */
	unsigned count;                   /* SECTION, INCLUDE: its entries */
	unsigned long long vmask, smask;  /* SECTION, INCLUDE: view_key_bit of every
					     value's key inside, and of every other
					     entry's (a flag's only when it is on): a
					     clear bit says a name is not there
					     without looking (tmpl.cc) */
};

struct view {
	struct arena *a;
	struct view_node root;            /* the page's dictionary */
	struct view_node *cur;            /* where the next entry goes */
	const char *const *names;         /* seat names for substitution */
	int nnames;                       /* > 0: @N and *_seat_name substitution on */
	unsigned name_len[10];            /* strlen(names[i]) (0: NULL) */
	unsigned name_plain;              /* bit i: names[i] is printable ASCII
					     without " & < > \\: JSON as it is */
	int failed;                       /* out of memory or unbalanced: answer 500 */
	int html_only;                    /* the tree is only expanded (page_html), never
					     rendered as JSON: a flag that is off is left
					     out, as a template cannot tell it from none */
	struct json_stream *js;           /* view_json: entries written as JSON, no tree */
};

/* The hash a node keeps of its key (len bytes), by which tmpl.cc finds
 * names: the length and three of the bytes, cheap to take at every node. */
static inline unsigned view_key_hash(const char *p, size_t len)
{
	if (!len)
		return 0;
	unsigned h = (unsigned)len * 0x9E3779B1u;
	h = (h ^ (unsigned char)p[0]) * 0x01000193u;
	h = (h ^ (unsigned char)p[len / 2]) * 0x01000193u;
	h = (h ^ (unsigned char)p[len - 1]) * 0x01000193u;
	return h ^ (h >> 15);
}

/* The bit of a key's hash (view_key_hash) in a dictionary's vmask/smask. */
static inline unsigned long long view_key_bit(unsigned khash)
{
	return 1ULL << ((khash >> 8) & 63);
}

/* An empty tree whose nodes come from arena a. */
void view_init(struct view *v, struct arena *a);
/* Right after view_init: no tree is built, every entry is written as JSON
 * at once (json_stream_*, json.h), the text json_render would write of the
 * tree; page_json takes it. For a JSON answer that nothing reads back. */
void view_json(struct view *v);

void view_str(struct view *v, const char *key, const char *val);
void view_strf(struct view *v, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void view_num(struct view *v, const char *key, long long val);
void view_flag(struct view *v, const char *key, int on);
/* Like view_str and view_num, but an HTML template sees the value inside
 * every template it includes as well (the move form, move-form.tpl, reads
 * move_url, csrf and v this way). JSON shows an ordinary value. */
void view_global_str(struct view *v, const char *key, const char *val);
void view_global_num(struct view *v, const char *key, long long val);
/* Opens one more item of the repeated section `key`; view_end() closes it. */
void view_begin(struct view *v, const char *key);
/* Opens the dictionary of template `file` included as {{>key}}. */
void view_include(struct view *v, const char *key, const char *file);
void view_end(struct view *v);
/* Marks `key` as a list so that JSON shows [] when it stays empty. */
void view_list(struct view *v, const char *key);

/* Turns on name substitution for what follows (a game's view): "@N" in a
 * string becomes names[N], and a number under "seat" or "*_seat" also sets
 * "<key>_name". names[i] may be NULL (an empty seat: ""). n = 0 turns it off.
 * The array and its strings must live as long as the tree. */
void view_names(struct view *v, const char *const *names, int n);

/* Entries that depend on nothing but `key` (a NUL-terminated text the
 * caller makes of everything they depend on) and the language: a JSON
 * view (view_json) writes them from a memo of the same key's JSON text,
 * kept per process, and makes that memo at the key's first use by calling
 * emit(v2, arg) on a view of its own; 1 then. 0: emit them yourself (a
 * tree, or a text that cannot be copied here). Only for public entries: a
 * memo's presence, and so a request's time, tells what other requests
 * asked for. */
int view_memo(struct view *v, const char *key, void (*emit)(struct view *v, const void *arg),
	      const void *arg);

/* Sets *out to a view_sink (rules/game.h) that feeds this tree, for game->view(). */
void view_sink_init(struct view *v, struct view_sink *out);

#ifdef __cplusplus
}
#endif

#endif
