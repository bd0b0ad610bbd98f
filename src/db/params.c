/*
 * Statements built at run time: their parameters and running them
 * (params.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <mysql.h>

#include "bounds.h"
#include "err.h"
#include "db/bind.h"
#include "db/params.h"
#include "db/pool.h"
#include "db/query.h"
#include "util/buf.h"
#include "util/log.h"
#include "util/xmalloc.h"

/* Sizes IN lists are padded to. */
static const size_t pad_sizes[] = { 1, 10, 50, 100, MAX_BATCH_RECORDS };

void
params_init(struct params *p, size_t cap)
{
	p->b = xcalloc(cap == 0 ? 1 : cap, sizeof(*p->b));
	p->len = xcalloc(cap == 0 ? 1 : cap, sizeof(*p->len));
	p->i = xcalloc(cap == 0 ? 1 : cap, sizeof(*p->i));
	p->n = 0;
	p->cap = cap;
}

void
params_clear(struct params *p)
{
	free(p->b);
	free(p->len);
	free(p->i);
	memset(p, 0, sizeof(*p));
}

MYSQL_BIND *
params_next(struct params *p, size_t *k)
{
	*k = p->n < p->cap ? p->n++ : p->cap - 1;
	return &p->b[*k];
}

void
params_i64(struct params *p, int64_t v)
{
	size_t k;
	MYSQL_BIND *b = params_next(p, &k);

	p->i[k] = v;
	bind_i64(b, &p->i[k]);
}

void
params_u64(struct params *p, uint64_t v)
{
	size_t k;
	MYSQL_BIND *b = params_next(p, &k);

	memcpy(&p->i[k], &v, sizeof(v));
	bind_i64(b, &p->i[k]);
	b->is_unsigned = 1;
}

void
params_str(struct params *p, const char *s)
{
	size_t k;
	MYSQL_BIND *b = params_next(p, &k);

	if (s == NULL) {
		bind_null(b);
		return;
	}
	p->len[k] = (unsigned long)strlen(s);
	bind_str(b, s, &p->len[k]);
}

void
params_null(struct params *p)
{
	size_t k;

	bind_null(params_next(p, &k));
}

void
params_ids(struct params *p, const int64_t *ids, size_t n, size_t np)
{
	size_t i;

	for (i = 0; i < np; i++)
		if (i < n)
			params_i64(p, ids[i]);
		else
			params_null(p);
}

size_t
params_padded(size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(pad_sizes) / sizeof(pad_sizes[0]); i++)
		if (n <= pad_sizes[i])
			return pad_sizes[i];
	return 0;
}

int
params_in_ids(struct buf *b, struct params *p, const int64_t *ids, size_t n)
{
	size_t np = params_padded(n);

	if (np == 0)
		return -REPO_ERR_INVALID;
	buf_adds(b, " IN (");
	params_add_marks(b, np);
	buf_adds(b, ")");
	params_ids(p, ids, n, np);
	return 0;
}

void
params_add_marks(struct buf *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		buf_adds(b, i == 0 ? "?" : ",?");
}

size_t
params_rows_per_stmt(size_t per_row)
{
	size_t n = MAX_STMT_PARAMS / (per_row == 0 ? 1 : per_row);

	return n == 0 ? 1 : n;
}

MYSQL_STMT *
params_stmt(struct db *db, struct buf *b, const char *where)
{
	if (!buf_ok(b)) {
		log_err("%s: statement text over %zu bytes", where, b->max);
		return NULL;
	}
	return db_stmt_sql(db, b->data, where);
}

int
params_exec(struct db *db, MYSQL_STMT *st, struct params *p,
    const char *where)
{
	if (st == NULL)
		return db_stmt_sql_err(db);
	return db_exec(db, st, p != NULL ? p->b : NULL, where);
}

int
params_query(struct db *db, MYSQL_STMT *st, struct params *p,
    struct arena *a, size_t ncol, size_t max, const char *where,
    struct db_text_rows *out)
{
	int r;

	memset(out, 0, sizeof(*out));
	if (st == NULL)
		return db_stmt_sql_err(db);
	if ((r = params_exec(db, st, p, where)) != 0)
		return r;
	return db_fetch_text(db, st, a, ncol, max, where, out);
}
