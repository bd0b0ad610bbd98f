/*
 * Landing Page Templates (docs/assets.md, docs/behaviour.md §12): the 12
 * operations under /rest/asset/v1/landingPageTemplate(s).  Parameters are
 * form fields, read from the query string or the body alike; the content
 * upload is a multipart `content` part.
 *
 * Choices where the real service is silent or contradicts itself:
 *   - enableMunchkin defaults to false, as the documentation says (the
 *     swagger says true); templateType defaults to freeForm and takes
 *     "freeform", the documentation's spelling, too;
 *   - queries (by id, by name, browse, content) that find nothing answer
 *     the "No assets found" warning; mutations of a template that does
 *     not exist answer 702 "<id> Landing page template not found";
 *   - browse without status lists each version of a template that has
 *     both (approved first); maxReturn is 1 to 200 (default 20), a value
 *     out of range is 1001; offset is 0 or more;
 *   - a name another template has is 709 "Landing page template name
 *     '<name>' is already in use";
 *   - Update Content without a content part (file or field) is 1002;
 *     content that is not HTML at all is refused when the template is
 *     approved, as the checks of model/lptemplate.c say, not on upload;
 *   - clone copies the approved content when there is one, else the
 *     draft, into a new draft; it takes name (required), folder
 *     (required) and description, and keeps the source's type and
 *     enableMunchkin.
 *
 * A browse of one folder is answered from the worker's page cache
 * (util/pagecache.h) when the same page was answered at the folder's
 * current content generation, which every change of a template in it
 * moves on in the change's transaction (repo_lp_templates.c); the folder
 * row read to check the folder brings the generation, so a kept page
 * costs one primary-key read.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "api/api.h"
#include "api/api_asset.h"
#include "api/api_common.h"
#include "bounds.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "http/router.h"
#include "http/validate.h"
#include "model/asset.h"
#include "model/folder.h"
#include "model/html.h"
#include "model/lptemplate.h"
#include "repo/repo_folders.h"
#include "repo/repo_lp_templates.h"
#include "util/metrics.h"
#include "util/pagecache.h"

/* The url code of landing page templates in the hosted service's UI. */
#define LPT_URL_PREFIX	"LT"

static const char *const type_words[] = { "freeForm", "guided", "freeform",
    NULL };

/* The template's reply object, members in the real service's order. */
static struct json_object *
lpt_json(struct call *c, const struct repo_lpt *t)
{
	struct json_object *o = api_asset_head_json(c, t->id, t->name,
	    t->description, t->created_at, t->updated_at, LPT_URL_PREFIX);

	json_object_object_add(o, "folder", api_asset_folder_json(
	    FOLDER_T_FOLDER, t->folder_id, t->folder_name));
	json_object_object_add(o, "status",
	    json_object_new_string(asset_status_name(t->status)));
	json_object_object_add(o, "workspace",
	    json_object_new_string(t->workspace != NULL ? t->workspace :
	    "Default"));
	json_object_object_add(o, "templateType",
	    json_object_new_string(lpt_type_name(t->type)));
	json_object_object_add(o, "enableMunchkin",
	    json_object_new_boolean(t->enable_munchkin));
	return o;
}

/* The path's template id. */
static int32_t
path_id(const struct call *c)
{
	return (int32_t)c->req->path_ints[0];
}

/* The noun of the 702 "<id> Landing page template not found". */
#define LPT_WHAT	"Landing page template"

/* A repository error of a mutation of template id as the API's. */
static int
mutation_err(struct call *c, struct resp *r, int32_t id, int e,
    const char *msg)
{
	return api_asset_change_err(c, r, e, msg,
	    api_asset_not_found_msg(c, LPT_WHAT, id));
}

/* Reads template id back as the default version shows it, into r. */
static int
answer_template(struct call *c, struct resp *r, int32_t id,
    enum asset_status want)
{
	struct repo_lpt t;
	int e;

	e = repo_lpt_get(c->app->db, &c->app->arena, id, want, false, &t);
	if (e != 0)
		return mutation_err(c, r, id, e, NULL);
	resp_add(r, lpt_json(c, &t));
	return 0;
}

/* ---- Reads ------------------------------------------------------------ */

/* GET /rest/asset/v1/landingPageTemplate/{id}.json?status= */
int
api_lp_templates_get(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "status", .type = VP_ENUM,
		  .words = api_asset_status_words },
	};
	struct vvalue pv[1];
	struct repo_lpt t;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	e = repo_lpt_get(c->app->db, &c->app->arena, path_id(c),
	    api_asset_status(&pv[0]), false, &t);
	if (e == -REPO_ERR_NOT_FOUND)
		return api_asset_none(r);
	if (e != 0)
		return err_from_repo(e);
	resp_add(r, lpt_json(c, &t));
	return 0;
}

/* GET /rest/asset/v1/landingPageTemplate/byName.json?name=&status= */
int
api_lp_templates_get_by_name(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "name", .type = VP_STR, .flags = VPF_REQUIRED,
		  .max = ASSET_NAME_CHARS * 4 },
		{ .name = "status", .type = VP_ENUM,
		  .words = api_asset_status_words },
	};
	struct vvalue pv[2];
	struct repo_lpt t;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	e = repo_lpt_get_by_name(c->app->db, &c->app->arena, pv[0].s,
	    api_asset_status(&pv[1]), &t);
	if (e == -REPO_ERR_NOT_FOUND)
		return api_asset_none(r);
	if (e != 0)
		return err_from_repo(e);
	resp_add(r, lpt_json(c, &t));
	return 0;
}

/*
 * GET /rest/asset/v1/landingPageTemplates.json?maxReturn=&offset=
 * &status=&folder=
 */
int
api_lp_templates_browse(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		API_ASSET_P_MAX_RETURN,
		API_ASSET_P_OFFSET,
		{ .name = "status", .type = VP_ENUM,
		  .words = api_asset_status_words },
		API_ASSET_P_FOLDER_OPT,
	};
	struct vvalue pv[4];
	struct repo_lpt_query q;
	struct repo_lpt *items;
	struct api_asset_browse b;
	char key[96] = "";
	const char *page;
	size_t n, i, len;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0 ||
	    (e = api_asset_browse_query(c, r, AK_LP_TEMPLATE, &pv[0], &pv[1],
	    &pv[3], &b)) != 0)
		return e;
	memset(&q, 0, sizeof(q));
	q.limit = b.limit;
	q.offset = b.offset;
	q.status = api_asset_status(&pv[2]);
	q.folder_id = (int32_t)b.folder.id;
	if (q.folder_id != 0 && b.folder.type == FOLDER_T_FOLDER) {
		snprintf(key, sizeof(key), "lpt/%" PRId32 "/%" PRIu64 "/%d/%"
		    PRId64 "/%d", q.folder_id, b.place.gen, (int)q.status,
		    q.offset, q.limit);
		if (pagecache_get(c->app->pages, key, &c->app->arena, &page,
		    &len) == 0) {
			metrics_page(c->app->metrics, true);
			resp_result_text(r, page, len);
			return 0;
		}
		metrics_page(c->app->metrics, false);
	}
	if ((e = repo_lpt_browse(c->app->db, &c->app->arena, &q, &items,
	    &n)) != 0)
		return err_from_repo(e);
	if (n == 0)
		return api_asset_none(r);
	for (i = 0; i < n; i++)
		resp_add(r, lpt_json(c, &items[i]));
	if (key[0] != '\0' && (page = resp_result_json(r, &len)) != NULL)
		(void)pagecache_put(c->app->pages, key, page, len);
	return 0;
}

/* GET /rest/asset/v1/landingPageTemplate/{id}/content.json?status= */
int
api_lp_templates_content_get(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "status", .type = VP_ENUM,
		  .words = api_asset_status_words },
	};
	struct vvalue pv[1];
	struct json_object *o;
	struct repo_lpt t;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	e = repo_lpt_get(c->app->db, &c->app->arena, path_id(c),
	    api_asset_status(&pv[0]), true, &t);
	if (e == -REPO_ERR_NOT_FOUND)
		return api_asset_none(r);
	if (e != 0)
		return err_from_repo(e);
	o = json_object_new_object();
	json_object_object_add(o, "id", json_object_new_int64(t.id));
	json_object_object_add(o, "status",
	    json_object_new_string(asset_status_name(t.status)));
	json_object_object_add(o, "content",
	    json_object_new_string_len(t.content, (int)t.content_len));
	json_object_object_add(o, "templateType",
	    json_object_new_string(lpt_type_name(t.type)));
	json_object_object_add(o, "enableMunchkin",
	    json_object_new_boolean(t.enable_munchkin));
	resp_add(r, o);
	return 0;
}

/* ---- Create, clone, metadata ------------------------------------------ */

/*
 * The place of a new template from the folder parameter: 1001, 710 or
 * 711 as api_asset_place says.
 */
static int
new_place(struct call *c, struct resp *r, const char *folder,
    struct repo_place *place)
{
	return api_asset_place_param(c, r, folder, AK_LP_TEMPLATE, place);
}

/*
 * POST /rest/asset/v1/landingPageTemplates.json: name, folder,
 * description, templateType, enableMunchkin.
 */
int
api_lp_templates_create(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		API_ASSET_NEW_PARAMS,
		{ .name = "templateType", .type = VP_ENUM,
		  .flags = VPF_NOCASE, .words = type_words,
		  .type_name = "LpTemplateType" },
		{ .name = "enableMunchkin", .type = VP_BOOL },
	};
	struct vvalue pv[5];
	struct repo_lpt_new t;
	struct repo_place place;
	int32_t id;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0 ||
	    (e = new_place(c, r, pv[1].s, &place)) != 0)
		return e;
	memset(&t, 0, sizeof(t));
	t.name = pv[0].s;
	t.description = pv[2].present ? pv[2].s : NULL;
	t.folder_id = (int32_t)place.ref.id;
	t.type = pv[3].present && pv[3].i == 1 ? LPT_GUIDED : LPT_FREE_FORM;
	t.enable_munchkin = pv[4].present && pv[4].b;
	e = repo_lpt_insert(c->app->db, &t, &id);
	if (e == -REPO_ERR_CONFLICT)
		return api_asset_name_taken(c, r, LPT_WHAT, t.name, false);
	if (e == -REPO_ERR_GONE)
		return api_asset_gone(c, r, &place.ref, AK_LP_TEMPLATE, NULL);
	if (e != 0)
		return err_from_repo(e);
	return answer_template(c, r, id, ASSET_ST_ANY);
}

/*
 * POST /rest/asset/v1/landingPageTemplate/{id}/clone.json: name, folder,
 * description.
 */
int
api_lp_templates_clone(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		API_ASSET_NEW_PARAMS,
	};
	struct vvalue pv[3];
	struct repo_lpt_new t;
	struct repo_lpt src;
	struct repo_place place;
	int32_t id = path_id(c), nid;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	e = repo_lpt_get(c->app->db, &c->app->arena, id, ASSET_ST_ANY, false,
	    &src);
	if (e != 0)
		return mutation_err(c, r, id, e, NULL);
	if ((e = new_place(c, r, pv[1].s, &place)) != 0)
		return e;
	memset(&t, 0, sizeof(t));
	t.name = pv[0].s;
	t.description = pv[2].present ? pv[2].s : NULL;
	t.folder_id = (int32_t)place.ref.id;
	t.type = src.type;
	t.enable_munchkin = src.enable_munchkin;
	t.clone_of = id;
	e = repo_lpt_insert(c->app->db, &t, &nid);
	if (e == -REPO_ERR_CONFLICT)
		return api_asset_name_taken(c, r, LPT_WHAT, t.name, false);
	if (e == -REPO_ERR_GONE)
		return api_asset_gone(c, r, &place.ref, AK_LP_TEMPLATE, NULL);
	if (e != 0)
		return mutation_err(c, r, id, e, NULL);
	return answer_template(c, r, nid, ASSET_ST_ANY);
}

/*
 * POST /rest/asset/v1/landingPageTemplate/{id}.json: name, description,
 * enableMunchkin.
 */
int
api_lp_templates_update(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "name", .type = VP_STR,
		  .max = ASSET_NAME_CHARS * 4 },
		API_ASSET_P_DESCRIPTION,
		{ .name = "enableMunchkin", .type = VP_BOOL },
	};
	struct vvalue pv[3];
	struct repo_lpt_meta m;
	int32_t id = path_id(c);
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	m.name = pv[0].present ? pv[0].s : NULL;
	m.description = pv[1].present ? pv[1].s : NULL;
	m.enable_munchkin = pv[2].present ? pv[2].b : -1;
	e = repo_lpt_update_meta(c->app->db, id, &m);
	if (e == -REPO_ERR_CONFLICT)
		return api_asset_name_taken(c, r, LPT_WHAT, m.name, false);
	if (e != 0)
		return mutation_err(c, r, id, e, NULL);
	return answer_template(c, r, id, ASSET_ST_ANY);
}

/* ---- Versions ----------------------------------------------------------- */

/* What approving checks: model/lptemplate.c. */
static int
check_for_approval(enum lpt_type t, const char *html, size_t len, char *msg)
{
	return lpt_check(t, html, len, msg);
}

/*
 * POST /rest/asset/v1/landingPageTemplate/{id}/content.json with a
 * multipart `content` part (a file or a plain field): replaces the
 * draft's content.
 */
int
api_lp_templates_content_update(struct call *c, struct resp *r)
{
	const char *content = NULL;
	char msg[LPT_MSG_BYTES];
	size_t len = 0;
	int32_t id = path_id(c);
	int e;

	content = api_asset_content_param(c, &len);
	if (content == NULL || len == 0)
		return api_common_fail(c, r, -API_ERR_MISSING_PARAM, "Missing "
		    "value for the required parameter 'content'");
	if (len > HTML_MAX_BYTES)
		return api_common_fail(c, r, -API_ERR_INVALID_VALUE, "content "
		    "is over %d bytes", HTML_MAX_BYTES);
	e = repo_lpt_change(c->app->db, id, ASSET_EDIT, content, len, NULL,
	    msg);
	if (e != 0)
		return mutation_err(c, r, id, e, msg);
	api_asset_id_result(r, id);
	return 0;
}

/*
 * POST .../landingPageTemplate/{id}/approveDraft.json, unapprove.json,
 * discardDraft.json and delete.json: the four version changes that take no
 * parameters, the route's variant (an asset_op) saying which.  Approve and
 * unapprove answer the template, the others its id.
 */
int
api_lp_templates_change(struct call *c, struct resp *r)
{
	enum asset_op op = (enum asset_op)c->route->variant;
	char msg[LPT_MSG_BYTES];
	int32_t id = path_id(c);
	int e;

	e = repo_lpt_change(c->app->db, id, op, NULL, 0,
	    op == ASSET_APPROVE ? check_for_approval : NULL, msg);
	if (e != 0)
		return mutation_err(c, r, id, e, msg);
	if (op == ASSET_APPROVE || op == ASSET_UNAPPROVE)
		return answer_template(c, r, id, op == ASSET_APPROVE ?
		    ASSET_ST_APPROVED : ASSET_ST_ANY);
	api_asset_id_result(r, id);
	return 0;
}
