/*
 * Segmentations (repo_segmentations.h).  A segmentation row and its
 * segment rows are written in one transaction; deleting locks the row
 * and reads its uses (templates' dynamic sections and emails, both in
 * asset_usage) in the same one.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mysql.h>

#include "db/bind.h"
#include "db/pool.h"
#include "db/query.h"
#include "repo/repo.h"
#include "repo/repo_segmentations.h"
#include "repo/repo_usage.h"
#include "util/arena.h"

enum seg_stmt {
	SEG_STMT_GET,
	SEG_STMT_LIST,
	SEG_STMT_SEGMENTS,
	SEG_STMT_ID_BY_NAME,
	SEG_STMT_INSERT,
	SEG_STMT_SEGMENT_INSERT,
	SEG_STMT_LOCK,
	SEG_STMT_HOLD,
	SEG_STMT_DELETE,
	SEG_STMT__MAX
};

#define SEG_COLS \
	"id, name, description, status, created_at, updated_at"
#define SEG_NCOLS	6

static const char *const sql[SEG_STMT__MAX] = {
	[SEG_STMT_GET] =
	    "SELECT " SEG_COLS " FROM segmentation WHERE id = ?",
	[SEG_STMT_LIST] =
	    "SELECT " SEG_COLS " FROM segmentation ORDER BY id",
	[SEG_STMT_SEGMENTS] =
	    "SELECT id, name, position FROM segment WHERE "
	    "segmentation_id = ? ORDER BY position",
	[SEG_STMT_ID_BY_NAME] =
	    "SELECT id FROM segmentation WHERE name = ?",
	[SEG_STMT_INSERT] =
	    "INSERT INTO segmentation (name, description, status, "
	    "created_at, updated_at) VALUES (?, ?, 'approved', "
	    "UTC_TIMESTAMP(), UTC_TIMESTAMP())",
	[SEG_STMT_SEGMENT_INSERT] =
	    "INSERT INTO segment (segmentation_id, name, position) VALUES "
	    "(?, ?, ?)",
	[SEG_STMT_LOCK] =
	    "SELECT id FROM segmentation WHERE id = ? FOR UPDATE",
	[SEG_STMT_HOLD] =
	    "SELECT id FROM segmentation WHERE id = ? LOCK IN SHARE MODE",
	[SEG_STMT_DELETE] =
	    "DELETE FROM segmentation WHERE id = ?",
};

const struct db_stmt_set repo_segmentations_sql = {
	.name = "segmentations",
	.sql = sql,
	.n = SEG_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum seg_stmt s)
{
	return db_stmt(db, REPO_SEGMENTATIONS, (int)s);
}

/* Row i of t (SEG_COLS) into *out. */
static void
fill(const struct db_text_rows *t, size_t i, struct repo_seg *out)
{
	memset(out, 0, sizeof(*out));
	out->id = (int32_t)db_text_i64(t, i, 0);
	out->name = db_text_str(t, i, 1);
	out->description = db_text_str(t, i, 2);
	out->status = db_text_str(t, i, 3);
	db_copy_text(out->created_at, sizeof(out->created_at),
	    db_text_str(t, i, 4), SIZE_MAX);
	db_copy_text(out->updated_at, sizeof(out->updated_at),
	    db_text_str(t, i, 5), SIZE_MAX);
}

/* The segments of out->id, by position. */
static int
segments_of(struct db *db, struct arena *a, struct repo_seg *out)
{
	MYSQL_BIND in[1];
	struct db_text_rows t;
	size_t i;
	int r;

	bind_i32(&in[0], &out->id);
	if ((r = db_exec(db, stmt(db, SEG_STMT_SEGMENTS), in,
	    "repo_seg_get")) != 0 ||
	    (r = db_fetch_text(db, stmt(db, SEG_STMT_SEGMENTS), a, 3,
	    MAX_SEGMENTS, "repo_seg_get", &t)) != 0)
		return r;
	if (t.count == 0)
		return 0;
	if ((out->segments = arena_zalloc(a, t.count *
	    sizeof(*out->segments))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < t.count; i++) {
		out->segments[i].id = (int32_t)db_text_i64(&t, i, 0);
		out->segments[i].name = db_text_str(&t, i, 1);
		out->segments[i].position = (int32_t)db_text_i64(&t, i, 2);
	}
	out->nsegments = t.count;
	return 0;
}

/* See repo_segmentations.h. */
int
repo_seg_get(struct db *db, struct arena *a, int32_t id, struct repo_seg *out)
{
	MYSQL_BIND in[1];
	struct db_text_rows t;
	int r;

	memset(out, 0, sizeof(*out));
	bind_i32(&in[0], &id);
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_exec(db, stmt(db, SEG_STMT_GET), in,
	    "repo_seg_get")) != 0 ||
	    (r = db_fetch_text(db, stmt(db, SEG_STMT_GET), a, SEG_NCOLS, 1,
	    "repo_seg_get", &t)) != 0)
		return r;
	if (t.count == 0)
		return -REPO_ERR_NOT_FOUND;
	fill(&t, 0, out);
	return segments_of(db, a, out);
}

/* See repo_segmentations.h. */
int
repo_seg_list(struct db *db, struct arena *a, struct repo_seg **out,
    size_t *n)
{
	struct db_text_rows t;
	struct repo_seg *items;
	size_t i;
	int r;

	*out = NULL;
	*n = 0;
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_exec(db, stmt(db, SEG_STMT_LIST), NULL,
	    "repo_seg_list")) != 0 ||
	    (r = db_fetch_text(db, stmt(db, SEG_STMT_LIST), a, SEG_NCOLS,
	    SIZE_MAX, "repo_seg_list", &t)) != 0)
		return r;
	if (t.count == 0)
		return 0;
	if ((items = arena_zalloc(a, t.count * sizeof(*items))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < t.count; i++) {
		fill(&t, i, &items[i]);
		if ((r = segments_of(db, a, &items[i])) != 0)
			return r;
	}
	*out = items;
	*n = t.count;
	return 0;
}

/* See repo_segmentations.h. */
int
repo_seg_get_id_by_name(struct db *db, const char *name, int32_t *id)
{
	return db_query_id(db, stmt(db, SEG_STMT_ID_BY_NAME), name, id,
	    "repo_seg_get_id_by_name");
}

struct seg_insert {
	const char		*name;
	const char		*description;
	const char *const	*names;
	size_t			 n;
	int32_t			 id;
};

static int
segment_put(struct db *db, int32_t seg, const char *name, int32_t pos)
{
	MYSQL_BIND in[3];
	unsigned long len = strlen(name);

	bind_i32(&in[0], &seg);
	bind_str(&in[1], name, &len);
	bind_i32(&in[2], &pos);
	return db_exec(db, stmt(db, SEG_STMT_SEGMENT_INSERT), in,
	    "repo_seg_insert");
}

static int
seg_insert_tx(struct db *db, void *arg)
{
	struct seg_insert *x = arg;
	MYSQL_BIND in[2];
	unsigned long nlen = strlen(x->name), dlen = 0;
	size_t i;
	int r;

	bind_str(&in[0], x->name, &nlen);
	if (x->description != NULL) {
		dlen = strlen(x->description);
		bind_str(&in[1], x->description, &dlen);
	} else
		bind_null(&in[1]);
	if ((r = db_exec(db, stmt(db, SEG_STMT_INSERT), in,
	    "repo_seg_insert")) != 0)
		return r;
	x->id = (int32_t)mysql_stmt_insert_id(stmt(db, SEG_STMT_INSERT));
	if ((r = segment_put(db, x->id, SEGMENT_DEFAULT, 0)) != 0)
		return r;
	for (i = 0; i < x->n; i++)
		if ((r = segment_put(db, x->id, x->names[i],
		    (int32_t)i + 1)) != 0)
			return r;
	return 0;
}

/* See repo_segmentations.h. */
int
repo_seg_insert(struct db *db, const char *name, const char *description,
    const char *const *names, size_t n, int32_t *id)
{
	struct seg_insert x = { name, description, names, n, 0 };
	int r;

	*id = 0;
	if (n + 1 > MAX_SEGMENTS)
		return -REPO_ERR_INVALID;
	if ((r = db_run_tx(db, seg_insert_tx, &x, false)) == 0)
		*id = x.id;
	return r;
}

static int
seg_delete_tx(struct db *db, void *arg)
{
	int32_t *id = arg;
	MYSQL_BIND in[1];
	int64_t found, used = 0;
	int r;

	bind_i32(&in[0], id);
	if ((r = db_query_i64(db, stmt(db, SEG_STMT_LOCK), in, &found,
	    "repo_seg_delete")) != 0 ||
	    (r = repo_usage_count(db, USAGE_SEGMENTATION, *id, &used)) != 0)
		return r;
	if (used > 0)
		return -REPO_ERR_CONFLICT;
	return db_exec(db, stmt(db, SEG_STMT_DELETE), in, "repo_seg_delete");
}

/* See repo_segmentations.h. */
int
repo_seg_delete(struct db *db, int32_t id)
{
	return db_run_tx(db, seg_delete_tx, &id, false);
}

/* See repo_segmentations.h. */
int
repo_seg_hold(struct db *db, int32_t id)
{
	MYSQL_BIND in[1];
	int64_t found;

	bind_i32(&in[0], &id);
	return db_query_i64(db, stmt(db, SEG_STMT_HOLD), in, &found,
	    "repo_seg_hold");
}
