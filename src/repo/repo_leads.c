/*
 * Leads: reads, the batch upsert, delete (repo_leads.h).
 *
 * The fixed statements are in the table below.  The others name lead
 * columns from the field catalogue or carry one placeholder per value of
 * a batch, so their text is built here and prepared through db_stmt_sql,
 * which caches it per connection.  IN lists are padded with NULL to one
 * of a few sizes (NULL never equals anything) so the cache holds few
 * variants; multi-row INSERTs have exactly the rows of the batch.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <mysql.h>

#include "db/bind.h"
#include "db/pool.h"
#include "db/query.h"
#include "bounds.h"
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_activity.h"
#include "repo/repo_cookies.h"
#include "repo/repo_leads.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/log.h"
#include "util/num.h"
#include "util/xmalloc.h"

/* The membership columns, in fill_membership order. */
#define MEMBERSHIP_COLUMNS \
	"ps.name, pm.acquired_by, pm.reached_success, pm.is_exhausted, " \
	"pm.stream, pm.nurture_cadence, pm.membership_date, pm.updated_at, " \
	"pm.program_id"
#define MEMBERSHIP_NCOLS	9
#define MEMBERSHIP_JOIN \
	" FROM program_member pm LEFT JOIN program_status ps ON " \
	"ps.program_id = pm.program_id AND ps.step = pm.status_step"

/* The longest SQL text built here (300 rows of every column fit). */
#define SQL_MAX_BYTES		(8 * 1024 * 1024)
/* The partition of a lead when none is named (migration 0004). */
#define DEFAULT_PARTITION	1

static const int64_t zero64 = 0;

/* Reason and Source of a change an API call makes (§A.4.4). */
#define CHANGE_API	"Web service API"

/* ---- SQL text ------------------------------------------------------ */

/* Sizes IN lists are padded to. */
static const size_t pad_sizes[] = { 1, 10, 50, 100, MAX_BATCH_RECORDS };

/* The padded size for n values; 0 when n is over the largest. */
static size_t
padded(size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(pad_sizes) / sizeof(pad_sizes[0]); i++)
		if (n <= pad_sizes[i])
			return pad_sizes[i];
	return 0;
}

/*
 * Appends `name` (with a table alias prefix such as "l."); false when
 * the name could break out of its quotes.  Names come only from the
 * catalogue, whose creation allows letters, digits and '_'.
 */
static bool
add_ident(struct buf *b, const char *prefix, const char *name)
{
	if (name == NULL || name[0] == '\0' || strchr(name, '`') != NULL)
		return false;
	buf_adds(b, prefix);
	buf_addc(b, '`');
	buf_adds(b, name);
	buf_addc(b, '`');
	return true;
}

/* "?,?,?" n times. */
static void
add_marks(struct buf *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		buf_adds(b, i == 0 ? "?" : ",?");
}

/* ", `c1`, `c2`" for the columns (prefix: a table alias and '.'). */
static bool
add_cols(struct buf *b, const char *prefix,
    const struct lead_field *const *cols, size_t ncols)
{
	size_t i;

	for (i = 0; i < ncols; i++) {
		buf_adds(b, ", ");
		if (!add_ident(b, prefix, cols[i]->name))
			return false;
	}
	return true;
}

/* The cached statement for the text in b; NULL when it cannot be made. */
static MYSQL_STMT *
dyn(struct db *db, struct buf *b, const char *where)
{
	if (!buf_ok(b)) {
		log_err("%s: statement text over %zu bytes", where, b->max);
		return NULL;
	}
	return db_stmt_sql(db, b->data, where);
}

/* ---- Binding ------------------------------------------------------- */

/*
 * Binds a value of field f.  A null boolean is false (the columns are NOT
 * NULL); len is where a string's length is kept until execute.
 */
static void
bind_value(MYSQL_BIND *b, const struct lead_field *f,
    const struct lead_value *v, unsigned long *len)
{
	switch (v->kind) {
	case LV_STR:
		*len = (unsigned long)v->len;
		bind_str(b, v->s, len);
		break;
	case LV_INT:
	case LV_BOOL:
		bind_i64(b, &v->i);
		break;
	case LV_DBL:
		memset(b, 0, sizeof(*b));
		b->buffer_type = MYSQL_TYPE_DOUBLE;
		b->buffer = (void *)(uintptr_t)&v->d;
		break;
	default:
		if (f != NULL && f->type == LF_BOOLEAN)
			bind_i64(b, &zero64);
		else
			bind_null(b);
		break;
	}
}

/* Parameter arrays for one statement, freed together. */
struct params {
	MYSQL_BIND	*b;
	unsigned long	*len;
	int64_t		*i;		/* integer scratch values */
	size_t		 n, cap;
};

static void
params_init(struct params *p, size_t cap)
{
	p->b = xcalloc(cap == 0 ? 1 : cap, sizeof(*p->b));
	p->len = xcalloc(cap == 0 ? 1 : cap, sizeof(*p->len));
	p->i = xcalloc(cap == 0 ? 1 : cap, sizeof(*p->i));
	p->n = 0;
	p->cap = cap;
}

static void
params_clear(struct params *p)
{
	free(p->b);
	free(p->len);
	free(p->i);
	memset(p, 0, sizeof(*p));
}

/* The next parameter; the caller sized the arrays (never past cap). */
static MYSQL_BIND *
params_next(struct params *p, size_t *k)
{
	*k = p->n < p->cap ? p->n++ : p->cap - 1;
	return &p->b[*k];
}

static void
params_i64(struct params *p, int64_t v)
{
	size_t k;
	MYSQL_BIND *b = params_next(p, &k);

	p->i[k] = v;
	bind_i64(b, &p->i[k]);
}

static void
params_u64(struct params *p, uint64_t v)
{
	size_t k;
	MYSQL_BIND *b = params_next(p, &k);

	memcpy(&p->i[k], &v, sizeof(v));
	bind_i64(b, &p->i[k]);
	b->is_unsigned = 1;
}

static void
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

static void
params_null(struct params *p)
{
	size_t k;

	bind_null(params_next(p, &k));
}

static void
params_value(struct params *p, const struct lead_field *f,
    const struct lead_value *v)
{
	size_t k;
	MYSQL_BIND *b = params_next(p, &k);

	bind_value(b, f, v, &p->len[k]);
}

/* ---- Fetching ------------------------------------------------------ */

/* Executes st with params and fetches up to max rows of ncol columns. */
static int
query_text(struct db *db, MYSQL_STMT *st, struct params *p,
    struct arena *a, size_t ncol, size_t max, const char *where,
    struct db_text_rows *out)
{
	int r;

	memset(out, 0, sizeof(*out));
	if (st == NULL)
		return db_stmt_sql_err(db);
	if ((r = db_exec(db, st, p != NULL ? p->b : NULL, where)) != 0)
		return r;
	return db_fetch_text(db, st, a, ncol, max, where, out);
}

/* Executes a statement without a result. */
static int
exec_dyn(struct db *db, MYSQL_STMT *st, struct params *p, const char *where)
{
	if (st == NULL)
		return db_stmt_sql_err(db);
	return db_exec(db, st, p != NULL ? p->b : NULL, where);
}

/* ---- Reads --------------------------------------------------------- */

/* Fills m from MEMBERSHIP_COLUMNS starting at column c of row. */
static void
fill_membership(const struct db_text_rows *t, size_t row, size_t c,
    struct lead_membership *m)
{
	memset(m, 0, sizeof(*m));
	m->status = db_text_str(t, row, c);
	m->acquired_by = db_text_i64(t, row, c + 1) != 0;
	m->reached_success = db_text_i64(t, row, c + 2) != 0;
	m->is_exhausted = db_text_i64(t, row, c + 3) != 0;
	m->stream = db_text_str(t, row, c + 4);
	m->cadence = db_text_str(t, row, c + 5);
	db_copy_text(m->membership_date, LEAD_TIME_BYTES,
	    db_text_str(t, row, c + 6), SIZE_MAX);
	db_copy_text(m->updated_at, LEAD_TIME_BYTES,
	    db_text_str(t, row, c + 7), SIZE_MAX);
	m->program_id = db_text_i64(t, row, c + 8);
}

/*
 * Turns fetched rows (id, the ncols columns, then the membership when
 * with_m) into lead rows.
 */
static int
to_lead_rows(const struct db_text_rows *t, struct arena *a, size_t ncols,
    bool with_m, struct lead_rows *out)
{
	size_t i, c;

	out->count = 0;
	out->rows = NULL;
	if (t->count == 0)
		return 0;
	if ((out->rows = arena_zalloc(a, t->count * sizeof(*out->rows))) ==
	    NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < t->count; i++) {
		struct lead_row *lr = &out->rows[i];

		lr->id = db_text_i64(t, i, 0);
		lr->vals = (const char **)&t->v[i * t->ncol + 1];
		lr->lens = &t->len[i * t->ncol + 1];
		if (with_m) {
			if ((lr->m = arena_zalloc(a, sizeof(*lr->m))) == NULL)
				return -REPO_ERR_INTERNAL;
			c = 1 + ncols;
			fill_membership(t, i, c, lr->m);
		}
	}
	out->count = t->count;
	return 0;
}

/* See repo_leads.h. */
int
repo_leads_get_by_id(struct db *db, struct arena *a,
    const struct lead_field *const *cols, size_t ncols, int64_t id,
    struct lead_rows *out)
{
	struct buf b;
	struct params p;
	struct db_text_rows t;
	int r = -REPO_ERR_INTERNAL;

	memset(out, 0, sizeof(*out));
	buf_init(&b, SQL_MAX_BYTES);
	params_init(&p, 1);
	if ((r = db_ensure(db)) != 0)
		goto out;
	buf_adds(&b, "SELECT `id`");
	if (!add_cols(&b, "", cols, ncols)) {
		r = -REPO_ERR_INVALID;
		goto out;
	}
	buf_adds(&b, " FROM lead WHERE `id` = ?");
	params_i64(&p, id);
	if ((r = query_text(db, dyn(db, &b, "repo_leads_get_by_id"), &p, a,
	    1 + ncols, 1, "repo_leads_get_by_id", &t)) != 0)
		goto out;
	r = to_lead_rows(&t, a, ncols, false, out);
out:
	params_clear(&p);
	buf_clear(&b);
	return r;
}

/* Binds the filter's values padded with NULL to np. */
static void
filter_params(struct params *p, const struct lead_filter *f, size_t np)
{
	size_t i;

	for (i = 0; i < np; i++)
		if (i < f->nvalues)
			params_value(p, f->field, &f->values[i]);
		else
			params_null(p);
}

/* The filter condition; its parameters are added by filter_bind. */
static bool
add_filter(struct buf *b, const struct lead_filter *f, size_t np)
{
	if (f->cookies) {
		buf_adds(b, "(`id` IN (SELECT lead_id FROM lead_cookie WHERE "
		    "cookie IN (");
		add_marks(b, np);
		buf_adds(b, ")) OR `cookies` IN (");
		add_marks(b, np);
		buf_adds(b, "))");
		return true;
	}
	if (!add_ident(b, "", f->field->name))
		return false;
	buf_adds(b, " IN (");
	add_marks(b, np);
	buf_addc(b, ')');
	return true;
}

static void
filter_bind(struct params *p, const struct lead_filter *f, size_t np)
{
	filter_params(p, f, np);
	if (f->cookies)
		filter_params(p, f, np);
}

/* See repo_leads.h. */
int
repo_leads_count_by_filter(struct db *db, const struct lead_filter *f,
    int64_t cap, int64_t *count)
{
	struct buf b;
	struct params p;
	struct db_text_rows t;
	struct arena a;
	size_t np = padded(f->nvalues);
	int r = -REPO_ERR_INVALID;

	*count = 0;
	arena_init(&a);
	buf_init(&b, SQL_MAX_BYTES);
	params_init(&p, 2 * np + 1);
	if (np == 0 || f->nvalues == 0)
		goto out;
	if ((r = db_ensure(db)) != 0)
		goto out;
	buf_adds(&b, "SELECT COUNT(*) FROM (SELECT 1 FROM lead WHERE ");
	if (!add_filter(&b, f, np)) {
		r = -REPO_ERR_INVALID;
		goto out;
	}
	buf_adds(&b, " LIMIT ?) t");
	filter_bind(&p, f, np);
	params_i64(&p, cap);
	if ((r = query_text(db, dyn(db, &b, "repo_leads_count_by_filter"),
	    &p, &a, 1, 1, "repo_leads_count_by_filter", &t)) != 0)
		goto out;
	if (t.count == 1)
		*count = db_text_i64(&t, 0, 0);
	r = 0;
out:
	params_clear(&p);
	buf_clear(&b);
	arena_clear(&a);
	return r;
}

/* See repo_leads.h. */
int
repo_leads_list_by_filter(struct db *db, struct arena *a,
    const struct lead_field *const *cols, size_t ncols,
    const struct lead_filter *f, int64_t after, int limit,
    struct lead_rows *out)
{
	struct buf b;
	struct params p;
	struct db_text_rows t;
	size_t np = padded(f->nvalues);
	int r = -REPO_ERR_INVALID;

	memset(out, 0, sizeof(*out));
	buf_init(&b, SQL_MAX_BYTES);
	params_init(&p, 2 * np + 2);
	if (np == 0 || f->nvalues == 0 || limit < 1)
		goto out;
	if ((r = db_ensure(db)) != 0)
		goto out;
	buf_adds(&b, "SELECT `id`");
	if (!add_cols(&b, "", cols, ncols)) {
		r = -REPO_ERR_INVALID;
		goto out;
	}
	buf_adds(&b, " FROM lead WHERE ");
	if (!add_filter(&b, f, np)) {
		r = -REPO_ERR_INVALID;
		goto out;
	}
	buf_adds(&b, " AND `id` > ? ORDER BY `id` LIMIT ?");
	filter_bind(&p, f, np);
	params_i64(&p, after);
	params_i64(&p, limit);
	if ((r = query_text(db, dyn(db, &b, "repo_leads_list_by_filter"), &p,
	    a, 1 + ncols, (size_t)limit, "repo_leads_list_by_filter",
	    &t)) != 0)
		goto out;
	r = to_lead_rows(&t, a, ncols, false, out);
out:
	params_clear(&p);
	buf_clear(&b);
	return r;
}

/* See repo_leads.h. */
int
repo_leads_list_by_program(struct db *db, struct arena *a,
    const struct lead_field *const *cols, size_t ncols, int64_t program_id,
    int64_t after, int limit, struct lead_rows *out)
{
	struct buf b;
	struct params p;
	struct db_text_rows t;
	int r = -REPO_ERR_INVALID;

	memset(out, 0, sizeof(*out));
	buf_init(&b, SQL_MAX_BYTES);
	params_init(&p, 3);
	if (limit < 1)
		goto out;
	if ((r = db_ensure(db)) != 0)
		goto out;
	buf_adds(&b, "SELECT l.`id`");
	if (!add_cols(&b, "l.", cols, ncols)) {
		r = -REPO_ERR_INVALID;
		goto out;
	}
	buf_adds(&b, ", " MEMBERSHIP_COLUMNS MEMBERSHIP_JOIN
	    " JOIN lead l ON l.`id` = pm.lead_id WHERE pm.program_id = ? AND "
	    "pm.lead_id > ? ORDER BY pm.lead_id LIMIT ?");
	params_i64(&p, program_id);
	params_i64(&p, after);
	params_i64(&p, limit);
	if ((r = query_text(db, dyn(db, &b, "repo_leads_list_by_program"), &p,
	    a, 1 + ncols + MEMBERSHIP_NCOLS, (size_t)limit,
	    "repo_leads_list_by_program", &t)) != 0)
		goto out;
	r = to_lead_rows(&t, a, ncols, true, out);
out:
	params_clear(&p);
	buf_clear(&b);
	return r;
}

/* ---- Programs, partitions, forms ------------------------------------ */

/* ---- The upsert ---------------------------------------------------- */

/* Records with one lookup value form a group. */
struct kgroup {
	const char		*norm;		/* lead_key_norm */
	const struct lead_value	*key;		/* a value to bind */
	uint64_t		 claim;
	int64_t			 db_count;	/* leads found */
	int64_t			 db_id;		/* the least of them */
	int64_t			 db_part;	/* its partition */
	int			 crow;		/* created in this batch */
	int			 urow;		/* updated in this batch */
};

/* A lead to create or update: one value per column slot. */
struct wrow {
	int64_t			 id;
	bool			 created;
	struct lead_value	*vals;
	bool			 done;		/* written (update groups) */
};

/* The state of one run of the transaction. */
struct plan {
	struct lead_sync	*s;
	struct arena		*a;
	/* Column slots: the union of the fields the batch writes. */
	const struct lead_field	**slots;
	size_t			 nslots;
	/* Key groups, and each record's group (-1 without one). */
	struct kgroup		*groups;
	size_t			 ngroups;
	int			*rec_group;
	/* Rows written, and each record's row (-1: none). */
	struct wrow		*crows, *urows;
	size_t			 ncrows, nurows;
	int			*rec_crow, *rec_urow;
	/* Sorted distinct claim keys. */
	uint64_t		*claims;
	size_t			 nclaims;
	/* The locked leads as they were: id, then every slot's column. */
	struct db_text_rows	 old;
};

static bool
uses_keys(const struct lead_sync *s)
{
	return s->action != LEAD_CREATE_DUPLICATE;
}

/* Whether this action may create leads under a key (claims needed). */
static bool
uses_claims(const struct lead_sync *s)
{
	return s->action == LEAD_CREATE_ONLY ||
	    s->action == LEAD_CREATE_OR_UPDATE;
}

static int
cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return (a > b) - (a < b);
}

static int
cmp_i64(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;

	return (a > b) - (a < b);
}

static int
slot_of(const struct plan *pl, const struct lead_field *f)
{
	size_t i;

	for (i = 0; i < pl->nslots; i++)
		if (pl->slots[i] == f)
			return (int)i;
	return -1;
}

static void
skip_rec(struct lead_rec *rec, int code, const char *msg)
{
	rec->status = LEAD_SKIPPED;
	rec->code = code;
	rec->msg = msg;
}

/* A record's key while grouping. */
struct keyed {
	const char	*norm;
	int		 rec;
};

static int
cmp_keyed(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;
	int c = strcmp(a->norm, b->norm);

	return c != 0 ? c : (a->rec > b->rec) - (a->rec < b->rec);
}

static int
cmp_group_norm(const void *key, const void *g)
{
	return strcmp(key, ((const struct kgroup *)g)->norm);
}

/*
 * Builds what does not depend on the database: slots, key groups (sorted
 * by key, each bound with its first record's value) and claims.  Called
 * once per run of the transaction.
 */
static int
plan_init(struct plan *pl, struct lead_sync *s)
{
	struct arena *a = s->arena;
	struct lead_rec *rec;
	struct keyed *keyed;
	const char *norm;
	size_t i, j, nkeyed = 0, cap = 0;

	memset(pl, 0, sizeof(*pl));
	pl->s = s;
	pl->a = a;
	for (i = 0; i < s->n; i++)
		cap += s->recs[i].ncols;
	if ((pl->slots = arena_zalloc(a, (cap + 1) * sizeof(*pl->slots))) ==
	    NULL || (pl->groups = arena_zalloc(a, (s->n + 1) *
	    sizeof(*pl->groups))) == NULL || (pl->rec_group = arena_zalloc(a,
	    (s->n + 1) * sizeof(int))) == NULL || (pl->crows = arena_zalloc(a,
	    (s->n + 1) * sizeof(*pl->crows))) == NULL || (pl->urows =
	    arena_zalloc(a, (s->n + 1) * sizeof(*pl->urows))) == NULL ||
	    (pl->rec_crow = arena_zalloc(a, (s->n + 1) * sizeof(int))) ==
	    NULL || (pl->rec_urow = arena_zalloc(a, (s->n + 1) *
	    sizeof(int))) == NULL || (pl->claims = arena_zalloc(a, (s->n + 1) *
	    sizeof(*pl->claims))) == NULL || (keyed = arena_zalloc(a,
	    (s->n + 1) * sizeof(*keyed))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < s->n; i++) {
		rec = &s->recs[i];
		pl->rec_group[i] = pl->rec_crow[i] = pl->rec_urow[i] = -1;
		if (rec->skip)
			continue;
		rec->status = LEAD_PENDING;
		rec->id = 0;
		rec->code = 0;
		rec->msg = NULL;
		rec->has_m = false;
		for (j = 0; j < rec->ncols; j++)
			if (slot_of(pl, rec->cols[j].f) < 0)
				pl->slots[pl->nslots++] = rec->cols[j].f;
		if (!uses_keys(s))
			continue;
		if (rec->key == NULL || (norm = lead_key_norm(s->lookup,
		    rec->key, a)) == NULL) {
			/* The caller checks; refuse rather than guess. */
			skip_rec(rec, 1002, "Missing value for the lookup "
			    "field");
			continue;
		}
		keyed[nkeyed].norm = norm;
		keyed[nkeyed++].rec = (int)i;
	}
	qsort(keyed, nkeyed, sizeof(*keyed), cmp_keyed);
	for (i = 0; i < nkeyed; i++) {
		if (i == 0 || strcmp(keyed[i].norm, keyed[i - 1].norm) != 0) {
			struct kgroup *kg = &pl->groups[pl->ngroups++];

			kg->norm = keyed[i].norm;
			kg->key = s->recs[keyed[i].rec].key;
			kg->claim = lead_key_hash(s->lookup->name, kg->norm);
			kg->crow = kg->urow = -1;
			pl->claims[pl->nclaims++] = kg->claim;
		}
		pl->rec_group[keyed[i].rec] = (int)pl->ngroups - 1;
	}
	qsort(pl->claims, pl->nclaims, sizeof(*pl->claims), cmp_u64);
	for (i = j = 0; i < pl->nclaims; i++)
		if (j == 0 || pl->claims[j - 1] != pl->claims[i])
			pl->claims[j++] = pl->claims[i];
	pl->nclaims = j;
	return 0;
}

/*
 * Takes (del false) or drops (del true) the batch's claims: one INSERT
 * of every key, in order, or one DELETE.  The padding repeats the last
 * key, which ON DUPLICATE KEY UPDATE lets through; it still waits on a
 * claim another transaction holds, which is the point.
 *
 * Every claim lock is exclusive and on one record.  INSERT IGNORE took a
 * shared lock on a duplicate, and a claim deleted by a committed batch
 * stays a duplicate (a delete-marked record) until purge removes it: two
 * batches of that key took the shared lock together, then each waited
 * for the other's to make it exclusive.  ON DUPLICATE KEY UPDATE takes
 * the exclusive lock at once, so the second batch waits for the first.
 * The DELETE reaches each claim by primary key (FORCE INDEX): planned
 * as a scan of a claim table that the statistics think tiny, it locked
 * other batches' claims and the gaps between them.
 */
static int
claims(struct db *db, struct plan *pl, bool del)
{
	struct buf b;
	struct params p;
	size_t np = padded(pl->nclaims), i;
	int r = 0;

	if (pl->nclaims == 0)
		return 0;
	if (np == 0)
		return -REPO_ERR_INVALID;
	buf_init(&b, SQL_MAX_BYTES);
	params_init(&p, np);
	if (del) {
		/*
		 * Joined by primary key from a derived table of the keys:
		 * `k IN (...)` on the (nearly always empty) claim table is
		 * planned as a full scan.
		 */
		buf_adds(&b, "DELETE c FROM (SELECT ? AS k");
		for (i = 1; i < np; i++)
			buf_adds(&b, " UNION ALL SELECT ?");
		buf_adds(&b, ") AS v STRAIGHT_JOIN lead_claim AS c "
		    "FORCE INDEX (PRIMARY) ON c.k = v.k");
	} else {
		buf_adds(&b, "INSERT INTO lead_claim (k) VALUES ");
		for (i = 0; i < np; i++)
			buf_adds(&b, i == 0 ? "(?)" : ",(?)");
		buf_adds(&b, " ON DUPLICATE KEY UPDATE k = k");
	}
	for (i = 0; i < np; i++)
		if (i < pl->nclaims)
			params_u64(&p, pl->claims[i]);
		else if (del)
			params_null(&p);
		else
			params_u64(&p, pl->claims[pl->nclaims - 1]);
	r = exec_dyn(db, dyn(db, &b, "repo_leads_sync claims"), &p,
	    "repo_leads_sync claims");
	params_clear(&p);
	buf_clear(&b);
	return r;
}

/* The group whose key a fetched lookup value has. */
static int
group_of_text(struct plan *pl, const char *text, size_t len)
{
	struct lead_value v;
	const struct kgroup *g;
	const char *norm;

	memset(&v, 0, sizeof(v));
	if (text == NULL)
		return -1;
	if (pl->s->lookup->type == LF_INTEGER ||
	    pl->s->lookup->type == LF_SCORE ||
	    pl->s->lookup->type == LF_REFERENCE) {
		if (num_parse_i64n(text, len, INT64_MIN, INT64_MAX, &v.i) != 0)
			return -1;
		v.kind = LV_INT;
	} else {
		v.kind = LV_STR;
		v.s = text;
		v.len = len;
	}
	if ((norm = lead_key_norm(pl->s->lookup, &v, pl->a)) == NULL)
		return -1;
	g = bsearch(norm, pl->groups, pl->ngroups, sizeof(*pl->groups),
	    cmp_group_norm);
	return g != NULL ? (int)(g - pl->groups) : -1;
}

/*
 * Reads and locks (FOR UPDATE) the leads ids (sorted), one record each
 * by primary key, into *t: the id, then the column of every slot.  The
 * ids come from a derived table joined to lead by primary key (see
 * lookup()).  A locking read sees the newest committed row and the
 * transaction's own writes, never an older snapshot.
 */
static int
read_slots(struct db *db, struct plan *pl, const int64_t *ids, size_t n,
    const char *what, struct db_text_rows *t)
{
	struct buf b;
	struct params p;
	size_t np = padded(n), i;
	int r = -REPO_ERR_INVALID;

	memset(t, 0, sizeof(*t));
	buf_init(&b, SQL_MAX_BYTES);
	params_init(&p, np);
	if (np == 0)
		goto out;
	buf_adds(&b, "SELECT l.`id`");
	for (i = 0; i < pl->nslots; i++) {
		buf_adds(&b, ", ");
		if (!add_ident(&b, "l.", pl->slots[i]->name))
			goto out;
	}
	buf_adds(&b, " FROM (SELECT ? AS id");
	for (i = 1; i < np; i++)
		buf_adds(&b, " UNION ALL SELECT ?");
	buf_adds(&b, ") AS v STRAIGHT_JOIN lead AS l FORCE INDEX (PRIMARY) "
	    "ON l.`id` = v.id FOR UPDATE");
	for (i = 0; i < np; i++)
		if (i < n)
			params_i64(&p, ids[i]);
		else
			params_null(&p);
	r = query_text(db, dyn(db, &b, what), &p, pl->a, 1 + pl->nslots,
	    (size_t)-1, what, t);
out:
	params_clear(&p);
	buf_clear(&b);
	return r;
}

/*
 * Looks every key up (a consistent read: no gap locks), then locks the
 * single matches, one record each, in id order.  A lead deleted between
 * the two reads makes the run start again.
 *
 * The lock joins a derived table of the ids to lead by primary key, as
 * claims() deletes: `id IN (...) FOR UPDATE` of a few hundred ids in a
 * table the statistics think small was planned as a scan, which locked
 * every lead and the gap after the last, where every new lead goes, so
 * two batches that both went on to create leads waited for each other.
 */
static int
lookup(struct db *db, struct plan *pl)
{
	struct buf b;
	struct params p;
	struct db_text_rows t;
	int64_t *ids = NULL;
	size_t np = padded(pl->ngroups), i, nids = 0;
	int g, r = -REPO_ERR_INVALID;

	if (pl->ngroups == 0)
		return 0;
	buf_init(&b, SQL_MAX_BYTES);
	params_init(&p, np);
	if (np == 0)
		goto out;
	buf_adds(&b, "SELECT MIN(`id`), COUNT(*), MIN(`leadPartitionId`), ");
	if (!add_ident(&b, "", pl->s->lookup->name))
		goto out;
	buf_adds(&b, " FROM lead WHERE ");
	if (!add_ident(&b, "", pl->s->lookup->name))
		goto out;
	buf_adds(&b, " IN (");
	add_marks(&b, np);
	buf_adds(&b, ") GROUP BY ");
	if (!add_ident(&b, "", pl->s->lookup->name))
		goto out;
	for (i = 0; i < np; i++)
		if (i < pl->ngroups)
			params_value(&p, pl->s->lookup, pl->groups[i].key);
		else
			params_null(&p);
	if ((r = query_text(db, dyn(db, &b, "repo_leads_sync lookup"), &p,
	    pl->a, 4, (size_t)-1, "repo_leads_sync lookup", &t)) != 0)
		goto out;
	for (i = 0; i < t.count; i++) {
		struct kgroup *kg;

		g = group_of_text(pl, db_text_str(&t, i, 3),
		    t.len[i * t.ncol + 3]);
		if (g < 0) {
			/* Equal for MariaDB, not for lead_key_norm. */
			log_err("repo_leads_sync: a lookup row matches no key");
			continue;
		}
		kg = &pl->groups[g];
		if (kg->db_count == 0 || db_text_i64(&t, i, 0) < kg->db_id) {
			kg->db_id = db_text_i64(&t, i, 0);
			kg->db_part = db_text_i64(&t, i, 2);
		}
		kg->db_count += db_text_i64(&t, i, 1);
	}
	/* Lock the leads a single match will update. */
	ids = xcalloc(pl->ngroups + 1, sizeof(*ids));
	for (i = 0; i < pl->ngroups; i++)
		if (pl->groups[i].db_count == 1)
			ids[nids++] = pl->groups[i].db_id;
	r = 0;
	if (nids == 0)
		goto out;
	qsort(ids, nids, sizeof(*ids), cmp_i64);
	if ((r = read_slots(db, pl, ids, nids, "repo_leads_sync lock",
	    &pl->old)) != 0)
		goto out;
	if (pl->old.count != nids) {
		log_info("repo_leads_sync: a matched lead went away; again");
		r = -REPO_ERR_DEADLOCK;
	}
out:
	free(ids);
	params_clear(&p);
	buf_clear(&b);
	return r;
}

/* A new row (create or update) with empty values. */
static int
new_wrow(struct plan *pl, bool create, int *idx)
{
	struct wrow *w = create ? &pl->crows[pl->ncrows] :
	    &pl->urows[pl->nurows];

	memset(w, 0, sizeof(*w));
	w->created = create;
	if ((w->vals = arena_zalloc(pl->a, (pl->nslots + 1) *
	    sizeof(*w->vals))) == NULL)
		return -REPO_ERR_INTERNAL;
	*idx = create ? (int)pl->ncrows++ : (int)pl->nurows++;
	return 0;
}

/* Writes the record's values over the row's (a later record wins). */
static void
overlay(struct plan *pl, struct wrow *w, const struct lead_rec *rec)
{
	size_t j;
	int k;

	for (j = 0; j < rec->ncols; j++)
		if ((k = slot_of(pl, rec->cols[j].f)) >= 0)
			w->vals[k] = rec->cols[j].v;
}

/* Decides each record's fate, in input order (§5.4 table). */
static int
decide(struct plan *pl)
{
	struct lead_sync *s = pl->s;
	struct lead_rec *rec;
	struct kgroup *kg;
	size_t i;
	int idx, r;

	for (i = 0; i < s->n; i++) {
		rec = &s->recs[i];
		if (rec->skip || rec->status == LEAD_SKIPPED)
			continue;
		kg = pl->rec_group[i] >= 0 ? &pl->groups[pl->rec_group[i]] :
		    NULL;
		if (s->action == LEAD_CREATE_DUPLICATE || kg == NULL) {
			if (s->action != LEAD_CREATE_DUPLICATE) {
				skip_rec(rec, 1002, "Missing value for the "
				    "lookup field");
				continue;
			}
			if ((r = new_wrow(pl, true, &idx)) != 0)
				return r;
			overlay(pl, &pl->crows[idx], rec);
			pl->rec_crow[i] = idx;
			rec->status = LEAD_CREATED;
			continue;
		}
		if (s->action == LEAD_CREATE_ONLY) {
			if (kg->db_count > 0 || kg->crow >= 0) {
				skip_rec(rec, 1005, "Lead already exists");
				continue;
			}
		} else if (kg->db_count > 1) {
			/* A real instance's wording (the table's differs). */
			skip_rec(rec, 1007, "Multiple lead match lookup "
			    "criteria");
			continue;
		} else if (kg->db_count == 1) {
			if (s->partition != 0 && kg->db_part != s->partition) {
				skip_rec(rec, 1010, "Partition update not "
				    "allowed");
				continue;
			}
			if (kg->urow < 0) {
				if ((r = new_wrow(pl, false, &idx)) != 0)
					return r;
				kg->urow = idx;
				pl->urows[idx].id = kg->db_id;
			}
			overlay(pl, &pl->urows[kg->urow], rec);
			pl->rec_urow[i] = kg->urow;
			rec->id = kg->db_id;
			rec->status = LEAD_UPDATED;
			continue;
		} else if (kg->crow >= 0 && s->action ==
		    LEAD_CREATE_OR_UPDATE) {
			/* Created earlier in this batch: update that lead. */
			overlay(pl, &pl->crows[kg->crow], rec);
			pl->rec_crow[i] = kg->crow;
			rec->status = LEAD_UPDATED;
			continue;
		} else if (s->action == LEAD_UPDATE_ONLY) {
			skip_rec(rec, 1004, "Lead not found");
			continue;
		}
		if ((r = new_wrow(pl, true, &idx)) != 0)
			return r;
		overlay(pl, &pl->crows[idx], rec);
		kg->crow = idx;
		pl->rec_crow[i] = idx;
		rec->status = LEAD_CREATED;
	}
	return 0;
}

/* Rows of one statement so its placeholders stay under the limit. */
static size_t
rows_per_stmt(size_t per_row)
{
	size_t n = MAX_STMT_PARAMS / (per_row == 0 ? 1 : per_row);

	return n == 0 ? 1 : n;
}

/*
 * Creates the new leads: INSERT ... RETURNING id of every row, with the
 * union of the columns given; a column a row lacks gets its default
 * (false for booleans, NULL otherwise), the partition the named one or
 * the default.
 */
static int
create_rows(struct db *db, struct plan *pl)
{
	struct buf b;
	struct params p;
	struct db_text_rows t;
	bool *used = NULL;
	int64_t part = pl->s->partition != 0 ? pl->s->partition :
	    DEFAULT_PARTITION;
	size_t ncols = 0, per, i, k, start, end;
	bool part_slot = false;
	int r = 0;

	if (pl->ncrows == 0)
		return 0;
	used = xcalloc(pl->nslots + 1, sizeof(*used));
	for (i = 0; i < pl->ncrows; i++)
		for (k = 0; k < pl->nslots; k++)
			if (pl->crows[i].vals[k].kind != LV_ABSENT &&
			    !used[k]) {
				used[k] = true;
				ncols++;
			}
	for (k = 0; k < pl->nslots; k++)
		if (used[k] && strcmp(pl->slots[k]->name,
		    "leadPartitionId") == 0)
			part_slot = true;
	per = ncols + (part_slot ? 0 : 1);
	buf_init(&b, SQL_MAX_BYTES);
	memset(&p, 0, sizeof(p));
	for (start = 0; start < pl->ncrows; start = end) {
		end = start + rows_per_stmt(per);
		if (end > pl->ncrows)
			end = pl->ncrows;
		buf_reset(&b);
		params_clear(&p);
		params_init(&p, per * (end - start));
		buf_adds(&b, "INSERT INTO lead (`createdAt`, `updatedAt`");
		if (!part_slot)
			buf_adds(&b, ", `leadPartitionId`");
		for (k = 0; k < pl->nslots; k++)
			if (used[k]) {
				buf_adds(&b, ", ");
				if (!add_ident(&b, "", pl->slots[k]->name)) {
					r = -REPO_ERR_INVALID;
					goto out;
				}
			}
		buf_adds(&b, ") VALUES ");
		for (i = start; i < end; i++) {
			buf_adds(&b, i == start ? "(" : ",(");
			buf_adds(&b, "UTC_TIMESTAMP(), UTC_TIMESTAMP()");
			if (!part_slot) {
				buf_adds(&b, ",?");
				params_i64(&p, part);
			}
			for (k = 0; k < pl->nslots; k++)
				if (used[k]) {
					buf_adds(&b, ",?");
					params_value(&p, pl->slots[k],
					    &pl->crows[i].vals[k]);
				}
			buf_addc(&b, ')');
		}
		buf_adds(&b, " RETURNING `id`");
		if ((r = query_text(db, dyn(db, &b, "repo_leads_sync insert"),
		    &p, pl->a, 1, end - start, "repo_leads_sync insert",
		    &t)) != 0)
			goto out;
		if (t.count != end - start) {
			log_err("repo_leads_sync: %zu ids for %zu new leads",
			    t.count, end - start);
			r = -REPO_ERR_INTERNAL;
			goto out;
		}
		for (i = start; i < end; i++)
			pl->crows[i].id = db_text_i64(&t, i - start, 0);
	}
out:
	params_clear(&p);
	buf_clear(&b);
	free(used);
	return r;
}

/* Whether two update rows set the same columns. */
static bool
same_cols(const struct plan *pl, const struct wrow *x, const struct wrow *y)
{
	size_t k;

	for (k = 0; k < pl->nslots; k++)
		if ((x->vals[k].kind == LV_ABSENT) !=
		    (y->vals[k].kind == LV_ABSENT))
			return false;
	return true;
}

/*
 * Updates the matched leads: per distinct set of columns, one
 * INSERT ... ON DUPLICATE KEY UPDATE of those columns and updatedAt.
 * The rows exist and are locked (lookup), so nothing is inserted;
 * createdAt is in the VALUES only because the column has no default.
 */
static int
update_rows(struct db *db, struct plan *pl)
{
	struct buf b;
	struct params p;
	size_t *grp = NULL, ng, ncols, i, j, k, start, end;
	struct wrow *w;
	int r = 0;

	if (pl->nurows == 0)
		return 0;
	buf_init(&b, SQL_MAX_BYTES);
	memset(&p, 0, sizeof(p));
	grp = xcalloc(pl->nurows, sizeof(*grp));
	for (i = 0; i < pl->nurows; i++) {
		w = &pl->urows[i];
		if (w->done)
			continue;
		ng = 0;
		for (j = i; j < pl->nurows; j++)
			if (!pl->urows[j].done && same_cols(pl, w,
			    &pl->urows[j])) {
				pl->urows[j].done = true;
				grp[ng++] = j;
			}
		ncols = 0;
		for (k = 0; k < pl->nslots; k++)
			if (w->vals[k].kind != LV_ABSENT)
				ncols++;
		for (start = 0; start < ng; start = end) {
			end = start + rows_per_stmt(ncols + 1);
			if (end > ng)
				end = ng;
			buf_reset(&b);
			params_clear(&p);
			params_init(&p, (ncols + 1) * (end - start));
			buf_adds(&b, "INSERT INTO lead (`id`, `createdAt`, "
			    "`updatedAt`");
			for (k = 0; k < pl->nslots; k++)
				if (w->vals[k].kind != LV_ABSENT) {
					buf_adds(&b, ", ");
					if (!add_ident(&b, "",
					    pl->slots[k]->name)) {
						r = -REPO_ERR_INVALID;
						goto out;
					}
				}
			buf_adds(&b, ") VALUES ");
			for (j = start; j < end; j++) {
				struct wrow *u = &pl->urows[grp[j]];

				buf_adds(&b, j == start ? "(" : ",(");
				buf_adds(&b, "?, UTC_TIMESTAMP(), "
				    "UTC_TIMESTAMP()");
				params_i64(&p, u->id);
				for (k = 0; k < pl->nslots; k++)
					if (u->vals[k].kind != LV_ABSENT) {
						buf_adds(&b, ",?");
						params_value(&p, pl->slots[k],
						    &u->vals[k]);
					}
				buf_addc(&b, ')');
			}
			buf_adds(&b, " ON DUPLICATE KEY UPDATE ");
			for (k = 0; k < pl->nslots; k++)
				if (w->vals[k].kind != LV_ABSENT) {
					add_ident(&b, "", pl->slots[k]->name);
					buf_adds(&b, " = VALUES(");
					add_ident(&b, "", pl->slots[k]->name);
					buf_adds(&b, "), ");
				}
			buf_adds(&b, "`updatedAt` = VALUES(`updatedAt`)");
			if ((r = exec_dyn(db, dyn(db, &b,
			    "repo_leads_sync update"), &p,
			    "repo_leads_sync update")) != 0)
				goto out;
		}
	}
out:
	free(grp);
	params_clear(&p);
	buf_clear(&b);
	return r;
}

/* One activity of a multi-row insert. */
struct act_row {
	int64_t		 lead_id;
	int64_t		 primary_id;	/* 0: NULL */
	const char	*primary_value;	/* NULL: NULL */
	const char	*attrs;		/* NULL: the statement's */
};

/*
 * Inserts n activities of one type in one statement (more only past the
 * placeholder limit), each with its own attributes or else attrs.
 */
static int
insert_activities(struct db *db, int type, const struct act_row *rows,
    size_t n, const char *attrs)
{
	struct buf b;
	struct params p;
	size_t i, start, end;
	int r = 0;

	buf_init(&b, SQL_MAX_BYTES);
	memset(&p, 0, sizeof(p));
	for (start = 0; start < n; start = end) {
		end = start + rows_per_stmt(5);
		if (end > n)
			end = n;
		buf_reset(&b);
		params_clear(&p);
		params_init(&p, 5 * (end - start));
		buf_adds(&b, "INSERT INTO activity (lead_id, activity_type_id, "
		    "activity_date, primary_value_id, primary_value, "
		    "attributes) VALUES ");
		for (i = start; i < end; i++) {
			buf_adds(&b, i == start ? "(?, ?, UTC_TIMESTAMP(3), ?, "
			    "?, ?)" : ",(?, ?, UTC_TIMESTAMP(3), ?, ?, ?)");
			params_i64(&p, rows[i].lead_id);
			params_i64(&p, type);
			if (rows[i].primary_id != 0)
				params_i64(&p, rows[i].primary_id);
			else
				params_null(&p);
			params_str(&p, rows[i].primary_value);
			params_str(&p, rows[i].attrs != NULL ? rows[i].attrs :
			    attrs != NULL ? attrs : "{}");
		}
		if ((r = exec_dyn(db, dyn(db, &b, "repo_leads_sync activity"),
		    &p, "repo_leads_sync activity")) != 0)
			break;
	}
	params_clear(&p);
	buf_clear(&b);
	return r;
}

/* The text of a string value of slot name in w, or NULL. */
static const struct lead_value *
slot_str(const struct plan *pl, const struct wrow *w, const char *name)
{
	size_t k;

	for (k = 0; k < pl->nslots; k++)
		if (strcmp(pl->slots[k]->name, name) == 0)
			return w->vals[k].kind == LV_STR && w->vals[k].len > 0 ?
			    &w->vals[k] : NULL;
	return NULL;
}

/*
 * A created lead's full name, first and last name with a space between
 * (Delete Lead's), cut to the column's 255 bytes at a character; NULL
 * when it has neither.
 */
static const char *
full_name(struct plan *pl, const struct wrow *w)
{
	const struct lead_value *f = slot_str(pl, w, "firstName");
	const struct lead_value *l = slot_str(pl, w, "lastName");
	size_t n = 255;
	char *s;

	if (f == NULL && l == NULL)
		return NULL;
	s = arena_printf(pl->a, "%.*s%s%.*s", f != NULL ? (int)f->len : 0,
	    f != NULL ? f->s : "", f != NULL && l != NULL ? " " : "",
	    l != NULL ? (int)l->len : 0, l != NULL ? l->s : "");
	if (s == NULL || strlen(s) <= n)
		return s;
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;		/* not inside a UTF-8 sequence */
	s[n] = '\0';
	return s;
}

/* "New Lead" (12) for every lead created. */
static int
new_lead_activities(struct db *db, struct plan *pl)
{
	struct act_row *rows;
	size_t i;
	int r;

	if (pl->ncrows == 0)
		return 0;
	rows = xcalloc(pl->ncrows, sizeof(*rows));
	for (i = 0; i < pl->ncrows; i++) {
		rows[i].lead_id = pl->crows[i].id;
		rows[i].primary_id = pl->crows[i].id;
		rows[i].primary_value = full_name(pl, &pl->crows[i]);
	}
	r = insert_activities(db, ACT_NEW_LEAD, rows, pl->ncrows,
	    pl->s->new_lead_attrs);
	free(rows);
	return r;
}

/* The row of t (read_slots, sorted by id) whose id is id, or -1. */
static long
slots_row(const struct db_text_rows *t, int64_t id)
{
	size_t lo = 0, hi = t->count, mid;
	int64_t v;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((v = db_text_i64(t, mid, 0)) == id)
			return (long)mid;
		if (v < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/*
 * Column k of row i of t as an activity shows a lead's value: the text
 * of the value a lead read answers (a boolean "true" or "false", a time
 * "YYYY-MM-DDTHH:MM:SSZ"), or NULL for none.
 */
static const char *
slot_text(struct plan *pl, const struct db_text_rows *t, size_t i, size_t k)
{
	struct json_object *o;
	const char *s;

	o = lead_value_json(pl->slots[k], db_text_str(t, i, 1 + k),
	    t->len[i * t->ncol + 1 + k]);
	if (o == NULL)
		return NULL;
	s = arena_strdup(pl->a, json_object_get_string(o));
	json_object_put(o);
	return s;
}

/*
 * "Change Data Value" (13) for every field of an updated lead whose value
 * the batch changed, its old value read when the lead was locked and its
 * new one read back after the updates: one locking read of the same rows
 * (held already, so no new lock and no new order) and one multi-row
 * INSERT.  A lead the batch created has its New Lead instead.
 */
static int
change_activities(struct db *db, struct plan *pl)
{
	struct db_text_rows now;
	struct act_row *rows = NULL;
	struct json_object *o;
	const char *reason, *source, *was, *is;
	int64_t *ids = NULL;
	const size_t key = 0;
	size_t i, k, n = 0, nrows = 0, cap;
	long oi, ni;
	int r = 0;

	if (pl->nurows == 0)
		return 0;
	reason = pl->s->change_reason != NULL ? pl->s->change_reason :
	    CHANGE_API;
	source = pl->s->change_source != NULL ? pl->s->change_source :
	    CHANGE_API;
	ids = xcalloc(pl->nurows, sizeof(*ids));
	for (i = 0; i < pl->nurows; i++)
		ids[n++] = pl->urows[i].id;
	qsort(ids, n, sizeof(*ids), cmp_i64);
	if ((r = read_slots(db, pl, ids, n, "repo_leads_sync changes",
	    &now)) != 0 || (r = db_text_sort(&now, pl->a, &key, 1)) != 0 ||
	    (r = db_text_sort(&pl->old, pl->a, &key, 1)) != 0)
		goto out;
	cap = pl->nurows * (pl->nslots + 1);
	rows = xcalloc(cap, sizeof(*rows));
	for (i = 0; i < pl->nurows; i++) {
		struct wrow *w = &pl->urows[i];

		if ((oi = slots_row(&pl->old, w->id)) < 0 ||
		    (ni = slots_row(&now, w->id)) < 0) {
			r = -REPO_ERR_INTERNAL;
			goto out;
		}
		for (k = 0; k < pl->nslots; k++) {
			if (w->vals[k].kind == LV_ABSENT)
				continue;
			was = slot_text(pl, &pl->old, (size_t)oi, k);
			is = slot_text(pl, &now, (size_t)ni, k);
			if ((was == NULL && is == NULL) || (was != NULL &&
			    is != NULL && strcmp(was, is) == 0))
				continue;
			o = json_object_new_object();
			json_object_object_add(o, "New Value", is != NULL ?
			    json_object_new_string(is) : NULL);
			json_object_object_add(o, "Old Value", was != NULL ?
			    json_object_new_string(was) : NULL);
			json_object_object_add(o, "Reason",
			    json_object_new_string(reason));
			json_object_object_add(o, "Source",
			    json_object_new_string(source));
			rows[nrows].lead_id = w->id;
			rows[nrows].primary_id = pl->slots[k]->attr_id;
			rows[nrows].primary_value = pl->slots[k]->display_name;
			rows[nrows].attrs = arena_strdup(pl->a,
			    json_object_to_json_string_ext(o,
			    JSON_C_TO_STRING_PLAIN |
			    JSON_C_TO_STRING_NOSLASHESCAPE));
			json_object_put(o);
			if (rows[nrows++].attrs == NULL) {
				r = -REPO_ERR_INTERNAL;
				goto out;
			}
		}
	}
	if (nrows > 0)
		r = insert_activities(db, ACT_CHANGE_DATA_VALUE, rows, nrows,
		    NULL);
out:
	free(rows);
	free(ids);
	return r;
}

/* Copies the ids of the rows written into the records. */
static void
assign_ids(struct plan *pl)
{
	size_t i;

	for (i = 0; i < pl->s->n; i++)
		if (pl->rec_crow[i] >= 0)
			pl->s->recs[i].id = pl->crows[pl->rec_crow[i]].id;
		else if (pl->rec_urow[i] >= 0)
			pl->s->recs[i].id = pl->urows[pl->rec_urow[i]].id;
}

/* The distinct leads the batch wrote, each with whether it was created. */
static size_t
written_leads(struct plan *pl, struct act_row *rows, bool *created)
{
	struct lead_rec *rec;
	size_t i, j, n = 0;

	for (i = 0; i < pl->s->n; i++) {
		rec = &pl->s->recs[i];
		if (rec->skip || (rec->status != LEAD_CREATED &&
		    rec->status != LEAD_UPDATED))
			continue;
		for (j = 0; j < n; j++)
			if (rows[j].lead_id == rec->id)
				break;
		if (j == n) {
			rows[n].lead_id = rec->id;
			created[n++] = false;
		}
		if (pl->rec_crow[i] >= 0)
			created[j] = true;
	}
	return n;
}

/*
 * Push Lead: makes every lead written a member of the program (a new
 * member at the given or first status, acquiredBy when the push created
 * the lead; an existing one moves forward to a named status, never
 * back), records one "Push Lead to Marketo" activity per lead, and reads
 * the memberships back into the records.
 */
static int
push_members(struct db *db, struct plan *pl)
{
	const struct lead_push *pu = pl->s->push;
	const struct repo_program *pg = pu->program;
	struct act_row *rows = NULL;
	bool *created = NULL;
	struct buf b;
	struct params p;
	struct db_text_rows t;
	int64_t step = 0, success = 0;
	size_t n, i, j, np;
	int r = 0;

	buf_init(&b, SQL_MAX_BYTES);
	memset(&p, 0, sizeof(p));
	rows = xcalloc(pl->s->n + 1, sizeof(*rows));
	created = xcalloc(pl->s->n + 1, sizeof(*created));
	if ((n = written_leads(pl, rows, created)) == 0)
		goto out;
	if (pu->status >= 0 && (size_t)pu->status < pg->nstatuses) {
		step = pg->statuses[pu->status].step;
		success = pg->statuses[pu->status].success;
	}
	params_init(&p, 5 * n);
	buf_adds(&b, "INSERT INTO program_member (program_id, lead_id, "
	    "status_step, acquired_by, reached_success, is_exhausted, "
	    "membership_date, updated_at) VALUES ");
	for (i = 0; i < n; i++) {
		buf_adds(&b, i == 0 ? "(?, ?, ?, ?, ?, 0, UTC_TIMESTAMP(), "
		    "UTC_TIMESTAMP())" : ",(?, ?, ?, ?, ?, 0, UTC_TIMESTAMP(), "
		    "UTC_TIMESTAMP())");
		params_i64(&p, pg->id);
		params_i64(&p, rows[i].lead_id);
		params_i64(&p, step);
		params_i64(&p, created[i] ? 1 : 0);
		params_i64(&p, success);
	}
	/* Assignments run left to right: status_step goes last. */
	if (pu->status_given)
		buf_adds(&b, " ON DUPLICATE KEY UPDATE reached_success = "
		    "reached_success OR (VALUES(status_step) > status_step AND "
		    "VALUES(reached_success)), updated_at = "
		    "IF(VALUES(status_step) > status_step, VALUES(updated_at), "
		    "updated_at), status_step = GREATEST(status_step, "
		    "VALUES(status_step))");
	else
		buf_adds(&b, " ON DUPLICATE KEY UPDATE program_id = "
		    "program_id");
	if ((r = exec_dyn(db, dyn(db, &b, "repo_leads_sync members"), &p,
	    "repo_leads_sync members")) != 0)
		goto out;
	for (i = 0; i < n; i++) {
		rows[i].primary_id = pg->id;
		rows[i].primary_value = pg->name;
	}
	if ((r = insert_activities(db, ACT_PUSH_LEAD, rows, n, pu->attrs)) !=
	    0)
		goto out;
	np = padded(n);
	buf_reset(&b);
	params_clear(&p);
	params_init(&p, np + 1);
	buf_adds(&b, "SELECT pm.lead_id, " MEMBERSHIP_COLUMNS MEMBERSHIP_JOIN
	    " WHERE pm.program_id = ? AND pm.lead_id IN (");
	add_marks(&b, np);
	buf_addc(&b, ')');
	params_i64(&p, pg->id);
	for (i = 0; i < np; i++)
		if (i < n)
			params_i64(&p, rows[i].lead_id);
		else
			params_null(&p);
	if ((r = query_text(db, dyn(db, &b, "repo_leads_sync membership"), &p,
	    pl->a, 1 + MEMBERSHIP_NCOLS, n, "repo_leads_sync membership",
	    &t)) != 0)
		goto out;
	for (i = 0; i < t.count; i++)
		for (j = 0; j < pl->s->n; j++) {
			struct lead_rec *rec = &pl->s->recs[j];

			if (rec->skip || rec->id != db_text_i64(&t, i, 0) ||
			    (rec->status != LEAD_CREATED &&
			    rec->status != LEAD_UPDATED))
				continue;
			fill_membership(&t, i, 1, &rec->m);
			rec->has_m = true;
		}
out:
	free(rows);
	free(created);
	params_clear(&p);
	buf_clear(&b);
	return r;
}

/*
 * Submit Form: the "Fill Out Form" activity of the lead written, and the
 * cookie, associated with it unless it belongs to a lead already.
 */
static int
form_fill(struct db *db, struct plan *pl)
{
	const struct lead_form_fill *ff = pl->s->form;
	struct activity act;
	size_t i;
	int r = 0;

	for (i = 0; i < pl->s->n; i++) {
		struct lead_rec *rec = &pl->s->recs[i];

		if (rec->skip || (rec->status != LEAD_CREATED &&
		    rec->status != LEAD_UPDATED))
			continue;
		memset(&act, 0, sizeof(act));
		act.lead_id = rec->id;
		act.type = ACT_FILL_OUT_FORM;
		act.primary_id = ff->form->id;
		act.primary_value = ff->form->name;
		act.attributes = ff->attrs;
		if ((r = repo_activity_insert(db, &act)) != 0)
			goto out;
		if (ff->cookie == NULL)
			continue;
		if ((r = repo_cookies_add_new(db, rec->id, ff->cookie)) != 0)
			goto out;
	}
out:
	return r;
}

/* One run of the upsert transaction. */
static int
sync_tx(struct db *db, void *arg)
{
	struct lead_sync *s = arg;
	struct plan pl;
	int r;

	if ((r = plan_init(&pl, s)) != 0)
		return r;
	if (uses_claims(s) && (r = claims(db, &pl, false)) != 0)
		return r;
	if (uses_keys(s) && (r = lookup(db, &pl)) != 0)
		return r;
	if ((r = decide(&pl)) != 0 ||
	    (r = create_rows(db, &pl)) != 0 ||
	    (r = update_rows(db, &pl)) != 0 ||
	    (r = new_lead_activities(db, &pl)) != 0 ||
	    (r = change_activities(db, &pl)) != 0)
		return r;
	assign_ids(&pl);
	if (s->push != NULL && (r = push_members(db, &pl)) != 0)
		return r;
	if (s->form != NULL && (r = form_fill(db, &pl)) != 0)
		return r;
	if (uses_claims(s) && (r = claims(db, &pl, true)) != 0)
		return r;
	return 0;
}

/* See repo_leads.h. */
int
repo_leads_sync(struct db *db, struct lead_sync *s)
{
	size_t i;
	bool any = false;

	if (s->n > MAX_BATCH_RECORDS || (uses_keys(s) && s->lookup == NULL))
		return -REPO_ERR_INVALID;
	for (i = 0; i < s->n; i++)
		if (!s->recs[i].skip)
			any = true;
	if (!any)
		return 0;
	return db_run_tx(db, sync_tx, s, false);
}

/* ---- Delete -------------------------------------------------------- */

struct del_run {
	struct lead_del	*recs;
	size_t		 n;
	int64_t		*ids;		/* distinct ids asked for */
	size_t		 nids;
};

/* The tables whose rows name a lead, deleted with it. */
static const char *const del_tables[] = {
	"program_member", "list_member", "campaign_member", "lead_cookie",
};

/* Runs "<head> IN (ids padded)" with the ids of d. */
static int
del_in(struct db *db, const char *head, const int64_t *ids, size_t n,
    bool fetch, struct arena *a, struct db_text_rows *t)
{
	struct buf b;
	struct params p;
	size_t np = padded(n), i;
	int r;

	buf_init(&b, SQL_MAX_BYTES);
	params_init(&p, np);
	buf_adds(&b, head);
	buf_adds(&b, " IN (");
	add_marks(&b, np);
	buf_addc(&b, ')');
	if (fetch)
		buf_adds(&b, " FOR UPDATE");
	for (i = 0; i < np; i++)
		if (i < n)
			params_i64(&p, ids[i]);
		else
			params_null(&p);
	if (fetch)
		r = query_text(db, dyn(db, &b, "repo_leads_delete"), &p, a, 1,
		    n, "repo_leads_delete", t);
	else
		r = exec_dyn(db, dyn(db, &b, "repo_leads_delete"), &p,
		    "repo_leads_delete");
	params_clear(&p);
	buf_clear(&b);
	return r;
}

/*
 * "Delete Lead" (37) of each lead deleted, read before the row goes:
 * primary attribute the lead's id and full name (Get Deleted Leads).
 */
#define DELETE_LEAD_ACTIVITIES \
	"INSERT INTO activity (lead_id, activity_type_id, activity_date, " \
	"primary_value_id, primary_value, attributes) SELECT `id`, 37, " \
	"UTC_TIMESTAMP(3), `id`, LEFT(TRIM(CONCAT_WS(' ', `firstName`, " \
	"`lastName`)), 255), '{}' FROM lead WHERE `id`"

static int
delete_tx(struct db *db, void *arg)
{
	struct del_run *d = arg;
	struct db_text_rows t;
	struct arena a;
	int64_t *found = NULL;
	size_t i, j, nfound = 0;
	char head[64];
	int r;

	arena_init(&a);
	for (i = 0; i < d->n; i++)
		d->recs[i].deleted = false;
	if ((r = del_in(db, "SELECT `id` FROM lead WHERE `id`", d->ids,
	    d->nids, true, &a, &t)) != 0)
		goto out;
	found = xcalloc(t.count + 1, sizeof(*found));
	for (i = 0; i < t.count; i++)
		found[nfound++] = db_text_i64(&t, i, 0);
	if (nfound == 0)
		goto out;
	if ((r = del_in(db, DELETE_LEAD_ACTIVITIES, found, nfound, false,
	    NULL, NULL)) != 0)
		goto out;
	if ((r = del_in(db, "DELETE FROM lead WHERE `id`", found, nfound,
	    false, NULL, NULL)) != 0)
		goto out;
	for (i = 0; i < sizeof(del_tables) / sizeof(del_tables[0]); i++) {
		snprintf(head, sizeof(head), "DELETE FROM %s WHERE lead_id",
		    del_tables[i]);
		if ((r = del_in(db, head, found, nfound, false, NULL,
		    NULL)) != 0)
			goto out;
	}
	/* In input order: the first of duplicates deletes, the rest miss. */
	for (i = 0; i < nfound; i++)
		for (j = 0; j < d->n; j++)
			if (!d->recs[j].skip && d->recs[j].id == found[i]) {
				d->recs[j].deleted = true;
				break;
			}
out:
	free(found);
	arena_clear(&a);
	return r;
}

/* See repo_leads.h. */
int
repo_leads_delete(struct db *db, struct lead_del *recs, size_t n)
{
	struct del_run d;
	size_t i, j;
	int r;

	memset(&d, 0, sizeof(d));
	if (n > MAX_BATCH_RECORDS)
		return -REPO_ERR_INVALID;
	d.recs = recs;
	d.n = n;
	d.ids = xcalloc(n + 1, sizeof(*d.ids));
	for (i = 0; i < n; i++) {
		if (recs[i].skip)
			continue;
		for (j = 0; j < d.nids; j++)
			if (d.ids[j] == recs[i].id)
				break;
		if (j == d.nids)
			d.ids[d.nids++] = recs[i].id;
	}
	r = d.nids == 0 ? 0 : db_run_tx(db, delete_tx, &d, false);
	free(d.ids);
	return r;
}

/* ---- Lead links of custom object records ------------------------- */

struct found_ctx {
	const struct lead_value	*keys;
	size_t			 n;
	bool			 by_email;
	bool			*found;
};

static int
found_cb(void *arg, char **v, const unsigned long *lens)
{
	struct found_ctx *x = arg;
	int64_t id = x->by_email ? 0 : db_col_i64(v[0]);
	size_t i;

	for (i = 0; i < x->n; i++)
		if (x->by_email ? x->keys[i].len == lens[0] &&
		    strncasecmp(x->keys[i].s, v[0], lens[0]) == 0 :
		    x->keys[i].i == id)
			x->found[i] = true;
	return 0;
}

/* See repo_leads.h. */
int
repo_leads_exist(struct db *db, const struct lead_value *keys,
    size_t n, bool by_email, bool *found)
{
	struct found_ctx x = { .keys = keys, .n = n, .by_email = by_email,
	    .found = found };
	struct buf q;
	MYSQL_BIND *in = NULL;
	unsigned long *lens = NULL;
	MYSQL_STMT *st;
	size_t i;
	int r = -REPO_ERR_INTERNAL;

	buf_init(&q, SQL_MAX_BYTES);
	for (i = 0; i < n; i++)
		found[i] = false;
	if (n == 0) {
		r = 0;
		goto out;
	}
	buf_adds(&q, by_email ? "SELECT `email` FROM `lead` WHERE `email` IN (" :
	    "SELECT `id` FROM `lead` WHERE `id` IN (");
	for (i = 0; i < n; i++)
		buf_adds(&q, i == 0 ? "?" : ", ?");
	buf_adds(&q, ")");
	if (!buf_ok(&q))
		goto out;
	in = xcalloc(n, sizeof(*in));
	lens = xcalloc(n, sizeof(*lens));
	for (i = 0; i < n; i++) {
		if (by_email) {
			lens[i] = (unsigned long)keys[i].len;
			bind_str(&in[i], keys[i].s, &lens[i]);
		} else
			bind_i64(&in[i], &keys[i].i);
	}
	if ((r = db_ensure(db)) != 0)
		goto out;
	if ((st = db_stmt_sql(db, q.data, "repo_leads_exist")) ==
	    NULL) {
		r = db_stmt_sql_err(db);
		goto out;
	}
	if ((r = db_exec(db, st, in, "repo_leads_exist")) == 0)
		r = db_fetch_rows(db, st, 1, found_cb, &x,
		    "repo_leads_exist");
out:
	free(in);
	free(lens);
	buf_clear(&q);
	return r;
}

/* ---- Members of a static list ------------------------------------ */

/* See repo_leads.h. */
int
repo_leads_list_by_list(struct db *db, struct arena *a,
    const struct lead_field *const *cols, size_t ncols, int64_t list_id,
    int64_t after, int limit, struct lead_rows *out)
{
	struct buf b;
	struct params p;
	struct db_text_rows t;
	int r = -REPO_ERR_INVALID;

	memset(out, 0, sizeof(*out));
	buf_init(&b, SQL_MAX_BYTES);
	params_init(&p, 3);
	if (limit < 1 || (r = db_ensure(db)) != 0)
		goto out;
	buf_adds(&b, "SELECT l.`id`");
	r = -REPO_ERR_INVALID;
	if (!add_cols(&b, "l.", cols, ncols))
		goto out;
	/* By the list_member key (list_id, lead_id): a range of it. */
	buf_adds(&b, " FROM list_member lm JOIN lead l ON l.`id` = lm.lead_id "
	    "WHERE lm.list_id = ? AND lm.lead_id > ? ORDER BY lm.lead_id "
	    "LIMIT ?");
	params_i64(&p, list_id);
	params_i64(&p, after);
	params_i64(&p, limit);
	if ((r = query_text(db, dyn(db, &b, "repo_leads_list_by_list"), &p, a,
	    1 + ncols, (size_t)limit, "repo_leads_list_by_list", &t)) == 0)
		r = to_lead_rows(&t, a, ncols, false, out);
out:
	params_clear(&p);
	buf_clear(&b);
	return r;
}
