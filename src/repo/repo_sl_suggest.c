/*
 * Auto-suggest for smart list rules (repo_sl_suggest.h): asset names by
 * prefix, and the values of a free-text constraint from the lead column
 * or record table column the catalogue names, in a statement built from
 * it.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <mysql.h>

#include "db/bind.h"
#include "db/pool.h"
#include "db/query.h"
#include "repo/repo.h"
#include "repo/repo_sl_catalogue.h"
#include "repo/repo_sl_suggest.h"
#include "util/arena.h"
#include "util/buf.h"

enum sl_stmt {
	SL_STMT_SUGGEST_FORM,
	SL_STMT_SUGGEST_LIST,
	SL_STMT_SUGGEST_PROGRAM,
	SL_STMT_SUGGEST_FIELD,
	SL_STMT_SUGGEST_EMAIL,
	SL_STMT_SUGGEST_CAMPAIGN,
	SL_STMT_CO_TABLE,
	SL_STMT__MAX
};

/* A LIKE pattern for names starting with the parameter, as written. */
#define SL_PREFIX \
	"CONCAT(REPLACE(REPLACE(REPLACE(?, '!', '!!'), '%', '!%'), '_', " \
	"'!_'), '%') ESCAPE '!'"


static const char *const sql[SL_STMT__MAX] = {
	/* Parameters: prefix twice, limit; the prefix is matched literally
	 * (SL_PREFIX escapes LIKE's wildcards). */
	[SL_STMT_SUGGEST_FORM] =
	    "SELECT id, name, workspace FROM form WHERE (? IS NULL OR "
	    "name LIKE " SL_PREFIX ") ORDER BY name, id LIMIT ?",
	[SL_STMT_SUGGEST_LIST] =
	    "SELECT id, name, workspace FROM static_list WHERE (? IS NULL OR "
	    "name LIKE " SL_PREFIX ") ORDER BY name, id LIMIT ?",
	[SL_STMT_SUGGEST_PROGRAM] =
	    "SELECT id, name, workspace FROM program WHERE (? IS NULL OR "
	    "name LIKE " SL_PREFIX ") ORDER BY name, id LIMIT ?",
	[SL_STMT_SUGGEST_FIELD] =
	    "SELECT attr_id, display_name, 'Default' FROM lead_field WHERE "
	    "(? IS NULL OR display_name LIKE " SL_PREFIX ") "
	    "ORDER BY display_name LIMIT ?",
	[SL_STMT_SUGGEST_EMAIL] =
	    "SELECT e.id, e.name, w.name FROM email e JOIN workspace w ON "
	    "w.id = e.workspace_id WHERE (? IS NULL OR e.name LIKE "
	    SL_PREFIX ") ORDER BY e.name, e.id LIMIT ?",
	[SL_STMT_SUGGEST_CAMPAIGN] =
	    "SELECT c.id, c.name, w.name FROM smart_campaign c JOIN workspace "
	    "w ON w.id = c.workspace_id WHERE (? IS NULL OR c.name LIKE "
	    SL_PREFIX ") ORDER BY c.name, c.id LIMIT ?",
	/* Whether type ?'s record table exists (Auto Suggest reads it). */
	[SL_STMT_CO_TABLE] =
	    "SELECT id FROM co_type WHERE id = ? AND table_ready = 1",
};

const struct db_stmt_set repo_sl_suggest_sql = {
	.name = "sl_suggest",
	.sql = sql,
	.n = SL_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum sl_stmt s)
{
	return db_stmt(db, REPO_SL_SUGGEST, (int)s);
}

/* See repo_sl_suggest.h. */
int
repo_sl_suggest(struct db *db, struct arena *a, const char *data_type,
    const char *prefix, int limit, struct repo_sl_suggestion **out,
    size_t *n)
{
	struct db_text_rows t;
	struct repo_sl_suggestion *items;
	MYSQL_BIND in[3];
	unsigned long pl = 0;
	int32_t lim = limit;
	enum sl_stmt s;
	size_t i;
	int r;

	*out = NULL;
	*n = 0;
	if (strcmp(data_type, "form") == 0)
		s = SL_STMT_SUGGEST_FORM;
	else if (strcmp(data_type, "list") == 0)
		s = SL_STMT_SUGGEST_LIST;
	else if (strcmp(data_type, "program") == 0)
		s = SL_STMT_SUGGEST_PROGRAM;
	else if (strcmp(data_type, "field") == 0)
		s = SL_STMT_SUGGEST_FIELD;
	else if (strcmp(data_type, "email") == 0)
		s = SL_STMT_SUGGEST_EMAIL;
	else if (strcmp(data_type, "campaign") == 0)
		s = SL_STMT_SUGGEST_CAMPAIGN;
	else
		return 0;
	bind_str_twice(&in[0], prefix, &pl);
	bind_i32(&in[2], &lim);
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_select_text(db, stmt(db, s), in, a, 3,
	    (size_t)limit, "repo_sl_suggest", &t)) != 0)
		return r;
	if (t.count == 0)
		return 0;
	if ((items = arena_zalloc(a, t.count * sizeof(*items))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < t.count; i++) {
		items[i].id = (int32_t)db_text_i64(&t, i, 0);
		items[i].name = db_text_str(&t, i, 1);
		items[i].workspace = db_text_str(&t, i, 2) != NULL ?
		    db_text_str(&t, i, 2) : "Default";
		items[i].workspace_id = 1;
	}
	*out = items;
	*n = t.count;
	return 0;
}

/* The data types whose values Auto Suggest answers (free text). */
static const char *const text_types[] = {
	"string", "text", "email", "phone", "url", "link", NULL
};

/* Whether a column name from the catalogue can be quoted as it is. */
static bool
ident_ok(const char *name)
{
	size_t i;

	if (name == NULL || name[0] == '\0' || strlen(name) > 64)
		return false;
	for (i = 0; name[i] != '\0'; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') ||
		    (name[i] >= 'A' && name[i] <= 'Z') ||
		    (name[i] >= '0' && name[i] <= '9') || name[i] == '_'))
			return false;
	return true;
}

/*
 * The table and column holding the values of constraint k of rule type
 * rt into table (tsize bytes) and *column; 0 when it has none (an
 * activity's constraint, a data type that is not free text, a record
 * table not made yet), 1 when found, or a negative repo_err.
 */
static int
values_column(struct db *db, struct arena *a,
    const struct repo_sl_rule_type *rt, const struct repo_sl_constraint *k,
    char *table, size_t tsize, const char **column)
{
	struct db_text_rows t;
	MYSQL_BIND in[1];
	int32_t co_id = rt->co_type_id;
	size_t i;
	int r;

	for (i = 0; text_types[i] != NULL; i++)
		if (k->data_type != NULL &&
		    strcmp(k->data_type, text_types[i]) == 0)
			break;
	if (text_types[i] == NULL || !ident_ok(k->field))
		return 0;
	*column = k->field;
	if (!rt->activity) {
		snprintf(table, tsize, "lead");
		return 1;
	}
	if (co_id == 0)
		return 0;
	bind_i32(&in[0], &co_id);
	if ((r = db_select_text(db, stmt(db, SL_STMT_CO_TABLE), in, a, 1, 1,
	    "repo_sl_suggest_values", &t)) != 0)
		return r;
	if (t.count == 0)
		return 0;
	snprintf(table, tsize, "co_rec_%ld", (long)co_id);
	return 1;
}

/* See repo_sl_suggest.h. */
int
repo_sl_suggest_values(struct db *db, struct arena *a,
    const struct repo_sl_rule_type *rt, const struct repo_sl_constraint *k,
    const char *prefix, int limit, struct repo_sl_suggestion **out,
    size_t *n)
{
	struct db_text_rows t;
	struct repo_sl_suggestion *items;
	struct buf q;
	MYSQL_BIND in[3];
	MYSQL_STMT *st;
	unsigned long pl = 0;
	int32_t lim = limit;
	char table[32];
	const char *column = NULL;
	size_t i;
	int r;

	*out = NULL;
	*n = 0;
	if ((r = db_ensure(db)) != 0 ||
	    (r = values_column(db, a, rt, k, table, sizeof(table),
	    &column)) <= 0)
		return r;
	/*
	 * The newest REPO_SL_SUGGEST_SCAN rows by primary key, whatever
	 * indexes the column has: the cost is bounded on any table.  The
	 * column's collation compares, LIKE included.
	 */
	buf_init(&q, 1024);
	buf_printf(&q, "SELECT DISTINCT v FROM (SELECT `%s` AS v FROM `%s` "
	    "ORDER BY `id` DESC LIMIT %d) w WHERE v <> '' AND ", column,
	    table, REPO_SL_SUGGEST_SCAN);
	buf_adds(&q, "(? IS NULL OR v LIKE " SL_PREFIX ") ORDER BY v LIMIT ?");
	if (!buf_ok(&q)) {
		buf_clear(&q);
		return -REPO_ERR_INTERNAL;
	}
	bind_str_twice(&in[0], prefix, &pl);
	bind_i32(&in[2], &lim);
	st = db_stmt_sql(db, q.data, "repo_sl_suggest_values");
	buf_clear(&q);
	if (st == NULL)
		return db_stmt_sql_err(db);
	if ((r = db_select_text(db, st, in, a, 1, (size_t)limit,
	    "repo_sl_suggest_values", &t)) != 0)
		return r;
	if (t.count == 0)
		return 0;
	if ((items = arena_zalloc(a, t.count * sizeof(*items))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < t.count; i++) {
		items[i].id = (int32_t)(i + 1);
		items[i].name = db_text_str(&t, i, 0);
		items[i].workspace = "Default";
		items[i].workspace_id = 1;
	}
	*out = items;
	*n = t.count;
	return 0;
}
