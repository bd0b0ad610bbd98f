/*
 * What every asset handler shares (docs/assets.md): the folder parameter
 * and the place it names (710, 711), the status parameter, offset and
 * maxReturn paging, the folder and time shapes of the asset replies, the
 * id-only result, and the "No assets found" answer.
 */
#ifndef MAUTO_API_API_ASSET_H
#define MAUTO_API_API_ASSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/asset.h"
#include "model/folder.h"
#include "repo/repo_folders.h"

struct buf;
struct call;
struct json_object;
struct repo_place;
struct resp;
struct vvalue;

/* The warning of a query that finds nothing (a success, no result). */
#define ASSET_NONE_FOUND	"No assets found for the given search criteria."

/* Answers a query that found nothing: the warning, no result; 0. */
int	api_asset_none(struct resp *r);

/*
 * The folder parameter text (folder_ref_parse) into *out; 1001 "Invalid
 * value '<text>'. Required of type 'FolderVariantType'" when it names no
 * place.
 */
int	api_asset_folder(struct call *c, struct resp *r, const char *text,
	    struct folder_ref *out);

/*
 * The place ref names, where an asset of kind ak is to be put: 710 when
 * there is no such folder or program, 711 when ak may not live there.
 */
int	api_asset_place(struct call *c, struct resp *r,
	    const struct folder_ref *ref, enum asset_kind ak,
	    struct repo_place *out);

/*
 * The place the folder parameter text names (api_asset_folder, then
 * api_asset_place): 1001, 710 or 711.
 */
int	api_asset_place_param(struct call *c, struct resp *r, const char *text,
	    enum asset_kind ak, struct repo_place *out);

/*
 * The answer to a write into place ref that named a row deleted while it
 * ran (-REPO_ERR_GONE: a foreign key's parent, MariaDB 1452), as the
 * write would be answered a moment later: the place checked again
 * (api_asset_place: 710 when its folder or program is gone), else a 709
 * saying that what (e.g. "The email's template"; NULL: "A record the
 * request refers to") was deleted.
 */
int	api_asset_gone(struct call *c, struct resp *r,
	    const struct folder_ref *ref, enum asset_kind ak,
	    const char *what);

/* The status parameter (absent: ASSET_ST_ANY). */
enum asset_status	api_asset_status(const struct vvalue *v);

/* The words the status parameter takes, for its descriptor. */
extern const char *const api_asset_status_words[];

/*
 * The descriptors (http/validate.h) of the parameters every asset group
 * reads alike: a required name and folder (701 when blank), a
 * description, the status, browse's maxReturn and offset, and an
 * optional folder.
 */
#define API_ASSET_P_NAME \
	{ .name = "name", .type = VP_STR, .flags = VPF_REQUIRED | VPF_BLANK, \
	  .max = ASSET_NAME_CHARS * 4 }
#define API_ASSET_P_FOLDER \
	{ .name = "folder", .type = VP_RAW, \
	  .flags = VPF_REQUIRED | VPF_BLANK, .max = FOLDER_PARAM_MAX_BYTES }
#define API_ASSET_P_DESCRIPTION \
	{ .name = "description", .type = VP_STR, \
	  .max = ASSET_DESCRIPTION_CHARS * 4 }
#define API_ASSET_P_STATUS \
	{ .name = "status", .type = VP_ENUM, .flags = VPF_NOCASE, \
	  .words = api_asset_status_words }
#define API_ASSET_P_MAX_RETURN \
	{ .name = "maxReturn", .type = VP_INT, .min = 1, \
	  .max = ASSET_MAX_RETURN }
#define API_ASSET_P_OFFSET \
	{ .name = "offset", .type = VP_INT, .min = 0, .max = INT32_MAX }
#define API_ASSET_P_FOLDER_OPT \
	{ .name = "folder", .type = VP_RAW, .max = FOLDER_PARAM_MAX_BYTES }

/*
 * The folder of an email, template or landing page template reply:
 * {"type":"Folder","value":id,"folderName":name}.
 */
struct json_object	*api_asset_folder_json(enum folder_type t, int64_t id,
			    const char *name);

/* A database time as the asset replies write it: "...T...Z+0000". */
struct json_object	*api_asset_time_json(const char *db);

/*
 * The same two as JSON text appended to b, byte for byte what json-c
 * writes of the objects above (null for a time that is not one).
 */
void	api_asset_folder_write(struct buf *b, enum folder_type t, int64_t id,
	    const char *name);
void	api_asset_time_write(struct buf *b, const char *db);

/*
 * The message of 702 for asset id of kind what ("Email", "Smart list"):
 * "<id> <what> not found", in the request arena (what alone when the
 * arena is exhausted).
 */
const char	*api_asset_not_found_msg(struct call *c, const char *what,
		    int64_t id);

/* Answers 702 "<id> <what> not found" (api_asset_not_found_msg). */
int	api_asset_not_found(struct call *c, struct resp *r, const char *what,
	    int64_t id);

/*
 * The one change-error mapper: a repository error e of a change of an
 * asset as the API answers it: 702 with not_found (the whole message, e.g.
 * api_asset_not_found_msg's) for -REPO_ERR_NOT_FOUND, 709 with msg for
 * -REPO_ERR_INVALID when msg is set (not NULL nor empty), else the
 * repository error's code (err_from_repo).
 */
int	api_asset_change_err(struct call *c, struct resp *r, int e,
	    const char *msg, const char *not_found);

/*
 * Answers 709 for a name another asset has: "<what> name '<name>' is
 * already in use", then " in this folder" when in_folder (the name is
 * unique per folder, as an email's is), name quoted by the echo policy.
 */
int	api_asset_name_taken(struct call *c, struct resp *r,
	    const char *what, const char *name, bool in_folder);

/*
 * What a query of one asset that read e answers: 1 when it found the
 * asset (the caller adds it), 0 after answering the "No assets found"
 * warning for -REPO_ERR_NOT_FOUND, or the negative error.
 */
int	api_asset_found(struct resp *r, int e);

/*
 * The uploaded `content`: a multipart part of that name (a file, as
 * clients send it), else a plain `content` field; *len its length.
 * NULL when there is neither.
 */
const char	*api_asset_content_param(const struct call *c, size_t *len);

/*
 * An epoch (a VP_DATETIME value) as the database writes times, "YYYY-MM-DD
 * HH:MM:SS" UTC, in the request arena; NULL when it cannot be written.
 */
const char	*api_asset_db_time(struct call *c, int64_t t);

/* The path's integer parameter k as an asset id; 0 when it is beyond the
 * ids (1 to INT32_MAX) assets have. */
int32_t	api_asset_path_id(const struct call *c, int k);

/* Adds {"id": id} to the result (the reply of many mutations). */
void	api_asset_id_result(struct resp *r, int64_t id);

/*
 * What every v1 browse of assets reads the same way: maxReturn (the
 * default when absent), offset (0 when absent) and the folder parameter
 * with the place it names.
 */
struct api_asset_browse {
	int			 limit;
	int64_t			 offset;
	bool			 has_folder;
	struct folder_ref	 folder;	/* zero without a folder */
	struct repo_place	 place;		/* the folder's place */
};

/*
 * The one browse query: the values of the browse's maxReturn, offset and
 * folder vparams (API_ASSET_P_MAX_RETURN, API_ASSET_P_OFFSET,
 * API_ASSET_P_FOLDER_OPT, validated) into *out, the folder's place
 * checked for kind ak (1001, 710, 711 otherwise).  Returns 0 or a
 * negative api_err.
 */
int	api_asset_browse_query(struct call *c, struct resp *r,
	    enum asset_kind ak, const struct vvalue *max_return,
	    const struct vvalue *offset, const struct vvalue *folder,
	    struct api_asset_browse *out);

/*
 * The vparams of a new asset (create and clone), in this order: name
 * (required, 701 when blank), folder (the folder parameter, required)
 * and description.
 */
#define API_ASSET_NEW_PARAMS \
	API_ASSET_P_NAME, API_ASSET_P_FOLDER, API_ASSET_P_DESCRIPTION

/*
 * The name, folder and description of a new asset of kind ak (create and
 * clone of the groups that take no more): *name, *description (NULL when
 * not given) and *place, the folder parameter's place checked for ak
 * (701, 1001, 710, 711 otherwise).
 */
int	api_asset_new(struct call *c, struct resp *r, enum asset_kind ak,
	    const char **name, const char **description,
	    struct folder_ref *place);

/*
 * A new reply object with the members every v1 asset starts with, in the
 * service's order: id, name, description (null when NULL), createdAt,
 * updatedAt (database times) and url (api_asset_url_json with prefix).
 */
struct json_object	*api_asset_head_json(struct call *c, int64_t id,
			    const char *name, const char *description,
			    const char *created_at, const char *updated_at,
			    const char *prefix);

/* The UI url of asset id, code prefix ("LT") and "B2", as json-c. */
struct json_object	*api_asset_url_json(struct call *c, const char *prefix,
			    int64_t id);

/*
 * The one UI url builder: the url of asset id in the hosted service's
 * user interface, app_url (http://localhost when unset), "/#", code, the
 * id and tail ("B2", "A1"), written into out (size bytes, cut to fit).
 * Returns out.
 */
const char	*api_asset_url(const struct call *c, const char *code,
		    int64_t id, const char *tail, char *out, size_t size);

/* Appends api_asset_url's url to b as a JSON string. */
void	api_asset_url_write(struct buf *b, const struct call *c,
	    const char *code, int64_t id, const char *tail);

/*
 * The members of api_asset_head_json as JSON text appended to b (from
 * "id" to the url, without braces), byte for byte as json-c writes them.
 */
void	api_asset_head_text(struct buf *b, struct call *c, int64_t id,
	    const char *name, const char *description, const char *created_at,
	    const char *updated_at, const char *prefix);
/*
 * Its members "id" to "updatedAt" alone, for the replies whose next
 * member is not the url or whose url has another form.
 */
void	api_asset_head_members(struct buf *b, int64_t id, const char *name,
	    const char *description, const char *created_at,
	    const char *updated_at);

#endif
