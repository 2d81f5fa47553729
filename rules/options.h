/* options.h — table options, read and written the same way by the lobby
 * form, the store ("key=value;key=value") and the simulator (--opt k=v). */
#ifndef SPIELTISCH_OPTIONS_H
#define SPIELTISCH_OPTIONS_H

#include <stddef.h>

#include "game.h"

/* Every option at its default. */
void options_default(const struct game *g, int *opt);
/* Index of the option `key`, or -1. */
int options_index(const struct game *g, const char *key);
/* Sets one option from text, strictly (range-checked integer, or 0/1, on/off
 * for a yes/no option). 0, or -1 with a message. */
int options_set(const struct game *g, int *opt, const char *key, const char *value,
		struct rerr *e);
/* "key=value;key=value" of every option. 0, or -1 when cap is too small. */
int options_format(const struct game *g, const int *opt, char *out, size_t cap);
/* Reads the format above over the defaults; unknown keys are an error. */
int options_parse(const struct game *g, int *opt, const char *text, struct rerr *e);

#endif
