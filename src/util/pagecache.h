/*
 * The pages of browse answers kept by the workers of a host: a key (the
 * request's parameters and the generation of what the page shows, made
 * by the caller) to the bytes of the page.  One shared mapping that the
 * master makes before it forks, as the metrics are, so a page answered
 * by one worker serves the next request whichever worker takes it.
 * Bounded by PAGECACHE_SLOTS, PAGECACHE_PAGE_BYTES and PAGECACHE_KEY_BYTES
 * (bounds.h); a key has two slots to be in, and a new page replaces the
 * one less recently used.  Lock-free: each slot is a sequence lock, so a
 * reader copies a page and keeps it only if no writer touched the slot
 * meanwhile; a writer that finds the slot being written leaves it.
 */
#ifndef MAUTO_UTIL_PAGECACHE_H
#define MAUTO_UTIL_PAGECACHE_H

#include <stddef.h>

struct arena;
struct pagecache;

/*
 * Master, before fork: maps the slots (MAP_SHARED | MAP_ANONYMOUS).
 * Returns an owned handle for pagecache_destroy, or NULL after logging
 * why.
 */
struct pagecache	*pagecache_create(void);
void			 pagecache_destroy(struct pagecache *pc);

/*
 * A copy of the page kept under key into *page (len bytes, NUL-terminated,
 * in arena a).  Returns 0, or -1 when there is none (or it was being
 * replaced while copied).  pc may be NULL (nothing is kept).
 */
int	pagecache_get(struct pagecache *pc, const char *key, struct arena *a,
	    const char **page, size_t *len);

/*
 * Keeps a copy of page (len bytes) under key.  A page larger than
 * PAGECACHE_PAGE_BYTES or a key longer than PAGECACHE_KEY_BYTES - 1 is
 * not kept, nor is one whose slot another writer holds.  Returns 0 when
 * kept, else -1.  pc may be NULL.
 */
int	pagecache_put(struct pagecache *pc, const char *key, const char *page,
	    size_t len);

#endif
