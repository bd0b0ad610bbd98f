/*
 * The activity log (repo_activity.h).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <mysql.h>

#include "db/bind.h"
#include "db/params.h"
#include "db/pool.h"
#include "db/query.h"
#include "repo/repo.h"
#include "repo/repo_activity.h"
#include "util/buf.h"
#include "util/timeutil.h"
#include "util/xmalloc.h"

enum activity_stmt {
	ACTIVITY_STMT_INSERT,
	ACTIVITY_STMT_LIST_BY_LEAD,
	ACTIVITY_STMT_UPDATE_LEAD,
	ACTIVITY_STMT_TYPES,
	ACTIVITY_STMT_START,
	ACTIVITY_STMT_MAX_ID,
	ACTIVITY_STMT_PAGE_SCAN,
	ACTIVITY_STMT_PAGE_LEADS,
	ACTIVITY_STMT_PRUNE,
	ACTIVITY_STMT_CLASSES,
	ACTIVITY_STMT__MAX
};

/* Placeholders of the padded IN lists of a page (repo_activity.h). */
#define Q10	"?,?,?,?,?,?,?,?,?,?"
#define Q30	Q10 "," Q10 "," Q10

static_assert(ACTIVITY_FILTER_TYPES == 10 && ACTIVITY_FILTER_ASSETS == 10 &&
    ACTIVITY_FILTER_LEADS == 30, "the IN lists of the page statements");

/* The columns of a page row (ACTIVITY_COL_*). */
#define PAGE_COLUMNS \
	"SELECT a.id, a.lead_id, " \
	"DATE_FORMAT(a.activity_date, '%Y-%m-%d %H:%i:%s.%f'), " \
	"a.activity_type_id, a.campaign_id, a.primary_value_id, " \
	"a.primary_value, a.attributes FROM activity a WHERE "
/* The filters after the id range, both page statements alike. */
#define PAGE_FILTERS \
	"a.id > ? AND a.id <= ? " \
	"AND (? = 0 OR a.activity_type_id IN (" Q10 ")) " \
	"AND (? = 0 OR a.primary_value_id IN (" Q10 ")) " \
	"AND (? = 0 OR EXISTS (SELECT 1 FROM list_member m " \
	"WHERE m.list_id = ? AND m.lead_id = a.lead_id)) " \
	"ORDER BY a.id LIMIT ?"

/*
 * The insert of one activity; repo_activity_insert_batch repeats the row
 * (its text is built, one row per activity).
 */
#define INSERT_HEAD \
	"INSERT INTO activity (lead_id, activity_type_id, activity_date, " \
	"primary_value_id, primary_value, attributes, campaign_id) VALUES "
#define INSERT_ROW	"(?, ?, UTC_TIMESTAMP(3), ?, ?, ?, NULLIF(?, 0))"
#define INSERT_PARAMS	6
/* The longest batch text (MAX_STMT_PARAMS / 6 rows fit). */
#define BATCH_SQL_MAX_BYTES	(1024 * 1024)

static const char *const sql[ACTIVITY_STMT__MAX] = {
	[ACTIVITY_STMT_INSERT] = INSERT_HEAD INSERT_ROW,
	[ACTIVITY_STMT_LIST_BY_LEAD] =
	    "SELECT id, lead_id, activity_type_id, "
	    "COALESCE(primary_value_id, 0), COALESCE(primary_value, ''), "
	    "attributes FROM activity WHERE lead_id = ? AND id > ? "
	    "ORDER BY id LIMIT ?",
	[ACTIVITY_STMT_UPDATE_LEAD] =
	    "UPDATE activity SET lead_id = ? WHERE lead_id = ?",
	[ACTIVITY_STMT_TYPES] =
	    "SELECT t.id, t.name, t.description, t.primary_attribute, "
	    "t.primary_type, x.name, x.data_type FROM activity_type t "
	    "LEFT JOIN activity_type_attr x ON x.type_id = t.id "
	    "ORDER BY t.id, x.position",
	[ACTIVITY_STMT_START] =
	    "SELECT id FROM activity WHERE activity_date >= ? "
	    "ORDER BY activity_date, id LIMIT 1",
	[ACTIVITY_STMT_MAX_ID] =
	    "SELECT COALESCE(MAX(id), 0) FROM activity",
	[ACTIVITY_STMT_PAGE_SCAN] = PAGE_COLUMNS PAGE_FILTERS,
	[ACTIVITY_STMT_PAGE_LEADS] =
	    PAGE_COLUMNS "a.lead_id IN (" Q30 ") AND " PAGE_FILTERS,
	/*
	 * By the (type, date) index: the range of one type before a date,
	 * oldest first, and nothing of another type.
	 */
	[ACTIVITY_STMT_PRUNE] =
	    "DELETE FROM activity WHERE activity_type_id = ? AND "
	    "activity_date < ? ORDER BY activity_date LIMIT ?",
	[ACTIVITY_STMT_CLASSES] =
	    "SELECT id, retention_class FROM activity_type ORDER BY id",
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
	MYSQL_BIND in[6];
	int64_t lead = a->lead_id, type = a->type, pid = a->primary_id;
	int64_t campaign = a->campaign_id;
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
	bind_i64(&in[5], &campaign);
	return db_exec(db, stmt(db, ACTIVITY_STMT_INSERT), in,
	    "repo_activity_insert");
}

/* See repo_activity.h. */
int
repo_activity_insert_batch(struct db *db, const struct activity *acts,
    size_t n)
{
	const char *const where = "repo_activity_insert_batch";
	struct buf b;
	struct params p;
	size_t i, start, end;
	int r = 0;

	buf_init(&b, BATCH_SQL_MAX_BYTES);
	memset(&p, 0, sizeof(p));
	for (start = 0; start < n; start = end) {
		end = start + params_rows_per_stmt(INSERT_PARAMS);
		if (end > n)
			end = n;
		buf_reset(&b);
		params_clear(&p);
		params_init(&p, INSERT_PARAMS * (end - start));
		buf_adds(&b, INSERT_HEAD);
		for (i = start; i < end; i++) {
			if (i > start)
				buf_addc(&b, ',');
			buf_adds(&b, INSERT_ROW);
			params_i64(&p, acts[i].lead_id);
			params_i64(&p, acts[i].type);
			if (acts[i].primary_id != 0)
				params_i64(&p, acts[i].primary_id);
			else
				params_null(&p);
			params_str(&p, acts[i].primary_value);
			params_str(&p, acts[i].attributes != NULL ?
			    acts[i].attributes : "{}");
			params_i64(&p, acts[i].campaign_id);
		}
		if ((r = params_exec(db, params_stmt(db, &b, where), &p,
		    where)) != 0)
			break;
	}
	params_clear(&p);
	buf_clear(&b);
	return r;
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

/* See repo_activity.h. */
int
repo_activity_types(struct db *db, struct arena *a, struct db_text_rows *out)
{
	memset(out, 0, sizeof(*out));
	return db_select_text(db, stmt(db, ACTIVITY_STMT_TYPES), NULL, a,
	    ACTIVITY_TYPE_NCOLS, 100000, "repo_activity_types", out);
}

/* A UTC time in milliseconds as DATETIME(3) text. */
static void
db_time_ms(int64_t ms, char out[32])
{
	int64_t days = ms / 86400000, sod = ms % 86400000, y;
	int m, d;

	time_civil_from_days(days, &y, &m, &d);
	snprintf(out, 32, "%04lld-%02d-%02d %02d:%02d:%02d.%03d",
	    (long long)y, m, d, (int)(sod / 3600000),
	    (int)(sod / 60000 % 60), (int)(sod / 1000 % 60),
	    (int)(sod % 1000));
}

/* See repo_activity.h. */
int
repo_activity_start(struct db *db, int64_t since_ms, int64_t *first)
{
	MYSQL_BIND in[1];
	char when[32];
	unsigned long len;
	int r;

	*first = 0;
	db_time_ms(since_ms < 0 ? 0 : since_ms, when);
	len = strlen(when);
	memset(in, 0, sizeof(in));
	bind_str(&in[0], when, &len);
	r = db_query_i64(db, stmt(db, ACTIVITY_STMT_START), in, first,
	    "repo_activity_start");
	if (r == -REPO_ERR_NOT_FOUND) {
		*first = 0;
		r = 0;
	}
	return r;
}

/* See repo_activity.h. */
int
repo_activity_max_id(struct db *db, int64_t *max)
{
	*max = 0;
	return db_query_i64(db, stmt(db, ACTIVITY_STMT_MAX_ID), NULL, max,
	    "repo_activity_max_id");
}

/*
 * Binds a padded IN list: the n values (at most cap), NULL for the
 * rest, after a flag that says whether the list filters at all.
 */
static void
bind_in(MYSQL_BIND *b, const int64_t *flag, const int64_t *v, size_t n,
    size_t cap)
{
	size_t i;

	bind_i64(&b[0], flag);
	for (i = 0; i < cap; i++)
		if (i < n)
			bind_i64(&b[1 + i], &v[i]);
		else
			bind_null(&b[1 + i]);
}

/* See repo_activity.h. */
int
repo_activity_page(struct db *db, struct arena *a,
    const struct activity_filter *f, int64_t after, int64_t upto, int limit,
    struct db_text_rows *out)
{
	MYSQL_BIND in[ACTIVITY_FILTER_LEADS + 2 + 2 * (ACTIVITY_FILTER_TYPES +
	    1) + 3];
	static const int64_t yes = 1, no = 0;
	int64_t lim = limit, list = f->list_id;
	size_t k = 0;
	enum activity_stmt s;

	memset(out, 0, sizeof(*out));
	if (f->ntypes > ACTIVITY_FILTER_TYPES ||
	    f->nassets > ACTIVITY_FILTER_ASSETS ||
	    f->nleads > ACTIVITY_FILTER_LEADS || limit < 1)
		return -REPO_ERR_INVALID;
	memset(in, 0, sizeof(in));
	s = f->nleads > 0 ? ACTIVITY_STMT_PAGE_LEADS : ACTIVITY_STMT_PAGE_SCAN;
	if (f->nleads > 0) {
		for (; k < ACTIVITY_FILTER_LEADS; k++)
			if (k < f->nleads)
				bind_i64(&in[k], &f->leads[k]);
			else
				bind_null(&in[k]);
	}
	bind_i64(&in[k++], &after);
	bind_i64(&in[k++], &upto);
	bind_in(&in[k], f->ntypes > 0 ? &yes : &no, f->types, f->ntypes,
	    ACTIVITY_FILTER_TYPES);
	k += 1 + ACTIVITY_FILTER_TYPES;
	bind_in(&in[k], f->nassets > 0 ? &yes : &no, f->assets, f->nassets,
	    ACTIVITY_FILTER_ASSETS);
	k += 1 + ACTIVITY_FILTER_ASSETS;
	bind_i64(&in[k++], list != 0 ? &yes : &no);
	bind_i64(&in[k++], &list);
	bind_i64(&in[k++], &lim);
	assert(k <= sizeof(in) / sizeof(in[0]));
	return db_select_text(db, stmt(db, s), in, a, ACTIVITY_NCOLS,
	    (size_t)limit, "repo_activity_page", out);
}

/* See repo_activity.h. */
int
repo_activity_prune(struct db *db, int32_t type, int64_t before_ms, int max,
    uint64_t *deleted)
{
	MYSQL_BIND in[3];
	char when[32];
	unsigned long wlen;
	int64_t lim = max;

	*deleted = 0;
	db_time_ms(before_ms < 0 ? 0 : before_ms, when);
	wlen = strlen(when);
	memset(in, 0, sizeof(in));
	bind_i32(&in[0], &type);
	bind_str(&in[1], when, &wlen);
	bind_i64(&in[2], &lim);
	return db_exec_n(db, stmt(db, ACTIVITY_STMT_PRUNE), in, deleted,
	    "repo_activity_prune");
}

struct classes_fetch {
	struct activity_class	*out;
	size_t			 max, n;
};

static int
class_cb(void *arg, char **v, const unsigned long *lens)
{
	struct classes_fetch *f = arg;
	struct activity_class *c;

	(void)lens;
	if (f->n == f->max)
		return 0;
	c = &f->out[f->n++];
	c->type = (int32_t)db_col_i64(v[0]);
	snprintf(c->cls, sizeof(c->cls), "%s", v[1] != NULL ? v[1] : "");
	return 0;
}

/* See repo_activity.h. */
int
repo_activity_classes(struct db *db, struct activity_class *out, size_t max,
    size_t *n)
{
	struct classes_fetch f = { out, max, 0 };
	MYSQL_STMT *st;
	int r;

	*n = 0;
	if ((r = db_ensure(db)) != 0)
		return r;
	st = stmt(db, ACTIVITY_STMT_CLASSES);
	if ((r = db_exec(db, st, NULL, "repo_activity_classes")) != 0 ||
	    (r = db_fetch_rows(db, st, 2, class_cb, &f,
	    "repo_activity_classes")) != 0)
		return r;
	*n = f.n;
	return 0;
}
