/*
 * The request edge (request.c): CGI variables and bodies through a fake
 * struct req_env, one table per rule where the rule is a table.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "bounds.h"
#include "err.h"
#include "http/request.h"
#include "util/arena.h"

#define NVARS	16

/* A FastCGI request as the worker would hand it over. */
struct fake {
	const char	*names[NVARS];
	const char	*values[NVARS];
	size_t		 nvars;
	const char	*body;		/* bytes the client sends */
	size_t		 body_len;
	size_t		 pos;		/* bytes read so far */
	size_t		 chunk;		/* most bytes per read; 0: any */
	bool		 fail;		/* read reports an error */
	int		 nreads;
};

struct t {
	struct arena	 a;
	struct req	 req;
	struct fake	 f;
	struct req_env	 env;
};

static const char *
fake_getparam(void *ctx, const char *name)
{
	struct fake *f = ctx;
	size_t i;

	for (i = 0; i < f->nvars; i++)
		if (strcmp(f->names[i], name) == 0)
			return f->values[i];
	return NULL;
}

static ssize_t
fake_read(void *ctx, char *buf, size_t n)
{
	struct fake *f = ctx;
	size_t left = f->body_len - f->pos;

	f->nreads++;
	if (f->fail)
		return -1;
	if (f->chunk != 0 && n > f->chunk)
		n = f->chunk;
	if (n > left)
		n = left;
	memcpy(buf, f->body + f->pos, n);
	f->pos += n;
	return (ssize_t)n;
}

static void
set(struct t *t, const char *name, const char *value)
{
	assert_true(t->f.nvars < NVARS);
	t->f.names[t->f.nvars] = name;
	t->f.values[t->f.nvars] = value;
	t->f.nvars++;
}

/* Sets a body and its Content-Length; len 0 means strlen. */
static char clen_buf[32];

static void
set_body(struct t *t, const char *ctype, const char *body, size_t len)
{
	if (len == 0)
		len = strlen(body);
	t->f.body = body;
	t->f.body_len = len;
	snprintf(clen_buf, sizeof(clen_buf), "%zu", len);
	set(t, "CONTENT_LENGTH", clen_buf);
	if (ctype != NULL)
		set(t, "CONTENT_TYPE", ctype);
}

static int
rd(struct t *t)
{
	return request_read(&t->req, &t->a, &t->env);
}

/* Clears the request and the fake for the next case of a table. */
static void
reset(struct t *t)
{
	request_clear(&t->req);
	memset(&t->req, 0, sizeof(t->req));
	memset(&t->f, 0, sizeof(t->f));
	arena_reset(&t->a);
}

static int
setup(void **state)
{
	struct t *t = calloc(1, sizeof(*t));

	if (t == NULL)
		return -1;
	arena_init(&t->a);
	t->env.getparam = fake_getparam;
	t->env.read = fake_read;
	t->env.ctx = &t->f;
	*state = t;
	return 0;
}

static int
teardown(void **state)
{
	struct t *t = *state;

	request_clear(&t->req);
	arena_clear(&t->a);
	free(t);
	return 0;
}

/* A GET with a query string: everything copied, nothing borrowed. */
static void
test_get_basic(void **state)
{
	struct t *t = *state;
	char path[] = "/rest/v1/leads.json";
	char query[] = "filterType=email&filterValues=a%40b.com";
	char auth[] = "Bearer abc:ab";

	set(t, "REQUEST_METHOD", "GET");
	set(t, "PATH_INFO", path);
	set(t, "QUERY_STRING", query);
	set(t, "REQUEST_URI", "/rest/v1/leads.json?filterType=email");
	set(t, "HTTP_AUTHORIZATION", auth);
	set(t, "HTTP_ACCEPT_ENCODING", "gzip");
	set(t, "HTTP_RANGE", "bytes=0-9");
	set(t, "REMOTE_ADDR", "127.0.0.1");
	assert_int_equal(rd(t), 0);
	/* The FastCGI strings die at the next accept. */
	memset(path, 'x', sizeof(path) - 1);
	memset(query, 'x', sizeof(query) - 1);
	memset(auth, 'x', sizeof(auth) - 1);
	assert_int_equal(t->req.method, HTTP_GET);
	assert_int_equal(t->req.wire_method, HTTP_GET);
	assert_string_equal(t->req.method_name, "GET");
	assert_string_equal(t->req.path, "/rest/v1/leads.json");
	assert_string_equal(t->req.query,
	    "filterType=email&filterValues=a%40b.com");
	assert_string_equal(t->req.authorization, "Bearer abc:ab");
	assert_string_equal(t->req.accept_encoding, "gzip");
	assert_string_equal(t->req.range, "bytes=0-9");
	assert_string_equal(t->req.remote_addr, "127.0.0.1");
	assert_int_equal(t->req.nparams, 2);
	assert_string_equal(t->req.params[1].name, "filterValues");
	assert_string_equal(t->req.params[1].value, "a@b.com");
	assert_int_equal(t->req.params[1].value_len, 7);
	assert_int_equal(t->req.params[1].src, PARAM_QUERY);
	assert_int_equal(t->req.body_kind, BODY_NONE);
	assert_null(t->req.body);
	assert_null(t->req.content_type);
	assert_int_equal(t->req.body_err, 0);
	assert_ptr_equal(t->req.arena, &t->a);
	assert_int_equal(t->f.nreads, 0);
}

/* The hot path takes nothing but the arena's first block. */
static void
test_get_no_malloc(void **state)
{
	struct t *t = *state;
	void *first;

	assert_non_null(arena_alloc(&t->a, 1));
	arena_reset(&t->a);
	first = t->a.first;
	set(t, "REQUEST_METHOD", "GET");
	set(t, "PATH_INFO", "/rest/v1/lead/12.json");
	set(t, "QUERY_STRING", "fields=email,firstName&access_token=x");
	set(t, "HTTP_AUTHORIZATION", "Bearer 0123456789abcdef:ab");
	assert_int_equal(rd(t), 0);
	assert_ptr_equal(t->a.head, first);
	assert_int_equal(t->a.total, ARENA_BLOCK_BYTES);
	assert_int_equal(t->req.nparams, 2);
}

static void
test_path_fallback(void **state)
{
	struct t *t = *state;

	set(t, "REQUEST_METHOD", "GET");
	set(t, "DOCUMENT_URI", "/rest/v1/leads.json");
	assert_int_equal(rd(t), 0);
	assert_string_equal(t->req.path, "/rest/v1/leads.json");
	assert_string_equal(t->req.query, "");
	reset(t);

	set(t, "PATH_INFO", "/a");
	set(t, "DOCUMENT_URI", "/b");
	assert_int_equal(rd(t), 0);
	assert_string_equal(t->req.path, "/a");
	reset(t);

	/* An empty PATH_INFO is present: no fallback, and 610 later. */
	set(t, "PATH_INFO", "");
	set(t, "DOCUMENT_URI", "/b");
	assert_int_equal(rd(t), 0);
	assert_string_equal(t->req.path, "");
	reset(t);

	assert_int_equal(rd(t), 0);
	assert_non_null(t->req.path);
	assert_string_equal(t->req.path, "");
	assert_string_equal(t->req.method_name, "");
	assert_int_equal(t->req.method, HTTP_OTHER);
}

static void
test_methods(void **state)
{
	static const struct {
		const char		*name;
		enum http_method	 m;
	} cases[] = {
		{ "GET", HTTP_GET }, { "POST", HTTP_POST },
		{ "DELETE", HTTP_DELETE }, { "PUT", HTTP_PUT },
		{ "PATCH", HTTP_PATCH }, { "HEAD", HTTP_HEAD },
		{ "OPTIONS", HTTP_OPTIONS }, { "get", HTTP_OTHER },
		{ "BREW", HTTP_OTHER }, { "", HTTP_OTHER },
		{ "GETX", HTTP_OTHER }, { "OTHER", HTTP_OTHER },
	};
	struct t *t = *state;
	char longm[1000];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(request_method(cases[i].name), cases[i].m);
		if (cases[i].m != HTTP_OTHER)
			assert_string_equal(request_method_name(cases[i].m),
			    cases[i].name);
	}
	assert_int_equal(request_method(NULL), HTTP_OTHER);
	assert_string_equal(request_method_name(HTTP_OTHER), "OTHER");
	assert_string_equal(request_method_name(HTTP__MAX), "OTHER");

	set(t, "REQUEST_METHOD", "BREW");
	assert_int_equal(rd(t), 0);
	assert_int_equal(t->req.method, HTTP_OTHER);
	assert_string_equal(t->req.method_name, "BREW");
	reset(t);

	memset(longm, 'M', sizeof(longm) - 1);
	longm[sizeof(longm) - 1] = '\0';
	set(t, "REQUEST_METHOD", longm);
	assert_int_equal(rd(t), 0);
	assert_int_equal(t->req.method, HTTP_OTHER);
	assert_int_equal(strlen(t->req.method_name), MAX_LOG_FIELD_BYTES);
}

/* docs/behaviour.md §4: 8 KB of URI, then 414, checked before anything. */
static void
test_uri_length(void **state)
{
	struct t *t = *state;
	static char uri[MAX_URI_BYTES + 2], path[MAX_URI_BYTES + 2];

	memset(uri, 'u', sizeof(uri) - 1);
	uri[0] = '/';
	uri[MAX_URI_BYTES] = '\0';
	set(t, "REQUEST_METHOD", "GET");
	set(t, "PATH_INFO", "/rest/asset/v1/emails.json");
	set(t, "REQUEST_URI", uri);
	assert_int_equal(rd(t), 0);
	reset(t);

	uri[MAX_URI_BYTES] = 'u';
	set(t, "REQUEST_METHOD", "POST");
	set(t, "PATH_INFO", "/rest/asset/v1/emails.json");
	set(t, "REQUEST_URI", uri);
	set(t, "CONTENT_LENGTH", "junk");
	assert_int_equal(rd(t), -API_ERR_URI_TOO_LONG);
	/* Still renderable in the asset envelope, as a POST. */
	assert_string_equal(t->req.path, "/rest/asset/v1/emails.json");
	assert_int_equal(t->req.wire_method, HTTP_POST);
	reset(t);

	/* Without REQUEST_URI: path + '?' + query. */
	memset(path, 'p', sizeof(path) - 1);
	path[0] = '/';
	path[MAX_URI_BYTES - 2] = '\0';
	set(t, "PATH_INFO", path);
	set(t, "QUERY_STRING", "a");
	assert_int_equal(rd(t), 0);
	reset(t);
	set(t, "PATH_INFO", path);
	set(t, "QUERY_STRING", "ab");
	assert_int_equal(rd(t), -API_ERR_URI_TOO_LONG);
	reset(t);

	/* A path longer than the limit is cut, not taken whole. */
	path[MAX_URI_BYTES - 2] = 'p';
	set(t, "PATH_INFO", path);
	assert_int_equal(rd(t), -API_ERR_URI_TOO_LONG);
	assert_int_equal(strlen(t->req.path), MAX_URI_BYTES);
}

static void
test_content_length(void **state)
{
	static const struct {
		const char	*clen;
		const char	*body;	/* what the client sends */
		int		 want;
		size_t		 body_len;
	} cases[] = {
		{ NULL, "ignored", 0, 0 },
		{ "", "ignored", 0, 0 },
		{ "0", "ignored", 0, 0 },
		{ "5", "hello", 0, 5 },
		{ "005", "hello", 0, 5 },
		{ "3", "hello", 0, 3 },		/* never past CL */
		{ "10", "hello", -API_ERR_BAD_REQUEST, 0 },
		{ "-1", "hello", -API_ERR_BAD_REQUEST, 0 },
		{ "-0", "", -API_ERR_BAD_REQUEST, 0 },
		{ "+5", "hello", -API_ERR_BAD_REQUEST, 0 },
		{ " 5", "hello", -API_ERR_BAD_REQUEST, 0 },
		{ "5 ", "hello", -API_ERR_BAD_REQUEST, 0 },
		{ "5x", "hello", -API_ERR_BAD_REQUEST, 0 },
		{ "abc", "hello", -API_ERR_BAD_REQUEST, 0 },
		{ "0x10", "hello", -API_ERR_BAD_REQUEST, 0 },
		{ "1048577", "", -API_ERR_TOO_LARGE, 0 },
		{ "2097152", "", -API_ERR_TOO_LARGE, 0 },
		{ "99999999999999999999", "", -API_ERR_TOO_LARGE, 0 },
		{ "000000000000000000000000000005", "hello", 0, 5 },
	};
	struct t *t = *state;
	size_t i;
	int r;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		reset(t);
		set(t, "REQUEST_METHOD", "POST");
		set(t, "PATH_INFO", "/rest/v1/leads.json");
		set(t, "CONTENT_TYPE", "text/plain");
		if (cases[i].clen != NULL)
			set(t, "CONTENT_LENGTH", cases[i].clen);
		t->f.body = cases[i].body;
		t->f.body_len = strlen(cases[i].body);
		t->f.chunk = 2;
		r = rd(t);
		if (r != cases[i].want || t->req.body_len != cases[i].body_len)
			fail_msg("case %zu (CL \"%s\"): r %d len %zu", i,
			    cases[i].clen ? cases[i].clen : "(null)", r,
			    t->req.body_len);
		assert_string_equal(t->req.path, "/rest/v1/leads.json");
		if (r == -API_ERR_TOO_LARGE)
			assert_int_equal(t->f.nreads, 0);
		if (r == 0 && cases[i].body_len > 0) {
			assert_int_equal(t->f.pos, cases[i].body_len);
			assert_memory_equal(t->req.body, cases[i].body,
			    cases[i].body_len);
			assert_int_equal(t->req.body[t->req.body_len], '\0');
			assert_int_equal(t->req.body_kind, BODY_OTHER);
		}
		if (r == 0 && cases[i].body_len == 0)
			assert_int_equal(t->req.body_kind, BODY_NONE);
	}
}

/* Exactly MAX_BODY_BYTES is allowed; a read error is a 400. */
static void
test_body_limits(void **state)
{
	struct t *t = *state;
	char *big;

	big = malloc(MAX_BODY_BYTES);
	assert_non_null(big);
	memset(big, 'b', MAX_BODY_BYTES);
	set(t, "REQUEST_METHOD", "POST");
	set_body(t, "application/octet-stream", big, MAX_BODY_BYTES);
	assert_int_equal(rd(t), 0);
	assert_int_equal(t->req.body_len, MAX_BODY_BYTES);
	assert_int_equal(t->req.body_kind, BODY_OTHER);
	free(big);
	reset(t);

	set(t, "REQUEST_METHOD", "POST");
	set_body(t, "text/plain", "hello", 0);
	t->f.fail = true;
	assert_int_equal(rd(t), -API_ERR_BAD_REQUEST);
	reset(t);

	/* No read callback at all, but a body is announced. */
	t->env.read = NULL;
	set(t, "REQUEST_METHOD", "POST");
	set_body(t, "text/plain", "hello", 0);
	assert_int_equal(rd(t), -API_ERR_BAD_REQUEST);
	t->env.read = fake_read;
}

static void
test_header_limit(void **state)
{
	struct t *t = *state;
	static char h[MAX_HEADER_BYTES + 2];

	memset(h, 'h', sizeof(h) - 1);
	h[MAX_HEADER_BYTES] = '\0';
	set(t, "REQUEST_METHOD", "GET");
	set(t, "PATH_INFO", "/x");
	set(t, "HTTP_AUTHORIZATION", h);
	assert_int_equal(rd(t), 0);
	assert_int_equal(strlen(t->req.authorization), MAX_HEADER_BYTES);
	reset(t);

	h[MAX_HEADER_BYTES] = 'h';
	set(t, "REQUEST_METHOD", "GET");
	set(t, "PATH_INFO", "/x");
	set(t, "HTTP_ACCEPT_ENCODING", h);
	assert_int_equal(rd(t), -API_ERR_BAD_REQUEST);
	assert_string_equal(t->req.path, "/x");
}

/* Query decoding: one case per rule. */
static void
test_query_decoding(void **state)
{
	static const struct {
		const char	*query;
		int		 want;
		size_t		 n;
		const char	*name;	/* of the first param */
		const char	*value;
		size_t		 value_len;
	} cases[] = {
		{ "", 0, 0, NULL, NULL, 0 },
		{ "a=1&b=2", 0, 2, "a", "1", 1 },
		{ "a", 0, 1, "a", "", 0 },
		{ "a=", 0, 1, "a", "", 0 },
		{ "=v", 0, 1, "", "v", 1 },
		{ "&&a=1&&", 0, 1, "a", "1", 1 },
		{ "a=x=y", 0, 1, "a", "x=y", 3 },
		{ "a+b=c+d", 0, 1, "a b", "c d", 3 },
		{ "%61=%41%42", 0, 1, "a", "AB", 2 },
		{ "a=%2B%26%3D", 0, 1, "a", "+&=", 3 },
		{ "a=%G1", 0, 1, "a", "%G1", 3 },
		{ "a=%", 0, 1, "a", "%", 1 },
		{ "a=%4", 0, 1, "a", "%4", 2 },
		{ "a=100%", 0, 1, "a", "100%", 4 },
		{ "a=%e2%82%ac", 0, 1, "a", "\xe2\x82\xac", 3 },
		{ "a=\xc3\xa9", 0, 1, "a", "\xc3\xa9", 2 },
		{ "a=%F0%9F%98%80", 0, 1, "a", "\xf0\x9f\x98\x80", 4 },
		{ "a=%00", -API_ERR_INVALID_VALUE, 0, NULL, NULL, 0 },
		{ "a%00b=1", -API_ERR_INVALID_VALUE, 0, NULL, NULL, 0 },
		{ "a=%FF", -API_ERR_INVALID_VALUE, 0, NULL, NULL, 0 },
		{ "a=\xff", -API_ERR_INVALID_VALUE, 0, NULL, NULL, 0 },
		{ "a=%C0%80", -API_ERR_INVALID_VALUE, 0, NULL, NULL, 0 },
		{ "a=%E0%80%80", -API_ERR_INVALID_VALUE, 0, NULL, NULL, 0 },
		{ "a=%F0%80%80%80", -API_ERR_INVALID_VALUE, 0, NULL, NULL, 0 },
		{ "a=%EF%BF%BF%F4%8F%BF%BF", 0, 1, "a",
		    "\xef\xbf\xbf\xf4\x8f\xbf\xbf", 7 },
		{ "a=%ED%A0%80", -API_ERR_INVALID_VALUE, 0, NULL, NULL, 0 },
		{ "a=%F4%90%80%80", -API_ERR_INVALID_VALUE, 0, NULL, NULL, 0 },
		{ "a=%E2%82", -API_ERR_INVALID_VALUE, 0, NULL, NULL, 0 },
		{ "%80=1", -API_ERR_INVALID_VALUE, 0, NULL, NULL, 0 },
	};
	struct t *t = *state;
	size_t i;
	int r;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		reset(t);
		set(t, "REQUEST_METHOD", "GET");
		set(t, "PATH_INFO", "/x");
		set(t, "QUERY_STRING", cases[i].query);
		r = rd(t);
		if (r != cases[i].want)
			fail_msg("case %zu (%s): r %d", i, cases[i].query, r);
		if (r != 0)
			continue;
		assert_int_equal(t->req.nparams, cases[i].n);
		if (cases[i].n == 0)
			continue;
		assert_string_equal(t->req.params[0].name, cases[i].name);
		assert_int_equal(t->req.params[0].value_len,
		    cases[i].value_len);
		assert_memory_equal(t->req.params[0].value, cases[i].value,
		    cases[i].value_len + 1);
	}
}

/* Builds "p0&p1&..." with n params whose names are name_len long. */
static char *
make_query(size_t n, size_t name_len)
{
	char *q, *p;
	size_t i;

	q = malloc(n * (name_len + 8) + 1);
	assert_non_null(q);
	p = q;
	for (i = 0; i < n; i++) {
		if (i > 0)
			*p++ = '&';
		memset(p, 'n', name_len);
		p += name_len;
		*p++ = '=';
		*p++ = (char)('0' + i % 10);
	}
	*p = '\0';
	return q;
}

static void
test_param_limits(void **state)
{
	struct t *t = *state;
	char *q;

	q = make_query(1, MAX_PARAM_NAME_BYTES);
	set(t, "PATH_INFO", "/x");
	set(t, "QUERY_STRING", q);
	assert_int_equal(rd(t), 0);
	assert_int_equal(strlen(t->req.params[0].name), MAX_PARAM_NAME_BYTES);
	free(q);
	reset(t);

	q = make_query(1, MAX_PARAM_NAME_BYTES + 1);
	set(t, "PATH_INFO", "/x");
	set(t, "QUERY_STRING", q);
	assert_int_equal(rd(t), -API_ERR_INVALID_REQUEST);
	free(q);
	reset(t);

	q = make_query(MAX_PARAMS, 1);
	set(t, "PATH_INFO", "/x");
	set(t, "QUERY_STRING", q);
	assert_int_equal(rd(t), 0);
	assert_int_equal(t->req.nparams, MAX_PARAMS);
	free(q);
	reset(t);

	q = make_query(MAX_PARAMS + 1, 1);
	set(t, "PATH_INFO", "/x");
	set(t, "QUERY_STRING", q);
	assert_int_equal(rd(t), -API_ERR_INVALID_REQUEST);
	free(q);
	reset(t);

	/* Query and form body count together. */
	q = make_query(MAX_PARAMS, 1);
	set(t, "REQUEST_METHOD", "POST");
	set(t, "PATH_INFO", "/x");
	set(t, "QUERY_STRING", "extra=1");
	set_body(t, "application/x-www-form-urlencoded", q, 0);
	assert_int_equal(rd(t), -API_ERR_INVALID_REQUEST);
	free(q);
}

static void
test_form_body(void **state)
{
	struct t *t = *state;
	static const char bad[] = "a=1&b=x\0y";

	set(t, "REQUEST_METHOD", "POST");
	set(t, "PATH_INFO", "/rest/asset/v1/email/1/content.json");
	set(t, "QUERY_STRING", "q=1");
	set_body(t, "Application/X-WWW-Form-Urlencoded ; charset=UTF-8",
	    "subject=Hello+world&fromName=%C3%89mile&empty", 0);
	assert_int_equal(rd(t), 0);
	assert_int_equal(t->req.body_kind, BODY_FORM);
	assert_int_equal(t->req.body_err, 0);
	assert_int_equal(t->req.nparams, 4);
	assert_int_equal(t->req.params[0].src, PARAM_QUERY);
	assert_string_equal(t->req.params[1].name, "subject");
	assert_string_equal(t->req.params[1].value, "Hello world");
	assert_int_equal(t->req.params[1].src, PARAM_FORM);
	assert_string_equal(req_param(&t->req, "fromName"), "\xc3\x89mile");
	assert_string_equal(req_param(&t->req, "empty"), "");
	/* The raw body is kept too. */
	assert_string_equal(t->req.body,
	    "subject=Hello+world&fromName=%C3%89mile&empty");
	reset(t);

	set(t, "REQUEST_METHOD", "POST");
	set_body(t, "application/x-www-form-urlencoded", "a=%E9t%E9", 0);
	assert_int_equal(rd(t), -API_ERR_INVALID_VALUE);
	reset(t);

	/* A raw NUL in the body is as bad as %00. */
	set(t, "REQUEST_METHOD", "POST");
	set_body(t, "application/x-www-form-urlencoded", bad, sizeof(bad) - 1);
	assert_int_equal(rd(t), -API_ERR_INVALID_VALUE);
	reset(t);

	set(t, "REQUEST_METHOD", "POST");
	set_body(t, "application/x-www-form-urlencoded", "a=%00", 0);
	assert_int_equal(rd(t), -API_ERR_INVALID_VALUE);
	reset(t);

	/*
	 * A JSON object under the form type, pretty-printed: its members
	 * are the form's parameters; objects as compact JSON, null as
	 * absent, numbers and booleans as written.
	 */
	set(t, "REQUEST_METHOD", "POST");
	set(t, "QUERY_STRING", "q=1");
	set_body(t, "application/x-www-form-urlencoded",
	    "  {\n  \"name\": \"T\\u00e9\",\n  \"folder\": {\"id\": 4, "
	    "\"type\": \"Folder\"},\n  \"enableMunchkin\": true,\n"
	    "  \"n\": 12, \"gone\": null\n}\n", 0);
	assert_int_equal(rd(t), 0);
	assert_int_equal(t->req.body_kind, BODY_FORM);
	assert_null(t->req.json);
	assert_string_equal(req_param(&t->req, "q"), "1");
	assert_string_equal(req_param(&t->req, "name"), "T\xc3\xa9");
	assert_string_equal(req_param(&t->req, "folder"),
	    "{\"id\":4,\"type\":\"Folder\"}");
	assert_string_equal(req_param(&t->req, "enableMunchkin"), "true");
	assert_string_equal(req_param(&t->req, "n"), "12");
	assert_null(req_param(&t->req, "gone"));
	assert_int_equal(t->req.params[1].src, PARAM_FORM);
	reset(t);

	/* JSON that does not parse: no parameters, and a body error. */
	set(t, "REQUEST_METHOD", "POST");
	set_body(t, "application/x-www-form-urlencoded", "{name=T", 0);
	assert_int_equal(rd(t), 0);
	assert_int_equal(t->req.nparams, 0);
	assert_int_equal(t->req.body_err, -API_ERR_BAD_JSON);
	reset(t);

	/* A JSON array under the form type is kept as the body's JSON. */
	set(t, "REQUEST_METHOD", "POST");
	set_body(t, "application/x-www-form-urlencoded",
	    "[{\"index\":0,\"moduleId\":\"hero\"}]", 0);
	assert_int_equal(rd(t), 0);
	assert_int_equal(t->req.nparams, 0);
	assert_int_equal(t->req.body_err, 0);
	assert_non_null(t->req.json);
	assert_true(json_object_is_type(t->req.json, json_type_array));
	reset(t);

	set(t, "REQUEST_METHOD", "POST");
	set_body(t, "application/x-www-form-urlencoded",
	    "{\"a\": \"x\\u0000y\"}", 0);
	assert_int_equal(rd(t), -API_ERR_INVALID_VALUE);
}

/*
 * request_json_params: an application/json object body's members become
 * parameters after the query's, read as under the form type; an array of
 * scalars is also a list.
 */
static void
test_json_params(void **state)
{
	static const struct {
		const char	*ctype;
		const char	*body;
		size_t		 nparams;
	} none[] = {
		{ "application/json", "[1]", 0 },
		{ "application/json", "null", 0 },
		{ "application/x-www-form-urlencoded", "a=1", 1 },
	};
	struct t *t = *state;
	const char **items;
	size_t i;

	set(t, "REQUEST_METHOD", "POST");
	set(t, "QUERY_STRING", "name=q");
	set_body(t, "application/json", "{\"name\": \"b\", \"description\": "
	    "\"D\", \"folder\": {\"id\": 4}, \"n\": 2, \"none\": null, "
	    "\"ids\": [1, \"a,b\", true], \"mixed\": [1, {}]}", 0);
	assert_int_equal(rd(t), 0);
	assert_int_equal(t->req.nparams, 1);
	assert_int_equal(request_json_params(&t->req), 0);
	assert_int_equal(t->req.nparams, 7);
	assert_string_equal(req_param(&t->req, "name"), "q");
	assert_string_equal(t->req.params[1].name, "name");
	assert_int_equal(t->req.params[1].src, PARAM_JSON);
	assert_string_equal(req_param(&t->req, "description"), "D");
	assert_string_equal(req_param(&t->req, "folder"), "{\"id\":4}");
	assert_string_equal(req_param(&t->req, "n"), "2");
	assert_null(req_param(&t->req, "none"));
	assert_string_equal(req_param(&t->req, "ids"), "[1,\"a,b\",true]");
	assert_int_equal(req_param_list(&t->req, "ids", &items), 3);
	assert_string_equal(items[0], "1");
	assert_string_equal(items[1], "a,b");
	assert_string_equal(items[2], "true");
	assert_null(items[3]);
	/* Not all scalars: the JSON text, split as a form value would be. */
	assert_int_equal(req_param_list(&t->req, "mixed", &items), 2);
	reset(t);

	/* A NUL in a value is refused as in a form. */
	set(t, "REQUEST_METHOD", "POST");
	set_body(t, "application/json", "{\"a\": \"x\\u0000y\"}", 0);
	assert_int_equal(rd(t), 0);
	assert_int_equal(request_json_params(&t->req), -API_ERR_INVALID_VALUE);
	reset(t);

	/* Nothing to add: an array, null, a form body (its own params). */
	for (i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
		reset(t);
		set(t, "REQUEST_METHOD", "POST");
		set_body(t, none[i].ctype, none[i].body, 0);
		assert_int_equal(rd(t), 0);
		assert_int_equal(request_json_params(&t->req), 0);
		assert_int_equal(t->req.nparams, none[i].nparams);
	}
}

/* A JSON body of depth levels of arrays. */
static char *
nested(int depth)
{
	char *s = malloc((size_t)depth * 2 + 1);
	int i;

	assert_non_null(s);
	for (i = 0; i < depth; i++) {
		s[i] = '[';
		s[depth * 2 - 1 - i] = ']';
	}
	s[depth * 2] = '\0';
	return s;
}

static void
test_json_body(void **state)
{
	static const struct {
		const char	*body;
		int		 body_err;
		bool		 has_json;
	} cases[] = {
		{ "{\"input\":[{\"email\":\"a@b.com\"}]}", 0, true },
		{ "[1,2]", 0, true },
		{ "42", 0, true },
		{ "\"x\"", 0, true },
		{ "null", 0, false },
		{ " \t\r\n{\"a\":1} \r\n\t", 0, true },
		{ "{\"a\":\"\xc3\xa9\"}", 0, true },
		{ "{\"a\":\"\\u00e9\\n\"}", 0, true },
		{ "{\"a\":\"x\\\"y\\\\\"}", 0, true },
		{ "{\"a\":1} x", -API_ERR_BAD_JSON, false },
		{ "{\"a\":1}{}", -API_ERR_BAD_JSON, false },
		{ "{\"a\":1},", -API_ERR_BAD_JSON, false },
		{ "{\"a\":", -API_ERR_BAD_JSON, false },
		{ "{\"a\":1,}", -API_ERR_BAD_JSON, false },
		{ "{a:1}", -API_ERR_BAD_JSON, false },
		{ "{'a':1}", -API_ERR_BAD_JSON, false },
		{ "['a']", -API_ERR_BAD_JSON, false },
		{ "[Infinity]", -API_ERR_BAD_JSON, false },
		{ "[-Infinity]", -API_ERR_BAD_JSON, false },
		{ "[NaN]", -API_ERR_BAD_JSON, false },
		{ "[True]", -API_ERR_BAD_JSON, false },
		{ "[\"a\tb\"]", -API_ERR_BAD_JSON, false },
		{ "/*c*/{}", -API_ERR_BAD_JSON, false },
		{ "{\"a\":\"\xff\"}", -API_ERR_BAD_JSON, false },
		{ "{\"a\":\"\xc0\x80\"}", -API_ERR_BAD_JSON, false },
		{ "{\"a\":\"\xed\xa0\x80\"}", -API_ERR_BAD_JSON, false },
		{ "{\"a\":\"\xe2\x82\"}", -API_ERR_BAD_JSON, false },
		{ "   ", -API_ERR_BAD_JSON, false },
		{ "nul", -API_ERR_BAD_JSON, false },
		{ "[1e5, -0.5, 2E-3]", 0, true },
	};
	struct t *t = *state;
	size_t i;
	int r;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		reset(t);
		set(t, "REQUEST_METHOD", "POST");
		set(t, "PATH_INFO", "/rest/v1/leads.json");
		set_body(t, "application/json", cases[i].body, 0);
		r = rd(t);
		if (r != 0 || t->req.body_err != cases[i].body_err ||
		    (t->req.json != NULL) != cases[i].has_json)
			fail_msg("case %zu (%s): r %d body_err %d json %p", i,
			    cases[i].body, r, t->req.body_err,
			    (void *)t->req.json);
		assert_int_equal(t->req.body_kind, BODY_JSON);
	}
}

static void
test_json_details(void **state)
{
	struct t *t = *state;
	static const char nul_after[] = "{\"a\":1}\0";
	char *d;

	/* Depth MAX_JSON_DEPTH is fine, one more is not. */
	d = nested(MAX_JSON_DEPTH);
	set(t, "REQUEST_METHOD", "POST");
	set_body(t, "application/json", d, 0);
	assert_int_equal(rd(t), 0);
	assert_int_equal(t->req.body_err, 0);
	assert_non_null(t->req.json);
	free(d);
	reset(t);

	d = nested(MAX_JSON_DEPTH + 1);
	set(t, "REQUEST_METHOD", "POST");
	set_body(t, "application/json", d, 0);
	assert_int_equal(rd(t), 0);
	assert_int_equal(t->req.body_err, -API_ERR_BAD_JSON);
	assert_null(t->req.json);
	free(d);
	reset(t);

	/* A NUL after the value is a trailing byte, not the end. */
	set(t, "REQUEST_METHOD", "POST");
	set_body(t, "application/json", nul_after, sizeof(nul_after) - 1);
	assert_int_equal(rd(t), 0);
	assert_int_equal(t->req.body_err, -API_ERR_BAD_JSON);
	reset(t);

	/* Media type matching ignores case and parameters. */
	set(t, "REQUEST_METHOD", "POST");
	set_body(t, "APPLICATION/JSON; charset=\"utf-8\"", "{\"x\":[1]}", 0);
	assert_int_equal(rd(t), 0);
	assert_int_equal(t->req.body_kind, BODY_JSON);
	assert_int_equal(json_object_get_type(t->req.json), json_type_object);
	/* request_clear releases the document (ASan checks the leak). */
	request_clear(&t->req);
	assert_null(t->req.json);
	reset(t);

	/* No body: BODY_NONE whatever the type says. */
	set(t, "REQUEST_METHOD", "POST");
	set(t, "CONTENT_TYPE", "application/json");
	set(t, "CONTENT_LENGTH", "0");
	assert_int_equal(rd(t), 0);
	assert_int_equal(t->req.body_kind, BODY_NONE);
	assert_int_equal(t->req.body_err, 0);
	assert_string_equal(t->req.content_type, "application/json");
	reset(t);

	/* Near misses are other bodies. */
	set(t, "REQUEST_METHOD", "POST");
	set_body(t, "application/jsonx", "{}", 0);
	assert_int_equal(rd(t), 0);
	assert_int_equal(t->req.body_kind, BODY_OTHER);
	assert_null(t->req.json);
	reset(t);

	set(t, "REQUEST_METHOD", "POST");
	t->f.body = "{}";
	t->f.body_len = 2;
	set(t, "CONTENT_LENGTH", "2");
	assert_int_equal(rd(t), 0);
	assert_int_equal(t->req.body_kind, BODY_OTHER);
	assert_string_equal(t->req.body, "{}");
}

static void
test_method_override(void **state)
{
	static const struct {
		const char		*method;
		const char		*query;
		const char		*ctype;
		const char		*body;
		enum http_method	 want;
	} cases[] = {
		{ "POST", "_method=GET", NULL, NULL, HTTP_GET },
		{ "POST", "_method=get", NULL, NULL, HTTP_GET },
		{ "POST", "a=1&_method=GeT", NULL, NULL, HTTP_GET },
		{ "POST", "", "application/x-www-form-urlencoded",
		    "_method=GET&filterType=id&filterValues=1,2", HTTP_GET },
		{ "POST", "_method=GET", "application/json", "{\"input\":[]}",
		    HTTP_GET },
		{ "POST", "_method=DELETE", NULL, NULL, HTTP_DELETE },
		{ "POST", "_method=delete", "application/json",
		    "{\"input\":[{\"id\":1}]}", HTTP_DELETE },
		{ "POST", "_method=Put", NULL, NULL, HTTP_PUT },
		{ "POST", "_method=GETX", NULL, NULL, HTTP_OTHER },
		{ "POST", "_method=", NULL, NULL, HTTP_POST },
		{ "POST", "_METHOD=GET", NULL, NULL, HTTP_POST },
		{ "POST", "_method=POST&_method=GET", NULL, NULL, HTTP_POST },
		{ "GET", "_method=POST", NULL, NULL, HTTP_GET },
		{ "PUT", "_method=GET", NULL, NULL, HTTP_PUT },
		{ "POST", "", "multipart/form-data; boundary=b",
		    "--b\r\nContent-Disposition: form-data; name=\"_method\""
		    "\r\n\r\nGET\r\n--b--\r\n", HTTP_POST },
	};
	struct t *t = *state;
	size_t i;
	int r;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		reset(t);
		set(t, "REQUEST_METHOD", cases[i].method);
		set(t, "PATH_INFO", "/rest/v1/leads.json");
		set(t, "QUERY_STRING", cases[i].query);
		if (cases[i].body != NULL)
			set_body(t, cases[i].ctype, cases[i].body, 0);
		r = rd(t);
		if (r != 0 || t->req.method != cases[i].want)
			fail_msg("case %zu: r %d method %d", i, r,
			    (int)t->req.method);
		assert_int_equal(t->req.wire_method,
		    request_method(cases[i].method));
	}
	/* An unknown name is kept for the 605 message. */
	reset(t);
	set(t, "REQUEST_METHOD", "POST");
	set(t, "PATH_INFO", "/rest/v1/leads.json");
	set(t, "QUERY_STRING", "_method=FETCH");
	assert_int_equal(rd(t), 0);
	assert_int_equal(t->req.method, HTTP_OTHER);
	assert_string_equal(t->req.method_name, "FETCH");
}

static void
test_req_param(void **state)
{
	struct t *t = *state;

	set(t, "QUERY_STRING", "a=1&b=2&a=3&B=4");
	assert_int_equal(rd(t), 0);
	assert_string_equal(req_param(&t->req, "a"), "1");
	assert_string_equal(req_param(&t->req, "b"), "2");
	assert_string_equal(req_param(&t->req, "B"), "4");
	assert_null(req_param(&t->req, "c"));
	assert_null(req_param(&t->req, "A"));
	assert_null(req_param(&t->req, NULL));
}

/* Joins n items with '|' into buf. */
static void
join(const char **items, int n, char *buf, size_t size)
{
	size_t len = 0, k, il;
	int i;

	for (i = 0; i < n; i++) {
		il = strlen(items[i]);
		assert_true(len + il + 2 < size);
		if (i > 0)
			buf[len++] = '|';
		for (k = 0; k < il; k++)
			buf[len++] = items[i][k];
	}
	buf[len] = '\0';
}

static void
test_param_list(void **state)
{
	static const struct {
		const char	*query;
		int		 n;
		const char	*joined;	/* items joined by '|' */
	} cases[] = {
		{ "fields=a,b&fields=c", 3, "a|b|c" },
		{ "fields=a", 1, "a" },
		{ "fields=,a,,b,", 2, "a|b" },
		{ "fields=&fields=,,", 0, "" },
		{ "other=a,b", 0, "" },
		{ "fields=a%2Cb&x=1&fields=c%20d", 3, "a|b|c d" },
		{ "Fields=a&fields=b", 1, "b" },
	};
	struct t *t = *state;
	const char **items;
	char joined[256];
	size_t i;
	int n;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		reset(t);
		set(t, "QUERY_STRING", cases[i].query);
		assert_int_equal(rd(t), 0);
		n = req_param_list(&t->req, "fields", &items);
		if (n != cases[i].n)
			fail_msg("case %zu (%s): n %d", i, cases[i].query, n);
		join(items, n, joined, sizeof(joined));
		assert_string_equal(joined, cases[i].joined);
		if (n == 0)
			assert_null(items);
		else
			assert_null(items[n]);
		/* The params are left whole: the same list a second time. */
		assert_int_equal(req_param_list(&t->req, "fields", &items), n);
	}
}

/* "fields=x,x,...": n items in one value. */
static char *
make_list(size_t n)
{
	char *q = malloc(7 + n * 2 + 1), *p;
	size_t i;

	assert_non_null(q);
	memcpy(q, "fields=", 7);
	p = q + 7;
	for (i = 0; i < n; i++) {
		*p++ = 'x';
		*p++ = ',';
	}
	*p = '\0';
	return q;
}

static void
test_param_list_limit(void **state)
{
	struct t *t = *state;
	const char **items;
	char *q;

	q = make_list(MAX_LIST_ITEMS);
	set(t, "QUERY_STRING", q);
	assert_int_equal(rd(t), 0);
	assert_int_equal(req_param_list(&t->req, "fields", &items),
	    MAX_LIST_ITEMS);
	assert_string_equal(items[MAX_LIST_ITEMS - 1], "x");
	free(q);
	reset(t);

	q = make_list(MAX_LIST_ITEMS + 1);
	set(t, "QUERY_STRING", q);
	assert_int_equal(rd(t), 0);
	assert_int_equal(req_param_list(&t->req, "fields", &items),
	    -API_ERR_INVALID_REQUEST);
	assert_null(items);
	free(q);
}

#define MP_FILE \
	"--XyZ\r\n" \
	"Content-Disposition: form-data; name=\"file\"; " \
	    "filename=\"a \\\"b\\\".html\"\r\n" \
	"Content-Type: text/html\r\n" \
	"\r\n" \
	"<p>\r\n--XyZz not a delimiter\0\xff</p>\r\n" \
	"--XyZ\r\n" \
	"content-disposition: FORM-DATA; name=folder\r\n" \
	"\r\n" \
	"{\"id\":12,\"type\":\"Folder\"}\r\n" \
	"--XyZ--\r\n" \
	"epilogue"

static void
test_multipart(void **state)
{
	struct t *t = *state;
	static const char body[] = MP_FILE;
	static const char data[] = "<p>\r\n--XyZz not a delimiter\0\xff</p>";

	set(t, "REQUEST_METHOD", "POST");
	set(t, "PATH_INFO",
	    "/rest/asset/v1/landingPageTemplate/1/content.json");
	set(t, "QUERY_STRING", "q=1");
	set_body(t, "Multipart/Form-Data; charset=utf-8; boundary=\"XyZ\"",
	    body, sizeof(body) - 1);
	assert_int_equal(rd(t), 0);
	assert_int_equal(t->req.body_kind, BODY_MULTIPART);
	assert_int_equal(t->req.body_err, 0);
	assert_int_equal(t->req.nparts, 2);
	assert_string_equal(t->req.parts[0].name, "file");
	assert_string_equal(t->req.parts[0].filename, "a \"b\".html");
	assert_string_equal(t->req.parts[0].content_type, "text/html");
	assert_int_equal(t->req.parts[0].len, sizeof(data) - 1);
	assert_memory_equal(t->req.parts[0].data, data, sizeof(data) - 1);
	assert_string_equal(t->req.parts[1].name, "folder");
	assert_null(t->req.parts[1].filename);
	assert_null(t->req.parts[1].content_type);
	/* The field is a parameter as well; the file is not. */
	assert_int_equal(t->req.nparams, 2);
	assert_int_equal(t->req.params[1].src, PARAM_MULTIPART);
	assert_string_equal(req_param(&t->req, "folder"),
	    "{\"id\":12,\"type\":\"Folder\"}");
	assert_null(req_param(&t->req, "file"));
}

/* The longest boundary RFC 2046 allows: 70 characters. */
#define B70 \
	"0123456789012345678901234567890123456789" \
	"012345678901234567890123456789"

static void
test_multipart_variants(void **state)
{
	static const struct {
		const char	*ctype;
		const char	*body;
		size_t		 nparts;
		const char	*value;		/* of the last part */
	} cases[] = {
		/* Bare LF line ends. */
		{ "multipart/form-data; boundary=b",
		  "--b\nContent-Disposition: form-data; name=\"x\"\n\nv1\n"
		  "--b\nContent-Disposition: form-data; name=\"y\"\n\nv2\n"
		  "--b--\n", 2, "v2" },
		/* A preamble, padding after the boundary, no epilogue. */
		{ "multipart/form-data;boundary=b",
		  "preamble\r\n--b  \r\nContent-Disposition: form-data; "
		  "name=x\r\n\r\nv\r\n--b--", 1, "v" },
		/* An empty value, and no CRLF before the delimiter. */
		{ "multipart/form-data; boundary=b",
		  "--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n"
		  "--b--\r\n", 1, "" },
		{ "multipart/form-data; boundary=b",
		  "--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n"
		  "\r\n--b--\r\n", 1, "" },
		/* An empty form. */
		{ "multipart/form-data; boundary=b", "--b--\r\n", 0, NULL },
		/* The longest boundary RFC 2046 allows. */
		{ "multipart/form-data; boundary=" B70,
		  "--" B70 "\r\nContent-Disposition: form-data; name=\"x\"\r\n"
		  "\r\nv\r\n--" B70 "--\r\n", 1, "v" },
		/* A quoted boundary with a ';' in it. */
		{ "multipart/form-data; boundary=\"a;b\"",
		  "--a;b\r\nContent-Disposition: form-data; name=\"n;m\"\r\n"
		  "\r\nv\r\n--a;b--\r\n", 1, "v" },
		/* No boundary parameter: the first line names it. */
		{ "multipart/form-data",
		  "--xyz\r\nContent-Disposition: form-data; name=\"content\""
		  "\r\n\r\n<p>v</p>\r\n--xyz--\r\n", 1, "<p>v</p>" },
		{ "multipart/form-data; charset=UTF-8",
		  "--q\nContent-Disposition: form-data; name=\"x\"\n\nw\n--q--\n",
		  1, "w" },
	};
	struct t *t = *state;
	size_t i;
	int r;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		reset(t);
		set(t, "REQUEST_METHOD", "POST");
		set_body(t, cases[i].ctype, cases[i].body, 0);
		r = rd(t);
		if (r != 0 || t->req.body_err != 0 ||
		    t->req.nparts != cases[i].nparts)
			fail_msg("case %zu: r %d body_err %d nparts %zu", i,
			    r, t->req.body_err, t->req.nparts);
		if (cases[i].value != NULL)
			assert_string_equal(
			    t->req.params[t->req.nparams - 1].value,
			    cases[i].value);
	}
}

static void
test_multipart_broken(void **state)
{
	static const struct {
		const char	*ctype;
		const char	*body;
	} cases[] = {
		/* No boundary parameter, and a first line that names none. */
		{ "multipart/form-data",
		  "Content-Disposition: form-data; name=\"x\"\r\n\r\n"
		  "v\r\n--b--\r\n" },
		{ "multipart/form-data", "--\r\nv\r\n" },
		{ "multipart/form-data; boundary=",
		  "--\r\n" },
		{ "multipart/form-data; boundary=\"b",
		  "--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n"
		  "v\r\n--b--\r\n" },
		{ "multipart/form-data; boundary=" B70 "x",
		  "--" B70 "x--\r\n" },
		/* Missing closing delimiter. */
		{ "multipart/form-data; boundary=b",
		  "--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n"
		  "v\r\n" },
		/* A good field, then the body ends without a delimiter. */
		{ "multipart/form-data; boundary=b",
		  "--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n"
		  "v\r\n--b\r\nContent-Disposition: form-data; name=\"y\"\r\n"
		  "\r\nw\r\n" },
		/* Part without a name. */
		{ "multipart/form-data; boundary=b",
		  "--b\r\nContent-Disposition: form-data; filename=\"f\"\r\n"
		  "\r\nv\r\n--b--\r\n" },
		{ "multipart/form-data; boundary=b",
		  "--b\r\nContent-Disposition: form-data; name=\"\"\r\n"
		  "\r\nv\r\n--b--\r\n" },
		/* No Content-Disposition at all. */
		{ "multipart/form-data; boundary=b",
		  "--b\r\nContent-Type: text/plain\r\n\r\nv\r\n--b--\r\n" },
		/* Not form-data. */
		{ "multipart/form-data; boundary=b",
		  "--b\r\nContent-Disposition: attachment; name=\"x\"\r\n"
		  "\r\nv\r\n--b--\r\n" },
		/* Headers never end. */
		{ "multipart/form-data; boundary=b",
		  "--b\r\nContent-Disposition: form-data; name=\"x\"\r\n"
		  "--b--\r\n" },
		/* A header line without a colon. */
		{ "multipart/form-data; boundary=b",
		  "--b\r\nContent-Disposition form-data\r\n\r\nv\r\n"
		  "--b--\r\n" },
		/* Unterminated quoted name. */
		{ "multipart/form-data; boundary=b",
		  "--b\r\nContent-Disposition: form-data; name=\"x\r\n\r\n"
		  "v\r\n--b--\r\n" },
		/* No delimiter at all. */
		{ "multipart/form-data; boundary=b", "just text" },
		/* Wrong boundary. */
		{ "multipart/form-data; boundary=c",
		  "--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n"
		  "v\r\n--b--\r\n" },
		/* Delimiters followed by junk on their line. */
		{ "multipart/form-data; boundary=b",
		  "--b junk\r\nContent-Disposition: form-data; name=\"x\"\r\n"
		  "\r\nv\r\n--b-junk\r\n" },
	};
	struct t *t = *state;
	size_t i;
	int r;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		reset(t);
		set(t, "REQUEST_METHOD", "POST");
		set(t, "QUERY_STRING", "q=1");
		set_body(t, cases[i].ctype, cases[i].body, 0);
		r = rd(t);
		if (r != 0 || t->req.body_err != -API_ERR_MULTIPART)
			fail_msg("case %zu: r %d body_err %d", i, r,
			    t->req.body_err);
		assert_int_equal(t->req.body_kind, BODY_MULTIPART);
		assert_int_equal(t->req.nparts, 0);
		assert_null(t->req.parts);
		/* Only the query remains. */
		assert_int_equal(t->req.nparams, 1);
		assert_string_equal(t->req.params[0].name, "q");
	}
}

static void
test_multipart_limits(void **state)
{
	struct t *t = *state;
	static const char part[] =
	    "--b\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\nv\r\n";
	static const char bad_utf8[] =
	    "--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n"
	    "\xc3\x28\r\n--b--\r\n";
	static const char nul_value[] =
	    "--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n"
	    "a\0b\r\n--b--\r\n";
	static const char dup_name[] =
	    "--b\r\nContent-Disposition: form-data; name=\"a\"; "
	    "name=\"b\"\r\n\r\nv\r\n--b--\r\n";
	static const char long_hdr[] =
	    "--b\r\nContent-Disposition: form-data; name=\"x\"\r\nX-Long: ";
	static const char three_fields[] =
	    "--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n1\r\n"
	    "--b\r\nContent-Disposition: form-data; name=\"y\"\r\n\r\n2\r\n"
	    "--b\r\nContent-Disposition: form-data; name=\"z\"\r\n\r\n3\r\n"
	    "--b--\r\n";
	char *body, *hdr, *q;
	size_t i, n, len;

	for (n = MAX_MULTIPART_PARTS; n <= MAX_MULTIPART_PARTS + 1; n++) {
		reset(t);
		len = n * (sizeof(part) - 1) + 8;
		body = malloc(len);
		assert_non_null(body);
		for (i = 0; i < n; i++)
			memcpy(body + i * (sizeof(part) - 1), part,
			    sizeof(part) - 1);
		memcpy(body + n * (sizeof(part) - 1), "--b--\r\n", 8);
		set(t, "REQUEST_METHOD", "POST");
		set_body(t, "multipart/form-data; boundary=b", body, len - 1);
		assert_int_equal(rd(t), 0);
		if (n == MAX_MULTIPART_PARTS) {
			assert_int_equal(t->req.body_err, 0);
			assert_int_equal(t->req.nparts, n);
		} else
			assert_int_equal(t->req.body_err, -API_ERR_MULTIPART);
		free(body);
	}
	reset(t);

	/* Field text follows the rules of the query. */
	set(t, "REQUEST_METHOD", "POST");
	set_body(t, "multipart/form-data; boundary=b", bad_utf8, 0);
	assert_int_equal(rd(t), -API_ERR_INVALID_VALUE);
	reset(t);

	set(t, "REQUEST_METHOD", "POST");
	set_body(t, "multipart/form-data; boundary=b", nul_value,
	    sizeof(nul_value) - 1);
	assert_int_equal(rd(t), -API_ERR_INVALID_VALUE);
	reset(t);

	/* The first of two names counts. */
	set(t, "REQUEST_METHOD", "POST");
	set_body(t, "multipart/form-data; boundary=b", dup_name, 0);
	assert_int_equal(rd(t), 0);
	assert_int_equal(t->req.nparts, 1);
	assert_string_equal(t->req.parts[0].name, "a");
	reset(t);

	/* A part header line is bounded like a request header. */
	hdr = malloc(MAX_HEADER_BYTES + 128);
	assert_non_null(hdr);
	memcpy(hdr, long_hdr, sizeof(long_hdr) - 1);
	len = sizeof(long_hdr) - 1;
	memset(hdr + len, 'x', MAX_HEADER_BYTES);
	len += MAX_HEADER_BYTES;
	memcpy(hdr + len, "\r\n\r\nv\r\n--b--\r\n", 14);
	len += 14;
	set(t, "REQUEST_METHOD", "POST");
	set_body(t, "multipart/form-data; boundary=b", hdr, len);
	assert_int_equal(rd(t), 0);
	assert_int_equal(t->req.body_err, -API_ERR_MULTIPART);
	free(hdr);
	reset(t);

	/* Fields count with the query towards MAX_PARAMS. */
	q = make_query(MAX_PARAMS - 2, 1);
	set(t, "REQUEST_METHOD", "POST");
	set(t, "QUERY_STRING", q);
	set_body(t, "multipart/form-data; boundary=b", three_fields, 0);
	assert_int_equal(rd(t), -API_ERR_INVALID_REQUEST);
	free(q);
	reset(t);

	/* Empty body: no multipart parsing at all. */
	set(t, "REQUEST_METHOD", "POST");
	set(t, "CONTENT_TYPE", "multipart/form-data");
	assert_int_equal(rd(t), 0);
	assert_int_equal(t->req.body_kind, BODY_NONE);
	assert_int_equal(t->req.body_err, 0);
}

/* FCGX_GetParam() as libfcgi has it: the first "name=" entry wins. */
static const char *
ref_getparam(const char *name, const char *const *envp)
{
	size_t len = strlen(name);

	for (; envp != NULL && *envp != NULL; envp++)
		if (strncmp(name, *envp, len) == 0 && (*envp)[len] == '=')
			return *envp + len + 1;
	return NULL;
}

/* The names of enum req_var, in its order. */
static const char *const var_names[REQ_VAR__MAX] = {
	"REQUEST_METHOD", "PATH_INFO", "DOCUMENT_URI", "QUERY_STRING",
	"REQUEST_URI", "CONTENT_LENGTH", "CONTENT_TYPE", "HTTP_AUTHORIZATION",
	"HTTP_ACCEPT_ENCODING", "HTTP_RANGE", "HTTP_X_MAUTO_FAULT",
	"HTTP_X_APP_TYPE", "REMOTE_ADDR",
};

/* Each variable as FCGX_GetParam would find it in envp. */
static void
check_vars(const char *const *envp)
{
	const char *vars[REQ_VAR__MAX];
	int v;

	memset(vars, 0x5a, sizeof(vars));
	request_vars_fill(vars, envp);
	for (v = 0; v < REQ_VAR__MAX; v++)
		assert_ptr_equal(vars[v], ref_getparam(var_names[v], envp));
}

/*
 * One pass over the FastCGI parameters finds what one FCGX_GetParam()
 * per name would: absent is NULL, empty is "", the first of two entries
 * wins, and a longer, shorter or '='-less name matches nothing.
 */
static void
test_vars_fill(void **state)
{
	const char *none[] = { NULL };
	const char *one[] = { "REQUEST_METHOD=GET", NULL };
	const char *mixed[] = {
		"SCRIPT_NAME=/x", "QUERY_STRING=", "PATH_INFO_X=no",
		"PATH_INF=no", "HTTP_RANGEX=no", "HTTP_RANG=no", "=orphan",
		"REMOTE_ADDR", "CONTENT_TYPE=a=b", "PATH_INFO=/first",
		"HTTP_AUTHORIZATION=Bearer x", "PATH_INFO=/second",
		"QUERY_STRING=late", "REQUEST_METHOD=POST",
		"REMOTE_ADDR=127.0.0.1", "HTTP_X_MAUTO_FAULT=", "", "R=1",
		"REQUEST_METHOD=GET", NULL
	};
	const char *vars[REQ_VAR__MAX];
	int v;

	(void)state;
	check_vars(NULL);
	check_vars(none);
	check_vars(one);
	check_vars(mixed);
	request_vars_fill(vars, mixed);
	assert_string_equal(vars[REQ_VAR_QUERY_STRING], "");
	assert_ptr_equal(vars[REQ_VAR_QUERY_STRING], mixed[1] + 13);
	assert_string_equal(vars[REQ_VAR_PATH_INFO], "/first");
	assert_string_equal(vars[REQ_VAR_CONTENT_TYPE], "a=b");
	assert_string_equal(vars[REQ_VAR_REQUEST_METHOD], "POST");
	assert_string_equal(vars[REQ_VAR_REMOTE_ADDR], "127.0.0.1");
	assert_string_equal(vars[REQ_VAR_HTTP_X_MAUTO_FAULT], "");
	assert_null(vars[REQ_VAR_HTTP_RANGE]);
	assert_null(vars[REQ_VAR_DOCUMENT_URI]);
	/* Every name alone, empty and not. */
	for (v = 0; v < REQ_VAR__MAX; v++) {
		char a[64], b[64];
		const char *envp[] = { a, b, NULL };

		snprintf(a, sizeof(a), "%s=", var_names[v]);
		snprintf(b, sizeof(b), "%s=v", var_names[v]);
		request_vars_fill(vars, envp);
		assert_ptr_equal(vars[v], a + strlen(a));
		check_vars(envp);
		check_vars(envp + 1);
	}
}

static const char *
never_getparam(void *ctx, const char *name)
{
	(void)ctx;
	(void)name;
	fail_msg("getparam called beside a variable table");
	return NULL;
}

/* With a variable table the request reads from it alone. */
static void
test_vars_request(void **state)
{
	struct t *t = *state;
	const char *envp[] = {
		"REQUEST_METHOD=POST", "DOCUMENT_URI=/rest/v1/leads.json",
		"QUERY_STRING=_method=GET&a=1", "HTTP_AUTHORIZATION=",
		"CONTENT_TYPE=application/x-www-form-urlencoded",
		"CONTENT_LENGTH=3", "REQUEST_METHOD=PUT", "REMOTE_ADDR=::1",
		NULL
	};
	const char *vars[REQ_VAR__MAX];

	request_vars_fill(vars, envp);
	t->f.body = "b=2";
	t->f.body_len = 3;
	t->env.getparam = never_getparam;
	t->env.vars = vars;
	assert_int_equal(rd(t), 0);
	assert_int_equal(t->req.wire_method, HTTP_POST);
	assert_int_equal(t->req.method, HTTP_GET);
	assert_string_equal(t->req.path, "/rest/v1/leads.json");
	assert_string_equal(t->req.authorization, "");
	assert_null(t->req.range);
	assert_string_equal(t->req.remote_addr, "::1");
	assert_string_equal(req_param(&t->req, "a"), "1");
	assert_string_equal(req_param(&t->req, "b"), "2");
	reset(t);

	/* Nothing at all: a request with no method and an empty path. */
	request_vars_fill(vars, NULL);
	assert_int_equal(rd(t), 0);
	assert_int_equal(t->req.method, HTTP_OTHER);
	assert_string_equal(t->req.method_name, "");
	assert_string_equal(t->req.path, "");
	assert_null(t->req.authorization);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_get_basic, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_get_no_malloc, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_path_fallback, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_methods, setup, teardown),
		cmocka_unit_test_setup_teardown(test_uri_length, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_content_length, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_body_limits, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_header_limit, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_query_decoding, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_param_limits, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_form_body, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_json_params, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_json_body, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_json_details, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_method_override, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_req_param, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_param_list, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_param_list_limit, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_multipart, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_multipart_variants, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_multipart_broken, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_multipart_limits, setup,
		    teardown),
		cmocka_unit_test(test_vars_fill),
		cmocka_unit_test_setup_teardown(test_vars_request, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
