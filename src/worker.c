/*
 * A worker: per-process setup after fork, then the FastCGI loop
 * (docs/style.md §9).  Only this file and src/http/ include fcgiapp.h.
 *
 * Stopping without losing a request.  libfcgi's own answer is a signal
 * handler that calls FCGX_ShutdownPending() and a SIGTERM without
 * SA_RESTART so that accept(2) fails with EINTR (os_unix.c OS_Accept).
 * That leaves a window: a signal that lands after OS_Accept checked its
 * flag but before accept(2) blocks is not seen until the next connection
 * arrives, and a signal during a request interrupts database and socket
 * calls.  So this worker keeps SIGTERM, SIGINT and SIGUSR1 blocked all the
 * time and opens them only while it waits in epoll_pwait()/ppoll(), which
 * swap the mask atomically: a stop request either interrupts the wait or
 * stays pending until the current request is finished and written.  The
 * listening socket is non-blocking, so FCGX_Accept_r() returns -EAGAIN
 * instead of blocking when another worker took the connection first.
 * Our handlers are installed before FCGX_Init(), which leaves handlers
 * that are not SIG_DFL/SIG_IGN alone.
 */
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <fcgiapp.h>

#include "api/api.h"
#include "api/api_leads_catalog.h"
#include "auth/ratelimit.h"
#include "auth/token.h"
#include "db/pool.h"
#include "repo/repo.h"
#include "dispatch.h"
#include "http/request.h"
#include "http/router.h"
#include "bounds.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/config.h"
#include "util/log.h"
#include "util/num.h"
#include "util/rid.h"
#include "worker.h"

/*
 * How long an idle worker sleeps before it tries accept(2) anyway.  With
 * EPOLLEXCLUSIVE the kernel wakes one idle waiter per new connection; if
 * that worker is stopping and leaves without accepting, this bounds how
 * long the connection can sit unseen in the queue.
 */
#define ACCEPT_RECHECK_MS	1000

/*
 * How long a worker waits for the next request on a connection the web
 * server keeps (FCGI_KEEP_CONN) before it looks whether a connection is
 * waiting to be accepted.  A worker on a kept connection takes nothing
 * else, and the web server may keep more connections than this host has
 * workers ready (its keepalive is sized by the workers wanted: a worker
 * that cannot start, or a host with fewer): a new connection would then
 * wait for a kept one to close, up to the web server's timeouts.  So an
 * idle kept connection is given up when a connection waits: a new
 * connection waits at most this long for a worker.
 */
#define KEPT_IDLE_CHECK_MS	100

static volatile sig_atomic_t worker_stop;

/* The accept side of the worker. */
struct acceptor {
	FCGX_Request	 req;
	int		 lfd;		/* listening socket */
	int		 epfd;		/* epoll set holding lfd */
	sigset_t	 waitmask;	/* mask while waiting: stop signals open */
};

static void
on_stop(int sig)
{
	(void)sig;
	worker_stop = 1;
}

/* Handlers and mask of a worker; waitmask is the mask to wait with. */
static int
setup_signals(sigset_t *waitmask)
{
	static const int stops[] = { SIGTERM, SIGINT, SIGUSR1 };
	struct sigaction sa;
	sigset_t block;
	size_t i;
	int r = 0;

	memset(&sa, 0, sizeof(sa));
	(void)sigemptyset(&sa.sa_mask);
	(void)sigemptyset(&block);
	sa.sa_handler = on_stop;	/* no SA_RESTART: the wait returns */
	for (i = 0; i < sizeof(stops) / sizeof(stops[0]); i++) {
		r |= sigaction(stops[i], &sa, NULL);
		(void)sigaddset(&block, stops[i]);
	}
	sa.sa_handler = SIG_IGN;	/* the master handles reloads */
	r |= sigaction(SIGHUP, &sa, NULL);
	r |= sigaction(SIGPIPE, &sa, NULL);
	sa.sa_handler = SIG_DFL;
	r |= sigaction(SIGCHLD, &sa, NULL);
	r |= sigaction(WORKER_READY_SIGNAL, &sa, NULL);
	r |= sigprocmask(SIG_SETMASK, &block, NULL);
	(void)sigemptyset(waitmask);
	return r == 0 ? 0 : -1;
}

/* The request body as the worker hands it to the request layer. */
struct body_in {
	FCGX_Request	*req;
	uint64_t	 got;		/* bytes handed over */
};

static ssize_t
env_read(void *ctx, char *buf, size_t n)
{
	struct body_in *in = ctx;
	int got;

	got = FCGX_GetStr(buf, n > INT32_MAX ? INT32_MAX : (int)n,
	    in->req->in);
	if (got <= 0 && FCGX_GetError(in->req->in) != 0)
		return -1;
	if (got > 0)
		in->got += (uint64_t)got;
	return got;
}

/*
 * True when the body was read to the length CONTENT_LENGTH gives (none
 * when it is absent or empty).  A request refused before its body was
 * read (a bad request line, a body over the limit) is not.
 */
static bool
body_read_whole(const char *clen, uint64_t got)
{
	int64_t want = 0;

	if (clen != NULL && clen[0] != '\0' &&
	    num_parse_i64(clen, 0, INT64_MAX, &want) != 0)
		return false;
	return (uint64_t)want == got;
}

static int
out_write(void *ctx, const char *p, size_t n)
{
	FCGX_Request *fr = ctx;
	int chunk;

	while (n > 0) {
		chunk = n > INT32_MAX ? INT32_MAX : (int)n;
		if (FCGX_PutStr(p, chunk, fr->out) != chunk)
			return -1;
		p += chunk;
		n -= (size_t)chunk;
	}
	return 0;
}

/*
 * Ends the request.  A connection the web server does not keep, libfcgi
 * closes with shutdown(), a wait until the server has closed its end,
 * and a read (OS_Close in its os_unix.c): request bytes left unread would
 * turn a plain close into a reset that can cost the server the response.
 * When the whole body has been read (whole), only the empty FCGI_STDIN
 * record can come next, and the web server sends it with the body's end,
 * so reading it does not wait; then nothing is left unread and
 * FCGX_Detach has FCGX_Finish_r close at once: no sleep and three system
 * calls fewer per request.  A body not read to its end is not touched
 * here: reading its next byte could wait as long as a slow client takes
 * to send it (a web server that streams the body, as Apache's
 * mod_proxy_fcgi does, forwards it as it comes), with the response still
 * unsent in libfcgi's buffer.  That request, and a stream error, end
 * with libfcgi's close, which waits at most 2 s.
 */
static void
finish(struct acceptor *acc, bool whole)
{
	bool at_end;

	at_end = whole && FCGX_GetChar(acc->req.in) == EOF &&
	    FCGX_GetError(acc->req.in) == 0;
	if (at_end)
		(void)FCGX_Detach(&acc->req);
	FCGX_Finish_r(&acc->req);
	/* A connection the server keeps is not closed: forget the detach. */
	if (at_end)
		(void)FCGX_Attach(&acc->req);
}

/*
 * Serves the accepted request and ends it.  The CGI variables the request
 * layer reads are found in one pass over the parameters, not one
 * FCGX_GetParam() scan each.
 */
static void
serve(struct app *app, struct acceptor *acc)
{
	const char *vars[REQ_VAR__MAX];
	struct body_in in = { .req = &acc->req };
	struct req_env env = { .read = env_read, .ctx = &in, .vars = vars };
	struct resp_writer w = { .write = out_write, .ctx = &acc->req };

	request_vars_fill(vars, (const char *const *)acc->req.envp);
	if (dispatch(app, &env, &w) != 0)
		log_debug("worker: the client went away before the response "
		    "was written");
	finish(acc, body_read_whole(vars[REQ_VAR_CONTENT_LENGTH], in.got));
}

/* The worker's own context (docs/style.md §5.2: worker-lifetime, after fork). */
static int
app_setup(struct app *app, const struct worker_args *wa)
{
	memset(app, 0, sizeof(*app));
	app->cfg = wa->cfg;
	app->lim = wa->lim;
	app->metrics = wa->metrics;
	app->pages = wa->pages;
	app->worker_index = wa->index;
	arena_init(&app->arena);
	buf_init(&app->out, MAX_RESPONSE_BYTES);
	router_init();
	rid_init(wa->index);
	if (db_open(&app->db, wa->cfg, &repo_schema,
	    DB_PREPARE_LAZY) != 0) {
		log_err("worker %u: cannot open the database; exiting",
		    wa->index);
		return -1;
	}
	db_set_metrics(app->db, wa->metrics);
	app->tokens = token_cache_new();
	return 0;
}

static void
app_teardown(struct app *app)
{
	if (app->tokens != NULL)
		token_cache_free(app->tokens);
	if (app->db != NULL)
		db_close(app->db);
	api_leads_catalog_free(app->leads_catalog);
	app->leads_catalog = NULL;
	arena_clear(&app->arena);
	buf_clear(&app->out);
}

static int
acceptor_setup(struct acceptor *acc, int lfd)
{
	struct epoll_event ev;
	int fl, rc;

	acc->lfd = lfd;
	acc->epfd = -1;
	if ((rc = FCGX_Init()) != 0) {
		log_err("worker: FCGX_Init failed (%d)", rc);
		return -1;
	}
	(void)FCGX_InitRequest(&acc->req, lfd, 0);
	/* The file description is shared by all workers: same flag for all. */
	if ((fl = fcntl(lfd, F_GETFL)) == -1 ||
	    fcntl(lfd, F_SETFL, fl | O_NONBLOCK) == -1 ||
	    (acc->epfd = epoll_create1(EPOLL_CLOEXEC)) == -1) {
		log_err("worker: listening socket setup: %s", strerror(errno));
		return -1;
	}
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLIN | EPOLLEXCLUSIVE;
	ev.data.fd = lfd;
	if (epoll_ctl(acc->epfd, EPOLL_CTL_ADD, lfd, &ev) == -1) {
		log_err("worker: epoll_ctl: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static void
acceptor_clear(struct acceptor *acc)
{
	FCGX_Free(&acc->req, 1);
	if (acc->epfd != -1)
		(void)close(acc->epfd);
}

/*
 * Waits, with the stop signals open, until a request may be there.
 * Returns 1 when FCGX_Accept_r() should be tried, 0 when a signal
 * interrupted the wait, -1 on error (logged).
 */
static int
wait_request(struct acceptor *acc)
{
	struct epoll_event ev;
	struct pollfd pfd;
	int n;

	/*
	 * XXX: ipcFd is below libfcgi's "don't use" line, but it is the
	 * only way to know that the web server kept the connection open
	 * (FCGI_KEEP_CONN): the next request then comes on it, not through
	 * accept, so that is what to wait on.
	 */
	if (acc->req.ipcFd >= 0) {
		const struct timespec check = { 0,
		    KEPT_IDLE_CHECK_MS * 1000000L };
		struct pollfd lp = { .fd = acc->lfd, .events = POLLIN };

		pfd.fd = acc->req.ipcFd;
		pfd.events = POLLIN;
		while ((n = ppoll(&pfd, 1, &check, &acc->waitmask)) == 0) {
			if (poll(&lp, 1, 0) != 1)
				continue;
			/*
			 * A connection waits and this one is idle: close it
			 * (plainly: nothing is unread on it) and accept.
			 */
			(void)FCGX_Detach(&acc->req);
			FCGX_Free(&acc->req, 1);
			return 1;
		}
	} else
		n = epoll_pwait(acc->epfd, &ev, 1, ACCEPT_RECHECK_MS,
		    &acc->waitmask);
	if (n == -1 && errno == EINTR)
		return 0;
	if (n == -1) {
		log_err("worker: waiting for requests: %s", strerror(errno));
		return -1;
	}
	return 1;
}

/* FCGX_Accept_r() results that only mean "nothing to take now". */
static bool
is_transient(int rc)
{
	return rc == -EAGAIN || rc == -EWOULDBLOCK || rc == -EINTR ||
	    rc == -ECONNABORTED || rc == -EPROTO;
}

/* The request loop; returns the exit status. */
static int
serve_loop(struct app *app, struct acceptor *acc)
{
	uint64_t max = (uint64_t)app->cfg->max_requests;
	int rc;

	while (!worker_stop) {
		if (max > 0 && app->served >= max) {
			log_info("worker %u: recycling after %llu requests",
			    app->worker_index,
			    (unsigned long long)app->served);
			break;
		}
		if ((rc = wait_request(acc)) < 0)
			return WORKER_EXIT_RUNTIME;
		/*
		 * A connection the database closed while we waited is replaced
		 * first.  Then reconcile the limits (and read the auth epoch)
		 * while idle and before serving, so a revocation made during an
		 * idle spell is seen by the first request after it.
		 */
		db_revive_idle(app->db);
		limiter_tick(app->lim, app->db);
		if (rc == 0)
			continue;
		/* Woken for a connection: take it even when stopping. */
		if ((rc = FCGX_Accept_r(&acc->req)) < 0) {
			if (is_transient(rc))
				continue;
			log_err("worker: FCGX_Accept_r: %s", rc > -10000 ?
			    strerror(-rc) : "libfcgi error");
			return WORKER_EXIT_RUNTIME;
		}
		serve(app, acc);
		limiter_tick(app->lim, app->db);
		arena_reset(&app->arena);
		app->served++;
	}
	return WORKER_EXIT_OK;
}

int
worker_run(const struct worker_args *wa)
{
	struct acceptor acc;
	struct app app;
	int status = WORKER_EXIT_STARTUP;

	memset(&acc, 0, sizeof(acc));
	acc.epfd = -1;
	acc.req.ipcFd = -1;	/* FCGX_Free must not close fd 0 */
	memset(&app, 0, sizeof(app));
	/* A worker must not outlive its master. */
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) == -1 ||
	    getppid() != wa->master ||
	    setup_signals(&acc.waitmask) != 0 ||
	    app_setup(&app, wa) != 0 ||
	    acceptor_setup(&acc, wa->fd) != 0)
		goto out;
	(void)kill(wa->master, WORKER_READY_SIGNAL);
	log_debug("worker %u: ready", wa->index);
	status = serve_loop(&app, &acc);
	/* What the host counted since its last sync is not lost. */
	(void)limiter_flush(app.lim, app.db);
out:
	acceptor_clear(&acc);
	app_teardown(&app);
	return status;
}
