/*
 * Activities (docs/behaviour.md §17): Get Activity Types, Get Paging
 * Token, Get Lead Activities, Get Lead Changes and Get Deleted Leads,
 * over the activity log every write path records into.
 *
 * Choices where the service is undocumented (beyond-seed §D, decided in
 * docs/behaviour.md §17): a page scans at most ACTIVITY_SCAN_IDS
 * activity ids, so it may hold fewer rows than batchSize, or none, with
 * moreResult true, as the service's block scan does; every reply carries
 * nextPageToken and moreResult, and an empty page leaves result out;
 * activityTypeIds absent means every type; tokens are the old date
 * tokens (util/datetoken.h) and serve all three reads.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "api/api.h"
#include "api/api_common.h"
#include "api/api_leads_catalog.h"
#include "bounds.h"
#include "call.h"
#include "db/query.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "http/router.h"
#include "http/validate.h"
#include "model/leadfield.h"
#include "repo/repo_activity.h"
#include "repo/repo_lists.h"
#include "util/arena.h"
#include "util/datetoken.h"
#include "util/num.h"
#include "util/timeutil.h"

/* ---- Get Activity Types ------------------------------------------- */

/* {"name": name, "dataType": type}. */
static struct json_object *
attr_decl(const char *name, const char *type)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "name", json_object_new_string(name));
	json_object_object_add(o, "dataType", json_object_new_string(
	    type != NULL ? type : "string"));
	return o;
}

/*
 * GET /rest/v1/activities/types.json: the catalogue, each type with its
 * primary attribute (left out when it has none, as New Lead) and its
 * attributes with their data types.
 */
int
api_activities_types(struct call *c, struct resp *r)
{
	struct db_text_rows t;
	struct json_object *ty = NULL, *attrs = NULL;
	const char *s;
	int64_t id, cur = -1;
	size_t i;
	int e;

	if ((e = repo_activity_types(c->app->db, &c->app->arena, &t)) != 0)
		return err_from_repo(e);
	for (i = 0; i < t.count; i++) {
		id = db_text_i64(&t, i, ACTIVITY_TYPE_ID);
		if (id != cur) {
			if (ty != NULL) {
				json_object_object_add(ty, "attributes",
				    attrs);
				resp_add(r, ty);
			}
			cur = id;
			ty = json_object_new_object();
			attrs = json_object_new_array();
			json_object_object_add(ty, "id",
			    json_object_new_int64(id));
			json_object_object_add(ty, "name",
			    json_object_new_string(db_text_str(&t, i,
			    ACTIVITY_TYPE_NAME)));
			if ((s = db_text_str(&t, i,
			    ACTIVITY_TYPE_DESCRIPTION)) != NULL)
				json_object_object_add(ty, "description",
				    json_object_new_string(s));
			if ((s = db_text_str(&t, i,
			    ACTIVITY_TYPE_PRIMARY)) != NULL)
				json_object_object_add(ty, "primaryAttribute",
				    attr_decl(s, db_text_str(&t, i,
				    ACTIVITY_TYPE_PRIMARY_TYPE)));
		}
		if ((s = db_text_str(&t, i, ACTIVITY_TYPE_ATTR)) != NULL)
			json_object_array_add(attrs, attr_decl(s,
			    db_text_str(&t, i, ACTIVITY_TYPE_ATTR_TYPE)));
	}
	if (ty != NULL) {
		json_object_object_add(ty, "attributes", attrs);
		resp_add(r, ty);
	}
	return 0;
}

/* ---- Get Paging Token --------------------------------------------- */

static const struct vparam since_params[] = {
	{ .name = "sinceDatetime", .type = VP_STR,
	  .flags = VPF_REQUIRED | VPF_BLANK },
};

/*
 * sinceDatetime into UTC milliseconds: an ISO 8601 date or date-time
 * (util/timeutil.h); a '+' of the offset that arrived as a space (Java
 * samples send "+0000" unencoded) is read as '+'.  1001 otherwise.
 */
static int
since_ms(struct call *c, struct resp *r, const char *v, int64_t *out)
{
	char *s;
	size_t n = strlen(v);
	int64_t t, day;
	bool has_time;

	if ((s = arena_strdup(&c->app->arena, v)) == NULL)
		return -API_ERR_SYSTEM;
	if (n > 19 && s[n - 5] == ' ' && strspn(s + n - 4, "0123456789") == 4)
		s[n - 5] = '+';
	if (n > 19 && s[n - 6] == ' ' && s[n - 3] == ':')
		s[n - 6] = '+';
	if (!time_parse_iso(s, n, &t, &has_time, &day) || t < 0 ||
	    t > DATE_TOKEN_MAX_MS / 1000)
		return api_common_invalid(c, r, v, "Date");
	*out = t * 1000;
	return 0;
}

/* Sets r's nextPageToken to the token of place. */
static int
set_token(struct call *c, struct resp *r, const struct date_token *place)
{
	char tok[DATE_TOKEN_BYTES];

	date_token_encode(place, tok);
	if ((r->next_page_token = arena_strdup(&c->app->arena, tok)) == NULL)
		return -API_ERR_SYSTEM;
	return 0;
}

/*
 * GET /rest/v1/activities/pagingtoken.json?sinceDatetime=: the token of
 * that time; the reads it starts return activities dated then or later.
 */
int
api_activities_paging_token(struct call *c, struct resp *r)
{
	struct vvalue v[1];
	struct date_token place = { 0, 0 };
	int e;

	if ((e = VALIDATE(c->req, r, since_params, v)) != 0 ||
	    (e = since_ms(c, r, v[0].s, &place.ms)) != 0)
		return e;
	r->no_result = true;
	return set_token(c, r, &place);
}

/* ---- The three reads ---------------------------------------------- */

/* A read in progress. */
struct read {
	enum activities_read			 kind;
	struct activity_filter		 f;
	int				 batch;
	const struct lead_schema	*schema;	/* ACTIVITIES_READ_CHANGES */
	const struct lead_field		**fields;	/* ACTIVITIES_READ_CHANGES */
	size_t				 nfields;
};

static const int64_t change_types[] = { ACT_NEW_LEAD, ACT_CHANGE_DATA_VALUE };
static const int64_t deleted_types[] = { ACT_DELETE_LEAD };

/* The parameters of the reads (the order of P_*). */
enum { P_TOKEN, P_TYPES, P_ASSETS, P_LEADS, P_LIST, P_BATCH, P__MAX };

static const struct vparam read_params[P__MAX] = {
	[P_TOKEN] = { .name = "nextPageToken", .type = VP_STR,
	  .flags = VPF_REQUIRED | VPF_BLANK },
	[P_TYPES] = { .name = "activityTypeIds", .type = VP_LIST,
	  .max = MAX_ACTIVITY_TYPE_IDS },
	[P_ASSETS] = { .name = "assetIds", .type = VP_LIST,
	  .max = MAX_ACTIVITY_ASSET_IDS },
	[P_LEADS] = { .name = "leadIds", .type = VP_LIST,
	  .max = MAX_ACTIVITY_LEAD_IDS },
	[P_LIST] = { .name = "listId", .type = VP_INT, .min = 1,
	  .max = INT32_MAX },
	[P_BATCH] = { .name = "batchSize", .type = VP_INT, .min = 1,
	  .bad_err = -API_ERR_INVALID_REQUEST,
	  .bad_msg = "Invalid batchSize '%s': an integer from 1 to "
	      API_STR(MAX_BATCH_SIZE) },
};

/* The items of a list parameter as ids >= 1 (1001 for another item). */
static int
ids_of(struct call *c, struct resp *r, const struct vvalue *v,
    const char *type, const int64_t **out, size_t *n)
{
	int64_t *ids;
	size_t i;

	*out = NULL;
	*n = 0;
	if (!v->present || v->n == 0)
		return 0;
	if ((ids = arena_zalloc(&c->app->arena, v->n * sizeof(*ids))) == NULL)
		return -API_ERR_SYSTEM;
	for (i = 0; i < v->n; i++)
		if (num_parse_i64(v->items[i], 1, INT64_MAX, &ids[i]) != 0)
			return api_common_invalid(c, r, v->items[i], type);
	*out = ids;
	*n = v->n;
	return 0;
}

/* The fields of Get Lead Changes: required, each a lead field (1006). */
static int
change_fields(struct call *c, struct resp *r, struct read *rd)
{
	static const char *const none[] = { NULL };
	const char *v = req_param(c->req, "fields");

	if (v == NULL || v[0] == '\0')
		return api_common_fail(c, r, -API_ERR_BLANK,
		    "fields cannot be blank");
	return api_leads_catalog_fields(c, r, &rd->schema, none, &rd->fields,
	    &rd->nfields);
}

/* Reads the parameters of a read into rd. */
static int
read_params_of(struct call *c, struct resp *r, struct read *rd,
    struct date_token *place)
{
	struct vvalue v[P__MAX];
	int64_t members;
	int e;

	if ((e = VALIDATE(c->req, r, read_params, v)) != 0)
		return e;
	if (date_token_decode(v[P_TOKEN].s, place) != 0)
		return api_common_fail(c, r, -API_ERR_INVALID_REQUEST,
		    "Invalid nextPageToken");
	rd->batch = MAX_BATCH_SIZE;
	if (v[P_BATCH].present && v[P_BATCH].i < MAX_BATCH_SIZE)
		rd->batch = (int)v[P_BATCH].i;
	switch (rd->kind) {
	case ACTIVITIES_READ_LIST:
		if ((e = ids_of(c, r, &v[P_TYPES], "int", &rd->f.types,
		    &rd->f.ntypes)) != 0 ||
		    (e = ids_of(c, r, &v[P_ASSETS], "int", &rd->f.assets,
		    &rd->f.nassets)) != 0)
			return e;
		break;
	case ACTIVITIES_READ_CHANGES:
		rd->f.types = change_types;
		rd->f.ntypes = 2;
		if ((e = change_fields(c, r, rd)) != 0)
			return e;
		break;
	case ACTIVITIES_READ_DELETED:
		rd->f.types = deleted_types;
		rd->f.ntypes = 1;
		return 0;
	}
	if ((e = ids_of(c, r, &v[P_LEADS], "long", &rd->f.leads,
	    &rd->f.nleads)) != 0)
		return e;
	if (v[P_LIST].present) {
		rd->f.list_id = (int32_t)v[P_LIST].i;
		if ((e = repo_lists_member_count(c->app->db, rd->f.list_id,
		    MAX_ACTIVITY_LIST_MEMBERS, &members)) != 0)
			return err_from_repo(e);
		if (members >= MAX_ACTIVITY_LIST_MEMBERS)
			return api_common_fail(c, r, -API_ERR_INVALID_REQUEST,
			    "Static list has too many records: listId "
			    "takes lists of fewer than "
			    API_STR(MAX_ACTIVITY_LIST_MEMBERS) " members");
	}
	return 0;
}

/* "YYYY-MM-DD HH:MM:SS.ffffff" (UTC) as milliseconds since the epoch. */
static int64_t
row_ms(const char *db)
{
	int64_t t = 0, day, ms = 0;
	bool has_time;
	size_t n;

	if (db == NULL || (n = strlen(db)) < 19 ||
	    !time_parse_iso(db, 19, &t, &has_time, &day))
		return 0;
	if (n >= 23 && db[19] == '.')
		(void)num_parse_i64n(db + 20, 3, 0, 999, &ms);
	return t * 1000 + ms;
}

/* The field of Describe Lead id attr_id among the requested ones. */
static const struct lead_field *
asked_field(const struct read *rd, int64_t attr_id)
{
	size_t i;

	for (i = 0; i < rd->nfields; i++)
		if (rd->fields[i]->attr_id == attr_id)
			return rd->fields[i];
	return NULL;
}

/* Whether row i of t belongs in the reply (Lead Changes: its fields). */
static bool
wanted(const struct read *rd, const struct db_text_rows *t, size_t i)
{
	if (rd->kind != ACTIVITIES_READ_CHANGES ||
	    db_text_i64(t, i, ACTIVITY_COL_TYPE) != ACT_CHANGE_DATA_VALUE)
		return true;
	return asked_field(rd, db_text_i64(t, i,
	    ACTIVITY_COL_PRIMARY_ID)) != NULL;
}

/*
 * The stored attributes (a JSON object as text) as the reply's list of
 * {"name", "value"}, each value of its JSON type; null values are left
 * out.  Lead Changes moves "New Value" and "Old Value" of a data value
 * change into the field entry fe instead.
 */
static struct json_object *
attributes(const char *text, struct json_object *fe)
{
	struct json_object *stored, *list, *a;

	list = json_object_new_array();
	if (text == NULL || (stored = json_tokener_parse(text)) == NULL)
		return list;
	if (json_object_is_type(stored, json_type_object)) {
		json_object_object_foreach(stored, k, v) {
			if (fe != NULL && (strcmp(k, "New Value") == 0 ||
			    strcmp(k, "Old Value") == 0)) {
				json_object_object_add(fe,
				    k[0] == 'N' ? "newValue" : "oldValue",
				    v == NULL ? NULL : json_object_new_string(
				    json_object_get_string(v)));
				continue;
			}
			if (v == NULL)
				continue;
			a = json_object_new_object();
			json_object_object_add(a, "name",
			    json_object_new_string(k));
			json_object_object_add(a, "value", json_object_get(v));
			json_object_array_add(list, a);
		}
	}
	json_object_put(stored);
	return list;
}

/* Row i of t as the reply's activity or lead change record. */
static struct json_object *
record(const struct read *rd, const struct db_text_rows *t, size_t i)
{
	struct json_object *o, *fields = NULL, *fe = NULL;
	const struct lead_field *f;
	const char *s;
	char iso[TIME_ISO_BYTES];
	int64_t type = db_text_i64(t, i, ACTIVITY_COL_TYPE);

	o = json_object_new_object();
	s = db_text_str(t, i, ACTIVITY_COL_ID);
	json_object_object_add(o, "id", json_object_new_int64(
	    db_text_i64(t, i, ACTIVITY_COL_ID)));
	json_object_object_add(o, "marketoGUID", json_object_new_string(s));
	json_object_object_add(o, "leadId", json_object_new_int64(
	    db_text_i64(t, i, ACTIVITY_COL_LEAD)));
	json_object_object_add(o, "activityDate", json_object_new_string(
	    time_iso_from_db(db_text_str(t, i, ACTIVITY_COL_DATE), iso) !=
	    NULL ? iso : ""));
	json_object_object_add(o, "activityTypeId",
	    json_object_new_int64(type));
	if (db_text_str(t, i, ACTIVITY_COL_CAMPAIGN) != NULL)
		json_object_object_add(o, "campaignId", json_object_new_int64(
		    db_text_i64(t, i, ACTIVITY_COL_CAMPAIGN)));
	if (rd->kind == ACTIVITIES_READ_CHANGES) {
		fields = json_object_new_array();
		if (type == ACT_CHANGE_DATA_VALUE && (f = asked_field(rd,
		    db_text_i64(t, i, ACTIVITY_COL_PRIMARY_ID))) != NULL) {
			fe = json_object_new_object();
			json_object_object_add(fe, "id",
			    json_object_new_int64(f->attr_id));
			json_object_object_add(fe, "name",
			    json_object_new_string(f->name));
			json_object_array_add(fields, fe);
		}
		json_object_object_add(o, "fields", fields);
	} else {
		if (db_text_str(t, i, ACTIVITY_COL_PRIMARY_ID) != NULL)
			json_object_object_add(o, "primaryAttributeValueId",
			    json_object_new_int64(db_text_i64(t, i,
			    ACTIVITY_COL_PRIMARY_ID)));
		if ((s = db_text_str(t, i, ACTIVITY_COL_PRIMARY)) != NULL)
			json_object_object_add(o, "primaryAttributeValue",
			    json_object_new_string(s));
	}
	json_object_object_add(o, "attributes", attributes(db_text_str(t, i,
	    ACTIVITY_COL_ATTRS), fe));
	if (fe != NULL && !json_object_object_get_ex(fe, "newValue", NULL))
		json_object_object_add(fe, "newValue", NULL);
	return o;
}

/*
 * One page from place: the activities after it (a date token's first
 * one dated at or after its time), at most the batch, within the next
 * ACTIVITY_SCAN_IDS ids unless leadIds narrow the read.  The next token
 * is the last activity shown when the batch filled, else the end of the
 * range read; moreResult says whether activities lie beyond it.
 */
static int
read_page(struct call *c, struct resp *r, struct read *rd,
    struct date_token place)
{
	struct db_text_rows t;
	int64_t after = place.last, first, max, upto;
	size_t i, shown;
	int e;

	if ((e = repo_activity_max_id(c->app->db, &max)) != 0)
		return err_from_repo(e);
	if (after == 0) {
		if ((e = repo_activity_start(c->app->db, place.ms,
		    &first)) != 0)
			return err_from_repo(e);
		if (first == 0) {
			/* Nothing dated then or later yet: the same token. */
			r->no_result = true;
			r->more_result = 0;
			return set_token(c, r, &place);
		}
		after = first - 1;
	}
	upto = max;
	if (rd->f.nleads == 0 && max - after > ACTIVITY_SCAN_IDS)
		upto = after + ACTIVITY_SCAN_IDS;
	if (after >= max) {
		r->no_result = true;
		r->more_result = 0;
		return set_token(c, r, &place);
	}
	if ((e = repo_activity_page(c->app->db, &c->app->arena, &rd->f, after,
	    upto, rd->batch + 1, &t)) != 0)
		return err_from_repo(e);
	shown = t.count > (size_t)rd->batch ? (size_t)rd->batch : t.count;
	for (i = 0; i < shown; i++)
		if (wanted(rd, &t, i))
			resp_add(r, record(rd, &t, i));
	if (r->result == NULL)
		r->no_result = true;
	if (shown > 0)
		place.ms = row_ms(db_text_str(&t, shown - 1,
		    ACTIVITY_COL_DATE));
	if (t.count > (size_t)rd->batch) {
		place.last = db_text_i64(&t, shown - 1, ACTIVITY_COL_ID);
		r->more_result = 1;
	} else {
		place.last = upto;
		r->more_result = upto < max;
	}
	return set_token(c, r, &place);
}

/*
 * GET /rest/v1/activities.json: activities by type (at most 10; none
 * means every type), primary asset, lead (at most 30) or static list
 * members, from nextPageToken on (ACTIVITIES_READ_LIST).
 * GET /rest/v1/activities/leadchanges.json: New Lead and the Change Data
 * Value activities of the fields named, as lead change records
 * (ACTIVITIES_READ_CHANGES).
 * GET /rest/v1/activities/deletedleads.json: Delete Lead activities
 * (ACTIVITIES_READ_DELETED).
 * The route's variant says which; parameters, then a page.
 */
int
api_activities_read(struct call *c, struct resp *r)
{
	struct read rd;
	struct date_token place;
	int e;

	memset(&rd, 0, sizeof(rd));
	rd.kind = (enum activities_read)c->route->variant;
	if ((e = read_params_of(c, r, &rd, &place)) != 0)
		return e;
	return read_page(c, r, &rd, place);
}
