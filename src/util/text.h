/*
 * Small text rules every layer shares: how untrusted input is echoed into
 * a message, and how a boolean parameter is read.
 */
#ifndef MAUTO_UTIL_TEXT_H
#define MAUTO_UTIL_TEXT_H

#include <stdbool.h>
#include <stddef.h>

struct arena;

/* Bytes of untrusted input an error message quotes at the most. */
#define TEXT_ECHO_BYTES	100

/*
 * The one policy for quoting untrusted input in a message: at most
 * TEXT_ECHO_BYTES bytes of s, cut at a UTF-8 character boundary and then
 * ended with "...", control bytes (below 0x20, and 0x7f) and bytes that
 * are not well-formed UTF-8 each shown as '?'.  The result is valid
 * UTF-8, in the arena (s itself when it needs no change); "" for NULL or
 * when the arena is exhausted.
 */
const char	*text_echo(struct arena *a, const char *s);

/*
 * Characters in the n bytes at s, as MariaDB's utf8mb4 counts them: every
 * byte that does not continue a UTF-8 sequence starts a character.  s is
 * well-formed UTF-8 (the request edge checked it); 0 when s is NULL.
 */
size_t		 text_chars(const char *s, size_t n);

/*
 * A boolean as a Spring application binds a request parameter: true,
 * on, yes, 1 and false, off, no, 0, in any letter case, with white space
 * around ignored.  Returns 0 and sets *out, or -1 for anything else.
 */
int		 text_bool(const char *s, bool *out);

#endif
