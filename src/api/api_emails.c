/*
 * Emails v1 (docs/assets.md "Emails", docs/behaviour.md §8): the email
 * and its versions (get, by name, browse, create, clone, metadata, approve,
 * unapprove, discard, delete).  The rest of Emails v1 lives by concern:
 * the email context in api_emails_ctx.c, content, sections, variables and
 * dynamic content in api_emails_content.c, modules in
 * api_emails_modules.c, full content and Send Sample in
 * api_emails_full.c; rendering in model/email_render.c.  Parameters
 * are form fields, read from the query string or the body alike.
 *
 * Choices where the real service is silent or contradicts itself:
 *   - Create Email requires name, folder and template (the page's three,
 *     docs/behaviour.md §15); a missing template is 709 "Template is
 *     required" (the page says 709), an id that names no email template
 *     709 "Email template <id> not found".  Email templates have one,
 *     approved version here, so any template may be used.  subject,
 *     fromName, fromEmail and replyEmail are optional and stay null when
 *     not given (mauto has no instance defaults for them); approval
 *     checks they are set;
 *   - an email lives in an email folder or a program (710 for a place
 *     that does not exist, 711 for one of another kind); its name is
 *     unique within its place: another email of that name there is 709
 *     "Email name '<name>' is already in use in this folder";
 *   - approval checks, in this order, that the draft has a from name,
 *     a from address, a reply-to address and a subject: 709 "Cannot
 *     approve email: From Name is empty" (From Address, Reply-To
 *     Address, Subject);
 *   - queries (by id, by name, browse) that find nothing answer the "No
 *     assets found" warning; a change of an email that does not exist
 *     answers 702 "<id> Email not found";
 *   - Get Email by Name without folder finds the lowest id of that name;
 *   - browse without status lists each version of an email that has
 *     both (approved first); maxReturn is 1 to 200 (default 20), offset
 *     0 or more, a value out of range is 1001; earliestUpdatedAt and
 *     latestUpdatedAt bound the email's updatedAt (inclusive), a value
 *     that is not an ISO 8601 date is 704;
 *   - Update Email Metadata's `published` is the publishToMSI member;
 *   - clone takes name and folder (required), description and
 *     operational, copies the approved version (else the draft) into a
 *     new draft linked to the same template;
 *   - `version` is 2 (the template syntax is Email Editor 2.0's) and
 *     `ccFields` null (no CC field is set on an email).
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
#include "http/router.h"
#include "http/validate.h"
#include "model/asset.h"
#include "model/folder.h"
#include "repo/repo_email_templates.h"
#include "repo/repo_emails.h"
#include "repo/repo_folders.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/config.h"

/* Member key (after a comma unless first) and a boolean value. */
static void
bool_write(struct buf *b, const char *key, bool v)
{
	buf_adds(b, key);
	buf_adds(b, v ? "true" : "false");
}

/* A header of the reply: {"type","value"}, or null when not set. */
static void
header_write(struct buf *b, const struct repo_email_header *h)
{
	if (h->value == NULL) {
		buf_adds(b, "null");
		return;
	}
	buf_adds(b, "{\"type\":");
	buf_add_jsonc_str(b, h->type);
	buf_adds(b, ",\"value\":");
	buf_add_jsonc_str(b, h->value);
	buf_addc(b, '}');
}

/*
 * The email's reply object, members in the real service's order, written
 * as JSON text into b (resp_add_text): the same bytes json-c wrote of the
 * object, without an allocation per member.
 */
static void
email_write(struct buf *b, struct call *c, const struct repo_email *e)
{
	char num[32];

	buf_addc(b, '{');
	api_asset_head_members(b, e->id, e->name, e->description,
	    e->created_at, e->updated_at);
	buf_adds(b, ",\"url\":");
	api_asset_url_write(b, c, "EM", e->id, "A1LA1");
	buf_adds(b, ",\"subject\":");
	header_write(b, &e->hdr[EMAIL_HDR_SUBJECT]);
	buf_adds(b, ",\"fromName\":");
	header_write(b, &e->hdr[EMAIL_HDR_FROM_NAME]);
	buf_adds(b, ",\"fromEmail\":");
	header_write(b, &e->hdr[EMAIL_HDR_FROM_EMAIL]);
	buf_adds(b, ",\"replyEmail\":");
	header_write(b, &e->hdr[EMAIL_HDR_REPLY_EMAIL]);
	buf_adds(b, ",\"folder\":");
	api_asset_folder_write(b, e->place.type, e->place.id, e->folder_name);
	bool_write(b, ",\"operational\":", e->operational);
	bool_write(b, ",\"textOnly\":", e->text_only);
	bool_write(b, ",\"publishToMSI\":", e->publish_to_msi);
	bool_write(b, ",\"webView\":", e->web_view);
	buf_adds(b, ",\"status\":");
	buf_add_jsonc_str(b, asset_status_name(e->status));
	buf_adds(b, ",\"template\":");
	if (e->template_id != 0) {
		(void)snprintf(num, sizeof(num), "%ld", (long)e->template_id);
		buf_adds(b, num);
	} else
		buf_adds(b, "null");
	buf_adds(b, ",\"workspace\":");
	buf_add_jsonc_str(b, e->workspace[0] != '\0' ? e->workspace :
	    "Default");
	bool_write(b, ",\"isOpenTrackingDisabled\":",
	    e->open_tracking_disabled);
	buf_adds(b, ",\"version\":2");
	bool_write(b, ",\"autoCopyToText\":", e->auto_copy_to_text);
	buf_adds(b, ",\"preHeader\":");
	buf_add_jsonc_str(b, e->pre_header);
	buf_adds(b, ",\"ccFields\":null}");
}

/* Reads email id back as the version want picks, into r. */
static int
answer_email(struct call *c, struct resp *r, int32_t id,
    enum asset_status want)
{
	struct repo_email e;
	int err;

	err = repo_email_get(c->app->db, &c->app->arena, id, want, false, &e);
	if (err != 0)
		return api_emails_ctx_err(c, r, id, err, NULL);
	email_write(resp_add_text(r), c, &e);
	return 0;
}

/* The place the folder parameter names, for an email (1001, 710, 711). */
static int
email_place(struct call *c, struct resp *r, const char *folder,
    struct repo_place *place)
{
	return api_asset_place_param(c, r, folder, AK_EMAIL, place);
}

/* ---- Reads ------------------------------------------------------------ */

/* GET /rest/asset/v1/email/{id}.json?status= */
int
api_emails_get(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		API_ASSET_P_STATUS,
	};
	struct vvalue pv[1];
	struct repo_email em;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	e = repo_email_get(c->app->db, &c->app->arena, api_emails_ctx_id(c),
	    api_asset_status(&pv[0]), false, &em);
	if ((e = api_asset_found(r, e)) <= 0)
		return e;
	email_write(resp_add_text(r), c, &em);
	return 0;
}

/* GET /rest/asset/v1/email/byName.json?name=&status=&folder= */
int
api_emails_get_by_name(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "name", .type = VP_STR, .flags = VPF_REQUIRED,
		  .max = ASSET_NAME_CHARS * 4 },
		API_ASSET_P_STATUS,
		API_ASSET_P_FOLDER_OPT,
	};
	struct vvalue pv[3];
	struct repo_email em;
	struct folder_ref ref;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	if (pv[2].present &&
	    (e = api_asset_folder(c, r, pv[2].s, &ref)) != 0)
		return e;
	e = repo_email_get_by_name(c->app->db, &c->app->arena, pv[0].s,
	    pv[2].present ? &ref : NULL, api_asset_status(&pv[1]), &em);
	if ((e = api_asset_found(r, e)) <= 0)
		return e;
	email_write(resp_add_text(r), c, &em);
	return 0;
}

/*
 * GET /rest/asset/v1/emails.json?maxReturn=&offset=&status=&folder=
 * &earliestUpdatedAt=&latestUpdatedAt=
 */
int
api_emails_browse(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		API_ASSET_P_MAX_RETURN,
		API_ASSET_P_OFFSET,
		API_ASSET_P_STATUS,
		API_ASSET_P_FOLDER_OPT,
		{ .name = "earliestUpdatedAt", .type = VP_DATETIME,
		  .bad_err = -API_ERR_BAD_DATE,
		  .bad_msg = "Invalid date format" },
		{ .name = "latestUpdatedAt", .type = VP_DATETIME,
		  .bad_err = -API_ERR_BAD_DATE,
		  .bad_msg = "Invalid date format" },
	};
	struct vvalue pv[6];
	struct repo_email_query q;
	struct repo_email *items;
	struct api_asset_browse b;
	size_t n, i;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0 ||
	    (e = api_asset_browse_query(c, r, AK_EMAIL, &pv[0], &pv[1], &pv[3],
	    &b)) != 0)
		return e;
	memset(&q, 0, sizeof(q));
	q.limit = b.limit;
	q.offset = b.offset;
	q.status = api_asset_status(&pv[2]);
	q.place = b.has_folder ? &b.folder : NULL;
	q.has_earliest = pv[4].present;
	q.earliest = pv[4].i;
	q.has_latest = pv[5].present;
	q.latest = pv[5].i;
	if ((e = repo_email_browse(c->app->db, &c->app->arena, &q, &items,
	    &n)) != 0)
		return err_from_repo(e);
	if (n == 0)
		return api_asset_none(r);
	for (i = 0; i < n; i++)
		email_write(resp_add_text(r), c, &items[i]);
	return 0;
}

/* ---- Create, clone, metadata ------------------------------------------ */

/*
 * POST /rest/asset/v1/emails.json: name, folder, template, description,
 * subject, fromName, fromEmail, replyEmail, operational, textOnly,
 * autoCopyToText, isOpenTrackingDisabled.
 */
int
api_emails_create(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		API_ASSET_P_NAME,
		API_ASSET_P_FOLDER,
		{ .name = "template", .type = VP_INT, .min = 1,
		  .max = INT32_MAX },
		API_ASSET_P_DESCRIPTION,
		{ .name = "subject", .type = VP_STR,
		  .max = EMAIL_HDR_MAX_BYTES },
		{ .name = "fromName", .type = VP_STR,
		  .max = EMAIL_HDR_MAX_BYTES / 4 },
		{ .name = "fromEmail", .type = VP_STR,
		  .max = EMAIL_HDR_MAX_BYTES / 4 },
		{ .name = "replyEmail", .type = VP_STR,
		  .max = EMAIL_HDR_MAX_BYTES / 4 },
		{ .name = "operational", .type = VP_BOOL },
		{ .name = "textOnly", .type = VP_BOOL },
		{ .name = "autoCopyToText", .type = VP_BOOL },
		{ .name = "isOpenTrackingDisabled", .type = VP_BOOL },
	};
	struct vvalue pv[12];
	struct repo_email_new n;
	struct repo_etpl tpl;
	struct repo_place place;
	int32_t id;
	size_t h;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0 ||
	    (e = email_place(c, r, pv[1].s, &place)) != 0)
		return e;
	if (!pv[2].present)
		return api_common_fail(c, r, -API_ERR_RULE,
		    "Template is required");
	e = repo_etpl_get(c->app->db, &c->app->arena, (int32_t)pv[2].i,
	    false, &tpl);
	if (e == -REPO_ERR_NOT_FOUND)
		return api_common_fail(c, r, -API_ERR_RULE,
		    "Email template %lld not found", (long long)pv[2].i);
	if (e != 0)
		return err_from_repo(e);
	memset(&n, 0, sizeof(n));
	n.name = pv[0].s;
	n.description = pv[3].present ? pv[3].s : NULL;
	n.place = place.ref;
	n.template_id = tpl.id;
	for (h = 0; h < EMAIL_HDR__MAX; h++)
		n.hdr[h] = pv[4 + h].present ? pv[4 + h].s : NULL;
	n.operational = pv[8].present && pv[8].b;
	n.text_only = pv[9].present && pv[9].b;
	n.auto_copy_to_text = pv[10].present && pv[10].b;
	n.open_tracking_disabled = pv[11].present && pv[11].b;
	e = repo_email_insert(c->app->db, &n, &id);
	if (e == -REPO_ERR_CONFLICT)
		return api_asset_name_taken(c, r, "Email", n.name, true);
	if (e == -REPO_ERR_GONE)
		return api_asset_gone(c, r, &n.place, AK_EMAIL,
		    "The email's template");
	if (e != 0)
		return err_from_repo(e);
	return answer_email(c, r, id, ASSET_ST_ANY);
}

/*
 * POST /rest/asset/v1/email/{id}/clone.json: name, folder, description,
 * operational.
 */
int
api_emails_clone(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		API_ASSET_P_NAME,
		API_ASSET_P_FOLDER,
		API_ASSET_P_DESCRIPTION,
		{ .name = "operational", .type = VP_BOOL },
	};
	struct vvalue pv[4];
	struct repo_email_new n;
	struct repo_email src;
	struct repo_place place;
	int32_t id = api_emails_ctx_id(c), nid;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	e = repo_email_get(c->app->db, &c->app->arena, id, ASSET_ST_ANY,
	    false, &src);
	if (e != 0)
		return api_emails_ctx_err(c, r, id, e, NULL);
	if ((e = email_place(c, r, pv[1].s, &place)) != 0)
		return e;
	memset(&n, 0, sizeof(n));
	n.name = pv[0].s;
	n.description = pv[2].present ? pv[2].s : src.description;
	n.place = place.ref;
	n.operational = pv[3].present ? pv[3].b : src.operational;
	n.text_only = src.text_only;
	n.auto_copy_to_text = src.auto_copy_to_text;
	n.clone_of = id;
	e = repo_email_insert(c->app->db, &n, &nid);
	if (e == -REPO_ERR_CONFLICT)
		return api_asset_name_taken(c, r, "Email", n.name, true);
	if (e == -REPO_ERR_GONE)
		return api_asset_gone(c, r, &n.place, AK_EMAIL,
		    "The email's template");
	if (e != 0)
		return api_emails_ctx_err(c, r, id, e, NULL);
	return answer_email(c, r, nid, ASSET_ST_ANY);
}

/*
 * POST /rest/asset/v1/email/{id}.json: name, description, preHeader,
 * operational, published, textOnly, webView, autoCopyToText.
 */
int
api_emails_update(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "name", .type = VP_STR,
		  .max = ASSET_NAME_CHARS * 4 },
		API_ASSET_P_DESCRIPTION,
		{ .name = "preHeader", .type = VP_STR,
		  .max = EMAIL_PREHEADER_CHARS * 4 },
		{ .name = "operational", .type = VP_BOOL },
		{ .name = "published", .type = VP_BOOL },
		{ .name = "textOnly", .type = VP_BOOL },
		{ .name = "webView", .type = VP_BOOL },
		{ .name = "autoCopyToText", .type = VP_BOOL },
	};
	struct vvalue pv[8];
	struct repo_email_meta m;
	int32_t id = api_emails_ctx_id(c);
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	m.name = pv[0].present ? pv[0].s : NULL;
	m.description = pv[1].present ? pv[1].s : NULL;
	m.pre_header = pv[2].present ? pv[2].s : NULL;
	m.operational = pv[3].present ? pv[3].b : -1;
	m.publish_to_msi = pv[4].present ? pv[4].b : -1;
	m.text_only = pv[5].present ? pv[5].b : -1;
	m.web_view = pv[6].present ? pv[6].b : -1;
	m.auto_copy_to_text = pv[7].present ? pv[7].b : -1;
	m.template_id = 0;
	e = repo_email_update_meta(c->app->db, id, &m);
	if (e == -REPO_ERR_CONFLICT)
		return api_asset_name_taken(c, r, "Email", m.name, true);
	if (e != 0)
		return api_emails_ctx_err(c, r, id, e, NULL);
	return answer_email(c, r, id, ASSET_ST_ANY);
}

/* ---- Versions ----------------------------------------------------------- */

/* What approving checks: the headers a sent email needs. */
static int
check_for_approval(const struct repo_email *draft, char *msg)
{
	static const char *const names[EMAIL_HDR__MAX] = {
		[EMAIL_HDR_SUBJECT] = "Subject",
		[EMAIL_HDR_FROM_NAME] = "From Name",
		[EMAIL_HDR_FROM_EMAIL] = "From Address",
		[EMAIL_HDR_REPLY_EMAIL] = "Reply-To Address",
	};
	static const enum repo_email_hdr order[] = { EMAIL_HDR_FROM_NAME,
	    EMAIL_HDR_FROM_EMAIL, EMAIL_HDR_REPLY_EMAIL, EMAIL_HDR_SUBJECT };
	const char *v;
	size_t i;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		v = draft->hdr[order[i]].value;
		if (v == NULL || v[strspn(v, " \t\r\n")] == '\0') {
			(void)snprintf(msg, REPO_EMAIL_MSG_BYTES, "Cannot "
			    "approve email: %s is empty", names[order[i]]);
			return -1;
		}
	}
	return 0;
}

/*
 * POST .../email/{id}/approveDraft.json, unapprove.json, discardDraft.json
 * and delete.json: the four version changes that take no parameters, the
 * route's variant (an asset_op) saying which.
 */
int
api_emails_change(struct call *c, struct resp *r)
{
	enum asset_op op = (enum asset_op)c->route->variant;
	char msg[REPO_EMAIL_MSG_BYTES];
	int32_t id = api_emails_ctx_id(c);
	int e;

	e = repo_email_change(c->app->db, id, op,
	    op == ASSET_APPROVE ? check_for_approval : NULL, msg);
	if (e != 0)
		return api_emails_ctx_err(c, r, id, e, msg);
	api_asset_id_result(r, id);
	return 0;
}

/* ---- What Emails v2 (api_emails2.c) shares ------------------------------ */

/* See api_emails.h. */
int
api_emails_approval_check(const struct repo_email *draft, char *msg)
{
	return check_for_approval(draft, msg);
}

