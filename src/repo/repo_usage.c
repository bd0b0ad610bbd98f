/* Where assets are used (repo_usage.h). */
#include <stdint.h>
#include <string.h>

#include <mysql.h>

#include "db/bind.h"
#include "db/pool.h"
#include "db/query.h"
#include "repo/repo.h"
#include "repo/repo_usage.h"
#include "util/arena.h"

enum usage_stmt {
	USAGE_STMT_COUNT,
	USAGE_STMT_ADD,
	USAGE_STMT_FORGET,
	USAGE_STMT_FORGET_USER,
	USAGE_STMT_LIST,
	USAGE_STMT_DROP,
	USAGE_STMT_COPY_USER,
	USAGE_STMT__MAX
};

static const char *const sql[USAGE_STMT__MAX] = {
	[USAGE_STMT_COUNT] =
	    "SELECT COUNT(*) FROM asset_usage WHERE asset_type = ? AND "
	    "asset_id = ?",
	[USAGE_STMT_ADD] =
	    "INSERT IGNORE INTO asset_usage (asset_type, asset_id, user_type, "
	    "user_id) VALUES (?, ?, ?, ?)",
	[USAGE_STMT_FORGET] =
	    "DELETE FROM asset_usage WHERE (asset_type = ? AND asset_id = ?) "
	    "OR (user_type = ? AND user_id = ?)",
	[USAGE_STMT_FORGET_USER] =
	    "DELETE FROM asset_usage WHERE user_type = ? AND user_id = ? AND "
	    "asset_type = ?",
	[USAGE_STMT_LIST] =
	    "SELECT user_type, user_id FROM asset_usage WHERE asset_type = ? "
	    "AND asset_id = ? ORDER BY user_type, user_id LIMIT ? OFFSET ?",
	[USAGE_STMT_DROP] =
	    "DELETE FROM asset_usage WHERE asset_type = ? AND asset_id = ? "
	    "AND user_type = ? AND user_id = ?",
	/* Parameters: the copy, the user type, the source. */
	[USAGE_STMT_COPY_USER] =
	    "INSERT IGNORE INTO asset_usage (asset_type, asset_id, user_type, "
	    "user_id) SELECT asset_type, asset_id, user_type, ? "
	    "FROM asset_usage WHERE user_type = ? AND user_id = ?",
};

const struct db_stmt_set repo_usage_sql = {
	.name = "usage",
	.sql = sql,
	.n = USAGE_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum usage_stmt s)
{
	return db_stmt(db, REPO_USAGE, (int)s);
}

/* See repo_usage.h. */
int
repo_usage_count(struct db *db, const char *type, int32_t id, int64_t *n)
{
	MYSQL_BIND in[2];
	unsigned long len = strlen(type);

	bind_str(&in[0], type, &len);
	bind_i32(&in[1], &id);
	return db_query_i64(db, stmt(db, USAGE_STMT_COUNT), in, n,
	    "repo_usage_count");
}

/* Binds (type, id, user type, user id) into in[0..3]. */
static void
bind_pair(MYSQL_BIND *in, const char *type, unsigned long *len, int32_t *id,
    const char *user_type, unsigned long *ulen, int32_t *user_id)
{
	*len = strlen(type);
	*ulen = strlen(user_type);
	bind_str(&in[0], type, len);
	bind_i32(&in[1], id);
	bind_str(&in[2], user_type, ulen);
	bind_i32(&in[3], user_id);
}

/* See repo_usage.h. */
int
repo_usage_add(struct db *db, const char *type, int32_t id,
    const char *user_type, int32_t user_id)
{
	MYSQL_BIND in[4];
	unsigned long len, ulen;

	bind_pair(in, type, &len, &id, user_type, &ulen, &user_id);
	return db_exec(db, stmt(db, USAGE_STMT_ADD), in, "repo_usage_add");
}

/* See repo_usage.h. */
int
repo_usage_drop(struct db *db, const char *type, int32_t id,
    const char *user_type, int32_t user_id)
{
	MYSQL_BIND in[4];
	unsigned long len, ulen;

	bind_pair(in, type, &len, &id, user_type, &ulen, &user_id);
	return db_exec(db, stmt(db, USAGE_STMT_DROP), in, "repo_usage_drop");
}

/* See repo_usage.h. */
int
repo_usage_forget(struct db *db, const char *type, int32_t id)
{
	MYSQL_BIND in[4];
	unsigned long len = strlen(type);

	bind_str(&in[0], type, &len);
	bind_i32(&in[1], &id);
	bind_str(&in[2], type, &len);
	bind_i32(&in[3], &id);
	return db_exec(db, stmt(db, USAGE_STMT_FORGET), in,
	    "repo_usage_forget");
}

/* See repo_usage.h. */
int
repo_usage_forget_user(struct db *db, const char *user_type, int32_t user_id,
    const char *type)
{
	MYSQL_BIND in[3];
	unsigned long ulen = strlen(user_type), len = strlen(type);

	bind_str(&in[0], user_type, &ulen);
	bind_i32(&in[1], &user_id);
	bind_str(&in[2], type, &len);
	return db_exec(db, stmt(db, USAGE_STMT_FORGET_USER), in,
	    "repo_usage_forget_user");
}

/* See repo_usage.h. */
int
repo_usage_list(struct db *db, struct arena *a, const char *type,
    int32_t id, int32_t limit, int64_t offset, struct repo_usage_user **out,
    size_t *n)
{
	MYSQL_BIND in[4];
	struct db_text_rows t;
	struct repo_usage_user *u;
	unsigned long len = strlen(type);
	size_t i;
	int r;

	*out = NULL;
	*n = 0;
	bind_str(&in[0], type, &len);
	bind_i32(&in[1], &id);
	bind_i32(&in[2], &limit);
	bind_i64(&in[3], &offset);
	if ((r = db_select_text(db, stmt(db, USAGE_STMT_LIST), in, a, 2,
	    (size_t)limit, "repo_usage_list", &t)) != 0)
		return r;
	if (t.count == 0)
		return 0;
	if ((u = arena_zalloc(a, t.count * sizeof(*u))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < t.count; i++) {
		u[i].type = db_text_str(&t, i, 0);
		u[i].id = (int32_t)db_text_i64(&t, i, 1);
	}
	*out = u;
	*n = t.count;
	return 0;
}

/* See repo_usage.h. */
int
repo_usage_copy_user(struct db *db, const char *user_type, int32_t from,
    int32_t to)
{
	MYSQL_BIND in[3];
	unsigned long len = strlen(user_type);

	bind_i32(&in[0], &to);
	bind_str(&in[1], user_type, &len);
	bind_i32(&in[2], &from);
	return db_exec(db, stmt(db, USAGE_STMT_COPY_USER), in,
	    "repo_usage_copy_user");
}
