/*
 * The Range header of Get Export File (http/range.c, RFC 9110 §14) and
 * the text and file bodies of struct resp (response.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include <cmocka.h>

#include "http/range.h"
#include "http/response.h"
#include "util/buf.h"

static void
expect(const char *h, int64_t size, enum range_result want, int64_t off,
    int64_t len)
{
	int64_t o = -7, l = -7;
	enum range_result got;

	got = range_parse(h, size, &o, &l);
	if (got != want)
		fail_msg("range_parse(\"%s\", %lld): %d, want %d",
		    h ? h : "NULL", (long long)size, got, want);
	assert_int_equal(o, off);
	assert_int_equal(l, len);
}

static void
test_none(void **state)
{
	(void)state;
	expect(NULL, 100, RANGE_NONE, 0, 100);
	expect("", 100, RANGE_NONE, 0, 100);
	expect("items=0-9", 100, RANGE_NONE, 0, 100);
	expect("bytes", 100, RANGE_NONE, 0, 100);
	expect("bytes=", 100, RANGE_NONE, 0, 100);
	expect("bytes=-", 100, RANGE_NONE, 0, 100);
	expect("bytes=a-9", 100, RANGE_NONE, 0, 100);
	expect("bytes=0-9x", 100, RANGE_NONE, 0, 100);
	expect("bytes=+1-9", 100, RANGE_NONE, 0, 100);
	expect("bytes=9-0", 100, RANGE_NONE, 0, 100);	/* last < first */
	expect("bytes=0-9,20-29", 100, RANGE_NONE, 0, 100); /* several */
	expect("bytes=--5", 100, RANGE_NONE, 0, 100);
}

static void
test_ranges(void **state)
{
	(void)state;
	expect("bytes=0-9", 100, RANGE_OK, 0, 10);
	expect("BYTES=0-9", 100, RANGE_OK, 0, 10);
	expect(" bytes = 10-19 ", 100, RANGE_OK, 10, 10);
	expect("bytes=0-0", 100, RANGE_OK, 0, 1);
	expect("bytes=99-99", 100, RANGE_OK, 99, 1);
	expect("bytes=50-", 100, RANGE_OK, 50, 50);
	expect("bytes=0-", 100, RANGE_OK, 0, 100);
	expect("bytes=90-1000", 100, RANGE_OK, 90, 10);	/* cut to the end */
	expect("bytes=-10", 100, RANGE_OK, 90, 10);
	expect("bytes=-100", 100, RANGE_OK, 0, 100);
	expect("bytes=-1000", 100, RANGE_OK, 0, 100);
	expect("bytes=0-99999999999999999999999", 100, RANGE_OK, 0, 100);
}

static void
test_unsatisfiable(void **state)
{
	(void)state;
	expect("bytes=100-", 100, RANGE_UNSATISFIABLE, 0, 100);
	expect("bytes=100-200", 100, RANGE_UNSATISFIABLE, 0, 100);
	expect("bytes=-0", 100, RANGE_UNSATISFIABLE, 0, 100);
	expect("bytes=0-", 0, RANGE_UNSATISFIABLE, 0, 0);
	expect("bytes=-5", 0, RANGE_UNSATISFIABLE, 0, 0);
	expect("bytes=99999999999999999999999-", 100, RANGE_UNSATISFIABLE, 0,
	    100);
}

/* A text body is sent as it is with its status; errors still win. */
static void
test_resp_text(void **state)
{
	struct resp r;
	struct buf out;
	int st;

	(void)state;
	buf_init(&out, 4096);
	resp_init(&r);
	resp_text(&r, 404, "text/plain", "gone\n");
	st = response_render(&out, &r, ENV_LEADDB, "1#1", 0);
	assert_int_equal(st, 404);
	assert_string_equal(out.data, "gone\n");
	buf_reset(&out);
	st = response_render(&out, &r, ENV_LEADDB, "1#1", -1);
	assert_int_equal(st, 200);
	assert_non_null(strstr(out.data, "\"success\":false"));
	resp_clear(&r);
	assert_null(r.text);
	buf_clear(&out);
}

/* A file body renders nothing and its descriptor is closed by clear. */
static void
test_resp_file(void **state)
{
	struct resp r;
	struct buf out;
	int fd, st;

	(void)state;
	buf_init(&out, 4096);
	fd = open("/dev/null", O_RDONLY);
	assert_true(fd >= 0);
	resp_init(&r);
	resp_file(&r, 206, "text/csv", fd, 10, 20);
	assert_true(r.has_file);
	assert_int_equal(r.file_off, 10);
	assert_int_equal(r.file_len, 20);
	st = response_render(&out, &r, ENV_LEADDB, "1#1", 0);
	assert_int_equal(st, 206);
	assert_int_equal(out.len, 0);
	resp_clear(&r);
	assert_false(r.has_file);
	assert_int_equal(fcntl(fd, F_GETFD), -1);	/* closed */
	/* Without resp_file, clear closes nothing, whatever file_fd says. */
	fd = open("/dev/null", O_RDONLY);
	assert_true(fd >= 0);
	resp_init(&r);
	r.file_fd = fd;
	resp_clear(&r);
	assert_true(fcntl(fd, F_GETFD) != -1);
	(void)close(fd);
	buf_clear(&out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_unsatisfiable),
		cmocka_unit_test(test_resp_text),
		cmocka_unit_test(test_resp_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
