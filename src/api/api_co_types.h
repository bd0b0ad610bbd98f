/*
 * What the Custom Object records handlers (api_co_records.c) take from
 * the type handlers: the type JSON in its three shapes, the list of
 * types, the name check and the type-not-found error.
 */
#ifndef MAUTO_API_API_CO_TYPES_H
#define MAUTO_API_API_CO_TYPES_H

#include <stdbool.h>

#include "model/cotype.h"
#include "repo/repo_co_types.h"

struct call;
struct json_object;
struct resp;

enum co_shape {
	SHAPE_TYPE,		/* the schema API (ObjectMetaData) */
	SHAPE_OBJECT,		/* List Custom Objects */
	SHAPE_DESCRIBE,		/* Describe Custom Objects */
};

/* A type as JSON in the given shape; a new object owned by the caller. */
struct json_object *api_co_types_json(const struct co_type *t,
	    enum co_shape shape);

/*
 * Adds to r the types named by ?names= (all when absent), each in the
 * version ver (types without it are left out; state approvedWithDraft
 * also leaves out types in another state; approved_only reads only
 * approved versions), as shape.  Returns 0 or a negative api_err.
 */
int	api_co_types_browse(struct call *c, struct resp *r, enum co_ver ver,
	    const char *state, bool approved_only, enum co_shape shape);

/*
 * A name (apiName, field name) the request gives as what: 1002 when
 * missing, 1001 when not a valid name.  Returns 0 or a negative api_err.
 */
int	api_co_types_check_name(struct call *c, struct resp *r,
	    const char *what, const char *s);

/*
 * Maps a repo error of a type operation to an api_err; NOT_FOUND is 1013
 * naming the type.
 */
int	api_co_types_err(struct call *c, struct resp *r, int rerr,
	    const char *name);

#endif
