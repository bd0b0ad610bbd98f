/*
 * Folders (docs/behaviour.md §19): Get Folders, Get Folder by Id, Get
 * Folder by Name, Get Folder Contents, Create Folder, Update Folder
 * Metadata and Delete Folder under /rest/asset/v1/folder(s).
 * The tree is mauto's folder tree, the programs in it folders of type
 * Program.  Parameters are read from the query string or the body alike.
 *
 * Choices where the real service is silent:
 *   - `type` (Folder or Program, any letter case) defaults to Folder
 *     where a client leaves it out; a bad one is 1001 naming
 *     FolderVariantType, except on Get Folder by Name, where the real
 *     service was recorded answering 1003;
 *   - `workSpace` and `workspace` are the same parameter; a workspace
 *     that does not exist is 611 "Unable to get folder" (recorded for
 *     Get Folder by Name, and Get Folders answers the same);
 *   - a browse without `root` starts at every root folder; a root that
 *     does not exist finds nothing (the warning);
 *   - maxReturn is 1 to 200 (default 20), offset 0 or more, maxDepth 0 or
 *     more (default 2);
 *   - content items are {id, type}, type one of Folder, Program, Email,
 *     Email Template, Landing Page Template, Smart List, Smart Campaign,
 *     Static List;
 *   - a new folder takes its parent's kind; a program as parent is 711
 *     (programs hold assets, not folders), a parent that does not exist
 *     710, a name its parent already has 709;
 *   - Update and Delete with type=Program are 709 "Program Programs cant
 *     be updated (deleted) with Folder API" (the delete message is
 *     recorded); a system folder cannot be changed or deleted (709); a
 *     folder that holds folders or assets cannot be deleted (709);
 *     unknown ids are 702 "<id> Folder not found" (recorded).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "api/api.h"
#include "api/api_asset.h"
#include "api/api_common.h"
#include "api/api_folders.h"
#include "bounds.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "http/validate.h"
#include "model/folder.h"
#include "model/foldertree.h"
#include "repo/repo_folder_delete.h"
#include "repo/repo_folder_tree.h"
#include "repo/repo_folders.h"
#include "util/buf.h"

/* The url codes of a marketing folder and of a program. */
#define FOLDER_URL_PREFIX	"MF"
#define PROGRAM_URL_PREFIX	"PG"

/* The longest path written (names are at most 1,020 bytes each). */
#define FOLDER_PATH_MAX_BYTES	65536

/* A {"id":N,"type":"Folder"} member value. */
static void
ref_text(struct buf *b, int64_t id, enum folder_type t)
{
	buf_printf(b, "{\"id\":%lld,\"type\":", (long long)id);
	buf_add_jsonc_str(b, folder_type_name(t));
	buf_addc(b, '}');
}

/* See api_folders.h. */
void
api_folders_text(struct buf *b, struct call *c, const struct ftree *t,
    const struct ftree_node *f)
{
	const struct ftree_node *parent = ftree_parent(t, f);
	struct buf path;

	buf_adds(b, "{\"name\":");
	buf_add_jsonc_str(b, f->name);
	buf_adds(b, ",\"description\":");
	buf_add_jsonc_str(b, f->description);
	buf_adds(b, ",\"createdAt\":");
	api_asset_time_write(b, f->created_at);
	buf_adds(b, ",\"updatedAt\":");
	api_asset_time_write(b, f->updated_at);
	buf_adds(b, ",\"url\":");
	if (f->type == FOLDER_T_PROGRAM)
		api_asset_url_write(b, c, PROGRAM_URL_PREFIX, f->id, "A1");
	else if (f->kind == FK_MARKETING && !f->is_system)
		api_asset_url_write(b, c, FOLDER_URL_PREFIX, f->id, "A1");
	else
		buf_adds(b, "null");
	buf_adds(b, ",\"folderId\":");
	ref_text(b, f->id, f->type);
	buf_adds(b, ",\"folderType\":");
	buf_add_jsonc_str(b, ftree_folder_type(f));
	buf_adds(b, ",\"parent\":");
	if (parent != NULL)
		ref_text(b, parent->id, FOLDER_T_FOLDER);
	else
		buf_adds(b, "null");
	buf_adds(b, ",\"path\":");
	buf_init(&path, FOLDER_PATH_MAX_BYTES);
	ftree_path(&path, t, f);
	buf_add_jsonc_str(b, buf_ok(&path) && path.data != NULL ?
	    path.data : "");
	buf_clear(&path);
	buf_printf(b, ",\"isArchive\":%s,\"isSystem\":%s,\"accessZoneId\":1,"
	    "\"workspace\":", f->is_archive ? "true" : "false",
	    f->is_system ? "true" : "false");
	buf_add_jsonc_str(b, f->workspace != NULL ? f->workspace : "Default");
	buf_printf(b, ",\"id\":%lld}", (long long)f->id);
}

/* See api_folders.h. */
int
api_folders_tree(struct call *c, struct ftree *t)
{
	struct ftree_node *nodes;
	size_t n;
	int e;

	if ((e = repo_folder_tree_read(c->app->db, &c->app->arena, &nodes,
	    &n)) != 0)
		return err_from_repo(e);
	if (ftree_index(t, nodes, n, &c->app->arena) != 0)
		return -API_ERR_SYSTEM;
	return 0;
}

/* See api_folders.h. */
int
api_folders_type(const char *s, enum folder_type *out)
{
	*out = FOLDER_T_FOLDER;
	if (s == NULL || strcasecmp(s, "Folder") == 0)
		return 0;
	if (strcasecmp(s, "Program") == 0) {
		*out = FOLDER_T_PROGRAM;
		return 0;
	}
	return -1;
}

/* The type parameter pv, 1001 naming FolderVariantType when bad. */
static int
type_param(struct call *c, struct resp *r, const struct vvalue *pv,
    enum folder_type *out)
{
	if (api_folders_type(pv->present ? pv->s : NULL, out) != 0)
		return api_common_invalid(c, r, pv->s, "FolderVariantType");
	return 0;
}

/*
 * The tree into *t and the node the path's id and the type parameter pv
 * name into *f: 0, a negative api_err (1001 for a bad type), or 1 after
 * answering the warning when there is no such folder or program.
 */
static int
path_node(struct call *c, struct resp *r, const struct vvalue *pv,
    struct ftree *t, const struct ftree_node **f)
{
	struct folder_ref ref;
	int e;

	*f = NULL;
	if ((e = type_param(c, r, pv, &ref.type)) != 0)
		return e;
	if ((ref.id = api_asset_path_id(c, 0)) != 0 &&
	    (e = api_folders_tree(c, t)) != 0)
		return e;
	if (ref.id == 0 || (*f = ftree_find(t, &ref)) == NULL) {
		(void)api_asset_none(r);
		return 1;
	}
	return 0;
}

/*
 * The workspace of workSpace or workspace (pv[0], pv[1]) into *ws (NULL
 * when neither); 611 "Unable to get folder" when there is none of that
 * name.
 */
static int
workspace_param(struct call *c, struct resp *r, const struct vvalue *pv,
    const char **ws)
{
	bool exists;
	int e;

	*ws = pv[0].present ? pv[0].s : pv[1].present ? pv[1].s : NULL;
	if (*ws == NULL)
		return 0;
	if ((e = repo_folder_tree_workspace(c->app->db, *ws, &exists)) != 0)
		return err_from_repo(e);
	if (!exists)
		return api_common_fail(c, r, -API_ERR_SYSTEM,
		    "Unable to get folder");
	return 0;
}

/*
 * The tree into *t, the node the root parameter pv_root names into *root
 * (NULL without one) and the workspace of pv_ws[0..1] into *ws: 0, a
 * negative api_err (1001 for a root that names no place, 611), or 1
 * after answering the warning for a root that does not exist.
 */
static int
scope(struct call *c, struct resp *r, const struct vvalue *pv_root,
    const struct vvalue *pv_ws, struct ftree *t,
    const struct ftree_node **root, const char **ws)
{
	struct folder_ref ref;
	int e;

	*root = NULL;
	if (pv_root->present &&
	    (e = api_asset_folder(c, r, pv_root->s, &ref)) != 0)
		return e;
	if ((e = workspace_param(c, r, pv_ws, ws)) != 0 ||
	    (e = api_folders_tree(c, t)) != 0)
		return e;
	if (pv_root->present && (*root = ftree_find(t, &ref)) == NULL) {
		(void)api_asset_none(r);
		return 1;
	}
	return 0;
}

#define P_WORKSPACES \
	{ .name = "workSpace", .type = VP_STR, .max = ASSET_NAME_CHARS * 4 }, \
	{ .name = "workspace", .type = VP_STR, .max = ASSET_NAME_CHARS * 4 }
#define P_ROOT \
	{ .name = "root", .type = VP_RAW, .max = FOLDER_PARAM_MAX_BYTES }
#define P_TYPE \
	{ .name = "type", .type = VP_STR, .max = 64 }

/*
 * GET /rest/asset/v1/folders.json?root=&maxDepth=&maxReturn=&offset=
 * &workSpace=
 */
int
api_folders_browse(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		P_ROOT,
		{ .name = "maxDepth", .type = VP_INT, .min = 0,
		  .max = INT32_MAX },
		API_ASSET_P_MAX_RETURN,
		API_ASSET_P_OFFSET,
		P_WORKSPACES,
	};
	struct vvalue pv[6];
	struct ftree t;
	const struct ftree_node *root = NULL, **items;
	const char *ws;
	int64_t depth, offset, i, end;
	size_t n;
	int e, limit;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0 ||
	    (e = scope(c, r, &pv[0], &pv[4], &t, &root, &ws)) != 0)
		return e < 0 ? e : 0;
	depth = pv[1].present ? pv[1].i : FOLDER_BROWSE_DEPTH;
	limit = pv[2].present ? (int)pv[2].i : ASSET_MAX_RETURN_DEFAULT;
	offset = pv[3].present ? pv[3].i : 0;
	if (ftree_browse(&t, root, depth, ws, &c->app->arena, &items,
	    &n) != 0)
		return -API_ERR_SYSTEM;
	if (offset >= (int64_t)n)
		return api_asset_none(r);
	end = offset + limit < (int64_t)n ? offset + limit : (int64_t)n;
	for (i = offset; i < end; i++)
		api_folders_text(resp_add_text(r), c, &t, items[i]);
	return 0;
}

/* GET /rest/asset/v1/folder/{id}.json?type= */
int
api_folders_get(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		P_TYPE,
	};
	struct vvalue pv[1];
	struct ftree t;
	const struct ftree_node *f;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0 ||
	    (e = path_node(c, r, &pv[0], &t, &f)) != 0)
		return e < 0 ? e : 0;
	api_folders_text(resp_add_text(r), c, &t, f);
	return 0;
}

/*
 * GET /rest/asset/v1/folder/byName.json?name=&type=&root=&workSpace=:
 * every folder (or program, with type=Program) of that exact name, in
 * root's subtree when root is given, folders by id, then programs.
 */
int
api_folders_get_by_name(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "name", .type = VP_STR, .flags = VPF_REQUIRED,
		  .max = ASSET_NAME_CHARS * 4 },
		P_TYPE,
		P_ROOT,
		P_WORKSPACES,
	};
	struct vvalue pv[5];
	enum folder_type type;
	struct ftree t;
	const struct ftree_node *root = NULL, *f;
	const char *ws;
	size_t i, found = 0;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	if (api_folders_type(pv[1].present ? pv[1].s : NULL, &type) != 0)
		return api_common_fail(c, r, -API_ERR_INVALID_REQUEST,
		    "Invalid request. Please check and try again.");
	if ((e = scope(c, r, &pv[2], &pv[3], &t, &root, &ws)) != 0)
		return e < 0 ? e : 0;
	for (i = 0; i < t.n; i++) {
		f = &t.nodes[t.by_ref[i]];
		if (strcmp(f->name != NULL ? f->name : "", pv[0].s) != 0 ||
		    (pv[1].present && f->type != type) ||
		    (ws != NULL && (f->workspace == NULL ||
		    strcasecmp(f->workspace, ws) != 0)) ||
		    (root != NULL && !ftree_within(&t, f, root)))
			continue;
		api_folders_text(resp_add_text(r), c, &t, f);
		found++;
	}
	return found == 0 ? api_asset_none(r) : 0;
}

/* The API's word for what a content item is. */
static const char *
content_word(enum repo_content_kind k)
{
	switch (k) {
	case RCK_FOLDER:
		return "Folder";
	case RCK_PROGRAM:
		return "Program";
	case RCK_EMAIL:
		return "Email";
	case RCK_EMAIL_TEMPLATE:
		return "Email Template";
	case RCK_LP_TEMPLATE:
		return "Landing Page Template";
	case RCK_SMART_LIST:
		return "Smart List";
	case RCK_SMART_CAMPAIGN:
		return "Smart Campaign";
	case RCK_STATIC_LIST:
		return "Static List";
	}
	return "Folder";
}

/* GET /rest/asset/v1/folder/{id}/content.json?type=&maxReturn=&offset= */
int
api_folders_content(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		P_TYPE,
		API_ASSET_P_MAX_RETURN,
		API_ASSET_P_OFFSET,
	};
	struct vvalue pv[3];
	struct folder_ref ref;
	struct ftree t;
	const struct ftree_node *f;
	struct repo_content_item *items;
	struct buf *b;
	size_t n, i;
	int e, limit;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0 ||
	    (e = path_node(c, r, &pv[0], &t, &f)) != 0)
		return e < 0 ? e : 0;
	ref.id = f->id;
	ref.type = f->type;
	limit = pv[1].present ? (int)pv[1].i : ASSET_MAX_RETURN_DEFAULT;
	if ((e = repo_folder_tree_content(c->app->db, &c->app->arena, &ref,
	    limit, pv[2].present ? pv[2].i : 0, &items, &n)) != 0)
		return err_from_repo(e);
	if (n == 0)
		return api_asset_none(r);
	for (i = 0; i < n; i++) {
		b = resp_add_text(r);
		buf_printf(b, "{\"id\":%lld,\"type\":", (long long)items[i].id);
		buf_add_jsonc_str(b, content_word(items[i].kind));
		buf_addc(b, '}');
	}
	return 0;
}

/* ---- Changes ---------------------------------------------------------- */

/* The folder of this request's tree with id id, answered. */
static int
answer_folder(struct call *c, struct resp *r, int32_t id)
{
	struct folder_ref ref = { .id = id, .type = FOLDER_T_FOLDER };
	struct ftree t;
	const struct ftree_node *f;
	int e;

	if ((e = api_folders_tree(c, &t)) != 0)
		return e;
	if ((f = ftree_find(&t, &ref)) == NULL)
		return api_asset_not_found(c, r, "Folder", id);
	api_folders_text(resp_add_text(r), c, &t, f);
	return 0;
}

/*
 * The path's folder of a change, with the type parameter pv: 1001 for a
 * bad type, 709 for a program (msg), 702 for an id beyond the ids.
 */
static int
change_target(struct call *c, struct resp *r, const struct vvalue *pv,
    const char *verb, int32_t *id)
{
	enum folder_type type;
	int e;

	if ((e = type_param(c, r, pv, &type)) != 0)
		return e;
	if (type == FOLDER_T_PROGRAM)
		return api_common_fail(c, r, -API_ERR_RULE, "Program Programs "
		    "cant be %s with Folder API", verb);
	if ((*id = api_asset_path_id(c, 0)) == 0)
		return api_asset_not_found(c, r, "Folder", c->req->path_ints[0]);
	return 0;
}

/* POST /rest/asset/v1/folders.json: name, parent, description. */
int
api_folders_create(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		API_ASSET_P_NAME,
		{ .name = "parent", .type = VP_RAW,
		  .flags = VPF_REQUIRED | VPF_BLANK,
		  .max = FOLDER_PARAM_MAX_BYTES },
		API_ASSET_P_DESCRIPTION,
	};
	struct vvalue pv[3];
	struct repo_place parent;
	int32_t id;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0 ||
	    (e = api_asset_place_param(c, r, pv[1].s, AK_FOLDER,
	    &parent)) != 0)
		return e;
	e = repo_folders_insert(c->app->db, pv[0].s,
	    pv[2].present ? pv[2].s : NULL, parent.kind,
	    (int32_t)parent.ref.id, &id);
	if (e == -REPO_ERR_NOT_FOUND)
		return -API_ERR_NO_PARENT;
	if (e == -REPO_ERR_CONFLICT)
		return api_asset_name_taken(c, r, "Folder", pv[0].s, true);
	if (e != 0)
		return err_from_repo(e);
	return answer_folder(c, r, id);
}

/*
 * POST /rest/asset/v1/folder/{id}.json: type, name, description,
 * isArchive.
 */
int
api_folders_update(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		P_TYPE,
		{ .name = "name", .type = VP_STR,
		  .max = ASSET_NAME_CHARS * 4 },
		API_ASSET_P_DESCRIPTION,
		{ .name = "isArchive", .type = VP_BOOL },
	};
	struct vvalue pv[4];
	bool is_system;
	int32_t id;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0 ||
	    (e = change_target(c, r, &pv[0], "updated", &id)) != 0)
		return e;
	e = repo_folders_update(c->app->db, id, pv[1].present ? pv[1].s :
	    NULL, pv[2].present ? pv[2].s : NULL, pv[3].present ?
	    (pv[3].b ? 1 : 0) : -1, &is_system);
	if (e == -REPO_ERR_NOT_FOUND)
		return api_asset_not_found(c, r, "Folder", id);
	if (e == -REPO_ERR_CONFLICT && is_system)
		return api_common_fail(c, r, -API_ERR_RULE, "System folder %d "
		    "cannot be changed", (int)id);
	if (e == -REPO_ERR_CONFLICT)
		return api_asset_name_taken(c, r, "Folder", pv[1].s, true);
	if (e != 0)
		return err_from_repo(e);
	return answer_folder(c, r, id);
}

/* POST /rest/asset/v1/folder/{id}/delete.json: type. */
int
api_folders_delete(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		P_TYPE,
	};
	struct vvalue pv[1];
	struct folder_ref ref = { .type = FOLDER_T_FOLDER };
	struct ftree t;
	const struct ftree_node *f;
	int32_t id;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0 ||
	    (e = change_target(c, r, &pv[0], "deleted", &id)) != 0)
		return e;
	ref.id = id;
	if ((e = api_folders_tree(c, &t)) != 0)
		return e;
	if ((f = ftree_find(&t, &ref)) != NULL && f->is_system)
		return api_common_fail(c, r, -API_ERR_RULE, "System folder %d "
		    "cannot be deleted", (int)id);
	e = repo_folder_delete(c->app->db, id);
	if (e == -REPO_ERR_NOT_FOUND)
		return api_asset_not_found(c, r, "Folder", id);
	if (e == -REPO_ERR_CONFLICT)
		return api_common_fail(c, r, -API_ERR_RULE, "Folder %d is not "
		    "empty: delete its folders and assets first", (int)id);
	if (e != 0)
		return err_from_repo(e);
	api_asset_id_result(r, id);
	return 0;
}
