/*
 * The export runner (docs/behaviour.md §7).
 *
 * Deployment.  A runner is a process forked and supervised by the mautod
 * master, like a worker: the master starts EXPORT_SLOTS of them when
 * export_runner is on, restarts one that dies (with back-off when they
 * die young), replaces them on SIGHUP and stops them on SIGTERM.  So the
 * jobs run wherever mautod runs, under systemd, the quickstart and the
 * tests alike, with no unit of their own; a host that should not run
 * jobs sets export_runner = false.  Runners never serve requests.
 *
 * Coordination, through the database only (docs/galera.md): at most
 * EXPORT_SLOTS jobs process at once in the whole instance, however many
 * runners and hosts there are, because a job is processed only by the
 * runner that holds one of the EXPORT_SLOTS rows of export_slot.  A
 * runner takes a free slot and the oldest Queued job in one transaction
 * (conditional UPDATEs; on Galera the loser of a race gets 1213 and
 * tries again) and renews the slot's lease, its heartbeat, every
 * HEARTBEAT_MS while it works.  A slot whose lease ran out
 * (export_lease_secs without a heartbeat: the host died or hangs), or
 * whose owner is a dead process of this host (found at once), is taken
 * over by any runner between two jobs: the job goes back to Queued, or
 * fails with errorMsg after EXPORT_MAX_ATTEMPTS such losses.  So no job
 * stays Processing once its runner is gone.
 *
 * A job: the runner reads the type again (a field removed since create
 * fails the job), streams the records from a connection of its own
 * (unbuffered: one row in memory at a time) into
 * "<export_dir>/<exportId>-<attempt>.<nonce>.part" through csv.c, which
 * counts bytes and computes the SHA-256 on the way; then fsync, rename to
 * "<exportId>-<attempt>.<ext>" (export_file_path) and one transaction
 * marks the job Completed, conditional on the job being still Processing
 * in this attempt and the slot still this runner's.  When that fails the
 * job was cancelled or taken over, and the file is removed.  The
 * heartbeat is also how a cancel reaches the runner: it renews the lease
 * only while the job is Processing, so a Cancelled job stops being
 * written within HEARTBEAT_MS.
 *
 * Runner 0 of each host also keeps the directory: files of jobs
 * completed EXPORT_FILE_DAYS ago are removed (the job then answers 404
 * for its file), jobs older than EXPORT_STATUS_DAYS deleted, partial
 * files left by a crash removed.  With several hosts, export_dir must be
 * a directory they share, as workers serve files any runner wrote.
 */
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>
#include <sodium.h>

#include "auth/ratelimit.h"
#include "db/pool.h"
#include "export/csv.h"
#include "model/export.h"
#include "export/runner.h"
#include "bounds.h"
#include "model/cotype.h"
#include "repo/repo.h"
#include "repo/repo_bulk_export.h"
#include "repo/repo_bulk_export_stream.h"
#include "repo/repo_co_types.h"
#include "util/config.h"
#include "util/log.h"
#include "util/num.h"
#include "util/stopsig.h"
#include "util/timeutil.h"
#include "util/xmalloc.h"

#define POLL_MS			500	/* an idle runner looks for jobs */
#define HEARTBEAT_MS		1000	/* a busy runner renews its lease */
#define CHECK_ROWS		256	/* rows between clock checks */
#define JANITOR_MS		60000
#define PART_STALE_SECS		3600	/* a partial file nobody writes */
#define FILES_PER_SWEEP		100
#define PURGE_PER_SWEEP		500
#define PATH_BYTES		4096

static bool
stopping(const struct export_runner *r)
{
	return r->stop != NULL && *r->stop;
}

/* Makes dir (and its parents) with mode 0700 when missing. */
static int
make_dir(const char *dir)
{
	char path[PATH_BYTES];
	size_t i, n = strlen(dir);
	int r = -1;

	if (n == 0 || n >= sizeof(path))
		goto out;
	memcpy(path, dir, n + 1);
	for (i = 1; i <= n; i++) {
		if (path[i] != '/' && path[i] != '\0')
			continue;
		path[i] = '\0';
		if (mkdir(path, 0700) == -1 && errno != EEXIST)
			goto out;
		path[i] = i == n ? '\0' : '/';
	}
	r = access(dir, W_OK | X_OK);
out:
	return r;
}

/* See runner.h. */
int
export_runner_init(struct export_runner *r, const struct config *cfg,
    unsigned index)
{
	char nonce[9];
	unsigned char b[4];
	int rc = 0;

	memset(r, 0, sizeof(r[0]));
	r->cfg = cfg;
	r->index = index;
	if (cfg->host_id != NULL && cfg->host_id[0] != '\0')
		(void)snprintf(r->host, sizeof(r->host), "%s", cfg->host_id);
	else if (gethostname(r->host, sizeof(r->host) - 1) != 0)
		(void)snprintf(r->host, sizeof(r->host), "localhost");
	r->host[strcspn(r->host, ":")] = '\0';
	randombytes_buf(b, sizeof(b));
	(void)sodium_bin2hex(nonce, sizeof(nonce), b, sizeof(b));
	(void)snprintf(r->owner, sizeof(r->owner), "%s:%ld:%s", r->host,
	    (long)getpid(), nonce);
	if (make_dir(cfg->export_dir) != 0) {
		log_err("export runner %u: export_dir %s: %s", index,
		    cfg->export_dir, strerror(errno));
		rc = -1;
	}
	return rc;
}

/*
 * Whether the runner named owner is a process of this host that is gone
 * (or this very runner, which holds no slot between jobs).
 */
static bool
owner_gone_here(const struct export_runner *r, const char *owner)
{
	const char *colon, *end;
	int64_t pid = 0;
	bool gone = false;

	if (strcmp(owner, r->owner) == 0)
		gone = true;
	else if ((colon = strchr(owner, ':')) != NULL &&
	    (end = strchr(colon + 1, ':')) != NULL &&
	    (size_t)(colon - owner) == strlen(r->host) &&
	    memcmp(owner, r->host, strlen(r->host)) == 0 &&
	    num_parse_i64n(colon + 1, (size_t)(end - colon - 1), 1, INT32_MAX,
	    &pid) == 0 && (pid_t)pid != getpid())
		gone = kill((pid_t)pid, 0) == -1 && errno == ESRCH;
	return gone;
}

/*
 * Removes the partial file the runner owner left of job id (its name
 * ends with the owner's nonce; the attempt is still the job's).
 */
static void
drop_part(const struct export_runner *r, int64_t id, const char *owner)
{
	struct export_job job;
	char final[PATH_BYTES], part[PATH_BYTES];
	const char *nonce = strrchr(owner, ':');

	memset(&job, 0, sizeof(job));
	if (nonce != NULL &&
	    repo_bulk_export_get_by_id(r->db, id, &job) == 0 &&
	    export_file_path(final, sizeof(final), r->cfg->export_dir,
	    job.export_id, job.attempts, job.format) == 0 &&
	    snprintf(part, sizeof(part), "%s.%s.part", final, nonce + 1) <
	    (int)sizeof(part) && unlink(part) == 0)
		log_info("export runner %u: removed %s", r->index, part);
	export_job_clear(&job);
}

/* See runner.h. */
int
export_runner_sweep(struct export_runner *r)
{
	struct export_slot_row rows[EXPORT_SLOTS];
	char msg[128];
	int64_t job;
	size_t i, n;
	bool failed;
	int e, done = 0;

	if ((e = repo_bulk_export_slots(r->db, rows, &n)) != 0)
		goto out;
	(void)snprintf(msg, sizeof(msg), "The export stopped unexpectedly %d "
	    "times (its runner died or went silent)", EXPORT_MAX_ATTEMPTS);
	for (i = 0; i < n; i++) {
		if (rows[i].owner[0] == '\0' ||
		    (!rows[i].expired && !owner_gone_here(r, rows[i].owner)))
			continue;
		if ((e = repo_bulk_export_take_over(r->db, rows[i].slot,
		    rows[i].owner, EXPORT_MAX_ATTEMPTS, msg, &job,
		    &failed)) != 0)
			goto out;
		if (job == 0)
			continue;
		done++;
		log_warn("export runner %u: took over job %lld from %s, whose "
		    "%s; %s", r->index, (long long)job, rows[i].owner,
		    rows[i].expired ? "lease ran out" : "process is gone",
		    failed ? "it failed (too many attempts)" :
		    "queued it again");
		drop_part(r, job, rows[i].owner);
	}
	e = done;
out:
	return e;
}

/* A job being written. */
struct job_run {
	struct export_runner		*r;
	struct export_claim		 claim;
	struct export_job		 job;
	struct co_type			 type;
	struct json_object		*fields;
	struct json_object		*headers;
	struct export_column		*cols;
	size_t				 ncols;
	char				 part[PATH_BYTES];
	char				 final[PATH_BYTES];
	int				 fd;
	struct db			*stream_db;
	struct export_stream		*stream;
	int64_t				 beat_at;	/* next heartbeat */
	int64_t				 beat_ok;	/* last renewal */
	char				 why[256];	/* errorMsg */
};

/* How a job's run ended. */
enum run_end {
	RUN_DONE,	/* file written */
	RUN_FAIL,	/* the job fails with why */
	RUN_STOP,	/* the runner stops: give the job back */
	RUN_LOST,	/* cancelled or taken over: drop it */
};

/* The record columns of the job's fields (names checked against the type). */
static enum run_end
resolve_columns(struct job_run *j)
{
	static const struct { const char *name; enum co_dtype type; } sys[] = {
		{ "marketoGUID", CO_STRING },
		{ "createdAt", CO_DATETIME },
		{ "updatedAt", CO_DATETIME },
	};
	const struct co_field *f;
	const char *name;
	enum run_end end = RUN_FAIL;
	size_t i, k, n = 0;
	int e;

	e = repo_co_types_get(j->r->db, j->job.object_name, true,
	    &j->type);
	if (e == -REPO_ERR_NOT_FOUND) {
		(void)snprintf(j->why, sizeof(j->why), "Custom object type "
		    "'%s' no longer exists", j->job.object_name);
		goto out;
	}
	j->fields = json_tokener_parse(j->job.fields);
	j->headers = json_tokener_parse(j->job.headers);
	if (e != 0 || j->fields == NULL || j->headers == NULL ||
	    !json_object_is_type(j->fields, json_type_array) ||
	    !json_object_is_type(j->headers, json_type_array) ||
	    (n = json_object_array_length(j->fields)) == 0 ||
	    n != json_object_array_length(j->headers) ||
	    n > EXPORT_MAX_FIELDS) {
		(void)snprintf(j->why, sizeof(j->why), "Internal error: the "
		    "job could not be read");
		goto out;
	}
	j->cols = xcalloc(n, sizeof(*j->cols));
	for (i = 0; i < n; i++) {
		name = json_object_get_string(json_object_array_get_idx(
		    j->fields, i));
		j->cols[i].name = name;
		for (k = 0; k < sizeof(sys) / sizeof(sys[0]) &&
		    strcmp(name, sys[k].name) != 0; k++)
			continue;
		if (k < sizeof(sys) / sizeof(sys[0])) {
			j->cols[i].type = sys[k].type;
			continue;
		}
		if ((f = co_type_field(&j->type, name)) == NULL) {
			(void)snprintf(j->why, sizeof(j->why), "Field '%s' no "
			    "longer exists", name);
			goto out;
		}
		j->cols[i].name = f->name;
		j->cols[i].type = f->type;
	}
	j->ncols = n;
	end = RUN_DONE;
out:
	return end;
}

/* Renews the lease when due; RUN_DONE to go on. */
static enum run_end
heartbeat(struct job_run *j)
{
	int64_t now = time_mono_ms();
	int lease = j->r->cfg->export_lease_secs;
	enum run_end end = RUN_DONE;
	int e;

	if (stopping(j->r)) {
		end = RUN_STOP;
		goto out;
	}
	if (now < j->beat_at)
		goto out;
	j->beat_at = now + HEARTBEAT_MS;
	e = repo_bulk_export_heartbeat(j->r->db, j->r->owner, &j->claim,
	    lease);
	if (e == 0)
		j->beat_ok = now;
	else if (e == -REPO_ERR_NOT_FOUND)
		end = RUN_LOST;
	else if (now - j->beat_ok >= (int64_t)lease * 1000) {
		/* The database is away: go on until the lease would run out. */
		log_err("export runner %u: job %lld: no heartbeat for %d s; "
		    "giving it up", j->r->index, (long long)j->claim.job_id,
		    lease);
		end = RUN_LOST;
	}
out:
	return end;
}

/* Writes the header row and every record; RUN_DONE when all are out. */
static enum run_end
write_records(struct job_run *j, struct csv_writer *w)
{
	struct export_select sel;
	const struct co_field *lf;
	const char *const *vals;
	const unsigned long *lens;
	const char *h;
	enum run_end end = RUN_FAIL;
	size_t i;
	int e;

	for (i = 0; i < j->ncols; i++) {
		h = json_object_get_string(json_object_array_get_idx(
		    j->headers, i));
		csv_field(w, h, strlen(h));
	}
	csv_row_end(w);
	memset(&sel, 0, sizeof(sel));
	sel.table = j->type.table;
	sel.cols = j->cols;
	sel.ncols = j->ncols;
	sel.filter = j->job.filter;
	sel.start = j->job.filter_start;
	sel.end = j->job.filter_end;
	sel.list_id = j->job.list_id;
	sel.link_field = j->job.link_field;
	lf = co_type_field(&j->type, j->job.link_field);
	sel.link_by_email = lf != NULL && lf->is_link &&
	    lf->key_type == CO_EMAIL;
	if (db_open(&j->stream_db, j->r->cfg, &repo_schema, DB_PREPARE_NONE) != 0 ||
	    repo_bulk_export_stream_open(j->stream_db, &sel,
	    &j->stream) != 0) {
		(void)snprintf(j->why, sizeof(j->why), "Database error while "
		    "selecting the records");
		goto out;
	}
	for (;;) {
		if (w->rows % CHECK_ROWS == 0 &&
		    (end = heartbeat(j)) != RUN_DONE)
			goto out;
		if ((e = repo_bulk_export_stream_next(j->stream, &vals,
		    &lens)) == 0 || w->err != 0)
			break;
		if (e < 0) {
			(void)snprintf(j->why, sizeof(j->why), "Database error "
			    "while reading the records");
			end = RUN_FAIL;
			goto out;
		}
		for (i = 0; i < j->ncols; i++)
			csv_field(w, vals[i], vals[i] != NULL ? lens[i] : 0);
		csv_row_end(w);
	}
	end = RUN_DONE;
out:
	return end;
}

/* Writes the file of the job; fills res.  RUN_DONE when it is in place. */
static enum run_end
write_file(struct job_run *j, struct export_result *res)
{
	struct csv_writer *w;
	enum run_end end;
	char nonce[16];
	const char *dir = j->r->cfg->export_dir;
	int fin;

	w = xmalloc(sizeof(*w));
	(void)snprintf(nonce, sizeof(nonce), "%s",
	    strrchr(j->r->owner, ':') + 1);
	if (export_file_path(j->final, sizeof(j->final), dir,
	    j->job.export_id, j->claim.attempt, j->job.format) != 0 ||
	    snprintf(j->part, sizeof(j->part), "%s.%s.part", j->final,
	    nonce) >= (int)sizeof(j->part)) {
		(void)snprintf(j->why, sizeof(j->why), "export_dir is too "
		    "long");
		end = RUN_FAIL;
		goto out;
	}
	j->fd = open(j->part, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (j->fd == -1) {
		log_err("export runner %u: %s: %s", j->r->index, j->part,
		    strerror(errno));
		j->part[0] = '\0';
		(void)snprintf(j->why, sizeof(j->why), "Could not create the "
		    "export file");
		end = RUN_FAIL;
		goto out;
	}
	csv_writer_init(w, j->fd, export_format_delim(j->job.format));
	end = write_records(j, w);
	fin = csv_writer_finish(w, res->checksum);
	if (end != RUN_DONE)
		goto out;
	if (fin != 0 || fsync(j->fd) != 0) {
		log_err("export runner %u: writing %s: %s", j->r->index,
		    j->part, strerror(fin != 0 ? w->err : errno));
		(void)snprintf(j->why, sizeof(j->why), "Could not write the "
		    "export file: %s", strerror(fin != 0 ? w->err : errno));
		end = RUN_FAIL;
		goto out;
	}
	res->records = w->rows - 1;	/* the header row is no record */
	res->size = w->bytes;
	(void)close(j->fd);
	j->fd = -1;
	if (rename(j->part, j->final) != 0) {
		log_err("export runner %u: rename %s: %s", j->r->index,
		    j->part, strerror(errno));
		(void)snprintf(j->why, sizeof(j->why), "Could not write the "
		    "export file");
		end = RUN_FAIL;
		goto out;
	}
	j->part[0] = '\0';
	end = RUN_DONE;
out:
	free(w);
	return end;
}

static void
job_run_clear(struct job_run *j)
{
	db_close(j->stream_db);
	repo_bulk_export_stream_close(j->stream);
	if (j->fd != -1)
		(void)close(j->fd);
	if (j->part[0] != '\0')
		(void)unlink(j->part);
	free(j->cols);
	json_object_put(j->fields);
	json_object_put(j->headers);
	co_type_clear(&j->type);
	export_job_clear(&j->job);
}

/*
 * The test hook fault_export_hold: while its file exists, the runner
 * stops itself as a job starts, so a test acts on the job at a known
 * point (Processing in this attempt, the slot this runner's, its run's
 * clock started) instead of racing a job that may end before it is seen.
 */
static void
hold_if_asked(const struct export_runner *r, const struct export_claim *c)
{
	const char *f = r->cfg->fault_export_hold;

	if (f != NULL && access(f, F_OK) == 0) {
		log_info("export runner %u: job %lld: attempt %d held",
		    r->index, (long long)c->job_id, c->attempt);
		(void)raise(SIGSTOP);
	}
}

/* Carries out claimed job c; the outcome is recorded, never returned. */
static void
run_job(struct export_runner *r, const struct export_claim *c)
{
	struct job_run *j;
	struct export_result res;
	enum run_end end;
	int64_t t0 = time_mono_ms();
	int e;

	j = xcalloc(1, sizeof(*j));
	j->r = r;
	j->claim = *c;
	j->fd = -1;
	j->beat_ok = t0;
	j->beat_at = t0 + HEARTBEAT_MS;
	memset(&res, 0, sizeof(res));
	log_info("export runner %u: job %lld: attempt %d in slot %d",
	    r->index, (long long)c->job_id, c->attempt, c->slot);
	hold_if_asked(r, c);
	e = repo_bulk_export_get_by_id(r->db, c->job_id, &j->job);
	if (e != 0) {
		(void)snprintf(j->why, sizeof(j->why), "Internal error: the "
		    "job could not be read");
		end = RUN_FAIL;
	} else if ((end = resolve_columns(j)) == RUN_DONE)
		end = write_file(j, &res);
	/*
	 * The stream ends before the outcome is written; the connection
	 * goes first, so rows not read are not read (repo_bulk_export.h).
	 */
	db_close(j->stream_db);
	j->stream_db = NULL;
	repo_bulk_export_stream_close(j->stream);
	j->stream = NULL;
	switch (end) {
	case RUN_DONE:
		res.day_key = limiter_day_key((int64_t)time(NULL));
		e = repo_bulk_export_complete(r->db, r->owner, c, &res);
		if (e == 0) {
			log_info("export runner %u: job %s: %lld records, %lld "
			    "bytes in %lld ms", r->index, j->job.export_id,
			    (long long)res.records, (long long)res.size,
			    (long long)(time_mono_ms() - t0));
			break;
		}
		if (e == -REPO_ERR_NOT_FOUND) {
			(void)unlink(j->final);
			(void)repo_bulk_export_release(r->db, r->owner, c,
			    false);
			log_info("export runner %u: job %s was cancelled or "
			    "taken over; file dropped", r->index,
			    j->job.export_id);
		} else
			log_err("export runner %u: job %s: completing it "
			    "failed; its lease will run out", r->index,
			    j->job.export_id);
		break;
	case RUN_FAIL:
		log_warn("export runner %u: job %lld failed: %s", r->index,
		    (long long)c->job_id, j->why);
		(void)repo_bulk_export_fail(r->db, r->owner, c, j->why);
		break;
	case RUN_STOP:
		log_info("export runner %u: stopping; job %lld queued again",
		    r->index, (long long)c->job_id);
		(void)repo_bulk_export_release(r->db, r->owner, c, true);
		break;
	case RUN_LOST:
		log_info("export runner %u: job %lld was cancelled or taken "
		    "over; stopped", r->index, (long long)c->job_id);
		(void)repo_bulk_export_release(r->db, r->owner, c, false);
		break;
	}
	job_run_clear(j);
	free(j);
}

/* See runner.h. */
int
export_runner_step(struct export_runner *r)
{
	struct export_claim c;
	int e;

	e = repo_bulk_export_claim(r->db, r->owner,
	    r->cfg->export_lease_secs, &c);
	if (e == 0) {
		run_job(r, &c);
		e = 1;
	} else if (e == -REPO_ERR_NOT_FOUND || e == -REPO_ERR_CONFLICT)
		e = 0;
	return e;
}

/*
 * Whether name is one of our files: "<uuid>-<n>.<ext>", optionally
 * followed by ".<nonce>.part"; *part says which.
 */
static bool
is_export_file(const char *name, bool *part)
{
	char id[EXPORT_ID_LEN + 1];
	size_t n = strlen(name);
	bool ok = false;

	*part = n > 5 && strcmp(name + n - 5, ".part") == 0;
	if (n >= EXPORT_ID_LEN + 3 && name[EXPORT_ID_LEN] == '-') {
		memcpy(id, name, EXPORT_ID_LEN);
		id[EXPORT_ID_LEN] = '\0';
		ok = export_id_valid(id);
	}
	return ok;
}

/* Removes partial files nobody writes and files past their days. */
static void
clean_dir(struct export_runner *r)
{
	const char *dir = r->cfg->export_dir;
	char path[PATH_BYTES];
	struct dirent *de;
	struct stat sb;
	time_t now = time(NULL), age;
	bool part;
	DIR *d;

	if ((d = opendir(dir)) == NULL)
		goto out;
	while ((de = readdir(d)) != NULL) {
		if (!is_export_file(de->d_name, &part) ||
		    snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >=
		    (int)sizeof(path) || lstat(path, &sb) != 0 ||
		    !S_ISREG(sb.st_mode))
			continue;
		age = now - sb.st_mtime;
		if (age > (part ? PART_STALE_SECS :
		    (EXPORT_FILE_DAYS + 1) * 86400) && unlink(path) == 0)
			log_info("export runner %u: removed stale %s", r->index,
			    de->d_name);
	}
	(void)closedir(d);
out:
	return;
}

/* See runner.h. */
int
export_runner_janitor(struct export_runner *r)
{
	struct export_file_ref due[FILES_PER_SWEEP];
	char path[PATH_BYTES];
	size_t i, n;
	int e;

	if ((e = repo_bulk_export_files_due(r->db, due, FILES_PER_SWEEP,
	    &n)) != 0)
		goto out;
	for (i = 0; i < n; i++) {
		if (export_file_path(path, sizeof(path), r->cfg->export_dir,
		    due[i].export_id, due[i].attempts, due[i].format) == 0 &&
		    unlink(path) != 0 && errno != ENOENT)
			log_warn("export runner %u: %s: %s", r->index, path,
			    strerror(errno));
		if ((e = repo_bulk_export_file_gone(r->db, due[i].id)) != 0)
			goto out;
	}
	if ((e = repo_bulk_export_purge(r->db, PURGE_PER_SWEEP)) < 0 ||
	    (e = repo_bulk_export_requeue_orphans(r->db,
	    2 * r->cfg->export_lease_secs)) < 0)
		goto out;
	if (e > 0)
		log_warn("export runner %u: queued %d orphaned jobs again",
		    r->index, e);
	clean_dir(r);
	e = 0;
out:
	return e;
}

/* The loop of a runner; returns the exit status. */
static int
loop(struct export_runner *r)
{
	int64_t now;
	int e;

	while (!stopsig_stop) {
		db_revive_idle(r->db);
		if (db_ensure(r->db) != 0) {
			stopsig_nap(POLL_MS * 2);
			continue;
		}
		if (export_runner_sweep(r) < 0) {
			stopsig_nap(POLL_MS);
			continue;
		}
		now = time_mono_ms();
		if (r->index == 0 && now >= r->janitor_at) {
			r->janitor_at = now + JANITOR_MS;
			(void)export_runner_janitor(r);
		}
		if ((e = export_runner_step(r)) > 0)
			continue;
		stopsig_nap(POLL_MS);
	}
	return RUNNER_EXIT_OK;
}

/* See runner.h. */
int
export_runner_run(const struct export_runner_args *a)
{
	struct export_runner r;
	int status = RUNNER_EXIT_STARTUP;

	memset(&r, 0, sizeof(r));
	/* A runner must not outlive its master. */
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) == -1 ||
	    getppid() != a->master || stopsig_setup() != 0)
		goto out;
	(void)prctl(PR_SET_NAME, RUNNER_PROC_NAME);
	if (sodium_init() < 0 ||
	    export_runner_init(&r, a->cfg, a->index) != 0)
		goto out;
	r.stop = &stopsig_stop;
	if (db_open(&r.db, a->cfg, &repo_schema, DB_PREPARE_LAZY) != 0) {
		log_err("export runner %u: cannot open the database; exiting",
		    a->index);
		goto out;
	}
	db_set_metrics(r.db, a->metrics);
	log_debug("export runner %u: ready as %s", a->index, r.owner);
	status = loop(&r);
out:
	db_close(r.db);
	return status;
}
