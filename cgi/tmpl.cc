// tmpl.cc — the only C++ in the program: fills a ctemplate dictionary from a
// view tree and expands a template; see tmpl.h.
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <new>
#include <set>
#include <string>
#include <vector>

#include <ctemplate/template.h>

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

// How a template is stripped: a text keeps its lines as they are.
ctemplate::Strip strip_of(const std::string &name)
{
	return is_text(name) ? ctemplate::DO_NOT_STRIP : ctemplate::STRIP_BLANK_LINES;
}

std::set<std::string> *loaded;   // names that loaded; per process, set once

// Each loaded template's text as read (German, with its [[markers]]), and
// the parsed templates of each language in a cache of their own, German
// from the load on, any other language from the first request a worker
// answers in it: parsed, a language's templates take about 0.5 MiB of a
// worker's heap, seven times their text, and a worker that never answers
// in a language need not keep them. Per process, never freed.
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

// Keys as ctemplate sees them, once per process. A key that reaches
// ctemplate as a plain string (the view's are arena copies) is hashed, looked
// up in ctemplate's global id table under its lock, and copied again, for
// every value; a StaticTemplateString carries its id and is used as it is.
// The set of keys is that of the views (a few hundred); past KEY_SLOTS / 2
// further keys are passed as plain strings. Never freed: per process.
enum { KEY_SLOTS = 4096 };
struct key_slot {
	const char *name;
	ctemplate::StaticTemplateString *sts;
};
key_slot keys[KEY_SLOTS];
int nkeys;

// `k` as a TemplateString whose global id is already known.
ctemplate::TemplateString key_of(const char *k)
{
	uint64_t h = 14695981039346656037ULL;   // FNV-1a
	size_t len = 0;
	for (; k[len]; len++)
		h = (h ^ (unsigned char)k[len]) * 1099511628211ULL;
	size_t i = (size_t)h & (KEY_SLOTS - 1);
	for (; keys[i].name; i = (i + 1) & (KEY_SLOTS - 1))
		if (strcmp(keys[i].name, k) == 0)
			return ctemplate::TemplateString(*keys[i].sts);
	char *copy = nkeys < KEY_SLOTS / 2 ? strdup(k) : NULL;
	ctemplate::StaticTemplateString *sts =
		copy ? new (std::nothrow) ctemplate::StaticTemplateString{ { copy, len, 0 } } : NULL;
	if (!sts) {
		free(copy);
		return ctemplate::TemplateString(k, len);
	}
	ctemplate::StaticTemplateStringInitializer init(sts);   // computes and registers the id
	keys[i].name = copy;
	keys[i].sts = sts;
	nkeys++;
	return ctemplate::TemplateString(*sts);
}

// The decimal digits of v in the arena, or NULL.
const char *num_text(struct arena *a, long long v, size_t *len)
{
	char tmp[24], *e = tmp + sizeof tmp, *p = e;
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--p = '-';
	*len = (size_t)(e - p);
	return arena_strndup(a, p, *len);
}

// Sets value `n` (a string or a number's text) in dict; a global one for
// every template dict includes, too.
void set(ctemplate::TemplateDictionary *dict, const view_node *n, const char *s, size_t len)
{
	if (n->global)
		dict->SetTemplateGlobalValueWithoutCopy(key_of(n->key), ctemplate::TemplateString(s, len));
	else
		dict->SetValueWithoutCopy(key_of(n->key), ctemplate::TemplateString(s, len));
}

// The string `key` directly inside view dictionary d, or NULL.
const char *str_in(const view_node *d, const char *key)
{
	for (const view_node *n = d->first; n; n = n->next)
		if (n->kind == VIEW_STR && strcmp(n->key, key) == 0)
			return n->str;
	return NULL;
}

// Template `name` as loaded for the request's language: "en/table.tpl".
// The names are kept, so that each is built once per process.
const char *in_lang(const char *name)
{
	static std::set<std::string> *names[LANG__MAX];
	enum lang l = i18n_lang();
	if (!names[l])
		names[l] = new std::set<std::string>;
	std::string full = std::string(lang_code[l]) + "/" + name;
	return names[l]->insert(full).first->c_str();
}

// The one move form: every item of a section that has a `move` is a button
// that posts it, drawn by {{>move_form}} (move-form.tpl) with the item's
// `label` (the move itself without one) and its `primary` flag; the form's
// action, CSRF token and version come from the page as template-global
// values (view_global_str). The JSON twin does not see this dictionary.
void move_form(ctemplate::TemplateDictionary *sec, const view_node *item)
{
	const char *move = str_in(item, "move");
	if (!move)
		return;
	const char *label = str_in(item, "label");
	if (!label)
		label = move;
	ctemplate::TemplateDictionary *inc = sec->AddIncludeDictionary(key_of("move_form"));
	static const char *form_in[LANG__MAX];   // a form per move: looked up once
	enum lang l = i18n_lang();
	if (!form_in[l])
		form_in[l] = in_lang("move-form.tpl");
	inc->SetFilename(form_in[l]);
	inc->SetValueWithoutCopy(key_of("move"), ctemplate::TemplateString(move, strlen(move)));
	inc->SetValueWithoutCopy(key_of("label"), ctemplate::TemplateString(label, strlen(label)));
	for (const view_node *n = item->first; n; n = n->next)
		if (n->kind == VIEW_FLAG && n->num && strcmp(n->key, "primary") == 0)
			inc->ShowSection(key_of("primary"));
}

// Copies the entries of view dictionary `d` into `dict`. Values are not
// copied: they live in the request's arena, which outlives the expansion
// (numbers are written there, too). false when the arena is exhausted.
bool fill(struct arena *a, ctemplate::TemplateDictionary *dict, const view_node *d, int depth)
{
	if (depth > 32)
		return true;
	for (const view_node *n = d->first; n; n = n->next) {
		switch (n->kind) {
		case VIEW_STR:
			set(dict, n, n->str, strlen(n->str));
			break;
		case VIEW_NUM: {
			size_t len;
			const char *t = num_text(a, n->num, &len);
			if (!t)
				return false;
			set(dict, n, t, len);
			break;
		}
		case VIEW_FLAG:
			if (n->num)
				dict->ShowSection(key_of(n->key));
			break;
		case VIEW_SECTION: {
			ctemplate::TemplateDictionary *sec = dict->AddSectionDictionary(key_of(n->key));
			if (!fill(a, sec, n, depth + 1))
				return false;
			move_form(sec, n);
			break;
		}
		case VIEW_INCLUDE: {
			ctemplate::TemplateDictionary *inc = dict->AddIncludeDictionary(key_of(n->key));
			inc->SetFilename(in_lang(n->str));
			if (!fill(a, inc, n, depth + 1))
				return false;
			break;
		}
		case VIEW_LIST:
		case VIEW_KIND__MAX:
			break;
		}
	}
	return true;
}

// {{n:x-minus}}: a number with a real minus sign (U+2212), "−3".
// {{n:x-points}}: a score in words, "−3 Punkte", "1 Punkt", "0 Punkte".
// Every page writes numbers of points through these two, so that a score
// looks the same everywhere; the JSON twin keeps the plain number.
class SignedModifier : public ctemplate::TemplateModifier {
public:
	explicit SignedModifier(bool points) : points_(points) {}
	void Modify(const char *in, size_t inlen, const ctemplate::PerExpandData *,
		    ctemplate::ExpandEmitter *out, const std::string &) const override
	{
		if (inlen > 0 && in[0] == '-') {
			out->Emit("\xe2\x88\x92");
			in++;
			inlen--;
		}
		size_t digits = 0;   // only digits pass: the output is safe in any context
		while (digits < inlen && in[digits] >= '0' && in[digits] <= '9')
			digits++;
		out->Emit(in, digits);
		if (points_) {
			out->Emit("\xc2\xa0");
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

// Template `name` of text `src` in language l into cache, as "de/name".
bool parse_in(ctemplate::TemplateCache *cache, const std::string &name, const std::string &src,
	      int l)
{
	std::string text, key = std::string(lang_code[l]) + "/" + name;
	if (!in_language(src, (enum lang)l, &text)) {
		fprintf(stderr, "tmpl: %s: a [[ without its ]] on the same line\n", name.c_str());
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
int load_dir(const char *dir, const std::vector<std::string> &names)
{
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

extern "C" char *tmpl_expand(struct arena *a, const char *name, const struct view_node *root,
			     size_t *len)
{
	try {
		// The name only labels the dictionary (ctemplate prefixes it to every
		// section's name, copied for each item): keep it short.
		ctemplate::TemplateDictionary dict("");
		if (!fill(a, &dict, root, 0)) {
			fprintf(stderr, "tmpl: %s: out of memory\n", name);
			return NULL;
		}
		std::string out;
		ctemplate::TemplateCache *cache = lang_cache(i18n_lang());
		if (!cache || !cache->ExpandWithData(in_lang(name), strip_of(name), &dict, NULL, &out)) {
			fprintf(stderr, "tmpl: cannot expand %s\n", name);
			return NULL;
		}
		char *p = arena_strndup(a, out.data(), out.size());
		if (p)
			*len = out.size();
		return p;
	} catch (const std::exception &ex) {
		fprintf(stderr, "tmpl: %s: %s\n", name, ex.what());
		return NULL;
	}
}
