#!/bin/sh
# run-each.sh BIN... — runs test binaries from the project root, JOBS of them
# at a time (default 2, one a core), and prints each one's output whole when
# it ends, headed "== BIN (N s, C s CPU)" with its wall seconds and its CPU
# seconds (user + sys, what it costs whatever else the machine is doing);
# fails if any fails. cmocka prints its own summary lines. At the end a
# table of every binary's seconds, slowest (in CPU) first, shows where the
# time goes. The integration binaries each start their own app and nginx on
# ports of their own (tests/integration/harness.c), so two can run at once.
cd "$(dirname "$0")/.." || exit 1
jobs=${JOBS:-2}
out=$(mktemp -d "${TMPDIR:-/tmp}/spieltisch-each.XXXXXX") || exit 1
trap 'rm -rf "$out"' EXIT
start=$(date +%s)
# xargs fails (123) when any run exits 1; a run's own code is in its log.
# `times` right after the binary: its second line is the user and sys time
# of the children this shell waited for (the binary and what it waited for).
printf '%s\n' "$@" | xargs -P "$jobs" -n 1 sh -c '
	log="$0/$(basename "$1").log"
	t0=$(date +%s.%N)
	"$1" >"$log" 2>&1
	rc=$?
	times >"$log.t"
	t1=$(date +%s.%N)
	secs=$(awk -v a="$t0" -v b="$t1" "BEGIN { printf \"%.1f\", b - a }")
	cpu=$(sed -n 2p "$log.t" | awk "{ s = 0; for (i = 1; i <= 2; i++) { split(\$i, f, \"m\");
		sub(\"s\", \"\", f[2]); s += f[1] * 60 + f[2] }; printf \"%.1f\", s }")
	mark=""
	[ "$rc" -eq 0 ] || { echo "FAILED: $1 (exit $rc)" >>"$log"; mark=" FAILED"; }
	flock "$0/print" sh -c "echo \"== \$1 (\$3 s, \$6 s CPU)\"; cat \"\$2\"; \
		echo \"\$6 \$3 \$1\$5\" >>\"\$4/times\"" - "$1" "$log" "$secs" "$0" "$mark" "$cpu"
	[ "$rc" -eq 0 ]' "$out"
rc=$?
if [ -s "$out/times" ]; then
	echo "== seconds per binary, most CPU first ($(( $(date +%s) - start )) s in all, $jobs at a time)"
	echo "    CPU     wall"
	sort -rn "$out/times" | awk '{ c += $1; printf "%7.1f  %7.1f  %s%s\n", $1, $2, $3, $4 == "" ? "" : " " $4 }
		END { printf "%7.1f           CPU seconds in all\n", c }'
fi
exit "$rc"
