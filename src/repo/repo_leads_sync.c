/*
 * Leads: the batch upsert behind Sync Leads, Push Lead and Submit Form
 * (repo_leads_sync in repo_leads.h, whose top says what the transaction
 * does and why).  Its activities are written by repo_activity.c and a
 * push's memberships by repo_programs.c, inside this transaction.
 *
 * The statements name lead columns from the field catalogue and carry one
 * placeholder per value of the batch, so their text is built here
 * (repo_lead_sql.h) and prepared through db_stmt_sql, which caches it per
 * connection.  IN lists are padded with NULL to one of a few sizes (NULL
 * never equals anything) so the cache holds few variants; multi-row
 * INSERTs have exactly the rows of the batch.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <mysql.h>

#include "db/params.h"
#include "db/pool.h"
#include "db/query.h"
#include "bounds.h"
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_activity.h"
#include "repo/repo_cookies.h"
#include "repo/repo_lead_sql.h"
#include "repo/repo_leads.h"
#include "repo/repo_programs.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/log.h"
#include "util/num.h"
#include "util/xmalloc.h"

/* The partition of a lead when none is named (migration 0004). */
#define DEFAULT_PARTITION	1

/* Reason and Source of a change an API call makes (§A.4.4). */
#define CHANGE_API	"Web service API"

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
	size_t np = params_padded(pl->nclaims), i;
	int r = 0;

	if (pl->nclaims == 0)
		return 0;
	if (np == 0)
		return -REPO_ERR_INVALID;
	buf_init(&b, LEAD_SQL_MAX_BYTES);
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
	r = params_exec(db, params_stmt(db, &b, "repo_leads_sync claims"), &p,
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
	size_t np = params_padded(n), i;
	int r = -REPO_ERR_INVALID;

	memset(t, 0, sizeof(*t));
	buf_init(&b, LEAD_SQL_MAX_BYTES);
	params_init(&p, np);
	if (np == 0)
		goto out;
	buf_adds(&b, "SELECT l.`id`");
	for (i = 0; i < pl->nslots; i++) {
		buf_adds(&b, ", ");
		if (!repo_lead_sql_ident(&b, "l.", pl->slots[i]->name))
			goto out;
	}
	buf_adds(&b, " FROM (SELECT ? AS id");
	for (i = 1; i < np; i++)
		buf_adds(&b, " UNION ALL SELECT ?");
	buf_adds(&b, ") AS v STRAIGHT_JOIN lead AS l FORCE INDEX (PRIMARY) "
	    "ON l.`id` = v.id FOR UPDATE");
	params_ids(&p, ids, n, np);
	r = params_query(db, params_stmt(db, &b, what), &p, pl->a,
	    1 + pl->nslots, (size_t)-1, what, t);
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
	size_t np = params_padded(pl->ngroups), i, nids = 0;
	int g, r = -REPO_ERR_INVALID;

	if (pl->ngroups == 0)
		return 0;
	buf_init(&b, LEAD_SQL_MAX_BYTES);
	params_init(&p, np);
	if (np == 0)
		goto out;
	buf_adds(&b, "SELECT MIN(`id`), COUNT(*), MIN(`leadPartitionId`), ");
	if (!repo_lead_sql_ident(&b, "", pl->s->lookup->name))
		goto out;
	buf_adds(&b, " FROM lead WHERE ");
	if (!repo_lead_sql_ident(&b, "", pl->s->lookup->name))
		goto out;
	buf_adds(&b, " IN (");
	params_add_marks(&b, np);
	buf_adds(&b, ") GROUP BY ");
	if (!repo_lead_sql_ident(&b, "", pl->s->lookup->name))
		goto out;
	for (i = 0; i < np; i++)
		if (i < pl->ngroups)
			repo_lead_sql_value(&p, pl->s->lookup,
			    pl->groups[i].key);
		else
			params_null(&p);
	if ((r = params_query(db, params_stmt(db, &b,
	    "repo_leads_sync lookup"), &p, pl->a, 4, (size_t)-1,
	    "repo_leads_sync lookup", &t)) != 0)
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
	buf_init(&b, LEAD_SQL_MAX_BYTES);
	memset(&p, 0, sizeof(p));
	for (start = 0; start < pl->ncrows; start = end) {
		end = start + params_rows_per_stmt(per);
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
				if (!repo_lead_sql_ident(&b, "",
				    pl->slots[k]->name)) {
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
					repo_lead_sql_value(&p, pl->slots[k],
					    &pl->crows[i].vals[k]);
				}
			buf_addc(&b, ')');
		}
		buf_adds(&b, " RETURNING `id`");
		if ((r = params_query(db, params_stmt(db, &b,
		    "repo_leads_sync insert"), &p, pl->a, 1, end - start,
		    "repo_leads_sync insert", &t)) != 0)
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
	buf_init(&b, LEAD_SQL_MAX_BYTES);
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
			end = start + params_rows_per_stmt(ncols + 1);
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
					if (!repo_lead_sql_ident(&b, "",
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
						repo_lead_sql_value(&p,
						    pl->slots[k], &u->vals[k]);
					}
				buf_addc(&b, ')');
			}
			buf_adds(&b, " ON DUPLICATE KEY UPDATE ");
			for (k = 0; k < pl->nslots; k++)
				if (w->vals[k].kind != LV_ABSENT) {
					repo_lead_sql_ident(&b, "",
					    pl->slots[k]->name);
					buf_adds(&b, " = VALUES(");
					repo_lead_sql_ident(&b, "",
					    pl->slots[k]->name);
					buf_adds(&b, "), ");
				}
			buf_adds(&b, "`updatedAt` = VALUES(`updatedAt`)");
			if ((r = params_exec(db, params_stmt(db, &b,
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
	struct activity *rows;
	size_t i;
	int r;

	if (pl->ncrows == 0)
		return 0;
	rows = xcalloc(pl->ncrows, sizeof(*rows));
	for (i = 0; i < pl->ncrows; i++) {
		rows[i].lead_id = pl->crows[i].id;
		rows[i].type = ACT_NEW_LEAD;
		rows[i].primary_id = pl->crows[i].id;
		rows[i].primary_value = full_name(pl, &pl->crows[i]);
		rows[i].attributes = pl->s->new_lead_attrs;
	}
	r = repo_activity_insert_batch(db, rows, pl->ncrows);
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
	struct activity *rows = NULL;
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
			rows[nrows].type = ACT_CHANGE_DATA_VALUE;
			rows[nrows].primary_id = pl->slots[k]->attr_id;
			rows[nrows].primary_value = pl->slots[k]->display_name;
			rows[nrows].attributes = arena_strdup(pl->a,
			    json_object_to_json_string_ext(o,
			    JSON_C_TO_STRING_PLAIN |
			    JSON_C_TO_STRING_NOSLASHESCAPE));
			json_object_put(o);
			if (rows[nrows++].attributes == NULL) {
				r = -REPO_ERR_INTERNAL;
				goto out;
			}
		}
	}
	r = repo_activity_insert_batch(db, rows, nrows);
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
written_leads(struct plan *pl, struct program_member_new *m)
{
	struct lead_rec *rec;
	size_t i, j, n = 0;

	for (i = 0; i < pl->s->n; i++) {
		rec = &pl->s->recs[i];
		if (rec->skip || (rec->status != LEAD_CREATED &&
		    rec->status != LEAD_UPDATED))
			continue;
		for (j = 0; j < n; j++)
			if (m[j].lead_id == rec->id)
				break;
		if (j == n) {
			m[n].lead_id = rec->id;
			m[n++].acquired_by = false;
		}
		if (pl->rec_crow[i] >= 0)
			m[j].acquired_by = true;
	}
	return n;
}

/*
 * Reads the memberships of program_id of the n leads ids back into the
 * records that wrote them.
 */
static int
read_members(struct db *db, struct plan *pl, int64_t program_id,
    const int64_t *ids, size_t n)
{
	const char *const where = "repo_leads_sync membership";
	struct buf b;
	struct params p;
	struct db_text_rows t;
	size_t np = params_padded(n), i, j;
	int r;

	buf_init(&b, LEAD_SQL_MAX_BYTES);
	params_init(&p, np + 1);
	buf_adds(&b, "SELECT pm.lead_id, " PROGRAM_MEMBERSHIP_COLUMNS
	    PROGRAM_MEMBERSHIP_JOIN " WHERE pm.program_id = ? AND "
	    "pm.lead_id IN (");
	params_add_marks(&b, np);
	buf_addc(&b, ')');
	params_i64(&p, program_id);
	params_ids(&p, ids, n, np);
	if ((r = params_query(db, params_stmt(db, &b, where), &p, pl->a,
	    1 + PROGRAM_MEMBERSHIP_NCOLS, n, where, &t)) != 0)
		goto out;
	for (i = 0; i < t.count; i++)
		for (j = 0; j < pl->s->n; j++) {
			struct lead_rec *rec = &pl->s->recs[j];

			if (rec->skip || rec->id != db_text_i64(&t, i, 0) ||
			    (rec->status != LEAD_CREATED &&
			    rec->status != LEAD_UPDATED))
				continue;
			repo_programs_membership_fill(&t, i, 1, &rec->m);
			rec->has_m = true;
		}
out:
	params_clear(&p);
	buf_clear(&b);
	return r;
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
	struct program_member_new *m = NULL;
	struct activity *acts = NULL;
	int64_t *ids = NULL, step = 0;
	bool success = false;
	size_t n, i;
	int r = 0;

	m = xcalloc(pl->s->n + 1, sizeof(*m));
	acts = xcalloc(pl->s->n + 1, sizeof(*acts));
	ids = xcalloc(pl->s->n + 1, sizeof(*ids));
	if ((n = written_leads(pl, m)) == 0)
		goto out;
	if (pu->status >= 0 && (size_t)pu->status < pg->nstatuses) {
		step = pg->statuses[pu->status].step;
		success = pg->statuses[pu->status].success;
	}
	if ((r = repo_programs_members_upsert(db, pg->id, m, n, step, success,
	    pu->status_given)) != 0)
		goto out;
	for (i = 0; i < n; i++) {
		ids[i] = m[i].lead_id;
		acts[i].lead_id = m[i].lead_id;
		acts[i].type = ACT_PUSH_LEAD;
		acts[i].primary_id = pg->id;
		acts[i].primary_value = pg->name;
		acts[i].attributes = pu->attrs;
	}
	if ((r = repo_activity_insert_batch(db, acts, n)) != 0)
		goto out;
	r = read_members(db, pl, pg->id, ids, n);
out:
	free(m);
	free(acts);
	free(ids);
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
