/*
 * The campaign engine (docs/behaviour.md §24): a process that runs
 * campaigns from the work kept in MariaDB (repo/repo_engine.h).  The
 * mautod master forks campaign_runners of them beside the export runners
 * and supervises them the same way (see engine.c).  A pass offers the
 * activities recorded since to the active trigger campaigns, expands the
 * batch runs that are due over the leads their smart lists select, and
 * runs the due steps of the leads in runs.
 */
#ifndef MAUTO_ENGINE_ENGINE_H
#define MAUTO_ENGINE_ENGINE_H

#include <sys/types.h>

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/audience.h"
#include "model/leadfield.h"
#include "util/arena.h"

struct config;
struct db;
struct metrics;

/* Exit statuses of a runner; the master's respawn policy reads them. */
#define ENGINE_EXIT_OK		0	/* stopped: expected */
#define ENGINE_EXIT_STARTUP	1	/* no database */

/* The process name of a campaign runner (prctl PR_SET_NAME). */
#define ENGINE_PROC_NAME	"mautod-campaign"

/* The most campaign runners a host keeps. */
#define ENGINE_SLOTS		8

/* Work one pass takes at most: offers, leads, batch leads a page. */
#define ENGINE_OFFERS		200
#define ENGINE_LEADS		200
#define ENGINE_BATCH_PAGE	1000
#define ENGINE_SENDS		100
/* Seconds a claim lasts unrenewed. */
#define ENGINE_LEASE_SECS	30
/* How often a runner samples the queue for GET /metrics, in ms. */
#define ENGINE_QUEUE_MS		5000

struct engine_args {
	const struct config	*cfg;		/* the master's, inherited */
	unsigned		 index;
	pid_t			 master;
	struct metrics		*metrics;	/* shared counters, or NULL */
};

/* Runs a campaign runner in the current (freshly forked) process until
 * asked to stop; returns the exit status. */
int	engine_run(const struct engine_args *a);

/* A runner's state, for engine_pass (the integration tests drive it). */
struct engine {
	const struct config		*cfg;
	struct db			*db;
	struct arena			 a;
	struct lead_schema		 schema;
	int64_t				 schema_ver;
	struct arena			 pass;	/* what one pass keeps */
	struct arena			 scratch; /* a batch page's steps */
	struct audience_cats		 cats;	/* read once a pass */
	char				 claim[33];
	const volatile sig_atomic_t	*stop;
	struct metrics			*metrics;	/* or NULL: none */
	int64_t				 queue_at;	/* last sampled, ms */
};

/* Opens e's connection (0, or a negative repo_err). */
int	engine_open(struct engine *e, const struct config *cfg);
void	engine_close(struct engine *e);

/*
 * One pass at real time now_ms: offers, batch runs, leads.  *did counts
 * what it did (0: nothing was due).  0 or the first negative repo_err.
 */
int	engine_pass(struct engine *e, int64_t now_ms, size_t *did);

#endif
