/* pairing.c — seating one round of a tournament (pairing.h). */
#include "pairing.h"

#include "rng.h"

/* Local search bound: sweeps over the table pairs at one width. */
enum { SWEEPS_MAX = 32 };

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
	int rank[PAIRING_PLAYERS_MAX]; /* player ids, best first */
	int nplay;                     /* players seated; at[] holds them */
	int at[PAIRING_PLAYERS_MAX];
	int ntables, size[PAIRING_TABLES_MAX], start[PAIRING_TABLES_MAX];
	int table_of[PAIRING_PLAYERS_MAX]; /* by position in at[] */
	int tier_only;                 /* elimination: swap equal tiers only */
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

/* What swapping the players at positions p and q changes: met counts in
 * *dm, score differences in *ds. */
static void swap_delta(const struct work *w, int p, int q, int *dm, int *ds)
{
	int a = w->at[p], b = w->at[q];
	int tp = w->table_of[p], tq = w->table_of[q];
	*dm = *ds = 0;
	for (int k = w->start[tp]; k < w->start[tp] + w->size[tp]; k++) {
		if (k == p)
			continue;
		*dm += met(w, b, w->at[k]) - met(w, a, w->at[k]);
		*ds += gap(w, b, w->at[k]) - gap(w, a, w->at[k]);
	}
	for (int k = w->start[tq]; k < w->start[tq] + w->size[tq]; k++) {
		if (k == q)
			continue;
		*dm += met(w, a, w->at[k]) - met(w, b, w->at[k]);
		*ds += gap(w, a, w->at[k]) - gap(w, b, w->at[k]);
	}
}

/* One sweep over the table pairs at most `width` apart: every swap that
 * lowers (met counts, then score differences) is made. Returns the number
 * of swaps. */
static int sweep(struct work *w, int width)
{
	int swaps = 0;
	for (int i = 0; i < w->ntables; i++)
		for (int j = i + 1; j < w->ntables && j - i <= width; j++)
			for (int p = w->start[i]; p < w->start[i] + w->size[i]; p++)
				for (int q = w->start[j]; q < w->start[j] + w->size[j]; q++) {
					int dm, ds;
					if (w->tier_only && p - w->start[i] != q - w->start[j])
						continue;
					swap_delta(w, p, q, &dm, &ds);
					if (dm < 0 || (dm == 0 && ds < 0 && !w->tier_only)) {
						int a = w->at[p];
						w->at[p] = w->at[q];
						w->at[q] = a;
						swaps++;
					}
				}
	return swaps;
}

/* The met counts of all pairs at tables, or (count_pairs) the number of
 * pairs among them that met before. */
static int met_total(const struct work *w, int count_pairs)
{
	int sum = 0;
	for (int t = 0; t < w->ntables; t++)
		for (int k = w->start[t]; k < w->start[t] + w->size[t]; k++)
			for (int l = k + 1; l < w->start[t] + w->size[t]; l++) {
				int m = met(w, w->at[k], w->at[l]);
				sum += count_pairs ? m > 0 : m;
			}
	return sum;
}

/* Local search: neighbouring tables first, wider only while meetings
 * repeat. */
static void improve(struct work *w)
{
	for (int width = 1; width < w->ntables; width++) {
		if (width > 1 && met_total(w, 0) == 0)
			break;
		for (int s = 0; s < SWEEPS_MAX; s++)
			if (sweep(w, width) == 0)
				break;
	}
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
	out->repeats = met_total(w, 1);
}

/* Ranking, byes and table sizes, shared by both formats. */
static int begin(struct work *w, const struct pairing_in *in, int byes_top, struct pairing_out *out)
{
	int sizes[PAIRING_TABLES_MAX], ntables;
	if (bad_input(in))
		return -1;
	w->in = in;
	w->tier_only = 0;
	rng_seed(&w->rng, in->seed ^ ((uint64_t)(unsigned)in->round * 0x9e3779b97f4a7c15ULL));
	rank_players(w);
	int out_count = pairing_table_sizes(in->n, in->seats, in->min_seats, sizes, &ntables);
	take_byes(w, out_count, byes_top, out);
	lay_tables(w, sizes, ntables);
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
