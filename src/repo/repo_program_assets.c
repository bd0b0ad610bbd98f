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
#include "model/progmeta.h"
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
	PASSET_STMT_TAG_UPSERT,
	PASSET_STMT_COSTS_CLEAR,
	PASSET_STMT_COST_INSERT,
	PASSET_STMT_TAGS_GET,
	PASSET_STMT_COSTS_GET,
	PASSET_STMT_BY_TAG,
	PASSET_STMT_CLONE,
	PASSET_STMT_CLONE_STATUSES,
	PASSET_STMT_CLONE_TAGS,
	PASSET_STMT_CLONE_COSTS,
	PASSET_STMT_CLONE_TOKENS,
	PASSET_STMT_TAG_DELETE,
	PASSET_STMT_LOCK,
	PASSET_STMT_DATES,
	PASSET_STMT_SEND_READ,
	PASSET_STMT_SEND_SET,
	PASSET_STMT__MAX
};

#define PASSET_COLS	13
#define PASSET_SELECT \
	"SELECT p.id, p.name, p.description, p.type, p.channel, " \
	"p.workspace, p.created_at, p.updated_at, p.folder_id, f.name, " \
	"COALESCE(UNIX_TIMESTAMP(p.start_date), 0), " \
	"COALESCE(UNIX_TIMESTAMP(p.end_date), 0), p.locked " \
	"FROM program p JOIN folder f ON f.id = p.folder_id "

static const char *const sql[PASSET_STMT__MAX] = {
	[PASSET_STMT_LIST] = PASSET_SELECT
	    "WHERE (? IS NULL OR FIND_IN_SET(p.id, ?) > 0) "
	    "AND (? IS NULL OR FIND_IN_SET(p.folder_id, ?) > 0) "
	    "AND (? IS NULL OR FIND_IN_SET(p.workspace, ?) > 0) "
	    "AND (? IS NULL OR p.type = ?) "
	    "AND (? IS NULL OR p.locked = ?) "
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
	[PASSET_STMT_TAG_UPSERT] =
	    "INSERT INTO program_tag (program_id, tag_type_id, value) "
	    "VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE value = VALUES(value)",
	[PASSET_STMT_COSTS_CLEAR] =
	    "DELETE FROM program_cost WHERE program_id = ?",
	[PASSET_STMT_COST_INSERT] =
	    "INSERT INTO program_cost (program_id, position, start_date, "
	    "cost, note) SELECT ?, COALESCE(MAX(position), 0) + 1, ?, ?, ? "
	    "FROM program_cost WHERE program_id = ?",
	[PASSET_STMT_TAGS_GET] =
	    "SELECT t.name, pt.value FROM program_tag pt JOIN tag_type t "
	    "ON t.id = pt.tag_type_id WHERE pt.program_id = ? ORDER BY t.id",
	[PASSET_STMT_COSTS_GET] =
	    "SELECT start_date, cost, note FROM program_cost "
	    "WHERE program_id = ? ORDER BY position",
	[PASSET_STMT_BY_TAG] = PASSET_SELECT
	    "JOIN program_tag pt ON pt.program_id = p.id "
	    "JOIN tag_type t ON t.id = pt.tag_type_id "
	    "WHERE t.name = ? AND pt.value = ? ORDER BY p.id LIMIT ? OFFSET ?",
	/* A clone keeps the schedule, not the approval (locked 0). */
	[PASSET_STMT_CLONE] =
	    "INSERT INTO program (name, description, type, channel, "
	    "workspace, folder_id, start_date, end_date, created_at, "
	    "updated_at) SELECT ?, COALESCE(?, description), type, channel, "
	    "?, ?, start_date, end_date, UTC_TIMESTAMP(), UTC_TIMESTAMP() "
	    "FROM program WHERE id = ?",
	[PASSET_STMT_CLONE_STATUSES] =
	    "INSERT INTO program_status (program_id, step, name, success) "
	    "SELECT ?, step, name, success FROM program_status "
	    "WHERE program_id = ?",
	[PASSET_STMT_CLONE_TAGS] =
	    "INSERT INTO program_tag (program_id, tag_type_id, value) "
	    "SELECT ?, tag_type_id, value FROM program_tag WHERE program_id = ?",
	[PASSET_STMT_CLONE_COSTS] =
	    "INSERT INTO program_cost (program_id, position, start_date, cost, "
	    "note) SELECT ?, position, start_date, cost, note FROM program_cost "
	    "WHERE program_id = ?",
	/* The program's My Tokens go with it (repo_tokens.c owns the rest). */
	[PASSET_STMT_CLONE_TOKENS] =
	    "INSERT INTO folder_token (program_id, name, type, value, "
	    "created_at, updated_at) SELECT ?, name, type, value, "
	    "UTC_TIMESTAMP(), UTC_TIMESTAMP() FROM folder_token "
	    "WHERE program_id = ?",
	[PASSET_STMT_TAG_DELETE] =
	    "DELETE FROM program_tag WHERE program_id = ? AND tag_type_id = ?",
	[PASSET_STMT_LOCK] =
	    "SELECT COUNT(*) FROM (SELECT id FROM program WHERE id = ? "
	    "FOR UPDATE) p",
	/* Parameters: start, end (UTC epoch seconds; 0 keeps), program. */
	[PASSET_STMT_DATES] =
	    "UPDATE program SET "
	    "start_date = COALESCE(FROM_UNIXTIME(NULLIF(?, 0)), start_date), "
	    "end_date = COALESCE(FROM_UNIXTIME(NULLIF(?, 0)), end_date) "
	    "WHERE id = ?",
	[PASSET_STMT_SEND_READ] =
	    "SELECT name, type, COALESCE(UNIX_TIMESTAMP(start_date), 0), "
	    "locked, COALESCE(send_campaign_id, 0), COALESCE(send_run_id, 0) "
	    "FROM program WHERE id = ? FOR UPDATE",
	/* Parameters: locked, campaign (0: none), run (0: none), program. */
	[PASSET_STMT_SEND_SET] =
	    "UPDATE program SET locked = ?, send_campaign_id = NULLIF(?, 0), "
	    "send_run_id = NULLIF(?, 0), updated_at = UTC_TIMESTAMP() "
	    "WHERE id = ?",
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
	p->start_date = db_text_i64(t, i, 10);
	p->end_date = db_text_i64(t, i, 11);
	p->locked = db_text_i64(t, i, 12) != 0;
}

/* Every row of t into *out (*n) in the arena a. */
static int
rows(struct arena *a, const struct db_text_rows *t,
    struct repo_program_asset **out, size_t *n)
{
	struct repo_program_asset *p;
	size_t i;

	if (t->count == 0)
		return 0;
	if ((p = arena_zalloc(a, t->count * sizeof(*p))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < t->count; i++)
		row(t, i, &p[i]);
	*out = p;
	*n = t->count;
	return 0;
}

/* See repo_program_assets.h. */
int
repo_program_assets_list(struct db *db, struct arena *a,
    const struct repo_program_filter *f, int limit, int64_t offset,
    struct repo_program_asset **out, size_t *n)
{
	MYSQL_BIND in[20];
	unsigned long len[7];
	const char *v[7];
	struct db_text_rows t;
	int64_t lim = limit;
	size_t i;
	int r;

	*out = NULL;
	*n = 0;
	v[0] = f->ids;
	v[1] = f->folders;
	v[2] = f->workspaces;
	v[3] = f->type;
	v[4] = f->locked;
	v[5] = f->earliest;
	v[6] = f->latest;
	for (i = 0; i < 7; i++)
		len[i] = v[i] != NULL ? strlen(v[i]) : 0;
	for (i = 0; i < 5; i++)
		bind_str_twice(&in[2 * i], v[i], &len[i]);
	bind_str_twice(&in[10], v[5], &len[5]);
	bind_str_twice(&in[12], v[6], &len[6]);
	bind_str_twice(&in[14], v[5], &len[5]);
	bind_str_twice(&in[16], v[6], &len[6]);
	bind_i64(&in[18], &lim);
	bind_i64(&in[19], &offset);
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_select_text(db, stmt(db, PASSET_STMT_LIST), in, a,
	    PASSET_COLS, (size_t)limit, "repo_program_assets_list", &t)) != 0)
		return r;
	return rows(a, &t, out, n);
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

/* Writes meta m of program id inside the caller's transaction. */
static int
meta_write(struct db *db, int32_t id, const struct repo_program_meta *m)
{
	MYSQL_BIND in[5];
	unsigned long len[3];
	int32_t tt;
	size_t i;
	int r;

	for (i = 0; i < m->ntags; i++) {
		tt = m->tag_types[i];
		bind_i32(&in[0], &id);
		bind_i32(&in[1], &tt);
		bind_opt_str(&in[2], m->tag_values[i], &len[0]);
		if ((r = db_exec(db, stmt(db, PASSET_STMT_TAG_UPSERT), in,
		    "repo_program_assets_meta")) != 0)
			return r;
	}
	if (m->replace_costs) {
		bind_i32(&in[0], &id);
		if ((r = db_exec(db, stmt(db, PASSET_STMT_COSTS_CLEAR), in,
		    "repo_program_assets_meta")) != 0)
			return r;
	}
	for (i = 0; i < m->ncosts; i++) {
		bind_i32(&in[0], &id);
		bind_opt_str(&in[1], m->costs[i].start_date, &len[1]);
		bind_i64(&in[2], &m->costs[i].cost);
		bind_opt_str(&in[3], m->costs[i].note, &len[2]);
		bind_i32(&in[4], &id);
		if ((r = db_exec(db, stmt(db, PASSET_STMT_COST_INSERT), in,
		    "repo_program_assets_meta")) != 0)
			return r;
	}
	if (m->start_date == 0 && m->end_date == 0)
		return 0;
	bind_i64(&in[0], &m->start_date);
	bind_i64(&in[1], &m->end_date);
	bind_i32(&in[2], &id);
	return db_exec(db, stmt(db, PASSET_STMT_DATES), in,
	    "repo_program_assets_meta");
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
	if ((r = db_exec(db, stmt(db, PASSET_STMT_STATUS_COPY), in,
	    "repo_program_assets_insert")) != 0)
		return r;
	return meta_write(db, p->id, &p->meta);
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

struct update_arg {
	int32_t				 id;
	const char			*name;
	const char			*description;
	const struct repo_program_meta	*meta;
};

/* Update Program Metadata's transaction. */
static int
update_tx(struct db *db, void *arg)
{
	struct update_arg *u = arg;
	MYSQL_BIND in[3];
	unsigned long len[2];
	uint64_t n = 0;
	int r;

	bind_opt_str(&in[0], u->name, &len[0]);
	bind_opt_str(&in[1], u->description, &len[1]);
	bind_i32(&in[2], &u->id);
	/* n is 0 too when nothing changed within the same second. */
	if ((r = db_exec_n(db, stmt(db, PASSET_STMT_UPDATE), in, &n,
	    "repo_program_assets_update")) != 0)
		return r;
	return meta_write(db, u->id, u->meta);
}

/* See repo_program_assets.h. */
int
repo_program_assets_update(struct db *db, int32_t id, const char *name,
    const char *description, const struct repo_program_meta *m)
{
	struct update_arg u = { id, name, description, m };
	int r;

	if ((r = db_ensure(db)) != 0)
		return r;
	return db_run_tx(db, update_tx, &u, false);
}

/* See repo_program_assets.h. */
int
repo_program_assets_delete(struct db *db, int32_t id)
{
	int r;

	if ((r = db_ensure(db)) != 0)
		return r;
	return repo_program_assets_delete_locked(db, id);
}

/* See repo_program_assets.h. */
int
repo_program_assets_lock(struct db *db, int32_t id)
{
	MYSQL_BIND in[1];
	int64_t n = 0;
	int r;

	bind_i32(&in[0], &id);
	if ((r = db_query_i64(db, stmt(db, PASSET_STMT_LOCK), in, &n,
	    "repo_program_assets_lock")) != 0)
		return r;
	return n > 0 ? 0 : -REPO_ERR_NOT_FOUND;
}

/* See repo_program_assets.h. */
int
repo_program_assets_delete_locked(struct db *db, int32_t id)
{
	MYSQL_BIND in[1];
	uint64_t n = 0;
	int r;

	bind_i32(&in[0], &id);
	if ((r = db_exec_n(db, stmt(db, PASSET_STMT_DELETE), in, &n,
	    "repo_program_assets_delete")) != 0)
		return r;
	return n > 0 ? 0 : -REPO_ERR_NOT_FOUND;
}

/* See repo_program_assets.h. */
int
repo_program_assets_meta(struct db *db, struct arena *a, int32_t id,
    struct progmeta_tag **tags, size_t *ntags, struct progmeta_cost **costs,
    size_t *ncosts)
{
	MYSQL_BIND in[1];
	struct db_text_rows t, c;
	size_t i;
	int r;

	*tags = NULL;
	*costs = NULL;
	*ntags = *ncosts = 0;
	bind_i32(&in[0], &id);
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_select_text(db, stmt(db, PASSET_STMT_TAGS_GET), in, a, 2,
	    PROGMETA_MAX_ITEMS * 4, "repo_program_assets_meta", &t)) != 0 ||
	    (r = db_select_text(db, stmt(db, PASSET_STMT_COSTS_GET), in, a, 3,
	    PROGMETA_MAX_ITEMS * 40, "repo_program_assets_meta", &c)) != 0)
		return r;
	if ((t.count > 0 && (*tags = arena_zalloc(a,
	    t.count * sizeof(**tags))) == NULL) ||
	    (c.count > 0 && (*costs = arena_zalloc(a,
	    c.count * sizeof(**costs))) == NULL))
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < t.count; i++) {
		(*tags)[i].type = db_text_str(&t, i, 0);
		(*tags)[i].value = db_text_str(&t, i, 1);
	}
	for (i = 0; i < c.count; i++) {
		db_copy_text((*costs)[i].start_date,
		    sizeof((*costs)[i].start_date), db_text_str(&c, i, 0),
		    SIZE_MAX);
		(*costs)[i].cost = db_text_i64(&c, i, 1);
		(*costs)[i].note = db_text_str(&c, i, 2);
	}
	*ntags = t.count;
	*ncosts = c.count;
	return 0;
}

/* See repo_program_assets.h. */
int
repo_program_assets_by_tag(struct db *db, struct arena *a,
    const char *tag_type, const char *value, int limit, int64_t offset,
    struct repo_program_asset **out, size_t *n)
{
	MYSQL_BIND in[4];
	unsigned long len[2];
	struct db_text_rows t;
	int64_t lim = limit;
	int r;

	*out = NULL;
	*n = 0;
	bind_opt_str(&in[0], tag_type, &len[0]);
	bind_opt_str(&in[1], value, &len[1]);
	bind_i64(&in[2], &lim);
	bind_i64(&in[3], &offset);
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_select_text(db, stmt(db, PASSET_STMT_BY_TAG), in, a,
	    PASSET_COLS, (size_t)limit, "repo_program_assets_by_tag",
	    &t)) != 0)
		return r;
	return rows(a, &t, out, n);
}

struct clone_arg {
	int32_t				 from;
	struct repo_program_create	*p;
};

/* Clone Program's transaction: the row, then what goes with it. */
static int
clone_tx(struct db *db, void *arg)
{
	static const enum passet_stmt copies[] = {
		PASSET_STMT_CLONE_STATUSES, PASSET_STMT_CLONE_TAGS,
		PASSET_STMT_CLONE_COSTS, PASSET_STMT_CLONE_TOKENS,
	};
	struct clone_arg *c = arg;
	MYSQL_BIND in[5];
	unsigned long len[3];
	uint64_t n = 0;
	size_t i;
	int r;

	bind_opt_str(&in[0], c->p->name, &len[0]);
	bind_opt_str(&in[1], c->p->description, &len[1]);
	bind_opt_str(&in[2], c->p->workspace, &len[2]);
	bind_i32(&in[3], &c->p->folder_id);
	bind_i32(&in[4], &c->from);
	if ((r = db_exec_n(db, stmt(db, PASSET_STMT_CLONE), in, &n,
	    "repo_program_assets_clone")) != 0)
		return r;
	if (n == 0)
		return -REPO_ERR_NOT_FOUND;
	c->p->id = (int32_t)mysql_stmt_insert_id(stmt(db, PASSET_STMT_CLONE));
	for (i = 0; i < sizeof(copies) / sizeof(copies[0]); i++) {
		bind_i32(&in[0], &c->p->id);
		bind_i32(&in[1], &c->from);
		if ((r = db_exec(db, stmt(db, copies[i]), in,
		    "repo_program_assets_clone")) != 0)
			return r;
	}
	return 0;
}

/* See repo_program_assets.h. */
int
repo_program_assets_clone_in_tx(struct db *db, int32_t from,
    struct repo_program_create *p)
{
	struct clone_arg c = { from, p };

	p->id = 0;
	return clone_tx(db, &c);
}

struct tag_delete_arg {
	int32_t	id;
	int32_t	tag_type;
};

/* Delete Program Tag's transaction: the value, and updatedAt moved on. */
static int
tag_delete_tx(struct db *db, void *arg)
{
	struct tag_delete_arg *t = arg;
	MYSQL_BIND in[3];
	uint64_t n = 0;
	int r;

	bind_i32(&in[0], &t->id);
	bind_i32(&in[1], &t->tag_type);
	if ((r = db_exec(db, stmt(db, PASSET_STMT_TAG_DELETE), in,
	    "repo_program_assets_tag_delete")) != 0)
		return r;
	bind_null(&in[0]);
	bind_null(&in[1]);
	bind_i32(&in[2], &t->id);
	return db_exec_n(db, stmt(db, PASSET_STMT_UPDATE), in, &n,
	    "repo_program_assets_tag_delete");
}

/* See repo_program_assets.h. */
int
repo_program_assets_tag_delete(struct db *db, int32_t id, int32_t tag_type)
{
	struct tag_delete_arg t = { id, tag_type };
	int r;

	if ((r = db_ensure(db)) != 0)
		return r;
	return db_run_tx(db, tag_delete_tx, &t, false);
}

/* See repo_program_assets.h. */
int
repo_program_assets_send_lock(struct db *db, struct arena *a, int32_t id,
    struct repo_program_send_row *out)
{
	MYSQL_BIND in[1];
	struct db_text_rows t;
	int r;

	memset(out, 0, sizeof(*out));
	bind_i32(&in[0], &id);
	if ((r = db_select_text(db, stmt(db, PASSET_STMT_SEND_READ), in, a, 6,
	    1, "repo_program_assets_send_lock", &t)) != 0)
		return r;
	if (t.count == 0)
		return -REPO_ERR_NOT_FOUND;
	out->name = db_text_str(&t, 0, 0);
	out->type = db_text_str(&t, 0, 1);
	out->start_date = db_text_i64(&t, 0, 2);
	out->locked = db_text_i64(&t, 0, 3) != 0;
	out->campaign_id = (int32_t)db_text_i64(&t, 0, 4);
	out->run_id = db_text_i64(&t, 0, 5);
	return 0;
}

/* See repo_program_assets.h. */
int
repo_program_assets_send_set(struct db *db, int32_t id, bool locked,
    int32_t campaign_id, int64_t run_id)
{
	MYSQL_BIND in[4];
	int32_t l = locked ? 1 : 0;

	bind_i32(&in[0], &l);
	bind_i32(&in[1], &campaign_id);
	bind_i64(&in[2], &run_id);
	bind_i32(&in[3], &id);
	return db_exec(db, stmt(db, PASSET_STMT_SEND_SET), in,
	    "repo_program_assets_send_set");
}
