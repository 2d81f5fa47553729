// poll.js — notices other players' moves on a table page.
// The page's <body> carries data-poll (the poll URL), data-table (the
// table's GET URL), data-version (the version it shows) and data-alert (a
// word for the tab title, "Du bist dran!") and data-fresh (the title's mark
// for news that waits while the user types, "(neu)"). Every 2 s (every 15 s while the
// tab is hidden, longer after errors) it asks the poll URL; 204 means
// nothing changed, 200 means load the table's GET URL again. It never
// reloads the current entry (that could be a POST answer) and never sends a
// form: location.replace() of the GET URL, the scroll position kept.
// Without script the page's <noscript> meta refresh does the same more
// slowly, and only while the viewer cannot act.
(function () {
	'use strict';
	var body = document.body;
	var SCROLL_KEY = 'spieltisch-scroll';

	// The invite link: the full address and a copy button (the plain link
	// works without script). The buttons' words come from the page, in its
	// language (data-copy, data-copied, data-share of p.invite).
	var invite = document.querySelector('a.invite-link');
	if (invite) {
		var box = invite.closest('.invite') || invite.parentNode;
		var say = function (key, german) { return box.getAttribute('data-' + key) || german; };
		var full = invite.href;
		invite.textContent = full;
		var copy = document.createElement('button');
		copy.type = 'button';
		copy.className = 'copy';
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
			share.textContent = say('share', 'Teilen');
			share.addEventListener('click', function () {
				navigator.share({ title: document.title, url: full }).catch(function () {});
			});
			copy.parentNode.insertBefore(share, copy.nextSibling);
		}
	}

	var url = body && body.getAttribute('data-poll');
	if (!url) return;
	var table = body.getAttribute('data-table');
	var version = body.getAttribute('data-version') || '0';
	var alert = body.getAttribute('data-alert') || '';
	var baseTitle = document.title;
	var VISIBLE_MS = 2000, HIDDEN_MS = 15000, MAX_BACKOFF_MS = 60000;
	var failures = 0, timer = null, busy = false;

	// Back from our own reload: the reader stays where they were.
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
		document.title = alert && baseTitle.indexOf(alert) !== 0 ? alert + ' · ' + baseTitle : baseTitle;
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

	function delay() {
		var d = document.hidden ? HIDDEN_MS : VISIBLE_MS;
		if (failures > 0) d = Math.min(MAX_BACKOFF_MS, d * Math.pow(2, failures));
		return d;
	}

	function schedule() {
		if (timer) clearTimeout(timer);
		timer = setTimeout(poll, delay());
	}

	// A user typing a move is not interrupted: the reload waits until the
	// text field is empty or loses focus.
	function typing() {
		var el = document.activeElement;
		return el && el.tagName === 'INPUT' && el.type !== 'hidden' && el.value !== '';
	}

	function poll() {
		if (busy) return;
		busy = true;
		var xhr = new XMLHttpRequest();
		xhr.open('GET', url + '?v=' + encodeURIComponent(version));
		xhr.timeout = 10000;
		xhr.onload = function () {
			busy = false;
			if (xhr.status === 204) {
				failures = 0;
				schedule();
			} else if (xhr.status === 200) {
				failures = 0;
				if (typing()) {
					document.title = (body.getAttribute('data-fresh') || '(neu)') + ' ' + baseTitle;
					schedule();
				} else {
					reload();
				}
			} else {
				failures++;
				schedule();
			}
		};
		xhr.onerror = xhr.ontimeout = function () {
			busy = false;
			failures++;
			schedule();
		};
		xhr.send();
	}

	// A window's deadline counts down on the page; at zero the next poll
	// notices that the deadline has passed and the page reloads.
	var counters = document.querySelectorAll('[data-countdown]');
	if (counters.length) {
		var started = Date.now();
		setInterval(function () {
			var gone = Math.floor((Date.now() - started) / 1000);
			for (var i = 0; i < counters.length; i++) {
				var left = parseInt(counters[i].getAttribute('data-countdown'), 10) - gone;
				counters[i].textContent = String(Math.max(0, left));
			}
		}, 250);
	}

	document.addEventListener('visibilitychange', function () {
		if (!document.hidden) poll();
		else schedule();
	});
	title();
	schedule();
})();
