/*
 * The worker's page cache (util/pagecache.c): hits and misses, the
 * replacement of a key, and the three bounds with least-recently-used
 * eviction.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bounds.h"
#include "util/pagecache.h"

static int
has(struct pagecache *pc, const char *key, const char *want)
{
	const char *p;
	size_t len;

	if (pagecache_get(pc, key, &p, &len) != 0)
		return 0;
	assert_int_equal(len, strlen(want));
	assert_memory_equal(p, want, len);
	assert_int_equal(p[len], '\0');
	return 1;
}

static void
test_get_put_replace(void **state)
{
	struct pagecache *pc = pagecache_new();
	const char *kept;

	(void)state;
	assert_false(has(pc, "a", ""));
	kept = pagecache_put(pc, "a", "[1,2]", 5);
	assert_non_null(kept);
	assert_string_equal(kept, "[1,2]");
	assert_true(has(pc, "a", "[1,2]"));
	assert_false(has(pc, "b", ""));
	assert_non_null(pagecache_put(pc, "a", "[3]", 3));
	assert_true(has(pc, "a", "[3]"));
	pagecache_free(pc);
}

/* Past PAGECACHE_ENTRIES the least recently used key goes. */
static void
test_entries_lru(void **state)
{
	struct pagecache *pc = pagecache_new();
	char key[32];
	int i;

	(void)state;
	for (i = 0; i < PAGECACHE_ENTRIES; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		assert_non_null(pagecache_put(pc, key, key, strlen(key)));
	}
	assert_true(has(pc, "k0", "k0"));	/* k1 is now the oldest */
	assert_non_null(pagecache_put(pc, "new", "x", 1));
	assert_true(has(pc, "k0", "k0"));
	assert_false(has(pc, "k1", ""));
	assert_true(has(pc, "k2", "k2"));
	assert_true(has(pc, "new", "x"));
	pagecache_free(pc);
}

/* A page over PAGECACHE_PAGE_BYTES is not kept, nor what it replaced. */
static void
test_page_bound(void **state)
{
	struct pagecache *pc = pagecache_new();
	size_t big = PAGECACHE_PAGE_BYTES + 1;
	char *page = calloc(1, big);

	(void)state;
	assert_non_null(page);
	memset(page, 'x', big);
	assert_non_null(pagecache_put(pc, "a", "old", 3));
	assert_null(pagecache_put(pc, "a", page, big));
	assert_false(has(pc, "a", ""));
	assert_non_null(pagecache_put(pc, "a", page, big - 1));
	free(page);
	pagecache_free(pc);
}

/* The byte bound drops the oldest pages until the new one fits. */
static void
test_bytes_bound(void **state)
{
	struct pagecache *pc = pagecache_new();
	size_t size = PAGECACHE_PAGE_BYTES, n = PAGECACHE_BYTES / size, i;
	char *page = malloc(size), key[32];
	const char *p;
	size_t len;

	(void)state;
	assert_non_null(page);
	memset(page, 'y', size);
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "p%zu", i);
		assert_non_null(pagecache_put(pc, key, page, size));
	}
	assert_int_equal(pagecache_get(pc, "p0", &p, &len), 0);
	assert_non_null(pagecache_put(pc, "last", page, size));
	assert_int_equal(pagecache_get(pc, "p0", &p, &len), 0);
	assert_int_equal(pagecache_get(pc, "p1", &p, &len), -1);
	assert_int_equal(pagecache_get(pc, "last", &p, &len), 0);
	assert_int_equal(len, size);
	free(page);
	pagecache_free(pc);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_get_put_replace),
		cmocka_unit_test(test_entries_lru),
		cmocka_unit_test(test_page_bound),
		cmocka_unit_test(test_bytes_bound),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
