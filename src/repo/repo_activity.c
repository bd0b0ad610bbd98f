/*
 * The activity log (repo_activity.h).
 */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <mysql.h>

#include "db/bind.h"
#include "db/pool.h"
#include "repo/repo.h"
#include "repo/repo_activity.h"
#include "util/xmalloc.h"

enum activity_stmt {
	ACTIVITY_STMT_INSERT,
	ACTIVITY_STMT_LIST_BY_LEAD,
	ACTIVITY_STMT_UPDATE_LEAD,
	ACTIVITY_STMT__MAX
};

static const char *const sql[ACTIVITY_STMT__MAX] = {
	[ACTIVITY_STMT_INSERT] =
	    "INSERT INTO activity (lead_id, activity_type_id, activity_date, "
	    "primary_value_id, primary_value, attributes) "
	    "VALUES (?, ?, UTC_TIMESTAMP(3), ?, ?, ?)",
	[ACTIVITY_STMT_LIST_BY_LEAD] =
	    "SELECT id, lead_id, activity_type_id, "
	    "COALESCE(primary_value_id, 0), COALESCE(primary_value, ''), "
	    "attributes FROM activity WHERE lead_id = ? AND id > ? "
	    "ORDER BY id LIMIT ?",
	[ACTIVITY_STMT_UPDATE_LEAD] =
	    "UPDATE activity SET lead_id = ? WHERE lead_id = ?",
};

const struct db_stmt_set repo_activity_sql = {
	.name = "activity",
	.sql = sql,
	.n = ACTIVITY_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum activity_stmt s)
{
	return db_stmt(db, REPO_ACTIVITY, (int)s);
}

/* See repo_activity.h. */
int
repo_activity_insert(struct db *db, const struct activity *a)
{
	MYSQL_BIND in[5];
	int64_t lead = a->lead_id, type = a->type, pid = a->primary_id;
	unsigned long plen = 0, alen;
	const char *attrs = a->attributes != NULL ? a->attributes : "{}";

	memset(in, 0, sizeof(in));
	bind_i64(&in[0], &lead);
	bind_i64(&in[1], &type);
	if (pid != 0)
		bind_i64(&in[2], &pid);
	else
		bind_null(&in[2]);
	if (a->primary_value != NULL) {
		plen = strlen(a->primary_value);
		bind_str(&in[3], a->primary_value, &plen);
	} else
		bind_null(&in[3]);
	alen = strlen(attrs);
	bind_str(&in[4], attrs, &alen);
	return db_exec(db, stmt(db, ACTIVITY_STMT_INSERT), in,
	    "repo_activity_insert");
}

/* See repo_activity.h. */
int
repo_activity_list_by_lead(struct db *db, int64_t lead_id, int64_t after_id,
    int max, struct activity_row **out, size_t *n)
{
	MYSQL_STMT *st;
	MYSQL_BIND in[3], res[6];
	struct activity_row row, *rows = NULL;
	int64_t limit = max, type;
	my_bool nul[6];
	unsigned long plen, alen;
	char *attrs;
	size_t count = 0;
	int e, r;

	*out = NULL;
	*n = 0;
	if ((r = db_ensure(db)) != 0)
		return r;
	st = stmt(db, ACTIVITY_STMT_LIST_BY_LEAD);
	bind_i64(&in[0], &lead_id);
	bind_i64(&in[1], &after_id);
	bind_i64(&in[2], &limit);
	if ((r = db_exec(db, st, in, "repo_activity_list_by_lead")) != 0)
		return r;
	attrs = xmalloc(65536);
	memset(&row, 0, sizeof(row));
	bind_out_i64(&res[0], &row.id, &nul[0]);
	bind_out_i64(&res[1], &row.lead_id, &nul[1]);
	bind_out_i64(&res[2], &type, &nul[2]);
	bind_out_i64(&res[3], &row.primary_id, &nul[3]);
	bind_out_str(&res[4], row.primary_value, sizeof(row.primary_value),
	    &plen, &nul[4]);
	bind_out_str(&res[5], attrs, 65536, &alen, &nul[5]);
	if (mysql_stmt_bind_result(st, res) != 0) {
		r = db_error(db, st, "repo_activity_list_by_lead");
		goto out;
	}
	rows = xcalloc((size_t)(max > 0 ? max : 1), sizeof(*rows));
	while ((e = mysql_stmt_fetch(st)) == 0 || e == MYSQL_DATA_TRUNCATED) {
		if (count == (size_t)max)
			break;
		row.type = (int)type;
		row.primary_value[plen < sizeof(row.primary_value) ? plen :
		    sizeof(row.primary_value) - 1] = '\0';
		rows[count] = row;
		rows[count].attributes = xstrndup(attrs, alen < 65536 ? alen :
		    65535);
		count++;
	}
	if (e != MYSQL_NO_DATA && e != 0 && e != MYSQL_DATA_TRUNCATED) {
		r = db_error(db, st, "repo_activity_list_by_lead");
		goto out;
	}
	*out = rows;
	*n = count;
	rows = NULL;
	r = 0;
out:
	mysql_stmt_free_result(st);
	repo_activity_list_free(rows, count);
	free(attrs);
	return r;
}

/* See repo_activity.h. */
void
repo_activity_list_free(struct activity_row *rows, size_t n)
{
	size_t i;

	if (rows == NULL)
		return;
	for (i = 0; i < n; i++)
		free(rows[i].attributes);
	free(rows);
}

/* See repo_activity.h. */
int
repo_activity_move(struct db *db, int64_t from_lead, int64_t to_lead)
{
	MYSQL_BIND in[2];

	bind_i64(&in[0], &to_lead);
	bind_i64(&in[1], &from_lead);
	return db_exec(db, stmt(db, ACTIVITY_STMT_UPDATE_LEAD), in,
	    "repo_activity_move");
}

/* See repo_activity.h. */
char *
repo_activity_attrs(struct json_object *o)
{
	char *s;

	s = xstrdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return s;
}
