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
#include "call.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "util/arena.h"

/* See api_common.h. */
struct json_object *
api_common_skipped(int64_t id, int code, const char *fmt, ...)
{
	struct json_object *o, *reasons, *reason;
	char msg[1024], codes[16];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(codes, sizeof(codes), "%d", code);
	o = json_object_new_object();
	if (id != 0)
		json_object_object_add(o, "id", json_object_new_int64(id));
	json_object_object_add(o, "status", json_object_new_string("skipped"));
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
api_common_status(int64_t id, const char *status)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "id", json_object_new_int64(id));
	json_object_object_add(o, "status", json_object_new_string(status));
	return o;
}

/* See api_common.h. */
void
api_common_err_msg(struct call *c, struct resp *r, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	r->err_msg = arena_strdup(&c->app->arena, msg);
}

/* See api_common.h. */
int
api_common_fail(struct call *c, struct resp *r, int err, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	r->err_msg = arena_strdup(&c->app->arena, msg);
	return err;
}

/* See api_common.h. */
const char *
api_common_shown(struct call *c, const char *s)
{
	char out[64];
	size_t i;

	if (s == NULL)
		return "";
	for (i = 0; s[i] != '\0' && i < 60; i++)
		out[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' :
		    s[i];
	out[i] = '\0';
	if (s[i] != '\0' && i >= 3)
		memcpy(out + i - 3, "...", 4);
	s = arena_strdup(&c->app->arena, out);
	return s != NULL ? s : "";
}

/* See api_common.h. */
struct json_object *
api_common_time_json(int64_t t)
{
	char s[32];
	struct tm tm;
	time_t tt = (time_t)t;

	if (t <= 0 || gmtime_r(&tt, &tm) == NULL)
		return NULL;
	strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return json_object_new_string(s);
}

/* See api_common.h. */
struct json_object *
api_common_str_or_null(const char *s)
{
	return s != NULL ? json_object_new_string(s) : NULL;
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
		    "Required of type 'string' for '%s'", api_common_shown(c,
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
		    "Required of type 'boolean' for '%s'", api_common_shown(c,
		    json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN)),
		    key);
	*out = json_object_get_boolean(v);
	if (has != NULL)
		*has = true;
	return 0;
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
	if (s == NULL || strcmp(s, "createOrUpdate") == 0)
		return 0;
	if (strcmp(s, "createOnly") == 0)
		*out = ACT_CREATE_ONLY;
	else if (strcmp(s, "updateOnly") == 0)
		*out = ACT_UPDATE_ONLY;
	else
		return api_common_fail(c, r, -API_ERR_INVALID_VALUE, "Invalid value '%s'. "
		    "Required of type 'action' (createOnly, updateOnly, "
		    "createOrUpdate)", api_common_shown(c, s));
	return 0;
}
