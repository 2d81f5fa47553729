/* match.c — seats, deadlines, match totals and party results (match.h). */
#include <assert.h>
#include <string.h>

#include "match.h"

int seat_next(int seat, int n)
{
	return (seat + 1) % n;
}

int seat_from(int from, int k, int n)
{
	return (int)(((long)from + k) % n);
}

int deal_seat(int dealer, int i, int n)
{
	assert(n > 0 && i >= 0);
	return seat_from(dealer, i % n + 1, n);
}

int64_t deadline_after(int64_t now_ms, int seconds)
{
	return seconds > 0 ? now_ms + (int64_t)seconds * 1000 : 0;
}

int deadline_passed(int64_t d, int64_t now_ms)
{
	return d > 0 && now_ms >= d;
}

int64_t deadline_min(int64_t a, int64_t b)
{
	if (a <= 0)
		return b > 0 ? b : 0;
	if (b <= 0)
		return a;
	return a < b ? a : b;
}

int match_dealer(int index, int first, int nplayers)
{
	return seat_from(first, index, nplayers);
}

void match_add_party(struct match_totals *m, const int *score, int nplayers)
{
	for (int s = 0; s < nplayers && s < GAME_MAX_SEATS; s++)
		m->total[s] += score[s];
	m->parties++;
}

uint32_t match_leaders(const struct match_totals *m, int nplayers)
{
	uint32_t mask = 0;
	int best = 0;
	for (int s = 0; s < nplayers; s++) {
		if (!mask || m->total[s] > best) {
			best = m->total[s];
			mask = 1u << s;
		} else if (m->total[s] == best) {
			mask |= 1u << s;
		}
	}
	return mask;
}

/* 1-based place of each of n values, the highest first; equal values
 * share a place and the next place is skipped (1, 1, 3). */
static void rank_desc(const int *v, int n, int *place)
{
	for (int s = 0; s < n; s++) {
		place[s] = 1;
		for (int o = 0; o < n; o++)
			if (v[o] > v[s])
				place[s]++;
	}
}

void match_places(const struct match_totals *m, int nplayers, int *place)
{
	rank_desc(m->total, nplayers, place);
}

void match_standings(const struct match_totals *m, int nplayers, uint32_t resigned, int *place)
{
	struct party_result r;
	memset(&r, 0, sizeof r);
	match_places(m, nplayers, r.place);
	party_resigned_last(&r, nplayers, resigned);
	memcpy(place, r.place, sizeof(int) * (size_t)nplayers);
}

void party_resigned_last(struct party_result *r, int nplayers, uint32_t resigned)
{
	int place[GAME_MAX_SEATS], stay = 0;
	if (!resigned)
		return;
	for (int q = 0; q < nplayers; q++)
		stay += !((resigned >> q) & 1u);
	for (int q = 0; q < nplayers; q++) {
		if ((resigned >> q) & 1u) {
			place[q] = stay + 1;
			continue;
		}
		place[q] = 1;
		for (int o = 0; o < nplayers; o++)
			place[q] += !((resigned >> o) & 1u) && r->place[o] < r->place[q];
	}
	memcpy(r->place, place, sizeof(int) * (size_t)nplayers);
}

int party_winner(const struct party_result *r, int nplayers)
{
	int w = -1;
	for (int s = 0; s < nplayers; s++) {
		if (r->place[s] != 1)
			continue;
		if (w >= 0)
			return -1;
		w = s;
	}
	return w;
}

void party_result(const struct status *st, int nplayers, struct party_result *r)
{
	int own = 0;
	assert(nplayers >= 1 && nplayers <= GAME_MAX_SEATS);
	memset(r, 0, sizeof *r);
	for (int s = 0; s < nplayers; s++) {
		r->points[s] = st->score[s];
		own |= st->place[s] != 0;
	}
	if (own)
		memcpy(r->place, st->place, sizeof(int) * (size_t)nplayers);
	else
		rank_desc(r->points, nplayers, r->place);
}
