/*
 * Routes whose API group is not built yet are registered all the same, so
 * clients get a clear answer instead of 610: HTTP 200 with code 703 (the
 * service's "feature is not enabled" code) and the operation's name.  Not
 * HTTP 5xx or code 611: client libraries retry those with back-off
 * (node-marketo-rest's isServerError), which would only delay the answer.
 * Each group's issue replaces api_pending with its handlers in
 * scripts/gen-routes.py.
 */
#include "api/api.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "http/router.h"
#include "util/arena.h"

int
api_pending(struct call *c, struct resp *r)
{
	r->err_msg = arena_printf(c->req->arena, "Not implemented: %s (%s)",
	    c->route->name, c->route->op_id);
	return -API_ERR_NOT_IMPLEMENTED;
}
