/* page-chat.c — the table chat: POST /t/<id>/chat (a message, or muting an
 * author for oneself) and the chat card of the table page and its JSON
 * twin (page_chat_view). The rules are in chat.c, the text is escaped by
 * the template (never HTML here). */
#include <stdio.h>
#include <string.h>

#include "chat.h"
#include "i18n.h"
#include "page.h"

struct chatctx {
	struct page *p;
	struct view *v;
	int n;
	int muted_open;   /* the messages' flags are out, the muted list begun */
};

static void emit_message(void *ctx, const struct st_chat *m)
{
	struct chatctx *c = ctx;
	int mine = c->p->user_id && m->user_id == c->p->user_id;
	view_begin(c->v, "chat");
	view_str(c->v, "author", m->author);
	view_num(c->v, "author_id", m->user_id);
	view_str(c->v, "text", m->text);
	view_num(c->v, "at", m->at);
	view_str(c->v, "time", page_local_time(c->p, m->at, "%H:%M"));
	view_flag(c->v, "mine", mine);
	view_flag(c->v, "can_mute", c->p->user_id && !mine);
	view_end(c->v);
	c->n++;
}

/* After the last message: its flags, and the muted writers' list begun. */
static void open_muted(struct chatctx *c)
{
	if (c->muted_open)
		return;
	view_flag(c->v, "has_chat", c->n > 0);
	view_flag(c->v, "chat_empty", c->n == 0);
	c->n = 0;
	view_list(c->v, "chat_muted");
	c->muted_open = 1;
}

static void emit_muted(void *ctx, int64_t user_id, const char *name)
{
	struct chatctx *c = ctx;
	open_muted(c);
	view_begin(c->v, "chat_muted");
	view_num(c->v, "user_id", user_id);
	view_str(c->v, "name", name);
	view_end(c->v);
	c->n++;
}

/* The chat card's messages and the writers the viewer muted: one read
 * (store_chat_card), none when the table's chat has no message (has_chat,
 * read with the table: a writer muted here wrote a message here). */
int page_chat_view(struct page *p, int64_t table, int seated, int has_chat, struct view *v)
{
	struct chatctx c = { p, v, 0, 0 };
	const char *url = page_table_url(p, table, "/chat");
	const char *write = page_table_url(p, table, "?chat#chat");
	if (!url || !write)
		return -1;
	view_str(v, "chat_url", url);
	view_str(v, "chat_write_url", write);   /* no meta refresh while writing */
	view_flag(v, "can_chat", p->user_id && seated);
	view_flag(v, "chat_login_needed", !p->user_id);
	view_flag(v, "chat_readonly", p->user_id && !seated);
	view_num(v, "chat_max", CHAT_CHARS_MAX);
	view_str(v, "chat_text", p->chat_text ? p->chat_text : "");
	view_flag(v, "has_chat_note", p->chat_note != NULL);
	view_str(v, "chat_note", p->chat_note ? p->chat_note : "");
	view_list(v, "chat");
	if (has_chat && store_chat_card(p->store, table, p->user_id, CHAT_SHOW, emit_message,
					emit_muted, &c) != ST_OK)
		return -1;
	open_muted(&c);
	view_flag(v, "has_chat_muted", c.n > 0);
	return 0;
}

enum chat_field { CF_CSRF, CF_TEXT, CF_MUTE, CF_UNMUTE, CF__MAX };
static const struct http_rule chat_rules[] = {
	[CF_CSRF] = { "csrf", HTTP_V_TEXT, 1, 1, 64 },
	/* any length the decoder lets through: chat.c says what is too long */
	[CF_TEXT] = { "text", HTTP_V_TEXT, 0, 0, HTTP_VALUE_MAX },
	[CF_MUTE] = { "mute", HTTP_V_INT, 0, 1, INT64_MAX },
	[CF_UNMUTE] = { "unmute", HTTP_V_INT, 0, 1, INT64_MAX },
};
_Static_assert(sizeof chat_rules / sizeof chat_rules[0] == CF__MAX, "chat_rules");

/* A refusal (nothing was stored): the reason in the chat card and the text
 * back in the field, a browser on a GET URL (page_table_chat_refused). */
static void refuse(struct page *p, enum http_status status, const char *note, const char *text)
{
	page_table_chat_refused(p, status, note, text);
}

/* POST /t/<id>/chat with csrf and exactly one of: text (a seated player's
 * message), mute=<user id>, unmute=<user id>. 303 to the table's chat;
 * refused: 422 (text unfit, muting oneself or somebody who did not write
 * here), 409 (too many messages at once), 403 (no seat here) with the
 * page and the reason, for a browser a 303 back to it; 400, 404, 503, 500. */
void page_table_chat(struct page *p)
{
	struct http_value f[CF__MAX];
	enum http_err err = http_validate(&p->req->form, chat_rules, CF__MAX, f);
	int given = f[CF_TEXT].present + f[CF_MUTE].present + f[CF_UNMUTE].present;
	if (!err && given != 1)
		err = given ? HTTP_E_INVALID : HTTP_E_MISSING;
	if (err) {
		page_error(p, http_err_status(err), http_err_key(err));
		return;
	}
	struct rerr e = { .msg = "" };
	int rc;
	if (f[CF_TEXT].present)
		rc = chat_post(p->store, p->id, p->user_id, f[CF_TEXT].s, p->now_ms, &e);
	else
		rc = chat_mute(p->store, p->id, p->user_id,
			       f[CF_MUTE].present ? f[CF_MUTE].n : f[CF_UNMUTE].n,
			       f[CF_MUTE].present, p->now_ms, &e);
	const char *text = f[CF_TEXT].present ? f[CF_TEXT].s : NULL;
	switch (rc) {
	case CHAT_OK:
		page_redirect_table(p, p->id, "#chat");
		return;
	case CHAT_INVALID:
	case CHAT_NO_AUTHOR:
		refuse(p, HTTP_422, i18n_rerr(&e), text);
		return;
	case CHAT_TOO_FAST:
		refuse(p, HTTP_409, i18n_rerr(&e), text);
		return;
	case CHAT_NOT_SEATED:
		refuse(p, HTTP_403, i18n_rerr(&e), NULL);
		return;
	case CHAT_NOT_FOUND:
		page_error(p, HTTP_404, "notable");
		return;
	case CHAT_BUSY:
		page_error(p, HTTP_503, "busy");
		return;
	case CHAT_NOSPACE:
		page_error(p, HTTP_503, "nospace");
		return;
	default:
		page_error(p, HTTP_500, "internal");
	}
}
