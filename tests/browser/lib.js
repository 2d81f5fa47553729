// lib.js — a small test runner around playwright-core and Debian's Chromium.
//
// Each test gets a `t` with t.player(name): a fresh browser context (its own
// cookies) with one page. When a test fails, every page it opened is dumped:
// its address, its visible text and a screenshot under tests/out/.
'use strict';

const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

const BASE = process.env.BASE_URL || 'http://127.0.0.1:8080';
const OUT = process.env.OUT_DIR || path.join(__dirname, '..', 'out');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const ONLY = process.env.BROWSER_ONLY || '';
const LIVE = process.env.LIVE === '1';   // the server pushes (nginx with Nchan)

const ARGS = [
	'--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
	'--disable-background-networking', '--disable-component-update', '--disable-sync',
];

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

// A test's whole bound (its second argument) is for a quiet machine; it is
// there to stop a test that hangs, not to time it. On a busy one (a make
// test beside other builds, load 25 to 30) Chat and Rematch took longer
// than their 60 and 90 s while every step still went on: the bound is
// BOUND_SCALE times the given one (default 2). The order of the tests
// (longest bound first) is the given bounds'.
const BOUND_SCALE = Math.max(1, Number(process.env.BROWSER_BOUND_SCALE) || 2);

const tests = [];
function test(name, timeoutMs, fn) {
	tests.push({ name, timeoutMs, fn });
}

function slug(s) {
	return s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

function sleep(ms) {
	return new Promise(r => setTimeout(r, ms));
}

// Retries fn until it returns a truthy value or the time is up; exceptions
// (a page in the middle of a navigation) count as "not yet".
async function until(what, timeoutMs, fn, stepMs = 100) {
	const end = Date.now() + timeoutMs;
	let last;
	for (;;) {
		try {
			const v = await fn();
			if (v) return v;
		} catch (e) {
			last = e;
		}
		if (Date.now() > end)
			throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}` +
				(last ? ` (last error: ${String(last.message).split('\n')[0]})` : ''));
		await sleep(stepMs);
	}
}

function check(cond, msg) {
	if (!cond) throw new Error(msg);
}

async function visibleText(page) {
	try {
		return await page.evaluate(() => document.body ? document.body.innerText : '');
	} catch (e) {
		return `(no text: ${String(e.message).split('\n')[0]})`;
	}
}

const usedLabels = new Set();

class T {
	constructor(browser, name) {
		this.browser = browser;
		this.name = name;
		this.players = [];
		this.notes = [];
		this.said = [];   // printed whole when the test ends (runOne)
	}

	say(s) {
		this.said.push(s);
	}

	// A user with a context of their own. Every page load is counted so a test
	// can tell a reload the page did by itself from one the test caused.
	// opts go to the browser context, e.g. { javaScriptEnabled: false }.
	//
	// opts.live: the page may use the live channel (docs/api.md) when the
	// server has one (LIVE=1 from run.sh). Without it the channel answers
	// 404, as behind an nginx without Nchan: the page polls. An update in
	// place (the event "spieltisch:updated") counts as a load.
	async player(label, viewport = DESKTOP, opts = {}) {
		// A lane's tests share its server, and a label is the account's name:
		// one test each, in whichever lane (a claim file in CLAIM_DIR, as for
		// the tests), so that a name taken twice fails every run, not only
		// when the two tests happen to share a lane.
		if (usedLabels.has(label) || !claimName(`player-${label}`))
			throw new Error(`player "${label}" is used by another test`);
		usedLabels.add(label);
		const { live, ...ctxOpts } = opts;
		const context = await this.browser.newContext({ viewport, locale: 'de-DE', ...ctxOpts });
		// A click, fill or read waits up to 30 s for the page (as test.js's
		// CLICK_WAIT): on a machine at load 25 Chromium took over 10 s to
		// act on a page that was there.
		context.setDefaultTimeout(30000);
		context.setDefaultNavigationTimeout(15000);
		const p = { label, context, page: null, loads: 0, polls: 0, errors: [], live: !!live && LIVE };
		if (!p.live)
			await context.route(/\/live\//, r => r.fulfill({ status: 404, contentType: 'text/html', body: 'no channel' }));
		await context.exposeBinding('__stUpdated', () => { p.loads++; });
		await context.addInitScript(() => {
			document.addEventListener('spieltisch:updated', () => {
				window.__stUpdates = (window.__stUpdates || 0) + 1;
				if (window.__stUpdated) window.__stUpdated();
			});
		});
		const page = await context.newPage();
		p.page = page;
		page.on('load', () => { p.loads++; });
		// The table pages' poll (static/poll.js) asks by XHR: each answer is
		// one round of the page's own update, what a test waits for instead
		// of a fixed time (pageUpdate, pollRounds).
		page.on('response', r => { if (r.request().resourceType() === 'xhr') p.polls++; });
		// Script errors and CSP violations; a failed sub-resource by its address.
		page.on('pageerror', e => p.errors.push(String(e.message)));
		page.on('console', m => {
			if (m.type() === 'error' && !/^Failed to load resource/.test(m.text()) &&
				!(!p.live && /EventSource/.test(m.text())))
				p.errors.push(m.text());
		});
		page.on('response', r => {
			if (r.status() >= 400 && r.request().resourceType() !== 'document' &&
				!(!p.live && r.url().includes('/live/')))
				p.errors.push(`${r.status()} ${r.url().replace(BASE, '')}`);
		});
		page.on('requestfailed', r => {
			// A poll cut short by a reload is normal.
			const why = (r.failure() || {}).errorText || '';
			if (!/ERR_ABORTED/.test(why)) p.errors.push(`${why} ${r.url().replace(BASE, '')}`);
		});
		this.players.push(p);
		return p;
	}

	note(s) {
		this.notes.push(s);
		this.say(`    ${s}`);
	}

	async shot(page, file, fullPage = true) {
		fs.mkdirSync(OUT, { recursive: true });
		const f = path.join(OUT, file);
		await page.screenshot({ path: f, fullPage });
		return f;
	}

	async shotOf(locator, file) {
		fs.mkdirSync(OUT, { recursive: true });
		const f = path.join(OUT, file);
		await locator.screenshot({ path: f });
		return f;
	}

	async dump() {
		for (const p of this.players) {
			const f = `fail-${slug(this.name)}-${slug(p.label)}.png`;
			let saved = '';
			try {
				saved = await this.shot(p.page, f);
			} catch (e) {
				saved = `(no screenshot: ${String(e.message).split('\n')[0]})`;
			}
			this.say(`  --- ${p.label}: ${p.page.url()}  title: ${await p.page.title().catch(() => '?')}`);
			this.say(`      screenshot: ${saved}`);
			if (p.errors.length)
				this.say(`      page errors: ${[...new Set(p.errors)].slice(0, 8).join(' | ')}`);
			const text = (await visibleText(p.page)).trim();
			this.say(text.split('\n').slice(0, 60).map(l => `      | ${l}`).join('\n'));
		}
	}

	async close() {
		for (const p of this.players)
			await p.context.close().catch(() => {});
	}
}

// Runs one test; what it says is kept and printed whole when it ends, so
// two lanes do not interleave their lines. Returns true when it passed.
async function runOne(browser, tc) {
	const t = new T(browser, tc.name);
	const start = Date.now();
	console.log(`browser: ${tc.name} ...`);
	const took = () => `(${((Date.now() - start) / 1000).toFixed(1)} s)`;
	let timer, ok = false;
	try {
		await Promise.race([
			tc.fn(t),
			new Promise((_, rej) => {
				timer = setTimeout(() => rej(new Error(`test took longer than ${tc.timeoutMs * BOUND_SCALE} ms`)),
					tc.timeoutMs * BOUND_SCALE);
			}),
		]);
		ok = true;
		t.say(`browser: ok   ${tc.name} ${took()}`);
	} catch (e) {
		t.say(`browser: FAIL ${tc.name} ${took()}`);
		t.say(`  ${String(e.stack || e).split('\n').slice(0, 4).join('\n  ')}`);
		// a page that hangs must not hold the run: each step is bounded
		await Promise.race([t.dump(), sleep(20000)]);
	} finally {
		clearTimeout(timer);
		await Promise.race([t.close(), sleep(20000)]);
	}
	console.log(t.said.join('\n'));
	return ok;
}

// Loads url in p's page. A page that polls may be reloading itself at that
// moment (its table just changed), which aborts the navigation or
// interrupts it: then it tries again, at most three times. Every test loads
// a table's page with it: with two lanes the machine is slower and the
// Phone test's plain goto lost that race (ERR_ABORTED).
async function gotoSettled(p, url) {
	for (let i = 0; ; i++) {
		try {
			await p.page.goto(url);
			return;
		} catch (e) {
			if (i >= 2 || !/ERR_ABORTED|interrupted by another navigation/.test(String(e))) throw e;
			// the page's own navigation first, then ours again
			await p.page.waitForLoadState('load').catch(() => {});
		}
	}
}

// Waits until one of the pages ps updates by itself: a poll answered or a
// page loaded. A loop that found nothing to do on the pages waits with this
// for the next news, not for a fixed time.
async function pageUpdate(ps, timeoutMs = 15000) {
	const seen = ps.map(p => p.loads + p.polls);
	await until(`an update of ${ps.map(p => p.label).join(', ')}'s pages`, timeoutMs,
		async () => ps.some((p, i) => p.loads + p.polls > seen[i]), 50);
}

// Waits until each of the pages ps has finished n more rounds of its poll
// (a reload counts as one): what "nothing changed" is checked over.
// A page on its live channel polls only now and then: it is asked to, as
// when its tab is shown again (each round one poll of its own).
async function pollRounds(ps, n, timeoutMs = 20000) {
	const seen = ps.map(p => p.loads + p.polls);
	for (let k = 1; k <= n; k++) {
		for (const p of ps.filter(x => x.live))
			await p.page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
		await until(`${n} poll rounds of ${ps.map(p => p.label).join(', ')}'s pages`, timeoutMs,
			async () => ps.every((p, i) => p.loads + p.polls >= seen[i] + k), 50);
	}
}

// Sets the viewport and waits until the page has it (what is read of the
// layout afterwards, a width or a screenshot, lays the page out first).
// Asked from here, not by waitForFunction or an animation frame: a page
// without script runs neither.
async function resize(page, size) {
	await page.setViewportSize(size);
	await until(`the page at ${size.width} px`, 5000,
		() => page.evaluate(w => window.innerWidth === w, size.width), 50);
}

// This process is one lane (run.sh starts LANES of them, each with its own
// app, nginx and Chromium): it runs one test at a time. A lane takes a test
// only when it made the test's claim file in CLAIM_DIR (shared by the
// lanes, 'wx': one of them wins), so each test runs once, in whichever lane
// is free first; the longest (by their bounds) go first, so that no lane is
// left with a long one at the end. Without CLAIM_DIR this lane runs them
// all. Its counts go to RESULT_FILE ("passed failed") for run.sh to add up.
function claim(i) {
	return claimName(String(i));
}

function claimName(name) {
	const dir = process.env.CLAIM_DIR;
	if (!dir) return true;
	try {
		fs.closeSync(fs.openSync(path.join(dir, name), 'wx'));
		return true;
	} catch (e) {
		if (e.code === 'EEXIST') return false;
		throw e;
	}
}

async function main() {
	const lane = process.env.LANE ? `lane ${process.env.LANE}: ` : '';
	const finish = (passed, failed) => {
		if (process.env.RESULT_FILE) fs.writeFileSync(process.env.RESULT_FILE, `${passed} ${failed}\n`);
		console.log(`browser: ${lane}${passed} passed, ${failed} failed`);
		process.exit(failed || (passed === 0 && !process.env.CLAIM_DIR) ? 1 : 0);
	};
	if (!fs.existsSync(CHROMIUM)) {
		console.log(`browser: Chromium not found at ${CHROMIUM} (Debian package "chromium")`);
		finish(0, 1);
	}
	const t0 = Date.now();
	// launch() gives Chromium a fresh --user-data-dir of its own under TMPDIR
	// (run.sh points that into the lane's temporary directory) and refuses
	// one in ARGS; it is removed when the browser closes.
	const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
	const queue = tests.map((tc, i) => ({ tc, i }))
		.filter(({ tc }) => !ONLY || tc.name.includes(ONLY))
		.sort((a, b) => b.tc.timeoutMs - a.tc.timeoutMs || a.i - b.i);
	let passed = 0, failed = 0;
	for (const { tc, i } of queue) {
		if (!claim(i)) continue;
		if (await runOne(browser, tc)) passed++;
		else failed++;
	}
	// Closing has been seen to hang after failed tests: ten seconds, then on
	// (playwright kills the browser when this process exits).
	await Promise.race([browser.close().catch(() => {}), sleep(10000)]);
	console.log(`browser: ${lane}run took ${((Date.now() - t0) / 1000).toFixed(1)} s`);
	finish(passed, failed);
}

module.exports = {
	test, main, until, sleep, check, visibleText, gotoSettled, pageUpdate, pollRounds, resize,
	BASE, OUT, DESKTOP, PHONE, LIVE,
};
