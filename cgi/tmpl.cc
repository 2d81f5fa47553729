// tmpl.cc — the only C++ in the program: fills a ctemplate dictionary from a
// view tree and expands a template; see tmpl.h.
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include <new>
#include <set>
#include <string>
#include <vector>

#include <ctemplate/template.h>

#include "tmpl.h"

namespace {

const char pragma[] = "{{%AUTOESCAPE context=\"HTML\"}}";

std::set<std::string> *loaded;   // names that loaded; per process, set once

// 1 when the file starts with the AUTOESCAPE pragma.
bool has_pragma(const std::string &path)
{
	FILE *f = fopen(path.c_str(), "rb");
	if (!f)
		return false;
	char head[sizeof pragma] = "";
	size_t n = fread(head, 1, sizeof pragma - 1, f);
	fclose(f);
	return n == sizeof pragma - 1 && memcmp(head, pragma, n) == 0;
}

// Copies the entries of view dictionary `d` into `dict`.
void fill(ctemplate::TemplateDictionary *dict, const view_node *d, int depth)
{
	if (depth > 32)
		return;
	for (const view_node *n = d->first; n; n = n->next) {
		switch (n->kind) {
		case VIEW_STR:
			dict->SetValue(n->key, ctemplate::TemplateString(n->str, strlen(n->str)));
			break;
		case VIEW_NUM: {
			char tmp[32];
			snprintf(tmp, sizeof tmp, "%lld", n->num);
			dict->SetValue(n->key, tmp);
			break;
		}
		case VIEW_FLAG:
			if (n->num)
				dict->ShowSection(n->key);
			break;
		case VIEW_SECTION:
			fill(dict->AddSectionDictionary(n->key), n, depth + 1);
			break;
		case VIEW_INCLUDE: {
			ctemplate::TemplateDictionary *inc = dict->AddIncludeDictionary(n->key);
			inc->SetFilename(n->str);
			fill(inc, n, depth + 1);
			break;
		}
		case VIEW_LIST:
		case VIEW_KIND__MAX:
			break;
		}
	}
}

} // namespace

extern "C" int tmpl_load(const char *dir)
{
	try {
		ctemplate::TemplateCache *cache = ctemplate::mutable_default_template_cache();
		cache->SetTemplateRootDirectory(dir);
		DIR *dh = opendir(dir);
		if (!dh) {
			fprintf(stderr, "tmpl: cannot open %s\n", dir);
			return -1;
		}
		std::vector<std::string> names;
		while (struct dirent *e = readdir(dh)) {
			size_t l = strlen(e->d_name);
			if (l > 4 && strcmp(e->d_name + l - 4, ".tpl") == 0)
				names.push_back(e->d_name);
		}
		closedir(dh);
		int bad = 0;
		for (const std::string &name : names) {
			if (!has_pragma(std::string(dir) + "/" + name)) {
				fprintf(stderr, "tmpl: %s does not begin with %s\n", name.c_str(), pragma);
				bad++;
				continue;
			}
			if (!cache->LoadTemplate(name, ctemplate::STRIP_BLANK_LINES)) {
				fprintf(stderr, "tmpl: %s does not parse\n", name.c_str());
				bad++;
				continue;
			}
			if (!loaded)
				loaded = new std::set<std::string>;
			loaded->insert(name);
		}
		if (names.empty()) {
			fprintf(stderr, "tmpl: no templates in %s\n", dir);
			bad++;
		}
		cache->Freeze();
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
		ctemplate::TemplateDictionary dict(name);
		fill(&dict, root, 0);
		std::string out;
		if (!ctemplate::ExpandTemplate(name, ctemplate::STRIP_BLANK_LINES, &dict, &out)) {
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
