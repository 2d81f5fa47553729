/*
 * sql-parties.c — parties, their results and their steps (moves).
 *
 * Its statements are in stmt_text[] below, next to the functions that use them;
 * sql-core.c prepares them with every other file's at store_open.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define PARTY_COLS "p.id, p.table_id, p.number, p.seed, p.dealer, p.over"
/* the seq of the party's last step (st_party.steps: store_step_append) */
#define PARTY_STEPS "coalesce((SELECT max(m.seq) FROM moves m WHERE m.party = p.id), 0)"

enum {
	STMT_PARTY_CREATE = ST_FIRST(ST_G_PARTIES),
	STMT_PARTY_GET,
	STMT_PARTY_LATEST,
	STMT_PARTY_OVER,
	STMT_PARTY_THIN,
	STMT_RESULT_CLEAR,
	STMT_RESULT_PUT,
	STMT_RESULTS_OF_PARTY,
	STMT_PARTIES_OF_TABLE,
	STMT_MOVE_APPEND,
	STMT_STEP_APPEND,
	STMT_MOVE_SHED_PREV,
	STMT_MOVE_SHED_SEQ,
	STMT_SEAT_MOVED_SINCE,
	STMT_TICKED_SINCE,
	STMT_SEAT_LAST_VERSION,
	STMT_MOVES,
	STMT_MOVE_COUNT,
	STMT_PARTY_STEP_AT,
	STMT_TABLE_LOGS,
	STMT_PARTIES_END
};

static const char *const stmt_text[] = {
	ST_AT(STMT_PARTY_CREATE) =
		"INSERT INTO parties (table_id, number, seed, dealer, snapshot, created_at)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id",
	/* (without PARTY_LAST_TICK: only the table page shows it, from its
	 * own read) */
	ST_AT(STMT_PARTY_GET) =
		"SELECT " PARTY_COLS ", " PARTY_SNAPSHOT ", " PARTY_STEPS " FROM parties p"
		" WHERE p.table_id = ?1 AND p.number = ?2",
	ST_AT(STMT_PARTY_LATEST) =
		"SELECT " PARTY_COLS ", " PARTY_SNAPSHOT ", " PARTY_STEPS " FROM parties p"
		" WHERE p.table_id = ?1 ORDER BY p.number DESC LIMIT 1",
	ST_AT(STMT_PARTY_OVER) = "UPDATE parties SET over = 1, snapshot = ?2 WHERE id = ?1",
	/* at a party's end its steps keep every ST_PARTY_CHECKPOINT-th
	 * position only: replays start from them */
	ST_AT(STMT_PARTY_THIN) =
		"UPDATE moves SET snapshot = NULL WHERE party = ?1 AND seq % ?2 <> 0"
		" AND snapshot IS NOT NULL",
	ST_AT(STMT_RESULT_CLEAR) = "DELETE FROM party_results WHERE party = ?1",
	ST_AT(STMT_RESULT_PUT) =
		"INSERT INTO party_results (party, seat, place, points) VALUES (?1, ?2, ?3, ?4)",
	ST_AT(STMT_RESULTS_OF_PARTY) =
		"SELECT seat, place, points FROM party_results WHERE party = ?1",
	ST_AT(STMT_PARTIES_OF_TABLE) =
		"SELECT " PARTY_COLS ", length(" PARTY_SNAPSHOT ") FROM parties p"
		" WHERE p.table_id = ?1 AND p.over = 1 ORDER BY p.number",
	ST_AT(STMT_MOVE_APPEND) =
		"INSERT INTO moves (party, seq, seat, text, at, version, snapshot)"
		" SELECT ?1, coalesce(max(seq), 0) + 1, ?2, ?3, ?4, ?5, ?6 FROM moves WHERE party = ?1",
	/* the same with seq known (store_step_append: the party's last step
	 * + 1): a row by its key, where the INSERT … SELECT above reads the
	 * table it writes and so copies its one row through a temporary
	 * b-tree first (SQLite); a seq taken already is no row (the caller's
	 * count was behind: STMT_MOVE_APPEND then) */
	ST_AT(STMT_STEP_APPEND) =
		"INSERT INTO moves (party, seq, seat, text, at, version, snapshot)"
		" VALUES (?1, ?7, ?2, ?3, ?4, ?5, ?6) ON CONFLICT DO NOTHING",
	/* the party's last step gives up its position to the one appended
	 * next, unless it is a checkpoint (what STMT_PARTY_THIN keeps at the
	 * party's end): only the last step's position is ever read while
	 * the party runs (PARTY_SNAPSHOT), and a leaf of `moves` (a WITHOUT
	 * ROWID b-tree in the order of party and seq) then holds one position
	 * of a party beside small rows, so the append finds room in the leaf
	 * where the shed one lay instead of splitting it (about 450 bytes a
	 * position, 8 of them filled a leaf) */
	ST_AT(STMT_MOVE_SHED_PREV) =
		"UPDATE moves SET snapshot = NULL WHERE party = ?1"
		" AND seq = (SELECT max(m.seq) FROM moves m WHERE m.party = ?1) AND seq % ?2 <> 0",
	/* the same by its key (store_step_append) */
	ST_AT(STMT_MOVE_SHED_SEQ) = "UPDATE moves SET snapshot = NULL WHERE party = ?1 AND seq = ?2",
	ST_AT(STMT_SEAT_MOVED_SINCE) =
		"SELECT CASE WHEN EXISTS (SELECT 1 FROM moves WHERE party = ?1 AND seat = ?2"
		" AND version > ?3) THEN 1 ELSE 0 END",
	ST_AT(STMT_TICKED_SINCE) =
		"SELECT CASE WHEN EXISTS (SELECT 1 FROM moves WHERE party = ?1 AND seat = -1"
		" AND version > ?2 AND text = 'tick') THEN 1 ELSE 0 END",
	ST_AT(STMT_SEAT_LAST_VERSION) =
		"SELECT coalesce(max(version), 0) FROM moves WHERE party = ?1 AND seat = ?2",
	ST_AT(STMT_MOVES) =
		"SELECT seq, seat, at, version, text FROM moves WHERE party = ?1 AND seq > ?2"
		" ORDER BY seq",
	/* seq counts 1, 2, … (STMT_MOVE_APPEND; a step is never deleted alone),
	 * so the count is the last seq: one seek, not a walk over the party */
	ST_AT(STMT_MOVE_COUNT) = "SELECT coalesce(max(seq), 0) FROM moves WHERE party = ?1",
	/* the platform's continue steps come after a party's end: left out */
	ST_AT(STMT_PARTY_STEP_AT) =
		"SELECT coalesce((SELECT max(at) FROM moves WHERE party = ?1 AND text <> 'weiter'"
		" AND (?2/*::BIGINT*/ < 0 OR version <= ?2)), (SELECT created_at FROM parties WHERE id = ?1), 0)",
	/* every finished party's steps, by party and seq (a party without
	 * steps: one row, seq NULL) */
	ST_AT(STMT_TABLE_LOGS) =
		"SELECT p.number, m.seq, m.seat, m.at, m.version, m.text FROM parties p"
		" LEFT JOIN moves m ON m.party = p.id WHERE p.table_id = ?1 AND p.over = 1"
		" ORDER BY p.number, m.seq",
};
_Static_assert(sizeof stmt_text / sizeof stmt_text[0] == STMT_PARTIES_END - ST_FIRST(ST_G_PARTIES),
	       "one SQL text per statement");
const struct st_stmts st_stmts_parties = ST_STMTS(stmt_text);

/* ------------------------------------------------------------------ */
/* Parties and moves                                                   */

int store_party_create(struct store *s, int64_t table, int number, uint64_t seed, int dealer,
		       const unsigned char *snap, size_t len, int64_t now, int64_t *id)
{
	struct st_cur *q = st_query(s, STMT_PARTY_CREATE, ST_ARGS(ST_INT(table), ST_INT(number),
			ST_INT((int64_t)seed), ST_INT(dealer), ST_BLOB(snap, (int)len),
			ST_INT(now)));
	if (!q)
		return ST_ERR;
	int64_t made = 0;
	int rc = st_one_int64(s, q, &made, "party create");
	if (rc == ST_OK && id)
		*id = made;
	return rc == ST_NOTFOUND ? ST_ERR : rc;
}

/* One result row (seat, place, points) into the party's result. */
static int read_result(void *ctx, struct st_cur *q)
{
	struct st_party *p = ctx;
	int seat = st_int(q, 0);
	if (seat < 0 || seat >= GAME_MAX_SEATS)
		return 0;   /* the schema's CHECK keeps this from happening */
	p->result.place[seat] = st_int(q, 1);
	p->result.points[seat] = st_int(q, 2);
	return 0;
}

/* The result rows of a finished party into p->result (zeros without). */
static int read_results(struct store *s, struct st_party *p)
{
	return st_each(s, st_query(s, STMT_RESULTS_OF_PARTY, ST_ARGS(ST_INT(p->id))), read_result,
		       p, "results of party");
}

/* One row of PARTY_COLS (column 6 is the snapshot or its length), with
 * the party's result rows. */
static int read_party(struct store *s, struct st_cur *q, struct st_party *p)
{
	memset(p, 0, sizeof *p);
	p->id = st_int64(q, 0);
	p->table_id = st_int64(q, 1);
	p->number = st_int(q, 2);
	p->seed = (uint64_t)st_int64(q, 3);
	p->dealer = st_int(q, 4);
	p->over = st_int(q, 5);
	return p->over ? read_results(s, p) : ST_OK;
}

/* store_party_get's row: the party, its snapshot into snap (if it fits
 * cap), and how that went (rc). */
struct party_row {
	struct store *s;
	struct st_party *p;
	unsigned char *snap;
	size_t cap;
	int rc;
};

static int read_party_snap(void *ctx, struct st_cur *q)
{
	struct party_row *r = ctx;
	struct st_party *p = r->p;
	const void *blob = st_blob(q, 6);
	r->rc = read_party(r->s, q, p);
	p->snap_len = (size_t)st_bytes(q, 6);
	p->steps = st_int64(q, 7);
	if (r->rc != ST_OK) {
		/* (said by read_results) */
	} else if (r->snap && p->snap_len > r->cap) {
		fprintf(stderr, "store: party %lld: snapshot of %zu bytes > %zu\n",
			(long long)p->id, p->snap_len, r->cap);
		r->rc = ST_ERR;
	} else if (r->snap && p->snap_len) {
		memcpy(r->snap, blob, p->snap_len);
	}
	return 0;
}

/* ST_ERR when the stored snapshot does not fit `cap` (snap may be NULL with
 * cap 0 to read the row only). */
int store_party_get(struct store *s, int64_t table, int number, struct st_party *p,
		    unsigned char *snap, size_t cap)
{
	struct party_row r = { s, p, snap, cap, ST_OK };
	struct st_cur *q = st_query(s, number < 0 ? STMT_PARTY_LATEST : STMT_PARTY_GET,
			ST_ARGS(ST_INT(table)));
	if (q && number >= 0)
		st_bind_int64(q, 2, number);
	int rc = st_one(s, q, read_party_snap, &r, "party get");
	return rc == ST_OK ? r.rc : rc;
}

/* The result rows of a party that ended: r's first nseats seats. */
static int put_results(struct store *s, int64_t party, const struct party_result *r,
		       int nseats)
{
	int rc;
	struct st_cur *q = st_query(s, STMT_RESULT_CLEAR, ST_ARGS(ST_INT(party)));
	if (!q)
		return ST_ERR;
	if ((rc = st_exec(s, q, "result clear")) != ST_OK)
		return rc;
	for (int seat = 0; seat < nseats && seat < GAME_MAX_SEATS; seat++)
		if ((rc = st_run(s, STMT_RESULT_PUT, "result put", ST_ARGS(ST_INT(party),
				ST_INT(seat), ST_INT(r->place[seat]), ST_INT(r->points[seat])))) != ST_OK)
			return rc;
	return ST_OK;
}

int store_party_end(struct store *s, int64_t party, const unsigned char *snap, size_t len,
		    const struct party_result *r, int nseats)
{
	struct st_cur *q = st_query(s, STMT_PARTY_OVER, ST_ARGS(ST_INT(party),
			ST_BLOB(snap, (int)len)));
	if (!q)
		return ST_ERR;
	int rc = st_change_row(s, q, "party over");
	if (rc == ST_OK)
		rc = put_results(s, party, r, nseats);
	if (rc == ST_OK)
		rc = st_run(s, STMT_PARTY_THIN, "party thin", ST_ARGS(ST_INT(party),
				ST_INT(ST_PARTY_CHECKPOINT)));
	return rc;
}

/* store_parties_of_table's rows to fn; rc ST_ERR stops at a party whose
 * results could not be read. */
struct party_rows {
	struct store *s;
	st_party_fn fn;
	void *ctx;
	int rc;
};

static int read_party_row(void *ctx, struct st_cur *q)
{
	struct party_rows *r = ctx;
	struct st_party p;
	if (read_party(r->s, q, &p) != ST_OK) {
		r->rc = ST_ERR;
		return 1;
	}
	p.snap_len = (size_t)st_int64(q, 6);
	r->fn(r->ctx, &p);
	return 0;
}

/* Finished parties only, by number; p->snap_len is set, no snapshot. */
int store_parties_of_table(struct store *s, int64_t table, st_party_fn fn, void *ctx)
{
	struct party_rows r = { s, fn, ctx, ST_OK };
	int rc = st_each(s, st_query(s, STMT_PARTIES_OF_TABLE, ST_ARGS(ST_INT(table))),
			 read_party_row, &r, "parties of table");
	return rc == ST_OK ? r.rc : rc;
}

/* The INSERT of a step (seq the party's next number, chosen in it). */
static int append_row(struct store *s, int64_t party, int seat, const char *text, int64_t at,
		      int64_t version, const unsigned char *snap, size_t len)
{
	struct st_cur *q = st_query(s, STMT_MOVE_APPEND, ST_ARGS(ST_INT(party), ST_INT(seat),
			ST_TEXT(text), ST_INT(at), ST_INT(version), ST_BLOB(snap, (int)len)));
	if (!q)
		return ST_ERR;
	int rc = st_exec(s, q, "move append");
	if (rc == ST_EXISTS) {
		fprintf(stderr, "store: move append: %s\n", st_errmsg(s));
		rc = ST_ERR;
	}
	return rc;
}

/* seq is the party's next number, chosen in the same statement. Call it
 * inside store_begin() so that the step and the version bump land together.
 * The step before it keeps its position only when it is a checkpoint
 * (STMT_MOVE_SHED_PREV: first, so that the append finds the room; SQLite
 * only: PostgreSQL's rows lie in a heap, not in the order of their key,
 * and an UPDATE there writes the row anew). */
int store_move_append(struct store *s, int64_t party, int seat, const char *text, int64_t at,
		      int64_t version, const unsigned char *snap, size_t len)
{
	int rc;
	if (s->db && (rc = st_run(s, STMT_MOVE_SHED_PREV, "move shed prev",
				  ST_ARGS(ST_INT(party), ST_INT(ST_PARTY_CHECKPOINT)))) != ST_OK)
		return rc;
	return append_row(s, party, seat, text, at, version, snap, len);
}

int store_step_append(struct store *s, int64_t party, int64_t last, int seat, const char *text,
		      int64_t at, int64_t version, const unsigned char *snap, size_t len)
{
	int rc;
	if (s->db && last > 0 && last % ST_PARTY_CHECKPOINT != 0 &&
	    (rc = st_run(s, STMT_MOVE_SHED_SEQ, "move shed seq", ST_ARGS(ST_INT(party),
			 ST_INT(last)))) != ST_OK)
		return rc;
	struct st_cur *q = st_query(s, STMT_STEP_APPEND, ST_ARGS(ST_INT(party), ST_INT(seat),
			ST_TEXT(text), ST_INT(at), ST_INT(version), ST_BLOB(snap, (int)len),
			ST_INT(last + 1)));
	if (!q)
		return ST_ERR;
	rc = st_change_row(s, q, "step append");
	if (rc != ST_NOTFOUND)
		return rc;
	return append_row(s, party, seat, text, at, version, snap, len);
}

/* Steps an EXISTS query into *yes, then resets it. */
static int exists_row(struct store *s, struct st_cur *q, int *yes, const char *what)
{
	int64_t v = 0;
	int rc = st_one_int64(s, q, &v, what);
	*yes = (int)v;
	return rc;
}

/* *yes = 1 when the seat logged a step with a version above `after` (one index probe). */
int store_seat_moved_since(struct store *s, int64_t party, int seat, int64_t after, int *yes)
{
	struct st_cur *q = st_query(s, STMT_SEAT_MOVED_SINCE, ST_ARGS(ST_INT(party), ST_INT(seat),
			ST_INT(after)));
	return exists_row(s, q, yes, "seat moved since");
}

/* *yes = 1 when a deadline passed in the party after version `after` (a
 * step of seat -1 logged as "tick", not a clock's "start"). */
int store_ticked_since(struct store *s, int64_t party, int64_t after, int *yes)
{
	struct st_cur *q = st_query(s, STMT_TICKED_SINCE, ST_ARGS(ST_INT(party), ST_INT(after)));
	return exists_row(s, q, yes, "ticked since");
}

/* The version of the seat's last step in the party into *v (0: none). */
int store_seat_last_version(struct store *s, int64_t party, int seat, int64_t *v)
{
	struct st_cur *q = st_query(s, STMT_SEAT_LAST_VERSION, ST_ARGS(ST_INT(party), ST_INT(seat)));
	return st_one_int64(s, q, v, "seat last version");
}


struct move_rows {
	st_move_fn fn;
	void *ctx;
};

static int read_move(void *ctx, struct st_cur *q)
{
	const struct move_rows *r = ctx;
	struct st_move m;
	m.seq = st_int64(q, 0);
	m.seat = st_int(q, 1);
	m.at = st_int64(q, 2);
	m.version = st_int64(q, 3);
	st_copy_col(m.text, sizeof m.text, q, 4);
	r->fn(r->ctx, &m);
	return 0;
}

/* The party's steps with seq > after, in order; each row valid during fn only. */
int store_moves(struct store *s, int64_t party, int64_t after, st_move_fn fn, void *ctx)
{
	struct move_rows r = { fn, ctx };
	return st_each(s, st_query(s, STMT_MOVES, ST_ARGS(ST_INT(party), ST_INT(after))), read_move,
		       &r, "moves");
}

/* How many steps the party has logged. */
int store_move_count(struct store *s, int64_t party, int64_t *n)
{
	struct st_cur *q = st_query(s, STMT_MOVE_COUNT, ST_ARGS(ST_INT(party)));
	return st_one_int64(s, q, n, "move count");
}

int store_party_step_at(struct store *s, int64_t party, int64_t upto, int64_t *at)
{
	struct st_cur *q = st_query(s, STMT_PARTY_STEP_AT, ST_ARGS(ST_INT(party), ST_INT(upto)));
	return st_one_int64(s, q, at, "party step at");
}

struct log_rows {
	st_log_fn fn;
	void *ctx;
};

static int read_log(void *ctx, struct st_cur *q)
{
	const struct log_rows *r = ctx;
	struct st_move m;
	int number = st_int(q, 0);
	if (st_null(q, 1)) {
		r->fn(r->ctx, number, NULL);
		return 0;
	}
	m.seq = st_int64(q, 1);
	m.seat = st_int(q, 2);
	m.at = st_int64(q, 3);
	m.version = st_int64(q, 4);
	st_copy_col(m.text, sizeof m.text, q, 5);
	r->fn(r->ctx, number, &m);
	return 0;
}

int store_table_logs(struct store *s, int64_t table, st_log_fn fn, void *ctx)
{
	struct log_rows r = { fn, ctx };
	return st_each(s, st_query(s, STMT_TABLE_LOGS, ST_ARGS(ST_INT(table))), read_log, &r,
		       "table logs");
}
