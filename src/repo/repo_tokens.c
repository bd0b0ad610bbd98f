/*
 * Tokens of folders and programs (repo_tokens.h).  A token has its
 * folder_id or its program_id set, so one statement serves both kinds of
 * place: the other id is bound NULL and matches nothing.  Writes take a
 * shared lock on the place's row first, so a token is never made on a
 * folder or program being deleted (that delete takes its tokens with it).
 * The tokens in effect are one recursive read up the folder tree, of
 * which model/token.c keeps the nearest definition of each name.
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
#include "model/token.h"
#include "repo/repo.h"
#include "repo/repo_tokens.h"
#include "util/arena.h"

enum tokens_stmt {
	TOKENS_STMT_FOLDER,
	TOKENS_STMT_PROGRAM,
	TOKENS_STMT_FOLDER_LOCK,
	TOKENS_STMT_PROGRAM_LOCK,
	TOKENS_STMT_LIST,
	TOKENS_STMT_UPSERT,
	TOKENS_STMT_DELETE,
	TOKENS_STMT_EFFECTIVE,
	TOKENS_STMT__MAX
};


static const char *const sql[TOKENS_STMT__MAX] = {
	[TOKENS_STMT_FOLDER] = "SELECT COUNT(*) FROM folder WHERE id = ?",
	[TOKENS_STMT_PROGRAM] = "SELECT COUNT(*) FROM program WHERE id = ?",
	[TOKENS_STMT_FOLDER_LOCK] =
	    "SELECT COUNT(*) FROM folder WHERE id = ? LOCK IN SHARE MODE",
	[TOKENS_STMT_PROGRAM_LOCK] =
	    "SELECT COUNT(*) FROM program WHERE id = ? LOCK IN SHARE MODE",
	[TOKENS_STMT_LIST] =
	    "SELECT name, type, value FROM folder_token "
	    "WHERE folder_id = ? OR program_id = ? ORDER BY id",
	[TOKENS_STMT_UPSERT] =
	    "INSERT INTO folder_token (folder_id, program_id, name, type, "
	    "value, created_at, updated_at) VALUES (?, ?, ?, ?, ?, "
	    "UTC_TIMESTAMP(), UTC_TIMESTAMP()) ON DUPLICATE KEY UPDATE "
	    "type = VALUES(type), value = VALUES(value), "
	    "updated_at = VALUES(updated_at)",
	[TOKENS_STMT_DELETE] =
	    "DELETE FROM folder_token WHERE (folder_id = ? OR program_id = ?) "
	    "AND name = ? AND type = ?",
	/*
	 * Parameters: program id (or NULL), folder id (or NULL), the
	 * program id again.  depth 0 is the program itself, 1 the folder it
	 * stands in (or the folder asked about), then each parent.
	 */
	[TOKENS_STMT_EFFECTIVE] =
	    "WITH RECURSIVE up (fid, depth) AS ("
	    "SELECT COALESCE((SELECT folder_id FROM program WHERE id = ?), ?), "
	    "1 UNION ALL SELECT f.parent_id, up.depth + 1 FROM up "
	    "JOIN folder f ON f.id = up.fid WHERE f.parent_id IS NOT NULL "
	    "AND up.depth < 1000) "
	    "SELECT t.name, t.type, t.value, up.depth, up.fid FROM up "
	    "JOIN folder_token t ON t.folder_id = up.fid "
	    "UNION ALL SELECT name, type, value, 0, program_id "
	    "FROM folder_token WHERE program_id = ?",
};

const struct db_stmt_set repo_tokens_sql = {
	.name = "tokens",
	.sql = sql,
	.n = TOKENS_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum tokens_stmt s)
{
	return db_stmt(db, REPO_TOKENS, (int)s);
}

/* Binds the place's id as in[0] (a folder) or in[1] (a program). */
static void
bind_place(MYSQL_BIND *in, const struct folder_ref *ref, const int32_t *id)
{
	if (ref->type == FOLDER_T_FOLDER) {
		bind_i32(&in[0], id);
		bind_null(&in[1]);
	} else {
		bind_null(&in[0]);
		bind_i32(&in[1], id);
	}
}

/* Whether place ref exists (locked shared when lock): 0 or NOT_FOUND. */
static int
place_exists(struct db *db, const struct folder_ref *ref, bool lock)
{
	MYSQL_BIND in[1];
	int32_t id;
	int64_t n = 0;
	enum tokens_stmt s;
	int r;

	if (ref->id <= 0 || ref->id > INT32_MAX)
		return -REPO_ERR_NOT_FOUND;
	id = (int32_t)ref->id;
	if (ref->type == FOLDER_T_FOLDER)
		s = lock ? TOKENS_STMT_FOLDER_LOCK : TOKENS_STMT_FOLDER;
	else
		s = lock ? TOKENS_STMT_PROGRAM_LOCK : TOKENS_STMT_PROGRAM;
	bind_i32(&in[0], &id);
	if ((r = db_query_i64(db, stmt(db, s), in, &n,
	    "repo_tokens_place")) != 0)
		return r;
	return n > 0 ? 0 : -REPO_ERR_NOT_FOUND;
}

/* The type word of a row (text for one not written by us). */
static enum token_type
type_of(const char *word)
{
	int t = token_type_parse(word);

	return t >= 0 ? (enum token_type)t : TOKEN_TEXT;
}

/* See repo_tokens.h. */
int
repo_tokens_list(struct db *db, struct arena *a, const struct folder_ref *ref,
    struct repo_token **out, size_t *n)
{
	MYSQL_BIND in[2];
	struct db_text_rows t;
	struct repo_token *v;
	int32_t id = (int32_t)ref->id;
	size_t i;
	int r;

	*out = NULL;
	*n = 0;
	if ((r = db_ensure(db)) != 0 || (r = place_exists(db, ref, false)) != 0)
		return r;
	bind_place(in, ref, &id);
	if ((r = db_select_text(db, stmt(db, TOKENS_STMT_LIST), in, a, 3,
	    SIZE_MAX, "repo_tokens_list", &t)) != 0)
		return r;
	if (t.count == 0)
		return 0;
	if ((v = arena_zalloc(a, t.count * sizeof(*v))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < t.count; i++) {
		v[i].name = db_text_str(&t, i, 0);
		v[i].type = type_of(db_text_str(&t, i, 1));
		v[i].value = db_text_str(&t, i, 2);
		v[i].place = *ref;
	}
	*out = v;
	*n = t.count;
	return 0;
}

struct token_write {
	const struct folder_ref	*ref;
	const char		*name;
	enum token_type		 type;
	const char		*value;	/* NULL: delete */
	bool			 deleted;
};

static int
token_write_tx(struct db *db, void *arg)
{
	struct token_write *w = arg;
	MYSQL_BIND in[5];
	unsigned long nlen, tlen, vlen;
	const char *tw = token_type_name(w->type);
	int32_t id = (int32_t)w->ref->id;
	uint64_t changed = 0;
	int r;

	if ((r = place_exists(db, w->ref, true)) != 0)
		return r;
	bind_place(in, w->ref, &id);
	nlen = strlen(w->name);
	tlen = strlen(tw);
	bind_str(&in[2], w->name, &nlen);
	bind_str(&in[3], tw, &tlen);
	if (w->value == NULL) {
		if ((r = db_exec_n(db, stmt(db, TOKENS_STMT_DELETE), in,
		    &changed, "repo_tokens_delete")) != 0)
			return r;
		w->deleted = changed > 0;
		return 0;
	}
	vlen = strlen(w->value);
	bind_str(&in[4], w->value, &vlen);
	return db_exec(db, stmt(db, TOKENS_STMT_UPSERT), in,
	    "repo_tokens_upsert");
}

/* See repo_tokens.h. */
int
repo_tokens_upsert(struct db *db, const struct folder_ref *ref,
    const char *name, enum token_type type, const char *value)
{
	struct token_write w = { ref, name, type, value, false };

	return db_run_tx(db, token_write_tx, &w, false);
}

/* See repo_tokens.h. */
int
repo_tokens_delete(struct db *db, const struct folder_ref *ref,
    const char *name, enum token_type type, bool *deleted)
{
	struct token_write w = { ref, name, type, NULL, false };
	int r;

	r = db_run_tx(db, token_write_tx, &w, false);
	*deleted = r == 0 && w.deleted;
	return r;
}

/* See repo_tokens.h. */
int
repo_tokens_effective(struct db *db, struct arena *a,
    const struct folder_ref *ref, struct repo_token **out, size_t *n)
{
	MYSQL_BIND in[3];
	struct db_text_rows t;
	struct repo_token *v;
	struct token_def *defs;
	int32_t id;
	size_t i, k, row;
	int r;

	*out = NULL;
	*n = 0;
	if (ref->id <= 0 || ref->id > INT32_MAX)
		return 0;
	id = (int32_t)ref->id;
	if (ref->type == FOLDER_T_PROGRAM) {
		bind_i32(&in[0], &id);
		bind_null(&in[1]);
		bind_i32(&in[2], &id);
	} else {
		bind_null(&in[0]);
		bind_i32(&in[1], &id);
		bind_null(&in[2]);
	}
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_select_text(db, stmt(db, TOKENS_STMT_EFFECTIVE), in, a, 5,
	    SIZE_MAX, "repo_tokens_effective", &t)) != 0)
		return r;
	if (t.count == 0)
		return 0;
	if ((v = arena_zalloc(a, t.count * sizeof(*v))) == NULL ||
	    (defs = arena_alloc(a, t.count * sizeof(*defs))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < t.count; i++) {
		defs[i].name = db_text_str(&t, i, 0) != NULL ?
		    db_text_str(&t, i, 0) : "";
		defs[i].depth = db_text_i64(&t, i, 3);
		defs[i].index = i;
	}
	k = token_nearest(defs, t.count);
	for (i = 0; i < k; i++) {
		row = defs[i].index;
		v[i].name = defs[i].name;
		v[i].type = type_of(db_text_str(&t, row, 1));
		v[i].value = db_text_str(&t, row, 2);
		v[i].place.type = defs[i].depth == 0 ? FOLDER_T_PROGRAM :
		    FOLDER_T_FOLDER;
		v[i].place.id = db_text_i64(&t, row, 4);
	}
	*out = v;
	*n = k;
	return 0;
}
