/*
 * The lead field catalogue of a worker, and the `fields` parameter
 * (api_leads_common.h).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "api/api.h"
#include "api/api_leads_common.h"
#include "http/errors.h"
#include "http/request.h"
#include "http/response.h"
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_lead_fields.h"
#include "util/arena.h"
#include "util/timeutil.h"

/*
 * Reloads the catalogue when its version moved (or none is loaded).  At
 * most one reload per request: the catalogue it replaces is retired, not
 * freed, so field pointers a handler already holds stay valid until a
 * later request reloads again.
 */
static int
refresh(struct app *app)
{
	struct lead_schema fresh;
	int64_t version;
	int r;

	if (app->lead_schema.fields != NULL &&
	    app->lead_schema_loaded_at == app->served + 1)
		return 0;

	if (app->lead_schema.fields != NULL) {
		if ((r = repo_lead_fields_version(app->db, &version)) != 0)
			return repo_err_to_api(r);
		if (version == app->lead_schema.version) {
			app->lead_schema_checked_ms = time_mono_ms();
			return 0;
		}
	}
	if ((r = repo_lead_fields_load(app->db, &fresh)) != 0)
		return repo_err_to_api(r);
	lead_schema_clear(&app->lead_schema_retired);
	app->lead_schema_retired = app->lead_schema;
	app->lead_schema = fresh;
	app->lead_schema_loaded_at = app->served + 1;
	app->lead_schema_checked_ms = time_mono_ms();
	return 0;
}

/* See api_leads_common.h. */
int
leads_schema(struct call *c, bool fresh, const struct lead_schema **out)
{
	struct app *app = c->app;
	int r = 0;

	*out = NULL;
	if (fresh || app->lead_schema.fields == NULL ||
	    time_mono_ms() - app->lead_schema_checked_ms >= LEAD_SCHEMA_CHECK_MS)
		r = refresh(app);
	if (r == 0)
		*out = &app->lead_schema;
	return r;
}

/* See api_leads_common.h. */
int
leads_schema_for(struct call *c, const char *const *names, size_t n,
    const struct lead_schema **s)
{
	size_t i;
	int r;

	if ((r = leads_schema(c, false, s)) != 0)
		return r;
	for (i = 0; i < n; i++)
		if (names[i] != NULL && lead_schema_find(*s, names[i]) == NULL)
			return leads_schema(c, true, s);
	return 0;
}

/* Appends f to list unless it is there already. */
static void
add_field(const struct lead_field **list, size_t *n, size_t cap,
    const struct lead_field *f)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (list[i] == f)
			return;
	if (*n < cap)
		list[(*n)++] = f;
}

/* See api_leads_common.h. */
int
leads_fields_param(struct call *c, struct resp *rp,
    const struct lead_schema **s,
    const char *const *defaults, const struct lead_field ***out, size_t *n)
{
	const struct lead_field **list, *f;
	const char **names = NULL;
	size_t cap, i;
	int count, r;

	*out = NULL;
	*n = 0;
	count = req_param_list(c->req, "fields", &names);
	if (count < 0)
		return count;
	if (count == 0) {
		names = (const char **)(uintptr_t)defaults;
		for (count = 0; defaults[count] != NULL; count++)
			;
	}
	cap = (size_t)count;
	if ((r = leads_schema_for(c, names, cap, s)) != 0)
		return r;
	list = arena_zalloc(&c->app->arena, (cap + 1) * sizeof(*list));
	if (list == NULL)
		return -API_ERR_SYSTEM;
	for (i = 0; i < (size_t)count; i++) {
		if (names[i] == NULL || names[i][0] == '\0')
			continue;
		if ((f = lead_schema_find(*s, names[i])) == NULL) {
			leads_err_msg(c, rp, "Field '%s' not found",
			    names[i]);
			return -API_ERR_FIELD_NOT_FOUND;
		}
		add_field(list, n, cap, f);
	}
	*out = list;
	return 0;
}

/* See api_leads_common.h. */
struct json_object *
leads_skipped(int64_t id, int code, const char *fmt, ...)
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

/* See api_leads_common.h. */
struct json_object *
leads_status(int64_t id, const char *status)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "id", json_object_new_int64(id));
	json_object_object_add(o, "status", json_object_new_string(status));
	return o;
}

/* See api_leads_common.h. */
void
leads_err_msg(struct call *c, struct resp *r, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	r->err_msg = arena_strdup(&c->app->arena, msg);
}
