/*
 * api_stats_get (src/api/api_stats.c, docs/behaviour.md §18): the day
 * elements built from the summed rows, one day or seven newest first,
 * empty days included, with repo_stats_read swapped for rows given
 * relative to the day the handler asks up to.
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
#include "auth/ratelimit.h"
#include "db/query.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "repo/repo.h"
#include "repo/repo_stats.h"
#include "util/arena.h"

#include "apitest.h"

int	__wrap_repo_stats_read(struct db *, struct arena *, enum stats_kind,
	    int32_t, int32_t, struct db_text_rows *);

/* A row of the mock: its day as days from the last day asked for. */
struct mock_row {
	int		 day;
	const char	*item;
	const char	*count;
};

static struct {
	const struct mock_row	*rows;
	size_t			 n;
	int			 err;
	enum stats_kind		 kind;
	int32_t			 from, to;
	char			 days[8][16];	/* the rows' day keys */
	const char		*v[8 * STATS_COL__N];
	size_t			 len[8 * STATS_COL__N];
} mock;

int
__wrap_repo_stats_read(struct db *db, struct arena *a, enum stats_kind kind,
    int32_t from, int32_t to, struct db_text_rows *out)
{
	size_t i;

	(void)db;
	(void)a;
	mock.kind = kind;
	mock.from = from;
	mock.to = to;
	memset(out, 0, sizeof(*out));
	if (mock.err != 0)
		return mock.err;
	assert_true(mock.n <= 8);
	for (i = 0; i < mock.n; i++) {
		snprintf(mock.days[i], sizeof(mock.days[i]), "%d",
		    (int)limiter_day_key_add(to, mock.rows[i].day));
		mock.v[i * STATS_COL__N + STATS_COL_DAY] = mock.days[i];
		mock.v[i * STATS_COL__N + STATS_COL_ITEM] = mock.rows[i].item;
		mock.v[i * STATS_COL__N + STATS_COL_COUNT] =
		    mock.rows[i].count;
	}
	for (i = 0; i < mock.n * STATS_COL__N; i++)
		mock.len[i] = strlen(mock.v[i]);
	out->v = mock.v;
	out->len = mock.len;
	out->ncol = STATS_COL__N;
	out->count = mock.n;
	return 0;
}

static int
setup(void **state)
{
	memset(&mock, 0, sizeof(mock));
	return apitest_setup(state);
}

/* The day key d days from key as the API writes it. */
static const char *
date_of(int32_t key, int d)
{
	static char s[8][16];
	static int next;
	char *p = s[next++ % 8];

	key = limiter_day_key_add(key, d);
	snprintf(p, 16, "%04d-%02d-%02d", (int)(key / 10000),
	    (int)(key / 100 % 100), (int)(key % 100));
	return p;
}

/*
 * Runs the handler as operation v over rows; asserts it succeeds, reads
 * rows of kind and asks for days days (ending at mock.to).
 */
static void
run(const struct mock_row *rows, size_t n, enum stats_read v,
    enum stats_kind kind, int days)
{
	mock.rows = rows;
	mock.n = n;
	apitest_variant((int)v);
	assert_int_equal(apitest_run(api_stats_get), 0);
	assert_int_equal(mock.kind, kind);
	assert_int_equal(mock.from, limiter_day_key_add(mock.to, 1 - days));
}

static void
test_daily_usage(void **state)
{
	static const struct mock_row rows[] = {
		{ 0, "a@example.com", "5" },
		{ 0, "b@example.com", "2" },
	};
	char want[256];

	(void)state;
	run(rows, 2, STATS_READ_USAGE, STATS_CALLS, 1);
	snprintf(want, sizeof(want), "[{\"date\":\"%s\",\"total\":7,"
	    "\"users\":[{\"userId\":\"a@example.com\",\"count\":5},"
	    "{\"userId\":\"b@example.com\",\"count\":2}]}]",
	    date_of(mock.to, 0));
	assert_string_equal(apitest_result(), want);
}

static void
test_weekly_errors(void **state)
{
	/* Newest first, as repo_stats_read orders them; a day after the
	 * last one asked for (a clock set back) is passed over. */
	static const struct mock_row rows[] = {
		{ 1, "609", "9" },
		{ 0, "609", "3" },
		{ 0, "1004", "1" },
		{ -2, "1003", "4" },
		{ -6, "610", "1" },
	};
	char want[1024];
	int32_t to;

	(void)state;
	run(rows, 5, STATS_READ_ERRORS_WEEK, STATS_ERRORS, 7);
	to = mock.to;
	snprintf(want, sizeof(want),
	    "[{\"date\":\"%s\",\"total\":4,\"errors\":["
	    "{\"errorCode\":\"609\",\"count\":3},"
	    "{\"errorCode\":\"1004\",\"count\":1}]},"
	    "{\"date\":\"%s\",\"total\":0,\"errors\":[]},"
	    "{\"date\":\"%s\",\"total\":4,\"errors\":["
	    "{\"errorCode\":\"1003\",\"count\":4}]},"
	    "{\"date\":\"%s\",\"total\":0,\"errors\":[]},"
	    "{\"date\":\"%s\",\"total\":0,\"errors\":[]},"
	    "{\"date\":\"%s\",\"total\":0,\"errors\":[]},"
	    "{\"date\":\"%s\",\"total\":1,\"errors\":["
	    "{\"errorCode\":\"610\",\"count\":1}]}]",
	    date_of(to, 0), date_of(to, -1), date_of(to, -2), date_of(to, -3),
	    date_of(to, -4), date_of(to, -5), date_of(to, -6));
	assert_string_equal(apitest_result(), want);
}

static void
test_weekly_usage_empty(void **state)
{
	char want[32];

	(void)state;
	run(NULL, 0, STATS_READ_USAGE_WEEK, STATS_CALLS, 7);
	assert_string_equal(apitest_member(6, "users"), "[]");
	assert_string_equal(apitest_member(6, "total"), "0");
	snprintf(want, sizeof(want), "\"%s\"", date_of(mock.to, -6));
	assert_string_equal(apitest_member(6, "date"), want);
}

static void
test_daily_errors_repo_failure(void **state)
{
	(void)state;
	mock.err = -REPO_ERR_CONN;
	apitest_variant(STATS_READ_ERRORS);
	assert_int_equal(apitest_run(api_stats_get), -API_ERR_UNAVAILABLE);
	assert_int_equal(mock.kind, STATS_ERRORS);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_daily_usage, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_weekly_errors, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_weekly_usage_empty, setup,
		    apitest_teardown),
		cmocka_unit_test_setup_teardown(test_daily_errors_repo_failure,
		    setup, apitest_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
