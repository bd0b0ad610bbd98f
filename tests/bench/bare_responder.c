/*
 * bare_responder: ceiling B of tests/bench/run.  The smallest honest
 * FastCGI application: a master that binds one Unix socket and pre-forks
 * N workers, each looping on FCGX_Accept_r and answering every request
 * with the same status and JSON body (read once from a file), the same
 * Content-Type as mautod.  No parsing, no database, no allocation per
 * request; whatever mautod costs beyond this is its own overhead.
 *
 * It waits for connections the way src/worker.c does: the listening
 * socket is non-blocking and each worker waits in epoll with
 * EPOLLEXCLUSIVE, so the kernel wakes one idle worker, the same one while
 * it stays idle (its cache is warm), where workers blocked in accept(2)
 * are woken in turn.  With libfcgi's plain blocking loop mautod measured
 * 12-17% faster than this "ceiling" at one connection; the ceiling must
 * differ from mautod only in the work per request.  A connection that
 * nginx keeps (FCGI_KEEP_CONN) brings its next request on the same
 * socket, so then FCGX_Accept_r is called without waiting.
 *
 * usage: bare_responder socket-path workers status body-file
 *
 * The master waits for SIGTERM or SIGINT, passes it on to the workers and
 * reaps them.  A worker that dies on its own ends the whole responder
 * (exit 1) rather than being respawned, so a crash cannot hide in a
 * benchmark figure.
 */
#include <sys/epoll.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fcgiapp.h>

#include "util/num.h"

#define BARE_MAX_WORKERS	256
#define BARE_MAX_BODY		(64 * 1024)
#define BARE_MAX_HEAD		256
#define BARE_BACKLOG		1024

struct bare {
	const char	*path;
	int		 workers;
	int		 status;
	char		*resp;		/* head and body, sent in one write */
	size_t		 resp_len;
	int		 fd;
	pid_t		 pids[BARE_MAX_WORKERS];
	int		 npids;
};

/* The reason phrase nginx passes on; only the codes mautod answers. */
static const char *
reason(int status)
{
	switch (status) {
	case 200:
		return "OK";
	case 400:
		return "Bad Request";
	case 401:
		return "Unauthorized";
	case 404:
		return "Not Found";
	case 413:
		return "Payload Too Large";
	case 501:
		return "Not Implemented";
	default:
		return "Status";
	}
}

/* Reads the body file and builds the whole response once. */
static int
load_response(struct bare *b, const char *file)
{
	FILE *fp = NULL;
	char *body = NULL;
	size_t n;
	int head, r = -1;

	if ((fp = fopen(file, "rb")) == NULL) {
		fprintf(stderr, "bare_responder: %s: %s\n", file,
		    strerror(errno));
		goto out;
	}
	if ((body = malloc(BARE_MAX_BODY + 1)) == NULL ||
	    (b->resp = malloc(BARE_MAX_HEAD + BARE_MAX_BODY)) == NULL)
		goto out;
	n = fread(body, 1, BARE_MAX_BODY + 1, fp);
	if (ferror(fp) || n > BARE_MAX_BODY) {
		fprintf(stderr, "bare_responder: %s: unreadable or over %d "
		    "bytes\n", file, BARE_MAX_BODY);
		goto out;
	}
	head = snprintf(b->resp, BARE_MAX_HEAD, "Status: %d %s\r\n"
	    "Content-Type: application/json;charset=UTF-8\r\n"
	    "Content-Length: %zu\r\n\r\n", b->status, reason(b->status), n);
	if (head < 0 || head >= BARE_MAX_HEAD)
		goto out;
	memcpy(b->resp + head, body, n);
	b->resp_len = (size_t)head + n;
	r = 0;
out:
	if (fp != NULL)
		fclose(fp);
	free(body);
	return r;
}

/* Parses the command line into b; -1 after a usage message. */
static int
parse_args(struct bare *b, int argc, char **argv)
{
	int64_t v;

	if (argc != 5) {
		fprintf(stderr, "usage: bare_responder socket-path workers "
		    "status body-file\n");
		return -1;
	}
	b->path = argv[1];
	if (num_parse_i64(argv[2], 1, BARE_MAX_WORKERS, &v) != 0) {
		fprintf(stderr, "bare_responder: workers: 1..%d\n",
		    BARE_MAX_WORKERS);
		return -1;
	}
	b->workers = (int)v;
	if (num_parse_i64(argv[3], 100, 599, &v) != 0) {
		fprintf(stderr, "bare_responder: status: 100..599\n");
		return -1;
	}
	b->status = (int)v;
	return load_response(b, argv[4]);
}

/* FCGX_Accept_r results that only mean "another worker took it". */
static int
is_transient(int rc)
{
	return rc == -EAGAIN || rc == -EWOULDBLOCK || rc == -EINTR ||
	    rc == -ECONNABORTED || rc == -EPROTO;
}

/* The worker: wait, accept, answer, finish, until the master ends it. */
static void
worker_loop(const struct bare *b)
{
	FCGX_Request req;
	struct epoll_event ev;
	sigset_t none;
	int epfd, rc;

	/* FCGX_Init gave SIGTERM a handler that only sets a flag. */
	signal(SIGTERM, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (FCGX_InitRequest(&req, b->fd, 0) != 0 ||
	    (epfd = epoll_create1(EPOLL_CLOEXEC)) == -1)
		_exit(1);
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN | EPOLLEXCLUSIVE;
	ev.data.fd = b->fd;
	if (epoll_ctl(epfd, EPOLL_CTL_ADD, b->fd, &ev) == -1)
		_exit(1);
	for (;;) {
		/* XXX: ipcFd is libfcgi's internal; src/worker.c says why. */
		if (req.ipcFd < 0 && epoll_wait(epfd, &ev, 1, -1) == -1 &&
		    errno != EINTR)
			break;
		if ((rc = FCGX_Accept_r(&req)) < 0) {
			if (is_transient(rc))
				continue;
			break;
		}
		FCGX_PutStr(b->resp, (int)b->resp_len, req.out);
		FCGX_Finish_r(&req);
	}
	_exit(1);
}

/* Forks the workers; -1 if any fork fails. */
static int
spawn_workers(struct bare *b)
{
	pid_t pid;

	while (b->npids < b->workers) {
		if ((pid = fork()) == -1) {
			fprintf(stderr, "bare_responder: fork: %s\n",
			    strerror(errno));
			return -1;
		}
		if (pid == 0)
			worker_loop(b);
		b->pids[b->npids++] = pid;
	}
	return 0;
}

/* Sends SIGTERM to every worker and reaps them all. */
static void
stop_workers(struct bare *b)
{
	int i;

	for (i = 0; i < b->npids; i++)
		kill(b->pids[i], SIGTERM);
	for (i = 0; i < b->npids; i++)
		waitpid(b->pids[i], NULL, 0);
	b->npids = 0;
}

/* SIGCHLD must not be ignored, or sigwait may never see it. */
static void
on_chld(int sig)
{
	(void)sig;
}

/*
 * Waits, with the signals blocked since before the fork, for a stop
 * request (returns 0) or a worker's death (returns -1).
 */
static int
supervise(void)
{
	sigset_t set;
	int sig = 0;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGCHLD);
	if (sigwait(&set, &sig) != 0)
		return -1;
	if (sig == SIGCHLD) {
		fprintf(stderr, "bare_responder: a worker died\n");
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct bare b;
	struct sigaction sa;
	sigset_t set;
	int fl, r = 1;

	memset(&b, 0, sizeof(b));
	b.fd = -1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_chld;
	sigaction(SIGCHLD, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (parse_args(&b, argc, argv) != 0 || FCGX_Init() != 0)
		goto out;
	unlink(b.path);
	if ((b.fd = FCGX_OpenSocket(b.path, BARE_BACKLOG)) < 0) {
		fprintf(stderr, "bare_responder: cannot listen on %s\n",
		    b.path);
		goto out;
	}
	if ((fl = fcntl(b.fd, F_GETFL)) == -1 ||
	    fcntl(b.fd, F_SETFL, fl | O_NONBLOCK) == -1) {
		fprintf(stderr, "bare_responder: %s\n", strerror(errno));
		goto out;
	}
	if (spawn_workers(&b) != 0 || supervise() != 0)
		goto out;
	r = 0;
out:
	stop_workers(&b);
	if (b.fd >= 0) {
		close(b.fd);
		unlink(b.path);
	}
	free(b.resp);
	return r;
}
