/*
 * Request ids: the "<A>#<B>" shape of docs/behaviour.md §0, B is the
 * current Unix time in milliseconds, A carries the worker index so two
 * workers never collide, and a worker's ids do not repeat.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "util/rid.h"

/* All distinct values of A's counter bits: one full cycle. */
#define MANY	(1 << (20 - RID_WORKER_BITS))

static unsigned long long
wall_ms(void)
{
	struct timespec ts;

	assert_int_equal(clock_gettime(CLOCK_REALTIME, &ts), 0);
	return (unsigned long long)ts.tv_sec * 1000u +
	    (unsigned long long)ts.tv_nsec / 1000000u;
}

static bool
is_lower_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		    (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/* Splits an id into A and B, checking the shape; returns B. */
static unsigned long long
split(const char *id, unsigned *a)
{
	const char *hash = strchr(id, '#');
	size_t alen, blen;
	char *end;
	unsigned long long b;

	assert_non_null(hash);
	alen = (size_t)(hash - id);
	blen = strlen(hash + 1);
	assert_true(alen >= 1 && alen <= 5);
	assert_true(is_lower_hex(id, alen));
	assert_true(blen >= 11 && is_lower_hex(hash + 1, blen));
	*a = (unsigned)strtoul(id, NULL, 16);
	b = strtoull(hash + 1, &end, 16);
	assert_true(*end == '\0');
	return b;
}

static void
test_shape_and_time(void **state)
{
	char buf[RID_BYTES], want[RID_BYTES];
	unsigned long long before, after, b;
	unsigned a;

	(void)state;
	rid_init(3);
	before = wall_ms();
	assert_ptr_equal(rid_next(buf, sizeof(buf)), buf);
	after = wall_ms();
	b = split(buf, &a);
	assert_true(b >= before && b <= after);
	/* Written as printf's "%x#%llx" writes it. */
	(void)snprintf(want, sizeof(want), "%x#%llx", a, b);
	assert_string_equal(buf, want);
	/* The first id of worker 3 carries the index in the low bits. */
	assert_int_equal(a, 3);
	assert_int_equal(strncmp(buf, "3#", 2), 0);
}

static void
test_index_in_low_bits(void **state)
{
	char buf[RID_BYTES], want[RID_BYTES];
	unsigned long long b;
	unsigned a, i;

	(void)state;
	rid_init(5);
	for (i = 0; i < 10; i++) {
		(void)split(rid_next(buf, sizeof(buf)), &a);
		assert_int_equal(a & ((1u << RID_WORKER_BITS) - 1), 5);
		assert_int_equal(a >> RID_WORKER_BITS, i);
	}
	/* After a full cycle A starts over (and stays five hex digits). */
	for (; i < MANY; i++) {
		b = split(rid_next(buf, sizeof(buf)), &a);
		(void)snprintf(want, sizeof(want), "%x#%llx", a, b);
		assert_string_equal(buf, want);
	}
	assert_int_equal(a, 0xfffffu - ((1u << RID_WORKER_BITS) - 1) + 5);
	(void)split(rid_next(buf, sizeof(buf)), &a);
	assert_int_equal(a, 5);
	/* Indexes are reduced to RID_WORKER_BITS bits. */
	rid_init((1u << RID_WORKER_BITS) + 7);
	(void)split(rid_next(buf, sizeof(buf)), &a);
	assert_int_equal(a, 7);
}

static int
cmp_str(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* The A parts of two workers' full cycles are all distinct. */
static void
test_unique(void **state)
{
	char **ids = calloc(2 * MANY, sizeof(*ids));
	size_t i;

	(void)state;
	assert_non_null(ids);
	for (i = 0; i < 2 * MANY; i++) {
		ids[i] = malloc(RID_BYTES);
		assert_non_null(ids[i]);
	}
	rid_init(1);
	for (i = 0; i < MANY; i++)
		(void)rid_next(ids[i], RID_BYTES);
	rid_init(2);
	for (i = MANY; i < 2 * MANY; i++)
		(void)rid_next(ids[i], RID_BYTES);
	/* Ids cannot repeat within a cycle, whatever the clock does. */
	for (i = 0; i < 2 * MANY; i++)
		*strchr(ids[i], '#') = '\0';
	qsort(ids, 2 * MANY, sizeof(*ids), cmp_str);
	for (i = 1; i < 2 * MANY; i++)
		assert_string_not_equal(ids[i - 1], ids[i]);
	for (i = 0; i < 2 * MANY; i++)
		free(ids[i]);
	free(ids);
}

static void
test_small_buffer(void **state)
{
	char buf[4] = "xyz";

	(void)state;
	rid_init(0);
	(void)rid_next(buf, sizeof(buf));
	assert_int_equal(strlen(buf), 3);	/* cut, still terminated */
	assert_int_equal(strncmp(buf, "0#", 2), 0);
	buf[0] = 'q';
	assert_ptr_equal(rid_next(buf, 0), buf);
	assert_int_equal(buf[0], 'q');		/* size 0: untouched */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shape_and_time),
		cmocka_unit_test(test_index_in_low_bits),
		cmocka_unit_test(test_unique),
		cmocka_unit_test(test_small_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
