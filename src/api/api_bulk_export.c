/*
 * Bulk Export Custom Objects (docs/behaviour.md §7): create, enqueue,
 * status, cancel, file and the job list.  The jobs are run by the export
 * runners (src/export/runner.c); these handlers only move them between
 * the states a client controls and read them.
 *
 * Decisions where the service's documentation is silent:
 *   - Jobs are the calling API client's: another client's job answers
 *     exactly as a job that does not exist (1003 "Export job not found",
 *     or HTTP 404 for the file), and so does a job of another object.
 *   - The path's apiName must be an approved custom object type at
 *     create time (1003 "Custom object type '<name>' not found").
 *   - Create, body errors: 1003 with a message naming the problem
 *     (missing or empty fields, a field listed twice, a bad format, a
 *     filter with other than exactly one of updatedAt, staticListId,
 *     staticListName, an updatedAt range that is not ISO-8601, ends
 *     before it starts or spans more than 31 days, an unknown static
 *     list, a static list filter on a type without a link to leads, an
 *     unknown member); 1003 "Invalid fields [a, b]" naming every field
 *     the type does not have, as sent and in order (the bulk extract
 *     service's answer, docs/behaviour.md §7.2); 1001 for a value of the
 *     wrong JSON type;
 *     1035 for smartListId and smartListName (no smart lists here).
 *   - 1029: "Job already queued" (enqueue of a job that is not Created),
 *     "Too many jobs in queue" (EXPORT_MAX_QUEUED Queued or Processing
 *     in the whole instance), "Export daily quota <N>MB exceeded." (create and
 *     enqueue, once the files completed today, US Central, reach
 *     export_daily_quota_mb).
 *   - Cancel of a Cancelled job succeeds again; of a Completed or Failed
 *     one it is 1003.
 *   - Get Jobs: moreResult always, nextPageToken when there is more; a
 *     token of another query is 1003; status values in any case,
 *     "Canceled" too; batchSize is cut to 1..300.
 *   - Get File: 200 with the whole file, 206 for one byte range, 416
 *     when the range is past the end; 404 with a plain-text body when
 *     the job is unknown, not Completed, or its file expired.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "api/api.h"
#include "api/api_common.h"
#include "auth/ratelimit.h"
#include "model/export.h"
#include "err.h"
#include "http/range.h"
#include "http/request.h"
#include "http/response.h"
#include "http/validate.h"
#include "model/cotype.h"
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_bulk_export.h"
#include "repo/repo_lists.h"
#include "repo/repo_co_types.h"
#include "util/arena.h"
#include "util/config.h"
#include "util/log.h"
#include "util/num.h"
#include "util/pagetoken.h"
#include "util/text.h"
#include "util/timeutil.h"

/* The paging token kind of Get Export Jobs (util/pagetoken.h). */
#define EXPORT_PAGE_KIND	0x0b

#define MSG_NOT_FOUND		"Export job not found"

static const char *const system_fields[] = {
	"marketoGUID", "createdAt", "updatedAt",
};

/* The job's JSON (ExportResponse): unset members are left out. */
static struct json_object *
job_json(const struct export_job *j)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "exportId",
	    json_object_new_string(j->export_id));
	json_object_object_add(o, "format",
	    json_object_new_string(export_format_name(j->format)));
	json_object_object_add(o, "status",
	    json_object_new_string(export_status_name(j->status)));
	json_object_object_add(o, "createdAt",
	    api_common_db_time_json(j->created_at));
	if (j->queued_at[0] != '\0')
		json_object_object_add(o, "queuedAt",
		    api_common_db_time_json(j->queued_at));
	if (j->started_at[0] != '\0')
		json_object_object_add(o, "startedAt",
		    api_common_db_time_json(j->started_at));
	if (j->finished_at[0] != '\0')
		json_object_object_add(o, "finishedAt",
		    api_common_db_time_json(j->finished_at));
	if (j->number_of_records >= 0)
		json_object_object_add(o, "numberOfRecords",
		    json_object_new_int64(j->number_of_records));
	if (j->file_size >= 0)
		json_object_object_add(o, "fileSize",
		    json_object_new_int64(j->file_size));
	if (j->file_checksum[0] != '\0')
		json_object_object_add(o, "fileChecksum",
		    json_object_new_string(j->file_checksum));
	if (j->error_msg[0] != '\0')
		json_object_object_add(o, "errorMsg",
		    json_object_new_string(j->error_msg));
	return o;
}

/*
 * The export id of the path, lowercased into id; false when it cannot be
 * a job id (then no job has it).
 */
static bool
path_export_id(const struct call *c, char id[EXPORT_ID_LEN + 1])
{
	const char *p = c->req->npath_params > 1 ? c->req->path_params[1] :
	    NULL;
	size_t i;

	id[0] = '\0';
	if (p != NULL && strlen(p) == EXPORT_ID_LEN) {
		for (i = 0; i < EXPORT_ID_LEN; i++)
			id[i] = (char)tolower((unsigned char)p[i]);
		id[EXPORT_ID_LEN] = '\0';
	}
	return export_id_valid(id);
}

static const char *
path_object(const struct call *c)
{
	return c->req->npath_params > 0 ? c->req->path_params[0] : "";
}

/* Reads the caller's job of the path into *job. */
static int
path_job(struct call *c, struct resp *r, struct export_job *job)
{
	char id[EXPORT_ID_LEN + 1];
	int e = -REPO_ERR_NOT_FOUND;

	memset(job, 0, sizeof(*job));
	if (path_export_id(c, id))
		e = repo_bulk_export_get(c->app->db, id, c->client->id,
		    path_object(c), job);
	if (e == -REPO_ERR_NOT_FOUND) {
		r->err_msg = MSG_NOT_FOUND;
		e = -API_ERR_INVALID_REQUEST;
	} else
		e = err_from_repo(e);
	return e;
}

/* Answers the job as the one result. */
static int
answer_job(struct resp *r, const struct export_job *job)
{
	resp_add(r, job_json(job));
	return 0;
}

/*
 * 1029 once today's files reach the quota, worded as a real instance
 * words it, with the quota in megabytes: "Export daily quota 500MB
 * exceeded." (the documentation's table says "Export daily quota
 * exceeded").
 */
static int
check_quota(struct call *c, struct resp *r)
{
	int64_t quota = (int64_t)c->app->cfg->export_daily_quota_mb *
	    1024 * 1024, used = 0;
	int err = 0;

	if (quota == 0)
		goto out;
	if ((err = err_from_repo(repo_bulk_export_day_bytes(c->app->db,
	    limiter_day_key((int64_t)time(NULL)), &used))) != 0)
		goto out;
	if (used >= quota) {
		api_common_err_msg(c, r, "Export daily quota %dMB exceeded.",
		    c->app->cfg->export_daily_quota_mb);
		err = -API_ERR_EXPORT_LIMIT;
	}
out:
	return err;
}

/* ---- Create ---------------------------------------------------------- */

/* What a create request asks for, checked. */
struct create_req {
	enum export_format	 format;
	const char		*fields[EXPORT_MAX_FIELDS];
	const char		*headers[EXPORT_MAX_FIELDS];
	size_t			 nfields;
	enum export_filter	 filter;
	const char		*start;		/* "YYYY-MM-DD HH:MM:SS" UTC */
	const char		*end;
	int32_t			 list_id;
	const char		*link_field;
};

/* The canonical name of field name of t (no case), or NULL. */
static const char *
field_name(const struct co_type *t, const char *name)
{
	const struct co_field *f;
	size_t i;

	for (i = 0; i < sizeof(system_fields) / sizeof(system_fields[0]); i++)
		if (strcasecmp(system_fields[i], name) == 0)
			return system_fields[i];
	f = co_type_field(t, name);
	return f != NULL ? f->name : NULL;
}

static int
parse_fields(struct call *c, struct resp *r, const struct co_type *t,
    struct json_object *v, struct create_req *q)
{
	struct json_object *it;
	const char *name, *canon;
	char *unknown = NULL;
	size_t i, j, n = 0;
	int err = -API_ERR_INVALID_REQUEST;

	if (v == NULL || !json_object_is_type(v, json_type_array) ||
	    (n = json_object_array_length(v)) == 0) {
		r->err_msg = "fields must be a non-empty array of field names";
		goto out;
	}
	if (n > EXPORT_MAX_FIELDS) {
		api_common_err_msg(c, r, "Too many fields (at most %d)",
		    EXPORT_MAX_FIELDS);
		goto out;
	}
	for (i = 0; i < n; i++) {
		it = json_object_array_get_idx(v, i);
		if (!json_object_is_type(it, json_type_string)) {
			err = api_common_invalid(c, r,
			    json_object_to_json_string_ext(it,
			    JSON_C_TO_STRING_PLAIN), "string");
			goto out;
		}
		name = json_object_get_string(it);
		if ((canon = field_name(t, name)) == NULL) {
			unknown = arena_printf(&c->app->arena, "%s%s%s",
			    unknown != NULL ? unknown : "",
			    unknown != NULL ? ", " : "", api_common_echo(c, name));
			if (unknown == NULL) {
				err = -API_ERR_SYSTEM;
				goto out;
			}
			continue;
		}
		for (j = 0; j < q->nfields && q->fields[j] != canon; j++)
			continue;
		if (j < q->nfields) {
			api_common_err_msg(c, r, "Field '%s' is listed twice", canon);
			goto out;
		}
		q->fields[q->nfields] = canon;
		q->headers[q->nfields] = canon;
		q->nfields++;
	}
	if (unknown != NULL) {
		api_common_err_msg(c, r, "Invalid fields [%s]", unknown);
		goto out;
	}
	err = 0;
out:
	return err;
}

static int
parse_headers(struct call *c, struct resp *r, const struct co_type *t,
    struct json_object *v, struct create_req *q)
{
	const char *canon, *h;
	size_t i;
	int err = -API_ERR_INVALID_REQUEST;

	if (v == NULL || json_object_is_type(v, json_type_null)) {
		err = 0;
		goto out;
	}
	if (!json_object_is_type(v, json_type_object)) {
		r->err_msg = "columnHeaderNames must be an object of field "
		    "names and header names";
		goto out;
	}
	json_object_object_foreach(v, key, val) {
		canon = field_name(t, key);
		for (i = 0; canon != NULL && i < q->nfields &&
		    q->fields[i] != canon; i++)
			continue;
		if (canon == NULL || i == q->nfields) {
			api_common_err_msg(c, r, "columnHeaderNames: '%s' is not one "
			    "of the fields", api_common_echo(c, key));
			goto out;
		}
		if (!json_object_is_type(val, json_type_string) ||
		    (h = json_object_get_string(val))[0] == '\0' ||
		    text_chars(h, strlen(h)) > EXPORT_MAX_HEADER_CHARS) {
			api_common_err_msg(c, r, "columnHeaderNames: the header of '%s' "
			    "must be a string of 1 to %d characters", canon,
			    EXPORT_MAX_HEADER_CHARS);
			goto out;
		}
		q->headers[i] = h;
	}
	err = 0;
out:
	return err;
}

/* Epoch seconds of "YYYY-MM-DD HH:MM:SS" (as lead_value_parse writes). */
static int64_t
epoch_of(const char *s)
{
	int64_t y = 0, mo = 0, d = 0, h = 0, mi = 0, se = 0;

	(void)num_parse_i64n(s, 4, 0, 9999, &y);
	(void)num_parse_i64n(s + 5, 2, 1, 12, &mo);
	(void)num_parse_i64n(s + 8, 2, 1, 31, &d);
	(void)num_parse_i64n(s + 11, 2, 0, 23, &h);
	(void)num_parse_i64n(s + 14, 2, 0, 59, &mi);
	(void)num_parse_i64n(s + 17, 2, 0, 59, &se);
	return time_days_from_civil(y, (int)mo, (int)d) * 86400 + h * 3600 +
	    mi * 60 + se;
}

/* One ISO-8601 end of the range, as UTC "YYYY-MM-DD HH:MM:SS". */
static int
parse_when(struct call *c, struct resp *r, struct json_object *range,
    const char *what, const char **out)
{
	struct lead_field lf;
	struct lead_value lv;
	struct json_object *v = NULL;
	int err = -API_ERR_INVALID_REQUEST;

	memset(&lf, 0, sizeof(lf));
	lf.name = (char *)(uintptr_t)what;
	lf.type = LF_DATETIME;
	if (!json_object_object_get_ex(range, what, &v) ||
	    json_object_is_type(v, json_type_null)) {
		api_common_err_msg(c, r, "filter updatedAt: %s is required", what);
		goto out;
	}
	if (!json_object_is_type(v, json_type_string) ||
	    lead_value_parse(&lf, v, &c->app->arena, &lv) != 0 ||
	    lv.kind != LV_STR || lv.len != 19) {
		api_common_err_msg(c, r, "filter updatedAt: %s '%s' is not an "
		    "ISO-8601 date and time", what, api_common_echo(c, lead_value_text(v,
		    &c->app->arena)));
		goto out;
	}
	*out = lv.s;
	err = 0;
out:
	return err;
}

static int
parse_updated_at(struct call *c, struct resp *r, struct json_object *v,
    struct create_req *q)
{
	int err = -API_ERR_INVALID_REQUEST;

	if (!json_object_is_type(v, json_type_object)) {
		r->err_msg = "filter updatedAt must be an object with startAt "
		    "and endAt";
		goto out;
	}
	json_object_object_foreach(v, key, val) {
		(void)val;
		if (strcmp(key, "startAt") != 0 && strcmp(key, "endAt") != 0) {
			api_common_err_msg(c, r, "filter updatedAt: unknown member "
			    "'%s'", api_common_echo(c, key));
			goto out;
		}
	}
	if ((err = parse_when(c, r, v, "startAt", &q->start)) != 0 ||
	    (err = parse_when(c, r, v, "endAt", &q->end)) != 0)
		goto out;
	err = -API_ERR_INVALID_REQUEST;
	if (epoch_of(q->end) < epoch_of(q->start)) {
		r->err_msg = "filter updatedAt: endAt is before startAt";
		goto out;
	}
	if (epoch_of(q->end) - epoch_of(q->start) >
	    (int64_t)EXPORT_MAX_RANGE_DAYS * 86400) {
		api_common_err_msg(c, r, "filter updatedAt: the range may span at most "
		    "%d days", EXPORT_MAX_RANGE_DAYS);
		goto out;
	}
	q->filter = EXPORT_FILTER_UPDATED_AT;
	err = 0;
out:
	return err;
}

/* The type's link field to leads, or NULL. */
static const char *
lead_link(const struct co_type *t)
{
	const char *name = NULL;
	size_t i;

	for (i = 0; i < t->nfields && name == NULL; i++)
		if (t->fields[i].is_link &&
		    t->fields[i].related_object != NULL &&
		    strcasecmp(t->fields[i].related_object, "lead") == 0)
			name = t->fields[i].name;
	return name;
}

static int
parse_static_list(struct call *c, struct resp *r, const struct co_type *t,
    const char *key, struct json_object *v, struct create_req *q)
{
	const char *name = NULL;
	int64_t id = 0;
	int e, err = -API_ERR_INVALID_REQUEST;

	if (strcmp(key, "staticListId") == 0) {
		if (!json_object_is_type(v, json_type_int) ||
		    (id = json_object_get_int64(v)) < 1 || id > INT32_MAX) {
			err = api_common_invalid(c, r,
			    json_object_to_json_string_ext(v,
			    JSON_C_TO_STRING_PLAIN), "integer");
			goto out;
		}
	} else if (!json_object_is_type(v, json_type_string) ||
	    (name = json_object_get_string(v))[0] == '\0' ||
	    strlen(name) > MAX_OBJECT_NAME_BYTES) {
		r->err_msg = "filter staticListName must be a list name";
		goto out;
	}
	if ((q->link_field = lead_link(t)) == NULL) {
		api_common_err_msg(c, r, "Custom object type '%s' has no link field to "
		    "leads; filter it by updatedAt", t->api_name);
		goto out;
	}
	e = repo_lists_find(c->app->db, (int32_t)id, name,
	    &q->list_id);
	if (e == -REPO_ERR_NOT_FOUND) {
		if (name != NULL)
			api_common_err_msg(c, r, "Static list '%s' not found", api_common_echo(c, name));
		else
			api_common_err_msg(c, r, "Static list %lld not found",
			    (long long)id);
		goto out;
	}
	if ((err = err_from_repo(e)) != 0)
		goto out;
	q->filter = EXPORT_FILTER_STATIC_LIST;
	err = 0;
out:
	return err;
}

static int
parse_filter(struct call *c, struct resp *r, const struct co_type *t,
    struct json_object *v, struct create_req *q)
{
	int err = -API_ERR_INVALID_REQUEST;

	if (v == NULL || !json_object_is_type(v, json_type_object) ||
	    json_object_object_length(v) != 1) {
		r->err_msg = "filter must have exactly one of updatedAt, "
		    "staticListId and staticListName";
		goto out;
	}
	/* The one member. */
	json_object_object_foreach(v, key, val) {
		if (strcmp(key, "updatedAt") == 0)
			err = parse_updated_at(c, r, val, q);
		else if (strcmp(key, "staticListId") == 0 ||
		    strcmp(key, "staticListName") == 0)
			err = parse_static_list(c, r, t, key, val, q);
		else if (strcmp(key, "smartListId") == 0 ||
		    strcmp(key, "smartListName") == 0)
			err = -API_ERR_FILTER_UNSUPPORTED;
		else
			api_common_err_msg(c, r, "Unsupported filter '%s'", api_common_echo(c, key));
	}
out:
	return err;
}

static int
parse_format(struct call *c, struct resp *r, struct json_object *v,
    struct create_req *q)
{
	int err = 0;

	q->format = EXPORT_CSV;
	if (v != NULL && !json_object_is_type(v, json_type_null) &&
	    (!json_object_is_type(v, json_type_string) ||
	    export_format_parse(json_object_get_string(v), &q->format) != 0)) {
		api_common_err_msg(c, r, "Invalid format '%s': use CSV, TSV or SSV",
		    api_common_echo(c, json_object_is_type(v, json_type_string) ?
		    json_object_get_string(v) : json_object_to_json_string_ext(
		    v, JSON_C_TO_STRING_PLAIN)));
		err = -API_ERR_INVALID_REQUEST;
	}
	return err;
}

/* Member key of object o (borrowed), or NULL. */
static struct json_object *
member(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	(void)json_object_object_get_ex(o, key, &v);
	return v;
}

/* Checks the body of a create against type t into q. */
static int
parse_create(struct call *c, struct resp *r, const struct co_type *t,
    struct create_req *q)
{
	struct json_object *body = c->req->json;
	int err = -API_ERR_INVALID_REQUEST;

	memset(q, 0, sizeof(*q));
	if (body == NULL || !json_object_is_type(body, json_type_object)) {
		r->err_msg = "The request body must be a JSON object with "
		    "fields and filter";
		goto out;
	}
	json_object_object_foreach(body, key, val) {
		(void)val;
		if (strcmp(key, "fields") != 0 && strcmp(key, "format") != 0 &&
		    strcmp(key, "columnHeaderNames") != 0 &&
		    strcmp(key, "filter") != 0) {
			api_common_err_msg(c, r, "Unknown member '%s'", api_common_echo(c, key));
			goto out;
		}
	}
	if ((err = parse_fields(c, r, t, member(body, "fields"), q)) != 0 ||
	    (err = parse_headers(c, r, t, member(body, "columnHeaderNames"),
	    q)) != 0 ||
	    (err = parse_format(c, r, member(body, "format"), q)) != 0 ||
	    (err = parse_filter(c, r, t, member(body, "filter"), q)) != 0)
		goto out;
	err = 0;
out:
	return err;
}

/* A JSON array of n strings, serialised into the arena. */
static const char *
json_list(struct call *c, const char *const *v, size_t n)
{
	struct json_object *a = json_object_new_array();
	const char *s;
	size_t i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_string(v[i]));
	s = arena_strdup(&c->app->arena, json_object_to_json_string_ext(a,
	    JSON_C_TO_STRING_PLAIN));
	json_object_put(a);
	return s;
}

/* See api.h. */
int
api_bulk_export_create(struct call *c, struct resp *r)
{
	struct co_type t;
	struct create_req q;
	struct export_new n;
	struct export_job job;
	int e, err;

	memset(&t, 0, sizeof(t));
	memset(&n, 0, sizeof(n));
	e = repo_co_types_get(c->app->db, path_object(c), true, &t);
	if (e == -REPO_ERR_NOT_FOUND) {
		api_common_err_msg(c, r, "Custom object type '%s' not found",
		    api_common_echo(c, path_object(c)));
		err = -API_ERR_INVALID_REQUEST;
		goto out;
	}
	if ((err = err_from_repo(e)) != 0 ||
	    (err = parse_create(c, r, &t, &q)) != 0 ||
	    (err = check_quota(c, r)) != 0)
		goto out;
	co_guid_new(n.export_id);
	n.client_ref = c->client->id;
	n.object_name = t.api_name;
	n.format = q.format;
	n.fields = json_list(c, q.fields, q.nfields);
	n.headers = json_list(c, q.headers, q.nfields);
	n.filter = q.filter;
	n.start = q.start;
	n.end = q.end;
	n.list_id = q.list_id;
	n.link_field = q.link_field;
	if (n.fields == NULL || n.headers == NULL) {
		err = -API_ERR_SYSTEM;
		goto out;
	}
	if ((err = err_from_repo(repo_bulk_export_insert(c->app->db,
	    &n))) != 0 ||
	    (err = err_from_repo(repo_bulk_export_get(c->app->db,
	    n.export_id, c->client->id, t.api_name, &job))) != 0)
		goto out;
	err = answer_job(r, &job);
out:
	co_type_clear(&t);
	return err;
}

/* ---- Enqueue, status, cancel ------------------------------------------ */

/* See api.h. */
int
api_bulk_export_enqueue(struct call *c, struct resp *r)
{
	struct export_job job;
	enum export_refusal why = EXPORT_REFUSED_NONE;
	int e, err;

	if ((err = path_job(c, r, &job)) != 0)
		goto out;
	if (job.status != EXPORT_CREATED) {
		r->err_msg = "Job already queued";
		err = -API_ERR_EXPORT_LIMIT;
		goto out;
	}
	if ((err = check_quota(c, r)) != 0)
		goto out;
	e = repo_bulk_export_enqueue(c->app->db, job.export_id, c->client->id,
	    job.object_name, EXPORT_MAX_QUEUED, &why);
	if (e == -REPO_ERR_CONFLICT) {
		r->err_msg = why == EXPORT_REFUSED_QUEUE_FULL ?
		    "Too many jobs in queue" : "Job already queued";
		err = -API_ERR_EXPORT_LIMIT;
		goto out;
	}
	if (e == -REPO_ERR_NOT_FOUND) {
		r->err_msg = MSG_NOT_FOUND;
		err = -API_ERR_INVALID_REQUEST;
		goto out;
	}
	if ((err = err_from_repo(e)) != 0 ||
	    (err = path_job(c, r, &job)) != 0)
		goto out;
	err = answer_job(r, &job);
out:
	return err;
}

/* See api.h. */
int
api_bulk_export_status(struct call *c, struct resp *r)
{
	struct export_job job;
	int err;

	if ((err = path_job(c, r, &job)) == 0)
		err = answer_job(r, &job);
	return err;
}

/* See api.h. */
int
api_bulk_export_cancel(struct call *c, struct resp *r)
{
	struct export_job job;
	int e, err;

	if ((err = path_job(c, r, &job)) != 0)
		goto out;
	e = repo_bulk_export_cancel(c->app->db, job.export_id, c->client->id,
	    job.object_name);
	/* Re-read: the job as it is now, or why it cannot be cancelled. */
	if ((err = path_job(c, r, &job)) != 0)
		goto out;
	if (e == -REPO_ERR_CONFLICT) {
		api_common_err_msg(c, r, "Export job is %s; only Created, Queued or "
		    "Processing jobs can be cancelled",
		    export_status_name(job.status));
		err = -API_ERR_INVALID_REQUEST;
		goto out;
	}
	if ((err = err_from_repo(e)) != 0)
		goto out;
	err = answer_job(r, &job);
out:
	return err;
}

/* ---- Get Export Jobs -------------------------------------------------- */

/*
 * The status filter as a comma-separated list of status names, each once
 * ("" for none), into *out (arena).
 */
static int
parse_statuses(struct call *c, struct resp *r, const char **out)
{
	const char **items = NULL;
	bool want[EXPORT_STATUS__MAX] = { false };
	enum export_status s;
	char list[128];
	size_t len = 0;
	int n, i, err;

	*out = "";
	if ((err = n = req_param_list(c->req, "status", &items)) < 0)
		goto out;
	err = -API_ERR_INVALID_REQUEST;
	for (i = 0; i < n; i++) {
		if (export_status_parse(items[i], true, &s) != 0) {
			api_common_err_msg(c, r, "Invalid status '%s'", api_common_echo(c, items[i]));
			goto out;
		}
		want[s] = true;
	}
	list[0] = '\0';
	for (i = 0; i < EXPORT_STATUS__MAX; i++)
		if (want[i])
			len += (size_t)snprintf(list + len, sizeof(list) - len,
			    "%s%s", len > 0 ? "," : "",
			    export_status_name((enum export_status)i));
	err = (*out = arena_strdup(&c->app->arena, list)) == NULL ?
	    -API_ERR_SYSTEM : 0;
out:
	return err;
}

/* The paging token signature of this caller's query. */
static uint32_t
list_sig(const struct call *c, const char *statuses)
{
	char who[32], obj[CO_NAME_MAX + 1];
	const char *o = path_object(c);
	uint32_t sig = PAGE_TOKEN_SIG_INIT;
	size_t i;
	int n;

	for (i = 0; o[i] != '\0' && i < CO_NAME_MAX; i++)
		obj[i] = (char)tolower((unsigned char)o[i]);
	obj[i] = '\0';
	n = snprintf(who, sizeof(who), "%lld", (long long)c->client->id);
	sig = page_token_sig(sig, who, (size_t)n);
	sig = page_token_sig(sig, obj, i);
	return page_token_sig(sig, statuses, strlen(statuses));
}

/* See api.h. */
int
api_bulk_export_list(struct call *c, struct resp *r)
{
	static const struct vparam list_params[] = {
		{ .name = "batchSize", .type = VP_INT, .min = INT64_MIN },
		{ .name = "nextPageToken", .type = VP_STR },
	};
	struct vvalue pv[2];
	struct export_job *jobs = NULL;
	const char *statuses;
	char *tok;
	int64_t batch = MAX_BATCH_SIZE, after = 0;
	uint32_t sig;
	size_t i, n = 0;
	int err;

	if ((err = parse_statuses(c, r, &statuses)) != 0)
		goto out;
	if ((err = VALIDATE(c->req, r, list_params, pv)) != 0)
		goto out;
	/* batchSize is clamped to 1..MAX_BATCH_SIZE. */
	if (pv[0].present)
		batch = pv[0].i < 1 ? 1 : pv[0].i > MAX_BATCH_SIZE ?
		    MAX_BATCH_SIZE : pv[0].i;
	sig = list_sig(c, statuses);
	if (pv[1].present && page_token_decode(pv[1].s, EXPORT_PAGE_KIND, sig,
	    &after) != 0) {
		r->err_msg = "Invalid nextPageToken";
		err = -API_ERR_INVALID_REQUEST;
		goto out;
	}
	/* One more than asked for says whether there is more. */
	if ((err = err_from_repo(repo_bulk_export_list(c->app->db,
	    c->client->id, path_object(c), statuses, after,
	    (size_t)batch + 1, &jobs, &n))) != 0)
		goto out;
	for (i = 0; i < n && i < (size_t)batch; i++)
		resp_add(r, job_json(&jobs[i]));
	if (r->result == NULL)
		r->result = json_object_new_array();
	r->more_result = n > (size_t)batch;
	if (r->more_result) {
		if ((tok = arena_alloc(&c->app->arena,
		    PAGE_TOKEN_BYTES)) == NULL) {
			err = -API_ERR_SYSTEM;
			goto out;
		}
		page_token_encode(EXPORT_PAGE_KIND, sig, jobs[batch - 1].id,
		    tok);
		r->next_page_token = tok;
	}
	err = 0;
out:
	repo_bulk_export_jobs_free(jobs, n);
	return err;
}

/* ---- Get Export File -------------------------------------------------- */

#define TEXT_PLAIN	"text/plain;charset=UTF-8"

/* Adds a header line made in the arena (dropped if the arena is full). */
static void
header(struct resp *r, const char *line)
{
	if (line != NULL)
		resp_header(r, line);
}

/* The plain-text 404 of a file that cannot be had (docs/behaviour.md §3.1). */
static int
not_found(struct resp *r, const char *text)
{
	resp_text(r, 404, TEXT_PLAIN, text);
	return 0;
}

/* See api.h. */
int
api_bulk_export_file(struct call *c, struct resp *r)
{
	struct export_job job;
	struct stat sb;
	char path[4096], *text;
	int64_t off, len;
	enum range_result rr;
	int fd = -1, err;

	if ((err = path_job(c, r, &job)) != 0) {
		if (err == -API_ERR_INVALID_REQUEST) {
			r->err_msg = NULL;
			err = not_found(r, MSG_NOT_FOUND "\n");
		}
		goto out;
	}
	if (job.status != EXPORT_COMPLETED) {
		text = arena_printf(&c->app->arena, "Export job %s is %s: its "
		    "file is not ready\n", job.export_id,
		    export_status_name(job.status));
		err = not_found(r, text != NULL ? text : MSG_NOT_FOUND "\n");
		goto out;
	}
	if (job.file_expired) {
		err = not_found(r, "The export file has expired\n");
		goto out;
	}
	if (export_file_path(path, sizeof(path), c->app->cfg->export_dir,
	    job.export_id, job.attempts, job.format) != 0 ||
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) == -1 ||
	    fstat(fd, &sb) == -1 || sb.st_size != job.file_size) {
		log_err("%s: export file %s: %s", c->request_id, path,
		    fd == -1 ? strerror(errno) : "size differs from the job's");
		err = not_found(r, "The export file is missing\n");
		goto out;
	}
	resp_header(r, "Accept-Ranges: bytes");
	rr = range_parse(c->req->range, (int64_t)sb.st_size, &off, &len);
	if (rr == RANGE_UNSATISFIABLE) {
		header(r, arena_printf(&c->app->arena,
		    "Content-Range: bytes */%lld", (long long)sb.st_size));
		resp_text(r, 416, TEXT_PLAIN, "Range not satisfiable\n");
		goto out;
	}
	if (rr == RANGE_OK)
		header(r, arena_printf(&c->app->arena,
		    "Content-Range: bytes %lld-%lld/%lld", (long long)off,
		    (long long)(off + len - 1), (long long)sb.st_size));
	/* The response owns the descriptor from here. */
	resp_file(r, rr == RANGE_OK ? 206 : 200,
	    export_format_ctype(job.format), fd, off, len);
	fd = -1;
	err = 0;
out:
	if (fd != -1)
		(void)close(fd);
	return err;
}
