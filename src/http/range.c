/*
 * One byte range out of a Range header (RFC 9110 §14.1.2):
 *
 *   Range = "bytes" "=" ( first-pos "-" [ last-pos ] / "-" suffix-length )
 *
 * with optional white space around the range, and the unit in any case.
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "http/range.h"
#include "util/num.h"

/*
 * Parses the n digits at s; a number too large for int64 becomes
 * INT64_MAX (it is past the end of any file).  Returns 0, or -1 when s is
 * not all digits.
 */
static int
parse_pos(const char *s, size_t n, int64_t *out)
{
	size_t i;
	int r = n > 0 ? 0 : -1;

	*out = 0;
	for (i = 0; r == 0 && i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			r = -1;
	if (r == 0 && num_parse_i64n(s, n, 0, INT64_MAX, out) != 0)
		*out = INT64_MAX;
	return r;
}

/* See range.h. */
enum range_result
range_parse(const char *h, int64_t size, int64_t *off, int64_t *len)
{
	const char *p, *dash, *end;
	int64_t first = 0, last = 0;
	enum range_result rr = RANGE_NONE;

	*off = 0;
	*len = size;
	if (h == NULL)
		goto out;
	for (p = h; *p == ' ' || *p == '\t'; p++)
		;
	if (strncasecmp(p, "bytes", 5) != 0)
		goto out;
	for (p += 5; *p == ' ' || *p == '\t'; p++)
		;
	if (*p++ != '=')
		goto out;
	for (; *p == ' ' || *p == '\t'; p++)
		;
	end = p + strlen(p);
	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if ((dash = memchr(p, '-', (size_t)(end - p))) == NULL)
		goto out;
	if (dash == p) {
		/* "-n": the last n bytes. */
		if (parse_pos(dash + 1, (size_t)(end - dash - 1), &last) != 0)
			goto out;
		rr = RANGE_UNSATISFIABLE;
		if (last == 0 || size == 0)
			goto out;
		first = size - (last > size ? size : last);
		last = size - 1;
	} else {
		if (parse_pos(p, (size_t)(dash - p), &first) != 0)
			goto out;
		if (dash + 1 == end)
			last = INT64_MAX;
		else if (parse_pos(dash + 1, (size_t)(end - dash - 1),
		    &last) != 0 || last < first)
			goto out;
		rr = RANGE_UNSATISFIABLE;
		if (first >= size)
			goto out;
		if (last >= size)
			last = size - 1;
	}
	*off = first;
	*len = last - first + 1;
	rr = RANGE_OK;
out:
	return rr;
}
