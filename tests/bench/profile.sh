#!/bin/sh
# profile.sh — instructions per request, counted by callgrind: a figure that
# does not depend on what else the machine is doing, next to the wrk rates
# that do. Sourced by bench.sh (uses its SOCK, SERVER_PID, PORT, W, LUA,
# worker_pids, wait_socket); one FastCGI worker runs under valgrind.
#
# profile_start CMD...   start a server under callgrind (one worker)
# profile_run KEY PATH COOKIE EXPECT [TUPLES]
#                        warm up, zero the counters, run wrk with one
#                        connection for a few seconds, dump, and append
#                        "ir|KEY|instructions per request|requests" to $RES
# profile_stop
#
# The counters are zeroed and dumped only while the worker is idle (its CPU
# time stands still), and the requests are the calls of route_dispatch in
# the dump: so a request still running when wrk stops is counted whole,
# once. wrk's own count would leave it out while its instructions are in
# the dump, which for a page that takes a second under valgrind (the
# tournament's) doubled the figure; wrk waits up to 30 s for an answer.

profile_start() {
	rm -f "$SOCK"
	valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$W/cg/cg.%p" \
		"$@" 2>> "$W/valgrind.log" &
	SERVER_PID=$!
	n=0
	until [ -S "$SOCK" ]; do
		n=$((n + 1))
		if [ "$n" -gt 600 ] || ! kill -0 "$SERVER_PID" 2>/dev/null; then
			log "the server did not start under valgrind (see $W/valgrind.log)"
			return 1
		fi
		sleep 0.1
	done
	# The worker forks after the socket exists; give it time to load.
	n=0
	PROF_WORKER=
	while [ -z "$PROF_WORKER" ] && [ "$n" -lt 100 ]; do
		sleep 0.2
		PROF_WORKER=$(worker_pids | head -n 1)
		n=$((n + 1))
	done
	[ -n "$PROF_WORKER" ] || { log "no worker under valgrind"; return 1; }
	sleep 2
}

profile_stop() {
	stop_server
}

# wrk with one connection; its output goes to $W/cg/wrk.out, and the
# request count and the unexpected answers are printed.
profile_wrk() { # SECONDS EXPECT PATH COOKIE TUPLES
	if [ -n "$5" ]; then
		BENCH_EXPECT=$2 BENCH_TUPLES=$5 BENCH_THREADS=1 timeout $(($1 + 60)) \
			wrk -t1 -c1 -d"$1s" --timeout 30s -s "$LUA" "http://127.0.0.1:$PORT$3" \
			> "$W/cg/wrk.out" 2>&1
	else
		BENCH_EXPECT=$2 BENCH_THREADS=1 timeout $(($1 + 60)) \
			wrk -t1 -c1 -d"$1s" --timeout 30s -s "$LUA" -H "Cookie: $4" \
			"http://127.0.0.1:$PORT$3" > "$W/cg/wrk.out" 2>&1
	fi
	sed -n 's/^BENCH requests=\([0-9]*\).*status_errors=\([0-9]*\).*/\1 \2/p' "$W/cg/wrk.out"
}

# Waits (up to 30 s) until the worker's CPU time stands still for 0.2 s.
profile_idle() {
	n=0
	last=x
	while [ "$n" -lt 150 ]; do
		now=$(awk '{ print $14 + $15 }' "/proc/$PROF_WORKER/stat" 2>/dev/null) || return 0
		[ "$now" = "$last" ] && return 0
		last=$now
		sleep 0.2
		n=$((n + 1))
	done
}

# The calls of route_dispatch in callgrind dump FILE (one a request), or
# nothing. Function names are compressed: "(id) name" once, "(id)" after.
profile_requests() {
	awk '/^c?fn=\([0-9]+\) / { id = substr($1, index($1, "(")); name[id] = $2 }
		/^cfn=/ { id = substr($1, index($1, "(")); want = name[id] == "route_dispatch"; next }
		/^calls=/ && want { split($1, c, "="); n += c[2]; want = 0; next }
		{ want = 0 }
		END { if (n > 0) print n }' "$1"
}

profile_run() { # KEY PATH COOKIE EXPECT [TUPLES]
	key=$1 path=$2 cookie=$3 expect=$4 tuples=${5:-}
	# BENCH_PROFILE_KEYS: a shell pattern of the keys to count ("move:*"),
	# for a quick look at one kind of request; the others are skipped
	case $key in ${BENCH_PROFILE_KEYS:-*}) ;; *) return 0 ;; esac
	warm="" meas=""
	if [ -n "$tuples" ]; then
		# Two disjoint sets of tables, each table's first prepared move:
		# the first 10 tables warm up, the next ones in order are measured
		# (the tables are pinned, gen.c, so every run measures the same
		# ones, as many as the 3 s take).
		awk -F'\t' '!seen[$2]++' "$tuples" > "$W/cg/first.tsv"
		total=$(wc -l < "$W/cg/first.tsv")
		half=10
		[ "$total" -lt 40 ] && half=$((total / 4))
		head -n "$half" "$W/cg/first.tsv" > "$W/cg/warm.tsv"
		tail -n +"$((half + 1))" "$W/cg/first.tsv" > "$W/cg/meas.tsv"
		warm=$W/cg/warm.tsv
		meas=$W/cg/meas.tsv
	fi
	profile_wrk 1 "$expect" "$path" "$cookie" "$warm" > /dev/null
	profile_idle
	callgrind_control -z "$PROF_WORKER" > /dev/null 2>&1
	set -- $(profile_wrk 3 "$expect" "$path" "$cookie" "$meas")
	reqs=${1:-0} bad=${2:-0}
	profile_idle
	callgrind_control -d "$key" "$PROF_WORKER" > /dev/null 2>&1
	# The dump that this key triggered (its header names the trigger).
	n=0
	f=""
	while [ -z "$f" ] && [ "$n" -lt 100 ]; do
		sleep 0.1
		f=$(grep -l -x "desc: Trigger: dump $key" "$W/cg"/cg.* 2>/dev/null | head -n 1 || true)
		n=$((n + 1))
	done
	ir=""
	[ -n "$f" ] && ir=$(awk '/^summary:/ { print $2; exit }' "$f")
	served=""
	[ -n "$f" ] && served=$(profile_requests "$f")
	[ -n "$served" ] && [ "$served" != "$reqs" ] &&
		log "profile $key: wrk counted $reqs requests, the worker served $served"
	[ -n "$served" ] && reqs=$served
	if [ "${reqs:-0}" -gt 0 ] && [ -n "$ir" ]; then
		echo "ir|$key|$((ir / reqs))|$reqs|$bad" >> "$RES"
		log "profile $key: $((ir / reqs)) instructions per request ($reqs requests, $bad unexpected)"
	else
		log "profile $key: no result (dump ${f:-none}, wrk said:)"
		tail -n 3 "$W/cg/wrk.out" >&2
	fi
}
