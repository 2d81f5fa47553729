/* test_http.c — the edge decoder: escapes, '+', repeated keys, limits,
 * UTF-8, cookies with garbage, strict integers, the response function. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "http.h"

static struct arena A;

static int setup(void **state)
{
	(void)state;
	arena_init(&A, 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	arena_free(&A);
	return 0;
}

static enum http_err form(const char *s, struct http_fields *f)
{
	return http_decode_form(&A, s, strlen(s), f);
}

static void test_percent_and_plus(void **state)
{
	(void)state;
	struct http_fields f;
	assert_int_equal(form("name=Gr%C3%BC%C3%9Fe+an+alle&move=play+gelb-4+on+2&e=", &f), HTTP_E_NONE);
	assert_int_equal(f.n, 3);
	assert_string_equal(http_get(&f, "name"), "Grüße an alle");
	assert_string_equal(http_get(&f, "move"), "play gelb-4 on 2");
	assert_string_equal(http_get(&f, "e"), "");
	assert_null(http_get(&f, "missing"));
	/* a literal plus arrives as %2B; a key without '=' has an empty value */
	assert_int_equal(form("a=1%2B1&flag", &f), HTTP_E_NONE);
	assert_string_equal(http_get(&f, "a"), "1+1");
	assert_string_equal(http_get(&f, "flag"), "");
	/* empty segments are skipped, an empty string is an empty form */
	assert_int_equal(form("&&a=1&", &f), HTTP_E_NONE);
	assert_int_equal(f.n, 1);
	assert_int_equal(form("", &f), HTTP_E_NONE);
	assert_int_equal(f.n, 0);
	/* lower-case hex too */
	assert_int_equal(form("x=%c3%a4", &f), HTTP_E_NONE);
	assert_string_equal(http_get(&f, "x"), "ä");
}

static void test_bad_escapes(void **state)
{
	(void)state;
	struct http_fields f;
	assert_int_equal(form("a=%", &f), HTTP_E_ESCAPE);
	assert_int_equal(form("a=%4", &f), HTTP_E_ESCAPE);
	assert_int_equal(form("a=%zz", &f), HTTP_E_ESCAPE);
	assert_int_equal(form("a=%G1&b=2", &f), HTTP_E_ESCAPE);
	assert_int_equal(form("a=ok%", &f), HTTP_E_ESCAPE);
	assert_int_equal(form("a=%00", &f), HTTP_E_NUL);
	assert_int_equal(http_err_status(HTTP_E_ESCAPE), HTTP_400);
	assert_string_equal(http_err_key(HTTP_E_ESCAPE), "escape");
}

static void test_keys(void **state)
{
	(void)state;
	struct http_fields f;
	assert_int_equal(form("a=1&a=2", &f), HTTP_E_REPEATED);
	assert_int_equal(form("a=1&b=2&%61=3", &f), HTTP_E_REPEATED);
	assert_int_equal(form("=1", &f), HTTP_E_KEY);
	assert_int_equal(form("a%20b=1", &f), HTTP_E_KEY);
	assert_int_equal(form("%C3%A4=1", &f), HTTP_E_KEY);
	char k[HTTP_KEY_MAX + 4];
	memset(k, 'k', HTTP_KEY_MAX);
	strcpy(k + HTTP_KEY_MAX, "=1");
	assert_int_equal(form(k, &f), HTTP_E_NONE);
	memset(k, 'k', HTTP_KEY_MAX + 1);
	strcpy(k + HTTP_KEY_MAX + 1, "=1");
	assert_int_equal(form(k, &f), HTTP_E_KEY);
}

static void test_limits(void **state)
{
	(void)state;
	struct http_fields f;
	char buf[HTTP_FIELDS_MAX * 8 + 16];
	size_t n = 0;
	for (int i = 0; i < HTTP_FIELDS_MAX; i++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "k%d=1&", i);
	assert_int_equal(form(buf, &f), HTTP_E_NONE);
	assert_int_equal(f.n, HTTP_FIELDS_MAX);
	snprintf(buf + n, sizeof buf - n, "one=more");
	assert_int_equal(form(buf, &f), HTTP_E_TOO_MANY);
	assert_int_equal(http_err_status(HTTP_E_TOO_MANY), HTTP_413);

	char *big = malloc(HTTP_VALUE_MAX + 16);
	memcpy(big, "v=", 2);
	memset(big + 2, 'x', HTTP_VALUE_MAX + 1);
	big[HTTP_VALUE_MAX + 3] = '\0';
	assert_int_equal(form(big, &f), HTTP_E_VALUE_LONG);
	big[HTTP_VALUE_MAX + 2] = '\0';
	assert_int_equal(form(big, &f), HTTP_E_NONE);
	free(big);

	/* a body over the limit is refused as a whole: 413 */
	char *body = malloc(HTTP_BODY_MAX + 2);
	memset(body, 'a', HTTP_BODY_MAX + 1);
	body[HTTP_BODY_MAX + 1] = '\0';
	struct http_raw raw = { .method = "POST", .uri = "/login",
				.content_type = "application/x-www-form-urlencoded",
				.body = body, .body_len = HTTP_BODY_MAX + 1 };
	struct http_req req;
	enum http_err e = http_req_parse(&A, &raw, &req);
	assert_int_equal(e, HTTP_E_TOO_LARGE);
	assert_int_equal(http_err_status(e), HTTP_413);
	free(body);
}

static void test_utf8(void **state)
{
	(void)state;
	struct http_fields f;
	assert_int_equal(form("n=%FF", &f), HTTP_E_UTF8);          /* never valid */
	assert_int_equal(form("n=%C0%AF", &f), HTTP_E_UTF8);       /* overlong '/' */
	assert_int_equal(form("n=%ED%A0%80", &f), HTTP_E_UTF8);    /* surrogate */
	assert_int_equal(form("n=%E2%82", &f), HTTP_E_UTF8);       /* truncated */
	assert_int_equal(form("n=%F4%90%80%80", &f), HTTP_E_UTF8); /* > U+10FFFF */
	assert_int_equal(form("n=%F0%9F%83%8F", &f), HTTP_E_NONE); /* a playing card */
	assert_true(http_utf8_valid("Übung", strlen("Übung")));
	assert_false(http_utf8_valid("\xc3", 1));
	assert_false(http_utf8_valid("a\x80z", 3));
}

static void test_cookies(void **state)
{
	(void)state;
	struct http_fields c;
	http_decode_cookies(&A, "st=abcDEF-_123; theme=dark", &c);
	assert_int_equal(c.n, 2);
	assert_string_equal(http_get(&c, "st"), "abcDEF-_123");
	/* garbage around a good cookie is skipped; the first of a name wins */
	http_decode_cookies(&A, ";;=x; junk; a b=c; st=first; bad=\x01\x02; st=second;q=\"quoted\"", &c);
	assert_string_equal(http_get(&c, "st"), "first");
	assert_string_equal(http_get(&c, "q"), "quoted");
	assert_null(http_get(&c, "bad"));
	assert_null(http_get(&c, "junk"));
	http_decode_cookies(&A, NULL, &c);
	assert_int_equal(c.n, 0);
	http_decode_cookies(&A, "", &c);
	assert_int_equal(c.n, 0);
	/* far too many: read up to the limit, no more */
	char big[HTTP_COOKIES_MAX * 8 + 64];
	size_t n = 0;
	for (int i = 0; i < HTTP_COOKIES_MAX + 5; i++)
		n += (size_t)snprintf(big + n, sizeof big - n, "c%d=1; ", i);
	http_decode_cookies(&A, big, &c);
	assert_int_equal(c.n, HTTP_COOKIES_MAX);
}

static void test_integers(void **state)
{
	(void)state;
	long long v = 99;
	assert_int_equal(http_int("42", 0, 100, &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(http_int("-3", -5, 5, &v), 0);
	assert_int_equal(v, -3);
	assert_int_equal(http_int("", 0, 100, &v), -1);
	assert_int_equal(http_int(" 4", 0, 100, &v), -1);
	assert_int_equal(http_int("+4", 0, 100, &v), -1);
	assert_int_equal(http_int("4 ", 0, 100, &v), -1);
	assert_int_equal(http_int("4x", 0, 100, &v), -1);
	assert_int_equal(http_int("0x10", 0, 100, &v), -1);
	assert_int_equal(http_int("-", 0, 100, &v), -1);
	assert_int_equal(http_int("101", 0, 100, &v), -1);
	assert_int_equal(http_int("99999999999999999999", 0, INT64_MAX, &v), -1);
	assert_int_equal(http_int(NULL, 0, 1, &v), -1);
	assert_int_equal(v, -3);
}

static void test_request(void **state)
{
	(void)state;
	struct http_req req;
	const char *body = "csrf=t&v=7&move=snap+rot-3+on+1";
	struct http_raw raw = { .method = "POST", .uri = "/t/12/move?x=1",
				.content_type = "application/x-www-form-urlencoded; charset=UTF-8",
				.cookie = "st=tok", .accept = "text/html,application/xhtml+xml",
				.remote_addr = "127.0.0.1", .body = body, .body_len = strlen(body) };
	assert_int_equal(http_req_parse(&A, &raw, &req), HTTP_E_NONE);
	assert_int_equal(req.method, HTTP_POST);
	assert_string_equal(req.path, "/t/12/move");
	assert_string_equal(http_get(&req.query, "x"), "1");
	assert_string_equal(http_get(&req.form, "move"), "snap rot-3 on 1");
	assert_string_equal(http_get(&req.cookies, "st"), "tok");
	assert_false(req.wants_json);

	raw.content_type = "text/plain";
	assert_int_equal(http_req_parse(&A, &raw, &req), HTTP_E_BODY_TYPE);
	raw = (struct http_raw){ .method = "GET", .uri = "/t/3", .accept = "application/json" };
	assert_int_equal(http_req_parse(&A, &raw, &req), HTTP_E_NONE);
	assert_true(req.wants_json);
	raw.uri = "t/3";
	assert_int_equal(http_req_parse(&A, &raw, &req), HTTP_E_PATH);
	raw = (struct http_raw){ .method = "DELETE", .uri = "/?v=1&v=2" };
	assert_int_equal(http_req_parse(&A, &raw, &req), HTTP_E_REPEATED);
	raw.uri = "/";
	assert_int_equal(http_req_parse(&A, &raw, &req), HTTP_E_NONE);
	assert_int_equal(req.method, HTTP_METHOD_OTHER);
}

static void test_validate(void **state)
{
	(void)state;
	static const struct http_rule rules[] = {
		{ "csrf", HTTP_V_TEXT, 1, 1, 64 },
		{ "v", HTTP_V_INT, 1, 0, INT64_MAX },
		{ "move", HTTP_V_TEXT, 1, 1, 160 },
		{ "colour", HTTP_V_BOOL, 0, 0, 1 },
	};
	struct http_value out[4];
	struct http_fields f;
	assert_int_equal(form("csrf=x&v=12&move=pass", &f), HTTP_E_NONE);
	assert_int_equal(http_validate(&f, rules, 4, out), HTTP_E_NONE);
	assert_int_equal(out[1].n, 12);
	assert_false(out[3].present);
	assert_int_equal(out[3].n, 0);
	assert_int_equal(form("csrf=x&v=12&move=pass&colour=on", &f), HTTP_E_NONE);
	assert_int_equal(http_validate(&f, rules, 4, out), HTTP_E_NONE);
	assert_int_equal(out[3].n, 1);
	assert_int_equal(form("csrf=x&v=12&move=pass&colour=yes", &f), HTTP_E_NONE);
	assert_int_equal(http_validate(&f, rules, 4, out), HTTP_E_INVALID);
	assert_int_equal(form("csrf=x&v=1e3&move=pass", &f), HTTP_E_NONE);
	assert_int_equal(http_validate(&f, rules, 4, out), HTTP_E_INVALID);
	assert_int_equal(form("csrf=x&move=pass", &f), HTTP_E_NONE);
	assert_int_equal(http_validate(&f, rules, 4, out), HTTP_E_MISSING);
	assert_int_equal(form("csrf=x&v=1&move=pass&admin=1", &f), HTTP_E_NONE);
	assert_int_equal(http_validate(&f, rules, 4, out), HTTP_E_UNKNOWN);
	assert_int_equal(form("csrf=x&v=1&move=", &f), HTTP_E_NONE);
	assert_int_equal(http_validate(&f, rules, 4, out), HTTP_E_INVALID);
}

struct capture {
	char *p;
	size_t n;
	int calls;
};

static int capture_write(void *ctx, const char *p, size_t n)
{
	struct capture *c = ctx;
	c->p = realloc(c->p, c->n + n + 1);
	memcpy(c->p + c->n, p, n);
	c->n += n;
	c->p[c->n] = '\0';
	c->calls++;
	return 0;
}

static void test_response(void **state)
{
	(void)state;
	struct http_conf conf = { .secure_cookies = 1 };
	struct http_resp r = { .status = HTTP_200, .content_type = "text/html; charset=utf-8",
			       .body = "<p>hallo</p>", .len = 12 };
	http_set_cookie(&r, "st", "abc-_", 3600);
	struct capture c = { 0 };
	assert_int_equal(http_respond(&A, &conf, &r, 0, capture_write, &c), 0);
	assert_int_equal(c.calls, 1);
	assert_non_null(strstr(c.p, "Status: 200 OK\r\n"));
	assert_non_null(strstr(c.p, "Content-Security-Policy: default-src 'self'; script-src 'self'; "
				    "style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; "
				    "form-action 'self'; base-uri 'none'\r\n"));
	assert_non_null(strstr(c.p, "X-Content-Type-Options: nosniff\r\n"));
	assert_non_null(strstr(c.p, "Referrer-Policy: same-origin\r\n"));
	assert_non_null(strstr(c.p, "Cache-Control: no-store\r\n"));
	assert_non_null(strstr(c.p, "Set-Cookie: st=abc-_; Path=/; Max-Age=3600; HttpOnly; SameSite=Lax; Secure\r\n"));
	assert_non_null(strstr(c.p, "Content-Length: 12\r\n\r\n<p>hallo</p>"));
	assert_int_equal(strcmp(c.p + c.n - 12, "<p>hallo</p>"), 0);
	free(c.p);

	/* 303 without a body; HEAD leaves the body out; no Secure unless configured */
	conf.secure_cookies = 0;
	struct http_resp s = { .status = HTTP_303, .location = "/t/4" };
	http_set_cookie(&s, "st", "", 0);
	c = (struct capture){ 0 };
	assert_int_equal(http_respond(&A, &conf, &s, 0, capture_write, &c), 0);
	assert_non_null(strstr(c.p, "Status: 303 See Other\r\n"));
	assert_non_null(strstr(c.p, "Location: /t/4\r\n"));
	assert_non_null(strstr(c.p, "Set-Cookie: st=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax\r\n"));
	assert_null(strstr(c.p, "Secure"));
	assert_null(strstr(c.p, "\r\nContent-Type:"));
	free(c.p);

	c = (struct capture){ 0 };
	r.ncookies = 0;
	assert_int_equal(http_respond(&A, &conf, &r, 1, capture_write, &c), 0);
	assert_null(strstr(c.p, "hallo"));
	free(c.p);

	/* a 204 has no body and no Content-Length */
	struct http_resp nc = { .status = HTTP_204 };
	c = (struct capture){ 0 };
	assert_int_equal(http_respond(&A, &conf, &nc, 0, capture_write, &c), 0);
	assert_non_null(strstr(c.p, "Status: 204 No Content\r\n"));
	assert_null(strstr(c.p, "Content-Length"));
	assert_non_null(strstr(c.p, "Cache-Control: no-store\r\n\r\n"));
	assert_int_equal(strcmp(c.p + c.n - 4, "\r\n\r\n"), 0);
	free(c.p);

	/* header injection is refused, nothing is written */
	struct http_resp bad = { .status = HTTP_303, .location = "/x\r\nSet-Cookie: a=b" };
	c = (struct capture){ 0 };
	assert_int_equal(http_respond(&A, &conf, &bad, 0, capture_write, &c), -1);
	assert_int_equal(c.calls, 0);
	struct http_resp badc = { .status = HTTP_200 };
	http_set_cookie(&badc, "st", "a;b", 10);
	assert_int_equal(http_respond(&A, &conf, &badc, 0, capture_write, &c), -1);
	assert_int_equal(c.calls, 0);
}

/* arena_grow_last: the newest allocation grows where it lies while its
 * block has room (its bytes kept, the next allocation after it); not one
 * that is no longer the newest, not past the block's room, not past the
 * limit. */
static void test_arena_grow_last(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a, 0);
	char *p = arena_alloc_raw(&a, 64);
	assert_non_null(p);
	memset(p, 'x', 64);
	assert_int_equal(arena_grow_last(&a, p, 64, 1024), 1);
	assert_int_equal(p[63], 'x');
	memset(p, 'y', 1024);
	char *q = arena_alloc_raw(&a, 16);
	assert_ptr_equal(q, p + 1024);
	assert_int_equal(arena_grow_last(&a, p, 1024, 2048), 0);   /* q is newer */
	assert_int_equal(arena_grow_last(&a, q, 16, 1 << 30), 0);   /* past the block */
	assert_int_equal(arena_grow_last(&a, q, 16, 32), 1);
	assert_ptr_equal(arena_alloc_raw(&a, 16), q + 32);
	assert_int_equal(p[1023], 'y');
	arena_free(&a);

	arena_init(&a, 256);
	p = arena_alloc_raw(&a, 128);
	assert_non_null(p);
	assert_int_equal(arena_grow_last(&a, p, 128, 512), 0);   /* over the limit */
	assert_int_equal(arena_grow_last(&a, p, 128, 256), 1);
	assert_null(arena_alloc_raw(&a, 16));
	arena_free(&a);
}

/* arena_printf: texts that fit the newest block's room, texts that do not
 * (a new block), one longer than a block, and a limit that refuses; every
 * text stays intact after the ones that follow it. */
static void test_arena_printf(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a, 0);
	char *first = arena_printf(&a, "/t/%d%s", 42, "/move");
	assert_string_equal(first, "/t/42/move");
	char *texts[400];
	for (int i = 0; i < 400; i++) {
		texts[i] = arena_printf(&a, "%0*d", 3 + i % 300, i);
		assert_non_null(texts[i]);
		assert_int_equal(strlen(texts[i]), (size_t)(3 + i % 300));
	}
	for (int i = 0; i < 400; i++)
		assert_int_equal(atoi(texts[i]), i);
	char *big = arena_printf(&a, "%0*d", 100000, 7);
	assert_non_null(big);
	assert_int_equal(strlen(big), 100000);
	assert_string_equal(first, "/t/42/move");
	arena_free(&a);

	arena_init(&a, 64);
	assert_string_equal(arena_printf(&a, "%s", "kurz"), "kurz");
	assert_null(arena_printf(&a, "%0*d", 200, 1));
	arena_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_percent_and_plus),
		cmocka_unit_test(test_bad_escapes),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_cookies),
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_request),
		cmocka_unit_test(test_validate),
		cmocka_unit_test(test_response),
		cmocka_unit_test(test_arena_printf),
		cmocka_unit_test(test_arena_grow_last),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
