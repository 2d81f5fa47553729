/* test_chat.c — the table chat's rules (cgi/chat.c) and its SQL (store/sql-chat.c)
 * against real database files: the text's limits, who may write, the rate
 * limit, the version bump that leaves the epoch alone, the order and the
 * number of messages shown, muting. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "chat.h"
#include "tmpdb.h"

enum { T0 = 1000000 };

struct fx {
	struct tmpdb db;
	int64_t anna, bert, carla, table;
};

static int64_t make_user(struct store *s, const char *name)
{
	int64_t id = 0;
	assert_int_equal(store_user_create(s, name, "$argon2id$x", 1000, &id), ST_OK);
	return id;
}

/* A table of two seats, anna and bert seated, carla only watching. */
static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof *f);
	if (!f || tmpdb_open(&f->db) != 0) {
		free(f);
		return -1;
	}
	struct store *s = f->db.s;
	int seat = -1;
	f->anna = make_user(s, "anna");
	f->bert = make_user(s, "bert");
	f->carla = make_user(s, "carla");
	assert_int_equal(store_table_create(s, "drehwurm", "", 2, 1, f->anna, 2000, &f->table),
			 ST_OK);
	assert_int_equal(store_seat_take(s, f->table, f->anna, &seat), ST_OK);
	assert_int_equal(store_seat_take(s, f->table, f->bert, &seat), ST_OK);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	tmpdb_close(&f->db);
	free(f);
	return 0;
}

struct seen {
	int n;
	int64_t author[64];
	char text[64][ST_CHAT_BYTES + 1];
};

static void collect(void *ctx, const struct st_chat *m)
{
	struct seen *w = ctx;
	if (w->n < 64) {
		w->author[w->n] = m->user_id;
		snprintf(w->text[w->n], sizeof w->text[0], "%s", m->text);
	}
	w->n++;
}

static struct seen *recent(struct fx *f, int64_t viewer, int limit)
{
	static struct seen w;
	memset(&w, 0, sizeof w);
	assert_int_equal(store_chat_recent(f->db.s, f->table, viewer, limit, collect, &w), ST_OK);
	return &w;
}

static void test_clean_limits(void **state)
{
	(void)state;
	char out[ST_CHAT_BYTES + 1], in[ST_CHAT_BYTES + 64];
	struct rerr e = { .msg = "" };
	assert_int_equal(chat_clean("  Hallo Tisch! \t\r\n", out, sizeof out, &e), CHAT_OK);
	assert_string_equal(out, "Hallo Tisch!");
	assert_int_equal(chat_clean("<script>alert(1)</script>", out, sizeof out, &e), CHAT_OK);
	assert_string_equal(out, "<script>alert(1)</script>");   /* the template escapes */
	assert_int_equal(chat_clean("gut gespielt \xF0\x9F\x91\x8D", out, sizeof out, &e), CHAT_OK);

	assert_int_equal(chat_clean("", out, sizeof out, &e), CHAT_INVALID);
	assert_int_equal(chat_clean(" \t \n ", out, sizeof out, &e), CHAT_INVALID);
	assert_non_null(strstr(e.msg, "leer"));
	assert_int_equal(chat_clean("zwei\nZeilen", out, sizeof out, &e), CHAT_INVALID);
	assert_non_null(strstr(e.msg, "Steuerzeichen"));
	assert_int_equal(chat_clean("a\x01" "b", out, sizeof out, &e), CHAT_INVALID);
	assert_int_equal(chat_clean("a\x7F" "b", out, sizeof out, &e), CHAT_INVALID);
	assert_int_equal(chat_clean("a\xC2\x85" "b", out, sizeof out, &e), CHAT_INVALID);   /* C1 */
	assert_int_equal(chat_clean("a\xE2\x80\xAE" "b", out, sizeof out, &e), CHAT_INVALID);  /* RLO */
	assert_int_equal(chat_clean("a\xC3" "b", out, sizeof out, &e), CHAT_INVALID);   /* not UTF-8 */
	assert_int_equal(chat_clean("a\xC0\xAF", out, sizeof out, &e), CHAT_INVALID);   /* overlong */

	/* 300 characters fit, counted as characters (ä is two bytes), not 301 */
	in[0] = '\0';
	for (int i = 0; i < CHAT_CHARS_MAX; i++)
		strcat(in, "\xC3\xA4");
	assert_int_equal(chat_clean(in, out, sizeof out, &e), CHAT_OK);
	assert_int_equal(strlen(out), 2 * CHAT_CHARS_MAX);
	strcat(in, "x");
	assert_int_equal(chat_clean(in, out, sizeof out, &e), CHAT_INVALID);
	assert_non_null(strstr(e.msg, "300"));
	assert_non_null(strstr(e.msg, "301"));
	memset(in, 'x', CHAT_CHARS_MAX);
	strcpy(in + CHAT_CHARS_MAX, "   ");   /* blanks around do not count */
	assert_int_equal(chat_clean(in, out, sizeof out, &e), CHAT_OK);
}

/* Only the seated write; a refusal stores nothing and bumps nothing. */
static void test_who_writes(void **state)
{
	struct fx *f = *state;
	struct store *s = f->db.s;
	struct st_table t0, t1;
	struct rerr e = { .msg = "" };
	assert_int_equal(store_table_get(s, f->table, &t0), ST_OK);
	assert_int_equal(chat_post(s, f->table, f->carla, "Hallo", T0, &e), CHAT_NOT_SEATED);
	assert_non_null(strstr(e.msg, "sitzt"));
	assert_int_equal(chat_post(s, f->table, 0, "Hallo", T0, &e), CHAT_NOT_SEATED);
	assert_int_equal(chat_post(s, f->table + 99, f->anna, "Hallo", T0, &e), CHAT_NOT_FOUND);
	assert_int_equal(chat_post(s, f->table, f->anna, "   ", T0, &e), CHAT_INVALID);
	assert_int_equal(store_table_get(s, f->table, &t1), ST_OK);
	assert_int_equal(t1.version, t0.version);
	assert_int_equal(recent(f, 0, 30)->n, 0);

	assert_int_equal(chat_post(s, f->table, f->anna, " Hallo ", T0, &e), CHAT_OK);
	assert_int_equal(chat_post(s, f->table, f->bert, "Servus", T0 + 1, &e), CHAT_OK);
	struct seen *w = recent(f, f->carla, 30);   /* everybody reads */
	assert_int_equal(w->n, 2);
	assert_string_equal(w->text[0], "Servus");
	assert_string_equal(w->text[1], "Hallo");
	assert_true(w->author[1] == f->anna);
}

/* A message is a change every page sees (version and public_version), but
 * the epoch, its version and the deadline stay: no page becomes stale. */
static void test_bump_keeps_epoch(void **state)
{
	struct fx *f = *state;
	struct store *s = f->db.s;
	struct st_table t0, t1;
	struct rerr e = { .msg = "" };
	int64_t v = 0;
	assert_int_equal(store_table_bump(s, f->table, -1, T0 + 60000, 7, &v), ST_OK);
	assert_int_equal(store_table_get(s, f->table, &t0), ST_OK);
	assert_int_equal(t0.epoch_version, v);
	assert_int_equal(chat_post(s, f->table, f->anna, "Na?", T0, &e), CHAT_OK);
	assert_int_equal(store_table_get(s, f->table, &t1), ST_OK);
	assert_int_equal(t1.version, t0.version + 1);
	assert_int_equal(t1.public_version, t0.version + 1);
	assert_int_equal(t1.epoch, t0.epoch);
	assert_int_equal(t1.epoch_version, t0.epoch_version);
	assert_int_equal(t1.next_deadline, t0.next_deadline);
	int64_t pv = 0, dl = 0;
	assert_int_equal(store_table_poll(s, f->table, &pv, &dl), ST_OK);
	assert_int_equal(pv, t1.public_version);
	assert_int_equal(store_table_bump_public(s, f->table + 99, NULL), ST_NOTFOUND);
}

/* At most CHAT_RATE_COUNT messages per user and table within CHAT_RATE_MS. */
static void test_rate_limit(void **state)
{
	struct fx *f = *state;
	struct store *s = f->db.s;
	struct rerr e = { .msg = "" };
	for (int i = 0; i < CHAT_RATE_COUNT; i++)
		assert_int_equal(chat_post(s, f->table, f->anna, "schnell", T0 + i * 1000, &e),
				 CHAT_OK);
	e.msg[0] = '\0';
	assert_int_equal(chat_post(s, f->table, f->anna, "noch eine", T0 + 5000, &e),
			 CHAT_TOO_FAST);
	assert_non_null(strstr(e.msg, "Langsam"));
	assert_non_null(strstr(e.msg, "In 25 s"));   /* the first one leaves the window at T0+30s */
	assert_int_equal(recent(f, 0, 30)->n, CHAT_RATE_COUNT);
	/* others are not slowed down by anna, nor anna at another table */
	assert_int_equal(chat_post(s, f->table, f->bert, "ich darf", T0 + 5000, &e), CHAT_OK);
	assert_int_equal(chat_post(s, f->table, f->anna, "immer noch", T0 + CHAT_RATE_MS - 1, &e),
			 CHAT_TOO_FAST);
	assert_int_equal(chat_post(s, f->table, f->anna, "wieder", T0 + CHAT_RATE_MS, &e), CHAT_OK);
	assert_int_equal(chat_post(s, f->table, f->anna, "zu viel", T0 + CHAT_RATE_MS, &e),
			 CHAT_TOO_FAST);
	assert_int_equal(recent(f, 0, 30)->n, CHAT_RATE_COUNT + 2);
}

/* Newest first, at most the limit asked for. */
static void test_order_and_limit(void **state)
{
	struct fx *f = *state;
	struct store *s = f->db.s;
	struct rerr e = { .msg = "" };
	char text[32];
	for (int i = 0; i < 40; i++) {
		snprintf(text, sizeof text, "Nachricht %d", i);
		assert_int_equal(chat_post(s, f->table, i % 2 ? f->bert : f->anna, text,
					   T0 + (int64_t)i * 10000, &e), CHAT_OK);
	}
	struct seen *w = recent(f, 0, CHAT_SHOW);
	assert_int_equal(w->n, CHAT_SHOW);
	assert_string_equal(w->text[0], "Nachricht 39");
	assert_string_equal(w->text[CHAT_SHOW - 1], "Nachricht 10");
	/* the same second: the order of writing decides */
	assert_int_equal(chat_post(s, f->table, f->anna, "erste", T0 + 900000, &e), CHAT_OK);
	assert_int_equal(chat_post(s, f->table, f->bert, "zweite", T0 + 900000, &e), CHAT_OK);
	w = recent(f, 0, 2);
	assert_string_equal(w->text[0], "zweite");
	assert_string_equal(w->text[1], "erste");
}

struct mutes {
	int n;
	int64_t id[8];
	char name[8][ST_NAME_MAX + 1];
};

static void collect_muted(void *ctx, int64_t user_id, const char *name)
{
	struct mutes *m = ctx;
	if (m->n < 8) {
		m->id[m->n] = user_id;
		snprintf(m->name[m->n], sizeof m->name[0], "%s", name);
	}
	m->n++;
}

/* Muting hides an author's messages from the one who muted, on every
 * table, until they unmute; nobody else is affected. */
static void test_mute(void **state)
{
	struct fx *f = *state;
	struct store *s = f->db.s;
	struct rerr e = { .msg = "" };
	struct mutes m = { 0 };
	assert_int_equal(chat_mute(s, f->table, f->anna, f->bert, 1, T0, &e), CHAT_NO_AUTHOR);
	assert_int_equal(chat_post(s, f->table, f->anna, "Hallo", T0, &e), CHAT_OK);
	assert_int_equal(chat_post(s, f->table, f->bert, "Blöd!", T0 + 1, &e), CHAT_OK);
	assert_int_equal(chat_mute(s, f->table, f->anna, f->anna, 1, T0, &e), CHAT_INVALID);
	assert_int_equal(chat_mute(s, f->table + 99, f->anna, f->bert, 1, T0, &e), CHAT_NOT_FOUND);
	assert_int_equal(chat_mute(s, f->table, f->anna, f->bert, 1, T0 + 2, &e), CHAT_OK);
	assert_int_equal(chat_mute(s, f->table, f->anna, f->bert, 1, T0 + 3, &e), CHAT_OK);  /* again */

	struct seen *w = recent(f, f->anna, 30);
	assert_int_equal(w->n, 1);
	assert_string_equal(w->text[0], "Hallo");
	assert_int_equal(recent(f, f->carla, 30)->n, 2);
	assert_int_equal(recent(f, f->bert, 30)->n, 2);
	assert_int_equal(store_chat_muted(s, f->table, f->anna, 30, collect_muted, &m), ST_OK);
	assert_int_equal(m.n, 1);
	assert_true(m.id[0] == f->bert);
	assert_string_equal(m.name[0], "bert");

	/* on another table too */
	int64_t other = 0;
	int seat = -1;
	assert_int_equal(store_table_create(s, "drehwurm", "", 2, 1, f->bert, 2000, &other), ST_OK);
	assert_int_equal(store_seat_take(s, other, f->bert, &seat), ST_OK);
	assert_int_equal(chat_post(s, other, f->bert, "Hier auch", T0 + 4, &e), CHAT_OK);
	struct seen x = { 0 };
	assert_int_equal(store_chat_recent(s, other, f->anna, 30, collect, &x), ST_OK);
	assert_int_equal(x.n, 0);

	assert_int_equal(chat_mute(s, f->table, f->anna, f->bert, 0, T0 + 5, &e), CHAT_OK);
	assert_int_equal(chat_mute(s, f->table, f->anna, f->bert, 0, T0 + 6, &e), CHAT_OK);
	assert_int_equal(recent(f, f->anna, 30)->n, 2);
	m.n = 0;
	assert_int_equal(store_chat_muted(s, f->table, f->anna, 30, collect_muted, &m), ST_OK);
	assert_int_equal(m.n, 0);

	/* the muted writers by name, the first `limit` of them */
	int64_t three = 0, zora = make_user(s, "Zora");
	assert_int_equal(store_table_create(s, "drehwurm", "", 3, 1, f->anna, 2000, &three), ST_OK);
	assert_int_equal(store_seat_take(s, three, zora, &seat), ST_OK);
	assert_int_equal(store_seat_take(s, three, f->anna, &seat), ST_OK);
	assert_int_equal(store_seat_take(s, three, f->bert, &seat), ST_OK);
	assert_int_equal(chat_post(s, three, zora, "Zuerst", T0 + 7, &e), CHAT_OK);
	assert_int_equal(chat_post(s, three, f->bert, "Dann", T0 + 8, &e), CHAT_OK);
	assert_int_equal(chat_mute(s, three, f->anna, zora, 1, T0 + 9, &e), CHAT_OK);
	assert_int_equal(chat_mute(s, three, f->anna, f->bert, 1, T0 + 10, &e), CHAT_OK);
	m.n = 0;
	assert_int_equal(store_chat_muted(s, three, f->anna, 30, collect_muted, &m), ST_OK);
	assert_int_equal(m.n, 2);
	assert_string_equal(m.name[0], "bert");
	assert_string_equal(m.name[1], "Zora");
	m.n = 0;
	assert_int_equal(store_chat_muted(s, three, f->anna, 1, collect_muted, &m), ST_OK);
	assert_int_equal(m.n, 1);
	assert_string_equal(m.name[0], "bert");
}

/* A table that goes takes its chat with it. */
static void test_delete_table(void **state)
{
	struct fx *f = *state;
	struct store *s = f->db.s;
	struct rerr e = { .msg = "" };
	assert_int_equal(chat_post(s, f->table, f->anna, "Tschüss", T0, &e), CHAT_OK);
	assert_int_equal(store_table_delete(s, f->table), ST_OK);
	assert_int_equal(recent(f, 0, 30)->n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_limits),
		cmocka_unit_test_setup_teardown(test_who_writes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bump_keeps_epoch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rate_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_order_and_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mute, setup, teardown),
		cmocka_unit_test_setup_teardown(test_delete_table, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
