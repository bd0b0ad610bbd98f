/*
 * Bulk export jobs (migration 0006; docs/behaviour.md §7).
 *
 * The API side creates, enqueues, cancels and reads jobs; the runners
 * (src/export/runner.c) take Queued jobs through the two rows of
 * export_slot, renew their lease while they stream the records
 * (repo_bulk_export_stream.h), and finish, fail or give back their job.
 * Every write that moves a job between states is conditional on the
 * state it expects (and, for a runner, on still owning its slot and its
 * attempt), so a late runner, a cancel and a take-over can race without
 * a job ending in two states.
 * Transactions go through db_run_tx (1213 retried as a whole, docs/galera.md).
 *
 * Times are read as "YYYY-MM-DD HH:MM:SS.ffffff" text (EXPORT_TIME_LEN),
 * "" when NULL.
 */
#ifndef MAUTO_REPO_REPO_BULK_EXPORT_H
#define MAUTO_REPO_REPO_BULK_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bounds.h"
#include "model/export.h"
#include "model/cotype.h"

struct db;

/* One job as the API and the runners read it. */
struct export_job {
	int64_t			 id;
	char			 export_id[EXPORT_ID_LEN + 1];
	int64_t			 client_ref;
	char			 object_name[CO_NAME_MAX + 1];
	enum export_format	 format;
	enum export_status	 status;
	enum export_filter	 filter;
	char			 filter_start[EXPORT_TIME_LEN + 1];
	char			 filter_end[EXPORT_TIME_LEN + 1];
	int32_t			 list_id;	/* 0: none */
	char			 link_field[CO_NAME_MAX + 1];
	char			 created_at[EXPORT_TIME_LEN + 1];
	char			 queued_at[EXPORT_TIME_LEN + 1];
	char			 started_at[EXPORT_TIME_LEN + 1];
	char			 finished_at[EXPORT_TIME_LEN + 1];
	int64_t			 number_of_records;	/* -1: NULL */
	int64_t			 file_size;		/* -1: NULL */
	char			 file_checksum[EXPORT_CHECKSUM_LEN + 1];
	char			 error_msg[256];
	int32_t			 attempts;
	bool			 file_expired;	/* removed, or past its days */
	/* Heap JSON arrays; set only by repo_bulk_export_get_by_id. */
	char			*fields;
	char			*headers;
};

/* Frees what job owns (fields, headers) and zeroes it; NULL is fine. */
void	export_job_clear(struct export_job *job);

/* A job to create. */
struct export_new {
	char			 export_id[EXPORT_ID_LEN + 1];
	int64_t			 client_ref;
	const char		*object_name;
	enum export_format	 format;
	const char		*fields;	/* JSON array text */
	const char		*headers;	/* JSON array text */
	enum export_filter	 filter;
	const char		*start;		/* "YYYY-MM-DD HH:MM:SS" */
	const char		*end;
	int32_t			 list_id;	/* staticList */
	const char		*link_field;	/* staticList */
};

/* Inserts a Created job.  Returns 0 or a negative repo_err. */
int	repo_bulk_export_insert(struct db *db, const struct export_new *n);

/*
 * Reads the job export_id of client client_ref on object object_name
 * into out (zeroed first; fields and headers stay NULL).  Another
 * client's job or another object's is -REPO_ERR_NOT_FOUND, as if it did
 * not exist.  Returns 0, -REPO_ERR_NOT_FOUND or another negative
 * repo_err.
 */
int	repo_bulk_export_get(struct db *db, const char *export_id,
	    int64_t client_ref, const char *object_name,
	    struct export_job *out);

/*
 * Reads job id with its field and header lists (the runner).  Returns 0,
 * -REPO_ERR_NOT_FOUND or another negative repo_err; the caller clears
 * out (export_job_clear) in every case.
 */
int	repo_bulk_export_get_by_id(struct db *db, int64_t id,
	    struct export_job *out);

/*
 * The jobs of client_ref on object_name created in the last
 * EXPORT_LIST_DAYS days whose status is in statuses (a comma-separated
 * list of status names; "" for all), in id order after after_id (0: from
 * the start), at most limit of them, into *out (a heap array of *n jobs;
 * free with repo_bulk_export_jobs_free).  Returns 0 or a negative
 * repo_err.
 */
int	repo_bulk_export_list(struct db *db, int64_t client_ref,
	    const char *object_name, const char *statuses, int64_t after_id,
	    size_t limit, struct export_job **out, size_t *n);
void	repo_bulk_export_jobs_free(struct export_job *jobs, size_t n);

/* Why an enqueue was refused (repo_bulk_export_enqueue). */
enum export_refusal {
	EXPORT_REFUSED_NONE,
	EXPORT_REFUSED_NOT_CREATED,	/* "Job already queued" */
	EXPORT_REFUSED_QUEUE_FULL,	/* "Too many jobs in queue" */
	EXPORT_REFUSAL__MAX
};

/*
 * Moves the job (as repo_bulk_export_get finds it) from Created to
 * Queued when fewer than max_queued jobs of the whole instance are
 * Queued or Processing.  Enqueues serialise on export_gate, so the limit
 * holds under concurrency, also across Galera nodes.  Returns 0;
 * -REPO_ERR_NOT_FOUND; -REPO_ERR_CONFLICT with *why set; or another
 * negative repo_err.
 */
int	repo_bulk_export_enqueue(struct db *db, const char *export_id,
	    int64_t client_ref, const char *object_name, int max_queued,
	    enum export_refusal *why);

/*
 * Cancels the job (as repo_bulk_export_get finds it) when it is Created,
 * Queued or Processing (a runner working on it notices at its next
 * heartbeat).  Returns 0 when it is Cancelled now or was already, or
 * -REPO_ERR_NOT_FOUND, -REPO_ERR_CONFLICT (Completed or Failed), or
 * another negative repo_err.
 */
int	repo_bulk_export_cancel(struct db *db, const char *export_id,
	    int64_t client_ref, const char *object_name);

/*
 * The sum of the file sizes of the jobs completed on the US Central day
 * day_key (yyyymmdd), into *out.  Returns 0 or a negative repo_err.
 */
int	repo_bulk_export_day_bytes(struct db *db, int32_t day_key,
	    int64_t *out);

/*
 * The number of jobs in each state (GET /metrics), indexed by enum
 * export_status; every job the table keeps, final ones included until
 * they are purged.  Returns 0 or a negative repo_err (counts are then 0).
 */
int	repo_bulk_export_count_by_status(struct db *db,
	    int64_t counts[EXPORT_STATUS__MAX]);

/* ---- Runners ------------------------------------------------------- */

/* One row of export_slot. */
struct export_slot_row {
	int32_t		 slot;
	char		 owner[128];	/* "" when free */
	int64_t		 job_id;	/* 0 when none */
	bool		 expired;	/* lease_until is past (db clock) */
};

/* Reads the slots (EXPORT_SLOTS rows) into rows; *n gets the count. */
int	repo_bulk_export_slots(struct db *db,
	    struct export_slot_row rows[EXPORT_SLOTS], size_t *n);

/*
 * Takes over slot from owner, whose runner is gone: frees the slot and
 * queues its Processing job again, or fails it with msg once it has
 * had max_attempts attempts.  Nothing happens when the slot's owner
 * changed meanwhile.  *job_id and *failed say what was done (0: no job).
 * Returns 0 or a negative repo_err.
 */
int	repo_bulk_export_take_over(struct db *db, int32_t slot,
	    const char *owner, int max_attempts, const char *msg,
	    int64_t *job_id, bool *failed);

/*
 * Queues again the jobs Processing for more than min_secs that no slot
 * holds (a state no runner leaves; a guard against hand edits of
 * export_slot).  Returns the count or a negative repo_err.
 */
int	repo_bulk_export_requeue_orphans(struct db *db, int min_secs);

/* What a runner got from repo_bulk_export_claim. */
struct export_claim {
	int32_t		 slot;
	int64_t		 job_id;
	int32_t		 attempt;	/* the job's attempts after the claim */
};

/*
 * Takes a free slot and the oldest Queued job in one transaction, as
 * owner, with a lease of lease_secs.  Returns 0 and *out,
 * -REPO_ERR_NOT_FOUND when no slot is free or no job is queued,
 * -REPO_ERR_CONFLICT when another runner won the race (try again), or
 * another negative repo_err.
 */
int	repo_bulk_export_claim(struct db *db, const char *owner,
	    int lease_secs, struct export_claim *out);

/*
 * Renews the lease of c (held by owner) for lease_secs while its job is
 * still Processing.  Returns 0, -REPO_ERR_NOT_FOUND when the slot is no
 * longer owner's or the job was cancelled (stop working on it), or
 * another negative repo_err.
 */
int	repo_bulk_export_heartbeat(struct db *db, const char *owner,
	    const struct export_claim *c, int lease_secs);

/* The outcome of a finished export. */
struct export_result {
	int64_t		 records;
	int64_t		 size;
	char		 checksum[EXPORT_CHECKSUM_LEN + 1];
	int32_t		 day_key;	/* US Central date of completion */
};

/*
 * Marks c's job Completed with res and frees the slot, if owner still
 * holds the slot and the job is still Processing in attempt c->attempt.
 * Returns 0, -REPO_ERR_NOT_FOUND when it is not (cancelled or taken
 * over: the file must go), or another negative repo_err.
 */
int	repo_bulk_export_complete(struct db *db, const char *owner,
	    const struct export_claim *c, const struct export_result *res);

/*
 * Marks c's job Failed with msg and frees the slot, under the same
 * conditions as repo_bulk_export_complete.  Returns 0,
 * -REPO_ERR_NOT_FOUND or another negative repo_err.
 */
int	repo_bulk_export_fail(struct db *db, const char *owner,
	    const struct export_claim *c, const char *msg);

/*
 * Frees owner's slot c.  With requeue (the runner is stopping), a job
 * still Processing in attempt c->attempt goes back to Queued, and the
 * attempt does not count.  Returns 0 or a negative repo_err.
 */
int	repo_bulk_export_release(struct db *db, const char *owner,
	    const struct export_claim *c, bool requeue);

/* A completed job whose file is due for removal. */
struct export_file_ref {
	int64_t			 id;
	char			 export_id[EXPORT_ID_LEN + 1];
	int32_t			 attempts;
	enum export_format	 format;
};

/*
 * Up to max Completed jobs whose file is older than EXPORT_FILE_DAYS and
 * not yet removed, into out; *n gets the count.  Returns 0 or a negative
 * repo_err.
 */
int	repo_bulk_export_files_due(struct db *db, struct export_file_ref *out,
	    size_t max, size_t *n);
/* Records that job id's file is gone.  Returns 0 or a negative repo_err. */
int	repo_bulk_export_file_gone(struct db *db, int64_t id);

/*
 * Deletes up to max jobs finished (or created, when never finished) more
 * than EXPORT_STATUS_DAYS ago and no longer Queued or Processing.
 * Returns the count or a negative repo_err.
 */
int	repo_bulk_export_purge(struct db *db, int max);

#endif
