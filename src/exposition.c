/*
 * GET /metrics in the Prometheus text format 0.0.4 (see exposition.h).
 *
 * Every family gets its # HELP and # TYPE lines, counters end in
 * _total, the latency histogram has cumulative _bucket{le=...} samples
 * ending with le="+Inf", then _sum (seconds) and _count (equal to the
 * +Inf bucket).  A request series, a flow step type's and a run kind's
 * first-step histogram are written once they counted something, so the
 * text stays short on a service that uses a few of its operations; the
 * limit refusals, database, process and run figures are always written,
 * the engine's queue once a runner sampled it.  Label values are operationIds, statuses and error
 * codes from the service's own tables: none needs escaping.
 */
#include <assert.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "auth/ratelimit.h"
#include "bounds.h"
#include "call.h"
#include "err.h"
#include "exposition.h"
#include "http/request.h"
#include "http/response.h"
#include "http/router.h"
#include "model/export.h"
#include "model/flowstep.h"
#include "repo/repo_bulk_export.h"
#include "util/buf.h"
#include "util/metrics.h"
#include "util/timeutil.h"
#include "util/xmalloc.h"

static_assert(FLOWSTEP__MAX <= METRICS_STEP_TYPES,
    "every flow step type has a metrics slot");

/* The queue label of each enum metrics_queue gauge. */
static const char *const queue_names[METRICS_QUEUE__MAX] = {
	[METRICS_QUEUE_DUE] = "due",
	[METRICS_QUEUE_WAITING] = "waiting",
	[METRICS_QUEUE_OFFERS] = "offers",
	[METRICS_QUEUE_SCHEDULED] = "scheduled",
};

/* The op label of requests that matched no route. */
#define NO_ROUTE_OP	"none"

bool
exposition_is_scrape(const struct req *req)
{
	return req->wire_method == HTTP_GET &&
	    strcmp(req->path, EXPOSITION_PATH) == 0;
}

void
exposition_count(struct app *app, const struct route *rt, int status,
    int err, int64_t started)
{
	int64_t d = time_mono_us() - started;
	size_t op = METRICS_NO_ROUTE;

	if (rt != NULL && rt >= routes && rt < routes + nroutes)
		op = (size_t)(rt - routes);
	metrics_request(app->metrics, op, status, err,
	    d > 0 ? (uint64_t)d : 0);
}

/* The code label of a result: the service's code, the OAuth error, or "". */
static const char *
result_code(const struct metrics_result *res)
{
	const struct err_info *e;

	if (res->err == 0)
		return "";
	e = err_lookup(res->err);
	return e->code != NULL ? e->code :
	    e->oauth_error != NULL ? e->oauth_error : "";
}

static void
family(struct buf *out, const char *name, const char *type,
    const char *help)
{
	buf_printf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name,
	    type);
}

/* The operations that are written: route indexes, then METRICS_NO_ROUTE. */
struct ops {
	size_t		 n;			/* routes counted */
	size_t		 first[METRICS_ROUTES];	/* first route of its op_id */
};

/* A counter family of two samples told apart by a result label. */
static void
two_results(struct buf *out, const char *name, const char *help,
    const char *r1, uint64_t v1, const char *r2, uint64_t v2)
{
	family(out, name, "counter", help);
	buf_printf(out, "%s{result=\"%s\"} %llu\n%s{result=\"%s\"} %llu\n",
	    name, r1, (unsigned long long)v1, name, r2,
	    (unsigned long long)v2);
}

static void
ops_init(struct ops *o)
{
	size_t i, j;

	o->n = nroutes < METRICS_ROUTES ? nroutes : METRICS_ROUTES;
	for (i = 0; i < o->n; i++) {
		o->first[i] = i;
		for (j = 0; j < i; j++)
			if (strcmp(routes[j].op_id, routes[i].op_id) == 0) {
				o->first[i] = j;
				break;
			}
	}
}

/* Whether op slot g is written as a series of its own. */
static bool
ops_is_head(const struct ops *o, size_t g)
{
	return g == METRICS_NO_ROUTE || (g < o->n && o->first[g] == g);
}

/* The op slot of the i-th pass of a loop over 0 .. o->n. */
static size_t
ops_slot(const struct ops *o, size_t i)
{
	return i == o->n ? METRICS_NO_ROUTE : i;
}

static const char *
ops_label(size_t g)
{
	return g == METRICS_NO_ROUTE ? NO_ROUTE_OP : routes[g].op_id;
}

/* One operation's counters, summed over the routes that share its op_id. */
struct op_sum {
	uint64_t	requests[METRICS_RESULTS];
	uint64_t	buckets[METRICS_BUCKETS];
	uint64_t	sum_usec;
	uint64_t	count;
};

static void
op_add(struct op_sum *t, const struct metrics_snapshot *s, size_t k)
{
	size_t i;

	for (i = 0; i < s->nresults; i++)
		t->requests[i] += s->requests[k][i];
	for (i = 0; i < METRICS_BUCKETS; i++) {
		t->buckets[i] += s->buckets[k][i];
		t->count += s->buckets[k][i];
	}
	t->sum_usec += s->sum_usec[k];
}

/* The counters of op slot g (a head) into *t. */
static void
op_sum(const struct ops *o, const struct metrics_snapshot *s, size_t g,
    struct op_sum *t)
{
	size_t k;

	memset(t, 0, sizeof(*t));
	if (g == METRICS_NO_ROUTE) {
		op_add(t, s, g);
		return;
	}
	for (k = g; k < o->n; k++)
		if (o->first[k] == g)
			op_add(t, s, k);
}

static void
render_requests(struct buf *out, const struct ops *o,
    const struct metrics_snapshot *s)
{
	struct op_sum t;
	size_t i, g, r;

	family(out, "mautod_requests_total", "counter", "Requests answered, "
	    "by operation (operationId; none: no route), HTTP status and "
	    "the service's error code (empty on success).");
	for (i = 0; i <= o->n; i++) {
		if (!ops_is_head(o, g = ops_slot(o, i)))
			continue;
		op_sum(o, s, g, &t);
		for (r = 0; r < s->nresults; r++) {
			if (t.requests[r] == 0)
				continue;
			buf_printf(out, "mautod_requests_total{op=\"%s\","
			    "status=\"%d\",code=\"%s\"} %llu\n", ops_label(g),
			    s->results[r].status, result_code(&s->results[r]),
			    (unsigned long long)t.requests[r]);
		}
	}
	family(out, "mautod_requests_unclassified_total", "counter",
	    "Requests counted in the latency histogram but not in "
	    "mautod_requests_total (its table of results was full).");
	buf_printf(out, "mautod_requests_unclassified_total %llu\n",
	    (unsigned long long)s->dropped);
}

static void
render_latency(struct buf *out, const struct ops *o,
    const struct metrics_snapshot *s)
{
	struct op_sum t;
	uint64_t cum;
	size_t i, g, b;

	family(out, "mautod_request_duration_seconds", "histogram",
	    "Time from accepting a request to writing its answer, by "
	    "operation.");
	for (i = 0; i <= o->n; i++) {
		if (!ops_is_head(o, g = ops_slot(o, i)))
			continue;
		op_sum(o, s, g, &t);
		if (t.count == 0)
			continue;
		for (b = 0, cum = 0; b < METRICS_BUCKETS; b++) {
			cum += t.buckets[b];
			buf_printf(out, "mautod_request_duration_seconds_bucket"
			    "{op=\"%s\",le=\"%s\"} %llu\n", ops_label(g),
			    metrics_bucket_le(b), (unsigned long long)cum);
		}
		buf_printf(out, "mautod_request_duration_seconds_sum"
		    "{op=\"%s\"} %llu.%06llu\n", ops_label(g),
		    (unsigned long long)(t.sum_usec / 1000000),
		    (unsigned long long)(t.sum_usec % 1000000));
		buf_printf(out, "mautod_request_duration_seconds_count"
		    "{op=\"%s\"} %llu\n", ops_label(g),
		    (unsigned long long)t.count);
	}
}

static void
render_host(struct buf *out, const struct metrics_snapshot *s,
    const int64_t *export_jobs)
{
	size_t i;

	family(out, "mautod_limit_refusals_total", "counter", "Calls "
	    "refused by the instance limits, by error code (606 rate, "
	    "607 daily quota, 615 concurrency).");
	for (i = 0; i < METRICS_LIMIT__MAX; i++)
		buf_printf(out, "mautod_limit_refusals_total{code=\"%s\"} "
		    "%llu\n", metrics_limit_code((enum metrics_limit)i),
		    (unsigned long long)s->refusals[i]);
	family(out, "mautod_db_errors_total", "counter", "Database errors: "
	    "connection lost, node unusable, or unexpected.");
	buf_printf(out, "mautod_db_errors_total %llu\n",
	    (unsigned long long)s->db_errors);
	two_results(out, "mautod_db_reconnects_total", "Reconnections after "
	    "a lost database connection, by result.", "ok", s->db_reconnects,
	    "failed", s->db_reconnect_failures);
	two_results(out, "mautod_db_deadlocks_total", "Transactions that met "
	    "a deadlock or certification conflict: run again (retried), or "
	    "given up when their time for retries ran out (exhausted).",
	    "retried", s->db_deadlock_retries, "exhausted",
	    s->db_deadlock_exhausted);
	two_results(out, "mautod_page_cache_total", "Browses of one folder "
	    "answered from a worker's kept pages (hit) or from the database "
	    "(miss).", "hit", s->page_hits, "miss", s->page_misses);
	family(out, "mautod_export_jobs", "gauge", "Bulk export jobs the "
	    "database keeps, by state (no samples: the database did not "
	    "answer).");
	for (i = 0; export_jobs != NULL && i < EXPORT_STATUS__MAX; i++)
		buf_printf(out, "mautod_export_jobs{state=\"%s\"} %lld\n",
		    export_status_name((enum export_status)i),
		    (long long)export_jobs[i]);
	family(out, "mautod_workers_alive", "gauge", "Worker processes "
	    "alive on this host.");
	buf_printf(out, "mautod_workers_alive %lld\n", (long long)s->workers);
	family(out, "mautod_calls_in_flight", "gauge", "Calls admitted by "
	    "the limits and not yet answered on this host (what "
	    "concurrency_limit counts).");
	buf_printf(out, "mautod_calls_in_flight %lld\n",
	    (long long)s->calls_in_flight);
	family(out, "mautod_workers_ready", "gauge", "Worker processes "
	    "that serve calls now.");
	buf_printf(out, "mautod_workers_ready %lld\n",
	    (long long)s->workers_ready);
	family(out, "mautod_workers_wanted", "gauge", "Worker processes "
	    "the master keeps (workers); fewer ready is degraded.");
	buf_printf(out, "mautod_workers_wanted %lld\n",
	    (long long)s->workers_wanted);
	family(out, "mautod_worker_start_failures_total", "counter",
	    "Workers that exited because they could not open the database "
	    "(the log names the server setting to raise).");
	buf_printf(out, "mautod_worker_start_failures_total %llu\n",
	    (unsigned long long)s->worker_start_failures);
	family(out, "mautod_export_runners_alive", "gauge", "Export runner "
	    "processes alive on this host.");
	buf_printf(out, "mautod_export_runners_alive %lld\n",
	    (long long)s->runners);
}

/* The campaign engine's latency: a histogram per run kind that counted. */
static void
render_first_step(struct buf *out, const struct metrics_snapshot *s)
{
	const char *kind;
	uint64_t cum;
	size_t k, b;

	family(out, "mautod_campaign_first_step_seconds", "histogram",
	    "Time from a trigger's activity (trigger), a Request Campaign "
	    "call (request) or a flow's Request Campaign step (flow) to the "
	    "commit of a lead's first flow step in the run it started.");
	for (k = 0; k < METRICS_RUN_KIND__MAX; k++) {
		kind = metrics_run_kind_name((enum metrics_run_kind)k);
		for (b = 0, cum = 0; b < METRICS_ENGINE_BUCKETS; b++)
			cum += s->first_step[k][b];
		if (cum == 0)
			continue;
		for (b = 0, cum = 0; b < METRICS_ENGINE_BUCKETS; b++) {
			cum += s->first_step[k][b];
			buf_printf(out, "mautod_campaign_first_step_seconds_bucket"
			    "{kind=\"%s\",le=\"%s\"} %llu\n", kind,
			    metrics_engine_bucket_le(b), (unsigned long long)cum);
		}
		buf_printf(out, "mautod_campaign_first_step_seconds_sum"
		    "{kind=\"%s\"} %llu.%06llu\n", kind,
		    (unsigned long long)(s->first_step_usec[k] / 1000000),
		    (unsigned long long)(s->first_step_usec[k] % 1000000));
		buf_printf(out, "mautod_campaign_first_step_seconds_count"
		    "{kind=\"%s\"} %llu\n", kind, (unsigned long long)cum);
	}
}

static void
render_engine(struct buf *out, const struct metrics_snapshot *s)
{
	size_t i, j;

	family(out, "mautod_campaign_steps_total", "counter", "Flow steps "
	    "the campaign runners committed, by step type and result (done; "
	    "skipped: it could not act and the lead went on; failed: a type "
	    "mauto does not run).");
	for (i = 0; i < FLOWSTEP__MAX; i++)
		for (j = 0; j < METRICS_STEP_RESULT__MAX; j++)
			if (s->steps[i][j] != 0)
				buf_printf(out, "mautod_campaign_steps_total"
				    "{type=\"%s\",result=\"%s\"} %llu\n",
				    flowstep_name((enum flowstep)i),
				    metrics_step_result_name(
				    (enum metrics_step_result)j),
				    (unsigned long long)s->steps[i][j]);
	family(out, "mautod_campaign_runs_started_total", "counter",
	    "Campaign runs started, by kind (a batch run once its leads "
	    "are entered).");
	for (i = 0; i < METRICS_RUN_KIND__MAX; i++)
		buf_printf(out, "mautod_campaign_runs_started_total"
		    "{kind=\"%s\"} %llu\n",
		    metrics_run_kind_name((enum metrics_run_kind)i),
		    (unsigned long long)s->runs[i]);
	two_results(out, "mautod_campaign_offers_total", "Activities offered "
	    "to the trigger campaigns: those that started a run (fired) and "
	    "those no campaign took (ignored).", "fired", s->offers_fired,
	    "ignored", s->offers_ignored);
	family(out, "mautod_campaign_queue", "gauge", "The campaign "
	    "engine's work as a runner last counted it (every few seconds): "
	    "leads due now, leads waiting, activities not yet offered, "
	    "batch runs scheduled (no samples: no runner counted yet).");
	for (i = 0; s->queue_sampled && i < METRICS_QUEUE__MAX; i++)
		buf_printf(out, "mautod_campaign_queue{queue=\"%s\"} %lld\n",
		    queue_names[i], (long long)s->queue[i]);
	render_first_step(out, s);
}

void
exposition_render(struct buf *out, const struct metrics_snapshot *s,
    const int64_t *export_jobs)
{
	struct ops o;

	ops_init(&o);
	render_requests(out, &o, s);
	render_latency(out, &o, s);
	render_host(out, s, export_jobs);
	render_engine(out, s);
}

int
exposition_scrape(struct app *app, struct resp *r)
{
	struct metrics_snapshot *s = NULL;
	int64_t jobs[EXPORT_STATUS__MAX];
	struct buf b;
	const char *text;
	bool have_jobs;
	int rc = -API_ERR_SYSTEM;

	buf_init(&b, MAX_RESPONSE_BYTES);
	if (app->metrics == NULL)
		goto out;
	s = xmalloc(sizeof(*s));
	metrics_snapshot(app->metrics, s);
	s->calls_in_flight = limiter_inflight(app->lim);
	have_jobs = app->db != NULL &&
	    repo_bulk_export_count_by_status(app->db, jobs) == 0;
	exposition_render(&b, s, have_jobs ? jobs : NULL);
	if (!buf_ok(&b))
		goto out;
	text = arena_strndup(&app->arena, b.data, b.len);
	resp_text(r, 200, EXPOSITION_CTYPE, text);
	rc = 0;
out:
	buf_clear(&b);
	free(s);
	return rc;
}
