/*
 * The sort of fetched text rows by integer columns (db/query.c
 * db_text_sort), as the smart campaign and smart list reads use it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "db/query.h"
#include "util/arena.h"

/* Rows of three columns: step, choice, a label; "10" sorts after "9". */
static const char *cells[] = {
	"10", "0", "e",
	"2", "1", "c",
	"2", "0", "b",
	"9", "0", "d",
	"2", "1", "c2",
	"1", NULL, "a",
};

static void
rows(struct db_text_rows *t, const char **v, size_t *len)
{
	size_t i, n = sizeof(cells) / sizeof(cells[0]);

	for (i = 0; i < n; i++) {
		v[i] = cells[i];
		len[i] = cells[i] != NULL ? strlen(cells[i]) : 0;
	}
	t->v = v;
	t->len = len;
	t->ncol = 3;
	t->count = n / 3;
}

static void
test_sorts_by_numbers_keeping_ties(void **state)
{
	static const size_t keys[] = { 0, 1 };
	static const char *want[] = { "a", "b", "c", "c2", "d", "e" };
	const char *v[sizeof(cells) / sizeof(cells[0])];
	size_t len[sizeof(cells) / sizeof(cells[0])], i;
	struct db_text_rows t;
	struct arena a;

	(void)state;
	arena_init(&a);
	rows(&t, v, len);
	assert_int_equal(db_text_sort(&t, &a, keys, 2), 0);
	assert_int_equal(t.count, 6);
	for (i = 0; i < t.count; i++) {
		assert_string_equal(db_text_str(&t, i, 2), want[i]);
		assert_int_equal(t.len[i * 3 + 2], strlen(want[i]));
	}
	/* A NULL key counts as 0, and its row keeps its NULL. */
	assert_null(db_text_str(&t, 0, 1));
	arena_clear(&a);
}

static void
test_one_row_and_none(void **state)
{
	static const size_t keys[] = { 0 };
	const char *v[3] = { "5", "x", "y" };
	size_t len[3] = { 1, 1, 1 };
	struct db_text_rows t = { .v = v, .len = len, .ncol = 3, .count = 1 };
	struct arena a;

	(void)state;
	arena_init(&a);
	assert_int_equal(db_text_sort(&t, &a, keys, 1), 0);
	assert_string_equal(db_text_str(&t, 0, 1), "x");
	t.count = 0;
	assert_int_equal(db_text_sort(&t, &a, keys, 1), 0);
	arena_clear(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sorts_by_numbers_keeping_ties),
		cmocka_unit_test(test_one_row_and_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
