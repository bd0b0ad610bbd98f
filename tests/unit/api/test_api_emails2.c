/*
 * Emails v2 handlers (src/api/api_emails2.c): the answers given before
 * the store is asked, through the shared JSON member readers: the
 * x-app-type header, the object body, assetIds, assetId, pageIndex and
 * pageSize, and names counted in characters; then, over a mocked store
 * (Makefile.am), the state transitions (the op each hands the store, the
 * check only approve runs, create_draft's edit that changes nothing) and
 * an Update's edit of the draft (headers, HTML, the text dropped, the
 * template's content, an email linked to a template).
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
#include "model/asset.h"
#include "model/email.h"
#include "repo/repo.h"
#include "repo/repo_emails.h"

#include "apitest.h"

#define EMAIL_ID	11

/* What the mocked store holds, was asked and answers. */
static struct {
	int32_t			 template_id;	/* the email's; 0: none */
	bool			 has_draft;
	int			 gets;
	int			 changes;
	enum asset_op		 op;
	bool			 checked;	/* given a check */
	int			 change_err;
	int			 edits;		/* fn run on the draft */
	struct repo_email_draft	 draft;		/* what fn made of it */
	int32_t			 new_template;	/* the update's m */
} store;

int	__wrap_repo_email_get(struct db *, struct arena *, int32_t,
	    enum asset_status, bool, struct repo_email *);
int	__wrap_repo_email_change(struct db *, int32_t, enum asset_op,
	    repo_email_check_fn, char *);
int	__wrap_repo_email_edit(struct db *, int32_t, repo_email_edit_fn,
	    void *, char *);
int	__wrap_repo_email_update(struct db *, int32_t,
	    const struct repo_email_meta *, int32_t, repo_email_edit_fn,
	    void *, char *);

/*
 * Email EMAIL_ID for the first read (the handler's load); the read back
 * after a change finds none, to end the call there (702).
 */
int
__wrap_repo_email_get(struct db *db, struct arena *a, int32_t id,
    enum asset_status want, bool with_content, struct repo_email *out)
{
	(void)db;
	(void)a;
	(void)want;
	(void)with_content;
	memset(out, 0, sizeof(*out));
	if (id != EMAIL_ID || store.gets++ > 0)
		return -REPO_ERR_NOT_FOUND;
	out->id = id;
	out->name = "Welcome";
	out->template_id = store.template_id;
	out->status = ASSET_ST_DRAFT;
	out->v.has_draft = store.has_draft;
	return 0;
}

int
__wrap_repo_email_change(struct db *db, int32_t id, enum asset_op op,
    repo_email_check_fn check, char *msg)
{
	(void)db;
	(void)id;
	store.changes++;
	store.op = op;
	store.checked = check != NULL;
	(void)snprintf(msg, REPO_EMAIL_MSG_BYTES, "%s", store.change_err ==
	    -REPO_ERR_INVALID ? "Email 11 is in use" : "");
	return store.change_err;
}

/*
 * Runs fn on a draft with a subject, open tracking off and content of
 * its own (HTML and text), and keeps what it made.
 */
static int
run_edit(repo_email_edit_fn fn, void *arg, char *msg)
{
	memset(&store.draft, 0, sizeof(store.draft));
	store.draft.hdr[EMAIL_HDR_SUBJECT].type = "Text";
	store.draft.hdr[EMAIL_HDR_SUBJECT].value = "Old";
	store.draft.open_tracking_disabled = true;
	store.draft.content = "{\"html\":\"<p>old</p>\",\"text\":\"own\"}";
	store.draft.content_len = strlen(store.draft.content);
	store.edits++;
	return fn(arg, &store.draft, msg) == 0 ? 0 : -REPO_ERR_INVALID;
}

int
__wrap_repo_email_edit(struct db *db, int32_t id, repo_email_edit_fn fn,
    void *arg, char *msg)
{
	(void)db;
	(void)id;
	return run_edit(fn, arg, msg);
}

int
__wrap_repo_email_update(struct db *db, int32_t id,
    const struct repo_email_meta *m, int32_t old_template_id,
    repo_email_edit_fn fn, void *arg, char *msg)
{
	(void)db;
	(void)id;
	(void)old_template_id;
	store.new_template = m->template_id;
	return fn != NULL ? run_edit(fn, arg, msg) : 0;
}

static int
setup(void **state)
{
	memset(&store, 0, sizeof(store));
	apitest_setup(state);
	apitest_req.app_type = "marketo";
	apitest_req.path_params[0] = "11";
	apitest_req.npath_params = 1;
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

/* A state transition's body for email 11. */
static const char *
transition(const char *action)
{
	static char body[128];

	(void)snprintf(body, sizeof(body), "{\"contentId\":\"11\","
	    "\"action\":\"%s\"}", action);
	return body;
}

/*
 * approve, unapprove, discard: the op each hands the store (only
 * approve with the header check); the read back ends the call here.
 */
static void
test_state_changes(void **state)
{
	static const struct {
		const char	*action;
		enum asset_op	 op;
	} t[] = {
		{ "approve", ASSET_APPROVE },
		{ "unapprove", ASSET_UNAPPROVE },
		{ "discard", ASSET_DISCARD },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		store.gets = 0;
		apitest_fails(api_emails2_state, transition(t[i].action),
		    -API_ERR_NO_DATA, "11 Email not found");
		assert_int_equal(store.op, t[i].op);
		assert_int_equal(store.checked, t[i].op == ASSET_APPROVE);
	}
	assert_int_equal(store.changes, 3);
	assert_int_equal(store.edits, 0);
	/* The store's refusal, its reason; an action there is not. */
	store.gets = 0;
	store.change_err = -REPO_ERR_INVALID;
	apitest_fails(api_emails2_state, transition("unapprove"),
	    -API_ERR_RULE, "Email 11 is in use");
	apitest_fails(api_emails2_state, transition("send"),
	    -API_ERR_INVALID_VALUE, "Invalid value 'send'. Required of type "
	    "'action' (approve, unapprove, discard, create_draft)");
}

/* create_draft: an edit that changes nothing, or 709 with a draft. */
static void
test_state_create_draft(void **state)
{
	(void)state;
	apitest_fails(api_emails2_state, transition("create_draft"),
	    -API_ERR_NO_DATA, "11 Email not found");
	assert_int_equal(store.edits, 1);
	assert_int_equal(store.changes, 0);
	assert_string_equal(store.draft.hdr[EMAIL_HDR_SUBJECT].value, "Old");
	assert_true(store.draft.open_tracking_disabled);
	assert_string_equal(store.draft.content,
	    "{\"html\":\"<p>old</p>\",\"text\":\"own\"}");
	store.gets = 0;
	store.has_draft = true;
	apitest_fails(api_emails2_state, transition("create_draft"),
	    -API_ERR_RULE, "Email 11 already has a draft");
	assert_int_equal(store.edits, 1);
}

/* The draft's content document member key as text, "" when none. */
static const char *
draft_member(const char *key)
{
	static char text[256];
	struct json_object *doc, *v;

	doc = email_doc_parse(store.draft.content, store.draft.content_len);
	assert_non_null(doc);
	text[0] = '\0';
	if (json_object_object_get_ex(doc, key, &v) && v != NULL)
		(void)snprintf(text, sizeof(text), "%s",
		    json_object_get_string(v));
	json_object_put(doc);
	return text;
}

/*
 * An Update's edit of the draft: the headers it names, the HTML, the
 * text dropped to follow it; open tracking kept.
 */
static void
test_update_draft(void **state)
{
	(void)state;
	apitest_fails(api_emails2_update, "{\"headers\":{\"subject\":"
	    "\"New\"},\"data\":{\"html\":{\"body\":\"<p>new</p>\"},"
	    "\"text\":{\"syncFromHtml\":true}}}", -API_ERR_NO_DATA,
	    "11 Email not found");
	assert_int_equal(store.edits, 1);
	assert_string_equal(store.draft.hdr[EMAIL_HDR_SUBJECT].type, "Text");
	assert_string_equal(store.draft.hdr[EMAIL_HDR_SUBJECT].value, "New");
	assert_true(store.draft.open_tracking_disabled);
	assert_string_equal(draft_member("html"), "<p>new</p>");
	assert_string_equal(draft_member("text"), "");
}

/*
 * An email linked to a template: its HTML is refused, a header changes
 * and the content stays; a templateId makes the content the template's.
 */
static void
test_update_linked(void **state)
{
	(void)state;
	store.template_id = 4;
	apitest_fails(api_emails2_update, "{\"data\":{\"html\":{\"body\":"
	    "\"<p>x</p>\"}}}", -API_ERR_RULE, "Cannot update the HTML of an "
	    "email linked to a template");
	assert_int_equal(store.edits, 0);
	store.gets = 0;
	apitest_fails(api_emails2_update, "{\"headers\":{\"fromName\":"
	    "\"Ann\"},\"data\":{\"text\":{\"body\":\"t\"}}}",
	    -API_ERR_NO_DATA, "11 Email not found");
	assert_int_equal(store.edits, 1);
	assert_string_equal(store.draft.hdr[EMAIL_HDR_FROM_NAME].value, "Ann");
	assert_string_equal(draft_member("text"), "own");
	store.gets = 0;
	apitest_fails(api_emails2_update, "{\"templateId\":5}",
	    -API_ERR_NO_DATA, "11 Email not found");
	assert_int_equal(store.new_template, APITEST_TEMPLATE_ID);
	assert_int_equal(store.draft.content_len, 0);
	assert_string_equal(store.draft.content, "");
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
		cmocka_unit_test_setup_teardown(test_state_changes, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_state_create_draft, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_update_draft, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_update_linked, setup,
		    apitest_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
