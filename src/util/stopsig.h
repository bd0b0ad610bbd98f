/*
 * The stop signals of a helper process the master forks (an export
 * runner, the activity pruner): SIGTERM, SIGINT and SIGUSR1 set
 * stopsig_stop, SIGHUP and SIGPIPE are ignored, SIGCHLD is the default
 * and no signal stays blocked.  SA_RESTART, so database and file I/O go
 * on after a signal; nanosleep is interrupted all the same (signal(7)),
 * so a nap ends at once.
 */
#ifndef MAUTO_UTIL_STOPSIG_H
#define MAUTO_UTIL_STOPSIG_H

#include <signal.h>
#include <stdint.h>

/* Set by a stop signal; the process finishes what it does and exits. */
extern volatile sig_atomic_t stopsig_stop;

/* Installs the handlers and clears the mask; 0, or -1 on failure. */
int	stopsig_setup(void);

/* Sleeps ms milliseconds, or not at all once a stop signal came. */
void	stopsig_nap(int64_t ms);

#endif
