/* lexfile.c — the lexicon's files compiled at build time and mapped; see
 * lexfile.h.
 *
 * The patterns' file, all numbers in the building machine's byte order:
 *   head                       magic, the struct sizes, the source's identity
 *   level[nlevels]             one HyphenDict each, in nextlevel order
 *   state[all levels' states]  one record each (offsets, not pointers)
 *   trans[...]                 libhyphen's own HyphenTrans, as the struct is
 *                              laid out (so a state's pointer goes straight
 *                              into the mapping)
 *   strings                    match, repl and nohyphen strings, NUL-ended
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lexfile.h"

enum { LEVELS_MAX = 8 };
#define NONE UINT32_MAX
#define MAGIC "STHYPH1"
#define ENDIAN 0x01020304u

struct hd_head {
	char magic[8];
	uint32_t endian;
	uint16_t level_size, state_size, trans_size, new_state_at;
	uint64_t file_size;
	uint64_t src_size, src_hash;
	int64_t src_mtime;
	uint32_t nlevels, strings, strings_len, pad;
};

struct hd_level {
	int8_t lhmin, rhmin, clhmin, crhmin;
	int32_t nohyphenl;
	uint32_t nohyphen;        /* a string offset, or NONE */
	int32_t num_states;
	uint32_t states;          /* file offset of the first hd_state */
	int32_t utf8;
	char cset[MAX_NAME];
	uint32_t pad;
};

struct hd_state {
	uint32_t match, repl;     /* string offsets, or NONE */
	uint32_t trans;           /* file offset of num_trans HyphenTrans */
	int32_t fallback, num_trans;
	int8_t replindex, replcut;
	uint8_t pad[2];
};

struct lexfile_hyph {
	const unsigned char *map;
	size_t len;
	HyphenState *states;
	HyphenDict levels[LEVELS_MAX];
};

/* The source's size, modification time and FNV-1a hash: 0, or -1. */
static int source_id(const char *dic, uint64_t *size, int64_t *mtime, uint64_t *hash)
{
	struct stat st;
	unsigned char buf[1 << 16];
	FILE *f = fopen(dic, "rb");
	if (!f)
		return -1;
	if (fstat(fileno(f), &st) != 0) {
		fclose(f);
		return -1;
	}
	uint64_t h = 0xcbf29ce484222325u, n = 0;
	size_t got;
	while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
		for (size_t i = 0; i < got; i++)
			h = (h ^ buf[i]) * 0x100000001b3u;
		n += got;
	}
	int bad = ferror(f);
	fclose(f);
	*size = n;
	*mtime = (int64_t)st.st_mtime;
	*hash = h;
	return bad ? -1 : 0;
}

/* 1 when the file src has the size and hash recorded, else 0 with *why. */
static int source_fits(const char *src, uint64_t size, uint64_t hash, const char **why)
{
	uint64_t n, h;
	int64_t mtime;
	*why = "its source does not read";
	if (source_id(src, &n, &mtime, &h) != 0)
		return 0;
	*why = "it was compiled from another version of its source";
	return n == size && h == hash;
}

static size_t nohyphen_len(const HyphenDict *d)
{
	size_t n = 0;
	if (d->nohyphen)
		for (int i = 0; i <= d->nohyphenl; i++)
			n += strlen(d->nohyphen + n) + 1;
	return n;
}

/* The sizes of what d's chain needs: levels, states, transitions, string bytes. */
static int measure(const HyphenDict *d, uint32_t *nlevels, size_t *nstates, size_t *ntrans,
		   size_t *nstr)
{
	*nlevels = 0;
	*nstates = *ntrans = *nstr = 0;
	for (; d; d = d->nextlevel) {
		if (++*nlevels > LEVELS_MAX)
			return -1;
		*nstr += nohyphen_len(d);
		*nstates += (size_t)d->num_states;
		for (int i = 0; i < d->num_states; i++) {
			const HyphenState *s = &d->states[i];
			*ntrans += (size_t)s->num_trans;
			*nstr += (s->match ? strlen(s->match) + 1 : 0) + (s->repl ? strlen(s->repl) + 1 : 0);
		}
	}
	return 0;
}

static uint32_t put_str(unsigned char *strings, size_t *at, const char *s, size_t len)
{
	if (!s)
		return NONE;
	uint32_t off = (uint32_t)*at;
	memcpy(strings + *at, s, len);
	*at += len;
	return off;
}

/* Fills the blob (zeroed, laid out by lexfile_hyph_write) from d's chain. */
static void fill(unsigned char *blob, const HyphenDict *d, const struct hd_head *h, size_t trans_at)
{
	struct hd_level *lv = (struct hd_level *)(blob + sizeof *h);
	struct hd_state *st = (struct hd_state *)(lv + h->nlevels);
	unsigned char *strings = blob + h->strings;
	size_t sat = 0;
	for (; d; d = d->nextlevel, lv++) {
		*lv = (struct hd_level){ .lhmin = d->lhmin, .rhmin = d->rhmin, .clhmin = d->clhmin,
					 .crhmin = d->crhmin, .nohyphenl = d->nohyphenl,
					 .num_states = d->num_states, .utf8 = d->utf8 };
		memcpy(lv->cset, d->cset, sizeof lv->cset);
		lv->nohyphen = put_str(strings, &sat, d->nohyphen, nohyphen_len(d));
		lv->states = (uint32_t)((unsigned char *)st - blob);
		for (int i = 0; i < d->num_states; i++, st++) {
			const HyphenState *s = &d->states[i];
			st->match = put_str(strings, &sat, s->match, s->match ? strlen(s->match) + 1 : 0);
			st->repl = put_str(strings, &sat, s->repl, s->repl ? strlen(s->repl) + 1 : 0);
			st->fallback = s->fallback_state;
			st->num_trans = s->num_trans;
			st->replindex = s->replindex;
			st->replcut = s->replcut;
			st->trans = (uint32_t)trans_at;
			for (int t = 0; t < s->num_trans; t++) {
				HyphenTrans tr;
				memset(&tr, 0, sizeof tr);   /* no stray padding bytes */
				tr.ch = s->trans[t].ch;
				tr.new_state = s->trans[t].new_state;
				memcpy(blob + trans_at, &tr, sizeof tr);
				trans_at += sizeof tr;
			}
		}
	}
}

static int write_file(const char *out, const unsigned char *blob, size_t len)
{
	char tmp[4096];
	if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", out) >= sizeof tmp)
		return -1;
	FILE *f = fopen(tmp, "wb");
	if (!f)
		return -1;
	int bad = fwrite(blob, 1, len, f) != len;
	bad |= fclose(f) != 0;
	if (bad || rename(tmp, out) != 0) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

int lexfile_hyph_write(const HyphenDict *d, const char *dic, const char *out)
{
	struct hd_head h = { .magic = MAGIC, .endian = ENDIAN, .level_size = sizeof(struct hd_level),
			     .state_size = sizeof(struct hd_state), .trans_size = sizeof(HyphenTrans),
			     .new_state_at = offsetof(HyphenTrans, new_state) };
	size_t nstates, ntrans, nstr;
	if (!d || source_id(dic, &h.src_size, &h.src_mtime, &h.src_hash) != 0 ||
	    measure(d, &h.nlevels, &nstates, &ntrans, &nstr) != 0)
		return -1;
	size_t trans_at = sizeof h + h.nlevels * sizeof(struct hd_level) + nstates * sizeof(struct hd_state);
	trans_at = (trans_at + 7) & ~(size_t)7;
	size_t strings = trans_at + ntrans * sizeof(HyphenTrans);
	size_t len = strings + nstr + 1;   /* ends with a NUL, so every offset ends in the file */
	if (len > UINT32_MAX)
		return -1;
	h.strings = (uint32_t)strings;
	h.strings_len = (uint32_t)(nstr + 1);
	h.file_size = len;
	unsigned char *blob = calloc(1, len);
	if (!blob)
		return -1;
	memcpy(blob, &h, sizeof h);
	fill(blob, d, &h, trans_at);
	int rc = write_file(out, blob, len);
	free(blob);
	return rc;
}

int lexfile_hyph_compile(const char *dic, const char *out)
{
	HyphenDict *d = hnj_hyphen_load(dic);
	if (!d)
		return -1;
	int rc = lexfile_hyph_write(d, dic, out);
	hnj_hyphen_free(d);
	return rc;
}

/* The header of a mapping of len bytes, checked; NULL with *why. */
static const struct hd_head *check_head(const unsigned char *map, size_t len, const char *dic,
					const char **why)
{
	const struct hd_head *h = (const struct hd_head *)map;
	*why = "it is not a compiled hyphenation file of this build";
	if (len < sizeof *h || memcmp(h->magic, MAGIC, sizeof h->magic) != 0 || h->endian != ENDIAN ||
	    h->level_size != sizeof(struct hd_level) || h->state_size != sizeof(struct hd_state) ||
	    h->trans_size != sizeof(HyphenTrans) ||
	    h->new_state_at != offsetof(HyphenTrans, new_state))
		return NULL;
	*why = "it is truncated or damaged";
	if (h->file_size != len || h->nlevels < 1 || h->nlevels > LEVELS_MAX ||
	    sizeof *h + h->nlevels * sizeof(struct hd_level) > len || h->strings_len < 1 ||
	    (uint64_t)h->strings + h->strings_len != len || map[len - 1] != '\0')
		return NULL;
	return source_fits(dic, h->src_size, h->src_hash, why) ? h : NULL;
}

/* A string at offset off of the strings, or NULL for NONE; bad set when out of bounds. */
static char *string_at(const struct lexfile_hyph *x, const struct hd_head *h, uint32_t off, int *bad)
{
	if (off == NONE)
		return NULL;
	if (off >= h->strings_len) {
		*bad = 1;
		return NULL;
	}
	return (char *)(x->map + h->strings + off);
}

/* Level i's states into x->states + first, every offset and state number
 * checked: 0, or -1. */
static int load_states(struct lexfile_hyph *x, const struct hd_head *h, const struct hd_level *lv,
		       size_t first)
{
	int n = lv->num_states, bad = 0;
	if (n < 1 || lv->states % sizeof(uint32_t) != 0 ||
	    lv->states + (uint64_t)n * sizeof(struct hd_state) > h->strings)
		return -1;
	const struct hd_state *st = (const struct hd_state *)(x->map + lv->states);
	for (int i = 0; i < n; i++) {
		HyphenState *s = &x->states[first + (size_t)i];
		if (st[i].num_trans < 0 || st[i].fallback < -1 || st[i].fallback >= n ||
		    st[i].trans % _Alignof(HyphenTrans) != 0 ||
		    st[i].trans + (uint64_t)st[i].num_trans * sizeof(HyphenTrans) > h->strings)
			return -1;
		const HyphenTrans *tr = (const HyphenTrans *)(x->map + st[i].trans);
		for (int t = 0; t < st[i].num_trans; t++)
			if (tr[t].new_state < 0 || tr[t].new_state >= n)
				return -1;
		s->match = string_at(x, h, st[i].match, &bad);
		s->repl = string_at(x, h, st[i].repl, &bad);
		s->replindex = st[i].replindex;
		s->replcut = st[i].replcut;
		s->fallback_state = st[i].fallback;
		s->num_trans = st[i].num_trans;
		s->trans = st[i].num_trans > 0 ? (HyphenTrans *)tr : NULL;
	}
	return bad ? -1 : 0;
}

/* The nohyphen list of a level: its nohyphenl + 1 strings must lie in the file. */
static int load_nohyphen(struct lexfile_hyph *x, const struct hd_head *h, const struct hd_level *lv,
			 HyphenDict *d)
{
	int bad = 0;
	d->nohyphen = string_at(x, h, lv->nohyphen, &bad);
	d->nohyphenl = lv->nohyphenl;
	if (bad || (d->nohyphen && d->nohyphenl < 0))
		return -1;
	for (uint32_t at = lv->nohyphen, i = 0; d->nohyphen && i <= (uint32_t)d->nohyphenl; i++) {
		if (at >= h->strings_len)
			return -1;
		at += (uint32_t)strlen((const char *)x->map + h->strings + at) + 1;
	}
	return 0;
}

static int load_levels(struct lexfile_hyph *x, const struct hd_head *h)
{
	const struct hd_level *lv = (const struct hd_level *)(x->map + sizeof *h);
	size_t total = 0;
	for (uint32_t i = 0; i < h->nlevels; i++) {
		if (lv[i].num_states < 1)
			return -1;
		total += (size_t)lv[i].num_states;
	}
	if ((x->states = malloc(total * sizeof *x->states)) == NULL)
		return -1;
	total = 0;
	for (uint32_t i = 0; i < h->nlevels; i++) {
		HyphenDict *d = &x->levels[i];
		if (load_states(x, h, &lv[i], total) != 0 || load_nohyphen(x, h, &lv[i], d) != 0)
			return -1;
		d->lhmin = lv[i].lhmin;
		d->rhmin = lv[i].rhmin;
		d->clhmin = lv[i].clhmin;
		d->crhmin = lv[i].crhmin;
		d->num_states = lv[i].num_states;
		memcpy(d->cset, lv[i].cset, sizeof d->cset);
		d->cset[sizeof d->cset - 1] = '\0';
		d->utf8 = lv[i].utf8;
		d->states = x->states + total;
		d->nextlevel = i + 1 < h->nlevels ? &x->levels[i + 1] : NULL;
		total += (size_t)lv[i].num_states;
	}
	return 0;
}

/* path mapped read-only (shared: the page cache's pages): 0, or -1 with *why. */
static int map_file(const char *path, const unsigned char **map, size_t *len, const char **why)
{
	struct stat st;
	void *m = MAP_FAILED;
	*why = "it does not open";
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) == 0 && st.st_size > 0)
		m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return -1;
	*map = m;
	*len = (size_t)st.st_size;
	return 0;
}

int lexfile_hyph_map(struct lexfile_hyph **out, const char *path, const char *dic, const char **why)
{
	*out = NULL;
	struct lexfile_hyph *x = calloc(1, sizeof *x);
	*why = "no memory";
	if (!x || map_file(path, &x->map, &x->len, why) != 0) {
		free(x);
		return -1;
	}
	const struct hd_head *h = check_head(x->map, x->len, dic, why);
	if (!h || load_levels(x, h) != 0) {
		if (h)
			*why = "an offset in it is out of bounds";
		lexfile_hyph_unmap(x);
		return -1;
	}
	*out = x;
	return 0;
}

HyphenDict *lexfile_hyph_dict(struct lexfile_hyph *h)
{
	return h ? &h->levels[0] : NULL;
}

void lexfile_hyph_unmap(struct lexfile_hyph *h)
{
	if (!h)
		return;
	munmap((void *)h->map, h->len);
	free(h->states);
	free(h);
}

/* ---- the word list ----
 * head, uint32 offsets[nwords] (into the strings, in strcmp order), strings */

#define WORDS_MAGIC "STWORD1"

struct wd_head {
	char magic[8];
	uint32_t endian, nwords;
	uint64_t file_size, src_size, src_hash;
	int64_t src_mtime;
	uint32_t strings, strings_len;
};

struct lexfile_words {
	const unsigned char *map;
	size_t len;
	const uint32_t *off;
	const char *strings;
	uint32_t n;
};

int lexfile_words_write(char *const *words, size_t n, const char *list, const char *out)
{
	struct wd_head h = { .magic = WORDS_MAGIC, .endian = ENDIAN, .nwords = (uint32_t)n };
	size_t nstr = 1;
	for (size_t i = 0; i < n; i++)
		nstr += strlen(words[i]) + 1;
	size_t strings = sizeof h + n * sizeof(uint32_t), len = strings + nstr;
	if (n > UINT32_MAX || len > UINT32_MAX ||
	    source_id(list, &h.src_size, &h.src_mtime, &h.src_hash) != 0)
		return -1;
	h.file_size = len;
	h.strings = (uint32_t)strings;
	h.strings_len = (uint32_t)nstr;
	unsigned char *blob = calloc(1, len);
	if (!blob)
		return -1;
	memcpy(blob, &h, sizeof h);
	size_t at = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t o = (uint32_t)at;
		memcpy(blob + sizeof h + i * sizeof o, &o, sizeof o);
		at += strlen(words[i]) + 1;
		memcpy(blob + strings + o, words[i], at - o);
	}
	int rc = write_file(out, blob, len);
	free(blob);
	return rc;
}

int lexfile_words_map(struct lexfile_words **out, const char *path, const char *list,
		      const char **why)
{
	*out = NULL;
	struct lexfile_words *w = calloc(1, sizeof *w);
	*why = "no memory";
	if (!w || map_file(path, &w->map, &w->len, why) != 0) {
		free(w);
		return -1;
	}
	const struct wd_head *h = (const struct wd_head *)w->map;
	int ok = 0;
	*why = "it is not a compiled word list of this build";
	if (w->len >= sizeof *h && memcmp(h->magic, WORDS_MAGIC, sizeof h->magic) == 0 &&
	    h->endian == ENDIAN) {
		*why = "it is truncated or damaged";
		ok = h->file_size == w->len && h->strings_len >= 1 &&
		     h->strings == sizeof *h + (uint64_t)h->nwords * sizeof(uint32_t) &&
		     (uint64_t)h->strings + h->strings_len == w->len && w->map[w->len - 1] == '\0';
	}
	w->off = (const uint32_t *)(w->map + sizeof *h);
	for (uint32_t i = 0; ok && i < h->nwords; i++)
		ok = w->off[i] < h->strings_len;
	if (!ok || !source_fits(list, h->src_size, h->src_hash, why)) {
		lexfile_words_unmap(w);
		return -1;
	}
	w->strings = (const char *)w->map + h->strings;
	w->n = h->nwords;
	*out = w;
	return 0;
}

int lexfile_words_has(const struct lexfile_words *w, const char *folded)
{
	uint32_t lo = 0, hi = w->n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c = strcmp(folded, w->strings + w->off[mid]);
		if (c == 0)
			return 1;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return 0;
}

void lexfile_words_unmap(struct lexfile_words *w)
{
	if (!w)
		return;
	munmap((void *)w->map, w->len);
	free(w);
}
