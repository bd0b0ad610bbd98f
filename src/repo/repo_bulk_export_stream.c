/*
 * The record stream of an export (repo_bulk_export_stream.h): a SELECT
 * built from the checked column names of a custom object type's record
 * table, run unbuffered on the runner's own connection.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <mysql.h>

#include "db/bind.h"
#include "db/pool.h"
#include "db/query.h"
#include "bounds.h"
#include "repo/repo.h"
#include "repo/repo_bulk_export_stream.h"
#include "util/buf.h"
#include "util/log.h"
#include "util/xmalloc.h"

/* Initial buffer of a column; longer values grow it (see grow). */
#define STREAM_COL_BYTES	256
#define STREAM_SQL_BYTES	(64 * 1024)

struct export_stream {
	struct db	*db;
	MYSQL_STMT	*st;
	size_t		 ncols;
	MYSQL_BIND	*res;
	char		**bufs;
	size_t		*caps;
	unsigned long	*lens;
	my_bool		*nulls;
	my_bool		*errs;
	const char	**vals;
};

/* Whether name may be put into SQL between backquotes. */
static bool
is_ident(const char *name)
{
	bool ok = name != NULL && *name != '\0' && strlen(name) <= 64;
	const char *p;

	for (p = name; ok && *p != '\0'; p++)
		ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '_';
	return ok;
}

/* The select expression of a column: its value as the API writes it. */
static void
add_column(struct buf *b, const struct export_column *c)
{
	switch (c->type) {
	case CO_DATETIME:
		buf_printf(b, "DATE_FORMAT(r.`%s`, '%%Y-%%m-%%dT%%H:%%i:%%sZ')",
		    c->name);
		break;
	case CO_DATE:
		buf_printf(b, "DATE_FORMAT(r.`%s`, '%%Y-%%m-%%d')", c->name);
		break;
	case CO_BOOLEAN:
		buf_printf(b, "IF(r.`%s` IS NULL, NULL, "
		    "IF(r.`%s` <> 0, 'true', 'false'))", c->name, c->name);
		break;
	case CO_INTEGER:
	case CO_FLOAT:
	case CO_CURRENCY:
	case CO_LINK:
		buf_printf(b, "CAST(r.`%s` AS CHAR)", c->name);
		break;
	default:
		buf_printf(b, "r.`%s`", c->name);
		break;
	}
}

/* The SQL of sel into b; -1 when a name is not an identifier. */
static int
build_select(struct buf *b, const struct export_select *sel)
{
	size_t i;
	int r = -1;

	if (!is_ident(sel->table) || sel->ncols == 0)
		goto out;
	buf_adds(b, "SELECT ");
	for (i = 0; i < sel->ncols; i++) {
		if (!is_ident(sel->cols[i].name))
			goto out;
		if (i > 0)
			buf_adds(b, ", ");
		add_column(b, &sel->cols[i]);
	}
	buf_printf(b, " FROM `%s` r ", sel->table);
	switch (sel->filter) {
	case EXPORT_FILTER_UPDATED_AT:
		/* The updatedAt index gives this order without a sort. */
		buf_adds(b, "WHERE r.`updatedAt` >= ? AND r.`updatedAt` <= ? "
		    "ORDER BY r.`updatedAt`, r.`id`");
		break;
	case EXPORT_FILTER_STATIC_LIST:
		/*
		 * Members are looked up by the primary key of list_member
		 * for each record in id order: no sort, and the rows stream
		 * as the scan finds them.
		 */
		if (!is_ident(sel->link_field))
			goto out;
		if (sel->link_by_email)
			buf_printf(b, "WHERE EXISTS (SELECT 1 FROM list_member "
			    "m JOIN lead l ON l.id = m.lead_id WHERE "
			    "m.list_id = ? AND l.email = r.`%s` COLLATE "
			    "utf8mb4_general_ci) "
			    "ORDER BY r.`id`", sel->link_field);
		else
			buf_printf(b, "WHERE EXISTS (SELECT 1 FROM list_member "
			    "m WHERE m.list_id = ? AND m.lead_id = r.`%s`) "
			    "ORDER BY r.`id`", sel->link_field);
		break;
	default:
		goto out;
	}
	r = buf_ok(b) ? 0 : -1;
out:
	return r;
}

static void
stream_free(struct export_stream *s)
{
	size_t i;

	if (s == NULL)
		return;
	if (s->st != NULL)
		mysql_stmt_close(s->st);
	for (i = 0; s->bufs != NULL && i < s->ncols; i++)
		free(s->bufs[i]);
	free(s->bufs);
	free(s->caps);
	free(s->lens);
	free(s->nulls);
	free(s->errs);
	free(s->res);
	free(s->vals);
	free(s);
}

/* See repo_bulk_export_stream.h. */
int
repo_bulk_export_stream_open(struct db *db, const struct export_select *sel,
    struct export_stream **out)
{
	struct export_stream *s = NULL;
	struct buf q;
	MYSQL_BIND in[2];
	unsigned long l_start = 0, l_end = 0;
	int32_t list_id = sel->list_id;
	size_t i;
	int r = -REPO_ERR_INTERNAL;

	*out = NULL;
	buf_init(&q, STREAM_SQL_BYTES);
	if (build_select(&q, sel) != 0) {
		log_err("repo_bulk_export_stream_open: bad selection");
		goto out;
	}
	if ((r = db_ensure(db)) != 0)
		goto out;
	s = xcalloc(1, sizeof(*s));
	s->db = db;
	s->ncols = sel->ncols;
	s->res = xcalloc(s->ncols, sizeof(*s->res));
	s->bufs = xcalloc(s->ncols, sizeof(*s->bufs));
	s->caps = xcalloc(s->ncols, sizeof(*s->caps));
	s->lens = xcalloc(s->ncols, sizeof(*s->lens));
	s->nulls = xcalloc(s->ncols, sizeof(*s->nulls));
	s->errs = xcalloc(s->ncols, sizeof(*s->errs));
	s->vals = xcalloc(s->ncols, sizeof(*s->vals));
	for (i = 0; i < s->ncols; i++) {
		s->caps[i] = STREAM_COL_BYTES;
		s->bufs[i] = xmalloc(s->caps[i]);
		bind_out_str(&s->res[i], s->bufs[i], s->caps[i], &s->lens[i],
		    &s->nulls[i]);
		s->res[i].error = &s->errs[i];
	}
	if ((s->st = mysql_stmt_init(db_conn(db))) == NULL ||
	    mysql_stmt_prepare(s->st, q.data, q.len) != 0) {
		r = db_error(db, s->st, "repo_bulk_export_stream_open");
		goto out;
	}
	if (sel->filter == EXPORT_FILTER_UPDATED_AT) {
		l_start = strlen(sel->start);
		l_end = strlen(sel->end);
		bind_str(&in[0], sel->start, &l_start);
		bind_str(&in[1], sel->end, &l_end);
	} else
		bind_i32(&in[0], &list_id);
	/* No mysql_stmt_store_result: rows are read as they are fetched. */
	if (mysql_stmt_bind_param(s->st, in) != 0 ||
	    mysql_stmt_execute(s->st) != 0 ||
	    mysql_stmt_bind_result(s->st, s->res) != 0) {
		r = db_error(db, s->st, "repo_bulk_export_stream_open");
		goto out;
	}
	*out = s;
	s = NULL;
	r = 0;
out:
	stream_free(s);
	buf_clear(&q);
	return r;
}

/* Fetches the rest of truncated column i into a buffer grown to fit. */
static int
grow(struct export_stream *s, size_t i)
{
	size_t need = (size_t)s->lens[i] + 1;
	int r = -REPO_ERR_INVALID;

	if (need > EXPORT_MAX_VALUE_BYTES + 1) {
		log_err("repo_bulk_export_stream: a value of %lu bytes is over "
		    "the limit", s->lens[i]);
		goto out;
	}
	s->bufs[i] = xrealloc(s->bufs[i], need);
	s->caps[i] = need;
	s->res[i].buffer = s->bufs[i];
	s->res[i].buffer_length = need;
	if (mysql_stmt_fetch_column(s->st, &s->res[i], (unsigned int)i,
	    0) == 0)
		r = 0;
	else
		r = db_error(s->db, s->st, "repo_bulk_export_stream_next");
out:
	return r;
}

/* See repo_bulk_export_stream.h. */
int
repo_bulk_export_stream_next(struct export_stream *s,
    const char *const **vals, const unsigned long **lens)
{
	size_t i;
	bool rebind = false;
	int e, r;

	e = mysql_stmt_fetch(s->st);
	if (e == MYSQL_NO_DATA) {
		r = 0;
		goto out;
	}
	if (e != 0 && e != MYSQL_DATA_TRUNCATED) {
		r = db_error(s->db, s->st, "repo_bulk_export_stream_next");
		goto out;
	}
	for (i = 0; i < s->ncols; i++) {
		if (e == MYSQL_DATA_TRUNCATED && s->errs[i] && !s->nulls[i]) {
			if ((r = grow(s, i)) != 0)
				goto out;
			rebind = true;
		}
		s->vals[i] = s->nulls[i] ? NULL : s->bufs[i];
	}
	/* Grown buffers serve the rows after this one too. */
	if (rebind && mysql_stmt_bind_result(s->st, s->res) != 0) {
		r = db_error(s->db, s->st, "repo_bulk_export_stream_next");
		goto out;
	}
	*vals = s->vals;
	*lens = s->lens;
	r = 1;
out:
	return r;
}

/* See repo_bulk_export_stream.h. */
void
repo_bulk_export_stream_close(struct export_stream *s)
{
	stream_free(s);
}
