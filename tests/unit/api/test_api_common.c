/*
 * The JSON member readers every handler shares (src/api/api_common.c):
 * the object body, object, text, id, integer and id-array members, each
 * with its answer for a member of the wrong type or size.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "api/api_common.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"

#include "apitest.h"

/* Parses text, a JSON object the test puts when done. */
static struct json_object *
obj(const char *text)
{
	struct json_object *o = json_tokener_parse(text);

	assert_non_null(o);
	return o;
}

/* Asserts the answer of the last reader: error e with message msg. */
static void
answered(int got, int e, const char *msg)
{
	assert_int_equal(got, e);
	assert_string_equal(apitest_resp.err_msg, msg);
	apitest_again();
}

static void
test_body(void **state)
{
	struct json_object *b = (struct json_object *)1;

	(void)state;
	answered(api_common_body(&apitest_call, &apitest_resp, &b),
	    -API_ERR_INVALID_REQUEST, "The request body must be a JSON object");
	assert_null(b);
	apitest_body("{\"a\":1}");
	assert_int_equal(api_common_body(&apitest_call, &apitest_resp, &b), 0);
	assert_ptr_equal(b, apitest_req.json);
	apitest_body("[1]");
	answered(api_common_body(&apitest_call, &apitest_resp, &b),
	    -API_ERR_INVALID_REQUEST, "The request body must be a JSON object");
}

static void
test_member_obj(void **state)
{
	struct json_object *o = obj("{\"h\":{\"x\":1},\"n\":null,\"s\":\"t\"}");
	struct json_object *v;

	(void)state;
	assert_int_equal(api_common_member_obj(&apitest_call, &apitest_resp,
	    o, "h", &v), 0);
	assert_true(json_object_is_type(v, json_type_object));
	assert_int_equal(api_common_member_obj(&apitest_call, &apitest_resp,
	    o, "n", &v), 0);
	assert_null(v);
	assert_int_equal(api_common_member_obj(&apitest_call, &apitest_resp,
	    o, "absent", &v), 0);
	assert_null(v);
	assert_int_equal(api_common_member_obj(&apitest_call, &apitest_resp,
	    NULL, "h", &v), 0);
	answered(api_common_member_obj(&apitest_call, &apitest_resp, o, "s",
	    &v), -API_ERR_INVALID_VALUE,
	    "Invalid value for 's': not a JSON object");
	json_object_put(o);
}

/* Characters, not bytes: five two-byte characters fit a bound of five. */
static void
test_member_text(void **state)
{
	struct json_object *o = obj("{\"a\":\"\\u00e9\\u00e9\\u00e9\\u00e9"
	    "\\u00e9\",\"b\":\"abcdef\",\"c\":7}");
	const char *s;

	(void)state;
	assert_int_equal(api_common_member_text(&apitest_call, &apitest_resp,
	    o, "a", 5, &s), 0);
	assert_string_equal(s, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9");
	answered(api_common_member_text(&apitest_call, &apitest_resp, o, "b",
	    5, &s), -API_ERR_INVALID_VALUE,
	    "Invalid value for 'b': longer than 5 characters");
	answered(api_common_member_text(&apitest_call, &apitest_resp, o, "c",
	    5, &s), -API_ERR_INVALID_VALUE,
	    "Invalid value '7'. Required of type 'string' for 'c'");
	assert_int_equal(api_common_member_text(&apitest_call, &apitest_resp,
	    o, "absent", 5, &s), 0);
	assert_null(s);
	json_object_put(o);
}

static void
test_member_id_text(void **state)
{
	struct json_object *o = obj("{\"s\":\"1073\",\"n\":12,\"e\":\"\","
	    "\"b\":true}");
	const char *s;

	(void)state;
	assert_int_equal(api_common_member_id_text(&apitest_call,
	    &apitest_resp, o, "s", true, &s), 0);
	assert_string_equal(s, "1073");
	assert_int_equal(api_common_member_id_text(&apitest_call,
	    &apitest_resp, o, "n", true, &s), 0);
	assert_string_equal(s, "12");
	assert_int_equal(api_common_member_id_text(&apitest_call,
	    &apitest_resp, o, "absent", false, &s), 0);
	assert_null(s);
	answered(api_common_member_id_text(&apitest_call, &apitest_resp, o,
	    "absent", true, &s), -API_ERR_BLANK, "absent cannot be blank");
	answered(api_common_member_id_text(&apitest_call, &apitest_resp, o,
	    "e", true, &s), -API_ERR_BLANK, "e cannot be blank");
	answered(api_common_member_id_text(&apitest_call, &apitest_resp, o,
	    "b", false, &s), -API_ERR_INVALID_VALUE,
	    "Invalid value for 'b': not an id");
	json_object_put(o);
}

static void
test_member_id(void **state)
{
	struct json_object *o = obj("{\"s\":\"42\",\"n\":7,\"z\":0,"
	    "\"neg\":\"-3\",\"big\":2147483648,\"t\":\"4x\"}");
	static const char *const bad[] = { "z", "neg", "big", "t" };
	char msg[64];
	int32_t v;
	bool has;
	size_t i;

	(void)state;
	assert_int_equal(api_common_member_id(&apitest_call, &apitest_resp,
	    o, "s", &v, &has), 0);
	assert_int_equal(v, 42);
	assert_true(has);
	assert_int_equal(api_common_member_id(&apitest_call, &apitest_resp,
	    o, "n", &v, &has), 0);
	assert_int_equal(v, 7);
	assert_int_equal(api_common_member_id(&apitest_call, &apitest_resp,
	    o, "absent", &v, &has), 0);
	assert_int_equal(v, 0);
	assert_false(has);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		(void)snprintf(msg, sizeof(msg), "Invalid value for '%s': "
		    "not an id", bad[i]);
		answered(api_common_member_id(&apitest_call, &apitest_resp, o,
		    bad[i], &v, &has), -API_ERR_INVALID_VALUE, msg);
	}
	json_object_put(o);
}

static void
test_member_int(void **state)
{
	struct json_object *o = obj("{\"i\":3,\"lo\":0,\"s\":\"3\"}");
	int64_t v = 20;

	(void)state;
	assert_int_equal(api_common_member_int(&apitest_call, &apitest_resp,
	    o, "absent", 1, 50, "1 to 50", &v), 0);
	assert_int_equal(v, 20);
	assert_int_equal(api_common_member_int(&apitest_call, &apitest_resp,
	    o, "i", 1, 50, "1 to 50", &v), 0);
	assert_int_equal(v, 3);
	answered(api_common_member_int(&apitest_call, &apitest_resp, o, "lo",
	    1, 50, "1 to 50", &v), -API_ERR_INVALID_VALUE,
	    "Invalid value for 'lo': 1 to 50");
	answered(api_common_member_int(&apitest_call, &apitest_resp, o, "s",
	    0, 50, "0 or more", &v), -API_ERR_INVALID_VALUE,
	    "Invalid value for 's': 0 or more");
	assert_int_equal(v, 3);
	json_object_put(o);
}

static void
test_member_ids(void **state)
{
	struct json_object *o = obj("{\"ok\":[1,\"2\"],\"e\":[],\"n\":null,"
	    "\"s\":\"1\",\"many\":[1,2,3],\"bad\":[1,true]}");
	struct json_object *ids;
	size_t n;

	(void)state;
	assert_int_equal(api_common_member_ids(&apitest_call, &apitest_resp,
	    o, "ok", 2, &ids, &n), 0);
	assert_int_equal(n, 2);
	assert_true(json_object_is_type(ids, json_type_array));
	answered(api_common_member_ids(&apitest_call, &apitest_resp, o, "e",
	    2, &ids, &n), -API_ERR_BLANK, "e cannot be blank");
	answered(api_common_member_ids(&apitest_call, &apitest_resp, o, "n",
	    2, &ids, &n), -API_ERR_BLANK, "n cannot be blank");
	answered(api_common_member_ids(&apitest_call, &apitest_resp, o,
	    "absent", 2, &ids, &n), -API_ERR_BLANK, "absent cannot be blank");
	answered(api_common_member_ids(&apitest_call, &apitest_resp, o, "s",
	    2, &ids, &n), -API_ERR_INVALID_VALUE,
	    "Invalid value for 's': not an array");
	answered(api_common_member_ids(&apitest_call, &apitest_resp, o,
	    "many", 2, &ids, &n), -API_ERR_INVALID_REQUEST,
	    "many holds 3 ids: at most 2 per request");
	answered(api_common_member_ids(&apitest_call, &apitest_resp, o, "bad",
	    2, &ids, &n), -API_ERR_INVALID_VALUE,
	    "Invalid value for 'bad': not an id");
	json_object_put(o);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_body, apitest_setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_member_obj,
		    apitest_setup, apitest_teardown),
		cmocka_unit_test_setup_teardown(test_member_text,
		    apitest_setup, apitest_teardown),
		cmocka_unit_test_setup_teardown(test_member_id_text,
		    apitest_setup, apitest_teardown),
		cmocka_unit_test_setup_teardown(test_member_id, apitest_setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_member_int,
		    apitest_setup, apitest_teardown),
		cmocka_unit_test_setup_teardown(test_member_ids,
		    apitest_setup, apitest_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
