#!/bin/sh
# run.sh — the browser tests (`make browser`): real Chromium against the real
# app behind the real nginx config, all on 127.0.0.1.
#
# Starts its own `spieltisch serve` (2 workers, a fresh database) and its own
# nginx from deploy/nginx.conf.in per lane in a temporary directory, runs
# tests/browser/test.js once per lane, and stops them all on exit.
# Screenshots go to tests/out/.
# Prints "browser: N passed, M failed"; exits non-zero on any failure.
#
# Environment: CHROMIUM (default /usr/bin/chromium), BROWSER_ONLY (run only
# tests whose name contains this text), LANES (default 2: lanes, each an app,
# an nginx and a Chromium of its own, one test at a time in each),
# BROWSER_BOUND_SCALE (default 2: a test's bound times this, lib.js),
# KEEP=1 (keep the temporary directory), NGINX_CONF_IN (default
# deploy/nginx.conf.in). Passwords are hashed at libsodium's minimum cost
# here (SPIELTISCH_FAST_HASH, as in the integration tests).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"

CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
export CHROMIUM

die() {
	echo "browser: $*" >&2
	echo "browser: 0 passed, 1 failed"
	exit 1
}

# --- what the run needs ------------------------------------------------------
[ -x "$CHROMIUM" ] || die "Chromium not found at $CHROMIUM. Install Debian's package
  'chromium' (sh deploy/deps.sh test, or: apt-get install chromium), or set CHROMIUM."
command -v node >/dev/null 2>&1 || die "node not found (sh deploy/deps.sh test installs nodejs and npm)"
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || die "nginx not found (sh deploy/deps.sh run)"
NGINX=$(command -v nginx 2>/dev/null || echo /usr/sbin/nginx)
[ -x build/spieltisch ] || die "build/spieltisch is missing: run make first"
NGINX_CONF_IN=${NGINX_CONF_IN:-deploy/nginx.conf.in}
[ -f "$NGINX_CONF_IN" ] || die "$NGINX_CONF_IN is missing"

# playwright-core only (the browser is Debian's): installed once per checkout.
if [ ! -d "$here/node_modules/playwright-core" ] || [ ! -d "$here/node_modules/axe-core" ]; then
	command -v npm >/dev/null 2>&1 || die "npm not found (sh deploy/deps.sh test)"
	echo "browser: installing playwright-core into tests/browser/node_modules"
	if [ -f "$here/package-lock.json" ]; then
		(cd "$here" && timeout 300 npm ci --no-audit --no-fund --loglevel=error) ||
			die "npm ci failed"
	else
		(cd "$here" && timeout 300 npm install --no-audit --no-fund --loglevel=error) ||
			die "npm install failed"
	fi
fi

# --- a private app + nginx per lane ------------------------------------------
# LANES (default 2) lanes, each with its own app (2 workers, a fresh
# database), its own nginx on a free port of 127.0.0.1 and its own Chromium:
# the lanes share nothing but the machine, and each test runs in one of
# them (lib.js: a lane claims the next test, the longest first).
LANES=${LANES:-2}
case "$LANES" in 1|2|3|4) ;; *) die "LANES must be 1 to 4, not $LANES" ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/spieltisch-browser.XXXXXX")
app_pids=""
nginx_pids=""
node_pids=""

alive_any() {
	for p in $nginx_pids $app_pids; do
		kill -0 "$p" 2>/dev/null && return 0
	done
	return 1
}

stop() {
	for p in $node_pids; do
		kill -TERM "$p" 2>/dev/null || true
	done
	# nginx first (it stops taking requests), then the apps and their workers.
	for p in $nginx_pids; do
		kill -TERM "$p" 2>/dev/null || true
	done
	for p in $app_pids; do
		kill -TERM "$p" 2>/dev/null || true
	done
	i=0
	while [ $i -lt 50 ] && alive_any; do
		sleep 0.1
		i=$((i + 1))
	done
	# Whatever is left of any process group (setsid made each its own).
	for p in $nginx_pids $app_pids; do
		kill -KILL "-$p" 2>/dev/null || true
	done
	if [ "${KEEP:-0}" = 1 ]; then
		echo "browser: kept $tmp"
	else
		rm -rf "$tmp"
	fi
}
trap 'stop' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mkdir -p "$tmp/claims" tests/out
rm -f tests/out/fail-*.png   # only this run's failures
# nginx workers may run as another user (nobody): they must reach the socket.
chmod 0755 "$tmp"
nginx_user=
[ "$(id -u)" = 0 ] && nginx_user="user root;"

# start_lane N: lane N's app and nginx under $tmp/lane-N; its address is
# written to $tmp/lane-N/base.
start_lane() {
	d="$tmp/lane-$1"
	mkdir -p "$d/var" "$d/home"
	chmod 0755 "$d" "$d/var"
	# A free port on 127.0.0.1 (the kernel picks; nginx binds it a moment later).
	port=$(node -e '
const s = require("net").createServer();
s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });')
	[ -n "$port" ] || die "could not find a free port"
	# The live channels when nginx has Nchan (SPIELTISCH_NCHAN=off: the pages poll).
	nchan="#"
	publish=""
	if [ -f /usr/lib/nginx/modules/ngx_nchan_module.so ] && [ "${SPIELTISCH_NCHAN:-on}" != off ]; then
		nchan=""
		publish="--publish unix:$d/var/live.sock"
	fi
	sed -e "s|@PORT@|$port|g" -e "s|@VAR@|$d/var|g" -e "s|@ROOT@|$root|g" \
		-e "s|@USER@|$nginx_user|g" -e "s|@NCHAN@|$nchan|g" "$NGINX_CONF_IN" >"$d/nginx.conf"
	# Some forty accounts are registered by clicking, from 127.0.0.1: more
	# than the per-address limit on /register lets one address do in two
	# minutes. This run lifts that one limit (test_abuse tests the limits as
	# they ship).
	grep -q 'zone=st_register:1m rate=6r/m;' "$d/nginx.conf" ||
		die "deploy/nginx.conf.in has no st_register limit of 6r/m: update run.sh"
	sed -i 's|zone=st_register:1m rate=6r/m;|zone=st_register:1m rate=120r/m;|' "$d/nginx.conf"
	sock="$d/var/spieltisch.sock"
	grep -q "$sock" "$d/nginx.conf" || {
		# The config names the socket itself; use whatever path it gives.
		s=$(sed -n 's/.*unix:\([^;: ]*\).*/\1/p' "$d/nginx.conf" | head -n 1)
		[ -n "$s" ] && sock=$s
	}

	# shellcheck disable=SC2086
	SPIELTISCH_FAST_HASH=1 setsid build/spieltisch serve --socket "$sock" --workers 2 \
		--db "$d/var/spieltisch.db" --root "$root" $publish >"$d/app.log" 2>&1 &
	app=$!
	app_pids="$app_pids $app"

	i=0
	until [ -S "$sock" ]; do
		kill -0 "$app" 2>/dev/null || { cat "$d/app.log" >&2; die "the app exited at start"; }
		i=$((i + 1))
		[ $i -gt 100 ] && { cat "$d/app.log" >&2; die "no socket at $sock after 10 s"; }
		sleep 0.1
	done

	setsid "$NGINX" -p "$d/var" -c "$d/nginx.conf" -e "$d/nginx-error.log" \
		-g 'daemon off;' >"$d/nginx.log" 2>&1 &
	nginx_pids="$nginx_pids $!"

	base="http://127.0.0.1:$port"
	if ! node -e '
const http = require("http"), end = Date.now() + 10000;
(function probe() {
	http.get(process.argv[1], r => { r.resume(); process.exit(0); })
		.on("error", () => Date.now() > end ? process.exit(1) : setTimeout(probe, 100));
})();' "$base/"; then
		cat "$d/nginx.log" "$d/nginx-error.log" "$d/var/"*.log 2>/dev/null >&2 || true
		die "nginx did not answer on $base within 10 s"
	fi
	echo "$base" >"$d/base"
	echo "${publish:+1}" >"$d/live"
}

n=1
while [ $n -le "$LANES" ]; do
	start_lane $n
	n=$((n + 1))
done

# --- the tests ---------------------------------------------------------------
# One node per lane; each claims tests from $tmp/claims until none is left.
# Playwright gives Chromium a fresh --user-data-dir under TMPDIR: keep it in
# the lane's own. Each lane prints a test's lines whole when it ends, and
# "browser: N passed, M failed" into its result file.
t0=$(date +%s)
n=1
while [ $n -le "$LANES" ]; do
	d="$tmp/lane-$n"
	LIVE=$(cat "$d/live") TMPDIR="$d/home" BASE_URL="$(cat "$d/base")" OUT_DIR="$root/tests/out" \
		APP_LOG="$d/app.log" \
		LANE="$n" CLAIM_DIR="$tmp/claims" RESULT_FILE="$d/result" \
		timeout 1800 node "$here/test.js" &
	node_pids="$node_pids $!"
	n=$((n + 1))
done
rc=0
for p in $node_pids; do
	r=0
	wait "$p" || r=$?
	[ $r -eq 124 ] && echo "browser: a lane took longer than 1800 s and was stopped" >&2
	[ $r -ne 0 ] && rc=$r
done
node_pids=""
passed=0
failed=0
n=1
while [ $n -le "$LANES" ]; do
	d="$tmp/lane-$n"
	if [ -s "$d/result" ]; then
		read -r p f <"$d/result"
	else
		p=0 f=1   # the lane ended without a result: count it as a failure
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	if [ "$f" -ne 0 ] && [ -s "$d/app.log" ]; then
		echo "--- lane $n: app log (last 30 lines) ---" >&2
		tail -n 30 "$d/app.log" >&2
	fi
	n=$((n + 1))
done
echo "browser: $LANES lanes, $(($(date +%s) - t0)) s"
echo "browser: $passed passed, $failed failed"
[ $failed -eq 0 ] && [ $passed -gt 0 ] && [ $rc -eq 0 ]
