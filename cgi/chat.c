/* chat.c — the table chat's rules (chat.h); the SQL is in store.c. */
#include <stdio.h>
#include <string.h>

#include "chat.h"
#include "text.h"

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
	/* the text's own checks (text.h): line breaks, controls, the marks that
	 * reorder or hide text, stacked combining marks; NFC */
	char in[ST_CHAT_BYTES + 1];
	size_t n = (size_t)(b - a), chars = 0;
	if (n + 1 > sizeof in || n + 1 > cap) {
		rerr_set(e, "Eine Nachricht hat höchstens %d Zeichen.", CHAT_CHARS_MAX);
		return CHAT_INVALID;
	}
	memcpy(in, a, n);
	in[n] = '\0';
	if (text_clean(in, out, cap, &chars, e) != 0)
		return CHAT_INVALID;
	if (chars > CHAT_CHARS_MAX) {
		out[0] = '\0';
		rerr_set(e, "Eine Nachricht hat höchstens %d Zeichen, diese hat %ld.", CHAT_CHARS_MAX,
			 (long)chars);
		return CHAT_INVALID;
	}
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
