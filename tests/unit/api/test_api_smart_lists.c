/*
 * Smart list handlers (src/api/api_smart_lists.c) over a mocked
 * repository: Delete Rule and the errors a rule change answers through
 * the shared change-error mapper (702 with the list's id or the store's
 * own reason, 709 with the store's reason, the store's code).
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
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "repo/repo.h"
#include "repo/repo_smart_lists.h"

#include "apitest.h"

/* What the mocked store was asked and answers. */
static struct {
	int		 calls;
	int32_t		 id;
	enum repo_sl_op	 op;
	int32_t		 rule_id;
	int		 err;
	const char	*msg;		/* its reason, with err */
} mock;

int	__wrap_repo_sl_change(struct db *db, int32_t id,
	    struct repo_sl_change *c);

int
__wrap_repo_sl_change(struct db *db, int32_t id, struct repo_sl_change *c)
{
	(void)db;
	mock.calls++;
	mock.id = id;
	mock.op = c->op;
	mock.rule_id = c->rule_id;
	if (mock.msg != NULL)
		(void)snprintf(c->msg, sizeof(c->msg), "%s", mock.msg);
	return mock.err;
}

static int
setup(void **state)
{
	memset(&mock, 0, sizeof(mock));
	apitest_setup(state);
	apitest_req.path_ints[0] = 9;
	apitest_req.path_ints[1] = 3;
	return 0;
}

static void
test_delete_rule(void **state)
{
	(void)state;
	assert_int_equal(apitest_run(api_smart_lists_delete_rule), 0);
	assert_int_equal(mock.id, 9);
	assert_int_equal(mock.op, SL_OP_DELETE);
	assert_int_equal(mock.rule_id, 3);
	assert_string_equal(apitest_result(), "[{\"id\":3}]");
}

/* A list id beyond the ids lists have is not asked for. */
static void
test_delete_rule_of_no_list(void **state)
{
	(void)state;
	apitest_req.path_ints[0] = (int64_t)INT32_MAX + 1;
	apitest_fails(api_smart_lists_delete_rule, NULL, -API_ERR_NO_DATA,
	    "2147483648 Smart list not found");
	assert_int_equal(mock.calls, 0);
}

static void
test_change_errors(void **state)
{
	(void)state;
	mock.err = -REPO_ERR_NOT_FOUND;
	apitest_fails(api_smart_lists_delete_rule, NULL, -API_ERR_NO_DATA,
	    "9 Smart list not found");
	mock.msg = "Rule 3 not found";
	apitest_fails(api_smart_lists_delete_rule, NULL, -API_ERR_NO_DATA,
	    "Rule 3 not found");
	mock.err = -REPO_ERR_INVALID;
	mock.msg = "Rule 3 is a trigger";
	apitest_fails(api_smart_lists_delete_rule, NULL, -API_ERR_RULE,
	    "Rule 3 is a trigger");
	mock.err = -REPO_ERR_CONFLICT;
	mock.msg = NULL;
	assert_int_equal(apitest_run(api_smart_lists_delete_rule),
	    err_from_repo(-REPO_ERR_CONFLICT));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_delete_rule, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_delete_rule_of_no_list,
		    setup, apitest_teardown),
		cmocka_unit_test_setup_teardown(test_change_errors, setup,
		    apitest_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
