/*
 * The validation edge (docs/style.md §6): CGI variables (RFC 3875 §4.1) and the
 * body become a typed struct req.  Everything is bounded by bounds.h and
 * every string that outlives the FastCGI request is copied into the arena.
 *
 * A GET with a short query costs a handful of bump allocations: the path,
 * the query, the headers we keep, one params array and one buffer that
 * holds every decoded name and value.
 */
#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <json-c/json.h>

#include "bounds.h"
#include "err.h"
#include "http/request.h"
#include "util/arena.h"
#include "util/log.h"
#include "util/num.h"

/* RFC 2046 §5.1.1: a boundary is 1 to 70 characters (protocol, not a limit). */
#define BOUNDARY_MAX_CHARS	70

/* What request_read carries between its steps. */
struct rctx {
	struct req		*req;
	struct arena		*a;
	const struct req_env	*env;
	size_t			 path_len;	/* as sent, capped at MAX+1 */
	size_t			 query_len;
	size_t			 param_cap;	/* slots in req->params */
};

/* A multipart body being split (RFC 2046 §5.1.1, RFC 7578). */
struct mp {
	const char	*b;		/* boundary */
	size_t		 blen;
	const char	*end;		/* end of the body */
};

static const char *const method_names[HTTP__MAX] = {
	[HTTP_GET] =		"GET",
	[HTTP_POST] =		"POST",
	[HTTP_DELETE] =		"DELETE",
	[HTTP_PUT] =		"PUT",
	[HTTP_PATCH] =		"PATCH",
	[HTTP_HEAD] =		"HEAD",
	[HTTP_OPTIONS] =	"OPTIONS",
	[HTTP_OTHER] =		"OTHER",
};

static_assert(sizeof(method_names) / sizeof(method_names[0]) == HTTP__MAX,
    "one name per method");

/* A CGI variable's name and its length. */
struct var_name {
	const char	*s;
	size_t		 len;
};

#define VAR_NAME(lit)	{ (lit), sizeof(lit) - 1 }

static const struct var_name var_names[REQ_VAR__MAX] = {
	[REQ_VAR_REQUEST_METHOD] =	VAR_NAME("REQUEST_METHOD"),
	[REQ_VAR_PATH_INFO] =		VAR_NAME("PATH_INFO"),
	[REQ_VAR_DOCUMENT_URI] =	VAR_NAME("DOCUMENT_URI"),
	[REQ_VAR_QUERY_STRING] =	VAR_NAME("QUERY_STRING"),
	[REQ_VAR_REQUEST_URI] =		VAR_NAME("REQUEST_URI"),
	[REQ_VAR_CONTENT_LENGTH] =	VAR_NAME("CONTENT_LENGTH"),
	[REQ_VAR_CONTENT_TYPE] =	VAR_NAME("CONTENT_TYPE"),
	[REQ_VAR_HTTP_AUTHORIZATION] =	VAR_NAME("HTTP_AUTHORIZATION"),
	[REQ_VAR_HTTP_ACCEPT_ENCODING] = VAR_NAME("HTTP_ACCEPT_ENCODING"),
	[REQ_VAR_HTTP_RANGE] =		VAR_NAME("HTTP_RANGE"),
	[REQ_VAR_HTTP_X_MAUTO_FAULT] =	VAR_NAME("HTTP_X_MAUTO_FAULT"),
	[REQ_VAR_HTTP_X_APP_TYPE] =	VAR_NAME("HTTP_X_APP_TYPE"),
	[REQ_VAR_REMOTE_ADDR] =		VAR_NAME("REMOTE_ADDR"),
};

static_assert(sizeof(var_names) / sizeof(var_names[0]) == REQ_VAR__MAX,
    "one name per variable");

/* ASCII only: the request is not interpreted in any locale. */
static int
lower(int ch)
{
	return ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch;
}

static bool
is_digit(int ch)
{
	return ch >= '0' && ch <= '9';
}

static bool
is_alpha(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

static bool
is_ows(int ch)
{
	return ch == ' ' || ch == '\t';
}

static int
hexval(int ch)
{
	if (is_digit(ch))
		return ch - '0';
	ch = lower(ch);
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

/* Whether the n bytes at s equal the string lit, ignoring ASCII case. */
static bool
ci_eq(const char *s, size_t n, const char *lit)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (lit[i] == '\0' || lower((unsigned char)s[i]) !=
		    lower((unsigned char)lit[i]))
			return false;
	return lit[n] == '\0';
}

/* Trims optional white space from both ends of [*s, *s + *n). */
static void
trim_ows(const char **s, size_t *n)
{
	while (*n > 0 && is_ows((unsigned char)**s)) {
		(*s)++;
		(*n)--;
	}
	while (*n > 0 && is_ows((unsigned char)(*s)[*n - 1]))
		(*n)--;
}

/*
 * Strict UTF-8 (RFC 3629 §4): no overlong forms, no surrogates, nothing
 * past U+10FFFF.
 */
static bool
utf8_valid(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, k, len;
	unsigned char lo, hi;

	while (i < n) {
		if (s[i] < 0x80) {
			i++;
			continue;
		}
		lo = 0x80;
		hi = 0xbf;
		if (s[i] >= 0xc2 && s[i] <= 0xdf)
			len = 2;
		else if (s[i] >= 0xe0 && s[i] <= 0xef) {
			len = 3;
			if (s[i] == 0xe0)
				lo = 0xa0;
			else if (s[i] == 0xed)
				hi = 0x9f;
		} else if (s[i] >= 0xf0 && s[i] <= 0xf4) {
			len = 4;
			if (s[i] == 0xf0)
				lo = 0x90;
			else if (s[i] == 0xf4)
				hi = 0x8f;
		} else
			return false;
		if (n - i < len || s[i + 1] < lo || s[i + 1] > hi)
			return false;
		for (k = 2; k < len; k++)
			if (s[i + k] < 0x80 || s[i + k] > 0xbf)
				return false;
		i += len;
	}
	return true;
}

/* A decoded name or value: no NUL (docs/style.md §6), valid UTF-8. */
static bool
is_clean_text(const char *s, size_t n)
{
	return memchr(s, '\0', n) == NULL && utf8_valid(s, n);
}

/* strlen that stops at max (strnlen is POSIX, not C11). */
static size_t
len_max(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n] != '\0')
		n++;
	return n;
}

static const char *
env_get(const struct req_env *env, enum req_var v)
{
	if (env == NULL)
		return NULL;
	if (env->vars != NULL)
		return env->vars[v];
	if (env->getparam == NULL)
		return NULL;
	return env->getparam(env->ctx, var_names[v].s);
}

void
request_vars_fill(const char *vars[REQ_VAR__MAX],
    const char *const *envp)
{
	const char *e, *eq;
	size_t len;
	int v;

	for (v = 0; v < REQ_VAR__MAX; v++)
		vars[v] = NULL;
	/*
	 * The name of an entry ends at its first '=': FCGX_GetParam(name)
	 * matches an entry that starts with name and '=', and none of our
	 * names holds a '='.
	 */
	for (; envp != NULL && *envp != NULL; envp++) {
		e = *envp;
		if ((eq = strchr(e, '=')) == NULL)
			continue;
		len = (size_t)(eq - e);
		for (v = 0; v < REQ_VAR__MAX; v++) {
			if (var_names[v].len == len && vars[v] == NULL &&
			    memcmp(var_names[v].s, e, len) == 0) {
				vars[v] = eq + 1;
				break;
			}
		}
	}
}

/*
 * Decodes n bytes of application/x-www-form-urlencoded text into dst
 * (which has room for n bytes): '+' is a space, %XX a byte, and a
 * malformed escape stays as it is, as browsers do.  Returns the length.
 */
static size_t
url_decode(char *dst, const char *src, size_t n)
{
	size_t i, o = 0;
	int h, l;

	for (i = 0; i < n; i++) {
		if (src[i] == '+')
			dst[o++] = ' ';
		else if (src[i] == '%' && n - i > 2 &&
		    (h = hexval((unsigned char)src[i + 1])) >= 0 &&
		    (l = hexval((unsigned char)src[i + 2])) >= 0) {
			dst[o++] = (char)(h * 16 + l);
			i += 2;
		} else
			dst[o++] = src[i];
	}
	return o;
}

/* Counts the non-empty '&'-separated pieces of s, stopping past max. */
static size_t
count_pairs(const char *s, size_t n, size_t max)
{
	size_t i, count = 0;
	bool in_piece = false;

	for (i = 0; i < n && count <= max; i++) {
		if (s[i] == '&')
			in_piece = false;
		else if (!in_piece) {
			in_piece = true;
			count++;
		}
	}
	return count;
}

static int
add_param(struct rctx *c, const char *name, const char *value, size_t vlen,
    enum param_src src)
{
	struct req *req = c->req;
	struct param *p;
	int r = -API_ERR_INVALID_REQUEST;

	if (req->nparams >= MAX_PARAMS)
		goto out;
	r = -API_ERR_SYSTEM;
	if (req->nparams >= c->param_cap)
		goto out;
	p = &req->params[req->nparams++];
	p->name = name;
	p->value = value;
	p->value_len = vlen;
	p->src = src;
	p->items = NULL;
	p->nitems = 0;
	r = 0;
out:
	return r;
}

/*
 * Decodes one name[=value] piece into *out, which advances past what was
 * written (at most len + 1 bytes), and adds it as a parameter.
 */
static int
add_pair(struct rctx *c, const char *p, size_t len, enum param_src src,
    char **out)
{
	const char *eq;
	char *name, *value;
	size_t nlen, vlen = 0;
	int r;

	eq = memchr(p, '=', len);
	name = *out;
	nlen = url_decode(name, p, eq == NULL ? len : (size_t)(eq - p));
	name[nlen] = '\0';
	value = name + nlen;		/* "" unless there is an '=' */
	if (eq != NULL) {
		value = name + nlen + 1;
		vlen = url_decode(value, eq + 1, len - (size_t)(eq - p) - 1);
		value[vlen] = '\0';
		*out = value + vlen + 1;
	} else
		*out = name + nlen + 1;
	if (nlen > MAX_PARAM_NAME_BYTES)
		r = -API_ERR_INVALID_REQUEST;
	else if (!is_clean_text(name, nlen) || !is_clean_text(value, vlen))
		r = -API_ERR_INVALID_VALUE;
	else
		r = add_param(c, name, value, vlen, src);
	return r;
}

/* Splits a query string or urlencoded body into parameters. */
static int
parse_urlencoded(struct rctx *c, const char *s, size_t n, enum param_src src)
{
	const char *p, *amp, *end = s + n;
	char *out;
	int r = 0;

	if (n == 0)
		goto out;
	/* Each piece of length k decodes into at most k + 1 bytes. */
	if ((out = arena_alloc(c->a, n + 1)) == NULL) {
		r = -API_ERR_SYSTEM;
		goto out;
	}
	for (p = s; p < end && r == 0; p = amp + 1) {
		if ((amp = memchr(p, '&', (size_t)(end - p))) == NULL)
			amp = end;
		if (amp > p)
			r = add_pair(c, p, (size_t)(amp - p), src, &out);
	}
out:
	return r;
}

/*
 * Scans a quoted-string (RFC 9110 §5.6.4) whose opening quote is at p[-1].
 * A backslash escapes only '"' and '\\'; elsewhere it is kept, because
 * browsers send Windows file names unescaped.  Writes the content to dst
 * when dst is not NULL and sets *len.  Returns the position after the
 * closing quote, or NULL when there is none.
 */
static const char *
qstr_scan(const char *p, const char *end, char *dst, size_t *len)
{
	size_t o = 0;

	for (; p < end && *p != '"'; p++) {
		if (*p == '\\' && end - p > 1 && (p[1] == '"' || p[1] == '\\'))
			p++;
		if (dst != NULL)
			dst[o] = *p;
		o++;
	}
	*len = o;
	return p < end ? p + 1 : NULL;
}

/* Takes the quoted value after a '"' at (*pp)[-1]; copies it when copy. */
static int
hp_quoted(struct arena *a, const char **pp, const char *end, bool copy,
    char **out, size_t *olen)
{
	const char *v = *pp, *p;
	size_t vlen;
	int r = -API_ERR_MULTIPART;

	if ((p = qstr_scan(v, end, NULL, &vlen)) == NULL)
		goto out;
	r = -API_ERR_SYSTEM;
	if (copy) {
		if ((*out = arena_alloc(a, vlen + 1)) == NULL)
			goto out;
		(void)qstr_scan(v, end, *out, &vlen);
		(*out)[vlen] = '\0';
		*olen = vlen;
	}
	*pp = p;
	r = 0;
out:
	return r;
}

/* Takes a token value at *pp, up to the next ';'; copies it when copy. */
static int
hp_token(struct arena *a, const char **pp, const char *end, bool copy,
    char **out, size_t *olen)
{
	const char *v = *pp, *p;
	size_t vlen;
	int r = 0;

	for (p = v; p < end && *p != ';'; p++)
		continue;
	*pp = p;
	vlen = (size_t)(p - v);
	trim_ows(&v, &vlen);
	if (copy) {
		if ((*out = arena_strndup(a, v, vlen)) == NULL)
			r = -API_ERR_SYSTEM;
		*olen = vlen;
	}
	return r;
}

/*
 * Finds parameter want in a header value "type; a=b; c=\"d\"" (RFC 9110
 * §5.6.6).  Sets *out to an arena copy, without quotes, of its first
 * occurrence, or NULL when absent; *olen to its length.  Parameters
 * without '=' are ignored.  Returns 0, -API_ERR_MULTIPART for an
 * unterminated quoted string, or -API_ERR_SYSTEM.
 */
static int
hdr_param(struct arena *a, const char *s, size_t n, const char *want,
    char **out, size_t *olen)
{
	const char *p, *end = s + n, *name;
	size_t nlen;
	bool match;
	int r = 0;

	*out = NULL;
	*olen = 0;
	if ((p = memchr(s, ';', n)) == NULL)
		goto out;
	while (p < end && r == 0) {
		while (p < end && (*p == ';' || is_ows((unsigned char)*p)))
			p++;
		for (name = p; p < end && *p != '=' && *p != ';'; p++)
			continue;
		if (p == end || *p == ';')
			continue;
		nlen = (size_t)(p - name);
		trim_ows(&name, &nlen);
		match = ci_eq(name, nlen, want) && *out == NULL;
		for (p++; p < end && is_ows((unsigned char)*p); p++)
			continue;
		if (p < end && *p == '"') {
			p++;
			r = hp_quoted(a, &p, end, match, out, olen);
			while (r == 0 && p < end && *p != ';')
				p++;
		} else
			r = hp_token(a, &p, end, match, out, olen);
	}
out:
	return r;
}

/*
 * The boundary a multipart body's first line names ("--" boundary CRLF),
 * in the arena, or NULL.
 */
static char *
sniff_boundary(struct rctx *c, size_t *blen)
{
	const char *b = c->req->body, *nl;
	size_t n = c->req->body_len, i;

	*blen = 0;
	if (n < 3 || b[0] != '-' || b[1] != '-' ||
	    (nl = memchr(b, '\n', n < BOUNDARY_MAX_CHARS + 4 ? n :
	    BOUNDARY_MAX_CHARS + 4)) == NULL)
		return NULL;
	i = (size_t)(nl - b);
	if (i > 0 && b[i - 1] == '\r')
		i--;
	if (i <= 2)
		return NULL;
	*blen = i - 2;
	return arena_strndup(c->a, b + 2, *blen);
}

/*
 * Whether a delimiter line starts at p: "--" boundary, then "--" for the
 * close delimiter, or transport padding and a line end (CRLF, or a bare
 * LF, tolerated).  Sets *next past it and *close.
 */
static bool
mp_delim_at(const struct mp *m, const char *p, const char **next, bool *close)
{
	if ((size_t)(m->end - p) < 2 + m->blen || p[0] != '-' || p[1] != '-' ||
	    memcmp(p + 2, m->b, m->blen) != 0)
		return false;
	p += 2 + m->blen;
	if (m->end - p >= 2 && p[0] == '-' && p[1] == '-') {
		*close = true;
		*next = m->end;
		return true;
	}
	while (p < m->end && is_ows((unsigned char)*p))
		p++;
	if (p < m->end && *p == '\r')
		p++;
	if (p == m->end || *p != '\n')
		return false;
	*close = false;
	*next = p + 1;
	return true;
}

/*
 * Finds the next delimiter line after a line end at or after from.  The
 * line end before it belongs to the delimiter, so the data of the part
 * that began at start ends at *data_end.
 */
static bool
mp_find(const struct mp *m, const char *from, const char *start,
    const char **data_end, const char **next, bool *close)
{
	const char *nl, *p;

	for (p = from; p < m->end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(m->end - p))) == NULL)
			break;
		if (mp_delim_at(m, nl + 1, next, close)) {
			if (nl > start && nl[-1] == '\r')
				nl--;
			*data_end = nl > start ? nl : start;
			return true;
		}
	}
	return false;
}

/* Content-Disposition: form-data; name="x"[; filename="y"] (RFC 7578 §4.2). */
static int
mp_disposition(struct rctx *c, const char *v, size_t n, struct part *pt)
{
	const char *semi;
	char *name = NULL, *file = NULL;
	size_t tlen, nlen, flen;
	int r;

	semi = memchr(v, ';', n);
	tlen = semi == NULL ? n : (size_t)(semi - v);
	trim_ows(&v, &tlen);
	if (!ci_eq(v, tlen, "form-data")) {
		r = -API_ERR_MULTIPART;
		goto out;
	}
	if ((r = hdr_param(c->a, v, n, "name", &name, &nlen)) != 0 ||
	    (r = hdr_param(c->a, v, n, "filename", &file, &flen)) != 0)
		goto out;
	r = -API_ERR_MULTIPART;
	if (name == NULL || nlen == 0)
		goto out;
	r = -API_ERR_INVALID_REQUEST;
	if (nlen > MAX_PARAM_NAME_BYTES)
		goto out;
	r = -API_ERR_INVALID_VALUE;
	if (!is_clean_text(name, nlen) ||
	    (file != NULL && !is_clean_text(file, flen)))
		goto out;
	pt->name = name;
	pt->filename = file;
	r = 0;
out:
	return r;
}

/*
 * Reads the header lines of a part starting at *pp up to the empty line,
 * and leaves *pp after it.
 */
static int
mp_headers(struct rctx *c, const struct mp *m, const char **pp,
    struct part *pt)
{
	const char *p = *pp, *nl, *colon, *v;
	size_t len, nlen, vlen;
	int r = -API_ERR_MULTIPART;

	for (;;) {
		if ((nl = memchr(p, '\n', (size_t)(m->end - p))) == NULL)
			goto out;
		len = (size_t)(nl - p);
		if (len > 0 && p[len - 1] == '\r')
			len--;
		if (len == 0)
			break;
		if (len > MAX_HEADER_BYTES ||
		    (colon = memchr(p, ':', len)) == NULL)
			goto out;
		nlen = (size_t)(colon - p);
		v = colon + 1;
		vlen = len - nlen - 1;
		trim_ows(&v, &vlen);
		if (ci_eq(p, nlen, "content-disposition")) {
			if ((r = mp_disposition(c, v, vlen, pt)) != 0)
				goto out;
			r = -API_ERR_MULTIPART;
		} else if (ci_eq(p, nlen, "content-type") &&
		    (pt->content_type = arena_strndup(c->a, v, vlen)) == NULL) {
			r = -API_ERR_SYSTEM;
			goto out;
		}
		p = nl + 1;
	}
	if (pt->name == NULL)
		goto out;
	*pp = nl + 1;
	r = 0;
out:
	return r;
}

/* A non-file part is also a parameter, under the rules of the query. */
static int
mp_field(struct rctx *c, const struct part *pt)
{
	char *value;
	int r = -API_ERR_INVALID_VALUE;

	if (!is_clean_text(pt->data, pt->len))
		goto out;
	r = -API_ERR_SYSTEM;
	if ((value = arena_strndup(c->a, pt->data, pt->len)) == NULL)
		goto out;
	r = add_param(c, pt->name, value, pt->len, PARAM_MULTIPART);
out:
	return r;
}

/* Splits the body into parts; -API_ERR_MULTIPART when it is malformed. */
static int
mp_split(struct rctx *c, const struct mp *m)
{
	struct req *req = c->req;
	struct part *pt;
	const char *p, *next, *data_end;
	bool close = false;
	int r = -API_ERR_MULTIPART;

	/* A preamble before the first delimiter is allowed and ignored. */
	if (!mp_delim_at(m, req->body, &p, &close) &&
	    !mp_find(m, req->body, req->body, &data_end, &p, &close))
		goto out;
	while (!close) {
		r = -API_ERR_MULTIPART;
		if (req->nparts == MAX_MULTIPART_PARTS)
			goto out;
		pt = &req->parts[req->nparts];
		if ((r = mp_headers(c, m, &p, pt)) != 0)
			goto out;
		/* Search from the empty line's LF: a part may have no data. */
		r = -API_ERR_MULTIPART;
		if (!mp_find(m, p - 1, p, &data_end, &next, &close))
			goto out;
		pt->data = p;
		pt->len = (size_t)(data_end - p);
		req->nparts++;
		if (pt->filename == NULL && (r = mp_field(c, pt)) != 0)
			goto out;
		p = next;
	}
	r = 0;
out:
	return r;
}

/*
 * Decodes a multipart/form-data body.  A malformed body sets body_err and
 * drops what was split so far; bad field text is an error of the request.
 */
static int
parse_multipart(struct rctx *c)
{
	struct req *req = c->req;
	struct mp m;
	char *boundary = NULL;
	size_t blen, nparams = req->nparams;
	int r;

	r = hdr_param(c->a, req->content_type, strlen(req->content_type),
	    "boundary", &boundary, &blen);
	/*
	 * Some clients send multipart/form-data without its boundary
	 * parameter; the body's first line, "--" and the boundary, names it.
	 */
	if (r == 0 && boundary == NULL)
		boundary = sniff_boundary(c, &blen);
	if (r == 0 && (boundary == NULL || blen == 0 ||
	    blen > BOUNDARY_MAX_CHARS))
		r = -API_ERR_MULTIPART;
	if (r == 0 && (req->parts = arena_zalloc(c->a,
	    MAX_MULTIPART_PARTS * sizeof(*req->parts))) == NULL)
		r = -API_ERR_SYSTEM;
	if (r == 0) {
		m.b = boundary;
		m.blen = blen;
		m.end = req->body + req->body_len;
		r = mp_split(c, &m);
	}
	if (r == -API_ERR_MULTIPART) {
		log_debug("parse_multipart: malformed body");
		req->body_err = r;
		req->parts = NULL;
		req->nparts = 0;
		req->nparams = nparams;
		r = 0;
	}
	return r;
}

static bool
json_word_ok(const char *s, size_t n)
{
	return (n == 4 && memcmp(s, "true", 4) == 0) ||
	    (n == 5 && memcmp(s, "false", 5) == 0) ||
	    (n == 4 && memcmp(s, "null", 4) == 0);
}

/*
 * json-c's strict mode still takes single-quoted names, Infinity and NaN,
 * and raw control characters in strings.  This pass rejects them (RFC 8259
 * §3, §7) and leaves the grammar to json-c.
 */
static bool
json_lex_ok(const char *s, size_t n)
{
	size_t i, w;
	int ch;
	bool in_str = false;

	for (i = 0; i < n; i++) {
		ch = (unsigned char)s[i];
		if (in_str) {
			if (ch == '\\')
				i++;
			else if (ch == '"')
				in_str = false;
			else if (ch < 0x20)
				return false;
		} else if (ch == '"')
			in_str = true;
		else if (is_alpha(ch)) {
			for (w = i; w < n && is_alpha((unsigned char)s[w]); w++)
				continue;
			if (!json_word_ok(s + i, w - i))
				return false;
			i = w - 1;
		} else if (ch == '-' || is_digit(ch)) {
			while (i + 1 < n && memchr("0123456789+-.eE",
			    s[i + 1], 15) != NULL)
				i++;
		} else if (memchr("{}[]:, \t\r\n", ch, 10) == NULL)
			return false;
	}
	return true;
}

/*
 * Parses a JSON body: depth MAX_JSON_DEPTH, valid UTF-8, nothing but white
 * space after the value.  Failure sets body_err, not the result.
 */
static int
parse_json(struct rctx *c)
{
	struct req *req = c->req;
	struct json_tokener *tok = NULL;
	struct json_object *obj = NULL;
	int r = -API_ERR_SYSTEM;

	req->body_err = -API_ERR_BAD_JSON;
	/* json-c's UTF-8 check lets overlong forms and surrogates through. */
	if (!utf8_valid(req->body, req->body_len) ||
	    !json_lex_ok(req->body, req->body_len)) {
		log_debug("parse_json: body is not strict UTF-8 JSON");
		r = 0;
		goto out;
	}
	if ((tok = json_tokener_new_ex(MAX_JSON_DEPTH)) == NULL) {
		log_err("parse_json: json_tokener_new_ex failed");
		goto out;
	}
	json_tokener_set_flags(tok,
	    JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	/* The length includes the NUL so a bare number ends (json-c docs). */
	obj = json_tokener_parse_ex(tok, req->body, (int)req->body_len + 1);
	if (json_tokener_get_error(tok) == json_tokener_success &&
	    json_tokener_get_parse_end(tok) == req->body_len) {
		req->json = obj;	/* NULL for the literal null */
		obj = NULL;
		req->body_err = 0;
	} else
		log_debug("parse_json: %s", json_tokener_error_desc(
		    json_tokener_get_error(tok)));
	r = 0;
out:
	json_object_put(obj);
	if (tok != NULL)
		json_tokener_free(tok);
	return r;
}

/*
 * Whether a form body is JSON: some clients send the form parameters of
 * the asset operations as a JSON object under the form media type, and
 * swagger-generated clients send a body parameter (Rearrange Email
 * Modules' positions) as its JSON array (docs/behaviour.md §0).  Only
 * the first byte that is not white space is looked at; parse_form_json
 * decides.
 */
static bool
form_is_json(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' ||
	    s[i] == '\n'))
		i++;
	return i < n && (s[i] == '{' || s[i] == '[');
}

/* The scalar items of JSON array v as arena strings, or NULL. */
static const char **
json_items(struct arena *a, struct json_object *v, size_t *n)
{
	struct json_object *it;
	const char **items;
	size_t i, len = json_object_array_length(v);

	*n = 0;
	if (len == 0)
		return NULL;
	for (i = 0; i < len; i++) {
		it = json_object_array_get_idx(v, i);
		if (it == NULL || json_object_is_type(it, json_type_object) ||
		    json_object_is_type(it, json_type_array) ||
		    (json_object_is_type(it, json_type_string) &&
		    !is_clean_text(json_object_get_string(it),
		    (size_t)json_object_get_string_len(it))))
			return NULL;
	}
	if ((items = arena_alloc(a, (len + 1) * sizeof(*items))) == NULL)
		return NULL;
	for (i = 0; i < len; i++)
		if ((items[i] = arena_strdup(a, json_object_get_string(
		    json_object_array_get_idx(v, i)))) == NULL)
			return NULL;
	items[len] = NULL;
	*n = len;
	return items;
}

/*
 * Adds each member of JSON object obj as a parameter of source src: a
 * string as its text, a number or boolean as written, an object or
 * array as compact JSON (the `folder` parameter), null as not given.
 * An array of scalars also lists its items, for req_param_list.
 */
static int
add_members(struct rctx *c, struct json_object *obj, enum param_src src)
{
	struct param *p;
	const char *v;
	char *name, *value;
	size_t vlen;
	int r = 0;

	json_object_object_foreach(obj, key, val) {
		if (val == NULL)
			continue;
		v = json_object_is_type(val, json_type_string) ?
		    json_object_get_string(val) :
		    json_object_to_json_string_ext(val, JSON_C_TO_STRING_PLAIN);
		vlen = json_object_is_type(val, json_type_string) ?
		    (size_t)json_object_get_string_len(val) : strlen(v);
		if (strlen(key) > MAX_PARAM_NAME_BYTES) {
			r = -API_ERR_INVALID_REQUEST;
			break;
		}
		if (!is_clean_text(key, strlen(key)) ||
		    !is_clean_text(v, vlen)) {
			r = -API_ERR_INVALID_VALUE;
			break;
		}
		if ((name = arena_strndup(c->a, key, strlen(key))) == NULL ||
		    (value = arena_strndup(c->a, v, vlen)) == NULL) {
			r = -API_ERR_SYSTEM;
			break;
		}
		if ((r = add_param(c, name, value, vlen, src)) != 0)
			break;
		p = &c->req->params[c->req->nparams - 1];
		if (json_object_is_type(val, json_type_array))
			p->items = json_items(c->a, val, &p->nitems);
	}
	return r;
}

/*
 * A JSON body sent under the form media type: an object's members become
 * form parameters (add_members); an array is kept as req->json, for the
 * operation whose one parameter is the body.  A body that does not parse
 * sets body_err to API_ERR_BAD_JSON, as under application/json.
 */
static int
parse_form_json(struct rctx *c)
{
	struct req *req = c->req;
	int r;

	if ((r = parse_json(c)) != 0 || req->body_err != 0 ||
	    req->json == NULL)
		goto out;
	if (json_object_is_type(req->json, json_type_object)) {
		r = add_members(c, req->json, PARAM_FORM);
		json_object_put(req->json);
		req->json = NULL;
	}
out:
	return r;
}

/* Names the body by its media type (RFC 9110 §8.3.1: case-insensitive). */
static enum body_kind
body_kind_of(const char *ct)
{
	const char *semi;
	size_t n;

	if (ct == NULL)
		return BODY_OTHER;
	semi = strchr(ct, ';');
	n = semi == NULL ? strlen(ct) : (size_t)(semi - ct);
	trim_ows(&ct, &n);
	if (ci_eq(ct, n, "application/x-www-form-urlencoded"))
		return BODY_FORM;
	if (ci_eq(ct, n, "application/json"))
		return BODY_JSON;
	if (ci_eq(ct, n, "multipart/form-data"))
		return BODY_MULTIPART;
	return BODY_OTHER;
}

/* Sizes req->params for the query and what the body may add. */
static int
alloc_params(struct rctx *c)
{
	struct req *req = c->req;
	size_t nq, nb = 0;
	int r = -API_ERR_INVALID_REQUEST;

	nq = count_pairs(req->query, strlen(req->query), MAX_PARAMS);
	if (req->body_kind == BODY_FORM && form_is_json(req->body,
	    req->body_len))
		nb = MAX_PARAMS;	/* members: counted as they are added */
	else if (req->body_kind == BODY_FORM)
		nb = count_pairs(req->body, req->body_len, MAX_PARAMS);
	else if (req->body_kind == BODY_MULTIPART)
		nb = MAX_MULTIPART_PARTS;
	if (nq > MAX_PARAMS || (req->body_kind == BODY_FORM &&
	    nb < MAX_PARAMS && nq + nb > MAX_PARAMS))
		goto out;
	c->param_cap = nq + nb > MAX_PARAMS ? MAX_PARAMS : nq + nb;
	r = -API_ERR_SYSTEM;
	if (c->param_cap > 0 && (req->params = arena_alloc(c->a,
	    c->param_cap * sizeof(*req->params))) == NULL)
		goto out;
	r = 0;
out:
	return r;
}

/* Decodes the query, then the body by its kind. */
static int
decode(struct rctx *c)
{
	struct req *req = c->req;
	int r;

	if (req->body_len > 0)
		req->body_kind = body_kind_of(req->content_type);
	if ((r = alloc_params(c)) != 0 ||
	    (r = parse_urlencoded(c, req->query, strlen(req->query),
	    PARAM_QUERY)) != 0)
		goto out;
	switch (req->body_kind) {
	case BODY_FORM:
		r = form_is_json(req->body, req->body_len) ?
		    parse_form_json(c) :
		    parse_urlencoded(c, req->body, req->body_len, PARAM_FORM);
		break;
	case BODY_JSON:
		r = parse_json(c);
		break;
	case BODY_MULTIPART:
		r = parse_multipart(c);
		break;
	default:
		break;
	}
out:
	return r;
}

/* Copies at most max bytes of s (NULL stays NULL) into *out. */
static int
copy_capped(struct arena *a, const char *s, size_t max, const char **out)
{
	int r = 0;

	*out = NULL;
	if (s != NULL && (*out = arena_strndup(a, s, len_max(s, max))) == NULL)
		r = -API_ERR_SYSTEM;
	return r;
}

/*
 * Method override (docs/behaviour.md §0): a POST whose query or
 * urlencoded body has _method=<METHOD> is routed as that method, for
 * every route (POST ...?_method=GET for long reads, POST ...?_method=
 * DELETE as real clients delete leads).  The name is taken in any letter
 * case; an unknown one is routed as an unknown method (605, naming it).
 */
static int
apply_override(struct req *req, struct arena *a)
{
	const struct param *p;
	size_t i;
	int m;

	if (req->wire_method != HTTP_POST)
		return 0;
	for (i = 0; i < req->nparams; i++) {
		p = &req->params[i];
		if (p->src == PARAM_MULTIPART ||
		    strcmp(p->name, "_method") != 0 || p->value_len == 0)
			continue;
		for (m = 0; m < HTTP_OTHER; m++)
			if (ci_eq(p->value, p->value_len, method_names[m]))
				break;
		req->method = (enum http_method)m;
		if (m != HTTP_OTHER) {
			req->method_name = method_names[m];
			return 0;
		}
		return copy_capped(a, p->value, MAX_LOG_FIELD_BYTES,
		    &req->method_name);
	}
	return 0;
}

/*
 * Method, path and query: what the caller needs to render any error in
 * the right envelope.  An unknown method is kept, cut to the length we
 * echo untrusted text, for the 605 message.
 */
static int
read_line(struct rctx *c)
{
	struct req *req = c->req;
	const char *m, *path, *query;
	int r = 0;

	m = env_get(c->env, REQ_VAR_REQUEST_METHOD);
	req->wire_method = req->method = request_method(m);
	req->method_name = m == NULL ? "" : method_names[req->method];
	if (m != NULL && req->method == HTTP_OTHER &&
	    (r = copy_capped(c->a, m, MAX_LOG_FIELD_BYTES,
	    &req->method_name)) != 0)
		goto out;
	/* RFC 3875 §4.1.5; nginx without PATH_INFO still has DOCUMENT_URI. */
	if ((path = env_get(c->env, REQ_VAR_PATH_INFO)) == NULL &&
	    (path = env_get(c->env, REQ_VAR_DOCUMENT_URI)) == NULL)
		path = "";
	if ((query = env_get(c->env, REQ_VAR_QUERY_STRING)) == NULL)
		query = "";
	c->path_len = len_max(path, MAX_URI_BYTES + 1);
	c->query_len = len_max(query, MAX_URI_BYTES + 1);
	if ((r = copy_capped(c->a, path, MAX_URI_BYTES, &req->path)) != 0)
		goto out;
	r = copy_capped(c->a, query, MAX_URI_BYTES, &req->query);
out:
	return r;
}

/* docs/behaviour.md §4: a URI over 8 KB is answered with 414. */
static int
check_uri(struct rctx *c)
{
	const char *uri;
	size_t len;

	if ((uri = env_get(c->env, REQ_VAR_REQUEST_URI)) != NULL)
		len = len_max(uri, MAX_URI_BYTES + 1);
	else
		len = c->path_len + (c->query_len > 0 ? c->query_len + 1 : 0);
	return len > MAX_URI_BYTES || c->path_len > MAX_URI_BYTES ||
	    c->query_len > MAX_URI_BYTES ? -API_ERR_URI_TOO_LONG : 0;
}

/*
 * CONTENT_LENGTH (RFC 3875 §4.1.2): absent or empty means no body;
 * otherwise only digits.  A number past MAX_BODY_BYTES, however long, is
 * 413 rather than 400.
 */
static int
parse_clen(const char *s, size_t *out)
{
	const char *p;
	int64_t v;
	int r = 0;

	*out = 0;
	if (s == NULL || *s == '\0')
		goto out;
	r = -API_ERR_BAD_REQUEST;
	for (p = s; *p != '\0'; p++)
		if (!is_digit((unsigned char)*p))
			goto out;
	while (s[0] == '0' && s[1] != '\0')
		s++;
	/* All digits: the parser can only fail on the range. */
	r = -API_ERR_TOO_LARGE;
	if (num_parse_i64n(s, (size_t)(p - s), 0, MAX_BODY_BYTES, &v) != 0)
		goto out;
	*out = (size_t)v;
	r = 0;
out:
	return r;
}

/* Copies one header we look at; longer than MAX_HEADER_BYTES is a 400. */
static int
read_header(struct rctx *c, enum req_var var, const char **out)
{
	const char *v;
	int r;

	*out = NULL;
	v = env_get(c->env, var);
	if (v != NULL && len_max(v, MAX_HEADER_BYTES + 1) > MAX_HEADER_BYTES)
		r = -API_ERR_BAD_REQUEST;
	else
		r = copy_capped(c->a, v, MAX_HEADER_BYTES, out);
	return r;
}

static int
read_headers(struct rctx *c)
{
	struct req *req = c->req;
	int r;

	if ((r = read_header(c, REQ_VAR_CONTENT_TYPE,
	    &req->content_type)) != 0 ||
	    (r = read_header(c, REQ_VAR_HTTP_AUTHORIZATION,
	    &req->authorization)) != 0 ||
	    (r = read_header(c, REQ_VAR_HTTP_ACCEPT_ENCODING,
	    &req->accept_encoding)) != 0 ||
	    (r = read_header(c, REQ_VAR_HTTP_RANGE, &req->range)) != 0 ||
	    (r = read_header(c, REQ_VAR_HTTP_X_MAUTO_FAULT,
	    &req->fault)) != 0 ||
	    (r = read_header(c, REQ_VAR_HTTP_X_APP_TYPE,
	    &req->app_type)) != 0)
		goto out;
	r = read_header(c, REQ_VAR_REMOTE_ADDR, &req->remote_addr);
out:
	return r;
}

/* Reads exactly clen bytes of body, never more; fewer is a 400. */
static int
read_body(struct rctx *c, size_t clen)
{
	struct req *req = c->req;
	char *buf = NULL;
	size_t got = 0;
	ssize_t n;
	int r = 0;

	if (clen == 0)
		goto out;
	r = -API_ERR_BAD_REQUEST;
	if (c->env->read == NULL)
		goto out;
	r = -API_ERR_SYSTEM;
	if ((buf = arena_alloc(c->a, clen + 1)) == NULL)
		goto out;
	while (got < clen) {
		n = c->env->read(c->env->ctx, buf + got, clen - got);
		if (n <= 0 || (size_t)n > clen - got)
			break;
		got += (size_t)n;
	}
	r = -API_ERR_BAD_REQUEST;
	if (got != clen)
		goto out;
	buf[clen] = '\0';
	req->body = buf;
	req->body_len = clen;
	r = 0;
out:
	return r;
}

int
request_read(struct req *req, struct arena *a, const struct req_env *env)
{
	struct rctx c;
	size_t clen = 0;
	int r;

	memset(req, 0, sizeof(*req));
	req->arena = a;
	req->method_name = "";
	req->path = "";
	req->query = "";
	memset(&c, 0, sizeof(c));
	c.req = req;
	c.a = a;
	c.env = env;
	if ((r = read_line(&c)) != 0 ||
	    (r = check_uri(&c)) != 0 ||
	    (r = parse_clen(env_get(env, REQ_VAR_CONTENT_LENGTH),
	    &clen)) != 0 ||
	    (r = read_headers(&c)) != 0 ||
	    (r = read_body(&c, clen)) != 0 ||
	    (r = decode(&c)) != 0 ||
	    (r = apply_override(req, a)) != 0)
		goto out;
	r = 0;
out:
	return r;
}

int
request_json_params(struct req *req)
{
	struct rctx c;
	struct param *params;
	size_t n;
	int r = 0;

	if (req->body_kind != BODY_JSON || req->body_err != 0 ||
	    req->json == NULL ||
	    !json_object_is_type(req->json, json_type_object))
		goto out;
	n = (size_t)json_object_object_length(req->json);
	r = -API_ERR_INVALID_REQUEST;
	if (n > MAX_PARAMS - req->nparams)
		goto out;
	r = -API_ERR_SYSTEM;
	if (n == 0 || (params = arena_alloc(req->arena,
	    (req->nparams + n) * sizeof(*params))) == NULL) {
		r = n == 0 ? 0 : r;
		goto out;
	}
	if (req->nparams > 0)
		memcpy(params, req->params, req->nparams * sizeof(*params));
	req->params = params;
	memset(&c, 0, sizeof(c));
	c.req = req;
	c.a = req->arena;
	c.param_cap = req->nparams + n;
	r = add_members(&c, req->json, PARAM_JSON);
out:
	return r;
}

void
request_clear(struct req *req)
{
	if (req == NULL)
		return;
	json_object_put(req->json);
	req->json = NULL;
}

enum http_method
request_method(const char *name)
{
	int m;

	/* RFC 9110 §9.1: method names are case-sensitive. */
	for (m = 0; name != NULL && m < HTTP_OTHER; m++)
		if (strcmp(name, method_names[m]) == 0)
			break;
	return name == NULL ? HTTP_OTHER : (enum http_method)m;
}

const char *
request_method_name(enum http_method m)
{
	if ((int)m < 0 || m >= HTTP__MAX)
		m = HTTP_OTHER;
	return method_names[m];
}

const char *
req_param(const struct req *req, const char *name)
{
	const char *v = NULL;
	size_t i;

	for (i = 0; name != NULL && v == NULL && i < req->nparams; i++)
		if (strcmp(req->params[i].name, name) == 0)
			v = req->params[i].value;
	return v;
}

/* Counts the non-empty ','-separated items of s. */
static size_t
count_items(const char *s, size_t n)
{
	size_t i, count = 0;
	bool in_item = false;

	for (i = 0; i < n; i++) {
		if (s[i] == ',')
			in_item = false;
		else if (!in_item) {
			in_item = true;
			count++;
		}
	}
	return count;
}

/* Copies s into *buf, cutting it at commas, and appends the items to v. */
static void
split_items(const char *s, size_t n, char **buf, const char **v,
    size_t *nv)
{
	char *p = *buf;
	size_t i;
	bool in_item = false;

	memcpy(p, s, n);
	p[n] = '\0';
	for (i = 0; i < n; i++) {
		if (p[i] == ',') {
			p[i] = '\0';
			in_item = false;
		} else if (!in_item) {
			in_item = true;
			v[(*nv)++] = p + i;
		}
	}
	*buf = p + n + 1;
}

int
req_param_list(const struct req *req, const char *name, const char ***items)
{
	const struct param *p;
	const char **v = NULL;
	char *buf = NULL;
	size_t i, n = 0, bytes = 0, nv = 0;
	int r = -API_ERR_SYSTEM;

	*items = NULL;
	for (i = 0; i < req->nparams && n <= MAX_LIST_ITEMS; i++) {
		p = &req->params[i];
		if (name == NULL || strcmp(p->name, name) != 0)
			continue;
		n += p->items != NULL ? p->nitems :
		    count_items(p->value, p->value_len);
		bytes += p->value_len + 1;
	}
	if (n > MAX_LIST_ITEMS) {
		r = -API_ERR_INVALID_REQUEST;
		goto out;
	}
	if (n == 0) {
		r = 0;
		goto out;
	}
	if (req->arena == NULL ||
	    (v = arena_alloc(req->arena, (n + 1) * sizeof(*v))) == NULL ||
	    (buf = arena_alloc(req->arena, bytes)) == NULL)
		goto out;
	for (i = 0; i < req->nparams; i++) {
		p = &req->params[i];
		if (strcmp(p->name, name) != 0)
			continue;
		if (p->items != NULL) {
			memcpy(v + nv, p->items, p->nitems * sizeof(*v));
			nv += p->nitems;
		} else
			split_items(p->value, p->value_len, &buf, v, &nv);
	}
	v[nv] = NULL;
	*items = v;
	r = (int)nv;
out:
	return r;
}
