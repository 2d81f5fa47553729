#!/bin/sh
# sim-check.sh BIN — random complete parties for every registered game and
# every player count it allows, with invariants after every move and a replay
# of every party. SIM_GAMES=small runs fewer (for the sanitizer build).
# Each game may list extra option sets in tests/sim-options/<slug> (one line
# of --opt arguments per set). JOBS runs (default 2, one a core) at a time.
bin=$1
per=2000
[ "${SIM_GAMES:-}" = small ] && per=150
jobs=${JOBS:-2}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/spieltisch-sim.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
"$bin" games >"$tmp/games" || exit 1
# One line of sim arguments a run.
while read -r slug min max; do
	p=$min
	while [ "$p" -le "$max" ]; do
		echo "$slug --games $per --players $p --seed 1"
		p=$((p + 1))
	done
	if [ -f "tests/sim-options/$slug" ]; then
		while read -r opts; do
			[ -n "$opts" ] && echo "$slug --games $per --players $max --seed 2 $opts"
		done <"tests/sim-options/$slug"
	fi
done <"$tmp/games" >"$tmp/runs"
# Each run's output is printed whole as it ends; it leaves a line in passed
# or failed.
xargs -P "$jobs" -L 1 sh -c '
	bin=$1; tmp=$2; shift 2
	if "$bin" sim "$@" --quiet >"$tmp/out.$$" 2>&1; then
		echo "$*" >>"$tmp/passed"
	else
		echo "FAILED: sim $*" >>"$tmp/out.$$"
		echo "$*" >>"$tmp/failed"
	fi
	flock "$tmp/print" cat "$tmp/out.$$"
	rm -f "$tmp/out.$$"' - "$bin" "$tmp" <"$tmp/runs"
pass=$(cat "$tmp/passed" 2>/dev/null | wc -l)
fail=$(cat "$tmp/failed" 2>/dev/null | wc -l)
echo "sim-check: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
