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

struct json_object;
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

/* The index of instance id in mods, or -1. */
long	email_modules_find(struct json_object *mods, const char *id);

/* The template module index of instance i of mods in o, or -1. */
long	email_modules_template(struct json_object *mods, size_t i,
	    const struct tpl_outline *o);

/* A new {"id","module"} instance. */
struct json_object	*email_module_new(const char *id, const char *module);

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

#endif
