/*
 * The shared page cache (pagecache.h).  A slot's seq is 0 while it was
 * never written, odd while a writer fills it, even otherwise; a reader
 * reads seq, copies key and page, and checks seq again (a sequence lock).
 * The copy may race with a writer; the second read of seq tells, and a
 * torn copy is dropped.  A worker killed while writing leaves its slot odd:
 * that slot is not used again until the host restarts, which costs one
 * slot of PAGECACHE_SLOTS.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "bounds.h"
#include "util/arena.h"
#include "util/log.h"
#include "util/pagecache.h"
#include "util/xmalloc.h"

#define WAYS	2

struct slot {
	_Atomic uint64_t	 seq;
	_Atomic uint64_t	 used;	/* tick of the last hit or write */
	uint32_t		 len;
	char			 key[PAGECACHE_KEY_BYTES];
	char			 data[PAGECACHE_PAGE_BYTES];
};

struct shared {
	_Atomic uint64_t	 tick;
	struct slot		 slots[PAGECACHE_SLOTS];
};

struct pagecache {
	struct shared		*sh;
};

/* See pagecache.h. */
struct pagecache *
pagecache_create(void)
{
	struct pagecache *pc;
	void *p;

	p = mmap(NULL, sizeof(struct shared), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		log_err("pagecache: mmap %zu bytes: %s",
		    sizeof(struct shared), strerror(errno));
		return NULL;
	}
	pc = xcalloc(1, sizeof(*pc));
	pc->sh = p;	/* zero-filled: every slot never written */
	return pc;
}

/* See pagecache.h. */
void
pagecache_destroy(struct pagecache *pc)
{
	if (pc == NULL)
		return;
	(void)munmap(pc->sh, sizeof(*pc->sh));
	free(pc);
}

/* FNV-1a of key: the first slot of its set. */
static size_t
set_of(const char *key)
{
	uint64_t h = 14695981039346656037ULL;

	for (; *key != '\0'; key++)
		h = (h ^ (unsigned char)*key) * 1099511628211ULL;
	return (size_t)(h % (PAGECACHE_SLOTS / WAYS)) * WAYS;
}

static uint64_t
tick(struct pagecache *pc)
{
	return atomic_fetch_add_explicit(&pc->sh->tick, 1,
	    memory_order_relaxed) + 1;
}

/* See pagecache.h. */
int
pagecache_get(struct pagecache *pc, const char *key, struct arena *a,
    const char **page, size_t *len)
{
	struct slot *s;
	uint64_t s1, s2;
	size_t i, first, n;
	char *copy;

	if (pc == NULL)
		return -1;
	first = set_of(key);
	for (i = first; i < first + WAYS; i++) {
		s = &pc->sh->slots[i];
		s1 = atomic_load_explicit(&s->seq, memory_order_acquire);
		if (s1 == 0 || (s1 & 1) != 0 ||
		    strncmp(s->key, key, sizeof(s->key)) != 0)
			continue;
		if ((n = s->len) > PAGECACHE_PAGE_BYTES ||
		    (copy = arena_alloc(a, n + 1)) == NULL)
			return -1;
		memcpy(copy, s->data, n);
		copy[n] = '\0';
		atomic_thread_fence(memory_order_acquire);
		s2 = atomic_load_explicit(&s->seq, memory_order_relaxed);
		if (s1 != s2)
			return -1;
		atomic_store_explicit(&s->used, tick(pc), memory_order_relaxed);
		*page = copy;
		*len = n;
		return 0;
	}
	return -1;
}

/* See pagecache.h. */
int
pagecache_put(struct pagecache *pc, const char *key, const char *page,
    size_t len)
{
	struct slot *s, *pick = NULL;
	uint64_t seq, used, best = UINT64_MAX;
	size_t i, first, klen;
	bool found;

	if (pc == NULL || len > PAGECACHE_PAGE_BYTES ||
	    (klen = strlen(key)) >= PAGECACHE_KEY_BYTES)
		return -1;
	first = set_of(key);
	for (i = first; i < first + WAYS && pick == NULL; i++) {
		s = &pc->sh->slots[i];
		if (strncmp(s->key, key, sizeof(s->key)) == 0)
			pick = s;
	}
	found = pick != NULL;
	/* Else the slot less recently used (never written: 0). */
	for (i = first; i < first + WAYS && !found; i++) {
		s = &pc->sh->slots[i];
		used = atomic_load_explicit(&s->used, memory_order_relaxed);
		if (pick == NULL || used < best) {
			best = used;
			pick = s;
		}
	}
	seq = atomic_load_explicit(&pick->seq, memory_order_relaxed);
	if ((seq & 1) != 0 || !atomic_compare_exchange_strong_explicit(
	    &pick->seq, &seq, seq + 1, memory_order_acquire,
	    memory_order_relaxed))
		return -1;
	memcpy(pick->key, key, klen + 1);
	pick->len = (uint32_t)len;
	memcpy(pick->data, page, len);
	atomic_store_explicit(&pick->seq, seq + 2, memory_order_release);
	atomic_store_explicit(&pick->used, tick(pc), memory_order_relaxed);
	return 0;
}
