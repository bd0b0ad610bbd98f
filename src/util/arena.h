/*
 * Request-lifetime memory (docs/style.md §5.2): allocations come from blocks
 * that are released together by arena_reset() at the end of a request.
 * The first block is kept across resets so a steady worker does not call
 * malloc per request.
 */
#ifndef MAUTO_UTIL_ARENA_H
#define MAUTO_UTIL_ARENA_H

#include <stddef.h>

struct arena_block;

struct arena {
	struct arena_block	*head;	/* current block */
	struct arena_block	*first;	/* kept across resets */
	size_t			 total;	/* bytes in all blocks */
};

/* Prepares an empty arena; no memory is taken until the first alloc. */
void	 arena_init(struct arena *a);
/* Frees every block. */
void	 arena_clear(struct arena *a);
/* Frees all but the first block and makes it empty again. */
void	 arena_reset(struct arena *a);
/*
 * Returns n bytes aligned for any type, owned by the arena, or NULL when
 * the arena would grow past MAX_ARENA_BYTES (callers map that to 413/611).
 */
void	*arena_alloc(struct arena *a, size_t n);
/* As arena_alloc, zeroed. */
void	*arena_zalloc(struct arena *a, size_t n);
/* Copies n bytes of s and a NUL; NULL on exhaustion as above. */
char	*arena_strndup(struct arena *a, const char *s, size_t n);
char	*arena_strdup(struct arena *a, const char *s);
/* printf into the arena; NULL on exhaustion or format error. */
char	*arena_printf(struct arena *a, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

#endif
