/*
 * The lead field schema and the describe operations (docs/behaviour.md
 * §5.11, §5.12, §5.13): Describe Lead, Describe Lead2, Get Lead Fields,
 * Get Lead Field by Name, Create Lead Fields, Update Lead Field and
 * Describe Program Member.  Every read here takes a fresh catalogue, so a
 * field created on any worker or host shows at once.
 *
 * Where the service is silent, these are the choices (and the HTTP cases
 * 15x-leadfields-*.case show them):
 *   - Get Lead Field by Name and Update Lead Field with an unknown name:
 *     request-level 1006 "Field '<name>' not found".
 *   - batchSize outside 1..300 or not a number, and a nextPageToken this
 *     operation did not issue: request-level 1003 with a message naming
 *     the parameter.
 *   - Create and Update: no usable `input` is request-level 1003 "Input
 *     not specified"; more than 100 records (create) or more than one
 *     (update) is request-level 1003.  Record problems skip the record:
 *     1002 "Missing value for required parameter '<attr>'", else 1003
 *     ("Field '<n>' already exists", "Display name '<d>' already
 *     exists", "Invalid field name '<n>': <why>", "Invalid displayName
 *     ...", "Invalid dataType ...", "Attribute '<a>' is not supported",
 *     "Attribute '<a>' cannot be updated", ...).  Unknown attributes are
 *     refused, so a misspelt option is never ignored silently.
 *   - A database failure while creating one field skips that record with
 *     the error's code (611, 604, 608): fields created before it stay
 *     created, as DDL cannot be undone, and the answer says so.
 *   - Describe Lead and Describe Lead2 report a score field as "integer"
 *     (§5.1); the field schema operations report "score".
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "api/api.h"
#include "api/api_common.h"
#include "api/api_leads_catalog.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "http/validate.h"
#include "http/router.h"
#include "bounds.h"
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_lead_schema.h"
#include "util/arena.h"
#include "util/num.h"
#include "util/pagetoken.h"

/* Untrusted text quoted in a message is cut to this many bytes. */

/* The paging token kind of Get Lead Fields (util/pagetoken.h). */
#define TOKEN_KIND_LEAD_FIELDS	5

/* A new JSON string, or JSON null for NULL. */
static struct json_object *
jstr(const char *s)
{
	return s != NULL ? json_object_new_string(s) : NULL;
}

/* The dataType Describe Lead and Describe Lead2 show (§5.1). */
static const char *
describe_type(const struct lead_field *f)
{
	return lf_type_name(f->type == LF_SCORE ? LF_INTEGER : f->type);
}

/* {"name":...,"readOnly":...} of Describe Lead. */
static struct json_object *
map_attr(const char *name, bool read_only)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "name", json_object_new_string(name));
	json_object_object_add(o, "readOnly",
	    json_object_new_boolean(read_only));
	return o;
}

/*
 * One field as Describe Lead shows it, as a real instance does: rest.
 * readOnly is the field's, except that id is not read-only there (a
 * record names the lead by it); the soap member only for fields the SOAP
 * API has (a custom field has it under its own name), never read-only.
 */
static struct json_object *
describe_json(const struct lead_field *f)
{
	struct json_object *o = json_object_new_object();
	const char *soap = f->soap_name != NULL ? f->soap_name :
	    f->is_custom ? f->name : NULL;

	json_object_object_add(o, "id", json_object_new_int(f->attr_id));
	json_object_object_add(o, "displayName",
	    json_object_new_string(f->display_name));
	json_object_object_add(o, "dataType",
	    json_object_new_string(describe_type(f)));
	if (f->length > 0)
		json_object_object_add(o, "length",
		    json_object_new_int(f->length));
	json_object_object_add(o, "rest", map_attr(f->name,
	    f->read_only && strcmp(f->name, "id") != 0));
	if (soap != NULL)
		json_object_object_add(o, "soap", map_attr(soap, false));
	return o;
}

/* A field of Describe Lead2 and Describe Program Member. */
static struct json_object *
describe2_field(const char *name, const char *display, const char *type,
    int32_t length, bool updateable, bool crm_managed)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "name", json_object_new_string(name));
	json_object_object_add(o, "displayName",
	    json_object_new_string(display));
	json_object_object_add(o, "dataType", json_object_new_string(type));
	if (length > 0)
		json_object_object_add(o, "length",
		    json_object_new_int(length));
	json_object_object_add(o, "updateable",
	    json_object_new_boolean(updateable));
	json_object_object_add(o, "crmManaged",
	    json_object_new_boolean(crm_managed));
	return o;
}

/* One field as the field schema operations show it (LeadField). */
static struct json_object *
lead_field_json(const struct lead_field *f)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "displayName",
	    json_object_new_string(f->display_name));
	json_object_object_add(o, "name", json_object_new_string(f->name));
	json_object_object_add(o, "description", jstr(f->description));
	json_object_object_add(o, "dataType",
	    json_object_new_string(lf_type_name(f->type)));
	if (f->length > 0)
		json_object_object_add(o, "length",
		    json_object_new_int(f->length));
	json_object_object_add(o, "isHidden",
	    json_object_new_boolean(f->is_hidden));
	json_object_object_add(o, "isHtmlEncodingInEmail",
	    json_object_new_boolean(f->is_html_encoding));
	json_object_object_add(o, "isSensitive",
	    json_object_new_boolean(f->is_sensitive));
	json_object_object_add(o, "isCustom",
	    json_object_new_boolean(f->is_custom));
	json_object_object_add(o, "isApiCreated",
	    json_object_new_boolean(f->is_api_created));
	return o;
}

/*
 * GET /rest/v1/leads/describe.json: one element per catalogue field.
 * Returns 0 or a negative api_err (catalogue unreadable).
 */
int
api_lead_fields_describe(struct call *c, struct resp *r)
{
	const struct lead_schema *s;
	size_t i;
	int err;

	if ((err = api_leads_catalog_get(c, true, &s)) != 0)
		return err;
	for (i = 0; i < s->count; i++)
		resp_add(r, describe_json(&s->fields[i]));
	return 0;
}

/*
 * GET /rest/v1/leads/describe2.json: one element, "API Lead", with the
 * searchable fields (the valid filterTypes) and every field.  Returns 0
 * or a negative api_err.
 */
int
api_lead_fields_describe2(struct call *c, struct resp *r)
{
	const struct lead_schema *s;
	const struct lead_field *f;
	struct json_object *o, *search, *fields, *one;
	size_t i;
	int err;

	if ((err = api_leads_catalog_get(c, true, &s)) != 0)
		return err;
	search = json_object_new_array();
	fields = json_object_new_array();
	for (i = 0; i < s->count; i++) {
		f = &s->fields[i];
		if (f->searchable) {
			one = json_object_new_array();
			json_object_array_add(one,
			    json_object_new_string(f->name));
			json_object_array_add(search, one);
		}
		json_object_array_add(fields, describe2_field(f->name,
		    f->display_name, describe_type(f), f->length,
		    !f->read_only, f->crm_managed));
	}
	o = json_object_new_object();
	json_object_object_add(o, "name", json_object_new_string("API Lead"));
	json_object_object_add(o, "searchableFields", search);
	json_object_object_add(o, "fields", fields);
	resp_add(r, o);
	return 0;
}

/* The signature of Get Lead Fields' tokens (one query: the catalogue). */
static uint32_t
page_sig(void)
{
	return page_token_sig(PAGE_TOKEN_SIG_INIT, "leadfields", 10);
}

/*
 * GET /rest/v1/leads/schema/fields.json: the catalogue in attr_id order,
 * batchSize (1..300, default 300) at a time; nextPageToken names the
 * last attr_id returned, so fields created between pages are not missed
 * or repeated.  moreResult is always present, nextPageToken only with
 * moreResult true.  Returns 0 or a negative api_err (1003 for a bad
 * batchSize or token).
 */
int
api_lead_fields_list(struct call *c, struct resp *r)
{
	const struct lead_schema *s;
	const struct lead_field *last = NULL;
	static const struct vparam params[] = {
		{ .name = "batchSize", .type = VP_INT, .min = 1,
		  .max = MAX_BATCH_SIZE, .bad_err = -API_ERR_INVALID_REQUEST,
		  .bad_msg = "Invalid batchSize '%s': an integer from 1 to "
		      API_STR(MAX_BATCH_SIZE) " is expected" },
		{ .name = "nextPageToken", .type = VP_STR },
	};
	struct vvalue v[2];
	char *next;
	int64_t batch = MAX_BATCH_SIZE, after = 0;
	size_t i, taken = 0;
	int err;

	if ((err = VALIDATE(c->req, r, params, v)) != 0)
		return err;
	if (v[0].present)
		batch = v[0].i;
	if (v[1].present && page_token_decode(v[1].s, TOKEN_KIND_LEAD_FIELDS,
	    page_sig(), &after) != 0) {
		api_common_err_msg(c, r, "Invalid nextPageToken '%s'",
		    api_common_echo(c, v[1].s));
		return -API_ERR_INVALID_REQUEST;
	}
	if ((err = api_leads_catalog_get(c, true, &s)) != 0)
		return err;
	r->more_result = 0;
	for (i = 0; i < s->count; i++) {
		if (s->fields[i].attr_id <= after)
			continue;
		if (taken == (size_t)batch) {
			r->more_result = 1;
			break;
		}
		last = &s->fields[i];
		resp_add(r, lead_field_json(last));
		taken++;
	}
	if (r->more_result == 1) {
		if ((next = arena_alloc(&c->app->arena,
		    PAGE_TOKEN_BYTES)) == NULL)
			return -API_ERR_SYSTEM;
		page_token_encode(TOKEN_KIND_LEAD_FIELDS, page_sig(),
		    last->attr_id, next);
		r->next_page_token = next;
	}
	return 0;
}

/*
 * GET /rest/v1/leads/schema/fields/{fieldApiName}.json: one LeadField;
 * the name is matched without case.  Returns 0, -API_ERR_FIELD_NOT_FOUND
 * (1006 "Field '<name>' not found") or another negative api_err.
 */
int
api_lead_fields_get(struct call *c, struct resp *r)
{
	const struct lead_schema *s;
	const struct lead_field *f;
	const char *name = c->req->path_params[0];
	int err;

	if ((err = api_leads_catalog_get(c, true, &s)) != 0)
		return err;
	if ((f = lead_schema_find(s, name)) == NULL) {
		api_common_err_msg(c, r, "Field '%s' not found", api_common_echo(c, name));
		return -API_ERR_FIELD_NOT_FOUND;
	}
	resp_add(r, lead_field_json(f));
	return 0;
}

/*
 * The `input` array of a JSON body: request-level 1003 "Input not
 * specified" when there is none (no body, not an object, no or empty
 * array); the count is checked by each operation.
 */
static const struct api_input input_rule = {
	.missing_err = -API_ERR_INVALID_REQUEST,
	.missing_msg = "Input not specified",
};
/* The attributes a record may carry, and how each is checked. */
enum attr {
	ATTR_NAME,
	ATTR_DISPLAY_NAME,
	ATTR_DATA_TYPE,
	ATTR_DESCRIPTION,
	ATTR_IS_HIDDEN,
	ATTR_IS_HTML_ENCODING,
	ATTR_IS_SENSITIVE,
	ATTR_LENGTH,		/* update: never */
	ATTR_IS_CUSTOM,		/* update: never */
	ATTR_IS_API_CREATED,	/* update: never */
	ATTR__MAX
};

static const struct attr_info {
	const char	*name;
	bool		 is_bool;
	bool		 create;	/* Create Lead Fields takes it */
	bool		 update;	/* Update Lead Field may change it */
} attrs[ATTR__MAX] = {
	[ATTR_NAME] = { "name", false, true, false },
	[ATTR_DISPLAY_NAME] = { "displayName", false, true, true },
	[ATTR_DATA_TYPE] = { "dataType", false, true, false },
	[ATTR_DESCRIPTION] = { "description", false, true, true },
	[ATTR_IS_HIDDEN] = { "isHidden", true, true, true },
	[ATTR_IS_HTML_ENCODING] = { "isHtmlEncodingInEmail", true, true,
	    true },
	[ATTR_IS_SENSITIVE] = { "isSensitive", true, true, true },
	[ATTR_LENGTH] = { "length", false, false, false },
	[ATTR_IS_CUSTOM] = { "isCustom", true, false, false },
	[ATTR_IS_API_CREATED] = { "isApiCreated", true, false, false },
};

/* A record's attributes after the common checks. */
struct rec {
	struct json_object	*v[ATTR__MAX];	/* borrowed; NULL: absent */
	bool			 given[ATTR__MAX];
	const char		*name;		/* the name string, or NULL */
};

/*
 * Sorts the members of object o into rec: unknown keys, booleans that are
 * not booleans and strings that are not strings become a skipped result
 * (*skip, owned by the caller).  update: the name of the field Update
 * Lead Field changes, which picks that operation's attribute set and
 * names the result; NULL for Create Lead Fields, whose results carry the
 * record's name.
 */
static void
rec_parse(struct call *c, struct json_object *o, const char *update,
    struct rec *rec, struct json_object **skip)
{
	bool for_update = update != NULL;
	const char *key, *nm;
	struct json_object *v;
	size_t i;

	memset(rec, 0, sizeof(*rec));
	*skip = NULL;
	if (json_object_is_type(o, json_type_object) &&
	    json_object_object_get_ex(o, "name", &v) &&
	    json_object_is_type(v, json_type_string))
		rec->name = json_object_get_string(v);
	nm = for_update ? update : rec->name;
	if (!json_object_is_type(o, json_type_object)) {
		*skip = api_common_skipped("name", api_common_str_or_null(nm), 1003, "Invalid record: an object "
		    "is expected");
		return;
	}
	json_object_object_foreach(o, k, val) {
		key = k;
		for (i = 0; i < ATTR__MAX; i++)
			if (strcmp(attrs[i].name, key) == 0)
				break;
		if (i == ATTR__MAX || (!for_update && !attrs[i].create)) {
			*skip = api_common_skipped("name", api_common_str_or_null(nm), 1003, "Attribute '%s' is "
			    "not supported", api_common_echo(c, key));
			return;
		}
		if (for_update && !attrs[i].update) {
			*skip = api_common_skipped("name", api_common_str_or_null(nm), 1003, "Attribute '%s' "
			    "cannot be updated", api_common_echo(c, key));
			return;
		}
		if (val == NULL)	/* JSON null: as if absent */
			continue;
		if (attrs[i].is_bool &&
		    !json_object_is_type(val, json_type_boolean)) {
			*skip = api_common_skipped("name", api_common_str_or_null(nm), 1003, "Invalid value for "
			    "'%s': true or false is expected",
			    api_common_echo(c, key));
			return;
		}
		if (!attrs[i].is_bool &&
		    !json_object_is_type(val, json_type_string)) {
			*skip = api_common_skipped("name", api_common_str_or_null(nm), 1003, "Invalid value for "
			    "'%s': a string is expected",
			    api_common_echo(c, key));
			return;
		}
		rec->v[i] = val;
		rec->given[i] = true;
	}
	/* An explicit null description clears it on update. */
	if (json_object_object_get_ex(o, "description", &v) && v == NULL)
		rec->given[ATTR_DESCRIPTION] = true;
}

/* The string of attribute a (a string when present) and its length. */
static const char *
rec_str(const struct rec *rec, enum attr a, size_t *len)
{
	*len = rec->v[a] != NULL ?
	    (size_t)json_object_get_string_len(rec->v[a]) : 0;
	return rec->v[a] != NULL ? json_object_get_string(rec->v[a]) : NULL;
}

/* A boolean attribute, or def when absent. */
static bool
rec_bool(const struct rec *rec, enum attr a, bool def)
{
	return rec->v[a] != NULL ? json_object_get_boolean(rec->v[a]) : def;
}

/*
 * Checks the display name and description of a record (either may be
 * absent).  Returns a skipped result (owned by the caller) or NULL.
 */
static struct json_object *
check_texts(struct call *c, const struct rec *rec, const char *name)
{
	const char *s, *why;
	size_t len;

	if ((s = rec_str(rec, ATTR_DISPLAY_NAME, &len)) != NULL &&
	    (why = repo_lead_schema_display_check(s, len)) != NULL)
		return api_common_skipped("name", api_common_str_or_null(name), 1003, "Invalid displayName "
		    "'%s': %s", api_common_echo(c, s), why);
	if ((s = rec_str(rec, ATTR_DESCRIPTION, &len)) != NULL &&
	    (why = repo_lead_schema_description_check(s, len)) != NULL)
		return api_common_skipped("name", api_common_str_or_null(name), 1003, "Invalid description: %s",
		    why);
	return NULL;
}

/* The result of a repository failure for one record. */
static struct json_object *
failed(const char *name, int repo_err)
{
	const struct err_info *e = err_lookup(err_from_repo(repo_err));
	int64_t code = 611;

	(void)num_parse_i64(e->code, 0, 999999, &code);
	return api_common_skipped("name", api_common_str_or_null(name),
	    (int)code, "%s", e->message);
}

/* Creates the field one record describes; returns its result. */
static struct json_object *
create_one(struct call *c, struct json_object *o, bool *created)
{
	struct lead_field_new nf;
	struct json_object *res = NULL;
	struct rec rec;
	enum lf_conflict conflict;
	enum lf_name_err ne;
	const char *s;
	size_t len;
	bool full;
	int rr;

	rec_parse(c, o, NULL, &rec, &res);
	if (res != NULL)
		return res;
	if (!rec.given[ATTR_NAME])
		return api_common_skipped("name", api_common_str_or_null(NULL), 1002, "Missing value for required "
		    "parameter 'name'");
	s = rec_str(&rec, ATTR_NAME, &len);
	if ((ne = repo_lead_schema_name_check(s, len)) != LF_NAME_OK)
		return api_common_skipped("name", api_common_str_or_null(s), 1003, "Invalid field name '%s': %s",
		    api_common_echo(c, s), repo_lead_schema_name_reason(ne));
	if (!rec.given[ATTR_DISPLAY_NAME])
		return api_common_skipped("name", api_common_str_or_null(s), 1002, "Missing value for required "
		    "parameter 'displayName'");
	if (!rec.given[ATTR_DATA_TYPE])
		return api_common_skipped("name", api_common_str_or_null(s), 1002, "Missing value for required "
		    "parameter 'dataType'");
	memset(&nf, 0, sizeof(nf));
	nf.name = s;
	s = rec_str(&rec, ATTR_DATA_TYPE, &len);
	if (lf_type_parse(s, &nf.type) != 0 ||
	    !repo_lead_schema_type_creatable(nf.type))
		return api_common_skipped("name", api_common_str_or_null(nf.name), 1003, "Invalid dataType '%s': "
		    "one of boolean, currency, date, datetime, email, float, "
		    "integer, percent, phone, score, string, url is expected",
		    api_common_echo(c, s));
	if ((res = check_texts(c, &rec, nf.name)) != NULL)
		return res;
	nf.display_name = rec_str(&rec, ATTR_DISPLAY_NAME, &len);
	nf.description = rec_str(&rec, ATTR_DESCRIPTION, &len);
	nf.is_hidden = rec_bool(&rec, ATTR_IS_HIDDEN, false);
	/* As the standard fields: dates and booleans are not encoded. */
	nf.is_html_encoding = rec_bool(&rec, ATTR_IS_HTML_ENCODING,
	    nf.type != LF_DATE && nf.type != LF_DATETIME &&
	    nf.type != LF_BOOLEAN);
	nf.is_sensitive = rec_bool(&rec, ATTR_IS_SENSITIVE, false);
	rr = repo_lead_schema_insert(c->app->db, &nf, &conflict, &full);
	if (rr == 0) {
		*created = true;
		return api_common_record("name", api_common_str_or_null(nf.name), "created");
	}
	if (conflict == LF_CONFLICT_NAME)
		return api_common_skipped("name", api_common_str_or_null(nf.name), 1003, "Field '%s' already "
		    "exists", nf.name);
	if (conflict == LF_CONFLICT_DISPLAY)
		return api_common_skipped("name", api_common_str_or_null(nf.name), 1003, "Display name '%s' "
		    "already exists", api_common_echo(c, nf.display_name));
	if (full)
		return api_common_skipped("name", api_common_str_or_null(nf.name), 1003, "Field '%s' cannot be "
		    "created: the lead table has no room for more fields",
		    nf.name);
	return failed(nf.name, rr);
}

/*
 * POST /rest/v1/leads/schema/fields.json: creates up to 100 custom
 * fields, each a typed column of the lead table.  result holds one
 * {"name","status":"created"} or skipped element per input record, in
 * input order.  Returns 0, or -API_ERR_INVALID_REQUEST (1003, no input
 * or too many records) or another negative api_err before any record
 * ran.
 */
int
api_lead_fields_create(struct call *c, struct resp *r)
{
	const struct lead_schema *s;
	struct json_object *input;
	bool created = false;
	size_t i, n;
	int err;

	if ((err = api_common_input(c, r, &input_rule, &input, &n)) != 0)
		return err;
	if (n > MAX_CREATE_FIELDS) {
		api_common_err_msg(c, r, "Too many fields: at most %d per call",
		    MAX_CREATE_FIELDS);
		return -API_ERR_INVALID_REQUEST;
	}
	for (i = 0; i < n; i++)
		resp_add(r, create_one(c, json_object_array_get_idx(input, i),
		    &created));
	/* This worker serves the new fields at once (others on a miss). */
	if (created)
		(void)api_leads_catalog_get(c, true, &s);
	return 0;
}

/*
 * Applies the update rules of §5.12 to a parsed record for field f and
 * fills ch.  Returns a skipped result (owned by the caller) or NULL.
 */
static struct json_object *
update_rules(struct call *c, const struct lead_field *f,
    const struct rec *rec, struct lead_field_change *ch)
{
	struct json_object *res;
	size_t len;

	memset(ch, 0, sizeof(*ch));
	if (rec->given[ATTR_DISPLAY_NAME] && !f->is_custom)
		return api_common_skipped("name", api_common_str_or_null(f->name), 1003, "displayName of standard "
		    "field '%s' cannot be updated", f->name);
	if (rec->given[ATTR_IS_HIDDEN] && !(f->is_custom &&
	    f->is_api_created))
		return api_common_skipped("name", api_common_str_or_null(f->name), 1003, "isHidden can be updated "
		    "only on custom fields created through the API");
	if ((res = check_texts(c, rec, f->name)) != NULL)
		return res;
	if (rec->given[ATTR_DISPLAY_NAME]) {
		ch->set_display_name = true;
		ch->display_name = rec_str(rec, ATTR_DISPLAY_NAME, &len);
	}
	if (rec->given[ATTR_DESCRIPTION]) {
		ch->set_description = true;
		ch->description = rec_str(rec, ATTR_DESCRIPTION, &len);
	}
	if (rec->given[ATTR_IS_HIDDEN]) {
		ch->set_hidden = true;
		ch->is_hidden = rec_bool(rec, ATTR_IS_HIDDEN, false);
	}
	if (rec->given[ATTR_IS_HTML_ENCODING]) {
		ch->set_html_encoding = true;
		ch->is_html_encoding = rec_bool(rec, ATTR_IS_HTML_ENCODING,
		    true);
	}
	if (rec->given[ATTR_IS_SENSITIVE]) {
		ch->set_sensitive = true;
		ch->is_sensitive = rec_bool(rec, ATTR_IS_SENSITIVE, false);
	}
	if (!ch->set_display_name && !ch->set_description && !ch->set_hidden &&
	    !ch->set_html_encoding && !ch->set_sensitive)
		return api_common_skipped("name", api_common_str_or_null(f->name), 1003, "No attribute to update");
	return NULL;
}

/*
 * POST /rest/v1/leads/schema/fields/{fieldApiName}.json: changes the
 * attributes the rules allow (custom: displayName, description,
 * isHidden when API-created, isHtmlEncodingInEmail, isSensitive;
 * standard: description, isHtmlEncodingInEmail, isSensitive).  result is
 * [{"name","status":"updated"}] or one skipped element.  Returns 0,
 * -API_ERR_FIELD_NOT_FOUND (1006), -API_ERR_INVALID_REQUEST (1003: no
 * input, or more than one record) or another negative api_err (nothing
 * written).
 */
int
api_lead_fields_update(struct call *c, struct resp *r)
{
	const struct lead_schema *s;
	const struct lead_field *f;
	struct lead_field_change ch;
	struct json_object *input, *res = NULL;
	const char *name = c->req->path_params[0];
	struct rec rec;
	char fname[LF_NAME_BYTES * 4 + 1];
	size_t n;
	int err, rr;

	if ((err = api_leads_catalog_get(c, true, &s)) != 0)
		return err;
	if ((f = lead_schema_find(s, name)) == NULL) {
		api_common_err_msg(c, r, "Field '%s' not found", api_common_echo(c, name));
		return -API_ERR_FIELD_NOT_FOUND;
	}
	if ((err = api_common_input(c, r, &input_rule, &input, &n)) != 0)
		return err;
	if (n > 1) {
		api_common_err_msg(c, r, "Only one field can be updated per call");
		return -API_ERR_INVALID_REQUEST;
	}
	snprintf(fname, sizeof(fname), "%s", f->name);
	rec_parse(c, json_object_array_get_idx(input, 0), fname, &rec, &res);
	if (res == NULL)
		res = update_rules(c, f, &rec, &ch);
	if (res != NULL) {
		resp_add(r, res);
		return 0;
	}
	rr = repo_lead_schema_update(c->app->db, fname, &ch);
	if (rr == -REPO_ERR_CONFLICT) {
		resp_add(r, api_common_skipped("name", api_common_str_or_null(fname), 1003, "Display name '%s' "
		    "already exists", api_common_echo(c, ch.display_name)));
		return 0;
	}
	if (rr == -REPO_ERR_NOT_FOUND) {
		api_common_err_msg(c, r, "Field '%s' not found", api_common_echo(c, name));
		return -API_ERR_FIELD_NOT_FOUND;
	}
	if (rr != 0)
		return err_from_repo(rr);
	resp_add(r, api_common_record("name", api_common_str_or_null(fname), "updated"));
	(void)api_leads_catalog_get(c, true, &s);
	return 0;
}

/* The program member fields (migration 0004 program_member). */
static const struct member_field {
	const char	*name;
	const char	*type;
	int32_t		 length;
	bool		 updateable;
} member_fields[] = {
	{ "leadId", "integer", 0, false },
	{ "programId", "integer", 0, false },
	{ "membershipDate", "datetime", 0, false },
	{ "progressionStatus", "string", 255, true },
	{ "reachedSuccess", "boolean", 0, false },
	{ "acquiredBy", "boolean", 0, false },
	{ "isExhausted", "boolean", 0, true },
	{ "nurtureCadence", "string", 16, true },
	{ "stream", "string", 255, true },
	{ "statusReason", "string", 255, false },
	{ "createdAt", "datetime", 0, false },
	{ "updatedAt", "datetime", 0, false },
};

static const char *const member_searchable[] = {
	"leadId", "programId", "reachedSuccess", "progressionStatus",
};

/* The date the newer describe reports for the member map (docs example). */
#define MEMBER_MAP_DATE	"2021-03-20T01:30:05Z"

/*
 * GET /rest/v1/program/members/describe.json and its newer path
 * /rest/v1/programs/members/describe.json (the same route handler):
 * one element with the program member fields; the newer path names it
 * "API Program Membership" as the documentation's example does, and
 * adds description, createdAt, updatedAt, dedupeFields and
 * searchableFields.  Returns 0.
 */
int
api_lead_fields_describe_members(struct call *c, struct resp *r)
{
	struct json_object *o, *fields, *a, *one;
	bool newer;
	size_t i;

	newer = c->route != NULL && strcmp(c->route->pattern,
	    "/rest/v1/programs/members/describe.json") == 0;
	o = json_object_new_object();
	json_object_object_add(o, "name", json_object_new_string(newer ?
	    "API Program Membership" : "API Program Member"));
	if (newer) {
		json_object_object_add(o, "description",
		    json_object_new_string("Map for API program membership "
		    "fields"));
		json_object_object_add(o, "createdAt",
		    json_object_new_string(MEMBER_MAP_DATE));
		json_object_object_add(o, "updatedAt",
		    json_object_new_string(MEMBER_MAP_DATE));
		a = json_object_new_array();
		json_object_array_add(a, json_object_new_string("leadId"));
		json_object_array_add(a, json_object_new_string("programId"));
		json_object_object_add(o, "dedupeFields", a);
		a = json_object_new_array();
		for (i = 0; i < sizeof(member_searchable) /
		    sizeof(member_searchable[0]); i++) {
			one = json_object_new_array();
			json_object_array_add(one,
			    json_object_new_string(member_searchable[i]));
			json_object_array_add(a, one);
		}
		json_object_object_add(o, "searchableFields", a);
	}
	fields = json_object_new_array();
	for (i = 0; i < sizeof(member_fields) / sizeof(member_fields[0]); i++)
		json_object_array_add(fields, describe2_field(
		    member_fields[i].name, member_fields[i].name,
		    member_fields[i].type, member_fields[i].length,
		    member_fields[i].updateable, false));
	json_object_object_add(o, "fields", fields);
	resp_add(r, o);
	return 0;
}
