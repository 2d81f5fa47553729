/*
 * fuzz_http.c — libFuzzer target for the edge decoders of cgi/http.c: form
 * and query decoding, cookies, UTF-8 validation, strict integers and the
 * whole request parse. Everything a browser (or an attacker) sends passes
 * through these first.
 *
 * Input: byte 0 picks the decoder (mod 4), the rest is its input.
 * Promises checked:
 *   form (0):    on success at most HTTP_FIELDS_MAX fields, keys 1..
 *                HTTP_KEY_MAX bytes of [A-Za-z0-9_.-] and never repeated,
 *                values valid UTF-8 without NUL and at most HTTP_VALUE_MAX
 *                bytes, http_get finds each; percent-encoding the fields
 *                again and decoding gives the same fields. On refusal the
 *                error maps to 400, 413 or 415.
 *   cookies (1): never fails; at most HTTP_COOKIES_MAX, non-empty names,
 *                no name twice (the first wins).
 *   numbers (2): http_utf8_valid agrees with an independent RFC 3629 check;
 *                http_int accepts exactly what a strict strtoll reading
 *                accepts and gives the same value.
 *   request (3): bytes 1..5 choose method, content type, URI length (two
 *                bytes, little-endian, 12 bits) and cookie length, then
 *                come the URI, the cookie header and the body; on success the path
 *                starts with '/' and the decoded parts obey the rules above.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "http.h"

/* One fuzz input: byte 0 picks the decoder, the rest is its input; the
 * arena is reset afterwards. Aborts on any broken promise. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct arena arena;
static int arena_ready;

/* 1 when c may appear in a key. */
static int key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '-';
}

/* Checks the field-set rules shared by forms and queries. */
static void check_fields(const struct http_fields *f)
{
	if (f->n < 0 || f->n > HTTP_FIELDS_MAX)
		fz_fail(NULL, "form: %d fields", f->n);
	for (int i = 0; i < f->n; i++) {
		const struct http_field *x = &f->f[i];
		size_t kl = strlen(x->key);
		if (kl < 1 || kl > HTTP_KEY_MAX)
			fz_fail(NULL, "form: key of %zu bytes", kl);
		for (size_t k = 0; k < kl; k++)
			if (!key_char(x->key[k]))
				fz_fail(NULL, "form: key with byte 0x%02x", (unsigned char)x->key[k]);
		if (strlen(x->val) != x->len || x->len > HTTP_VALUE_MAX)
			fz_fail(NULL, "form: value length %zu (strlen %zu)", x->len, strlen(x->val));
		if (!fz_utf8_ok((const unsigned char *)x->val, x->len))
			fz_fail(NULL, "form: value of '%s' is not valid UTF-8", x->key);
		for (int j = 0; j < i; j++)
			if (strcmp(f->f[j].key, x->key) == 0)
				fz_fail(NULL, "form: key '%s' accepted twice", x->key);
		if (http_get(f, x->key) != x->val && strcmp(http_get(f, x->key), x->val) != 0)
			fz_fail(NULL, "form: http_get('%s') finds another value", x->key);
	}
}

/* Percent-encodes every byte but unreserved ones, into out; returns the length. */
static size_t encode_fields(const struct http_fields *f, char *out, size_t cap)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t o = 0;
	for (int i = 0; i < f->n; i++) {
		const char *parts[2] = { f->f[i].key, f->f[i].val };
		size_t lens[2] = { strlen(f->f[i].key), f->f[i].len };
		if (i && o < cap)
			out[o++] = '&';
		for (int p = 0; p < 2; p++) {
			if (p && o < cap)
				out[o++] = '=';
			for (size_t k = 0; k < lens[p] && o + 3 < cap; k++) {
				unsigned char c = (unsigned char)parts[p][k];
				if (key_char((char)c))
					out[o++] = (char)c;
				else {
					out[o++] = '%';
					out[o++] = hex[c >> 4];
					out[o++] = hex[c & 15];
				}
			}
		}
	}
	return o;
}

/* The form/query decoder on s[0..n). */
static void fuzz_form(const char *s, size_t n)
{
	struct http_fields f;
	enum http_err err = http_decode_form(&arena, s, n, &f);
	if (err != HTTP_E_NONE) {
		int code = http_status_code(http_err_status(err));
		if (code != 400 && code != 413 && code != 415)
			fz_fail(NULL, "form: refusal %d maps to status %d", (int)err, code);
		return;
	}
	check_fields(&f);
	static char again[HTTP_FIELDS_MAX * (HTTP_KEY_MAX + HTTP_VALUE_MAX) * 3 + 64];
	size_t al = encode_fields(&f, again, sizeof again);
	struct http_fields g;
	if (http_decode_form(&arena, again, al, &g) != HTTP_E_NONE || g.n != f.n)
		fz_fail(NULL, "form: re-encoded fields do not decode the same");
	for (int i = 0; i < f.n; i++)
		if (strcmp(f.f[i].key, g.f[i].key) != 0 || f.f[i].len != g.f[i].len ||
		    memcmp(f.f[i].val, g.f[i].val, f.f[i].len) != 0)
			fz_fail(NULL, "form: field %d differs after re-encoding", i);
}

/* The cookie reader on a NUL-terminated header. */
static void fuzz_cookies(const char *h)
{
	struct http_fields f;
	http_decode_cookies(&arena, h, &f);
	if (f.n < 0 || f.n > HTTP_COOKIES_MAX)
		fz_fail(NULL, "cookies: %d read", f.n);
	for (int i = 0; i < f.n; i++) {
		if (!f.f[i].key || !f.f[i].key[0] || !f.f[i].val)
			fz_fail(NULL, "cookies: empty name or missing value");
		for (int j = 0; j < i; j++)
			if (strcmp(f.f[j].key, f.f[i].key) == 0)
				fz_fail(NULL, "cookies: name '%s' twice", f.f[i].key);
	}
}

/* The strict reference for http_int: optional '-', digits only. */
static int ref_int(const char *s, long long min, long long max, long long *out)
{
	const char *d = s[0] == '-' ? s + 1 : s;
	if (!*d)
		return -1;
	for (const char *c = d; *c; c++)
		if (*c < '0' || *c > '9')
			return -1;
	errno = 0;
	char *end;
	long long v = strtoll(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/* http_utf8_valid and http_int against the references. */
static void fuzz_numbers(const char *s, size_t n)
{
	if (http_utf8_valid(s, n) != fz_utf8_ok((const unsigned char *)s, n))
		fz_fail(NULL, "utf8: http_utf8_valid disagrees with RFC 3629 on %zu bytes", n);
	char z[64];
	size_t zl = n < sizeof z - 1 ? n : sizeof z - 1;
	memcpy(z, s, zl);
	z[zl] = '\0';
	static const long long ranges[][2] = { { 0, 9 }, { -5, 5 }, { 0, 1LL << 40 },
					       { -9223372036854775807LL - 1, 9223372036854775807LL } };
	for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
		long long a = 0, b = 0;
		int ra = http_int(z, ranges[r][0], ranges[r][1], &a);
		int rb = ref_int(z, ranges[r][0], ranges[r][1], &b);
		if (ra != rb || (ra == 0 && a != b))
			fz_fail(NULL, "http_int('%s') = %d/%lld, reference %d/%lld", z, ra, a, rb, b);
	}
}

/* The whole request parse. */
static void fuzz_request(const uint8_t *d, size_t n)
{
	static const char *methods[] = { "GET", "POST", "HEAD", "PUT", "", "get", "DELETE" };
	static const char *types[] = { NULL, "application/x-www-form-urlencoded",
				       "application/x-www-form-urlencoded; charset=UTF-8",
				       "multipart/form-data; boundary=x", "text/plain", "",
				       "APPLICATION/X-WWW-FORM-URLENCODED" };
	if (n < 5)
		return;
	static char uri[HTTP_QUERY_MAX * 2 + 8], cookie[4096], body[HTTP_BODY_MAX * 2];
	size_t ul = d[2] | (size_t)(d[3] & 0x0f) << 8, cl = d[4];
	const uint8_t *p = d + 5;
	size_t left = n - 5;
	ul = ul < left ? ul : left;
	ul = ul < sizeof uri - 1 ? ul : sizeof uri - 1;
	memcpy(uri, p, ul);
	uri[ul] = '\0';
	p += ul, left -= ul;
	cl = cl < left ? cl : left;
	cl = cl < sizeof cookie - 1 ? cl : sizeof cookie - 1;
	memcpy(cookie, p, cl);
	cookie[cl] = '\0';
	p += cl, left -= cl;
	size_t bl = left < sizeof body ? left : sizeof body;
	memcpy(body, p, bl);

	struct http_raw raw = {
		.method = methods[d[0] % (sizeof methods / sizeof methods[0])],
		.uri = uri,
		.content_type = types[d[1] % (sizeof types / sizeof types[0])],
		.cookie = (d[1] & 0x80) ? NULL : cookie,
		.accept = (d[0] & 0x80) ? "application/json" : NULL,
		.remote_addr = "127.0.0.1",
		.body = bl ? body : NULL,
		.body_len = bl,
	};
	struct http_req req;
	enum http_err err = http_req_parse(&arena, &raw, &req);
	if (err != HTTP_E_NONE) {
		int code = http_status_code(http_err_status(err));
		if (code != 400 && code != 413 && code != 415)
			fz_fail(NULL, "request: refusal %d maps to status %d", (int)err, code);
		return;
	}
	if (!req.path || req.path[0] != '/')
		fz_fail(NULL, "request: accepted a path that does not start with '/'");
	check_fields(&req.query);
	check_fields(&req.form);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	if (!arena_ready) {
		arena_init(&arena, 8u << 20);
		arena_ready = 1;
	}
	const char *s = (const char *)data + 1;
	size_t n = size - 1;
	switch (data[0] % 4) {
	case 0:
		fuzz_form(s, n);
		break;
	case 1: {
		static char h[8192];
		size_t hl = n < sizeof h - 1 ? n : sizeof h - 1;
		memcpy(h, s, hl);
		h[hl] = '\0';
		fuzz_cookies(h);
		break;
	}
	case 2:
		fuzz_numbers(s, n);
		break;
	default:
		fuzz_request(data + 1, n);
		break;
	}
	arena_reset(&arena);
	return 0;
}
