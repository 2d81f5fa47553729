// live.js — the live channels in the browser (issue 32; docs/api.md "Live
// channels"): required by test.js, which hands over its helpers.
//
// Three players at a Drehwurm table and a visitor without JavaScript. After
// each public step the other players' pages show it in place: no page load
// (a marker set on `window` survives), half-typed text in "Zug eintippen"
// with the focus in it, an opened <details> and the scroll position stay;
// a click on "Senden" made while such an update is under way is sent and
// answered (not aborted). Once with the channel (EventSource, no poll at
// all), once as behind an nginx without Nchan (the channel answers 404: the
// pages poll and update in place just the same). The visitor's page, without
// script, follows by its meta refresh.
'use strict';

const { test, until, check, gotoSettled, DESKTOP, LIVE } = require('./lib');

module.exports = function (h) {
	const { state, clickMove, register, createTable, join, CLICK_WAIT } = h;
	const WAIT = 15000;

	// What the test reads of a page besides state(): the marker, focus,
	// typed text, the open <details>, the scroll position, the document.
	function look(p) {
		return p.page.evaluate(() => ({
			marker: window.__liveMarker || 0,
			doc: performance.timeOrigin,
			focus: document.activeElement ? document.activeElement.id : '',
			typed: (document.getElementById('move-text') || {}).value,
			open: !!(document.querySelector('details.dw-rules') || {}).open,
			y: window.scrollY,
			live: document.body.dataset.live || '',
		}));
	}

	// Prepares an observer: marker, the rules' <details> opened, scrolled
	// down a little; where the viewer may act, half a move typed into "Zug
	// eintippen" with the focus in it (the field is there only then).
	async function prepare(p, text) {
		await p.page.evaluate(() => { window.__liveMarker = 42; });
		const rules = p.page.locator('details.dw-rules > summary');
		if (await rules.count() && !(await look(p)).open) await rules.first().click();
		await p.page.evaluate(() => window.scrollTo(0, 200));
		if (await p.page.locator('#move-text').count()) {
			await p.page.locator('#move-text').fill(text);
			await p.page.locator('#move-text').focus();
		}
	}

	// What must have survived an update in place.
	function survived(p, b, a, text) {
		check(a.marker === 42 && a.doc === b.doc, `${p.label}'s page was loaded anew, not updated in place`);
		check(a.open, `${p.label}'s opened rules were closed`);
		check(Math.abs(a.y - b.y) < 2, `${p.label}'s page scrolled from ${b.y} to ${a.y}`);
		if (b.typed === text && a.typed !== undefined) {
			check(a.typed === text, `${p.label}'s half-typed "${text}" is now "${a.typed}"`);
			check(a.focus === 'move-text', `${p.label}'s focus left the field (on "${a.focus}")`);
		}
	}

	// p writes `msg` in the chat (a public change of the table).
	async function chat(p, msg) {
		const before = p.loads;
		await p.page.locator('form.chat-form input[name="text"]').fill(msg);
		await p.page.locator('form.chat-form button[type="submit"]').click();
		await until(`${p.label}'s page after the message`, CLICK_WAIT, async () => p.loads > before);
		await p.page.waitForLoadState('load');
	}

	// The seat on turn outside a window (-1: a window is open).
	async function regularTurn(all) {
		for (let i = 0; i < all.length; i++) {
			const s = await state(all[i]);
			if (s.moves.includes('pass')) return -1;
		}
		for (let i = 0; i < all.length; i++)
			if ((await state(all[i])).moves.some(m => /^(play|chicken|draw turn) /.test(m))) return i;
		return -1;
	}

	// The step to make now: [index of the player, move]; a seat in a snap
	// window passes, else the seat on turn plays (a card if it can).
	async function nextStep(all) {
		const ss = [];
		for (const p of all) ss.push(await state(p));
		const w = ss.findIndex(s => s.moves.includes('pass'));
		if (w >= 0) return [w, 'pass', ss];
		const i = ss.findIndex(s => s.moves.some(m => /^(play|chicken|draw turn) /.test(m)));
		check(i >= 0, 'nobody can move');
		return [i, ss[i].moves.find(m => m.startsWith('play ')) ||
			ss[i].moves.find(m => m.startsWith('draw turn ')) || ss[i].moves[0], ss];
	}

	async function scenario(t, names, live) {
		const all = [];
		for (const n of names) all.push(await t.player(n, DESKTOP, { live }));
		for (const p of all) await register(p, p.label);
		// Each page's update fetches under way, by the test's own count: the
		// route below sees only the fetches begun after it. A new document
		// starts with none (its old one's ended with it).
		for (const p of all) {
			p.fetches = new Set();
			const end = r => p.fetches.delete(r);
			p.page.on('request', r => { if (r.resourceType() === 'fetch') p.fetches.add(r); });
			p.page.on('requestfinished', end);
			p.page.on('requestfailed', end);
			p.page.on('framenavigated', f => { if (f === p.page.mainFrame()) p.fetches.clear(); });
		}
		const url = await createTable(all[0], 'drehwurm', 3, { snap_seconds: 120 });
		for (const p of all.slice(1)) await join(p, url);
		for (const p of all) await gotoSettled(p, url);
		// a visitor without script: the meta refresh
		const nojs = await t.player(`${names[0]}-nojs`, DESKTOP, { javaScriptEnabled: false });
		await gotoSettled(nojs, url);
		for (const p of all) {
			const l = await look(p);
			check(!!l.live === LIVE, `${p.label}'s page names no live channel`);
		}
		const polls = all.map(p => p.polls), polled = Date.now();
		const text = 'draw turn 1';
		let steps = 0, times = [];
		for (let k = 0; k < 12 && steps < 3; k++) {
			const [i, mv, ss] = await nextStep(all);
			const v = Math.max(...ss.map(s => s.version));
			const others = all.filter((_, j) => j !== i);
			for (const p of others) await prepare(p, text);
			const before = [];
			for (const p of others) before.push(await look(p));
			await clickMove(all[i], mv);
			const nv = (await state(all[i])).version;
			if (nv === v) continue;   // a pass seen by nobody
			const t0 = Date.now();
			for (const p of others)
				await until(`${p.label}'s page at version ${nv}`, WAIT, async () => (await state(p)).version >= nv, 20);
			times.push(Date.now() - t0);
			for (let j = 0; j < others.length; j++)
				survived(others[j], before[j], await look(others[j]), text);
			steps++;
		}
		check(steps >= 3, `only ${steps} public steps`);
		// With the channel a page asks the poll only once a minute (poll.js
		// CHECK_MS): none but those, however slowly a busy machine played.
		if (live) {
			const minutes = Math.floor((Date.now() - polled) / 60000);
			all.forEach((p, j) => check(p.polls - polls[j] <= minutes,
				`${p.label}'s page polled ${p.polls - polls[j]} times in ${minutes} minute(s)`));
		}
		t.note(`${live ? 'live channel' : 'poll (no channel)'}: ${steps} steps shown in place in ` +
			`${times.map(x => x + ' ms').join(', ')}`);

		// The seat on turn types half a move; another writes in the chat:
		// the message shows in place, the text and the focus stay.
		let on = -1;
		for (let k = 0; k < 12 && (on = await regularTurn(all)) < 0; k++) {
			const [i, mv] = await nextStep(all);
			await clickMove(all[i], mv);
			for (const p of all) await until('the pages to settle', WAIT, async () =>
				(await state(p)).version >= (await state(all[i])).version, 20);
		}
		check(on >= 0, 'no regular turn');
		const y = all[on], x = all[(on + 1) % 3];
		await prepare(y, text);
		const b = await look(y);
		check(b.typed === text, `${y.label} on turn has no "Zug eintippen"`);
		await chat(x, 'Gleich geht es weiter');
		await until(`${y.label}'s page showing the message`, WAIT, async () =>
			(await y.page.locator('.chat').innerText()).includes('Gleich geht es weiter'), 20);
		survived(y, b, await look(y), text);

		// A click made while an update is under way: the page's fetch is held
		// until the click's POST has its answer. Before the next message the
		// page must be at the table's version with no fetch of its own still
		// under way that began before the route: such a fetch (an update the
		// page had asked for meanwhile, answered slowly on a busy machine)
		// would bring the message without passing the route, and the page,
		// up to date, would fetch nothing more.
		let held = null, fetched = 0;
		const mine = u => u.pathname === new URL(url).pathname;
		await y.context.route(mine, async route => {
			if (route.request().resourceType() !== 'fetch') return route.continue();
			fetched++;
			await new Promise(r => { held = r; });
			await route.continue().catch(() => {});
		});
		await until(`${y.label}'s earlier updates to end`, WAIT, async () => fetched > 0 ||
			(y.fetches.size === 0 && (await state(y)).version >= (await state(x)).version), 20);
		const posts = [];
		y.page.on('response', r => { if (r.request().method() === 'POST') posts.push(r.status()); });
		const failed = [];
		y.page.on('requestfailed', r => failed.push(`${r.method()} ${r.url()} ${(r.failure() || {}).errorText}`));
		await chat(x, 'Und noch eine');
		await until(`${y.label}'s update under way`, WAIT, async () => fetched > 0, 20);
		const doc = (await look(y)).doc;
		await y.page.locator('form.typed button[type="submit"]').click();
		await until(`${y.label}'s typed move answered`, WAIT, async () => posts.length > 0 &&
			(await look(y)).doc !== doc, 50);
		if (held) held();
		await y.page.waitForLoadState('load');
		check(posts[0] === 303, `${y.label}'s POST was answered ${posts[0]}`);
		check(!failed.some(f => f.startsWith('POST')), `${y.label}'s POST failed: ${failed.join(', ')}`);
		check(new URL(y.page.url()).pathname === new URL(url).pathname, `${y.label} is on ${y.page.url()}`);
		await y.context.unroute(mine);
		t.note(`${y.label}'s typed text and focus survived a chat message shown in place; ` +
			`"Senden" clicked during an update was answered 303 and shown`);

		// The visitor without script has followed by its refresh.
		const last = Math.max(...(await Promise.all(all.map(p => state(p)))).map(s => s.version));
		await until(`the visitor's page at version ${last}`, 20000, async () => (await state(nojs)).version >= last, 250);
		return all;
	}

	test('Live: moves shown in place by the channel; typed text, focus, details and a click survive', 150000, async t => {
		if (!LIVE) {
			t.note('skipped: the server has no live channel (nginx without Nchan)');
			return;
		}
		await scenario(t, ['livia', 'moritz', 'nelly'], true);
	});

	test('Live off: the same by the poll, in place, as behind an nginx without Nchan', 150000, async t => {
		await scenario(t, ['olaf', 'petra', 'quint'], false);
	});
};
