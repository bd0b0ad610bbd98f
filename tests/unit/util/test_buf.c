/*
 * JSON text written without json-c objects (util/buf.c's
 * buf_add_jsonc_str, api/api_common.c's api_common_array_text) is byte
 * for byte what json-c writes with the flags of http/response.c.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "api/api_common.h"
#include "util/buf.h"

#define FLAGS	(JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

/* Checks buf_add_jsonc_str(s) against json-c's string of s. */
static void
same_string(const char *s)
{
	struct json_object *o = json_object_new_string(s);
	struct buf b;

	buf_init(&b, 4096);
	buf_add_jsonc_str(&b, s);
	assert_true(buf_ok(&b));
	assert_string_equal(b.data, json_object_to_json_string_ext(o, FLAGS));
	buf_clear(&b);
	json_object_put(o);
}

static void
test_every_byte(void **state)
{
	char s[8];
	int c;

	(void)state;
	for (c = 1; c < 256; c++) {
		(void)snprintf(s, sizeof(s), "a%cb/%c", c, c);
		same_string(s);
	}
	same_string("");
	same_string("We\"ird\\/\b\f\n\r\t name \xc3\xa9 \xe2\x98\x83");
}

static void
test_null(void **state)
{
	struct buf b;

	(void)state;
	buf_init(&b, 64);
	buf_add_jsonc_str(&b, NULL);
	assert_string_equal(b.data, "null");
	buf_clear(&b);
}

/* Checks api_common_array_text(text) against json-c's parse of text. */
static void
same_array(const char *text)
{
	struct json_object *v = json_tokener_parse(text);
	const char *want = "[]";
	size_t n = 0;
	struct buf b;

	if (v != NULL && json_object_is_type(v, json_type_array)) {
		want = json_object_to_json_string_ext(v, FLAGS);
		n = json_object_array_length(v);
	}
	buf_init(&b, 4096);
	assert_int_equal(api_common_array_text(&b, text), n);
	assert_true(buf_ok(&b));
	assert_string_equal(b.data, want);
	buf_clear(&b);
	json_object_put(v);
}

static void
test_arrays(void **state)
{
	static const char *const t[] = {
		"[]", "[\"a\"]", "[\"a\",\"b\"]", "[\"\"]", "[\"~ !#/\"]",
		"[ \"a\" ,  \"b\\/c\" ]", "[\"a\\\"b\"]", "[\"\xc3\xa9\",\"x\"]",
		"[\"x\",1,2.5,null,true,\"\\u0001\"]", "[\"x\",]", "[\"a\"]x",
		"[\"a\",\"b\"] ", "", "null", "{\"a\":1}", "not json", "[",
		"[\"a", "[\"a\",", "[\"a\"", "[\"\\u00e9\"]",
	};
	struct buf b;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		same_array(t[i]);
	buf_init(&b, 64);
	assert_int_equal(api_common_array_text(&b, NULL), 0);
	assert_string_equal(b.data, "[]");
	buf_clear(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_byte),
		cmocka_unit_test(test_null),
		cmocka_unit_test(test_arrays),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
