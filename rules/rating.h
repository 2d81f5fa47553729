/* rating.h — a player's skill rating from the places of their matches:
 * the Weng-Lin Bayesian approximation with the Plackett-Luce model, as
 * OpenSkill has it (docs/rulings.md, "Ratings"). Every player is a team of
 * one; a match has 2..RATING_PLAYERS_MAX players, ties allowed.
 *
 * A rating is a belief about the skill: mean mu and standard deviation
 * sigma. A match moves mu towards what the places say and shrinks sigma;
 * the dynamics term tau first widens every sigma a little, so a rating
 * keeps learning over years. What a person sees is the conservative
 * ordinal mu - 3 sigma, 0 for a new player.
 *
 * Pure functions: no allocation, no I/O, no global state. */
#ifndef SPIELTISCH_RATING_H
#define SPIELTISCH_RATING_H

enum { RATING_PLAYERS_MAX = 10 };

struct rating {
	double mu, sigma;
};

/* The model's parameters. rating_params_default gives OpenSkill's:
 * mu 25, sigma 25/3, beta 25/6 (sigma / 2: the spread of one
 * performance), kappa 0.0001 (the least a variance may shrink to, as a
 * share), tau 25/300 (sigma / 100: added to every sigma, as variances,
 * before a match). */
struct rating_params {
	double mu, sigma, beta, kappa, tau;
};

void rating_params_default(struct rating_params *p);

/* A new player's rating: (mu, sigma) of the default parameters. */
void rating_default(struct rating *r);

/* One match with the default parameters: n players with their ratings in
 * r (updated in place) and their places in place (1 = first; equal places
 * tie; only their order counts, so 1, 2, 2, 4 and 1, 2, 2, 3 are the same
 * result). 0, or -1 and r untouched for bad input: n out of 2..MAX, a
 * place < 1, a mu that is not finite or a sigma that is not > 0. */
int rating_update(struct rating *r, const int *place, int n);

/* The same with parameters p (beta, kappa, tau; mu and sigma are only a
 * new player's). -1 also for beta <= 0, kappa outside 0..1, tau < 0. */
int rating_update_with(const struct rating_params *p, struct rating *r, const int *place, int n);

/* The conservative value shown: mu - 3 sigma (pages round it to whole
 * points). */
double rating_ordinal(const struct rating *r);

#endif
