/*
 * The folder tree (repo_folders.h).  A folder made under a parent takes
 * the parent's kind; the roots a new instance has are made by the
 * migration and cannot be deleted.  What a folder holds is asked of each
 * store by repo_folder_delete.c, above them; here the folder's row lock
 * and its subfolders (the inserts of programs and assets reference the
 * folder by a foreign key, so nothing is put in it under the lock).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <mysql.h>

#include "bounds.h"
#include "db/bind.h"
#include "db/pool.h"
#include "db/query.h"
#include "model/folder.h"
#include "repo/repo.h"
#include "repo/repo_folders.h"
#include "repo/repo_programs.h"
#include "util/arena.h"
#include "util/timeutil.h"

enum folders_stmt {
	FOLDERS_STMT_GET,
	FOLDERS_STMT_KIND,
	FOLDERS_STMT_INSERT,
	FOLDERS_STMT_LIST,
	FOLDERS_STMT_LOCK,
	FOLDERS_STMT_CHILDREN,
	FOLDERS_STMT_DELETE,
	FOLDERS_STMT_CHILD_ID,
	FOLDERS_STMT_WORKSPACE,
	FOLDERS_STMT_UPDATE,
	FOLDERS_STMT__MAX
};

static const char *const sql[FOLDERS_STMT__MAX] = {
	[FOLDERS_STMT_GET] =
	    "SELECT f.name, f.kind, w.name, f.content_gen FROM folder f "
	    "JOIN workspace w ON w.id = f.workspace_id WHERE f.id = ?",
	[FOLDERS_STMT_KIND] =
	    "SELECT kind FROM folder WHERE id = ? LOCK IN SHARE MODE",
	[FOLDERS_STMT_INSERT] =
	    "INSERT INTO folder (name, description, kind, parent_id, "
	    "workspace_id, created_at, updated_at) VALUES (?, ?, ?, ?, 1, "
	    "UTC_TIMESTAMP(), UTC_TIMESTAMP())",
	[FOLDERS_STMT_LIST] =
	    "SELECT f.id, f.name, f.description, f.kind, "
	    "COALESCE(f.parent_id, 0), w.name, f.is_system FROM folder f "
	    "JOIN workspace w ON w.id = f.workspace_id ORDER BY f.id",
	[FOLDERS_STMT_LOCK] =
	    "SELECT is_system FROM folder WHERE id = ? FOR UPDATE",
	[FOLDERS_STMT_CHILDREN] =
	    "SELECT COUNT(*) FROM folder WHERE parent_id = ?",
	[FOLDERS_STMT_DELETE] =
	    "DELETE FROM folder WHERE id = ?",
	[FOLDERS_STMT_CHILD_ID] =
	    "SELECT id FROM folder WHERE parent_id = ? AND name = ?",
	[FOLDERS_STMT_WORKSPACE] =
	    "SELECT name FROM workspace WHERE id = ?",
	/* Parameters: name, description, is_archive (NULL: unchanged), id. */
	[FOLDERS_STMT_UPDATE] =
	    "UPDATE folder SET name = COALESCE(?, name), "
	    "description = COALESCE(?, description), "
	    "is_archive = COALESCE(?, is_archive), "
	    "updated_at = UTC_TIMESTAMP(), content_gen = content_gen + 1 "
	    "WHERE id = ?",
};

const struct db_stmt_set repo_folders_sql = {
	.name = "folders",
	.sql = sql,
	.n = FOLDERS_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum folders_stmt s)
{
	return db_stmt(db, REPO_FOLDERS, (int)s);
}

/* A kind word of a row; an unknown one (not written by us) is marketing. */
static enum folder_kind
kind_of(const char *word)
{
	int k = word != NULL ? folder_kind_parse(word) : -1;

	return k >= 0 ? (enum folder_kind)k : FK_MARKETING;
}

/* See repo_folders.h. */
int
repo_folders_place(struct db *db, const struct folder_ref *ref,
    struct repo_place *out)
{
	struct repo_program p;
	MYSQL_BIND in[1], res[4];
	char kind[32];
	unsigned long lens[4];
	my_bool nul[4];
	int64_t gen = 0;
	int32_t id;
	int r;

	memset(out, 0, sizeof(*out));
	out->ref = *ref;
	if (ref->id <= 0 || ref->id > INT32_MAX)
		return -REPO_ERR_NOT_FOUND;
	id = (int32_t)ref->id;
	if (ref->type == FOLDER_T_PROGRAM) {
		memset(&p, 0, sizeof(p));
		if ((r = repo_programs_get_by_id(db, id, &p)) != 0)
			return r;
		db_copy_text(out->name, sizeof(out->name), p.name, SIZE_MAX);
		db_copy_text(out->workspace, sizeof(out->workspace),
		    "Default", SIZE_MAX);
		out->kind = FK_MARKETING;
		repo_programs_program_clear(&p);
		return 0;
	}
	if ((r = db_ensure(db)) != 0)
		return r;
	bind_i32(&in[0], &id);
	bind_out_str(&res[0], out->name, sizeof(out->name), &lens[0],
	    &nul[0]);
	bind_out_str(&res[1], kind, sizeof(kind), &lens[1], &nul[1]);
	bind_out_str(&res[2], out->workspace, sizeof(out->workspace),
	    &lens[2], &nul[2]);
	bind_out_i64(&res[3], &gen, &nul[3]);
	if ((r = db_exec(db, stmt(db, FOLDERS_STMT_GET), in,
	    "repo_folders_place")) != 0 ||
	    (r = db_fetch_one(db, stmt(db, FOLDERS_STMT_GET), res,
	    "repo_folders_place")) != 0)
		return r;
	out->name[nul[0] ? 0 : lens[0] < sizeof(out->name) - 1 ? lens[0] :
	    sizeof(out->name) - 1] = '\0';
	kind[nul[1] ? 0 : lens[1] < sizeof(kind) - 1 ? lens[1] :
	    sizeof(kind) - 1] = '\0';
	out->workspace[nul[2] ? 0 : lens[2] < sizeof(out->workspace) - 1 ?
	    lens[2] : sizeof(out->workspace) - 1] = '\0';
	out->kind = kind_of(kind);
	out->gen = nul[3] ? 0 : (uint64_t)gen;
	return 0;
}

/*
 * This worker's folder names by id (repo_folders_names), direct-mapped,
 * each trusted for FOLDER_NAMES_TTL_MS after it was read: Update Folder
 * renames a folder in another worker, so a name read here may be that
 * long out of date.
 */
static struct {
	int32_t	id;
	int64_t	read_ms;
	char	name[MAX_NAME_BYTES + 1];
	char	workspace[MAX_NAME_BYTES + 1];
} names[FOLDER_NAMES_CACHE];

/* See repo_folders.h. */
int
repo_folders_names(struct db *db, struct arena *a, int32_t id,
    const char **name, const char **workspace)
{
	struct folder_ref ref = { .id = id, .type = FOLDER_T_FOLDER };
	struct repo_place p;
	size_t k = (size_t)(uint32_t)id % FOLDER_NAMES_CACHE;
	int64_t now;
	int r;

	now = time_mono_ms();
	if (id <= 0 || names[k].id != id ||
	    now - names[k].read_ms > FOLDER_NAMES_TTL_MS) {
		if ((r = repo_folders_place(db, &ref, &p)) != 0)
			return r;
		names[k].id = id;
		names[k].read_ms = now;
		memcpy(names[k].name, p.name, sizeof(names[k].name));
		memcpy(names[k].workspace, p.workspace,
		    sizeof(names[k].workspace));
	}
	*name = arena_strdup(a, names[k].name);
	*workspace = arena_strdup(a, names[k].workspace);
	return *name != NULL && *workspace != NULL ? 0 : -REPO_ERR_INTERNAL;
}

/*
 * This worker's program names by id, direct-mapped and trusted for
 * FOLDER_NAMES_TTL_MS as names[]: Update Program Metadata renames a
 * program in another worker.
 */
static struct {
	int32_t	id;
	int64_t	read_ms;
	char	name[MAX_NAME_BYTES + 1];
} program_names[FOLDER_NAMES_CACHE];

/* See repo_folders.h. */
int
repo_folders_place_name(struct db *db, struct arena *a,
    const struct folder_ref *ref, const char **name)
{
	struct repo_place p;
	const char *ws;
	size_t k;
	int64_t now;
	int32_t id;
	int r;

	if (ref->type == FOLDER_T_FOLDER)
		return repo_folders_names(db, a, (int32_t)ref->id, name, &ws);
	if (ref->id <= 0 || ref->id > INT32_MAX)
		return -REPO_ERR_NOT_FOUND;
	id = (int32_t)ref->id;
	k = (size_t)(uint32_t)id % FOLDER_NAMES_CACHE;
	now = time_mono_ms();
	if (program_names[k].id != id ||
	    now - program_names[k].read_ms > FOLDER_NAMES_TTL_MS) {
		if ((r = repo_folders_place(db, ref, &p)) != 0)
			return r;
		program_names[k].id = id;
		program_names[k].read_ms = now;
		memcpy(program_names[k].name, p.name,
		    sizeof(program_names[k].name));
	}
	*name = arena_strdup(a, program_names[k].name);
	return *name != NULL ? 0 : -REPO_ERR_INTERNAL;
}

/* This worker's workspace names (there are few: "Default" is id 1). */
static struct {
	int32_t	id;
	char	name[MAX_NAME_BYTES + 1];
} workspace_names[8];

/* See repo_folders.h. */
int
repo_folders_workspace_name(struct db *db, struct arena *a, int32_t id,
    const char **name)
{
	MYSQL_BIND in[1];
	size_t k = (size_t)(uint32_t)id % 8;
	char buf[MAX_NAME_BYTES + 1];
	int r;

	if (id <= 0)
		return -REPO_ERR_NOT_FOUND;
	if (workspace_names[k].id != id) {
		bind_i32(&in[0], &id);
		if ((r = db_ensure(db)) != 0 ||
		    (r = db_query_str(db, stmt(db, FOLDERS_STMT_WORKSPACE), in,
		    buf, sizeof(buf), "repo_folders_workspace_name")) != 0)
			return r;
		workspace_names[k].id = id;
		memcpy(workspace_names[k].name, buf, sizeof(buf));
	}
	*name = arena_strdup(a, workspace_names[k].name);
	return *name != NULL ? 0 : -REPO_ERR_INTERNAL;
}

struct folder_insert {
	const char		*name;
	const char		*description;
	enum folder_kind	 kind;
	int32_t			 parent_id;
	int32_t			 id;
};

static int
folder_insert_tx(struct db *db, void *arg)
{
	struct folder_insert *f = arg;
	MYSQL_BIND in[4];
	unsigned long nlen, dlen, klen;
	char kind[32];
	const char *kw;
	int r;

	if (f->parent_id != 0) {
		bind_i32(&in[0], &f->parent_id);
		if ((r = db_query_str(db, stmt(db, FOLDERS_STMT_KIND), in, kind,
		    sizeof(kind), "repo_folders_insert")) != 0)
			return r;
		f->kind = kind_of(kind);
	}
	kw = folder_kind_name(f->kind);
	nlen = strlen(f->name);
	klen = strlen(kw);
	bind_str(&in[0], f->name, &nlen);
	if (f->description != NULL) {
		dlen = strlen(f->description);
		bind_str(&in[1], f->description, &dlen);
	} else
		bind_null(&in[1]);
	bind_str(&in[2], kw, &klen);
	if (f->parent_id != 0)
		bind_i32(&in[3], &f->parent_id);
	else
		bind_null(&in[3]);
	if ((r = db_exec(db, stmt(db, FOLDERS_STMT_INSERT), in,
	    "repo_folders_insert")) != 0)
		return r;
	f->id = (int32_t)mysql_stmt_insert_id(stmt(db, FOLDERS_STMT_INSERT));
	return 0;
}

/* See repo_folders.h. */
int
repo_folders_insert(struct db *db, const char *name, const char *description,
    enum folder_kind kind, int32_t parent_id, int32_t *id)
{
	struct folder_insert f = { name, description, kind, parent_id, 0 };
	int r;

	*id = 0;
	if ((r = db_run_tx(db, folder_insert_tx, &f, false)) == 0)
		*id = f.id;
	return r;
}

/* See repo_folders.h. */
int
repo_folders_list(struct db *db, struct arena *a, struct repo_folder **out,
    size_t *n)
{
	struct db_text_rows t;
	struct repo_folder *f;
	size_t i;
	int r;

	*out = NULL;
	*n = 0;
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_exec(db, stmt(db, FOLDERS_STMT_LIST), NULL,
	    "repo_folders_list")) != 0 ||
	    (r = db_fetch_text(db, stmt(db, FOLDERS_STMT_LIST), a, 7,
	    MAX_FOLDERS_LISTED, "repo_folders_list", &t)) != 0)
		return r;
	if (t.count == 0)
		return 0;
	if ((f = arena_zalloc(a, t.count * sizeof(*f))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < t.count; i++) {
		f[i].id = (int32_t)db_text_i64(&t, i, 0);
		f[i].name = db_text_str(&t, i, 1);
		f[i].description = db_text_str(&t, i, 2);
		f[i].kind = kind_of(db_text_str(&t, i, 3));
		f[i].parent_id = (int32_t)db_text_i64(&t, i, 4);
		f[i].workspace = db_text_str(&t, i, 5);
		f[i].is_system = db_text_i64(&t, i, 6) != 0;
	}
	*out = f;
	*n = t.count;
	return 0;
}

/* See repo_folders.h. */
int
repo_folders_lock_empty(struct db *db, int32_t id)
{
	MYSQL_BIND in[1];
	int64_t sys, n;
	int r;

	bind_i32(&in[0], &id);
	if ((r = db_query_i64(db, stmt(db, FOLDERS_STMT_LOCK), in, &sys,
	    "repo_folders_lock_empty")) != 0)
		return r;
	if (sys != 0)
		return -REPO_ERR_CONFLICT;
	if ((r = db_query_i64(db, stmt(db, FOLDERS_STMT_CHILDREN), in, &n,
	    "repo_folders_lock_empty")) != 0)
		return r;
	return n != 0 ? -REPO_ERR_CONFLICT : 0;
}

/* See repo_folders.h. */
int
repo_folders_delete_locked(struct db *db, int32_t id)
{
	MYSQL_BIND in[1];

	bind_i32(&in[0], &id);
	return db_exec(db, stmt(db, FOLDERS_STMT_DELETE), in,
	    "repo_folders_delete_locked");
}

/* See repo_folders.h. */
int
repo_folders_child_id(struct db *db, int32_t parent_id, const char *name,
    int32_t *id)
{
	MYSQL_BIND in[2];
	unsigned long len = strlen(name);
	int64_t v;
	int r;

	*id = 0;
	bind_i32(&in[0], &parent_id);
	bind_str(&in[1], name, &len);
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_query_i64(db, stmt(db, FOLDERS_STMT_CHILD_ID), in, &v,
	    "repo_folders_child_id")) != 0)
		return r;
	*id = (int32_t)v;
	return 0;
}

struct folder_update {
	int32_t			 id;
	const char		*name;
	const char		*description;
	int			 archive;
	bool			*is_system;
};

static int
folder_update_tx(struct db *db, void *arg)
{
	struct folder_update *u = arg;
	MYSQL_BIND in[4];
	unsigned long nlen = 0, dlen = 0;
	int32_t archive = u->archive;
	int64_t sys;
	int r;

	bind_i32(&in[0], &u->id);
	if ((r = db_query_i64(db, stmt(db, FOLDERS_STMT_LOCK), in, &sys,
	    "repo_folders_update")) != 0)
		return r;
	*u->is_system = sys != 0;
	if (sys != 0)
		return -REPO_ERR_CONFLICT;
	if (u->name != NULL) {
		nlen = strlen(u->name);
		bind_str(&in[0], u->name, &nlen);
	} else
		bind_null(&in[0]);
	if (u->description != NULL) {
		dlen = strlen(u->description);
		bind_str(&in[1], u->description, &dlen);
	} else
		bind_null(&in[1]);
	if (u->archive >= 0)
		bind_i32(&in[2], &archive);
	else
		bind_null(&in[2]);
	bind_i32(&in[3], &u->id);
	return db_exec(db, stmt(db, FOLDERS_STMT_UPDATE), in,
	    "repo_folders_update");
}

/* See repo_folders.h. */
int
repo_folders_update(struct db *db, int32_t id, const char *name,
    const char *description, int archive, bool *is_system)
{
	struct folder_update u = { id, name, description, archive,
	    is_system };

	*is_system = false;
	return db_run_tx(db, folder_update_tx, &u, false);
}
