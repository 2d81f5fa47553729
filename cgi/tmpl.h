/* tmpl.h — ctemplate behind a small C interface (tmpl.cc is the only C++).
 * Templates are read once per process (serve: before it forks the workers):
 * parsed in German at the load, in any other language at the first expansion
 * in it, from the text read then, and frozen: no disk access while serving.
 * Every template must begin with {{%AUTOESCAPE context="HTML"}}, a feed
 * (*.atom.tpl) with {{%AUTOESCAPE context="XML"}}, a plain text (a mail,
 * *.txt.tpl: nothing escaped, blank lines kept) with
 * {{! plain text, not escaped }}. The loader parses an HTML template
 * without auto-escape, each variable with the modifiers auto-escape chose
 * for it written out (x-url for ValidateUrl), but those that would get
 * html_escape alone: their values are escaped by the expansion itself (the
 * same bytes, without ctemplate's modifier calls); it writes the move
 * form's text in place of {{>move_form}}. A feed or a text includes no
 * template. docs/views.md. */
#ifndef SPIELTISCH_TMPL_H
#define SPIELTISCH_TMPL_H

#include <stddef.h>

#include "arena.h"
#include "view.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Loads every *.tpl of dir and checks that it parses in every language.
 * 0, or -1 after logging each file that is missing the AUTOESCAPE pragma or
 * fails to parse. */
int tmpl_load(const char *dir);

/* 1 when template `name` was loaded by tmpl_load. */
int tmpl_exists(const char *name);

/* Expands template `name` (a file name in the loaded directory) with the
 * dictionary `root`: values, flags as shown sections, repeated sections,
 * includes with their own dictionary and file name. The text is in the
 * arena (*len bytes, NUL-terminated); NULL when the template is unknown or
 * expansion failed (logged; the caller answers 500). A large dictionary of
 * the tree gets an index of its names on the way (view_node.lookup). */
char *tmpl_expand(struct arena *a, const char *name, struct view_node *root, size_t *len);

#ifdef __cplusplus
}
#endif

#endif
