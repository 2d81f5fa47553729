#!/bin/sh
# run.sh check|long — builds the libFuzzer targets (clang, ASan + UBSan) and
# runs them.
#   check  every target over its checked-in corpus (tests/fuzz/corpus/<t>/,
#          crashes found earlier are kept there as regression inputs), then
#          a short bounded run: FUZZ_CHECK_SECONDS (default 8) per target.
#   long   every target for FUZZ_SECONDS (default 300) each.
# New inputs found go to build/fuzz/work/<t>/ (not the checked-in corpus);
# a crash is written to build/fuzz/artifacts/ and fails the run. Each target
# prints one line with its executions, for docs/reliability.md.
# Environment: CLANG (default clang), B (default build), FUZZ_TARGETS
# (default: all four), FUZZ_SECONDS, FUZZ_CHECK_SECONDS. The targets run two
# at a time.
set -eu

mode=${1:-check}
case "$mode" in
check) secs=${FUZZ_CHECK_SECONDS:-8} ;;
long) secs=${FUZZ_SECONDS:-300} ;;
*) echo "usage: $0 check|long" >&2; exit 2 ;;
esac

CLANG=${CLANG:-clang}
B=${B:-build}
out=$B/fuzz
here=tests/fuzz
targets=${FUZZ_TARGETS:-"fuzz_movetext fuzz_snapshot fuzz_apply fuzz_http"}

command -v "$CLANG" >/dev/null 2>&1 || { echo "fuzz: $CLANG not found (make deps-test)" >&2; exit 1; }

san="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
cflags="-std=c11 -Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes -D_DEFAULT_SOURCE -O1 -gline-tables-only $san -Irules -Icgi -Icgi/engine -Icgi/cmd -Itests -Itests/fuzz"

# Sources each target links besides itself.
srcs() {
	case "$1" in
	fuzz_movetext) echo "rules/movetext.c rules/view.c" ;;
	fuzz_snapshot | fuzz_apply) ls rules/*.c ;;
	fuzz_http) echo "cgi/http.c cgi/arena.c rules/view.c" ;;
	esac
}
# Longest input per target.
maxlen() {
	case "$1" in
	fuzz_movetext) echo 400 ;;
	fuzz_snapshot) echo 8192 ;;
	fuzz_apply) echo 4096 ;;
	fuzz_http) echo 20000 ;;
	esac
}

mkdir -p "$out/obj" "$out/artifacts"
# Compiles one library source with coverage for the fuzzer (cached by mtime).
obj() {
	o=$out/obj/$(echo "$1" | tr / _ | sed 's/\.c$/.o/')
	if [ ! -f "$o" ] || [ "$1" -nt "$o" ] || [ "$here/coverage-ignore.txt" -nt "$o" ] || find rules cgi tests/fuzz tests/walk.h -name '*.h' -newer "$o" | grep -q .; then
		# shellcheck disable=SC2086
		"$CLANG" $cflags -fsanitize=fuzzer-no-link \
			-fsanitize-coverage-ignorelist="$here/coverage-ignore.txt" -c "$1" -o "$o"
	fi
	echo "$o"
}

# Builds target $1 into $out/$1.
build() {
	objs=""
	for s in $(srcs "$1"); do
		if [ ! -f "$s" ]; then
			echo "fuzz: $1 needs $s, which does not exist" >&2
			return 1
		fi
		objs="$objs $(obj "$s")"
	done
	# shellcheck disable=SC2086
	"$CLANG" $cflags -fsanitize=fuzzer "$here/$1.c" $objs -o "$out/$1"
}

# Runs target $1: its checked-in corpus, then the bounded run. Writes what it
# has to say to $out/$1.said and its summary line to $out/$1.line; fails on
# a crash.
run() {
	t=$1
	corpus=$here/corpus/$t
	work=$out/work/$t
	mkdir -p "$corpus" "$work"
	dict=""
	[ -f "$here/$t.dict" ] && dict="-dict=$here/$t.dict"
	log=$out/$t.log
	said=$out/$t.said
	echo "== $t: corpus ($(ls "$corpus" | wc -l) inputs), then ${secs}s" >"$said"
	# 1. Every checked-in input, crashes found earlier included.
	if ! "$out/$t" -runs=0 -max_len="$(maxlen "$t")" -artifact_prefix="$out/artifacts/$t-" \
		"$corpus" >"$log" 2>&1; then
		tail -40 "$log" >>"$said"
		echo "FAILED: $t on its checked-in corpus" >>"$said"
		return 1
	fi
	# 2. A bounded run from the corpus; new inputs go to the work dir.
	# shellcheck disable=SC2086
	if ! "$out/$t" -max_total_time="$secs" -max_len="$(maxlen "$t")" -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 $dict \
		-artifact_prefix="$out/artifacts/$t-" "$work" "$corpus" >"$log" 2>&1; then
		tail -40 "$log" >>"$said"
		echo "FAILED: $t (input saved in $out/artifacts/; add it to $corpus with the fix)" \
			>>"$said"
		return 1
	fi
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
	echo "$t: ${execs:-?} executions in ${secs}s (${speed:-?}/s), no failure" >"$out/$t.line"
	echo "   $(cat "$out/$t.line")" >>"$said"
}

# Runs "$1 X" for every further argument X, two at a time (one a core).
two_lanes() {
	f=$1
	shift
	a=""
	b=""
	i=0
	for x in "$@"; do
		if [ $((i % 2)) -eq 0 ]; then a="$a $x"; else b="$b $x"; fi
		i=$((i + 1))
	done
	(for x in $a; do "$f" "$x" || :; done) &
	lane=$!
	for x in $b; do "$f" "$x" || :; done
	wait "$lane" || :
}

# The library objects first, then every target, then the runs.
quiet_obj() { obj "$1" >/dev/null; }
# shellcheck disable=SC2046
two_lanes quiet_obj $(for t in $targets; do srcs "$t"; done | tr ' ' '\n' | sort -u)
for t in $targets; do
	build "$t"
	rm -f "$out/$t.said" "$out/$t.line"
done
# shellcheck disable=SC2086
two_lanes run $targets

fail=0
summary=""
for t in $targets; do
	cat "$out/$t.said"
	if [ -f "$out/$t.line" ]; then
		summary="$summary
$(cat "$out/$t.line")"
	else
		fail=1
	fi
done
echo "fuzz $mode:$summary"
exit $fail
