/*
 * Smart list filters run in the database (repo_sl_filter.h,
 * docs/behaviour.md §25): the expression repo_sl_filter_sql.c compiles,
 * inside one of the statements below, prepared per use
 * (mysql_stmt_prepare) since the expression is made at run time; every
 * value it holds is bound.  The lead ids come in keyset pages (id >
 * the last one read, by the primary key), so a batch run over millions
 * of leads reads each page by an index range.  The custom object
 * catalogue the compiler needs for custom object filters is read here
 * too (repo_sl_filter_co_load).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <mysql.h>

#include "db/bind.h"
#include "db/pool.h"
#include "db/query.h"
#include "repo/repo.h"
#include "repo/repo_sl_filter.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/timeutil.h"
#include "util/xmalloc.h"

/*
 * The statements around a filter's expression: the text is made per use
 * (mysql_stmt_prepare each time), since the expression is.
 */
enum slf_stmt {
	SLF_STMT_LEADS,		/* after_id, the filter's values, limit */
	SLF_STMT_MATCH,		/* lead_id, the filter's values */
	SLF_STMT__MAX
};

static const struct {
	const char	*head;
	const char	*tail;
} stmts[SLF_STMT__MAX] = {
	[SLF_STMT_LEADS] = {
	    "SELECT l.id FROM lead l WHERE l.id > ? AND (",
	    ") ORDER BY l.id LIMIT ?" },
	[SLF_STMT_MATCH] = {
	    "SELECT COUNT(*) FROM lead l WHERE l.id = ? AND (",
	    ")" },
};

/* The statements prepared at connect (db/pool.h). */
enum slf_prepared {
	SLF_STMT_CO_FIELDS,
	SLF_STMT_PREPARED__MAX
};

static const char *const sql[SLF_STMT_PREPARED__MAX] = {
	/* The approved fields of the custom object types whose record
	 * tables exist, with their constraint ids, by type and order. */
	[SLF_STMT_CO_FIELDS] =
	    "SELECT f.type_id, COALESCE(r.id, 0), f.name, f.data_type, "
	    "f.related_object, f.related_field FROM co_field f JOIN co_type t "
	    "ON t.id = f.type_id AND t.table_ready = 1 LEFT JOIN co_field_ref "
	    "r ON r.type_id = f.type_id AND r.name = f.name WHERE "
	    "f.is_draft = 0 ORDER BY f.type_id, f.pos",
};

const struct db_stmt_set repo_sl_filter_sql = {
	.name = "sl_filter",
	.sql = sql,
	.n = SLF_STMT_PREPARED__MAX,
};

/* The most custom object fields read (every type's, all approved). */
#define CO_FIELDS_MAX	10000

#define MS_HOUR		INT64_C(3600000)
#define MS_DAY		(24 * MS_HOUR)

/* A statement of f's under use: its text, values and their storage. */
struct run {
	MYSQL_STMT	*st;
	MYSQL_BIND	*in;
	MYSQL_TIME	*times;
	unsigned long	*lens;
	int64_t		 first, limit;
};

static void
run_clear(struct run *x)
{
	if (x->st != NULL)
		mysql_stmt_close(x->st);
	free(x->in);
	free(x->times);
	free(x->lens);
	memset(x, 0, sizeof(*x));
}

static void
ms_to_time(int64_t ms, MYSQL_TIME *t)
{
	int64_t day = ms / MS_DAY, rest = ms % MS_DAY, y;
	int m, d;

	if (rest < 0) {
		rest += MS_DAY;
		day--;
	}
	time_civil_from_days(day, &y, &m, &d);
	memset(t, 0, sizeof(*t));
	t->year = (unsigned int)(y < 0 ? 0 : y);
	t->month = (unsigned int)m;
	t->day = (unsigned int)d;
	t->hour = (unsigned int)(rest / MS_HOUR);
	t->minute = (unsigned int)(rest / 60000 % 60);
	t->second = (unsigned int)(rest / 1000 % 60);
	t->second_part = (unsigned long)(rest % 1000) * 1000;
	t->time_type = MYSQL_TIMESTAMP_DATETIME;
}

/*
 * Prepares statement s around f's expression and executes it with first
 * (and limit for SLF_STMT_LEADS) bound.
 */
static int
run_open(struct db *db, const struct sl_filter *f, enum slf_stmt s,
    struct run *x, const char *where)
{
	const struct slf_bind *b;
	struct buf q;
	size_t i, nin = f->nbinds + (s == SLF_STMT_LEADS ? 2 : 1);
	int r = -REPO_ERR_INTERNAL;

	buf_init(&q, SLF_MAX_SQL_BYTES + 256);
	if (f->where == NULL || (r = db_ensure(db)) != 0)
		goto out;
	r = -REPO_ERR_INTERNAL;
	buf_adds(&q, stmts[s].head);
	buf_adds(&q, f->where);
	buf_adds(&q, stmts[s].tail);
	if (!buf_ok(&q))
		goto out;
	x->in = xcalloc(nin, sizeof(*x->in));
	x->times = xcalloc(f->nbinds + 1, sizeof(*x->times));
	x->lens = xcalloc(f->nbinds + 1, sizeof(*x->lens));
	bind_i64(&x->in[0], &x->first);
	for (i = 0; i < f->nbinds; i++) {
		b = &f->binds[i];
		switch (b->kind) {
		case SLF_STR:
			x->lens[i] = (unsigned long)strlen(b->s);
			bind_str(&x->in[i + 1], b->s, &x->lens[i]);
			break;
		case SLF_I64:
			bind_i64(&x->in[i + 1], &b->i);
			break;
		case SLF_DBL:
			x->in[i + 1].buffer_type = MYSQL_TYPE_DOUBLE;
			x->in[i + 1].buffer = (void *)(uintptr_t)&b->d;
			break;
		case SLF_TIME:
			ms_to_time(b->i, &x->times[i]);
			x->in[i + 1].buffer_type = MYSQL_TYPE_DATETIME;
			x->in[i + 1].buffer = &x->times[i];
			break;
		}
	}
	if (s == SLF_STMT_LEADS)
		bind_i64(&x->in[nin - 1], &x->limit);
	if ((x->st = mysql_stmt_init(db_conn(db))) == NULL ||
	    mysql_stmt_prepare(x->st, q.data, q.len) != 0 ||
	    mysql_stmt_bind_param(x->st, x->in) != 0 ||
	    mysql_stmt_execute(x->st) != 0) {
		r = db_error(db, x->st, where);
		goto out;
	}
	r = 0;
out:
	buf_clear(&q);
	return r;
}

/* See repo_sl_filter.h. */
int
repo_sl_filter_leads(struct db *db, const struct sl_filter *f,
    int64_t after_id, size_t max, int64_t *ids, size_t *n)
{
	struct run x;
	MYSQL_BIND res[1];
	my_bool isnull = 0;
	int64_t id = 0;
	int e, r;

	*n = 0;
	memset(&x, 0, sizeof(x));
	memset(res, 0, sizeof(res));
	x.first = after_id;
	x.limit = (int64_t)max;
	if (max == 0)
		return 0;
	if ((r = run_open(db, f, SLF_STMT_LEADS, &x,
	    "repo_sl_filter_leads")) != 0)
		goto out;
	bind_out_i64(&res[0], &id, &isnull);
	if (mysql_stmt_bind_result(x.st, res) != 0) {
		r = db_error(db, x.st, "repo_sl_filter_leads");
		goto out;
	}
	while ((e = mysql_stmt_fetch(x.st)) == 0 && *n < max)
		ids[(*n)++] = id;
	if (e == 1) {
		r = db_error(db, x.st, "repo_sl_filter_leads");
		goto out;
	}
	r = 0;
out:
	run_clear(&x);
	return r;
}

/* See repo_sl_filter.h. */
int
repo_sl_filter_match(struct db *db, const struct sl_filter *f,
    int64_t lead_id, bool *match)
{
	struct run x;
	MYSQL_BIND res[1];
	my_bool isnull = 0;
	int64_t count = 0;
	int r;

	*match = false;
	memset(&x, 0, sizeof(x));
	memset(res, 0, sizeof(res));
	x.first = lead_id;
	if ((r = run_open(db, f, SLF_STMT_MATCH, &x,
	    "repo_sl_filter_match")) != 0)
		goto out;
	bind_out_i64(&res[0], &count, &isnull);
	if (mysql_stmt_bind_result(x.st, res) != 0 ||
	    mysql_stmt_fetch(x.st) != 0) {
		r = db_error(db, x.st, "repo_sl_filter_match");
		goto out;
	}
	*match = count > 0;
	r = 0;
out:
	run_clear(&x);
	return r;
}

/* See repo_sl_filter.h. */
int
repo_sl_filter_co_load(struct db *db, struct arena *a, struct slf_co *out)
{
	struct slf_co_field *f;
	struct db_text_rows t;
	size_t i;
	int r;

	memset(out, 0, sizeof(*out));
	if ((r = db_select_text(db, db_stmt(db, REPO_SL_FILTER,
	    SLF_STMT_CO_FIELDS), NULL, a, 6, CO_FIELDS_MAX,
	    "repo_sl_filter_co_load", &t)) != 0)
		return r;
	if (t.count == 0)
		return 0;
	if ((f = arena_zalloc(a, t.count * sizeof(*f))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < t.count; i++) {
		f[i].type_id = (int32_t)db_text_i64(&t, i, 0);
		f[i].ref_id = (int32_t)db_text_i64(&t, i, 1);
		f[i].name = db_text_str(&t, i, 2);
		f[i].data_type = db_text_str(&t, i, 3);
		f[i].related_object = db_text_str(&t, i, 4);
		f[i].related_field = db_text_str(&t, i, 5);
		if (f[i].name == NULL || f[i].data_type == NULL)
			return -REPO_ERR_INTERNAL;
	}
	out->fields = f;
	out->n = t.count;
	return 0;
}
