/*
 * The folder tree's reads (repo_folder_tree.h).  A browse or a lookup
 * reads every folder and program at once: the tree is small (a folder is
 * made by hand), and a path needs every ancestor of a node anyway.  The
 * content of a place is one UNION of the stores' place columns, each
 * read through its (place, id) index.
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
#include "model/folder.h"
#include "model/foldertree.h"
#include "repo/repo.h"
#include "repo/repo_folder_tree.h"
#include "util/arena.h"

enum tree_stmt {
	TREE_STMT_FOLDERS,
	TREE_STMT_PROGRAMS,
	TREE_STMT_WORKSPACE,
	TREE_STMT_FOLDER_CONTENT,
	TREE_STMT_PROGRAM_CONTENT,
	TREE_STMT__MAX
};

#define TREE_FOLDER_COLS	10
#define TREE_PROGRAM_COLS	7

static const char *const sql[TREE_STMT__MAX] = {
	[TREE_STMT_FOLDERS] =
	    "SELECT f.id, f.name, f.description, f.kind, "
	    "COALESCE(f.parent_id, 0), w.name, f.is_system, f.created_at, "
	    "f.updated_at, f.is_archive FROM folder f JOIN workspace w "
	    "ON w.id = f.workspace_id ORDER BY f.id",
	[TREE_STMT_PROGRAMS] =
	    "SELECT id, name, description, folder_id, workspace, created_at, "
	    "updated_at FROM program ORDER BY id",
	[TREE_STMT_WORKSPACE] =
	    "SELECT COUNT(*) FROM workspace WHERE LOWER(name) = LOWER(?)",
	[TREE_STMT_FOLDER_CONTENT] =
	    "SELECT id, 1 AS k FROM folder WHERE parent_id = ? "
	    "UNION ALL SELECT id, 2 FROM program WHERE folder_id = ? "
	    "UNION ALL SELECT id, 3 FROM email WHERE folder_id = ? "
	    "UNION ALL SELECT id, 4 FROM email_template WHERE folder_id = ? "
	    "UNION ALL SELECT id, 5 FROM lp_template WHERE folder_id = ? "
	    "UNION ALL SELECT id, 6 FROM smart_list WHERE folder_id = ? "
	    "AND campaign_id IS NULL "
	    "UNION ALL SELECT id, 7 FROM smart_campaign WHERE folder_id = ? "
	    "UNION ALL SELECT id, 8 FROM static_list WHERE folder_id = ? "
	    "ORDER BY k, id LIMIT ? OFFSET ?",
	[TREE_STMT_PROGRAM_CONTENT] =
	    "SELECT id, 3 AS k FROM email WHERE place_type = 'Program' "
	    "AND place_id = ? "
	    "UNION ALL SELECT id, 6 FROM smart_list WHERE program_id = ? "
	    "AND campaign_id IS NULL "
	    "UNION ALL SELECT id, 7 FROM smart_campaign WHERE program_id = ? "
	    "UNION ALL SELECT id, 8 FROM static_list WHERE program_id = ? "
	    "ORDER BY k, id LIMIT ? OFFSET ?",
};

const struct db_stmt_set repo_folder_tree_sql = {
	.name = "folder_tree",
	.sql = sql,
	.n = TREE_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum tree_stmt s)
{
	return db_stmt(db, REPO_FOLDER_TREE, (int)s);
}

/* See repo_folder_tree.h. */
int
repo_folder_tree_read(struct db *db, struct arena *a, struct ftree_node **out,
    size_t *n)
{
	struct db_text_rows f, p;
	struct ftree_node *v;
	size_t i, k;
	int kind, r;

	*out = NULL;
	*n = 0;
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_select_text(db, stmt(db, TREE_STMT_FOLDERS), NULL, a,
	    TREE_FOLDER_COLS, MAX_FOLDERS_LISTED, "repo_folder_tree_read",
	    &f)) != 0 ||
	    (r = db_select_text(db, stmt(db, TREE_STMT_PROGRAMS), NULL, a,
	    TREE_PROGRAM_COLS, MAX_FOLDERS_LISTED, "repo_folder_tree_read",
	    &p)) != 0)
		return r;
	if (f.count + p.count == 0)
		return 0;
	if ((v = arena_zalloc(a, (f.count + p.count) * sizeof(*v))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < f.count; i++) {
		v[i].id = (int32_t)db_text_i64(&f, i, 0);
		v[i].type = FOLDER_T_FOLDER;
		v[i].name = db_text_str(&f, i, 1);
		v[i].description = db_text_str(&f, i, 2);
		kind = db_text_str(&f, i, 3) != NULL ?
		    folder_kind_parse(db_text_str(&f, i, 3)) : -1;
		v[i].kind = kind >= 0 ? (enum folder_kind)kind : FK_MARKETING;
		v[i].parent_id = (int32_t)db_text_i64(&f, i, 4);
		v[i].workspace = db_text_str(&f, i, 5);
		v[i].is_system = db_text_i64(&f, i, 6) != 0;
		v[i].created_at = db_text_str(&f, i, 7);
		v[i].updated_at = db_text_str(&f, i, 8);
		v[i].is_archive = db_text_i64(&f, i, 9) != 0;
	}
	for (i = 0; i < p.count; i++) {
		k = f.count + i;
		v[k].id = (int32_t)db_text_i64(&p, i, 0);
		v[k].type = FOLDER_T_PROGRAM;
		v[k].name = db_text_str(&p, i, 1);
		v[k].description = db_text_str(&p, i, 2);
		v[k].kind = FK_MARKETING;
		v[k].parent_id = (int32_t)db_text_i64(&p, i, 3);
		v[k].workspace = db_text_str(&p, i, 4);
		v[k].created_at = db_text_str(&p, i, 5);
		v[k].updated_at = db_text_str(&p, i, 6);
	}
	*out = v;
	*n = f.count + p.count;
	return 0;
}

/* See repo_folder_tree.h. */
int
repo_folder_tree_workspace(struct db *db, const char *name, bool *exists)
{
	MYSQL_BIND in[1];
	unsigned long len = strlen(name);
	int64_t c = 0;
	int r;

	*exists = false;
	bind_str(&in[0], name, &len);
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_query_i64(db, stmt(db, TREE_STMT_WORKSPACE), in, &c,
	    "repo_folder_tree_workspace")) != 0)
		return r;
	*exists = c > 0;
	return 0;
}

/* See repo_folder_tree.h. */
int
repo_folder_tree_content(struct db *db, struct arena *a,
    const struct folder_ref *ref, int limit, int64_t offset,
    struct repo_content_item **out, size_t *n)
{
	MYSQL_BIND in[10];
	struct db_text_rows t;
	struct repo_content_item *v;
	int64_t lim = limit;
	int32_t id;
	size_t i, k, nplace;
	enum tree_stmt s;
	int r;

	*out = NULL;
	*n = 0;
	if (ref->id <= 0 || ref->id > INT32_MAX)
		return 0;
	id = (int32_t)ref->id;
	s = ref->type == FOLDER_T_FOLDER ? TREE_STMT_FOLDER_CONTENT :
	    TREE_STMT_PROGRAM_CONTENT;
	nplace = ref->type == FOLDER_T_FOLDER ? 8 : 4;
	for (k = 0; k < nplace; k++)
		bind_i32(&in[k], &id);
	bind_i64(&in[k++], &lim);
	bind_i64(&in[k], &offset);
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_select_text(db, stmt(db, s), in, a, 2, (size_t)limit,
	    "repo_folder_tree_content", &t)) != 0)
		return r;
	if (t.count == 0)
		return 0;
	if ((v = arena_zalloc(a, t.count * sizeof(*v))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < t.count; i++) {
		v[i].id = db_text_i64(&t, i, 0);
		v[i].kind = (enum repo_content_kind)db_text_i64(&t, i, 1);
	}
	*out = v;
	*n = t.count;
	return 0;
}
