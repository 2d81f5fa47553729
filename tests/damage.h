/*
 * damage.h — a party's stored position damaged on disk, as a bad sector or
 * a bug of an older build would leave it: for the tests of what a table
 * does when its state does not load. The position is the snapshot of the
 * party's last step, or the deal without one (026_one_write.sql).
 * Header-only; the database must not be inside a transaction of another
 * connection.
 */
#ifndef SPIELTISCH_TESTS_DAMAGE_H
#define SPIELTISCH_TESTS_DAMAGE_H

#include <sqlite3.h>
#include <stdint.h>
#include <string.h>

/* Flips the bits of one byte in the middle of the position of `party` in
 * the database file at path; 0, or -1 when there is nothing to damage. */
static inline int damage_position(const char *path, int64_t party)
{
	static const char *const pick[2] = {
		"SELECT snapshot, seq FROM moves WHERE party = ?1 ORDER BY seq DESC LIMIT 1",
		"SELECT snapshot, 0 FROM parties WHERE id = ?1",
	};
	static const char *const put[2] = {
		"UPDATE moves SET snapshot = ?2 WHERE party = ?1 AND seq = ?3",
		"UPDATE parties SET snapshot = ?2 WHERE id = ?1 AND ?3 = 0",
	};
	unsigned char buf[1 << 16];
	sqlite3 *db = NULL;
	sqlite3_stmt *q = NULL;
	int rc = -1, n = 0;
	int64_t seq = 0;
	if (sqlite3_open(path, &db) != SQLITE_OK)
		goto out;
	sqlite3_busy_timeout(db, 5000);
	for (int k = 0; k < 2 && n == 0; k++) {
		if (sqlite3_prepare_v2(db, pick[k], -1, &q, NULL) != SQLITE_OK)
			goto out;
		sqlite3_bind_int64(q, 1, party);
		if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_bytes(q, 0) > 0 &&
		    sqlite3_column_bytes(q, 0) <= (int)sizeof buf) {
			n = sqlite3_column_bytes(q, 0);
			memcpy(buf, sqlite3_column_blob(q, 0), (size_t)n);
			seq = sqlite3_column_int64(q, 1);
		}
		sqlite3_finalize(q);
		q = NULL;
		if (n == 0)
			continue;
		buf[n / 2] ^= 0x5a;
		if (sqlite3_prepare_v2(db, put[k], -1, &q, NULL) != SQLITE_OK)
			goto out;
		sqlite3_bind_int64(q, 1, party);
		sqlite3_bind_blob(q, 2, buf, n, SQLITE_TRANSIENT);
		sqlite3_bind_int64(q, 3, seq);
		rc = sqlite3_step(q) == SQLITE_DONE && sqlite3_changes(db) == 1 ? 0 : -1;
	}
out:
	sqlite3_finalize(q);
	sqlite3_close(db);
	return rc;
}

#endif
