/* lexicon.c — syllables and the word list; see lexicon.h. */
#include <hyphen.h>
#include <stdint.h>
#include <unicase.h>
#include <uninorm.h>
#include <unistr.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "lexfile.h"
#include "lexicon.h"

enum { WORD_MAX = 64 };

struct lexicon {
	HyphenDict *hyph;
	struct lexfile_hyph *map;   /* when hyph points into a compiled file */
	struct lexfile_words *wmap; /* the compiled word list, instead of words */
	long hyph_ms, words_ms;     /* what reading the patterns, the list took */
	char *text;        /* the word list, lower case, one NUL-ended word each */
	char **words;      /* sorted */
	size_t nwords;
};

/* A UTF-8 word in lower case (libunistring's; the word list and what a
 * browser sends are NFC already) into out, cap bytes:
 * its length, or -1 when it is not UTF-8 or too long. */
static int utf8_lower(const char *w, char *out, size_t cap)
{
	size_t n = strlen(w), len = cap;
	if (u8_check((const uint8_t *)w, n) != NULL)
		return -1;
	uint8_t *r = u8_tolower((const uint8_t *)w, n, NULL, NULL, (uint8_t *)out, &len);
	if (r != (uint8_t *)out || len >= cap) {
		if (r != (uint8_t *)out)
			free(r);
		return -1;
	}
	out[len] = '\0';
	return (int)len;
}

/* A UTF-8 word as lower-case Latin-1 (the patterns' encoding) into out
 * (cap bytes); its length, or -1 for a character outside Latin-1 or a word
 * too long. */
static int to_latin1_lower(const char *w, char *out, size_t cap)
{
	char low[WORD_MAX * 2];
	int len = utf8_lower(w, low, sizeof low);
	size_t n = 0;
	if (len < 0)
		return -1;
	for (int i = 0; i < len;) {
		ucs4_t c;
		i += u8_mbtouc(&c, (const uint8_t *)low + i, (size_t)(len - i));
		if (c > 0xff || n + 1 >= cap)
			return -1;
		out[n++] = (char)c;
	}
	out[n] = '\0';
	return (int)n;
}

static int cmp_word(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Reads the word list into lx: one word a line, lower-cased and sorted. */
static int load_words(struct lexicon *lx, const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	if (fseek(f, 0, SEEK_END) != 0) {
		fclose(f);
		return -1;
	}
	long size = ftell(f);
	rewind(f);
	if (size < 0 || (lx->text = malloc((size_t)size + 1)) == NULL) {
		fclose(f);
		return -1;
	}
	size_t got = fread(lx->text, 1, (size_t)size, f);
	fclose(f);
	lx->text[got] = '\0';
	size_t lines = 1;
	for (size_t i = 0; i < got; i++)
		lines += lx->text[i] == '\n';
	if ((lx->words = malloc(lines * sizeof *lx->words)) == NULL)
		return -1;
	for (char *line = lx->text, *nl; line && *line; line = nl) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		char low[WORD_MAX * 2];
		int n = utf8_lower(line, low, sizeof low);
		if (n <= 0 || (size_t)n > strlen(line))
			continue;
		memcpy(line, low, (size_t)n + 1);   /* lower case is never longer */
		lx->words[lx->nwords++] = line;
	}
	qsort(lx->words, lx->nwords, sizeof *lx->words, cmp_word);
	return 0;
}

static long ms_since(const struct timespec *a)
{
	struct timespec b;
	clock_gettime(CLOCK_MONOTONIC, &b);
	return (long)((b.tv_sec - a->tv_sec) * 1000 + (b.tv_nsec - a->tv_nsec) / 1000000);
}

/* The patterns into lx: the compiled file in dir when dir is given and the
 * file fits its source, else libhyphen's loader (logged when a compiled
 * file was wanted). */
static int load_hyph(struct lexicon *lx, const char *dir, const char *hyph_path)
{
	const char *why = NULL;
	char compiled[4096];
	struct timespec a;
	clock_gettime(CLOCK_MONOTONIC, &a);
	snprintf(compiled, sizeof compiled, "%s/%s", dir ? dir : ".", LEXFILE_HYPH);
	if (dir && lexfile_hyph_map(&lx->map, compiled, hyph_path, &why) == 0) {
		lx->hyph = lexfile_hyph_dict(lx->map);
	} else {
		if (dir)
			fprintf(stderr, "lexicon: %s is not used (%s): libhyphen reads %s\n",
				compiled, why, hyph_path);
		lx->hyph = hnj_hyphen_load(hyph_path);
	}
	lx->hyph_ms = ms_since(&a);
	return lx->hyph ? 0 : -1;
}

/* The word list into lx, like load_hyph: compiled from dir, else read. */
static int load_list(struct lexicon *lx, const char *dir, const char *words_path)
{
	const char *why = NULL;
	char compiled[4096];
	struct timespec a;
	int rc = 0;
	clock_gettime(CLOCK_MONOTONIC, &a);
	snprintf(compiled, sizeof compiled, "%s/%s", dir ? dir : ".", LEXFILE_WORDS);
	if (!dir || lexfile_words_map(&lx->wmap, compiled, words_path, &why) != 0) {
		if (dir)
			fprintf(stderr, "lexicon: %s is not used (%s): %s is read\n", compiled, why,
				words_path);
		rc = load_words(lx, words_path);
	}
	lx->words_ms = ms_since(&a);
	return rc;
}

int lexicon_compile_words(const char *words_path, const char *out)
{
	struct lexicon lx = { 0 };
	int rc = load_words(&lx, words_path);
	if (rc == 0)
		rc = lexfile_words_write(lx.words, lx.nwords, words_path, out);
	free(lx.words);
	free(lx.text);
	return rc;
}

int lexicon_open_compiled(struct lexicon **out, const char *dir, const char *hyph_path,
			  const char *words_path)
{
	struct lexicon *lx = calloc(1, sizeof *lx);
	*out = NULL;
	if (!lx)
		return -1;
	if ((hyph_path && load_hyph(lx, dir, hyph_path) != 0) ||
	    (words_path && load_list(lx, dir, words_path) != 0)) {
		lexicon_close(lx);
		return -1;
	}
	*out = lx;
	return 0;
}

int lexicon_open(struct lexicon **out, const char *hyph_path, const char *words_path)
{
	return lexicon_open_compiled(out, NULL, hyph_path, words_path);
}

void lexicon_close(struct lexicon *lx)
{
	if (!lx)
		return;
	if (lx->map)
		lexfile_hyph_unmap(lx->map);
	else if (lx->hyph)
		hnj_hyphen_free(lx->hyph);
	lexfile_words_unmap(lx->wmap);
	free(lx->words);
	free(lx->text);
	free(lx);
}

int lexicon_compiled(const struct lexicon *lx)
{
	return lx ? (lx->map ? 1 : 0) | (lx->wmap ? 2 : 0) : 0;
}

int lexicon_syllables(const struct lexicon *lx, const char *word)
{
	char w[WORD_MAX], hyphens[WORD_MAX + 5];
	char **rep = NULL;
	int *pos = NULL, *cut = NULL;
	int n = to_latin1_lower(word, w, sizeof w);
	if (!lx || !lx->hyph || n <= 0)
		return -1;
	if (hnj_hyphen_hyphenate3(lx->hyph, w, n, hyphens, NULL, &rep, &pos, &cut, 1, 2, 1, 2) != 0)
		return -1;
	int breaks = 0;
	for (int i = 0; i < n - 1; i++)
		breaks += hyphens[i] & 1;
	if (rep) {
		for (int i = 0; i < n; i++)
			free(rep[i]);
		free(rep);
		free(pos);
		free(cut);
	}
	return breaks + 1;
}

int lexicon_known(const struct lexicon *lx, const char *word)
{
	char low[WORD_MAX * 2];
	if (!lx || (!lx->words && !lx->wmap))
		return -1;
	if (utf8_lower(word, low, sizeof low) <= 0)
		return 0;
	if (lx->wmap)
		return lexfile_words_has(lx->wmap, low);
	const char *key = low;
	return bsearch(&key, lx->words, lx->nwords, sizeof *lx->words, cmp_word) != NULL;
}

/* The process's lexicon: read by lexicon_preload() (the server's master,
 * before it forks its workers), else at the first lookup (a tool, a test). */
static struct lexicon *lazy;
static int lazy_tried;

/* Reads the lexicon at the default places once, from the files compiled
 * in dir when given and they fit; `when` says for the log who reads it. */
static const struct lexicon *open_once(const char *when, const char *dir)
{
	if (!lazy_tried) {
		struct timespec a;
		lazy_tried = 1;
		clock_gettime(CLOCK_MONOTONIC, &a);
		if (lexicon_open_compiled(&lazy, dir, LEXICON_HYPH, LEXICON_WORDS) != 0) {
			fprintf(stderr, "lexicon: %s or %s does not load: no word lookups\n",
				LEXICON_HYPH, LEXICON_WORDS);
			lazy = NULL;
			return NULL;
		}
		fprintf(stderr, "lexicon: read in %ld ms %s: the patterns in %ld ms %s, the word "
			"list in %ld ms %s (process %ld)\n", ms_since(&a), when, lazy->hyph_ms,
			lazy->map ? "compiled" : "by libhyphen's loader", lazy->words_ms,
			lazy->wmap ? "compiled" : "folded and sorted", (long)getpid());
	}
	return lazy;
}

static const struct lexicon *lazy_open(void)
{
	return open_once("at a first lookup", NULL);
}

static void *preload_thread(void *arg)
{
	open_once("before the workers start", arg);
	return NULL;
}

/* Read in a thread of its own, so that malloc puts the lexicon (the word
 * list in many small blocks, the compiled patterns' state array, and
 * libhyphen's loader's freed blocks between them) in an arena of its own:
 * a worker's allocations come from the main arena and never write into
 * those pages, so they stay shared with the master (read in the main
 * thread, a fresh worker had much of them copied, private: docs/benchmarks.md,
 * "Figures from the code's comments"). */
int lexicon_preload(const char *root)
{
	char dir[4096];
	const char *compiled = NULL;
	if (root) {
		snprintf(dir, sizeof dir, "%s/lexicon", root);
		if (access(dir, R_OK | X_OK) != 0)   /* not installed: a source tree */
			snprintf(dir, sizeof dir, "%s/build/lexicon", root);
		compiled = dir;
	}
	pthread_t t;
	if (pthread_create(&t, NULL, preload_thread, (void *)compiled) != 0 ||
	    pthread_join(t, NULL) != 0)
		open_once("before the workers start", compiled);
	return lazy ? 0 : -1;
}

static int lazy_syllables(void *ctx, const char *word)
{
	(void)ctx;
	return lexicon_syllables(lazy_open(), word);
}

static int lazy_known(void *ctx, const char *word)
{
	(void)ctx;
	return lexicon_known(lazy_open(), word);
}

const struct lookup *lexicon_lookup(void)
{
	static const struct lookup lk = { lazy_syllables, lazy_known, NULL };
	return &lk;
}
