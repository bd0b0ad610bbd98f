/*
 * Leads: the reads, Delete Leads and the lead link check (repo_leads.h);
 * the upsert is in repo_leads_sync.c.
 *
 * The statements name lead columns from the field catalogue or carry one
 * placeholder per value of a batch, so their text is built here
 * (repo_lead_sql.h) and prepared through db_stmt_sql, which caches it per
 * connection.  IN lists are padded with NULL to one of a few sizes (NULL
 * never equals anything) so the cache holds few variants.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <mysql.h>

#include "db/bind.h"
#include "db/params.h"
#include "db/pool.h"
#include "db/query.h"
#include "bounds.h"
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_lead_sql.h"
#include "repo/repo_leads.h"
#include "repo/repo_programs.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/xmalloc.h"

/* ---- Reads --------------------------------------------------------- */

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
			repo_programs_membership_fill(t, i, c, lr->m);
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
	buf_init(&b, LEAD_SQL_MAX_BYTES);
	params_init(&p, 1);
	if ((r = db_ensure(db)) != 0)
		goto out;
	buf_adds(&b, "SELECT `id`");
	if (!repo_lead_sql_cols(&b, "", cols, ncols)) {
		r = -REPO_ERR_INVALID;
		goto out;
	}
	buf_adds(&b, " FROM lead WHERE `id` = ?");
	params_i64(&p, id);
	if ((r = params_query(db, params_stmt(db, &b,
	    "repo_leads_get_by_id"), &p, a, 1 + ncols, 1,
	    "repo_leads_get_by_id", &t)) != 0)
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
			repo_lead_sql_value(p, f->field, &f->values[i]);
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
		params_add_marks(b, np);
		buf_adds(b, ")) OR `cookies` IN (");
		params_add_marks(b, np);
		buf_adds(b, "))");
		return true;
	}
	if (!repo_lead_sql_ident(b, "", f->field->name))
		return false;
	buf_adds(b, " IN (");
	params_add_marks(b, np);
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
	size_t np = params_padded(f->nvalues);
	int r = -REPO_ERR_INVALID;

	*count = 0;
	arena_init(&a);
	buf_init(&b, LEAD_SQL_MAX_BYTES);
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
	if ((r = params_query(db, params_stmt(db, &b,
	    "repo_leads_count_by_filter"), &p, &a, 1, 1,
	    "repo_leads_count_by_filter", &t)) != 0)
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
	size_t np = params_padded(f->nvalues);
	int r = -REPO_ERR_INVALID;

	memset(out, 0, sizeof(*out));
	buf_init(&b, LEAD_SQL_MAX_BYTES);
	params_init(&p, 2 * np + 2);
	if (np == 0 || f->nvalues == 0 || limit < 1)
		goto out;
	if ((r = db_ensure(db)) != 0)
		goto out;
	buf_adds(&b, "SELECT `id`");
	if (!repo_lead_sql_cols(&b, "", cols, ncols)) {
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
	if ((r = params_query(db, params_stmt(db, &b,
	    "repo_leads_list_by_filter"), &p, a, 1 + ncols, (size_t)limit,
	    "repo_leads_list_by_filter", &t)) != 0)
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
	buf_init(&b, LEAD_SQL_MAX_BYTES);
	params_init(&p, 3);
	if (limit < 1)
		goto out;
	if ((r = db_ensure(db)) != 0)
		goto out;
	buf_adds(&b, "SELECT l.`id`");
	if (!repo_lead_sql_cols(&b, "l.", cols, ncols)) {
		r = -REPO_ERR_INVALID;
		goto out;
	}
	buf_adds(&b, ", " PROGRAM_MEMBERSHIP_COLUMNS PROGRAM_MEMBERSHIP_JOIN
	    " JOIN lead l ON l.`id` = pm.lead_id WHERE pm.program_id = ? AND "
	    "pm.lead_id > ? ORDER BY pm.lead_id LIMIT ?");
	params_i64(&p, program_id);
	params_i64(&p, after);
	params_i64(&p, limit);
	if ((r = params_query(db, params_stmt(db, &b,
	    "repo_leads_list_by_program"), &p, a,
	    1 + ncols + PROGRAM_MEMBERSHIP_NCOLS, (size_t)limit,
	    "repo_leads_list_by_program", &t)) != 0)
		goto out;
	r = to_lead_rows(&t, a, ncols, true, out);
out:
	params_clear(&p);
	buf_clear(&b);
	return r;
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
	size_t np = params_padded(n);
	int r;

	buf_init(&b, LEAD_SQL_MAX_BYTES);
	params_init(&p, np);
	buf_adds(&b, head);
	buf_adds(&b, " IN (");
	params_add_marks(&b, np);
	buf_addc(&b, ')');
	if (fetch)
		buf_adds(&b, " FOR UPDATE");
	params_ids(&p, ids, n, np);
	if (fetch)
		r = params_query(db, params_stmt(db, &b,
		    "repo_leads_delete"), &p, a, 1, n, "repo_leads_delete", t);
	else
		r = params_exec(db, params_stmt(db, &b,
		    "repo_leads_delete"), &p, "repo_leads_delete");
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

	buf_init(&q, LEAD_SQL_MAX_BYTES);
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
	buf_init(&b, LEAD_SQL_MAX_BYTES);
	params_init(&p, 3);
	if (limit < 1 || (r = db_ensure(db)) != 0)
		goto out;
	buf_adds(&b, "SELECT l.`id`");
	r = -REPO_ERR_INVALID;
	if (!repo_lead_sql_cols(&b, "l.", cols, ncols))
		goto out;
	/* By the list_member key (list_id, lead_id): a range of it. */
	buf_adds(&b, " FROM list_member lm JOIN lead l ON l.`id` = lm.lead_id "
	    "WHERE lm.list_id = ? AND lm.lead_id > ? ORDER BY lm.lead_id "
	    "LIMIT ?");
	params_i64(&p, list_id);
	params_i64(&p, after);
	params_i64(&p, limit);
	if ((r = params_query(db, params_stmt(db, &b,
	    "repo_leads_list_by_list"), &p, a, 1 + ncols, (size_t)limit,
	    "repo_leads_list_by_list", &t)) == 0)
		r = to_lead_rows(&t, a, ncols, false, out);
out:
	params_clear(&p);
	buf_clear(&b);
	return r;
}
