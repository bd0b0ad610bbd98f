/*
 * Static lists (repo_lists.h): creating and finding them, adding leads
 * with the "Add to List" activity, and handing a merged lead's
 * memberships to the winner.  Every write is one db_run_tx transaction;
 * a list row is locked in share mode while members are added.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <mysql.h>

#include "db/bind.h"
#include "db/pool.h"
#include "db/query.h"
#include "repo/repo.h"
#include "repo/repo_activity.h"
#include "repo/repo_lead_lock.h"
#include "repo/repo_lists.h"

enum lists_stmt {
	LISTS_STMT_INSERT,
	LISTS_STMT_GET_BY_NAME,
	LISTS_STMT_GET_BY_ID,
	LISTS_STMT_LOCK,
	LISTS_STMT_PROGRAM_NAME,
	LISTS_STMT_MEMBER_INSERT,
	LISTS_STMT_MEMBER_MOVE,
	LISTS_STMT_MEMBER_DELETE_BY_LEAD,
	LISTS_STMT_MEMBER_COUNT,
	LISTS_STMT__MAX
};

static const char *const sql[LISTS_STMT__MAX] = {
	[LISTS_STMT_INSERT] =
	    "INSERT INTO static_list (name, created_at, updated_at) "
	    "VALUES (?, UTC_TIMESTAMP(), UTC_TIMESTAMP())",
	[LISTS_STMT_GET_BY_NAME] =
	    "SELECT id FROM static_list WHERE name = ?",
	[LISTS_STMT_GET_BY_ID] =
	    "SELECT id FROM static_list WHERE id = ?",
	[LISTS_STMT_LOCK] =
	    "SELECT name, program_id FROM static_list WHERE id = ? "
	    "LOCK IN SHARE MODE",
	[LISTS_STMT_PROGRAM_NAME] =
	    "SELECT name FROM program WHERE id = ?",
	[LISTS_STMT_MEMBER_INSERT] =
	    "INSERT IGNORE INTO list_member (list_id, lead_id, created_at, "
	    "updated_at) VALUES (?, ?, UTC_TIMESTAMP(), UTC_TIMESTAMP())",
	/* to, from: the winner keeps its own row on a conflict. */
	[LISTS_STMT_MEMBER_MOVE] =
	    "INSERT IGNORE INTO list_member (list_id, lead_id, created_at, "
	    "updated_at) SELECT list_id, ?, created_at, updated_at "
	    "FROM list_member WHERE lead_id = ?",
	[LISTS_STMT_MEMBER_DELETE_BY_LEAD] =
	    "DELETE FROM list_member WHERE lead_id = ?",
	[LISTS_STMT_MEMBER_COUNT] =
	    "SELECT COUNT(*) FROM (SELECT 1 FROM list_member "
	    "WHERE list_id = ? LIMIT ?) m",
};

const struct db_stmt_set repo_lists_sql = {
	.name = "lists",
	.sql = sql,
	.n = LISTS_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum lists_stmt s)
{
	return db_stmt(db, REPO_LISTS, (int)s);
}

struct list_insert {
	const char	*name;
	int32_t		 id;
};

static int
list_insert_tx(struct db *db, void *arg)
{
	struct list_insert *a = arg;
	MYSQL_BIND in[1];
	unsigned long len = strlen(a->name);
	MYSQL_STMT *st = stmt(db, LISTS_STMT_INSERT);
	int r;

	bind_str(&in[0], a->name, &len);
	if ((r = db_exec(db, st, in, "repo_lists_insert")) == 0)
		a->id = (int32_t)mysql_stmt_insert_id(st);
	return r;
}

/* See repo_lists.h. */
int
repo_lists_insert(struct db *db, const char *name, int32_t *id)
{
	struct list_insert a = { name, 0 };
	int r;

	r = db_run_tx(db, list_insert_tx, &a, false);
	*id = r == 0 ? a.id : 0;
	return r;
}

/* See repo_lists.h. */
int
repo_lists_get_id_by_name(struct db *db, const char *name, int32_t *id)
{
	return db_query_id(db, stmt(db, LISTS_STMT_GET_BY_NAME), name, id,
	    "repo_lists_get_id_by_name");
}

/* See repo_lists.h. */
int
repo_lists_find(struct db *db, int32_t id, const char *name, int32_t *out)
{
	MYSQL_BIND in[1];
	int64_t v;
	int r;

	*out = 0;
	if (name != NULL)
		return repo_lists_get_id_by_name(db, name, out);
	if ((r = db_ensure(db)) != 0)
		return r;
	bind_i32(&in[0], &id);
	if ((r = db_query_i64(db, stmt(db, LISTS_STMT_GET_BY_ID), in, &v,
	    "repo_lists_find")) == 0)
		*out = (int32_t)v;
	return r;
}

struct list_batch {
	int32_t			 id;
	const int64_t		*leads;
	size_t			 n;
	struct repo_missing	*miss;
};

/*
 * The list's name as Add to List shows it (§A.4.4): "<program>.<list>"
 * for a list of a program, the bare name otherwise.  Reads and share-
 * locks the list (0, -REPO_ERR_NOT_FOUND or the error).
 */
static int
list_lock_name(struct db *db, int32_t id, char *out, size_t size)
{
	MYSQL_BIND in[1], res[2];
	my_bool nul[2];
	unsigned long len[2];
	char name[256], prog[256];
	int32_t pid;
	int r;

	bind_i32(&in[0], &id);
	bind_out_str(&res[0], name, sizeof(name), &len[0], &nul[0]);
	bind_out_i32(&res[1], &pid, &nul[1]);
	if ((r = db_exec(db, stmt(db, LISTS_STMT_LOCK), in,
	    "repo_lists_member_add")) != 0 || (r = db_fetch_one(db,
	    stmt(db, LISTS_STMT_LOCK), res, "repo_lists_member_add")) != 0)
		return r;
	name[len[0] < sizeof(name) ? len[0] : sizeof(name) - 1] = '\0';
	if (nul[1]) {
		snprintf(out, size, "%s", name);
		return 0;
	}
	bind_i32(&in[0], &pid);
	if ((r = db_query_str(db, stmt(db, LISTS_STMT_PROGRAM_NAME), in, prog,
	    sizeof(prog), "repo_lists_member_add")) != 0)
		return r == -REPO_ERR_NOT_FOUND ? -REPO_ERR_INTERNAL : r;
	snprintf(out, size, "%s.%s", prog, name);
	return 0;
}

static int
list_member_tx(struct db *db, void *arg)
{
	struct list_batch *b = arg;
	struct activity a;
	struct json_object *o;
	MYSQL_BIND in[2];
	uint64_t added;
	char name[512];
	size_t i;
	int r;

	memset(b->miss, 0, sizeof(*b->miss));
	if ((r = list_lock_name(db, b->id, name, sizeof(name))) != 0) {
		if (r == -REPO_ERR_NOT_FOUND) {
			b->miss->what = REPO_WHAT_LIST;
			b->miss->id = b->id;
		}
		return r;
	}
	if ((r = repo_lead_lock_all(db, b->leads, b->n, b->miss)) != 0)
		return r;
	o = json_object_new_object();
	json_object_object_add(o, "List ID", json_object_new_int64(b->id));
	json_object_object_add(o, "Source",
	    json_object_new_string("Web service API"));
	memset(&a, 0, sizeof(a));
	a.type = ACT_ADD_TO_LIST;
	a.primary_id = b->id;
	a.primary_value = name;
	a.attributes = repo_activity_attrs(o);
	for (i = 0; i < b->n; i++) {
		bind_i32(&in[0], &b->id);
		bind_i64(&in[1], &b->leads[i]);
		if ((r = db_exec_n(db, stmt(db, LISTS_STMT_MEMBER_INSERT), in,
		    &added, "repo_lists_member_add")) != 0)
			break;
		if (added != 1)
			continue;
		a.lead_id = b->leads[i];
		if ((r = repo_activity_insert(db, &a)) != 0)
			break;
	}
	free((char *)(uintptr_t)a.attributes);
	return r;
}

/* See repo_lists.h. */
int
repo_lists_member_add(struct db *db, int32_t list_id,
    const int64_t *leads, size_t n, struct repo_missing *miss)
{
	struct list_batch b = { list_id, leads, n, miss };

	memset(miss, 0, sizeof(*miss));
	return db_run_tx(db, list_member_tx, &b, false);
}

/* See repo_lists.h. */
int
repo_lists_members_move(struct db *db, int64_t to, int64_t from)
{
	MYSQL_BIND in[2];
	int r;

	bind_i64(&in[0], &to);
	bind_i64(&in[1], &from);
	if ((r = db_exec(db, stmt(db, LISTS_STMT_MEMBER_MOVE), in,
	    "repo_lists_members_move")) != 0)
		return r;
	return db_exec(db, stmt(db, LISTS_STMT_MEMBER_DELETE_BY_LEAD),
	    &in[1], "repo_lists_members_move");
}

/* See repo_lists.h. */
int
repo_lists_member_count(struct db *db, int32_t list_id, int64_t cap,
    int64_t *count)
{
	MYSQL_BIND in[2];

	*count = 0;
	memset(in, 0, sizeof(in));
	bind_i32(&in[0], &list_id);
	bind_i64(&in[1], &cap);
	return db_query_i64(db, stmt(db, LISTS_STMT_MEMBER_COUNT), in, count,
	    "repo_lists_member_count");
}
