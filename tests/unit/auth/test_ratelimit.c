/*
 * The limiter without a database: the rolling window at its boundary
 * (injected clock), concurrency across fork()ed workers, a worker dying
 * mid-request or while holding the lock, the US Central day, the off
 * switches, and reconciliation with other hosts through mocked repo
 * calls (linked with -Wl,--wrap).
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "auth/ratelimit.h"
#include "err.h"
#include "bounds.h"
#include "repo/repo.h"
#include "repo/repo_limits.h"
#include "repo/repo_stats.h"
#include "util/config.h"

/* ---- injected clocks ---- */

static int64_t fake_mono;	/* ms */
static int64_t fake_wall;	/* Unix seconds */
static int die_in_clock;	/* a child dies holding the lock */

static int64_t
mono_clock(void)
{
	if (die_in_clock)
		kill(getpid(), SIGKILL);
	return fake_mono;
}

static int64_t
wall_clock(void)
{
	return fake_wall;
}

/* ---- mocked repository (see Makefile.am: --wrap) ---- */

int	__wrap_repo_limits_upsert(struct db *, const char *,
	    const struct limits_row *);
int	__wrap_repo_limits_get_by_host(struct db *, const char *,
	    struct limits_row *);
int	__wrap_repo_limits_sum_others(struct db *, const char *, int64_t,
	    int64_t, struct limits_sums *);
int	__wrap_repo_auth_epoch_get(struct db *, uint64_t *);
int	__wrap_repo_stats_add(struct db *, const char *,
	    const struct stats_row *, size_t);
int	__wrap_repo_stats_forget_before(struct db *, const char *, int32_t);


static struct {
	int			 upserts, gets, sums, epochs;
	struct limits_row	 last_row;
	char			 last_host[MAX_HOST_ID_BYTES + 1];
	int64_t			 last_fresh_ms;
	int64_t			 last_day_key;
	struct limits_row	 own;		/* get_by_host answer */
	int			 own_err;
	struct limits_sums	 sums_answer;
	int			 sums_err;
	uint64_t		 epoch;
	struct stats_row	 stats[LIMITER_STAT_SLOTS + 8];	/* written */
	int			 adds;		/* repo_stats_add calls */
	int			 nstats;
	int			 stats_err;	/* repo_stats_add's answer */
	int			 die_in_add;	/* a child dies flushing */
	int32_t			 forgot_before;
} mock;

int
__wrap_repo_limits_upsert(struct db *db, const char *host,
    const struct limits_row *row)
{
	(void)db;
	mock.upserts++;
	mock.last_row = *row;
	strncpy(mock.last_host, host, sizeof(mock.last_host) - 1);
	return 0;
}

int
__wrap_repo_limits_get_by_host(struct db *db, const char *host,
    struct limits_row *out)
{
	(void)db;
	(void)host;
	mock.gets++;
	*out = mock.own;
	return mock.own_err;
}

int
__wrap_repo_limits_sum_others(struct db *db, const char *host,
    int64_t day_key, int64_t fresh_ms, struct limits_sums *out)
{
	(void)db;
	(void)host;
	mock.sums++;
	mock.last_day_key = day_key;
	mock.last_fresh_ms = fresh_ms;
	*out = mock.sums_answer;
	return mock.sums_err;
}

int
__wrap_repo_auth_epoch_get(struct db *db, uint64_t *out)
{
	(void)db;
	mock.epochs++;
	*out = mock.epoch;
	return 0;
}

int
__wrap_repo_stats_add(struct db *db, const char *host,
    const struct stats_row *rows, size_t n)
{
	size_t i;

	(void)db;
	(void)host;
	mock.adds++;
	if (mock.die_in_add)
		kill(getpid(), SIGKILL);
	if (mock.stats_err != 0)
		return mock.stats_err;
	for (i = 0; i < n; i++) {
		assert_true(mock.nstats < LIMITER_STAT_SLOTS + 8);
		mock.stats[mock.nstats++] = rows[i];
	}
	return 0;
}

int
__wrap_repo_stats_forget_before(struct db *db, const char *host,
    int32_t day_key)
{
	(void)db;
	(void)host;
	mock.forgot_before = day_key;
	return 0;
}

/* ---- helpers ---- */

static struct config cfg;

/* A limiter with the given limits and the fake clocks. */
static struct limiter *
make(int rate, int window, int conc, int daily)
{
	struct limiter *lim;

	memset(&cfg, 0, sizeof(cfg));
	cfg.rate_limit_calls = rate;
	cfg.rate_limit_window = window;
	cfg.concurrency_limit = conc;
	cfg.daily_quota = daily;
	cfg.limits_sync_ms = 250;
	cfg.host_id = (char *)"test-host";
	lim = limiter_create(&cfg);
	assert_non_null(lim);
	limiter_set_clock(lim, mono_clock, wall_clock);
	return lim;
}

/* Admits and releases at once (a call that takes no time). */
static int
call(struct limiter *lim)
{
	int r = limiter_admit(lim);

	if (r == 0)
		limiter_release(lim);
	return r;
}

static int
setup(void **state)
{
	(void)state;
	fake_mono = 1000000;
	fake_wall = 1710000000;	/* 2024-03-09, a Saturday */
	die_in_clock = 0;
	memset(&mock, 0, sizeof(mock));
	return 0;
}

/* ---- rate ---- */

static void
test_rate_boundary(void **state)
{
	struct limiter *lim = make(100, 20, 0, 0);
	int64_t t0 = fake_mono;
	int i;

	(void)state;
	for (i = 0; i < 50; i++)
		assert_int_equal(call(lim), 0);
	fake_mono = t0 + 10000;
	for (i = 0; i < 50; i++)
		assert_int_equal(call(lim), 0);
	assert_int_equal(call(lim), -API_ERR_RATE_LIMIT);
	/* One millisecond before the first 50 leave the window. */
	fake_mono = t0 + 19999;
	assert_int_equal(call(lim), -API_ERR_RATE_LIMIT);
	/* Exactly window later: (now - 20 s, now] no longer holds them. */
	fake_mono = t0 + 20000;
	for (i = 0; i < 50; i++)
		assert_int_equal(call(lim), 0);
	assert_int_equal(call(lim), -API_ERR_RATE_LIMIT);
	/* Refusals were not counted: the second 50 leave at t0 + 30 s. */
	fake_mono = t0 + 29999;
	assert_int_equal(call(lim), -API_ERR_RATE_LIMIT);
	fake_mono = t0 + 30000;
	for (i = 0; i < 50; i++)
		assert_int_equal(call(lim), 0);
	assert_int_equal(call(lim), -API_ERR_RATE_LIMIT);
	limiter_destroy(lim);
}

static void
test_rate_sliding(void **state)
{
	struct limiter *lim = make(3, 1, 0, 0);
	int64_t t0 = fake_mono;

	(void)state;
	/* Calls at 0, 400, 800 ms; the 4th fits only when the 1st left. */
	assert_int_equal(call(lim), 0);
	fake_mono = t0 + 400;
	assert_int_equal(call(lim), 0);
	fake_mono = t0 + 800;
	assert_int_equal(call(lim), 0);
	fake_mono = t0 + 999;
	assert_int_equal(call(lim), -API_ERR_RATE_LIMIT);
	fake_mono = t0 + 1000;
	assert_int_equal(call(lim), 0);
	assert_int_equal(call(lim), -API_ERR_RATE_LIMIT);
	fake_mono = t0 + 1400;
	assert_int_equal(call(lim), 0);
	/* A long quiet spell empties the window entirely. */
	fake_mono = t0 + 100000;
	assert_int_equal(call(lim), 0);
	assert_int_equal(call(lim), 0);
	assert_int_equal(call(lim), 0);
	assert_int_equal(call(lim), -API_ERR_RATE_LIMIT);
	limiter_destroy(lim);
}

static void
test_messages(void **state)
{
	struct limiter *lim = make(100, 20, 10, 50000);
	char buf[128];

	(void)state;
	assert_string_equal(limiter_message(lim, -API_ERR_RATE_LIMIT, buf,
	    sizeof(buf)), "Max rate limit '100' exceeded with in '20' secs");
	assert_string_equal(limiter_message(lim, -API_ERR_CONCURRENCY, buf,
	    sizeof(buf)), "Concurrent access limit '10' reached");
	assert_string_equal(limiter_message(lim, -API_ERR_DAILY_QUOTA, buf,
	    sizeof(buf)), "Daily quota reached");
	assert_string_equal(limiter_message(lim, -API_ERR_SYSTEM, buf,
	    sizeof(buf)), "System error");
	limiter_destroy(lim);
	lim = make(7, 3, 2, 0);
	assert_string_equal(limiter_message(lim, API_ERR_RATE_LIMIT, buf,
	    sizeof(buf)), "Max rate limit '7' exceeded with in '3' secs");
	assert_string_equal(limiter_message(lim, -API_ERR_CONCURRENCY, buf,
	    sizeof(buf)), "Concurrent access limit '2' reached");
	limiter_destroy(lim);
}

/* ---- concurrency ---- */

/* A child: admit, report the result, wait for a byte, release, exit. */
static pid_t
spawn_holder(struct limiter *lim, int report_fd, int *go_fd)
{
	int go[2];
	pid_t pid;
	char c;
	int r;

	assert_int_equal(pipe(go), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(go[1]);
		r = limiter_admit(lim);
		c = r == 0 ? 'y' : 'n';
		if (write(report_fd, &c, 1) != 1)
			_exit(2);
		if (read(go[0], &c, 1) != 1)
			_exit(3);
		if (r == 0)
			limiter_release(lim);
		_exit(0);
	}
	close(go[0]);
	*go_fd = go[1];
	return pid;
}

static void
reap(pid_t pid)
{
	int st;

	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

static void
test_concurrency_fork(void **state)
{
	struct limiter *lim = make(0, 20, 2, 0);
	int rep[2], go_a, go_b;
	pid_t a, b;
	char c;

	(void)state;
	assert_int_equal(pipe(rep), 0);
	a = spawn_holder(lim, rep[1], &go_a);
	assert_int_equal(read(rep[0], &c, 1), 1);
	assert_int_equal(c, 'y');
	b = spawn_holder(lim, rep[1], &go_b);
	assert_int_equal(read(rep[0], &c, 1), 1);
	assert_int_equal(c, 'y');
	/* Two calls in flight in two other processes: a third is refused. */
	assert_int_equal(limiter_admit(lim), -API_ERR_CONCURRENCY);
	assert_int_equal(write(go_a, "x", 1), 1);
	reap(a);
	assert_int_equal(limiter_admit(lim), 0);
	assert_int_equal(limiter_admit(lim), -API_ERR_CONCURRENCY);
	limiter_release(lim);
	assert_int_equal(write(go_b, "x", 1), 1);
	reap(b);
	assert_int_equal(limiter_admit(lim), 0);
	assert_int_equal(limiter_admit(lim), 0);
	assert_int_equal(limiter_admit(lim), -API_ERR_CONCURRENCY);
	limiter_release(lim);
	limiter_release(lim);
	close(go_a);
	close(go_b);
	close(rep[0]);
	close(rep[1]);
	limiter_destroy(lim);
}

static void
test_concurrency_dead_worker(void **state)
{
	struct limiter *lim = make(0, 20, 1, 0);
	pid_t pid;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		/* Dies mid-request: admitted and never released. */
		_exit(limiter_admit(lim) == 0 ? 0 : 1);
	reap(pid);
	/* The dead worker's call does not hold the only place forever. */
	assert_int_equal(limiter_admit(lim), 0);
	assert_int_equal(limiter_admit(lim), -API_ERR_CONCURRENCY);
	limiter_release(lim);
	assert_int_equal(call(lim), 0);
	limiter_destroy(lim);
}

/*
 * A worker forked after its parent made calls counts its own calls in a
 * slot of its own: the parent's process id, which the limiter keeps, is
 * not the child's, and a call the child never ends dies with it.
 */
static void
test_concurrency_fork_after_calls(void **state)
{
	struct limiter *lim = make(0, 20, 1, 0);
	pid_t pid, kid;
	int st;

	(void)state;
	assert_int_equal(limiter_admit(lim), 0);
	limiter_release(lim);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* And its own child, forked after it made a call. */
		if (limiter_admit(lim) != 0)
			_exit(1);
		limiter_release(lim);
		if ((kid = fork()) == 0)
			_exit(limiter_admit(lim) == 0 ? 0 : 1);
		if (kid < 0 || waitpid(kid, &st, 0) != kid ||
		    !WIFEXITED(st) || WEXITSTATUS(st) != 0)
			_exit(2);
		_exit(limiter_admit(lim) == 0 ? 0 : 3);
	}
	reap(pid);
	assert_int_equal(limiter_admit(lim), 0);
	assert_int_equal(limiter_admit(lim), -API_ERR_CONCURRENCY);
	limiter_release(lim);
	limiter_destroy(lim);
}

static void
test_robust_lock(void **state)
{
	struct limiter *lim = make(5, 20, 1, 0);
	pid_t pid;
	int st;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* The clock is read under the lock: die right there. */
		die_in_clock = 1;
		(void)limiter_admit(lim);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGKILL);
	/* The next locker repairs the state instead of hanging. */
	alarm(10);
	assert_int_equal(limiter_admit(lim), 0);
	assert_int_equal(limiter_admit(lim), -API_ERR_CONCURRENCY);
	limiter_release(lim);
	assert_int_equal(call(lim), 0);
	alarm(0);
	limiter_destroy(lim);
}

/* ---- daily quota ---- */

static void
test_day_key(void **state)
{
	static const struct {
		int64_t	 t;
		int32_t	 key;
	} cases[] = {
		/* 2024: DST from Sun Mar 10 08:00Z to Sun Nov 3 07:00Z. */
		{ 1710050399, 20240309 },	/* 03-10 05:59:59Z = 23:59:59 CST */
		{ 1710050400, 20240310 },	/* 03-10 06:00:00Z = 00:00 CST */
		{ 1710057599, 20240310 },	/* 01:59:59 CST */
		{ 1710057600, 20240310 },	/* 03:00:00 CDT */
		{ 1710133199, 20240310 },	/* 03-11 04:59:59Z = 23:59:59 CDT */
		{ 1710133200, 20240311 },	/* 03-11 05:00:00Z = 00:00 CDT */
		{ 1730609999, 20241102 },	/* 11-03 04:59:59Z, CDT */
		{ 1730610000, 20241103 },	/* 11-03 05:00:00Z = 00:00 CDT */
		{ 1730699999, 20241103 },	/* 11-04 05:59:59Z = 23:59:59 CST */
		{ 1730700000, 20241104 },	/* 11-04 06:00:00Z = 00:00 CST */
		/* New Year, in standard time. */
		{ 1704088799, 20231231 },
		{ 1704088800, 20240101 },
		/* 2025: DST from Sun Mar 9 to Sun Nov 2. */
		{ 1741499999, 20250308 },	/* 03-09 05:59:59Z, still CST */
		{ 1741582799, 20250309 },	/* 03-10 04:59:59Z, CDT */
		{ 1741582800, 20250310 },
		{ 1762146000, 20251102 },	/* 11-03 05:00Z = 23:00 CST */
		{ 1762149599, 20251102 },
		{ 1762149600, 20251103 },
		/* Before the epoch still works. */
		{ -43200, 19691231 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(limiter_day_key(cases[i].t), cases[i].key);
}

/* One admitted call of the API client whose row id is client. */
static void
counted_call(struct limiter *lim, int64_t client)
{
	assert_int_equal(limiter_admit(lim), 0);
	limiter_release_call(lim, client);
}

static void
test_day_key_add(void **state)
{
	(void)state;
	assert_int_equal(limiter_day_key_add(20240301, -1), 20240229);
	assert_int_equal(limiter_day_key_add(20240229, 1), 20240301);
	assert_int_equal(limiter_day_key_add(20250101, -6), 20241226);
	assert_int_equal(limiter_day_key_add(20241231, 1), 20250101);
	assert_int_equal(limiter_day_key_add(20241110, 0), 20241110);
	assert_int_equal(limiter_day_key_add(20241110, -30), 20241011);
}

/* The statistics written by a sync: one row per day, kind and item. */
static const struct stats_row *
stat_found(int32_t day, int kind, int64_t item)
{
	int i;

	for (i = 0; i < mock.nstats; i++)
		if (mock.stats[i].day_key == day && mock.stats[i].kind ==
		    kind && mock.stats[i].item == item)
			return &mock.stats[i];
	return NULL;
}

static void
test_stats_flush(void **state)
{
	struct limiter *lim = make(0, 20, 0, 0);
	struct db *db = (struct db *)&cfg;	/* never dereferenced */
	const struct stats_row *w;

	(void)state;
	counted_call(lim, 7);
	counted_call(lim, 7);
	counted_call(lim, 9);
	counted_call(lim, 0);	/* no client: not counted */
	limiter_count_error(lim, 609, 1);
	limiter_count_error(lim, 1004, 3);
	limiter_count_error(lim, 609, 2);
	limiter_tick(lim, db);
	assert_int_equal(mock.adds, 1);		/* one transaction */
	assert_int_equal(mock.nstats, 4);
	assert_non_null(w = stat_found(20240309, STATS_CALLS, 7));
	assert_int_equal(w->n, 2);
	assert_non_null(w = stat_found(20240309, STATS_CALLS, 9));
	assert_int_equal(w->n, 1);
	assert_non_null(w = stat_found(20240309, STATS_ERRORS, 609));
	assert_int_equal(w->n, 3);
	assert_non_null(w = stat_found(20240309, STATS_ERRORS, 1004));
	assert_int_equal(w->n, 3);
	/* The first flush of a day forgets the rows a month old. */
	assert_int_equal(mock.forgot_before, 20240208);
	/* Written counts are not written again: nothing to write. */
	mock.nstats = 0;
	fake_mono += 250;
	limiter_tick(lim, db);
	assert_int_equal(mock.nstats, 0);
	assert_int_equal(mock.adds, 1);
	/* A failed write keeps the counts for the next sync. */
	counted_call(lim, 7);
	mock.stats_err = -REPO_ERR_INTERNAL;
	fake_mono += 250;
	limiter_tick(lim, db);
	assert_int_equal(mock.nstats, 0);
	mock.stats_err = 0;
	/* A new day: its counts have its key; a worker's flush writes. */
	fake_wall += 86400;
	counted_call(lim, 7);
	assert_int_equal(limiter_flush(lim, db), 0);
	assert_int_equal(mock.nstats, 2);
	assert_non_null(w = stat_found(20240309, STATS_CALLS, 7));
	assert_int_equal(w->n, 1);
	assert_non_null(w = stat_found(20240310, STATS_CALLS, 7));
	assert_int_equal(w->n, 1);
	assert_int_equal(mock.forgot_before, 20240209);
	limiter_destroy(lim);
}

static void
test_stats_flusher_died(void **state)
{
	struct limiter *lim = make(0, 20, 0, 0);
	struct db *db = (struct db *)&cfg;	/* never dereferenced */
	pid_t pid;
	int st;

	(void)state;
	counted_call(lim, 7);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* Killed while writing, the flush still its own. */
		mock.die_in_add = 1;
		(void)limiter_flush(lim, db);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st));
	/* The next flush takes over and writes what is still counted. */
	assert_int_equal(limiter_flush(lim, db), 0);
	assert_int_equal(mock.nstats, 1);
	assert_int_equal(mock.stats[0].item, 7);
	assert_int_equal(mock.stats[0].n, 1);
	limiter_destroy(lim);
}

static void
test_stats_full(void **state)
{
	struct limiter *lim = make(0, 20, 0, 0);
	struct db *db = (struct db *)&cfg;	/* never dereferenced */
	int64_t i;

	(void)state;
	for (i = 1; i <= LIMITER_STAT_SLOTS + 5; i++)
		counted_call(lim, i);
	/* Beyond the slots counts are dropped (and logged)... */
	assert_int_equal(limiter_flush(lim, db), 0);
	assert_int_equal(mock.nstats, LIMITER_STAT_SLOTS);
	/* ... and the slots come back once written. */
	mock.nstats = 0;
	counted_call(lim, 1);
	assert_int_equal(limiter_flush(lim, db), 0);
	assert_int_equal(mock.nstats, 1);
	limiter_destroy(lim);
}

static void
test_daily_rollover(void **state)
{
	struct limiter *lim = make(0, 20, 0, 3);

	(void)state;
	/* 2024-03-11 04:59:58Z is 23:59:58 CDT on March 10. */
	fake_wall = 1710133198;
	assert_int_equal(call(lim), 0);
	assert_int_equal(call(lim), 0);
	assert_int_equal(call(lim), 0);
	assert_int_equal(call(lim), -API_ERR_DAILY_QUOTA);
	fake_wall = 1710133199;
	assert_int_equal(call(lim), -API_ERR_DAILY_QUOTA);
	/* Midnight in Chicago (05:00Z in summer time): a new day. */
	fake_wall = 1710133200;
	assert_int_equal(call(lim), 0);
	assert_int_equal(call(lim), 0);
	assert_int_equal(call(lim), 0);
	assert_int_equal(call(lim), -API_ERR_DAILY_QUOTA);
	/* 05:00Z is not midnight in winter: 2024-11-04 05:00Z is 23:00. */
	fake_wall = 1730696400;
	assert_int_equal(call(lim), 0);
	assert_int_equal(call(lim), 0);
	assert_int_equal(call(lim), 0);
	assert_int_equal(call(lim), -API_ERR_DAILY_QUOTA);
	fake_wall = 1730700000;
	assert_int_equal(call(lim), 0);
	limiter_destroy(lim);
}

/* ---- off switches and order ---- */

static void
test_off(void **state)
{
	struct limiter *lim = make(0, 20, 0, 0);
	int i;

	(void)state;
	/* Nothing released, nothing limited. */
	for (i = 0; i < 1000; i++)
		assert_int_equal(limiter_admit(lim), 0);
	for (i = 0; i < 1000; i++)
		limiter_release(lim);
	limiter_destroy(lim);
	/* Each switch alone. */
	lim = make(2, 20, 0, 0);
	assert_int_equal(limiter_admit(lim), 0);
	assert_int_equal(limiter_admit(lim), 0);
	assert_int_equal(limiter_admit(lim), -API_ERR_RATE_LIMIT);
	limiter_destroy(lim);
	lim = make(0, 20, 2, 0);
	assert_int_equal(limiter_admit(lim), 0);
	assert_int_equal(limiter_admit(lim), 0);
	assert_int_equal(limiter_admit(lim), -API_ERR_CONCURRENCY);
	limiter_destroy(lim);
	/* No limiter at all admits everything. */
	assert_int_equal(limiter_admit(NULL), 0);
	limiter_release(NULL);
	assert_int_equal(limiter_auth_epoch(NULL), 0);
}

static void
test_check_order(void **state)
{
	struct limiter *lim = make(2, 20, 1, 2);

	(void)state;
	/* Concurrency is refused without using up rate or quota. */
	assert_int_equal(limiter_admit(lim), 0);
	assert_int_equal(limiter_admit(lim), -API_ERR_CONCURRENCY);
	limiter_release(lim);
	assert_int_equal(limiter_admit(lim), 0);
	limiter_release(lim);
	/* Rate and quota both spent: the day's quota is reported. */
	assert_int_equal(limiter_admit(lim), -API_ERR_DAILY_QUOTA);
	limiter_destroy(lim);
	lim = make(1, 20, 0, 5);
	assert_int_equal(call(lim), 0);
	assert_int_equal(call(lim), -API_ERR_RATE_LIMIT);
	limiter_destroy(lim);
}

/* ---- reconciliation with other hosts ---- */

static void
test_tick_remote(void **state)
{
	struct limiter *lim = make(12, 20, 4, 100);
	struct db *db = (struct db *)&cfg;	/* never dereferenced */
	int i;

	(void)state;
	for (i = 0; i < 2; i++)
		assert_int_equal(call(lim), 0);
	assert_int_equal(limiter_admit(lim), 0);	/* stays in flight */
	mock.sums_answer.window = 6;
	mock.sums_answer.inflight = 2;
	mock.sums_answer.day = 90;
	mock.epoch = 42;
	limiter_tick(lim, db);
	assert_int_equal(mock.upserts, 1);
	assert_int_equal(mock.sums, 1);
	assert_int_equal(mock.epochs, 1);
	assert_int_equal(mock.gets, 1);
	assert_string_equal(mock.last_host, "test-host");
	assert_int_equal(mock.last_row.window_count, 3);
	assert_int_equal(mock.last_row.inflight, 1);
	assert_int_equal(mock.last_row.day_count, 3);
	assert_int_equal(mock.last_row.day_key, 20240309);
	assert_int_equal(mock.last_day_key, 20240309);
	assert_int_equal(mock.last_fresh_ms, 1000);
	assert_int_equal(limiter_auth_epoch(lim), 42);
	/* In flight: local 1 + remote 2, so one more fits under 4. */
	assert_int_equal(limiter_admit(lim), 0);
	assert_int_equal(limiter_admit(lim), -API_ERR_CONCURRENCY);
	limiter_release(lim);
	limiter_release(lim);
	/* Window: local 4 + remote 6; two more fit under 12. */
	assert_int_equal(call(lim), 0);
	assert_int_equal(call(lim), 0);
	assert_int_equal(call(lim), -API_ERR_RATE_LIMIT);
	/* Not due again before limits_sync_ms: no database work. */
	fake_mono += 249;
	limiter_tick(lim, db);
	assert_int_equal(mock.upserts, 1);
	/* Due: the other hosts went quiet, and the epoch moved. */
	fake_mono += 1;
	mock.sums_answer.window = 0;
	mock.sums_answer.inflight = 0;
	mock.sums_answer.day = 93;
	mock.epoch = 43;
	limiter_tick(lim, db);
	assert_int_equal(mock.upserts, 2);
	assert_int_equal(mock.gets, 1);	/* adopted once only */
	assert_int_equal(mock.last_row.window_count, 6);
	assert_int_equal(limiter_auth_epoch(lim), 43);
	/* Day: local 6 + remote 93 = 99, one left of 100. */
	assert_int_equal(call(lim), 0);
	assert_int_equal(call(lim), -API_ERR_DAILY_QUOTA);
	/* A failing sync keeps the last counts and epoch. */
	fake_mono += 250;
	mock.sums_err = -REPO_ERR_UNAVAILABLE;
	mock.sums_answer.day = 0;
	mock.epoch = 99;
	limiter_tick(lim, db);
	assert_int_equal(mock.upserts, 3);
	assert_int_equal(limiter_auth_epoch(lim), 43);
	assert_int_equal(call(lim), -API_ERR_DAILY_QUOTA);
	limiter_destroy(lim);
}

static void
test_tick_adopts_own_row(void **state)
{
	struct limiter *lim = make(0, 20, 0, 10);
	struct db *db = (struct db *)&cfg;

	(void)state;
	/* Before a restart this host admitted 7 calls today. */
	mock.own.day_key = limiter_day_key(fake_wall);
	mock.own.day_count = 7;
	limiter_tick(lim, db);
	assert_int_equal(mock.last_row.day_count, 7);
	assert_int_equal(call(lim), 0);
	assert_int_equal(call(lim), 0);
	assert_int_equal(call(lim), 0);
	assert_int_equal(call(lim), -API_ERR_DAILY_QUOTA);
	limiter_destroy(lim);
	/* Yesterday's count is not adopted. */
	memset(&mock, 0, sizeof(mock));
	lim = make(0, 20, 0, 2);
	mock.own.day_key = 20240308;
	mock.own.day_count = 7;
	limiter_tick(lim, db);
	assert_int_equal(mock.last_row.day_count, 0);
	assert_int_equal(call(lim), 0);
	assert_int_equal(call(lim), 0);
	assert_int_equal(call(lim), -API_ERR_DAILY_QUOTA);
	limiter_destroy(lim);
	/* A failing read does not overwrite the row. */
	memset(&mock, 0, sizeof(mock));
	lim = make(0, 20, 0, 2);
	mock.own_err = -REPO_ERR_CONN;
	limiter_tick(lim, db);
	assert_int_equal(mock.upserts, 0);
	limiter_destroy(lim);
}

static void
test_tick_reclaims(void **state)
{
	struct limiter *lim = make(0, 20, 2, 0);
	struct db *db = (struct db *)&cfg;
	pid_t pid;

	(void)state;
	assert_int_equal(limiter_admit(lim), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(limiter_admit(lim) == 0 ? 0 : 1);
	reap(pid);
	/* Without a database the tick does no sync at all. */
	limiter_tick(lim, NULL);
	assert_int_equal(mock.upserts, 0);
	/* The dead worker's call is gone before the host reports. */
	fake_mono += 250;
	limiter_tick(lim, db);
	assert_int_equal(mock.upserts, 1);
	assert_int_equal(mock.last_row.inflight, 1);
	limiter_release(lim);
	limiter_destroy(lim);
}

/* ---- wrong client secrets ---- */

static void
test_auth_lockout(void **state)
{
	struct limiter *lim = make(0, 0, 0, 0);
	unsigned char good[AUTH_DIGEST_BYTES], bad[AUTH_DIGEST_BYTES];
	const char *id = "9b2f1a4e-0000-4000-8000-000000000001";
	int i;

	(void)state;
	memset(good, 0x11, sizeof(good));
	memset(bad, 0x22, sizeof(bad));
	assert_non_null(limiter_auth_key(lim));
	assert_null(limiter_auth_key(NULL));
	limiter_auth_succeeded(lim, id, good);
	/* AUTH_FAIL_MAX - 1 wrong ones: not locked. */
	for (i = 0; i < AUTH_FAIL_MAX - 1; i++)
		assert_false(limiter_auth_failed(lim, id));
	assert_false(limiter_auth_locked(lim, id, bad));
	/* The next starts the lock-out, once. */
	assert_true(limiter_auth_failed(lim, id));
	assert_false(limiter_auth_failed(lim, id));
	assert_true(limiter_auth_locked(lim, id, bad));
	assert_true(limiter_auth_locked(lim, id, NULL));
	/* The secret verified before still passes; other ids are free. */
	assert_false(limiter_auth_locked(lim, id, good));
	assert_false(limiter_auth_locked(lim,
	    "9b2f1a4e-0000-4000-8000-000000000002", bad));
	/* A success during the lock-out does not end it. */
	limiter_auth_succeeded(lim, id, good);
	assert_true(limiter_auth_locked(lim, id, bad));
	fake_mono += AUTH_LOCK_MS - 1;
	assert_true(limiter_auth_locked(lim, id, bad));
	fake_mono += 1;
	assert_false(limiter_auth_locked(lim, id, bad));
	limiter_destroy(lim);
}

static void
test_auth_window(void **state)
{
	struct limiter *lim = make(0, 0, 0, 0);
	const char *id = "9b2f1a4e-0000-4000-8000-000000000003";
	int i;

	(void)state;
	/* Wrong secrets spread wider than the window never lock. */
	for (i = 0; i < 3 * AUTH_FAIL_MAX; i++) {
		assert_false(limiter_auth_failed(lim, id));
		fake_mono += AUTH_FAIL_WINDOW_MS / (AUTH_FAIL_MAX - 1) + 1;
	}
	assert_false(limiter_auth_locked(lim, id, NULL));
	/* A success forgets the count. */
	fake_mono += AUTH_FAIL_WINDOW_MS;
	for (i = 0; i < AUTH_FAIL_MAX - 1; i++)
		assert_false(limiter_auth_failed(lim, id));
	limiter_auth_succeeded(lim, id, NULL);
	for (i = 0; i < AUTH_FAIL_MAX - 1; i++)
		assert_false(limiter_auth_failed(lim, id));
	assert_false(limiter_auth_locked(lim, id, NULL));
	/* More client ids than slots: the table keeps working. */
	for (i = 0; i < 2 * AUTH_FAIL_SLOTS; i++) {
		char other[40];

		(void)snprintf(other, sizeof(other), "client-%d", i);
		assert_false(limiter_auth_failed(lim, other));
	}
	/* NULL limiter: nothing counted, nothing locked. */
	assert_false(limiter_auth_failed(NULL, id));
	assert_false(limiter_auth_locked(NULL, id, NULL));
	limiter_auth_succeeded(NULL, id, NULL);
	limiter_destroy(lim);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_rate_boundary, setup),
		cmocka_unit_test_setup(test_rate_sliding, setup),
		cmocka_unit_test_setup(test_messages, setup),
		cmocka_unit_test_setup(test_concurrency_fork, setup),
		cmocka_unit_test_setup(test_concurrency_dead_worker, setup),
		cmocka_unit_test_setup(test_concurrency_fork_after_calls,
		    setup),
		cmocka_unit_test_setup(test_robust_lock, setup),
		cmocka_unit_test_setup(test_day_key, setup),
		cmocka_unit_test_setup(test_daily_rollover, setup),
		cmocka_unit_test_setup(test_off, setup),
		cmocka_unit_test_setup(test_check_order, setup),
		cmocka_unit_test_setup(test_tick_remote, setup),
		cmocka_unit_test_setup(test_day_key_add, setup),
		cmocka_unit_test_setup(test_stats_flush, setup),
		cmocka_unit_test_setup(test_stats_full, setup),
		cmocka_unit_test_setup(test_stats_flusher_died, setup),
		cmocka_unit_test_setup(test_tick_adopts_own_row, setup),
		cmocka_unit_test_setup(test_tick_reclaims, setup),
		cmocka_unit_test_setup(test_auth_lockout, setup),
		cmocka_unit_test_setup(test_auth_window, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
