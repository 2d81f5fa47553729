#!/bin/sh
# run-unit.sh BIN... — runs each cmocka test binary; fails if any fails.
# cmocka prints its own summary lines ("[  PASSED  ] N test(s).").
fail=0
for t in "$@"; do
	echo "== $t"
	"$t" || { echo "FAILED: $t"; fail=1; }
done
exit $fail
