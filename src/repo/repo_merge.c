/*
 * Merge Leads (repo_merge.h): one transaction that fills the winner's
 * empty fields from the losers, hands their memberships, cookies and
 * activities to the winner (repo_lists, repo_programs, repo_cookies,
 * repo_activity, each for its own tables), records the merge and
 * deletes the losers.  Leads are locked first, winner then losers.
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
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_activity.h"
#include "repo/repo_cookies.h"
#include "repo/repo_lead_lock.h"
#include "repo/repo_lists.h"
#include "repo/repo_merge.h"
#include "repo/repo_programs.h"
#include "util/buf.h"
#include "util/log.h"
#include "util/xmalloc.h"

enum merge_stmt {
	MERGE_STMT_LEAD_DELETE,
	MERGE_STMT_ACTIVITY,
	MERGE_STMT__MAX
};

static const char *const sql[MERGE_STMT__MAX] = {
	[MERGE_STMT_LEAD_DELETE] =
	    "DELETE FROM lead WHERE id = ?",
	/* Merge Leads (32): the winner, by id and name (as Delete Lead). */
	[MERGE_STMT_ACTIVITY] =
	    "INSERT INTO activity (lead_id, activity_type_id, activity_date, "
	    "primary_value_id, primary_value, attributes) SELECT `id`, 32, "
	    "UTC_TIMESTAMP(3), `id`, LEFT(TRIM(CONCAT_WS(' ', `firstName`, "
	    "`lastName`)), 255), ? FROM lead WHERE `id` = ?",
};

const struct db_stmt_set repo_merge_sql = {
	.name = "merge",
	.sql = sql,
	.n = MERGE_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum merge_stmt s)
{
	return db_stmt(db, REPO_MERGE, (int)s);
}

/* Columns a merge never copies: system-managed or generated (0004). */
static const char *const merge_skip[] = {
	"id", "createdAt", "updatedAt", "mktoName", "leadPerson", NULL
};

static bool
is_text_type(enum lf_type t)
{
	return t == LF_STRING || t == LF_TEXT || t == LF_EMAIL ||
	    t == LF_PHONE || t == LF_URL;
}

/* Whether a catalogue name can be back-quoted as a column name. */
static bool
is_column_name(const char *s)
{
	size_t n = strlen(s), i;

	if (n == 0 || n > LF_NAME_BYTES)
		return false;
	for (i = 0; i < n; i++)
		if (s[i] == '`' || (unsigned char)s[i] < 0x20)
			return false;
	return true;
}

/*
 * The UPDATE that fills the winner's empty columns from one loser:
 * parameters (loser id, winner id).  A text column counts as empty when
 * NULL or '', any other only when NULL (comparing a number or date with
 * '' is an error in strict mode).  Returns the owned SQL or NULL when a
 * field name cannot be a column.
 */
static char *
merge_sql(const struct lead_field *fields, size_t nfields)
{
	struct buf b;
	const char *c;
	char *s = NULL;
	size_t i, k;
	bool skip;

	buf_init(&b, 4 * 1024 * 1024);
	buf_adds(&b, "UPDATE lead w JOIN lead l ON l.id = ? SET ");
	for (i = 0; i < nfields; i++) {
		c = fields[i].name;
		for (k = 0, skip = false; merge_skip[k] != NULL; k++)
			if (strcmp(c, merge_skip[k]) == 0)
				skip = true;
		if (skip)
			continue;
		if (!is_column_name(c))
			goto out;
		if (is_text_type(fields[i].type))
			buf_printf(&b, "w.`%s` = IF((w.`%s` IS NULL OR "
			    "w.`%s` = '') AND l.`%s` <> '', l.`%s`, w.`%s`), ",
			    c, c, c, c, c, c);
		else
			buf_printf(&b, "w.`%s` = COALESCE(w.`%s`, l.`%s`), ",
			    c, c, c);
	}
	buf_adds(&b, "w.updatedAt = UTC_TIMESTAMP() WHERE w.id = ?");
	if (buf_ok(&b))
		s = xstrdup(b.data);
out:
	buf_clear(&b);
	return s;
}

struct merge_tx {
	int64_t			 winner;
	const int64_t		*losers;
	size_t			 nlosers;
	const char		*update_sql;
	int64_t			*missing;
};

/* Moves the memberships, cookies and activities of one loser. */
static int
merge_move(struct db *db, int64_t winner, int64_t loser)
{
	int r;

	if ((r = repo_lists_members_move(db, winner, loser)) != 0 ||
	    (r = repo_programs_members_move(db, winner, loser)) != 0 ||
	    (r = repo_cookies_move(db, winner, loser)) != 0)
		return r;
	return repo_activity_move(db, loser, winner);
}

static int
merge_tx(struct db *db, void *arg)
{
	struct merge_tx *m = arg;
	struct json_object *o, *ids;
	char *attrs;
	unsigned long alen;
	MYSQL_STMT *up;
	MYSQL_BIND in[2];
	int64_t loser;
	size_t i;
	int r;

	*m->missing = 0;
	if ((r = repo_lead_lock(db, m->winner, NULL)) != 0) {
		if (r == -REPO_ERR_NOT_FOUND)
			*m->missing = m->winner;
		return r;
	}
	for (i = 0; i < m->nlosers; i++) {
		if ((r = repo_lead_lock(db, m->losers[i], NULL)) != 0) {
			if (r == -REPO_ERR_NOT_FOUND)
				*m->missing = m->losers[i];
			return r;
		}
	}
	if ((up = db_stmt_sql(db, m->update_sql, "repo_merge")) ==
	    NULL)
		return db_stmt_sql_err(db);
	for (i = 0; i < m->nlosers; i++) {
		loser = m->losers[i];
		bind_i64(&in[0], &loser);
		bind_i64(&in[1], &m->winner);
		if ((r = db_exec(db, up, in, "repo_merge")) != 0 ||
		    (r = merge_move(db, m->winner, loser)) != 0)
			return r;
	}
	ids = json_object_new_array();
	for (i = 0; i < m->nlosers; i++)
		json_object_array_add(ids, json_object_new_int64(m->losers[i]));
	o = json_object_new_object();
	json_object_object_add(o, "Merge IDs", ids);
	json_object_object_add(o, "Merge Source",
	    json_object_new_string("Web service API"));
	json_object_object_add(o, "Merged in Sales",
	    json_object_new_boolean(0));
	attrs = repo_activity_attrs(o);
	alen = strlen(attrs);
	bind_str(&in[0], attrs, &alen);
	bind_i64(&in[1], &m->winner);
	r = db_exec(db, stmt(db, MERGE_STMT_ACTIVITY), in, "repo_merge");
	free(attrs);
	if (r != 0)
		return r;
	for (i = 0; i < m->nlosers; i++) {
		loser = m->losers[i];
		bind_i64(&in[0], &loser);
		if ((r = db_exec(db, stmt(db, MERGE_STMT_LEAD_DELETE), in,
		    "repo_merge")) != 0)
			return r;
	}
	return 0;
}

/* See repo_merge.h. */
int
repo_merge(struct db *db, int64_t winner, const int64_t *losers,
    size_t nlosers, const struct lead_field *fields, size_t nfields,
    int64_t *missing)
{
	struct merge_tx m;
	char *q;
	size_t i;
	int r;

	*missing = 0;
	if (nlosers == 0 || nlosers > MAX_MERGE_LOSERS)
		return -REPO_ERR_INVALID;
	/* A winner among the losers would lose its own memberships. */
	for (i = 0; i < nlosers; i++)
		if (losers[i] == winner)
			return -REPO_ERR_INVALID;
	if ((q = merge_sql(fields, nfields)) == NULL) {
		log_err("repo_merge: a field name is not a column");
		return -REPO_ERR_INVALID;
	}
	memset(&m, 0, sizeof(m));
	m.winner = winner;
	m.losers = losers;
	m.nlosers = nlosers;
	m.update_sql = q;
	m.missing = missing;
	r = db_run_tx(db, merge_tx, &m, false);
	free(q);
	return r;
}
