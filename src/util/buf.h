/*
 * A growable byte buffer with a hard cap.  Appends past the cap fail and
 * leave the buffer marked as overflowed; check buf_ok() once at the end.
 */
#ifndef MAUTO_UTIL_BUF_H
#define MAUTO_UTIL_BUF_H

#include <stdbool.h>
#include <stddef.h>

struct buf {
	char	*data;		/* NUL-terminated while not overflowed */
	size_t	 len;
	size_t	 cap;
	size_t	 max;		/* hard cap on len */
	bool	 overflow;
};

/* Prepares an empty buffer that may grow to max bytes. */
void	 buf_init(struct buf *b, size_t max);
/* Frees the storage. */
void	 buf_clear(struct buf *b);
/* Empties the buffer, keeping its storage. */
void	 buf_reset(struct buf *b);
void	 buf_add(struct buf *b, const void *p, size_t n);
void	 buf_adds(struct buf *b, const char *s);
void	 buf_addc(struct buf *b, char c);
void	 buf_printf(struct buf *b, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* Appends s as a JSON string literal, quotes included. */
void	 buf_add_json_str(struct buf *b, const char *s, size_t n);
/*
 * Appends NUL-terminated s as a JSON string literal byte for byte as
 * json-c writes it with JSON_C_TO_STRING_NOSLASHESCAPE (\b and \f as
 * such, other control characters as \u00xx), or null when s is NULL.
 */
void	 buf_add_json_cstr(struct buf *b, const char *s);
bool	 buf_ok(const struct buf *b);

#endif
