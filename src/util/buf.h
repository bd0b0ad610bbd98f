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
 * Appends the NUL-terminated s as a JSON string literal exactly as json-c
 * writes a string with JSON_C_TO_STRING_NOSLASHESCAPE ("\b" and "\f" in
 * short form, where buf_add_json_str writes "\u0008" and "\u000c"), or
 * null when s is NULL: for text written by hand that must read as json-c
 * would have written it.
 */
void	 buf_add_jsonc_str(struct buf *b, const char *s);
bool	 buf_ok(const struct buf *b);

#endif
