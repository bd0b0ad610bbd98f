/*
 * Envelopes against the real service's recorded bodies
 * (docs/behaviour.md §16), and the error table.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "err.h"
#include "http/response.h"
#include "util/buf.h"

static struct buf out;

static const char *
render(struct resp *r, enum envelope env, const char *rid, int err,
    int *status)
{
	buf_reset(&out);
	*status = response_render(&out, r, env, rid, err);
	assert_true(buf_ok(&out));
	return out.data;
}

static void
test_leaddb_empty_success(void **state)
{
	struct resp r;
	int st;

	(void)state;
	resp_init(&r);
	assert_string_equal(render(&r, ENV_LEADDB, "1568#178b202751a", 0, &st),
	    "{\"requestId\":\"1568#178b202751a\",\"result\":[],\"success\":true}");
	assert_int_equal(st, 200);
	assert_int_equal(strlen(out.data), 59);
	resp_clear(&r);
}

static void
test_leaddb_sync_created(void **state)
{
	struct resp r;
	struct json_object *o;
	int st;

	(void)state;
	resp_init(&r);
	o = json_object_new_object();
	json_object_object_add(o, "id", json_object_new_int(4963));
	json_object_object_add(o, "status", json_object_new_string("created"));
	resp_add(&r, o);
	assert_string_equal(render(&r, ENV_LEADDB, "48d0#178b2027de7", 0, &st),
	    "{\"requestId\":\"48d0#178b2027de7\",\"result\":[{\"id\":4963,"
	    "\"status\":\"created\"}],\"success\":true}");
	assert_int_equal(strlen(out.data), 89);
	resp_clear(&r);
}

static void
test_leaddb_errors(void **state)
{
	struct resp r;
	int st;

	(void)state;
	resp_init(&r);
	assert_string_equal(render(&r, ENV_LEADDB, "68d8#1846058ee27",
	    -API_ERR_TOKEN_INVALID, &st),
	    "{\"requestId\":\"68d8#1846058ee27\",\"success\":false,\"errors\":"
	    "[{\"code\":\"601\",\"message\":\"Access token invalid\"}]}");
	assert_int_equal(st, 200);
	r.err_msg = "Max rate limit '100' exceeded with in '20' secs";
	assert_string_equal(render(&r, ENV_LEADDB, "5576#16523a39ed7",
	    -API_ERR_RATE_LIMIT, &st),
	    "{\"requestId\":\"5576#16523a39ed7\",\"success\":false,\"errors\":"
	    "[{\"code\":\"606\",\"message\":\"Max rate limit '100' exceeded "
	    "with in '20' secs\"}]}");
	r.err_msg = NULL;
	render(&r, ENV_LEADDB, "1#1", -API_ERR_TOO_LARGE, &st);
	assert_int_equal(st, 413);
	r.err_msg = "Not implemented: Get Lead by Id (getLeadByIdUsingGET)";
	assert_string_equal(render(&r, ENV_LEADDB, "1#1",
	    -API_ERR_NOT_IMPLEMENTED, &st), "{\"requestId\":\"1#1\","
	    "\"success\":false,\"errors\":[{\"code\":\"703\",\"message\":"
	    "\"Not implemented: Get Lead by Id (getLeadByIdUsingGET)\"}]}");
	assert_int_equal(st, 200);
	r.err_msg = NULL;
	resp_clear(&r);
}

static void
test_leaddb_paging_and_no_result(void **state)
{
	struct resp r;
	int st;

	(void)state;
	resp_init(&r);
	r.more_result = 1;
	r.next_page_token = "PS5VL5WD4UOWG===";
	resp_warn(&r, ENV_LEADDB, 1003, "x");
	assert_string_equal(render(&r, ENV_LEADDB, "a#b", 0, &st),
	    "{\"requestId\":\"a#b\",\"result\":[],\"success\":true,"
	    "\"warnings\":[{\"code\":1003,\"message\":\"x\"}],"
	    "\"nextPageToken\":\"PS5VL5WD4UOWG===\",\"moreResult\":true}");
	resp_clear(&r);
	r.no_result = true;
	assert_string_equal(render(&r, ENV_LEADDB, "e42b#14272d07d78", 0, &st),
	    "{\"requestId\":\"e42b#14272d07d78\",\"success\":true}");
	resp_clear(&r);
}

static void
test_asset_envelopes(void **state)
{
	struct resp r;
	struct json_object *o;
	int st;

	(void)state;
	resp_init(&r);
	resp_warn(&r, ENV_ASSET1, 0,
	    "No assets found for the given search criteria.");
	assert_string_equal(render(&r, ENV_ASSET1, "888#178b2027952", 0, &st),
	    "{\"success\":true,\"errors\":[],\"requestId\":\"888#178b2027952\","
	    "\"warnings\":[\"No assets found for the given search criteria.\"]}");
	resp_clear(&r);
	r.err_msg = "75 Folder not found";
	assert_string_equal(render(&r, ENV_ASSET1, "102ee#16983f320fb",
	    -API_ERR_NO_DATA, &st),
	    "{\"requestId\":\"102ee#16983f320fb\",\"success\":false,"
	    "\"warnings\":[],\"errors\":[{\"code\":\"702\",\"message\":"
	    "\"75 Folder not found\"}]}");
	resp_clear(&r);
	o = json_object_new_object();
	json_object_object_add(o, "id", json_object_new_int(1160));
	resp_add(&r, o);
	assert_string_equal(render(&r, ENV_ASSET1, "8b78#17d4f04d938", 0, &st),
	    "{\"success\":true,\"errors\":[],\"requestId\":\"8b78#17d4f04d938\","
	    "\"warnings\":[],\"result\":[{\"id\":1160}]}");
	assert_string_equal(render(&r, ENV_ASSET2, "1#2", 0, &st),
	    "{\"success\":true,\"requestId\":\"1#2\",\"result\":[{\"id\":1160}]}");
	assert_string_equal(render(&r, ENV_ASSET2, "1#2", -API_ERR_ACCESS_DENIED,
	    &st), "{\"success\":false,\"requestId\":\"1#2\",\"errors\":"
	    "[{\"key\":\"api.error.603\",\"message\":\"Access denied\","
	    "\"code\":\"603\",\"dynamicMessage\":\"Access denied\","
	    "\"type\":\"error\",\"source\":\"validation\","
	    "\"errorMessage\":\"Access denied\",\"errorPosition\":null}]}");
	resp_clear(&r);
}

/*
 * Asset v2: a result object (List Emails), pageDetails (Get Email Used
 * By), warnings as errors entries of type warning, no result (Delete).
 */
static void
test_asset2_members(void **state)
{
	struct resp r;
	int st;

	(void)state;
	resp_init(&r);
	r.result_object = json_object_new_object();
	json_object_object_add(r.result_object, "totalItems",
	    json_object_new_int(0));
	assert_string_equal(render(&r, ENV_ASSET2, "1#2", 0, &st),
	    "{\"success\":true,\"requestId\":\"1#2\",\"result\":"
	    "{\"totalItems\":0}}");
	resp_clear(&r);
	r.result = json_object_new_array();
	r.page_details = json_object_new_object();
	json_object_object_add(r.page_details, "pageSize",
	    json_object_new_int(20));
	resp_warn(&r, ENV_ASSET2, 702, "9 Email not found");
	assert_string_equal(render(&r, ENV_ASSET2, "1#2", 0, &st),
	    "{\"success\":true,\"requestId\":\"1#2\",\"result\":[],"
	    "\"pageDetails\":{\"pageSize\":20},\"errors\":[{\"key\":"
	    "\"api.error.702\",\"message\":\"9 Email not found\",\"code\":"
	    "\"702\",\"dynamicMessage\":\"9 Email not found\",\"type\":"
	    "\"warning\",\"source\":\"validation\",\"errorMessage\":"
	    "\"9 Email not found\",\"errorPosition\":null}]}");
	resp_clear(&r);
	r.no_result = true;
	assert_string_equal(render(&r, ENV_ASSET2, "1#2", 0, &st),
	    "{\"success\":true,\"requestId\":\"1#2\"}");
	resp_clear(&r);
}

static void
test_identity(void **state)
{
	static const struct {
		int		 err;
		int		 status;
		const char	*body;
	} cases[] = {
		{ -API_ERR_SYSTEM, 500, "{\"error\":\"server_error\","
		  "\"error_description\":\"System error\"}" },
		{ -API_ERR_INVALID_VALUE, 400, "{\"error\":\"invalid_request\","
		  "\"error_description\":\"Invalid value\"}" },
		{ -API_ERR_MULTIPART, 400, "{\"error\":\"invalid_request\","
		  "\"error_description\":\"Invalid Multipart Request\"}" },
		{ -API_ERR_BAD_JSON, 400, "{\"error\":\"invalid_request\","
		  "\"error_description\":\"Invalid JSON\"}" },
		{ -API_ERR_TOO_LARGE, 413, "{\"error\":\"invalid_request\","
		  "\"error_description\":\"Request entity too large\"}" },
		{ -API_ERR_NOT_FOUND, 404, "{\"error\":\"invalid_request\","
		  "\"error_description\":\"Requested resource not found\"}" },
	};
	struct resp r;
	size_t i;
	int st;

	(void)state;
	resp_init(&r);
	assert_string_equal(render(&r, ENV_IDENTITY, "x",
	    -API_ERR_OAUTH_INVALID_CLIENT, &st),
	    "{\"error\":\"invalid_client\",\"error_description\":"
	    "\"Bad client credentials\"}");
	assert_int_equal(st, 401);
	render(&r, ENV_IDENTITY, "x", -API_ERR_OAUTH_UNSUPPORTED_GRANT, &st);
	assert_int_equal(st, 400);
	render(&r, ENV_IDENTITY, "x", -API_ERR_UNAVAILABLE, &st);
	assert_int_equal(st, 500);
	/*
	 * A malformed request is the client's error (RFC 6749 §5.2); 500
	 * is for the server's own failures.
	 */
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_string_equal(render(&r, ENV_IDENTITY, "x", cases[i].err,
		    &st), cases[i].body);
		assert_int_equal(st, cases[i].status);
	}
	r.err_msg = "Request method 'PUT' not supported";
	assert_string_equal(render(&r, ENV_IDENTITY, "x", -API_ERR_METHOD, &st),
	    "{\"error\":\"method_not_allowed\",\"error_description\":"
	    "\"Request method 'PUT' not supported\"}");
	assert_int_equal(st, 405);
	r.err_msg = NULL;
	r.body = json_object_new_object();
	json_object_object_add(r.body, "token_type",
	    json_object_new_string("bearer"));
	assert_string_equal(render(&r, ENV_IDENTITY, "x", 0, &st),
	    "{\"token_type\":\"bearer\"}");
	assert_int_equal(st, 200);
	resp_clear(&r);
}

static void
test_error_table_complete(void **state)
{
	const struct err_info *e;
	int i;

	(void)state;
	for (i = 1; i < API_ERR__MAX; i++) {
		e = err_lookup(-i);
		assert_non_null(e->message);
		assert_true(e->code != NULL || e->oauth_error != NULL);
		assert_true(e->http_status >= 200 && e->http_status < 600);
	}
	assert_ptr_equal(err_lookup(-API_ERR__MAX),
	    err_lookup(-API_ERR_SYSTEM));
	assert_string_equal(err_lookup(-API_ERR_NOT_FOUND)->code, "610");
	assert_string_equal(err_lookup(API_ERR_CONCURRENCY)->code, "615");
}

static void
test_envelope_for_path(void **state)
{
	(void)state;
	assert_int_equal(response_envelope_for_path("/rest/asset/v1/x"),
	    ENV_ASSET1);
	assert_int_equal(response_envelope_for_path("/rest/asset/v2/email"),
	    ENV_ASSET2);
	assert_int_equal(response_envelope_for_path("/identity/oauth/token"),
	    ENV_IDENTITY);
	assert_int_equal(response_envelope_for_path("/bulk/v1/x"), ENV_LEADDB);
	assert_int_equal(response_envelope_for_path(""), ENV_LEADDB);
}

/*
 * Items written as text (resp_add_text) and items added as objects keep
 * their order, in every envelope and in resp_result_json.
 */
static void
test_text_items(void **state)
{
	struct resp r;
	struct json_object *o;
	struct buf *b;
	const char *s;
	size_t len;
	int st;

	(void)state;
	resp_init(&r);
	o = json_object_new_object();
	json_object_object_add(o, "id", json_object_new_int(1));
	resp_add(&r, o);
	b = resp_add_text(&r);
	buf_adds(b, "{\"id\":2}");
	o = json_object_new_object();
	json_object_object_add(o, "id", json_object_new_int(3));
	resp_add(&r, o);
	assert_string_equal(render(&r, ENV_ASSET1, "1#2", 0, &st),
	    "{\"success\":true,\"errors\":[],\"requestId\":\"1#2\","
	    "\"warnings\":[],\"result\":[{\"id\":1},{\"id\":2},{\"id\":3}]}");
	s = resp_result_json(&r, &len);
	assert_non_null(s);
	assert_int_equal(len, strlen("[{\"id\":1},{\"id\":2},{\"id\":3}]"));
	assert_memory_equal(s, "[{\"id\":1},{\"id\":2},{\"id\":3}]", len);
	buf_adds(resp_add_text(&r), "4");
	assert_string_equal(render(&r, ENV_LEADDB, "1#2", 0, &st),
	    "{\"requestId\":\"1#2\",\"result\":[{\"id\":1},{\"id\":2},"
	    "{\"id\":3},4],\"success\":true}");
	assert_string_equal(render(&r, ENV_ASSET2, "1#2", 0, &st),
	    "{\"success\":true,\"requestId\":\"1#2\",\"result\":[{\"id\":1},"
	    "{\"id\":2},{\"id\":3},4]}");
	resp_clear(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_leaddb_empty_success),
		cmocka_unit_test(test_leaddb_sync_created),
		cmocka_unit_test(test_leaddb_errors),
		cmocka_unit_test(test_leaddb_paging_and_no_result),
		cmocka_unit_test(test_asset_envelopes),
		cmocka_unit_test(test_asset2_members),
		cmocka_unit_test(test_identity),
		cmocka_unit_test(test_error_table_complete),
		cmocka_unit_test(test_envelope_for_path),
		cmocka_unit_test(test_text_items),
	};
	int rc;

	buf_init(&out, 1 << 20);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	buf_clear(&out);
	return rc;
}
