/*
 * What dispatch hands a handler: the worker's context (struct app), the
 * authenticated client, the request in flight (struct call) and the
 * handler type.  Low in the house (it names the upper layers' types only
 * by forward declaration), so handlers, the route table and token
 * checking can all include it.
 */
#ifndef MAUTO_CALL_H
#define MAUTO_CALL_H

#include <stdbool.h>
#include <stdint.h>

#include "bounds.h"
#include "model/perm.h"
#include "util/arena.h"
#include "util/buf.h"

struct config;
struct db;
struct leads_catalog;
struct pagecache;
struct limiter;
struct metrics;
struct req;
struct resp;
struct route;
struct token_cache;

/* Worker-lifetime context, made after fork (worker.c). */
struct app {
	const struct config	*cfg;
	struct db		*db;		/* this worker's connection */
	struct limiter		*lim;		/* shared by the host's workers */
	struct metrics		*metrics;	/* shared likewise (GET /metrics) */
	struct token_cache	*tokens;	/* this worker's token cache */
	struct arena		 arena;		/* reset after every request */
	struct buf		 out;		/* response body, reused */
	unsigned		 worker_index;
	uint64_t		 served;	/* requests served */
	/*
	 * The lead field catalogue cache (api_leads_catalog.c), made on
	 * first use and freed with api_leads_catalog_free.
	 */
	struct leads_catalog	*leads_catalog;
	/* Pages of browse answers (util/pagecache.h), shared; may be NULL. */
	struct pagecache	*pages;
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
	bool			 faulted;	/* the answer is an injected fault */
};

typedef int (*api_handler)(struct call *c, struct resp *r);

#endif
