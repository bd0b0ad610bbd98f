/*
 * The validation edge (docs/style.md §6): FastCGI parameters and the body become
 * a typed struct req.  Nothing after this module looks at raw CGI
 * variables.  request.c does not include fcgiapp.h; the worker hands it a
 * struct req_env whose callbacks read the FastCGI stream, so the same code
 * runs under unit tests and the fuzzer.
 */
#ifndef MAUTO_HTTP_REQUEST_H
#define MAUTO_HTTP_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "bounds.h"

struct arena;
struct json_object;

enum http_method {
	HTTP_GET,
	HTTP_POST,
	HTTP_DELETE,
	HTTP_PUT,
	HTTP_PATCH,
	HTTP_HEAD,
	HTTP_OPTIONS,
	HTTP_OTHER,
	HTTP__MAX
};

/* What the request body was, by Content-Type. */
enum body_kind {
	BODY_NONE,		/* no body (or zero length) */
	BODY_FORM,		/* application/x-www-form-urlencoded */
	BODY_JSON,		/* application/json (any charset parameter) */
	BODY_MULTIPART,		/* multipart/form-data */
	BODY_OTHER,		/* anything else, kept raw */
	BODY__MAX
};

enum param_src {
	PARAM_QUERY,
	PARAM_FORM,		/* urlencoded body */
	PARAM_MULTIPART,	/* non-file part of a multipart body */
	PARAM_JSON,		/* member of a JSON object body (request_json_params) */
	PARAM_SRC__MAX
};

/* One decoded name=value pair.  Strings are NUL-terminated, in the arena. */
struct param {
	const char	*name;
	const char	*value;
	size_t		 value_len;	/* value may hold no NUL: rejected */
	enum param_src	 src;
	/*
	 * A JSON array of scalars sent as the value: its items (arena
	 * strings, NULL-terminated), which req_param_list lists instead of
	 * splitting value at commas.  NULL otherwise.
	 */
	const char	**items;
	size_t		 nitems;
};

/* One multipart part.  data is raw bytes (not NUL-terminated). */
struct part {
	const char	*name;
	const char	*filename;	/* NULL when not a file part */
	const char	*content_type;	/* NULL when absent */
	const char	*data;
	size_t		 len;
};

/* The CGI variables request_read looks at (RFC 3875 §4.1). */
enum req_var {
	REQ_VAR_REQUEST_METHOD,
	REQ_VAR_PATH_INFO,
	REQ_VAR_DOCUMENT_URI,
	REQ_VAR_QUERY_STRING,
	REQ_VAR_REQUEST_URI,
	REQ_VAR_CONTENT_LENGTH,
	REQ_VAR_CONTENT_TYPE,
	REQ_VAR_HTTP_AUTHORIZATION,
	REQ_VAR_HTTP_ACCEPT_ENCODING,
	REQ_VAR_HTTP_RANGE,
	REQ_VAR_HTTP_X_MAUTO_FAULT,
	REQ_VAR_HTTP_X_APP_TYPE,
	REQ_VAR_REMOTE_ADDR,
	REQ_VAR__MAX
};

/*
 * Where a request comes from.  vars, when not NULL, holds the borrowed
 * value of each variable of enum req_var (NULL when absent), as
 * request_vars_fill leaves it; without it, getparam returns a borrowed
 * CGI variable or NULL.  read fills up to n bytes of body and returns the
 * count, 0 at the end, or -1 on error.
 */
struct req_env {
	const char	*(*getparam)(void *ctx, const char *name);
	ssize_t		 (*read)(void *ctx, char *buf, size_t n);
	void		*ctx;
	const char *const *vars;
};

struct req {
	/* Method as sent, and as routed (after a POST ?_method=GET). */
	enum http_method	 wire_method;
	enum http_method	 method;
	const char		*method_name;	/* as sent, for the 605 text */

	const char		*path;		/* PATH_INFO, never NULL */
	const char		*query;		/* raw QUERY_STRING, never NULL */

	/* Query parameters first, then form or multipart fields, in order. */
	struct param		*params;
	size_t			 nparams;

	enum body_kind		 body_kind;
	const char		*content_type;	/* raw header or NULL */
	char			*body;		/* raw, NUL-ended, or NULL */
	size_t			 body_len;

	/*
	 * For BODY_JSON: the parsed document (NULL when the body was the
	 * JSON literal null).  For BODY_FORM: a JSON array sent as the
	 * body (a JSON object's members are params), else NULL.  Owned by
	 * the request; request_clear puts it.
	 */
	struct json_object	*json;
	/*
	 * A body problem that only matters if the route wants that kind of
	 * body, as a negative api_err: -API_ERR_BAD_JSON for unparsable JSON,
	 * -API_ERR_MULTIPART for a broken multipart body (its parts and
	 * fields are then dropped).  0 when the body decoded.
	 */
	int			 body_err;

	struct part		*parts;
	size_t			 nparts;

	/* Headers the service looks at (borrowed into the arena). */
	const char		*authorization;	/* HTTP_AUTHORIZATION */
	const char		*accept_encoding;
	const char		*range;		/* HTTP_RANGE */
	const char		*fault;		/* HTTP_X_MAUTO_FAULT (fault.h) */
	const char		*app_type;	/* HTTP_X_APP_TYPE (asset v2) */
	const char		*remote_addr;

	/* Path parameters, filled by the router. */
	const char		*path_params[MAX_PATH_PARAMS];
	int64_t			 path_ints[MAX_PATH_PARAMS];
	size_t			 npath_params;

	struct arena		*arena;
};

/*
 * Fills vars[REQ_VAR__MAX] from envp, a NULL-ended array of "NAME=value"
 * strings (the FastCGI parameters as libfcgi keeps them), in one pass:
 * vars[v] points into envp at the value of the first entry named like v,
 * or is NULL when there is none, which is what FCGX_GetParam() would
 * answer for that name.  An entry without '=' names nothing.  envp may be
 * NULL (no variables).  The values are borrowed from envp.
 */
void	 request_vars_fill(const char *vars[REQ_VAR__MAX],
	    const char *const *envp);

/*
 * Reads one request from env into req (which it zeroes first), allocating
 * from a.  Checks, in this order: REQUEST_URI length (API_ERR_URI_TOO_LONG),
 * CONTENT_LENGTH parses (API_ERR_BAD_REQUEST) and is <= MAX_BODY_BYTES
 * (API_ERR_TOO_LARGE), each header kept is <= MAX_HEADER_BYTES
 * (API_ERR_BAD_REQUEST), the body is exactly CONTENT_LENGTH bytes
 * (API_ERR_BAD_REQUEST).  Decodes the query string, and the body by
 * Content-Type: form fields become params (a JSON object sent as a form
 * body too, its members; a JSON array so sent goes to req->json), JSON is
 * parsed (depth MAX_JSON_DEPTH, valid UTF-8, no trailing bytes but white
 * space) into req->json, multipart into parts and params; a body that
 * fails to decode sets req->body_err and still returns 0.  A decoded name or value with a
 * NUL or invalid UTF-8 is API_ERR_INVALID_VALUE; more than MAX_PARAMS
 * params or a name over MAX_PARAM_NAME_BYTES is API_ERR_INVALID_REQUEST.
 * Applies the `_method=GET` override on POST (docs/behaviour.md §0).
 * Returns 0 or a negative api_err.  On error the fields read so far are
 * valid (path, methods) so the error can be rendered in the right envelope.
 * Call request_clear when done, whatever the result.
 */
int	 request_read(struct req *req, struct arena *a, const struct req_env *env);

/*
 * For an operation that takes named parameters rather than a JSON
 * document: the members of a JSON object body (application/json) become
 * parameters of source PARAM_JSON after those of the query, read as a
 * JSON object sent under the form media type is (a string as its text, a
 * number or boolean as written, an object or array as compact JSON, null
 * as not given).  Does nothing for another body, a body that did not
 * parse (body_err) or one that is not an object.  Returns 0, or
 * API_ERR_INVALID_VALUE for a name or value with a NUL,
 * API_ERR_INVALID_REQUEST past MAX_PARAMS or for a name over
 * MAX_PARAM_NAME_BYTES, API_ERR_SYSTEM when the arena runs out (all
 * negative).
 */
int	 request_json_params(struct req *req);

/* Releases what the request owns outside the arena (the JSON document). */
void	 request_clear(struct req *req);

/* Maps a method name to the enum; HTTP_OTHER for anything unknown. */
enum http_method request_method(const char *name);
/* The canonical name of a method ("GET"), for docs and tests. */
const char	*request_method_name(enum http_method m);

/* First value of a parameter (query or body), or NULL. */
const char	*req_param(const struct req *req, const char *name);

/*
 * All values of a list parameter: repeated names and comma-separated
 * values are both split and flattened, empty items dropped.  Returns the
 * number of items (0 when absent) and sets *items to a NULL-terminated
 * arena array (NULL when there are none), or a negative api_err
 * (API_ERR_INVALID_REQUEST) past MAX_LIST_ITEMS.
 */
int		 req_param_list(const struct req *req, const char *name,
		    const char ***items);

#endif /* MAUTO_HTTP_REQUEST_H */
