/*
 * GET /healthz: the probe of a load balancer or an orchestrator.  Not a
 * Marketo operation, so it is not in the route table (docs/operations.tsv)
 * and dispatch serves it before routing: no token, not counted against
 * the rate, concurrency or daily limits, and never hit by injected
 * faults, so what it says is always the truth.  The worker that answers
 * pings its own database connection (reconnecting one that was lost), so
 * 200 means this worker can serve calls now; a probe does not tell one
 * worker from another, and all of them share the database.
 *
 * With fewer workers serving than the master keeps (one that cannot open
 * the database is started again with growing delays, src/master.c), the
 * answer is still 200, since the instance serves, but its status is
 * "degraded" and it says how many serve of how many.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>

#include "api/api.h"
#include "db/pool.h"
#include "http/response.h"
#include "util/arena.h"
#include "util/metrics.h"

#define HEALTH_CTYPE	"application/json;charset=UTF-8"

int
api_health_get(struct call *c, struct resp *r)
{
	static const char up[] =
	    "{\"status\":\"ok\",\"version\":\"" PACKAGE_VERSION "\"}";
	static const char down[] = "{\"status\":\"unavailable\","
	    "\"version\":\"" PACKAGE_VERSION "\"}";
	bool ok = c->app->db != NULL && db_ping(c->app->db) == 0;
	int64_t ready = 0, wanted = 0;

	if (ok && c->app->metrics != NULL)
		metrics_workers(c->app->metrics, &ready, &wanted);
	if (ok && ready < wanted)
		resp_text(r, 200, HEALTH_CTYPE, arena_printf(&c->app->arena,
		    "{\"status\":\"degraded\",\"version\":\"" PACKAGE_VERSION
		    "\",\"workers\":%" PRId64 ",\"wanted\":%" PRId64 "}",
		    ready, wanted));
	else
		resp_text(r, ok ? 200 : 503, HEALTH_CTYPE, ok ? up : down);
	return 0;
}
