/*
 * The counters behind GET /metrics: requests by operation and result,
 * latency by operation, limit refusals, database errors, reconnects and
 * deadlock retries, the processes alive, and the campaign engine's
 * steps, runs, offers, queue and first-step latency.  They live in one
 * shared mapping that the master makes before it forks, so every worker
 * (and runner) adds to the same numbers and any worker can read them
 * all; counting is one relaxed atomic add, no lock.  Operations are route indexes (routes[] in src/routes.c):
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

/*
 * The campaign engine's counters.  Step types are slots 0 ..
 * METRICS_STEP_TYPES - 1 (enum flowstep, model/flowstep.h: this file
 * knows no step type, src/exposition.c names them).
 */
#define METRICS_STEP_TYPES	16
/* Buckets of the trigger-to-first-step latency: 50 ms .. 300 s, +Inf. */
#define METRICS_ENGINE_BUCKETS	12

/* What came of one flow step. */
enum metrics_step_result {
	METRICS_STEP_DONE,	/* it ran (the lead may have left the flow) */
	METRICS_STEP_SKIPPED,	/* it could not act; the lead went on */
	METRICS_STEP_FAILED,	/* a type mauto does not run: the lead stops */
	METRICS_STEP_RESULT__MAX
};

/* The kinds of runs (repo/repo_engine.h RUN_*). */
enum metrics_run_kind {
	METRICS_RUN_REQUEST,
	METRICS_RUN_TRIGGER,
	METRICS_RUN_BATCH,
	METRICS_RUN_FLOW,
	METRICS_RUN_KIND__MAX
};

/* The engine's queue, as a runner last sampled it. */
enum metrics_queue {
	METRICS_QUEUE_DUE,		/* leads ready and due now */
	METRICS_QUEUE_WAITING,		/* leads ready, due later (Wait) */
	METRICS_QUEUE_OFFERS,		/* activities not yet offered */
	METRICS_QUEUE_SCHEDULED,	/* batch runs not yet expanding */
	METRICS_QUEUE__MAX
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
	/* [type slot][result]: flow steps committed. */
	uint64_t		steps[METRICS_STEP_TYPES][METRICS_STEP_RESULT__MAX];
	uint64_t		runs[METRICS_RUN_KIND__MAX];	/* started */
	uint64_t		offers_fired;	/* started at least one run */
	uint64_t		offers_ignored;	/* matched no campaign */
	/* [kind][bucket]: first steps by latency (not cumulative). */
	uint64_t		first_step[METRICS_RUN_KIND__MAX]
				    [METRICS_ENGINE_BUCKETS];
	uint64_t		first_step_usec[METRICS_RUN_KIND__MAX];
	int64_t			queue[METRICS_QUEUE__MAX];
	bool			queue_sampled;	/* a runner wrote queue */
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

/*
 * Campaign runner: a flow step of type slot type (an enum flowstep;
 * larger counts as the last slot) committed with result res.
 */
void		 metrics_step(struct metrics *m, size_t type,
		    enum metrics_step_result res);
/* n runs of kind k started (entered their first leads, or scheduled). */
void		 metrics_run_started(struct metrics *m, enum metrics_run_kind k,
		    uint64_t n);
/* Campaign runner: an activity offered; fired says whether it started
 * a run. */
void		 metrics_offer(struct metrics *m, bool fired);
/*
 * Campaign runner: a lead's first step in a run of kind k committed
 * usec after the work began (the activity offered, the run requested).
 */
void		 metrics_first_step(struct metrics *m, enum metrics_run_kind k,
		    uint64_t usec);
/* Campaign runner: the queue it sampled, indexed by enum metrics_queue. */
void		 metrics_set_queue(struct metrics *m,
		    const int64_t q[METRICS_QUEUE__MAX]);

/* Copies the counters into the caller's *out. */
void		 metrics_snapshot(const struct metrics *m,
		    struct metrics_snapshot *out);

/* The upper bound of bucket i as Prometheus writes it: "0.005" .. "+Inf". */
const char	*metrics_bucket_le(size_t i);
/* The bucket a duration falls in. */
size_t		 metrics_bucket_of(uint64_t usec);
/* The upper bound of engine bucket i: "0.05" .. "300", "+Inf". */
const char	*metrics_engine_bucket_le(size_t i);
/* The engine bucket a latency falls in. */
size_t		 metrics_engine_bucket_of(uint64_t usec);
/* "request", "trigger", "batch", "flow". */
const char	*metrics_run_kind_name(enum metrics_run_kind k);
/* The kind of a run kind word (RUN_*); -1 when it is none. */
int		 metrics_run_kind_of(const char *word);
/* "done", "skipped", "failed". */
const char	*metrics_step_result_name(enum metrics_step_result r);

/* "606", "607", "615". */
const char	*metrics_limit_code(enum metrics_limit l);

#endif
