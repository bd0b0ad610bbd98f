/*
 * Landing page templates: their types and what approving one checks
 * (lptemplate.h).
 *
 * The service's REST guide (Landing Page Templates, "Approval") says a
 * template is approved only when it conforms to the rules of its type and
 * points to the product documentation of each type for them.  The rules
 * below are those documents' (Create a Guided Landing Page Template;
 * Create a Free-form Landing Page Template; the Email Template Syntax for
 * the variable types it shares with templates), checked on the HTML as
 * libxml2 parses it (model/html.c).  The documentation states no error
 * texts, so the messages are ours, in the form of the service's 709
 * messages.  Every check runs in the order listed, and the first failure
 * is the one reported; among elements, the first in document order.
 *
 * Both types:
 *   1. The content parses as HTML: not empty, at most HTML_MAX_BYTES, no
 *      element nested deeper than HTML_MAX_DEPTH, at least one element.
 *      "Invalid template: HTML is empty" (the parser's reason).
 *   2. It has a <body> element (tag soup gets an implied one, as in a
 *      browser; a frameset or a lone <head> does not).
 *      "Invalid template: no <body> element"
 *   The free-form document states nothing else (its editor places
 *   content freely, so the HTML carries no declarations), and nothing
 *   else is checked for a free-form template.
 *
 * Guided templates, on top (the guided template document):
 *   3. Editable elements are the elements whose class holds one of
 *      mktoText, mktoImg, mktoForm, mktoSnippet, mktoShareButton,
 *      mktoVideo, mktoPoll, mktoReferral, mktoSweepstakes (the guided
 *      template document) or mktoConversation (its Dynamic Chat
 *      element).  Variables are the <meta> elements whose class holds one
 *      of mktoString, mktoColor, mktoBoolean (the guided template
 *      document) or mktoNumber, mktoList, mktoHTML (the email template
 *      syntax, which these templates share; checked the same way).  A
 *      variable class on another element declares nothing.  Class words
 *      are case-sensitive, attribute names are not (the email template
 *      syntax says so; HTML itself reads names in any case).
 *      Decided: an element with two of these classes is refused, since
 *      it cannot be two things.
 *      "Element 'div' has two editable classes, 'mktoText' and 'mktoImg'"
 *   4. Variables are declared in <head>.
 *      "Element 'meta' with class 'mktoString' is not inside <head>"
 *   5. Each has an id ("Element 'div' with class 'mktoText' is missing
 *      attribute 'id'") of letters, digits, '-' and '_' only ("... has
 *      an invalid id: only letters, digits, '-' and '_' are allowed";
 *      the id is not echoed).
 *   6. Each has a mktoName ("... is missing attribute 'mktoName'"), and,
 *      decided (it is the name the editor shows), one that is not blank
 *      ("... has an empty attribute 'mktoName'").
 *   7. Values of the optional attributes the documents define: a color's
 *      default is '#' and six hex digits (#336699); a boolean's default
 *      and a string's allowHtml are true or false (decided: in any letter
 *      case); a number's default is required and a number, as are its
 *      min, max and step when given; a list's values is required and
 *      holds at least one value.
 *      "Element 'meta' with class 'mktoColor' has an invalid default:
 *      a color such as #336699 is required"
 *   8. Ids are unique among the editable elements and variables together
 *      (they share the document and ${id} references): "Element with id
 *      'x' is duplicated", naming the id whose second use comes first.
 *      Decided: ids of other elements are not compared (they are the
 *      page's own).  Duplicates are looked for once every element passed
 *      3 to 7.
 * Decided where the documents are silent: editable elements may be any
 * tag (the documents show <div>, and <img> for images) and may nest.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/html.h"
#include "model/lptemplate.h"
#include "model/template.h"
#include "util/num.h"
#include "util/xmalloc.h"

/* The classes that make an element editable (rule 3). */
static const char *const element_classes[] = {
	"mktoText", "mktoImg", "mktoForm", "mktoSnippet", "mktoShareButton",
	"mktoVideo", "mktoPoll", "mktoReferral", "mktoSweepstakes",
	"mktoConversation",
};

/* The classes that make a <meta> a variable (rule 3). */
static const char *const variable_classes[] = {
	"mktoString", "mktoColor", "mktoBoolean", "mktoNumber", "mktoList",
	"mktoHTML",
};

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

/* The longest id and tag name a message quotes. */
#define ID_SHOWN	100
#define TAG_SHOWN	40

struct check {
	char		*msg;
	struct tpl_decl	*decls;
	size_t		 count;
	size_t		 cap;
};

/* See lptemplate.h. */
const char *
lpt_type_name(enum lpt_type t)
{
	return t == LPT_GUIDED ? "guided" : "freeForm";
}

/* See lptemplate.h. */
int
lpt_type_parse(const char *word)
{
	if (word == NULL)
		return -1;
	if (strcasecmp(word, "freeForm") == 0)
		return LPT_FREE_FORM;
	if (strcasecmp(word, "guided") == 0)
		return LPT_GUIDED;
	return -1;
}

/* HTML's white space. */
#define SPACE		" \t\n\f\r"

/* Whether s holds a byte other than those of skip. */
static bool
has_other_than(const char *s, const char *skip)
{
	return s[strspn(s, skip)] != '\0';
}

static bool
is_number(const char *s)
{
	double v;

	return num_parse_double(s, strlen(s), &v) == 0;
}

/* Whether e lies inside a <head>. */
static bool
is_in_head(const struct html_elem *e)
{
	while ((e = html_elem_parent(e)) != NULL)
		if (strcmp(html_elem_name(e), "head") == 0)
			return true;
	return false;
}

/*
 * The editable class of e (rule 3) in *cls, with *is_var for a variable;
 * 0, or -1 with the message when e has two of them.  *cls is NULL when e
 * is not editable.
 */
static int
editable_class(const struct html_elem *e, const char **cls, bool *is_var,
    char *msg)
{
	bool meta = strcmp(html_elem_name(e), "meta") == 0;
	size_t i;

	*cls = NULL;
	*is_var = false;
	for (i = 0; i < NELEM(element_classes) + NELEM(variable_classes);
	    i++) {
		const char *c;
		bool var = i >= NELEM(element_classes);

		c = var ? variable_classes[i - NELEM(element_classes)] :
		    element_classes[i];
		if ((var && !meta) || !html_elem_has_class(e, c))
			continue;
		if (*cls != NULL) {
			snprintf(msg, LPT_MSG_BYTES, "Element '%.*s' has two "
			    "editable classes, '%s' and '%s'", TAG_SHOWN,
			    html_elem_name(e), *cls, c);
			return -1;
		}
		*cls = c;
		*is_var = var;
	}
	return 0;
}

/* Rule 7: the optional attributes of the variable of class cls. */
static int
check_variable_attrs(const struct html_elem *e, const char *cls,
    char *msg)
{
	static const char *const number_attrs[] = {
		"default", "min", "max", "step",
	};
	const char *v, *bad = NULL, *want = NULL;
	size_t i;

	if (strcmp(cls, "mktoColor") == 0) {
		v = html_elem_attr(e, "default");
		if (v != NULL && !tpl_is_color(v)) {
			bad = "default";
			want = "a color such as #336699 is required";
		}
	} else if (strcmp(cls, "mktoBoolean") == 0) {
		v = html_elem_attr(e, "default");
		if (v != NULL && !tpl_is_bool_word(v)) {
			bad = "default";
			want = "true or false is required";
		}
	} else if (strcmp(cls, "mktoString") == 0) {
		v = html_elem_attr(e, "allowHtml");
		if (v != NULL && !tpl_is_bool_word(v)) {
			bad = "allowHtml";
			want = "true or false is required";
		}
	} else if (strcmp(cls, "mktoNumber") == 0) {
		if (html_elem_attr(e, "default") == NULL) {
			snprintf(msg, LPT_MSG_BYTES, "Element 'meta' with "
			    "class '%s' is missing attribute 'default'", cls);
			return -1;
		}
		for (i = 0; i < NELEM(number_attrs) && bad == NULL; i++) {
			v = html_elem_attr(e, number_attrs[i]);
			if (v != NULL && !is_number(v)) {
				bad = number_attrs[i];
				want = "a number is required";
			}
		}
	} else if (strcmp(cls, "mktoList") == 0) {
		v = html_elem_attr(e, "values");
		if (v == NULL) {
			snprintf(msg, LPT_MSG_BYTES, "Element 'meta' with "
			    "class '%s' is missing attribute 'values'", cls);
			return -1;
		}
		if (!has_other_than(v, "," SPACE)) {
			bad = "values";
			want = "at least one value is required";
		}
	}
	if (bad == NULL)
		return 0;
	snprintf(msg, LPT_MSG_BYTES, "Element 'meta' with class '%s' has an "
	    "invalid %s: %s", cls, bad, want);
	return -1;
}

/* Rules 3 to 7 for one element; its id goes to the list for rule 8. */
static int
check_elem(void *ctx, const struct html_elem *e)
{
	struct check *ck = ctx;
	const char *cls, *id, *name, *tag = html_elem_name(e);
	bool is_var;

	if (editable_class(e, &cls, &is_var, ck->msg) != 0)
		return -1;
	if (cls == NULL)
		return 0;
	if (is_var && !is_in_head(e)) {
		snprintf(ck->msg, LPT_MSG_BYTES, "Element 'meta' with class "
		    "'%s' is not inside <head>", cls);
		return -1;
	}
	if ((id = html_elem_attr(e, "id")) == NULL) {
		snprintf(ck->msg, LPT_MSG_BYTES, "Element '%.*s' with class "
		    "'%s' is missing attribute 'id'", TAG_SHOWN, tag, cls);
		return -1;
	}
	if (!tpl_is_valid_id(id)) {
		snprintf(ck->msg, LPT_MSG_BYTES, "Element '%.*s' with class "
		    "'%s' has an invalid id: only letters, digits, '-' and "
		    "'_' are allowed", TAG_SHOWN, tag, cls);
		return -1;
	}
	if ((name = html_elem_attr(e, "mktoName")) == NULL) {
		snprintf(ck->msg, LPT_MSG_BYTES, "Element '%.*s' with class "
		    "'%s' is missing attribute 'mktoName'", TAG_SHOWN, tag,
		    cls);
		return -1;
	}
	if (!has_other_than(name, SPACE)) {
		snprintf(ck->msg, LPT_MSG_BYTES, "Element '%.*s' with class "
		    "'%s' has an empty attribute 'mktoName'", TAG_SHOWN, tag,
		    cls);
		return -1;
	}
	if (is_var && check_variable_attrs(e, cls, ck->msg) != 0)
		return -1;
	if (ck->count == ck->cap) {
		ck->cap = ck->cap ? ck->cap * 2 : 16;
		ck->decls = xrealloc(ck->decls, ck->cap * sizeof(*ck->decls));
	}
	ck->decls[ck->count].id = id;
	ck->decls[ck->count].order = ck->count;
	ck->count++;
	return 0;
}

/* See lptemplate.h. */
int
lpt_check(enum lpt_type t, const char *html, size_t len, char *msg)
{
	struct html_doc *d = NULL;
	struct check ck = { .msg = msg };
	const char *dup;
	char why[128];
	int r = -1;

	msg[0] = '\0';
	if ((d = html_parse(html, len, why, sizeof(why))) == NULL) {
		snprintf(msg, LPT_MSG_BYTES, "Invalid template: %s", why);
		goto out;
	}
	if (html_count(d, "body") == 0) {
		snprintf(msg, LPT_MSG_BYTES, "Invalid template: no <body> "
		    "element");
		goto out;
	}
	if (t == LPT_GUIDED) {
		if (html_each(d, check_elem, &ck) != 0)
			goto out;
		if ((dup = tpl_first_duplicate(ck.decls, ck.count)) != NULL) {
			snprintf(msg, LPT_MSG_BYTES, "Element with id '%.*s' "
			    "is duplicated", ID_SHOWN, dup);
			goto out;
		}
	}
	r = 0;
out:
	free(ck.decls);
	html_free(d);
	return r;
}
