/* mail.c — queueing the e-mail notices (mail.h). */
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "mail.h"

int mail_enabled(void)
{
	const char *env = getenv("SPIELTISCH_MAIL");
	return env && strcmp(env, "1") == 0;
}

/* A character of an address's local part (RFC 5322 atext and the dot). */
static int local_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr(".!#$%&'*+/=?^_`{|}~-", c));
}

/* A domain: labels of letters, digits and '-', 1..63 each, joined by dots. */
static int domain_ok(const char *d)
{
	size_t label = 0;
	for (const char *c = d;; c++) {
		if (*c == '.' || *c == '\0') {
			if (label == 0 || label > 63 || c[-1] == '-' || c[-label] == '-')
				return 0;
			if (*c == '\0')
				return 1;
			label = 0;
		} else if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			   (*c >= '0' && *c <= '9') || *c == '-')
			label++;
		else
			return 0;
	}
}

int mail_address_ok(const char *s)
{
	if (!s)
		return 0;
	size_t len = strnlen(s, ST_MAIL_ADDR_MAX + 1);
	const char *at = strrchr(s, '@');
	if (len > ST_MAIL_ADDR_MAX || !at || at == s || at - s > 64 || s[0] == '.' ||
	    at[-1] == '.' || strstr(s, ".."))
		return 0;
	for (const char *c = s; c < at; c++)
		if (!local_char(*c))
			return 0;
	return domain_ok(at + 1);
}

void mail_token_new(char out[ST_MAIL_TOKEN_LEN + 1])
{
	unsigned char raw[32];
	randombytes_buf(raw, sizeof raw);
	sodium_bin2base64(out, ST_MAIL_TOKEN_LEN + 1, raw, sizeof raw,
			  sodium_base64_VARIANT_URLSAFE_NO_PADDING);
}

int mail_digest_sweep(struct store *s, int64_t now, int64_t day_ms, int max, int *queued)
{
	enum { SWEEP_MAX = 16 };
	int64_t ids[SWEEP_MAX];
	int n = 0, rc;
	*queued = 0;
	if (max > SWEEP_MAX)
		max = SWEEP_MAX;
	if ((rc = store_mail_digest_due(s, now, ids, max, &n)) != ST_OK)
		return rc;
	for (int i = 0; i < n; i++) {
		if ((rc = store_begin(s)) != ST_OK)
			return rc;
		if ((rc = store_mail_digest_queue(s, ids[i], now, now + day_ms)) != ST_OK) {
			store_rollback(s);
			return rc;
		}
		if ((rc = store_commit(s)) != ST_OK)
			return rc;
		(*queued)++;
	}
	return ST_OK;
}
