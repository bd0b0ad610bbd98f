/*
 * The campaign reads of api_campaigns.c without a database: the object
 * in the members and order of real replies (program members only for a
 * campaign in a program, description only when set, type trigger or
 * batch), 1013 for an unknown id, and Get Campaigns' filters,
 * isTriggerable and position paging.  The repository is mocked at link
 * time (-Wl,--wrap, see Makefile.am): it records what reached it and
 * answers canned campaigns.
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
#include "model/folder.h"
#include "repo/repo.h"
#include "repo/repo_smart_campaigns.h"
#include "util/arena.h"

#include "apitest.h"

/* What the mocks saw and answer. */
static struct {
	int		 calls;
	struct repo_filter f;
	bool		 trig;
	int64_t		 after;
	int		 limit;
	size_t		 rows;		/* how many campaigns find answers */
	int		 err;
} mock;

int	__wrap_repo_sc_find(struct db *, struct arena *,
	    const struct repo_filter *, bool, int64_t, int, struct repo_sc **,
	    size_t *);
int	__wrap_repo_sc_get(struct db *, struct arena *, int32_t,
	    struct repo_sc *);

/*
 * Campaign id: odd ids stand in program 1003 with a description and a
 * trigger, even ones in folder 12 without either.
 */
static void
campaign(int32_t id, struct repo_sc *s)
{
	memset(s, 0, sizeof(*s));
	s->id = id;
	s->name = id % 2 ? "Odd" : "Even";
	s->workspace = "Default";
	(void)snprintf(s->created_at, sizeof(s->created_at),
	    "2023-01-20 12:46:51");
	(void)snprintf(s->updated_at, sizeof(s->updated_at),
	    "2023-01-23 08:24:16");
	if (id % 2) {
		s->description = "Test";
		s->place.type = FOLDER_T_PROGRAM;
		s->place.id = 1003;
		s->program_name = "API Test Program";
		s->ntriggers = 1;
		s->active = true;
	} else {
		s->place.type = FOLDER_T_FOLDER;
		s->place.id = 12;
		s->nfilters = 1;
	}
}

/* mock.rows campaigns from id after + 1 on. */
int
__wrap_repo_sc_find(struct db *db, struct arena *a,
    const struct repo_filter *f, bool triggerable, int64_t after, int limit,
    struct repo_sc **out, size_t *n)
{
	size_t i;

	(void)db;
	mock.calls++;
	mock.f = *f;
	mock.trig = triggerable;
	mock.after = after;
	mock.limit = limit;
	*out = NULL;
	*n = 0;
	if (mock.err != 0)
		return mock.err;
	if (mock.rows == 0)
		return 0;
	*out = arena_zalloc(a, mock.rows * sizeof(**out));
	for (i = 0; i < mock.rows; i++)
		campaign((int32_t)(after + 1 + (int64_t)i), &(*out)[i]);
	*n = mock.rows;
	return 0;
}

/* Campaigns 1 to 100 exist. */
int
__wrap_repo_sc_get(struct db *db, struct arena *a, int32_t id,
    struct repo_sc *out)
{
	(void)db;
	(void)a;
	mock.calls++;
	if (id < 1 || id > 100)
		return -REPO_ERR_NOT_FOUND;
	campaign(id, out);
	return 0;
}

static int
setup(void **state)
{
	memset(&mock, 0, sizeof(mock));
	return apitest_setup(state);
}

/* By id: the object as recorded replies show it. */
static void
test_get(void **state)
{
	(void)state;
	apitest_req.path_ints[0] = 1;
	assert_int_equal(apitest_run(api_campaigns_get), 0);
	assert_string_equal(apitest_result(), "[{\"id\":1,\"name\":\"Odd\","
	    "\"description\":\"Test\",\"type\":\"trigger\",\"programName\":"
	    "\"API Test Program\",\"programId\":1003,\"workspaceName\":"
	    "\"Default\",\"createdAt\":\"2023-01-20T12:46:51Z\",\"updatedAt\":"
	    "\"2023-01-23T08:24:16Z\",\"active\":true}]");
	apitest_again();
	apitest_req.path_ints[0] = 2;
	assert_int_equal(apitest_run(api_campaigns_get), 0);
	assert_string_equal(apitest_result(), "[{\"id\":2,\"name\":\"Even\","
	    "\"type\":\"batch\",\"workspaceName\":\"Default\",\"createdAt\":"
	    "\"2023-01-20T12:46:51Z\",\"updatedAt\":\"2023-01-23T08:24:16Z\","
	    "\"active\":false}]");
}

/* An unknown id, and one past 32 bits (the repository is not asked). */
static void
test_get_unknown(void **state)
{
	(void)state;
	apitest_req.path_ints[0] = 101;
	apitest_fails(api_campaigns_get, NULL, -API_ERR_OBJECT_NOT_FOUND,
	    "Campaign not found");
	assert_int_equal(mock.calls, 1);
	apitest_req.path_ints[0] = (int64_t)INT32_MAX + 1;
	apitest_fails(api_campaigns_get, NULL, -API_ERR_OBJECT_NOT_FOUND,
	    "Campaign not found");
	apitest_req.path_ints[0] = 0;
	apitest_fails(api_campaigns_get, NULL, -API_ERR_OBJECT_NOT_FOUND,
	    NULL);
	assert_int_equal(mock.calls, 1);
}

/* Filters and isTriggerable reach the repository; one row more is asked. */
static void
test_browse_filters(void **state)
{
	(void)state;
	apitest_param("id", "3,4");
	apitest_param("id", "5");
	apitest_param("name", "a");
	apitest_param("programName", "p");
	apitest_param("workspaceName", "Default");
	apitest_param("isTriggerable", "true");
	assert_int_equal(apitest_run(api_campaigns_browse), 0);
	assert_int_equal(mock.f.nids, 3);
	assert_int_equal(mock.f.ids[2], 5);
	assert_string_equal(mock.f.names[0], "a");
	assert_string_equal(mock.f.programs[0], "p");
	assert_string_equal(mock.f.workspaces[0], "Default");
	assert_true(mock.trig);
	assert_int_equal(mock.limit, 301);
	assert_int_equal(mock.after, 0);
	assert_string_equal(apitest_result(), "[]");
	assert_null(apitest_resp.next_page_token);
	apitest_again();
	apitest_param("isTriggerable", "false");
	apitest_param("batchSize", "1000");
	assert_int_equal(apitest_run(api_campaigns_browse), 0);
	assert_false(mock.trig);
	assert_int_equal(mock.limit, 301);
	apitest_again();
	apitest_param("isTriggerable", "maybe");
	apitest_fails(api_campaigns_browse, NULL, -API_ERR_INVALID_VALUE, NULL);
	apitest_param("id", "0");
	apitest_fails(api_campaigns_browse, NULL, -API_ERR_INVALID_VALUE,
	    "Invalid value '0'. Required of type 'Integer'");
	apitest_again();
	apitest_param("batchSize", "0");
	apitest_fails(api_campaigns_browse, NULL, -API_ERR_INVALID_REQUEST,
	    NULL);
	assert_int_equal(mock.calls, 2);
}

/* A full page has a token; the token pages on only for the same query. */
static void
test_browse_paging(void **state)
{
	char tok[64];

	(void)state;
	mock.rows = 3;
	apitest_param("isTriggerable", "true");
	apitest_param("batchSize", "2");
	assert_int_equal(apitest_run(api_campaigns_browse), 0);
	assert_int_equal(mock.limit, 3);
	assert_string_equal(apitest_member(1, "id"), "2");
	assert_int_equal(apitest_resp.more_result, 1);
	assert_non_null(apitest_resp.next_page_token);
	(void)snprintf(tok, sizeof(tok), "%s", apitest_resp.next_page_token);
	apitest_again();
	mock.rows = 1;
	apitest_param("isTriggerable", "true");
	apitest_param("batchSize", "2");
	apitest_param("nextPageToken", tok);
	assert_int_equal(apitest_run(api_campaigns_browse), 0);
	assert_int_equal(mock.after, 2);
	assert_string_equal(apitest_member(0, "id"), "3");
	assert_null(apitest_resp.next_page_token);
	assert_int_not_equal(apitest_resp.more_result, 1);
	apitest_again();
	apitest_param("nextPageToken", tok);
	apitest_fails(api_campaigns_browse, NULL, -API_ERR_INVALID_REQUEST,
	    "Invalid nextPageToken");
	apitest_again();
	mock.err = -REPO_ERR_INTERNAL;
	assert_int_not_equal(apitest_run(api_campaigns_browse), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_get, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_get_unknown, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_browse_filters, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_browse_paging, setup,
		    apitest_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
