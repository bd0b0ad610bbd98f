/*
 * The handlers of api_lead_membership.c without a database: the
 * repository calls and the catalogue are swapped for mocks at link time
 * (-Wl,--wrap, see Makefile.am), which record what the handler asked for
 * and answer canned rows or errors.  One success case and one per error
 * branch: request-level errors and messages, per-record results in input
 * order, cookie forms, loser lists, paging and date parameters.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "api/api.h"
#include "api/api_common.h"
#include "api/api_leads_catalog.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_cookies.h"
#include "repo/repo_merge.h"
#include "repo/repo_partitions.h"
#include "repo/repo_programs.h"
#include "util/arena.h"

#include "apitest.h"

/* ---- mocks ---- */

int	__wrap_repo_partitions_list(struct db *,
	    struct repo_partition_list *);
int	__wrap_repo_partitions_lead_update(struct db *,
	    struct repo_partition_move *, size_t);
int	__wrap_repo_programs_get_by_id(struct db *, int32_t,
	    struct repo_program *);
int	__wrap_repo_programs_member_status_update(struct db *,
	    const struct repo_program *, size_t, struct repo_status_change *,
	    size_t);
int	__wrap_repo_programs_list_membership(struct db *,
	    const struct repo_member_query *, struct repo_member_list *);
int	__wrap_repo_programs_program_membership(struct db *,
	    const struct repo_member_query *, struct repo_member_list *);
int	__wrap_repo_programs_campaign_membership(struct db *,
	    const struct repo_member_query *, struct repo_member_list *);
int	__wrap_repo_cookies_associate(struct db *, int64_t,
	    const char *);
int	__wrap_repo_merge(struct db *, int64_t, const int64_t *,
	    size_t, const struct lead_field *, size_t, int64_t *);
int	__wrap_api_leads_catalog_get(struct call *, bool, const struct lead_schema **);

static struct {
	int			 err;		/* what the next call answers */
	int			 calls;
	/* partition update */
	enum repo_rec		 results[8];
	bool			 skip[8];
	char			 parts[8][64];
	size_t			 n;
	/* status */
	size_t			 st;
	/* membership */
	struct repo_member_query q;
	char			 earliest[32], latest[32], ids[64];
	bool			 has_earliest, has_latest, has_ids;
	size_t			 rows;		/* rows to answer */
	/* associate */
	char			 cookie[300];
	int64_t			 lead;
	/* merge */
	int64_t			 losers[32];
	size_t			 nlosers;
	size_t			 nfields;
	int64_t			 missing;
	bool			 fresh;
} mock;

static struct lead_field fields[2];
static struct lead_schema schema = { fields, 2, 1, NULL };

int
__wrap_repo_partitions_list(struct db *db,
    struct repo_partition_list *out)
{
	(void)db;
	mock.calls++;
	out->count = 2;
	out->items = calloc(2, sizeof(*out->items));
	out->items[0].id = 1;
	out->items[0].name = strdup("Default");
	out->items[0].description = strdup("Initial system lead partition");
	out->items[1].id = 4;
	out->items[1].name = strdup("Mexico");
	return mock.err;
}

int
__wrap_repo_partitions_lead_update(struct db *db,
    struct repo_partition_move *m, size_t n)
{
	size_t i;

	(void)db;
	mock.calls++;
	mock.n = n;
	for (i = 0; i < n && i < 8; i++) {
		mock.skip[i] = m[i].skip;
		if (!m[i].skip) {
			snprintf(mock.parts[i], sizeof(mock.parts[i]), "%s",
			    m[i].partition);
			m[i].result = mock.results[i];
		}
	}
	return mock.err;
}

int
__wrap_repo_programs_get_by_id(struct db *db, int32_t id,
    struct repo_program *out)
{
	static const char *const names[] = { "Invited", "Registered",
	    "Attended" };
	size_t i;

	(void)db;
	memset(out, 0, sizeof(*out));
	if (id == 404)
		return -REPO_ERR_NOT_FOUND;
	out->id = id;
	out->name = strdup("Webinar");
	out->type = strdup("program");
	out->channel = strdup("Webinar");
	out->statuses = calloc(3, sizeof(*out->statuses));
	out->nstatuses = 3;
	for (i = 0; i < 3; i++) {
		out->statuses[i].step = (int32_t)i + 1;
		out->statuses[i].name = strdup(names[i]);
		out->statuses[i].success = i == 2;
	}
	return 0;
}

int
__wrap_repo_programs_member_status_update(struct db *db,
    const struct repo_program *p, size_t st, struct repo_status_change *c,
    size_t n)
{
	size_t i;

	(void)db;
	(void)p;
	mock.calls++;
	mock.st = st;
	mock.n = n;
	for (i = 0; i < n && i < 8; i++) {
		mock.skip[i] = c[i].skip;
		if (!c[i].skip)
			c[i].result = mock.results[i];
	}
	return mock.err;
}

static int
membership(const struct repo_member_query *q, struct repo_member_list *out)
{
	size_t i;

	mock.calls++;
	mock.q = *q;
	if ((mock.has_earliest = q->earliest != NULL))
		snprintf(mock.earliest, sizeof(mock.earliest), "%s",
		    q->earliest);
	if ((mock.has_latest = q->latest != NULL))
		snprintf(mock.latest, sizeof(mock.latest), "%s", q->latest);
	if ((mock.has_ids = q->program_ids != NULL))
		snprintf(mock.ids, sizeof(mock.ids), "%s", q->program_ids);
	memset(out, 0, sizeof(*out));
	if (mock.err != 0)
		return mock.err;
	out->items = calloc(mock.rows + 1, sizeof(*out->items));
	for (i = 0; i < mock.rows; i++) {
		out->items[i].id = q->after + 10 * ((int32_t)i + 1);
		snprintf(out->items[i].created_at, REPO_TIME_BYTES, "%s",
		    "2024-01-02T03:04:05Z");
		snprintf(out->items[i].updated_at, REPO_TIME_BYTES, "%s",
		    "2024-02-03T04:05:06Z");
		out->items[i].status = strdup("Invited");
		out->items[i].stream = i == 0 ? strdup("S") : NULL;
	}
	out->count = mock.rows;
	return 0;
}

int
__wrap_repo_programs_list_membership(struct db *db,
    const struct repo_member_query *q, struct repo_member_list *out)
{
	(void)db;
	return membership(q, out);
}

int
__wrap_repo_programs_program_membership(struct db *db,
    const struct repo_member_query *q, struct repo_member_list *out)
{
	(void)db;
	return membership(q, out);
}

int
__wrap_repo_programs_campaign_membership(struct db *db,
    const struct repo_member_query *q, struct repo_member_list *out)
{
	(void)db;
	return membership(q, out);
}

int
__wrap_repo_cookies_associate(struct db *db, int64_t lead,
    const char *cookie)
{
	(void)db;
	mock.calls++;
	mock.lead = lead;
	snprintf(mock.cookie, sizeof(mock.cookie), "%s", cookie);
	return mock.err;
}

int
__wrap_repo_merge(struct db *db, int64_t winner,
    const int64_t *losers, size_t n, const struct lead_field *f, size_t nf,
    int64_t *missing)
{
	(void)db;
	(void)f;
	mock.calls++;
	mock.lead = winner;
	mock.nlosers = n;
	memcpy(mock.losers, losers, n * sizeof(*losers));
	mock.nfields = nf;
	*missing = mock.missing;
	return mock.err;
}

int
__wrap_api_leads_catalog_get(struct call *c, bool fresh, const struct lead_schema **s)
{
	(void)c;
	mock.fresh = fresh;
	*s = &schema;
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

/* ---- associate ---- */

static void
test_associate_ok(void **state)
{
	(void)state;
	req->path_ints[0] = 42;
	apitest_param("cookie", "id:287-GTJ-838&token:"
	    "_mch-marketo.com-1396310362214-"
	    "46169");
	assert_int_equal(apitest_run(api_lead_membership_associate), 0);
	assert_true(resp->no_result);
	assert_int_equal(mock.lead, 42);
	assert_string_equal(mock.cookie, "id:287-GTJ-838&token:_mch-"
	    "marketo.com-1396310362214-46169");
}

static void
test_associate_split(void **state)
{
	(void)state;
	req->path_ints[0] = 42;
	apitest_param("cookie", "id:063-GJP-217");
	apitest_param("token:_mch-marketo.com-1594662481190-60776", "");
	assert_int_equal(apitest_run(api_lead_membership_associate), 0);
	assert_string_equal(mock.cookie, "id:063-GJP-217&token:_mch-"
	    "marketo.com-1594662481190-60776");
}

static void
test_associate_bad(void **state)
{
	static const char *const bad[] = {
		"abc",
		"id:287-GTJ-838",
		"id:287-GTJ-838&token:_mch-marketo.com-1396310362214",
		"id:287-GTJ-838&token:_mch--1396310362214-46169",
		"id:28A-GTJ-838&token:_mch-marketo.com-1396310362214-46169",
		"id:287-GT-838&token:_mch-marketo.com-1396310362214-46169",
		"id:287-GTJ-838&token:_mck-marketo.com-1396310362214-46169",
		"id:287-GTJ-838&token:_mch-marketo.com-13963103622x4-46169",
		"id:287-GTJ-838&token:_mch-market/o.com-1396310362214-46169",
		"id:287-GTJ-838&token:_mch-marketo.com-1396310362214-46169-",
		NULL
	};
	size_t i;

	(void)state;
	req->path_ints[0] = 42;
	for (i = 0; bad[i] != NULL; i++) {
		req->nparams = 0;
		resp->err_msg = NULL;
		apitest_param("cookie", bad[i]);
		assert_int_equal(apitest_run(api_lead_membership_associate),
		    -API_ERR_INVALID_COOKIE);
		assert_non_null(strstr(resp->err_msg, bad[i]));
	}
	assert_int_equal(mock.calls, 0);
	req->nparams = 0;
	assert_int_equal(apitest_run(api_lead_membership_associate),
	    -API_ERR_MISSING_PARAM);
	assert_string_equal(resp->err_msg, "Missing value for the required "
	    "parameter 'cookie'");
}

static void
test_associate_repo_errors(void **state)
{
	(void)state;
	req->path_ints[0] = 42;
	apitest_param("cookie", "id:287-GTJ-838&token:_mch-x.io-1-2");
	mock.err = -REPO_ERR_NOT_FOUND;
	assert_int_equal(apitest_run(api_lead_membership_associate),
	    -API_ERR_LEAD_NOT_FOUND);
	assert_string_equal(resp->err_msg, "Lead '42' not found");
	mock.err = -REPO_ERR_DEADLOCK;
	assert_int_equal(apitest_run(api_lead_membership_associate),
	    -API_ERR_TIMEOUT);
	assert_false(resp->no_result);
}

/* ---- merge ---- */

static void
test_merge_ok(void **state)
{
	(void)state;
	req->path_ints[0] = 1;
	apitest_param("leadId", "7");
	apitest_param("leadIds", "5,7,6");
	apitest_param("leadIds", "5");
	apitest_param("mergeInCRM", "FALSE");
	assert_int_equal(apitest_run(api_lead_membership_merge), 0);
	assert_true(resp->no_result);
	assert_true(mock.fresh);
	assert_int_equal(mock.lead, 1);
	assert_int_equal(mock.nlosers, 3);
	assert_int_equal(mock.losers[0], 7);
	assert_int_equal(mock.losers[1], 5);
	assert_int_equal(mock.losers[2], 6);
	assert_int_equal(mock.nfields, 2);
}

static void
test_merge_bad_losers(void **state)
{
	char many[200];
	int i, n = 0;

	(void)state;
	req->path_ints[0] = 1;
	assert_int_equal(apitest_run(api_lead_membership_merge),
	    -API_ERR_INVALID_REQUEST);
	apitest_param("leadIds", "2,1");
	assert_int_equal(apitest_run(api_lead_membership_merge),
	    -API_ERR_INVALID_REQUEST);
	assert_string_equal(resp->err_msg, "Lead '1' cannot be both the "
	    "winner and a losing lead");
	req->nparams = 0;
	apitest_param("leadId", "x1");
	assert_int_equal(apitest_run(api_lead_membership_merge),
	    -API_ERR_INVALID_VALUE);
	req->nparams = 0;
	apitest_param("leadIds", "0");
	assert_int_equal(apitest_run(api_lead_membership_merge),
	    -API_ERR_INVALID_VALUE);
	req->nparams = 0;
	apitest_param("leadId", "2");
	apitest_param("mergeInCRM", "maybe");
	assert_int_equal(apitest_run(api_lead_membership_merge),
	    -API_ERR_INVALID_VALUE);
	assert_string_equal(resp->err_msg,
	    "Invalid value 'maybe'. Required of type 'boolean'");
	req->nparams = 0;
	for (i = 2; i <= 27; i++)
		n += snprintf(many + n, sizeof(many) - (size_t)n, "%s%d",
		    i > 2 ? "," : "", i);
	apitest_param("leadIds", many);
	assert_int_equal(apitest_run(api_lead_membership_merge),
	    -API_ERR_MERGE_LIMIT);
	assert_int_equal(mock.calls, 0);
}

static void
test_merge_not_found(void **state)
{
	(void)state;
	req->path_ints[0] = 1;
	apitest_param("leadId", "9");
	mock.err = -REPO_ERR_NOT_FOUND;
	mock.missing = 9;
	assert_int_equal(apitest_run(api_lead_membership_merge),
	    -API_ERR_LEAD_NOT_FOUND);
	assert_string_equal(resp->err_msg, "Lead '9' not found");
	mock.err = -REPO_ERR_INTERNAL;
	assert_int_equal(apitest_run(api_lead_membership_merge),
	    -API_ERR_SYSTEM);
}

/* ---- partitions ---- */

static void
test_partitions_list(void **state)
{
	(void)state;
	assert_int_equal(apitest_run(api_lead_membership_partitions_list), 0);
	assert_string_equal(apitest_result(), "[{\"id\":1,\"name\":\"Default\","
	    "\"description\":\"Initial system lead partition\"},{\"id\":4,"
	    "\"name\":\"Mexico\"}]");
	resp_clear(&apitest_resp);
	mock.err = -REPO_ERR_UNAVAILABLE;
	assert_int_equal(apitest_run(api_lead_membership_partitions_list),
	    -API_ERR_UNAVAILABLE);
}

static void
test_partitions_update(void **state)
{
	(void)state;
	apitest_body("{\"input\":[{\"id\":3,\"partitionName\":\"Mexico\"},"
	    "{\"id\":4},{\"id\":\"5\",\"partitionName\":\"X\"},"
	    "{\"id\":6,\"partitionName\":\"Y\"},{\"id\":-1}]}");
	mock.results[0] = REPO_REC_UPDATED;
	mock.results[2] = REPO_REC_NO_LEAD;
	mock.results[3] = REPO_REC_NO_PARTITION;
	assert_int_equal(apitest_run(api_lead_membership_partitions_update), 0);
	assert_int_equal(mock.n, 5);
	assert_false(mock.skip[0]);
	assert_true(mock.skip[1]);
	assert_false(mock.skip[2]);
	assert_true(mock.skip[4]);
	assert_string_equal(mock.parts[0], "Mexico");
	assert_string_equal(apitest_result(), "[{\"id\":3,\"status\":"
	    "\"updated\"},"
	    "{\"id\":4,\"status\":\"skipped\",\"reasons\":[{\"code\":\"1009\","
	    "\"message\":\"Partition name must be specified\"}]},"
	    "{\"id\":5,\"status\":\"skipped\",\"reasons\":[{\"code\":\"1004\","
	    "\"message\":\"Lead not found\"}]},"
	    "{\"id\":6,\"status\":\"skipped\",\"reasons\":[{\"code\":\"1008\","
	    "\"message\":\"Access denied to partition 'Y'\"}]},"
	    "{\"status\":\"skipped\",\"reasons\":[{\"code\":\"1001\","
	    "\"message\":\"Invalid value '-1'. Required of type "
	    "'integer'\"}]}]");
}

static void
test_partitions_update_errors(void **state)
{
	(void)state;
	assert_int_equal(apitest_run(api_lead_membership_partitions_update),
	    -API_ERR_INVALID_REQUEST);
	apitest_body("[1]");
	assert_int_equal(apitest_run(api_lead_membership_partitions_update),
	    -API_ERR_INVALID_REQUEST);
	apitest_body("{\"input\":[{\"id\":1,\"partitionName\":\"A\"}]}");
	mock.err = -REPO_ERR_DEADLOCK;
	assert_int_equal(apitest_run(api_lead_membership_partitions_update),
	    -API_ERR_TIMEOUT);
	assert_null(resp->result);
}

/* ---- program status ---- */

static void
test_status_ok(void **state)
{
	(void)state;
	req->path_ints[0] = 9;
	apitest_body("{\"status\":\"Registered\",\"input\":[{\"id\":1},{\"id\":"
	    "2},"
	    "{\"id\":3},{\"id\":4},{}]}");
	mock.results[0] = REPO_REC_UPDATED;
	mock.results[1] = REPO_REC_NOT_MEMBER;
	mock.results[2] = REPO_REC_NOT_FORWARD;
	mock.results[3] = REPO_REC_NO_LEAD;
	assert_int_equal(apitest_run(api_lead_membership_program_status), 0);
	assert_int_equal(mock.st, 1);
	assert_true(mock.skip[4]);
	assert_string_equal(apitest_result(), "[{\"id\":1,\"status\":"
	    "\"updated\"},"
	    "{\"id\":2,\"status\":\"skipped\",\"reasons\":[{\"code\":\"1013\","
	    "\"message\":\"Lead is not a member of the program\"}]},"
	    "{\"id\":3,\"status\":\"skipped\",\"reasons\":[{\"code\":\"1037\","
	    "\"message\":\"Lead skipped because it is already in or past this "
	    "status\"}]},"
	    "{\"id\":4,\"status\":\"skipped\",\"reasons\":[{\"code\":\"1004\","
	    "\"message\":\"Lead not found\"}]},"
	    "{\"status\":\"skipped\",\"reasons\":[{\"code\":\"1002\","
	    "\"message\":\"Missing value for the required parameter "
	    "'id'\"}]}]");
}

static void
test_status_unknown_status(void **state)
{
	(void)state;
	req->path_ints[0] = 9;
	apitest_body("{\"status\":\"registered\",\"input\":[{\"id\":1}]}");
	assert_int_equal(apitest_run(api_lead_membership_program_status), 0);
	assert_int_equal(mock.calls, 0);
	assert_string_equal(apitest_result(), "[{\"id\":1,\"status\":"
	    "\"skipped\","
	    "\"reasons\":[{\"code\":\"1025\",\"message\":\"Program status not "
	    "found\"}]}]");
}

static void
test_status_errors(void **state)
{
	(void)state;
	req->path_ints[0] = 404;
	apitest_body("{\"status\":\"Registered\",\"input\":[{\"id\":1}]}");
	assert_int_equal(apitest_run(api_lead_membership_program_status),
	    -API_ERR_OBJECT_NOT_FOUND);
	assert_string_equal(resp->err_msg, "Program '404' not found");
	apitest_body("{\"status\":5,\"input\":[{\"id\":1}]}");
	assert_int_equal(apitest_run(api_lead_membership_program_status),
	    -API_ERR_MISSING_PARAM);
	apitest_body("{\"status\":\"Registered\",\"input\":[]}");
	assert_int_equal(apitest_run(api_lead_membership_program_status),
	    -API_ERR_INVALID_REQUEST);
}

/* ---- membership reads ---- */

static void
test_membership_paging(void **state)
{
	char token[64];
	struct json_object *item;

	(void)state;
	req->path_ints[0] = 77;
	apitest_param("batchSize", "2");
	mock.rows = 3;			/* one more than the page */
	apitest_variant(MEMBERSHIP_LISTS);
	assert_int_equal(apitest_run(api_lead_membership_read), 0);
	assert_int_equal(mock.q.lead_id, 77);
	assert_int_equal(mock.q.limit, 3);
	assert_int_equal(mock.q.after, 0);
	assert_int_equal(json_object_array_length(resp->result), 2);
	assert_int_equal(resp->more_result, 1);
	assert_non_null(resp->next_page_token);
	assert_string_equal(apitest_result(), "[{\"listId\":10,\"createdAt\":"
	    "\"2024-01-02T03:04:05Z\",\"updatedAt\":\"2024-02-03T04:05:06Z\"},"
	    "{\"listId\":20,\"createdAt\":\"2024-01-02T03:04:05Z\","
	    "\"updatedAt\":\"2024-02-03T04:05:06Z\"}]");
	snprintf(token, sizeof(token), "%s", resp->next_page_token);
	resp_clear(&apitest_resp);
	/* The token brings back the last id shown. */
	apitest_param("nextPageToken", token);
	mock.rows = 1;
	apitest_variant(MEMBERSHIP_LISTS);
	assert_int_equal(apitest_run(api_lead_membership_read), 0);
	assert_int_equal(mock.q.after, 20);
	assert_int_equal(resp->more_result, 0);
	assert_null(resp->next_page_token);
	resp_clear(&apitest_resp);
	/* Not for another lead, nor for another read. */
	req->path_ints[0] = 78;
	apitest_variant(MEMBERSHIP_LISTS);
	assert_int_equal(apitest_run(api_lead_membership_read),
	    -API_ERR_INVALID_VALUE);
	req->path_ints[0] = 77;
	apitest_variant(MEMBERSHIP_CAMPAIGNS);
	assert_int_equal(apitest_run(api_lead_membership_read),
	    -API_ERR_INVALID_VALUE);
	/* Program rows, in the documented key order. */
	req->nparams = 0;
	resp_clear(&apitest_resp);
	apitest_variant(MEMBERSHIP_PROGRAMS);
	assert_int_equal(apitest_run(api_lead_membership_read), 0);
	assert_int_equal(mock.q.limit, MAX_BATCH_SIZE + 1);
	item = json_object_array_get_idx(resp->result, 0);
	assert_string_equal(json_object_to_json_string_ext(item,
	    JSON_C_TO_STRING_PLAIN), "{\"id\":10,\"progressionStatus\":"
	    "\"Invited\",\"isExhausted\":false,\"acquiredBy\":false,"
	    "\"reachedSuccess\":false,\"stream\":\"S\",\"membershipDate\":"
	    "\"2024-01-02T03:04:05Z\",\"updatedAt\":\"2024-02-03T04:05:06Z\"}");
}

static void
test_membership_params(void **state)
{
	(void)state;
	req->path_ints[0] = 77;
	apitest_param("batchSize", "5000");
	apitest_param("earliestUpdatedAt", "2024-01-02T05:04:05+02:00");
	apitest_param("latestUpdatedAt", "2024-03-01");
	apitest_param("filterType", "programId");
	apitest_param("filterValues", "5,6");
	apitest_param("filterValues", "7");
	apitest_variant(MEMBERSHIP_PROGRAMS);
	assert_int_equal(apitest_run(api_lead_membership_read), 0);
	assert_int_equal(mock.q.limit, MAX_BATCH_SIZE + 1);
	assert_string_equal(mock.earliest, "2024-01-02 03:04:05");
	assert_string_equal(mock.latest, "2024-03-01 00:00:00");
	assert_string_equal(mock.ids, "5,6,7");
	assert_int_equal(resp->more_result, 0);
	assert_string_equal(apitest_result(), "[]");
	resp_clear(&apitest_resp);
	/* The list read takes no filters: they are ignored. */
	apitest_variant(MEMBERSHIP_LISTS);
	assert_int_equal(apitest_run(api_lead_membership_read), 0);
	assert_false(mock.has_earliest);
	assert_false(mock.has_ids);
}

static void
test_membership_errors(void **state)
{
	static const struct {
		const char	*name, *value;
		int		 err;
	} bad[] = {
		{ "batchSize", "0", -API_ERR_INVALID_VALUE },
		{ "batchSize", "-3", -API_ERR_INVALID_VALUE },
		{ "batchSize", "2x", -API_ERR_INVALID_VALUE },
		{ "nextPageToken", "ABC", -API_ERR_INVALID_VALUE },
		{ "earliestUpdatedAt", "2024-02-30", -API_ERR_INVALID_VALUE },
		{ "latestUpdatedAt", "tomorrow", -API_ERR_INVALID_VALUE },
		{ "filterType", "name", -API_ERR_FIELD_NOT_SUPPORTED },
		{ "filterType", "programId", -API_ERR_MISSING_PARAM },
		{ "filterValues", "1", -API_ERR_MISSING_PARAM },
	};
	size_t i;

	(void)state;
	req->path_ints[0] = 77;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		req->nparams = 0;
		apitest_param(bad[i].name, bad[i].value);
		apitest_variant(MEMBERSHIP_PROGRAMS);
		assert_int_equal(apitest_run(api_lead_membership_read),
		    bad[i].err);
	}
	assert_int_equal(mock.calls, 0);
	req->nparams = 0;
	mock.err = -REPO_ERR_CONN;
	apitest_variant(MEMBERSHIP_CAMPAIGNS);
	assert_int_equal(apitest_run(api_lead_membership_read),
	    -API_ERR_UNAVAILABLE);
}

#define T(f)	cmocka_unit_test_setup_teardown(f, setup, apitest_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_associate_ok),
		T(test_associate_split),
		T(test_associate_bad),
		T(test_associate_repo_errors),
		T(test_merge_ok),
		T(test_merge_bad_losers),
		T(test_merge_not_found),
		T(test_partitions_list),
		T(test_partitions_update),
		T(test_partitions_update_errors),
		T(test_status_ok),
		T(test_status_unknown_status),
		T(test_status_errors),
		T(test_membership_paging),
		T(test_membership_params),
		T(test_membership_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
