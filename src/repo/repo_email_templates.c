/*
 * Email templates (repo_email_templates.h).  A template row holds the
 * metadata and the content; email_template_dynamic the sections an
 * email made from it starts dynamic with, and asset_usage records that
 * the template uses each of their segmentations (the segmentation store
 * asks asset_usage alone on a delete).  Deleting locks the row and reads
 * its uses in the same transaction.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mysql.h>

#include "bounds.h"
#include "db/bind.h"
#include "db/pool.h"
#include "db/query.h"
#include "repo/repo.h"
#include "repo/repo_email_templates.h"
#include "repo/repo_segmentations.h"
#include "repo/repo_usage.h"
#include "util/arena.h"
#include "util/xmalloc.h"

enum etpl_stmt {
	ETPL_STMT_GET,
	ETPL_STMT_CONTENT,
	ETPL_STMT_DYNAMIC,
	ETPL_STMT_LIST,
	ETPL_STMT_ID_BY_NAME,
	ETPL_STMT_INSERT,
	ETPL_STMT_DYNAMIC_INSERT,
	ETPL_STMT_LOCK,
	ETPL_STMT_DELETE,
	ETPL_STMT_COUNT_FOLDER,
	ETPL_STMT__MAX
};

#define ETPL_COLS \
	"id, name, description, folder_id, workspace_id, created_at, " \
	"updated_at"
#define ETPL_NCOLS	7

static const char *const sql[ETPL_STMT__MAX] = {
	[ETPL_STMT_GET] =
	    "SELECT " ETPL_COLS " FROM email_template WHERE id = ?",
	[ETPL_STMT_CONTENT] =
	    "SELECT content FROM email_template WHERE id = ?",
	[ETPL_STMT_DYNAMIC] =
	    "SELECT html_id, segmentation_id FROM email_template_dynamic "
	    "WHERE template_id = ? ORDER BY html_id",
	[ETPL_STMT_LIST] =
	    "SELECT " ETPL_COLS " FROM email_template ORDER BY id",
	[ETPL_STMT_ID_BY_NAME] =
	    "SELECT id FROM email_template WHERE name = ?",
	[ETPL_STMT_INSERT] =
	    "INSERT INTO email_template (name, description, folder_id, "
	    "content, created_at, updated_at) VALUES (?, ?, ?, ?, "
	    "UTC_TIMESTAMP(), UTC_TIMESTAMP())",
	[ETPL_STMT_DYNAMIC_INSERT] =
	    "INSERT INTO email_template_dynamic (template_id, html_id, "
	    "segmentation_id) VALUES (?, ?, ?)",
	[ETPL_STMT_LOCK] =
	    "SELECT id FROM email_template WHERE id = ? FOR UPDATE",
	[ETPL_STMT_DELETE] =
	    "DELETE FROM email_template WHERE id = ?",
	[ETPL_STMT_COUNT_FOLDER] =
	    "SELECT COUNT(*) FROM email_template WHERE folder_id = ?",
};

const struct db_stmt_set repo_email_templates_sql = {
	.name = "email_templates",
	.sql = sql,
	.n = ETPL_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum etpl_stmt s)
{
	return db_stmt(db, REPO_EMAIL_TEMPLATES, (int)s);
}

/* Row i of t (ETPL_COLS) into *out. */
static void
fill(const struct db_text_rows *t, size_t i, struct repo_etpl *out)
{
	memset(out, 0, sizeof(*out));
	out->id = (int32_t)db_text_i64(t, i, 0);
	out->name = db_text_str(t, i, 1);
	out->description = db_text_str(t, i, 2);
	out->folder_id = (int32_t)db_text_i64(t, i, 3);
	out->workspace_id = (int32_t)db_text_i64(t, i, 4);
	db_copy_text(out->created_at, sizeof(out->created_at),
	    db_text_str(t, i, 5), SIZE_MAX);
	db_copy_text(out->updated_at, sizeof(out->updated_at),
	    db_text_str(t, i, 6), SIZE_MAX);
}

/* The content and the dynamic sections of template out->id. */
static int
content_of(struct db *db, struct arena *a, struct repo_etpl *out)
{
	MYSQL_BIND in[1];
	struct db_text_rows t;
	size_t i;
	int r;

	bind_i32(&in[0], &out->id);
	if ((r = db_exec(db, stmt(db, ETPL_STMT_CONTENT), in,
	    "repo_etpl_get")) != 0 ||
	    (r = db_fetch_text(db, stmt(db, ETPL_STMT_CONTENT), a, 1, 1,
	    "repo_etpl_get", &t)) != 0)
		return r;
	if (t.count == 0)
		return -REPO_ERR_NOT_FOUND;
	out->content = db_text_str(&t, 0, 0) != NULL ?
	    db_text_str(&t, 0, 0) : "";
	out->content_len = t.len[0];
	if ((r = db_exec(db, stmt(db, ETPL_STMT_DYNAMIC), in,
	    "repo_etpl_get")) != 0 ||
	    (r = db_fetch_text(db, stmt(db, ETPL_STMT_DYNAMIC), a, 2,
	    SIZE_MAX, "repo_etpl_get", &t)) != 0)
		return r;
	if (t.count == 0)
		return 0;
	if ((out->dynamic = arena_zalloc(a, t.count *
	    sizeof(*out->dynamic))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < t.count; i++) {
		out->dynamic[i].html_id = db_text_str(&t, i, 0);
		out->dynamic[i].segmentation_id =
		    (int32_t)db_text_i64(&t, i, 1);
	}
	out->ndynamic = t.count;
	return 0;
}

/* See repo_email_templates.h. */
int
repo_etpl_get(struct db *db, struct arena *a, int32_t id, bool with_content,
    struct repo_etpl *out)
{
	MYSQL_BIND in[1];
	struct db_text_rows t;
	int r;

	memset(out, 0, sizeof(*out));
	bind_i32(&in[0], &id);
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_exec(db, stmt(db, ETPL_STMT_GET), in,
	    "repo_etpl_get")) != 0 ||
	    (r = db_fetch_text(db, stmt(db, ETPL_STMT_GET), a, ETPL_NCOLS, 1,
	    "repo_etpl_get", &t)) != 0)
		return r;
	if (t.count == 0)
		return -REPO_ERR_NOT_FOUND;
	fill(&t, 0, out);
	return with_content ? content_of(db, a, out) : 0;
}

/* A worker's copy of a template (repo_etpl_get_used), on the heap. */
struct etpl_copy {
	struct repo_etpl	 t;	/* id 0: a free slot */
	size_t			 bytes;
	uint64_t		 used;
};

static struct etpl_copy	copies[ETPL_CACHE_ENTRIES];
static size_t		copies_bytes;
static uint64_t		copies_tick;

/* s (len bytes) into a, NUL-terminated; NULL stays NULL. */
static char *
dup_into(struct arena *a, const char *s, size_t len)
{
	char *d;

	if (s == NULL)
		return NULL;
	if (a == NULL) {
		d = xmalloc(len + 1);
	} else if ((d = arena_alloc(a, len + 1)) == NULL)
		return NULL;
	memcpy(d, s, len);
	d[len] = '\0';
	return d;
}

static void
copy_free(struct etpl_copy *c)
{
	size_t i;

	for (i = 0; i < c->t.ndynamic; i++)
		free((char *)c->t.dynamic[i].html_id);
	free(c->t.dynamic);
	free((char *)c->t.name);
	free((char *)c->t.description);
	free((char *)c->t.content);
	copies_bytes -= c->bytes;
	memset(c, 0, sizeof(*c));
}

/*
 * Template t as a copy in a (NULL: the heap), into *out; -1 when the
 * arena is full.
 */
static int
etpl_copy(struct arena *a, const struct repo_etpl *t, struct repo_etpl *out)
{
	struct repo_etpl_dynamic *dyn = NULL;
	size_t i;

	*out = *t;
	out->dynamic = NULL;
	out->ndynamic = 0;
	if (t->ndynamic > 0) {
		dyn = a != NULL ? arena_zalloc(a, t->ndynamic * sizeof(*dyn)) :
		    xcalloc(t->ndynamic, sizeof(*dyn));
		if (dyn == NULL)
			return -1;
		for (i = 0; i < t->ndynamic; i++) {
			dyn[i].segmentation_id = t->dynamic[i].segmentation_id;
			dyn[i].html_id = dup_into(a, t->dynamic[i].html_id,
			    strlen(t->dynamic[i].html_id));
		}
	}
	out->dynamic = dyn;
	out->ndynamic = t->ndynamic;
	out->name = dup_into(a, t->name, t->name != NULL ?
	    strlen(t->name) : 0);
	out->description = dup_into(a, t->description,
	    t->description != NULL ? strlen(t->description) : 0);
	out->content = dup_into(a, t->content, t->content_len);
	return out->content == NULL ? -1 : 0;
}

/* Keeps a heap copy of t, dropping the least recently used copies. */
static void
etpl_keep(const struct repo_etpl *t)
{
	struct etpl_copy *slot = NULL;
	size_t i, bytes = t->content_len + 256;

	if (bytes > ETPL_CACHE_BYTES)
		return;
	for (;;) {
		slot = NULL;
		for (i = 0; i < ETPL_CACHE_ENTRIES; i++)
			if (copies[i].t.id == 0) {
				slot = &copies[i];
				break;
			}
		if (slot != NULL && copies_bytes + bytes <= ETPL_CACHE_BYTES)
			break;
		slot = NULL;
		for (i = 0; i < ETPL_CACHE_ENTRIES; i++)
			if (copies[i].t.id != 0 && (slot == NULL ||
			    copies[i].used < slot->used))
				slot = &copies[i];
		copy_free(slot);
	}
	(void)etpl_copy(NULL, t, &slot->t);
	slot->bytes = bytes;
	slot->used = ++copies_tick;
	copies_bytes += bytes;
}

/* See repo_email_templates.h. */
int
repo_etpl_get_used(struct db *db, struct arena *a, int32_t id,
    struct repo_etpl *out)
{
	size_t i;
	int r;

	for (i = 0; i < ETPL_CACHE_ENTRIES; i++)
		if (copies[i].t.id == id && id != 0) {
			copies[i].used = ++copies_tick;
			return etpl_copy(a, &copies[i].t, out) == 0 ? 0 :
			    -REPO_ERR_INTERNAL;
		}
	if ((r = repo_etpl_get(db, a, id, true, out)) != 0)
		return r;
	etpl_keep(out);
	return 0;
}

/* See repo_email_templates.h. */
int
repo_etpl_list(struct db *db, struct arena *a, struct repo_etpl **out,
    size_t *n)
{
	struct db_text_rows t;
	struct repo_etpl *items;
	size_t i;
	int r;

	*out = NULL;
	*n = 0;
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_exec(db, stmt(db, ETPL_STMT_LIST), NULL,
	    "repo_etpl_list")) != 0 ||
	    (r = db_fetch_text(db, stmt(db, ETPL_STMT_LIST), a, ETPL_NCOLS,
	    SIZE_MAX, "repo_etpl_list", &t)) != 0)
		return r;
	if (t.count == 0)
		return 0;
	if ((items = arena_zalloc(a, t.count * sizeof(*items))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < t.count; i++)
		fill(&t, i, &items[i]);
	*out = items;
	*n = t.count;
	return 0;
}

/* See repo_email_templates.h. */
int
repo_etpl_get_id_by_name(struct db *db, const char *name, int32_t *id)
{
	return db_query_id(db, stmt(db, ETPL_STMT_ID_BY_NAME), name, id,
	    "repo_etpl_get_id_by_name");
}

struct etpl_insert {
	const struct repo_etpl_new	*t;
	int32_t				 id;
};

static int
etpl_insert_tx(struct db *db, void *arg)
{
	struct etpl_insert *x = arg;
	const struct repo_etpl_new *t = x->t;
	MYSQL_BIND in[4];
	unsigned long nlen = strlen(t->name), dlen = 0, clen = t->len, hlen;
	int32_t folder = t->folder_id, seg;
	size_t i;
	int r;

	bind_str(&in[0], t->name, &nlen);
	if (t->description != NULL) {
		dlen = strlen(t->description);
		bind_str(&in[1], t->description, &dlen);
	} else
		bind_null(&in[1]);
	bind_i32(&in[2], &folder);
	bind_str(&in[3], t->content, &clen);
	if ((r = db_exec(db, stmt(db, ETPL_STMT_INSERT), in,
	    "repo_etpl_insert")) != 0)
		return r;
	x->id = (int32_t)mysql_stmt_insert_id(stmt(db, ETPL_STMT_INSERT));
	for (i = 0; i < t->ndynamic; i++) {
		seg = t->dynamic[i].segmentation_id;
		/* Locked in share mode: it cannot go before we commit. */
		if ((r = repo_seg_hold(db, seg)) != 0)
			return r;
		hlen = strlen(t->dynamic[i].html_id);
		bind_i32(&in[0], &x->id);
		bind_str(&in[1], t->dynamic[i].html_id, &hlen);
		bind_i32(&in[2], &seg);
		if ((r = db_exec(db, stmt(db, ETPL_STMT_DYNAMIC_INSERT), in,
		    "repo_etpl_insert")) != 0 ||
		    (r = repo_usage_add(db, USAGE_SEGMENTATION, seg,
		    USAGE_EMAIL_TEMPLATE, x->id)) != 0)
			return r;
	}
	return 0;
}

/* See repo_email_templates.h. */
int
repo_etpl_insert(struct db *db, const struct repo_etpl_new *t, int32_t *id)
{
	struct etpl_insert x = { .t = t, .id = 0 };
	int r;

	*id = 0;
	if ((r = db_run_tx(db, etpl_insert_tx, &x, false)) == 0)
		*id = x.id;
	return r;
}

static int
etpl_delete_tx(struct db *db, void *arg)
{
	int32_t *id = arg;
	MYSQL_BIND in[1];
	int64_t found, used;
	int r;

	bind_i32(&in[0], id);
	if ((r = db_query_i64(db, stmt(db, ETPL_STMT_LOCK), in, &found,
	    "repo_etpl_delete")) != 0)
		return r;
	if ((r = repo_usage_count(db, USAGE_EMAIL_TEMPLATE, *id,
	    &used)) != 0)
		return r;
	if (used > 0)
		return -REPO_ERR_CONFLICT;
	if ((r = repo_usage_forget_user(db, USAGE_EMAIL_TEMPLATE, *id,
	    USAGE_SEGMENTATION)) != 0)
		return r;
	return db_exec(db, stmt(db, ETPL_STMT_DELETE), in,
	    "repo_etpl_delete");
}

/* See repo_email_templates.h. */
int
repo_etpl_delete(struct db *db, int32_t id)
{
	return db_run_tx(db, etpl_delete_tx, &id, false);
}

/* See repo_email_templates.h. */
int
repo_etpl_count_in_folder(struct db *db, int32_t folder_id, int64_t *n)
{
	MYSQL_BIND in[1];

	bind_i32(&in[0], &folder_id);
	return db_query_i64(db, stmt(db, ETPL_STMT_COUNT_FOLDER), in, n,
	    "repo_etpl_count_in_folder");
}
