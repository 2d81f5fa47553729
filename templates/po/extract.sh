#!/bin/sh
# extract.sh — writes the message template (.pot) of the given sources to
# standard output: C files through xgettext, templates (*.tpl) through the
# [[…]] markers (docs/i18n.md). German is the reference: every message id is
# the German text.
# Usage: templates/po/extract.sh FILE...
set -eu
export LC_ALL=C.UTF-8
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cfiles=""
tfiles=""
for f in "$@"; do
	case "$f" in
	*.tpl) tfiles="$tfiles $f" ;;
	*.c|*.h|*.cc) cfiles="$cfiles $f" ;;
	esac
done
hdr='msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"
"Content-Transfer-Encoding: 8bit\n"
"Language: \n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"
'
printf '%s\n' "$hdr" > "$tmp/c.pot"
if [ -n "$cfiles" ]; then
	# xgettext writes non-ASCII only under a header naming the charset;
	# its own header names none, ours does.
	# shellcheck disable=SC2086
	xgettext --from-code=UTF-8 --language=C --add-location=file \
		--keyword=_ --keyword=N_ --keyword=i18n_ntext:1,2 --keyword=i18n_nget:2,3 \
		--flag=i18n_ntext:1:pass-c-format --flag=i18n_ntext:2:pass-c-format \
		--keyword=rerr_set:2 --keyword=vtext:3 \
		--keyword=vtextf:3 --flag=rerr_set:2:c-format --flag=vtextf:3:c-format \
		--keyword=evlog_textf:3 --flag=evlog_textf:3:c-format \
		--flag=_:1:pass-c-format --flag=N_:1:pass-c-format \
		-o "$tmp/x.pot" $cfiles 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
	# Our ids are German: xgettext's warning that an id is not ASCII is moot.
	grep -v 'non-ASCII\|translators who use\|different from yours\|pure ASCII msgid\|^  ' \
		"$tmp/err" >&2 || true
	[ -f "$tmp/x.pot" ] && awk 'h { print } /^$/ { h = 1 }' "$tmp/x.pot" >> "$tmp/c.pot"
fi
printf '%s\n' "$hdr" > "$tmp/t.pot"
for f in $tfiles; do
	# One entry per [[…]] (a marker stays on one line), escaped for a .po.
	awk -v file="$f" '
	{
		line = $0
		while ((s = index(line, "[[")) > 0) {
			rest = substr(line, s + 2)
			e = index(rest, "]]")
			if (e == 0)
				break
			id = substr(rest, 1, e - 1)
			gsub(/\\/, "\\\\", id)
			gsub(/"/, "\\\"", id)
			printf "#: %s\n#, no-c-format\nmsgid \"%s\"\nmsgstr \"\"\n\n", file, id
			line = substr(rest, e + 2)
		}
	}' "$f" >> "$tmp/t.pot"
done
# A template text may stand in several places: one entry, every place.
msguniq --no-wrap -o "$tmp/t1.pot" "$tmp/t.pot"
[ -f "$tmp/t1.pot" ] || printf '%s\n' "$hdr" > "$tmp/t1.pot"   # no template text
msgcat --use-first --no-wrap --sort-output -o - "$tmp/c.pot" "$tmp/t1.pot"
