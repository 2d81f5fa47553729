#!/bin/sh
# run.sh — what `make run` runs: the app and nginx in the foreground on
# http://127.0.0.1:$PORT/ (PORT from the environment, default 8080), with
# the database and everything else that changes under var/. Ctrl-C (or
# TERM) stops both; if either stops by itself, so does the other.
set -eu

cd "$(dirname "$0")/.."
ROOT=$(pwd)
VAR=$ROOT/var
PORT=${PORT:-8080}
BIN=build/spieltisch

die() {
	echo "run.sh: $*" >&2
	exit 1
}

case $PORT in
'' | *[!0-9]*) die "PORT must be a number, not '$PORT'" ;;
esac
[ "$PORT" -ge 1 ] && [ "$PORT" -le 65535 ] || die "PORT must be 1..65535"
[ -x "$BIN" ] || die "$BIN is missing: run make first"
command -v nginx >/dev/null 2>&1 || die "nginx is not installed: run make deps"

if command -v ss >/dev/null 2>&1 && [ -n "$(ss -Hltn "sport = :$PORT" 2>/dev/null)" ]; then
	die "port $PORT is already taken on this machine; choose another: PORT=8081 make run"
fi

mkdir -p "$VAR"
# One `make run` per checkout: a second one would rewrite the first's
# nginx.conf and pid file. (The app itself also refuses to start on a
# socket another server answers on.)
if command -v flock >/dev/null 2>&1; then
	exec 9>"$VAR/run.lock"
	flock -n 9 || die "another 'make run' is running in this checkout; stop it first (Ctrl-C)"
fi
# nginx's workers may run as another user (nobody, when started by root):
# they must be able to reach the socket inside var/.
chmod 0755 "$VAR"
rm -f "$VAR/nginx.pid"
NGINX_USER=
[ "$(id -u)" = 0 ] && NGINX_USER="user root;"
# The live channels when nginx has the Nchan module (libnginx-mod-nchan);
# without it, or with SPIELTISCH_NCHAN=off, the pages poll.
NCHAN="#"
PUBLISH=
if [ -f /usr/lib/nginx/modules/ngx_nchan_module.so ] && [ "${SPIELTISCH_NCHAN:-on}" != off ]; then
	NCHAN=
	PUBLISH="--publish unix:$VAR/live.sock"
fi
sed -e "s|@PORT@|$PORT|g" -e "s|@VAR@|$VAR|g" -e "s|@ROOT@|$ROOT|g" -e "s|@USER@|$NGINX_USER|g" \
	-e "s|@NCHAN@|$NCHAN|g" deploy/nginx.conf.in >"$VAR/nginx.conf"

APP_PID=
NGINX_PID=
stop() {
	trap - EXIT INT TERM
	[ -n "$NGINX_PID" ] && kill -TERM "$NGINX_PID" 2>/dev/null
	[ -n "$APP_PID" ] && kill -TERM "$APP_PID" 2>/dev/null
	[ -n "$NGINX_PID" ] && wait "$NGINX_PID" 2>/dev/null
	[ -n "$APP_PID" ] && wait "$APP_PID" 2>/dev/null
	echo "run.sh: stopped" >&2
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Both servers get SIGTERM when this script ends in any way, even killed
# with SIGKILL (setpriv's parent-death signal), and the app's workers when
# the app dies: nothing is left behind.
PDEATH=
if command -v setpriv >/dev/null 2>&1 && setpriv --pdeathsig TERM true 2>/dev/null; then
	PDEATH="setpriv --pdeathsig TERM"
fi

# shellcheck disable=SC2086
$PDEATH "$BIN" serve --socket var/spieltisch.sock --workers 2 --db var/spieltisch.db --root . $PUBLISH &
APP_PID=$!

i=0
until [ -S var/spieltisch.sock ]; do
	kill -0 "$APP_PID" 2>/dev/null || { APP_PID=; die "the app stopped at start (see above)"; }
	i=$((i + 1))
	[ $i -le 100 ] || die "the app made no socket at var/spieltisch.sock within 10 s"
	sleep 0.1
done

$PDEATH nginx -p "$VAR/" -c "$VAR/nginx.conf" -e "$VAR/nginx-error.log" -g 'daemon off;' &
NGINX_PID=$!
sleep 0.5
if ! kill -0 "$NGINX_PID" 2>/dev/null; then
	NGINX_PID=
	tail -n 5 "$VAR/nginx-error.log" >&2 2>/dev/null || true
	if grep -q "Address already in use" "$VAR/nginx-error.log" 2>/dev/null; then
		die "port $PORT is already taken; choose another: PORT=8081 make run"
	fi
	die "nginx did not start (log: var/nginx-error.log)"
fi

echo "Spieltisch läuft auf http://127.0.0.1:$PORT/  (Ctrl-C beendet)"
echo "  Datenbank: var/spieltisch.db, Protokolle: var/nginx-error.log, var/nginx-access.log"

while kill -0 "$APP_PID" 2>/dev/null && kill -0 "$NGINX_PID" 2>/dev/null; do
	sleep 1
done
echo "run.sh: one of the two stopped by itself" >&2
exit 1
