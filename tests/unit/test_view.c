/* test_view.c — one view tree, two renderings: JSON through jansson and
 * HTML through ctemplate with templates written to a temporary directory.
 * Escaping, flags, nested sections, includes, @N and *_seat_name. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <jansson.h>

#include "game.h"
#include "json.h"
#include "tmpl.h"
#include "view.h"

static struct arena A;
static char dir[] = "/tmp/st-view-XXXXXX";

static void put(const char *name, const char *text)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	arena_init(&A, 0);
	if (!mkdtemp(dir))
		return -1;
	put("page.tpl", "{{%AUTOESCAPE context=\"HTML\"}}"
			"<h1>{{title}}</h1>{{#on}}ON{{/on}}{{#off}}OFF{{/off}}"
			"<ul>{{#items}}<li>{{name}}={{n}}{{#subs}}[{{x}}]{{/subs}}</li>{{/items}}</ul>"
			"<a href=\"/t/{{id}}\" title=\"{{title}}\">x</a>{{>game}}");
	put("game-test.tpl", "{{%AUTOESCAPE context=\"HTML\"}}"
			     "<p>{{headline}}|{{turn_seat}}:{{turn_seat_name}}|{{table_id}}|{{title}}</p>"
			     "{{#log}}<i>{{text}}</i>{{/log}}");
	put("nopragma.tpl", "<p>{{title}}</p>");
	put("forms.tpl", "{{%AUTOESCAPE context=\"HTML\"}}"
			 "<a href=\"/login?next={{table_url}}\">l</a>"
			 "<ul>{{#moves}}<li>{{>move_form}}</li>{{/moves}}</ul>{{>game}}");
	put("game-forms.tpl", "{{%AUTOESCAPE context=\"HTML\"}}"
			      "{{#hand}}<p>{{name}}{{#moves}}{{>move_form}}{{/moves}}</p>{{/hand}}"
			      "{{#continue_button}}{{>move_form}}{{/continue_button}}");
	put("lookup.tpl", "{{%AUTOESCAPE context=\"HTML\"}}"
			  "[{{a}}]{{#sec}}<{{a}}{{b}}{{#shown}}S{{/shown}}>{{/sec}}{{>inc}}{{>more}}");
	put("inc.tpl", "{{%AUTOESCAPE context=\"HTML\"}}/{{a}}/{{g}}/{{d}}");
	put("more.tpl", "{{%AUTOESCAPE context=\"HTML\"}}"
			"{{#both}}({{c}}){{/both}}{{#late}}[{{c}}]{{/late}}|{{neg}}|{{g}}");
	/* each value twice: as the loader escapes it (x-html, x-url, put in by
	 * tmpl.cc) and through ctemplate's own modifier, named in the template */
	put("esc.tpl", "{{%AUTOESCAPE context=\"HTML\"}}"
		       "{{#vals}}<p title=\"{{v}}\">{{v}}|{{v:h}}|<a href=\"{{v}}\">|"
		       "<a href=\"{{v:U=html}}\">|<a href=\"/t/{{v}}\">|{{v:x-minus}}|"
		       "<b class={{v}}>|<b class={{v:H=attribute}}>|{{v:x-points}}</p>{{/vals}}"
		       "<script>var s = '{{v}}';</script>");
	/* x-html written by hand: refused, it may stand only where the loader
	 * puts it (a URL needs ValidateUrl) */
	put("handmade.tpl", "{{%AUTOESCAPE context=\"HTML\"}}<a href=\"{{u:x-html}}\">u</a>");
	/* the move form where its values would not be HTML text: refused */
	put("formscript.tpl", "{{%AUTOESCAPE context=\"HTML\"}}"
			      "<script>var f = '{{#moves}}{{>move_form}}{{/moves}}';</script>");
	/* a feed and a text: their values are not escaped as HTML's (a feed's
	 * once, as XML), and neither takes in a template */
	put("esc.atom.tpl", "{{%AUTOESCAPE context=\"XML\"}}<t>{{v}}</t>");
	put("esc.txt.tpl", "{{! plain text, not escaped }}[{{v}}]");
	put("inc.txt.tpl", "{{! plain text, not escaped }}[{{>game}}]");
	put("esc2.tpl", "{{%AUTOESCAPE context=\"HTML\"}}{{v}}|{{v:h}}");
	/* the project's own move form */
	FILE *f = fopen("templates/move-form.tpl", "r");
	if (!f)
		return -1;
	char text[2048];
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = '\0';
	put("move-form.tpl", text);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	arena_free(&A);
	const char *names[] = { "page.tpl", "game-test.tpl", "nopragma.tpl", "forms.tpl",
				"game-forms.tpl", "move-form.tpl", "lookup.tpl", "inc.tpl",
				"more.tpl", "esc.tpl", "handmade.tpl", "formscript.tpl",
				"esc.atom.tpl", "esc.txt.tpl", "inc.txt.tpl", "esc2.tpl" };
	char path[256];
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
	return 0;
}

/* A stand-in for a game's view(): emits through the sink like a game does. */
static void fake_game_view(struct view_sink *s)
{
	vstr(s, "headline", "@1 ist am Zug, @0 wartet. @9 bleibt, @x auch.");
	vnum(s, "turn_seat", 1);
	vbegin(s, "log");
	vstr(s, "text", "@0 legt gelb-4 auf Stapel 2.");
	vend(s);
	vbegin(s, "log");
	vnum(s, "seat", 2);
	vend(s);
}

static const char *const names[] = { "<script>alert(1)</script>", "Bärbel & \"Co\"", NULL };

static void build(struct view *v)
{
	view_init(v, &A);
	view_str(v, "title", "<script>alert('x')</script>");
	view_flag(v, "on", 1);
	view_flag(v, "off", 0);
	view_num(v, "id", 42);
	view_begin(v, "items");
	view_str(v, "name", "eins");
	view_num(v, "n", 1);
	view_begin(v, "subs");
	view_str(v, "x", "a");
	view_end(v);
	view_begin(v, "subs");
	view_str(v, "x", "b");
	view_end(v);
	view_end(v);
	view_begin(v, "items");
	view_str(v, "name", "zwei");
	view_num(v, "n", -2);
	view_end(v);
	view_list(v, "empty");
	view_include(v, "game", "game-test.tpl");
	view_num(v, "table_id", 42);
	view_names(v, names, 3);
	struct view_sink sink;
	view_sink_init(v, &sink);
	fake_game_view(&sink);
	view_names(v, NULL, 0);
	view_end(v);
}

static void test_json(void **state)
{
	(void)state;
	struct view v;
	build(&v);
	assert_false(v.failed);
	size_t len = 0;
	char *text = json_render(&A, &v.root, &len);
	assert_non_null(text);
	assert_int_equal(strlen(text), len);
	/* no raw angle brackets in the bytes, yet the values round-trip */
	assert_null(strchr(text, '<'));
	assert_null(strchr(text, '>'));
	json_error_t err;
	json_t *o = json_loads(text, 0, &err);
	assert_non_null(o);
	assert_string_equal(json_string_value(json_object_get(o, "title")),
			    "<script>alert('x')</script>");
	assert_true(json_is_true(json_object_get(o, "on")));
	assert_true(json_is_false(json_object_get(o, "off")));
	assert_int_equal(json_integer_value(json_object_get(o, "id")), 42);
	json_t *items = json_object_get(o, "items");
	assert_int_equal(json_array_size(items), 2);
	json_t *first = json_array_get(items, 0);
	assert_string_equal(json_string_value(json_object_get(first, "name")), "eins");
	assert_int_equal(json_array_size(json_object_get(first, "subs")), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(first, "subs"), 1), "x")), "b");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(items, 1), "n")), -2);
	assert_true(json_is_array(json_object_get(o, "empty")));
	assert_int_equal(json_array_size(json_object_get(o, "empty")), 0);

	json_t *g = json_object_get(o, "game");
	assert_true(json_is_object(g));
	assert_string_equal(json_string_value(json_object_get(g, "headline")),
			    "Bärbel & \"Co\" ist am Zug, <script>alert(1)</script> wartet. @9 bleibt, @x auch.");
	assert_int_equal(json_integer_value(json_object_get(g, "turn_seat")), 1);
	assert_string_equal(json_string_value(json_object_get(g, "turn_seat_name")), "Bärbel & \"Co\"");
	json_t *log = json_object_get(g, "log");
	assert_string_equal(json_string_value(json_object_get(json_array_get(log, 0), "text")),
			    "<script>alert(1)</script> legt gelb-4 auf Stapel 2.");
	/* an empty seat has an empty name, not a missing key */
	assert_string_equal(json_string_value(json_object_get(json_array_get(log, 1), "seat_name")), "");
	json_decref(o);
}

static void test_html(void **state)
{
	(void)state;
	assert_int_equal(tmpl_load(dir), -1);  /* nopragma.tpl is refused */
	assert_true(tmpl_exists("page.tpl"));
	assert_true(tmpl_exists("game-test.tpl"));
	assert_false(tmpl_exists("nopragma.tpl"));
	struct view v;
	build(&v);
	size_t len = 0;
	char *html = tmpl_expand(&A, "page.tpl", &v.root, &len);
	assert_non_null(html);
	assert_int_equal(strlen(html), len);
	assert_null(strstr(html, "<script>"));
	assert_non_null(strstr(html, "<h1>&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;</h1>"));
	assert_non_null(strstr(html, "ON"));
	assert_null(strstr(html, "OFF"));
	assert_non_null(strstr(html, "<ul><li>eins=1[a][b]</li><li>zwei=-2</li></ul>"));
	assert_non_null(strstr(html, "<a href=\"/t/42\""));
	/* the include has its own dictionary: the page's title does not leak in */
	assert_non_null(strstr(html, "<p>Bärbel &amp; &quot;Co&quot; ist am Zug, "
				     "&lt;script&gt;alert(1)&lt;/script&gt; wartet. @9 bleibt, @x auch."
				     "|1:Bärbel &amp; &quot;Co&quot;|42|</p>"));
	assert_non_null(strstr(html, "title=\"&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;\""));
	assert_non_null(strstr(html, "<i>&lt;script&gt;alert(1)&lt;/script&gt; legt gelb-4 auf Stapel 2.</i>"));
	assert_null(tmpl_expand(&A, "nopragma.tpl", &v.root, &len));
	assert_null(tmpl_expand(&A, "missing.tpl", &v.root, &len));
}

/* n values no template asks for: enough of them make tmpl.cc index a
 * dictionary's names instead of scanning its entries. */
static void filler(struct view *v, int n)
{
	for (int i = 0; i < n; i++) {
		char key[16];
		snprintf(key, sizeof key, "f%d", i);
		view_num(v, key, i);
	}
}

/* The lookups of ctemplate's own dictionary, the same whether a dictionary
 * is scanned (up to 32 entries: SCAN in tmpl.cc) or indexed: the last value
 * of a name counts; an item sees the values and shown sections of the
 * dictionaries around it, an include only its own and the template-global
 * ones; a flag that is on shows its section once, before the items that
 * follow it, and adds nothing after one; a negative number keeps its sign. */
static void lookups(int pad, int html_only)
{
	struct view v;
	view_init(&v, &A);
	v.html_only = html_only;
	filler(&v, pad);
	view_str(&v, "a", "1");
	view_str(&v, "a", "2");
	view_flag(&v, "shown", 1);
	view_global_str(&v, "g", "G");
	view_begin(&v, "sec");
	view_str(&v, "b", "x");
	view_end(&v);
	view_begin(&v, "sec");
	filler(&v, pad);
	view_str(&v, "a", "3");
	view_str(&v, "b", "y");
	view_flag(&v, "shown", 0);
	view_end(&v);
	view_include(&v, "inc", "inc.tpl");
	view_str(&v, "d", "D");
	view_end(&v);
	view_include(&v, "more", "more.tpl");
	filler(&v, pad);
	view_flag(&v, "both", 1);
	view_begin(&v, "both");
	view_str(&v, "c", "c1");
	view_end(&v);
	view_flag(&v, "both", 1);
	view_begin(&v, "late");
	view_str(&v, "c", "l1");
	view_end(&v);
	view_flag(&v, "late", 1);
	view_num(&v, "neg", -7);
	view_end(&v);
	assert_false(v.failed);
	size_t len = 0;
	char *html = tmpl_expand(&A, "lookup.tpl", &v.root, &len);
	assert_non_null(html);
	assert_string_equal(html, "[2]<2xS><3yS>//G/D()(c1)[l1]|-7|G");
	/* a value added after an expansion counts in the next one */
	view_str(&v, "a", "4");
	html = tmpl_expand(&A, "lookup.tpl", &v.root, &len);
	assert_non_null(html);
	assert_string_equal(html, "[4]<4xS><3yS>//G/D()(c1)[l1]|-7|G");
}

static void test_lookups_scanned_and_indexed(void **state)
{
	(void)state;
	assert_int_equal(tmpl_load(dir), -1);  /* (nopragma.tpl) */
	for (int html_only = 0; html_only < 2; html_only++) {
		lookups(0, html_only);
		lookups(20, html_only);   /* scanned, most bits of the names set */
		lookups(40, html_only);   /* indexed */
	}
}

/* A tree that is only expanded (html_only, the table page's) leaves out
 * the flags that are off: a template sees no difference, the item's
 * "shown" that is off still shows its section from the dictionary around
 * (lookups() expands both trees alike); the flags that are on stay. */
static void test_html_only_leaves_off_flags_out(void **state)
{
	(void)state;
	struct view v[2];
	for (int h = 0; h < 2; h++) {
		view_init(&v[h], &A);
		v[h].html_only = h;
		view_flag(&v[h], "on", 1);
		view_flag(&v[h], "off", 0);
		view_begin(&v[h], "sec");
		view_flag(&v[h], "shown", 0);
		view_end(&v[h]);
		assert_false(v[h].failed);
	}
	assert_int_equal(v[0].root.count, 3);
	assert_int_equal(v[1].root.count, 2);
	assert_string_equal(v[1].root.first->key, "on");
	assert_int_equal(v[1].root.first->num, 1);
	assert_string_equal(v[1].root.first->next->key, "sec");
	assert_int_equal(v[1].root.first->next->count, 0);
	/* a JSON tree keeps them: "off": false */
	size_t len = 0;
	char *text = json_render(&A, &v[0].root, &len);
	assert_non_null(text);
	assert_non_null(strstr(text, "\"off\":false"));
}

/* A seat's name after its number: plain names (printable ASCII without
 * " & < > \\) copied into the JSON twin as they are, the others escaped,
 * both as json_render writes them from the tree, under every seat key
 * (those with a literal "_name" key and others). */
static void test_seat_names_in_json(void **state)
{
	(void)state;
	static const char *const seat_names[] = { "bench-0", "B\"o>", NULL, "x\\y", "Ärger" };
	static const char *const keys[] = { "seat", "claimer_seat", "holder_seat", "my_seat",
					    "other_seat", "seats" };
	struct view t, s;
	view_init(&t, &A);
	view_init(&s, &A);
	view_json(&s);
	for (int r = 0; r < 2; r++) {
		struct view *v = r ? &s : &t;
		view_names(v, seat_names, 5);
		for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
			for (int i = -1; i < 7; i++) {
				view_begin(v, "row");
				view_num(v, keys[k], i);
				view_end(v);
			}
		view_names(v, NULL, 0);
		assert_false(v->failed);
	}
	assert_int_equal(t.name_plain, 0);   /* view_names(NULL) */
	size_t tl = 0, sl = 0;
	char *want = json_render(&A, &t.root, &tl), *got = json_stream_finish(s.js, &sl);
	assert_non_null(want);
	assert_non_null(got);
	assert_string_equal(got, want);
	assert_non_null(strstr(got, "\"claimer_seat\":0,\"claimer_seat_name\":\"bench-0\""));
	assert_non_null(strstr(got, "\"seat\":1,\"seat_name\":\"B\\\"o\\u003e\""));
}

/* A constant group (vgroup): its entries, by index; index 9 has a seat's
 * number, which the JSON writer does not keep as text (its name is put
 * in). emits counts the calls. */
static int emits;

static void group_emit(struct view_sink *v, int index)
{
	static const char *const shape[2] = { "oval \"<&>\"", "Raute" };
	emits++;
	if (index == 9) {
		vnum(v, "seat", 1);
		return;
	}
	vstr(v, "code", index ? "B1" : "A0");
	vtext(v, "label", index ? "zwei Rauten" : "ein Oval");
	vnum(v, "num", index + 1);
	vflag(v, "odd", index & 1);
	vflag(v, "even", !(index & 1));
	for (int i = 0; i <= index; i++) {
		vbegin(v, "sym");
		vnum(v, "sy", 10 * i);
		vstr(v, "shape", shape[index]);
		vend(v);
	}
}

static const struct view_group test_group = { group_emit, 2 };   /* 9 on demand */

/* The entries around the groups: in items, after an open array, after a
 * key of the group's (its later value in the first's place), before more
 * of the group's section, and with a seat's number. */
static void groups_view(struct view_sink *v)
{
	vstr(v, "title", "Gruppen");
	for (int i = 0; i < 6; i++) {
		vbegin(v, "cards");
		vnum(v, "n", i);
		vgroup(v, &test_group, i % 2);
		vnum(v, "after", i);
		vend(v);
	}
	vbegin(v, "hand");
	vbegin(v, "x");
	vend(v);
	vgroup(v, &test_group, 1);   /* the array of x closed first */
	vend(v);
	vbegin(v, "hand");
	vstr(v, "label", "vorher");
	vgroup(v, &test_group, 0);   /* a key it has: the entries */
	vend(v);
	vbegin(v, "hand");
	vgroup(v, &test_group, 1);
	vbegin(v, "sym");            /* one more item of the group's section */
	vnum(v, "sy", 99);
	vend(v);
	vend(v);
	vbegin(v, "hand");
	vgroup(v, &test_group, 9);
	vend(v);
}

/* A group's JSON is its entries' JSON, at its first use (the memo made)
 * and later (copied from the memo); the tree gets the entries. */
static void test_constant_group(void **state)
{
	(void)state;
	static const char *const seat_names[] = { "Anna", "B\"o" };
	struct view t, e, g;
	struct view_sink st, se, sg;
	view_init(&t, &A);
	view_init(&e, &A);
	view_init(&g, &A);
	view_json(&e);
	view_json(&g);
	view_names(&t, seat_names, 2);
	view_names(&e, seat_names, 2);
	view_names(&g, seat_names, 2);
	view_sink_init(&t, &st);
	view_sink_init(&e, &se);
	view_sink_init(&g, &sg);
	assert_null(st.group);
	assert_non_null(sg.group);
	se.group = NULL;   /* the entries one by one */
	groups_view(&st);
	groups_view(&se);
	emits = 0;
	groups_view(&sg);
	/* the memos of 0, 1 and 9 made (9's: none), 9's and the one after
	 * "label" as entries: 5 emits of 11 groups */
	assert_int_equal(emits, 5);
	emits = 0;
	struct view g2;
	struct view_sink sg2;
	view_init(&g2, &A);
	view_json(&g2);
	view_names(&g2, seat_names, 2);
	view_sink_init(&g2, &sg2);
	groups_view(&sg2);   /* every memo made before: 9's and "label"'s only */
	assert_int_equal(emits, 2);
	view_names(&t, NULL, 0);
	view_names(&e, NULL, 0);
	view_names(&g, NULL, 0);
	view_names(&g2, NULL, 0);
	assert_false(t.failed || e.failed || g.failed || g2.failed);
	size_t tl = 0, el = 0, gl = 0, g2l = 0;
	char *tree = json_render(&A, &t.root, &tl), *want = json_stream_finish(e.js, &el),
	     *got = json_stream_finish(g.js, &gl), *again = json_stream_finish(g2.js, &g2l);
	assert_non_null(tree);
	assert_non_null(want);
	assert_non_null(got);
	assert_non_null(again);
	assert_string_equal(want, tree);
	assert_string_equal(got, want);
	assert_string_equal(again, want);
	assert_non_null(strstr(got, "\"seat\":1,\"seat_name\":\"B\\\"o\""));
	assert_non_null(strstr(got, "\"sy\":10,\"shape\":\"Raute\"},{\"sy\":99}]"));
}

/* What view_memo's test writes for a key: a list, a flag and items whose
 * texts come from arg (its second call sees the same arg: the same key). */
static int memo_emits;
static void memo_emit(struct view *v, const void *arg)
{
	const char *word = arg;
	memo_emits++;
	view_list(v, "opts");
	view_flag(v, "has_opts", 1);
	for (int i = 0; i < 3; i++) {
		view_begin(v, "opts");
		view_str(v, "label", word);
		view_num(v, "n", i);
		view_end(v);
	}
}

/* One view's entries: a title, the memo's entries for `word` (or the
 * entries themselves), inside an item too, and once where a key is taken. */
static void memo_view(struct view *v, const char *word, int memo)
{
	view_str(v, "title", "Optionen");
	if (!memo || !view_memo(v, word, memo_emit, word))
		memo_emit(v, word);
	view_begin(v, "tables");
	if (!memo || !view_memo(v, word, memo_emit, word))
		memo_emit(v, word);
	view_end(v);
	view_begin(v, "tables");
	view_flag(v, "has_opts", 0);   /* a key the memo has: its entries */
	if (!memo || !view_memo(v, word, memo_emit, word))
		memo_emit(v, word);
	view_end(v);
}

/* view_memo: a JSON view's text is that of the entries one by one, at a
 * key's first use and from the memo after it, for each key apart; a tree
 * gets the entries. */
static void test_view_memo(void **state)
{
	(void)state;
	static const char *const words[] = { "Kurz", "Lang \"mit\" <Zeichen>", "Kurz " };
	for (int w = 0; w < 3; w++) {
		struct view e, t, m1, m2;
		view_init(&e, &A);
		view_init(&t, &A);
		view_init(&m1, &A);
		view_init(&m2, &A);
		view_json(&e);
		view_json(&m1);
		view_json(&m2);
		memo_view(&e, words[w], 0);
		memo_view(&t, words[w], 1);
		memo_emits = 0;
		memo_view(&m1, words[w], 1);
		assert_true(memo_emits >= 1);   /* made once, the taken key's entries */
		memo_emits = 0;
		memo_view(&m2, words[w], 1);
		assert_int_equal(memo_emits, 1);   /* only where the key was taken */
		assert_false(e.failed || t.failed || m1.failed || m2.failed);
		size_t el = 0, tl = 0, l1 = 0, l2 = 0;
		char *want = json_stream_finish(e.js, &el), *tree = json_render(&A, &t.root, &tl),
		     *got1 = json_stream_finish(m1.js, &l1), *got2 = json_stream_finish(m2.js, &l2);
		assert_non_null(want);
		assert_non_null(tree);
		assert_string_equal(tree, want);
		assert_string_equal(got1, want);
		assert_string_equal(got2, want);
	}
	/* a tree never asks the memo */
	struct view t;
	view_init(&t, &A);
	assert_int_equal(view_memo(&t, "Kurz", memo_emit, "Kurz"), 0);
}

/* A group's first use makes the memos of all its indices: whether a face's
 * memo exists tells nothing of which faces earlier viewers were shown. */
static void test_group_made_whole(void **state)
{
	(void)state;
	static const struct view_group whole = { group_emit, 2 };
	struct view a, b;
	struct view_sink sa, sb;
	view_init(&a, &A);
	view_init(&b, &A);
	view_json(&a);
	view_json(&b);
	view_sink_init(&a, &sa);
	view_sink_init(&b, &sb);
	emits = 0;
	vbegin(&sa, "x");
	vgroup(&sa, &whole, 0);
	vend(&sa);
	assert_int_equal(emits, 2);   /* 0's and 1's */
	emits = 0;
	vbegin(&sb, "x");
	vgroup(&sb, &whole, 1);
	vend(&sb);
	assert_int_equal(emits, 0);   /* 1's made with 0's */
	size_t al = 0, bl = 0;
	assert_non_null(json_stream_finish(a.js, &al));
	assert_non_null(json_stream_finish(b.js, &bl));
}

/* The one move form: every item with a `move` becomes a form posting it to
 * the page's move_url with the page's csrf and v (template-global values,
 * seen inside includes), labelled by `label` or the move itself; the JSON
 * twin has the values once and no trace of the form. */
static void test_move_form(void **state)
{
	(void)state;
	assert_int_equal(tmpl_load(dir), -1);  /* (nopragma.tpl) */
	struct view v;
	view_init(&v, &A);
	view_global_str(&v, "csrf", "tok\"en");
	view_global_num(&v, "v", 17);
	view_global_str(&v, "move_url", "/t/5/move");
	view_str(&v, "table_url", "/t/5");
	view_begin(&v, "moves");
	view_str(&v, "move", "play gelb-4 1");
	view_end(&v);
	view_include(&v, "game", "game-forms.tpl");
	view_str(&v, "csrf", "");   /* the game's own value does not reach the form */
	view_begin(&v, "hand");
	view_str(&v, "name", "gelb 4");
	view_begin(&v, "moves");
	view_str(&v, "move", "play gelb-4 1");
	view_str(&v, "label", "<auf> Stapel 1");
	view_end(&v);
	view_end(&v);
	view_begin(&v, "continue_button");
	view_str(&v, "move", "weiter");
	view_str(&v, "label", "Weiter zu Partie 2");
	view_flag(&v, "primary", 1);
	view_end(&v);
	view_end(&v);
	assert_false(v.failed);

	size_t len = 0;
	char *html = tmpl_expand(&A, "forms.tpl", &v.root, &len);
	assert_non_null(html);
	assert_non_null(strstr(html, "<a href=\"/login?next=/t/5\">"));
	const char *form = "<form method=\"post\" action=\"/t/5/move\" class=\"mv\">\n"
			   "<input type=\"hidden\" name=\"csrf\" value=\"tok&quot;en\">\n"
			   "<input type=\"hidden\" name=\"v\" value=\"17\">\n";
	int forms = 0;
	for (const char *at = html; (at = strstr(at, form)); at++)
		forms++;
	assert_int_equal(forms, 3);
	assert_non_null(strstr(html, "<li><form method=\"post\""));
	assert_non_null(strstr(html, "value=\"play gelb-4 1\">play gelb-4 1</button>"));
	assert_non_null(strstr(html, "<p>gelb 4<form"));
	assert_non_null(strstr(html, "value=\"play gelb-4 1\">&lt;auf&gt; Stapel 1</button>"));
	assert_non_null(strstr(html, "value=\"weiter\" class=\"primary\">Weiter zu Partie 2</button>"));
	assert_null(strstr(html, "class=\"primary\">play"));

	size_t tlen = 0;
	char *text = json_render(&A, &v.root, &tlen);
	assert_non_null(text);
	assert_null(strstr(text, "move_form"));
	json_error_t err;
	json_t *o = json_loads(text, 0, &err);
	assert_non_null(o);
	assert_string_equal(json_string_value(json_object_get(o, "csrf")), "tok\"en");
	assert_int_equal(json_integer_value(json_object_get(o, "v")), 17);
	json_decref(o);
}

/* A key or text of the program's read-only image is kept where it lies; any
 * other (the stack, writable data, the heap) is copied, and the tree reads
 * the same after the caller's buffer changed; a string keeps its length. */
static void test_literals_kept_others_copied(void **state)
{
	(void)state;
	static const char lit_key[] = "lit", lit_text[] = "Text";
	static char data_key[] = "data";
	char stack_key[8] = "stack", stack_text[8] = "Wert";
	char *heap_text = strdup("Heap");
	assert_non_null(heap_text);
	struct view v;
	view_init(&v, &A);
	view_str(&v, lit_key, lit_text);
	view_str(&v, data_key, heap_text);
	view_str(&v, stack_key, stack_text);
	assert_false(v.failed);
	memset(stack_key, 'x', sizeof stack_key - 1);
	memset(stack_text, 'y', sizeof stack_text - 1);
	data_key[0] = 'D';
	heap_text[0] = 'h';
	free(heap_text);
	const struct view_node *n = v.root.first;
	assert_ptr_equal(n->key, lit_key);
	assert_ptr_equal(n->str, lit_text);
	assert_int_equal(n->num, 4);
	n = n->next;
	assert_string_equal(n->key, "data");
	assert_string_equal(n->str, "Heap");
	n = n->next;
	assert_string_equal(n->key, "stack");
	assert_string_equal(n->str, "Wert");
	assert_int_equal(n->num, 4);
	assert_int_equal(n->klen, 5);
}

/* A literal key's length and hash and a literal text's length and '@' are
 * kept per address (view.c's memos): many literals at once (more than the
 * memos' slots, so that they push each other out), each set again and again,
 * names put in or not as the tree's names say, read the same as measured
 * anew; the entry before each is its prev. */
static void test_literal_memos(void **state)
{
	(void)state;
	enum { N = 600 };
	static const char keys[N][8] = { [0] = "k0", [1] = "k1", [299] = "k299", [599] = "k599" };
	static const char texts[3][16] = { "rot", "@0 zieht", "x@1" };
	static const char *const seat_names[] = { "Ada", "Bo" };
	struct view v;
	view_init(&v, &A);
	for (int round = 0; round < 3; round++)
		for (int i = 0; i < N; i++) {
			view_names(&v, seat_names, round == 1 ? 0 : 2);
			view_str(&v, keys[i], texts[i % 3]);
		}
	assert_false(v.failed);
	const struct view_node *n = v.root.first, *before = NULL;
	for (int round = 0; round < 3; round++)
		for (int i = 0; i < N; i++, before = n, n = n->next) {
			static const char *const named[3] = { "rot", "Ada zieht", "xBo" };
			const char *want = round == 1 ? texts[i % 3] : named[i % 3];
			assert_non_null(n);
			assert_ptr_equal(n->prev, before);
			assert_ptr_equal(n->key, keys[i]);
			assert_int_equal(n->klen, strlen(keys[i]));
			assert_int_equal(n->khash, view_key_hash(keys[i], strlen(keys[i])));
			assert_string_equal(n->str, want);
			assert_int_equal(n->num, (long long)strlen(want));
		}
	assert_null(n);
}

/* A number under "seat" or "*_seat" gets "<key>_name" with the seat's
 * name, for more seat keys than the kept "_name" keys' slots (some share a
 * slot: their "_name" is made in the arena), and what a tree names stays
 * as it was while later trees are filled. */
static void test_seat_name_keys(void **state)
{
	(void)state;
	static const char keys[40][16] = {
		"seat", "a_seat", "b_seat", "c_seat", "d_seat", "e_seat", "f_seat", "g_seat",
		"h_seat", "i_seat", "j_seat", "k_seat", "l_seat", "m_seat", "n_seat", "o_seat",
		"p_seat", "q_seat", "r_seat", "s_seat", "t_seat", "u_seat", "v_seat", "w_seat",
		"x_seat", "y_seat", "z_seat", "aa_seat", "ab_seat", "ac_seat", "ad_seat",
		"ae_seat", "af_seat", "ag_seat", "ah_seat", "ai_seat", "aj_seat", "ak_seat",
		"al_seat", "holder_seat",
	};
	static const char *const seat_names[] = { "Ada", "Bo", NULL };
	struct view t[2];
	for (int r = 0; r < 2; r++) {
		view_init(&t[r], &A);
		view_names(&t[r], seat_names, 3);
		for (int i = 0; i < 40; i++)
			view_num(&t[r], keys[i], (i + r) % 4);
		assert_false(t[r].failed);
	}
	for (int r = 0; r < 2; r++) {
		const struct view_node *n = t[r].root.first;
		for (int i = 0; i < 40; i++, n = n->next->next) {
			static const char *const want[4] = { "Ada", "Bo", "", "" };
			char name[sizeof keys[0] + sizeof "_name"];
			size_t kl = strlen(keys[i]);
			memcpy(name, keys[i], kl);
			memcpy(name + kl, "_name", sizeof "_name");
			assert_ptr_equal(n->key, keys[i]);
			assert_int_equal(n->num, (i + r) % 4);
			const struct view_node *s = n->next;
			assert_int_equal(s->kind, VIEW_STR);
			assert_string_equal(s->key, name);
			assert_int_equal(s->klen, strlen(name));
			assert_int_equal(s->khash, view_key_hash(name, strlen(name)));
			assert_string_equal(s->str, want[(i + r) % 4]);
		}
		assert_null(n);
	}
}

/* "@N" replaced by seat N's name where N < nnames (a seat without a name:
 * nothing), everything else as it stands: '@' at the end, twice, before a
 * non-digit or a seat beyond the table, names side by side. */
static void test_substitution_edges(void **state)
{
	(void)state;
	static const char *const seat_names[] = { "Ada", NULL, "Bärbel" };
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "@0", "Ada" },
		{ "@0@2", "AdaBärbel" },
		{ "x@@0y", "x@Aday" },
		{ "@1|@3|@x|@", "|@3|@x|@" },
		{ "am Zug: @2, dann @0.", "am Zug: Bärbel, dann Ada." },
		{ "kein Name", "kein Name" },
		{ "@", "@" },
	};
	struct view v;
	view_init(&v, &A);
	view_names(&v, seat_names, 3);   /* (the names' lengths: view_names') */
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		view_str(&v, "t", cases[i].in);
	assert_false(v.failed);
	const struct view_node *n = v.root.first;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++, n = n->next) {
		assert_non_null(n);
		assert_string_equal(n->str, cases[i].out);
		assert_int_equal(n->num, (long long)strlen(cases[i].out));
	}
}

/* The part of esc.tpl between the n-th '|' and the next one of item html. */
static const char *field(const char *html, int n, char *out, size_t size)
{
	const char *p = html;
	for (; n > 0 && p; n--)
		if ((p = strchr(p, '|')))
			p++;
	assert_non_null(p);
	const char *e = strchr(p, '|');
	size_t len = e ? (size_t)(e - p) : strlen(p);
	assert_true(len < size);
	memcpy(out, p, len);
	out[len] = '\0';
	return out;
}

/* The escaping tmpl.cc does in ctemplate's stead (x-html where auto-escape
 * would use html_escape, x-url where it would use ValidateUrl with
 * html_escape, x-minus's digits as they are) writes what ctemplate's own
 * does, byte for byte, for values with every byte and for those it passes
 * through untouched; the other contexts keep ctemplate's modifiers. */
static void test_escaping_as_ctemplate(void **state)
{
	(void)state;
	assert_int_equal(tmpl_load(dir), -1);  /* (nopragma, handmade, formscript) */
	assert_true(tmpl_exists("esc.tpl"));
	assert_false(tmpl_exists("handmade.tpl"));
	assert_false(tmpl_exists("formscript.tpl"));
	assert_true(tmpl_exists("game-forms.tpl"));   /* its forms in place */
	char every[256], *e = every;   /* every byte but NUL and '|' (esc.tpl's) */
	for (int i = 1; i < 256; i++)
		if (i != '|')
			*e++ = (char)i;
	*e = '\0';
	const char *vals[] = { every, "", "plain text", "/t/1/move", "/a&b\"c", "//elsewhere",
			       "javascript:alert(1)", "JavaScript:x", "http://example.org/?a=1&b=2",
			       "data:text/html,<b>", "12", "-12", "007", "1 2", "\t\r\n\v\f",
			       "it's <b>\"bold\"</b> & more", "Bärbel", "/", "0" };
	struct view v;
	view_init(&v, &A);
	for (size_t i = 0; i < sizeof vals / sizeof *vals; i++) {
		view_begin(&v, "vals");
		view_str(&v, "v", vals[i]);
		view_end(&v);
	}
	view_str(&v, "v", "'</script>");
	size_t len = 0;
	char *html = tmpl_expand(&A, "esc.tpl", &v.root, &len);
	assert_non_null(html);
	assert_null(strstr(html, "href=\"javascript"));
	assert_null(strstr(html, "href=\"JavaScript"));
	assert_null(strstr(html, "href=\"data"));
	assert_null(strstr(html, "'</script>"));
	assert_non_null(strstr(html, "var s = '\\x27\\x3c/script\\x3e';"));
	char a[4096], b[4096], t[4096];
	const char *item = html;
	for (size_t i = 0; i < sizeof vals / sizeof *vals; i++) {
		item = strstr(item, "<p title=\"");
		assert_non_null(item);
		item += strlen("<p title=\"");
		/* the attribute, the text and ctemplate's html_escape agree */
		const char *q = strchr(item, '"');
		assert_non_null(q);
		snprintf(t, sizeof t, "%.*s", (int)(q - item), item);
		field(item, 1, b, sizeof b);
		assert_string_equal(t, b);
		assert_string_equal(strchr(field(item, 0, a, sizeof a), '>') + 1, b);
		/* the URL at the start of href, and ctemplate's ValidateUrl */
		assert_string_equal(field(item, 2, a, sizeof a), field(item, 3, b, sizeof b));
		/* an unquoted attribute keeps ctemplate's own escaping */
		assert_string_equal(field(item, 6, a, sizeof a), field(item, 7, b, sizeof b));
	}
	/* a path and a number pass as they are; a bad URL is replaced */
	assert_non_null(strstr(html, "<a href=\"/t/1/move\">|<a href=\"/t/1/move\">"));
	assert_non_null(strstr(html, "<a href=\"#\">|<a href=\"#\">|<a href=\"/t/javascript:alert(1)\">"));
	assert_non_null(strstr(html, "|12|<b class=12>"));
	assert_non_null(strstr(html, "|\xe2\x88\x92" "12|<b class=-12>"));
	assert_non_null(strstr(html, "|007|<b class=007>"));
	assert_non_null(strstr(html, "|1|<b class=1_2>"));
	assert_non_null(strstr(html, "|0\xc2\xa0Punkte</p>"));
}

/* A number's text (tmpl.cc writes its digits itself, two at a time):
 * every magnitude, both signs and the ends of long long, bare and through
 * x-minus, as printf writes them. */
static void test_numbers_every_magnitude(void **state)
{
	(void)state;
	put("nums.tpl", "{{%AUTOESCAPE context=\"HTML\"}}{{#nums}}[{{n}}|{{n:x-minus}}]{{/nums}}");
	assert_int_equal(tmpl_load(dir), -1);   /* (the refused ones of setup) */
	long long vals[3 * 19 * 2 + 2];
	size_t nv = 0;
	long long p = 1;   /* 10^0 to 10^18, each and its neighbours */
	for (int i = 0; i < 19; i++) {
		for (long long d = -1; d <= 1; d++) {
			vals[nv++] = p + d;
			vals[nv++] = -(p + d);
		}
		if (i < 18)
			p *= 10;
	}
	vals[nv++] = LLONG_MAX;
	vals[nv++] = LLONG_MIN;
	struct view v;
	view_init(&v, &A);
	for (size_t i = 0; i < nv; i++) {
		view_begin(&v, "nums");
		view_num(&v, "n", vals[i]);
		view_end(&v);
	}
	size_t len = 0;
	char *html = tmpl_expand(&A, "nums.tpl", &v.root, &len);
	assert_non_null(html);
	char want[64 * (3 * 19 * 2 + 2)] = "", *w = want;
	for (size_t i = 0; i < nv; i++) {
		char digits[32];
		snprintf(digits, sizeof digits, "%lld", vals[i]);
		const char *minus = vals[i] < 0 ? "\xe2\x88\x92" : "";
		w += snprintf(w, sizeof want - (size_t)(w - want), "[%s|%s%s]", digits, minus,
			      digits + (vals[i] < 0));
	}
	assert_string_equal(html, want);
}

/* The HTML templates are parsed without auto-escape, their bare values
 * escaped by tmpl.cc: a feed keeps ctemplate's XML escaping (once), a
 * text writes its values as they are, and neither may include a template
 * (its values would not be escaped where it is taken in). */
static void test_escaping_by_kind(void **state)
{
	(void)state;
	assert_int_equal(tmpl_load(dir), -1);  /* (nopragma, handmade, formscript, inc.txt) */
	assert_true(tmpl_exists("esc.atom.tpl"));
	assert_true(tmpl_exists("esc.txt.tpl"));
	assert_false(tmpl_exists("inc.txt.tpl"));
	struct view v;
	view_init(&v, &A);
	view_str(&v, "v", "a<b & \"c\"");
	size_t len = 0;
	char *out = tmpl_expand(&A, "esc.atom.tpl", &v.root, &len);
	assert_non_null(out);
	assert_string_equal(out, "<t>a&lt;b &amp; &quot;c&quot;</t>");
	out = tmpl_expand(&A, "esc.txt.tpl", &v.root, &len);
	assert_non_null(out);
	assert_string_equal(out, "[a<b & \"c\"]");
}

/* Whether a value has anything to escape is told 16, 8 or 4 bytes at a
 * time: every length up to 40 with one byte that html_escape replaces (or
 * a neighbour of one that it does not) at every place is escaped as
 * ctemplate's html_escape does. */
static void test_escaping_every_place(void **state)
{
	(void)state;
	assert_int_equal(tmpl_load(dir), -1);  /* (nopragma, handmade, formscript, inc.txt) */
	const char odd[] = "&\"'<>\t\n\v\f\r\x01\x08\x0e=?%(!#\x7f\x80\xff";
	struct arena a;
	arena_init(&a, 0);
	char val[48];
	for (size_t len = 1; len <= 40; len++)
		for (size_t at = 0; at < len; at++)
			for (const char *c = odd; *c; c++) {
				memset(val, 'a', len);
				val[len] = '\0';
				val[at] = *c;
				struct view v;
				view_init(&v, &a);
				view_str(&v, "v", val);
				size_t n = 0;
				char *out = tmpl_expand(&a, "esc2.tpl", &v.root, &n);
				assert_non_null(out);
				/* ours|ctemplate's */
				const char *bar = strchr(out, '|');
				assert_non_null(bar);
				size_t ours = (size_t)(bar - out);
				assert_int_equal(n, 2 * ours + 1);
				assert_memory_equal(out, bar + 1, ours);
				arena_reset(&a);
			}
	arena_free(&a);
}

static void test_unbalanced(void **state)
{
	(void)state;
	struct view v;
	view_init(&v, &A);
	view_end(&v);
	assert_true(v.failed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_html),
		cmocka_unit_test(test_lookups_scanned_and_indexed),
		cmocka_unit_test(test_html_only_leaves_off_flags_out),
		cmocka_unit_test(test_seat_names_in_json),
		cmocka_unit_test(test_constant_group),
		cmocka_unit_test(test_group_made_whole),
		cmocka_unit_test(test_view_memo),
		cmocka_unit_test(test_move_form),
		cmocka_unit_test(test_literals_kept_others_copied),
		cmocka_unit_test(test_literal_memos),
		cmocka_unit_test(test_seat_name_keys),
		cmocka_unit_test(test_substitution_edges),
		cmocka_unit_test(test_escaping_as_ctemplate),
		cmocka_unit_test(test_escaping_by_kind),
		cmocka_unit_test(test_numbers_every_magnitude),
		cmocka_unit_test(test_escaping_every_place),
		cmocka_unit_test(test_unbalanced),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
