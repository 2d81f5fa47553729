/* cmd-replay.c — `spieltisch replay FILE`: plays a finished party's export
 * (GET /t/<id>/replay.txt, templates/replay.txt.tpl, docs/api.md
 * "Replays") back with the rules core from its setup and checks it: every
 * step must apply, and the end must be the same position (the public
 * position's check, play_view_sig for the spectator) with the same
 * scores. A party closed with its damaged table ("closed draw": its log
 * does not end it) counts as a draw without points (docs/storage.md): its
 * steps must apply, its log must not end it, and its scores be 0. Prints
 * the scores; exit 0 when everything matches, 1 on a mismatch or a step
 * that does not apply, 2 when the file is unreadable or malformed. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "game.h"
#include "options.h"
#include "play.h"
#include "sim.h"

enum { REPLAY_LINE_MAX = GAME_MOVE_MAX + 64 };

struct export {
	const struct game *g;
	struct setup su;
	struct sim_step *log;
	int n, cap;
	char position[32];
	int scores[GAME_MAX_SEATS], nscores;
	int closed;           /* "closed draw": the server closed the party, a draw */
	int have_setup;       /* bits: game, players, dealer, seed */
};

/* "step SEAT AT TEXT" into x->log. 0, or -1. */
static int read_step(struct export *x, char *rest)
{
	char *end;
	long seat = strtol(rest, &end, 10);
	if (end == rest || *end != ' ' || seat < -1 || seat >= GAME_MAX_SEATS)
		return -1;
	rest = end + 1;
	long long at = strtoll(rest, &end, 10);
	if (end == rest || (*end != ' ' && *end != '\0'))
		return -1;
	const char *text = *end ? end + 1 : "";
	if (strlen(text) > GAME_MOVE_MAX)
		return -1;
	if (x->n == x->cap) {
		int cap = x->cap ? x->cap * 2 : 256;
		struct sim_step *l = realloc(x->log, (size_t)cap * sizeof *l);
		if (!l)
			return -1;
		x->log = l;
		x->cap = cap;
	}
	struct sim_step *s = &x->log[x->n++];
	s->seat = (int)seat;
	s->at = at;
	snprintf(s->text, sizeof s->text, "%s", text);
	return 0;
}

/* One line "KEY VALUE" of the export. 0, or -1 with why. */
static int read_line(struct export *x, char *line, char *why, size_t cap)
{
	char *sp = strchr(line, ' ');
	const char *key = line;
	char *val = sp ? sp + 1 : line + strlen(line);
	long v;
	if (sp)
		*sp = '\0';
	if (strcmp(key, "step") == 0)
		return read_step(x, val) == 0 ? 0 : (snprintf(why, cap, "bad step"), -1);
	if (strcmp(key, "game") == 0) {
		x->g = game_find(val);
		if (x->g)
			options_default(x->g, x->su.opt);
		x->have_setup |= x->g ? 1 : 0;
		return x->g ? 0 : (snprintf(why, cap, "unknown game '%s'", val), -1);
	}
	if (strcmp(key, "options") == 0) {
		struct rerr e;
		if (!x->g || options_parse(x->g, x->su.opt, val, &e) != 0)
			return snprintf(why, cap, "options: %s", x->g ? e.msg : "before the game"), -1;
		return 0;
	}
	if (strcmp(key, "players") == 0 || strcmp(key, "dealer") == 0) {
		if (cmd_read_long(val, 0, GAME_MAX_SEATS, &v) != 0)
			return snprintf(why, cap, "bad %s", key), -1;
		*(key[0] == 'p' ? &x->su.nplayers : &x->su.dealer) = (int)v;
		x->have_setup |= key[0] == 'p' ? 2 : 4;
		return 0;
	}
	if (strcmp(key, "seed") == 0) {
		char *end;
		x->su.seed = strtoull(val, &end, 10);
		x->have_setup |= 8;
		return *val && !*end ? 0 : (snprintf(why, cap, "bad seed"), -1);
	}
	if (strcmp(key, "position") == 0)
		return snprintf(x->position, sizeof x->position, "%s", val), 0;
	if (strcmp(key, "closed") == 0) {
		x->closed = 1;
		return strcmp(val, "draw") == 0 ? 0 : (snprintf(why, cap, "bad closed"), -1);
	}
	if (strcmp(key, "scores") == 0) {
		for (char *t = val, *end; *t && x->nscores < GAME_MAX_SEATS; t = end) {
			long sc = strtol(t, &end, 10);
			if (end == t || (*end != ' ' && *end != '\0'))
				return snprintf(why, cap, "bad scores"), -1;
			x->scores[x->nscores++] = (int)sc;
			while (*end == ' ')
				end++;
		}
		return 0;
	}
	return 0;   /* table, party and what a later version adds: not needed */
}

/* Reads the export at path into x. 0, or -1 (said on stderr). */
static int read_export(const char *path, struct export *x)
{
	FILE *f = fopen(path, "r");
	char line[REPLAY_LINE_MAX], why[GAME_ERR_MAX + 64] = "";
	int no = 0, rc = 0;
	if (!f) {
		perror(path);
		return -1;
	}
	while (rc == 0 && fgets(line, sizeof line, f)) {
		no++;
		size_t n = strlen(line);
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (n == 0 || line[0] == '#')
			continue;
		rc = read_line(x, line, why, sizeof why);
	}
	fclose(f);
	if (rc == 0 && x->have_setup != 15)
		snprintf(why, sizeof why, "no game, players, dealer or seed"), no = 0, rc = -1;
	if (rc != 0)
		fprintf(stderr, "%s:%d: %s\n", path, no, why);
	return rc;
}

/* Plays x back and compares. 0 when the same, 1 otherwise (said). */
static int check(const char *path, struct export *x)
{
	void *st = calloc(1, x->g->state_size);
	struct rerr e;
	struct status s;
	int bad = 0;
	if (!st)
		return 1;
	if (sim_replay(x->g, &x->su, x->log, x->n, st, &e) != 0) {
		fprintf(stderr, "%s: a step does not replay: %s\n", path, e.msg);
		free(st);
		return 1;
	}
	x->g->status(st, &s);
	if (x->closed)   /* a draw: no points */
		memset(s.score, 0, sizeof s.score);
	char pos[32];
	snprintf(pos, sizeof pos, "%016" PRIx64, play_view_sig(x->g, st, -1));
	printf("%s: %d steps, %sscores", x->g->slug, x->n, x->closed ? "closed as a draw, " : "");
	for (int i = 0; i < x->su.nplayers; i++)
		printf(" %d", s.score[i]);
	putchar('\n');
	if (!s.over && !x->closed)
		bad = fprintf(stderr, "%s: the party does not end\n", path) > 0;
	if (s.over && x->closed)
		bad = fprintf(stderr, "%s: the log ends the party, the file says it was closed\n",
			      path) > 0;
	if (x->position[0] && strcmp(pos, x->position) != 0)
		bad = fprintf(stderr, "%s: the position differs (%s, the file says %s)\n", path,
			      pos, x->position) > 0;
	if (x->nscores != x->su.nplayers)
		bad = fprintf(stderr, "%s: %d scores for %d players\n", path, x->nscores,
			      x->su.nplayers) > 0;
	for (int i = 0; i < x->nscores && i < x->su.nplayers; i++)
		if (x->scores[i] != s.score[i])
			bad = fprintf(stderr, "%s: seat %d scores %d, the file says %d\n", path, i + 1,
				      s.score[i], x->scores[i]) > 0;
	free(st);
	return bad;
}

int cmd_replay(int argc, char **argv)
{
	if (argc != 2) {
		fputs("usage: spieltisch replay FILE\n", stderr);
		return 2;
	}
	struct export x;
	memset(&x, 0, sizeof x);
	int rc = read_export(argv[1], &x) != 0 ? 2 : 0;
	if (rc == 0)
		rc = check(argv[1], &x);
	free(x.log);
	return rc;
}
