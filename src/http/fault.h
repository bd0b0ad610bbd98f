/*
 * Fault injection for testing clients (key fault_injection, off by
 * default): the request header X-Mauto-Fault names an error the call
 * answers at once, or a delay before it is served as usual.  This module
 * only reads the header's value; dispatch applies it (src/dispatch.c).
 */
#ifndef MAUTO_HTTP_FAULT_H
#define MAUTO_HTTP_FAULT_H

#include <stdbool.h>

enum fault_kind {
	FAULT_NONE,		/* no header, or a fault the endpoint ignores */
	FAULT_ERROR,		/* answer err */
	FAULT_DELAY,		/* wait delay_ms, then serve the call */
	FAULT_BAD,		/* not a fault this service knows: 1001 */
	FAULT_KIND__MAX
};

struct fault {
	enum fault_kind	 kind;
	int		 err;		/* FAULT_ERROR: a negative api_err */
	int		 delay_ms;	/* FAULT_DELAY: 0..MAX_FAULT_DELAY_MS */
};

/*
 * Parses the header's value v (NULL or "" when absent) into *out: one of
 * the codes 601, 602, 604, 606, 607, 608, 611, 615, or "delay=MS" with MS
 * from 0 to MAX_FAULT_DELAY_MS.  identity: the call is the OAuth token
 * endpoint, which only ever fails on the server's side, so 604, 608 and
 * 611 apply there and the other codes are FAULT_NONE (ignored).
 */
void	fault_parse(const char *v, bool identity, struct fault *out);

/*
 * The negative api_err of the service code code (601...) when it may be
 * injected into a call of a client (fault plans, mautoctl fault), or 0.
 */
int	fault_err_of_code(int code);

#endif
