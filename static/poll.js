// poll.js — keeps a table page (and "Meine Tische", a tournament's page)
// up to date while it is open, in place.
//
// The page's <body> carries data-poll (the poll URL), data-table (the
// page's GET URL), data-version (the version it shows), data-alert (a word
// for the tab title, "Du bist dran!") and, when the server pushes,
// data-live (its live channel, docs/api.md "Live channels").
//
// How it learns of a change: with data-live, an EventSource on the
// channel (a long-poll of it where the browser has no EventSource); each
// message is the version the poll would answer. Without data-live, or
// when the channel fails (an nginx without Nchan), it polls as before:
// every 2 s (15 s while the tab is hidden, longer after errors) 204 means
// nothing changed, 200 that it did. Pushed or not, it asks the poll once
// a minute too, when the tab is shown again and when a countdown ran out.
//
// How it shows a change: it fetches the GET URL and morphs the body into
// the new one (idiomorph, static/idiomorph.min.js): what did not change
// stays as it is, with the focus, the scroll position, an opened
// <details>, what was typed, ticked or chosen in a form and a click in
// progress. A morph
// waits while a pointer is down and does not happen once a form is sent or
// a link followed (the browser is leaving: nothing is aborted). Where the
// morph cannot be done, it loads the GET URL (location.replace, the scroll
// position kept), never re-sending a form. After each update in place the
// document gets the event "spieltisch:updated".
//
// Without script the page's <noscript> meta refresh does the same more
// slowly, and only while the viewer cannot act.
(function () {
	'use strict';
	var body = document.body;
	var SCROLL_KEY = 'spieltisch-scroll';

	// The invite link: the full address and a copy button (the plain link
	// works without script). The buttons' words come from the page, in its
	// language (data-copy, data-copied, data-share of p.invite). Again after
	// each morph: the buttons are the page's own (data-local, never
	// removed by a morph), the link's text is the server's again.
	function enhanceInvite() {
		var invite = document.querySelector('a.invite-link');
		if (!invite) return;
		var full = invite.href;
		invite.textContent = full;
		if (invite.nextSibling && invite.nextSibling.nodeType === 1 &&
			invite.nextSibling.hasAttribute('data-local')) return;
		var box = invite.closest('.invite') || invite.parentNode;
		var say = function (key, german) { return box.getAttribute('data-' + key) || german; };
		var copy = document.createElement('button');
		copy.type = 'button';
		copy.className = 'copy';
		copy.setAttribute('data-local', '');
		copy.textContent = say('copy', 'Link kopieren');
		copy.addEventListener('click', function () {
			function done() { copy.textContent = say('copied', 'Kopiert'); }
			if (navigator.clipboard && window.isSecureContext) {
				navigator.clipboard.writeText(full).then(done, function () {});
				return;
			}
			var t = document.createElement('textarea');
			t.value = full;
			document.body.appendChild(t);
			t.select();
			try { if (document.execCommand('copy')) done(); } catch (e) { /* nothing */ }
			document.body.removeChild(t);
		});
		invite.parentNode.insertBefore(copy, invite.nextSibling);
		// Where the device can share (phones), a share button too.
		if (navigator.share) {
			var share = document.createElement('button');
			share.type = 'button';
			share.className = 'copy';
			share.setAttribute('data-local', '');
			share.textContent = say('share', 'Teilen');
			share.addEventListener('click', function () {
				navigator.share({ title: document.title, url: full }).catch(function () {});
			});
			copy.parentNode.insertBefore(share, copy.nextSibling);
		}
	}
	enhanceInvite();

	var url = body && body.getAttribute('data-poll');
	if (!url) return;
	var table = body.getAttribute('data-table');
	var live = body.getAttribute('data-live') || '';
	var version = Number(body.getAttribute('data-version') || '0');
	var VISIBLE_MS = 2000, HIDDEN_MS = 15000, MAX_BACKOFF_MS = 60000, CHECK_MS = 60000;
	var failures = 0, timer = null, polling = false, pushed = false;

	// Back from a reload of ours: the reader stays where they were.
	try {
		var kept = sessionStorage.getItem(SCROLL_KEY);
		sessionStorage.removeItem(SCROLL_KEY);
		if (kept && !location.hash) {
			var k = JSON.parse(kept);
			if (k.path === location.pathname) window.scrollTo(0, k.y);
		}
	} catch (e) { /* no storage: the page starts at the top */ }

	function title() {
		// (the server already puts it first: the page without script has it too)
		var alert = document.body.getAttribute('data-alert') || '';
		var t = document.title;
		document.title = alert && t.indexOf(alert) !== 0 ? alert + ' · ' + t : t;
	}

	function reload() {
		if (!table) return;
		try {
			sessionStorage.setItem(SCROLL_KEY,
				JSON.stringify({ path: location.pathname, y: window.scrollY }));
		} catch (e) { /* fine */ }
		// A URL without fragment: a real load of the GET URL, never a re-POST.
		window.location.replace(table);
	}

	// ---- the update in place ---------------------------------------------

	var fetching = false, again = false, stale = false, waiting = null;
	var pointerDown = 0, leftAt = 0;

	// The user is on the way out (a form sent, a link followed): the page
	// is left alone; if the browser stays after all, updates resume.
	function leaving() { return leftAt && Date.now() - leftAt < 10000; }
	document.addEventListener('submit', function () { leftAt = Date.now(); }, true);
	document.addEventListener('click', function (e) {
		var a = e.target && e.target.closest && e.target.closest('a[href]');
		if (a && !a.hasAttribute('data-local') && !e.defaultPrevented &&
			a.getAttribute('href').charAt(0) !== '#') leftAt = Date.now();
	});
	// A pointer held down (a click being made) holds the morph back, at
	// most 5 s (a pointer whose release the page never saw).
	document.addEventListener('pointerdown', function () { pointerDown = Date.now(); }, true);
	function held() { return pointerDown && Date.now() - pointerDown < 5000; }
	function pointerDone() {
		// after the click that ends it (and the submit it may start)
		setTimeout(function () { pointerDown = 0; if (waiting) apply(waiting[0], waiting[1]); }, 0);
	}
	document.addEventListener('pointerup', pointerDone, true);
	document.addEventListener('pointercancel', pointerDone, true);
	window.addEventListener('pageshow', function (e) {
		if (e.persisted) { leftAt = 0; update(); }
	});

	// What the user entered (not what the server put there): text typed
	// into fields, boxes ticked or unticked, a choice in a list; by form
	// and name (and value for boxes), to be put back after a morph.
	function key(el) {
		return (el.form ? el.form.getAttribute('action') : '') + '\n' + el.name +
			(el.type === 'checkbox' || el.type === 'radio' ? '\n' + el.value : '');
	}

	function typed() {
		var out = [];
		var els = document.querySelectorAll('input, textarea, select');
		for (var i = 0; i < els.length; i++) {
			var el = els[i];
			if (!el.name || el.type === 'hidden') continue;
			if (el.type === 'checkbox' || el.type === 'radio') {
				if (el.checked !== el.defaultChecked) out.push({ key: key(el), checked: el.checked });
			} else if (el.tagName === 'SELECT') {
				var o = el.options[el.selectedIndex];
				if (o && !o.defaultSelected) out.push({ key: key(el), value: el.value });
			} else if (el.value !== el.defaultValue) {
				out.push({ key: key(el), value: el.value });
			}
		}
		return out;
	}

	function putBack(list) {
		if (!list.length) return;
		var els = document.querySelectorAll('input, textarea, select');
		for (var i = 0; i < list.length; i++) {
			for (var j = 0; j < els.length; j++) {
				if (key(els[j]) !== list[i].key) continue;
				if ('checked' in list[i]) els[j].checked = list[i].checked;
				else els[j].value = list[i].value;
				break;
			}
		}
	}

	function morph(doc) {
		window.Idiomorph.morph(document.body, doc.body, {
			morphStyle: 'outerHTML',
			ignoreActiveValue: true,
			restoreFocus: true,
			callbacks: {
				// a <details> the reader opened stays open
				beforeAttributeUpdated: function (attr, el, how) {
					return !(attr === 'open' && how === 'remove' && el.tagName === 'DETAILS');
				},
				// the page's own additions (the invite buttons) stay
				beforeNodeRemoved: function (n) {
					return !(n.nodeType === 1 && n.hasAttribute('data-local'));
				}
			}
		});
	}

	function apply(html, sent) {
		waiting = null;
		if (leaving()) return;
		if (held()) { waiting = [html, sent]; return; }
		var doc = new DOMParser().parseFromString(html, 'text/html');
		if (!doc.body || !doc.body.getAttribute('data-poll')) { reload(); return; }
		var keep = typed();
		try {
			morph(doc);
		} catch (e) {
			reload();
			return;
		}
		putBack(keep);
		document.title = doc.title;
		var icon = doc.querySelector('link[rel="icon"]'), mine = document.querySelector('link[rel="icon"]');
		if (icon && mine && mine.getAttribute('href') !== icon.getAttribute('href'))
			mine.setAttribute('href', icon.getAttribute('href'));
		version = Number(document.body.getAttribute('data-version') || version);
		title();
		armCountdowns(sent);
		enhanceInvite();
		try { document.dispatchEvent(new CustomEvent('spieltisch:updated')); } catch (e) { /* old browser */ }
	}

	// Fetches the page and morphs it in; one fetch at a time, a change
	// announced meanwhile fetches again after it.
	function update() {
		if (!table) return;
		if (document.hidden) { stale = true; return; }
		if (!window.Idiomorph || !window.fetch || !window.DOMParser) { reload(); return; }
		if (fetching) { again = true; return; }
		fetching = true;
		stale = false;
		var sent = Date.now();
		fetch(table, { credentials: 'same-origin', cache: 'no-store', headers: { Accept: 'text/html' } })
			.then(function (r) {
				if (r.status !== 200 || r.redirected) throw new Error('status ' + r.status);
				return r.text();
			})
			.then(function (html) {
				fetching = false;
				apply(html, sent);
				if (again) { again = false; update(); }
			}, function () {
				fetching = false;
				again = false;
				if (!leaving()) reload();
			});
	}

	// A version from the channel or the poll: newer than the page's?
	function news(v) {
		var n = Number(String(v).trim());
		if (isFinite(n) && n > version) update();
	}

	// ---- the poll ----------------------------------------------------------

	function delay() {
		if (pushed) return CHECK_MS;
		var d = document.hidden ? HIDDEN_MS : VISIBLE_MS;
		if (failures > 0) d = Math.min(MAX_BACKOFF_MS, d * Math.pow(2, failures));
		return d;
	}

	function schedule() {
		if (timer) clearTimeout(timer);
		timer = setTimeout(poll, delay());
	}

	function poll() {
		if (polling) return;
		polling = true;
		var xhr = new XMLHttpRequest();
		xhr.open('GET', url + '?v=' + encodeURIComponent(String(version)));
		xhr.timeout = 10000;
		xhr.onload = function () {
			polling = false;
			if (xhr.status === 204 || xhr.status === 200) {
				failures = 0;
				if (xhr.status === 200) update();
			} else {
				failures++;
			}
			schedule();
		};
		xhr.onerror = xhr.ontimeout = function () {
			polling = false;
			failures++;
			schedule();
		};
		xhr.send();
	}

	// ---- the channel ---------------------------------------------------------

	// Back to polling every 2 s: the channel does not work here.
	function unpushed() {
		if (!pushed) return;
		pushed = false;
		poll();
	}

	function subscribe() {
		if (window.EventSource) {
			var es = new EventSource(live), opened = false, errors = 0;
			es.onopen = function () {
				if (opened) poll();   // a reconnection: what was missed meanwhile
				opened = true;
				errors = 0;
			};
			es.onmessage = function (e) { errors = 0; news(e.data); };
			es.onerror = function () {
				// refused (no Nchan: the app's 404) or gone for good: poll
				if (!opened || es.readyState === 2 || ++errors > 5) {
					es.close();
					unpushed();
				}
			};
			return;
		}
		// Nchan's long-poll: each answer one message, the next request asks
		// for what came after it (Last-Modified and Etag).
		var since = null, tag = null, fails = 0;
		(function next() {
			var x = new XMLHttpRequest();
			x.open('GET', live);
			if (since) {
				x.setRequestHeader('If-Modified-Since', since);
				x.setRequestHeader('If-None-Match', tag || '0');
			}
			x.timeout = 70000;
			x.onload = function () {
				if (x.status === 200) {
					since = x.getResponseHeader('Last-Modified');
					tag = x.getResponseHeader('Etag');
					fails = 0;
					news(x.responseText);
					next();
				} else if (x.status === 304 || x.status === 408) {
					next();
				} else {
					unpushed();
				}
			};
			x.onerror = x.ontimeout = function () {
				if (++fails > 3) unpushed();
				else setTimeout(next, 2000 * fails);
			};
			x.send();
		})();
	}

	// ---- countdowns --------------------------------------------------------

	// A window's deadline counts down on the page, from the seconds the
	// server gave when it made the page (`base`: when it was asked for);
	// a second after zero the page is fetched again (that request applies
	// the passed deadline).
	var ends = [], due = 0;
	function armCountdowns(base) {
		ends = [];
		due = 0;
		var els = document.querySelectorAll('[data-countdown]');
		for (var i = 0; i < els.length; i++) {
			var end = base + 1000 * parseInt(els[i].getAttribute('data-countdown'), 10);
			if (!isFinite(end)) continue;
			ends.push({ el: els[i], end: end });
			if (!due || end < due) due = end;
		}
	}
	armCountdowns(Date.now());
	setInterval(function () {
		var now = Date.now();
		for (var i = 0; i < ends.length; i++)
			ends[i].el.textContent = String(Math.max(0, Math.ceil((ends[i].end - now) / 1000)));
		if (due && now >= due + 1000) {
			due = 0;
			if (pushed) update(); else poll();
		}
	}, 250);

	document.addEventListener('visibilitychange', function () {
		if (document.hidden) { schedule(); return; }
		if (stale) update();
		poll();
	});
	title();
	if (live) {
		pushed = true;
		subscribe();
	}
	schedule();
})();
