/*
 * The export runner: a process that carries out bulk export jobs
 * (docs/behaviour.md §7).  The mautod master forks EXPORT_SLOTS of them
 * next to the workers when export_runner is on, and supervises them as
 * it does workers (see runner.c for why, and for the protocol).
 */
#ifndef MAUTO_EXPORT_RUNNER_H
#define MAUTO_EXPORT_RUNNER_H

#include <sys/types.h>

#include <signal.h>
#include <stdint.h>

struct config;
struct db;
struct metrics;

/* Exit statuses of a runner; the master's respawn policy reads them. */
#define RUNNER_EXIT_OK		0	/* stopped: expected */
#define RUNNER_EXIT_STARTUP	1	/* no database or no export_dir */

/* The process name of a runner (prctl PR_SET_NAME; ps, pgrep). */
#define RUNNER_PROC_NAME	"mautod-export"

struct export_runner_args {
	const struct config	*cfg;		/* the master's, inherited */
	unsigned		 index;		/* 0 .. EXPORT_SLOTS - 1 */
	pid_t			 master;
	struct metrics		*metrics;	/* shared counters, or NULL */
};

/*
 * Runs a runner in the current (freshly forked) process until SIGTERM,
 * SIGINT or SIGUSR1: a job in progress is given back (queued again, the
 * attempt not counted) and its partial file removed.  Returns the exit
 * status (RUNNER_EXIT_*); the caller passes it to exit().
 */
int	export_runner_run(const struct export_runner_args *a);

/* ---- The pieces, for the integration tests ---------------------------- */

/* A runner's state. */
struct export_runner {
	const struct config	*cfg;
	struct db		*db;		/* control connection */
	unsigned		 index;
	char			 host[65];
	char			 owner[128];	/* "<host>:<pid>:<nonce>" */
	int64_t			 janitor_at;	/* monotonic ms of the next */
	const volatile sig_atomic_t *stop;	/* set when asked to stop */
};

/*
 * Prepares r with owner name for this process (db and stop stay the
 * caller's to set).  Makes cfg->export_dir when missing.  Returns 0, or
 * -1 when the directory cannot be made (logged).
 */
int	export_runner_init(struct export_runner *r, const struct config *cfg,
	    unsigned index);

/*
 * Takes over the slots of runners that are gone (lease past, or a dead
 * process of this host) and of this runner itself (it holds no job
 * between jobs): their jobs are queued again, or fail after
 * EXPORT_MAX_ATTEMPTS.  Returns the number of jobs given back or failed,
 * or a negative repo_err.
 */
int	export_runner_sweep(struct export_runner *r);

/*
 * Claims and carries out one job.  Returns 1 when a job was run (whatever
 * its outcome), 0 when there was none to take, or a negative repo_err.
 */
int	export_runner_step(struct export_runner *r);

/*
 * Removes expired files (EXPORT_FILE_DAYS) and old jobs
 * (EXPORT_STATUS_DAYS), left-over partial files, and queues again
 * Processing jobs that no slot holds.  Returns 0 or a negative repo_err.
 */
int	export_runner_janitor(struct export_runner *r);

#endif
