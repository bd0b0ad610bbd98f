/*
 * Clients, roles, tokens and the auth epoch (migration 0002_auth.sql).
 *
 * Tokens are looked up by the BLAKE2b hash of their text (the primary
 * key), so the database compares hashes, never the secret text, and the
 * lookup time says nothing about how much of a guessed token matched.
 * The row also keeps the token text itself: the identity endpoint must
 * hand back the SAME token until it expires (docs/behaviour.md §1.1),
 * which a hash alone cannot do.  The trade-off: whoever can read
 * auth_token can use the live tokens in it for up to token_lifetime, as
 * they could with any bearer-token store; client secrets, which live
 * much longer, are stored only as Argon2id strings.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mysql.h>

#include "db/bind.h"
#include "db/pool.h"
#include "repo/repo.h"
#include "repo/repo_auth.h"
#include "util/log.h"
#include "util/xmalloc.h"

enum auth_stmt {
	AUTH_STMT_ROLE_INSERT,
	AUTH_STMT_ROLE_PERM_INSERT,
	AUTH_STMT_ROLE_LIST,
	AUTH_STMT_CLIENT_INSERT,
	AUTH_STMT_CLIENT_GET_BY_CLIENT_ID,
	AUTH_STMT_CLIENT_LIST,
	AUTH_STMT_CLIENT_REVOKE,
	AUTH_STMT_CLIENT_LOCK,
	AUTH_STMT_TOKEN_DELETE_BY_CLIENT_ID,
	AUTH_STMT_TOKEN_GET_BY_HASH,
	AUTH_STMT_TOKEN_GET_LIVE_BY_CLIENT,
	AUTH_STMT_TOKEN_INSERT,
	AUTH_STMT_TOKEN_PURGE,
	AUTH_STMT_EPOCH_GET,
	AUTH_STMT_EPOCH_BUMP,
	AUTH_STMT_FAULT_INSERT,
	AUTH_STMT_FAULT_DELETE_NEXT,
	AUTH_STMT_FAULT_DELETE_BY_CLIENT_ID,
	AUTH_STMT__MAX
};

/* The client columns, in the order client_fill reads them. */
#define CLIENT_COLS \
	"c.id, c.client_id, c.name, r.name, c.scope, c.secret_hash, " \
	"c.created_at, c.revoked_at "

static const char *const sql[AUTH_STMT__MAX] = {
	[AUTH_STMT_ROLE_INSERT] =
	    "INSERT INTO auth_role (name, created_at) VALUES (?, ?)",
	[AUTH_STMT_ROLE_PERM_INSERT] =
	    "INSERT INTO auth_role_perm (role_id, perm) VALUES (?, ?)",
	[AUTH_STMT_ROLE_LIST] =
	    "SELECT r.name, r.created_at, p.perm FROM auth_role r "
	    "LEFT JOIN auth_role_perm p ON p.role_id = r.id "
	    "ORDER BY r.name, r.id",
	[AUTH_STMT_CLIENT_INSERT] =
	    "INSERT INTO auth_client "
	    "(client_id, name, role_id, scope, secret_hash, created_at) "
	    "SELECT ?, ?, r.id, ?, ?, ? FROM auth_role r WHERE r.name = ?",
	[AUTH_STMT_CLIENT_GET_BY_CLIENT_ID] =
	    "SELECT " CLIENT_COLS "FROM auth_client c "
	    "JOIN auth_role r ON r.id = c.role_id WHERE c.client_id = ?",
	[AUTH_STMT_CLIENT_LIST] =
	    "SELECT " CLIENT_COLS "FROM auth_client c "
	    "JOIN auth_role r ON r.id = c.role_id ORDER BY c.created_at, c.id",
	[AUTH_STMT_CLIENT_REVOKE] =
	    "UPDATE auth_client SET revoked_at = ? "
	    "WHERE client_id = ? AND revoked_at IS NULL",
	[AUTH_STMT_CLIENT_LOCK] =
	    "UPDATE auth_client SET token_issues = token_issues + 1 "
	    "WHERE id = ? AND revoked_at IS NULL",
	[AUTH_STMT_TOKEN_DELETE_BY_CLIENT_ID] =
	    "DELETE FROM auth_token WHERE client_ref = "
	    "(SELECT id FROM auth_client WHERE client_id = ?)",
	[AUTH_STMT_TOKEN_GET_BY_HASH] =
	    "SELECT c.id, c.client_id, c.name, t.expires_at, p.perm "
	    "FROM auth_token t "
	    "JOIN auth_client c ON c.id = t.client_ref "
	    "AND c.revoked_at IS NULL "
	    "LEFT JOIN auth_role_perm p ON p.role_id = c.role_id "
	    "WHERE t.token_hash = ?",
	[AUTH_STMT_TOKEN_GET_LIVE_BY_CLIENT] =
	    "SELECT token, expires_at FROM auth_token "
	    "WHERE client_ref = ? AND expires_at > ? "
	    "ORDER BY expires_at DESC LIMIT 1",
	[AUTH_STMT_TOKEN_INSERT] =
	    "INSERT INTO auth_token "
	    "(token_hash, client_ref, token, issued_at, expires_at) "
	    "VALUES (?, ?, ?, ?, ?)",
	[AUTH_STMT_TOKEN_PURGE] =
	    "DELETE FROM auth_token WHERE expires_at < ? LIMIT ?",
	[AUTH_STMT_EPOCH_GET] =
	    "SELECT value FROM auth_epoch WHERE id = 1",
	[AUTH_STMT_EPOCH_BUMP] =
	    "UPDATE auth_epoch SET value = value + 1 WHERE id = 1",
	[AUTH_STMT_FAULT_INSERT] =
	    "INSERT INTO auth_fault (client_ref, code) "
	    "SELECT id, ? FROM auth_client "
	    "WHERE client_id = ? AND revoked_at IS NULL",
	/* One statement takes the oldest row: two workers never share it. */
	[AUTH_STMT_FAULT_DELETE_NEXT] =
	    "DELETE FROM auth_fault WHERE client_ref = ? "
	    "ORDER BY id LIMIT 1 RETURNING code",
	[AUTH_STMT_FAULT_DELETE_BY_CLIENT_ID] =
	    "DELETE FROM auth_fault WHERE client_ref = "
	    "(SELECT id FROM auth_client WHERE client_id = ?)",
};

const struct db_stmt_set repo_auth_sql = {
	.name = "auth",
	.sql = sql,
	.n = AUTH_STMT__MAX,
};

/* Tokens deleted by one purge, so a purge stays a small transaction. */
#define TOKEN_PURGE_BATCH	1000

static MYSQL_STMT *
stmt(struct db *db, enum auth_stmt s)
{
	return db_stmt(db, REPO_AUTH, (int)s);
}

/* An output string column: buffer, length and NULL flag. */
struct col {
	char		*buf;
	size_t		 size;
	unsigned long	 len;
	my_bool		 is_null;
};

static void
col_bind(MYSQL_BIND *b, struct col *c, char *buf, size_t size)
{
	c->buf = buf;
	c->size = size;
	c->len = 0;
	c->is_null = 0;
	bind_out_str(b, buf, size - 1, &c->len, &c->is_null);
}

/* Terminates a fetched string column ("" for NULL). */
static void
col_end(struct col *c)
{
	size_t n = c->is_null ? 0 : c->len;

	if (n > c->size - 1)
		n = c->size - 1;
	c->buf[n] = '\0';
}

/*
 * Fetches the next row of an executed statement into the bound result.
 * Returns 0, -REPO_ERR_NOT_FOUND at the end, or a negative repo_err
 * (a value too long for its buffer is an internal error).
 */
static int
fetch(struct db *db, MYSQL_STMT *st, const char *where)
{
	int e, r;

	e = mysql_stmt_fetch(st);
	if (e == 0)
		r = 0;
	else if (e == MYSQL_NO_DATA)
		r = -REPO_ERR_NOT_FOUND;
	else if (e == MYSQL_DATA_TRUNCATED) {
		log_err("%s: a column is longer than its buffer", where);
		r = -REPO_ERR_INTERNAL;
	} else
		r = db_error(db, st, where);
	return r;
}

/* Runs st with params and binds its result columns. */
static int
exec_select(struct db *db, MYSQL_STMT *st, MYSQL_BIND *params,
    MYSQL_BIND *result, const char *where)
{
	int r;

	if ((r = db_exec(db, st, params, where)) == 0 &&
	    mysql_stmt_bind_result(st, result) != 0) {
		r = db_error(db, st, where);
		mysql_stmt_free_result(st);
	}
	return r;
}

/* Runs a write and returns the rows it matched in *rows. */
static int
exec_write(struct db *db, MYSQL_STMT *st, MYSQL_BIND *params,
    uint64_t *rows, const char *where)
{
	int r;

	*rows = 0;
	if ((r = db_exec(db, st, params, where)) == 0)
		*rows = (uint64_t)mysql_stmt_affected_rows(st);
	return r;
}

static int
epoch_bump(struct db *db)
{
	uint64_t rows;
	int r;

	r = exec_write(db, stmt(db, AUTH_STMT_EPOCH_BUMP), NULL, &rows,
	    "repo_auth epoch bump");
	if (r == 0 && rows != 1) {
		log_err("repo_auth: the auth_epoch row is missing");
		r = -REPO_ERR_INTERNAL;
	}
	return r;
}

/* ------------------------------------------------------------------ */
/* Roles */

struct role_insert_arg {
	const char	*name;
	perm_set	 perms;
	int64_t		 now;
};

static int
role_insert_tx(struct db *db, void *arg)
{
	struct role_insert_arg *a = arg;
	MYSQL_BIND in[2];
	unsigned long name_len = strlen(a->name), perm_len;
	int64_t role_id;
	uint64_t rows;
	const char *pname;
	size_t p;
	int r;

	bind_str(&in[0], a->name, &name_len);
	bind_i64(&in[1], &a->now);
	if ((r = exec_write(db, stmt(db, AUTH_STMT_ROLE_INSERT), in, &rows,
	    "repo_auth_role_insert")) != 0)
		goto out;
	role_id = (int64_t)mysql_stmt_insert_id(stmt(db,
	    AUTH_STMT_ROLE_INSERT));
	for (p = 0; p < PERM__MAX; p++) {
		if (!(a->perms & PERM_BIT(p)))
			continue;
		pname = perm_name((enum perm)p);
		perm_len = strlen(pname);
		bind_i64(&in[0], &role_id);
		bind_str(&in[1], pname, &perm_len);
		if ((r = exec_write(db, stmt(db, AUTH_STMT_ROLE_PERM_INSERT),
		    in, &rows, "repo_auth_role_insert perm")) != 0)
			goto out;
	}
	r = epoch_bump(db);
out:
	return r;
}

/* See repo_auth.h. */
int
repo_auth_role_insert(struct db *db, const char *name, perm_set perms)
{
	struct role_insert_arg a = {
		.name = name,
		.perms = perms & PERM_ALL,
		.now = (int64_t)time(NULL),
	};

	return db_run_tx(db, role_insert_tx, &a, false);
}

/* Adds the permission named name to *set; unknown names are logged. */
static void
perm_add(perm_set *set, const char *name, const char *where)
{
	enum perm p;

	if (name[0] == '\0')
		return;
	if (perm_parse(name, &p) == 0)
		*set |= PERM_BIT(p);
	else
		log_warn("%s: unknown permission in the database ignored",
		    where);
}

/* See repo_auth.h. */
int
repo_auth_role_list(struct db *db, struct repo_auth_role_list *out)
{
	MYSQL_STMT *st;
	MYSQL_BIND res[3];
	struct col cname, cperm;
	char name[MAX_NAME_BYTES + 1], perm[MAX_NAME_BYTES + 1];
	int64_t created;
	my_bool created_null;
	size_t cap = 0;
	int r;

	out->items = NULL;
	out->count = 0;
	if ((r = db_ensure(db)) != 0)
		goto out;
	st = stmt(db, AUTH_STMT_ROLE_LIST);
	col_bind(&res[0], &cname, name, sizeof(name));
	bind_out_i64(&res[1], &created, &created_null);
	col_bind(&res[2], &cperm, perm, sizeof(perm));
	if ((r = exec_select(db, st, NULL, res, "repo_auth_role_list")) != 0)
		goto out;
	while ((r = fetch(db, st, "repo_auth_role_list")) == 0) {
		col_end(&cname);
		col_end(&cperm);
		if (out->count == 0 ||
		    strcmp(out->items[out->count - 1].name, name) != 0) {
			if (out->count == cap) {
				cap = cap == 0 ? 8 : cap * 2;
				out->items = xrealloc(out->items,
				    cap * sizeof(*out->items));
			}
			memset(&out->items[out->count], 0,
			    sizeof(out->items[0]));
			memcpy(out->items[out->count].name, name,
			    sizeof(name));
			out->items[out->count].created_at = created;
			out->count++;
		}
		perm_add(&out->items[out->count - 1].perms, perm,
		    "repo_auth_role_list");
	}
	mysql_stmt_free_result(st);
	if (r == -REPO_ERR_NOT_FOUND)
		r = 0;
out:
	if (r != 0)
		repo_auth_role_list_free(out);
	return r;
}

/* Frees the items of l and empties it; accepts an empty list. */
void
repo_auth_role_list_free(struct repo_auth_role_list *l)
{
	free(l->items);
	l->items = NULL;
	l->count = 0;
}

/* ------------------------------------------------------------------ */
/* Clients */

/* Binds the CLIENT_COLS result columns to *c. */
struct client_cols {
	struct col	 client_id, name, role, scope, hash;
	my_bool		 id_null, created_null, revoked_null;
};

static void
client_bind(MYSQL_BIND *res, struct client_cols *cc,
    struct repo_auth_client *c)
{
	bind_out_i64(&res[0], &c->id, &cc->id_null);
	col_bind(&res[1], &cc->client_id, c->client_id, sizeof(c->client_id));
	col_bind(&res[2], &cc->name, c->name, sizeof(c->name));
	col_bind(&res[3], &cc->role, c->role, sizeof(c->role));
	col_bind(&res[4], &cc->scope, c->scope, sizeof(c->scope));
	col_bind(&res[5], &cc->hash, c->secret_hash, sizeof(c->secret_hash));
	bind_out_i64(&res[6], &c->created_at, &cc->created_null);
	bind_out_i64(&res[7], &c->revoked_at, &cc->revoked_null);
}

/* Completes a fetched client row. */
static void
client_fill(struct client_cols *cc, struct repo_auth_client *c)
{
	col_end(&cc->client_id);
	col_end(&cc->name);
	col_end(&cc->role);
	col_end(&cc->scope);
	col_end(&cc->hash);
	if (cc->revoked_null)
		c->revoked_at = 0;
}

/* See repo_auth.h. */
int
repo_auth_client_insert(struct db *db, const struct repo_auth_client *c)
{
	MYSQL_BIND in[6];
	unsigned long lid, lname, lscope, lhash, lrole;
	uint64_t rows;
	int r;

	if ((r = db_ensure(db)) != 0)
		goto out;
	lid = strlen(c->client_id);
	lname = strlen(c->name);
	lscope = strlen(c->scope);
	lhash = strlen(c->secret_hash);
	lrole = strlen(c->role);
	bind_str(&in[0], c->client_id, &lid);
	bind_str(&in[1], c->name, &lname);
	bind_str(&in[2], c->scope, &lscope);
	bind_str(&in[3], c->secret_hash, &lhash);
	bind_i64(&in[4], &c->created_at);
	bind_str(&in[5], c->role, &lrole);
	if ((r = exec_write(db, stmt(db, AUTH_STMT_CLIENT_INSERT), in, &rows,
	    "repo_auth_client_insert")) != 0)
		goto out;
	r = rows == 1 ? 0 : -REPO_ERR_NOT_FOUND;
out:
	return r;
}

/* See repo_auth.h. */
int
repo_auth_client_get_by_client_id(struct db *db, const char *client_id,
    struct repo_auth_client *out)
{
	MYSQL_STMT *st;
	MYSQL_BIND in[1], res[8];
	struct client_cols cc;
	unsigned long len = strlen(client_id);
	int r;

	memset(out, 0, sizeof(*out));
	if ((r = db_ensure(db)) != 0)
		goto out;
	st = stmt(db, AUTH_STMT_CLIENT_GET_BY_CLIENT_ID);
	bind_str(&in[0], client_id, &len);
	client_bind(res, &cc, out);
	if ((r = exec_select(db, st, in, res,
	    "repo_auth_client_get_by_client_id")) != 0)
		goto out;
	r = fetch(db, st, "repo_auth_client_get_by_client_id");
	mysql_stmt_free_result(st);
	if (r == 0)
		client_fill(&cc, out);
out:
	if (r != 0)
		memset(out, 0, sizeof(*out));
	return r;
}

/* See repo_auth.h. */
int
repo_auth_client_list(struct db *db, struct repo_auth_client_list *out)
{
	MYSQL_STMT *st;
	MYSQL_BIND res[8];
	struct client_cols cc;
	struct repo_auth_client row;
	size_t cap = 0;
	int r;

	out->items = NULL;
	out->count = 0;
	if ((r = db_ensure(db)) != 0)
		goto out;
	st = stmt(db, AUTH_STMT_CLIENT_LIST);
	client_bind(res, &cc, &row);
	if ((r = exec_select(db, st, NULL, res, "repo_auth_client_list")) != 0)
		goto out;
	while ((r = fetch(db, st, "repo_auth_client_list")) == 0) {
		client_fill(&cc, &row);
		row.secret_hash[0] = '\0';
		if (out->count == cap) {
			cap = cap == 0 ? 16 : cap * 2;
			out->items = xrealloc(out->items,
			    cap * sizeof(*out->items));
		}
		out->items[out->count++] = row;
	}
	mysql_stmt_free_result(st);
	if (r == -REPO_ERR_NOT_FOUND)
		r = 0;
out:
	if (r != 0)
		repo_auth_client_list_free(out);
	return r;
}

/* Frees the items of l and empties it; accepts an empty list. */
void
repo_auth_client_list_free(struct repo_auth_client_list *l)
{
	free(l->items);
	l->items = NULL;
	l->count = 0;
}

struct revoke_arg {
	const char	*client_id;
	int64_t		 now;
};

static int
client_revoke_tx(struct db *db, void *arg)
{
	struct revoke_arg *a = arg;
	MYSQL_BIND in[2];
	unsigned long len = strlen(a->client_id);
	uint64_t rows;
	int r;

	bind_i64(&in[0], &a->now);
	bind_str(&in[1], a->client_id, &len);
	if ((r = exec_write(db, stmt(db, AUTH_STMT_CLIENT_REVOKE), in, &rows,
	    "repo_auth_client_revoke")) != 0)
		goto out;
	if (rows != 1) {
		r = -REPO_ERR_NOT_FOUND;
		goto out;
	}
	bind_str(&in[0], a->client_id, &len);
	if ((r = exec_write(db, stmt(db, AUTH_STMT_TOKEN_DELETE_BY_CLIENT_ID),
	    in, &rows, "repo_auth_client_revoke tokens")) != 0)
		goto out;
	r = epoch_bump(db);
out:
	return r;
}

/* See repo_auth.h. */
int
repo_auth_client_revoke(struct db *db, const char *client_id, int64_t now)
{
	struct revoke_arg a = { .client_id = client_id, .now = now };

	return db_run_tx(db, client_revoke_tx, &a, false);
}

/* ------------------------------------------------------------------ */
/* Tokens */

/* See repo_auth.h. */
int
repo_auth_token_get_by_hash(struct db *db, const unsigned char *hash,
    struct repo_auth_token *out)
{
	MYSQL_STMT *st;
	MYSQL_BIND in[1], res[5];
	struct col cid, cname, cperm;
	char perm[MAX_NAME_BYTES + 1];
	unsigned long hlen = REPO_AUTH_HASH_BYTES;
	my_bool id_null, exp_null;
	int r, rows = 0;

	memset(out, 0, sizeof(*out));
	if ((r = db_ensure(db)) != 0)
		goto out;
	st = stmt(db, AUTH_STMT_TOKEN_GET_BY_HASH);
	bind_blob(&in[0], hash, &hlen);
	bind_out_i64(&res[0], &out->client, &id_null);
	col_bind(&res[1], &cid, out->client_id, sizeof(out->client_id));
	col_bind(&res[2], &cname, out->name, sizeof(out->name));
	bind_out_i64(&res[3], &out->expires_at, &exp_null);
	col_bind(&res[4], &cperm, perm, sizeof(perm));
	if ((r = exec_select(db, st, in, res,
	    "repo_auth_token_get_by_hash")) != 0)
		goto out;
	/* One row per permission of the client's role. */
	while ((r = fetch(db, st, "repo_auth_token_get_by_hash")) == 0) {
		rows++;
		col_end(&cperm);
		perm_add(&out->perms, perm, "repo_auth_token_get_by_hash");
	}
	mysql_stmt_free_result(st);
	if (r == -REPO_ERR_NOT_FOUND && rows > 0) {
		col_end(&cid);
		col_end(&cname);
		r = 0;
	}
out:
	if (r != 0)
		memset(out, 0, sizeof(*out));
	return r;
}

/* See repo_auth.h. */
int
repo_auth_token_get_live_by_client(struct db *db, int64_t client,
    int64_t live_after, char *token, int64_t *expires_at)
{
	MYSQL_STMT *st;
	MYSQL_BIND in[2], res[2];
	struct col ctok;
	my_bool exp_null;
	int r;

	token[0] = '\0';
	*expires_at = 0;
	if ((r = db_ensure(db)) != 0)
		goto out;
	st = stmt(db, AUTH_STMT_TOKEN_GET_LIVE_BY_CLIENT);
	bind_i64(&in[0], &client);
	bind_i64(&in[1], &live_after);
	col_bind(&res[0], &ctok, token, TOKEN_BYTES + 1);
	bind_out_i64(&res[1], expires_at, &exp_null);
	if ((r = exec_select(db, st, in, res,
	    "repo_auth_token_get_live_by_client")) != 0)
		goto out;
	r = fetch(db, st, "repo_auth_token_get_live_by_client");
	mysql_stmt_free_result(st);
	if (r == 0)
		col_end(&ctok);
out:
	if (r != 0) {
		token[0] = '\0';
		*expires_at = 0;
	}
	return r;
}

struct issue_arg {
	int64_t			 client;
	const char		*token;
	const unsigned char	*hash;
	int64_t			 now;
	int64_t			 expires_at;
	int64_t			 live_after;
	char			*out;
	int64_t			*out_expires;
};

static int
token_issue_tx(struct db *db, void *arg)
{
	struct issue_arg *a = arg;
	MYSQL_BIND in[5];
	unsigned long hlen = REPO_AUTH_HASH_BYTES, tlen = strlen(a->token);
	uint64_t rows;
	int r;

	bind_i64(&in[0], &a->client);
	if ((r = exec_write(db, stmt(db, AUTH_STMT_CLIENT_LOCK), in, &rows,
	    "repo_auth_token_issue lock")) != 0)
		goto out;
	if (rows != 1) {
		r = -REPO_ERR_NOT_FOUND;
		goto out;
	}
	r = repo_auth_token_get_live_by_client(db, a->client, a->live_after,
	    a->out, a->out_expires);
	if (r != -REPO_ERR_NOT_FOUND)
		goto out;
	bind_blob(&in[0], a->hash, &hlen);
	bind_i64(&in[1], &a->client);
	bind_str(&in[2], a->token, &tlen);
	bind_i64(&in[3], &a->now);
	bind_i64(&in[4], &a->expires_at);
	if ((r = exec_write(db, stmt(db, AUTH_STMT_TOKEN_INSERT), in, &rows,
	    "repo_auth_token_issue insert")) != 0)
		goto out;
	memcpy(a->out, a->token, tlen + 1);
	*a->out_expires = a->expires_at;
out:
	return r;
}

/* See repo_auth.h. */
int
repo_auth_token_issue(struct db *db, int64_t client, const char *token,
    const unsigned char *hash, int64_t now, int64_t expires_at,
    int64_t live_after, char *out, int64_t *out_expires)
{
	struct issue_arg a = {
		.client = client,
		.token = token,
		.hash = hash,
		.now = now,
		.expires_at = expires_at,
		.live_after = live_after,
		.out = out,
		.out_expires = out_expires,
	};

	out[0] = '\0';
	*out_expires = 0;
	/* Re-running after an unknown COMMIT finds the stored token. */
	return db_run_tx(db, token_issue_tx, &a, true);
}

/* See repo_auth.h. */
int
repo_auth_token_purge(struct db *db, int64_t before)
{
	MYSQL_BIND in[2];
	int64_t batch = TOKEN_PURGE_BATCH;
	uint64_t rows;
	int r;

	if ((r = db_ensure(db)) == 0) {
		bind_i64(&in[0], &before);
		bind_i64(&in[1], &batch);
		r = exec_write(db, stmt(db, AUTH_STMT_TOKEN_PURGE), in, &rows,
		    "repo_auth_token_purge");
	}
	return r;
}

/* See repo_auth.h. */
int
repo_auth_epoch_get(struct db *db, uint64_t *out)
{
	MYSQL_STMT *st;
	MYSQL_BIND res[1];
	int64_t v = 0;
	my_bool is_null;
	int r;

	*out = 0;
	if ((r = db_ensure(db)) != 0)
		goto out;
	st = stmt(db, AUTH_STMT_EPOCH_GET);
	bind_out_i64(&res[0], &v, &is_null);
	if ((r = exec_select(db, st, NULL, res, "repo_auth_epoch_get")) != 0)
		goto out;
	r = fetch(db, st, "repo_auth_epoch_get");
	mysql_stmt_free_result(st);
	if (r == 0)
		*out = (uint64_t)v;
out:
	return r;
}

/* See repo_auth.h. */
int
repo_auth_fault_insert(struct db *db, const char *client_id, int code,
    int count)
{
	MYSQL_BIND in[2];
	unsigned long id_len = strlen(client_id);
	int64_t c = code;
	uint64_t rows = 0;
	int i, r;

	if ((r = db_ensure(db)) != 0)
		return r;
	bind_i64(&in[0], &c);
	bind_str(&in[1], client_id, &id_len);
	for (i = 0; i < count && r == 0; i++) {
		r = exec_write(db, stmt(db, AUTH_STMT_FAULT_INSERT), in, &rows,
		    "repo_auth_fault_insert");
		if (r == 0 && rows == 0)
			r = -REPO_ERR_NOT_FOUND;
	}
	return r;
}

/* See repo_auth.h. */
int
repo_auth_fault_delete_next(struct db *db, int64_t client, int *code)
{
	MYSQL_STMT *st;
	MYSQL_BIND in[1], res[1];
	int64_t v = 0;
	my_bool is_null;
	int r;

	*code = 0;
	/* A token checked from the cache has not touched the connection. */
	if ((r = db_ensure(db)) != 0)
		return r;
	st = stmt(db, AUTH_STMT_FAULT_DELETE_NEXT);
	bind_i64(&in[0], &client);
	bind_out_i64(&res[0], &v, &is_null);
	if ((r = exec_select(db, st, in, res,
	    "repo_auth_fault_delete_next")) != 0)
		return r;
	r = fetch(db, st, "repo_auth_fault_delete_next");
	mysql_stmt_free_result(st);
	if (r == 0)
		*code = (int)v;
	return r == -REPO_ERR_NOT_FOUND ? 0 : r;
}

/* See repo_auth.h. */
int
repo_auth_fault_delete_by_client_id(struct db *db, const char *client_id,
    uint64_t *n)
{
	MYSQL_BIND in[1];
	unsigned long id_len = strlen(client_id);
	int r;

	*n = 0;
	if ((r = db_ensure(db)) != 0)
		return r;
	bind_str(&in[0], client_id, &id_len);
	return exec_write(db, stmt(db, AUTH_STMT_FAULT_DELETE_BY_CLIENT_ID),
	    in, n, "repo_auth_fault_delete_by_client_id");
}
