/* cmd-mail.c — `spieltisch mail`: delivers the queued e-mail notices
 * (012_mail.sql, mail.h). The web workers may not start programs, so they
 * only queue; this command, run by the operator's timer, renders each due
 * mail from its text template (templates/mail-*.txt.tpl: the first line
 * is the subject), pipes it with its headers into the sendmail command
 * (`sendmail -t` reads the recipient from To:) and marks it sent. A failed
 * try is retried later, MAIL_ATTEMPTS times at most, each wait longer. A
 * mail that is no longer true (the turn was played, mail was turned off)
 * is dropped, not sent. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "arena.h"
#include "cmd.h"
#include "game.h"
#include "i18n.h"
#include "store.h"
#include "tmpl.h"
#include "view.h"

enum { MAIL_BATCH = 50, MAIL_ATTEMPTS = 5, MAIL_DIGEST_TABLES = 30, SUBJECT_CHUNK = 45,
       ARENA_LIMIT = 1 << 20, SERVICE_PAUSE_S = 60 };
#define RETRY_MS (5 * 60 * 1000LL)
#define KEEP_MS (30 * 24 * 3600 * 1000LL)

struct mailer {
	struct store *s;
	const char *sendmail, *base, *from, *host;
	struct arena *a;
	int64_t now;
};

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static const char *game_title(const char *slug)
{
	const struct game *g = game_find(slug);
	return g ? g->title : slug;
}

struct digest {
	struct mailer *m;
	struct view *v;
	int n;
};

static void digest_row(void *ctx, const struct st_table *t, int seats_taken)
{
	struct digest *d = ctx;
	(void)seats_taken;
	view_begin(d->v, "tables");
	view_num(d->v, "id", t->id);
	view_str(d->v, "game_title", game_title(t->game));
	view_str(d->v, "url", arena_printf(d->m->a, "%s/t/%lld", d->m->base, (long long)t->id));
	view_end(d->v);
	d->n++;
}

/* The mail's text (subject line, blank line, body) into *text, or NULL
 * when it is no longer true (dropped). 0, or -1 on an error. */
static int render(struct mailer *m, const struct st_mail *q, char **text)
{
	struct view v;
	size_t len = 0;
	int yes = 0;
	*text = NULL;
	int l = i18n_parse(q->lang);   /* the account's language; German when none */
	i18n_use(l >= 0 ? (enum lang)l : LANG_DE);
	view_init(&v, m->a);
	view_str(&v, "name", q->name);
	view_str(&v, "me_url", arena_printf(m->a, "%s/me#mail", m->base));
	view_str(&v, "off_url", arena_printf(m->a, "%s/mail/off/%s", m->base, q->token));
	if (q->kind == ST_MAIL_TURN) {
		struct st_table t;
		if (store_mail_acting(m->s, q->user_id, q->table_id, &yes) != ST_OK)
			return -1;
		if (!yes || store_table_get(m->s, q->table_id, &t) != ST_OK)
			return 0;
		view_num(&v, "table_id", t.id);
		view_str(&v, "game_title", game_title(t.game));
		view_str(&v, "table_url", arena_printf(m->a, "%s/t/%lld", m->base, (long long)t.id));
	} else {
		struct digest d = { m, &v, 0 };
		view_list(&v, "tables");
		if (store_mail_acting_tables(m->s, q->user_id, MAIL_DIGEST_TABLES, digest_row, &d) !=
		    ST_OK)
			return -1;
		if (!d.n)
			return 0;
		view_num(&v, "count", d.n);
		view_flag(&v, d.n == 1 ? "one" : "many", 1);
	}
	*text = v.failed ? NULL : tmpl_expand(m->a, q->kind == ST_MAIL_TURN ? "mail-turn.txt.tpl" :
					       "mail-digest.txt.tpl", &v.root, &len);
	return *text ? 0 : -1;
}

/* The subject as RFC 2047 encoded words of at most SUBJECT_CHUNK bytes
 * each, never splitting a UTF-8 character, folded onto lines of their own. */
static const char *encode_subject(struct arena *a, const char *s, size_t len)
{
	const char *out = "";
	while (len > 0 && out) {
		size_t n = len < SUBJECT_CHUNK ? len : SUBJECT_CHUNK;
		while (n < len && n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
			n--;
		char b64[sodium_base64_ENCODED_LEN(SUBJECT_CHUNK, sodium_base64_VARIANT_ORIGINAL)];
		sodium_bin2base64(b64, sizeof b64, (const unsigned char *)s, n,
				  sodium_base64_VARIANT_ORIGINAL);
		out = arena_printf(a, "%s%s=?UTF-8?B?%s?=", out, out[0] ? "\n " : "", b64);
		s += n;
		len -= n;
	}
	return out;
}

/* The whole message: headers, a blank line, the body (LF line ends, as a
 * local sendmail expects). NULL when the arena is full. */
static const char *message(struct mailer *m, const struct st_mail *q, const char *text)
{
	const char *nl = strchr(text, '\n');
	size_t slen = nl ? (size_t)(nl - text) : strlen(text);
	const char *body = nl ? nl + 1 : "";
	while (*body == '\n')
		body++;
	char date[64];
	time_t t = (time_t)(m->now / 1000);
	struct tm tm;
	if (!gmtime_r(&t, &tm) || !strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S +0000", &tm))
		return NULL;
	const char *subject = encode_subject(m->a, text, slen);
	return subject ? arena_printf(m->a,
		"From: %s\nTo: %s\nSubject: %s\nDate: %s\n"
		"Message-ID: <mail-%lld.%lld@%s>\nMIME-Version: 1.0\n"
		"Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n"
		"List-Unsubscribe: <%s/mail/off/%s>\nAuto-Submitted: auto-generated\n\n%s",
		m->from, q->address, subject, date, (long long)q->id, (long long)q->created_at,
		m->host, m->base, q->token, body) : NULL;
}

/* Pipes msg into the sendmail command: 0 when it took it (exit status 0). */
static int pipe_to_sendmail(const struct mailer *m, const char *msg)
{
	FILE *p = popen(m->sendmail, "w");
	if (!p) {
		perror("mail: sendmail");
		return -1;
	}
	size_t len = strlen(msg);
	int ok = fwrite(msg, 1, len, p) == len;
	int st = pclose(p);
	if (!ok || st != 0) {
		fprintf(stderr, "mail: sendmail failed (status %d)\n", st);
		return -1;
	}
	return 0;
}

/* Records what became of mail q: state, or a retry. */
static int record(struct mailer *m, const struct st_mail *q, int state)
{
	int rc = store_begin(m->s);
	if (rc != ST_OK)
		return rc;
	if (state == ST_MAIL_QUEUED && q->attempts + 1 < MAIL_ATTEMPTS)
		rc = store_mail_retry(m->s, q->id, m->now + (RETRY_MS << q->attempts));
	else
		rc = store_mail_done(m->s, q->id, state == ST_MAIL_QUEUED ? ST_MAIL_FAILED : state,
				     m->now);
	if (rc != ST_OK) {
		store_rollback(m->s);
		return rc;
	}
	return store_commit(m->s);
}

/* One mail: sent, dropped, or kept for a retry. 0, or -1 on a store error. */
static int deliver(struct mailer *m, const struct st_mail *q)
{
	char *text = NULL;
	arena_reset(m->a);
	if (q->mode != q->kind || !q->address[0])   /* the choice changed meanwhile */
		return record(m, q, ST_MAIL_DROPPED) == ST_OK ? 0 : -1;
	if (render(m, q, &text) != 0)
		return -1;
	if (!text)
		return record(m, q, ST_MAIL_DROPPED) == ST_OK ? 0 : -1;
	const char *msg = message(m, q, text);
	int sent = msg && pipe_to_sendmail(m, msg) == 0;
	if (sent)
		printf("mail: %lld to user %lld sent\n", (long long)q->id, (long long)q->user_id);
	return record(m, q, sent ? ST_MAIL_SENT : ST_MAIL_QUEUED) == ST_OK ? 0 : -1;
}

/* Forgets mails that left the queue KEEP_MS ago. */
static int purge(struct mailer *m)
{
	int rc = store_begin(m->s);
	if (rc == ST_OK && (rc = store_mail_purge(m->s, m->now - KEEP_MS)) != ST_OK)
		store_rollback(m->s);
	else if (rc == ST_OK)
		rc = store_commit(m->s);
	return rc == ST_OK ? 0 : -1;
}

/* One pass over the due mails (MAIL_BATCH at most). 0, or -1. */
static int pass(struct mailer *m)
{
	struct st_mail *q = malloc(sizeof *q * MAIL_BATCH);
	int n = 0, rc = -1;
	m->now = now_ms();
	if (q && store_mail_due(m->s, m->now, q, MAIL_BATCH, &n) == ST_OK) {
		rc = 0;
		for (int i = 0; i < n && rc == 0; i++)
			rc = deliver(m, &q[i]);
	}
	free(q);
	return rc == 0 ? purge(m) : rc;
}

struct mail_opts {
	const char *db, *sendmail, *root, *base, *from;
	int once;
};

static int mail_usage(void)
{
	fprintf(stderr, "usage: spieltisch mail --db FILE --sendmail CMD --base URL --from ADDR "
		"[--root DIR] [--once]\n");
	return 2;
}

/* The options into o: 0, or -1 for a wrong or missing one. */
static int mail_args(int argc, char **argv, struct mail_opts *o)
{
	*o = (struct mail_opts){ .root = "." };
	for (int i = 1; i < argc; i++) {
		const char **dst = strcmp(argv[i], "--db") == 0 ? &o->db :
				   strcmp(argv[i], "--sendmail") == 0 ? &o->sendmail :
				   strcmp(argv[i], "--root") == 0 ? &o->root :
				   strcmp(argv[i], "--base") == 0 ? &o->base :
				   strcmp(argv[i], "--from") == 0 ? &o->from : NULL;
		if (strcmp(argv[i], "--once") == 0)
			o->once = 1;
		else if (dst && i + 1 < argc)
			*dst = argv[++i];
		else
			return -1;
	}
	if (!o->db || !o->sendmail || !o->base || !o->from || strpbrk(o->from, "\r\n") ||
	    (strncmp(o->base, "http://", 7) != 0 && strncmp(o->base, "https://", 8) != 0))
		return -1;
	return 0;
}

/* The host of the base URL, for the Message-IDs. */
static const char *base_host(struct arena *a, const char *base)
{
	const char *h = strstr(base, "://") + 3;
	size_t n = strcspn(h, ":/");
	return n ? arena_strndup(a, h, n) : "localhost";
}

int cmd_mail(int argc, char **argv)
{
	struct mail_opts o;
	char path[4096];
	if (mail_args(argc, argv, &o) != 0)
		return mail_usage();
	signal(SIGPIPE, SIG_IGN);   /* a sendmail that exits early: an error, not death */
	snprintf(path, sizeof path, "%s/templates", o.root);
	if (sodium_init() < 0 || i18n_load_root(o.root) != 0 || tmpl_load(path) != 0)
		return 1;
	struct arena a, names;
	arena_init(&a, ARENA_LIMIT);
	arena_init(&names, 4096);
	struct mailer m = { .sendmail = o.sendmail, .base = o.base, .from = o.from, .a = &a };
	m.host = base_host(&names, o.base);
	snprintf(path, sizeof path, "%s/schema", o.root);
	if (!m.host || store_open(&m.s, o.db, path) != ST_OK) {
		arena_free(&a);
		arena_free(&names);
		return 1;
	}
	int rc = pass(&m);
	while (!o.once && rc == 0) {   /* as a service: a pass a minute until stopped */
		sleep(SERVICE_PAUSE_S);
		rc = pass(&m);
	}
	store_close(m.s);
	arena_free(&a);
	arena_free(&names);
	return rc == 0 ? 0 : 1;
}
