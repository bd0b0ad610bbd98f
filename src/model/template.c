/*
 * Email templates: parsing and checking (template.h).
 *
 * The syntax is the product documentation's "Email Template Syntax"
 * (Email Editor 2.0), read on the tree libxml2 builds (model/html.c),
 * never by searching the HTML text.  The REST guide's Email Templates
 * page adds that a template's HTML must be valid and hold at least one
 * editable section.  The documentation states no error texts: the
 * messages are ours, in the form of the service's 709 messages (the
 * landing page template checks of lptemplate.c use the same forms).
 * Checks run in the order listed; the first failure is reported, and
 * among elements the first in document order.
 *
 * What the documentation says, and is checked:
 *   - Class words are case-sensitive (mktoText, not mktotext); attribute
 *     names are not (mktoName, mktoname).
 *   - Editable sections ("elements"): rich text is class mktEditable
 *     (legacy: mktoName optional, the id is the display name) or
 *     mktoText; images mktoImg (on a <div> or an <img>); snippets
 *     mktoSnippet; videos mktoVideo.  Each has an id of letters, digits,
 *     '-' and '_', unique, and (but mktEditable) a mktoName.
 *   - Variables are <meta> elements in <head> of class mktoString,
 *     mktoList, mktoNumber, mktoColor, mktoBoolean, mktoHTML or mktoImg
 *     (an image variable), each with an id and a mktoName.  A list needs
 *     values (comma-separated, at least one); a number needs a default;
 *     a color's default is six hex digits after '#'; a boolean's default
 *     is true or false.  mktoModuleScope (true or false, default false)
 *     makes a variable local to each module that uses it: a duplicated
 *     module gets its own value.
 *   - Modules are in the container ("you can only put a module in a
 *     container"): a <tr> with class mktoModule in a container that is
 *     a <table>, <tbody>, <thead> or <tfoot>, a <table> in a container
 *     that is a <td>.  Each has an id and a mktoName; mktoActive and
 *     mktoAddByDefault are booleans (default true).
 *   - The container is a <table>, <tbody>, <thead>, <tfoot> or <td> with
 *     class mktoContainer and an id; it holds only modules, and a
 *     template has at most one.
 *
 * Decided where the documentation is silent:
 *   - Size: up to HTML_MAX_BYTES (8 MiB, so templates of 5 MB are read),
 *     elements nested up to HTML_MAX_DEPTH (256).  Tag soup
 *     is repaired as browsers do; the template needs a <body>.
 *   - A NUL byte anywhere is refused: libxml2 stops reading at it, so
 *     what follows would be stored without being checked.
 *   - <script>: an email cannot run scripts, and the service refuses
 *     JavaScript in an email's full content (docs/behaviour.md §8.3), so
 *     a template holding a <script> element, anywhere and in any letter
 *     case, is refused.  Text that only spells "<script>" (escaped, in a
 *     comment, in an attribute value) is not a script and stays.
 *     libxml2 reads elements inside <textarea>, so a <script> there is
 *     refused too.  Event handler attributes and javascript: URLs are
 *     not looked for: email clients drop them, and the service's rule
 *     names <script>.
 *   - A template's HTML holds at least one editable section (the REST
 *     guide's rule); sections inside modules count.
 *   - An element with two of the classes that give a role (a section
 *     class, mktoModule, mktoContainer; a variable class on a <meta>)
 *     is refused: it cannot be two things.  mktoImg on a <meta> is the
 *     image variable, elsewhere the image section.  Variable classes on
 *     other elements, and the landing page classes (mktoForm, ...),
 *     declare nothing.
 *   - mktoName, where required, is not blank.  A mktEditable without one
 *     takes its id as its name.  The container's mktoName is optional.
 *   - A <table> container may hold its rows through <tbody>, <thead> or
 *     <tfoot> (browsers add a <tbody> to every table); nothing else may
 *     stand between the container and a module.  Only elements are
 *     looked at: text between modules is not an element and is allowed.
 *   - Variable values: booleans true or false in any letter case (kept
 *     in lower case); numbers as num_parse_double reads them, the
 *     default within min and max when given, min and max numbers; a
 *     list's default, when given, is one of its values (values are
 *     trimmed of white space, empty ones skipped); mktoModuleScope,
 *     allowHtml, mktoActive and mktoAddByDefault true or false.
 *     A variable's value (tpl_variable.value) is its default, else: a
 *     list's first value, a boolean's "false", "" for the others.
 *   - Ids are unique among sections, modules, variables and the
 *     container together (they share ${id} references and the htmlIds of
 *     the email operations); ids of other elements are the page's own.
 *   - A module uses a module-scoped variable when its text or attribute
 *     values name it as ${id}.  At most TPL_MAX_SCOPED module-scoped
 *     variables (each use is looked for in every module).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/html.h"
#include "model/template.h"
#include "util/num.h"
#include "util/xmalloc.h"

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))
/* The longest id and tag name a message quotes. */
#define ID_SHOWN	100
#define TAG_SHOWN	40
/* Module-scoped variables one template may declare. */
#define TPL_MAX_SCOPED	100
/* HTML's white space. */
#define SPACE		" \t\n\f\r"
/* libxml2 stops at a NUL byte: the rest would be stored unchecked. */
#define NUL_MSG		"HTML holds a NUL byte"

static const struct {
	const char		*cls;
	enum tpl_section_kind	 kind;
} section_classes[] = {
	{ "mktEditable", TPL_SEC_TEXT },
	{ "mktoText", TPL_SEC_TEXT },
	{ "mktoImg", TPL_SEC_IMAGE },
	{ "mktoSnippet", TPL_SEC_SNIPPET },
	{ "mktoVideo", TPL_SEC_VIDEO },
};

/* Indexed by enum tpl_var_type. */
static const char *const variable_classes[TPL_VAR__MAX] = {
	[TPL_VAR_STRING] = "mktoString",
	[TPL_VAR_COLOR] = "mktoColor",
	[TPL_VAR_BOOLEAN] = "mktoBoolean",
	[TPL_VAR_NUMBER] = "mktoNumber",
	[TPL_VAR_LIST] = "mktoList",
	[TPL_VAR_HTML] = "mktoHTML",
	[TPL_VAR_IMAGE] = "mktoImg",
};

static const char *const var_type_names[TPL_VAR__MAX] = {
	[TPL_VAR_STRING] = "string",
	[TPL_VAR_COLOR] = "color",
	[TPL_VAR_BOOLEAN] = "boolean",
	[TPL_VAR_NUMBER] = "number",
	[TPL_VAR_LIST] = "list",
	[TPL_VAR_HTML] = "html",
	[TPL_VAR_IMAGE] = "image",
};

static const char *const section_kind_names[TPL_SEC__MAX] = {
	[TPL_SEC_TEXT] = "Text",
	[TPL_SEC_IMAGE] = "Image",
	[TPL_SEC_SNIPPET] = "Snippet",
	[TPL_SEC_VIDEO] = "Video",
};

enum role {
	ROLE_NONE,
	ROLE_SECTION,
	ROLE_VARIABLE,
	ROLE_MODULE,
	ROLE_CONTAINER,
};

struct parse {
	char			*msg;
	struct tpl_outline	*o;
	const struct html_elem	*container;
	const struct html_elem	**module_elems;	/* parallel to o->modules */
	struct tpl_decl		*decls;
	size_t			 ndecls;
	size_t			 cap_decls;
	size_t			 cap_sections;
	size_t			 cap_modules;
	size_t			 cap_variables;
	size_t			 nscoped;
};

/* See template.h. */
const char *
tpl_section_kind_name(enum tpl_section_kind k)
{
	return (unsigned)k < TPL_SEC__MAX ? section_kind_names[k] : "?";
}

/* See template.h. */
const char *
tpl_var_type_name(enum tpl_var_type t)
{
	return (unsigned)t < TPL_VAR__MAX ? var_type_names[t] : "?";
}

static bool
has_other_than(const char *s, const char *skip)
{
	return s[strspn(s, skip)] != '\0';
}

/* See template.h. */
bool
tpl_is_valid_id(const char *s)
{
	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || *s == '-' || *s == '_'))
			return false;
	return true;
}

/* See template.h. */
bool
tpl_is_color(const char *s)
{
	size_t i;

	if (s[0] != '#' || strlen(s) != 7)
		return false;
	for (i = 1; i < 7; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		    (s[i] >= 'a' && s[i] <= 'f') || (s[i] >= 'A' && s[i] <= 'F')))
			return false;
	return true;
}

/* See template.h. */
bool
tpl_is_bool_word(const char *s)
{
	return strcasecmp(s, "true") == 0 || strcasecmp(s, "false") == 0;
}

static bool
number_of(const char *s, double *v)
{
	return num_parse_double(s, strlen(s), v) == 0;
}

/*
 * Whether word is one of the comma-separated values of list (each
 * trimmed of white space); the first non-empty value goes to *first
 * (xstrndup, the caller's) when first is not NULL.  Returns the count.
 */
static size_t
list_values(const char *list, const char *word, bool *found, char **first)
{
	const char *p = list, *s, *e;
	size_t n = 0, wlen = word != NULL ? strlen(word) : 0;

	if (found != NULL)
		*found = false;
	if (first != NULL)
		*first = NULL;
	while (*p != '\0') {
		s = p + strspn(p, SPACE);
		e = strchr(s, ',');
		p = e != NULL ? e + 1 : s + strlen(s);
		if (e == NULL)
			e = s + strlen(s);
		while (e > s && strchr(SPACE, e[-1]) != NULL)
			e--;
		if (e == s)
			continue;
		n++;
		if (first != NULL && *first == NULL)
			*first = xstrndup(s, (size_t)(e - s));
		if (found != NULL && word != NULL && (size_t)(e - s) == wlen &&
		    memcmp(s, word, wlen) == 0)
			*found = true;
	}
	return n;
}

/* See template.h. */
bool
tpl_var_value_ok(const struct tpl_variable *v, const char *value)
{
	double x, bound;
	bool found;

	switch (v->type) {
	case TPL_VAR_COLOR:
		return tpl_is_color(value);
	case TPL_VAR_BOOLEAN:
		return tpl_is_bool_word(value);
	case TPL_VAR_NUMBER:
		if (!number_of(value, &x))
			return false;
		if (v->min != NULL && number_of(v->min, &bound) && x < bound)
			return false;
		if (v->max != NULL && number_of(v->max, &bound) && x > bound)
			return false;
		return true;
	case TPL_VAR_LIST:
		if (v->values == NULL)
			return false;
		(void)list_values(v->values, value, &found, NULL);
		return found;
	default:
		return true;
	}
}

static bool
is_in(const struct html_elem *e, const char *tag)
{
	while ((e = html_elem_parent(e)) != NULL)
		if (strcmp(html_elem_name(e), tag) == 0)
			return true;
	return false;
}

static bool
is_tag(const struct html_elem *e, const char *tag)
{
	return strcmp(html_elem_name(e), tag) == 0;
}

/* Whether e is the section (<tbody>, ...) of a <table> container. */
static bool
is_table_part(const struct html_elem *e, const struct html_elem *container)
{
	return container != NULL && is_tag(container, "table") &&
	    html_elem_parent(e) == container && (is_tag(e, "tbody") ||
	    is_tag(e, "thead") || is_tag(e, "tfoot"));
}

/*
 * The role of e in *role, with its class word in *cls and its kind or
 * type in *sub; 0, or -1 with the message when it has two.
 */
static int
role_of(const struct html_elem *e, enum role *role, const char **cls,
    int *sub, char *msg)
{
	bool meta = is_tag(e, "meta");
	size_t i;

	*role = ROLE_NONE;
	*cls = NULL;
	*sub = 0;
#define TAKE(r, c, s) do {						\
	if (*cls != NULL) {						\
		snprintf(msg, TPL_MSG_BYTES, "Element '%.*s' has two "	\
		    "template classes, '%s' and '%s'", TAG_SHOWN,	\
		    html_elem_name(e), *cls, (c));			\
		return -1;						\
	}								\
	*role = (r);							\
	*cls = (c);							\
	*sub = (int)(s);						\
} while (0)
	for (i = 0; i < NELEM(section_classes); i++)
		if (!(meta && section_classes[i].kind == TPL_SEC_IMAGE) &&
		    html_elem_has_class(e, section_classes[i].cls))
			TAKE(ROLE_SECTION, section_classes[i].cls,
			    section_classes[i].kind);
	for (i = 0; meta && i < TPL_VAR__MAX; i++)
		if (html_elem_has_class(e, variable_classes[i]))
			TAKE(ROLE_VARIABLE, variable_classes[i], i);
	if (html_elem_has_class(e, "mktoModule"))
		TAKE(ROLE_MODULE, "mktoModule", 0);
	if (html_elem_has_class(e, "mktoContainer"))
		TAKE(ROLE_CONTAINER, "mktoContainer", 0);
#undef TAKE
	return 0;
}

/* A boolean attribute: true or false in any case, dflt when absent. */
static int
bool_attr(const struct html_elem *e, const char *cls, const char *attr,
    bool dflt, bool *out, char *msg)
{
	const char *v = html_elem_attr(e, attr);

	*out = dflt;
	if (v == NULL)
		return 0;
	if (!tpl_is_bool_word(v)) {
		snprintf(msg, TPL_MSG_BYTES, "Element '%.*s' with class '%s' "
		    "has an invalid %s: true or false is required", TAG_SHOWN,
		    html_elem_name(e), cls, attr);
		return -1;
	}
	*out = strcasecmp(v, "true") == 0;
	return 0;
}

static void
bad_attr(char *msg, const char *cls, const char *attr, const char *want)
{
	snprintf(msg, TPL_MSG_BYTES, "Element 'meta' with class '%s' has an "
	    "invalid %s: %s", cls, attr, want);
}

static char *
dup_or_null(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

/* The variable of type t declared by e, checked, into v. */
static int
read_variable(const struct html_elem *e, enum tpl_var_type t,
    struct tpl_variable *v, char *msg)
{
	static const char *const number_attrs[] = { "default", "min", "max",
	    "step" };
	const char *cls = variable_classes[t], *d = html_elem_attr(e, "default");
	bool b;
	double x;
	size_t i;

	v->type = t;
	if (bool_attr(e, cls, "mktoModuleScope", false, &v->module_scope,
	    msg) != 0)
		return -1;
	switch (t) {
	case TPL_VAR_STRING:
		if (bool_attr(e, cls, "allowHtml", false, &b, msg) != 0)
			return -1;
		break;
	case TPL_VAR_COLOR:
		if (d != NULL && !tpl_is_color(d)) {
			bad_attr(msg, cls, "default",
			    "a color such as #336699 is required");
			return -1;
		}
		break;
	case TPL_VAR_BOOLEAN:
		if (bool_attr(e, cls, "default", false, &b, msg) != 0)
			return -1;
		v->value = xstrdup(b ? "true" : "false");
		v->true_value = dup_or_null(html_elem_attr(e, "true_value"));
		v->false_value = dup_or_null(html_elem_attr(e, "false_value"));
		break;
	case TPL_VAR_NUMBER:
		if (d == NULL) {
			snprintf(msg, TPL_MSG_BYTES, "Element 'meta' with "
			    "class '%s' is missing attribute 'default'", cls);
			return -1;
		}
		for (i = 0; i < NELEM(number_attrs); i++) {
			const char *a = html_elem_attr(e, number_attrs[i]);

			if (a != NULL && !number_of(a, &x)) {
				bad_attr(msg, cls, number_attrs[i],
				    "a number is required");
				return -1;
			}
		}
		v->min = dup_or_null(html_elem_attr(e, "min"));
		v->max = dup_or_null(html_elem_attr(e, "max"));
		v->units = dup_or_null(html_elem_attr(e, "units"));
		if (!tpl_var_value_ok(v, d)) {
			bad_attr(msg, cls, "default",
			    "a number between min and max is required");
			return -1;
		}
		break;
	case TPL_VAR_LIST:
		if ((d = html_elem_attr(e, "values")) == NULL) {
			snprintf(msg, TPL_MSG_BYTES, "Element 'meta' with "
			    "class '%s' is missing attribute 'values'", cls);
			return -1;
		}
		v->values = xstrdup(d);
		if (list_values(d, NULL, NULL, &v->value) == 0) {
			bad_attr(msg, cls, "values",
			    "at least one value is required");
			return -1;
		}
		if ((d = html_elem_attr(e, "default")) != NULL) {
			if (!tpl_var_value_ok(v, d)) {
				bad_attr(msg, cls, "default",
				    "one of its values is required");
				return -1;
			}
			free(v->value);
			v->value = xstrdup(d);
		}
		break;
	default:
		break;
	}
	if (v->value == NULL)
		v->value = xstrdup(d != NULL ? d : "");
	return 0;
}

static void
add_decl(struct parse *p, const char *id)
{
	if (p->ndecls == p->cap_decls) {
		p->cap_decls = p->cap_decls ? p->cap_decls * 2 : 32;
		p->decls = xrealloc(p->decls, p->cap_decls *
		    sizeof(*p->decls));
	}
	p->decls[p->ndecls].id = id;
	p->decls[p->ndecls].order = p->ndecls;
	p->ndecls++;
}

/* Grows array *arr of *cap items of size sz to hold one more than n. */
static void
grow(void **arr, size_t *cap, size_t n, size_t sz)
{
	if (n < *cap)
		return;
	*cap = *cap ? *cap * 2 : 8;
	*arr = xrealloc(*arr, *cap * sz);
}

/* The module index of the nearest module around e, or -1. */
static long
module_around(const struct parse *p, const struct html_elem *e)
{
	size_t i;

	while ((e = html_elem_parent(e)) != NULL) {
		if (!html_elem_has_class(e, "mktoModule"))
			continue;
		for (i = p->o->nmodules; i > 0; i--)
			if (p->module_elems[i - 1] == e)
				return (long)(i - 1);
		return -1;
	}
	return -1;
}

/* Checks the place and tag of module e against the container. */
static int
check_module_place(const struct parse *p, const struct html_elem *e,
    char *msg)
{
	const struct html_elem *up = html_elem_parent(e), *c = p->container;
	const char *want;

	if (c == NULL || up == NULL || (up != c && !is_table_part(up, c))) {
		snprintf(msg, TPL_MSG_BYTES, "Element '%.*s' with class "
		    "'mktoModule' is not inside the element with class "
		    "'mktoContainer'", TAG_SHOWN, html_elem_name(e));
		return -1;
	}
	want = is_tag(c, "td") ? "table" : "tr";
	if (!is_tag(e, want)) {
		snprintf(msg, TPL_MSG_BYTES, "Element '%.*s' with class "
		    "'mktoModule' must be a <%s> in a container <%s>",
		    TAG_SHOWN, html_elem_name(e), want, html_elem_name(c));
		return -1;
	}
	return 0;
}

/* Whether e stands directly in the container (or a <tbody> of it). */
static bool
is_container_child(const struct parse *p, const struct html_elem *e)
{
	const struct html_elem *up = html_elem_parent(e);

	return p->container != NULL && up != NULL && (up == p->container ||
	    is_table_part(up, p->container));
}

/* Every check of one element; what it declares goes to the outline. */
static int
visit(void *ctx, const struct html_elem *e)
{
	struct parse *p = ctx;
	struct tpl_outline *o = p->o;
	const char *cls, *id, *name, *tag = html_elem_name(e);
	enum role role;
	int sub;

	if (role_of(e, &role, &cls, &sub, p->msg) != 0)
		return -1;
	if (role != ROLE_MODULE && is_container_child(p, e) &&
	    !is_table_part(e, p->container)) {
		snprintf(p->msg, TPL_MSG_BYTES, "Element '%.*s' in the "
		    "element with class 'mktoContainer' is not a module",
		    TAG_SHOWN, tag);
		return -1;
	}
	if (role == ROLE_NONE)
		return 0;
	if (role == ROLE_VARIABLE && !is_in(e, "head")) {
		snprintf(p->msg, TPL_MSG_BYTES, "Element 'meta' with class "
		    "'%s' is not inside <head>", cls);
		return -1;
	}
	if ((id = html_elem_attr(e, "id")) == NULL) {
		snprintf(p->msg, TPL_MSG_BYTES, "Element '%.*s' with class "
		    "'%s' is missing attribute 'id'", TAG_SHOWN, tag, cls);
		return -1;
	}
	if (!tpl_is_valid_id(id)) {
		snprintf(p->msg, TPL_MSG_BYTES, "Element '%.*s' with class "
		    "'%s' has an invalid id: only letters, digits, '-' and "
		    "'_' are allowed", TAG_SHOWN, tag, cls);
		return -1;
	}
	name = html_elem_attr(e, "mktoName");
	if (name == NULL && role != ROLE_CONTAINER &&
	    strcmp(cls, "mktEditable") != 0) {
		snprintf(p->msg, TPL_MSG_BYTES, "Element '%.*s' with class "
		    "'%s' is missing attribute 'mktoName'", TAG_SHOWN, tag,
		    cls);
		return -1;
	}
	if (name != NULL && !has_other_than(name, SPACE)) {
		snprintf(p->msg, TPL_MSG_BYTES, "Element '%.*s' with class "
		    "'%s' has an empty attribute 'mktoName'", TAG_SHOWN, tag,
		    cls);
		return -1;
	}
	switch (role) {
	case ROLE_CONTAINER:
		if (p->container != NULL) {
			snprintf(p->msg, TPL_MSG_BYTES, "Only one element "
			    "with class 'mktoContainer' is allowed");
			return -1;
		}
		if (!is_tag(e, "table") && !is_tag(e, "tbody") &&
		    !is_tag(e, "thead") && !is_tag(e, "tfoot") &&
		    !is_tag(e, "td")) {
			snprintf(p->msg, TPL_MSG_BYTES, "Element '%.*s' with "
			    "class 'mktoContainer' must be a <table>, "
			    "<tbody>, <thead>, <tfoot> or <td>", TAG_SHOWN,
			    tag);
			return -1;
		}
		p->container = e;
		o->container_id = xstrdup(id);
		o->container_tag = xstrdup(tag);
		break;
	case ROLE_MODULE: {
		struct tpl_module *m;

		if (check_module_place(p, e, p->msg) != 0)
			return -1;
		grow((void **)&o->modules, &p->cap_modules, o->nmodules,
		    sizeof(*o->modules));
		m = &o->modules[o->nmodules];
		memset(m, 0, sizeof(*m));
		if (bool_attr(e, cls, "mktoActive", true, &m->active,
		    p->msg) != 0 || bool_attr(e, cls, "mktoAddByDefault", true,
		    &m->add_by_default, p->msg) != 0)
			return -1;
		p->module_elems = xrealloc(p->module_elems, p->cap_modules *
		    sizeof(*p->module_elems));
		p->module_elems[o->nmodules] = e;
		m->id = xstrdup(id);
		m->name = xstrdup(name);
		o->nmodules++;
		break;
	}
	case ROLE_SECTION: {
		struct tpl_section *s;

		grow((void **)&o->sections, &p->cap_sections, o->nsections,
		    sizeof(*o->sections));
		s = &o->sections[o->nsections];
		s->id = xstrdup(id);
		s->name = xstrdup(name != NULL ? name : id);
		s->cls = cls;
		s->kind = (enum tpl_section_kind)sub;
		s->module = module_around(p, e);
		o->nsections++;
		break;
	}
	case ROLE_VARIABLE: {
		struct tpl_variable *v;

		grow((void **)&o->variables, &p->cap_variables,
		    o->nvariables, sizeof(*o->variables));
		v = &o->variables[o->nvariables];
		memset(v, 0, sizeof(*v));
		v->id = xstrdup(id);
		v->name = xstrdup(name);
		o->nvariables++;
		if (read_variable(e, (enum tpl_var_type)sub, v, p->msg) != 0)
			return -1;
		if (v->module_scope && ++p->nscoped > TPL_MAX_SCOPED) {
			snprintf(p->msg, TPL_MSG_BYTES, "Invalid template: "
			    "more than %d module-scoped variables",
			    TPL_MAX_SCOPED);
			return -1;
		}
		break;
	}
	default:
		break;
	}
	add_decl(p, id);
	return 0;
}

/* By id, then by place in the document. */
static int
decl_cmp(const void *a, const void *b)
{
	const struct tpl_decl *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	if (c != 0)
		return c;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* See template.h. */
const char *
tpl_first_duplicate(struct tpl_decl *decls, size_t count)
{
	const char *dup = NULL;
	size_t i, at = SIZE_MAX;

	if (count < 2)
		return NULL;
	qsort(decls, count, sizeof(*decls), decl_cmp);
	for (i = 1; i < count; i++)
		if (strcmp(decls[i - 1].id, decls[i].id) == 0 &&
		    decls[i].order < at) {
			at = decls[i].order;
			dup = decls[i].id;
		}
	return dup;
}

static int
is_script(void *ctx, const struct html_elem *e)
{
	(void)ctx;
	return strcmp(html_elem_name(e), "script") == 0;
}

/* Which module-scoped variables each module names as ${id}. */
static void
find_scoped_uses(struct parse *p)
{
	struct tpl_outline *o = p->o;
	struct tpl_module *m;
	char *ref;
	size_t i, k, len;

	for (i = 0; i < o->nmodules; i++) {
		m = &o->modules[i];
		for (k = 0; k < o->nvariables; k++) {
			if (!o->variables[k].module_scope)
				continue;
			len = strlen(o->variables[k].id) + 4;
			ref = xmalloc(len);
			snprintf(ref, len, "${%s}", o->variables[k].id);
			if (html_elem_mentions(p->module_elems[i], ref)) {
				m->vars = xrealloc(m->vars, (m->nvars + 1) *
				    sizeof(*m->vars));
				m->vars[m->nvars++] = k;
			}
			free(ref);
		}
	}
}

/* See template.h. */
int
tpl_parse(const char *html, size_t len, struct tpl_outline *out, char *msg)
{
	return tpl_parse_doc(html, len, out, msg, NULL);
}

/* See template.h. */
int
tpl_parse_doc(const char *html, size_t len, struct tpl_outline *out,
    char *msg, struct html_doc **doc)
{
	struct tpl_outline o;
	struct parse p;
	struct html_doc *d = NULL;
	const char *dup;
	char why[128];
	int r = -1;

	memset(&o, 0, sizeof(o));
	memset(&p, 0, sizeof(p));
	p.msg = msg;
	p.o = &o;
	msg[0] = '\0';
	if (out != NULL)
		memset(out, 0, sizeof(*out));
	if (doc != NULL)
		*doc = NULL;
	if (html != NULL && len > 0 && memchr(html, '\0', len) != NULL) {
		snprintf(msg, TPL_MSG_BYTES, "Invalid template: %s", NUL_MSG);
		goto out;
	}
	if ((d = html_parse(html, len, why, sizeof(why))) == NULL) {
		snprintf(msg, TPL_MSG_BYTES, "Invalid template: %s", why);
		goto out;
	}
	if (html_count(d, "body") == 0) {
		snprintf(msg, TPL_MSG_BYTES, "Invalid template: no <body> "
		    "element");
		goto out;
	}
	if (html_each(d, is_script, NULL) != 0) {
		snprintf(msg, TPL_MSG_BYTES, "Invalid template: <script> is "
		    "not allowed in an email template");
		goto out;
	}
	if (html_each(d, visit, &p) != 0)
		goto out;
	if ((dup = tpl_first_duplicate(p.decls, p.ndecls)) != NULL) {
		snprintf(msg, TPL_MSG_BYTES, "Element with id '%.*s' is "
		    "duplicated", ID_SHOWN, dup);
		goto out;
	}
	if (o.nsections == 0) {
		snprintf(msg, TPL_MSG_BYTES, "Invalid template: no editable "
		    "section (class mktEditable, mktoText, mktoImg, "
		    "mktoSnippet or mktoVideo)");
		goto out;
	}
	find_scoped_uses(&p);
	if (out != NULL) {
		*out = o;
		memset(&o, 0, sizeof(o));
	}
	if (doc != NULL) {
		*doc = d;
		d = NULL;
	}
	r = 0;
out:
	tpl_outline_clear(&o);
	free(p.decls);
	free(p.module_elems);
	html_free(d);
	return r;
}

/* See template.h. */
void
tpl_outline_clear(struct tpl_outline *o)
{
	size_t i;

	if (o == NULL)
		return;
	for (i = 0; i < o->nsections; i++) {
		free(o->sections[i].id);
		free(o->sections[i].name);
	}
	for (i = 0; i < o->nmodules; i++) {
		free(o->modules[i].id);
		free(o->modules[i].name);
		free(o->modules[i].vars);
	}
	for (i = 0; i < o->nvariables; i++) {
		free(o->variables[i].id);
		free(o->variables[i].name);
		free(o->variables[i].value);
		free(o->variables[i].values);
		free(o->variables[i].min);
		free(o->variables[i].max);
		free(o->variables[i].units);
		free(o->variables[i].true_value);
		free(o->variables[i].false_value);
	}
	free(o->sections);
	free(o->modules);
	free(o->variables);
	free(o->container_id);
	free(o->container_tag);
	memset(o, 0, sizeof(*o));
}

/* See template.h. */
int
tpl_check_snippet(const char *html, size_t len, char *msg)
{
	struct html_doc *d;
	char why[128];
	int r = -1;

	msg[0] = '\0';
	d = NULL;
	if (html != NULL && len > 0 && memchr(html, '\0', len) != NULL)
		snprintf(msg, TPL_MSG_BYTES, "Invalid snippet: %s", NUL_MSG);
	else if ((d = html_parse(html, len, why, sizeof(why))) == NULL)
		snprintf(msg, TPL_MSG_BYTES, "Invalid snippet: %s", why);
	else if (html_each(d, is_script, NULL) != 0)
		snprintf(msg, TPL_MSG_BYTES, "Invalid snippet: <script> is "
		    "not allowed in an email");
	else
		r = 0;
	html_free(d);
	return r;
}
