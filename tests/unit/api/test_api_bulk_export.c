/*
 * The handlers of api_bulk_export.c without a database: the export job
 * repository, the type read and the static list lookup are mocked at
 * link time (-Wl,--wrap, see Makefile.am); Get Export File reads a real
 * file from a temporary export directory.  The tests assert what a
 * create hands the repository, the job JSON, the request-level errors of
 * the body, the 1029 refusals, paging of Get Export Jobs and the file's
 * status, headers and byte range.
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
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "api/api.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "model/cotype.h"
#include "model/export.h"
#include "repo/repo.h"
#include "repo/repo_bulk_export.h"
#include "repo/repo_co_types.h"
#include "repo/repo_lists.h"
#include "util/config.h"
#include "util/xmalloc.h"

#include "apitest.h"

#define JOB_ID		"0a1b2c3d-0000-4000-8000-00000000000e"
#define JOB_ID_UPPER	"0A1B2C3D-0000-4000-8000-00000000000E"

/* ---- mocks ---- */

int	__wrap_repo_co_types_get(struct db *, const char *, bool,
	    struct co_type *);
int	__wrap_repo_lists_find(struct db *, int32_t, const char *, int32_t *);
int	__wrap_repo_bulk_export_insert(struct db *, const struct export_new *);
int	__wrap_repo_bulk_export_get(struct db *, const char *, int64_t,
	    const char *, struct export_job *);
int	__wrap_repo_bulk_export_list(struct db *, int64_t, const char *,
	    const char *, int64_t, size_t, struct export_job **, size_t *);
int	__wrap_repo_bulk_export_enqueue(struct db *, const char *, int64_t,
	    const char *, int, enum export_refusal *);
int	__wrap_repo_bulk_export_cancel(struct db *, const char *, int64_t,
	    const char *);
int	__wrap_repo_bulk_export_day_bytes(struct db *, int32_t, int64_t *);

static struct {
	/* insert */
	int			 inserts;
	struct export_new	 n;
	char			 fields[256], headers[256], start[32],
				 end[32], link[64], object[64];
	/* get: the job answered, by status (will_return) */
	int			 gets;
	char			 get_id[64];
	int64_t			 get_client;
	char			 get_object[64];
	bool			 expired;
	int32_t			 attempts;
	int64_t			 file_size;
	/* list */
	char			 statuses[128];
	int64_t			 after;
	size_t			 limit;
	size_t			 njobs;
	/* enqueue */
	int			 max_queued;
	enum export_refusal	 why;
	/* lists_find */
	int32_t			 list_id;
	char			 list_name[64];
} mock;

int
__wrap_repo_co_types_get(struct db *db, const char *api_name, bool approved,
    struct co_type *out)
{
	(void)db;
	memset(out, 0, sizeof(*out));
	if (!approved || (strcasecmp(api_name, "car_c") != 0 &&
	    strcasecmp(api_name, "shop_c") != 0))
		return -REPO_ERR_NOT_FOUND;
	out->api_name = xstrdup(strcasecmp(api_name, "car_c") == 0 ?
	    "car_c" : "shop_c");
	out->approved = true;
	apitest_co_field(out, "vin", CO_STRING, true);
	apitest_co_field(out, "color", CO_STRING, false);
	/* car_c links to leads, shop_c does not. */
	if (strcmp(out->api_name, "car_c") == 0)
		apitest_co_field(out, "owner", CO_LINK, false);
	return 0;
}

int
__wrap_repo_lists_find(struct db *db, int32_t id, const char *name,
    int32_t *out)
{
	(void)db;
	mock.list_id = id;
	snprintf(mock.list_name, sizeof(mock.list_name), "%s",
	    name != NULL ? name : "(null)");
	*out = 55;
	return mock_type(int);
}

int
__wrap_repo_bulk_export_insert(struct db *db, const struct export_new *n)
{
	(void)db;
	mock.inserts++;
	mock.n = *n;
	snprintf(mock.object, sizeof(mock.object), "%s", n->object_name);
	snprintf(mock.fields, sizeof(mock.fields), "%s", n->fields);
	snprintf(mock.headers, sizeof(mock.headers), "%s", n->headers);
	snprintf(mock.start, sizeof(mock.start), "%s",
	    n->start != NULL ? n->start : "(null)");
	snprintf(mock.end, sizeof(mock.end), "%s",
	    n->end != NULL ? n->end : "(null)");
	snprintf(mock.link, sizeof(mock.link), "%s",
	    n->link_field != NULL ? n->link_field : "(null)");
	return 0;
}

/* A job of status st (the members a job of that status has). */
static void
job_out(const char *id, const char *object, int st, struct export_job *j)
{
	memset(j, 0, sizeof(*j));
	j->id = 9;
	snprintf(j->export_id, sizeof(j->export_id), "%s", id);
	snprintf(j->object_name, sizeof(j->object_name), "%s", object);
	j->client_ref = 7;
	j->format = EXPORT_CSV;
	j->status = (enum export_status)st;
	j->number_of_records = -1;
	j->file_size = -1;
	j->attempts = mock.attempts;
	snprintf(j->created_at, sizeof(j->created_at), "%s",
	    "2024-03-01 10:00:00");
	if (st != EXPORT_CREATED)
		snprintf(j->queued_at, sizeof(j->queued_at), "%s",
		    "2024-03-01 10:01:00");
	if (st == EXPORT_COMPLETED) {
		snprintf(j->started_at, sizeof(j->started_at), "%s",
		    "2024-03-01 10:02:00");
		snprintf(j->finished_at, sizeof(j->finished_at), "%s",
		    "2024-03-01 10:03:00");
		j->number_of_records = 2;
		j->file_size = mock.file_size;
		snprintf(j->file_checksum, sizeof(j->file_checksum), "%s",
		    "abc123");
		j->file_expired = mock.expired;
	}
}

int
__wrap_repo_bulk_export_get(struct db *db, const char *export_id,
    int64_t client_ref, const char *object_name, struct export_job *out)
{
	int st;

	(void)db;
	mock.gets++;
	snprintf(mock.get_id, sizeof(mock.get_id), "%s", export_id);
	mock.get_client = client_ref;
	snprintf(mock.get_object, sizeof(mock.get_object), "%s", object_name);
	memset(out, 0, sizeof(*out));
	if ((st = mock_type(int)) < 0)
		return st;
	job_out(export_id, object_name, st, out);
	return 0;
}

int
__wrap_repo_bulk_export_list(struct db *db, int64_t client_ref,
    const char *object_name, const char *statuses, int64_t after_id,
    size_t limit, struct export_job **out, size_t *n)
{
	char id[EXPORT_ID_LEN + 1];
	size_t i;

	(void)db;
	assert_int_equal(client_ref, 7);
	assert_string_equal(object_name, "car_c");
	snprintf(mock.statuses, sizeof(mock.statuses), "%s", statuses);
	mock.after = after_id;
	mock.limit = limit;
	*n = mock.njobs < limit ? mock.njobs : limit;
	*out = xcalloc(*n + 1, sizeof(**out));
	for (i = 0; i < *n; i++) {
		snprintf(id, sizeof(id), "0a1b2c3d-0000-4000-8000-%012d",
		    (int)i % 1000);
		job_out(id, object_name, EXPORT_QUEUED, &(*out)[i]);
		(*out)[i].id = after_id + 1 + (int64_t)i;
	}
	return 0;
}

int
__wrap_repo_bulk_export_enqueue(struct db *db, const char *export_id,
    int64_t client_ref, const char *object_name, int max_queued,
    enum export_refusal *why)
{
	(void)db;
	(void)client_ref;
	(void)object_name;
	check_expected(export_id);
	mock.max_queued = max_queued;
	*why = mock.why;
	return mock_type(int);
}

int
__wrap_repo_bulk_export_cancel(struct db *db, const char *export_id,
    int64_t client_ref, const char *object_name)
{
	(void)db;
	(void)client_ref;
	(void)object_name;
	check_expected(export_id);
	return mock_type(int);
}

int
__wrap_repo_bulk_export_day_bytes(struct db *db, int32_t day_key,
    int64_t *out)
{
	(void)db;
	(void)day_key;
	*out = mock_type(int64_t);
	return 0;
}

/* ---- the request ---- */

static struct req *const req = &apitest_req;
static struct resp *const resp = &apitest_resp;
static struct config cfg;
static struct client client;
static char dir[64];

static int
setup(void **state)
{
	memset(&mock, 0, sizeof(mock));
	memset(&cfg, 0, sizeof(cfg));
	memset(&client, 0, sizeof(client));
	client.id = 7;
	mock.attempts = 1;
	apitest_setup(state);
	apitest_app.cfg = &cfg;
	apitest_call.client = &client;
	req->path_params[0] = "car_c";
	req->path_params[1] = JOB_ID_UPPER;
	req->npath_params = 2;
	return 0;
}

static int
teardown(void **state)
{
	char path[128];

	if (dir[0] != '\0') {
		snprintf(path, sizeof(path), "%s/" JOB_ID "-1.csv", dir);
		(void)unlink(path);
		(void)rmdir(dir);
		dir[0] = '\0';
	}
	return apitest_teardown(state);
}

/* ---- Create Export Job ---- */

static void
test_create_updated_at(void **state)
{
	(void)state;
	req->npath_params = 1;
	apitest_body("{\"fields\":[\"VIN\",\"marketoGUID\",\"updatedAt\"],"
	    "\"columnHeaderNames\":{\"vin\":\"VIN #\"},\"format\":\"TSV\","
	    "\"filter\":{\"updatedAt\":{\"startAt\":\"2024-01-01T06:00:00+06:"
	    "00\","
	    "\"endAt\":\"2024-01-31T00:00:00Z\"}}}");
	will_return(__wrap_repo_bulk_export_get, EXPORT_CREATED);
	assert_int_equal(apitest_run(api_bulk_export_create), 0);
	assert_int_equal(mock.inserts, 1);
	assert_true(export_id_valid(mock.n.export_id));
	assert_int_equal(mock.n.client_ref, 7);
	assert_string_equal(mock.object, "car_c");
	assert_int_equal(mock.n.format, EXPORT_TSV);
	assert_string_equal(mock.fields, "[\"vin\",\"marketoGUID\","
	    "\"updatedAt\"]");
	assert_string_equal(mock.headers, "[\"VIN #\",\"marketoGUID\","
	    "\"updatedAt\"]");
	assert_int_equal(mock.n.filter, EXPORT_FILTER_UPDATED_AT);
	/* In UTC. */
	assert_string_equal(mock.start, "2024-01-01 00:00:00");
	assert_string_equal(mock.end, "2024-01-31 00:00:00");
	/* The job is read back as the client's, by the id given. */
	assert_string_equal(mock.get_id, mock.n.export_id);
	assert_int_equal(mock.get_client, 7);
	assert_string_equal(apitest_member(0, "status"), "\"Created\"");
	assert_string_equal(apitest_member(0, "createdAt"),
	    "\"2024-03-01T10:00:00Z\"");
	assert_false(json_object_object_get_ex(json_object_array_get_idx(
	    resp->result, 0), "queuedAt", NULL));
}

static void
test_create_static_list(void **state)
{
	(void)state;
	req->npath_params = 1;
	apitest_body("{\"fields\":[\"vin\"],\"filter\":{\"staticListId\":12}}");
	will_return(__wrap_repo_lists_find, 0);
	will_return(__wrap_repo_bulk_export_get, EXPORT_CREATED);
	assert_int_equal(apitest_run(api_bulk_export_create), 0);
	assert_int_equal(mock.list_id, 12);
	assert_string_equal(mock.list_name, "(null)");
	assert_int_equal(mock.n.filter, EXPORT_FILTER_STATIC_LIST);
	assert_int_equal(mock.n.list_id, 55);
	assert_string_equal(mock.link, "owner");
	assert_int_equal(mock.n.format, EXPORT_CSV);
	/* By name; and lists that do not exist. */
	apitest_again();
	apitest_body("{\"fields\":[\"vin\"],\"filter\":{\"staticListName\":"
	    "\"VIPs\"}}");
	will_return(__wrap_repo_lists_find, -REPO_ERR_NOT_FOUND);
	apitest_fails(api_bulk_export_create, NULL, -API_ERR_INVALID_REQUEST,
	    "Static list 'VIPs' not found");
	assert_string_equal(mock.list_name, "VIPs");
	will_return(__wrap_repo_lists_find, -REPO_ERR_NOT_FOUND);
	apitest_fails(api_bulk_export_create, "{\"fields\":[\"vin\"],"
	    "\"filter\":{\"staticListId\":99}}", -API_ERR_INVALID_REQUEST,
	    "Static list 99 not found");
	apitest_fails(api_bulk_export_create, "{\"fields\":[\"vin\"],"
	    "\"filter\":{\"staticListId\":\"12\"}}", -API_ERR_INVALID_VALUE,
	    "Invalid value '\"12\"'. Required of type 'integer'");
	/* A type without a link to leads has no list members. */
	req->path_params[0] = "shop_c";
	apitest_fails(api_bulk_export_create, "{\"fields\":[\"vin\"],"
	    "\"filter\":{\"staticListId\":12}}", -API_ERR_INVALID_REQUEST,
	    "Custom object type 'shop_c' has no link field to leads; filter it "
	    "by updatedAt");
	assert_int_equal(mock.inserts, 1);
}

static void
test_create_body_errors(void **state)
{
	static const struct {
		const char	*json;
		int		 err;
		const char	*msg;
	} bad[] = {
		{ "[]", -API_ERR_INVALID_REQUEST, "The request body must be a "
		  "JSON object with fields and filter" },
		{ "{\"fields\":[\"vin\"],\"filter\":{},\"x\":1}",
		  -API_ERR_INVALID_REQUEST, "Unknown member 'x'" },
		{ "{\"filter\":{}}", -API_ERR_INVALID_REQUEST,
		  "fields must be a non-empty array of field names" },
		{ "{\"fields\":[]}", -API_ERR_INVALID_REQUEST,
		  "fields must be a non-empty array of field names" },
		{ "{\"fields\":[5]}", -API_ERR_INVALID_VALUE,
		  "Invalid value '5'. Required of type 'string'" },
		{ "{\"fields\":[\"wheels\"]}", -API_ERR_INVALID_REQUEST,
		  "Invalid fields [wheels]" },
		{ "{\"fields\":[\"site\",\"vin\",\"billingStreet\"]}",
		  -API_ERR_INVALID_REQUEST, "Invalid fields [site, billingStreet]" },
		{ "{\"fields\":[\"vin\",\"VIN\"]}", -API_ERR_INVALID_REQUEST,
		  "Field 'vin' is listed twice" },
		{ "{\"fields\":[\"vin\"],\"columnHeaderNames\":[]}",
		  -API_ERR_INVALID_REQUEST, "columnHeaderNames must be an "
		  "object of field names and header names" },
		{ "{\"fields\":[\"vin\"],\"columnHeaderNames\":{\"color\":"
		  "\"C\"}}", -API_ERR_INVALID_REQUEST,
		  "columnHeaderNames: 'color' is not one of the fields" },
		{ "{\"fields\":[\"vin\"],\"columnHeaderNames\":{\"vin\":\"\"}}",
		  -API_ERR_INVALID_REQUEST, "columnHeaderNames: the header of "
		  "'vin' must be a string of 1 to 255 characters" },
		{ "{\"fields\":[\"vin\"],\"format\":\"XML\"}",
		  -API_ERR_INVALID_REQUEST,
		  "Invalid format 'XML': use CSV, TSV or SSV" },
		{ "{\"fields\":[\"vin\"]}", -API_ERR_INVALID_REQUEST,
		  "filter must have exactly one of updatedAt, staticListId and "
		  "staticListName" },
		{ "{\"fields\":[\"vin\"],\"filter\":{\"staticListId\":1,"
		  "\"staticListName\":\"a\"}}", -API_ERR_INVALID_REQUEST,
		  "filter must have exactly one of updatedAt, staticListId and "
		  "staticListName" },
		{ "{\"fields\":[\"vin\"],\"filter\":{\"smartListId\":1}}",
		  -API_ERR_FILTER_UNSUPPORTED, NULL },
		{ "{\"fields\":[\"vin\"],\"filter\":{\"createdAt\":1}}",
		  -API_ERR_INVALID_REQUEST, "Unsupported filter 'createdAt'" },
		{ "{\"fields\":[\"vin\"],\"filter\":{\"updatedAt\":1}}",
		  -API_ERR_INVALID_REQUEST, "filter updatedAt must be an "
		      "object "
		  "with startAt and endAt" },
		{ "{\"fields\":[\"vin\"],\"filter\":{\"updatedAt\":{\"endAt\":"
		  "\"2024-01-02\"}}}", -API_ERR_INVALID_REQUEST,
		  "filter updatedAt: startAt is required" },
		{ "{\"fields\":[\"vin\"],\"filter\":{\"updatedAt\":"
		    "{\"startAt\":"
		  "\"2024-01-01\",\"endAt\":\"2024-01-02\",\"tz\":1}}}",
		  -API_ERR_INVALID_REQUEST,
		  "filter updatedAt: unknown member 'tz'" },
		{ "{\"fields\":[\"vin\"],\"filter\":{\"updatedAt\":"
		    "{\"startAt\":"
		  "\"yesterday\",\"endAt\":\"2024-01-02\"}}}",
		  -API_ERR_INVALID_REQUEST, "filter updatedAt: startAt "
		  "'yesterday' is not an ISO-8601 date and time" },
		{ "{\"fields\":[\"vin\"],\"filter\":{\"updatedAt\":"
		    "{\"startAt\":"
		  "\"2024-01-02\",\"endAt\":\"2024-01-01\"}}}",
		  -API_ERR_INVALID_REQUEST,
		  "filter updatedAt: endAt is before startAt" },
		{ "{\"fields\":[\"vin\"],\"filter\":{\"updatedAt\":"
		    "{\"startAt\":"
		  "\"2024-01-01\",\"endAt\":\"2024-02-01T00:00:01Z\"}}}",
		  -API_ERR_INVALID_REQUEST,
		  "filter updatedAt: the range may span at most 31 days" },
	};
	size_t i;

	(void)state;
	req->npath_params = 1;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		apitest_fails(api_bulk_export_create, bad[i].json, bad[i].err,
		    bad[i].msg);
	assert_int_equal(mock.inserts, 0);
	/* 31 days exactly is allowed. */
	apitest_body("{\"fields\":[\"vin\"],\"filter\":{\"updatedAt\":"
	    "{\"startAt\":\"2024-01-01\",\"endAt\":\"2024-02-01\"}}}");
	will_return(__wrap_repo_bulk_export_get, EXPORT_CREATED);
	assert_int_equal(apitest_run(api_bulk_export_create), 0);
}

static void
test_create_type_and_quota(void **state)
{
	(void)state;
	req->npath_params = 1;
	req->path_params[0] = "pet_c";
	apitest_fails(api_bulk_export_create, "{\"fields\":[\"vin\"]}",
	    -API_ERR_INVALID_REQUEST, "Custom object type 'pet_c' not found");
	req->path_params[0] = "car_c";
	cfg.export_daily_quota_mb = 1;
	will_return(__wrap_repo_bulk_export_day_bytes, 1024 * 1024);
	apitest_fails(api_bulk_export_create, "{\"fields\":[\"vin\"],"
	    "\"filter\":{\"updatedAt\":{\"startAt\":\"2024-01-01\","
	    "\"endAt\":\"2024-01-02\"}}}", -API_ERR_EXPORT_LIMIT,
	    "Export daily quota 1MB exceeded.");
	assert_int_equal(mock.inserts, 0);
	/* Just below the quota is fine. */
	will_return(__wrap_repo_bulk_export_day_bytes, 1024 * 1024 - 1);
	will_return(__wrap_repo_bulk_export_get, EXPORT_CREATED);
	assert_int_equal(apitest_run(api_bulk_export_create), 0);
	assert_int_equal(mock.inserts, 1);
}

/* ---- status, enqueue, cancel ---- */

static void
test_status(void **state)
{
	(void)state;
	mock.file_size = 1234;
	will_return(__wrap_repo_bulk_export_get, EXPORT_COMPLETED);
	assert_int_equal(apitest_run(api_bulk_export_status), 0);
	/* The id of the path in lower case; the caller's jobs only. */
	assert_string_equal(mock.get_id, JOB_ID);
	assert_int_equal(mock.get_client, 7);
	assert_string_equal(mock.get_object, "car_c");
	assert_string_equal(apitest_result(), "[{\"exportId\":\"" JOB_ID "\","
	    "\"format\":\"CSV\",\"status\":\"Completed\",\"createdAt\":"
	    "\"2024-03-01T10:00:00Z\",\"queuedAt\":\"2024-03-01T10:01:00Z\","
	    "\"startedAt\":\"2024-03-01T10:02:00Z\",\"finishedAt\":"
	    "\"2024-03-01T10:03:00Z\",\"numberOfRecords\":2,\"fileSize\":1234,"
	    "\"fileChecksum\":\"abc123\"}]");
	/* Not a job id: no job has it, without asking. */
	req->path_params[1] = "not-a-job";
	apitest_fails(api_bulk_export_status, NULL, -API_ERR_INVALID_REQUEST,
	    "Export job not found");
	assert_int_equal(mock.gets, 1);
	req->path_params[1] = JOB_ID;
	will_return(__wrap_repo_bulk_export_get, -REPO_ERR_NOT_FOUND);
	apitest_fails(api_bulk_export_status, NULL, -API_ERR_INVALID_REQUEST,
	    "Export job not found");
	will_return(__wrap_repo_bulk_export_get, -REPO_ERR_CONN);
	apitest_fails(api_bulk_export_status, NULL, -API_ERR_UNAVAILABLE,
	    NULL);
}

static void
test_enqueue(void **state)
{
	(void)state;
	will_return(__wrap_repo_bulk_export_get, EXPORT_CREATED);
	expect_string(__wrap_repo_bulk_export_enqueue, export_id, JOB_ID);
	will_return(__wrap_repo_bulk_export_enqueue, 0);
	will_return(__wrap_repo_bulk_export_get, EXPORT_QUEUED);
	assert_int_equal(apitest_run(api_bulk_export_enqueue), 0);
	assert_int_equal(mock.max_queued, EXPORT_MAX_QUEUED);
	assert_string_equal(apitest_member(0, "status"), "\"Queued\"");
	assert_string_equal(apitest_member(0, "queuedAt"),
	    "\"2024-03-01T10:01:00Z\"");
}

static void
test_enqueue_refused(void **state)
{
	(void)state;
	will_return(__wrap_repo_bulk_export_get, EXPORT_QUEUED);
	apitest_fails(api_bulk_export_enqueue, NULL, -API_ERR_EXPORT_LIMIT,
	    "Job already queued");
	will_return(__wrap_repo_bulk_export_get, EXPORT_CREATED);
	expect_string(__wrap_repo_bulk_export_enqueue, export_id, JOB_ID);
	will_return(__wrap_repo_bulk_export_enqueue, -REPO_ERR_CONFLICT);
	mock.why = EXPORT_REFUSED_QUEUE_FULL;
	apitest_fails(api_bulk_export_enqueue, NULL, -API_ERR_EXPORT_LIMIT,
	    "Too many jobs in queue");
	will_return(__wrap_repo_bulk_export_get, EXPORT_CREATED);
	expect_string(__wrap_repo_bulk_export_enqueue, export_id, JOB_ID);
	will_return(__wrap_repo_bulk_export_enqueue, -REPO_ERR_CONFLICT);
	mock.why = EXPORT_REFUSED_NOT_CREATED;
	apitest_fails(api_bulk_export_enqueue, NULL, -API_ERR_EXPORT_LIMIT,
	    "Job already queued");
	will_return(__wrap_repo_bulk_export_get, EXPORT_CREATED);
	expect_string(__wrap_repo_bulk_export_enqueue, export_id, JOB_ID);
	will_return(__wrap_repo_bulk_export_enqueue, -REPO_ERR_NOT_FOUND);
	apitest_fails(api_bulk_export_enqueue, NULL, -API_ERR_INVALID_REQUEST,
	    "Export job not found");
	/* The daily quota, before the queue is asked. */
	cfg.export_daily_quota_mb = 2;
	will_return(__wrap_repo_bulk_export_get, EXPORT_CREATED);
	will_return(__wrap_repo_bulk_export_day_bytes, 3 * 1024 * 1024);
	apitest_fails(api_bulk_export_enqueue, NULL, -API_ERR_EXPORT_LIMIT,
	    "Export daily quota 2MB exceeded.");
}

static void
test_cancel(void **state)
{
	(void)state;
	will_return(__wrap_repo_bulk_export_get, EXPORT_QUEUED);
	expect_string(__wrap_repo_bulk_export_cancel, export_id, JOB_ID);
	will_return(__wrap_repo_bulk_export_cancel, 0);
	will_return(__wrap_repo_bulk_export_get, EXPORT_CANCELLED);
	assert_int_equal(apitest_run(api_bulk_export_cancel), 0);
	assert_string_equal(apitest_member(0, "status"), "\"Cancelled\"");
	/* A finished job: the message says its status as it is now. */
	will_return(__wrap_repo_bulk_export_get, EXPORT_COMPLETED);
	expect_string(__wrap_repo_bulk_export_cancel, export_id, JOB_ID);
	will_return(__wrap_repo_bulk_export_cancel, -REPO_ERR_CONFLICT);
	will_return(__wrap_repo_bulk_export_get, EXPORT_COMPLETED);
	apitest_fails(api_bulk_export_cancel, NULL, -API_ERR_INVALID_REQUEST,
	    "Export job is Completed; only Created, Queued or Processing jobs "
	    "can be cancelled");
	will_return(__wrap_repo_bulk_export_get, -REPO_ERR_NOT_FOUND);
	apitest_fails(api_bulk_export_cancel, NULL, -API_ERR_INVALID_REQUEST,
	    "Export job not found");
}

/* ---- Get Export Jobs ---- */

static void
test_list(void **state)
{
	char token[64];

	(void)state;
	req->npath_params = 1;
	apitest_param("status", "completed,Canceled");
	apitest_param("status", "QUEUED");
	apitest_param("batchSize", "2");
	mock.njobs = 5;
	assert_int_equal(apitest_run(api_bulk_export_list), 0);
	/* Each status once, as the service spells them. */
	assert_string_equal(mock.statuses, "Queued,Completed,Cancelled");
	assert_int_equal(mock.limit, 3);
	assert_int_equal(json_object_array_length(resp->result), 2);
	assert_int_equal(resp->more_result, 1);
	snprintf(token, sizeof(token), "%s", resp->next_page_token);
	apitest_again();
	apitest_param("status", "Queued,Completed,Cancelled");
	apitest_param("nextPageToken", token);
	mock.njobs = 1;
	assert_int_equal(apitest_run(api_bulk_export_list), 0);
	assert_int_equal(mock.after, 2);
	assert_int_equal(mock.limit, MAX_BATCH_SIZE + 1);
	assert_int_equal(resp->more_result, 0);
	assert_null(resp->next_page_token);
	/* Not for another status filter. */
	apitest_again();
	apitest_param("nextPageToken", token);
	apitest_fails(api_bulk_export_list, NULL, -API_ERR_INVALID_REQUEST,
	    "Invalid nextPageToken");
	apitest_again();
	apitest_param("status", "Done");
	apitest_fails(api_bulk_export_list, NULL, -API_ERR_INVALID_REQUEST,
	    "Invalid status 'Done'");
}

static void
test_list_batch_size(void **state)
{
	(void)state;
	req->npath_params = 1;
	/* No jobs: an empty result, not none. */
	assert_int_equal(apitest_run(api_bulk_export_list), 0);
	assert_string_equal(apitest_result(), "[]");
	assert_int_equal(resp->more_result, 0);
	assert_string_equal(mock.statuses, "");
	/* batchSize is cut to 1..300. */
	apitest_again();
	apitest_param("batchSize", "-4");
	assert_int_equal(apitest_run(api_bulk_export_list), 0);
	assert_int_equal(mock.limit, 2);
	apitest_again();
	apitest_param("batchSize", "100000");
	assert_int_equal(apitest_run(api_bulk_export_list), 0);
	assert_int_equal(mock.limit, MAX_BATCH_SIZE + 1);
	apitest_again();
	apitest_param("batchSize", "many");
	apitest_fails(api_bulk_export_list, NULL, -API_ERR_INVALID_VALUE,
	    NULL);
}

/* ---- Get Export File ---- */

/* The export directory with the file of JOB_ID, attempt 1, 12 bytes. */
static void
export_file(void)
{
	char path[128];
	FILE *f;

	snprintf(dir, sizeof(dir), "/tmp/mauto-ut-export-XXXXXX");
	assert_non_null(mkdtemp(dir));
	cfg.export_dir = dir;
	snprintf(path, sizeof(path), "%s/" JOB_ID "-1.csv", dir);
	assert_non_null(f = fopen(path, "w"));
	assert_true(fputs("vin\nA\nB\nCDE\n", f) >= 0);
	assert_int_equal(fclose(f), 0);
	mock.file_size = 12;
}

static void
test_file(void **state)
{
	(void)state;
	export_file();
	will_return(__wrap_repo_bulk_export_get, EXPORT_COMPLETED);
	assert_int_equal(apitest_run(api_bulk_export_file), 0);
	assert_true(resp->has_file);
	assert_int_equal(resp->status, 200);
	assert_int_equal(resp->file_off, 0);
	assert_int_equal(resp->file_len, 12);
	assert_string_equal(resp->content_type, export_format_ctype(
	    EXPORT_CSV));
	assert_string_equal(resp->headers[0], "Accept-Ranges: bytes");
	/* One byte range. */
	apitest_again();
	req->range = "bytes=2-4";
	will_return(__wrap_repo_bulk_export_get, EXPORT_COMPLETED);
	assert_int_equal(apitest_run(api_bulk_export_file), 0);
	assert_int_equal(resp->status, 206);
	assert_int_equal(resp->file_off, 2);
	assert_int_equal(resp->file_len, 3);
	assert_int_equal(resp->nheaders, 2);
	assert_string_equal(resp->headers[1], "Content-Range: bytes 2-4/12");
	/* Past the end. */
	apitest_again();
	req->range = "bytes=40-";
	will_return(__wrap_repo_bulk_export_get, EXPORT_COMPLETED);
	assert_int_equal(apitest_run(api_bulk_export_file), 0);
	assert_false(resp->has_file);
	assert_int_equal(resp->status, 416);
	assert_string_equal(resp->headers[1], "Content-Range: bytes */12");
}

static void
test_file_not_there(void **state)
{
	(void)state;
	export_file();
	will_return(__wrap_repo_bulk_export_get, EXPORT_PROCESSING);
	assert_int_equal(apitest_run(api_bulk_export_file), 0);
	assert_int_equal(resp->status, 404);
	assert_string_equal(resp->text, "Export job " JOB_ID " is Processing: "
	    "its file is not ready\n");
	apitest_again();
	mock.expired = true;
	will_return(__wrap_repo_bulk_export_get, EXPORT_COMPLETED);
	assert_int_equal(apitest_run(api_bulk_export_file), 0);
	assert_string_equal(resp->text, "The export file has expired\n");
	/* A file whose size is not the job's is not sent. */
	apitest_again();
	mock.expired = false;
	mock.file_size = 11;
	will_return(__wrap_repo_bulk_export_get, EXPORT_COMPLETED);
	assert_int_equal(apitest_run(api_bulk_export_file), 0);
	assert_false(resp->has_file);
	assert_string_equal(resp->text, "The export file is missing\n");
	/* An unknown job: plain text too, not an envelope. */
	apitest_again();
	will_return(__wrap_repo_bulk_export_get, -REPO_ERR_NOT_FOUND);
	assert_int_equal(apitest_run(api_bulk_export_file), 0);
	assert_int_equal(resp->status, 404);
	assert_null(resp->err_msg);
	assert_string_equal(resp->text, "Export job not found\n");
	/* A database failure stays an error. */
	apitest_again();
	will_return(__wrap_repo_bulk_export_get, -REPO_ERR_CONN);
	assert_int_equal(apitest_run(api_bulk_export_file),
	    -API_ERR_UNAVAILABLE);
}

#define T(f)	cmocka_unit_test_setup_teardown(f, setup, teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_create_updated_at),
		T(test_create_static_list),
		T(test_create_body_errors),
		T(test_create_type_and_quota),
		T(test_status),
		T(test_enqueue),
		T(test_enqueue_refused),
		T(test_cancel),
		T(test_list),
		T(test_list_batch_size),
		T(test_file),
		T(test_file_not_there),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
