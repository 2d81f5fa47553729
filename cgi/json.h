/* json.h — a view tree (view.h) as JSON, written in one pass (json.c). */
#ifndef SPIELTISCH_JSON_H
#define SPIELTISCH_JSON_H

#include <stddef.h>

#include "arena.h"
#include "view.h"

/* The dictionary `root` as one JSON object: strings, integers, booleans
 * (flags, false included), repeated sections as arrays of objects, included
 * dictionaries as objects. '<', '>' and '&' are written as \u escapes so the
 * text is inert even if a browser were to sniff it. A string that is not
 * well-formed UTF-8 (a message that cut a character in two) is written
 * with U+FFFD for each bad byte, never refused. The text is in the arena
 * (NUL-terminated, *len bytes); NULL only when out of memory (500). */
char *json_render(struct arena *a, const struct view_node *root, size_t *len);

/* The same text written while the view is made, without a tree
 * (view_json, view.h): each call writes its entry (key `key`) into the
 * open dictionary. json_stream_value: a string (s, num its
 * length), number (num) or flag (num 0 or 1); json_stream_open: a section's
 * next item or an included dictionary (opened), or a list (nothing
 * opened); json_stream_end closes what was opened. Each returns 0 once the
 * text cannot be written (out of memory, too deep, a key both a value and a
 * section, an end without a begin: json_render would have failed too).
 * json_stream_finish closes what is still open and returns the text as
 * json_render would of the same tree, or NULL. Keys are at most 65,535
 * bytes and the text at most 2 GiB (the records' sizes); a longer one
 * fails the text. */
struct json_stream;
struct json_stream *json_stream_new(struct arena *a);
int json_stream_value(struct json_stream *js, const char *key, enum view_kind kind,
		      const char *s, long long num);
int json_stream_open(struct json_stream *js, const char *key, enum view_kind kind);
/* json_stream_value of a flag (on: 0 or 1) and of a number. */
int json_stream_flag(struct json_stream *js, const char *key, int on);
int json_stream_num(struct json_stream *js, const char *key, long long num);
/* For a string s (len bytes, without '@' to put names in) that is a literal
 * of the program: json_stream_value, and s remembered when it was written
 * as it is. json_stream_known writes such a remembered s again at once:
 * 1, -1 when the text cannot be written, 0 when s is not remembered (then
 * nothing was written). */
int json_stream_literal(struct json_stream *js, const char *key, const char *s, size_t len);
int json_stream_known(struct json_stream *js, const char *key, const char *s);
/* json_stream_value of a string s (len bytes) the caller knows to be
 * printable ASCII without " & < > \\ (nothing to escape or check): copied
 * as it is, with its quotes. */
int json_stream_plain(struct json_stream *js, const char *key, const char *s, size_t len);
int json_stream_end(struct json_stream *js);
char *json_stream_finish(struct json_stream *js, size_t *len);

/* A constant group of entries (struct view_group, rules/game.h) as text
 * kept for the process: json_group_take makes it of a stream that holds
 * only the group's entries (NULL: none, then the entries are written one
 * by one each time: out of memory, a failed text, a '@' in it); json_stream_group writes it into the open dictionary of js
 * as the entries would be: 1, 0 when it cannot be copied here (a key the
 * dictionary may have already: write the entries), -1 when the text
 * cannot be written. */
struct json_group;
struct json_group *json_group_take(struct json_stream *js);
int json_stream_group(struct json_stream *js, const struct json_group *g);
void json_group_free(struct json_group *g);

#endif
