/* cmd-args.c — the argument readers the subcommands share (cmd.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "options.h"

int cmd_read_long(const char *s, long min, long max, long *out)
{
	char *end;
	if (!s || !*s)
		return -1;
	long long v = strtoll(s, &end, 10);
	if (*end != '\0' || v < min || v > max)
		return -1;
	*out = (long)v;
	return 0;
}

int cmd_set_opt(const struct game *g, int *opt, const char *kv, struct rerr *e)
{
	char buf[96];
	snprintf(buf, sizeof buf, "%s", kv ? kv : "");
	char *eq = strchr(buf, '=');
	if (!eq)
		return rerr_set(e, "--opt wants KEY=VALUE, not '%s'", buf);
	*eq = '\0';
	return options_set(g, opt, buf, eq + 1, e);
}
