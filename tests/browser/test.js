// test.js — the browser tests; run by run.sh (make browser).
//
// Every player is a separate browser context (own cookies), clicking the
// real buttons of the real pages. Nothing here reloads a page of a player
// who did not act: those pages must notice other players' moves by polling.
'use strict';

const { test, main, until, check, visibleText, gotoSettled, pageUpdate, pollRounds, resize,
	BASE, OUT, DESKTOP, PHONE } = require('./lib');

const PASSWORD = 'geheim-123';
const POLL_WAIT = 15000;   // a page must catch up with a move within this
// A click's page must come back within this: every click (playwright's click
// waits for the navigation it starts) and the wait for its page's load. It
// waits on the page's own load, so a generous bound costs nothing when the
// machine is quick; a busy one (load 16, the word list read cold by the
// first Wurf & Wort word) took longer than the 10 s a click had.
const CLICK_WAIT = 30000;
const PHONE360 = { width: 360, height: 780 };   // a narrow phone

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
				// one per document and update in place: tells a page's own update
				doc: `${performance.timeOrigin}/${window.__stUpdates || 0}`,
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
	if (!await btn.isVisible()) {
		// a move folded away (a DNA hand card's moves, the list of every
		// move): open what holds it, as a person would
		const holder = p.page.locator(`details:has(button[name="move"][value="${move}"]) > summary`).first();
		if (await holder.count()) await holder.click();
	}
	await btn.click({ timeout: CLICK_WAIT });
	await until(`${p.label}'s page after "${move}"`, CLICK_WAIT, async () => {
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
		f.locator('button[type="submit"]').click({ timeout: CLICK_WAIT }),
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
	// The options are folded away under the defaults (a <details> per game).
	if (Object.keys(options).length) await f.locator('details.table-options > summary').click();
	for (const [k, v] of Object.entries(options)) {
		const input = f.locator(`[name="${k}"]`);
		if (typeof v === 'boolean') await input.setChecked(v);
		else await input.fill(String(v));
	}
	await Promise.all([
		p.page.waitForURL(/\/t\/\d+$/),
		f.locator('button[type="submit"]').click({ timeout: CLICK_WAIT }),
	]);
	return p.page.url();
}

// Seats a bot of each level with the table page's bot buttons.
async function seatBots(p, levels) {
	for (const level of levels) {
		const before = p.loads;
		await p.page.locator(`form[action$="/bot"]:has(input[value="${level}"]) button`).click({ timeout: CLICK_WAIT });
		await until(`${p.label}'s page after seating a ${level} bot`, CLICK_WAIT, async () => p.loads > before);
	}
}

// Follows an invite link and takes a seat with the page's join button.
async function join(p, url) {
	await gotoSettled(p, url);
	const before = p.loads;
	await p.page.locator('form[action$="/join"] button').click({ timeout: CLICK_WAIT });
	await until(`${p.label}'s page after joining`, CLICK_WAIT, async () => p.loads > before);
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
	// Counted before the joins: her poll may reload her page while a join's
	// own page is still loading (a busy machine), and that reload counts.
	const annaLoads = anna.loads;
	await join(bernd, invite);
	await join(clara, invite);

	// The last join starts the party; anna's page, untouched since she opened
	// the table, must notice by itself.
	const v1 = (await state(clara)).version;
	await allAt(all, v1, 'the party starts');
	check(anna.loads > annaLoads, "anna's page did not reload by itself when the table filled");
	check(v1 > s0.version, `the version did not grow when the party started (${s0.version} → ${v1})`);

	let regular = 0, snaps = 0, passes = 0, quietPasses = 0, pollMs = [];
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
			const others = all.filter((_, k) => k !== w), loads = others.map(p => p.loads);
			await clickMove(all[w], mv);
			if (mv === 'pass') passes++; else snaps++;
			const after = (await state(all[w])).version;
			if (mv === 'pass' && after === v) {
				// A pass that leaves the window open is seen by nobody: no
				// other page reloads (its timing would tell who passed):
				// each of theirs asks twice more and stays.
				await pollRounds(others, 2);
				others.forEach((p, k) => check(p.loads === loads[k],
					`${p.label}'s page reloaded after ${all[w].label}'s pass`));
				quietPasses++;
				continue;
			}
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
	t.note(`${regular} moves, ${snaps} snaps, ${passes} passes (${quietPasses} seen by nobody); other pages caught up in ` +
		`${pollMs.map(x => (x / 1000).toFixed(1)).join(', ')} s`);

	// Screenshots: the page of the player on turn, desktop and phone.
	const ss = [];
	for (const p of all) ss.push(await state(p));
	const k = Math.max(0, ss.findIndex(s => s.myTurn));
	const who = all[k];
	await t.shot(who.page, 'drehwurm-desktop.png');
	await resize(who.page, PHONE);
	await t.shot(who.page, 'drehwurm-phone.png');
	await t.shot(who.page, 'drehwurm-phone-top.png', false);
	const wide = await who.page.evaluate(() => document.documentElement.scrollWidth);
	check(wide <= PHONE.width, `at phone width the page is ${wide} px wide: it scrolls sideways`);
	await who.page.setViewportSize(DESKTOP);
	// The board as a person with deuteranopia sees it (Chromium's emulation):
	// the colours must stay apart by their symbols.
	const cdp = await who.page.context().newCDPSession(who.page);
	await cdp.send('Emulation.setEmulatedVisionDeficiency', { type: 'deuteranopia' });
	await t.shot(who.page, 'drehwurm-deuteranopia.png', false);
	await cdp.send('Emulation.setEmulatedVisionDeficiency', { type: 'none' });
	const syms = await who.page.evaluate(() => [...document.querySelectorAll('.dw-card .dw-sym')]
		.map(e => getComputedStyle(e, '::before').content).filter(c => c && c !== 'none'));
	check(syms.length > 0, 'the cards carry no colour symbol');
	t.note(`screenshots of ${who.label}'s page: tests/out/drehwurm-{desktop,phone,phone-top,deuteranopia}.png`);

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
	if (choice !== 'draw') {
		// pick the card first: its moves open under it
		const card = dora.page.locator(`.dna-pick:has(button[value="${choice}"]) > summary`).first();
		await card.click();
		await t.shot(dora.page, 'dna-pick-desktop.png');
	}
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
		check(!/Deine Wahl/.test(text), `${p.label}'s page shows a choice it did not make`);
		const json = await p.page.evaluate(async u => (await fetch(u)).text(), `${url}.json`);
		if (choice !== 'draw')
			check(!json.includes(code), `${p.label}'s JSON shows dora's card ${code}`);
	}

	await t.shot(emil.page, 'dna-desktop.png');
	// The strands (all of them, with the deck line) as emil sees them.
	const strands = emil.page.locator('.dna-table').first();
	check(await strands.count(), "emil's page has no strands (.dna-table)");
	await t.shotOf(strands, 'dna-strands.png');

	// dora changes her mind: a draw instead (allowed until the last has chosen).
	if (choice !== 'draw') {
		check(/wähle einfach neu/.test(await visibleText(dora.page)), "dora's page does not offer a change");
		await clickMove(dora, 'draw');
		check(/Du ziehst eine Karte/.test(await visibleText(dora.page)), "dora's page does not show her new choice");
		await t.shot(dora.page, 'dna-change-desktop.png');
	}
	// emil chooses from a phone without JavaScript: a card, then its move.
	const twin = await t.player('emil-nojs', PHONE, { javaScriptEnabled: false });
	await twin.context.addCookies(await emil.context.cookies());
	await gotoSettled(twin, url);
	const pick = twin.page.locator('.dna-pick > summary').first();
	let em = 'draw';
	if (await pick.count()) {
		await pick.click();
		await t.shot(twin.page, 'dna-pick-nojs-phone.png');
		em = await twin.page.locator('.dna-pick[open] button[name="move"]').first().getAttribute('value');
	}
	t.note(`emil (no JavaScript) chooses: ${em}`);
	await clickMove(twin, em);
	await allAt(all, (await state(twin)).version, "after emil's choice");
	// fritz chooses as well, a card for an end if he can: then the turn is
	// resolved for everyone, and the board marks the card laid.
	let laid = false;
	for (const p of [fritz]) {
		const s = await state(p);
		const m = s.moves.find(x => x.startsWith('attach ')) || s.moves.find(x => x === 'draw') ||
			s.moves[0];
		laid = m.startsWith('attach ');
		check(m, `${p.label} has no choice to make`);
		await clickMove(p, m);
		await allAt(all, (await state(p)).version, `after ${p.label}'s choice`);
	}
	const v3 = (await state(fritz)).version;
	await allAt(all, v3, 'the turn is resolved');
	const text = await visibleText(dora.page);
	check(/dora (legt|zieht|sagt|deckt)/.test(text),
		"after everyone chose, dora's page does not show her choice revealed in the log");
	if (laid) {
		const marked = await dora.page.locator('.dna-placed.last').count();
		const cards = await dora.page.locator('.dna-placed').count();
		check(marked >= 1, "after fritz laid a card, dora's board marks no card as the last move (.dna-placed.last)");
		check(marked <= 2 && marked < cards, `dora's board marks ${marked} of ${cards} cards as laid last`);
		check(/zuletzt angelegt/.test(text), "dora's page does not say which strand was laid at last");
	}
	await t.shot(dora.page, 'dna-resolved.png');
	await resize(dora.page, PHONE);
	await t.shot(dora.page, 'dna-phone.png');
	const wide = await dora.page.evaluate(() => document.documentElement.scrollWidth);
	check(wide <= PHONE.width, `at phone width the DNA page is ${wide} px wide: it scrolls sideways`);
});

// ---- DNA: joined strands drawn without crossing lines -------------------------------

// The strands' lines as the page draws them, whether two cross (inside
// both), and every card's links: lines ending at it plus its letters.
async function strandDrawing(page) {
	return page.evaluate(() => [...document.querySelectorAll('.dna-chain')].map(svg => {
		const lines = [...svg.querySelectorAll('line.dna-link')].map(l =>
			['x1', 'y1', 'x2', 'y2'].map(a => Number(l.getAttribute(a))));
		const side = (a, b, c) => Math.sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
		let cross = 0;
		for (let i = 0; i < lines.length; i++)
			for (let j = i + 1; j < lines.length; j++) {
				const [a, b] = [lines[i].slice(0, 2), lines[i].slice(2)];
				const [c, d] = [lines[j].slice(0, 2), lines[j].slice(2)];
				if (side(a, b, c) * side(a, b, d) < 0 && side(c, d, a) * side(c, d, b) < 0) cross++;
			}
		return { lines: lines.length, cross, letters: svg.querySelectorAll('.dna-join').length };
	}));
}

test('DNA: joined strands are drawn without crossing lines, at 1280 and 390 px', 150000, async t => {
	const ilka = await t.player('ilka'), jost = await t.player('jost');
	const all = [ilka, jost];
	for (const p of all) await register(p, p.label);
	// Both choose the card laid at the most ends they can (a join), else
	// any card, else they draw, until a strand holds three cards laid at
	// several ends each (or a link the drawing must show as a letter); a
	// party that ends before a card joined two ends: a new table (at most 4).
	const ends = m => (m.match(/ e\d+/g) || []).length;
	let steps = 0, joined = 0, url = '';
	for (let tables = 0; tables < 4 && joined === 0; tables++) {
		url = await createTable(ilka, 'dna', 2);
		await join(jost, url);
		for (steps = 0; steps < 600; steps++) {
			const js = [];
			for (const p of all) js.push(await tableJson(p, url));
			joined = Math.max(0, ...js[0].game.strands.map(s => s.cards.filter(c => (c.after || []).length >= 2).length));
			if (js[0].is_finished || joined >= 3 || js[0].game.strands.some(s => s.has_marks)) break;
			const k = js.findIndex(j => j.can_act && j.moves.length);
			if (k < 0) { await sleep(100); continue; }
			const mv = js[k].moves.map(m => m.move);
			const attach = mv.filter(m => m.startsWith('attach ')).sort((a, b) => ends(b) - ends(a));
			const pick = mv.find(m => m === 'weiter') || attach[0] || mv.find(m => /^(set|open|refill|discard|clear) /.test(m)) ||
				mv.find(m => m === 'draw') || mv[0];
			const r = await all[k].context.request.post(`${url}/move`, {
				form: { csrf: js[k].csrf, v: String(js[k].v), move: pick },
				headers: { Accept: 'application/json' }, maxRedirects: 0,
			});
			check(r.status() < 500, `"${pick}" by ${all[k].label}: status ${r.status()}`);
		}
	}
	check(joined >= 1, `no card joined two ends in four parties`);
	t.note(`table ${url}: a strand with ${joined} cards laid at several ends after ${steps} moves`);
	for (const [size, name] of [[DESKTOP, 'desktop'], [PHONE, 'phone']]) {
		await ilka.page.setViewportSize(size);
		await gotoSettled(ilka, url);
		const d = await strandDrawing(ilka.page);
		check(d.length > 0, `ilka's page (${name}) draws no strand`);
		for (const s of d) check(s.cross === 0, `a strand on ilka's page (${name}) has ${s.cross} crossing lines`);
		t.note(`${name}: strands ${JSON.stringify(d)}`);
		const captions = await ilka.page.locator('.dna-strand figcaption').allInnerTexts();
		check(captions.every(c => !/\b1 Karten\b/.test(c)), `a strand caption says "1 Karten": ${JSON.stringify(captions)}`);
		await t.shot(ilka.page, `dna-joined-${name}.png`);
		await t.shotOf(ilka.page.locator('.dna-table').first(), `dna-joined-strands-${name}.png`);
		if (name === 'phone') {
			const wide = await ilka.page.evaluate(() => document.documentElement.scrollWidth);
			check(wide <= PHONE.width, `at phone width the DNA page is ${wide} px wide: it scrolls sideways`);
		}
	}
});

// ---- Drachenrummy: a turn of steps, each a click ----------------------------------

// Ticks the first n dice of the keep form (all when n is 0) and sends it.
async function keepByForm(p, n) {
	const picks = p.page.locator('form.dr-keep label.dr-pick');
	const count = await picks.count();
	check(count > 0, `${p.label}'s keep form has no dice to tick`);
	const k = n ? Math.min(n, count) : count;
	for (let i = 0; i < k; i++) await picks.nth(i).click();
	const before = p.loads;
	await p.page.locator('form.dr-keep button[type="submit"]').click();
	await until(`${p.label}'s page after keeping ${k} dice`, 10000, async () => {
		if (p.loads <= before) return false;
		await p.page.waitForLoadState('load');
		return true;
	});
	const note = await p.page.locator('.note.rejected, .note.stale, .note.refused').first()
		.innerText({ timeout: 200 }).catch(() => '');
	check(!note, `${p.label}: the keep was not accepted: ${note}`);
}

test('Drachenrummy: roll, keep until all dice lie, reserve, done; the other page follows', 90000, async t => {
	const gina = await t.player('gina'), hugo = await t.player('hugo');
	const all = [gina, hugo];
	for (const p of all) await register(p, p.label);
	const url = await createTable(gina, 'drachenrummy', 2);
	t.note(`table ${url}`);
	await join(hugo, url);
	await allAt(all, (await state(hugo)).version, 'the party starts');
	const first = (await state(gina)).moves.includes('roll') ? gina : hugo;
	const other = first === gina ? hugo : gina;
	check((await state(other)).moves.length === 0, `${other.label} has moves while ${first.label} is on turn`);
	await clickMove(first, 'roll');
	// The keep: my dice next to the buttons, one checkbox a die, no keep buttons.
	const boardKeeps = await first.page.locator('.dr button[name="move"][value^="keep "]').count();
	check(boardKeeps === 0, `the board still has ${boardKeeps} keep buttons`);
	check(await first.page.locator('.dr-me .dr-dice').count() === 0, 'my dice are still in the player list');
	await t.shot(first.page, 'drachenrummy-keep-desktop.png');
	let keeps = 0;
	for (;;) {
		if (!await first.page.locator('form.dr-keep').count()) break;
		check(++keeps <= 5, 'more than five keeps for five dice');
		await keepByForm(first, keeps === 1 ? 1 : 0);   // one die first, then the rest
	}
	t.note(`${first.label} kept the dice in ${keeps} step(s)`);
	const dice = await first.page.locator('.dr-mine .dr-die.dr-kept').count();
	check(dice === 5, `after keeping, ${first.label}'s page shows ${dice} kept dice, not 5`);
	const s = await state(first);
	const reserve = s.moves.find(m => m.startsWith('reserve '));
	check(reserve, `${first.label} can reserve nothing: ${s.moves.join(', ')}`);
	t.note(`${first.label}: ${reserve}`);
	await clickMove(first, reserve);
	const v = (await state(first)).version;
	await allAt([other], v, 'after the reservation');
	const line = await other.page.evaluate(who => [...document.querySelectorAll('.dr-seat')]
		.map(li => li.innerText.replace(/\s+/g, ' ').trim())
		.find(l => l.startsWith(who)) || '', first.label);
	check(/reserviert mit/.test(line), `${other.label}'s page does not show the reservation: "${line}"`);
	check(/reserviert/.test(await visibleText(other.page)), `${other.label}'s log is silent`);
	// the board marks the reservation just made, and only it
	const marks = await other.page.locator('.dr-reserved.last .last-mark').allInnerTexts();
	check(marks.length === 1 && /zuletzt reserviert/.test(marks[0]) &&
		await other.page.locator('.last-mark').count() === 1,
		`${other.label}'s board does not mark the reservation as the last move: ${JSON.stringify(marks)}`);
	await t.shot(first.page, 'drachenrummy-desktop.png');
	await clickMove(first, 'done');
	const v2 = (await state(first)).version;
	await allAt([other], v2, 'after done');
	check((await state(other)).moves.includes('roll'), `${other.label} is not on turn after done`);
	// the card the refill turned up where the reserved one lay is new, on
	// both pages, beside the reservation (the newest move)
	for (const p of all) {
		const fresh = await p.page.locator('.dr-middle .dr-slot.last .last-mark').allInnerTexts();
		check(fresh.length === 1 && /neu aufgedeckt/.test(fresh[0]),
			`${p.label}'s middle does not mark the one refilled card as new: ${JSON.stringify(fresh)}`);
		check(await p.page.locator('.dr-reserved.last').count() === 1,
			`${p.label}'s board lost the reservation's mark after the refill`);
	}
	await t.shot(other.page, 'drachenrummy-other.png');
	await t.shotOf(other.page.locator('.dr-middle'), 'drachenrummy-refilled-desktop.png');
	// The other one keeps from a phone without JavaScript: the same form.
	const twin = await t.player(`${other.label}-nojs`, PHONE, { javaScriptEnabled: false });
	await twin.context.addCookies(await other.context.cookies());
	await gotoSettled(twin, url);
	await clickMove(twin, 'roll');
	await t.shot(twin.page, 'drachenrummy-keep-nojs-phone.png');
	const wideNoJs = await twin.page.evaluate(() => document.documentElement.scrollWidth);
	check(wideNoJs <= PHONE.width, `without JavaScript at phone width the page is ${wideNoJs} px wide`);
	let keeps2 = 0;
	while (await twin.page.locator('form.dr-keep').count()) {
		check(++keeps2 <= 5, 'more than five keeps for five dice (no JavaScript)');
		await keepByForm(twin, 2);
	}
	const kept2 = await twin.page.locator('.dr-mine .dr-die.dr-kept').count();
	check(kept2 === 5, `without JavaScript, after keeping the page shows ${kept2} kept dice, not 5`);
	t.note(`${twin.label} kept the dice in ${keeps2} step(s) without JavaScript`);
	await resize(first.page, PHONE);
	await t.shot(first.page, 'drachenrummy-phone.png');
	const wide = await first.page.evaluate(() => document.documentElement.scrollWidth);
	check(wide <= PHONE.width, `at phone width the Drachenrummy page is ${wide} px wide`);
});

// ---- Wurf & Wort: Stopp, a word typed, the votes ---------------------------------

test('Wurf & Wort: Stopp, a word, the votes clicked; the pages follow', 120000, async t => {
	const ida = await t.player('ida'), jan = await t.player('jan'), kim = await t.player('kim');
	const all = [ida, jan, kim];
	for (const p of all) await register(p, p.label);
	const url = await createTable(ida, 'wurfwort', 3);
	t.note(`table ${url}`);
	await join(jan, url);
	await join(kim, url);
	await allAt(all, (await state(kim)).version, 'the party starts');
	// A word the dice allow: the required letters and an e, unless the card
	// forbids one of them; then everyone passes and the next card comes.
	let word = '';
	for (let round = 0; round < 6 && !word; round++) {
		const dice = await ida.page.evaluate(() => ({
			must: [...document.querySelectorAll('.ww-die.ww-must')].map(d => d.firstChild.textContent.trim().toLowerCase()),
			not: [...document.querySelectorAll('.ww-die.ww-not')].map(d => d.firstChild.textContent.trim().toLowerCase()),
		}));
		if (!dice.must.some(l => dice.not.includes(l))) {
			word = dice.must.join('') + 'elo'.split('').filter(l => !dice.not.includes(l)).join('');
			break;
		}
		for (const p of all) {
			await clickMove(p, 'pass');
			await allAt(all, (await state(p)).version, `after ${p.label} passed`);
		}
	}
	check(word, 'six cards in a row forbid a letter they require');
	const s = await state(ida);
	check(s.moves.includes('stopp'), `ida has no Stopp button: ${s.moves.join(', ')}`);
	await t.shot(ida.page, 'wurfwort-race.png');
	const meaning = await ida.page.locator('.ww-meaning').innerText();
	check(/muss ein \S+ enthalten/.test(meaning), `the dice are not written out: "${meaning}"`);
	await clickMove(ida, 'stopp');
	await allAt(all, (await state(ida)).version, "after ida's Stopp");
	check(!(await state(jan)).moves.includes('stopp'), 'jan can still press Stopp');
	check(await jan.page.locator('form.ww-answer').count() === 0, 'jan has a word field');
	// The word field is right under the card, for the claimer.
	const field = ida.page.locator('.ww-card form.ww-answer input[name="arg0"]');
	check(await field.count() === 1, "ida's page has no word field under the card");
	await t.shot(ida.page, 'wurfwort-answer-desktop.png');
	// ida names it from a phone without JavaScript: the same form.
	const twin = await t.player('ida-nojs', PHONE, { javaScriptEnabled: false });
	await twin.context.addCookies(await ida.context.cookies());
	await gotoSettled(twin, url);
	await t.shot(twin.page, 'wurfwort-answer-nojs-phone.png', false);
	t.note(`ida types "${word}" (no JavaScript, phone)`);
	const before = twin.loads;
	await twin.page.locator('.ww-card form.ww-answer input[name="arg0"]').fill(word);
	await twin.page.locator('.ww-card form.ww-answer button[type="submit"]').click({ timeout: CLICK_WAIT });
	// the worker may read its dictionaries now: give it time
	await until("ida's page after her word", 30000, async () => twin.loads > before);
	await twin.page.waitForLoadState('load');
	await allAt(all, (await state(twin)).version, "after ida's word");
	const text = await visibleText(jan.page);
	check(text.includes(word), `jan's page does not show ida's word "${word}"`);
	for (const p of [jan, kim]) {
		const m = (await state(p)).moves;
		check(m.includes('vote up') && m.includes('vote down'), `${p.label} cannot vote: ${m.join(', ')}`);
	}
	// A vote is secret until the vote closes ("gleichzeitig"): kim's page
	// does not reload and shows nothing of it; jan's own page shows it.
	const kimLoads = kim.loads, kimPolls = [];
	kim.page.on('response', r => { if (r.url().includes('/poll?')) kimPolls.push(r.status()); });
	await clickMove(jan, 'vote up');
	check(/dafür/.test(await visibleText(jan.page)), "jan's page does not show jan's own vote");
	await until("two of kim's polls after jan's vote", 15000, async () => kimPolls.length >= 2, 200);
	check(kim.loads === kimLoads && kimPolls.every(st => st === 204),
		`kim's page reloaded after jan's secret vote (polls ${kimPolls.join(',')})`);
	const seen = await visibleText(kim.page);
	check(!/dafür/.test(seen), "kim's page shows jan's vote before the vote closed");
	await t.shot(kim.page, 'wurfwort-vote.png');
	await clickMove(kim, 'vote up');
	await allAt(all, (await state(kim)).version, "after kim's vote");
	const rounds = await ida.page.locator('.ww-rounds tbody tr').last().innerText();   // earlier rows: passed cards
	check(rounds.includes(word), `the rounds table does not list the word: "${rounds}"`);
	await t.shot(ida.page, 'wurfwort-desktop.png');
	await resize(ida.page, PHONE);
	await t.shot(ida.page, 'wurfwort-phone.png');
	const wide = await ida.page.evaluate(() => document.documentElement.scrollWidth);
	check(wide <= PHONE.width, `at phone width the Wurf & Wort page is ${wide} px wide`);
});

// A word that misses the dice: the rounds table says why (issue 33).
test('Wurf & Wort: a refused word names why', 90000, async t => {
	const uwe = await t.player('uwe'), wilma = await t.player('wilma', PHONE, { javaScriptEnabled: false });
	const gesa = await t.player('gesa');
	const all = [uwe, wilma, gesa];
	for (const p of all) await register(p, p.label);
	const url = await createTable(uwe, 'wurfwort', 3);
	await join(gesa, url);
	await join(wilma, url);
	await allAt(all, (await state(wilma)).version, 'the party starts');
	await clickMove(wilma, 'stopp');
	// "qq": no required letter in it, so the machine refuses it at once
	const before = wilma.loads;
	await wilma.page.locator('.ww-card form.ww-answer input[name="arg0"]').fill('qq');
	await wilma.page.locator('.ww-card form.ww-answer button[type="submit"]').click();
	await until("wilma's page after her word", 30000, async () => wilma.loads > before);
	await wilma.page.waitForLoadState('load');
	await allAt(all, (await state(wilma)).version, "after wilma's word");
	const row = await uwe.page.locator('.ww-rounds tbody tr').first().innerText();
	check(/Würfel nicht erfüllt/.test(row) && /kein \S+ darin/.test(row), `the rounds table does not say why: "${row}"`);
	t.note(`uwe's rounds table: ${row.replace(/\s+/g, ' ')}`);
	await t.shotOf(uwe.page.locator('.ww-rounds'), 'wurfwort-why-desktop.png');
	await t.shotOf(wilma.page.locator('.ww-rounds'), 'wurfwort-why-nojs-phone.png');
});

// ---- Worst Game Ever: a card played in reaction -----------------------------------

test('Worst Game Ever: an attack, a card played against it by clicking; the pages follow', 150000, async t => {
	const lea = await t.player('lea'), max = await t.player('max');
	const nia = await t.player('nia', DESKTOP, { javaScriptEnabled: false });
	const all = [lea, max, nia], live = [lea, max];
	for (const p of all) await register(p, p.label);
	const url = await createTable(lea, 'worstgame', 3, { react_seconds: 600 });
	t.note(`table ${url}`);
	await join(max, url);
	await join(nia, url);
	const look = async () => {
		await gotoSettled(nia, url);   // no script: the test reloads nia's page
		const ss = [];
		for (const p of all) ss.push(await state(p));
		return ss;
	};
	const settle = async p => allAt(live, (await state(p)).version, `after ${p.label}'s click`);
	// Everyone passes the windows of ante and draw; the player on turn
	// attacks; then another player answers the attack with a card.
	let attacker = -1, reactor = -1, card = '';
	for (let step = 0; step < 60 && reactor < 0; step++) {
		const ss = await look();
		if (attacker < 0) {
			const a = ss.findIndex(s => s.moves.some(m => m.startsWith('attack ')));
			if (a >= 0) {
				attacker = a;
				// the attack buttons name target and demand ("Bert angreifen: 2 Chips")
				const atk = all[a].page.locator('.wg-attack-pick button[name="move"]');
				const words = await atk.allInnerTexts();
				check(words.length && words.every(w => /^\S+ angreifen: \d Chips?$/.test(w.trim())),
					`attack buttons: ${words.slice(0, 3).join(' | ')}`);
				await t.shot(all[a].page, 'worstgame-attack-desktop.png');
				const vp = all[a].page.viewportSize();
				await resize(all[a].page, PHONE);
				await t.shotOf(all[a].page.locator('.wg-attack-pick'), 'worstgame-attack-phone.png');
				await all[a].page.setViewportSize(vp);
				await clickMove(all[a], ss[a].moves.find(m => m.startsWith('attack ')));
				await settle(all[a]);
				continue;
			}
		} else {
			const r = ss.findIndex((s, i) => i !== attacker && s.moves.some(m => m.startsWith('play ')));
			if (r >= 0) {
				const mv = ss[r].moves.find(m => m.startsWith('play '));
				card = (await all[r].page.locator(`.wg-hand li:has(button[value="${mv}"]) .wg-name`)
					.first().innerText()).trim();
				t.note(`${all[r].label} answers ${all[attacker].label}'s attack: "${mv}" (${card})`);
				await t.shot(all[r].page, 'worstgame-window.png');
				await clickMove(all[r], mv);
				reactor = r;
				break;
			}
		}
		const w = ss.findIndex(s => s.moves.includes('pass') || s.moves.includes('done'));
		if (w < 0) { await pageUpdate(live); continue; }
		await clickMove(all[w], ss[w].moves.includes('pass') ? 'pass' : 'done');
		if (w !== 2) await settle(all[w]);
	}
	check(reactor >= 0, 'in 60 steps nobody could answer an attack with a card');
	// The card waits on the stack, on every page, until the window closes.
	const v = (await state(all[reactor])).version;
	await allAt(live, v, 'the card played');
	await gotoSettled(nia, url);
	for (const p of all) {
		const stack = await p.page.locator('.wg-stack').innerText().catch(() => '');
		check(stack.includes(card), `${p.label}'s page does not show ${card} on the stack: "${stack}"`);
		// the card just played is marked on the board as the last move
		const mark = await p.page.locator('.wg-pending .wg-top.last .last-mark').allInnerTexts();
		check(mark.length === 1 && /zuletzt gespielt/.test(mark[0]),
			`${p.label}'s board does not mark ${card} as played last: ${JSON.stringify(mark)}`);
	}
	const watcher = all[attacker === 2 ? (reactor === 0 ? 1 : 0) : attacker];
	await t.shot(watcher.page, 'worstgame-desktop.png');
	await t.shot(nia.page, 'worstgame-nojs.png');
	// A narrow phone (360 px): no sideways scrolling, with or without script;
	// the headline is the board's status line.
	for (const p of [watcher, nia]) {
		await resize(p.page, PHONE360);
		const wide = await p.page.evaluate(() => document.documentElement.scrollWidth);
		check(wide <= PHONE360.width, `at 360 px ${p.label}'s Worst Game Ever page is ${wide} px wide`);
		check(await p.page.locator('.wg-headline[role="status"]').count() === 1,
			`${p.label}'s board has no headline with role=status`);
	}
	await t.shot(watcher.page, 'worstgame-phone.png');
	await t.shot(watcher.page, 'worstgame-phone-top.png', false);
	await t.shot(nia.page, 'worstgame-nojs-phone.png');

	// The others pass (nia by a plain form without script); the window
	// closes, the card resolves, and every page's log says so.
	const resolved = `${card} von ${all[reactor].label} wirkt`;
	for (let step = 0; step < 12; step++) {
		const ss = await look();
		await allAt(live, Math.max(...ss.map(s => s.version)), 'the pages to catch up');
		const log = await all[reactor].page.locator('.wg-log').innerText().catch(() => '');
		if (log.includes(resolved)) break;
		const w = ss.findIndex((s, i) => i !== reactor && s.moves.includes('pass'));
		if (w < 0) { await pageUpdate(live); continue; }
		await clickMove(all[w], 'pass');
	}
	await gotoSettled(nia, url);
	for (const p of all) {
		const log = await p.page.locator('.wg-log').innerText().catch(() => '');
		check(log.includes(resolved), `${p.label}'s log does not say "${resolved}": "${log.slice(0, 300)}"`);
	}
	t.note(`every log: "${resolved}…"`);
	await t.shot(nia.page, 'worstgame-resolved-nojs-phone.png');

	// The standing choice of windows, without script: unfold it, switch off
	// the window after the ante, and the page says so.
	await nia.page.locator('.wg-listen summary').click({ timeout: CLICK_WAIT });
	const toggle = nia.page.locator('.wg-listen li').first();
	check(/gefragt/.test(await toggle.innerText()), `nia's first window is not on: "${await toggle.innerText()}"`);
	await clickMove(nia, await toggle.locator('button[name="move"]').getAttribute('value'));
	const after = await nia.page.locator('.wg-listen li').first().textContent();   // folded again
	check(/von selbst/.test(after), `after the toggle nia's first window reads "${after}"`);
	t.note(`nia (no script) toggled her first window: "${after.replace(/\s+/g, ' ')}"`);
	t.note('screenshots: tests/out/worstgame-{window,desktop,nojs,phone,phone-top,nojs-phone,resolved-nojs-phone}.png');
});

// ---- bots: one person and two bots ------------------------------------------------

test('Bots: one person seats two bots and plays; the bots answer at once', 90000, async t => {
	const ole = await t.player('ole');
	await register(ole, 'ole');
	const url = await createTable(ole, 'drehwurm', 3);
	await seatBots(ole, ['greedy', 'random']);
	const names = await ole.page.locator('.seats .seat-name').allInnerTexts();
	check(names.some(n => /Bot 2 \(gierig\)/.test(n)) && names.some(n => /Bot 3 \(zufällig\)/.test(n)),
		`the seats do not name the bots: ${names.join(' | ')}`);
	// ole plays until he has made three moves; the bots' turns pass at once
	let mine = 0;
	for (let step = 0; step < 40 && mine < 3; step++) {
		const s = await state(ole);
		const mv = s.moves.find(m => /^(play|chicken|draw turn) /.test(m)) || (s.moves.includes('pass') ? 'pass' : '');
		if (!mv) { await pageUpdate([ole]); continue; }   // the bots' moves, by its poll
		await clickMove(ole, mv);
		mine++;
	}
	check(mine === 3, `ole made ${mine} moves in 40 steps`);
	await t.shot(ole.page, 'bots-desktop.png');
	await resize(ole.page, PHONE);
	await t.shot(ole.page, 'bots-phone.png');
	const wide = await ole.page.evaluate(() => document.documentElement.scrollWidth);
	check(wide <= PHONE.width, `at phone width the table with bots is ${wide} px wide`);
	t.note('screenshots: tests/out/bots-{desktop,phone}.png');
});

// ---- languages ------------------------------------------------------------------

// Plays the person's next Drehwurm move (bots answer at once); false when none.
async function dwMove(p, url) {
	for (let step = 0; step < 20; step++) {
		const s = await state(p);
		const mv = s.moves.find(m => /^(play|chicken|draw turn) /.test(m)) || (s.moves.includes('pass') ? 'pass' : '');
		if (mv) { await clickMove(p, mv); return true; }
		await pageUpdate([p]);   // the bots' moves, by its poll
	}
	return false;
}

test('English: the switch in the middle of a game; board, buttons and log follow; and back', 90000, async t => {
	const edda = await t.player('edda');
	await register(edda, 'edda');
	const url = await createTable(edda, 'drehwurm', 3);
	await seatBots(edda, ['greedy', 'random']);
	check(await dwMove(edda, url), 'edda found no move in German');
	check(await edda.page.getAttribute('html', 'lang') === 'de', 'the page is not German at first');
	check((await visibleText(edda.page)).includes('Deine Hand'), 'no "Deine Hand" on the German board');
	// the footer's switch: a form for a user, back to the same table
	const before = edda.loads;
	await edda.page.locator('footer .langs button[value="en"]').click({ timeout: CLICK_WAIT });
	await until("edda's page after the switch", CLICK_WAIT, async () => edda.loads > before);
	await edda.page.waitForURL(url);
	check(await edda.page.getAttribute('html', 'lang') === 'en', 'after the switch the page is not English');
	let text = await visibleText(edda.page);
	check(text.includes('Your hand') && !text.includes('Deine Hand'), `the board is not English: ${text.slice(0, 300)}`);
	const log = (await edda.page.locator('.dw-log li').allInnerTexts()).join(' | ');
	check(log && !/ legt | zieht | dreht /.test(log), `the log is still German: ${log}`);
	// the game goes on in English: the move buttons send the same moves
	check(await dwMove(edda, url), 'edda found no move in English');
	text = await visibleText(edda.page);
	check(!/Deine Hand|Mitspieler|Zuletzt/.test(text), `German after a move in English: ${text.slice(0, 300)}`);
	await t.shot(edda.page, 'english-desktop.png');
	await resize(edda.page, PHONE);
	await t.shot(edda.page, 'english-phone.png');
	const wide = await edda.page.evaluate(() => document.documentElement.scrollWidth);
	check(wide <= PHONE.width, `at phone width the English table is ${wide} px wide`);
	// the choice is the account's: a new page stays English; then back to German
	await edda.page.goto(`${BASE}/me`);
	check(await edda.page.getAttribute('html', 'lang') === 'en', '/me is not English');
	await gotoSettled(edda, url);
	const b2 = edda.loads;
	await edda.page.locator('footer .langs button[value="de"]').click({ timeout: CLICK_WAIT });
	await until("edda's page after switching back", CLICK_WAIT, async () => edda.loads > b2);
	check(await edda.page.getAttribute('html', 'lang') === 'de', 'switching back did not give German');
	check((await visibleText(edda.page)).includes('Deine Hand'), 'no "Deine Hand" after switching back');
	t.note('screenshots: tests/out/english-{desktop,phone}.png');
});

// ---- over days: every seat's clock ------------------------------------------------

// The seats as the page shows them: name, classes, clock text, badges.
async function seatRows(p) {
	return p.page.evaluate(() => [...document.querySelectorAll('ol.seats > li.seat')].map(li => {
		const clock = li.querySelector('.clock');
		return {
			name: (li.querySelector('.seat-name') || {}).innerText || '',
			turn: li.classList.contains('turn'),
			acting: li.classList.contains('acting'),
			clock: clock ? clock.innerText.replace(/\s+/g, ' ').trim() : null,
			running: !!(clock && clock.classList.contains('running')),
			bot: [...li.querySelectorAll('.badge.bot')].map(b => b.innerText.trim()),
		};
	}));
}

test('Over days: the table says its speed, every person has a clock, one runs, the bot has none', 90000, async t => {
	const sina = await t.player('sina'), tom = await t.player('tom', PHONE360);
	for (const p of [sina, tom]) await register(p, p.label);

	// The lobby form: over days, 5 days, 12 hours per move, weekends off, a bot after 2 timeouts.
	await sina.page.goto(`${BASE}/`);
	const f = sina.page.locator('form[action="/tables"]:has(input[name="game"][value="drehwurm"])');
	await f.locator('select[name="seats"]').selectOption('3');
	await f.locator('details.table-options > summary').click();
	await f.locator('input[name="snap_seconds"]').fill('60');
	await f.locator('input[name="speed"][value="days"]').click({ timeout: CLICK_WAIT });
	check(await f.locator('input[name="speed"][value="days"]').isChecked(), 'the radio "Über Tage" is not checked');
	await f.locator('select[name="clock_days"]').selectOption('5');
	await f.locator('input[name="move_hours"]').fill('12');
	await f.locator('input[name="weekend"]').setChecked(true);
	await f.locator('input[name="timeouts"]').fill('2');
	await Promise.all([
		sina.page.waitForURL(/\/t\/\d+$/),
		f.locator('button[type="submit"]').click({ timeout: CLICK_WAIT }),
	]);
	const url = sina.page.url();
	t.note(`table ${url}`);
	const speed = (await sina.page.locator('p.speed').innerText()).replace(/\s+/g, ' ');
	check(/^Tempo: Über Tage: 5 Tage für den ersten Zug, \+12 Std\. pro Zug \(höchstens 5 Tage\), Wochenenden zählen nicht; nach 2-mal Zeit überschritten spielt ein Bot/.test(speed),
		`the table's speed line reads "${speed}"`);

	// A bot on one free seat from the table page, then tom takes the last one.
	const before = sina.loads;
	await sina.page.locator('form[action$="/bot"]:has(input[value="greedy"]) button').click({ timeout: CLICK_WAIT });
	await until("sina's page after seating a bot", CLICK_WAIT, async () => sina.loads > before);
	await join(tom, url);
	await allAt([sina, tom], (await state(tom)).version, 'the party starts');

	// Both pages: a clock on each person's seat, none on the bot's, and
	// exactly one running: the seat on turn. A snap window after a bot's
	// move runs several clocks at once: the people pass it first.
	let rows = [];
	for (let step = 0; step < 10; step++) {
		rows = await seatRows(sina);
		const running = rows.filter(r => r.running);
		if (running.length === 1 && running[0].turn) break;
		const ss = [await state(sina), await state(tom)];
		const w = ss.findIndex(s => s.moves.includes('pass'));
		if (w < 0) { await pageUpdate([sina, tom]); continue; }
		const p = [sina, tom][w];
		t.note(`${p.label} passes a window`);
		await clickMove(p, 'pass');
		await allAt([sina, tom], (await state(p)).version, `after ${p.label}'s pass`);
	}
	for (const p of [sina, tom]) {
		rows = await seatRows(p);
		const desc = rows.map(r => `${r.name}: ${r.clock}${r.running ? ' (läuft)' : ''}${r.turn ? ' [am Zug]' : ''} ${r.bot.join(' ')}`).join(' | ');
		check(rows.length === 3, `${p.label} sees ${rows.length} seats: ${desc}`);
		const people = rows.filter(r => !r.bot.length), bots = rows.filter(r => r.bot.length);
		check(people.length === 2 && bots.length === 1, `${p.label} sees ${people.length} people, ${bots.length} bots: ${desc}`);
		check(/Bot 2 \(gierig\)/.test(bots[0].name) && bots[0].bot.includes('Bot'),
			`${p.label}: the bot seat has no "Bot" badge: ${desc}`);
		check(bots[0].clock === null, `${p.label}: the bot seat shows a clock: ${desc}`);
		for (const r of people)
			check(r.clock && /^◷ Uhr: \d+ (Tage?|T\. \d+ Std\.)/.test(r.clock), `${p.label}: ${r.name} has no clock in days: ${desc}`);
		const running = rows.filter(r => r.running);
		check(running.length === 1, `${p.label} sees ${running.length} running clocks: ${desc}`);
		check(running[0].turn && !running[0].bot.length,
			`${p.label}: the running clock is not the person on turn: ${desc}`);
		check(/läuft/.test(running[0].clock), `${p.label}: the running clock does not say "läuft": ${desc}`);
		check(rows.filter(r => r.clock && !r.running).every(r => !/läuft/.test(r.clock)),
			`${p.label}: a stopped clock says "läuft": ${desc}`);
		check(/^Tempo: Über Tage/.test(await p.page.locator('p.speed').innerText()),
			`${p.label}'s page lacks the "Tempo: Über Tage" line`);
		t.note(`${p.label}: ${desc}`);
	}

	// On the phone every person's clock is in the status bar, on the first
	// screen (issue 33: they were 2,900 px down, in the seat list only).
	const barClocks = await tom.page.evaluate(() => {
		window.scrollTo(0, 0);
		return [...document.querySelectorAll('.status-bar .status-seat .clock')]
			.map(c => Math.round(c.getBoundingClientRect().bottom));
	});
	const screenH = tom.page.viewportSize().height;
	t.note(`tom at 360 px: the status bar's clocks end at ${barClocks.join(', ')} px (screen ${screenH} px)`);
	check(barClocks.length === 2 && barClocks.every(y => y > 0 && y <= screenH),
		`tom's status bar clocks are not on the first screen: ${JSON.stringify(barClocks)}`);
	// Screenshots; at 360 px no seat row is wider than its list, nothing scrolls sideways.
	await t.shot(sina.page, 'table-clocks-desktop.png');
	await t.shot(tom.page, 'table-clocks-phone.png');
	await t.shotOf(tom.page.locator('section.seats'), 'table-clocks-phone-seats.png');
	const wide = await tom.page.evaluate(() => document.documentElement.scrollWidth);
	check(wide <= PHONE360.width, `at 360 px the table with clocks is ${wide} px wide`);
	const over = await tom.page.evaluate(() => {
		const list = document.querySelector('ol.seats').getBoundingClientRect();
		return [...document.querySelectorAll('ol.seats > li.seat, ol.seats > li.seat > *')]
			.filter(e => e.getBoundingClientRect().right > list.right + 0.5 ||
				e.getBoundingClientRect().left < list.left - 0.5)
			.map(e => `${e.className || e.tagName}: ${Math.round(e.getBoundingClientRect().right)} > ${Math.round(list.right)}`);
	});
	check(over.length === 0, `at 360 px parts of a seat row stick out of the list: ${over.join(', ')}`);
	for (const p of [sina, tom])
		check(p.errors.length === 0, `${p.label}: page errors: ${[...new Set(p.errors)].join(' | ')}`);
	t.note('screenshots: tests/out/table-clocks-{desktop,phone,phone-seats}.png');
});

// ---- play safety: no move without a click ------------------------------------------

// Three players at a new Drehwurm table (60 s snap windows); returns
// { all, url } once every page shows the started party.
async function drehwurmTable(t, labels, views = [], snap = 60) {
	const all = [];
	for (let i = 0; i < labels.length; i++)
		all.push(await t.player(labels[i], ...(views[i] || [])));
	for (const p of all) await register(p, p.label);
	const url = await createTable(all[0], 'drehwurm', all.length, { snap_seconds: snap });
	for (const p of all.slice(1)) await join(p, url);
	for (const p of all) await gotoSettled(p, url);
	t.note(`table ${url}`);
	return { all, url };
}

// The index of the player whose regular turn it is, from fresh pages.
async function onTurn(all) {
	for (let i = 0; i < all.length; i++) {
		const s = await state(all[i]);
		if (s.moves.some(m => /^(play|chicken|draw turn) /.test(m))) return i;
	}
	return -1;
}

// Types a move into the page's text field and sends it; waits for the answer.
async function typeMove(p, text) {
	const before = p.loads;
	await p.page.locator('#move-text').fill(text);
	await p.page.locator('form.typed button[type="submit"]').click({ timeout: CLICK_WAIT });
	await until(`${p.label}'s page after typing "${text}"`, CLICK_WAIT, async () => p.loads > before);
	await p.page.waitForLoadState('load');
}

// What a refused move must leave: the table's GET URL (never /move), the
// note, the typed text still in the field, the header naming the player.
async function checkRefusedLanding(p, url, typed) {
	const u = new URL(p.page.url());
	check(u.pathname === new URL(url).pathname,
		`${p.label}: after a refused move the browser is on ${u.pathname}, not the table's GET URL`);
	const note = await p.page.locator('.note').first().innerText({ timeout: CLICK_WAIT }).catch(() => '');
	check(note, `${p.label}: a refused move shows no note`);
	const kept = await p.page.locator('#move-text').inputValue();
	check(kept === typed, `${p.label}: the typed move is "${kept}", not "${typed}", after the refusal`);
	const who = await p.page.locator('header .who').innerText().catch(() => '');
	check(who.trim() === p.label, `${p.label}: the header names "${who}" after the refusal`);
	return note;
}

// The status bar of a page: its sentence, its seats' words, its countdown.
async function statusBar(p) {
	return p.page.evaluate(() => {
		const b = document.querySelector('.status-bar');
		if (!b) return null;
		const c = b.querySelector('.countdown [data-countdown]');
		const r = b.getBoundingClientRect();
		return {
			text: b.querySelector('.status-text').innerText.replace(/\s+/g, ' ').trim(),
			seats: [...b.querySelectorAll('.status-seat')].map(li => li.innerText.replace(/\s+/g, ' ').trim()),
			countdown: c ? Number(c.textContent) : null,
			top: r.top + window.scrollY,
		};
	});
}

test('Status bar: who acts and what, for every seat, with and without script; a window\'s countdown', 150000, async t => {
	// xaver at a desktop, yvonne on a phone, zora without JavaScript
	const { all, url } = await drehwurmTable(t, ['xaver', 'yvonne', 'zora'],
		[[], [PHONE], [DESKTOP, { javaScriptEnabled: false }]], 60);
	const [xaver, yvonne, zora] = all;
	const shots = async (prefix) => {
		await t.shot(xaver.page, `${prefix}-desktop.png`, false);
		await t.shot(yvonne.page, `${prefix}-phone.png`, false);
		await t.shot(zora.page, `${prefix}-nojs.png`, false);
	};
	// Before any move: the seat on turn reads "Du bist dran: …", every
	// other seat "Warte auf <name>: legen, fressen oder ziehen".
	let turn = -1;
	for (let i = 0; i < 20 && turn < 0; i++) {
		await gotoSettled(zora, url);
		turn = await onTurn(all);
	}
	check(turn >= 0, 'nobody is on turn');
	for (const [i, p] of all.entries()) {
		if (p === zora) await gotoSettled(zora, url);
		const b = await statusBar(p);
		check(b, `${p.label}'s page has no status bar`);
		const want = i === turn ? 'Du bist dran: legen, fressen oder ziehen'
			: `Warte auf ${all[turn].label}: legen, fressen oder ziehen`;
		check(b.text === want, `${p.label}'s status bar reads "${b.text}", not "${want}"`);
		check(b.seats.some(x => x.startsWith(all[turn].label) && /am Zug/.test(x)),
			`${p.label}'s status bar does not name ${all[turn].label} "am Zug": ${b.seats.join(' | ')}`);
		// on a phone too it is on the first screen, above the board
		check(b.top < 844, `${p.label}'s status bar starts at ${b.top} px, below the first screen`);
		const title = await p.page.title();
		check(i === turn ? /^Du bist dran! · / .test(title) : !/Du bist dran/.test(title),
			`${p.label}'s title is "${title}"`);
	}
	await shots('status-turn');

	// Play until a snap window opens (a turned stack someone may snap on).
	let window = [];
	for (let step = 0; step < 12 && !window.length; step++) {
		await gotoSettled(zora, url);
		const ss = [];
		for (const p of all) ss.push(await state(p));
		window = all.filter((_, i) => ss[i].moves.includes('pass'));
		if (window.length) break;
		const i = ss.findIndex(x => x.moves.some(m => /^(play|chicken|draw turn) /.test(m)));
		if (i < 0) { await pageUpdate(all); continue; }   // a page still catching up
		const mv = ss[i].moves.find(m => m.startsWith('play ')) || ss[i].moves.find(m => m.startsWith('draw turn '));
		await clickMove(all[i], mv);
		await allAt([xaver, yvonne], (await state(all[i])).version, `after ${mv}`);
	}
	check(window.length, 'no snap window opened in twelve moves');
	await gotoSettled(zora, url);
	// Every page: "Warte auf …: Zwischenwurf", each window seat "kann noch
	// eingreifen", and the deadline counts down in the bar.
	const names = window.map(p => p.label);
	for (const p of all) {
		const b = await statusBar(p);
		check(/: Zwischenwurf( noch \d+\s?s\.?)?$/.test(b.text), `${p.label}'s status bar in the window reads "${b.text}"`);
		for (const n of names)
			check(b.seats.some(x => x.startsWith(n) && /kann noch eingreifen/.test(x)),
				`${p.label}'s status bar does not say that ${n} may still step in: ${b.seats.join(' | ')}`);
		check(b.countdown > 0 && b.countdown <= 60, `${p.label}'s status bar has no countdown (${b.countdown})`);
	}
	const first = (await statusBar(xaver)).countdown;
	await until("xaver's countdown to tick", 5000, async () => (await statusBar(xaver)).countdown < first);
	await shots('status-window');

	// One of them passes: the others' bars still list them (who passed is
	// nobody else's business until the window closes).
	if (window.length >= 2) {
		const q = window[0], others = all.filter(p => p !== q);
		await clickMove(q, 'pass');
		for (const p of others) {
			if (p === zora) await gotoSettled(zora, url);
			else await allAt([p], (await state(q)).version, 'the pass');
			const b = await statusBar(p);
			if (!/Zwischenwurf/.test(b.text)) continue;   // the window closed meanwhile
			check(b.seats.some(x => x.startsWith(q.label) && /kann noch eingreifen/.test(x)),
				`${p.label}'s status bar shows that ${q.label} passed: ${b.seats.join(' | ')}`);
		}
	}
});

test('Wurf & Wort on a phone: the rounds table names who scored and fits 390 px', 90000, async t => {
	const helga = await t.player('helga', PHONE), ingo = await t.player('ingo'), tilda = await t.player('tilda');
	const all = [helga, ingo, tilda];
	for (const p of all) await register(p, p.label);
	const url = await createTable(ingo, 'wurfwort', 3);
	t.note(`table ${url}`);
	await join(helga, url);
	await join(tilda, url);
	await allAt(all, (await state(tilda)).version, 'the party starts');
	for (const p of all) {
		await clickMove(p, 'pass');
		await allAt(all, (await state(p)).version, `after ${p.label} passed`);
	}
	// the second round: helga calls "Stopp" and takes it back (−10)
	await clickMove(helga, 'stopp');
	await allAt(all, (await state(helga)).version, 'after helga called');
	await clickMove(helga, 'withdraw');
	await allAt(all, (await state(helga)).version, 'after helga took it back');
	await helga.page.locator('.ww-rounds').scrollIntoViewIfNeeded();
	const r = await helga.page.evaluate(() => {
		const sec = document.querySelector('.ww-rounds');
		const tb = sec && sec.querySelector('table');
		return tb && {
			wide: tb.scrollWidth, room: sec.clientWidth,
			page: document.documentElement.scrollWidth, view: window.innerWidth,
			points: [...tb.querySelectorAll('tbody tr:first-child .ww-pts-list li')]
				.map(li => li.innerText.replace(/\s+/g, ' ').trim()),
			scored: [...tb.querySelectorAll('tbody tr.last .ww-pts-list li')]
				.map(li => li.innerText.replace(/\s+/g, ' ').trim()),
			last: !!tb.querySelector('tbody tr.last .last-mark'),
		};
	});
	check(r, 'no rounds table after a round');
	check(r.wide <= r.room && r.page <= r.view,
		`the rounds table is ${r.wide} px in ${r.room} px, the page ${r.page} px in ${r.view} px`);
	// a round's cell lists the seats whose points it changed, "keine" for
	// none: nobody's 0 (docs/moves-wurfwort.md)
	check(r.points.length === 1 && r.points[0] === 'keine',
		`the round everyone passed: ${r.points.join(' | ')}`);
	check(r.scored.length === 1 && r.scored[0] === 'helga \u221210',
		`the round helga took back: ${r.scored.join(' | ')}`);
	check(r.last, 'the round just decided is not marked');
	await t.shotOf(helga.page.locator('.ww-rounds'), 'wurfwort-rounds-phone.png');
});

test('A refused move is never sent again: the table changes and nothing is played', 120000, async t => {
	// 20-s snap windows, which end by their deadline in this test: long
	// enough that the window is still open when the typed move arrives
	// (with 6 s, at load 30, it had closed and the move was taken).
	const { all, url } = await drehwurmTable(t, ['gabi', 'hans', 'ines'], [], 20);
	const n = all.length;
	// Regular moves until a window opens in which the seat next on turn may
	// snap or pass (other windows: everybody passes).
	let w = -1, mover = -1;
	for (let step = 0; step < 40 && w < 0; step++) {
		const ss = [];
		for (const p of all) ss.push(await state(p));
		const inWindow = ss.map(s => s.moves.includes('pass'));
		if (inWindow.some(Boolean)) {
			const nxt = mover >= 0 ? (mover + 1) % n : -1;
			if (nxt >= 0 && inWindow[nxt]) { w = nxt; break; }
			const k = inWindow.indexOf(true);
			await clickMove(all[k], 'pass');
			await allAt(all, (await state(all[k])).version, 'a pass');
			continue;
		}
		const i = ss.findIndex(s => s.moves.some(m => /^(play|chicken|draw turn) /.test(m)));
		if (i < 0) { await pageUpdate(all); continue; }
		const mv = ss[i].moves.find(m => m.startsWith('play ')) || ss[i].moves.find(m => m.startsWith('draw turn '));
		mover = i;
		await clickMove(all[i], mv);
		await allAt(all, (await state(all[i])).version, `after "${mv}"`);
	}
	check(w >= 0, 'no snap window opened for the seat next on turn');
	const p = all[w];
	const posts = [];
	p.page.on('request', r => { if (r.method() === 'POST') posts.push(r.url()); });

	// In the window p types a regular move: refused now, legal once the
	// window is over and p is on turn.
	await typeMove(p, 'draw turn 1');
	const note = await checkRefusedLanding(p, url, 'draw turn 1');
	// The version and the document read in one go: a count of loads taken
	// apart from them lost the race with a reload of the page's own when
	// the machine was busy.
	const s0 = await state(p), v0 = s0.version;
	t.note(`${p.label} typed "draw turn 1" in a snap window: "${note.replace(/\s+/g, ' ')}"`);

	// The window ends by its deadline; p's page follows by polling and p is
	// on turn now. Nothing may have been sent for p.
	let s1 = s0;
	await until(`${p.label}'s page to show the window's end`, 40000, async () => {
		s1 = await state(p);
		return s1.version > v0 && s1.moves.some(m => m.startsWith('draw turn '));
	}, 250);
	check(s1.doc !== s0.doc, `${p.label}'s page did not follow by itself`);
	const v1 = (await state(p)).version;
	await pollRounds([p], 3);   // three more poll rounds
	const after = await state(p);
	check(posts.length === 1, `${p.label}'s page sent ${posts.length} POSTs, only 1 was clicked`);
	check(after.version === v1, `the table moved on by itself (${v1} → ${after.version})`);
	check(after.moves.some(m => m.startsWith('draw turn ')), `${p.label} is no longer on turn: a move was played`);
	check(new URL(p.page.url()).pathname === new URL(url).pathname, `${p.label}'s page is on ${p.page.url()}`);
	const notes = await p.page.locator('.note').count();
	check(notes === 0, `${p.label} sees a note after the table changed, though it did nothing`);
	t.note(`the window ended; ${p.label}'s page followed to version ${v1} and ${p.label} is on turn; 1 POST in all`);
});

// The raw bytes a seat's browser gets for the table page and its JSON twin
// (the same cookies), without touching the open page. The seconds left of
// a countdown are the time of the request, not the table's (the deadline
// itself, in ms, stays in the JSON): they are the only bytes blanked.
async function rawViews(p, url) {
	const html = (await (await p.page.request.get(url)).text())
		.replace(/data-countdown="\d+">\d+</g, 'data-countdown="S">S<');
	const json = (await (await p.page.request.get(url + '.json')).text())
		.replace(/"(deadline_seconds|seconds)": *\d+/g, '"$1": S');
	return { html, json };
}

test('A pass tells nobody: the other pages\' HTML, JSON and reloads stay as they were', 120000, async t => {
	// 120-s snap windows: the window stays open for the whole test.
	const { all, url } = await drehwurmTable(t, ['jonas', 'karla', 'lotte'], [], 120);
	const n = all.length;
	let inWindow = [];
	for (let step = 0; step < 40; step++) {
		const ss = [];
		for (const p of all) ss.push(await state(p));
		inWindow = ss.map(s => s.moves.includes('pass'));
		if (inWindow.filter(Boolean).length >= 2) break;
		const i = ss.findIndex(s => s.moves.some(m => /^(play|draw turn) /.test(m)));
		if (i < 0) { await pageUpdate(all); continue; }
		const mv = ss[i].moves.find(m => m.startsWith('play ')) || ss[i].moves.find(m => m.startsWith('draw turn '));
		await clickMove(all[i], mv);
		await allAt(all, (await state(all[i])).version, `after "${mv}"`);
	}
	check(inWindow.filter(Boolean).length >= 2, 'no snap window opened for two seats');
	const a = inWindow.indexOf(true);
	const others = all.filter((_, i) => i !== a);
	// Every other page: its reloads, its polls' answers, its raw HTML and JSON.
	const polls = new Map(others.map(p => [p, []]));
	for (const p of others)
		p.page.on('response', r => { if (r.url().includes('/poll?')) polls.get(p).push(r.status()); });
	const before = [];
	for (const p of others)
		before.push({ loads: p.loads, version: (await state(p)).version, ...(await rawViews(p, url)) });
	await clickMove(all[a], 'pass');
	check(!(await state(all[a])).moves.includes('pass'), `${all[a].label} still may pass`);
	// Two poll rounds of every other page after the pass (each answered).
	const counted = others.map(p => polls.get(p).length);
	await until('two polls of every other page after the pass', 20000, async () =>
		others.every((p, i) => polls.get(p).length >= counted[i] + 2), 200);
	for (let i = 0; i < others.length; i++) {
		const p = others[i], b = before[i];
		const now = await rawViews(p, url);
		check(p.loads === b.loads, `${p.label}'s page reloaded after ${all[a].label}'s pass`);
		check(polls.get(p).every(st => st === 204), `${p.label}'s polls answered ${polls.get(p).join(',')}`);
		check((await state(p)).version === b.version, `${p.label}'s page moved to another version`);
		let k = 0;
		while (k < b.html.length && b.html[k] === now.html[k]) k++;
		check(now.html === b.html, `${p.label}'s HTML changed (${b.html.length} → ${now.html.length} bytes) at ` +
			`${k}: ${JSON.stringify(b.html.slice(k - 80, k + 40))} → ${JSON.stringify(now.html.slice(k - 80, k + 40))}`);
		check(now.json === b.json, `${p.label}'s JSON changed (${b.json.length} → ${now.json.length} bytes)`);
	}
	t.note(`${all[a].label} passed in a window for ${inWindow.filter(Boolean).length} seats; ` +
		`${others.map(p => p.label).join(' and ')}: no reload, polls 204, HTML and JSON byte for byte the same`);
	void n;
});

test('Without JavaScript: a refused move, then a legal one, then the page updates by itself', 120000, async t => {
	const { all, url } = await drehwurmTable(t, ['jana', 'kurt', 'lena'],
		[[], [DESKTOP, { javaScriptEnabled: false }], []]);
	const k = all[1];

	// The others play (passing every snap window) until kurt is on turn;
	// kurt's page is loaded by the test while it drives.
	for (let step = 0; step < 30; step++) {
		await gotoSettled(k, url);
		const ss = [];
		for (const p of all) ss.push(await state(p));
		const w = ss.findIndex(s => s.moves.includes('pass'));
		if (w >= 0) {
			await clickMove(all[w], 'pass');
			if (w !== 1) await allAt([all[0], all[2]], (await state(all[w])).version, 'a pass');
			continue;
		}
		const i = ss.findIndex(s => s.moves.some(m => /^(play|chicken|draw turn) /.test(m)));
		if (i < 0) { await pageUpdate([all[0], all[2]]); continue; }   // a page still catching up
		if (i === 1) break;
		const mv = ss[i].moves.find(m => m.startsWith('draw turn ')) || ss[i].moves[0];
		await clickMove(all[i], mv);
		await allAt(all.filter((_, n) => n !== 1), (await state(all[i])).version, 'a move');
	}
	await gotoSettled(k, url);
	let sk = await state(k);
	check(sk.moves.length > 0, `${k.label} never came on turn`);
	// While kurt can act, no refresh may wipe what he types; a link instead.
	const refreshOnTurn = await k.page.locator('meta[http-equiv="refresh"]').count();
	check(refreshOnTurn === 0, `${k.label}'s page refreshes itself while he is on turn`);
	check(await k.page.locator('p.reload a').count() === 1, `${k.label}'s page offers no "Neu laden" link`);
	// A move no position allows: refused, the browser stays on the table,
	// logged in, with what he typed.
	await typeMove(k, 'draw turn 9');
	await checkRefusedLanding(k, url, 'draw turn 9');
	const title = await k.page.title();
	check(!/405|Fehler/i.test(title), `${k.label} sees an error page: ${title}`);
	sk = await state(k);
	check(sk.moves.length > 0, `${k.label} can no longer move after the refusal`);

	const mv = sk.moves.find(m => m.startsWith('draw turn ')) || sk.moves[0];
	await clickMove(k, mv);
	const landed = new URL(k.page.url());
	check(landed.pathname === new URL(url).pathname, `after a legal move kurt is on ${landed.pathname}`);
	sk = await state(k);
	t.note(`${k.label} (no script): refused "draw turn 9", then played "${mv}" (version ${sk.version})`);

	// Close a snap window his move may have opened, then the next player moves:
	// kurt's page, which cannot act now, must update by its own refresh.
	await allAt([all[0], all[2]], sk.version, "after kurt's move");
	for (let step = 0; step < 6; step++) {
		const ss = [];
		for (const p of [all[0], all[2]]) ss.push(await state(p));
		const w = ss.findIndex(s => s.moves.includes('pass'));
		if (w < 0) break;
		await clickMove([all[0], all[2]][w], 'pass');
		await allAt([all[0], all[2]], (await state([all[0], all[2]][w])).version, 'a pass');
	}
	await gotoSettled(k, url);
	sk = await state(k);
	if (sk.moves.length === 0) {
		check(await k.page.locator('meta[http-equiv="refresh"]').count() === 1,
			`${k.label}'s page cannot act and does not refresh itself`);
		const others = [all[0], all[2]];
		let i = -1, so;
		for (let n = 0; n < 2 && i < 0; n++) {
			so = await state(others[n]);
			if (so.moves.length) i = n;
		}
		check(i >= 0, 'after kurt\'s move nobody can move');
		const loads = k.loads;
		const m2 = so.moves.find(m => m.startsWith('draw turn ')) || so.moves[0];
		await clickMove(others[i], m2);
		const v = (await state(others[i])).version;
		await until(`${k.label}'s page to refresh by itself to version ${v}`, 15000, async () =>
			k.loads > loads && (await state(k)).version >= v, 250);
		t.note(`${others[i].label}: ${m2}; kurt's page refreshed itself to version ${v}`);
	}
	await t.shot(k.page, 'noscript-desktop.png');
});

test('Phone: my moves are on the first screen, and a move brings me back to the board', 90000, async t => {
	const { all, url } = await drehwurmTable(t, ['mara', 'nils', 'olga'], [[PHONE], [PHONE], [PHONE]]);
	const i = await onTurn(all);
	check(i >= 0, 'nobody is on turn at the start');
	const p = all[i];
	await gotoSettled(p, url);
	await p.page.waitForLoadState('load');
	// What I can do now, or my hand: whichever comes first on the page must
	// be whole on the first screen.
	const first = await p.page.evaluate(() => {
		const b = [...document.querySelectorAll('.board button[name="move"], .board .dw-hand > li > .dw-card')]
			.filter(x => x.offsetParent !== null)
			.map(x => x.getBoundingClientRect())
			.sort((x, y) => x.top - y.top)[0];
		if (!b) return null;
		return { top: b.top, bottom: b.bottom, scrollY: window.scrollY, h: window.innerHeight };
	});
	check(first, `${p.label} is on turn but the board has neither a hand nor a move button`);
	check(first.scrollY === 0 && first.bottom <= first.h,
		`at 390×844 the hand and the moves start at ${Math.round(first.top)}–${Math.round(first.bottom)} px, ` +
		`below the first screen (${first.h} px)`);
	await t.shot(p.page, 'phone-on-turn-first-screen.png', false);

	// After a move the page shows the board again, not the top.
	const s = await state(p);
	const mv = s.moves.find(m => m.startsWith('play ')) || s.moves.find(m => m.startsWith('draw turn '));
	await p.page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
	await clickMove(p, mv);
	const where = await p.page.evaluate(() => {
		const n = document.getElementById('spiel');
		return { hash: location.hash, top: n ? n.getBoundingClientRect().top : NaN,
			scrollY: window.scrollY, h: window.innerHeight };
	});
	check(where.hash === '#spiel', `after "${mv}" the address has no #spiel: "${where.hash}"`);
	check(where.top >= -2 && where.top < where.h / 2,
		`after "${mv}" the board is at ${Math.round(where.top)} px, not at the top of the screen`);
	await t.shot(p.page, 'phone-after-move.png', false);
	t.note(`${p.label}: hand and moves start at ${Math.round(first.top)} px; after "${mv}" #spiel at ${Math.round(where.top)} px (scrollY ${Math.round(where.scrollY)})`);
});

// ---- the end of a party and of a match ---------------------------------------------

// The JSON twin of the table as p sees it.
async function tableJson(p, url) {
	const r = await p.context.request.get(`${url}.json`);
	check(r.status() === 200, `${p.label}: GET ${url}.json: ${r.status()}`);
	return r.json();
}

// Nobody may act at the table as j (its JSON twin, read by p) shows it:
// waits until the table moves on by itself (its deadline passes: the next
// read applies it), reading the twin again, at most POLL_WAIT past the
// deadline.
async function tableMovesOn(p, url, j) {
	const left = j.deadline > 0 ? Math.max(0, j.deadline - Date.now()) : 0;
	await until(`table ${url} to move on from version ${j.v}`, left + POLL_WAIT,
		async () => (await tableJson(p, url)).v !== j.v, 100);
}

test('A whole match: the summary after each party, the match result first at the end', 240000, async t => {
	const { all, url } = await drehwurmTable(t, ['pia', 'quirin', 'rosa']);
	// The match is posted through the JSON twin; the pages are looked at only
	// at the first party's end and the match's. Meanwhile they wait on a
	// blank page, so that Chromium does not lay out three reloads a move.
	for (const p of all) await p.page.goto('about:blank');
	const shots = { party: false, match: false };
	let steps = 0, parties = 0;
	for (; steps < 3000; steps++) {
		const js = [];
		for (const p of all) js.push(await tableJson(p, url));
		if (js[0].is_finished) break;
		const pe = js[0].party_end;
		if (pe && pe.pausing && !shots.party) {
			// The summary stays: every page shows it, with the points and "Weiter".
			const p = all[0];
			await gotoSettled(p, url);
			const text = await visibleText(p.page);
			check(/Weiter/.test(text), `${p.label}'s page at the party's end offers no "Weiter"`);
			for (const q of all)
				check(text.includes(q.label), `the summary does not name ${q.label}`);
			await t.shot(p.page, 'party-end-desktop.png');
			await p.page.setViewportSize(PHONE);
			await t.shot(p.page, 'party-end-phone.png', false);
			await p.page.setViewportSize(DESKTOP);
			await p.page.goto('about:blank');
			shots.party = true;
		}
		// The first seat that may act: in a window it passes, at a party's end
		// it continues, else it plays (a card before a chicken before a draw).
		const k = js.findIndex(j => j.can_act && j.moves.length);
		if (k < 0) { await tableMovesOn(all[0], url, js[0]); continue; }
		const mv = js[k].moves.map(m => m.move);
		const pick = mv.find(m => m === 'weiter') || mv.find(m => m === 'pass') ||
			mv.find(m => m.startsWith('play ')) || mv.find(m => m.startsWith('chicken ')) ||
			mv.find(m => m.startsWith('draw turn ')) || mv[0];
		if (pick === 'weiter' && k === 0) parties++;
		const r = await all[k].context.request.post(`${url}/move`, {
			form: { csrf: js[k].csrf, v: String(js[k].v), move: pick },
			headers: { Accept: 'application/json' }, maxRedirects: 0,
		});
		check(r.status() < 500, `"${pick}" by ${all[k].label}: status ${r.status()}`);
	}
	const end = await tableJson(all[0], url);
	check(end.is_finished, `the match did not end within ${steps} steps`);
	check(end.party_end && end.party_end.match_over, 'the finished match has no match result');
	const p = all[1];
	await gotoSettled(p, url);
	// The match result leads: the winners come before the board.
	const order = await p.page.evaluate(() => {
		const res = document.querySelector('.party-end .match-result, .party-end [data-match-result], .party-end');
		const board = document.querySelector('.board');
		return res && board ? res.compareDocumentPosition(board) & Node.DOCUMENT_POSITION_FOLLOWING : -1;
	});
	check(order > 0, 'at the match\'s end the result is not above the board');
	const text = await visibleText(p.page);
	check(/gewinnt|gewinnen|Sieger/i.test(text), `the finished match names no winner: ${text.slice(0, 300)}`);
	await t.shot(p.page, 'match-end-desktop.png');
	await p.page.setViewportSize(PHONE);
	await t.shot(p.page, 'match-end-phone.png', false);
	const top = await p.page.evaluate(() => {
		const n = document.querySelector('.party-end');
		return n ? n.getBoundingClientRect().top : 99999;
	});
	check(top < PHONE.height, `on a phone the match result starts at ${Math.round(top)} px, below the first screen`);
	t.note(`${steps} steps, ${end.parties_played} parties; screenshots party-end-*.png, match-end-*.png`);
});

// ---- the table chat, invitations, the rematch ----------------------------------------

// The favicon a page shows: the "your turn" one exactly while the viewer may act.
async function favicon(p) {
	return p.page.evaluate(() => {
		const l = document.querySelector('link[rel="icon"]');
		return { href: l ? l.getAttribute('href') : '', alert: !!document.body.dataset.alert };
	});
}

// Nothing on the page sticks out at the right of a narrow screen.
async function fitsWidth(p, what) {
	const w = p.page.viewportSize().width;
	const wide = await p.page.evaluate(() => document.documentElement.scrollWidth);
	check(wide <= w, `at ${w} px ${p.label}'s ${what} is ${wide} px wide: it scrolls sideways`);
	// Past the right edge and not inside a box that scrolls or clips by itself.
	const out = await p.page.evaluate(vw => {
		const clipped = e => {
			for (let a = e.parentElement; a && a !== document.body; a = a.parentElement)
				if (getComputedStyle(a).overflowX !== 'visible') return true;
			return false;
		};
		return [...document.querySelectorAll('main *')]
			.filter(e => e.getClientRects().length && e.getBoundingClientRect().right > vw + 0.5 && !clipped(e))
			.slice(0, 3).map(e => `${e.tagName.toLowerCase()}.${e.getAttribute('class') || ''} ends at ` +
				`${Math.round(e.getBoundingClientRect().right)} px`);
	}, w);
	check(out.length === 0, `at ${w} px on ${p.label}'s ${what}: ${out.join('; ')}`);
}

test('Chat: a message reaches the other page by its own poll, markup stays text, a visitor reads', 60000, async t => {
	const uma = await t.player('uma'), vera = await t.player('vera', PHONE360);
	for (const p of [uma, vera]) await register(p, p.label);
	const url = await createTable(uma, 'dna', 2);
	t.note(`table ${url}`);
	await join(vera, url);
	await allAt([uma, vera], (await state(vera)).version, 'the party starts');
	// DNA: both choose at once, so both may act: both tabs show the turn favicon.
	for (const p of [uma, vera]) {
		const f = await favicon(p);
		check(f.alert && /favicon-turn\.svg$/.test(f.href),
			`${p.label} may act, but the favicon is ${f.href} (data-alert ${f.alert})`);
	}

	// uma writes; markup in a message is text, on every page.
	const msg = 'Hallo vera, <b>fett?</b> & <img src=x onerror=alert(1)> – viel Glück!';
	const loads = vera.loads;
	const before = uma.loads;
	await uma.page.locator('form.chat-form input[name="text"]').fill(msg);
	await uma.page.locator('form.chat-form button[type="submit"]').click({ timeout: CLICK_WAIT });
	await until("uma's page after her message", CLICK_WAIT, async () => uma.loads > before);
	await uma.page.waitForLoadState('load');
	const landed = new URL(uma.page.url());
	check(landed.pathname === new URL(url).pathname && landed.hash === '#chat',
		`after the message uma is on ${landed.pathname}${landed.hash}, not the table's #chat`);
	check(await uma.page.locator('#chat .note').count() === 0,
		`uma's message was refused: ${await uma.page.locator('#chat .note').innerText().catch(() => '')}`);

	// vera's page, untouched since it showed the started party, shows it by itself.
	const t0 = Date.now();
	await until("vera's page to show uma's message by its own poll", POLL_WAIT, async () =>
		(await vera.page.locator('#chat .chat-log li .chat-text').first().innerText()) === msg, 250);
	check(vera.loads > loads, "vera's page shows the message without having reloaded?");
	const seen = await vera.page.evaluate(() => {
		const li = document.querySelector('#chat .chat-log li');
		return {
			author: li.querySelector('.chat-author').innerText,
			elements: li.querySelectorAll('.chat-text *').length,
			mute: !!li.querySelector('form.chat-mute button'),
			imgs: document.querySelectorAll('main img[src="x"]').length,
		};
	});
	check(seen.author === 'uma', `the message on vera's page is by "${seen.author}", not uma`);
	check(seen.elements === 0 && seen.imgs === 0, "the markup in uma's message became elements on vera's page");
	check(seen.mute, "vera's page offers no way to mute uma");
	const mine = await uma.page.locator('#chat .chat-log li').first().evaluate(li =>
		({ mine: li.classList.contains('mine'), text: li.querySelector('.chat-text').innerText }));
	check(mine.mine && mine.text === msg, `uma's own page shows "${mine.text}" (mine: ${mine.mine})`);
	t.note(`vera's page showed the message after ${((Date.now() - t0) / 1000).toFixed(1)} s, by its own reload`);

	// vera answers from her phone; uma's page follows the same way.
	const loadsU = uma.loads;
	const reply = 'Danke! Ich wähle gleich.';
	const beforeV = vera.loads;
	await vera.page.locator('form.chat-form input[name="text"]').fill(reply);
	await vera.page.locator('form.chat-form button[type="submit"]').click({ timeout: CLICK_WAIT });
	await until("vera's page after her reply", CLICK_WAIT, async () => vera.loads > beforeV);
	await until("uma's page to show vera's reply by its own poll", POLL_WAIT, async () =>
		(await uma.page.locator('#chat .chat-log li .chat-text').first().innerText()) === reply, 250);
	check(uma.loads > loadsU, "uma's page did not reload by itself for vera's reply");

	// uma chooses: her tab loses the turn favicon, vera's keeps it.
	const su = await state(uma);
	const choice = su.moves.find(m => m.startsWith('attach ')) || su.moves.find(m => m === 'draw');
	await clickMove(uma, choice);
	const fu = await favicon(uma), fv = await favicon(vera);
	check(!fu.alert && /\/favicon\.svg$/.test(fu.href), `uma has chosen, but her favicon is ${fu.href}`);
	check(fv.alert && /favicon-turn\.svg$/.test(fv.href), `vera must still choose, but her favicon is ${fv.href}`);

	// A visitor (not logged in) finds the table under "Zuschauen" and reads the chat.
	const gast = await t.player('gast');
	await gast.page.goto(`${BASE}/`);
	const watch = gast.page.locator(`section:has(h2:text-is("Zuschauen")) a[href="${new URL(url).pathname}"]`);
	check(await watch.count() === 1, 'the lobby does not list the running table under "Zuschauen"');
	await watch.click({ timeout: CLICK_WAIT });
	await gast.page.waitForURL(u => u.pathname === new URL(url).pathname);
	const gt = await visibleText(gast.page);
	check(/Du schaust zu/.test(gt), 'the visitor\'s table page does not say "Du schaust zu"');
	check(gt.includes(msg) && gt.includes(reply), "the visitor's page does not show the chat");
	check(await gast.page.locator('form.chat-form').count() === 0, 'a visitor is offered the chat form');

	// Screenshots: the chat card at 1280 px and at 360 px; the phone page does not scroll sideways.
	await uma.page.locator('#chat').scrollIntoViewIfNeeded();
	await t.shotOf(uma.page.locator('#chat'), 'chat-desktop.png');
	await gotoSettled(vera, `${url}#chat`);
	await fitsWidth(vera, 'table page with the chat');
	const form = await vera.page.locator('form.chat-form').evaluate(f => {
		const r = b => Math.round(b.getBoundingClientRect().right);
		return { input: r(f.querySelector('input[name="text"]')), button: r(f.querySelector('button')) };
	});
	check(Math.max(form.input, form.button) <= PHONE360.width,
		`at 360 px the chat form's field ends at ${form.input} px, its button at ${form.button} px`);
	await t.shotOf(vera.page.locator('#chat'), 'chat-phone.png');
	await t.shot(vera.page, 'chat-phone-page.png', false);
	for (const p of [uma, vera, gast])
		check(p.errors.length === 0, `${p.label}: page errors: ${[...new Set(p.errors)].join(' | ')}`);
	t.note('screenshots: tests/out/chat-{desktop,phone,phone-page}.png');
});

test('Invite: "Link kopieren" copies the full address; an invitation by name shows on the other /me by its own poll', 60000, async t => {
	const wim = await t.player('wim'), xenia = await t.player('xenia');
	for (const p of [wim, xenia]) await register(p, p.label);
	await wim.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE });
	// A DNA table where both choose now: on xenia's /me it says "Du bist dran!".
	const running = await createTable(wim, 'dna', 2);
	await join(xenia, running);

	// xenia opens "Meine Tische" and leaves it alone from here on.
	await xenia.page.goto(`${BASE}/me`);
	const poll = await xenia.page.evaluate(() => document.body.dataset.poll || '');
	check(/^\/me\/poll\/[A-Za-z0-9_-]{43}$/.test(poll),
		`"Meine Tische" polls "${poll}", not /me/poll/<the user's token>`);
	const turn = xenia.page.locator(`ul.tables li:has(a[href="${new URL(running).pathname}"]) .badge.turn`);
	check(/Du bist dran!/.test(await turn.innerText().catch(() => '')),
		'xenia\'s /me does not mark the DNA table "Du bist dran!"');
	const loads = xenia.loads;

	// wim opens a second table; the page shows the whole address with a copy button.
	const url = await createTable(wim, 'drehwurm', 3, { snap_seconds: 60 });
	t.note(`open table ${url}`);
	const link = await wim.page.locator('.invite a.invite-link').evaluate(a => ({ href: a.href, text: a.textContent.trim() }));
	check(link.href === url && link.text === url && /^https?:\/\//.test(link.text),
		`the invite link reads "${link.text}" (href ${link.href}), not the full address ${url}`);
	const copy = wim.page.locator('.invite button.copy').first();
	check(await copy.innerText().catch(() => '') === 'Link kopieren', 'the open table has no "Link kopieren" button');
	await copy.click({ timeout: CLICK_WAIT });
	await until('the copy button to say "Kopiert"', 3000, async () => (await copy.innerText()) === 'Kopiert');
	const clip = await wim.page.evaluate(() => navigator.clipboard.readText());
	check(clip === url, `"Link kopieren" put "${clip}" on the clipboard, not ${url}`);
	const share = await wim.page.evaluate(() => ({
		api: typeof navigator.share === 'function',
		button: [...document.querySelectorAll('.invite button.copy')].some(b => b.textContent === 'Teilen'),
	}));
	check(share.api === share.button, `navigator.share ${share.api ? 'exists' : 'is missing'}, ` +
		`but the "Teilen" button is ${share.button ? 'there' : 'missing'}`);
	t.note(`copied ${clip}; "Teilen" ${share.button ? 'shown' : 'not shown (no navigator.share here)'}`);

	// wim invites xenia by name.
	const before = wim.loads;
	const f = wim.page.locator('form.invite-by-name');
	await f.locator('input[name="name"]').fill('xenia');
	await f.locator('button[type="submit"]').click({ timeout: CLICK_WAIT });
	await until("wim's page after the invitation", CLICK_WAIT, async () => wim.loads > before);
	await wim.page.waitForLoadState('load');
	check(new URL(wim.page.url()).pathname === new URL(url).pathname, `after inviting wim is on ${wim.page.url()}`);
	const note = await wim.page.locator('.note:not(.done)').first().innerText({ timeout: 200 }).catch(() => '');
	check(!note, `the invitation was refused: ${note}`);
	const done = await wim.page.locator('.note.done').first().innerText({ timeout: CLICK_WAIT }).catch(() => '');
	check(/xenia ist eingeladen/.test(done), `no note says that xenia is invited: "${done}"`);
	await t.shotOf(wim.page.locator('section.seats'), 'invite-desktop.png');
	await resize(wim.page, PHONE360);
	await fitsWidth(wim, 'open table with the invite form');
	await t.shotOf(wim.page.locator('section.seats'), 'invite-phone.png');

	// xenia's /me shows it by itself.
	const t0 = Date.now();
	const inv = xenia.page.locator(`.invites li:has(a[href="${new URL(url).pathname}"])`);
	await until("the invitation on xenia's /me, by its own poll", POLL_WAIT, async () =>
		/wim lädt dich ein/.test(await inv.innerText()), 250);
	check(xenia.loads > loads, "xenia's /me shows the invitation without having reloaded?");
	t.note(`xenia's /me showed the invitation after ${((Date.now() - t0) / 1000).toFixed(1)} s, by its own reload`);
	check(/Du bist dran!/.test(await turn.innerText()), 'after the reload the DNA table lost "Du bist dran!"');
	await t.shot(xenia.page, 'me-invite-desktop.png');
	await resize(xenia.page, PHONE360);
	await fitsWidth(xenia, '/me');
	await t.shot(xenia.page, 'me-invite-phone.png');

	// She follows the invitation and sits down with one click; it is gone from /me.
	await inv.locator(`a[href="${new URL(url).pathname}"]`).click({ timeout: CLICK_WAIT });
	await xenia.page.waitForURL(u => u.pathname === new URL(url).pathname);
	const b2 = xenia.loads;
	await xenia.page.locator('form[action$="/join"] button').click({ timeout: CLICK_WAIT });
	await until("xenia's page after joining", CLICK_WAIT, async () => xenia.loads > b2);
	const seated = await tableJson(xenia, url);
	check(seated.seated, 'xenia is not seated after following the invitation');
	await gotoSettled(xenia, `${BASE}/me`);
	check(await xenia.page.locator(`.invites a[href="${new URL(url).pathname}"]`).count() === 0,
		'the invitation is still on /me after xenia sat down');
	for (const p of [wim, xenia])
		check(p.errors.length === 0, `${p.label}: page errors: ${[...new Set(p.errors)].join(' | ')}`);
	t.note('screenshots: tests/out/invite-{desktop,phone}.png, me-invite-{desktop,phone}.png');
});

// Plays a table to its end through the JSON twin: every seat that may act
// posts a move (weiter, then a card laid, a draw last). Returns the steps.
async function playToEnd(all, url, maxSteps) {
	const order = ['weiter', 'set ', 'attach ', 'open ', 'refill ', 'discard ', 'clear ', 'pass', 'draw'];
	for (let steps = 0; steps < maxSteps; steps++) {
		const js = [];
		for (const p of all) js.push(await tableJson(p, url));
		if (js[0].is_finished) return steps;
		const k = js.findIndex(j => j.can_act && j.moves.length);
		if (k < 0) { await tableMovesOn(all[0], url, js[0]); continue; }
		const mv = js[k].moves.map(m => m.move);
		let pick = mv[0];
		for (const o of order) {
			const m = mv.find(x => x.startsWith(o));
			if (m) { pick = m; break; }
		}
		const r = await all[k].context.request.post(`${url}/move`, {
			form: { csrf: js[k].csrf, v: String(js[k].v), move: pick },
			headers: { Accept: 'application/json' }, maxRedirects: 0,
		});
		check(r.status() < 500, `"${pick}" by ${all[k].label}: status ${r.status()}`);
	}
	throw new Error(`the table did not finish within ${maxSteps} steps`);
}

test('Rematch: "Noch ein Match mit denselben Leuten"; the other page offers the new table, one click to join', 90000, async t => {
	const yara = await t.player('yara'), zeno = await t.player('zeno');
	const all = [yara, zeno];
	for (const p of all) await register(p, p.label);
	const url = await createTable(yara, 'dna', 2);
	await join(zeno, url);
	const t0 = Date.now();
	const steps = await playToEnd(all, url, 1500);
	t.note(`table ${url} played to its end in ${steps} moves (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
	for (const p of all) await gotoSettled(p, url);
	const button = 'form.rematch button[type="submit"]';
	for (const p of all)
		check(/Noch ein Match mit denselben Leuten/.test(await p.page.locator(button).innerText().catch(() => '')),
			`${p.label}'s finished table offers no "Noch ein Match mit denselben Leuten"`);
	await t.shot(yara.page, 'rematch-finished-desktop.png');
	await resize(yara.page, PHONE360);
	await fitsWidth(yara, 'finished table');
	await yara.page.locator('form.rematch').scrollIntoViewIfNeeded();
	await t.shot(yara.page, 'rematch-finished-phone.png', false);
	await yara.page.setViewportSize(DESKTOP);

	// zeno keeps two tabs: "Meine Tische" and the finished table.
	const tab = await zeno.context.newPage();
	await tab.goto(url);
	await gotoSettled(zeno, `${BASE}/me`);
	const loads = zeno.loads;

	// yara asks for the rematch; she lands on the new table, seated.
	await Promise.all([
		yara.page.waitForURL(u => /^\/t\/\d+$/.test(u.pathname) && u.pathname !== new URL(url).pathname),
		yara.page.locator(button).click({ timeout: CLICK_WAIT }),
	]);
	const next = yara.page.url(), nextPath = new URL(next).pathname;
	t.note(`the new table: ${next}`);
	const jn = await tableJson(yara, next);
	check(jn.is_open && jn.seated && jn.game_slug === 'dna' && jn.nseats === 2,
		`the new table: status ${jn.status}, seated ${jn.seated}, ${jn.game_slug} for ${jn.nseats}`);

	// zeno's "Meine Tische", left alone, shows yara's invitation by its own poll.
	const inv = zeno.page.locator(`.invites li:has(a[href="${nextPath}"])`);
	await until("yara's invitation on zeno's /me, by its own poll", POLL_WAIT, async () =>
		/yara lädt dich ein/.test(await inv.innerText({ timeout: 200 })), 250);
	check(zeno.loads > loads, "zeno's /me shows the invitation without having reloaded?");
	await t.shot(zeno.page, 'rematch-me-invite.png');

	// The finished table offers the new one in place of the button, by
	// its own poll (a finished table polls: its chat, the next match).
	const polls = await tab.evaluate(() => !!document.body.dataset.poll);
	check(polls, "zeno's finished table does not poll (no data-poll)");
	const offer = tab.locator('p.note.rematch a');
	await until("zeno's finished table to offer the new one, by its own poll", POLL_WAIT, async () =>
		(await offer.getAttribute('href', { timeout: 200 })) === nextPath, 250);
	check((await offer.getAttribute('href', { timeout: CLICK_WAIT })) === nextPath,
		`zeno's finished table does not offer ${nextPath}`);
	check(await tab.locator(button).count() === 0, "zeno's finished table still offers a second rematch");
	await tab.locator('p.note.rematch').scrollIntoViewIfNeeded();
	await tab.screenshot({ path: require('path').join(OUT, 'rematch-offer-desktop.png') });
	await tab.close();

	// From the invitation on /me, one click on "Mitspielen" seats zeno.
	await inv.locator(`a[href="${nextPath}"]`).click({ timeout: CLICK_WAIT });
	await zeno.page.waitForURL(u => u.pathname === nextPath);
	const b = zeno.loads;
	await zeno.page.locator('form[action$="/join"] button').click({ timeout: CLICK_WAIT });   // the one click
	await until("zeno's page after joining the new table", CLICK_WAIT, async () => zeno.loads > b);

	// The new table runs: both pages show the started party, yara's by its own poll.
	const v = (await state(zeno)).version;
	await allAt(all, v, 'the new match starts');
	for (const p of all) {
		const j = await tableJson(p, next);
		check(j.is_playing && j.can_act, `${p.label} at the new table: status ${j.status}, can act ${j.can_act}`);
	}
	const s = await state(zeno);
	const mv = s.moves.find(m => m.startsWith('attach ')) || s.moves.find(m => m === 'draw');
	await clickMove(zeno, mv);
	await allAt([yara], (await state(zeno)).version, "after zeno's first choice");
	await t.shot(yara.page, 'rematch-new-table-desktop.png');
	await resize(zeno.page, PHONE360);
	await fitsWidth(zeno, 'new table');
	await t.shot(zeno.page, 'rematch-new-table-phone.png', false);
	for (const p of all)
		check(p.errors.length === 0, `${p.label}: page errors: ${[...new Set(p.errors)].join(' | ')}`);
	t.note('screenshots: tests/out/rematch-{finished-desktop,finished-phone,me-invite,offer-desktop,new-table-desktop,new-table-phone}.png');
});

// ---- a tournament ---------------------------------------------------------------------

test('Tournament: register by clicking, my table by the page\'s own poll, the standings at the end', 180000, async t => {
	const ola = await t.player('ola');
	const players = [await t.player('ute'), await t.player('vik'), await t.player('wanda')];
	for (const p of [ola, ...players]) await register(p, p.label);

	// ola organises a DNA Swiss of one round at tables of three from the form.
	await ola.page.goto(`${BASE}/tournaments`);
	await Promise.all([
		ola.page.waitForURL(/\/tournaments\/new/),
		ola.page.locator('a[href="/tournaments/new?game=dna"]').click({ timeout: CLICK_WAIT }),
	]);
	const f = ola.page.locator('form[action="/tournaments"]');
	await f.locator('input[name="name"]').fill('Abendturnier');
	await f.locator('select[name="seats"]').selectOption('3');
	await f.locator('select[name="min_seats"]').selectOption('3');
	await f.locator('input[name="rounds"]').fill('1');
	await Promise.all([
		ola.page.waitForURL(/\/tournaments\/\d+$/),
		f.locator('button[type="submit"]').click({ timeout: CLICK_WAIT }),
	]);
	const turl = ola.page.url();
	t.note(`the tournament: ${turl}`);

	// Everyone registers with the page's button; wanda on a narrow phone.
	await players[2].page.setViewportSize(PHONE360);
	for (const p of players) {
		await gotoSettled(p, turl);
		const before = p.loads;
		await p.page.locator('form[action$="/register"] button').click({ timeout: CLICK_WAIT });
		await until(`${p.label}'s page after registering`, CLICK_WAIT, async () => p.loads > before);
		await p.page.waitForURL(u => u.pathname === new URL(turl).pathname);
		check(/Du bist dabei/.test(await visibleText(p.page)), `${p.label} is not registered`);
	}
	await fitsWidth(players[2], 'tournament page');
	await t.shot(players[2].page, 'tournament-registered-phone.png', false);

	// ola starts it; the players' pages, left alone, offer their table by their own poll.
	await gotoSettled(ola, turl);
	await Promise.all([
		ola.page.waitForURL(u => u.pathname === new URL(turl).pathname),
		ola.page.locator('form[action$="/start"] button').click({ timeout: CLICK_WAIT }),
	]);
	const mine = 'a:has-text("Zu meinem Tisch")';
	for (const p of players)
		await until(`${p.label}'s tournament page to offer the table, by its own poll`, POLL_WAIT,
			async () => (await p.page.locator(mine).count()) > 0, 250);
	await t.shot(players[1].page, 'tournament-running-desktop.png');
	await fitsWidth(players[2], 'running tournament');
	await t.shot(players[2].page, 'tournament-running-phone.png', false);

	// One click leads ute to her table, where she sits.
	const ute = players[0];
	await Promise.all([ute.page.waitForURL(/\/t\/\d+$/), ute.page.locator(mine).first().click({ timeout: CLICK_WAIT })]);
	const url = ute.page.url();
	const j = await tableJson(ute, url);
	check(j.seated && j.is_playing, `ute at her tournament table: seated ${j.seated}, status ${j.status}`);
	const back = ute.page.locator(`.table-head a[href="${new URL(turl).pathname}"]`);
	check(/Abendturnier/.test(await back.innerText({ timeout: CLICK_WAIT }).catch(() => '')),
		'the tournament table does not link back to its tournament');

	// The table is played to its end; the tournament pages show the standings by their poll.
	const steps = await playToEnd(players, url, 3000);
	t.note(`the table ${url} played to its end in ${steps} moves`);
	const rows = 'section.standings tbody tr';
	for (const p of players.slice(1))
		await until(`${p.label}'s page to show the final standings, by its own poll`, POLL_WAIT, async () =>
			/beendet/.test(await p.page.locator('.tournament-rule .badge').first().innerText({ timeout: 200 })), 250);
	const table = await players[1].page.locator(rows).allInnerTexts();
	check(table.length === 3, `the standings have ${table.length} rows, not 3`);
	for (const p of players)
		check(table.some(r => r.includes(p.label)), `the standings do not name ${p.label}`);
	check(/^1\b/.test(table[0].trim()), `the first row of the standings is not place 1: ${table[0]}`);
	await players[1].page.locator('section.standings').scrollIntoViewIfNeeded();
	await t.shot(players[1].page, 'tournament-standings-desktop.png', false);
	await fitsWidth(players[2], 'finished tournament');
	const scroll = await players[2].page.locator('section.standings .scroll')
		.evaluate(e => ({ need: e.scrollWidth, have: e.clientWidth }));
	check(scroll.need <= scroll.have, `the standings need ${scroll.need} px on a phone, have ${scroll.have}`);
	await players[2].page.locator('section.standings').scrollIntoViewIfNeeded();
	await t.shot(players[2].page, 'tournament-standings-phone.png', false);
	for (const p of [ola, ...players])
		check(p.errors.length === 0, `${p.label}: page errors: ${[...new Set(p.errors)].join(' | ')}`);
	t.note('screenshots: tests/out/tournament-{registered-phone,running-desktop,running-phone,standings-desktop,standings-phone}.png');
});

// ---- accessibility: axe-core on every page type ------------------------------------

const AXE_SOURCE = require('fs').readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

// axe-core's WCAG 2.x A/AA rules and its best practices on the page as it is
// now; returns the violations as "rule: target (summary)" lines. The source
// goes in through the debugger, so the page's own CSP stays on.
async function axeViolations(page) {
	await page.waitForLoadState('load');
	const has = await page.evaluate(() => typeof window.axe === 'object').catch(() => false);
	if (!has) await page.evaluate(AXE_SOURCE);
	const r = await page.evaluate(async () => {
		const res = await window.axe.run(document, {
			runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
			resultTypes: ['violations'],
		});
		return res.violations.map(v => `${v.id}: ${v.nodes.slice(0, 3).map(n =>
			`${n.target.join(' ')} (${(n.failureSummary || '').replace(/\s+/g, ' ').slice(0, 160)})`).join('; ')}`);
	});
	return r;
}

// Checks one page at both widths; screenshots axe-<name>-{desktop,phone}.png.
async function axeCheck(t, p, name, results) {
	const found = [];
	for (const [w, vp] of [['desktop', DESKTOP], ['phone', PHONE]]) {
		await resize(p.page, vp);
		const v = await until(`axe on ${name} (${w})`, 10000, async () => axeViolations(p.page));
		for (const x of v) found.push(`${name} (${w}) ${x}`);
		await t.shot(p.page, `axe-${name}-${w}.png`);
	}
	await p.page.setViewportSize(DESKTOP);
	results.push(`${name}: ${found.length} violations`);
	return found;
}

test('Accessibility: axe-core finds no violation on any page type, desktop and phone', 240000, async t => {
	const host = await t.player('axel'), guest = await t.player('axine'), visitor = await t.player('axvisitor');
	const results = [], found = [];
	const at = async (p, url, name) => {
		await gotoSettled(p, url);
		found.push(...await axeCheck(t, p, name, results));
	};
	await at(visitor, `${BASE}/`, 'lobby-visitor');
	await at(visitor, `${BASE}/login`, 'login');
	await at(visitor, `${BASE}/register`, 'register');
	await at(visitor, `${BASE}/t/999999`, 'error-404');
	await register(host, 'axel');
	await register(guest, 'axine');
	await at(host, `${BASE}/`, 'lobby');
	// The options folded away: the length of the games' forms (the page
	// around them grows with the tables the other tests opened), then one
	// game's options unfolded, its radio buttons small circles (not 100 % wide).
	for (const [w, vp, most] of [['desktop', DESKTOP, 1400], ['phone', PHONE, 3000]]) {
		await resize(host.page, vp);
		const h = await host.page.evaluate(() =>
			Math.round(document.querySelector('.games').getBoundingClientRect().height));
		t.note(`the lobby's games at ${vp.width} px: ${h} px long`);
		check(h <= most, `the lobby's games at ${vp.width} px are ${h} px long (at most ${most})`);
	}
	await host.page.setViewportSize(DESKTOP);
	const dw = host.page.locator('form[action="/tables"]:has(input[name="game"][value="drehwurm"])');
	check(!(await dw.locator('input[name="move_seconds"]').isVisible()), 'the options are not folded away');
	await dw.locator('details.table-options > summary').click();
	const radio = await dw.locator('input[type="radio"]').first().boundingBox();
	check(radio && radio.width <= 30, `a radio button is ${radio && radio.width} px wide`);
	found.push(...await axeCheck(t, host, 'lobby-options-open', results));
	// The focus ring stands out from the cream page (3:1 at least).
	await dw.locator('details.table-options > summary').focus();
	await host.page.keyboard.press('Shift+Tab');
	await host.page.keyboard.press('Tab');
	const ring = await host.page.evaluate(() => {
		const e = document.activeElement, cs = getComputedStyle(e);
		const rgb = c => (c.match(/\d+(\.\d+)?/g) || []).slice(0, 3).map(Number);
		const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
			.reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
		const a = lum(rgb(cs.outlineColor)), b = lum(rgb(getComputedStyle(document.body).backgroundColor));
		return { tag: e.tagName, style: cs.outlineStyle, width: cs.outlineWidth,
			ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) };
	});
	t.note(`the focus ring on ${ring.tag}: ${ring.style} ${ring.width}, ${ring.ratio.toFixed(2)}:1 against the page`);
	check(ring.style !== 'none' && ring.ratio >= 3, `the focus ring: ${JSON.stringify(ring)}`);
	await t.shot(host.page, 'lobby-focus-ring-desktop.png', false);
	// A table of every game with a bot (two seats; Drehwurm needs three), as a
	// seat and as a spectator.
	for (const [slug, seats, bots] of [['drehwurm', 3, ['random', 'random']], ['dna', 2, ['random']],
		['drachenrummy', 2, ['random']], ['worstgame', 2, ['random']], ['wurfwort', 3, ['random', 'random']]]) {
		const url = await createTable(host, slug, seats);
		await seatBots(host, bots);
		await at(host, url, `table-${slug}-seat`);
		await at(visitor, url, `table-${slug}-spectator`);
	}
	// An open table with an invitation waiting.
	const open = await createTable(host, 'dna', 3);
	// "Einladen" says so; the table lists the invitation with its withdraw button.
	await host.page.locator('form.invite-by-name input[name="name"]').fill('axine');
	await Promise.all([host.page.waitForURL(/\/t\/\d+/), host.page.locator('form.invite-by-name button').click()]);
	await host.page.waitForLoadState('load');
	check(/axine ist eingeladen/.test(await host.page.locator('.note.done').innerText()),
		'no note after "Einladen"');
	check(await host.page.locator('ul.invites li:has-text("axine") button').count() === 1,
		'the table does not list the invitation to axine with a withdraw button');
	await at(host, host.page.url(), 'table-open-host');
	await at(visitor, open, 'table-open-visitor');
	await at(visitor, `${BASE}/`, 'lobby-open-tables');
	// An open table's options are separated from each other ("· " before
	// every one but the first), not run together.
	const seps = await visitor.page.evaluate(() => [...document.querySelectorAll('.opts')]
		.filter(o => o.querySelectorAll('.opt').length > 1).slice(0, 3)
		.map(o => [...o.querySelectorAll('.opt')].slice(1)
			.every(x => /·/.test(getComputedStyle(x, '::before').content))));
	check(seps.length > 0 && seps.every(Boolean), `the open tables' option lines are not separated: ${JSON.stringify(seps)}`);
	await at(guest, `${BASE}/me`, 'me');
	await gotoSettled(host, open);
	await Promise.all([host.page.waitForURL(/\/t\/\d+/), host.page.locator('ul.invites li:has-text("axine") button').click()]);
	await host.page.waitForLoadState('load');
	check(/zurückgezogen/.test(await host.page.locator('.note.done').innerText()), 'no note after withdrawing');
	check(await host.page.locator('ul.invites').count() === 0, 'the withdrawn invitation is still listed');
	found.push(...await axeCheck(t, host, 'table-open-withdrawn', results));
	await at(visitor, `${BASE}/u/axel`, 'profile');
	await at(visitor, `${BASE}/ratings`, 'ratings');
	// A tournament with one registered player: the organiser's page has "entfernen".
	await host.page.goto(`${BASE}/tournaments/new?game=dna`);
	const f = host.page.locator('form[action="/tournaments"]');
	await f.locator('input[name="name"]').fill('Axe-Turnier');
	await Promise.all([host.page.waitForURL(/\/tournaments\/\d+$/), f.locator('button[type="submit"]').click()]);
	const turl = host.page.url();
	await gotoSettled(guest, turl);
	await Promise.all([guest.page.waitForURL(u => u.pathname === new URL(turl).pathname),
		guest.page.locator('form[action$="/register"] button').click()]);
	await at(host, turl, 'tournament-organiser');
	await at(visitor, turl, 'tournament-visitor');
	await at(visitor, `${BASE}/tournaments`, 'tournaments');
	await at(host, `${BASE}/tournaments/new?game=dna`, 'tournament-new');
	for (const r of results) t.note(r);
	for (const x of found) t.note(`VIOLATION ${x}`);
	check(found.length === 0, `axe-core violations:\n${found.join('\n')}`);
});

// ---- replays -----------------------------------------------------------------------

// A form post through the player's own cookies, without a page load (the
// setup of a test, not what it shows): the CSRF token from `from`.
async function postQuietly(p, from, path, fields) {
	const html = await (await p.page.request.get(`${BASE}${from}`)).text();
	const csrf = (html.match(/name="csrf" value="([^"]+)"/) || [])[1];
	check(csrf, `no CSRF token on ${from}`);
	const r = await p.page.request.post(`${BASE}${path}`, { form: { csrf, ...fields }, maxRedirects: 0 });
	return r;
}

// A table of `slug` with p and greedy bots, p's seat handed to a bot, once
// its first party is over (the bots move whenever a request touches it):
// its path and that party's scores.
async function botsParty(p, slug, seats) {
	const r = await postQuietly(p, '/', '/tables', { game: slug, seats: String(seats) });
	const id = ((r.headers().location || '').match(/^\/t\/(\d+)$/) || [])[1];
	check(id, `${slug}: no table (${r.status()})`);
	const path = `/t/${id}`;
	for (let i = 1; i < seats; i++) await postQuietly(p, path, `${path}/bot`, { level: 'greedy' });
	await postQuietly(p, path, `${path}/seat`, { act: 'bot' });
	const j = await until(`${slug}: the bots to finish the first party`, 60000, async () => {
		const o = await (await p.page.request.get(`${BASE}${path}.json`)).json();
		return o.parties_played >= 1 ? o : false;
	}, 50);
	return { path, scores: j.parties[0].scores.map(x => x.score) };
}

// Clicks the replay's link `rel` and waits for its page.
async function replayStep(p, rel) {
	await Promise.all([p.page.waitForURL(u => /\/(replay|since)/.test(u.pathname)),
		p.page.locator(`.replay-nav a[rel="${rel}"]`).first().click({ timeout: CLICK_WAIT })]);
	await p.page.waitForLoadState('load');
}

// The replay page as read: where it stands, its step line, the points.
async function replayState(p) {
	return p.page.evaluate(() => ({
		where: (document.querySelector('.replay-where') || {}).innerText || '',
		step: ((document.querySelector('.replay-step') || {}).innerText || '').trim(),
		rels: [...document.querySelectorAll('.replay-nav a[rel]')].map(a => a.rel),
		scores: [...document.querySelectorAll('.seats .score')].map(s => Number(s.innerText.replace('\u2212', '-'))),
		viewer: ((document.querySelector('.replay-views strong') || {}).innerText || '').trim(),
		board: !!document.querySelector('fieldset.replay-frame[disabled] .board, fieldset.replay-frame[disabled] > *'),
	}));
}

test('Replays: a finished party of every game step by step, and "Seit deinem letzten Zug", with and without JavaScript', 240000, async t => {
	const rita = await t.player('rita');
	await register(rita, 'rita');
	const nojs = await t.player('rita-nojs', DESKTOP, { javaScriptEnabled: false });
	await nojs.context.addCookies(await rita.context.cookies());
	const games = [['drehwurm', 3], ['dna', 2], ['drachenrummy', 2], ['wurfwort', 3], ['worstgame', 2]];
	const axeResults = [], axeFound = [];
	for (const [slug, seats] of games) {
		const { path, scores } = await botsParty(rita, slug, seats);
		// the table links to the replay; a scripted page and one without script step alike
		const p = slug === 'dna' || slug === 'worstgame' ? nojs : rita;
		await gotoSettled(p, `${BASE}${path}`);
		await Promise.all([p.page.waitForURL(/\/replay/),
			p.page.locator(`.replay-links a[href="${path}/replay?party=1"]`).first().click({ timeout: CLICK_WAIT })]);
		let s = await replayState(p);
		check(s.rels.includes('prev') && !s.rels.includes('next'), `${slug}: the replay does not open at the end: ${s.rels}`);
		check(JSON.stringify(s.scores) === JSON.stringify(scores), `${slug}: the last position scores ${s.scores}, the table ${scores}`);
		await replayStep(p, 'first');
		s = await replayState(p);
		check(/Ausgeteilt/.test(s.step) && !s.rels.includes('prev'), `${slug}: the first position is not the deal: "${s.step}" ${s.rels}`);
		check(s.board, `${slug}: no board in the replay`);
		await replayStep(p, 'next');
		s = await replayState(p);
		check(/^Schritt 1 von \d+/.test(s.where) && /:/.test(s.step), `${slug}: step 1 reads "${s.where}" / "${s.step}"`);
		// another seat's view of the same step
		const other = p.page.locator('.replay-views a:not(strong a)').last();
		await Promise.all([p.page.waitForURL(/seat=/), other.click({ timeout: CLICK_WAIT })]);
		const s2 = await replayState(p);
		check(s2.where === s.where && s2.viewer && s2.viewer !== s.viewer, `${slug}: the view did not change: "${s.viewer}" → "${s2.viewer}"`);
		if (slug === 'drehwurm') {
			await t.shot(p.page, 'replay-drehwurm-desktop.png');
			axeFound.push(...await axeCheck(t, p, 'replay', axeResults));
		}
		t.note(`${slug}: ${s.where}, ${scores.join(' ')}`);
	}
	// "Seit deinem letzten Zug": rita plays Drehwurm against two bots
	const url = await createTable(rita, 'drehwurm', 3);
	await seatBots(rita, ['greedy', 'greedy']);
	check(await dwMove(rita, url), 'rita never had a move');
	const since = rita.page.locator('.replay-links a[href$="/since#schritt"]');
	await until('the table to offer "Seit deinem letzten Zug"', POLL_WAIT, async () => {
		if (await since.count()) return true;
		await gotoSettled(rita, url);
		return false;
	});
	for (const p of [rita, nojs]) {
		await gotoSettled(p, `${url}/since`);
		let s = await replayState(p);
		check(/^Schritt 0 von [1-9]/.test(s.where) && !s.rels.includes('prev') && s.rels.includes('next'),
			`${p.label}: the since page does not start at her own move: "${s.where}" ${s.rels}`);
		check(/rita \(du\): \S/.test(s.step), `${p.label}: the first step is not rita's own move: "${s.step}"`);
		await replayStep(p, 'next');
		s = await replayState(p);
		check(/Bot \d \(gierig\)|Frist/.test(s.step), `${p.label}: the step after hers: "${s.step}"`);
		check(!await p.page.locator('.replay-step code').count(), `${p.label}: a bot's move text is shown while the party runs`);
		// One step after hers is the whole view when she was asked again
		// at once (a window after the next bot's card): then it is the last.
		if (s.rels.includes('last')) {
			await replayStep(p, 'last');
			s = await replayState(p);
		}
		check(!s.rels.includes('next') && !s.rels.includes('last'),
			`${p.label}: the last step still has a next: "${s.where}" ${s.rels}`);
	}
	await t.shot(rita.page, 'replay-since-desktop.png');
	axeFound.push(...await axeCheck(t, rita, 'since', axeResults));
	check(axeFound.length === 0, `axe-core violations:\n${axeFound.join('\n')}`);
});

require('./live.js')({ state, clickMove, register, createTable, join, CLICK_WAIT });

main();
