/*
 * Custom Objects (api-behaviour.md §6): the type metadata API under
 * /rest/v1/customobjects/schema... (draft -> approved -> approvedWithDraft,
 * the rules of §6.1) and the records API under /rest/v1/customobjects/
 * {name}... (§6.2).  Input is checked here; the rules of type changes are
 * in model/cotype.c and run on the draft inside the repository's
 * transaction; records are read and written by repo_custom_objects.c in
 * multi-row statements.
 *
 * Error codes this file chooses where the service documents none:
 *   1001 "Invalid value '<v>'. Required of type '<what>'" for a bad enum
 *        or JSON type of a parameter, and for a bad apiName or field name:
 *        "Invalid apiName '<n>': an SQL reserved word" (or: longer than 50
 *        characters; must start with a letter and hold only letters,
 *        digits and '_'; a name the records use, such as marketoGUID).
 *   1002 "Missing value for the required parameter '<p>'" (request level
 *        and, in a record, a missing dedupe field or marketoGUID).
 *   1003 a rule of §6.1 (its own message: 10 types, 50 fields, 1-3 dedupe
 *        fields, no dedupe or link change after approval, field changes
 *        only on a draft, no draft to approve, a linked type), a bad
 *        record batch (more than 300 records, no input), a bad value.
 *   1013 "Custom object type '<n>' not found".
 *   1048 "Custom Object Discard Draft Failed" (no draft, or never
 *        approved).
 * Record reasons: 1002, 1003 (typed validation, `Invalid value for field
 * 'X' and value 'Y'`), 1004 "Lead not found" (updateOnly without a match;
 * a link to a lead that does not exist), 1006 "Field 'X' not found",
 * 1013 "Object not found" (delete; a link to a missing object), 1017
 * "Object already exists", 1036 "Duplicate object found in input".
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <json-c/json.h>

#include "api/api.h"
#include "api/api_leads_common.h"
#include "http/errors.h"
#include "http/request.h"
#include "http/response.h"
#include "limits.h"
#include "model/cotype.h"
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_custom_objects.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/num.h"
#include "util/pagetoken.h"
#include "util/xmalloc.h"

#define MSG_BYTES	256

/* Sets r->err_msg to a printf message and returns err (negative). */
static int
fail(struct call *c, struct resp *r, int err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int
fail(struct call *c, struct resp *r, int err, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	r->err_msg = arena_strdup(&c->app->arena, msg);
	return err;
}

/* Text of untrusted input for a message: printable, at most 60 bytes. */
static const char *
shown(struct call *c, const char *s)
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

/* An epoch time as "YYYY-MM-DDTHH:MM:SSZ", or json null for 0. */
static struct json_object *
time_json(int64_t t)
{
	char s[32];
	struct tm tm;
	time_t tt = (time_t)t;

	if (t <= 0 || gmtime_r(&tt, &tm) == NULL)
		return NULL;
	strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return json_object_new_string(s);
}

static struct json_object *
str_or_null(const char *s)
{
	return s != NULL ? json_object_new_string(s) : NULL;
}

/* The request body when it is a JSON object, else NULL. */
static struct json_object *
body_object(const struct call *c)
{
	struct json_object *j = c->req->json;

	return j != NULL && json_object_is_type(j, json_type_object) ? j :
	    NULL;
}

/*
 * A string member of o: NULL when absent (or json null).  A member of
 * another JSON type, or longer than max characters' worth of bytes, is
 * 1001.  Returns 0 or a negative api_err.
 */
static int
member_str(struct call *c, struct resp *r, struct json_object *o,
    const char *key, size_t max, const char **out)
{
	struct json_object *v;
	const char *s;

	*out = NULL;
	if (o == NULL || !json_object_object_get_ex(o, key, &v) || v == NULL)
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return fail(c, r, -API_ERR_INVALID_VALUE, "Invalid value '%s'. "
		    "Required of type 'string' for '%s'", shown(c,
		    json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN)),
		    key);
	s = json_object_get_string(v);
	if ((size_t)json_object_get_string_len(v) > max * 4 ||
	    memchr(s, '\0', (size_t)json_object_get_string_len(v)) != NULL)
		return fail(c, r, -API_ERR_INVALID_VALUE, "Invalid value for "
		    "'%s': longer than %zu characters", key, max);
	*out = s;
	return 0;
}

/* A boolean member of o into *out (unchanged when absent); *has set. */
static int
member_bool(struct call *c, struct resp *r, struct json_object *o,
    const char *key, bool *out, bool *has)
{
	struct json_object *v;

	if (has != NULL)
		*has = false;
	if (o == NULL || !json_object_object_get_ex(o, key, &v) || v == NULL)
		return 0;
	if (!json_object_is_type(v, json_type_boolean))
		return fail(c, r, -API_ERR_INVALID_VALUE, "Invalid value '%s'. "
		    "Required of type 'boolean' for '%s'", shown(c,
		    json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN)),
		    key);
	*out = json_object_get_boolean(v);
	if (has != NULL)
		*has = true;
	return 0;
}

/* A name (apiName, field name): 1002 when missing, 1001 when bad. */
static int
check_name(struct call *c, struct resp *r, const char *what, const char *s)
{
	char msg[MSG_BYTES];

	if (s == NULL || s[0] == '\0')
		return fail(c, r, -API_ERR_MISSING_PARAM, "Missing value for "
		    "the required parameter '%s'", what);
	if (co_name_check(what, s, msg, sizeof(msg)) != NULL)
		return fail(c, r, -API_ERR_INVALID_VALUE, "%s", msg);
	return 0;
}

/* Maps a repo error of a type operation; NOT_FOUND names the type. */
static int
type_err(struct call *c, struct resp *r, int rerr, const char *name)
{
	if (rerr == -REPO_ERR_NOT_FOUND)
		return fail(c, r, -API_ERR_OBJECT_NOT_FOUND, "Custom object "
		    "type '%s' not found", shown(c, name));
	return repo_err_to_api(rerr);
}

static int	records_type(struct call *, struct resp *, struct co_type *);

/* ---- Type JSON ------------------------------------------------------ */

enum shape {
	SHAPE_TYPE,		/* the schema API (ObjectMetaData) */
	SHAPE_OBJECT,		/* List Custom Objects */
	SHAPE_DESCRIBE,		/* Describe Custom Objects */
};

static struct json_object *
field_json(const char *name, const char *display, const char *desc,
    const char *dtype, int length, bool updateable)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "name", json_object_new_string(name));
	json_object_object_add(o, "displayName",
	    json_object_new_string(display != NULL ? display : name));
	if (desc != NULL)
		json_object_object_add(o, "description",
		    json_object_new_string(desc));
	json_object_object_add(o, "dataType", json_object_new_string(dtype));
	if (length > 0)
		json_object_object_add(o, "length",
		    json_object_new_int(length));
	json_object_object_add(o, "updateable",
	    json_object_new_boolean(updateable));
	json_object_object_add(o, "crmManaged", json_object_new_boolean(0));
	return o;
}

static struct json_object *
fields_json(const struct co_type *t)
{
	struct json_object *a = json_object_new_array();
	const struct co_field *f;
	size_t i;
	int len;

	json_object_array_add(a, field_json("marketoGUID", "Marketo GUID",
	    NULL, "string", CO_GUID_LEN, false));
	json_object_array_add(a, field_json("createdAt", "Created At", NULL,
	    "datetime", 0, false));
	json_object_array_add(a, field_json("updatedAt", "Updated At", NULL,
	    "datetime", 0, false));
	for (i = 0; i < t->nfields; i++) {
		f = &t->fields[i];
		len = f->type == CO_STRING || f->type == CO_EMAIL ||
		    f->type == CO_PHONE ? CO_STRING_LENGTH : 0;
		json_object_array_add(a, field_json(f->name, f->display_name,
		    f->description, co_dtype_name(f->type), len,
		    !f->is_dedupe));
	}
	return a;
}

/* The display name of a link target: "Lead" for leads (§6.1 sample). */
static const char *
related_name(const struct co_field *f)
{
	if (f->related_object != NULL &&
	    strcasecmp(f->related_object, "lead") == 0)
		return "Lead";
	return f->related_object != NULL ? f->related_object : "";
}

static struct json_object *
type_json(const struct co_type *t, enum shape shape)
{
	struct json_object *o, *a, *g, *rel, *to;
	size_t i;

	o = json_object_new_object();
	if (shape == SHAPE_TYPE)
		json_object_object_add(o, "apiName",
		    json_object_new_string(t->api_name));
	else
		json_object_object_add(o, "name",
		    json_object_new_string(t->api_name));
	json_object_object_add(o, "displayName",
	    str_or_null(t->display_name));
	json_object_object_add(o, "pluralName", str_or_null(t->plural_name));
	json_object_object_add(o, "description", str_or_null(t->description));
	if (shape == SHAPE_TYPE) {
		json_object_object_add(o, "showInLeadDetail",
		    json_object_new_boolean(t->show_in_lead_detail));
		json_object_object_add(o, "state",
		    json_object_new_string(t->state != NULL ? t->state :
		    "draft"));
		json_object_object_add(o, "version",
		    json_object_new_string(t->is_draft ? "draft" :
		    "approved"));
	}
	json_object_object_add(o, "createdAt", t->approved ?
	    time_json(t->created_at) : NULL);
	json_object_object_add(o, "updatedAt", t->approved ?
	    time_json(t->updated_at) : NULL);
	json_object_object_add(o, "idField", t->approved ?
	    json_object_new_string("marketoGUID") : NULL);
	a = json_object_new_array();
	g = json_object_new_array();
	for (i = 0; i < t->nfields; i++)
		if (t->fields[i].is_dedupe) {
			json_object_array_add(a,
			    json_object_new_string(t->fields[i].name));
			json_object_array_add(g,
			    json_object_new_string(t->fields[i].name));
		}
	json_object_object_add(o, "dedupeFields", a);
	a = json_object_new_array();
	json_object_array_add(a, g);
	if (t->approved) {
		g = json_object_new_array();
		json_object_array_add(g, json_object_new_string("marketoGUID"));
		json_object_array_add(a, g);
		for (i = 0; i < t->nfields; i++)
			if (t->fields[i].is_link && !t->fields[i].is_dedupe) {
				g = json_object_new_array();
				json_object_array_add(g, json_object_new_string(
				    t->fields[i].name));
				json_object_array_add(a, g);
			}
	}
	json_object_object_add(o, "searchableFields", a);
	a = json_object_new_array();
	for (i = 0; i < t->nfields; i++) {
		if (!t->fields[i].is_link)
			continue;
		rel = json_object_new_object();
		json_object_object_add(rel, "field",
		    json_object_new_string(t->fields[i].name));
		json_object_object_add(rel, "type",
		    json_object_new_string("child"));
		to = json_object_new_object();
		json_object_object_add(to, "name",
		    json_object_new_string(related_name(&t->fields[i])));
		json_object_object_add(to, "field", json_object_new_string(
		    t->fields[i].related_field != NULL ?
		    t->fields[i].related_field : ""));
		json_object_object_add(rel, "relatedTo", to);
		json_object_array_add(a, rel);
	}
	json_object_object_add(o, "relationships", a);
	if (shape != SHAPE_OBJECT)
		json_object_object_add(o, "fields", fields_json(t));
	return o;
}

/* Whether name is in the list (no case); an empty list holds all. */
static bool
in_names(const char **names, int n, const char *name)
{
	int i;

	if (n <= 0)
		return true;
	for (i = 0; i < n; i++)
		if (strcasecmp(names[i], name) == 0)
			return true;
	return false;
}

/* The state parameter: -1 absent, else the version to read. */
static int
state_param(struct call *c, struct resp *r, enum co_ver *ver,
    const char **state)
{
	const char *s = req_param(c->req, "state");

	*ver = CO_VER_DEFAULT;
	*state = NULL;
	if (s == NULL || s[0] == '\0')
		return 0;
	if (strcmp(s, "draft") == 0 || strcmp(s, "approvedWithDraft") == 0)
		*ver = CO_VER_DRAFT;
	else if (strcmp(s, "approved") == 0)
		*ver = CO_VER_APPROVED;
	else
		return fail(c, r, -API_ERR_INVALID_VALUE, "Invalid value '%s'. "
		    "Required of type 'state' (draft, approved, "
		    "approvedWithDraft)", shown(c, s));
	*state = s;
	return 0;
}

/*
 * The types named by ?names= (all when absent), each in the version ver
 * (types without it are left out; state approvedWithDraft also leaves
 * out types in another state), as shape.
 */
static int
list_types(struct call *c, struct resp *r, enum co_ver ver,
    const char *state, bool approved_only, enum shape shape)
{
	struct co_type t;
	const char **want = NULL;
	char **names = NULL;
	size_t n = 0, i;
	int nwant, rr, err;

	memset(&t, 0, sizeof(t));
	if ((nwant = req_param_list(c->req, "names", &want)) < 0)
		return nwant;
	if ((rr = repo_custom_objects_type_list(c->app->db, &names, &n)) != 0)
		return repo_err_to_api(rr);
	err = 0;
	for (i = 0; i < n; i++) {
		if (!in_names(want, nwant, names[i]))
			continue;
		rr = repo_custom_objects_type_read(c->app->db, names[i],
		    approved_only ? CO_VER_APPROVED : ver, &t);
		if (rr == -REPO_ERR_NOT_FOUND)
			continue;	/* gone meanwhile, or no such version */
		if (rr != 0) {
			err = repo_err_to_api(rr);
			break;
		}
		if (state == NULL || strcmp(state, "approvedWithDraft") != 0 ||
		    strcmp(t.state, "approvedWithDraft") == 0)
			resp_add(r, type_json(&t, shape));
		co_type_clear(&t);
	}
	co_type_clear(&t);
	repo_custom_objects_names_free(names, n);
	return err;
}

/*
 * GET /rest/v1/customobjects/schema.json?names=&state=: the types, each
 * in its approved version if it has one, else its draft; state=draft
 * (or approvedWithDraft) gives the drafts, state=approved the approved
 * versions.
 */
int
api_co_types_list(struct call *c, struct resp *r)
{
	enum co_ver ver;
	const char *state;
	int err;

	if ((err = state_param(c, r, &ver, &state)) != 0)
		return err;
	return list_types(c, r, ver, state, false, SHAPE_TYPE);
}

/* GET /rest/v1/customobjects.json?names=: the approved types. */
int
api_co_list(struct call *c, struct resp *r)
{
	return list_types(c, r, CO_VER_APPROVED, NULL, true, SHAPE_OBJECT);
}

/* GET /rest/v1/customobjects/schema/{apiName}/describe.json?state= */
int
api_co_types_describe(struct call *c, struct resp *r)
{
	const char *name = c->req->path_params[0];
	struct co_type t;
	enum co_ver ver;
	const char *state;
	int err;

	if ((err = state_param(c, r, &ver, &state)) != 0)
		return err;
	err = repo_custom_objects_type_read(c->app->db, name, ver, &t);
	if (err == -REPO_ERR_NOT_FOUND && ver != CO_VER_DEFAULT &&
	    repo_custom_objects_type_read(c->app->db, name, CO_VER_DEFAULT,
	    &t) == 0) {
		co_type_clear(&t);
		return fail(c, r, -API_ERR_OBJECT_NOT_FOUND, "Custom object "
		    "type '%s' has no %s version", shown(c, name),
		    ver == CO_VER_DRAFT ? "draft" : "approved");
	}
	if (err != 0) {
		co_type_clear(&t);
		return type_err(c, r, err, name);
	}
	resp_add(r, type_json(&t, SHAPE_TYPE));
	co_type_clear(&t);
	return 0;
}

/* GET /rest/v1/customobjects/{customObjectName}/describe.json */
int
api_co_describe(struct call *c, struct resp *r)
{
	struct co_type t;
	int err;

	memset(&t, 0, sizeof(t));
	if ((err = records_type(c, r, &t)) == 0)
		resp_add(r, type_json(&t, SHAPE_DESCRIBE));
	co_type_clear(&t);
	return err;
}

/* GET /rest/v1/customobjects/schema/fieldDataTypes.json */
int
api_co_types_data_types(struct call *c, struct resp *r)
{
	/* The order of the service's answer (§6.1). */
	static const char *const order[] = { "string", "boolean", "integer",
	    "float", "link", "email", "currency", "date", "datetime",
	    "phone", "text" };
	size_t i;

	(void)c;
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		resp_add(r, json_object_new_string(order[i]));
	return 0;
}

/*
 * GET /rest/v1/customobjects/schema/linkableObjects.json: lead, with the
 * fields of the lead catalogue (a link to a lead is made on its "id"),
 * and every approved custom object a link may point to (one dedupe
 * field, no link field of its own), with that key field.
 */
int
api_co_types_linkable(struct call *c, struct resp *r)
{
	const struct lead_schema *ls;
	struct json_object *o, *a, *f;
	struct co_type t;
	char **names = NULL;
	size_t n = 0, i, j;
	int err, rr;

	memset(&t, 0, sizeof(t));
	if ((err = leads_schema(c, false, &ls)) != 0)
		return err;
	o = json_object_new_object();
	json_object_object_add(o, "name", json_object_new_string("lead"));
	json_object_object_add(o, "displayName",
	    json_object_new_string("Lead"));
	a = json_object_new_array();
	for (i = 0; i < ls->count; i++) {
		f = json_object_new_object();
		json_object_object_add(f, "name",
		    json_object_new_string(ls->fields[i].name));
		json_object_object_add(f, "displayName",
		    json_object_new_string(ls->fields[i].display_name));
		json_object_object_add(f, "dataType", json_object_new_string(
		    lf_type_name(ls->fields[i].type)));
		json_object_array_add(a, f);
	}
	json_object_object_add(o, "fields", a);
	resp_add(r, o);
	if ((rr = repo_custom_objects_type_list(c->app->db, &names, &n)) != 0)
		return repo_err_to_api(rr);
	for (i = 0; i < n; i++) {
		rr = repo_custom_objects_type_get(c->app->db, names[i], true,
		    &t);
		if (rr == -REPO_ERR_NOT_FOUND) {
			co_type_clear(&t);
			continue;
		}
		if (rr != 0) {
			err = repo_err_to_api(rr);
			break;
		}
		if (!co_type_has_link(&t) && co_type_ndedupe(&t) == 1) {
			o = json_object_new_object();
			json_object_object_add(o, "name",
			    json_object_new_string(t.api_name));
			json_object_object_add(o, "displayName",
			    str_or_null(t.display_name));
			a = json_object_new_array();
			for (j = 0; j < t.nfields; j++) {
				if (!t.fields[j].is_dedupe)
					continue;
				f = json_object_new_object();
				json_object_object_add(f, "name",
				    json_object_new_string(t.fields[j].name));
				json_object_object_add(f, "displayName",
				    str_or_null(t.fields[j].display_name));
				json_object_object_add(f, "dataType",
				    json_object_new_string(co_dtype_name(
				    t.fields[j].type)));
				json_object_array_add(a, f);
			}
			json_object_object_add(o, "fields", a);
			resp_add(r, o);
		}
		co_type_clear(&t);
	}
	co_type_clear(&t);
	repo_custom_objects_names_free(names, n);
	return err;
}

/*
 * The assets that use a type.  There are no smart campaigns or smart
 * lists yet, so nothing can depend on a custom object type: this returns
 * no asset.  XXX: when smart campaigns and lists exist, look up their
 * triggers and filters here; Delete Custom Object Type refuses while
 * this finds any.  Returns the number of assets added to r (none).
 */
static size_t
dependent_assets(struct call *c, const struct co_type *t, struct resp *r)
{
	(void)c;
	(void)t;
	(void)r;
	return 0;
}

/* GET /rest/v1/customobjects/schema/{apiName}/dependentAssets.json */
int
api_co_types_dependents(struct call *c, struct resp *r)
{
	const char *name = c->req->path_params[0];
	struct co_type t;
	int err;

	err = repo_custom_objects_type_read(c->app->db, name, CO_VER_DEFAULT,
	    &t);
	if (err == 0)
		(void)dependent_assets(c, &t, r);
	co_type_clear(&t);
	return err == 0 ? 0 : type_err(c, r, err, name);
}

/* ---- Changing types ------------------------------------------------- */

enum sync_action {
	ACT_CREATE_OR_UPDATE,
	ACT_CREATE_ONLY,
	ACT_UPDATE_ONLY,
};

/* The action member of a sync body (default createOrUpdate). */
static int
action_param(struct call *c, struct resp *r, struct json_object *body,
    enum sync_action *out)
{
	const char *s;
	int err;

	*out = ACT_CREATE_OR_UPDATE;
	if ((err = member_str(c, r, body, "action", 32, &s)) != 0)
		return err;
	if (s == NULL || strcmp(s, "createOrUpdate") == 0)
		return 0;
	if (strcmp(s, "createOnly") == 0)
		*out = ACT_CREATE_ONLY;
	else if (strcmp(s, "updateOnly") == 0)
		*out = ACT_UPDATE_ONLY;
	else
		return fail(c, r, -API_ERR_INVALID_VALUE, "Invalid value '%s'. "
		    "Required of type 'action' (createOnly, updateOnly, "
		    "createOrUpdate)", shown(c, s));
	return 0;
}

/* Copies e's refusal into r. */
static int
edit_fail(struct call *c, struct resp *r, const struct co_edit *e)
{
	return fail(c, r, e->err, "%s", e->msg);
}

/* Runs an edit and maps its result. */
static int
run_edit(struct call *c, struct resp *r, const char *name, struct co_edit *e)
{
	int rr;

	rr = repo_custom_objects_type_edit(c->app->db, name, e);
	if (rr == -REPO_ERR_INVALID)
		return edit_fail(c, r, e);
	if (rr != 0)
		return type_err(c, r, rr, name);
	return 0;
}

/* Replaces the heap string *dst with a copy of src. */
static void
set_str(char **dst, const char *src)
{
	free(*dst);
	*dst = src != NULL ? xstrdup(src) : NULL;
}

struct sync_type_in {
	enum sync_action	 action;
	const char		*api_name;
	const char		*display;
	const char		*plural;
	const char		*desc;
	bool			 show;
	bool			 has_show;
};

static int
sync_type_fn(struct co_edit *e, struct co_type *d, const struct co_type *appr)
{
	const struct sync_type_in *in = e->arg;

	if (e->is_new) {
		if (in->action == ACT_UPDATE_ONLY) {
			snprintf(e->msg, sizeof(e->msg), "Custom object type "
			    "'%s' not found", in->api_name);
			return -API_ERR_OBJECT_NOT_FOUND;
		}
		if (e->ntypes >= CO_MAX_TYPES) {
			snprintf(e->msg, sizeof(e->msg), "A subscription has "
			    "at most %d custom object types", CO_MAX_TYPES);
			return -API_ERR_INVALID_REQUEST;
		}
		if (in->display == NULL) {
			snprintf(e->msg, sizeof(e->msg), "Missing value for "
			    "the required parameter 'displayName'");
			return -API_ERR_MISSING_PARAM;
		}
	} else {
		if (in->action == ACT_CREATE_ONLY) {
			snprintf(e->msg, sizeof(e->msg), "Custom object type "
			    "'%s' already exists", d->api_name);
			return -API_ERR_INVALID_REQUEST;
		}
		if (appr != NULL && in->display != NULL &&
		    strcmp(in->display, appr->display_name) != 0) {
			snprintf(e->msg, sizeof(e->msg), "The displayName of "
			    "an approved custom object type cannot be "
			    "changed");
			return -API_ERR_INVALID_REQUEST;
		}
	}
	if (in->display != NULL)
		set_str(&d->display_name, in->display);
	if (in->plural != NULL)
		set_str(&d->plural_name, in->plural);
	if (in->desc != NULL)
		set_str(&d->description, in->desc);
	if (in->has_show)
		d->show_in_lead_detail = in->show;
	return 0;
}

/*
 * POST /rest/v1/customobjects/schema.json: creates a type (a draft) or
 * changes its draft.  A change to an approved type makes a draft
 * (approvedWithDraft) even when nothing differs, so its fields can then
 * be updated and deleted.
 */
int
api_co_types_sync(struct call *c, struct resp *r)
{
	struct json_object *body = body_object(c);
	struct sync_type_in in;
	struct co_edit e;
	int err;

	memset(&in, 0, sizeof(in));
	memset(&e, 0, sizeof(e));
	if (body == NULL)
		return fail(c, r, -API_ERR_INVALID_REQUEST, "The request body "
		    "must be a JSON object");
	if ((err = action_param(c, r, body, &in.action)) != 0 ||
	    (err = member_str(c, r, body, "apiName", CO_NAME_MAX * 4,
	    &in.api_name)) != 0 ||
	    (err = check_name(c, r, "apiName", in.api_name)) != 0 ||
	    (err = member_str(c, r, body, "displayName", CO_DISPLAY_MAX,
	    &in.display)) != 0 ||
	    (err = member_str(c, r, body, "pluralName", CO_DISPLAY_MAX,
	    &in.plural)) != 0 ||
	    (err = member_str(c, r, body, "description", CO_DESCRIPTION_MAX,
	    &in.desc)) != 0 ||
	    (err = member_bool(c, r, body, "showInLeadDetail", &in.show,
	    &in.has_show)) != 0)
		return err;
	if (strcasecmp(in.api_name, "lead") == 0)
		return fail(c, r, -API_ERR_INVALID_VALUE, "Invalid apiName "
		    "'%s': the name of a standard object", in.api_name);
	if (in.display != NULL && in.display[0] == '\0')
		return fail(c, r, -API_ERR_MISSING_PARAM, "Missing value for "
		    "the required parameter 'displayName'");
	if (in.display == NULL && in.action == ACT_CREATE_ONLY)
		return fail(c, r, -API_ERR_MISSING_PARAM, "Missing value for "
		    "the required parameter 'displayName'");
	e.fn = sync_type_fn;
	e.arg = &in;
	e.may_create = in.action != ACT_UPDATE_ONLY;
	return run_edit(c, r, in.api_name, &e);
}

/* A field of an addField or updateField body, checked. */
struct field_in {
	struct co_field	 f;		/* strings borrowed from the body */
	unsigned	 mask;		/* CO_UPD_* given */
};

/*
 * Resolves relatedTo {name, field} of a link field into f: a lead by its
 * id, or an approved custom object by its one dedupe field.
 */
static int
resolve_link(struct call *c, struct resp *r, struct json_object *rel,
    struct co_field *f)
{
	struct co_type t;
	const struct co_field *k = NULL;
	const char *name, *field;
	size_t i;
	int err, rr;

	memset(&t, 0, sizeof(t));
	if (!json_object_is_type(rel, json_type_object))
		return fail(c, r, -API_ERR_INVALID_VALUE, "Invalid value for "
		    "'relatedTo': an object {\"name\",\"field\"} expected");
	if ((err = member_str(c, r, rel, "name", CO_NAME_MAX, &name)) != 0 ||
	    (err = member_str(c, r, rel, "field", CO_NAME_MAX, &field)) != 0)
		return err;
	if (name == NULL || name[0] == '\0')
		return fail(c, r, -API_ERR_MISSING_PARAM, "Missing value for "
		    "the required parameter 'relatedTo.name'");
	if (field == NULL || field[0] == '\0')
		return fail(c, r, -API_ERR_MISSING_PARAM, "Missing value for "
		    "the required parameter 'relatedTo.field'");
	if (strcasecmp(name, "lead") == 0) {
		if (strcasecmp(field, "id") != 0)
			return fail(c, r, -API_ERR_INVALID_REQUEST, "A link to "
			    "lead is made on its field 'id', not '%s'",
			    shown(c, field));
		f->related_object = (char *)(uintptr_t)"lead";
		f->related_field = (char *)(uintptr_t)"id";
		f->key_type = CO_INTEGER;
		return 0;
	}
	rr = repo_custom_objects_type_get(c->app->db, name, true, &t);
	if (rr == -REPO_ERR_NOT_FOUND) {
		err = fail(c, r, -API_ERR_INVALID_REQUEST, "Linked object "
		    "'%s' not found: a link goes to lead or to an approved "
		    "custom object type", shown(c, name));
		goto out;
	}
	if (rr != 0) {
		err = repo_err_to_api(rr);
		goto out;
	}
	if (co_type_has_link(&t)) {
		err = fail(c, r, -API_ERR_INVALID_REQUEST, "Custom object type "
		    "'%s' has a link field itself and cannot be linked to",
		    t.api_name);
		goto out;
	}
	for (i = 0; i < t.nfields; i++)
		if (t.fields[i].is_dedupe)
			k = &t.fields[i];
	if (co_type_ndedupe(&t) != 1 || k == NULL ||
	    strcasecmp(k->name, field) != 0) {
		err = fail(c, r, -API_ERR_INVALID_REQUEST, "A link to custom "
		    "object type '%s' is made on its one dedupe field, not "
		    "'%s'", t.api_name, shown(c, field));
		goto out;
	}
	f->related_object = arena_strdup(&c->app->arena, t.api_name);
	f->related_field = arena_strdup(&c->app->arena, k->name);
	f->key_type = k->type;
	err = f->related_object != NULL && f->related_field != NULL ? 0 :
	    -API_ERR_SYSTEM;
out:
	co_type_clear(&t);
	return err;
}

/*
 * Reads a field object: name (required unless update), displayName
 * (required unless update), dataType, description, isDedupeField,
 * relatedTo.
 */
static int
parse_field(struct call *c, struct resp *r, struct json_object *o,
    bool update, struct field_in *out)
{
	struct json_object *rel = NULL;
	const char *name, *display, *dtype, *desc;
	bool dedupe = false, has;
	int err;

	memset(out, 0, sizeof(*out));
	if (o == NULL || !json_object_is_type(o, json_type_object))
		return fail(c, r, -API_ERR_INVALID_REQUEST, "Each field must "
		    "be a JSON object");
	if ((err = member_str(c, r, o, "name", CO_NAME_MAX * 4, &name)) != 0 ||
	    (err = member_str(c, r, o, "displayName", CO_DISPLAY_MAX,
	    &display)) != 0 ||
	    (err = member_str(c, r, o, "dataType", 32, &dtype)) != 0 ||
	    (err = member_str(c, r, o, "description", CO_DESCRIPTION_MAX,
	    &desc)) != 0 ||
	    (err = member_bool(c, r, o, "isDedupeField", &dedupe, &has)) != 0)
		return err;
	if (!update || name != NULL) {
		if ((err = check_name(c, r, "name", name)) != 0)
			return err;
		if (co_is_system_field(name))
			return fail(c, r, -API_ERR_INVALID_VALUE,
			    "Invalid name '%s': a name every record has",
			    name);
		out->f.name = (char *)(uintptr_t)name;
		out->mask |= CO_UPD_NAME;
	}
	if (!update && (display == NULL || display[0] == '\0'))
		return fail(c, r, -API_ERR_MISSING_PARAM, "Missing value for "
		    "the required parameter 'displayName'");
	if (display != NULL) {
		if (display[0] == '\0')
			return fail(c, r, -API_ERR_MISSING_PARAM, "Missing "
			    "value for the required parameter 'displayName'");
		out->f.display_name = (char *)(uintptr_t)display;
		out->mask |= CO_UPD_DISPLAY;
	}
	if (!update && dtype == NULL)
		return fail(c, r, -API_ERR_MISSING_PARAM, "Missing value for "
		    "the required parameter 'dataType'");
	if (dtype != NULL) {
		if (co_dtype_parse(dtype, &out->f.type) != 0)
			return fail(c, r, -API_ERR_INVALID_VALUE,
			    "Invalid value '%s'. Required of type 'dataType'",
			    shown(c, dtype));
		out->mask |= CO_UPD_TYPE;
	}
	if (desc != NULL) {
		out->f.description = (char *)(uintptr_t)desc;
		out->mask |= CO_UPD_DESCRIPTION;
	}
	if (has) {
		out->f.is_dedupe = dedupe;
		out->mask |= CO_UPD_DEDUPE;
	}
	out->f.is_link = out->f.type == CO_LINK;
	if (json_object_object_get_ex(o, "relatedTo", &rel) && rel != NULL) {
		if ((out->mask & CO_UPD_TYPE) && !out->f.is_link)
			return fail(c, r, -API_ERR_INVALID_REQUEST, "relatedTo "
			    "is only for fields of dataType 'link'");
		if ((err = resolve_link(c, r, rel, &out->f)) != 0)
			return err;
		out->mask |= CO_UPD_LINK;
	} else if (!update && out->f.is_link)
		return fail(c, r, -API_ERR_MISSING_PARAM, "Missing value for "
		    "the required parameter 'relatedTo'");
	return 0;
}

struct fields_in {
	struct field_in	*f;
	size_t		 n;
	const char	*name;		/* updateField: the field */
	const char	*api_name;
};

/* Field changes need a draft that existed before (§6.1). */
static int
need_draft(struct co_edit *e, const struct co_type *d)
{
	if (e->had_draft)
		return 0;
	snprintf(e->msg, sizeof(e->msg), "Custom object type '%s' has no "
	    "draft: fields are updated and deleted in a draft (Sync Custom "
	    "Object Type or Add Custom Object Type Fields makes one)",
	    d->api_name);
	return -API_ERR_INVALID_REQUEST;
}

static int
rule_err(int rule)
{
	return rule == CO_RULE_NO_FIELD ? -API_ERR_FIELD_NOT_FOUND :
	    -API_ERR_INVALID_REQUEST;
}

static int
add_fields_fn(struct co_edit *e, struct co_type *d, const struct co_type *a)
{
	const struct fields_in *in = e->arg;
	size_t i;
	int rule;

	for (i = 0; i < in->n; i++)
		if ((rule = co_rule_add_field(d, a, &in->f[i].f, e->msg,
		    sizeof(e->msg))) != CO_RULE_OK)
			return rule_err(rule);
	return 0;
}

static int
update_field_fn(struct co_edit *e, struct co_type *d,
    const struct co_type *a)
{
	const struct fields_in *in = e->arg;
	int err, rule;

	if ((err = need_draft(e, d)) != 0)
		return err;
	if ((rule = co_rule_update_field(d, a, in->name, &in->f[0].f,
	    in->f[0].mask, e->msg, sizeof(e->msg))) != CO_RULE_OK)
		return rule_err(rule);
	return 0;
}

static int
delete_fields_fn(struct co_edit *e, struct co_type *d,
    const struct co_type *a)
{
	const struct fields_in *in = e->arg;
	size_t i;
	int err, rule;

	if ((err = need_draft(e, d)) != 0)
		return err;
	for (i = 0; i < in->n; i++)
		if ((rule = co_rule_delete_field(d, a, in->f[i].f.name, e->msg,
		    sizeof(e->msg))) != CO_RULE_OK)
			return rule_err(rule);
	return 0;
}

/* The input array of a fields body: 1..CO_MAX_FIELDS objects. */
static int
input_array(struct call *c, struct resp *r, struct json_object **out,
    size_t *n)
{
	struct json_object *body = body_object(c), *in;

	*out = NULL;
	*n = 0;
	if (body == NULL || !json_object_object_get_ex(body, "input", &in) ||
	    in == NULL)
		return fail(c, r, -API_ERR_MISSING_PARAM, "Missing value for "
		    "the required parameter 'input'");
	if (!json_object_is_type(in, json_type_array))
		return fail(c, r, -API_ERR_INVALID_VALUE, "Invalid value for "
		    "'input': an array expected");
	*n = json_object_array_length(in);
	if (*n == 0)
		return fail(c, r, -API_ERR_MISSING_PARAM, "Missing value for "
		    "the required parameter 'input'");
	if (*n > CO_MAX_FIELDS)
		return fail(c, r, -API_ERR_INVALID_REQUEST, "A custom object "
		    "type has at most %d fields", CO_MAX_FIELDS);
	*out = in;
	return 0;
}

/* POST /rest/v1/customobjects/schema/{apiName}/addField.json */
int
api_co_types_add_fields(struct call *c, struct resp *r)
{
	struct json_object *in;
	struct fields_in fi;
	struct co_edit e;
	size_t i;
	int err;

	memset(&fi, 0, sizeof(fi));
	memset(&e, 0, sizeof(e));
	fi.api_name = c->req->path_params[0];
	if ((err = input_array(c, r, &in, &fi.n)) != 0)
		return err;
	fi.f = arena_zalloc(&c->app->arena, fi.n * sizeof(*fi.f));
	if (fi.f == NULL)
		return -API_ERR_SYSTEM;
	for (i = 0; i < fi.n; i++)
		if ((err = parse_field(c, r, json_object_array_get_idx(in, i),
		    false, &fi.f[i])) != 0)
			return err;
	e.fn = add_fields_fn;
	e.arg = &fi;
	return run_edit(c, r, fi.api_name, &e);
}

/* POST /rest/v1/customobjects/schema/{apiName}/{field}/updateField.json */
int
api_co_types_update_field(struct call *c, struct resp *r)
{
	struct json_object *body = body_object(c);
	struct fields_in fi;
	struct field_in f;
	struct co_edit e;
	int err;

	memset(&fi, 0, sizeof(fi));
	memset(&e, 0, sizeof(e));
	fi.api_name = c->req->path_params[0];
	fi.name = c->req->path_params[1];
	if (body == NULL)
		return fail(c, r, -API_ERR_INVALID_REQUEST, "The request body "
		    "must be a JSON object");
	if ((err = parse_field(c, r, body, true, &f)) != 0)
		return err;
	fi.f = &f;
	fi.n = 1;
	e.fn = update_field_fn;
	e.arg = &fi;
	return run_edit(c, r, fi.api_name, &e);
}

/* POST /rest/v1/customobjects/schema/{apiName}/deleteField.json */
int
api_co_types_delete_fields(struct call *c, struct resp *r)
{
	struct json_object *in, *o;
	struct fields_in fi;
	struct co_edit e;
	const char *name;
	size_t i;
	int err;

	memset(&fi, 0, sizeof(fi));
	memset(&e, 0, sizeof(e));
	fi.api_name = c->req->path_params[0];
	if ((err = input_array(c, r, &in, &fi.n)) != 0)
		return err;
	fi.f = arena_zalloc(&c->app->arena, fi.n * sizeof(*fi.f));
	if (fi.f == NULL)
		return -API_ERR_SYSTEM;
	for (i = 0; i < fi.n; i++) {
		o = json_object_array_get_idx(in, i);
		if (o == NULL || !json_object_is_type(o, json_type_object))
			return fail(c, r, -API_ERR_INVALID_REQUEST,
			    "Each field must be a JSON object");
		if ((err = member_str(c, r, o, "name", CO_NAME_MAX * 4,
		    &name)) != 0 ||
		    (err = check_name(c, r, "name", name)) != 0)
			return err;
		fi.f[i].f.name = (char *)(uintptr_t)name;
	}
	e.fn = delete_fields_fn;
	e.arg = &fi;
	return run_edit(c, r, fi.api_name, &e);
}

static int
approve_check(const struct co_type *d, const struct co_type *a, char *msg)
{
	return co_rule_approvable(d, a, msg, MSG_BYTES) == CO_RULE_OK ? 0 :
	    -API_ERR_INVALID_REQUEST;
}

/*
 * POST /rest/v1/customobjects/schema/{apiName}/approve.json: the draft
 * becomes the approved version and the records table follows it.
 */
int
api_co_types_approve(struct call *c, struct resp *r)
{
	const char *name = c->req->path_params[0];
	char msg[MSG_BYTES];
	int rr, err = 0;

	rr = repo_custom_objects_approve(c->app->db, name, approve_check, &err,
	    msg);
	if (rr == -REPO_ERR_INVALID)
		return fail(c, r, err != 0 ? err : -API_ERR_INVALID_REQUEST,
		    "%s", msg);
	return rr == 0 ? 0 : type_err(c, r, rr, name);
}

/* POST /rest/v1/customobjects/schema/{apiName}/discardDraft.json */
int
api_co_types_discard(struct call *c, struct resp *r)
{
	const char *name = c->req->path_params[0];
	int rr;

	rr = repo_custom_objects_discard(c->app->db, name);
	if (rr == -REPO_ERR_INVALID)
		return -API_ERR_CO_DISCARD;
	return rr == 0 ? 0 : type_err(c, r, rr, name);
}

/*
 * POST /rest/v1/customobjects/schema/{apiName}/delete.json: refused while
 * assets use the type or another type links to it.
 */
int
api_co_types_delete(struct call *c, struct resp *r)
{
	const char *name = c->req->path_params[0];
	struct co_type t;
	char msg[MSG_BYTES];
	size_t deps;
	int rr;

	rr = repo_custom_objects_type_read(c->app->db, name, CO_VER_DEFAULT,
	    &t);
	deps = rr == 0 ? dependent_assets(c, &t, NULL) : 0;
	co_type_clear(&t);
	if (rr != 0)
		return type_err(c, r, rr, name);
	if (deps > 0)
		return fail(c, r, -API_ERR_INVALID_REQUEST, "Custom object "
		    "type '%s' is used by %zu assets (see dependentAssets)",
		    shown(c, name), deps);
	rr = repo_custom_objects_type_delete(c->app->db, name, msg);
	if (rr == -REPO_ERR_INVALID)
		return fail(c, r, -API_ERR_INVALID_REQUEST, "%s", msg);
	return rr == 0 ? 0 : type_err(c, r, rr, name);
}

/* ---- Records -------------------------------------------------------- */

/* Token kind of Get Custom Objects (util/pagetoken.h). */
#define TOKEN_KIND_CO		7

/* The approved type named by the path, for the records API. */
static int
records_type(struct call *c, struct resp *r, struct co_type *t)
{
	const char *name = c->req->path_params[0];
	int rr;

	rr = repo_custom_objects_type_get(c->app->db, name, true, t);
	if (rr == -REPO_ERR_NOT_FOUND)
		return fail(c, r, -API_ERR_OBJECT_NOT_FOUND, "Custom object "
		    "'%s' not found (or not approved)", shown(c, name));
	return rr == 0 ? 0 : repo_err_to_api(rr);
}

/* A skipped record: {"seq":seq,"status":"skipped","reasons":[...]}. */
static struct json_object *
skipped_json(size_t seq, int code, const char *msg)
{
	struct json_object *o, *a, *e;
	char codes[16];

	snprintf(codes, sizeof(codes), "%d", code);
	o = json_object_new_object();
	json_object_object_add(o, "seq", json_object_new_int64((int64_t)seq));
	json_object_object_add(o, "status", json_object_new_string("skipped"));
	a = json_object_new_array();
	e = json_object_new_object();
	json_object_object_add(e, "code", json_object_new_string(codes));
	json_object_object_add(e, "message", json_object_new_string(msg));
	json_object_array_add(a, e);
	json_object_object_add(o, "reasons", a);
	return o;
}

/* The state of one input record of Sync or Delete. */
enum rec_state {
	REC_PENDING,
	REC_SKIPPED,
	REC_CREATE,
	REC_UPDATE,
	REC_DONE,
};

struct rec {
	enum rec_state		 state;
	int			 code;		/* skipped: the reason */
	const char		*msg;		/* arena */
	struct lead_value	*vals;		/* one per field of the type */
	struct lead_value	 key[CO_MAX_DEDUPE];
	size_t			 nkey;
	const char		*keytext;	/* arena, for duplicates */
	size_t			 keylen;
	char			 guid[CO_GUID_LEN + 1];
	int64_t			 id;
	bool			 key_change;	/* idField update of a key */
};

static void
skip(struct call *c, struct rec *rc, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
skip(struct call *c, struct rec *rc, int code, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rc->state = REC_SKIPPED;
	rc->code = code;
	rc->msg = arena_strdup(&c->app->arena, msg);
	if (rc->msg == NULL)
		rc->msg = "Invalid data";
}

/* A marketoGUID value: a UUID string, kept in lower case. */
static int
parse_guid(struct call *c, struct json_object *v, struct lead_value *out)
{
	const char *s;
	char *g;
	size_t i, n;

	memset(out, 0, sizeof(*out));
	if (v == NULL || !json_object_is_type(v, json_type_string))
		return -1;
	s = json_object_get_string(v);
	n = (size_t)json_object_get_string_len(v);
	if (!co_guid_valid(s, n) || (g = arena_strndup(&c->app->arena, s,
	    n)) == NULL)
		return -1;
	for (i = 0; i < n; i++)
		if (g[i] >= 'A' && g[i] <= 'F')
			g[i] = (char)(g[i] - 'A' + 'a');
	out->kind = LV_STR;
	out->s = g;
	out->len = n;
	return 0;
}

/*
 * Reads one input record into rc: the values of the fields it gives
 * (typed; unknown fields 1006, bad values 1003) and its key (the dedupe
 * fields, or marketoGUID when by_guid; missing 1002).
 */
static void
read_record(struct call *c, const struct co_type *t, struct json_object *o,
    bool by_guid, struct rec *rc)
{
	const struct co_field *f;
	struct lead_value v;
	struct buf kb;
	size_t j, k;

	rc->vals = arena_zalloc(&c->app->arena,
	    (t->nfields > 0 ? t->nfields : 1) * sizeof(*rc->vals));
	if (rc->vals == NULL) {
		skip(c, rc, 1003, "Invalid data");
		return;
	}
	if (o == NULL || !json_object_is_type(o, json_type_object)) {
		skip(c, rc, 1003, "Invalid data: a record is a JSON object");
		return;
	}
	json_object_object_foreach(o, key, val) {
		if (strcasecmp(key, "marketoGUID") == 0) {
			if (!by_guid)
				continue;
			if (parse_guid(c, val, &rc->key[0]) != 0) {
				skip(c, rc, 1003, "Invalid value for field "
				    "'marketoGUID' and value '%s'", shown(c,
				    lead_value_text(val, &c->app->arena)));
				return;
			}
			rc->nkey = 1;
			continue;
		}
		if (co_is_system_field(key))
			continue;	/* createdAt, updatedAt: read-only */
		if ((f = co_type_field(t, key)) == NULL) {
			skip(c, rc, 1006, "Field '%s' not found",
			    shown(c, key));
			return;
		}
		if (co_value_parse(f, val, &c->app->arena, &v) != 0) {
			skip(c, rc, 1003, "Invalid value for field '%s' and "
			    "value '%s'", f->name, shown(c,
			    lead_value_text(val, &c->app->arena)));
			return;
		}
		rc->vals[f - t->fields] = v;
		if (by_guid && f->is_dedupe) {
			/* A key may move, never become empty. */
			if (v.kind == LV_NULL) {
				skip(c, rc, 1003, "Invalid value for field "
				    "'%s' and value ''", f->name);
				return;
			}
			rc->key_change = true;
		}
	}
	if (by_guid) {
		if (rc->nkey == 0)
			skip(c, rc, 1002, "Missing value for the required "
			    "parameter 'marketoGUID'");
	} else {
		for (j = 0, k = 0; j < t->nfields; j++) {
			if (!t->fields[j].is_dedupe)
				continue;
			if (rc->vals[j].kind == LV_ABSENT ||
			    rc->vals[j].kind == LV_NULL) {
				skip(c, rc, 1002, "Missing value for the "
				    "required parameter '%s'",
				    t->fields[j].name);
				return;
			}
			rc->key[k++] = rc->vals[j];
		}
		rc->nkey = k;
	}
	if (rc->state == REC_SKIPPED)
		return;
	buf_init(&kb, CO_SQL_MAX);
	repo_custom_objects_key_text(&kb, rc->key, rc->nkey);
	rc->keytext = buf_ok(&kb) ? arena_strndup(&c->app->arena,
	    kb.data != NULL ? kb.data : "", kb.len) : NULL;
	rc->keylen = kb.len;
	buf_clear(&kb);
	if (rc->keytext == NULL)
		skip(c, rc, 1003, "Invalid data");
}

/* A pending record's key, for sorting. */
struct dup_ent {
	const char	*text;
	size_t		 len;
	size_t		 idx;
};

/* Orders keys by text, then by position in the input. */
static int
dup_cmp(const void *a, const void *b)
{
	const struct dup_ent *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->text, y->text, n);

	if (c != 0)
		return c;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Skips (1036) every pending record whose key an earlier one has. */
static int
skip_duplicates(struct call *c, struct rec *recs, size_t n)
{
	struct dup_ent *e;
	size_t i, m = 0;

	if ((e = arena_alloc(&c->app->arena, (n + 1) * sizeof(*e))) == NULL)
		return -API_ERR_SYSTEM;
	for (i = 0; i < n; i++)
		if (recs[i].state == REC_PENDING) {
			e[m].text = recs[i].keytext;
			e[m].len = recs[i].keylen;
			e[m++].idx = i;
		}
	qsort(e, m, sizeof(*e), dup_cmp);
	for (i = 1; i < m; i++)
		if (e[i].len == e[i - 1].len &&
		    memcmp(e[i].text, e[i - 1].text, e[i].len) == 0)
			skip(c, &recs[e[i].idx], 1036, "Duplicate object "
			    "found in input");
	return 0;
}

/* The text of a value for a reason message. */
static const char *
value_text(struct call *c, const struct lead_value *v)
{
	char *s;

	switch (v->kind) {
	case LV_INT:
	case LV_BOOL:
		s = arena_printf(&c->app->arena, "%lld", (long long)v->i);
		break;
	case LV_DBL:
		s = arena_printf(&c->app->arena, "%g", v->d);
		break;
	case LV_STR:
		return shown(c, v->s);
	default:
		return "";
	}
	return s != NULL ? s : "";
}

/* Whether two typed key values are the same. */
static bool
lv_equal(const struct lead_value *a, const struct lead_value *b)
{
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case LV_INT:
	case LV_BOOL:
		return a->i == b->i;
	case LV_DBL:
		return a->d == b->d;
	case LV_STR:
		return a->len == b->len && memcmp(a->s, b->s, a->len) == 0;
	default:
		return true;
	}
}

/*
 * Link checks (§6.1): every link value of a pending record must name an
 * existing lead (1004) or object of the linked type (1013).
 */
static int
check_links(struct call *c, const struct co_type *t, struct rec *recs,
    size_t n)
{
	struct co_type lt;
	struct co_rows rows;
	struct lead_value *keys = NULL;
	const char *keycol;
	int64_t *ids = NULL;
	size_t *map = NULL, j, i, k, m;
	bool *found = NULL, lead;
	int rr, err = 0;

	memset(&lt, 0, sizeof(lt));
	memset(&rows, 0, sizeof(rows));
	for (j = 0; j < t->nfields && err == 0; j++) {
		const struct co_field *f = &t->fields[j];

		if (!f->is_link)
			continue;
		lead = strcasecmp(f->related_object, "lead") == 0;
		ids = xcalloc(n + 1, sizeof(*ids));
		keys = xcalloc(n + 1, sizeof(*keys));
		map = xcalloc(n + 1, sizeof(*map));
		found = xcalloc(n + 1, sizeof(*found));
		for (i = 0, m = 0; i < n; i++) {
			if (recs[i].state != REC_PENDING ||
			    recs[i].vals[j].kind == LV_ABSENT ||
			    recs[i].vals[j].kind == LV_NULL)
				continue;
			ids[m] = recs[i].vals[j].i;
			keys[m] = recs[i].vals[j];
			map[m++] = i;
		}
		if (m == 0)
			goto next;
		if (lead) {
			rr = repo_custom_objects_leads_exist(c->app->db, ids, m,
			    found);
		} else {
			rr = repo_custom_objects_type_get(c->app->db,
			    f->related_object, true, &lt);
			keycol = f->related_field;
			if (rr == 0)
				rr = repo_custom_objects_lookup(c->app->db, &lt,
				    &keycol, 1, keys, m, NULL, 0, 0, 0, &rows);
			for (i = 0; rr == 0 && i < rows.n; i++)
				found[rows.rows[i].seq] = true;
			if (rr == -REPO_ERR_NOT_FOUND)
				rr = 0;	/* the type is gone: nothing exists */
		}
		if (rr != 0) {
			err = repo_err_to_api(rr);
			goto next;
		}
		/* A row answers the first of equal keys: share it. */
		for (i = 0; i < m; i++)
			for (k = 0; !found[i] && k < i; k++)
				if (found[k] && lv_equal(&keys[k], &keys[i]))
					found[i] = true;
		for (i = 0; i < m; i++) {
			if (found[i])
				continue;
			if (lead)
				skip(c, &recs[map[i]], 1004, "Lead not found "
				    "for link field '%s' and value '%s'",
				    f->name, value_text(c, &keys[i]));
			else
				skip(c, &recs[map[i]], 1013, "Object not found "
				    "for link field '%s' and value '%s'",
				    f->name, value_text(c, &keys[i]));
		}
next:
		repo_custom_objects_rows_free(&rows);
		co_type_clear(&lt);
		free(ids);
		free(keys);
		free(map);
		free(found);
		ids = NULL;
		keys = NULL;
		map = NULL;
		found = NULL;
	}
	return err;
}

/* Reads the input array of a records body: 1..MAX_BATCH_RECORDS. */
static int
records_input(struct call *c, struct resp *r, struct json_object *body,
    struct json_object **out, size_t *n)
{
	struct json_object *in;

	*out = NULL;
	*n = 0;
	if (body == NULL || !json_object_object_get_ex(body, "input", &in) ||
	    in == NULL || !json_object_is_type(in, json_type_array) ||
	    json_object_array_length(in) == 0)
		return fail(c, r, -API_ERR_INVALID_REQUEST, "Objects not "
		    "specified: 'input' must be a non-empty array");
	*n = json_object_array_length(in);
	if (*n > MAX_BATCH_RECORDS)
		return fail(c, r, -API_ERR_INVALID_REQUEST, "Too many records "
		    "in input: %zu (the limit is %d)", *n, MAX_BATCH_RECORDS);
	*out = in;
	return 0;
}

/* The dedupeBy or deleteBy member: false dedupeFields, true idField. */
static int
by_param(struct call *c, struct resp *r, struct json_object *body,
    const char *key, bool *by_guid)
{
	const char *s;
	int err;

	*by_guid = false;
	if ((err = member_str(c, r, body, key, 32, &s)) != 0)
		return err;
	if (s == NULL || strcmp(s, "dedupeFields") == 0)
		return 0;
	if (strcmp(s, "idField") == 0) {
		*by_guid = true;
		return 0;
	}
	return fail(c, r, -API_ERR_INVALID_VALUE, "Invalid value '%s'. "
	    "Required of type '%s' (dedupeFields, idField)", shown(c, s), key);
}

/*
 * Looks up the rows of every pending record by its key: sets id and
 * guid of those found.  Returns 0 or a negative api_err.
 */
static int
find_existing(struct call *c, const struct co_type *t, struct rec *recs,
    size_t n, bool by_guid, bool *found)
{
	const char *keycols[CO_MAX_DEDUPE];
	struct lead_value *keys;
	struct co_rows rows;
	size_t *map, i, j, m = 0, nkey = 0;
	int rr;

	memset(&rows, 0, sizeof(rows));
	if (by_guid)
		keycols[nkey++] = "marketoGUID";
	else
		for (j = 0; j < t->nfields; j++)
			if (t->fields[j].is_dedupe)
				keycols[nkey++] = t->fields[j].name;
	keys = arena_zalloc(&c->app->arena, (n * nkey + 1) * sizeof(*keys));
	map = arena_zalloc(&c->app->arena, (n + 1) * sizeof(*map));
	if (keys == NULL || map == NULL)
		return -API_ERR_SYSTEM;
	for (i = 0; i < n; i++) {
		found[i] = false;
		if (recs[i].state != REC_PENDING)
			continue;
		memcpy(&keys[m * nkey], recs[i].key, nkey * sizeof(*keys));
		map[m++] = i;
	}
	if (m == 0)
		return 0;
	rr = repo_custom_objects_lookup(c->app->db, t, keycols, nkey, keys, m,
	    NULL, 0, 0, 0, &rows);
	if (rr != 0)
		return repo_err_to_api(rr);
	for (i = 0; i < rows.n; i++) {
		struct rec *rc = &recs[map[rows.rows[i].seq]];

		found[map[rows.rows[i].seq]] = true;
		rc->id = rows.rows[i].id;
		memcpy(rc->guid, rows.rows[i].guid, sizeof(rc->guid));
	}
	repo_custom_objects_rows_free(&rows);
	return 0;
}

/*
 * Decides what each pending record becomes and writes them: creates get
 * a new marketoGUID, updates the row found.  With one_by_one a record
 * whose key was taken meanwhile is skipped (1017).  Returns 0,
 * -API_ERR_... or, in batch mode, 1 when a key was taken meanwhile (the
 * caller decides again one by one).
 */
static int
sync_write(struct call *c, const struct co_type *t, struct rec *recs,
    size_t n, enum sync_action act, bool by_guid, bool one_by_one)
{
	struct co_write *cw, *uw;
	size_t *cmap, *umap, i, nc = 0, nu = 0;
	bool *found;
	int err, rr;

	found = arena_zalloc(&c->app->arena, (n + 1) * sizeof(*found));
	cw = arena_zalloc(&c->app->arena, (n + 1) * sizeof(*cw));
	uw = arena_zalloc(&c->app->arena, (n + 1) * sizeof(*uw));
	cmap = arena_zalloc(&c->app->arena, (n + 1) * sizeof(*cmap));
	umap = arena_zalloc(&c->app->arena, (n + 1) * sizeof(*umap));
	if (found == NULL || cw == NULL || uw == NULL || cmap == NULL ||
	    umap == NULL)
		return -API_ERR_SYSTEM;
	for (i = 0; i < n; i++)
		if (recs[i].state == REC_CREATE || recs[i].state == REC_UPDATE)
			recs[i].state = REC_PENDING;
	if ((err = find_existing(c, t, recs, n, by_guid, found)) != 0)
		return err;
	for (i = 0; i < n; i++) {
		struct rec *rc = &recs[i];

		if (rc->state != REC_PENDING)
			continue;
		if (found[i] && act == ACT_CREATE_ONLY) {
			skip(c, rc, 1017, "Object already exists");
			continue;
		}
		if (!found[i] && act == ACT_UPDATE_ONLY) {
			skip(c, rc, 1004, "Lead not found");
			continue;
		}
		if (found[i]) {
			rc->state = REC_UPDATE;
			uw[nu].vals = rc->vals;
			uw[nu].id = rc->id;
			memcpy(uw[nu].guid, rc->guid, sizeof(rc->guid));
			uw[nu].by_update = rc->key_change;
			umap[nu++] = i;
		} else {
			rc->state = REC_CREATE;
			co_guid_new(rc->guid);
			cw[nc].vals = rc->vals;
			memcpy(cw[nc].guid, rc->guid, sizeof(rc->guid));
			cmap[nc++] = i;
		}
	}
	rr = repo_custom_objects_write(c->app->db, t, cw, nc, uw, nu,
	    one_by_one);
	if (rr == -REPO_ERR_CONFLICT && !one_by_one)
		return 1;
	if (rr != 0)
		return repo_err_to_api(rr);
	for (i = 0; i < nc; i++)
		if (cw[i].conflict)
			skip(c, &recs[cmap[i]], 1017, "Object already exists");
	for (i = 0; i < nu; i++)
		if (uw[i].conflict)
			skip(c, &recs[umap[i]], 1017, "Object already exists");
	return 0;
}

/*
 * POST /rest/v1/customobjects/{customObjectName}.json: Sync Custom
 * Objects.  Records are checked in C first; then one lookup, one
 * multi-row INSERT and one multi-row upsert write the batch.
 */
int
api_co_sync(struct call *c, struct resp *r)
{
	struct json_object *body = body_object(c), *in, *o;
	enum sync_action act;
	struct co_type t;
	struct rec *recs;
	bool by_guid;
	size_t n, i;
	int err;

	memset(&t, 0, sizeof(t));
	if (body == NULL) {
		err = fail(c, r, -API_ERR_INVALID_REQUEST, "The request body "
		    "must be a JSON object");
		goto out;
	}
	if ((err = action_param(c, r, body, &act)) != 0 ||
	    (err = by_param(c, r, body, "dedupeBy", &by_guid)) != 0 ||
	    (err = records_input(c, r, body, &in, &n)) != 0)
		goto out;
	if (by_guid && act != ACT_UPDATE_ONLY) {
		err = fail(c, r, -API_ERR_INVALID_REQUEST, "dedupeBy idField "
		    "is only valid with action updateOnly");
		goto out;
	}
	if ((err = records_type(c, r, &t)) != 0)
		goto out;
	if ((recs = arena_zalloc(&c->app->arena, n * sizeof(*recs))) == NULL) {
		err = -API_ERR_SYSTEM;
		goto out;
	}
	for (i = 0; i < n; i++)
		read_record(c, &t, json_object_array_get_idx(in, i), by_guid,
		    &recs[i]);
	if ((err = skip_duplicates(c, recs, n)) != 0 ||
	    (err = check_links(c, &t, recs, n)) != 0)
		goto out;
	/* A key taken by a concurrent sync: decide again, one by one. */
	if ((err = sync_write(c, &t, recs, n, act, by_guid, false)) == 1)
		err = sync_write(c, &t, recs, n, act, by_guid, true);
	if (err != 0)
		goto out;
	for (i = 0; i < n; i++) {
		if (recs[i].state == REC_SKIPPED) {
			resp_add(r, skipped_json(i, recs[i].code, recs[i].msg));
			continue;
		}
		o = json_object_new_object();
		json_object_object_add(o, "seq",
		    json_object_new_int64((int64_t)i));
		json_object_object_add(o, "status", json_object_new_string(
		    recs[i].state == REC_CREATE ? "created" : "updated"));
		json_object_object_add(o, "marketoGUID",
		    json_object_new_string(recs[i].guid));
		resp_add(r, o);
	}
	err = 0;
out:
	co_type_clear(&t);
	return err;
}

/*
 * POST /rest/v1/customobjects/{customObjectName}/delete.json: deletes by
 * dedupe key or marketoGUID; unknown keys are skipped (1013).
 */
int
api_co_delete(struct call *c, struct resp *r)
{
	struct json_object *body = body_object(c), *in, *o;
	struct co_type t;
	struct rec *recs;
	int64_t *ids = NULL;
	bool by_guid, *found;
	size_t n, i, m = 0;
	int err, rr;

	memset(&t, 0, sizeof(t));
	if ((err = by_param(c, r, body, "deleteBy", &by_guid)) != 0 ||
	    (err = records_input(c, r, body, &in, &n)) != 0 ||
	    (err = records_type(c, r, &t)) != 0)
		goto out;
	recs = arena_zalloc(&c->app->arena, n * sizeof(*recs));
	found = arena_zalloc(&c->app->arena, n * sizeof(*found));
	ids = arena_zalloc(&c->app->arena, n * sizeof(*ids));
	if (recs == NULL || found == NULL || ids == NULL) {
		err = -API_ERR_SYSTEM;
		goto out;
	}
	for (i = 0; i < n; i++)
		read_record(c, &t, json_object_array_get_idx(in, i), by_guid,
		    &recs[i]);
	if ((err = skip_duplicates(c, recs, n)) != 0 ||
	    (err = find_existing(c, &t, recs, n, by_guid, found)) != 0)
		goto out;
	for (i = 0; i < n; i++) {
		if (recs[i].state != REC_PENDING)
			continue;
		if (!found[i]) {
			skip(c, &recs[i], 1013, "Object not found");
			continue;
		}
		recs[i].state = REC_DONE;
		ids[m++] = recs[i].id;
	}
	rr = repo_custom_objects_delete_ids(c->app->db, &t, ids, m);
	if (rr != 0) {
		err = repo_err_to_api(rr);
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (recs[i].state == REC_SKIPPED) {
			resp_add(r, skipped_json(i, recs[i].code, recs[i].msg));
			continue;
		}
		o = json_object_new_object();
		json_object_object_add(o, "seq",
		    json_object_new_int64((int64_t)i));
		json_object_object_add(o, "marketoGUID",
		    json_object_new_string(recs[i].guid));
		json_object_object_add(o, "status",
		    json_object_new_string("deleted"));
		resp_add(r, o);
	}
	err = 0;
out:
	co_type_clear(&t);
	return err;
}

/* A column a Get may return: a system column or a field. */
struct out_col {
	const char		*name;	/* canonical column name */
	const struct co_field	*f;	/* NULL for system columns */
	bool			 is_time;
};

/* Resolves a requested field name; 1006 when the type has none. */
static int
out_col(struct call *c, struct resp *r, const struct co_type *t,
    const char *name, struct out_col *oc)
{
	static const char *const sys[] = { "marketoGUID", "createdAt",
	    "updatedAt" };
	size_t i;

	memset(oc, 0, sizeof(*oc));
	for (i = 0; i < sizeof(sys) / sizeof(sys[0]); i++)
		if (strcasecmp(name, sys[i]) == 0) {
			oc->name = sys[i];
			oc->is_time = i > 0;
			return 0;
		}
	if ((oc->f = co_type_field(t, name)) == NULL)
		return fail(c, r, -API_ERR_FIELD_NOT_FOUND, "Field '%s' not "
		    "found", shown(c, name));
	oc->name = oc->f->name;
	return 0;
}

/* The JSON of a column read as text (json null for NULL). */
static struct json_object *
col_json(const struct out_col *oc, const char *text, size_t len)
{
	struct lead_field lf;
	struct co_field tf;

	if (text == NULL)
		return NULL;
	if (oc->f != NULL) {
		co_field_as_lead(oc->f, &lf);
		return lead_value_json(&lf, text, len);
	}
	if (oc->is_time) {
		memset(&tf, 0, sizeof(tf));
		tf.type = CO_DATETIME;
		tf.name = (char *)(uintptr_t)oc->name;
		co_field_as_lead(&tf, &lf);
		return lead_value_json(&lf, text, len);
	}
	return json_object_new_string_len(text, (int)len);
}

/* A list member of the body (strings), or the list parameter. */
static int
list_arg(struct call *c, struct resp *r, struct json_object *body,
    const char *key, const char ***out, int *n)
{
	struct json_object *a, *v;
	size_t i, len;

	*out = NULL;
	*n = 0;
	if (body != NULL && json_object_object_get_ex(body, key, &a) &&
	    a != NULL) {
		if (!json_object_is_type(a, json_type_array))
			return fail(c, r, -API_ERR_INVALID_VALUE,
			    "Invalid value for '%s': an array expected", key);
		len = json_object_array_length(a);
		if (len > MAX_LIST_ITEMS)
			return fail(c, r, -API_ERR_INVALID_REQUEST, "Too many "
			    "items in '%s'", key);
		*out = arena_zalloc(&c->app->arena, (len + 1) *
		    sizeof(**out));
		if (*out == NULL)
			return -API_ERR_SYSTEM;
		for (i = 0; i < len; i++) {
			v = json_object_array_get_idx(a, i);
			if (v == NULL || !json_object_is_type(v,
			    json_type_string))
				return fail(c, r, -API_ERR_INVALID_VALUE,
				    "Invalid value for '%s': strings expected",
				    key);
			(*out)[i] = json_object_get_string(v);
		}
		*n = (int)len;
		return 0;
	}
	*n = req_param_list(c->req, key, out);
	return *n < 0 ? *n : 0;
}

/* A scalar member of the body as text, or the parameter. */
static const char *
scalar_arg(struct call *c, struct json_object *body, const char *key)
{
	struct json_object *v;

	if (body != NULL && json_object_object_get_ex(body, key, &v) &&
	    v != NULL && !json_object_is_type(v, json_type_object) &&
	    !json_object_is_type(v, json_type_array))
		return arena_strdup(&c->app->arena, json_object_get_string(v));
	return req_param(c->req, key);
}

/*
 * GET /rest/v1/customobjects/{customObjectName}.json (also POST
 * ?_method=GET with a JSON body for compound keys): records by
 * filterType/filterValues or by input keys, `fields`, `batchSize`,
 * `nextPageToken`.  Each result carries the seq of the value it matched.
 */
int
api_co_get(struct call *c, struct resp *r)
{
	struct json_object *body = body_object(c), *input = NULL, *o, *v;
	const struct co_field *keyf[CO_MAX_DEDUPE];
	const char *keycols[CO_MAX_DEDUPE], **fnames = NULL, **vals = NULL;
	const char *ftype, *s, **cols;
	struct out_col *oc;
	struct co_type t;
	struct co_rows rows;
	struct lead_value *keys;
	size_t *map, nkey = 0, nin, i, j, m = 0, ncols = 0, shown_n;
	int64_t batch = MAX_BATCH_SIZE, after = 0;
	uint32_t sig;
	char tok[PAGE_TOKEN_BYTES];
	int nf, nv, err, rr;

	memset(&t, 0, sizeof(t));
	memset(&rows, 0, sizeof(rows));
	if ((err = records_type(c, r, &t)) != 0)
		goto out;
	if (body != NULL && json_object_object_get_ex(body, "input", &input) &&
	    input != NULL && !json_object_is_type(input, json_type_array)) {
		err = fail(c, r, -API_ERR_INVALID_VALUE, "Invalid value for "
		    "'input': an array expected");
		goto out;
	}
	ftype = scalar_arg(c, body, "filterType");
	if ((ftype == NULL || ftype[0] == '\0') && input != NULL)
		ftype = "dedupeFields";
	if (ftype == NULL || ftype[0] == '\0') {
		err = fail(c, r, -API_ERR_MISSING_PARAM, "Missing value for "
		    "the required parameter 'filterType'");
		goto out;
	}
	/* The searchable fields (§6.2): idField, the dedupe key, links. */
	if (strcmp(ftype, "idField") == 0 ||
	    strcasecmp(ftype, "marketoGUID") == 0) {
		keycols[nkey] = "marketoGUID";
		keyf[nkey++] = NULL;
	} else if (strcmp(ftype, "dedupeFields") == 0) {
		for (j = 0; j < t.nfields; j++)
			if (t.fields[j].is_dedupe) {
				keycols[nkey] = t.fields[j].name;
				keyf[nkey++] = &t.fields[j];
			}
	} else {
		const struct co_field *f = co_type_field(&t, ftype);

		if (f == NULL || !(f->is_link || (f->is_dedupe &&
		    co_type_ndedupe(&t) == 1))) {
			err = fail(c, r, -API_ERR_FIELD_NOT_SUPPORTED, "Field "
			    "'%s' not supported", shown(c, ftype));
			goto out;
		}
		keycols[nkey] = f->name;
		keyf[nkey++] = f;
	}
	/* The values: input objects, or filterValues. */
	if (input != NULL) {
		nin = json_object_array_length(input);
	} else {
		if (nkey > 1) {
			err = fail(c, r, -API_ERR_INVALID_REQUEST, "A compound "
			    "key is looked up with an 'input' array of "
			    "objects (POST ?_method=GET with a JSON body)");
			goto out;
		}
		if ((err = list_arg(c, r, body, "filterValues", &vals,
		    &nv)) != 0)
			goto out;
		nin = (size_t)nv;
	}
	if (nin == 0) {
		err = fail(c, r, -API_ERR_MISSING_PARAM, "Missing value for "
		    "the required parameter '%s'", input != NULL ? "input" :
		    "filterValues");
		goto out;
	}
	if (nin > MAX_FILTER_VALUES) {
		err = fail(c, r, -API_ERR_INVALID_REQUEST, "Too many filter "
		    "values: %zu (the limit is %d)", nin, MAX_FILTER_VALUES);
		goto out;
	}
	keys = arena_zalloc(&c->app->arena, nin * nkey * sizeof(*keys));
	map = arena_zalloc(&c->app->arena, nin * sizeof(*map));
	if (keys == NULL || map == NULL) {
		err = -API_ERR_SYSTEM;
		goto out;
	}
	sig = page_token_sig(PAGE_TOKEN_SIG_INIT, t.api_name,
	    strlen(t.api_name));
	sig = page_token_sig(sig, ftype, strlen(ftype));
	for (i = 0; i < nin; i++) {
		bool null = false;

		for (j = 0; j < nkey; j++) {
			struct lead_value *kv = &keys[m * nkey + j];
			struct json_object *tmp = NULL;

			if (input != NULL) {
				o = json_object_array_get_idx(input, i);
				if (o == NULL || !json_object_is_type(o,
				    json_type_object) ||
				    !json_object_object_get_ex(o, keycols[j],
				    &v)) {
					err = fail(c, r,
					    -API_ERR_INVALID_REQUEST, "Each "
					    "input must give '%s'", keycols[j]);
					goto out;
				}
			} else {
				tmp = json_object_new_string(vals[i]);
				v = tmp;
			}
			if (keyf[j] == NULL)
				rr = parse_guid(c, v, kv);
			else
				rr = co_value_parse(keyf[j], v,
				    &c->app->arena, kv);
			s = lead_value_text(v, &c->app->arena);
			json_object_put(tmp);
			if (rr != 0) {
				err = fail(c, r, -API_ERR_INVALID_REQUEST,
				    "Invalid value for field '%s' and value "
				    "'%s'", keycols[j], shown(c, s));
				goto out;
			}
			sig = page_token_sig(sig, s, strlen(s));
			if (kv->kind == LV_NULL)
				null = true;
		}
		/* A value with an empty part matches no record. */
		if (!null)
			map[m++] = i;
	}
	/* fields, batchSize, nextPageToken. */
	if ((err = list_arg(c, r, body, "fields", &fnames, &nf)) != 0)
		goto out;
	oc = arena_zalloc(&c->app->arena, ((size_t)nf + 4 + t.nfields) *
	    sizeof(*oc));
	cols = arena_zalloc(&c->app->arena, ((size_t)nf + 4 + t.nfields) *
	    sizeof(*cols));
	if (oc == NULL || cols == NULL) {
		err = -API_ERR_SYSTEM;
		goto out;
	}
	if (nf == 0) {
		(void)out_col(c, r, &t, "marketoGUID", &oc[ncols++]);
		for (j = 0; j < t.nfields; j++)
			if (t.fields[j].is_dedupe)
				(void)out_col(c, r, &t, t.fields[j].name,
				    &oc[ncols++]);
		(void)out_col(c, r, &t, "updatedAt", &oc[ncols++]);
		(void)out_col(c, r, &t, "createdAt", &oc[ncols++]);
	} else {
		for (i = 0; i < (size_t)nf; i++) {
			if ((err = out_col(c, r, &t, fnames[i],
			    &oc[ncols])) != 0)
				goto out;
			for (j = 0; j < ncols; j++)
				if (strcmp(oc[j].name, oc[ncols].name) == 0)
					break;
			if (j == ncols)
				ncols++;
		}
	}
	for (j = 0; j < ncols; j++)
		cols[j] = oc[j].name;
	if ((s = scalar_arg(c, body, "batchSize")) != NULL && s[0] != '\0' &&
	    num_parse_i64(s, 1, MAX_BATCH_SIZE, &batch) != 0) {
		err = fail(c, r, -API_ERR_INVALID_REQUEST, "Invalid batchSize "
		    "'%s': 1 to %d", shown(c, s), MAX_BATCH_SIZE);
		goto out;
	}
	if ((s = scalar_arg(c, body, "nextPageToken")) != NULL &&
	    s[0] != '\0' && page_token_decode(s, TOKEN_KIND_CO, sig,
	    &after) != 0) {
		err = fail(c, r, -API_ERR_INVALID_REQUEST, "Invalid "
		    "nextPageToken");
		goto out;
	}
	if (m > 0) {
		rr = repo_custom_objects_lookup(c->app->db, &t, keycols, nkey,
		    keys, m, cols, ncols, after, (size_t)batch + 1, &rows);
		if (rr != 0) {
			err = repo_err_to_api(rr);
			goto out;
		}
	}
	shown_n = rows.n > (size_t)batch ? (size_t)batch : rows.n;
	for (i = 0; i < shown_n; i++) {
		const struct co_row *row = &rows.rows[i];

		o = json_object_new_object();
		json_object_object_add(o, "seq",
		    json_object_new_int64((int64_t)map[row->seq]));
		json_object_object_add(o, "marketoGUID",
		    json_object_new_string(row->guid));
		for (j = 0; j < ncols; j++)
			if (strcmp(oc[j].name, "marketoGUID") != 0)
				json_object_object_add(o, oc[j].name,
				    col_json(&oc[j], row->vals[j],
				    row->lens[j]));
		resp_add(r, o);
	}
	r->more_result = rows.n > (size_t)batch;
	if (rows.n > (size_t)batch) {
		page_token_encode(TOKEN_KIND_CO, sig,
		    rows.rows[shown_n - 1].id, tok);
		r->next_page_token = arena_strdup(&c->app->arena, tok);
	}
	err = 0;
out:
	repo_custom_objects_rows_free(&rows);
	co_type_clear(&t);
	return err;
}
