/*
 * Emails v1 (docs/assets.md "Emails", docs/behaviour.md §8): the
 * operations under /rest/asset/v1/email(s) that are built.  Parameters
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
 *     `ccFields` null (no CC field is set on an email);
 *   - every edit of content (headers, a section, a variable) changes the
 *     draft, made first as a copy of the approved version when there is
 *     none; model/email.h says how a version keeps its content;
 *   - Get Email Content lists the template's editable sections in
 *     document order: Text as [{"type":"HTML"},{"type":"Text"}] (the
 *     template's HTML inside the element, and its text, until set), Image
 *     as {width, altText, style, height} (the <img>'s attributes until
 *     set), DynamicContent with the section's dynamic content id (its
 *     htmlId), Snippet with the snippet's id, Video as {videoUrl};
 *   - Update Email Content Section: a section the template does not
 *     declare is 702 "Content section '<htmlId>' not found"; Text takes
 *     HTML checked as snippets are (no <script>, within the HTML bounds:
 *     709 with the reason), with textValue or else the HTML's text; on an
 *     image section, type Text takes value (the image URL) and the image
 *     parameters; DynamicContent and Snippet take the id of a
 *     segmentation or snippet that exists (709 "Segmentation <id> not
 *     found", "Snippet <id> not found"), recorded as used by the email;
 *   - Update Email Content: each header is {"type":"Text","value":..} or
 *     {"type":"DynamicContent","value":<segmentation id>}; text that is
 *     not a JSON object is taken as the Text value; another type, or a
 *     broken object, is 1001; replyEmail is taken for replyTO; nothing
 *     to change is 1002 naming subject;
 *   - variables are named by their id; a module-scoped variable is listed
 *     once per module that uses it, with moduleId; Update Email Variable
 *     of a variable the template does not declare is 702 "Variable
 *     '<name>' not found"; a module-scoped one without moduleId, a global
 *     one with it, a module that does not use it, or a value its type
 *     refuses (tpl_var_value_ok) is 709;
 *   - Get Email CC Fields answers the documentation's example field
 *     (Lead Owner Email Address): mauto has no other address fields;
 *   - modules are instances of the template's modules in its container,
 *     each with an id (the moduleId of the module operations), at first
 *     the template's modules added by default under their own ids; Get
 *     Email Content lists them after the sections as {htmlId, "Module",
 *     index, parentHtmlId (the container), isLocked false}; sections
 *     inside a module hold one content for every instance of it;
 *   - Add Email Module: the path's moduleId names the template's module
 *     (its id or mktoName; 702 when none), `index` (0 or more, required)
 *     where it goes, past the end appends, `name` (optional) the new
 *     instance's id, else the module's id or, when taken, <id>-N with
 *     the least free N from 2; Duplicate puts the copy, named `name` or
 *     <original>-N the same way, right after the original;
 *     Rename gives the instance the id `name` and keeps its module-scoped
 *     variable values; an id in use or not of letters, digits, '-' and
 *     '_' is 709; a module the email does not have is 702 "Module '<id>'
 *     not found"; Rearrange's positions must place every instance once
 *     at indexes 0 to n-1 (709 "Rearrange must place every module
 *     exactly once: ..."), positions that are not a JSON array 1001;
 *     positions may be the body itself (the swagger's body parameter);
 *   - a section's dynamic content id is its htmlId; an id that names no
 *     dynamic section is 704 "Invalid dynamic content id '<id>'" (the
 *     documentation's code); Get Email Dynamic Content lists every
 *     segment of the segmentation in order, each with the section's
 *     template HTML until set, `id` and `segmentId` both the segment's
 *     id, and the email's times; Update takes the segment's name
 *     (`segment`, 709 for one the segmentation lacks), `type` HTML (or
 *     Text) and `value`, checked as snippets are;
 *   - Get Email Full Content renders the version: the template's HTML
 *     with each section set (Text HTML, a dynamic section's Default
 *     segment, a snippet's HTML, an image's attributes), the module
 *     instances in order in place of the template's modules (each
 *     keeping the template module's element, its id the instance's) and
 *     ${variable} references replaced by their values in the parsed text
 *     and attribute values; type=Text is the rendered document's text.
 *     with leadId, {{lead.<field>}} tokens (the field's display name or
 *     REST name, any letter case) take that lead's values (1004 for a
 *     lead that does not exist); an empty value takes the token's
 *     default ({{lead.First Name:default=there}}), else ""; a token of
 *     no field stays; without leadId the tokens stay as they are;
 *   - Update Email Full Content takes a multipart `content` part (or a
 *     plain field; 1002 without one), refuses an email linked to a
 *     template (709 "Cannot update the full content of an email linked
 *     to a template") and HTML with a <script> or a NUL byte (709); the
 *     HTML is kept as sent in the draft;
 *   - Send Sample Email renders the version Get Email Full Content
 *     shows without status (the approved one, else the draft), lead
 *     tokens filled from leadId (1004 for a lead that does not exist)
 *     in the body, the subject and the From name; without leadId every
 *     token takes its default, else "",
 *     and sends it through the outbox (mail/outbox.h, kind "sample")
 *     to emailAddress, an address mail_address_ok accepts (else 1001
 *     "Invalid value '<value>'. Required of type 'email address'"):
 *     subject, From name and address and Reply-To from the email's Text
 *     headers (smtp_from for an unset From address; a header set to
 *     dynamic content is taken as unset), a text part (the HTML's
 *     text) and, unless textOnly or the email is text-only, the HTML.
 *     It answers [{"id":<email id>}] (the page's form); with no relay
 *     configured the message is kept in the outbox and the answer
 *     carries the warning "Sample email kept in the outbox: no SMTP
 *     relay is configured (smtp_url)"; a relay that refuses the message
 *     or cannot be reached is 709 "Sample email not sent: the SMTP
 *     relay refused it: <reply>" ("could not be reached: <reason>"),
 *     the outbox row left failed; a missing email is 702.
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
#include "api/api_leads_catalog.h"
#include "bounds.h"
#include "call.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "http/validate.h"
#include "mail/message.h"
#include "mail/outbox.h"
#include "model/asset.h"
#include "model/email.h"
#include "model/folder.h"
#include "model/html.h"
#include "model/leadfield.h"
#include "model/template.h"
#include "repo/repo_email_templates.h"
#include "repo/repo_emails.h"
#include "repo/repo_folders.h"
#include "repo/repo_leads.h"
#include "repo/repo_segmentations.h"
#include "repo/repo_snippets.h"
#include "repo/repo_usage.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/config.h"
#include "util/num.h"
#include "util/xmalloc.h"

/* The longest header value (subject, from, reply-to) taken, in bytes. */
#define EMAIL_HDR_MAX_BYTES	4096
/* The longest preheader, in characters (docs/behaviour.md §8.1). */
#define EMAIL_PREHEADER_CHARS	1024

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

/* The url of an email in the UI, as the hosted service writes it. */
static void
url_write(struct buf *b, struct call *c, int32_t id)
{
	const char *base = c->app->cfg->app_url != NULL ?
	    c->app->cfg->app_url : "http://localhost";
	char url[320];

	(void)snprintf(url, sizeof(url), "%s/#EM%ldA1LA1", base, (long)id);
	buf_add_jsonc_str(b, url);
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
	url_write(b, c, e->id);
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

/* The path's email id. */
static int32_t
path_id(const struct call *c)
{
	return (int32_t)c->req->path_ints[0];
}

/*
 * A repository error of a change of email id as the API answers it (702
 * "<id> Email not found", 709).
 */
static int
mutation_err(struct call *c, struct resp *r, int32_t id, int e,
    const char *msg)
{
	return api_asset_change_err(c, r, e, msg, "Email", id);
}

/* 709 for a name another email in the place has. */
static int
name_taken(struct call *c, struct resp *r, const char *name)
{
	return api_common_fail(c, r, -API_ERR_RULE, "Email name '%s' is "
	    "already in use in this folder", api_common_echo(c, name));
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
		return mutation_err(c, r, id, err, NULL);
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
	e = repo_email_get(c->app->db, &c->app->arena, path_id(c),
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
	struct repo_place place;
	struct folder_ref ref;
	size_t n, i;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	memset(&q, 0, sizeof(q));
	q.limit = pv[0].present ? (int)pv[0].i : ASSET_MAX_RETURN_DEFAULT;
	q.offset = pv[1].present ? pv[1].i : 0;
	q.status = api_asset_status(&pv[2]);
	if (pv[3].present) {
		if ((e = api_asset_folder(c, r, pv[3].s, &ref)) != 0 ||
		    (e = api_asset_place(c, r, &ref, AK_EMAIL, &place)) != 0)
			return e;
		q.place = &ref;
	}
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
		return name_taken(c, r, n.name);
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
	int32_t id = path_id(c), nid;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	e = repo_email_get(c->app->db, &c->app->arena, id, ASSET_ST_ANY,
	    false, &src);
	if (e != 0)
		return mutation_err(c, r, id, e, NULL);
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
		return name_taken(c, r, n.name);
	if (e != 0)
		return mutation_err(c, r, id, e, NULL);
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
	int32_t id = path_id(c);
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
		return name_taken(c, r, m.name);
	if (e != 0)
		return mutation_err(c, r, id, e, NULL);
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

/* The four version changes that take no parameters. */
static int
change(struct call *c, struct resp *r, enum asset_op op)
{
	char msg[REPO_EMAIL_MSG_BYTES];
	int32_t id = path_id(c);
	int e;

	e = repo_email_change(c->app->db, id, op,
	    op == ASSET_APPROVE ? check_for_approval : NULL, msg);
	if (e != 0)
		return mutation_err(c, r, id, e, msg);
	api_asset_id_result(r, id);
	return 0;
}

/* POST .../email/{id}/approveDraft.json */
int
api_emails_approve(struct call *c, struct resp *r)
{
	return change(c, r, ASSET_APPROVE);
}

/* POST .../email/{id}/unapprove.json */
int
api_emails_unapprove(struct call *c, struct resp *r)
{
	return change(c, r, ASSET_UNAPPROVE);
}

/* POST .../email/{id}/discardDraft.json */
int
api_emails_discard(struct call *c, struct resp *r)
{
	return change(c, r, ASSET_DISCARD);
}

/* POST .../email/{id}/delete.json */
int
api_emails_delete(struct call *c, struct resp *r)
{
	return change(c, r, ASSET_DELETE);
}

/* ---- Content: what the template declares, over what the email set ------ */

/*
 * An email with the template it is made from, parsed: the version read,
 * the template's HTML as a document and its outline, and the version's
 * content document.  email_ctx_clear frees what load filled.
 */
struct email_ctx {
	struct repo_email	 em;
	struct repo_etpl	 tpl;
	bool			 has_tpl;
	bool			 kept;	/* o and doc are the worker's (read only) */
	struct parsed_tpl	*slot;	/* the kept parse, or NULL */
	struct tpl_outline	 o;
	struct html_doc		*doc;
	struct json_object	*content;
};

static void
email_ctx_clear(struct email_ctx *x)
{
	if (x->has_tpl && !x->kept) {
		tpl_outline_clear(&x->o);
		html_free(x->doc);
	}
	json_object_put(x->content);
	memset(x, 0, sizeof(*x));
}

/*
 * A worker's parsed templates, for the operations that only read one
 * (Get Email Content, Get Email Variables, Get Email Dynamic Content).
 * A template never changes once made and its id is never used again
 * (see repo_etpl_get_used), so a parse kept by id stays right; the
 * operations that render or edit a document parse their own.  Templates
 * larger than PARSED_TPL_MAX_BYTES are not kept: their documents are
 * large and rarely read twice in a row.  With the parse go the
 * template's dynamic sections (a kept parse reads no template row) and,
 * once Get Email Content needs them, each section's HTML and text.
 */
#define PARSED_TPL_ENTRIES	16
#define PARSED_TPL_MAX_BYTES	(256 * 1024)

struct parsed_tpl {
	int32_t			 id;	/* 0: a free slot */
	uint64_t		 used;
	struct tpl_outline	 o;
	struct html_doc		*doc;
	struct repo_etpl_dynamic *dynamic;	/* html_id strings owned */
	size_t			 ndynamic;
	/* Per section, or NULL: its Text value as JSON text; owned. */
	struct buf		*text_json;
};

static struct parsed_tpl	parsed[PARSED_TPL_ENTRIES];
static uint64_t			parsed_tick;

/* Frees what slot p holds and makes it free. */
static void
parsed_drop(struct parsed_tpl *p)
{
	size_t i;

	for (i = 0; i < p->ndynamic; i++)
		free((char *)p->dynamic[i].html_id);
	free(p->dynamic);
	for (i = 0; p->text_json != NULL && i < p->o.nsections; i++)
		buf_clear(&p->text_json[i]);
	free(p->text_json);
	tpl_outline_clear(&p->o);
	html_free(p->doc);
	memset(p, 0, sizeof(*p));
}

/* The kept parse of template id, or NULL. */
static struct parsed_tpl *
parsed_find(int32_t id)
{
	size_t i;

	for (i = 0; i < PARSED_TPL_ENTRIES; i++)
		if (parsed[i].id == id) {
			parsed[i].used = ++parsed_tick;
			return &parsed[i];
		}
	return NULL;
}

/* Keeps x's parse of its template (x then borrows it), dropping the least
 * recently used one when every slot is taken. */
static void
parsed_keep(struct email_ctx *x)
{
	struct parsed_tpl *slot = &parsed[0];
	size_t i;

	if (x->tpl.content_len > PARSED_TPL_MAX_BYTES)
		return;
	for (i = 0; i < PARSED_TPL_ENTRIES && slot->id != 0; i++)
		if (parsed[i].id == 0 || parsed[i].used < slot->used)
			slot = &parsed[i];
	if (slot->id != 0)
		parsed_drop(slot);
	slot->id = x->tpl.id;
	slot->used = ++parsed_tick;
	slot->o = x->o;
	slot->doc = x->doc;
	if (x->tpl.ndynamic > 0) {
		slot->dynamic = xcalloc(x->tpl.ndynamic,
		    sizeof(*slot->dynamic));
		for (i = 0; i < x->tpl.ndynamic; i++) {
			slot->dynamic[i].html_id =
			    xstrdup(x->tpl.dynamic[i].html_id);
			slot->dynamic[i].segmentation_id =
			    x->tpl.dynamic[i].segmentation_id;
		}
		slot->ndynamic = x->tpl.ndynamic;
	}
	x->kept = true;
	x->slot = slot;
}

/*
 * Reads email id (the version want picks) and its template into *x.  A
 * query that finds nothing answers the warning (1 is returned: nothing
 * more to do); a change (query false) 702.  0 when *x is filled.  When
 * readonly, the caller does not change the template's document, which
 * may then be the worker's kept parse.
 */
static int
email_ctx_read(struct call *c, struct resp *r, int32_t id,
    enum asset_status want, bool query, bool readonly, struct email_ctx *x)
{
	struct parsed_tpl *p;
	char msg[TPL_MSG_BYTES];
	int e;

	memset(x, 0, sizeof(*x));
	e = repo_email_get(c->app->db, &c->app->arena, id, want, true, &x->em);
	if (e != 0 && query)
		return (e = api_asset_found(r, e)) == 0 ? 1 : e;
	if (e != 0)
		return mutation_err(c, r, id, e, NULL);
	if ((x->content = email_doc_parse(x->em.content,
	    x->em.content_len)) == NULL)
		return -API_ERR_SYSTEM;
	if (x->em.template_id == 0)
		return 0;
	/* A kept parse needs no copy of the template's HTML. */
	if (readonly && (p = parsed_find(x->em.template_id)) != NULL) {
		x->o = p->o;
		x->doc = p->doc;
		x->tpl.id = p->id;
		x->tpl.dynamic = p->dynamic;
		x->tpl.ndynamic = p->ndynamic;
		x->kept = x->has_tpl = true;
		x->slot = p;
		return 0;
	}
	e = repo_etpl_get_used(c->app->db, &c->app->arena, x->em.template_id,
	    &x->tpl);
	if (e != 0)
		return err_from_repo(e);
	if (tpl_parse_doc(x->tpl.content, x->tpl.content_len, &x->o, msg,
	    &x->doc) != 0) {
		json_object_put(x->content);
		x->content = NULL;
		return -API_ERR_SYSTEM;
	}
	x->has_tpl = true;
	if (readonly)
		parsed_keep(x);
	return 0;
}

/* email_ctx_read for a caller that may change the template's document. */
static int
email_ctx_load(struct call *c, struct resp *r, int32_t id,
    enum asset_status want, bool query, struct email_ctx *x)
{
	return email_ctx_read(c, r, id, want, query, false, x);
}

/*
 * The email of a query by the path's id and the status parameter, into
 * *x: 0, 1 after the "No assets found" warning, or the error (*x is
 * cleared but for 0).
 */
static int
query_ctx(struct call *c, struct resp *r, struct email_ctx *x)
{
	static const struct vparam params[] = {
		API_ASSET_P_STATUS,
	};
	struct vvalue pv[1];
	int e;

	memset(x, 0, sizeof(*x));
	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	e = email_ctx_read(c, r, path_id(c), api_asset_status(&pv[0]), true,
	    true, x);
	if (e != 0)
		email_ctx_clear(x);
	return e;
}

struct find_id {
	const char		*id;
	const struct html_elem	*found;
};

/* The element of the template whose id is id, or NULL. */
static const struct html_elem *
find_elem(const struct html_doc *d, const char *id)
{
	return html_elem_by_id(d, id);
}

static int
find_img_fn(void *ctx, const struct html_elem *e)
{
	struct find_id *f = ctx;
	const struct html_elem *p;

	if (strcmp(html_elem_name(e), "img") != 0)
		return 0;
	for (p = e; p != NULL; p = html_elem_parent(p))
		if (p == f->found) {
			f->found = e;
			return 1;
		}
	return 0;
}

/* The <img> an image section is, or holds; NULL when none. */
static const struct html_elem *
section_img(const struct html_doc *d, const struct html_elem *e)
{
	struct find_id f = { NULL, e };

	if (strcmp(html_elem_name(e), "img") == 0)
		return e;
	if (html_each(d, find_img_fn, &f) == 0)
		return NULL;
	return f.found;
}

/* The index of section html_id in the outline, or -1. */
static long
section_index(const struct tpl_outline *o, const char *html_id)
{
	size_t i;

	for (i = 0; i < o->nsections; i++)
		if (strcmp(o->sections[i].id, html_id) == 0)
			return (long)i;
	return -1;
}

/* The segmentation a section of the template starts dynamic by, or 0. */
static int32_t
template_dynamic(const struct repo_etpl *t, const char *html_id)
{
	size_t i;

	for (i = 0; i < t->ndynamic; i++)
		if (strcmp(t->dynamic[i].html_id, html_id) == 0)
			return t->dynamic[i].segmentation_id;
	return 0;
}

/* A string member of o, or dflt. */
static const char *
str_member(struct json_object *o, const char *name, const char *dflt)
{
	struct json_object *v;

	if (o != NULL && json_object_object_get_ex(o, name, &v) && v != NULL)
		return json_object_get_string(v);
	return dflt;
}

/* An id kept as a string member of o (a segmentation, a snippet), or 0. */
static int32_t
ref_member(struct json_object *o, const char *name)
{
	int64_t n;

	if (num_parse_i64(str_member(o, name, ""), 1, INT32_MAX, &n) != 0)
		return 0;
	return (int32_t)n;
}

/* The image value {width, altText, style, height} of an image section. */
static void
image_write(struct buf *b, const struct email_ctx *x,
    const struct html_elem *e, struct json_object *stored)
{
	const struct html_elem *img = e != NULL ? section_img(x->doc, e) :
	    NULL;
	static const char *const keys[][3] = {
		{ "{\"width\":", "width", "width" },
		{ ",\"altText\":", "altText", "alt" },
		{ ",\"style\":", "style", "style" },
		{ ",\"height\":", "height", "height" } };
	const char *dflt;
	size_t k;

	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		dflt = img != NULL ? html_elem_attr(img, keys[k][2]) : NULL;
		buf_adds(b, keys[k][0]);
		buf_add_jsonc_str(b, str_member(stored, keys[k][1], dflt));
	}
	buf_addc(b, '}');
}

/* The [{"type":"HTML",...},{"type":"Text",...}] value of a Text section. */
static void
text_write(struct buf *b, const char *html, const char *text)
{
	buf_adds(b, "[{\"type\":\"HTML\",\"value\":");
	buf_add_jsonc_str(b, html);
	buf_adds(b, "},{\"type\":\"Text\",\"value\":");
	buf_add_jsonc_str(b, text);
	buf_adds(b, "}]");
}

/*
 * The Text value of section i as the template has it (element e), written
 * once per kept parse.
 */
static void
text_default_write(struct buf *b, const struct email_ctx *x, size_t i,
    const struct html_elem *e)
{
	struct parsed_tpl *p = x->slot;
	struct buf *t = b;
	char *html, *text;
	size_t len, k;

	if (p != NULL && p->text_json == NULL) {
		p->text_json = xcalloc(x->o.nsections, sizeof(*p->text_json));
		for (k = 0; k < x->o.nsections; k++)
			buf_init(&p->text_json[k], MAX_RESPONSE_BYTES);
	}
	if (p != NULL && p->text_json[i].len > 0) {
		buf_add(b, p->text_json[i].data, p->text_json[i].len);
		return;
	}
	if (p != NULL)
		t = &p->text_json[i];
	html = e != NULL ? html_elem_inner(e, &len) : NULL;
	text = e != NULL ? html_elem_text(e) : NULL;
	text_write(t, html != NULL ? html : "", text != NULL ? text : "");
	free(html);
	free(text);
	if (t != b && !buf_ok(t)) {
		b->overflow = true;	/* the dispatcher answers 611 */
		buf_reset(t);
	} else if (t != b)
		buf_add(b, t->data, t->len);
}

/* Section i of the outline as Get Email Content shows it. */
static void
section_write(struct buf *b, const struct email_ctx *x, size_t i)
{
	const struct tpl_section *s = &x->o.sections[i];
	const struct html_elem *e = find_elem(x->doc, s->id);
	struct json_object *stored = email_doc_section(x->content, s->id);
	const char *type = str_member(stored, "type", NULL);

	if (type == NULL && template_dynamic(&x->tpl, s->id) != 0)
		type = "DynamicContent";
	if (type == NULL)
		type = tpl_section_kind_name(s->kind);
	buf_adds(b, "{\"htmlId\":");
	buf_add_jsonc_str(b, s->id);
	buf_adds(b, ",\"contentType\":");
	buf_add_jsonc_str(b, type);
	buf_adds(b, ",\"value\":");
	if (strcmp(type, "Text") == 0 && stored != NULL)
		text_write(b, str_member(stored, "html", ""),
		    str_member(stored, "text", ""));
	else if (strcmp(type, "Text") == 0)
		text_default_write(b, x, i, e);
	else if (strcmp(type, "DynamicContent") == 0)
		buf_add_jsonc_str(b, s->id);
	else if (strcmp(type, "Snippet") == 0)
		buf_add_jsonc_str(b, str_member(stored, "snippet", NULL));
	else if (strcmp(type, "Image") == 0)
		image_write(b, x, e, stored);
	else if (strcmp(type, "Video") == 0) {
		buf_adds(b, "{\"videoUrl\":");
		buf_add_jsonc_str(b, str_member(stored, "videoUrl", NULL));
		buf_addc(b, '}');
	} else
		buf_adds(b, "null");
	buf_addc(b, '}');
}

/*
 * The module instances of the container, in order, as Get Email Content
 * shows a module: {htmlId, contentType "Module", index, parentHtmlId,
 * isLocked}.
 */
static void
modules_json(struct call *c, struct resp *r, const struct email_ctx *x)
{
	struct json_object *mods = email_doc_modules(x->content, &x->o), *o;
	struct json_object *id;
	size_t i, n = json_object_array_length(mods);

	(void)c;
	for (i = 0; i < n; i++) {
		if (!json_object_object_get_ex(json_object_array_get_idx(mods,
		    i), "id", &id))
			continue;
		o = json_object_new_object();
		json_object_object_add(o, "htmlId", json_object_get(id));
		json_object_object_add(o, "contentType",
		    json_object_new_string("Module"));
		json_object_object_add(o, "index", json_object_new_int64(
		    (int64_t)i));
		json_object_object_add(o, "parentHtmlId",
		    json_object_new_string(x->o.container_id));
		json_object_object_add(o, "isLocked",
		    json_object_new_boolean(false));
		resp_add(r, o);
	}
	json_object_put(mods);
}

/* GET /rest/asset/v1/email/{id}/content.json?status= */
int
api_emails_content_get(struct call *c, struct resp *r)
{
	struct email_ctx x;
	size_t i;
	int e;

	if ((e = query_ctx(c, r, &x)) != 0)
		return e > 0 ? 0 : e;
	for (i = 0; x.has_tpl && i < x.o.nsections; i++)
		section_write(resp_add_text(r), &x, i);
	if (x.has_tpl && x.o.container_id != NULL)
		modules_json(c, r, &x);
	email_ctx_clear(&x);
	return 0;
}

/* ---- Edits of the draft ------------------------------------------------- */

/* What an edit sets; applied to the draft inside the transaction. */
struct email_edit {
	struct call		*c;
	struct repo_email_header hdr[EMAIL_HDR__MAX];	/* type NULL: kept */
	int			 open_tracking_disabled;	/* -1: kept */
	const char		*section;	/* the section to set, or NULL */
	struct json_object	*section_value;
	const char		*var_name;	/* the variable to set, or NULL */
	const char		*var_module;
	const char		*var_value;
	/* A change of the module instances (NULL: none), on the outline o. */
	int			(*modules)(struct email_edit *ed,
				    struct json_object *doc,
				    struct json_object **mods, char *msg);
	const struct tpl_outline *o;
	const char		*mod_id;	/* the path's module */
	const char		*mod_name;	/* name: the new id, or NULL */
	const char		*mod_template;	/* add: the template's module */
	int64_t			 mod_index;
	struct json_object	*positions;	/* rearrange */
	int			 code;	/* a refusal's api_err; 0: 709 */
	struct json_object	*full_html;	/* the whole HTML, or NULL */
};

static int
apply_edit(void *arg, struct repo_email_draft *d, char *msg)
{
	struct email_edit *ed = arg;
	struct json_object *doc;
	const char *text;
	size_t h;

	(void)msg;
	for (h = 0; h < EMAIL_HDR__MAX; h++)
		if (ed->hdr[h].type != NULL)
			d->hdr[h] = ed->hdr[h];
	if (ed->open_tracking_disabled >= 0)
		d->open_tracking_disabled = ed->open_tracking_disabled != 0;
	if (ed->section == NULL && ed->var_name == NULL &&
	    ed->modules == NULL && ed->full_html == NULL)
		return 0;
	if ((doc = email_doc_parse(d->content, d->content_len)) == NULL)
		return -1;
	if (ed->section != NULL)
		email_doc_set_section(doc, ed->section,
		    json_object_get(ed->section_value));
	if (ed->var_name != NULL)
		email_doc_set_variable(doc, ed->var_name, ed->var_module,
		    ed->var_value);
	if (ed->full_html != NULL)
		json_object_object_add(doc, "html",
		    json_object_get(ed->full_html));
	if (ed->modules != NULL) {
		struct json_object *mods = email_doc_modules(doc, ed->o);

		if (ed->modules(ed, doc, &mods, msg) != 0) {
			json_object_put(mods);
			json_object_put(doc);
			return -1;
		}
		email_doc_set_modules(doc, mods);
	}
	text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN);
	d->content = arena_strdup(&ed->c->app->arena, text);
	d->content_len = d->content != NULL ? strlen(d->content) : 0;
	json_object_put(doc);
	return d->content != NULL ? 0 : -1;
}

/* Runs the edit on email id's draft; answers [{"id": id}] when asked. */
static int
run_edit(struct call *c, struct resp *r, int32_t id, struct email_edit *ed,
    bool answer_id)
{
	char msg[REPO_EMAIL_MSG_BYTES];
	int e;

	ed->c = c;
	e = repo_email_edit(c->app->db, id, apply_edit, ed, msg);
	if (e == -REPO_ERR_INVALID && ed->code != 0 && msg[0] != '\0')
		return api_common_fail(c, r, ed->code, "%s", msg);
	if (e != 0)
		return mutation_err(c, r, id, e, msg);
	if (answer_id)
		api_asset_id_result(r, id);
	return 0;
}

/*
 * The id in v of a segmentation (snippet false) or snippet (snippet true)
 * that exists into *id, or 709 "Invalid ..." / "... <id> not found".
 */
static int
need_ref(struct call *c, struct resp *r, const char *v, bool snippet,
    int32_t *id)
{
	const char *what = snippet ? "Snippet" : "Segmentation";
	struct repo_snippet sn;
	struct repo_seg seg;
	int64_t n;
	int e;

	if (num_parse_i64(v, 1, INT32_MAX, &n) != 0)
		return api_common_fail(c, r, -API_ERR_RULE, "Invalid %s '%s'",
		    what, api_common_echo(c, v));
	e = snippet ? repo_snippet_get(c->app->db, &c->app->arena,
	    (int32_t)n, &sn) : repo_seg_get(c->app->db, &c->app->arena,
	    (int32_t)n, &seg);
	if (e == -REPO_ERR_NOT_FOUND)
		return api_common_fail(c, r, -API_ERR_RULE, "%s %lld not found",
		    what, (long long)n);
	if (e != 0)
		return err_from_repo(e);
	*id = (int32_t)n;
	return 0;
}

/*
 * A header parameter: {"type":"Text","value":"..."} or
 * {"type":"DynamicContent","value":<segmentation id>}; text that is not
 * a JSON object is the Text value itself.
 */
static int
header_param(struct call *c, struct resp *r, const char *name,
    const char *text, struct repo_email_header *out)
{
	struct json_object *o, *t, *v;
	const char *type, *value;
	int32_t seg;
	int e = 0;

	if (text[strspn(text, " \t\r\n")] != '{') {
		out->type = "Text";
		out->value = text;
		return 0;
	}
	o = json_tokener_parse(text);
	if (o == NULL || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "type", &t) ||
	    !json_object_object_get_ex(o, "value", &v) || v == NULL) {
		json_object_put(o);
		return api_common_fail(c, r, -API_ERR_INVALID_VALUE, "Invalid "
		    "value '%s'. Required of type 'EmailHeaderField'",
		    api_common_echo(c, text));
	}
	type = json_object_get_string(t);
	value = arena_strdup(&c->app->arena, json_object_get_string(v));
	if (strcasecmp(type, "Text") == 0)
		out->type = "Text";
	else if (strcasecmp(type, "DynamicContent") == 0) {
		out->type = "DynamicContent";
		if ((e = need_ref(c, r, value, false, &seg)) == 0)
			value = arena_printf(&c->app->arena, "%ld", (long)seg);
	} else
		e = api_common_fail(c, r, -API_ERR_INVALID_VALUE, "Invalid "
		    "type '%s' of %s", api_common_echo(c, type), name);
	out->value = value;
	json_object_put(o);
	return e;
}

/*
 * POST /rest/asset/v1/email/{id}/content.json: subject, fromEmail,
 * fromName, replyTO (replyEmail too), isOpenTrackingDisabled.
 */
int
api_emails_content_update(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "subject", .type = VP_STR,
		  .max = EMAIL_HDR_MAX_BYTES },
		{ .name = "fromName", .type = VP_STR,
		  .max = EMAIL_HDR_MAX_BYTES },
		{ .name = "fromEmail", .type = VP_STR,
		  .max = EMAIL_HDR_MAX_BYTES },
		{ .name = "replyTO", .type = VP_STR,
		  .max = EMAIL_HDR_MAX_BYTES },
		{ .name = "replyEmail", .type = VP_STR,
		  .max = EMAIL_HDR_MAX_BYTES },
		{ .name = "isOpenTrackingDisabled", .type = VP_BOOL },
	};
	static const char *const names[EMAIL_HDR__MAX] = { "subject",
	    "fromName", "fromEmail", "replyTO" };
	struct vvalue pv[6];
	struct email_edit ed;
	size_t h;
	int e, given = 0;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	if (!pv[3].present && pv[4].present)
		pv[3] = pv[4];
	memset(&ed, 0, sizeof(ed));
	ed.open_tracking_disabled = pv[5].present ? pv[5].b : -1;
	given = pv[5].present;
	for (h = 0; h < EMAIL_HDR__MAX; h++) {
		if (!pv[h].present)
			continue;
		given = 1;
		if ((e = header_param(c, r, names[h], pv[h].s,
		    &ed.hdr[h])) != 0)
			return e;
	}
	if (!given)
		return api_common_fail(c, r, -API_ERR_MISSING_PARAM, "Missing "
		    "value for the required parameter 'subject'");
	return run_edit(c, r, path_id(c), &ed, true);
}

/* The first element of a document (its root). */
static int
first_elem_fn(void *ctx, const struct html_elem *e)
{
	*(const struct html_elem **)ctx = e;
	return 1;
}

/* The html text's text: its characters without markup. */
static char *
html_to_text(struct call *c, const char *html)
{
	struct html_doc *d = html_parse(html, strlen(html), NULL, 0);
	const struct html_elem *root = NULL;
	char *t, *out;

	if (d == NULL)
		return arena_strdup(&c->app->arena, "");
	(void)html_each(d, first_elem_fn, &root);
	t = root != NULL ? html_elem_text(root) : NULL;
	out = arena_strdup(&c->app->arena, t != NULL ? t : "");
	free(t);
	html_free(d);
	return out;
}

/* 702 for a section the email's template does not declare. */
static int
no_section(struct call *c, struct resp *r, const char *html_id)
{
	return api_common_fail(c, r, -API_ERR_NO_DATA, "Content section '%s' "
	    "not found", api_common_echo(c, html_id));
}

/* The image parameters of Update Email Content Section, in order. */
static const char *const image_params[] = { "altText", "externalUrl",
    "height", "width", "linkUrl", "style", "videoUrl" };

/*
 * POST /rest/asset/v1/email/{id}/content/{htmlId}.json: type (Text,
 * DynamicContent, Snippet), value, textValue, and for images altText,
 * externalUrl, height, width, linkUrl, style (videoUrl for a video).
 */
int
api_emails_section_update(struct call *c, struct resp *r)
{
	static const char *const types[] = { "Text", "DynamicContent",
	    "Snippet", NULL };
	static const struct vparam params[] = {
		{ .name = "type", .type = VP_ENUM, .flags = VPF_REQUIRED,
		  .words = types, .type_name = "ContentType" },
		{ .name = "value", .type = VP_STR, .max = HTML_MAX_BYTES },
		{ .name = "textValue", .type = VP_STR, .max = HTML_MAX_BYTES },
		{ .name = "altText", .type = VP_STR, .max = 2048 },
		{ .name = "externalUrl", .type = VP_STR, .max = 2048 },
		{ .name = "height", .type = VP_INT, .min = 0, .max = 100000 },
		{ .name = "width", .type = VP_INT, .min = 0, .max = 100000 },
		{ .name = "linkUrl", .type = VP_STR, .max = 2048 },
		{ .name = "style", .type = VP_STR, .max = 2048 },
		{ .name = "videoUrl", .type = VP_STR, .max = 2048 },
		{ .name = "overWrite", .type = VP_BOOL },
	};
	struct vvalue pv[11];
	struct email_ctx x;
	struct email_edit ed;
	struct json_object *sv;
	enum tpl_section_kind kind;
	const char *html_id = c->req->path_params[1];
	char msg[TPL_MSG_BYTES];
	int32_t id = path_id(c), ref = 0;
	long i;
	size_t k;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	if ((e = email_ctx_load(c, r, id, ASSET_ST_ANY, false, &x)) != 0) {
		email_ctx_clear(&x);
		return e;
	}
	i = x.has_tpl ? section_index(&x.o, html_id) : -1;
	kind = i >= 0 ? x.o.sections[i].kind : TPL_SEC__MAX;
	email_ctx_clear(&x);
	if (i < 0)
		return no_section(c, r, html_id);
	sv = json_object_new_object();
	json_object_object_add(sv, "type",
	    json_object_new_string(types[pv[0].i]));
	if (pv[0].i == 0 && kind == TPL_SEC_IMAGE) {
		json_object_object_add(sv, "type",
		    json_object_new_string("Image"));
		if (pv[1].present)
			json_object_object_add(sv, "value",
			    json_object_new_string(pv[1].s));
		for (k = 0; k < sizeof(image_params) / sizeof(image_params[0]);
		    k++)
			if (pv[3 + k].present)
				json_object_object_add(sv, image_params[k],
				    json_object_new_string(pv[3 + k].s));
	} else if (pv[0].i == 0) {
		if (!pv[1].present) {
			json_object_put(sv);
			return api_common_fail(c, r, -API_ERR_MISSING_PARAM,
			    "Missing value for the required parameter "
			    "'value'");
		}
		if (tpl_check_snippet(pv[1].s, strlen(pv[1].s), msg) != 0) {
			json_object_put(sv);
			return api_common_fail(c, r, -API_ERR_RULE, "%s", msg);
		}
		json_object_object_add(sv, "html",
		    json_object_new_string(pv[1].s));
		json_object_object_add(sv, "text", json_object_new_string(
		    pv[2].present ? pv[2].s : html_to_text(c, pv[1].s)));
	} else {
		e = !pv[1].present ? api_common_fail(c, r,
		    -API_ERR_MISSING_PARAM, "Missing value for the required "
		    "parameter 'value'") : need_ref(c, r,
		    pv[1].s, pv[0].i == 2, &ref);
		if (e != 0) {
			json_object_put(sv);
			return e;
		}
		json_object_object_add(sv, pv[0].i == 1 ? "segmentation" :
		    "snippet", json_object_new_string(
		    arena_printf(&c->app->arena, "%ld", (long)ref)));
	}
	memset(&ed, 0, sizeof(ed));
	ed.open_tracking_disabled = -1;
	ed.section = html_id;
	ed.section_value = sv;
	e = run_edit(c, r, id, &ed, true);
	json_object_put(sv);
	if (e == 0 && ref != 0)
		(void)repo_usage_add(c->app->db, pv[0].i == 1 ?
		    USAGE_SEGMENTATION : USAGE_SNIPPET, ref, USAGE_EMAIL, id);
	return e;
}

/* ---- Variables ---------------------------------------------------------- */

/* One variable as the variable operations show it. */
static struct json_object *
variable_json(const char *name, const char *value, const char *module)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "name", json_object_new_string(name));
	json_object_object_add(o, "value", api_common_str_or_null(value));
	json_object_object_add(o, "moduleScope",
	    json_object_new_boolean(module != NULL));
	if (module != NULL)
		json_object_object_add(o, "moduleId",
		    json_object_new_string(module));
	return o;
}

/* Whether module m uses module-scoped variable v (an outline index). */
static bool
module_uses(const struct tpl_module *m, size_t v)
{
	size_t k;

	for (k = 0; k < m->nvars; k++)
		if (m->vars[k] == v)
			return true;
	return false;
}

/*
 * The id of instance m of mods when its template module uses variable v
 * of x's outline, else NULL.
 */
static const char *
instance_using(const struct email_ctx *x, struct json_object *mods, size_t m,
    size_t v)
{
	struct json_object *id;
	long k = email_modules_template(mods, m, &x->o);

	if (k < 0 || !module_uses(&x->o.modules[k], v) ||
	    !json_object_object_get_ex(json_object_array_get_idx(mods, m),
	    "id", &id))
		return NULL;
	return json_object_get_string(id);
}

/* The value variable v has in module (NULL: global) of email x. */
static const char *
variable_value(const struct email_ctx *x, size_t v, const char *module)
{
	const struct tpl_variable *var = &x->o.variables[v];
	const char *set = email_doc_variable(x->content, var->id, module);

	return set != NULL ? set : var->value;
}

/* GET /rest/asset/v1/email/{id}/variables.json?status= */
int
api_emails_variables_get(struct call *c, struct resp *r)
{
	struct email_ctx x;
	struct json_object *mods;
	const struct tpl_variable *var;
	const char *inst;
	size_t v, m;
	int e;

	if ((e = query_ctx(c, r, &x)) != 0)
		return e > 0 ? 0 : e;
	mods = email_doc_modules(x.content, x.has_tpl ? &x.o : NULL);
	for (v = 0; x.has_tpl && v < x.o.nvariables; v++) {
		var = &x.o.variables[v];
		if (!var->module_scope) {
			resp_add(r, variable_json(var->id,
			    variable_value(&x, v, NULL), NULL));
			continue;
		}
		for (m = 0; m < json_object_array_length(mods); m++) {
			inst = instance_using(&x, mods, m, v);
			if (inst != NULL)
				resp_add(r, variable_json(var->id,
				    variable_value(&x, v, inst), inst));
		}
	}
	json_object_put(mods);
	email_ctx_clear(&x);
	return 0;
}

/*
 * Checks that variable name may take value in module (NULL: global):
 * 0 with *out the variable's index, or the error answered.
 */
static int
variable_check(struct call *c, struct resp *r, const struct email_ctx *x,
    const char *name, const char *module, const char *value)
{
	const struct tpl_variable *var = NULL;
	struct json_object *mods;
	const char *inst;
	size_t v, m;

	for (v = 0; x->has_tpl && v < x->o.nvariables; v++)
		if (strcmp(x->o.variables[v].id, name) == 0) {
			var = &x->o.variables[v];
			break;
		}
	if (var == NULL)
		return api_common_fail(c, r, -API_ERR_NO_DATA, "Variable '%s' "
		    "not found", api_common_echo(c, name));
	if (var->module_scope && module == NULL)
		return api_common_fail(c, r, -API_ERR_RULE, "Variable '%s' is "
		    "module scoped: moduleId is required",
		    api_common_echo(c, name));
	if (!var->module_scope && module != NULL)
		return api_common_fail(c, r, -API_ERR_RULE, "Variable '%s' is "
		    "not module scoped", api_common_echo(c, name));
	if (module != NULL) {
		mods = email_doc_modules(x->content, &x->o);
		m = (size_t)email_modules_find(mods, module);
		inst = email_modules_find(mods, module) >= 0 ?
		    instance_using(x, mods, m, v) : NULL;
		json_object_put(mods);
		if (inst == NULL)
			return api_common_fail(c, r, -API_ERR_RULE, "Module "
			    "'%s' does not use variable '%s'",
			    api_common_echo(c, module),
			    api_common_echo(c, name));
	}
	if (!tpl_var_value_ok(var, value))
		return api_common_fail(c, r, -API_ERR_RULE, "Invalid value "
		    "'%s' for the %s variable '%s'", api_common_echo(c, value),
		    tpl_var_type_name(var->type), api_common_echo(c, name));
	return 0;
}

/* POST /rest/asset/v1/email/{id}/variable/{name}.json: value, moduleId. */
int
api_emails_variable_update(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "value", .type = VP_STR, .flags = VPF_REQUIRED,
		  .max = EMAIL_HDR_MAX_BYTES },
		{ .name = "moduleId", .type = VP_STR, .max = 255 },
	};
	struct vvalue pv[2];
	struct email_ctx x;
	struct email_edit ed;
	const char *name = c->req->path_params[1];
	const char *module;
	int32_t id = path_id(c);
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	module = pv[1].present ? pv[1].s : NULL;
	if ((e = email_ctx_load(c, r, id, ASSET_ST_ANY, false, &x)) == 0)
		e = variable_check(c, r, &x, name, module, pv[0].s);
	email_ctx_clear(&x);
	if (e != 0)
		return e;
	memset(&ed, 0, sizeof(ed));
	ed.open_tracking_disabled = -1;
	ed.var_name = name;
	ed.var_module = module;
	ed.var_value = pv[0].s;
	if ((e = run_edit(c, r, id, &ed, false)) != 0)
		return e;
	resp_add(r, variable_json(name, pv[0].s, module));
	return 0;
}

/* ---- CC fields ---------------------------------------------------------- */

/*
 * GET /rest/asset/v1/email/ccFields.json: the fields an email may be
 * copied to.  mauto has no lead owners or companies with addresses of
 * their own, so the list is the documentation's example field.
 */
int
api_emails_cc_fields(struct call *c, struct resp *r)
{
	struct json_object *o = json_object_new_object();

	(void)c;
	json_object_object_add(o, "attributeId", json_object_new_string("157"));
	json_object_object_add(o, "objectName", json_object_new_string("lead"));
	json_object_object_add(o, "displayName",
	    json_object_new_string("Lead Owner Email Address"));
	json_object_object_add(o, "apiName",
	    json_object_new_string("leadOwnerEmailAddress"));
	resp_add(r, o);
	return 0;
}

/* ---- Modules ------------------------------------------------------------ */

/* A refusal of a module change: code (0: 709), message before a after. */
static int
mod_refuse(struct email_edit *ed, int code, char *msg, const char *before,
    const char *a, const char *after)
{
	ed->code = code;
	(void)snprintf(msg, REPO_EMAIL_MSG_BYTES, "%s%s%s", before, a, after);
	return -1;
}

/* The instance the path names, or the 702 refusal (-1). */
static long
mod_find(struct email_edit *ed, struct json_object *mods, char *msg)
{
	long i = email_modules_find(mods, ed->mod_id);

	if (i < 0)
		return mod_refuse(ed, -API_ERR_NO_DATA, msg, "Module '",
		    ed->mod_id, "' not found");
	return i;
}

/* Whether id may name a new instance: a valid id not in use. */
static int
mod_new_id(struct email_edit *ed, struct json_object *mods, const char *id,
    char *msg)
{
	if (!tpl_is_valid_id(id))
		return mod_refuse(ed, 0, msg, "Invalid module id '", id, "'");
	if (email_modules_find(mods, id) >= 0)
		return mod_refuse(ed, 0, msg, "Module '", id,
		    "' already exists");
	return 0;
}

/* mods with m inserted at index at (the end when past it). */
static struct json_object *
mods_insert(struct json_object *mods, size_t at, struct json_object *m)
{
	struct json_object *out = json_object_new_array();
	size_t i, n = json_object_array_length(mods);

	for (i = 0; i <= n; i++) {
		if (i == at || (i == n && at > n))
			json_object_array_add(out, m);
		if (i < n)
			json_object_array_add(out, json_object_get(
			    json_object_array_get_idx(mods, i)));
	}
	json_object_put(mods);
	return out;
}

/* Moves the module-scoped values of instance from to instance to. */
static void
mods_move_variables(struct json_object *doc, const char *from,
    const char *to)
{
	struct json_object *vars, *moved = json_object_new_object();
	size_t flen = strlen(from);
	char *key;

	if (!json_object_object_get_ex(doc, "variables", &vars) ||
	    !json_object_is_type(vars, json_type_object)) {
		json_object_put(moved);
		return;
	}
	json_object_object_foreach(vars, k, v) {
		if (strncmp(k, from, flen) == 0 && k[flen] == ':')
			json_object_object_add(moved, k, json_object_get(v));
	}
	json_object_object_foreach(moved, mk, mv) {
		json_object_object_del(vars, mk);
		key = malloc(strlen(to) + strlen(mk + flen) + 1);
		if (key == NULL)
			continue;
		(void)snprintf(key, strlen(to) + strlen(mk + flen) + 1, "%s%s",
		    to, mk + flen);
		json_object_object_add(vars, key, json_object_get(mv));
		free(key);
	}
	json_object_put(moved);
}

/*
 * The id of a new instance: name when given, else base when no instance
 * has it, else base-N for the least N from 2 that none has (one of the
 * first n + 1 is free among n instances).  A made id is written to buf
 * (bytes long); NULL when it does not fit.
 */
static const char *
mod_id_for(struct json_object *mods, const char *name, const char *base,
    char *buf, size_t bytes)
{
	size_t n = json_object_array_length(mods), k;
	int len;

	if (name != NULL)
		return name;
	if (email_modules_find(mods, base) < 0)
		return base;
	for (k = 2; k <= n + 2; k++) {
		len = snprintf(buf, bytes, "%s-%zu", base, k);
		if (len < 0 || (size_t)len >= bytes)
			return NULL;
		if (email_modules_find(mods, buf) < 0)
			return buf;
	}
	return NULL;
}

static int
mod_add(struct email_edit *ed, struct json_object *doc,
    struct json_object **mods, char *msg)
{
	char made[MOD_ID_BYTES];
	const char *id;

	(void)doc;
	id = mod_id_for(*mods, ed->mod_name, ed->mod_template, made,
	    sizeof(made));
	if (id == NULL)
		return mod_refuse(ed, 0, msg, "No free module id for '",
		    ed->mod_template, "'");
	if (mod_new_id(ed, *mods, id, msg) != 0)
		return -1;
	*mods = mods_insert(*mods, (size_t)ed->mod_index,
	    email_module_new(id, ed->mod_template));
	return 0;
}

static int
mod_delete(struct email_edit *ed, struct json_object *doc,
    struct json_object **mods, char *msg)
{
	long i = mod_find(ed, *mods, msg);

	(void)doc;
	if (i < 0)
		return -1;
	return json_object_array_del_idx(*mods, (size_t)i, 1) == 0 ? 0 : -1;
}

static int
mod_duplicate(struct email_edit *ed, struct json_object *doc,
    struct json_object **mods, char *msg)
{
	struct json_object *orig, *mv;
	char made[MOD_ID_BYTES];
	const char *id;
	long i = mod_find(ed, *mods, msg);

	(void)doc;
	if (i < 0)
		return -1;
	id = mod_id_for(*mods, ed->mod_name, ed->mod_id, made, sizeof(made));
	if (id == NULL)
		return mod_refuse(ed, 0, msg, "No free module id for '",
		    ed->mod_id, "'");
	if (mod_new_id(ed, *mods, id, msg) != 0)
		return -1;
	orig = json_object_array_get_idx(*mods, (size_t)i);
	if (!json_object_object_get_ex(orig, "module", &mv))
		return -1;
	*mods = mods_insert(*mods, (size_t)i + 1,
	    email_module_new(id, json_object_get_string(mv)));
	return 0;
}

static int
mod_rename(struct email_edit *ed, struct json_object *doc,
    struct json_object **mods, char *msg)
{
	long i = mod_find(ed, *mods, msg);

	if (i < 0 || mod_new_id(ed, *mods, ed->mod_name, msg) != 0)
		return -1;
	json_object_object_add(json_object_array_get_idx(*mods, (size_t)i),
	    "id", json_object_new_string(ed->mod_name));
	mods_move_variables(doc, ed->mod_id, ed->mod_name);
	return 0;
}

static int
mod_rearrange(struct email_edit *ed, struct json_object *doc,
    struct json_object **mods, char *msg)
{
	static const char every[] = "Rearrange must place every module "
	    "exactly once: ";
	struct json_object *out, *p, *iv, *mv;
	size_t n = json_object_array_length(*mods), k;
	struct json_object **slot;
	long i;
	int64_t at;

	(void)doc;
	if (json_object_array_length(ed->positions) != n)
		return mod_refuse(ed, 0, msg, every, "the email has a different "
		    "number of modules", "");
	slot = calloc(n + 1, sizeof(*slot));
	if (slot == NULL)
		return -1;
	for (k = 0; k < n; k++) {
		p = json_object_array_get_idx(ed->positions, k);
		if (!json_object_object_get_ex(p, "index", &iv) ||
		    !json_object_object_get_ex(p, "moduleId", &mv) ||
		    (i = email_modules_find(*mods,
		    json_object_get_string(mv))) < 0) {
			free(slot);
			return mod_refuse(ed, 0, msg, every, "a position names "
			    "no module of the email", "");
		}
		at = json_object_get_int64(iv);
		if (at < 0 || (size_t)at >= n || slot[at] != NULL) {
			free(slot);
			return mod_refuse(ed, 0, msg, every, "an index is out of "
			    "range or repeated", "");
		}
		slot[at] = json_object_array_get_idx(*mods, (size_t)i);
	}
	out = json_object_new_array();
	for (k = 0; k < n; k++)
		json_object_array_add(out, json_object_get(slot[k]));
	free(slot);
	for (k = 0; k < n; k++)
		for (i = (long)k + 1; (size_t)i < n; i++)
			if (json_object_array_get_idx(out, k) ==
			    json_object_array_get_idx(out, (size_t)i)) {
				json_object_put(out);
				return mod_refuse(ed, 0, msg, every, "a module "
				    "is named twice", "");
			}
	json_object_put(*mods);
	*mods = out;
	return 0;
}

/*
 * Runs a module change fn on email id's draft, with the email's outline
 * (an email without a template has no modules: 709).
 */
static int
module_change(struct call *c, struct resp *r, struct email_edit *ed,
    int (*fn)(struct email_edit *, struct json_object *,
    struct json_object **, char *))
{
	struct email_ctx x;
	int32_t id = path_id(c);
	int e;

	if ((e = email_ctx_load(c, r, id, ASSET_ST_ANY, false, &x)) != 0) {
		email_ctx_clear(&x);
		return e;
	}
	if (!x.has_tpl || x.o.container_id == NULL) {
		email_ctx_clear(&x);
		return api_common_fail(c, r, -API_ERR_RULE, "The email has no "
		    "module container");
	}
	ed->open_tracking_disabled = -1;
	ed->mod_id = c->req->path_params[1];
	ed->o = &x.o;
	ed->modules = fn;
	e = run_edit(c, r, id, ed, true);
	email_ctx_clear(&x);
	return e;
}

/* The template module named name (its mktoName or its id), or -1. */
static long
template_module(const struct tpl_outline *o, const char *name)
{
	size_t k;

	for (k = 0; k < o->nmodules; k++)
		if (strcmp(o->modules[k].name, name) == 0 ||
		    strcmp(o->modules[k].id, name) == 0)
			return (long)k;
	return -1;
}

/*
 * POST /rest/asset/v1/email/{id}/content/{moduleId}/add.json: index,
 * name.  moduleId names the template's module (its id or mktoName);
 * name, when given, is the new instance's id (else mod_id_for makes one).
 */
int
api_emails_module_add(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "index", .type = VP_INT, .flags = VPF_REQUIRED,
		  .min = 0, .max = INT32_MAX },
		{ .name = "name", .type = VP_STR, .max = MOD_ID_BYTES - 1 },
	};
	struct vvalue pv[2];
	struct email_ctx x;
	struct email_edit ed;
	const char *want = c->req->path_params[1];
	long k;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	if ((e = email_ctx_load(c, r, path_id(c), ASSET_ST_ANY, false,
	    &x)) != 0) {
		email_ctx_clear(&x);
		return e;
	}
	k = x.has_tpl ? template_module(&x.o, want) : -1;
	memset(&ed, 0, sizeof(ed));
	if (k >= 0)
		ed.mod_template = arena_strdup(&c->app->arena,
		    x.o.modules[k].id);
	email_ctx_clear(&x);
	if (k < 0)
		return api_common_fail(c, r, -API_ERR_NO_DATA, "Module '%s' not "
		    "found in the template", api_common_echo(c, want));
	if (ed.mod_template == NULL)
		return -API_ERR_SYSTEM;
	ed.mod_index = pv[0].i;
	ed.mod_name = pv[1].present ? pv[1].s : NULL;
	return module_change(c, r, &ed, mod_add);
}

/* POST /rest/asset/v1/email/{id}/content/{moduleId}/delete.json */
int
api_emails_module_delete(struct call *c, struct resp *r)
{
	struct email_edit ed;

	memset(&ed, 0, sizeof(ed));
	return module_change(c, r, &ed, mod_delete);
}

/*
 * The name parameter of duplicate and rename (the new module id),
 * required unless optional.
 */
static int
module_named(struct call *c, struct resp *r, bool optional,
    int (*fn)(struct email_edit *, struct json_object *,
    struct json_object **, char *))
{
	static const struct vparam required[] = {
		{ .name = "name", .type = VP_STR, .flags = VPF_REQUIRED,
		  .max = MOD_ID_BYTES - 1 },
	};
	static const struct vparam maybe[] = {
		{ .name = "name", .type = VP_STR, .max = MOD_ID_BYTES - 1 },
	};
	struct vvalue pv[1];
	struct email_edit ed;
	int e;

	if ((e = validate(c->req, r, optional ? maybe : required, 1,
	    pv)) != 0)
		return e;
	memset(&ed, 0, sizeof(ed));
	ed.mod_name = pv[0].present ? pv[0].s : NULL;
	return module_change(c, r, &ed, fn);
}

/*
 * POST .../content/{moduleId}/duplicate.json[?name=]: without name the
 * copy gets an id made from the original's (mod_id_for).
 */
int
api_emails_module_duplicate(struct call *c, struct resp *r)
{
	return module_named(c, r, true, mod_duplicate);
}

/* POST .../content/{moduleId}/rename.json?name= */
int
api_emails_module_rename(struct call *c, struct resp *r)
{
	return module_named(c, r, false, mod_rename);
}

/*
 * POST /rest/asset/v1/email/{id}/content/rearrange.json:
 * positions=[{"index":0,"moduleId":"..."},...], every module once; the
 * array may also be the whole body (the swagger's body parameter).
 */
int
api_emails_module_rearrange(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "positions", .type = VP_RAW,
		  .flags = VPF_REQUIRED | VPF_BODY, .max = 65536 },
	};
	struct vvalue pv[1];
	struct email_edit ed;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	memset(&ed, 0, sizeof(ed));
	ed.positions = json_tokener_parse(pv[0].s);
	if (ed.positions == NULL ||
	    !json_object_is_type(ed.positions, json_type_array)) {
		json_object_put(ed.positions);
		return api_common_fail(c, r, -API_ERR_INVALID_VALUE, "Invalid "
		    "value '%s'. Required of type 'List'",
		    api_common_echo(c, pv[0].s));
	}
	e = module_change(c, r, &ed, mod_rearrange);
	json_object_put(ed.positions);
	return e;
}

/* ---- Dynamic content ---------------------------------------------------- */

/*
 * The segmentation section html_id of x is dynamic by (0 when it is not
 * dynamic content), and its stored object (NULL: the template's).
 */
static int32_t
dynamic_of(const struct email_ctx *x, const char *html_id,
    struct json_object **stored)
{
	struct json_object *s = email_doc_section(x->content, html_id);
	const char *type = str_member(s, "type", NULL);

	*stored = s;
	if (type == NULL)
		return template_dynamic(&x->tpl, html_id);
	if (strcmp(type, "DynamicContent") != 0)
		return 0;
	return ref_member(s, "segmentation");
}

/* 704 for a dynamic content id that names no dynamic section. */
static int
bad_content_id(struct call *c, struct resp *r, const char *id)
{
	return api_common_fail(c, r, -API_ERR_BAD_DATE, "Invalid dynamic "
	    "content id '%s'", api_common_echo(c, id));
}

/* The default HTML of section html_id: the template's, inside it. */
static char *
section_default_html(const struct email_ctx *x, const char *html_id)
{
	const struct html_elem *e = find_elem(x->doc, html_id);
	size_t len;

	return e != NULL ? html_elem_inner(e, &len) : NULL;
}

/* GET /rest/asset/v1/email/{id}/dynamicContent/{contentId}.json?status= */
int
api_emails_dynamic_get(struct call *c, struct resp *r)
{
	struct email_ctx x;
	struct repo_seg seg;
	struct json_object *stored = NULL, *segs = NULL, *o, *items, *it, *sv;
	const char *cid = c->req->path_params[1];
	char *dflt;
	int32_t sid;
	size_t k;
	int e;

	if ((e = query_ctx(c, r, &x)) != 0)
		return e > 0 ? 0 : e;
	sid = x.has_tpl && section_index(&x.o, cid) >= 0 ?
	    dynamic_of(&x, cid, &stored) : 0;
	if (sid == 0) {
		email_ctx_clear(&x);
		return bad_content_id(c, r, cid);
	}
	if ((e = repo_seg_get(c->app->db, &c->app->arena, sid, &seg)) != 0) {
		email_ctx_clear(&x);
		return err_from_repo(e);
	}
	if (stored != NULL)
		(void)json_object_object_get_ex(stored, "segments", &segs);
	dflt = section_default_html(&x, cid);
	o = json_object_new_object();
	json_object_object_add(o, "id", json_object_new_string(cid));
	json_object_object_add(o, "segmentation", json_object_new_int64(sid));
	json_object_object_add(o, "createdAt",
	    api_asset_time_json(x.em.created_at));
	json_object_object_add(o, "updatedAt",
	    api_asset_time_json(x.em.updated_at));
	items = json_object_new_array();
	for (k = 0; k < seg.nsegments; k++) {
		sv = NULL;
		if (segs != NULL)
			(void)json_object_object_get_ex(segs,
			    seg.segments[k].name, &sv);
		it = json_object_new_object();
		json_object_object_add(it, "id",
		    json_object_new_int64(seg.segments[k].id));
		json_object_object_add(it, "segmentId",
		    json_object_new_int64(seg.segments[k].id));
		json_object_object_add(it, "segmentName",
		    json_object_new_string(seg.segments[k].name));
		json_object_object_add(it, "type", json_object_new_string(
		    str_member(sv, "type", "HTML")));
		json_object_object_add(it, "content", json_object_new_string(
		    str_member(sv, "content", dflt != NULL ? dflt : "")));
		json_object_array_add(items, it);
	}
	json_object_object_add(o, "content", items);
	resp_add(r, o);
	free(dflt);
	email_ctx_clear(&x);
	return 0;
}

/*
 * POST /rest/asset/v1/email/{id}/dynamicContent/{contentId}.json:
 * segment (a segment's name), type (HTML), value.
 */
int
api_emails_dynamic_update(struct call *c, struct resp *r)
{
	static const char *const types[] = { "HTML", "Text", NULL };
	static const struct vparam params[] = {
		{ .name = "segment", .type = VP_STR, .flags = VPF_REQUIRED,
		  .max = ASSET_NAME_CHARS * 4 },
		{ .name = "type", .type = VP_ENUM, .flags = VPF_NOCASE,
		  .words = types },
		{ .name = "value", .type = VP_STR, .flags = VPF_REQUIRED,
		  .max = HTML_MAX_BYTES },
	};
	struct vvalue pv[3];
	struct email_ctx x;
	struct email_edit ed;
	struct repo_seg seg;
	struct json_object *stored = NULL, *sv, *segs, *one;
	const char *cid = c->req->path_params[1];
	char msg[TPL_MSG_BYTES];
	int32_t id = path_id(c), sid;
	size_t k;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	if (tpl_check_snippet(pv[2].s, strlen(pv[2].s), msg) != 0)
		return api_common_fail(c, r, -API_ERR_RULE, "%s", msg);
	if ((e = email_ctx_load(c, r, id, ASSET_ST_ANY, false, &x)) != 0) {
		email_ctx_clear(&x);
		return e;
	}
	sid = x.has_tpl && section_index(&x.o, cid) >= 0 ?
	    dynamic_of(&x, cid, &stored) : 0;
	sv = stored != NULL && sid != 0 ? json_object_get(stored) : NULL;
	email_ctx_clear(&x);
	if (sid == 0)
		return bad_content_id(c, r, cid);
	if ((e = repo_seg_get(c->app->db, &c->app->arena, sid, &seg)) != 0) {
		json_object_put(sv);
		return err_from_repo(e);
	}
	for (k = 0; k < seg.nsegments; k++)
		if (strcmp(seg.segments[k].name, pv[0].s) == 0)
			break;
	if (k == seg.nsegments) {
		json_object_put(sv);
		return api_common_fail(c, r, -API_ERR_RULE, "Segment '%s' not "
		    "found in segmentation %ld", api_common_echo(c, pv[0].s),
		    (long)sid);
	}
	if (sv == NULL) {
		sv = json_object_new_object();
		json_object_object_add(sv, "type",
		    json_object_new_string("DynamicContent"));
		json_object_object_add(sv, "segmentation", json_object_new_string(
		    arena_printf(&c->app->arena, "%ld", (long)sid)));
	}
	if (!json_object_object_get_ex(sv, "segments", &segs)) {
		segs = json_object_new_object();
		json_object_object_add(sv, "segments", segs);
	}
	one = json_object_new_object();
	json_object_object_add(one, "type", json_object_new_string(
	    pv[1].present ? types[pv[1].i] : "HTML"));
	json_object_object_add(one, "content", json_object_new_string(pv[2].s));
	json_object_object_add(segs, seg.segments[k].name, one);
	memset(&ed, 0, sizeof(ed));
	ed.open_tracking_disabled = -1;
	ed.section = cid;
	ed.section_value = sv;
	e = run_edit(c, r, id, &ed, true);
	json_object_put(sv);
	return e;
}

/* ---- Full content ------------------------------------------------------- */

/* Section s of x's template document as the version sets it. */
static void
render_section(struct call *c, struct email_ctx *x,
    const struct tpl_section *s)
{
	const struct html_elem *e = find_elem(x->doc, s->id), *img;
	struct json_object *stored = email_doc_section(x->content, s->id);
	struct json_object *segs, *def;
	const char *type = str_member(stored, "type", NULL), *v;
	struct repo_snippet sn;
	size_t k;
	static const char *const attrs[][2] = { { "value", "src" },
	    { "altText", "alt" }, { "width", "width" },
	    { "height", "height" }, { "style", "style" } };

	if (e == NULL || type == NULL)
		return;
	if (strcmp(type, "Text") == 0) {
		v = str_member(stored, "html", "");
		(void)html_set_inner(x->doc, e, v, strlen(v));
	} else if (strcmp(type, "DynamicContent") == 0 &&
	    json_object_object_get_ex(stored, "segments", &segs) &&
	    json_object_object_get_ex(segs, "Default", &def)) {
		v = str_member(def, "content", "");
		(void)html_set_inner(x->doc, e, v, strlen(v));
	} else if (strcmp(type, "Snippet") == 0 &&
	    repo_snippet_get(c->app->db, &c->app->arena,
	    ref_member(stored, "snippet"), &sn) == 0 &&
	    sn.content != NULL)
		(void)html_set_inner(x->doc, e, sn.content,
		    strlen(sn.content));
	else if (strcmp(type, "Image") == 0 &&
	    (img = section_img(x->doc, e)) != NULL)
		for (k = 0; k < sizeof(attrs) / sizeof(attrs[0]); k++)
			if ((v = str_member(stored, attrs[k][0], NULL)) != NULL)
				html_set_attr(x->doc, img, attrs[k][1], v);
}

/* The module instances of x in place of the template's modules. */
static void
render_modules(struct email_ctx *x)
{
	struct json_object *mods = email_doc_modules(x->content, &x->o), *id;
	const struct html_elem **elems, *parent = NULL, *copy;
	const struct tpl_outline *o = &x->o;
	size_t k, i, v, n = json_object_array_length(mods);
	long t;
	char *needle;

	elems = calloc(o->nmodules + 1, sizeof(*elems));
	for (k = 0; elems != NULL && k < o->nmodules; k++)
		if ((elems[k] = find_elem(x->doc, o->modules[k].id)) != NULL &&
		    parent == NULL)
			parent = html_elem_parent(elems[k]);
	for (i = 0; parent != NULL && i < n; i++) {
		t = email_modules_template(mods, i, o);
		if (t < 0 || elems[t] == NULL ||
		    !json_object_object_get_ex(json_object_array_get_idx(mods,
		    i), "id", &id) || (copy = html_append_copy(x->doc, parent,
		    elems[t])) == NULL)
			continue;
		html_set_attr(x->doc, copy, "id", json_object_get_string(id));
		for (v = 0; v < o->nvariables; v++) {
			if (!o->variables[v].module_scope ||
			    !module_uses(&o->modules[t], v))
				continue;
			needle = malloc(strlen(o->variables[v].id) + 4);
			if (needle == NULL)
				continue;
			(void)snprintf(needle, strlen(o->variables[v].id) + 4,
			    "${%s}", o->variables[v].id);
			html_replace_text(x->doc, copy, needle, variable_value(x,
			    v, json_object_get_string(id)));
			free(needle);
		}
	}
	for (k = 0; parent != NULL && k < o->nmodules; k++)
		if (elems[k] != NULL)
			html_remove(x->doc, elems[k]);
	free(elems);
	json_object_put(mods);
}

/*
 * The HTML of x's version: the template's document with the sections,
 * the module instances and the global variables the version sets; for
 * an email not linked to a template, the HTML it was given.  A heap
 * string (free() it), or NULL.
 */
static char *
render(struct call *c, struct email_ctx *x, size_t *len)
{
	const char *html;
	char *needle;
	size_t i;

	if (!x->has_tpl) {
		html = str_member(x->content, "html", "");
		*len = strlen(html);
		return strdup(html);
	}
	for (i = 0; i < x->o.nsections; i++)
		render_section(c, x, &x->o.sections[i]);
	if (x->o.container_id != NULL)
		render_modules(x);
	for (i = 0; i < x->o.nvariables; i++) {
		if (x->o.variables[i].module_scope)
			continue;
		needle = malloc(strlen(x->o.variables[i].id) + 4);
		if (needle == NULL)
			continue;
		(void)snprintf(needle, strlen(x->o.variables[i].id) + 4, "${%s}",
		    x->o.variables[i].id);
		html_replace_text(x->doc, NULL, needle,
		    variable_value(x, i, NULL));
		free(needle);
	}
	return html_serialize(x->doc, len);
}

/* The text version of html: its characters without markup. */
static char *
text_of(const char *html, size_t len)
{
	struct html_doc *d = len > 0 ? html_parse(html, len, NULL, 0) : NULL;
	const struct html_elem *root = NULL;
	char *t;

	if (d == NULL)
		return strdup("");
	(void)html_each(d, first_elem_fn, &root);
	t = root != NULL ? html_elem_text(root) : strdup("");
	html_free(d);
	return t;
}

/* The values lead tokens take: one lead's, or none (vals NULL). */
struct lead_tokens {
	const struct lead_schema	*s;
	const char			**vals;	/* by s->fields; NULL: no lead */
};

/* email_token_fn over t: the field by display name or REST name. */
static const char *
token_value(const char *name, void *arg, bool *known)
{
	const struct lead_tokens *t = arg;
	size_t i;

	for (i = 0; i < t->s->count; i++)
		if (strcasecmp(name, t->s->fields[i].display_name) == 0 ||
		    strcasecmp(name, t->s->fields[i].name) == 0) {
			*known = true;
			return t->vals != NULL ? t->vals[i] : NULL;
		}
	*known = false;
	return NULL;
}

/* html_text_fn: one text with its lead tokens filled. */
static char *
token_text(const char *text, void *arg)
{
	return email_fill_tokens(text, token_value, arg);
}

/*
 * The lead tokens' values of lead id (0: no lead, so tokens take their
 * defaults) into *t.  Returns 0 or the api_err (1004 when there is no
 * such lead).
 */
static int
lead_tokens_load(struct call *c, int64_t id, struct lead_tokens *t)
{
	const struct lead_field **cols;
	struct lead_rows rows;
	size_t i;
	int e;

	memset(t, 0, sizeof(*t));
	if ((e = api_leads_catalog_get(c, false, &t->s)) != 0)
		return e;
	if (id == 0)
		return 0;
	if ((cols = arena_zalloc(&c->app->arena, (t->s->count + 1) *
	    sizeof(*cols))) == NULL)
		return -API_ERR_SYSTEM;
	for (i = 0; i < t->s->count; i++)
		cols[i] = &t->s->fields[i];
	if ((e = repo_leads_get_by_id(c->app->db, &c->app->arena,
	    (const struct lead_field *const *)cols, t->s->count, id,
	    &rows)) != 0)
		return err_from_repo(e);
	if (rows.count == 0)
		return -API_ERR_LEAD_NOT_FOUND;
	t->vals = rows.rows[0].vals;
	return 0;
}

/*
 * html with its lead tokens filled from t (model/email.h: the value, or
 * the token's default when the value is empty), in the parsed text and
 * attribute values.  Returns the new HTML (free() it; *len set) and frees
 * html, or NULL with *err the api_err.
 */
static char *
fill_lead_tokens(char *html, size_t *len, struct lead_tokens *t, int *err)
{
	struct html_doc *d;
	char *out;

	*err = 0;
	if ((d = html_parse(html, *len, NULL, 0)) == NULL)
		return html;	/* no element: nothing to fill */
	html_map_text(d, NULL, token_text, t);
	out = html_serialize(d, len);
	html_free(d);
	free(html);
	if (out == NULL)
		*err = -API_ERR_SYSTEM;
	return out;
}

/*
 * The HTML of x's version (render) with the lead tokens filled from t
 * unless t is NULL: a heap string (free() it; *len set), or NULL with
 * *err the api_err.  What Get Email Full Content answers and Send Sample
 * Email sends.
 */
static char *
render_for_lead(struct call *c, struct email_ctx *x, struct lead_tokens *t,
    size_t *len, int *err)
{
	char *html;

	*err = 0;
	if ((html = render(c, x, len)) == NULL) {
		*err = -API_ERR_SYSTEM;
		return NULL;
	}
	if (t != NULL)
		html = fill_lead_tokens(html, len, t, err);
	return html;
}

/*
 * GET /rest/asset/v1/email/{id}/fullContent.json?status=&type=HTML|Text
 * &leadId=
 */
int
api_emails_full_get(struct call *c, struct resp *r)
{
	static const char *const types[] = { "HTML", "Text", NULL };
	static const struct vparam params[] = {
		API_ASSET_P_STATUS,
		{ .name = "type", .type = VP_ENUM, .flags = VPF_NOCASE,
		  .words = types },
		{ .name = "leadId", .type = VP_INT, .min = 1,
		  .max = INT32_MAX },
	};
	struct vvalue pv[3];
	struct email_ctx x;
	struct lead_tokens t;
	struct json_object *o;
	char *html, *text;
	size_t len;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	e = email_ctx_load(c, r, path_id(c), api_asset_status(&pv[0]), true,
	    &x);
	if (e != 0) {
		email_ctx_clear(&x);
		return e > 0 ? 0 : e;
	}
	if ((pv[2].present && (e = lead_tokens_load(c, pv[2].i, &t)) != 0) ||
	    (html = render_for_lead(c, &x, pv[2].present ? &t : NULL, &len,
	    &e)) == NULL) {
		email_ctx_clear(&x);
		return e;
	}
	o = json_object_new_object();
	json_object_object_add(o, "id", json_object_new_int64(x.em.id));
	json_object_object_add(o, "status",
	    json_object_new_string(asset_status_name(x.em.status)));
	if (pv[1].present && pv[1].i == 1) {
		text = text_of(html, len);
		json_object_object_add(o, "content",
		    json_object_new_string(text != NULL ? text : ""));
		free(text);
	} else
		json_object_object_add(o, "content",
		    json_object_new_string_len(html, (int)len));
	resp_add(r, o);
	free(html);
	email_ctx_clear(&x);
	return 0;
}

/*
 * POST /rest/asset/v1/email/{id}/fullContent.json with a multipart
 * `content` part (text/html), or a plain `content` field.
 */
int
api_emails_full_update(struct call *c, struct resp *r)
{
	const char *content = NULL;
	struct email_ctx x;
	struct email_edit ed;
	struct json_object *sv;
	char msg[TPL_MSG_BYTES];
	int32_t id = path_id(c);
	size_t len = 0;
	int e;

	content = api_asset_content_param(c, &len);
	if (content == NULL || len == 0)
		return api_common_fail(c, r, -API_ERR_MISSING_PARAM, "Missing "
		    "value for the required parameter 'content'");
	if (memchr(content, '\0', len) != NULL ||
	    tpl_check_snippet(content, len, msg) != 0)
		return api_common_fail(c, r, -API_ERR_RULE, "%s",
		    memchr(content, '\0', len) != NULL ? "Content holds a NUL "
		    "byte" : msg);
	if ((e = email_ctx_load(c, r, id, ASSET_ST_ANY, false, &x)) != 0) {
		email_ctx_clear(&x);
		return e;
	}
	e = x.has_tpl;
	email_ctx_clear(&x);
	if (e)
		return api_common_fail(c, r, -API_ERR_RULE, "Cannot update the "
		    "full content of an email linked to a template");
	sv = json_object_new_string_len(content, (int)len);
	memset(&ed, 0, sizeof(ed));
	ed.open_tracking_disabled = -1;
	ed.full_html = sv;
	e = run_edit(c, r, id, &ed, true);
	json_object_put(sv);
	return e;
}

/* ---- Send sample -------------------------------------------------------- */

/* A Text header of e's version, or NULL (unset, or dynamic content). */
static const char *
text_header(const struct repo_email *e, enum repo_email_hdr h)
{
	const struct repo_email_header *v = &e->hdr[h];

	if (v->value == NULL || v->value[0] == '\0' ||
	    (v->type != NULL && strcmp(v->type, "Text") != 0))
		return NULL;
	return v->value;
}

/*
 * POST /rest/asset/v1/email/{id}/sendSample.json with emailAddress
 * (required), textOnly, leadId.
 */
int
api_emails_send_sample(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "emailAddress", .type = VP_STR,
		  .flags = VPF_REQUIRED, .max = MAIL_ADDRESS_BYTES },
		{ .name = "textOnly", .type = VP_BOOL },
		{ .name = "leadId", .type = VP_INT, .min = 1,
		  .max = INT32_MAX },
	};
	struct vvalue pv[3];
	struct email_ctx x;
	struct outbox_send s;
	struct outbox_result res;
	struct lead_tokens t;
	struct json_object *o;
	const char *why;
	char *html, *text, *subject = NULL, *from_name = NULL;
	int32_t id = path_id(c);
	size_t len;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	if (!mail_address_ok(pv[0].s))
		return api_common_fail(c, r, -API_ERR_INVALID_VALUE, "Invalid "
		    "value '%s'. Required of type 'email address'",
		    api_common_echo(c, pv[0].s));
	if ((e = email_ctx_load(c, r, id, ASSET_ST_ANY, false, &x)) != 0) {
		email_ctx_clear(&x);
		return e;
	}
	if ((e = lead_tokens_load(c, pv[2].present ? pv[2].i : 0, &t)) != 0 ||
	    (html = render_for_lead(c, &x, &t, &len, &e)) == NULL) {
		email_ctx_clear(&x);
		return e;
	}
	text = text_of(html, len);
	memset(&s, 0, sizeof(s));
	s.kind = "sample";
	s.email_id = x.em.id;
	s.lead_id = pv[2].present ? (int32_t)pv[2].i : 0;
	s.msg.from = text_header(&x.em, EMAIL_HDR_FROM_EMAIL);
	s.msg.from_name = text_header(&x.em, EMAIL_HDR_FROM_NAME);
	s.msg.reply_to = text_header(&x.em, EMAIL_HDR_REPLY_EMAIL);
	s.msg.subject = text_header(&x.em, EMAIL_HDR_SUBJECT);
	/* The headers people write tokens in are filled as the body is. */
	if ((subject = email_fill_tokens(s.msg.subject, token_value, &t)) !=
	    NULL)
		s.msg.subject = subject;
	if ((from_name = email_fill_tokens(s.msg.from_name, token_value,
	    &t)) != NULL)
		s.msg.from_name = from_name;
	s.msg.to = pv[0].s;
	s.msg.text = text != NULL ? text : "";
	if (!(pv[1].present && pv[1].b) && !x.em.text_only)
		s.msg.html = html;
	e = outbox_send(c->app->db, c->app->cfg, &s, &res, &why);
	free(subject);
	free(from_name);
	free(text);
	free(html);
	email_ctx_clear(&x);
	if (e == -REPO_ERR_INVALID)
		return api_common_fail(c, r, -API_ERR_RULE, "Cannot send the "
		    "sample email: its %s is not valid", why);
	if (e != 0)
		return err_from_repo(e);
	if (res.smtp.status == SMTP_REFUSED ||
	    res.smtp.status == SMTP_UNREACHABLE)
		return api_common_fail(c, r, -API_ERR_RULE, "Sample email not "
		    "sent: the SMTP relay %s: %s", res.smtp.status ==
		    SMTP_REFUSED ? "refused it" : "could not be reached",
		    api_common_echo(c, res.smtp.reply));
	if (res.smtp.status == SMTP_NO_RELAY)
		resp_warn(r, ENV_ASSET1, 0, "Sample email kept in the outbox: "
		    "no SMTP relay is configured (smtp_url)");
	o = json_object_new_object();
	json_object_object_add(o, "id", json_object_new_int(id));
	resp_add(r, o);
	return 0;
}

/* ---- What Emails v2 (api_emails2.c) shares ------------------------------ */

/* See api_emails.h. */
int
api_emails_approval_check(const struct repo_email *draft, char *msg)
{
	return check_for_approval(draft, msg);
}

/* See api_emails.h. */
int
api_emails_render_version(struct call *c, struct resp *r, int32_t id,
    enum asset_status want, char **html, size_t *len, char **text,
    bool *own_text)
{
	struct email_ctx x;
	struct json_object *t;
	int e;

	*html = NULL;
	*text = NULL;
	*len = 0;
	*own_text = false;
	if ((e = email_ctx_load(c, r, id, want, false, &x)) != 0) {
		email_ctx_clear(&x);
		return e;
	}
	if ((*html = render_for_lead(c, &x, 0, len, &e)) == NULL) {
		email_ctx_clear(&x);
		return e;
	}
	if (json_object_object_get_ex(x.content, "text", &t) &&
	    json_object_is_type(t, json_type_string)) {
		*text = strdup(json_object_get_string(t));
		*own_text = true;
	} else
		*text = text_of(*html, *len);
	email_ctx_clear(&x);
	if (*text == NULL) {
		free(*html);
		*html = NULL;
		return -API_ERR_SYSTEM;
	}
	return 0;
}
