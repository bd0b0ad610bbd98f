/*
 * Static lists (repo_lists.h): creating, finding and browsing them,
 * adding and removing leads with the "Add to List" and "Remove from
 * List" activities, and handing a merged lead's memberships to the
 * winner.  Every write is one db_run_tx transaction;
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
#include "util/arena.h"

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
	LISTS_STMT_BROWSE,
	LISTS_STMT_MEMBER_DELETE,
	LISTS_STMT_MEMBER_STATE,
	LISTS_STMT_ASSET_GET,
	LISTS_STMT_ASSET_GET_BY_NAME,
	LISTS_STMT_ASSET_BROWSE,
	LISTS_STMT_UPDATE,
	LISTS_STMT_DELETE,
	LISTS_STMT_DELETE_LOCK,
	LISTS_STMT_USES,
	LISTS_STMT_COUNT_FOLDER,
	LISTS_STMT_PROGRAM_USED_OUTSIDE,
	LISTS_STMT_DELETE_IN_PROGRAM,
	LISTS_STMT_IN_PROGRAM,
	LISTS_STMT__MAX
};

/* The columns of a list as an asset (LIST_ASSET_COL_*). */
#define ASSET_COLS \
	"id, name, description, folder_id, program_id, workspace, " \
	"created_at, updated_at"

static const char *const sql[LISTS_STMT__MAX] = {
	/*
	 * name, description, program, folder, program, workspace: a list
	 * of no program and no folder stands in the Lead Database root.
	 */
	[LISTS_STMT_INSERT] =
	    "INSERT INTO static_list (name, description, folder_id, "
	    "program_id, workspace, created_at, updated_at) "
	    "SELECT ?, ?, IF(? IS NULL, COALESCE(?, MIN(f.id)), NULL), ?, "
	    "COALESCE(?, 'Default'), UTC_TIMESTAMP(), UTC_TIMESTAMP() "
	    "FROM folder f WHERE f.kind = 'staticList' AND f.parent_id IS NULL",
	[LISTS_STMT_GET_BY_NAME] =
	    "SELECT id FROM static_list WHERE name = ?",
	[LISTS_STMT_GET_BY_ID] =
	    "SELECT id FROM static_list WHERE id = ?",
	[LISTS_STMT_LOCK] =
	    "SELECT name, program_id FROM static_list WHERE id = ? "
	    "LOCK IN SHARE MODE",
	/* Shared: a program's delete (which locks its row) waits or is
	 * waited for. */
	[LISTS_STMT_PROGRAM_NAME] =
	    "SELECT name FROM program WHERE id = ? LOCK IN SHARE MODE",
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
	/*
	 * Each filter is a JSON array of the values asked for, or NULL (no
	 * filter), bound twice: one statement whatever the filters.
	 */
	[LISTS_STMT_BROWSE] =
	    "SELECT s.id, s.name, s.description, p.name, w.id, s.workspace, "
	    "s.created_at, s.updated_at FROM static_list s "
	    "LEFT JOIN program p ON p.id = s.program_id "
	    "LEFT JOIN workspace w ON w.name = s.workspace "
	    "WHERE s.id > ? "
	    "AND (? IS NULL OR JSON_CONTAINS(?, CAST(s.id AS CHAR))) "
	    "AND (? IS NULL OR JSON_CONTAINS(?, JSON_QUOTE(s.name))) "
	    "AND (? IS NULL OR JSON_CONTAINS(?, JSON_QUOTE(p.name))) "
	    "AND (? IS NULL OR JSON_CONTAINS(?, JSON_QUOTE(s.workspace))) "
	    "ORDER BY s.id LIMIT ?",
	[LISTS_STMT_MEMBER_DELETE] =
	    "DELETE FROM list_member WHERE list_id = ? AND lead_id = ?",
	/* lead id; one row with the member's lead id, NULL when not one. */
	[LISTS_STMT_MEMBER_STATE] =
	    "SELECT l.id, m.lead_id FROM lead l LEFT JOIN list_member m "
	    "ON m.list_id = ? AND m.lead_id = l.id WHERE l.id = ?",
	[LISTS_STMT_ASSET_GET] =
	    "SELECT " ASSET_COLS " FROM static_list WHERE id = ?",
	[LISTS_STMT_ASSET_GET_BY_NAME] =
	    "SELECT " ASSET_COLS " FROM static_list WHERE name = ?",
	[LISTS_STMT_ASSET_BROWSE] =
	    "SELECT " ASSET_COLS " FROM static_list WHERE "
	    "(? IS NULL OR folder_id = ?) AND (? IS NULL OR program_id = ?) "
	    "AND (? IS NULL OR updated_at >= ?) "
	    "AND (? IS NULL OR updated_at <= ?) "
	    "ORDER BY id LIMIT ? OFFSET ?",
	/* name (NULL: kept), description (NULL: kept), id. */
	[LISTS_STMT_UPDATE] =
	    "UPDATE static_list SET name = COALESCE(?, name), "
	    "description = COALESCE(?, description), "
	    "updated_at = UTC_TIMESTAMP() WHERE id = ?",
	[LISTS_STMT_DELETE] =
	    "DELETE FROM static_list WHERE id = ?",
	[LISTS_STMT_DELETE_LOCK] =
	    "SELECT name FROM static_list WHERE id = ? FOR UPDATE",
	/*
	 * The assets that name a list, by its name or id: the list
	 * conditions of smart lists (Member of List; a campaign's own smart
	 * list too) and the list attributes of flow steps (Add to List,
	 * Remove from List).  Values: name, id, id as JSON, name, id.
	 */
	[LISTS_STMT_USES] =
	    "SELECT (SELECT COUNT(*) FROM smart_list_condition c "
	    "JOIN smart_list_rule r ON r.id = c.rule_id "
	    "JOIN sl_constraint k ON k.rule_type_id = r.rule_type_id "
	    "AND k.id = c.attribute_id WHERE k.data_type = 'list' AND "
	    "(JSON_CONTAINS(c.vals, JSON_QUOTE(?)) OR "
	    "JSON_CONTAINS(c.vals, JSON_QUOTE(?)) OR "
	    "JSON_CONTAINS(c.vals, ?))) + "
	    "(SELECT COUNT(*) FROM sc_choice_attr a "
	    "JOIN sc_step_choice ch ON ch.id = a.choice_id "
	    "JOIN sc_flow_step s ON s.id = ch.step_id "
	    "JOIN sc_flow_attrib fa ON fa.flow_type_id = s.flow_type_id "
	    "AND fa.id = a.attrib_id WHERE fa.data_type = 'list' AND "
	    "(a.value = ? OR a.value = ?))",
	[LISTS_STMT_COUNT_FOLDER] =
	    "SELECT COUNT(*) FROM static_list WHERE folder_id = ?",
	/*
	 * The first list of program ? that an asset standing outside that
	 * program (? twice) names, as LISTS_STMT_USES finds a use: a smart
	 * list's condition (the list's program, or its campaign's) or a
	 * campaign's flow step.
	 */
	[LISTS_STMT_PROGRAM_USED_OUTSIDE] =
	    "SELECT MIN(l.id) FROM static_list l WHERE l.program_id = ? AND "
	    "(EXISTS (SELECT 1 FROM smart_list_condition c "
	    "JOIN smart_list_rule r ON r.id = c.rule_id "
	    "JOIN sl_constraint k ON k.rule_type_id = r.rule_type_id "
	    "AND k.id = c.attribute_id JOIN smart_list s "
	    "ON s.id = r.smart_list_id LEFT JOIN smart_campaign sc "
	    "ON sc.id = s.campaign_id WHERE k.data_type = 'list' AND "
	    "(JSON_CONTAINS(c.vals, JSON_QUOTE(l.name)) OR "
	    "JSON_CONTAINS(c.vals, JSON_QUOTE(CAST(l.id AS CHAR))) OR "
	    "JSON_CONTAINS(c.vals, CAST(l.id AS CHAR))) AND "
	    "NOT (COALESCE(s.program_id, sc.program_id) <=> ?)) "
	    "OR EXISTS (SELECT 1 FROM sc_choice_attr a "
	    "JOIN sc_step_choice ch ON ch.id = a.choice_id "
	    "JOIN sc_flow_step st ON st.id = ch.step_id "
	    "JOIN sc_flow_attrib fa ON fa.flow_type_id = st.flow_type_id "
	    "AND fa.id = a.attrib_id JOIN smart_campaign u "
	    "ON u.id = st.campaign_id WHERE fa.data_type = 'list' AND "
	    "(a.value = l.name OR a.value = CAST(l.id AS CHAR)) AND "
	    "NOT (u.program_id <=> ?)))",
	[LISTS_STMT_DELETE_IN_PROGRAM] =
	    "DELETE FROM static_list WHERE program_id = ?",
	[LISTS_STMT_IN_PROGRAM] =
	    "SELECT id, name, description FROM static_list "
	    "WHERE program_id = ? ORDER BY id",
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
	const struct list_new	*t;
	int32_t			 id;
};

static int
list_insert_tx(struct db *db, void *arg)
{
	struct list_insert *x = arg;
	const struct list_new *t = x->t;
	MYSQL_BIND in[6];
	unsigned long len[3];
	int32_t place = (int32_t)t->place.id;
	bool program = t->has_place && t->place.type == FOLDER_T_PROGRAM;
	bool folder = t->has_place && !program;
	MYSQL_STMT *st = stmt(db, LISTS_STMT_INSERT);
	char pname[256];
	int r;

	/* A program's list needs the program (static_list has no key). */
	memset(in, 0, sizeof(in));
	bind_i32(&in[0], &place);
	if (program && (r = db_query_str(db, stmt(db,
	    LISTS_STMT_PROGRAM_NAME), in, pname, sizeof(pname),
	    "repo_lists_create")) != 0)
		return r;
	memset(in, 0, sizeof(in));
	len[0] = strlen(t->name);
	len[1] = t->description != NULL ? strlen(t->description) : 0;
	len[2] = t->workspace != NULL ? strlen(t->workspace) : 0;
	bind_str(&in[0], t->name, &len[0]);
	if (t->description != NULL)
		bind_str(&in[1], t->description, &len[1]);
	else
		bind_null(&in[1]);
	/* The program (the IF's test), the folder, the program again. */
	bind_null(&in[2]);
	bind_null(&in[3]);
	bind_null(&in[4]);
	if (program) {
		bind_i32(&in[2], &place);
		bind_i32(&in[4], &place);
	} else if (folder)
		bind_i32(&in[3], &place);
	if (t->workspace != NULL)
		bind_str(&in[5], t->workspace, &len[2]);
	else
		bind_null(&in[5]);
	if ((r = db_exec(db, st, in, "repo_lists_create")) == 0)
		x->id = (int32_t)mysql_stmt_insert_id(st);
	return r;
}

/* See repo_lists.h. */
int
repo_lists_create(struct db *db, const struct list_new *t, int32_t *id)
{
	struct list_insert x = { t, 0 };
	int r;

	r = db_run_tx(db, list_insert_tx, &x, false);
	*id = r == 0 ? x.id : 0;
	return r;
}

/* See repo_lists.h. */
int
repo_lists_create_in_tx(struct db *db, const struct list_new *t,
    int32_t *id)
{
	struct list_insert x = { t, 0 };
	int r;

	r = list_insert_tx(db, &x);
	*id = r == 0 ? x.id : 0;
	return r;
}

/* See repo_lists.h. */
int
repo_lists_in_program(struct db *db, struct arena *a, int32_t program,
    struct repo_named **out, size_t *n)
{
	MYSQL_BIND in[1];

	memset(in, 0, sizeof(in));
	bind_i32(&in[0], &program);
	return repo_named_select(db, stmt(db, LISTS_STMT_IN_PROGRAM), in, a,
	    100000, out, n, "repo_lists_in_program");
}

/* See repo_lists.h. */
int
repo_lists_insert(struct db *db, const char *name, int32_t *id)
{
	struct list_new t;

	memset(&t, 0, sizeof(t));
	t.name = name;
	return repo_lists_create(db, &t, id);
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

/*
 * The Add to List or Remove from List activity (type) of list id named
 * name, without its lead: attributes List ID and Source (an API write;
 * owned by a->attributes, free it).
 */
static void
list_activity(struct activity *a, int type, int32_t id, const char *name)
{
	struct json_object *o;

	o = json_object_new_object();
	json_object_object_add(o, "List ID", json_object_new_int64(id));
	json_object_object_add(o, "Source",
	    json_object_new_string("Web service API"));
	memset(a, 0, sizeof(*a));
	a->type = type;
	a->primary_id = id;
	a->primary_value = name;
	a->attributes = repo_activity_attrs(o);
}

/* Where lead stands towards the list (LISTS_STMT_MEMBER_STATE). */
static int
member_state(struct db *db, int32_t list, int64_t lead,
    enum list_state *out)
{
	MYSQL_BIND in[2], res[2];
	MYSQL_STMT *st = stmt(db, LISTS_STMT_MEMBER_STATE);
	int64_t id, member;
	my_bool nul[2];
	int r;

	memset(in, 0, sizeof(in));
	memset(res, 0, sizeof(res));
	bind_i32(&in[0], &list);
	bind_i64(&in[1], &lead);
	bind_out_i64(&res[0], &id, &nul[0]);
	bind_out_i64(&res[1], &member, &nul[1]);
	*out = LIST_NO_LEAD;
	if ((r = db_exec(db, st, in, "repo_lists_members_apply")) != 0 ||
	    (r = db_fetch_one(db, st, res, "repo_lists_members_apply")) != 0)
		return r == -REPO_ERR_NOT_FOUND ? 0 : r;
	*out = nul[1] ? LIST_WAS_NOT_MEMBER : LIST_WAS_MEMBER;
	return 0;
}

/*
 * Inside the transaction that share-locked list id (named name): does op
 * to each lead, out[i] (when out is not NULL) where it stood.
 */
static int
members_change(struct db *db, int32_t id, const char *name, enum list_op op,
    const int64_t *leads, size_t n, enum list_state *out)
{
	struct activity a;
	enum list_state st = LIST_NO_LEAD;
	MYSQL_BIND in[2];
	uint64_t changed;
	size_t i;
	int r = 0;

	memset(&a, 0, sizeof(a));
	if (op != LIST_OP_READ)
		list_activity(&a, op == LIST_OP_ADD ? ACT_ADD_TO_LIST :
		    ACT_REMOVE_FROM_LIST, id, name);
	for (i = 0; i < n && r == 0; i++) {
		if (op == LIST_OP_READ) {
			r = member_state(db, id, leads[i], &st);
		} else if ((r = repo_lead_lock(db, leads[i], NULL)) != 0) {
			st = LIST_NO_LEAD;
			if (r == -REPO_ERR_NOT_FOUND)
				r = 0;
		} else {
			memset(in, 0, sizeof(in));
			bind_i32(&in[0], &id);
			bind_i64(&in[1], &leads[i]);
			if ((r = db_exec_n(db, stmt(db, op == LIST_OP_ADD ?
			    LISTS_STMT_MEMBER_INSERT :
			    LISTS_STMT_MEMBER_DELETE), in, &changed,
			    "repo_lists_members_apply")) != 0)
				break;
			/* One changed row: an add joined, a remove left. */
			st = (changed == 1) == (op == LIST_OP_ADD) ?
			    LIST_WAS_NOT_MEMBER : LIST_WAS_MEMBER;
			a.lead_id = leads[i];
			if (changed == 1)
				r = repo_activity_insert(db, &a);
		}
		if (out != NULL)
			out[i] = st;
	}
	free((char *)(uintptr_t)a.attributes);
	return r;
}

static int
list_member_tx(struct db *db, void *arg)
{
	struct list_batch *b = arg;
	char name[512];
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
	return members_change(db, b->id, name, LIST_OP_ADD, b->leads, b->n,
	    NULL);
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

/* See repo_lists.h. */
int
repo_lists_browse(struct db *db, struct arena *a,
    const struct repo_filter *f, int64_t after, int limit,
    struct db_text_rows *out)
{
	MYSQL_BIND in[10];
	unsigned long len[4];
	int64_t lim = limit;
	int r;

	memset(out, 0, sizeof(*out));
	if (limit < 1)
		return -REPO_ERR_INVALID;
	memset(in, 0, sizeof(in));
	bind_i64(&in[0], &after);
	if ((r = repo_filter_bind(&in[1], a, f, len)) != 0)
		return r;
	if ((r = db_ensure(db)) != 0)
		return r;
	bind_i64(&in[9], &lim);
	return db_select_text(db, stmt(db, LISTS_STMT_BROWSE), in, a,
	    LIST_NCOLS, (size_t)limit, "repo_lists_browse", out);
}

struct list_apply {
	int32_t			 id;
	enum list_op		 op;
	const int64_t		*leads;
	size_t			 n;
	enum list_state		*out;
};

static int
list_apply_tx(struct db *db, void *arg)
{
	struct list_apply *b = arg;
	char name[512];
	int r;

	if ((r = list_lock_name(db, b->id, name, sizeof(name))) != 0)
		return r;
	return members_change(db, b->id, name, b->op, b->leads, b->n, b->out);
}

/* See repo_lists.h. */
int
repo_lists_members_apply(struct db *db, int32_t list_id, enum list_op op,
    const int64_t *leads, size_t n, enum list_state *out)
{
	struct list_apply b = { list_id, op, leads, n, out };

	return db_run_tx(db, list_apply_tx, &b, op == LIST_OP_READ);
}

/* ---- The asset operations ------------------------------------------ */

/* See repo_lists.h. */
int
repo_lists_asset_get(struct db *db, struct arena *a, int32_t id,
    const char *name, struct db_text_rows *out)
{
	MYSQL_BIND in[1];
	unsigned long len;
	int r;

	memset(out, 0, sizeof(*out));
	memset(in, 0, sizeof(in));
	if ((r = db_ensure(db)) != 0)
		return r;
	if (name != NULL) {
		len = strlen(name);
		bind_str(&in[0], name, &len);
	} else
		bind_i32(&in[0], &id);
	if ((r = db_select_text(db, stmt(db, name != NULL ?
	    LISTS_STMT_ASSET_GET_BY_NAME : LISTS_STMT_ASSET_GET), in, a,
	    LIST_ASSET_NCOLS, 1, "repo_lists_asset_get", out)) != 0)
		return r;
	return out->count == 1 ? 0 : -REPO_ERR_NOT_FOUND;
}

/* See repo_lists.h. */
int
repo_lists_asset_browse(struct db *db, struct arena *a,
    const struct list_asset_query *q, struct db_text_rows *out)
{
	MYSQL_BIND in[10];
	unsigned long elen, llen;
	int32_t place = (int32_t)q->place.id;
	int64_t lim = q->limit, off = q->offset;
	int r;

	memset(out, 0, sizeof(*out));
	memset(in, 0, sizeof(in));
	if ((r = db_ensure(db)) != 0)
		return r;
	bind_i32_twice(&in[0], q->has_place &&
	    q->place.type == FOLDER_T_FOLDER, &place);
	bind_i32_twice(&in[2], q->has_place &&
	    q->place.type == FOLDER_T_PROGRAM, &place);
	elen = q->earliest != NULL ? strlen(q->earliest) : 0;
	llen = q->latest != NULL ? strlen(q->latest) : 0;
	bind_str_twice(&in[4], q->earliest, &elen);
	bind_str_twice(&in[6], q->latest, &llen);
	bind_i64(&in[8], &lim);
	bind_i64(&in[9], &off);
	return db_select_text(db, stmt(db, LISTS_STMT_ASSET_BROWSE), in, a,
	    LIST_ASSET_NCOLS, (size_t)q->limit, "repo_lists_asset_browse",
	    out);
}

struct list_update {
	int32_t		 id;
	const char	*name;
	const char	*description;
};

static int
list_update_tx(struct db *db, void *arg)
{
	struct list_update *u = arg;
	MYSQL_BIND in[3];
	unsigned long nlen = 0, dlen = 0;
	char name[512];
	int r;

	/* The row lock, and -REPO_ERR_NOT_FOUND for no list. */
	if ((r = list_lock_name(db, u->id, name, sizeof(name))) != 0)
		return r;
	memset(in, 0, sizeof(in));
	nlen = u->name != NULL ? strlen(u->name) : 0;
	dlen = u->description != NULL ? strlen(u->description) : 0;
	bind_str_twice(&in[0], u->name, &nlen);
	bind_str_twice(&in[1], u->description, &dlen);
	bind_i32(&in[2], &u->id);
	return db_exec(db, stmt(db, LISTS_STMT_UPDATE), in,
	    "repo_lists_update");
}

/* See repo_lists.h. */
int
repo_lists_update(struct db *db, int32_t id, const char *name,
    const char *description)
{
	struct list_update u = { id, name, description };

	return db_run_tx(db, list_update_tx, &u, false);
}

static int
list_delete_tx(struct db *db, void *arg)
{
	int32_t id = *(int32_t *)arg;
	MYSQL_BIND in[5];
	unsigned long nlen, ilen;
	char name[256], ids[16];
	int64_t uses = 0;
	uint64_t n = 0;
	int r;

	memset(in, 0, sizeof(in));
	bind_i32(&in[0], &id);
	if ((r = db_query_str(db, stmt(db, LISTS_STMT_DELETE_LOCK), in, name,
	    sizeof(name), "repo_lists_delete")) != 0)
		return r;
	(void)snprintf(ids, sizeof(ids), "%ld", (long)id);
	nlen = strlen(name);
	ilen = strlen(ids);
	memset(in, 0, sizeof(in));
	bind_str(&in[0], name, &nlen);
	bind_str(&in[1], ids, &ilen);
	bind_str(&in[2], ids, &ilen);
	bind_str(&in[3], name, &nlen);
	bind_str(&in[4], ids, &ilen);
	if ((r = db_query_i64(db, stmt(db, LISTS_STMT_USES), in, &uses,
	    "repo_lists_delete")) != 0)
		return r;
	if (uses > 0)
		return -REPO_ERR_CONFLICT;
	memset(in, 0, sizeof(in));
	bind_i32(&in[0], &id);
	if ((r = db_exec_n(db, stmt(db, LISTS_STMT_DELETE), in, &n,
	    "repo_lists_delete")) != 0)
		return r;
	return n == 1 ? 0 : -REPO_ERR_NOT_FOUND;
}

/* See repo_lists.h. */
int
repo_lists_delete(struct db *db, int32_t id)
{
	return db_run_tx(db, list_delete_tx, &id, false);
}

/* See repo_lists.h. */
int
repo_lists_program_blocker(struct db *db, int32_t program, int32_t *id)
{
	return repo_program_first_id(db, stmt(db,
	    LISTS_STMT_PROGRAM_USED_OUTSIDE), program, 3, id,
	    "repo_lists_program_blocker");
}

/* See repo_lists.h. */
int
repo_lists_delete_in_program(struct db *db, int32_t program)
{
	return repo_program_exec(db, stmt(db, LISTS_STMT_DELETE_IN_PROGRAM),
	    program, "repo_lists_delete_in_program");
}

/* See repo_lists.h. */
int
repo_lists_count_in_folder(struct db *db, int32_t folder_id, int64_t *n)
{
	MYSQL_BIND in[1];

	memset(in, 0, sizeof(in));
	bind_i32(&in[0], &folder_id);
	return db_query_i64(db, stmt(db, LISTS_STMT_COUNT_FOLDER), in, n,
	    "repo_lists_count_in_folder");
}
