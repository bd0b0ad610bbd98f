/*
 * Shared pieces of the handler unit tests (tests/unit/api/test_api_*.c):
 * one request in flight without a database or HTTP (struct app, req,
 * call and resp, reset around every test), its parameters and JSON body,
 * and the result as text.  The repository calls a handler makes are
 * swapped for each test's mocks at link time (Makefile.am).
 */
#ifndef MAUTO_TESTS_APITEST_H
#define MAUTO_TESTS_APITEST_H

#include "call.h"
#include "http/request.h"
#include "http/response.h"

/* The request of the running test. */
extern struct app	apitest_app;
extern struct req	apitest_req;
extern struct call	apitest_call;
extern struct resp	apitest_resp;

/* cmocka setup and teardown: an empty request and response. */
int	apitest_setup(void **state);
int	apitest_teardown(void **state);

/* Adds a query parameter (value borrowed). */
void	apitest_param(const char *name, const char *value);
/* Makes json (it must parse) the body, in place of the one before. */
void	apitest_body(const char *json);
/* No body. */
void	apitest_no_body(void);
/* A new response and no parameters, for a test's next call. */
void	apitest_again(void);
/* Calls handler h with the request and response of the running test. */
int	apitest_run(api_handler h);
/* The result array as plain JSON text, "(none)" without one. */
const char *apitest_result(void);
/*
 * Calls h on a new response with body json (NULL: the body as it is) and
 * asserts it answers err with the message msg (NULL: not checked) and no
 * result.
 */
void	apitest_fails(api_handler h, const char *json, int err,
	    const char *msg);

#endif
