/*
 * The content document of an email version (model/email.c): parsing,
 * sections and variables set over the defaults, sections and segments
 * made and read, the module instances and the changes of the module
 * operations.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "model/email.h"
#include "model/template.h"

static void
test_doc(void **state)
{
	struct json_object *doc, *s;
	const char *text;

	(void)state;
	assert_null(email_doc_parse("[1]", 3));
	assert_null(email_doc_parse("{", 1));
	doc = email_doc_parse("", 0);
	assert_non_null(doc);
	assert_null(email_doc_section(doc, "intro"));
	assert_null(email_doc_variable(doc, "bg", NULL));
	s = json_object_new_object();
	json_object_object_add(s, "type", json_object_new_string("Text"));
	email_doc_set_section(doc, "intro", s);
	email_doc_set_variable(doc, "bg", NULL, "#000000");
	email_doc_set_variable(doc, "label", "hero", "Go");
	assert_ptr_equal(email_doc_section(doc, "intro"), s);
	assert_string_equal(email_doc_variable(doc, "bg", NULL), "#000000");
	assert_string_equal(email_doc_variable(doc, "label", "hero"), "Go");
	assert_null(email_doc_variable(doc, "label", NULL));
	/* Written and read back, the document is the same. */
	text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN);
	s = email_doc_parse(text, strlen(text));
	assert_non_null(s);
	assert_string_equal(email_doc_variable(s, "label", "hero"), "Go");
	json_object_put(s);
	json_object_put(doc);
}

static void
test_modules(void **state)
{
	static const char tpl[] = "<html><body><div class=\"mktoText\" "
	    "id=\"t\" mktoName=\"T\">x</div><table class=\"mktoContainer\" "
	    "id=\"c\"><tr class=\"mktoModule\" id=\"a\" mktoName=\"A\"><td>a"
	    "</td></tr><tr class=\"mktoModule\" id=\"b\" mktoName=\"B\" "
	    "mktoAddByDefault=\"false\"><td>b</td></tr></table></body></html>";
	struct tpl_outline o;
	struct json_object *doc, *mods;
	char msg[TPL_MSG_BYTES];

	(void)state;
	assert_int_equal(tpl_parse(tpl, strlen(tpl), &o, msg), 0);
	doc = email_doc_parse("", 0);
	/* The template's modules added by default, under their own ids. */
	mods = email_doc_modules(doc, &o);
	assert_int_equal(json_object_array_length(mods), 1);
	assert_int_equal(email_modules_find(mods, "a"), 0);
	assert_int_equal(email_modules_find(mods, "b"), -1);
	assert_int_equal(email_modules_template(mods, 0, &o), 0);
	json_object_array_add(mods, email_module_new("b2", "b"));
	email_doc_set_modules(doc, mods);
	mods = email_doc_modules(doc, &o);
	assert_int_equal(json_object_array_length(mods), 2);
	assert_int_equal(email_modules_find(mods, "b2"), 1);
	assert_int_equal(email_modules_template(mods, 1, &o), 1);
	json_object_put(mods);
	json_object_put(doc);
	tpl_outline_clear(&o);
}

/* A lead with First Name "Ada", an empty Company, and no other field. */
static const char *
lead_value(const char *name, void *arg, bool *known)
{
	bool has_lead = *(bool *)arg;

	*known = true;
	if (strcasecmp(name, "First Name") == 0 ||
	    strcmp(name, "firstName") == 0)
		return has_lead ? "Ada" : NULL;
	if (strcasecmp(name, "Company Name") == 0)
		return has_lead ? "" : NULL;
	*known = false;
	return NULL;
}

static void
fills(bool has_lead, const char *in, const char *want)
{
	char *out = email_fill_tokens(in, lead_value, &has_lead);

	if (want == NULL) {
		assert_null(out);
		return;
	}
	assert_non_null(out);
	assert_string_equal(out, want);
	free(out);
}

static void
test_fill_tokens(void **state)
{
	(void)state;
	fills(true, "Hi {{lead.First Name}}!", "Hi Ada!");
	fills(true, "{{lead.firstName}}/{{lead.first name}}", "Ada/Ada");
	fills(true, "Hi {{lead.First Name:default=there}}", "Hi Ada");
	fills(true, "at {{lead.Company Name:default=your company}}.",
	    "at your company.");
	fills(true, "at {{lead.Company Name}}.", "at .");
	/* Without a lead: defaults, else nothing. */
	fills(false, "Hi {{lead.First Name:default=there}}, {{lead.First Name}}",
	    "Hi there, ");
	/* Tokens of no field, and text that is not a token, stay. */
	fills(true, "{{lead.Shoe Size}} {{lead.First Name}}",
	    "{{lead.Shoe Size}} Ada");
	fills(true, "{{lead.Shoe Size}}", NULL);
	fills(true, "no tokens {{my.token}}", NULL);
	fills(true, "{{lead.First Name", NULL);
	fills(true, "{{lead.First Name}} {{lead.", "Ada {{lead.");
	fills(true, "{{lead.}}", NULL);
	fills(true, "{{lead.First Name:default=}}x", "Adax");
	fills(false, "{{lead.First Name:default=}}x", "x");
	assert_null(email_fill_tokens(NULL, lead_value, NULL));
}

/* Sections and the segments of dynamic content, made and read back. */
static void
test_sections(void **state)
{
	struct json_object *s, *seg;
	char *text;

	(void)state;
	assert_null(email_section_type(NULL));
	assert_null(email_section_segment(NULL, "Default"));
	s = email_section_new("Text");
	email_section_set(s, EMAIL_SEC_HTML, "<p>a</p>");
	email_section_set(s, EMAIL_SEC_TEXT, "a");
	assert_string_equal(email_section_type(s), "Text");
	assert_string_equal(email_doc_str(s, EMAIL_SEC_HTML, NULL), "<p>a</p>");
	json_object_put(s);
	/* Ids are kept as strings, as a section has always stored them. */
	s = email_section_new("DynamicContent");
	email_section_set_ref(s, EMAIL_SEC_SEGMENTATION, 42);
	assert_int_equal(email_doc_ref(s, EMAIL_SEC_SEGMENTATION), 42);
	assert_null(email_section_segment(s, "Default"));
	email_section_set_segment(s, "Default", "HTML", "<b>d</b>");
	email_section_set_segment(s, "Gold", "Text", "g");
	seg = email_section_segment(s, "Gold");
	assert_non_null(seg);
	assert_string_equal(email_segment_type(seg), "Text");
	assert_string_equal(email_segment_content(seg, "x"), "g");
	assert_string_equal(email_segment_type(NULL), "HTML");
	assert_string_equal(email_segment_content(NULL, "dflt"), "dflt");
	text = strdup(json_object_to_json_string_ext(s,
	    JSON_C_TO_STRING_PLAIN));
	assert_string_equal(text, "{\"type\":\"DynamicContent\","
	    "\"segmentation\":\"42\",\"segments\":{\"Default\":"
	    "{\"type\":\"HTML\",\"content\":\"<b>d<\\/b>\"},\"Gold\":"
	    "{\"type\":\"Text\",\"content\":\"g\"}}}");
	free(text);
	json_object_put(s);
}

/* The changes the module operations make to the instances. */
static void
test_module_ops(void **state)
{
	struct json_object *doc = email_doc_parse("", 0), *mods;
	char buf[16];

	(void)state;
	mods = json_object_new_array();
	json_object_array_add(mods, email_module_new("a", "m"));
	mods = email_modules_insert(mods, 0, email_module_new("b", "n"));
	mods = email_modules_insert(mods, 9, email_module_new("a-2", "m"));
	assert_string_equal(json_object_to_json_string_ext(mods,
	    JSON_C_TO_STRING_PLAIN), "[{\"id\":\"b\",\"module\":\"n\"},"
	    "{\"id\":\"a\",\"module\":\"m\"},{\"id\":\"a-2\","
	    "\"module\":\"m\"}]");
	assert_string_equal(email_module_id(mods, 1), "a");
	assert_string_equal(email_module_of(mods, 1), "m");
	assert_null(email_module_id(mods, 3));
	assert_null(email_module_of(mods, 3));
	/* Ids: the name given, the base when free, else base-N. */
	assert_string_equal(email_modules_new_id(mods, "x", "a", buf,
	    sizeof(buf)), "x");
	assert_string_equal(email_modules_new_id(mods, NULL, "c", buf,
	    sizeof(buf)), "c");
	assert_string_equal(email_modules_new_id(mods, NULL, "a", buf,
	    sizeof(buf)), "a-3");
	assert_null(email_modules_new_id(mods, NULL, "a", buf, 3));
	/* A rename moves the instance's module-scoped values with it. */
	email_doc_set_variable(doc, "label", "a", "Buy");
	email_doc_set_variable(doc, "label", "ab", "Stay");
	email_doc_set_variable(doc, "title", NULL, "T");
	email_module_set_id(mods, 1, "hero");
	email_doc_move_module_values(doc, "a", "hero");
	assert_string_equal(email_module_id(mods, 1), "hero");
	assert_string_equal(email_doc_variable(doc, "label", "hero"), "Buy");
	assert_null(email_doc_variable(doc, "label", "a"));
	assert_string_equal(email_doc_variable(doc, "label", "ab"), "Stay");
	assert_string_equal(email_doc_variable(doc, "title", NULL), "T");
	json_object_put(mods);
	json_object_put(doc);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_doc),
		cmocka_unit_test(test_modules),
		cmocka_unit_test(test_fill_tokens),
		cmocka_unit_test(test_sections),
		cmocka_unit_test(test_module_ops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
