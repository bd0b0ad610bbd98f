/*
 * The content of one version of an email (docs/assets.md "Emails"): what
 * its editable sections hold and what its variables are set to, over the
 * defaults of the template it is made from.  Kept as a JSON document in
 * email_version.content:
 *   {"sections": {"<htmlId>": <section>, ...},
 *    "variables": {"<name>" or "<moduleId>:<name>": "<value>", ...},
 *    "modules": [{"id":"<moduleId>","module":"<template module id>"}, ...]}
 * where a section is {"type":"Text","html":..,"text":..},
 * {"type":"DynamicContent","segmentation":N,"segments":{"<name>":
 * {"type":"HTML","content":..}}}, {"type":"Snippet","snippet":N} or
 * {"type":"Image", ...the image parameters...}; modules are the module
 * instances of the email's container in order, each made from a module
 * of the template (absent: the template's modules that are added by
 * default, each under its own id).  An empty document (the empty string)
 * means every default.  Pure code.
 */
#ifndef MAUTO_MODEL_EMAIL_H
#define MAUTO_MODEL_EMAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_object;
struct tpl_module;
struct tpl_outline;

/*
 * The document text (len bytes; "" for none) as an object with its two
 * members, or NULL when it is not such a document.
 */
struct json_object	*email_doc_parse(const char *text, size_t len);

/* The section htmlId holds, or NULL when it shows the template's. */
struct json_object	*email_doc_section(struct json_object *doc,
			    const char *html_id);
/* Sets the section htmlId holds (taking the reference to s). */
void			 email_doc_set_section(struct json_object *doc,
			    const char *html_id, struct json_object *s);

/*
 * The value variable name has (module: the module's id for a
 * module-scoped variable, else NULL), or NULL when it has its default.
 */
const char	*email_doc_variable(struct json_object *doc, const char *name,
		    const char *module);
void		 email_doc_set_variable(struct json_object *doc,
		    const char *name, const char *module, const char *value);

/*
 * The module instances of doc, in order: an array of {"id","module"}
 * (a new reference; the template's defaults from o when doc has none).
 */
struct json_object	*email_doc_modules(struct json_object *doc,
			    const struct tpl_outline *o);
/* Sets the module instances (taking the reference to mods). */
void			 email_doc_set_modules(struct json_object *doc,
			    struct json_object *mods);

/*
 * The sections of the document (model/email.h's layout).  A section's
 * type ("Text", "DynamicContent", "Snippet", "Image", "Video"), or NULL
 * (s NULL: the template's).  A new section of type (one reference,
 * the caller's); a string member name set on it (value borrowed and
 * copied); an id kept as the string member name ("segmentation",
 * "snippet").  The string members a Text section has are "html" and
 * "text", an image's its parameters ("value", "altText", ...), named
 * by the macros below where a handler sets or reads them.
 */
#define EMAIL_SEC_HTML		"html"
#define EMAIL_SEC_TEXT		"text"
#define EMAIL_SEC_SNIPPET	"snippet"
#define EMAIL_SEC_SEGMENTATION	"segmentation"
#define EMAIL_SEC_IMAGE_URL	"value"
const char	*email_section_type(struct json_object *s);
struct json_object *email_section_new(const char *type);
void		 email_section_set(struct json_object *s, const char *name,
		    const char *value);
void		 email_section_set_ref(struct json_object *s,
		    const char *name, int32_t id);

/*
 * The segment named name of a dynamic section s (NULL when it has
 * none), its type ("HTML" when not set) and content (dflt when not
 * set); setting one (type and content copied).
 */
struct json_object *email_section_segment(struct json_object *s,
		    const char *name);
const char	*email_segment_type(struct json_object *seg);
const char	*email_segment_content(struct json_object *seg,
		    const char *dflt);
void		 email_section_set_segment(struct json_object *s,
		    const char *name, const char *type, const char *content);

/*
 * The id of instance i of mods, and the template module it is made
 * from; NULL when it has none (borrowed from mods).
 */
const char	*email_module_id(struct json_object *mods, size_t i);
const char	*email_module_of(struct json_object *mods, size_t i);
/* Gives instance i of mods the id id. */
void		 email_module_set_id(struct json_object *mods, size_t i,
		    const char *id);
/*
 * mods with m inserted at index at (appended when past the end): a new
 * array; the reference to mods is dropped and the one to m taken.
 */
struct json_object *email_modules_insert(struct json_object *mods,
		    size_t at, struct json_object *m);
/*
 * The id of a new instance: name when given, else base when no instance
 * has it, else base-N for the least N from 2 that none has.  A made id
 * is written to buf (bytes long); NULL when it does not fit.
 */
const char	*email_modules_new_id(struct json_object *mods,
		    const char *name, const char *base, char *buf,
		    size_t bytes);
/* Moves the module-scoped values of instance from to instance to. */
void		 email_doc_move_module_values(struct json_object *doc,
		    const char *from, const char *to);

/* The index of instance id in mods, or -1. */
long	email_modules_find(struct json_object *mods, const char *id);

/* The template module index of instance i of mods in o, or -1. */
long	email_modules_template(struct json_object *mods, size_t i,
	    const struct tpl_outline *o);

/* A new {"id","module"} instance. */
struct json_object	*email_module_new(const char *id, const char *module);

/*
 * A string member name of o (a section, a segment, a document; NULL
 * gives dflt), or dflt when o has none; borrowed from o.
 */
const char	*email_doc_str(struct json_object *o, const char *name,
		    const char *dflt);
/*
 * An id kept as a string member name of o (a section's segmentation or
 * snippet), or 0 when it has none that is an id.
 */
int32_t		 email_doc_ref(struct json_object *o, const char *name);

/*
 * The HTML of an email not linked to a template ("" when none), and the
 * text it was given (NULL when none: the HTML's text is shown).
 */
const char	*email_doc_html(struct json_object *doc);
const char	*email_doc_text(struct json_object *doc);
/* Sets the HTML, and the text (NULL: dropped; the HTML's text shows). */
void	email_doc_set_html(struct json_object *doc, const char *html);
void	email_doc_set_text(struct json_object *doc, const char *text);

/*
 * The document as the text kept in email_version.content: a heap string
 * (free() it), or NULL.
 */
char		*email_doc_text_of(struct json_object *doc);

/* Whether module m of an outline uses module-scoped variable v. */
bool		 email_module_uses(const struct tpl_module *m, size_t v);
/*
 * The value variable v of outline o has in doc for module instance
 * module (NULL: the global value): the value set, else the default.
 */
const char	*email_variable_value(struct json_object *doc,
		    const struct tpl_outline *o, size_t v, const char *module);

/*
 * The value of the lead field named name (its display name or REST name,
 * any letter case) for a lead token: *known false when there is no such
 * field; the value (NULL or "" when empty, or when no lead is given).
 */
typedef const char	*(*email_token_fn)(const char *name, void *arg,
			    bool *known);
/*
 * s with its lead tokens filled: {{lead.<field>}} becomes the field's
 * value, {{lead.<field>:default=<text>}} the value or, when it is empty,
 * the text; a token naming no field stays as it is.  A heap string, or
 * NULL when s has no token to fill (or the result would pass
 * EMAIL_TOKEN_OUT_BYTES).
 */
#define EMAIL_TOKEN_OUT_BYTES	(16 * 1024 * 1024)
char	*email_fill_tokens(const char *s, email_token_fn value, void *arg);

/*
 * s with its My Tokens filled as email_fill_tokens fills lead tokens:
 * {{my.<name>}} becomes value's text for name (a rich text token's HTML
 * as it is), a name value does not know stays as it is.  A heap string,
 * or NULL when s has no token to fill.
 */
char	*email_fill_my_tokens(const char *s, email_token_fn value, void *arg);

#endif
