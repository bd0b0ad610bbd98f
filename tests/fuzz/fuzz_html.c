/*
 * libFuzzer target for the HTML parser (model/html.c) and the template
 * checks over it (model/lptemplate.c).  The input is the HTML: parsed,
 * walked with every element's name, attributes and classes read, checked
 * as a free-form and as a guided template, written back, and what is
 * written parsed and written again.  Nothing may crash or leak.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/html.h"
#include "model/lptemplate.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Reads what a caller reads of an element, up to the root. */
static int
visit(void *ctx, const struct html_elem *e)
{
	size_t *n = ctx;
	const struct html_elem *p;
	const char *v;

	for (p = e; p != NULL; p = html_elem_parent(p))
		if (html_elem_name(p) == NULL)
			abort();
	if ((v = html_elem_attr(e, "id")) != NULL)
		*n += strlen(v);
	if (html_elem_has_class(e, "mktoText"))
		(*n)++;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct html_doc *d, *again;
	char err[128], msg[LPT_MSG_BYTES], *out, *out2;
	size_t n = 0, len, len2;

	(void)lpt_check(LPT_FREE_FORM, (const char *)data, size, msg);
	(void)lpt_check(LPT_GUIDED, (const char *)data, size, msg);
	if ((d = html_parse((const char *)data, size, err, sizeof(err))) ==
	    NULL)
		return 0;
	if (html_each(d, visit, &n) != 0)
		abort();
	(void)html_count(d, "body");
	out = html_serialize(d, &len);
	if (out == NULL || strlen(out) != len)
		abort();
	/* What is written may not parse (a lone comment has no element). */
	again = html_parse(out, len, err, sizeof(err));
	if (again != NULL) {
		out2 = html_serialize(again, &len2);
		if (out2 == NULL)
			abort();
		free(out2);
		html_free(again);
	}
	free(out);
	html_free(d);
	return 0;
}
