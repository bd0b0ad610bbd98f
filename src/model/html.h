/*
 * The one place that parses HTML (docs/assets.md): libxml2's HTML parser,
 * which reads tag soup the way browsers do and can write the tree back.
 * Template and content HTML of every asset group goes through here, never
 * through string searching.  Pure code (no I/O besides libxml2's memory).
 */
#ifndef MAUTO_MODEL_HTML_H
#define MAUTO_MODEL_HTML_H

#include <stdbool.h>
#include <stddef.h>

struct html_doc;
struct html_elem;

/*
 * The largest HTML accepted (bytes); bigger input is refused.  Email
 * templates of 5 MB are parsed (docs/assets.md); what a client sends is
 * bounded by MAX_BODY_BYTES long before this.
 */
#define HTML_MAX_BYTES		(8 * 1024 * 1024)
/* Elements nested deeper than this make the document refused. */
#define HTML_MAX_DEPTH		256

/*
 * Parses text (len bytes, not necessarily terminated) as HTML in UTF-8.
 * Returns the document, or NULL when it cannot be read as HTML at all
 * (empty, over HTML_MAX_BYTES, nested over HTML_MAX_DEPTH, no element);
 * then, if err is not NULL, writes why into err (errsz bytes).
 */
struct html_doc	*html_parse(const char *text, size_t len, char *err,
		    size_t errsz);
void		 html_free(struct html_doc *d);

/*
 * Calls fn for each element in document order, until fn returns non-zero
 * (which html_each returns); 0 when every element was visited.
 */
int	html_each(const struct html_doc *d,
	    int (*fn)(void *ctx, const struct html_elem *e), void *ctx);

/* The first element of d whose id attribute is id, or NULL. */
const struct html_elem *html_elem_by_id(const struct html_doc *d,
	    const char *id);

/* The element that holds e, or NULL for the root element. */
const struct html_elem *html_elem_parent(const struct html_elem *e);
/* The element's lower-case tag name ("div"). */
const char	*html_elem_name(const struct html_elem *e);
/* An attribute's value (NULL when absent); valid while d lives. */
const char	*html_elem_attr(const struct html_elem *e, const char *name);
/* Whether the class attribute holds word (white-space separated). */
bool		 html_elem_has_class(const struct html_elem *e,
		    const char *word);
/*
 * Whether needle occurs in the text or in an attribute value of e or of
 * an element inside it (a ${variable} reference, say): a search of the
 * parsed values, not of HTML.
 */
bool		 html_elem_mentions(const struct html_elem *e,
		    const char *needle);
/* The number of elements named tag in d (lower-case). */
size_t		 html_count(const struct html_doc *d, const char *tag);

/*
 * The document written back as HTML (UTF-8, NUL-terminated); *len gets
 * its length.  The caller frees it with free().  NULL when it would be
 * longer than 8 * HTML_MAX_BYTES.
 */
char	*html_serialize(const struct html_doc *d, size_t *len);

/*
 * What is inside element e written back as HTML (its children, not e
 * itself), as html_serialize writes; free() it.  NULL when too long.
 */
char	*html_elem_inner(const struct html_elem *e, size_t *len);

/* The text inside e, without markup (a heap string; free() it). */
char	*html_elem_text(const struct html_elem *e);

/*
 * Changing d (e an element of d): what is inside e becomes html (len
 * bytes, parsed as a fragment the way html_parse reads documents; -1
 * when it is not HTML); an attribute is set; e is removed (with what is
 * inside); a copy of e is appended to parent's children (returned).
 */
int	html_set_inner(struct html_doc *d, const struct html_elem *e,
	    const char *html, size_t len);
void	html_set_attr(struct html_doc *d, const struct html_elem *e,
	    const char *name, const char *value);
void	html_remove(struct html_doc *d, const struct html_elem *e);
const struct html_elem *html_append_copy(struct html_doc *d,
	    const struct html_elem *parent, const struct html_elem *e);

/*
 * Replaces needle (a ${variable} reference, say) with value in every
 * text and attribute value of root and what is inside it (NULL: all of
 * d): in the parsed values, not in HTML.
 */
void	html_replace_text(struct html_doc *d, const struct html_elem *root,
	    const char *needle, const char *value);

/*
 * What html_map_text does to one text or attribute value: a heap string
 * that replaces text, or NULL to leave it as it is.
 */
typedef char	*(*html_text_fn)(const char *text, void *arg);
/*
 * Passes every text and attribute value of root and what is inside it
 * (NULL: all of d) through fn, in the parsed values, not in HTML.
 */
void	html_map_text(struct html_doc *d, const struct html_elem *root,
	    html_text_fn fn, void *arg);

#endif
