/* pairing.c — seating one round of a tournament (pairing.h). */
#include "pairing.h"

#include <string.h>

#include "rng.h"

/* Bounds of the local search: sweeps over the table pairs at one width;
 * kicks in a row that find no better seating; swaps of one kick; the work
 * of one round in all (seats looked at while weighing swaps): WORK_PLAYER
 * for each player seated, at least WORK_MIN (some milliseconds). */
enum { SWEEPS_MAX = 32, STALE_MAX = 100, KICK_SWAPS = 2, WORK_PLAYER = 15000, WORK_MIN = 700000 };
/* Looking one round ahead: up to how many players, how many other
 * seatings are tried, and the kicks in a row of the search of the next
 * round. */
enum { LOOK_PLAYERS_MAX = 36, LOOK_TRIES = 40, LOOK_STALE = 8 };
/* The exact search: up to how many players, and its bound in nodes (each
 * about a table's seats of work). */
enum { EXACT_PLAYERS = 24, EXACT_NODES = 400000 };

/* Splits m players into tables; 0, or -1 when no split exists. */
static int split(int m, int seats, int min_seats, int *sizes, int *ntables)
{
	*ntables = 0;
	if (m == 0)
		return 0;
	int t = (m + seats - 1) / seats;
	if (t * min_seats > m)
		return -1;
	int short_by = t * seats - m;
	int small = short_by ? (short_by + seats - min_seats - 1) / (seats - min_seats) : 0;
	for (int i = 0; i < t; i++)
		sizes[i] = seats;
	/* the last `small` tables share the shortfall evenly, smallest last */
	for (int k = 0; k < small; k++)
		sizes[t - small + k] -= short_by / small + (k >= small - short_by % small);
	*ntables = t;
	return 0;
}

int pairing_table_sizes(int n, int seats, int min_seats, int *sizes, int *ntables)
{
	if (n < 0 || n > PAIRING_PLAYERS_MAX || seats < PAIRING_SEATS_MIN ||
	    seats > PAIRING_SEATS_MAX || min_seats < 2 || min_seats > seats)
		return -1;
	for (int out = 0; out < n; out++)
		if (split(n - out, seats, min_seats, sizes, ntables) == 0)
			return out;
	*ntables = 0;
	return n;
}

/* One round being seated: the players in ranking order, then the table
 * slices of `at` (table t holds at[start[t]] .. at[start[t] + size[t] - 1]). */
struct work {
	const struct pairing_in *in;
	struct rng rng;
	struct rng kicks;              /* the search's own, apart from rng */
	int rank[PAIRING_PLAYERS_MAX]; /* player ids, best first */
	int nplay;                     /* players seated; at[] holds them */
	int at[PAIRING_PLAYERS_MAX];
	int ntables, size[PAIRING_TABLES_MAX], start[PAIRING_TABLES_MAX];
	int table_of[PAIRING_PLAYERS_MAX]; /* by position in at[] */
	int tier_only;                 /* elimination: swap equal tiers only */
	long work, work_max;           /* seats looked at so far, the bound */
	int stale_max;                 /* kicks in a row without a better one */
	int look;                      /* whether to look one round ahead */
};

static int met(const struct work *w, int a, int b)
{
	return w->in->met[a * w->in->n + b];
}

static int gap(const struct work *w, int a, int b)
{
	int d = w->in->score[a] - w->in->score[b];
	return d < 0 ? -d : d;
}

static int bad_input(const struct pairing_in *in)
{
	int sizes[PAIRING_TABLES_MAX], t;
	if (!in || pairing_table_sizes(in->n, in->seats, in->min_seats, sizes, &t) < 0)
		return 1;
	if (in->n > 0 && (!in->score || !in->met))
		return 1;
	for (int i = 0; in->byes && i < in->n; i++)
		if (in->byes[i] < 0)
			return 1;
	return 0;
}

/* Ranking: score, higher first; ties by a seeded random key. */
static void rank_players(struct work *w)
{
	uint64_t key[PAIRING_PLAYERS_MAX];
	const int *score = w->in->score;
	for (int i = 0; i < w->in->n; i++)
		key[i] = rng_next(&w->rng);
	for (int i = 0; i < w->in->n; i++) {
		int p = i, k = i;
		for (; k > 0; k--) {
			int q = w->rank[k - 1];
			if (score[q] > score[p] || (score[q] == score[p] && key[q] <= key[p]))
				break;
			w->rank[k] = q;
		}
		w->rank[k] = p;
	}
}

/* Takes `count` byes out of the ranking: among the fewest byes so far,
 * the lowest-ranked (Swiss) or the highest-ranked (elimination). */
static void take_byes(struct work *w, int count, int top_first, struct pairing_out *out)
{
	int n = w->in->n, is_bye[PAIRING_PLAYERS_MAX] = { 0 };
	out->nbyes = 0;
	while (out->nbyes < count) {
		int best = -1;
		for (int k = 0; k < n; k++) {
			int r = top_first ? k : n - 1 - k, p = w->rank[r];
			int b = w->in->byes ? w->in->byes[p] : 0;
			if (is_bye[r])
				continue;
			if (best < 0 || b < (w->in->byes ? w->in->byes[w->rank[best]] : 0))
				best = r;
		}
		is_bye[best] = 1;
		out->bye[out->nbyes++] = w->rank[best];
	}
	w->nplay = 0;
	for (int r = 0; r < n; r++)
		if (!is_bye[r])
			w->rank[w->nplay++] = w->rank[r];
}

static void lay_tables(struct work *w, const int *sizes, int ntables)
{
	w->ntables = ntables;
	for (int t = 0, pos = 0; t < ntables; t++) {
		w->size[t] = sizes[t];
		w->start[t] = pos;
		for (int k = 0; k < sizes[t]; k++)
			w->table_of[pos++] = t;
	}
}

/* What a swap changes, in the order it counts: pairs at a table who met
 * before, their met counts, the score differences of pairs at a table. */
struct delta {
	int r, m, s;
};

static int less(struct delta a, struct delta b)
{
	if (a.r != b.r)
		return a.r < b.r;
	if (a.m != b.m)
		return a.m < b.m;
	return a.s < b.s;
}

/* What moving player `from` out and `to` in at table t (position skip
 * left out) adds to *d. */
static void table_delta(struct work *w, int t, int skip, int from, int to, struct delta *d)
{
	const unsigned char *mf = w->in->met + from * w->in->n, *mt = w->in->met + to * w->in->n;
	const int *score = w->in->score;
	for (int k = w->start[t]; k < w->start[t] + w->size[t]; k++) {
		if (k == skip)
			continue;
		int x = w->at[k], gf = score[from] - score[x], gt = score[to] - score[x];
		d->r += (mt[x] > 0) - (mf[x] > 0);
		d->m += mt[x] - mf[x];
		d->s += (gt < 0 ? -gt : gt) - (gf < 0 ? -gf : gf);
	}
	w->work += w->size[t];
}

/* What swapping the players at positions p and q changes. */
static struct delta swap_delta(struct work *w, int p, int q)
{
	struct delta d = { 0, 0, 0 };
	table_delta(w, w->table_of[p], p, w->at[p], w->at[q], &d);
	table_delta(w, w->table_of[q], q, w->at[q], w->at[p], &d);
	return d;
}

static void swap_at(struct work *w, int p, int q)
{
	int a = w->at[p];
	w->at[p] = w->at[q];
	w->at[q] = a;
}

/* Whether a swap is made: Swiss, when it lowers the delta; elimination
 * (tiers only), when it lowers the met counts. */
static int takes(const struct work *w, struct delta d)
{
	if (w->tier_only)
		return d.m < 0;
	return less(d, (struct delta){ 0, 0, 0 });
}

/* One sweep over the table pairs at most `width` apart: every swap that
 * takes is made. Returns the number of swaps. */
static int sweep(struct work *w, int width)
{
	int swaps = 0;
	for (int i = 0; i < w->ntables; i++)
		for (int j = i + 1; j < w->ntables && j - i <= width; j++)
			for (int p = w->start[i]; p < w->start[i] + w->size[i]; p++)
				for (int q = w->start[j]; q < w->start[j] + w->size[j]; q++) {
					if (w->tier_only && p - w->start[i] != q - w->start[j])
						continue;
					if (takes(w, swap_delta(w, p, q))) {
						swap_at(w, p, q);
						swaps++;
					}
				}
	return swaps;
}

/* The whole seating's cost, counted as in struct delta. */
static struct delta cost(const struct work *w)
{
	struct delta c = { 0, 0, 0 };
	for (int t = 0; t < w->ntables; t++)
		for (int k = w->start[t]; k < w->start[t] + w->size[t]; k++)
			for (int l = k + 1; l < w->start[t] + w->size[t]; l++) {
				int m = met(w, w->at[k], w->at[l]);
				c.r += m > 0;
				c.m += m;
				c.s += gap(w, w->at[k], w->at[l]);
			}
	return c;
}

/* Whether the player at position p sits with somebody met before. */
static int repeating(const struct work *w, int p)
{
	int t = w->table_of[p];
	for (int k = w->start[t]; k < w->start[t] + w->size[t]; k++)
		if (k != p && met(w, w->at[p], w->at[k]) > 0)
			return 1;
	return 0;
}

/* One pass of repairs: each player who sits with somebody met before
 * makes the best swap with anybody at another table, if one lowers the
 * delta. Returns the number of swaps. */
static int repair(struct work *w)
{
	int swaps = 0;
	for (int p = 0; p < w->nplay && w->work < w->work_max; p++) {
		if (!repeating(w, p))
			continue;
		struct delta best = { 0, 0, 0 };
		int bq = -1;
		for (int q = 0; q < w->nplay; q++) {
			if (w->table_of[q] == w->table_of[p])
				continue;
			struct delta d = swap_delta(w, p, q);
			if (less(d, best)) {
				best = d;
				bq = q;
			}
		}
		if (bq >= 0) {
			swap_at(w, p, bq);
			swaps++;
		}
	}
	return swaps;
}

/* A kick out of a local optimum: KICK_SWAPS random swaps, each of a player
 * who sits with somebody met before and anybody at another table. */
static void kick(struct work *w)
{
	for (int i = 0; i < KICK_SWAPS; i++) {
		int list[PAIRING_PLAYERS_MAX], m = 0;
		for (int p = 0; p < w->nplay; p++)
			if (repeating(w, p))
				list[m++] = p;
		if (m == 0)
			return;
		int p = list[rng_below(&w->kicks, (uint32_t)m)];
		int q = (int)rng_below(&w->kicks, (uint32_t)(w->nplay - w->size[w->table_of[p]]));
		/* q counts the positions outside p's table */
		if (q >= w->start[w->table_of[p]])
			q += w->size[w->table_of[p]];
		swap_at(w, p, q);
	}
}

/* Repairs, then kicks and repairs again while meetings repeat, keeping
 * the best seating: bounded by stale_max kicks in a row without a better
 * one and by the work bound in all. A kick's result is the next start
 * when it has no more repeats and met counts than the best, else the best
 * is. */
static void search(struct work *w)
{
	int best[PAIRING_PLAYERS_MAX], n = w->nplay;
	while (repair(w) > 0 && w->work < w->work_max)
		;
	struct delta bc = cost(w), plateau = { 0, 0, 0 };
	memcpy(best, w->at, (size_t)n * sizeof(int));
	for (int stale = 0; bc.r > 0 && stale < w->stale_max && w->work < w->work_max;) {
		kick(w);
		while (repair(w) > 0 && w->work < w->work_max)
			;
		struct delta c = cost(w);
		if (less(c, bc)) {
			bc = c;
			memcpy(best, w->at, (size_t)n * sizeof(int));
			stale = 0;
			continue;
		}
		stale++;
		plateau.r = bc.r;
		plateau.m = bc.m + 1;
		if (!less(c, plateau))
			memcpy(w->at, best, (size_t)n * sizeof(int));
	}
	memcpy(w->at, best, (size_t)n * sizeof(int));
}

/* The number of pairs at tables who met before. */
static int repeat_pairs(const struct work *w)
{
	return cost(w).r;
}

/* The search, then sweeps over all tables for the score differences. */
static void search_and_sweep(struct work *w)
{
	search(w);
	for (int s = 0; s < SWEEPS_MAX && w->work < w->work_max; s++)
		if (sweep(w, w->ntables) == 0)
			break;
}

/* Whether the round after this seating could seat everybody with new
 * people: everybody still has enough players not met yet for the smallest
 * table (the same tables assumed), and a short search of that round finds
 * such a seating.
 * Small fields only (LOOK_PLAYERS_MAX); its work counts towards the bound. */
static int next_round_clean(struct work *w)
{
	unsigned char met2[LOOK_PLAYERS_MAX * LOOK_PLAYERS_MAX];
	struct pairing_in in2 = *w->in;
	int n = in2.n;
	memcpy(met2, in2.met, (size_t)(n * n));
	for (int p = 0; p < n; p++)
		for (int q = 0; q < n; q++)
			if (p != q && w->table_of[p] == w->table_of[q] && met2[w->at[p] * n + w->at[q]] < 255)
				met2[w->at[p] * n + w->at[q]]++;
	for (int p = 0; p < n; p++) {
		int fresh = 0;
		for (int q = 0; q < n; q++)
			fresh += q != p && met2[p * n + q] == 0;
		if (fresh < w->size[w->ntables - 1] - 1)
			return 0;
	}
	in2.met = met2;
	struct work w2 = *w;
	w2.in = &in2;
	w2.stale_max = LOOK_STALE;
	memcpy(w2.at, w->rank, (size_t)n * sizeof(int));
	search(&w2);
	w->work = w2.work;
	w->kicks = w2.kicks;
	return repeat_pairs(&w2) == 0;
}

/* Random swaps of any two players at different tables. */
static void shake(struct work *w)
{
	for (int i = 0; i < w->nplay / 4 + 1; i++) {
		int p = (int)rng_below(&w->kicks, (uint32_t)w->nplay);
		int q = (int)rng_below(&w->kicks, (uint32_t)w->nplay);
		if (w->table_of[p] != w->table_of[q])
			swap_at(w, p, q);
	}
}

/* Small fields, nobody out, no repeats this round: when the next round
 * could not seat everybody with new people after this seating, up to
 * LOOK_TRIES other seatings without repeats are tried (each shaken from
 * the last, searched and swept); the first after which it could is
 * taken, else the first seating stays. */
static void look_ahead(struct work *w)
{
	int first[PAIRING_PLAYERS_MAX], n = w->nplay;
	/* fewer tables than seats: a full table of the next round holds two
	 * players of one table of this round, whatever this seating */
	if (!w->look || n != w->in->n || n > LOOK_PLAYERS_MAX || w->ntables < w->size[0] ||
	    repeat_pairs(w) > 0 || next_round_clean(w))
		return;
	memcpy(first, w->at, (size_t)n * sizeof(int));
	for (int i = 0; i < LOOK_TRIES && w->work < w->work_max; i++) {
		shake(w);
		search_and_sweep(w);
		if (repeat_pairs(w) == 0 && next_round_clean(w))
			return;
	}
	memcpy(w->at, first, (size_t)n * sizeof(int));
}

/* ---- the exact search ---- */

/* A branch and bound over every seating of the players at this round's
 * tables, for the fewest repeat pairs and then their fewest meetings:
 * players are placed one by one (those who met the most first), a table
 * only when no empty table of its size comes before it (equal tables are
 * not tried twice over), cut when a bound (the pairs so far, plus for
 * every player still to place the fewest it adds with those placed at any
 * table with room) cannot beat the best seating known. */
struct exact {
	struct work *w;
	int order[EXACT_PLAYERS];           /* player ids, in the order placed */
	int member[EXACT_PLAYERS][PAIRING_SEATS_MAX];   /* (fewer tables than players) */
	int count[EXACT_PLAYERS];
	int best_member[EXACT_PLAYERS][PAIRING_SEATS_MAX];
	struct delta cur, best;             /* r and m only */
	long nodes, max;
	int found;
};

/* What placing player p at table t adds. */
static struct delta adds(const struct exact *x, int p, int t)
{
	struct delta d = { 0, 0, 0 };
	for (int k = 0; k < x->count[t]; k++) {
		int m = met(x->w, p, x->member[t][k]);
		d.r += m > 0;
		d.m += m;
	}
	return d;
}

/* Whether the seatings below this point may beat the best: the bound. */
static int promising(struct exact *x, int next)
{
	struct delta lb = x->cur;
	for (int k = next; k < x->w->nplay; k++) {
		struct delta low = { -1, -1, 0 };
		for (int t = 0; t < x->w->ntables; t++) {
			if (x->count[t] == x->w->size[t])
				continue;
			struct delta d = adds(x, x->order[k], t);
			low.r = low.r < 0 || d.r < low.r ? d.r : low.r;
			low.m = low.m < 0 || d.m < low.m ? d.m : low.m;
		}
		lb.r += low.r;
		lb.m += low.m;
	}
	x->nodes += x->w->nplay - next;
	return lb.r < x->best.r || (lb.r == x->best.r && lb.m < x->best.m);
}

static void branch(struct exact *x, int k)
{
	struct work *w = x->w;
	if (++x->nodes > x->max || !promising(x, k))
		return;
	if (k == w->nplay) {
		x->best = x->cur;
		memcpy(x->best_member, x->member, sizeof x->member);
		x->found = 1;
		return;
	}
	int p = x->order[k];
	for (int t = 0; t < w->ntables; t++) {
		int twin = 0;
		for (int u = 0; u < t && x->count[t] == 0; u++)
			twin |= x->count[u] == 0 && w->size[u] == w->size[t];
		if (x->count[t] == w->size[t] || twin)
			continue;
		struct delta d = adds(x, p, t);
		x->cur.r += d.r;
		x->cur.m += d.m;
		x->member[t][x->count[t]++] = p;
		branch(x, k + 1);
		x->count[t]--;
		x->cur.r -= d.r;
		x->cur.m -= d.m;
	}
}

/* Small fields with repeats left: the exact search, bounded by
 * EXACT_NODES; a seating better than the one found is taken (each table
 * keeps its size), so its result is the fewest repeats, then meetings,
 * there are when the search ran to its end. */
static void exact(struct work *w)
{
	static const struct delta none = { 0, 0, 0 };
	struct exact ex, *x = &ex;
	struct delta c = cost(w);
	if (w->nplay > EXACT_PLAYERS || !less(none, c))
		return;
	memset(x, 0, sizeof *x);
	x->w = w;
	x->best = (struct delta){ c.r, c.m, 0 };
	x->max = EXACT_NODES;
	int deg[EXACT_PLAYERS];
	for (int k = 0; k < w->nplay; k++) {   /* who met the most first */
		int p = w->at[k], d = 0, j = k;
		for (int q = 0; q < w->nplay; q++)
			d += q != k && met(w, p, w->at[q]) > 0;
		for (; j > 0 && deg[j - 1] < d; j--) {
			deg[j] = deg[j - 1];
			x->order[j] = x->order[j - 1];
		}
		deg[j] = d;
		x->order[j] = p;
	}
	branch(x, 0);
	w->work += x->nodes;
	if (!x->found)
		return;
	for (int t = 0; t < w->ntables; t++)
		for (int k = 0; k < w->size[t]; k++)
			w->at[w->start[t] + k] = x->best_member[t][k];
}

/* Neighbouring tables first; while meetings repeat, the search over all
 * tables and sweeps over all tables for the score differences; then, for
 * small fields, a look one round ahead. */
static void improve(struct work *w)
{
	for (int width = 1; width < w->ntables && w->work < w->work_max / 2; width++) {
		if (width > 1 && repeat_pairs(w) == 0)
			break;
		for (int s = 0; s < SWEEPS_MAX && w->work < w->work_max / 2; s++)
			if (sweep(w, width) == 0)
				break;
	}
	if (w->ntables < 2)
		return;
	if (repeat_pairs(w) > 0) {
		search_and_sweep(w);
		exact(w);
		for (int s = 0; s < SWEEPS_MAX; s++)
			if (sweep(w, w->ntables) == 0)
				break;
	}
	look_ahead(w);
}

/* Seat order: each table shuffled; the result into out. */
static void seat_tables(struct work *w, struct pairing_out *out)
{
	out->ntables = w->ntables;
	for (int t = 0; t < w->ntables; t++) {
		int *s = out->seat[t];
		out->size[t] = w->size[t];
		for (int k = 0; k < w->size[t]; k++)
			s[k] = w->at[w->start[t] + k];
		for (int k = w->size[t] - 1; k > 0; k--) {
			int j = (int)rng_below(&w->rng, (uint32_t)k + 1), x = s[k];
			s[k] = s[j];
			s[j] = x;
		}
	}
	out->repeats = repeat_pairs(w);
}

/* Ranking, byes and table sizes, shared by both formats. */
static int begin(struct work *w, const struct pairing_in *in, int byes_top, struct pairing_out *out)
{
	int sizes[PAIRING_TABLES_MAX], ntables;
	if (bad_input(in))
		return -1;
	w->in = in;
	w->tier_only = 0;
	w->work = 0;
	w->stale_max = STALE_MAX;
	w->look = 0;
	rng_seed(&w->rng, in->seed ^ ((uint64_t)(unsigned)in->round * 0x9e3779b97f4a7c15ULL));
	rng_seed(&w->kicks, ~in->seed ^ ((uint64_t)(unsigned)in->round * 0xbf58476d1ce4e5b9ULL));
	rank_players(w);
	int out_count = pairing_table_sizes(in->n, in->seats, in->min_seats, sizes, &ntables);
	take_byes(w, out_count, byes_top, out);
	lay_tables(w, sizes, ntables);
	w->work_max = (long)WORK_PLAYER * w->nplay;
	if (w->work_max < WORK_MIN)
		w->work_max = WORK_MIN;
	return 0;
}

int pairing_swiss(const struct pairing_in *in, struct pairing_out *out)
{
	struct work w;
	struct pairing_out o;
	if (begin(&w, in, 0, &o) < 0)
		return -1;
	for (int r = 0; r < w.nplay; r++)
		w.at[r] = w.rank[r];
	w.look = 1;
	improve(&w);
	seat_tables(&w, &o);
	*out = o;
	return 0;
}

/* Elimination, tier k (k >= 1) at tables laid from the snake: the
 * rotation of the tier's players over its tables that meets the tiers
 * above least often (the first such rotation, none when it is 0). */
static void rotate_tier(struct work *w, int k)
{
	int pos[PAIRING_TABLES_MAX], who[PAIRING_TABLES_MAX], m = 0, best = 0, best_met = -1;
	for (int t = 0; t < w->ntables; t++)
		if (k < w->size[t]) {
			pos[m] = w->start[t] + k;
			who[m++] = w->at[w->start[t] + k];
		}
	for (int r = 0; r < m; r++) {
		int sum = 0;
		for (int i = 0; i < m; i++)
			for (int l = pos[i] - k; l < pos[i]; l++)
				sum += met(w, who[(i + r) % m], w->at[l]);
		if (best_met < 0 || sum < best_met) {
			best_met = sum;
			best = r;
		}
	}
	for (int i = 0; i < m; i++)
		w->at[pos[i]] = who[(i + best) % m];
}

int pairing_elimination(const struct pairing_in *in, struct pairing_out *out)
{
	struct work w;
	struct pairing_out o;
	if (begin(&w, in, 1, &o) < 0)
		return -1;
	/* snake order: tier k runs forwards over the tables when k is even */
	int r = 0;
	for (int k = 0; r < w.nplay; k++)
		for (int i = 0; i < w.ntables; i++) {
			int t = k % 2 ? w.ntables - 1 - i : i;
			if (k < w.size[t])
				w.at[w.start[t] + k] = w.rank[r++];
		}
	for (int k = 1; k < in->seats; k++)
		rotate_tier(&w, k);
	w.tier_only = 1;
	for (int s = 0; s < SWEEPS_MAX; s++)
		if (sweep(&w, w.ntables) == 0)
			break;
	seat_tables(&w, &o);
	*out = o;
	return 0;
}

/* ---- groups ---- */

/* Groups being formed: slot[g][k], the player at position k of group g,
 * -1 free; count[g] the players in it. */
struct groups {
	int ng;
	int slot[PAIRING_TABLES_MAX][PAIRING_SEATS_MAX];
	int count[PAIRING_TABLES_MAX];
};

/* Puts player p into the group with the fewest members (lowest number
 * first) that has room and is not `skip`, in its lowest free position:
 * 0, or -1 when none has room. */
static int join_fewest(struct groups *G, int p, int seats, int skip)
{
	int best = -1;
	for (int g = 0; g < G->ng; g++)
		if (g != skip && G->count[g] > 0 && G->count[g] < seats &&
		    (best < 0 || G->count[g] < G->count[best]))
			best = g;
	if (best < 0)
		return -1;
	for (int k = 0; k < seats; k++)
		if (G->slot[best][k] < 0) {
			G->slot[best][k] = p;
			G->count[best]++;
			return 0;
		}
	return -1;
}

/* The groups of the players still seated, byes taken out, their seats
 * filled by the players without a group and groups too small merged:
 * 0, or -1 when that cannot seat everybody. */
static int regroup(const struct pairing_in *in, const int *grp, const int *gpos,
		   const int *is_bye, struct groups *G)
{
	int n = in->n, S = in->seats, floater[PAIRING_PLAYERS_MAX], nf = 0, vac[PAIRING_PLAYERS_MAX][2],
	    nv = 0;
	memset(G, 0, sizeof *G);
	memset(G->slot, -1, sizeof G->slot);
	for (int p = 0; p < n; p++) {
		int g = grp[p], k = gpos[p];
		int ok = g >= 0 && g < PAIRING_TABLES_MAX && k >= 0 && k < S && G->slot[g][k] < 0;
		if (ok && is_bye[p]) {   /* the seat they leave */
			vac[nv][0] = g;
			vac[nv++][1] = k;
		} else if (ok) {
			G->slot[g][k] = p;
			G->count[g]++;
			G->ng = g + 1 > G->ng ? g + 1 : G->ng;
		} else if (!is_bye[p]) {
			floater[nf++] = p;
		}
	}
	int f = 0;
	for (int v = 0; v < nv && f < nf; v++)
		if (G->count[vac[v][0]] > 0) {
			G->slot[vac[v][0]][vac[v][1]] = floater[f++];
			G->count[vac[v][0]]++;
		}
	for (; f < nf; f++)
		if (join_fewest(G, floater[f], S, -1) < 0)
			return -1;
	for (;;) {   /* the smallest group below M, merged into the others */
		int small = -1;
		for (int g = 0; g < G->ng; g++)
			if (G->count[g] > 0 && G->count[g] < in->min_seats &&
			    (small < 0 || G->count[g] < G->count[small]))
				small = g;
		if (small < 0)
			return 0;
		for (int k = 0; k < S; k++) {
			int p = G->slot[small][k];
			if (p < 0)
				continue;
			if (join_fewest(G, p, S, small) < 0)
				return -1;
			G->slot[small][k] = -1;
			G->count[small]--;
		}
	}
}

int pairing_groups(const struct pairing_in *in, const int *grp, const int *gpos,
		   struct pairing_out *out, int *ngrp, int *ngpos)
{
	struct work w;
	struct pairing_out o;
	struct groups G;
	int is_bye[PAIRING_PLAYERS_MAX] = { 0 };
	if (!grp || !gpos || !ngrp || !ngpos || begin(&w, in, 0, &o) < 0)
		return -1;
	for (int b = 0; b < o.nbyes; b++)
		is_bye[o.bye[b]] = 1;
	for (int p = 0; p < in->n; p++)
		ngrp[p] = ngpos[p] = -1;
	int r = in->round > 0 ? in->round - 1 : 0;
	if (regroup(in, grp, gpos, is_bye, &G) != 0) {   /* drawn afresh */
		if (pairing_swiss(in, &o) != 0)
			return -1;
		for (int t = 0; t < o.ntables; t++)
			for (int k = 0; k < o.size[t]; k++) {
				ngrp[o.seat[t][k]] = t;
				ngpos[o.seat[t][k]] = ((k - r) % o.size[t] + o.size[t]) % o.size[t];
			}
		*out = o;
		return 0;
	}
	o.ntables = 0;
	o.repeats = 0;
	for (int g = 0; g < G.ng; g++) {
		if (G.count[g] == 0)
			continue;
		int t = o.ntables++, m = G.count[g], i = 0;
		o.size[t] = m;
		for (int k = 0; k < in->seats; k++) {
			int p = G.slot[g][k];
			if (p < 0)
				continue;
			ngrp[p] = t;
			ngpos[p] = i;
			o.seat[t][(i + r % m) % m] = p;
			i++;
		}
	}
	*out = o;
	return 0;
}
