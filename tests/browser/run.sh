#!/bin/sh
# run.sh — the browser tests (`make browser`): real Chromium against the real
# app behind the real nginx config, all on 127.0.0.1.
#
# Starts its own `spieltisch serve` (2 workers, a fresh database) and its own
# nginx from deploy/nginx.conf.in in a temporary directory, runs
# tests/browser/test.js, and stops both on exit. Screenshots go to tests/out/.
# Prints "browser: N passed, M failed"; exits non-zero on any failure.
#
# Environment: CHROMIUM (default /usr/bin/chromium), BROWSER_ONLY (run only
# tests whose name contains this text), LANES (tests at a time, default 1),
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

# --- a private app + nginx ---------------------------------------------------
tmp=$(mktemp -d "${TMPDIR:-/tmp}/spieltisch-browser.XXXXXX")
app_pid=""
nginx_pid=""

stop() {
	# nginx first (it stops taking requests), then the app and its workers.
	if [ -n "$nginx_pid" ] && kill -0 "$nginx_pid" 2>/dev/null; then
		kill -TERM "$nginx_pid" 2>/dev/null || true
	fi
	if [ -n "$app_pid" ] && kill -0 "$app_pid" 2>/dev/null; then
		kill -TERM "$app_pid" 2>/dev/null || true
	fi
	i=0
	while [ $i -lt 50 ]; do
		alive=""
		[ -n "$nginx_pid" ] && kill -0 "$nginx_pid" 2>/dev/null && alive=1
		[ -n "$app_pid" ] && kill -0 "$app_pid" 2>/dev/null && alive=1
		[ -z "$alive" ] && break
		sleep 0.1
		i=$((i + 1))
	done
	# Whatever is left of either process group (setsid made each its own).
	[ -n "$nginx_pid" ] && kill -KILL "-$nginx_pid" 2>/dev/null || true
	[ -n "$app_pid" ] && kill -KILL "-$app_pid" 2>/dev/null || true
	if [ "${KEEP:-0}" = 1 ]; then
		echo "browser: kept $tmp"
	else
		rm -rf "$tmp"
	fi
}
trap 'stop' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mkdir -p "$tmp/var" "$tmp/home" tests/out
rm -f tests/out/fail-*.png   # only this run's failures
# nginx workers may run as another user (nobody): they must reach the socket.
chmod 0755 "$tmp" "$tmp/var"

# A free port on 127.0.0.1 (the kernel picks; nginx binds it a moment later).
port=$(node -e '
const s = require("net").createServer();
s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });')
[ -n "$port" ] || die "could not find a free port"

nginx_user=
[ "$(id -u)" = 0 ] && nginx_user="user root;"
# The live channels when nginx has Nchan (SPIELTISCH_NCHAN=off: the pages poll).
nchan="#"
publish=""
if [ -f /usr/lib/nginx/modules/ngx_nchan_module.so ] && [ "${SPIELTISCH_NCHAN:-on}" != off ]; then
	nchan=""
	publish="--publish unix:$tmp/var/live.sock"
fi
sed -e "s|@PORT@|$port|g" -e "s|@VAR@|$tmp/var|g" -e "s|@ROOT@|$root|g" \
	-e "s|@USER@|$nginx_user|g" -e "s|@NCHAN@|$nchan|g" "$NGINX_CONF_IN" >"$tmp/nginx.conf"
# Some forty accounts are registered by clicking, two tests at a time, all
# from 127.0.0.1: more than the per-address limit on /register lets one
# address do in two minutes. This run lifts that one limit (test_abuse tests
# the limits as they ship).
grep -q 'zone=st_register:1m rate=6r/m;' "$tmp/nginx.conf" ||
	die "deploy/nginx.conf.in has no st_register limit of 6r/m: update run.sh"
sed -i 's|zone=st_register:1m rate=6r/m;|zone=st_register:1m rate=120r/m;|' "$tmp/nginx.conf"
sock="$tmp/var/spieltisch.sock"
grep -q "$sock" "$tmp/nginx.conf" || {
	# The config names the socket itself; use whatever path it gives.
	s=$(sed -n 's/.*unix:\([^;: ]*\).*/\1/p' "$tmp/nginx.conf" | head -n 1)
	[ -n "$s" ] && sock=$s
}

# shellcheck disable=SC2086
SPIELTISCH_FAST_HASH=1 setsid build/spieltisch serve --socket "$sock" --workers 2 --db "$tmp/var/spieltisch.db" \
	--root "$root" $publish >"$tmp/app.log" 2>&1 &
app_pid=$!

i=0
until [ -S "$sock" ]; do
	kill -0 "$app_pid" 2>/dev/null || { cat "$tmp/app.log" >&2; die "the app exited at start"; }
	i=$((i + 1))
	[ $i -gt 100 ] && { cat "$tmp/app.log" >&2; die "no socket at $sock after 10 s"; }
	sleep 0.1
done

setsid "$NGINX" -p "$tmp/var" -c "$tmp/nginx.conf" -e "$tmp/nginx-error.log" \
	-g 'daemon off;' >"$tmp/nginx.log" 2>&1 &
nginx_pid=$!

base="http://127.0.0.1:$port"
if ! node -e '
const http = require("http"), end = Date.now() + 10000;
(function probe() {
	http.get(process.argv[1], r => { r.resume(); process.exit(0); })
		.on("error", () => Date.now() > end ? process.exit(1) : setTimeout(probe, 100));
})();' "$base/"; then
	cat "$tmp/nginx.log" "$tmp/nginx-error.log" "$tmp/var/"*.log 2>/dev/null >&2 || true
	die "nginx did not answer on $base within 10 s"
fi

# --- the tests ---------------------------------------------------------------
# Playwright gives Chromium a fresh --user-data-dir under TMPDIR: keep it in ours.
rc=0
LIVE=${publish:+1} TMPDIR="$tmp/home" BASE_URL="$base" OUT_DIR="$root/tests/out" APP_LOG="$tmp/app.log" \
	timeout 900 node "$here/test.js" || rc=$?
if [ $rc -eq 124 ]; then
	echo "browser: the run took longer than 900 s and was stopped" >&2
	echo "browser: 0 passed, 1 failed"
fi
if [ $rc -ne 0 ] && [ -s "$tmp/app.log" ]; then
	echo "--- app log (last 30 lines) ---" >&2
	tail -n 30 "$tmp/app.log" >&2
fi
exit $rc
