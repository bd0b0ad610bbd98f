/*
 * API clients and access tokens (docs/behaviour.md §1).  Tokens are issued
 * by the identity endpoint, stored in MariaDB (repo_auth.c) and cached per
 * worker; the cache is dropped whenever the shared auth epoch moves
 * (client revoked or changed), which the limiter's reconciliation reads
 * from the database.
 */
#ifndef MAUTO_AUTH_TOKEN_H
#define MAUTO_AUTH_TOKEN_H

#include <stdint.h>

struct client;
struct config;
struct db;
struct limiter;
struct token_cache;

/*
 * What token checking uses, handed in by the caller (borrowed): the
 * configuration, the worker's connection, the host's limiter (whose
 * reconciliation carries the auth epoch) and the worker's token cache.
 */
struct token_ctx {
	const struct config	*cfg;
	struct db		*db;
	struct limiter		*lim;
	struct token_cache	*tokens;
};

struct token_cache	*token_cache_new(void);
void			 token_cache_free(struct token_cache *tc);

/*
 * Resolves an access token to its client.  Returns 0 and fills *out, or
 * -API_ERR_TOKEN_INVALID (unknown or malformed), -API_ERR_TOKEN_EXPIRED
 * (*out then names the client the token was issued to),
 * -API_ERR_UNAVAILABLE (database unusable).  Constant-time on the secret
 * part of the comparison.
 */
int	token_authenticate(const struct token_ctx *tx, const char *token,
	    struct client *out);

/*
 * The identity endpoint's core: checks client_id/client_secret and returns
 * the client's live token (the same one until it expires) or a new one.
 * Fills token (TOKEN_BYTES + 1), *expires_in (seconds left) and scope
 * (MAX_NAME_BYTES + 1).  Returns 0, -API_ERR_OAUTH_INVALID_CLIENT, or
 * -API_ERR_UNAVAILABLE / -API_ERR_SYSTEM.
 */
int	token_issue(const struct token_ctx *tx, const char *client_id,
	    const char *client_secret, char *token, int64_t *expires_in,
	    char *scope);

/*
 * Makes a new API client's credentials: client_id (CLIENT_ID_BYTES + 1,
 * a UUID v4), secret (CLIENT_SECRET_BYTES + 1, random alphanumerics) and
 * secret_hash (REPO_AUTH_PWHASH_BYTES + 1, its Argon2id string, the only
 * form that is stored).  Returns 0, or -API_ERR_SYSTEM (logged) when
 * libsodium fails.  The caller wipes secret after printing it.
 */
int	token_client_new(char *client_id, char *secret, char *secret_hash);

/*
 * A new client id (CLIENT_ID_BYTES + 1, a UUID v4), as token_client_new
 * makes; for a client whose secret the operator gives.
 */
void	token_client_id_new(char *client_id);

/*
 * The Argon2id string of a secret given by the operator (mautoctl client
 * create --secret) into secret_hash (REPO_AUTH_PWHASH_BYTES + 1), the
 * same form token_client_new stores.  Returns 0, or -API_ERR_SYSTEM
 * (logged) when libsodium fails.
 */
int	token_secret_hash(const char *secret, char *secret_hash);

/* Token cache of one worker: slots, and slots probed per lookup. */
#define TOKEN_CACHE_SLOTS	256
#define TOKEN_CACHE_PROBES	8
/* Verified client secrets remembered by one worker. */
#define SECRET_CACHE_SLOTS	32
/* Longest client_secret looked at; longer ones are simply wrong. */
#define CLIENT_SECRET_MAX_BYTES	256
/* Expired tokens stay this long, so they answer 602 and not 601. */
#define TOKEN_KEEP_EXPIRED_SECS	(7 * 24 * 3600)

#endif
