/*
 * Route lookup.  An incoming path is split into segments; a segment that
 * is not a literal of any pattern must be a parameter, a segment that is
 * a literal may still be a parameter (a custom object named "schema").
 * The router tries the canonical forms in order of preference, literal
 * first from the left, and bsearches the sorted table for each; the first
 * pattern that exists decides between a match and 605.
 */
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "http/router.h"
#include "util/arena.h"
#include "util/num.h"
#include "util/xmalloc.h"

/* Ambiguous segments tried both ways; more are taken as literals. */
#define MAX_AMBIGUOUS	8

static const char	**literals;	/* sorted unique literal segments */
static size_t		  nliterals;

/* Compares a and b up to their ends or '/', with {...} as one token. */
int
route_pattern_cmp(const char *a, const char *b)
{
	unsigned char ca, cb;

	for (;;) {
		if (*a == '{' && *b == '{') {
			while (*a != '\0' && *a != '}')
				a++;
			while (*b != '\0' && *b != '}')
				b++;
			if (*a == '}')
				a++;
			if (*b == '}')
				b++;
			continue;
		}
		ca = (unsigned char)*a;
		cb = (unsigned char)*b;
		if (ca != cb || ca == '\0')
			return (ca > cb) - (ca < cb);
		a++;
		b++;
	}
}

int
route_cmp(const void *a, const void *b)
{
	const struct route *x = a, *y = b;
	int c;

	if ((c = route_pattern_cmp(x->pattern, y->pattern)) != 0)
		return c;
	return (x->method > y->method) - (x->method < y->method);
}

static int
str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void
router_init(void)
{
	const char *p, *s;
	size_t i, n, cap = 0;
	char *seg;

	if (literals != NULL)
		return;
	for (i = 0; i < nroutes; i++) {
		for (p = routes[i].pattern; *p == '/'; ) {
			s = ++p;
			while (*p != '\0' && *p != '/')
				p++;
			if (memchr(s, '{', (size_t)(p - s)) != NULL)
				continue;
			if (nliterals == cap) {
				cap = cap ? cap * 2 : 64;
				literals = xrealloc(literals,
				    cap * sizeof(*literals));
			}
			seg = xstrndup(s, (size_t)(p - s));
			literals[nliterals++] = seg;
		}
	}
	qsort(literals, nliterals, sizeof(*literals), str_cmp);
	for (i = 0, n = 0; i < nliterals; i++) {
		if (n > 0 && strcmp(literals[n - 1], literals[i]) == 0) {
			free((char *)(uintptr_t)literals[i]);
			continue;
		}
		literals[n++] = literals[i];
	}
	nliterals = n;
}

static bool
is_literal(const char *seg)
{
	return bsearch(&seg, literals, nliterals, sizeof(*literals),
	    str_cmp) != NULL;
}

/* Finds the first route whose pattern equals canon; NULL if none. */
static const struct route *
find_pattern(const char *canon)
{
	size_t lo = 0, hi = nroutes, mid;
	int c;

	/* Lower bound: the first route not less than canon. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = route_pattern_cmp(routes[mid].pattern, canon);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < nroutes && route_pattern_cmp(routes[lo].pattern, canon) == 0)
		return &routes[lo];
	return NULL;
}

struct split {
	char	*seg[MAX_PATH_SEGMENTS];	/* NUL-terminated copies */
	size_t	 n;
	bool	 lit[MAX_PATH_SEGMENTS];	/* is a known literal */
	bool	 json[MAX_PATH_SEGMENTS];	/* ends in ".json" */
};

/* Splits path into segments; -1 when it cannot name any route. */
static int
split_path(struct arena *a, const char *path, struct split *sp)
{
	const char *p = path, *s;
	size_t len;

	sp->n = 0;
	if (*p != '/')
		return -1;
	while (*p == '/') {
		s = ++p;
		while (*p != '\0' && *p != '/')
			p++;
		len = (size_t)(p - s);
		if (len == 0 || len > MAX_SEGMENT_BYTES ||
		    sp->n == MAX_PATH_SEGMENTS)
			return -1;
		if ((sp->seg[sp->n] = arena_strndup(a, s, len)) == NULL)
			return -1;
		sp->lit[sp->n] = is_literal(sp->seg[sp->n]);
		sp->json[sp->n] = len > 5 &&
		    memcmp(s + len - 5, ".json", 5) == 0;
		sp->n++;
	}
	return *p == '\0' ? 0 : -1;
}

/* Writes the canonical form for one choice of parameter positions. */
static void
build_canon(const struct split *sp, const bool *param, char *out)
{
	size_t i, len;

	for (i = 0; i < sp->n; i++) {
		*out++ = '/';
		if (param[i]) {
			memcpy(out, "{}", 2);
			out += 2;
			if (sp->json[i]) {
				memcpy(out, ".json", 5);
				out += 5;
			}
		} else {
			len = strlen(sp->seg[i]);
			memcpy(out, sp->seg[i], len);
			out += len;
		}
	}
	*out = '\0';
}

/* Stores the parameters of rt into req, checking their types. */
static int
take_params(struct req *req, const struct split *sp, const bool *param,
    const struct route *rt, const char **err_msg)
{
	size_t i, k = 0, len;
	char *v;
	int64_t n;

	for (i = 0; i < sp->n && k < MAX_PATH_PARAMS; i++) {
		if (!param[i])
			continue;
		v = sp->seg[i];
		len = strlen(v);
		if (sp->json[i])
			v[len -= 5] = '\0';
		req->path_params[k] = v;
		req->path_ints[k] = 0;
		if (rt->ptypes[k] == PATH_INT32 || rt->ptypes[k] == PATH_INT64) {
			if (num_parse_i64(v, 0, rt->ptypes[k] == PATH_INT32 ?
			    INT32_MAX : INT64_MAX, &n) != 0) {
				*err_msg = arena_printf(req->arena,
				    "Invalid value '%s'. Required of type "
				    "'Integer'", v);
				return -API_ERR_INVALID_VALUE;
			}
			req->path_ints[k] = n;
		}
		k++;
	}
	req->npath_params = k;
	return 0;
}

int
router_find(struct req *req, const struct route **out, const char **err_msg)
{
	struct split sp;
	const struct route *rt;
	bool param[MAX_PATH_SEGMENTS];
	size_t amb[MAX_AMBIGUOUS], namb = 0, i;
	unsigned long mask, combos;
	char *canon;

	*out = NULL;
	*err_msg = NULL;
	router_init();
	if (split_path(req->arena, req->path, &sp) != 0)
		return -API_ERR_NOT_FOUND;
	for (i = 0; i < sp.n; i++) {
		param[i] = !sp.lit[i];
		if (sp.lit[i] && namb < MAX_AMBIGUOUS)
			amb[namb++] = i;
	}
	if ((canon = arena_alloc(req->arena, strlen(req->path) +
	    sp.n * 7 + 1)) == NULL)
		return -API_ERR_SYSTEM;
	/*
	 * The masks count up with the leftmost ambiguous segment as the most
	 * significant bit, so literals win from the left.
	 */
	combos = 1UL << namb;
	for (mask = 0; mask < combos; mask++) {
		for (i = 0; i < namb; i++)
			param[amb[i]] = (mask >> (namb - 1 - i)) & 1;
		build_canon(&sp, param, canon);
		if ((rt = find_pattern(canon)) == NULL)
			continue;
		for (; rt < routes + nroutes &&
		    route_pattern_cmp(rt->pattern, canon) == 0; rt++) {
			if (rt->method != req->method)
				continue;
			*out = rt;
			return take_params(req, &sp, param, rt, err_msg);
		}
		*err_msg = arena_printf(req->arena,
		    "Request method '%s' not supported",
		    req->method_name != NULL ? req->method_name : "");
		return -API_ERR_METHOD;
	}
	return -API_ERR_NOT_FOUND;
}
