/*
 * Date paging tokens of the activity reads (docs/behaviour.md §17): the
 * real service's old token format, RFC 4648 base32 (upper case, '='
 * padded) of "<date>,<id>", the date written
 * "YYYY-MM-DDTHH:MM:SS.mmm+0000" and the id the last activity a page
 * showed (0 for a token of a date alone, as Get Paging Token makes).
 * "GIYDAOBNGEYS2MBWKQYDAORQGA5DAMBOGAYDAKZQGAYDALBQ" is
 * "2008-11-06T00:00:00.000+0000,0".
 *
 * One token serves Get Lead Activities, Get Lead Changes and Get Deleted
 * Leads, as the service's does: it names a place in the activity log,
 * not a query.
 */
#ifndef MAUTO_UTIL_DATETOKEN_H
#define MAUTO_UTIL_DATETOKEN_H

#include <stdint.h>

/*
 * The longest token and its NUL: 48 bytes of text (a four-digit year and
 * a 19-digit id) are 80 characters of base32.
 */
#define DATE_TOKEN_BYTES	81

/* The first and last times a token may carry (years 1970 to 9999). */
#define DATE_TOKEN_MIN_MS	INT64_C(0)
#define DATE_TOKEN_MAX_MS	INT64_C(253402300799999)

/* A place in the activity log. */
struct date_token {
	int64_t	ms;	/* UTC milliseconds since the epoch */
	int64_t	last;	/* the last activity id shown; 0: none yet */
};

/*
 * Writes the token of t into out.  t->ms is clamped to the range above
 * and a negative t->last is written as 0.
 */
void	date_token_encode(const struct date_token *t,
	    char out[DATE_TOKEN_BYTES]);

/*
 * Reads a token: base32 in upper case, its '=' padding optional, of text
 * in exactly the form date_token_encode writes (a real calendar date,
 * "+0000", an id without sign or leading zeros).  Returns 0 and *out, or
 * -1 (with *out zeroed) for anything else.
 */
int	date_token_decode(const char *text, struct date_token *out);

#endif
