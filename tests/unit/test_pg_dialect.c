/* test_pg_dialect.c — the store's statement texts as PostgreSQL takes them
 * (cgi/store/dialect.h): placeholders, literals, planner hints, the size. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "store/dialect.h"

static void expect_text(const char *in, const char *want)
{
	char out[512];
	size_t n = st_pg_text(in, out, sizeof out);
	assert_string_equal(out, want);
	assert_int_equal(n, strlen(want));
}

/* ?N keeps its number; a bare ? takes one above the highest so far, as
 * SQLite numbers it. */
static void test_placeholders(void **state)
{
	(void)state;
	expect_text("SELECT a FROM t WHERE id = ?1 AND b = ?12", "SELECT a FROM t WHERE id = $1 AND b = $12");
	expect_text("INSERT INTO t (a, b, c) VALUES (?, ?, ?)", "INSERT INTO t (a, b, c) VALUES ($1, $2, $3)");
	expect_text("UPDATE t SET a = ?2 WHERE id = ?1 AND b = ?", "UPDATE t SET a = $2 WHERE id = $1 AND b = $3");
	expect_text("SELECT ?3, ?, ?1", "SELECT $3, $4, $1");
	expect_text("?", "$1");
	expect_text("SELECT 1", "SELECT 1");
	expect_text("", "");
}

/* Nothing inside a string literal or a quoted name changes, a doubled
 * quote included. */
static void test_literals(void **state)
{
	(void)state;
	expect_text("SELECT '?1', ? FROM t WHERE x = 'it''s ?' AND y = ?",
		    "SELECT '?1', $1 FROM t WHERE x = 'it''s ?' AND y = $2");
	expect_text("SELECT \"a?b\" FROM t WHERE c = ?2", "SELECT \"a?b\" FROM t WHERE c = $2");
	expect_text("SELECT 'INDEXED BY x' FROM t", "SELECT 'INDEXED BY x' FROM t");
	/* an unclosed literal is copied to the end, not read past it */
	expect_text("SELECT 'abc ?1", "SELECT 'abc ?1");
}

/* A type hint right after a placeholder is PostgreSQL's cast; any other
 * comment, or a hint not right after a placeholder, stays as it is. */
static void test_type_hints(void **state)
{
	(void)state;
	expect_text("SELECT a FROM t WHERE ?3/*::BIGINT*/ > 0 AND b = ?3",
		    "SELECT a FROM t WHERE $3::BIGINT > 0 AND b = $3");
	expect_text("SELECT ?/*::double precision*/, ?", "SELECT $1::double precision, $2");
	expect_text("SELECT ? /*::BIGINT*/", "SELECT $1 /*::BIGINT*/");
	expect_text("SELECT a /*::BIGINT*/ FROM t", "SELECT a /*::BIGINT*/ FROM t");
	expect_text("SELECT ?1/* a comment */", "SELECT $1/* a comment */");
	expect_text("SELECT ?1/*::BIGINT", "SELECT $1/*::BIGINT");
	expect_text("SELECT '?1/*::BIGINT*/'", "SELECT '?1/*::BIGINT*/'");
}

/* SQLite's planner hint is left out, in any case and spacing; a word that
 * only contains it is not touched. */
static void test_indexed_by(void **state)
{
	(void)state;
	expect_text("SELECT a FROM s d INDEXED BY s_user WHERE d.t = ?1",
		    "SELECT a FROM s d WHERE d.t = $1");
	expect_text("SELECT a FROM s d indexed  by\ts_user WHERE x = ?",
		    "SELECT a FROM s d WHERE x = $1");
	expect_text("SELECT reindexed_by FROM t", "SELECT reindexed_by FROM t");
	expect_text("SELECT indexed FROM t", "SELECT indexed FROM t");
}

/* The length is returned; a text that does not fit with its NUL is 0 and
 * leaves an empty string. */
static void test_capacity(void **state)
{
	(void)state;
	char out[8];
	assert_int_equal(st_pg_text("a = ?1", out, sizeof out), 6);
	assert_string_equal(out, "a = $1");
	assert_int_equal(st_pg_text("a = ?12", out, sizeof out), 7); /* exactly fits */
	assert_string_equal(out, "a = $12");
	assert_int_equal(st_pg_text("a = ?123", out, sizeof out), 0);
	assert_string_equal(out, "");
	assert_int_equal(st_pg_text("abcdefgh", out, sizeof out), 0);
	assert_string_equal(out, "");
	assert_int_equal(st_pg_text("x", out, 1), 0);
	assert_int_equal(st_pg_text("x", NULL, 0), 0);
	/* a bare ? past the room: 0, not a cut number */
	assert_int_equal(st_pg_text("a = ?, ?", out, sizeof out), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_placeholders),
		cmocka_unit_test(test_literals),
		cmocka_unit_test(test_type_hints),
		cmocka_unit_test(test_indexed_by),
		cmocka_unit_test(test_capacity),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
