/*
 * Snippets (repo_snippets.h).  Deleting locks the row and reads its uses
 * (asset_usage) in the same transaction.
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
#include "repo/repo_snippets.h"
#include "repo/repo_usage.h"
#include "util/arena.h"

enum snippet_stmt {
	SNIPPET_STMT_GET,
	SNIPPET_STMT_LIST,
	SNIPPET_STMT_INSERT,
	SNIPPET_STMT_LOCK,
	SNIPPET_STMT_DELETE,
	SNIPPET_STMT__MAX
};

#define SNIPPET_COLS \
	"id, name, description, status, created_at, updated_at"
#define SNIPPET_NCOLS	6

static const char *const sql[SNIPPET_STMT__MAX] = {
	[SNIPPET_STMT_GET] =
	    "SELECT " SNIPPET_COLS ", content, text_content FROM snippet "
	    "WHERE id = ?",
	[SNIPPET_STMT_LIST] =
	    "SELECT " SNIPPET_COLS " FROM snippet ORDER BY id",
	[SNIPPET_STMT_INSERT] =
	    "INSERT INTO snippet (name, description, status, content, "
	    "text_content, created_at, updated_at) VALUES (?, ?, "
	    "'approved', ?, ?, UTC_TIMESTAMP(), UTC_TIMESTAMP())",
	[SNIPPET_STMT_LOCK] =
	    "SELECT id FROM snippet WHERE id = ? FOR UPDATE",
	[SNIPPET_STMT_DELETE] =
	    "DELETE FROM snippet WHERE id = ?",
};

const struct db_stmt_set repo_snippets_sql = {
	.name = "snippets",
	.sql = sql,
	.n = SNIPPET_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum snippet_stmt s)
{
	return db_stmt(db, REPO_SNIPPETS, (int)s);
}

/* Row i of t (SNIPPET_COLS) into *out. */
static void
fill(const struct db_text_rows *t, size_t i, struct repo_snippet *out)
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

/* See repo_snippets.h. */
int
repo_snippet_get(struct db *db, struct arena *a, int32_t id,
    struct repo_snippet *out)
{
	MYSQL_BIND in[1];
	struct db_text_rows t;
	int r;

	memset(out, 0, sizeof(*out));
	bind_i32(&in[0], &id);
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_exec(db, stmt(db, SNIPPET_STMT_GET), in,
	    "repo_snippet_get")) != 0 ||
	    (r = db_fetch_text(db, stmt(db, SNIPPET_STMT_GET), a,
	    SNIPPET_NCOLS + 2, 1, "repo_snippet_get", &t)) != 0)
		return r;
	if (t.count == 0)
		return -REPO_ERR_NOT_FOUND;
	fill(&t, 0, out);
	out->content = db_text_str(&t, 0, SNIPPET_NCOLS) != NULL ?
	    db_text_str(&t, 0, SNIPPET_NCOLS) : "";
	out->content_len = t.len[SNIPPET_NCOLS];
	out->text = db_text_str(&t, 0, SNIPPET_NCOLS + 1) != NULL ?
	    db_text_str(&t, 0, SNIPPET_NCOLS + 1) : "";
	out->text_len = t.len[SNIPPET_NCOLS + 1];
	return 0;
}

/* See repo_snippets.h. */
int
repo_snippet_list(struct db *db, struct arena *a, struct repo_snippet **out,
    size_t *n)
{
	struct db_text_rows t;
	struct repo_snippet *items;
	size_t i;
	int r;

	*out = NULL;
	*n = 0;
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_exec(db, stmt(db, SNIPPET_STMT_LIST), NULL,
	    "repo_snippet_list")) != 0 ||
	    (r = db_fetch_text(db, stmt(db, SNIPPET_STMT_LIST), a,
	    SNIPPET_NCOLS, SIZE_MAX, "repo_snippet_list", &t)) != 0)
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

/* See repo_snippets.h. */
int
repo_snippet_insert(struct db *db, const struct repo_snippet_new *s,
    int32_t *id)
{
	MYSQL_BIND in[4];
	unsigned long nlen = strlen(s->name), dlen = 0;
	unsigned long clen = s->content_len, tlen = s->text_len;
	int r;

	*id = 0;
	bind_str(&in[0], s->name, &nlen);
	if (s->description != NULL) {
		dlen = strlen(s->description);
		bind_str(&in[1], s->description, &dlen);
	} else
		bind_null(&in[1]);
	bind_str(&in[2], s->content, &clen);
	bind_str(&in[3], s->text, &tlen);
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_exec(db, stmt(db, SNIPPET_STMT_INSERT), in,
	    "repo_snippet_insert")) != 0)
		return r;
	*id = (int32_t)mysql_stmt_insert_id(stmt(db, SNIPPET_STMT_INSERT));
	return 0;
}

static int
snippet_delete_tx(struct db *db, void *arg)
{
	int32_t *id = arg;
	MYSQL_BIND in[1];
	int64_t found, used;
	int r;

	bind_i32(&in[0], id);
	if ((r = db_query_i64(db, stmt(db, SNIPPET_STMT_LOCK), in, &found,
	    "repo_snippet_delete")) != 0 ||
	    (r = repo_usage_count(db, USAGE_SNIPPET, *id, &used)) != 0)
		return r;
	if (used > 0)
		return -REPO_ERR_CONFLICT;
	return db_exec(db, stmt(db, SNIPPET_STMT_DELETE), in,
	    "repo_snippet_delete");
}

/* See repo_snippets.h. */
int
repo_snippet_delete(struct db *db, int32_t id)
{
	return db_run_tx(db, snippet_delete_tx, &id, false);
}
