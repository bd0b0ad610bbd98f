/*
 * The limits table against a real MariaDB, and two limiters standing in
 * for two hosts that share it.  Needs MAUTO_TEST_DB_SOCKET,
 * MAUTO_TEST_DB_NAME, MAUTO_TEST_DB_USER and MAUTO_TEST_DB_PASSWORD;
 * without them it exits 77 (automake's SKIP).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <mysql.h>

#include "auth/ratelimit.h"
#include "db/pool.h"
#include "err.h"
#include "repo/repo.h"
#include "repo/repo_limits.h"
#include "repo/repo_stats.h"
#include "db/query.h"
#include "util/arena.h"
#include "util/config.h"
#include "itest.h"

static struct config cfg;
static struct db *db;

/* Runs a fixture statement (tests only; production SQL is in src/repo). */
static void
sql(const char *q)
{
	itest_sql(db, q);
}

static int
group_setup(void **state)
{
	(void)state;
	return itest_open(&db, &cfg, NULL, NULL, 0);
}

static int
group_teardown(void **state)
{
	(void)state;
	return itest_close(db, NULL);
}

static int
setup(void **state)
{
	(void)state;
	sql("DELETE FROM limits_host");
	sql("DELETE FROM api_stats_host");
	return 0;
}

static void
upsert(const char *host, int64_t w, int64_t inf, int64_t day, int64_t n)
{
	struct limits_row row = {
		.window_count = w, .inflight = inf, .day_key = day,
		.day_count = n,
	};

	assert_int_equal(repo_limits_upsert(db, host, &row), 0);
}

static void
test_upsert_get(void **state)
{
	struct limits_row row;

	(void)state;
	assert_int_equal(repo_limits_get_by_host(db, "h1", &row),
	    -REPO_ERR_NOT_FOUND);
	upsert("h1", 5, 2, 20240310, 77);
	assert_int_equal(repo_limits_get_by_host(db, "h1", &row), 0);
	assert_int_equal(row.window_count, 5);
	assert_int_equal(row.inflight, 2);
	assert_int_equal(row.day_key, 20240310);
	assert_int_equal(row.day_count, 77);
	/* The same host again updates its one row. */
	upsert("h1", 1, 0, 20240311, 3);
	assert_int_equal(repo_limits_get_by_host(db, "h1", &row), 0);
	assert_int_equal(row.window_count, 1);
	assert_int_equal(row.day_key, 20240311);
	assert_int_equal(row.day_count, 3);
}

static void
test_sum_others(void **state)
{
	struct limits_sums s;

	(void)state;
	assert_int_equal(repo_limits_sum_others(db, "h1", 20240310, 1000, &s),
	    0);
	assert_int_equal(s.window, 0);
	assert_int_equal(s.inflight, 0);
	assert_int_equal(s.day, 0);
	upsert("h1", 50, 5, 20240310, 500);
	upsert("h2", 10, 1, 20240310, 100);
	upsert("h3", 20, 2, 20240310, 200);
	upsert("h4", 40, 4, 20240309, 400);	/* yesterday */
	/* h1's view: everyone else; h4's day does not count. */
	assert_int_equal(repo_limits_sum_others(db, "h1", 20240310, 1000, &s),
	    0);
	assert_int_equal(s.window, 70);
	assert_int_equal(s.inflight, 7);
	assert_int_equal(s.day, 300);
	/* A host that stopped reporting: its window and in-flight counts
	 * go stale, but the calls it made today still count. */
	sql("UPDATE limits_host SET updated_at = NOW(6) - INTERVAL 5 SECOND "
	    "WHERE host = 'h3'");
	assert_int_equal(repo_limits_sum_others(db, "h1", 20240310, 1000, &s),
	    0);
	assert_int_equal(s.window, 50);
	assert_int_equal(s.inflight, 5);
	assert_int_equal(s.day, 300);
	assert_int_equal(repo_limits_sum_others(db, "h2", 20240310, 10000,
	    &s), 0);
	assert_int_equal(s.window, 110);
	assert_int_equal(s.day, 700);
}

/* A monotonic clock the two-host test moves by hand. */
static int64_t fake_now_ms = 1000;

static int64_t
fake_mono_ms(void)
{
	return fake_now_ms;
}

static struct limiter *
host_with(const char *id, int rate, int daily, int window_s, int sync_ms)
{
	struct limiter *lim;

	cfg.host_id = (char *)id;
	cfg.rate_limit_calls = rate;
	cfg.rate_limit_window = window_s;
	cfg.concurrency_limit = 0;
	cfg.daily_quota = daily;
	cfg.limits_sync_ms = sync_ms;
	lim = limiter_create(&cfg);
	assert_non_null(lim);
	return lim;
}

static struct limiter *
host(const char *id, int rate, int daily)
{
	return host_with(id, rate, daily, 20, 10);
}

static int
call(struct limiter *lim)
{
	int r = limiter_admit(lim);

	if (r == 0)
		limiter_release(lim);
	return r;
}

/*
 * Two hosts on a hand-moved clock.  The sync interval is a minute, so a
 * row stays fresh for four minutes of the database's clock: a machine
 * that stalls for a second between two syncs (the CI runs the
 * integration tests two at a time on two cores) cannot make one host
 * miss the other's row.  The clock moves a whole interval before each
 * round of syncs, and the window (an hour) outlasts the test.
 */
static void
test_two_hosts(void **state)
{
	struct limiter *a, *b;
	int i;

	(void)state;
	a = host_with("host-a", 5, 0, 3600, 60000);
	b = host_with("host-b", 5, 0, 3600, 60000);
	limiter_set_clock(a, fake_mono_ms, NULL);
	limiter_set_clock(b, fake_mono_ms, NULL);
	for (i = 0; i < 3; i++)
		assert_int_equal(call(a), 0);
	limiter_tick(a, db);
	limiter_tick(b, db);
	/* B knows of A's 3 calls in the window: 2 left for B. */
	assert_int_equal(call(b), 0);
	assert_int_equal(call(b), 0);
	assert_int_equal(call(b), -API_ERR_RATE_LIMIT);
	/* Until A syncs, A only knows its own 3: a burst gets through. */
	assert_int_equal(call(a), 0);
	/* Not yet due: a tick inside the interval reads nothing new. */
	fake_now_ms += 1000;
	limiter_tick(a, db);
	assert_int_equal(call(a), 0);
	/* A's 5th call is its last: A thinks it has 5, B has 2. */
	fake_now_ms += 60000;
	limiter_tick(b, db);
	limiter_tick(a, db);
	/*
	 * A sees its 5 and B's 2; B sees its 2 and A's 3 (A's row as it
	 * was when B synced): both are at the limit.
	 */
	assert_int_equal(call(a), -API_ERR_RATE_LIMIT);
	assert_int_equal(call(b), -API_ERR_RATE_LIMIT);
	limiter_destroy(a);
	limiter_destroy(b);
}

static void
test_restart_keeps_day(void **state)
{
	struct limiter *a;
	int i;

	(void)state;
	a = host("host-a", 0, 4);
	limiter_tick(a, db);	/* first sync: nothing to adopt */
	for (i = 0; i < 3; i++)
		assert_int_equal(call(a), 0);
	usleep(20 * 1000);
	limiter_tick(a, db);
	limiter_destroy(a);
	/* The host restarts: its shared memory is new, its row is not. */
	a = host("host-a", 0, 4);
	limiter_tick(a, db);
	assert_int_equal(call(a), 0);
	assert_int_equal(call(a), -API_ERR_DAILY_QUOTA);
	limiter_destroy(a);
}

/* One admitted call of the API client whose row id is client. */
static void
counted_call(struct limiter *lim, int64_t client)
{
	assert_int_equal(limiter_admit(lim), 0);
	limiter_release_call(lim, client);
}

/* Three clients: 9001 and 9003 act as one API user. */
static void
stats_clients(void)
{
	sql("DELETE FROM auth_client WHERE id IN (9001, 9002, 9003)");
	sql("INSERT INTO auth_client (id, client_id, name, role_id, scope, "
	    "secret_hash, created_at) SELECT 9000 + n, "
	    "CONCAT('00000000-0000-4000-8000-00000000000', n), "
	    "CONCAT('stats', n), r.id, IF(n = 2, 'b@example.com', "
	    "'a@example.com'), 'x', 0 FROM auth_role r JOIN (SELECT 1 AS n "
	    "UNION ALL SELECT 2 UNION ALL SELECT 3) k WHERE r.name = 'admin'");
}

/* The row of day and item in t (-1 when absent: its count). */
static int64_t
stats_count(const struct db_text_rows *t, int32_t day, const char *item)
{
	size_t i;

	for (i = 0; i < t->count; i++)
		if (db_text_i64(t, i, STATS_COL_DAY) == day &&
		    strcmp(db_text_str(t, i, STATS_COL_ITEM), item) == 0)
			return db_text_i64(t, i, STATS_COL_COUNT);
	return -1;
}

static void
test_stats_rows(void **state)
{
	static const struct stats_row h1[] = {
		{ 20240310, STATS_CALLS, 9001, 5 },
		{ 20240310, STATS_CALLS, 9001, 2 },	/* the same row */
		{ 20240309, STATS_CALLS, 9002, 8 },
		{ 20240301, STATS_CALLS, 9002, 1 },
		{ 20240310, STATS_ERRORS, 609, 1 },
		{ 20240310, STATS_ERRORS, 1004, 2 },
	}, h2[] = {
		{ 20240310, STATS_CALLS, 9003, 4 },
		{ 20240310, STATS_CALLS, 9002, 1 },
		{ 20240310, STATS_ERRORS, 609, 3 },
	};
	struct arena a;
	struct db_text_rows t;

	(void)state;
	arena_init(&a);
	stats_clients();
	assert_int_equal(repo_stats_add(db, "h1", h1, 0), 0);
	assert_int_equal(repo_stats_add(db, "h1", h1, 6), 0);
	assert_int_equal(repo_stats_add(db, "h2", h2, 3), 0);
	/* Calls by API user (scope), summed over hosts and clients. */
	assert_int_equal(repo_stats_read(db, &a, STATS_CALLS, 20240304,
	    20240310, &t), 0);
	assert_int_equal(t.count, 3);
	assert_int_equal(db_text_i64(&t, 0, STATS_COL_DAY), 20240310);
	assert_string_equal(db_text_str(&t, 0, STATS_COL_ITEM),
	    "a@example.com");
	assert_int_equal(stats_count(&t, 20240310, "a@example.com"), 11);
	assert_int_equal(stats_count(&t, 20240310, "b@example.com"), 1);
	assert_int_equal(stats_count(&t, 20240309, "b@example.com"), 8);
	assert_int_equal(repo_stats_read(db, &a, STATS_ERRORS, 20240310,
	    20240310, &t), 0);
	assert_int_equal(t.count, 2);
	assert_int_equal(stats_count(&t, 20240310, "609"), 4);
	assert_int_equal(stats_count(&t, 20240310, "1004"), 2);
	/* A host forgets only its own old rows. */
	assert_int_equal(repo_stats_forget_before(db, "h1", 20240310), 0);
	assert_int_equal(repo_stats_read(db, &a, STATS_CALLS, 20240301,
	    20240310, &t), 0);
	assert_int_equal(t.count, 2);
	assert_int_equal(stats_count(&t, 20240309, "b@example.com"), -1);
	sql("DELETE FROM api_stats_host");
	sql("DELETE FROM auth_client WHERE id IN (9001, 9002, 9003)");
	arena_clear(&a);
}

/* Two hosts count calls and errors; the database has both. */
static void
test_stats_two_hosts(void **state)
{
	struct limiter *a, *b;
	struct arena ar;
	struct db_text_rows t;
	int32_t today = limiter_day_key((int64_t)time(NULL));

	(void)state;
	arena_init(&ar);
	stats_clients();
	a = host_with("host-a", 0, 0, 20, 60000);
	b = host_with("host-b", 0, 0, 20, 60000);
	limiter_set_clock(a, fake_mono_ms, NULL);
	limiter_set_clock(b, fake_mono_ms, NULL);
	counted_call(a, 9001);
	counted_call(a, 9002);
	counted_call(b, 9003);
	limiter_count_error(a, 1003, 1);
	limiter_count_error(b, 1003, 2);
	fake_now_ms += 60000;
	limiter_tick(a, db);
	limiter_tick(b, db);
	/* A restart of host A after a graceful stop loses nothing. */
	counted_call(a, 9001);
	assert_int_equal(limiter_flush(a, db), 0);
	limiter_destroy(a);
	a = host_with("host-a", 0, 0, 20, 60000);
	counted_call(a, 9001);
	assert_int_equal(limiter_flush(a, db), 0);
	assert_int_equal(repo_stats_read(db, &ar, STATS_CALLS, today, today,
	    &t), 0);
	assert_int_equal(stats_count(&t, today, "a@example.com"), 4);
	assert_int_equal(stats_count(&t, today, "b@example.com"), 1);
	assert_int_equal(repo_stats_read(db, &ar, STATS_ERRORS, today, today,
	    &t), 0);
	assert_int_equal(stats_count(&t, today, "1003"), 3);
	limiter_destroy(a);
	limiter_destroy(b);
	sql("DELETE FROM api_stats_host");
	sql("DELETE FROM auth_client WHERE id IN (9001, 9002, 9003)");
	arena_clear(&ar);
}

/* Reads the test database settings; returns -1 when they are not set. */
static int
config_from_env(void)
{
	if (itest_config(&cfg) != 0)
		return -1;
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_upsert_get, setup),
		cmocka_unit_test_setup(test_sum_others, setup),
		cmocka_unit_test_setup(test_two_hosts, setup),
		cmocka_unit_test_setup(test_restart_keeps_day, setup),
		cmocka_unit_test_setup(test_stats_rows, setup),
		cmocka_unit_test_setup(test_stats_two_hosts, setup),
	};

	if (config_from_env() != 0) {
		fprintf(stderr, "MAUTO_TEST_DB_* not set: skipped\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
