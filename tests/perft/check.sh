#!/bin/sh
# check.sh BIN [--update] — the behaviour proofs (docs/perft.md):
#   tests/perft/<slug>.txt   perft tables of every case in tests/perft/cases
#   tests/perft/signatures.txt   `sim --bench` signatures, every game and
#                            player count, 200 parties from seed 1
# recomputed and compared with the checked-in files; --update rewrites them.
# A commit that changes them says why.
set -u
bin=$1
update=${2:-}
dir=tests/perft
out=$(mktemp -d "${TMPDIR:-/tmp}/spieltisch-perft.XXXXXX") || exit 1
trap 'rm -rf "$out"' EXIT
fail=0

"$bin" games > "$out/games" || exit 1
while read -r slug min max; do
	if ! grep -q "^$slug " "$dir/cases"; then
		echo "perft-check: $slug has no case in $dir/cases"
		fail=1
		continue
	fi
	grep "^$slug " "$dir/cases" | while read -r s players depth; do
		"$bin" perft "$s" --players "$players" --seed 1 --depth "$depth" || echo "FAILED: perft $s $players $depth"
	done > "$out/$slug.txt"
	p=$min
	while [ "$p" -le "$max" ]; do
		"$bin" sim "$slug" --games 200 --players "$p" --seed 1 --bench --quiet | grep '^signature' ||
			echo "FAILED: sim $slug --players $p"
		p=$((p + 1))
	done >> "$out/signatures.txt"
done < "$out/games"

for f in "$out"/*.txt; do
	name=$(basename "$f")
	if [ "$update" = --update ]; then
		cp "$f" "$dir/$name"
		echo "perft-check: wrote $dir/$name"
	elif ! diff -u "$dir/$name" "$f"; then
		echo "perft-check: $dir/$name differs (the game's behaviour changed: see docs/perft.md)"
		fail=1
	fi
done
[ "$fail" -eq 0 ] && echo "perft-check: all tables and signatures as checked in"
exit "$fail"
