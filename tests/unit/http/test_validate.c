/*
 * Parameter descriptors (validate.c): every type, source, bound and
 * error, on requests read by the production request parser.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "bounds.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "http/validate.h"
#include "util/arena.h"

struct fake {
	const char	*query;
	const char	*ctype;
	const char	*body;
	size_t		 pos;
	char		 len[32];
};

static struct arena arena;
static struct req req;
static struct resp resp;
static struct fake fk;

static const char *
getparam(void *ctx, const char *name)
{
	struct fake *f = ctx;

	if (strcmp(name, "REQUEST_METHOD") == 0)
		return f->body != NULL ? "POST" : "GET";
	if (strcmp(name, "PATH_INFO") == 0 || strcmp(name, "REQUEST_URI") == 0)
		return "/rest/asset/v1/x.json";
	if (strcmp(name, "QUERY_STRING") == 0)
		return f->query;
	if (strcmp(name, "CONTENT_TYPE") == 0)
		return f->ctype;
	if (strcmp(name, "CONTENT_LENGTH") == 0 && f->body != NULL) {
		snprintf(f->len, sizeof(f->len), "%zu", strlen(f->body));
		return f->len;
	}
	return NULL;
}

static ssize_t
readbody(void *ctx, char *buf, size_t n)
{
	struct fake *f = ctx;
	size_t left = f->body != NULL ? strlen(f->body) - f->pos : 0;

	if (n > left)
		n = left;
	if (n > 0)
		memcpy(buf, f->body + f->pos, n);
	f->pos += n;
	return (ssize_t)n;
}

/* Reads a request with this query and (when not NULL) body. */
static void
load(const char *query, const char *ctype, const char *body)
{
	struct req_env env = {
		.getparam = getparam, .read = readbody, .ctx = &fk
	};

	request_clear(&req);
	arena_reset(&arena);
	memset(&fk, 0, sizeof(fk));
	fk.query = query != NULL ? query : "";
	fk.ctype = ctype;
	fk.body = body;
	assert_int_equal(request_read(&req, &arena, &env), 0);
	memset(&resp, 0, sizeof(resp));
}

static int
setup(void **state)
{
	(void)state;
	arena_init(&arena);
	memset(&req, 0, sizeof(req));
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	request_clear(&req);
	arena_clear(&arena);
	return 0;
}

static const char *const states[] = { "draft", "approved", NULL };

static const struct vparam params[] = {
	{ .name = "id", .type = VP_INT, .min = 1, .max = INT32_MAX,
	  .flags = VPF_REQUIRED },
	{ .name = "name", .type = VP_STR, .max = 10, .src = VP_PARAM | VP_JSON },
	{ .name = "on", .type = VP_BOOL },
	{ .name = "status", .type = VP_ENUM, .words = states,
	  .type_name = "status" },
	{ .name = "since", .type = VP_DATETIME },
	{ .name = "ids", .type = VP_LIST, .max = 3 },
	{ .name = "folder", .type = VP_RAW, .src = VP_PARAM | VP_JSON },
};

enum { P_ID, P_NAME, P_ON, P_STATUS, P_SINCE, P_IDS, P_FOLDER, P__MAX };

static void
test_types_from_query(void **state)
{
	struct vvalue v[P__MAX];

	(void)state;
	load("id=12&name=abc&on=Yes&status=approved&"
	    "since=2016-09-10T23:15:00-00:00&ids=1,2&ids=3&"
	    "folder=%7B%22id%22%3A12%2C%22type%22%3A%22Folder%22%7D",
	    NULL, NULL);
	assert_int_equal(VALIDATE(&req, &resp, params, v), 0);
	assert_true(v[P_ID].present);
	assert_int_equal(v[P_ID].i, 12);
	assert_string_equal(v[P_NAME].s, "abc");
	assert_true(v[P_ON].b);
	assert_int_equal(v[P_STATUS].i, 1);
	assert_int_equal(v[P_SINCE].i, 1473549300);
	assert_true(v[P_SINCE].has_time);
	assert_int_equal(v[P_IDS].n, 3);
	assert_string_equal(v[P_IDS].items[2], "3");
	assert_string_equal(v[P_FOLDER].s, "{\"id\":12,\"type\":\"Folder\"}");
}

static void
test_form_body_and_absent(void **state)
{
	struct vvalue v[P__MAX];

	(void)state;
	load(NULL, "application/x-www-form-urlencoded", "id=7&on=0&name=");
	assert_int_equal(VALIDATE(&req, &resp, params, v), 0);
	assert_int_equal(v[P_ID].i, 7);
	assert_true(v[P_ON].present);
	assert_false(v[P_ON].b);
	/* Sent empty counts as not given. */
	assert_false(v[P_NAME].present);
	assert_false(v[P_STATUS].present);
	assert_false(v[P_IDS].present);
}

static void
test_json_member(void **state)
{
	struct vvalue v[P__MAX];

	(void)state;
	load("id=1", "application/json",
	    "{\"name\":\"x\",\"folder\":{\"id\":3,\"type\":\"Program\"}}");
	assert_int_equal(VALIDATE(&req, &resp, params, v), 0);
	assert_string_equal(v[P_NAME].s, "x");
	assert_string_equal(v[P_FOLDER].s, "{\"id\":3,\"type\":\"Program\"}");
	/* "on" may not come from JSON: absent. */
	load("id=1", "application/json", "{\"on\":true}");
	assert_int_equal(VALIDATE(&req, &resp, params, v), 0);
	assert_false(v[P_ON].present);
}

static void
test_missing_required(void **state)
{
	static const struct vparam blank[] = {
		{ .name = "name", .type = VP_STR,
		  .flags = VPF_REQUIRED | VPF_BLANK },
	};
	struct vvalue v[P__MAX];

	(void)state;
	load("name=a", NULL, NULL);
	assert_int_equal(VALIDATE(&req, &resp, params, v),
	    -API_ERR_MISSING_PARAM);
	assert_string_equal(resp.err_msg,
	    "Missing value for the required parameter 'id'");
	load("id=", NULL, NULL);
	assert_int_equal(VALIDATE(&req, &resp, params, v),
	    -API_ERR_MISSING_PARAM);
	load(NULL, NULL, NULL);
	assert_int_equal(VALIDATE(&req, &resp, blank, v), -API_ERR_BLANK);
	assert_string_equal(resp.err_msg, "name cannot be blank");
}

static void
test_bad_values(void **state)
{
	static const struct {
		const char	*query;
		const char	*msg;
	} bad[] = {
		{ "id=0", "Invalid value '0'. Required of type 'integer'" },
		{ "id=2147483648",
		  "Invalid value '2147483648'. Required of type 'integer'" },
		{ "id=1x", "Invalid value '1x'. Required of type 'integer'" },
		{ "id=1&name=12345678901",
		  "Invalid value '12345678901'. Required of type 'string'" },
		{ "id=1&on=maybe",
		  "Invalid value 'maybe'. Required of type 'boolean'" },
		{ "id=1&status=Draft",
		  "Invalid value 'Draft'. Required of type 'status'" },
		{ "id=1&since=yesterday",
		  "Invalid value 'yesterday'. Required of type 'datetime'" },
		{ "id=1&since=2016-02-30",
		  "Invalid value '2016-02-30'. Required of type 'datetime'" },
		{ "id=%01%0a", "Invalid value '?" "?'. Required of type 'integer'" },
	};
	struct vvalue v[P__MAX];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		load(bad[i].query, NULL, NULL);
		assert_int_equal(VALIDATE(&req, &resp, params, v),
		    -API_ERR_INVALID_VALUE);
		assert_string_equal(resp.err_msg, bad[i].msg);
	}
	load("id=1&ids=1,2,3,4", NULL, NULL);
	assert_int_equal(VALIDATE(&req, &resp, params, v),
	    -API_ERR_INVALID_REQUEST);
	assert_string_equal(resp.err_msg, "Too many items in 'ids' (at most 3)");
}

static void
test_own_error(void **state)
{
	static const struct vparam own[] = {
		{ .name = "batchSize", .type = VP_INT, .min = 1,
		  .bad_err = -API_ERR_INVALID_REQUEST,
		  .bad_msg = "Invalid batchSize '%s': an integer from 1 to 300" },
		{ .name = "x", .type = VP_ENUM, .words = states,
		  .flags = VPF_NOCASE, .bad_msg = "No such state" },
	};
	struct vvalue v[2];
	char big[300];

	(void)state;
	load("batchSize=0", NULL, NULL);
	assert_int_equal(VALIDATE(&req, &resp, own, v),
	    -API_ERR_INVALID_REQUEST);
	assert_string_equal(resp.err_msg,
	    "Invalid batchSize '0': an integer from 1 to 300");
	load("x=DRAFT", NULL, NULL);
	assert_int_equal(VALIDATE(&req, &resp, own, v), 0);
	assert_int_equal(v[1].i, 0);
	load("x=none", NULL, NULL);
	assert_int_equal(VALIDATE(&req, &resp, own, v),
	    -API_ERR_INVALID_VALUE);
	assert_string_equal(resp.err_msg, "No such state");
	/* A long value is quoted cut, as every message quotes input. */
	memcpy(big, "batchSize=", 10);
	memset(big + 10, '9', sizeof(big) - 11);
	big[sizeof(big) - 1] = '\0';
	load(big, NULL, NULL);
	assert_int_equal(VALIDATE(&req, &resp, own, v),
	    -API_ERR_INVALID_REQUEST);
	assert_non_null(strstr(resp.err_msg, "...': an integer"));
}

static void
test_bool_spellings(void **state)
{
	static const struct vparam b[] = {
		{ .name = "mergeInCRM", .type = VP_BOOL },
	};
	static const char *const yes[] = { "true", "TRUE", "1", "on", "Yes" };
	static const char *const no[] = { "false", "0", "off", "NO", "False" };
	struct vvalue v[1];
	char q[64];
	size_t i;

	(void)state;
	for (i = 0; i < 5; i++) {
		snprintf(q, sizeof(q), "mergeInCRM=%s", yes[i]);
		load(q, NULL, NULL);
		assert_int_equal(VALIDATE(&req, &resp, b, v), 0);
		assert_true(v[0].b);
		snprintf(q, sizeof(q), "mergeInCRM=%s", no[i]);
		load(q, NULL, NULL);
		assert_int_equal(VALIDATE(&req, &resp, b, v), 0);
		assert_false(v[0].b);
	}
}

static void
test_json_list(void **state)
{
	static const struct vparam l[] = {
		{ .name = "names", .type = VP_LIST, .src = VP_JSON },
	};
	struct vvalue v[1];

	(void)state;
	load(NULL, "application/json", "{\"names\":[\"a\",\"b\",3]}");
	assert_int_equal(VALIDATE(&req, &resp, l, v), 0);
	assert_int_equal(v[0].n, 3);
	assert_string_equal(v[0].items[2], "3");
	load(NULL, "application/json", "{\"names\":[\"a\",{\"x\":1}]}");
	assert_int_equal(VALIDATE(&req, &resp, l, v), -API_ERR_INVALID_VALUE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_types_from_query),
		cmocka_unit_test(test_form_body_and_absent),
		cmocka_unit_test(test_json_member),
		cmocka_unit_test(test_missing_required),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_own_error),
		cmocka_unit_test(test_bool_spellings),
		cmocka_unit_test(test_json_list),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
