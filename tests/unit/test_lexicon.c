/* test_lexicon.c — the platform's German word lookups (cgi/lexicon.h): how
 * often the hyphenation patterns give the right number of syllables, on
 * German words whose syllables are known, and the word list. The syllable
 * count is a suggestion a vote may overrule, so it need not be perfect: the
 * test prints the accuracy and holds it above a floor. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "lexicon.h"

static struct lexicon *lx;

static int setup(void **u)
{
	(void)u;
	return lexicon_open(&lx, LEXICON_HYPH, LEXICON_WORDS);
}

static int teardown(void **u)
{
	(void)u;
	lexicon_close(lx);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_syllable_accuracy),
		cmocka_unit_test(test_syllables_refuse_non_words),
		cmocka_unit_test(test_word_list),
	};
	return cmocka_run_group_tests_name("lexicon", tests, setup, teardown);
}
