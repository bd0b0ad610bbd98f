/*
 * GET and POST /identity/oauth/token (docs/behaviour.md §1.1): the OAuth2
 * client-credentials grant.  Parameters come from the query or a form
 * body (or a JSON object body, docs/behaviour.md §0).  The body is not a
 * Marketo envelope: success is the bare token object, errors are
 * Spring-OAuth bodies rendered by response.c from the error table (401
 * invalid_client, 400 invalid_request and unsupported_grant_type; a
 * malformed request is 400 invalid_request, response.c).
 */
#include <string.h>

#include <json-c/json.h>

#include "api/api.h"
#include "auth/token.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"

/* The token object, members in the real service's order. */
static struct json_object *
token_body(const char *token, int64_t expires_in, const char *scope)
{
	struct json_object *o;

	o = json_object_new_object();
	json_object_object_add(o, "access_token",
	    json_object_new_string(token));
	json_object_object_add(o, "token_type",
	    json_object_new_string("bearer"));
	json_object_object_add(o, "expires_in",
	    json_object_new_int64(expires_in));
	json_object_object_add(o, "scope", json_object_new_string(scope));
	return o;
}

/*
 * The identity handler.  c: the call (request parameters, worker).  r:
 * receives the whole body and HTTP 200 with no-store caching headers.
 * Returns 0, -API_ERR_OAUTH_INVALID_REQUEST (no grant_type),
 * -API_ERR_OAUTH_UNSUPPORTED_GRANT, -API_ERR_OAUTH_INVALID_CLIENT (bad,
 * unknown or revoked client or secret), -API_ERR_UNAVAILABLE or
 * -API_ERR_SYSTEM.
 */
int
api_identity_token(struct call *c, struct resp *r)
{
	const char *grant, *client_id, *secret;
	char token[TOKEN_BYTES + 1], scope[MAX_NAME_BYTES + 1];
	int64_t expires_in;
	int err;

	/* Token responses must never be cached (RFC 6749 §5.1). */
	resp_header(r, "Cache-Control: no-store");
	resp_header(r, "Pragma: no-cache");
	grant = req_param(c->req, "grant_type");
	if (grant == NULL || grant[0] == '\0') {
		err = -API_ERR_OAUTH_INVALID_REQUEST;
		goto out;
	}
	if (strcmp(grant, "client_credentials") != 0) {
		err = -API_ERR_OAUTH_UNSUPPORTED_GRANT;
		goto out;
	}
	client_id = req_param(c->req, "client_id");
	secret = req_param(c->req, "client_secret");
	if ((err = token_issue(&(const struct token_ctx){ .cfg = c->app->cfg,
	    .db = c->app->db, .lim = c->app->lim, .tokens = c->app->tokens },
	    client_id, secret, token, &expires_in, scope)) != 0)
		goto out;
	r->body = token_body(token, expires_in, scope);
	r->status = 200;
	err = 0;
out:
	explicit_bzero(token, sizeof(token));
	return err;
}
