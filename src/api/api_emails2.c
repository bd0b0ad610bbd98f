/*
 * Emails (New), the asset v2 operations under /rest/asset/v2/email
 * (docs/behaviour.md §2.3, §9; docs/assets.md "Emails v2").  They are a
 * second view of the one email store of Emails v1 (api_emails.c,
 * repo_emails.c): an email made by either is seen by both, v2 approves
 * with v1's checks and shows the HTML v1's Get Email Full Content
 * renders.  Bodies are JSON; ids are strings; every handler first checks
 * the x-app-type header.
 *
 * Choices where the real service is silent:
 *   - content ids: the draft and the approved version are separate
 *     content ids.  The approved version, or the draft of an email that
 *     has no approved version, has the email's own (v1) id; the draft
 *     beside an approved version has the id 2^31 + the email's id
 *     (EMAIL2_DRAFT_BASE), so no table is needed and no content id can be
 *     another email's.  associatedStates lists the email's versions
 *     (approved first) with their content ids; virtualId is the email's
 *     (v1) id.  Approving a draft gives the approved version the email's
 *     id, so the draft's content id is gone after it;
 *   - status is the version's ("draft" or "approved"), state the
 *     email's ("draft", "approved" or "approvedWithDraft");
 *   - x-app-type must be "marketo" (any letter case): missing is 1002
 *     "Missing value for required header 'x-app-type'", another value
 *     1001;
 *   - errors are the §2.3 objects: key "api.error.<code>", the code and
 *     message of the v1 table in code, message, dynamicMessage and
 *     errorMessage, type "error", source "validation", errorPosition
 *     null; all with HTTP 200, as the rest of the service; warnings (an
 *     id a bulk call does not find) are entries of errors of type
 *     "warning" in a success;
 *   - a content id that names nothing (or is not a number) is 702 "<id>
 *     Email not found", for reads too (v2 has no "No assets found"
 *     warning);
 *   - metadata: createdBy, modifiedBy and their ids are null (mauto
 *     keeps no user of an asset), createdAt and modifiedAt the email's
 *     times in ISO 8601 (Z); appType "marketo"; editorType "email";
 *     externalId and scriptEngine null; editorContext
 *     {"dynamicContent":{}}; settings.enableUrlTracking true;
 *     headers.ccEmails []; a header set to dynamic content (v1) shows as
 *     null; appData has folderId for an email in a folder and programId,
 *     programName, programType for one in a program, workspaceId "1";
 *   - data (Get, Bulk Get, and the answers of Create, Update, Update
 *     Status, Clone) is the version's HTML as Get Email Full Content
 *     renders it and its text: the text.body the version was given, else
 *     the HTML's text (syncFromHtml true then);
 *   - Create: name (701 when blank), appData with folderId, programId or
 *     workspaceId (701 "appData cannot be blank" with none; folderId
 *     wins over programId; workspaceId alone is the Emails root folder,
 *     2; a workspace other than 1 is 710), headers.subject (701 when
 *     blank).  With templateId the email is made from that email
 *     template (709 "Email template <id> not found") and data is
 *     ignored, as the swagger says; without it the email is not linked
 *     to a template and data.html.body is its HTML (checked as Update
 *     Email Full Content checks it: 709 for <script>).  ids may be JSON
 *     strings or numbers; lengths are counted in characters as the
 *     email keeps them (name 255, description 2000, subject and
 *     preheader 4096, the other headers 1024: 1001 beyond);
 *   - settings.enableUrlTracking, brandedDomain, dedicatedIp and
 *     editorContext are taken and not kept; a non-empty ccEmails is 709
 *     (mauto has no CC to send to);
 *   - Update (its body optional: none changes nothing and answers the
 *     content named) edits what v1 edits: name, description, preheader
 *     and the settings are the email's; headers and data change the
 *     draft, made first as a copy of the approved version when there is
 *     none, and the answer is that draft; templateId links the email to
 *     that template (no longer to its old one) and resets the draft's
 *     content to the template's (an approved version shows the new
 *     template too); data.html.body of an email linked to a template is
 *     709;
 *   - Update Status takes any content id of the email: approve (the v1
 *     checks: 709 "Cannot approve email: From Name is empty", ...),
 *     unapprove, discard as v1's approveDraft, unapprove, discardDraft;
 *     create_draft makes the draft beside an approved-only email (709
 *     when it has a draft already).  The answer is the version the
 *     action leaves: approved for approve and discard, the draft for
 *     unapprove and create_draft (the version the email has then when
 *     another call took that one away in between; Update likewise);
 *   - Clone copies the approved version, else the draft (as v1), into a
 *     new draft in the source's place; newAsset.name is required (701),
 *     a name taken there 709;
 *   - Delete of the draft beside an approved version discards it; of
 *     another content id deletes the email (v1's rules: 709 when
 *     approved or used);
 *   - Bulk Get and Bulk Used By leave out ids they do not find, each
 *     with a warning; Bulk Delete checks every id first (702 for one
 *     that is not there, 709 for an approved email) and deletes none
 *     then; ignoreUsedBy true deletes used emails, forgetting their uses;
 *   - assetIds: 1 to 20 ids (Bulk Get, Bulk Delete), 1 to 50 (Bulk Used
 *     By): none is 701 "assetIds cannot be blank", more is 1003;
 *   - List Emails: the result is the swagger's object {totalItems,
 *     pageSize, currentPage, items} (docs/behaviour.md §15), one item per
 *     version (content id); workspaceId is required; pageIndex from 0,
 *     pageSize 1 to 50 (default 20); status (repeated) draft and
 *     approved; folderId and folderIds (repeated) with folderType
 *     (Folder by default); name matches names that contain it, in any
 *     letter case; createdAtStart/End and modifiedAtStart/End (704 for a
 *     value that is not an ISO 8601 date); templateId; sortKey name,
 *     createdAt, modifiedAt or id (the default) and sortOrder ASC
 *     (default) or DESC; createdBy, modifiedBy, isCreatedByMe,
 *     isModifiedByMe, scriptEngine, isValueNonNullable and
 *     includeArchived are taken and do not filter (no users, scripts or
 *     archive in mauto);
 *   - Get Email Used By lists the asset_usage rows of the email (id,
 *     contentType the user's type, the other members null) with
 *     pageDetails; pageIndex from 0, pageSize 1 to 50 (default 20);
 *     type is taken and does not filter.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <json-c/json.h>

#include "api/api.h"
#include "api/api_asset.h"
#include "api/api_common.h"
#include "api/api_emails.h"
#include "api/api_emails_ctx.h"
#include "bounds.h"
#include "call.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "http/validate.h"
#include "model/asset.h"
#include "model/email.h"
#include "model/folder.h"
#include "model/template.h"
#include "repo/repo_email_templates.h"
#include "repo/repo_emails.h"
#include "repo/repo_folders.h"
#include "repo/repo_programs.h"
#include "repo/repo_usage.h"
#include "util/arena.h"
#include "util/num.h"
#include "util/text.h"

/* The content id of the draft beside an approved version, less the id. */
#define EMAIL2_DRAFT_BASE	((int64_t)1 << 31)
/*
 * The longest values taken, in characters, as email and email_version
 * keep them (db/migrations/0013_emails.sql): subject and preheader, the
 * other headers, and the HTML or text of data (in bytes, under the body
 * limit).
 */
#define EMAIL2_SUBJECT_CHARS	4096
#define EMAIL2_HDR_CHARS	1024
#define EMAIL2_DATA_BYTES	MAX_BODY_BYTES
/* The Emails root folder, where workspaceId alone puts an email. */
#define EMAIL2_ROOT_FOLDER	2

/* A content id: the email and the version it names. */
struct cid {
	int32_t			 email;
	bool			 side_draft;	/* the draft beside approved */
	char			 text[24];
};

#define STR(x)		#x
#define XSTR(x)		STR(x)

/* The x-app-type header every v2 operation requires (1002, 1001). */
static int
app_type(struct call *c, struct resp *r)
{
	const char *v = c->req->app_type;

	if (v == NULL || *v == '\0')
		return api_common_fail(c, r, -API_ERR_MISSING_PARAM,
		    "Missing value for required header 'x-app-type'");
	if (strcasecmp(v, "marketo") != 0)
		return api_common_fail(c, r, -API_ERR_INVALID_VALUE,
		    "Invalid value '%s'. Required of type 'x-app-type' "
		    "(marketo)", api_common_echo(c, v));
	return 0;
}

/* The message of 702, "<id> Email not found", the id as the client wrote it. */
static const char *
not_found_msg(struct call *c, const char *id)
{
	const char *m;

	m = arena_printf(&c->app->arena, "%s Email not found",
	    api_common_echo(c, id));
	return m != NULL ? m : "Email not found";
}

/* 702 "<id> Email not found". */
static int
not_found(struct call *c, struct resp *r, const char *id)
{
	return api_common_fail(c, r, -API_ERR_NO_DATA, "%s",
	    not_found_msg(c, id));
}

/* The content id text s into *out; -1 when it names no content. */
static int
cid_parse(const char *s, struct cid *out)
{
	int64_t v;

	memset(out, 0, sizeof(*out));
	if (s == NULL || *s == '\0' || strlen(s) >= sizeof(out->text) ||
	    strspn(s, "0123456789") != strlen(s) ||
	    num_parse_i64(s, 1, EMAIL2_DRAFT_BASE + INT32_MAX, &v) != 0)
		return -1;
	(void)snprintf(out->text, sizeof(out->text), "%lld", (long long)v);
	if (v > INT32_MAX) {
		if (v == EMAIL2_DRAFT_BASE)
			return -1;
		out->side_draft = true;
		v -= EMAIL2_DRAFT_BASE;
	}
	out->email = (int32_t)v;
	return 0;
}

/* The content id of the version e shows. */
static int64_t
cid_of(const struct repo_email *e)
{
	return e->status == ASSET_ST_DRAFT && e->v.has_approved ?
	    EMAIL2_DRAFT_BASE + e->id : e->id;
}

static struct json_object *
id_json(int64_t id)
{
	char buf[24];

	(void)snprintf(buf, sizeof(buf), "%lld", (long long)id);
	return json_object_new_string(buf);
}

/*
 * The email and version content id text names into *e (with the
 * version's content when with_content) and *id: 0, or 702.
 */
static int
load(struct call *c, struct resp *r, const char *text, bool with_content,
    struct repo_email *e, struct cid *id)
{
	int err;

	if (cid_parse(text, id) != 0)
		return not_found(c, r, text != NULL ? text : "");
	err = repo_email_get(c->app->db, &c->app->arena, id->email,
	    id->side_draft ? ASSET_ST_DRAFT : ASSET_ST_ANY, with_content, e);
	if (err == -REPO_ERR_NOT_FOUND ||
	    (err == 0 && id->side_draft && !e->v.has_approved))
		return not_found(c, r, id->text);
	return err != 0 ? err_from_repo(err) : 0;
}

/* The email's state: draft, approved, approvedWithDraft. */
static const char *
state_name(const struct asset_versions *v)
{
	if (v->has_approved && v->has_draft)
		return "approvedWithDraft";
	return v->has_approved ? "approved" : "draft";
}

static struct json_object *
state_json(int64_t cid, const char *state)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "contentId", id_json(cid));
	json_object_object_add(o, "externalId", NULL);
	json_object_object_add(o, "state", json_object_new_string(state));
	return o;
}

/* A header as v2 shows it: the Text value, or null. */
static struct json_object *
hdr_json(const struct repo_email *e, enum repo_email_hdr h)
{
	if (e->hdr[h].value == NULL || e->hdr[h].type == NULL ||
	    strcmp(e->hdr[h].type, "Text") != 0)
		return NULL;
	return json_object_new_string(e->hdr[h].value);
}

static struct json_object *
headers_json(const struct repo_email *e)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "subject", hdr_json(e, EMAIL_HDR_SUBJECT));
	json_object_object_add(o, "fromName",
	    hdr_json(e, EMAIL_HDR_FROM_NAME));
	json_object_object_add(o, "fromEmail",
	    hdr_json(e, EMAIL_HDR_FROM_EMAIL));
	json_object_object_add(o, "replyEmail",
	    hdr_json(e, EMAIL_HDR_REPLY_EMAIL));
	json_object_object_add(o, "preheader",
	    api_common_str_or_null(e->pre_header));
	json_object_object_add(o, "ccEmails", json_object_new_array());
	return o;
}

static struct json_object *
metadata_json(const struct repo_email *e)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "createdBy", NULL);
	json_object_object_add(o, "createdAt",
	    api_common_db_time_json(e->created_at));
	json_object_object_add(o, "createdById", NULL);
	json_object_object_add(o, "createdByAepId", NULL);
	json_object_object_add(o, "modifiedBy", NULL);
	json_object_object_add(o, "modifiedAt",
	    api_common_db_time_json(e->updated_at));
	json_object_object_add(o, "modifiedById", NULL);
	json_object_object_add(o, "modifiedByAepId", NULL);
	return o;
}

static struct json_object *
settings_json(const struct repo_email *e)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "isOperational",
	    json_object_new_boolean(e->operational));
	json_object_object_add(o, "isWebPageView",
	    json_object_new_boolean(e->web_view));
	json_object_object_add(o, "isTextOnly",
	    json_object_new_boolean(e->text_only));
	json_object_object_add(o, "disableOpenTracking",
	    json_object_new_boolean(e->open_tracking_disabled));
	json_object_object_add(o, "enableUrlTracking",
	    json_object_new_boolean(true));
	return o;
}

/* appData: the place, with the program's name and type for a program. */
static struct json_object *
app_data_json(struct call *c, const struct repo_email *e)
{
	struct json_object *o = json_object_new_object();
	struct repo_program p;

	json_object_object_add(o, "editorType",
	    json_object_new_string("email"));
	/* XXX: one workspace (Default, 1) holds every place. */
	json_object_object_add(o, "workspaceId", json_object_new_string("1"));
	if (e->place.type == FOLDER_T_FOLDER) {
		json_object_object_add(o, "folderId", id_json(e->place.id));
		return o;
	}
	json_object_object_add(o, "programId", id_json(e->place.id));
	json_object_object_add(o, "programName",
	    json_object_new_string(e->folder_name));
	memset(&p, 0, sizeof(p));
	if (repo_programs_get_by_id(c->app->db, (int32_t)e->place.id,
	    &p) == 0 && p.type != NULL)
		json_object_object_add(o, "programType",
		    json_object_new_string(p.type));
	else
		json_object_object_add(o, "programType", NULL);
	repo_programs_program_clear(&p);
	return o;
}

/* data: {html:{body}, text:{body, syncFromHtml}} of e's version. */
static int
data_json(struct call *c, struct resp *r, const struct repo_email *e,
    struct json_object **out)
{
	struct json_object *o, *h, *t;
	char *html, *text;
	size_t len;
	bool own;
	int err;

	*out = NULL;
	if ((err = api_emails_render_version(c, r, e->id, e->status, &html,
	    &len, &text, &own)) != 0)
		return err;
	o = json_object_new_object();
	h = json_object_new_object();
	json_object_object_add(h, "body",
	    json_object_new_string_len(html, (int)len));
	json_object_object_add(o, "html", h);
	t = json_object_new_object();
	json_object_object_add(t, "body", json_object_new_string(text));
	json_object_object_add(t, "syncFromHtml",
	    json_object_new_boolean(!own));
	json_object_object_add(o, "text", t);
	free(html);
	free(text);
	*out = o;
	return 0;
}

/*
 * The v2 email of e's version (EmailContentDTO), with data when
 * with_data: 0 and *out, or a negative api_err.
 */
static int
email2_json(struct call *c, struct resp *r, const struct repo_email *e,
    bool with_data, struct json_object **out)
{
	struct json_object *o, *states, *data = NULL, *ctx;
	int err;

	*out = NULL;
	if (with_data && (err = data_json(c, r, e, &data)) != 0)
		return err;
	o = json_object_new_object();
	json_object_object_add(o, "id", id_json(cid_of(e)));
	json_object_object_add(o, "name", json_object_new_string(e->name));
	json_object_object_add(o, "description",
	    api_common_str_or_null(e->description));
	json_object_object_add(o, "appType",
	    json_object_new_string("marketo"));
	json_object_object_add(o, "headers", headers_json(e));
	json_object_object_add(o, "metadata", metadata_json(e));
	json_object_object_add(o, "settings", settings_json(e));
	json_object_object_add(o, "status",
	    json_object_new_string(asset_status_name(e->status)));
	json_object_object_add(o, "state",
	    json_object_new_string(state_name(&e->v)));
	json_object_object_add(o, "virtualId", id_json(e->id));
	states = json_object_new_array();
	if (e->v.has_approved)
		json_object_array_add(states, state_json(e->id, "approved"));
	if (e->v.has_draft)
		json_object_array_add(states, state_json(e->v.has_approved ?
		    EMAIL2_DRAFT_BASE + e->id : e->id, "draft"));
	json_object_object_add(o, "associatedStates", states);
	json_object_object_add(o, "appData", app_data_json(c, e));
	json_object_object_add(o, "templateId", e->template_id != 0 ?
	    id_json(e->template_id) : NULL);
	json_object_object_add(o, "externalId", NULL);
	ctx = json_object_new_object();
	json_object_object_add(ctx, "dynamicContent",
	    json_object_new_object());
	json_object_object_add(o, "editorContext", ctx);
	json_object_object_add(o, "scriptEngine", NULL);
	if (data != NULL)
		json_object_object_add(o, "data", data);
	*out = o;
	return 0;
}

/*
 * Answers email id's version want, with data; the version it has now
 * when another call has taken that one away since the change.
 */
static int
answer(struct call *c, struct resp *r, int32_t id, enum asset_status want)
{
	struct repo_email e;
	struct json_object *o;
	char text[24];
	int err, tries;

	for (tries = 0; tries < 2; tries++, want = ASSET_ST_ANY) {
		err = repo_email_get(c->app->db, &c->app->arena, id, want,
		    false, &e);
		if (err == -REPO_ERR_NOT_FOUND && want != ASSET_ST_ANY)
			continue;
		if (err == -REPO_ERR_NOT_FOUND) {
			(void)snprintf(text, sizeof(text), "%ld", (long)id);
			return not_found(c, r, text);
		}
		if (err != 0)
			return err_from_repo(err);
		err = email2_json(c, r, &e, true, &o);
		if (err == -API_ERR_NO_DATA && tries == 0) {
			r->err_msg = NULL;
			continue;
		}
		if (err != 0)
			return err;
		resp_add(r, o);
		return 0;
	}
	return err;
}

/* Whether s is NULL or only white space. */
static bool
is_blank(const char *s)
{
	return s == NULL || s[strspn(s, " \t\r\n")] == '\0';
}

/* 701 "<what> cannot be blank". */
static int
blank(struct call *c, struct resp *r, const char *what)
{
	return api_common_fail(c, r, -API_ERR_BLANK, "%s cannot be blank",
	    what);
}

/* What Create and Update read from a body (NULL strings: not given). */
struct email2_body {
	const char		*name;
	const char		*description;
	const char		*hdr[EMAIL_HDR__MAX];
	const char		*preheader;
	int			 operational, text_only, web_view;	/* -1 */
	const char		*html;		/* data.html.body */
	const char		*text;		/* data.text.body to keep */
	bool			 drop_text;	/* syncFromHtml true */
	bool			 has_template;
	int32_t			 template_id;
};

/* headers, settings, data, templateId of body into *b (1001, 709). */
static int
read_common(struct call *c, struct resp *r, struct json_object *body,
    struct email2_body *b)
{
	static const char *const hnames[EMAIL_HDR__MAX] = {
		[EMAIL_HDR_SUBJECT] = "subject",
		[EMAIL_HDR_FROM_NAME] = "fromName",
		[EMAIL_HDR_FROM_EMAIL] = "fromEmail",
		[EMAIL_HDR_REPLY_EMAIL] = "replyEmail",
	};
	struct json_object *h, *s, *d, *x, *cc;
	bool v, has, sync = false;
	size_t i, max;
	int err;

	b->operational = b->text_only = b->web_view = -1;
	if ((err = api_common_member_str(c, r, body, "name", ASSET_NAME_CHARS,
	    &b->name)) != 0 ||
	    (err = api_common_member_str(c, r, body, "description",
	    ASSET_DESCRIPTION_CHARS, &b->description)) != 0 ||
	    (err = api_common_member_obj(c, r, body, "headers", &h)) != 0 ||
	    (err = api_common_member_obj(c, r, body, "settings", &s)) != 0 ||
	    (err = api_common_member_obj(c, r, body, "data", &d)) != 0 ||
	    (err = api_common_member_obj(c, r, body, "editorContext",
	    &x)) != 0 ||
	    (err = api_common_member_id(c, r, body, "templateId",
	    &b->template_id, &b->has_template)) != 0)
		return err;
	/* Their lengths in characters once every member's type is known. */
	if ((err = api_common_member_text(c, r, body, "name",
	    ASSET_NAME_CHARS, &b->name)) != 0 ||
	    (err = api_common_member_text(c, r, body, "description",
	    ASSET_DESCRIPTION_CHARS, &b->description)) != 0)
		return err;
	for (i = 0; i < EMAIL_HDR__MAX; i++) {
		max = i == EMAIL_HDR_SUBJECT ? EMAIL2_SUBJECT_CHARS :
		    EMAIL2_HDR_CHARS;
		if ((err = api_common_member_text(c, r, h, hnames[i], max,
		    &b->hdr[i])) != 0)
			return err;
	}
	if ((err = api_common_member_text(c, r, h, "preheader",
	    EMAIL2_SUBJECT_CHARS, &b->preheader)) != 0)
		return err;
	if (h != NULL && json_object_object_get_ex(h, "ccEmails", &cc) &&
	    cc != NULL) {
		if (!json_object_is_type(cc, json_type_array))
			return api_common_fail(c, r, -API_ERR_INVALID_VALUE,
			    "Invalid value for 'ccEmails': not an array");
		if (json_object_array_length(cc) > 0)
			return api_common_fail(c, r, -API_ERR_RULE,
			    "ccEmails are not supported");
	}
	if ((err = api_common_member_bool(c, r, s, "isOperational", &v,
	    &has)) != 0)
		return err;
	b->operational = has ? v : -1;
	if ((err = api_common_member_bool(c, r, s, "isTextOnly", &v,
	    &has)) != 0)
		return err;
	b->text_only = has ? v : -1;
	if ((err = api_common_member_bool(c, r, s, "isWebPageView", &v,
	    &has)) != 0)
		return err;
	b->web_view = has ? v : -1;
	if ((err = api_common_member_bool(c, r, s, "enableUrlTracking", &v,
	    NULL)) != 0)
		return err;
	if ((err = api_common_member_obj(c, r, d, "html", &h)) != 0 ||
	    (err = api_common_member_str(c, r, h, "body", EMAIL2_DATA_BYTES,
	    &b->html)) != 0 ||
	    (err = api_common_member_obj(c, r, d, "text", &x)) != 0 ||
	    (err = api_common_member_str(c, r, x, "body", EMAIL2_DATA_BYTES,
	    &b->text)) != 0 ||
	    (err = api_common_member_bool(c, r, x, "syncFromHtml", &sync,
	    NULL)) != 0)
		return err;
	if (sync) {
		/* The text follows the HTML: a text of its own is dropped. */
		b->text = NULL;
		b->drop_text = true;
	}
	if (b->html != NULL) {
		char msg[TPL_MSG_BYTES];

		if (tpl_check_snippet(b->html, strlen(b->html), msg) != 0)
			return api_common_fail(c, r, -API_ERR_RULE, "%s", msg);
	}
	if (b->has_template) {
		struct repo_etpl tpl;

		err = repo_etpl_get(c->app->db, &c->app->arena,
		    b->template_id, false, &tpl);
		if (err == -REPO_ERR_NOT_FOUND)
			return api_common_fail(c, r, -API_ERR_RULE,
			    "Email template %ld not found",
			    (long)b->template_id);
		if (err != 0)
			return err_from_repo(err);
	}
	return 0;
}

/* The content document of an email not linked to a template. */
static const char *
content_doc(struct call *c, const char *html, const char *text)
{
	struct json_object *doc = email_doc_parse("", 0);
	const char *s = NULL;
	char *t;

	if (doc == NULL)
		return NULL;
	email_doc_set_html(doc, html != NULL ? html : "");
	if (text != NULL)
		email_doc_set_text(doc, text);
	if ((t = email_doc_text_of(doc)) != NULL)
		s = arena_strdup(&c->app->arena, t);
	free(t);
	json_object_put(doc);
	return s;
}

/* The place appData names (701, 710, 711, 1001). */
static int
app_data_place(struct call *c, struct resp *r, struct json_object *ad,
    struct repo_place *place)
{
	struct folder_ref ref;
	int32_t fid, pid, wid;
	bool hf, hp, hw;
	int err;

	if ((err = api_common_member_id(c, r, ad, "folderId", &fid,
	    &hf)) != 0 ||
	    (err = api_common_member_id(c, r, ad, "programId", &pid,
	    &hp)) != 0 ||
	    (err = api_common_member_id(c, r, ad, "workspaceId", &wid,
	    &hw)) != 0)
		return err;
	if (!hf && !hp && !hw)
		return blank(c, r, "appData");
	memset(&ref, 0, sizeof(ref));
	if (hf) {
		ref.type = FOLDER_T_FOLDER;
		ref.id = fid;
	} else if (hp) {
		ref.type = FOLDER_T_PROGRAM;
		ref.id = pid;
	} else {
		if (wid != 1)
			return api_common_fail(c, r, -API_ERR_NO_PARENT,
			    "Workspace %ld not found", (long)wid);
		ref.type = FOLDER_T_FOLDER;
		ref.id = EMAIL2_ROOT_FOLDER;
	}
	return api_asset_place(c, r, &ref, AK_EMAIL, place);
}

/* ---- Create, read, list --------------------------------------------- */

/* POST /rest/asset/v2/email */
int
api_emails2_create(struct call *c, struct resp *r)
{
	struct json_object *body, *ad;
	struct email2_body b;
	struct repo_email_new n;
	struct repo_place place;
	int32_t id;
	size_t h;
	int err;

	memset(&b, 0, sizeof(b));
	if ((err = app_type(c, r)) != 0 ||
	    (err = api_common_body(c, r, &body)) != 0 ||
	    (err = read_common(c, r, body, &b)) != 0)
		return err;
	if (is_blank(b.name))
		return blank(c, r, "name");
	if ((err = api_common_member_obj(c, r, body, "appData", &ad)) != 0)
		return err;
	if (ad == NULL)
		return blank(c, r, "appData");
	if (is_blank(b.hdr[EMAIL_HDR_SUBJECT]))
		return blank(c, r, "headers.subject");
	if ((err = app_data_place(c, r, ad, &place)) != 0)
		return err;
	memset(&n, 0, sizeof(n));
	n.name = b.name;
	n.description = b.description;
	n.place = place.ref;
	n.template_id = b.has_template ? b.template_id : 0;
	n.operational = b.operational > 0;
	n.text_only = b.text_only > 0;
	n.web_view = b.web_view > 0;
	n.pre_header = b.preheader;
	for (h = 0; h < EMAIL_HDR__MAX; h++)
		n.hdr[h] = b.hdr[h];
	if (!b.has_template &&
	    (n.content = content_doc(c, b.html, b.text)) == NULL)
		return -API_ERR_SYSTEM;
	err = repo_email_insert(c->app->db, &n, &id);
	if (err == -REPO_ERR_CONFLICT)
		return api_asset_name_taken(c, r, "Email", n.name, true);
	if (err == -REPO_ERR_GONE)
		return api_asset_gone(c, r, &n.place, AK_EMAIL,
		    "The email's template");
	if (err != 0)
		return err_from_repo(err);
	return answer(c, r, id, ASSET_ST_ANY);
}

/* GET /rest/asset/v2/email/{id} */
int
api_emails2_get(struct call *c, struct resp *r)
{
	struct repo_email e;
	struct json_object *o;
	struct cid id;
	int err;

	if ((err = app_type(c, r)) != 0 ||
	    (err = load(c, r, c->req->path_params[0], false, &e, &id)) != 0 ||
	    (err = email2_json(c, r, &e, true, &o)) != 0)
		return err;
	resp_add(r, o);
	return 0;
}

/* The ids of a list parameter as "1,2,3" (1001 for one not an id). */
static int
id_list(struct call *c, struct resp *r, const struct vvalue *one,
    const struct vvalue *many, const char **out)
{
	char *s, *p;
	size_t i, cap;
	int64_t v;

	*out = NULL;
	if (!one->present && !many->present)
		return 0;
	cap = (many->present ? many->n : 0) * 12 + 16;
	if ((s = p = arena_alloc(&c->app->arena, cap)) == NULL)
		return -API_ERR_SYSTEM;
	*p = '\0';
	if (one->present)
		p += snprintf(p, 16, "%lld,", (long long)one->i);
	for (i = 0; many->present && i < many->n; i++) {
		if (num_parse_i64(many->items[i], 1, INT32_MAX, &v) != 0)
			return api_common_invalid(c, r, many->items[i],
			    "folderIds");
		p += snprintf(p, 13, "%lld,", (long long)v);
	}
	if (p > s)
		p[-1] = '\0';
	*out = s;
	return 0;
}

/*
 * GET /rest/asset/v2/email/filter?workspaceId=&folderId=&folderIds=
 * &folderType=&status=&pageIndex=&pageSize=&name=&templateId=
 * &createdAtStart=&createdAtEnd=&modifiedAtStart=&modifiedAtEnd=
 * &sortKey=&sortOrder=
 */
int
api_emails2_filter(struct call *c, struct resp *r)
{
	static const char *const ftypes[] = { "Folder", "Program", NULL };
	static const char *const keys[] = { "name", "createdAt",
	    "modifiedAt", "id", NULL };
	static const char *const orders[] = { "ASC", "DESC", NULL };
	static const struct vparam params[] = {
		{ .name = "workspaceId", .type = VP_INT,
		  .flags = VPF_REQUIRED, .min = 1, .max = INT32_MAX },
		{ .name = "folderId", .type = VP_INT, .min = 1,
		  .max = INT32_MAX },
		{ .name = "folderIds", .type = VP_LIST, .max = 50 },
		{ .name = "folderType", .type = VP_ENUM, .flags = VPF_NOCASE,
		  .words = ftypes },
		{ .name = "status", .type = VP_LIST, .max = 2 },
		{ .name = "pageIndex", .type = VP_INT, .min = 0,
		  .max = INT32_MAX },
		{ .name = "pageSize", .type = VP_INT, .min = 1,
		  .max = EMAIL2_PAGE_MAX },
		{ .name = "name", .type = VP_STR,
		  .max = ASSET_NAME_CHARS * 4 },
		{ .name = "templateId", .type = VP_INT, .min = 1,
		  .max = INT32_MAX },
		{ .name = "createdAtStart", .type = VP_DATETIME,
		  .bad_err = -API_ERR_BAD_DATE,
		  .bad_msg = "Invalid date format" },
		{ .name = "createdAtEnd", .type = VP_DATETIME,
		  .bad_err = -API_ERR_BAD_DATE,
		  .bad_msg = "Invalid date format" },
		{ .name = "modifiedAtStart", .type = VP_DATETIME,
		  .bad_err = -API_ERR_BAD_DATE,
		  .bad_msg = "Invalid date format" },
		{ .name = "modifiedAtEnd", .type = VP_DATETIME,
		  .bad_err = -API_ERR_BAD_DATE,
		  .bad_msg = "Invalid date format" },
		{ .name = "sortKey", .type = VP_ENUM, .flags = VPF_NOCASE,
		  .words = keys },
		{ .name = "sortOrder", .type = VP_ENUM, .flags = VPF_NOCASE,
		  .words = orders },
	};
	static const int sorts[4][2] = { { 0, 1 }, { 2, 3 }, { 4, 5 },
	    { 6, 7 } };
	struct vvalue pv[15];
	struct repo_email_filter q;
	struct repo_email *items;
	struct json_object *res, *arr, *o;
	int64_t total;
	size_t n, i;
	bool draft = false, approved = false;
	int err;

	if ((err = app_type(c, r)) != 0 ||
	    (err = VALIDATE(c->req, r, params, pv)) != 0)
		return err;
	for (i = 0; pv[4].present && i < pv[4].n; i++) {
		if (strcasecmp(pv[4].items[i], "draft") == 0)
			draft = true;
		else if (strcasecmp(pv[4].items[i], "approved") == 0)
			approved = true;
		else
			return api_common_invalid(c, r, pv[4].items[i],
			    "status");
	}
	memset(&q, 0, sizeof(q));
	q.workspace_id = (int32_t)pv[0].i;
	q.status = draft == approved ? ASSET_ST_ANY : draft ?
	    ASSET_ST_DRAFT : ASSET_ST_APPROVED;
	if ((err = id_list(c, r, &pv[1], &pv[2], &q.place_ids)) != 0)
		return err;
	q.place_type = pv[3].present && pv[3].i == 1 ? FOLDER_T_PROGRAM :
	    FOLDER_T_FOLDER;
	q.limit = pv[6].present ? (int)pv[6].i : EMAIL2_PAGE_DEFAULT;
	q.offset = (pv[5].present ? pv[5].i : 0) * q.limit;
	q.name = pv[7].present ? pv[7].s : NULL;
	q.template_id = pv[8].present ? (int32_t)pv[8].i : 0;
	q.has_created_from = pv[9].present;
	q.created_from = pv[9].i;
	q.has_created_to = pv[10].present;
	q.created_to = pv[10].i;
	q.has_modified_from = pv[11].present;
	q.modified_from = pv[11].i;
	q.has_modified_to = pv[12].present;
	q.modified_to = pv[12].i;
	q.sort = sorts[pv[13].present ? pv[13].i : 3][pv[14].present ?
	    pv[14].i : 0];
	if ((err = repo_email_filter(c->app->db, &c->app->arena, &q, &items,
	    &n, &total)) != 0)
		return err_from_repo(err);
	arr = json_object_new_array();
	for (i = 0; i < n; i++) {
		if ((err = email2_json(c, r, &items[i], false, &o)) != 0) {
			json_object_put(arr);
			return err;
		}
		json_object_array_add(arr, o);
	}
	res = json_object_new_object();
	json_object_object_add(res, "totalItems",
	    json_object_new_int64(total));
	json_object_object_add(res, "pageSize", json_object_new_int(q.limit));
	json_object_object_add(res, "currentPage",
	    json_object_new_int64(pv[5].present ? pv[5].i : 0));
	json_object_object_add(res, "items", arr);
	r->result_object = res;
	return 0;
}

/* ---- Update ----------------------------------------------------------- */

/* A repository error of a change of content id as the API answers it. */
static int
change_err(struct call *c, struct resp *r, const struct cid *id, int err,
    const char *msg)
{
	return api_asset_change_err(c, r, err, msg, not_found_msg(c,
	    id->text));
}

/* POST /rest/asset/v2/email/{id}/update */
int
api_emails2_update(struct call *c, struct resp *r)
{
	struct json_object *body;
	struct email2_body b;
	struct repo_email e;
	struct repo_email_meta m;
	struct email_edit ed;
	struct cid id;
	char msg[REPO_EMAIL_MSG_BYTES];
	bool content;
	size_t h;
	int err;

	memset(&b, 0, sizeof(b));
	/* The body is optional (the swagger's): none changes nothing. */
	body = api_common_body_object(c);
	if ((err = app_type(c, r)) != 0 ||
	    (c->req->json != NULL &&
	    (err = api_common_body(c, r, &body)) != 0) ||
	    (err = read_common(c, r, body, &b)) != 0 ||
	    (err = load(c, r, c->req->path_params[0], false, &e, &id)) != 0)
		return err;
	if (b.name != NULL && is_blank(b.name))
		return blank(c, r, "name");
	if (b.html != NULL && e.template_id != 0 && !b.has_template)
		return api_common_fail(c, r, -API_ERR_RULE, "Cannot update the "
		    "HTML of an email linked to a template");
	content = b.has_template || b.html != NULL || b.text != NULL ||
	    b.drop_text;
	for (h = 0; h < EMAIL_HDR__MAX; h++)
		content = content || b.hdr[h] != NULL;
	memset(&m, 0, sizeof(m));
	m.name = b.name;
	m.description = b.description;
	m.pre_header = b.preheader;
	m.operational = b.operational;
	m.publish_to_msi = -1;
	m.text_only = b.text_only;
	m.web_view = b.web_view;
	m.auto_copy_to_text = -1;
	m.template_id = b.has_template ? b.template_id : 0;
	memset(&ed, 0, sizeof(ed));
	ed.c = c;
	ed.open_tracking_disabled = -1;
	for (h = 0; h < EMAIL_HDR__MAX; h++)
		if (b.hdr[h] != NULL) {
			ed.hdr[h].type = "Text";
			ed.hdr[h].value = b.hdr[h];
		}
	ed.reset = b.has_template;
	/* The content of an email linked to a template stays. */
	if (e.template_id == 0 || b.has_template) {
		ed.full_html = b.html;
		ed.set_text = b.text != NULL || b.drop_text;
		ed.text = b.text;
	}
	err = repo_email_update(c->app->db, e.id, &m, e.template_id,
	    content ? api_emails_ctx_apply : NULL, &ed, msg);
	if (err == -REPO_ERR_CONFLICT)
		return api_asset_name_taken(c, r, "Email", b.name, true);
	if (err != 0)
		return change_err(c, r, &id, err, msg);
	if (!content)
		return answer(c, r, e.id, id.side_draft ? ASSET_ST_DRAFT :
		    ASSET_ST_ANY);
	return answer(c, r, e.id, ASSET_ST_DRAFT);
}

/* ---- State, clone, delete -------------------------------------------- */

/* POST /rest/asset/v2/email/state/transition {contentId, action} */
int
api_emails2_state(struct call *c, struct resp *r)
{
	static const char *const actions[] = { "approve", "unapprove",
	    "discard", "create_draft", NULL };
	static const enum asset_op ops[] = { ASSET_APPROVE, ASSET_UNAPPROVE,
	    ASSET_DISCARD, ASSET_EDIT };
	struct json_object *body;
	struct repo_email e;
	struct email_edit ed;
	struct cid id;
	const char *cid, *action;
	char msg[REPO_EMAIL_MSG_BYTES];
	size_t a;
	int err;

	if ((err = app_type(c, r)) != 0 ||
	    (err = api_common_body(c, r, &body)) != 0 ||
	    (err = api_common_member_id_text(c, r, body, "contentId", true,
	    &cid)) != 0)
		return err;
	if ((err = api_common_member_str(c, r, body, "action", 32,
	    &action)) != 0)
		return err;
	if (is_blank(action))
		return blank(c, r, "action");
	for (a = 0; actions[a] != NULL; a++)
		if (strcmp(actions[a], action) == 0)
			break;
	if (actions[a] == NULL)
		return api_common_fail(c, r, -API_ERR_INVALID_VALUE,
		    "Invalid value '%s'. Required of type 'action' (approve, "
		    "unapprove, discard, create_draft)",
		    api_common_echo(c, action));
	if ((err = load(c, r, cid, false, &e, &id)) != 0)
		return err;
	if (ops[a] == ASSET_EDIT) {
		if (e.v.has_draft)
			return api_common_fail(c, r, -API_ERR_RULE,
			    "Email %ld already has a draft", (long)e.id);
		memset(&ed, 0, sizeof(ed));
		ed.c = c;
		ed.open_tracking_disabled = -1;
		err = repo_email_edit(c->app->db, e.id, api_emails_ctx_apply,
		    &ed, msg);
	} else
		err = repo_email_change(c->app->db, e.id, ops[a],
		    ops[a] == ASSET_APPROVE ? api_emails_approval_check : NULL,
		    msg);
	if (err != 0)
		return change_err(c, r, &id, err, msg);
	return answer(c, r, e.id, ops[a] == ASSET_APPROVE ||
	    ops[a] == ASSET_DISCARD ? ASSET_ST_APPROVED : ASSET_ST_DRAFT);
}

/* POST /rest/asset/v2/email/clone {assetId, newAsset:{name, description}} */
int
api_emails2_clone(struct call *c, struct resp *r)
{
	struct json_object *body, *na;
	struct repo_email e;
	struct repo_email_new n;
	struct cid id;
	const char *aid, *name, *desc;
	int32_t nid;
	int err;

	if ((err = app_type(c, r)) != 0 ||
	    (err = api_common_body(c, r, &body)) != 0 ||
	    (err = api_common_member_id_text(c, r, body, "assetId", true,
	    &aid)) != 0 ||
	    (err = api_common_member_obj(c, r, body, "newAsset", &na)) != 0 ||
	    (err = api_common_member_str(c, r, na, "name", ASSET_NAME_CHARS,
	    &name)) != 0 ||
	    (err = api_common_member_str(c, r, na, "description",
	    ASSET_DESCRIPTION_CHARS, &desc)) != 0)
		return err;
	if (is_blank(name))
		return blank(c, r, "newAsset.name");
	if ((err = load(c, r, aid, false, &e, &id)) != 0)
		return err;
	memset(&n, 0, sizeof(n));
	n.name = name;
	n.description = desc != NULL ? desc : e.description;
	n.place = e.place;
	n.operational = e.operational;
	n.text_only = e.text_only;
	n.web_view = e.web_view;
	n.auto_copy_to_text = e.auto_copy_to_text;
	n.pre_header = e.pre_header;
	n.clone_of = e.id;
	err = repo_email_insert(c->app->db, &n, &nid);
	if (err == -REPO_ERR_CONFLICT)
		return api_asset_name_taken(c, r, "Email", name, true);
	if (err == -REPO_ERR_GONE)
		return api_asset_gone(c, r, &n.place, AK_EMAIL,
		    "The email's template");
	if (err != 0)
		return change_err(c, r, &id, err, "");
	return answer(c, r, nid, ASSET_ST_ANY);
}

/* POST /rest/asset/v2/email/{id}/delete */
int
api_emails2_delete(struct call *c, struct resp *r)
{
	struct repo_email e;
	struct cid id;
	char msg[REPO_EMAIL_MSG_BYTES];
	int err;

	if ((err = app_type(c, r)) != 0 ||
	    (err = load(c, r, c->req->path_params[0], false, &e, &id)) != 0)
		return err;
	/* The side draft's content id discards the draft. */
	if ((err = repo_email_change(c->app->db, e.id, id.side_draft ?
	    ASSET_DISCARD : ASSET_DELETE, NULL, msg)) != 0)
		return change_err(c, r, &id, err, msg);
	r->no_result = true;
	return 0;
}

/* ---- Bulk, used by ------------------------------------------------------ */

/* A warning that id names no email. */
static void
warn_missing(struct call *c, struct resp *r, const char *id)
{
	resp_warn(r, ENV_ASSET2, 702, not_found_msg(c, id));
}

/* Like load, but an id not found is warned about and 1 returned. */
static int
load_or_warn(struct call *c, struct resp *r, const char *text,
    struct repo_email *e, struct cid *id)
{
	int err;

	err = load(c, r, text, false, e, id);
	if (err == -API_ERR_NO_DATA) {
		r->err_msg = NULL;
		warn_missing(c, r, text);
		return 1;
	}
	return err;
}

/* POST /rest/asset/v2/email/bulk/get {assetIds} */
int
api_emails2_bulk_get(struct call *c, struct resp *r)
{
	struct json_object *body, *ids, *o;
	struct repo_email e;
	struct cid id;
	size_t n, i;
	int err;

	if ((err = app_type(c, r)) != 0 ||
	    (err = api_common_body(c, r, &body)) != 0 ||
	    (err = api_common_member_ids(c, r, body, "assetIds",
	    EMAIL2_BULK_MAX, &ids, &n)) != 0)
		return err;
	for (i = 0; i < n; i++) {
		err = load_or_warn(c, r, json_object_get_string(
		    json_object_array_get_idx(ids, i)), &e, &id);
		if (err > 0)
			continue;
		if (err != 0 || (err = email2_json(c, r, &e, true, &o)) != 0)
			return err;
		resp_add(r, o);
	}
	return 0;
}

/* POST /rest/asset/v2/email/bulk/delete {assetIds, ignoreUsedBy} */
int
api_emails2_bulk_delete(struct call *c, struct resp *r)
{
	struct json_object *body, *ids;
	struct repo_email *es;
	struct repo_email_step *steps;
	struct cid *cs;
	char msg[REPO_EMAIL_MSG_BYTES];
	bool force = false;
	int64_t used;
	size_t n, i, failed;
	int err;

	if ((err = app_type(c, r)) != 0 ||
	    (err = api_common_body(c, r, &body)) != 0 ||
	    (err = api_common_member_ids(c, r, body, "assetIds",
	    EMAIL2_BULK_MAX, &ids, &n)) != 0 ||
	    (err = api_common_member_bool(c, r, body, "ignoreUsedBy", &force,
	    NULL)) != 0)
		return err;
	es = arena_zalloc(&c->app->arena, n * sizeof(*es));
	cs = arena_zalloc(&c->app->arena, n * sizeof(*cs));
	if (es == NULL || cs == NULL)
		return -API_ERR_SYSTEM;
	/* Every id is checked before any is deleted. */
	for (i = 0; i < n; i++) {
		if ((err = load(c, r, json_object_get_string(
		    json_object_array_get_idx(ids, i)), false, &es[i],
		    &cs[i])) != 0)
			return err;
		if (cs[i].side_draft)
			continue;
		if (es[i].v.has_approved)
			return api_common_fail(c, r, -API_ERR_RULE, "Email %s "
			    "is approved: unapprove it before deleting it",
			    cs[i].text);
		if (force)
			continue;
		if ((err = repo_usage_count(c->app->db, USAGE_EMAIL,
		    es[i].id, &used)) != 0)
			return err_from_repo(err);
		if (used > 0)
			return api_common_fail(c, r, -API_ERR_RULE, "Email %s "
			    "is in use", cs[i].text);
	}
	if ((steps = arena_zalloc(&c->app->arena, n * sizeof(*steps))) ==
	    NULL)
		return -API_ERR_SYSTEM;
	for (i = 0; i < n; i++) {
		steps[i].id = es[i].id;
		steps[i].op = cs[i].side_draft ? ASSET_DISCARD : ASSET_DELETE;
	}
	if ((err = repo_email_change_many(c->app->db, steps, n, force,
	    &failed, msg)) != 0)
		return change_err(c, r, &cs[failed], err, msg);
	r->no_result = true;
	return 0;
}

/* POST /rest/asset/v2/email/usedby {assetId, pageIndex, pageSize, type} */
int
api_emails2_used_by(struct call *c, struct resp *r)
{
	struct json_object *body, *o, *pd;
	struct repo_usage_user *users;
	struct repo_email e;
	struct cid id;
	const char *aid, *type;
	int64_t index = 0, size = EMAIL2_PAGE_DEFAULT, total;
	size_t n, i;
	int err;

	if ((err = app_type(c, r)) != 0 ||
	    (err = api_common_body(c, r, &body)) != 0 ||
	    (err = api_common_member_id_text(c, r, body, "assetId", true,
	    &aid)) != 0 ||
	    (err = api_common_member_int(c, r, body, "pageIndex", 0,
	    INT32_MAX, "0 or more", &index)) != 0 ||
	    (err = api_common_member_int(c, r, body, "pageSize", 1,
	    EMAIL2_PAGE_MAX, "1 to " XSTR(EMAIL2_PAGE_MAX), &size)) != 0 ||
	    (err = api_common_member_str(c, r, body, "type", 64,
	    &type)) != 0 ||
	    (err = load(c, r, aid, false, &e, &id)) != 0)
		return err;
	if ((err = repo_usage_count(c->app->db, USAGE_EMAIL, e.id,
	    &total)) != 0 ||
	    (err = repo_usage_list(c->app->db, &c->app->arena, USAGE_EMAIL,
	    e.id, (int32_t)size, index * size, &users, &n)) != 0)
		return err_from_repo(err);
	r->result = json_object_new_array();
	for (i = 0; i < n; i++) {
		o = json_object_new_object();
		json_object_object_add(o, "id", id_json(users[i].id));
		json_object_object_add(o, "name", NULL);
		json_object_object_add(o, "appData", NULL);
		json_object_object_add(o, "channel", NULL);
		json_object_object_add(o, "contentType",
		    json_object_new_string(users[i].type));
		json_object_object_add(o, "externalId", NULL);
		json_object_array_add(r->result, o);
	}
	pd = json_object_new_object();
	json_object_object_add(pd, "totalItems", json_object_new_int64(total));
	json_object_object_add(pd, "pageSize", json_object_new_int64(size));
	json_object_object_add(pd, "currentPage",
	    json_object_new_int64(index));
	r->page_details = pd;
	return 0;
}

/* POST /rest/asset/v2/email/bulk/usedby {assetIds} */
int
api_emails2_bulk_used_by(struct call *c, struct resp *r)
{
	struct json_object *body, *ids, *o;
	struct repo_email e;
	struct cid id;
	int64_t count;
	size_t n, i;
	int err;

	if ((err = app_type(c, r)) != 0 ||
	    (err = api_common_body(c, r, &body)) != 0 ||
	    (err = api_common_member_ids(c, r, body, "assetIds",
	    EMAIL2_BULK_USEDBY_MAX, &ids, &n)) != 0)
		return err;
	r->result = json_object_new_array();
	for (i = 0; i < n; i++) {
		err = load_or_warn(c, r, json_object_get_string(
		    json_object_array_get_idx(ids, i)), &e, &id);
		if (err > 0)
			continue;
		if (err != 0)
			return err;
		if ((err = repo_usage_count(c->app->db, USAGE_EMAIL, e.id,
		    &count)) != 0)
			return err_from_repo(err);
		o = json_object_new_object();
		json_object_object_add(o, "id", json_object_new_string(id.text));
		json_object_object_add(o, "name",
		    json_object_new_string(e.name));
		json_object_object_add(o, "used",
		    json_object_new_boolean(count > 0));
		json_object_object_add(o, "count",
		    json_object_new_int64(count));
		json_object_array_add(r->result, o);
	}
	return 0;
}
