/* http.c — decoding and the one response function; see http.h. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http.h"

static const struct {
	int code;
	const char *reason;
} statuses[] = {
	[HTTP_200] = { 200, "OK" },
	[HTTP_204] = { 204, "No Content" },
	[HTTP_303] = { 303, "See Other" },
	[HTTP_400] = { 400, "Bad Request" },
	[HTTP_403] = { 403, "Forbidden" },
	[HTTP_404] = { 404, "Not Found" },
	[HTTP_405] = { 405, "Method Not Allowed" },
	[HTTP_409] = { 409, "Conflict" },
	[HTTP_413] = { 413, "Content Too Large" },
	[HTTP_415] = { 415, "Unsupported Media Type" },
	[HTTP_422] = { 422, "Unprocessable Content" },
	[HTTP_429] = { 429, "Too Many Requests" },
	[HTTP_500] = { 500, "Internal Server Error" },
	[HTTP_503] = { 503, "Service Unavailable" },
};
_Static_assert(sizeof statuses / sizeof statuses[0] == HTTP_STATUS__MAX, "statuses[]");

static const struct {
	enum http_status status;
	const char *key;
} errs[] = {
	[HTTP_E_NONE] = { HTTP_200, "none" },
	[HTTP_E_ESCAPE] = { HTTP_400, "escape" },
	[HTTP_E_UTF8] = { HTTP_400, "utf8" },
	[HTTP_E_NUL] = { HTTP_400, "nul" },
	[HTTP_E_KEY] = { HTTP_400, "key" },
	[HTTP_E_REPEATED] = { HTTP_400, "repeated" },
	[HTTP_E_VALUE_LONG] = { HTTP_413, "value_long" },
	[HTTP_E_TOO_MANY] = { HTTP_413, "too_many" },
	[HTTP_E_TOO_LARGE] = { HTTP_413, "too_large" },
	[HTTP_E_BODY_TYPE] = { HTTP_415, "body_type" },
	[HTTP_E_BODY_SHORT] = { HTTP_400, "body_short" },
	[HTTP_E_UNKNOWN] = { HTTP_400, "unknown_field" },
	[HTTP_E_MISSING] = { HTTP_400, "missing_field" },
	[HTTP_E_INVALID] = { HTTP_400, "invalid_field" },
	[HTTP_E_PATH] = { HTTP_400, "path" },
};
_Static_assert(sizeof errs / sizeof errs[0] == HTTP_E__MAX, "errs[]");

static const char *const method_names[] = {
	[HTTP_GET] = "GET", [HTTP_HEAD] = "HEAD", [HTTP_POST] = "POST", [HTTP_METHOD_OTHER] = "",
};
_Static_assert(sizeof method_names / sizeof method_names[0] == HTTP_METHOD__MAX, "methods");

enum http_status http_err_status(enum http_err e)
{
	return (unsigned)e < HTTP_E__MAX ? errs[e].status : HTTP_400;
}

const char *http_err_key(enum http_err e)
{
	return (unsigned)e < HTTP_E__MAX ? errs[e].key : "none";
}

int http_status_code(enum http_status s)
{
	return (unsigned)s < HTTP_STATUS__MAX ? statuses[s].code : 500;
}

const char *http_get(const struct http_fields *f, const char *key)
{
	for (int i = 0; i < f->n; i++)
		if (strcmp(f->f[i].key, key) == 0)
			return f->f[i].val;
	return NULL;
}

/* Standard UTF-8 (RFC 3629): shortest form only, no surrogates, ≤ U+10FFFF. */
int http_utf8_valid(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;
	while (i < n) {
		unsigned c = s[i];
		if (c < 0x80) {
			i++;
			continue;
		}
		size_t need;
		unsigned lo = 0x80, hi = 0xBF;
		if (c >= 0xC2 && c <= 0xDF)
			need = 1;
		else if (c >= 0xE0 && c <= 0xEF) {
			need = 2;
			if (c == 0xE0)
				lo = 0xA0;
			else if (c == 0xED)
				hi = 0x9F;
		} else if (c >= 0xF0 && c <= 0xF4) {
			need = 3;
			if (c == 0xF0)
				lo = 0x90;
			else if (c == 0xF4)
				hi = 0x8F;
		} else
			return 0;
		if (n - i - 1 < need)
			return 0;
		if (s[i + 1] < lo || s[i + 1] > hi)
			return 0;
		for (size_t k = 2; k <= need; k++)
			if (s[i + k] < 0x80 || s[i + k] > 0xBF)
				return 0;
		i += need + 1;
	}
	return 1;
}

int http_int(const char *s, long long min, long long max, long long *out)
{
	if (!s)
		return -1;
	const char *p = s[0] == '-' ? s + 1 : s;
	if (*p < '0' || *p > '9')
		return -1;
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno == ERANGE || *end != '\0' || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Percent-decodes s[0..n) into a new arena string; '+' becomes a space
 * when plus_space (a form, not a path). Sets *err on a bad escape, NUL or
 * invalid UTF-8; NULL then. */
static char *pct_decode_as(struct arena *a, const char *s, size_t n, int plus_space,
			   size_t *outlen, enum http_err *err)
{
	char *o = arena_alloc(a, n + 1);
	if (!o) {
		*err = HTTP_E_TOO_LARGE;
		return NULL;
	}
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)s[i];
		if (c == '+' && plus_space)
			c = ' ';
		else if (c == '%') {
			if (n - i < 3) {
				*err = HTTP_E_ESCAPE;
				return NULL;
			}
			int hi = hexval((unsigned char)s[i + 1]), lo = hexval((unsigned char)s[i + 2]);
			if (hi < 0 || lo < 0) {
				*err = HTTP_E_ESCAPE;
				return NULL;
			}
			c = hi * 16 + lo;
			i += 2;
		}
		if (c == 0) {
			*err = HTTP_E_NUL;
			return NULL;
		}
		o[k++] = (char)c;
	}
	o[k] = '\0';
	if (!http_utf8_valid(o, k)) {
		*err = HTTP_E_UTF8;
		return NULL;
	}
	*outlen = k;
	return o;
}

static char *pct_decode(struct arena *a, const char *s, size_t n, size_t *outlen,
			enum http_err *err)
{
	return pct_decode_as(a, s, n, 1, outlen, err);
}

char *http_path_decode(struct arena *a, const char *s, size_t n)
{
	size_t len = 0;
	enum http_err err = HTTP_E_NONE;
	return pct_decode_as(a, s, n, 0, &len, &err);
}

char *http_path_escape_after(struct arena *a, const char *head, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t h = strlen(head), n = strlen(s);
	char *o = arena_alloc_raw(a, h + n * 3 + 1);
	if (!o)
		return NULL;
	memcpy(o, head, h);
	size_t k = h;
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
		    *c == '-' || *c == '_' || *c == '.' || *c == '~') {
			o[k++] = (char)*c;
			continue;
		}
		o[k++] = '%';
		o[k++] = hex[*c >> 4];
		o[k++] = hex[*c & 15];
	}
	o[k] = '\0';
	return o;
}

char *http_path_escape(struct arena *a, const char *s)
{
	return http_path_escape_after(a, "", s);
}

static int key_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '-';
}

enum http_err http_decode_form(struct arena *a, const char *s, size_t n, struct http_fields *out)
{
	out->n = 0;
	size_t i = 0;
	while (i < n) {
		size_t j = i;
		while (j < n && s[j] != '&')
			j++;
		if (j > i) {
			size_t eq = i;
			while (eq < j && s[eq] != '=')
				eq++;
			enum http_err err = HTTP_E_NONE;
			size_t klen, vlen = 0;
			if (eq - i > HTTP_KEY_MAX * 3)
				return HTTP_E_KEY;
			char *key = pct_decode(a, s + i, eq - i, &klen, &err);
			if (!key)
				return err == HTTP_E_UTF8 ? HTTP_E_KEY : err;
			if (klen == 0 || klen > HTTP_KEY_MAX)
				return HTTP_E_KEY;
			for (size_t k = 0; k < klen; k++)
				if (!key_char((unsigned char)key[k]))
					return HTTP_E_KEY;
			const char *vs = eq < j ? s + eq + 1 : s + j;
			size_t vn = eq < j ? j - eq - 1 : 0;
			if (vn > HTTP_VALUE_MAX * 3)
				return HTTP_E_VALUE_LONG;
			char *val = pct_decode(a, vs, vn, &vlen, &err);
			if (!val)
				return err;
			if (vlen > HTTP_VALUE_MAX)
				return HTTP_E_VALUE_LONG;
			if (http_get(out, key))
				return HTTP_E_REPEATED;
			if (out->n == HTTP_FIELDS_MAX)
				return HTTP_E_TOO_MANY;
			out->f[out->n++] = (struct http_field){ key, val, vlen };
		}
		i = j + 1;
	}
	return HTTP_E_NONE;
}

/* RFC 6265 cookie-octet, the only characters a value of ours contains. */
static int cookie_char(int c)
{
	return c == 0x21 || (c >= 0x23 && c <= 0x2B) || (c >= 0x2D && c <= 0x3A) ||
	       (c >= 0x3C && c <= 0x5B) || (c >= 0x5D && c <= 0x7E);
}

void http_decode_cookies(struct arena *a, const char *h, struct http_fields *out)
{
	out->n = 0;
	if (!h)
		return;
	const char *p = h;
	while (*p && out->n < HTTP_COOKIES_MAX) {
		while (*p == ' ' || *p == '\t')
			p++;
		const char *start = p;
		while (*p && *p != ';')
			p++;
		const char *stop = p;
		if (*p == ';')
			p++;
		while (stop > start && (stop[-1] == ' ' || stop[-1] == '\t'))
			stop--;
		const char *eq = memchr(start, '=', (size_t)(stop - start));
		if (!eq || eq == start || eq - start > HTTP_KEY_MAX)
			continue;
		const char *v = eq + 1, *ve = stop;
		if (ve - v >= 2 && v[0] == '"' && ve[-1] == '"') {
			v++;
			ve--;
		}
		if (ve - v > HTTP_VALUE_MAX)
			continue;
		int ok = 1;
		for (const char *k = start; k < eq; k++)
			if (!key_char((unsigned char)*k))
				ok = 0;
		for (const char *k = v; k < ve; k++)
			if (!cookie_char((unsigned char)*k))
				ok = 0;
		if (!ok)
			continue;
		char *key = arena_strndup(a, start, (size_t)(eq - start));
		char *val = arena_strndup(a, v, (size_t)(ve - v));
		if (!key || !val)
			return;
		if (http_get(out, key))
			continue;
		out->f[out->n++] = (struct http_field){ key, val, (size_t)(ve - v) };
	}
}

/* 1 when the media type of a Content-Type header is `want` (parameters and
 * case ignored). */
static int media_type_is(const char *ct, const char *want)
{
	size_t n = strlen(want);
	if (strncasecmp(ct, want, n) != 0)
		return 0;
	return ct[n] == '\0' || ct[n] == ';' || ct[n] == ' ';
}

/* 1 when the Accept header asks for JSON rather than HTML. */
static int accept_json(const char *accept)
{
	return strstr(accept, "application/json") && !strstr(accept, "text/html");
}

/* 1 for a Host header a page may put into an absolute link: 1..255 bytes
 * of letters, digits and . - : [ ] (a name or address with a port). */
static int host_ok(const char *h)
{
	size_t n = h ? strlen(h) : 0;
	if (n == 0 || n > 255)
		return 0;
	for (const char *c = h; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || strchr(".-:[]", *c)))
			return 0;
	return 1;
}

enum http_err http_req_parse(struct arena *a, const struct http_raw *raw, struct http_req *req)
{
	memset(req, 0, sizeof *req);
	req->method = HTTP_METHOD_OTHER;
	for (int m = 0; m < HTTP_METHOD_OTHER; m++)
		if (raw->method && strcmp(raw->method, method_names[m]) == 0)
			req->method = (enum http_method)m;
	req->accept = raw->accept ? raw->accept : "";
	req->accept_language = raw->accept_language ? raw->accept_language : "";
	req->remote_addr = raw->remote_addr ? raw->remote_addr : "";
	req->host = host_ok(raw->host) ? raw->host : "";
	req->wants_json = accept_json(req->accept);
	http_decode_cookies(a, raw->cookie, &req->cookies);

	const char *uri = raw->uri ? raw->uri : "";
	if (uri[0] != '/')
		return HTTP_E_PATH;
	const char *q = strchr(uri, '?');
	size_t plen = q ? (size_t)(q - uri) : strlen(uri);
	if (plen > HTTP_QUERY_MAX)
		return HTTP_E_TOO_LARGE;
	req->path = arena_strndup(a, uri, plen);
	if (!req->path)
		return HTTP_E_TOO_LARGE;
	if (q) {
		size_t qn = strlen(q + 1);
		if (qn > HTTP_QUERY_MAX)
			return HTTP_E_TOO_LARGE;
		enum http_err e = http_decode_form(a, q + 1, qn, &req->query);
		if (e)
			return e;
	}
	if (raw->body_len > HTTP_BODY_MAX)
		return HTTP_E_TOO_LARGE;
	if (raw->body_len > 0) {
		if (!raw->content_type ||
		    !media_type_is(raw->content_type, "application/x-www-form-urlencoded"))
			return HTTP_E_BODY_TYPE;
		enum http_err e = http_decode_form(a, raw->body, raw->body_len, &req->form);
		if (e)
			return e;
	}
	return HTTP_E_NONE;
}

enum http_err http_validate(const struct http_fields *f, const struct http_rule *rules,
			    int nrules, struct http_value *out)
{
	for (int i = 0; i < f->n; i++) {
		int known = 0;
		for (int r = 0; r < nrules; r++)
			if (strcmp(f->f[i].key, rules[r].key) == 0)
				known = 1;
		if (!known)
			return HTTP_E_UNKNOWN;
	}
	for (int r = 0; r < nrules; r++) {
		const struct http_rule *ru = &rules[r];
		const char *s = http_get(f, ru->key);
		out[r] = (struct http_value){ s != NULL, s ? s : "", 0 };
		if (!s) {
			if (ru->required)
				return HTTP_E_MISSING;
			continue;
		}
		size_t len = strlen(s);
		switch (ru->kind) {
		case HTTP_V_TEXT:
			if ((long long)len < ru->min || (long long)len > ru->max)
				return HTTP_E_INVALID;
			break;
		case HTTP_V_INT:
			if (http_int(s, ru->min, ru->max, &out[r].n) != 0)
				return HTTP_E_INVALID;
			break;
		case HTTP_V_BOOL:
			if (strcmp(s, "1") == 0 || strcmp(s, "on") == 0)
				out[r].n = 1;
			else if (strcmp(s, "0") == 0)
				out[r].n = 0;
			else
				return HTTP_E_INVALID;
			break;
		case HTTP_V__MAX:
			abort();
		}
	}
	return HTTP_E_NONE;
}

void http_set_cookie(struct http_resp *r, const char *name, const char *value, long max_age)
{
	if (r->ncookies >= HTTP_SET_COOKIES_MAX) {
		fprintf(stderr, "http: too many cookies for one response (%s)\n", name);
		return;
	}
	r->cookies[r->ncookies++] = (struct http_cookie){ name, value, max_age };
}

static const char security_headers[] =
	"Content-Security-Policy: default-src 'self'; script-src 'self'; style-src 'self'; "
	"img-src 'self' data:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'\r\n"
	"X-Content-Type-Options: nosniff\r\n"
	"Referrer-Policy: same-origin\r\n"
	"X-Frame-Options: DENY\r\n"
	"Cache-Control: no-store\r\n";

/* 1 when s may go into a header line: printable ASCII, no CR/LF. */
static int header_safe(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7E)
			return 0;
	return 1;
}

static int cookie_safe(const char *name, const char *value)
{
	if (!*name)
		return 0;
	for (const char *k = name; *k; k++)
		if (!key_char((unsigned char)*k))
			return 0;
	for (const char *k = value; *k; k++)
		if (!cookie_char((unsigned char)*k))
			return 0;
	return 1;
}

/* Appends the n bytes at p to out at *len. */
static void put_str(char *out, size_t *len, const char *p, size_t n)
{
	memcpy(out + *len, p, n);
	*len += n;
}

/* Appends the decimal digits of v to out at *len. */
static void put_num(char *out, size_t *len, unsigned long long v)
{
	char d[20];
	int k = 0;
	do
		d[k++] = (char)('0' + v % 10);
	while (v /= 10);
	while (k)
		out[(*len)++] = d[--k];
}

/* Bodies up to this many bytes are copied behind the head and written with
 * it in one go; a longer one (a page) is written on its own after the head,
 * as copying it costs more than the second write (docs/benchmarks.md,
 * "Figures from the code's comments"). */
enum { BODY_COPY_MAX = 2048 };

int http_respond(struct arena *a, const struct http_conf *conf, const struct http_resp *r,
		 int head_only, http_write_fn write, void *ctx)
{
	enum http_status st = (unsigned)r->status < HTTP_STATUS__MAX ? r->status : HTTP_500;
	const char *ct = r->content_type;
	size_t blen = ct && r->body ? r->len : 0;
	char cookies[HTTP_SET_COOKIES_MAX * (HTTP_COOKIE_VALUE_MAX + 96)];   /* cl bytes used */
	size_t cl = 0;
	for (int i = 0; i < r->ncookies && i < HTTP_SET_COOKIES_MAX; i++) {
		const struct http_cookie *c = &r->cookies[i];
		if (!cookie_safe(c->name, c->value) || strlen(c->value) > HTTP_COOKIE_VALUE_MAX) {
			fprintf(stderr, "http: refusing cookie %s\n", c->name);
			return -1;
		}
		int n = snprintf(cookies + cl, sizeof cookies - cl,
				 "Set-Cookie: %s=%s; Path=/; Max-Age=%ld; HttpOnly; SameSite=Lax%s\r\n",
				 c->name, c->value, c->max_age > 0 ? c->max_age : 0,
				 conf && conf->secure_cookies ? "; Secure" : "");
		if (n < 0 || (size_t)n >= sizeof cookies - cl)
			return -1;
		cl += (size_t)n;
	}
	if ((r->location && !header_safe(r->location)) || (r->allow && !header_safe(r->allow)) ||
	    (ct && !header_safe(ct))) {
		fprintf(stderr, "http: refusing a header with control characters\n");
		return -1;
	}
	/* The head is put together with memcpy: formatting it with printf was
	 * much of an unchanged poll (docs/benchmarks.md). */
	size_t ctl = ct ? strlen(ct) : 0, locl = r->location ? strlen(r->location) : 0;
	size_t alwl = r->allow ? strlen(r->allow) : 0, rsl = strlen(statuses[st].reason);
	size_t cap = 32 + rsl + sizeof security_headers + cl + 16 + ctl + 12 + locl + 9 + alwl +
		     48 + 40 + (head_only || blen > BODY_COPY_MAX ? 0 : blen);
	char *all = arena_alloc_raw(a, cap);   /* only its first n bytes are written */
	if (!all)
		return -1;
	size_t n = 0;
	put_str(all, &n, "Status: ", 8);
	put_num(all, &n, (unsigned long long)statuses[st].code);
	all[n++] = ' ';
	put_str(all, &n, statuses[st].reason, rsl);
	put_str(all, &n, "\r\n", 2);
	put_str(all, &n, security_headers, sizeof security_headers - 1);
	put_str(all, &n, cookies, cl);
	if (ct) {
		put_str(all, &n, "Content-Type: ", 14);
		put_str(all, &n, ct, ctl);
		put_str(all, &n, "\r\n", 2);
	}
	if (r->location) {
		put_str(all, &n, "Location: ", 10);
		put_str(all, &n, r->location, locl);
		put_str(all, &n, "\r\n", 2);
	}
	if (r->allow) {
		put_str(all, &n, "Allow: ", 7);
		put_str(all, &n, r->allow, alwl);
		put_str(all, &n, "\r\n", 2);
	}
	if (r->retry_after > 0) {
		put_str(all, &n, "Retry-After: ", 13);
		put_num(all, &n, (unsigned long long)r->retry_after);
		put_str(all, &n, "\r\n", 2);
	}
	if (st != HTTP_204) {   /* no Content-Length on a 204 (RFC 9110, 8.6) */
		put_str(all, &n, "Content-Length: ", 16);
		put_num(all, &n, (unsigned long long)blen);
		put_str(all, &n, "\r\n", 2);
	}
	put_str(all, &n, "\r\n", 2);
	if (head_only || !blen)
		return write(ctx, all, n);
	if (blen > BODY_COPY_MAX)   /* a page: written from where it lies, not copied */
		return write(ctx, all, n) == 0 ? write(ctx, r->body, blen) : -1;
	put_str(all, &n, r->body, blen);   /* a small answer: one write */
	return write(ctx, all, n);
}
