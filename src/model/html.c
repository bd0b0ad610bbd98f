/*
 * HTML through libxml2's HTML parser (html.h).
 *
 * Parsing: htmlReadMemory in UTF-8 with HTML_PARSE_RECOVER (tag soup is
 * repaired the way browsers repair it: implied <html>, <head> and <body>,
 * unclosed elements closed, stray end tags dropped), HTML_PARSE_NOERROR
 * and HTML_PARSE_NOWARNING (nothing is written to stderr; the parser's
 * complaints are not the service's), HTML_PARSE_NONET (no fetching of
 * anything a document names) and HTML_PARSE_NODEFDTD (no DOCTYPE is added
 * to a document that had none, so writing it back keeps what the client
 * sent).  HTML_PARSE_NOBLANKS is not used: white space between elements is
 * content, and dropping it would change the document written back.
 * libxml2 writes tag and attribute names in lower case, as browsers do
 * (HTML names are case-insensitive), so html_elem_attr compares names in
 * any letter case.
 *
 * Writing back is done here, over the tree, rather than by
 * htmlDocDumpMemory: libxml2's writer percent-encodes href, src and
 * action values ("${link}" becomes "%24%7Blink%7D") and, without a
 * <meta charset>, turns every non-ASCII character into an entity, which
 * would break the ${variable} and {{token}} references templates hold.
 * The writer follows the HTML standard's serialisation: void elements
 * (libxml2's table of elements without content) get no end tag, text is
 * escaped except inside <script> and <style>, attribute values are
 * double-quoted.  It does not recurse, so depth costs no stack.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

#include "model/html.h"
#include "util/buf.h"
#include "util/xmalloc.h"

/* The longest text html_serialize writes: escaping at most sextuples. */
#define HTML_MAX_OUT		((size_t)8 * HTML_MAX_BYTES)

struct html_doc {
	xmlDoc	*doc;
};

/* An element is libxml2's node; struct html_elem is never defined. */
static const xmlNode *
node_of(const struct html_elem *e)
{
	return (const xmlNode *)(const void *)e;
}

static const struct html_elem *
elem_of(const xmlNode *n)
{
	return (const struct html_elem *)(const void *)n;
}

static bool
is_elem(const xmlNode *n)
{
	return n != NULL && n->type == XML_ELEMENT_NODE;
}

/* The first element among n and its following siblings, or NULL. */
static xmlNode *
elem_from(xmlNode *n)
{
	while (n != NULL && !is_elem(n))
		n = n->next;
	return n;
}

/*
 * The element after n in document order (its first child element, else
 * the next element of it or of its nearest ancestor), or NULL at the end.
 * *depth follows: +1 into a child, -1 for each ancestor left.
 */
static xmlNode *
next_elem(xmlNode *n, size_t *depth)
{
	xmlNode *c;

	if ((c = elem_from(n->children)) != NULL) {
		(*depth)++;
		return c;
	}
	for (;;) {
		if ((c = elem_from(n->next)) != NULL)
			return c;
		n = n->parent;
		if (!is_elem(n))
			return NULL;
		(*depth)--;
	}
}

static void
set_err(char *err, size_t errsz, const char *what)
{
	if (err != NULL && errsz > 0)
		snprintf(err, errsz, "%s", what);
}

/* See html.h. */
struct html_doc *
html_parse(const char *text, size_t len, char *err, size_t errsz)
{
	struct html_doc *d = NULL;
	xmlDoc *doc = NULL;
	xmlNode *n = NULL;
	size_t depth = 1;
	char msg[64];

	set_err(err, errsz, "");
	if (text == NULL || len == 0) {
		set_err(err, errsz, "HTML is empty");
		goto out;
	}
	if (len > HTML_MAX_BYTES) {
		snprintf(msg, sizeof(msg), "HTML is larger than %d bytes",
		    HTML_MAX_BYTES);
		set_err(err, errsz, msg);
		goto out;
	}
	doc = htmlReadMemory(text, (int)len, NULL, "UTF-8",
	    HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
	    HTML_PARSE_NONET | HTML_PARSE_NODEFDTD);
	if (doc == NULL || (n = elem_from(doc->children)) == NULL) {
		set_err(err, errsz, "HTML has no element");
		goto out;
	}
	for (; n != NULL; n = next_elem(n, &depth)) {
		if (depth > HTML_MAX_DEPTH) {
			snprintf(msg, sizeof(msg), "HTML nests elements "
			    "deeper than %d", HTML_MAX_DEPTH);
			set_err(err, errsz, msg);
			goto out;
		}
	}
	d = xmalloc(sizeof(*d));
	d->doc = doc;
	doc = NULL;
out:
	xmlFreeDoc(doc);
	return d;
}

/* See html.h. */
void
html_free(struct html_doc *d)
{
	if (d == NULL)
		return;
	xmlFreeDoc(d->doc);
	free(d);
}

/* See html.h. */
int
html_each(const struct html_doc *d,
    int (*fn)(void *ctx, const struct html_elem *e), void *ctx)
{
	xmlNode *n;
	size_t depth = 1;
	int r = 0;

	for (n = elem_from(d->doc->children); n != NULL && r == 0;
	    n = next_elem(n, &depth))
		r = fn(ctx, elem_of(n));
	return r;
}

/* See html.h. */
const struct html_elem *
html_elem_by_id(const struct html_doc *d, const char *id)
{
	xmlNode *n;
	size_t depth = 0;
	const char *v;

	for (n = elem_from(d->doc->children); n != NULL;
	    n = next_elem(n, &depth))
		if ((v = html_elem_attr(elem_of(n), "id")) != NULL &&
		    strcmp(v, id) == 0)
			return elem_of(n);
	return NULL;
}

/* See html.h. */
const struct html_elem *
html_elem_parent(const struct html_elem *e)
{
	const xmlNode *p = node_of(e)->parent;

	return is_elem(p) ? elem_of(p) : NULL;
}

/* See html.h. */
const char *
html_elem_name(const struct html_elem *e)
{
	return (const char *)node_of(e)->name;
}

/* See html.h. */
const char *
html_elem_attr(const struct html_elem *e, const char *name)
{
	const xmlAttr *a;
	const xmlNode *v;

	for (a = node_of(e)->properties; a != NULL; a = a->next) {
		if (strcasecmp((const char *)a->name, name) != 0)
			continue;
		/*
		 * The HTML parser stores a value as one text node, and an
		 * attribute written without one (<input disabled>) with
		 * none: that one reads as "".
		 */
		v = a->children;
		if (v != NULL && v->type == XML_TEXT_NODE && v->content != NULL)
			return (const char *)v->content;
		return "";
	}
	return NULL;
}

/* White space as the HTML standard splits a class attribute on it. */
static bool
is_html_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

/* See html.h. */
bool
html_elem_has_class(const struct html_elem *e, const char *word)
{
	const char *p, *start;
	size_t wlen = strlen(word);

	if ((p = html_elem_attr(e, "class")) == NULL || wlen == 0)
		return false;
	for (;;) {
		while (is_html_space(*p))
			p++;
		if (*p == '\0')
			return false;
		start = p;
		while (*p != '\0' && !is_html_space(*p))
			p++;
		if ((size_t)(p - start) == wlen &&
		    memcmp(start, word, wlen) == 0)
			return true;
	}
}

/* Whether needle is in an attribute value of element n. */
static bool
attrs_mention(const xmlNode *n, const char *needle)
{
	const xmlAttr *a;

	for (a = n->properties; a != NULL; a = a->next)
		if (a->children != NULL && a->children->type == XML_TEXT_NODE &&
		    a->children->content != NULL &&
		    strstr((const char *)a->children->content, needle) != NULL)
			return true;
	return false;
}

/* See html.h.  A walk of e's subtree without recursion. */
bool
html_elem_mentions(const struct html_elem *e, const char *needle)
{
	const xmlNode *top = node_of(e), *n = top;

	while (n != NULL) {
		if (is_elem(n) && attrs_mention(n, needle))
			return true;
		if ((n->type == XML_TEXT_NODE ||
		    n->type == XML_CDATA_SECTION_NODE) && n->content != NULL &&
		    strstr((const char *)n->content, needle) != NULL)
			return true;
		if (is_elem(n) && n->children != NULL) {
			n = n->children;
			continue;
		}
		while (n != top && n->next == NULL)
			n = n->parent;
		n = n == top ? NULL : n->next;
	}
	return false;
}

/* See html.h. */
size_t
html_count(const struct html_doc *d, const char *tag)
{
	xmlNode *n;
	size_t depth = 1, count = 0;

	for (n = elem_from(d->doc->children); n != NULL;
	    n = next_elem(n, &depth))
		if (strcasecmp((const char *)n->name, tag) == 0)
			count++;
	return count;
}

/* Appends s with &, <, > (and " when quoted) as character references. */
static void
add_escaped(struct buf *b, const char *s, bool quoted)
{
	const char *p;

	for (p = s; *p != '\0'; p++) {
		if (*p == '&')
			buf_adds(b, "&amp;");
		else if (*p == '<')
			buf_adds(b, "&lt;");
		else if (*p == '>')
			buf_adds(b, "&gt;");
		else if (*p == '"' && quoted)
			buf_adds(b, "&quot;");
		else
			buf_addc(b, *p);
	}
}

/* Whether n's text is written as it is: inside <script> or <style>. */
static bool
is_raw_text(const xmlNode *n)
{
	const xmlNode *p = n->parent;

	return is_elem(p) &&
	    (strcasecmp((const char *)p->name, "script") == 0 ||
	    strcasecmp((const char *)p->name, "style") == 0);
}

/* Whether element n has no content and no end tag (<br>, <img>, ...). */
static bool
is_void(const xmlNode *n)
{
	const htmlElemDesc *desc = htmlTagLookup(n->name);

	return desc != NULL && desc->empty;
}

static void
write_start_tag(struct buf *b, const xmlNode *n)
{
	const xmlAttr *a;

	buf_addc(b, '<');
	buf_adds(b, (const char *)n->name);
	for (a = n->properties; a != NULL; a = a->next) {
		buf_addc(b, ' ');
		buf_adds(b, (const char *)a->name);
		if (a->children == NULL)
			continue;
		buf_adds(b, "=\"");
		if (a->children->type == XML_TEXT_NODE &&
		    a->children->content != NULL)
			add_escaped(b, (const char *)a->children->content,
			    true);
		buf_addc(b, '"');
	}
	buf_addc(b, '>');
}

static void
write_doctype(struct buf *b, const xmlDtd *dtd)
{
	buf_adds(b, "<!DOCTYPE ");
	buf_adds(b, dtd->name != NULL ? (const char *)dtd->name : "html");
	if (dtd->ExternalID != NULL) {
		buf_adds(b, " PUBLIC \"");
		buf_adds(b, (const char *)dtd->ExternalID);
		buf_addc(b, '"');
		if (dtd->SystemID != NULL) {
			buf_adds(b, " \"");
			buf_adds(b, (const char *)dtd->SystemID);
			buf_addc(b, '"');
		}
	} else if (dtd->SystemID != NULL) {
		buf_adds(b, " SYSTEM \"");
		buf_adds(b, (const char *)dtd->SystemID);
		buf_addc(b, '"');
	}
	buf_addc(b, '>');
}

/* Writes what n is before its children (all of it for a leaf). */
static void
write_open(struct buf *b, const xmlNode *n)
{
	const char *s = (const char *)n->content;

	switch (n->type) {
	case XML_ELEMENT_NODE:
		write_start_tag(b, n);
		break;
	case XML_TEXT_NODE:
		if (s == NULL)
			break;
		if (is_raw_text(n))
			buf_adds(b, s);
		else
			add_escaped(b, s, false);
		break;
	case XML_CDATA_SECTION_NODE:
		/* The parser's raw text of <script> and <style>. */
		if (s != NULL)
			buf_adds(b, s);
		break;
	case XML_COMMENT_NODE:
		buf_adds(b, "<!--");
		if (s != NULL)
			buf_adds(b, s);
		buf_adds(b, "-->");
		break;
	case XML_PI_NODE:
		buf_adds(b, "<?");
		buf_adds(b, (const char *)n->name);
		if (s != NULL) {
			buf_addc(b, ' ');
			buf_adds(b, s);
		}
		buf_addc(b, '>');
		break;
	case XML_DTD_NODE:
		write_doctype(b, (const xmlDtd *)(const void *)n);
		break;
	default:
		break;
	}
}

/* Writes what n is after its children: an element's end tag. */
static void
write_close(struct buf *b, const xmlNode *n)
{
	if (is_elem(n) && !is_void(n)) {
		buf_adds(b, "</");
		buf_adds(b, (const char *)n->name);
		buf_addc(b, '>');
	}
	/* Nodes of the document itself each end a line, as libxml2 does. */
	if (n->parent != NULL && (n->parent->type == XML_HTML_DOCUMENT_NODE ||
	    n->parent->type == XML_DOCUMENT_NODE))
		buf_addc(b, '\n');
}

/*
 * Writes n, its following siblings and everything inside them, climbing
 * no higher than top (NULL: the document), without recursion.
 */
static void
write_nodes(struct buf *b, const xmlNode *n, const xmlNode *top)
{
	while (n != NULL) {
		write_open(b, n);
		if (is_elem(n) && !is_void(n) && n->children != NULL) {
			n = n->children;
			continue;
		}
		/* Close n, then each ancestor whose last child is closed. */
		for (;;) {
			write_close(b, n);
			if (n->next != NULL) {
				n = n->next;
				break;
			}
			n = n->parent;
			if (n == top || !is_elem(n)) {
				n = NULL;
				break;
			}
		}
	}
}

/* The text of b, or NULL (freed) when it grew past its bound. */
static char *
buf_result(struct buf *b, size_t *len)
{
	if (!buf_ok(b)) {
		buf_clear(b);
		return NULL;
	}
	*len = b->len;
	return b->data;
}

/* See html.h. */
char *
html_serialize(const struct html_doc *d, size_t *len)
{
	struct buf b;

	*len = 0;
	buf_init(&b, HTML_MAX_OUT);
	buf_adds(&b, "");
	write_nodes(&b, d->doc->children, NULL);
	return buf_result(&b, len);
}

/* See html.h. */
char *
html_elem_inner(const struct html_elem *e, size_t *len)
{
	const xmlNode *n = node_of(e);
	struct buf b;

	*len = 0;
	buf_init(&b, HTML_MAX_OUT);
	buf_adds(&b, "");
	write_nodes(&b, n->children, n);
	return buf_result(&b, len);
}

/* See html.h. */
char *
html_elem_text(const struct html_elem *e)
{
	xmlChar *t = xmlNodeGetContent(node_of(e));
	char *s = xstrdup(t != NULL ? (const char *)t : "");

	xmlFree(t);
	return s;
}

/* ---- Changing a document ------------------------------------------------ */

/* An element of d as libxml2's node, to change (d is the caller's). */
static xmlNode *
node_rw(const struct html_elem *e)
{
	return (xmlNode *)(uintptr_t)(const void *)e;
}

/* See html.h. */
int
html_set_inner(struct html_doc *d, const struct html_elem *e,
    const char *html, size_t len)
{
	xmlNode *n = node_rw(e), *c, *body = NULL, *copy;
	struct html_doc *frag;
	size_t depth = 0;
	char *wrapped;
	size_t wlen = len + 32;

	wrapped = xmalloc(wlen);
	(void)snprintf(wrapped, wlen, "<html><body>%.*s</body></html>",
	    (int)len, html);
	frag = html_parse(wrapped, strlen(wrapped), NULL, 0);
	free(wrapped);
	if (frag == NULL)
		return -1;
	for (c = elem_from(frag->doc->children); c != NULL;
	    c = next_elem(c, &depth))
		if (strcasecmp((const char *)c->name, "body") == 0) {
			body = c;
			break;
		}
	while ((c = n->children) != NULL) {
		xmlUnlinkNode(c);
		xmlFreeNode(c);
	}
	for (c = body != NULL ? body->children : NULL; c != NULL;
	    c = c->next) {
		if ((copy = xmlDocCopyNode(c, d->doc, 1)) != NULL)
			(void)xmlAddChild(n, copy);
	}
	html_free(frag);
	return 0;
}

/* See html.h. */
void
html_set_attr(struct html_doc *d, const struct html_elem *e,
    const char *name, const char *value)
{
	(void)d;
	(void)xmlSetProp(node_rw(e), (const xmlChar *)name,
	    (const xmlChar *)value);
}

/* See html.h. */
void
html_remove(struct html_doc *d, const struct html_elem *e)
{
	xmlNode *n = node_rw(e);

	(void)d;
	xmlUnlinkNode(n);
	xmlFreeNode(n);
}

/* See html.h. */
const struct html_elem *
html_append_copy(struct html_doc *d, const struct html_elem *parent,
    const struct html_elem *e)
{
	xmlNode *copy = xmlDocCopyNode(node_rw(e), d->doc, 1);

	if (copy == NULL)
		return NULL;
	return elem_of(xmlAddChild(node_rw(parent), copy));
}

/* s with every needle replaced by value (a heap string), or NULL if none. */
static char *
replaced(const char *s, const char *needle, const char *value)
{
	struct buf b;
	const char *p, *hit;
	size_t nlen = strlen(needle);

	if (s == NULL || nlen == 0 || strstr(s, needle) == NULL)
		return NULL;
	buf_init(&b, HTML_MAX_OUT);
	for (p = s; (hit = strstr(p, needle)) != NULL; p = hit + nlen) {
		buf_add(&b, p, (size_t)(hit - p));
		buf_adds(&b, value);
	}
	buf_adds(&b, p);
	if (!buf_ok(&b)) {
		buf_clear(&b);
		return NULL;
	}
	return b.data;
}

/* Passes n's text or attribute values through fn. */
static void
map_in(xmlNode *n, html_text_fn fn, void *arg)
{
	xmlAttr *a;
	char *s;

	if (n->type == XML_TEXT_NODE && n->content != NULL &&
	    (s = fn((const char *)n->content, arg)) != NULL) {
		xmlNodeSetContent(n, (const xmlChar *)s);
		free(s);
	}
	if (!is_elem(n))
		return;
	for (a = n->properties; a != NULL; a = a->next)
		if (a->children != NULL && a->children->type == XML_TEXT_NODE &&
		    a->children->content != NULL &&
		    (s = fn((const char *)a->children->content, arg)) != NULL) {
			(void)xmlSetProp(n, a->name, (const xmlChar *)s);
			free(s);
		}
}

struct replace_arg {
	const char	*needle;
	const char	*value;
};

static char *
replace_fn(const char *text, void *arg)
{
	const struct replace_arg *r = arg;

	return replaced(text, r->needle, r->value);
}

/* See html.h. */
void
html_replace_text(struct html_doc *d, const struct html_elem *root,
    const char *needle, const char *value)
{
	struct replace_arg r = { needle, value };

	html_map_text(d, root, replace_fn, &r);
}

/* See html.h. */
void
html_map_text(struct html_doc *d, const struct html_elem *root,
    html_text_fn fn, void *arg)
{
	xmlNode *top = root != NULL ? node_rw(root) : NULL;
	xmlNode *n = top != NULL ? top : d->doc->children;

	while (n != NULL) {
		map_in(n, fn, arg);
		if (n->children != NULL && (is_elem(n) || n == top)) {
			n = n->children;
			continue;
		}
		while (n != NULL && n != top && n->next == NULL) {
			n = n->parent;
			if (n == NULL || n->type == XML_HTML_DOCUMENT_NODE ||
			    n->type == XML_DOCUMENT_NODE)
				n = NULL;
		}
		n = n != NULL && n != top ? n->next : NULL;
	}
}
