/* hyphdict.h — libhyphen's German patterns compiled once, at build time.
 *
 * libhyphen's loader (hnj_hyphen_load) takes seconds for the German
 * patterns (its fixed hash table gets long chains): too long for every
 * server start. So the build runs it once (`spieltisch lexicon compile`,
 * a Makefile rule) and writes its finished state machine, the HyphenDict
 * chain with its states, transitions and strings, to one flat file
 * (build/lexicon/hyph_de_DE.hyd, installed as lexicon/ under the root). The
 * server maps that file read-only and builds a HyphenDict whose pointers
 * point into the mapping: transitions and strings stay pages of the file,
 * shared by every process through the page cache; only the state array
 * (pointers) is allocated, once, in the master before the fork. libhyphen's
 * own hnj_hyphen_hyphenate3 then runs on it unchanged.
 *
 * The file's header names its source: the .dic's size, modification time
 * and a 64-bit FNV-1a hash of its bytes. A file from another dictionary
 * (size or hash differ), from another build of the structs (sizes and
 * offsets are recorded), truncated or with an offset out of bounds is
 * refused: the caller then falls back to hnj_hyphen_load. */
#ifndef SPIELTISCH_HYPHDICT_H
#define SPIELTISCH_HYPHDICT_H

#include <hyphen.h>

struct hyphdict;

/* The file name of the compiled German patterns, under lexicon/ of an
 * installed root or build/lexicon/ of a source tree. */
#define HYPHDICT_FILE "hyph_de_DE.hyd"

/* Writes d (as hnj_hyphen_load made it from the file dic) to out, through
 * a temporary file renamed at the end: 0, or -1 (out untouched). */
int hyphdict_write(const HyphenDict *d, const char *dic, const char *out);

/* Loads dic with libhyphen and writes it to out: 0, or -1. */
int hyphdict_compile(const char *dic, const char *out);

/* Maps the compiled file path and checks it against its source dic: 0 and
 * *out, or -1 and *why (a static sentence for the log). */
int hyphdict_map(struct hyphdict **out, const char *path, const char *dic, const char **why);

/* The dictionary for libhyphen's hyphenate functions (which only read it);
 * valid until hyphdict_unmap. */
HyphenDict *hyphdict_dict(struct hyphdict *h);
void hyphdict_unmap(struct hyphdict *h);

#endif
