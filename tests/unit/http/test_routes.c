/*
 * The route table (docs/style.md §8): strictly sorted under route_cmp, one row
 * per operation of docs/operations.tsv (each resolving to itself), in
 * step with docs/api.md, and near-miss paths answering 610 or 605.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api/api.h"
#include "err.h"
#include "http/request.h"
#include "http/router.h"
#include "util/arena.h"

#define DOCUMENTED_ROUTES	185
/* Variants real clients send (scripts/gen-routes.py VARIANTS). */
#define VARIANT_ROUTES		2

static struct arena arena;

static char *
srcpath(const char *rel)
{
	const char *top = getenv("top_srcdir");
	static char buf[4096];

	snprintf(buf, sizeof(buf), "%s/%s", top != NULL ? top : ".", rel);
	return buf;
}

/* Looks up method + path; returns the router's result. */
static int
lookup(enum http_method m, const char *path, const struct route **rt,
    struct req *req)
{
	const char *msg;

	memset(req, 0, sizeof(*req));
	req->arena = &arena;
	req->method = m;
	req->wire_method = m;
	req->method_name = request_method_name(m);
	req->path = arena_strdup(&arena, path);
	return router_find(req, rt, &msg);
}

static void
test_sorted_and_complete(void **state)
{
	size_t i;

	(void)state;
	assert_int_equal(nroutes, DOCUMENTED_ROUTES + VARIANT_ROUTES);
	for (i = 0; i < nroutes; i++) {
		assert_non_null(routes[i].handler);
		assert_non_null(routes[i].op_id);
		assert_true(routes[i].pattern[0] == '/');
		assert_null(strstr(routes[i].pattern, "//"));
		if (i > 0 && route_cmp(&routes[i - 1], &routes[i]) >= 0)
			fail_msg("routes %zu and %zu out of order: %s %s", i - 1,
			    i, routes[i - 1].pattern, routes[i].pattern);
	}
}

static void
test_comparator(void **state)
{
	(void)state;
	assert_int_equal(route_pattern_cmp("/a/{x}.json", "/a/{}.json"), 0);
	assert_int_equal(route_pattern_cmp("/a/{long}/b", "/a/{}/b"), 0);
	assert_true(route_pattern_cmp("/a/b", "/a/{}") < 0);
	assert_true(route_pattern_cmp("/a", "/a/b") < 0);
	assert_true(route_pattern_cmp("/b", "/a") > 0);
}

/* Replaces each {name} of pattern with a value of its type. */
static void
sample_path(const struct route *rt, char *out, size_t size)
{
	const char *p = rt->pattern;
	size_t k = 0, n = 0;

	while (*p != '\0' && n + 16 < size) {
		if (*p == '{') {
			const char *v = rt->ptypes[k] == PATH_STR ? "Xyz_1" : "42";

			memcpy(out + n, v, strlen(v));
			n += strlen(v);
			k++;
			while (*p != '\0' && *p != '}')
				p++;
			if (*p == '}')
				p++;
			continue;
		}
		out[n++] = *p++;
	}
	out[n] = '\0';
}

static void
test_every_operation_resolves(void **state)
{
	FILE *f;
	char line[4096], path[1024], *method, *pattern, *opid, *save;
	const struct route *rt;
	struct req req;
	size_t rows = 0, i;
	int r;

	(void)state;
	f = fopen(srcpath("docs/operations.tsv"), "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));	/* header */
	while (fgets(line, sizeof(line), f) != NULL) {
		method = strtok_r(line, "\t", &save);
		pattern = strtok_r(NULL, "\t", &save);
		opid = strtok_r(NULL, "\t", &save);
		assert_non_null(opid);
		rows++;
		for (i = 0; i < nroutes; i++)
			if (strcmp(routes[i].pattern, pattern) == 0 &&
			    strcmp(request_method_name(routes[i].method),
			    method) == 0)
				break;
		if (i == nroutes)
			fail_msg("%s %s is not in the table", method, pattern);
		assert_string_equal(routes[i].op_id, opid);
		sample_path(&routes[i], path, sizeof(path));
		r = lookup(request_method(method), path, &rt, &req);
		if (r != 0 || rt != &routes[i])
			fail_msg("%s %s resolved to %s (%d)", method, path,
			    rt != NULL ? rt->pattern : "nothing", r);
		arena_reset(&arena);
	}
	fclose(f);
	assert_int_equal(rows + VARIANT_ROUTES, nroutes);
}

/* Each variant is served by the handler of the operation it copies. */
static void
test_variants(void **state)
{
	static const char *const v[VARIANT_ROUTES][4] = {
		{ "DELETE", "/rest/v1/leads.json",
		    "POST", "/rest/v1/leads/delete.json" },
		{ "GET", "/rest/v1/programs/members/describe.json",
		    "GET", "/rest/v1/program/members/describe.json" },
	};
	const struct route *a, *b;
	struct req req;
	size_t i;

	(void)state;
	for (i = 0; i < VARIANT_ROUTES; i++) {
		assert_int_equal(lookup(request_method(v[i][0]), v[i][1], &a,
		    &req), 0);
		arena_reset(&arena);
		assert_int_equal(lookup(request_method(v[i][2]), v[i][3], &b,
		    &req), 0);
		arena_reset(&arena);
		assert_ptr_not_equal(a, b);
		assert_string_equal(a->op_id, b->op_id);
		assert_true(a->handler == b->handler);
		assert_int_equal(a->variant, b->variant);
		assert_int_equal(a->body, b->body);
		assert_int_equal(a->perm_any, b->perm_any);
	}
}

/*
 * The first n tab-separated columns of line (the whole line when it has
 * fewer), without the line end.
 */
static void
first_columns(char *line, int n)
{
	char *p = line;
	int col = 0;

	for (; *p != '\0' && *p != '\n'; p++)
		if (*p == '\t' && ++col == n)
			break;
	*p = '\0';
}

/*
 * docs/operations.tsv is the interface's list of operations with this
 * project's columns (handler, body, path_types) appended: its first seven
 * columns equal the reference list, row for row; rows after its last
 * are operations beyond it.
 */
static void
test_operations_copy_matches_shared(void **state)
{
	FILE *a, *b;
	char shared[4096], la[4096], lb[4096];
	char *ra, *rb;

	(void)state;
	snprintf(shared, sizeof(shared), "%s",
	    srcpath("../shared/api/operations.tsv"));
	if ((b = fopen(shared, "r")) == NULL)
		skip();
	a = fopen(srcpath("docs/operations.tsv"), "r");
	assert_non_null(a);
	/*
	 * The interface specification's rows come first and unchanged; the
	 * rows after them are operations beyond it (docs/api.md), which
	 * the shared copy does not list.
	 */
	do {
		ra = fgets(la, sizeof(la), a);
		rb = fgets(lb, sizeof(lb), b);
		assert_true(ra != NULL || rb == NULL);
		if (rb == NULL)
			break;
		first_columns(la, 7);
		first_columns(lb, 7);
		assert_string_equal(la, lb);
	} while (ra != NULL);
	fclose(a);
	fclose(b);
}

static void
test_api_md_lists_every_route(void **state)
{
	FILE *f;
	char line[4096], want[1024];
	size_t i, rows = 0;
	bool *seen;

	(void)state;
	seen = calloc(nroutes, sizeof(*seen));
	f = fopen(srcpath("docs/api.md"), "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "| ", 2) != 0 || strstr(line, "`/") == NULL)
			continue;
		rows++;
		for (i = 0; i < nroutes; i++) {
			snprintf(want, sizeof(want), "| %s | `%s` | %s |",
			    request_method_name(routes[i].method),
			    routes[i].pattern, routes[i].op_id);
			if (strncmp(line, want, strlen(want)) == 0) {
				assert_false(seen[i]);
				seen[i] = true;
			}
		}
	}
	fclose(f);
	for (i = 0; i < nroutes; i++)
		if (!seen[i])
			fail_msg("docs/api.md lacks %s", routes[i].pattern);
	assert_int_equal(rows, nroutes);
	free(seen);
}

struct miss {
	enum http_method	 m;
	const char		*path;
	int			 err;
};

static void
test_near_misses(void **state)
{
	static const struct miss cases[] = {
		{ HTTP_GET, "", -API_ERR_NOT_FOUND },
		{ HTTP_GET, "/", -API_ERR_NOT_FOUND },
		{ HTTP_GET, "rest/v1/leads.json", -API_ERR_NOT_FOUND },
		{ HTTP_GET, "/rest/v1/leads.json/", -API_ERR_NOT_FOUND },
		{ HTTP_GET, "/rest/v1/leads", -API_ERR_NOT_FOUND },
		{ HTTP_GET, "/rest/v1/Leads.json", -API_ERR_NOT_FOUND },
		{ HTTP_GET, "/rest//v1/leads.json", -API_ERR_NOT_FOUND },
		{ HTTP_GET, "/rest/v1/leads.json/extra", -API_ERR_NOT_FOUND },
		{ HTTP_GET, "/rest/v2/leads.json", -API_ERR_NOT_FOUND },
		{ HTTP_GET, "/rest/v1/lead/.json", -API_ERR_NOT_FOUND },
		{ HTTP_GET, "/rest/v1/lead/12", -API_ERR_NOT_FOUND },
		{ HTTP_GET, "/identity/oauth/token/x", -API_ERR_NOT_FOUND },
		{ HTTP_GET, "/rest/v1/lead/abc.json", -API_ERR_INVALID_VALUE },
		{ HTTP_GET, "/rest/v1/lead/-1.json", -API_ERR_INVALID_VALUE },
		{ HTTP_GET, "/rest/v1/leads/push.json", -API_ERR_METHOD },
		{ HTTP_DELETE, "/rest/v1/leads/describe.json", -API_ERR_METHOD },
		{ HTTP_PUT, "/identity/oauth/token", -API_ERR_METHOD },
		{ HTTP_POST, "/rest/asset/v1/email/ccFields.json",
		    -API_ERR_METHOD },
	};
	const struct route *rt;
	struct req req;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int r = lookup(cases[i].m, cases[i].path, &rt, &req);

		if (r != cases[i].err)
			fail_msg("%s: got %d, want %d", cases[i].path, r,
			    cases[i].err);
		arena_reset(&arena);
	}
}

static void
test_literal_wins_and_params(void **state)
{
	const struct route *rt;
	struct req req;

	(void)state;
	assert_int_equal(lookup(HTTP_GET, "/rest/v1/customobjects/schema.json",
	    &rt, &req), 0);
	assert_string_equal(rt->pattern, "/rest/v1/customobjects/schema.json");
	assert_int_equal(lookup(HTTP_GET, "/rest/v1/customobjects/car_c.json",
	    &rt, &req), 0);
	assert_string_equal(rt->pattern,
	    "/rest/v1/customobjects/{customObjectName}.json");
	assert_int_equal(req.npath_params, 1);
	assert_string_equal(req.path_params[0], "car_c");
	/* A custom object type named like a literal still reaches its routes. */
	assert_int_equal(lookup(HTTP_POST,
	    "/rest/v1/customobjects/schema/delete.json", &rt, &req), 0);
	assert_string_equal(rt->pattern,
	    "/rest/v1/customobjects/{customObjectName}/delete.json");
	assert_string_equal(req.path_params[0], "schema");
	assert_int_equal(lookup(HTTP_GET, "/rest/asset/v1/email/ccFields.json",
	    &rt, &req), 0);
	assert_string_equal(rt->pattern, "/rest/asset/v1/email/ccFields.json");
	assert_int_equal(lookup(HTTP_POST,
	    "/rest/asset/v1/email/7/content/rearrange.json", &rt, &req), 0);
	assert_string_equal(rt->pattern,
	    "/rest/asset/v1/email/{id}/content/rearrange.json");
	assert_int_equal(lookup(HTTP_POST,
	    "/rest/asset/v1/email/7/content/edit_me.json", &rt, &req), 0);
	assert_string_equal(rt->pattern,
	    "/rest/asset/v1/email/{id}/content/{htmlId}.json");
	assert_int_equal(req.path_ints[0], 7);
	assert_string_equal(req.path_params[1], "edit_me");
	assert_int_equal(lookup(HTTP_POST, "/rest/asset/v1/smartCampaign/"
	    "5/flow/6/choice/7/reorder.json", &rt, &req), 0);
	assert_int_equal(req.npath_params, 3);
	assert_int_equal(req.path_ints[2], 7);
	assert_int_equal(lookup(HTTP_GET, "/rest/v1/lead/9007199254740993.json",
	    &rt, &req), 0);
	assert_int_equal(req.path_ints[0], 9007199254740993LL);
	arena_reset(&arena);
}

static int
setup(void **state)
{
	(void)state;
	arena_init(&arena);
	router_init();
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	arena_clear(&arena);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sorted_and_complete),
		cmocka_unit_test(test_comparator),
		cmocka_unit_test(test_every_operation_resolves),
		cmocka_unit_test(test_operations_copy_matches_shared),
		cmocka_unit_test(test_api_md_lists_every_route),
		cmocka_unit_test(test_variants),
		cmocka_unit_test(test_near_misses),
		cmocka_unit_test(test_literal_wins_and_params),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
