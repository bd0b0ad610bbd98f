/*
 * api_pending (src/api/api_pending.c): a route registered before its
 * handler is built answers 703 with the operation's name and id.  No
 * route of the table uses it today; the answer stays tested for the
 * next group.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "api/api.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "http/router.h"

#include "apitest.h"

static void
test_pending_answers_703(void **state)
{
	static const struct route rt = {
		.op_id = "getThingUsingGET",
		.name = "Get Thing",
	};

	(void)state;
	apitest_call.route = &rt;
	assert_int_equal(api_pending(&apitest_call, &apitest_resp),
	    -API_ERR_NOT_IMPLEMENTED);
	assert_string_equal(apitest_resp.err_msg,
	    "Not implemented: Get Thing (getThingUsingGET)");
	assert_null(apitest_resp.result);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_pending_answers_703,
		    apitest_setup, apitest_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
