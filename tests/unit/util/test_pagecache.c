/*
 * The host's shared page cache (util/pagecache.c): hits and misses, the
 * replacement of a key, the bounds, the two slots of a set with the less
 * recently used one replaced, and pages shared between processes while
 * they are replaced.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "bounds.h"
#include "util/arena.h"
#include "util/pagecache.h"

static struct arena arena;

static int
has(struct pagecache *pc, const char *key, const char *want)
{
	const char *p;
	size_t len;

	if (pagecache_get(pc, key, &arena, &p, &len) != 0)
		return 0;
	assert_int_equal(len, strlen(want));
	assert_memory_equal(p, want, len);
	assert_int_equal(p[len], '\0');
	return 1;
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
test_get_put_replace(void **state)
{
	struct pagecache *pc = pagecache_create();

	(void)state;
	assert_non_null(pc);
	assert_false(has(pc, "a", ""));
	assert_int_equal(pagecache_put(pc, "a", "[1,2]", 5), 0);
	assert_true(has(pc, "a", "[1,2]"));
	assert_false(has(pc, "b", ""));
	assert_int_equal(pagecache_put(pc, "a", "[3]", 3), 0);
	assert_true(has(pc, "a", "[3]"));
	assert_int_equal(pagecache_put(pc, "empty", "", 0), 0);
	assert_true(has(pc, "empty", ""));
	pagecache_destroy(pc);
}

/* NULL keeps nothing, and says so. */
static void
test_null(void **state)
{
	const char *p;
	size_t len;

	(void)state;
	assert_int_equal(pagecache_put(NULL, "a", "x", 1), -1);
	assert_int_equal(pagecache_get(NULL, "a", &arena, &p, &len), -1);
	pagecache_destroy(NULL);
}

/* Pages and keys past their bounds are not kept. */
static void
test_bounds(void **state)
{
	struct pagecache *pc = pagecache_create();
	size_t big = PAGECACHE_PAGE_BYTES + 1;
	char *page = calloc(1, big), key[PAGECACHE_KEY_BYTES + 1];

	(void)state;
	assert_non_null(page);
	memset(page, 'x', big);
	assert_int_equal(pagecache_put(pc, "a", page, big), -1);
	assert_false(has(pc, "a", ""));
	assert_int_equal(pagecache_put(pc, "a", page, big - 1), 0);
	memset(key, 'k', sizeof(key) - 1);
	key[sizeof(key) - 1] = '\0';
	assert_int_equal(pagecache_put(pc, key, "x", 1), -1);
	key[PAGECACHE_KEY_BYTES - 1] = '\0';
	assert_int_equal(pagecache_put(pc, key, "x", 1), 0);
	assert_true(has(pc, key, "x"));
	free(page);
	pagecache_destroy(pc);
}

/*
 * Many keys: every set holds its two most recently used; a key used
 * again after being kept survives a third key of its set.
 */
static void
test_sets_lru(void **state)
{
	struct pagecache *pc = pagecache_create();
	char key[32];
	int i, kept = 0, n = PAGECACHE_SLOTS * 4;

	(void)state;
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		assert_int_equal(pagecache_put(pc, key, key, strlen(key)), 0);
	}
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		kept += has(pc, key, key);
	}
	/* Never more than the slots; the last keys written are all there. */
	assert_true(kept <= PAGECACHE_SLOTS);
	assert_true(kept > PAGECACHE_SLOTS / 2);
	for (i = n - 8; i < n; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		assert_true(has(pc, key, key));
	}
	pagecache_destroy(pc);
}

/*
 * Made before fork, the cache is the host's: a child's page is read by
 * the parent; children rewriting one key while the parent reads it never
 * give the parent a torn page.
 */
static void
test_shared_no_torn_pages(void **state)
{
	struct pagecache *pc = pagecache_create();
	static char a[PAGECACHE_PAGE_BYTES], b[PAGECACHE_PAGE_BYTES];
	const char *p;
	size_t len;
	pid_t kids[2];
	int i, k, st;

	(void)state;
	memset(a, 'a', sizeof(a));
	memset(b, 'b', sizeof(b));
	if ((kids[0] = fork()) == 0) {
		_exit(pagecache_put(pc, "child", "from the child", 14) == 0 ?
		    0 : 1);
	}
	assert_int_equal(waitpid(kids[0], &st, 0), kids[0]);
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_true(has(pc, "child", "from the child"));
	for (k = 0; k < 2; k++) {
		if ((kids[k] = fork()) == 0) {
			for (i = 0; i < 3000; i++)
				(void)pagecache_put(pc, "page", k ? b : a,
				    (size_t)(1000 + (i % 7) * 10000));
			_exit(0);
		}
	}
	for (i = 0; i < 3000; i++) {
		if (pagecache_get(pc, "page", &arena, &p, &len) != 0)
			continue;
		assert_true(len >= 1000);
		assert_true(p[0] == 'a' || p[0] == 'b');
		/* One writer's page whole: every byte alike. */
		assert_true(memchr(p, p[0] == 'a' ? 'b' : 'a', len) == NULL);
		arena_reset(&arena);
	}
	for (k = 0; k < 2; k++) {
		assert_int_equal(waitpid(kids[k], &st, 0), kids[k]);
		assert_int_equal(WEXITSTATUS(st), 0);
	}
	pagecache_destroy(pc);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_get_put_replace, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_null, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bounds, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sets_lru, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_shared_no_torn_pages,
		    setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
