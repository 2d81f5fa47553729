#!/bin/sh
# run-each.sh BIN... — runs test binaries from the project root, JOBS of them
# at a time (default 2, one a core), and prints each one's output whole when
# it ends, headed "== BIN"; fails if any fails. cmocka prints its own summary
# lines. The integration binaries each start their own app and nginx on
# ports of their own (tests/integration/harness.c), so two can run at once.
cd "$(dirname "$0")/.." || exit 1
jobs=${JOBS:-2}
out=$(mktemp -d "${TMPDIR:-/tmp}/spieltisch-each.XXXXXX") || exit 1
trap 'rm -rf "$out"' EXIT
# xargs fails (123) when any run exits 1; a run's own code is in its log.
printf '%s\n' "$@" | xargs -P "$jobs" -n 1 sh -c '
	log="$0/$(basename "$1").log"
	"$1" >"$log" 2>&1
	rc=$?
	[ "$rc" -eq 0 ] || echo "FAILED: $1 (exit $rc)" >>"$log"
	flock "$0/print" sh -c "echo \"== \$1\"; cat \"\$2\"" - "$1" "$log"
	[ "$rc" -eq 0 ]' "$out"
