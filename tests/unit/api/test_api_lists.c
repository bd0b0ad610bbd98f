/*
 * The list handlers of api_lists.c without a database: Add to List,
 * Remove from List and Member of List read their lead ids from the query
 * and the JSON body (their union, in order), refuse what they must, and
 * turn each lead's standing into its record; Get Lists reads its filters
 * and paging.  The repository is mocked at link time (-Wl,--wrap, see
 * Makefile.am): it records what reached it and answers canned standings.
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
#include "db/query.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "repo/repo.h"
#include "repo/repo_lists.h"

#include "apitest.h"

/* What the mocks saw and answer. */
static struct {
	int		 calls;
	int32_t		 list;
	enum list_op	 op;
	int64_t		 leads[400];
	size_t		 n;
	int		 err;
	struct repo_filter f;
	int64_t		 after;
	int		 limit;
} mock;

int	__wrap_repo_lists_members_apply(struct db *, int32_t, enum list_op,
	    const int64_t *, size_t, enum list_state *);
int	__wrap_repo_lists_browse(struct db *, struct arena *,
	    const struct repo_filter *, int64_t, int, struct db_text_rows *);

/* Lead 7 is a member, 404 is no lead, any other is not a member. */
int
__wrap_repo_lists_members_apply(struct db *db, int32_t list, enum list_op op,
    const int64_t *leads, size_t n, enum list_state *out)
{
	size_t i;

	(void)db;
	mock.calls++;
	mock.list = list;
	mock.op = op;
	mock.n = n;
	memcpy(mock.leads, leads, n * sizeof(*leads));
	if (mock.err != 0)
		return mock.err;
	for (i = 0; i < n; i++)
		out[i] = leads[i] == 404 ? LIST_NO_LEAD : leads[i] == 7 ?
		    LIST_WAS_MEMBER : LIST_WAS_NOT_MEMBER;
	return 0;
}

/* No lists (the filters and paging are what is looked at). */
int
__wrap_repo_lists_browse(struct db *db, struct arena *a,
    const struct repo_filter *f, int64_t after, int limit,
    struct db_text_rows *out)
{
	(void)db;
	(void)a;
	mock.calls++;
	mock.f = *f;
	mock.after = after;
	mock.limit = limit;
	memset(out, 0, sizeof(*out));
	return mock.err;
}

static int
setup(void **state)
{
	int r;

	memset(&mock, 0, sizeof(mock));
	r = apitest_setup(state);
	apitest_req.path_ints[0] = 12;
	return r;
}

/* Query ids, then body ids, reach the repository in order. */
static void
test_ids_union(void **state)
{
	(void)state;
	apitest_variant(LIST_MEMBERS_ADD);
	apitest_param("id", "7,8");
	apitest_param("id", "9&id=10");
	apitest_body("{\"input\": [{\"id\": 404}, {\"id\": \"11\"}]}");
	assert_int_equal(apitest_run(api_lists_members), 0);
	assert_int_equal(mock.list, 12);
	assert_int_equal(mock.op, LIST_OP_ADD);
	assert_int_equal(mock.n, 6);
	assert_int_equal(mock.leads[0], 7);
	assert_int_equal(mock.leads[3], 10);
	assert_int_equal(mock.leads[4], 404);
	assert_int_equal(mock.leads[5], 11);
	assert_string_equal(apitest_result(), "[{\"id\":7,\"status\":\"added\"},"
	    "{\"id\":8,\"status\":\"added\"},{\"id\":9,\"status\":\"added\"},"
	    "{\"id\":10,\"status\":\"added\"},{\"id\":404,\"status\":"
	    "\"skipped\",\"reasons\":[{\"code\":\"1004\",\"message\":"
	    "\"Lead not found\"}]},{\"id\":11,\"status\":\"added\"}]");
}

/* Each operation's records. */
static void
test_records(void **state)
{
	(void)state;
	apitest_variant(LIST_MEMBERS_REMOVE);
	apitest_param("id", "7,8");
	assert_int_equal(apitest_run(api_lists_members), 0);
	assert_int_equal(mock.op, LIST_OP_REMOVE);
	assert_string_equal(apitest_result(), "[{\"id\":7,\"status\":"
	    "\"removed\"},{\"id\":8,\"status\":\"skipped\",\"reasons\":"
	    "[{\"code\":\"1015\",\"message\":\"Lead not in list\"}]}]");
	apitest_again();
	apitest_variant(LIST_MEMBERS_ISMEMBER);
	apitest_param("id", "7,8");
	assert_int_equal(apitest_run(api_lists_members), 0);
	assert_int_equal(mock.op, LIST_OP_READ);
	assert_string_equal(apitest_result(), "[{\"id\":7,\"status\":"
	    "\"memberof\"},{\"id\":8,\"status\":\"notmemberof\"}]");
}

/* What is refused before the repository, and an unknown list. */
static void
test_refusals(void **state)
{
	char ids[2200];
	size_t i, k = 0;

	(void)state;
	apitest_variant(LIST_MEMBERS_ADD);
	apitest_fails(api_lists_members, NULL, -API_ERR_INVALID_REQUEST,
	    "Leads not specified");
	apitest_fails(api_lists_members, "{\"input\": []}",
	    -API_ERR_INVALID_REQUEST, "Leads not specified");
	apitest_fails(api_lists_members, "{\"input\": {\"id\": 1}}",
	    -API_ERR_INVALID_REQUEST, "input must be an array");
	apitest_fails(api_lists_members, "{\"input\": [{\"id\": 1.5}]}",
	    -API_ERR_INVALID_VALUE, NULL);
	apitest_fails(api_lists_members, "{\"input\": [{\"id\": \"0\"}]}",
	    -API_ERR_INVALID_VALUE, NULL);
	for (i = 0; i < 301; i++)
		k += (size_t)snprintf(ids + k, sizeof(ids) - k, "%s%zu",
		    i > 0 ? "," : "", i + 1);
	apitest_param("id", ids);
	apitest_fails(api_lists_members, "{}", -API_ERR_INVALID_REQUEST,
	    "Too many leads in input (at most 300)");
	assert_int_equal(mock.calls, 0);
	apitest_again();
	apitest_param("id", "1");
	mock.err = -REPO_ERR_NOT_FOUND;
	apitest_fails(api_lists_members, "{}", -API_ERR_OBJECT_NOT_FOUND,
	    "Static list not found");
	assert_int_equal(mock.calls, 1);
	apitest_again();
	apitest_param("id", "1");
	apitest_req.path_ints[0] = (int64_t)INT32_MAX + 1;
	apitest_fails(api_lists_members, "{}", -API_ERR_OBJECT_NOT_FOUND,
	    NULL);
	assert_int_equal(mock.calls, 1);
}

/* node-marketo-rest 0.12 wraps its query in the body. */
static void
test_query_wrapper(void **state)
{
	(void)state;
	apitest_variant(LIST_MEMBERS_REMOVE);
	apitest_body("{\"query\": {\"id\": \"7&id=8\"}, \"headers\": {}}");
	assert_int_equal(apitest_run(api_lists_members), 0);
	assert_int_equal(mock.n, 2);
	assert_int_equal(mock.leads[1], 8);
}

/* Get Lists: filters, batchSize, tokens. */
static void
test_browse(void **state)
{
	(void)state;
	apitest_param("id", "3,4");
	apitest_param("name", "a");
	apitest_param("programName", "p");
	apitest_param("batchSize", "500");
	assert_int_equal(apitest_run(api_lists_browse), 0);
	assert_int_equal(mock.f.nids, 2);
	assert_int_equal(mock.f.ids[1], 4);
	assert_int_equal(mock.f.nnames, 1);
	assert_string_equal(mock.f.programs[0], "p");
	assert_int_equal(mock.f.nworkspaces, 0);
	assert_int_equal(mock.limit, 301);
	assert_int_equal(mock.after, 0);
	assert_string_equal(apitest_result(), "[]");
	apitest_again();
	apitest_param("id", "x");
	apitest_fails(api_lists_browse, NULL, -API_ERR_INVALID_VALUE,
	    "Invalid value 'x'. Required of type 'Integer'");
	apitest_again();
	apitest_param("nextPageToken", "AAAAAAAAAAAAAAAAAAAAAAA=");
	apitest_fails(api_lists_browse, NULL, -API_ERR_INVALID_REQUEST,
	    "Invalid nextPageToken");
	apitest_again();
	apitest_param("batchSize", "0");
	apitest_fails(api_lists_browse, NULL, -API_ERR_INVALID_REQUEST, NULL);
	assert_int_equal(mock.calls, 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_ids_union, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_records, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_refusals, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_query_wrapper, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_browse, setup,
		    apitest_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
