/* lexicon.h — what the platform looks up about a German word for a word
 * game (Wurf & Wort), outside the pure rules core: its syllables, from the
 * hyphenation patterns of libhyphen (hyph_de_DE.dic, an approximation: a
 * page shows it as a suggestion), and whether it is in the German word
 * list (wngerman). Loaded once, by the server before it forks its workers
 * (lexicon_preload), never per request. The rules
 * core never reads these files: what was looked up travels with the move,
 * so a replay stays exact when a dictionary changes. */
#ifndef SPIELTISCH_LEXICON_H
#define SPIELTISCH_LEXICON_H

struct lexicon;

/* Default places of the Debian packages hyphen-de and wngerman. */
#define LEXICON_HYPH "/usr/share/hyphen/hyph_de_DE.dic"
#define LEXICON_WORDS "/usr/share/dict/ngerman"

/* Loads the patterns and the word list (either path may be NULL: that
 * lookup then answers -1). 0, or -1 when a file given does not load. */
int lexicon_open(struct lexicon **out, const char *hyph_path, const char *words_path);
/* The same, the patterns and the word list from the files compiled at
 * build time in dir (cgi/lexfile.h: mapped, no loader run) when they were
 * compiled from these sources; else (logged) from the sources. */
int lexicon_open_compiled(struct lexicon **out, const char *dir, const char *hyph_path,
			  const char *words_path);
/* The build step: the word list at words_path, folded and sorted as the
 * lexicon keeps it, compiled to out (cgi/lexfile.h): 0, or -1. */
int lexicon_compile_words(const char *words_path, const char *out);
void lexicon_close(struct lexicon *lx);
/* What of lx comes from compiled files: 1 the patterns, 2 the word list
 * (or-ed), 0 neither. */
int lexicon_compiled(const struct lexicon *lx);

/* Syllables of a UTF-8 word (letters of Latin-1, any case): every place
 * the patterns allow a break, plus one. One letter may stand alone at the
 * start of a word or a part of a compound ("A-bend"), two at the end (so
 * "Hund" is not "Hun-d"): on 72 words of known syllables that gets 68
 * right, against 62 with the patterns' own limits (test_lexicon). -1 without patterns, or for a word that is not one (empty, too
 * long, a character outside Latin-1). */
int lexicon_syllables(const struct lexicon *lx, const char *word);

/* 1 when the word list has the word (compared ignoring case), 0 when not,
 * -1 without a list. */
int lexicon_known(const struct lexicon *lx, const char *word);

/* The lookups of the German lexicon at the default places, for
 * play_set_lookup(). The server reads the files with lexicon_preload() in
 * its master before it forks the workers, so that no move's write
 * transaction ever waits for a file and the workers share the pages. The
 * patterns and the word list come from the files compiled at build time
 * (milliseconds; under the root: lexicon/, else build/lexicon/); without
 * them, or when one does not fit its installed source, from the source
 * (the patterns by libhyphen's own loader: seconds; logged). A process that did not preload reads them at its first lookup
 * (with the loader), then keeps them. A file that does not load answers
 * -1 (unknown). */
struct lookup;
const struct lookup *lexicon_lookup(void);
/* Reads the lexicon of lexicon_lookup() now (once a process), from the
 * files compiled under root (NULL: from the sources): 0, or -1 when a file
 * does not load (the lookups then answer -1). */
int lexicon_preload(const char *root);

#endif
