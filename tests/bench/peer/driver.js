// driver.js: the load on the peer (server.js), through boardgame.io's own
// transport: socket.io events exactly as boardgame.io's SocketIO client
// sends them ('sync' to join a match and read its state, 'update' with a
// MAKE_MOVE action), and its lobby REST API to create and join matches.
//
//   node driver.js --port P --conn 16 --duration 5 --matches N
//
// Preparation (not measured): N matches created and joined by both
// players (REST, CONN at a time), 2 × CONN sockets (one per seat of each
// of CONN players' pairs, websocket transport), and one match per pair
// played to its middle (20 moves) for the reads.
// Moves (DURATION s): CONN pairs, each on its own match at a time; the
// player to move sends 'update' and waits until its own socket receives
// the new state (the server's 'patch' or 'update' with the next stateID);
// then the other player moves. A finished match (40 moves) is followed by
// the pair's next prepared one (both sockets 'sync' to it: counted in the
// time, not as moves). Reads (DURATION s): each pair's seat 0 sends 'sync'
// for its middle match and waits for the 'sync' answer (the state as the
// player sees it, with the log), CONN at a time.
// Every wait has a 10 s limit (an error); the whole run is bounded.
// Prints one line: PEER key=value ... (times in microseconds).
'use strict';

const { io } = require('socket.io-client');
const game = require('./game');

function arg(name, def) {
	const i = process.argv.indexOf('--' + name);
	return i > 0 && i + 1 < process.argv.length ? process.argv[i + 1] : def;
}
const PORT = Number(arg('port', '0'));
const CONN = Number(arg('conn', '16'));
const DUR = Number(arg('duration', '5')) * 1000;
const MATCHES = Number(arg('matches', '200'));
const BASE = `http://127.0.0.1:${PORT}`;
const NAME = game.name;
const MOVES = game.HAND * 2;
const WAIT_MS = 10000;

// The whole run, preparation included, is bounded.
setTimeout(() => {
	console.error('driver: run took too long, giving up');
	process.exit(3);
}, 240000 + 3 * DUR).unref();

async function post(path, body) {
	const r = await fetch(BASE + path, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(body),
		signal: AbortSignal.timeout(WAIT_MS),
	});
	if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
	return r.json();
}

async function newMatch() {
	const { matchID } = await post(`/games/${NAME}/create`, { numPlayers: 2 });
	const creds = [];
	for (const p of ['0', '1']) {
		const j = await post(`/games/${NAME}/${matchID}/join`, { playerID: p, playerName: 'p' + p });
		creds.push(j.playerCredentials);
	}
	return { matchID, creds };
}

// A socket with one waiter at a time: wait(pred) resolves on the first
// event that pred accepts.
function client() {
	const s = io(`${BASE}/${NAME}`, { transports: ['websocket'], reconnection: false });
	s.waiter = null;
	const hit = (ev, args) => {
		const w = s.waiter;
		if (w && w.pred(ev, args)) {
			s.waiter = null;
			clearTimeout(w.timer);
			w.resolve(args);
		}
	};
	for (const ev of ['update', 'patch', 'sync']) s.on(ev, (...a) => hit(ev, a));
	s.wait = (pred) => new Promise((resolve, reject) => {
		const timer = setTimeout(() => {
			s.waiter = null;
			reject(new Error('no answer within 10 s'));
		}, WAIT_MS);
		s.waiter = { pred, resolve, timer };
	});
	return s;
}

function connected(s) {
	return new Promise((resolve, reject) => {
		const t = setTimeout(() => reject(new Error('no connection')), WAIT_MS);
		s.once('connect', () => { clearTimeout(t); resolve(); });
		s.once('connect_error', (e) => { clearTimeout(t); reject(e); });
	});
}

// 'sync' for match m as seat p; resolves with the state's _stateID.
async function sync(s, m, p) {
	const w = s.wait((ev, a) => ev === 'sync' && a[0] === m.matchID);
	s.emit('sync', m.matchID, p, m.creds[Number(p)], 2);
	const [, info] = await w;
	return info.state._stateID;
}

// One move of seat p (its first card) at stateID; resolves when p's own
// socket has the new state.
async function move(s, m, p, stateID) {
	const next = stateID + 1;
	const w = s.wait((ev, a) => a[0] === m.matchID &&
		((ev === 'patch' && a[2] === next) || (ev === 'update' && a[1]._stateID === next)));
	const action = { type: 'MAKE_MOVE', payload: { type: 'play', args: [0], playerID: p, credentials: m.creds[Number(p)] } };
	s.emit('update', action, stateID, m.matchID, p);
	await w;
	return next;
}

function pct(a, q) {
	if (!a.length) return 0;
	a.sort((x, y) => x - y);
	return Math.round(a[Math.min(a.length - 1, Math.floor(a.length * q))]);
}

async function pool(n, f) {
	let next = 0;
	const run = async () => { while (next < n) await f(next++); };
	await Promise.all(Array.from({ length: Math.min(CONN, n) }, run));
}

async function main() {
	const matches = [];
	let errors = 0;
	await pool(MATCHES + CONN, async () => { matches.push(await newMatch()); });
	const readMatches = matches.splice(0, CONN);
	const pairs = [];
	for (let c = 0; c < CONN; c++) {
		const pair = [client(), client()];
		await Promise.all(pair.map(connected));
		pairs.push(pair);
	}
	// The read matches: each played to its middle by its pair.
	await Promise.all(pairs.map(async (pair, c) => {
		const m = readMatches[c];
		let sid = await sync(pair[0], m, '0');
		await sync(pair[1], m, '1');
		for (let k = 0; k < MOVES / 2; k++) sid = await move(pair[k % 2], m, String(k % 2), sid);
	}));

	// Moves.
	const lat = [];
	let moves = 0, exhausted = 0, next = 0;
	let t0 = process.hrtime.bigint();
	const end = Date.now() + DUR;
	await Promise.all(pairs.map(async (pair) => {
		while (Date.now() < end) {
			if (next >= matches.length) { exhausted = 1; return; }
			const m = matches[next++];
			try {
				let sid = await sync(pair[0], m, '0');
				await sync(pair[1], m, '1');
				for (let k = 0; k < MOVES && Date.now() < end; k++) {
					const a = process.hrtime.bigint();
					sid = await move(pair[k % 2], m, String(k % 2), sid);
					lat.push(Number(process.hrtime.bigint() - a) / 1000);
					moves++;
				}
			} catch (e) {
				errors++;
			}
		}
	}));
	const moveSecs = Number(process.hrtime.bigint() - t0) / 1e9;

	// Reads.
	const rlat = [];
	let reads = 0;
	t0 = process.hrtime.bigint();
	const rend = Date.now() + DUR;
	await Promise.all(pairs.map(async (pair, c) => {
		const m = readMatches[c];
		while (Date.now() < rend) {
			const a = process.hrtime.bigint();
			try {
				await sync(pair[0], m, '0');
			} catch (e) {
				errors++;
				return;
			}
			rlat.push(Number(process.hrtime.bigint() - a) / 1000);
			reads++;
		}
	}));
	const readSecs = Number(process.hrtime.bigint() - t0) / 1e9;
	for (const pair of pairs) for (const s of pair) s.close();
	console.log(`PEER moves=${moves} moves_per_s=${(moves / moveSecs).toFixed(1)} ` +
		`move_p50_us=${pct(lat, 0.5)} move_p99_us=${pct(lat, 0.99)} ` +
		`reads=${reads} reads_per_s=${(reads / readSecs).toFixed(1)} ` +
		`read_p50_us=${pct(rlat, 0.5)} read_p99_us=${pct(rlat, 0.99)} ` +
		`errors=${errors} exhausted=${exhausted} matches_used=${next}`);
	process.exit(0);
}

main().catch((e) => {
	console.error('driver:', e && e.message ? e.message : e);
	process.exit(1);
});
