/*
 * GET /healthz: the probe of a load balancer or an orchestrator.  Not a
 * Marketo operation, so it is not in the route table (docs/operations.tsv)
 * and dispatch serves it before routing: no token, not counted against
 * the rate, concurrency or daily limits, and never hit by injected
 * faults, so what it says is always the truth.  The worker that answers
 * pings its own database connection (reconnecting one that was lost), so
 * 200 means this worker can serve calls now; a probe does not tell one
 * worker from another, and all of them share the database.
 */
#include <stdbool.h>

#include "api/api.h"
#include "db/pool.h"
#include "http/response.h"

#define HEALTH_CTYPE	"application/json;charset=UTF-8"

int
api_health_get(struct call *c, struct resp *r)
{
	static const char up[] =
	    "{\"status\":\"ok\",\"version\":\"" PACKAGE_VERSION "\"}";
	static const char down[] = "{\"status\":\"unavailable\","
	    "\"version\":\"" PACKAGE_VERSION "\"}";
	bool ok = c->app->db != NULL && db_ping(c->app->db) == 0;

	resp_text(r, ok ? 200 : 503, HEALTH_CTYPE, ok ? up : down);
	return 0;
}
