/*
 * Rendering an email version (docs/assets.md "Emails"): the template's
 * HTML with what the content document (model/email.h) sets, the module
 * instances in place of the template's modules, ${variable} references
 * replaced; its text; lead tokens filled for one lead.  What Get Email
 * Full Content answers and Send Sample Email sends, and what a campaign
 * renders for a lead without a request.  Pure code over model/html.h:
 * the one thing it cannot know, a snippet's HTML, comes from the caller.
 */
#ifndef MAUTO_MODEL_EMAIL_RENDER_H
#define MAUTO_MODEL_EMAIL_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/email.h"

struct html_doc;
struct html_elem;
struct json_object;
struct lead_schema;
struct tpl_outline;

/*
 * The HTML of snippet id (borrowed until the render returns), or NULL
 * when there is no such snippet (the section keeps the template's).
 */
typedef const char	*(*email_snippet_fn)(int32_t id, void *arg);

/* What one render reads. */
struct email_render_src {
	const struct tpl_outline *o;	/* NULL: no template */
	struct html_doc		*doc;	/* the template's; changed */
	struct json_object	*content;	/* the content document */
	email_snippet_fn	 snippet;
	void			*snippet_arg;
};

/*
 * The HTML of the version src describes: the template's document with
 * each section set (Text HTML, a dynamic section's Default segment, a
 * snippet's HTML, an image's attributes), the module instances in order
 * in place of the template's modules (each a copy of its module's
 * element with the instance's id and its module-scoped values), and the
 * global variables' values; for an email not linked to a template, the
 * HTML it was given.  src->doc is changed.  A heap string (free() it;
 * *len its length), or NULL when it cannot be made.
 */
char	*email_render(const struct email_render_src *src, size_t *len);

/* The text of html (len bytes): its characters without markup; free(). */
char	*email_render_text(const char *html, size_t len);

/*
 * html (*len bytes, a heap string whose ownership moves here) with its
 * lead tokens filled through value (email_fill_tokens), in the parsed
 * text and attribute values.  The new HTML (free() it; *len set), or
 * NULL when it cannot be written back.
 */
char	*email_render_fill(char *html, size_t *len, email_token_fn value,
	    void *arg);

/* The values lead tokens take: one lead's, or none (vals NULL). */
struct email_lead {
	const struct lead_schema	*s;
	const char			**vals;	/* by s->fields; NULL: no lead */
};

/*
 * An email_token_fn over a struct email_lead (arg): the field named by
 * its display name or REST name, any letter case; its value, NULL when
 * the lead has none or there is no lead.
 */
const char	*email_render_lead_value(const char *name, void *arg,
		    bool *known);

/* The <img> image section e of d is, or holds; NULL when none. */
const struct html_elem *email_render_img(const struct html_doc *d,
	    const struct html_elem *e);

#endif
