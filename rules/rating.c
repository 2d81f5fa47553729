/* rating.c — Weng-Lin / Plackett-Luce ratings (rating.h). */
#include "rating.h"

#include <math.h>

void rating_params_default(struct rating_params *p)
{
	p->mu = 25.0;
	p->sigma = 25.0 / 3.0;
	p->beta = 25.0 / 6.0;
	p->kappa = 0.0001;
	p->tau = 25.0 / 300.0;
}

void rating_default(struct rating *r)
{
	struct rating_params p;
	rating_params_default(&p);
	r->mu = p.mu;
	r->sigma = p.sigma;
}

double rating_ordinal(const struct rating *r)
{
	return r->mu - 3.0 * r->sigma;
}

static int bad_input(const struct rating_params *p, const struct rating *r, const int *place, int n)
{
	if (n < 2 || n > RATING_PLAYERS_MAX)
		return 1;
	if (!(p->beta > 0) || !isfinite(p->beta) || !(p->kappa >= 0 && p->kappa <= 1) ||
	    !(p->tau >= 0) || !isfinite(p->tau))
		return 1;
	for (int i = 0; i < n; i++)
		if (place[i] < 1 || !isfinite(r[i].mu) || !(r[i].sigma > 0) || !isfinite(r[i].sigma))
			return 1;
	return 0;
}

/* Plackett-Luce (Weng & Lin 2011, algorithm 4; OpenSkill's plackettLuce).
 * Every sigma first takes tau: sigma_i^2 += tau^2. With
 * c^2 = sum over all of (sigma_q^2 + beta^2), player i's strength is
 * e_i = exp(mu_i / c); S_q is the strength of everyone placed at or
 * after q, and A_q the number of players sharing q's place. Over every q
 * placed at or before i:
 *   Omega_i = sigma_i^2 / c   * sum_q ([i = q] - e_i / S_q) / A_q
 *   Delta_i = sigma_i^3 / c^3 * sum_q (e_i / S_q) (1 - e_i / S_q) / A_q
 * (the factor gamma_i = sigma_i / c is OpenSkill's default), then
 * mu_i += Omega_i and sigma_i *= sqrt(max(1 - Delta_i, kappa)). The
 * exponents are shifted by the largest mu, which cancels in every
 * quotient, so that no strength overflows. */
int rating_update_with(const struct rating_params *p, struct rating *r, const int *place, int n)
{
	if (bad_input(p, r, place, n))
		return -1;
	double var[RATING_PLAYERS_MAX], e[RATING_PLAYERS_MAX], sum[RATING_PLAYERS_MAX];
	int share[RATING_PLAYERS_MAX];
	double c2 = 0, top = r[0].mu;
	for (int i = 0; i < n; i++) {
		var[i] = r[i].sigma * r[i].sigma + p->tau * p->tau;
		c2 += var[i] + p->beta * p->beta;
		if (r[i].mu > top)
			top = r[i].mu;
	}
	double c = sqrt(c2);
	for (int i = 0; i < n; i++)
		e[i] = exp((r[i].mu - top) / c);
	for (int q = 0; q < n; q++) {
		sum[q] = 0;
		share[q] = 0;
		for (int j = 0; j < n; j++) {
			if (place[j] >= place[q])
				sum[q] += e[j];
			share[q] += place[j] == place[q];
		}
	}
	for (int i = 0; i < n; i++) {
		double omega = 0, delta = 0;
		for (int q = 0; q < n; q++) {
			if (place[q] > place[i])
				continue;
			double quot = e[i] / sum[q];
			omega += ((i == q ? 1 : 0) - quot) / share[q];
			delta += quot * (1 - quot) / share[q];
		}
		double sigma = sqrt(var[i]);
		double shrink = 1 - delta * var[i] * sigma / (c2 * c);
		r[i].mu += omega * var[i] / c;
		r[i].sigma = sigma * sqrt(shrink > p->kappa ? shrink : p->kappa);
	}
	return 0;
}

int rating_update(struct rating *r, const int *place, int n)
{
	struct rating_params p;
	rating_params_default(&p);
	return rating_update_with(&p, r, place, n);
}
