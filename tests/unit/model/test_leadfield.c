/*
 * Lead values (model/leadfield.c): typed input parsing per data type,
 * including the invalid values of docs/behaviour.md §3.3 and §14 item 7,
 * datetimes converted to UTC, dates kept as written, output JSON per
 * type, the catalogue index, cookies and lookup keys.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "model/leadfield.h"
#include "util/arena.h"

static struct arena arena;

static struct lead_field
fld(const char *name, enum lf_type t, int32_t length)
{
	struct lead_field f;

	memset(&f, 0, sizeof(f));
	f.name = (char *)(uintptr_t)name;
	f.type = t;
	f.length = length;
	return f;
}

/* Parses the JSON text j for a field of type t; returns the result. */
static int
parse(enum lf_type t, int32_t length, const char *j, struct lead_value *v)
{
	struct lead_field f = fld("x", t, length);
	struct json_object *in = json_tokener_parse(j);
	int r;

	if (strcmp(j, "null") != 0)
		assert_non_null(in);
	r = lead_value_parse(&f, in, &arena, v);
	json_object_put(in);
	return r;
}

static void
bad(enum lf_type t, const char *j)
{
	struct lead_value v;

	if (parse(t, 255, j, &v) != -1)
		fail_msg("%s accepted for %s", j, lf_type_name(t));
}

static const char *
str_ok(enum lf_type t, const char *j)
{
	struct lead_value v;

	if (parse(t, 255, j, &v) != 0)
		fail_msg("%s refused for %s", j, lf_type_name(t));
	assert_int_equal(v.kind, LV_STR);
	assert_int_equal(strlen(v.s), v.len);
	return v.s;
}

static void
test_real_invalid_values(void **state)
{
	(void)state;
	/* The recorded 1003 cases (grouparoo export-records fixture). */
	bad(LF_BOOLEAN, "\"other\"");
	bad(LF_EMAIL, "\"bademail\"");
	bad(LF_INTEGER, "\"14.1\"");
	bad(LF_INTEGER, "14.1");
	bad(LF_FLOAT, "\"14c\"");
	bad(LF_DATETIME, "\"yesterday\"");
	bad(LF_PERCENT, "\"100%\"");
}

static void
test_strings(void **state)
{
	struct lead_value v;
	char *big;

	(void)state;
	assert_string_equal(str_ok(LF_STRING, "\"O'Brien; DROP TABLE\""),
	    "O'Brien; DROP TABLE");
	/* Numbers and booleans given for a string are kept as text. */
	assert_string_equal(str_ok(LF_STRING, "12"), "12");
	assert_string_equal(str_ok(LF_STRING, "true"), "true");
	/* "" and null write NULL. */
	assert_int_equal(parse(LF_STRING, 255, "\"\"", &v), 0);
	assert_int_equal(v.kind, LV_NULL);
	assert_int_equal(parse(LF_STRING, 255, "null", &v), 0);
	assert_int_equal(v.kind, LV_NULL);
	/* Length counts characters, not bytes. */
	assert_int_equal(parse(LF_STRING, 3, "\"\\u00e9\\u00e9\\u00e9\"", &v),
	    0);
	assert_int_equal(v.len, 6);
	assert_int_equal(parse(LF_STRING, 3, "\"abcd\"", &v), -1);
	/* Length 0 in the catalogue means 255. */
	big = arena_zalloc(&arena, 300);
	memset(big + 1, 'a', 256);
	big[0] = '"';
	big[257] = '"';
	assert_int_equal(parse(LF_STRING, 0, big, &v), -1);
	big[256] = '"';
	big[257] = '\0';
	assert_int_equal(parse(LF_STRING, 0, big, &v), 0);
	/* An embedded NUL never reaches the database. */
	bad(LF_STRING, "\"a\\u0000b\"");
	/* Objects and arrays are not values. */
	bad(LF_STRING, "{\"a\":1}");
	bad(LF_STRING, "[1]");
	/* Text fields take up to LF_TEXT_BYTES bytes. */
	assert_int_equal(parse(LF_TEXT, 0, "\"long text\"", &v), 0);
}

static void
test_email_phone_url(void **state)
{
	(void)state;
	assert_string_equal(str_ok(LF_EMAIL, "\"a.b+c@example.co.uk\""),
	    "a.b+c@example.co.uk");
	bad(LF_EMAIL, "\"a@b\"");
	bad(LF_EMAIL, "\"@example.com\"");
	bad(LF_EMAIL, "\"a@@example.com\"");
	bad(LF_EMAIL, "\"a b@example.com\"");
	bad(LF_EMAIL, "\"a@example..com\"");
	bad(LF_EMAIL, "\"a@example.com.\"");
	bad(LF_EMAIL, "\"\\u00e9@example.com\"");
	assert_string_equal(str_ok(LF_PHONE, "\"+1 (555) 123-4567 x89\""),
	    "+1 (555) 123-4567 x89");
	bad(LF_PHONE, "\"call me\"");
	bad(LF_PHONE, "\"()\"");
	assert_string_equal(str_ok(LF_URL, "\"https://example.com/a?b=c\""),
	    "https://example.com/a?b=c");
	assert_string_equal(str_ok(LF_URL, "\"www.example.com\""),
	    "www.example.com");
	bad(LF_URL, "\"not a url\"");
	bad(LF_URL, "\"://example.com\"");
}

static void
test_numbers(void **state)
{
	struct lead_value v;

	(void)state;
	assert_int_equal(parse(LF_INTEGER, 0, "14", &v), 0);
	assert_int_equal(v.kind, LV_INT);
	assert_int_equal(v.i, 14);
	assert_int_equal(parse(LF_INTEGER, 0, "\"-14\"", &v), 0);
	assert_int_equal(v.i, -14);
	assert_int_equal(parse(LF_INTEGER, 0, "14.0", &v), 0);
	assert_int_equal(v.i, 14);
	assert_int_equal(parse(LF_INTEGER, 0, "2147483647", &v), 0);
	bad(LF_INTEGER, "2147483648");
	bad(LF_INTEGER, "\"2147483648\"");
	bad(LF_INTEGER, "\" 14\"");
	bad(LF_INTEGER, "\"+14\"");
	bad(LF_INTEGER, "\"0x10\"");
	bad(LF_INTEGER, "true");
	bad(LF_SCORE, "\"abc\"");
	assert_int_equal(parse(LF_REFERENCE, 0, "\"7\"", &v), 0);
	assert_int_equal(v.i, 7);
	assert_int_equal(parse(LF_FLOAT, 0, "14.1", &v), 0);
	assert_int_equal(v.kind, LV_DBL);
	assert_true(v.d == 14.1);
	assert_int_equal(parse(LF_CURRENCY, 0, "\"1e3\"", &v), 0);
	assert_true(v.d == 1000.0);
	assert_int_equal(parse(LF_PERCENT, 0, "100", &v), 0);
	assert_true(v.d == 100.0);
	bad(LF_FLOAT, "\"nan\"");
	bad(LF_FLOAT, "\"inf\"");
	bad(LF_FLOAT, "\"1e999\"");
	bad(LF_FLOAT, "\"1.2.3\"");
	bad(LF_CURRENCY, "\"$5\"");
	bad(LF_FLOAT, "false");
}

static void
test_booleans(void **state)
{
	struct lead_value v;

	(void)state;
	assert_int_equal(parse(LF_BOOLEAN, 0, "true", &v), 0);
	assert_int_equal(v.kind, LV_BOOL);
	assert_int_equal(v.i, 1);
	assert_int_equal(parse(LF_BOOLEAN, 0, "\"FALSE\"", &v), 0);
	assert_int_equal(v.i, 0);
	assert_int_equal(parse(LF_BOOLEAN, 0, "1", &v), 0);
	assert_int_equal(v.i, 1);
	assert_int_equal(parse(LF_BOOLEAN, 0, "\"yes\"", &v), 0);
	assert_int_equal(v.i, 1);
	bad(LF_BOOLEAN, "2");
	bad(LF_BOOLEAN, "\"truthy\"");
	bad(LF_BOOLEAN, "0.5");
	assert_int_equal(parse(LF_BOOLEAN, 0, "null", &v), 0);
	assert_int_equal(v.kind, LV_NULL);
}

static void
test_dates(void **state)
{
	(void)state;
	/* Datetimes are stored in UTC. */
	assert_string_equal(str_ok(LF_DATETIME, "\"2024-03-01T10:00:00Z\""),
	    "2024-03-01 10:00:00");
	assert_string_equal(str_ok(LF_DATETIME,
	    "\"2024-03-01T10:00:00+02:00\""), "2024-03-01 08:00:00");
	assert_string_equal(str_ok(LF_DATETIME,
	    "\"2016-09-10T23:15:00-00:00\""), "2016-09-10 23:15:00");
	assert_string_equal(str_ok(LF_DATETIME,
	    "\"2024-12-31T23:30:00-0130\""), "2025-01-01 01:00:00");
	assert_string_equal(str_ok(LF_DATETIME,
	    "\"2024-03-01 00:30:00+01\""), "2024-02-29 23:30:00");
	assert_string_equal(str_ok(LF_DATETIME, "\"2024-03-01T10:00\""),
	    "2024-03-01 10:00:00");
	assert_string_equal(str_ok(LF_DATETIME, "\"2024-03-01T10:00:00.123Z\""),
	    "2024-03-01 10:00:00");
	assert_string_equal(str_ok(LF_DATETIME, "\"2024-03-01\""),
	    "2024-03-01 00:00:00");
	bad(LF_DATETIME, "\"2024-03-01T10:00:00+05:\"");
	bad(LF_DATETIME, "\"2024-02-30T10:00:00Z\"");
	bad(LF_DATETIME, "\"2023-02-29\"");
	bad(LF_DATETIME, "\"2024-03-01T24:00:00Z\"");
	bad(LF_DATETIME, "\"2024-03-01T10:00:00Zjunk\"");
	bad(LF_DATETIME, "\"0999-01-01\"");
	bad(LF_DATETIME, "1709287200");
	/* A date keeps the day as written, whatever the offset. */
	assert_string_equal(str_ok(LF_DATE, "\"1980-02-29\""), "1980-02-29");
	assert_string_equal(str_ok(LF_DATE, "\"2024-05-01T23:30:00-05:00\""),
	    "2024-05-01");
	assert_string_equal(str_ok(LF_DATE, "\"2024-05-01T00:30:00+05:00\""),
	    "2024-05-01");
	bad(LF_DATE, "\"05/01/2024\"");
	bad(LF_DATE, "\"yesterday\"");
}

static void
test_other_types(void **state)
{
	(void)state;
	bad(LF_FORMULA, "\"=1+1\"");
	assert_string_equal(lf_type_name(LF_SCORE), "score");
	assert_string_equal(lf_type_name((enum lf_type)99), "string");
}

/* The JSON text of lead_value_json for a column text (NULL: SQL NULL). */
static void
out_is(enum lf_type t, const char *text, const char *want)
{
	struct lead_field f = fld("x", t, 0);
	struct json_object *o;
	const char *got;

	o = lead_value_json(&f, text, text != NULL ? strlen(text) : 0);
	got = o == NULL ? "null" : json_object_to_json_string_ext(o,
	    JSON_C_TO_STRING_PLAIN);
	if (strcmp(got, want) != 0)
		fail_msg("%s %s: got %s, want %s", lf_type_name(t),
		    text != NULL ? text : "NULL", got, want);
	json_object_put(o);
}

static void
test_output(void **state)
{
	(void)state;
	out_is(LF_STRING, "O'Brien \"x\"", "\"O'Brien \\\"x\\\"\"");
	out_is(LF_STRING, NULL, "null");
	out_is(LF_INTEGER, "42", "42");
	out_is(LF_REFERENCE, "-3", "-3");
	out_is(LF_INTEGER, NULL, "null");
	out_is(LF_FLOAT, "14.1", "14.1");
	out_is(LF_FLOAT, "0.1", "0.1");
	out_is(LF_CURRENCY, "1000000", "1000000");
	out_is(LF_PERCENT, "0.30000000000000004", "0.30000000000000004");
	out_is(LF_BOOLEAN, "1", "true");
	out_is(LF_BOOLEAN, "0", "false");
	/* A boolean never set is false, not null (§5.1). */
	out_is(LF_BOOLEAN, NULL, "false");
	out_is(LF_DATETIME, "2021-04-08 15:03:31", "\"2021-04-08T15:03:31Z\"");
	out_is(LF_DATE, "1980-02-29", "\"1980-02-29\"");
}

static void
test_value_text(void **state)
{
	struct json_object *o =
	    json_tokener_parse("{\"a\":\"x'y\",\"b\":14.1}");
	struct json_object *v;

	(void)state;
	assert_true(json_object_object_get_ex(o, "a", &v));
	assert_string_equal(lead_value_text(v, &arena), "x'y");
	assert_true(json_object_object_get_ex(o, "b", &v));
	assert_string_equal(lead_value_text(v, &arena), "14.1");
	assert_string_equal(lead_value_text(NULL, &arena), "null");
	json_object_put(o);
}

static void
test_schema_index(void **state)
{
	struct lead_schema s;
	static const char *const names[] = { "lastName", "email", "Zeta",
	    "id" };
	static const int32_t ids[] = { 55, 56, 900, 44 };
	size_t i;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.count = 4;
	s.fields = calloc(4, sizeof(*s.fields));
	assert_non_null(s.fields);
	for (i = 0; i < 4; i++) {
		s.fields[i].name = strdup(names[i]);
		s.fields[i].display_name = strdup(names[i]);
		s.fields[i].attr_id = ids[i];
	}
	lead_schema_index(&s);
	/* Sorted by attr_id; found without regard to case. */
	assert_string_equal(s.fields[0].name, "id");
	assert_string_equal(s.fields[3].name, "Zeta");
	assert_string_equal(lead_schema_find(&s, "EMAIL")->name, "email");
	assert_string_equal(lead_schema_find(&s, "zeta")->name, "Zeta");
	assert_null(lead_schema_find(&s, "email' OR 1=1 --"));
	assert_null(lead_schema_find(&s, ""));
	assert_null(lead_schema_find(&s, NULL));
	lead_schema_clear(&s);
	assert_int_equal(s.count, 0);
	assert_null(lead_schema_find(&s, "id"));
	/* The default fields, in the real service's order. */
	assert_string_equal(lead_default_fields[0], "id");
	assert_string_equal(lead_default_fields[1], "firstName");
	assert_string_equal(lead_default_fields[5], "createdAt");
	assert_null(lead_default_fields[LEAD_DEFAULT_FIELDS]);
}

static void
test_cookies(void **state)
{
	static const char *const good[] = {
		"id:063-GJP-217&token:_mch-marketo.com-1594662481190-60776",
		"id:287-GTJ-838&token:_mch-localhost-1396310362214-46169",
	};
	static const char *const nope[] = {
		"", "id:", "063-GJP-217&token:_mch-x", "id:063-GJP-217",
		"id:063-GJP-217&token:_mch-", "id:063 GJP&token:_mch-x",
		"id:063-GJP-217&token:_mch-a b", "id:063-GJP-217&token:x",
		"id:&token:_mch-x", "id:1-2-3&token:_mch-x&y",
		"'; DROP TABLE lead; --",
		/* One rule everywhere: the tracking script's form only. */
		"id:1&token:_mch-x.com-1-2",
		"id:28A-GTJ-838&token:_mch-marketo.com-1396310362214-46169",
		"id:287-GTJ-838&token:_mch-marketo.com-abc-46169",
		"id:287-GTJ-838&token:_mch-marketo.com-1396310362214",
		"id:287-GTJ-838&token:_mch-market/o.com-1396310362214-46169",
	};
	char big[400];
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_true(lead_cookie_is_valid(good[i], strlen(good[i])));
	for (i = 0; i < sizeof(nope) / sizeof(nope[0]); i++)
		if (lead_cookie_is_valid(nope[i], strlen(nope[i])))
			fail_msg("accepted cookie %s", nope[i]);
	/* A long domain up to the bound. */
	memset(big, 'a', sizeof(big));
	memcpy(big, "id:123-ABC-456&token:_mch-", 26);
	n = LEAD_COOKIE_BYTES;
	memcpy(big + n - 4, "-1-2", 4);
	assert_true(lead_cookie_is_valid(big, n));
	memcpy(big + n - 4, "a-1-2", 5);
	assert_false(lead_cookie_is_valid(big, n + 1));
}

static void
test_keys(void **state)
{
	struct lead_field email = fld("email", LF_EMAIL, 255);
	struct lead_field sf = fld("sfdcLeadId", LF_STRING, 18);
	struct lead_field id = fld("id", LF_INTEGER, 0);
	struct lead_value v;

	(void)state;
	memset(&v, 0, sizeof(v));
	v.kind = LV_STR;
	v.s = "Ann@Example.COM  ";
	v.len = strlen(v.s);
	/* email: case and trailing spaces do not matter. */
	assert_string_equal(lead_key_norm(&email, &v, &arena),
	    "ann@example.com");
	/* Other strings compare in binary, but PAD SPACE. */
	assert_string_equal(lead_key_norm(&sf, &v, &arena),
	    "Ann@Example.COM");
	v.kind = LV_INT;
	v.i = 42;
	assert_string_equal(lead_key_norm(&id, &v, &arena), "42");
	v.kind = LV_NULL;
	assert_null(lead_key_norm(&email, &v, &arena));
	/* Claims: case-blind, field-specific, separated. */
	assert_true(lead_key_hash("email", "a@b.c") ==
	    lead_key_hash("EMAIL", "A@B.C"));
	assert_true(lead_key_hash("email", "a@b.c") !=
	    lead_key_hash("sfdcLeadId", "a@b.c"));
	assert_true(lead_key_hash("ab", "c") != lead_key_hash("a", "bc"));
}

static int
setup(void **state)
{
	(void)state;
	arena_reset(&arena);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_real_invalid_values, setup),
		cmocka_unit_test_setup(test_strings, setup),
		cmocka_unit_test_setup(test_email_phone_url, setup),
		cmocka_unit_test_setup(test_numbers, setup),
		cmocka_unit_test_setup(test_booleans, setup),
		cmocka_unit_test_setup(test_dates, setup),
		cmocka_unit_test_setup(test_other_types, setup),
		cmocka_unit_test_setup(test_output, setup),
		cmocka_unit_test_setup(test_value_text, setup),
		cmocka_unit_test_setup(test_schema_index, setup),
		cmocka_unit_test_setup(test_cookies, setup),
		cmocka_unit_test_setup(test_keys, setup),
	};
	int r;

	arena_init(&arena);
	r = cmocka_run_group_tests(tests, NULL, NULL);
	arena_clear(&arena);
	return r;
}
