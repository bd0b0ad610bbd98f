/*
 * GET /metrics: the shared counters (util/metrics.h), the export jobs by
 * state, the processes alive and the campaign engine's counters and
 * queue, in the Prometheus text exposition
 * format, version 0.0.4.  Any worker answers it (the counters are the
 * host's, not the worker's), without a token and outside the limits; the
 * web server keeps it off the public address (deploy/nginx/mautod.conf).
 * dispatch.c calls exposition_scrape for it and exposition_count after
 * every other request.
 */
#ifndef MAUTO_EXPOSITION_H
#define MAUTO_EXPOSITION_H

#include <stdbool.h>
#include <stdint.h>

struct app;
struct buf;
struct metrics_snapshot;
struct req;
struct resp;
struct route;

#define EXPOSITION_PATH		"/metrics"
#define EXPOSITION_CTYPE	"text/plain; version=0.0.4; charset=utf-8"

/* Whether req is a scrape: GET EXPOSITION_PATH (any query). */
bool	exposition_is_scrape(const struct req *req);

/*
 * Makes r the scrape's text body (resp_text, in the request arena): the
 * counters of app->metrics and the export jobs read through app->db
 * (left out when the database does not answer).  Returns 0, or
 * -API_ERR_SYSTEM without counters or when the text is over
 * MAX_RESPONSE_BYTES.
 */
int	exposition_scrape(struct app *app, struct resp *r);

/*
 * Counts one answered request into app->metrics: its route (NULL when it
 * matched none), the HTTP status sent, err (0 or a negative api_err) and
 * started, time_mono_us() when it was accepted.
 */
void	exposition_count(struct app *app, const struct route *rt, int status,
	    int err, int64_t started);

/*
 * Writes the exposition of s into out.  export_jobs, indexed by enum
 * export_status, is NULL when the jobs could not be read: the family is
 * then written without samples.  Operations are named by the route
 * table's operationId; routes that share one are summed.
 */
void	exposition_render(struct buf *out, const struct metrics_snapshot *s,
	    const int64_t *export_jobs);

#endif
