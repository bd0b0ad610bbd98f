/*
 * Date paging tokens (util/datetoken.c): the documentation's tokens
 * decode to their dates and ids, every token round-trips, and text that
 * is not exactly a token is refused.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "util/datetoken.h"
#include "util/timeutil.h"

/* 2008-11-06T00:00:00.000Z in milliseconds. */
#define DOC_MS	(time_days_from_civil(2008, 11, 6) * 86400000)

/* The two tokens of the documentation (Get Paging Token, Lead Changes). */
static void
test_documented(void **state)
{
	struct date_token t;
	char out[DATE_TOKEN_BYTES];

	(void)state;
	assert_int_equal(date_token_decode(
	    "GIYDAOBNGEYS2MBWKQYDAORQGA5DAMBOGAYDAKZQGAYDALBQ", &t), 0);
	assert_int_equal(t.ms, DOC_MS);
	assert_int_equal(t.last, 0);
	date_token_encode(&t, out);
	assert_string_equal(out,
	    "GIYDAOBNGEYS2MBWKQYDAORQGA5DAMBOGAYDAKZQGAYDALBQ");
	assert_int_equal(date_token_decode(
	    "GIYDAOBNGEYS2MBWKQYDAORQGA5DAMBOGAYDAKZQGAYDALBRGA3TQ===", &t),
	    0);
	assert_int_equal(t.ms, DOC_MS);
	assert_int_equal(t.last, 1078);
	date_token_encode(&t, out);
	assert_string_equal(out,
	    "GIYDAOBNGEYS2MBWKQYDAORQGA5DAMBOGAYDAKZQGAYDALBRGA3TQ===");
	/* Padding may be left off, as some clients strip it. */
	assert_int_equal(date_token_decode(
	    "GIYDAOBNGEYS2MBWKQYDAORQGA5DAMBOGAYDAKZQGAYDALBRGA3TQ", &t), 0);
	assert_int_equal(t.last, 1078);
}

static void
test_round_trip(void **state)
{
	static const struct date_token cases[] = {
		{ 0, 0 }, { 1, 1 }, { 999, 9 }, { 951782400000, 10 },
		{ 1700000000123, 123456789 },
		{ DATE_TOKEN_MAX_MS, INT64_C(9223372036854775807) },
	};
	struct date_token t;
	char out[DATE_TOKEN_BYTES];
	size_t i, k, len;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		date_token_encode(&cases[i], out);
		len = strlen(out);
		assert_true(len < DATE_TOKEN_BYTES && len % 8 == 0);
		for (k = 0; k < len; k++)
			assert_non_null(strchr(
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567=", out[k]));
		assert_int_equal(date_token_decode(out, &t), 0);
		assert_int_equal(t.ms, cases[i].ms);
		assert_int_equal(t.last, cases[i].last);
	}
}

static void
test_clamped(void **state)
{
	struct date_token in = { -5, -7 }, t;
	char out[DATE_TOKEN_BYTES];

	(void)state;
	date_token_encode(&in, out);
	assert_int_equal(date_token_decode(out, &t), 0);
	assert_int_equal(t.ms, 0);
	assert_int_equal(t.last, 0);
}

/* Base32 of a plain text, to build tokens the decoder must refuse. */
static void
b32(const char *plain, char *out)
{
	static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
	uint32_t acc = 0;
	size_t o = 0;
	int bits = 0;

	for (; *plain != '\0'; plain++) {
		acc = (acc << 8 | (unsigned char)*plain) & 0xffff;
		for (bits += 8; bits >= 5; bits -= 5)
			out[o++] = a[(acc >> (bits - 5)) & 31];
	}
	if (bits > 0)
		out[o++] = a[(acc << (5 - bits)) & 31];
	while (o % 8 != 0)
		out[o++] = '=';
	out[o] = '\0';
}

static void
test_refused(void **state)
{
	static const char *const plain[] = {
		"2008-11-06T00:00:00.000+0000,",	/* no id */
		"2008-11-06T00:00:00.000+0000,01",	/* leading zero */
		"2008-11-06T00:00:00.000+0000,-1",
		"2008-11-06T00:00:00.000+0000,1x",
		"2008-11-06T00:00:00.000+0100,1",	/* another zone */
		"2008-11-06T00:00:00.000Z,1",
		"2008-02-30T00:00:00.000+0000,1",	/* no such day */
		"2008-11-06T24:00:00.000+0000,1",
		"1969-12-31T23:59:59.999+0000,1",
		"2008-11-06 00:00:00.000+0000,1",
		"2008-11-06T00:00:00.000+0000,9223372036854775808",
		"2008-11-06T00:00:00.000+0000,12345678901234567890",
		"hello",
	};
	static const char *const text[] = {
		"", "=", "A", "GIYDAOBNGEYS2MBWKQYDAORQGA5DAMBOGAYDAKZQGAYDALBq",
		"GIYDAOBNGEYS2MBWKQYDAORQGA5DAMBOGAYDAKZQGAYDALBQ=",
		"GIYDAOBNGEYS2MBWKQYDAORQGA5DAMBOGAYDAKZQGAYDALBRGA3TQ==",
		"GIYDAOBNGEYS2MBWKQYDAORQGA5DAMBOGAYDAKZQGAYDALBRGA3TR===",
		"GIYDAOBNGEYS2MBWKQYDAORQGA5DAMBOGAYDAKZQGAYDALBRGA3T=Q==",
		"WQV2VQVPPCKHC6AQYVK7JDSA3I3LCWXH3Y6IIZ7YSGQLXHCPVE5Q====",
	};
	struct date_token t;
	char tok[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
		b32(plain[i], tok);
		t.ms = t.last = 42;
		if (date_token_decode(tok, &t) != -1)
			fail_msg("accepted %s", plain[i]);
		assert_int_equal(t.ms, 0);
		assert_int_equal(t.last, 0);
	}
	for (i = 0; i < sizeof(text) / sizeof(text[0]); i++)
		if (date_token_decode(text[i], &t) != -1)
			fail_msg("accepted %s", text[i]);
	assert_int_equal(date_token_decode(NULL, &t), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_documented),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_clamped),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
