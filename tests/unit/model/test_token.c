/*
 * model/token.c: the token types, the value checks, the name as a client
 * may send it, and which definition of a name is in effect at a place.
 * No database.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/token.h"

static void
test_types(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < TOKEN__MAX; i++)
		assert_int_equal(token_type_parse(
		    token_type_name((enum token_type)i)), i);
	assert_int_equal(token_type_parse("Rich Text"), TOKEN_RICH_TEXT);
	assert_int_equal(token_type_parse("SFDC CAMPAIGN"),
	    TOKEN_SFDC_CAMPAIGN);
	assert_string_equal(token_type_name(TOKEN_RICH_TEXT), "rich text");
	assert_int_equal(token_type_parse("richtext"), -1);
	assert_int_equal(token_type_parse(""), -1);
	assert_int_equal(token_type_parse(NULL), -1);
}

static void
test_dates(void **state)
{
	(void)state;
	assert_int_equal(token_value_check(TOKEN_DATE, "2015-04-01"), 0);
	assert_int_equal(token_value_check(TOKEN_DATE, "2016-02-29"), 0);
	assert_int_equal(token_value_check(TOKEN_DATE, "2000-02-29"), 0);
	assert_int_equal(token_value_check(TOKEN_DATE, "1900-02-29"), -1);
	assert_int_equal(token_value_check(TOKEN_DATE, "2015-02-29"), -1);
	assert_int_equal(token_value_check(TOKEN_DATE, "2015-04-31"), -1);
	assert_int_equal(token_value_check(TOKEN_DATE, "2015-13-01"), -1);
	assert_int_equal(token_value_check(TOKEN_DATE, "2015-4-1"), -1);
	assert_int_equal(token_value_check(TOKEN_DATE, "2015-04-01T00:00"),
	    -1);
	assert_int_equal(token_value_check(TOKEN_DATE, "0000-01-01"), -1);
	assert_int_equal(token_value_check(TOKEN_DATE, ""), -1);
}

static void
test_numbers(void **state)
{
	static const char *const good[] = { "0", "12", "-3", "+4", "1.5",
	    ".5", "5.", "-12.5e3", "1E-2", NULL };
	static const char *const bad[] = { "", "-", ".", "1e", "0x10", "inf",
	    "nan", "1,5", " 1", "1 ", "1e+", "--1", NULL };
	size_t i;

	(void)state;
	for (i = 0; good[i] != NULL; i++)
		if (token_value_check(TOKEN_NUMBER, good[i]) != 0)
			fail_msg("refused number %s", good[i]);
	for (i = 0; bad[i] != NULL; i++)
		if (token_value_check(TOKEN_NUMBER, bad[i]) == 0)
			fail_msg("accepted number %s", bad[i]);
}

static void
test_scores(void **state)
{
	(void)state;
	assert_int_equal(token_value_check(TOKEN_SCORE, "2147483647"), 0);
	assert_int_equal(token_value_check(TOKEN_SCORE, "-2147483648"), 0);
	assert_int_equal(token_value_check(TOKEN_SCORE, "+10"), 0);
	assert_int_equal(token_value_check(TOKEN_SCORE, "2147483648"), -1);
	assert_int_equal(token_value_check(TOKEN_SCORE, "-2147483649"), -1);
	assert_int_equal(token_value_check(TOKEN_SCORE,
	    "99999999999999999999999"), -1);
	assert_int_equal(token_value_check(TOKEN_SCORE, "1.0"), -1);
	assert_int_equal(token_value_check(TOKEN_SCORE, "-"), -1);
	assert_int_equal(token_value_check(TOKEN_SCORE, ""), -1);
}

static void
test_text(void **state)
{
	static char big[TOKEN_VALUE_MAX_BYTES + 2];

	(void)state;
	assert_int_equal(token_value_check(TOKEN_TEXT, ""), 0);
	assert_int_equal(token_value_check(TOKEN_RICH_TEXT, "<p>x</p>"), 0);
	assert_int_equal(token_value_check(TOKEN_SFDC_CAMPAIGN, "Q1"), 0);
	memset(big, 'x', TOKEN_VALUE_MAX_BYTES);
	assert_int_equal(token_value_check(TOKEN_TEXT, big), 0);
	big[TOKEN_VALUE_MAX_BYTES] = 'x';
	assert_int_equal(token_value_check(TOKEN_TEXT, big), -1);
	assert_int_equal(token_value_check(TOKEN_TEXT, NULL), -1);
	assert_int_equal(token_value_check(TOKEN__MAX, "x"), -1);
}

static void
expect_name(const char *in, const char *want)
{
	char out[TOKEN_NAME_CHARS * 4 + 1];

	if (token_name_normalize(in, out, sizeof(out)) != 0)
		fail_msg("refused name %s", in);
	assert_string_equal(out, want);
}

static void
refuse_name(const char *in)
{
	char out[TOKEN_NAME_CHARS * 4 + 1];

	if (token_name_normalize(in, out, sizeof(out)) == 0)
		fail_msg("accepted name %s", in);
}

static void
test_names(void **state)
{
	char fifty[TOKEN_NAME_CHARS + 1], accents[TOKEN_NAME_CHARS * 2 + 1];
	size_t i;

	(void)state;
	expect_name("April Fools", "April Fools");
	expect_name("{{my.April Fools}}", "April Fools");
	expect_name("my.Title", "Title");
	expect_name("{{My.Title}}", "Title");
	expect_name("{{Title}}", "Title");
	refuse_name("");
	refuse_name("{{my.}}");
	refuse_name("a{{b");
	refuse_name("a}}b");
	memset(fifty, 'n', TOKEN_NAME_CHARS);
	fifty[TOKEN_NAME_CHARS] = '\0';
	expect_name(fifty, fifty);
	/* Fifty characters of two bytes each are fifty, not a hundred. */
	for (i = 0; i < TOKEN_NAME_CHARS; i++)
		memcpy(accents + 2 * i, "\xc3\xa9", 2);
	accents[2 * TOKEN_NAME_CHARS] = '\0';
	expect_name(accents, accents);
	refuse_name("nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn");
}

static void
test_nearest(void **state)
{
	/* Given in no order: "b" at the place and above, "a" twice above. */
	struct token_def d[] = {
		{ "b", 3, 0 }, { "a", 2, 1 }, { "b", 0, 2 }, { "c", 1, 3 },
		{ "a", 1, 4 }, { "a", 1, 5 },
	};
	size_t n;

	(void)state;
	n = token_nearest(d, sizeof(d) / sizeof(d[0]));
	assert_int_equal(n, 3);
	assert_string_equal(d[0].name, "a");
	assert_int_equal(d[0].depth, 1);
	/* Two as near: the one given first. */
	assert_int_equal(d[0].index, 4);
	assert_string_equal(d[1].name, "b");
	assert_int_equal(d[1].index, 2);
	assert_string_equal(d[2].name, "c");
	assert_int_equal(d[2].index, 3);
	/* Names are exact: "A" is not "a". */
	{
		struct token_def e[] = { { "a", 1, 0 }, { "A", 2, 1 } };

		assert_int_equal(token_nearest(e, 2), 2);
	}
	assert_int_equal(token_nearest(d, 0), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_types),
		cmocka_unit_test(test_dates),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_scores),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_nearest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
