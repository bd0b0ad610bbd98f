/*
 * The rule type catalogue (repo_sl_catalogue.h).  Activity rule types
 * and their constraints are rows of the migrations, kept per connection
 * for naming rules; the custom object filters follow the approved types
 * and are read each time; attribute rule types are the lead fields, read
 * from lead_field.
 */
#include <assert.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <mysql.h>

#include "db/bind.h"
#include "db/pool.h"
#include "db/query.h"
#include "model/smartlist.h"
#include "repo/repo.h"
#include "repo/repo_sl_catalogue.h"
#include "util/arena.h"

enum sl_stmt {
	SL_STMT_FIELD_NAME,
	SL_STMT_TYPES,
	SL_STMT_CONSTRAINTS,
	SL_STMT_ATTR_TYPES,
	SL_STMT_TYPE,
	SL_STMT_ATTR_TYPE,
	SL_STMT_CO_TYPES,
	SL_STMT_CO_CONSTRAINTS,
	SL_STMT__MAX
};

static_assert(REPO_CACHE__MAX <= DB_CACHE_SLOTS, "a db_cache slot each");

static const char *const sql[SL_STMT__MAX] = {
	/* The name of an attribute rule type (a lead field). */
	[SL_STMT_FIELD_NAME] =
	    "SELECT display_name FROM lead_field WHERE attr_id = ?",
	[SL_STMT_TYPES] =
	    "SELECT id, name, is_filter, is_trigger FROM sl_rule_type "
	    "ORDER BY id",
	[SL_STMT_CONSTRAINTS] =
	    "SELECT rule_type_id, id, name, data_type, is_primary, operators "
	    "FROM sl_constraint ORDER BY rule_type_id, position",
	[SL_STMT_ATTR_TYPES] =
	    "SELECT f.attr_id, f.display_name, f.data_type, " REPO_SL_ATTR_OPS
	    ", f.name FROM lead_field f ORDER BY f.attr_id",
	[SL_STMT_TYPE] =
	    "SELECT id, name, is_filter, is_trigger FROM sl_rule_type "
	    "WHERE id = ?",
	[SL_STMT_ATTR_TYPE] =
	    "SELECT f.attr_id, f.display_name, f.data_type, " REPO_SL_ATTR_OPS
	    ", f.name FROM lead_field f WHERE f.attr_id = ?",
	/* The custom object filters: every approved type (NULL) or one,
	 * as (id, name, filter, trigger, type API name). */
	[SL_STMT_CO_TYPES] =
	    "SELECT " REPO_SL_CO_BASE " + t.id, "
	    "CONCAT('Has ', v.display_name), 1, 0, t.api_name FROM co_type t "
	    "JOIN co_type_version v ON v.type_id = t.id AND v.is_draft = 0 "
	    "WHERE t.has_approved = 1 AND (? IS NULL OR t.id = ?) "
	    "ORDER BY t.id",
	/* Their constraints: the approved fields, the primary first, as
	 * SL_STMT_CONSTRAINTS's columns and the field's API name. */
	[SL_STMT_CO_CONSTRAINTS] =
	    "SELECT " REPO_SL_CO_BASE " + r.type_id, r.id, f.display_name, "
	    "f.data_type, r.is_primary, " REPO_SL_ATTR_OPS ", f.name "
	    "FROM co_field_ref r JOIN co_field f ON f.type_id = r.type_id "
	    "AND f.is_draft = 0 AND f.name = r.name WHERE (? IS NULL OR "
	    "r.type_id = ?) ORDER BY r.type_id, r.is_primary DESC, f.pos",
};

const struct db_stmt_set repo_sl_catalogue_sql = {
	.name = "sl_catalogue",
	.sql = sql,
	.n = SL_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum sl_stmt s)
{
	return db_stmt(db, REPO_SL_CATALOGUE, (int)s);
}

/* ---- The catalogue the connection keeps ------------------------------ */

/* An activity rule type, or one of its constraints (type_id set). */
struct sl_cat_entry {
	int32_t		 type_id;	/* 0 for a rule type */
	int32_t		 id;
	const char	*name;
	bool		 primary;
	int		 position;	/* of a constraint in its type, from 1 */
};

/*
 * The activity rule types and their constraints as rows of sl_rule_type
 * and sl_constraint hold them: data of the migrations, which a running
 * service does not change, so a connection reads them once (and again
 * when a rule names an id it does not know).
 */
struct sl_catalogue {
	struct arena		 a;
	struct sl_cat_entry	*e;
	size_t			 n;
};

static void
sl_catalogue_free(void *p)
{
	struct sl_catalogue *k = p;

	if (k == NULL)
		return;
	arena_clear(&k->a);
	free(k);
}

static int	all_rows(struct db *, struct arena *, enum sl_stmt, size_t,
		    size_t, struct db_text_rows *);
static int	co_types(struct db *, struct arena *, int32_t,
		    struct repo_sl_rule_type **, size_t *);

/* Reads the catalogue into the connection's cache; *out borrowed. */
static int
sl_catalogue_load(struct db *db, const struct sl_catalogue **out)
{
	struct sl_catalogue *k;
	struct db_text_rows t, c;
	size_t i, n = 0;
	int32_t prev = 0;
	int pos = 0, r;

	*out = NULL;
	if ((k = calloc(1, sizeof(*k))) == NULL)
		return -REPO_ERR_INTERNAL;
	arena_init(&k->a);
	if ((r = all_rows(db, &k->a, SL_STMT_TYPES, 4, 10000, &t)) != 0 ||
	    (r = all_rows(db, &k->a, SL_STMT_CONSTRAINTS, 6, 100000,
	    &c)) != 0 ||
	    (k->e = arena_zalloc(&k->a, (t.count + c.count + 1) *
	    sizeof(*k->e))) == NULL) {
		sl_catalogue_free(k);
		return r != 0 ? r : -REPO_ERR_INTERNAL;
	}
	for (i = 0; i < t.count; i++, n++) {
		k->e[n].id = (int32_t)db_text_i64(&t, i, 0);
		k->e[n].name = db_text_str(&t, i, 1);
	}
	/* Constraints come by type, then position. */
	for (i = 0; i < c.count; i++, n++) {
		k->e[n].type_id = (int32_t)db_text_i64(&c, i, 0);
		pos = i > 0 && k->e[n].type_id == prev ? pos + 1 : 1;
		prev = k->e[n].type_id;
		k->e[n].id = (int32_t)db_text_i64(&c, i, 1);
		k->e[n].name = db_text_str(&c, i, 2);
		k->e[n].primary = db_text_i64(&c, i, 4) != 0;
		k->e[n].position = pos;
	}
	k->n = n;
	db_cache_set(db, REPO_CACHE_SL_CATALOGUE, k, sl_catalogue_free);
	*out = k;
	return 0;
}

/* Entry id of type type_id (0: the rule type id) in k, or NULL. */
static const struct sl_cat_entry *
sl_catalogue_find(const struct sl_catalogue *k, int32_t type_id, int32_t id)
{
	size_t i;

	for (i = 0; k != NULL && i < k->n; i++)
		if (k->e[i].type_id == type_id && k->e[i].id == id)
			return &k->e[i];
	return NULL;
}

/*
 * Entry id of type type_id (0: the rule type id) from the connection's
 * catalogue, read first when it has none or lacks the entry; *out is
 * NULL when the catalogue has no such entry.
 */
static int
sl_catalogue_entry(struct db *db, int32_t type_id, int32_t id,
    const struct sl_cat_entry **out)
{
	const struct sl_catalogue *k = db_cache(db, REPO_CACHE_SL_CATALOGUE);
	int r;

	*out = sl_catalogue_find(k, type_id, id);
	if (*out != NULL)
		return 0;
	if ((r = sl_catalogue_load(db, &k)) != 0)
		return r;
	*out = sl_catalogue_find(k, type_id, id);
	return 0;
}

/* The display name of lead field attr_id ("" when there is none). */
static int
field_name(struct db *db, struct arena *a, int32_t attr_id, const char **out)
{
	MYSQL_BIND in[1];
	struct db_text_rows t;
	int r;

	*out = "";
	bind_i32(&in[0], &attr_id);
	if ((r = db_select_text(db, stmt(db, SL_STMT_FIELD_NAME), in, a, 1, 1,
	    "repo_sl_rule_name", &t)) != 0)
		return r;
	if (t.count == 1 && db_text_str(&t, 0, 0) != NULL)
		*out = db_text_str(&t, 0, 0);
	return 0;
}

/* See repo_sl_catalogue.h. */
int
repo_sl_rule_name(struct db *db, struct arena *a, bool activity, int32_t id,
    const char **name)
{
	const struct sl_cat_entry *e;
	int r;

	struct repo_sl_rule_type *co;
	size_t nco;

	*name = "";
	if (!activity)
		return field_name(db, a, id, name);
	/* A custom object filter follows its type, which changes at run
	 * time: read, not kept. */
	if (id > SL_CO_RULE_BASE) {
		if ((r = co_types(db, a, id - SL_CO_RULE_BASE, &co, &nco)) != 0)
			return r;
		if (nco > 0)
			*name = co[0].name;
		return 0;
	}
	if ((r = sl_catalogue_entry(db, 0, id, &e)) != 0)
		return r;
	if (e != NULL && (*name = arena_strdup(a, e->name)) == NULL)
		return -REPO_ERR_INTERNAL;
	return 0;
}

/* ---- Naming a list's rules -------------------------------------------- */

/* Condition order within a rule: the constraint's position, its id. */
static bool
cond_before(const struct smartlist_cond *x, int px, const struct smartlist_cond *y,
    int py)
{
	return px < py || (px == py && x->attribute_id < y->attribute_id);
}

/* See repo_sl_catalogue.h. */
int
repo_sl_name_rule(struct db *db, struct arena *a, struct smartlist_rule *ru)
{
	const struct sl_cat_entry *e;
	struct repo_sl_rule_type *co = NULL;
	struct smartlist_cond cd;
	size_t i, j, k, nco = 0;
	int *pos, p, r;

	/* A custom object filter: its type and fields as they are now. */
	if (ru->activity && ru->type_id > SL_CO_RULE_BASE) {
		if ((r = co_types(db, a, ru->type_id - SL_CO_RULE_BASE, &co,
		    &nco)) != 0)
			return r;
		ru->name = nco > 0 ? co[0].name : "";
	} else if ((r = repo_sl_rule_name(db, a, ru->activity, ru->type_id,
	    &ru->name)) != 0)
		return r;
	if ((pos = arena_zalloc(a, (ru->nconds + 1) * sizeof(*pos))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < ru->nconds; i++) {
		struct smartlist_cond *c = &ru->conds[i];

		c->primary = true;
		pos[i] = 0;
		c->name = "";
		if (!ru->activity) {
			if (c->attribute_id == ru->type_id)
				c->name = ru->name;
			else if ((r = field_name(db, a, c->attribute_id,
			    &c->name)) != 0)
				return r;
			continue;
		}
		if (co != NULL) {
			/* The primary constraint comes first, then the
			 * fields in their order. */
			for (k = 0; nco > 0 && k < co[0].ncons; k++)
				if (co[0].cons[k].id == c->attribute_id) {
					c->name = co[0].cons[k].name;
					c->primary = co[0].cons[k].primary;
					pos[i] = (int)k + 1;
				}
			continue;
		}
		if ((r = sl_catalogue_entry(db, ru->type_id, c->attribute_id,
		    &e)) != 0)
			return r;
		if (e != NULL) {
			/* A copy: a later miss reloads the catalogue. */
			if ((c->name = arena_strdup(a, e->name)) == NULL)
				return -REPO_ERR_INTERNAL;
			c->primary = e->primary;
			pos[i] = e->position;
		}
	}
	/* Insertion sort: stable, and a rule has a few conditions. */
	for (i = 1; i < ru->nconds; i++) {
		cd = ru->conds[i];
		p = pos[i];
		for (j = i; j > 0 && cond_before(&cd, p, &ru->conds[j - 1],
		    pos[j - 1]); j--) {
			ru->conds[j] = ru->conds[j - 1];
			pos[j] = pos[j - 1];
		}
		ru->conds[j] = cd;
		pos[j] = p;
	}
	return 0;
}

/* ---- Rule types ------------------------------------------------------- */

/*
 * An attribute rule type from row i of t (id, name, data type, ops, the
 * lead field's name).
 */
static int
attr_type(struct arena *a, const struct db_text_rows *t, size_t i,
    struct repo_sl_rule_type *out)
{
	struct repo_sl_constraint *k;

	memset(out, 0, sizeof(*out));
	out->id = (int32_t)db_text_i64(t, i, 0);
	out->name = db_text_str(t, i, 1);
	out->is_filter = true;
	if ((k = arena_zalloc(a, sizeof(*k))) == NULL)
		return -REPO_ERR_INTERNAL;
	k->id = out->id;
	k->name = out->name;
	k->data_type = db_text_str(t, i, 2);
	k->primary = true;
	k->operators = db_text_str(t, i, 3);
	k->field = db_text_str(t, i, 4);
	out->cons = k;
	out->ncons = 1;
	return 0;
}

/* An activity rule type from row i of t (id, name, filter, trigger). */
static void
activity_type(const struct db_text_rows *t, size_t i,
    struct repo_sl_rule_type *out)
{
	memset(out, 0, sizeof(*out));
	out->id = (int32_t)db_text_i64(t, i, 0);
	out->name = db_text_str(t, i, 1);
	out->activity = true;
	out->is_filter = db_text_i64(t, i, 2) != 0;
	out->is_trigger = db_text_i64(t, i, 3) != 0;
}

/* The constraints of the activity types (k rows) into types (n). */
static int
attach_constraints(struct arena *a, const struct db_text_rows *k,
    struct repo_sl_rule_type *types, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		size_t m = 0;

		for (j = 0; j < k->count; j++)
			if (db_text_i64(k, j, 0) == types[i].id)
				m++;
		if (m == 0)
			continue;
		if ((types[i].cons = arena_zalloc(a, m *
		    sizeof(*types[i].cons))) == NULL)
			return -REPO_ERR_INTERNAL;
		for (j = 0; j < k->count; j++) {
			struct repo_sl_constraint *c;

			if (db_text_i64(k, j, 0) != types[i].id)
				continue;
			c = &types[i].cons[types[i].ncons++];
			c->id = (int32_t)db_text_i64(k, j, 1);
			c->name = db_text_str(k, j, 2);
			c->data_type = db_text_str(k, j, 3);
			c->primary = db_text_i64(k, j, 4) != 0;
			c->operators = db_text_str(k, j, 5);
			c->field = k->ncol > 6 ? db_text_str(k, j, 6) : NULL;
		}
	}
	return 0;
}

/* Every row of the parameterless statement s, up to max, into *t. */
static int
all_rows(struct db *db, struct arena *a, enum sl_stmt s, size_t ncol,
    size_t max, struct db_text_rows *t)
{
	return db_select_text(db, stmt(db, s), NULL, a, ncol, max,
	    "repo_sl_rule_types", t);
}

/*
 * The custom object filters, of every approved type (co_id 0) or of type
 * co_id, with their constraints, into *out (n of them, in the arena).
 */
static int
co_types(struct db *db, struct arena *a, int32_t co_id,
    struct repo_sl_rule_type **out, size_t *n)
{
	MYSQL_BIND in[2];
	struct db_text_rows t, k;
	struct repo_sl_rule_type *types;
	size_t i;
	int r;

	*out = NULL;
	*n = 0;
	bind_i32_twice(&in[0], co_id != 0, &co_id);
	if ((r = db_select_text(db, stmt(db, SL_STMT_CO_TYPES), in, a, 5,
	    10000, "repo_sl_rule_types", &t)) != 0 ||
	    (r = db_select_text(db, stmt(db, SL_STMT_CO_CONSTRAINTS), in, a,
	    7, 100000, "repo_sl_rule_types", &k)) != 0)
		return r;
	if ((types = arena_zalloc(a, (t.count + 1) * sizeof(*types))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < t.count; i++) {
		activity_type(&t, i, &types[i]);
		types[i].co_type_id = types[i].id - SL_CO_RULE_BASE;
		types[i].co_api_name = db_text_str(&t, i, 4);
	}
	if ((r = attach_constraints(a, &k, types, t.count)) != 0)
		return r;
	*out = types;
	*n = t.count;
	return 0;
}

/* See repo_sl_catalogue.h. */
int
repo_sl_rule_types(struct db *db, struct arena *a,
    struct repo_sl_rule_type **out, size_t *n)
{
	struct db_text_rows t, k, f;
	struct repo_sl_rule_type *types, *co;
	size_t i, nco;
	int r;

	*out = NULL;
	*n = 0;
	if ((r = db_ensure(db)) != 0 ||
	    (r = all_rows(db, a, SL_STMT_TYPES, 4, 10000, &t)) != 0 ||
	    (r = all_rows(db, a, SL_STMT_CONSTRAINTS, 6, 100000, &k)) != 0 ||
	    (r = co_types(db, a, 0, &co, &nco)) != 0 ||
	    (r = all_rows(db, a, SL_STMT_ATTR_TYPES, 5, 100000, &f)) != 0)
		return r;
	if ((types = arena_zalloc(a, (t.count + nco + f.count + 1) *
	    sizeof(*types))) == NULL)
		return -REPO_ERR_INTERNAL;
	for (i = 0; i < t.count; i++)
		activity_type(&t, i, &types[i]);
	if ((r = attach_constraints(a, &k, types, t.count)) != 0)
		return r;
	for (i = 0; i < nco; i++)
		types[t.count + i] = co[i];
	for (i = 0; i < f.count; i++)
		if ((r = attr_type(a, &f, i, &types[t.count + nco + i])) != 0)
			return r;
	*out = types;
	*n = t.count + nco + f.count;
	return 0;
}

/* See repo_sl_catalogue.h. */
int
repo_sl_rule_type(struct db *db, struct arena *a, bool activity, int32_t id,
    struct repo_sl_rule_type *out)
{
	MYSQL_BIND in[1];
	struct db_text_rows t, k;
	enum sl_stmt s = activity ? SL_STMT_TYPE : SL_STMT_ATTR_TYPE;
	struct repo_sl_rule_type *co;
	size_t nco;
	int r;

	if (activity && id > SL_CO_RULE_BASE) {
		if ((r = db_ensure(db)) != 0 ||
		    (r = co_types(db, a, id - SL_CO_RULE_BASE, &co,
		    &nco)) != 0)
			return r;
		if (nco == 0)
			return -REPO_ERR_NOT_FOUND;
		*out = co[0];
		return 0;
	}
	bind_i32(&in[0], &id);
	if ((r = db_ensure(db)) != 0 ||
	    (r = db_select_text(db, stmt(db, s), in, a, activity ? 4 : 5,
	    1, "repo_sl_rule_type", &t)) != 0)
		return r;
	if (t.count == 0)
		return -REPO_ERR_NOT_FOUND;
	if (!activity)
		return attr_type(a, &t, 0, out);
	activity_type(&t, 0, out);
	if ((r = all_rows(db, a, SL_STMT_CONSTRAINTS, 6, 100000, &k)) != 0)
		return r;
	return attach_constraints(a, &k, out, 1);
}
