/*
 * The handlers of api_co_records.c without a database.  The type reads,
 * the record lookup, write and delete and the lead link check are mocked
 * at link time (-Wl,--wrap, see Makefile.am) over canned approved types:
 * car_c (dedupe vin; color, miles; links owner to a lead and shop to
 * shop_c), shop_c (dedupe code), pair_c (compound key a, b) and pet_c
 * (never approved).  A lookup answers a row for each key whose bit is set
 * in the mask it is given (will_return).  The tests assert per-record
 * results and reasons, what is looked up and written, paging of Get
 * Custom Objects and request-level errors.
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
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_co_records.h"
#include "repo/repo_co_types.h"
#include "repo/repo_leads.h"
#include "util/xmalloc.h"

#include "apitest.h"

/* ---- the canned types ---- */

static const char *const type_names[] = { "car_c", "shop_c", "pair_c",
    "pet_c" };
#define NTYPES	(sizeof(type_names) / sizeof(type_names[0]))

static int
canned(const char *name, bool approved, struct co_type *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < NTYPES; i++)
		if (strcasecmp(type_names[i], name) == 0)
			break;
	if (i == NTYPES || (approved && i == 3))
		return -REPO_ERR_NOT_FOUND;
	out->id = (int64_t)i + 1;
	out->api_name = xstrdup(type_names[i]);
	out->display_name = xstrdup(type_names[i]);
	out->state = xstrdup(i == 3 ? "draft" : "approved");
	out->approved = i != 3;
	out->has_draft = i == 3;
	out->is_draft = i == 3;
	switch (i) {
	case 0:
		apitest_co_field(out, "vin", CO_STRING, true);
		apitest_co_field(out, "color", CO_STRING, false);
		apitest_co_field(out, "miles", CO_INTEGER, false);
		apitest_co_field(out, "owner", CO_LINK, false);
		apitest_co_field(out, "shop", CO_LINK, false);
		free(out->fields[4].related_object);
		free(out->fields[4].related_field);
		out->fields[4].related_object = xstrdup("shop_c");
		out->fields[4].related_field = xstrdup("code");
		break;
	case 1:
		apitest_co_field(out, "code", CO_INTEGER, true);
		break;
	case 2:
		apitest_co_field(out, "a", CO_STRING, true);
		apitest_co_field(out, "b", CO_INTEGER, true);
		break;
	default:
		apitest_co_field(out, "tag", CO_STRING, true);
		break;
	}
	return 0;
}

/* ---- mocks ---- */

int	__wrap_repo_co_types_get(struct db *, const char *, bool,
	    struct co_type *);
int	__wrap_repo_co_types_read(struct db *, const char *, enum co_ver,
	    struct co_type *);
int	__wrap_repo_co_types_list(struct db *, char ***, size_t *);
int	__wrap_repo_co_records_lookup(struct db *, const struct co_type *,
	    const char *const *, size_t, const struct lead_value *, size_t,
	    const char *const *, size_t, int64_t, size_t, struct co_rows *);
int	__wrap_repo_co_records_write(struct db *, const struct co_type *,
	    struct co_write *, size_t, struct co_write *, size_t, bool);
int	__wrap_repo_co_records_delete_ids(struct db *, const struct co_type *,
	    const int64_t *, size_t);
int	__wrap_repo_leads_exist(struct db *, const struct lead_value *,
	    size_t, bool, bool *);

#define GUID_FMT	"0000000%d-aaaa-4bbb-8ccc-dddddddddddd"

static struct {
	enum co_ver	 ver;		/* last read */
	/* lookups */
	int		 lookups;
	char		 type[16];	/* of the last one */
	char		 keycols[64];	/* "a,b" */
	char		 keys[256];	/* the key values, as text */
	size_t		 nkeys;
	char		 cols[128];
	int64_t		 after;
	size_t		 limit;
	/* writes */
	int		 writes;
	size_t		 nc, nu;
	bool		 one_by_one;
	int64_t		 upd_id;
	bool		 by_update;
	char		 create_guid[CO_GUID_LEN + 1];
	char		 color[16];	/* of the first create */
	int		 conflict_once;	/* batch CONFLICT, then mark #0 */
	/* deletes */
	int64_t		 ids[8];
	/* lead links */
	bool		 by_email;
	unsigned	 leads;		/* keys that name a lead */
} mock;

int
__wrap_repo_co_types_get(struct db *db, const char *api_name, bool approved,
    struct co_type *out)
{
	(void)db;
	return canned(api_name, approved, out);
}

int
__wrap_repo_co_types_read(struct db *db, const char *api_name,
    enum co_ver ver, struct co_type *out)
{
	(void)db;
	mock.ver = ver;
	return canned(api_name, ver == CO_VER_APPROVED, out);
}

int
__wrap_repo_co_types_list(struct db *db, char ***names, size_t *n)
{
	size_t i;

	(void)db;
	*names = xcalloc(NTYPES, sizeof(**names));
	for (i = 0; i < NTYPES; i++)
		(*names)[i] = xstrdup(type_names[i]);
	*n = NTYPES;
	return 0;
}

/* Appends s and a separator to dst (a bounded char array). */
#define ADD(dst, ...)	snprintf((dst) + strlen(dst), sizeof(dst) - \
	strlen(dst), __VA_ARGS__)

/* A column value of a canned row, as MariaDB writes it. */
static const char *
row_text(const char *col)
{
	if (strcmp(col, "vin") == 0)
		return "A";
	if (strcmp(col, "miles") == 0)
		return "1200";
	if (strcmp(col, "createdAt") == 0 || strcmp(col, "updatedAt") == 0)
		return "2024-05-06 07:08:09";
	return NULL;
}

int
__wrap_repo_co_records_lookup(struct db *db, const struct co_type *t,
    const char *const *keycols, size_t nkey, const struct lead_value *keys,
    size_t nkeys, const char *const *cols, size_t ncols, int64_t after_id,
    size_t limit, struct co_rows *out)
{
	struct co_row *row;
	unsigned mask;
	size_t i, j;

	(void)db;
	mock.lookups++;
	snprintf(mock.type, sizeof(mock.type), "%s", t->api_name);
	mock.keycols[0] = mock.keys[0] = mock.cols[0] = '\0';
	for (j = 0; j < nkey; j++)
		ADD(mock.keycols, "%s%s", j > 0 ? "," : "", keycols[j]);
	for (i = 0; i < nkeys * nkey; i++) {
		if (keys[i].kind == LV_STR)
			ADD(mock.keys, "%s%s", i > 0 ? "," : "", keys[i].s);
		else
			ADD(mock.keys, "%s%lld", i > 0 ? "," : "",
			    (long long)keys[i].i);
	}
	for (j = 0; j < ncols; j++)
		ADD(mock.cols, "%s%s", j > 0 ? "," : "", cols[j]);
	mock.nkeys = nkeys;
	mock.after = after_id;
	mock.limit = limit;
	memset(out, 0, sizeof(*out));
	mask = (unsigned)mock_type(int);
	out->rows = xcalloc(nkeys + 1, sizeof(*out->rows));
	out->ncols = ncols;
	for (i = 0; i < nkeys && (limit == 0 || out->n < limit); i++) {
		if ((mask & (1u << i)) == 0)
			continue;
		row = &out->rows[out->n++];
		row->id = after_id + 100 + (int64_t)i;
		row->seq = i;
		snprintf(row->guid, sizeof(row->guid), GUID_FMT, (int)i);
		row->vals = xcalloc(ncols + 1, sizeof(*row->vals));
		row->lens = xcalloc(ncols + 1, sizeof(*row->lens));
		for (j = 0; j < ncols; j++)
			if (row_text(cols[j]) != NULL) {
				row->vals[j] = xstrdup(row_text(cols[j]));
				row->lens[j] = strlen(row->vals[j]);
			}
	}
	return 0;
}

int
__wrap_repo_co_records_write(struct db *db, const struct co_type *t,
    struct co_write *creates, size_t ncreates, struct co_write *updates,
    size_t nupdates, bool one_by_one)
{
	(void)db;
	(void)t;
	mock.writes++;
	mock.nc = ncreates;
	mock.nu = nupdates;
	mock.one_by_one = one_by_one;
	if (ncreates > 0) {
		snprintf(mock.create_guid, sizeof(mock.create_guid), "%s",
		    creates[0].guid);
		snprintf(mock.color, sizeof(mock.color), "%s",
		    creates[0].vals[1].kind == LV_STR ? creates[0].vals[1].s :
		    "(none)");
	}
	if (nupdates > 0) {
		mock.upd_id = updates[0].id;
		mock.by_update = updates[0].by_update;
	}
	if (mock.conflict_once && !one_by_one)
		return -REPO_ERR_CONFLICT;
	if (mock.conflict_once && ncreates > 0)
		creates[0].conflict = true;
	return mock_type(int);
}

int
__wrap_repo_co_records_delete_ids(struct db *db, const struct co_type *t,
    const int64_t *ids, size_t n)
{
	(void)db;
	(void)t;
	check_expected(n);
	memcpy(mock.ids, ids, (n < 8 ? n : 8) * sizeof(*ids));
	return mock_type(int);
}

int
__wrap_repo_leads_exist(struct db *db, const struct lead_value *keys,
    size_t n, bool by_email, bool *found)
{
	size_t i;

	(void)db;
	(void)keys;
	mock.by_email = by_email;
	for (i = 0; i < n; i++)
		found[i] = (mock.leads & (1u << i)) != 0;
	return 0;
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

/* ---- List and Describe Custom Objects ---- */

static void
test_list_and_describe(void **state)
{
	(void)state;
	assert_int_equal(apitest_run(api_co_records_list), 0);
	assert_int_equal(mock.ver, CO_VER_APPROVED);
	/* Approved types only, without their fields. */
	assert_int_equal(json_object_array_length(resp->result), 3);
	assert_string_equal(apitest_member(0, "name"), "\"car_c\"");
	assert_string_equal(apitest_member(2, "name"), "\"pair_c\"");
	assert_false(json_object_object_get_ex(json_object_array_get_idx(
	    resp->result, 0), "fields", NULL));
	apitest_again();
	req->path_params[0] = "car_c";
	assert_int_equal(apitest_run(api_co_records_describe), 0);
	assert_string_equal(apitest_member(0, "name"), "\"car_c\"");
	assert_int_equal(json_object_array_length(json_object_object_get(
	    json_object_array_get_idx(resp->result, 0), "fields")), 8);
	req->path_params[0] = "pet_c";
	apitest_fails(api_co_records_describe, NULL, -API_ERR_OBJECT_NOT_FOUND,
	    "Custom object 'pet_c' not found (or not approved)");
}

/* ---- Sync Custom Objects ---- */

static void
test_sync_ok(void **state)
{
	char want[200];

	(void)state;
	req->path_params[0] = "car_c";
	apitest_body("{\"input\":[{\"vin\":\"N\",\"color\":\"red\","
	    "\"createdAt\":\"ignored\"},{\"vin\":\"A\",\"miles\":7}]}");
	will_return(__wrap_repo_co_records_lookup, 2);	/* A exists */
	will_return(__wrap_repo_co_records_write, 0);
	assert_int_equal(apitest_run(api_co_records_sync), 0);
	assert_string_equal(mock.keycols, "vin");
	assert_string_equal(mock.keys, "N,A");
	assert_int_equal(mock.nc, 1);
	assert_int_equal(mock.nu, 1);
	assert_false(mock.one_by_one);
	assert_string_equal(mock.color, "red");
	assert_int_equal(mock.upd_id, 101);
	assert_false(mock.by_update);
	/* A new record gets a new marketoGUID. */
	assert_true(co_guid_valid(mock.create_guid, strlen(mock.create_guid)));
	snprintf(want, sizeof(want), "[{\"seq\":0,\"status\":\"created\","
	    "\"marketoGUID\":\"%s\"},{\"seq\":1,\"status\":\"updated\","
	    "\"marketoGUID\":\"" GUID_FMT "\"}]", mock.create_guid, 1);
	assert_string_equal(apitest_result(), want);
}

static void
test_sync_record_skips(void **state)
{
	(void)state;
	req->path_params[0] = "car_c";
	apitest_body("{\"input\":["
	    "7,"
	    "{\"vin\":\"A\",\"wheels\":4},"
	    "{\"vin\":\"A\",\"miles\":\"far\"},"
	    "{\"color\":\"red\"},"
	    "{\"vin\":null},"
	    "{\"vin\":\"B\"},"
	    "{\"vin\":\"B\",\"color\":\"blue\"}]}");
	will_return(__wrap_repo_co_records_lookup, 0);
	will_return(__wrap_repo_co_records_write, 0);
	assert_int_equal(apitest_run(api_co_records_sync), 0);
	/* Only the first B is looked up and written. */
	assert_string_equal(mock.keys, "B");
	assert_int_equal(mock.nc, 1);
	assert_string_equal(apitest_member(0, "reasons"), "[{\"code\":\"1003\","
	    "\"message\":\"Invalid data: a record is a JSON object\"}]");
	assert_string_equal(apitest_member(1, "reasons"), "[{\"code\":\"1006\","
	    "\"message\":\"Field 'wheels' not found\"}]");
	assert_string_equal(apitest_member(2, "reasons"), "[{\"code\":\"1003\","
	    "\"message\":\"Invalid value for field 'miles' and value "
	    "'far'\"}]");
	assert_string_equal(apitest_member(3, "reasons"), "[{\"code\":\"1002\","
	    "\"message\":\"Value for requried field 'vin' not "
	    "specified\"}]");
	assert_string_equal(apitest_member(4, "reasons"), "[{\"code\":\"1002\","
	    "\"message\":\"Value for requried field 'vin' not "
	    "specified\"}]");
	assert_string_equal(apitest_member(5, "status"), "\"created\"");
	assert_string_equal(apitest_member(6, "reasons"), "[{\"code\":\"1036\","
	    "\"message\":\"Duplicate object found in input\"}]");
	assert_string_equal(apitest_member(6, "seq"), "6");
}

static void
test_sync_actions(void **state)
{
	(void)state;
	req->path_params[0] = "car_c";
	apitest_body("{\"action\":\"createOnly\",\"input\":[{\"vin\":\"A\"},"
	    "{\"vin\":\"N\"}]}");
	will_return(__wrap_repo_co_records_lookup, 1);
	will_return(__wrap_repo_co_records_write, 0);
	assert_int_equal(apitest_run(api_co_records_sync), 0);
	assert_string_equal(apitest_member(0, "reasons"), "[{\"code\":\"1017\","
	    "\"message\":\"Object already exists\"}]");
	assert_string_equal(apitest_member(1, "status"), "\"created\"");
	apitest_again();
	apitest_body("{\"action\":\"updateOnly\",\"input\":[{\"vin\":\"A\"},"
	    "{\"vin\":\"N\"}]}");
	will_return(__wrap_repo_co_records_lookup, 1);
	will_return(__wrap_repo_co_records_write, 0);
	assert_int_equal(apitest_run(api_co_records_sync), 0);
	assert_string_equal(apitest_member(0, "status"), "\"updated\"");
	assert_string_equal(apitest_member(1, "reasons"), "[{\"code\":\"1004\","
	    "\"message\":\"Lead not found\"}]");
	assert_int_equal(mock.nc, 0);
	assert_int_equal(mock.nu, 1);
}

static void
test_sync_by_guid(void **state)
{
	(void)state;
	req->path_params[0] = "car_c";
	apitest_fails(api_co_records_sync, "{\"dedupeBy\":\"idField\","
	    "\"input\":[{}]}", -API_ERR_INVALID_REQUEST,
	    "dedupeBy idField is only valid with action updateOnly");
	apitest_again();
	apitest_body("{\"action\":\"updateOnly\",\"dedupeBy\":\"idField\","
	    "\"input\":[{\"marketoGUID\":"
	    "\"0000000A-AAAA-4BBB-8CCC-DDDDDDDDDDDD\","
	    "\"vin\":\"Z\"},{\"vin\":\"Y\"},{\"marketoGUID\":\"nope\"},"
	    "{\"marketoGUID\":\"00000001-aaaa-4bbb-8ccc-dddddddddddd\","
	    "\"vin\":\"\"}]}");
	will_return(__wrap_repo_co_records_lookup, 1);
	will_return(__wrap_repo_co_records_write, 0);
	assert_int_equal(apitest_run(api_co_records_sync), 0);
	assert_string_equal(mock.keycols, "marketoGUID");
	/* The key is kept in lower case. */
	assert_string_equal(mock.keys, "0000000a-aaaa-4bbb-8ccc-dddddddddddd");
	/* A dedupe field given by GUID moves the key. */
	assert_true(mock.by_update);
	assert_string_equal(apitest_member(0, "status"), "\"updated\"");
	assert_string_equal(apitest_member(1, "reasons"), "[{\"code\":\"1002\","
	    "\"message\":\"Missing value for the required parameter "
	    "'marketoGUID'\"}]");
	assert_string_equal(apitest_member(2, "reasons"), "[{\"code\":\"1003\","
	    "\"message\":\"Invalid value for field 'marketoGUID' and value "
	    "'nope'\"}]");
	assert_string_equal(apitest_member(3, "reasons"), "[{\"code\":\"1003\","
	    "\"message\":\"Invalid value for field 'vin' and value ''\"}]");
}

static void
test_sync_links(void **state)
{
	(void)state;
	req->path_params[0] = "car_c";
	apitest_body("{\"input\":[{\"vin\":\"A\",\"owner\":5},"
	    "{\"vin\":\"B\",\"owner\":6},{\"vin\":\"C\",\"shop\":7},"
	    "{\"vin\":\"D\",\"owner\":5}]}");
	mock.leads = 1;			/* lead 5 exists, 6 does not */
	will_return(__wrap_repo_co_records_lookup, 0);	/* shop 7: none */
	will_return(__wrap_repo_co_records_lookup, 0);	/* the records */
	will_return(__wrap_repo_co_records_write, 0);
	assert_int_equal(apitest_run(api_co_records_sync), 0);
	assert_false(mock.by_email);
	assert_int_equal(mock.lookups, 2);
	assert_string_equal(mock.keys, "A,D");
	assert_string_equal(apitest_member(0, "status"), "\"created\"");
	assert_string_equal(apitest_member(1, "reasons"), "[{\"code\":\"1004\","
	    "\"message\":\"Lead not found for link field 'owner' and value "
	    "'6'\"}]");
	assert_string_equal(apitest_member(2, "reasons"), "[{\"code\":\"1013\","
	    "\"message\":\"Object not found for link field 'shop' and value "
	    "'7'\"}]");
	/* The second record with lead 5 shares the first one's answer. */
	assert_string_equal(apitest_member(3, "status"), "\"created\"");
}

static void
test_sync_conflict_retry(void **state)
{
	(void)state;
	req->path_params[0] = "car_c";
	apitest_body("{\"input\":[{\"vin\":\"N\"},{\"vin\":\"A\"}]}");
	mock.conflict_once = 1;
	will_return(__wrap_repo_co_records_lookup, 2);
	will_return(__wrap_repo_co_records_lookup, 2);
	will_return(__wrap_repo_co_records_write, 0);
	assert_int_equal(apitest_run(api_co_records_sync), 0);
	/* The batch lost a race: decided again, one by one. */
	assert_int_equal(mock.writes, 2);
	assert_true(mock.one_by_one);
	assert_string_equal(apitest_member(0, "reasons"), "[{\"code\":\"1017\","
	    "\"message\":\"Object already exists\"}]");
	assert_string_equal(apitest_member(1, "status"), "\"updated\"");
}

static void
test_sync_request_errors(void **state)
{
	(void)state;
	req->path_params[0] = "car_c";
	apitest_fails(api_co_records_sync, NULL, -API_ERR_INVALID_REQUEST,
	    "The request body must be a JSON object");
	apitest_fails(api_co_records_sync, "{\"input\":[]}",
	    -API_ERR_INVALID_REQUEST,
	    "Objects not specified: 'input' must be a non-empty array");
	apitest_fails(api_co_records_sync, "{\"dedupeBy\":\"guid\","
	    "\"input\":[{}]}", -API_ERR_INVALID_REQUEST,
	    "Invalid dedupeBy 'guid' value");
	apitest_fails(api_co_records_sync, "{\"action\":\"upsert\","
	    "\"input\":[{}]}", -API_ERR_INVALID_VALUE, NULL);
	(void)apitest_body_input(MAX_BATCH_RECORDS + 1, "{\"vin\":\"A\"}");
	apitest_fails(api_co_records_sync, NULL, -API_ERR_INVALID_REQUEST,
	    "Too many records in input: 301 (the limit is 300)");
	req->path_params[0] = "pet_c";
	apitest_fails(api_co_records_sync, "{\"input\":[{\"tag\":\"x\"}]}",
	    -API_ERR_OBJECT_NOT_FOUND,
	    "Custom object 'pet_c' not found (or not approved)");
	assert_int_equal(mock.lookups, 0);
	req->path_params[0] = "car_c";
	will_return(__wrap_repo_co_records_lookup, 0);
	will_return(__wrap_repo_co_records_write, -REPO_ERR_CONN);
	apitest_fails(api_co_records_sync, "{\"input\":[{\"vin\":\"A\"}]}",
	    -API_ERR_UNAVAILABLE, NULL);
}

/* ---- Delete Custom Objects ---- */

static void
test_delete(void **state)
{
	(void)state;
	req->path_params[0] = "car_c";
	apitest_body("{\"input\":[{\"vin\":\"A\"},{\"vin\":\"B\"},"
	    "{\"vin\":\"A\"},{\"color\":\"red\"}]}");
	will_return(__wrap_repo_co_records_lookup, 1);
	expect_value(__wrap_repo_co_records_delete_ids, n, 1);
	will_return(__wrap_repo_co_records_delete_ids, 0);
	assert_int_equal(apitest_run(api_co_records_delete), 0);
	assert_int_equal(mock.ids[0], 100);
	assert_string_equal(apitest_result(), "[{\"seq\":0,\"marketoGUID\":\""
	    "00000000-aaaa-4bbb-8ccc-dddddddddddd\",\"status\":\"deleted\"},"
	    "{\"seq\":1,\"status\":\"skipped\",\"reasons\":[{\"code\":\"1013\","
	    "\"message\":\"Object not found\"}]},"
	    "{\"seq\":2,\"status\":\"skipped\",\"reasons\":[{\"code\":\"1036\","
	    "\"message\":\"Duplicate object found in input\"}]},"
	    "{\"seq\":3,\"status\":\"skipped\",\"reasons\":[{\"code\":\"1002\","
	    "\"message\":\"Value for requried field 'vin' not "
	    "specified\"}]}]");
}

static void
test_delete_by_guid_and_errors(void **state)
{
	(void)state;
	req->path_params[0] = "shop_c";
	apitest_body("{\"deleteBy\":\"idField\",\"input\":[{\"marketoGUID\":"
	    "\"00000000-aaaa-4bbb-8ccc-dddddddddddd\"}]}");
	will_return(__wrap_repo_co_records_lookup, 1);
	expect_value(__wrap_repo_co_records_delete_ids, n, 1);
	will_return(__wrap_repo_co_records_delete_ids, 0);
	assert_int_equal(apitest_run(api_co_records_delete), 0);
	assert_string_equal(mock.keycols, "marketoGUID");
	assert_string_equal(apitest_member(0, "status"), "\"deleted\"");
	will_return(__wrap_repo_co_records_lookup, 1);
	expect_value(__wrap_repo_co_records_delete_ids, n, 1);
	will_return(__wrap_repo_co_records_delete_ids, -REPO_ERR_DEADLOCK);
	apitest_fails(api_co_records_delete, NULL, -API_ERR_TIMEOUT, NULL);
	apitest_fails(api_co_records_delete, "{\"deleteBy\":\"key\","
	    "\"input\":[{}]}", -API_ERR_INVALID_REQUEST,
	    "Invalid deleteBy 'key' value");
	apitest_fails(api_co_records_delete, "{}", -API_ERR_INVALID_REQUEST,
	    "Objects not specified: 'input' must be a non-empty array");
}

/* ---- Get Custom Objects ---- */

static void
test_get_by_filter(void **state)
{
	(void)state;
	req->path_params[0] = "car_c";
	apitest_param("filterType", "vin");
	apitest_param("filterValues", "A,B");
	will_return(__wrap_repo_co_records_lookup, 1);
	assert_int_equal(apitest_run(api_co_records_get), 0);
	assert_string_equal(mock.keycols, "vin");
	assert_string_equal(mock.keys, "A,B");
	/* The default columns: the GUID, the dedupe fields, the dates. */
	assert_string_equal(mock.cols, "marketoGUID,vin,updatedAt,createdAt");
	assert_int_equal(mock.limit, MAX_BATCH_SIZE + 1);
	assert_string_equal(apitest_result(), "[{\"seq\":0,\"marketoGUID\":"
	    "\"00000000-aaaa-4bbb-8ccc-dddddddddddd\",\"vin\":\"A\","
	    "\"updatedAt\":\"2024-05-06T07:08:09Z\",\"createdAt\":"
	    "\"2024-05-06T07:08:09Z\"}]");
	assert_int_equal(resp->more_result, 0);
	/* fields: typed, each once, any case. */
	apitest_again();
	apitest_param("filterType", "idField");
	apitest_param("filterValues", "00000001-AAAA-4BBB-8CCC-DDDDDDDDDDDD");
	apitest_param("fields", "MILES,color,miles");
	will_return(__wrap_repo_co_records_lookup, 1);
	assert_int_equal(apitest_run(api_co_records_get), 0);
	assert_string_equal(mock.keycols, "marketoGUID");
	assert_string_equal(mock.keys, "00000001-aaaa-4bbb-8ccc-dddddddddddd");
	assert_string_equal(mock.cols, "miles,color");
	assert_string_equal(apitest_result(), "[{\"seq\":0,\"marketoGUID\":"
	    "\"00000000-aaaa-4bbb-8ccc-dddddddddddd\",\"miles\":1200,"
	    "\"color\":null}]");
}

static void
test_get_paging(void **state)
{
	char token[64];

	(void)state;
	req->path_params[0] = "car_c";
	apitest_param("filterType", "owner");
	apitest_param("filterValues", "5,6,7");
	apitest_param("batchSize", "2");
	will_return(__wrap_repo_co_records_lookup, 7);
	assert_int_equal(apitest_run(api_co_records_get), 0);
	assert_int_equal(mock.limit, 3);
	assert_string_equal(mock.keys, "5,6,7");
	assert_int_equal(json_object_array_length(resp->result), 2);
	assert_int_equal(resp->more_result, 1);
	snprintf(token, sizeof(token), "%s", resp->next_page_token);
	apitest_again();
	apitest_param("filterType", "owner");
	apitest_param("filterValues", "5,6,7");
	apitest_param("nextPageToken", token);
	will_return(__wrap_repo_co_records_lookup, 4);
	assert_int_equal(apitest_run(api_co_records_get), 0);
	/* After the last row shown (id 100 + seq 1). */
	assert_int_equal(mock.after, 101);
	assert_int_equal(resp->more_result, 0);
	assert_null(resp->next_page_token);
	/* The token is for those values only. */
	apitest_again();
	apitest_param("filterType", "owner");
	apitest_param("filterValues", "5,6");
	apitest_param("nextPageToken", token);
	apitest_fails(api_co_records_get, NULL, -API_ERR_INVALID_REQUEST,
	    "Invalid nextPageToken");
}

static void
test_get_compound(void **state)
{
	(void)state;
	req->path_params[0] = "pair_c";
	apitest_param("filterType", "dedupeFields");
	apitest_param("filterValues", "x");
	apitest_fails(api_co_records_get, NULL, -API_ERR_INVALID_REQUEST,
	    "A compound key is looked up with an 'input' array of objects "
	    "(POST ?_method=GET with a JSON body)");
	/* A JSON input gives every part; filterType defaults to the key. */
	apitest_again();
	apitest_body("{\"input\":[{\"a\":\"x\",\"b\":1},{\"a\":\"\",\"b\":2},"
	    "{\"a\":\"y\",\"b\":3}],\"fields\":[\"b\"]}");
	will_return(__wrap_repo_co_records_lookup, 2);
	assert_int_equal(apitest_run(api_co_records_get), 0);
	assert_string_equal(mock.keycols, "a,b");
	/* A key with an empty part matches nothing: not looked up. */
	assert_int_equal(mock.nkeys, 2);
	assert_string_equal(mock.keys, "x,1,y,3");
	assert_string_equal(mock.cols, "b");
	/* Its seq is the input's. */
	assert_string_equal(apitest_result(), "[{\"seq\":2,\"marketoGUID\":"
	    "\"00000001-aaaa-4bbb-8ccc-dddddddddddd\",\"b\":null}]");
	apitest_fails(api_co_records_get, "{\"input\":[{\"a\":\"x\"}]}",
	    -API_ERR_INVALID_REQUEST, "Each input must give 'b'");
	apitest_fails(api_co_records_get, "{\"input\":{\"a\":\"x\"}}",
	    -API_ERR_INVALID_VALUE, "Invalid value for 'input': an array "
	    "expected");
	/* Only empty keys: no lookup at all. */
	apitest_again();
	apitest_body("{\"input\":[{\"a\":\"\",\"b\":1}]}");
	assert_int_equal(apitest_run(api_co_records_get), 0);
	assert_null(resp->result);
	assert_int_equal(mock.lookups, 1);
}

static void
test_get_errors(void **state)
{
	static char many[MAX_FILTER_VALUES + 1][8];
	size_t i;

	(void)state;
	req->path_params[0] = "car_c";
	apitest_fails(api_co_records_get, NULL, -API_ERR_INVALID_REQUEST,
	    "filterType not specified");
	apitest_param("filterType", "color");
	apitest_fails(api_co_records_get, NULL, -API_ERR_INVALID_REQUEST,
	    "Invalid filterType 'color'");
	apitest_again();
	apitest_param("filterType", "vin");
	apitest_fails(api_co_records_get, NULL, -API_ERR_INVALID_REQUEST,
	    "filterValues not specified");
	apitest_again();
	apitest_param("filterType", "miles");
	apitest_param("filterValues", "1");
	apitest_fails(api_co_records_get, NULL, -API_ERR_INVALID_REQUEST,
	    "Invalid filterType 'miles'");
	apitest_again();
	apitest_param("filterType", "owner");
	apitest_param("filterValues", "x");
	apitest_fails(api_co_records_get, NULL, -API_ERR_INVALID_REQUEST,
	    "Invalid value for field 'owner' and value 'x'");
	apitest_again();
	apitest_param("filterType", "vin");
	apitest_param("filterValues", "A");
	apitest_param("fields", "wheels");
	apitest_fails(api_co_records_get, NULL, -API_ERR_FIELD_NOT_FOUND,
	    "Field 'wheels' not found");
	apitest_again();
	apitest_param("filterType", "vin");
	apitest_param("filterValues", "A");
	apitest_param("batchSize", "0");
	apitest_fails(api_co_records_get, NULL, -API_ERR_INVALID_REQUEST,
	    "Invalid batchSize '0': 1 to 300");
	apitest_again();
	apitest_param("filterType", "vin");
	for (i = 0; i < MAX_FILTER_VALUES + 1; i++) {
		snprintf(many[i], sizeof(many[i]), "v%zu", i);
		apitest_param("filterValues", many[i]);
	}
	apitest_fails(api_co_records_get, NULL, -API_ERR_INVALID_REQUEST,
	    "Too many filter values: 301 (the limit is 300)");
	req->path_params[0] = "nope_c";
	apitest_fails(api_co_records_get, NULL, -API_ERR_OBJECT_NOT_FOUND,
	    "Custom object 'nope_c' not found (or not approved)");
	assert_int_equal(mock.lookups, 0);
}

#define T(f)	cmocka_unit_test_setup_teardown(f, setup, apitest_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_list_and_describe),
		T(test_sync_ok),
		T(test_sync_record_skips),
		T(test_sync_actions),
		T(test_sync_by_guid),
		T(test_sync_links),
		T(test_sync_conflict_retry),
		T(test_sync_request_errors),
		T(test_delete),
		T(test_delete_by_guid_and_errors),
		T(test_get_by_filter),
		T(test_get_paging),
		T(test_get_compound),
		T(test_get_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
