/*
 * Logging: the line format, level filtering, cutting of long lines,
 * errno preservation, and log_escape() for untrusted text.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "bounds.h"
#include "util/log.h"

static char errpath[] = "/tmp/mauto-test-log-XXXXXX";
static int errfd = -1;

static int
setup(void **state)
{
	(void)state;
	errfd = mkstemp(errpath);
	assert_int_not_equal(errfd, -1);
	(void)unsetenv("JOURNAL_STREAM");
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	(void)close(errfd);
	(void)unlink(errpath);
	return 0;
}

/* Runs the logging in fn with stderr sent to a file; returns the text. */
static char *
captured(void (*fn)(void))
{
	static char text[8192];
	int saved;
	ssize_t n;

	assert_int_equal(ftruncate(errfd, 0), 0);
	assert_int_equal(lseek(errfd, 0, SEEK_SET), 0);
	saved = dup(STDERR_FILENO);
	assert_int_not_equal(dup2(errfd, STDERR_FILENO), -1);
	fn();
	assert_int_not_equal(dup2(saved, STDERR_FILENO), -1);
	(void)close(saved);
	n = pread(errfd, text, sizeof(text) - 1, 0);
	assert_true(n >= 0);
	text[n] = '\0';
	return text;
}

static void
log_some(void)
{
	log_init("mtest", "info");
	log_err("disk %s", "full");
	log_warn("careful");
	log_info("hello %d", 42);
	log_debug("not shown");
}

static void
test_format_and_levels(void **state)
{
	char want[256];
	const char *t;

	(void)state;
	t = captured(log_some);
	(void)snprintf(want, sizeof(want),
	    "mtest[%ld]: error: disk full\n"
	    "mtest[%ld]: warn: careful\n"
	    "mtest[%ld]: info: hello 42\n",
	    (long)getpid(), (long)getpid(), (long)getpid());
	assert_string_equal(t, want);
}

static void
log_filtered(void)
{
	log_init("mtest", "error");
	log_warn("hidden");
	log_err("shown");
	log_init("mtest", "debug");
	log_debug("dbg");
	log_init("mtest", "nonsense");	/* falls back to info */
	log_debug("hidden too");
	log_info("info again");
}

static void
test_level_names(void **state)
{
	const char *t;

	(void)state;
	t = captured(log_filtered);
	assert_null(strstr(t, "hidden"));
	assert_non_null(strstr(t, ": error: shown\n"));
	assert_non_null(strstr(t, ": debug: dbg\n"));
	assert_non_null(strstr(t, ": info: info again\n"));
}

static void
log_long(void)
{
	char big[5000];

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	log_init("mtest", "info");
	errno = EPIPE;
	log_info("%s", big);
	assert_int_equal(errno, EPIPE);
}

static void
test_long_line_cut(void **state)
{
	const char *t;
	size_t len;

	(void)state;
	t = captured(log_long);
	len = strlen(t);
	assert_true(len < 4096);
	assert_int_equal(t[len - 1], '\n');
	assert_int_equal(strncmp(t + len - 4, "...\n", 4), 0);
	assert_ptr_equal(strchr(t, '\n'), t + len - 1);	/* one line */
}

static void
test_escape(void **state)
{
	char out[MAX_LOG_FIELD_BYTES + 64], small[8];
	char in[MAX_LOG_FIELD_BYTES * 2];
	const char *r;

	(void)state;
	assert_string_equal(log_escape(out, sizeof(out), "plain text"),
	    "plain text");
	assert_string_equal(log_escape(out, sizeof(out),
	    "a\nb\r\x1b[31m\\\x7f\xc3\xa9"),
	    "a\\x0ab\\x0d\\x1b[31m\\\\\\x7f\\xc3\\xa9");
	assert_string_equal(log_escape(out, sizeof(out), NULL), "(null)");

	/* Cut at MAX_LOG_FIELD_BYTES, marked, never inside an escape. */
	memset(in, '\x01', sizeof(in) - 1);
	in[sizeof(in) - 1] = '\0';
	r = log_escape(out, sizeof(out), in);
	assert_true(strlen(r) <= MAX_LOG_FIELD_BYTES);
	assert_int_equal(strcmp(r + strlen(r) - 3, "..."), 0);
	assert_int_equal((strlen(r) - 3) % 4, 0);

	/* The output buffer bounds it too. */
	r = log_escape(small, sizeof(small), "abcdefghijkl");
	assert_string_equal(r, "abcd...");
	r = log_escape(small, sizeof(small), "abcdefg");
	assert_string_equal(r, "abcdefg");	/* fits exactly: not cut */
	r = log_escape(small, 3, "abcdef");
	assert_string_equal(r, "..");
	assert_string_equal(log_escape(small, 0, "x"), "");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_and_levels),
		cmocka_unit_test(test_level_names),
		cmocka_unit_test(test_long_line_cut),
		cmocka_unit_test(test_escape),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
