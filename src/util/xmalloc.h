/*
 * Allocators that never return NULL: on exhaustion they log and end the
 * process (a worker is then respawned by the master, docs/style.md §4).
 */
#ifndef MAUTO_UTIL_XMALLOC_H
#define MAUTO_UTIL_XMALLOC_H

#include <stddef.h>

void	*xmalloc(size_t n);
void	*xcalloc(size_t nmemb, size_t size);
void	*xrealloc(void *p, size_t n);
char	*xstrdup(const char *s);
char	*xstrndup(const char *s, size_t n);
/* Ends the process as a failed allocation does, for a library's own. */
void	 xoom(void) __attribute__((noreturn));

#endif
