/*
 * What every handler shares (api_common.h).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "api/api_common.h"
#include "bounds.h"
#include "call.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "http/validate.h"
#include "repo/repo.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/num.h"
#include "util/pagetoken.h"
#include "util/text.h"
#include "util/timeutil.h"

/* Formats a message into the request arena; NULL on exhaustion. */
static const char *
vmsg(struct call *c, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

static const char *
vmsg(struct call *c, const char *fmt, va_list ap)
{
	char msg[1024];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	return arena_strdup(&c->app->arena, msg);
}

/* See api_common.h. */
void
api_common_err_msg(struct call *c, struct resp *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	r->err_msg = vmsg(c, fmt, ap);
	va_end(ap);
}

/* See api_common.h. */
int
api_common_fail(struct call *c, struct resp *r, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	r->err_msg = vmsg(c, fmt, ap);
	va_end(ap);
	return err;
}

/* See api_common.h. */
const char *
api_common_echo(struct call *c, const char *s)
{
	return text_echo(&c->app->arena, s);
}

/* See api_common.h. */
int
api_common_invalid(struct call *c, struct resp *r, const char *v,
    const char *type)
{
	return api_common_fail(c, r, -API_ERR_INVALID_VALUE, "Invalid value "
	    "'%s'. Required of type '%s'", api_common_echo(c, v), type);
}

/* See api_common.h. */
struct json_object *
api_common_record(const char *key, struct json_object *val,
    const char *status)
{
	struct json_object *o = json_object_new_object();

	if (val != NULL)
		json_object_object_add(o, key, val);
	json_object_object_add(o, "status", json_object_new_string(status));
	return o;
}

/* The skipped records' reason codes of the call being served. */
static struct api_reasons reasons_seen;

/* Counts one skipped record of reason code. */
static void
reason_seen(int code)
{
	struct api_reasons *rs = &reasons_seen;
	size_t i;

	for (i = 0; i < rs->n; i++)
		if (rs->code[i] == code) {
			rs->count[i]++;
			return;
		}
	if (rs->n < API_REASON_CODES) {
		rs->code[rs->n] = code;
		rs->count[rs->n++] = 1;
	}
}

/* See api_common.h. */
void
api_common_reasons_take(struct api_reasons *out)
{
	if (out != NULL)
		*out = reasons_seen;
	reasons_seen.n = 0;
}

/* See api_common.h. */
struct json_object *
api_common_skipped(const char *key, struct json_object *val, int code,
    const char *fmt, ...)
{
	struct json_object *o, *reasons, *reason;
	char msg[1024], codes[16];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(codes, sizeof(codes), "%d", code);
	reason_seen(code);
	o = api_common_record(key, val, "skipped");
	reasons = json_object_new_array();
	reason = json_object_new_object();
	json_object_object_add(reason, "code", json_object_new_string(codes));
	json_object_object_add(reason, "message", json_object_new_string(msg));
	json_object_array_add(reasons, reason);
	json_object_object_add(o, "reasons", reasons);
	return o;
}

/* See api_common.h. */
struct json_object *
api_common_id(int64_t id)
{
	return id != 0 ? json_object_new_int64(id) : NULL;
}

/* See api_common.h. */
struct json_object *
api_common_time_json(int64_t t)
{
	char iso[TIME_ISO_BYTES];

	return time_iso_from_epoch(t, iso) != NULL ?
	    json_object_new_string(iso) : NULL;
}

/* See api_common.h. */
struct json_object *
api_common_db_time_json(const char *db)
{
	char iso[TIME_ISO_BYTES];

	return time_iso_from_db(db, iso) != NULL ?
	    json_object_new_string(iso) : NULL;
}

/* See api_common.h. */
struct json_object *
api_common_str_or_null(const char *s)
{
	return s != NULL ? json_object_new_string(s) : NULL;
}

/*
 * Whether json is an array of strings of printable ASCII without escapes
 * and without spaces, which json-c writes again byte for byte after
 * parsing it; *n is its length.
 */
static bool
plain_array(const char *json, size_t *n)
{
	const char *s = json;
	size_t k = 0;

	*n = 0;
	if (*s++ != '[')
		return false;
	if (*s == ']')
		return s[1] == '\0';
	for (;;) {
		if (*s++ != '"')
			return false;
		for (; *s != '"'; s++)
			if (*s < 0x20 || *s > 0x7e || *s == '\\')
				return false;
		s++;
		k++;
		if (*s == ']' && s[1] == '\0') {
			*n = k;
			return true;
		}
		if (*s++ != ',')
			return false;
	}
}

/* See api_common.h. */
size_t
api_common_array_text(struct buf *b, const char *json)
{
	struct json_object *v;
	const char *t;
	size_t len = 0, n = 0;

	if (json != NULL && plain_array(json, &n)) {
		buf_adds(b, json);
		return n;
	}
	v = json != NULL ? json_tokener_parse(json) : NULL;
	if (v != NULL && json_object_is_type(v, json_type_array)) {
		n = json_object_array_length(v);
		t = json_object_to_json_string_length(v,
		    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE,
		    &len);
		buf_add(b, t, len);
	} else
		buf_adds(b, "[]");
	json_object_put(v);
	return n;
}

/* See api_common.h. */
struct json_object *
api_common_body_object(const struct call *c)
{
	struct json_object *j = c->req->json;

	return j != NULL && json_object_is_type(j, json_type_object) ? j :
	    NULL;
}

/* See api_common.h. */
int
api_common_member_str(struct call *c, struct resp *r, struct json_object *o,
    const char *key, size_t max, const char **out)
{
	struct json_object *v;
	const char *s;

	*out = NULL;
	if (o == NULL || !json_object_object_get_ex(o, key, &v) || v == NULL)
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return api_common_fail(c, r, -API_ERR_INVALID_VALUE, "Invalid value '%s'. "
		    "Required of type 'string' for '%s'", api_common_echo(c,
		    json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN)),
		    key);
	s = json_object_get_string(v);
	if ((size_t)json_object_get_string_len(v) > max * 4 ||
	    memchr(s, '\0', (size_t)json_object_get_string_len(v)) != NULL)
		return api_common_fail(c, r, -API_ERR_INVALID_VALUE, "Invalid value for "
		    "'%s': longer than %zu characters", key, max);
	*out = s;
	return 0;
}

/* See api_common.h. */
int
api_common_member_bool(struct call *c, struct resp *r, struct json_object *o,
    const char *key, bool *out, bool *has)
{
	struct json_object *v;

	if (has != NULL)
		*has = false;
	if (o == NULL || !json_object_object_get_ex(o, key, &v) || v == NULL)
		return 0;
	if (!json_object_is_type(v, json_type_boolean))
		return api_common_fail(c, r, -API_ERR_INVALID_VALUE, "Invalid value '%s'. "
		    "Required of type 'boolean' for '%s'", api_common_echo(c,
		    json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN)),
		    key);
	*out = json_object_get_boolean(v);
	if (has != NULL)
		*has = true;
	return 0;
}

/* See api_common.h. */
int
api_common_body(struct call *c, struct resp *r, struct json_object **body)
{
	if ((*body = api_common_body_object(c)) == NULL)
		return api_common_fail(c, r, -API_ERR_INVALID_REQUEST,
		    "The request body must be a JSON object");
	return 0;
}

/* See api_common.h. */
int
api_common_member_obj(struct call *c, struct resp *r, struct json_object *o,
    const char *key, struct json_object **out)
{
	struct json_object *v;

	*out = NULL;
	if (o == NULL || !json_object_object_get_ex(o, key, &v) || v == NULL)
		return 0;
	if (!json_object_is_type(v, json_type_object))
		return api_common_fail(c, r, -API_ERR_INVALID_VALUE,
		    "Invalid value for '%s': not a JSON object", key);
	*out = v;
	return 0;
}

/* See api_common.h. */
int
api_common_member_text(struct call *c, struct resp *r, struct json_object *o,
    const char *key, size_t max, const char **out)
{
	int e;

	if ((e = api_common_member_str(c, r, o, key, max, out)) != 0)
		return e;
	if (*out != NULL && text_chars(*out, strlen(*out)) > max)
		return api_common_fail(c, r, -API_ERR_INVALID_VALUE,
		    "Invalid value for '%s': longer than %zu characters", key,
		    max);
	return 0;
}

/* Whether v is an id as the asset members take one: a string or number. */
static bool
is_id_json(struct json_object *v)
{
	return json_object_is_type(v, json_type_string) ||
	    json_object_is_type(v, json_type_int);
}

/* See api_common.h. */
int
api_common_member_id_text(struct call *c, struct resp *r,
    struct json_object *o, const char *key, bool required, const char **out)
{
	struct json_object *v;

	*out = NULL;
	if (o != NULL && json_object_object_get_ex(o, key, &v) && v != NULL) {
		if (!is_id_json(v))
			return api_common_fail(c, r, -API_ERR_INVALID_VALUE,
			    "Invalid value for '%s': not an id", key);
		*out = json_object_get_string(v);
	}
	if (required && (*out == NULL || **out == '\0'))
		return api_common_fail(c, r, -API_ERR_BLANK,
		    "%s cannot be blank", key);
	return 0;
}

/* See api_common.h. */
int
api_common_member_id(struct call *c, struct resp *r, struct json_object *o,
    const char *key, int32_t *out, bool *has)
{
	struct json_object *v;
	const char *s;
	int64_t n;

	*out = 0;
	*has = false;
	if (o == NULL || !json_object_object_get_ex(o, key, &v) || v == NULL)
		return 0;
	s = is_id_json(v) ? json_object_get_string(v) : NULL;
	if (s == NULL || strspn(s, "0123456789") != strlen(s) ||
	    num_parse_i64(s, 1, INT32_MAX, &n) != 0)
		return api_common_fail(c, r, -API_ERR_INVALID_VALUE,
		    "Invalid value for '%s': not an id", key);
	*out = (int32_t)n;
	*has = true;
	return 0;
}

/* See api_common.h. */
int
api_common_member_int(struct call *c, struct resp *r, struct json_object *o,
    const char *key, int64_t min, int64_t max, const char *bounds,
    int64_t *out)
{
	struct json_object *v;
	int64_t n;

	if (o == NULL || !json_object_object_get_ex(o, key, &v) || v == NULL)
		return 0;
	if (!json_object_is_type(v, json_type_int) ||
	    (n = json_object_get_int64(v)) < min || n > max)
		return api_common_fail(c, r, -API_ERR_INVALID_VALUE,
		    "Invalid value for '%s': %s", key, bounds);
	*out = n;
	return 0;
}

/* See api_common.h. */
int
api_common_member_ids(struct call *c, struct resp *r, struct json_object *o,
    const char *key, size_t max, struct json_object **ids, size_t *n)
{
	struct json_object *v;
	size_t i;

	*ids = NULL;
	*n = 0;
	if (o == NULL || !json_object_object_get_ex(o, key, ids) ||
	    *ids == NULL || (json_object_is_type(*ids, json_type_array) &&
	    json_object_array_length(*ids) == 0))
		return api_common_fail(c, r, -API_ERR_BLANK,
		    "%s cannot be blank", key);
	if (!json_object_is_type(*ids, json_type_array))
		return api_common_fail(c, r, -API_ERR_INVALID_VALUE,
		    "Invalid value for '%s': not an array", key);
	*n = json_object_array_length(*ids);
	if (*n > max)
		return api_common_fail(c, r, -API_ERR_INVALID_REQUEST,
		    "%s holds %zu ids: at most %zu per request", key, *n, max);
	for (i = 0; i < *n; i++) {
		v = json_object_array_get_idx(*ids, i);
		if (v == NULL || !is_id_json(v))
			return api_common_fail(c, r, -API_ERR_INVALID_VALUE,
			    "Invalid value for '%s': not an id", key);
	}
	return 0;
}

static const char *const action_names[ACT__MAX] = {
	[ACT_CREATE_OR_UPDATE] = "createOrUpdate",
	[ACT_CREATE_ONLY] = "createOnly",
	[ACT_UPDATE_ONLY] = "updateOnly",
	[ACT_CREATE_DUPLICATE] = "createDuplicate",
};

/* See api_common.h. */
const char *
api_common_action_name(enum api_action a)
{
	return a < ACT__MAX ? action_names[a] : "";
}

/* See api_common.h. */
int
api_common_action_parse(const char *s, bool allow_duplicate,
    enum api_action *out)
{
	size_t i;

	for (i = 0; i < ACT__MAX; i++)
		if (strcmp(s, action_names[i]) == 0 &&
		    (allow_duplicate || i != ACT_CREATE_DUPLICATE)) {
			*out = (enum api_action)i;
			return 0;
		}
	return -1;
}

/* See api_common.h. */
int
api_common_action(struct call *c, struct resp *r, struct json_object *body,
    enum api_action *out)
{
	const char *s;
	int err;

	*out = ACT_CREATE_OR_UPDATE;
	if ((err = api_common_member_str(c, r, body, "action", 32, &s)) != 0)
		return err;
	if (s != NULL && api_common_action_parse(s, false, out) != 0)
		return api_common_fail(c, r, -API_ERR_INVALID_VALUE, "Invalid value '%s'. "
		    "Required of type 'action' (createOnly, updateOnly, "
		    "createOrUpdate)", api_common_echo(c, s));
	return 0;
}

/* See api_common.h. */
int
api_common_input(struct call *c, struct resp *r,
    const struct api_input *rule, struct json_object **out, size_t *n)
{
	struct json_object *body = api_common_body_object(c), *in = NULL;

	*out = NULL;
	*n = 0;
	if (body == NULL || !json_object_object_get_ex(body, "input", &in) ||
	    in == NULL)
		return api_common_fail(c, r, rule->missing_err, "%s",
		    rule->missing_msg);
	if (!json_object_is_type(in, json_type_array))
		return rule->type_err != 0 ?
		    api_common_fail(c, r, rule->type_err, "%s", rule->type_msg) :
		    api_common_fail(c, r, rule->missing_err, "%s",
		    rule->missing_msg);
	*n = json_object_array_length(in);
	if (*n == 0)
		return api_common_fail(c, r, rule->missing_err, "%s",
		    rule->missing_msg);
	if (rule->max > 0 && *n > rule->max) {
		if (rule->max_counts)
			return api_common_fail(c, r, rule->max_err,
			    "%s: %zu (the limit is %zu)", rule->max_msg, *n,
			    rule->max);
		return api_common_fail(c, r, rule->max_err, "%s",
		    rule->max_msg);
	}
	*out = in;
	return 0;
}

/* ---- Lead-database browses ------------------------------------------- */

/*
 * The values of list parameter name into *items and *n, each added to
 * the query signature *sig.
 */
static int
filter_param(struct call *c, const char *name, const char ***items,
    size_t *n, uint32_t *sig)
{
	int k;
	size_t i;

	*items = NULL;
	*n = 0;
	if ((k = req_param_list(c->req, name, items)) < 0)
		return k;
	*n = (size_t)k;
	*sig = page_token_sig(*sig, name, strlen(name));
	for (i = 0; i < *n; i++)
		*sig = page_token_sig(*sig, (*items)[i], strlen((*items)[i]));
	return 0;
}

/* See api_common.h. */
int
api_common_browse_filter(struct call *c, struct resp *r,
    struct repo_filter *f, uint32_t *sig)
{
	const char **ids, **names, **progs, **wss;
	int64_t *idv = NULL;
	size_t nids, i;
	int e;

	memset(f, 0, sizeof(*f));
	if ((e = filter_param(c, "id", &ids, &nids, sig)) != 0 ||
	    (e = filter_param(c, "name", &names, &f->nnames, sig)) != 0 ||
	    (e = filter_param(c, "programName", &progs, &f->nprograms,
	    sig)) != 0 ||
	    (e = filter_param(c, "workspaceName", &wss, &f->nworkspaces,
	    sig)) != 0)
		return e;
	f->names = names;
	f->programs = progs;
	f->workspaces = wss;
	if (nids > 0 && (idv = arena_alloc(&c->app->arena,
	    nids * sizeof(*idv))) == NULL)
		return -API_ERR_SYSTEM;
	for (i = 0; i < nids; i++)
		if (num_parse_i64(ids[i], 1, INT32_MAX, &idv[i]) != 0)
			return api_common_invalid(c, r, ids[i], "Integer");
	f->ids = idv;
	f->nids = nids;
	return 0;
}

static const struct vparam page_params[] = {
	{ .name = "batchSize", .type = VP_INT, .min = 1,
	  .bad_err = -API_ERR_INVALID_REQUEST,
	  .bad_msg = "Invalid batchSize '%s': an integer from 1 to "
	      API_STR(MAX_BATCH_SIZE) },
	{ .name = "nextPageToken", .type = VP_STR },
};

/* See api_common.h. */
int
api_common_browse_page(struct call *c, struct resp *r, uint8_t kind,
    uint32_t sig, int *batch, int64_t *after)
{
	struct vvalue v[2];
	int e;

	*batch = MAX_BATCH_SIZE;
	*after = 0;
	if ((e = VALIDATE(c->req, r, page_params, v)) != 0)
		return e;
	if (v[0].present && v[0].i < MAX_BATCH_SIZE)
		*batch = (int)v[0].i;
	if (v[1].present && page_token_decode(v[1].s, kind, sig, after) != 0)
		return api_common_fail(c, r, -API_ERR_INVALID_REQUEST,
		    "Invalid nextPageToken");
	return 0;
}

/* See api_common.h. */
int
api_common_browse_next(struct call *c, struct resp *r, uint8_t kind,
    uint32_t sig, int64_t last)
{
	char tok[PAGE_TOKEN_BYTES];

	page_token_encode(kind, sig, last, tok);
	if ((r->next_page_token = arena_strdup(&c->app->arena, tok)) == NULL)
		return -API_ERR_SYSTEM;
	r->more_result = 1;
	return 0;
}
