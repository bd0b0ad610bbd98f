/*
 * libFuzzer target for the date paging tokens of the activity reads
 * (util/datetoken.c), which clients send back as nextPageToken.  The
 * input up to its first NUL is the token text.  Invariants: decoding is
 * deterministic; a refused token leaves a zeroed place; an accepted one
 * has a time in the token range and an id >= 0, and encodes back to the
 * same text (with its padding).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "util/datetoken.h"

#define INPUT_MAX	256

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char copy[INPUT_MAX + 1];
	char out[DATE_TOKEN_BYTES];
	struct date_token a, b;
	size_t len;
	int ra, rb;

	if (size > INPUT_MAX)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	ra = date_token_decode(copy, &a);
	rb = date_token_decode(copy, &b);
	if (ra != rb || a.ms != b.ms || a.last != b.last ||
	    (ra != 0 && ra != -1))
		__builtin_trap();
	if (ra != 0) {
		if (a.ms != 0 || a.last != 0)
			__builtin_trap();
		return 0;
	}
	if (a.ms < DATE_TOKEN_MIN_MS || a.ms > DATE_TOKEN_MAX_MS ||
	    a.last < 0)
		__builtin_trap();
	date_token_encode(&a, out);
	len = strcspn(copy, "=");
	if (strncmp(out, copy, len) != 0 || strcspn(out, "=") != len)
		__builtin_trap();
	return 0;
}
