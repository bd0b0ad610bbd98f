#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/xmalloc.h"

static void __attribute__((noreturn))
oom(size_t n)
{
	char msg[96];
	int len;

	/* No allocation here: write(2) a fixed line and leave. */
	len = snprintf(msg, sizeof(msg), "mauto: out of memory (%zu bytes)\n", n);
	if (len > 0)
		(void)!write(STDERR_FILENO, msg, (size_t)len);
	_exit(70);
}

void
xoom(void)
{
	oom(0);
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n == 0 ? 1 : n);

	if (p == NULL)
		oom(n);
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb == 0 ? 1 : nmemb, size == 0 ? 1 : size);

	if (p == NULL)
		oom(nmemb * size);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n == 0 ? 1 : n);

	if (q == NULL)
		oom(n);
	return q;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}
