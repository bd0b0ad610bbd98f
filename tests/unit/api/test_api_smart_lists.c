/*
 * Smart list handlers (src/api/api_smart_lists.c) over a mocked
 * repository: Delete Rule and the errors a rule change answers through
 * the shared change-error mapper (702 with the list's id or the store's
 * own reason, 709 with the store's reason, the store's code); the change
 * Add Rule, Reorder, Filter Logic and Update Rule hand the store (the
 * rule type's checks, its primary constraint and default operator, the
 * moves, the logic, the values as JSON).  The read back of the list
 * finds none, which ends those calls with 702.
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
#include "repo/repo_sl_catalogue.h"
#include "repo/repo_smart_lists.h"
#include "util/arena.h"

#include "apitest.h"

/* What the mocked store was asked and answers. */
static struct {
	int		 calls;
	int32_t		 id;
	enum repo_sl_op	 op;
	int32_t		 rule_id;
	int		 err;
	const char	*msg;		/* its reason, with err */
	struct repo_sl_change ch;	/* the change as handed */
	int32_t		 move_ids[4];
	int		 move_index[4];
	char		 values[128];
	int32_t		 campaign_id;	/* of the list */
} mock;

int	__wrap_repo_sl_change(struct db *db, int32_t id,
	    struct repo_sl_change *c);
int	__wrap_repo_sl_get(struct db *db, struct arena *a, int32_t id,
	    bool with_rules, struct repo_sl *out);
int	__wrap_repo_sl_get_reply(struct db *db, struct arena *a, int32_t id,
	    bool with_rules, struct repo_sl *out);
int	__wrap_repo_sl_rule_type(struct db *db, struct arena *a,
	    bool activity, int32_t id, struct repo_sl_rule_type *out);

/* List 9, of campaign mock.campaign_id. */
int
__wrap_repo_sl_get(struct db *db, struct arena *a, int32_t id,
    bool with_rules, struct repo_sl *out)
{
	(void)db;
	(void)a;
	(void)with_rules;
	memset(out, 0, sizeof(*out));
	out->id = id;
	out->campaign_id = mock.campaign_id;
	return id == 9 ? 0 : -REPO_ERR_NOT_FOUND;
}

/* The read back after a change: none, which ends the call (702). */
int
__wrap_repo_sl_get_reply(struct db *db, struct arena *a, int32_t id,
    bool with_rules, struct repo_sl *out)
{
	(void)db;
	(void)a;
	(void)id;
	(void)with_rules;
	memset(out, 0, sizeof(*out));
	return -REPO_ERR_NOT_FOUND;
}

/*
 * Activity type 2, a filter, primary constraint 7 with operators "in,not
 * in"; activity type 3, a trigger only, no constraint; attribute types
 * are lead fields: 30 only.
 */
int
__wrap_repo_sl_rule_type(struct db *db, struct arena *a, bool activity,
    int32_t id, struct repo_sl_rule_type *out)
{
	static struct repo_sl_constraint cons[] = {
		{ .id = 6, .name = "Date", .operators = "in past" },
		{ .id = 7, .name = "List", .primary = true,
		  .operators = "in,not in" },
	};

	(void)db;
	(void)a;
	memset(out, 0, sizeof(*out));
	out->id = id;
	out->activity = activity;
	if (activity && id == 2) {
		out->name = "Member of List";
		out->is_filter = true;
		out->cons = cons;
		out->ncons = 2;
		return 0;
	}
	if (activity && id == 3) {
		out->name = "Fills Out Form";
		out->is_trigger = true;
		return 0;
	}
	if (!activity && id == 30) {
		out->name = "Email Address";
		out->is_filter = true;
		return 0;
	}
	return -REPO_ERR_NOT_FOUND;
}

int
__wrap_repo_sl_change(struct db *db, int32_t id, struct repo_sl_change *c)
{
	(void)db;
	mock.calls++;
	mock.id = id;
	mock.op = c->op;
	mock.rule_id = c->rule_id;
	mock.ch = *c;
	if (c->nmoves > 0 && c->nmoves <= 4) {
		memcpy(mock.move_ids, c->move_ids, (size_t)c->nmoves *
		    sizeof(*c->move_ids));
		memcpy(mock.move_index, c->move_index, (size_t)c->nmoves *
		    sizeof(*c->move_index));
	}
	if (c->values_json != NULL)
		(void)snprintf(mock.values, sizeof(mock.values), "%s",
		    c->values_json);
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

/* 702 for the list Add Rule and the others read back. */
#define READ_BACK	"9 Smart list not found"

/*
 * The next Add Rule's parameters: a new response, rule type id of a
 * kind ("activity", "attribute") at index, a trigger when trigger.
 */
static void
add_params(int id, const char *kind, const char *index, bool trigger)
{
	char ref[64];

	apitest_again();
	(void)snprintf(ref, sizeof(ref), "{\"id\":%d,\"type\":\"%s\"}",
	    id, kind);
	apitest_param("ruleId", arena_strdup(&apitest_app.arena, ref));
	apitest_param("index", index);
	if (trigger)
		apitest_param("trigger", "true");
}

/*
 * Add Rule: the type's primary constraint and the first of its
 * operators; a trigger only on a campaign's list and of a trigger type;
 * a filter of a filter type; a type there is not.
 */
static void
test_add_rule(void **state)
{
	(void)state;
	add_params(2, "activity", "1", false);
	apitest_param("negative", "true");
	apitest_fails(api_smart_lists_add_rule, NULL, -API_ERR_NO_DATA,
	    READ_BACK);
	assert_int_equal(mock.op, SL_OP_ADD);
	assert_true(mock.ch.activity);
	assert_int_equal(mock.ch.type_id, 2);
	assert_int_equal(mock.ch.index, 1);
	assert_true(mock.ch.negative);
	assert_false(mock.ch.trigger);
	assert_int_equal(mock.ch.primary_id, 7);
	assert_string_equal(mock.ch.default_op, "in");
	/* An attribute rule: no constraint of its own, "is". */
	add_params(30, "attribute", "2", false);
	apitest_fails(api_smart_lists_add_rule, NULL, -API_ERR_NO_DATA,
	    READ_BACK);
	assert_false(mock.ch.activity);
	assert_int_equal(mock.ch.primary_id, 0);
	assert_string_equal(mock.ch.default_op, "is");
	assert_int_equal(mock.calls, 2);
	/* Refused before the store is asked. */
	add_params(3, "activity", "1", true);
	apitest_fails(api_smart_lists_add_rule, NULL, -API_ERR_RULE,
	    "Triggers can only be added to the smart list of a smart "
	    "campaign");
	mock.campaign_id = 4;
	add_params(2, "activity", "1", true);
	apitest_fails(api_smart_lists_add_rule, NULL, -API_ERR_RULE,
	    "Rule type 'Member of List' is a filter only and cannot be a "
	    "trigger");
	add_params(3, "activity", "1", false);
	apitest_fails(api_smart_lists_add_rule, NULL, -API_ERR_RULE,
	    "Rule type 'Fills Out Form' is a trigger only and cannot be a "
	    "filter");
	add_params(8, "activity", "1", false);
	apitest_fails(api_smart_lists_add_rule, NULL, -API_ERR_RULE,
	    "Rule type 8 (activity) not found");
	assert_int_equal(mock.calls, 2);
}

/* Reorder: the order's moves, or one rule and its index. */
static void
test_reorder(void **state)
{
	(void)state;
	apitest_param("order", "[{\"id\":5,\"index\":2},"
	    "{\"id\":6,\"index\":1}]");
	apitest_fails(api_smart_lists_reorder, NULL, -API_ERR_NO_DATA,
	    READ_BACK);
	assert_int_equal(mock.op, SL_OP_REORDER);
	assert_int_equal(mock.ch.nmoves, 2);
	assert_int_equal(mock.move_ids[0], 5);
	assert_int_equal(mock.move_index[0], 2);
	assert_int_equal(mock.move_ids[1], 6);
	assert_int_equal(mock.move_index[1], 1);
	apitest_again();
	apitest_param("ruleId", "6");
	apitest_param("index", "3");
	apitest_fails(api_smart_lists_reorder, NULL, -API_ERR_NO_DATA,
	    READ_BACK);
	assert_int_equal(mock.ch.nmoves, 1);
	assert_int_equal(mock.move_ids[0], 6);
	assert_int_equal(mock.move_index[0], 3);
	apitest_again();
	apitest_fails(api_smart_lists_reorder, NULL, -API_ERR_MISSING_PARAM,
	    "Missing value for the required parameter 'order'");
	apitest_again();
	apitest_param("order", "[{\"id\":5}]");
	apitest_fails(api_smart_lists_reorder, NULL, -API_ERR_INVALID_VALUE,
	    NULL);
	assert_int_equal(mock.calls, 2);
}

/* Filter Logic: the match type; custom needs its logic. */
static void
test_filter_logic(void **state)
{
	(void)state;
	apitest_param("matchType", "custom");
	apitest_param("customRuleLogic", "1 and (2 or 3)");
	apitest_fails(api_smart_lists_filter_logic, NULL, -API_ERR_NO_DATA,
	    READ_BACK);
	assert_int_equal(mock.op, SL_OP_LOGIC);
	assert_string_equal(mock.ch.match_type, "custom");
	assert_string_equal(mock.ch.logic, "1 and (2 or 3)");
	apitest_again();
	apitest_param("matchType", "any");
	apitest_param("customRuleLogic", "1 or 2");
	apitest_fails(api_smart_lists_filter_logic, NULL, -API_ERR_NO_DATA,
	    READ_BACK);
	assert_string_equal(mock.ch.match_type, "any");
	assert_null(mock.ch.logic);
	apitest_again();
	apitest_param("matchType", "custom");
	apitest_fails(api_smart_lists_filter_logic, NULL,
	    -API_ERR_MISSING_PARAM, "Missing value for the required "
	    "parameter 'customRuleLogic'");
	assert_int_equal(mock.calls, 2);
}

/* Update Rule: the condition's values as a JSON array, its operator. */
static void
test_update_rule(void **state)
{
	(void)state;
	apitest_param("attributeId", "{\"id\":7,\"type\":\"activity\"}");
	apitest_param("values", "Gold,\"A, B\"");
	apitest_param("operator", "not in");
	apitest_fails(api_smart_lists_update_rule, NULL, -API_ERR_NO_DATA,
	    READ_BACK);
	assert_int_equal(mock.op, SL_OP_SET_COND);
	assert_int_equal(mock.rule_id, 3);
	assert_int_equal(mock.ch.attribute_id, 7);
	assert_string_equal(mock.ch.cond_op, "not in");
	assert_string_equal(mock.values, "[\"Gold\",\"A, B\"]");
	apitest_again();
	apitest_param("attributeId", "{\"id\":7,\"type\":\"activity\"}");
	apitest_fails(api_smart_lists_remove_constraint, NULL,
	    -API_ERR_NO_DATA, READ_BACK);
	assert_int_equal(mock.op, SL_OP_REMOVE_COND);
	assert_int_equal(mock.ch.attribute_id, 7);
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
		cmocka_unit_test_setup_teardown(test_add_rule, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_reorder, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_filter_logic, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_update_rule, setup,
		    apitest_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
