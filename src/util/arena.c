#include <stdarg.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds.h"
#include "util/arena.h"
#include "util/xmalloc.h"

struct arena_block {
	struct arena_block	*prev;
	size_t			 size;
	size_t			 used;
	alignas(max_align_t) unsigned char data[];
};

#define ALIGN_UP(n)	(((n) + alignof(max_align_t) - 1) & \
			    ~(alignof(max_align_t) - 1))

void
arena_init(struct arena *a)
{
	a->head = NULL;
	a->first = NULL;
	a->total = 0;
}

void
arena_clear(struct arena *a)
{
	struct arena_block *b, *prev;

	for (b = a->head; b != NULL; b = prev) {
		prev = b->prev;
		free(b);
	}
	arena_init(a);
}

void
arena_reset(struct arena *a)
{
	struct arena_block *b, *prev;

	for (b = a->head; b != NULL && b != a->first; b = prev) {
		prev = b->prev;
		free(b);
	}
	a->head = a->first;
	a->total = 0;
	if (a->first != NULL) {
		a->first->used = 0;
		a->total = a->first->size;
	}
}

void *
arena_alloc(struct arena *a, size_t n)
{
	struct arena_block *b;
	size_t need, size;
	void *p;

	if (n > MAX_ARENA_BYTES)
		return NULL;
	need = ALIGN_UP(n == 0 ? 1 : n);
	b = a->head;
	if (b == NULL || b->size - b->used < need) {
		size = need > ARENA_BLOCK_BYTES ? need : ARENA_BLOCK_BYTES;
		if (a->total + size > MAX_ARENA_BYTES)
			return NULL;
		b = xmalloc(sizeof(*b) + size);
		b->prev = a->head;
		b->size = size;
		b->used = 0;
		a->head = b;
		if (a->first == NULL)
			a->first = b;
		a->total += size;
	}
	p = b->data + b->used;
	b->used += need;
	return p;
}

void *
arena_zalloc(struct arena *a, size_t n)
{
	void *p = arena_alloc(a, n);

	if (p != NULL)
		memset(p, 0, n);
	return p;
}

char *
arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);

	if (p != NULL) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

char *
arena_strdup(struct arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

char *
arena_printf(struct arena *a, const char *fmt, ...)
{
	va_list ap;
	int n;
	char *p;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	p = arena_alloc(a, (size_t)n + 1);
	if (p == NULL)
		return NULL;
	va_start(ap, fmt);
	(void)vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}
