// poll.js — notices other players' moves on a table page.
// The page's <body> carries data-poll (the poll URL), data-version (the
// version it shows) and data-my-turn. Every 2 s (every 15 s while the tab
// is hidden, longer after errors) it asks the poll URL; 204 means nothing
// changed, 200 means reload. Without script the page's <noscript> meta
// refresh does the same more slowly.
(function () {
	'use strict';
	var body = document.body;
	var url = body && body.getAttribute('data-poll');
	if (!url) return;
	var version = body.getAttribute('data-version') || '0';
	var myTurn = body.getAttribute('data-my-turn') === '1';
	var baseTitle = document.title;
	var VISIBLE_MS = 2000, HIDDEN_MS = 15000, MAX_BACKOFF_MS = 60000;
	var failures = 0, timer = null, busy = false;

	function title() {
		document.title = myTurn ? 'Du bist dran! · ' + baseTitle : baseTitle;
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
					document.title = '(neu) ' + baseTitle;
					schedule();
				} else {
					window.location.reload();
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
