/*
 * page-poll.c — GET /t/<id>/poll?v=N, built for one request every 2 s per
 * open page (static/poll.js; slower while the tab is hidden).
 *
 * One indexed read (store_table_poll), no session lookup, no decoding of the
 * game state: 204 while the table is still at version N and no deadline has
 * passed; otherwise 200 with the current version as the body ("17\n") and
 * the page reloads (the reload applies the passed deadline).
 */
#include "page.h"

/* 204, 200 (text/plain version), 400 (v missing or not a number), 404,
 * 500. */
void page_poll(struct page *p)
{
	static const struct http_rule rules[] = { { "v", HTTP_V_INT, 1, 0, INT64_MAX } };
	struct http_value f[1];
	enum http_err err = http_validate(&p->req->query, rules, 1, f);
	if (err) {
		page_error(p, http_err_status(err), http_err_key(err));
		return;
	}
	int64_t version = 0, deadline = 0;
	int rc = store_table_poll(p->store, p->id, &version, &deadline);
	if (rc == ST_NOTFOUND) {
		page_error(p, HTTP_404, "notable");
		return;
	}
	if (rc != ST_OK) {
		page_error(p, rc == ST_BUSY ? HTTP_503 : HTTP_500, rc == ST_BUSY ? "busy" : "internal");
		return;
	}
	if (version == f[0].n && !(deadline > 0 && deadline <= p->now_ms)) {
		page_status(p, HTTP_204, NULL);
		return;
	}
	char *body = arena_printf(p->a, "%lld\n", (long long)version);
	page_status(p, HTTP_200, body ? body : "\n");
}
