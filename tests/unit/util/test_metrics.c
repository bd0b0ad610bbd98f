/*
 * The shared counters of GET /metrics (src/util/metrics.c): what a child
 * process counts is seen by its parent (the mapping is made before fork),
 * results get one table entry each, durations land in the right bucket,
 * and limit refusals are counted by code.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "err.h"
#include "util/metrics.h"

/* The table index of (status, err) in s, or -1. */
static int
find(const struct metrics_snapshot *s, int status, int err)
{
	size_t i;

	for (i = 0; i < s->nresults; i++)
		if (s->results[i].status == status && s->results[i].err == err)
			return (int)i;
	return -1;
}

static void
test_children_count_into_the_parent(void **state)
{
	struct metrics *m;
	struct metrics_snapshot *s;
	pid_t pid[3];
	int i, j, st, idx;

	(void)state;
	s = malloc(sizeof(*s));
	assert_non_null(s);
	assert_non_null(m = metrics_create());
	for (i = 0; i < 3; i++) {
		pid[i] = fork();
		assert_true(pid[i] >= 0);
		if (pid[i] == 0) {
			for (j = 0; j < 1000; j++)
				metrics_request(m, 7, 200, 0, 1000);
			_exit(0);
		}
	}
	for (i = 0; i < 3; i++) {
		assert_int_equal(waitpid(pid[i], &st, 0), pid[i]);
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	metrics_snapshot(m, s);
	assert_int_equal(s->nresults, 1);
	assert_int_not_equal(idx = find(s, 200, 0), -1);
	assert_int_equal(s->requests[7][idx], 3000);
	assert_int_equal(s->buckets[7][0], 3000);
	assert_int_equal(s->sum_usec[7], 3000000);
	assert_int_equal(s->requests[6][idx], 0);
	metrics_destroy(m);
	free(s);
}

static void
test_results_and_refusals(void **state)
{
	struct metrics *m;
	struct metrics_snapshot *s;
	int a, b, c;

	(void)state;
	s = malloc(sizeof(*s));
	assert_non_null(s);
	assert_non_null(m = metrics_create());
	metrics_request(m, 0, 200, -API_ERR_INVALID_REQUEST, 10);
	metrics_request(m, 0, 200, API_ERR_INVALID_REQUEST, 10);
	metrics_request(m, 1, 200, -API_ERR_RATE_LIMIT, 10);
	metrics_request(m, 1, 200, -API_ERR_DAILY_QUOTA, 10);
	metrics_request(m, 1, 200, -API_ERR_CONCURRENCY, 10);
	metrics_request(m, 1, 200, -API_ERR_CONCURRENCY, 10);
	/* Past the table: the last slot, unrouted. */
	metrics_request(m, METRICS_NO_ROUTE + 5, 413, -API_ERR_TOO_LARGE, 10);
	metrics_snapshot(m, s);
	assert_int_equal(s->nresults, 5);
	assert_int_not_equal(a = find(s, 200, API_ERR_INVALID_REQUEST), -1);
	assert_int_equal(s->requests[0][a], 2);
	assert_int_not_equal(b = find(s, 200, API_ERR_CONCURRENCY), -1);
	assert_int_equal(s->requests[1][b], 2);
	assert_int_not_equal(c = find(s, 413, API_ERR_TOO_LARGE), -1);
	assert_int_equal(s->requests[METRICS_NO_ROUTE][c], 1);
	assert_int_equal(s->refusals[METRICS_LIMIT_RATE], 1);
	assert_int_equal(s->refusals[METRICS_LIMIT_QUOTA], 1);
	assert_int_equal(s->refusals[METRICS_LIMIT_CONCURRENCY], 2);
	assert_string_equal(metrics_limit_code(METRICS_LIMIT_RATE), "606");
	assert_string_equal(metrics_limit_code(METRICS_LIMIT_QUOTA), "607");
	assert_string_equal(metrics_limit_code(METRICS_LIMIT_CONCURRENCY),
	    "615");
	assert_int_equal(s->dropped, 0);
	metrics_db_error(m);
	metrics_db_reconnect(m, true);
	metrics_db_reconnect(m, false);
	metrics_db_reconnect(m, false);
	metrics_set_procs(m, 4, 2);
	metrics_page(m, true);
	metrics_page(m, true);
	metrics_page(m, false);
	metrics_db_deadlock(m, true);
	metrics_db_deadlock(m, true);
	metrics_db_deadlock(m, true);
	metrics_db_deadlock(m, false);
	metrics_snapshot(m, s);
	assert_int_equal(s->db_deadlock_retries, 3);
	assert_int_equal(s->db_deadlock_exhausted, 1);
	assert_int_equal(s->page_hits, 2);
	assert_int_equal(s->page_misses, 1);
	assert_int_equal(s->db_errors, 1);
	assert_int_equal(s->db_reconnects, 1);
	assert_int_equal(s->db_reconnect_failures, 2);
	assert_int_equal(s->workers, 4);
	assert_int_equal(s->runners, 2);
	/* NULL counts nothing and does not crash. */
	metrics_request(NULL, 0, 200, 0, 1);
	metrics_db_error(NULL);
	metrics_db_reconnect(NULL, true);
	metrics_page(NULL, true);
	metrics_db_deadlock(NULL, true);
	metrics_set_procs(NULL, 1, 1);
	metrics_destroy(NULL);
	metrics_destroy(m);
	free(s);
}

static void
test_full_table_drops(void **state)
{
	struct metrics *m;
	struct metrics_snapshot *s;
	int i;

	(void)state;
	s = malloc(sizeof(*s));
	assert_non_null(s);
	assert_non_null(m = metrics_create());
	for (i = 0; i < METRICS_RESULTS + 3; i++)
		metrics_request(m, 0, 100 + i, 0, 1);
	metrics_snapshot(m, s);
	assert_int_equal(s->nresults, METRICS_RESULTS);
	assert_int_equal(s->dropped, 3);
	assert_int_equal(s->buckets[0][0], METRICS_RESULTS + 3);
	metrics_destroy(m);
	free(s);
}

static void
test_buckets(void **state)
{
	(void)state;
	assert_int_equal(metrics_bucket_of(0), 0);
	assert_int_equal(metrics_bucket_of(5000), 0);	/* le is inclusive */
	assert_int_equal(metrics_bucket_of(5001), 1);
	assert_int_equal(metrics_bucket_of(1000000), 7);
	assert_int_equal(metrics_bucket_of(10000000), METRICS_BUCKETS - 2);
	assert_int_equal(metrics_bucket_of(10000001), METRICS_BUCKETS - 1);
	assert_int_equal(metrics_bucket_of(UINT64_MAX), METRICS_BUCKETS - 1);
	assert_string_equal(metrics_bucket_le(0), "0.005");
	assert_string_equal(metrics_bucket_le(7), "1");
	assert_string_equal(metrics_bucket_le(METRICS_BUCKETS - 1), "+Inf");
}

static void
test_engine_words(void **state)
{
	struct metrics *m;
	struct metrics_snapshot *s;

	(void)state;
	assert_int_equal(metrics_engine_bucket_of(50000), 0);
	assert_int_equal(metrics_engine_bucket_of(50001), 1);
	assert_int_equal(metrics_engine_bucket_of(300000000),
	    METRICS_ENGINE_BUCKETS - 2);
	assert_int_equal(metrics_engine_bucket_of(300000001),
	    METRICS_ENGINE_BUCKETS - 1);
	assert_string_equal(metrics_engine_bucket_le(0), "0.05");
	assert_string_equal(metrics_engine_bucket_le(METRICS_ENGINE_BUCKETS - 1),
	    "+Inf");
	assert_int_equal(metrics_run_kind_of("trigger"), METRICS_RUN_TRIGGER);
	assert_int_equal(metrics_run_kind_of("flow"), METRICS_RUN_FLOW);
	assert_int_equal(metrics_run_kind_of("Trigger"), -1);
	assert_int_equal(metrics_run_kind_of(NULL), -1);
	assert_string_equal(metrics_run_kind_name(METRICS_RUN_BATCH), "batch");
	assert_string_equal(metrics_step_result_name(METRICS_STEP_SKIPPED),
	    "skipped");
	/* A slot past the last counts in the last; NULL counts nothing. */
	s = malloc(sizeof(*s));
	assert_non_null(s);
	assert_non_null(m = metrics_create());
	metrics_step(m, METRICS_STEP_TYPES + 5, METRICS_STEP_DONE);
	metrics_step(NULL, 0, METRICS_STEP_DONE);
	metrics_first_step(m, METRICS_RUN_FLOW, 0);
	metrics_snapshot(m, s);
	assert_int_equal(s->steps[METRICS_STEP_TYPES - 1][METRICS_STEP_DONE],
	    1);
	assert_int_equal(s->first_step[METRICS_RUN_FLOW][0], 1);
	assert_false(s->queue_sampled);
	metrics_destroy(m);
	free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_children_count_into_the_parent),
		cmocka_unit_test(test_results_and_refusals),
		cmocka_unit_test(test_full_table_drops),
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_engine_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
