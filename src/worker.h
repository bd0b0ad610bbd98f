/*
 * One worker process (docs/style.md §9): made by the master's fork, it sets up
 * its own context (database connection, token cache, arena, response
 * buffer), tells the master it is ready, and serves FastCGI requests on
 * the inherited listening socket until it is told to stop or has served
 * max_requests.
 */
#ifndef MAUTO_WORKER_H
#define MAUTO_WORKER_H

#include <sys/types.h>

#include <signal.h>

struct config;
struct limiter;
struct metrics;
struct pagecache;

/* Exit statuses of a worker; the master's respawn policy reads them. */
#define WORKER_EXIT_OK		0	/* stopped or recycled: expected */
#define WORKER_EXIT_STARTUP	1	/* setup failed (database down) */
#define WORKER_EXIT_RUNTIME	2	/* the listening socket failed */

/*
 * The signal a worker sends the master once it is ready to accept (a
 * real-time signal, so that readiness of several workers is never merged
 * into one delivery; si_pid says who).
 */
#define WORKER_READY_SIGNAL	(SIGRTMIN)

struct worker_args {
	const struct config	*cfg;	/* the master's copy, inherited */
	struct limiter		*lim;	/* mapped by the master before fork */
	struct metrics		*metrics;	/* likewise */
	struct pagecache	*pages;		/* likewise; may be NULL */
	int			 fd;	/* the listening socket */
	unsigned		 index;	/* process slot, for request ids */
	pid_t			 master;	/* whom to tell "ready" */
};

/*
 * Runs a worker in the current (freshly forked) process.  SIGTERM, SIGINT
 * and SIGUSR1 stop it gracefully: a worker waiting for a connection exits
 * at once, a worker in a request finishes and writes it first.  Returns
 * the process exit status (WORKER_EXIT_*); the caller passes it to
 * exit().
 */
int	worker_run(const struct worker_args *wa);

#endif
