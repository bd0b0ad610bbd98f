/*
 * The page cache (pagecache.h): a fixed table searched in order, which at
 * PAGECACHE_ENTRIES entries costs less than the hashing it would save.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bounds.h"
#include "util/pagecache.h"
#include "util/xmalloc.h"

struct page {
	char		*key;		/* NULL: a free slot */
	char		*data;
	size_t		 len;
	uint64_t	 used;		/* tick of the last get or put */
};

struct pagecache {
	struct page	 pages[PAGECACHE_ENTRIES];
	size_t		 bytes;		/* data bytes of all pages */
	uint64_t	 tick;
};

struct pagecache *
pagecache_new(void)
{
	struct pagecache *pc = xmalloc(sizeof(*pc));

	memset(pc, 0, sizeof(*pc));
	return pc;
}

static void
drop(struct pagecache *pc, struct page *p)
{
	pc->bytes -= p->len;
	free(p->key);
	free(p->data);
	memset(p, 0, sizeof(*p));
}

void
pagecache_free(struct pagecache *pc)
{
	size_t i;

	if (pc == NULL)
		return;
	for (i = 0; i < PAGECACHE_ENTRIES; i++)
		if (pc->pages[i].key != NULL)
			drop(pc, &pc->pages[i]);
	free(pc);
}

static struct page *
find(struct pagecache *pc, const char *key)
{
	size_t i;

	for (i = 0; i < PAGECACHE_ENTRIES; i++)
		if (pc->pages[i].key != NULL &&
		    strcmp(pc->pages[i].key, key) == 0)
			return &pc->pages[i];
	return NULL;
}

int
pagecache_get(struct pagecache *pc, const char *key, const char **page,
    size_t *len)
{
	struct page *p = find(pc, key);

	if (p == NULL)
		return -1;
	p->used = ++pc->tick;
	*page = p->data;
	*len = p->len;
	return 0;
}

/* The least recently used page, or NULL when every slot is free. */
static struct page *
oldest(struct pagecache *pc)
{
	struct page *o = NULL;
	size_t i;

	for (i = 0; i < PAGECACHE_ENTRIES; i++)
		if (pc->pages[i].key != NULL &&
		    (o == NULL || pc->pages[i].used < o->used))
			o = &pc->pages[i];
	return o;
}

const char *
pagecache_put(struct pagecache *pc, const char *key, const char *page,
    size_t len)
{
	struct page *p;
	size_t i;

	if ((p = find(pc, key)) != NULL)
		drop(pc, p);
	if (len > PAGECACHE_PAGE_BYTES)
		return NULL;
	while (pc->bytes + len > PAGECACHE_BYTES && (p = oldest(pc)) != NULL)
		drop(pc, p);
	for (p = NULL, i = 0; i < PAGECACHE_ENTRIES && p == NULL; i++)
		if (pc->pages[i].key == NULL)
			p = &pc->pages[i];
	if (p == NULL) {
		p = oldest(pc);
		drop(pc, p);
	}
	p->key = xstrdup(key);
	p->data = xmalloc(len + 1);
	memcpy(p->data, page, len);
	p->data[len] = '\0';
	p->len = len;
	p->used = ++pc->tick;
	pc->bytes += len;
	return p->data;
}
