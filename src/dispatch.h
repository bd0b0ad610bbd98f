/*
 * One request from start to end: read (request.c), route (router.c),
 * authenticate and check permissions (auth/), admit through the limits
 * (auth/ratelimit.c), run the handler, render (response.c) and write.
 * The worker calls dispatch() once per accepted FastCGI request.
 */
#ifndef MAUTO_DISPATCH_H
#define MAUTO_DISPATCH_H

#include <stddef.h>

struct app;
struct req_env;

/* Where the response goes: the worker wraps FCGX_PutStr. */
struct resp_writer {
	/* Writes n bytes; returns 0 or -1 when the client is gone. */
	int	(*write)(void *ctx, const char *p, size_t n);
	void	*ctx;
};

/*
 * Serves one request.  Never fails outward: every error becomes a
 * response.  Returns 0, or -1 when the response could not be written.
 */
int	dispatch(struct app *app, const struct req_env *env,
	    const struct resp_writer *w);

#endif
