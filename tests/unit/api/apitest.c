/*
 * Shared pieces of the handler unit tests (apitest.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "api/api_leads_catalog.h"
#include "apitest.h"
#include "util/arena.h"

struct app	apitest_app;
struct req	apitest_req;
struct call	apitest_call;
struct resp	apitest_resp;

/* More than MAX_LIST_ITEMS, for the tests of list bounds. */
static struct param params[MAX_LIST_ITEMS + 16];

int
apitest_setup(void **state)
{
	(void)state;
	memset(&apitest_app, 0, sizeof(apitest_app));
	memset(&apitest_req, 0, sizeof(apitest_req));
	memset(&apitest_call, 0, sizeof(apitest_call));
	arena_init(&apitest_app.arena);
	apitest_req.arena = &apitest_app.arena;
	apitest_req.params = params;
	apitest_req.path = "";
	apitest_req.query = "";
	apitest_call.app = &apitest_app;
	apitest_call.req = &apitest_req;
	apitest_call.request_id = "1a2b#3c4d5e6f7a8";
	resp_init(&apitest_resp);
	return 0;
}

int
apitest_teardown(void **state)
{
	(void)state;
	resp_clear(&apitest_resp);
	json_object_put(apitest_req.json);
	apitest_req.json = NULL;
	api_leads_catalog_free(apitest_app.leads_catalog);
	apitest_app.leads_catalog = NULL;
	arena_clear(&apitest_app.arena);
	return 0;
}

void
apitest_param(const char *name, const char *value)
{
	assert_true(apitest_req.nparams < sizeof(params) / sizeof(params[0]));
	params[apitest_req.nparams].name = name;
	params[apitest_req.nparams].value = value;
	params[apitest_req.nparams].value_len = strlen(value);
	params[apitest_req.nparams].src = PARAM_QUERY;
	apitest_req.nparams++;
}

void
apitest_body(const char *json)
{
	json_object_put(apitest_req.json);
	apitest_req.json = json_tokener_parse(json);
	assert_non_null(apitest_req.json);
	apitest_req.body_kind = BODY_JSON;
}

void
apitest_no_body(void)
{
	json_object_put(apitest_req.json);
	apitest_req.json = NULL;
	apitest_req.body_kind = BODY_NONE;
}

void
apitest_again(void)
{
	resp_clear(&apitest_resp);
	resp_init(&apitest_resp);
	apitest_req.nparams = 0;
}

int
apitest_run(api_handler h)
{
	return h(&apitest_call, &apitest_resp);
}

const char *
apitest_result(void)
{
	return apitest_resp.result != NULL ? json_object_to_json_string_ext(
	    apitest_resp.result, JSON_C_TO_STRING_PLAIN) : "(none)";
}

void
apitest_fails(api_handler h, const char *json, int err, const char *msg)
{
	resp_clear(&apitest_resp);
	resp_init(&apitest_resp);
	if (json != NULL)
		apitest_body(json);
	assert_int_equal(h(&apitest_call, &apitest_resp), err);
	if (msg != NULL) {
		assert_non_null(apitest_resp.err_msg);
		assert_string_equal(apitest_resp.err_msg, msg);
	}
	assert_null(apitest_resp.result);
}
