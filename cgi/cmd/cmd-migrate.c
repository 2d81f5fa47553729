/* cmd-migrate.c — `spieltisch migrate --from FILE.db --to postgresql://…
 * [--root DIR]`: moves a site from SQLite to PostgreSQL (docs/scaling.md).
 * The target gets its schema (schema/pg/, as `serve` would apply it), then
 * every row of every table in one transaction (store_copy_to_postgres);
 * then it is checked: each table's rows counted on both sides, and every
 * party of every table rebuilt from its setup and log on the target and
 * compared with its stored position (play_verify_party, what the replay
 * check of `spieltisch replay` does for an export). Prints one line per
 * table and the parties verified. Exit 0 when all of it holds, 1 when a
 * check fails, 2 on bad arguments or a failure to copy (nothing committed
 * then). Run it with the app stopped: the source must not change meanwhile. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "play.h"
#include "store.h"

struct migrate_opts {
	const char *from, *to, *root;
};

static int migrate_usage(void)
{
	fprintf(stderr, "usage: spieltisch migrate --from FILE.db --to postgresql://... "
		"[--root DIR]\n");
	return 2;
}

static int read_opts(int argc, char **argv, struct migrate_opts *o)
{
	*o = (struct migrate_opts){ .root = "." };
	for (int i = 1; i < argc; i++) {
		const char **dst = strcmp(argv[i], "--from") == 0 ? &o->from :
				   strcmp(argv[i], "--to") == 0 ? &o->to :
				   strcmp(argv[i], "--root") == 0 ? &o->root : NULL;
		if (!dst || i + 1 >= argc)
			return -1;
		*dst = argv[++i];
	}
	if (!o->from || !o->to || store_is_postgres(o->from) || !store_is_postgres(o->to))
		return -1;
	return 0;
}

/* Every party of every table on the target equals its replay; the
 * parties verified, or -1 (said on stderr). */
static int verify_parties(struct store *to, const int64_t *ids, int n)
{
	int parties = 0, bad = 0;
	for (int i = 0; i < n; i++) {
		struct st_table t;
		if (store_table_get(to, ids[i], &t) != ST_OK) {
			fprintf(stderr, "migrate: table %" PRId64 " is not on the target\n", ids[i]);
			bad++;
			continue;
		}
		for (int k = 0; k <= t.party_no; k++) {
			struct rerr e = { .msg = "" };
			int rc = play_verify_party(to, ids[i], k, &e);
			if (rc != PLAY_OK) {
				fprintf(stderr, "migrate: table %" PRId64 " party %d: %s (%s)\n",
					ids[i], k + 1, play_message(rc), e.msg);
				bad++;
			} else {
				parties++;
			}
		}
	}
	return bad ? -1 : parties;
}

int cmd_migrate(int argc, char **argv)
{
	struct migrate_opts o;
	if (read_opts(argc, argv, &o) != 0)
		return migrate_usage();
	char schema[4096], err[512];
	snprintf(schema, sizeof schema, "%s/schema", o.root);
	struct store *from = NULL, *to = NULL;
	struct st_copy_count counts[ST_COPY_TABLES_MAX];
	int64_t *ids = NULL;
	int n = 0, nids = 0, status = 2;
	if (store_open(&from, o.from, schema) != ST_OK || store_open(&to, o.to, schema) != ST_OK) {
		fprintf(stderr, "migrate: cannot open %s or %s\n", o.from, o.to);
		goto out;
	}
	if (store_copy_to_postgres(from, o.to, counts, &n, err, sizeof err) != ST_OK) {
		fprintf(stderr, "migrate: nothing copied: %s\n", err);
		goto out;
	}
	status = 0;
	for (int k = 0; k < n; k++) {
		printf("%-22s %10" PRId64 " rows, %10" PRId64 " on the target%s\n", counts[k].table,
		       counts[k].from, counts[k].to, counts[k].from == counts[k].to ? "" : "  DIFFER");
		if (counts[k].from != counts[k].to)
			status = 1;
	}
	if (store_copy_table_ids(from, &ids, &nids) != ST_OK) {
		fprintf(stderr, "migrate: cannot list the tables\n");
		status = 1;
		goto out;
	}
	int parties = verify_parties(to, ids, nids);
	if (parties < 0)
		status = 1;
	else
		printf("replayed: %d parties of %d tables, each as stored\n", parties, nids);
out:
	free(ids);
	store_close(to);
	store_close(from);
	return status;
}
