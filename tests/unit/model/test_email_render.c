/*
 * Rendering an email version (model/email_render.c): sections, dynamic
 * content, snippets, images, module instances and their variables, the
 * global variables, the text, lead tokens; and the document accessors
 * the renderer reads through (model/email.c).
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
#include "model/email_render.h"
#include "model/html.h"
#include "model/leadfield.h"
#include "model/template.h"

static const char tpl_html[] =
    "<html><head>"
    "<meta class=\"mktoString\" id=\"title\" mktoName=\"Title\" "
    "default=\"Hello\">"
    "<meta class=\"mktoString\" id=\"label\" mktoName=\"Label\" "
    "default=\"Go\" mktoModuleScope=\"true\">"
    "</head><body>"
    "<h1>${title}</h1>"
    "<div class=\"mktoText\" id=\"intro\" mktoName=\"Intro\">intro</div>"
    "<div class=\"mktoText\" id=\"dyn\" mktoName=\"Dyn\">dyn</div>"
    "<div class=\"mktoSnippet\" id=\"snip\" mktoName=\"Snip\"></div>"
    "<div class=\"mktoImg\" id=\"pic\" mktoName=\"Pic\">"
    "<img src=\"a.png\" alt=\"A\"></div>"
    "<table class=\"mktoContainer\" id=\"c\">"
    "<tr class=\"mktoModule\" id=\"m\" mktoName=\"M\"><td>${label}</td></tr>"
    "<tr class=\"mktoModule\" id=\"n\" mktoName=\"N\" "
    "mktoAddByDefault=\"false\"><td>n</td></tr>"
    "</table></body></html>";

/* The template parsed, with an empty content document. */
struct fixture {
	struct tpl_outline	 o;
	struct html_doc		*doc;
	struct json_object	*content;
	struct email_render_src	 src;
};

/* email_snippet_fn: snippet 7 exists. */
static const char *
snippet(int32_t id, void *arg)
{
	(void)arg;
	return id == 7 ? "<b>snippet seven</b>" : NULL;
}

static void
fixture_init(struct fixture *f, const char *content)
{
	char msg[TPL_MSG_BYTES];

	memset(f, 0, sizeof(*f));
	if (tpl_parse_doc(tpl_html, strlen(tpl_html), &f->o, msg,
	    &f->doc) != 0)
		fail_msg("template: %s", msg);
	f->content = email_doc_parse(content, strlen(content));
	assert_non_null(f->content);
	f->src.o = &f->o;
	f->src.doc = f->doc;
	f->src.content = f->content;
	f->src.snippet = snippet;
}

static void
fixture_clear(struct fixture *f)
{
	tpl_outline_clear(&f->o);
	html_free(f->doc);
	json_object_put(f->content);
}

/* Every default: the template's HTML, its module added by default. */
static void
test_defaults(void **state)
{
	struct fixture f;
	size_t len;
	char *html;

	(void)state;
	fixture_init(&f, "");
	html = email_render(&f.src, &len);
	assert_non_null(html);
	assert_int_equal(len, strlen(html));
	assert_non_null(strstr(html, "<h1>Hello</h1>"));
	assert_non_null(strstr(html, ">intro</div>"));
	assert_non_null(strstr(html, "id=\"m\""));
	assert_non_null(strstr(html, "<td>Go</td>"));
	/* A module not added by default is not there. */
	assert_null(strstr(html, "id=\"n\""));
	assert_null(strstr(html, "${"));
	free(html);
	fixture_clear(&f);
}

/* What the version sets: each kind of section, instances, variables. */
static void
test_sections(void **state)
{
	static const char content[] = "{\"sections\":{"
	    "\"intro\":{\"type\":\"Text\",\"html\":\"<i>set</i>\","
	    "\"text\":\"set\"},"
	    "\"dyn\":{\"type\":\"DynamicContent\",\"segmentation\":\"3\","
	    "\"segments\":{\"Default\":{\"type\":\"HTML\","
	    "\"content\":\"<u>default seg</u>\"}}},"
	    "\"snip\":{\"type\":\"Snippet\",\"snippet\":\"7\"},"
	    "\"pic\":{\"type\":\"Image\",\"value\":\"b.png\","
	    "\"altText\":\"B\"}},"
	    "\"variables\":{\"title\":\"Hi\",\"two:label\":\"Buy\"},"
	    "\"modules\":[{\"id\":\"two\",\"module\":\"m\"},"
	    "{\"id\":\"nn\",\"module\":\"n\"},"
	    "{\"id\":\"one\",\"module\":\"m\"}]}";
	struct fixture f;
	size_t len;
	char *html;
	const char *two, *nn, *one;

	(void)state;
	fixture_init(&f, content);
	html = email_render(&f.src, &len);
	assert_non_null(html);
	assert_non_null(strstr(html, "<h1>Hi</h1>"));
	assert_non_null(strstr(html, "<i>set</i>"));
	assert_non_null(strstr(html, "<u>default seg</u>"));
	assert_non_null(strstr(html, "<b>snippet seven</b>"));
	assert_non_null(strstr(html, "src=\"b.png\""));
	assert_non_null(strstr(html, "alt=\"B\""));
	/* The instances in order, each with its own module-scoped value. */
	two = strstr(html, "id=\"two\"");
	nn = strstr(html, "id=\"nn\"");
	one = strstr(html, "id=\"one\"");
	assert_non_null(two);
	assert_non_null(nn);
	assert_non_null(one);
	assert_true(two < nn && nn < one);
	assert_non_null(strstr(two, "<td>Buy</td>"));
	assert_non_null(strstr(one, "<td>Go</td>"));
	/* The template's own module elements are gone. */
	assert_null(strstr(html, "id=\"m\""));
	assert_null(strstr(html, "id=\"n\""));
	free(html);
	fixture_clear(&f);
}

/* A snippet that does not exist leaves the template's section. */
static void
test_missing_snippet(void **state)
{
	struct fixture f;
	size_t len;
	char *html;

	(void)state;
	fixture_init(&f, "{\"sections\":{\"snip\":{\"type\":\"Snippet\","
	    "\"snippet\":\"8\"}}}");
	html = email_render(&f.src, &len);
	assert_non_null(html);
	assert_null(strstr(html, "snippet seven"));
	assert_non_null(strstr(html, "id=\"snip\""));
	free(html);
	fixture_clear(&f);
}

/* An email not linked to a template renders the HTML it was given. */
static void
test_no_template(void **state)
{
	struct email_render_src src;
	struct json_object *doc = email_doc_parse("", 0);
	size_t len;
	char *html;

	(void)state;
	memset(&src, 0, sizeof(src));
	src.content = doc;
	html = email_render(&src, &len);
	assert_string_equal(html, "");
	assert_int_equal(len, 0);
	free(html);
	email_doc_set_html(doc, "<p>own</p>");
	html = email_render(&src, &len);
	assert_string_equal(html, "<p>own</p>");
	assert_int_equal(len, 10);
	free(html);
	json_object_put(doc);
}

static void
test_text(void **state)
{
	static const char html[] = "<html><body><p>One <b>two</b></p>"
	    "</body></html>";
	char *t;

	(void)state;
	t = email_render_text(html, strlen(html));
	assert_string_equal(t, "One two");
	free(t);
	t = email_render_text("", 0);
	assert_string_equal(t, "");
	free(t);
}

/* email_token_fn: First Name is "Ann"; Last Name is empty. */
static const char *
token(const char *name, void *arg, bool *known)
{
	(void)arg;
	*known = strcasecmp(name, "First Name") == 0 ||
	    strcasecmp(name, "lastName") == 0;
	return strcasecmp(name, "First Name") == 0 ? "Ann" : "";
}

static void
test_fill(void **state)
{
	static const char in[] = "<p title=\"{{lead.first name}}\">Hi "
	    "{{lead.First Name}}, {{lead.lastName:default=friend}} "
	    "{{lead.Nope}}</p>";
	char *html = strdup(in), *out;
	size_t len = strlen(in);

	(void)state;
	out = email_render_fill(html, &len, token, NULL);
	assert_non_null(out);
	assert_int_equal(len, strlen(out));
	assert_non_null(strstr(out, "title=\"Ann\""));
	assert_non_null(strstr(out, "Hi Ann, friend {{lead.Nope}}"));
	free(out);
	/* Text that is not HTML comes back as it is. */
	html = strdup("");
	len = 0;
	out = email_render_fill(html, &len, token, NULL);
	assert_string_equal(out, "");
	free(out);
}

/* A lead's values for its tokens: display name or REST name, any case. */
static void
test_lead_value(void **state)
{
	struct lead_field f[2];
	struct lead_schema s;
	const char *vals[2] = { "Ann", NULL };
	struct email_lead lead = { &s, vals }, none = { &s, NULL };
	char *out;
	bool known;

	(void)state;
	memset(f, 0, sizeof(f));
	memset(&s, 0, sizeof(s));
	f[0].name = (char *)"firstName";
	f[0].display_name = (char *)"First Name";
	f[1].name = (char *)"lastName";
	f[1].display_name = (char *)"Last Name";
	s.fields = f;
	s.count = 2;
	assert_string_equal(email_render_lead_value("first name", &lead,
	    &known), "Ann");
	assert_true(known);
	assert_string_equal(email_render_lead_value("FIRSTNAME", &lead,
	    &known), "Ann");
	assert_null(email_render_lead_value("lastName", &lead, &known));
	assert_true(known);
	assert_null(email_render_lead_value("nope", &lead, &known));
	assert_false(known);
	assert_null(email_render_lead_value("First Name", &none, &known));
	assert_true(known);
	out = email_fill_tokens("Hi {{lead.First Name}} "
	    "{{lead.Last Name:default=you}} {{lead.x}}",
	    email_render_lead_value, &lead);
	assert_string_equal(out, "Hi Ann you {{lead.x}}");
	free(out);
}

/* The accessors the renderer and the handlers read the document by. */
static void
test_accessors(void **state)
{
	static const char text0[] = "{\"sections\":{\"a\":"
	    "{\"type\":\"Snippet\",\"snippet\":\"12\"},\"b\":{\"snippet\":"
	    "\"x\"}},\"variables\":{\"title\":\"Set\"}}";
	struct json_object *doc = email_doc_parse(text0, strlen(text0));
	struct fixture f;
	char *text;

	(void)state;
	assert_non_null(doc);
	assert_string_equal(email_doc_str(email_doc_section(doc, "a"), "type",
	    NULL), "Snippet");
	assert_null(email_doc_str(NULL, "type", NULL));
	assert_string_equal(email_doc_str(doc, "none", "d"), "d");
	assert_int_equal(email_doc_ref(email_doc_section(doc, "a"),
	    "snippet"), 12);
	assert_int_equal(email_doc_ref(email_doc_section(doc, "b"),
	    "snippet"), 0);
	assert_string_equal(email_doc_html(doc), "");
	assert_null(email_doc_text(doc));
	email_doc_set_html(doc, "<p>h</p>");
	email_doc_set_text(doc, "t");
	assert_string_equal(email_doc_html(doc), "<p>h</p>");
	assert_string_equal(email_doc_text(doc), "t");
	email_doc_set_text(doc, NULL);
	assert_null(email_doc_text(doc));
	text = email_doc_text_of(doc);
	assert_non_null(strstr(text, "\"html\":\"<p>h<\\/p>\""));
	free(text);
	json_object_put(doc);

	fixture_init(&f, "{\"variables\":{\"title\":\"Set\","
	    "\"one:label\":\"L\"}}");
	assert_string_equal(email_variable_value(f.content, &f.o, 0, NULL),
	    "Set");
	assert_string_equal(email_variable_value(f.content, &f.o, 1, "one"),
	    "L");
	assert_string_equal(email_variable_value(f.content, &f.o, 1, "two"),
	    "Go");
	assert_true(email_module_uses(&f.o.modules[0], 1));
	assert_false(email_module_uses(&f.o.modules[1], 1));
	fixture_clear(&f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_sections),
		cmocka_unit_test(test_missing_snippet),
		cmocka_unit_test(test_no_template),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_fill),
		cmocka_unit_test(test_lead_value),
		cmocka_unit_test(test_accessors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
