/*
 * Custom object types (repo_co_types.h): their versions and fields, the
 * edits and the approval that makes or alters a type's record table.
 *
 * Type metadata goes through the prepared statements below.  Record
 * tables are named co_rec_<type id> and their columns by field API names
 * that model/cotype.c checked ([A-Za-z][A-Za-z0-9_]*, not reserved), so
 * the DDL on them is built at run time with every identifier
 * back-quoted.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <mysql.h>
#include <mysqld_error.h>

#include "db/bind.h"
#include "db/pool.h"
#include "db/query.h"
#include "model/cotype.h"
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_co_types.h"
#include "repo/repo_smart_lists.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/log.h"
#include "util/xmalloc.h"

enum co_stmt {
	CO_STMT_VERSION,
	CO_STMT_LOCK_SCHEMA,
	CO_STMT_BUMP_SCHEMA,
	CO_STMT_TYPE_GET,
	CO_STMT_TYPE_LOCK,
	CO_STMT_TYPE_COUNT,
	CO_STMT_TYPE_NAMES,
	CO_STMT_TYPE_INSERT,
	CO_STMT_TYPE_UPDATE_STATE,
	CO_STMT_TYPE_DELETE,
	CO_STMT_VERSION_GET,
	CO_STMT_VERSION_UPSERT,
	CO_STMT_VERSION_DELETE,
	CO_STMT_VERSION_COPY,
	CO_STMT_FIELDS_GET,
	CO_STMT_FIELDS_DELETE,
	CO_STMT_FIELD_INSERT,
	CO_STMT_FIELDS_COPY,
	CO_STMT_LEASE_TAKE,
	CO_STMT_LEASE_HOLD,
	CO_STMT_LEASE_CLEAR,
	CO_STMT_PROMOTE,
	CO_STMT_LINKED_FROM,
	CO_STMT_TABLE_COLUMNS,
	CO_STMT_DISPLAY_USED,
	CO_STMT_REFS_ADD,
	CO_STMT__MAX
};

/* The columns of co_type that CO_STMT_TYPE_GET/LOCK return. */
#define CO_TYPE_COLUMNS \
	"id, api_name, state, has_approved, has_draft, table_ready, " \
	"draft_rev, UNIX_TIMESTAMP(created_at), UNIX_TIMESTAMP(updated_at), " \
	"approving_owner IS NOT NULL AND approving_until >= UTC_TIMESTAMP(), " \
	"added_after_approval"

#define CO_FIELD_COLUMNS \
	"name, display_name, data_type, length, description, is_dedupe, " \
	"related_object, related_field, key_type, pos"

/* Seconds an approval may hold its lease before another may take it. */
#define CO_APPROVE_LEASE_SECS	"120"

static const char *const sql[CO_STMT__MAX] = {
	[CO_STMT_VERSION] =
	    "SELECT version FROM co_schema WHERE id = 1",
	[CO_STMT_LOCK_SCHEMA] =
	    "SELECT version FROM co_schema WHERE id = 1 FOR UPDATE",
	[CO_STMT_BUMP_SCHEMA] =
	    "UPDATE co_schema SET version = version + 1 WHERE id = 1",
	[CO_STMT_TYPE_GET] =
	    "SELECT " CO_TYPE_COLUMNS " FROM co_type WHERE api_name = ?",
	[CO_STMT_TYPE_LOCK] =
	    "SELECT " CO_TYPE_COLUMNS " FROM co_type WHERE api_name = ? "
	    "FOR UPDATE",
	[CO_STMT_TYPE_COUNT] =
	    "SELECT COUNT(*) FROM co_type",
	[CO_STMT_TYPE_NAMES] =
	    "SELECT api_name FROM co_type ORDER BY id",
	[CO_STMT_TYPE_INSERT] =
	    "INSERT INTO co_type (api_name, state, has_approved, has_draft, "
	    "created_at, updated_at) VALUES (?, 'draft', 0, 1, "
	    "UTC_TIMESTAMP(), UTC_TIMESTAMP())",
	/* state, has_approved, has_draft, id. */
	[CO_STMT_TYPE_UPDATE_STATE] =
	    "UPDATE co_type SET state = ?, has_approved = ?, has_draft = ?, "
	    "draft_rev = draft_rev + 1, updated_at = UTC_TIMESTAMP() "
	    "WHERE id = ?",
	[CO_STMT_TYPE_DELETE] =
	    "DELETE FROM co_type WHERE id = ?",
	[CO_STMT_VERSION_GET] =
	    "SELECT display_name, plural_name, description, "
	    "show_in_lead_detail FROM co_type_version "
	    "WHERE type_id = ? AND is_draft = ?",
	[CO_STMT_VERSION_UPSERT] =
	    "INSERT INTO co_type_version (type_id, is_draft, display_name, "
	    "plural_name, description, show_in_lead_detail, updated_at) "
	    "VALUES (?, ?, ?, ?, ?, ?, UTC_TIMESTAMP()) "
	    "ON DUPLICATE KEY UPDATE display_name = VALUES(display_name), "
	    "plural_name = VALUES(plural_name), "
	    "description = VALUES(description), "
	    "show_in_lead_detail = VALUES(show_in_lead_detail), "
	    "updated_at = VALUES(updated_at)",
	[CO_STMT_VERSION_DELETE] =
	    "DELETE FROM co_type_version WHERE type_id = ? AND is_draft = ?",
	/* to is_draft, type, from is_draft. */
	[CO_STMT_VERSION_COPY] =
	    "INSERT INTO co_type_version (type_id, is_draft, display_name, "
	    "plural_name, description, show_in_lead_detail, updated_at) "
	    "SELECT type_id, ?, display_name, plural_name, description, "
	    "show_in_lead_detail, UTC_TIMESTAMP() FROM co_type_version "
	    "WHERE type_id = ? AND is_draft = ?",
	[CO_STMT_FIELDS_GET] =
	    "SELECT " CO_FIELD_COLUMNS " FROM co_field "
	    "WHERE type_id = ? AND is_draft = ? ORDER BY pos, name",
	[CO_STMT_FIELDS_DELETE] =
	    "DELETE FROM co_field WHERE type_id = ? AND is_draft = ?",
	[CO_STMT_FIELD_INSERT] =
	    "INSERT INTO co_field (type_id, is_draft, " CO_FIELD_COLUMNS ") "
	    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[CO_STMT_FIELDS_COPY] =
	    "INSERT INTO co_field (type_id, is_draft, " CO_FIELD_COLUMNS ") "
	    "SELECT type_id, ?, " CO_FIELD_COLUMNS " FROM co_field "
	    "WHERE type_id = ? AND is_draft = ?",
	/* owner, id: affected 1 when the lease was free or expired. */
	[CO_STMT_LEASE_TAKE] =
	    "UPDATE co_type SET approving_owner = ?, approving_until = "
	    "UTC_TIMESTAMP() + INTERVAL " CO_APPROVE_LEASE_SECS " SECOND "
	    "WHERE id = ? AND (approving_owner IS NULL OR "
	    "approving_until < UTC_TIMESTAMP())",
	/* id, owner: affected 1 while owner holds the lease. */
	[CO_STMT_LEASE_HOLD] =
	    "UPDATE co_type SET approving_until = UTC_TIMESTAMP() + INTERVAL "
	    CO_APPROVE_LEASE_SECS " SECOND WHERE id = ? AND "
	    "approving_owner = ?",
	[CO_STMT_LEASE_CLEAR] =
	    "UPDATE co_type SET approving_owner = NULL, approving_until = NULL "
	    "WHERE id = ? AND approving_owner = ?",
	/* added (the new fields of a later approval), id. */
	[CO_STMT_PROMOTE] =
	    "UPDATE co_type SET state = 'approved', has_approved = 1, "
	    "has_draft = 0, table_ready = 1, draft_rev = draft_rev + 1, "
	    "added_after_approval = added_after_approval + ?, "
	    "approved_at = UTC_TIMESTAMP(), updated_at = UTC_TIMESTAMP() "
	    "WHERE id = ?",
	/* Another type with a link field to this one (either version). */
	[CO_STMT_LINKED_FROM] =
	    "SELECT t.api_name FROM co_field f JOIN co_type t "
	    "ON t.id = f.type_id WHERE f.related_object = ? AND "
	    "f.type_id <> ? ORDER BY t.id LIMIT 1",
	[CO_STMT_TABLE_COLUMNS] =
	    "SELECT COLUMN_NAME FROM information_schema.COLUMNS "
	    "WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?",
	/* Another type with this display name, in either version, no case. */
	[CO_STMT_DISPLAY_USED] =
	    "SELECT t.api_name FROM co_type_version v JOIN co_type t "
	    "ON t.id = v.type_id WHERE v.type_id <> ? AND "
	    "v.display_name COLLATE utf8mb4_unicode_ci = ? "
	    "ORDER BY t.id LIMIT 1",
	/* The constraint ids of the approved fields of type ? (twice), as
	 * smart list filters name them (migration 0019): new names get one,
	 * names that had one keep it. */
	[CO_STMT_REFS_ADD] =
	    "INSERT IGNORE INTO co_field_ref (type_id, name, is_primary) "
	    "SELECT f.type_id, f.name, f.is_dedupe AND f.pos = (SELECT "
	    "MIN(d.pos) FROM co_field d WHERE d.type_id = ? AND "
	    "d.is_draft = 0 AND d.is_dedupe = 1) FROM co_field f WHERE "
	    "f.type_id = ? AND f.is_draft = 0 ORDER BY f.pos",
};

const struct db_stmt_set repo_co_types_sql = {
	.name = "custom_objects",
	.sql = sql,
	.n = CO_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum co_stmt s)
{
	return db_stmt(db, REPO_CO_TYPES, (int)s);
}

/* ---- Reading types -------------------------------------------------- */

/* The co_type row as read, with whether an approval holds the lease. */
struct type_row {
	struct co_type	*t;
	bool		 table_ready;
	bool		 leased;
	bool		 found;
};

static int
type_row_cb(void *arg, char **v, const unsigned long *lens)
{
	struct type_row *tr = arg;
	struct co_type *t = tr->t;

	(void)lens;
	t->id = db_col_i64(v[0]);
	free(t->api_name);
	t->api_name = db_col_dup(v[1]);
	free(t->state);
	t->state = db_col_dup(v[2]);
	t->approved = db_col_i64(v[3]) != 0;
	t->has_draft = db_col_i64(v[4]) != 0;
	tr->table_ready = db_col_i64(v[5]) != 0;
	t->draft_rev = db_col_i64(v[6]);
	t->created_at = db_col_i64(v[7]);
	t->updated_at = db_col_i64(v[8]);
	tr->leased = db_col_i64(v[9]) != 0;
	t->added = (int32_t)db_col_i64(v[10]);
	tr->found = true;
	if (tr->table_ready)
		snprintf(t->table, sizeof(t->table), "co_rec_%lld",
		    (long long)t->id);
	return 0;
}

/* Reads the co_type row of api_name (locked when lock). */
static int
type_row_get(struct db *db, const char *api_name, bool lock,
    struct type_row *tr)
{
	MYSQL_STMT *st;
	MYSQL_BIND in[1];
	unsigned long len = strlen(api_name);
	int r;

	tr->found = false;
	st = stmt(db, lock ? CO_STMT_TYPE_LOCK : CO_STMT_TYPE_GET);
	bind_str(&in[0], api_name, &len);
	if ((r = db_exec(db, st, in, "repo_co_types_type")) != 0)
		return r;
	if ((r = db_fetch_rows(db, st, 11, type_row_cb, tr,
	    "repo_co_types_type")) != 0)
		return r;
	return tr->found ? 0 : -REPO_ERR_NOT_FOUND;
}

struct version_row {
	struct co_type	*t;
	bool		 found;
};

static int
version_row_cb(void *arg, char **v, const unsigned long *lens)
{
	struct version_row *vr = arg;
	struct co_type *t = vr->t;

	(void)lens;
	free(t->display_name);
	t->display_name = db_col_dup(v[0]);
	free(t->plural_name);
	t->plural_name = db_col_dup(v[1]);
	free(t->description);
	t->description = db_col_dup(v[2]);
	t->show_in_lead_detail = db_col_i64(v[3]) != 0;
	vr->found = true;
	return 0;
}

static int
field_row_cb(void *arg, char **v, const unsigned long *lens)
{
	struct co_type *t = arg;
	struct co_field *f;
	enum co_dtype dt;

	(void)lens;
	if (co_dtype_parse(v[2], &dt) != 0) {
		log_err("repo_co_types: type %lld: bad data_type",
		    (long long)t->id);
		return -REPO_ERR_INTERNAL;
	}
	t->fields = xrealloc(t->fields, (t->nfields + 1) * sizeof(*t->fields));
	f = &t->fields[t->nfields++];
	memset(f, 0, sizeof(*f));
	f->name = db_col_dup(v[0]);
	f->display_name = db_col_dup(v[1]);
	f->type = dt;
	f->length = (int32_t)db_col_i64(v[3]);
	f->description = db_col_dup(v[4]);
	f->is_dedupe = db_col_i64(v[5]) != 0;
	f->is_link = dt == CO_LINK;
	f->related_object = db_col_dup(v[6]);
	f->related_field = db_col_dup(v[7]);
	if (v[8] == NULL || co_dtype_parse(v[8], &f->key_type) != 0)
		f->key_type = dt == CO_LINK ? CO_INTEGER : dt;
	f->pos = (int32_t)db_col_i64(v[9]);
	return 0;
}

/* Reads version is_draft of type t->id (name, fields) into t. */
static int
version_get(struct db *db, struct co_type *t, bool is_draft)
{
	MYSQL_STMT *st;
	MYSQL_BIND in[2];
	struct version_row vr = { .t = t };
	int32_t d = is_draft;
	size_t i;
	int r;

	for (i = 0; i < t->nfields; i++)
		co_field_clear(&t->fields[i]);
	free(t->fields);
	t->fields = NULL;
	t->nfields = 0;
	t->is_draft = is_draft;
	bind_i64(&in[0], &t->id);
	bind_i32(&in[1], &d);
	st = stmt(db, CO_STMT_VERSION_GET);
	if ((r = db_exec(db, st, in, "repo_co_types_version")) != 0 ||
	    (r = db_fetch_rows(db, st, 4, version_row_cb, &vr,
	    "repo_co_types_version")) != 0)
		return r;
	if (!vr.found)
		return -REPO_ERR_NOT_FOUND;
	st = stmt(db, CO_STMT_FIELDS_GET);
	if ((r = db_exec(db, st, in, "repo_co_types_fields")) != 0)
		return r;
	return db_fetch_rows(db, st, 10, field_row_cb, t,
	    "repo_co_types_fields");
}

/* Reads type api_name, version ver, into out; lock the type row. */
static int
type_read(struct db *db, const char *api_name, enum co_ver ver, bool lock,
    struct co_type *out, struct type_row *tr)
{
	bool draft;
	int r;

	co_type_clear(out);
	memset(tr, 0, sizeof(*tr));
	tr->t = out;
	if ((r = type_row_get(db, api_name, lock, tr)) != 0)
		return r;
	switch (ver) {
	case CO_VER_APPROVED:
		if (!out->approved)
			return -REPO_ERR_NOT_FOUND;
		draft = false;
		break;
	case CO_VER_DRAFT:
		if (!out->has_draft)
			return -REPO_ERR_NOT_FOUND;
		draft = true;
		break;
	case CO_VER_LATEST:
		draft = out->has_draft;
		break;
	default:
		draft = !out->approved;
		break;
	}
	return version_get(db, out, draft);
}

struct read_arg {
	const char	*api_name;
	enum co_ver	 ver;
	struct co_type	*out;
};

static int
read_tx(struct db *db, void *arg)
{
	struct read_arg *a = arg;
	struct type_row tr;

	return type_read(db, a->api_name, a->ver, false, a->out, &tr);
}

/* See repo_co_types.h. */
int
repo_co_types_read(struct db *db, const char *api_name,
    enum co_ver ver, struct co_type *out)
{
	struct read_arg a = { .api_name = api_name, .ver = ver, .out = out };
	int r;

	memset(out, 0, sizeof(*out));
	if (api_name == NULL || strlen(api_name) > CO_NAME_MAX)
		return -REPO_ERR_NOT_FOUND;
	/* One transaction: the type row and its version agree. */
	r = db_run_tx(db, read_tx, &a, true);
	if (r != 0)
		co_type_clear(out);
	return r;
}

/* See repo_co_types.h. */
int
repo_co_types_get(struct db *db, const char *api_name,
    bool approved, struct co_type *out)
{
	return repo_co_types_read(db, api_name,
	    approved ? CO_VER_APPROVED : CO_VER_LATEST, out);
}

struct names {
	char	**v;
	size_t	  n;
};

static int
names_cb(void *arg, char **v, const unsigned long *lens)
{
	struct names *nm = arg;

	(void)lens;
	nm->v = xrealloc(nm->v, (nm->n + 1) * sizeof(*nm->v));
	nm->v[nm->n++] = xstrdup(v[0] != NULL ? v[0] : "");
	return 0;
}

/* See repo_co_types.h. */
int
repo_co_types_list(struct db *db, char ***names, size_t *n)
{
	struct names nm = { NULL, 0 };
	MYSQL_STMT *st;
	int r;

	*names = NULL;
	*n = 0;
	if ((r = db_ensure(db)) != 0)
		return r;
	st = stmt(db, CO_STMT_TYPE_NAMES);
	if ((r = db_exec(db, st, NULL, "repo_co_types_list")) == 0)
		r = db_fetch_rows(db, st, 1, names_cb, &nm,
		    "repo_co_types_list");
	if (r != 0) {
		repo_co_types_names_free(nm.v, nm.n);
		return r;
	}
	*names = nm.v;
	*n = nm.n;
	return 0;
}

/* See repo_co_types.h. */
void
repo_co_types_names_free(char **names, size_t n)
{
	size_t i;

	if (names == NULL)
		return;
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* See repo_co_types.h. */
int
repo_co_types_version(struct db *db, int64_t *out)
{
	int r;

	*out = 0;
	if ((r = db_ensure(db)) != 0)
		return r;
	return db_query_i64(db, stmt(db, CO_STMT_VERSION), NULL, out,
	    "repo_co_types_version");
}

/* ---- Changing types ------------------------------------------------- */

/* Deep copy of a type (fields included). */
static void
type_copy(struct co_type *dst, const struct co_type *src)
{
	size_t i;

	*dst = *src;
	dst->api_name = db_col_dup(src->api_name);
	dst->display_name = db_col_dup(src->display_name);
	dst->plural_name = db_col_dup(src->plural_name);
	dst->description = db_col_dup(src->description);
	dst->state = db_col_dup(src->state);
	dst->fields = src->nfields > 0 ?
	    xcalloc(src->nfields, sizeof(*dst->fields)) : NULL;
	for (i = 0; i < src->nfields; i++)
		co_field_copy(&dst->fields[i], &src->fields[i]);
}

static void
bind_opt_str(MYSQL_BIND *b, const char *s, unsigned long *len)
{
	if (s == NULL) {
		bind_null(b);
		return;
	}
	*len = strlen(s);
	bind_str(b, s, len);
}

/* Writes t's fields and names as version is_draft of type t->id. */
static int
version_write(struct db *db, const struct co_type *t, bool is_draft)
{
	MYSQL_BIND in[12];
	unsigned long l[10];
	int32_t d = is_draft, show = t->show_in_lead_detail, len, dedupe,
	    pos;
	const struct co_field *f;
	const char *dt, *kt;
	size_t i;
	int r;

	memset(in, 0, sizeof(in));
	bind_i64(&in[0], &t->id);
	bind_i32(&in[1], &d);
	bind_opt_str(&in[2], t->display_name != NULL ? t->display_name : "",
	    &l[0]);
	bind_opt_str(&in[3], t->plural_name, &l[1]);
	bind_opt_str(&in[4], t->description, &l[2]);
	bind_i32(&in[5], &show);
	if ((r = db_exec(db, stmt(db, CO_STMT_VERSION_UPSERT), in,
	    "repo_co_types_version_write")) != 0)
		return r;
	if ((r = db_exec(db, stmt(db, CO_STMT_FIELDS_DELETE), in,
	    "repo_co_types_version_write")) != 0)
		return r;
	for (i = 0; i < t->nfields; i++) {
		f = &t->fields[i];
		len = f->length;
		dedupe = f->is_dedupe;
		pos = (int32_t)i;
		dt = co_dtype_name(f->type);
		kt = f->is_link ? co_dtype_name(f->key_type) : NULL;
		bind_i64(&in[0], &t->id);
		bind_i32(&in[1], &d);
		bind_opt_str(&in[2], f->name, &l[0]);
		bind_opt_str(&in[3], f->display_name != NULL ?
		    f->display_name : f->name, &l[1]);
		bind_opt_str(&in[4], dt, &l[2]);
		if (len > 0)
			bind_i32(&in[5], &len);
		else
			bind_null(&in[5]);
		bind_opt_str(&in[6], f->description, &l[3]);
		bind_i32(&in[7], &dedupe);
		bind_opt_str(&in[8], f->is_link ? f->related_object : NULL,
		    &l[4]);
		bind_opt_str(&in[9], f->is_link ? f->related_field : NULL,
		    &l[5]);
		bind_opt_str(&in[10], kt, &l[6]);
		bind_i32(&in[11], &pos);
		if ((r = db_exec(db, stmt(db, CO_STMT_FIELD_INSERT), in,
		    "repo_co_types_version_write")) != 0)
			return r;
	}
	return 0;
}

/* Sets state, has_approved, has_draft of type id; bumps draft_rev. */
static int
state_write(struct db *db, int64_t id, bool approved, bool has_draft)
{
	MYSQL_BIND in[4];
	const char *state = co_state_name(approved, has_draft);
	unsigned long l;
	int32_t a = approved, d = has_draft;

	bind_opt_str(&in[0], state, &l);
	bind_i32(&in[1], &a);
	bind_i32(&in[2], &d);
	bind_i64(&in[3], &id);
	return db_exec(db, stmt(db, CO_STMT_TYPE_UPDATE_STATE), in,
	    "repo_co_types_state");
}

static int
bump(struct db *db)
{
	return db_exec(db, stmt(db, CO_STMT_BUMP_SCHEMA), NULL,
	    "repo_co_types_bump");
}

static int
lock_schema(struct db *db)
{
	int64_t v;

	return db_query_i64(db, stmt(db, CO_STMT_LOCK_SCHEMA), NULL, &v,
	    "repo_co_types_lock");
}

struct edit_arg {
	const char	*api_name;
	struct co_edit	*e;
};

static int
linked_cb(void *arg, char **v, const unsigned long *lens)
{
	char *msg = arg;

	(void)lens;
	snprintf(msg, CO_NAME_MAX + 1, "%s", v[0] != NULL ? v[0] : "");
	return 0;
}

/* -REPO_ERR_CONFLICT when a type other than id has d's display name. */
static int
display_check(struct db *db, const struct co_type *d, int64_t id,
    struct co_edit *e)
{
	MYSQL_BIND in[2];
	MYSQL_STMT *st;
	unsigned long len;
	int r;

	e->display_taken[0] = '\0';
	if (d->display_name == NULL)
		return 0;
	len = strlen(d->display_name);
	bind_i64(&in[0], &id);
	bind_str(&in[1], d->display_name, &len);
	st = stmt(db, CO_STMT_DISPLAY_USED);
	if ((r = db_exec(db, st, in, "repo_co_types_edit")) != 0 ||
	    (r = db_fetch_rows(db, st, 1, linked_cb, e->display_taken,
	    "repo_co_types_edit")) != 0)
		return r;
	return e->display_taken[0] != '\0' ? -REPO_ERR_CONFLICT : 0;
}

/* Whether use i of u is the first of its list among those reading f
 * (any field when f is NULL). */
static bool
first_of_list(const struct repo_sl_co_use *u, size_t i, const char *f)
{
	size_t j;

	if (f != NULL && (u[i].field == NULL || strcmp(u[i].field, f) != 0))
		return false;
	for (j = 0; j < i; j++)
		if (u[j].list_id == u[i].list_id && (f == NULL ||
		    (u[j].field != NULL && strcmp(u[j].field, f) == 0)))
			return false;
	return true;
}

/*
 * The uses of type id by smart list rules (repo_sl_co_uses, locked: the
 * caller holds the type's row FOR UPDATE).  d NULL: how many lists use
 * the type into *nlists.  Else the first field a condition reads that d
 * lacks into field ("" when none) and how many lists read it.
 */
static int
uses_check(struct db *db, int64_t id, const struct co_type *d,
    size_t *nlists, char *field, size_t size)
{
	struct arena a;
	struct repo_sl_co_use *u;
	size_t n, i;
	int r;

	*nlists = 0;
	field[0] = '\0';
	arena_init(&a);
	r = repo_sl_co_uses(db, &a, (int32_t)id, true, &u, &n);
	for (i = 0; r == 0 && d != NULL && field[0] == '\0' && i < n; i++)
		if (u[i].field != NULL && co_type_field(d, u[i].field) == NULL)
			snprintf(field, size, "%s", u[i].field);
	for (i = 0; r == 0 && i < n && (d == NULL || field[0] != '\0'); i++)
		if (first_of_list(u, i, d != NULL ? field : NULL))
			(*nlists)++;
	arena_clear(&a);
	return r;
}

/*
 * -REPO_ERR_INVALID with msg when draft d of type id lacks a field that a
 * smart list rule reads (deleted, or renamed), else 0 or the error.
 */
static int
uses_keep_fields(struct db *db, int64_t id, const struct co_type *d,
    char *msg)
{
	char field[CO_NAME_MAX + 1];
	size_t nlists;
	int r;

	if ((r = uses_check(db, id, d, &nlists, field, sizeof(field))) != 0)
		return r;
	if (field[0] == '\0')
		return 0;
	snprintf(msg, 256, "Field '%s' of custom object type '%s' is used by "
	    "%zu smart lists or smart campaigns (see dependentAssets)", field,
	    d->api_name, nlists);
	return -REPO_ERR_INVALID;
}

static int
edit_tx(struct db *db, void *arg)
{
	struct edit_arg *a = arg;
	struct co_edit *e = a->e;
	struct co_type cur, appr, draft;
	struct type_row tr;
	MYSQL_BIND in[1];
	MYSQL_STMT *st;
	unsigned long len;
	int64_t count;
	int r, rc;

	memset(&cur, 0, sizeof(cur));
	memset(&appr, 0, sizeof(appr));
	memset(&draft, 0, sizeof(draft));
	e->is_new = false;
	e->err = 0;
	e->msg[0] = '\0';
	if ((r = lock_schema(db)) != 0)
		goto out;
	if ((r = db_query_i64(db, stmt(db, CO_STMT_TYPE_COUNT), NULL, &count,
	    "repo_co_types_edit")) != 0)
		goto out;
	e->ntypes = (size_t)count;
	memset(&tr, 0, sizeof(tr));
	tr.t = &cur;
	r = type_row_get(db, a->api_name, true, &tr);
	if (r == -REPO_ERR_NOT_FOUND) {
		if (!e->may_create)
			goto out;
		e->is_new = true;
		draft.api_name = xstrdup(a->api_name);
		draft.state = xstrdup("draft");
		draft.has_draft = true;
		draft.is_draft = true;
	} else if (r != 0)
		goto out;
	else {
		if (cur.approved) {
			if ((r = type_read(db, a->api_name, CO_VER_APPROVED,
			    false, &appr, &tr)) != 0)
				goto out;
		}
		if (cur.has_draft) {
			if ((r = type_read(db, a->api_name, CO_VER_DRAFT,
			    false, &draft, &tr)) != 0)
				goto out;
		} else {
			type_copy(&draft, &appr);
			draft.is_draft = true;
			draft.has_draft = true;
		}
	}
	e->had_draft = e->is_new || cur.has_draft;
	e->changed = true;
	if ((rc = e->fn(e, &draft, cur.approved ? &appr : NULL)) != 0) {
		e->err = rc;
		r = -REPO_ERR_INVALID;
		goto out;
	}
	if (!e->changed) {
		r = 0;
		goto out;
	}
	if (cur.approved && (r = uses_keep_fields(db, cur.id, &draft,
	    e->msg)) != 0)
		goto out;
	if ((r = display_check(db, &draft, cur.id, e)) != 0)
		goto out;
	if (e->is_new) {
		st = stmt(db, CO_STMT_TYPE_INSERT);
		len = strlen(a->api_name);
		bind_str(&in[0], a->api_name, &len);
		if ((r = db_exec(db, st, in, "repo_co_types_edit")) != 0)
			goto out;
		draft.id = (int64_t)mysql_stmt_insert_id(st);
	} else
		draft.id = cur.id;
	if ((r = version_write(db, &draft, true)) != 0 ||
	    (r = state_write(db, draft.id, cur.approved, true)) != 0 ||
	    (r = bump(db)) != 0)
		goto out;
	r = 0;
out:
	co_type_clear(&cur);
	co_type_clear(&appr);
	co_type_clear(&draft);
	return r;
}

/* See repo_co_types.h. */
int
repo_co_types_edit(struct db *db, const char *api_name,
    struct co_edit *e)
{
	struct edit_arg a = { .api_name = api_name, .e = e };

	return db_run_tx(db, edit_tx, &a, false);
}

static int
discard_tx(struct db *db, void *arg)
{
	const char *api_name = arg;
	struct co_type cur;
	struct type_row tr;
	MYSQL_BIND in[2];
	int32_t d = 1;
	int r;

	memset(&cur, 0, sizeof(cur));
	memset(&tr, 0, sizeof(tr));
	tr.t = &cur;
	if ((r = lock_schema(db)) != 0 ||
	    (r = type_row_get(db, api_name, true, &tr)) != 0)
		goto out;
	if (!cur.approved || !cur.has_draft) {
		r = -REPO_ERR_INVALID;
		goto out;
	}
	bind_i64(&in[0], &cur.id);
	bind_i32(&in[1], &d);
	if ((r = db_exec(db, stmt(db, CO_STMT_VERSION_DELETE), in,
	    "repo_co_types_discard")) != 0 ||
	    (r = state_write(db, cur.id, true, false)) != 0 ||
	    (r = bump(db)) != 0)
		goto out;
	r = 0;
out:
	co_type_clear(&cur);
	return r;
}

/* See repo_co_types.h. */
int
repo_co_types_discard(struct db *db, const char *api_name)
{
	return db_run_tx(db, discard_tx, (void *)(uintptr_t)api_name, false);
}

/* Runs one DDL statement (no values: identifiers are checked names). */
static int	ddl(struct db *db, const char *q);

/* Runs the DDL statement built in b, unless it outgrew its cap. */
static int
ddl_buf(struct db *db, struct buf *b)
{
	if (!buf_ok(b)) {
		log_err("repo_co_types_ddl: statement too long");
		return -REPO_ERR_INTERNAL;
	}
	return ddl(db, b->data);
}

static int
ddl(struct db *db, const char *q)
{
	int r;

	if ((r = db_ensure(db)) != 0)
		return r;
	if (mysql_real_query(db_conn(db), q, strlen(q)) != 0)
		return db_error(db, NULL, "repo_co_types_ddl");
	return 0;
}

struct delete_arg {
	const char	*api_name;
	char		*msg;
	int64_t		 id;
};


static int
delete_tx(struct db *db, void *arg)
{
	struct delete_arg *a = arg;
	struct co_type cur;
	struct type_row tr;
	MYSQL_BIND in[2];
	MYSQL_STMT *st;
	unsigned long len;
	char from[CO_NAME_MAX + 1] = "";
	size_t nlists;
	int r;

	memset(&cur, 0, sizeof(cur));
	memset(&tr, 0, sizeof(tr));
	tr.t = &cur;
	if ((r = lock_schema(db)) != 0 ||
	    (r = type_row_get(db, a->api_name, true, &tr)) != 0)
		goto out;
	if (tr.leased) {
		snprintf(a->msg, 256, "Custom object type '%s' is being "
		    "approved; try again later", cur.api_name);
		r = -REPO_ERR_INVALID;
		goto out;
	}
	len = strlen(cur.api_name);
	bind_str(&in[0], cur.api_name, &len);
	bind_i64(&in[1], &cur.id);
	st = stmt(db, CO_STMT_LINKED_FROM);
	if ((r = db_exec(db, st, in, "repo_co_types_delete")) != 0 ||
	    (r = db_fetch_rows(db, st, 1, linked_cb, from,
	    "repo_co_types_delete")) != 0)
		goto out;
	if (from[0] != '\0') {
		snprintf(a->msg, 256, "Custom object type '%s' is linked "
		    "from custom object type '%s'", cur.api_name, from);
		r = -REPO_ERR_INVALID;
		goto out;
	}
	if ((r = uses_check(db, cur.id, NULL, &nlists, from,
	    sizeof(from))) != 0)
		goto out;
	if (nlists > 0) {
		snprintf(a->msg, 256, "Custom object type '%s' is used by %zu "
		    "smart lists or smart campaigns (see dependentAssets)",
		    cur.api_name, nlists);
		r = -REPO_ERR_INVALID;
		goto out;
	}
	if ((r = db_exec(db, stmt(db, CO_STMT_TYPE_DELETE), &in[1],
	    "repo_co_types_delete")) != 0 ||
	    (r = bump(db)) != 0)
		goto out;
	a->id = cur.id;
	r = 0;
out:
	co_type_clear(&cur);
	return r;
}

/* See repo_co_types.h. */
int
repo_co_types_delete(struct db *db, const char *api_name,
    char *msg)
{
	struct delete_arg a = { .api_name = api_name, .msg = msg };
	char q[64];
	int r;

	msg[0] = '\0';
	if ((r = db_run_tx(db, delete_tx, &a, false)) != 0)
		return r;
	/*
	 * After the commit: a crash here leaves a table no type names, and
	 * type ids are never reused, so it is only wasted space.
	 */
	snprintf(q, sizeof(q), "DROP TABLE IF EXISTS `co_rec_%lld`",
	    (long long)a.id);
	if (ddl(db, q) != 0)
		log_err("repo_co_types_delete: %s failed", q);
	return 0;
}

/* ---- Approval ------------------------------------------------------- */

struct approve_arg {
	const char	*api_name;
	char		 owner[CO_GUID_LEN + 1];
	int		 (*check)(const struct co_type *,
			    const struct co_type *, char *);
	int		*err;
	char		*msg;
	struct co_type	 draft;		/* tx1: the draft approved */
	struct co_type	 appr;		/* tx1: the approved version */
	bool		 table_ready;
	bool		 leased;	/* we hold the lease */
};

static int
approve_begin_tx(struct db *db, void *arg)
{
	struct approve_arg *a = arg;
	struct type_row tr;
	MYSQL_BIND in[2];
	unsigned long len = CO_GUID_LEN;
	uint64_t n;
	int r, rc;

	*a->err = 0;
	a->msg[0] = '\0';
	if ((r = type_read(db, a->api_name, CO_VER_DEFAULT, true, &a->draft,
	    &tr)) != 0)
		return r;
	if (!a->draft.has_draft) {
		snprintf(a->msg, 256, "Custom object type '%s' has no draft "
		    "to approve", a->draft.api_name);
		return -REPO_ERR_INVALID;
	}
	a->table_ready = tr.table_ready;
	co_type_clear(&a->appr);
	if (a->draft.approved && (r = type_read(db, a->api_name,
	    CO_VER_APPROVED, false, &a->appr, &tr)) != 0)
		return r;
	if ((r = type_read(db, a->api_name, CO_VER_DRAFT, false, &a->draft,
	    &tr)) != 0)
		return r;
	if ((rc = a->check(&a->draft, a->draft.approved ? &a->appr : NULL,
	    a->msg)) != 0) {
		*a->err = rc;
		return -REPO_ERR_INVALID;
	}
	bind_str(&in[0], a->owner, &len);
	bind_i64(&in[1], &a->draft.id);
	if ((r = db_exec_n(db, stmt(db, CO_STMT_LEASE_TAKE), in, &n,
	    "repo_co_types_approve")) != 0)
		return r;
	if (n != 1) {
		snprintf(a->msg, 256, "Custom object type '%s' is being "
		    "approved; try again later", a->draft.api_name);
		return -REPO_ERR_INVALID;
	}
	return 0;
}

static int
approve_commit_tx(struct db *db, void *arg)
{
	struct approve_arg *a = arg;
	struct co_type cur;
	struct type_row tr;
	MYSQL_BIND in[3];
	unsigned long len = CO_GUID_LEN;
	int32_t zero = 0, one = 1, added;
	uint64_t n;
	int r;

	memset(&cur, 0, sizeof(cur));
	memset(&tr, 0, sizeof(tr));
	tr.t = &cur;
	if ((r = lock_schema(db)) != 0 ||
	    (r = type_row_get(db, a->api_name, true, &tr)) != 0)
		goto out;
	bind_i64(&in[0], &cur.id);
	bind_str(&in[1], a->owner, &len);
	if ((r = db_exec_n(db, stmt(db, CO_STMT_LEASE_HOLD), in, &n,
	    "repo_co_types_approve")) != 0)
		goto out;
	if (n != 1 || cur.draft_rev != a->draft.draft_rev || !cur.has_draft) {
		snprintf(a->msg, 256, "The draft of custom object type '%s' "
		    "changed during its approval; approve it again",
		    cur.api_name);
		r = -REPO_ERR_INVALID;
		goto out;
	}
	/* Fields smart list rules read stay (old columns go after this). */
	if (cur.approved && (r = uses_keep_fields(db, cur.id, &a->draft,
	    a->msg)) != 0)
		goto out;
	/* Approved := draft: drop the old copy, copy the draft, drop it. */
	bind_i64(&in[0], &cur.id);
	bind_i32(&in[1], &zero);
	if ((r = db_exec(db, stmt(db, CO_STMT_VERSION_DELETE), in,
	    "repo_co_types_approve")) != 0)
		goto out;
	bind_i32(&in[0], &zero);
	bind_i64(&in[1], &cur.id);
	bind_i32(&in[2], &one);
	if ((r = db_exec(db, stmt(db, CO_STMT_VERSION_COPY), in,
	    "repo_co_types_approve")) != 0 ||
	    (r = db_exec(db, stmt(db, CO_STMT_FIELDS_COPY), in,
	    "repo_co_types_approve")) != 0)
		goto out;
	bind_i64(&in[0], &cur.id);
	bind_i32(&in[1], &one);
	if ((r = db_exec(db, stmt(db, CO_STMT_VERSION_DELETE), in,
	    "repo_co_types_approve")) != 0)
		goto out;
	/* The fields are the constraints of the type's filter at once. */
	bind_i64(&in[0], &cur.id);
	bind_i64(&in[1], &cur.id);
	if ((r = db_exec(db, stmt(db, CO_STMT_REFS_ADD), in,
	    "repo_co_types_approve")) != 0)
		goto out;
	/* A later approval counts the fields it adds (the 20 of §6.1). */
	added = cur.approved ? (int32_t)co_type_nnew(&a->draft, &a->appr) : 0;
	bind_i32(&in[0], &added);
	bind_i64(&in[1], &cur.id);
	if ((r = db_exec(db, stmt(db, CO_STMT_PROMOTE), in,
	    "repo_co_types_approve")) != 0 ||
	    (r = bump(db)) != 0)
		goto out;
	r = 0;
out:
	co_type_clear(&cur);
	return r;
}

/* The record table's columns, by name, into *out (heap strings). */
static int
table_columns(struct db *db, const char *table, struct names *out)
{
	MYSQL_STMT *st;
	MYSQL_BIND in[1];
	unsigned long len = strlen(table);
	int r;

	memset(out, 0, sizeof(*out));
	if ((r = db_ensure(db)) != 0)
		return r;
	st = stmt(db, CO_STMT_TABLE_COLUMNS);
	bind_str(&in[0], table, &len);
	if ((r = db_exec(db, st, in, "repo_co_types_columns")) != 0)
		return r;
	return db_fetch_rows(db, st, 1, names_cb, out,
	    "repo_co_types_columns");
}

static bool
names_has(const struct names *nm, const char *name)
{
	size_t i;

	for (i = 0; i < nm->n; i++)
		if (strcasecmp(nm->v[i], name) == 0)
			return true;
	return false;
}

/* Appends "`name` TYPE NULL" for field f to b. */
static void
column_def(struct buf *b, const struct co_field *f)
{
	buf_printf(b, "`%s` %s NULL", f->name, co_column_type(f));
}

/*
 * Makes the records table of a type that was never approved: any table
 * left by an interrupted approval is dropped first (no record can be in
 * it: records need an approved type, and the lease keeps other
 * approvals out).
 */
static int
table_create(struct db *db, const char *table, const struct co_type *d)
{
	struct buf b;
	size_t i, nd = 0;
	int r;

	buf_init(&b, CO_SQL_MAX);
	buf_printf(&b, "DROP TABLE IF EXISTS `%s`", table);
	if ((r = ddl_buf(db, &b)) != 0)
		goto out;
	buf_reset(&b);
	buf_printf(&b, "CREATE TABLE `%s` (`id` BIGINT NOT NULL "
	    "AUTO_INCREMENT, `marketoGUID` CHAR(36) CHARACTER SET ascii NOT "
	    "NULL, `createdAt` DATETIME NOT NULL, `updatedAt` DATETIME NOT "
	    "NULL", table);
	for (i = 0; i < d->nfields; i++) {
		buf_adds(&b, ", ");
		column_def(&b, &d->fields[i]);
	}
	buf_adds(&b, ", PRIMARY KEY (`id`), UNIQUE KEY `co_guid` "
	    "(`marketoGUID`), KEY `co_updated` (`updatedAt`)");
	for (i = 0; i < d->nfields; i++) {
		if (!d->fields[i].is_dedupe)
			continue;
		buf_adds(&b, nd++ == 0 ? ", UNIQUE KEY `co_dedupe` (" : ", ");
		buf_printf(&b, "`%s`", d->fields[i].name);
	}
	if (nd > 0)
		buf_adds(&b, ")");
	for (i = 0; i < d->nfields; i++)
		if (d->fields[i].is_link && !d->fields[i].is_dedupe)
			buf_printf(&b, ", KEY `l_%s` (`%s`)",
			    d->fields[i].name, d->fields[i].name);
	buf_adds(&b, ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 "
	    "COLLATE=utf8mb4_nopad_bin");
	r = ddl_buf(db, &b);
out:
	buf_clear(&b);
	return r;
}

/*
 * Brings an approved type's table to the draft before the draft is
 * approved: only adds columns, so the approved version keeps working
 * whatever happens next.  A column a new field's name already has (left
 * by a deleted field or an interrupted approval) holds no approved data
 * and is made again with the new type.
 */
static int
table_extend(struct db *db, const char *table, const struct co_type *d,
    const struct co_type *appr)
{
	struct names cols;
	struct buf b;
	size_t i, nadd = 0;
	const struct co_field *f;
	int r;

	buf_init(&b, CO_SQL_MAX);
	if ((r = table_columns(db, table, &cols)) != 0)
		goto out;
	for (i = 0; i < d->nfields; i++) {
		f = &d->fields[i];
		if (co_type_field(appr, f->name) != NULL)
			continue;
		if (names_has(&cols, f->name)) {
			buf_reset(&b);
			buf_printf(&b, "ALTER TABLE `%s` DROP COLUMN `%s`",
			    table, f->name);
			if ((r = ddl_buf(db, &b)) != 0)
				goto out;
		}
	}
	buf_reset(&b);
	buf_printf(&b, "ALTER TABLE `%s`", table);
	for (i = 0; i < d->nfields; i++) {
		f = &d->fields[i];
		if (co_type_field(appr, f->name) != NULL)
			continue;
		buf_adds(&b, nadd++ == 0 ? " ADD COLUMN " : ", ADD COLUMN ");
		column_def(&b, f);
	}
	r = nadd > 0 ? ddl_buf(db, &b) : 0;
out:
	repo_co_types_names_free(cols.v, cols.n);
	buf_clear(&b);
	return r;
}

/* After approval: drops the columns of fields the type no longer has. */
static int
table_trim(struct db *db, const char *table, const struct co_type *d)
{
	static const char *const sys[] = { "id", "marketoGUID", "createdAt",
	    "updatedAt" };
	struct names cols;
	struct buf b;
	size_t i, j, ndrop = 0;
	char chk[128];
	bool keep;
	int r;

	buf_init(&b, CO_SQL_MAX);
	if ((r = table_columns(db, table, &cols)) != 0)
		goto out;
	buf_printf(&b, "ALTER TABLE `%s`", table);
	for (i = 0; i < cols.n; i++) {
		keep = co_type_field(d, cols.v[i]) != NULL;
		for (j = 0; j < sizeof(sys) / sizeof(sys[0]); j++)
			if (strcasecmp(sys[j], cols.v[i]) == 0)
				keep = true;
		/* Column names come from the catalogue, checked when made. */
		if (keep || co_name_check("field", cols.v[i], chk,
		    sizeof(chk)) != NULL)
			continue;
		buf_adds(&b, ndrop++ == 0 ? " DROP COLUMN " : ", DROP COLUMN ");
		buf_printf(&b, "`%s`", cols.v[i]);
	}
	r = ndrop > 0 ? ddl_buf(db, &b) : 0;
out:
	repo_co_types_names_free(cols.v, cols.n);
	buf_clear(&b);
	return r;
}

static void
lease_clear(struct db *db, struct approve_arg *a)
{
	MYSQL_BIND in[2];
	unsigned long len = CO_GUID_LEN;

	if (!a->leased || db_ensure(db) != 0)
		return;
	bind_i64(&in[0], &a->draft.id);
	bind_str(&in[1], a->owner, &len);
	(void)db_exec(db, stmt(db, CO_STMT_LEASE_CLEAR), in,
	    "repo_co_types_approve");
}

/* See repo_co_types.h. */
int
repo_co_types_approve(struct db *db, const char *api_name,
    int (*check)(const struct co_type *, const struct co_type *, char *),
    int *err, char *msg)
{
	struct approve_arg a;
	char table[32];
	int r;

	memset(&a, 0, sizeof(a));
	a.api_name = api_name;
	a.check = check;
	a.err = err;
	a.msg = msg;
	*err = 0;
	msg[0] = '\0';
	co_guid_new(a.owner);
	if ((r = db_run_tx(db, approve_begin_tx, &a, false)) != 0)
		goto out;
	a.leased = true;
	snprintf(table, sizeof(table), "co_rec_%lld", (long long)a.draft.id);
	/*
	 * DDL commits implicitly, so it runs between transactions: the
	 * table gets the draft's columns before the draft is approved, and
	 * columns are dropped only after, so an approved version never
	 * names a column its table lacks.
	 */
	if (!a.table_ready || !a.draft.approved)
		r = table_create(db, table, &a.draft);
	else
		r = table_extend(db, table, &a.draft, &a.appr);
	if (r != 0)
		goto out;
	if ((r = db_run_tx(db, approve_commit_tx, &a, false)) != 0)
		goto out;
	if (a.draft.approved && table_trim(db, table, &a.draft) != 0)
		log_err("repo_co_types_approve: %s: dropping old "
		    "columns failed; the next approval retries", table);
	r = 0;
out:
	lease_clear(db, &a);
	co_type_clear(&a.draft);
	co_type_clear(&a.appr);
	return r;
}
