/*
 * The shared counters of GET /metrics; see metrics.h.
 *
 * Design.  One struct metrics_shared, mapped MAP_SHARED | MAP_ANONYMOUS
 * by the master before it forks (as src/auth/ratelimit.c maps the
 * limiter), so workers, export runners and the master see the same
 * memory.  Every counter is a lock-free 64-bit atomic added to with
 * relaxed order: counts need no ordering among themselves, and a process
 * killed between two adds leaves nothing to repair (at worst a request
 * counted without its latency).
 *
 * Results.  A request's result is its HTTP status and api_err.  Rather
 * than a row per possible pair, a small table of keys is filled as
 * results are first seen: a process claims a free entry with a
 * compare-and-swap, and a racing process that loses finds the key the
 * winner wrote.  Keys are never removed, so an index once found stays
 * valid.  There are far fewer distinct results than METRICS_RESULTS
 * (each api_err has one status, success a few); past that a request is
 * counted in "dropped" and its latency still counts.
 *
 * The campaign engine.  Its runners (src/engine/engine.c) count steps,
 * runs and offers after the transaction that did them commits, so a
 * step retried after a deadlock counts once; the queue is a set of
 * gauges each runner overwrites with what it last read from the
 * database (the numbers are the instance's, so any runner's will do).
 */
#include <assert.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "err.h"
#include "util/log.h"
#include "util/metrics.h"
#include "util/xmalloc.h"

static_assert(ATOMIC_LLONG_LOCK_FREE == 2 && sizeof(long long) == 8,
    "shared counters need lock-free 64-bit atomics");
static_assert(API_ERR__MAX < 256, "a result key holds an api_err in 8 bits");

typedef _Atomic unsigned long long counter;

struct metrics_shared {
	/* Result keys: 0 free, else (status << 8 | err) + 1. */
	_Atomic uint32_t keys[METRICS_RESULTS];
	counter		 requests[METRICS_OPS][METRICS_RESULTS];
	counter		 buckets[METRICS_OPS][METRICS_BUCKETS];
	counter		 sum_usec[METRICS_OPS];
	counter		 refusals[METRICS_LIMIT__MAX];
	counter		 dropped;
	counter		 db_errors;
	counter		 db_reconnects;
	counter		 db_reconnect_failures;
	counter		 db_deadlock_retries;
	counter		 db_deadlock_exhausted;
	counter		 page_hits;
	counter		 page_misses;
	_Atomic long long workers;
	_Atomic long long runners;
	_Atomic long long workers_ready;
	_Atomic long long workers_wanted;
	counter		 worker_start_failures;
	counter		 steps[METRICS_STEP_TYPES][METRICS_STEP_RESULT__MAX];
	counter		 runs[METRICS_RUN_KIND__MAX];
	counter		 offers_fired;
	counter		 offers_ignored;
	counter		 first_step[METRICS_RUN_KIND__MAX][METRICS_ENGINE_BUCKETS];
	counter		 first_step_usec[METRICS_RUN_KIND__MAX];
	_Atomic long long queue[METRICS_QUEUE__MAX];
	_Atomic int	 queue_sampled;
};

struct metrics {
	struct metrics_shared	*sh;
};

/* Upper bounds of the buckets but the last (+Inf), in microseconds. */
static const uint64_t bounds_usec[METRICS_BUCKETS - 1] = {
	5000, 10000, 25000, 50000, 100000, 250000, 500000,
	1000000, 2500000, 5000000, 10000000,
};

static const char *const bounds_le[METRICS_BUCKETS] = {
	"0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5",
	"1", "2.5", "5", "10", "+Inf",
};

/* The engine's buckets but the last, in microseconds: the latency of a
 * first step is a runner's pass or a few, not a request's. */
static const uint64_t engine_bounds_usec[METRICS_ENGINE_BUCKETS - 1] = {
	50000, 100000, 250000, 500000, 1000000, 2500000, 5000000,
	10000000, 30000000, 60000000, 300000000,
};

static const char *const engine_bounds_le[METRICS_ENGINE_BUCKETS] = {
	"0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10", "30", "60",
	"300", "+Inf",
};

static const char *const run_kinds[METRICS_RUN_KIND__MAX] = {
	[METRICS_RUN_REQUEST] = "request",
	[METRICS_RUN_TRIGGER] = "trigger",
	[METRICS_RUN_BATCH] = "batch",
	[METRICS_RUN_FLOW] = "flow",
};

static const char *const step_results[METRICS_STEP_RESULT__MAX] = {
	[METRICS_STEP_DONE] = "done",
	[METRICS_STEP_SKIPPED] = "skipped",
	[METRICS_STEP_FAILED] = "failed",
};

static const char *const limit_codes[METRICS_LIMIT__MAX] = {
	[METRICS_LIMIT_RATE] = "606",
	[METRICS_LIMIT_QUOTA] = "607",
	[METRICS_LIMIT_CONCURRENCY] = "615",
};

/* See metrics.h. */
struct metrics *
metrics_create(void)
{
	struct metrics *m;
	void *p;

	p = mmap(NULL, sizeof(struct metrics_shared), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		log_err("metrics: mmap %zu bytes: %s",
		    sizeof(struct metrics_shared), strerror(errno));
		return NULL;
	}
	m = xcalloc(1, sizeof(*m));
	m->sh = p;	/* zero-filled by the kernel: every counter is 0 */
	return m;
}

void
metrics_destroy(struct metrics *m)
{
	if (m == NULL)
		return;
	(void)munmap(m->sh, sizeof(*m->sh));
	free(m);
}

/* The table index of a result, claiming a free entry; -1 when full. */
static int
result_index(struct metrics_shared *sh, int status, int err)
{
	uint32_t key, k;
	size_t i;

	key = ((uint32_t)status << 8 | (uint32_t)err) + 1;
	for (i = 0; i < METRICS_RESULTS; i++) {
		k = atomic_load_explicit(&sh->keys[i], memory_order_acquire);
		if (k == 0 && atomic_compare_exchange_strong_explicit(
		    &sh->keys[i], &k, key, memory_order_acq_rel,
		    memory_order_acquire))
			return (int)i;
		if (k == key)
			return (int)i;
	}
	return -1;
}

/* The first of bounds[0..n) that usec is not above; n when none. */
static size_t
bucket_in(const uint64_t *bounds, size_t n, uint64_t usec)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (usec <= bounds[i])
			break;
	return i;
}

size_t
metrics_bucket_of(uint64_t usec)
{
	return bucket_in(bounds_usec, METRICS_BUCKETS - 1, usec);
}

size_t
metrics_engine_bucket_of(uint64_t usec)
{
	return bucket_in(engine_bounds_usec, METRICS_ENGINE_BUCKETS - 1, usec);
}

static void
add(counter *c, unsigned long long n)
{
	(void)atomic_fetch_add_explicit(c, n, memory_order_relaxed);
}

/* See metrics.h. */
void
metrics_request(struct metrics *m, size_t op, int status, int err,
    uint64_t usec)
{
	struct metrics_shared *sh;
	int idx;

	if (m == NULL)
		return;
	sh = m->sh;
	if (op > METRICS_NO_ROUTE)
		op = METRICS_NO_ROUTE;
	if (err < 0)
		err = -err;
	if (err >= API_ERR__MAX)
		err = API_ERR_SYSTEM;
	if (status < 0 || status > 999)
		status = 0;
	if ((idx = result_index(sh, status, err)) >= 0)
		add(&sh->requests[op][idx], 1);
	else
		add(&sh->dropped, 1);
	add(&sh->buckets[op][metrics_bucket_of(usec)], 1);
	add(&sh->sum_usec[op], usec);
	if (err == API_ERR_RATE_LIMIT)
		add(&sh->refusals[METRICS_LIMIT_RATE], 1);
	else if (err == API_ERR_DAILY_QUOTA)
		add(&sh->refusals[METRICS_LIMIT_QUOTA], 1);
	else if (err == API_ERR_CONCURRENCY)
		add(&sh->refusals[METRICS_LIMIT_CONCURRENCY], 1);
}

void
metrics_db_error(struct metrics *m)
{
	if (m != NULL)
		add(&m->sh->db_errors, 1);
}

void
metrics_db_reconnect(struct metrics *m, bool ok)
{
	if (m != NULL)
		add(ok ? &m->sh->db_reconnects : &m->sh->db_reconnect_failures,
		    1);
}

void
metrics_db_deadlock(struct metrics *m, bool retried)
{
	if (m != NULL)
		add(retried ? &m->sh->db_deadlock_retries :
		    &m->sh->db_deadlock_exhausted, 1);
}

void
metrics_page(struct metrics *m, bool hit)
{
	if (m != NULL)
		add(hit ? &m->sh->page_hits : &m->sh->page_misses, 1);
}

void
metrics_set_procs(struct metrics *m, int workers, int runners)
{
	if (m == NULL)
		return;
	atomic_store_explicit(&m->sh->workers, workers, memory_order_relaxed);
	atomic_store_explicit(&m->sh->runners, runners, memory_order_relaxed);
}

void
metrics_set_workers(struct metrics *m, int ready, int wanted)
{
	if (m == NULL)
		return;
	atomic_store_explicit(&m->sh->workers_ready, ready,
	    memory_order_relaxed);
	atomic_store_explicit(&m->sh->workers_wanted, wanted,
	    memory_order_relaxed);
}

void
metrics_worker_failed(struct metrics *m)
{
	if (m != NULL)
		add(&m->sh->worker_start_failures, 1);
}

void
metrics_workers(const struct metrics *m, int64_t *ready, int64_t *wanted)
{
	*ready = atomic_load_explicit(&m->sh->workers_ready,
	    memory_order_relaxed);
	*wanted = atomic_load_explicit(&m->sh->workers_wanted,
	    memory_order_relaxed);
}

void
metrics_step(struct metrics *m, size_t type, enum metrics_step_result res)
{
	if (m == NULL || (size_t)res >= METRICS_STEP_RESULT__MAX)
		return;
	if (type >= METRICS_STEP_TYPES)
		type = METRICS_STEP_TYPES - 1;
	add(&m->sh->steps[type][res], 1);
}

void
metrics_run_started(struct metrics *m, enum metrics_run_kind k, uint64_t n)
{
	if (m != NULL && (size_t)k < METRICS_RUN_KIND__MAX)
		add(&m->sh->runs[k], n);
}

void
metrics_offer(struct metrics *m, bool fired)
{
	if (m != NULL)
		add(fired ? &m->sh->offers_fired : &m->sh->offers_ignored, 1);
}

void
metrics_first_step(struct metrics *m, enum metrics_run_kind k,
    uint64_t usec)
{
	if (m == NULL || (size_t)k >= METRICS_RUN_KIND__MAX)
		return;
	add(&m->sh->first_step[k][metrics_engine_bucket_of(usec)], 1);
	add(&m->sh->first_step_usec[k], usec);
}

void
metrics_set_queue(struct metrics *m, const int64_t q[METRICS_QUEUE__MAX])
{
	size_t i;

	if (m == NULL)
		return;
	for (i = 0; i < METRICS_QUEUE__MAX; i++)
		atomic_store_explicit(&m->sh->queue[i], q[i],
		    memory_order_relaxed);
	atomic_store_explicit(&m->sh->queue_sampled, 1, memory_order_relaxed);
}

static uint64_t
get(const counter *c)
{
	return atomic_load_explicit(c, memory_order_relaxed);
}

/* See metrics.h. */
void
metrics_snapshot(const struct metrics *m, struct metrics_snapshot *out)
{
	const struct metrics_shared *sh = m->sh;
	uint32_t k;
	size_t i, j;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < METRICS_RESULTS; i++) {
		k = atomic_load_explicit(&sh->keys[i], memory_order_acquire);
		if (k == 0)
			break;
		out->results[i].status = (int)((k - 1) >> 8);
		out->results[i].err = (int)((k - 1) & 0xff);
		out->nresults = i + 1;
	}
	for (i = 0; i < METRICS_OPS; i++) {
		for (j = 0; j < out->nresults; j++)
			out->requests[i][j] = get(&sh->requests[i][j]);
		for (j = 0; j < METRICS_BUCKETS; j++)
			out->buckets[i][j] = get(&sh->buckets[i][j]);
		out->sum_usec[i] = get(&sh->sum_usec[i]);
	}
	for (i = 0; i < METRICS_LIMIT__MAX; i++)
		out->refusals[i] = get(&sh->refusals[i]);
	out->dropped = get(&sh->dropped);
	out->db_errors = get(&sh->db_errors);
	out->db_reconnects = get(&sh->db_reconnects);
	out->db_reconnect_failures = get(&sh->db_reconnect_failures);
	out->db_deadlock_retries = get(&sh->db_deadlock_retries);
	out->db_deadlock_exhausted = get(&sh->db_deadlock_exhausted);
	out->page_hits = get(&sh->page_hits);
	out->page_misses = get(&sh->page_misses);
	out->workers = atomic_load_explicit(&sh->workers,
	    memory_order_relaxed);
	out->runners = atomic_load_explicit(&sh->runners,
	    memory_order_relaxed);
	metrics_workers(m, &out->workers_ready, &out->workers_wanted);
	out->worker_start_failures = get(&sh->worker_start_failures);
	for (i = 0; i < METRICS_STEP_TYPES; i++)
		for (j = 0; j < METRICS_STEP_RESULT__MAX; j++)
			out->steps[i][j] = get(&sh->steps[i][j]);
	for (i = 0; i < METRICS_RUN_KIND__MAX; i++) {
		out->runs[i] = get(&sh->runs[i]);
		for (j = 0; j < METRICS_ENGINE_BUCKETS; j++)
			out->first_step[i][j] = get(&sh->first_step[i][j]);
		out->first_step_usec[i] = get(&sh->first_step_usec[i]);
	}
	out->offers_fired = get(&sh->offers_fired);
	out->offers_ignored = get(&sh->offers_ignored);
	for (i = 0; i < METRICS_QUEUE__MAX; i++)
		out->queue[i] = atomic_load_explicit(&sh->queue[i],
		    memory_order_relaxed);
	out->queue_sampled = atomic_load_explicit(&sh->queue_sampled,
	    memory_order_relaxed) != 0;
}

const char *
metrics_bucket_le(size_t i)
{
	return i < METRICS_BUCKETS ? bounds_le[i] : "+Inf";
}

const char *
metrics_engine_bucket_le(size_t i)
{
	return i < METRICS_ENGINE_BUCKETS ? engine_bounds_le[i] : "+Inf";
}

const char *
metrics_run_kind_name(enum metrics_run_kind k)
{
	return (size_t)k < METRICS_RUN_KIND__MAX ? run_kinds[k] : "";
}

int
metrics_run_kind_of(const char *word)
{
	size_t i;

	for (i = 0; word != NULL && i < METRICS_RUN_KIND__MAX; i++)
		if (strcmp(word, run_kinds[i]) == 0)
			return (int)i;
	return -1;
}

const char *
metrics_step_result_name(enum metrics_step_result r)
{
	return (size_t)r < METRICS_STEP_RESULT__MAX ? step_results[r] : "";
}

const char *
metrics_limit_code(enum metrics_limit l)
{
	return (size_t)l < METRICS_LIMIT__MAX ? limit_codes[l] : "";
}
