/*
 * An email version rendered for one lead (compose.h).  Snippets are read
 * as the render asks for them, into the caller's arena; nothing is kept
 * between renders: a worker's kept template parses stay the business of
 * the handlers that keep them (api/api_emails_ctx.c).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mail/compose.h"
#include "model/email.h"
#include "model/email_render.h"
#include "model/html.h"
#include "model/leadfield.h"
#include "model/template.h"
#include "model/token.h"
#include "repo/repo.h"
#include "repo/repo_email_templates.h"
#include "repo/repo_emails.h"
#include "repo/repo_leads.h"
#include "repo/repo_snippets.h"
#include "repo/repo_tokens.h"
#include "util/arena.h"

/* What the snippet callback reads through. */
struct snippet_src {
	struct db	*db;
	struct arena	*a;
};

/* email_snippet_fn over the snippet store: the snippet's HTML. */
static const char *
snippet_html(int32_t id, void *arg)
{
	struct snippet_src *s = arg;
	struct repo_snippet sn;

	if (id == 0 || repo_snippet_get(s->db, s->a, id, &sn) != 0)
		return NULL;
	return sn.content;
}

/* See compose.h. */
const char *
compose_my_value(const char *name, void *arg, bool *known)
{
	const struct compose_tokens *tk = arg;
	char want[TOKEN_NAME_CHARS * 4 + 1];
	size_t i;

	*known = tk->unknown_blank;
	for (i = 0; i < tk->n; i++)
		if (tk->names[i] != NULL && token_name_normalize(tk->names[i],
		    want, sizeof(want)) == 0 && strcmp(want, name) == 0) {
			*known = true;
			return tk->values[i];
		}
	for (i = 0; i < tk->nmy; i++)
		if (strcmp(tk->my[i].name, name) == 0) {
			*known = true;
			return tk->my[i].value;
		}
	return NULL;
}

/* See compose.h. */
char *
compose_fill(const char *s, const struct compose_tokens *tk)
{
	char *my, *lead;

	my = email_fill_my_tokens(s, compose_my_value, (void *)tk);
	if (tk->lead == NULL)
		return my;
	lead = email_fill_tokens(my != NULL ? my : s,
	    email_render_lead_value, (void *)tk->lead);
	if (lead == NULL)
		return my;
	free(my);
	return lead;
}

/* See compose.h. */
int
compose_template(struct db *db, struct arena *a, int32_t id,
    struct repo_etpl *tpl, struct tpl_outline *o, struct html_doc **doc)
{
	char msg[TPL_MSG_BYTES];
	int e;

	*doc = NULL;
	if ((e = repo_etpl_get_used(db, a, id, tpl)) != 0)
		return e;
	if (tpl_parse_doc(tpl->content, tpl->content_len, o, msg, doc) != 0)
		return -REPO_ERR_INTERNAL;
	return 0;
}

/* See compose.h. */
char *
compose_render(struct db *db, struct arena *a, const struct tpl_outline *o,
    struct html_doc *doc, struct json_object *content,
    const struct compose_tokens *tk, size_t *len)
{
	struct email_render_src src;
	struct snippet_src sn = { db, a };
	char *html, *my;

	memset(&src, 0, sizeof(src));
	src.o = o;
	src.doc = doc;
	src.content = content;
	src.snippet = snippet_html;
	src.snippet_arg = &sn;
	if ((html = email_render(&src, len)) == NULL || tk == NULL)
		return html;
	if ((my = email_fill_my_tokens(html, compose_my_value,
	    (void *)tk)) != NULL) {
		free(html);
		html = my;
		*len = strlen(html);
	}
	if (tk->lead != NULL)
		html = email_render_fill(html, len, email_render_lead_value,
		    (void *)tk->lead);
	return html;
}

/* See compose.h. */
int
compose_lead(struct db *db, struct arena *a, const struct lead_schema *s,
    int64_t id, struct email_lead *t)
{
	const struct lead_field **cols;
	struct lead_rows rows;
	size_t i;
	int e;

	memset(t, 0, sizeof(*t));
	t->s = s;
	if (id == 0)
		return 0;
	if ((cols = arena_zalloc(a, (s->count + 1) * sizeof(*cols))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < s->count; i++)
		cols[i] = &s->fields[i];
	if ((e = repo_leads_get_by_id(db, a,
	    (const struct lead_field *const *)cols, s->count, id,
	    &rows)) != 0)
		return e;
	if (rows.count == 0)
		return -REPO_ERR_NOT_FOUND;
	t->vals = rows.rows[0].vals;
	return 0;
}

/* See compose.h. */
const char *
compose_header(const struct repo_email *e, enum repo_email_hdr h)
{
	const struct repo_email_header *v = &e->hdr[h];

	if (v->value == NULL || v->value[0] == '\0' ||
	    (v->type != NULL && strcmp(v->type, "Text") != 0))
		return NULL;
	return v->value;
}

/* See compose.h. */
void
compose_headers(const struct repo_email *e, const struct compose_tokens *tk,
    struct mail_message *m, char *own[2])
{
	m->from = compose_header(e, EMAIL_HDR_FROM_EMAIL);
	m->from_name = compose_header(e, EMAIL_HDR_FROM_NAME);
	m->reply_to = compose_header(e, EMAIL_HDR_REPLY_EMAIL);
	m->subject = compose_header(e, EMAIL_HDR_SUBJECT);
	/* The headers people write tokens in are filled as the body is. */
	if ((own[0] = compose_fill(m->subject, tk)) != NULL)
		m->subject = own[0];
	if ((own[1] = compose_fill(m->from_name, tk)) != NULL)
		m->from_name = own[1];
}
