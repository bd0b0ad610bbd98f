/*
 * The pure checks of repo_lead_schema.c: field names (the only text ever
 * pasted into DDL), display names, descriptions, and which types are
 * searchable and creatable.  No database.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bounds.h"
#include "model/leadfield.h"
#include "repo/repo_lead_schema.h"

static enum lf_name_err
name(const char *s)
{
	return repo_lead_schema_name_check(s, strlen(s));
}

static void
test_names_good(void **state)
{
	char n50[MAX_FIELD_NAME_CHARS + 1];

	(void)state;
	memset(n50, 'x', MAX_FIELD_NAME_CHARS);
	n50[MAX_FIELD_NAME_CHARS] = '\0';
	assert_int_equal(name("acmeAccessCode"), LF_NAME_OK);
	assert_int_equal(name("a"), LF_NAME_OK);
	assert_int_equal(name("Z9_"), LF_NAME_OK);
	assert_int_equal(name("a_b_c_123"), LF_NAME_OK);
	assert_int_equal(name(n50), LF_NAME_OK);
	/* Keywords that are not reserved, and reserved words inside. */
	assert_int_equal(name("name"), LF_NAME_OK);
	assert_int_equal(name("status"), LF_NAME_OK);
	assert_int_equal(name("selected"), LF_NAME_OK);
	assert_int_equal(name("drop_reason"), LF_NAME_OK);
	/* Only len bytes count. */
	assert_int_equal(repo_lead_schema_name_check("abc;drop", 3),
	    LF_NAME_OK);
}

static void
test_names_bad(void **state)
{
	char n51[MAX_FIELD_NAME_CHARS + 2];

	(void)state;
	memset(n51, 'x', MAX_FIELD_NAME_CHARS + 1);
	n51[MAX_FIELD_NAME_CHARS + 1] = '\0';
	assert_int_equal(name(""), LF_NAME_EMPTY);
	assert_int_equal(repo_lead_schema_name_check(NULL, 0), LF_NAME_EMPTY);
	assert_int_equal(name(n51), LF_NAME_TOO_LONG);
	assert_int_equal(name("1abc"), LF_NAME_FIRST);
	assert_int_equal(name("_abc"), LF_NAME_FIRST);
	assert_int_equal(name("`abc"), LF_NAME_FIRST);
	assert_int_equal(name("\xc3\xa9t\xc3\xa9"), LF_NAME_FIRST);
	assert_int_equal(name("ab`c"), LF_NAME_CHARS);
	assert_int_equal(name("ab'c"), LF_NAME_CHARS);
	assert_int_equal(name("ab\"c"), LF_NAME_CHARS);
	assert_int_equal(name("ab c"), LF_NAME_CHARS);
	assert_int_equal(name("ab-c"), LF_NAME_CHARS);
	assert_int_equal(name("ab.c"), LF_NAME_CHARS);
	assert_int_equal(name("abc\xc3\xa9"), LF_NAME_CHARS);
	assert_int_equal(repo_lead_schema_name_check("ab\0c", 4),
	    LF_NAME_CHARS);
	/* Bad characters are reported before the length. */
	memset(n51, 'x', MAX_FIELD_NAME_CHARS + 1);
	n51[20] = '-';
	assert_int_equal(name(n51), LF_NAME_CHARS);
}

static void
test_names_reserved(void **state)
{
	/* Across the table, so a mis-sorted entry would be missed. */
	static const char *const words[] = {
		"accessible", "ACCESSIBLE", "add", "between", "by", "char",
		"current_date", "Current_User", "day_hour", "delete_domain_id",
		"drop", "DROP", "for", "from", "group", "int1", "int8",
		"integer", "key", "keys", "like", "limit", "match", "mod",
		"not", "null", "on", "or", "order", "over", "range", "select",
		"Select", "sql_big_result", "sql_small_result", "table",
		"to", "union", "update", "usage", "utc_timestamp", "values",
		"where", "with", "xor", "year_month", "zerofill",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		assert_int_equal(name(words[i]), LF_NAME_RESERVED);
	assert_string_equal(repo_lead_schema_name_reason(LF_NAME_RESERVED),
	    "is a reserved word");
	assert_string_equal(repo_lead_schema_name_reason(LF_NAME_TOO_LONG),
	    "must be at most 50 characters");
	assert_string_equal(repo_lead_schema_name_reason(LF_NAME_ERR__MAX),
	    "is not valid");
}

static const char *
display(const char *s)
{
	return repo_lead_schema_display_check(s, strlen(s));
}

static void
test_display_names(void **state)
{
	char d[LF_DISPLAY_BYTES * 2 + 3];
	size_t i;

	(void)state;
	assert_null(display("Acme Access Code"));
	assert_null(display("Caf\xc3\xa9 (EU) - 100% & more"));
	assert_non_null(display(""));
	assert_non_null(display("   "));
	assert_non_null(display("a<b"));
	assert_non_null(display("a>b"));
	assert_non_null(display("a\"b"));
	assert_non_null(display("a'b"));
	assert_non_null(display("a`b"));
	assert_non_null(display("a\\b"));
	assert_non_null(display("a;b"));
	assert_non_null(display("a\tb"));
	assert_non_null(display("a\nb"));
	assert_non_null(display("a\x7f" "b"));
	assert_non_null(display("a\xc2\x85" "b"));	/* U+0085 NEL */
	assert_null(display("a\xc2\xa0" "b"));	/* U+00A0 is fine */
	assert_non_null(repo_lead_schema_display_check("a\0b", 3));
	/* 255 characters, counted as characters, not bytes. */
	for (i = 0; i < LF_DISPLAY_BYTES; i++)
		memcpy(d + 2 * i, "\xc3\xa9", 2);
	d[2 * LF_DISPLAY_BYTES] = '\0';
	assert_null(display(d));
	memcpy(d + 2 * LF_DISPLAY_BYTES, "x", 2);
	assert_string_equal(display(d), "must be at most 255 characters");
}

static void
test_descriptions(void **state)
{
	static char d[LF_DESCRIPTION_BYTES + 2];

	(void)state;
	assert_null(repo_lead_schema_description_check(NULL, 0));
	assert_null(repo_lead_schema_description_check("", 0));
	assert_null(repo_lead_schema_description_check("a\nb <i>", 7));
	assert_non_null(repo_lead_schema_description_check("a\0b", 3));
	memset(d, 'd', LF_DESCRIPTION_BYTES);
	assert_null(repo_lead_schema_description_check(d,
	    LF_DESCRIPTION_BYTES));
	d[LF_DESCRIPTION_BYTES] = 'd';
	assert_non_null(repo_lead_schema_description_check(d,
	    LF_DESCRIPTION_BYTES + 1));
}

static void
test_types(void **state)
{
	static const char *const creatable[] = {
		"boolean", "currency", "date", "datetime", "email", "float",
		"integer", "percent", "phone", "score", "string", "url",
	};
	enum lf_type t;
	size_t i, n = 0;

	(void)state;
	for (i = 0; i < sizeof(creatable) / sizeof(creatable[0]); i++) {
		assert_int_equal(lf_type_parse(creatable[i], &t), 0);
		assert_true(repo_lead_schema_type_creatable(t));
	}
	for (t = 0; t < LF_TYPE__MAX; t++)
		n += repo_lead_schema_type_creatable(t);
	assert_int_equal(n, sizeof(creatable) / sizeof(creatable[0]));
	assert_false(repo_lead_schema_type_creatable(LF_TEXT));
	assert_false(repo_lead_schema_type_creatable(LF_REFERENCE));
	assert_false(repo_lead_schema_type_creatable(LF_FORMULA));
	assert_false(repo_lead_schema_type_creatable(LF_TYPE__MAX));
	assert_true(repo_lead_schema_is_searchable(LF_STRING));
	assert_true(repo_lead_schema_is_searchable(LF_EMAIL));
	assert_true(repo_lead_schema_is_searchable(LF_INTEGER));
	assert_false(repo_lead_schema_is_searchable(LF_PHONE));
	assert_false(repo_lead_schema_is_searchable(LF_SCORE));
	assert_false(repo_lead_schema_is_searchable(LF_BOOLEAN));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_good),
		cmocka_unit_test(test_names_bad),
		cmocka_unit_test(test_names_reserved),
		cmocka_unit_test(test_display_names),
		cmocka_unit_test(test_descriptions),
		cmocka_unit_test(test_types),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
