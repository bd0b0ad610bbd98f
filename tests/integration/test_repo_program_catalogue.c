/*
 * Channels and tag types against a real MariaDB
 * (repo_program_catalogue.c): the channels migration 0029 seeds, with
 * their statuses by step, paged and by name; tag types of this run with
 * their values by name only.  Other integration tests run at the same
 * time on the same database, so the tag types are made under names of
 * this run.  Needs MAUTO_TEST_DB_*; without them it exits 77.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "db/pool.h"
#include "repo/repo.h"
#include "repo/repo_program_catalogue.h"
#include "util/arena.h"
#include "util/config.h"
#include "itest.h"

static struct config cfg;
static struct db *db;
static struct arena a;
static char tag[16];

static int
group_setup(void **state)
{
	(void)state;
	return itest_open(&db, &cfg, &a, tag, sizeof(tag));
}

static int
group_teardown(void **state)
{
	(void)state;
	return itest_close(db, &a);
}

static void
test_channels(void **state)
{
	struct repo_channel *c;
	size_t n;

	(void)state;
	assert_int_equal(repo_program_catalogue_channels(db, &a, NULL, 200,
	    0, &c, &n), 0);
	assert_int_equal(n, 9);
	assert_string_equal(c[0].name, "Content");
	assert_int_equal(c[0].nstatuses, 2);
	assert_string_equal(c[8].name, "Operational");
	assert_int_equal(c[8].nstatuses, 2);

	assert_int_equal(repo_program_catalogue_channels(db, &a, NULL, 2, 4,
	    &c, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(c[0].name, "Live Event");
	assert_int_equal(c[0].nstatuses, 5);
	assert_string_equal(c[1].name, "Tradeshow");
	assert_int_equal(c[1].nstatuses, 3);
	assert_int_equal(c[1].statuses[2].step, 20);
	assert_string_equal(c[1].statuses[2].name, "Visited Booth");
	assert_true(c[1].statuses[2].success);

	assert_int_equal(repo_program_catalogue_channels(db, &a, "Webinar", 1,
	    0, &c, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(c[0].program_type, "webinar");
	assert_int_equal(c[0].nstatuses, 5);
	assert_string_equal(c[0].statuses[0].name, "Not in Program");
	assert_null(c[0].statuses[0].description);
	assert_false(c[0].statuses[0].hidden);
	assert_non_null(c[0].created_at);

	assert_int_equal(repo_program_catalogue_channels(db, &a, "webinar", 1,
	    0, &c, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(repo_program_catalogue_channels(db, &a, NULL, 20, 9,
	    &c, &n), 0);
	assert_int_equal(n, 0);
}

static void
test_tag_types(void **state)
{
	struct repo_tag_type *t;
	const char *name = arena_printf(&a, "tt-%s", tag);
	size_t n;

	(void)state;
	itest_sql(db, arena_printf(&a, "INSERT INTO tag_type (name, "
	    "program_types, required) VALUES ('%s', '[program]', 1)", name));
	itest_sql(db, arena_printf(&a, "INSERT INTO tag_value SELECT id, 2, "
	    "'B' FROM tag_type WHERE name = '%s' UNION ALL SELECT id, 1, 'A' "
	    "FROM tag_type WHERE name = '%s'", name, name));

	assert_int_equal(repo_program_catalogue_tag_types(db, &a, name, 1, 0,
	    &t, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(t[0].name, name);
	assert_string_equal(t[0].program_types, "[program]");
	assert_true(t[0].required);
	assert_int_equal(t[0].nvalues, 2);
	assert_string_equal(t[0].values[0], "A");
	assert_string_equal(t[0].values[1], "B");

	/* The browse reads no values. */
	assert_int_equal(repo_program_catalogue_tag_types(db, &a, NULL, 200,
	    0, &t, &n), 0);
	assert_true(n >= 1);
	assert_int_equal(t[n - 1].nvalues, 0);

	itest_sql(db, arena_printf(&a, "DELETE FROM tag_type WHERE name = "
	    "'%s'", name));
	assert_int_equal(repo_program_catalogue_tag_types(db, &a, name, 1, 0,
	    &t, &n), 0);
	assert_int_equal(n, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_channels),
		cmocka_unit_test(test_tag_types),
	};

	if (itest_config(&cfg) != 0) {
		fprintf(stderr, "MAUTO_TEST_DB_* not set: skipped\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
