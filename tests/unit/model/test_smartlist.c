/*
 * model/smartlist.c: the filter logic of smart lists, accepted in its
 * canonical form, refused with its reason (hostile, unbalanced, deep,
 * long), and renumbered as rules move and go.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/smartlist.h"

static void
ok(const char *expr, int nrules, const char *want)
{
	char out[SL_LOGIC_MAX_BYTES + 1], again[SL_LOGIC_MAX_BYTES + 1];
	char msg[SL_MSG_BYTES];

	if (sl_logic_parse(expr, nrules, out, msg) != 0)
		fail_msg("'%s' refused: %s", expr, msg);
	assert_string_equal(out, want);
	/* The canonical form parses to itself. */
	assert_int_equal(sl_logic_parse(out, nrules, again, msg), 0);
	assert_string_equal(again, want);
}

static void
bad(const char *expr, int nrules, const char *want)
{
	char out[SL_LOGIC_MAX_BYTES + 1], msg[SL_MSG_BYTES];

	assert_int_equal(sl_logic_parse(expr, nrules, out, msg), -1);
	assert_string_equal(out, "");
	if (strstr(msg, want) == NULL)
		fail_msg("'%s': message '%s' lacks '%s'", expr, msg, want);
}

static void
test_valid(void **state)
{
	(void)state;
	ok("1", 1, "1");
	ok("1 and 2", 2, "1 and 2");
	ok("1 AND (2 Or 3)", 3, "1 and (2 or 3)");
	ok("  1 and(2 or 3)  ", 3, "1 and (2 or 3)");
	ok("(1 and 2) or 3", 3, "1 and 2 or 3");
	ok("1 or 2 and 3", 3, "1 or 2 and 3");
	ok("not 1 and not (2 or 3)", 3, "not 1 and not (2 or 3)");
	ok("not (1 and 2)", 2, "not (1 and 2)");
	ok("not not 1", 1, "not not 1");
	ok("((((1))))", 1, "1");
	ok("1 and 1", 1, "1 and 1");
	ok("(1 or 2) and (3 or 4)", 4, "(1 or 2) and (3 or 4)");
	ok("\t1\nor\r2", 2, "1 or 2");
}

static void
test_hostile(void **state)
{
	(void)state;
	bad("", 3, "ends too early");
	bad("   ", 3, "ends too early");
	bad("4", 3, "Rule 4 in filter logic does not exist");
	bad("0", 3, "Rule 0");
	bad("1 and 99999999999999999999", 3, "does not exist");
	bad("1 and", 3, "ends too early");
	bad("and 1", 3, "Unexpected text");
	bad("(1 and 2", 3, "Unbalanced parentheses");
	bad("1 and 2)", 3, "Unbalanced parentheses");
	bad(")(", 3, "Unbalanced parentheses");
	bad("1 2", 3, "Unexpected text");
	bad("1 xor 2", 3, "Unexpected text");
	bad("1 andor 2", 3, "Unexpected text");
	bad("1and2", 3, "Unexpected text");
	bad("-1", 3, "Unexpected text");
	bad("1 && 2", 3, "Unexpected text");
	bad("1 and 2; DROP TABLE smart_list", 3, "Unexpected text");
	bad("1 \xc3\xa9 2", 3, "Unexpected text");
	bad("not", 3, "ends too early");
	bad("()", 3, "Unbalanced parentheses");
	bad("1", 0, "does not exist");
}

static void
test_deep(void **state)
{
	char in[512], out[SL_LOGIC_MAX_BYTES + 1], msg[SL_MSG_BYTES];
	char nots[SL_LOGIC_MAX_BYTES + 8];
	int i, n;

	(void)state;
	/* 30 levels pass; 200 are refused, without a crash. */
	for (n = 30; n <= 200; n += 170) {
		memset(in, 0, sizeof(in));
		for (i = 0; i < n; i++)
			strcat(in, "(");
		strcat(in, "1");
		for (i = 0; i < n; i++)
			strcat(in, ")");
		if (n == 30) {
			assert_int_equal(sl_logic_parse(in, 1, out, msg), 0);
			assert_string_equal(out, "1");
		} else
			bad(in, 1, "nested too deeply");
	}
	nots[0] = '\0';
	for (i = 0; i < 400; i++)
		strcat(nots, "not ");
	strcat(nots, "1");
	bad(nots, 1, "nested too deeply");
	memset(nots, '(', sizeof(nots) - 1);
	nots[sizeof(nots) - 1] = '\0';
	bad(nots, 1, "too long");
}

static void
test_hundred_rules(void **state)
{
	char in[SL_LOGIC_MAX_BYTES + 1], out[SL_LOGIC_MAX_BYTES + 1];
	char msg[SL_MSG_BYTES], num[16];
	int i;

	(void)state;
	in[0] = '\0';
	for (i = 1; i <= 100; i++) {
		(void)snprintf(num, sizeof(num), i == 1 ? "%d" :
		    i % 2 == 0 ? " and %d" : " or %d", i);
		strcat(in, num);
	}
	assert_int_equal(sl_logic_parse(in, 100, out, msg), 0);
	assert_string_equal(out, in);
	bad(in, 99, "Rule 100 in filter logic does not exist");
}

static void
renum(const char *expr, const int *map, int nold, const char *want)
{
	char out[SL_LOGIC_MAX_BYTES + 1];

	assert_int_equal(sl_logic_renumber(expr, map, nold, out), 0);
	assert_string_equal(out, want);
}

static void
test_renumber(void **state)
{
	static const int swap[] = { 2, 1, 3 };
	static const int del2[] = { 1, 0, 2 };
	static const int del1[] = { 0, 1, 2 };
	static const int none[] = { 0, 0, 0 };
	char out[SL_LOGIC_MAX_BYTES + 1];

	(void)state;
	renum("1 and (2 or 3)", swap, 3, "2 and (1 or 3)");
	renum("1 and (2 or 3)", del2, 3, "1 and 2");
	renum("1 and (2 or 3)", del1, 3, "1 or 2");
	renum("not 2 and 3", del2, 3, "2");
	renum("1 and not (2 or 3)", del1, 3, "not (1 or 2)");
	renum("1 or 2 and 3", none, 3, "");
	assert_int_equal(sl_logic_renumber("1 and", swap, 3, out), -1);
}

static void
test_reorder(void **state)
{
	static const int32_t ids[] = { 10, 20, 30, 40 };
	int32_t mv[2];
	int idx[2], map[4];
	char msg[SL_MSG_BYTES];

	(void)state;
	mv[0] = 40;
	idx[0] = 1;
	assert_int_equal(sl_reorder(ids, 4, mv, idx, 1, map, msg), 0);
	assert_int_equal(map[0], 2);
	assert_int_equal(map[1], 3);
	assert_int_equal(map[2], 4);
	assert_int_equal(map[3], 1);
	mv[1] = 10;
	idx[1] = 4;
	assert_int_equal(sl_reorder(ids, 4, mv, idx, 2, map, msg), 0);
	assert_int_equal(map[0], 4);
	assert_int_equal(map[1], 2);
	assert_int_equal(map[2], 3);
	assert_int_equal(map[3], 1);
	mv[1] = 40;
	assert_int_equal(sl_reorder(ids, 4, mv, idx, 2, map, msg), -1);
	assert_non_null(strstr(msg, "given twice"));
	mv[0] = 99;
	assert_int_equal(sl_reorder(ids, 4, mv, idx, 1, map, msg), -1);
	assert_non_null(strstr(msg, "Rule 99 is not"));
	mv[0] = 10;
	idx[0] = 5;
	assert_int_equal(sl_reorder(ids, 4, mv, idx, 1, map, msg), -1);
	assert_non_null(strstr(msg, "out of range"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_deep),
		cmocka_unit_test(test_hundred_rules),
		cmocka_unit_test(test_renumber),
		cmocka_unit_test(test_reorder),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
