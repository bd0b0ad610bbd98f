/*
 * The master process (docs/style.md §9): gets the listening socket, maps the
 * shared limiter, forks the workers and then only waits for signals.  It
 * respawns workers that die (with back-off when they die young), drains
 * them on SIGTERM/SIGINT and replaces them one by one on SIGHUP.  It
 * never opens the database and never handles a request.
 */
#ifndef MAUTO_MASTER_H
#define MAUTO_MASTER_H

#include <stdbool.h>
#include <stddef.h>

#include "bounds.h"

struct config;
struct config_override;

/*
 * Respawn back-off: after a worker dies within MASTER_STABLE_MS of its
 * start, the next spawn waits MASTER_BACKOFF_MIN_MS, doubling up to
 * MASTER_BACKOFF_MAX_MS; a worker that lives MASTER_STABLE_MS resets it.
 * Process-model timings, not API-visible bounds, so they live here and
 * not in bounds.h.
 */
#define MASTER_BACKOFF_MIN_MS	100
#define MASTER_BACKOFF_MAX_MS	30000
#define MASTER_STABLE_MS	10000

/*
 * With workers = 0, the workers kept: the online CPUs, but at least
 * concurrency_limit (MASTER_WORKERS_LIMIT_OFF when the limit is off) plus
 * MASTER_WORKERS_MARGIN.  The limiter counts only calls that reach a
 * worker; with fewer workers than the limit, calls past the workers wait
 * unseen in the web server and the socket's backlog instead of being
 * refused with 615.  The margin answers those refusals, and the calls the
 * limiter does not count (identity, /healthz, /metrics), while the limit's
 * calls are in flight.
 */
#define MASTER_WORKERS_MARGIN		6
#define MASTER_WORKERS_LIMIT_OFF	10

/* Live worker processes at most: a full set plus one being replaced. */
#define MASTER_MAX_PROCS	(2 * MAX_WORKERS)

/* What the master needs to load the configuration again on SIGHUP. */
struct master_opts {
	const char			*config_path;
	bool				 config_required;
	const struct config_override	*overrides;	/* command line */
	size_t				 noverrides;
};

/*
 * Runs the master until SIGTERM or SIGINT.  cfg is the loaded
 * configuration; the master keeps it for its whole run (the limiter is
 * created from it) and the caller frees it afterwards.  opts (borrowed
 * for the run) says how to reload.  Returns the process exit status: 0
 * after a graceful stop, 1 when startup failed (no socket, no limiter;
 * logged).
 */
int	master_run(struct config *cfg, const struct master_opts *opts);

/*
 * The number of workers cfg asks for: workers, or when it is 0 the number
 * of online CPUs but at least concurrency_limit + MASTER_WORKERS_MARGIN;
 * within 1..MAX_WORKERS.
 */
int	master_worker_count(const struct config *cfg);

#endif
