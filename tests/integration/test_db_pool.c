/*
 * The transaction runner of db/pool.h against a real MariaDB: a
 * transaction that meets deadlocks runs again within its time budget,
 * more often than the five runs it once had, and gives up when the
 * budget is spent; other errors are not run again; /metrics counts the
 * runs again and the givings up.  db_error's classification: a delete a
 * foreign key refuses (1451) is a conflict and a write whose parent row
 * is gone (1452) a refusal, not an internal error.  Needs
 * MAUTO_TEST_DB_*; without them it exits 77 (SKIP).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <mysql.h>

#include "db/pool.h"
#include "repo/repo.h"
#include "util/config.h"
#include "util/metrics.h"
#include "itest.h"

static struct config cfg;
static struct db *db;
static struct metrics *metrics;

/* A transaction that meets a deadlock in its first fail runs. */
struct flaky {
	int	fail;		/* runs that end in a deadlock; -1: all */
	int	err;		/* what they return */
	int	runs;
};

static int
flaky_tx(struct db *d, void *arg)
{
	struct flaky *f = arg;

	(void)d;
	f->runs++;
	return f->fail < 0 || f->runs <= f->fail ? f->err : 0;
}

static int
group_setup(void **state)
{
	(void)state;
	if ((metrics = metrics_create()) == NULL ||
	    itest_open(&db, &cfg, NULL, NULL, 0) != 0)
		return -1;
	db_set_metrics(db, metrics);
	return 0;
}

static int
group_teardown(void **state)
{
	(void)state;
	(void)itest_close(db, NULL);
	metrics_destroy(metrics);
	return 0;
}

/* The counters now, minus the snapshot *before (then updated). */
static void
moved(struct metrics_snapshot *before, uint64_t *retried,
    uint64_t *exhausted)
{
	struct metrics_snapshot now;

	metrics_snapshot(metrics, &now);
	*retried = now.db_deadlock_retries - before->db_deadlock_retries;
	*exhausted = now.db_deadlock_exhausted -
	    before->db_deadlock_exhausted;
	*before = now;
}

/*
 * Six deadlocks in a row, one more than the five runs db_run_tx once
 * gave a transaction: the seventh run commits.  Its pauses come to at
 * most 10 + 20 + 40 + 80 + 160 + 400 ms, well inside the budget.
 */
static void
test_retried_past_five(void **state)
{
	struct metrics_snapshot s;
	struct flaky f = { .fail = 6, .err = -REPO_ERR_DEADLOCK };
	uint64_t retried, exhausted;

	(void)state;
	metrics_snapshot(metrics, &s);
	assert_int_equal(db_run_tx(db, flaky_tx, &f, false), 0);
	assert_int_equal(f.runs, 7);
	moved(&s, &retried, &exhausted);
	assert_int_equal(retried, 6);
	assert_int_equal(exhausted, 0);
}

/*
 * Deadlocks every time: given up with -REPO_ERR_DEADLOCK once the next
 * pause would end past the budget, so not before the budget less the
 * longest pause has passed (pauses are sleeps: the bound holds however
 * slow the machine).  Each run but the last counts as retried.
 */
static void
test_budget_spent(void **state)
{
	struct metrics_snapshot s;
	struct flaky f = { .fail = -1, .err = -REPO_ERR_DEADLOCK };
	struct timespec t0, t1;
	uint64_t retried, exhausted;
	int64_t ms;

	(void)state;
	metrics_snapshot(metrics, &s);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(db_run_tx(db, flaky_tx, &f, false),
	    -REPO_ERR_DEADLOCK);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (int64_t)(t1.tv_sec - t0.tv_sec) * 1000 +
	    (t1.tv_nsec - t0.tv_nsec) / 1000000;
	assert_true(ms >= DB_TX_BUDGET_MS - 2 * DB_TX_BACKOFF_MAX_MS);
	assert_true(f.runs > 1);
	moved(&s, &retried, &exhausted);
	assert_int_equal(retried, (uint64_t)f.runs - 1);
	assert_int_equal(exhausted, 1);
	fprintf(stderr, "# gave up after %d runs in %lld ms\n", f.runs,
	    (long long)ms);
}

/* Any other error ends the transaction at once, uncounted. */
static void
test_other_error_once(void **state)
{
	struct metrics_snapshot s;
	struct flaky f = { .fail = -1, .err = -REPO_ERR_CONFLICT };
	uint64_t retried, exhausted;

	(void)state;
	metrics_snapshot(metrics, &s);
	assert_int_equal(db_run_tx(db, flaky_tx, &f, false),
	    -REPO_ERR_CONFLICT);
	assert_int_equal(f.runs, 1);
	moved(&s, &retried, &exhausted);
	assert_int_equal(retried, 0);
	assert_int_equal(exhausted, 0);
}

/* Runs sql on db's connection; fails the test on an error. */
static void
run_sql(const char *sql)
{
	MYSQL *c = db_conn(db);

	if (mysql_real_query(c, sql, strlen(sql)) != 0)
		fail_msg("%s: %s", sql, mysql_error(c));
}

/* This test's own parent and child tables, made anew, empty. */
static void
fk_tables(void)
{
	run_sql("DROP TABLE IF EXISTS itest_fk_child, itest_fk_parent");
	run_sql("CREATE TABLE itest_fk_parent (id INT PRIMARY KEY) "
	    "ENGINE=InnoDB");
	run_sql("CREATE TABLE itest_fk_child (id INT PRIMARY KEY, "
	    "parent INT NOT NULL, FOREIGN KEY (parent) REFERENCES "
	    "itest_fk_parent (id)) ENGINE=InnoDB");
}

/*
 * Deleting a row another row still points at (error 1451) is refused as
 * a conflict, the answer a duplicate key gets, not an internal error:
 * a store whose own checks miss a reference still answers a refusal.
 * The tables are this test's own.
 */
static void
test_referenced_row_conflict(void **state)
{
	MYSQL_STMT *st;

	(void)state;
	fk_tables();
	run_sql("INSERT INTO itest_fk_parent VALUES (1)");
	run_sql("INSERT INTO itest_fk_child VALUES (1, 1)");
	st = db_stmt_sql(db, "DELETE FROM itest_fk_parent WHERE id = 1",
	    "test_referenced_row_conflict");
	assert_non_null(st);
	assert_int_equal(db_exec(db, st, NULL, "test_referenced_row_conflict"),
	    -REPO_ERR_CONFLICT);
	assert_false(db_is_broken(db));
	run_sql("DROP TABLE itest_fk_child, itest_fk_parent");
}

/*
 * A row that names a parent no longer there (error 1452: an insert into
 * a folder a delete has just removed) is refused as -REPO_ERR_GONE, which
 * the handlers answer as a refusal, not an internal error.  The tables
 * are this test's own.
 */
static void
test_missing_parent_gone(void **state)
{
	MYSQL_STMT *st;

	(void)state;
	fk_tables();
	st = db_stmt_sql(db, "INSERT INTO itest_fk_child VALUES (1, 1)",
	    "test_missing_parent_gone");
	assert_non_null(st);
	assert_int_equal(db_exec(db, st, NULL, "test_missing_parent_gone"),
	    -REPO_ERR_GONE);
	assert_false(db_is_broken(db));
	run_sql("DROP TABLE itest_fk_child, itest_fk_parent");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_retried_past_five),
		cmocka_unit_test(test_budget_spent),
		cmocka_unit_test(test_other_error_once),
		cmocka_unit_test(test_referenced_row_conflict),
		cmocka_unit_test(test_missing_parent_gone),
	};

	if (itest_config(&cfg) != 0) {
		fprintf(stderr, "MAUTO_TEST_DB_* not set: skipped\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
