/*
 * model/lptemplate.c: the template types and each rule of approval
 * (the list at the top of lptemplate.c), accepted and refused.
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
#include "model/lptemplate.h"

/* A guided template around head and body parts. */
static int
guided(const char *head, const char *body, char *msg)
{
	char html[4096];

	snprintf(html, sizeof(html), "<!DOCTYPE html><html><head>%s</head>"
	    "<body>%s</body></html>", head, body);
	return lpt_check(LPT_GUIDED, html, strlen(html), msg);
}

static void
ok_guided(const char *head, const char *body)
{
	char msg[LPT_MSG_BYTES];

	if (guided(head, body, msg) != 0)
		fail_msg("refused: %s", msg);
	assert_string_equal(msg, "");
}

static void
bad_guided(const char *head, const char *body, const char *want)
{
	char msg[LPT_MSG_BYTES];

	assert_int_equal(guided(head, body, msg), -1);
	assert_string_equal(msg, want);
}

static void
test_types(void **state)
{
	(void)state;
	assert_string_equal(lpt_type_name(LPT_FREE_FORM), "freeForm");
	assert_string_equal(lpt_type_name(LPT_GUIDED), "guided");
	assert_int_equal(lpt_type_parse("freeForm"), LPT_FREE_FORM);
	assert_int_equal(lpt_type_parse("freeform"), LPT_FREE_FORM);
	assert_int_equal(lpt_type_parse("FREEFORM"), LPT_FREE_FORM);
	assert_int_equal(lpt_type_parse("guided"), LPT_GUIDED);
	assert_int_equal(lpt_type_parse("Guided"), LPT_GUIDED);
	assert_int_equal(lpt_type_parse("free-form"), -1);
	assert_int_equal(lpt_type_parse(""), -1);
	assert_int_equal(lpt_type_parse(NULL), -1);
}

/* Rules 1 and 2, for both types. */
static void
test_both_types(void **state)
{
	static const enum lpt_type types[] = { LPT_FREE_FORM, LPT_GUIDED };
	char msg[LPT_MSG_BYTES], *big;
	size_t i;
	const char *s;

	(void)state;
	for (i = 0; i < 2; i++) {
		s = "<html><body><div>Placeholder Content</div></body></html>";
		assert_int_equal(lpt_check(types[i], s, strlen(s), msg), 0);
		/* Tag soup gets its body. */
		s = "<title>t</title><p>text";
		assert_int_equal(lpt_check(types[i], s, strlen(s), msg), 0);
		assert_int_equal(lpt_check(types[i], "", 0, msg), -1);
		assert_string_equal(msg, "Invalid template: HTML is empty");
		s = "<!-- nothing -->";
		assert_int_equal(lpt_check(types[i], s, strlen(s), msg), -1);
		assert_string_equal(msg, "Invalid template: HTML has no "
		    "element");
		s = "<html><head><title>t</title></head></html>";
		assert_int_equal(lpt_check(types[i], s, strlen(s), msg), -1);
		assert_string_equal(msg, "Invalid template: no <body> "
		    "element");
		s = "<html><frameset><frame src=a></frameset></html>";
		assert_int_equal(lpt_check(types[i], s, strlen(s), msg), -1);
		assert_string_equal(msg, "Invalid template: no <body> "
		    "element");
	}
	big = malloc(HTML_MAX_BYTES + 1);
	assert_non_null(big);
	memset(big, ' ', HTML_MAX_BYTES + 1);
	assert_int_equal(lpt_check(LPT_FREE_FORM, big, HTML_MAX_BYTES + 1,
	    msg), -1);
	assert_string_equal(msg, "Invalid template: HTML is larger than "
	    "8388608 bytes");
	free(big);
	/* A free-form template declares nothing: mkto classes are not
	 * checked there. */
	s = "<body><div class=mktoText></div><div class=mktoText></div>";
	assert_int_equal(lpt_check(LPT_FREE_FORM, s, strlen(s), msg), 0);
	assert_int_equal(lpt_check(LPT_GUIDED, s, strlen(s), msg), -1);
}

/* Rule 3: every element class and every variable class is checked. */
static void
test_guided_classes(void **state)
{
	static const char *const elements[] = {
		"mktoText", "mktoImg", "mktoForm", "mktoSnippet",
		"mktoShareButton", "mktoVideo", "mktoPoll", "mktoReferral",
		"mktoSweepstakes", "mktoConversation",
	};
	static const char *const variables[] = {
		"mktoString", "mktoColor", "mktoBoolean", "mktoHTML",
	};
	char body[256], want[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(elements) / sizeof(elements[0]); i++) {
		snprintf(body, sizeof(body), "<div class=\"%s\" id=\"e%zu\" "
		    "mktoName=\"E\"></div>", elements[i], i);
		ok_guided("", body);
		snprintf(body, sizeof(body), "<div class=\"%s\"></div>",
		    elements[i]);
		snprintf(want, sizeof(want), "Element 'div' with class '%s' "
		    "is missing attribute 'id'", elements[i]);
		bad_guided("", body, want);
	}
	for (i = 0; i < sizeof(variables) / sizeof(variables[0]); i++) {
		snprintf(body, sizeof(body), "<meta class=\"%s\" id=\"v%zu\" "
		    "mktoName=\"V\">", variables[i], i);
		ok_guided(body, "");
		snprintf(body, sizeof(body), "<meta class=\"%s\" id=\"v\">",
		    variables[i]);
		snprintf(want, sizeof(want), "Element 'meta' with class '%s' "
		    "is missing attribute 'mktoName'", variables[i]);
		bad_guided(body, "", want);
	}
	/* The documentation's examples. */
	ok_guided("<meta class=\"mktoString\" id=\"var1\" mktoName=\"My "
	    "Variable\" default=\"This is my default value\" "
	    "allowHtml=\"true\">"
	    "<meta class=\"mktoColor\" id=\"color\" mktoName=\"My Color "
	    "Variable\" default=\"#336699\">"
	    "<meta class=\"mktoBoolean\" id=\"boolean1\" mktoName=\"My "
	    "Boolean Variable\" default=\"true\" true_value=\"block\" "
	    "false_value=\"none\" false_value_name=\"Hide\" "
	    "true_value_name=\"Show\">"
	    "<style> #myConditionalDisplayArea { display: ${boolean1}; } "
	    "</style>",
	    "<div class=\"mktoText\" id=\"exampleText\" mktoName=\"Main Body "
	    "Text\"> Optionally add default text.</div>"
	    "<div class=\"mktoImg\" id=\"exampleImg\" mktoName=\"Example "
	    "Image\"></div>"
	    "<img class=\"mktoImg\" id=\"exampleImg2\" mktoName=\"Example "
	    "Image\">"
	    "<div class=\"mktoForm\" id=\"exampleForm\" mktoName=\"Example "
	    "Form\"></div>");
	/* Another class beside an editable one is fine; class words are
	 * case-sensitive (mktotext is no editable class). */
	ok_guided("", "<div class=\"col mktoText wide\" id=a mktoName=A>"
	    "</div><div class=\"mktotext\"></div>");
	/* A variable class on another element declares nothing. */
	ok_guided("", "<div class=\"mktoString\"></div>");
	bad_guided("", "<div class=\"mktoText mktoImg\" id=a mktoName=A>"
	    "</div>", "Element 'div' has two editable classes, 'mktoText' "
	    "and 'mktoImg'");
}

/* Rules 4 to 6. */
static void
test_guided_declarations(void **state)
{
	(void)state;
	bad_guided("", "<meta class=mktoString id=v mktoName=V>",
	    "Element 'meta' with class 'mktoString' is not inside <head>");
	/* Attribute names in any letter case. */
	ok_guided("<META CLASS=mktoString ID=v MKTONAME=V>",
	    "<div class=mktoText id=Ab-9_z mktoname=T></div>");
	bad_guided("", "<div class=mktoText id=\"a b\" mktoName=T></div>",
	    "Element 'div' with class 'mktoText' has an invalid id: only "
	    "letters, digits, '-' and '_' are allowed");
	bad_guided("", "<div class=mktoText id=\"\" mktoName=T></div>",
	    "Element 'div' with class 'mktoText' has an invalid id: only "
	    "letters, digits, '-' and '_' are allowed");
	bad_guided("", "<div class=mktoText id=\"caf\xc3\xa9\" mktoName=T>"
	    "</div>", "Element 'div' with class 'mktoText' has an invalid "
	    "id: only letters, digits, '-' and '_' are allowed");
	bad_guided("", "<span class=mktoVideo id=v></span>",
	    "Element 'span' with class 'mktoVideo' is missing attribute "
	    "'mktoName'");
	bad_guided("", "<div class=mktoText id=t mktoName=\"  \"></div>",
	    "Element 'div' with class 'mktoText' has an empty attribute "
	    "'mktoName'");
	/* The first failing element in document order is reported. */
	bad_guided("<meta class=mktoColor id=c>",
	    "<div class=mktoText></div>",
	    "Element 'meta' with class 'mktoColor' is missing attribute "
	    "'mktoName'");
}

/* Rule 7. */
static void
test_guided_variable_values(void **state)
{
	(void)state;
	ok_guided("<meta class=mktoColor id=c mktoName=C default=#aBc123>",
	    "");
	bad_guided("<meta class=mktoColor id=c mktoName=C default=#abc>", "",
	    "Element 'meta' with class 'mktoColor' has an invalid default: "
	    "a color such as #336699 is required");
	bad_guided("<meta class=mktoColor id=c mktoName=C default=red>", "",
	    "Element 'meta' with class 'mktoColor' has an invalid default: "
	    "a color such as #336699 is required");
	ok_guided("<meta class=mktoBoolean id=b mktoName=B default=FALSE>",
	    "");
	bad_guided("<meta class=mktoBoolean id=b mktoName=B default=yes>",
	    "", "Element 'meta' with class 'mktoBoolean' has an invalid "
	    "default: true or false is required");
	ok_guided("<meta class=mktoString id=s mktoName=S allowHtml=false>",
	    "");
	bad_guided("<meta class=mktoString id=s mktoName=S allowHtml=1>", "",
	    "Element 'meta' with class 'mktoString' has an invalid "
	    "allowHtml: true or false is required");
	ok_guided("<meta class=mktoNumber id=n mktoName=N default=12 min=8 "
	    "max=18 units=px step=0.5>", "");
	bad_guided("<meta class=mktoNumber id=n mktoName=N>", "",
	    "Element 'meta' with class 'mktoNumber' is missing attribute "
	    "'default'");
	bad_guided("<meta class=mktoNumber id=n mktoName=N default=12px>", "",
	    "Element 'meta' with class 'mktoNumber' has an invalid default: "
	    "a number is required");
	bad_guided("<meta class=mktoNumber id=n mktoName=N default=1 "
	    "max=ten>", "", "Element 'meta' with class 'mktoNumber' has an "
	    "invalid max: a number is required");
	ok_guided("<meta class=mktoList id=l mktoName=L values=\"Arial,"
	    "Verdana,Times New Roman\">", "");
	bad_guided("<meta class=mktoList id=l mktoName=L>", "",
	    "Element 'meta' with class 'mktoList' is missing attribute "
	    "'values'");
	bad_guided("<meta class=mktoList id=l mktoName=L values=\" , \">", "",
	    "Element 'meta' with class 'mktoList' has an invalid values: at "
	    "least one value is required");
}

/* Rule 8. */
static void
test_guided_duplicates(void **state)
{
	char msg[LPT_MSG_BYTES], *html;
	size_t i, n = 3000;

	(void)state;
	bad_guided("", "<div class=mktoText id=a mktoName=A></div>"
	    "<div class=mktoImg id=a mktoName=B></div>",
	    "Element with id 'a' is duplicated");
	/* Variables and elements share one set of ids. */
	bad_guided("<meta class=mktoString id=x mktoName=X>",
	    "<div class=mktoForm id=x mktoName=F></div>",
	    "Element with id 'x' is duplicated");
	/* The id whose second use comes first in the document. */
	bad_guided("", "<div class=mktoText id=b mktoName=1></div>"
	    "<div class=mktoText id=a mktoName=2></div>"
	    "<div class=mktoText id=a mktoName=3></div>"
	    "<div class=mktoText id=b mktoName=4></div>",
	    "Element with id 'a' is duplicated");
	/* Ids are case-sensitive; other elements' ids are not compared. */
	ok_guided("", "<div id=a></div><div class=mktoText id=a "
	    "mktoName=A></div><div class=mktoText id=A mktoName=B></div>");
	/* Many elements: the duplicate is found without comparing every
	 * pair (the last id repeats the first). */
	html = malloc(n * 64 + 64);
	assert_non_null(html);
	strcpy(html, "<body>");
	for (i = 0; i < n; i++)
		sprintf(html + strlen(html), "<div class=mktoText id=t%zu "
		    "mktoName=T></div>", i == n - 1 ? (size_t)0 : i);
	assert_int_equal(lpt_check(LPT_GUIDED, html, strlen(html), msg), -1);
	assert_string_equal(msg, "Element with id 't0' is duplicated");
	free(html);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_types),
		cmocka_unit_test(test_both_types),
		cmocka_unit_test(test_guided_classes),
		cmocka_unit_test(test_guided_declarations),
		cmocka_unit_test(test_guided_variable_values),
		cmocka_unit_test(test_guided_duplicates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
