#!/bin/sh
# pgcpu.sh — the CPU a request costs, by process group, on SQLite and on
# PostgreSQL side by side (docs/benchmarks.md, "PostgreSQL: where a read's
# CPU goes, and its round trips"): a figure that holds on a busy machine,
# where the rates swing with what else runs.
#
#   sh tests/bench/pgcpu.sh DB LIST TUPLES RUN...
#
# DB: an SQLite database with the bench's data (its small history), LIST its
# list (bench.sh's "page SLUG TABLE VERSION USER" and "user I ID TOKEN CSRF"
# lines), TUPLES a directory of its prepared moves (moves-SLUG.tsv). Each RUN
# is SIDE:LABEL:BINARY:WORKERS, SIDE sq (a fresh copy of DB) or pg (a fresh
# clone of DB copied into a throw-away cluster, tests/pg/cluster.sh), e.g.
# "sq:main:build/spieltisch:2 pg:new:build/spieltisch:4". PGCPU_ROUNDS rounds
# (2); the runs' order turns round each round (A B C, then C B A), so that
# two builds are measured in alternation. In each run: nginx (the project's
# template) and the app, then for each pinned table its page and its JSON
# (wrk, PGCPU_DURATION seconds, 3, 16 connections), then each game's moves
# (at most the 2,000 prepared). Around each row the user and system time
# (utime + stime of /proc/PID/stat) and the voluntary and involuntary
# context switches (/proc/PID/status) of each group: the app (master and
# workers), PostgreSQL (the postmaster and its children), nginx (master and
# worker) and wrk (its own rusage). One line a row and run:
#   cpu|round|label|side|row|requests|app|app sys|pg|pg sys|nginx|wrk|app vcs|app ics|pg vcs|pg ics
# (microseconds a request, user + system and the system part of it; context
# switches a request); at the end each
# label, side and row's median over the rounds (the "med" lines).
# PGCPU_ROWS: patterns of the rows measured ("*"; e.g. "json:* move:dna").
set -eu
cd "$(dirname "$0")/../.."
[ $# -ge 4 ] || { echo "usage: pgcpu.sh DB LIST TUPLES SIDE:LABEL:BINARY:WORKERS..." >&2; exit 2; }
DB=$1 LIST=$2 TUPLES=$3
shift 3
RUNS=$*
ROUNDS=${PGCPU_ROUNDS:-2} DUR=${PGCPU_DURATION:-3} CONN=16
ROWS=${PGCPU_ROWS:-*}
ROOT=$(pwd) HZ=$(getconf CLK_TCK)
W=$(mktemp -d "${TMPDIR:-/tmp}/spieltisch-pgcpu.XXXXXX")
chmod 755 "$W"
mkdir -p "$W/var"
chmod 755 "$W/var"
SOCK=$W/var/spieltisch.sock
APP= NGINX= PORT=${PGCPU_PORT:-18917}
stop_pid() { # PID
	[ -n "$1" ] || return 0
	kill "$1" 2> /dev/null || true
	n=0
	while kill -0 "$1" 2> /dev/null && [ "$n" -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
	kill -KILL "$1" 2> /dev/null || true
	wait "$1" 2> /dev/null || true
}
stop_all() {
	stop_pid "$APP"
	[ -z "$NGINX" ] || kill -QUIT "$NGINX" 2> /dev/null || true
	[ -z "$NGINX" ] || wait "$NGINX" 2> /dev/null || true
	sh tests/pg/cluster.sh stop "$W/pg" > /dev/null 2>&1 || true
	rm -rf "$W"
}
trap stop_all EXIT
trap 'exit 130' INT TERM

port_open() {
	hex=$(printf '%04X' "$PORT")
	cat /proc/net/tcp /proc/net/tcp6 2> /dev/null |
		awk -v p=":$hex" 'substr($2, length($2) - 4) == p && $4 == "0A" { f = 1 } END { exit !f }'
}
n=0
while port_open && [ "$n" -lt 50 ]; do PORT=$((PORT + 1)); n=$((n + 1)); done
u=
[ "$(id -u)" = 0 ] && u="user root;"
sed -e "s|@PORT@|$PORT|g" -e "s|@VAR@|$W/var|g" -e "s|@ROOT@|$ROOT|g" -e "s|@USER@|$u|g" \
	-e "s|@NCHAN@|#|g" deploy/nginx.conf.in > "$W/nginx.conf"
nginx -p "$W/var/" -c "$W/nginx.conf" -e "$W/var/nginx-error.log" -g 'daemon off;' &
NGINX=$!
n=0
until port_open; do
	n=$((n + 1))
	[ "$n" -le 100 ] || { echo "pgcpu.sh: nginx did not start" >&2; exit 1; }
	sleep 0.1
done

URI=$(sh tests/pg/cluster.sh start "$W/pg")
cp "$DB" "$W/src.db"
build/spieltisch migrate --from "$W/src.db" --to "$URI" --root "$ROOT" > "$W/migrate.log" 2>&1 ||
	{ tail -n 5 "$W/migrate.log" >&2; exit 1; }
PM=$(head -n 1 "$W/pg/data/postmaster.pid")
for t in "$TUPLES"/moves-*.tsv; do
	awk -F'\t' -v n="$CONN" -v f="$W/$(basename "$t")" '{ print > (f "." n "." ($1 % n + 1)) }' "$t"
	cp "$t" "$W/"
done

# The pids of these processes and of their children, one line.
group() {
	cat /proc/[0-9]*/stat 2> /dev/null | awk -v want=" $* " '{
		pid = $1; sub(/^.*\) /, "")
		if (index(want, " " pid " ") || index(want, " " $2 " ")) printf "%s ", pid }'
}
# "user system vcs ics" of a group's processes now (clock ticks, switches).
use() {
	u=0 t=0 v=0 i=0
	for p in $(group "$@"); do
		s=$(sed 's/^.*) //' "/proc/$p/stat" 2> /dev/null) || continue
		c=$(awk '/^voluntary_ctxt_switches/ { v = $2 } /^nonvoluntary_ctxt_switches/ { i = $2 }
			END { print v + 0, i + 0 }' "/proc/$p/status" 2> /dev/null) || continue
		set -- $s
		u=$((u + ${12})) t=$((t + ${13}))
		v=$((v + ${c% *})) i=$((i + ${c#* }))
	done
	echo "$u $t $v $i"
}
cookie() { awk -v i="$1" '$1 == "user" && $2 == i { print "st=" $4 }' "$LIST"; }

# row ROUND LABEL SIDE KEY PATH COOKIE [TUPLES]
row() {
	hit=0
	set -f   # (the patterns are not file names)
	for pat in $ROWS; do
		case $4 in $pat) hit=1 ;; esac
	done
	set +f
	[ "$hit" = 1 ] || return 0
	a0=$(use "$APP") p0=$(use "$PM") n0=$(use "$NGINX")
	if [ -n "${7:-}" ]; then
		out=$(BENCH_EXPECT=303 BENCH_TUPLES=$7 BENCH_THREADS=$CONN /usr/bin/time -f 'TIME %U %S' \
			timeout $((DUR + 60)) wrk -t"$CONN" -c"$CONN" -d"${DUR}s" -s tests/bench/wrk.lua \
			"http://127.0.0.1:$PORT$5" 2>&1) || true
	else
		out=$(BENCH_EXPECT=200 BENCH_THREADS=$CONN /usr/bin/time -f 'TIME %U %S' \
			timeout $((DUR + 60)) wrk -t"$CONN" -c"$CONN" -d"${DUR}s" -s tests/bench/wrk.lua \
			-H "Cookie: $6" "http://127.0.0.1:$PORT$5" 2>&1) || true
	fi
	a1=$(use "$APP") p1=$(use "$PM") n1=$(use "$NGINX")
	printf '%s\n' "$out" | awk -v r="$1" -v l="$2" -v s="$3" -v k="$4" -v hz="$HZ" \
		-v a="$a0 $a1" -v p="$p0 $p1" -v n="$n0 $n1" '
		/^BENCH / { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			q = v["requests"]; e = v["socket_errors"] + v["status_errors"] }
		/^TIME / { w = $2 + $3 }
		END {
			if (q <= 0) { printf "cpu|%s|%s|%s|%s|0\n", r, l, s, k; exit }
			split(a, A, " "); split(p, P, " "); split(n, N, " ")
			u = 1e6 / hz / q
			printf "cpu|%s|%s|%s|%s|%d|%.0f|%.0f|%.0f|%.0f|%.0f|%.0f|%.2f|%.2f|%.2f|%.2f%s\n", r, l, s, k, q,
				(A[5] + A[6] - A[1] - A[2]) * u, (A[6] - A[2]) * u,
				(P[5] + P[6] - P[1] - P[2]) * u, (P[6] - P[2]) * u,
				(N[5] + N[6] - N[1] - N[2]) * u, w * 1e6 / q,
				(A[7] - A[3]) / q, (A[8] - A[4]) / q, (P[7] - P[3]) / q, (P[8] - P[4]) / q,
				e ? " errors " e : "" }'
}

# one_run ROUND SIDE:LABEL:BINARY:WORKERS
one_run() {
	IFS=: read -r side label bin workers <<EOF
$2
EOF
	if [ "$side" = sq ]; then
		cp "$DB" "$W/run.db"
		db=$W/run.db
	else
		psql -q -X "$URI" -c "DROP DATABASE IF EXISTS run" > /dev/null
		psql -q -X -v ON_ERROR_STOP=1 "$URI" -c "CREATE DATABASE run TEMPLATE spieltisch" > /dev/null
		db=$(echo "$URI" | sed 's|/spieltisch?|/run?|')
	fi
	rm -f "$SOCK"
	"$bin" serve --socket "$SOCK" --workers "$workers" --db "$db" --root "$ROOT" 2>> "$W/serve.log" &
	APP=$!
	n=0
	until [ -S "$SOCK" ]; do
		n=$((n + 1))
		[ "$n" -le 200 ] && kill -0 "$APP" 2> /dev/null || { echo "pgcpu.sh: the app did not start" >&2; exit 1; }
		sleep 0.05
	done
	while read -r kind slug tid _ uidx; do
		[ "$kind" = page ] || continue
		row "$1" "$label" "$side" "page:$slug" "/t/$tid" "$(cookie "$uidx")"
		row "$1" "$label" "$side" "json:$slug" "/t/$tid.json" "$(cookie "$uidx")"
	done < "$LIST"
	for t in "$W"/moves-*.tsv; do
		slug=$(basename "$t" .tsv | sed 's/^moves-//')
		row "$1" "$label" "$side" "move:$slug" / "" "$t"
	done
	stop_pid "$APP"
	APP=
}

r=1
while [ "$r" -le "$ROUNDS" ]; do
	order=$RUNS
	[ $((r % 2)) = 0 ] && order=$(for x in $RUNS; do echo "$x"; done | tac | tr '\n' ' ')
	for x in $order; do
		one_run "$r" "$x" | tee -a "$W/cpu"
	done
	r=$((r + 1))
done
# each label, side and row: the median of its rounds, field by field
sort -t'|' -k3,3 -k4,4 -k5,5 -k2,2n "$W/cpu" | awk -F'|' '
	function flush(   i, j, m, f) {
		if (!c) return
		m = int((c + 1) / 2); line = "med|" key
		for (f = 6; f <= 16; f++) {
			for (i = 1; i <= c; i++) s[i] = x[i, f]
			for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++) if (s[j] < s[i]) { t = s[i]; s[i] = s[j]; s[j] = t }
			line = line "|" s[m]
		}
		print line; c = 0 }
	{ k = $3 "|" $4 "|" $5; if (k != key) { flush(); key = k }
		c++; for (f = 6; f <= 16; f++) x[c, f] = $f + 0 }
	END { flush() }'
