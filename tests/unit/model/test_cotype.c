/*
 * model/cotype.c: names, data types, column types, typed values, GUIDs,
 * and the rules of type changes (docs/behaviour.md §6.1).  No database.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "model/cotype.h"
#include "model/leadfield.h"
#include "util/arena.h"

/* A string literal for the char * members of struct co_field. */
#define S(x)	((char *)(uintptr_t)(x))

static void
test_names(void **state)
{
	char buf[256], long_name[201];

	(void)state;
	assert_null(co_name_check("apiName", "car", buf, sizeof(buf)));
	assert_null(co_name_check("apiName", "Car_2", buf, sizeof(buf)));
	assert_null(co_name_check("apiName", "status", buf, sizeof(buf)));
	assert_non_null(co_name_check("apiName", "", buf, sizeof(buf)));
	assert_string_equal(buf, "apiName cannot be blank");
	assert_non_null(co_name_check("apiName", "select", buf, sizeof(buf)));
	assert_string_equal(buf, "Invalid apiName 'select': an SQL reserved "
	    "word");
	assert_non_null(co_name_check("name", "Drop", buf, sizeof(buf)));
	assert_non_null(co_name_check("name", "utc_timestamp", buf,
	    sizeof(buf)));
	assert_non_null(co_name_check("name", "a'b", buf, sizeof(buf)));
	assert_non_null(strstr(buf, "must start with a letter"));
	assert_non_null(co_name_check("name", "a`b", buf, sizeof(buf)));
	assert_non_null(co_name_check("name", "a b", buf, sizeof(buf)));
	assert_non_null(co_name_check("name", "_a", buf, sizeof(buf)));
	assert_non_null(co_name_check("name", "9a", buf, sizeof(buf)));
	assert_non_null(co_name_check("name", "caf\xc3\xa9", buf, sizeof(buf)));
	memset(long_name, 'a', 50);
	long_name[50] = '\0';
	assert_null(co_name_check("name", long_name, buf, sizeof(buf)));
	memset(long_name, 'a', 200);
	long_name[200] = '\0';
	assert_non_null(co_name_check("name", long_name, buf, sizeof(buf)));
	assert_non_null(strstr(buf, "longer than 50 characters"));
	/* The hostile name is cut in the message. */
	assert_true(strlen(buf) < 100);
	/* Control bytes are not echoed. */
	assert_non_null(co_name_check("name", "a\nb", buf, sizeof(buf)));
	assert_null(strchr(buf, '\n'));
	assert_true(co_is_system_field("MARKETOGUID"));
	assert_true(co_is_system_field("createdAt"));
	assert_false(co_is_system_field("vin"));
	assert_true(co_is_reserved("WHERE"));
	assert_false(co_is_reserved("vin"));
}

static void
test_dtypes(void **state)
{
	enum co_dtype t;
	int i;

	(void)state;
	for (i = 0; i < CO_DTYPE__MAX; i++) {
		assert_int_equal(co_dtype_parse(co_dtype_name((enum co_dtype)i),
		    &t), 0);
		assert_int_equal(t, i);
	}
	assert_int_equal(co_dtype_parse("String", &t), -1);
	assert_int_equal(co_dtype_parse("varchar", &t), -1);
	assert_int_equal(co_dtype_parse(NULL, &t), -1);
	assert_string_equal(co_state_name(false, true), "draft");
	assert_string_equal(co_state_name(true, false), "approved");
	assert_string_equal(co_state_name(true, true), "approvedWithDraft");
}

static void
test_column_types(void **state)
{
	struct co_field f;

	(void)state;
	memset(&f, 0, sizeof(f));
	f.type = CO_STRING;
	assert_string_equal(co_column_type(&f), "TEXT");
	f.is_dedupe = true;
	assert_string_equal(co_column_type(&f), "VARCHAR(255)");
	f.is_dedupe = false;
	f.type = CO_TEXT;
	assert_string_equal(co_column_type(&f), "MEDIUMTEXT");
	f.type = CO_INTEGER;
	assert_string_equal(co_column_type(&f), "INT");
	f.type = CO_CURRENCY;
	assert_string_equal(co_column_type(&f), "DOUBLE");
	f.type = CO_BOOLEAN;
	assert_string_equal(co_column_type(&f), "TINYINT(1)");
	f.type = CO_DATE;
	assert_string_equal(co_column_type(&f), "DATE");
	f.type = CO_DATETIME;
	assert_string_equal(co_column_type(&f), "DATETIME");
	f.type = CO_EMAIL;
	assert_string_equal(co_column_type(&f), "VARCHAR(255)");
	f.type = CO_LINK;
	f.is_link = true;
	f.key_type = CO_INTEGER;
	assert_string_equal(co_column_type(&f), "INT");
	f.key_type = CO_STRING;
	assert_string_equal(co_column_type(&f), "VARCHAR(255)");
}

/* Parses JSON text v for a field of type t; returns the parse result. */
static int
parse(enum co_dtype t, const char *v, struct arena *a, struct lead_value *o)
{
	struct co_field f;
	struct json_object *j;
	int r;

	memset(&f, 0, sizeof(f));
	f.name = S("x");
	f.type = t;
	if (t == CO_LINK)
		f.key_type = CO_INTEGER;
	j = json_tokener_parse(v);
	r = co_value_parse(&f, j, a, o);
	json_object_put(j);
	return r;
}

static void
test_values(void **state)
{
	struct arena a;
	struct lead_value v;

	(void)state;
	arena_init(&a);
	assert_int_equal(parse(CO_INTEGER, "14", &a, &v), 0);
	assert_int_equal(v.kind, LV_INT);
	assert_int_equal(v.i, 14);
	assert_int_equal(parse(CO_INTEGER, "\"14\"", &a, &v), 0);
	assert_int_equal(parse(CO_INTEGER, "14.1", &a, &v), -1);
	assert_int_equal(parse(CO_INTEGER, "\"14.1\"", &a, &v), -1);
	assert_int_equal(parse(CO_INTEGER, "3000000000", &a, &v), -1);
	assert_int_equal(parse(CO_FLOAT, "\"14c\"", &a, &v), -1);
	assert_int_equal(parse(CO_FLOAT, "\"1.5\"", &a, &v), 0);
	assert_int_equal(v.kind, LV_DBL);
	assert_int_equal(parse(CO_BOOLEAN, "\"other\"", &a, &v), -1);
	assert_int_equal(parse(CO_BOOLEAN, "true", &a, &v), 0);
	assert_int_equal(v.i, 1);
	assert_int_equal(parse(CO_DATE, "\"yesterday\"", &a, &v), -1);
	assert_int_equal(parse(CO_DATE, "\"2020-02-30\"", &a, &v), -1);
	assert_int_equal(parse(CO_DATE, "\"2020-02-29\"", &a, &v), 0);
	assert_string_equal(v.s, "2020-02-29");
	assert_int_equal(parse(CO_DATETIME, "\"2024-03-01T10:00:00+02:00\"", &a,
	    &v), 0);
	assert_string_equal(v.s, "2024-03-01 08:00:00");
	assert_int_equal(parse(CO_EMAIL, "\"bademail\"", &a, &v), -1);
	assert_int_equal(parse(CO_EMAIL, "\"a@b.co\"", &a, &v), 0);
	assert_int_equal(parse(CO_LINK, "\"x\"", &a, &v), -1);
	assert_int_equal(parse(CO_LINK, "12", &a, &v), 0);
	assert_int_equal(parse(CO_STRING, "\"\"", &a, &v), 0);
	assert_int_equal(v.kind, LV_NULL);
	assert_int_equal(parse(CO_STRING, "null", &a, &v), 0);
	assert_int_equal(v.kind, LV_NULL);
	assert_int_equal(parse(CO_STRING, "{\"a\":1}", &a, &v), -1);
	assert_int_equal(parse(CO_STRING, "\"a\\u0000b\"", &a, &v), -1);
	{
		char big[300];

		memset(big, 'x', sizeof(big));
		big[0] = '"';
		big[257] = '"';
		big[258] = '\0';	/* 256 characters */
		assert_int_equal(parse(CO_STRING, big, &a, &v), -1);
		big[256] = '"';
		big[257] = '\0';	/* 255 */
		assert_int_equal(parse(CO_STRING, big, &a, &v), 0);
	}
	arena_clear(&a);
}

static void
test_guid(void **state)
{
	char a[CO_GUID_LEN + 1], b[CO_GUID_LEN + 1];
	size_t i;

	(void)state;
	co_guid_new(a);
	co_guid_new(b);
	assert_int_equal(strlen(a), CO_GUID_LEN);
	assert_true(co_guid_valid(a, strlen(a)));
	assert_string_not_equal(a, b);
	assert_int_equal(a[14], '4');
	assert_non_null(strchr("89ab", a[19]));
	for (i = 0; i < CO_GUID_LEN; i++)
		assert_false(a[i] >= 'A' && a[i] <= 'F');
	assert_true(co_guid_valid("D911EAA1-FD0B-4A99-9B71-C6A7233C782C", 36));
	assert_false(co_guid_valid("d911eaa1fd0b4a999b71c6a7233c782c", 32));
	assert_false(co_guid_valid("d911eaa1-fd0b-4a99-9b71-c6a7233c782g", 36));
	assert_false(co_guid_valid("d911eaa1-fd0b-4a99-9b71c-6a7233c782c", 36));
}

/* A draft with vin (dedupe) and leadId (link to lead). */
static void
make_draft(struct co_type *d)
{
	static const struct co_field vin = { .name = S("vin"),
	    .display_name = S("VIN"), .type = CO_STRING, .is_dedupe = true };
	static const struct co_field lead = { .name = S("leadId"),
	    .display_name = S("Lead"), .type = CO_LINK, .is_link = true,
	    .related_object = S("lead"), .related_field = S("id"),
	    .key_type = CO_INTEGER };
	char msg[256];

	memset(d, 0, sizeof(*d));
	d->api_name = strdup("car");
	assert_int_equal(co_rule_add_field(d, NULL, &vin, msg, sizeof(msg)),
	    CO_RULE_OK);
	assert_int_equal(co_rule_add_field(d, NULL, &lead, msg, sizeof(msg)),
	    CO_RULE_OK);
}

static void
copy_type(struct co_type *dst, const struct co_type *src)
{
	size_t i;

	memset(dst, 0, sizeof(*dst));
	dst->api_name = strdup(src->api_name);
	dst->nfields = src->nfields;
	dst->fields = calloc(src->nfields, sizeof(*dst->fields));
	for (i = 0; i < src->nfields; i++)
		co_field_copy(&dst->fields[i], &src->fields[i]);
}

static void
test_rules_draft(void **state)
{
	struct co_type d;
	struct co_field f, upd;
	char msg[256], name[16];
	int i;

	(void)state;
	make_draft(&d);
	memset(&f, 0, sizeof(f));
	f.name = S("VIN");
	f.display_name = S("Again");
	assert_int_equal(co_rule_add_field(&d, NULL, &f, msg, sizeof(msg)),
	    CO_RULE_REFUSED);
	assert_string_equal(msg, "Field 'VIN' already exists");
	/* Text cannot be a key; at most 3 keys. */
	f.name = S("notes");
	f.type = CO_TEXT;
	f.is_dedupe = true;
	assert_int_equal(co_rule_add_field(&d, NULL, &f, msg, sizeof(msg)),
	    CO_RULE_REFUSED);
	assert_int_equal(d.nfields, 2);
	f.type = CO_INTEGER;
	f.name = S("k2");
	assert_int_equal(co_rule_add_field(&d, NULL, &f, msg, sizeof(msg)),
	    CO_RULE_OK);
	f.name = S("k3");
	assert_int_equal(co_rule_add_field(&d, NULL, &f, msg, sizeof(msg)),
	    CO_RULE_OK);
	f.name = S("k4");
	assert_int_equal(co_rule_add_field(&d, NULL, &f, msg, sizeof(msg)),
	    CO_RULE_REFUSED);
	assert_string_equal(msg, "A custom object type has at most 3 dedupe "
	    "fields");
	assert_int_equal(co_rule_approvable(&d, NULL, msg, sizeof(msg)),
	    CO_RULE_OK);
	/* A draft field may change type, key flag and name. */
	memset(&upd, 0, sizeof(upd));
	upd.type = CO_STRING;
	upd.name = S("key2");
	assert_int_equal(co_rule_update_field(&d, NULL, "k2", &upd,
	    CO_UPD_TYPE | CO_UPD_NAME, msg, sizeof(msg)), CO_RULE_OK);
	assert_non_null(co_type_field(&d, "key2"));
	assert_int_equal(co_type_field(&d, "key2")->type, CO_STRING);
	assert_int_equal(co_rule_update_field(&d, NULL, "nosuch", &upd,
	    CO_UPD_TYPE, msg, sizeof(msg)), CO_RULE_NO_FIELD);
	upd.name = S("vin");
	assert_int_equal(co_rule_update_field(&d, NULL, "key2", &upd,
	    CO_UPD_NAME, msg, sizeof(msg)), CO_RULE_REFUSED);
	/* A link needs its target. */
	upd.type = CO_LINK;
	assert_int_equal(co_rule_update_field(&d, NULL, "key2", &upd,
	    CO_UPD_TYPE, msg, sizeof(msg)), CO_RULE_REFUSED);
	assert_string_equal(msg, "Link field 'key2' needs relatedTo");
	assert_int_equal(co_rule_delete_field(&d, NULL, "KEY2", msg,
	    sizeof(msg)), CO_RULE_OK);
	assert_int_equal(co_rule_delete_field(&d, NULL, "key2", msg,
	    sizeof(msg)), CO_RULE_NO_FIELD);
	assert_null(co_type_field(&d, "key2"));
	assert_non_null(co_type_field(&d, "k3"));
	/* Up to 50 fields. */
	memset(&f, 0, sizeof(f));
	f.type = CO_STRING;
	for (i = (int)d.nfields; i < CO_MAX_FIELDS; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		f.name = name;
		assert_int_equal(co_rule_add_field(&d, NULL, &f, msg,
		    sizeof(msg)), CO_RULE_OK);
	}
	f.name = S("one_more");
	assert_int_equal(co_rule_add_field(&d, NULL, &f, msg, sizeof(msg)),
	    CO_RULE_REFUSED);
	assert_int_equal(d.nfields, CO_MAX_FIELDS);
	co_type_clear(&d);
	/* No key: not approvable. */
	memset(&d, 0, sizeof(d));
	assert_int_equal(co_rule_approvable(&d, NULL, msg, sizeof(msg)),
	    CO_RULE_REFUSED);
}

static void
test_rules_approved(void **state)
{
	struct co_type appr, d;
	struct co_field f, upd;
	char msg[256];

	(void)state;
	make_draft(&appr);
	copy_type(&d, &appr);
	memset(&f, 0, sizeof(f));
	f.name = S("plate");
	f.type = CO_STRING;
	f.is_dedupe = true;
	assert_int_equal(co_rule_add_field(&d, &appr, &f, msg, sizeof(msg)),
	    CO_RULE_REFUSED);
	assert_string_equal(msg, "Dedupe fields cannot be added to an "
	    "approved custom object type");
	f.is_dedupe = false;
	f.type = CO_LINK;
	f.is_link = true;
	f.related_object = S("lead");
	f.related_field = S("id");
	assert_int_equal(co_rule_add_field(&d, &appr, &f, msg, sizeof(msg)),
	    CO_RULE_REFUSED);
	f.type = CO_STRING;
	f.is_link = false;
	assert_int_equal(co_rule_add_field(&d, &appr, &f, msg, sizeof(msg)),
	    CO_RULE_OK);
	memset(&upd, 0, sizeof(upd));
	upd.is_dedupe = false;
	assert_int_equal(co_rule_update_field(&d, &appr, "vin", &upd,
	    CO_UPD_DEDUPE, msg, sizeof(msg)), CO_RULE_REFUSED);
	upd.type = CO_INTEGER;
	assert_int_equal(co_rule_update_field(&d, &appr, "leadId", &upd,
	    CO_UPD_TYPE, msg, sizeof(msg)), CO_RULE_REFUSED);
	upd.name = S("vin2");
	assert_int_equal(co_rule_update_field(&d, &appr, "vin", &upd,
	    CO_UPD_NAME, msg, sizeof(msg)), CO_RULE_REFUSED);
	upd.display_name = S("Vehicle");
	assert_int_equal(co_rule_update_field(&d, &appr, "vin", &upd,
	    CO_UPD_DISPLAY, msg, sizeof(msg)), CO_RULE_OK);
	assert_string_equal(co_type_field(&d, "vin")->display_name, "Vehicle");
	/* A field new in the draft cannot become a key either. */
	upd.is_dedupe = true;
	assert_int_equal(co_rule_update_field(&d, &appr, "plate", &upd,
	    CO_UPD_DEDUPE, msg, sizeof(msg)), CO_RULE_REFUSED);
	assert_int_equal(co_rule_delete_field(&d, &appr, "vin", msg,
	    sizeof(msg)), CO_RULE_REFUSED);
	assert_int_equal(co_rule_delete_field(&d, &appr, "leadId", msg,
	    sizeof(msg)), CO_RULE_REFUSED);
	assert_int_equal(co_rule_delete_field(&d, &appr, "plate", msg,
	    sizeof(msg)), CO_RULE_OK);
	assert_int_equal(co_rule_approvable(&d, &appr, msg, sizeof(msg)),
	    CO_RULE_OK);
	/* A draft that lost the key (e.g. edited around the rules). */
	co_field_clear(&d.fields[0]);
	memmove(&d.fields[0], &d.fields[1], sizeof(d.fields[0]));
	d.nfields = 1;
	assert_int_equal(co_rule_approvable(&d, &appr, msg, sizeof(msg)),
	    CO_RULE_REFUSED);
	co_type_clear(&d);
	co_type_clear(&appr);
}

/* Once approved, 20 fields may be added over all later approvals. */
static void
test_rules_added(void **state)
{
	struct co_type appr, d;
	struct co_field f;
	char msg[256], name[16];
	int i;

	(void)state;
	make_draft(&appr);
	copy_type(&d, &appr);
	memset(&f, 0, sizeof(f));
	f.type = CO_INTEGER;
	f.display_name = S("X");
	for (i = 0; i < CO_MAX_ADDED; i++) {
		snprintf(name, sizeof(name), "n%d", i);
		f.name = name;
		assert_int_equal(co_rule_add_field(&d, &appr, &f, msg,
		    sizeof(msg)), CO_RULE_OK);
	}
	assert_int_equal(co_type_nnew(&d, &appr), CO_MAX_ADDED);
	f.name = S("one_more");
	assert_int_equal(co_rule_add_field(&d, &appr, &f, msg, sizeof(msg)),
	    CO_RULE_REFUSED);
	assert_string_equal(msg, "At most 20 fields can be added to a custom "
	    "object type after its approval");
	assert_int_equal(co_rule_approvable(&d, &appr, msg, sizeof(msg)),
	    CO_RULE_OK);
	/* Five added by earlier approvals leave room for 15. */
	appr.added = 5;
	assert_int_equal(co_rule_approvable(&d, &appr, msg, sizeof(msg)),
	    CO_RULE_REFUSED);
	co_type_clear(&d);
	copy_type(&d, &appr);
	for (i = 0; i < CO_MAX_ADDED - 5; i++) {
		snprintf(name, sizeof(name), "m%d", i);
		f.name = name;
		assert_int_equal(co_rule_add_field(&d, &appr, &f, msg,
		    sizeof(msg)), CO_RULE_OK);
	}
	f.name = S("one_more");
	assert_int_equal(co_rule_add_field(&d, &appr, &f, msg, sizeof(msg)),
	    CO_RULE_REFUSED);
	/* A type never approved is held by the 50 alone. */
	assert_int_equal(co_type_nnew(&d, NULL), d.nfields);
	co_type_clear(&d);
	co_type_clear(&appr);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_dtypes),
		cmocka_unit_test(test_column_types),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_guid),
		cmocka_unit_test(test_rules_draft),
		cmocka_unit_test(test_rules_approved),
		cmocka_unit_test(test_rules_added),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
