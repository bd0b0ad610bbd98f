/*
 * Emails v1's full content and Send Sample Email (docs/assets.md
 * "Emails"): a version rendered (mail/compose.h, which the campaign
 * engine's Send Email step shares) with its snippets from the store and
 * its lead tokens from a lead; the HTML of an email not linked to a
 * template; and what Emails v2 reads of a rendered version
 * (api_emails.h).
 *
 * Choices where the real service is silent or contradicts itself:
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

#include <json-c/json.h>

#include "api/api.h"
#include "api/api_asset.h"
#include "api/api_common.h"
#include "api/api_emails.h"
#include "api/api_emails_ctx.h"
#include "api/api_leads_catalog.h"
#include "bounds.h"
#include "call.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "http/validate.h"
#include "mail/compose.h"
#include "mail/message.h"
#include "mail/outbox.h"
#include "model/asset.h"
#include "model/email.h"
#include "model/email_render.h"
#include "model/leadfield.h"
#include "model/template.h"
#include "repo/repo_emails.h"
#include "repo/repo.h"
#include "util/arena.h"

/* ---- Full content ------------------------------------------------------- */

/*
 * The lead tokens' values of lead id (0: no lead, so tokens take their
 * defaults) into *t.  Returns 0 or the api_err (1004 when there is no
 * such lead).
 */
static int
lead_tokens_load(struct call *c, int64_t id, struct email_lead *t)
{
	const struct lead_schema *s;
	int e;

	memset(t, 0, sizeof(*t));
	if ((e = api_leads_catalog_get(c, false, &s)) != 0)
		return e;
	e = compose_lead(c->app->db, &c->app->arena, s, id, t);
	if (e == -REPO_ERR_NOT_FOUND)
		return -API_ERR_LEAD_NOT_FOUND;
	return e != 0 ? err_from_repo(e) : 0;
}

/*
 * The HTML of x's version (mail/compose.h; x's template document is
 * changed) with the lead tokens filled from t unless t is NULL: a heap
 * string (free() it; *len set), or NULL with *err the api_err.  What Get
 * Email Full Content answers and Send Sample Email sends.
 */
static char *
render_for_lead(struct call *c, struct email_ctx *x, struct email_lead *t,
    size_t *len, int *err)
{
	struct compose_tokens tk;
	char *html;

	*err = 0;
	memset(&tk, 0, sizeof(tk));
	tk.lead = t;
	if ((html = compose_render(c->app->db, &c->app->arena,
	    x->has_tpl ? &x->o : NULL, x->has_tpl ? x->doc : NULL, x->content,
	    t != NULL ? &tk : NULL, len)) == NULL)
		*err = -API_ERR_SYSTEM;
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
	struct email_lead t;
	struct json_object *o;
	char *html, *text;
	size_t len;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	e = api_emails_ctx_load(c, r, api_emails_ctx_id(c),
	    api_asset_status(&pv[0]), true, &x);
	if (e != 0) {
		api_emails_ctx_clear(&x);
		return e > 0 ? 0 : e;
	}
	if ((pv[2].present && (e = lead_tokens_load(c, pv[2].i, &t)) != 0) ||
	    (html = render_for_lead(c, &x, pv[2].present ? &t : NULL, &len,
	    &e)) == NULL) {
		api_emails_ctx_clear(&x);
		return e;
	}
	o = json_object_new_object();
	json_object_object_add(o, "id", json_object_new_int64(x.em.id));
	json_object_object_add(o, "status",
	    json_object_new_string(asset_status_name(x.em.status)));
	if (pv[1].present && pv[1].i == 1) {
		text = email_render_text(html, len);
		json_object_object_add(o, "content",
		    json_object_new_string(text != NULL ? text : ""));
		free(text);
	} else
		json_object_object_add(o, "content",
		    json_object_new_string_len(html, (int)len));
	resp_add(r, o);
	free(html);
	api_emails_ctx_clear(&x);
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
	int32_t id = api_emails_ctx_id(c);
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
	if ((e = api_emails_ctx_load(c, r, id, ASSET_ST_ANY, false, &x)) != 0) {
		api_emails_ctx_clear(&x);
		return e;
	}
	e = x.has_tpl;
	api_emails_ctx_clear(&x);
	if (e)
		return api_common_fail(c, r, -API_ERR_RULE, "Cannot update the "
		    "full content of an email linked to a template");
	sv = json_object_new_string_len(content, (int)len);
	memset(&ed, 0, sizeof(ed));
	ed.open_tracking_disabled = -1;
	ed.full_html = json_object_get_string(sv);
	e = api_emails_ctx_edit(c, r, id, &ed, true);
	json_object_put(sv);
	return e;
}

/* ---- Send sample -------------------------------------------------------- */

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
	struct email_lead t;
	struct compose_tokens tk;
	struct json_object *o;
	const char *why;
	char *html, *text, *own[2];
	int32_t id = api_emails_ctx_id(c);
	size_t len;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	if (!mail_address_ok(pv[0].s))
		return api_common_fail(c, r, -API_ERR_INVALID_VALUE, "Invalid "
		    "value '%s'. Required of type 'email address'",
		    api_common_echo(c, pv[0].s));
	if ((e = api_emails_ctx_load(c, r, id, ASSET_ST_ANY, false, &x)) != 0) {
		api_emails_ctx_clear(&x);
		return e;
	}
	if ((e = lead_tokens_load(c, pv[2].present ? pv[2].i : 0, &t)) != 0 ||
	    (html = render_for_lead(c, &x, &t, &len, &e)) == NULL) {
		api_emails_ctx_clear(&x);
		return e;
	}
	text = email_render_text(html, len);
	memset(&s, 0, sizeof(s));
	s.kind = "sample";
	s.email_id = x.em.id;
	s.lead_id = pv[2].present ? (int32_t)pv[2].i : 0;
	memset(&tk, 0, sizeof(tk));
	tk.lead = &t;
	compose_headers(&x.em, &tk, &s.msg, own);
	s.msg.to = pv[0].s;
	s.msg.text = text != NULL ? text : "";
	if (!(pv[1].present && pv[1].b) && !x.em.text_only)
		s.msg.html = html;
	e = outbox_send(c->app->db, c->app->cfg, &s, &res, &why);
	free(own[0]);
	free(own[1]);
	free(text);
	free(html);
	api_emails_ctx_clear(&x);
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

/* See api_emails.h. */
int
api_emails_render_version(struct call *c, struct resp *r, int32_t id,
    enum asset_status want, char **html, size_t *len, char **text,
    bool *own_text)
{
	struct email_ctx x;
	const char *own;
	int e;

	*html = NULL;
	*text = NULL;
	*len = 0;
	*own_text = false;
	if ((e = api_emails_ctx_load(c, r, id, want, false, &x)) != 0) {
		api_emails_ctx_clear(&x);
		return e;
	}
	if ((*html = render_for_lead(c, &x, 0, len, &e)) == NULL) {
		api_emails_ctx_clear(&x);
		return e;
	}
	if ((own = email_doc_text(x.content)) != NULL) {
		*text = strdup(own);
		*own_text = true;
	} else
		*text = email_render_text(*html, *len);
	api_emails_ctx_clear(&x);
	if (*text == NULL) {
		free(*html);
		*html = NULL;
		return -API_ERR_SYSTEM;
	}
	return 0;
}

