/*
 * Getting the listening socket (docs/style.md §9).  The systemd part follows
 * sd_listen_fds(3): the variables are only ours when LISTEN_PID is our
 * pid, which is why the master checks them before it forks; they are
 * unset so that nothing we start inherits them.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/log.h"
#include "util/num.h"
#include "util/sdlisten.h"

static int
parse_unix(const char *path, struct sdlisten_addr *out, const char **why)
{
	size_t len = strlen(path);
	int r = -1;

	if (path[0] != '/')
		*why = "unix socket path must be absolute";
	else if (len >= sizeof(out->path))
		*why = "unix socket path too long";
	else {
		out->kind = SDLISTEN_UNIX;
		memcpy(out->path, path, len + 1);
		r = 0;
	}
	return r;
}

/* Splits "host:port" or "[v6]:port"; host "*" means any address. */
static int
parse_inet(const char *spec, struct sdlisten_addr *out, const char **why)
{
	const char *host = spec, *colon, *hend;
	int64_t port;
	int r = -1;

	if (spec[0] == '[') {
		host = spec + 1;
		hend = strchr(host, ']');
		colon = hend != NULL && hend[1] == ':' ? hend + 1 : NULL;
	} else {
		colon = strrchr(spec, ':');
		hend = colon;
	}
	if (colon == NULL || hend == host)
		*why = "expected unix:/path or host:port";
	else if (num_parse_i64(colon + 1, 1, 65535, &port) != 0)
		*why = "port must be a number from 1 to 65535";
	else if ((size_t)(hend - host) >= sizeof(out->host))
		*why = "host name too long";
	else {
		out->kind = SDLISTEN_INET;
		memcpy(out->host, host, (size_t)(hend - host));
		out->host[hend - host] = '\0';
		if (strcmp(out->host, "*") == 0)
			out->host[0] = '\0';
		memcpy(out->port, colon + 1, strlen(colon + 1) + 1);
		r = 0;
	}
	return r;
}

int
sdlisten_parse(const char *spec, struct sdlisten_addr *out, const char **why)
{
	memset(out, 0, sizeof(*out));
	*why = NULL;
	if (strncmp(spec, "unix:", 5) == 0)
		return parse_unix(spec + 5, out, why);
	return parse_inet(spec, out, why);
}

static void
unset_listen_env(void)
{
	(void)unsetenv("LISTEN_PID");
	(void)unsetenv("LISTEN_FDS");
	(void)unsetenv("LISTEN_FDNAMES");
}

int
sdlisten_systemd(int *fd)
{
	const char *pid_s, *fds_s;
	int64_t pid, nfds;
	int r = -1;

	*fd = -1;
	pid_s = getenv("LISTEN_PID");
	fds_s = getenv("LISTEN_FDS");
	if (pid_s == NULL || fds_s == NULL) {
		r = 0;
		goto out;
	}
	if (num_parse_i64(pid_s, 1, INT64_MAX, &pid) != 0 ||
	    num_parse_i64(fds_s, 0, INT32_MAX, &nfds) != 0) {
		log_err("socket activation: malformed LISTEN_PID or "
		    "LISTEN_FDS");
		goto out;
	}
	/* Not for us (sd_listen_fds(3)): a parent's leftover. */
	if (pid != (int64_t)getpid() || nfds == 0) {
		r = 0;
		goto out;
	}
	if (nfds != 1) {
		log_err("socket activation: %lld sockets passed, expected "
		    "exactly one", (long long)nfds);
		goto out;
	}
	if (!sdlisten_is_listener(SDLISTEN_FD_START)) {
		log_err("socket activation: fd %d is not a listening stream "
		    "socket", SDLISTEN_FD_START);
		goto out;
	}
	(void)fcntl(SDLISTEN_FD_START, F_SETFD, FD_CLOEXEC);
	*fd = SDLISTEN_FD_START;
	r = 0;
out:
	unset_listen_env();
	return r;
}

bool
sdlisten_is_listener(int fd)
{
	int val = 0, type = 0;
	socklen_t len = sizeof(val);

	if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &val, &len) != 0 ||
	    val == 0)
		return false;
	len = sizeof(type);
	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) != 0)
		return false;
	return type == SOCK_STREAM;
}

/*
 * Whether the socket file at path is stale: connecting is refused
 * because nobody listens on it any more.
 */
static bool
is_stale_socket(const struct sockaddr_un *sun)
{
	int s, rc, err;

	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s == -1)
		return false;
	rc = connect(s, (const struct sockaddr *)sun, sizeof(*sun));
	err = errno;
	(void)close(s);
	return rc == -1 && err == ECONNREFUSED;
}

/* Removes a stale socket file at the path; 0, or -1 (logged). */
static int
clear_unix_path(const struct sockaddr_un *sun)
{
	struct stat st;
	int r = -1;

	if (lstat(sun->sun_path, &st) == -1) {
		if (errno == ENOENT)
			r = 0;
		else
			log_err("listen: %s: %s", sun->sun_path,
			    strerror(errno));
	} else if (!S_ISSOCK(st.st_mode))
		log_err("listen: %s exists and is not a socket",
		    sun->sun_path);
	else if (!is_stale_socket(sun))
		log_err("listen: %s is in use by another process",
		    sun->sun_path);
	else if (unlink(sun->sun_path) == -1)
		log_err("listen: unlink %s: %s", sun->sun_path,
		    strerror(errno));
	else
		r = 0;
	return r;
}

static int
bind_unix(const struct sdlisten_addr *a, int *fd)
{
	struct sockaddr_un sun;
	mode_t old;
	int s = -1, r = -1, rc;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, a->path, strlen(a->path) + 1);
	if (clear_unix_path(&sun) != 0)
		goto out;
	if ((s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1) {
		log_err("listen: socket: %s", strerror(errno));
		goto out;
	}
	/* The file never exists with wider permissions than 0660. */
	old = umask(0117);
	rc = bind(s, (struct sockaddr *)&sun, sizeof(sun));
	(void)umask(old);
	if (rc == -1 || chmod(a->path, 0660) == -1 ||
	    listen(s, SDLISTEN_BACKLOG) == -1) {
		log_err("listen: unix:%s: %s", a->path, strerror(errno));
		goto out;
	}
	*fd = s;
	s = -1;
	r = 0;
out:
	if (s != -1)
		(void)close(s);
	return r;
}

/* Binds the first address of ai that works; the socket or -1. */
static int
bind_first(const struct addrinfo *ai, int *err)
{
	int s, one = 1;

	for (; ai != NULL; ai = ai->ai_next) {
		s = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
		    ai->ai_protocol);
		if (s == -1) {
			*err = errno;
			continue;
		}
		if (setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one,
		    sizeof(one)) == 0 &&
		    bind(s, ai->ai_addr, ai->ai_addrlen) == 0 &&
		    listen(s, SDLISTEN_BACKLOG) == 0)
			return s;
		*err = errno;
		(void)close(s);
	}
	return -1;
}

static int
bind_inet(const struct sdlisten_addr *a, int *fd)
{
	struct addrinfo hints, *res = NULL;
	int rc, err = 0, r = -1;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	rc = getaddrinfo(a->host[0] != '\0' ? a->host : NULL, a->port,
	    &hints, &res);
	if (rc != 0) {
		log_err("listen: %s:%s: %s", a->host, a->port,
		    gai_strerror(rc));
		goto out;
	}
	if ((*fd = bind_first(res, &err)) == -1) {
		log_err("listen: %s:%s: %s", a->host, a->port,
		    strerror(err));
		goto out;
	}
	r = 0;
out:
	if (res != NULL)
		freeaddrinfo(res);
	return r;
}

int
sdlisten_bind(const struct sdlisten_addr *a, int *fd)
{
	*fd = -1;
	if (a->kind == SDLISTEN_UNIX)
		return bind_unix(a, fd);
	return bind_inet(a, fd);
}
