/*
 * Logging: the line format, level filtering, cutting of long lines,
 * errno preservation, log_escape() for untrusted text, and structured
 * events: a JSON line on stderr, or a journal entry on the journal's
 * socket when stderr is journald's stream.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

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

static void
log_events(void)
{
	const struct log_field f[] = {
		LOG_STR("requestId", "a1#b2"),
		LOG_STR("clientId", NULL),
		LOG_STR("path", "/x\"y\\z\n\xc3\xa9"),
		LOG_INT("status", 200),
		LOG_US("durationMs", 1234567),
	};

	log_init("mtest", "info");
	errno = EPIPE;
	log_event(LOG_LVL_INFO, "getLeadByIdUsingGET 200", f, 5);
	assert_int_equal(errno, EPIPE);
	log_event(LOG_LVL_DEBUG, "not shown", f, 5);
}

/* Without journald: one JSON object a line, every value escaped. */
static void
test_event_json(void **state)
{
	struct json_object *o, *v;
	const char *t;

	(void)state;
	t = captured(log_events);
	assert_ptr_equal(strchr(t, '\n'), t + strlen(t) - 1);	/* one line */
	assert_non_null(o = json_tokener_parse(t));
	assert_true(json_object_object_get_ex(o, "time", &v));
	assert_int_equal(strlen(json_object_get_string(v)), 24);
	assert_int_equal(json_object_get_string(v)[23], 'Z');
	assert_true(json_object_object_get_ex(o, "level", &v));
	assert_string_equal(json_object_get_string(v), "info");
	assert_true(json_object_object_get_ex(o, "pid", &v));
	assert_int_equal(json_object_get_int64(v), (int64_t)getpid());
	assert_true(json_object_object_get_ex(o, "msg", &v));
	assert_string_equal(json_object_get_string(v),
	    "getLeadByIdUsingGET 200");
	assert_true(json_object_object_get_ex(o, "requestId", &v));
	assert_string_equal(json_object_get_string(v), "a1#b2");
	assert_true(json_object_object_get_ex(o, "clientId", &v));
	assert_null(v);		/* JSON null */
	assert_true(json_object_object_get_ex(o, "path", &v));
	/* Quote and backslash kept; control and non-ASCII bytes as \u00XX. */
	assert_string_equal(json_object_get_string(v),
	    "/x\"y\\z\n\xc3\x83\xc2\xa9");
	assert_true(json_object_object_get_ex(o, "status", &v));
	assert_int_equal(json_object_get_int(v), 200);
	assert_true(json_object_object_get_ex(o, "durationMs", &v));
	assert_true(json_object_get_double(v) > 1234.566 &&
	    json_object_get_double(v) < 1234.568);
	json_object_put(o);
}

static void
log_event_long(void)
{
	char big[3000];
	const struct log_field f[] = {
		LOG_STR("a", big), LOG_STR("b", big), LOG_STR("c", big),
		LOG_STR("d", big), LOG_STR("e", big), LOG_STR("f", big),
		LOG_STR("g", big), LOG_STR("h", big), LOG_STR("i", big),
		LOG_STR("j", big), LOG_STR("k", big), LOG_STR("l", big),
		LOG_STR("m", big), LOG_STR("n", big), LOG_STR("o", big),
		LOG_STR("p", big), LOG_STR("q", big), LOG_STR("r", big),
		LOG_STR("s", big), LOG_STR("t", big), LOG_STR("u", big),
		LOG_STR("v", big), LOG_STR("w", big), LOG_STR("x", big),
	};

	memset(big, '\x01', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	log_init("mtest", "info");
	log_event(LOG_LVL_WARN, "long", f, sizeof(f) / sizeof(f[0]));
}

/* Values are cut at MAX_LOG_FIELD_BYTES; the line stays one line. */
static void
test_event_long(void **state)
{
	const char *t;

	(void)state;
	t = captured(log_event_long);
	assert_true(strlen(t) < 2 * 2048 + 1);
	assert_ptr_equal(strchr(t, '\n'), t + strlen(t) - 1);
	assert_int_equal(t[0], '{');
	assert_int_equal(t[strlen(t) - 2], '}');
}

/*
 * Under journald (JOURNAL_STREAM names stderr): one datagram on the
 * journal's socket, fields as MAUTO_<UPPER_SNAKE>, null values left out,
 * nothing on stderr.
 */
static void
test_event_journal(void **state)
{
	char dir[] = "/tmp/mauto-test-journal-XXXXXX", path[128];
	char stream[64], dgram[4096], want[64];
	struct sockaddr_un sa;
	struct stat st;
	const char *t;
	ssize_t n;
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	(void)snprintf(path, sizeof(path), "%s/socket", dir);
	fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	assert_int_not_equal(fd, -1);
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	assert_true(strlen(path) < sizeof(sa.sun_path));
	memcpy(sa.sun_path, path, strlen(path) + 1);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(setenv("MAUTO_JOURNAL_SOCKET", path, 1), 0);
	/* captured() points stderr at errfd: make that the journal stream. */
	assert_int_equal(fstat(errfd, &st), 0);
	(void)snprintf(stream, sizeof(stream), "%llu:%llu",
	    (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
	assert_int_equal(setenv("JOURNAL_STREAM", stream, 1), 0);
	t = captured(log_events);
	assert_string_equal(t, "");
	n = recv(fd, dgram, sizeof(dgram) - 1, MSG_DONTWAIT);
	assert_true(n > 0);
	dgram[n] = '\0';
	assert_non_null(strstr(dgram, "PRIORITY=6\n"));
	assert_non_null(strstr(dgram, "SYSLOG_IDENTIFIER=mtest\n"));
	assert_non_null(strstr(dgram, "MESSAGE=getLeadByIdUsingGET 200\n"));
	assert_non_null(strstr(dgram, "MAUTO_REQUEST_ID=a1#b2\n"));
	assert_null(strstr(dgram, "MAUTO_CLIENT_ID"));
	assert_non_null(strstr(dgram,
	    "MAUTO_PATH=/x\"y\\\\z\\x0a\\xc3\\xa9\n"));
	assert_non_null(strstr(dgram, "MAUTO_STATUS=200\n"));
	assert_non_null(strstr(dgram, "MAUTO_DURATION_MS=1234.567\n"));
	(void)snprintf(want, sizeof(want), "SYSLOG_PID=%ld\n",
	    (long)getpid());
	assert_non_null(strstr(dgram, want));
	/* Only the one event: the debug one was filtered. */
	assert_int_equal(recv(fd, dgram, sizeof(dgram), MSG_DONTWAIT), -1);
	(void)close(fd);
	(void)unlink(path);
	(void)rmdir(dir);
	(void)unsetenv("JOURNAL_STREAM");
	(void)unsetenv("MAUTO_JOURNAL_SOCKET");
	log_init("mtest", "info");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_and_levels),
		cmocka_unit_test(test_level_names),
		cmocka_unit_test(test_long_line_cut),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_event_json),
		cmocka_unit_test(test_event_long),
		cmocka_unit_test(test_event_journal),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
