/*
 * API clients, roles, access tokens and the auth epoch (migration 0002).
 * Times are Unix seconds.  Secrets are stored only as Argon2id strings
 * (token.c makes them); tokens are keyed by their BLAKE2b hash.
 */
#ifndef MAUTO_REPO_REPO_AUTH_H
#define MAUTO_REPO_REPO_AUTH_H

#include <stddef.h>
#include <stdint.h>

#include "model/perm.h"
#include "bounds.h"

struct db;

#define REPO_AUTH_HASH_BYTES	32	/* token hash (crypto_generichash) */
#define REPO_AUTH_PWHASH_BYTES	127	/* crypto_pwhash_STRBYTES - 1 */

struct repo_auth_client {
	int64_t		 id;			/* row id */
	char		 client_id[CLIENT_ID_BYTES + 1];
	char		 name[MAX_NAME_BYTES + 1];
	char		 role[MAX_NAME_BYTES + 1];
	char		 scope[MAX_NAME_BYTES + 1];
	char		 secret_hash[REPO_AUTH_PWHASH_BYTES + 1];
	int64_t		 created_at;
	int64_t		 revoked_at;		/* 0 while live */
};

struct repo_auth_client_list {
	struct repo_auth_client	*items;
	size_t			 count;
};

struct repo_auth_role {
	char		 name[MAX_NAME_BYTES + 1];
	perm_set	 perms;			/* as granted, not expanded */
	int64_t		 created_at;
};

struct repo_auth_role_list {
	struct repo_auth_role	*items;
	size_t			 count;
};

/* What a token lookup yields. */
struct repo_auth_token {
	int64_t		 client;		/* client row id */
	char		 client_id[CLIENT_ID_BYTES + 1];
	char		 name[MAX_NAME_BYTES + 1];
	perm_set	 perms;			/* role's, not expanded */
	int64_t		 expires_at;
};

/*
 * Creates role name with the permissions perms and bumps the auth epoch,
 * in one transaction.  Returns 0, -REPO_ERR_CONFLICT when the name is
 * taken, or another negative repo_err.
 */
int	repo_auth_role_insert(struct db *db, const char *name, perm_set perms);

/*
 * Lists the roles by name into *out (owned by the caller; free with
 * repo_auth_role_list_free).  Returns 0 or a negative repo_err.
 */
int	repo_auth_role_list(struct db *db, struct repo_auth_role_list *out);
void	repo_auth_role_list_free(struct repo_auth_role_list *l);

/*
 * Inserts client c (client_id, name, role by name, scope, secret_hash,
 * created_at; id and revoked_at are ignored).  Returns 0,
 * -REPO_ERR_NOT_FOUND when the role does not exist, -REPO_ERR_CONFLICT
 * for a duplicate client_id, or another negative repo_err.
 */
int	repo_auth_client_insert(struct db *db, const struct repo_auth_client *c);

/*
 * Reads the client with the given client_id (revoked or not) into *out.
 * Returns 0, -REPO_ERR_NOT_FOUND, or another negative repo_err.
 */
int	repo_auth_client_get_by_client_id(struct db *db, const char *client_id,
	    struct repo_auth_client *out);

/*
 * Lists every client, oldest first, into *out (free with
 * repo_auth_client_list_free).  secret_hash is left empty.  Returns 0 or
 * a negative repo_err.
 */
int	repo_auth_client_list(struct db *db, struct repo_auth_client_list *out);
void	repo_auth_client_list_free(struct repo_auth_client_list *l);

/*
 * Revokes a live client at time now: marks it, deletes its tokens and
 * bumps the auth epoch, in one transaction.  Returns 0,
 * -REPO_ERR_NOT_FOUND (no such live client), or a negative repo_err.
 */
int	repo_auth_client_revoke(struct db *db, const char *client_id,
	    int64_t now);

/*
 * Looks a token up by its hash (REPO_AUTH_HASH_BYTES bytes), joined with
 * its live client and the role's permissions.  Expired tokens are found
 * too (the caller compares expires_at).  Returns 0 and fills *out,
 * -REPO_ERR_NOT_FOUND (unknown token or revoked client), or another
 * negative repo_err.
 */
int	repo_auth_token_get_by_hash(struct db *db, const unsigned char *hash,
	    struct repo_auth_token *out);

/*
 * The token of client that expires last, if it expires after
 * live_after: copies its text into token (TOKEN_BYTES + 1) and sets
 * *expires_at.  Returns 0, -REPO_ERR_NOT_FOUND, or a negative repo_err.
 */
int	repo_auth_token_get_live_by_client(struct db *db, int64_t client,
	    int64_t live_after, char *token, int64_t *expires_at);

/*
 * Issues a token for client unless another process just did: in one
 * transaction, locks the client row (the write makes concurrent issuers
 * on other Galera nodes conflict, so the loser re-runs and finds the
 * winner's token), returns its token that expires after live_after if
 * there is one, else stores the candidate (text token, hash hash,
 * issued now, expiring at expires_at).  out (TOKEN_BYTES + 1) and
 * *out_expires receive the token in force.  Returns 0,
 * -REPO_ERR_NOT_FOUND (client revoked or gone), or a negative repo_err.
 */
int	repo_auth_token_issue(struct db *db, int64_t client, const char *token,
	    const unsigned char *hash, int64_t now, int64_t expires_at,
	    int64_t live_after, char *out, int64_t *out_expires);

/*
 * Deletes up to a bounded number of tokens that expired before before.
 * Returns 0 or a negative repo_err.
 */
int	repo_auth_token_purge(struct db *db, int64_t before);

/* Reads the auth epoch into *out.  Returns 0 or a negative repo_err. */
int	repo_auth_epoch_get(struct db *db, uint64_t *out);

/*
 * Fault plans (fault_injection, docs/operating.md): plans count calls of the
 * live client client_id to answer the service code code.  Returns 0,
 * -REPO_ERR_NOT_FOUND (no such live client), or a negative repo_err.
 */
int	repo_auth_fault_insert(struct db *db, const char *client_id, int code,
	    int count);
/*
 * Takes the oldest planned fault of the client with row id client: *code
 * is its code, or 0 when none is planned.  Returns 0 or a negative
 * repo_err.
 */
int	repo_auth_fault_delete_next(struct db *db, int64_t client, int *code);
/* Drops the planned faults of client_id; *n of them.  0 or a repo_err. */
int	repo_auth_fault_delete_by_client_id(struct db *db,
	    const char *client_id, uint64_t *n);

#endif
