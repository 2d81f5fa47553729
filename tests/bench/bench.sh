#!/bin/sh
# bench.sh — `make bench`: what Spieltisch serves through real nginx on
# 127.0.0.1, measured with wrk, next to the limit a hello-world FastCGI
# responder reaches with the same workers behind the same nginx config.
#
# Prints one table and writes it, with the machine, the versions and the
# command, into docs/benchmarks.md between the "bench:begin/end" markers
# (the text around them is kept).
#
# The goals are in report.sh, which judges each row.
#
# Knobs (environment): BENCH_DURATION seconds per run (5), BENCH_CONNECTIONS
# (16), BENCH_THREADS wrk threads for the GET runs (= connections; the move
# runs always use one connection per thread), BENCH_WORKERS FastCGI workers
# (the number of cores), BENCH_HISTORY the large history (1000000 finished
# parties), BENCH_SIM_GAMES parties per sim run (3000), BENCH_BOT_GAMES
# parties per level for the bot moves (300), BENCH_BOT_VS_GAMES parties
# per player count for the bot strength (1000), BENCH_PORT (18517),
# BENCH_PEER=0 skips the peer (boardgame.io, section 6b, needs node and
# npm; BENCH_PEER_PORT 18617), BENCH_OPENLOOP=0 skips the open-loop rows
# (each table page, JSON and move again at half its measured rate, on a
# fixed schedule: open_measure), BENCH_PROFILE=0 skips the instruction counts
# (callgrind), BENCH_KEEP=1
# keeps the scratch directory. BENCH_PROFILE_ONLY=1 runs only the pinned
# setup and the instruction counts (no rates, no history: every count on
# the setup database, 2000 prepared moves a game), prints the "ir" lines
# (and the scale rows' counts over the drehwurm page's, "ir-ratio") and
# writes nothing into docs/benchmarks.md: the quick way to compare the
# counts of two commits (docs/benchmarks.md, "Pinned positions");
# BENCH_PROFILE_KEYS='move:*' (a shell pattern) counts only those keys.
# BENCH_PG=0 skips the PostgreSQL column (docs/benchmarks.md, "PostgreSQL"):
# otherwise the pinned setup, as the table/JSON/move rows measure it, is
# copied with `spieltisch migrate` into a throw-away cluster
# (tests/pg/cluster.sh) and the same rows are counted and rated there, and
# moves/s of two app instances behind one upstream against one.
# BENCH_PG_PAIRS=N runs only that column against SQLite, pair by pair, N
# rounds (section 4e; docs/scaling.md, "After the table-scoped locks").
# BENCH_PG_WORKERS: the app's workers in the PostgreSQL column's rates (2 ×
# BENCH_WORKERS): each engine with the workers it runs best with on these
# cores (docs/scaling.md, "How many workers against PostgreSQL").
#
# The scale rows (docs/benchmarks.md, "Scale rows"): a tournament page of
# 1,000 players after 10 rounds, its JSON, and /me of a user at 200
# tables, on a copy of the small history's database with their data
# (gen scale), each after the small history's own rows.
#
# Everything it starts listens on 127.0.0.1 or a unix socket in a scratch
# directory and is stopped on exit; every wait is bounded.
set -eu

B=${B:-build}
BIN=$B/spieltisch
HELLO=$B/bench/hello
GEN=$B/bench/gen
LIVE=$B/bench/live
LUA=tests/bench/wrk.lua
TEMPLATE=deploy/nginx.conf.in
DOC=docs/benchmarks.md

DUR=${BENCH_DURATION:-5}
CONN=${BENCH_CONNECTIONS:-16}
# One connection per wrk thread: a thread sends its requests strictly one
# after the other, so each table's prepared moves arrive in order.
THREADS=${BENCH_THREADS:-$CONN}
# The open loop: as many connections from two wrk threads (each thread's
# connections take its slots in turn, so a slow answer holds up none of the
# sends behind it), fewer threads beside the server on the cores; its
# moves keep each table's order by a queue a table (wrk.lua).
OPEN_THREADS=${BENCH_OPEN_THREADS:-2}
WORKERS=${BENCH_WORKERS:-$(nproc)}
PG_WORKERS=${BENCH_PG_WORKERS:-$((2 * WORKERS))}
HIST_SMALL=1000
HIST_LARGE=${BENCH_HISTORY:-1000000}
PORT=${BENCH_PORT:-18517}
SIM_GAMES=${BENCH_SIM_GAMES:-3000}
BOT_GAMES=${BENCH_BOT_GAMES:-300}
BOT_VS_GAMES=${BENCH_BOT_VS_GAMES:-1000}
ONLY=${BENCH_PROFILE_ONLY:-0}
# BENCH_PG_PAIRS=N: only the PostgreSQL pairs (pg_pairs below), N rounds
PAIRS=${BENCH_PG_PAIRS:-0}
[ "$PAIRS" -gt 0 ] && ONLY=1

for f in "$BIN" "$HELLO" "$GEN" "$LIVE" "$TEMPLATE"; do
	[ -e "$f" ] || { echo "bench: $f is missing" >&2; exit 1; }
done
for c in wrk nginx sqlite3; do
	command -v "$c" >/dev/null 2>&1 || { echo "bench: $c is not installed" >&2; exit 1; }
done

ROOT=$(pwd)
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
W=$(mktemp -d "${TMPDIR:-/tmp}/spieltisch-bench.XXXXXX")
mkdir -p "$W/var" "$W/tuples"
# nginx's workers may run as another user: they must reach the socket.
chmod 755 "$W" "$W/var"
SOCK=$W/var/spieltisch.sock
RES=$W/results
: > "$RES"
SERVER_PID=
NGINX_PID=
PEER_PID=
SERVER2_PID=
PG_DIR=
PG_ON=0

stop_server() {
	if [ -n "$SERVER_PID" ]; then
		kill "$SERVER_PID" 2>/dev/null || true
		wait_gone "$SERVER_PID"
		SERVER_PID=
	fi
}

stop_nginx() {
	if [ -n "$NGINX_PID" ]; then
		kill -QUIT "$NGINX_PID" 2>/dev/null || true
		wait_gone "$NGINX_PID"
		NGINX_PID=
	fi
}

stop_peer() {
	if [ -n "$PEER_PID" ]; then
		kill "$PEER_PID" 2>/dev/null || true
		wait_gone "$PEER_PID"
		PEER_PID=
	fi
}

# Waits up to 10 s for a process to end, then kills it.
wait_gone() {
	n=0
	while kill -0 "$1" 2>/dev/null && [ "$n" -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	kill -KILL "$1" 2>/dev/null || true
	wait "$1" 2>/dev/null || true
}

cleanup() {
	stop_server
	stop_server2
	quota_cleanup
	[ -z "$PG_DIR" ] || sh tests/pg/cluster.sh stop "$PG_DIR" > /dev/null 2>&1 || true
	stop_nginx
	stop_peer
	if [ "${BENCH_KEEP:-0}" = 1 ]; then
		echo "bench: scratch kept in $W" >&2
	else
		rm -rf "$W"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

now_s() { date +%s; }
log() { echo "bench: $*" >&2; }

# ---- nginx: the project's own config template, filled in ----

start_nginx() {
	# Another server may hold the port: take the next free one.
	n=0
	while port_open && [ "$n" -lt 50 ]; do
		PORT=$((PORT + 1))
		n=$((n + 1))
	done
	nginx_user=
	[ "$(id -u)" = 0 ] && nginx_user="user root;"
	sed -e "s|@PORT@|$PORT|g" -e "s|@VAR@|$W/var|g" -e "s|@ROOT@|$ROOT|g" \
		-e "s|@USER@|$nginx_user|g" -e "s|@NCHAN@|${NGINX_NCHAN-#}|g" "$TEMPLATE" > "$W/nginx.conf"
	# NGINX_SECOND: a second app socket in the upstream (two instances)
	[ -z "${NGINX_SECOND:-}" ] ||
		sed -i "s|^\([[:space:]]*\)server unix:$W/var/spieltisch.sock;|&\n\1server unix:$NGINX_SECOND;|" \
			"$W/nginx.conf"
	if grep -q '^[[:space:]]*daemon[[:space:]]' "$W/nginx.conf"; then
		nginx -p "$W/var/" -c "$W/nginx.conf" -e "$W/var/nginx-error.log" &
	else
		nginx -p "$W/var/" -c "$W/nginx.conf" -e "$W/var/nginx-error.log" -g 'daemon off;' &
	fi
	NGINX_PID=$!
	n=0
	until port_open; do
		n=$((n + 1))
		if [ "$n" -gt 100 ] || ! kill -0 "$NGINX_PID" 2>/dev/null; then
			log "nginx did not start:"
			cat "$W/var/nginx-error.log" >&2 2>/dev/null || true
			exit 1
		fi
		sleep 0.1
	done
}

# 1 when something listens on PORT (state 0A in /proc/net/tcp, tcp6).
port_open() {
	hex=$(printf '%04X' "$PORT")
	cat /proc/net/tcp /proc/net/tcp6 2>/dev/null |
		awk -v p=":$hex" 'substr($2, length($2) - 4) == p && $4 == "0A" { f = 1 } END { exit !f }'
}

# ---- the FastCGI side: hello-world or spieltisch serve ----

# wait_socket [SOCKET PID]: until the server PID (default $SERVER_PID)
# listens on SOCKET (default $SOCK).
wait_socket() {
	n=0
	until [ -S "${1:-$SOCK}" ]; do
		n=$((n + 1))
		if [ "$n" -gt 200 ] || ! kill -0 "${2:-$SERVER_PID}" 2>/dev/null; then
			log "the FastCGI server did not start (${1:-$SOCK})"
			exit 1
		fi
		sleep 0.05
	done
	sleep 0.3
}

start_hello() {
	rm -f "$SOCK"
	"$HELLO" --socket "$SOCK" --workers "$WORKERS" &
	SERVER_PID=$!
	wait_socket
}

start_app() {
	rm -f "$SOCK"
	"$BIN" serve --socket "$SOCK" --workers "$WORKERS" --db "$1" --root "$ROOT" \
		2>> "$W/serve.log" &
	SERVER_PID=$!
	wait_socket
}

# BENCH_PAIRS_QUOTA=P: each pinned instance also gets P % of its core at
# most (a cgroup's CPU quota, shared by its master and workers), so that it
# stands for an app machine that is the bottleneck: on this machine's two
# cores PostgreSQL, nginx and wrk share the cores with the instances, and
# without a quota the server's work, not the app's, bounds the moves
# (docs/scaling.md, "The server's instructions per request"). Needs root
# and the cpu controller (cgroup v1 or v2); without them the instance runs
# unbounded and pgskip2 says so. quota_dir CPU: the instance's cgroup,
# made on first use, removed at the end (quota_cleanup).
quota_dir() {
	[ -n "${BENCH_PAIRS_QUOTA:-}" ] || return 0
	base=
	if [ -w /sys/fs/cgroup/cpu/cgroup.procs ]; then
		base=/sys/fs/cgroup/cpu
	elif grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
		base=/sys/fs/cgroup
	fi
	[ -n "$base" ] || { echo "pgskip2|no cgroup cpu controller: BENCH_PAIRS_QUOTA not applied" >> "$RES"; return 0; }
	d=$base/spieltisch-bench-$$-$1
	if [ ! -d "$d" ]; then
		mkdir "$d" || return 0
		q=$((BENCH_PAIRS_QUOTA * 1000))
		if [ -e "$d/cpu.cfs_quota_us" ]; then
			echo 100000 > "$d/cpu.cfs_period_us" && echo "$q" > "$d/cpu.cfs_quota_us"
		else
			echo "$q 100000" > "$d/cpu.max"
		fi
	fi
	echo "$d"
}
quota_cleanup() {
	for d in /sys/fs/cgroup/cpu/spieltisch-bench-$$-* /sys/fs/cgroup/spieltisch-bench-$$-*; do
		[ ! -d "$d" ] || rmdir "$d" 2>/dev/null || true
	done
}

# start_app_pinned CPU DB SOCKET WORKERS [2]: an app instance whose master
# and workers run on CPU only (taskset); "2" makes it the second instance
# (SERVER2_PID) on its own socket. With BENCH_PAIRS_QUOTA, in CPU's cgroup
# (quota_dir): the shell moves itself there and becomes the server.
start_app_pinned() {
	rm -f "$3"
	cg=$(quota_dir "$1")
	CG=$cg taskset -c "$1" sh -c '[ -z "$CG" ] || echo $$ > "$CG/cgroup.procs"; exec "$@"' sh \
		"$BIN" serve --socket "$3" --workers "$4" --db "$2" --root "$ROOT" \
		2>> "$W/serve.log" &
	if [ "${5:-1}" = 2 ]; then
		SERVER2_PID=$!
		wait_socket "$3" "$SERVER2_PID"
	else
		SERVER_PID=$!
		wait_socket
	fi
}

stop_server2() {
	if [ -n "$SERVER2_PID" ]; then
		kill "$SERVER2_PID" 2>/dev/null || true
		wait_gone "$SERVER2_PID"
		SERVER2_PID=
	fi
}

# The server's worker processes (its children), one pid a line.
worker_pids() {
	for d in /proc/[0-9]*; do
		[ -r "$d/stat" ] || continue
		ppid=$(sed -e 's/^.*) [A-Za-z] \([0-9]*\) .*$/\1/' "$d/stat" 2>/dev/null) || continue
		[ "$ppid" = "$SERVER_PID" ] && echo "${d#/proc/}"
	done
	return 0
}

# Largest resident set of the server's worker processes, and the largest
# private part of one (Private_Clean + Private_Dirty of smaps_rollup: what
# the worker alone holds; the rest are pages it shares with the master and
# the other workers: libraries, and what the master loaded before the fork,
# the catalogs, the templates and the German lexicon), in KiB: "rss|private".
# Without smaps_rollup the private part is RssAnon (an upper bound).
worker_rss_kib() {
	max=0
	priv=0
	for d in /proc/[0-9]*; do
		[ -r "$d/stat" ] || continue
		ppid=$(sed -e 's/^.*) [A-Za-z] \([0-9]*\) .*$/\1/' "$d/stat" 2>/dev/null) || continue
		[ "$ppid" = "$SERVER_PID" ] || continue
		r=$(awk '/^VmRSS:/ { print $2 }' "$d/status" 2>/dev/null) || continue
		if [ -r "$d/smaps_rollup" ]; then
			a=$(awk '/^Private_(Clean|Dirty):/ { s += $2 } END { print s + 0 }' \
				"$d/smaps_rollup" 2>/dev/null) || continue
		else
			a=$(awk '/^RssAnon:/ { print $2 }' "$d/status" 2>/dev/null) || continue
		fi
		[ -n "$r" ] && [ "$r" -gt "$max" ] && max=$r
		[ -n "$a" ] && [ "$a" -gt "$priv" ] && priv=$a
	done
	echo "$max|$priv"
}

# ---- one wrk run ----
# measure KEY LABEL EXPECT PATH COOKIE [TUPLES]: appends one result line
# KEY|LABEL|rps|p50_us|p99_us|errors|codes|exhausted
measure() {
	key=$1 label=$2 expect=$3 path=$4 cookie=$5 tuples=${6:-}
	if [ -n "$tuples" ]; then
		# Always one connection per thread here (see wrk.lua); where each
		# thread stopped goes to a file, for the open-loop run after it.
		out=$(BENCH_EXPECT=$expect BENCH_TUPLES=$tuples BENCH_THREADS=$CONN \
			BENCH_TUPLES_STATE="$W/tuples-state-${key#*:}" \
			timeout $((DUR + 60)) wrk -t"$CONN" -c"$CONN" -d"${DUR}s" --latency \
			-s "$LUA" "http://127.0.0.1:$PORT$path" 2>&1) || true
	else
		out=$(BENCH_EXPECT=$expect BENCH_THREADS=$THREADS \
			timeout $((DUR + 60)) wrk -t"$THREADS" -c"$CONN" -d"${DUR}s" --latency \
			-s "$LUA" -H "Cookie: $cookie" "http://127.0.0.1:$PORT$path" 2>&1) || true
	fi
	line=$(printf '%s\n' "$out" | grep '^BENCH ' || true)
	if [ -z "$line" ]; then
		log "$label: wrk gave no result:"
		printf '%s\n' "$out" >&2
		echo "$key|$label|0|0|0|-1|none|0" >> "$RES"
		return 0
	fi
	printf '%s\n' "$line" | awk -v key="$key" -v label="$label" '{
		for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		printf "%s|%s|%.1f|%d|%d|%d|%s|%d\n", key, label, v["rps"], v["p50_us"],
			v["p99_us"], v["socket_errors"] + v["status_errors"], v["codes"], v["exhausted"]
	}' >> "$RES"
	log "$(tail -n 1 "$RES")"
}

note() { echo "note|$*" >> "$RES"; }

# ---- one open-loop run ----
# open_measure KEY LABEL EXPECT PATH COOKIE [TUPLES]: the row KEY once more,
# at half the rate its (closed-loop) run just measured, on a fixed
# schedule (wrk.lua BENCH_RATE: each wrk thread its share, whatever the
# answers take), with as many connections from OPEN_THREADS wrk threads; the
# moves go on where that run stopped, each table's in order (wrk.lua
# BENCH_TABLE_QUEUES: a table's next move after the answer to its last). Appends one line
# open|KEY|LABEL|offered|achieved|p50_us|p99_us|errors|codes|exhausted|late|late_max_us|load
# (load: the 1-minute load average as the run ended). BENCH_OPENLOOP=0
# skips it.
open_measure() {
	[ "${BENCH_OPENLOOP:-1}" = 0 ] && return 0
	key=$1 label=$2 expect=$3 path=$4 cookie=$5 tuples=${6:-}
	rate=$(awk -F'|' -v k="$key" '$1 == k { r = $3 } END { printf "%d", r / 2 }' "$RES")
	[ "${rate:-0}" -gt 0 ] || return 0
	if [ -n "$tuples" ]; then
		out=$(BENCH_EXPECT=$expect BENCH_TUPLES=$tuples BENCH_THREADS=$OPEN_THREADS BENCH_RATE=$rate \
			BENCH_TUPLES_STATE="$W/tuples-state-${key#*:}" BENCH_TUPLES_RESUME=1 \
			BENCH_TABLE_QUEUES=1 BENCH_RESUME_THREADS=$CONN \
			timeout $((DUR + 60)) wrk -t"$OPEN_THREADS" -c"$CONN" -d"${DUR}s" --latency \
			-s "$LUA" "http://127.0.0.1:$PORT$path" 2>&1) || true
	else
		out=$(BENCH_EXPECT=$expect BENCH_THREADS=$OPEN_THREADS BENCH_RATE=$rate \
			timeout $((DUR + 60)) wrk -t"$OPEN_THREADS" -c"$CONN" -d"${DUR}s" --latency \
			-s "$LUA" -H "Cookie: $cookie" "http://127.0.0.1:$PORT$path" 2>&1) || true
	fi
	load=$(cut -d' ' -f1 /proc/loadavg)
	line=$(printf '%s\n' "$out" | grep '^BENCH ' || true)
	if [ -z "$line" ]; then
		log "$label, open loop: wrk gave no result:"
		printf '%s\n' "$out" >&2
		return 0
	fi
	printf '%s\n' "$line" | awk -v key="$key" -v label="$label" -v load="$load" '{
		for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		printf "open|%s|%s|%.1f|%.1f|%d|%d|%d|%s|%d|%d|%d|%s\n", key, label, v["offered"], v["rps"],
			v["p50_us"], v["p99_us"], v["socket_errors"] + v["status_errors"], v["codes"],
			v["exhausted"], v["late"], v["late_max_us"], load
	}' >> "$RES"
	log "$(tail -n 1 "$RES")"
}

# ---- 1. rules cores: random complete parties, one core ----

pin=""
command -v taskset >/dev/null 2>&1 && pin="taskset -c 0"
"$BIN" games > "$W/games"
[ "$ONLY" = 1 ] && : > "$W/games"
while read -r slug min max; do
	p=4
	[ "$p" -lt "$min" ] && p=$min
	[ "$p" -gt "$max" ] && p=$max
	worst=""
	worst_p=""
	at4=""
	q=$min
	while [ "$q" -le "$max" ]; do
		# shellcheck disable=SC2086
		r=$(timeout 300 $pin "$BIN" sim "$slug" --games "$SIM_GAMES" --players "$q" --seed 1 \
			--quiet --fast |
			sed -n 's/.*games_per_sec=\([0-9.]*\).*/\1/p')
		[ -z "$r" ] && r=0
		[ "$q" = "$p" ] && at4=$r
		if [ -z "$worst" ] || awk -v a="$r" -v b="$worst" 'BEGIN { exit !(a < b) }'; then
			worst=$r
			worst_p=$q
		fi
		q=$((q + 1))
	done
	# Instructions per party at the slowest count (callgrind). Rate and
	# count are the rules' own (sim --fast: the same parties, without the
	# invariant check after every step and the replay that make test runs).
	irp=""
	if [ "${BENCH_PROFILE:-1}" != 0 ] && command -v valgrind >/dev/null 2>&1; then
		timeout 300 valgrind --tool=callgrind --callgrind-out-file="$W/cg-sim-$slug" \
			"$BIN" sim "$slug" --games 20 --players "$worst_p" --seed 1 --quiet --fast \
			> /dev/null 2>&1 || true
		t=$(awk '/^(summary|totals):/ { print $2; exit }' "$W/cg-sim-$slug" 2>/dev/null || true)
		[ -n "$t" ] && irp=$((t / 20))
	fi
	echo "rules|$slug|$p|$at4|$worst_p|$worst|$irp" >> "$RES"
	log "rules $slug: $at4 parties/s at $p players, slowest $worst at $worst_p ($irp instructions a party)"
done < "$W/games"

# ---- 1b. bot moves: one bot_choose() at each level, one core ----
# At the player count of the move rows, the same for every game; the
# instructions are callgrind's, counted inside bot_choose() only, over a few
# parties, divided by the moves `bots --timing` reports.

while read -r slug min max; do
	p=4
	[ "$p" -lt "$min" ] && p=$min
	[ "$p" -gt "$max" ] && p=$max
	# shellcheck disable=SC2086
	out=$(timeout 300 $pin "$BIN" bots "$slug" --games "$BOT_GAMES" --players "$p" --timing) || {
		log "bots $slug --timing failed"; out=""; }
	us_r=$(printf '%s\n' "$out" | sed -n 's/.* random \([0-9.-]*\) us.*/\1/p')
	us_g=$(printf '%s\n' "$out" | sed -n 's/.* greedy \([0-9.-]*\) us.*/\1/p')
	ir_r="" ir_g=""
	if [ -n "$out" ] && [ "${BENCH_PROFILE:-1}" != 0 ] && command -v valgrind >/dev/null 2>&1; then
		for lv in random greedy; do
			m=$(timeout 300 valgrind --tool=callgrind --toggle-collect=bot_choose \
				--callgrind-out-file="$W/cg-bots-$slug-$lv" "$BIN" bots "$slug" --games 10 \
				--players "$p" --timing --level "$lv" 2> /dev/null |
				sed -n 's/.*us (\([0-9]*\) moves.*/\1/p') || true
			t=$(awk '/^(summary|totals):/ { print $2; exit }' "$W/cg-bots-$slug-$lv" 2>/dev/null || true)
			i=""
			[ -n "$t" ] && [ "${m:-0}" -gt 0 ] && i=$((t / m))
			if [ "$lv" = random ]; then ir_r=$i; else ir_g=$i; fi
		done
	fi
	echo "bots|$slug|$p|$BOT_GAMES|${us_r:-0}|${us_g:-0}|$ir_r|$ir_g" >> "$RES"
	log "bot move $slug: random ${us_r:-?} us, greedy ${us_g:-?} us at $p players" \
		"(instructions ${ir_r:-?}, ${ir_g:-?})"
done < "$W/games"

# ---- 1c. bot strength: a greedy seat against random ones ----
# Every player count of every game, BOT_VS_GAMES parties each (every seat
# greedy in turn): how often the greedy seat won and how often a random
# seat did. The goal: greedy wins more often at every count.

while read -r slug min max; do
	q=$min
	while [ "$q" -le "$max" ]; do
		out=$(timeout 300 "$BIN" bots "$slug" --games "$BOT_VS_GAMES" --players "$q" --seed 1) || {
			log "bots $slug --players $q failed"; out=""; }
		g=$(printf '%s\n' "$out" | sed -n 's/.* greedy_won=\([0-9.]*\)%.*/\1/p')
		r=$(printf '%s\n' "$out" | sed -n 's/.* random_seat_won=\([0-9.]*\)%.*/\1/p')
		echo "botwin|$slug|$q|$BOT_VS_GAMES|${g:-0}|${r:-100}" >> "$RES"
		q=$((q + 1))
	done
	log "bot strength $slug: $(awk -F'|' -v s="$slug" '$1 == "botwin" && $2 == s {
		printf "%s players %s%% / %s%%; ", $3, $5, $6 }' "$RES")"
done < "$W/games"

# ---- 2. the limit: hello-world behind the same nginx ----

start_nginx
if [ "$ONLY" = 1 ]; then
	hello_rps=1
else
	start_hello
	measure hello "hello-world (libfcgi)" 200 / ""
	echo "rss|hello|$(worker_rss_kib)" >> "$RES"
	stop_server
	hello_rps=$(awk -F'|' '$1 == "hello" { printf "%d", $3 }' "$RES")
	[ "${hello_rps:-0}" -gt 0 ] || { log "hello-world gave no result"; exit 1; }
fi

# ---- 3. databases ----

# Enough prepared moves for a run at hello-world speed, and a quarter more.
need=$((hello_rps * DUR * 5 / 4))
[ "$need" -lt 2000 ] && need=2000
# the pairs: enough for SQLite's moves without hello-world's rate
[ "$PAIRS" -gt 0 ] && need=${BENCH_PAIRS_MOVES:-30000}

copy_db() { # FROM TO
	cp "$1" "$2"
	[ -f "$1-wal" ] && cp "$1-wal" "$2-wal"
	return 0
}

t0=$(now_s)
timeout 600 "$GEN" setup --db "$W/base.db" --schema schema --list "$W/list" --move-need "$need" \
	--opt drehwurm:snap_seconds=600 2> "$W/gen-setup.log" || { cat "$W/gen-setup.log" >&2; exit 1; }
log "setup: $(($(now_s) - t0)) s"
copy_db "$W/base.db" "$W/small.db"
copy_db "$W/base.db" "$W/large.db"
# (the pairs, BENCH_PG_PAIRS, run on the small history too)
[ "$ONLY" = 1 ] && [ "$PAIRS" -gt 0 ] &&
	timeout 600 "$GEN" history --db "$W/small.db" --schema schema --parties "$HIST_SMALL" > "$W/hist-small"
if [ "$ONLY" != 1 ]; then
	timeout 600 "$GEN" history --db "$W/small.db" --schema schema --parties "$HIST_SMALL" > "$W/hist-small"
	t0=$(now_s)
	timeout 1800 "$GEN" history --db "$W/large.db" --schema schema --parties "$HIST_LARGE" > "$W/hist-large"
	hist_s=$(($(now_s) - t0))
	hist_size=$(du -m "$W/large.db" | awk '{ print $1 }')
	log "history: $(cat "$W/hist-large"), $hist_size MiB, $hist_s s"
	echo "hist|$HIST_LARGE|$hist_s|$hist_size|$(cat "$W/hist-large")" >> "$RES"
fi

# The scale rows' data, in a copy of the small history's database of its
# own (so the other rows measure the same database as before): a finished
# Swiss of 1,000 players over 10 rounds and a user at 200 tables (gen.c,
# "scale"); its lines go to the end of the list.
copy_db "$W/small.db" "$W/scale.db"
t0=$(now_s)
timeout 600 "$GEN" scale --db "$W/scale.db" --schema schema --list "$W/list" \
	--opt drehwurm:snap_seconds=600 > "$W/scale" 2> "$W/gen-scale.log" || {
	cat "$W/gen-scale.log" >&2; exit 1; }
log "scale data in $(($(now_s) - t0)) s: $(cat "$W/scale")"

# The moves are worked out on a copy, so the measured database is untouched.
copy_db "$W/small.db" "$W/presim.db"
t0=$(now_s)
timeout 600 "$GEN" moves --db "$W/presim.db" --schema schema --list "$W/list" --need "$need" \
	--out-dir "$W/tuples" > "$W/moves" 2> "$W/gen-moves.log" || {
	cat "$W/gen-moves.log" >&2; exit 1; }
log "moves prepared in $(($(now_s) - t0)) s: $(tr '\n' ' ' < "$W/moves")"
rm -f "$W/presim.db" "$W/presim.db-wal" "$W/presim.db-shm"
# The first-word row (4b) replays the prepared moves from the start, on a
# copy taken before the move runs change the small history's database; so
# does the live-channel row (4c).
copy_db "$W/small.db" "$W/word.db"
copy_db "$W/small.db" "$W/live.db"

# ---- 3b. the PostgreSQL column ----
# The small database as the rows below measure it (before the move runs:
# their tables are where the prepared moves start), copied with
# `spieltisch migrate` into a throw-away cluster (tests/pg/cluster.sh),
# then cloned there (CREATE DATABASE … TEMPLATE) once per use: the
# instruction counts, the rates, one instance's moves, two instances'
# moves. The SQLite counts it is set against are taken on a copy of the
# same file (pgsrc.db), so both sides read the same data.
pg_uri() { printf '%s\n' "$PG_URI" | sed "s|^postgresql:///spieltisch?|postgresql:///$1?|"; }
pg_setup() {
	if [ "${BENCH_PG:-1}" = 0 ]; then
		log "PostgreSQL: skipped (BENCH_PG=0)"
		return 0
	fi
	if ! command -v psql > /dev/null 2>&1 || ! ls /usr/lib/postgresql/*/bin/initdb > /dev/null 2>&1; then
		log "PostgreSQL: skipped: the server is not installed (sh deploy/deps.sh test)"
		echo "pgskip|the PostgreSQL server is not installed" >> "$RES"
		return 0
	fi
	copy_db "$W/small.db" "$W/pgsrc.db"
	copy_db "$W/small.db" "$W/pgsq.db"
	PG_DIR=$W/pg
	PG_URI=$(sh tests/pg/cluster.sh start "$PG_DIR") || {
		log "PostgreSQL: the cluster did not start"; PG_DIR=; return 0; }
	t0=$(now_s)
	timeout 1800 "$BIN" migrate --from "$W/pgsrc.db" --to "$PG_URI" --root "$ROOT" \
		> "$W/migrate.log" 2>&1 || {
		tail -n 5 "$W/migrate.log" >&2
		log "PostgreSQL: migrate failed"
		echo "pgskip|spieltisch migrate failed: $(tail -n 1 "$W/migrate.log")" >> "$RES"
		return 0
	}
	log "PostgreSQL: migrated in $(($(now_s) - t0)) s: $(tail -n 1 "$W/migrate.log")"
	for d in pgprof pgrate pgone pgtwo; do
		psql -q -X -v ON_ERROR_STOP=1 "$PG_URI" -c "CREATE DATABASE $d TEMPLATE spieltisch" \
			> /dev/null || { log "PostgreSQL: CREATE DATABASE $d failed"; return 0; }
	done
	PG_ON=1
	echo "pgver|$(psql -X -A -t "$PG_URI" -c 'SHOW server_version' 2>/dev/null | head -n 1)" >> "$RES"
}
pg_setup

cookie_of() { # USER_IDX
	awk -v i="$1" '$1 == "user" && $2 == i { print "st=" $4 }' "$W/list"
}
me_cookie() { cookie_of "$(awk '$1 == "page" { print $5; exit }' "$W/list")"; }
# What "Meine Tische" of the first page's viewer polls now: its data-poll
# (/me/poll/<their token>) with ?v= its data-version. The version moves
# with every table of theirs, so it is read again after the move runs.
me_poll_path() {
	curl -s --max-time 20 -H "Cookie: $(me_cookie)" "http://127.0.0.1:$PORT/me" |
		sed -n 's/.*data-poll="\([^"]*\)".*data-version="\([0-9]*\)".*/\1?v=\2/p' |
		head -n 1
}

# scale_rows MEASURE: the scale rows, each as MEASURE KEY LABEL PATH COOKIE
# (MEASURE is measure_get or profile_get): the tournament page and its JSON
# with the cookie of a player whose row is off the first page, and /me of
# the user at 200 tables.
scale_rows() {
	while read -r kind a b _; do
		case $kind in
		tourney)
			c=$(cookie_of "$b")
			"$1" "scale:tourney" "tournament page, 1,000 players × 10 rounds" \
				"/tournaments/$a" "$c"
			"$1" "scale:tourney_json" "tournament JSON, 1,000 players × 10 rounds" \
				"/tournaments/$a.json" "$c" ;;
		me200)
			"$1" "scale:me200" "/me, 200 tables" "/me" "$(cookie_of "$a")" ;;
		esac
	done < "$W/list"
}
measure_get() { measure "$1" "$2" 200 "$3" "$4"; }
profile_get() { profile_run "$1" "$3" "$4" 200; }

# ---- 4b. the first word of a fresh worker ----
# One worker, freshly started, on a copy of the database the moves were
# prepared on. The prepared Wurf & Wort moves are posted one after the other
# (curl), each table's up to its first word ("answer Haus", the request
# that looks the word up: gen.c answers a claim with a word), and the table
# is left. The time of the worker's first accepted word is set against the
# median of the next WORD_LATER (other tables). The lexicon is read before
# the workers start, so the ratio is about 1; it was in the thousands when
# a worker read the patterns at its first word, inside the move's
# transaction (seconds against milliseconds).
WORD_LATER=10
first_word_row() {
	tsv=$W/tuples/moves-wurfwort.tsv
	[ -f "$tsv" ] || return 0
	saved=$WORKERS
	WORKERS=1
	start_app "$W/word.db"
	WORKERS=$saved
	: > "$W/word-times"
	done_slots=" "
	n=0
	while IFS="$(printf '\t')" read -r slot _ path cookie body; do
		case "$done_slots" in *" $slot "*) continue ;; esac
		n=$((n + 1))
		[ "$n" -le 20000 ] || break
		case "$body" in
		move=answer*) done_slots="$done_slots$slot " ;;
		esac
		out=$(curl -s -o /dev/null --max-time 60 -w '%{http_code} %{time_total}' \
			-H "Cookie: $cookie" --data "$body" "http://127.0.0.1:$PORT$path") || continue
		case "$body" in
		move=answer*) [ "${out%% *}" = 303 ] && echo "${out#* }" >> "$W/word-times" ;;
		esac
		[ "$(wc -l < "$W/word-times")" -gt "$WORD_LATER" ] && break
	done < "$tsv"
	stop_server
	awk 'NR == 1 { first = $1 * 1000; next }
		{ t[++m] = $1 * 1000 }
		END {
			if (m < 1)
				exit 0
			for (i = 1; i <= m; i++)
				for (j = i + 1; j <= m; j++)
					if (t[j] < t[i]) { x = t[i]; t[i] = t[j]; t[j] = x }
			if (m % 2) med = t[(m + 1) / 2]
			else med = (t[m / 2] + t[m / 2 + 1]) / 2
			printf "word|%.2f|%.2f|%d|%.2f\n", first, med, m, (med > 0 ? first / med : 0)
		}' "$W/word-times" >> "$RES"
	log "first word: $(grep '^word|' "$RES" | tail -n 1 || true)"
}

# ---- 4c. the live channels (nginx with Nchan) ----
# BENCH_LIVE_SUBS pages (1000) subscribed over the drehwurm move tables,
# BENCH_LIVE_MOVES prepared moves (200) one after the other: from each
# mover's 303 to the message at every page of its table (tests/bench/live.c),
# and nginx's memory per 1,000 subscriptions (EventSource; then as many
# long-polls waiting, in a fresh nginx). nginx is started again with the
# module for it, and again without it afterwards.
live_row() {
	if [ ! -f /usr/lib/nginx/modules/ngx_nchan_module.so ]; then
		echo "liveskip|nginx has no Nchan module (libnginx-mod-nchan)" >> "$RES"
		return 0
	fi
	stop_server
	stop_nginx
	NGINX_NCHAN=
	start_nginx
	rm -f "$SOCK"
	"$BIN" serve --socket "$SOCK" --workers "$WORKERS" --db "$W/live.db" --root "$ROOT" \
		--publish "unix:$W/var/live.sock" 2>> "$W/serve.log" &
	SERVER_PID=$!
	wait_socket
	# spread over the tables of the first moves (about 20 pages a table),
	# then all on one table (the widest fan-out; the moves already made
	# are answered 409 and skipped): BENCH_LIVE_MOVES moves seen each time
	for tables in 0 1; do
		out=$(timeout 600 "$LIVE" --port "$PORT" --moves "$W/tuples/moves-drehwurm.tsv" \
			--subs "${BENCH_LIVE_SUBS:-1000}" --tables "$tables" --nginx "$NGINX_PID" \
			--count "${BENCH_LIVE_MOVES:-200}" \
			2>> "$W/live.log") || true
		case $out in
		live\|*) echo "$out" >> "$RES"; log "live: $out" ;;
		*) echo "liveskip|the generator failed: $(tail -n 1 "$W/live.log" 2>/dev/null)" >> "$RES" ;;
		esac
	done
	# the memory of as many long-polls waiting, in a fresh nginx (the
	# first run's figure is that of EventSource, also in a fresh one)
	stop_nginx
	start_nginx
	out=$(timeout 600 "$LIVE" --port "$PORT" --moves "$W/tuples/moves-drehwurm.tsv" \
		--subs "${BENCH_LIVE_SUBS:-1000}" --count 0 --longpoll 1 --nginx "$NGINX_PID" \
		2>> "$W/live.log") || true
	case $out in
	live\|*) echo "$out" >> "$RES"; log "live: $out" ;;
	esac
	stop_server
	stop_nginx
	unset NGINX_NCHAN
	start_nginx
}

# ---- 4d. the PostgreSQL rates (after the SQLite rows of 4, on a clone of
# the same data) and two app instances on one PostgreSQL ----
pg_rates() {
	[ "$PG_ON" = 1 ] || return 0
	echo "pgload|before the PostgreSQL rates|$(cut -d' ' -f1-3 /proc/loadavg)" >> "$RES"
	echo "pgworkers|$PG_WORKERS|$WORKERS" >> "$RES"
	saved=$WORKERS
	WORKERS=$PG_WORKERS
	start_app "$(pg_uri pgrate)"
	WORKERS=$saved
	while read -r kind slug tid version uidx; do
		[ "$kind" = page ] || continue
		c=$(cookie_of "$uidx")
		measure "pg:page:$slug" "$slug table page" 200 "/t/$tid" "$c"
		measure "pg:poll:$slug" "$slug poll, unchanged (204)" 204 "/t/$tid/poll?v=$version" "$c"
		measure "pg:json:$slug" "$slug table JSON" 200 "/t/$tid.json" "$c"
	done < "$W/list"
	measure "pg:poll:me" "/me poll of the page viewer, unchanged (204)" 204 "$(me_poll_path)" ""
	while read -r _ slug _; do
		measure "pg:move:$slug" "$slug move (303)" 303 "/" "" "$W/tuples/moves-$slug.tsv"
	done < "$W/moves"
	echo "rss|pg|$(worker_rss_kib)" >> "$RES"
	stop_server
	pg_instances
}

# Moves/s of one app instance against two behind one upstream, each on a
# clone of the same data. The app is made the bottleneck by pinning
# (taskset): one instance's master and workers all on core 0, against two
# instances, one on core 0 and one on core 1; nginx, PostgreSQL and wrk
# are not pinned and share both cores. Both sides run the same number of
# workers (2 × BENCH_WORKERS), so only the cores differ, not the
# concurrency.
pg_instances() {
	if ! command -v taskset > /dev/null 2>&1 || [ "$(nproc)" -lt 2 ]; then
		echo "pgskip2|two instances: needs taskset and 2 cores" >> "$RES"
		return 0
	fi
	start_app_pinned 0 "$(pg_uri pgone)" "$SOCK" $((2 * WORKERS))
	while read -r _ slug _; do
		measure "pg1:move:$slug" "$slug move (303), one instance" 303 "/" "" \
			"$W/tuples/moves-$slug.tsv"
	done < "$W/moves"
	stop_server
	stop_nginx
	NGINX_SECOND=$W/var/spieltisch2.sock
	start_nginx
	start_app_pinned 0 "$(pg_uri pgtwo)" "$SOCK" "$WORKERS"
	start_app_pinned 1 "$(pg_uri pgtwo)" "$NGINX_SECOND" "$WORKERS" 2
	while read -r _ slug _; do
		measure "pg2:move:$slug" "$slug move (303), two instances" 303 "/" "" \
			"$W/tuples/moves-$slug.tsv"
	done < "$W/moves"
	stop_server
	stop_server2
	stop_nginx
	NGINX_SECOND=
	start_nginx
	echo "pgload|after the two-instance runs|$(cut -d' ' -f1-3 /proc/loadavg)" >> "$RES"
}

# ---- 4e. BENCH_PG_PAIRS=N: the PostgreSQL column against SQLite, pair by
# pair (docs/scaling.md, "Measured"). N rounds; in each, every table page,
# poll, JSON and move row on a fresh copy of the same data on SQLite and on
# PostgreSQL with the same workers and with twice as many (p4: a worker
# waits for the server's answers, so more of them keep the cores busy;
# the order of the three sides turns from round to round), then the
# moves of one pinned instance against two (pg_instances' setup, on fresh
# clones; which goes first alternates too). One line a row and round:
# pair|round|key|sqlite rps|postgresql rps|postgresql 2x workers rps and
# pair2|round|slug|one|two, each instance run's pgcpu line (instance_use:
# the CPU the instances and the server used in it, the quota's throttling,
# autovacuum), and the load average before each round; at
# the end each key's ratios (to SQLite; two instances to one) and their
# median. BENCH_PAIRS_MOVES: the moves prepared for each game (30000).
pairs_side() { # sq|pg ROUND
	if [ "$1" = sq ]; then
		copy_db "$W/small.db" "$W/pair$2.db"
		start_app "$W/pair$2.db"
	else
		psql -q -X -v ON_ERROR_STOP=1 "$PG_URI" -c "CREATE DATABASE $1_$2 TEMPLATE spieltisch" \
			> /dev/null
		saved=$WORKERS saved_bin=$BIN
		[ "$1" = p4 ] || [ "$1" = b4 ] && WORKERS=$((2 * WORKERS))
		[ "$1" = b4 ] && BIN=$BENCH_PAIRS_BASE
		start_app "$(pg_uri "$1_$2")"
		WORKERS=$saved BIN=$saved_bin
	fi
	while read -r kind slug tid version uidx; do
		[ "$kind" = page ] || continue
		c=$(cookie_of "$uidx")
		measure "$1:page:$slug" "$slug table page" 200 "/t/$tid" "$c"
		measure "$1:poll:$slug" "$slug poll, unchanged (204)" 204 "/t/$tid/poll?v=$version" "$c"
		measure "$1:json:$slug" "$slug table JSON" 200 "/t/$tid.json" "$c"
	done < "$W/list"
	while read -r _ slug _; do
		measure "$1:move:$slug" "$slug move (303)" 303 "/" "" "$W/tuples/moves-$slug.tsv"
	done < "$W/moves"
	stop_server
}
# BENCH_PAIRS_MACHINE=N: each instance stands for a machine of N workers
# (one instance N workers on core 0, two N each on cores 0 and 1) instead
# of pg_instances' same workers on both sides.
# BENCH_PAIRS_BASE=BINARY: each round the same once more with another
# build's spieltisch (keys b1, b2: the code before a change, in the same run).
# What an instance run used, for pair2's ratios (docs/benchmarks.md,
# "PostgreSQL: the page statement's tournament and last step, two
# instances measured with their CPU"): the CPU milliseconds (user +
# system) of the app instances (each master and its workers) and of the PostgreSQL
# server (the postmaster and its backends), the quota cgroups' periods,
# throttled periods and throttled milliseconds (BENCH_PAIRS_QUOTA), and
# the autovacuum and autoanalyze runs so far in the database DB and in the
# template the clones are made from. One line of numbers.
proc_cpu_ms() { # PID...: the CPU time of these processes and their children
	cat /proc/[0-9]*/stat 2> /dev/null | awk -v want=" $* " -v hz="$(getconf CLK_TCK)" '{
		pid = $1; sub(/^.*\) /, "")
		if (index(want, " " pid " ") || index(want, " " $2 " ")) t += $12 + $13 }
		END { printf "%d", t * 1000 / hz }'
}
autovacuums() { # DB
	psql -q -X -At "$(pg_uri "$1")" -c "SELECT coalesce(sum(autovacuum_count +
		autoanalyze_count), 0) FROM pg_stat_user_tables" 2> /dev/null || echo 0
}
instance_use() { # DB
	pm=$(head -n 1 "$PG_DIR/data/postmaster.pid" 2> /dev/null || echo 0)
	q=$(for d in /sys/fs/cgroup/cpu/spieltisch-bench-$$-* /sys/fs/cgroup/spieltisch-bench-$$-*; do
		[ -r "$d/cpu.stat" ] && cat "$d/cpu.stat"; done |
		awk '$1 == "nr_periods" { p += $2 } $1 == "nr_throttled" { t += $2 }
			$1 == "throttled_time" { ms += $2 / 1e6 } $1 == "throttled_usec" { ms += $2 / 1e3 }
			END { printf "%d %d %d", p, t, ms }')
	echo "$(proc_cpu_ms $SERVER_PID $SERVER2_PID) $(proc_cpu_ms "$pm") $q $(autovacuums "$1")" \
		"$(autovacuums spieltisch)"
}
pairs_instances() { # 1|2 ROUND [i|b]
	k=${3:-i}
	saved_bin=$BIN
	[ "$k" = b ] && BIN=$BENCH_PAIRS_BASE
	psql -q -X -v ON_ERROR_STOP=1 "$PG_URI" -c "CREATE DATABASE $k$1_$2 TEMPLATE spieltisch" \
		> /dev/null
	stop_nginx
	[ "$1" = 2 ] && NGINX_SECOND=$W/var/spieltisch2.sock
	start_nginx
	per=$WORKERS alone=$((2 * WORKERS))
	[ -n "${BENCH_PAIRS_MACHINE:-}" ] && per=$BENCH_PAIRS_MACHINE alone=$BENCH_PAIRS_MACHINE
	if [ "$1" = 1 ]; then
		start_app_pinned 0 "$(pg_uri "${k}1_$2")" "$SOCK" "$alone"
	else
		start_app_pinned 0 "$(pg_uri "${k}2_$2")" "$SOCK" "$per"
		start_app_pinned 1 "$(pg_uri "${k}2_$2")" "$NGINX_SECOND" "$per" 2
	fi
	while read -r _ slug _; do
		u0=$(instance_use "$k$1_$2")
		measure "$k$1:move:$slug" "$slug move (303), $1 instance(s)" 303 "/" "" \
			"$W/tuples/moves-$slug.tsv"
		# pgcpu|round|key|moves/s|app ms|server ms|periods|throttled|throttled ms|autovacuums
		# in the clone|and in the template, during the run
		echo "$u0 $(instance_use "$k$1_$2")" | awk -v r="$2" -v k="$k$1:move:$slug" \
			-v rps="$(awk -F'|' -v k="$k$1:move:$slug" '$1 == k { v = $3 } END { print v + 0 }' "$RES")" \
			'{ printf "pgcpu|%s|%s|%s", r, k, rps; for (i = 1; i <= 7; i++) printf "|%d", $(i + 7) - $i
				print "" }' >> "$RES.cpu"
	done < "$W/moves"
	stop_server
	stop_server2
	NGINX_SECOND=
	BIN=$saved_bin
}
pg_pairs() {
	while read -r _ slug _; do
		awk -F'\t' -v n="$CONN" -v f="$W/tuples/moves-$slug.tsv" \
			'{ print > (f "." n "." ($1 % n + 1)) }' "$W/tuples/moves-$slug.tsv"
	done < "$W/moves"
	r=1
	while [ "$r" -le "$PAIRS" ]; do
		echo "pairload|$r|$(cut -d' ' -f1-3 /proc/loadavg)" >> "$RES"
		case $((r % 3)) in
		1) sides="sq pg p4" ;;
		2) sides="pg p4 sq" ;;
		*) sides="p4 sq pg" ;;
		esac
		# BENCH_PAIRS_SIDES: the sides measured (all three; "" none)
		[ -n "${BENCH_PAIRS_SIDES+x}" ] && sides=$BENCH_PAIRS_SIDES
		# BENCH_PAIRS_BASE: the base build on PostgreSQL with twice the
		# workers too (b4, before in the same run as p4, after: b4 first in
		# the even rounds, last in the odd ones)
		if [ -n "${BENCH_PAIRS_BASE:-}" ]; then
			if [ $((r % 2)) = 0 ]; then sides="b4 $sides"; else sides="$sides b4"; fi
		fi
		for side in $sides; do
			pairs_side "$side" "$r"
		done
		awk -F'|' -v r="$r" '$1 ~ /^(sq|pg|p4|b4):/ && $3 != "" {
				k = substr($1, 4); v[substr($1, 1, 2), k] = $3; if (!(k in seen)) { seen[k] = 1; o[++n] = k } }
			END { for (i = 1; i <= n; i++) printf "pair|%s|%s|%s|%s|%s|%s\n", r, o[i], v["sq", o[i]],
				v["pg", o[i]], v["p4", o[i]], v["b4", o[i]] }' "$RES" >> "$RES.pairs"
		# BENCH_PAIRS_INSTANCES=0 skips one instance against two
		if [ "${BENCH_PAIRS_INSTANCES:-1}" != 0 ] && [ "$(nproc)" -ge 2 ] &&
			command -v taskset > /dev/null 2>&1; then
			one=1 two=2
			[ $((r % 2)) = 0 ] && one=2 two=1
			for k in i ${BENCH_PAIRS_BASE:+b}; do
				pairs_instances $one "$r" $k
				pairs_instances $two "$r" $k
				awk -F'|' -v r="$r" -v p="$k" '$1 ~ ("^" p "[12]:move:") {
						k = substr($1, 9); v[substr($1, 1, 2), k] = $3; if (!(k in seen)) { seen[k] = 1; o[++n] = k } }
					END { for (i = 1; i <= n; i++) printf "pair2%s|%s|%s|%s|%s\n", p == "b" ? "base" : "",
						r, o[i], v[p "1", o[i]], v[p "2", o[i]] }' "$RES" >> "$RES.pairs"
			done
			stop_nginx
			start_nginx
		fi
		# this round's lines out of the way of the next round's
		grep -v '^\(sq\|pg\|p4\|b4\|i1\|i2\|b1\|b2\):' "$RES" > "$RES.keep" || true
		grep '^\(sq\|pg\|p4\|b4\|i1\|i2\|b1\|b2\):' "$RES" | sed "s/^/r$r|/" >> "$RES.rounds" || true
		mv "$RES.keep" "$RES"
		r=$((r + 1))
	done
	echo "pairload|end|$(cut -d' ' -f1-3 /proc/loadavg)" >> "$RES"
	cat "$RES.pairs"
	[ ! -e "$RES.cpu" ] || cat "$RES.cpu"
	grep '^pairload' "$RES"
	# each key: the ratios of its rounds, their median (pg and p4 to sq)
	awk -F'|' '{ k = $1 "|" $3; if (!(k in n)) o[++m] = k
			x[k, ++n[k]] = ($4 > 0 ? $5 / $4 : 0)
			if ($1 == "pair") { k = "pair2x|" $3; if (!(k in n)) o[++m] = k
				x[k, ++n[k]] = ($4 > 0 ? $6 / $4 : 0) }
			if ($1 == "pair" && $7 != "") { k = "pairbase2x|" $3; if (!(k in n)) o[++m] = k
				x[k, ++n[k]] = ($4 > 0 ? $7 / $4 : 0) } }
		END { for (i = 1; i <= m; i++) { k = o[i]; c = n[k]
			for (a = 1; a <= c; a++) for (b = a + 1; b <= c; b++)
				if (x[k, b] < x[k, a]) { t = x[k, a]; x[k, a] = x[k, b]; x[k, b] = t }
			line = ""
			for (a = 1; a <= c; a++) line = line sprintf(" %.2f", x[k, a])
			printf "ratio|%s|median %.2f|all%s\n", k, x[k, int((c + 1) / 2)], line } }' \
		"$RES.pairs"
	[ "${BENCH_KEEP:-0}" = 1 ] && cp "$RES.rounds" "$RES.pairs" "$W/" 2> /dev/null
	[ "${BENCH_KEEP:-0}" = 1 ] && [ -e "$RES.cpu" ] && cp "$RES.cpu" "$W/" 2> /dev/null
	return 0
}
if [ "$PAIRS" -gt 0 ]; then
	[ "$PG_ON" = 1 ] || { log "BENCH_PG_PAIRS: no PostgreSQL"; exit 1; }
	pg_pairs
	exit 0
fi

# ---- 4. the app, 10^3 finished parties ----

if [ "$ONLY" != 1 ]; then
	start_app "$W/small.db"
	while read -r kind slug tid version uidx; do
		[ "$kind" = page ] || continue
		c=$(cookie_of "$uidx")
		measure "page:$slug" "$slug table page" 200 "/t/$tid" "$c"
		open_measure "page:$slug" "$slug table page" 200 "/t/$tid" "$c"
		measure "poll:$slug" "$slug poll, unchanged (204)" 204 "/t/$tid/poll?v=$version" "$c"
		measure "json:$slug" "$slug table JSON" 200 "/t/$tid.json" "$c"
		open_measure "json:$slug" "$slug table JSON" 200 "/t/$tid.json" "$c"
	done < "$W/list"
	# /me's poll for the first page's viewer, who sits at every move table
	measure "poll:me" "/me poll of the page viewer, unchanged (204)" 204 "$(me_poll_path)" ""
	while read -r _ slug made tables secs; do
		# each wrk thread's lines in a file of its own (wrk.lua load_tuples)
		awk -F'\t' -v n="$CONN" -v f="$W/tuples/moves-$slug.tsv" \
			'{ print > (f "." n "." ($1 % n + 1)) }' "$W/tuples/moves-$slug.tsv"
		measure "move:$slug" "$slug move (303)" 303 "/" "" "$W/tuples/moves-$slug.tsv"
		open_measure "move:$slug" "$slug move (303)" 303 "/" "" "$W/tuples/moves-$slug.tsv"
	done < "$W/moves"
	echo "rss|app|$(worker_rss_kib)" >> "$RES"
	stop_server
	pg_rates
	first_word_row
	live_row
	start_app "$W/scale.db"
	scale_rows measure_get
	stop_server

	# ---- 5. the same pages with the large history ----

	start_app "$W/large.db"
	while read -r kind slug tid version uidx; do
		[ "$kind" = page ] || continue
		c=$(cookie_of "$uidx")
		measure "page6:$slug" "$slug table page, $HIST_LARGE parties" 200 "/t/$tid" "$c"
		measure "poll6:$slug" "$slug poll, $HIST_LARGE parties" 204 "/t/$tid/poll?v=$version" "$c"
	done < "$W/list"
	echo "rss|app6|$(worker_rss_kib)" >> "$RES"
	stop_server
fi

# ---- 6. instructions per request (callgrind, one worker) ----

if [ "${BENCH_PROFILE:-1}" != 0 ] && command -v valgrind >/dev/null 2>&1 &&
	command -v callgrind_control >/dev/null 2>&1; then
	. tests/bench/profile.sh
	mkdir -p "$W/cg"
	if profile_start "$HELLO" --socket "$SOCK" --workers 1; then
		profile_run hello / "" 200
	fi
	profile_stop
	# The small database for the pages and polls (its page tables are as
	# they were: the move runs used other tables), its copy with the scale
	# data for the scale rows, the large one for the
	# same pages and polls again, the JSON and the moves (its move tables
	# are still where the prepared moves start).
	if profile_start "$BIN" serve --socket "$SOCK" --workers 1 --db "$W/small.db" --root "$ROOT"; then
		while read -r kind slug tid version uidx; do
			[ "$kind" = page ] || continue
			c=$(cookie_of "$uidx")
			profile_run "page:$slug" "/t/$tid" "$c" 200
			profile_run "poll:$slug" "/t/$tid/poll?v=$version" "$c" 204
		done < "$W/list"
		# the viewer's move tables have passed deadlines by now (windows
		# opened in the move runs): applied first, as pages would
		timeout 300 "$GEN" settle --db "$W/small.db" --schema schema >> "$W/gen-settle.log" 2>&1 ||
			log "gen settle failed: $(tail -n 1 "$W/gen-settle.log")"
		profile_run "poll:me" "$(me_poll_path)" "" 204
	fi
	profile_stop
	if profile_start "$BIN" serve --socket "$SOCK" --workers 1 --db "$W/scale.db" --root "$ROOT"; then
		scale_rows profile_get
	fi
	profile_stop
	if profile_start "$BIN" serve --socket "$SOCK" --workers 1 --db "$W/large.db" --root "$ROOT"; then
		while read -r kind slug tid version uidx; do
			[ "$kind" = page ] || continue
			c=$(cookie_of "$uidx")
			profile_run "page6:$slug" "/t/$tid" "$c" 200
			profile_run "poll6:$slug" "/t/$tid/poll?v=$version" "$c" 204
			profile_run "json:$slug" "/t/$tid.json" "$c" 200
			profile_run "move:$slug" "/" "" 303 "$W/tuples/moves-$slug.tsv"
		done < "$W/list"
	fi
	profile_stop
	# The PostgreSQL column: the same rows on PostgreSQL (pgprof) and, as
	# what they are set against, on SQLite with the same data (pgsq.db).
	# The counts are the app's worker's only: PostgreSQL's server
	# processes are not under valgrind.
	if [ "$PG_ON" = 1 ]; then
		for side in sq pg; do
			db=$W/pgsq.db
			[ "$side" = pg ] && db=$(pg_uri pgprof)
			if profile_start "$BIN" serve --socket "$SOCK" --workers 1 --db "$db" --root "$ROOT"; then
				while read -r kind slug tid version uidx; do
					[ "$kind" = page ] || continue
					c=$(cookie_of "$uidx")
					profile_run "$side:page:$slug" "/t/$tid" "$c" 200
					profile_run "$side:poll:$slug" "/t/$tid/poll?v=$version" "$c" 204
					profile_run "$side:json:$slug" "/t/$tid.json" "$c" 200
				done < "$W/list"
				while read -r _ slug _; do
					profile_run "$side:move:$slug" "/" "" 303 "$W/tuples/moves-$slug.tsv"
				done < "$W/moves"
				# passed deadlines applied first, as for poll:me above
				timeout 300 "$GEN" settle --db "$db" --schema schema >> "$W/gen-settle.log" 2>&1 ||
					log "gen settle ($side) failed: $(tail -n 1 "$W/gen-settle.log")"
				profile_run "$side:poll:me" "$(me_poll_path)" "" 204
			fi
			profile_stop
		done
	fi
fi

if [ "$ONLY" = 1 ]; then
	stop_nginx
	grep '^ir|' "$RES"
	# "As fast as a table page": the scale rows against the drehwurm page.
	awk -F'|' '$1 == "ir" { ir[$2] = $3 }
		END { if (ir["page:drehwurm"] > 0) for (k in ir) if (k ~ /^scale:/)
			printf "ir-ratio|%s / page:drehwurm|%.2f\n", k, ir[k] / ir["page:drehwurm"] }' \
		"$RES" | sort
	# The PostgreSQL column: its count over SQLite's on the same data.
	awk -F'|' '$1 == "ir" { ir[$2] = $3; k[++n] = $2 }
		END { for (i = 1; i <= n; i++) if (k[i] ~ /^pg:/) {
			s = "sq:" substr(k[i], 4)
			if (ir[s] > 0) printf "ir-pg|%s|sqlite %d|postgresql %d|%.2f ×\n",
				substr(k[i], 4), ir[s], ir[k[i]], ir[k[i]] / ir[s] } }' "$RES"
	grep '^pg' "$RES" || true
	exit 0
fi

# ---- 6b. the peer: boardgame.io, beside us on the same machine ----
# tests/bench/peer/: a tiny card game with hidden hands served by
# boardgame.io (versions pinned in its package-lock.json, installed here
# with npm ci), with its in-memory storage and its durable FlatFile one,
# loaded by driver.js through its own socket.io transport with as many
# concurrent players as wrk has connections. docs/benchmarks.md says what
# differs from the Spieltisch rows.

PEER=tests/bench/peer

peer_install() {
	[ -d "$PEER/node_modules/boardgame.io" ] && [ -d "$PEER/node_modules/socket.io-client" ] &&
		[ -d "$PEER/node_modules/node-persist" ] &&
		return 0
	log "peer: installing boardgame.io into $PEER/node_modules (npm ci)"
	(cd "$PEER" && timeout 300 npm ci --no-audit --no-fund --loglevel=error) >&2
}

# peer_run STORAGE EXPECTED_MOVES_PER_S: one server, one driver run.
peer_run() {
	st=$1
	pport=${BENCH_PEER_PORT:-18617}
	saved=$PORT
	PORT=$pport
	n=0
	while port_open && [ "$n" -lt 50 ]; do
		PORT=$((PORT + 1))
		n=$((n + 1))
	done
	pport=$PORT
	PORT=$saved
	mkdir -p "$W/peer-$st"
	(cd "$PEER" && NODE_ENV=production exec node server.js "$pport" "$st" "$W/peer-$st") \
		> "$W/peer-$st.log" 2>&1 &
	PEER_PID=$!
	n=0
	until grep -q '^peer: listening' "$W/peer-$st.log" 2>/dev/null; do
		n=$((n + 1))
		if [ "$n" -gt 200 ] || ! kill -0 "$PEER_PID" 2>/dev/null; then
			log "peer ($st) did not start:"
			cat "$W/peer-$st.log" >&2
			stop_peer
			return 0
		fi
		sleep 0.05
	done
	# Prepared matches (40 moves each) for the expected rate and a quarter more.
	matches=$(($2 * DUR * 5 / 4 / 40 + 1))
	out=$(cd "$PEER" && timeout $((3 * DUR + 300)) node driver.js --port "$pport" --conn "$CONN" \
		--duration "$DUR" --matches "$matches" 2>&1) || true
	stop_peer
	line=$(printf '%s\n' "$out" | grep '^PEER ' || true)
	if [ -z "$line" ]; then
		log "peer ($st): the driver gave no result:"
		printf '%s\n' "$out" >&2
		return 0
	fi
	printf '%s\n' "$line" | awk -v st="$st" '{
		for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		printf "peer|%s|%.1f|%d|%d|%.1f|%d|%d|%d|%d\n", st, v["moves_per_s"], v["move_p50_us"],
			v["move_p99_us"], v["reads_per_s"], v["read_p50_us"], v["read_p99_us"],
			v["errors"], v["exhausted"]
	}' >> "$RES"
	log "peer $st: $line"
}

if [ "$ONLY" = 1 ]; then
	:
elif [ "${BENCH_PEER:-1}" = 0 ]; then
	log "peer: skipped (BENCH_PEER=0)"
elif ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
	log "peer: skipped: node or npm is not installed (sh deploy/deps.sh test installs them)"
	echo "peerskip|node or npm is not installed" >> "$RES"
elif ! peer_install; then
	log "peer: skipped: npm ci failed"
	echo "peerskip|npm ci failed" >> "$RES"
else
	peer_run memory 8000
	peer_run flatfile 1500
fi

# The limit once more: how much the machine drifted during the runs.
start_hello
measure hello2 "hello-world again, at the end" 200 / ""
stop_server
stop_nginx

# ---- 7. the table ----

sh tests/bench/report.sh "$RES" "$DUR" "$CONN" "$THREADS" "$WORKERS" "$HIST_SMALL" "$HIST_LARGE" \
	> "$W/table.md"
cat "$W/table.md"
sh tests/bench/machine.sh "$DUR" "$CONN" "$THREADS" "$WORKERS" "$LOAD_BEFORE" > "$W/machine.md"
{
	echo "<!-- bench:begin (written by make bench; edit outside the markers) -->"
	cat "$W/machine.md"
	echo
	cat "$W/table.md"
	echo "<!-- bench:end -->"
} > "$W/block.md"
if [ -f "$DOC" ] && grep -q '<!-- bench:begin' "$DOC" && grep -q '<!-- bench:end' "$DOC"; then
	awk -v block="$W/block.md" '
		/<!-- bench:begin/ { while ((getline l < block) > 0) print l; skip = 1; next }
		/<!-- bench:end/ { skip = 0; next }
		!skip { print }' "$DOC" > "$W/doc.md"
else
	{ echo "# Benchmarks"; echo; cat "$W/block.md"; } > "$W/doc.md"
fi
cp "$W/doc.md" "$DOC"
log "written to $DOC"
