/*
 * What the campaign engine's flow steps change (repo_engine_steps.h).
 * A lead field's column is named from the field catalogue (back-quoted
 * by repo_lead_sql_ident) and its statements are cached per connection
 * (db/params.h); every value is bound.
 */
#include <assert.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <mysql.h>

#include "db/bind.h"
#include "db/params.h"
#include "db/pool.h"
#include "db/query.h"
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_engine_steps.h"
#include "repo/repo_lead_sql.h"
#include "util/arena.h"
#include "bounds.h"
#include "util/buf.h"

enum steps_stmt {
	STEPS_STMT_LIST_ADD,
	STEPS_STMT_LIST_REMOVE,
	STEPS_STMT_LIST_NAME,
	STEPS_STMT_PROGRAM,
	STEPS_STMT_STATUS,
	STEPS_STMT_MEMBER,
	STEPS_STMT_MEMBER_STATUS,
	STEPS_STMT_MEMBER_WRITE,
	STEPS_STMT__MAX
};

static const char *const sql[STEPS_STMT__MAX] = {
	[STEPS_STMT_LIST_ADD] =
	    "INSERT IGNORE INTO list_member (list_id, lead_id, created_at, "
	    "updated_at) VALUES (?, ?, UTC_TIMESTAMP(), UTC_TIMESTAMP())",
	[STEPS_STMT_LIST_REMOVE] =
	    "DELETE FROM list_member WHERE list_id = ? AND lead_id = ?",
	[STEPS_STMT_LIST_NAME] =
	    "SELECT IF(p.name IS NULL, l.name, CONCAT(p.name, '.', l.name)) "
	    "FROM static_list l LEFT JOIN program p ON p.id = l.program_id "
	    "WHERE l.id = ?",
	[STEPS_STMT_PROGRAM] =
	    "SELECT name FROM program WHERE id = ?",
	/* A status of the program by name: its step and success. */
	[STEPS_STMT_STATUS] =
	    "SELECT step, success FROM program_status WHERE program_id = ? "
	    "AND name = ?",
	[STEPS_STMT_MEMBER] =
	    "SELECT status_step FROM program_member WHERE program_id = ? AND "
	    "lead_id = ? FOR UPDATE",
	[STEPS_STMT_MEMBER_STATUS] =
	    "SELECT name FROM program_status WHERE program_id = ? AND "
	    "step = ?",
	[STEPS_STMT_MEMBER_WRITE] =
	    "INSERT INTO program_member (program_id, lead_id, status_step, "
	    "acquired_by, reached_success, membership_date, updated_at) "
	    "VALUES (?, ?, ?, 0, ?, UTC_TIMESTAMP(), UTC_TIMESTAMP()) "
	    "ON DUPLICATE KEY UPDATE status_step = VALUES(status_step), "
	    "reached_success = reached_success OR VALUES(reached_success), "
	    "updated_at = VALUES(updated_at)",
};

const struct db_stmt_set repo_engine_steps_sql = {
	.name = "engine_steps",
	.sql = sql,
	.n = STEPS_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum steps_stmt s)
{
	return db_stmt(db, REPO_ENGINE_STEPS, (int)s);
}

/* The longest statement text built here. */
#define STEPS_SQL_BYTES	512

/* See repo_engine_steps.h. */
int
repo_engine_field_get(struct db *db, struct arena *a,
    const struct lead_field *f, int64_t lead_id, const char **val)
{
	const char *const where = "repo_engine_field_get";
	struct db_text_rows t;
	struct params p;
	struct buf b;
	int r = -REPO_ERR_INTERNAL;

	*val = NULL;
	buf_init(&b, STEPS_SQL_BYTES);
	memset(&p, 0, sizeof(p));
	buf_adds(&b, "SELECT CAST(");
	if (!repo_lead_sql_ident(&b, "", f->name))
		goto out;
	buf_adds(&b, " AS CHAR) FROM lead WHERE id = ? FOR UPDATE");
	params_init(&p, 1);
	params_i64(&p, lead_id);
	if ((r = params_query(db, params_stmt(db, &b, where), &p, a, 1, 1,
	    where, &t)) != 0)
		goto out;
	if (t.count == 0)
		r = -REPO_ERR_NOT_FOUND;
	else
		*val = db_text_str(&t, 0, 0);
out:
	params_clear(&p);
	buf_clear(&b);
	return r;
}

/* See repo_engine_steps.h. */
int
repo_engine_field_set(struct db *db, const struct lead_field *f,
    int64_t lead_id, const struct lead_value *v)
{
	const char *const where = "repo_engine_field_set";
	struct params p;
	struct buf b;
	int r = -REPO_ERR_INTERNAL;

	buf_init(&b, STEPS_SQL_BYTES);
	memset(&p, 0, sizeof(p));
	buf_adds(&b, "UPDATE lead SET ");
	if (!repo_lead_sql_ident(&b, "", f->name))
		goto out;
	buf_adds(&b, " = ?, updatedAt = UTC_TIMESTAMP() WHERE id = ?");
	params_init(&p, 2);
	repo_lead_sql_value(&p, f, v);
	params_i64(&p, lead_id);
	r = params_exec(db, params_stmt(db, &b, where), &p, where);
out:
	params_clear(&p);
	buf_clear(&b);
	return r;
}

/* See repo_engine_steps.h. */
int
repo_engine_list_member(struct db *db, int32_t list_id, int64_t lead_id,
    bool add, bool *changed)
{
	MYSQL_BIND in[2];
	uint64_t n = 0;
	int r;

	*changed = false;
	bind_i32(&in[0], &list_id);
	bind_i64(&in[1], &lead_id);
	r = db_exec_n(db, stmt(db, add ? STEPS_STMT_LIST_ADD :
	    STEPS_STMT_LIST_REMOVE), in, &n, "repo_engine_list_member");
	*changed = r == 0 && n > 0;
	return r;
}

/* One text value of one row of st run with in, into *out (arena a). */
static int
one_text(struct db *db, MYSQL_STMT *st, MYSQL_BIND *in, struct arena *a,
    const char **out, const char *where)
{
	struct db_text_rows t;
	int r;

	*out = NULL;
	if ((r = db_select_text(db, st, in, a, 1, 1, where, &t)) != 0)
		return r;
	if (t.count == 0)
		return -REPO_ERR_NOT_FOUND;
	*out = db_text_str(&t, 0, 0);
	return *out != NULL ? 0 : -REPO_ERR_NOT_FOUND;
}

/* See repo_engine_steps.h. */
int
repo_engine_list_name(struct db *db, struct arena *a, int32_t list_id,
    const char **name)
{
	MYSQL_BIND in[1];

	bind_i32(&in[0], &list_id);
	return one_text(db, stmt(db, STEPS_STMT_LIST_NAME), in, a, name,
	    "repo_engine_list_name");
}

/* See repo_engine_steps.h. */
int
repo_engine_program_status(struct db *db, struct arena *a, int32_t program_id,
    int64_t lead_id, const char *status, struct engine_status *out)
{
	const char *const where = "repo_engine_program_status";
	MYSQL_STMT *st;
	MYSQL_BIND in[4], res[2];
	unsigned long slen = strlen(status);
	int64_t step = 0, success = 0, old = 0, ok;
	my_bool nul[2];
	int r;

	memset(out, 0, sizeof(*out));
	bind_i32(&in[0], &program_id);
	if ((r = one_text(db, stmt(db, STEPS_STMT_PROGRAM), in, a,
	    &out->program, where)) != 0)
		return r;
	st = stmt(db, STEPS_STMT_STATUS);
	bind_i32(&in[0], &program_id);
	bind_str(&in[1], status, &slen);
	if ((r = db_exec(db, st, in, where)) != 0)
		return r;
	bind_out_i64(&res[0], &step, &nul[0]);
	bind_out_i64(&res[1], &success, &nul[1]);
	if ((r = db_fetch_one(db, st, res, where)) != 0)
		return r;
	bind_i32(&in[0], &program_id);
	bind_i64(&in[1], &lead_id);
	r = db_query_i64(db, stmt(db, STEPS_STMT_MEMBER), in, &old, where);
	if (r != 0 && r != -REPO_ERR_NOT_FOUND)
		return r;
	out->acquired = r == -REPO_ERR_NOT_FOUND;
	out->old_step = old;
	out->old_name = "Not in Program";
	if (!out->acquired) {
		bind_i32(&in[0], &program_id);
		bind_i64(&in[1], &old);
		if ((r = one_text(db, stmt(db, STEPS_STMT_MEMBER_STATUS), in,
		    a, &out->old_name, where)) == -REPO_ERR_NOT_FOUND)
			out->old_name = "";
		else if (r != 0)
			return r;
	}
	out->new_step = step;
	out->new_name = arena_strdup(a, status);
	out->success = success != 0;
	/* Never backwards (nor to where it is). */
	if (!out->acquired && old >= step)
		return 0;
	out->changed = true;
	ok = success;
	bind_i32(&in[0], &program_id);
	bind_i64(&in[1], &lead_id);
	bind_i64(&in[2], &step);
	bind_i64(&in[3], &ok);
	return db_exec(db, stmt(db, STEPS_STMT_MEMBER_WRITE), in, where);
}

/* ---- Many leads at once ------------------------------------------------ */

static_assert(ENGINE_GROUP_MAX <= MAX_BATCH_RECORDS,
    "a group's ids fit in one padded IN list (params_in_ids)");

/* The longest text of these: a padded IN list of ENGINE_GROUP_MAX ids. */
#define GROUP_SQL_BYTES	(STEPS_SQL_BYTES + 2 * ENGINE_GROUP_MAX + 64)

/* Index of id in ids[0..n), or n. */
static size_t
index_of(const int64_t *ids, size_t n, int64_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return i;
	return n;
}

/*
 * Runs the text in b (its placeholders bound in p, the ids last) and
 * reads rows of ncol columns (the first an id of ids) into *t.
 */
static int
query_ids(struct db *db, struct arena *a, struct buf *b, struct params *p,
    size_t ncol, size_t max, const char *where, struct db_text_rows *t)
{
	return params_query(db, params_stmt(db, b, where), p, a, ncol, max,
	    where, t);
}

/* See repo_engine_steps.h. */
int
repo_engine_leads_lock(struct db *db, const int64_t *leads, size_t n,
    bool *found)
{
	const char *const where = "repo_engine_leads_lock";
	struct db_text_rows t;
	struct arena a;
	struct params p;
	struct buf b;
	size_t i, k;
	int r;

	memset(found, 0, n * sizeof(*found));
	if (n == 0)
		return 0;
	arena_init(&a);
	buf_init(&b, GROUP_SQL_BYTES);
	memset(&p, 0, sizeof(p));
	params_init(&p, params_padded(n) > 0 ? params_padded(n) : 1);
	buf_adds(&b, "SELECT id FROM lead WHERE id");
	if ((r = params_in_ids(&b, &p, leads, n)) == 0) {
		buf_adds(&b, " FOR UPDATE");
		r = query_ids(db, &a, &b, &p, 1, n, where, &t);
	}
	for (i = 0; r == 0 && i < t.count; i++)
		if ((k = index_of(leads, n, db_text_i64(&t, i, 0))) < n)
			found[k] = true;
	params_clear(&p);
	buf_clear(&b);
	arena_clear(&a);
	return r;
}

/* See repo_engine_steps.h. */
int
repo_engine_field_get_many(struct db *db, struct arena *a,
    const struct lead_field *f, const int64_t *leads, size_t n,
    const char **vals)
{
	const char *const where = "repo_engine_field_get_many";
	struct db_text_rows t;
	struct params p;
	struct buf b;
	size_t i, k;
	int r = -REPO_ERR_INTERNAL;

	memset(vals, 0, n * sizeof(*vals));
	if (n == 0)
		return 0;
	buf_init(&b, GROUP_SQL_BYTES);
	memset(&p, 0, sizeof(p));
	params_init(&p, params_padded(n) > 0 ? params_padded(n) : 1);
	buf_adds(&b, "SELECT id, CAST(");
	if (!repo_lead_sql_ident(&b, "", f->name))
		goto out;
	buf_adds(&b, " AS CHAR) FROM lead WHERE id");
	if ((r = params_in_ids(&b, &p, leads, n)) != 0 ||
	    (r = query_ids(db, a, &b, &p, 2, n, where, &t)) != 0)
		goto out;
	for (i = 0; i < t.count; i++)
		if ((k = index_of(leads, n, db_text_i64(&t, i, 0))) < n)
			vals[k] = db_text_str(&t, i, 1);
out:
	params_clear(&p);
	buf_clear(&b);
	return r;
}

/* See repo_engine_steps.h. */
int
repo_engine_field_set_many(struct db *db, const struct lead_field *f,
    const int64_t *leads, size_t n, const struct lead_value *v)
{
	const char *const where = "repo_engine_field_set_many";
	struct params p;
	struct buf b;
	int r = -REPO_ERR_INTERNAL;

	if (n == 0)
		return 0;
	buf_init(&b, GROUP_SQL_BYTES);
	memset(&p, 0, sizeof(p));
	params_init(&p, 1 + (params_padded(n) > 0 ? params_padded(n) : 1));
	buf_adds(&b, "UPDATE lead SET ");
	if (!repo_lead_sql_ident(&b, "", f->name))
		goto out;
	buf_adds(&b, " = ?, updatedAt = UTC_TIMESTAMP() WHERE id");
	repo_lead_sql_value(&p, f, v);
	if ((r = params_in_ids(&b, &p, leads, n)) == 0)
		r = params_exec(db, params_stmt(db, &b, where), &p, where);
out:
	params_clear(&p);
	buf_clear(&b);
	return r;
}

/* See repo_engine_steps.h. */
int
repo_engine_list_members(struct db *db, int32_t list_id,
    const int64_t *leads, size_t n, bool add, bool *changed)
{
	const char *const where = "repo_engine_list_members";
	struct db_text_rows t;
	struct arena a;
	struct params p;
	struct buf b;
	const char *name;
	size_t i, k;
	int r;

	memset(changed, 0, n * sizeof(*changed));
	if (n == 0)
		return 0;
	arena_init(&a);
	buf_init(&b, GROUP_SQL_BYTES + 64 * ENGINE_GROUP_MAX);
	memset(&p, 0, sizeof(p));
	/*
	 * One statement that answers the rows it changed: a lead already a
	 * member (or not one) is left alone, and its row lock held.
	 */
	if (add) {
		params_init(&p, 2 * n);
		buf_adds(&b, "INSERT IGNORE INTO list_member (list_id, lead_id, "
		    "created_at, updated_at) VALUES ");
		for (i = 0; i < n; i++) {
			buf_adds(&b, i > 0 ? ",(?, ?, UTC_TIMESTAMP(), "
			    "UTC_TIMESTAMP())" : "(?, ?, UTC_TIMESTAMP(), "
			    "UTC_TIMESTAMP())");
			params_i64(&p, list_id);
			params_i64(&p, leads[i]);
		}
		buf_adds(&b, " RETURNING lead_id");
		r = query_ids(db, &a, &b, &p, 1, n, where, &t);
		/* IGNORE passes over a list deleted meanwhile too. */
		if (r == 0 && t.count < n && (r = repo_engine_list_name(db,
		    &a, list_id, &name)) == -REPO_ERR_NOT_FOUND)
			r = -REPO_ERR_GONE;
	} else {
		params_init(&p, 1 + (params_padded(n) > 0 ? params_padded(n) :
		    1));
		buf_adds(&b, "DELETE FROM list_member WHERE list_id = ? AND "
		    "lead_id");
		params_i64(&p, list_id);
		if ((r = params_in_ids(&b, &p, leads, n)) == 0) {
			buf_adds(&b, " RETURNING lead_id");
			r = query_ids(db, &a, &b, &p, 1, n, where, &t);
		}
	}
	for (i = 0; r == 0 && i < t.count; i++)
		if ((k = index_of(leads, n, db_text_i64(&t, i, 0))) < n)
			changed[k] = true;
	params_clear(&p);
	buf_clear(&b);
	arena_clear(&a);
	return r;
}
