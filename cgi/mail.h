/* mail.h — the optional e-mail notices (docs/reliability.md, "Mail is
 * queued"): what the web workers do about them. They only queue mails in
 * the store (012_mail.sql); `spieltisch mail` (cmd-mail.c) renders and
 * sends them. Mail is off unless the environment has SPIELTISCH_MAIL=1. */
#ifndef SPIELTISCH_MAIL_H
#define SPIELTISCH_MAIL_H

#include <stdint.h>

#include "store.h"

/* 1 when the operator turned mail on (SPIELTISCH_MAIL=1). */
int mail_enabled(void);

/* 1 when s is an address we send to: at most ST_MAIL_ADDR_MAX bytes of
 * printable ASCII, local@domain, no blanks, quotes, angle brackets or
 * other characters with a meaning in a mail header; the domain has labels
 * of letters, digits and '-' joined by dots. */
int mail_address_ok(const char *s);

/* A new unsubscribe token: 32 random bytes as 43 characters of base64url. */
void mail_token_new(char out[ST_MAIL_TOKEN_LEN + 1]);

/* The lobby's housekeeping: queues the digest of at most `max` users whose
 * choice it is, for whom a table waits and whose last digest is at least
 * `day_ms` old; the next look at theirs is a day later. *queued: how many. */
int mail_digest_sweep(struct store *s, int64_t now, int64_t day_ms, int max, int *queued);

#endif
