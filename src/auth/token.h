/*
 * API clients and access tokens (api-behaviour.md §1).  Tokens are issued
 * by the identity endpoint, stored in MariaDB (repo_auth.c) and cached per
 * worker; the cache is dropped whenever the shared auth epoch moves
 * (client revoked or changed), which the limiter's reconciliation reads
 * from the database.
 */
#ifndef MAUTO_AUTH_TOKEN_H
#define MAUTO_AUTH_TOKEN_H

#include <stdint.h>

struct app;
struct client;
struct token_cache;

struct token_cache	*token_cache_new(void);
void			 token_cache_free(struct token_cache *tc);

/*
 * Resolves an access token to its client.  Returns 0 and fills *out, or
 * -API_ERR_TOKEN_INVALID (unknown or malformed), -API_ERR_TOKEN_EXPIRED,
 * -API_ERR_UNAVAILABLE (database unusable).  Constant-time on the secret
 * part of the comparison.
 */
int	token_authenticate(struct app *app, const char *token,
	    struct client *out);

/*
 * The identity endpoint's core: checks client_id/client_secret and returns
 * the client's live token (the same one until it expires) or a new one.
 * Fills token (TOKEN_BYTES + 1), *expires_in (seconds left) and scope
 * (MAX_NAME_BYTES + 1).  Returns 0, -API_ERR_OAUTH_INVALID_CLIENT, or
 * -API_ERR_UNAVAILABLE / -API_ERR_SYSTEM.
 */
int	token_issue(struct app *app, const char *client_id,
	    const char *client_secret, char *token, int64_t *expires_in,
	    char *scope);

#endif
