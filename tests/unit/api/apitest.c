/*
 * Shared pieces of the handler unit tests (apitest.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "api/api_leads_catalog.h"
#include "apitest.h"
#include "http/router.h"
#include "model/cotype.h"
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_email_templates.h"
#include "repo/repo_folders.h"
#include "util/arena.h"
#include "util/xmalloc.h"

struct app	apitest_app;
struct req	apitest_req;
struct call	apitest_call;
struct resp	apitest_resp;
struct apitest_catalog apitest_catalog;
struct apitest_place apitest_place;

/* The route of apitest_variant. */
static struct route route;

/* More than MAX_LIST_ITEMS, for the tests of list bounds. */
static struct param params[MAX_LIST_ITEMS + 16];

int
apitest_setup(void **state)
{
	(void)state;
	memset(&apitest_app, 0, sizeof(apitest_app));
	memset(&apitest_req, 0, sizeof(apitest_req));
	memset(&apitest_call, 0, sizeof(apitest_call));
	memset(&apitest_catalog, 0, sizeof(apitest_catalog));
	apitest_catalog.version = 1;
	memset(&apitest_place, 0, sizeof(apitest_place));
	arena_init(&apitest_app.arena);
	apitest_req.arena = &apitest_app.arena;
	apitest_req.params = params;
	apitest_req.path = "";
	apitest_req.query = "";
	apitest_call.app = &apitest_app;
	apitest_call.req = &apitest_req;
	apitest_call.request_id = "1a2b#3c4d5e6f7a8";
	resp_init(&apitest_resp);
	return 0;
}

int
apitest_teardown(void **state)
{
	(void)state;
	resp_clear(&apitest_resp);
	json_object_put(apitest_req.json);
	apitest_req.json = NULL;
	api_leads_catalog_free(apitest_app.leads_catalog);
	apitest_app.leads_catalog = NULL;
	arena_clear(&apitest_app.arena);
	return 0;
}

void
apitest_param(const char *name, const char *value)
{
	assert_true(apitest_req.nparams < sizeof(params) / sizeof(params[0]));
	params[apitest_req.nparams].name = name;
	params[apitest_req.nparams].value = value;
	params[apitest_req.nparams].value_len = strlen(value);
	params[apitest_req.nparams].src = PARAM_QUERY;
	apitest_req.nparams++;
}

void
apitest_body(const char *json)
{
	json_object_put(apitest_req.json);
	apitest_req.json = json_tokener_parse(json);
	assert_non_null(apitest_req.json);
	apitest_req.body_kind = BODY_JSON;
}

struct json_object *
apitest_body_input(size_t n, const char *item)
{
	struct json_object *o, *in;
	size_t i;

	o = json_object_new_object();
	in = json_object_new_array();
	for (i = 0; i < n; i++)
		json_object_array_add(in, json_tokener_parse(item));
	json_object_object_add(o, "input", in);
	json_object_put(apitest_req.json);
	apitest_req.json = o;
	apitest_req.body_kind = BODY_JSON;
	return in;
}

void
apitest_no_body(void)
{
	json_object_put(apitest_req.json);
	apitest_req.json = NULL;
	apitest_req.body_kind = BODY_NONE;
}

void
apitest_again(void)
{
	resp_clear(&apitest_resp);
	resp_init(&apitest_resp);
	apitest_req.nparams = 0;
}

void
apitest_variant(int v)
{
	memset(&route, 0, sizeof(route));
	route.pattern = "";
	route.variant = v;
	apitest_call.route = &route;
}

int
apitest_run(api_handler h)
{
	return h(&apitest_call, &apitest_resp);
}

const char *
apitest_result(void)
{
	return apitest_resp.result != NULL ? json_object_to_json_string_ext(
	    apitest_resp.result, JSON_C_TO_STRING_PLAIN) : "(none)";
}

const char *
apitest_member(size_t i, const char *key)
{
	struct json_object *v = NULL;

	assert_true(json_object_object_get_ex(json_object_array_get_idx(
	    apitest_resp.result, i), key, &v));
	return json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
}

void
apitest_fails(api_handler h, const char *json, int err, const char *msg)
{
	resp_clear(&apitest_resp);
	resp_init(&apitest_resp);
	if (json != NULL)
		apitest_body(json);
	assert_int_equal(h(&apitest_call, &apitest_resp), err);
	if (msg != NULL) {
		assert_non_null(apitest_resp.err_msg);
		assert_string_equal(apitest_resp.err_msg, msg);
	}
	assert_null(apitest_resp.result);
}

/* One field of the canned catalogue; soap NULL: none. */
static void
field(struct lead_field *f, const char *name, int32_t attr,
    enum lf_type type, int32_t length, const char *soap, bool ro,
    bool searchable)
{
	memset(f, 0, sizeof(*f));
	f->name = xstrdup(name);
	f->display_name = xstrdup(name);
	f->attr_id = attr;
	f->type = type;
	f->length = length;
	f->soap_name = soap != NULL ? xstrdup(soap) : NULL;
	f->read_only = ro;
	f->searchable = searchable;
	f->is_html_encoding = true;
}

void
apitest_lead_schema(struct lead_schema *out, int64_t version, bool extra)
{
	struct lead_field *f;

	memset(out, 0, sizeof(*out));
	f = xcalloc(12, sizeof(*f));
	field(&f[0], "company", 4, LF_STRING, 255, "Company", false, false);
	f[0].crm_managed = true;
	field(&f[1], "id", 44, LF_INTEGER, 0, "Id", true, true);
	field(&f[2], "firstName", 53, LF_STRING, 255, "FirstName", false,
	    false);
	field(&f[3], "lastName", 55, LF_STRING, 255, "LastName", false,
	    false);
	field(&f[4], "email", 56, LF_EMAIL, 255, "Email", false, true);
	field(&f[5], "createdAt", 130, LF_DATETIME, 0, NULL, true, false);
	field(&f[6], "updatedAt", 131, LF_DATETIME, 0, NULL, true, false);
	field(&f[7], "cookies", 136, LF_STRING, 255, "Cookies", false, true);
	field(&f[8], "leadScore", 146, LF_INTEGER, 0, "LeadScore", false,
	    true);
	field(&f[9], "leadPartitionId", 479, LF_REFERENCE, 0, NULL, false,
	    true);
	field(&f[10], "rating", 1000, LF_SCORE, 0, NULL, false, false);
	f[10].is_custom = f[10].is_api_created = true;
	f[10].description = xstrdup("How warm");
	out->count = 11;
	if (extra) {
		field(&f[11], "favColor", 1001, LF_STRING, 255, NULL, false,
		    false);
		f[11].is_custom = true;
		out->count = 12;
	}
	out->fields = f;
	out->version = version;
	lead_schema_index(out);
}

int
__wrap_repo_lead_fields_version(struct db *db, int64_t *out)
{
	(void)db;
	*out = apitest_catalog.version;
	return 0;
}

int
__wrap_repo_lead_fields_load(struct db *db, struct lead_schema *out)
{
	(void)db;
	apitest_catalog.loads++;
	if (apitest_catalog.err != 0) {
		memset(out, 0, sizeof(*out));
		return apitest_catalog.err;
	}
	apitest_lead_schema(out, apitest_catalog.version,
	    apitest_catalog.extra);
	return 0;
}

void
apitest_co_field(struct co_type *t, const char *name, int type, bool dedupe)
{
	struct co_field *f;

	t->fields = xrealloc(t->fields, (t->nfields + 1) * sizeof(*t->fields));
	f = &t->fields[t->nfields++];
	memset(f, 0, sizeof(*f));
	f->name = xstrdup(name);
	f->display_name = xstrdup(name);
	f->type = (enum co_dtype)type;
	f->is_dedupe = dedupe;
	f->pos = (int32_t)t->nfields;
	if (f->type == CO_LINK) {
		f->is_link = true;
		f->related_object = xstrdup("lead");
		f->related_field = xstrdup("id");
		f->key_type = CO_INTEGER;
	}
}

/* See apitest.h. */
int
__wrap_repo_etpl_get(struct db *db, struct arena *a, int32_t id,
    bool with_content, struct repo_etpl *out)
{
	(void)db;
	(void)a;
	(void)with_content;
	memset(out, 0, sizeof(*out));
	if (id != APITEST_TEMPLATE_ID)
		return -REPO_ERR_NOT_FOUND;
	out->id = id;
	out->name = "Basic";
	return 0;
}

/* See apitest.h. */
int
__wrap_repo_folders_place(struct db *db, const struct folder_ref *ref,
    struct repo_place *out)
{
	(void)db;
	apitest_place.calls++;
	apitest_place.asked = ref->id;
	memset(out, 0, sizeof(*out));
	out->ref = *ref;
	out->kind = (enum folder_kind)apitest_place.kind;
	out->gen = 7;
	return apitest_place.err_from == 0 ||
	    apitest_place.calls >= apitest_place.err_from ?
	    apitest_place.err : 0;
}
