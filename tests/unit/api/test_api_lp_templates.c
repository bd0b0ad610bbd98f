/*
 * Landing page template handlers (src/api/api_lp_templates.c) over a
 * mocked repository: the four version changes one handler serves through
 * the route's variant (the op it hands the store, the check only approve
 * runs, the answer each gives) and the errors a change answers (702 with
 * the template's id, 709 with the store's reason, the store's code);
 * Update Content (the draft's new content as an edit, its refusals) and
 * Create's refusals (a name taken, a folder there is not or deleted
 * while it ran).
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
#include "model/asset.h"
#include "repo/repo.h"
#include "model/folder.h"
#include "repo/repo_lp_templates.h"

#include "apitest.h"

/* What the mocked store was asked and answers. */
static struct {
	int			 calls;
	int32_t			 id;
	enum asset_op		 op;
	bool			 checked;	/* given a check */
	int			 err;
	const char		*msg;		/* its reason */
	int			 get_calls;
	enum asset_status	 want;		/* read back */
	size_t			 content_len;	/* of an edit */
	int			 insert_err;
} mock;

int	__wrap_repo_lpt_change(struct db *db, int32_t id, enum asset_op op,
	    const char *content, size_t len, repo_lpt_check_fn check,
	    char *msg);
int	__wrap_repo_lpt_get(struct db *db, struct arena *a, int32_t id,
	    enum asset_status want, bool with_content, struct repo_lpt *out);
int	__wrap_repo_lpt_insert(struct db *db, const struct repo_lpt_new *t,
	    int32_t *id);

int
__wrap_repo_lpt_insert(struct db *db, const struct repo_lpt_new *t,
    int32_t *id)
{
	(void)db;
	(void)t;
	mock.calls++;
	*id = 0;
	return mock.insert_err;
}

int
__wrap_repo_lpt_change(struct db *db, int32_t id, enum asset_op op,
    const char *content, size_t len, repo_lpt_check_fn check, char *msg)
{
	(void)db;
	(void)content;
	mock.calls++;
	mock.id = id;
	mock.op = op;
	mock.checked = check != NULL;
	mock.content_len = len;
	msg[0] = '\0';
	if (mock.msg != NULL)
		memcpy(msg, mock.msg, strlen(mock.msg) + 1);
	return mock.err;
}

/* The read back of approve and unapprove: not found, to end there. */
int
__wrap_repo_lpt_get(struct db *db, struct arena *a, int32_t id,
    enum asset_status want, bool with_content, struct repo_lpt *out)
{
	(void)db;
	(void)a;
	(void)id;
	(void)with_content;
	(void)out;
	mock.get_calls++;
	mock.want = want;
	return -REPO_ERR_NOT_FOUND;
}

static int
setup(void **state)
{
	memset(&mock, 0, sizeof(mock));
	apitest_setup(state);
	apitest_place.kind = FK_LP_TEMPLATE;
	apitest_req.path_ints[0] = 5;
	return 0;
}

/* Discard and delete answer the id; only approve gives a check. */
static void
test_discard_and_delete_answer_the_id(void **state)
{
	static const enum asset_op ops[] = { ASSET_DISCARD, ASSET_DELETE };
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		apitest_again();
		apitest_variant(ops[i]);
		assert_int_equal(apitest_run(api_lp_templates_change), 0);
		assert_int_equal(mock.op, ops[i]);
		assert_int_equal(mock.id, 5);
		assert_false(mock.checked);
		assert_string_equal(apitest_result(), "[{\"id\":5}]");
	}
	assert_int_equal(mock.get_calls, 0);
}

/* Approve and unapprove read the template back, as the version they made. */
static void
test_approve_and_unapprove_answer_the_template(void **state)
{
	static const struct {
		enum asset_op		 op;
		bool			 checked;
		enum asset_status	 want;
	} t[] = {
		{ ASSET_APPROVE, true, ASSET_ST_APPROVED },
		{ ASSET_UNAPPROVE, false, ASSET_ST_ANY },
	};
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		apitest_variant(t[i].op);
		apitest_fails(api_lp_templates_change, NULL, -API_ERR_NO_DATA,
		    "5 Landing page template not found");
		assert_int_equal(mock.op, t[i].op);
		assert_int_equal(mock.checked, t[i].checked);
		assert_int_equal(mock.get_calls, (int)i + 1);
		assert_int_equal(mock.want, t[i].want);
	}
}

/* The change-error mapper: 702, 709 with the reason, else the code. */
static void
test_change_errors(void **state)
{
	(void)state;
	apitest_variant(ASSET_DELETE);
	mock.err = -REPO_ERR_NOT_FOUND;
	apitest_fails(api_lp_templates_change, NULL, -API_ERR_NO_DATA,
	    "5 Landing page template not found");
	mock.err = -REPO_ERR_INVALID;
	mock.msg = "Cannot delete an approved template";
	apitest_fails(api_lp_templates_change, NULL, -API_ERR_RULE,
	    "Cannot delete an approved template");
	mock.err = -REPO_ERR_CONFLICT;
	mock.msg = NULL;
	assert_int_equal(apitest_run(api_lp_templates_change),
	    err_from_repo(-REPO_ERR_CONFLICT));
	assert_int_equal(mock.get_calls, 0);
}

/* Update Content: the draft's new content, an edit; its refusals. */
static void
test_content_update(void **state)
{
	(void)state;
	apitest_param("content", "<html><body>x</body></html>");
	assert_int_equal(apitest_run(api_lp_templates_content_update), 0);
	assert_string_equal(apitest_result(), "[{\"id\":5}]");
	assert_int_equal(mock.op, ASSET_EDIT);
	assert_false(mock.checked);
	assert_int_equal(mock.content_len, strlen("<html><body>x</body>"
	    "</html>"));
	apitest_again();
	apitest_fails(api_lp_templates_content_update, NULL,
	    -API_ERR_MISSING_PARAM, "Missing value for the required "
	    "parameter 'content'");
	apitest_again();
	apitest_param("content", "<p>y</p>");
	mock.err = -REPO_ERR_INVALID;
	mock.msg = "Cannot edit a template being approved";
	apitest_fails(api_lp_templates_content_update, NULL, -API_ERR_RULE,
	    "Cannot edit a template being approved");
	apitest_again();
	apitest_param("content", "<p>y</p>");
	mock.err = -REPO_ERR_NOT_FOUND;
	mock.msg = NULL;
	apitest_fails(api_lp_templates_content_update, NULL, -API_ERR_NO_DATA,
	    "5 Landing page template not found");
	assert_int_equal(mock.calls, 3);
}

/* Create: a name taken anywhere (709); a folder there is not (710). */
static void
test_create_refusals(void **state)
{
	(void)state;
	apitest_param("name", "Home");
	apitest_param("folder", "{\"id\":4,\"type\":\"Folder\"}");
	mock.insert_err = -REPO_ERR_CONFLICT;
	apitest_fails(api_lp_templates_create, NULL, -API_ERR_RULE,
	    "Landing page template name 'Home' is already in use");
	/* The folder was there for the check, gone at the insert. */
	apitest_again();
	apitest_param("name", "Home");
	apitest_param("folder", "{\"id\":4,\"type\":\"Folder\"}");
	mock.insert_err = -REPO_ERR_GONE;
	apitest_place.calls = 0;
	apitest_place.err = -REPO_ERR_NOT_FOUND;
	apitest_place.err_from = 2;
	apitest_fails(api_lp_templates_create, NULL, -API_ERR_NO_PARENT,
	    NULL);
	assert_int_equal(apitest_place.calls, 2);
	apitest_place.err_from = 0;
	apitest_again();
	apitest_param("name", "Home");
	apitest_param("folder", "{\"id\":4,\"type\":\"Folder\"}");
	apitest_place.err = -REPO_ERR_NOT_FOUND;
	apitest_fails(api_lp_templates_create, NULL, -API_ERR_NO_PARENT,
	    NULL);
	assert_int_equal(mock.calls, 2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
		    test_discard_and_delete_answer_the_id, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(
		    test_approve_and_unapprove_answer_the_template, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_change_errors, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_content_update, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_create_refusals, setup,
		    apitest_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
