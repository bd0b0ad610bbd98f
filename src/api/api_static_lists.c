/*
 * Static lists as assets (docs/behaviour.md §20): browse, by id, by
 * name, create, update and delete, over the lists the lead database
 * operations use (api_lists.c).
 *
 * Choices where the service is undocumented (decided in
 * docs/behaviour.md §20):
 * - A list stands in a folder of the Lead Database tree (kind
 *   staticList) or in a program; elsewhere is 711, a place that does
 *   not exist 710.  Names are unique in the instance (709).
 * - An unknown id is 702 "Static List not found or it has been deleted"
 *   for by id, update and delete, as a recorded reply has it for by id;
 *   by name and browse that find nothing answer the "No assets found"
 *   warning.
 * - Delete refuses a list that a smart list condition or a flow step
 *   names (709), as the service refuses a list another asset uses.
 * - The reply leaves description out when there is none and writes
 *   folder as {"id", "type"} and computedUrl, as recorded replies do.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "api/api.h"
#include "api/api_asset.h"
#include "api/api_common.h"
#include "bounds.h"
#include "call.h"
#include "db/query.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "http/validate.h"
#include "model/asset.h"
#include "model/folder.h"
#include "repo/repo.h"
#include "repo/repo_lists.h"
#include "util/arena.h"

#define WHAT	"Static list"

/* The list of row i of t as the asset replies show it. */
static struct json_object *
list_json(struct call *c, const struct db_text_rows *t, size_t i)
{
	struct json_object *o = json_object_new_object(), *f;
	const char *s;
	char url[320];
	int64_t id = db_text_i64(t, i, LIST_ASSET_COL_ID);
	bool program = db_text_str(t, i, LIST_ASSET_COL_FOLDER) == NULL;

	json_object_object_add(o, "id", json_object_new_int64(id));
	json_object_object_add(o, "name", json_object_new_string(
	    db_text_str(t, i, LIST_ASSET_COL_NAME)));
	if ((s = db_text_str(t, i, LIST_ASSET_COL_DESCRIPTION)) != NULL)
		json_object_object_add(o, "description",
		    json_object_new_string(s));
	json_object_object_add(o, "createdAt", api_asset_time_json(
	    db_text_str(t, i, LIST_ASSET_COL_CREATED)));
	json_object_object_add(o, "updatedAt", api_asset_time_json(
	    db_text_str(t, i, LIST_ASSET_COL_UPDATED)));
	f = json_object_new_object();
	json_object_object_add(f, "id", json_object_new_int64(db_text_i64(t,
	    i, program ? LIST_ASSET_COL_PROGRAM : LIST_ASSET_COL_FOLDER)));
	json_object_object_add(f, "type", json_object_new_string(
	    folder_type_name(program ? FOLDER_T_PROGRAM : FOLDER_T_FOLDER)));
	json_object_object_add(o, "folder", f);
	json_object_object_add(o, "computedUrl", json_object_new_string(
	    api_asset_url(c, "ST", id, "A1", url, sizeof(url))));
	json_object_object_add(o, "workspace", json_object_new_string(
	    db_text_str(t, i, LIST_ASSET_COL_WORKSPACE)));
	return o;
}

/* 702 for list id. */
static int
not_found(struct call *c, struct resp *r)
{
	return api_common_fail(c, r, -API_ERR_NO_DATA,
	    "Static List not found or it has been deleted");
}

/* Reads list id (or the one named name) and answers it; 702 for none. */
static int
answer(struct call *c, struct resp *r, int32_t id, const char *name)
{
	struct db_text_rows t;
	int e;

	e = repo_lists_asset_get(c->app->db, &c->app->arena, id, name, &t);
	if (e == -REPO_ERR_NOT_FOUND)
		return name != NULL ? api_asset_none(r) : not_found(c, r);
	if (e != 0)
		return err_from_repo(e);
	resp_add(r, list_json(c, &t, 0));
	return 0;
}

/* GET /rest/asset/v1/staticList/{id}.json */
int
api_static_lists_get(struct call *c, struct resp *r)
{
	int32_t id = api_asset_path_id(c, 0);

	return id == 0 ? not_found(c, r) : answer(c, r, id, NULL);
}

/* GET /rest/asset/v1/staticList/byName.json?name= (exact). */
int
api_static_lists_get_by_name(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "name", .type = VP_STR, .flags = VPF_REQUIRED,
		  .max = ASSET_NAME_CHARS * 4 },
	};
	struct vvalue pv[1];
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	return answer(c, r, 0, pv[0].s);
}

/*
 * GET /rest/asset/v1/staticLists.json?folder=&offset=&maxReturn=
 * &earliestUpdatedAt=&latestUpdatedAt=
 */
int
api_static_lists_browse(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		API_ASSET_P_MAX_RETURN,
		API_ASSET_P_OFFSET,
		API_ASSET_P_FOLDER_OPT,
		{ .name = "earliestUpdatedAt", .type = VP_DATETIME },
		{ .name = "latestUpdatedAt", .type = VP_DATETIME },
	};
	struct vvalue pv[5];
	struct list_asset_query q;
	struct api_asset_browse b;
	struct db_text_rows t;
	size_t i;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0 ||
	    (e = api_asset_browse_query(c, r, AK_STATIC_LIST, &pv[0], &pv[1],
	    &pv[2], &b)) != 0)
		return e;
	memset(&q, 0, sizeof(q));
	q.limit = b.limit;
	q.offset = b.offset;
	q.has_place = b.has_folder;
	q.place = b.folder;
	q.earliest = pv[3].present ? api_asset_db_time(c, pv[3].i) : NULL;
	q.latest = pv[4].present ? api_asset_db_time(c, pv[4].i) : NULL;
	if ((e = repo_lists_asset_browse(c->app->db, &c->app->arena, &q,
	    &t)) != 0)
		return err_from_repo(e);
	if (t.count == 0)
		return api_asset_none(r);
	for (i = 0; i < t.count; i++)
		resp_add(r, list_json(c, &t, i));
	return 0;
}

/*
 * POST /rest/asset/v1/staticLists.json: name, folder (a staticList
 * folder or a program), description.
 */
int
api_static_lists_create(struct call *c, struct resp *r)
{
	struct list_new t;
	int32_t id;
	int e;

	memset(&t, 0, sizeof(t));
	if ((e = api_asset_new(c, r, AK_STATIC_LIST, &t.name,
	    &t.description, &t.place)) != 0)
		return e;
	t.has_place = true;
	e = repo_lists_create(c->app->db, &t, &id);
	if (e == -REPO_ERR_CONFLICT)
		return api_asset_name_taken(c, r, WHAT, t.name, false);
	/* The program went after api_asset_new found it. */
	if (e == -REPO_ERR_NOT_FOUND)
		return -API_ERR_NO_PARENT;
	if (e != 0)
		return err_from_repo(e);
	return answer(c, r, id, NULL);
}

/* POST /rest/asset/v1/staticList/{id}.json: name, description. */
int
api_static_lists_update(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "name", .type = VP_STR,
		  .max = ASSET_NAME_CHARS * 4 },
		API_ASSET_P_DESCRIPTION,
	};
	struct vvalue pv[2];
	int32_t id = api_asset_path_id(c, 0);
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	if (id == 0)
		return not_found(c, r);
	e = repo_lists_update(c->app->db, id, pv[0].present ? pv[0].s : NULL,
	    pv[1].present ? pv[1].s : NULL);
	if (e == -REPO_ERR_NOT_FOUND)
		return not_found(c, r);
	if (e == -REPO_ERR_CONFLICT)
		return api_asset_name_taken(c, r, WHAT, pv[0].s, false);
	if (e != 0)
		return err_from_repo(e);
	return answer(c, r, id, NULL);
}

/* POST /rest/asset/v1/staticList/{id}/delete.json: [{"id": id}]. */
int
api_static_lists_delete(struct call *c, struct resp *r)
{
	int32_t id = api_asset_path_id(c, 0);
	int e;

	if (id == 0)
		return not_found(c, r);
	e = repo_lists_delete(c->app->db, id);
	if (e == -REPO_ERR_NOT_FOUND)
		return not_found(c, r);
	if (e == -REPO_ERR_CONFLICT)
		return api_common_fail(c, r, -API_ERR_RULE,
		    "Static list %ld is used by another asset and cannot be "
		    "deleted", (long)id);
	if (e != 0)
		return err_from_repo(e);
	api_asset_id_result(r, id);
	return 0;
}
