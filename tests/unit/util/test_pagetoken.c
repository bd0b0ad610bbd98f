/*
 * Paging tokens (util/pagetoken.c): the text looks like the real
 * service's (upper-case base32, '=' padding), round-trips every position,
 * and is refused for another query, another kind, or any change.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "util/pagetoken.h"

static uint32_t
sig_of(const char *a, const char *b)
{
	uint32_t s = page_token_sig(PAGE_TOKEN_SIG_INIT, a, strlen(a));

	return page_token_sig(s, b, strlen(b));
}

static void
test_round_trip(void **state)
{
	static const int64_t pos[] = { 0, 1, 7, 300, 2147483647,
	    INT64_C(9223372036854775807) };
	char tok[PAGE_TOKEN_BYTES];
	uint32_t sig = sig_of("email", "a@example.com");
	int64_t last;
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof(pos) / sizeof(pos[0]); i++) {
		page_token_encode(1, sig, pos[i], tok);
		assert_int_equal(strlen(tok), PAGE_TOKEN_BYTES - 1);
		for (k = 0; k < strlen(tok); k++)
			assert_non_null(strchr(
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567=", tok[k]));
		assert_int_equal(tok[PAGE_TOKEN_BYTES - 2], '=');
		assert_int_equal(page_token_decode(tok, 1, sig, &last), 0);
		assert_true(last == pos[i]);
	}
}

static void
test_refused(void **state)
{
	char tok[PAGE_TOKEN_BYTES], bad[PAGE_TOKEN_BYTES + 8];
	uint32_t sig = sig_of("email", "a@example.com");
	int64_t last = 99;
	size_t i;

	(void)state;
	page_token_encode(1, sig, 1234, tok);
	/* Another query, another kind. */
	assert_int_equal(page_token_decode(tok, 1, sig_of("email",
	    "b@example.com"), &last), -1);
	assert_int_equal(last, 0);
	assert_int_equal(page_token_decode(tok, 1, sig_of("emai",
	    "la@example.com"), &last), -1);
	assert_int_equal(page_token_decode(tok, 2, sig, &last), -1);
	/* Any one symbol changed. */
	for (i = 0; i < PAGE_TOKEN_BYTES - 1; i++) {
		memcpy(bad, tok, sizeof(tok));
		bad[i] = bad[i] == 'A' ? 'B' : 'A';
		assert_int_equal(page_token_decode(bad, 1, sig, &last), -1);
	}
	/* Lower case, short, long, junk, empty, NULL. */
	memcpy(bad, tok, sizeof(tok));
	bad[0] = (char)(bad[0] - 'A' + 'a');
	assert_int_equal(page_token_decode(bad, 1, sig, &last), -1);
	assert_int_equal(page_token_decode("PS5VL5WD4UOWG===", 1, sig, &last),
	    -1);
	snprintf(bad, sizeof(bad), "%sAAAA", tok);
	assert_int_equal(page_token_decode(bad, 1, sig, &last), -1);
	assert_int_equal(page_token_decode("' OR 1=1 --", 1, sig, &last), -1);
	assert_int_equal(page_token_decode("", 1, sig, &last), -1);
	assert_int_equal(page_token_decode(NULL, 1, sig, &last), -1);
}

static void
test_opaque(void **state)
{
	char a[PAGE_TOKEN_BYTES], b[PAGE_TOKEN_BYTES];

	(void)state;
	/* The same position of two queries gives different tokens. */
	page_token_encode(1, sig_of("email", "a"), 5, a);
	page_token_encode(1, sig_of("email", "b"), 5, b);
	assert_string_not_equal(a, b);
	/* And the separator matters. */
	assert_true(sig_of("ab", "c") != sig_of("a", "bc"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_opaque),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
