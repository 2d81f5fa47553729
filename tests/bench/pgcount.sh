#!/bin/sh
# pgcount.sh — the PostgreSQL server's instructions per request, counted by
# callgrind on the server's backend (docs/scaling.md, "The server's
# instructions per request"): the figure the bench's counts leave out (they
# count the app's process), and one that does not depend on what else the
# machine is doing.
#
#   sh tests/bench/pgcount.sh DB LIST TUPLES [N1 N2]
#
# DB: an SQLite database with the bench's data (its small history), LIST
# its list of users and pinned tables (bench.sh's "page SLUG TABLE VERSION
# USER" and "user I ID TOKEN CSRF" lines), TUPLES a directory of the bench's
# prepared moves (moves-SLUG.tsv; an empty one counts the reads only). Starts a throw-away cluster
# (tests/pg/cluster.sh), copies DB into it (spieltisch migrate), and runs
# the server again under callgrind (autovacuum off: no process but the
# request's backend works while it runs; its dump is told by its pid). Each figure is the difference of two runs
# of build/bench/pageprof, N2 and N1 requests on one connection (default
# 60 and 10), divided by N2 - N1: the connection's start, its statements'
# preparing and their first plans cancel out. A move's two runs start from
# fresh clones of the same data. Prints one line a row:
#   server|json:SLUG|instructions a request
#   server|page:SLUG|…
#   server|move:SLUG|…
# Needs valgrind and PostgreSQL (deploy/deps.sh test); about 5 minutes.
set -eu
cd "$(dirname "$0")/../.."
[ $# -ge 3 ] || { echo "usage: pgcount.sh DB LIST TUPLES [N1 N2]" >&2; exit 2; }
DB=$1 LIST=$2 TUPLES=$3 N1=${4:-10} N2=${5:-60}
ROOT=$(pwd) PROF=build/bench/pageprof
[ -x "$PROF" ] && [ -x build/spieltisch ] || { echo "pgcount.sh: make all build/bench/pageprof first" >&2; exit 1; }
W=$(mktemp -d "${TMPDIR:-/tmp}/spieltisch-pgcount.XXXXXX")
chmod 755 "$W"   # the cluster's owner (cluster.sh) goes through it
PG_USER=${PG_USER:-nobody}
BIN=
as_owner() {
	if [ "$(id -u)" -eq 0 ]; then
		setpriv --reuid="$PG_USER" --regid="$(id -g "$PG_USER")" --clear-groups \
			env HOME="$W/pg" "$@"
	else
		"$@"
	fi
}
stop_all() {
	[ -z "$BIN" ] || as_owner "$BIN/pg_ctl" -D "$W/pg/data" -m fast -w -t 120 stop \
		> /dev/null 2>&1 || true
	sh tests/pg/cluster.sh stop "$W/pg" > /dev/null 2>&1 || true
	rm -rf "$W"
}
trap stop_all EXIT INT TERM

URI=$(sh tests/pg/cluster.sh start "$W/pg")
# the server's programs as cluster.sh finds them
BIN=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5 -n -r | head -n 1)}
[ -n "$BIN" ] || BIN=$(dirname "$(command -v pg_ctl)")
cp "$DB" "$W/src.db"
build/spieltisch migrate --from "$W/src.db" --to "$URI" --root "$ROOT" > "$W/migrate.log" 2>&1 ||
	{ tail -n 5 "$W/migrate.log" >&2; exit 1; }
psql -q -X "$URI" -c "ALTER SYSTEM SET autovacuum = off" > /dev/null
as_owner "$BIN/pg_ctl" -D "$W/pg/data" -m fast -w -t 60 stop > /dev/null
mkdir -p "$W/cg"
[ "$(id -u)" -ne 0 ] || chown "$PG_USER" "$W/cg"
(cd "$W/cg" && as_owner valgrind --tool=callgrind --callgrind-out-file="$W/cg/pg.%p" \
	"$BIN/postgres" -D "$W/pg/data" > "$W/valgrind.log" 2>&1) &
n=0
until psql -q -X -At "$URI" -c "SELECT 1" > /dev/null 2>&1; do
	n=$((n + 1))
	[ "$n" -le 600 ] || { echo "pgcount.sh: the server did not start under valgrind" >&2; exit 1; }
	sleep 0.2
done

# A pid given out now: the kernel hands them out in order, up to pid_max
# (32768 by default), then from the bottom again, which a busy machine
# reaches in minutes: a pid is between two fresh ones in that order.
fresh_pid() { sh -c 'echo $$'; }
between() { # P P0 P1
	if [ "$2" -lt "$3" ]; then [ "$1" -gt "$2" ] && [ "$1" -lt "$3" ]
	else [ "$1" -gt "$2" ] || [ "$1" -lt "$3" ]; fi
}
# The instructions of the backend of one run of pageprof (its arguments):
# the dump of the one process the server started while it ran (its pid
# between two fresh ones), once callgrind has written it (at most 120 s).
# The dumps before it are removed first, so that none of an earlier round
# of pids is taken for it.
backend_ir() {
	rm -f "$W"/cg/pg.*
	p0=$(fresh_pid)
	"$PROF" "$@" > "$W/prof.log" 2>&1 || { cat "$W/prof.log" >&2; exit 1; }
	p1=$(fresh_pid)
	n=0
	while :; do
		ir=$(for f in "$W"/cg/pg.*; do
			[ -e "$f" ] || continue
			p=${f##*.}
			between "$p" "$p0" "$p1" && awk '/^totals:/ { print $2 }' "$f"
		done | sort -n | tail -n 1)
		[ -z "$ir" ] || break
		n=$((n + 1))
		[ "$n" -le 600 ] || { echo "pgcount.sh: the backend's dump did not come" >&2; exit 1; }
		sleep 0.2
	done
	echo "$ir"
}
admin() { psql -q -X -v ON_ERROR_STOP=1 "$URI" -c "$1" > /dev/null; }
cookie() { awk -v i="$1" '$1 == "user" && $2 == i { print "st=" $4 "; lang=de" }' "$LIST"; }

while read -r kind slug tid _ uidx; do
	[ "$kind" = page ] || continue
	for accept in application/json text/html; do
		key=json; [ "$accept" = text/html ] && key=page
		a=$(backend_ir --db "$URI" --root "$ROOT" --path "/t/$tid" --cookie "$(cookie "$uidx")" \
			--accept "$accept" --n "$N1")
		b=$(backend_ir --db "$URI" --root "$ROOT" --path "/t/$tid" --cookie "$(cookie "$uidx")" \
			--accept "$accept" --n "$N2")
		echo "server|$key:$slug|$(((b - a) / (N2 - N1)))"
	done
done < "$LIST"
MV=$(echo "$URI" | sed 's|/spieltisch?|/mv?|')
for t in "$TUPLES"/moves-*.tsv; do
	[ -e "$t" ] || continue   # (a directory without moves: the reads only)
	slug=$(basename "$t" .tsv | sed 's/^moves-//')
	for n in "$N1" "$N2"; do
		admin "DROP DATABASE IF EXISTS mv"
		admin "CREATE DATABASE mv TEMPLATE spieltisch"
		eval "ir_$n=\$(backend_ir --db \"\$MV\" --root \"\$ROOT\" --moves \"\$t\" --n \"\$n\")"
	done
	eval "a=\$ir_$N1 b=\$ir_$N2"
	echo "server|move:$slug|$(((b - a) / (N2 - N1)))"
done
