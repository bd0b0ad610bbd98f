/*
 * Email templates (docs/assets.md): what a template in the email template
 * syntax declares, parsed once with model/html.h into the outline the
 * email operations expose (editable sections, the container and its
 * modules, variables), and the checks that refuse an invalid template.
 * The rules and choices are at the top of template.c.  Pure code.
 */
#ifndef MAUTO_MODEL_TEMPLATE_H
#define MAUTO_MODEL_TEMPLATE_H

#include <stdbool.h>
#include <stddef.h>

struct html_doc;

/* An editable section's kind, as Get Email Content names it. */
enum tpl_section_kind {
	TPL_SEC_TEXT,		/* mktEditable, mktoText: "Text" */
	TPL_SEC_IMAGE,		/* mktoImg: "Image" */
	TPL_SEC_SNIPPET,	/* mktoSnippet: "Snippet" */
	TPL_SEC_VIDEO,		/* mktoVideo: "Video" */
	TPL_SEC__MAX
};

/* A variable's type, by its class (mktoString, ...). */
enum tpl_var_type {
	TPL_VAR_STRING,
	TPL_VAR_COLOR,
	TPL_VAR_BOOLEAN,
	TPL_VAR_NUMBER,
	TPL_VAR_LIST,
	TPL_VAR_HTML,
	TPL_VAR_IMAGE,		/* <meta class="mktoImg">: an image URL */
	TPL_VAR__MAX
};

/* An editable section: strings owned by the outline. */
struct tpl_section {
	char			*id;
	char			*name;		/* mktoName, or the id */
	const char		*cls;		/* the class word (static) */
	enum tpl_section_kind	 kind;
	long			 module;	/* index in modules, or -1 */
};

/* A module of the container. */
struct tpl_module {
	char			*id;
	char			*name;
	bool			 active;	/* mktoActive */
	bool			 add_by_default; /* mktoAddByDefault */
	size_t			*vars;		/* module-scoped variables it uses */
	size_t			 nvars;		/* (indexes in variables) */
};

/* A variable declared in <head>. */
struct tpl_variable {
	char			*id;
	char			*name;
	enum tpl_var_type	 type;
	char			*value;		/* the default, by the type's rule */
	bool			 module_scope;	/* mktoModuleScope */
	char			*values;	/* a list's values, else NULL */
	char			*min;		/* a number's bounds, or NULL */
	char			*max;
	char			*units;		/* a number's units, or NULL */
	char			*true_value;	/* a boolean's output when on */
	char			*false_value;	/* and when off (else NULL) */
};

/* What a template declares, in document order. */
struct tpl_outline {
	struct tpl_section	*sections;
	size_t			 nsections;
	struct tpl_module	*modules;
	size_t			 nmodules;
	struct tpl_variable	*variables;
	size_t			 nvariables;
	char			*container_id;	/* NULL when none */
	char			*container_tag;
};

/* The longest message tpl_parse writes, with its terminator. */
#define TPL_MSG_BYTES		256

/*
 * Parses the template html (len bytes) and checks it.  Returns 0 with
 * *out filled (the caller clears it with tpl_outline_clear; out may be
 * NULL to check only), or -1 with the reason in msg (TPL_MSG_BYTES, the
 * text the service answers with 709) and *out empty.
 */
int	tpl_parse(const char *html, size_t len, struct tpl_outline *out,
	    char *msg);
/*
 * tpl_parse that also hands over the parsed document in *doc (the
 * caller's to html_free) when it returns 0, so that the template is not
 * parsed twice; *doc is NULL otherwise.
 */
int	tpl_parse_doc(const char *html, size_t len, struct tpl_outline *out,
	    char *msg, struct html_doc **doc);
void	tpl_outline_clear(struct tpl_outline *o);

/*
 * Checks a snippet's HTML (len bytes): it parses as HTML within the
 * bounds and holds no <script>.  The email template syntax does not
 * apply in snippets and is not looked for.  0, or -1 with the reason in
 * msg (TPL_MSG_BYTES).
 */
int	tpl_check_snippet(const char *html, size_t len, char *msg);

/*
 * The syntax's value rules, shared with the landing page templates
 * (lptemplate.c): an id of letters, digits, '-' and '_'; a color '#'
 * and six hex digits; true or false in any letter case.
 */
bool	tpl_is_valid_id(const char *s);
bool	tpl_is_color(const char *s);
bool	tpl_is_bool_word(const char *s);

/* An id declared, and its place among the declarations. */
struct tpl_decl {
	const char	*id;
	size_t		 order;
};

/*
 * Of the ids decls declares (count of them, sorted in place), the one
 * whose second use comes first, or NULL when all are distinct.
 */
const char	*tpl_first_duplicate(struct tpl_decl *decls, size_t count);

/* "Text", "Image", "Snippet", "Video". */
const char	*tpl_section_kind_name(enum tpl_section_kind k);
/* "string", "color", "boolean", "number", "list", "html", "image". */
const char	*tpl_var_type_name(enum tpl_var_type t);

/*
 * Whether value is one variable v may take (what its default must be,
 * and what Update Email Variable may set): a color '#' and six hex
 * digits, a boolean true or false, a number within min and max, a list
 * value among its values; strings, HTML and images take anything.
 */
bool	tpl_var_value_ok(const struct tpl_variable *v, const char *value);

#endif
