#!/bin/sh
# phases.sh — `make test`'s driver (docs/reliability.md "make test"): the
# build of the program, then three lanes side by side, so that both cores
# stay busy to the end:
#
#   waiting lane    browser, then itest: servers, nginx and Chromium,
#                   which spend much of their time waiting on each other;
#                   it needs only the program until itest, which waits for
#                   the working lane's test binaries
#   working lane    bins (the unit and integration binaries; not under
#                   nice, as itest waits for it), pg-check (the store's
#                   tests on a throw-away PostgreSQL, mostly waiting too, so
#                   not under nice either), unit (the plain runs that test
#                   more than the ASan run), the checks (docs, i18n, perft),
#                   sim-check, fuzz-check
#   sanitizer lane  asan: its own build, every unit binary and the
#                   simulators under ASan+UBSan
#
# The working and sanitizer lanes are mostly CPU and run under `nice`, so
# that the waiting lane's pages and servers answer first and these take the
# time it leaves idle; being two, one of them always has work for a core
# that the other's last job leaves free.
#
# Each phase's output is kept and printed whole when it ends, headed with
# its wall seconds and its CPU seconds (user + sys of everything it ran and
# waited for). Every phase runs, whatever failed before it, so that one run
# shows every failure; then a table of every phase, and the exit status is
# non-zero if any phase failed. MAKE (default make) runs the targets.
cd "$(dirname "$0")/.." || exit 1
MAKE=${MAKE:-make}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/spieltisch-phases.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s.%N)
echo "make test: load at start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"

# secs T0 [T1]: seconds from T0 to T1 (default now), one decimal.
secs() {
	awk -v a="$1" -v b="${2:-$(date +%s.%N)}" 'BEGIN { printf "%.1f", b - a }'
}

# phase NAME CMD...: runs CMD with its output kept, then prints it whole with
# its times, and adds a line to the table. `times` in the subshell gives the
# user and sys seconds of the children it waited for (dash and bash print
# "0m1.5s 0m0.2s", the second line is the children's).
phase() {
	name=$1
	shift
	t0=$(date +%s.%N)
	("$@"; rc=$?; times >"$tmp/$name.times"; exit $rc) >"$tmp/$name.log" 2>&1
	rc=$?
	wall=$(secs "$t0")
	cpu=$(sed -n 2p "$tmp/$name.times" 2>/dev/null | awk '{
		s = 0
		for (i = 1; i <= 2; i++) { split($i, f, "m"); sub("s", "", f[2]); s += f[1] * 60 + f[2] }
		printf "%.1f", s }')
	if [ "$rc" -eq 0 ]; then st=ok; else st="FAILED (exit $rc)"; fi
	flock "$tmp/print" sh -c '
		echo "==== $1: $2 — $3 s wall, $4 s CPU"
		cat "$5"
		echo "==== $1 ends: $2 ($3 s wall, $4 s CPU)"
		printf "%-12s %7s %7s  %s\n" "$1" "$3" "$4" "$2" >>"$6/table"' \
		- "$name" "$st" "$wall" "${cpu:-?}" "$tmp/$name.log" "$tmp"
	[ "$rc" -eq 0 ] || echo "$name" >>"$tmp/failed"
	return "$rc"
}

# The build first, both cores: the program and the catalogs, all that the
# browser tests need; the test binaries are the working lane's first phase.
phase build "$MAKE" --no-print-directory -j2 all || {
	echo "make test: the build failed"
	exit 1
}

# itest runs binaries that the phase bins builds: it waits for this lock,
# which the working lane gives back when bins has ended (one make builds
# them, never two at once).
exec 9>"$tmp/bins.lock"
flock 9

(
	exec 9>&-
	phase browser "$MAKE" --no-print-directory browser
	flock "$tmp/bins.lock" true
	phase itest "$MAKE" --no-print-directory itest
) &
waiting=$!
(
	phase bins "$MAKE" --no-print-directory -j2 unit-bins itest-bins
	flock -u 9
	exec 9>&-
	phase pg-check "$MAKE" --no-print-directory pg-check
	phase unit nice -n 10 "$MAKE" --no-print-directory unit-plain
	phase checks nice -n 10 "$MAKE" --no-print-directory docs-check i18n-check perft-check
	phase sim-check nice -n 10 "$MAKE" --no-print-directory sim-check
	phase fuzz-check nice -n 10 "$MAKE" --no-print-directory fuzz-check
) &
working=$!
(
	exec 9>&-
	phase asan nice -n 10 "$MAKE" --no-print-directory asan
) &
sanitizer=$!
exec 9>&-
wait "$waiting"
wait "$working"
wait "$sanitizer"

echo "==== phases (seconds; waiting lane: browser, itest; sanitizer lane: asan; working lane: the rest)"
printf '%-12s %7s %7s  %s\n' phase wall CPU status
cat "$tmp/table"
awk -v w="$(secs "$start")" '{ c += $3 } END {
	printf "make test: %.0f s wall, %.0f s CPU in the phases (%.2f cores busy on average)\n", w, c, c / w }' \
	"$tmp/table"
echo "make test: load at end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
if [ -s "$tmp/failed" ]; then
	echo "make test: FAILED: $(tr '\n' ' ' <"$tmp/failed")"
	exit 1
fi
