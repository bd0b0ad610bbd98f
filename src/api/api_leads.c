/*
 * The lead store's core operations (docs/behaviour.md §5.2-§5.8): Get Lead
 * by Id, Get Leads by Filter Type, Get Leads by Program Id, Sync Leads,
 * Delete Leads, Push Lead to Marketo and Submit Form.
 *
 * Input is checked here, once, into typed values (model/leadfield.h);
 * repo_leads.c does the SQL.  Per-record problems skip that record with a
 * reason, in input order; a problem with the request as a whole is a
 * request-level error and nothing is written.
 *
 * Decisions where the service is not documented:
 *   - Get Leads by Program Id of an unknown program answers success with
 *     an empty result, as lead database queries do for "nothing found"
 *     (§2.4), not an error.
 *   - Push Lead with an unknown programName is request-level 1013
 *     "Program '<name>' not found"; an unknown programStatus is
 *     request-level 1025 "Program status '<name>' not found".
 *   - An unknown partitionName skips every record with 1008 "Access
 *     denied to partition '<name>'"; an empty one with 1009; updating a
 *     lead of another partition is 1010.
 *   - Read-only fields (createdAt, mktoName, ...) and leadPartitionId
 *     (use partitionName) in a record skip it with 1003; `id` is only
 *     accepted as the lookup field of updateOnly.
 *   - Paged reads write moreResult and nextPageToken only when there is a
 *     next page, as the recorded responses of the real service do.
 */
#include <stdarg.h>
#include <assert.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <json-c/json.h>

#include "api/api.h"
#include "api/api_common.h"
#include "api/api_leads_catalog.h"
#include "db/pool.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "http/validate.h"
#include "bounds.h"
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_forms.h"
#include "repo/repo_leads.h"
#include "repo/repo_lists.h"
#include "repo/repo_partitions.h"
#include "repo/repo_programs.h"
#include "util/arena.h"
#include "util/num.h"
#include "util/pagetoken.h"

/* Token kinds: a token of one read is refused by the other. */
#define TOKEN_KIND_FILTER	1
#define TOKEN_KIND_PROGRAM	2
#define TOKEN_KIND_LIST		3

/*
 * The body's "input": an array of 1..MAX_BATCH_RECORDS items.  Missing
 * or empty is 1003 "Leads not specified" (docs/behaviour.md §5.4).
 */
/* Characters a string member of a body may have (bounded by the body). */
#define MEMBER_CHARS	(MAX_PARAM_VALUE_BYTES / 4)

static const struct api_input input_rule = {
	.max = MAX_BATCH_RECORDS,
	.missing_err = -API_ERR_INVALID_REQUEST,
	.missing_msg = "Leads not specified",
	.max_err = -API_ERR_INVALID_REQUEST,
	.max_msg = "Too many leads: at most " API_STR(MAX_BATCH_RECORDS)
	    " per request",
};

/* Attributes of the "New Lead" activity, by where the lead came from. */
static const char *new_lead_attrs(struct call *c, const char *source,
		    const char *method);

/* The repository's actions are the API's keywords, in the same order. */
static_assert((int)LEAD_CREATE_OR_UPDATE == (int)ACT_CREATE_OR_UPDATE &&
    (int)LEAD_CREATE_ONLY == (int)ACT_CREATE_ONLY &&
    (int)LEAD_UPDATE_ONLY == (int)ACT_UPDATE_ONLY &&
    (int)LEAD_CREATE_DUPLICATE == (int)ACT_CREATE_DUPLICATE &&
    (int)LEAD_ACTION__MAX == (int)ACT__MAX, "lead actions");

/* ---- Shared pieces ------------------------------------------------- */

static bool
is_id_field(const struct lead_field *f)
{
	return f != NULL && strcasecmp(f->name, "id") == 0;
}

/*
 * The membership object.  Get Leads by Program Id (read) writes it as the
 * documentation's example does: the program's id, progressionStatus and
 * progressionStatusType (mauto's channels have no status types apart
 * from the names, and the example shows both alike), isExhausted,
 * acquiredBy, reachedSuccess, membershipDate, updatedAt.  Push Lead
 * writes the swagger's ProgramMembership, with null stream and cadence.
 */
static struct json_object *
membership_json(const struct lead_membership *m, bool read)
{
	struct json_object *o = json_object_new_object();

	if (read)
		json_object_object_add(o, "id",
		    json_object_new_int64(m->program_id));
	json_object_object_add(o, "progressionStatus", m->status != NULL ?
	    json_object_new_string(m->status) : NULL);
	if (read) {
		json_object_object_add(o, "progressionStatusType",
		    m->status != NULL ? json_object_new_string(m->status) :
		    NULL);
		json_object_object_add(o, "isExhausted",
		    json_object_new_boolean(m->is_exhausted));
	}
	json_object_object_add(o, "acquiredBy",
	    json_object_new_boolean(m->acquired_by));
	json_object_object_add(o, "reachedSuccess",
	    json_object_new_boolean(m->reached_success));
	json_object_object_add(o, "membershipDate",
	    api_common_db_time_json(m->membership_date));
	if (read)
		json_object_object_add(o, "updatedAt",
		    api_common_db_time_json(m->updated_at));
	else
		json_object_object_add(o, "isExhausted",
		    json_object_new_boolean(m->is_exhausted));
	if (!read || m->stream != NULL)
		json_object_object_add(o, "stream", m->stream != NULL ?
		    json_object_new_string(m->stream) : NULL);
	if (!read || m->cadence != NULL)
		json_object_object_add(o, "nurtureCadence", m->cadence != NULL ?
		    json_object_new_string(m->cadence) : NULL);
	return o;
}

/*
 * One lead as the API writes it: id first, then the requested fields in
 * the order asked, null when empty (false for booleans), then the
 * membership of a program read.
 */
static struct json_object *
lead_json(const struct lead_row *row, const struct lead_field *const *cols,
    size_t ncols)
{
	struct json_object *o = json_object_new_object();
	size_t i;

	json_object_object_add(o, "id", json_object_new_int64(row->id));
	for (i = 0; i < ncols; i++) {
		if (is_id_field(cols[i]))
			continue;
		json_object_object_add(o, cols[i]->name,
		    lead_value_json(cols[i], row->vals[i], row->lens[i]));
	}
	if (row->m != NULL)
		json_object_object_add(o, "membership",
		    membership_json(row->m, true));
	return o;
}

/* The `fields` of a read (defaults when absent) and their catalogue. */
static int
read_fields(struct call *c, struct resp *r, const struct lead_schema **s,
    const struct lead_field ***cols, size_t *ncols)
{
	return api_leads_catalog_fields(c, r, s, lead_default_fields, cols, ncols);
}

static const struct vparam batch_params[] = {
	{ .name = "batchSize", .type = VP_INT, .min = 1,
	  .bad_err = -API_ERR_INVALID_REQUEST,
	  .bad_msg = "Invalid batchSize '%s': an integer from 1 to "
	      API_STR(MAX_BATCH_SIZE) },
};

/* batchSize: 1..MAX_BATCH_SIZE (larger is clamped), default the most. */
static int
batch_size(struct call *c, struct resp *r, int *out)
{
	struct vvalue v[1];
	int err;

	*out = MAX_BATCH_SIZE;
	if ((err = VALIDATE(c->req, r, batch_params, v)) != 0)
		return err;
	if (v[0].present && v[0].i < MAX_BATCH_SIZE)
		*out = (int)v[0].i;
	return 0;
}

/* The position of nextPageToken (0 without one). */
static int
page_after(struct call *c, struct resp *r, uint8_t kind, uint32_t sig,
    int64_t *after)
{
	const char *t = req_param(c->req, "nextPageToken");

	*after = 0;
	if (t == NULL || t[0] == '\0')
		return 0;
	if (page_token_decode(t, kind, sig, after) != 0) {
		api_common_err_msg(c, r, "Invalid nextPageToken");
		return -API_ERR_INVALID_REQUEST;
	}
	return 0;
}

/*
 * Adds a page of rows to r.  rows holds up to batch + 1 rows; the extra
 * one only says there is a next page, whose token is the last id shown.
 */
static int
page_out(struct call *c, struct resp *r, const struct lead_rows *rows,
    const struct lead_field *const *cols, size_t ncols, int batch,
    uint8_t kind, uint32_t sig)
{
	char tok[PAGE_TOKEN_BYTES];
	size_t i, shown = rows->count;

	if (shown > (size_t)batch)
		shown = (size_t)batch;
	for (i = 0; i < shown; i++)
		resp_add(r, lead_json(&rows->rows[i], cols, ncols));
	if (rows->count > (size_t)batch) {
		page_token_encode(kind, sig, rows->rows[shown - 1].id, tok);
		if ((r->next_page_token = arena_strdup(&c->app->arena,
		    tok)) == NULL)
			return -API_ERR_SYSTEM;
		r->more_result = 1;
	}
	return 0;
}

/* ---- Get Lead by Id (§5.2) ----------------------------------------- */

/*
 * GET /rest/v1/lead/{leadId}.json?fields=: the lead, or an empty result
 * when there is none.  Returns 0, -API_ERR_FIELD_NOT_FOUND (unknown
 * field) or another negative api_err.
 */
int
api_leads_get(struct call *c, struct resp *r)
{
	const struct lead_schema *s = NULL;
	const struct lead_field **cols = NULL;
	struct lead_rows rows;
	size_t ncols = 0, i;
	int e;

	if ((e = read_fields(c, r, &s, &cols, &ncols)) != 0)
		goto out;
	if ((e = repo_leads_get_by_id(c->app->db, &c->app->arena,
	    (const struct lead_field *const *)cols, ncols,
	    c->req->path_ints[0], &rows)) != 0) {
		e = err_from_repo(e);
		goto out;
	}
	for (i = 0; i < rows.count; i++)
		resp_add(r, lead_json(&rows.rows[i],
		    (const struct lead_field *const *)cols, ncols));
	e = 0;
out:
	return e;
}

/* ---- Get Leads by Filter Type (§5.3) ------------------------------- */

/*
 * The filterValues as typed values of field f (cookies: well-formed
 * cookies; integer fields: integers).  Returns 0 or a negative api_err
 * with r->err_msg set.
 */
static int
filter_values(struct call *c, struct resp *r, const struct lead_field *f,
    bool cookies, const char *const *items, size_t n,
    struct lead_value **out)
{
	struct lead_value *v;
	size_t i;

	if ((v = arena_zalloc(&c->app->arena, n * sizeof(*v))) == NULL)
		return -API_ERR_SYSTEM;
	for (i = 0; i < n; i++) {
		const char *s = items[i];

		if (cookies && !lead_cookie_is_valid(s, strlen(s))) {
			api_common_err_msg(c, r, "Invalid cookie value '%s'",
		    api_common_echo(c, s));
			return -API_ERR_INVALID_COOKIE;
		}
		if (f->type == LF_INTEGER || f->type == LF_SCORE ||
		    f->type == LF_REFERENCE) {
			if (num_parse_i64(s, INT64_MIN, INT64_MAX,
			    &v[i].i) != 0) {
				return api_common_invalid(c, r, s, "Integer");
			}
			v[i].kind = LV_INT;
		} else {
			v[i].kind = LV_STR;
			v[i].s = s;
			v[i].len = strlen(s);
		}
	}
	*out = v;
	return 0;
}

/*
 * GET /rest/v1/leads.json?filterType=&filterValues=&fields=&batchSize=
 * &nextPageToken= (also POST ?_method=GET with a form body).  Returns 0,
 * -API_ERR_FIELD_NOT_SUPPORTED (filterType not searchable),
 * -API_ERR_INVALID_REQUEST (missing or too many values, over
 * MAX_FILTER_MATCHES leads, bad token), -API_ERR_INVALID_COOKIE,
 * -API_ERR_INVALID_VALUE, -API_ERR_FIELD_NOT_FOUND or another negative
 * api_err.
 */
int
api_leads_list(struct call *c, struct resp *r)
{
	const struct lead_schema *s = NULL;
	const struct lead_field **cols = NULL, *f;
	const char *ft, **items = NULL;
	struct lead_filter flt;
	struct lead_rows rows;
	struct lead_value *vals = NULL;
	size_t ncols = 0, i;
	int64_t after, count;
	uint32_t sig;
	int n, batch, e;

	memset(&flt, 0, sizeof(flt));
	ft = req_param(c->req, "filterType");
	if (ft == NULL || ft[0] == '\0') {
		api_common_err_msg(c, r, "filterType not specified");
		e = -API_ERR_INVALID_REQUEST;
		goto out;
	}
	if ((n = req_param_list(c->req, "filterValues", &items)) < 0) {
		e = n;
		goto out;
	}
	if (n == 0) {
		api_common_err_msg(c, r, "filterValues not specified");
		e = -API_ERR_INVALID_REQUEST;
		goto out;
	}
	if (n > MAX_FILTER_VALUES) {
		api_common_err_msg(c, r, "Too many filterValues: at most %d",
		    MAX_FILTER_VALUES);
		e = -API_ERR_INVALID_REQUEST;
		goto out;
	}
	if ((e = api_leads_catalog_for(c, &ft, 1, &s)) != 0 ||
	    (e = read_fields(c, r, &s, &cols, &ncols)) != 0)
		goto out;
	/* Real instances' wording: "Lookup field 'x' not found|supported". */
	if ((f = lead_schema_find(s, ft)) == NULL || !f->searchable) {
		api_common_err_msg(c, r, "Lookup field '%s' not %s",
		    api_common_echo(c, ft), f == NULL ? "found" : "supported");
		e = f == NULL ? -API_ERR_FIELD_NOT_FOUND :
		    -API_ERR_FIELD_NOT_SUPPORTED;
		goto out;
	}
	flt.field = f;
	flt.cookies = strcasecmp(f->name, "cookies") == 0;
	if ((e = filter_values(c, r, f, flt.cookies, items, (size_t)n,
	    &vals)) != 0)
		goto out;
	flt.values = vals;
	flt.nvalues = (size_t)n;
	if ((e = batch_size(c, r, &batch)) != 0)
		goto out;
	sig = page_token_sig(PAGE_TOKEN_SIG_INIT, f->name, strlen(f->name));
	for (i = 0; i < (size_t)n; i++)
		sig = page_token_sig(sig, items[i], strlen(items[i]));
	if ((e = page_after(c, r, TOKEN_KIND_FILTER, sig, &after)) != 0)
		goto out;
	if ((e = repo_leads_list_by_filter(c->app->db, &c->app->arena,
	    (const struct lead_field *const *)cols, ncols, &flt, after,
	    batch + 1, &rows)) != 0) {
		e = err_from_repo(e);
		goto out;
	}
	/*
	 * The cap is checked on the first page only (§5.3), and only when
	 * that page is not the last: a last first page holds every match,
	 * at most MAX_BATCH_SIZE of them, so the usual lookup of one value
	 * costs one statement.
	 */
	if (after == 0 && rows.count > (size_t)batch) {
		if ((e = repo_leads_count_by_filter(c->app->db, &flt,
		    MAX_FILTER_MATCHES + 1, &count)) != 0) {
			e = err_from_repo(e);
			goto out;
		}
		if (count > MAX_FILTER_MATCHES) {
			api_common_err_msg(c, r,
			    "Too many results match the filter");
			e = -API_ERR_INVALID_REQUEST;
			goto out;
		}
	}
	e = page_out(c, r, &rows, (const struct lead_field *const *)cols,
	    ncols, batch, TOKEN_KIND_FILTER, sig);
out:
	return e;
}

/* ---- Get Leads by Program Id (§5.13), by List Id ------------------ */

/*
 * The members of a program (list false) or of a static list (list true),
 * path_ints[0] its id, a page of them with the fields asked for.
 */
static int
members_read(struct call *c, struct resp *r, bool list)
{
	const struct lead_schema *s = NULL;
	const struct lead_field **cols = NULL;
	struct lead_rows rows;
	char idtext[32];
	size_t ncols = 0;
	int64_t id = c->req->path_ints[0], after;
	uint8_t kind = list ? TOKEN_KIND_LIST : TOKEN_KIND_PROGRAM;
	int32_t found;
	uint32_t sig;
	int batch, e;

	if ((e = read_fields(c, r, &s, &cols, &ncols)) != 0 ||
	    (e = batch_size(c, r, &batch)) != 0)
		return e;
	snprintf(idtext, sizeof(idtext), "%lld", (long long)id);
	sig = page_token_sig(PAGE_TOKEN_SIG_INIT, idtext, strlen(idtext));
	if ((e = page_after(c, r, kind, sig, &after)) != 0)
		return e;
	if (list) {
		e = id > INT32_MAX ? -REPO_ERR_NOT_FOUND :
		    repo_lists_find(c->app->db, (int32_t)id, NULL, &found);
		if (e == -REPO_ERR_NOT_FOUND)
			return api_common_fail(c, r,
			    -API_ERR_OBJECT_NOT_FOUND,
			    "Static list not found");
		if (e == 0)
			e = repo_leads_list_by_list(c->app->db,
			    &c->app->arena,
			    (const struct lead_field *const *)cols, ncols, id,
			    after, batch + 1, &rows);
	} else
		e = repo_leads_list_by_program(c->app->db, &c->app->arena,
		    (const struct lead_field *const *)cols, ncols, id, after,
		    batch + 1, &rows);
	if (e != 0)
		return err_from_repo(e);
	return page_out(c, r, &rows, (const struct lead_field *const *)cols,
	    ncols, batch, kind, sig);
}

/*
 * GET /rest/v1/leads/programs/{programId}.json?fields=&batchSize=
 * &nextPageToken=: the members with their membership.  An unknown program
 * has none.  Returns 0, -API_ERR_FIELD_NOT_FOUND, -API_ERR_INVALID_REQUEST
 * (bad token) or another negative api_err.
 */
int
api_leads_list_by_program(struct call *c, struct resp *r)
{
	return members_read(c, r, false);
}

/*
 * GET /rest/v1/lists/{listId}/leads.json and the older
 * /rest/v1/list/{listId}/leads.json, ?fields=&batchSize=&nextPageToken=:
 * the members of a static list, by lead id.  Returns 0, 1013 "Static
 * list not found", -API_ERR_FIELD_NOT_FOUND, -API_ERR_INVALID_REQUEST
 * (bad batchSize or token) or another negative api_err.
 */
int
api_leads_list_by_list(struct call *c, struct resp *r)
{
	return members_read(c, r, true);
}

/* ---- Records of the writes ---------------------------------------- */

/* How records of one request are checked. */
struct rec_rules {
	enum lead_action	 action;
	const struct lead_field	*lookup;
	const struct repo_form	*form;		/* Submit Form: its fields */
	/* Fields with rules of their own, from the catalogue in use. */
	const struct lead_field	*id_field;
	const struct lead_field	*part_field;
};

static void
refuse(struct call *c, struct lead_rec *rec, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Marks rec skipped with code and a printf message. */
static void
refuse(struct call *c, struct lead_rec *rec, int code, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rec->skip = true;
	rec->status = LEAD_SKIPPED;
	rec->code = code;
	if ((rec->msg = arena_strdup(&c->app->arena, msg)) == NULL)
		rec->msg = "Invalid data";
}

/* Whether the form carries the field (email may always be given). */
static bool
on_form(const struct repo_form *form, const struct lead_field *f)
{
	size_t i;

	if (strcasecmp(f->name, "email") == 0)
		return true;
	for (i = 0; i < form->nfields; i++)
		if (strcasecmp(form->fields[i], f->name) == 0)
			return true;
	return false;
}

/*
 * Checks one input record into rec: every field known (1006), on the
 * form for Submit Form (1006), writable (1003), its value valid for its
 * type (1003), and the lookup field present (1002).  A refused record
 * has rec->skip set.  Returns 0, or -API_ERR_SYSTEM when memory ran out.
 */
static int
check_record(struct call *c, const struct lead_schema *s,
    struct json_object *o, const struct rec_rules *ru, struct lead_rec *rec)
{
	struct arena *a = &c->app->arena;
	const struct lead_field *f;
	struct lead_value v, *key;
	size_t cap, j;
	bool id_lookup = ru->lookup == ru->id_field;

	memset(rec, 0, sizeof(*rec));
	if (o == NULL || !json_object_is_type(o, json_type_object)) {
		refuse(c, rec, 1003, "Invalid lead record: a JSON object is "
		    "required");
		return 0;
	}
	cap = (size_t)json_object_object_length(o);
	if ((rec->cols = arena_zalloc(a, (cap + 1) * sizeof(*rec->cols))) ==
	    NULL)
		return -API_ERR_SYSTEM;
	json_object_object_foreach(o, name, val) {
		if ((f = lead_schema_find(s, name)) == NULL) {
			refuse(c, rec, 1006, "Field '%s' not found", name);
			return 0;
		}
		if (ru->form != NULL && !on_form(ru->form, f)) {
			refuse(c, rec, 1006, "Field '%s' not found on form "
			    "'%s'", f->name, ru->form->name);
			return 0;
		}
		if (f == ru->id_field && !(id_lookup &&
		    ru->action == LEAD_UPDATE_ONLY)) {
			refuse(c, rec, 1003, "Field '%s' can only be given as "
			    "the lookupField of action updateOnly", f->name);
			return 0;
		}
		if (f->read_only && f != ru->id_field) {
			refuse(c, rec, 1003, "Field '%s' is read-only",
			    f->name);
			return 0;
		}
		if (f == ru->part_field) {
			refuse(c, rec, 1003, "Field '%s' cannot be set: use "
			    "partitionName", f->name);
			return 0;
		}
		if (lead_value_parse(f, val, a, &v) != 0) {
			refuse(c, rec, 1003, "Invalid value for field '%s' and "
			    "value '%s'", f->name, lead_value_text(val, a));
			return 0;
		}
		/* "email" and "Email" name one field: the later one wins. */
		for (j = 0; j < rec->ncols; j++)
			if (rec->cols[j].f == f)
				break;
		rec->cols[j].f = f;
		rec->cols[j].v = v;
		if (j == rec->ncols)
			rec->ncols++;
	}
	for (j = 0; j < rec->ncols; j++)
		if (rec->cols[j].f == ru->lookup &&
		    rec->cols[j].v.kind != LV_NULL)
			break;
	if (j == rec->ncols) {
		if (ru->action != LEAD_CREATE_DUPLICATE)
			refuse(c, rec, 1002, "Missing value for the required "
			    "parameter '%s'", ru->lookup->name);
		return 0;
	}
	if (!id_lookup) {
		rec->key = &rec->cols[j].v;
		return 0;
	}
	/* An id names the lead to update; it is not a column to write. */
	if ((key = arena_alloc(a, sizeof(*key))) == NULL)
		return -API_ERR_SYSTEM;
	*key = rec->cols[j].v;
	rec->key = key;
	rec->cols[j] = rec->cols[--rec->ncols];
	return 0;
}

/*
 * An optional string member of o (NULL when absent or null); another
 * JSON type is the request-level 1003 these operations answer.
 */
static int
member_str(struct call *c, struct resp *r, struct json_object *o,
    const char *name, const char **out)
{
	int e = api_common_member_str(c, r, o, name, MEMBER_CHARS, out);

	if (e == -API_ERR_INVALID_VALUE)
		return api_common_fail(c, r, -API_ERR_INVALID_REQUEST,
		    "Invalid value for '%s': a string is required", name);
	return e;
}

/* An optional integer member of o (a JSON integer or its text). */
static int
member_int(struct call *c, struct resp *r, struct json_object *o,
    const char *name, bool *given, int64_t *out)
{
	struct json_object *v = NULL;
	int64_t n = 0;

	*given = false;
	*out = 0;
	if (o == NULL || !json_object_object_get_ex(o, name, &v) || v == NULL)
		return 0;
	if (json_object_is_type(v, json_type_int))
		n = json_object_get_int64(v);
	else if (!json_object_is_type(v, json_type_string) ||
	    num_parse_i64(json_object_get_string(v), INT64_MIN, INT64_MAX,
	    &n) != 0) {
		return api_common_invalid(c, r, json_object_get_string(v),
		    "Integer");
	}
	*given = true;
	*out = n;
	return 0;
}

/*
 * The lookup field: a searchable field (1011 otherwise), email by
 * default; `id` only for updateOnly (§5.4).
 */
static int
lookup_field(struct call *c, struct resp *r, const struct lead_schema *s,
    const char *name, enum lead_action action, const struct lead_field **f)
{
	if (name == NULL)
		name = "email";
	if ((*f = lead_schema_find(s, name)) == NULL || !(*f)->searchable) {
		api_common_err_msg(c, r, "Field '%s' not supported",
		    api_common_echo(c, name));
		return -API_ERR_FIELD_NOT_SUPPORTED;
	}
	if (is_id_field(*f) && action != LEAD_UPDATE_ONLY) {
		api_common_err_msg(c, r, "Field '%s' not supported as lookupField "
		    "of action %s", api_common_echo(c, name),
		    api_common_action_name((enum api_action)action));
		return -API_ERR_FIELD_NOT_SUPPORTED;
	}
	return 0;
}

/*
 * The partition named (0 when none is).  A name that is empty or unknown
 * is a reason every record is skipped for (*code, *msg), not an error of
 * the request.
 */
static int
partition_of(struct call *c, const char *name, int32_t *part, int *code,
    const char **msg)
{
	int e;

	*part = 0;
	*code = 0;
	*msg = NULL;
	if (name == NULL)
		return 0;
	if (name[0] == '\0') {
		*code = 1009;
		*msg = "Partition name must be specified";
		return 0;
	}
	e = repo_partitions_get_id_by_name(c->app->db, name, part);
	if (e == -REPO_ERR_NOT_FOUND) {
		*code = 1008;
		*msg = arena_printf(&c->app->arena,
		    "Access denied to partition '%s'", name);
		return *msg != NULL ? 0 : -API_ERR_SYSTEM;
	}
	return err_from_repo(e);
}

/* Checks every record; a partition problem skips the ones that pass. */
static int
check_records(struct call *c, const struct lead_schema *s,
    struct json_object *const *objs, size_t n, const struct rec_rules *ru,
    int part_code, const char *part_msg, struct lead_rec *recs, bool *miss)
{
	size_t i;
	int e;

	*miss = false;
	for (i = 0; i < n; i++) {
		if ((e = check_record(c, s, objs[i], ru, &recs[i])) != 0)
			return e;
		if (recs[i].skip && recs[i].code == 1006)
			*miss = true;
		if (!recs[i].skip && part_code != 0)
			refuse(c, &recs[i], part_code, "%s", part_msg);
	}
	return 0;
}

/*
 * Resolves the lookup field (lname, email by default) and checks every
 * record.  A name missing from the worker's catalogue may be a field
 * just created on another worker: the catalogue is then checked once
 * against the database and, when it changed, everything is checked again
 * (the old catalogue, and every pointer into it, is gone).  Returns 0
 * with *out (n records) and ru->lookup set, -API_ERR_FIELD_NOT_SUPPORTED
 * for a bad lookup field, or another negative api_err.
 */
static int
check_input(struct call *c, struct resp *r, const char *lname,
    struct rec_rules *ru, struct json_object *const *objs, size_t n,
    int part_code, const char *part_msg, struct lead_rec **out)
{
	const struct lead_schema *s = NULL;
	struct lead_rec *recs;
	int64_t version;
	bool miss = false;
	int attempt, e;

	*out = NULL;
	if (lname == NULL)
		lname = "email";
	if ((recs = arena_zalloc(&c->app->arena, (n + 1) * sizeof(*recs))) ==
	    NULL)
		return -API_ERR_SYSTEM;
	if ((e = api_leads_catalog_get(c, false, &s)) != 0)
		return e;
	for (attempt = 0; attempt < 2; attempt++) {
		ru->id_field = lead_schema_find(s, "id");
		ru->part_field = lead_schema_find(s, "leadPartitionId");
		ru->lookup = lead_schema_find(s, lname);
		if (ru->lookup != NULL && (e = check_records(c, s, objs, n, ru,
		    part_code, part_msg, recs, &miss)) != 0)
			return e;
		if ((ru->lookup != NULL && !miss) || attempt == 1)
			break;
		version = s->version;
		if ((e = api_leads_catalog_get(c, true, &s)) != 0)
			return e;
		if (s->version == version && ru->lookup != NULL)
			break;
	}
	if ((e = lookup_field(c, r, s, lname, ru->action, &ru->lookup)) != 0)
		return e;
	*out = recs;
	return 0;
}

/* The result of each record, in input order. */
static void
write_results(struct resp *r, const struct lead_rec *recs, size_t n,
    bool membership)
{
	struct json_object *o;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct lead_rec *rec = &recs[i];

		if (rec->status == LEAD_CREATED || rec->status ==
		    LEAD_UPDATED) {
			o = api_common_record("id", json_object_new_int64(rec->id), rec->status == LEAD_CREATED ?
			    "created" : "updated");
			if (membership && rec->has_m)
				json_object_object_add(o, "membership",
				    membership_json(&rec->m, false));
		} else
			o = api_common_skipped("id", api_common_id(rec->id), rec->code != 0 ?
			    rec->code : 1003, "%s", rec->msg != NULL ?
			    rec->msg : "Invalid data");
		resp_add(r, o);
	}
}

/* The array items as a C array (borrowed). */
static struct json_object **
items_of(struct call *c, struct json_object *arr, size_t n)
{
	struct json_object **o;
	size_t i;

	if ((o = arena_zalloc(&c->app->arena, (n + 1) * sizeof(*o))) == NULL)
		return NULL;
	for (i = 0; i < n; i++)
		o[i] = json_object_array_get_idx(arr, i);
	return o;
}

/* ---- Sync Leads (§5.4) --------------------------------------------- */

/*
 * POST /rest/v1/leads.json: creates or updates up to MAX_BATCH_RECORDS
 * leads; per-record results in input order.  Returns 0,
 * -API_ERR_INVALID_REQUEST (no input, too many, bad action),
 * -API_ERR_FIELD_NOT_SUPPORTED (lookupField) or another negative api_err.
 */
int
api_leads_sync(struct call *c, struct resp *r)
{
	struct json_object *input = NULL, **objs;
	struct lead_sync sy;
	struct rec_rules ru;
	const char *action = NULL, *lookup = NULL, *pname = NULL, *pmsg;
	enum api_action act;
	size_t n = 0;
	int pcode, e;

	memset(&sy, 0, sizeof(sy));
	memset(&ru, 0, sizeof(ru));
	if ((e = api_common_input(c, r, &input_rule, &input, &n)) != 0 ||
	    (e = member_str(c, r, c->req->json, "action", &action)) != 0 ||
	    (e = member_str(c, r, c->req->json, "lookupField", &lookup)) != 0 ||
	    (e = member_str(c, r, c->req->json, "partitionName", &pname)) != 0)
		goto out;
	sy.action = LEAD_CREATE_OR_UPDATE;
	if (action != NULL) {
		if (api_common_action_parse(action, true, &act) != 0) {
			api_common_err_msg(c, r, "Invalid action '%s'",
			    api_common_echo(c, action));
			e = -API_ERR_INVALID_REQUEST;
			goto out;
		}
		sy.action = (enum lead_action)act;
	}
	if ((objs = items_of(c, input, n)) == NULL) {
		e = -API_ERR_SYSTEM;
		goto out;
	}
	ru.action = sy.action;
	if ((e = partition_of(c, pname, &sy.partition, &pcode, &pmsg)) != 0 ||
	    (e = check_input(c, r, lookup, &ru, objs, n, pcode, pmsg,
	    &sy.recs)) != 0)
		goto out;
	sy.n = n;
	sy.lookup = ru.lookup;
	sy.new_lead_attrs = new_lead_attrs(c, "Web service API", "syncLead");
	sy.arena = &c->app->arena;
	if ((e = repo_leads_sync(c->app->db, &sy)) != 0) {
		e = err_from_repo(e);
		goto out;
	}
	write_results(r, sy.recs, n, false);
	e = 0;
out:
	return e;
}

/* ---- Push Lead (§5.7) ---------------------------------------------- */

/* A JSON object as text in the arena (the object is put). */
static const char *
json_text(struct call *c, struct json_object *o)
{
	const char *t;

	t = arena_strdup(&c->app->arena, json_object_to_json_string_ext(o,
	    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	return t;
}

static void
add_str(struct json_object *o, const char *key, const char *v)
{
	json_object_object_add(o, key, v != NULL ?
	    json_object_new_string(v) : NULL);
}

/*
 * New Lead's attributes (§B.1.2, §B.1.6): how the lead came (Source
 * Type), the API call that made it, the API user and the request id.
 */
static const char *
new_lead_attrs(struct call *c, const char *source, const char *method)
{
	struct json_object *o = json_object_new_object();

	add_str(o, "Source Type", source);
	add_str(o, "API Method Name", method);
	add_str(o, "Modifying User", c->client != NULL ? c->client->name :
	    NULL);
	add_str(o, "Request Id", c->request_id);
	return json_text(c, o);
}

/*
 * The status a lead pushed without programStatus gets as a new member:
 * the first of the progression that makes it a member, as a form fill
 * or a member import does in the product ("Not in Program", which every
 * channel starts with, means not a member).  Its index, or -1 when the
 * program has no statuses.
 */
static int
default_status(const struct repo_program *p)
{
	size_t i;

	for (i = 0; i < p->nstatuses; i++)
		if (strcasecmp(p->statuses[i].name, PROGRAM_NOT_MEMBER) != 0)
			return (int)i;
	return p->nstatuses > 0 ? 0 : -1;
}

/*
 * POST /rest/v1/leads/push.json: upserts the records (createOrUpdate),
 * makes each lead a member of the program, and records one "Push Lead
 * to Marketo" activity per lead.  Returns 0, -API_ERR_INVALID_REQUEST (no
 * programName or input), -API_ERR_OBJECT_NOT_FOUND (unknown program),
 * -API_ERR_STATUS_NOT_FOUND (unknown programStatus),
 * -API_ERR_FIELD_NOT_SUPPORTED or another negative api_err.
 */
int
api_leads_push(struct call *c, struct resp *r)
{
	struct json_object *body = c->req->json, *input = NULL, **objs, *at;
	struct repo_program prog;
	struct lead_push push;
	struct lead_sync sy;
	struct rec_rules ru;
	const char *pname = NULL, *pstatus = NULL, *source = NULL;
	const char *reason = NULL, *lookup = NULL, *part = NULL, *pmsg;
	size_t n = 0, i;
	int pcode, e;

	memset(&sy, 0, sizeof(sy));
	memset(&ru, 0, sizeof(ru));
	memset(&push, 0, sizeof(push));
	memset(&prog, 0, sizeof(prog));
	if ((e = member_str(c, r, body, "programName", &pname)) != 0)
		goto out;
	if (pname == NULL || pname[0] == '\0') {
		api_common_err_msg(c, r, "programName not specified");
		e = -API_ERR_INVALID_REQUEST;
		goto out;
	}
	if ((e = api_common_input(c, r, &input_rule, &input, &n)) != 0 ||
	    (e = member_str(c, r, body, "programStatus", &pstatus)) != 0 ||
	    (e = member_str(c, r, body, "source", &source)) != 0 ||
	    (e = member_str(c, r, body, "reason", &reason)) != 0 ||
	    (e = member_str(c, r, body, "lookupField", &lookup)) != 0 ||
	    (e = member_str(c, r, body, "partitionName", &part)) != 0)
		goto out;
	e = repo_programs_get_by_name(c->app->db, pname, &prog);
	if (e == -REPO_ERR_NOT_FOUND) {
		api_common_err_msg(c, r, "Program '%s' not found",
		    api_common_echo(c, pname));
		e = -API_ERR_OBJECT_NOT_FOUND;
		goto out;
	}
	if (e != 0) {
		e = err_from_repo(e);
		goto out;
	}
	push.program = &prog;
	push.status = default_status(&prog);
	if (pstatus != NULL) {
		for (i = 0; i < prog.nstatuses; i++)
			if (strcmp(prog.statuses[i].name, pstatus) == 0)
				break;
		if (i == prog.nstatuses) {
			api_common_err_msg(c, r, "Program status '%s' not found",
			    api_common_echo(c, pstatus));
			e = -API_ERR_STATUS_NOT_FOUND;
			goto out;
		}
		push.status = (int)i;
		push.status_given = true;
	}
	if ((objs = items_of(c, input, n)) == NULL) {
		e = -API_ERR_SYSTEM;
		goto out;
	}
	sy.action = LEAD_CREATE_OR_UPDATE;
	ru.action = sy.action;
	if ((e = partition_of(c, part, &sy.partition, &pcode, &pmsg)) != 0 ||
	    (e = check_input(c, r, lookup, &ru, objs, n, pcode, pmsg,
	    &sy.recs)) != 0)
		goto out;
	at = json_object_new_object();
	add_str(at, "Program Name", prog.name);
	add_str(at, "Program Status", push.status >= 0 ?
	    prog.statuses[push.status].name : NULL);
	add_str(at, "Source", source);
	add_str(at, "Reason", reason);
	if ((push.attrs = json_text(c, at)) == NULL) {
		e = -API_ERR_SYSTEM;
		goto out;
	}
	sy.n = n;
	sy.lookup = ru.lookup;
	sy.new_lead_attrs = new_lead_attrs(c, "Web service API", "pushLead");
	sy.push = &push;
	sy.arena = &c->app->arena;
	if ((e = repo_leads_sync(c->app->db, &sy)) != 0) {
		e = err_from_repo(e);
		goto out;
	}
	write_results(r, sy.recs, n, true);
	e = 0;
out:
	repo_programs_program_clear(&prog);
	return e;
}

/* ---- Submit Form (§5.8) -------------------------------------------- */

/* The visitorData members the activity keeps, and their names there. */
static const struct {
	const char	*in;
	const char	*attr;
} visitor_keys[] = {
	{ "pageURL", "Web Page" },
	{ "queryString", "Query Parameters" },
	{ "leadClientIpAddress", "Client IP Address" },
	{ "userAgentString", "User Agent" },
};

/*
 * The "Fill Out Form" attributes: the form, the fields as submitted, the
 * visitor data and the program.  NULL when visitorData is not an object
 * of strings (the record is then skipped).
 */
static const char *
form_attrs(struct call *c, const struct repo_form *form,
    struct json_object *fields, struct json_object *visitor, int64_t pid)
{
	struct json_object *at, *v = NULL;
	size_t i;

	if (visitor != NULL && !json_object_is_type(visitor,
	    json_type_object))
		return NULL;
	at = json_object_new_object();
	json_object_object_add(at, "Webform ID",
	    json_object_new_int64(form->id));
	add_str(at, "Webform Name", form->name);
	json_object_object_add(at, "Form Fields", json_object_get(fields));
	for (i = 0; i < sizeof(visitor_keys) / sizeof(visitor_keys[0]); i++) {
		v = NULL;
		if (visitor != NULL && json_object_object_get_ex(visitor,
		    visitor_keys[i].in, &v) && v != NULL &&
		    !json_object_is_type(v, json_type_string)) {
			json_object_put(at);
			return NULL;
		}
		add_str(at, visitor_keys[i].attr, v != NULL ?
		    json_object_get_string(v) : NULL);
	}
	json_object_object_add(at, "Program ID", pid != 0 ?
	    json_object_new_int64(pid) : NULL);
	return json_text(c, at);
}

/*
 * POST /rest/v1/leads/submitForm.json: one form fill-out: upserts the
 * lead by email, records "Fill Out Form", associates the cookie.  Returns
 * 0, -API_ERR_INVALID_REQUEST (no formId, not exactly one input),
 * -API_ERR_OBJECT_NOT_FOUND (unknown form or program) or another
 * negative api_err.
 */
int
api_leads_submit_form(struct call *c, struct resp *r)
{
	struct json_object *body = c->req->json, *input = NULL, *item;
	struct json_object *fields = NULL, *visitor = NULL, *ck = NULL;
	struct json_object *v = NULL;
	struct repo_form form;
	struct repo_program prog;
	struct lead_form_fill ff;
	struct lead_sync sy;
	struct rec_rules ru;
	const char *cookie = NULL;
	size_t n = 0;
	int64_t form_id, pid;
	bool given;
	int e;

	memset(&sy, 0, sizeof(sy));
	memset(&ru, 0, sizeof(ru));
	memset(&ff, 0, sizeof(ff));
	memset(&prog, 0, sizeof(prog));
	if ((e = member_int(c, r, body, "formId", &given, &form_id)) != 0)
		goto out;
	if (!given) {
		api_common_err_msg(c, r, "formId not specified");
		e = -API_ERR_INVALID_REQUEST;
		goto out;
	}
	if ((e = member_int(c, r, body, "programId", &given, &pid)) != 0 ||
	    (e = api_common_input(c, r, &input_rule, &input, &n)) != 0)
		goto out;
	if (n != 1) {
		api_common_err_msg(c, r, "Submit Form takes exactly one input "
		    "record, not %zu", n);
		e = -API_ERR_INVALID_REQUEST;
		goto out;
	}
	e = repo_forms_get_by_id(c->app->db, &c->app->arena, form_id,
	    &form);
	if (e == -REPO_ERR_NOT_FOUND) {
		api_common_err_msg(c, r, "Form '%lld' not found",
		    (long long)form_id);
		e = -API_ERR_OBJECT_NOT_FOUND;
		goto out;
	}
	if (e != 0) {
		e = err_from_repo(e);
		goto out;
	}
	if (given) {
		e = pid < 1 || pid > INT32_MAX ? -REPO_ERR_NOT_FOUND :
		    repo_programs_get_by_id(c->app->db, (int32_t)pid, &prog);
		repo_programs_program_clear(&prog);
		if (e == -REPO_ERR_NOT_FOUND) {
			api_common_err_msg(c, r, "Program '%lld' not found",
			    (long long)pid);
			e = -API_ERR_OBJECT_NOT_FOUND;
			goto out;
		}
		if (e != 0) {
			e = err_from_repo(e);
			goto out;
		}
	} else
		pid = form.program_id;
	item = json_object_array_get_idx(input, 0);
	if (item != NULL && json_object_is_type(item, json_type_object)) {
		json_object_object_get_ex(item, "leadFormFields", &fields);
		json_object_object_get_ex(item, "visitorData", &visitor);
		json_object_object_get_ex(item, "cookie", &ck);
	}
	ru.action = LEAD_CREATE_OR_UPDATE;
	ru.form = &form;
	if ((e = check_input(c, r, "email", &ru, &fields, 1, 0, NULL,
	    &sy.recs)) != 0)
		goto out;
	if (fields == NULL || !json_object_is_type(fields, json_type_object))
		refuse(c, sy.recs, 1003, "leadFormFields not specified");
	if (!sy.recs->skip && ck != NULL) {
		cookie = json_object_get_string(ck);
		if (!json_object_is_type(ck, json_type_string) ||
		    !lead_cookie_is_valid(cookie, strlen(cookie)))
			refuse(c, sy.recs, 1012, "Invalid cookie value '%s'",
			    cookie != NULL ? api_common_echo(c, cookie) : "");
	}
	if (!sy.recs->skip && (ff.attrs = form_attrs(c, &form, fields,
	    visitor, pid)) == NULL)
		refuse(c, sy.recs, 1003, "Invalid visitorData: an object of "
		    "strings is required");
	ff.form = &form;
	ff.cookie = cookie;
	sy.action = LEAD_CREATE_OR_UPDATE;
	sy.lookup = ru.lookup;
	sy.new_lead_attrs = new_lead_attrs(c, "Web form fillout",
	    "submitForm");
	/* §A.4.4: a form's changes; the page when visitorData names it. */
	sy.change_source = "Web form fillout";
	sy.change_reason = "Form fill-out";
	if (visitor != NULL && json_object_object_get_ex(visitor, "pageURL",
	    &v) && json_object_is_type(v, json_type_string))
		sy.change_reason = arena_printf(&c->app->arena,
		    "Form fill-out, URL: %s", json_object_get_string(v));
	sy.form = &ff;
	sy.n = 1;
	sy.arena = &c->app->arena;
	if ((e = repo_leads_sync(c->app->db, &sy)) != 0) {
		e = err_from_repo(e);
		goto out;
	}
	write_results(r, sy.recs, 1, false);
	e = 0;
out:
	return e;
}

/* ---- Delete Leads (§5.5) ------------------------------------------- */

/*
 * The ids to delete: the body's input [{"id":N}, ...], or ?id=1,2,3 when
 * the body has none.  Bad items are refused one by one.
 */
static int
delete_input(struct call *c, struct resp *r, struct lead_del **out,
    const char ***bad, size_t *n)
{
	struct json_object *body = c->req->json, *in = NULL, *item, *v;
	const char **ids = NULL;
	struct lead_del *d;
	size_t i, count;
	int k;

	*out = NULL;
	*n = 0;
	if (body != NULL && json_object_is_type(body, json_type_object) &&
	    json_object_object_get_ex(body, "input", &in)) {
		if (in == NULL || !json_object_is_type(in, json_type_array))
			count = 0;
		else
			count = json_object_array_length(in);
	} else {
		if ((k = req_param_list(c->req, "id", &ids)) < 0)
			return k;
		count = (size_t)k;
		in = NULL;
	}
	if (count == 0) {
		api_common_err_msg(c, r, "Leads not specified");
		return -API_ERR_INVALID_REQUEST;
	}
	if (count > MAX_BATCH_RECORDS) {
		api_common_err_msg(c, r, "Too many leads: at most %d per request",
		    MAX_BATCH_RECORDS);
		return -API_ERR_INVALID_REQUEST;
	}
	if ((d = arena_zalloc(&c->app->arena, count * sizeof(*d))) == NULL ||
	    (*bad = arena_zalloc(&c->app->arena, count * sizeof(**bad))) ==
	    NULL)
		return -API_ERR_SYSTEM;
	for (i = 0; i < count; i++) {
		if (in == NULL) {
			if (num_parse_i64(ids[i], 1, INT64_MAX,
			    &d[i].id) != 0) {
				d[i].skip = true;
				(*bad)[i] = ids[i];
			}
			continue;
		}
		item = json_object_array_get_idx(in, i);
		v = NULL;
		if (item != NULL && json_object_is_type(item, json_type_object))
			json_object_object_get_ex(item, "id", &v);
		if (v == NULL || !json_object_is_type(v, json_type_int) ||
		    (d[i].id = json_object_get_int64(v)) < 1) {
			d[i].skip = true;
			(*bad)[i] = lead_value_text(v, &c->app->arena);
		}
	}
	*out = d;
	*n = count;
	return 0;
}

/*
 * POST /rest/v1/leads/delete.json (and DELETE /rest/v1/leads.json):
 * deletes up to MAX_BATCH_RECORDS leads with their memberships and
 * cookies.  Results {"id":N,"status":"deleted"} or skipped 1004 "Lead not
 * found" (1003 for an item without a valid id).  Returns 0,
 * -API_ERR_INVALID_REQUEST or another negative api_err.
 */
int
api_leads_delete(struct call *c, struct resp *r)
{
	struct lead_del *d = NULL;
	const char **bad = NULL;
	size_t n = 0, i;
	int e;

	if ((e = delete_input(c, r, &d, &bad, &n)) != 0)
		goto out;
	if ((e = repo_leads_delete(c->app->db, d, n)) != 0) {
		e = err_from_repo(e);
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (d[i].skip)
			resp_add(r, api_common_skipped(NULL, NULL, 1003, "Invalid value for "
			    "field 'id' and value '%s'", bad[i] != NULL ?
			    api_common_echo(c, bad[i]) : "null"));
		else if (d[i].deleted)
			resp_add(r, api_common_record("id", json_object_new_int64(d[i].id), "deleted"));
		else
			resp_add(r, api_common_skipped("id", api_common_id(d[i].id), 1004,
			    "Lead not found"));
	}
	e = 0;
out:
	return e;
}
