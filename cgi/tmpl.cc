// tmpl.cc — the only C++ in the program: expands a ctemplate template with
// the view tree as its dictionary; see tmpl.h.
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <new>
#include <set>
#include <string>
#include <vector>

#include <ctemplate/template.h>
#include <emmintrin.h>

#include "i18n.h"
#include "tmpl.h"

namespace {

const char pragma[] = "{{%AUTOESCAPE context=\"HTML\"}}";
// A feed (*.atom.tpl) is XML: its values are escaped with xml_escape.
const char xml_pragma[] = "{{%AUTOESCAPE context=\"XML\"}}";

// A text (*.txt.tpl: a mail) is not escaped at all (ctemplate has no
// plain-text context) and keeps its blank lines; it must say so first.
const char text_pragma[] = "{{! plain text, not escaped }}";

bool ends_with(const std::string &s, const char *tail)
{
	size_t n = strlen(tail);
	return s.size() > n && s.compare(s.size() - n, n, tail) == 0;
}

// A plain text, not escaped: a mail (.txt.tpl), a CSV file (.csv.tpl).
bool is_text(const std::string &name)
{
	return ends_with(name, ".txt.tpl") || ends_with(name, ".csv.tpl");
}

// 1 for an HTML template (not a text, not a feed): its bare variables are
// escaped by GetValue (manual_escaping).
bool is_html(const char *name)
{
	size_t n = strlen(name);
	const char *tails[] = { ".txt.tpl", ".csv.tpl", ".atom.tpl" };
	for (const char *tail : tails) {
		size_t t = strlen(tail);
		if (n > t && memcmp(name + n - t, tail, t) == 0)
			return false;
	}
	return true;
}

// How a template is stripped: a text keeps its lines as they are.
ctemplate::Strip strip_of(const std::string &name)
{
	return is_text(name) ? ctemplate::DO_NOT_STRIP : ctemplate::STRIP_BLANK_LINES;
}

std::set<std::string> *loaded;   // names that loaded; per process, set once

// Each loaded template's text as read (German, with its [[markers]]), and
// the parsed templates of each language in a cache of their own, German
// from the load on, any other language from the first request a worker
// answers in it: parsed, a language's templates take several times their
// text of a worker's heap (docs/benchmarks.md, "Figures from the code's
// comments"), and a worker that never answers in a language need not keep
// them. Per process, never freed.
std::vector<std::pair<std::string, std::string> > *sources;
ctemplate::TemplateCache *caches[LANG__MAX];

// 1 when the file starts with the AUTOESCAPE pragma: HTML, or XML for a
// name ending in .atom.tpl; a text (is_text) with text_pragma.
bool has_pragma(const std::string &path)
{
	const char *want = ends_with(path, ".atom.tpl") ? xml_pragma :
			   is_text(path) ? text_pragma : pragma;
	size_t len = strlen(want);
	FILE *f = fopen(path.c_str(), "rb");
	if (!f)
		return false;
	char head[64] = "";
	size_t n = fread(head, 1, len, f);
	fclose(f);
	return n == len && memcmp(head, want, n) == 0;
}

// Template `name` as loaded for the request's language: "en/table.tpl".
// The names are kept, so that each is built once per process; the last
// few answers are found again by a compare rather than a string built (an
// include asks for its file at every expansion; docs/benchmarks.md,
// "Figures from the code's comments").
const char *in_lang(const char *name)
{
	enum { RECENT = 16 };
	struct Recent {
		std::string name;
		const char *asked = NULL;   // where the name was asked for last
		const char *full = NULL;
	};
	static std::set<std::string> *names[LANG__MAX];
	static Recent *recent[LANG__MAX];
	static unsigned next[LANG__MAX];
	enum lang l = i18n_lang();
	if (!names[l]) {
		names[l] = new std::set<std::string>;
		recent[l] = new Recent[RECENT];
	}
	// Mostly a name from the program's text, asked for again at the same
	// address: found by that first (its bytes still compared: an arena's
	// string may lie where another lay), then by the name.
	for (int i = 0; i < RECENT; i++)
		if (recent[l][i].asked == name && strcmp(recent[l][i].name.c_str(), name) == 0)
			return recent[l][i].full;
	for (int i = 0; i < RECENT; i++)
		if (recent[l][i].full && recent[l][i].name == name) {
			recent[l][i].asked = name;
			return recent[l][i].full;
		}
	std::string full = std::string(lang_code[l]) + "/" + name;
	const char *kept = names[l]->insert(full).first->c_str();
	Recent &r = recent[l][next[l]++ % RECENT];
	r.name = name;
	r.asked = name;
	r.full = kept;
	return kept;
}

// The length of each template's last text, by its name as in_lang keeps
// it: the next expansion's buffer starts that large and a little more, so
// that it is not grown (and copied) on the way; the first growth of a 19 KB
// page copied 16 KB. A number for the first HINTS names, per process.
size_t *last_size(const char *kept)
{
	enum { HINTS = 64 };
	static const char *name[HINTS];
	static size_t size[HINTS];
	static unsigned n;
	for (unsigned i = 0; i < n; i++)
		if (name[i] == kept)
			return &size[i];
	if (n == HINTS)
		return NULL;
	name[n] = kept;
	return &size[n++];
}

// The move form's template in the request's language, looked up once.
const char *form_file()
{
	static const char *form_in[LANG__MAX];
	enum lang l = i18n_lang();
	if (!form_in[l])
		form_in[l] = in_lang("move-form.tpl");
	return form_in[l];
}

// 1 when the len bytes at a and b are the same: names are short, and a
// call to memcmp cost more than comparing them here. Up to 16 bytes as two
// words that overlap (no byte loop at the end).
inline bool same_bytes(const char *a, const char *b, size_t len)
{
	if (len >= 8) {
		unsigned long long x, y, u, v;
		for (; len > 16; a += 8, b += 8, len -= 8) {
			memcpy(&x, a, 8);
			memcpy(&y, b, 8);
			if (x != y)
				return false;
		}
		memcpy(&x, a, 8);
		memcpy(&y, b, 8);
		memcpy(&u, a + len - 8, 8);
		memcpy(&v, b + len - 8, 8);
		return ((x ^ y) | (u ^ v)) == 0;
	}
	if (len >= 4) {
		unsigned x, y, u, v;
		memcpy(&x, a, 4);
		memcpy(&y, b, 4);
		memcpy(&u, a + len - 4, 4);
		memcpy(&v, b + len - 4, 4);
		return ((x ^ y) | (u ^ v)) == 0;
	}
	for (; len; len--)
		if (*a++ != *b++)
			return false;
	return true;
}

// A name ctemplate asks for, with its hash (view_key_hash) and the bit it
// has in a dictionary's vmask and smask (view_key_bit), taken once per
// question rather than once per dictionary asked.
struct Key {
	const char *p;
	size_t len;
	unsigned hash;
	unsigned long long bit;

	Key() : p(NULL), len(0), hash(0), bit(0) {}
	explicit Key(const ctemplate::TemplateString &k)
		: p(k.data()), len(k.size()), hash(view_key_hash(k.data(), k.size())),
		  bit(view_key_bit(hash))
	{
	}
	Key(const char *name, size_t n)
		: p(name), len(n), hash(view_key_hash(name, n)), bit(view_key_bit(hash))
	{
	}
};

// 1 when entry n is named k.
bool named(const view_node *n, const Key &k)
{
	return n->khash == k.hash && n->klen == k.len && k.len > 0 &&
	       same_bytes(n->key, k.p, k.len);
}

inline bool is(const Key &k, const char *name, size_t len)
{
	return k.len == len && same_bytes(k.p, name, len);
}

// The names the move form reads from its item, with their hashes.
const Key key_move("move", 4), key_label("label", 5), key_primary("primary", 7);

// The first string named k directly inside view dictionary d, or NULL.
const view_node *str_in(const view_node *d, const Key &k)
{
	for (const view_node *n = d->first; n; n = n->next)
		if (named(n, k) && n->kind == VIEW_STR)
			return n;
	return NULL;
}

const ctemplate::TemplateString empty_value("", 0);

// The len bytes at p as the TemplateString GetValue gives back, made
// without TemplateString's test whether p lies in the program's text (its
// is_immutable, which ctemplate does not read of a value: it only writes
// it out): by way of a StaticTemplateString, whose constructor takes that
// as given. GetValue asks in_program_text itself where it needs to know.
inline ctemplate::TemplateString value_string(const char *p, size_t len)
{
	const ctemplate::StaticTemplateString s = { { p, len, ctemplate::kIllegalTemplateId } };
	return ctemplate::TemplateString(s);
}

// 1 when p lies in the program's text: a literal (TemplateString's test).
inline bool in_program_text(const char *p)
{
	return ctemplate::TemplateString(p, 0).is_immutable();
}

// ---- A value in HTML text: escaped by GetValue, no modifier ----
//
// ctemplate's auto-escape gives a value in the text or a quoted attribute
// of an HTML template html_escape, which it calls through its modifier
// machinery for every value (two argument strings, a virtual MightModify,
// the modifier's call), most of which have nothing to escape (what it
// cost: docs/benchmarks.md). The loader (manual_escaping below) learns
// from ctemplate's own parse what auto-escape chose for every variable,
// and parses the template without auto-escape: where it chose html_escape
// and nothing else, the variable stands bare ({{v}}), and GetValue gives
// the value escaped as html_escape would (most need nothing); every other
// variable names its modifiers itself: x-url for a URL at the start of an
// attribute (ValidateUrl), x-minus for digits, ctemplate's own in a
// script, an unquoted attribute. GetValue tells a bare variable by the
// byte after its name in the template's text (ctemplate's name points
// there): ':' when modifiers follow; anything else is escaped
// (docs/views.md).

// 1 for the bytes html_escape replaces: & " ' < > and \t \n \v \f \r.
const unsigned char html_special[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0,
};

// A bit for each of the 16 bytes of v that may be one of html_special's:
// a byte up to 13 (\0 to \b too: html_escape_to leaves those as they
// are), '"', '&' or '\'' (0x26 | 1 = 0x27), '<' or '>' (0x3C | 2 = 0x3E).
inline int may_be_special(__m128i v)
{
	__m128i quot = _mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
		amp = _mm_cmpeq_epi8(_mm_or_si128(v, _mm_set1_epi8(1)), _mm_set1_epi8('\'')),
		angle = _mm_cmpeq_epi8(_mm_or_si128(v, _mm_set1_epi8(2)), _mm_set1_epi8('>')),
		low = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(13)), v);
	return _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quot, amp), _mm_or_si128(angle, low)));
}

// 1 when html_escape leaves the len bytes at p as they are: 16 bytes at a
// time (SSE2, which every x86-64 has), the last 16, or 4 to 15 as two
// pieces that overlap, read as one (nothing read past the value).
inline bool is_clean(const char *p, size_t len)
{
	__m128i v;
	if (len >= 16) {
		for (size_t i = 0; i + 16 < len; i += 16)
			if (may_be_special(_mm_loadu_si128((const __m128i *)(p + i))))
				return false;
		v = _mm_loadu_si128((const __m128i *)(p + len - 16));   // the last 16, some again
	} else if (len >= 8) {
		v = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)p),
				       _mm_loadl_epi64((const __m128i *)(p + len - 8)));
	} else if (len >= 4) {
		int x, y;
		memcpy(&x, p, 4);
		memcpy(&y, p + len - 4, 4);
		v = _mm_unpacklo_epi32(_mm_cvtsi32_si128(x), _mm_cvtsi32_si128(y));
		return !(may_be_special(v) & 0xff);
	} else {
		for (size_t i = 0; i < len; i++)
			if (html_special[(unsigned char)p[i]])
				return false;
		return true;
	}
	return !may_be_special(v);
}

// What the value GetValue gave last is (value_kind): taken and cleared by
// the first MightModify of x-url or x-minus, which ctemplate asks for that
// value next (VariableTemplateNode::Expand). Cleared, it says "might
// modify": the value goes through the modifiers.
enum {
	CLEAN = 1,    // nothing for html_escape to do
	PATH = 2,     // and it begins with '/': ValidateUrl passes it as it is
	DIGITS = 4,   // and it is digits only: x-minus writes it as it is
	NOT_KNOWN = 8,   // (not a kind: a string's kind, to be looked at)
};
thread_local unsigned last_value;

unsigned value_kind(const char *p, size_t len)
{
	if (!is_clean(p, len))
		return 0;
	if (len && p[0] == '/')
		return CLEAN | PATH;
	for (size_t i = 0; i < len; i++)
		if (p[i] < '0' || p[i] > '9')
			return CLEAN;
	return CLEAN | DIGITS;
}

// 1 when the last value is all of `kind`; clears it (see last_value).
inline bool last_value_is(unsigned kind)
{
	unsigned was = last_value;
	last_value = 0;
	return (was & kind) == kind;
}

// html_escape's output for the len bytes at in, into *out (after what it
// holds), byte for byte: a run of plain bytes at a time.
void html_escape_to(std::string *out, const char *in, size_t len)
{
	const char *run = in, *end = in + len;
	for (const char *p = in; p < end; p++) {
		unsigned char c = (unsigned char)*p;
		if (!html_special[c])
			continue;
		out->append(run, (size_t)(p - run));
		switch (c) {
		case '&': out->append("&amp;", 5); break;
		case '"': out->append("&quot;", 6); break;
		case '\'': out->append("&#39;", 5); break;
		case '<': out->append("&lt;", 4); break;
		case '>': out->append("&gt;", 4); break;
		default: out->append(" ", 1); break;   // \t \n \v \f \r
		}
		run = p + 1;
	}
	out->append(run, (size_t)(end - run));
}

// {{url:x-url}}: ctemplate's validate_url_and_html_escape (auto-escape's
// :U=html, a URL at the start of an attribute such as href) itself, but
// not called for a path of nothing to escape: ValidateUrl looks for a
// colon only before the first '/', and html_escape leaves such a value as
// it is.
class UrlModifier : public ctemplate::TemplateModifier {
public:
	bool MightModify(const ctemplate::PerExpandData *, const std::string &) const override
	{
		return !last_value_is(CLEAN | PATH);
	}

	void Modify(const char *in, size_t inlen, const ctemplate::PerExpandData *data,
		    ctemplate::ExpandEmitter *out, const std::string &arg) const override
	{
		ctemplate::validate_url_and_html_escape.Modify(in, inlen, data, out, arg);
	}
};

UrlModifier url_modifier;

// ---- The view tree as ctemplate's dictionary ----
//
// ctemplate expands a template against any TemplateDictionaryInterface; the
// tree used to be copied into its TemplateDictionary first (a dictionary and
// a generated name per item, a hash insert per value: a large part of a
// table page, docs/benchmarks.md). Now the template reads the tree where it
// lies, with the lookups of a TemplateDictionary: a value is looked for in the
// dictionary, then in those of the enclosing sections (not across an
// include), then among the template-global ones; of a name set twice in a
// dictionary the last value counts; a flag that is on is a section shown
// once; a section or include is found in the nearest dictionary that has one
// of that name, with all its items there. An item of a section that has a
// `move` includes the one move form as {{>move_form}}: a dictionary of its
// own with `move`, `label` (the move itself without one) and `primary`,
// drawn by move-form.tpl, whose form action, CSRF token and version are the
// page's template-global values (view_global_str). The JSON twin does not
// see that dictionary.

// A dictionary of up to SCAN entries is scanned: with the bits of its names
// checked first, a scan costs less than an index up to about this size
// (8, 16, 32 and 64 measured: docs/benchmarks.md).
enum { SCAN = 32 };

// What a dictionary of more than SCAN entries has under one name.
struct Name {
	const char *key;
	size_t len;
	const view_node *value;                 // its last value (not template-global)
	const view_node *sec_first, *sec_last;  // its items and flags that are on
	const view_node *inc_first, *inc_last;  // its includes
};

// The names of a dictionary (view_node.lookup): slot[] by open addressing
// holds each name's hash and its place in name[] (+ 1; 0: empty). mask 0:
// the dictionary is small, or the arena was out of room: it is scanned.
struct Slot {
	unsigned hash, at;
};
struct Index {
	size_t mask;
	Slot *slot;
	Name *name;
	unsigned n;
};

Index scanned = { 0, NULL, NULL, 0 };

// The slot of name p[0..len) in ix: its own, or the empty one it would take.
inline __attribute__((always_inline)) Slot *slot_of(const Index *ix, const char *p, size_t len, unsigned h)
{
	size_t i = h & ix->mask;
	for (; ix->slot[i].at; i = (i + 1) & ix->mask) {
		const Slot *s = &ix->slot[i];
		const Name *nm = &ix->name[s->at - 1];
		if (s->hash == h && nm->len == len && same_bytes(nm->key, p, len))
			break;
	}
	return &ix->slot[i];
}

// What ix has under name k, or NULL.
inline __attribute__((always_inline)) const Name *name_of(const Index *ix, const Key &k)
{
	if (!k.len)
		return NULL;
	const Slot *s = slot_of(ix, k.p, k.len, k.hash);
	return s->at ? &ix->name[s->at - 1] : NULL;
}

// Files entry e under its name.
void file_entry(Index *ix, const view_node *e)
{
	size_t len = e->klen;
	if (!len)
		return;
	unsigned h = e->khash;
	Slot *s = slot_of(ix, e->key, len, h);
	if (!s->at) {
		ix->name[ix->n] = Name{ e->key, len, NULL, NULL, NULL, NULL, NULL };
		*s = Slot{ h, ++ix->n };
	}
	Name *nm = &ix->name[s->at - 1];
	bool sec = e->kind == VIEW_SECTION || (e->kind == VIEW_FLAG && e->num);
	if ((e->kind == VIEW_STR || e->kind == VIEW_NUM) && !e->global)
		nm->value = e;
	else if (sec || e->kind == VIEW_INCLUDE) {
		const view_node **first = sec ? &nm->sec_first : &nm->inc_first;
		if (!*first)
			*first = e;
		*(sec ? &nm->sec_last : &nm->inc_last) = e;
	}
}

// The index of dictionary d, made at its first use.
const Index *index_of(view_node *d, struct arena *a)
{
	if (d->lookup)
		return (const Index *)d->lookup;
	size_t n = d->count;
	Index *ix = NULL;
	if (n > SCAN) {
		size_t cap = 16;
		while (cap < n * 2)
			cap *= 2;
		ix = (Index *)arena_alloc_raw(a, sizeof *ix);
		Slot *slot = (Slot *)arena_alloc(a, cap * sizeof *slot);
		Name *name = (Name *)arena_alloc_raw(a, n * sizeof *name);
		if (ix && slot && name) {
			*ix = Index{ cap - 1, slot, name, 0 };
			for (const view_node *e = d->first; e; e = e->next)
				file_entry(ix, e);
		} else {
			ix = NULL;
		}
	}
	d->lookup = ix ? ix : &scanned;
	return (const Index *)d->lookup;
}

class ArenaEmitter;

// What one expansion shares: the arena, the template-global values (found
// when first asked for), and the text of the number being written.
struct Expansion {
	struct arena *a;
	const view_node *root;
	const view_node *globals[32];
	int nglobals = -1;            // -1: not collected yet
	char digits[24];
	bool html;                    // an HTML page: bare variables escaped (GetValue)
	std::string escaped;          // the last value that html_escape changes, escaped
	ArenaEmitter *out = NULL;     // where the text goes
	size_t form_head_at = 0, form_head_len = 0;   // the first move form's head in the
	bool form_head_made = false;                  // text (HeadCapture)
	// The last section IsHiddenSection found shown: asked from dictionary
	// `asked` for name `name` (ctemplate's own string of the template's
	// node), found in `found`; CreateSectionIterator, which ctemplate
	// calls next for the same name, starts there instead of looking again.
	const void *asked = NULL, *asked_node = NULL;
	const char *name = NULL;
	const void *found = NULL;
	const view_node *found_first = NULL, *found_last = NULL;   // its span (not the form's)
	Key key;                      // the name asked, with its hash

	Expansion(struct arena *arena, const view_node *r, bool is_html)
		: a(arena), root(r), html(is_html)
	{
	}

	void collect(const view_node *d, int depth)
	{
		for (const view_node *n = d->first; n && depth < 32; n = n->next) {
			if (!n->global)
				continue;
			if (n->kind == VIEW_SECTION || n->kind == VIEW_INCLUDE)
				collect(n, depth + 1);   // one lies inside (view.c)
			else if (nglobals < (int)(sizeof globals / sizeof *globals))
				globals[nglobals++] = n;
		}
	}

	// The template-global value k (the last one set), or NULL.
	const view_node *global(const Key &k)
	{
		if (nglobals < 0) {
			nglobals = 0;
			collect(root, 0);
		}
		const view_node *hit = NULL;
		for (int i = 0; i < nglobals; i++)
			if (named(globals[i], k))
				hit = globals[i];
		return hit;
	}

	// The text of value n: a string as it is, a number's digits (valid
	// until the next number: ctemplate writes a value before it asks for
	// another). *kind: a number's kind (value_kind's answer for its text).
	ctemplate::TemplateString text(const view_node *n, unsigned *kind)
	{
		if (n->kind == VIEW_STR)
			return value_string(n->str, (size_t)n->num);
		*kind = n->num < 0 ? CLEAN : CLEAN | DIGITS;
		char *e = digits + sizeof digits, *p = e;
		unsigned long long u = n->num < 0 ? 0ULL - (unsigned long long)n->num :
			(unsigned long long)n->num;
		// two digits a step (most numbers of a page are below 100: one step)
		static const char two[] =
			"00010203040506070809101112131415161718192021222324"
			"25262728293031323334353637383940414243444546474849"
			"50515253545556575859606162636465666768697071727374"
			"75767778798081828384858687888990919293949596979899";
		for (; u >= 100; u /= 100) {
			p -= 2;
			memcpy(p, two + u % 100 * 2, 2);
		}
		if (u >= 10) {
			p -= 2;
			memcpy(p, two + u * 2, 2);
		} else {
			*--p = (char)('0' + u);
		}
		if (n->num < 0)
			*--p = '-';
		return value_string(p, (size_t)(e - p));
	}
};

// Where the entries of one name lie in a dictionary: from `first` to
// `last` (NULL: to its end), every entry to be checked for its name.
struct Span {
	const view_node *first, *last;
};

class ViewIter;
class HeadCapture;

// One dictionary of the view tree as ctemplate reads it (see above).
class ViewDict : public ctemplate::TemplateDictionaryInterface {
public:
	ViewDict() {}

	// The entries of `node` (NULL: none, a shown flag's dictionary), seeing
	// `parent`'s values (NULL: an include's); form: the move form of item node.
	void set(const view_node *node, const ViewDict *parent, Expansion *x, bool form = false)
	{
		node_ = const_cast<view_node *>(node);   // only its lookup is written
		parent_ = parent;
		x_ = x;
		form_ = form;
		smasks_ = (form ? key_primary.bit : node ? node->smask : 0) |
			  (parent ? parent->smasks_ : 0);
	}

	const view_node *node() const { return node_; }
	const ViewDict *parent() const { return parent_; }
	Expansion *expansion() const { return x_; }
	bool form() const { return form_; }

	// This dictionary's items and flags named k (sections: true), or its
	// includes; {NULL, NULL} when it has none.
	// (Inline: most questions end at the bit, and the call cost more.)
	__attribute__((always_inline)) Span span(const Key &k, bool sections) const
	{
		if (form_ || !node_ || !(node_->smask & k.bit))
			return Span{ NULL, NULL };
		return span_looked_up(k, sections);
	}

	// span() of a name whose bit is set.
	Span span_looked_up(const Key &k, bool sections) const
	{
		const Index *ix;
		if (node_->count > SCAN && (ix = index_of(node_, x_->a))->mask) {
			const Name *s = name_of(ix, k);
			if (!s)
				return Span{ NULL, NULL };
			return sections ? Span{ s->sec_first, s->sec_last } :
					  Span{ s->inc_first, s->inc_last };
		}
		for (const view_node *n = node_->first; n; n = n->next)
			if (named(n, k) && (sections ? n->kind == VIEW_SECTION ||
						       (n->kind == VIEW_FLAG && n->num) :
						       n->kind == VIEW_INCLUDE))
				return Span{ n, NULL };
		return Span{ NULL, NULL };
	}

	// 1 when this dictionary shows section k itself.
	bool shows(const Key &k) const
	{
		if (form_)
			return is(k, "primary", 7) && flag_on(node_, key_primary);
		return span(k, true).first != NULL;
	}

	// 1 when k is the move form and this is an item with a move.
	bool has_form(const Key &k) const
	{
		return !form_ && node_ && node_->kind == VIEW_SECTION && is(k, "move_form", 9) &&
		       str_in(node_, key_move);
	}

	// 1 when this dictionary includes template k itself.
	bool includes(const Key &k) const
	{
		return span(k, false).first || has_form(k);
	}

protected:
	ctemplate::TemplateString GetValue(const ctemplate::TemplateString &k) const override;
	ctemplate::TemplateString value_of(const ctemplate::TemplateString &k,
				    unsigned *kind) const;
	bool IsHiddenSection(const ctemplate::TemplateString &k) const override;
	bool IsUnhiddenSection(const ctemplate::TemplateString &k) const override
	{
		return !IsHiddenSection(k);
	}
	bool IsHiddenTemplate(const ctemplate::TemplateString &k) const override;
	const char *GetIncludeTemplateName(const ctemplate::TemplateString &k,
					   int num) const override;
	Iterator *CreateTemplateIterator(const ctemplate::TemplateString &k) const override;
	Iterator *CreateSectionIterator(const ctemplate::TemplateString &k) const override;
	void DumpToString(std::string *out, int level) const override
	{
		out->append((size_t)level * ctemplate::kIndent, ' ');
		out->append(node_ && node_->key ? node_->key : "", 0, 64);
		out->append(" (view dictionary)\n");
	}

private:
	friend class ViewIter;   // to derive from the interface's Iterator
	friend class HeadCapture;

	static bool flag_on(const view_node *d, const Key &k)
	{
		for (const view_node *n = d->first; n; n = n->next)
			if (named(n, k) && n->kind == VIEW_FLAG && n->num)
				return true;
		return false;
	}

	// The last value k set in this dictionary itself, or NULL.
	const view_node *own(const Key &k) const;

	const ViewDict *with_include(const Key &k) const
	{
		for (const ViewDict *d = this; d; d = d->parent_)
			if (d->includes(k))
				return d;
		return NULL;
	}

	view_node *node_ = NULL;
	const ViewDict *parent_ = NULL;
	// The smask of this dictionary and of every one it sees (a form's: its
	// `primary`): a clear bit says no section of that name is shown here.
	unsigned long long smasks_ = 0;
	Expansion *x_ = NULL;
	bool form_ = false;
};

const view_node *ViewDict::own(const Key &k) const
{
	if (form_ || !node_ || !(node_->vmask & k.bit))
		return NULL;   // the move form's values: GetValue; or no value of that name
	// (a small dictionary is scanned: not even its index_of asked)
	const Index *ix;
	if (node_->count > SCAN && (ix = index_of(node_, x_->a))->mask) {
		const Name *s = name_of(ix, k);
		return s ? s->value : NULL;
	}
	// the last value set counts: the first found from the end (view_node.prev)
	for (const view_node *n = node_->last; n; n = n->prev)
		if (named(n, k) && (n->kind == VIEW_STR || n->kind == VIEW_NUM) && !n->global)
			return n;
	return NULL;
}

// The dictionaries of one section or include in turn. Made and deleted by
// ctemplate for every section it expands: the blocks are kept on a free
// list of their own rather than going through malloc each time.
class ViewIter : public ctemplate::TemplateDictionaryInterface::Iterator {
public:
	// The items and flags (includes: the includes) named k of dictionary owner.
	// known: owner's span of k when the caller has it (a section's).
	ViewIter(const ViewDict *owner, const Key &k, bool includes, const Span *known = NULL)
		: owner_(owner), key_(k), includes_(includes)
	{
		Span sp = known ? *known : owner->span(k, !includes);
		at_ = sp.first;
		last_ = sp.last;
		if (known && at_)
			key_at_ = at_->key;   // named k (and so are entries whose key lies there)
		if (owner->form())
			form_left_ = !includes;   // the form's `primary`, shown once
		else if (includes)
			form_left_ = owner->has_form(k);
		if (!known)
			advance();   // a known span starts at an item or a flag that is on
	}

	bool HasNext() const override { return at_ || form_left_; }

	const ctemplate::TemplateDictionaryInterface &Next() override
	{
		Expansion *x = owner_->expansion();
		if (at_) {
			if (at_->kind == VIEW_FLAG)
				cur_.set(NULL, owner_, x);
			else
				cur_.set(at_, includes_ ? NULL : owner_, x);
			seen_ = true;
			at_ = at_ == last_ ? NULL : at_->next;
			advance();
		} else if (owner_->form()) {
			cur_.set(NULL, owner_, x);   // its shown `primary`
			form_left_ = false;
		} else {
			cur_.set(owner_->node(), NULL, x, true);
			form_left_ = false;
		}
		return cur_;
	}

	static void *operator new(size_t size)
	{
		if (void *p = spare) {
			spare = *(void **)p;
			return p;
		}
		if (void *p = malloc(size < sizeof(void *) ? sizeof(void *) : size))
			return p;
		throw std::bad_alloc();
	}

	static void operator delete(void *p)
	{
		if (!p)
			return;
		*(void **)p = spare;
		spare = p;
	}

private:
	// at_ to the next entry (from at_ on, up to last_) that gives one of the
	// dictionaries wanted: an item or include of that name; for a section, a
	// flag that is on gives an empty dictionary (ctemplate's ShowSection)
	// unless an item or flag of that name came before it.
	void advance()
	{
		for (; at_; at_ = at_ == last_ ? NULL : at_->next) {
			// an entry whose key lies where the first one's did has its
			// name (the items of a list mostly: one literal of the program)
			if (at_->key != key_at_ || !at_->key) {
				if (!named(at_, key_))
					continue;
				key_at_ = at_->key;
			}
			if (includes_ ? at_->kind == VIEW_INCLUDE : at_->kind == VIEW_SECTION)
				return;
			if (!includes_ && at_->kind == VIEW_FLAG && at_->num && !seen_)
				return;
		}
	}

	const ViewDict *owner_;
	Key key_;
	const char *key_at_ = NULL;   // where an entry's key named key_ lay
	bool includes_;
	const view_node *at_ = NULL, *last_ = NULL;
	bool seen_ = false, form_left_ = false;
	ViewDict cur_;
	static void *spare;
};

void *ViewIter::spare;

// The expanded text, written straight into the request's arena: no
// std::string that grows by copies, and no copy of it at the end (what they
// cost: docs/benchmarks.md, "Figures from the code's comments").
class ArenaEmitter : public ctemplate::ExpandEmitter {
public:
	// first: the room to start with (0: FIRST).
	ArenaEmitter(struct arena *a, size_t first) : a_(a), first_(first) {}

	void Emit(char c) override { Emit(&c, 1); }
	void Emit(const std::string &s) override { Emit(s.data(), s.size()); }
	void Emit(const char *s) override { Emit(s, strlen(s)); }
	void Emit(const char *s, size_t n) override
	{
		if (cap_ - len_ <= n)
			return emit_grown(s, n);   // a tail call: the common path saves no register
		char *q = p_ + len_;
		len_ += n;
		// Most pieces are a few bytes: no call for them, but two moves of
		// a word that overlap (the room is there: grow above), or of up
		// to 3 bytes their first, middle and last.
		if (n > 16) {
			memcpy(q, s, n);
		} else if (n >= 8) {
			unsigned long long x, y;
			memcpy(&x, s, 8);
			memcpy(&y, s + n - 8, 8);
			memcpy(q, &x, 8);
			memcpy(q + n - 8, &y, 8);
		} else if (n >= 4) {
			unsigned x, y;
			memcpy(&x, s, 4);
			memcpy(&y, s + n - 4, 4);
			memcpy(q, &x, 4);
			memcpy(q + n - 4, &y, 4);
		} else if (n) {
			char a = s[0], b = s[n / 2], c = s[n - 1];
			q[0] = a;
			q[n / 2] = b;
			q[n - 1] = c;
		}
	}

	// The bytes written so far; where those from offset `off` on lie (NULL
	// when the arena ran out).
	size_t size() const { return len_; }
	const char *from(size_t off) const { return failed_ ? NULL : p_ + off; }

	// The text, NUL-terminated (*len bytes); NULL when the arena ran out.
	char *text(size_t *len)
	{
		if (failed_ || (!p_ && !grow(0)))
			return NULL;
		p_[len_] = '\0';
		*len = len_;
		return p_;
	}

private:
	static const size_t FIRST = 16 * 1024;

	// Emit when the room is short: grown first (nothing when it cannot be).
	__attribute__((noinline)) void emit_grown(const char *s, size_t n)
	{
		if (!grow(n))
			return;
		char *q = p_ + len_;
		len_ += n;
		memcpy(q, s, n);
	}

	// Room for n more bytes and a NUL; false (and every later byte dropped)
	// when the arena has none.
	bool grow(size_t n)
	{
		if (failed_)
			return false;
		size_t cap = cap_ ? cap_ * 2 : first_ > FIRST ? first_ : FIRST;
		while (cap - len_ <= n)
			cap *= 2;
		if (p_ && arena_grow_last(a_, p_, cap_, cap)) {
			cap_ = cap;   // the arena's next bytes: nothing copied
			return true;
		}
		char *q = (char *)arena_alloc_raw(a_, cap);
		if (!q) {
			failed_ = true;
			return false;
		}
		if (len_)
			memcpy(q, p_, len_);
		p_ = q;
		cap_ = cap;
		return true;
	}

	struct arena *a_;
	size_t first_;
	char *p_ = NULL;
	size_t len_ = 0, cap_ = 0;
	bool failed_ = false;
};

// The move form's head (take_form_heads): the first form of an expansion
// expands the section {{#move_form_head}} once, with the form's own
// dictionary as its one item, and keeps what it wrote when ctemplate
// deletes the iterator after it; it reads only template-global values, so
// every later form of the expansion writes the same text (write_form_head).
class HeadCapture : public ctemplate::TemplateDictionaryInterface::Iterator {
public:
	HeadCapture(const ViewDict *form, Expansion *x) : form_(form), x_(x), start_(x->out->size())
	{
	}
	~HeadCapture() override
	{
		x_->form_head_at = start_;
		x_->form_head_len = x_->out->size() - start_;
		x_->form_head_made = true;
	}
	bool HasNext() const override { return form_ != NULL; }
	const ctemplate::TemplateDictionaryInterface &Next() override
	{
		const ViewDict *form = form_;
		form_ = NULL;
		return *form;
	}

private:
	const ViewDict *form_;
	Expansion *x_;
	size_t start_;
};

// 1 when k is the form's head (only a form's dictionary asks for it).
inline bool is_form_head(const ctemplate::TemplateString &k)
{
	return k.size() == 14 && same_bytes(k.data(), "move_form_head", 14);
}

// Writes the head the expansion's first form wrote; false when there is
// none yet (that form expands the section itself).
bool write_form_head(Expansion *x)
{
	const char *p = x->form_head_made ? x->out->from(x->form_head_at) : NULL;
	if (!p)
		return false;
	// (when the text is moved to grow, p still holds the bytes: the arena
	// frees nothing)
	x->out->Emit(p, x->form_head_len);
	return true;
}

// is_clean of a string of the program's text (a literal: ctemplate's
// TemplateString tells it), remembered by its address and length per
// process: most values of a page are the same literals on every page.
struct CleanMemo {
	const char *p;
	size_t len;
	bool clean;
};
CleanMemo clean_memo[256];

inline bool literal_is_clean(const char *p, size_t len)
{
	CleanMemo &m = clean_memo[((uintptr_t)p >> 2) % (sizeof clean_memo / sizeof *clean_memo)];
	if (m.p != p || m.len != len)
		m = CleanMemo{ p, len, is_clean(p, len) };
	return m.clean;
}

ctemplate::TemplateString ViewDict::GetValue(const ctemplate::TemplateString &name) const
{
	unsigned kind = NOT_KNOWN;
	ctemplate::TemplateString v = value_of(name, &kind);
	if (x_->html && name.data()[name.size()] != ':') {   // bare: HTML text (manual_escaping)
		if (kind != NOT_KNOWN ||
		    (in_program_text(v.data()) ? literal_is_clean(v.data(), v.size()) :
						 is_clean(v.data(), v.size())))
			return v;   // a number, or nothing to escape
		x_->escaped.clear();
		html_escape_to(&x_->escaped, v.data(), v.size());
		return value_string(x_->escaped.data(), x_->escaped.size());
	}
	last_value = kind != NOT_KNOWN ? kind : value_kind(v.data(), v.size());
	return v;
}

// *kind: a number's (value_kind of its digits), else left as it is.
ctemplate::TemplateString ViewDict::value_of(const ctemplate::TemplateString &name,
					     unsigned *kind) const
{
	const Key k(name);
	for (const ViewDict *d = this; d; d = d->parent_) {
		if (d->form_) {
			const view_node *v = is(k, "label", 5) ? str_in(d->node_, key_label) : NULL;
			if (!v && (is(k, "move", 4) || is(k, "label", 5)))
				v = str_in(d->node_, key_move);   // a move without a label shows itself
			if (v)
				return x_->text(v, kind);
		} else if (const view_node *n = d->own(k)) {
			return x_->text(n, kind);
		}
	}
	if (const view_node *n = x_->global(k))
		return x_->text(n, kind);
	return empty_value;
}

bool ViewDict::IsHiddenSection(const ctemplate::TemplateString &name) const
{
	if (form_ && is_form_head(name))
		return write_form_head(x_);   // written here: hidden to ctemplate
	const Key k(name);
	for (const ViewDict *d = smasks_ & k.bit ? this : NULL; d; d = d->parent_) {
		Span sp = { NULL, NULL };
		if (d->form_ ? d->shows(k) : (sp = d->span(k, true)).first != NULL) {
			x_->asked = this;
			x_->asked_node = node_;
			x_->name = name.data();
			x_->found = d;
			x_->found_first = sp.first;
			x_->found_last = sp.last;
			x_->key = k;
			return false;
		}
	}
	// the move form, inlined (inline_form): no section has its name
	return !(is(k, "move_form", 9) && with_include(k));
}

bool ViewDict::IsHiddenTemplate(const ctemplate::TemplateString &name) const
{
	return !with_include(Key(name));
}

const char *ViewDict::GetIncludeTemplateName(const ctemplate::TemplateString &name, int num) const
{
	const Key k(name);
	const ViewDict *d = with_include(k);
	if (!d)
		return "";
	Span sp = d->span(k, false);
	for (const view_node *n = sp.first; n; n = n == sp.last ? NULL : n->next)
		if (n->kind == VIEW_INCLUDE && named(n, k) && num-- == 0)
			return in_lang(n->str);
	return num == 0 && d->has_form(k) ? form_file() : "";
}

ctemplate::TemplateDictionaryInterface::Iterator *
ViewDict::CreateTemplateIterator(const ctemplate::TemplateString &name) const
{
	const Key k(name);
	const ViewDict *d = with_include(k);
	return new ViewIter(d ? d : this, k, true);
}

ctemplate::TemplateDictionaryInterface::Iterator *
ViewDict::CreateSectionIterator(const ctemplate::TemplateString &name) const
{
	const ViewDict *d = this;
	if (x_->asked == this && x_->asked_node == node_ && x_->name == name.data() &&
	    x_->key.len == name.size()) {
		x_->asked = NULL;
		d = (const ViewDict *)x_->found;
		Span sp = { x_->found_first, x_->found_last };
		return new ViewIter(d, x_->key, false, d->form() ? NULL : &sp);
	}
	if (form_ && is_form_head(name))
		return new HeadCapture(this, x_);
	const Key k(name);
	if (is(k, "move_form", 9))
		return CreateTemplateIterator(name);   // the move form (inline_form)
	while (d->parent_ && !d->shows(k))
		d = d->parent_;
	return new ViewIter(d, k, false);
}

// {{n:x-minus}}: a number with a real minus sign (U+2212), "−3".
// {{n:x-points}}: a score in words, "−3 Punkte", "1 Punkt", "0 Punkte".
// Every page writes numbers of points through these two, so that a score
// looks the same everywhere; the JSON twin keeps the plain number.
class SignedModifier : public ctemplate::TemplateModifier {
public:
	explicit SignedModifier(bool points) : points_(points) {}
	// x-minus writes a number of digits only as it is.
	bool MightModify(const ctemplate::PerExpandData *, const std::string &) const override
	{
		bool digits = last_value_is(DIGITS);
		return points_ || !digits;
	}
	void Modify(const char *in, size_t inlen, const ctemplate::PerExpandData *,
		    ctemplate::ExpandEmitter *out, const std::string &) const override
	{
		if (inlen > 0 && in[0] == '-') {
			out->Emit("\xe2\x88\x92", 3);   // (the length given: no strlen)
			in++;
			inlen--;
		}
		size_t digits = 0;   // only digits pass: the output is safe in any context
		while (digits < inlen && in[digits] >= '0' && in[digits] <= '9')
			digits++;
		out->Emit(in, digits);
		if (points_) {
			out->Emit("\xc2\xa0", 2);
			out->Emit(digits == 1 && in[0] == '1' ? _("Punkt") : _("Punkte"));
		}
	}

private:
	bool points_;
};

SignedModifier minus_modifier(false), points_modifier(true);

// The text of file `path`, or false.
bool slurp(const std::string &path, std::string *out)
{
	FILE *f = fopen(path.c_str(), "rb");
	if (!f)
		return false;
	char buf[8192];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		out->append(buf, n);
	bool ok = !ferror(f);
	fclose(f);
	return ok;
}

// Template text `src` in language l: every [[German text]] replaced by
// its translation (the German text itself for German or a text the
// catalog lacks). false for a marker left open.
bool in_language(const std::string &src, enum lang l, std::string *out)
{
	size_t at = 0;
	for (;;) {
		size_t open = src.find("[[", at);
		if (open == std::string::npos)
			break;
		size_t close = src.find("]]", open + 2);
		size_t eol = src.find('\n', open);
		if (close == std::string::npos || (eol != std::string::npos && eol < close))
			return false;
		out->append(src, at, open - at);
		std::string id = src.substr(open + 2, close - open - 2);
		out->append(i18n_get(l, id.c_str()));
		at = close + 2;
	}
	out->append(src, at, std::string::npos);
	return true;
}

// The variables of a parsed template as ctemplate's dump shows them, in
// the template's order: each name with the modifiers it got ("v:h").
bool dumped_variables(const std::string &name, const std::string &text,
		      std::vector<std::string> *vars)
{
	ctemplate::Template *t = ctemplate::Template::StringToTemplate(text, strip_of(name));
	if (!t)
		return false;
	std::string dump;
	t->DumpToString(name.c_str(), &dump);
	delete t;
	const char tag[] = "Variable Node: ";
	for (size_t at = 0; (at = dump.find(tag, at)) != std::string::npos;) {
		size_t from = at + sizeof tag - 1, eol = dump.find('\n', from);
		vars->push_back(dump.substr(from, eol == std::string::npos ? eol : eol - from));
		at = from;
	}
	return true;
}

// Template text `text` (HTML, beginning with the AUTOESCAPE pragma) as it
// is parsed: without auto-escape (the pragma a comment), each variable
// with the modifiers auto-escape chose for it written out, but for those
// to which it gives html_escape and nothing else (the value in the text or
// a quoted attribute): they stand bare, and GetValue escapes their values.
// ValidateUrl (a URL at the start of an attribute) becomes x-url. false
// (logged) when the dump of the template and its text do not agree, or
// when the text names x-url itself (it may stand only where the loader
// puts it) or x-html (no longer the program's: a reader would take it
// for the escaping).
bool manual_escaping(const std::string &name, const std::string &text, std::string *out)
{
	std::vector<std::string> vars;
	if (!dumped_variables(name, text, &vars)) {
		fprintf(stderr, "tmpl: %s does not parse\n", name.c_str());
		return false;
	}
	if (text.compare(0, sizeof pragma - 1, pragma) != 0) {
		fprintf(stderr, "tmpl: %s does not begin with %s\n", name.c_str(), pragma);
		return false;
	}
	out->append("{{! escaped as auto-escape chose at the load }}");
	size_t at = sizeof pragma - 1, nvar = 0;
	for (;;) {
		size_t open = text.find("{{", at);
		if (open == std::string::npos)
			break;
		size_t close = text.find("}}", open + 2);
		if (close == std::string::npos)
			break;   // ctemplate parsed it: a }} of a text
		std::string tok = text.substr(open + 2, close - open - 2);
		out->append(text, at, close - at);
		at = close;
		if (tok.empty() || strchr("#/>!%=", tok[0]))
			continue;   // not a variable (no other delimiters: see above)
		if (tok.find("x-url") != std::string::npos || tok.find("x-html") != std::string::npos ||
		    nvar >= vars.size() ||
		    vars[nvar].compare(0, tok.size(), tok) != 0 ||
		    (vars[nvar].size() > tok.size() && vars[nvar][tok.size()] != ':')) {
			fprintf(stderr, "tmpl: %s: {{%s}} not as ctemplate parsed it\n",
				name.c_str(), tok.c_str());
			return false;
		}
		if (vars[nvar] == tok + ":U=html")
			out->append(":x-url");
		else if (vars[nvar] != tok + ":h")
			out->append(vars[nvar], tok.size(), std::string::npos);
		nvar++;
	}
	if (nvar != vars.size()) {
		fprintf(stderr, "tmpl: %s: %zu variables, ctemplate found %zu\n", name.c_str(),
			nvar, vars.size());
		return false;
	}
	out->append(text, at, std::string::npos);
	return true;
}

// The move form's text as read (move-form.tpl), once loaded; else NULL.
const std::string *form_source;

// The variables ({{name}}, as manual_escaping counts them) in text[0..end).
size_t variables_in(const std::string &text, size_t end)
{
	size_t n = 0;
	for (size_t at = 0;;) {
		size_t open = text.find("{{", at);
		if (open == std::string::npos || open >= end)
			return n;
		size_t close = text.find("}}", open + 2);
		if (close == std::string::npos)
			return n;
		if (close > open + 2 && !strchr("#/>!%=", text[open + 2]))
			n++;
		at = close;
	}
}

// Template text *text (HTML, in language l) with each {{>move_form}}
// replaced by the move form's text (after its first line, the pragma) as
// the section {{#move_form}}: ViewDict shows that section exactly where,
// and with the dictionary with which, it would include the form, so that
// ctemplate need not look the included template up in its cache, under its
// lock, for every move of a page (docs/benchmarks.md). The form's values
// must get there the escaping they get in the form's own template (the
// dumps compared); false (logged) when not: {{>move_form}} stands where
// the form would not be HTML text.
bool inline_form(const std::string &name, enum lang l, std::string *text)
{
	const char tag[] = "{{>move_form}}";
	if (!form_source || name == "move-form.tpl" || text->find(tag) == std::string::npos)
		return true;
	std::string whole, out;
	std::vector<std::string> want, got;
	size_t eol;
	if (!in_language(*form_source, l, &whole) || (eol = whole.find('\n')) == std::string::npos ||
	    !dumped_variables("move-form.tpl", whole, &want))
		return true;   // the include stays; the form's own load says why
	std::vector<size_t> starts;   // where each copy of the form begins
	size_t at = 0;
	for (size_t hit; (hit = text->find(tag, at)) != std::string::npos; at = hit + sizeof tag - 1) {
		out.append(*text, at, hit - at);
		starts.push_back(out.size());
		out.append("{{#move_form}}").append(whole, eol + 1, std::string::npos);
		out.append("{{/move_form}}");
	}
	out.append(*text, at, std::string::npos);
	if (!dumped_variables(name, out, &got))
		return true;   // manual_escaping reports it
	for (size_t start : starts) {
		size_t first = variables_in(out, start);
		for (size_t i = 0; i < want.size(); i++)
			if (first + i >= got.size() || got[first + i] != want[i]) {
				fprintf(stderr, "tmpl: %s: {{>move_form}} where the form's values "
						"would be escaped otherwise\n", name.c_str());
				return false;
			}
	}
	text->swap(out);
	return true;
}

// ---- The move form's head, written once a page ----
//
// Every form of a page begins with the same text: the form's tag with its
// action (move_url), the CSRF token and the version (v), template-global
// values all, up to the first of the item's own (move, label, primary).
// The loader makes that head the section {{#move_form_head}} of each form
// it takes in: the first form of an expansion expands it and keeps what it
// wrote (HeadCapture), the others write that text again in its stead
// (IsHiddenSection; docs/benchmarks.md).

// The length of the head of the form text at text[from..): up to the first
// token that is not a value of the page (the item's move or label, a
// section, an include, a comment).
size_t head_len(const std::string &text, size_t from)
{
	for (size_t at = from;;) {
		size_t open = text.find("{{", at), close;
		if (open == std::string::npos || (close = text.find("}}", open)) == std::string::npos)
			return 0;
		std::string var = text.substr(open + 2, close - open - 2);
		var = var.substr(0, var.find(':'));
		if (var.empty() || strchr("#/>!%=^", var[0]) || var == "move" || var == "label")
			return open - from;
		at = close + 2;
	}
}

// The move form's head as its copies in a template parsed in language l
// read (move-form.tpl's text after the pragma, as manual_escaping writes
// it, up to head_len); "" when there is none. Made once per language.
const std::string &form_head(enum lang l)
{
	static std::string *head[LANG__MAX];
	if (head[l])
		return *head[l];
	head[l] = new std::string;
	std::string whole, text;
	size_t eol;
	if (form_source && in_language(*form_source, l, &whole) &&
	    manual_escaping("move-form.tpl", whole, &text) &&
	    (eol = text.find('\n')) != std::string::npos)
		head[l]->assign(text, eol + 1, head_len(text, eol + 1));
	if (head[l]->find("{{") == std::string::npos)
		head[l]->clear();   // no value of the page: nothing to spare
	return *head[l];
}

// Text *text (a template in language l as manual_escaping wrote it) with
// each of its forms' heads the section {{#move_form_head}}. The heads are
// the same text as the form's own (inline_form compared their escaping);
// a copy that differs stays as it is.
void take_form_heads(enum lang l, std::string *text)
{
	const std::string open = "{{#move_form}}";
	if (!form_source || text->find(open) == std::string::npos)
		return;   // (inline_form took in no form)
	const std::string &head = form_head(l);
	const std::string with = open + "{{#move_form_head}}" + head + "{{/move_form_head}}";
	for (size_t at = 0; !head.empty() && (at = text->find(open, at)) != std::string::npos;
	     at += open.size())
		if (text->compare(at + open.size(), head.size(), head) == 0)
			text->replace(at, open.size() + head.size(), with);
}

// Template `name` of text `src` in language l into cache, as "de/name".
bool parse_in(ctemplate::TemplateCache *cache, const std::string &name, const std::string &src,
	      int l)
{
	std::string text, key = std::string(lang_code[l]) + "/" + name;
	if (!in_language(src, (enum lang)l, &text)) {
		fprintf(stderr, "tmpl: %s: a [[ without its ]] on the same line\n", name.c_str());
		return false;
	}
	std::string html;
	if (is_html(name.c_str())) {
		if (!inline_form(name, (enum lang)l, &text) || !manual_escaping(name, text, &html))
			return false;
		text.swap(html);
		take_form_heads((enum lang)l, &text);
	} else if (text.find("{{>") != std::string::npos) {
		// its values would not be escaped in an HTML template it took in
		// (GetValue escapes only in an HTML page's expansion)
		fprintf(stderr, "tmpl: %s: a feed or a text includes no template\n", name.c_str());
		return false;
	}
	if (!cache->StringToTemplateCache(key, text, strip_of(name))) {
		fprintf(stderr, "tmpl: %s (%s) does not parse\n", name.c_str(), lang_code[l]);
		return false;
	}
	return true;
}

// Reads file `path` into *src and checks that it parses in every language:
// German into `de`, the cache it is served from, the others into `trial`,
// which the caller throws away, so that a template broken in any language
// still stops a worker at its start rather than failing a request.
bool load_langs(ctemplate::TemplateCache *de, ctemplate::TemplateCache *trial,
		const std::string &path, const std::string &name, std::string *src)
{
	if (!slurp(path, src)) {
		fprintf(stderr, "tmpl: cannot read %s\n", path.c_str());
		return false;
	}
	for (int l = 0; l < LANG__MAX; l++)
		if (!parse_in(l == LANG_DE ? de : trial, name, *src, l))
			return false;
	return true;
}

// The frozen cache of language l, parsed from the sources when first asked
// for (no disk access); NULL when that fails (logged).
ctemplate::TemplateCache *lang_cache(enum lang l)
{
	if (caches[l] || !sources)
		return caches[l];
	ctemplate::TemplateCache *c = new ctemplate::TemplateCache;
	for (const auto &src : *sources)
		if (!parse_in(c, src.first, src.second, l)) {
			delete c;
			return NULL;
		}
	c->Freeze();
	caches[l] = c;
	return c;
}

// The *.tpl names in dir; false when it does not open.
bool list_dir(const char *dir, std::vector<std::string> *names)
{
	DIR *dh = opendir(dir);
	if (!dh) {
		fprintf(stderr, "tmpl: cannot open %s\n", dir);
		return false;
	}
	while (struct dirent *e = readdir(dh)) {
		size_t l = strlen(e->d_name);
		if (l > 4 && strcmp(e->d_name + l - 4, ".tpl") == 0)
			names->push_back(e->d_name);
	}
	closedir(dh);
	return true;
}

// The German cache anew: what earlier calls loaded, then the templates of
// dir not loaded yet. The number of templates that did not load.
int load_dir(const char *dir, std::vector<std::string> names)
{
	// the move form first: the templates after it take it in (inline_form)
	std::stable_partition(names.begin(), names.end(),
			      [](const std::string &n) { return n == "move-form.tpl"; });
	ctemplate::TemplateCache *de = new ctemplate::TemplateCache, *trial =
		new ctemplate::TemplateCache;
	int bad = 0;
	if (!sources)
		sources = new std::vector<std::pair<std::string, std::string> >;
	if (!loaded)
		loaded = new std::set<std::string>;
	for (const auto &src : *sources)
		bad += !parse_in(de, src.first, src.second, LANG_DE);
	for (const std::string &name : names) {
		if (!has_pragma(std::string(dir) + "/" + name)) {
			fprintf(stderr, "tmpl: %s does not begin with %s\n", name.c_str(), pragma);
			bad++;
			continue;
		}
		if (loaded->count(name))
			continue;   // loaded by an earlier call (its text is kept)
		std::string src;
		if (!load_langs(de, trial, std::string(dir) + "/" + name, name, &src)) {
			bad++;
			continue;
		}
		sources->push_back(std::make_pair(name, src));
		loaded->insert(name);
		if (name == "move-form.tpl" && !form_source)
			form_source = new std::string(src);
	}
	delete trial;
	for (int l = 0; l < LANG__MAX; l++) {
		delete caches[l];   // rebuilt with every source at their first use
		caches[l] = NULL;
	}
	de->Freeze();
	caches[LANG_DE] = de;
	return bad;
}

} // namespace

extern "C" int tmpl_load(const char *dir)
{
	try {
		static bool modifiers;
		if (!modifiers) {
			// Their output is digits, a minus sign and a word: safe anywhere.
			ctemplate::AddXssSafeModifier("x-minus", &minus_modifier);
			ctemplate::AddXssSafeModifier("x-points", &points_modifier);
			// Only where auto-escape would use ValidateUrl (manual_escaping).
			ctemplate::AddXssSafeModifier("x-url", &url_modifier);
			modifiers = true;
		}
		std::vector<std::string> names;
		if (!list_dir(dir, &names))
			return -1;
		int bad = load_dir(dir, names);
		if (names.empty()) {
			fprintf(stderr, "tmpl: no templates in %s\n", dir);
			bad++;
		}
		return bad ? -1 : 0;
	} catch (const std::exception &ex) {
		fprintf(stderr, "tmpl: %s\n", ex.what());
		return -1;
	}
}

extern "C" int tmpl_exists(const char *name)
{
	try {
		return loaded && loaded->count(name) ? 1 : 0;
	} catch (const std::exception &) {
		return 0;
	}
}

extern "C" char *tmpl_expand(struct arena *a, const char *name, struct view_node *root,
			     size_t *len)
{
	try {
		Expansion x(a, root, is_html(name));
		ViewDict dict;
		dict.set(root, NULL, &x);
		const char *full = in_lang(name);
		size_t *hint = last_size(full);
		ArenaEmitter out(a, hint ? *hint + *hint / 8 + 64 : 0);
		x.out = &out;
		ctemplate::TemplateCache *cache = lang_cache(i18n_lang());
		if (!cache || !cache->ExpandWithData(full, strip_of(name), &dict, NULL, &out)) {
			fprintf(stderr, "tmpl: cannot expand %s\n", name);
			return NULL;
		}
		char *p = out.text(len);
		if (p && hint)
			*hint = *len;
		if (!p)
			fprintf(stderr, "tmpl: %s: out of memory\n", name);
		return p;
	} catch (const std::exception &ex) {
		fprintf(stderr, "tmpl: %s: %s\n", name, ex.what());
		return NULL;
	}
}
