/* test_lexicon.c — the platform's German word lookups (cgi/lexicon.h): how
 * often the hyphenation patterns give the right number of syllables, on
 * German words whose syllables are known, and the word list. The syllable
 * count is a suggestion a vote may overrule, so it need not be perfect: the
 * test prints the accuracy and holds it above a floor.
 *
 * The patterns compiled at build time (cgi/lexfile.h) must be libhyphen's
 * own: the mapped state machine equals the one hnj_hyphen_load builds, and
 * tens of thousands of words of the word list hyphenate alike with both; a
 * file that does not fit (another dictionary, truncated, damaged) is
 * refused and the loader used instead. Likewise the word list compiled at
 * build time knows what the list read at start knows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <hyphen.h>

#include "lexfile.h"
#include "lexicon.h"

static struct lexicon *lx;      /* the patterns from the compiled file */
static HyphenDict *ref;         /* the same patterns by libhyphen's loader */
static struct lexfile_hyph *map;    /* the compiled file, mapped */
static char dir[64], compiled[128], words[128];

static int setup(void **u)
{
	const char *why = "";
	(void)u;
	snprintf(dir, sizeof dir, "/tmp/test_lexicon.XXXXXX");
	if (!mkdtemp(dir) || (ref = hnj_hyphen_load(LEXICON_HYPH)) == NULL)
		return -1;
	snprintf(compiled, sizeof compiled, "%s/%s", dir, LEXFILE_HYPH);
	snprintf(words, sizeof words, "%s/%s", dir, LEXFILE_WORDS);
	if (lexfile_hyph_write(ref, LEXICON_HYPH, compiled) != 0 ||
	    lexfile_hyph_map(&map, compiled, LEXICON_HYPH, &why) != 0 ||
	    lexicon_compile_words(LEXICON_WORDS, words) != 0) {
		fprintf(stderr, "compiled lexicon: %s\n", why);
		return -1;
	}
	return lexicon_open_compiled(&lx, dir, LEXICON_HYPH, LEXICON_WORDS);
}

static void remove_in_dir(const char *name)
{
	char path[192];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	unlink(path);
}

static int teardown(void **u)
{
	(void)u;
	lexicon_close(lx);
	lexfile_hyph_unmap(map);
	if (ref)
		hnj_hyphen_free(ref);
	remove_in_dir(LEXFILE_HYPH);
	remove_in_dir(LEXFILE_WORDS);
	rmdir(dir);
	return 0;
}

/* Words and their syllables as a German dictionary divides them. */
static const struct {
	const char *word;
	int syllables;
} known[] = {
	{ "Fechtmeister", 3 }, { "Schwimmreifen", 3 }, { "Mensch", 1 }, { "Sonne", 2 },
	{ "Haus", 1 }, { "Banane", 3 }, { "Schokolade", 4 }, { "Erdbeere", 3 },
	{ "Apfel", 2 }, { "Tisch", 1 }, { "Fahrrad", 2 }, { "Eisenbahn", 3 },
	{ "Abend", 2 }, { "Ofen", 2 }, { "Igel", 2 }, { "Elefant", 3 },
	{ "Giraffe", 3 }, { "Kartoffel", 3 }, { "Tomate", 3 }, { "Gurke", 2 },
	{ "Zwiebel", 2 }, { "Schmetterling", 3 }, { "Regenbogen", 4 }, { "Fußball", 2 },
	{ "Handschuh", 2 }, { "Lehrer", 2 }, { "Krankenhaus", 3 }, { "Bürgermeister", 4 },
	{ "Fenster", 2 }, { "Straße", 2 }, { "Wasser", 2 }, { "Blume", 2 },
	{ "Baum", 1 }, { "Vogel", 2 }, { "Katze", 2 }, { "Hund", 1 },
	{ "Pferd", 1 }, { "Ziege", 2 }, { "Meerschweinchen", 3 }, { "Urlaub", 2 },
	{ "Strand", 1 }, { "Muschel", 2 }, { "Sandburg", 2 }, { "Leuchtturm", 2 },
	{ "Autobahn", 3 }, { "Flugzeug", 2 }, { "Hubschrauber", 3 }, { "Computer", 3 },
	{ "Telefon", 3 }, { "Kühlschrank", 2 }, { "Waschmaschine", 4 }, { "Zahnbürste", 3 },
	{ "Spiegel", 2 }, { "Kissen", 2 }, { "Geburtstag", 3 }, { "Weihnachten", 3 },
	{ "Ostern", 2 }, { "Kindergarten", 4 }, { "Schule", 2 }, { "Abenteuer", 4 },
	{ "Eule", 2 }, { "Idee", 2 }, { "Radio", 3 }, { "Museum", 3 },
	{ "Theater", 3 }, { "Universität", 5 }, { "Bibliothek", 4 }, { "Käse", 2 },
	{ "Löwe", 2 }, { "Übung", 2 }, { "Äpfel", 2 }, { "Brötchen", 2 },
};

static void test_syllable_accuracy(void **u)
{
	(void)u;
	int n = (int)(sizeof known / sizeof known[0]), right = 0;
	assert_true(n >= 50);
	for (int i = 0; i < n; i++) {
		int got = lexicon_syllables(lx, known[i].word);
		assert_true(got >= 1);
		if (got == known[i].syllables)
			right++;
		else
			print_message("syllables: %s: %d, not %d\n", known[i].word, got,
				      known[i].syllables);
	}
	print_message("syllables: %d of %d words right (%.0f %%)\n", right, n, 100.0 * right / n);
	assert_true(right * 100 >= 90 * n);   /* 68 of 72 (94 %) when written */
}

static void test_syllables_refuse_non_words(void **u)
{
	(void)u;
	assert_int_equal(lexicon_syllables(lx, ""), -1);
	assert_int_equal(lexicon_syllables(lx, "Ω"), -1);   /* not Latin-1 */
	assert_int_equal(lexicon_syllables(NULL, "Haus"), -1);
	/* case does not matter, umlauts come in as UTF-8 */
	assert_int_equal(lexicon_syllables(lx, "HAUS"), lexicon_syllables(lx, "haus"));
	assert_int_equal(lexicon_syllables(lx, "Käse"), lexicon_syllables(lx, "KÄSE"));
}

static void test_word_list(void **u)
{
	(void)u;
	assert_int_equal(lexicon_known(lx, "Fechtmeister"), 1);
	assert_int_equal(lexicon_known(lx, "fechtmeister"), 1);
	assert_int_equal(lexicon_known(lx, "Straße"), 1);
	assert_int_equal(lexicon_known(lx, "Bürgermeister"), 1);
	assert_int_equal(lexicon_known(lx, "BÜRGERMEISTER"), 1);
	assert_int_equal(lexicon_known(lx, "Xylofantastikum"), 0);
	assert_int_equal(lexicon_known(lx, ""), 0);
	assert_int_equal(lexicon_known(NULL, "Haus"), -1);
}

static int same_string(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The mapped state machine is the loader's, level by level, state by state. */
static void test_compiled_states_equal(void **u)
{
	(void)u;
	const HyphenDict *a = ref, *b = lexfile_hyph_dict(map);
	long states = 0;
	assert_int_equal(lexicon_compiled(lx), 3);   /* patterns and word list */
	for (; a && b; a = a->nextlevel, b = b->nextlevel) {
		assert_int_equal(a->lhmin, b->lhmin);
		assert_int_equal(a->rhmin, b->rhmin);
		assert_int_equal(a->clhmin, b->clhmin);
		assert_int_equal(a->crhmin, b->crhmin);
		assert_int_equal(a->utf8, b->utf8);
		assert_string_equal(a->cset, b->cset);
		assert_int_equal(a->nohyphenl, b->nohyphenl);
		assert_true(same_string(a->nohyphen, b->nohyphen));
		for (int i = 0, at = 0; a->nohyphen && i <= a->nohyphenl; i++) {
			assert_string_equal(a->nohyphen + at, b->nohyphen + at);
			at += (int)strlen(a->nohyphen + at) + 1;
		}
		assert_int_equal(a->num_states, b->num_states);
		for (int i = 0; i < a->num_states; i++, states++) {
			const HyphenState *x = &a->states[i], *y = &b->states[i];
			assert_true(same_string(x->match, y->match));
			assert_true(same_string(x->repl, y->repl));
			assert_int_equal(x->replindex, y->replindex);
			assert_int_equal(x->replcut, y->replcut);
			assert_int_equal(x->fallback_state, y->fallback_state);
			assert_int_equal(x->num_trans, y->num_trans);
			for (int t = 0; t < x->num_trans; t++) {
				assert_int_equal(x->trans[t].ch, y->trans[t].ch);
				assert_int_equal(x->trans[t].new_state, y->trans[t].new_state);
			}
		}
	}
	assert_null(a);
	assert_null(b);
	print_message("compiled patterns: %ld states equal the loader's\n", states);
	assert_true(states > 100000);
}

/* A UTF-8 word as lower-case Latin-1, like lexicon_syllables: its length,
 * or -1 (a character outside Latin-1, too long). */
static int latin1_lower(const char *w, char *out, int cap)
{
	int n = 0;
	for (const unsigned char *p = (const unsigned char *)w; *p; p++) {
		unsigned c = *p;
		if (c >= 0xc2 && c <= 0xc3 && (p[1] & 0xc0) == 0x80)
			c = ((c & 0x1f) << 6) | (*++p & 0x3f);
		else if (c >= 0x80)
			return -1;
		if ((c >= 'A' && c <= 'Z') || (c >= 0xc0 && c <= 0xde && c != 0xd7))
			c += 0x20;
		if (n + 1 >= cap)
			return -1;
		out[n++] = (char)c;
	}
	out[n] = '\0';
	return n;
}

static void free_rep(char **rep, int *pos, int *cut, int n)
{
	if (!rep)
		return;
	for (int i = 0; i < n; i++)
		free(rep[i]);
	free(rep);
	free(pos);
	free(cut);
}

/* Hyphenates w (Latin-1, n bytes) with d both ways the platform might:
 * with lexicon_syllables' limits (h3) and with the patterns' own (h2). */
static void hyphenate(HyphenDict *d, const char *w, int n, char *h3, char *h2)
{
	char **rep = NULL;
	int *pos = NULL, *cut = NULL;
	assert_int_equal(hnj_hyphen_hyphenate3(d, w, n, h3, NULL, &rep, &pos, &cut, 1, 2, 1, 2), 0);
	free_rep(rep, pos, cut, n);
	rep = NULL;
	pos = cut = NULL;
	assert_int_equal(hnj_hyphen_hyphenate2(d, w, n, h2, NULL, &rep, &pos, &cut), 0);
	free_rep(rep, pos, cut, n);
}

/* One word: the same hyphenation points from both dictionaries, and
 * lexicon_syllables (compiled) counts the loader's points. 1 when compared. */
static int compare_word(const char *word)
{
	char w[64], a3[70], a2[70], b3[70], b2[70];
	int n = latin1_lower(word, w, sizeof w);
	if (n <= 0)
		return 0;
	hyphenate(ref, w, n, a3, a2);
	hyphenate(lexfile_hyph_dict(map), w, n, b3, b2);
	if (memcmp(a3, b3, (size_t)n) != 0 || memcmp(a2, b2, (size_t)n) != 0)
		fail_msg("%s hyphenates differently when compiled", word);
	int breaks = 0;
	for (int i = 0; i < n - 1; i++)
		breaks += a3[i] & 1;
	if (lexicon_syllables(lx, word) != breaks + 1)
		fail_msg("%s: %d syllables, the loader's patterns %d", word,
			 lexicon_syllables(lx, word), breaks + 1);
	return 1;
}

/* The first 20,000 words of the word list, every 10th after them, and words
 * with umlauts, ß and compounds: hyphenated alike. */
static void test_compiled_hyphenates_alike(void **u)
{
	(void)u;
	static const char *tricky[] = {
		"Straße", "Fußballweltmeisterschaft", "Donaudampfschifffahrtsgesellschaft",
		"Schifffahrt", "Bettuch", "Übergrößenträger", "Äußerung", "Ölförderung",
		"Grundstücksverkehrsgenehmigungszuständigkeitsübertragungsverordnung",
		"Rhabarberbarbarabarbarbarenbartbarbierbierbarbärbel", "Lebensmittelüberwachung",
		"Müßiggang", "Maßkrug", "Zuckerbäcker", "Häuschen", "Ureinwohner", "Staubecken",
		"Wachstube", "Druckerzeugnis", "Blumentopferde", "Aa", "Öl", "Öse", "y",
	};
	long compared = 0;
	for (size_t i = 0; i < sizeof tricky / sizeof tricky[0]; i++)
		compared += compare_word(tricky[i]);
	FILE *f = fopen(LEXICON_WORDS, "r");
	assert_non_null(f);
	char line[256];
	for (long i = 0; fgets(line, sizeof line, f); i++) {
		line[strcspn(line, "\n")] = '\0';
		if (i < 20000 || i % 10 == 0)
			compared += compare_word(line);
	}
	fclose(f);
	print_message("compiled patterns: %ld words hyphenate as with the loader\n", compared);
	assert_true(compared > 50000);
}

/* Writes text to name in the test's directory; its path into path. */
static void write_in_dir(const char *name, const void *text, size_t len, char *path, size_t cap)
{
	snprintf(path, cap, "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* A copy of the compiled file src, damaged: only keep bytes of it (0: all),
 * 48 bytes of 0xff at at (0: none). */
static void damaged_copy(const char *src, const char *name, size_t keep, size_t at, char *path,
			 size_t cap)
{
	FILE *f = fopen(src, "rb");
	assert_non_null(f);
	unsigned char *buf = malloc(16 << 20);
	assert_non_null(buf);
	size_t len = fread(buf, 1, 16 << 20, f);
	fclose(f);
	assert_true(len > at + 48 && keep <= len);
	memset(buf + at, 0xff, at ? 48 : 0);
	write_in_dir(name, buf, keep ? keep : len, path, cap);
	free(buf);
}

static void assert_refused(const char *path, const char *dic, const char *reason)
{
	struct lexfile_hyph *h = NULL;
	const char *why = NULL;
	assert_int_equal(lexfile_hyph_map(&h, path, dic, &why), -1);
	assert_null(h);
	assert_non_null(why);
	if (!strstr(why, reason))
		fail_msg("%s: \"%s\", not \"%s\"", path, why, reason);
}

static void assert_refused_words(const char *path, const char *list, const char *reason)
{
	struct lexfile_words *w = NULL;
	const char *why = NULL;
	assert_int_equal(lexfile_words_map(&w, path, list, &why), -1);
	assert_null(w);
	if (!why || !strstr(why, reason))
		fail_msg("%s: \"%s\", not \"%s\"", path, why ? why : "", reason);
}

/* The compiled word list knows what the read one knows: every word of the
 * list, in its own case and in lower case, and not the same with a letter
 * more; a damaged one is refused. */
static void test_compiled_word_list_alike(void **u)
{
	(void)u;
	struct lexicon *plain = NULL;
	assert_int_equal(lexicon_open(&plain, NULL, LEXICON_WORDS), 0);
	FILE *f = fopen(LEXICON_WORDS, "r");
	assert_non_null(f);
	char line[256], more[260], cut[192];
	long n = 0, hits = 0;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		int k = lexicon_known(plain, line);
		assert_int_equal(lexicon_known(lx, line), k);
		hits += k == 1;
		snprintf(more, sizeof more, "%sq", line);
		assert_int_equal(lexicon_known(lx, more), lexicon_known(plain, more));
		n++;
	}
	fclose(f);
	lexicon_close(plain);
	print_message("compiled word list: %ld of %ld lines known alike\n", hits, n);
	assert_true(hits > 300000);
	damaged_copy(words, "cut.wds", 4096, 0, cut, sizeof cut);
	assert_refused_words(cut, LEXICON_WORDS, "truncated");
	remove_in_dir("cut.wds");
	assert_refused_words("/nonexistent/x.wds", LEXICON_WORDS, "does not open");
	assert_refused_words(compiled, LEXICON_WORDS, "not a compiled word list");
}

/* A compiled file that does not fit is refused, and the lexicon falls back
 * to libhyphen's loader; one that fits its (small) source is used. */
static void test_compiled_refused_when_stale(void **u)
{
	(void)u;
	static const char small[] = "ISO8859-1\nLEFTHYPHENMIN 1\n1ba\n1ca\n";
	char dic[192], other[192], cut[192], bad[192], junk[192];
	write_in_dir("small.dic", small, sizeof small - 1, dic, sizeof dic);
	snprintf(other, sizeof other, "%s/small.hyd", dir);
	assert_int_equal(lexfile_hyph_compile(dic, other), 0);
	/* each against the other's source: another dictionary */
	assert_refused(other, LEXICON_HYPH, "another version");
	assert_refused(compiled, dic, "another version");
	damaged_copy(compiled, "cut.hyd", 4096, 0, cut, sizeof cut);
	assert_refused(cut, LEXICON_HYPH, "truncated");
	damaged_copy(compiled, "bad.hyd", 0, 4 << 20, bad, sizeof bad);   /* a state's record: -1 transitions */
	assert_refused(bad, LEXICON_HYPH, "out of bounds");
	write_in_dir("junk.hyd", small, sizeof small - 1, junk, sizeof junk);
	assert_refused(junk, LEXICON_HYPH, "not a compiled");
	assert_refused("/nonexistent/x.hyd", LEXICON_HYPH, "does not open");

	/* a directory whose patterns were compiled from the small dictionary:
	 * used for it; the German one's: refused, the loader reads it */
	char sub[128], in_sub[192];
	struct lexicon *a = NULL, *b = NULL;
	snprintf(sub, sizeof sub, "%s/small", dir);
	snprintf(in_sub, sizeof in_sub, "%s/%s", sub, LEXFILE_HYPH);
	assert_int_equal(mkdir(sub, 0700), 0);
	assert_int_equal(rename(other, in_sub), 0);
	assert_int_equal(lexicon_open_compiled(&a, sub, dic, NULL), 0);
	assert_int_equal(lexicon_compiled(a), 1);
	assert_int_equal(lexicon_open_compiled(&b, dir, dic, NULL), 0);   /* stale: loader */
	assert_int_equal(lexicon_compiled(b), 0);
	assert_int_equal(lexicon_syllables(a, "abacaba"), 4);
	assert_int_equal(lexicon_syllables(b, "abacaba"), 4);
	lexicon_close(a);
	lexicon_close(b);
	unlink(in_sub);
	rmdir(sub);
	/* a word list compiled from another list: refused, the list is read */
	static const char list[] = "Haus\nBaum\n";
	char small_list[192];
	write_in_dir("small.txt", list, sizeof list - 1, small_list, sizeof small_list);
	assert_refused_words(words, small_list, "another version");
	assert_int_equal(lexicon_open_compiled(&a, dir, NULL, small_list), 0);
	assert_int_equal(lexicon_compiled(a), 0);
	assert_int_equal(lexicon_known(a, "haus"), 1);
	assert_int_equal(lexicon_known(a, "Fechtmeister"), 0);
	lexicon_close(a);
	remove_in_dir("small.txt");
	remove_in_dir("small.dic");
	remove_in_dir("small.hyd");
	remove_in_dir("cut.hyd");
	remove_in_dir("bad.hyd");
	remove_in_dir("junk.hyd");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compiled_states_equal),
		cmocka_unit_test(test_compiled_hyphenates_alike),
		cmocka_unit_test(test_compiled_word_list_alike),
		cmocka_unit_test(test_compiled_refused_when_stale),
		cmocka_unit_test(test_syllable_accuracy),
		cmocka_unit_test(test_syllables_refuse_non_words),
		cmocka_unit_test(test_word_list),
	};
	return cmocka_run_group_tests_name("lexicon", tests, setup, teardown);
}
