/*
 * The listening socket: inherited from systemd (the LISTEN_FDS protocol
 * of sd_listen_fds(3), implemented here so libsystemd stays optional),
 * inherited on fd 0 (the FastCGI convention when a web server spawns the
 * application), or bound from the `listen` key ("unix:/path" or
 * "host:port").  The master calls these before it forks.
 */
#ifndef MAUTO_UTIL_SDLISTEN_H
#define MAUTO_UTIL_SDLISTEN_H

#include <stdbool.h>

/* The first fd systemd passes (SD_LISTEN_FDS_START). */
#define SDLISTEN_FD_START	3
/* listen(2) backlog of a socket we bind ourselves. */
#define SDLISTEN_BACKLOG	1024

enum sdlisten_kind {
	SDLISTEN_UNIX,
	SDLISTEN_INET,		/* IPv4 or IPv6, by what the host resolves to */
	SDLISTEN_KIND__MAX
};

/* A parsed `listen` value. */
struct sdlisten_addr {
	enum sdlisten_kind	 kind;
	char			 path[108];	/* sizeof sun_path; UNIX */
	char			 host[256];	/* INET; "" means any address */
	char			 port[6];	/* INET; "1".."65535" */
};

/*
 * Parses "unix:/absolute/path", "host:port", "[v6addr]:port" or
 * "*:port" into out.  Returns 0, or -1 and a static reason in *why.
 */
int	sdlisten_parse(const char *spec, struct sdlisten_addr *out,
	    const char **why);

/*
 * Takes the socket systemd passed to this process.  LISTEN_PID must be
 * our pid and LISTEN_FDS exactly 1; the socket is then fd 3 and must be a
 * listening stream socket.  LISTEN_PID, LISTEN_FDS and LISTEN_FDNAMES
 * are removed from the environment in every case, so children never see
 * them.  Returns 0 with *fd set to 3, or to -1 when the process was not
 * socket-activated; -1 (logged) when the variables are malformed or
 * name something other than one listening socket.
 */
int	sdlisten_systemd(int *fd);

/* Whether fd is a listening stream socket (SO_ACCEPTCONN). */
bool	sdlisten_is_listener(int fd);

/*
 * Creates, binds and listens on a (backlog SDLISTEN_BACKLOG).  A Unix
 * socket replaces a stale socket file (one nobody accepts on), refuses to
 * replace a live one or a non-socket file, and gets mode 0660.  A TCP
 * socket gets SO_REUSEADDR.  Returns 0 and an owned *fd (close-on-exec),
 * or -1 (logged) with *fd = -1.
 */
int	sdlisten_bind(const struct sdlisten_addr *a, int *fd);

#endif
