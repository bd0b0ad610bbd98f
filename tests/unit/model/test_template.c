/*
 * model/template.c: every kind of declaration of the email template
 * syntax, each rule at the top of template.c accepted and refused,
 * variable typing, malformed and hostile HTML, <script> variants, a 5 MB
 * template and deep nesting.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/html.h"
#include "model/template.h"

/* The smallest valid body: one rich text section. */
#define TEXT	"<div class=\"mktoText\" id=\"t\" mktoName=\"T\">x</div>"

/* Parses a template made of head and body parts into *o. */
static int
parse(const char *head, const char *body, struct tpl_outline *o, char *msg)
{
	char *html;
	size_t n = strlen(head) + strlen(body) + 64;
	int r;

	html = malloc(n);
	assert_non_null(html);
	snprintf(html, n, "<!DOCTYPE html><html><head>%s</head><body>%s"
	    "</body></html>", head, body);
	r = tpl_parse(html, strlen(html), o, msg);
	free(html);
	return r;
}

static void
ok(const char *head, const char *body, struct tpl_outline *o)
{
	char msg[TPL_MSG_BYTES];

	if (parse(head, body, o, msg) != 0)
		fail_msg("refused: %s", msg);
	assert_string_equal(msg, "");
}

static void
bad(const char *head, const char *body, const char *want)
{
	struct tpl_outline o;
	char msg[TPL_MSG_BYTES];

	assert_int_equal(parse(head, body, &o, msg), -1);
	assert_string_equal(msg, want);
	assert_int_equal(o.nsections + o.nmodules + o.nvariables, 0);
	assert_null(o.container_id);
}

/* Every section kind, with its name and class. */
static void
test_sections(void **state)
{
	struct tpl_outline o;

	(void)state;
	ok("", "<div class=\"mktEditable\" id=\"legacy\">a</div>"
	    "<div class=\"mktoText\" id=\"body\" mktoName=\"Body\">b</div>"
	    "<div class=\"mktoImg\" id=\"imgDiv\" mktoName=\"Logo\" "
	    "mktoImgSrc=\"x.png\"><a><img></a></div>"
	    "<img class=\"mktoImg\" id=\"hero\" mktoName=\"Hero\">"
	    "<div class=\"mktoSnippet\" id=\"foot\" mktoName=\"Footer\" "
	    "mktoDefaultSnippetId=\"12\"></div>"
	    "<div class=\"mktoVideo\" id=\"vid\" mktoName=\"Video\"></div>", &o);
	assert_int_equal(o.nsections, 6);
	assert_string_equal(o.sections[0].id, "legacy");
	/* A mktEditable without mktoName is named by its id. */
	assert_string_equal(o.sections[0].name, "legacy");
	assert_string_equal(o.sections[0].cls, "mktEditable");
	assert_int_equal(o.sections[0].kind, TPL_SEC_TEXT);
	assert_string_equal(o.sections[1].name, "Body");
	assert_int_equal(o.sections[1].kind, TPL_SEC_TEXT);
	assert_int_equal(o.sections[2].kind, TPL_SEC_IMAGE);
	assert_int_equal(o.sections[3].kind, TPL_SEC_IMAGE);
	assert_string_equal(o.sections[3].id, "hero");
	assert_int_equal(o.sections[4].kind, TPL_SEC_SNIPPET);
	assert_int_equal(o.sections[5].kind, TPL_SEC_VIDEO);
	assert_int_equal(o.sections[5].module, -1);
	assert_int_equal(o.nmodules, 0);
	assert_null(o.container_id);
	assert_string_equal(tpl_section_kind_name(TPL_SEC_TEXT), "Text");
	assert_string_equal(tpl_section_kind_name(TPL_SEC_IMAGE), "Image");
	assert_string_equal(tpl_section_kind_name(TPL_SEC_SNIPPET),
	    "Snippet");
	assert_string_equal(tpl_section_kind_name(TPL_SEC_VIDEO), "Video");
	tpl_outline_clear(&o);

	/* Attribute names in any case, class words exactly. */
	ok("", "<DIV CLASS=\"big mktoText\" ID=\"a\" MKTONAME=\"A\"></DIV>",
	    &o);
	assert_int_equal(o.nsections, 1);
	tpl_outline_clear(&o);
	bad("", "<div class=\"mktotext\" id=\"a\" mktoName=\"A\"></div>",
	    "Invalid template: no editable section (class mktEditable, "
	    "mktoText, mktoImg, mktoSnippet or mktoVideo)");
	/* Landing page classes declare nothing in an email template. */
	bad("", "<div class=\"mktoForm\" id=\"f\" mktoName=\"F\"></div>",
	    "Invalid template: no editable section (class mktEditable, "
	    "mktoText, mktoImg, mktoSnippet or mktoVideo)");

	bad("", "<div class=\"mktoText\" mktoName=\"A\"></div>",
	    "Element 'div' with class 'mktoText' is missing attribute 'id'");
	bad("", "<div class=\"mktoVideo\" id=\"a b\" mktoName=\"A\"></div>",
	    "Element 'div' with class 'mktoVideo' has an invalid id: only "
	    "letters, digits, '-' and '_' are allowed");
	bad("", "<div class=\"mktoSnippet\" id=\"\" mktoName=\"A\"></div>",
	    "Element 'div' with class 'mktoSnippet' has an invalid id: only "
	    "letters, digits, '-' and '_' are allowed");
	bad("", "<img class=\"mktoImg\" id=\"a\">",
	    "Element 'img' with class 'mktoImg' is missing attribute "
	    "'mktoName'");
	bad("", "<div class=\"mktoText\" id=\"a\" mktoName=\"  \"></div>",
	    "Element 'div' with class 'mktoText' has an empty attribute "
	    "'mktoName'");
	bad("", "<div class=\"mktoText mktoImg\" id=\"a\" mktoName=\"A\">"
	    "</div>", "Element 'div' has two template classes, 'mktoText' "
	    "and 'mktoImg'");
	bad("", TEXT "<div class=\"mktoText\" id=\"t\" mktoName=\"U\"></div>",
	    "Element with id 't' is duplicated");
}

/* The container and its modules, with their sections. */
static void
test_modules(void **state)
{
	struct tpl_outline o;

	(void)state;
	ok("", "<table class=\"mktoContainer\" id=\"main\">"
	    "<tr class=\"mktoModule\" id=\"m1\" mktoName=\"One\"><td>"
	    "<div class=\"mktoText\" id=\"s1\" mktoName=\"S1\"></div></td></tr>"
	    "<tr class=\"mktoModule\" id=\"m2\" mktoName=\"Two\" "
	    "mktoActive=\"false\"><td></td></tr>"
	    "<tr class=\"mktoModule\" id=\"m3\" mktoName=\"Three\" "
	    "mktoAddByDefault=\"FALSE\"><td><img class=\"mktoImg\" id=\"s3\" "
	    "mktoName=\"S3\"></td></tr></table>" TEXT, &o);
	assert_string_equal(o.container_id, "main");
	assert_string_equal(o.container_tag, "table");
	assert_int_equal(o.nmodules, 3);
	assert_string_equal(o.modules[0].id, "m1");
	assert_string_equal(o.modules[0].name, "One");
	assert_true(o.modules[0].active);
	assert_true(o.modules[0].add_by_default);
	assert_false(o.modules[1].active);
	assert_false(o.modules[2].add_by_default);
	assert_int_equal(o.nsections, 3);
	assert_int_equal(o.sections[0].module, 0);
	assert_int_equal(o.sections[1].module, 2);
	assert_int_equal(o.sections[2].module, -1);
	tpl_outline_clear(&o);

	/* Rows through a <tbody>; a <td> container holds <table>s. */
	ok("", "<table class=\"mktoContainer\" id=\"c\"><tbody>"
	    "<tr class=\"mktoModule\" id=\"m\" mktoName=\"M\"><td>" TEXT
	    "</td></tr></tbody></table>", &o);
	assert_int_equal(o.nmodules, 1);
	tpl_outline_clear(&o);
	ok("", "<table><tr><td class=\"mktoContainer\" id=\"c\">"
	    "<table class=\"mktoModule\" id=\"m\" mktoName=\"M\"><tr><td>"
	    TEXT "</td></tr></table></td></tr></table>", &o);
	assert_string_equal(o.container_tag, "td");
	assert_int_equal(o.nmodules, 1);
	assert_int_equal(o.sections[0].module, 0);
	tpl_outline_clear(&o);
	ok("", "<table><tbody class=\"mktoContainer\" id=\"c\">"
	    "<tr class=\"mktoModule\" id=\"m\" mktoName=\"M\"><td>" TEXT
	    "</td></tr></tbody></table>", &o);
	tpl_outline_clear(&o);

	bad("", "<div class=\"mktoContainer\" id=\"c\"></div>" TEXT,
	    "Element 'div' with class 'mktoContainer' must be a <table>, "
	    "<tbody>, <thead>, <tfoot> or <td>");
	bad("", "<table class=\"mktoContainer\"></table>" TEXT,
	    "Element 'table' with class 'mktoContainer' is missing "
	    "attribute 'id'");
	bad("", "<table class=\"mktoContainer\" id=\"a\"></table>"
	    "<table class=\"mktoContainer\" id=\"b\"></table>" TEXT,
	    "Only one element with class 'mktoContainer' is allowed");
	bad("", "<table><tr class=\"mktoModule\" id=\"m\" mktoName=\"M\">"
	    "<td></td></tr></table>" TEXT, "Element 'tr' with class "
	    "'mktoModule' is not inside the element with class "
	    "'mktoContainer'");
	bad("", "<table class=\"mktoContainer\" id=\"c\"><tr><td>"
	    "<table><tr class=\"mktoModule\" id=\"m\" mktoName=\"M\"><td>"
	    "</td></tr></table></td></tr></table>" TEXT, "Element 'tr' in "
	    "the element with class 'mktoContainer' is not a module");
	bad("", "<table><tr><td class=\"mktoContainer\" id=\"c\">"
	    "<div class=\"mktoModule\" id=\"m\" mktoName=\"M\"></div>"
	    "</td></tr></table>" TEXT, "Element 'div' with class "
	    "'mktoModule' must be a <table> in a container <td>");
	bad("", "<table><tr><td class=\"mktoContainer\" id=\"c\">"
	    "<p>loose</p></td></tr></table>" TEXT, "Element 'p' in the "
	    "element with class 'mktoContainer' is not a module");
	bad("", "<table class=\"mktoContainer\" id=\"c\">"
	    "<tr class=\"mktoModule\" id=\"m\"><td></td></tr></table>" TEXT,
	    "Element 'tr' with class 'mktoModule' is missing attribute "
	    "'mktoName'");
	bad("", "<table class=\"mktoContainer\" id=\"c\">"
	    "<tr class=\"mktoModule\" id=\"m\" mktoName=\"M\" "
	    "mktoActive=\"maybe\"><td></td></tr></table>" TEXT,
	    "Element 'tr' with class 'mktoModule' has an invalid "
	    "mktoActive: true or false is required");
	bad("", "<table class=\"mktoContainer\" id=\"c\">"
	    "<tr class=\"mktoModule mktoText\" id=\"m\" mktoName=\"M\">"
	    "<td></td></tr></table>" TEXT, "Element 'tr' has two template "
	    "classes, 'mktoText' and 'mktoModule'");
	/* Ids are shared by modules, sections and the container. */
	bad("", "<table class=\"mktoContainer\" id=\"t\">"
	    "<tr class=\"mktoModule\" id=\"m\" mktoName=\"M\"><td></td></tr>"
	    "</table>" TEXT, "Element with id 't' is duplicated");
	/* Modules alone are not editable sections. */
	bad("", "<table class=\"mktoContainer\" id=\"c\">"
	    "<tr class=\"mktoModule\" id=\"m\" mktoName=\"M\"><td></td></tr>"
	    "</table>", "Invalid template: no editable section (class "
	    "mktEditable, mktoText, mktoImg, mktoSnippet or mktoVideo)");
}

/* Every variable type, its default and its value rule. */
static void
test_variables(void **state)
{
	struct tpl_outline o;
	size_t i;

	(void)state;
	ok("<meta class=\"mktoString\" id=\"s\" mktoName=\"S\" "
	    "default=\"Edit Me\" allowHTML=\"true\">"
	    "<meta class=\"mktoString\" id=\"s2\" mktoName=\"S2\">"
	    "<meta class=\"mktoColor\" id=\"c\" mktoName=\"C\" "
	    "default=\"#FFffFF\">"
	    "<meta class=\"mktoBoolean\" id=\"b\" mktoName=\"B\" "
	    "default=\"TRUE\" true_value=\"block\" false_value=\"none\">"
	    "<meta class=\"mktoBoolean\" id=\"b2\" mktoName=\"B2\">"
	    "<meta class=\"mktoNumber\" id=\"n\" mktoName=\"N\" default=\"12\" "
	    "min=\"8\" max=\"18\" units=\"px\" step=\"0.5\">"
	    "<meta class=\"mktoList\" id=\"l\" mktoName=\"L\" "
	    "values=\" Arial, Verdana ,Times New Roman\">"
	    "<meta class=\"mktoList\" id=\"l2\" mktoName=\"L2\" "
	    "values=\"a,b\" default=\"b\">"
	    "<meta class=\"mktoHTML\" id=\"h\" mktoName=\"H\">"
	    "<meta class=\"mktoImg\" id=\"i\" mktoName=\"I\" "
	    "default=\"https://x/y.png\" mktoModuleScope=\"true\">", TEXT, &o);
	assert_int_equal(o.nvariables, 10);
	assert_int_equal(o.nsections, 1);
	assert_int_equal(o.variables[0].type, TPL_VAR_STRING);
	assert_string_equal(o.variables[0].value, "Edit Me");
	assert_string_equal(o.variables[1].value, "");
	assert_int_equal(o.variables[2].type, TPL_VAR_COLOR);
	assert_string_equal(o.variables[2].value, "#FFffFF");
	assert_int_equal(o.variables[3].type, TPL_VAR_BOOLEAN);
	assert_string_equal(o.variables[3].value, "true");
	assert_string_equal(o.variables[3].true_value, "block");
	assert_string_equal(o.variables[3].false_value, "none");
	assert_string_equal(o.variables[4].value, "false");
	assert_null(o.variables[4].true_value);
	assert_int_equal(o.variables[5].type, TPL_VAR_NUMBER);
	assert_string_equal(o.variables[5].value, "12");
	assert_string_equal(o.variables[5].units, "px");
	assert_int_equal(o.variables[6].type, TPL_VAR_LIST);
	assert_string_equal(o.variables[6].value, "Arial");
	assert_string_equal(o.variables[7].value, "b");
	assert_int_equal(o.variables[8].type, TPL_VAR_HTML);
	assert_int_equal(o.variables[9].type, TPL_VAR_IMAGE);
	assert_true(o.variables[9].module_scope);
	assert_false(o.variables[0].module_scope);
	for (i = 0; i < TPL_VAR__MAX; i++)
		assert_string_not_equal(tpl_var_type_name(i), "?");
	assert_string_equal(tpl_var_type_name(TPL_VAR_COLOR), "color");

	/* The value rules, as Update Email Variable will use them. */
	assert_true(tpl_var_value_ok(&o.variables[2], "#000000"));
	assert_false(tpl_var_value_ok(&o.variables[2], "#00000"));
	assert_false(tpl_var_value_ok(&o.variables[2], "red"));
	assert_false(tpl_var_value_ok(&o.variables[2], "#GGGGGG"));
	assert_true(tpl_var_value_ok(&o.variables[3], "False"));
	assert_false(tpl_var_value_ok(&o.variables[3], "1"));
	assert_true(tpl_var_value_ok(&o.variables[5], "8"));
	assert_true(tpl_var_value_ok(&o.variables[5], "17.5"));
	assert_false(tpl_var_value_ok(&o.variables[5], "7"));
	assert_false(tpl_var_value_ok(&o.variables[5], "19"));
	assert_false(tpl_var_value_ok(&o.variables[5], "12px"));
	assert_false(tpl_var_value_ok(&o.variables[5], ""));
	assert_true(tpl_var_value_ok(&o.variables[6], "Times New Roman"));
	assert_false(tpl_var_value_ok(&o.variables[6], "Comic Sans"));
	assert_false(tpl_var_value_ok(&o.variables[6], ""));
	assert_true(tpl_var_value_ok(&o.variables[0], "<b>any</b>"));
	assert_true(tpl_var_value_ok(&o.variables[8], ""));
	tpl_outline_clear(&o);

	/* A variable class on another element declares nothing. */
	ok("", "<div class=\"mktoString\"></div>" TEXT, &o);
	assert_int_equal(o.nvariables, 0);
	tpl_outline_clear(&o);

	bad("", "<meta class=\"mktoString\" id=\"s\" mktoName=\"S\">" TEXT,
	    "Element 'meta' with class 'mktoString' is not inside <head>");
	bad("<meta class=\"mktoString\" mktoName=\"S\">", TEXT,
	    "Element 'meta' with class 'mktoString' is missing attribute "
	    "'id'");
	bad("<meta class=\"mktoColor\" id=\"c\">", TEXT,
	    "Element 'meta' with class 'mktoColor' is missing attribute "
	    "'mktoName'");
	bad("<meta class=\"mktoColor\" id=\"c\" mktoName=\"C\" "
	    "default=\"#fff\">", TEXT, "Element 'meta' with class "
	    "'mktoColor' has an invalid default: a color such as #336699 is "
	    "required");
	bad("<meta class=\"mktoBoolean\" id=\"b\" mktoName=\"B\" "
	    "default=\"yes\">", TEXT, "Element 'meta' with class "
	    "'mktoBoolean' has an invalid default: true or false is "
	    "required");
	bad("<meta class=\"mktoString\" id=\"s\" mktoName=\"S\" "
	    "allowHtml=\"1\">", TEXT, "Element 'meta' with class "
	    "'mktoString' has an invalid allowHtml: true or false is "
	    "required");
	bad("<meta class=\"mktoHTML\" id=\"s\" mktoName=\"S\" "
	    "mktoModuleScope=\"local\">", TEXT, "Element 'meta' with class "
	    "'mktoHTML' has an invalid mktoModuleScope: true or false is "
	    "required");
	bad("<meta class=\"mktoNumber\" id=\"n\" mktoName=\"N\">", TEXT,
	    "Element 'meta' with class 'mktoNumber' is missing attribute "
	    "'default'");
	bad("<meta class=\"mktoNumber\" id=\"n\" mktoName=\"N\" "
	    "default=\"ten\">", TEXT, "Element 'meta' with class "
	    "'mktoNumber' has an invalid default: a number is required");
	bad("<meta class=\"mktoNumber\" id=\"n\" mktoName=\"N\" default=\"1\" "
	    "step=\"x\">", TEXT, "Element 'meta' with class 'mktoNumber' has "
	    "an invalid step: a number is required");
	bad("<meta class=\"mktoNumber\" id=\"n\" mktoName=\"N\" default=\"30\" "
	    "max=\"20\">", TEXT, "Element 'meta' with class 'mktoNumber' has "
	    "an invalid default: a number between min and max is required");
	bad("<meta class=\"mktoList\" id=\"l\" mktoName=\"L\">", TEXT,
	    "Element 'meta' with class 'mktoList' is missing attribute "
	    "'values'");
	bad("<meta class=\"mktoList\" id=\"l\" mktoName=\"L\" "
	    "values=\" , ,\">", TEXT, "Element 'meta' with class 'mktoList' "
	    "has an invalid values: at least one value is required");
	bad("<meta class=\"mktoList\" id=\"l\" mktoName=\"L\" values=\"a,b\" "
	    "default=\"c\">", TEXT, "Element 'meta' with class 'mktoList' "
	    "has an invalid default: one of its values is required");
	bad("<meta class=\"mktoString mktoColor\" id=\"x\" mktoName=\"X\">",
	    TEXT, "Element 'meta' has two template classes, 'mktoString' "
	    "and 'mktoColor'");
	bad("<meta class=\"mktoString\" id=\"t\" mktoName=\"X\">", TEXT,
	    "Element with id 't' is duplicated");
}

/* Module-scoped variables: which modules use them. */
static void
test_module_scope(void **state)
{
	struct tpl_outline o;

	(void)state;
	ok("<meta class=\"mktoString\" id=\"label\" mktoName=\"Label\" "
	    "mktoModuleScope=\"true\" default=\"Go\">"
	    "<meta class=\"mktoColor\" id=\"btn\" mktoName=\"Button\" "
	    "mktoModuleScope=\"true\">"
	    "<meta class=\"mktoString\" id=\"global\" mktoName=\"G\">",
	    "<table class=\"mktoContainer\" id=\"c\">"
	    "<tr class=\"mktoModule\" id=\"a\" mktoName=\"A\"><td>${label} "
	    "${global}</td></tr>"
	    "<tr class=\"mktoModule\" id=\"b\" mktoName=\"B\"><td "
	    "style=\"color:${btn}\"><p>${label}</p></td></tr>"
	    "<tr class=\"mktoModule\" id=\"d\" mktoName=\"D\"><td>$label "
	    "{btn}</td></tr></table>" TEXT, &o);
	assert_int_equal(o.nmodules, 3);
	assert_int_equal(o.modules[0].nvars, 1);
	assert_int_equal(o.modules[0].vars[0], 0);
	assert_int_equal(o.modules[1].nvars, 2);
	assert_int_equal(o.modules[1].vars[0], 0);
	assert_int_equal(o.modules[1].vars[1], 1);
	assert_int_equal(o.modules[2].nvars, 0);
	tpl_outline_clear(&o);
}

/* Tag soup, broken and hostile input: refused with a reason or read. */
static void
test_malformed(void **state)
{
	static const char *const inputs[] = {
		"", "   ", "<!-- only a comment -->", "<", "<<<>>>", "\x01\x02",
		"<html><head></head></html>",
		"<html><frameset><frame></frameset></html>",
		"<div class=\"mktoText\" id=\"a\" mktoName=\"A\"",
		"<div class=mktoText id=a mktoName=A>unclosed",
		"</div></div></body></html>" TEXT,
		"<div class=\"mktoText\" id=\"a\" id=\"b\" mktoName=\"A\">",
		"<div class=\"mktoText\" id=\"a\x80\xff\" mktoName=\"A\">",
		"<div class=\"mktoText\"\0 id=\"a\" mktoName=\"A\">",
		"<![CDATA[" TEXT "]]>",
		"<?xml version=\"1.0\"?>" TEXT,
		"<svg><div class=\"mktoText\" id=\"a\" mktoName=\"A\"></svg>",
	};
	struct tpl_outline o;
	char msg[TPL_MSG_BYTES];
	size_t i;
	int r;

	(void)state;
	for (i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		r = tpl_parse(inputs[i], strlen(inputs[i]), &o, msg);
		if (r == 0)
			assert_true(o.nsections > 0);
		else
			assert_true(msg[0] != '\0');
		tpl_outline_clear(&o);
	}
	assert_int_equal(tpl_parse("", 0, &o, msg), -1);
	assert_string_equal(msg, "Invalid template: HTML is empty");
	assert_int_equal(tpl_parse("<!-- x -->", 10, NULL, msg), -1);
	assert_string_equal(msg, "Invalid template: HTML has no element");
	assert_int_equal(tpl_parse("<html><head></head></html>", 26, NULL,
	    msg), -1);
	assert_string_equal(msg, "Invalid template: no <body> element");
	/* Unclosed tags are closed: the section is read. */
	assert_int_equal(tpl_parse(inputs[9], strlen(inputs[9]), &o, msg), 0);
	assert_string_equal(o.sections[0].id, "a");
	tpl_outline_clear(&o);
	/* libxml2 stops reading at a NUL: what follows would go unchecked. */
	assert_int_equal(tpl_parse("<b>\0</b>" TEXT, 8 + strlen(TEXT), NULL,
	    msg), -1);
	assert_string_equal(msg, "Invalid template: HTML holds a NUL byte");
	assert_int_equal(tpl_check_snippet("<b>\0</b>", 8, msg), -1);
	assert_string_equal(msg, "Invalid snippet: HTML holds a NUL byte");
	/* A long id is quoted cut in the message. */
	{
		char body[2048];

		snprintf(body, sizeof(body), "<div class=\"mktoText\" id=\"%0600d"
		    "\" mktoName=\"a\"></div><div class=\"mktoText\" "
		    "id=\"%0600d\" mktoName=\"b\"></div>", 0, 0);
		assert_int_equal(parse("", body, &o, msg), -1);
		assert_true(strlen(msg) < TPL_MSG_BYTES);
		assert_non_null(strstr(msg, "is duplicated"));
	}
}

/* <script> in every form is refused; text that spells it is not. */
static void
test_scripts(void **state)
{
	static const char *const refused[] = {
		"<script>alert(1)</script>",
		"<SCRIPT>alert(1)</SCRIPT>",
		"<ScRiPt src=\"https://x/y.js\"></ScRiPt>",
		"<script type=\"text/template\"><div></div></script>",
		"<script/>",
		"<script>",
		"<div><p><span><script>x</script></span></p></div>",
		"<table class=\"mktoContainer\" id=\"c\"><tr class=\"mktoModule\" "
		"id=\"m\" mktoName=\"M\"><td><script>x</script></td></tr>"
		"</table>",
		"<svg><script>alert(1)</script></svg>",
		"<noscript><script>x</script></noscript>",
		/* libxml2 reads elements in a <textarea>: refused too. */
		"<textarea><script>x</script></textarea>",
	};
	static const char *const kept[] = {
		"&lt;script&gt;alert(1)&lt;/script&gt;",
		"<!-- <script>alert(1)</script> -->",
		"<a title=\"<script>x</script>\">a</a>",
		"<p>script</p><div class=\"script\"></div>",
		/* The tag is named "scr<script", in browsers too. */
		"<scr<script>ipt>alert(1)</script>",
	};
	struct tpl_outline o;
	char body[512], msg[TPL_MSG_BYTES];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		snprintf(body, sizeof(body), TEXT "%s", refused[i]);
		bad("", body, "Invalid template: <script> is not allowed in an "
		    "email template");
	}
	bad("<script>var a;</script>", TEXT, "Invalid template: <script> is "
	    "not allowed in an email template");
	for (i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		snprintf(body, sizeof(body), TEXT "%s", kept[i]);
		ok("", body, &o);
		tpl_outline_clear(&o);
	}
	/* Snippets: HTML without scripts. */
	assert_int_equal(tpl_check_snippet("<p>Unsubscribe</p>", 18, msg), 0);
	assert_int_equal(tpl_check_snippet("<p>x<SCRIPT>1</SCRIPT></p>", 26,
	    msg), -1);
	assert_string_equal(msg, "Invalid snippet: <script> is not allowed "
	    "in an email");
	assert_int_equal(tpl_check_snippet("", 0, msg), -1);
	assert_string_equal(msg, "Invalid snippet: HTML is empty");
}

/* A 5 MB template of many modules is read; over the bound is refused. */
static void
test_big(void **state)
{
	static const char head[] = "<html><head><meta class=\"mktoString\" "
	    "id=\"v\" mktoName=\"V\" mktoModuleScope=\"true\"></head><body>"
	    "<table class=\"mktoContainer\" id=\"c\">";
	static const char tail[] = "</table></body></html>";
	struct tpl_outline o;
	char msg[TPL_MSG_BYTES], *html;
	size_t cap = 5 * 1000 * 1000 + 4096, len, i, n = 0;
	int w;

	(void)state;
	html = malloc(cap);
	assert_non_null(html);
	memcpy(html, head, sizeof(head) - 1);
	len = sizeof(head) - 1;
	/* Modules with a section and a long paragraph each, to 5 MB. */
	while (len < 5 * 1000 * 1000) {
		w = snprintf(html + len, cap - len, "<tr class=\"mktoModule\" "
		    "id=\"m%zu\" mktoName=\"M\"><td><div class=\"mktoText\" "
		    "id=\"s%zu\" mktoName=\"S\"><p>${v} ", n, n);
		len += (size_t)w;
		for (i = 0; i < 400; i++)
			html[len++] = 'a' + (char)(i % 26);
		len += (size_t)snprintf(html + len, cap - len,
		    "</p></div></td></tr>");
		n++;
	}
	memcpy(html + len, tail, sizeof(tail));
	len += sizeof(tail) - 1;
	assert_true(len >= 5 * 1000 * 1000);
	if (tpl_parse(html, len, &o, msg) != 0)
		fail_msg("refused: %s", msg);
	assert_int_equal(o.nmodules, n);
	assert_int_equal(o.nsections, n);
	assert_int_equal(o.modules[n - 1].nvars, 1);
	assert_int_equal(o.sections[n - 1].module, (long)(n - 1));
	tpl_outline_clear(&o);
	free(html);

	html = malloc(HTML_MAX_BYTES + 1);
	assert_non_null(html);
	memset(html, ' ', HTML_MAX_BYTES + 1);
	memcpy(html, TEXT, strlen(TEXT));
	assert_int_equal(tpl_parse(html, HTML_MAX_BYTES + 1, &o, msg), -1);
	assert_string_equal(msg, "Invalid template: HTML is larger than "
	    "8388608 bytes");
	free(html);
}

/* Nesting to the bound is read (a section at the bottom), past it not. */
static void
test_deep(void **state)
{
	struct tpl_outline o;
	char msg[TPL_MSG_BYTES], *html;
	size_t n, i, len = 0, cap;

	(void)state;
	/* html and body are two levels, the section one. */
	n = HTML_MAX_DEPTH - 3;
	cap = 12 * (n + 2) + strlen(TEXT) + 1;
	html = malloc(cap);
	assert_non_null(html);
	for (i = 0; i < n; i++) {
		memcpy(html + len, "<div>", 5);
		len += 5;
	}
	memcpy(html + len, TEXT, strlen(TEXT) + 1);
	len += strlen(TEXT);
	if (tpl_parse(html, len, &o, msg) != 0)
		fail_msg("refused: %s", msg);
	assert_int_equal(o.nsections, 1);
	tpl_outline_clear(&o);
	memmove(html + 5, html, len + 1);
	memcpy(html, "<div>", 5);
	len += 5;
	assert_int_equal(tpl_parse(html, len, &o, msg), -1);
	assert_string_equal(msg, "Invalid template: HTML nests elements "
	    "deeper than 256");
	free(html);

	/* Modules nested in modules are refused, not walked forever. */
	cap = 200 * 64;
	html = malloc(cap);
	assert_non_null(html);
	len = (size_t)snprintf(html, cap, "<body><table class=\"mktoContainer\" "
	    "id=\"c\">");
	for (i = 0; i < 50; i++)
		len += (size_t)snprintf(html + len, cap - len,
		    "<tr class=\"mktoModule\" id=\"m%zu\" mktoName=\"M\"><td>"
		    "<table>", i);
	assert_int_equal(tpl_parse(html, len, &o, msg), -1);
	assert_string_equal(msg, "Element 'tr' with class 'mktoModule' is "
	    "not inside the element with class 'mktoContainer'");
	free(html);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sections),
		cmocka_unit_test(test_modules),
		cmocka_unit_test(test_variables),
		cmocka_unit_test(test_module_scope),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_scripts),
		cmocka_unit_test(test_big),
		cmocka_unit_test(test_deep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
