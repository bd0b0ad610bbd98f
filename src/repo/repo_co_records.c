/*
 * Custom object records (repo_co_records.h): lookups by key, writes and
 * deletes on a type's record table co_rec_<type id>.  Its columns are
 * named by field API names that model/cotype.c checked ([A-Za-z][A-Za-z0-9_]*,
 * not reserved), so the statements are built at run time (db_stmt_sql)
 * with every identifier back-quoted and every value bound.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <mysql.h>
#include <mysqld_error.h>

#include "db/bind.h"
#include "db/pool.h"
#include "db/query.h"
#include "model/cotype.h"
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_co_records.h"
#include "repo/repo_co_types.h"
#include "repo/repo_lead_sql.h"
#include "util/buf.h"
#include "util/log.h"
#include "util/xmalloc.h"

/* See repo_co_records.h. */
void
repo_co_records_key_text(struct buf *b, const struct lead_value *vals,
    size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (i > 0)
			buf_addc(b, '\x1f');
		switch (vals[i].kind) {
		case LV_INT:
		case LV_BOOL:
			buf_printf(b, "%lld", (long long)vals[i].i);
			break;
		case LV_DBL:
			buf_printf(b, "%.17g", vals[i].d);
			break;
		case LV_STR:
			buf_add(b, vals[i].s, vals[i].len);
			break;
		default:
			break;
		}
	}
}

/* See repo_co_records.h. */
void
repo_co_records_rows_free(struct co_rows *r)
{
	size_t i, j;

	if (r == NULL)
		return;
	for (i = 0; i < r->n; i++) {
		for (j = 0; j < r->ncols; j++)
			free(r->rows[i].vals[j]);
		free(r->rows[i].vals);
		free(r->rows[i].lens);
	}
	free(r->rows);
	memset(r, 0, sizeof(*r));
}

/* An input key's canonical text and its position, for matching rows. */
struct key_ent {
	char	*text;
	size_t	 len;
	size_t	 seq;
};

static int
key_ent_cmp(const void *a, const void *b)
{
	const struct key_ent *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->text, y->text, n);

	if (c != 0)
		return c;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

struct lookup_ctx {
	struct co_rows	*out;
	struct key_ent	*ents;
	size_t		 nents;
	size_t		 nkey;
	size_t		 ncols;
	size_t		 cap;
	struct buf	 kb;
};

/* The first (lowest seq) key equal to text, or -1. */
static ssize_t
key_find(const struct lookup_ctx *x, const char *text, size_t len)
{
	size_t lo = 0, hi = x->nents, mid;
	const struct key_ent *e;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		e = &x->ents[mid];
		c = memcmp(e->text, text, e->len < len ? e->len : len);
		if (c == 0)
			c = e->len < len ? -1 : e->len > len ? 1 : 0;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < x->nents && x->ents[lo].len == len &&
	    memcmp(x->ents[lo].text, text, len) == 0)
		return (ssize_t)x->ents[lo].seq;
	return -1;
}

/*
 * A row: id, marketoGUID, nkey key columns, ncols columns.  Its key text
 * is built like the inputs' (values as the table prints them).
 */
static int
lookup_cb(void *arg, char **v, const unsigned long *lens)
{
	struct lookup_ctx *x = arg;
	struct co_row *row;
	ssize_t seq;
	size_t i;

	buf_reset(&x->kb);
	for (i = 0; i < x->nkey; i++) {
		if (i > 0)
			buf_addc(&x->kb, '\x1f');
		if (v[2 + i] != NULL)
			buf_add(&x->kb, v[2 + i], lens[2 + i]);
	}
	if (!buf_ok(&x->kb))
		return -REPO_ERR_INTERNAL;
	seq = key_find(x, x->kb.data != NULL ? x->kb.data : "", x->kb.len);
	if (seq < 0)
		return 0;	/* a row only SQL's comparison matched */
	if (x->out->n == x->cap) {
		x->cap = x->cap == 0 ? 64 : x->cap * 2;
		x->out->rows = xrealloc(x->out->rows,
		    x->cap * sizeof(*x->out->rows));
	}
	row = &x->out->rows[x->out->n++];
	memset(row, 0, sizeof(*row));
	row->id = db_col_i64(v[0]);
	snprintf(row->guid, sizeof(row->guid), "%s", v[1] != NULL ? v[1] : "");
	row->seq = (size_t)seq;
	row->vals = xcalloc(x->ncols > 0 ? x->ncols : 1, sizeof(*row->vals));
	row->lens = xcalloc(x->ncols > 0 ? x->ncols : 1, sizeof(*row->lens));
	for (i = 0; i < x->ncols; i++) {
		if (v[2 + x->nkey + i] == NULL)
			continue;
		row->vals[i] = xstrndup(v[2 + x->nkey + i],
		    lens[2 + x->nkey + i]);
		row->lens[i] = lens[2 + x->nkey + i];
	}
	return 0;
}

/* See repo_co_records.h. */
int
repo_co_records_lookup(struct db *db, const struct co_type *t,
    const char *const *keycols, size_t nkey,
    const struct lead_value *keys, size_t nkeys,
    const char *const *cols, size_t ncols,
    int64_t after_id, size_t limit, struct co_rows *out)
{
	struct lookup_ctx x;
	struct buf q;
	MYSQL_BIND *in = NULL;
	unsigned long *lens = NULL;
	MYSQL_STMT *st;
	int64_t lim = (int64_t)limit;
	size_t i, j, np = 0;
	bool guid;
	int r = -REPO_ERR_INTERNAL;

	memset(out, 0, sizeof(*out));
	memset(&x, 0, sizeof(x));
	buf_init(&q, CO_SQL_MAX);
	buf_init(&x.kb, CO_SQL_MAX);
	out->ncols = ncols;
	if (nkeys == 0 || nkey == 0 || t->table[0] == '\0') {
		r = t->table[0] == '\0' ? -REPO_ERR_NOT_FOUND : 0;
		goto out;
	}
	guid = nkey == 1 && strcasecmp(keycols[0], "marketoGUID") == 0;
	x.out = out;
	x.nkey = nkey;
	x.ncols = ncols;
	/* The inputs' key texts, sorted, for matching rows back. */
	x.ents = xcalloc(nkeys, sizeof(*x.ents));
	for (i = 0; i < nkeys; i++) {
		buf_reset(&x.kb);
		repo_co_records_key_text(&x.kb, &keys[i * nkey], nkey);
		x.ents[i].text = xstrndup(x.kb.data != NULL ? x.kb.data : "",
		    x.kb.len);
		x.ents[i].len = x.kb.len;
		x.ents[i].seq = i;
	}
	x.nents = nkeys;
	qsort(x.ents, nkeys, sizeof(*x.ents), key_ent_cmp);

	buf_adds(&q, "SELECT `id`, `marketoGUID`");
	for (j = 0; j < nkey; j++)
		buf_printf(&q, ", `%s`", keycols[j]);
	for (j = 0; j < ncols; j++)
		buf_printf(&q, ", `%s`", cols[j]);
	buf_printf(&q, " FROM `%s` WHERE ", t->table);
	if (nkey == 1) {
		buf_printf(&q, "`%s` IN (", keycols[0]);
		for (i = 0; i < nkeys; i++)
			buf_adds(&q, i == 0 ? (guid ? "CONVERT(? USING ascii)" :
			    "?") : (guid ? ", CONVERT(? USING ascii)" : ", ?"));
		buf_adds(&q, ")");
	} else {
		buf_adds(&q, "(");
		for (i = 0; i < nkeys; i++) {
			buf_adds(&q, i == 0 ? "(" : " OR (");
			for (j = 0; j < nkey; j++)
				buf_printf(&q, "%s`%s` = ?", j == 0 ? "" :
				    " AND ", keycols[j]);
			buf_adds(&q, ")");
		}
		buf_adds(&q, ")");
	}
	buf_adds(&q, " AND `id` > ? ORDER BY `id`");
	if (limit > 0)
		buf_adds(&q, " LIMIT ?");
	if (!buf_ok(&q))
		goto out;
	in = xcalloc(nkeys * nkey + 2, sizeof(*in));
	lens = xcalloc(nkeys * nkey + 2, sizeof(*lens));
	for (i = 0; i < nkeys * nkey; i++) {
		repo_lead_sql_bind(&in[np], NULL, &keys[i], &lens[np]);
		np++;
	}
	bind_i64(&in[np++], &after_id);
	if (limit > 0)
		bind_i64(&in[np++], &lim);
	if ((r = db_ensure(db)) != 0)
		goto out;
	if ((st = db_stmt_sql(db, q.data, "repo_co_records_lookup")) ==
	    NULL) {
		r = db_stmt_sql_err(db);
		goto out;
	}
	if ((r = db_exec(db, st, in, "repo_co_records_lookup")) != 0)
		goto out;
	r = db_fetch_rows(db, st, 2 + nkey + ncols, lookup_cb, &x,
	    "repo_co_records_lookup");
out:
	if (r != 0)
		repo_co_records_rows_free(out);
	for (i = 0; i < x.nents; i++)
		free(x.ents[i].text);
	free(x.ents);
	free(in);
	free(lens);
	buf_clear(&q);
	buf_clear(&x.kb);
	return r;
}

static_assert(CO_MAX_FIELDS <= 64, "write_mask holds one bit per field");

/* A set of fields given by the updates of a sync (bit i: field i). */
static uint64_t
write_mask(const struct co_type *t, const struct co_write *w)
{
	uint64_t m = 0;
	size_t i;

	for (i = 0; i < t->nfields && i < 64; i++)
		if (w->vals[i].kind != LV_ABSENT)
			m |= (uint64_t)1 << i;
	return m;
}

struct write_arg {
	const struct co_type	*t;
	struct co_write		*creates;
	size_t			 ncreates;
	struct co_write		*updates;
	size_t			 nupdates;
	bool			 one_by_one;
};

/* Runs q with binds in; a duplicate key marks *conflict when soft. */
static int
write_exec(struct db *db, const char *q, MYSQL_BIND *in, bool soft,
    bool *conflict)
{
	MYSQL_STMT *st;
	int r;

	if ((st = db_stmt_sql(db, q, "repo_co_records_write")) == NULL)
		return db_stmt_sql_err(db);
	r = db_exec(db, st, in, "repo_co_records_write");
	if (r == -REPO_ERR_CONFLICT && soft) {
		*conflict = true;
		r = 0;
	}
	return r;
}

/* INSERT of creates [from, from + n). */
static int
write_creates(struct db *db, struct write_arg *a, size_t from, size_t n,
    bool soft)
{
	const struct co_type *t = a->t;
	struct buf q;
	MYSQL_BIND *in;
	unsigned long *lens;
	unsigned long glen = CO_GUID_LEN;
	size_t i, j, np = 0, per = t->nfields + 1;
	int r = -REPO_ERR_INTERNAL;

	buf_init(&q, CO_SQL_MAX);
	in = xcalloc(n * per, sizeof(*in));
	lens = xcalloc(n * per, sizeof(*lens));
	buf_printf(&q, "INSERT INTO `%s` (`marketoGUID`, `createdAt`, "
	    "`updatedAt`", t->table);
	for (j = 0; j < t->nfields; j++)
		buf_printf(&q, ", `%s`", t->fields[j].name);
	buf_adds(&q, ") VALUES ");
	for (i = 0; i < n; i++) {
		struct co_write *w = &a->creates[from + i];

		buf_adds(&q, i == 0 ? "(?, UTC_TIMESTAMP(), UTC_TIMESTAMP()" :
		    ", (?, UTC_TIMESTAMP(), UTC_TIMESTAMP()");
		bind_str(&in[np++], w->guid, &glen);
		for (j = 0; j < t->nfields; j++) {
			buf_adds(&q, ", ?");
			repo_lead_sql_bind(&in[np], NULL, &w->vals[j],
			    &lens[np]);
			np++;
		}
		buf_adds(&q, ")");
	}
	if (buf_ok(&q))
		r = write_exec(db, q.data, in, soft,
		    &a->creates[from].conflict);
	free(in);
	free(lens);
	buf_clear(&q);
	return r;
}

/* Upsert by id of the updates in idx[0..n) (all giving fields mask). */
static int
write_upserts(struct db *db, struct write_arg *a, const size_t *idx,
    size_t n, uint64_t mask, bool soft)
{
	const struct co_type *t = a->t;
	struct buf q;
	MYSQL_BIND *in;
	unsigned long *lens;
	unsigned long glen = CO_GUID_LEN;
	size_t i, j, np = 0, per = t->nfields + 2;
	int r = -REPO_ERR_INTERNAL;

	buf_init(&q, CO_SQL_MAX);
	in = xcalloc(n * per, sizeof(*in));
	lens = xcalloc(n * per, sizeof(*lens));
	buf_printf(&q, "INSERT INTO `%s` (`id`, `marketoGUID`, `createdAt`, "
	    "`updatedAt`", t->table);
	for (j = 0; j < t->nfields; j++)
		if (mask & ((uint64_t)1 << j))
			buf_printf(&q, ", `%s`", t->fields[j].name);
	buf_adds(&q, ") VALUES ");
	for (i = 0; i < n; i++) {
		struct co_write *w = &a->updates[idx[i]];

		buf_adds(&q, i == 0 ? "(?, ?, UTC_TIMESTAMP(), "
		    "UTC_TIMESTAMP()" : ", (?, ?, UTC_TIMESTAMP(), "
		    "UTC_TIMESTAMP()");
		bind_i64(&in[np++], &w->id);
		bind_str(&in[np++], w->guid, &glen);
		for (j = 0; j < t->nfields; j++) {
			if (!(mask & ((uint64_t)1 << j)))
				continue;
			buf_adds(&q, ", ?");
			repo_lead_sql_bind(&in[np], NULL, &w->vals[j],
			    &lens[np]);
			np++;
		}
		buf_adds(&q, ")");
	}
	buf_adds(&q, " ON DUPLICATE KEY UPDATE `updatedAt` = "
	    "VALUES(`updatedAt`)");
	for (j = 0; j < t->nfields; j++)
		if (mask & ((uint64_t)1 << j))
			buf_printf(&q, ", `%s` = VALUES(`%s`)",
			    t->fields[j].name, t->fields[j].name);
	if (buf_ok(&q))
		r = write_exec(db, q.data, in, soft,
		    &a->updates[idx[0]].conflict);
	free(in);
	free(lens);
	buf_clear(&q);
	return r;
}

/* UPDATE of one record by id (a change of its unique key). */
static int
write_update(struct db *db, struct write_arg *a, struct co_write *w)
{
	const struct co_type *t = a->t;
	struct buf q;
	MYSQL_BIND *in;
	unsigned long *lens;
	size_t j, np = 0;
	int r = -REPO_ERR_INTERNAL;

	buf_init(&q, CO_SQL_MAX);
	in = xcalloc(t->nfields + 1, sizeof(*in));
	lens = xcalloc(t->nfields + 1, sizeof(*lens));
	buf_printf(&q, "UPDATE `%s` SET `updatedAt` = UTC_TIMESTAMP()",
	    t->table);
	for (j = 0; j < t->nfields; j++) {
		if (w->vals[j].kind == LV_ABSENT)
			continue;
		buf_printf(&q, ", `%s` = ?", t->fields[j].name);
		repo_lead_sql_bind(&in[np], NULL, &w->vals[j], &lens[np]);
		np++;
	}
	buf_adds(&q, " WHERE `id` = ?");
	bind_i64(&in[np++], &w->id);
	if (buf_ok(&q))
		r = write_exec(db, q.data, in, true, &w->conflict);
	free(in);
	free(lens);
	buf_clear(&q);
	return r;
}

static int
write_tx(struct db *db, void *arg)
{
	struct write_arg *a = arg;
	size_t i, j, n, *idx = NULL;
	uint64_t mask;
	bool *done = NULL;
	int r = 0;

	for (i = 0; i < a->ncreates; i++)
		a->creates[i].conflict = false;
	for (i = 0; i < a->nupdates; i++)
		a->updates[i].conflict = false;
	if (a->one_by_one) {
		for (i = 0; r == 0 && i < a->ncreates; i++)
			r = write_creates(db, a, i, 1, true);
	} else if (a->ncreates > 0)
		r = write_creates(db, a, 0, a->ncreates, false);
	if (r != 0 || a->nupdates == 0)
		goto out;
	idx = xcalloc(a->nupdates, sizeof(*idx));
	done = xcalloc(a->nupdates, sizeof(*done));
	for (i = 0; r == 0 && i < a->nupdates; i++) {
		if (done[i])
			continue;
		if (a->updates[i].by_update || a->one_by_one) {
			done[i] = true;
			r = a->updates[i].by_update ?
			    write_update(db, a, &a->updates[i]) :
			    write_upserts(db, a, &i, 1,
			    write_mask(a->t, &a->updates[i]), true);
			continue;
		}
		/* Every update giving the same fields: one statement. */
		mask = write_mask(a->t, &a->updates[i]);
		for (j = i, n = 0; j < a->nupdates; j++)
			if (!done[j] && !a->updates[j].by_update &&
			    write_mask(a->t, &a->updates[j]) == mask) {
				idx[n++] = j;
				done[j] = true;
			}
		r = write_upserts(db, a, idx, n, mask, false);
	}
out:
	free(idx);
	free(done);
	return r;
}

/* See repo_co_records.h. */
int
repo_co_records_write(struct db *db, const struct co_type *t,
    struct co_write *creates, size_t ncreates, struct co_write *updates,
    size_t nupdates, bool one_by_one)
{
	struct write_arg a = {
		.t = t, .creates = creates, .ncreates = ncreates,
		.updates = updates, .nupdates = nupdates,
		.one_by_one = one_by_one,
	};

	if (t->table[0] == '\0')
		return -REPO_ERR_NOT_FOUND;
	if (ncreates == 0 && nupdates == 0)
		return 0;
	return db_run_tx(db, write_tx, &a, false);
}

struct delete_ids_arg {
	const struct co_type	*t;
	const int64_t		*ids;
	size_t			 n;
};

static int
delete_ids_tx(struct db *db, void *arg)
{
	struct delete_ids_arg *a = arg;
	struct buf q;
	MYSQL_BIND *in;
	MYSQL_STMT *st;
	size_t i;
	int r = -REPO_ERR_INTERNAL;

	buf_init(&q, CO_SQL_MAX);
	in = xcalloc(a->n, sizeof(*in));
	buf_printf(&q, "DELETE FROM `%s` WHERE `id` IN (", a->t->table);
	for (i = 0; i < a->n; i++) {
		buf_adds(&q, i == 0 ? "?" : ", ?");
		bind_i64(&in[i], &a->ids[i]);
	}
	buf_adds(&q, ")");
	if (buf_ok(&q)) {
		if ((st = db_stmt_sql(db, q.data,
		    "repo_co_records_delete_ids")) != NULL)
			r = db_exec(db, st, in,
			    "repo_co_records_delete_ids");
		else
			r = db_stmt_sql_err(db);
	}
	free(in);
	buf_clear(&q);
	return r;
}

/* See repo_co_records.h. */
int
repo_co_records_delete_ids(struct db *db, const struct co_type *t,
    const int64_t *ids, size_t n)
{
	struct delete_ids_arg a = { .t = t, .ids = ids, .n = n };

	if (t->table[0] == '\0')
		return -REPO_ERR_NOT_FOUND;
	if (n == 0)
		return 0;
	return db_run_tx(db, delete_ids_tx, &a, true);
}
