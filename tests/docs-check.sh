#!/bin/sh
# docs-check.sh BIN — every registered game's move docs carry its table of
# verbs exactly as the game's table says (`BIN verbs SLUG`), between the
# markers "<!-- verbs -->" and "<!-- /verbs -->" of docs/moves-SLUG.md. With
# --update the blocks are rewritten from the tables.
set -eu
bin=$1
update=${2:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/spieltisch-docs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
for slug in $("$bin" games | cut -d' ' -f1); do
	doc=docs/moves-$slug.md
	if [ ! -f "$doc" ] || ! grep -q '^<!-- verbs -->$' "$doc" || ! grep -q '^<!-- /verbs -->$' "$doc"; then
		echo "docs-check: $doc lacks the <!-- verbs --> … <!-- /verbs --> block" >&2
		fail=1
		continue
	fi
	"$bin" verbs "$slug" >"$tmp/want"
	sed -n '/^<!-- verbs -->$/,/^<!-- \/verbs -->$/p' "$doc" | sed '1d;$d' >"$tmp/have"
	if cmp -s "$tmp/want" "$tmp/have"; then
		continue
	fi
	if [ "$update" = --update ]; then
		awk -v table="$tmp/want" '
			/^<!-- verbs -->$/ { print; while ((getline l < table) > 0) print l; skip = 1; next }
			/^<!-- \/verbs -->$/ { skip = 0 }
			!skip { print }' "$doc" >"$tmp/doc"
		cat "$tmp/doc" >"$doc"
		echo "docs-check: rewrote the verbs of $doc"
		continue
	fi
	echo "docs-check: the verbs in $doc differ from the game's table:" >&2
	diff "$tmp/have" "$tmp/want" >&2 || true
	fail=1
done
[ $fail -eq 0 ] && echo "docs-check: every game's verbs as documented"
exit $fail
