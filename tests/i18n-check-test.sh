#!/bin/sh
# i18n-check-test.sh — tests tests/i18n-check.sh itself: a small project in
# a temporary directory (one C file, one template) and an English catalog
# with one of each fault the check must name: a translation that lost a
# {{variable}}, one that renamed a variable over continued lines, an
# untranslated message, a fuzzy entry, an obsolete one and one whose German
# is gone. The check must fail and print exactly the expected lines; the
# same catalog repaired must pass. Usage: tests/i18n-check-test.sh
set -u
export LC_ALL=C.UTF-8
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/rules" "$tmp/cgi/engine" "$tmp/templates/po" "$tmp/tests"
cp "$root/templates/po/extract.sh" "$tmp/templates/po/"
cp "$root/tests/i18n-check.sh" "$tmp/tests/"
cat > "$tmp/rules/a.c" <<'C'
const char *vtext(void *v, const char *k, const char *s);
void f(void *v);
void f(void *v) { vtext(v, "k", "Karte ziehen"); vtext(v, "k", "Zug abgelehnt"); }
C
printf '/* nothing */\n' > "$tmp/cgi/a.c"
printf '/* nothing */\n' > "$tmp/cgi/engine/b.c"   # cgi's folders too
printf '// nothing\n' > "$tmp/cgi/a.cc"
cat > "$tmp/templates/t.tpl" <<'T'
<p>[[Hallo {{name}}, du hast {{n}} Karten]]</p>
<p>[[Alle {{rounds}} Runden sind gespielt.]]</p>
<p>[[Stapel {{stack}}]]</p>
T
header='msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"
"Content-Transfer-Encoding: 8bit\n"
"Language: en\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"
'
# The repaired catalog.
cat > "$tmp/good.po" <<EOF2
$header
msgid "Alle {{rounds}} Runden sind gespielt."
msgstr "All {{rounds}} rounds are played."

msgid "Hallo {{name}}, du hast {{n}} Karten"
msgstr "Hello {{name}}, you have {{n}} cards"

msgid "Karte ziehen"
msgstr "Draw a card"

msgid "Stapel {{stack}}"
msgstr "Stack {{stack}}"

msgid "Zug abgelehnt"
msgstr "Move refused"
EOF2
# The broken one.
cat > "$tmp/bad.po" <<EOF2
$header
msgid "Alle {{rounds}} Runden sind gespielt."
msgstr ""
"All {{round}} rounds "
"are played."

msgid "Hallo {{name}}, du hast {{n}} Karten"
msgstr "Hello {{name}}, you have cards"

msgid "Karte ziehen"
msgstr ""

#, fuzzy
msgid "Stapel {{stack}}"
msgstr "Stack"

msgid "Zug abgelehnt"
msgstr "Move refused"

msgid "Gibt es nicht mehr {{x}}"
msgstr "No longer there"

#~ msgid "Alt {{a}}"
#~ msgstr "Old"
EOF2
cat > "$tmp/want" <<'W'
i18n-check: en: German only: msgid "Karte ziehen"
i18n-check: en: no longer in German: #~ msgid "Gibt es nicht mehr {{x}}"
i18n-check: en: no longer in German: #~ msgid "Alt {{a}}"
i18n-check: en: fuzzy or obsolete entries (msgattrib --only-fuzzy / --only-obsolete templates/po/en.po)
i18n-check: en: other {{variables}} than the German: Alle {{rounds}} Runden sind gespielt.
i18n-check: en: other {{variables}} than the German: Hallo {{name}}, du hast {{n}} Karten
i18n-check: en: other {{variables}} than the German: Stapel {{stack}}
i18n-check: en: other {{variables}} than the German: Gibt es nicht mehr {{x}}
i18n-check: en: other {{variables}} than the German: Alt {{a}}
i18n-check: FAILED
W
bad=0
cd "$tmp" || exit 1
cp good.po templates/po/en.po
if ! sh tests/i18n-check.sh en > got-good 2>&1; then
	echo "i18n-check-test: the repaired catalog fails:"
	cat got-good
	bad=1
fi
cp bad.po templates/po/en.po
if sh tests/i18n-check.sh en > got 2>&1; then
	echo "i18n-check-test: the broken catalog passes"
	bad=1
fi
if ! diff -u want got; then
	echo "i18n-check-test: the broken catalog's report differs from the expected one (above)"
	bad=1
fi
[ "$bad" -eq 0 ] && echo "i18n-check-test: every fault named, the repaired catalog passes"
exit "$bad"
