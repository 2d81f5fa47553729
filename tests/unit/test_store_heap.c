/* test_store_heap.c — SQLite's heap in a process of one thread
 * (ST_MAINT_ONE_THREAD, the server's processes): SQLite's own statistics
 * are off and the store counts the heap, which server.c's give_back reads
 * through ST_MAINT_MEMORY. A binary of its own: the mode is set before
 * SQLite starts, which in a process is once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "store.h"
#include "tmpdb.h"

/* The bytes a second connection holds are counted while it is open and
 * given back when it closes; the peak since the last reading shows the
 * drop that give_back trims after. SQLite's own counter stays zero. */
static void test_heap_counted(void **state)
{
	struct tmpdb *t = *state;
	if (tmpdb_pg())
		skip();
	struct st_maint m0 = { 0 }, m1 = { 0 }, m2 = { 0 };
	assert_int_equal(store_maintain(NULL, ST_MAINT_MEMORY, &m0), ST_OK);
	assert_true(m0.held > 0 && m0.peak >= m0.held);

	sqlite3 *db = NULL;
	assert_int_equal(sqlite3_open_v2(t->path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "SELECT count(*) FROM users", NULL, NULL, NULL),
			 SQLITE_OK);
	assert_int_equal(store_maintain(NULL, ST_MAINT_MEMORY, &m1), ST_OK);
	assert_true(m1.held > m0.held);
	assert_true(m1.peak >= m1.held);

	sqlite3_close(db);
	assert_int_equal(store_maintain(NULL, ST_MAINT_MEMORY, &m2), ST_OK);
	assert_true(m2.held < m1.held);
	assert_true(m2.peak >= m1.held);   /* the reading before set the peak to m1.held */
	assert_true(m2.peak - m2.held > 0);

	sqlite3_int64 used = -1, hi = -1;
	assert_int_equal(sqlite3_status64(SQLITE_STATUS_MEMORY_USED, &used, &hi, 0), SQLITE_OK);
	assert_true(used == 0 && hi == 0);
}

int main(void)
{
	store_maintain(NULL, ST_MAINT_ONE_THREAD, NULL);   /* before SQLite starts */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_heap_counted, tmpdb_setup, tmpdb_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
