/*
 * Tokens and the identity handler without a database: the repository
 * calls, the auth epoch and Argon2 verification are swapped for mocks at
 * link time (-Wl,--wrap, see Makefile.am), so the tests can count the
 * database round trips and the Argon2 runs the caches avoid.
 */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>
#include <sodium.h>

#include "api/api.h"
#include "auth/ratelimit.h"
#include "auth/token.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "repo/repo.h"
#include "repo/repo_auth.h"
#include "util/config.h"

#define CLIENT_UUID	"5f0c3b7e-1d2a-4c3b-8e9f-0a1b2c3d4e5f"
#define SECRET		"abcdefghijABCDEFGHIJ0123456789xy"

/* ---- mocks ---- */

int	__wrap_repo_auth_token_get_by_hash(struct db *, const unsigned char *,
	    struct repo_auth_token *);
int	__wrap_repo_auth_client_get_by_client_id(struct db *, const char *,
	    struct repo_auth_client *);
int	__wrap_repo_auth_token_get_live_by_client(struct db *, int64_t,
	    int64_t, char *, int64_t *);
int	__wrap_repo_auth_token_issue(struct db *, int64_t, const char *,
	    const unsigned char *, int64_t, int64_t, int64_t, char *,
	    int64_t *);
int	__wrap_repo_auth_token_purge(struct db *, int64_t);
uint64_t __wrap_limiter_auth_epoch(const struct limiter *);
int	__wrap_crypto_pwhash_str_verify(const char *, const char *,
	    unsigned long long);
int	__real_crypto_pwhash_str_verify(const char *, const char *,
	    unsigned long long);

static struct {
	int			 by_hash, client_get, live, issue, purge;
	int			 verify;
	int			 by_hash_err;
	struct repo_auth_token	 token_row;
	unsigned char		 last_hash[REPO_AUTH_HASH_BYTES];
	int			 client_err;
	struct repo_auth_client	 client_row;
	int			 live_err;
	char			 live_token[TOKEN_BYTES + 1];
	int64_t			 live_expires;
	int64_t			 live_after;
	int			 issue_err;
	char			 issued[TOKEN_BYTES + 1];
	int64_t			 issue_now, issue_expires, issue_live_after;
	unsigned char		 issue_hash[REPO_AUTH_HASH_BYTES];
	int64_t			 purge_before;
	uint64_t		 epoch;
} mock;

int
__wrap_repo_auth_token_get_by_hash(struct db *db, const unsigned char *hash,
    struct repo_auth_token *out)
{
	(void)db;
	mock.by_hash++;
	memcpy(mock.last_hash, hash, sizeof(mock.last_hash));
	memset(out, 0, sizeof(*out));
	if (mock.by_hash_err == 0)
		*out = mock.token_row;
	return mock.by_hash_err;
}

int
__wrap_repo_auth_client_get_by_client_id(struct db *db, const char *id,
    struct repo_auth_client *out)
{
	(void)db;
	mock.client_get++;
	memset(out, 0, sizeof(*out));
	if (mock.client_err != 0 || strcmp(id, mock.client_row.client_id) != 0)
		return mock.client_err != 0 ? mock.client_err :
		    -REPO_ERR_NOT_FOUND;
	*out = mock.client_row;
	return 0;
}

int
__wrap_repo_auth_token_get_live_by_client(struct db *db, int64_t client,
    int64_t live_after, char *token, int64_t *expires_at)
{
	(void)db;
	mock.live++;
	mock.live_after = live_after;
	assert_int_equal(client, mock.client_row.id);
	token[0] = '\0';
	*expires_at = 0;
	if (mock.live_err != 0)
		return mock.live_err;
	memcpy(token, mock.live_token, sizeof(mock.live_token));
	*expires_at = mock.live_expires;
	return 0;
}

int
__wrap_repo_auth_token_issue(struct db *db, int64_t client,
    const char *token, const unsigned char *hash, int64_t now,
    int64_t expires_at, int64_t live_after, char *out, int64_t *out_expires)
{
	(void)db;
	mock.issue++;
	assert_int_equal(client, mock.client_row.id);
	snprintf(mock.issued, sizeof(mock.issued), "%s", token);
	memcpy(mock.issue_hash, hash, sizeof(mock.issue_hash));
	mock.issue_now = now;
	mock.issue_expires = expires_at;
	mock.issue_live_after = live_after;
	out[0] = '\0';
	*out_expires = 0;
	if (mock.issue_err != 0)
		return mock.issue_err;
	memcpy(out, token, strlen(token) + 1);
	*out_expires = expires_at;
	return 0;
}

int
__wrap_repo_auth_token_purge(struct db *db, int64_t before)
{
	(void)db;
	mock.purge++;
	mock.purge_before = before;
	return 0;
}

uint64_t
__wrap_limiter_auth_epoch(const struct limiter *lim)
{
	(void)lim;
	return mock.epoch;
}

int
__wrap_crypto_pwhash_str_verify(const char *hash, const char *pw,
    unsigned long long len)
{
	mock.verify++;
	return __real_crypto_pwhash_str_verify(hash, pw, len);
}

/* ---- fixture ---- */

static struct config cfg;
static struct app app;

/* What token checking takes, from the test's worker context. */
static const struct token_ctx *
tx(void)
{
	static struct token_ctx t;

	t.cfg = app.cfg;
	t.db = app.db;
	t.lim = app.lim;
	t.tokens = app.tokens;
	return &t;
}
static char secret_hash[crypto_pwhash_STRBYTES];

static int
group_setup(void **state)
{
	(void)state;
	if (sodium_init() < 0)
		return -1;
	/* Cheap parameters: the tests count verifications, not time. */
	return crypto_pwhash_str(secret_hash, SECRET, strlen(SECRET),
	    crypto_pwhash_OPSLIMIT_MIN, crypto_pwhash_MEMLIMIT_MIN);
}

static int
setup(void **state)
{
	(void)state;
	memset(&mock, 0, sizeof(mock));
	memset(&cfg, 0, sizeof(cfg));
	cfg.token_lifetime = 3600;
	cfg.token_suffix = (char *)"mt";
	memset(&app, 0, sizeof(app));
	app.cfg = &cfg;
	app.db = (struct db *)&cfg;	/* only handed to the mocks */
	app.tokens = token_cache_new();
	mock.token_row.client = 7;
	snprintf(mock.token_row.client_id, sizeof(mock.token_row.client_id),
	    "%s", CLIENT_UUID);
	snprintf(mock.token_row.name, sizeof(mock.token_row.name), "sync");
	mock.token_row.perms = PERM_BIT(PERM_READ_WRITE_LEAD);
	mock.token_row.expires_at = (int64_t)time(NULL) + 3000;
	mock.client_row.id = 7;
	snprintf(mock.client_row.client_id, sizeof(mock.client_row.client_id),
	    "%s", CLIENT_UUID);
	snprintf(mock.client_row.name, sizeof(mock.client_row.name), "sync");
	snprintf(mock.client_row.role, sizeof(mock.client_row.role), "admin");
	snprintf(mock.client_row.scope, sizeof(mock.client_row.scope),
	    "sync@example.com");
	snprintf(mock.client_row.secret_hash,
	    sizeof(mock.client_row.secret_hash), "%s", secret_hash);
	mock.live_err = -REPO_ERR_NOT_FOUND;
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	token_cache_free(app.tokens);
	app.tokens = NULL;
	return 0;
}

/* ---- token_authenticate ---- */

static void
test_auth_cached(void **state)
{
	struct client c;
	unsigned char h[REPO_AUTH_HASH_BYTES];
	const char *tok = "0f8e5c1a-9b7d-4e21-a3c4-5d6e7f809a1b:mt";
	int i;

	(void)state;
	assert_int_equal(token_authenticate(tx(), tok, &c), 0);
	assert_int_equal(mock.by_hash, 1);
	/* The lookup is by BLAKE2b-256 of the token text. */
	crypto_generichash(h, sizeof(h), (const unsigned char *)tok,
	    strlen(tok), NULL, 0);
	assert_memory_equal(mock.last_hash, h, sizeof(h));
	assert_int_equal(c.id, 7);
	assert_string_equal(c.client_id, CLIENT_UUID);
	assert_string_equal(c.name, "sync");
	/* Read-Write Lead grants Read-Only Lead too. */
	assert_true(c.perms == (PERM_BIT(PERM_READ_WRITE_LEAD) |
	    PERM_BIT(PERM_READ_ONLY_LEAD)));
	/* The steady state costs no database round trip. */
	for (i = 0; i < 100; i++) {
		memset(&c, 0, sizeof(c));
		assert_int_equal(token_authenticate(tx(), tok, &c), 0);
		assert_int_equal(c.id, 7);
		assert_string_equal(c.client_id, CLIENT_UUID);
	}
	assert_int_equal(mock.by_hash, 1);
	/* Another token is another lookup. */
	assert_int_equal(token_authenticate(tx(),
	    "11111111-2222-4333-8444-555555555555:mt", &c), 0);
	assert_int_equal(mock.by_hash, 2);
}

static void
test_auth_epoch_drops_cache(void **state)
{
	struct client c;
	const char *tok = "0f8e5c1a-9b7d-4e21-a3c4-5d6e7f809a1b:mt";

	(void)state;
	assert_int_equal(token_authenticate(tx(), tok, &c), 0);
	assert_int_equal(token_authenticate(tx(), tok, &c), 0);
	assert_int_equal(mock.by_hash, 1);
	/* A client was revoked somewhere: the next call asks again. */
	mock.epoch = 5;
	mock.by_hash_err = -REPO_ERR_NOT_FOUND;
	assert_int_equal(token_authenticate(tx(), tok, &c), -API_ERR_TOKEN_INVALID);
	assert_int_equal(mock.by_hash, 2);
	assert_int_equal(c.id, 0);
}

static void
test_auth_invalid(void **state)
{
	struct client c;
	char longtok[TOKEN_BYTES + 2];

	(void)state;
	mock.by_hash_err = -REPO_ERR_NOT_FOUND;
	assert_int_equal(token_authenticate(tx(), "nope", &c),
	    -API_ERR_TOKEN_INVALID);
	assert_int_equal(mock.by_hash, 1);
	/* Unknown tokens are not cached as valid. */
	assert_int_equal(token_authenticate(tx(), "nope", &c),
	    -API_ERR_TOKEN_INVALID);
	assert_int_equal(mock.by_hash, 2);
	/* Malformed ones never reach the database. */
	assert_int_equal(token_authenticate(tx(), "", &c),
	    -API_ERR_TOKEN_INVALID);
	assert_int_equal(token_authenticate(tx(), NULL, &c),
	    -API_ERR_TOKEN_INVALID);
	memset(longtok, 'a', sizeof(longtok) - 1);
	longtok[sizeof(longtok) - 1] = '\0';
	assert_int_equal(token_authenticate(tx(), longtok, &c),
	    -API_ERR_TOKEN_INVALID);
	assert_int_equal(mock.by_hash, 2);
	/* A database outage is 608, not 601. */
	mock.by_hash_err = -REPO_ERR_UNAVAILABLE;
	assert_int_equal(token_authenticate(tx(), "nope", &c),
	    -API_ERR_UNAVAILABLE);
	mock.by_hash_err = -REPO_ERR_INTERNAL;
	assert_int_equal(token_authenticate(tx(), "nope", &c),
	    -API_ERR_SYSTEM);
}

static void
test_auth_expired(void **state)
{
	struct client c;
	const char *tok = "0f8e5c1a-9b7d-4e21-a3c4-5d6e7f809a1b:mt";

	(void)state;
	/* Expired in the table: 602, and not cached. */
	mock.token_row.expires_at = (int64_t)time(NULL) - 1;
	assert_int_equal(token_authenticate(tx(), tok, &c),
	    -API_ERR_TOKEN_EXPIRED);
	assert_int_equal(token_authenticate(tx(), tok, &c),
	    -API_ERR_TOKEN_EXPIRED);
	assert_int_equal(mock.by_hash, 2);
	/* Expiring while cached: the entry dies at expiry. */
	mock.token_row.expires_at = (int64_t)time(NULL) + 1;
	tok = "22222222-2222-4333-8444-555555555555:mt";
	assert_int_equal(token_authenticate(tx(), tok, &c), 0);
	assert_int_equal(mock.by_hash, 3);
	sleep(2);
	assert_int_equal(token_authenticate(tx(), tok, &c),
	    -API_ERR_TOKEN_EXPIRED);
	assert_int_equal(mock.by_hash, 3);
}

static void
test_auth_cache_bounded(void **state)
{
	struct client c;
	char tok[TOKEN_BYTES + 1];
	int i;

	(void)state;
	/* Many more tokens than slots: all work, the table stays full. */
	for (i = 0; i < 4 * TOKEN_CACHE_SLOTS; i++) {
		snprintf(tok, sizeof(tok), "token-%d", i);
		mock.token_row.client = i;
		assert_int_equal(token_authenticate(tx(), tok, &c), 0);
		assert_int_equal(c.id, i);
	}
	assert_int_equal(mock.by_hash, 4 * TOKEN_CACHE_SLOTS);
	/* Each lookup returns its own token's client, never a neighbour. */
	for (i = 4 * TOKEN_CACHE_SLOTS - 1; i >= 0; i--) {
		snprintf(tok, sizeof(tok), "token-%d", i);
		mock.token_row.client = i;
		assert_int_equal(token_authenticate(tx(), tok, &c), 0);
		assert_int_equal(c.id, i);
	}
}

/* ---- token_issue ---- */

static void
test_issue_new_token(void **state)
{
	char tok[TOKEN_BYTES + 1], scope[MAX_NAME_BYTES + 1];
	unsigned char h[REPO_AUTH_HASH_BYTES];
	int64_t exp_in, now;
	size_t i;

	(void)state;
	now = (int64_t)time(NULL);
	assert_int_equal(token_issue(tx(), CLIENT_UUID, SECRET, tok, &exp_in,
	    scope), 0);
	assert_int_equal(mock.verify, 1);
	assert_int_equal(mock.live, 1);
	assert_int_equal(mock.issue, 1);
	/* "<uuid v4>:<suffix>", fresh lifetime - 1 like the real service. */
	assert_int_equal(strlen(tok), 36 + 3);
	assert_string_equal(tok + 36, ":mt");
	assert_int_equal(tok[14], '4');
	for (i = 0; i < 36; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23)
			assert_int_equal(tok[i], '-');
		else
			assert_true(isxdigit((unsigned char)tok[i]) &&
			    !isupper((unsigned char)tok[i]));
	}
	assert_string_equal(tok, mock.issued);
	crypto_generichash(h, sizeof(h), (const unsigned char *)tok,
	    strlen(tok), NULL, 0);
	assert_memory_equal(mock.issue_hash, h, sizeof(h));
	assert_true(exp_in == 3599 || exp_in == 3598);
	assert_int_equal(mock.issue_expires - mock.issue_now, 3600);
	assert_true(mock.issue_now >= now && mock.issue_now <= now + 1);
	assert_int_equal(mock.issue_live_after, mock.issue_now + 1);
	assert_string_equal(scope, "sync@example.com");
	/* Old expired tokens are purged on issue. */
	assert_int_equal(mock.purge, 1);
	assert_int_equal(mock.purge_before,
	    mock.issue_now - TOKEN_KEEP_EXPIRED_SECS);
}

static void
test_issue_same_token(void **state)
{
	char tok[TOKEN_BYTES + 1], scope[MAX_NAME_BYTES + 1];
	int64_t exp_in, now = (int64_t)time(NULL);

	(void)state;
	mock.live_err = 0;
	snprintf(mock.live_token, sizeof(mock.live_token), "%s",
	    "cdf01657-110d-4155-99a7-f986b2ff13a0:mt");
	mock.live_expires = now + 2919;
	assert_int_equal(token_issue(tx(), CLIENT_UUID, SECRET, tok, &exp_in,
	    scope), 0);
	assert_string_equal(tok, "cdf01657-110d-4155-99a7-f986b2ff13a0:mt");
	assert_true(exp_in == 2918 || exp_in == 2917);
	assert_int_equal(mock.issue, 0);
	assert_int_equal(mock.purge, 0);
	assert_true(mock.live_after >= now + 1);
	/* The secret is not run through Argon2 again. */
	assert_int_equal(token_issue(tx(), CLIENT_UUID, SECRET, tok, &exp_in,
	    scope), 0);
	assert_int_equal(mock.verify, 1);
	assert_int_equal(mock.client_get, 2);
	/* Until the auth epoch moves. */
	mock.epoch = 9;
	assert_int_equal(token_issue(tx(), CLIENT_UUID, SECRET, tok, &exp_in,
	    scope), 0);
	assert_int_equal(mock.verify, 2);
}

static void
test_issue_bad_client(void **state)
{
	char tok[TOKEN_BYTES + 1], scope[MAX_NAME_BYTES + 1];
	int64_t exp_in;

	(void)state;
	/* Wrong secret: Argon2 says no; nothing is issued. */
	assert_int_equal(token_issue(tx(), CLIENT_UUID, SECRET "z", tok,
	    &exp_in, scope), -API_ERR_OAUTH_INVALID_CLIENT);
	assert_int_equal(mock.verify, 1);
	assert_string_equal(tok, "");
	/* A wrong secret after a right one is not let in by the cache. */
	assert_int_equal(token_issue(tx(), CLIENT_UUID, SECRET, tok, &exp_in,
	    scope), 0);
	assert_int_equal(token_issue(tx(), CLIENT_UUID, "x" SECRET, tok,
	    &exp_in, scope), -API_ERR_OAUTH_INVALID_CLIENT);
	assert_int_equal(mock.verify, 3);
	/* Unknown client. */
	assert_int_equal(token_issue(tx(),
	    "00000000-0000-4000-8000-000000000000", SECRET, tok, &exp_in,
	    scope), -API_ERR_OAUTH_INVALID_CLIENT);
	/* Malformed input never reaches the database. */
	mock.client_get = 0;
	assert_int_equal(token_issue(tx(), "short", SECRET, tok, &exp_in,
	    scope), -API_ERR_OAUTH_INVALID_CLIENT);
	assert_int_equal(token_issue(tx(), CLIENT_UUID, "", tok, &exp_in,
	    scope), -API_ERR_OAUTH_INVALID_CLIENT);
	assert_int_equal(token_issue(tx(), NULL, SECRET, tok, &exp_in,
	    scope), -API_ERR_OAUTH_INVALID_CLIENT);
	assert_int_equal(token_issue(tx(), CLIENT_UUID, NULL, tok, &exp_in,
	    scope), -API_ERR_OAUTH_INVALID_CLIENT);
	assert_int_equal(mock.client_get, 0);
	/* Revoked client, even with the right (cached) secret. */
	mock.client_row.revoked_at = 1700000000;
	assert_int_equal(token_issue(tx(), CLIENT_UUID, SECRET, tok, &exp_in,
	    scope), -API_ERR_OAUTH_INVALID_CLIENT);
	/* Revoked between the check and the issue. */
	mock.client_row.revoked_at = 0;
	mock.issue_err = -REPO_ERR_NOT_FOUND;
	assert_int_equal(token_issue(tx(), CLIENT_UUID, SECRET, tok, &exp_in,
	    scope), -API_ERR_OAUTH_INVALID_CLIENT);
	/* Database trouble is not the client's fault. */
	mock.client_err = -REPO_ERR_UNAVAILABLE;
	assert_int_equal(token_issue(tx(), CLIENT_UUID, SECRET, tok, &exp_in,
	    scope), -API_ERR_UNAVAILABLE);
}

static void
test_client_new(void **state)
{
	char id[CLIENT_ID_BYTES + 1], secret[CLIENT_SECRET_BYTES + 1];
	char hash[REPO_AUTH_PWHASH_BYTES + 1];
	char id2[CLIENT_ID_BYTES + 1], secret2[CLIENT_SECRET_BYTES + 1];
	size_t i;

	(void)state;
	assert_int_equal(token_client_new(id, secret, hash), 0);
	assert_int_equal(strlen(id), CLIENT_ID_BYTES);
	assert_int_equal(id[14], '4');
	assert_true(strchr("89ab", id[19]) != NULL);
	assert_int_equal(strlen(secret), CLIENT_SECRET_BYTES);
	for (i = 0; i < CLIENT_SECRET_BYTES; i++)
		assert_true(isalnum((unsigned char)secret[i]));
	/* Only the Argon2id string is kept, and it verifies the secret. */
	assert_true(strncmp(hash, "$argon2id$", 10) == 0);
	assert_null(strstr(hash, secret));
	assert_int_equal(__real_crypto_pwhash_str_verify(hash, secret,
	    strlen(secret)), 0);
	assert_int_not_equal(__real_crypto_pwhash_str_verify(hash, "x",
	    1), 0);
	assert_int_equal(token_client_new(id2, secret2, hash), 0);
	assert_string_not_equal(id, id2);
	assert_string_not_equal(secret, secret2);
}

/* ---- the identity handler ---- */

static void
call_identity(struct param *params, size_t n, struct resp *r, int *err)
{
	struct req req;
	struct call c;

	memset(&req, 0, sizeof(req));
	memset(&c, 0, sizeof(c));
	req.params = params;
	req.nparams = n;
	c.app = &app;
	c.req = &req;
	resp_init(r);
	*err = api_identity_token(&c, r);
}

static bool
has_header(const struct resp *r, const char *line)
{
	size_t i;

	for (i = 0; i < r->nheaders; i++)
		if (strcmp(r->headers[i], line) == 0)
			return true;
	return false;
}

static void
test_identity_handler(void **state)
{
	struct param p[3] = {
		{ .name = "grant_type", .value = "client_credentials" },
		{ .name = "client_id", .value = CLIENT_UUID },
		{ .name = "client_secret", .value = SECRET },
	};
	struct resp r;
	int err;

	(void)state;
	mock.live_err = 0;
	snprintf(mock.live_token, sizeof(mock.live_token), "%s",
	    "cdf01657-110d-4155-99a7-f986b2ff13a0:mt");
	mock.live_expires = (int64_t)time(NULL) + 3600;
	call_identity(p, 3, &r, &err);
	assert_int_equal(err, 0);
	assert_int_equal(r.status, 200);
	assert_non_null(r.body);
	/* Exactly the four members, in the real service's order. */
	assert_true(json_object_get_int64(json_object_object_get(r.body,
	    "expires_in")) >= 3598);
	json_object_object_add(r.body, "expires_in",
	    json_object_new_int(3599));
	assert_string_equal(json_object_to_json_string_ext(r.body,
	    JSON_C_TO_STRING_PLAIN),
	    "{\"access_token\":\"cdf01657-110d-4155-99a7-f986b2ff13a0:mt\","
	    "\"token_type\":\"bearer\",\"expires_in\":3599,"
	    "\"scope\":\"sync@example.com\"}");
	assert_true(has_header(&r, "Cache-Control: no-store"));
	assert_true(has_header(&r, "Pragma: no-cache"));
	resp_clear(&r);

	/* No grant_type. */
	call_identity(p + 1, 2, &r, &err);
	assert_int_equal(err, -API_ERR_OAUTH_INVALID_REQUEST);
	assert_null(r.body);
	assert_true(has_header(&r, "Cache-Control: no-store"));
	resp_clear(&r);
	/* Another grant. */
	p[0].value = "password";
	call_identity(p, 3, &r, &err);
	assert_int_equal(err, -API_ERR_OAUTH_UNSUPPORTED_GRANT);
	resp_clear(&r);
	/* Bad secret. */
	p[0].value = "client_credentials";
	p[2].value = "wrong";
	call_identity(p, 3, &r, &err);
	assert_int_equal(err, -API_ERR_OAUTH_INVALID_CLIENT);
	assert_null(r.body);
	resp_clear(&r);
	/* No credentials at all. */
	call_identity(p, 1, &r, &err);
	assert_int_equal(err, -API_ERR_OAUTH_INVALID_CLIENT);
	resp_clear(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_auth_cached, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_auth_epoch_drops_cache,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_auth_invalid, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_auth_expired, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_auth_cache_bounded, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_issue_new_token, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_issue_same_token, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_issue_bad_client, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_client_new, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_identity_handler, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, group_setup, NULL);
}
