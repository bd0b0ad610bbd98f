/*
 * A worker's small cache of answered pages: a key (the request's
 * parameters and the generation of what the page shows, written by the
 * caller) to the bytes of the page.  Bounded by PAGECACHE_ENTRIES,
 * PAGECACHE_BYTES and PAGECACHE_PAGE_BYTES (bounds.h); the least recently
 * used entry goes first.  Not shared: each worker has its own.
 */
#ifndef MAUTO_UTIL_PAGECACHE_H
#define MAUTO_UTIL_PAGECACHE_H

#include <stddef.h>

struct pagecache;

struct pagecache	*pagecache_new(void);
void			 pagecache_free(struct pagecache *pc);

/*
 * The page kept under key into *page (len bytes, owned by the cache and
 * valid until the next pagecache_put or pagecache_free).  Returns 0, or
 * -1 when there is none.
 */
int	pagecache_get(struct pagecache *pc, const char *key, const char **page,
	    size_t *len);

/*
 * Keeps a copy of page (len bytes) under key, replacing what was kept
 * there and dropping the least recently used pages to make room.  A page
 * larger than PAGECACHE_PAGE_BYTES is not kept.  Returns the kept copy,
 * or NULL when it was not kept.
 */
const char	*pagecache_put(struct pagecache *pc, const char *key,
		    const char *page, size_t len);

#endif
