#include <stdio.h>
#include <string.h>

#include "movetext.h"
#include "options.h"

void options_default(const struct game *g, int *opt)
{
	memset(opt, 0, sizeof(int) * GAME_OPT_MAX);
	for (int i = 0; i < g->noptions; i++)
		opt[i] = g->options[i].def;
}

int options_index(const struct game *g, const char *key)
{
	for (int i = 0; i < g->noptions; i++)
		if (strcmp(g->options[i].key, key) == 0)
			return i;
	return -1;
}

int options_set(const struct game *g, int *opt, const char *key, const char *value,
		struct rerr *e)
{
	int i = options_index(g, key);
	if (i < 0)
		return rerr_set(e, "Unbekannte Option '%.40s'.", key);
	const struct game_option *o = &g->options[i];
	int v;
	if (o->type == OPT_BOOL && (strcmp(value, "on") == 0 || strcmp(value, "1") == 0)) {
		opt[i] = 1;
		return 0;
	}
	if (o->type == OPT_BOOL && (strcmp(value, "off") == 0 || strcmp(value, "0") == 0)) {
		opt[i] = 0;
		return 0;
	}
	if (o->type != OPT_INT || mt_int(value, o->min, o->max, &v) != 0)
		return rerr_set(e, "%s: bitte einen Wert von %d bis %d angeben.", o->label,
				o->min, o->max);
	opt[i] = v;
	return 0;
}

int options_format(const struct game *g, const int *opt, char *out, size_t cap)
{
	size_t len = 0;
	if (cap == 0)
		return -1;
	out[0] = '\0';
	for (int i = 0; i < g->noptions; i++) {
		int n = snprintf(out + len, cap - len, "%s%s=%d", i ? ";" : "",
				 g->options[i].key, opt[i]);
		if (n < 0 || (size_t)n >= cap - len)
			return -1;
		len += (size_t)n;
	}
	return 0;
}

int options_parse(const struct game *g, int *opt, const char *text, struct rerr *e)
{
	char item[96];
	options_default(g, opt);
	while (text && *text) {
		const char *end = strchr(text, ';');
		size_t n = end ? (size_t)(end - text) : strlen(text);
		if (n >= sizeof item)
			return rerr_set(e, "Option zu lang.");
		memcpy(item, text, n);
		item[n] = '\0';
		char *eq = strchr(item, '=');
		if (!eq)
			return rerr_set(e, "Option ohne Wert: '%.40s'.", item);
		*eq = '\0';
		if (options_set(g, opt, item, eq + 1, e) != 0)
			return -1;
		text = end ? end + 1 : NULL;
	}
	return 0;
}
