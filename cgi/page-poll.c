/*
 * page-poll.c — GET /t/<id>/poll?v=N, built for one request every 2 s per
 * open page (static/poll.js; slower while the tab is hidden).
 *
 * One indexed read (store_table_poll), no session lookup, no decoding of the
 * game state: 204 while the table is still at version N and no deadline has
 * passed; otherwise 200 with the current version as the body ("17\n") and
 * the page reloads (the reload applies the passed deadline).
 *
 * GET /me/poll/<token>?v=N does the same for "Meine Tische": N is the
 * number store_user_poll() keeps for all of the user's tables, the token
 * the secret of the user's poll address (auth_poll_token): one indexed read
 * whatever the number of tables, and no session lookup (GET /me/poll?v=N
 * answers the same after the session's). GET
 * /tournaments/<id>/poll?v=N for a tournament's page: its version, and
 * its start while it registers.
 */
#include <string.h>

#include "page.h"

/* v from the query into *seen; 0, or -1 with the error page answered. */
static int seen_version(struct page *p, int64_t *seen)
{
	static const struct http_rule rules[] = { { "v", HTTP_V_INT, 1, 0, INT64_MAX } };
	struct http_value f[1];
	enum http_err err = http_validate(&p->req->query, rules, 1, f);
	if (err) {
		page_error(p, http_err_status(err), http_err_key(err));
		return -1;
	}
	*seen = f[0].n;
	return 0;
}

/* 204 while `version` is the one seen and no deadline has passed, else 200
 * with the version. */
static void answer(struct page *p, int64_t seen, int64_t version, int64_t deadline)
{
	if (version == seen && !(deadline > 0 && deadline <= p->now_ms)) {
		page_status(p, HTTP_204, NULL);
		return;
	}
	char *body = arena_printf(p->a, "%lld\n", (long long)version);
	page_status(p, HTTP_200, body ? body : "\n");
}

/* 204, 200 (text/plain version), 400 (v missing or not a number), 404,
 * 500. */
void page_poll(struct page *p)
{
	int64_t seen, version = 0, deadline = 0;
	if (seen_version(p, &seen) != 0)
		return;
	int rc = store_table_poll(p->store, p->id, &version, &deadline);
	if (rc == ST_NOTFOUND) {
		page_error(p, HTTP_404, "notable");
		return;
	}
	if (rc != ST_OK) {
		page_fail(p, rc);
		return;
	}
	answer(p, seen, version, deadline);
}

/* The /me poll of the logged-in user, or of the poll token's (non-NULL):
 * 204, 200, 400, 404 (a token nobody has), 500. */
static void me_poll(struct page *p, const char *token)
{
	int64_t seen, sig = 0, deadline = 0;
	if (seen_version(p, &seen) != 0)
		return;
	int rc = store_user_poll(p->store, p->user_id, token, p->now_ms, &sig, &deadline);
	if (rc == ST_NOTFOUND && token) {
		page_error(p, HTTP_404, "notfound");
		return;
	}
	if (rc != ST_OK) {
		page_fail(p, rc);
		return;
	}
	answer(p, seen, sig, deadline);
}

/* GET /me/poll: 204, 200, 400, 500 as page_poll. */
void page_me_poll(struct page *p)
{
	me_poll(p, NULL);
}

/* GET /me/poll/<token>, what the page polls: the same without a session. */
void page_me_poll_token(struct page *p)
{
	me_poll(p, p->req->path + strlen("/me/poll/"));
}

/* GET /tournaments/<id>/poll: 204, 200, 400, 404, 503, 500. */
void page_tournament_poll(struct page *p)
{
	int64_t seen, version = 0, start = 0;
	if (seen_version(p, &seen) != 0)
		return;
	int rc = store_tourney_poll(p->store, p->id, &version, &start);
	if (rc != ST_OK) {
		page_fail(p, rc);
		return;
	}
	answer(p, seen, version, start);
}
