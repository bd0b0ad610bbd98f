/*
 * The asset handlers' shared pieces (api_asset.h).  Choices where the
 * real service is silent:
 *   - a folder or program that does not exist is 710 "Parent Folder Not
 *     Found" wherever an asset is put (create, clone), and so is a
 *     folder parameter of a browse that names nothing;
 *   - the url member is app_url + "/#" + the asset's two-letter code and
 *     id, as the hosted service's ("https://app-...marketo.com/#LT286B2")
 *     points into its user interface.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "api/api_asset.h"
#include "api/api_common.h"
#include "call.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "http/validate.h"
#include "model/asset.h"
#include "model/folder.h"
#include "repo/repo_folders.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/config.h"
#include "util/timeutil.h"

const char *const api_asset_status_words[] = { "draft", "approved", NULL };

/* See api_asset.h. */
int
api_asset_none(struct resp *r)
{
	resp_warn(r, ENV_ASSET1, 0, ASSET_NONE_FOUND);
	return 0;
}

/* See api_asset.h. */
int
api_asset_folder(struct call *c, struct resp *r, const char *text,
    struct folder_ref *out)
{
	if (text != NULL && folder_ref_parse(text, out) == 0)
		return 0;
	return api_common_invalid(c, r, text != NULL ? text : "",
	    "FolderVariantType");
}

/* See api_asset.h. */
int
api_asset_place(struct call *c, struct resp *r, const struct folder_ref *ref,
    enum asset_kind ak, struct repo_place *out)
{
	int e = repo_folders_place(c->app->db, ref, out);

	if (e == -REPO_ERR_NOT_FOUND)
		return -API_ERR_NO_PARENT;
	if (e != 0)
		return err_from_repo(e);
	if (!folder_may_hold(out->kind, ref->type == FOLDER_T_PROGRAM, ak))
		return api_common_fail(c, r, -API_ERR_FOLDER_TYPE,
		    "Incompatible Folder Type: a %s cannot hold this asset",
		    ref->type == FOLDER_T_PROGRAM ? "program" :
		    folder_kind_name(out->kind));
	return 0;
}

/* See api_asset.h. */
int
api_asset_place_param(struct call *c, struct resp *r, const char *text,
    enum asset_kind ak, struct repo_place *out)
{
	struct folder_ref ref;
	int e;

	if ((e = api_asset_folder(c, r, text, &ref)) != 0)
		return e;
	return api_asset_place(c, r, &ref, ak, out);
}

/* See api_asset.h. */
int
api_asset_gone(struct call *c, struct resp *r, const struct folder_ref *ref,
    enum asset_kind ak, const char *what)
{
	struct repo_place p;
	int e;

	if ((e = api_asset_place(c, r, ref, ak, &p)) != 0)
		return e;
	return api_common_fail(c, r, -API_ERR_RULE, "%s was deleted while "
	    "the request ran", what != NULL ? what :
	    "A record the request refers to");
}

/* See api_asset.h. */
enum asset_status
api_asset_status(const struct vvalue *v)
{
	if (!v->present)
		return ASSET_ST_ANY;
	return v->i == 0 ? ASSET_ST_DRAFT : ASSET_ST_APPROVED;
}

/* See api_asset.h. */
struct json_object *
api_asset_folder_json(enum folder_type t, int64_t id, const char *name)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "type",
	    json_object_new_string(folder_type_name(t)));
	json_object_object_add(o, "value", json_object_new_int64(id));
	json_object_object_add(o, "folderName",
	    json_object_new_string(name != NULL ? name : ""));
	return o;
}

/* See api_asset.h. */
struct json_object *
api_asset_time_json(const char *db)
{
	char iso[TIME_ISO_BYTES], out[TIME_ISO_BYTES + 8];

	if (time_iso_from_db(db, iso) == NULL)
		return NULL;
	(void)snprintf(out, sizeof(out), "%s+0000", iso);
	return json_object_new_string(out);
}

/* See api_asset.h. */
void
api_asset_folder_write(struct buf *b, enum folder_type t, int64_t id,
    const char *name)
{
	char num[64];

	buf_adds(b, "{\"type\":");
	buf_add_jsonc_str(b, folder_type_name(t));
	(void)snprintf(num, sizeof(num), ",\"value\":%lld,\"folderName\":",
	    (long long)id);
	buf_adds(b, num);
	buf_add_jsonc_str(b, name != NULL ? name : "");
	buf_addc(b, '}');
}

/* See api_asset.h. */
void
api_asset_time_write(struct buf *b, const char *db)
{
	char iso[TIME_ISO_BYTES + 8];

	if (time_iso_from_db(db, iso) == NULL) {
		buf_adds(b, "null");
		return;
	}
	memcpy(iso + strlen(iso), "+0000", 6);
	buf_add_jsonc_str(b, iso);
}

/* See api_asset.h. */
void
api_asset_head_members(struct buf *b, int64_t id, const char *name,
    const char *description, const char *created_at, const char *updated_at)
{
	buf_printf(b, "\"id\":%lld,\"name\":", (long long)id);
	buf_add_jsonc_str(b, name);
	buf_adds(b, ",\"description\":");
	buf_add_jsonc_str(b, description);
	buf_adds(b, ",\"createdAt\":");
	api_asset_time_write(b, created_at);
	buf_adds(b, ",\"updatedAt\":");
	api_asset_time_write(b, updated_at);
}

/* See api_asset.h. */
void
api_asset_head_text(struct buf *b, struct call *c, int64_t id,
    const char *name, const char *description, const char *created_at,
    const char *updated_at, const char *prefix)
{
	api_asset_head_members(b, id, name, description, created_at,
	    updated_at);
	buf_adds(b, ",\"url\":");
	api_asset_url_write(b, c, prefix, id, "B2");
}

/* See api_asset.h. */
struct json_object *
api_asset_head_json(struct call *c, int64_t id, const char *name,
    const char *description, const char *created_at, const char *updated_at,
    const char *prefix)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "id", json_object_new_int64(id));
	json_object_object_add(o, "name", json_object_new_string(name));
	json_object_object_add(o, "description",
	    api_common_str_or_null(description));
	json_object_object_add(o, "createdAt",
	    api_asset_time_json(created_at));
	json_object_object_add(o, "updatedAt",
	    api_asset_time_json(updated_at));
	json_object_object_add(o, "url", api_asset_url_json(c, prefix, id));
	return o;
}

/* See api_asset.h. */
const char *
api_asset_not_found_msg(struct call *c, const char *what, int64_t id)
{
	const char *m;

	m = arena_printf(&c->app->arena, "%lld %s not found", (long long)id,
	    what);
	return m != NULL ? m : what;
}

/* See api_asset.h. */
int
api_asset_not_found(struct call *c, struct resp *r, const char *what,
    int64_t id)
{
	return api_common_fail(c, r, -API_ERR_NO_DATA, "%s",
	    api_asset_not_found_msg(c, what, id));
}

/* See api_asset.h. */
int
api_asset_change_err(struct call *c, struct resp *r, int e, const char *msg,
    const char *not_found)
{
	if (e == -REPO_ERR_NOT_FOUND)
		return api_common_fail(c, r, -API_ERR_NO_DATA, "%s",
		    not_found);
	if (e == -REPO_ERR_INVALID && msg != NULL && msg[0] != '\0')
		return api_common_fail(c, r, -API_ERR_RULE, "%s", msg);
	return err_from_repo(e);
}

/* See api_asset.h. */
int
api_asset_name_taken(struct call *c, struct resp *r, const char *what,
    const char *name, bool in_folder)
{
	return api_common_fail(c, r, -API_ERR_RULE, "%s name '%s' is already "
	    "in use%s", what, api_common_echo(c, name),
	    in_folder ? " in this folder" : "");
}

/* See api_asset.h. */
int
api_asset_found(struct resp *r, int e)
{
	if (e == -REPO_ERR_NOT_FOUND)
		return api_asset_none(r);
	return e != 0 ? err_from_repo(e) : 1;
}

/* See api_asset.h. */
const char *
api_asset_content_param(const struct call *c, size_t *len)
{
	const struct req *q = c->req;
	const char *content;
	size_t i;

	for (i = 0; i < q->nparts; i++)
		if (q->parts[i].name != NULL &&
		    strcmp(q->parts[i].name, "content") == 0) {
			*len = q->parts[i].len;
			return q->parts[i].data;
		}
	content = req_param(q, "content");
	*len = content != NULL ? strlen(content) : 0;
	return content;
}

/* See api_asset.h. */
void
api_asset_id_result(struct resp *r, int64_t id)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "id", json_object_new_int64(id));
	resp_add(r, o);
}

/* See api_asset.h. */
const char *
api_asset_url(const struct call *c, const char *code, int64_t id,
    const char *tail, char *out, size_t size)
{
	const char *base = c->app->cfg->app_url != NULL ?
	    c->app->cfg->app_url : "http://localhost";

	(void)snprintf(out, size, "%s/#%s%lld%s", base, code, (long long)id,
	    tail);
	return out;
}

/* See api_asset.h. */
void
api_asset_url_write(struct buf *b, const struct call *c, const char *code,
    int64_t id, const char *tail)
{
	char url[320];

	buf_add_jsonc_str(b, api_asset_url(c, code, id, tail, url,
	    sizeof(url)));
}

/* See api_asset.h. */
struct json_object *
api_asset_url_json(struct call *c, const char *prefix, int64_t id)
{
	char url[320];

	return json_object_new_string(api_asset_url(c, prefix, id, "B2", url,
	    sizeof(url)));
}

/* See api_asset.h. */
const char *
api_asset_db_time(struct call *c, int64_t t)
{
	struct tm tm;
	time_t tt = (time_t)t;
	char buf[32], *out;

	if (gmtime_r(&tt, &tm) == NULL ||
	    strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", &tm) == 0)
		return NULL;
	if ((out = arena_alloc(&c->app->arena, strlen(buf) + 1)) != NULL)
		memcpy(out, buf, strlen(buf) + 1);
	return out;
}

/* See api_asset.h. */
int
api_asset_new(struct call *c, struct resp *r, enum asset_kind ak,
    const char **name, const char **description, struct folder_ref *place)
{
	static const struct vparam params[] = {
		API_ASSET_NEW_PARAMS,
	};
	struct vvalue pv[3];
	struct repo_place where;
	int e;

	*name = NULL;
	*description = NULL;
	if ((e = VALIDATE(c->req, r, params, pv)) != 0 ||
	    (e = api_asset_folder(c, r, pv[1].s, place)) != 0 ||
	    (e = api_asset_place(c, r, place, ak, &where)) != 0)
		return e;
	*name = pv[0].s;
	*description = pv[2].present ? pv[2].s : NULL;
	return 0;
}

/* See api_asset.h. */
int
api_asset_browse_query(struct call *c, struct resp *r, enum asset_kind ak,
    const struct vvalue *max_return, const struct vvalue *offset,
    const struct vvalue *folder, struct api_asset_browse *out)
{
	int e;

	memset(out, 0, sizeof(*out));
	out->limit = max_return->present ? (int)max_return->i :
	    ASSET_MAX_RETURN_DEFAULT;
	out->offset = offset->present ? offset->i : 0;
	if (!folder->present)
		return 0;
	if ((e = api_asset_folder(c, r, folder->s, &out->folder)) != 0 ||
	    (e = api_asset_place(c, r, &out->folder, ak, &out->place)) != 0)
		return e;
	out->has_folder = true;
	return 0;
}

/* See api_asset.h. */
int32_t
api_asset_path_id(const struct call *c, int k)
{
	int64_t v = c->req->path_ints[k];

	return v >= 1 && v <= INT32_MAX ? (int32_t)v : 0;
}
