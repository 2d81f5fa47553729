/* json.c — view tree → JSON with jansson; see json.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "json.h"

/* The entries of dictionary `d` as a new JSON object, or NULL. */
static json_t *dict_to_json(const struct view_node *d, int depth)
{
	if (depth > 32)
		return NULL;
	json_t *o = json_object();
	if (!o)
		return NULL;
	for (const struct view_node *n = d->first; n; n = n->next) {
		json_t *val = NULL;
		switch (n->kind) {
		case VIEW_STR:
			val = json_stringn(n->str, strlen(n->str));
			break;
		case VIEW_NUM:
			val = json_integer((json_int_t)n->num);
			break;
		case VIEW_FLAG:
			val = json_boolean(n->num);
			break;
		case VIEW_INCLUDE:
			val = dict_to_json(n, depth + 1);
			break;
		case VIEW_SECTION:
		case VIEW_LIST: {
			json_t *arr = json_object_get(o, n->key);
			if (!arr) {
				arr = json_array();
				if (!arr || json_object_set_new(o, n->key, arr) != 0)
					goto fail;
			} else if (!json_is_array(arr)) {
				fprintf(stderr, "json: '%s' is both a value and a section\n", n->key);
				goto fail;
			}
			if (n->kind == VIEW_SECTION) {
				json_t *item = dict_to_json(n, depth + 1);
				if (!item || json_array_append_new(arr, item) != 0)
					goto fail;
			}
			continue;
		}
		case VIEW_KIND__MAX:
			abort();
		}
		if (!val || json_object_set_new(o, n->key, val) != 0)
			goto fail;
	}
	return o;
fail:
	json_decref(o);
	return NULL;
}

char *json_render(struct arena *a, const struct view_node *root, size_t *len)
{
	char *out = NULL, *text = NULL;
	json_t *o = dict_to_json(root, 0);
	if (!o)
		goto out;
	text = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	if (!text)
		goto out;
	size_t extra = 0;
	for (const char *p = text; *p; p++)
		if (*p == '<' || *p == '>' || *p == '&')
			extra += 5;
	size_t n = strlen(text) + extra;
	out = arena_alloc(a, n + 2);
	if (!out)
		goto out;
	char *q = out;
	for (const char *p = text; *p; p++) {
		if (*p == '<' || *p == '>' || *p == '&') {
			memcpy(q, *p == '<' ? "\\u003c" : *p == '>' ? "\\u003e" : "\\u0026", 6);
			q += 6;
		} else
			*q++ = *p;
	}
	*q++ = '\n';
	*q = '\0';
	*len = n + 1;
out:
	free(text);
	json_decref(o);
	return out;
}
