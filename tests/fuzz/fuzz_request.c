/*
 * libFuzzer target for the request edge (docs/style.md §11.4).  The input is
 * split on 0x00 into: method, path, query, content type, content length,
 * then the body (the rest, NULs included).  A missing field is an absent
 * CGI variable; a content length of "-" means "the body's real length".
 * The body is delivered in reads of varying size taken from its first
 * byte, so the read loop is exercised too.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "bounds.h"
#include "http/request.h"
#include "util/arena.h"

#define NFIELDS		5

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fz {
	char		*field[NFIELDS];	/* NUL-terminated, or NULL */
	char		 clen[32];
	const char	*body;
	size_t		 body_len;
	size_t		 pos;
	size_t		 chunk;
};

static const char *const names[NFIELDS] = {
	"REQUEST_METHOD", "PATH_INFO", "QUERY_STRING", "CONTENT_TYPE",
	"CONTENT_LENGTH",
};

static const char *
fz_getparam(void *ctx, const char *name)
{
	struct fz *f = ctx;
	size_t i;

	for (i = 0; i < NFIELDS; i++)
		if (strcmp(name, names[i]) == 0)
			return f->field[i];
	if (strcmp(name, "HTTP_AUTHORIZATION") == 0)
		return "Bearer fuzz";
	return NULL;
}

static ssize_t
fz_read(void *ctx, char *buf, size_t n)
{
	struct fz *f = ctx;
	size_t left = f->body_len - f->pos;

	if (n > f->chunk)
		n = f->chunk;
	if (n > left)
		n = left;
	memcpy(buf, f->body + f->pos, n);
	f->pos += n;
	return (ssize_t)n;
}

/* Exercises the accessors on whatever was decoded. */
static void
use(struct req *req)
{
	const char **items;
	size_t i;

	/* As dispatch does for an operation of named parameters. */
	(void)request_json_params(req);
	(void)req_param(req, "_method");
	(void)req_param_list(req, "fields", &items);
	for (i = 0; i < req->nparams; i++)
		if (strlen(req->params[i].value) != req->params[i].value_len)
			__builtin_trap();
	for (i = 0; i < req->nparts; i++)
		if (req->parts[i].data + req->parts[i].len >
		    req->body + req->body_len)
			__builtin_trap();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char copy[MAX_BODY_BYTES + MAX_URI_BYTES];
	struct fz f;
	struct arena a;
	struct req req;
	struct req_env env = {
		.getparam = fz_getparam, .read = fz_read, .ctx = &f
	};
	char *p, *end, *nul;
	size_t i;

	if (size >= sizeof(copy))
		return 0;
	memcpy(copy, data, size);
	memset(&f, 0, sizeof(f));
	p = copy;
	end = copy + size;
	for (i = 0; i < NFIELDS && p < end; i++) {
		if ((nul = memchr(p, '\0', (size_t)(end - p))) == NULL)
			break;
		f.field[i] = p;
		p = nul + 1;
	}
	f.body = p;
	f.body_len = (size_t)(end - p);
	f.chunk = f.body_len > 0 ? (unsigned char)f.body[0] % 64 + 1 : 1;
	if (f.field[4] != NULL && strcmp(f.field[4], "-") == 0) {
		(void)snprintf(f.clen, sizeof(f.clen), "%zu", f.body_len);
		f.field[4] = f.clen;
	}
	arena_init(&a);
	if (request_read(&req, &a, &env) == 0)
		use(&req);
	request_clear(&req);
	arena_clear(&a);
	return 0;
}
