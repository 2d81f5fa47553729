#!/bin/sh
# i18n-check.sh — the message catalogs against the sources (docs/i18n.md).
# German is the reference: the messages are what templates/po/extract.sh
# finds in rules/, cgi/ and templates/. For each language given, its .po
# must translate every one of them, hold no other (an obsolete entry is an
# error: delete it or bring its message back), have nothing fuzzy, keep
# each c-format's conversions (msgfmt --check) and each template message's
# {{variables}} (the same set). Prints what is wrong; exit 1 if anything.
# Usage: tests/i18n-check.sh LANG...
set -u
export LC_ALL=C.UTF-8
po=templates/po
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2046
sh "$po/extract.sh" rules/*.c cgi/*.c cgi/*/*.c cgi/*.cc templates/*.tpl > "$tmp/ref.pot" || exit 1
bad=0
for l in "$@"; do
	f="$po/$l.po"
	if [ ! -f "$f" ]; then
		echo "i18n-check: $f is missing"
		bad=1
		continue
	fi
	# Merged with the messages of the sources: an untranslated entry is a
	# German message without the language, an obsolete one a translation
	# whose German is gone.
	msgmerge --quiet --no-fuzzy-matching --no-wrap -o "$tmp/m.po" "$f" "$tmp/ref.pot" || exit 1
	msgattrib --untranslated --no-obsolete --no-wrap "$tmp/m.po" | grep '^msgid "' | grep -v '^msgid ""$' \
		> "$tmp/missing"
	msgattrib --only-obsolete --no-wrap "$tmp/m.po" | grep '^#~ msgid "' | grep -v '^#~ msgid ""$' > "$tmp/extra"
	if [ -s "$tmp/missing" ] || [ -s "$tmp/extra" ]; then
		sed "s|^|i18n-check: $l: German only: |" "$tmp/missing" | head -60
		sed "s|^|i18n-check: $l: no longer in German: |" "$tmp/extra" | head -60
		bad=1
	fi
	if [ -n "$(msgattrib --only-fuzzy --no-obsolete "$f" 2>/dev/null)" ] ||
	   [ -n "$(msgattrib --only-obsolete "$f" 2>/dev/null)" ]; then
		echo "i18n-check: $l: fuzzy or obsolete entries (msgattrib --only-fuzzy / --only-obsolete $f)"
		bad=1
	fi
	if ! msgfmt --check -o /dev/null "$f" 2>"$tmp/err"; then
		sed "s|^|i18n-check: $l: |" "$tmp/err" | head -40
		bad=1
	fi
	# {{variables}}: the same set in a message and its translation.
	msgexec -i "$f" sh -c '
		id=$(printf "%s" "$MSGEXEC_MSGID" | grep -o "{{[^}]*}}" | sort | tr "\n" " ")
		tr=$(cat | grep -o "{{[^}]*}}" | sort | tr "\n" " ")
		[ "$id" = "$tr" ] || printf "%s\n" "$MSGEXEC_MSGID"' > "$tmp/vars" 2>/dev/null
	if [ -s "$tmp/vars" ]; then
		sed "s|^|i18n-check: $l: other {{variables}} than the German: |" "$tmp/vars"
		bad=1
	fi
done
n=$(grep -c '^msgid ' "$tmp/ref.pot")
if [ "$bad" -ne 0 ]; then
	echo "i18n-check: FAILED"
	exit 1
fi
echo "i18n-check: $((n - 1)) messages, every one in: $*"
