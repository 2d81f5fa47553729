// test.js — the browser tests; run by run.sh (make browser).
//
// Every player is a separate browser context (own cookies), clicking the
// real buttons of the real pages. Nothing here reloads a page of a player
// who did not act: those pages must notice other players' moves by polling.
'use strict';

const { test, main, until, sleep, check, visibleText, BASE, DESKTOP, PHONE } = require('./lib');

const PASSWORD = 'geheim-123';
const POLL_WAIT = 15000;   // a page must catch up with a move within this

// ---- reading a page ----------------------------------------------------------

// What the test needs to know about a page, read in one go; a page that its
// poll is reloading right now is read again once the new document is there.
async function state(p) {
	return until(`${p.label}'s page to settle`, 5000, async () => {
		await p.page.waitForLoadState('load');
		return p.page.evaluate(() => {
			const b = document.body;
			const moves = [...document.querySelectorAll('button[name="move"]')]
				.map(x => x.value).filter(Boolean);
			return {
				path: location.pathname,
				version: b && b.dataset.version !== undefined ? Number(b.dataset.version) : NaN,
				myTurn: !!(b && b.dataset.alert),
				title: document.title,
				moves,
			};
		});
	}, 50);
}

// Clicks a move button (by its move text) and waits for the page that the
// post/redirect/get brings back.
async function clickMove(p, move) {
	const before = p.loads;
	const btn = p.page.locator(`button[name="move"][value="${move}"]`).first();
	await btn.click();
	await until(`${p.label}'s page after "${move}"`, 10000, async () => {
		if (p.loads <= before) return false;
		await p.page.waitForLoadState('load');
		return true;
	});
	const note = await p.page.locator('.note.rejected, .note.stale, .note.refused').first()
		.innerText({ timeout: 200 }).catch(() => '');
	check(!note, `${p.label}: "${move}" was not accepted: ${note}`);
}

// Waits until every page in ps shows version >= v, each by its own reload.
async function allAt(ps, v, why) {
	await until(`every page to show version ${v} (${why})`, POLL_WAIT, async () => {
		for (const p of ps) {
			const s = await state(p);
			if (!(s.version >= v)) return false;
		}
		return true;
	});
}

// ---- accounts and tables -----------------------------------------------------

async function register(p, name) {
	await p.page.goto(`${BASE}/register`);
	const f = p.page.locator('form[action="/register"]');
	await f.locator('input[name="name"]').fill(name);
	await f.locator('input[name="password"]').fill(PASSWORD);
	await f.locator('input[name="password2"]').fill(PASSWORD);
	await Promise.all([
		p.page.waitForURL(u => !u.pathname.startsWith('/register')),
		f.locator('button[type="submit"]').click(),
	]);
	const who = await p.page.locator('header .who').innerText();
	check(who.trim() === name, `after registering, the header names "${who}", not ${name}`);
	p.name = name;
}

// Opens a table from the lobby form of game `slug`; returns its address.
async function createTable(p, slug, seats, options = {}) {
	await p.page.goto(`${BASE}/`);
	const f = p.page.locator(`form[action="/tables"]:has(input[name="game"][value="${slug}"])`);
	await f.locator('select[name="seats"]').selectOption(String(seats));
	for (const [k, v] of Object.entries(options)) {
		const input = f.locator(`[name="${k}"]`);
		if (typeof v === 'boolean') await input.setChecked(v);
		else await input.fill(String(v));
	}
	await Promise.all([
		p.page.waitForURL(/\/t\/\d+$/),
		f.locator('button[type="submit"]').click(),
	]);
	return p.page.url();
}

// Follows an invite link and takes a seat with the page's join button.
async function join(p, url) {
	await p.page.goto(url);
	const before = p.loads;
	await p.page.locator('form[action$="/join"] button').click();
	await until(`${p.label}'s page after joining`, 10000, async () => p.loads > before);
	await p.page.waitForURL(/\/t\/\d+$/);
	const text = await visibleText(p.page);
	check(!/nicht gefunden|Fehler/i.test(await p.page.title()), `${p.label} could not join: ${text.slice(0, 300)}`);
}

// ---- nginx serves the static files ---------------------------------------------

test('static files through nginx', 20000, async t => {
	const p = await t.player('visitor');
	const r = await p.page.goto(`${BASE}/static/site.css`);
	check(r && r.status() === 200, `GET /static/site.css: status ${r && r.status()}`);
	check(/text\/css/.test(r.headers()['content-type'] || ''),
		`GET /static/site.css: content-type ${r.headers()['content-type']}`);
	const home = await p.page.goto(`${BASE}/`);
	check(home && home.status() === 200, `GET /: status ${home && home.status()}`);
});

// ---- Drehwurm: three players, moves by clicking, pages that follow ------------

test('Drehwurm: three players, invite link, moves, polling, turn marker, screenshots', 120000, async t => {
	const anna = await t.player('anna'), bernd = await t.player('bernd'), clara = await t.player('clara');
	const all = [anna, bernd, clara];
	for (const p of all) await register(p, p.label);

	// 60 s snap windows: the test closes every window by clicking, never by waiting.
	const url = await createTable(anna, 'drehwurm', 3, { snap_seconds: 60 });
	t.note(`table ${url}`);
	// The others come in by the invite link the page shows anna.
	const invite = await anna.page.locator('.invite a').first().evaluate(a => a.href);
	check(invite === url, `the invite link is ${invite}, the table is ${url}`);
	const s0 = await state(anna);
	await join(bernd, invite);
	await join(clara, invite);

	// The last join starts the party; anna's page, untouched since she opened
	// the table, must notice by itself.
	const annaLoads = anna.loads;
	const v1 = (await state(clara)).version;
	await allAt(all, v1, 'the party starts');
	check(anna.loads > annaLoads, "anna's page did not reload by itself when the table filled");
	check(v1 > s0.version, `the version did not grow when the party started (${s0.version} → ${v1})`);

	let regular = 0, snaps = 0, passes = 0, pollMs = [];
	for (let step = 0; step < 40; step++) {
		const ss = [];
		for (const p of all) ss.push(await state(p));
		const v = Math.max(...ss.map(s => s.version));

		// The tab title marks exactly the players who may act now.
		for (let i = 0; i < all.length; i++) {
			const marked = titleMarked(ss[i].title);
			check(marked === ss[i].myTurn,
				`${all[i].label}: title "${ss[i].title}" ${marked ? 'has' : 'lacks'} the turn marker, ` +
				`but data-my-turn is ${ss[i].myTurn ? 1 : 0}`);
		}

		const inWindow = ss.map(s => s.moves.includes('pass'));
		// Five regular moves, then a regular turn for the screenshots.
		if (regular >= 5 && !inWindow.some(Boolean)) break;
		if (inWindow.some(Boolean)) {
			// A snap window: the first player who can snaps once in the test,
			// everybody else passes. One click, then every page catches up
			// before the next player acts (a page is never clicked while its
			// poll reloads it).
			const w = inWindow.indexOf(true);
			const snap = ss[w].moves.find(m => m.startsWith('snap '));
			const mv = snap && snaps === 0 ? snap : 'pass';
			t.note(`${all[w].label}: ${mv}`);
			await clickMove(all[w], mv);
			if (mv === 'pass') passes++; else snaps++;
			const after = (await state(all[w])).version;
			check(after > v, `the version did not grow in the snap window (${v} → ${after})`);
			await allAt(all, after, `after ${all[w].label}'s "${mv}" in the snap window`);
			continue;
		}

		const i = ss.findIndex(s => s.moves.some(m => /^(play|chicken|draw turn) /.test(m)));
		check(i >= 0, `no page offers a move at version ${v}`);
		check(ss[i].myTurn, `${all[i].label} has move buttons but data-my-turn is not 1`);
		check(ss.filter(s => s.moves.length > 0).length === 1,
			`more than one page offers moves outside a snap window at version ${v}`);
		const mv = ss[i].moves.find(m => m.startsWith('play ')) ||
			ss[i].moves.find(m => m.startsWith('draw turn ')) || ss[i].moves[0];
		const others = all.filter((_, k) => k !== i);
		const loads = others.map(p => p.loads);
		t.note(`${all[i].label}: ${mv}`);
		await clickMove(all[i], mv);
		const nv = (await state(all[i])).version;
		check(nv > v, `the version did not grow after "${mv}" (${v} → ${nv})`);
		const t0 = Date.now();
		await allAt(others, nv, `after ${all[i].label}'s "${mv}"`);
		pollMs.push(Date.now() - t0);
		others.forEach((p, k) => check(p.loads > loads[k], `${p.label}'s page changed without a reload?`));
		regular++;
	}
	check(regular >= 5, `only ${regular} regular moves were played`);
	t.note(`${regular} moves, ${snaps} snaps, ${passes} passes; other pages caught up in ` +
		`${pollMs.map(x => (x / 1000).toFixed(1)).join(', ')} s`);

	// Screenshots: the page of the player on turn, desktop and phone.
	const ss = [];
	for (const p of all) ss.push(await state(p));
	const k = Math.max(0, ss.findIndex(s => s.myTurn));
	const who = all[k];
	await t.shot(who.page, 'drehwurm-desktop.png');
	await who.page.setViewportSize(PHONE);
	await who.page.waitForTimeout(200);
	await t.shot(who.page, 'drehwurm-phone.png');
	await t.shot(who.page, 'drehwurm-phone-top.png', false);
	const wide = await who.page.evaluate(() => document.documentElement.scrollWidth);
	check(wide <= PHONE.width, `at phone width the page is ${wide} px wide: it scrolls sideways`);
	await who.page.setViewportSize(DESKTOP);
	t.note(`screenshots of ${who.label}'s page: tests/out/drehwurm-{desktop,phone,phone-top}.png`);

	// No script error, CSP violation or missing style sheet on any page.
	for (const p of all)
		check(p.errors.length === 0, `${p.label}: page errors: ${[...new Set(p.errors)].join(' | ')}`);
});

// The tab title's "your turn" marker, as the pages set it.
function titleMarked(title) {
	return /^(Du bist dran!|Du kannst eingreifen!) · /.test(title);
}

// ---- DNA: a secret choice by clicking --------------------------------------------

test('DNA: a secret choice by clicking; the others see "has chosen", not what', 90000, async t => {
	const dora = await t.player('dora'), emil = await t.player('emil'), fritz = await t.player('fritz');
	const all = [dora, emil, fritz];
	for (const p of all) await register(p, p.label);
	const url = await createTable(dora, 'dna', 3);
	t.note(`table ${url}`);
	await join(emil, url);
	await join(fritz, url);
	const v1 = (await state(fritz)).version;
	await allAt(all, v1, 'the party starts');

	// dora chooses a card for an end if she can, else she draws.
	const sd = await state(dora);
	const choice = sd.moves.find(m => m.startsWith('attach ')) ||
		sd.moves.find(m => m.startsWith('set ')) || sd.moves.find(m => m === 'draw');
	check(choice, `dora has no choice to make: ${sd.moves.join(', ')}`);
	t.note(`dora chooses: ${choice}`);
	const loads = [emil.loads, fritz.loads];
	await clickMove(dora, choice);
	const v2 = (await state(dora)).version;
	const doraText = await visibleText(dora.page);
	check(/Du (legst|ziehst)|Set:/.test(doraText), 'dora\'s page does not show her own choice');

	await allAt([emil, fritz], v2, "after dora's choice");
	check(emil.loads > loads[0] && fritz.loads > loads[1], 'a page did not reload by itself');
	// The tab titles: dora has chosen, the others still must.
	for (const p of all) {
		const s = await state(p);
		const must = p !== dora;
		check(titleMarked(s.title) === must,
			`${p.label}'s title "${s.title}" ${must ? 'lacks' : 'has'} the turn marker after dora chose`);
	}
	const code = choice.split(' ')[1];
	// The card's German name, as dora's page shows her choice ("Du legst 1 lila · voll · Raute an e1").
	const m = /(?:Du legst|Set:)\s+(.+?)\s+an\b/.exec(doraText);
	const label = m ? m[1] : '';
	if (choice !== 'draw') check(label, `dora's page does not name her card: ${doraText.slice(0, 200)}`);
	for (const p of [emil, fritz]) {
		const text = await visibleText(p.page);
		// dora's line among the players says so.
		const line = await p.page.evaluate(() => [...document.querySelectorAll('.dna-seat')]
			.map(li => li.innerText.replace(/\s+/g, ' ').trim())
			.find(l => /^dora\b/.test(l)) || '');
		check(/hat gewählt/.test(line), `${p.label}'s page does not say that dora has chosen: "${line}"`);
		const html = await p.page.content();
		if (choice !== 'draw') {
			check(!html.includes(code), `${p.label}'s page shows dora's card ${code}`);
			check(!html.includes(label), `${p.label}'s page shows dora's card ${label}`);
		}
		check(!/Du legst|Set:/.test(text), `${p.label}'s page shows a choice it did not make`);
		const json = await p.page.evaluate(async u => (await fetch(u)).text(), `${url}.json`);
		if (choice !== 'draw')
			check(!json.includes(code), `${p.label}'s JSON shows dora's card ${code}`);
	}

	await t.shot(emil.page, 'dna-desktop.png');
	// The strands (all of them, with the deck line) as emil sees them.
	const strands = emil.page.locator('.dna-table').first();
	check(await strands.count(), "emil's page has no strands (.dna-table)");
	await t.shotOf(strands, 'dna-strands.png');

	// The others choose as well: then the turn is resolved for everyone.
	for (const p of [emil, fritz]) {
		const s = await state(p);
		const m = s.moves.find(x => x === 'draw') || s.moves[0];
		check(m, `${p.label} has no choice to make`);
		await clickMove(p, m);
		await allAt(all, (await state(p)).version, `after ${p.label}'s choice`);
	}
	const v3 = (await state(fritz)).version;
	await allAt(all, v3, 'the turn is resolved');
	const text = await visibleText(dora.page);
	check(/dora (legt|zieht|sagt|deckt)/.test(text),
		"after everyone chose, dora's page does not show her choice revealed in the log");
	await t.shot(dora.page, 'dna-resolved.png');
	await dora.page.setViewportSize(PHONE);
	await dora.page.waitForTimeout(200);
	await t.shot(dora.page, 'dna-phone.png');
	const wide = await dora.page.evaluate(() => document.documentElement.scrollWidth);
	check(wide <= PHONE.width, `at phone width the DNA page is ${wide} px wide: it scrolls sideways`);
});

main();
