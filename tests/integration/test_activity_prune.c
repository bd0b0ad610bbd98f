/*
 * The activity pruner's pass (src/prune/pruner.c) on the test database:
 * each retention class loses what is older than its days and keeps the
 * rest, a class kept for ever keeps everything, bounded batches delete
 * all that is due, and a stop ends the pass before it deletes.
 *
 * The pass deletes across the whole activity table, and other tests of
 * this layer, run beside it on the test database, empty that table (and
 * mautoctl reset empties every one): so the test runs in a database of
 * its own, <test database>_prune, made with the test database's tables
 * (empty) and its activity type catalogue.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <mysql.h>

#include "db/pool.h"
#include "itest.h"
#include "prune/pruner.h"
#include "repo/repo.h"
#include "repo/repo_activity.h"
#include "util/config.h"
#include "util/timeutil.h"

#define PRUNE_LEAD	990000	/* lead ids of this test's activities */

static struct config cfg;
static struct db *db;
static volatile sig_atomic_t no_stop, stop = 1;

/* n activities of type for lead, dated days ago (and an hour). */
static void
add(int lead, int type, int days, int n)
{
	int i;

	for (i = 0; i < n; i++)
		itest_sqlf(db, "INSERT INTO activity (lead_id, "
		    "activity_type_id, activity_date, attributes) VALUES "
		    "(%d, %d, UTC_TIMESTAMP(3) - INTERVAL %d DAY - INTERVAL 1 "
		    "HOUR, '{}')", PRUNE_LEAD + lead, type, days);
}

/* This test's activities of lead. */
static int64_t
left(int lead)
{
	return itest_count(db, "SELECT COUNT(*) FROM activity WHERE "
	    "lead_id = %d", PRUNE_LEAD + lead);
}

static char own_name[128];

/* Makes own_name: the test database's tables, empty, and its catalogue. */
static int
own_database(void)
{
	struct db *db0;
	MYSQL_RES *res;
	MYSQL_ROW row;
	const char *src = cfg.db_name;

	(void)snprintf(own_name, sizeof(own_name), "%s_prune", src);
	if (db_open(&db0, &cfg, &repo_schema, DB_PREPARE_NONE) != 0)
		return -1;
	itest_sqlf(db0, "DROP DATABASE IF EXISTS `%s`", own_name);
	itest_sqlf(db0, "CREATE DATABASE `%s`", own_name);
	itest_sqlf(db0, "SELECT table_name FROM information_schema.tables "
	    "WHERE table_schema = '%s' AND table_type = 'BASE TABLE'", src);
	if ((res = mysql_store_result(db_conn(db0))) == NULL) {
		db_close(db0);
		return -1;
	}
	while ((row = mysql_fetch_row(res)) != NULL)
		itest_sqlf(db0, "CREATE TABLE `%s`.`%s` LIKE `%s`.`%s`",
		    own_name, row[0], src, row[0]);
	mysql_free_result(res);
	itest_sqlf(db0, "INSERT INTO `%s`.activity_type SELECT * FROM "
	    "`%s`.activity_type", own_name, src);
	db_close(db0);
	cfg.db_name = own_name;
	return 0;
}

static int
group_setup(void **state)
{
	(void)state;
	if (own_database() != 0)
		return -1;
	return itest_open(&db, &cfg, NULL, NULL, 0);
}

static int
group_teardown(void **state)
{
	(void)state;
	itest_sqlf(db, "DROP DATABASE `%s`", own_name);
	return itest_close(db, NULL);
}

static int
setup(void **state)
{
	(void)state;
	itest_sqlf(db, "DELETE FROM activity WHERE lead_id BETWEEN %d AND %d",
	    PRUNE_LEAD, PRUNE_LEAD + 99);
	/* The defaults (man/mautod.conf.5). */
	cfg.activity_retention_days = 761;
	cfg.activity_retention_high_volume_days = 90;
	cfg.activity_retention_deleted_days = 14;
	cfg.activity_retention_new_lead_days = 0;
	return 0;
}

/* The catalogue's classes are the ones the configuration names. */
static void
test_classes(void **state)
{
	(void)state;
	assert_int_equal(itest_count(db, "SELECT COUNT(*) FROM activity_type "
	    "WHERE retention_class NOT IN ('activity', 'high-volume', "
	    "'deleted', 'new-lead')"), 0);
	assert_int_equal(itest_count(db, "SELECT GROUP_CONCAT(id ORDER BY id) "
	    "+ 0 FROM activity_type WHERE retention_class = 'deleted'"), 37);
	assert_int_equal(itest_count(db, "SELECT COUNT(*) FROM activity_type "
	    "WHERE retention_class = 'high-volume' AND id IN (13, 24)"), 2);
	assert_int_equal(activity_retention_days(&cfg, "deleted"), 14);
	assert_int_equal(activity_retention_days(&cfg, "high-volume"), 90);
	assert_int_equal(activity_retention_days(&cfg, "new-lead"), 0);
	assert_int_equal(activity_retention_days(&cfg, "activity"), 761);
	assert_int_equal(activity_retention_days(&cfg, "custom"), 761);
}

/* Each class loses what is past its days, and only that. */
static void
test_each_class(void **state)
{
	uint64_t deleted = 0;

	(void)state;
	add(1, 37, 15, 1);	/* Delete Lead: 14 days */
	add(2, 37, 13, 1);
	add(3, 13, 91, 1);	/* Change Data Value: 90 days */
	add(4, 13, 89, 1);
	add(5, 24, 91, 1);	/* Add to List: 90 days */
	add(6, 2, 762, 1);	/* Fill Out Form: 761 days */
	add(7, 2, 91, 1);
	add(8, 12, 5000, 1);	/* New Lead: kept */
	add(9, 99999, 5000, 1);	/* a type not in the catalogue */
	assert_int_equal(activity_prune_pass(db, &cfg, time_now_ms(), 10,
	    &no_stop, &deleted), 0);
	assert_int_equal(deleted, 4);
	assert_int_equal(left(1), 0);
	assert_int_equal(left(2), 1);
	assert_int_equal(left(3), 0);
	assert_int_equal(left(4), 1);
	assert_int_equal(left(5), 0);
	assert_int_equal(left(6), 0);
	assert_int_equal(left(7), 1);
	assert_int_equal(left(8), 1);
	assert_int_equal(left(9), 1);
	/* Nothing more is due. */
	deleted = 0;
	assert_int_equal(activity_prune_pass(db, &cfg, time_now_ms(), 10,
	    &no_stop, &deleted), 0);
	assert_int_equal(deleted, 0);
}

/* Days of 0 keep a class; shorter days take more. */
static void
test_days(void **state)
{
	uint64_t deleted = 0;

	(void)state;
	add(1, 37, 30, 1);
	add(2, 13, 30, 1);
	add(3, 12, 30, 1);
	cfg.activity_retention_deleted_days = 0;
	cfg.activity_retention_high_volume_days = 7;
	cfg.activity_retention_new_lead_days = 29;
	assert_int_equal(activity_prune_pass(db, &cfg, time_now_ms(), 10,
	    &no_stop, &deleted), 0);
	assert_int_equal(deleted, 2);
	assert_int_equal(left(1), 1);
	assert_int_equal(left(2), 0);
	assert_int_equal(left(3), 0);
}

/* Batches of 2 delete all 7 that are due, the newer ones stay. */
static void
test_batches(void **state)
{
	uint64_t deleted = 0;

	(void)state;
	add(1, 13, 100, 7);
	add(1, 13, 10, 3);
	assert_int_equal(activity_prune_pass(db, &cfg, time_now_ms(), 2,
	    &no_stop, &deleted), 0);
	assert_int_equal(deleted, 7);
	assert_int_equal(left(1), 3);
}

/* A stop before the pass: nothing is deleted. */
static void
test_stop(void **state)
{
	uint64_t deleted = 0;

	(void)state;
	add(1, 37, 30, 2);
	assert_int_equal(activity_prune_pass(db, &cfg, time_now_ms(), 10,
	    &stop, &deleted), 0);
	assert_int_equal(deleted, 0);
	assert_int_equal(left(1), 2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_classes, setup),
		cmocka_unit_test_setup(test_each_class, setup),
		cmocka_unit_test_setup(test_days, setup),
		cmocka_unit_test_setup(test_batches, setup),
		cmocka_unit_test_setup(test_stop, setup),
	};

	if (itest_config(&cfg) != 0) {
		fprintf(stderr, "MAUTO_TEST_DB_* not set: skipped\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
