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

#endif
