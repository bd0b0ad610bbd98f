/*
 * The content of one version of an email (docs/assets.md "Emails"): what
 * its editable sections hold and what its variables are set to, over the
 * defaults of the template it is made from.  Kept as a JSON document in
 * email_version.content:
 *   {"sections": {"<htmlId>": <section>, ...},
 *    "variables": {"<name>" or "<moduleId>:<name>": "<value>", ...}}
 * where a section is {"type":"Text","html":..,"text":..},
 * {"type":"DynamicContent","segmentation":N,"segments":{"<name>":
 * {"type":"HTML","content":..}}}, {"type":"Snippet","snippet":N} or
 * {"type":"Image", ...the image parameters...}.  An empty document (the
 * empty string) means every default.  Pure code.
 */
#ifndef MAUTO_MODEL_EMAIL_H
#define MAUTO_MODEL_EMAIL_H

#include <stddef.h>

struct json_object;

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

#endif
