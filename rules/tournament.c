/* tournament.c — the arithmetic of a tournament of many tables
 * (tournament.h, docs/tournaments.md). */
#include "tournament.h"

#include <stdio.h>
#include <string.h>

static int clamp_seats(int seats)
{
	return seats < 2 ? 2 : seats > TOURNEY_SEATS_MAX ? TOURNEY_SEATS_MAX : seats;
}

void tourney_points_default(struct tourney_points *tp, int seats)
{
	memset(tp, 0, sizeof *tp);
	tp->seats = clamp_seats(seats);
	for (int i = 0; i < tp->seats; i++)
		tp->p[i] = 2 * (tp->seats - 1 - i);
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Reads one number of the list at *s (blanks around it allowed) into *v:
 * 1, or 0 when there is no number. A minus sign makes the number negative;
 * large numbers stop growing past the allowed range, so nothing overflows. */
static int read_number(const char **s, int *v)
{
	const char *c = *s;
	int neg = 0, n = 0, digits = 0;
	while (is_blank(*c))
		c++;
	if (*c == '-') {
		neg = 1;
		c++;
	}
	for (; *c >= '0' && *c <= '9'; c++, digits++)
		if (n <= TOURNEY_POINTS_MAX)
			n = n * 10 + (*c - '0');
	while (is_blank(*c))
		c++;
	*s = c;
	*v = neg ? -n : n;
	return digits > 0;
}

static int count_error(int seats, struct rerr *e)
{
	struct tourney_points d;
	char ex[TOURNEY_SEATS_MAX * 4];
	tourney_points_default(&d, seats);
	if (tourney_points_format(&d, ex, sizeof ex) < 0)
		ex[0] = '\0';
	return rerr_set(e, "Punkte nach Platz: genau %d Zahlen, durch Komma getrennt (z. B. %s).",
			seats, ex);
}

int tourney_points_parse(struct tourney_points *tp, int seats, const char *text, struct rerr *e)
{
	if (seats < 2 || seats > TOURNEY_SEATS_MAX)
		return rerr_set(e, "Punkte nach Platz: 2 bis %d Plätze.", TOURNEY_SEATS_MAX);
	int v[TOURNEY_SEATS_MAX], n = 0;
	const char *s = text ? text : "";
	for (;;) {
		int x;
		if (n == seats || !read_number(&s, &x))
			return count_error(seats, e);
		v[n++] = x;
		if (*s == '\0')
			break;
		if (*s != ',')
			return count_error(seats, e);
		s++;
	}
	if (n != seats)
		return count_error(seats, e);
	for (int i = 0; i < n; i++)
		if (v[i] < 0 || v[i] > TOURNEY_POINTS_MAX)
			return rerr_set(e, "Punkte nach Platz: 0 bis %d je Platz.", TOURNEY_POINTS_MAX);
	for (int i = 1; i < n; i++)
		if (v[i] > v[i - 1])
			return rerr_set(e, "Punkte nach Platz dürfen nach hinten nicht steigen.");
	memset(tp, 0, sizeof *tp);
	tp->seats = seats;
	memcpy(tp->p, v, (size_t)n * sizeof v[0]);
	return 0;
}

int tourney_points_format(const struct tourney_points *tp, char *out, size_t cap)
{
	if (cap == 0)
		return -1;
	out[0] = '\0';
	if (tp->seats < 1 || tp->seats > TOURNEY_SEATS_MAX)
		return -1;
	size_t len = 0;
	for (int i = 0; i < tp->seats; i++) {
		int w = snprintf(out + len, cap - len, i ? ",%d" : "%d", tp->p[i]);
		if (w < 0 || (size_t)w >= cap - len) {
			out[0] = '\0';
			return -1;
		}
		len += (size_t)w;
	}
	return 0;
}

/* The points of place k (1-based) at a table of size players, times
 * (size - 1): exact, so that a mean is rounded once. */
static int scaled_points(const struct tourney_points *tp, int size, int k)
{
	int d = size - 1, x = (k - 1) * (tp->seats - 1);
	int i = x / d, r = x % d;
	if (r == 0)
		return tp->p[i] * d;
	return tp->p[i] * (d - r) + tp->p[i + 1] * r;
}

int tourney_place_points(const struct tourney_points *tp, int size, int place, int tied)
{
	if (tp->seats < 2 || tp->seats > TOURNEY_SEATS_MAX || size < 2 || size > tp->seats ||
	    place < 1 || place > size || tied < 1 || tied > size - place + 1)
		return 0;
	int sum = 0;
	for (int k = place; k < place + tied; k++)
		sum += scaled_points(tp, size, k);
	return sum / ((size - 1) * tied);
}

int tourney_bye_points(const struct tourney_points *tp)
{
	int s = tp->seats;
	if (s < 2 || s > TOURNEY_SEATS_MAX)
		return 0;
	if (s % 2)
		return tp->p[s / 2];
	return (tp->p[s / 2 - 1] + tp->p[s / 2]) / 2;
}

int tourney_advances(int place, int size, int advance)
{
	if (size < 1 || place < 1 || place > size || advance < 1)
		return 0;
	int go = advance < size - 1 ? advance : size - 1;
	if (go < 1)
		go = 1;
	/* a place counts the players ahead plus one: a place within the cut
	 * is ahead of it or shares the place at it */
	return place <= go;
}

int tourney_group_seat(int pos, int size, int round)
{
	if (size < 1 || pos < 0 || pos >= size || round < 1)
		return -1;
	return (pos + (round - 1) % size) % size;
}

/* ---- standings ---- */

static int bad_standings_input(const struct tourney_result *r, int nr, int nplayers,
			       const enum tourney_tiebreak tb[TOURNEY_TIEBREAKS],
			       const struct tourney_standing *out)
{
	if (nplayers < 0 || nr < 0 || (nr > 0 && !r) || (nplayers > 0 && !out) || !tb)
		return 1;
	for (int k = 0; k < TOURNEY_TIEBREAKS; k++)
		if ((int)tb[k] < 0 || tb[k] >= TB__MAX)
			return 1;
	for (int i = 0; i < nr; i++)
		if (r[i].player < 0 || r[i].player >= nplayers || r[i].table < -1)
			return 1;
	return 0;
}

/* The points, party points, tables and byes of every player, into
 * out[player]. */
static void sum_results(const struct tourney_result *r, int nr, int nplayers,
			struct tourney_standing *out)
{
	memset(out, 0, (size_t)nplayers * sizeof *out);
	for (int p = 0; p < nplayers; p++)
		out[p].player = p;
	for (int i = 0; i < nr; i++) {
		struct tourney_standing *s = &out[r[i].player];
		s->points += r[i].points;
		s->party_points += r[i].party_points;
		if (r[i].table >= 0)
			s->played++;
		else
			s->byes++;
	}
}

static int same_table(const struct tourney_result *a, const struct tourney_result *b)
{
	return a->round == b->round && a->table == b->table;
}

/* sb2 over the runs of results of one (round, table); needs the points
 * summed already (out indexed by player). */
static void sum_sb(const struct tourney_result *r, int nr, struct tourney_standing *out)
{
	for (int i = 0; i < nr;) {
		int end = i + 1;
		while (end < nr && same_table(&r[end], &r[i]))
			end++;
		for (int a = i; a < end && r[i].table >= 0; a++)
			for (int b = i; b < end; b++) {
				if (a == b)
					continue;
				int them = out[r[b].player].points;
				if (r[a].place < r[b].place)
					out[r[a].player].sb2 += 2 * them;
				else if (r[a].place == r[b].place)
					out[r[a].player].sb2 += them;
			}
		i = end;
	}
}

/* Elimination: reach and final_place of every player (out indexed by
 * player). The final is the last round when it was played at one table. */
static void sum_reach(const struct tourney_result *r, int nr, int nplayers, const int *reach,
		      struct tourney_standing *out)
{
	enum { BEHIND = TOURNEY_SEATS_MAX + 1 };
	int last = 0, table = -1, one_table = 1;
	for (int p = 0; p < nplayers; p++)
		out[p].reach = reach[p] > 0 ? reach[p] : TOURNEY_ROUNDS_MAX + 1;
	for (int i = 0; i < nr; i++)
		last = r[i].round > last ? r[i].round : last;
	for (int i = 0; i < nr; i++) {
		if (r[i].round != last || r[i].table < 0)
			continue;
		one_table &= table < 0 || r[i].table == table;
		table = r[i].table;
	}
	if (table < 0 || !one_table)
		return;
	for (int p = 0; p < nplayers; p++)
		out[p].final_place = BEHIND;
	for (int i = 0; i < nr; i++)
		if (r[i].round == last && r[i].table == table)
			out[r[i].player].final_place = r[i].place;
}

static int tb_value(const struct tourney_standing *s, enum tourney_tiebreak t)
{
	return t == TB_PARTY ? s->party_points : t == TB_SB ? s->sb2 : 0;
}

/* Whether a is listed before b on points and the tie-breaks: -1, 0 when
 * equal on all of them, 1 when b comes first. */
static int compare_scores(const struct tourney_standing *a, const struct tourney_standing *b,
			  const enum tourney_tiebreak tb[TOURNEY_TIEBREAKS])
{
	if (a->reach != b->reach)
		return a->reach > b->reach ? -1 : 1;
	if (a->final_place != b->final_place)
		return a->final_place < b->final_place ? -1 : 1;
	if (a->points != b->points)
		return a->points > b->points ? -1 : 1;
	for (int k = 0; k < TOURNEY_TIEBREAKS && tb[k] != TB_NONE; k++) {
		int va = tb_value(a, tb[k]), vb = tb_value(b, tb[k]);
		if (va != vb)
			return va > vb ? -1 : 1;
	}
	return 0;
}

/* The listing order: the scores, then the player number. */
static int listed_before(const struct tourney_standing *a, const struct tourney_standing *b,
			 const enum tourney_tiebreak tb[TOURNEY_TIEBREAKS])
{
	int c = compare_scores(a, b, tb);
	return c ? c < 0 : a->player < b->player;
}

static void sift_down(struct tourney_standing *s, int root, int n,
		      const enum tourney_tiebreak tb[TOURNEY_TIEBREAKS])
{
	for (;;) {
		int child = 2 * root + 1;
		if (child >= n)
			return;
		/* a max-heap of "listed last" */
		if (child + 1 < n && listed_before(&s[child], &s[child + 1], tb))
			child++;
		if (!listed_before(&s[root], &s[child], tb))
			return;
		struct tourney_standing t = s[root];
		s[root] = s[child];
		s[child] = t;
		root = child;
	}
}

/* Heap sort in place: no scratch, O(n log n); the order is total (the
 * player number decides last), so no stability is needed. */
static void sort_standings(struct tourney_standing *s, int n,
			   const enum tourney_tiebreak tb[TOURNEY_TIEBREAKS])
{
	for (int i = n / 2 - 1; i >= 0; i--)
		sift_down(s, i, n, tb);
	for (int end = n - 1; end > 0; end--) {
		struct tourney_standing t = s[0];
		s[0] = s[end];
		s[end] = t;
		sift_down(s, 0, end, tb);
	}
}

int tourney_standings(const struct tourney_result *r, int nr, int nplayers,
		      const enum tourney_tiebreak tb[TOURNEY_TIEBREAKS],
		      struct tourney_standing *out)
{
	return tourney_standings_reach(r, nr, nplayers, tb, NULL, out);
}

int tourney_standings_reach(const struct tourney_result *r, int nr, int nplayers,
			    const enum tourney_tiebreak tb[TOURNEY_TIEBREAKS], const int *reach,
			    struct tourney_standing *out)
{
	if (bad_standings_input(r, nr, nplayers, tb, out))
		return -1;
	for (int p = 0; reach && p < nplayers; p++)
		if (reach[p] < 0)
			return -1;
	sum_results(r, nr, nplayers, out);
	sum_sb(r, nr, out);
	if (reach)
		sum_reach(r, nr, nplayers, reach, out);
	sort_standings(out, nplayers, tb);
	for (int i = 0; i < nplayers; i++) {
		out[i].rank_order = i;
		if (i > 0 && compare_scores(&out[i - 1], &out[i], tb) == 0)
			out[i].place = out[i - 1].place;
		else
			out[i].place = i + 1;
	}
	return 0;
}
