/*
 * Emails v1's content (docs/assets.md "Emails"): Get Email Content, Update
 * Email Content (the headers), Update Email Content Section, the
 * variables, the CC fields and dynamic content, over the content document
 * (model/email.h) of the email's draft.
 *
 * Choices where the real service is silent or contradicts itself:
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
 *   - a section's dynamic content id is its htmlId; an id that names no
 *     dynamic section is 704 "Invalid dynamic content id '<id>'" (the
 *     documentation's code); Get Email Dynamic Content lists every
 *     segment of the segmentation in order, each with the section's
 *     template HTML until set, `id` and `segmentId` both the segment's
 *     id, and the email's times; Update takes the segment's name
 *     (`segment`, 709 for one the segmentation lacks), `type` HTML (or
 *     Text) and `value`, checked as snippets are;
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
#include "api/api_emails_ctx.h"
#include "bounds.h"
#include "call.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "http/validate.h"
#include "model/asset.h"
#include "model/email.h"
#include "model/email_render.h"
#include "model/html.h"
#include "model/template.h"
#include "repo/repo_email_templates.h"
#include "repo/repo_emails.h"
#include "repo/repo_segmentations.h"
#include "repo/repo_snippets.h"
#include "repo/repo_usage.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/num.h"

/* The element of the template whose id is id, or NULL. */
static const struct html_elem *
find_elem(const struct html_doc *d, const char *id)
{
	return html_elem_by_id(d, id);
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

/* The image value {width, altText, style, height} of an image section. */
static void
image_write(struct buf *b, const struct email_ctx *x,
    const struct html_elem *e, struct json_object *stored)
{
	const struct html_elem *img = e != NULL ? email_render_img(x->doc, e) :
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
		buf_add_jsonc_str(b, email_doc_str(stored, keys[k][1], dflt));
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
	struct buf *t = api_emails_ctx_kept_text(x, i);
	char *html, *text;
	size_t len;

	if (t != NULL && t->len > 0) {
		buf_add(b, t->data, t->len);
		return;
	}
	if (t == NULL)
		t = b;
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
	const char *type = email_section_type(stored);

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
		text_write(b, email_doc_str(stored, EMAIL_SEC_HTML, ""),
		    email_doc_str(stored, EMAIL_SEC_TEXT, ""));
	else if (strcmp(type, "Text") == 0)
		text_default_write(b, x, i, e);
	else if (strcmp(type, "DynamicContent") == 0)
		buf_add_jsonc_str(b, s->id);
	else if (strcmp(type, "Snippet") == 0)
		buf_add_jsonc_str(b, email_doc_str(stored, EMAIL_SEC_SNIPPET,
		    NULL));
	else if (strcmp(type, "Image") == 0)
		image_write(b, x, e, stored);
	else if (strcmp(type, "Video") == 0) {
		buf_adds(b, "{\"videoUrl\":");
		buf_add_jsonc_str(b, email_doc_str(stored, "videoUrl",
		    NULL));
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
	const char *id;
	size_t i, n = json_object_array_length(mods);

	(void)c;
	for (i = 0; i < n; i++) {
		if ((id = email_module_id(mods, i)) == NULL)
			continue;
		o = json_object_new_object();
		json_object_object_add(o, "htmlId", json_object_new_string(id));
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

	if ((e = api_emails_ctx_query(c, r, &x)) != 0)
		return e > 0 ? 0 : e;
	for (i = 0; x.has_tpl && i < x.o.nsections; i++)
		section_write(resp_add_text(r), &x, i);
	if (x.has_tpl && x.o.container_id != NULL)
		modules_json(c, r, &x);
	api_emails_ctx_clear(&x);
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
	return api_emails_ctx_edit(c, r, api_emails_ctx_id(c), &ed, true);
}

/* The html text's text: its characters without markup. */
static char *
html_to_text(struct call *c, const char *html)
{
	char *t = email_render_text(html, strlen(html));
	char *out = arena_strdup(&c->app->arena, t != NULL ? t : "");

	free(t);
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
	int32_t id = api_emails_ctx_id(c), ref = 0;
	long i;
	size_t k;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	if ((e = api_emails_ctx_load(c, r, id, ASSET_ST_ANY, false, &x)) != 0) {
		api_emails_ctx_clear(&x);
		return e;
	}
	i = x.has_tpl ? section_index(&x.o, html_id) : -1;
	kind = i >= 0 ? x.o.sections[i].kind : TPL_SEC__MAX;
	api_emails_ctx_clear(&x);
	if (i < 0)
		return no_section(c, r, html_id);
	sv = email_section_new(pv[0].i == 0 && kind == TPL_SEC_IMAGE ?
	    "Image" : types[pv[0].i]);
	if (pv[0].i == 0 && kind == TPL_SEC_IMAGE) {
		if (pv[1].present)
			email_section_set(sv, EMAIL_SEC_IMAGE_URL, pv[1].s);
		for (k = 0; k < sizeof(image_params) / sizeof(image_params[0]);
		    k++)
			if (pv[3 + k].present)
				email_section_set(sv, image_params[k],
				    pv[3 + k].s);
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
		email_section_set(sv, EMAIL_SEC_HTML, pv[1].s);
		email_section_set(sv, EMAIL_SEC_TEXT, pv[2].present ? pv[2].s :
		    html_to_text(c, pv[1].s));
	} else {
		e = !pv[1].present ? api_common_fail(c, r,
		    -API_ERR_MISSING_PARAM, "Missing value for the required "
		    "parameter 'value'") : need_ref(c, r,
		    pv[1].s, pv[0].i == 2, &ref);
		if (e != 0) {
			json_object_put(sv);
			return e;
		}
		email_section_set_ref(sv, pv[0].i == 1 ?
		    EMAIL_SEC_SEGMENTATION : EMAIL_SEC_SNIPPET, ref);
	}
	memset(&ed, 0, sizeof(ed));
	ed.open_tracking_disabled = -1;
	ed.section = html_id;
	ed.section_value = sv;
	e = api_emails_ctx_edit(c, r, id, &ed, true);
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

/*
 * The id of instance m of mods when its template module uses variable v
 * of x's outline, else NULL.
 */
static const char *
instance_using(const struct email_ctx *x, struct json_object *mods, size_t m,
    size_t v)
{
	long k = email_modules_template(mods, m, &x->o);

	if (k < 0 || !email_module_uses(&x->o.modules[k], v))
		return NULL;
	return email_module_id(mods, m);
}

/* The value variable v has in module (NULL: global) of email x. */
static const char *
variable_value(const struct email_ctx *x, size_t v, const char *module)
{
	return email_variable_value(x->content, &x->o, v, module);
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

	if ((e = api_emails_ctx_query(c, r, &x)) != 0)
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
	api_emails_ctx_clear(&x);
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
	int32_t id = api_emails_ctx_id(c);
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	module = pv[1].present ? pv[1].s : NULL;
	if ((e = api_emails_ctx_load(c, r, id, ASSET_ST_ANY, false, &x)) == 0)
		e = variable_check(c, r, &x, name, module, pv[0].s);
	api_emails_ctx_clear(&x);
	if (e != 0)
		return e;
	memset(&ed, 0, sizeof(ed));
	ed.open_tracking_disabled = -1;
	ed.var_name = name;
	ed.var_module = module;
	ed.var_value = pv[0].s;
	if ((e = api_emails_ctx_edit(c, r, id, &ed, false)) != 0)
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
	const char *type = email_section_type(s);

	*stored = s;
	if (type == NULL)
		return template_dynamic(&x->tpl, html_id);
	if (strcmp(type, "DynamicContent") != 0)
		return 0;
	return email_doc_ref(s, EMAIL_SEC_SEGMENTATION);
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
	struct json_object *stored = NULL, *o, *items, *it, *sv;
	const char *cid = c->req->path_params[1];
	char *dflt;
	int32_t sid;
	size_t k;
	int e;

	if ((e = api_emails_ctx_query(c, r, &x)) != 0)
		return e > 0 ? 0 : e;
	sid = x.has_tpl && section_index(&x.o, cid) >= 0 ?
	    dynamic_of(&x, cid, &stored) : 0;
	if (sid == 0) {
		api_emails_ctx_clear(&x);
		return bad_content_id(c, r, cid);
	}
	if ((e = repo_seg_get(c->app->db, &c->app->arena, sid, &seg)) != 0) {
		api_emails_ctx_clear(&x);
		return err_from_repo(e);
	}
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
		sv = email_section_segment(stored, seg.segments[k].name);
		it = json_object_new_object();
		json_object_object_add(it, "id",
		    json_object_new_int64(seg.segments[k].id));
		json_object_object_add(it, "segmentId",
		    json_object_new_int64(seg.segments[k].id));
		json_object_object_add(it, "segmentName",
		    json_object_new_string(seg.segments[k].name));
		json_object_object_add(it, "type", json_object_new_string(
		    email_segment_type(sv)));
		json_object_object_add(it, "content", json_object_new_string(
		    email_segment_content(sv, dflt != NULL ? dflt : "")));
		json_object_array_add(items, it);
	}
	json_object_object_add(o, "content", items);
	resp_add(r, o);
	free(dflt);
	api_emails_ctx_clear(&x);
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
	struct json_object *stored = NULL, *sv;
	const char *cid = c->req->path_params[1];
	char msg[TPL_MSG_BYTES];
	int32_t id = api_emails_ctx_id(c), sid;
	size_t k;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	if (tpl_check_snippet(pv[2].s, strlen(pv[2].s), msg) != 0)
		return api_common_fail(c, r, -API_ERR_RULE, "%s", msg);
	if ((e = api_emails_ctx_load(c, r, id, ASSET_ST_ANY, false, &x)) != 0) {
		api_emails_ctx_clear(&x);
		return e;
	}
	sid = x.has_tpl && section_index(&x.o, cid) >= 0 ?
	    dynamic_of(&x, cid, &stored) : 0;
	sv = stored != NULL && sid != 0 ? json_object_get(stored) : NULL;
	api_emails_ctx_clear(&x);
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
		sv = email_section_new("DynamicContent");
		email_section_set_ref(sv, EMAIL_SEC_SEGMENTATION, sid);
	}
	email_section_set_segment(sv, seg.segments[k].name,
	    pv[1].present ? types[pv[1].i] : "HTML", pv[2].s);
	memset(&ed, 0, sizeof(ed));
	ed.open_tracking_disabled = -1;
	ed.section = cid;
	ed.section_value = sv;
	e = api_emails_ctx_edit(c, r, id, &ed, true);
	json_object_put(sv);
	return e;
}

