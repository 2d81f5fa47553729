/* chat.c — the table chat's rules (chat.h); the SQL is in store/sql-chat.c. */
#include <stdio.h>
#include <string.h>

#include "chat.h"

static int from_store(int st, int missing)
{
	switch (st) {
	case ST_OK: return CHAT_OK;
	case ST_NOTFOUND: return missing;
	case ST_BUSY: return CHAT_BUSY;
	case ST_FULL: return CHAT_NOSPACE;
	default: return CHAT_ERR;
	}
}

/* The code point at *p (advancing it), or -1 for a malformed sequence. */
static long next_cp(const unsigned char **p)
{
	const unsigned char *s = *p;
	long cp;
	int n;
	if (s[0] < 0x80) {
		*p = s + 1;
		return s[0];
	}
	if ((s[0] & 0xE0) == 0xC0) {
		cp = s[0] & 0x1F;
		n = 1;
	} else if ((s[0] & 0xF0) == 0xE0) {
		cp = s[0] & 0x0F;
		n = 2;
	} else if ((s[0] & 0xF8) == 0xF0) {
		cp = s[0] & 0x07;
		n = 3;
	} else {
		return -1;
	}
	for (int i = 1; i <= n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return -1;
		cp = cp << 6 | (s[i] & 0x3F);
	}
	static const long least[4] = { 0, 0x80, 0x800, 0x10000 };
	if (cp < least[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return -1;
	*p = s + n + 1;
	return cp;
}

/* Control characters, line breaks inside the text, and the invisible
 * marks that reorder what follows (bidirectional overrides and isolates). */
static int refused_cp(long cp)
{
	return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 ||
	       (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

static int blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

int chat_clean(const char *text, char *out, size_t cap, struct rerr *e)
{
	const char *a = text ? text : "", *b;
	while (blank(*a))
		a++;
	b = a + strlen(a);
	while (b > a && blank(b[-1]))
		b--;
	if (b == a) {
		rerr_set(e, "Die Nachricht ist leer.");
		return CHAT_INVALID;
	}
	long chars = 0;
	for (const unsigned char *p = (const unsigned char *)a; p < (const unsigned char *)b;) {
		long cp = next_cp(&p);
		if (cp < 0 || p > (const unsigned char *)b) {
			rerr_set(e, "Die Nachricht ist kein gültiger Text.");
			return CHAT_INVALID;
		}
		if (refused_cp(cp)) {
			rerr_set(e, "Steuerzeichen und Zeilenumbrüche gehen im Chat nicht.");
			return CHAT_INVALID;
		}
		chars++;
	}
	size_t n = (size_t)(b - a);
	if (chars > CHAT_CHARS_MAX || n + 1 > cap) {
		rerr_set(e, "Eine Nachricht hat höchstens %d Zeichen, diese hat %ld.", CHAT_CHARS_MAX,
			 chars);
		return CHAT_INVALID;
	}
	memcpy(out, a, n);
	out[n] = '\0';
	return CHAT_OK;
}

/* CHAT_OK when `user` holds a seat at `table` (CHAT_NOT_FOUND: no table). */
static int seated(struct store *s, int64_t table, int64_t user, struct rerr *e)
{
	struct st_table t;
	struct st_seat seats[GAME_MAX_SEATS];
	int n = 0, rc = from_store(store_table_get(s, table, &t), CHAT_NOT_FOUND);
	if (rc == CHAT_OK)
		rc = from_store(store_table_seats(s, table, seats, GAME_MAX_SEATS, &n), CHAT_ERR);
	if (rc != CHAT_OK)
		return rc;
	for (int i = 0; i < n; i++)
		if (user > 0 && seats[i].user_id == user)
			return CHAT_OK;
	rerr_set(e, "Schreiben kann nur, wer an diesem Tisch sitzt; lesen kann jeder.");
	return CHAT_NOT_SEATED;
}

/* CHAT_OK while `user` wrote fewer than CHAT_RATE_COUNT messages at `table`
 * within CHAT_RATE_MS before now. */
static int rate_ok(struct store *s, int64_t table, int64_t user, int64_t now, struct rerr *e)
{
	int count = 0;
	int64_t oldest = 0;
	int rc = from_store(store_chat_rate(s, table, user, now - CHAT_RATE_MS, &count, &oldest),
			    CHAT_ERR);
	if (rc != CHAT_OK || count < CHAT_RATE_COUNT)
		return rc;
	long long wait = (oldest + CHAT_RATE_MS - now + 999) / 1000;
	rerr_set(e, "Langsam: höchstens %d Nachrichten in %d Sekunden. In %lld s kannst du "
		 "wieder schreiben.", CHAT_RATE_COUNT, CHAT_RATE_MS / 1000, wait > 0 ? wait : 1);
	return CHAT_TOO_FAST;
}

int chat_post(struct store *s, int64_t table, int64_t user, const char *text, int64_t now_ms,
	      struct rerr *e)
{
	char clean[ST_CHAT_BYTES + 1];
	int rc = chat_clean(text, clean, sizeof clean, e);
	if (rc != CHAT_OK)
		return rc;
	if ((rc = from_store(store_begin(s), CHAT_ERR)) != CHAT_OK)
		return rc;
	rc = seated(s, table, user, e);
	if (rc == CHAT_OK)
		rc = rate_ok(s, table, user, now_ms, e);
	if (rc == CHAT_OK)
		rc = from_store(store_chat_add(s, table, user, clean, now_ms), CHAT_ERR);
	if (rc == CHAT_OK)
		rc = from_store(store_table_bump_public(s, table, NULL), CHAT_NOT_FOUND);
	if (rc != CHAT_OK) {
		store_rollback(s);
		return rc;
	}
	return from_store(store_commit(s), CHAT_ERR);
}

int chat_mute(struct store *s, int64_t table, int64_t user, int64_t muted, int on,
	      int64_t now_ms, struct rerr *e)
{
	struct st_table t;
	if (on && muted == user) {
		rerr_set(e, "Dich selbst kannst du nicht stumm schalten.");
		return CHAT_INVALID;
	}
	int rc = from_store(store_begin(s), CHAT_ERR);
	if (rc != CHAT_OK)
		return rc;
	rc = from_store(store_table_get(s, table, &t), CHAT_NOT_FOUND);
	if (rc == CHAT_OK)
		rc = from_store(store_chat_mute(s, table, user, muted, on, now_ms), CHAT_NO_AUTHOR);
	if (rc != CHAT_OK) {
		if (rc == CHAT_NO_AUTHOR)
			rerr_set(e, "Diese Person hat an diesem Tisch nichts geschrieben.");
		store_rollback(s);
		return rc;
	}
	return from_store(store_commit(s), CHAT_ERR);
}
