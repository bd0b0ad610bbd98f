/*
 * Clients, roles and tokens against a real MariaDB with the migrations
 * applied (tests/harness/mariadb.sh).  Needs MAUTO_TEST_DB_SOCKET,
 * MAUTO_TEST_DB_NAME, MAUTO_TEST_DB_USER and MAUTO_TEST_DB_PASSWORD;
 * without them it exits 77 (automake's SKIP).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <mysql.h>
#include <sodium.h>

#include "api/api.h"
#include "model/perm.h"
#include "auth/ratelimit.h"
#include "auth/token.h"
#include "db/pool.h"
#include "err.h"
#include "repo/repo.h"
#include "repo/repo_auth.h"
#include "util/config.h"
#include "itest.h"

static struct config cfg;
static struct db *db;

/* Runs a fixture statement (tests only; production SQL is in src/repo). */
static void
sql(const char *q)
{
	itest_sql(db, q);
}

static uint64_t
epoch(void)
{
	uint64_t e;

	assert_int_equal(repo_auth_epoch_get(db, &e), 0);
	return e;
}

static int
group_setup(void **state)
{
	(void)state;
	if (sodium_init() < 0)
		return -1;
	return itest_open(&db, &cfg, NULL, NULL, 0);
}

static int
group_teardown(void **state)
{
	(void)state;
	return itest_close(db, NULL);
}

static int
setup(void **state)
{
	(void)state;
	sql("DELETE FROM auth_token");
	sql("DELETE FROM auth_client");
	sql("DELETE FROM auth_role WHERE name NOT IN ('admin', 'readonly')");
	/*
	 * limits_host is left alone: test_repo_limits runs at the same time
	 * against the same database and counts its rows.  This test's
	 * limiter only reads the epoch and writes zero counts.
	 */
	return 0;
}

/* Creates a client of role; fills its id and secret. */
static struct repo_auth_client
make_client(const char *name, const char *role, char *secret)
{
	struct repo_auth_client c;

	memset(&c, 0, sizeof(c));
	assert_int_equal(token_client_new(c.client_id, secret,
	    c.secret_hash), 0);
	snprintf(c.name, sizeof(c.name), "%s", name);
	snprintf(c.role, sizeof(c.role), "%s", role);
	snprintf(c.scope, sizeof(c.scope), "%s@mauto.local", name);
	c.created_at = (int64_t)time(NULL);
	assert_int_equal(repo_auth_client_insert(db, &c), 0);
	return c;
}

static void
test_seeded_roles(void **state)
{
	struct repo_auth_role_list l;
	perm_set ro = PERM_BIT(PERM_READ_ONLY_LEAD) |
	    PERM_BIT(PERM_READ_ONLY_ASSETS) |
	    PERM_BIT(PERM_READ_ONLY_CUSTOM_OBJECT) |
	    PERM_BIT(PERM_READ_ONLY_CUSTOM_OBJECT_TYPE) |
	    PERM_BIT(PERM_ACCESS_DESIGN_STUDIO) | PERM_BIT(PERM_ACCESS_EMAIL) |
	    PERM_BIT(PERM_READ_ONLY_ACTIVITY) |
	    PERM_BIT(PERM_READ_ONLY_CAMPAIGNS);

	(void)state;
	assert_int_equal(repo_auth_role_list(db, &l), 0);
	assert_int_equal(l.count, 2);
	assert_string_equal(l.items[0].name, "admin");
	assert_true(l.items[0].perms == PERM_ALL);
	assert_string_equal(l.items[1].name, "readonly");
	assert_true(l.items[1].perms == ro);
	assert_true(l.items[0].created_at > 0);
	repo_auth_role_list_free(&l);
}

static void
test_role_insert(void **state)
{
	struct repo_auth_role_list l;
	uint64_t e0 = epoch();
	perm_set p = PERM_BIT(PERM_READ_WRITE_LEAD) |
	    PERM_BIT(PERM_APPROVE_ASSETS);

	(void)state;
	assert_int_equal(repo_auth_role_insert(db, "leads", p), 0);
	assert_int_equal(epoch(), e0 + 1);
	assert_int_equal(repo_auth_role_insert(db, "leads", p),
	    -REPO_ERR_CONFLICT);
	assert_int_equal(epoch(), e0 + 1);
	assert_int_equal(repo_auth_role_insert(db, "nothing", 0), 0);
	assert_int_equal(repo_auth_role_list(db, &l), 0);
	assert_int_equal(l.count, 4);
	assert_string_equal(l.items[1].name, "leads");
	assert_true(l.items[1].perms == p);
	assert_string_equal(l.items[2].name, "nothing");
	assert_true(l.items[2].perms == 0);
	repo_auth_role_list_free(&l);
}

static void
test_client_insert_get(void **state)
{
	struct repo_auth_client c, got;
	struct repo_auth_client_list l;
	char secret[CLIENT_SECRET_BYTES + 1];

	(void)state;
	c = make_client("sync", "readonly", secret);
	assert_int_equal(repo_auth_client_get_by_client_id(db, c.client_id,
	    &got), 0);
	assert_true(got.id > 0);
	assert_string_equal(got.client_id, c.client_id);
	assert_string_equal(got.name, "sync");
	assert_string_equal(got.role, "readonly");
	assert_string_equal(got.scope, "sync@mauto.local");
	assert_int_equal(got.created_at, c.created_at);
	assert_int_equal(got.revoked_at, 0);
	/* Only the Argon2id string is stored, and it verifies. */
	assert_true(strncmp(got.secret_hash, "$argon2id$", 10) == 0);
	assert_int_equal(crypto_pwhash_str_verify(got.secret_hash, secret,
	    strlen(secret)), 0);
	assert_int_not_equal(crypto_pwhash_str_verify(got.secret_hash,
	    "wrong", 5), 0);
	/* Unknown role, duplicate id, unknown client. */
	snprintf(c.role, sizeof(c.role), "no-such-role");
	assert_int_equal(repo_auth_client_insert(db, &c), -REPO_ERR_NOT_FOUND);
	snprintf(c.role, sizeof(c.role), "admin");
	assert_int_equal(repo_auth_client_insert(db, &c), -REPO_ERR_CONFLICT);
	assert_int_equal(repo_auth_client_get_by_client_id(db,
	    "00000000-0000-4000-8000-000000000000", &got), -REPO_ERR_NOT_FOUND);
	(void)make_client("other", "admin", secret);
	assert_int_equal(repo_auth_client_list(db, &l), 0);
	assert_int_equal(l.count, 2);
	assert_string_equal(l.items[0].name, "sync");
	assert_string_equal(l.items[1].role, "admin");
	assert_string_equal(l.items[0].secret_hash, "");
	repo_auth_client_list_free(&l);
}

/* A worker context on the test connection. */
static void
app_init(struct token_ctx *app, struct limiter *lim)
{
	memset(app, 0, sizeof(*app));
	app->cfg = &cfg;
	app->db = db;
	app->lim = lim;
	app->tokens = token_cache_new();
}

static void
test_same_token_until_expiry(void **state)
{
	struct repo_auth_client c;
	struct token_ctx app;
	struct client who;
	char secret[CLIENT_SECRET_BYTES + 1], t1[TOKEN_BYTES + 1];
	char t2[TOKEN_BYTES + 1], scope[MAX_NAME_BYTES + 1];
	int64_t e1, e2;

	(void)state;
	c = make_client("sync", "admin", secret);
	app_init(&app, NULL);
	assert_int_equal(token_issue(&app, c.client_id, secret, t1, &e1,
	    scope), 0);
	assert_int_equal(e1, cfg.token_lifetime - 1);
	assert_string_equal(scope, "sync@mauto.local");
	assert_int_equal(strlen(t1), 36 + 1 + strlen(cfg.token_suffix));
	sleep(2);
	assert_int_equal(token_issue(&app, c.client_id, secret, t2, &e2,
	    scope), 0);
	assert_string_equal(t1, t2);
	assert_true(e2 < e1 && e2 >= e1 - 3);
	/* The token authenticates as the client, with its role's rights. */
	assert_int_equal(token_authenticate(&app, t1, &who), 0);
	assert_string_equal(who.client_id, c.client_id);
	assert_string_equal(who.name, "sync");
	assert_true(who.perms == PERM_ALL);
	/* Wrong secret and unknown token. */
	assert_int_equal(token_issue(&app, c.client_id, "nope", t2, &e2,
	    scope), -API_ERR_OAUTH_INVALID_CLIENT);
	assert_int_equal(token_authenticate(&app,
	    "00000000-0000-4000-8000-000000000000:mt", &who),
	    -API_ERR_TOKEN_INVALID);
	token_cache_free(app.tokens);
}

static void
test_repo_issue_keeps_live_token(void **state)
{
	struct repo_auth_client c, tmp;
	char secret[CLIENT_SECRET_BYTES + 1], out[TOKEN_BYTES + 1];
	unsigned char h1[REPO_AUTH_HASH_BYTES], h2[REPO_AUTH_HASH_BYTES];
	int64_t now = (int64_t)time(NULL), exp;

	(void)state;
	tmp = make_client("sync", "admin", secret);
	assert_int_equal(repo_auth_client_get_by_client_id(db, tmp.client_id,
	    &c), 0);
	memset(h1, 1, sizeof(h1));
	memset(h2, 2, sizeof(h2));
	assert_int_equal(repo_auth_token_get_live_by_client(db, c.id, now + 1,
	    out, &exp), -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_auth_token_issue(db, c.id, "first:mt", h1, now,
	    now + 100, now + 1, out, &exp), 0);
	assert_string_equal(out, "first:mt");
	assert_int_equal(exp, now + 100);
	/* A second issuer finds the first token and stores nothing. */
	assert_int_equal(repo_auth_token_issue(db, c.id, "second:mt", h2, now,
	    now + 200, now + 1, out, &exp), 0);
	assert_string_equal(out, "first:mt");
	assert_int_equal(exp, now + 100);
	assert_int_equal(repo_auth_token_get_live_by_client(db, c.id, now + 1,
	    out, &exp), 0);
	assert_string_equal(out, "first:mt");
	/* Past its end the first no longer counts as live. */
	assert_int_equal(repo_auth_token_get_live_by_client(db, c.id,
	    now + 100, out, &exp), -REPO_ERR_NOT_FOUND);
	/* Unknown or revoked clients get nothing. */
	assert_int_equal(repo_auth_token_issue(db, c.id + 1000, "x:mt", h2,
	    now, now + 200, now + 1, out, &exp), -REPO_ERR_NOT_FOUND);
}

static void
test_expired_then_purged(void **state)
{
	struct repo_auth_client c, tmp;
	struct repo_auth_token row;
	struct token_ctx app;
	struct client who;
	char secret[CLIENT_SECRET_BYTES + 1], out[TOKEN_BYTES + 1];
	char scope[MAX_NAME_BYTES + 1];
	unsigned char h[REPO_AUTH_HASH_BYTES];
	const char *tok = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee:mt";
	int64_t now = (int64_t)time(NULL), exp;

	(void)state;
	tmp = make_client("sync", "readonly", secret);
	assert_int_equal(repo_auth_client_get_by_client_id(db, tmp.client_id,
	    &c), 0);
	crypto_generichash(h, sizeof(h), (const unsigned char *)tok,
	    strlen(tok), NULL, 0);
	/* A token that ended ten seconds ago. */
	assert_int_equal(repo_auth_token_issue(db, c.id, tok, h, now - 3610,
	    now - 10, now + 1, out, &exp), 0);
	assert_int_equal(repo_auth_token_get_by_hash(db, h, &row), 0);
	assert_int_equal(row.expires_at, now - 10);
	assert_true(row.perms == (PERM_BIT(PERM_READ_ONLY_LEAD) |
	    PERM_BIT(PERM_READ_ONLY_ASSETS) |
	    PERM_BIT(PERM_READ_ONLY_CUSTOM_OBJECT) |
	    PERM_BIT(PERM_READ_ONLY_CUSTOM_OBJECT_TYPE) |
	    PERM_BIT(PERM_ACCESS_DESIGN_STUDIO) | PERM_BIT(PERM_ACCESS_EMAIL) |
	    PERM_BIT(PERM_READ_ONLY_ACTIVITY) |
	    PERM_BIT(PERM_READ_ONLY_CAMPAIGNS)));
	app_init(&app, NULL);
	assert_int_equal(token_authenticate(&app, tok, &who),
	    -API_ERR_TOKEN_EXPIRED);
	/* The identity endpoint hands out a new one. */
	assert_int_equal(token_issue(&app, c.client_id, secret, out, &exp,
	    scope), 0);
	assert_string_not_equal(out, tok);
	assert_int_equal(token_authenticate(&app, out, &who), 0);
	/* Purging keeps recent expired tokens (602), drops old ones (601). */
	assert_int_equal(repo_auth_token_purge(db, now - 20), 0);
	assert_int_equal(repo_auth_token_get_by_hash(db, h, &row), 0);
	assert_int_equal(repo_auth_token_purge(db, now), 0);
	assert_int_equal(repo_auth_token_get_by_hash(db, h, &row),
	    -REPO_ERR_NOT_FOUND);
	token_cache_free(app.tokens);
	app.tokens = token_cache_new();
	assert_int_equal(token_authenticate(&app, tok, &who),
	    -API_ERR_TOKEN_INVALID);
	token_cache_free(app.tokens);
}

static void
test_revoke(void **state)
{
	struct repo_auth_client c, other;
	struct limiter *lim;
	struct token_ctx app;
	struct client who;
	char secret[CLIENT_SECRET_BYTES + 1], secret2[CLIENT_SECRET_BYTES + 1];
	char tok[TOKEN_BYTES + 1], tok2[TOKEN_BYTES + 1];
	char scope[MAX_NAME_BYTES + 1];
	int64_t exp;
	uint64_t e0;

	(void)state;
	lim = limiter_create(&cfg);
	assert_non_null(lim);
	app_init(&app, lim);
	c = make_client("sync", "admin", secret);
	other = make_client("other", "admin", secret2);
	assert_int_equal(token_issue(&app, c.client_id, secret, tok, &exp,
	    scope), 0);
	assert_int_equal(token_issue(&app, other.client_id, secret2, tok2,
	    &exp, scope), 0);
	limiter_tick(lim, db);
	e0 = epoch();
	assert_int_equal(limiter_auth_epoch(lim), e0);
	/* Cached now: no database needed for the next calls. */
	assert_int_equal(token_authenticate(&app, tok, &who), 0);
	assert_int_equal(repo_auth_client_revoke(db, c.client_id,
	    (int64_t)time(NULL)), 0);
	assert_int_equal(epoch(), e0 + 1);
	/* Until the limiter's sync reads the new epoch, the cache answers. */
	assert_int_equal(token_authenticate(&app, tok, &who), 0);
	usleep(20 * 1000);
	limiter_tick(lim, db);
	assert_int_equal(limiter_auth_epoch(lim), e0 + 1);
	assert_int_equal(token_authenticate(&app, tok, &who),
	    -API_ERR_TOKEN_INVALID);
	/* No new token either, even with the right secret. */
	assert_int_equal(token_issue(&app, c.client_id, secret, tok, &exp,
	    scope), -API_ERR_OAUTH_INVALID_CLIENT);
	/* The other client is untouched. */
	assert_int_equal(token_authenticate(&app, tok2, &who), 0);
	assert_string_equal(who.client_id, other.client_id);
	/* Revoked twice: not found; the epoch does not move. */
	assert_int_equal(repo_auth_client_revoke(db, c.client_id,
	    (int64_t)time(NULL)), -REPO_ERR_NOT_FOUND);
	assert_int_equal(epoch(), e0 + 1);
	assert_int_equal(repo_auth_client_get_by_client_id(db, c.client_id,
	    &other), 0);
	assert_true(other.revoked_at > 0);
	token_cache_free(app.tokens);
	limiter_destroy(lim);
}

/* Reads the test database settings; returns -1 when they are not set. */
static int
config_from_env(void)
{
	if (itest_config(&cfg) != 0)
		return -1;
	cfg.token_lifetime = 3600;
	cfg.token_suffix = (char *)"mt";
	cfg.limits_sync_ms = 10;
	cfg.host_id = (char *)"test-repo-auth";
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_seeded_roles, setup),
		cmocka_unit_test_setup(test_role_insert, setup),
		cmocka_unit_test_setup(test_client_insert_get, setup),
		cmocka_unit_test_setup(test_same_token_until_expiry, setup),
		cmocka_unit_test_setup(test_repo_issue_keeps_live_token, setup),
		cmocka_unit_test_setup(test_expired_then_purged, setup),
		cmocka_unit_test_setup(test_revoke, setup),
	};

	if (config_from_env() != 0) {
		fprintf(stderr, "MAUTO_TEST_DB_* not set: skipped\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
