/*
 * What the campaign engine ran, read back (repo_engine.h): a campaign's
 * runs with their leads' counts and a lead's trace (mautoctl campaign
 * runs and trace), a lead's qualification, and the queue's counts the
 * runners sample into GET /metrics.  Reads only; the work itself is in
 * repo_engine.c.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <mysql.h>

#include "db/bind.h"
#include "db/pool.h"
#include "db/query.h"
#include "repo/repo.h"
#include "repo/repo_engine.h"
#include "util/arena.h"

enum engine_read_stmt {
	READ_STMT_RUNS,
	READ_STMT_TRACE,
	READ_STMT_TRACE_ACTS,
	READ_STMT_QUALIFIED,
	READ_STMT_QUEUE,
	READ_STMT__MAX
};

/* An engine time in ms as a DATETIME(3). */
#define AT	"FROM_UNIXTIME(? / 1000)"
/* A DATETIME(3) column as text of 23 characters. */
#define TXT(c)	"DATE_FORMAT(" c ", '%Y-%m-%d %H:%i:%s.%f')"

static const char *const sql[READ_STMT__MAX] = {
	[READ_STMT_RUNS] =
	    "SELECT r.id, r.kind, r.status, " TXT("r.run_at") ", "
	    TXT("r.created_at") ", COUNT(l.lead_id), "
	    "COALESCE(SUM(l.state = 'ready'), 0), "
	    "COALESCE(SUM(l.state = 'done'), 0), "
	    "COALESCE(SUM(l.state = 'removed'), 0), "
	    "COALESCE(SUM(l.state = 'failed'), 0) FROM campaign_run r "
	    "LEFT JOIN campaign_run_lead l ON l.run_id = r.id "
	    "WHERE r.campaign_id = ? GROUP BY r.id ORDER BY r.id DESC LIMIT ?",
	[READ_STMT_TRACE] =
	    "SELECT l.run_id, r.kind, l.step_pos, l.state, " TXT("l.due_at")
	    ", " TXT("l.updated_at") ", COALESCE(l.note, '') FROM "
	    "campaign_run_lead l JOIN campaign_run r ON r.id = l.run_id "
	    "WHERE l.lead_id = ? AND l.campaign_id = ? "
	    "ORDER BY l.run_id DESC LIMIT ?",
	[READ_STMT_TRACE_ACTS] =
	    "SELECT " TXT("a.activity_date") ", "
	    "JSON_VALUE(a.attributes, '$.\"Campaign Run ID\"'), "
	    "JSON_VALUE(a.attributes, '$.\"Step ID\"'), t.name, "
	    "COALESCE(a.primary_value, '') FROM activity a JOIN "
	    "activity_type t ON t.id = a.activity_type_id WHERE "
	    "a.lead_id = ? AND (a.campaign_id = ? OR (a.campaign_id IS NULL "
	    "AND a.activity_type_id = 47 AND a.primary_value_id = ?)) "
	    "ORDER BY a.id DESC LIMIT ?",
	[READ_STMT_QUALIFIED] =
	    "SELECT CAST(UNIX_TIMESTAMP(last_at) * 1000 AS SIGNED), times "
	    "FROM campaign_qualification WHERE campaign_id = ? AND "
	    "lead_id = ?",
	/* Each count reads an index: (state, due_at), the offers' and
	 * runs' primary keys and (status, run_at). */
	[READ_STMT_QUEUE] =
	    "SELECT (SELECT COUNT(*) FROM campaign_run_lead WHERE "
	    "state = 'ready' AND due_at <= " AT "), (SELECT COUNT(*) FROM "
	    "campaign_run_lead WHERE state = 'ready' AND due_at > " AT "), "
	    "(SELECT COUNT(*) FROM activity_offer), (SELECT COUNT(*) FROM "
	    "campaign_run WHERE status = 'scheduled')",
};

const struct db_stmt_set repo_engine_read_sql = {
	.name = "engine_read",
	.sql = sql,
	.n = READ_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum engine_read_stmt s)
{
	return db_stmt(db, REPO_ENGINE_READ, (int)s);
}

/* ---- Reading what ran -------------------------------------------------- */

struct runs_acc {
	struct engine_run_row	*rows;
	size_t			 max;
	size_t			 n;
};

static int
runs_row(void *arg, char **v, const unsigned long *lens)
{
	struct runs_acc *x = arg;
	struct engine_run_row *o;

	(void)lens;
	if (x->n == x->max)
		return 0;
	o = &x->rows[x->n++];
	memset(o, 0, sizeof(*o));
	o->id = db_col_i64(v[0]);
	db_copy_text(o->kind, sizeof(o->kind), v[1], SIZE_MAX);
	db_copy_text(o->status, sizeof(o->status), v[2], SIZE_MAX);
	db_copy_text(o->run_at, sizeof(o->run_at), v[3], SIZE_MAX);
	db_copy_text(o->created_at, sizeof(o->created_at), v[4], SIZE_MAX);
	o->leads = db_col_i64(v[5]);
	o->ready = db_col_i64(v[6]);
	o->done = db_col_i64(v[7]);
	o->removed = db_col_i64(v[8]);
	o->failed = db_col_i64(v[9]);
	return 0;
}

/* See repo_engine.h. */
int
repo_engine_runs(struct db *db, int32_t campaign_id,
    struct engine_run_row *out, size_t max, size_t *n)
{
	MYSQL_STMT *st = stmt(db, READ_STMT_RUNS);
	MYSQL_BIND in[2];
	int64_t lim = (int64_t)max;
	struct runs_acc x = { out, max, 0 };
	int r;

	*n = 0;
	if ((r = db_ensure(db)) != 0)
		return r;
	bind_i32(&in[0], &campaign_id);
	bind_i64(&in[1], &lim);
	if ((r = db_exec(db, st, in, "repo_engine_runs")) == 0 &&
	    (r = db_fetch_rows(db, st, 10, runs_row, &x,
	    "repo_engine_runs")) == 0)
		*n = x.n;
	return r;
}

struct trace_acc {
	struct engine_trace_row	*rows;
	size_t			 max;
	size_t			 n;
};

static int
trace_row(void *arg, char **v, const unsigned long *lens)
{
	struct trace_acc *x = arg;
	struct engine_trace_row *o;

	(void)lens;
	if (x->n == x->max)
		return 0;
	o = &x->rows[x->n++];
	memset(o, 0, sizeof(*o));
	o->run_id = db_col_i64(v[0]);
	db_copy_text(o->kind, sizeof(o->kind), v[1], SIZE_MAX);
	o->step_pos = (int)db_col_i64(v[2]);
	db_copy_text(o->state, sizeof(o->state), v[3], SIZE_MAX);
	db_copy_text(o->due_at, sizeof(o->due_at), v[4], SIZE_MAX);
	db_copy_text(o->updated_at, sizeof(o->updated_at), v[5], SIZE_MAX);
	db_copy_text(o->note, sizeof(o->note), v[6], SIZE_MAX);
	return 0;
}

/* See repo_engine.h. */
int
repo_engine_trace(struct db *db, int32_t campaign_id, int64_t lead_id,
    struct engine_trace_row *out, size_t max, size_t *n)
{
	MYSQL_STMT *st = stmt(db, READ_STMT_TRACE);
	MYSQL_BIND in[3];
	int64_t lim = (int64_t)max;
	struct trace_acc x = { out, max, 0 };
	int r;

	*n = 0;
	if ((r = db_ensure(db)) != 0)
		return r;
	bind_i64(&in[0], &lead_id);
	bind_i32(&in[1], &campaign_id);
	bind_i64(&in[2], &lim);
	if ((r = db_exec(db, st, in, "repo_engine_trace")) == 0 &&
	    (r = db_fetch_rows(db, st, 7, trace_row, &x,
	    "repo_engine_trace")) == 0)
		*n = x.n;
	return r;
}

/* See repo_engine.h. */
int
repo_engine_qualified(struct db *db, int32_t campaign_id, int64_t lead_id,
    int64_t *last_ms, int64_t *times)
{
	MYSQL_STMT *st = stmt(db, READ_STMT_QUALIFIED);
	MYSQL_BIND in[2], res[2];
	my_bool nul[2];
	int r;

	*last_ms = 0;
	*times = 0;
	if ((r = db_ensure(db)) != 0)
		return r;
	bind_i32(&in[0], &campaign_id);
	bind_i64(&in[1], &lead_id);
	if ((r = db_exec(db, st, in, "repo_engine_qualified")) != 0)
		return r;
	bind_out_i64(&res[0], last_ms, &nul[0]);
	bind_out_i64(&res[1], times, &nul[1]);
	r = db_fetch_one(db, st, res, "repo_engine_qualified");
	return r == -REPO_ERR_NOT_FOUND ? 0 : r;
}

/* See repo_engine.h. */
int
repo_engine_trace_acts(struct db *db, struct arena *a, int32_t campaign_id,
    int64_t lead_id, size_t max, struct db_text_rows *out)
{
	MYSQL_BIND in[4];
	int64_t lim = (int64_t)max;
	int r;

	memset(out, 0, sizeof(*out));
	if ((r = db_ensure(db)) != 0)
		return r;
	bind_i64(&in[0], &lead_id);
	bind_i32(&in[1], &campaign_id);
	bind_i32(&in[2], &campaign_id);
	bind_i64(&in[3], &lim);
	return db_select_text(db, stmt(db, READ_STMT_TRACE_ACTS), in, a,
	    ENGINE_TRACE_NCOLS, max, "repo_engine_trace_acts", out);
}

static int
queue_row(void *arg, char **v, const unsigned long *lens)
{
	struct engine_queue *q = arg;

	(void)lens;
	q->due = db_col_i64(v[0]);
	q->waiting = db_col_i64(v[1]);
	q->offers = db_col_i64(v[2]);
	q->scheduled = db_col_i64(v[3]);
	return 0;
}

/* See repo_engine.h. */
int
repo_engine_queue(struct db *db, int64_t now_ms, struct engine_queue *out)
{
	MYSQL_STMT *st = stmt(db, READ_STMT_QUEUE);
	MYSQL_BIND in[2];
	int r;

	memset(out, 0, sizeof(*out));
	if ((r = db_ensure(db)) != 0)
		return r;
	bind_i64(&in[0], &now_ms);
	bind_i64(&in[1], &now_ms);
	if ((r = db_exec(db, st, in, "repo_engine_queue")) != 0)
		return r;
	return db_fetch_rows(db, st, 4, queue_row, out, "repo_engine_queue");
}
