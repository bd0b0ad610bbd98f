/*
 * The echo policy for untrusted input in messages, and Spring's boolean
 * spellings (util/text.c).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "util/arena.h"
#include "util/text.h"

static struct arena arena;

/* Whether s is well-formed UTF-8 with no control bytes. */
static bool
clean_utf8(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, len, k;

	while (p[i] != '\0') {
		if (p[i] < 0x20 || p[i] == 0x7f)
			return false;
		if (p[i] < 0x80)
			len = 1;
		else if ((p[i] & 0xe0) == 0xc0 && p[i] >= 0xc2)
			len = 2;
		else if ((p[i] & 0xf0) == 0xe0)
			len = 3;
		else if ((p[i] & 0xf8) == 0xf0 && p[i] <= 0xf4)
			len = 4;
		else
			return false;
		for (k = 1; k < len; k++)
			if ((p[i + k] & 0xc0) != 0x80)
				return false;
		i += len;
	}
	return true;
}

static int
setup(void **state)
{
	(void)state;
	arena_init(&arena);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	arena_clear(&arena);
	return 0;
}

static void
test_echo_plain(void **state)
{
	const char *s = "Mary O'Brien";

	(void)state;
	assert_ptr_equal(text_echo(&arena, s), s);
	assert_string_equal(text_echo(&arena, NULL), "");
	assert_string_equal(text_echo(&arena, ""), "");
	assert_string_equal(text_echo(&arena, "caf\xc3\xa9"), "caf\xc3\xa9");
}

static void
test_echo_masks_controls_and_bad_bytes(void **state)
{
	(void)state;
	assert_string_equal(text_echo(&arena, "a\nb\tc\x7f" "d"), "a?b?c?d");
	/* A lone continuation byte, a truncated sequence, overlong forms,
	 * a surrogate and a code point past U+10FFFF. */
	assert_string_equal(text_echo(&arena, "x\x80y"), "x?y");
	assert_string_equal(text_echo(&arena, "x\xc3"), "x?");
	assert_string_equal(text_echo(&arena, "\xc0\xaf"), "??");
	assert_string_equal(text_echo(&arena, "\xe0\x80\xaf"), "???");
	assert_string_equal(text_echo(&arena, "\xed\xa0\x80"), "???");
	assert_string_equal(text_echo(&arena, "\xf4\x90\x80\x80"), "????");
	assert_true(clean_utf8(text_echo(&arena, "\xff\xfe\x01")));
}

static void
test_echo_cuts_long_input(void **state)
{
	char in[400];
	const char *out;

	(void)state;
	memset(in, 'a', sizeof(in) - 1);
	in[sizeof(in) - 1] = '\0';
	out = text_echo(&arena, in);
	assert_int_equal(strlen(out), TEXT_ECHO_BYTES + 3);
	assert_memory_equal(out + TEXT_ECHO_BYTES, "...", 4);
	/* Exactly the bound: not cut. */
	in[TEXT_ECHO_BYTES] = '\0';
	assert_ptr_equal(text_echo(&arena, in), in);
}

static void
test_echo_cut_keeps_characters_whole(void **state)
{
	char in[400];
	const char *out;
	size_t i;

	(void)state;
	/* 'a' then three-byte characters: the bound falls inside one. */
	in[0] = 'a';
	for (i = 1; i + 3 < sizeof(in); i += 3)
		memcpy(in + i, "\xe2\x82\xac", 3);	/* U+20AC */
	in[i] = '\0';
	out = text_echo(&arena, in);
	assert_true(clean_utf8(out));
	assert_true(strlen(out) <= TEXT_ECHO_BYTES + 3);
	assert_int_equal((strlen(out) - 3 - 1) % 3, 0);
	assert_memory_equal(out + strlen(out) - 3, "...", 3);
}

static void
test_bool_spellings(void **state)
{
	static const char *const t[] = { "true", "TRUE", "True", "on", "ON",
	    "yes", "Yes", "1", " true " };
	static const char *const f[] = { "false", "FALSE", "off", "Off", "no",
	    "NO", "0", "\tfalse" };
	static const char *const bad[] = { "", "2", "tru", "truee", "y", "n",
	    "t", "f", "-1", "00", "yes please", "t\xc3\xa9" };
	bool b;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		b = false;
		assert_int_equal(text_bool(t[i], &b), 0);
		assert_true(b);
	}
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		b = true;
		assert_int_equal(text_bool(f[i], &b), 0);
		assert_false(b);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(text_bool(bad[i], &b), -1);
	assert_int_equal(text_bool(NULL, &b), -1);
}

/* Characters, not bytes: each UTF-8 sequence counts once. */
static void
test_chars_counts_characters(void **state)
{
	(void)state;
	assert_int_equal(text_chars("", 0), 0);
	assert_int_equal(text_chars(NULL, 4), 0);
	assert_int_equal(text_chars("abc", 3), 3);
	assert_int_equal(text_chars("h\xc3\xa9llo", 6), 5);
	assert_int_equal(text_chars("\xe2\x82\xac\xf0\x9f\x98\x80", 7), 2);
	/* Only the n bytes given are counted. */
	assert_int_equal(text_chars("abcdef", 2), 2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_echo_plain),
		cmocka_unit_test(test_echo_masks_controls_and_bad_bytes),
		cmocka_unit_test(test_echo_cuts_long_input),
		cmocka_unit_test(test_echo_cut_keeps_characters_whole),
		cmocka_unit_test(test_bool_spellings),
		cmocka_unit_test(test_chars_counts_characters),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
