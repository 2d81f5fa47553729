// game.js: the peer's game, a tiny trick game with hidden hands for
// boardgame.io 0.50 (its object-argument move signature).
//
// Two players hold 20 cards each from a shuffled 52-card deck (boardgame.io's
// seeded random plugin: every match deals the same). A move plays one card
// of the mover's hand by its index; when both have played, the higher card
// wins the trick (a point). One move per turn, so the turn passes after
// every move; the match ends when the hands are empty (40 moves).
// playerView hides the other hand and the stock: a player sees only the
// number of cards there.
'use strict';

const { INVALID_MOVE } = require('boardgame.io/core');

const HAND = 20;

function play({ G, ctx, playerID }, i) {
	const hand = G.hands[playerID];
	if (!hand || !Number.isInteger(i) || i < 0 || i >= hand.length) return INVALID_MOVE;
	const card = hand.splice(i, 1)[0];
	G.table.push({ player: playerID, card });
	if (G.table.length === ctx.numPlayers) {
		let best = G.table[0];
		for (const t of G.table) if (t.card % 13 > best.card % 13) best = t;
		G.points[best.player] += 1;
		G.tricks += 1;
		G.table = [];
	}
}

function playerView({ G, playerID }) {
	const hands = {};
	for (const p of Object.keys(G.hands))
		hands[p] = p === playerID ? G.hands[p] : G.hands[p].length;
	return { ...G, hands, stock: G.stock.length };
}

module.exports = {
	name: 'karten',
	seed: 'spieltisch-bench',
	minPlayers: 2,
	maxPlayers: 2,
	setup: ({ ctx, random }) => {
		const deck = random.Shuffle(Array.from({ length: 52 }, (_, k) => k));
		const hands = {};
		const points = {};
		for (let p = 0; p < ctx.numPlayers; p++) {
			hands[String(p)] = deck.splice(0, HAND);
			points[String(p)] = 0;
		}
		return { hands, stock: deck, table: [], points, tricks: 0 };
	},
	turn: { minMoves: 1, maxMoves: 1 },
	moves: { play },
	endIf: ({ G }) => {
		if (Object.values(G.hands).every((h) => h.length === 0)) return { points: G.points };
		return undefined;
	},
	playerView,
	HAND,
};
