/*
 * model/folder.c: the lenient folder parameter, the folderId + folderType
 * pair, the folder kinds and which asset may live where.  No database.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/folder.h"

/* Parses s, which must succeed with id and type. */
static void
accept(const char *s, int64_t id, enum folder_type type)
{
	struct folder_ref f;

	if (folder_ref_parse(s, &f) != 0)
		fail_msg("refused: %s", s);
	assert_int_equal(f.id, id);
	assert_int_equal(f.type, type);
}

/* Parses s, which must fail and leave *out zeroed. */
static void
refuse(const char *s)
{
	struct folder_ref f = { .id = 99, .type = FOLDER_T_PROGRAM };

	if (folder_ref_parse(s, &f) != -1)
		fail_msg("accepted: %s", s);
	assert_int_equal(f.id, 0);
	assert_int_equal(f.type, FOLDER_T_FOLDER);
}

static void
test_parse_forms(void **state)
{
	(void)state;
	/* JSON, either order. */
	accept("{\"id\":12,\"type\":\"Folder\"}", 12, FOLDER_T_FOLDER);
	accept("{\"type\":\"Program\",\"id\":7}", 7, FOLDER_T_PROGRAM);
	/* Python's repr, with and without quotes around the type word. */
	accept("{'id': 12, 'type': 'Folder'}", 12, FOLDER_T_FOLDER);
	accept("{'id': 12, 'type': Folder}", 12, FOLDER_T_FOLDER);
	accept("{'id': 3, 'type': Program}", 3, FOLDER_T_PROGRAM);
	/* Java's Map.toString: '=' and nothing quoted. */
	accept("{id=12, type=Folder}", 12, FOLDER_T_FOLDER);
	accept("{type=Program, id=5}", 5, FOLDER_T_PROGRAM);
	/* ':' and '=' mixed. */
	accept("{id=1,type:folder}", 1, FOLDER_T_FOLDER);
	/* Any letter case in the type word and the member names. */
	accept("{\"id\":1,\"type\":\"folder\"}", 1, FOLDER_T_FOLDER);
	accept("{\"id\":1,\"type\":\"FOLDER\"}", 1, FOLDER_T_FOLDER);
	accept("{\"id\":1,\"type\":\"program\"}", 1, FOLDER_T_PROGRAM);
	accept("{\"id\":1,\"type\":\"PrOgRaM\"}", 1, FOLDER_T_PROGRAM);
	accept("{\"ID\":1,\"TYPE\":\"Folder\"}", 1, FOLDER_T_FOLDER);
	accept("{Id:1,Type:Folder}", 1, FOLDER_T_FOLDER);
	/* White space anywhere between tokens. */
	accept(" { \"id\" : 12 , \"type\" : \"Folder\" } ", 12,
	    FOLDER_T_FOLDER);
	accept("\t{\n\"id\"\r\n:\t12,\n  \"type\":\"Folder\"\n}\n", 12,
	    FOLDER_T_FOLDER);
	/* The id as a quoted number. */
	accept("{\"id\":\"12\",\"type\":\"Folder\"}", 12, FOLDER_T_FOLDER);
	accept("{'id':'12','type':'Folder'}", 12, FOLDER_T_FOLDER);
	/* The bounds of the id. */
	accept("{\"id\":1,\"type\":\"Folder\"}", 1, FOLDER_T_FOLDER);
	accept("{\"id\":2147483647,\"type\":\"Folder\"}", INT32_MAX,
	    FOLDER_T_FOLDER);
	accept("{\"id\":007,\"type\":\"Folder\"}", 7, FOLDER_T_FOLDER);
}

static void
test_parse_refused(void **state)
{
	char big[320], nul[] = "{\"id\":1,\"type\":\"Folder\"}";
	size_t n;

	(void)state;
	refuse(NULL);
	refuse("");
	refuse(" ");
	refuse("{}");
	refuse("{ }");
	refuse("12");
	refuse("Folder");
	refuse("[12,\"Folder\"]");
	/* A member missing. */
	refuse("{id:1}");
	refuse("{\"id\":1}");
	refuse("{\"type\":\"Folder\"}");
	refuse("{\"id\":1,}");
	refuse("{\"id\":1,\"type\":}");
	refuse("{\"id\":,\"type\":\"Folder\"}");
	refuse("{:1,\"type\":\"Folder\"}");
	/* The id out of range or not a whole number. */
	refuse("{\"id\":0,\"type\":\"Folder\"}");
	refuse("{\"id\":-1,\"type\":\"Folder\"}");
	refuse("{\"id\":+1,\"type\":\"Folder\"}");
	refuse("{\"id\":2147483648,\"type\":\"Folder\"}");
	refuse("{\"id\":4294967297,\"type\":\"Folder\"}");
	refuse("{\"id\":9223372036854775807,\"type\":\"Folder\"}");
	refuse("{\"id\":9223372036854775808,\"type\":\"Folder\"}");
	refuse("{\"id\":99999999999999999999999999,\"type\":\"Folder\"}");
	refuse("{\"id\":1.5,\"type\":\"Folder\"}");
	refuse("{\"id\":1e3,\"type\":\"Folder\"}");
	refuse("{\"id\":0x10,\"type\":\"Folder\"}");
	refuse("{\"id\":\"\",\"type\":\"Folder\"}");
	refuse("{\"id\":\" 1\",\"type\":\"Folder\"}");
	refuse("{\"id\":1 2,\"type\":\"Folder\"}");
	refuse("{\"id\":null,\"type\":\"Folder\"}");
	refuse("{\"id\":true,\"type\":\"Folder\"}");
	/* An unknown type word. */
	refuse("{\"id\":1,\"type\":\"Folders\"}");
	refuse("{\"id\":1,\"type\":\"Fold\"}");
	refuse("{\"id\":1,\"type\":\"Campaign\"}");
	refuse("{\"id\":1,\"type\":\"\"}");
	refuse("{\"id\":1,\"type\":\" Folder\"}");
	refuse("{\"id\":1,\"type\":1}");
	refuse("{\"id\":1,\"type\":null}");
	/* Unknown and misspelt members. */
	refuse("{\"id\":1,\"type\":\"Folder\",\"name\":\"x\"}");
	refuse("{\"ids\":1,\"type\":\"Folder\"}");
	refuse("{\"id\":1,\"kind\":\"Folder\"}");
	/* Trailing junk. */
	refuse("{\"id\":1,\"type\":\"Folder\"}x");
	refuse("{\"id\":1,\"type\":\"Folder\"},");
	refuse("{\"id\":1,\"type\":\"Folder\"}}");
	refuse("{\"id\":1,\"type\":\"Folder\"} {}");
	refuse("{\"id\":1,\"type\":\"Folder\"");
	refuse("{\"id\":1,\"type\":\"Folder\",}");
	refuse("x{\"id\":1,\"type\":\"Folder\"}");
	/* Unbalanced or mismatched quotes. */
	refuse("{\"id\":1,\"type\":\"Folder}");
	refuse("{\"id\":1,\"type\":Folder\"}");
	refuse("{\"id\":1,\"type\":'Folder\"}");
	refuse("{\"id':1,\"type\":\"Folder\"}");
	refuse("{\"id\":\"1,\"type\":\"Folder\"}");
	refuse("{\"id\":1',\"type\":\"Folder\"}");
	refuse("{\"\"id\"\":1,\"type\":\"Folder\"}");
	/* Escapes are not JSON's here. */
	refuse("{\"\\u0069d\":1,\"type\":\"Folder\"}");
	/* Duplicate members. */
	refuse("{\"id\":1,\"id\":2}");
	refuse("{\"type\":\"Folder\",\"type\":\"Program\"}");
	refuse("{\"id\":1,\"type\":\"Folder\",\"id\":2}");
	refuse("{\"id\":1,\"ID\":1,\"type\":\"Folder\"}");
	/* Nested objects and arrays. */
	refuse("{\"id\":{\"id\":1},\"type\":\"Folder\"}");
	refuse("{\"id\":1,\"type\":{\"type\":\"Folder\"}}");
	refuse("{{\"id\":1,\"type\":\"Folder\"}}");
	refuse("{\"id\":[1],\"type\":\"Folder\"}");
	refuse("{\"folder\":{\"id\":1,\"type\":\"Folder\"}}");
	/* Separators. */
	refuse("{\"id\"1,\"type\":\"Folder\"}");
	refuse("{\"id\"::1,\"type\":\"Folder\"}");
	refuse("{\"id\":1;\"type\":\"Folder\"}");
	refuse("{\"id\":1 \"type\":\"Folder\"}");
	/* Control bytes, DEL and bytes outside ASCII. */
	refuse("{\"id\":1,\"type\":\"Fol\x01" "der\"}");
	refuse("{\"id\":1,\x0b\"type\":\"Folder\"}");
	refuse("{\"id\":1,\"type\":\"Folder\"}\x7f");
	refuse("{\"id\":1,\"type\":\"Folder\"}\x1b");
	refuse("{\"id\":1,\"type\":\"F\xc3\xb6lder\"}");
	refuse("\xef\xbb\xbf{\"id\":1,\"type\":\"Folder\"}");
	/* An embedded NUL ends the C string: what precedes it is read. */
	nul[10] = '\0';
	refuse(nul);
	/* Longer than FOLDER_PARAM_MAX_BYTES, even when well formed. */
	memset(big, ' ', sizeof(big));
	memcpy(big, "{\"id\":1,\"type\":\"Folder\"}", 24);
	big[FOLDER_PARAM_MAX_BYTES] = '\0';
	accept(big, 1, FOLDER_T_FOLDER);
	big[FOLDER_PARAM_MAX_BYTES] = ' ';
	big[FOLDER_PARAM_MAX_BYTES + 1] = '\0';
	refuse(big);
	big[300] = '\0';
	refuse(big);
	memset(big, '{', 300);
	refuse(big);
	memset(big, '"', 300);
	refuse(big);
	/* A long token stops at its bound. */
	memset(big, '1', sizeof(big));
	memcpy(big, "{\"id\":", 6);
	n = 6 + 200;
	memcpy(big + n, ",\"type\":\"Folder\"}", 18);
	refuse(big);
}

static void
test_pair(void **state)
{
	struct folder_ref f;

	(void)state;
	assert_int_equal(folder_ref_pair("12", "Folder", &f), 0);
	assert_int_equal(f.id, 12);
	assert_int_equal(f.type, FOLDER_T_FOLDER);
	assert_int_equal(folder_ref_pair("7", "program", &f), 0);
	assert_int_equal(f.id, 7);
	assert_int_equal(f.type, FOLDER_T_PROGRAM);
	assert_int_equal(folder_ref_pair("7", "PROGRAM", &f), 0);
	assert_int_equal(f.type, FOLDER_T_PROGRAM);
	assert_int_equal(folder_ref_pair("7", "fOlDeR", &f), 0);
	assert_int_equal(f.type, FOLDER_T_FOLDER);
	/* No type is a folder. */
	assert_int_equal(folder_ref_pair("3", NULL, &f), 0);
	assert_int_equal(f.id, 3);
	assert_int_equal(f.type, FOLDER_T_FOLDER);
	assert_int_equal(folder_ref_pair("2147483647", NULL, &f), 0);
	assert_int_equal(f.id, INT32_MAX);
	assert_int_equal(folder_ref_pair("2147483648", NULL, &f), -1);
	assert_int_equal(f.id, 0);
	assert_int_equal(folder_ref_pair(NULL, "Folder", &f), -1);
	assert_int_equal(folder_ref_pair("", "Folder", &f), -1);
	assert_int_equal(folder_ref_pair("0", "Folder", &f), -1);
	assert_int_equal(folder_ref_pair("-3", "Folder", &f), -1);
	assert_int_equal(folder_ref_pair(" 3", "Folder", &f), -1);
	assert_int_equal(folder_ref_pair("3 ", "Folder", &f), -1);
	assert_int_equal(folder_ref_pair("+3", "Folder", &f), -1);
	assert_int_equal(folder_ref_pair("3x", "Folder", &f), -1);
	assert_int_equal(folder_ref_pair("1.0", "Folder", &f), -1);
	assert_int_equal(folder_ref_pair("12", "", &f), -1);
	assert_int_equal(folder_ref_pair("12", "Folders", &f), -1);
	assert_int_equal(folder_ref_pair("12", " Folder", &f), -1);
	assert_int_equal(folder_ref_pair("12", "Campaign", &f), -1);
	assert_int_equal(f.id, 0);
	assert_int_equal(f.type, FOLDER_T_FOLDER);
}

static void
test_names(void **state)
{
	int k;

	(void)state;
	assert_string_equal(folder_type_name(FOLDER_T_FOLDER), "Folder");
	assert_string_equal(folder_type_name(FOLDER_T_PROGRAM), "Program");
	assert_string_equal(folder_kind_name(FK_MARKETING), "marketing");
	assert_string_equal(folder_kind_name(FK_EMAIL), "email");
	assert_string_equal(folder_kind_name(FK_EMAIL_TEMPLATE),
	    "emailTemplate");
	assert_string_equal(folder_kind_name(FK_LP_TEMPLATE),
	    "landingPageTemplate");
	assert_string_equal(folder_kind_name(FK_SMART_LIST), "smartList");
	assert_string_equal(folder_kind_name(FK_STATIC_LIST), "staticList");
	assert_string_equal(folder_kind_name(FK__MAX), "");
	for (k = 0; k < FK__MAX; k++)
		assert_int_equal(folder_kind_parse(
		    folder_kind_name((enum folder_kind)k)), k);
	/* The words are the folder table's, exactly. */
	assert_int_equal(folder_kind_parse("Marketing"), -1);
	assert_int_equal(folder_kind_parse("emailtemplate"), -1);
	assert_int_equal(folder_kind_parse("program"), -1);
	assert_int_equal(folder_kind_parse(""), -1);
	assert_int_equal(folder_kind_parse(NULL), -1);
}

static void
test_may_hold(void **state)
{
	/* Rows: folder kinds, then a program; columns: enum asset_kind. */
	static const bool table[FK__MAX + 1][AK__MAX] = {
		/*	folder program email emailT lpT  list  campaign static */
		[FK_MARKETING] =      { 1, 1, 0, 0, 0, 0, 1, 0 },
		[FK_EMAIL] =          { 1, 0, 1, 0, 0, 0, 0, 0 },
		[FK_EMAIL_TEMPLATE] = { 1, 0, 0, 1, 0, 0, 0, 0 },
		[FK_LP_TEMPLATE] =    { 1, 0, 0, 0, 1, 0, 0, 0 },
		[FK_SMART_LIST] =     { 1, 0, 0, 0, 0, 1, 0, 0 },
		[FK_STATIC_LIST] =    { 1, 0, 0, 0, 0, 0, 0, 1 },
		[FK__MAX] =           { 0, 0, 1, 0, 0, 1, 1, 1 },
	};
	int fk, ak;

	(void)state;
	for (fk = 0; fk <= FK__MAX; fk++)
		for (ak = 0; ak < AK__MAX; ak++) {
			if (folder_may_hold((enum folder_kind)(fk % FK__MAX),
			    fk == FK__MAX, (enum asset_kind)ak) !=
			    table[fk][ak])
				fail_msg("folder kind %d, asset kind %d", fk,
				    ak);
		}
	/* A program ignores the folder kind. */
	for (fk = 0; fk < FK__MAX; fk++) {
		assert_true(folder_may_hold((enum folder_kind)fk, true,
		    AK_SMART_CAMPAIGN));
		assert_false(folder_may_hold((enum folder_kind)fk, true,
		    AK_FOLDER));
	}
	/* Out of range values hold nothing. */
	assert_false(folder_may_hold(FK__MAX, false, AK_FOLDER));
	assert_false(folder_may_hold(FK_EMAIL, false, AK__MAX));
	assert_false(folder_may_hold(FK_EMAIL, true, AK__MAX));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_forms),
		cmocka_unit_test(test_parse_refused),
		cmocka_unit_test(test_pair),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_may_hold),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
