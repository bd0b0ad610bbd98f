/*
 * The email context of Emails v1's content operations (api_emails_ctx.h):
 * an email with the template it is made from, parsed (a worker keeps the
 * parses of the templates it read), and the edit of a draft inside the
 * repository's transaction.
 *
 * Choices where the real service is silent or contradicts itself:
 *   - every edit of content (headers, a section, a variable) changes the
 *     draft, made first as a copy of the approved version when there is
 *     none; model/email.h says how a version keeps its content.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <json-c/json.h>

#include "api/api_asset.h"
#include "api/api_common.h"
#include "api/api_emails_ctx.h"
#include "bounds.h"
#include "call.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "http/validate.h"
#include "mail/compose.h"
#include "model/asset.h"
#include "model/email.h"
#include "model/html.h"
#include "model/template.h"
#include "repo/repo.h"
#include "repo/repo_email_templates.h"
#include "repo/repo_emails.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/xmalloc.h"

/* See api_emails_ctx.h. */
int32_t
api_emails_ctx_id(const struct call *c)
{
	return (int32_t)c->req->path_ints[0];
}

/* See api_emails_ctx.h. */
int
api_emails_ctx_err(struct call *c, struct resp *r, int32_t id, int e,
    const char *msg)
{
	return api_asset_change_err(c, r, e, msg,
	    api_asset_not_found_msg(c, "Email", id));
}

/* See api_emails_ctx.h. */
void
api_emails_ctx_clear(struct email_ctx *x)
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
 * more to do); a change (query false) 702.  0 when *x is filled; the
 * caller clears *x whatever the result.  When readonly, the caller does
 * not change the template's document, which may then be the worker's
 * kept parse.
 */
static int
ctx_read(struct call *c, struct resp *r, int32_t id,
    enum asset_status want, bool query, bool readonly, struct email_ctx *x)
{
	struct parsed_tpl *p;
	int e;

	memset(x, 0, sizeof(*x));
	e = repo_email_get(c->app->db, &c->app->arena, id, want, true, &x->em);
	if (e != 0 && query)
		return (e = api_asset_found(r, e)) == 0 ? 1 : e;
	if (e != 0)
		return api_emails_ctx_err(c, r, id, e, NULL);
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
	e = compose_template(c->app->db, &c->app->arena, x->em.template_id,
	    &x->tpl, &x->o, &x->doc);
	if (e == -REPO_ERR_INTERNAL) {
		json_object_put(x->content);
		x->content = NULL;
		return -API_ERR_SYSTEM;
	}
	if (e != 0)
		return err_from_repo(e);
	x->has_tpl = true;
	if (readonly)
		parsed_keep(x);
	return 0;
}

/* See api_emails_ctx.h. */
int
api_emails_ctx_load(struct call *c, struct resp *r, int32_t id,
    enum asset_status want, bool query, struct email_ctx *x)
{
	return ctx_read(c, r, id, want, query, false, x);
}

/* See api_emails_ctx.h. */
int
api_emails_ctx_query(struct call *c, struct resp *r, struct email_ctx *x)
{
	static const struct vparam params[] = {
		API_ASSET_P_STATUS,
	};
	struct vvalue pv[1];
	int e;

	memset(x, 0, sizeof(*x));
	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	e = ctx_read(c, r, api_emails_ctx_id(c),
	    api_asset_status(&pv[0]), true, true, x);
	if (e != 0)
		api_emails_ctx_clear(x);
	return e;
}

/* See api_emails_ctx.h. */
int
api_emails_ctx_apply(void *arg, struct repo_email_draft *d, char *msg)
{
	struct email_edit *ed = arg;
	struct json_object *doc;
	char *text;
	size_t h;

	(void)msg;
	for (h = 0; h < EMAIL_HDR__MAX; h++)
		if (ed->hdr[h].type != NULL)
			d->hdr[h] = ed->hdr[h];
	if (ed->open_tracking_disabled >= 0)
		d->open_tracking_disabled = ed->open_tracking_disabled != 0;
	if (ed->reset) {
		d->content = "";
		d->content_len = 0;
		return 0;
	}
	if (ed->section == NULL && ed->var_name == NULL &&
	    ed->modules == NULL && ed->full_html == NULL && !ed->set_text)
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
		email_doc_set_html(doc, ed->full_html);
	if (ed->set_text)
		email_doc_set_text(doc, ed->text);
	if (ed->modules != NULL) {
		struct json_object *mods = email_doc_modules(doc, ed->o);

		if (ed->modules(ed, doc, &mods, msg) != 0) {
			json_object_put(mods);
			json_object_put(doc);
			return -1;
		}
		email_doc_set_modules(doc, mods);
	}
	text = email_doc_text_of(doc);
	d->content = text != NULL ? arena_strdup(&ed->c->app->arena, text) :
	    NULL;
	d->content_len = d->content != NULL ? strlen(d->content) : 0;
	free(text);
	json_object_put(doc);
	return d->content != NULL ? 0 : -1;
}

/* See api_emails_ctx.h. */
int
api_emails_ctx_edit(struct call *c, struct resp *r, int32_t id,
    struct email_edit *ed, bool answer_id)
{
	char msg[REPO_EMAIL_MSG_BYTES];
	int e;

	ed->c = c;
	e = repo_email_edit(c->app->db, id, api_emails_ctx_apply, ed, msg);
	if (e == -REPO_ERR_INVALID && ed->code != 0 && msg[0] != '\0')
		return api_common_fail(c, r, ed->code, "%s", msg);
	if (e != 0)
		return api_emails_ctx_err(c, r, id, e, msg);
	if (answer_id)
		api_asset_id_result(r, id);
	return 0;
}


/* See api_emails_ctx.h. */
struct buf *
api_emails_ctx_kept_text(const struct email_ctx *x, size_t i)
{
	struct parsed_tpl *p = x->slot;
	size_t k;

	if (p == NULL || i >= x->o.nsections)
		return NULL;
	if (p->text_json == NULL) {
		p->text_json = xcalloc(x->o.nsections, sizeof(*p->text_json));
		for (k = 0; k < x->o.nsections; k++)
			buf_init(&p->text_json[k], MAX_RESPONSE_BYTES);
	}
	return &p->text_json[i];
}
