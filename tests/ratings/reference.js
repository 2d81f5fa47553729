/* reference.js — known answers for tests/unit/test_rating.c from the
 * openskill package (Weng-Lin, Plackett-Luce, its defaults: mu 25,
 * sigma 25/3, beta 25/6, kappa 0.0001, tau 25/300 added before every
 * match, no sigma limit), pinned in package-lock.json.
 *
 * To regenerate (the unit test needs neither node nor the network; it
 * holds the figures printed here):
 *
 *     cd tests/ratings && npm ci && node reference.js
 *
 * and copy each block into the array of the same name in
 * tests/unit/test_rating.c. Every player is a team of one; places are
 * 1-based, equal places a tie (the package's `rank` option). */
'use strict';
const { rate, rating } = require('openskill');

const fmt = (r) => `{ ${r.mu.toFixed(12)}, ${r.sigma.toFixed(12)} }`;

/* One match: start ratings (default when null) and places. */
function one(name, start, place, options = {}) {
	const teams = place.map((_, i) => [start ? start[i] : rating()]);
	const out = rate(teams, Object.assign({ rank: place }, options));
	console.log(`/* ${name}: places ${place.join(', ')} */`);
	console.log(`static const struct rating ${name}[] = {`);
	for (const [r] of out)
		console.log(`\t${fmt(r)},`);
	console.log('};');
}

one('two_win', null, [1, 2]);
one('two_tie', null, [1, 1]);
one('four_tie_middle', null, [1, 2, 2, 4]);
one('nine_two_ties', null, [4, 1, 6, 2, 9, 6, 2, 8, 5]);
one('different_start', [
	{ mu: 30, sigma: 4 }, { mu: 25, sigma: 25 / 3 }, { mu: 20, sigma: 6 }, { mu: 27, sigma: 2 },
], [4, 1, 2, 2]);
one('four_tie_middle_no_tau', null, [1, 2, 2, 4], { tau: 0 });

/* Five matches among players 0..3, each of some of them: who plays, and
 * their places. The ratings of all four after every match. */
const seq = [
	{ who: [0, 1, 2, 3], place: [1, 2, 3, 4] },
	{ who: [0, 1, 2], place: [3, 1, 2] },
	{ who: [1, 3], place: [2, 1] },
	{ who: [0, 2, 3], place: [1, 2, 2] },
	{ who: [0, 1, 2, 3], place: [2, 2, 1, 4] },
];
const all = [rating(), rating(), rating(), rating()];
console.log('/* sequence: the four ratings after each of the five matches */');
console.log('static const struct rating sequence[5][4] = {');
for (const m of seq) {
	const out = rate(m.who.map((p) => [all[p]]), { rank: m.place });
	m.who.forEach((p, k) => { all[p] = out[k][0]; });
	console.log(`\t{ ${all.map(fmt).join(',\n\t  ')} },`);
}
console.log('};');
