/*
 * Landing page templates (repo_lp_templates.h).  A template row holds the
 * metadata; lp_template_version holds at most a 'draft' and an 'approved'
 * row of content.  Every change of versions locks the template row (FOR
 * UPDATE), reads the versions and whether the template is used, and asks
 * model/asset.c whether the change is allowed before it writes, all in
 * one transaction re-run whole on deadlock, which also writes the
 * template's has_draft/has_approved flags and moves the folder's content
 * generation on (migration 0017).  Browse joins the folder's name and
 * workspace into the templates' rows (the folder key guarantees both);
 * a read of one template takes them from repo_folders_names.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <mysql.h>

#include "bounds.h"
#include "db/bind.h"
#include "db/pool.h"
#include "db/query.h"
#include "model/asset.h"
#include "model/lptemplate.h"
#include "repo/repo.h"
#include "repo/repo_folders.h"
#include "repo/repo_lp_templates.h"
#include "repo/repo_usage.h"
#include "repo/repo_versions.h"
#include "util/arena.h"

enum lpt_stmt {
	LPT_STMT_GET,
	LPT_STMT_GET_BY_NAME,
	LPT_STMT_CONTENT,
	LPT_STMT_BROWSE,
	LPT_STMT_BROWSE_FOLDER,
	LPT_STMT_INSERT,
	LPT_STMT_VERSION_PUT,
	LPT_STMT_VERSION_DELETE,
	LPT_STMT_VERSION_RENAME,
	LPT_STMT_LOCK,
	LPT_STMT_VERSIONS,
	LPT_STMT_TOUCH,
	LPT_STMT_META,
	LPT_STMT_DELETE,
	LPT_STMT_COUNT_FOLDER,
	LPT_STMT_CONTENT_BEST,
	LPT_STMT_GEN_FOLDER,
	LPT_STMT_GEN_OF,
	LPT_STMT__MAX
};

/*
 * The columns of one template with its versions and its folder's name
 * and workspace (get, get by name, browse), from LPT_FROM.
 */
#define LPT_COLS_OWN \
	"t.id, t.name, t.description, t.folder_id, t.template_type, " \
	"t.enable_munchkin, t.created_at, t.updated_at, t.has_draft, " \
	"t.has_approved"
#define LPT_COLS	LPT_COLS_OWN ", f.name, w.name"
#define LPT_NCOLS	12
#define LPT_FROM \
	" FROM lp_template t JOIN folder f ON f.id = t.folder_id " \
	"JOIN workspace w ON w.id = f.workspace_id "

static const char *const sql[LPT_STMT__MAX] = {
	/*
	 * One template: its own row only; the folder's names come from
	 * repo_folders_names, which a worker keeps.
	 */
	[LPT_STMT_GET] =
	    "SELECT " LPT_COLS_OWN ", NULL, NULL FROM lp_template t "
	    "WHERE t.id = ?",
	[LPT_STMT_GET_BY_NAME] =
	    "SELECT " LPT_COLS_OWN ", NULL, NULL FROM lp_template t "
	    "WHERE t.name = ?",
	[LPT_STMT_CONTENT] =
	    "SELECT content FROM lp_template_version WHERE template_id = ? "
	    "AND status = ?",
	/* Parameters: status, status, limit, offset. */
	[LPT_STMT_BROWSE] =
	    "SELECT " LPT_COLS ", v.status" LPT_FROM
	    "JOIN lp_template_version v ON v.template_id = t.id "
	    "WHERE v.status IN (?, ?) ORDER BY t.id, v.status "
	    "LIMIT ? OFFSET ?",
	/* Parameters: folder, status, status, limit, offset. */
	[LPT_STMT_BROWSE_FOLDER] =
	    "SELECT " LPT_COLS ", v.status" LPT_FROM
	    "JOIN lp_template_version v ON v.template_id = t.id "
	    "WHERE t.folder_id = ? AND v.status IN (?, ?) "
	    "ORDER BY t.id, v.status LIMIT ? OFFSET ?",
	/* The folder was checked by the caller; its key guards the rest. */
	[LPT_STMT_INSERT] =
	    "INSERT INTO lp_template (name, description, template_type, "
	    "enable_munchkin, folder_id, created_at, updated_at, has_draft) "
	    "VALUES (?, ?, ?, ?, ?, UTC_TIMESTAMP(), UTC_TIMESTAMP(), 1)",
	[LPT_STMT_VERSION_PUT] =
	    "INSERT INTO lp_template_version (template_id, status, content, "
	    "updated_at) VALUES (?, ?, ?, UTC_TIMESTAMP()) ON DUPLICATE KEY "
	    "UPDATE content = VALUES(content), updated_at = VALUES(updated_at)",
	[LPT_STMT_VERSION_DELETE] =
	    "DELETE FROM lp_template_version WHERE template_id = ? AND "
	    "status = ?",
	/* Parameters: new status, template, old status. */
	[LPT_STMT_VERSION_RENAME] =
	    "UPDATE lp_template_version SET status = ?, updated_at = "
	    "UTC_TIMESTAMP() WHERE template_id = ? AND status = ?",
	[LPT_STMT_LOCK] =
	    "SELECT template_type FROM lp_template WHERE id = ? FOR UPDATE",
	/* Locking, as the emails' (src/repo/repo_emails.c) say why. */
	[LPT_STMT_VERSIONS] =
	    "SELECT COALESCE(SUM(status = 'draft'), 0), "
	    "COALESCE(SUM(status = 'approved'), 0) FROM lp_template_version "
	    "WHERE template_id = ? FOR UPDATE",
	/* After a change of versions: the flags say what the rows are. */
	[LPT_STMT_TOUCH] =
	    "UPDATE lp_template t SET updated_at = UTC_TIMESTAMP(), "
	    "has_draft = EXISTS (SELECT 1 FROM lp_template_version v WHERE "
	    "v.template_id = t.id AND v.status = 'draft'), "
	    "has_approved = EXISTS (SELECT 1 FROM lp_template_version v "
	    "WHERE v.template_id = t.id AND v.status = 'approved') "
	    "WHERE t.id = ?",
	/* NULL leaves a value as it is. */
	[LPT_STMT_META] =
	    "UPDATE lp_template SET name = COALESCE(?, name), "
	    "description = COALESCE(?, description), "
	    "enable_munchkin = COALESCE(?, enable_munchkin), "
	    "updated_at = UTC_TIMESTAMP() WHERE id = ?",
	[LPT_STMT_DELETE] =
	    "DELETE FROM lp_template WHERE id = ?",
	[LPT_STMT_COUNT_FOLDER] =
	    "SELECT COUNT(*) FROM lp_template WHERE folder_id = ?",
	/* A clone's content: the approved version when there is one. */
	[LPT_STMT_CONTENT_BEST] =
	    "SELECT content FROM lp_template_version WHERE template_id = ? "
	    "ORDER BY status = 'approved' DESC LIMIT 1",
	/*
	 * The folder's content generation moves on with every change of a
	 * template in it (migration 0017), in the change's transaction:
	 * by folder id (an insert, before it: the folder row is locked
	 * first, so two inserts queue instead of deadlocking on the
	 * foreign key's shared lock), or by template id (after the
	 * template's row is locked or written).
	 */
	[LPT_STMT_GEN_FOLDER] =
	    "UPDATE folder SET content_gen = content_gen + 1 WHERE id = ?",
	[LPT_STMT_GEN_OF] =
	    "UPDATE folder f JOIN lp_template t ON t.folder_id = f.id "
	    "SET f.content_gen = f.content_gen + 1 WHERE t.id = ?",
};

const struct db_stmt_set repo_lp_templates_sql = {
	.name = "lp_templates",
	.sql = sql,
	.n = LPT_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum lpt_stmt s)
{
	return db_stmt(db, REPO_LP_TEMPLATES, (int)s);
}

/* Row i of t (LPT_COLS first) into *out. */
static void
fill(const struct db_text_rows *t, size_t i, struct repo_lpt *out)
{
	int type = lpt_type_parse(db_text_str(t, i, 4) != NULL ?
	    db_text_str(t, i, 4) : "");

	memset(out, 0, sizeof(*out));
	out->id = (int32_t)db_text_i64(t, i, 0);
	out->name = db_text_str(t, i, 1);
	out->description = db_text_str(t, i, 2);
	out->folder_id = (int32_t)db_text_i64(t, i, 3);
	out->type = type >= 0 ? (enum lpt_type)type : LPT_FREE_FORM;
	out->enable_munchkin = db_text_i64(t, i, 5) != 0;
	db_copy_text(out->created_at, sizeof(out->created_at),
	    db_text_str(t, i, 6), SIZE_MAX);
	db_copy_text(out->updated_at, sizeof(out->updated_at),
	    db_text_str(t, i, 7), SIZE_MAX);
	out->v.has_draft = db_text_i64(t, i, 8) != 0;
	out->v.has_approved = db_text_i64(t, i, 9) != 0;
	out->folder_name = db_text_str(t, i, 10) != NULL ?
	    db_text_str(t, i, 10) : "";
	out->workspace = db_text_str(t, i, 11) != NULL ?
	    db_text_str(t, i, 11) : "";
}

/* The content of version st of template id into the arena. */
static int
content_of(struct db *db, struct arena *a, int32_t id, enum asset_status st,
    struct repo_lpt *out)
{
	MYSQL_BIND in[2];
	struct db_text_rows t;
	const char *word = asset_status_name(st);
	unsigned long len = strlen(word);
	int r;

	bind_i32(&in[0], &id);
	bind_str(&in[1], word, &len);
	if ((r = db_select_text(db, stmt(db, LPT_STMT_CONTENT), in, a, 1,
	    1, "repo_lpt_get", &t)) != 0)
		return r;
	if (t.count == 0)
		return -REPO_ERR_NOT_FOUND;
	out->content = db_text_str(&t, 0, 0) != NULL ?
	    db_text_str(&t, 0, 0) : "";
	out->content_len = t.len[0];
	return 0;
}

/* One template by the executed statement s (id or name). */
static int
get_one(struct db *db, struct arena *a, enum lpt_stmt s, MYSQL_BIND *in,
    enum asset_status want, bool with_content, struct repo_lpt *out)
{
	struct db_text_rows t;
	int r;

	memset(out, 0, sizeof(*out));
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_select_text(db, stmt(db, s), in, a, LPT_NCOLS,
	    1, "repo_lpt_get", &t)) != 0)
		return r;
	if (t.count == 0)
		return -REPO_ERR_NOT_FOUND;
	fill(&t, 0, out);
	if ((out->status = asset_pick(&out->v, want)) == ASSET_ST_ANY)
		return -REPO_ERR_NOT_FOUND;
	if ((r = repo_folders_names(db, a, out->folder_id, &out->folder_name,
	    &out->workspace)) != 0)
		return r == -REPO_ERR_NOT_FOUND ? -REPO_ERR_INTERNAL : r;
	if (with_content)
		return content_of(db, a, out->id, out->status, out);
	return 0;
}

/* See repo_lp_templates.h. */
int
repo_lpt_get(struct db *db, struct arena *a, int32_t id,
    enum asset_status want, bool with_content, struct repo_lpt *out)
{
	MYSQL_BIND in[1];

	bind_i32(&in[0], &id);
	return get_one(db, a, LPT_STMT_GET, in, want, with_content, out);
}

/* See repo_lp_templates.h. */
int
repo_lpt_get_by_name(struct db *db, struct arena *a, const char *name,
    enum asset_status want, struct repo_lpt *out)
{
	MYSQL_BIND in[1];
	unsigned long len = strlen(name);

	bind_str(&in[0], name, &len);
	return get_one(db, a, LPT_STMT_GET_BY_NAME, in, want, false, out);
}

/* See repo_lp_templates.h. */
int
repo_lpt_browse(struct db *db, struct arena *a,
    const struct repo_lpt_query *q, struct repo_lpt **out, size_t *n)
{
	struct db_text_rows t;
	struct repo_lpt *items;
	MYSQL_BIND in[5];
	const char *s1 = "draft", *s2 = "approved";
	unsigned long l1, l2;
	int32_t folder = q->folder_id, limit = q->limit;
	int64_t offset = q->offset;
	enum lpt_stmt s = folder != 0 ? LPT_STMT_BROWSE_FOLDER :
	    LPT_STMT_BROWSE;
	size_t i, k = 0;
	int r;

	*out = NULL;
	*n = 0;
	if (q->status != ASSET_ST_ANY)
		s1 = s2 = asset_status_name(q->status);
	l1 = strlen(s1);
	l2 = strlen(s2);
	if (folder != 0)
		bind_i32(&in[k++], &folder);
	bind_str(&in[k++], s1, &l1);
	bind_str(&in[k++], s2, &l2);
	bind_i32(&in[k++], &limit);
	bind_i64(&in[k++], &offset);
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_select_text(db, stmt(db, s), in, a, LPT_NCOLS + 1,
	    (size_t)limit, "repo_lpt_browse", &t)) != 0)
		return r;
	if (t.count == 0)
		return 0;
	if ((items = arena_zalloc(a, t.count * sizeof(*items))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < t.count; i++) {
		fill(&t, i, &items[i]);
		items[i].status = db_text_str(&t, i, LPT_NCOLS) != NULL &&
		    strcmp(db_text_str(&t, i, LPT_NCOLS), "approved") == 0 ?
		    ASSET_ST_APPROVED : ASSET_ST_DRAFT;
	}
	*out = items;
	*n = t.count;
	return 0;
}

/* Writes version st of template id with content (len bytes). */
static int
version_put(struct db *db, int32_t id, enum asset_status st,
    const char *content, size_t len, const char *where)
{
	MYSQL_BIND in[3];
	const char *word = asset_status_name(st);
	unsigned long wlen = strlen(word), clen = (unsigned long)len;

	bind_i32(&in[0], &id);
	bind_str(&in[1], word, &wlen);
	bind_str(&in[2], content, &clen);
	return db_exec(db, stmt(db, LPT_STMT_VERSION_PUT), in, where);
}

struct lpt_insert {
	const struct repo_lpt_new	*t;
	struct arena			*a;
	int32_t				 id;
};

static int
lpt_insert_tx(struct db *db, void *arg)
{
	struct lpt_insert *x = arg;
	const struct repo_lpt_new *t = x->t;
	MYSQL_BIND in[5];
	struct db_text_rows src = { .count = 0 };
	const char *type = lpt_type_name(t->type), *content = "";
	unsigned long nlen = strlen(t->name), dlen = 0, tlen = strlen(type);
	size_t clen = 0;
	int32_t folder = t->folder_id, munchkin = t->enable_munchkin;
	int32_t clone_of = t->clone_of;
	int r;

	bind_i32(&in[0], &folder);
	if ((r = db_exec(db, stmt(db, LPT_STMT_GEN_FOLDER), in,
	    "repo_lpt_insert")) != 0)
		return r;
	if (clone_of != 0) {
		bind_i32(&in[0], &clone_of);
		if ((r = db_select_text(db, stmt(db, LPT_STMT_CONTENT_BEST),
		    in, x->a, 1, 1, "repo_lpt_insert", &src)) != 0)
			return r;
		if (src.count == 0)
			return -REPO_ERR_NOT_FOUND;
		if (db_text_str(&src, 0, 0) != NULL) {
			content = db_text_str(&src, 0, 0);
			clen = src.len[0];
		}
	}
	bind_str(&in[0], t->name, &nlen);
	if (t->description != NULL) {
		dlen = strlen(t->description);
		bind_str(&in[1], t->description, &dlen);
	} else
		bind_null(&in[1]);
	bind_str(&in[2], type, &tlen);
	bind_i32(&in[3], &munchkin);
	bind_i32(&in[4], &folder);
	if ((r = db_exec(db, stmt(db, LPT_STMT_INSERT), in,
	    "repo_lpt_insert")) != 0)
		return r;
	x->id = (int32_t)mysql_stmt_insert_id(stmt(db, LPT_STMT_INSERT));
	return version_put(db, x->id, ASSET_ST_DRAFT, content, clen,
	    "repo_lpt_insert");
}

/* See repo_lp_templates.h. */
int
repo_lpt_insert(struct db *db, const struct repo_lpt_new *t, int32_t *id)
{
	struct arena a;
	struct lpt_insert x = { .t = t, .a = &a, .id = 0 };
	int r;

	*id = 0;
	arena_init(&a);
	if ((r = db_run_tx(db, lpt_insert_tx, &x, false)) == 0)
		*id = x.id;
	arena_clear(&a);
	return r;
}

struct lpt_meta {
	int32_t				 id;
	const struct repo_lpt_meta	*m;
};

static int
lpt_meta_tx(struct db *db, void *arg)
{
	struct lpt_meta *x = arg;
	const struct repo_lpt_meta *m = x->m;
	MYSQL_BIND in[4];
	unsigned long nlen = 0, dlen = 0;
	int32_t munchkin = m->enable_munchkin;
	uint64_t rows;
	int r;

	if (m->name != NULL) {
		nlen = strlen(m->name);
		bind_str(&in[0], m->name, &nlen);
	} else
		bind_null(&in[0]);
	if (m->description != NULL) {
		dlen = strlen(m->description);
		bind_str(&in[1], m->description, &dlen);
	} else
		bind_null(&in[1]);
	if (m->enable_munchkin >= 0)
		bind_i32(&in[2], &munchkin);
	else
		bind_null(&in[2]);
	bind_i32(&in[3], &x->id);
	if ((r = db_exec_n(db, stmt(db, LPT_STMT_META), in, &rows,
	    "repo_lpt_update_meta")) != 0)
		return r;
	if (rows == 0)
		return -REPO_ERR_NOT_FOUND;
	return db_exec(db, stmt(db, LPT_STMT_GEN_OF), &in[3],
	    "repo_lpt_update_meta");
}

/* See repo_lp_templates.h. */
int
repo_lpt_update_meta(struct db *db, int32_t id, const struct repo_lpt_meta *m)
{
	struct lpt_meta x = { id, m };

	return db_run_tx(db, lpt_meta_tx, &x, false);
}

struct lpt_change {
	int32_t			 id;
	enum asset_op		 op;
	const char		*content;
	size_t			 len;
	repo_lpt_check_fn	 check;
	char			*msg;
	struct arena		*a;
};

/* The statements repo_versions.c runs on lp_template_version. */
static struct repo_versions_sql
versions_sql(struct db *db)
{
	struct repo_versions_sql v = {
		.versions = stmt(db, LPT_STMT_VERSIONS),
		.del = stmt(db, LPT_STMT_VERSION_DELETE),
		.rename = stmt(db, LPT_STMT_VERSION_RENAME),
		.usage_type = USAGE_LP_TEMPLATE,
		.where = "repo_lpt_change",
	};

	return v;
}

static int
lpt_change_tx(struct db *db, void *arg)
{
	struct lpt_change *x = arg;
	struct repo_versions_sql vs = versions_sql(db);
	struct asset_versions before;
	struct repo_lpt draft;
	MYSQL_BIND in[1];
	char type[32];
	int t, r;

	x->msg[0] = '\0';
	bind_i32(&in[0], &x->id);
	if ((r = db_query_str(db, stmt(db, LPT_STMT_LOCK), in, type,
	    sizeof(type), "repo_lpt_change")) != 0 ||
	    (r = repo_versions_check(db, &vs, x->id, x->op, &before, x->msg,
	    LPT_MSG_BYTES)) != 0 ||
	    (r = db_exec(db, stmt(db, LPT_STMT_GEN_OF), in,
	    "repo_lpt_change")) != 0)
		return r;
	switch (x->op) {
	case ASSET_EDIT:
		r = version_put(db, x->id, ASSET_ST_DRAFT, x->content, x->len,
		    "repo_lpt_change");
		break;
	case ASSET_APPROVE:
		memset(&draft, 0, sizeof(draft));
		if ((r = content_of(db, x->a, x->id, ASSET_ST_DRAFT,
		    &draft)) != 0)
			return r;
		t = lpt_type_parse(type);
		if (x->check != NULL && x->check(t >= 0 ? (enum lpt_type)t :
		    LPT_FREE_FORM, draft.content, draft.content_len,
		    x->msg) != 0)
			return -REPO_ERR_INVALID;
		r = repo_versions_write(db, &vs, x->id, x->op, &before);
		break;
	case ASSET_DELETE:
		if ((r = repo_usage_forget(db, USAGE_LP_TEMPLATE, x->id)) != 0)
			return r;
		return db_exec(db, stmt(db, LPT_STMT_DELETE), in,
		    "repo_lpt_change");
	default:
		r = repo_versions_write(db, &vs, x->id, x->op, &before);
		break;
	}
	if (r != 0)
		return r;
	return db_exec(db, stmt(db, LPT_STMT_TOUCH), in, "repo_lpt_change");
}

/* See repo_lp_templates.h. */
int
repo_lpt_change(struct db *db, int32_t id, enum asset_op op,
    const char *content, size_t len, repo_lpt_check_fn check, char *msg)
{
	struct arena a;
	struct lpt_change x = { id, op, content, len, check, msg, &a };
	int r;

	msg[0] = '\0';
	arena_init(&a);
	r = db_run_tx(db, lpt_change_tx, &x, false);
	arena_clear(&a);
	return r;
}

/* See repo_lp_templates.h. */
int
repo_lpt_count_in_folder(struct db *db, int32_t folder_id, int64_t *n)
{
	MYSQL_BIND in[1];

	bind_i32(&in[0], &folder_id);
	return db_query_i64(db, stmt(db, LPT_STMT_COUNT_FOLDER), in, n,
	    "repo_lpt_count_in_folder");
}
