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
# The {{variables}} check's program: a .po on input, for each entry whose
# translations hold another multiset of {{…}} (grep -o '{{[^}]*}}' on each
# line of the unescaped text) than its msgid, that msgid on output.
vars_awk='
function unesc(s,   o, c, i) {
	o = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\\" && i < length(s)) {
			c = substr(s, ++i, 1)
			if (c == "n") c = "\n"
			else if (c == "t") c = "\t"
		}
		o = o c
	}
	return o
}
function vars(s,   n, lines, i, l, v, k, j, t, out) {
	k = 0
	n = split(s, lines, "\n")
	for (i = 1; i <= n; i++) {
		l = lines[i]
		while (match(l, /[{][{][^}]*[}][}]/)) {
			v[++k] = substr(l, RSTART, RLENGTH)
			l = substr(l, RSTART + RLENGTH)
		}
	}
	for (i = 2; i <= k; i++) {
		t = v[i]
		for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]
		v[j + 1] = t
	}
	out = ""
	for (i = 1; i <= k; i++) out = out v[i] " "
	return out
}
function flush(   i, want) {
	if (have) {
		want = vars(unesc(id))
		for (i = 0; i < nstr; i++)
			if (vars(unesc(str[i])) != want) print unesc(id)
	}
	have = 0; nstr = 0; id = ""; cur = ""
}
function text(line) { sub(/^[^"]*"/, "", line); sub(/"[ \t]*$/, "", line); return line }
/^#~ / { sub(/^#~ /, "") }
/^msgid "/ { flush(); have = 1; id = text($0); cur = "id"; next }
/^msgid_plural "/ { cur = "plural"; next }
/^msgstr(\[[0-9]+\])? "/ { str[nstr++] = text($0); cur = "str"; next }
/^"/ {
	if (cur == "id") id = id text($0)
	else if (cur == "str") str[nstr - 1] = str[nstr - 1] text($0)
	next
}
{ flush() }
END { flush() }
'
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
	# {{variables}}: the same set in a message and its translation, in one
	# pass over the catalog (not a process per message, as msgexec would;
	# docs/reliability.md has the seconds). Every translation of every entry
	# is compared, fuzzy and obsolete ones too, as msgexec did; what differs
	# prints its German, unescaped.
	awk "$vars_awk" "$f" > "$tmp/vars"
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
