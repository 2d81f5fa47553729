/* lexfile.h — the German lexicon's files compiled once, at build time.
 *
 * libhyphen's loader (hnj_hyphen_load) takes seconds for the German
 * patterns (its fixed hash table gets long chains), and folding and
 * sorting the word list a few hundred milliseconds: too long for every
 * server start. So the build (`spieltisch lexicon hyph|words SRC OUT`, a
 * Makefile rule) does both once and writes the result to flat files
 * (build/lexicon/, installed as lexicon/ under the root), which the server
 * maps read-only: their pages are the page cache's, shared by every
 * process, never copied.
 *
 * The patterns: libhyphen's finished state machine, the HyphenDict chain
 * with its states, transitions and strings. Mapped, a HyphenDict is built
 * whose pointers point into the mapping: only its state array (pointers)
 * is allocated, once, in the master before the fork; transitions and
 * strings stay in the file. libhyphen's own hnj_hyphen_hyphenate3 runs on
 * it unchanged.
 *
 * The word list: its words as the lexicon folds them (lower case), sorted,
 * looked up by binary search in the mapping.
 *
 * Each file's header names its source: its size, modification time and a
 * 64-bit FNV-1a hash of its bytes. A file from another source (size or
 * hash differ), from another build of the structs (sizes and offsets are
 * recorded), truncated or with an offset out of bounds is refused: the
 * caller then reads the source itself, as without the file. */
#ifndef SPIELTISCH_LEXFILE_H
#define SPIELTISCH_LEXFILE_H

#include <hyphen.h>
#include <stddef.h>

/* The files' names, under lexicon/ of an installed root or build/lexicon/
 * of a source tree. */
#define LEXFILE_HYPH "hyph_de_DE.hyd"
#define LEXFILE_WORDS "ngerman.wds"

struct lexfile_hyph;

/* Writes d (as hnj_hyphen_load made it from the file dic) to out, through
 * a temporary file renamed at the end: 0, or -1 (out untouched). */
int lexfile_hyph_write(const HyphenDict *d, const char *dic, const char *out);

/* Loads dic with libhyphen and writes it to out: 0, or -1. */
int lexfile_hyph_compile(const char *dic, const char *out);

/* Maps the compiled file path and checks it against its source dic: 0 and
 * *out, or -1 and *why (a static sentence for the log). */
int lexfile_hyph_map(struct lexfile_hyph **out, const char *path, const char *dic, const char **why);

/* The dictionary for libhyphen's hyphenate functions (which only read it);
 * valid until lexfile_hyph_unmap. */
HyphenDict *lexfile_hyph_dict(struct lexfile_hyph *h);
void lexfile_hyph_unmap(struct lexfile_hyph *h);

struct lexfile_words;

/* Writes n words (folded, sorted by strcmp) read from the file list to out,
 * through a temporary file: 0, or -1. */
int lexfile_words_write(char *const *words, size_t n, const char *list, const char *out);

/* Maps the compiled word list path and checks it against list: 0 and
 * *out, or -1 and *why. */
int lexfile_words_map(struct lexfile_words **out, const char *path, const char *list,
		      const char **why);

/* 1 when the list has the folded word, else 0. */
int lexfile_words_has(const struct lexfile_words *w, const char *folded);
void lexfile_words_unmap(struct lexfile_words *w);

#endif
