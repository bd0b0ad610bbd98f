/*
 * When a connection prepares its statements (src/db/pool.c): a worker's
 * connection holds the sets every call uses from the start and any other
 * set from its first use on; DB_PREPARE_ALL holds them all.  Needs
 * MAUTO_TEST_DB_SOCKET, MAUTO_TEST_DB_NAME, MAUTO_TEST_DB_USER and
 * MAUTO_TEST_DB_PASSWORD; without them it exits 77 (automake's SKIP).
 * The server's max_prepared_stmt_count refusing a set is
 * tests/http/t_prepared_stmts.sh's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>
#include <mysql.h>

#include "db/pool.h"
#include "repo/repo.h"
#include "util/config.h"
#include "itest.h"

static struct config cfg;

static void
test_lazy_starts_with_two_sets(void **state)
{
	struct db *db = NULL;

	(void)state;
	assert_int_equal(db_open(&db, &cfg, &repo_schema, DB_PREPARE_LAZY),
	    0);
	assert_int_equal(db_stmt_count(db),
	    repo_auth_sql.n + repo_limits_sql.n);
	db_close(db);
}

static void
test_lazy_prepares_a_set_on_first_use(void **state)
{
	struct db *db = NULL;
	MYSQL_STMT *st;
	size_t before;

	(void)state;
	assert_int_equal(db_open(&db, &cfg, &repo_schema, DB_PREPARE_LAZY),
	    0);
	before = db_stmt_count(db);
	st = db_stmt(db, REPO_FOLDERS, 0);
	assert_non_null(st);
	assert_int_equal(db_stmt_count(db), before + repo_folders_sql.n);
	assert_ptr_equal(db_stmt(db, REPO_FOLDERS, 0), st);
	assert_int_equal(db_stmt_count(db), before + repo_folders_sql.n);
	/* A reconnect starts over with the two sets. */
	(void)mysql_query(db_conn(db), "KILL CONNECTION CONNECTION_ID()");
	(void)db_ping(db);	/* finds the connection lost */
	assert_int_equal(db_ping(db), 0);
	assert_int_equal(db_stmt_count(db),
	    repo_auth_sql.n + repo_limits_sql.n);
	assert_non_null(db_stmt(db, REPO_FOLDERS, 0));
	assert_int_equal(db_stmt_count(db), before + repo_folders_sql.n);
	db_close(db);
}

static void
test_all_prepares_every_set(void **state)
{
	struct db *db = NULL;

	(void)state;
	assert_int_equal(db_open(&db, &cfg, &repo_schema, DB_PREPARE_ALL), 0);
	assert_int_equal(db_stmt_count(db), db_schema_stmts(&repo_schema));
	db_close(db);
	assert_int_equal(db_open(&db, &cfg, &repo_schema, DB_PREPARE_NONE),
	    0);
	assert_int_equal(db_stmt_count(db), 0);
	db_close(db);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lazy_starts_with_two_sets),
		cmocka_unit_test(test_lazy_prepares_a_set_on_first_use),
		cmocka_unit_test(test_all_prepares_every_set),
	};

	if (itest_config(&cfg) != 0) {
		fprintf(stderr, "MAUTO_TEST_DB_* not set: skipped\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
