/*
 * Per-operation parameter descriptors (validate.h).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include <json-c/json.h>

#include "bounds.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "http/validate.h"
#include "util/arena.h"
#include "util/num.h"
#include "util/text.h"
#include "util/timeutil.h"

/* The 1001 type name of a descriptor without one of its own. */
static const char *const type_names[] = {
	[VP_STR] = "string",
	[VP_INT] = "integer",
	[VP_BOOL] = "boolean",
	[VP_ENUM] = "string",
	[VP_DATETIME] = "datetime",
	[VP_LIST] = "list",
	[VP_RAW] = "string",
};

/* Sets r->err_msg (an arena string; NULL when the arena ran out). */
static int
fail(struct resp *r, int err, const char *msg)
{
	r->err_msg = msg != NULL ? msg : "";
	return err;
}

/*
 * Answers a bad value: the descriptor's own code and message ("%s" in
 * bad_msg standing for the value), else 1001 naming the type.
 */
static int
bad_value(const struct req *req, struct resp *r, const struct vparam *d,
    const char *v)
{
	const char *shown = text_echo(req->arena, v), *mark;

	if (d->bad_msg != NULL) {
		mark = strstr(d->bad_msg, "%s");
		if (mark == NULL)
			return fail(r, d->bad_err != 0 ? d->bad_err :
			    -API_ERR_INVALID_VALUE, d->bad_msg);
		return fail(r, d->bad_err != 0 ? d->bad_err :
		    -API_ERR_INVALID_VALUE, arena_printf(req->arena,
		    "%.*s%s%s", (int)(mark - d->bad_msg), d->bad_msg, shown,
		    mark + 2));
	}
	return fail(r, d->bad_err != 0 ? d->bad_err :
	    -API_ERR_INVALID_VALUE, arena_printf(req->arena, "Invalid value "
	    "'%s'. Required of type '%s'", shown, d->type_name != NULL ?
	    d->type_name : type_names[d->type]));
}

/*
 * The text of a scalar parameter from the sources d allows, or NULL.
 * A JSON member that is not a string gives its JSON text; an object or
 * array member gives its JSON text too, for VP_RAW to parse.
 */
static const char *
scalar(const struct req *req, const struct vparam *d)
{
	unsigned src = d->src != 0 ? d->src : VP_PARAM;
	struct json_object *v;
	size_t i;

	for (i = 0; i < req->nparams; i++) {
		if (strcmp(req->params[i].name, d->name) != 0)
			continue;
		if (req->params[i].src == PARAM_QUERY ? (src & VP_QUERY) :
		    (src & VP_FORM))
			return req->params[i].value;
	}
	if ((d->flags & VPF_BODY) && req->json != NULL &&
	    json_object_is_type(req->json, json_type_array))
		return json_object_to_json_string_ext(req->json,
		    JSON_C_TO_STRING_PLAIN);
	if ((src & VP_JSON) && req->json != NULL &&
	    json_object_is_type(req->json, json_type_object) &&
	    json_object_object_get_ex(req->json, d->name, &v) && v != NULL)
		return json_object_is_type(v, json_type_string) ?
		    json_object_get_string(v) :
		    json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
	return NULL;
}

/* The items of a VP_LIST parameter into out; a negative api_err. */
static int
list(const struct req *req, struct resp *r, const struct vparam *d,
    struct vvalue *out)
{
	unsigned src = d->src != 0 ? d->src : VP_PARAM;
	struct json_object *v, *it;
	const char **items = NULL;
	size_t i, n;
	int k;

	if (src & VP_PARAM) {
		if ((k = req_param_list(req, d->name, &items)) < 0)
			return fail(r, -API_ERR_INVALID_REQUEST,
			    arena_printf(req->arena, "Too many items in '%s' "
			    "(at most %d)", d->name, MAX_LIST_ITEMS));
		out->items = items;
		out->n = (size_t)k;
	}
	if (out->n == 0 && (src & VP_JSON) && req->json != NULL &&
	    json_object_is_type(req->json, json_type_object) &&
	    json_object_object_get_ex(req->json, d->name, &v) &&
	    json_object_is_type(v, json_type_array)) {
		n = json_object_array_length(v);
		if (n > MAX_LIST_ITEMS)
			return fail(r, -API_ERR_INVALID_REQUEST,
			    arena_printf(req->arena, "Too many items in '%s' "
			    "(at most %d)", d->name, MAX_LIST_ITEMS));
		if ((items = arena_zalloc(req->arena,
		    (n + 1) * sizeof(*items))) == NULL)
			return -API_ERR_SYSTEM;
		for (i = 0; i < n; i++) {
			it = json_object_array_get_idx(v, i);
			if (it == NULL || json_object_is_type(it,
			    json_type_object) || json_object_is_type(it,
			    json_type_array))
				return bad_value(req, r, d, it == NULL ? "null" :
				    json_object_to_json_string_ext(it,
				    JSON_C_TO_STRING_PLAIN));
			items[i] = json_object_get_string(it);
		}
		out->items = items;
		out->n = n;
	}
	if (d->max > 0 && out->n > (size_t)d->max)
		return fail(r, -API_ERR_INVALID_REQUEST, arena_printf(
		    req->arena, "Too many items in '%s' (at most %lld)",
		    d->name, (long long)d->max));
	out->present = out->n > 0;
	return 0;
}

/* Checks one scalar value v against d into out; a negative api_err. */
static int
typed(const struct req *req, struct resp *r, const struct vparam *d,
    const char *v, struct vvalue *out)
{
	size_t len = strlen(v), i;
	int64_t day, max;

	out->s = v;
	switch (d->type) {
	case VP_STR:
	case VP_RAW:
		max = d->max > 0 ? d->max : MAX_PARAM_VALUE_BYTES;
		if ((int64_t)len > max)
			return bad_value(req, r, d, v);
		break;
	case VP_INT:
		if (num_parse_i64(v, d->min, d->max != 0 ? d->max :
		    INT64_MAX, &out->i) != 0)
			return bad_value(req, r, d, v);
		break;
	case VP_BOOL:
		if (text_bool(v, &out->b) != 0)
			return bad_value(req, r, d, v);
		out->i = out->b;
		break;
	case VP_ENUM:
		for (i = 0; d->words != NULL && d->words[i] != NULL; i++)
			if ((d->flags & VPF_NOCASE) ?
			    strcasecmp(v, d->words[i]) == 0 :
			    strcmp(v, d->words[i]) == 0)
				break;
		if (d->words == NULL || d->words[i] == NULL)
			return bad_value(req, r, d, v);
		out->i = (int64_t)i;
		break;
	case VP_DATETIME:
		if (!time_parse_iso(v, len, &out->i, &out->has_time, &day))
			return bad_value(req, r, d, v);
		break;
	case VP_LIST:
		break;
	}
	out->present = true;
	return 0;
}

/*
 * Whether req's JSON body can be read by d: no body, an object (its
 * members are parameters), or an array that a VPF_BODY descriptor is.
 */
static bool
body_readable(const struct req *req, const struct vparam *d, size_t n)
{
	size_t k;

	if (req->json == NULL || json_object_is_type(req->json,
	    json_type_object))
		return true;
	for (k = 0; k < n; k++)
		if ((d[k].flags & VPF_BODY) &&
		    json_object_is_type(req->json, json_type_array))
			return true;
	return false;
}

/* See validate.h. */
int
validate(const struct req *req, struct resp *r, const struct vparam *d,
    size_t n, struct vvalue *out)
{
	const char *v;
	size_t k;
	int err;

	memset(out, 0, n * sizeof(*out));
	if (!body_readable(req, d, n))
		return fail(r, -API_ERR_INVALID_REQUEST, "The request body "
		    "must be a JSON object of the operation's parameters");
	for (k = 0; k < n; k++) {
		if (d[k].type == VP_LIST) {
			if ((err = list(req, r, &d[k], &out[k])) != 0)
				return err;
		} else if ((v = scalar(req, &d[k])) != NULL && v[0] != '\0') {
			if ((err = typed(req, r, &d[k], v, &out[k])) != 0)
				return err;
		}
		if (out[k].present || !(d[k].flags & VPF_REQUIRED))
			continue;
		if (d[k].flags & VPF_BLANK)
			return fail(r, -API_ERR_BLANK, arena_printf(
			    req->arena, "%s cannot be blank", d[k].name));
		return fail(r, -API_ERR_MISSING_PARAM, arena_printf(
		    req->arena, "Missing value for the required parameter "
		    "'%s'", d[k].name));
	}
	return 0;
}
