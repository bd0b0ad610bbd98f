/*
 * Position-based paging tokens of the lead database reads
 * (docs/behaviour.md §4.6): opaque upper-case base32 text with '='
 * padding, as the real service's tokens look.  A token carries the
 * position (the last id returned) and a signature of the query it
 * belongs to, so a token handed to another query or another operation
 * is refused instead of silently paging something else.
 *
 * Paging by "id greater than the last one seen" is stable while rows are
 * inserted or deleted: no row is returned twice and none that existed
 * when paging began is skipped.
 */
#ifndef MAUTO_UTIL_PAGETOKEN_H
#define MAUTO_UTIL_PAGETOKEN_H

#include <stddef.h>
#include <stdint.h>

/* Text of a token with its NUL: 14 bytes in base32 is 24 characters. */
#define PAGE_TOKEN_BYTES	25

/* The start value of a signature. */
#define PAGE_TOKEN_SIG_INIT	UINT32_C(2166136261)

/*
 * Adds n bytes at s to a query signature (FNV-1a) and a separator, so
 * ("ab", "c") and ("a", "bc") differ.  Returns the new signature.
 */
uint32_t	page_token_sig(uint32_t sig, const char *s, size_t n);

/*
 * Writes the token for position last (>= 0) of a query of operation kind
 * with signature sig into out.
 */
void		page_token_encode(uint8_t kind, uint32_t sig, int64_t last,
		    char out[PAGE_TOKEN_BYTES]);

/*
 * Reads a token made by page_token_encode for the same kind and sig.
 * Returns 0 and *last, or -1 (with *last 0) when the text is not such a
 * token.
 */
int		page_token_decode(const char *text, uint8_t kind, uint32_t sig,
		    int64_t *last);

#endif
