/*
 * model/html.c: parsing with its bounds, tag soup repaired, the walk in
 * document order, attributes and classes, writing back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/html.h"

static struct html_doc *
parse(const char *s)
{
	char err[128];

	return html_parse(s, strlen(s), err, sizeof(err));
}

/* Writes d back into a string the test frees. */
static char *
written(const struct html_doc *d)
{
	size_t len;
	char *s = html_serialize(d, &len);

	assert_non_null(s);
	assert_int_equal(strlen(s), len);
	return s;
}

struct names {
	char	 text[512];
	int	 stop_at;	/* the element count at which to stop, or 0 */
	int	 seen;
};

static int
collect(void *ctx, const struct html_elem *e)
{
	struct names *n = ctx;

	strcat(n->text, html_elem_name(e));
	strcat(n->text, " ");
	n->seen++;
	return n->stop_at != 0 && n->seen == n->stop_at ? 7 : 0;
}

static void
test_parse_and_walk(void **state)
{
	struct html_doc *d;
	struct names n = { .text = "" };

	(void)state;
	d = parse("<!DOCTYPE html><html><head><title>t</title></head>"
	    "<body><div><p>a</p><ul><li>1</li><li>2</li></ul></div>"
	    "<span>s</span></body></html>");
	assert_non_null(d);
	assert_int_equal(html_each(d, collect, &n), 0);
	assert_string_equal(n.text,
	    "html head title body div p ul li li span ");
	assert_int_equal(html_count(d, "li"), 2);
	assert_int_equal(html_count(d, "body"), 1);
	assert_int_equal(html_count(d, "table"), 0);
	/* fn's non-zero result ends the walk and is returned. */
	memset(&n, 0, sizeof(n));
	n.stop_at = 3;
	assert_int_equal(html_each(d, collect, &n), 7);
	assert_string_equal(n.text, "html head title ");
	html_free(d);
	html_free(NULL);
}

static void
test_tag_soup(void **state)
{
	struct html_doc *d;
	struct names n = { .text = "" };
	char *out;

	(void)state;
	/* Implied html and body, unclosed elements closed, a stray end tag
	 * dropped, upper-case names read as lower case. */
	d = parse("<P>one<P>two</b><DIV CLASS=x>three");
	assert_non_null(d);
	assert_int_equal(html_each(d, collect, &n), 0);
	assert_string_equal(n.text, "html body p p div ");
	out = written(d);
	assert_string_equal(out, "<html><body><p>one</p><p>two</p>"
	    "<div class=\"x\">three</div></body></html>\n");
	free(out);
	html_free(d);
	/* Bare text gets a paragraph; bytes that are not UTF-8 do not stop
	 * the parser. */
	d = parse("hello \xff there");
	assert_non_null(d);
	assert_int_equal(html_count(d, "p"), 1);
	html_free(d);
}

/* Keeps the last element named "div" the walk passes. */
static int
grab_div(void *ctx, const struct html_elem *e)
{
	const struct html_elem **out = ctx;

	if (strcmp(html_elem_name(e), "div") == 0)
		*out = e;
	return 0;
}

static void
test_attr_lookup(void **state)
{
	struct html_doc *d;
	const struct html_elem *e = NULL;

	(void)state;
	d = parse("<div class=\" mktoText\tbig\n\" id=a mktoName=\"Main\" "
	    "hidden data-x=\"\" class=\"second\">x</div>");
	assert_non_null(d);
	html_each(d, grab_div, &e);
	assert_non_null(e);
	assert_string_equal(html_elem_attr(e, "id"), "a");
	/* Attribute names in any letter case. */
	assert_string_equal(html_elem_attr(e, "mktoName"), "Main");
	assert_string_equal(html_elem_attr(e, "MKTONAME"), "Main");
	/* Present without a value, present and empty, absent. */
	assert_string_equal(html_elem_attr(e, "hidden"), "");
	assert_string_equal(html_elem_attr(e, "data-x"), "");
	assert_null(html_elem_attr(e, "title"));
	/* The first of two class attributes counts, as in a browser. */
	assert_true(html_elem_has_class(e, "mktoText"));
	assert_true(html_elem_has_class(e, "big"));
	assert_false(html_elem_has_class(e, "second"));
	/* Class words are whole and case-sensitive. */
	assert_false(html_elem_has_class(e, "mktotext"));
	assert_false(html_elem_has_class(e, "mkto"));
	assert_false(html_elem_has_class(e, "Text"));
	assert_false(html_elem_has_class(e, ""));
	assert_string_equal(html_elem_name(html_elem_parent(e)), "body");
	assert_string_equal(html_elem_name(
	    html_elem_parent(html_elem_parent(e))), "html");
	assert_null(html_elem_parent(html_elem_parent(html_elem_parent(e))));
	html_free(d);
}

static void
test_serialize_round_trip(void **state)
{
	static const char *const same[] = {
		/* A template: doctype, variables, references in URLs and
		 * text, UTF-8, void elements, raw script and style. */
		"<!DOCTYPE html>\n"
		"<html><head><meta charset=\"utf-8\">"
		"<meta class=\"mktostring\" id=\"v1\" mktoname=\"Caf\xc3\xa9\">"
		"<style>p > a { color: ${c1}; }</style>"
		"<script>if (a < b && c) { x(\"</p>\"); }</script></head>"
		"<body>\n<a href=\"${link}?a=1&amp;b=\xc3\xa9\">{{my.token}}</a>"
		"<img src=\"x.png\" alt=\"a &quot;b&quot;\"><br>"
		"<input data-on><!-- note -->"
		"<p>1 &lt; 2 &amp;&amp; 3 &gt; 2 \xe2\x82\xac</p>\n</body></html>\n",
		"<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01//EN\" "
		"\"http://www.w3.org/TR/html4/strict.dtd\">\n"
		"<html><body><p>x</p></body></html>\n",
	};
	struct html_doc *d, *again;
	size_t i;
	char *out, *out2;

	(void)state;
	for (i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		d = parse(same[i]);
		assert_non_null(d);
		out = written(d);
		assert_string_equal(out, same[i]);
		/* What is written parses to the same document. */
		again = parse(out);
		assert_non_null(again);
		out2 = written(again);
		assert_string_equal(out, out2);
		free(out2);
		free(out);
		html_free(again);
		html_free(d);
	}
	/* Entities are decoded and written back as characters. */
	d = parse("<p title='&eacute;'>&eacute;&#65;&nbsp;</p>");
	assert_non_null(d);
	out = written(d);
	assert_string_equal(out, "<html><body><p title=\"\xc3\xa9\">"
	    "\xc3\xa9" "A\xc2\xa0</p></body></html>\n");
	free(out);
	html_free(d);
}

static void
test_refusals(void **state)
{
	char err[128], *big;
	size_t i, n;
	struct html_doc *d;

	(void)state;
	assert_null(html_parse("", 0, err, sizeof(err)));
	assert_string_equal(err, "HTML is empty");
	assert_null(html_parse(NULL, 0, err, sizeof(err)));
	assert_null(html_parse("   \n", 4, err, sizeof(err)));
	assert_string_equal(err, "HTML has no element");
	assert_null(html_parse("<!-- only -->", 13, err, sizeof(err)));
	assert_string_equal(err, "HTML has no element");
	/* err may be NULL. */
	assert_null(html_parse("", 0, NULL, 0));

	/* One byte over the bound; the bound itself is read. */
	n = HTML_MAX_BYTES + 1;
	big = malloc(n);
	assert_non_null(big);
	memset(big, 'a', n);
	memcpy(big, "<p>", 3);
	assert_null(html_parse(big, n, err, sizeof(err)));
	assert_string_equal(err, "HTML is larger than 8388608 bytes");
	d = html_parse(big, n - 1, err, sizeof(err));
	assert_non_null(d);
	html_free(d);
	free(big);

	/* html and body are two levels; divs fill the rest. */
	n = HTML_MAX_DEPTH - 2;
	big = malloc(5 * (n + 1) + 1);
	assert_non_null(big);
	big[0] = '\0';
	for (i = 0; i < n; i++)
		strcat(big, "<div>");
	d = html_parse(big, strlen(big), err, sizeof(err));
	assert_non_null(d);
	assert_int_equal(html_count(d, "div"), n);
	html_free(d);
	strcat(big, "<div>");
	assert_null(html_parse(big, strlen(big), err, sizeof(err)));
	assert_string_equal(err, "HTML nests elements deeper than 256");
	free(big);
}

/* The element of d whose id is id. */
static const struct html_elem *
by_id(const struct html_doc *d, const char *id)
{
	const struct html_elem *e = html_elem_by_id(d, id);

	assert_non_null(e);
	return e;
}

/* Inner HTML and text, and the changes the email rendering makes. */
static void
test_inner_and_changes(void **state)
{
	struct html_doc *d = parse("<html><body><div id=\"a\">x <b>y</b> "
	    "${v}</div><table><tbody><tr id=\"m\"><td title=\"${v}\">"
	    "${v}</td></tr></tbody></table><p>${v} ${v}</p></body></html>");
	const struct html_elem *a, *m, *copy;
	size_t len;
	char *s;

	(void)state;
	assert_non_null(d);
	a = by_id(d, "a");
	s = html_elem_inner(a, &len);
	assert_string_equal(s, "x <b>y</b> ${v}");
	assert_int_equal(len, strlen(s));
	free(s);
	s = html_elem_text(a);
	assert_string_equal(s, "x y ${v}");
	free(s);
	/* New inner HTML, read as a fragment; an attribute set. */
	assert_int_equal(html_set_inner(d, a, "<i>new</i> &amp; ${v}",
	    strlen("<i>new</i> &amp; ${v}")), 0);
	html_set_attr(d, a, "class", "c");
	/* A module copied after itself, the original removed. */
	m = by_id(d, "m");
	copy = html_append_copy(d, html_elem_parent(m), m);
	assert_non_null(copy);
	html_set_attr(d, copy, "id", "m2");
	html_replace_text(d, copy, "${v}", "in-copy");
	html_remove(d, m);
	/* Every other reference, in text and attributes. */
	html_replace_text(d, NULL, "${v}", "V&<");
	s = written(d);
	assert_string_equal(s, "<html><body><div id=\"a\" class=\"c\">"
	    "<i>new</i> &amp; V&amp;&lt;</div><table><tbody><tr id=\"m2\">"
	    "<td title=\"in-copy\">in-copy</td></tr></tbody></table>"
	    "<p>V&amp;&lt; V&amp;&lt;</p></body></html>\n");
	free(s);
	html_free(d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_and_walk),
		cmocka_unit_test(test_tag_soup),
		cmocka_unit_test(test_attr_lookup),
		cmocka_unit_test(test_serialize_round_trip),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_inner_and_changes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
