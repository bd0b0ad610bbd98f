/*
 * Programs as the asset API reads and writes them
 * (repo_program_assets.h).  One statement a read; a browse binds each filter twice ("? IS NULL OR"),
 * and a list of ids, folders or workspaces is one comma-separated value
 * matched with FIND_IN_SET, so the statement stays one prepared text
 * whatever the number of values.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <mysql.h>

#include "bounds.h"
#include "db/bind.h"
#include "db/pool.h"
#include "db/query.h"
#include "repo/repo.h"
#include "repo/repo_program_assets.h"
#include "util/arena.h"

enum passet_stmt {
	PASSET_STMT_LIST,
	PASSET_STMT_GET_BY_ID,
	PASSET_STMT_GET_BY_NAME,
	PASSET_STMT_INSERT,
	PASSET_STMT_STATUS_COPY,
	PASSET_STMT_UPDATE,
	PASSET_STMT_DELETE,
	PASSET_STMT__MAX
};

#define PASSET_COLS	10
#define PASSET_SELECT \
	"SELECT p.id, p.name, p.description, p.type, p.channel, " \
	"p.workspace, p.created_at, p.updated_at, p.folder_id, f.name " \
	"FROM program p JOIN folder f ON f.id = p.folder_id "

static const char *const sql[PASSET_STMT__MAX] = {
	[PASSET_STMT_LIST] = PASSET_SELECT
	    "WHERE (? IS NULL OR FIND_IN_SET(p.id, ?) > 0) "
	    "AND (? IS NULL OR FIND_IN_SET(p.folder_id, ?) > 0) "
	    "AND (? IS NULL OR FIND_IN_SET(p.workspace, ?) > 0) "
	    "AND (? IS NULL OR p.type = ?) "
	    "AND (((? IS NULL OR p.created_at >= ?) "
	    "AND (? IS NULL OR p.created_at <= ?)) "
	    "OR ((? IS NULL OR p.updated_at >= ?) "
	    "AND (? IS NULL OR p.updated_at <= ?))) "
	    "ORDER BY p.id LIMIT ? OFFSET ?",
	[PASSET_STMT_GET_BY_ID] = PASSET_SELECT "WHERE p.id = ?",
	[PASSET_STMT_GET_BY_NAME] = PASSET_SELECT "WHERE p.name = ?",
	[PASSET_STMT_INSERT] =
	    "INSERT INTO program (name, description, type, channel, "
	    "workspace, folder_id, created_at, updated_at) "
	    "VALUES (?, ?, ?, ?, ?, ?, UTC_TIMESTAMP(), UTC_TIMESTAMP())",
	[PASSET_STMT_STATUS_COPY] =
	    "INSERT INTO program_status (program_id, step, name, success) "
	    "SELECT ?, ROW_NUMBER() OVER (ORDER BY s.step), s.name, "
	    "s.success FROM channel_status s JOIN channel c "
	    "ON c.id = s.channel_id WHERE c.name = ?",
	[PASSET_STMT_UPDATE] =
	    "UPDATE program SET name = COALESCE(?, name), "
	    "description = COALESCE(?, description), "
	    "updated_at = UTC_TIMESTAMP() WHERE id = ?",
	[PASSET_STMT_DELETE] =
	    "DELETE FROM program WHERE id = ?",
};

const struct db_stmt_set repo_program_assets_sql = {
	.name = "program_assets",
	.sql = sql,
	.n = PASSET_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum passet_stmt s)
{
	return db_stmt(db, REPO_PROGRAM_ASSETS, (int)s);
}

/* Row i of t into *p (the strings stay in t's arena). */
static void
row(const struct db_text_rows *t, size_t i, struct repo_program_asset *p)
{
	p->id = (int32_t)db_text_i64(t, i, 0);
	p->name = db_text_str(t, i, 1);
	p->description = db_text_str(t, i, 2);
	p->type = db_text_str(t, i, 3);
	p->channel = db_text_str(t, i, 4);
	p->workspace = db_text_str(t, i, 5);
	p->created_at = db_text_str(t, i, 6);
	p->updated_at = db_text_str(t, i, 7);
	p->folder_id = (int32_t)db_text_i64(t, i, 8);
	p->folder_name = db_text_str(t, i, 9);
}

/* See repo_program_assets.h. */
int
repo_program_assets_list(struct db *db, struct arena *a,
    const struct repo_program_filter *f, int limit, int64_t offset,
    struct repo_program_asset **out, size_t *n)
{
	MYSQL_BIND in[18];
	unsigned long len[6];
	const char *v[6];
	struct db_text_rows t;
	struct repo_program_asset *p;
	int64_t lim = limit;
	size_t i;
	int r;

	*out = NULL;
	*n = 0;
	v[0] = f->ids;
	v[1] = f->folders;
	v[2] = f->workspaces;
	v[3] = f->type;
	v[4] = f->earliest;
	v[5] = f->latest;
	for (i = 0; i < 6; i++)
		len[i] = v[i] != NULL ? strlen(v[i]) : 0;
	for (i = 0; i < 4; i++)
		bind_str_twice(&in[2 * i], v[i], &len[i]);
	bind_str_twice(&in[8], v[4], &len[4]);
	bind_str_twice(&in[10], v[5], &len[5]);
	bind_str_twice(&in[12], v[4], &len[4]);
	bind_str_twice(&in[14], v[5], &len[5]);
	bind_i64(&in[16], &lim);
	bind_i64(&in[17], &offset);
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_select_text(db, stmt(db, PASSET_STMT_LIST), in, a,
	    PASSET_COLS, (size_t)limit, "repo_program_assets_list", &t)) != 0)
		return r;
	if (t.count == 0)
		return 0;
	if ((p = arena_zalloc(a, t.count * sizeof(*p))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < t.count; i++)
		row(&t, i, &p[i]);
	*out = p;
	*n = t.count;
	return 0;
}

/* See repo_program_assets.h. */
int
repo_program_assets_get(struct db *db, struct arena *a, int32_t id,
    const char *by_name, struct repo_program_asset *out)
{
	MYSQL_BIND in[1];
	unsigned long len = by_name != NULL ? strlen(by_name) : 0;
	struct db_text_rows t;
	int r;

	memset(out, 0, sizeof(*out));
	if (by_name != NULL)
		bind_str(&in[0], by_name, &len);
	else
		bind_i32(&in[0], &id);
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_select_text(db, stmt(db, by_name != NULL ?
	    PASSET_STMT_GET_BY_NAME : PASSET_STMT_GET_BY_ID), in, a,
	    PASSET_COLS, 1, "repo_program_assets_get", &t)) != 0)
		return r;
	if (t.count == 0)
		return -REPO_ERR_NOT_FOUND;
	row(&t, 0, out);
	return 0;
}

/* Binds s at b (its length in *len), or NULL when s is NULL. */
static void
bind_opt_str(MYSQL_BIND *b, const char *s, unsigned long *len)
{
	*len = s != NULL ? strlen(s) : 0;
	if (s != NULL)
		bind_str(b, s, len);
	else
		bind_null(b);
}

/* Create Program's transaction: the row, then its channel's statuses. */
static int
insert_tx(struct db *db, void *arg)
{
	struct repo_program_create *p = arg;
	MYSQL_BIND in[6];
	unsigned long len[5];
	const char *v[5];
	size_t i;
	int r;

	v[0] = p->name;
	v[1] = p->description;
	v[2] = p->type;
	v[3] = p->channel;
	v[4] = p->workspace;
	for (i = 0; i < 5; i++)
		bind_opt_str(&in[i], v[i], &len[i]);
	bind_i32(&in[5], &p->folder_id);
	if ((r = db_exec(db, stmt(db, PASSET_STMT_INSERT), in,
	    "repo_program_assets_insert")) != 0)
		return r;
	p->id = (int32_t)mysql_stmt_insert_id(stmt(db, PASSET_STMT_INSERT));
	bind_i32(&in[0], &p->id);
	bind_str(&in[1], p->channel, &len[3]);
	return db_exec(db, stmt(db, PASSET_STMT_STATUS_COPY), in,
	    "repo_program_assets_insert");
}

/* See repo_program_assets.h. */
int
repo_program_assets_insert(struct db *db, struct repo_program_create *p)
{
	int r;

	p->id = 0;
	if ((r = db_ensure(db)) != 0)
		return r;
	return db_run_tx(db, insert_tx, p, false);
}

/* See repo_program_assets.h. */
int
repo_program_assets_update(struct db *db, int32_t id, const char *name,
    const char *description)
{
	MYSQL_BIND in[3];
	unsigned long len[2];
	uint64_t n = 0;
	int r;

	bind_opt_str(&in[0], name, &len[0]);
	bind_opt_str(&in[1], description, &len[1]);
	bind_i32(&in[2], &id);
	if ((r = db_ensure(db)) != 0)
		return r;
	/* n is 0 too when nothing changed within the same second. */
	return db_exec_n(db, stmt(db, PASSET_STMT_UPDATE), in, &n,
	    "repo_program_assets_update");
}

/* See repo_program_assets.h. */
int
repo_program_assets_delete(struct db *db, int32_t id)
{
	MYSQL_BIND in[1];
	uint64_t n = 0;
	int r;

	bind_i32(&in[0], &id);
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_exec_n(db, stmt(db, PASSET_STMT_DELETE), in, &n,
	    "repo_program_assets_delete")) != 0)
		return r;
	return n > 0 ? 0 : -REPO_ERR_NOT_FOUND;
}
