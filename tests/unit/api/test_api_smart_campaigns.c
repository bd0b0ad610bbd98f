/*
 * The activation handlers of api_smart_campaigns.c without a database.
 * The repository's activation and deactivation are mocked at link time
 * (-Wl,--wrap, see Makefile.am): the activation mock checks a canned
 * snapshot with model/campaign.c as repo_sc_activate does in its
 * transaction, so each rule's refusal reaches the handler as it does
 * from the store; the tests assert the 709 each is worded as (byte for
 * byte as tests/http/cases/555-smartcampaign-activate.case), the echo of
 * a client's value, the answers of a campaign that is not there, and
 * what reaches the repository.  The flow changes that take no values
 * (Add Flow Step, Remove Step, Add and Remove Choice, Reorder Choice)
 * are checked for the change they hand the mocked store; its read back
 * finds none, which ends them with 702.
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
#include "model/campaign.h"
#include "repo/repo.h"
#include "repo/repo_sc_activation.h"
#include "repo/repo_smart_campaigns.h"

#include "apitest.h"

/*
 * The canned campaign 1001: a trigger whose rule has a value, one Send
 * Email step whose default choice sends email 501 (approved), and a
 * Change Program Status step in program 7 (status "Member").
 */
static struct {
	struct smartlist_cond		 cond;
	struct smartlist_rule		 rule;
	struct campaign_attr		 email, status;
	struct campaign_choice		 send, change;
	struct campaign_step		 steps[2];
	struct campaign_ref		 ref;
	struct campaign_status		 st;
	struct campaign_snapshot	 s;
	int				 err;	/* the store's error, if any */
	int				 calls;
	int32_t				 id;	/* the campaign asked for */
} mock;

int	__wrap_repo_sc_activate(struct db *db, struct arena *a, int32_t id,
	    struct campaign_refusal *why);
int	__wrap_repo_sc_deactivate(struct db *db, int32_t id);
int	__wrap_repo_sc_change(struct db *db, int32_t id,
	    struct repo_sc_change *c);
int	__wrap_repo_sc_flow_type(struct db *db, struct arena *a, int32_t id,
	    struct repo_sc_flow_type *out);
int	__wrap_repo_sc_get_with_flow(struct db *db, struct arena *a,
	    int32_t id, const char *name, struct repo_sc *out,
	    struct campaign_step **steps, size_t *n, struct repo_kept *kept);

/* The last flow change handed to the store. */
static struct repo_sc_change change;
static int changes;

int
__wrap_repo_sc_change(struct db *db, int32_t id, struct repo_sc_change *c)
{
	(void)db;
	changes++;
	mock.id = id;
	change = *c;
	c->msg[0] = '\0';
	return mock.err;
}

/* Flow step type 13 (Send Email) is the one there is. */
int
__wrap_repo_sc_flow_type(struct db *db, struct arena *a, int32_t id,
    struct repo_sc_flow_type *out)
{
	(void)db;
	(void)a;
	memset(out, 0, sizeof(*out));
	out->id = id;
	out->name = "Send Email";
	return id == 13 ? 0 : -REPO_ERR_NOT_FOUND;
}

/* The read back after a change: none, which ends the call (702). */
int
__wrap_repo_sc_get_with_flow(struct db *db, struct arena *a, int32_t id,
    const char *name, struct repo_sc *out, struct campaign_step **steps,
    size_t *n, struct repo_kept *kept)
{
	(void)db;
	(void)a;
	(void)id;
	(void)name;
	memset(out, 0, sizeof(*out));
	memset(kept, 0, sizeof(*kept));
	*steps = NULL;
	*n = 0;
	return -REPO_ERR_NOT_FOUND;
}

/* As repo_sc_activate: the rules over what its transaction read. */
int
__wrap_repo_sc_activate(struct db *db, struct arena *a, int32_t id,
    struct campaign_refusal *why)
{
	(void)db;
	(void)a;
	mock.calls++;
	mock.id = id;
	memset(why, 0, sizeof(*why));
	if (mock.err != 0)
		return mock.err;
	if (id != 1001)
		return -REPO_ERR_NOT_FOUND;
	if (!campaign_check_activation(&mock.s, why))
		return -REPO_ERR_INVALID;
	mock.s.active = true;
	return 0;
}

int
__wrap_repo_sc_deactivate(struct db *db, int32_t id)
{
	(void)db;
	mock.calls++;
	mock.id = id;
	if (mock.err != 0)
		return mock.err;
	if (id != 1001)
		return -REPO_ERR_NOT_FOUND;
	if (!mock.s.active)
		return -REPO_ERR_INVALID;
	mock.s.active = false;
	return 0;
}

static int
setup(void **state)
{
	memset(&mock, 0, sizeof(mock));
	mock.cond.primary = true;
	mock.cond.op = "is";
	mock.cond.values_json = "[\"Web Service API\"]";
	mock.rule.name = "Campaign is Requested";
	mock.rule.trigger = true;
	mock.rule.conds = &mock.cond;
	mock.rule.nconds = 1;
	mock.email.name = "Email";
	mock.email.data_type = "email";
	mock.email.required = true;
	mock.email.value = "501";
	mock.status.name = "New Status";
	mock.status.data_type = "status";
	mock.status.required = true;
	mock.status.value = "Member";
	mock.send.is_default = true;
	mock.send.attrs = &mock.email;
	mock.send.nattrs = 1;
	mock.change.is_default = true;
	mock.change.attrs = &mock.status;
	mock.change.nattrs = 1;
	mock.steps[0].type_name = "Send Email";
	mock.steps[0].choices = &mock.send;
	mock.steps[0].nchoices = 1;
	mock.steps[1].position = 1;
	mock.steps[1].type_name = "Change Program Status";
	mock.steps[1].choices = &mock.change;
	mock.steps[1].nchoices = 1;
	mock.ref.data_type = "email";
	mock.ref.value = "501";
	mock.ref.id = 501;
	mock.ref.approved = true;
	mock.st.program_id = 7;
	mock.st.name = "Member";
	mock.st.exists = true;
	mock.s.id = 1001;
	mock.s.place.type = FOLDER_T_PROGRAM;
	mock.s.place.id = 7;
	mock.s.ntriggers = 1;
	mock.s.rules = &mock.rule;
	mock.s.nrules = 1;
	mock.s.steps = mock.steps;
	mock.s.nsteps = 2;
	mock.s.refs = &mock.ref;
	mock.s.nrefs = 1;
	mock.s.statuses = &mock.st;
	mock.s.nstatuses = 1;
	if (apitest_setup(state) != 0)
		return -1;
	apitest_req.path_ints[0] = 1001;
	return 0;
}

/* Activate answers 709 "Cannot activate smart campaign 1001: " why. */
static void
refused(const char *why)
{
	char msg[512];

	(void)snprintf(msg, sizeof(msg), "Cannot activate smart campaign "
	    "1001: %s", why);
	apitest_fails(api_smart_campaigns_activate, NULL, -API_ERR_RULE, msg);
}

static void
test_activate_ok(void **state)
{
	(void)state;
	assert_int_equal(apitest_run(api_smart_campaigns_activate), 0);
	assert_string_equal(apitest_result(), "[{\"id\":1001}]");
	assert_int_equal(mock.id, 1001);
	assert_true(mock.s.active);
	/* Then again: already active, and one call per request. */
	refused("it is already active");
	assert_int_equal(mock.calls, 2);
}

static void
test_activate_campaign_rules(void **state)
{
	(void)state;
	mock.s.ntriggers = 0;
	refused("its smart list has no trigger (only trigger campaigns are "
	    "activated)");
	mock.s.ntriggers = 1;
	mock.cond.values_json = "[]";
	refused("smart list rule 1 'Campaign is Requested' has no value");
	mock.rule.name = NULL;
	refused("smart list rule 1 '' has no value");
	mock.cond.values_json = "[\"x\"]";
	mock.s.filter_refusal = "Filter 2 'Visited Web Page' cannot be "
	    "evaluated: mauto records no web page visits";
	refused("Filter 2 'Visited Web Page' cannot be evaluated: mauto "
	    "records no web page visits");
	mock.s.filter_refusal = NULL;
	mock.s.nsteps = 0;
	refused("its flow has no step");
}

static void
test_activate_flow_rules(void **state)
{
	(void)state;
	mock.send.is_default = false;
	refused("flow step 1 'Send Email': choice 1 has no condition");
	mock.send.is_default = true;
	mock.email.value = NULL;
	refused("flow step 1 'Send Email' has no 'Email'");
	mock.email.value = "em555-nowhere";
	refused("flow step 1 'Send Email': email 'em555-nowhere' not found");
	mock.email.value = "501";
	mock.ref.approved = false;
	refused("flow step 1 'Send Email': email 501 is not approved");
	mock.ref.approved = true;
	mock.st.exists = false;
	refused("flow step 2 'Change Program Status': program 7 has no status "
	    "'Member'");
	mock.s.place.type = FOLDER_T_FOLDER;
	refused("flow step 2 'Change Program Status' has no program");
}

/* A client's value is quoted by the echo policy: control bytes masked. */
static void
test_activate_echo(void **state)
{
	(void)state;
	mock.email.value = "a\x01" "b";
	refused("flow step 1 'Send Email': email 'a?b' not found");
	mock.email.value = "Member";
	mock.status.value = "Mem\nber";
	mock.ref.value = "Member";
	refused("flow step 2 'Change Program Status': program 7 has no status "
	    "'Mem?ber'");
}

static void
test_not_found_and_errors(void **state)
{
	(void)state;
	apitest_req.path_ints[0] = 1002;
	apitest_fails(api_smart_campaigns_activate, NULL, -API_ERR_NO_DATA,
	    "1002 Smart campaign not found");
	apitest_fails(api_smart_campaigns_deactivate, NULL, -API_ERR_NO_DATA,
	    "1002 Smart campaign not found");
	assert_int_equal(mock.calls, 2);
	/* An id out of range reaches no store. */
	apitest_req.path_ints[0] = (int64_t)INT32_MAX + 1;
	apitest_fails(api_smart_campaigns_activate, NULL, -API_ERR_NO_DATA,
	    NULL);
	assert_int_equal(mock.calls, 2);
	/* The store's own failure is its API error. */
	apitest_req.path_ints[0] = 1001;
	mock.err = -REPO_ERR_INTERNAL;
	apitest_fails(api_smart_campaigns_activate, NULL,
	    err_from_repo(-REPO_ERR_INTERNAL), NULL);
	apitest_fails(api_smart_campaigns_deactivate, NULL,
	    err_from_repo(-REPO_ERR_INTERNAL), NULL);
}

static void
test_deactivate(void **state)
{
	(void)state;
	apitest_fails(api_smart_campaigns_deactivate, NULL, -API_ERR_RULE,
	    "Cannot deactivate smart campaign 1001: it is not active");
	mock.s.active = true;
	apitest_again();
	assert_int_equal(apitest_run(api_smart_campaigns_deactivate), 0);
	assert_string_equal(apitest_result(), "[{\"id\":1001}]");
	assert_false(mock.s.active);
}

/* 702 for the campaign a flow change reads back. */
#define READ_BACK	"1001 Smart campaign not found"

/* Add Flow Step: the type (checked) and index; a type there is not. */
static void
test_add_step(void **state)
{
	(void)state;
	changes = 0;
	apitest_param("activityType", "{\"id\":13,\"type\":\"activity\"}");
	apitest_param("index", "2");
	apitest_fails(api_smart_campaigns_add_step, NULL, -API_ERR_NO_DATA,
	    READ_BACK);
	assert_int_equal(change.op, SC_OP_ADD_STEP);
	assert_int_equal(change.type_id, 13);
	assert_int_equal(change.index, 2);
	assert_int_equal(mock.id, 1001);
	apitest_again();
	apitest_param("activityType", "{\"id\":14,\"type\":\"activity\"}");
	apitest_param("index", "0");
	apitest_fails(api_smart_campaigns_add_step, NULL, -API_ERR_RULE,
	    "Flow step type 14 not found");
	apitest_again();
	apitest_param("activityType", "{\"id\":13,\"type\":\"attribute\"}");
	apitest_param("index", "0");
	apitest_fails(api_smart_campaigns_add_step, NULL,
	    -API_ERR_INVALID_VALUE, NULL);
	assert_int_equal(changes, 1);
}

/*
 * The path's changes, the route's variant saying which, on the path's
 * step and choice; Reorder Choice's index, capped at SC_MAX_CHOICES.
 */
static void
test_path_changes(void **state)
{
	static const enum repo_sc_op ops[] = { SC_OP_REMOVE_STEP,
	    SC_OP_ADD_CHOICE, SC_OP_REMOVE_CHOICE };
	size_t i;

	(void)state;
	apitest_req.path_ints[1] = 40;
	apitest_req.path_ints[2] = 41;
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		apitest_req.npath_params = ops[i] == SC_OP_REMOVE_CHOICE ? 3 :
		    2;
		apitest_variant(ops[i]);
		apitest_fails(api_smart_campaigns_path_change, NULL,
		    -API_ERR_NO_DATA, READ_BACK);
		assert_int_equal(change.op, ops[i]);
		assert_int_equal(change.step_id, 40);
		assert_int_equal(change.choice_id,
		    ops[i] == SC_OP_REMOVE_CHOICE ? 41 : 0);
	}
	apitest_req.npath_params = 3;
	apitest_param("newSeqNumZeroBased", "1000");
	apitest_fails(api_smart_campaigns_reorder_choice, NULL,
	    -API_ERR_NO_DATA, READ_BACK);
	assert_int_equal(change.op, SC_OP_MOVE_CHOICE);
	assert_int_equal(change.choice_id, 41);
	assert_int_equal(change.index, SC_MAX_CHOICES);
	/* The store's answer: 702 with the campaign's id. */
	mock.err = -REPO_ERR_NOT_FOUND;
	apitest_variant(SC_OP_REMOVE_STEP);
	apitest_fails(api_smart_campaigns_path_change, NULL,
	    -API_ERR_NO_DATA, READ_BACK);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_activate_ok, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_activate_campaign_rules,
		    setup, apitest_teardown),
		cmocka_unit_test_setup_teardown(test_activate_flow_rules, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_activate_echo, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_not_found_and_errors,
		    setup, apitest_teardown),
		cmocka_unit_test_setup_teardown(test_add_step, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_path_changes, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_deactivate, setup,
		    apitest_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
