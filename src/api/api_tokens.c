/*
 * Tokens ("My Tokens", docs/behaviour.md §21): Get Tokens by Folder Id,
 * Create Token (create or update by name) and Delete Token by Name under
 * /rest/asset/v1/folder/{id}/tokens, on folders and programs.
 * Parameters are read from the query string or the body alike.
 *
 * Choices where the real service is silent:
 *   - folderType (Folder or Program, any letter case) defaults to Folder;
 *     a bad one is 1001 naming FolderVariantType;
 *   - Get on a folder or program that does not exist answers the "No
 *     assets found" warning; Create and Delete answer 702 "<id> Folder
 *     not found" (or Program);
 *   - type is one of the six documented words, any letter case (1001
 *     naming TokenType otherwise), written back in lower case;
 *   - a value that does not fit its type, or a name longer than 50
 *     characters or holding "{{" or "}}", is 709 with a message that
 *     says so; a name sent as {{my.Name}} is Name;
 *   - Create answers the folder with the one token it made or changed;
 *     Delete needs the token's name and type, and a token of that name
 *     and type that is not there is 702;
 *   - computedUrl is app_url, "/#", MF (a folder) or PG (a program), the
 *     id and "C3".
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "api/api.h"
#include "api/api_asset.h"
#include "api/api_common.h"
#include "api/api_folders.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "http/validate.h"
#include "model/folder.h"
#include "model/token.h"
#include "repo/repo_tokens.h"
#include "util/buf.h"

#define P_FOLDER_TYPE \
	{ .name = "folderType", .type = VP_STR, .max = 64 }
#define P_TOKEN_NAME \
	{ .name = "name", .type = VP_STR, .flags = VPF_REQUIRED | VPF_BLANK, \
	  .max = TOKEN_NAME_CHARS * 4 + 16 }
#define P_TOKEN_TYPE \
	{ .name = "type", .type = VP_STR, .flags = VPF_REQUIRED | VPF_BLANK, \
	  .max = 64 }

/*
 * The place of the path's id and the folderType parameter pv into *ref;
 * 1001 naming FolderVariantType for a bad folderType.
 */
static int
place_param(struct call *c, struct resp *r, const struct vvalue *pv,
    struct folder_ref *ref)
{
	if (api_folders_type(pv->present ? pv->s : NULL, &ref->type) != 0)
		return api_common_invalid(c, r, pv->s, "FolderVariantType");
	ref->id = api_asset_path_id(c, 0);
	return 0;
}

/* The type parameter pv into *t; 1001 naming TokenType when unknown. */
static int
type_param(struct call *c, struct resp *r, const struct vvalue *pv,
    enum token_type *t)
{
	int k = token_type_parse(pv->s);

	if (k < 0)
		return api_common_invalid(c, r, pv->s, "TokenType");
	*t = (enum token_type)k;
	return 0;
}

/* The name parameter pv, normalized into out; 709 when it cannot be. */
static int
name_param(struct call *c, struct resp *r, const struct vvalue *pv,
    char *out, size_t size)
{
	if (token_name_normalize(pv->s, out, size) != 0)
		return api_common_fail(c, r, -API_ERR_RULE, "Invalid token "
		    "name '%s': a name has 1 to %d characters, without '{{' "
		    "or '}}'", api_common_echo(c, pv->s), TOKEN_NAME_CHARS);
	return 0;
}

/* 702 "<id> Folder not found" (or Program) for place ref. */
static int
place_not_found(struct call *c, struct resp *r, const struct folder_ref *ref)
{
	return api_asset_not_found(c, r, folder_type_name(ref->type),
	    c->req->path_ints[0]);
}

/* Appends {"folder":{...},"tokens":[...]} for place ref to the result. */
static void
answer(struct call *c, struct resp *r, const struct folder_ref *ref,
    const struct repo_token *tokens, size_t n)
{
	struct buf *b = resp_add_text(r);
	size_t i;

	buf_adds(b, "{\"folder\":{\"type\":");
	buf_add_jsonc_str(b, folder_type_name(ref->type));
	buf_printf(b, ",\"value\":%lld},\"tokens\":[", (long long)ref->id);
	for (i = 0; i < n; i++) {
		buf_adds(b, i == 0 ? "{\"name\":" : ",{\"name\":");
		buf_add_jsonc_str(b, tokens[i].name);
		buf_adds(b, ",\"type\":");
		buf_add_jsonc_str(b, token_type_name(tokens[i].type));
		buf_adds(b, ",\"value\":");
		buf_add_jsonc_str(b, tokens[i].value != NULL ?
		    tokens[i].value : "");
		buf_adds(b, ",\"computedUrl\":");
		api_asset_url_write(b, c, ref->type == FOLDER_T_PROGRAM ?
		    "PG" : "MF", ref->id, "C3");
		buf_addc(b, '}');
	}
	buf_adds(b, "]}");
}

/* GET /rest/asset/v1/folder/{id}/tokens.json?folderType= */
int
api_tokens_get(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		P_FOLDER_TYPE,
	};
	struct vvalue pv[1];
	struct folder_ref ref;
	struct repo_token *tokens;
	size_t n;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0 ||
	    (e = place_param(c, r, &pv[0], &ref)) != 0)
		return e;
	if (ref.id == 0)
		return api_asset_none(r);
	e = repo_tokens_list(c->app->db, &c->app->arena, &ref, &tokens, &n);
	if (e == -REPO_ERR_NOT_FOUND)
		return api_asset_none(r);
	if (e != 0)
		return err_from_repo(e);
	answer(c, r, &ref, tokens, n);
	return 0;
}

/*
 * POST /rest/asset/v1/folder/{id}/tokens.json: name, type, value,
 * folderType.
 */
int
api_tokens_create(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		P_TOKEN_NAME,
		P_TOKEN_TYPE,
		{ .name = "value", .type = VP_STR,
		  .flags = VPF_REQUIRED | VPF_BLANK,
		  .max = TOKEN_VALUE_MAX_BYTES },
		P_FOLDER_TYPE,
	};
	struct vvalue pv[4];
	struct folder_ref ref;
	struct repo_token tok;
	char name[TOKEN_NAME_CHARS * 4 + 1];
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0 ||
	    (e = place_param(c, r, &pv[3], &ref)) != 0 ||
	    (e = type_param(c, r, &pv[1], &tok.type)) != 0 ||
	    (e = name_param(c, r, &pv[0], name, sizeof(name))) != 0)
		return e;
	if (token_value_check(tok.type, pv[2].s) != 0)
		return api_common_fail(c, r, -API_ERR_RULE, "Invalid value "
		    "'%s' for a token of type %s", api_common_echo(c, pv[2].s),
		    token_type_name(tok.type));
	if (ref.id == 0)
		return place_not_found(c, r, &ref);
	e = repo_tokens_upsert(c->app->db, &ref, name, tok.type, pv[2].s);
	if (e == -REPO_ERR_NOT_FOUND)
		return place_not_found(c, r, &ref);
	if (e != 0)
		return err_from_repo(e);
	tok.name = name;
	tok.value = pv[2].s;
	tok.place = ref;
	answer(c, r, &ref, &tok, 1);
	return 0;
}

/*
 * POST /rest/asset/v1/folder/{id}/tokens/delete.json: name, type,
 * folderType.
 */
int
api_tokens_delete(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		P_TOKEN_NAME,
		P_TOKEN_TYPE,
		P_FOLDER_TYPE,
	};
	struct vvalue pv[3];
	struct folder_ref ref;
	enum token_type type;
	char name[TOKEN_NAME_CHARS * 4 + 1];
	bool deleted;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0 ||
	    (e = place_param(c, r, &pv[2], &ref)) != 0 ||
	    (e = type_param(c, r, &pv[1], &type)) != 0 ||
	    (e = name_param(c, r, &pv[0], name, sizeof(name))) != 0)
		return e;
	if (ref.id == 0)
		return place_not_found(c, r, &ref);
	e = repo_tokens_delete(c->app->db, &ref, name, type, &deleted);
	if (e == -REPO_ERR_NOT_FOUND)
		return place_not_found(c, r, &ref);
	if (e != 0)
		return err_from_repo(e);
	if (!deleted)
		return api_common_fail(c, r, -API_ERR_NO_DATA, "Token '%s' of "
		    "type %s not found", api_common_echo(c, name),
		    token_type_name(type));
	api_asset_id_result(r, ref.id);
	return 0;
}
