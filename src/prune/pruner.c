/*
 * The activity pruner (pruner.h).
 *
 * Deployment, as the export runners (src/export/runner.c): the mautod
 * master forks it when activity_pruner is on, restarts it when it dies
 * (with back-off when it dies young), replaces it on SIGHUP (so a new
 * retention takes effect) and stops it on SIGTERM.  It never serves
 * requests.
 *
 * Work.  Every PRUNE_PERIOD_MS a pass reads the type catalogue with the
 * retention class of each type (migration 0021) and, for each type of a
 * class not kept for ever, deletes the activities older than the class's
 * days: each DELETE at most PRUNE_BATCH of them, oldest first, by the
 * (type, date) index, in its own implicit transaction, so it locks a
 * bounded range of old rows for a short time and never the newest ones
 * writes add to.  A type with more than PRUNE_BATCHES_PER_PASS batches
 * due goes on at the next pass.
 *
 * Hosts.  Every host with activity_pruner on runs one.  Two pruners
 * deleting the same old rows wait for each other (one server) or one
 * fails certification (Galera, 1213); either way the rows go once and a
 * failed pass is retried at the next.
 */
#include <sys/prctl.h>
#include <sys/types.h>

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "db/pool.h"
#include "prune/pruner.h"
#include "repo/repo.h"
#include "repo/repo_activity.h"
#include "util/config.h"
#include "util/log.h"
#include "util/stopsig.h"
#include "util/timeutil.h"
#include "util/xmalloc.h"

#define PRUNE_PERIOD_MS		60000
#define RETRY_MS		5000	/* after a failed pass */
#define MAX_TYPES		4096	/* types of the catalogue read */
#define DAY_MS			86400000LL

/* See pruner.h. */
int
activity_retention_days(const struct config *cfg, const char *cls)
{
	if (strcmp(cls, "high-volume") == 0)
		return cfg->activity_retention_high_volume_days;
	if (strcmp(cls, "deleted") == 0)
		return cfg->activity_retention_deleted_days;
	if (strcmp(cls, "new-lead") == 0)
		return cfg->activity_retention_new_lead_days;
	return cfg->activity_retention_days;
}

/* See pruner.h. */
int
activity_prune_pass(struct db *db, const struct config *cfg, int64_t now_ms,
    int batch, const volatile sig_atomic_t *stop, uint64_t *deleted)
{
	struct activity_class *types;
	uint64_t n;
	size_t ntypes, i;
	int days, k, r;

	types = xcalloc(MAX_TYPES, sizeof(*types));
	if ((r = repo_activity_classes(db, types, MAX_TYPES, &ntypes)) != 0)
		goto out;
	for (i = 0; i < ntypes && !*stop; i++) {
		if ((days = activity_retention_days(cfg, types[i].cls)) <= 0)
			continue;
		for (k = 0; k < PRUNE_BATCHES_PER_PASS && !*stop; k++) {
			if ((r = repo_activity_prune(db, types[i].type,
			    now_ms - days * DAY_MS, batch, &n)) != 0)
				goto out;
			*deleted += n;
			if (n < (uint64_t)batch)
				break;
		}
	}
out:
	free(types);
	return r;
}

/* The loop of the pruner; returns the exit status. */
static int
loop(struct db *db, const struct config *cfg)
{
	uint64_t deleted;
	int r;

	while (!stopsig_stop) {
		db_revive_idle(db);
		if (db_ensure(db) != 0) {
			stopsig_nap(RETRY_MS);
			continue;
		}
		deleted = 0;
		r = activity_prune_pass(db, cfg, time_now_ms(), PRUNE_BATCH,
		    &stopsig_stop, &deleted);
		if (deleted > 0)
			log_info("activity pruner: deleted %llu activities past "
			    "their retention", (unsigned long long)deleted);
		if (r != 0) {
			log_warn("activity pruner: the pass stopped (repo error "
			    "%d); again in %d s", -r, RETRY_MS / 1000);
			stopsig_nap(RETRY_MS);
			continue;
		}
		stopsig_nap(PRUNE_PERIOD_MS);
	}
	return PRUNER_EXIT_OK;
}

/* See pruner.h. */
int
activity_pruner_run(const struct activity_pruner_args *a)
{
	struct db *db = NULL;
	int status = PRUNER_EXIT_STARTUP;

	/* The pruner must not outlive its master. */
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) == -1 ||
	    getppid() != a->master || stopsig_setup() != 0)
		goto out;
	(void)prctl(PR_SET_NAME, PRUNER_PROC_NAME);
	if (db_open(&db, a->cfg, &repo_schema, DB_PREPARE_LAZY) != 0) {
		log_err("activity pruner: cannot open the database; exiting");
		goto out;
	}
	db_set_metrics(db, a->metrics);
	log_debug("activity pruner: ready");
	status = loop(db, a->cfg);
out:
	db_close(db);
	return status;
}
