/*
 * Unit tests of model/progmeta.c: the tags and costs parameters of the
 * program operations, as JSON and as marketorestpython writes them
 * (Python's repr of a list of dicts).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/progmeta.h"
#include "util/arena.h"

static struct arena a;

static void
test_json(void **state)
{
	(void)state;
	assert_string_equal(progmeta_json(&a,
	    "[{'tagType': 'Region', 'tagValue': None, 'x': True}]"),
	    "[{\"tagType\": \"Region\", \"tagValue\": null, \"x\": true}]");
	assert_string_equal(progmeta_json(&a, "[{\"a\": \"it's\"}]"),
	    "[{\"a\": \"it's\"}]");
	assert_string_equal(progmeta_json(&a, "['say \"hi\"', 'it\\'s']"),
	    "[\"say \\\"hi\\\"\", \"it's\"]");
	assert_string_equal(progmeta_json(&a, "[{type: Folder}]"),
	    "[{\"type\": \"Folder\"}]");
	assert_string_equal(progmeta_json(&a, "[false, null, 12]"),
	    "[false, null, 12]");
}

static void
test_tags(void **state)
{
	struct progmeta_tag *t;
	const char *why;
	size_t n;

	(void)state;
	assert_int_equal(progmeta_tags(&a, "[{'tagType': 'Region', "
	    "'tagValue': 'North'}, {\"tagType\":\"Kind\",\"tagValue\":\"B\"}]",
	    &t, &n, &why), 0);
	assert_int_equal(n, 2);
	assert_string_equal(t[0].type, "Region");
	assert_string_equal(t[0].value, "North");
	assert_string_equal(t[1].type, "Kind");
	assert_int_equal(progmeta_tags(&a, "[]", &t, &n, &why), 0);
	assert_int_equal(n, 0);
	assert_int_equal(progmeta_tags(&a, "[{'tagType': 'Region'}]", &t, &n,
	    &why), -1);
	assert_int_equal(progmeta_tags(&a, "{'tagType': 'R', 'tagValue': "
	    "'N'}", &t, &n, &why), -1);
	assert_int_equal(progmeta_tags(&a, "[1]", &t, &n, &why), -1);
	assert_int_equal(progmeta_tags(&a, "not json [", &t, &n, &why), -1);
}

static void
test_costs(void **state)
{
	struct progmeta_cost *c;
	const char *why;
	size_t n;

	(void)state;
	assert_int_equal(progmeta_costs(&a, "[{\"startDate\":\"2015-01-01\","
	    "\"cost\":2000}, {'startDate': '2016-02-29', 'cost': 0, "
	    "'note': 'Google Adwords'}]", &c, &n, &why), 0);
	assert_int_equal(n, 2);
	assert_string_equal(c[0].start_date, "2015-01-01");
	assert_int_equal(c[0].cost, 2000);
	assert_null(c[0].note);
	assert_string_equal(c[1].note, "Google Adwords");
	assert_int_equal(progmeta_costs(&a, "[{'startDate': '2015-02-29', "
	    "'cost': 1}]", &c, &n, &why), -1);
	assert_int_equal(progmeta_costs(&a, "[{'startDate': '2015-01-01', "
	    "'cost': -1}]", &c, &n, &why), -1);
	assert_int_equal(progmeta_costs(&a, "[{'startDate': '2015-01-01', "
	    "'cost': 1.5}]", &c, &n, &why), -1);
	assert_int_equal(progmeta_costs(&a, "[{'cost': 1}]", &c, &n, &why),
	    -1);
}

static void
test_copy_name(void **state)
{
	char big[300];

	(void)state;
	assert_string_equal(progmeta_copy_name(&a, "Attendees", "Q1", "Q2"),
	    "Attendees (Q2)");
	/* The copy of a copy has one suffix, the newest program's. */
	assert_string_equal(progmeta_copy_name(&a, "Attendees (Q2)", "Q2",
	    "Q3"), "Attendees (Q3)");
	/* Another program's suffix is part of the name. */
	assert_string_equal(progmeta_copy_name(&a, "Attendees (Q2)", "Q1",
	    "Q3"), "Attendees (Q2) (Q3)");
	assert_string_equal(progmeta_copy_name(&a, "(Q1)", "Q1", "Q2"),
	    "(Q1) (Q2)");
	/* 251 characters and " (Q2)" pass the limit of 255, 250 do not;
	 * a character of two bytes counts once. */
	memset(big, 0, sizeof(big));
	memset(big, 'x', 251);
	assert_null(progmeta_copy_name(&a, big, "Q1", "Q2"));
	big[250] = '\0';
	assert_non_null(progmeta_copy_name(&a, big, "Q1", "Q2"));
	memcpy(big + 249, "\xc3\xa9", 2);
	assert_non_null(progmeta_copy_name(&a, big, "Q1", "Q2"));
	memcpy(big + 251, "\xc3\xa9", 3);
	assert_null(progmeta_copy_name(&a, big, "Q1", "Q2"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_tags),
		cmocka_unit_test(test_costs),
		cmocka_unit_test(test_copy_name),
	};
	int r;

	arena_init(&a);
	r = cmocka_run_group_tests(tests, NULL, NULL);
	arena_clear(&a);
	return r;
}
