/*
 * Emails v2 handlers (src/api/api_emails2.c): the answers given before
 * the store is asked, through the shared JSON member readers: the
 * x-app-type header, the object body, assetIds, assetId, pageIndex and
 * pageSize, and names counted in characters.  No repository call is
 * reached, so none is mocked.
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

#include "api/api.h"
#include "bounds.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"

#include "apitest.h"

static int
setup(void **state)
{
	apitest_setup(state);
	apitest_req.app_type = "marketo";
	return 0;
}

static void
test_app_type(void **state)
{
	(void)state;
	apitest_req.app_type = NULL;
	apitest_fails(api_emails2_bulk_delete, "{\"assetIds\":[1]}",
	    -API_ERR_MISSING_PARAM,
	    "Missing value for required header 'x-app-type'");
	apitest_req.app_type = "other";
	apitest_fails(api_emails2_bulk_delete, "{\"assetIds\":[1]}",
	    -API_ERR_INVALID_VALUE,
	    "Invalid value 'other'. Required of type 'x-app-type' (marketo)");
}

static void
test_bulk_delete_asset_ids(void **state)
{
	(void)state;
	apitest_fails(api_emails2_bulk_delete, "[1]",
	    -API_ERR_INVALID_REQUEST,
	    "The request body must be a JSON object");
	apitest_fails(api_emails2_bulk_delete, "{\"assetIds\":[]}",
	    -API_ERR_BLANK, "assetIds cannot be blank");
	apitest_fails(api_emails2_bulk_delete, "{\"assetIds\":\"1\"}",
	    -API_ERR_INVALID_VALUE, "Invalid value for 'assetIds': not an "
	    "array");
	apitest_fails(api_emails2_bulk_delete, "{\"assetIds\":[1,"
	    "2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21]}",
	    -API_ERR_INVALID_REQUEST,
	    "assetIds holds 21 ids: at most 20 per request");
	apitest_fails(api_emails2_bulk_delete, "{\"assetIds\":[1,{}]}",
	    -API_ERR_INVALID_VALUE, "Invalid value for 'assetIds': not an id");
	apitest_fails(api_emails2_bulk_delete, "{\"assetIds\":[1],"
	    "\"ignoreUsedBy\":\"yes\"}", -API_ERR_INVALID_VALUE,
	    "Invalid value '\"yes\"'. Required of type 'boolean' for "
	    "'ignoreUsedBy'");
}

static void
test_used_by_members(void **state)
{
	(void)state;
	apitest_fails(api_emails2_used_by, "{}", -API_ERR_BLANK,
	    "assetId cannot be blank");
	apitest_fails(api_emails2_used_by, "{\"assetId\":true}",
	    -API_ERR_INVALID_VALUE, "Invalid value for 'assetId': not an id");
	apitest_fails(api_emails2_used_by, "{\"assetId\":1,\"pageIndex\":-1}",
	    -API_ERR_INVALID_VALUE, "Invalid value for 'pageIndex': 0 or more");
	apitest_fails(api_emails2_used_by, "{\"assetId\":1,\"pageSize\":51}",
	    -API_ERR_INVALID_VALUE, "Invalid value for 'pageSize': 1 to 50");
	apitest_fails(api_emails2_used_by, "{\"assetId\":1,\"pageSize\":\"5\"}",
	    -API_ERR_INVALID_VALUE, "Invalid value for 'pageSize': 1 to 50");
}

/* A name of 256 two-byte characters: within the bytes, over the length. */
static void
test_create_name_in_characters(void **state)
{
	char body[16 + 2 * (ASSET_NAME_CHARS + 1) + 4];
	size_t i, o;

	(void)state;
	o = (size_t)snprintf(body, sizeof(body), "{\"name\":\"");
	for (i = 0; i < ASSET_NAME_CHARS + 1; i++) {
		body[o++] = '\xc3';
		body[o++] = '\xa9';
	}
	(void)snprintf(body + o, sizeof(body) - o, "\"}");
	apitest_fails(api_emails2_create, body, -API_ERR_INVALID_VALUE,
	    "Invalid value for 'name': longer than 255 characters");
	apitest_fails(api_emails2_create, "{\"name\":\"n\",\"headers\":[]}",
	    -API_ERR_INVALID_VALUE,
	    "Invalid value for 'headers': not a JSON object");
	apitest_fails(api_emails2_create, "{\"name\":\"n\","
	    "\"templateId\":\"x1\"}", -API_ERR_INVALID_VALUE,
	    "Invalid value for 'templateId': not an id");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_app_type, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_bulk_delete_asset_ids,
		    setup, apitest_teardown),
		cmocka_unit_test_setup_teardown(test_used_by_members, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_create_name_in_characters,
		    setup, apitest_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
