#!/bin/sh
# run-integration.sh BIN... — runs each integration test binary (each starts
# its own app and nginx through tests/integration/harness.c) from the
# project root; fails if any fails. SPIELTISCH_IT_LOGS=1 prints the servers'
# logs at the end of each binary, SPIELTISCH_IT_KEEP=1 keeps their files.
cd "$(dirname "$0")/.." || exit 1
fail=0
for t in "$@"; do
	echo "== $t"
	"$t" || { echo "FAILED: $t"; fail=1; }
done
exit $fail
