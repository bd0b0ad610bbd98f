/*
 * model/trigger.c: each operator of a trigger constraint (is, is not,
 * contains, starts with, is empty, is not empty), values compared
 * without case, a value given by id, and whole triggers: the primary
 * constraint by id, by name, by a program-local list's bare name and by
 * a field's REST name for Data Value Changed; other constraints over
 * the attributes they name.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "model/smartlist.h"
#include "model/trigger.h"

static void
test_is(void **state)
{
	(void)state;
	assert_true(trigger_cond_value("is", "[\"Web\"]", "Web", 0));
	assert_true(trigger_cond_value("is", "[\"Web\"]", "wEB", 0));
	assert_true(trigger_cond_value("is", "[\"a\",\"Web\"]", "web", 0));
	assert_false(trigger_cond_value("is", "[\"Web\"]", "Webinar", 0));
	assert_false(trigger_cond_value("is", "[\"Web\"]", NULL, 0));
	assert_false(trigger_cond_value("is", "[]", "Web", 0));
	/* No operator reads as "is". */
	assert_true(trigger_cond_value(NULL, "[\"Web\"]", "web", 0));
	/* No values, or values that are not an array, match nothing. */
	assert_false(trigger_cond_value("is", NULL, "Web", 0));
	assert_false(trigger_cond_value("is", "{\"a\":1}", "Web", 0));
	assert_false(trigger_cond_value("is", "not json", "Web", 0));
}

static void
test_is_by_id(void **state)
{
	(void)state;
	assert_true(trigger_cond_value("is", "[\"1042\"]", "Newsletter",
	    1042));
	assert_false(trigger_cond_value("is", "[\"1042\"]", "Newsletter",
	    104));
	assert_false(trigger_cond_value("is", "[\"0\"]", "Newsletter", 0));
	assert_true(trigger_cond_value("is not", "[\"7\"]", "x", 8));
	assert_false(trigger_cond_value("is not", "[\"7\"]", "x", 7));
}

static void
test_is_not(void **state)
{
	(void)state;
	assert_true(trigger_cond_value("is not", "[\"Web\"]", "Email", 0));
	assert_false(trigger_cond_value("is not", "[\"Web\"]", "WEB", 0));
	assert_false(trigger_cond_value("is not", "[\"a\",\"b\"]", "B", 0));
	assert_true(trigger_cond_value("is not", "[\"Web\"]", NULL, 0));
	assert_true(trigger_cond_value("is not", "[]", "Web", 0));
}

static void
test_contains(void **state)
{
	(void)state;
	assert_true(trigger_cond_value("contains", "[\"inar\"]", "Webinar",
	    0));
	assert_true(trigger_cond_value("contains", "[\"WEB\"]", "a webinar",
	    0));
	assert_true(trigger_cond_value("contains", "[\"x\",\"bin\"]",
	    "Webinar", 0));
	assert_false(trigger_cond_value("contains", "[\"xyz\"]", "Webinar",
	    0));
	assert_false(trigger_cond_value("contains", "[\"a\"]", NULL, 0));
	/* An id is no text to contain. */
	assert_false(trigger_cond_value("contains", "[\"12\"]", "x", 12));
}

static void
test_starts_with(void **state)
{
	(void)state;
	assert_true(trigger_cond_value("starts with", "[\"web\"]", "Webinar",
	    0));
	assert_true(trigger_cond_value("starts with", "[\"Webinar\"]",
	    "webinar", 0));
	assert_false(trigger_cond_value("starts with", "[\"inar\"]",
	    "Webinar", 0));
	assert_false(trigger_cond_value("starts with", "[\"Webinars\"]",
	    "Webinar", 0));
	assert_false(trigger_cond_value("starts with", "[\"a\"]", NULL, 0));
}

static void
test_empty(void **state)
{
	(void)state;
	assert_true(trigger_cond_value("is empty", NULL, NULL, 0));
	assert_true(trigger_cond_value("is empty", "[\"x\"]", "", 0));
	assert_false(trigger_cond_value("is empty", "[]", "x", 0));
	assert_false(trigger_cond_value("is not empty", NULL, NULL, 0));
	assert_false(trigger_cond_value("is not empty", "[]", "", 0));
	assert_true(trigger_cond_value("is not empty", "[\"y\"]", "x", 0));
	/* An id alone is no value. */
	assert_false(trigger_cond_value("is not empty", "[]", NULL, 5));
}

/* A trigger rule of type with conditions conds[0..n). */
static struct smartlist_rule
rule(int32_t type, struct smartlist_cond *conds, size_t n)
{
	struct smartlist_rule r;

	memset(&r, 0, sizeof(r));
	r.activity = true;
	r.trigger = true;
	r.type_id = type;
	r.conds = conds;
	r.nconds = n;
	return r;
}

static void
test_primary(void **state)
{
	struct smartlist_cond c = { .primary = true, .op = "is",
	    .values_json = "[\"Newsletter\"]" };
	struct smartlist_rule r = rule(24, &c, 1);
	struct trigger_activity a = { 24, 31, "Newsletter", NULL };

	(void)state;
	assert_true(trigger_matches(&r, &a));
	/* By id. */
	c.values_json = "[\"31\"]";
	assert_true(trigger_matches(&r, &a));
	a.primary_id = 32;
	assert_false(trigger_matches(&r, &a));
	/* A list of a program: its bare name, or the whole. */
	a.primary_value = "Spring Event.Newsletter";
	c.values_json = "[\"newsletter\"]";
	assert_true(trigger_matches(&r, &a));
	c.values_json = "[\"Spring Event.Newsletter\"]";
	assert_true(trigger_matches(&r, &a));
	c.values_json = "[\"Spring Event\"]";
	assert_false(trigger_matches(&r, &a));
	/* No primary value. */
	a.primary_value = NULL;
	c.values_json = "[\"Newsletter\"]";
	assert_false(trigger_matches(&r, &a));
	c.op = "is empty";
	assert_true(trigger_matches(&r, &a));
}

static void
test_primary_rest_name(void **state)
{
	struct smartlist_cond c = { .primary = true, .op = "is",
	    .values_json = "[\"firstName\"]" };
	struct smartlist_rule r = rule(TRIGGER_DATA_VALUE_CHANGED, &c, 1);
	struct json_object *attrs = json_tokener_parse(
	    "{\"Attribute Name\":\"firstName\",\"Old Value\":\"Ann\"}");
	struct trigger_activity a = { TRIGGER_DATA_VALUE_CHANGED, 0,
	    "First Name", attrs };

	(void)state;
	assert_true(trigger_matches(&r, &a));
	c.values_json = "[\"first name\"]";
	assert_true(trigger_matches(&r, &a));
	c.values_json = "[\"lastName\"]";
	assert_false(trigger_matches(&r, &a));
	/* Only Data Value Changed reads the REST name. */
	c.values_json = "[\"firstName\"]";
	a.type = 24;
	r.type_id = 24;
	assert_false(trigger_matches(&r, &a));
	json_object_put(attrs);
}

static void
test_other_conditions(void **state)
{
	struct smartlist_cond c[4] = {
		{ .primary = true, .op = "is", .values_json = "[\"Status\"]" },
		{ .name = "New Value", .op = "is", .values_json =
		    "[\"Hot\"]" },
		{ .name = "Previous Value", .op = "is not", .values_json =
		    "[\"Hot\"]" },
		{ .name = "Date of Activity", .op = "in past",
		    .values_json = "[\"2 days\"]" },
	};
	struct smartlist_rule r = rule(13, c, 4);
	struct json_object *attrs = json_tokener_parse(
	    "{\"New Value\":\"hot\",\"Old Value\":\"Cold\"}");
	struct trigger_activity a = { 13, 0, "Status", attrs };

	(void)state;
	assert_true(trigger_matches(&r, &a));
	/* Previous Value reads Old Value. */
	c[2].values_json = "[\"cold\"]";
	assert_false(trigger_matches(&r, &a));
	c[2].values_json = "[\"Hot\"]";
	/* An attribute the activity lacks is no value. */
	c[1].name = "Reason";
	assert_false(trigger_matches(&r, &a));
	c[1].op = "is empty";
	assert_true(trigger_matches(&r, &a));
	/* Every constraint must hold: a failing primary fails it. */
	c[0].values_json = "[\"Rating\"]";
	assert_false(trigger_matches(&r, &a));
	/* No constraints: any activity of the type. */
	r.nconds = 0;
	assert_true(trigger_matches(&r, &a));
	json_object_put(attrs);
}

static void
test_previous_status(void **state)
{
	struct smartlist_cond c = { .name = "Previous Status", .op = "is",
	    .values_json = "[\"Invited\"]" };
	struct smartlist_rule r = rule(104, &c, 1);
	struct json_object *attrs = json_tokener_parse(
	    "{\"Old Status\":\"Invited\",\"New Status\":\"Registered\"}");
	struct trigger_activity a = { 104, 9, "Spring Event", attrs };

	(void)state;
	assert_true(trigger_matches(&r, &a));
	c.values_json = "[\"Registered\"]";
	assert_false(trigger_matches(&r, &a));
	/* A constraint with no name is not evaluated. */
	c.name = NULL;
	assert_true(trigger_matches(&r, &a));
	json_object_put(attrs);
}

/* "is not" on the primary value: none of the ways it is named matches. */
static void
test_primary_is_not(void **state)
{
	struct smartlist_cond c = { .primary = true, .op = "is not",
	    .values_json = "[\"Newsletter\"]" };
	struct smartlist_rule r = rule(24, &c, 1);
	struct trigger_activity a = { 24, 31, "Spring Event.Newsletter",
	    NULL };

	(void)state;
	assert_false(trigger_matches(&r, &a));
	c.values_json = "[\"31\"]";
	assert_false(trigger_matches(&r, &a));
	c.values_json = "[\"Other\"]";
	assert_true(trigger_matches(&r, &a));
}

/* Person is Created: its primary constraint is the Source Type. */
static void
test_person_created(void **state)
{
	struct smartlist_cond c = { .primary = true, .op = "is",
	    .values_json = "[\"Web service API\"]" };
	struct smartlist_rule r = rule(TRIGGER_PERSON_CREATED, &c, 1);
	struct json_object *attrs = json_tokener_parse(
	    "{\"Source Type\":\"Web service API\"}");
	struct trigger_activity a = { TRIGGER_PERSON_CREATED, 7, "Ann Lee",
	    attrs };

	(void)state;
	assert_true(trigger_matches(&r, &a));
	c.values_json = "[\"Ann Lee\"]";
	assert_false(trigger_matches(&r, &a));
	c.values_json = "[\"Web form fillout\"]";
	c.op = "is not";
	assert_true(trigger_matches(&r, &a));
	json_object_put(attrs);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_is),
		cmocka_unit_test(test_is_by_id),
		cmocka_unit_test(test_is_not),
		cmocka_unit_test(test_contains),
		cmocka_unit_test(test_starts_with),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_primary),
		cmocka_unit_test(test_primary_rest_name),
		cmocka_unit_test(test_other_conditions),
		cmocka_unit_test(test_previous_status),
		cmocka_unit_test(test_primary_is_not),
		cmocka_unit_test(test_person_created),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
