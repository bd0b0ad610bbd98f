/*
 * The route table and its lookup (docs/style.md §8).  Patterns are the paths of
 * operations.tsv with named parameters ("{leadId}"); the comparator treats
 * any "{...}" as one placeholder, so an incoming path put in canonical form
 * (parameters replaced by "{}") is found with bsearch.  A literal segment
 * wins over a parameter.
 */
#ifndef MAUTO_HTTP_ROUTER_H
#define MAUTO_HTTP_ROUTER_H

#include <stddef.h>

#include "call.h"
#include "model/perm.h"
#include "http/request.h"
#include "http/response.h"

enum route_auth {
	AUTH_TOKEN,		/* access token required, counted by the limits */
	AUTH_NONE,		/* identity endpoint: no token, not counted */
};

enum path_type {
	PATH_NONE,		/* no parameter at this position */
	PATH_STR,		/* any non-empty segment text */
	PATH_INT32,		/* 0 .. INT32_MAX */
	PATH_INT64,		/* 0 .. INT64_MAX */
};

struct route {
	enum http_method	 method;
	const char		*pattern;	/* as in operations.tsv */
	const char		*op_id;		/* operationId */
	const char		*name;		/* operation name */
	const char		*group;		/* API group */
	api_handler		 handler;
	enum envelope		 env;
	enum route_auth		 auth;
	enum body_kind		 body;		/* body the operation takes */
	perm_set		 perm_any;
	perm_set		 perm_all;
	enum path_type		 ptypes[MAX_PATH_PARAMS];
	/*
	 * Which of its operations a handler that serves several is called
	 * for (an operation code of the handler's, e.g. an asset_op); 0
	 * for the other handlers.
	 */
	int			 variant;
};

/* The table (routes.c), strictly increasing under route_cmp. */
extern const struct route routes[];
extern const size_t nroutes;

/*
 * Orders two routes: by pattern, segment by segment, where any "{...}"
 * compares as "{}", then by method.
 */
int	route_cmp(const void *a, const void *b);
/* Compares two patterns only, as route_cmp does. */
int	route_pattern_cmp(const char *a, const char *b);

/*
 * Finds the route for method and path.  Returns 0 and sets *out and the
 * path parameters of req, -API_ERR_METHOD when the path exists under other
 * methods only, -API_ERR_NOT_FOUND otherwise, or -API_ERR_INVALID_VALUE
 * when an integer path parameter is not one (r->err_msg says which).
 */
int	router_find(struct req *req, const struct route **out,
	    const char **err_msg);

/* Builds the literal-segment index; call once per process (idempotent). */
void	router_init(void);

#endif
