/*
 * The one number parser for untrusted text (docs/style.md §6): whole string,
 * base 10, explicit bounds.  Returns 0, or -1 when s is empty, has other
 * characters, or is out of [min, max].
 */
#ifndef MAUTO_UTIL_NUM_H
#define MAUTO_UTIL_NUM_H

#include <stddef.h>
#include <stdint.h>

int	num_parse_i64(const char *s, int64_t min, int64_t max, int64_t *out);
int	num_parse_i64n(const char *s, size_t n, int64_t min, int64_t max,
	    int64_t *out);

/*
 * Parses the n bytes at s as a whole finite decimal number (digits, sign,
 * point, exponent only: no "inf", "nan" or hex).  Returns 0 and *out, or
 * -1 with *out 0.
 */
int	num_parse_double(const char *s, size_t n, double *out);

#endif
