/*
 * Handlers, grouped by file.  A handler reads the typed request, calls
 * its repository and fills struct resp; it returns 0 or a negative
 * api_err and never writes an error body (style.md §4).
 */
#ifndef MAUTO_API_API_H
#define MAUTO_API_API_H

#include <stdint.h>

#include "auth/perm.h"
#include "limits.h"
#include "model/leadfield.h"
#include "util/arena.h"
#include "util/buf.h"

struct config;
struct db;
struct limiter;
struct req;
struct resp;
struct route;
struct token_cache;

/* Worker-lifetime context, made after fork (worker.c). */
struct app {
	const struct config	*cfg;
	struct db		*db;		/* this worker's connection */
	struct limiter		*lim;		/* shared by the host's workers */
	struct token_cache	*tokens;	/* this worker's token cache */
	struct arena		 arena;		/* reset after every request */
	struct buf		 out;		/* response body, reused */
	unsigned		 worker_index;
	uint64_t		 served;	/* requests served */
	/* The lead field catalogue as last loaded (api_leads_common.c). */
	struct lead_schema	 lead_schema;
	int64_t			 lead_schema_checked_ms;
};

/* The API client a request was authenticated as. */
struct client {
	int64_t		 id;			/* row id */
	char		 client_id[CLIENT_ID_BYTES + 1];
	char		 name[MAX_NAME_BYTES + 1];
	perm_set	 perms;			/* expanded */
};

/* One request in flight. */
struct call {
	struct app		*app;
	struct req		*req;
	const struct route	*route;
	const struct client	*client;	/* NULL on unauthenticated routes */
	const char		*request_id;
};

typedef int (*api_handler)(struct call *c, struct resp *r);

/* api_identity.c: GET and POST /identity/oauth/token. */
int	api_identity_token(struct call *c, struct resp *r);

/*
 * api_pending.c: the answer of every registered route whose group is not
 * built yet: code 703, "Not implemented: <operation name> (<operationId>)".
 */
int	api_pending(struct call *c, struct resp *r);

#endif
