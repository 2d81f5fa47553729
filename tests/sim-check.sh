#!/bin/sh
# sim-check.sh BIN — random complete parties for every registered game and
# every player count it allows, with invariants after every move and a replay
# of every party. SIM_GAMES=small runs fewer (for the sanitizer build).
# Each game may list extra option sets in tests/sim-options/<slug> (one line
# of --opt arguments per set).
bin=$1
per=2000
[ "${SIM_GAMES:-}" = small ] && per=150
pass=0
fail=0
run() {
	if "$bin" sim "$@" --quiet; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED: sim $*"; fi
}
"$bin" games > /tmp/spieltisch-games.$$ || exit 1
while read -r slug min max; do
	p=$min
	while [ "$p" -le "$max" ]; do
		run "$slug" --games "$per" --players "$p" --seed 1
		p=$((p + 1))
	done
	if [ -f "tests/sim-options/$slug" ]; then
		while read -r opts; do
			[ -z "$opts" ] && continue
			# shellcheck disable=SC2086
			run "$slug" --games "$per" --players "$max" --seed 2 $opts
		done < "tests/sim-options/$slug"
	fi
done < /tmp/spieltisch-games.$$
rm -f /tmp/spieltisch-games.$$
echo "sim-check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
