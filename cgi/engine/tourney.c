/* tourney.c — the tournament engine (tourney.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "options.h"
#include "pairing.h"
#include "ratings.h"
#include "text.h"
#include "tourney.h"

static const char *const tb_words[TB__MAX] = { [TB_NONE] = "", [TB_PARTY] = "party",
					       [TB_SB] = "sb" };

int tourney_tiebreaks_parse(const char *text, enum tourney_tiebreak tb[TOURNEY_TIEBREAKS])
{
	int n = 0;
	for (int k = 0; k < TOURNEY_TIEBREAKS; k++)
		tb[k] = TB_NONE;
	while (text && *text) {
		size_t len = strcspn(text, ",");
		int hit = -1;
		for (int w = TB_PARTY; w < TB__MAX; w++)
			if (strlen(tb_words[w]) == len && strncmp(text, tb_words[w], len) == 0)
				hit = w;
		if (hit < 0 || n >= TOURNEY_TIEBREAKS)
			return -1;
		for (int k = 0; k < n; k++)
			if ((int)tb[k] == hit)
				return -1;
		tb[n++] = (enum tourney_tiebreak)hit;
		text += len + (text[len] == ',');
	}
	return 0;
}

/* "party,sb" from tb. */
static void tiebreaks_format(const enum tourney_tiebreak tb[TOURNEY_TIEBREAKS], char *out,
			     size_t cap)
{
	size_t at = 0;
	out[0] = '\0';
	for (int k = 0; k < TOURNEY_TIEBREAKS && tb[k] != TB_NONE && tb[k] < TB__MAX; k++) {
		int w = snprintf(out + at, cap - at, "%s%s", at ? "," : "", tb_words[tb[k]]);
		if (w < 0 || (size_t)w >= cap - at)
			return;
		at += (size_t)w;
	}
}

/* ------------------------------------------------------------------ */
/* Creating                                                            */

/* The fields of n that rules/tournament.h and the game judge. */
static int check_rule(const struct tourney_new *n, const struct game *g, struct rerr *e)
{
	size_t len = strlen(n->name);
	if (len < TOURNEY_NAME_MIN || len > ST_TNAME_MAX)
		return rerr_set(e, "Der Name des Turniers braucht %d bis %d Zeichen.",
				TOURNEY_NAME_MIN, ST_TNAME_MAX);
	if (n->format < 0 || n->format >= TOURNEY_FORMAT__MAX)
		return rerr_set(e, "Dieses Turnierformat gibt es nicht.");
	if (n->seats < PAIRING_SEATS_MIN || n->seats > TOURNEY_SEATS_MAX)
		return rerr_set(e, "Ein Turniertisch hat %d bis %d Plätze.", PAIRING_SEATS_MIN,
				TOURNEY_SEATS_MAX);
	if (n->seats > g->max_players || n->min_seats < g->min_players ||
	    n->min_seats > n->seats)
		return rerr_set(e, "%s spielt man zu %d bis %d; die kleinsten Tische dürfen nicht "
				"größer als die vollen sein.", g->title, g->min_players,
				g->max_players);
	if (n->rounds < 1 || n->rounds > TOURNEY_ROUNDS_MAX)
		return rerr_set(e, "Ein Turnier hat 1 bis %d Runden.", TOURNEY_ROUNDS_MAX);
	if (n->format == TOURNEY_ELIMINATION && (n->advance < 1 || n->advance >= n->min_seats))
		return rerr_set(e, "Im K.-o.-System kommen von jedem Tisch 1 bis %d weiter.",
				n->min_seats - 1);
	if (n->starts_at < n->register_until)
		return rerr_set(e, "Die Anmeldung muss vor dem Start enden.");
	return 0;
}

int tourney_create(struct store *s, const struct tourney_new *n, int64_t user, int64_t now,
		   int64_t *id, struct rerr *e)
{
	const struct game *g = n->game ? game_find(n->game) : NULL;
	struct st_tourney t;
	struct tourney_points tp;
	int opt[GAME_OPT_MAX], rc;
	if (!g)
		return play_fail(e, PLAY_INVALID, N_("Dieses Spiel gibt es hier nicht."));
	/* the name as text a user typed (text.h: no line breaks, controls or
	 * marks that reorder the lists it is shown in), in NFC */
	char name[ST_TNAME_MAX + 1];
	if (text_clean(n->name, name, sizeof name, NULL, e) != 0 || check_rule(n, g, e) != 0)
		return PLAY_INVALID;
	if (n->points && n->points[0]) {
		if (tourney_points_parse(&tp, n->seats, n->points, e) != 0)
			return PLAY_INVALID;
	} else {
		tourney_points_default(&tp, n->seats);
	}
	memset(&t, 0, sizeof t);
	if (options_parse(g, opt, n->options ? n->options : "", e) != 0 ||
	    options_format(g, opt, t.options, sizeof t.options) != 0)
		return PLAY_INVALID;
	snprintf(t.name, sizeof t.name, "%s", name);
	snprintf(t.game, sizeof t.game, "%s", g->slug);
	t.format = n->format;
	t.seats = n->seats;
	t.min_seats = n->min_seats;
	t.rounds = n->rounds;
	t.advance = n->format == TOURNEY_ELIMINATION ? n->advance : 0;
	if (tourney_points_format(&tp, t.points, sizeof t.points) != 0)
		return PLAY_INVALID;
	tiebreaks_format(n->tb, t.tiebreaks, sizeof t.tiebreaks);
	t.clock = n->speed.clock;
	t.timeouts_max = n->speed.timeouts_max;
	t.register_until = n->register_until;
	t.starts_at = n->starts_at;
	t.seed = (int64_t)(auth_random_seed() >> 1);
	t.created_by = user;
	t.created_at = now;
	if ((rc = store_begin(s)) != PLAY_OK)
		return rc;
	int open = 0;   /* counted in the write transaction: parallel creates see each other */
	rc = play_from_store(store_tourneys_open_by(s, user, &open), PLAY_ERR);
	if (rc == PLAY_OK && open >= TOURNEY_OPEN_PER_USER)
		rc = play_fail(e, PLAY_INVALID,
			       N_("Du organisierst schon so viele Turniere, wie eine Person "
				  "gleichzeitig kann. Ein neues geht, wenn eines davon zu Ende ist."));
	if (rc == PLAY_OK)
		rc = play_from_store(store_tourney_create(s, &t, id), PLAY_ERR);
	return play_finish(s, rc);
}

/* ------------------------------------------------------------------ */
/* Loading                                                             */

/* Everything the engine reads of a tournament, in one transaction. */
struct tourney_data {
	struct st_tourney t;
	const struct game *g;
	struct tourney_points points;
	enum tourney_tiebreak tb[TOURNEY_TIEBREAKS];
	struct st_tplayer *players;          /* in order of registration */
	int nplayers;
	struct st_tresult *results;          /* by round, table, place */
	int nresults;
	struct st_ttable *tables;            /* by round, number */
	int ntables;
	struct tourney_standing *standings;  /* nplayers; .player indexes players */
};

struct grow {
	struct tourney_data *d;
	int cap_results, cap_tables;
	int failed;
};

/* arr (holding n of *cap elements of `size` bytes) with room for one
 * more: arr itself, a larger copy, or NULL (arr untouched) when memory is
 * short. */
static void *room(void *arr, int n, int *cap, size_t size)
{
	if (n < *cap)
		return arr;
	int next = *cap ? *cap * 2 : 16;
	void *x = realloc(arr, (size_t)next * size);
	if (x)
		*cap = next;
	return x;
}

static void add_result(void *ctx, const struct st_tresult *r)
{
	struct grow *g = ctx;
	struct tourney_data *d = g->d;
	struct st_tresult *x = g->failed ? NULL : room(d->results, d->nresults, &g->cap_results,
							sizeof *x);
	if (!x) {
		g->failed = 1;
		return;
	}
	d->results = x;
	d->results[d->nresults++] = *r;
}

static void add_ttable(void *ctx, const struct st_ttable *t)
{
	struct grow *g = ctx;
	struct tourney_data *d = g->d;
	struct st_ttable *x = g->failed ? NULL : room(d->tables, d->ntables, &g->cap_tables,
						      sizeof *x);
	if (!x) {
		g->failed = 1;
		return;
	}
	d->tables = x;
	d->tables[d->ntables++] = *t;
}

static void data_free(struct tourney_data *d)
{
	free(d->players);
	free(d->results);
	free(d->tables);
	free(d->standings);
	memset(d, 0, sizeof *d);
}

/* The index in d->players of user, or -1. */
static int player_index(const struct tourney_data *d, int64_t user)
{
	for (int i = 0; i < d->nplayers; i++)
		if (d->players[i].user_id == user)
			return i;
	return -1;
}

/* The players of d sorted by user id, for looking results up. */
struct by_user {
	int64_t user;
	int index;
};

static int by_user_cmp(const void *a, const void *b)
{
	const struct by_user *x = a, *y = b;
	return (x->user > y->user) - (x->user < y->user);
}

/* d->standings from d->players and d->results. */
static int standings_of(struct tourney_data *d)
{
	int n = d->nplayers, rc = -1;
	struct by_user *idx = malloc(((size_t)n + 1) * sizeof *idx);
	struct tourney_result *r = malloc(((size_t)d->nresults + 1) * sizeof *r);
	int *reach = d->t.format == TOURNEY_ELIMINATION ? malloc(((size_t)n + 1) * sizeof *reach)
							: NULL;
	d->standings = malloc(((size_t)n + 1) * sizeof *d->standings);
	if (idx && r && d->standings && (reach || d->t.format != TOURNEY_ELIMINATION)) {
		/* how far each got: the round they went out or withdrew in */
		for (int i = 0; reach && i < n; i++) {
			const struct st_tplayer *x = &d->players[i];
			int out = x->out_round, left = x->left_how ? x->left_round : 0;
			reach[i] = out && (!left || out < left) ? out : left;
		}
		for (int i = 0; i < n; i++)
			idx[i] = (struct by_user){ d->players[i].user_id, i };
		qsort(idx, (size_t)n, sizeof *idx, by_user_cmp);
		int k = 0;
		for (int i = 0; i < d->nresults; i++) {
			const struct st_tresult *x = &d->results[i];
			struct by_user key = { x->user_id, 0 };
			struct by_user *hit = bsearch(&key, idx, (size_t)n, sizeof *idx, by_user_cmp);
			if (!hit)
				continue;
			r[k++] = (struct tourney_result){ hit->index, x->round, x->table_no, x->place,
							  x->points, x->party_points };
		}
		rc = tourney_standings_reach(r, k, n, d->tb, reach, d->standings);
	}
	free(reach);
	free(idx);
	free(r);
	return rc;
}

/* Loads inside the caller's transaction. */
static int load_in(struct store *s, int64_t id, struct tourney_data *d)
{
	struct grow g = { d, 0, 0, 0 };
	int rc, n = 0;
	memset(d, 0, sizeof *d);
	if ((rc = play_from_store(store_tourney_get(s, id, &d->t), PLAY_NOT_FOUND)) != PLAY_OK)
		return rc;
	d->g = game_find(d->t.game);
	if (!d->g || tourney_points_parse(&d->points, d->t.seats, d->t.points, NULL) != 0 ||
	    tourney_tiebreaks_parse(d->t.tiebreaks, d->tb) != 0) {
		fprintf(stderr, "tourney %lld: stored rule does not load\n", (long long)id);
		return PLAY_ERR;
	}
	d->players = malloc(TOURNEY_PLAYERS_MAX * sizeof *d->players);
	if (!d->players)
		return PLAY_ERR;
	rc = play_from_store(store_tplayers(s, id, d->players, TOURNEY_PLAYERS_MAX, &n), PLAY_ERR);
	d->nplayers = n < TOURNEY_PLAYERS_MAX ? n : TOURNEY_PLAYERS_MAX;
	if (rc == PLAY_OK)
		rc = play_from_store(store_tresults(s, id, add_result, &g), PLAY_ERR);
	if (rc == PLAY_OK)
		rc = play_from_store(store_ttables(s, id, add_ttable, &g), PLAY_ERR);
	if (rc == PLAY_OK && (g.failed || standings_of(d) != 0))
		rc = PLAY_ERR;
	return rc;
}


int tourney_standings_save(struct store *s, int64_t id)
{
	struct tourney_data d;
	int rc = load_in(s, id, &d);
	struct st_tstanding *rows = rc == PLAY_OK ? malloc(((size_t)d.nplayers + 1) * sizeof *rows)
						  : NULL;
	if (rc == PLAY_OK && !rows)
		rc = PLAY_ERR;
	for (int i = 0; rc == PLAY_OK && i < d.nplayers; i++) {
		const struct tourney_standing *x = &d.standings[i];
		const struct st_tplayer *y = &d.players[x->player];
		rows[i] = (struct st_tstanding){ .rank_order = x->rank_order, .place = x->place,
						 .user_id = y->user_id, .points = x->points,
						 .party_points = x->party_points, .sb2 = x->sb2,
						 .played = x->played, .byes = x->byes,
						 .left_how = y->left_how, .left_round = y->left_round,
						 .out_round = y->out_round };
		memcpy(rows[i].name, y->name, sizeof rows[i].name);
	}
	if (rc == PLAY_OK)
		rc = play_from_store(store_tstandings_replace(s, id, rows, d.nplayers), PLAY_ERR);
	free(rows);
	data_free(&d);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Seating a round                                                     */

/* A round's seating: active players (indexes into d->players) and what
 * pairing.h made of them. */
struct seating {
	int n;
	int who[TOURNEY_PLAYERS_MAX];        /* active number -> player index */
	int active[TOURNEY_PLAYERS_MAX];     /* player index -> active number, -1 */
	int score[TOURNEY_PLAYERS_MAX];
	int byes[TOURNEY_PLAYERS_MAX];
	unsigned char met[TOURNEY_PLAYERS_MAX * TOURNEY_PLAYERS_MAX];
	struct pairing_out out;
	/* groups: the group and position of each, before and after */
	int grp[TOURNEY_PLAYERS_MAX], gpos[TOURNEY_PLAYERS_MAX];
	int ngrp[TOURNEY_PLAYERS_MAX], ngpos[TOURNEY_PLAYERS_MAX];
};

/* Who is seated in the next round, their points, byes and meetings so far. */
static void history(const struct tourney_data *d, struct seating *z)
{
	z->n = 0;
	for (int i = 0; i < d->nplayers; i++) {
		const struct st_tplayer *x = &d->players[i];
		z->active[i] = -1;
		if (x->left_how == 0 && x->out_round == 0) {
			z->active[i] = z->n;
			z->who[z->n++] = i;
		}
	}
	memset(z->score, 0, sizeof z->score);
	memset(z->byes, 0, sizeof z->byes);
	memset(z->met, 0, (size_t)z->n * (size_t)z->n);
	for (int i = 0; i < d->nplayers; i++) {
		const struct tourney_standing *st = &d->standings[i];
		if (st->player >= 0 && st->player < d->nplayers && z->active[st->player] >= 0) {
			z->score[z->active[st->player]] = st->points;
			z->byes[z->active[st->player]] = st->byes;
		}
	}
	/* the rows of one table are together (by round, table_no) */
	for (int a = 0; a < d->nresults;) {
		int b = a, k[TOURNEY_SEATS_MAX], m = 0;
		while (b < d->nresults && d->results[b].round == d->results[a].round &&
		       d->results[b].table_no == d->results[a].table_no)
			b++;
		for (int i = a; d->results[a].table_no >= 0 && i < b && m < TOURNEY_SEATS_MAX; i++) {
			int x = player_index(d, d->results[i].user_id);
			if (x >= 0 && z->active[x] >= 0)
				k[m++] = z->active[x];
		}
		for (int i = 0; i < m; i++)
			for (int j = 0; j < m; j++)
				if (i != j && z->met[k[i] * z->n + k[j]] < 255)
					z->met[k[i] * z->n + k[j]]++;
		a = b;
	}
}

/* Groups after round 1 (pairing_groups): each group at one table, its
 * seat order rotated; the byes rotate, a group too small is merged, and
 * every player's group as it stands now is stored. Fills z->out. */
static int groups_round(struct store *s, const struct tourney_data *d, struct seating *z,
			const struct pairing_in *in)
{
	int *grp = z->grp, *gpos = z->gpos, *ngrp = z->ngrp, *ngpos = z->ngpos;
	for (int k = 0; k < z->n; k++) {
		grp[k] = d->players[z->who[k]].grp;
		gpos[k] = d->players[z->who[k]].gpos;
	}
	if (pairing_groups(in, grp, gpos, &z->out, ngrp, ngpos) != 0)
		return -1;
	int rc = PLAY_OK;
	for (int k = 0; rc == PLAY_OK && k < z->n; k++)
		if (ngrp[k] != grp[k] || ngpos[k] != gpos[k])
			rc = play_from_store(store_tplayer_group(s, d->t.id,
								 d->players[z->who[k]].user_id,
								 ngrp[k], ngpos[k]), PLAY_ERR);
	return rc == PLAY_OK ? 0 : rc;
}

/* Opens the tables of round `round` from z->out and records its byes. */
static int open_tables(struct store *s, const struct tourney_data *d, const struct seating *z,
		       int round, int64_t now)
{
	struct play_speed sp = { d->t.clock, d->t.timeouts_max };
	int rc = PLAY_OK;
	for (int t = 0; rc == PLAY_OK && t < z->out.ntables; t++) {
		int64_t users[TOURNEY_SEATS_MAX], id = 0;
		int m = z->out.size[t];
		for (int k = 0; k < m; k++)
			users[k] = d->players[z->who[z->out.seat[t][k]]].user_id;
		rc = play_table_seated(s, d->t.game, d->t.options, &sp, users, m, d->t.created_by,
				       now, &id);
		if (rc == PLAY_OK)
			rc = play_from_store(store_ttable_add(s, d->t.id, round, t, id), PLAY_ERR);
	}
	for (int b = 0; rc == PLAY_OK && b < z->out.nbyes; b++) {
		struct st_tresult r = { .round = round, .table_no = -1, .seat = -1,
					.user_id = d->players[z->who[z->out.bye[b]]].user_id,
					.points = tourney_bye_points(&d->points) };
		rc = play_from_store(store_tresult_put(s, d->t.id, &r), PLAY_ERR);
	}
	return rc;
}

/* Seats round `round` (d loaded inside the transaction), or ends the
 * tournament when fewer than two players are left or no table can be
 * formed. */
static int seat_round(struct store *s, const struct tourney_data *d, int round, int64_t now)
{
	struct seating *z = malloc(sizeof *z);
	int rc = PLAY_OK, prc = 0;
	if (!z)
		return PLAY_ERR;
	history(d, z);
	struct pairing_in in = { .n = z->n, .seats = d->t.seats, .min_seats = d->t.min_seats,
				 .round = round, .score = z->score, .met = z->met,
				 .byes = z->byes, .seed = (uint64_t)d->t.seed };
	if (d->t.format == TOURNEY_GROUPS && round > 1)
		prc = groups_round(s, d, z, &in);
	else if (d->t.format == TOURNEY_ELIMINATION) {
		/* fewer still in than the smallest table (a tie at the cut sent
		 * more on before): they play the final at one smaller table, as
		 * long as the game allows that many */
		const struct game *g = game_find(d->t.game);
		if (g && z->n < in.min_seats && z->n >= g->min_players && z->n >= 2)
			in.min_seats = z->n;
		prc = pairing_elimination(&in, &z->out);
	}
	else
		prc = pairing_swiss(&in, &z->out);
	if (prc > 0) {   /* the store failed */
		free(z);
		return prc;
	}
	if (prc != 0 || z->n < 2 || z->out.ntables == 0) {
		free(z);
		return play_from_store(store_tourney_set_state(s, d->t.id, TOURNEY_FINISHED,
							       d->t.round), PLAY_ERR);
	}
	if (d->t.format == TOURNEY_GROUPS && round == 1)
		for (int t = 0; rc == PLAY_OK && t < z->out.ntables; t++)
			for (int k = 0; rc == PLAY_OK && k < z->out.size[t]; k++)
				rc = play_from_store(store_tplayer_group(
					s, d->t.id, d->players[z->who[z->out.seat[t][k]]].user_id, t, k),
					PLAY_ERR);
	if (rc == PLAY_OK)
		rc = open_tables(s, d, z, round, now);
	free(z);
	if (rc == PLAY_OK)
		rc = play_from_store(store_tourney_set_state(s, d->t.id, TOURNEY_RUNNING, round),
				     PLAY_ERR);
	return rc;
}

/* Starts a tournament still registering (d loaded in the transaction):
 * round 1, or cancelled when too few registered for one table. */
static int start_in(struct store *s, const struct tourney_data *d, int64_t now)
{
	int smallest = d->t.min_seats > 2 ? d->t.min_seats : 2;
	int rc = play_from_store(store_tourney_started(s, d->t.id, now), PLAY_ERR);
	if (rc != PLAY_OK)
		return rc;
	if (d->t.players < smallest)
		return play_from_store(store_tourney_set_state(s, d->t.id, TOURNEY_CANCELLED, 0),
				       PLAY_ERR);
	rc = seat_round(s, d, 1, now);
	return rc == PLAY_OK ? tourney_standings_save(s, d->t.id) : rc;
}

/* ------------------------------------------------------------------ */
/* The end of a table                                                  */

/* The rows of finished table t (round `round`, number `no`). */
static int record_table(struct store *s, const struct tourney_data *d, const struct st_table *t,
			int round, int no)
{
	struct match_final f;
	int rc = play_from_store(match_final_load(s, t, &f), PLAY_ERR);
	for (int i = 0; rc == PLAY_OK && i < f.n; i++) {
		const struct st_seat *x = &f.seats[i];
		int place = t->closed_idle ? f.n : f.place[x->seat], tied = 0;
		for (int j = 0; j < f.n; j++)
			tied += t->closed_idle || f.place[f.seats[j].seat] == place;
		if (!x->user_id)
			continue;
		struct st_tresult r = {
			.round = round, .user_id = x->user_id, .table_no = no, .table_id = t->id,
			.seat = x->seat, .place = place,
			.points = t->closed_idle ? 0 : tourney_place_points(&d->points, f.n, place, tied),
			.party_points = f.m.total[x->seat],
		};
		rc = play_from_store(store_tresult_put(s, d->t.id, &r), PLAY_ERR);
		if (rc == PLAY_OK && d->t.format == TOURNEY_ELIMINATION &&
		    (t->closed_idle || !tourney_advances(place, f.n, d->t.advance)))
			rc = play_from_store(store_tplayer_out(s, d->t.id, x->user_id, round),
					     PLAY_ERR);
	}
	return rc;
}

/* Tables of `round` in d. */
static int tables_in(const struct tourney_data *d, int round)
{
	int n = 0;
	for (int i = 0; i < d->ntables; i++)
		n += d->tables[i].round == round;
	return n;
}

/* Byes of `round` in d. */
static int byes_in(const struct tourney_data *d, int round)
{
	int n = 0;
	for (int i = 0; i < d->nresults; i++)
		n += d->results[i].round == round && d->results[i].table_no < 0;
	return n;
}

/* Every table of `round` is done: the next round, or the end. */
static int round_over(struct store *s, int64_t id, int round, int64_t now)
{
	struct tourney_data d;
	int rc = load_in(s, id, &d);
	if (rc == PLAY_OK) {
		/* an elimination ends when one table held everyone still in */
		int last = round >= d.t.rounds ||
			   (d.t.format == TOURNEY_ELIMINATION && tables_in(&d, round) <= 1 &&
			    byes_in(&d, round) == 0);
		rc = last ? play_from_store(store_tourney_set_state(s, id, TOURNEY_FINISHED, round),
					    PLAY_ERR)
			  : seat_round(s, &d, round + 1, now);
	}
	data_free(&d);
	return rc;
}

int tourney_after_table(struct store *s, const struct st_table *t, int64_t now)
{
	struct tourney_data d;
	int64_t id;
	int round, no, isdone, open = 0;
	int rc = store_ttable_of(s, t->id, &id, &round, &no, &isdone);
	if (rc == ST_NOTFOUND || (rc == ST_OK && isdone))
		return PLAY_OK;
	if ((rc = play_from_store(rc, PLAY_ERR)) != PLAY_OK)
		return rc;
	rc = load_in(s, id, &d);
	if (rc == PLAY_OK)
		rc = record_table(s, &d, t, round, no);
	data_free(&d);
	if (rc == PLAY_OK)
		rc = play_from_store(store_ttable_done(s, t->id), PLAY_ERR);
	if (rc == PLAY_OK)
		rc = play_from_store(store_tround_open(s, id, round, &open), PLAY_ERR);
	if (rc == PLAY_OK && open == 0)
		rc = round_over(s, id, round, now);
	else if (rc == PLAY_OK)
		rc = play_from_store(store_tourney_bump(s, id), PLAY_ERR);
	return rc == PLAY_OK ? tourney_standings_save(s, id) : rc;
}

/* ------------------------------------------------------------------ */
/* Registering, leaving, starting                                      */

int tourney_register(struct store *s, int64_t t, int64_t user, int64_t now, struct rerr *e)
{
	struct st_tourney x;
	int rc = store_begin(s);
	if (rc != PLAY_OK)
		return rc;
	rc = play_from_store(store_tourney_get(s, t, &x), PLAY_NOT_FOUND);
	if (rc == PLAY_OK && (x.status != TOURNEY_REGISTERING || now >= x.register_until))
		rc = play_fail(e, PLAY_REJECTED, N_("Die Anmeldung ist geschlossen."));
	else if (rc == PLAY_OK && x.players >= TOURNEY_PLAYERS_MAX)
		rc = play_fail(e, PLAY_REJECTED, N_("Das Turnier ist voll."));
	if (rc == PLAY_OK) {
		int st = store_tplayer_add(s, t, user, now);
		rc = st == ST_EXISTS ? play_fail(e, PLAY_ALREADY, N_("Du bist schon angemeldet."))
				     : play_from_store(st, PLAY_ERR);
	}
	if (rc == PLAY_OK)
		rc = play_from_store(store_tourney_bump(s, t), PLAY_ERR);
	return play_finish(s, rc);
}

/* Inside the transaction: the registration of `user` ends (by `by`);
 * *table: the running table whose seat a bot is to finish, 0 none. */
static int leave_in(struct store *s, const struct tourney_data *d, int64_t user, int64_t by,
		    int64_t *table, struct rerr *e)
{
	int i = player_index(d, user);
	*table = 0;
	if (by != user && by != d->t.created_by)
		return play_fail(e, PLAY_REJECTED, N_("Nur die Veranstalterin oder der "
						      "Veranstalter kann Spieler abmelden."));
	if (i < 0 || d->players[i].left_how != 0)
		return play_fail(e, PLAY_NOT_SEATED, by == user ? N_("Du bist nicht angemeldet.")
								: N_("Nicht (mehr) angemeldet."));
	if (d->t.status == TOURNEY_REGISTERING)
		return play_from_store(store_tplayer_delete(s, d->t.id, user), PLAY_NOT_SEATED);
	if (d->t.status != TOURNEY_RUNNING)
		return play_fail(e, PLAY_NOT_PLAYING, N_("Das Turnier ist vorbei."));
	/* the running table of the round where they still play (one indexed
	 * read, as the page's "Zu meinem Tisch") */
	int rc = store_tmy_table(s, d->t.id, d->t.round, user, table);
	if (rc == ST_NOTFOUND)
		*table = 0;
	else if (rc != ST_OK)
		return play_from_store(rc, PLAY_ERR);
	return play_from_store(store_tplayer_leave(s, d->t.id, user, by == user ? 1 : 2,
						   d->t.round), PLAY_NOT_SEATED);
}

int tourney_withdraw(struct store *s, int64_t t, int64_t user, int64_t by, int64_t now,
		     struct rerr *e)
{
	struct tourney_data d;
	int64_t table = 0;
	int rc = store_begin(s);
	if (rc != PLAY_OK)
		return rc;
	rc = load_in(s, t, &d);
	if (rc == PLAY_OK)
		rc = leave_in(s, &d, user, by, &table, e);
	data_free(&d);
	if (rc == PLAY_OK)
		rc = play_from_store(store_tourney_bump(s, t), PLAY_ERR);
	if (rc == PLAY_OK)   /* the standings say who left */
		rc = tourney_standings_save(s, t);
	if ((rc = play_finish(s, rc)) != PLAY_OK || !table)
		return rc;
	/* a bot finishes the seat; the results count as last */
	struct rerr ignored;
	int sr = play_seat(s, table, user, PLAY_SEAT_RESIGN, now, &ignored);
	return sr == PLAY_REJECTED || sr == PLAY_NOT_SEATED || sr == PLAY_NOT_PLAYING ? PLAY_OK
										       : sr;
}

int tourney_start(struct store *s, int64_t t, int64_t user, int64_t now, struct rerr *e)
{
	struct tourney_data d;
	int rc = store_begin(s);
	if (rc != PLAY_OK)
		return rc;
	rc = load_in(s, t, &d);
	if (rc == PLAY_OK && d.t.created_by != user)
		rc = play_fail(e, PLAY_REJECTED, N_("Nur wer das Turnier ausrichtet, kann es "
						    "starten."));
	else if (rc == PLAY_OK && d.t.status != TOURNEY_REGISTERING)
		rc = play_fail(e, PLAY_REJECTED, N_("Das Turnier hat schon begonnen."));
	if (rc == PLAY_OK)
		rc = start_in(s, &d, now);
	data_free(&d);
	return play_finish(s, rc);
}

int tourney_tick(struct store *s, int64_t t, int64_t now)
{
	struct tourney_data d;
	int64_t version = 0, start = 0;
	/* nearly always nothing to do: one indexed read, no writer lock (the
	 * poll's read: the start while it registers, else 0) */
	int rc = play_from_store(store_tourney_poll(s, t, &version, &start), PLAY_NOT_FOUND);
	if (rc != PLAY_OK || start == 0 || start > now)
		return rc == PLAY_NOT_FOUND ? PLAY_OK : rc;
	rc = store_begin(s);
	if (rc != PLAY_OK)
		return rc;
	rc = load_in(s, t, &d);
	if (rc == PLAY_OK && d.t.status == TOURNEY_REGISTERING && d.t.starts_at <= now)
		rc = start_in(s, &d, now);
	data_free(&d);
	return play_finish(s, rc);
}

int tourney_sweep(struct store *s, int64_t now, int max)
{
	int64_t ids[16];
	int n = 0;
	int rc = play_from_store(store_tourneys_due(s, now, ids, max < 16 ? max : 16, &n),
				 PLAY_ERR);
	for (int i = 0; rc == PLAY_OK && i < n; i++)
		if ((rc = tourney_tick(s, ids[i], now)) == PLAY_BUSY || rc == PLAY_NOT_FOUND)
			rc = PLAY_OK;
	return rc;
}
