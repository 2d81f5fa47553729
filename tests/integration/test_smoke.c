/* test_smoke.c — the app behind nginx answers: static files from nginx,
 * pages from the app, limits at the edge, and one account round trip
 * (which also exercises the harness's cookie jar and form helpers). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "harness.h"

static struct h_client *client;

static int start(void **state)
{
	(void)state;
	if (h_start() != 0)
		return -1;
	client = h_client_new();
	return client ? 0 : -1;
}

static int stop(void **state)
{
	(void)state;
	h_client_free(client);
	h_stop();
	return 0;
}

/* The file as it is on disk, NUL-terminated; *len its size. */
static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	long n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void test_static_from_nginx(void **state)
{
	(void)state;
	struct h_resp r;
	char v[256], path[4096];
	size_t len;

	assert_int_equal(h_get(client, "/static/site.css", &r), 0);
	assert_int_equal(r.status, 200);
	assert_int_equal(h_header(&r, "Content-Type", v, sizeof v), 0);
	assert_non_null(strstr(v, "text/css"));
	assert_int_equal(h_header(&r, "Cache-Control", v, sizeof v), 0);
	assert_non_null(strstr(v, "max-age="));
	assert_int_equal(h_header(&r, "ETag", v, sizeof v), 0);
	snprintf(path, sizeof path, "%s/static/site.css", h_root());
	char *disk = read_file(path, &len);
	assert_int_equal(r.body_len, len);
	assert_memory_equal(r.body, disk, len);
	free(disk);
	h_resp_free(&r);

	assert_int_equal(h_get(client, "/static/no-such-file.css", &r), 0);
	assert_int_equal(r.status, 404);
	h_resp_free(&r);
	/* No way out of the static directory. */
	assert_int_equal(h_get(client, "/static/../schema/001_init.sql", &r), 0);
	assert_true(r.status == 404 || r.status == 400);
	assert_false(h_has(&r, "CREATE TABLE"));
	h_resp_free(&r);
	assert_int_equal(h_get(client, "/static/%2e%2e/schema/001_init.sql", &r), 0);
	assert_false(h_has(&r, "CREATE TABLE"));
	h_resp_free(&r);
}

static void test_pages_from_app(void **state)
{
	(void)state;
	struct h_resp r;
	char v[512];

	assert_int_equal(h_get(client, "/", &r), 0);
	assert_int_equal(r.status, 200);
	assert_int_equal(h_header(&r, "Content-Type", v, sizeof v), 0);
	assert_non_null(strstr(v, "text/html"));
	assert_true(h_has(&r, "</html>"));
	assert_true(h_has(&r, "Drehwurm"));
	/* The app's own headers came through nginx. */
	assert_int_equal(h_header(&r, "Content-Security-Policy", v, sizeof v), 0);
	assert_true(r.seconds < 2.0);
	h_resp_free(&r);

	assert_int_equal(h_get(client, "/no/such/page", &r), 0);
	assert_int_equal(r.status, 404);
	h_resp_free(&r);
	assert_int_equal(h_get(client, "/t/999999", &r), 0);
	assert_int_equal(r.status, 404);
	h_resp_free(&r);
}

static void test_body_limit(void **state)
{
	(void)state;
	struct h_resp r;
	size_t n = 200 * 1024;
	char *big = malloc(n);
	assert_non_null(big);
	memset(big, 'a', n);
	memcpy(big, "name=", 5);
	assert_int_equal(h_request(client, "POST", "/login", "application/x-www-form-urlencoded",
				   big, n, &r), 0);
	assert_int_equal(r.status, 413);
	h_resp_free(&r);
	free(big);
}

/* Register, land logged in, log out: forms, CSRF, cookies, redirects. */
static void test_account_round_trip(void **state)
{
	(void)state;
	struct h_client *c = h_client_new();
	struct h_resp r;
	char csrf[128], loc[512], tok[128];
	assert_non_null(c);

	assert_int_equal(h_get(c, "/register", &r), 0);
	assert_int_equal(r.status, 200);
	assert_int_equal(h_csrf(&r, csrf, sizeof csrf), 0);
	assert_true(strlen(csrf) >= 16);
	h_resp_free(&r);

	/* Without the token the form is refused. */
	assert_int_equal(h_post_form(c, "/register", &r, "name", "Smoke", "password", "geheim123",
				     "password2", "geheim123", NULL), 0);
	assert_true(r.status == 403 || r.status == 400);
	h_resp_free(&r);
	assert_int_equal(h_cookie(c, "st", tok, sizeof tok), -1);

	assert_int_equal(h_post_form(c, "/register", &r, "csrf", csrf, "name", "Smoke",
				     "password", "geheim123", "password2", "geheim123", NULL), 0);
	assert_int_equal(r.status, 303);
	assert_int_equal(h_header(&r, "Location", loc, sizeof loc), 0);
	h_resp_free(&r);
	assert_int_equal(h_cookie(c, "st", tok, sizeof tok), 0);
	assert_int_equal(strlen(tok), 43);

	assert_int_equal(h_get(c, "/", &r), 0);
	assert_int_equal(r.status, 200);
	assert_true(h_has(&r, "Smoke"));
	h_resp_free(&r);

	/* Another browser is not logged in. */
	struct h_client *other = h_client_new();
	assert_non_null(other);
	assert_int_equal(h_get(other, "/me", &r), 0);
	assert_int_not_equal(r.status, 200);
	h_resp_free(&r);
	h_client_free(other);
	h_client_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_static_from_nginx),
		cmocka_unit_test(test_pages_from_app),
		cmocka_unit_test(test_body_limit),
		cmocka_unit_test(test_account_round_trip),
	};
	return cmocka_run_group_tests(tests, start, stop);
}
