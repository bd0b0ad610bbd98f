/*
 * The HTTP Range header of a download (RFC 9110 §14), as Get Export File
 * takes it (docs/behaviour.md §7.2): one byte range, "bytes=a-b",
 * "bytes=a-" or "bytes=-n".  Pure code.
 */
#ifndef MAUTO_HTTP_RANGE_H
#define MAUTO_HTTP_RANGE_H

#include <stdint.h>

enum range_result {
	RANGE_NONE,		/* no usable Range: send the whole file (200) */
	RANGE_OK,		/* send *off .. *off + *len - 1 (206) */
	RANGE_UNSATISFIABLE,	/* nothing of the file is asked for (416) */
	RANGE_RESULT__MAX
};

/*
 * Resolves the Range header value h (NULL when absent) against a file of
 * size bytes.  A header that is not one valid byte range (another unit,
 * bad syntax, a last position before the first, several ranges) is
 * ignored, as RFC 9110 §14.2 allows: RANGE_NONE.  A last position past
 * the end is cut to the end; a first position at or past the end, or a
 * suffix of 0 bytes, is RANGE_UNSATISFIABLE.  *off and *len are set for
 * RANGE_OK and are the whole file otherwise.
 */
enum range_result	range_parse(const char *h, int64_t size, int64_t *off,
			    int64_t *len);

#endif
