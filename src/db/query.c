/* See query.h. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <mysql.h>
#include <mysqld_error.h>

#include "db/bind.h"
#include "db/pool.h"
#include "db/query.h"
#include "err.h"
#include "util/arena.h"
#include "util/log.h"
#include "util/num.h"
#include "util/xmalloc.h"

/* Bytes of a text value fetched at once; longer ones are fetched again. */
#define INLINE_BYTES	256

/* See query.h. */
int
db_fetch_one(struct db *db, MYSQL_STMT *st, MYSQL_BIND *res,
    const char *where)
{
	int e, r;

	if (mysql_stmt_bind_result(st, res) != 0) {
		r = db_error(db, st, where);
		goto out;
	}
	e = mysql_stmt_fetch(st);
	if (e == 0 || e == MYSQL_DATA_TRUNCATED)
		r = 0;
	else if (e == MYSQL_NO_DATA)
		r = -REPO_ERR_NOT_FOUND;
	else
		r = db_error(db, st, where);
out:
	mysql_stmt_free_result(st);
	return r;
}

/* See query.h. */
int
db_query_i64(struct db *db, MYSQL_STMT *st, MYSQL_BIND *in, int64_t *out,
    const char *where)
{
	MYSQL_BIND res[1];
	my_bool nul = 0;
	int r;

	*out = 0;
	if ((r = db_exec(db, st, in, where)) != 0)
		return r;
	bind_out_i64(&res[0], out, &nul);
	if ((r = db_fetch_one(db, st, res, where)) == 0 && nul)
		*out = 0;
	return r;
}

/* See query.h. */
int
db_query_id(struct db *db, MYSQL_STMT *st, const char *name, int32_t *id,
    const char *where)
{
	MYSQL_BIND in[1];
	unsigned long len = strlen(name);
	int64_t v;
	int r;

	*id = 0;
	if ((r = db_ensure(db)) != 0)
		return r;
	bind_str(&in[0], name, &len);
	if ((r = db_query_i64(db, st, in, &v, where)) == 0)
		*id = (int32_t)v;
	return r;
}

/* See query.h. */
int
db_query_str(struct db *db, MYSQL_STMT *st, MYSQL_BIND *in, char *buf,
    size_t size, const char *where)
{
	MYSQL_BIND res[1];
	unsigned long len = 0;
	my_bool nul = 0;
	int r;

	buf[0] = '\0';
	if ((r = db_exec(db, st, in, where)) != 0)
		return r;
	bind_out_str(&res[0], buf, size - 1, &len, &nul);
	if ((r = db_fetch_one(db, st, res, where)) == 0)
		buf[nul ? 0 : len < size - 1 ? len : size - 1] = '\0';
	else
		buf[0] = '\0';
	return r;
}

/* See query.h. */
int
db_exec_n(struct db *db, MYSQL_STMT *st, MYSQL_BIND *in, uint64_t *n,
    const char *where)
{
	int r;

	*n = 0;
	if ((r = db_exec(db, st, in, where)) == 0)
		*n = (uint64_t)mysql_stmt_affected_rows(st);
	return r;
}

/* See query.h. */
int
db_exec_keep(struct db *db, MYSQL_STMT *st, MYSQL_BIND *in, uint64_t *n,
    const char *where)
{
	unsigned int e;

	*n = 0;
	if (mysql_stmt_bind_param(st, in) == 0 &&
	    mysql_stmt_execute(st) == 0) {
		*n = (uint64_t)mysql_stmt_affected_rows(st);
		return 0;
	}
	e = mysql_stmt_errno(st);
	if (e == ER_LOCK_DEADLOCK || e == ER_LOCK_WAIT_TIMEOUT) {
		log_debug("%s: %u %s (not kept)", where, e,
		    mysql_stmt_error(st));
		return -REPO_ERR_DEADLOCK;
	}
	return db_error(db, st, where);
}

/* See query.h. */
int
db_fetch_rows(struct db *db, MYSQL_STMT *st, size_t ncols, db_row_fn fn,
    void *arg, const char *where)
{
	MYSQL_BIND *res = NULL;
	char **bufs = NULL, **vals = NULL;
	unsigned long *lens = NULL, *sizes = NULL;
	my_bool *nul = NULL;
	size_t i;
	bool grown;
	int e, r = -REPO_ERR_INTERNAL;

	if (mysql_stmt_field_count(st) != ncols) {
		log_err("%s: %u columns, expected %zu", where,
		    mysql_stmt_field_count(st), ncols);
		goto out;
	}
	res = xcalloc(ncols, sizeof(*res));
	bufs = xcalloc(ncols, sizeof(*bufs));
	vals = xcalloc(ncols, sizeof(*vals));
	lens = xcalloc(ncols, sizeof(*lens));
	sizes = xcalloc(ncols, sizeof(*sizes));
	nul = xcalloc(ncols, sizeof(*nul));
	for (i = 0; i < ncols; i++) {
		sizes[i] = INLINE_BYTES;
		bufs[i] = xmalloc(sizes[i] + 1);
		bind_out_str(&res[i], bufs[i], sizes[i], &lens[i], &nul[i]);
	}
	if (mysql_stmt_bind_result(st, res) != 0) {
		r = db_error(db, st, where);
		goto out;
	}
	for (;;) {
		e = mysql_stmt_fetch(st);
		if (e == MYSQL_NO_DATA)
			break;
		if (e == 1) {
			r = db_error(db, st, where);
			goto out;
		}
		grown = false;
		for (i = 0; i < ncols; i++) {
			if (nul[i]) {
				vals[i] = NULL;
				continue;
			}
			if (lens[i] > sizes[i]) {
				grown = true;
				/* Grow and fetch the whole value again. */
				sizes[i] = lens[i];
				bufs[i] = xrealloc(bufs[i], sizes[i] + 1);
				res[i].buffer = bufs[i];
				res[i].buffer_length = sizes[i];
				if (mysql_stmt_fetch_column(st, &res[i],
				    (unsigned)i, 0) != 0) {
					r = db_error(db, st, where);
					goto out;
				}
			}
			bufs[i][lens[i]] = '\0';
			vals[i] = bufs[i];
		}
		if ((r = fn(arg, vals, lens)) != 0)
			goto out;
		/* Rebind: a grown buffer moved. */
		if (grown && mysql_stmt_bind_result(st, res) != 0) {
			r = db_error(db, st, where);
			goto out;
		}
	}
	r = 0;
out:
	mysql_stmt_free_result(st);
	for (i = 0; bufs != NULL && i < ncols; i++)
		free(bufs[i]);
	free(bufs);
	free(vals);
	free(lens);
	free(sizes);
	free(nul);
	free(res);
	return r;
}

/* See query.h. */
int
db_select_text(struct db *db, MYSQL_STMT *st, MYSQL_BIND *in,
    struct arena *a, size_t ncol, size_t max, const char *where,
    struct db_text_rows *out)
{
	int r;

	if ((r = db_exec(db, st, in, where)) != 0) {
		memset(out, 0, sizeof(*out));
		return r;
	}
	return db_fetch_text(db, st, a, ncol, max, where, out);
}

/* See query.h. */
int
db_each_id(struct db *db, MYSQL_STMT *st, MYSQL_BIND *in, size_t max,
    int (*fn)(struct db *, int32_t, void *), void *arg, const char *where)
{
	struct db_text_rows t;
	struct arena a;
	size_t i;
	int r;

	arena_init(&a);
	r = db_select_text(db, st, in, &a, 1, max, where, &t);
	for (i = 0; r == 0 && i < t.count; i++)
		r = fn(db, (int32_t)db_text_i64(&t, i, 0), arg);
	arena_clear(&a);
	return r;
}

/*
 * db_fetch_text's bindings and inline buffers, kept for the worker's
 * life and grown to the widest statement: a fetch runs to its end before
 * the next one starts, and allocating them for every statement cost more
 * than the fetch itself.
 */
static struct {
	MYSQL_BIND	*res;
	unsigned long	*len;
	my_bool		*nul;
	char		*inl;
	size_t		 ncol;
} text_scratch;

/* Makes text_scratch hold ncol columns, zeroed. */
static void
text_scratch_reserve(size_t ncol)
{
	if (ncol > text_scratch.ncol) {
		free(text_scratch.res);
		free(text_scratch.len);
		free(text_scratch.nul);
		free(text_scratch.inl);
		text_scratch.res = xcalloc(ncol, sizeof(*text_scratch.res));
		text_scratch.len = xcalloc(ncol, sizeof(*text_scratch.len));
		text_scratch.nul = xcalloc(ncol, sizeof(*text_scratch.nul));
		text_scratch.inl = xmalloc(ncol * INLINE_BYTES);
		text_scratch.ncol = ncol;
	}
	memset(text_scratch.res, 0, ncol * sizeof(*text_scratch.res));
	memset(text_scratch.len, 0, ncol * sizeof(*text_scratch.len));
	memset(text_scratch.nul, 0, ncol * sizeof(*text_scratch.nul));
}

/* See query.h. */
int
db_fetch_text(struct db *db, MYSQL_STMT *st, struct arena *a, size_t ncol,
    size_t max, const char *where, struct db_text_rows *out)
{
	MYSQL_BIND *res, col;
	char *inl, *p;
	unsigned long *len;
	my_bool *nul;
	size_t c, cap;
	int e = 0, r = -REPO_ERR_INTERNAL;

	memset(out, 0, sizeof(*out));
	out->ncol = ncol;
	if (mysql_stmt_field_count(st) != ncol) {
		log_err("%s: %u columns, expected %zu", where,
		    mysql_stmt_field_count(st), ncol);
		goto out;
	}
	cap = (size_t)mysql_stmt_num_rows(st);
	if (cap > max)
		cap = max;
	text_scratch_reserve(ncol);
	res = text_scratch.res;
	len = text_scratch.len;
	nul = text_scratch.nul;
	inl = text_scratch.inl;
	for (c = 0; c < ncol; c++)
		bind_out_str(&res[c], inl + c * INLINE_BYTES, INLINE_BYTES,
		    &len[c], &nul[c]);
	if (mysql_stmt_bind_result(st, res) != 0) {
		r = db_error(db, st, where);
		goto out;
	}
	if (cap > 0 && ((out->v = arena_zalloc(a, cap * ncol *
	    sizeof(*out->v))) == NULL || (out->len = arena_zalloc(a,
	    cap * ncol * sizeof(*out->len))) == NULL))
		goto out;
	while (out->count < cap &&
	    ((e = mysql_stmt_fetch(st)) == 0 || e == MYSQL_DATA_TRUNCATED)) {
		for (c = 0; c < ncol; c++) {
			size_t k = out->count * ncol + c;

			if (nul[c])
				continue;
			if ((p = arena_alloc(a, len[c] + 1)) == NULL)
				goto out;
			if (len[c] <= INLINE_BYTES)
				memcpy(p, inl + c * INLINE_BYTES, len[c]);
			else {
				bind_out_str(&col, p, len[c] + 1, &len[c],
				    &nul[c]);
				if (mysql_stmt_fetch_column(st, &col,
				    (unsigned)c, 0) != 0) {
					r = db_error(db, st, where);
					goto out;
				}
			}
			p[len[c]] = '\0';
			out->v[k] = p;
			out->len[k] = len[c];
		}
		out->count++;
	}
	if (e != 0 && e != MYSQL_NO_DATA && e != MYSQL_DATA_TRUNCATED) {
		r = db_error(db, st, where);
		goto out;
	}
	r = 0;
out:
	mysql_stmt_free_result(st);
	return r;
}

/* The sort of db_text_sort: its rows and key columns. */
struct text_sort {
	const struct db_text_rows	*t;
	const size_t			*keys;
	size_t				 nkeys;
};

/* Two row numbers by their keys, then by number (a stable order). */
static int
text_row_cmp(const void *x, const void *y, void *arg)
{
	const struct text_sort *s = arg;
	size_t i = *(const size_t *)x, j = *(const size_t *)y, k;
	int64_t u, v;

	for (k = 0; k < s->nkeys; k++) {
		u = db_text_i64(s->t, i, s->keys[k]);
		v = db_text_i64(s->t, j, s->keys[k]);
		if (u != v)
			return u < v ? -1 : 1;
	}
	return i < j ? -1 : i > j;
}

/* See query.h. */
int
db_text_sort(struct db_text_rows *t, struct arena *a, const size_t *keys,
    size_t nkeys)
{
	struct text_sort s = { .t = t, .keys = keys, .nkeys = nkeys };
	const char **v;
	size_t *idx, *len, i, j, n = t->count * t->ncol;

	if (t->count < 2)
		return 0;
	idx = arena_alloc(a, t->count * sizeof(*idx));
	v = arena_alloc(a, n * sizeof(*v));
	len = arena_alloc(a, n * sizeof(*len));
	if (idx == NULL || v == NULL || len == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < t->count; i++)
		idx[i] = i;
	qsort_r(idx, t->count, sizeof(*idx), text_row_cmp, &s);
	for (i = 0; i < t->count; i++)
		for (j = 0; j < t->ncol; j++) {
			v[i * t->ncol + j] = t->v[idx[i] * t->ncol + j];
			len[i * t->ncol + j] = t->len[idx[i] * t->ncol + j];
		}
	t->v = v;
	t->len = len;
	return 0;
}

/* See query.h. */
int64_t
db_text_i64(const struct db_text_rows *t, size_t row, size_t col)
{
	const char *s = t->v[row * t->ncol + col];
	int64_t v;

	if (s == NULL || num_parse_i64n(s, t->len[row * t->ncol + col],
	    INT64_MIN, INT64_MAX, &v) != 0)
		return 0;
	return v;
}

/* See query.h. */
const char *
db_text_str(const struct db_text_rows *t, size_t row, size_t col)
{
	return t->v[row * t->ncol + col];
}

/* See query.h. */
int64_t
db_col_i64(const char *s)
{
	int64_t v;

	if (s == NULL || num_parse_i64n(s, strlen(s), INT64_MIN, INT64_MAX,
	    &v) != 0)
		return 0;
	return v;
}

/* See query.h. */
char *
db_col_dup(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

/* See query.h. */
void
db_copy_text(char *dst, size_t size, const char *src, size_t len)
{
	size_t n = src == NULL ? 0 :
	    strnlen(src, len < size - 1 ? len : size - 1);

	if (n > 0)
		memcpy(dst, src, n);
	dst[n] = '\0';
}

/* See query.h. */
int
db_bind_json_list(MYSQL_BIND *b, struct arena *a, const int64_t *ids,
    const char *const *s, size_t n, unsigned long *len)
{
	struct json_object *o;
	const char *t = NULL;
	size_t i;

	*len = 0;
	if (n > 0) {
		if ((o = json_object_new_array()) == NULL)
			return -REPO_ERR_INTERNAL;
		for (i = 0; i < n; i++)
			json_object_array_add(o, ids != NULL ?
			    json_object_new_int64(ids[i]) :
			    json_object_new_string(s[i]));
		t = arena_strdup(a, json_object_to_json_string_ext(o,
		    JSON_C_TO_STRING_PLAIN));
		json_object_put(o);
		if (t == NULL)
			return -REPO_ERR_INTERNAL;
		*len = strlen(t);
	}
	bind_str_twice(b, t, len);
	return 0;
}
