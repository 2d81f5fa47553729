// test.js — the browser tests; run by run.sh (make browser).
'use strict';

const { test, main, check, BASE } = require('./lib');

test('static files through nginx', 20000, async t => {
	const p = await t.player('visitor');
	const r = await p.page.goto(`${BASE}/static/site.css`);
	check(r && r.status() === 200, `GET /static/site.css: status ${r && r.status()}`);
	check(/text\/css/.test(r.headers()['content-type'] || ''),
		`GET /static/site.css: content-type ${r.headers()['content-type']}`);
});

main();
