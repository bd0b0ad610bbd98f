/*
 * The activity pruner: a process that deletes activities older than
 * their retention class keeps them (docs/behaviour.md §17, docs/operating.md).  The
 * mautod master forks one next to the workers when activity_pruner is
 * on, and supervises it as it does the export runners (see pruner.c).
 */
#ifndef MAUTO_PRUNE_PRUNER_H
#define MAUTO_PRUNE_PRUNER_H

#include <sys/types.h>

#include <signal.h>
#include <stdint.h>

struct config;
struct db;
struct metrics;

/* Exit statuses of the pruner; the master's respawn policy reads them. */
#define PRUNER_EXIT_OK		0	/* stopped: expected */
#define PRUNER_EXIT_STARTUP	1	/* no database */

/* The process name of the pruner (prctl PR_SET_NAME; ps, pgrep). */
#define PRUNER_PROC_NAME	"mautod-prune"

/* Activities one DELETE removes, and DELETEs of one type in one pass. */
#define PRUNE_BATCH		1000
#define PRUNE_BATCHES_PER_PASS	100

struct activity_pruner_args {
	const struct config	*cfg;		/* the master's, inherited */
	pid_t			 master;
	struct metrics		*metrics;	/* shared counters, or NULL */
};

/*
 * Runs the pruner in the current (freshly forked) process until SIGTERM,
 * SIGINT or SIGUSR1: a pass every PRUNE_PERIOD_MS.  Returns the exit
 * status (PRUNER_EXIT_*); the caller passes it to exit().
 */
int	activity_pruner_run(const struct activity_pruner_args *a);

/*
 * The days cfg keeps activities of retention class cls (0: for ever); a
 * class the configuration does not name is kept as the standard one.
 */
int	activity_retention_days(const struct config *cfg, const char *cls);

/*
 * One pass: for each type of the catalogue whose class is not kept for
 * ever, DELETEs of at most batch activities dated before now_ms less its
 * days, oldest first, until one deletes fewer than batch or
 * PRUNE_BATCHES_PER_PASS of them ran (the rest waits for the next pass),
 * or *stop is set.  Adds the activities deleted to *deleted.  Returns 0
 * or the first negative repo_err (the pass ends there).
 */
int	activity_prune_pass(struct db *db, const struct config *cfg,
	    int64_t now_ms, int batch, const volatile sig_atomic_t *stop,
	    uint64_t *deleted);

#endif
