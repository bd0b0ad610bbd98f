/*
 * Custom Object types (docs/behaviour.md §6): the type metadata API under
 * /rest/v1/customobjects/schema... (draft -> approved -> approvedWithDraft,
 * the rules of §6.1); the records API is api_co_records.c.  Input is
 * checked here; the rules of type changes are in model/cotype.c and run on
 * the draft inside the repository's transaction (repo_co_types.c, repo_co_records.c).
 *
 * Error codes the Custom Objects files choose where the service documents
 * none:
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
 *        record batch (more than 300 records, no input), a bad value;
 *        a type smart list rules use (its custom object filter) cannot be
 *        deleted, nor a field their conditions read dropped or renamed by
 *        a draft ("... is used by N smart lists or smart campaigns (see
 *        dependentAssets)").
 * Dependent Assets: one entry per smart list whose rules use the type,
 * {assetType "Smart List"|"Smart Campaign", assetId, assetName
 * ("<program>." when in a program, " (Smart List)" after a campaign's),
 * usedFields (the API names its conditions read)}.
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
#include "api/api_co_types.h"
#include "api/api_common.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "http/validate.h"
#include "bounds.h"
#include "model/cotype.h"
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_co_types.h"
#include "repo/repo_smart_lists.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/num.h"
#include "util/pagetoken.h"
#include "util/xmalloc.h"

#define MSG_BYTES	256

/* The input array of a fields body: 1..CO_MAX_FIELDS objects. */
static const struct api_input input_rule = {
	.max = CO_MAX_FIELDS,
	.missing_err = -API_ERR_MISSING_PARAM,
	.missing_msg = "Missing value for the required parameter 'input'",
	.type_err = -API_ERR_INVALID_VALUE,
	.type_msg = "Invalid value for 'input': an array expected",
	.max_err = -API_ERR_INVALID_REQUEST,
	.max_msg = "A custom object type has at most " API_STR(CO_MAX_FIELDS)
	    " fields",
};

/* A name (apiName, field name): 1002 when missing, 1001 when bad. */
int
api_co_types_check_name(struct call *c, struct resp *r, const char *what, const char *s)
{
	char msg[MSG_BYTES];

	if (s == NULL || s[0] == '\0')
		return api_common_fail(c, r, -API_ERR_MISSING_PARAM, "Missing value for "
		    "the required parameter '%s'", what);
	if (co_name_check(what, s, msg, sizeof(msg)) != NULL)
		return api_common_fail(c, r, -API_ERR_INVALID_VALUE, "%s", msg);
	return 0;
}

/* Maps a repo error of a type operation; NOT_FOUND names the type. */
int
api_co_types_err(struct call *c, struct resp *r, int rerr, const char *name)
{
	if (rerr == -REPO_ERR_NOT_FOUND)
		return api_common_fail(c, r, -API_ERR_OBJECT_NOT_FOUND, "Custom object "
		    "type '%s' not found", api_common_echo(c, name));
	return err_from_repo(rerr);
}

/* ---- Type JSON ------------------------------------------------------ */

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
	enum co_dtype dt;
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
		/* A link shows the type of what it holds: a lead id is an
		 * integer (the documentation's describe of a lead link). */
		dt = f->is_link ? f->key_type : f->type;
		len = dt == CO_STRING || dt == CO_EMAIL || dt == CO_PHONE ?
		    CO_STRING_LENGTH : 0;
		json_object_array_add(a, field_json(f->name, f->display_name,
		    f->description, co_dtype_name(dt), len, !f->is_dedupe));
	}
	return a;
}

/*
 * The display name of a link target: "Lead" and "Company" for the
 * standard objects (§6.1 sample), a custom object's API name.
 */
static const char *
related_name(const struct co_field *f)
{
	if (f->related_object == NULL)
		return "";
	if (strcasecmp(f->related_object, "lead") == 0)
		return "Lead";
	if (strcasecmp(f->related_object, "company") == 0)
		return "Company";
	return f->related_object;
}

struct json_object *
api_co_types_json(const struct co_type *t, enum co_shape shape)
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
	    api_common_str_or_null(t->display_name));
	json_object_object_add(o, "pluralName", api_common_str_or_null(t->plural_name));
	json_object_object_add(o, "description", api_common_str_or_null(t->description));
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
	    api_common_time_json(t->created_at) : NULL);
	json_object_object_add(o, "updatedAt", t->approved ?
	    api_common_time_json(t->updated_at) : NULL);
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
	static const char *const states[] = { "draft", "approvedWithDraft",
	    "approved", NULL };
	static const struct vparam params[] = {
		{ .name = "state", .type = VP_ENUM, .words = states,
		  .bad_msg = "Invalid value '%s'. Required of type 'state' "
		      "(draft, approved, approvedWithDraft)" },
	};
	struct vvalue v[1];
	int err;

	*ver = CO_VER_DEFAULT;
	*state = NULL;
	if ((err = VALIDATE(c->req, r, params, v)) != 0 || !v[0].present)
		return err;
	*ver = v[0].i == 2 ? CO_VER_APPROVED : CO_VER_DRAFT;
	*state = v[0].s;
	return 0;
}

/*
 * The types named by ?names= (all when absent), each in the version ver
 * (types without it are left out; state approvedWithDraft also leaves
 * out types in another state), as shape.
 */
int
api_co_types_browse(struct call *c, struct resp *r, enum co_ver ver,
    const char *state, bool approved_only, enum co_shape shape)
{
	struct co_type t;
	const char **want = NULL;
	char **names = NULL;
	size_t n = 0, i;
	int nwant, rr, err;

	memset(&t, 0, sizeof(t));
	if ((nwant = req_param_list(c->req, "names", &want)) < 0)
		return nwant;
	if ((rr = repo_co_types_list(c->app->db, &names, &n)) != 0)
		return err_from_repo(rr);
	err = 0;
	for (i = 0; i < n; i++) {
		if (!in_names(want, nwant, names[i]))
			continue;
		rr = repo_co_types_read(c->app->db, names[i],
		    approved_only ? CO_VER_APPROVED : ver, &t);
		if (rr == -REPO_ERR_NOT_FOUND)
			continue;	/* gone meanwhile, or no such version */
		if (rr != 0) {
			err = err_from_repo(rr);
			break;
		}
		if (state == NULL || strcmp(state, "approvedWithDraft") != 0 ||
		    strcmp(t.state, "approvedWithDraft") == 0)
			resp_add(r, api_co_types_json(&t, shape));
		co_type_clear(&t);
	}
	co_type_clear(&t);
	repo_co_types_names_free(names, n);
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
	return api_co_types_browse(c, r, ver, state, false, SHAPE_TYPE);
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
	err = repo_co_types_read(c->app->db, name, ver, &t);
	if (err == -REPO_ERR_NOT_FOUND && ver != CO_VER_DEFAULT &&
	    repo_co_types_read(c->app->db, name, CO_VER_DEFAULT,
	    &t) == 0) {
		co_type_clear(&t);
		return api_common_fail(c, r, -API_ERR_OBJECT_NOT_FOUND, "Custom object "
		    "type '%s' has no %s version", api_common_echo(c, name),
		    ver == CO_VER_DRAFT ? "draft" : "approved");
	}
	if (err != 0) {
		co_type_clear(&t);
		return api_co_types_err(c, r, err, name);
	}
	resp_add(r, api_co_types_json(&t, SHAPE_TYPE));
	co_type_clear(&t);
	return 0;
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

/* {"name","displayName","dataType"}: a field of a linkable object. */
static struct json_object *
linkable_field(const char *name, const char *display, const char *dtype)
{
	struct json_object *f = json_object_new_object();

	json_object_object_add(f, "name", json_object_new_string(name));
	json_object_object_add(f, "displayName",
	    json_object_new_string(display != NULL ? display : name));
	json_object_object_add(f, "dataType", json_object_new_string(dtype));
	return f;
}

/* {"name","displayName","fields":[]}: a linkable object. */
static struct json_object *
linkable_object(struct resp *r, const char *name, const char *display)
{
	struct json_object *o = json_object_new_object(), *a;

	json_object_object_add(o, "name", json_object_new_string(name));
	json_object_object_add(o, "displayName",
	    json_object_new_string(display != NULL ? display : name));
	a = json_object_new_array();
	json_object_object_add(o, "fields", a);
	resp_add(r, o);
	return a;
}

/*
 * GET /rest/v1/customobjects/schema/linkableObjects.json: what a link
 * field may point to, as the documentation's example shows it.  lead,
 * on "Id" or "Email Address" (the standard objects' fields are named by
 * their display names there); company on "Id"; and every approved
 * custom object without a link field of its own, on "marketoGUID" or,
 * when it has exactly one, its dedupe field.
 */
int
api_co_types_linkable(struct call *c, struct resp *r)
{
	struct json_object *a;
	struct co_type t;
	char **names = NULL;
	size_t n = 0, i, j;
	int err = 0, rr;

	memset(&t, 0, sizeof(t));
	a = linkable_object(r, "lead", "Lead");
	json_object_array_add(a, linkable_field(CO_LEAD_ID_DISPLAY, NULL,
	    "integer"));
	json_object_array_add(a, linkable_field(CO_LEAD_EMAIL_DISPLAY, NULL,
	    "email"));
	a = linkable_object(r, "company", "Company");
	json_object_array_add(a, linkable_field(CO_LEAD_ID_DISPLAY, NULL,
	    "integer"));
	if ((rr = repo_co_types_list(c->app->db, &names, &n)) != 0)
		return err_from_repo(rr);
	for (i = 0; i < n && err == 0; i++) {
		rr = repo_co_types_get(c->app->db, names[i], true,
		    &t);
		if (rr != 0 && rr != -REPO_ERR_NOT_FOUND)
			err = err_from_repo(rr);
		else if (rr == 0 && !co_type_has_link(&t)) {
			a = linkable_object(r, t.api_name, t.display_name);
			json_object_array_add(a, linkable_field("marketoGUID",
			    "Marketo GUID", "string"));
			for (j = 0; j < t.nfields &&
			    co_type_ndedupe(&t) == 1; j++)
				if (t.fields[j].is_dedupe)
					json_object_array_add(a,
					    linkable_field(t.fields[j].name,
					    t.fields[j].display_name,
					    co_dtype_name(t.fields[j].type)));
		}
		co_type_clear(&t);
	}
	repo_co_types_names_free(names, n);
	return err;
}

/*
 * One dependent asset: {assetType, assetId, assetName, usedFields} of the
 * list of u (a smart campaign's list is its campaign's "<name> (Smart
 * List)"; in a program, names are "<program>.<name>"), with no fields.
 */
static struct json_object *
dependent_json(const struct repo_sl_co_use *u)
{
	struct json_object *o = json_object_new_object();
	char name[1024];

	snprintf(name, sizeof(name), "%s%s%s%s", u->program != NULL ?
	    u->program : "", u->program != NULL ? "." : "",
	    u->name != NULL ? u->name : "", u->campaign_id != 0 ?
	    " (Smart List)" : "");
	json_object_object_add(o, "assetType", json_object_new_string(
	    u->campaign_id != 0 ? "Smart Campaign" : "Smart List"));
	json_object_object_add(o, "assetId", json_object_new_int(
	    u->campaign_id != 0 ? u->campaign_id : u->list_id));
	json_object_object_add(o, "assetName", json_object_new_string(name));
	json_object_object_add(o, "usedFields", json_object_new_array());
	return o;
}

/*
 * The assets whose smart list rules use type t (its filter, and the
 * fields their conditions read), one per list in list order, into r.
 */
static int
dependent_assets(struct call *c, const struct co_type *t, struct resp *r)
{
	struct repo_sl_co_use *u;
	struct json_object *o = NULL, *fields = NULL, *f;
	size_t n, i, j;
	bool seen;
	int rr;

	if ((rr = repo_sl_co_uses(c->app->db, &c->app->arena,
	    (int32_t)t->id, false, &u, &n)) != 0)
		return err_from_repo(rr);
	for (i = 0; i < n; i++) {
		if (i == 0 || u[i].list_id != u[i - 1].list_id) {
			o = dependent_json(&u[i]);
			json_object_object_get_ex(o, "usedFields", &fields);
			resp_add(r, o);
		}
		if (u[i].field == NULL)
			continue;
		seen = false;
		for (j = 0; j < json_object_array_length(fields) && !seen;
		    j++) {
			f = json_object_array_get_idx(fields, j);
			seen = strcmp(json_object_get_string(f),
			    u[i].field) == 0;
		}
		if (!seen)
			json_object_array_add(fields,
			    json_object_new_string(u[i].field));
	}
	return 0;
}

/* GET /rest/v1/customobjects/schema/{apiName}/dependentAssets.json */
int
api_co_types_dependents(struct call *c, struct resp *r)
{
	const char *name = c->req->path_params[0];
	struct co_type t;
	int err;

	err = repo_co_types_read(c->app->db, name, CO_VER_DEFAULT,
	    &t);
	if (err == 0)
		err = dependent_assets(c, &t, r);
	else
		err = api_co_types_err(c, r, err, name);
	co_type_clear(&t);
	return err;
}

/* ---- Changing types ------------------------------------------------- */

/* Copies e's refusal into r. */
static int
edit_fail(struct call *c, struct resp *r, const struct co_edit *e)
{
	/* No err: the repository refused (a field smart lists use). */
	return api_common_fail(c, r, e->err != 0 ? e->err :
	    -API_ERR_INVALID_REQUEST, "%s", e->msg);
}

/* Runs an edit and maps its result. */
static int
run_edit(struct call *c, struct resp *r, const char *name, struct co_edit *e)
{
	int rr;

	rr = repo_co_types_edit(c->app->db, name, e);
	if (rr == -REPO_ERR_INVALID)
		return edit_fail(c, r, e);
	if (rr == -REPO_ERR_CONFLICT && e->display_taken[0] != '\0')
		return api_common_fail(c, r, -API_ERR_INVALID_REQUEST,
		    "displayName is already used by custom object type '%s'",
		    e->display_taken);
	if (rr != 0)
		return api_co_types_err(c, r, rr, name);
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
	enum api_action	 action;
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
	struct json_object *body = api_common_body_object(c);
	struct sync_type_in in;
	struct co_edit e;
	int err;

	memset(&in, 0, sizeof(in));
	memset(&e, 0, sizeof(e));
	if (body == NULL)
		return api_common_fail(c, r, -API_ERR_INVALID_REQUEST, "The request body "
		    "must be a JSON object");
	if ((err = api_common_action(c, r, body, &in.action)) != 0 ||
	    (err = api_common_member_str(c, r, body, "apiName", CO_NAME_MAX * 4,
	    &in.api_name)) != 0 ||
	    (err = api_co_types_check_name(c, r, "apiName", in.api_name)) != 0 ||
	    (err = api_common_member_str(c, r, body, "displayName", CO_DISPLAY_MAX,
	    &in.display)) != 0 ||
	    (err = api_common_member_str(c, r, body, "pluralName", CO_DISPLAY_MAX,
	    &in.plural)) != 0 ||
	    (err = api_common_member_str(c, r, body, "description", CO_DESCRIPTION_MAX,
	    &in.desc)) != 0 ||
	    (err = api_common_member_bool(c, r, body, "showInLeadDetail", &in.show,
	    &in.has_show)) != 0)
		return err;
	if (strcasecmp(in.api_name, "lead") == 0)
		return api_common_fail(c, r, -API_ERR_INVALID_VALUE, "Invalid apiName "
		    "'%s': the name of a standard object",
		    api_common_echo(c, in.api_name));
	if (in.display != NULL && in.display[0] == '\0')
		return api_common_fail(c, r, -API_ERR_MISSING_PARAM, "Missing value for "
		    "the required parameter 'displayName'");
	if (in.display == NULL && in.action == ACT_CREATE_ONLY)
		return api_common_fail(c, r, -API_ERR_MISSING_PARAM, "Missing value for "
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

/* Whether field names key (no case), by API or display name. */
static bool
is_key(const char *field, const char *api, const char *display)
{
	return strcasecmp(field, api) == 0 || strcasecmp(field, display) == 0;
}

/* Sets f's link to a standard object's key (static strings). */
static int
link_standard(struct call *c, struct resp *r, const char *name,
    const char *field, struct co_field *f)
{
	bool lead = strcasecmp(name, "lead") == 0;

	f->related_object = (char *)(uintptr_t)(lead ? "lead" : "company");
	if (is_key(field, "id", CO_LEAD_ID_DISPLAY)) {
		f->related_field = (char *)(uintptr_t)"id";
		f->key_type = CO_INTEGER;
		return 0;
	}
	if (lead && is_key(field, "email", CO_LEAD_EMAIL_DISPLAY)) {
		f->related_field = (char *)(uintptr_t)"email";
		f->key_type = CO_EMAIL;
		return 0;
	}
	return api_common_fail(c, r, -API_ERR_INVALID_REQUEST, "A link to %s "
	    "is made on %s, not '%s'", name, lead ? "'" CO_LEAD_ID_DISPLAY
	    "' or '" CO_LEAD_EMAIL_DISPLAY "'" : "'" CO_LEAD_ID_DISPLAY "'",
	    api_common_echo(c, field));
}

/*
 * Resolves relatedTo {name, field} of a link field into f: a lead by its
 * id or email address, a company by its id, or an approved custom object
 * without links of its own by its marketoGUID or its one dedupe field
 * (what Get Custom Object Linkable Objects lists).
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
		return api_common_fail(c, r, -API_ERR_INVALID_VALUE, "Invalid value for "
		    "'relatedTo': an object {\"name\",\"field\"} expected");
	if ((err = api_common_member_str(c, r, rel, "name", CO_NAME_MAX, &name)) != 0 ||
	    (err = api_common_member_str(c, r, rel, "field", CO_NAME_MAX, &field)) != 0)
		return err;
	if (name == NULL || name[0] == '\0')
		return api_common_fail(c, r, -API_ERR_MISSING_PARAM, "Missing value for "
		    "the required parameter 'relatedTo.name'");
	if (field == NULL || field[0] == '\0')
		return api_common_fail(c, r, -API_ERR_MISSING_PARAM, "Missing value for "
		    "the required parameter 'relatedTo.field'");
	if (strcasecmp(name, "lead") == 0 || strcasecmp(name, "company") == 0)
		return link_standard(c, r, name, field, f);
	rr = repo_co_types_get(c->app->db, name, true, &t);
	if (rr == -REPO_ERR_NOT_FOUND) {
		err = api_common_fail(c, r, -API_ERR_INVALID_REQUEST, "Linked object "
		    "'%s' not found: a link goes to lead, company or an "
		    "approved custom object type", api_common_echo(c, name));
		goto out;
	}
	if (rr != 0) {
		err = err_from_repo(rr);
		goto out;
	}
	if (co_type_has_link(&t)) {
		err = api_common_fail(c, r, -API_ERR_INVALID_REQUEST, "Custom object type "
		    "'%s' has a link field itself and cannot be linked to",
		    t.api_name);
		goto out;
	}
	for (i = 0; i < t.nfields; i++)
		if (t.fields[i].is_dedupe)
			k = &t.fields[i];
	if (strcasecmp(field, "marketoGUID") == 0) {
		f->related_field = arena_strdup(&c->app->arena, "marketoGUID");
		f->key_type = CO_STRING;
	} else if (co_type_ndedupe(&t) == 1 && k != NULL &&
	    strcasecmp(k->name, field) == 0) {
		f->related_field = arena_strdup(&c->app->arena, k->name);
		f->key_type = k->type;
	} else {
		err = api_common_fail(c, r, -API_ERR_INVALID_REQUEST, "A link to custom "
		    "object type '%s' is made on marketoGUID or its one dedupe "
		    "field, not '%s'", t.api_name, api_common_echo(c, field));
		goto out;
	}
	f->related_object = arena_strdup(&c->app->arena, t.api_name);
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
		return api_common_fail(c, r, -API_ERR_INVALID_REQUEST, "Each field must "
		    "be a JSON object");
	if ((err = api_common_member_str(c, r, o, "name", CO_NAME_MAX * 4, &name)) != 0 ||
	    (err = api_common_member_str(c, r, o, "displayName", CO_DISPLAY_MAX,
	    &display)) != 0 ||
	    (err = api_common_member_str(c, r, o, "dataType", 32, &dtype)) != 0 ||
	    (err = api_common_member_str(c, r, o, "description", CO_DESCRIPTION_MAX,
	    &desc)) != 0 ||
	    (err = api_common_member_bool(c, r, o, "isDedupeField", &dedupe, &has)) != 0)
		return err;
	if (!update || name != NULL) {
		if ((err = api_co_types_check_name(c, r, "name", name)) != 0)
			return err;
		if (co_is_system_field(name))
			return api_common_fail(c, r, -API_ERR_INVALID_VALUE,
			    "Invalid name '%s': a name every record has",
			    api_common_echo(c, name));
		out->f.name = (char *)(uintptr_t)name;
		out->mask |= CO_UPD_NAME;
	}
	if (!update && (display == NULL || display[0] == '\0'))
		return api_common_fail(c, r, -API_ERR_MISSING_PARAM, "Missing value for "
		    "the required parameter 'displayName'");
	if (display != NULL) {
		if (display[0] == '\0')
			return api_common_fail(c, r, -API_ERR_MISSING_PARAM, "Missing "
			    "value for the required parameter 'displayName'");
		out->f.display_name = (char *)(uintptr_t)display;
		out->mask |= CO_UPD_DISPLAY;
	}
	if (!update && dtype == NULL)
		return api_common_fail(c, r, -API_ERR_MISSING_PARAM, "Missing value for "
		    "the required parameter 'dataType'");
	if (dtype != NULL) {
		if (co_dtype_parse(dtype, &out->f.type) != 0)
			return api_common_invalid(c, r, dtype, "dataType");
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
			return api_common_fail(c, r, -API_ERR_INVALID_REQUEST, "relatedTo "
			    "is only for fields of dataType 'link'");
		if ((err = resolve_link(c, r, rel, &out->f)) != 0)
			return err;
		out->mask |= CO_UPD_LINK;
	} else if (!update && out->f.is_link)
		return api_common_fail(c, r, -API_ERR_MISSING_PARAM, "Missing value for "
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
	if ((err = api_common_input(c, r, &input_rule, &in, &fi.n)) != 0)
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
	struct json_object *body = api_common_body_object(c);
	struct fields_in fi;
	struct field_in f;
	struct co_edit e;
	int err;

	memset(&fi, 0, sizeof(fi));
	memset(&e, 0, sizeof(e));
	fi.api_name = c->req->path_params[0];
	fi.name = c->req->path_params[1];
	if (body == NULL)
		return api_common_fail(c, r, -API_ERR_INVALID_REQUEST, "The request body "
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
	if ((err = api_common_input(c, r, &input_rule, &in, &fi.n)) != 0)
		return err;
	fi.f = arena_zalloc(&c->app->arena, fi.n * sizeof(*fi.f));
	if (fi.f == NULL)
		return -API_ERR_SYSTEM;
	for (i = 0; i < fi.n; i++) {
		o = json_object_array_get_idx(in, i);
		if (o == NULL || !json_object_is_type(o, json_type_object))
			return api_common_fail(c, r, -API_ERR_INVALID_REQUEST,
			    "Each field must be a JSON object");
		if ((err = api_common_member_str(c, r, o, "name", CO_NAME_MAX * 4,
		    &name)) != 0 ||
		    (err = api_co_types_check_name(c, r, "name", name)) != 0)
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

	rr = repo_co_types_approve(c->app->db, name, approve_check, &err,
	    msg);
	if (rr == -REPO_ERR_INVALID)
		return api_common_fail(c, r, err != 0 ? err : -API_ERR_INVALID_REQUEST,
		    "%s", msg);
	return rr == 0 ? 0 : api_co_types_err(c, r, rr, name);
}

/* POST /rest/v1/customobjects/schema/{apiName}/discardDraft.json */
int
api_co_types_discard(struct call *c, struct resp *r)
{
	const char *name = c->req->path_params[0];
	int rr;

	rr = repo_co_types_discard(c->app->db, name);
	if (rr == -REPO_ERR_INVALID)
		return -API_ERR_CO_DISCARD;
	return rr == 0 ? 0 : api_co_types_err(c, r, rr, name);
}

/*
 * POST /rest/v1/customobjects/schema/{apiName}/delete.json: refused while
 * smart list rules use the type (checked in the deletion's transaction)
 * or another type links to it.
 */
int
api_co_types_delete(struct call *c, struct resp *r)
{
	const char *name = c->req->path_params[0];
	struct co_type t;
	char msg[MSG_BYTES];
	int rr;

	rr = repo_co_types_read(c->app->db, name, CO_VER_DEFAULT, &t);
	co_type_clear(&t);
	if (rr != 0)
		return api_co_types_err(c, r, rr, name);
	rr = repo_co_types_delete(c->app->db, name, msg);
	if (rr == -REPO_ERR_INVALID)
		return api_common_fail(c, r, -API_ERR_INVALID_REQUEST, "%s", msg);
	return rr == 0 ? 0 : api_co_types_err(c, r, rr, name);
}

