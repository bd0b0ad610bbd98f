/*
 * Lead partitions (repo_partitions.h): the partition table, its lookup by
 * name, and moving leads between partitions with the activity that
 * records it.  Every write is one db_run_tx transaction.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <mysql.h>

#include "bounds.h"
#include "db/bind.h"
#include "db/pool.h"
#include "db/query.h"
#include "repo/repo.h"
#include "repo/repo_activity.h"
#include "repo/repo_lead_lock.h"
#include "repo/repo_partitions.h"
#include "util/xmalloc.h"

enum partitions_stmt {
	PARTITIONS_STMT_LIST,
	PARTITIONS_STMT_INSERT,
	PARTITIONS_STMT_GET_BY_NAME,
	PARTITIONS_STMT_GET_BY_ID,
	PARTITIONS_STMT_LEAD_UPDATE,
	PARTITIONS_STMT__MAX
};

static const char *const sql[PARTITIONS_STMT__MAX] = {
	[PARTITIONS_STMT_LIST] =
	    "SELECT id, name, description FROM lead_partition ORDER BY id",
	[PARTITIONS_STMT_INSERT] =
	    "INSERT INTO lead_partition (name, description) VALUES (?, ?)",
	[PARTITIONS_STMT_GET_BY_NAME] =
	    "SELECT id FROM lead_partition WHERE name = ?",
	[PARTITIONS_STMT_GET_BY_ID] =
	    "SELECT name FROM lead_partition WHERE id = ?",
	/* In parentheses: two literals make one statement (clang asks). */
	[PARTITIONS_STMT_LEAD_UPDATE] = (
	    "UPDATE lead SET leadPartitionId = ?, updatedAt = UTC_TIMESTAMP() "
	    "WHERE id = ?"),
};

const struct db_stmt_set repo_partitions_sql = {
	.name = "partitions",
	.sql = sql,
	.n = PARTITIONS_STMT__MAX,
};

/* Column buffers: a VARCHAR(255) utf8mb4 value is at most 1020 bytes. */
#define NAME_BUF	(MAX_OBJECT_NAME_BYTES * 4 + 1)
#define DESC_BUF	(2000 * 4 + 1)

static MYSQL_STMT *
stmt(struct db *db, enum partitions_stmt s)
{
	return db_stmt(db, REPO_PARTITIONS, (int)s);
}

/* See repo_partitions.h. */
int
repo_partitions_get_id_by_name(struct db *db, const char *name, int32_t *id)
{
	return db_query_id(db, stmt(db, PARTITIONS_STMT_GET_BY_NAME), name, id,
	    "repo_partitions_get_id_by_name");
}

/* See repo_partitions.h. */
int
repo_partitions_list(struct db *db, struct repo_partition_list *out)
{
	MYSQL_STMT *st;
	MYSQL_BIND res[3];
	struct repo_partition *p;
	char *name = NULL, *desc = NULL;
	unsigned long nlen, dlen;
	my_bool nul[3];
	int32_t id;
	size_t cap = 0;
	int e, r;

	memset(out, 0, sizeof(*out));
	if ((r = db_ensure(db)) != 0)
		return r;
	st = stmt(db, PARTITIONS_STMT_LIST);
	if ((r = db_exec(db, st, NULL, "repo_partitions_list")) != 0)
		return r;
	name = xmalloc(NAME_BUF);
	desc = xmalloc(DESC_BUF);
	bind_out_i32(&res[0], &id, &nul[0]);
	bind_out_str(&res[1], name, NAME_BUF, &nlen, &nul[1]);
	bind_out_str(&res[2], desc, DESC_BUF, &dlen, &nul[2]);
	if (mysql_stmt_bind_result(st, res) != 0) {
		r = db_error(db, st, "repo_partitions_list");
		goto out;
	}
	while ((e = mysql_stmt_fetch(st)) == 0) {
		if (out->count == cap) {
			cap = cap == 0 ? 8 : cap * 2;
			out->items = xrealloc(out->items,
			    cap * sizeof(*out->items));
		}
		p = &out->items[out->count++];
		p->id = id;
		p->name = xstrndup(name, nlen);
		p->description = nul[2] ? NULL : xstrndup(desc, dlen);
	}
	if (e != MYSQL_NO_DATA) {
		r = db_error(db, st, "repo_partitions_list");
		goto out;
	}
	r = 0;
out:
	mysql_stmt_free_result(st);
	free(name);
	free(desc);
	if (r != 0)
		repo_partitions_list_free(out);
	return r;
}

/* See repo_partitions.h. */
void
repo_partitions_list_free(struct repo_partition_list *l)
{
	size_t i;

	if (l == NULL)
		return;
	for (i = 0; i < l->count; i++) {
		free(l->items[i].name);
		free(l->items[i].description);
	}
	free(l->items);
	l->items = NULL;
	l->count = 0;
}

struct partition_insert {
	const char	*name;
	const char	*description;
	int32_t		 id;
};

static int
partition_insert_tx(struct db *db, void *arg)
{
	struct partition_insert *a = arg;
	MYSQL_BIND in[2];
	unsigned long nlen = strlen(a->name), dlen = 0;
	MYSQL_STMT *st = stmt(db, PARTITIONS_STMT_INSERT);
	int r;

	bind_str(&in[0], a->name, &nlen);
	if (a->description != NULL) {
		dlen = strlen(a->description);
		bind_str(&in[1], a->description, &dlen);
	} else
		bind_null(&in[1]);
	if ((r = db_exec(db, st, in, "repo_partitions_insert")) == 0)
		a->id = (int32_t)mysql_stmt_insert_id(st);
	return r;
}

/* See repo_partitions.h. */
int
repo_partitions_insert(struct db *db, const char *name,
    const char *description, int32_t *id)
{
	struct partition_insert a = { name, description, 0 };
	int r;

	r = db_run_tx(db, partition_insert_tx, &a, false);
	*id = r == 0 ? a.id : 0;
	return r;
}

struct partition_tx {
	struct repo_partition_move	*m;
	size_t				 n;
};

/* Records the partition change of one lead (activity 100). */
static int
partition_activity(struct db *db, int64_t lead, int64_t from, int64_t to,
    const char *to_name)
{
	struct activity a;
	struct json_object *o;
	MYSQL_BIND in[1];
	char *from_name;
	int r;

	from_name = xmalloc(NAME_BUF);
	bind_i64(&in[0], &from);
	r = db_query_str(db, stmt(db, PARTITIONS_STMT_GET_BY_ID), in,
	    from_name, NAME_BUF, "partition_activity");
	if (r != 0 && r != -REPO_ERR_NOT_FOUND)
		goto out;
	o = json_object_new_object();
	json_object_object_add(o, "Old Partition ID",
	    json_object_new_int64(from));
	json_object_object_add(o, "Old Partition",
	    json_object_new_string(from_name));
	json_object_object_add(o, "New Partition ID",
	    json_object_new_int64(to));
	json_object_object_add(o, "New Partition",
	    json_object_new_string(to_name));
	memset(&a, 0, sizeof(a));
	a.lead_id = lead;
	a.type = ACT_CHANGE_PARTITION;
	a.primary_id = to;
	a.primary_value = to_name;
	a.attributes = repo_activity_attrs(o);
	r = repo_activity_insert(db, &a);
	free((char *)(uintptr_t)a.attributes);
out:
	free(from_name);
	return r;
}

static int
partition_tx(struct db *db, void *arg)
{
	struct partition_tx *t = arg;
	struct repo_partition_move *m;
	MYSQL_BIND in[2];
	unsigned long len;
	int64_t pid, old;
	size_t i;
	int r;

	for (i = 0; i < t->n; i++) {
		m = &t->m[i];
		if (m->skip)
			continue;
		r = repo_lead_lock(db, m->lead_id, &old);
		if (r == -REPO_ERR_NOT_FOUND) {
			m->result = REPO_REC_NO_LEAD;
			continue;
		}
		if (r != 0)
			return r;
		len = strlen(m->partition);
		bind_str(&in[0], m->partition, &len);
		r = db_query_i64(db, stmt(db, PARTITIONS_STMT_GET_BY_NAME), in,
		    &pid, "repo_partitions_lead_update");
		if (r == -REPO_ERR_NOT_FOUND) {
			m->result = REPO_REC_NO_PARTITION;
			continue;
		}
		if (r != 0)
			return r;
		m->result = REPO_REC_UPDATED;
		if (pid == old)
			continue;
		bind_i64(&in[0], &pid);
		bind_i64(&in[1], &m->lead_id);
		if ((r = db_exec(db, stmt(db, PARTITIONS_STMT_LEAD_UPDATE), in,
		    "repo_partitions_lead_update")) != 0 ||
		    (r = partition_activity(db, m->lead_id, old, pid,
		    m->partition)) != 0)
			return r;
	}
	return 0;
}

/* See repo_partitions.h. */
int
repo_partitions_lead_update(struct db *db,
    struct repo_partition_move *moves, size_t n)
{
	struct partition_tx t = { moves, n };

	return db_run_tx(db, partition_tx, &t, false);
}
