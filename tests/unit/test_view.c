/* test_view.c — one view tree, two renderings: JSON through jansson and
 * HTML through ctemplate with templates written to a temporary directory.
 * Escaping, flags, nested sections, includes, @N and *_seat_name. */
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
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	arena_free(&A);
	const char *names[] = { "page.tpl", "game-test.tpl", "nopragma.tpl" };
	char path[256];
	for (int i = 0; i < 3; i++) {
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
		cmocka_unit_test(test_unbalanced),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
