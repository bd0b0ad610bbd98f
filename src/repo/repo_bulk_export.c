/*
 * Bulk export jobs and slots (migration 0006); see repo_bulk_export.h.
 *
 * Galera (docs/galera.md): every table has a primary key; mutual exclusion is
 * by rows (export_slot for processing, export_gate for the queue limit),
 * never GET_LOCK or LOCK TABLES; every multi-statement change runs in
 * db_run_tx, which re-runs it on 1213; no id is computed, ordering is by
 * time columns with the id only as a tie-break.  The records a runner
 * writes are streamed by repo_bulk_export_stream.c.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <mysql.h>

#include "db/bind.h"
#include "db/pool.h"
#include "db/query.h"
#include "bounds.h"
#include "repo/repo.h"
#include "repo/repo_bulk_export.h"
#include "util/log.h"
#include "util/xmalloc.h"

#define XSTR(x)		STR(x)
#define STR(x)		#x

enum bulk_export_stmt {
	BX_STMT_INSERT,
	BX_STMT_GET,
	BX_STMT_GET_BY_ID,
	BX_STMT_LIST,
	BX_STMT_GATE_BUMP,
	BX_STMT_LOCK_BY_KEY,
	BX_STMT_COUNT_ACTIVE,
	BX_STMT_ENQUEUE,
	BX_STMT_CANCEL,
	BX_STMT_DAY_BYTES,
	BX_STMT_SLOTS,
	BX_STMT_SLOT_LOCK,
	BX_STMT_SLOT_FREE,
	BX_STMT_SLOT_PICK,
	BX_STMT_SLOT_TAKE,
	BX_STMT_QUEUED_ANY,
	BX_STMT_QUEUED_LOCK,
	BX_STMT_JOB_LOCK,
	BX_STMT_JOB_START,
	BX_STMT_JOB_REQUEUE,
	BX_STMT_JOB_REQUEUE_STOP,
	BX_STMT_JOB_FAIL,
	BX_STMT_JOB_COMPLETE,
	BX_STMT_HEARTBEAT,
	BX_STMT_STILL_PROCESSING,
	BX_STMT_ORPHANS,
	BX_STMT_FILES_DUE,
	BX_STMT_FILE_GONE,
	BX_STMT_PURGE,
	BX_STMT_COUNT_BY_STATUS,
	BX_STMT__MAX
};

/* A nullable time as job_fill reads it. */
#define TIME_COL(c) \
	"COALESCE(DATE_FORMAT(" c ", '%Y-%m-%d %H:%i:%s.%f'), '')"

/* The job columns, in the order job_fill reads them. */
#define JOB_COLS \
	"id, export_id, client_ref, object_name, format, status, " \
	"filter_type, " TIME_COL("filter_start") ", " \
	TIME_COL("filter_end") ", COALESCE(list_id, 0), " \
	"COALESCE(link_field, ''), " TIME_COL("created_at") ", " \
	TIME_COL("queued_at") ", " TIME_COL("started_at") ", " \
	TIME_COL("finished_at") ", COALESCE(number_of_records, -1), " \
	"COALESCE(file_size, -1), COALESCE(file_checksum, ''), " \
	"COALESCE(error_msg, ''), attempts, " \
	"IF(file_expired <> 0 OR (finished_at IS NOT NULL AND " \
	"finished_at < NOW(6) - INTERVAL " XSTR(EXPORT_FILE_DAYS) " DAY), " \
	"1, 0) "
#define JOB_NCOLS	21

/* The key of a job as a client names it. */
#define JOB_KEY	"export_id = ? AND client_ref = ? AND object_name = ?"

static const char *const sql[BX_STMT__MAX] = {
	[BX_STMT_INSERT] =
	    "INSERT INTO export_job (export_id, client_ref, object_name, "
	    "format, status, fields, headers, filter_type, filter_start, "
	    "filter_end, list_id, link_field, created_at) "
	    "VALUES (?, ?, ?, ?, 'Created', ?, ?, ?, ?, ?, ?, ?, NOW(6))",
	[BX_STMT_GET] =
	    "SELECT " JOB_COLS "FROM export_job WHERE " JOB_KEY,
	[BX_STMT_GET_BY_ID] =
	    "SELECT " JOB_COLS ", fields, headers FROM export_job "
	    "WHERE id = ?",
	/*
	 * Parameters: client, object, statuses twice, after id, limit.
	 * Paged by id (util/pagetoken.h): stable while jobs come and go.
	 */
	[BX_STMT_LIST] =
	    "SELECT " JOB_COLS "FROM export_job "
	    "WHERE client_ref = ? AND object_name = ? AND created_at >= "
	    "NOW(6) - INTERVAL " XSTR(EXPORT_LIST_DAYS) " DAY "
	    "AND (? = '' OR FIND_IN_SET(status, ?) > 0) AND id > ? "
	    "ORDER BY id LIMIT ?",
	[BX_STMT_GATE_BUMP] =
	    "UPDATE export_gate SET version = version + 1 WHERE id = 1",
	[BX_STMT_LOCK_BY_KEY] =
	    "SELECT status FROM export_job WHERE " JOB_KEY " FOR UPDATE",
	[BX_STMT_COUNT_ACTIVE] =
	    "SELECT COUNT(*) FROM export_job "
	    "WHERE status IN ('Queued', 'Processing')",
	[BX_STMT_ENQUEUE] =
	    "UPDATE export_job SET status = 'Queued', queued_at = NOW(6) "
	    "WHERE " JOB_KEY " AND status = 'Created'",
	[BX_STMT_CANCEL] =
	    "UPDATE export_job SET status = 'Cancelled' WHERE " JOB_KEY
	    " AND status IN ('Created', 'Queued', 'Processing')",
	[BX_STMT_DAY_BYTES] =
	    "SELECT CAST(COALESCE(SUM(file_size), 0) AS SIGNED) "
	    "FROM export_job WHERE day_key = ? AND status = 'Completed'",
	[BX_STMT_SLOTS] =
	    "SELECT slot, COALESCE(owner, ''), COALESCE(job_id, 0), "
	    "IF(lease_until IS NOT NULL AND lease_until < NOW(6), 1, 0) "
	    "FROM export_slot ORDER BY slot",
	[BX_STMT_SLOT_LOCK] =
	    "SELECT COALESCE(job_id, 0) FROM export_slot "
	    "WHERE slot = ? AND owner = ? FOR UPDATE",
	[BX_STMT_SLOT_FREE] =
	    "UPDATE export_slot SET owner = NULL, job_id = NULL, "
	    "lease_until = NULL WHERE slot = ? AND owner = ?",
	[BX_STMT_SLOT_PICK] =
	    "SELECT slot FROM export_slot WHERE owner IS NULL "
	    "ORDER BY slot LIMIT 1",
	[BX_STMT_SLOT_TAKE] =
	    "UPDATE export_slot SET owner = ?, job_id = ?, "
	    "lease_until = NOW(6) + INTERVAL ? SECOND "
	    "WHERE slot = ? AND owner IS NULL",
	[BX_STMT_QUEUED_ANY] =
	    "SELECT id FROM export_job WHERE status = 'Queued' LIMIT 1",
	[BX_STMT_QUEUED_LOCK] =
	    "SELECT id, attempts FROM export_job WHERE status = 'Queued' "
	    "ORDER BY queued_at, id LIMIT 1 FOR UPDATE",
	[BX_STMT_JOB_LOCK] =
	    "SELECT status, attempts FROM export_job WHERE id = ? FOR UPDATE",
	[BX_STMT_JOB_START] =
	    "UPDATE export_job SET status = 'Processing', "
	    "started_at = NOW(6), attempts = attempts + 1 "
	    "WHERE id = ? AND status = 'Queued'",
	[BX_STMT_JOB_REQUEUE] =
	    "UPDATE export_job SET status = 'Queued', started_at = NULL "
	    "WHERE id = ? AND status = 'Processing'",
	[BX_STMT_JOB_REQUEUE_STOP] =
	    "UPDATE export_job SET status = 'Queued', started_at = NULL, "
	    "attempts = attempts - 1 "
	    "WHERE id = ? AND status = 'Processing' AND attempts = ?",
	[BX_STMT_JOB_FAIL] =
	    "UPDATE export_job SET status = 'Failed', finished_at = NOW(6), "
	    "error_msg = ? "
	    "WHERE id = ? AND status = 'Processing' AND attempts = ?",
	[BX_STMT_JOB_COMPLETE] =
	    "UPDATE export_job SET status = 'Completed', "
	    "finished_at = NOW(6), number_of_records = ?, file_size = ?, "
	    "file_checksum = ?, day_key = ? "
	    "WHERE id = ? AND status = 'Processing' AND attempts = ?",
	[BX_STMT_HEARTBEAT] =
	    "UPDATE export_slot s JOIN export_job j ON j.id = s.job_id "
	    "SET s.lease_until = NOW(6) + INTERVAL ? SECOND "
	    "WHERE s.slot = ? AND s.owner = ? AND s.job_id = ? "
	    "AND j.status = 'Processing' AND j.attempts = ?",
	/*
	 * Parameters: job, attempt.  A read, so on Galera it waits until
	 * the node has applied what was committed before (a cancel made
	 * through another host), which the heartbeat's UPDATE does not.
	 */
	[BX_STMT_STILL_PROCESSING] =
	    "SELECT COUNT(*) FROM export_job WHERE id = ? "
	    "AND status = 'Processing' AND attempts = ?",
	/* Parameter: seconds a job must have been Processing. */
	[BX_STMT_ORPHANS] =
	    "UPDATE export_job j SET status = 'Queued', started_at = NULL "
	    "WHERE status = 'Processing' "
	    "AND started_at < NOW(6) - INTERVAL ? SECOND "
	    "AND NOT EXISTS (SELECT 1 FROM export_slot s "
	    "WHERE s.job_id = j.id)",
	[BX_STMT_FILES_DUE] =
	    "SELECT id, export_id, attempts, format FROM export_job "
	    "WHERE status = 'Completed' AND file_expired = 0 AND "
	    "finished_at < NOW(6) - INTERVAL " XSTR(EXPORT_FILE_DAYS) " DAY "
	    "ORDER BY finished_at LIMIT ?",
	[BX_STMT_FILE_GONE] =
	    "UPDATE export_job SET file_expired = 1 WHERE id = ?",
	[BX_STMT_PURGE] =
	    "DELETE FROM export_job "
	    "WHERE status NOT IN ('Queued', 'Processing') AND "
	    "COALESCE(finished_at, created_at) < NOW(6) - INTERVAL "
	    XSTR(EXPORT_STATUS_DAYS) " DAY LIMIT ?",
	/* The status index makes this an index-only scan. */
	[BX_STMT_COUNT_BY_STATUS] =
	    "SELECT status, COUNT(*) FROM export_job GROUP BY status",
};

const struct db_stmt_set repo_bulk_export_sql = {
	.name = "bulk_export",
	.sql = sql,
	.n = BX_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum bulk_export_stmt s)
{
	return db_stmt(db, REPO_BULK_EXPORT, (int)s);
}

/* Runs statement s with in; *rows gets the rows it matched. */
static int
exec_rows(struct db *db, enum bulk_export_stmt s, MYSQL_BIND *in,
    const char *where, uint64_t *rows)
{
	uint64_t n;

	return db_exec_n(db, stmt(db, s), in, rows != NULL ? rows : &n,
	    where);
}

/* The raw columns of JOB_COLS. */
struct job_raw {
	char		fmt[8], status[16], filter[24];
	unsigned long	len[JOB_NCOLS];
	my_bool		nul[JOB_NCOLS];
	int32_t		expired;
};

static void
bind_job(MYSQL_BIND *res, struct export_job *j, struct job_raw *raw)
{
	unsigned long *l = raw->len;
	my_bool *n = raw->nul;

	memset(res, 0, sizeof(*res) * JOB_NCOLS);
	bind_out_i64(&res[0], &j->id, &n[0]);
	bind_out_str(&res[1], j->export_id, sizeof(j->export_id), &l[1],
	    &n[1]);
	bind_out_i64(&res[2], &j->client_ref, &n[2]);
	bind_out_str(&res[3], j->object_name, sizeof(j->object_name), &l[3],
	    &n[3]);
	bind_out_str(&res[4], raw->fmt, sizeof(raw->fmt), &l[4], &n[4]);
	bind_out_str(&res[5], raw->status, sizeof(raw->status), &l[5], &n[5]);
	bind_out_str(&res[6], raw->filter, sizeof(raw->filter), &l[6], &n[6]);
	bind_out_str(&res[7], j->filter_start, sizeof(j->filter_start), &l[7],
	    &n[7]);
	bind_out_str(&res[8], j->filter_end, sizeof(j->filter_end), &l[8],
	    &n[8]);
	bind_out_i32(&res[9], &j->list_id, &n[9]);
	bind_out_str(&res[10], j->link_field, sizeof(j->link_field), &l[10],
	    &n[10]);
	bind_out_str(&res[11], j->created_at, sizeof(j->created_at), &l[11],
	    &n[11]);
	bind_out_str(&res[12], j->queued_at, sizeof(j->queued_at), &l[12],
	    &n[12]);
	bind_out_str(&res[13], j->started_at, sizeof(j->started_at), &l[13],
	    &n[13]);
	bind_out_str(&res[14], j->finished_at, sizeof(j->finished_at),
	    &l[14], &n[14]);
	bind_out_i64(&res[15], &j->number_of_records, &n[15]);
	bind_out_i64(&res[16], &j->file_size, &n[16]);
	bind_out_str(&res[17], j->file_checksum, sizeof(j->file_checksum),
	    &l[17], &n[17]);
	bind_out_str(&res[18], j->error_msg, sizeof(j->error_msg), &l[18],
	    &n[18]);
	bind_out_i32(&res[19], &j->attempts, &n[19]);
	bind_out_i32(&res[20], &raw->expired, &n[20]);
}

/* Terminates the string columns and turns the text ones into enums. */
static int
job_fill(struct export_job *j, struct job_raw *raw)
{
	static const struct {
		size_t	 col;
		size_t	 off;
		size_t	 size;
	} strs[] = {
		{ 1, offsetof(struct export_job, export_id),
		    EXPORT_ID_LEN + 1 },
		{ 3, offsetof(struct export_job, object_name),
		    CO_NAME_MAX + 1 },
		{ 7, offsetof(struct export_job, filter_start),
		    EXPORT_TIME_LEN + 1 },
		{ 8, offsetof(struct export_job, filter_end),
		    EXPORT_TIME_LEN + 1 },
		{ 10, offsetof(struct export_job, link_field),
		    CO_NAME_MAX + 1 },
		{ 11, offsetof(struct export_job, created_at),
		    EXPORT_TIME_LEN + 1 },
		{ 12, offsetof(struct export_job, queued_at),
		    EXPORT_TIME_LEN + 1 },
		{ 13, offsetof(struct export_job, started_at),
		    EXPORT_TIME_LEN + 1 },
		{ 14, offsetof(struct export_job, finished_at),
		    EXPORT_TIME_LEN + 1 },
		{ 17, offsetof(struct export_job, file_checksum),
		    EXPORT_CHECKSUM_LEN + 1 },
		{ 18, offsetof(struct export_job, error_msg), 256 },
	};
	size_t i, len;
	char *s;
	int r = 0;

	for (i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
		s = (char *)j + strs[i].off;
		len = raw->len[strs[i].col];
		s[len < strs[i].size ? len : strs[i].size - 1] = '\0';
	}
	raw->fmt[raw->len[4] < sizeof(raw->fmt) ? raw->len[4] :
	    sizeof(raw->fmt) - 1] = '\0';
	raw->status[raw->len[5] < sizeof(raw->status) ? raw->len[5] :
	    sizeof(raw->status) - 1] = '\0';
	raw->filter[raw->len[6] < sizeof(raw->filter) ? raw->len[6] :
	    sizeof(raw->filter) - 1] = '\0';
	j->file_expired = raw->expired != 0;
	if (export_format_parse(raw->fmt, &j->format) != 0 ||
	    export_status_parse(raw->status, false, &j->status) != 0 ||
	    export_filter_parse(raw->filter, &j->filter) != 0) {
		log_err("repo_bulk_export: job %lld has a bad format, status "
		    "or filter", (long long)j->id);
		r = -REPO_ERR_INTERNAL;
	}
	return r;
}

/* See repo_bulk_export.h. */
void
export_job_clear(struct export_job *job)
{
	if (job == NULL)
		return;
	free(job->fields);
	free(job->headers);
	memset(job, 0, sizeof(*job));
}

/* See repo_bulk_export.h. */
int
repo_bulk_export_insert(struct db *db, const struct export_new *n)
{
	MYSQL_BIND in[11];
	unsigned long l_id, l_obj, l_fmt, l_fields, l_headers, l_filter,
	    l_start, l_end, l_link;
	const char *fmt = export_format_name(n->format);
	const char *filter = export_filter_name(n->filter);
	int32_t list_id = n->list_id;
	int r;

	if ((r = db_ensure(db)) != 0)
		goto out;
	l_id = strlen(n->export_id);
	l_obj = strlen(n->object_name);
	l_fmt = strlen(fmt);
	l_fields = strlen(n->fields);
	l_headers = strlen(n->headers);
	l_filter = strlen(filter);
	bind_str(&in[0], n->export_id, &l_id);
	bind_i64(&in[1], &n->client_ref);
	bind_str(&in[2], n->object_name, &l_obj);
	bind_str(&in[3], fmt, &l_fmt);
	bind_str(&in[4], n->fields, &l_fields);
	bind_str(&in[5], n->headers, &l_headers);
	bind_str(&in[6], filter, &l_filter);
	if (n->start != NULL) {
		l_start = strlen(n->start);
		l_end = strlen(n->end);
		bind_str(&in[7], n->start, &l_start);
		bind_str(&in[8], n->end, &l_end);
	} else {
		bind_null(&in[7]);
		bind_null(&in[8]);
	}
	if (n->link_field != NULL) {
		l_link = strlen(n->link_field);
		bind_i32(&in[9], &list_id);
		bind_str(&in[10], n->link_field, &l_link);
	} else {
		bind_null(&in[9]);
		bind_null(&in[10]);
	}
	r = exec_rows(db, BX_STMT_INSERT, in, "repo_bulk_export_insert", NULL);
out:
	return r;
}

/* Binds the three parts of JOB_KEY. */
static void
bind_key(MYSQL_BIND *in, const char *export_id, unsigned long *l_id,
    const int64_t *client_ref, const char *object, unsigned long *l_obj)
{
	*l_id = strlen(export_id);
	*l_obj = strlen(object);
	bind_str(&in[0], export_id, l_id);
	bind_i64(&in[1], client_ref);
	bind_str(&in[2], object, l_obj);
}

/* See repo_bulk_export.h. */
int
repo_bulk_export_get(struct db *db, const char *export_id,
    int64_t client_ref, const char *object_name, struct export_job *out)
{
	MYSQL_STMT *st;
	MYSQL_BIND in[3], res[JOB_NCOLS];
	struct job_raw raw;
	unsigned long l_id, l_obj;
	int r;

	memset(out, 0, sizeof(*out));
	memset(&raw, 0, sizeof(raw));
	if ((r = db_ensure(db)) != 0)
		goto out;
	st = stmt(db, BX_STMT_GET);
	bind_key(in, export_id, &l_id, &client_ref, object_name, &l_obj);
	bind_job(res, out, &raw);
	if ((r = db_exec(db, st, in, "repo_bulk_export_get")) != 0 ||
	    (r = db_fetch_one(db, st, res, "repo_bulk_export_get")) != 0)
		goto out;
	r = job_fill(out, &raw);
out:
	if (r != 0)
		memset(out, 0, sizeof(*out));
	return r;
}

/*
 * Reads a LONGTEXT column of the current row into a new string: its
 * length is known after the fetch (bound with no buffer).
 */
static int
fetch_column(struct db *db, MYSQL_STMT *st, unsigned int col,
    unsigned long len, char **out)
{
	MYSQL_BIND b;
	char *s;
	int r = 0;

	s = xmalloc((size_t)len + 1);
	memset(&b, 0, sizeof(b));
	b.buffer_type = MYSQL_TYPE_STRING;
	b.buffer = s;
	b.buffer_length = len + 1;
	if (len > 0 && mysql_stmt_fetch_column(st, &b, col, 0) != 0) {
		r = db_error(db, st, "repo_bulk_export_get_by_id");
		free(s);
		s = NULL;
	} else
		s[len] = '\0';
	*out = s;
	return r;
}

/* See repo_bulk_export.h. */
int
repo_bulk_export_get_by_id(struct db *db, int64_t id, struct export_job *out)
{
	MYSQL_STMT *st = NULL;
	MYSQL_BIND in[1], res[JOB_NCOLS + 2];
	struct job_raw raw;
	unsigned long l_fields = 0, l_headers = 0;
	my_bool n_fields, n_headers;
	int e, r;

	memset(out, 0, sizeof(*out));
	memset(&raw, 0, sizeof(raw));
	if ((r = db_ensure(db)) != 0)
		goto out;
	st = stmt(db, BX_STMT_GET_BY_ID);
	bind_i64(&in[0], &id);
	bind_job(res, out, &raw);
	/* The lists are fetched by column once their length is known. */
	bind_out_str(&res[JOB_NCOLS], NULL, 0, &l_fields, &n_fields);
	bind_out_str(&res[JOB_NCOLS + 1], NULL, 0, &l_headers, &n_headers);
	if ((r = db_exec(db, st, in, "repo_bulk_export_get_by_id")) != 0)
		goto out;
	if (mysql_stmt_bind_result(st, res) != 0) {
		r = db_error(db, st, "repo_bulk_export_get_by_id");
		goto out;
	}
	e = mysql_stmt_fetch(st);
	if (e == MYSQL_NO_DATA) {
		r = -REPO_ERR_NOT_FOUND;
		goto out;
	}
	if (e != 0 && e != MYSQL_DATA_TRUNCATED) {
		r = db_error(db, st, "repo_bulk_export_get_by_id");
		goto out;
	}
	if ((r = job_fill(out, &raw)) != 0 ||
	    (r = fetch_column(db, st, JOB_NCOLS, l_fields, &out->fields)) != 0 ||
	    (r = fetch_column(db, st, JOB_NCOLS + 1, l_headers,
	    &out->headers)) != 0)
		goto out;
	r = 0;
out:
	if (st != NULL)
		mysql_stmt_free_result(st);
	return r;
}

/* See repo_bulk_export.h. */
void
repo_bulk_export_jobs_free(struct export_job *jobs, size_t n)
{
	size_t i;

	for (i = 0; jobs != NULL && i < n; i++)
		export_job_clear(&jobs[i]);
	free(jobs);
}

/* See repo_bulk_export.h. */
int
repo_bulk_export_list(struct db *db, int64_t client_ref,
    const char *object_name, const char *statuses, int64_t after_id,
    size_t limit, struct export_job **out, size_t *n)
{
	MYSQL_STMT *st = NULL;
	MYSQL_BIND in[6], res[JOB_NCOLS];
	struct export_job row, *jobs = NULL;
	struct job_raw raw;
	unsigned long l_obj, l_st;
	int64_t lim = (int64_t)limit;
	size_t count = 0;
	int e, r;

	*out = NULL;
	*n = 0;
	if ((r = db_ensure(db)) != 0)
		goto out;
	st = stmt(db, BX_STMT_LIST);
	l_obj = strlen(object_name);
	l_st = strlen(statuses);
	bind_i64(&in[0], &client_ref);
	bind_str(&in[1], object_name, &l_obj);
	bind_str(&in[2], statuses, &l_st);
	bind_str(&in[3], statuses, &l_st);
	bind_i64(&in[4], &after_id);
	bind_i64(&in[5], &lim);
	memset(&row, 0, sizeof(row));
	memset(&raw, 0, sizeof(raw));
	bind_job(res, &row, &raw);
	if ((r = db_exec(db, st, in, "repo_bulk_export_list")) != 0)
		goto out;
	if (mysql_stmt_bind_result(st, res) != 0) {
		r = db_error(db, st, "repo_bulk_export_list");
		goto out;
	}
	jobs = xcalloc(limit > 0 ? limit : 1, sizeof(*jobs));
	while ((e = mysql_stmt_fetch(st)) == 0 || e == MYSQL_DATA_TRUNCATED) {
		if (count == limit)
			break;
		if ((r = job_fill(&row, &raw)) != 0)
			goto out;
		jobs[count++] = row;
	}
	if (e != 0 && e != MYSQL_NO_DATA && e != MYSQL_DATA_TRUNCATED) {
		r = db_error(db, st, "repo_bulk_export_list");
		goto out;
	}
	*out = jobs;
	*n = count;
	jobs = NULL;
	r = 0;
out:
	if (st != NULL)
		mysql_stmt_free_result(st);
	free(jobs);
	return r;
}

struct enqueue_arg {
	const char		*export_id;
	int64_t			 client_ref;
	const char		*object;
	int64_t			 max;
	enum export_refusal	 why;
};

static int
enqueue_tx(struct db *db, void *p)
{
	struct enqueue_arg *a = p;
	MYSQL_STMT *st;
	MYSQL_BIND in[3], res[1];
	unsigned long l_id, l_obj, l_status = 0;
	char status[16];
	enum export_status s;
	my_bool nul;
	int64_t active = 0;
	uint64_t rows = 0;
	int r;

	a->why = EXPORT_REFUSED_NONE;
	/* First, so the count below is read after any enqueue before us. */
	if ((r = exec_rows(db, BX_STMT_GATE_BUMP, NULL, "enqueue gate",
	    NULL)) != 0)
		goto out;
	st = stmt(db, BX_STMT_LOCK_BY_KEY);
	bind_key(in, a->export_id, &l_id, &a->client_ref, a->object, &l_obj);
	bind_out_str(&res[0], status, sizeof(status), &l_status, &nul);
	if ((r = db_exec(db, st, in, "enqueue lock")) != 0 ||
	    (r = db_fetch_one(db, st, res, "enqueue lock")) != 0)
		goto out;
	status[l_status < sizeof(status) ? l_status : sizeof(status) - 1] =
	    '\0';
	r = -REPO_ERR_CONFLICT;
	if (export_status_parse(status, false, &s) != 0) {
		a->why = EXPORT_REFUSED_NOT_CREATED;
		goto out;
	}
	/*
	 * Run again after a COMMIT whose outcome is unknown: a job past
	 * Created (and not cancelled) says that COMMIT went through, and a
	 * runner may already have started it: it is enqueued, as asked.
	 */
	if (db_tx_outcome_unknown(db) && s != EXPORT_CREATED &&
	    s != EXPORT_CANCELLED) {
		r = 0;
		goto out;
	}
	if (s != EXPORT_CREATED) {
		a->why = EXPORT_REFUSED_NOT_CREATED;
		goto out;
	}
	st = stmt(db, BX_STMT_COUNT_ACTIVE);
	bind_out_i64(&res[0], &active, &nul);
	if ((r = db_exec(db, st, NULL, "enqueue count")) != 0 ||
	    (r = db_fetch_one(db, st, res, "enqueue count")) != 0)
		goto out;
	if (active >= a->max) {
		a->why = EXPORT_REFUSED_QUEUE_FULL;
		r = -REPO_ERR_CONFLICT;
		goto out;
	}
	bind_key(in, a->export_id, &l_id, &a->client_ref, a->object, &l_obj);
	if ((r = exec_rows(db, BX_STMT_ENQUEUE, in, "enqueue", &rows)) == 0 &&
	    rows != 1)
		r = -REPO_ERR_CONFLICT;
out:
	return r;
}

/* See repo_bulk_export.h. */
int
repo_bulk_export_enqueue(struct db *db, const char *export_id,
    int64_t client_ref, const char *object_name, int max_queued,
    enum export_refusal *why)
{
	struct enqueue_arg a = {
		.export_id = export_id, .client_ref = client_ref,
		.object = object_name, .max = max_queued,
	};
	int r;

	r = db_run_tx(db, enqueue_tx, &a, true);
	*why = a.why;
	if (r == -REPO_ERR_CONFLICT && a.why == EXPORT_REFUSED_NONE)
		*why = EXPORT_REFUSED_NOT_CREATED;
	return r;
}

/* See repo_bulk_export.h. */
int
repo_bulk_export_cancel(struct db *db, const char *export_id,
    int64_t client_ref, const char *object_name)
{
	struct export_job job;
	MYSQL_BIND in[3];
	unsigned long l_id, l_obj;
	uint64_t rows = 0;
	int r;

	if ((r = db_ensure(db)) != 0)
		goto out;
	bind_key(in, export_id, &l_id, &client_ref, object_name, &l_obj);
	if ((r = exec_rows(db, BX_STMT_CANCEL, in, "repo_bulk_export_cancel",
	    &rows)) != 0 || rows == 1)
		goto out;
	/* Nothing changed: say why. */
	if ((r = repo_bulk_export_get(db, export_id, client_ref, object_name,
	    &job)) == 0 && job.status != EXPORT_CANCELLED)
		r = -REPO_ERR_CONFLICT;
out:
	return r;
}

/* Fetches the one BIGINT of statement s run with in. */
static int
get_i64(struct db *db, enum bulk_export_stmt s, MYSQL_BIND *in,
    const char *where, int64_t *out)
{
	return db_query_i64(db, stmt(db, s), in, out, where);
}

/* See repo_bulk_export.h. */
int
repo_bulk_export_day_bytes(struct db *db, int32_t day_key, int64_t *out)
{
	MYSQL_BIND in[1];
	int r;

	*out = 0;
	if ((r = db_ensure(db)) == 0) {
		bind_i32(&in[0], &day_key);
		r = get_i64(db, BX_STMT_DAY_BYTES, in,
		    "repo_bulk_export_day_bytes", out);
	}
	return r;
}

/* ---- Runners ------------------------------------------------------- */

/* See repo_bulk_export.h. */
int
repo_bulk_export_slots(struct db *db, struct export_slot_row rows[EXPORT_SLOTS],
    size_t *n)
{
	MYSQL_STMT *st = NULL;
	MYSQL_BIND res[4];
	struct export_slot_row row;
	unsigned long l_owner = 0;
	my_bool nul[4];
	int32_t expired = 0;
	int e, r;

	*n = 0;
	if ((r = db_ensure(db)) != 0)
		goto out;
	st = stmt(db, BX_STMT_SLOTS);
	memset(&row, 0, sizeof(row));
	bind_out_i32(&res[0], &row.slot, &nul[0]);
	bind_out_str(&res[1], row.owner, sizeof(row.owner), &l_owner, &nul[1]);
	bind_out_i64(&res[2], &row.job_id, &nul[2]);
	bind_out_i32(&res[3], &expired, &nul[3]);
	if ((r = db_exec(db, st, NULL, "repo_bulk_export_slots")) != 0)
		goto out;
	if (mysql_stmt_bind_result(st, res) != 0) {
		r = db_error(db, st, "repo_bulk_export_slots");
		goto out;
	}
	while ((e = mysql_stmt_fetch(st)) == 0 || e == MYSQL_DATA_TRUNCATED) {
		if (*n == EXPORT_SLOTS)
			continue;
		row.owner[l_owner < sizeof(row.owner) ? l_owner :
		    sizeof(row.owner) - 1] = '\0';
		row.expired = expired != 0;
		rows[(*n)++] = row;
	}
	r = e == MYSQL_NO_DATA ? 0 : db_error(db, st, "repo_bulk_export_slots");
out:
	if (st != NULL)
		mysql_stmt_free_result(st);
	return r;
}

/* See repo_bulk_export.h. */
int
repo_bulk_export_count_by_status(struct db *db,
    int64_t counts[EXPORT_STATUS__MAX])
{
	MYSQL_STMT *st = NULL;
	MYSQL_BIND res[2];
	enum export_status s;
	char status[16];
	unsigned long l_status = 0;
	my_bool nul[2];
	int64_t n = 0;
	int e, r;

	memset(counts, 0, EXPORT_STATUS__MAX * sizeof(*counts));
	if ((r = db_ensure(db)) != 0)
		goto out;
	st = stmt(db, BX_STMT_COUNT_BY_STATUS);
	bind_out_str(&res[0], status, sizeof(status), &l_status, &nul[0]);
	bind_out_i64(&res[1], &n, &nul[1]);
	if ((r = db_exec(db, st, NULL, "repo_bulk_export_count_by_status"))
	    != 0)
		goto out;
	if (mysql_stmt_bind_result(st, res) != 0) {
		r = db_error(db, st, "repo_bulk_export_count_by_status");
		goto out;
	}
	while ((e = mysql_stmt_fetch(st)) == 0 || e == MYSQL_DATA_TRUNCATED) {
		status[l_status < sizeof(status) ? l_status :
		    sizeof(status) - 1] = '\0';
		/* A status this version does not know is not reported. */
		if (export_status_parse(status, false, &s) == 0)
			counts[s] += n;
	}
	r = e == MYSQL_NO_DATA ? 0 :
	    db_error(db, st, "repo_bulk_export_count_by_status");
out:
	if (st != NULL)
		mysql_stmt_free_result(st);
	return r;
}

/* Locks owner's slot; *job_id gets its job.  NOT_FOUND: not owner's. */
static int
slot_lock(struct db *db, int32_t slot, const char *owner, int64_t *job_id)
{
	MYSQL_BIND in[2];
	unsigned long l_owner = strlen(owner);

	bind_i32(&in[0], &slot);
	bind_str(&in[1], owner, &l_owner);
	return get_i64(db, BX_STMT_SLOT_LOCK, in, "slot lock", job_id);
}

static int
slot_free(struct db *db, int32_t slot, const char *owner)
{
	MYSQL_BIND in[2];
	unsigned long l_owner = strlen(owner);

	bind_i32(&in[0], &slot);
	bind_str(&in[1], owner, &l_owner);
	return exec_rows(db, BX_STMT_SLOT_FREE, in, "slot free", NULL);
}

/* Marks job id Failed with msg if Processing in attempt attempt. */
static int
job_fail(struct db *db, int64_t id, int32_t attempt, const char *msg,
    uint64_t *rows)
{
	MYSQL_BIND in[3];
	unsigned long l_msg = strlen(msg);

	if (l_msg > 255)
		l_msg = 255;
	bind_str(&in[0], msg, &l_msg);
	bind_i64(&in[1], &id);
	bind_i32(&in[2], &attempt);
	return exec_rows(db, BX_STMT_JOB_FAIL, in, "job fail", rows);
}

struct take_over_arg {
	int32_t		 slot;
	const char	*owner;
	int32_t		 max;
	const char	*msg;
	int64_t		 job_id;
	bool		 failed;
};

/*
 * Locks job id and reads its status and attempts: 0, -REPO_ERR_NOT_FOUND
 * (no such job, or a status this version does not know) or an error.
 */
static int
job_lock(struct db *db, int64_t id, enum export_status *s, int32_t *attempts)
{
	MYSQL_STMT *st = stmt(db, BX_STMT_JOB_LOCK);
	MYSQL_BIND in[1], res[2];
	char status[16];
	unsigned long l_status = 0;
	my_bool nul[2];
	int r;

	*attempts = 0;
	bind_i64(&in[0], &id);
	bind_out_str(&res[0], status, sizeof(status), &l_status, &nul[0]);
	bind_out_i32(&res[1], attempts, &nul[1]);
	if ((r = db_exec(db, st, in, "job lock")) != 0 ||
	    (r = db_fetch_one(db, st, res, "job lock")) != 0)
		return r;
	status[l_status < sizeof(status) ? l_status : sizeof(status) - 1] =
	    '\0';
	return export_status_parse(status, false, s) == 0 ? 0 :
	    -REPO_ERR_NOT_FOUND;
}

static int
take_over_tx(struct db *db, void *p)
{
	struct take_over_arg *a = p;
	enum export_status s;
	int32_t attempts = 0;
	MYSQL_BIND in[1];
	int r;

	a->job_id = 0;
	a->failed = false;
	if ((r = slot_lock(db, a->slot, a->owner, &a->job_id)) != 0) {
		/* Someone else took it over already. */
		if (r == -REPO_ERR_NOT_FOUND)
			r = 0;
		goto out;
	}
	if (a->job_id != 0) {
		if ((r = job_lock(db, a->job_id, &s, &attempts)) != 0 &&
		    r != -REPO_ERR_NOT_FOUND)
			goto out;
		if (r == 0 && s == EXPORT_PROCESSING) {
			if (attempts >= a->max) {
				a->failed = true;
				r = job_fail(db, a->job_id, attempts, a->msg,
				    NULL);
			} else {
				bind_i64(&in[0], &a->job_id);
				r = exec_rows(db, BX_STMT_JOB_REQUEUE, in,
				    "take over requeue", NULL);
			}
			if (r != 0)
				goto out;
		} else
			a->job_id = 0;
	}
	r = slot_free(db, a->slot, a->owner);
out:
	return r;
}

/* See repo_bulk_export.h. */
int
repo_bulk_export_take_over(struct db *db, int32_t slot, const char *owner,
    int max_attempts, const char *msg, int64_t *job_id, bool *failed)
{
	struct take_over_arg a = {
		.slot = slot, .owner = owner, .max = max_attempts, .msg = msg,
	};
	int r;

	r = db_run_tx(db, take_over_tx, &a, true);
	*job_id = r == 0 ? a.job_id : 0;
	*failed = r == 0 && a.failed;
	return r;
}

/* See repo_bulk_export.h. */
int
repo_bulk_export_requeue_orphans(struct db *db, int min_secs)
{
	MYSQL_BIND in[1];
	int32_t secs = min_secs;
	uint64_t rows = 0;
	int r;

	if ((r = db_ensure(db)) == 0) {
		bind_i32(&in[0], &secs);
		if ((r = exec_rows(db, BX_STMT_ORPHANS, in,
		    "repo_bulk_export_requeue_orphans", &rows)) == 0)
			r = (int)rows;
	}
	return r;
}

struct claim_arg {
	const char		*owner;
	int32_t			 lease;
	struct export_claim	 c;
};

static int
claim_tx(struct db *db, void *p)
{
	struct claim_arg *a = p;
	MYSQL_STMT *st;
	MYSQL_BIND in[4], res[2];
	unsigned long l_owner = strlen(a->owner);
	int64_t slot = 0;
	uint64_t rows = 0;
	my_bool nul[2];
	int r;

	memset(&a->c, 0, sizeof(a->c));
	if ((r = get_i64(db, BX_STMT_SLOT_PICK, NULL, "claim slot",
	    &slot)) != 0)
		goto out;
	st = stmt(db, BX_STMT_QUEUED_LOCK);
	bind_out_i64(&res[0], &a->c.job_id, &nul[0]);
	bind_out_i32(&res[1], &a->c.attempt, &nul[1]);
	if ((r = db_exec(db, st, NULL, "claim job")) != 0 ||
	    (r = db_fetch_one(db, st, res, "claim job")) != 0)
		goto out;
	a->c.slot = (int32_t)slot;
	a->c.attempt++;
	bind_str(&in[0], a->owner, &l_owner);
	bind_i64(&in[1], &a->c.job_id);
	bind_i32(&in[2], &a->lease);
	bind_i32(&in[3], &a->c.slot);
	/* Both conditional: a runner that lost a race gets CONFLICT. */
	if ((r = exec_rows(db, BX_STMT_SLOT_TAKE, in, "claim take",
	    &rows)) != 0)
		goto out;
	if (rows != 1) {
		r = -REPO_ERR_CONFLICT;
		goto out;
	}
	bind_i64(&in[0], &a->c.job_id);
	if ((r = exec_rows(db, BX_STMT_JOB_START, in, "claim start",
	    &rows)) == 0 && rows != 1)
		r = -REPO_ERR_CONFLICT;
out:
	return r;
}

/* See repo_bulk_export.h. */
int
repo_bulk_export_claim(struct db *db, const char *owner, int lease_secs,
    struct export_claim *out)
{
	struct claim_arg a = { .owner = owner, .lease = lease_secs };
	int64_t any = 0;
	int r;

	memset(out, 0, sizeof(*out));
	/*
	 * A plain read first: an idle runner polls, and should not take
	 * write locks (or gap locks on an empty queue) every time.
	 */
	if ((r = db_ensure(db)) == 0 &&
	    (r = get_i64(db, BX_STMT_QUEUED_ANY, NULL, "claim poll",
	    &any)) == 0 &&
	    (r = db_run_tx(db, claim_tx, &a, false)) == 0)
		*out = a.c;
	return r;
}

/* See repo_bulk_export.h. */
int
repo_bulk_export_heartbeat(struct db *db, const char *owner,
    const struct export_claim *c, int lease_secs)
{
	MYSQL_BIND in[5];
	unsigned long l_owner = strlen(owner);
	int32_t lease = lease_secs, slot = c->slot, attempt = c->attempt;
	int64_t job = c->job_id, processing = 0;
	uint64_t rows = 0;
	int r;

	if ((r = db_ensure(db)) != 0)
		goto out;
	/* A job cancelled through another host is seen here first. */
	bind_i64(&in[0], &job);
	bind_i32(&in[1], &attempt);
	if ((r = get_i64(db, BX_STMT_STILL_PROCESSING, in,
	    "repo_bulk_export_heartbeat", &processing)) != 0)
		goto out;
	if (processing == 0) {
		r = -REPO_ERR_NOT_FOUND;
		goto out;
	}
	bind_i32(&in[0], &lease);
	bind_i32(&in[1], &slot);
	bind_str(&in[2], owner, &l_owner);
	bind_i64(&in[3], &job);
	bind_i32(&in[4], &attempt);
	if ((r = exec_rows(db, BX_STMT_HEARTBEAT, in,
	    "repo_bulk_export_heartbeat", &rows)) == 0 && rows != 1)
		r = -REPO_ERR_NOT_FOUND;
out:
	return r;
}

struct finish_arg {
	const char			*owner;
	const struct export_claim	*c;
	const struct export_result	*res;	/* complete */
	const char			*msg;	/* fail */
	bool				 requeue;	/* release */
};

/* Whether owner still holds c's slot for c's job (locked). */
static int
still_held(struct db *db, const struct finish_arg *a)
{
	int64_t job = 0;
	int r;

	if ((r = slot_lock(db, a->c->slot, a->owner, &job)) == 0 &&
	    job != a->c->job_id)
		r = -REPO_ERR_NOT_FOUND;
	return r;
}

static int
complete_tx(struct db *db, void *p)
{
	struct finish_arg *a = p;
	const struct export_result *res = a->res;
	MYSQL_BIND in[6];
	unsigned long l_sum = strlen(res->checksum);
	int64_t records = res->records, size = res->size, id = a->c->job_id;
	int32_t day = res->day_key, attempt = a->c->attempt, done;
	enum export_status s;
	uint64_t rows = 0;
	int r;

	if ((r = still_held(db, a)) != 0) {
		/*
		 * Run again after a COMMIT whose outcome is unknown: if that
		 * COMMIT went through, this attempt of the job is Completed
		 * and its slot free.  It is done, not lost (the runner would
		 * drop the file).
		 */
		if (r == -REPO_ERR_NOT_FOUND && db_tx_outcome_unknown(db) &&
		    job_lock(db, id, &s, &done) == 0 &&
		    s == EXPORT_COMPLETED && done == attempt)
			r = 0;
		goto out;
	}
	bind_i64(&in[0], &records);
	bind_i64(&in[1], &size);
	bind_str(&in[2], res->checksum, &l_sum);
	bind_i32(&in[3], &day);
	bind_i64(&in[4], &id);
	bind_i32(&in[5], &attempt);
	if ((r = exec_rows(db, BX_STMT_JOB_COMPLETE, in, "complete",
	    &rows)) != 0)
		goto out;
	r = rows == 1 ? slot_free(db, a->c->slot, a->owner) :
	    -REPO_ERR_NOT_FOUND;
out:
	return r;
}

/* See repo_bulk_export.h. */
int
repo_bulk_export_complete(struct db *db, const char *owner,
    const struct export_claim *c, const struct export_result *res)
{
	struct finish_arg a = { .owner = owner, .c = c, .res = res };

	/* Conditional on the attempt, and it knows its own earlier run. */
	return db_run_tx(db, complete_tx, &a, true);
}

static int
fail_tx(struct db *db, void *p)
{
	struct finish_arg *a = p;
	uint64_t rows = 0;
	int r;

	if ((r = still_held(db, a)) == 0 &&
	    (r = job_fail(db, a->c->job_id, a->c->attempt, a->msg,
	    &rows)) == 0)
		r = rows == 1 ? slot_free(db, a->c->slot, a->owner) :
		    -REPO_ERR_NOT_FOUND;
	return r;
}

/* See repo_bulk_export.h. */
int
repo_bulk_export_fail(struct db *db, const char *owner,
    const struct export_claim *c, const char *msg)
{
	struct finish_arg a = { .owner = owner, .c = c, .msg = msg };

	return db_run_tx(db, fail_tx, &a, true);
}

static int
release_tx(struct db *db, void *p)
{
	struct finish_arg *a = p;
	MYSQL_BIND in[2];
	int64_t id = a->c->job_id;
	int32_t attempt = a->c->attempt;
	int r;

	if ((r = still_held(db, a)) != 0) {
		/* Not ours any more: nothing to give back. */
		if (r == -REPO_ERR_NOT_FOUND)
			r = 0;
		goto out;
	}
	if (a->requeue) {
		bind_i64(&in[0], &id);
		bind_i32(&in[1], &attempt);
		if ((r = exec_rows(db, BX_STMT_JOB_REQUEUE_STOP, in,
		    "release requeue", NULL)) != 0)
			goto out;
	}
	r = slot_free(db, a->c->slot, a->owner);
out:
	return r;
}

/* See repo_bulk_export.h. */
int
repo_bulk_export_release(struct db *db, const char *owner,
    const struct export_claim *c, bool requeue)
{
	struct finish_arg a = { .owner = owner, .c = c, .requeue = requeue };

	return db_run_tx(db, release_tx, &a, true);
}

/* See repo_bulk_export.h. */
int
repo_bulk_export_files_due(struct db *db, struct export_file_ref *out,
    size_t max, size_t *n)
{
	MYSQL_STMT *st = NULL;
	MYSQL_BIND in[1], res[4];
	struct export_file_ref row;
	unsigned long l_id = 0, l_fmt = 0;
	char fmt[8];
	my_bool nul[4];
	int64_t lim = (int64_t)max;
	int e, r;

	*n = 0;
	if ((r = db_ensure(db)) != 0)
		goto out;
	st = stmt(db, BX_STMT_FILES_DUE);
	memset(&row, 0, sizeof(row));
	bind_i64(&in[0], &lim);
	bind_out_i64(&res[0], &row.id, &nul[0]);
	bind_out_str(&res[1], row.export_id, sizeof(row.export_id), &l_id,
	    &nul[1]);
	bind_out_i32(&res[2], &row.attempts, &nul[2]);
	bind_out_str(&res[3], fmt, sizeof(fmt), &l_fmt, &nul[3]);
	if ((r = db_exec(db, st, in, "repo_bulk_export_files_due")) != 0)
		goto out;
	if (mysql_stmt_bind_result(st, res) != 0) {
		r = db_error(db, st, "repo_bulk_export_files_due");
		goto out;
	}
	while ((e = mysql_stmt_fetch(st)) == 0 || e == MYSQL_DATA_TRUNCATED) {
		if (*n == max)
			continue;
		row.export_id[l_id < sizeof(row.export_id) ? l_id :
		    sizeof(row.export_id) - 1] = '\0';
		fmt[l_fmt < sizeof(fmt) ? l_fmt : sizeof(fmt) - 1] = '\0';
		if (export_format_parse(fmt, &row.format) != 0)
			row.format = EXPORT_CSV;
		out[(*n)++] = row;
	}
	r = e == MYSQL_NO_DATA ? 0 :
	    db_error(db, st, "repo_bulk_export_files_due");
out:
	if (st != NULL)
		mysql_stmt_free_result(st);
	return r;
}

/* See repo_bulk_export.h. */
int
repo_bulk_export_file_gone(struct db *db, int64_t id)
{
	MYSQL_BIND in[1];
	int r;

	if ((r = db_ensure(db)) == 0) {
		bind_i64(&in[0], &id);
		r = exec_rows(db, BX_STMT_FILE_GONE, in,
		    "repo_bulk_export_file_gone", NULL);
	}
	return r;
}

/* See repo_bulk_export.h. */
int
repo_bulk_export_purge(struct db *db, int max)
{
	MYSQL_BIND in[1];
	int64_t lim = max;
	uint64_t rows = 0;
	int r;

	if ((r = db_ensure(db)) == 0) {
		bind_i64(&in[0], &lim);
		if ((r = exec_rows(db, BX_STMT_PURGE, in,
		    "repo_bulk_export_purge", &rows)) == 0)
			r = (int)rows;
	}
	return r;
}
