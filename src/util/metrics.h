/*
 * The counters behind GET /metrics: requests by operation and result,
 * latency by operation, limit refusals, database errors, reconnects and
 * deadlock retries, and the processes alive.  They live in one shared mapping that the
 * master makes before it forks, so every worker adds to the same numbers
 * and any worker can read them all; counting is one relaxed atomic add,
 * no lock.  Operations are route indexes (routes[] in src/routes.c):
 * this file knows no route, src/exposition.c names them.
 */
#ifndef MAUTO_UTIL_METRICS_H
#define MAUTO_UTIL_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct metrics;

/*
 * Operation slots: route indexes 0 .. METRICS_ROUTES - 1, and
 * METRICS_NO_ROUTE for a request that matched no route (610, 605, or a
 * transport error before routing).  tests/unit/test_exposition.c checks
 * that the route table fits.
 */
#define METRICS_ROUTES		192
#define METRICS_NO_ROUTE	METRICS_ROUTES
#define METRICS_OPS		(METRICS_ROUTES + 1)
/* Distinct results (HTTP status and error) counted; more are dropped. */
#define METRICS_RESULTS		64
/* Latency buckets: 5 ms .. 10 s, and +Inf last. */
#define METRICS_BUCKETS		12

/* The limits that refuse calls, in the order of metrics_limit_code. */
enum metrics_limit {
	METRICS_LIMIT_RATE,		/* 606 */
	METRICS_LIMIT_QUOTA,		/* 607 */
	METRICS_LIMIT_CONCURRENCY,	/* 615 */
	METRICS_LIMIT__MAX
};

/* One result: an HTTP status and an api_err (0: success). */
struct metrics_result {
	int	status;
	int	err;
};

/* A copy of the counters, read one by one (each is exact, the set is not). */
struct metrics_snapshot {
	struct metrics_result	results[METRICS_RESULTS];
	size_t			nresults;
	/* [op][result index]: requests answered. */
	uint64_t		requests[METRICS_OPS][METRICS_RESULTS];
	/* [op][bucket]: requests whose duration fell in it (not cumulative). */
	uint64_t		buckets[METRICS_OPS][METRICS_BUCKETS];
	uint64_t		sum_usec[METRICS_OPS];
	uint64_t		refusals[METRICS_LIMIT__MAX];
	uint64_t		dropped;	/* no result slot left */
	uint64_t		db_errors;
	uint64_t		db_reconnects;
	uint64_t		db_reconnect_failures;
	uint64_t		db_deadlock_retries;
	uint64_t		db_deadlock_exhausted;
	uint64_t		page_hits;	/* util/pagecache.h */
	uint64_t		page_misses;
	int64_t			workers;
	int64_t			runners;
	int64_t			workers_ready;	/* serving, not stopping */
	int64_t			workers_wanted;
	uint64_t		worker_start_failures;
	/* Not in the mapping: the limiter's (filled by the scrape). */
	int64_t			calls_in_flight;
};

/*
 * Master, before fork: maps the shared counters (MAP_SHARED |
 * MAP_ANONYMOUS, zeroed).  Returns an owned handle for metrics_destroy,
 * or NULL after logging why.
 */
struct metrics	*metrics_create(void);
void		 metrics_destroy(struct metrics *m);

/*
 * Counts one answered request: operation op (a route index, or
 * METRICS_NO_ROUTE; larger values count as METRICS_NO_ROUTE), the HTTP
 * status sent, err (0 or an api_err, either sign) and its duration in
 * microseconds.  A refusal by a limit (606, 607, 615) is also counted by
 * code.  m may be NULL (nothing is counted).
 */
void		 metrics_request(struct metrics *m, size_t op, int status,
		    int err, uint64_t usec);

/* A database error (connection lost, node unusable, anything unexpected). */
void		 metrics_db_error(struct metrics *m);
/* A reconnection after a lost connection; ok says whether it worked. */
void		 metrics_db_reconnect(struct metrics *m, bool ok);
/*
 * A transaction that met a deadlock or certification conflict: run
 * again (retried), or given up when its time for retries ran out.
 */
void		 metrics_db_deadlock(struct metrics *m, bool retried);
/* Counts a browse answered from a worker's page cache (hit) or not. */
void		 metrics_page(struct metrics *m, bool hit);

/* Master: the worker and export runner processes alive now. */
void		 metrics_set_procs(struct metrics *m, int workers, int runners);
/*
 * Master: the workers that serve now (ready, not stopping) and the
 * number it keeps (master_worker_count); fewer ready than wanted is a
 * degraded instance (GET /healthz).
 */
void		 metrics_set_workers(struct metrics *m, int ready, int wanted);
/* Master: a worker exited because it could not open the database. */
void		 metrics_worker_failed(struct metrics *m);
/* The two numbers of metrics_set_workers, without a whole snapshot. */
void		 metrics_workers(const struct metrics *m, int64_t *ready,
		    int64_t *wanted);

/* Copies the counters into the caller's *out. */
void		 metrics_snapshot(const struct metrics *m,
		    struct metrics_snapshot *out);

/* The upper bound of bucket i as Prometheus writes it: "0.005" .. "+Inf". */
const char	*metrics_bucket_le(size_t i);
/* The bucket a duration falls in. */
size_t		 metrics_bucket_of(uint64_t usec);
/* "606", "607", "615". */
const char	*metrics_limit_code(enum metrics_limit l);

#endif
