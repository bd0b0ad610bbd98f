/*
 * Client credentials and access tokens (docs/behaviour.md §1).
 *
 * Secrets are stored only as Argon2id strings.  Verifying one costs tens
 * of milliseconds on purpose, so after a successful verify a worker
 * remembers a keyed BLAKE2b digest of (client_id, stored hash, secret)
 * and later compares digests in constant time; the digest key is random
 * per worker, and the cache is dropped when the auth epoch moves.
 *
 * Tokens are BLAKE2b-hashed and looked up by hash (repo_auth.c explains
 * the storage).  A worker keeps the tokens it has seen in a small
 * open-addressing table keyed by that hash, so a steady stream of calls
 * with the same token costs no database round trip.  An entry dies at
 * its token's expiry, and the whole table when limiter_auth_epoch()
 * moves (a client was revoked or a role changed), which every worker
 * notices within one limits_sync_ms.
 *
 * XXX: an unknown client_id answers faster than a known one with a wrong
 * secret (no Argon2 run), which tells an attacker that an id exists.
 * Client ids are random UUIDs and not secret in OAuth, and running
 * Argon2 for every unknown id would hand out a cheap way to burn CPU.
 */
#include <assert.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "auth/ratelimit.h"
#include "auth/token.h"
#include "bounds.h"
#include "call.h"
#include "err.h"
#include "repo/repo.h"
#include "repo/repo_auth.h"
#include "util/config.h"
#include "util/log.h"
#include "util/xmalloc.h"

/*
 * Argon2id cost.  32 MiB and 5 passes take 60-75 ms on this project's
 * reference machine (2 cores): slow enough to make guessing from a stolen
 * table expensive, fast enough for a token call that happens about once
 * an hour per client, and at most 32 MiB of RAM per worker while it runs
 * (so 16 workers verifying at once stay near 512 MiB).  The secrets are
 * 32 random alphanumerics (~190 bits), so the hash is defence in depth.
 */
#define PWHASH_OPSLIMIT	5
#define PWHASH_MEMLIMIT	(32u * 1024 * 1024)

#define HASH_BYTES	REPO_AUTH_HASH_BYTES

static_assert(crypto_pwhash_STRBYTES == REPO_AUTH_PWHASH_BYTES + 1,
    "the stored hash column fits crypto_pwhash_str");
static_assert((TOKEN_CACHE_SLOTS & (TOKEN_CACHE_SLOTS - 1)) == 0,
    "TOKEN_CACHE_SLOTS is a power of two");

struct token_entry {
	bool		 used;
	unsigned char	 hash[HASH_BYTES];
	int64_t		 expires_at;
	struct client	 client;
};

struct secret_entry {
	bool		 used;
	char		 client_id[CLIENT_ID_BYTES + 1];
	unsigned char	 digest[HASH_BYTES];
};

struct token_cache {
	uint64_t		 epoch;
	struct token_entry	 tokens[TOKEN_CACHE_SLOTS];
	struct secret_entry	 secrets[SECRET_CACHE_SLOTS];
	unsigned		 secret_next;	/* next slot to replace */
	unsigned char		 key[crypto_generichash_KEYBYTES];
};

/*
 * Makes an empty cache with a fresh digest key.  Returns an owned cache
 * for token_cache_free (ends the process when memory or libsodium's
 * initialisation fails: a worker cannot run without it).
 */
struct token_cache *
token_cache_new(void)
{
	struct token_cache *tc;

	if (sodium_init() < 0)
		fatal("token: libsodium initialisation failed");
	tc = xcalloc(1, sizeof(*tc));
	randombytes_buf(tc->key, sizeof(tc->key));
	return tc;
}

/* Wipes and frees tc; accepts NULL. */
void
token_cache_free(struct token_cache *tc)
{
	if (tc == NULL)
		return;
	sodium_memzero(tc, sizeof(*tc));
	free(tc);
}

static void
cache_flush(struct token_cache *tc)
{
	sodium_memzero(tc->tokens, sizeof(tc->tokens));
	sodium_memzero(tc->secrets, sizeof(tc->secrets));
	tc->secret_next = 0;
}

/* Drops everything when the auth epoch moved since the last look. */
static void
cache_sync(struct token_cache *tc, const struct limiter *lim)
{
	uint64_t e = limiter_auth_epoch(lim);

	if (e != tc->epoch) {
		cache_flush(tc);
		tc->epoch = e;
	}
}

/* The first slot of a hash's probe window (the hash is uniform). */
static size_t
cache_home(const unsigned char *hash)
{
	uint64_t h;

	memcpy(&h, hash, sizeof(h));
	return (size_t)(h & (TOKEN_CACHE_SLOTS - 1));
}

/* The entry of hash, or NULL; every slot of the window is compared. */
static struct token_entry *
cache_find(struct token_cache *tc, const unsigned char *hash)
{
	struct token_entry *e, *found = NULL;
	size_t i, home = cache_home(hash);

	for (i = 0; i < TOKEN_CACHE_PROBES; i++) {
		e = &tc->tokens[(home + i) & (TOKEN_CACHE_SLOTS - 1)];
		if (e->used && sodium_memcmp(e->hash, hash, HASH_BYTES) == 0)
			found = e;
	}
	return found;
}

/*
 * Stores an entry in hash's window: a free slot, else the entry that
 * expires first (the window bounds the table, no tombstones needed).
 */
static void
cache_put(struct token_cache *tc, const unsigned char *hash,
    const struct client *c, int64_t expires_at)
{
	struct token_entry *e, *victim = NULL;
	size_t i, home = cache_home(hash);

	for (i = 0; i < TOKEN_CACHE_PROBES; i++) {
		e = &tc->tokens[(home + i) & (TOKEN_CACHE_SLOTS - 1)];
		if (!e->used) {
			victim = e;
			break;
		}
		if (victim == NULL || e->expires_at < victim->expires_at)
			victim = e;
	}
	victim->used = true;
	memcpy(victim->hash, hash, HASH_BYTES);
	victim->expires_at = expires_at;
	victim->client = *c;
}

static void
token_hash(unsigned char *out, const char *token, size_t len)
{
	crypto_generichash(out, HASH_BYTES, (const unsigned char *)token, len,
	    NULL, 0);
}

/* See token.h.  token: as sent. */
int
token_authenticate(const struct token_ctx *tx, const char *token, struct client *out)
{
	struct token_cache *tc = tx->tokens;
	struct token_entry *e;
	struct repo_auth_token row;
	unsigned char hash[HASH_BYTES];
	size_t len;
	int64_t now;
	int r = -API_ERR_TOKEN_INVALID;

	memset(out, 0, sizeof(*out));
	if (token == NULL || (len = strlen(token)) == 0 || len > TOKEN_BYTES)
		goto out;
	token_hash(hash, token, len);
	cache_sync(tc, tx->lim);
	now = (int64_t)time(NULL);
	if ((e = cache_find(tc, hash)) != NULL) {
		if (now < e->expires_at) {
			*out = e->client;
			r = 0;
		} else {
			*out = e->client;	/* named in the caller's log */
			sodium_memzero(e, sizeof(*e));
			r = -API_ERR_TOKEN_EXPIRED;
		}
		goto out;
	}
	r = repo_auth_token_get_by_hash(tx->db, hash, &row);
	if (r == -REPO_ERR_NOT_FOUND) {
		r = -API_ERR_TOKEN_INVALID;
		goto out;
	}
	if (r != 0) {
		r = err_from_repo(r);
		goto out;
	}
	out->id = row.client;
	memcpy(out->client_id, row.client_id, sizeof(out->client_id));
	memcpy(out->name, row.name, sizeof(out->name));
	out->perms = perm_expand(row.perms);
	if (now >= row.expires_at) {
		r = -API_ERR_TOKEN_EXPIRED;
		goto out;
	}
	cache_put(tc, hash, out, row.expires_at);
	r = 0;
out:
	sodium_memzero(hash, sizeof(hash));
	return r;
}

/*
 * The digest of a verified (client, stored hash, secret) under key
 * (keylen bytes), outlen bytes long.
 */
static void
keyed_digest(const unsigned char *key, size_t keylen, size_t outlen,
    const struct repo_auth_client *c, const char *secret, unsigned char *out)
{
	crypto_generichash_state st;

	crypto_generichash_init(&st, key, keylen, outlen);
	crypto_generichash_update(&st, (const unsigned char *)c->client_id,
	    strlen(c->client_id) + 1);
	crypto_generichash_update(&st, (const unsigned char *)c->secret_hash,
	    strlen(c->secret_hash) + 1);
	crypto_generichash_update(&st, (const unsigned char *)secret,
	    strlen(secret));
	crypto_generichash_final(&st, out, outlen);
	sodium_memzero(&st, sizeof(st));
}

/* The digest of secret for c under this worker's key. */
static void
secret_digest(const struct token_cache *tc, const struct repo_auth_client *c,
    const char *secret, unsigned char *out)
{
	keyed_digest(tc->key, sizeof(tc->key), HASH_BYTES, c, secret, out);
}

/*
 * The host-wide digest of secret for c (keyed with the limiter's key,
 * the same in every worker), or NULL when there is no limiter.
 */
static const unsigned char *
host_digest(const struct token_ctx *tx, const struct repo_auth_client *c,
    const char *secret, unsigned char *out)
{
	const unsigned char *key = limiter_auth_key(tx->lim);

	static_assert(AUTH_DIGEST_BYTES >= crypto_generichash_BYTES_MIN &&
	    AUTH_DIGEST_BYTES <= crypto_generichash_BYTES_MAX &&
	    AUTH_DIGEST_BYTES >= crypto_generichash_KEYBYTES_MIN,
	    "AUTH_DIGEST_BYTES suits BLAKE2b");
	if (key == NULL)
		return NULL;
	keyed_digest(key, AUTH_DIGEST_BYTES, AUTH_DIGEST_BYTES, c, secret, out);
	return out;
}

/*
 * Whether secret is c's: a cached digest when this worker verified it
 * before, else Argon2id (and the digest is remembered).  While the
 * host's limiter holds c's client id locked out after repeated wrong
 * secrets (bounds.h, AUTH_FAIL_*), a secret that is not the one last
 * verified on this host is refused without the Argon2id check: a
 * guessing loop then costs nothing and gains nothing, and the client
 * that knows its secret is not slowed.
 */
static bool
secret_ok(const struct token_ctx *tx, const struct repo_auth_client *c,
    const char *secret)
{
	struct token_cache *tc = tx->tokens;
	struct secret_entry *e = NULL;
	unsigned char digest[HASH_BYTES], hbuf[AUTH_DIGEST_BYTES];
	const unsigned char *hd;
	size_t i;
	bool ok = false;

	secret_digest(tc, c, secret, digest);
	for (i = 0; i < SECRET_CACHE_SLOTS && e == NULL; i++)
		if (tc->secrets[i].used &&
		    strcmp(tc->secrets[i].client_id, c->client_id) == 0)
			e = &tc->secrets[i];
	if (e != NULL && sodium_memcmp(e->digest, digest, HASH_BYTES) == 0) {
		ok = true;
		goto out;
	}
	hd = host_digest(tx, c, secret, hbuf);
	if (limiter_auth_locked(tx->lim, c->client_id, hd))
		goto out;
	if (crypto_pwhash_str_verify(c->secret_hash, secret,
	    strlen(secret)) != 0) {
		if (limiter_auth_failed(tx->lim, c->client_id))
			log_warn("auth: %d wrong client secrets for client id "
			    "%s: other secrets than its last good one are "
			    "refused unchecked for %d s", AUTH_FAIL_MAX,
			    c->client_id, AUTH_LOCK_MS / 1000);
		goto out;
	}
	limiter_auth_succeeded(tx->lim, c->client_id, hd);
	ok = true;
	if (e == NULL) {
		e = &tc->secrets[tc->secret_next];
		tc->secret_next = (tc->secret_next + 1) % SECRET_CACHE_SLOTS;
	}
	e->used = true;
	memcpy(e->client_id, c->client_id, sizeof(e->client_id));
	memcpy(e->digest, digest, HASH_BYTES);
out:
	sodium_memzero(digest, sizeof(digest));
	sodium_memzero(hbuf, sizeof(hbuf));
	return ok;
}

/* Writes a random UUID v4 in lower-case text (CLIENT_ID_BYTES + 1). */
static void
uuid_v4(char *out)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char b[16];
	size_t i, o = 0;

	randombytes_buf(b, sizeof(b));
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
	for (i = 0; i < sizeof(b); i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[o++] = '-';
		out[o++] = hex[b[i] >> 4];
		out[o++] = hex[b[i] & 0x0f];
	}
	out[o] = '\0';
}

/*
 * A fresh token "<uuid>:<suffix>" into out (TOKEN_BYTES + 1).  Returns 0,
 * or -API_ERR_SYSTEM when the configured suffix does not fit.
 */
static int
token_make(const struct config *cfg, char *out)
{
	const char *suffix = cfg->token_suffix != NULL ? cfg->token_suffix : "";
	size_t slen = strlen(suffix);
	int r = -API_ERR_SYSTEM;

	if (CLIENT_ID_BYTES + 1 + slen > TOKEN_BYTES) {
		log_err("token: token_suffix is too long");
		goto out;
	}
	uuid_v4(out);
	if (slen > 0) {
		out[CLIENT_ID_BYTES] = ':';
		memcpy(out + CLIENT_ID_BYTES + 1, suffix, slen + 1);
	}
	r = 0;
out:
	return r;
}

/*
 * Issues a new token for client c unless a live one appeared meanwhile;
 * purges long-expired tokens afterwards.  Fills token and *expires_at.
 */
static int
token_new(const struct token_ctx *tx, const struct repo_auth_client *c, int64_t now,
    char *token, int64_t *expires_at)
{
	char cand[TOKEN_BYTES + 1];
	unsigned char hash[HASH_BYTES];
	int64_t lifetime;
	int r;

	lifetime = tx->cfg->token_lifetime > 0 ? tx->cfg->token_lifetime :
	    TOKEN_LIFETIME_SECS;
	if ((r = token_make(tx->cfg, cand)) != 0)
		goto out;
	token_hash(hash, cand, strlen(cand));
	r = repo_auth_token_issue(tx->db, c->id, cand, hash, now,
	    now + lifetime, now + 1, token, expires_at);
	if (r == -REPO_ERR_NOT_FOUND) {
		r = -API_ERR_OAUTH_INVALID_CLIENT;
		goto out;
	}
	if (r != 0) {
		r = err_from_repo(r);
		goto out;
	}
	/* Housekeeping; a failure here does not fail the call. */
	(void)repo_auth_token_purge(tx->db, now - TOKEN_KEEP_EXPIRED_SECS);
out:
	sodium_memzero(cand, sizeof(cand));
	return r;
}

/*
 * See token.h.  The token returned is the client's live one while it has
 * more than a second to go (so expires_in is at least 1), else a new one;
 * expires_in counts down from token_lifetime - 1 like the real service.
 */
int
token_issue(const struct token_ctx *tx, const char *client_id, const char *client_secret,
    char *token, int64_t *expires_in, char *scope)
{
	struct repo_auth_client c;
	int64_t now, expires_at = 0;
	size_t slen;
	int r = -API_ERR_OAUTH_INVALID_CLIENT;

	token[0] = '\0';
	scope[0] = '\0';
	*expires_in = 0;
	memset(&c, 0, sizeof(c));
	if (client_id == NULL || client_secret == NULL ||
	    strlen(client_id) != CLIENT_ID_BYTES ||
	    (slen = strlen(client_secret)) == 0 ||
	    slen > CLIENT_SECRET_MAX_BYTES)
		goto out;
	cache_sync(tx->tokens, tx->lim);
	r = repo_auth_client_get_by_client_id(tx->db, client_id, &c);
	if (r == -REPO_ERR_NOT_FOUND) {
		r = -API_ERR_OAUTH_INVALID_CLIENT;
		goto out;
	}
	if (r != 0) {
		r = err_from_repo(r);
		goto out;
	}
	r = -API_ERR_OAUTH_INVALID_CLIENT;
	if (c.revoked_at != 0 || !secret_ok(tx, &c, client_secret))
		goto out;
	now = (int64_t)time(NULL);
	r = repo_auth_token_get_live_by_client(tx->db, c.id, now + 1, token,
	    &expires_at);
	if (r == -REPO_ERR_NOT_FOUND)
		r = token_new(tx, &c, now, token, &expires_at);
	else if (r != 0)
		r = err_from_repo(r);
	if (r != 0)
		goto out;
	*expires_in = expires_at - now - 1;
	memcpy(scope, c.scope, sizeof(c.scope));
	r = 0;
out:
	if (r != 0)
		token[0] = '\0';
	sodium_memzero(&c, sizeof(c));
	return r;
}

/* See token.h. */
void
token_client_id_new(char *client_id)
{
	uuid_v4(client_id);
}

/* See token.h. */
int
token_secret_hash(const char *secret, char *secret_hash)
{
	int r = -API_ERR_SYSTEM;

	secret_hash[0] = '\0';
	if (sodium_init() < 0) {
		log_err("token: libsodium initialisation failed");
		goto out;
	}
	if (crypto_pwhash_str_alg(secret_hash, secret, strlen(secret),
	    PWHASH_OPSLIMIT, PWHASH_MEMLIMIT,
	    crypto_pwhash_ALG_ARGON2ID13) != 0) {
		log_err("token: crypto_pwhash_str failed (out of memory?)");
		goto out;
	}
	r = 0;
out:
	return r;
}

/* See token.h. */
int
token_client_new(char *client_id, char *secret, char *secret_hash)
{
	static const char alnum[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	size_t i;
	int r = -API_ERR_SYSTEM;

	client_id[0] = secret[0] = secret_hash[0] = '\0';
	if (sodium_init() < 0) {
		log_err("token: libsodium initialisation failed");
		goto out;
	}
	uuid_v4(client_id);
	for (i = 0; i < CLIENT_SECRET_BYTES; i++)
		secret[i] = alnum[randombytes_uniform(sizeof(alnum) - 1)];
	secret[CLIENT_SECRET_BYTES] = '\0';
	r = token_secret_hash(secret, secret_hash);
out:
	if (r != 0)
		sodium_memzero(secret, CLIENT_SECRET_BYTES + 1);
	return r;
}
