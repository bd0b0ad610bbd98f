/* Permission names, aliases, Read-Write expansion and route checks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/perm.h"

static void
test_names_round_trip(void **state)
{
	enum perm p, q;
	const char *n;
	int i, j;

	(void)state;
	for (i = 0; i < PERM__MAX; i++) {
		p = (enum perm)i;
		n = perm_name(p);
		assert_non_null(n);
		assert_int_equal(perm_parse(n, &q), 0);
		assert_int_equal(q, p);
		for (j = 0; j < i; j++)
			assert_string_not_equal(n, perm_name((enum perm)j));
	}
	assert_null(perm_name(PERM__MAX));
	assert_null(perm_name((enum perm)-1));
}

static void
test_names_match_operations(void **state)
{
	enum perm p;

	(void)state;
	/* The spellings of operations.tsv's permission column. */
	assert_string_equal(perm_name(PERM_READ_ONLY_LEAD), "Read-Only Lead");
	assert_string_equal(perm_name(PERM_READ_WRITE_ASSETS),
	    "Read-Write Assets");
	assert_string_equal(perm_name(PERM_ACCESS_DESIGN_STUDIO),
	    "Access Design Studio");
	assert_string_equal(perm_name(PERM_READ_WRITE_SCHEMA_CUSTOM_FIELD),
	    "Read-Write Schema Custom Field");
	assert_int_equal(perm_parse("Read-Only Custom Object Type", &p), 0);
	assert_int_equal(p, PERM_READ_ONLY_CUSTOM_OBJECT_TYPE);
	assert_int_equal(perm_parse("Read-Only Custom Object", &p), 0);
	assert_int_equal(p, PERM_READ_ONLY_CUSTOM_OBJECT);
	/* Operators may type any case. */
	assert_int_equal(perm_parse("read-write lead", &p), 0);
	assert_int_equal(p, PERM_READ_WRITE_LEAD);
}

static void
test_aliases(void **state)
{
	enum perm p;

	(void)state;
	assert_int_equal(perm_parse("Read-Asset", &p), 0);
	assert_int_equal(p, PERM_READ_ONLY_ASSETS);
	assert_int_equal(perm_parse("Read-Only Asset", &p), 0);
	assert_int_equal(p, PERM_READ_ONLY_ASSETS);
	assert_int_equal(perm_parse("Read-Write Asset", &p), 0);
	assert_int_equal(p, PERM_READ_WRITE_ASSETS);
}

static void
test_unknown(void **state)
{
	enum perm p = PERM_READ_ONLY_LEAD;

	(void)state;
	assert_int_equal(perm_parse("Read-Write Everything", &p), -1);
	assert_int_equal(p, PERM__MAX);
	assert_int_equal(perm_parse("", &p), -1);
	assert_int_equal(perm_parse(NULL, &p), -1);
	assert_int_equal(perm_parse("Read-Only Lead ", &p), -1);
	assert_int_equal(perm_parse("Read-Only", &p), -1);
}

static void
test_expand(void **state)
{
	perm_set s;

	(void)state;
	s = perm_expand(PERM_BIT(PERM_READ_WRITE_LEAD));
	assert_true(s == (PERM_BIT(PERM_READ_WRITE_LEAD) |
	    PERM_BIT(PERM_READ_ONLY_LEAD)));
	s = perm_expand(PERM_BIT(PERM_READ_WRITE_ASSETS));
	assert_true(s & PERM_BIT(PERM_READ_ONLY_ASSETS));
	s = perm_expand(PERM_BIT(PERM_READ_WRITE_CUSTOM_OBJECT));
	assert_true(s & PERM_BIT(PERM_READ_ONLY_CUSTOM_OBJECT));
	assert_false(s & PERM_BIT(PERM_READ_ONLY_CUSTOM_OBJECT_TYPE));
	s = perm_expand(PERM_BIT(PERM_READ_WRITE_CUSTOM_OBJECT_TYPE));
	assert_true(s & PERM_BIT(PERM_READ_ONLY_CUSTOM_OBJECT_TYPE));
	assert_false(s & PERM_BIT(PERM_READ_ONLY_CUSTOM_OBJECT));
	s = perm_expand(PERM_BIT(PERM_READ_WRITE_CAMPAIGNS));
	assert_true(s & PERM_BIT(PERM_READ_ONLY_CAMPAIGNS));
	assert_false(s & PERM_BIT(PERM_ACTIVATE_CAMPAIGN));
	/* Read-Only never implies Read-Write; others imply nothing. */
	assert_true(perm_expand(PERM_BIT(PERM_READ_ONLY_LEAD)) ==
	    PERM_BIT(PERM_READ_ONLY_LEAD));
	assert_true(perm_expand(PERM_BIT(PERM_EDIT_EMAIL)) ==
	    PERM_BIT(PERM_EDIT_EMAIL));
	assert_true(perm_expand(PERM_BIT(PERM_READ_WRITE_SCHEMA_STANDARD_FIELD))
	    == PERM_BIT(PERM_READ_WRITE_SCHEMA_STANDARD_FIELD));
	assert_true(perm_expand(PERM_ALL) == PERM_ALL);
	assert_true(perm_expand(0) == 0);
	/* Bits past the enum are dropped. */
	assert_true(perm_expand(PERM_BIT(PERM__MAX)) == 0);
}

static void
test_allows(void **state)
{
	perm_set lead_any = PERM_BIT(PERM_READ_ONLY_LEAD) |
	    PERM_BIT(PERM_READ_WRITE_LEAD);
	perm_set v2_read = PERM_BIT(PERM_READ_ONLY_ASSETS) |
	    PERM_BIT(PERM_ACCESS_DESIGN_STUDIO) | PERM_BIT(PERM_ACCESS_EMAIL);

	(void)state;
	/* Lead read: either lead permission. */
	assert_true(perm_allows(PERM_BIT(PERM_READ_ONLY_LEAD), lead_any, 0));
	assert_true(perm_allows(PERM_BIT(PERM_READ_WRITE_LEAD), lead_any, 0));
	assert_false(perm_allows(PERM_BIT(PERM_READ_ONLY_ASSETS), lead_any,
	    0));
	/* Lead write: Read-Only is not enough. */
	assert_false(perm_allows(PERM_BIT(PERM_READ_ONLY_LEAD), 0,
	    PERM_BIT(PERM_READ_WRITE_LEAD)));
	/* Read-Write implies the Read-Only a route demands. */
	assert_true(perm_allows(PERM_BIT(PERM_READ_WRITE_LEAD), 0,
	    PERM_BIT(PERM_READ_ONLY_LEAD)));
	/* All of a v2 email read's three permissions are needed. */
	assert_true(perm_allows(v2_read, 0, v2_read));
	assert_true(perm_allows(PERM_BIT(PERM_READ_WRITE_ASSETS) |
	    PERM_BIT(PERM_ACCESS_DESIGN_STUDIO) | PERM_BIT(PERM_ACCESS_EMAIL),
	    0, v2_read));
	assert_false(perm_allows(PERM_BIT(PERM_READ_ONLY_ASSETS) |
	    PERM_BIT(PERM_ACCESS_DESIGN_STUDIO), 0, v2_read));
	/* No requirement: anyone authenticated, even with no permission. */
	assert_true(perm_allows(0, 0, 0));
	assert_false(perm_allows(0, lead_any, 0));
	/* any and all together. */
	assert_false(perm_allows(PERM_BIT(PERM_READ_ONLY_LEAD), lead_any,
	    PERM_BIT(PERM_APPROVE_ASSETS)));
	assert_true(perm_allows(PERM_BIT(PERM_READ_ONLY_LEAD) |
	    PERM_BIT(PERM_APPROVE_ASSETS), lead_any,
	    PERM_BIT(PERM_APPROVE_ASSETS)));
	assert_true(perm_allows(PERM_ALL, lead_any, PERM_ALL));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_round_trip),
		cmocka_unit_test(test_names_match_operations),
		cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_expand),
		cmocka_unit_test(test_allows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
