/*
 * The stop signals of a helper process (stopsig.h).
 */
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <time.h>

#include "util/stopsig.h"

volatile sig_atomic_t stopsig_stop;

static void
on_stop(int sig)
{
	(void)sig;
	stopsig_stop = 1;
}

/* See stopsig.h. */
int
stopsig_setup(void)
{
	static const int stops[] = { SIGTERM, SIGINT, SIGUSR1 };
	struct sigaction sa;
	sigset_t none;
	size_t i;
	int r = 0;

	memset(&sa, 0, sizeof(sa));
	(void)sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sa.sa_handler = on_stop;
	for (i = 0; i < sizeof(stops) / sizeof(stops[0]); i++)
		r |= sigaction(stops[i], &sa, NULL);
	sa.sa_handler = SIG_IGN;
	r |= sigaction(SIGHUP, &sa, NULL);
	r |= sigaction(SIGPIPE, &sa, NULL);
	sa.sa_handler = SIG_DFL;
	r |= sigaction(SIGCHLD, &sa, NULL);
	(void)sigemptyset(&none);
	r |= sigprocmask(SIG_SETMASK, &none, NULL);
	return r == 0 ? 0 : -1;
}

/* See stopsig.h. */
void
stopsig_nap(int64_t ms)
{
	struct timespec ts;

	ts.tv_sec = (time_t)(ms / 1000);
	ts.tv_nsec = (long)(ms % 1000) * 1000000L;
	if (!stopsig_stop)
		(void)nanosleep(&ts, NULL);
}
