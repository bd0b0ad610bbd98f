/*
 * The handlers of api_lead_fields.c without a database: the catalogue is
 * the real cache (api_leads_catalog.c) over a mocked
 * repo_lead_fields_load (the canned catalogue of apitest.c), and Create
 * and Update Lead Field reach mocked repo_lead_schema_insert and
 * repo_lead_schema_update (-Wl,--wrap, see Makefile.am), which check what
 * they are handed.  The tests assert the describe shapes, paging of the
 * field schema, per-record results and reasons of Create, the update
 * rules, and request-level errors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "api/api.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "http/router.h"
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_lead_fields.h"
#include "repo/repo_lead_schema.h"

#include "apitest.h"

/* ---- mocks ---- */

int	__wrap_repo_lead_schema_insert(struct db *,
	    const struct lead_field_new *, enum lf_conflict *, bool *);
int	__wrap_repo_lead_schema_update(struct db *, const char *,
	    const struct lead_field_change *);

static struct {
	/* insert */
	struct lead_field_new	 nf;
	char			 display[64], description[64];
	enum lf_conflict	 conflict;
	bool			 full;
	/* update */
	struct lead_field_change ch;
	char			 ch_display[64];
	bool			 ch_desc_null;
} mock;

int
__wrap_repo_lead_schema_insert(struct db *db, const struct lead_field_new *f,
    enum lf_conflict *conflict, bool *full)
{
	const char *name = f->name;

	(void)db;
	check_expected(name);
	mock.nf = *f;
	snprintf(mock.display, sizeof(mock.display), "%s", f->display_name);
	snprintf(mock.description, sizeof(mock.description), "%s",
	    f->description != NULL ? f->description : "(null)");
	*conflict = mock.conflict;
	*full = mock.full;
	return mock_type(int);
}

int
__wrap_repo_lead_schema_update(struct db *db, const char *name,
    const struct lead_field_change *ch)
{
	(void)db;
	check_expected(name);
	mock.ch = *ch;
	snprintf(mock.ch_display, sizeof(mock.ch_display), "%s",
	    ch->display_name != NULL ? ch->display_name : "(null)");
	mock.ch_desc_null = ch->description == NULL;
	return mock_type(int);
}

/* ---- the request ---- */

static struct req *const req = &apitest_req;
static struct resp *const resp = &apitest_resp;

static int
setup(void **state)
{
	memset(&mock, 0, sizeof(mock));
	return apitest_setup(state);
}

/* Element i of the result as plain JSON text. */
static const char *
item_text(size_t i)
{
	return json_object_to_json_string_ext(json_object_array_get_idx(
	    resp->result, i), JSON_C_TO_STRING_PLAIN);
}

/* ---- Describe Lead, Describe Lead2 ---- */

static void
test_describe(void **state)
{
	(void)state;
	assert_int_equal(apitest_run(api_lead_fields_describe), 0);
	assert_int_equal(apitest_catalog.loads, 1);
	assert_int_equal(json_object_array_length(resp->result), 11);
	assert_string_equal(item_text(0), "{\"id\":4,\"displayName\":"
	    "\"company\",\"dataType\":\"string\",\"length\":255,\"rest\":"
	    "{\"name\":\"company\",\"readOnly\":false},\"soap\":{\"name\":"
	    "\"Company\",\"readOnly\":false}}");
	/* id is writable here: a record names its lead by it. */
	assert_string_equal(item_text(1), "{\"id\":44,\"displayName\":\"id\","
	    "\"dataType\":\"integer\",\"rest\":{\"name\":\"id\",\"readOnly\":"
	    "false},\"soap\":{\"name\":\"Id\",\"readOnly\":false}}");
	/* Read-only, and no SOAP name. */
	assert_string_equal(item_text(5), "{\"id\":130,\"displayName\":"
	    "\"createdAt\",\"dataType\":\"datetime\",\"rest\":{\"name\":"
	    "\"createdAt\",\"readOnly\":true}}");
	/* A custom score field: integer, SOAP under its own name. */
	assert_string_equal(item_text(10), "{\"id\":1000,\"displayName\":"
	    "\"rating\",\"dataType\":\"integer\",\"rest\":{\"name\":\"rating\","
	    "\"readOnly\":false},\"soap\":{\"name\":\"rating\",\"readOnly\":"
	    "false}}");
}

static void
test_describe2(void **state)
{
	struct json_object *o, *v;

	(void)state;
	assert_int_equal(apitest_run(api_lead_fields_describe2), 0);
	assert_int_equal(json_object_array_length(resp->result), 1);
	o = json_object_array_get_idx(resp->result, 0);
	assert_true(json_object_object_get_ex(o, "name", &v));
	assert_string_equal(json_object_get_string(v), "API Lead");
	assert_true(json_object_object_get_ex(o, "searchableFields", &v));
	assert_string_equal(json_object_to_json_string_ext(v,
	    JSON_C_TO_STRING_PLAIN), "[[\"id\"],[\"email\"],[\"cookies\"],"
	    "[\"leadScore\"],[\"leadPartitionId\"]]");
	assert_true(json_object_object_get_ex(o, "fields", &v));
	assert_int_equal(json_object_array_length(v), 11);
	assert_string_equal(json_object_to_json_string_ext(
	    json_object_array_get_idx(v, 0), JSON_C_TO_STRING_PLAIN),
	    "{\"name\":\"company\",\"displayName\":\"company\",\"dataType\":"
	    "\"string\",\"length\":255,\"updateable\":true,\"crmManaged\":"
	    "true}");
	assert_string_equal(json_object_to_json_string_ext(
	    json_object_array_get_idx(v, 6), JSON_C_TO_STRING_PLAIN),
	    "{\"name\":\"updatedAt\",\"displayName\":\"updatedAt\","
	    "\"dataType\":\"datetime\",\"updateable\":false,\"crmManaged\":"
	    "false}");
	assert_string_equal(json_object_to_json_string_ext(
	    json_object_array_get_idx(v, 10), JSON_C_TO_STRING_PLAIN),
	    "{\"name\":\"rating\",\"displayName\":\"rating\",\"dataType\":"
	    "\"integer\",\"updateable\":true,\"crmManaged\":false}");
}

static void
test_describe_catalogue_down(void **state)
{
	(void)state;
	apitest_catalog.err = -REPO_ERR_CONN;
	apitest_fails(api_lead_fields_describe, NULL, -API_ERR_UNAVAILABLE,
	    NULL);
	apitest_fails(api_lead_fields_describe2, NULL, -API_ERR_UNAVAILABLE,
	    NULL);
	apitest_fails(api_lead_fields_list, NULL, -API_ERR_UNAVAILABLE, NULL);
	apitest_catalog.err = -REPO_ERR_INTERNAL;
	req->path_params[0] = "email";
	apitest_fails(api_lead_fields_get, NULL, -API_ERR_SYSTEM, NULL);
}

/* ---- Get Lead Fields, Get Lead Field by Name ---- */

static void
test_list_pages(void **state)
{
	char token[64];

	(void)state;
	apitest_param("batchSize", "4");
	assert_int_equal(apitest_run(api_lead_fields_list), 0);
	assert_int_equal(json_object_array_length(resp->result), 4);
	assert_string_equal(item_text(0), "{\"displayName\":\"company\","
	    "\"name\":\"company\",\"description\":null,\"dataType\":\"string\","
	    "\"length\":255,\"isHidden\":false,\"isHtmlEncodingInEmail\":true,"
	    "\"isSensitive\":false,\"isCustom\":false,\"isApiCreated\":false}");
	assert_int_equal(resp->more_result, 1);
	assert_non_null(resp->next_page_token);
	snprintf(token, sizeof(token), "%s", resp->next_page_token);

	/*
	 * The next request, after favColor was created elsewhere: the page
	 * goes on after lastName (attr 55) and reaches the new field.
	 */
	apitest_app.served++;
	apitest_catalog.version = 2;
	apitest_catalog.extra = true;
	apitest_again();
	apitest_param("nextPageToken", token);
	assert_int_equal(apitest_run(api_lead_fields_list), 0);
	assert_int_equal(apitest_catalog.loads, 2);
	assert_int_equal(json_object_array_length(resp->result), 8);
	assert_non_null(strstr(item_text(0), "\"name\":\"email\""));
	assert_non_null(strstr(item_text(7), "\"name\":\"favColor\""));
	/* The last page says so, and has no token. */
	assert_int_equal(resp->more_result, 0);
	assert_null(resp->next_page_token);
}

static void
test_list_bad_params(void **state)
{
	static const struct {
		const char	*name, *value, *msg;
	} bad[] = {
		{ "batchSize", "0", "Invalid batchSize '0': an integer from 1 "
		  "to 300 is expected" },
		{ "batchSize", "301", "Invalid batchSize '301': an integer "
		    "from "
		  "1 to 300 is expected" },
		{ "batchSize", "ten", "Invalid batchSize 'ten': an integer "
		    "from "
		  "1 to 300 is expected" },
		{ "nextPageToken", "bogus", "Invalid nextPageToken 'bogus'" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		apitest_again();
		apitest_param(bad[i].name, bad[i].value);
		apitest_fails(api_lead_fields_list, NULL,
		    -API_ERR_INVALID_REQUEST, bad[i].msg);
	}
	/* Checked before the catalogue is read. */
	assert_int_equal(apitest_catalog.loads, 0);
	/* 300 is the default and the most: every field on one page. */
	apitest_again();
	apitest_param("batchSize", "300");
	assert_int_equal(apitest_run(api_lead_fields_list), 0);
	assert_int_equal(json_object_array_length(resp->result), 11);
	assert_int_equal(resp->more_result, 0);
}

static void
test_get(void **state)
{
	(void)state;
	req->path_params[0] = "EMAIL";
	assert_int_equal(apitest_run(api_lead_fields_get), 0);
	assert_string_equal(apitest_result(), "[{\"displayName\":\"email\","
	    "\"name\":\"email\",\"description\":null,\"dataType\":\"email\","
	    "\"length\":255,\"isHidden\":false,\"isHtmlEncodingInEmail\":true,"
	    "\"isSensitive\":false,\"isCustom\":false,\"isApiCreated\":"
	    "false}]");
	/* The schema operations name a score field "score". */
	apitest_again();
	req->path_params[0] = "rating";
	assert_int_equal(apitest_run(api_lead_fields_get), 0);
	assert_string_equal(apitest_result(), "[{\"displayName\":\"rating\","
	    "\"name\":\"rating\",\"description\":\"How warm\",\"dataType\":"
	    "\"score\",\"isHidden\":false,\"isHtmlEncodingInEmail\":true,"
	    "\"isSensitive\":false,\"isCustom\":true,\"isApiCreated\":true}]");
	req->path_params[0] = "shoeSize";
	apitest_fails(api_lead_fields_get, NULL, -API_ERR_FIELD_NOT_FOUND,
	    "Field 'shoeSize' not found");
}

/* ---- Create Lead Fields ---- */

static void
test_create_ok(void **state)
{
	(void)state;
	apitest_body("{\"input\":[{\"name\":\"shoeSize\",\"displayName\":"
	    "\"Shoe Size\",\"dataType\":\"integer\",\"description\":\"EU\","
	    "\"isHidden\":true}]}");
	expect_string(__wrap_repo_lead_schema_insert, name, "shoeSize");
	will_return(__wrap_repo_lead_schema_insert, 0);
	assert_int_equal(apitest_run(api_lead_fields_create), 0);
	assert_string_equal(mock.display, "Shoe Size");
	assert_string_equal(mock.description, "EU");
	assert_int_equal(mock.nf.type, LF_INTEGER);
	assert_true(mock.nf.is_hidden);
	assert_true(mock.nf.is_html_encoding);
	assert_false(mock.nf.is_sensitive);
	assert_string_equal(apitest_result(), "[{\"name\":\"shoeSize\","
	    "\"status\":\"created\"}]");
	/* This worker reloads its catalogue at once. */
	assert_int_equal(apitest_catalog.loads, 1);
}

static void
test_create_defaults(void **state)
{
	(void)state;
	apitest_body("{\"input\":[{\"name\":\"born\",\"displayName\":\"Born\","
	    "\"dataType\":\"date\"},{\"name\":\"vip\",\"displayName\":\"VIP\","
	    "\"dataType\":\"boolean\",\"isHtmlEncodingInEmail\":true,"
	    "\"isSensitive\":true,\"description\":null}]}");
	expect_string(__wrap_repo_lead_schema_insert, name, "born");
	will_return(__wrap_repo_lead_schema_insert, 0);
	expect_string(__wrap_repo_lead_schema_insert, name, "vip");
	will_return(__wrap_repo_lead_schema_insert, 0);
	assert_int_equal(apitest_run(api_lead_fields_create), 0);
	/* What the mock kept is the second record's. */
	assert_int_equal(mock.nf.type, LF_BOOLEAN);
	assert_true(mock.nf.is_html_encoding);
	assert_true(mock.nf.is_sensitive);
	assert_false(mock.nf.is_hidden);
	assert_string_equal(mock.description, "(null)");
	assert_string_equal(apitest_result(), "[{\"name\":\"born\",\"status\":"
	    "\"created\"},{\"name\":\"vip\",\"status\":\"created\"}]");
	/* A date is not HTML-encoded unless asked. */
	apitest_again();
	apitest_body("{\"input\":[{\"name\":\"born\",\"displayName\":\"Born\","
	    "\"dataType\":\"datetime\"}]}");
	expect_string(__wrap_repo_lead_schema_insert, name, "born");
	will_return(__wrap_repo_lead_schema_insert, 0);
	assert_int_equal(apitest_run(api_lead_fields_create), 0);
	assert_int_equal(mock.nf.type, LF_DATETIME);
	assert_false(mock.nf.is_html_encoding);
}

static void
test_create_record_skips(void **state)
{
	(void)state;
	apitest_body("{\"input\":["
	    "5,"
	    "{\"name\":\"a1\",\"displayName\":\"A\",\"dataType\":\"string\","
	    "\"length\":10},"
	    "{\"name\":\"a2\",\"colour\":\"red\"},"
	    "{\"name\":\"a3\",\"isHidden\":\"yes\"},"
	    "{\"name\":\"a4\",\"displayName\":5},"
	    "{\"displayName\":\"A\",\"dataType\":\"string\"},"
	    "{\"name\":\"1abc\",\"displayName\":\"A\",\"dataType\":\"string\"},"
	    "{\"name\":\"a7\",\"dataType\":\"string\"},"
	    "{\"name\":\"a8\",\"displayName\":\"A\"},"
	    "{\"name\":\"a9\",\"displayName\":\"A\",\"dataType\":\"text\"},"
	    "{\"name\":\"a10\",\"displayName\":\"<b>\",\"dataType\":\"url\"},"
	    "{\"name\":\"ok\",\"displayName\":\"OK\",\"dataType\":\"url\"}]}");
	expect_string(__wrap_repo_lead_schema_insert, name, "ok");
	will_return(__wrap_repo_lead_schema_insert, 0);
	assert_int_equal(apitest_run(api_lead_fields_create), 0);
	assert_string_equal(apitest_result(), "["
	    "{\"status\":\"skipped\",\"reasons\":[{\"code\":\"1003\","
	    "\"message\":\"Invalid record: an object is expected\"}]},"
	    "{\"name\":\"a1\",\"status\":\"skipped\",\"reasons\":[{\"code\":"
	    "\"1003\",\"message\":\"Attribute 'length' is not supported\"}]},"
	    "{\"name\":\"a2\",\"status\":\"skipped\",\"reasons\":[{\"code\":"
	    "\"1003\",\"message\":\"Attribute 'colour' is not supported\"}]},"
	    "{\"name\":\"a3\",\"status\":\"skipped\",\"reasons\":[{\"code\":"
	    "\"1003\",\"message\":\"Invalid value for 'isHidden': true or "
	    "false "
	    "is expected\"}]},"
	    "{\"name\":\"a4\",\"status\":\"skipped\",\"reasons\":[{\"code\":"
	    "\"1003\",\"message\":\"Invalid value for 'displayName': a string "
	    "is expected\"}]},"
	    "{\"status\":\"skipped\",\"reasons\":[{\"code\":\"1002\","
	    "\"message\":\"Missing value for required parameter 'name'\"}]},"
	    "{\"name\":\"1abc\",\"status\":\"skipped\",\"reasons\":[{\"code\":"
	    "\"1003\",\"message\":\"Invalid field name '1abc': must start with "
	    "a letter\"}]},"
	    "{\"name\":\"a7\",\"status\":\"skipped\",\"reasons\":[{\"code\":"
	    "\"1002\",\"message\":\"Missing value for required parameter "
	    "'displayName'\"}]},"
	    "{\"name\":\"a8\",\"status\":\"skipped\",\"reasons\":[{\"code\":"
	    "\"1002\",\"message\":\"Missing value for required parameter "
	    "'dataType'\"}]},"
	    "{\"name\":\"a9\",\"status\":\"skipped\",\"reasons\":[{\"code\":"
	    "\"1003\",\"message\":\"Invalid dataType 'text': one of boolean, "
	    "currency, date, datetime, email, float, integer, percent, phone, "
	    "score, string, url is expected\"}]},"
	    "{\"name\":\"a10\",\"status\":\"skipped\",\"reasons\":[{\"code\":"
	    "\"1003\",\"message\":\"Invalid displayName '<b>': must not "
	    "contain "
	    "any of < > \\\" ' ` \\\\ ;\"}]},"
	    "{\"name\":\"ok\",\"status\":\"created\"}]");
}

static void
test_create_repo_outcomes(void **state)
{
	static const struct {
		int			 rr;
		enum lf_conflict	 conflict;
		bool			 full;
		const char		*reason;
	} cases[] = {
		{ -REPO_ERR_CONFLICT, LF_CONFLICT_NAME, false,
		  "{\"code\":\"1003\",\"message\":\"Field 'shoeSize' already "
		  "exists\"}" },
		{ -REPO_ERR_CONFLICT, LF_CONFLICT_DISPLAY, false,
		  "{\"code\":\"1003\",\"message\":\"Display name 'Shoe Size' "
		  "already exists\"}" },
		{ -REPO_ERR_INVALID, LF_CONFLICT_NONE, true,
		  "{\"code\":\"1003\",\"message\":\"Field 'shoeSize' cannot be "
		  "created: the lead table has no room for more fields\"}" },
		{ -REPO_ERR_DEADLOCK, LF_CONFLICT_NONE, false,
		  "{\"code\":\"604\",\"message\":\"Request time-out\"}" },
		{ -REPO_ERR_UNAVAILABLE, LF_CONFLICT_NONE, false,
		  "{\"code\":\"608\",\"message\":\"API Temporarily "
		  "Unavailable\"}" },
	};
	char want[300];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		apitest_again();
		apitest_body("{\"input\":[{\"name\":\"shoeSize\","
		    "\"displayName\":\"Shoe Size\",\"dataType\":"
		    "\"integer\"}]}");
		mock.conflict = cases[i].conflict;
		mock.full = cases[i].full;
		expect_string(__wrap_repo_lead_schema_insert, name,
		    "shoeSize");
		will_return(__wrap_repo_lead_schema_insert, cases[i].rr);
		/* One record failing does not fail the request. */
		assert_int_equal(apitest_run(api_lead_fields_create), 0);
		snprintf(want, sizeof(want), "[{\"name\":\"shoeSize\","
		    "\"status\":\"skipped\",\"reasons\":[%s]}]",
		    cases[i].reason);
		assert_string_equal(apitest_result(), want);
	}
	/* Nothing created: the catalogue was never needed. */
	assert_int_equal(apitest_catalog.loads, 0);
}

static void
test_create_request_errors(void **state)
{
	struct json_object *in;

	(void)state;
	apitest_fails(api_lead_fields_create, NULL, -API_ERR_INVALID_REQUEST,
	    "Input not specified");
	apitest_fails(api_lead_fields_create, "{\"input\":[]}",
	    -API_ERR_INVALID_REQUEST, "Input not specified");
	apitest_fails(api_lead_fields_create, "{\"input\":\"x\"}",
	    -API_ERR_INVALID_REQUEST, "Input not specified");
	apitest_fails(api_lead_fields_create, "[{\"name\":\"a\"}]",
	    -API_ERR_INVALID_REQUEST, "Input not specified");
	in = apitest_body_input(MAX_CREATE_FIELDS + 1, "{}");
	apitest_fails(api_lead_fields_create, NULL, -API_ERR_INVALID_REQUEST,
	    "Too many fields: at most 100 per call");
	/* 100 are taken (each skipped here: no name). */
	json_object_array_del_idx(in, 0, 1);
	apitest_again();
	assert_int_equal(apitest_run(api_lead_fields_create), 0);
	assert_int_equal(json_object_array_length(resp->result),
	    MAX_CREATE_FIELDS);
}

/* ---- Update Lead Field ---- */

static void
test_update_custom(void **state)
{
	(void)state;
	req->path_params[0] = "RATING";
	apitest_body("{\"input\":[{\"displayName\":\"Warmth\",\"description\":"
	    "null,\"isHidden\":true,\"isSensitive\":false}]}");
	expect_string(__wrap_repo_lead_schema_update, name, "rating");
	will_return(__wrap_repo_lead_schema_update, 0);
	assert_int_equal(apitest_run(api_lead_fields_update), 0);
	assert_true(mock.ch.set_display_name);
	assert_string_equal(mock.ch_display, "Warmth");
	/* An explicit null clears the description. */
	assert_true(mock.ch.set_description);
	assert_true(mock.ch_desc_null);
	assert_true(mock.ch.set_hidden);
	assert_true(mock.ch.is_hidden);
	assert_true(mock.ch.set_sensitive);
	assert_false(mock.ch.is_sensitive);
	assert_false(mock.ch.set_html_encoding);
	assert_string_equal(apitest_result(), "[{\"name\":\"rating\","
	    "\"status\":\"updated\"}]");
}

static void
test_update_standard(void **state)
{
	(void)state;
	req->path_params[0] = "email";
	apitest_body("{\"input\":[{\"description\":\"Where to write\","
	    "\"isHtmlEncodingInEmail\":false}]}");
	expect_string(__wrap_repo_lead_schema_update, name, "email");
	will_return(__wrap_repo_lead_schema_update, 0);
	assert_int_equal(apitest_run(api_lead_fields_update), 0);
	assert_false(mock.ch.set_display_name);
	assert_true(mock.ch.set_description);
	assert_false(mock.ch_desc_null);
	assert_true(mock.ch.set_html_encoding);
	assert_false(mock.ch.is_html_encoding);
	assert_string_equal(apitest_result(), "[{\"name\":\"email\","
	    "\"status\":\"updated\"}]");
}

static void
test_update_rules(void **state)
{
	static const struct {
		const char	*field, *rec, *msg;
	} bad[] = {
		{ "email", "{\"displayName\":\"Mail\"}", "displayName of "
		  "standard field 'email' cannot be updated" },
		{ "email", "{\"isHidden\":true}", "isHidden can be updated "
		    "only "
		  "on custom fields created through the API" },
		{ "favColor", "{\"isHidden\":false}", "isHidden can be updated "
		  "only on custom fields created through the API" },
		{ "rating", "{\"name\":\"heat\"}", "Attribute 'name' cannot be "
		  "updated" },
		{ "rating", "{\"dataType\":\"string\"}", "Attribute 'dataType' "
		  "cannot be updated" },
		{ "rating", "{\"length\":\"10\"}", "Attribute 'length' cannot "
		    "be "
		  "updated" },
		{ "rating", "{\"colour\":1}", "Attribute 'colour' is not "
		  "supported" },
		{ "rating", "{}", "No attribute to update" },
		{ "rating", "{\"displayName\":\" \"}", "Invalid displayName ' "
		    "': "
		  "must not be blank" },
		{ "rating", "[]", "Invalid record: an object is expected" },
	};
	char json[200], want[300];
	size_t i;

	(void)state;
	apitest_catalog.extra = true;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		apitest_again();
		req->path_params[0] = bad[i].field;
		snprintf(json, sizeof(json), "{\"input\":[%s]}", bad[i].rec);
		apitest_body(json);
		assert_int_equal(apitest_run(api_lead_fields_update), 0);
		snprintf(want, sizeof(want), "[{\"name\":\"%s\",\"status\":"
		    "\"skipped\",\"reasons\":[{\"code\":\"1003\",\"message\":"
		    "\"%s\"}]}]", bad[i].field, bad[i].msg);
		assert_string_equal(apitest_result(), want);
	}
}

static void
test_update_errors(void **state)
{
	(void)state;
	req->path_params[0] = "shoeSize";
	apitest_fails(api_lead_fields_update, "{\"input\":[{\"description\":"
	    "\"x\"}]}", -API_ERR_FIELD_NOT_FOUND, "Field 'shoeSize' not found");
	req->path_params[0] = "rating";
	apitest_fails(api_lead_fields_update, "{}", -API_ERR_INVALID_REQUEST,
	    "Input not specified");
	apitest_fails(api_lead_fields_update, "{\"input\":[{\"description\":"
	    "\"x\"},{\"description\":\"y\"}]}", -API_ERR_INVALID_REQUEST,
	    "Only one field can be updated per call");
	/* What the repository refuses. */
	expect_string(__wrap_repo_lead_schema_update, name, "rating");
	will_return(__wrap_repo_lead_schema_update, -REPO_ERR_NOT_FOUND);
	apitest_fails(api_lead_fields_update, "{\"input\":[{\"description\":"
	    "\"x\"}]}", -API_ERR_FIELD_NOT_FOUND, "Field 'rating' not found");
	expect_string(__wrap_repo_lead_schema_update, name, "rating");
	will_return(__wrap_repo_lead_schema_update, -REPO_ERR_CONN);
	apitest_fails(api_lead_fields_update, NULL, -API_ERR_UNAVAILABLE,
	    NULL);
	/* A display name in use skips the record. */
	apitest_again();
	apitest_body("{\"input\":[{\"displayName\":\"Company Name\"}]}");
	expect_string(__wrap_repo_lead_schema_update, name, "rating");
	will_return(__wrap_repo_lead_schema_update, -REPO_ERR_CONFLICT);
	assert_int_equal(apitest_run(api_lead_fields_update), 0);
	assert_string_equal(apitest_result(), "[{\"name\":\"rating\","
	    "\"status\":\"skipped\",\"reasons\":[{\"code\":\"1003\","
	    "\"message\":\"Display name 'Company Name' already exists\"}]}]");
}

/* ---- Describe Program Member ---- */

static void
test_describe_members(void **state)
{
	static const struct route newer = {
		.pattern = "/rest/v1/programs/members/describe.json",
	};
	static const struct route older = {
		.pattern = "/rest/v1/program/members/describe.json",
	};
	struct json_object *o, *v;

	(void)state;
	apitest_call.route = &older;
	assert_int_equal(apitest_run(api_lead_fields_describe_members), 0);
	o = json_object_array_get_idx(resp->result, 0);
	assert_int_equal(json_object_object_length(o), 2);
	assert_true(json_object_object_get_ex(o, "name", &v));
	assert_string_equal(json_object_get_string(v), "API Program Member");
	assert_true(json_object_object_get_ex(o, "fields", &v));
	assert_int_equal(json_object_array_length(v), 12);
	assert_string_equal(json_object_to_json_string_ext(
	    json_object_array_get_idx(v, 3), JSON_C_TO_STRING_PLAIN),
	    "{\"name\":\"progressionStatus\",\"displayName\":"
	    "\"progressionStatus\",\"dataType\":\"string\",\"length\":255,"
	    "\"updateable\":true,\"crmManaged\":false}");
	apitest_again();
	apitest_call.route = &newer;
	assert_int_equal(apitest_run(api_lead_fields_describe_members), 0);
	o = json_object_array_get_idx(resp->result, 0);
	assert_true(json_object_object_get_ex(o, "name", &v));
	assert_string_equal(json_object_get_string(v),
	    "API Program Membership");
	assert_true(json_object_object_get_ex(o, "dedupeFields", &v));
	assert_string_equal(json_object_to_json_string_ext(v,
	    JSON_C_TO_STRING_PLAIN), "[\"leadId\",\"programId\"]");
	assert_true(json_object_object_get_ex(o, "searchableFields", &v));
	assert_string_equal(json_object_to_json_string_ext(v,
	    JSON_C_TO_STRING_PLAIN), "[[\"leadId\"],[\"programId\"],"
	    "[\"reachedSuccess\"],[\"progressionStatus\"]]");
	assert_true(json_object_object_get_ex(o, "description", &v));
	assert_true(json_object_object_get_ex(o, "fields", &v));
	assert_int_equal(json_object_array_length(v), 12);
	/* No catalogue is read. */
	assert_int_equal(apitest_catalog.loads, 0);
}

#define T(f)	cmocka_unit_test_setup_teardown(f, setup, apitest_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_describe),
		T(test_describe2),
		T(test_describe_catalogue_down),
		T(test_list_pages),
		T(test_list_bad_params),
		T(test_get),
		T(test_create_ok),
		T(test_create_defaults),
		T(test_create_record_skips),
		T(test_create_repo_outcomes),
		T(test_create_request_errors),
		T(test_update_custom),
		T(test_update_standard),
		T(test_update_rules),
		T(test_update_errors),
		T(test_describe_members),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
