/*
 * Shared pieces of the handler unit tests (tests/unit/api/test_api_*.c):
 * one request in flight without a database or HTTP (struct app, req,
 * call and resp, reset around every test), its parameters and JSON body,
 * and the result as text.  The repository calls a handler makes are
 * swapped for each test's mocks at link time (Makefile.am).
 */
#ifndef MAUTO_TESTS_APITEST_H
#define MAUTO_TESTS_APITEST_H

#include <stdbool.h>
#include <stdint.h>

#include "call.h"
#include "http/request.h"
#include "http/response.h"

struct lead_schema;

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
/*
 * Makes {"input":[item, ...]} with n copies of the JSON item the body;
 * returns the array (borrowed from the body).
 */
struct json_object *apitest_body_input(size_t n, const char *item);
/* No body. */
void	apitest_no_body(void);
/* A new response and no parameters, for a test's next call. */
void	apitest_again(void);
/*
 * Gives the running test's call a route whose variant is v, for a handler
 * that serves several operations (the route table's .variant).
 */
void	apitest_variant(int v);
/* Calls handler h with the request and response of the running test. */
int	apitest_run(api_handler h);
/* The result array as plain JSON text, "(none)" without one. */
const char *apitest_result(void);
/* Member key of result element i as plain JSON text (it must be there). */
const char *apitest_member(size_t i, const char *key);
/*
 * Calls h on a new response with body json (NULL: the body as it is) and
 * asserts it answers err with the message msg (NULL: not checked) and no
 * result.
 */
void	apitest_fails(api_handler h, const char *json, int err,
	    const char *msg);

/*
 * The catalogue repository as the lead handler tests link it
 * (-Wl,--wrap=repo_lead_fields_version,--wrap=repo_lead_fields_load):
 * load answers err when it is set, else apitest_lead_schema at version
 * with extra; version answers version.  Reset by apitest_setup (version
 * 1, nothing else).
 */
struct apitest_catalog {
	int		 loads;		/* calls of load */
	int		 err;
	int64_t		 version;
	bool		 extra;
};
extern struct apitest_catalog apitest_catalog;

struct db;
int	__wrap_repo_lead_fields_version(struct db *db, int64_t *out);
int	__wrap_repo_lead_fields_load(struct db *db, struct lead_schema *out);

/*
 * A canned lead field catalogue into out, as repo_lead_fields_load gives
 * it (owned by the caller, lead_schema_clear), at version: in attr_id
 * order company, id, firstName, lastName, email, createdAt, updatedAt,
 * cookies, leadScore, leadPartitionId (standard fields, as migration
 * 0004 has them but for a searchable leadScore), then the API-created
 * custom score field rating; with extra also the custom string favColor,
 * made by hand.
 */
void	apitest_lead_schema(struct lead_schema *out, int64_t version,
	    bool extra);

/*
 * Adds a field name of type to t (heap strings, as a repository read
 * gives them); a link goes to lead on id.
 */
struct co_type;
void	apitest_co_field(struct co_type *t, const char *name, int type,
	    bool dedupe);

/*
 * The folders' places as the asset handler tests link them
 * (-Wl,--wrap=repo_folders_place): every folder is of kind kind, at
 * generation 7; the answer is err, from the err_from-th call on when
 * err_from is not 0 (1: the first).  calls counts the calls, asked is
 * the folder id of the last.  Reset by apitest_setup (all 0).
 */
struct apitest_place {
	int		 kind;		/* enum folder_kind */
	int		 err;
	int		 err_from;
	int		 calls;
	int64_t		 asked;
};
extern struct apitest_place apitest_place;

struct folder_ref;
struct repo_place;
int	__wrap_repo_folders_place(struct db *db, const struct folder_ref *ref,
	    struct repo_place *out);

/*
 * The email template store as the email handler tests link it
 * (-Wl,--wrap=repo_etpl_get): template APITEST_TEMPLATE_ID, named
 * "Basic", read without content; any other id is not found.
 */
#define APITEST_TEMPLATE_ID	5
struct arena;
struct repo_etpl;
int	__wrap_repo_etpl_get(struct db *db, struct arena *a, int32_t id,
	    bool with_content, struct repo_etpl *out);

#endif
