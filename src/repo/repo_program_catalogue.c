/*
 * Channels and tag types (repo_program_catalogue.h).  A page of channels
 * is one read of the channels and one of the statuses of the ids that
 * page spans, joined here: the catalogue is small and read whole.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <mysql.h>

#include "bounds.h"
#include "db/bind.h"
#include "db/pool.h"
#include "db/query.h"
#include "repo/repo.h"
#include "repo/repo_program_catalogue.h"
#include "util/arena.h"

enum catalogue_stmt {
	CATALOGUE_STMT_CHANNELS,
	CATALOGUE_STMT_STATUSES,
	CATALOGUE_STMT_TAG_TYPES,
	CATALOGUE_STMT_TAG_VALUES,
	CATALOGUE_STMT_TAG_TYPE_INSERT,
	CATALOGUE_STMT_TAG_VALUE_INSERT,
	CATALOGUE_STMT_TAG_TYPE_LOCK,
	CATALOGUE_STMT_TAG_TYPE_USES,
	CATALOGUE_STMT_TAG_TYPE_DELETE,
	CATALOGUE_STMT__MAX
};

/* The most statuses read for a page, and values for a tag type. */
#define CATALOGUE_MAX_ROWS	100000

static const char *const sql[CATALOGUE_STMT__MAX] = {
	[CATALOGUE_STMT_CHANNELS] =
	    "SELECT id, name, program_type, created_at, updated_at "
	    "FROM channel WHERE (? IS NULL OR name = ?) "
	    "ORDER BY id LIMIT ? OFFSET ?",
	[CATALOGUE_STMT_STATUSES] =
	    "SELECT channel_id, step, name, description, hidden, success "
	    "FROM channel_status WHERE channel_id BETWEEN ? AND ? "
	    "ORDER BY channel_id, step",
	[CATALOGUE_STMT_TAG_TYPES] =
	    "SELECT id, name, program_types, required FROM tag_type "
	    "WHERE (? IS NULL OR name = ?) ORDER BY id LIMIT ? OFFSET ?",
	[CATALOGUE_STMT_TAG_VALUES] =
	    "SELECT value FROM tag_value WHERE tag_type_id = ? "
	    "ORDER BY position",
	[CATALOGUE_STMT_TAG_TYPE_INSERT] =
	    "INSERT INTO tag_type (name, program_types, required) "
	    "VALUES (?, ?, ?)",
	[CATALOGUE_STMT_TAG_VALUE_INSERT] =
	    "INSERT INTO tag_value (tag_type_id, position, value) "
	    "VALUES (?, ?, ?)",
	[CATALOGUE_STMT_TAG_TYPE_LOCK] =
	    "SELECT COUNT(*) FROM (SELECT id FROM tag_type WHERE id = ? "
	    "FOR UPDATE) t",
	/* Locked: a program tag written meanwhile waits for the delete. */
	[CATALOGUE_STMT_TAG_TYPE_USES] =
	    "SELECT COUNT(*) FROM (SELECT program_id FROM program_tag "
	    "WHERE tag_type_id = ? FOR UPDATE) t",
	[CATALOGUE_STMT_TAG_TYPE_DELETE] =
	    "DELETE FROM tag_type WHERE id = ?",
};

const struct db_stmt_set repo_program_catalogue_sql = {
	.name = "program_catalogue",
	.sql = sql,
	.n = CATALOGUE_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum catalogue_stmt s)
{
	return db_stmt(db, REPO_PROGRAM_CATALOGUE, (int)s);
}

/*
 * The rows of ncol columns statement st (channels or tag types) reads
 * for name (NULL: any), limit from offset, into *t in the arena a.
 */
static int
select_page(struct db *db, struct arena *a, enum catalogue_stmt st,
    const char *name, int limit, int64_t offset, size_t ncol,
    struct db_text_rows *t)
{
	MYSQL_BIND in[4];
	unsigned long len = name != NULL ? strlen(name) : 0;
	int64_t lim = limit;
	int r;

	bind_str_twice(&in[0], name, &len);
	bind_i64(&in[2], &lim);
	bind_i64(&in[3], &offset);
	if ((r = db_ensure(db)) != 0)
		return r;
	return db_select_text(db, stmt(db, st), in, a, ncol, (size_t)limit,
	    "repo_program_catalogue", t);
}

/* The statuses of rows s into the channels c[0..n-1] (ids ascending). */
static int
attach_statuses(struct arena *a, const struct db_text_rows *s,
    struct repo_channel *c, size_t n)
{
	struct repo_channel_status *v;
	size_t i, k = 0, j;
	int32_t id;

	if (s->count == 0)
		return 0;
	if ((v = arena_zalloc(a, s->count * sizeof(*v))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < s->count; i++) {
		v[i].step = (int32_t)db_text_i64(s, i, 1);
		v[i].name = db_text_str(s, i, 2);
		v[i].description = db_text_str(s, i, 3);
		v[i].hidden = db_text_i64(s, i, 4) != 0;
		v[i].success = db_text_i64(s, i, 5) != 0;
	}
	for (j = 0; j < n; j++) {
		while (k < s->count && (id = (int32_t)db_text_i64(s, k, 0)) <
		    c[j].id)
			k++;
		c[j].statuses = &v[k];
		while (k < s->count && db_text_i64(s, k, 0) == c[j].id) {
			c[j].nstatuses++;
			k++;
		}
	}
	return 0;
}

/* See repo_program_catalogue.h. */
int
repo_program_catalogue_channels(struct db *db, struct arena *a,
    const char *name, int limit, int64_t offset, struct repo_channel **out,
    size_t *n)
{
	MYSQL_BIND sin[2];
	struct db_text_rows t, s;
	struct repo_channel *c;
	int32_t lo, hi;
	size_t i;
	int r;

	*out = NULL;
	*n = 0;
	if ((r = select_page(db, a, CATALOGUE_STMT_CHANNELS, name, limit,
	    offset, 5, &t)) != 0)
		return r;
	if (t.count == 0)
		return 0;
	if ((c = arena_zalloc(a, t.count * sizeof(*c))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < t.count; i++) {
		c[i].id = (int32_t)db_text_i64(&t, i, 0);
		c[i].name = db_text_str(&t, i, 1);
		c[i].program_type = db_text_str(&t, i, 2);
		c[i].created_at = db_text_str(&t, i, 3);
		c[i].updated_at = db_text_str(&t, i, 4);
	}
	lo = c[0].id;
	hi = c[t.count - 1].id;
	bind_i32(&sin[0], &lo);
	bind_i32(&sin[1], &hi);
	if ((r = db_select_text(db, stmt(db, CATALOGUE_STMT_STATUSES), sin,
	    a, 6, CATALOGUE_MAX_ROWS, "repo_program_catalogue_channels",
	    &s)) != 0 ||
	    (r = attach_statuses(a, &s, c, t.count)) != 0)
		return r;
	*out = c;
	*n = t.count;
	return 0;
}

/* See repo_program_catalogue.h. */
int
repo_program_catalogue_tag_types(struct db *db, struct arena *a,
    const char *name, int limit, int64_t offset, struct repo_tag_type **out,
    size_t *n)
{
	MYSQL_BIND vin[1];
	struct db_text_rows t, v;
	struct repo_tag_type *tt;
	size_t i, k;
	int r;

	*out = NULL;
	*n = 0;
	if ((r = select_page(db, a, CATALOGUE_STMT_TAG_TYPES, name, limit,
	    offset, 4, &t)) != 0)
		return r;
	if (t.count == 0)
		return 0;
	if ((tt = arena_zalloc(a, t.count * sizeof(*tt))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < t.count; i++) {
		tt[i].id = (int32_t)db_text_i64(&t, i, 0);
		tt[i].name = db_text_str(&t, i, 1);
		tt[i].program_types = db_text_str(&t, i, 2);
		tt[i].required = db_text_i64(&t, i, 3) != 0;
		if (name == NULL)
			continue;
		bind_i32(&vin[0], &tt[i].id);
		if ((r = db_select_text(db, stmt(db,
		    CATALOGUE_STMT_TAG_VALUES), vin, a, 1, CATALOGUE_MAX_ROWS,
		    "repo_program_catalogue_tag_types", &v)) != 0)
			return r;
		if (v.count > 0 && (tt[i].values = arena_zalloc(a,
		    v.count * sizeof(*tt[i].values))) == NULL)
			return -REPO_ERR_INTERNAL;
		for (k = 0; k < v.count; k++)
			tt[i].values[k] = db_text_str(&v, k, 0);
		tt[i].nvalues = v.count;
	}
	*out = tt;
	*n = t.count;
	return 0;
}

/* Create's transaction: the tag type, then its values in order; the
 * new id into t->id. */
static int
tag_type_insert_tx(struct db *db, void *arg)
{
	struct repo_tag_type *t = arg;
	MYSQL_STMT *st = stmt(db, CATALOGUE_STMT_TAG_TYPE_INSERT);
	MYSQL_BIND in[3];
	unsigned long len[2];
	int32_t id, req = t->required, pos;
	size_t i;
	int r;

	len[0] = strlen(t->name);
	len[1] = strlen(t->program_types);
	bind_str(&in[0], t->name, &len[0]);
	bind_str(&in[1], t->program_types, &len[1]);
	bind_i32(&in[2], &req);
	if ((r = db_exec(db, st, in, "repo_program_catalogue_tag_type")) != 0)
		return r;
	id = (int32_t)mysql_stmt_insert_id(st);
	for (i = 0; i < t->nvalues; i++) {
		pos = (int32_t)i + 1;
		len[0] = strlen(t->values[i]);
		bind_i32(&in[0], &id);
		bind_i32(&in[1], &pos);
		bind_str(&in[2], t->values[i], &len[0]);
		if ((r = db_exec(db, stmt(db, CATALOGUE_STMT_TAG_VALUE_INSERT),
		    in, "repo_program_catalogue_tag_type")) != 0)
			return r;
	}
	t->id = id;
	return 0;
}

/* See repo_program_catalogue.h. */
int
repo_program_catalogue_tag_type_insert(struct db *db,
    const struct repo_tag_type *t, int32_t *id)
{
	struct repo_tag_type x = *t;
	int r;

	*id = 0;
	x.id = 0;
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_run_tx(db, tag_type_insert_tx, &x, false)) != 0)
		return r;
	*id = x.id;
	return 0;
}

/* Delete's transaction: refused while a program carries the type. */
static int
tag_type_delete_tx(struct db *db, void *arg)
{
	int32_t *id = arg;
	MYSQL_BIND in[1];
	int64_t n = 0;
	int r;

	bind_i32(&in[0], id);
	if ((r = db_query_i64(db, stmt(db, CATALOGUE_STMT_TAG_TYPE_LOCK), in,
	    &n, "repo_program_catalogue_tag_type_delete")) != 0)
		return r;
	if (n == 0)
		return -REPO_ERR_NOT_FOUND;
	if ((r = db_query_i64(db, stmt(db, CATALOGUE_STMT_TAG_TYPE_USES), in,
	    &n, "repo_program_catalogue_tag_type_delete")) != 0)
		return r;
	if (n > 0)
		return -REPO_ERR_CONFLICT;
	return db_exec(db, stmt(db, CATALOGUE_STMT_TAG_TYPE_DELETE), in,
	    "repo_program_catalogue_tag_type_delete");
}

/* See repo_program_catalogue.h. */
int
repo_program_catalogue_tag_type_delete(struct db *db, int32_t id)
{
	int r;

	if ((r = db_ensure(db)) != 0)
		return r;
	return db_run_tx(db, tag_type_delete_tx, &id, false);
}
