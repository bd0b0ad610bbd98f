/*
 * Getting the listening socket: parsing `listen`, the LISTEN_PID /
 * LISTEN_FDS protocol (fd 3, pid check, exactly one fd, variables unset),
 * recognising a listening socket, and binding Unix and TCP sockets.
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <netinet/in.h>

#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/sdlisten.h"

static char tmpdir[] = "/tmp/mauto-test-sdlisten-XXXXXX";

static int
setup(void **state)
{
	(void)state;
	assert_non_null(mkdtemp(tmpdir));
	return 0;
}

static int
teardown(void **state)
{
	char cmd[600];

	(void)state;
	(void)snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static void
test_parse(void **state)
{
	struct sdlisten_addr a;
	const char *why;
	char longpath[200];

	(void)state;
	assert_int_equal(sdlisten_parse("unix:/run/m.sock", &a, &why), 0);
	assert_int_equal(a.kind, SDLISTEN_UNIX);
	assert_string_equal(a.path, "/run/m.sock");

	assert_int_equal(sdlisten_parse("127.0.0.1:9000", &a, &why), 0);
	assert_int_equal(a.kind, SDLISTEN_INET);
	assert_string_equal(a.host, "127.0.0.1");
	assert_string_equal(a.port, "9000");

	assert_int_equal(sdlisten_parse("[::1]:65535", &a, &why), 0);
	assert_string_equal(a.host, "::1");
	assert_string_equal(a.port, "65535");

	assert_int_equal(sdlisten_parse("*:80", &a, &why), 0);
	assert_string_equal(a.host, "");

	assert_int_equal(sdlisten_parse("unix:rel.sock", &a, &why), -1);
	assert_non_null(strstr(why, "absolute"));
	memset(longpath, 'x', sizeof(longpath) - 1);
	longpath[0] = '/';
	longpath[sizeof(longpath) - 1] = '\0';
	(void)memcpy(longpath, "unix:/", 6);
	assert_int_equal(sdlisten_parse(longpath, &a, &why), -1);
	assert_non_null(strstr(why, "too long"));
	assert_int_equal(sdlisten_parse("localhost", &a, &why), -1);
	assert_int_equal(sdlisten_parse(":9000", &a, &why), -1);
	assert_int_equal(sdlisten_parse("host:0", &a, &why), -1);
	assert_int_equal(sdlisten_parse("host:65536", &a, &why), -1);
	assert_int_equal(sdlisten_parse("host:+80", &a, &why), -1);
	assert_int_equal(sdlisten_parse("[::1]9000", &a, &why), -1);
}

static int
tcp_listener(void)
{
	struct sockaddr_in sin;
	int s = socket(AF_INET, SOCK_STREAM, 0);

	assert_int_not_equal(s, -1);
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(s, (struct sockaddr *)&sin, sizeof(sin)), 0);
	assert_int_equal(listen(s, 4), 0);
	return s;
}

static void
test_is_listener(void **state)
{
	int p[2], s, l;

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_false(sdlisten_is_listener(p[0]));
	s = socket(AF_INET, SOCK_STREAM, 0);
	assert_false(sdlisten_is_listener(s));		/* not listening */
	l = tcp_listener();
	assert_true(sdlisten_is_listener(l));
	assert_false(sdlisten_is_listener(-1));
	(void)close(p[0]);
	(void)close(p[1]);
	(void)close(s);
	(void)close(l);
}

static void
set_env(const char *pid, const char *fds)
{
	assert_int_equal(setenv("LISTEN_PID", pid, 1), 0);
	assert_int_equal(setenv("LISTEN_FDS", fds, 1), 0);
	assert_int_equal(setenv("LISTEN_FDNAMES", "mautod.socket", 1), 0);
}

static void
assert_env_gone(void)
{
	assert_null(getenv("LISTEN_PID"));
	assert_null(getenv("LISTEN_FDS"));
	assert_null(getenv("LISTEN_FDNAMES"));
}

static void
test_systemd(void **state)
{
	char me[32], other[32];
	int l, fd, p[2];

	(void)state;
	(void)snprintf(me, sizeof(me), "%ld", (long)getpid());
	(void)snprintf(other, sizeof(other), "%ld", (long)getpid() + 1);

	/* Not activated. */
	(void)unsetenv("LISTEN_PID");
	(void)unsetenv("LISTEN_FDS");
	assert_int_equal(sdlisten_systemd(&fd), 0);
	assert_int_equal(fd, -1);

	/* Activated: fd 3 is the socket. */
	l = tcp_listener();
	assert_int_equal(dup2(l, SDLISTEN_FD_START), SDLISTEN_FD_START);
	set_env(me, "1");
	assert_int_equal(sdlisten_systemd(&fd), 0);
	assert_int_equal(fd, SDLISTEN_FD_START);
	assert_env_gone();

	/* Another process's variables are not ours, but are removed. */
	set_env(other, "1");
	assert_int_equal(sdlisten_systemd(&fd), 0);
	assert_int_equal(fd, -1);
	assert_env_gone();

	/* Zero sockets: not activated. */
	set_env(me, "0");
	assert_int_equal(sdlisten_systemd(&fd), 0);
	assert_int_equal(fd, -1);

	/* More than one socket, garbage, or not a listener: errors. */
	set_env(me, "2");
	assert_int_equal(sdlisten_systemd(&fd), -1);
	assert_int_equal(fd, -1);
	assert_env_gone();
	set_env("12ab", "1");
	assert_int_equal(sdlisten_systemd(&fd), -1);
	set_env(me, "one");
	assert_int_equal(sdlisten_systemd(&fd), -1);
	assert_int_equal(pipe(p), 0);
	assert_int_equal(dup2(p[0], SDLISTEN_FD_START), SDLISTEN_FD_START);
	set_env(me, "1");
	assert_int_equal(sdlisten_systemd(&fd), -1);
	assert_env_gone();

	(void)close(SDLISTEN_FD_START);
	(void)close(p[0]);
	(void)close(p[1]);
	(void)close(l);
}

static void
sock_path(char *out, size_t size, const char *name)
{
	(void)snprintf(out, size, "%s/%s", tmpdir, name);
}

static void
test_bind_unix(void **state)
{
	struct sdlisten_addr a;
	struct sockaddr_un sun;
	struct stat st;
	const char *why;
	char spec[300], path[256];
	int fd, fd2, s;

	(void)state;
	sock_path(path, sizeof(path), "m.sock");
	(void)snprintf(spec, sizeof(spec), "unix:%s", path);
	assert_int_equal(sdlisten_parse(spec, &a, &why), 0);
	assert_int_equal(sdlisten_bind(&a, &fd), 0);
	assert_true(sdlisten_is_listener(fd));
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0660);

	/* A live socket is not taken over. */
	assert_int_equal(sdlisten_bind(&a, &fd2), -1);
	assert_int_equal(fd2, -1);

	/* Once nobody listens, the stale file is replaced. */
	(void)close(fd);
	assert_int_equal(sdlisten_bind(&a, &fd), 0);
	assert_true(sdlisten_is_listener(fd));
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	assert_true(strlen(path) < sizeof(sun.sun_path));
	memcpy(sun.sun_path, path, strlen(path) + 1);
	assert_int_equal(connect(s, (struct sockaddr *)&sun, sizeof(sun)),
	    0);
	(void)close(s);
	(void)close(fd);

	/* A regular file at the path is never removed. */
	sock_path(path, sizeof(path), "plain");
	(void)close(creat(path, 0600));
	(void)snprintf(spec, sizeof(spec), "unix:%s", path);
	assert_int_equal(sdlisten_parse(spec, &a, &why), 0);
	assert_int_equal(sdlisten_bind(&a, &fd), -1);
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
}

static void
test_bind_tcp(void **state)
{
	struct sdlisten_addr a;
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	int fd, fd2, one = 0;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.kind = SDLISTEN_INET;
	(void)snprintf(a.host, sizeof(a.host), "127.0.0.1");
	(void)snprintf(a.port, sizeof(a.port), "0");	/* any free port */
	assert_int_equal(sdlisten_bind(&a, &fd), 0);
	assert_true(sdlisten_is_listener(fd));
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sin, &len), 0);
	assert_int_equal(sin.sin_family, AF_INET);
	assert_int_not_equal(ntohs(sin.sin_port), 0);
	len = sizeof(one);
	assert_int_equal(getsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, &len),
	    0);
	assert_int_not_equal(one, 0);

	/* The port is taken while fd listens on it. */
	(void)snprintf(a.port, sizeof(a.port), "%u",
	    (unsigned)ntohs(sin.sin_port));
	assert_int_equal(sdlisten_bind(&a, &fd2), -1);
	assert_int_equal(fd2, -1);
	(void)close(fd);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_is_listener),
		cmocka_unit_test(test_systemd),
		cmocka_unit_test(test_bind_unix),
		cmocka_unit_test(test_bind_tcp),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
