/*
 * The parameters of statements built at run time (db/params.c): padded
 * IN lists, rows per multi-row statement, and what each binder binds.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <mysql.h>

#include "bounds.h"
#include "db/params.h"
#include "util/buf.h"

static void
test_padded_sizes(void **state)
{
	(void)state;
	assert_int_equal(params_padded(0), 1);
	assert_int_equal(params_padded(1), 1);
	assert_int_equal(params_padded(2), 10);
	assert_int_equal(params_padded(50), 50);
	assert_int_equal(params_padded(51), 100);
	assert_int_equal(params_padded(MAX_BATCH_RECORDS), MAX_BATCH_RECORDS);
	assert_int_equal(params_padded(MAX_BATCH_RECORDS + 1), 0);
}

static void
test_rows_per_stmt_under_the_limit(void **state)
{
	(void)state;
	assert_int_equal(params_rows_per_stmt(5), MAX_STMT_PARAMS / 5);
	assert_int_equal(params_rows_per_stmt(0), MAX_STMT_PARAMS);
	assert_int_equal(params_rows_per_stmt(MAX_STMT_PARAMS + 1), 1);
}

static void
test_marks(void **state)
{
	struct buf b;

	(void)state;
	buf_init(&b, 64);
	params_add_marks(&b, 3);
	assert_true(buf_ok(&b));
	assert_string_equal(b.data, "?,?,?");
	buf_clear(&b);
}

static void
test_ids_padded_with_null(void **state)
{
	static const int64_t ids[] = { 7, 9 };
	struct params p;

	(void)state;
	params_init(&p, 10);
	params_ids(&p, ids, 2, 10);
	assert_int_equal(p.n, 10);
	assert_int_equal(p.b[0].buffer_type, MYSQL_TYPE_LONGLONG);
	assert_int_equal(*(const int64_t *)p.b[1].buffer, 9);
	assert_int_equal(p.b[2].buffer_type, MYSQL_TYPE_NULL);
	assert_int_equal(p.b[9].buffer_type, MYSQL_TYPE_NULL);
	params_clear(&p);
}

static void
test_values_and_cap(void **state)
{
	struct params p;

	(void)state;
	params_init(&p, 3);
	params_str(&p, "abc");
	params_str(&p, NULL);
	params_u64(&p, UINT64_MAX);
	assert_int_equal(p.b[0].buffer_type, MYSQL_TYPE_STRING);
	assert_int_equal(*p.b[0].length, 3);
	assert_int_equal(p.b[1].buffer_type, MYSQL_TYPE_NULL);
	assert_true(p.b[2].is_unsigned);
	/* Past the cap the last placeholder is written again, never beyond. */
	params_i64(&p, 5);
	assert_int_equal(p.n, 3);
	assert_false(p.b[2].is_unsigned);
	params_clear(&p);
	assert_null(p.b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_padded_sizes),
		cmocka_unit_test(test_rows_per_stmt_under_the_limit),
		cmocka_unit_test(test_marks),
		cmocka_unit_test(test_ids_padded_with_null),
		cmocka_unit_test(test_values_and_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
