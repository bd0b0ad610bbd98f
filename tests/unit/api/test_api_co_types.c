/*
 * The handlers of api_co_types.c without a database.  The type
 * repository is mocked at link time (-Wl,--wrap, see Makefile.am) over a
 * canned catalogue of three types: car_c (approved, with a lead link),
 * pet_c (a draft never approved) and shop_c (approved with a draft).  The
 * edit mock runs the handler's edit function on the draft as
 * repo_co_types_edit does, so the rules of model/cotype.c apply; the
 * tests assert the type JSON, request-level errors and messages, and
 * what reaches the repository.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "api/api.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "model/cotype.h"
#include "repo/repo.h"
#include "repo/repo_co_types.h"
#include "repo/repo_smart_lists.h"
#include "util/xmalloc.h"

#include "apitest.h"

/* ---- the canned catalogue ---- */

static const struct {
	const char	*name, *display, *state;
	bool		 approved, has_draft;
} types[] = {
	{ "car_c", "Car", "approved", true, false },
	{ "pet_c", "Pet", "draft", false, true },
	{ "shop_c", "Shop", "approvedWithDraft", true, true },
};
#define NTYPES	(sizeof(types) / sizeof(types[0]))

/* What the tests change in the catalogue. */
static struct {
	bool		 no_dedupe;	/* drafts have no dedupe field */
} world;

/*
 * Type name (no case) in version ver into out, as repo_co_types_read
 * answers.
 */
static int
canned(const char *name, enum co_ver ver, struct co_type *out)
{
	size_t i;
	bool draft;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < NTYPES; i++)
		if (strcasecmp(types[i].name, name) == 0)
			break;
	if (i == NTYPES)
		return -REPO_ERR_NOT_FOUND;
	switch (ver) {
	case CO_VER_APPROVED:
		if (!types[i].approved)
			return -REPO_ERR_NOT_FOUND;
		draft = false;
		break;
	case CO_VER_DRAFT:
		if (!types[i].has_draft)
			return -REPO_ERR_NOT_FOUND;
		draft = true;
		break;
	case CO_VER_LATEST:
		draft = types[i].has_draft;
		break;
	default:
		draft = !types[i].approved;
		break;
	}
	out->id = (int64_t)i + 1;
	out->api_name = xstrdup(types[i].name);
	out->display_name = xstrdup(types[i].display);
	out->plural_name = xstrdup("Plural");
	out->state = xstrdup(types[i].state);
	out->approved = types[i].approved;
	out->has_draft = types[i].has_draft;
	out->is_draft = draft;
	out->show_in_lead_detail = i == 0;
	out->created_at = 1700000000;
	out->updated_at = 1700003600;
	switch (i) {
	case 0:
		apitest_co_field(out, "vin", CO_STRING, true);
		apitest_co_field(out, "color", CO_STRING, false);
		out->fields[1].description = xstrdup("Paint");
		apitest_co_field(out, "owner", CO_LINK, false);
		break;
	case 1:
		apitest_co_field(out, "tag", CO_STRING, !world.no_dedupe);
		apitest_co_field(out, "nick", CO_STRING, false);
		break;
	default:
		apitest_co_field(out, "code", CO_INTEGER,
		    !(draft && world.no_dedupe));
		if (draft)
			apitest_co_field(out, "city", CO_STRING, false);
		break;
	}
	return 0;
}

/* ---- mocks ---- */

int	__wrap_repo_co_types_list(struct db *, char ***, size_t *);
int	__wrap_repo_co_types_read(struct db *, const char *, enum co_ver,
	    struct co_type *);
int	__wrap_repo_co_types_get(struct db *, const char *, bool,
	    struct co_type *);
int	__wrap_repo_co_types_edit(struct db *, const char *,
	    struct co_edit *);
int	__wrap_repo_co_types_approve(struct db *, const char *,
	    int (*)(const struct co_type *, const struct co_type *, char *),
	    int *, char *);
int	__wrap_repo_co_types_discard(struct db *, const char *);
int	__wrap_repo_co_types_delete(struct db *, const char *, char *);
int	__wrap_repo_sl_co_uses(struct db *, struct arena *, int32_t, bool,
	    struct repo_sl_co_use **, size_t *);

static struct {
	int		 list_err;
	int		 read_err;	/* answered by read instead */
	enum co_ver	 vers[8];	/* versions read, in order */
	size_t		 nreads;
	/* edit */
	int		 edits;
	size_t		 ntypes;	/* types there are */
	const char	*display_taken;
	int		 edit_rr;	/* after fn accepted */
	bool		 is_new, may_create;
	struct co_type	 result;	/* the draft fn left */
} mock;

int
__wrap_repo_co_types_list(struct db *db, char ***names, size_t *n)
{
	size_t i;

	(void)db;
	*names = NULL;
	*n = 0;
	if (mock.list_err != 0)
		return mock.list_err;
	*names = xcalloc(NTYPES, sizeof(**names));
	for (i = 0; i < NTYPES; i++)
		(*names)[i] = xstrdup(types[i].name);
	*n = NTYPES;
	return 0;
}

int
__wrap_repo_co_types_read(struct db *db, const char *api_name,
    enum co_ver ver, struct co_type *out)
{
	(void)db;
	if (mock.nreads < 8)
		mock.vers[mock.nreads] = ver;
	mock.nreads++;
	if (mock.read_err != 0) {
		memset(out, 0, sizeof(*out));
		return mock.read_err;
	}
	return canned(api_name, ver, out);
}

int
__wrap_repo_co_types_get(struct db *db, const char *api_name, bool approved,
    struct co_type *out)
{
	(void)db;
	return canned(api_name, approved ? CO_VER_APPROVED : CO_VER_LATEST,
	    out);
}

int
__wrap_repo_co_types_edit(struct db *db, const char *api_name,
    struct co_edit *e)
{
	struct co_type d, a;
	int rc, rr;

	(void)db;
	mock.edits++;
	mock.may_create = e->may_create;
	memset(&a, 0, sizeof(a));
	rr = canned(api_name, CO_VER_LATEST, &d);
	if (rr == -REPO_ERR_NOT_FOUND) {
		if (!e->may_create)
			return rr;
		e->is_new = true;
		d.api_name = xstrdup(api_name);
		d.state = xstrdup("draft");
	} else {
		e->had_draft = d.has_draft;
		d.is_draft = true;
		(void)canned(api_name, CO_VER_APPROVED, &a);
	}
	mock.is_new = e->is_new;
	e->ntypes = mock.ntypes;
	if ((rc = e->fn(e, &d, a.api_name != NULL ? &a : NULL)) != 0) {
		e->err = rc;
		rr = -REPO_ERR_INVALID;
	} else if (mock.display_taken != NULL) {
		snprintf(e->display_taken, sizeof(e->display_taken), "%s",
		    mock.display_taken);
		rr = -REPO_ERR_CONFLICT;
	} else {
		co_type_clear(&mock.result);
		mock.result = d;
		memset(&d, 0, sizeof(d));
		rr = mock.edit_rr;
	}
	co_type_clear(&d);
	co_type_clear(&a);
	return rr;
}

int
__wrap_repo_co_types_approve(struct db *db, const char *api_name,
    int (*check)(const struct co_type *, const struct co_type *, char *),
    int *err, char *msg)
{
	struct co_type d, a;
	int rr;

	(void)db;
	check_expected(api_name);
	if ((rr = mock_type(int)) != 0) {
		snprintf(msg, 256, "Custom object type '%s' has no draft",
		    api_name);
		return rr;
	}
	(void)canned(api_name, CO_VER_DRAFT, &d);
	(void)canned(api_name, CO_VER_APPROVED, &a);
	if ((*err = check(&d, a.api_name != NULL ? &a : NULL, msg)) != 0)
		rr = -REPO_ERR_INVALID;
	co_type_clear(&d);
	co_type_clear(&a);
	return rr;
}

int
__wrap_repo_co_types_discard(struct db *db, const char *api_name)
{
	(void)db;
	check_expected(api_name);
	return mock_type(int);
}

int
__wrap_repo_co_types_delete(struct db *db, const char *api_name, char *msg)
{
	int rr;

	(void)db;
	check_expected(api_name);
	if ((rr = mock_type(int)) == -REPO_ERR_INVALID)
		snprintf(msg, 256, "Custom object type '%s' is linked from "
		    "'x_c'", api_name);
	return rr;
}

/* car_c's id in the canned catalogue. */
#define CAR_ID	1

/* The uses of car_c: a campaign's list reading two fields
 * (one twice), a list in a folder with a rule and no condition. */
static struct repo_sl_co_use uses[] = {
	{ .list_id = 40, .campaign_id = 1001, .name = "HasCar",
	  .program = "CarTest", .field = "color" },
	{ .list_id = 40, .campaign_id = 1001, .name = "HasCar",
	  .program = "CarTest", .field = "vin" },
	{ .list_id = 40, .campaign_id = 1001, .name = "HasCar",
	  .program = "CarTest", .field = "vin" },
	{ .list_id = 41, .name = "Car owners" },
};

int
__wrap_repo_sl_co_uses(struct db *db, struct arena *a, int32_t id,
    bool lock, struct repo_sl_co_use **out, size_t *n)
{
	(void)db;
	(void)a;
	assert_false(lock);
	check_expected(id);
	*out = uses;
	*n = mock_type(size_t);
	return mock_type(int);
}

/* ---- the request ---- */

static struct req *const req = &apitest_req;
static struct resp *const resp = &apitest_resp;

static int
setup(void **state)
{
	memset(&mock, 0, sizeof(mock));
	memset(&world, 0, sizeof(world));
	mock.ntypes = NTYPES;
	return apitest_setup(state);
}

static int
teardown(void **state)
{
	co_type_clear(&mock.result);
	return apitest_teardown(state);
}

/* ---- reads ---- */

static void
test_data_types(void **state)
{
	(void)state;
	assert_int_equal(apitest_run(api_co_types_data_types), 0);
	assert_string_equal(apitest_result(), "[\"string\",\"boolean\","
	    "\"integer\",\"float\",\"link\",\"email\",\"currency\",\"date\","
	    "\"datetime\",\"phone\",\"text\"]");
}

static void
test_describe(void **state)
{
	(void)state;
	req->path_params[0] = "CAR_C";
	assert_int_equal(apitest_run(api_co_types_describe), 0);
	assert_int_equal(mock.vers[0], CO_VER_DEFAULT);
	assert_string_equal(apitest_result(), "[{\"apiName\":\"car_c\","
	    "\"displayName\":\"Car\",\"pluralName\":\"Plural\","
	    "\"description\":null,\"showInLeadDetail\":true,\"state\":"
	    "\"approved\",\"version\":\"approved\",\"createdAt\":"
	    "\"2023-11-14T22:13:20Z\",\"updatedAt\":\"2023-11-14T23:13:20Z\","
	    "\"idField\":\"marketoGUID\",\"dedupeFields\":[\"vin\"],"
	    "\"searchableFields\":[[\"vin\"],[\"marketoGUID\"],[\"owner\"]],"
	    "\"relationships\":[{\"field\":\"owner\",\"type\":\"child\","
	    "\"relatedTo\":{\"name\":\"Lead\",\"field\":\"id\"}}],"
	    "\"fields\":[{\"name\":\"marketoGUID\",\"displayName\":"
	    "\"Marketo GUID\",\"dataType\":\"string\",\"length\":36,"
	    "\"updateable\":false,\"crmManaged\":false},"
	    "{\"name\":\"createdAt\",\"displayName\":\"Created At\","
	    "\"dataType\":\"datetime\",\"updateable\":false,\"crmManaged\":"
	    "false},{\"name\":\"updatedAt\",\"displayName\":\"Updated At\","
	    "\"dataType\":\"datetime\",\"updateable\":false,\"crmManaged\":"
	    "false},{\"name\":\"vin\",\"displayName\":\"vin\",\"dataType\":"
	    "\"string\",\"length\":255,\"updateable\":false,\"crmManaged\":"
	    "false},{\"name\":\"color\",\"displayName\":\"color\","
	    "\"description\":\"Paint\",\"dataType\":\"string\",\"length\":255,"
	    "\"updateable\":true,\"crmManaged\":false},{\"name\":\"owner\","
	    "\"displayName\":\"owner\",\"dataType\":\"integer\",\"updateable\":"
	    "true,\"crmManaged\":false}]}]");
}

static void
test_describe_draft(void **state)
{
	(void)state;
	/* A draft never approved: no dates, no idField, one search key. */
	req->path_params[0] = "pet_c";
	assert_int_equal(apitest_run(api_co_types_describe), 0);
	assert_string_equal(apitest_member(0, "version"), "\"draft\"");
	assert_string_equal(apitest_member(0, "createdAt"), "null");
	assert_string_equal(apitest_member(0, "idField"), "null");
	assert_string_equal(apitest_member(0, "searchableFields"),
	    "[[\"tag\"]]");
	/* state=draft reads the draft of an approved type. */
	apitest_again();
	req->path_params[0] = "shop_c";
	apitest_param("state", "draft");
	assert_int_equal(apitest_run(api_co_types_describe), 0);
	assert_int_equal(mock.vers[1], CO_VER_DRAFT);
	assert_string_equal(apitest_member(0, "state"),
	    "\"approvedWithDraft\"");
	assert_string_equal(apitest_member(0, "version"), "\"draft\"");
}

static void
test_describe_errors(void **state)
{
	(void)state;
	req->path_params[0] = "nope_c";
	apitest_fails(api_co_types_describe, NULL, -API_ERR_OBJECT_NOT_FOUND,
	    "Custom object type 'nope_c' not found");
	req->path_params[0] = "pet_c";
	apitest_param("state", "approved");
	apitest_fails(api_co_types_describe, NULL, -API_ERR_OBJECT_NOT_FOUND,
	    "Custom object type 'pet_c' has no approved version");
	apitest_again();
	apitest_param("state", "latest");
	apitest_fails(api_co_types_describe, NULL, -API_ERR_INVALID_VALUE,
	    "Invalid value 'latest'. Required of type 'state' (draft, "
	    "approved, approvedWithDraft)");
	apitest_again();
	mock.read_err = -REPO_ERR_CONN;
	apitest_fails(api_co_types_describe, NULL, -API_ERR_UNAVAILABLE,
	    NULL);
}

static void
test_list(void **state)
{
	(void)state;
	assert_int_equal(apitest_run(api_co_types_list), 0);
	assert_int_equal(json_object_array_length(resp->result), 3);
	assert_string_equal(apitest_member(0, "apiName"), "\"car_c\"");
	assert_string_equal(apitest_member(1, "version"), "\"draft\"");
	/* Without state, the approved version of shop_c. */
	assert_string_equal(apitest_member(2, "version"), "\"approved\"");
	/* names picks types, without regard to case. */
	apitest_again();
	apitest_param("names", "PET_C,nope_c");
	assert_int_equal(apitest_run(api_co_types_list), 0);
	assert_int_equal(json_object_array_length(resp->result), 1);
	assert_string_equal(apitest_member(0, "apiName"), "\"pet_c\"");
}

static void
test_list_states(void **state)
{
	(void)state;
	/* approved: pet_c has no approved version. */
	apitest_param("state", "approved");
	assert_int_equal(apitest_run(api_co_types_list), 0);
	assert_int_equal(json_object_array_length(resp->result), 2);
	assert_string_equal(apitest_member(0, "apiName"), "\"car_c\"");
	assert_string_equal(apitest_member(1, "apiName"), "\"shop_c\"");
	/* approvedWithDraft: drafts of types in that state only. */
	apitest_again();
	apitest_param("state", "approvedWithDraft");
	assert_int_equal(apitest_run(api_co_types_list), 0);
	assert_int_equal(json_object_array_length(resp->result), 1);
	assert_string_equal(apitest_member(0, "apiName"), "\"shop_c\"");
	assert_string_equal(apitest_member(0, "version"), "\"draft\"");
	/* draft: every draft. */
	apitest_again();
	apitest_param("state", "draft");
	assert_int_equal(apitest_run(api_co_types_list), 0);
	assert_int_equal(json_object_array_length(resp->result), 2);
	/* Repository failures. */
	apitest_again();
	mock.list_err = -REPO_ERR_UNAVAILABLE;
	apitest_fails(api_co_types_list, NULL, -API_ERR_UNAVAILABLE, NULL);
	mock.list_err = 0;
	mock.read_err = -REPO_ERR_DEADLOCK;
	apitest_fails(api_co_types_list, NULL, -API_ERR_TIMEOUT, NULL);
}

static void
test_linkable(void **state)
{
	(void)state;
	assert_int_equal(apitest_run(api_co_types_linkable), 0);
	/* car_c links itself; pet_c was never approved. */
	assert_string_equal(apitest_result(), "[{\"name\":\"lead\","
	    "\"displayName\":\"Lead\",\"fields\":[{\"name\":\"Id\","
	    "\"displayName\":\"Id\",\"dataType\":\"integer\"},{\"name\":"
	    "\"Email Address\",\"displayName\":\"Email Address\",\"dataType\":"
	    "\"email\"}]},{\"name\":\"company\",\"displayName\":\"Company\","
	    "\"fields\":[{\"name\":\"Id\",\"displayName\":\"Id\",\"dataType\":"
	    "\"integer\"}]},{\"name\":\"shop_c\",\"displayName\":\"Shop\","
	    "\"fields\":[{\"name\":\"marketoGUID\",\"displayName\":"
	    "\"Marketo GUID\",\"dataType\":\"string\"},{\"name\":\"code\","
	    "\"displayName\":\"code\",\"dataType\":\"integer\"}]}]");
	apitest_again();
	mock.list_err = -REPO_ERR_CONN;
	assert_int_equal(apitest_run(api_co_types_linkable),
	    -API_ERR_UNAVAILABLE);
}

static void
test_dependents(void **state)
{
	(void)state;
	req->path_params[0] = "car_c";
	expect_value(__wrap_repo_sl_co_uses, id, CAR_ID);
	will_return(__wrap_repo_sl_co_uses, 0);
	will_return(__wrap_repo_sl_co_uses, 0);
	assert_int_equal(apitest_run(api_co_types_dependents), 0);
	assert_null(resp->result);
	/* One asset per list, its fields once each. */
	expect_value(__wrap_repo_sl_co_uses, id, CAR_ID);
	will_return(__wrap_repo_sl_co_uses, 4);
	will_return(__wrap_repo_sl_co_uses, 0);
	assert_int_equal(apitest_run(api_co_types_dependents), 0);
	assert_string_equal(apitest_result(), "[{\"assetType\":\"Smart Campaign\","
	    "\"assetId\":1001,\"assetName\":\"CarTest.HasCar (Smart List)\","
	    "\"usedFields\":[\"color\",\"vin\"]},{\"assetType\":"
	    "\"Smart List\",\"assetId\":41,\"assetName\":\"Car owners\","
	    "\"usedFields\":[]}]");
	expect_value(__wrap_repo_sl_co_uses, id, CAR_ID);
	will_return(__wrap_repo_sl_co_uses, 0);
	will_return(__wrap_repo_sl_co_uses, -REPO_ERR_CONN);
	apitest_fails(api_co_types_dependents, NULL, -API_ERR_UNAVAILABLE,
	    NULL);
	req->path_params[0] = "nope_c";
	apitest_fails(api_co_types_dependents, NULL,
	    -API_ERR_OBJECT_NOT_FOUND, "Custom object type 'nope_c' not found");
}

/* ---- Sync Custom Object Type ---- */

static void
test_sync_create(void **state)
{
	(void)state;
	apitest_body("{\"apiName\":\"boat_c\",\"displayName\":\"Boat\","
	    "\"pluralName\":\"Boats\",\"description\":\"On water\","
	    "\"showInLeadDetail\":true}");
	assert_int_equal(apitest_run(api_co_types_sync), 0);
	assert_true(mock.may_create);
	assert_true(mock.is_new);
	assert_string_equal(mock.result.api_name, "boat_c");
	assert_string_equal(mock.result.display_name, "Boat");
	assert_string_equal(mock.result.plural_name, "Boats");
	assert_string_equal(mock.result.description, "On water");
	assert_true(mock.result.show_in_lead_detail);
	assert_null(resp->result);
}

static void
test_sync_update(void **state)
{
	(void)state;
	/* An approved type keeps its displayName; the rest may change. */
	apitest_body("{\"action\":\"updateOnly\",\"apiName\":\"car_c\","
	    "\"displayName\":\"Car\",\"description\":\"Wheels\"}");
	assert_int_equal(apitest_run(api_co_types_sync), 0);
	assert_false(mock.may_create);
	assert_false(mock.is_new);
	assert_string_equal(mock.result.description, "Wheels");
	assert_string_equal(mock.result.plural_name, "Plural");
	assert_true(mock.result.show_in_lead_detail);
	/* A draft's displayName may change. */
	apitest_body("{\"apiName\":\"pet_c\",\"displayName\":\"Pets\"}");
	assert_int_equal(apitest_run(api_co_types_sync), 0);
	assert_string_equal(mock.result.display_name, "Pets");
}

static void
test_sync_request_errors(void **state)
{
	static const struct {
		const char	*json;
		int		 err;
		const char	*msg;
	} bad[] = {
		{ "[]", -API_ERR_INVALID_REQUEST,
		  "The request body must be a JSON object" },
		{ "{\"displayName\":\"Boat\"}", -API_ERR_MISSING_PARAM,
		  "Missing value for the required parameter 'apiName'" },
		{ "{\"apiName\":\"lead\",\"displayName\":\"L\"}",
		  -API_ERR_INVALID_VALUE,
		  "Invalid apiName 'lead': the name of a standard object" },
		{ "{\"apiName\":\"boat_c\",\"displayName\":\"\"}",
		  -API_ERR_MISSING_PARAM,
		  "Missing value for the required parameter 'displayName'" },
		{ "{\"action\":\"createOnly\",\"apiName\":\"boat_c\"}",
		  -API_ERR_MISSING_PARAM,
		  "Missing value for the required parameter 'displayName'" },
		{ "{\"apiName\":7}", -API_ERR_INVALID_VALUE, NULL },
		{ "{\"apiName\":\"1boat\",\"displayName\":\"B\"}",
		  -API_ERR_INVALID_VALUE, NULL },
		{ "{\"apiName\":\"boat_c\",\"showInLeadDetail\":\"yes\"}",
		  -API_ERR_INVALID_VALUE, NULL },
		{ "{\"action\":\"merge\",\"apiName\":\"boat_c\"}",
		  -API_ERR_INVALID_VALUE, NULL },
	};
	size_t i;

	(void)state;
	apitest_fails(api_co_types_sync, NULL, -API_ERR_INVALID_REQUEST,
	    "The request body must be a JSON object");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		apitest_fails(api_co_types_sync, bad[i].json, bad[i].err,
		    bad[i].msg);
	assert_int_equal(mock.edits, 0);
}

static void
test_sync_rules(void **state)
{
	(void)state;
	apitest_fails(api_co_types_sync, "{\"action\":\"updateOnly\","
	    "\"apiName\":\"boat_c\",\"displayName\":\"Boat\"}",
	    -API_ERR_OBJECT_NOT_FOUND, "Custom object type 'boat_c' not found");
	apitest_fails(api_co_types_sync, "{\"action\":\"createOnly\","
	    "\"apiName\":\"car_c\",\"displayName\":\"Car\"}",
	    -API_ERR_INVALID_REQUEST, "Custom object type 'car_c' already "
	    "exists");
	apitest_fails(api_co_types_sync, "{\"apiName\":\"car_c\","
	    "\"displayName\":\"Auto\"}", -API_ERR_INVALID_REQUEST,
	    "The displayName of an approved custom object type cannot be "
	    "changed");
	apitest_fails(api_co_types_sync, "{\"apiName\":\"boat_c\"}",
	    -API_ERR_MISSING_PARAM,
	    "Missing value for the required parameter 'displayName'");
	mock.ntypes = CO_MAX_TYPES;
	apitest_fails(api_co_types_sync, "{\"apiName\":\"boat_c\","
	    "\"displayName\":\"Boat\"}", -API_ERR_INVALID_REQUEST,
	    "A subscription has at most 10 custom object types");
	mock.ntypes = NTYPES;
	mock.display_taken = "pet_c";
	apitest_fails(api_co_types_sync, NULL, -API_ERR_INVALID_REQUEST,
	    "displayName is already used by custom object type 'pet_c'");
	mock.display_taken = NULL;
	mock.edit_rr = -REPO_ERR_DEADLOCK;
	apitest_fails(api_co_types_sync, NULL, -API_ERR_TIMEOUT, NULL);
	assert_int_equal(mock.edits, 7);
}

/* ---- fields ---- */

static void
test_add_fields(void **state)
{
	const struct co_field *f;

	(void)state;
	req->path_params[0] = "pet_c";
	apitest_body("{\"input\":[{\"name\":\"age\",\"displayName\":\"Age\","
	    "\"dataType\":\"integer\",\"description\":\"Years\"},"
	    "{\"name\":\"owner\",\"displayName\":\"Owner\",\"dataType\":"
	    "\"link\",\"relatedTo\":{\"name\":\"lead\",\"field\":"
	    "\"Email Address\"}},"
	    "{\"name\":\"shop\",\"displayName\":\"Shop\",\"dataType\":\"link\","
	    "\"relatedTo\":{\"name\":\"SHOP_C\",\"field\":\"code\"}}]}");
	assert_int_equal(apitest_run(api_co_types_add_fields), 0);
	assert_int_equal(mock.result.nfields, 5);
	assert_non_null(f = co_type_field(&mock.result, "age"));
	assert_int_equal(f->type, CO_INTEGER);
	assert_string_equal(f->description, "Years");
	assert_non_null(f = co_type_field(&mock.result, "owner"));
	assert_true(f->is_link);
	assert_string_equal(f->related_object, "lead");
	assert_string_equal(f->related_field, "email");
	assert_int_equal(f->key_type, CO_EMAIL);
	/* A custom object by its one dedupe field, as it spells them. */
	assert_non_null(f = co_type_field(&mock.result, "shop"));
	assert_string_equal(f->related_object, "shop_c");
	assert_string_equal(f->related_field, "code");
	assert_int_equal(f->key_type, CO_INTEGER);
}

static void
test_add_fields_input_errors(void **state)
{
	(void)state;
	req->path_params[0] = "pet_c";
	apitest_fails(api_co_types_add_fields, "{}", -API_ERR_MISSING_PARAM,
	    "Missing value for the required parameter 'input'");
	apitest_fails(api_co_types_add_fields, "{\"input\":{}}",
	    -API_ERR_INVALID_VALUE,
	    "Invalid value for 'input': an array expected");
	(void)apitest_body_input(CO_MAX_FIELDS + 1, "{}");
	apitest_fails(api_co_types_add_fields, NULL, -API_ERR_INVALID_REQUEST,
	    "A custom object type has at most 50 fields");
	assert_int_equal(mock.edits, 0);
}

static void
test_add_fields_bad_field(void **state)
{
	static const struct {
		const char	*field;
		int		 err;
		const char	*msg;
	} bad[] = {
		{ "5", -API_ERR_INVALID_REQUEST,
		  "Each field must be a JSON object" },
		{ "{\"displayName\":\"A\",\"dataType\":\"string\"}",
		  -API_ERR_MISSING_PARAM,
		  "Missing value for the required parameter 'name'" },
		{ "{\"name\":\"marketoGUID\",\"displayName\":\"G\","
		  "\"dataType\":\"string\"}", -API_ERR_INVALID_VALUE,
		  "Invalid name 'marketoGUID': a name every record has" },
		{ "{\"name\":\"a\",\"dataType\":\"string\"}",
		  -API_ERR_MISSING_PARAM,
		  "Missing value for the required parameter 'displayName'" },
		{ "{\"name\":\"a\",\"displayName\":\"A\"}",
		  -API_ERR_MISSING_PARAM,
		  "Missing value for the required parameter 'dataType'" },
		{ "{\"name\":\"a\",\"displayName\":\"A\",\"dataType\":"
		    "\"blob\"}",
		  -API_ERR_INVALID_VALUE,
		  "Invalid value 'blob'. Required of type 'dataType'" },
		{ "{\"name\":\"a\",\"displayName\":\"A\",\"dataType\":"
		    "\"link\"}",
		  -API_ERR_MISSING_PARAM,
		  "Missing value for the required parameter 'relatedTo'" },
		{ "{\"name\":\"a\",\"displayName\":\"A\",\"dataType\":"
		  "\"string\",\"relatedTo\":{\"name\":\"lead\",\"field\":"
		  "\"Id\"}}", -API_ERR_INVALID_REQUEST,
		  "relatedTo is only for fields of dataType 'link'" },
		{ "{\"name\":\"a\",\"displayName\":\"A\",\"dataType\":\"link\","
		  "\"relatedTo\":\"lead\"}", -API_ERR_INVALID_VALUE,
		  "Invalid value for 'relatedTo': an object {\"name\","
		  "\"field\"} expected" },
		{ "{\"name\":\"a\",\"displayName\":\"A\",\"dataType\":\"link\","
		  "\"relatedTo\":{\"name\":\"lead\"}}", -API_ERR_MISSING_PARAM,
		  "Missing value for the required parameter "
		  "'relatedTo.field'" },
		{ "{\"name\":\"a\",\"displayName\":\"A\",\"dataType\":\"link\","
		  "\"relatedTo\":{\"name\":\"lead\",\"field\":\"Name\"}}",
		  -API_ERR_INVALID_REQUEST, "A link to lead is made on 'Id' or "
		  "'Email Address', not 'Name'" },
		{ "{\"name\":\"a\",\"displayName\":\"A\",\"dataType\":\"link\","
		  "\"relatedTo\":{\"name\":\"company\",\"field\":\"email\"}}",
		  -API_ERR_INVALID_REQUEST, "A link to company is made on 'Id',"
		      " "
		  "not 'email'" },
		{ "{\"name\":\"a\",\"displayName\":\"A\",\"dataType\":\"link\","
		  "\"relatedTo\":{\"name\":\"pet_c\",\"field\":\"tag\"}}",
		  -API_ERR_INVALID_REQUEST, "Linked object 'pet_c' not found: "
		      "a "
		  "link goes to lead, company or an approved custom object "
		  "type" },
		{ "{\"name\":\"a\",\"displayName\":\"A\",\"dataType\":\"link\","
		  "\"relatedTo\":{\"name\":\"car_c\",\"field\":\"vin\"}}",
		  -API_ERR_INVALID_REQUEST, "Custom object type 'car_c' has a "
		  "link field itself and cannot be linked to" },
		{ "{\"name\":\"a\",\"displayName\":\"A\",\"dataType\":\"link\","
		  "\"relatedTo\":{\"name\":\"shop_c\",\"field\":\"city\"}}",
		  -API_ERR_INVALID_REQUEST, "A link to custom object type "
		  "'shop_c' is made on marketoGUID or its one dedupe field, "
		  "not "
		  "'city'" },
	};
	char json[400];
	size_t i;

	(void)state;
	req->path_params[0] = "pet_c";
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		/* A good field first: one bad field refuses them all. */
		snprintf(json, sizeof(json), "{\"input\":[{\"name\":\"ok\","
		    "\"displayName\":\"OK\",\"dataType\":\"string\"},%s]}",
		    bad[i].field);
		apitest_fails(api_co_types_add_fields, json, bad[i].err,
		    bad[i].msg);
	}
	assert_int_equal(mock.edits, 0);
}

static void
test_add_fields_rules(void **state)
{
	(void)state;
	req->path_params[0] = "pet_c";
	apitest_fails(api_co_types_add_fields, "{\"input\":[{\"name\":\"TAG\","
	    "\"displayName\":\"Tag\",\"dataType\":\"string\"}]}",
	    -API_ERR_INVALID_REQUEST, "Field 'TAG' already exists");
	req->path_params[0] = "car_c";
	apitest_fails(api_co_types_add_fields, "{\"input\":[{\"name\":"
	    "\"plate\","
	    "\"displayName\":\"Plate\",\"dataType\":\"string\","
	    "\"isDedupeField\":true}]}", -API_ERR_INVALID_REQUEST,
	    "Dedupe fields cannot be added to an approved custom object type");
	req->path_params[0] = "nope_c";
	apitest_fails(api_co_types_add_fields, "{\"input\":[{\"name\":\"a\","
	    "\"displayName\":\"A\",\"dataType\":\"string\"}]}",
	    -API_ERR_OBJECT_NOT_FOUND, "Custom object type 'nope_c' not found");
	/* Adding fields never creates a type. */
	assert_false(mock.may_create);
}

static void
test_update_field(void **state)
{
	const struct co_field *f;

	(void)state;
	req->path_params[0] = "shop_c";
	req->path_params[1] = "city";
	apitest_body("{\"displayName\":\"Town\",\"description\":\"Where\"}");
	assert_int_equal(apitest_run(api_co_types_update_field), 0);
	assert_non_null(f = co_type_field(&mock.result, "city"));
	assert_string_equal(f->display_name, "Town");
	assert_string_equal(f->description, "Where");
	assert_int_equal(f->type, CO_STRING);
	/* Refusals. */
	apitest_fails(api_co_types_update_field, "[]",
	    -API_ERR_INVALID_REQUEST, "The request body must be a JSON "
	    "object");
	req->path_params[1] = "zip";
	apitest_fails(api_co_types_update_field, "{\"displayName\":\"Zip\"}",
	    -API_ERR_FIELD_NOT_FOUND, "Field 'zip' not found");
	req->path_params[1] = "code";
	apitest_fails(api_co_types_update_field, "{\"dataType\":\"string\"}",
	    -API_ERR_INVALID_REQUEST, NULL);
	/* Fields change in a draft that was there before. */
	req->path_params[0] = "car_c";
	req->path_params[1] = "color";
	apitest_fails(api_co_types_update_field, "{\"displayName\":\"Hue\"}",
	    -API_ERR_INVALID_REQUEST, "Custom object type 'car_c' has no "
	    "draft: fields are updated and deleted in a draft (Sync Custom "
	    "Object Type or Add Custom Object Type Fields makes one)");
}

static void
test_delete_fields(void **state)
{
	(void)state;
	req->path_params[0] = "shop_c";
	apitest_body("{\"input\":[{\"name\":\"city\"}]}");
	assert_int_equal(apitest_run(api_co_types_delete_fields), 0);
	assert_int_equal(mock.result.nfields, 1);
	assert_string_equal(mock.result.fields[0].name, "code");
	apitest_fails(api_co_types_delete_fields, "{\"input\":[{\"name\":"
	    "\"code\"}]}", -API_ERR_INVALID_REQUEST, "Dedupe fields of an "
	    "approved custom object type cannot be deleted");
	apitest_fails(api_co_types_delete_fields, "{\"input\":[{\"name\":"
	    "\"zip\"}]}", -API_ERR_FIELD_NOT_FOUND, "Field 'zip' not found");
	apitest_fails(api_co_types_delete_fields, "{\"input\":[\"city\"]}",
	    -API_ERR_INVALID_REQUEST, "Each field must be a JSON object");
	apitest_fails(api_co_types_delete_fields, "{\"input\":[{}]}",
	    -API_ERR_MISSING_PARAM,
	    "Missing value for the required parameter 'name'");
	req->path_params[0] = "car_c";
	apitest_fails(api_co_types_delete_fields, "{\"input\":[{\"name\":"
	    "\"color\"}]}", -API_ERR_INVALID_REQUEST, NULL);
	assert_int_equal(mock.edits, 4);
}

/* ---- approve, discard, delete ---- */

static void
test_approve(void **state)
{
	(void)state;
	req->path_params[0] = "pet_c";
	expect_string(__wrap_repo_co_types_approve, api_name, "pet_c");
	will_return(__wrap_repo_co_types_approve, 0);
	assert_int_equal(apitest_run(api_co_types_approve), 0);
	assert_null(resp->result);
	/* The check the repository runs on the draft refuses. */
	world.no_dedupe = true;
	expect_string(__wrap_repo_co_types_approve, api_name, "pet_c");
	will_return(__wrap_repo_co_types_approve, 0);
	apitest_fails(api_co_types_approve, NULL, -API_ERR_INVALID_REQUEST,
	    "A custom object type needs 1 to 3 dedupe fields to be approved "
	    "(it has 0)");
	/* Refused by the repository itself (no draft). */
	req->path_params[0] = "car_c";
	expect_string(__wrap_repo_co_types_approve, api_name, "car_c");
	will_return(__wrap_repo_co_types_approve, -REPO_ERR_INVALID);
	apitest_fails(api_co_types_approve, NULL, -API_ERR_INVALID_REQUEST,
	    "Custom object type 'car_c' has no draft");
	req->path_params[0] = "nope_c";
	expect_string(__wrap_repo_co_types_approve, api_name, "nope_c");
	will_return(__wrap_repo_co_types_approve, -REPO_ERR_NOT_FOUND);
	apitest_fails(api_co_types_approve, NULL, -API_ERR_OBJECT_NOT_FOUND,
	    "Custom object type 'nope_c' not found");
}

static void
test_discard(void **state)
{
	(void)state;
	req->path_params[0] = "shop_c";
	expect_string(__wrap_repo_co_types_discard, api_name, "shop_c");
	will_return(__wrap_repo_co_types_discard, 0);
	assert_int_equal(apitest_run(api_co_types_discard), 0);
	expect_string(__wrap_repo_co_types_discard, api_name, "shop_c");
	will_return(__wrap_repo_co_types_discard, -REPO_ERR_INVALID);
	apitest_fails(api_co_types_discard, NULL, -API_ERR_CO_DISCARD, NULL);
	expect_string(__wrap_repo_co_types_discard, api_name, "shop_c");
	will_return(__wrap_repo_co_types_discard, -REPO_ERR_NOT_FOUND);
	apitest_fails(api_co_types_discard, NULL, -API_ERR_OBJECT_NOT_FOUND,
	    "Custom object type 'shop_c' not found");
}

static void
test_delete(void **state)
{
	(void)state;
	req->path_params[0] = "pet_c";
	expect_string(__wrap_repo_co_types_delete, api_name, "pet_c");
	will_return(__wrap_repo_co_types_delete, 0);
	assert_int_equal(apitest_run(api_co_types_delete), 0);
	expect_string(__wrap_repo_co_types_delete, api_name, "pet_c");
	will_return(__wrap_repo_co_types_delete, -REPO_ERR_INVALID);
	apitest_fails(api_co_types_delete, NULL, -API_ERR_INVALID_REQUEST,
	    "Custom object type 'pet_c' is linked from 'x_c'");
	expect_string(__wrap_repo_co_types_delete, api_name, "pet_c");
	will_return(__wrap_repo_co_types_delete, -REPO_ERR_CONN);
	apitest_fails(api_co_types_delete, NULL, -API_ERR_UNAVAILABLE, NULL);
	/* An unknown type is not handed to the repository's delete. */
	req->path_params[0] = "nope_c";
	apitest_fails(api_co_types_delete, NULL, -API_ERR_OBJECT_NOT_FOUND,
	    "Custom object type 'nope_c' not found");
}

#define T(f)	cmocka_unit_test_setup_teardown(f, setup, teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_data_types),
		T(test_describe),
		T(test_describe_draft),
		T(test_describe_errors),
		T(test_list),
		T(test_list_states),
		T(test_linkable),
		T(test_dependents),
		T(test_sync_create),
		T(test_sync_update),
		T(test_sync_request_errors),
		T(test_sync_rules),
		T(test_add_fields),
		T(test_add_fields_input_errors),
		T(test_add_fields_bad_field),
		T(test_add_fields_rules),
		T(test_update_field),
		T(test_delete_fields),
		T(test_approve),
		T(test_discard),
		T(test_delete),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
