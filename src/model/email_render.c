/*
 * Rendering an email version (email_render.h).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <json-c/json.h>

#include "model/email.h"
#include "model/email_render.h"
#include "model/html.h"
#include "model/leadfield.h"
#include "model/template.h"

struct find_img {
	const struct html_elem	*found;
};

/* html_each: the first <img> inside f->found. */
static int
find_img_fn(void *ctx, const struct html_elem *e)
{
	struct find_img *f = ctx;
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

/* See email_render.h. */
const struct html_elem *
email_render_img(const struct html_doc *d, const struct html_elem *e)
{
	struct find_img f = { e };

	if (strcmp(html_elem_name(e), "img") == 0)
		return e;
	if (html_each(d, find_img_fn, &f) == 0)
		return NULL;
	return f.found;
}

/* Section s of the template's document as the version sets it. */
static void
render_section(const struct email_render_src *src,
    const struct tpl_section *s)
{
	const struct html_elem *e = html_elem_by_id(src->doc, s->id), *img;
	struct json_object *stored = email_doc_section(src->content, s->id);
	struct json_object *segs, *def;
	const char *type = email_doc_str(stored, "type", NULL), *v;
	size_t k;
	static const char *const attrs[][2] = { { "value", "src" },
	    { "altText", "alt" }, { "width", "width" },
	    { "height", "height" }, { "style", "style" } };

	if (e == NULL || type == NULL)
		return;
	if (strcmp(type, "Text") == 0) {
		v = email_doc_str(stored, "html", "");
		(void)html_set_inner(src->doc, e, v, strlen(v));
	} else if (strcmp(type, "DynamicContent") == 0 &&
	    json_object_object_get_ex(stored, "segments", &segs) &&
	    json_object_object_get_ex(segs, "Default", &def)) {
		v = email_doc_str(def, "content", "");
		(void)html_set_inner(src->doc, e, v, strlen(v));
	} else if (strcmp(type, "Snippet") == 0 && src->snippet != NULL &&
	    (v = src->snippet(email_doc_ref(stored, "snippet"),
	    src->snippet_arg)) != NULL)
		(void)html_set_inner(src->doc, e, v, strlen(v));
	else if (strcmp(type, "Image") == 0 &&
	    (img = email_render_img(src->doc, e)) != NULL)
		for (k = 0; k < sizeof(attrs) / sizeof(attrs[0]); k++)
			if ((v = email_doc_str(stored, attrs[k][0], NULL)) !=
			    NULL)
				html_set_attr(src->doc, img, attrs[k][1], v);
}

/* Replaces ${id} with value in root (NULL: all of d). */
static void
replace_var(struct html_doc *d, const struct html_elem *root, const char *id,
    const char *value)
{
	size_t n = strlen(id) + 4;
	char *needle = malloc(n);

	if (needle == NULL)
		return;
	(void)snprintf(needle, n, "${%s}", id);
	html_replace_text(d, root, needle, value);
	free(needle);
}

/* The module instances of the version in place of the template's. */
static void
render_modules(const struct email_render_src *src)
{
	const struct tpl_outline *o = src->o;
	struct json_object *mods = email_doc_modules(src->content, o), *id;
	const struct html_elem **elems, *parent = NULL, *copy;
	size_t k, i, v, n = json_object_array_length(mods);
	long t;

	elems = calloc(o->nmodules + 1, sizeof(*elems));
	for (k = 0; elems != NULL && k < o->nmodules; k++)
		if ((elems[k] = html_elem_by_id(src->doc,
		    o->modules[k].id)) != NULL && parent == NULL)
			parent = html_elem_parent(elems[k]);
	for (i = 0; parent != NULL && i < n; i++) {
		t = email_modules_template(mods, i, o);
		if (t < 0 || elems[t] == NULL ||
		    !json_object_object_get_ex(json_object_array_get_idx(mods,
		    i), "id", &id) || (copy = html_append_copy(src->doc,
		    parent, elems[t])) == NULL)
			continue;
		html_set_attr(src->doc, copy, "id", json_object_get_string(id));
		for (v = 0; v < o->nvariables; v++)
			if (o->variables[v].module_scope &&
			    email_module_uses(&o->modules[t], v))
				replace_var(src->doc, copy, o->variables[v].id,
				    email_variable_value(src->content, o, v,
				    json_object_get_string(id)));
	}
	for (k = 0; parent != NULL && k < o->nmodules; k++)
		if (elems[k] != NULL)
			html_remove(src->doc, elems[k]);
	free(elems);
	json_object_put(mods);
}

/* See email_render.h. */
char *
email_render(const struct email_render_src *src, size_t *len)
{
	const struct tpl_outline *o = src->o;
	const char *html;
	size_t i;

	*len = 0;
	if (o == NULL || src->doc == NULL) {
		html = email_doc_html(src->content);
		*len = strlen(html);
		return strdup(html);
	}
	for (i = 0; i < o->nsections; i++)
		render_section(src, &o->sections[i]);
	if (o->container_id != NULL)
		render_modules(src);
	for (i = 0; i < o->nvariables; i++)
		if (!o->variables[i].module_scope)
			replace_var(src->doc, NULL, o->variables[i].id,
			    email_variable_value(src->content, o, i, NULL));
	return html_serialize(src->doc, len);
}

/* html_each: the first element, the root. */
static int
first_elem_fn(void *ctx, const struct html_elem *e)
{
	*(const struct html_elem **)ctx = e;
	return 1;
}

/* See email_render.h. */
char *
email_render_text(const char *html, size_t len)
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

struct fill {
	email_token_fn	 value;
	void		*arg;
};

/* html_text_fn: one text with its lead tokens filled. */
static char *
fill_text(const char *text, void *arg)
{
	const struct fill *f = arg;

	return email_fill_tokens(text, f->value, f->arg);
}

/* See email_render.h. */
char *
email_render_fill(char *html, size_t *len, email_token_fn value, void *arg)
{
	struct fill f = { value, arg };
	struct html_doc *d;
	char *out;

	if ((d = html_parse(html, *len, NULL, 0)) == NULL)
		return html;	/* no element: nothing to fill */
	html_map_text(d, NULL, fill_text, &f);
	out = html_serialize(d, len);
	html_free(d);
	free(html);
	return out;
}

/* See email_render.h. */
const char *
email_render_lead_value(const char *name, void *arg, bool *known)
{
	const struct email_lead *t = arg;
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
