/*
 * libFuzzer target for the parameter descriptors (validate.c).  The input
 * is a query string, a NUL, a content type, a NUL, then a body: read by
 * the production request parser, then validated against a table with a
 * parameter of every type from every source.  A value validate accepts
 * must be what its type promises.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "bounds.h"
#include "http/request.h"
#include "http/response.h"
#include "http/validate.h"
#include "util/arena.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fz {
	const char	*query;
	const char	*ctype;
	const char	*body;
	size_t		 body_len;
	size_t		 pos;
	char		 clen[32];
};

static const char *
fz_getparam(void *ctx, const char *name)
{
	struct fz *f = ctx;

	if (strcmp(name, "REQUEST_METHOD") == 0)
		return "POST";
	if (strcmp(name, "PATH_INFO") == 0)
		return "/rest/asset/v1/fuzz.json";
	if (strcmp(name, "QUERY_STRING") == 0)
		return f->query;
	if (strcmp(name, "CONTENT_TYPE") == 0)
		return f->ctype;
	if (strcmp(name, "CONTENT_LENGTH") == 0)
		return f->clen;
	return NULL;
}

static ssize_t
fz_read(void *ctx, char *buf, size_t n)
{
	struct fz *f = ctx;
	size_t left = f->body_len - f->pos;

	if (n > left)
		n = left;
	memcpy(buf, f->body + f->pos, n);
	f->pos += n;
	return (ssize_t)n;
}

static const char *const words[] = { "draft", "approved", NULL };

static const struct vparam table[] = {
	{ .name = "i", .type = VP_INT, .min = -5, .max = 1000,
	  .src = VP_PARAM | VP_JSON },
	{ .name = "s", .type = VP_STR, .max = 20, .src = VP_PARAM | VP_JSON },
	{ .name = "b", .type = VP_BOOL, .src = VP_PARAM | VP_JSON },
	{ .name = "e", .type = VP_ENUM, .words = words, .flags = VPF_NOCASE,
	  .src = VP_PARAM | VP_JSON },
	{ .name = "d", .type = VP_DATETIME, .src = VP_PARAM | VP_JSON },
	{ .name = "l", .type = VP_LIST, .max = 50, .src = VP_PARAM | VP_JSON },
	{ .name = "r", .type = VP_RAW, .src = VP_PARAM | VP_JSON,
	  .bad_msg = "bad '%s' here" },
};

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char copy[MAX_BODY_BYTES + MAX_URI_BYTES];
	struct vvalue v[sizeof(table) / sizeof(table[0])];
	struct req_env env;
	struct resp r;
	struct fz f;
	struct arena a;
	struct req req;
	char *p, *end, *nul;
	size_t i;

	if (size >= sizeof(copy))
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	memset(&f, 0, sizeof(f));
	p = copy;
	end = copy + size;
	f.query = p;
	if ((nul = memchr(p, '\0', (size_t)(end - p))) == NULL || nul == end)
		return 0;
	p = nul + 1;
	f.ctype = p;
	if ((nul = memchr(p, '\0', (size_t)(end - p))) == NULL)
		return 0;
	f.body = nul + 1;
	f.body_len = (size_t)(end - f.body);
	(void)snprintf(f.clen, sizeof(f.clen), "%zu", f.body_len);
	env.getparam = fz_getparam;
	env.read = fz_read;
	env.ctx = &f;
	env.vars = NULL;
	arena_init(&a);
	memset(&r, 0, sizeof(r));
	if (request_read(&req, &a, &env) == 0 &&
	    VALIDATE(&req, &r, table, v) == 0) {
		if (v[0].present && (v[0].i < -5 || v[0].i > 1000))
			__builtin_trap();
		if (v[1].present && strlen(v[1].s) > 20)
			__builtin_trap();
		if (v[3].present && (v[3].i < 0 || v[3].i > 1))
			__builtin_trap();
		if (v[5].present && v[5].n > 50)
			__builtin_trap();
		for (i = 0; i < v[5].n; i++)
			if (v[5].items[i] == NULL)
				__builtin_trap();
	}
	request_clear(&req);
	arena_clear(&a);
	return 0;
}
