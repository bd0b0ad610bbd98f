/*
 * Custom Object records (docs/behaviour.md §6.2): the records API under
 * /rest/v1/customobjects/{name}... of an approved type (api_co_types.c has
 * the type metadata API and the error codes both files choose).  Records
 * are read and written by repo_co_records.c in multi-row statements.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <json-c/json.h>

#include "api/api.h"
#include "api/api_co_types.h"
#include "api/api_common.h"
#include "api/api_leads_catalog.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "http/validate.h"
#include "bounds.h"
#include "model/cotype.h"
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_co_records.h"
#include "repo/repo_co_types.h"
#include "repo/repo_leads.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/num.h"
#include "util/pagetoken.h"
#include "util/xmalloc.h"


/* ---- Records -------------------------------------------------------- */

/* Token kind of Get Custom Objects (util/pagetoken.h). */
#define TOKEN_KIND_CO		7

/* The input array of a records body: 1..MAX_BATCH_RECORDS. */
static const struct api_input input_rule = {
	.max = MAX_BATCH_RECORDS,
	.missing_err = -API_ERR_INVALID_REQUEST,
	.missing_msg = "Objects not specified: 'input' must be a non-empty "
	    "array",
	.max_err = -API_ERR_INVALID_REQUEST,
	.max_msg = "Too many records in input",
	.max_counts = true,
};

/* The approved type named by the path, for the records API. */
static int
records_type(struct call *c, struct resp *r, struct co_type *t)
{
	const char *name = c->req->path_params[0];
	int rr;

	rr = repo_co_types_get(c->app->db, name, true, t);
	if (rr == -REPO_ERR_NOT_FOUND)
		return api_common_fail(c, r, -API_ERR_OBJECT_NOT_FOUND, "Custom object "
		    "'%s' not found (or not approved)", api_common_echo(c, name));
	return rr == 0 ? 0 : err_from_repo(rr);
}

/* The state of one input record of Sync or Delete. */
enum rec_state {
	REC_PENDING,
	REC_SKIPPED,
	REC_CREATE,
	REC_UPDATE,
	REC_DONE,
};

struct rec {
	enum rec_state		 state;
	int			 code;		/* skipped: the reason */
	const char		*msg;		/* arena */
	struct lead_value	*vals;		/* one per field of the type */
	struct lead_value	 key[CO_MAX_DEDUPE];
	size_t			 nkey;
	const char		*keytext;	/* arena, for duplicates */
	size_t			 keylen;
	char			 guid[CO_GUID_LEN + 1];
	int64_t			 id;
	bool			 key_change;	/* idField update of a key */
};

static void
skip(struct call *c, struct rec *rc, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
skip(struct call *c, struct rec *rc, int code, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rc->state = REC_SKIPPED;
	rc->code = code;
	rc->msg = arena_strdup(&c->app->arena, msg);
	if (rc->msg == NULL)
		rc->msg = "Invalid data";
}

/* A marketoGUID value: a UUID string, kept in lower case. */
static int
parse_guid(struct call *c, struct json_object *v, struct lead_value *out)
{
	const char *s;
	char *g;
	size_t i, n;

	memset(out, 0, sizeof(*out));
	if (v == NULL || !json_object_is_type(v, json_type_string))
		return -1;
	s = json_object_get_string(v);
	n = (size_t)json_object_get_string_len(v);
	if (!co_guid_valid(s, n) || (g = arena_strndup(&c->app->arena, s,
	    n)) == NULL)
		return -1;
	for (i = 0; i < n; i++)
		if (g[i] >= 'A' && g[i] <= 'F')
			g[i] = (char)(g[i] - 'A' + 'a');
	out->kind = LV_STR;
	out->s = g;
	out->len = n;
	return 0;
}

/*
 * Reads one input record into rc: the values of the fields it gives
 * (typed; unknown fields 1006, bad values 1003) and its key (the dedupe
 * fields, or marketoGUID when by_guid; missing 1002).
 */
static void
read_record(struct call *c, const struct co_type *t, struct json_object *o,
    bool by_guid, struct rec *rc)
{
	const struct co_field *f;
	struct lead_value v;
	struct buf kb;
	size_t j, k;

	rc->vals = arena_zalloc(&c->app->arena,
	    (t->nfields > 0 ? t->nfields : 1) * sizeof(*rc->vals));
	if (rc->vals == NULL) {
		skip(c, rc, 1003, "Invalid data");
		return;
	}
	if (o == NULL || !json_object_is_type(o, json_type_object)) {
		skip(c, rc, 1003, "Invalid data: a record is a JSON object");
		return;
	}
	json_object_object_foreach(o, key, val) {
		if (strcasecmp(key, "marketoGUID") == 0) {
			if (!by_guid)
				continue;
			if (parse_guid(c, val, &rc->key[0]) != 0) {
				skip(c, rc, 1003, "Invalid value for field "
				    "'marketoGUID' and value '%s'", api_common_echo(c,
				    lead_value_text(val, &c->app->arena)));
				return;
			}
			rc->nkey = 1;
			continue;
		}
		if (co_is_system_field(key))
			continue;	/* createdAt, updatedAt: read-only */
		if ((f = co_type_field(t, key)) == NULL) {
			skip(c, rc, 1006, "Field '%s' not found",
			    api_common_echo(c, key));
			return;
		}
		if (co_value_parse(f, val, &c->app->arena, &v) != 0) {
			skip(c, rc, 1003, "Invalid value for field '%s' and "
			    "value '%s'", f->name, api_common_echo(c,
			    lead_value_text(val, &c->app->arena)));
			return;
		}
		rc->vals[f - t->fields] = v;
		if (by_guid && f->is_dedupe) {
			/* A key may move, never become empty. */
			if (v.kind == LV_NULL) {
				skip(c, rc, 1003, "Invalid value for field "
				    "'%s' and value ''", f->name);
				return;
			}
			rc->key_change = true;
		}
	}
	if (by_guid) {
		if (rc->nkey == 0)
			skip(c, rc, 1002, "Missing value for the required "
			    "parameter 'marketoGUID'");
	} else {
		for (j = 0, k = 0; j < t->nfields; j++) {
			if (!t->fields[j].is_dedupe)
				continue;
			if (rc->vals[j].kind == LV_ABSENT ||
			    rc->vals[j].kind == LV_NULL) {
				/* A real instance's words, its typo too. */
				skip(c, rc, 1002, "Value for requried field "
				    "'%s' not specified", t->fields[j].name);
				return;
			}
			rc->key[k++] = rc->vals[j];
		}
		rc->nkey = k;
	}
	if (rc->state == REC_SKIPPED)
		return;
	buf_init(&kb, CO_SQL_MAX);
	repo_co_records_key_text(&kb, rc->key, rc->nkey);
	rc->keytext = buf_ok(&kb) ? arena_strndup(&c->app->arena,
	    kb.data != NULL ? kb.data : "", kb.len) : NULL;
	rc->keylen = kb.len;
	buf_clear(&kb);
	if (rc->keytext == NULL)
		skip(c, rc, 1003, "Invalid data");
}

/* A pending record's key, for sorting. */
struct dup_ent {
	const char	*text;
	size_t		 len;
	size_t		 idx;
};

/* Orders keys by text, then by position in the input. */
static int
dup_cmp(const void *a, const void *b)
{
	const struct dup_ent *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->text, y->text, n);

	if (c != 0)
		return c;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Skips (1036) every pending record whose key an earlier one has. */
static int
skip_duplicates(struct call *c, struct rec *recs, size_t n)
{
	struct dup_ent *e;
	size_t i, m = 0;

	if ((e = arena_alloc(&c->app->arena, (n + 1) * sizeof(*e))) == NULL)
		return -API_ERR_SYSTEM;
	for (i = 0; i < n; i++)
		if (recs[i].state == REC_PENDING) {
			e[m].text = recs[i].keytext;
			e[m].len = recs[i].keylen;
			e[m++].idx = i;
		}
	qsort(e, m, sizeof(*e), dup_cmp);
	for (i = 1; i < m; i++)
		if (e[i].len == e[i - 1].len &&
		    memcmp(e[i].text, e[i - 1].text, e[i].len) == 0)
			skip(c, &recs[e[i].idx], 1036, "Duplicate object "
			    "found in input");
	return 0;
}

/* The text of a value for a reason message. */
static const char *
value_text(struct call *c, const struct lead_value *v)
{
	char *s;

	switch (v->kind) {
	case LV_INT:
	case LV_BOOL:
		s = arena_printf(&c->app->arena, "%lld", (long long)v->i);
		break;
	case LV_DBL:
		s = arena_printf(&c->app->arena, "%g", v->d);
		break;
	case LV_STR:
		return api_common_echo(c, v->s);
	default:
		return "";
	}
	return s != NULL ? s : "";
}

/* Whether two typed key values are the same. */
static bool
lv_equal(const struct lead_value *a, const struct lead_value *b)
{
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case LV_INT:
	case LV_BOOL:
		return a->i == b->i;
	case LV_DBL:
		return a->d == b->d;
	case LV_STR:
		return a->len == b->len && memcmp(a->s, b->s, a->len) == 0;
	default:
		return true;
	}
}

/*
 * Link checks (§6.1): every link value of a pending record must name an
 * existing lead (1004) or object of the linked type (1013).
 */
static int
check_links(struct call *c, const struct co_type *t, struct rec *recs,
    size_t n)
{
	struct co_type lt;
	struct co_rows rows;
	struct lead_value *keys = NULL;
	const char *keycol;
	size_t *map = NULL, j, i, k, m;
	bool *found = NULL, lead, company;
	int rr, err = 0;

	memset(&lt, 0, sizeof(lt));
	memset(&rows, 0, sizeof(rows));
	for (j = 0; j < t->nfields && err == 0; j++) {
		const struct co_field *f = &t->fields[j];

		if (!f->is_link)
			continue;
		lead = strcasecmp(f->related_object, "lead") == 0;
		company = strcasecmp(f->related_object, "company") == 0;
		keys = xcalloc(n + 1, sizeof(*keys));
		map = xcalloc(n + 1, sizeof(*map));
		found = xcalloc(n + 1, sizeof(*found));
		for (i = 0, m = 0; i < n; i++) {
			if (recs[i].state != REC_PENDING ||
			    recs[i].vals[j].kind == LV_ABSENT ||
			    recs[i].vals[j].kind == LV_NULL)
				continue;
			keys[m] = recs[i].vals[j];
			map[m++] = i;
		}
		if (m == 0)
			goto next;
		if (company) {
			/*
			 * Companies are not kept by this service: a link to
			 * one is stored as given (docs/behaviour.md §6.1).
			 */
			for (i = 0; i < m; i++)
				found[i] = true;
			rr = 0;
		} else if (lead) {
			rr = repo_leads_exist(c->app->db, keys,
			    m, strcasecmp(f->related_field, "email") == 0,
			    found);
		} else {
			rr = repo_co_types_get(c->app->db,
			    f->related_object, true, &lt);
			keycol = f->related_field;
			if (rr == 0)
				rr = repo_co_records_lookup(c->app->db, &lt,
				    &keycol, 1, keys, m, NULL, 0, 0, 0, &rows);
			for (i = 0; rr == 0 && i < rows.n; i++)
				found[rows.rows[i].seq] = true;
			if (rr == -REPO_ERR_NOT_FOUND)
				rr = 0;	/* the type is gone: nothing exists */
		}
		if (rr != 0) {
			err = err_from_repo(rr);
			goto next;
		}
		/* A row answers the first of equal keys: share it. */
		for (i = 0; i < m; i++)
			for (k = 0; !found[i] && k < i; k++)
				if (found[k] && lv_equal(&keys[k], &keys[i]))
					found[i] = true;
		for (i = 0; i < m; i++) {
			if (found[i])
				continue;
			if (lead)
				skip(c, &recs[map[i]], 1004, "Lead not found "
				    "for link field '%s' and value '%s'",
				    f->name, value_text(c, &keys[i]));
			else
				skip(c, &recs[map[i]], 1013, "Object not found "
				    "for link field '%s' and value '%s'",
				    f->name, value_text(c, &keys[i]));
		}
next:
		repo_co_records_rows_free(&rows);
		co_type_clear(&lt);
		free(keys);
		free(map);
		free(found);
		keys = NULL;
		map = NULL;
		found = NULL;
	}
	return err;
}

/* The dedupeBy or deleteBy member: false dedupeFields, true idField. */
static int
by_param(struct call *c, struct resp *r, struct json_object *body,
    const char *key, bool *by_guid)
{
	const char *s;
	int err;

	*by_guid = false;
	if ((err = api_common_member_str(c, r, body, key, 32, &s)) != 0)
		return err;
	if (s == NULL || strcmp(s, "dedupeFields") == 0)
		return 0;
	if (strcmp(s, "idField") == 0) {
		*by_guid = true;
		return 0;
	}
	/* 1003, worded as a real instance words it. */
	return api_common_fail(c, r, -API_ERR_INVALID_REQUEST, "Invalid %s '%s' "
	    "value", key, api_common_echo(c, s));
}

/*
 * Looks up the rows of every pending record by its key: sets id and
 * guid of those found.  Returns 0 or a negative api_err.
 */
static int
find_existing(struct call *c, const struct co_type *t, struct rec *recs,
    size_t n, bool by_guid, bool *found)
{
	const char *keycols[CO_MAX_DEDUPE];
	struct lead_value *keys;
	struct co_rows rows;
	size_t *map, i, j, m = 0, nkey = 0;
	int rr;

	memset(&rows, 0, sizeof(rows));
	if (by_guid)
		keycols[nkey++] = "marketoGUID";
	else
		for (j = 0; j < t->nfields; j++)
			if (t->fields[j].is_dedupe)
				keycols[nkey++] = t->fields[j].name;
	keys = arena_zalloc(&c->app->arena, (n * nkey + 1) * sizeof(*keys));
	map = arena_zalloc(&c->app->arena, (n + 1) * sizeof(*map));
	if (keys == NULL || map == NULL)
		return -API_ERR_SYSTEM;
	for (i = 0; i < n; i++) {
		found[i] = false;
		if (recs[i].state != REC_PENDING)
			continue;
		memcpy(&keys[m * nkey], recs[i].key, nkey * sizeof(*keys));
		map[m++] = i;
	}
	if (m == 0)
		return 0;
	rr = repo_co_records_lookup(c->app->db, t, keycols, nkey, keys, m,
	    NULL, 0, 0, 0, &rows);
	if (rr != 0)
		return err_from_repo(rr);
	for (i = 0; i < rows.n; i++) {
		struct rec *rc = &recs[map[rows.rows[i].seq]];

		found[map[rows.rows[i].seq]] = true;
		rc->id = rows.rows[i].id;
		memcpy(rc->guid, rows.rows[i].guid, sizeof(rc->guid));
	}
	repo_co_records_rows_free(&rows);
	return 0;
}

/*
 * Decides what each pending record becomes and writes them: creates get
 * a new marketoGUID, updates the row found.  With one_by_one a record
 * whose key was taken meanwhile is skipped (1017).  Returns 0,
 * -API_ERR_... or, in batch mode, 1 when a key was taken meanwhile (the
 * caller decides again one by one).
 */
static int
sync_write(struct call *c, const struct co_type *t, struct rec *recs,
    size_t n, enum api_action act, bool by_guid, bool one_by_one)
{
	struct co_write *cw, *uw;
	size_t *cmap, *umap, i, nc = 0, nu = 0;
	bool *found;
	int err, rr;

	found = arena_zalloc(&c->app->arena, (n + 1) * sizeof(*found));
	cw = arena_zalloc(&c->app->arena, (n + 1) * sizeof(*cw));
	uw = arena_zalloc(&c->app->arena, (n + 1) * sizeof(*uw));
	cmap = arena_zalloc(&c->app->arena, (n + 1) * sizeof(*cmap));
	umap = arena_zalloc(&c->app->arena, (n + 1) * sizeof(*umap));
	if (found == NULL || cw == NULL || uw == NULL || cmap == NULL ||
	    umap == NULL)
		return -API_ERR_SYSTEM;
	for (i = 0; i < n; i++)
		if (recs[i].state == REC_CREATE || recs[i].state == REC_UPDATE)
			recs[i].state = REC_PENDING;
	if ((err = find_existing(c, t, recs, n, by_guid, found)) != 0)
		return err;
	for (i = 0; i < n; i++) {
		struct rec *rc = &recs[i];

		if (rc->state != REC_PENDING)
			continue;
		if (found[i] && act == ACT_CREATE_ONLY) {
			skip(c, rc, 1017, "Object already exists");
			continue;
		}
		if (!found[i] && act == ACT_UPDATE_ONLY) {
			skip(c, rc, 1004, "Lead not found");
			continue;
		}
		if (found[i]) {
			rc->state = REC_UPDATE;
			uw[nu].vals = rc->vals;
			uw[nu].id = rc->id;
			memcpy(uw[nu].guid, rc->guid, sizeof(rc->guid));
			uw[nu].by_update = rc->key_change;
			umap[nu++] = i;
		} else {
			rc->state = REC_CREATE;
			co_guid_new(rc->guid);
			cw[nc].vals = rc->vals;
			memcpy(cw[nc].guid, rc->guid, sizeof(rc->guid));
			cmap[nc++] = i;
		}
	}
	rr = repo_co_records_write(c->app->db, t, cw, nc, uw, nu,
	    one_by_one);
	if (rr == -REPO_ERR_CONFLICT && !one_by_one)
		return 1;
	if (rr != 0)
		return err_from_repo(rr);
	for (i = 0; i < nc; i++)
		if (cw[i].conflict)
			skip(c, &recs[cmap[i]], 1017, "Object already exists");
	for (i = 0; i < nu; i++)
		if (uw[i].conflict)
			skip(c, &recs[umap[i]], 1017, "Object already exists");
	return 0;
}

/*
 * POST /rest/v1/customobjects/{customObjectName}.json: Sync Custom
 * Objects.  Records are checked in C first; then one lookup, one
 * multi-row INSERT and one multi-row upsert write the batch.
 */
int
api_co_records_sync(struct call *c, struct resp *r)
{
	struct json_object *body = api_common_body_object(c), *in, *o;
	enum api_action act;
	struct co_type t;
	struct rec *recs;
	bool by_guid;
	size_t n, i;
	int err;

	memset(&t, 0, sizeof(t));
	if (body == NULL) {
		err = api_common_fail(c, r, -API_ERR_INVALID_REQUEST, "The request body "
		    "must be a JSON object");
		goto out;
	}
	if ((err = api_common_action(c, r, body, &act)) != 0 ||
	    (err = by_param(c, r, body, "dedupeBy", &by_guid)) != 0 ||
	    (err = api_common_input(c, r, &input_rule, &in, &n)) != 0)
		goto out;
	if (by_guid && act != ACT_UPDATE_ONLY) {
		err = api_common_fail(c, r, -API_ERR_INVALID_REQUEST, "dedupeBy idField "
		    "is only valid with action updateOnly");
		goto out;
	}
	if ((err = records_type(c, r, &t)) != 0)
		goto out;
	if ((recs = arena_zalloc(&c->app->arena, n * sizeof(*recs))) == NULL) {
		err = -API_ERR_SYSTEM;
		goto out;
	}
	for (i = 0; i < n; i++)
		read_record(c, &t, json_object_array_get_idx(in, i), by_guid,
		    &recs[i]);
	if ((err = skip_duplicates(c, recs, n)) != 0 ||
	    (err = check_links(c, &t, recs, n)) != 0)
		goto out;
	/* A key taken by a concurrent sync: decide again, one by one. */
	if ((err = sync_write(c, &t, recs, n, act, by_guid, false)) == 1)
		err = sync_write(c, &t, recs, n, act, by_guid, true);
	if (err != 0)
		goto out;
	for (i = 0; i < n; i++) {
		if (recs[i].state == REC_SKIPPED) {
			resp_add(r, api_common_skipped("seq",
			    json_object_new_int64((int64_t)i), recs[i].code, "%s",
			    recs[i].msg));
			continue;
		}
		o = json_object_new_object();
		json_object_object_add(o, "seq",
		    json_object_new_int64((int64_t)i));
		json_object_object_add(o, "status", json_object_new_string(
		    recs[i].state == REC_CREATE ? "created" : "updated"));
		json_object_object_add(o, "marketoGUID",
		    json_object_new_string(recs[i].guid));
		resp_add(r, o);
	}
	err = 0;
out:
	co_type_clear(&t);
	return err;
}

/*
 * POST /rest/v1/customobjects/{customObjectName}/delete.json: deletes by
 * dedupe key or marketoGUID; unknown keys are skipped (1013).
 */
int
api_co_records_delete(struct call *c, struct resp *r)
{
	struct json_object *body = api_common_body_object(c), *in, *o;
	struct co_type t;
	struct rec *recs;
	int64_t *ids = NULL;
	bool by_guid, *found;
	size_t n, i, m = 0;
	int err, rr;

	memset(&t, 0, sizeof(t));
	if ((err = by_param(c, r, body, "deleteBy", &by_guid)) != 0 ||
	    (err = api_common_input(c, r, &input_rule, &in, &n)) != 0 ||
	    (err = records_type(c, r, &t)) != 0)
		goto out;
	recs = arena_zalloc(&c->app->arena, n * sizeof(*recs));
	found = arena_zalloc(&c->app->arena, n * sizeof(*found));
	ids = arena_zalloc(&c->app->arena, n * sizeof(*ids));
	if (recs == NULL || found == NULL || ids == NULL) {
		err = -API_ERR_SYSTEM;
		goto out;
	}
	for (i = 0; i < n; i++)
		read_record(c, &t, json_object_array_get_idx(in, i), by_guid,
		    &recs[i]);
	if ((err = skip_duplicates(c, recs, n)) != 0 ||
	    (err = find_existing(c, &t, recs, n, by_guid, found)) != 0)
		goto out;
	for (i = 0; i < n; i++) {
		if (recs[i].state != REC_PENDING)
			continue;
		if (!found[i]) {
			skip(c, &recs[i], 1013, "Object not found");
			continue;
		}
		recs[i].state = REC_DONE;
		ids[m++] = recs[i].id;
	}
	rr = repo_co_records_delete_ids(c->app->db, &t, ids, m);
	if (rr != 0) {
		err = err_from_repo(rr);
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (recs[i].state == REC_SKIPPED) {
			resp_add(r, api_common_skipped("seq",
			    json_object_new_int64((int64_t)i), recs[i].code, "%s",
			    recs[i].msg));
			continue;
		}
		o = json_object_new_object();
		json_object_object_add(o, "seq",
		    json_object_new_int64((int64_t)i));
		json_object_object_add(o, "marketoGUID",
		    json_object_new_string(recs[i].guid));
		json_object_object_add(o, "status",
		    json_object_new_string("deleted"));
		resp_add(r, o);
	}
	err = 0;
out:
	co_type_clear(&t);
	return err;
}

/* A column a Get may return: a system column or a field. */
struct out_col {
	const char		*name;	/* canonical column name */
	const struct co_field	*f;	/* NULL for system columns */
	bool			 is_time;
};

/* Resolves a requested field name; 1006 when the type has none. */
static int
out_col(struct call *c, struct resp *r, const struct co_type *t,
    const char *name, struct out_col *oc)
{
	static const char *const sys[] = { "marketoGUID", "createdAt",
	    "updatedAt" };
	size_t i;

	memset(oc, 0, sizeof(*oc));
	for (i = 0; i < sizeof(sys) / sizeof(sys[0]); i++)
		if (strcasecmp(name, sys[i]) == 0) {
			oc->name = sys[i];
			oc->is_time = i > 0;
			return 0;
		}
	if ((oc->f = co_type_field(t, name)) == NULL)
		return api_common_fail(c, r, -API_ERR_FIELD_NOT_FOUND, "Field '%s' not "
		    "found", api_common_echo(c, name));
	oc->name = oc->f->name;
	return 0;
}

/* The JSON of a column read as text (json null for NULL). */
static struct json_object *
col_json(const struct out_col *oc, const char *text, size_t len)
{
	struct lead_field lf;
	struct co_field tf;

	if (text == NULL)
		return NULL;
	if (oc->f != NULL) {
		co_field_as_lead(oc->f, &lf);
		return lead_value_json(&lf, text, len);
	}
	if (oc->is_time) {
		memset(&tf, 0, sizeof(tf));
		tf.type = CO_DATETIME;
		tf.name = (char *)(uintptr_t)oc->name;
		co_field_as_lead(&tf, &lf);
		return lead_value_json(&lf, text, len);
	}
	return json_object_new_string_len(text, (int)len);
}

/* A list member of the body (strings), or the list parameter. */
static int
list_arg(struct call *c, struct resp *r, struct json_object *body,
    const char *key, const char ***out, int *n)
{
	struct json_object *a, *v;
	size_t i, len;

	*out = NULL;
	*n = 0;
	if (body != NULL && json_object_object_get_ex(body, key, &a) &&
	    a != NULL) {
		if (!json_object_is_type(a, json_type_array))
			return api_common_fail(c, r, -API_ERR_INVALID_VALUE,
			    "Invalid value for '%s': an array expected", key);
		len = json_object_array_length(a);
		if (len > MAX_LIST_ITEMS)
			return api_common_fail(c, r, -API_ERR_INVALID_REQUEST, "Too many "
			    "items in '%s'", key);
		*out = arena_zalloc(&c->app->arena, (len + 1) *
		    sizeof(**out));
		if (*out == NULL)
			return -API_ERR_SYSTEM;
		for (i = 0; i < len; i++) {
			v = json_object_array_get_idx(a, i);
			if (v == NULL || !json_object_is_type(v,
			    json_type_string))
				return api_common_fail(c, r, -API_ERR_INVALID_VALUE,
				    "Invalid value for '%s': strings expected",
				    key);
			(*out)[i] = json_object_get_string(v);
		}
		*n = (int)len;
		return 0;
	}
	*n = req_param_list(c->req, key, out);
	return *n < 0 ? *n : 0;
}

/* A scalar member of the body as text, or the parameter. */
static const char *
scalar_arg(struct call *c, struct json_object *body, const char *key)
{
	struct json_object *v;

	if (body != NULL && json_object_object_get_ex(body, key, &v) &&
	    v != NULL && !json_object_is_type(v, json_type_object) &&
	    !json_object_is_type(v, json_type_array))
		return arena_strdup(&c->app->arena, json_object_get_string(v));
	return req_param(c->req, key);
}

/*
 * GET /rest/v1/customobjects/{customObjectName}.json (also POST
 * ?_method=GET with a JSON body for compound keys): records by
 * filterType/filterValues or by input keys, `fields`, `batchSize`,
 * `nextPageToken`.  Each result carries the seq of the value it matched.
 */
int
api_co_records_get(struct call *c, struct resp *r)
{
	static const struct vparam get_params[] = {
		{ .name = "batchSize", .type = VP_INT, .min = 1,
		  .max = MAX_BATCH_SIZE, .src = VP_PARAM | VP_JSON,
		  .bad_err = -API_ERR_INVALID_REQUEST,
		  .bad_msg = "Invalid batchSize '%s': 1 to "
		      API_STR(MAX_BATCH_SIZE) },
	};
	struct vvalue pv[1];
	struct json_object *body = api_common_body_object(c), *input = NULL, *o, *v;
	const struct co_field *keyf[CO_MAX_DEDUPE];
	const char *keycols[CO_MAX_DEDUPE], **fnames = NULL, **vals = NULL;
	const char *ftype, *s, **cols;
	struct out_col *oc;
	struct co_type t;
	struct co_rows rows;
	struct lead_value *keys;
	size_t *map, nkey = 0, nin, i, j, m = 0, ncols = 0, shown_n;
	int64_t batch = MAX_BATCH_SIZE, after = 0;
	uint32_t sig;
	char tok[PAGE_TOKEN_BYTES];
	int nf, nv, err, rr;

	memset(&t, 0, sizeof(t));
	memset(&rows, 0, sizeof(rows));
	if ((err = records_type(c, r, &t)) != 0)
		goto out;
	if (body != NULL && json_object_object_get_ex(body, "input", &input) &&
	    input != NULL && !json_object_is_type(input, json_type_array)) {
		err = api_common_fail(c, r, -API_ERR_INVALID_VALUE, "Invalid value for "
		    "'input': an array expected");
		goto out;
	}
	ftype = scalar_arg(c, body, "filterType");
	if ((ftype == NULL || ftype[0] == '\0') && input != NULL)
		ftype = "dedupeFields";
	/*
	 * The filterType and filterValues errors are 1003, worded as real
	 * instances word them ("filterType not specified", "Invalid
	 * filterType 'brand'"), as the Leads group's are.
	 */
	if (ftype == NULL || ftype[0] == '\0') {
		err = api_common_fail(c, r, -API_ERR_INVALID_REQUEST,
		    "filterType not specified");
		goto out;
	}
	/* The searchable fields (§6.2): idField, the dedupe key, links. */
	if (strcmp(ftype, "idField") == 0 ||
	    strcasecmp(ftype, "marketoGUID") == 0) {
		keycols[nkey] = "marketoGUID";
		keyf[nkey++] = NULL;
	} else if (strcmp(ftype, "dedupeFields") == 0) {
		for (j = 0; j < t.nfields; j++)
			if (t.fields[j].is_dedupe) {
				keycols[nkey] = t.fields[j].name;
				keyf[nkey++] = &t.fields[j];
			}
	} else {
		const struct co_field *f = co_type_field(&t, ftype);

		if (f == NULL || !(f->is_link || (f->is_dedupe &&
		    co_type_ndedupe(&t) == 1))) {
			err = api_common_fail(c, r, -API_ERR_INVALID_REQUEST,
			    "Invalid filterType '%s'", api_common_echo(c, ftype));
			goto out;
		}
		keycols[nkey] = f->name;
		keyf[nkey++] = f;
	}
	/* The values: input objects, or filterValues. */
	if (input != NULL) {
		nin = json_object_array_length(input);
	} else {
		if (nkey > 1) {
			err = api_common_fail(c, r, -API_ERR_INVALID_REQUEST, "A compound "
			    "key is looked up with an 'input' array of "
			    "objects (POST ?_method=GET with a JSON body)");
			goto out;
		}
		if ((err = list_arg(c, r, body, "filterValues", &vals,
		    &nv)) != 0)
			goto out;
		nin = (size_t)nv;
	}
	if (nin == 0 && input == NULL) {
		err = api_common_fail(c, r, -API_ERR_INVALID_REQUEST,
		    "filterValues not specified");
		goto out;
	}
	if (nin == 0) {
		err = api_common_fail(c, r, -API_ERR_MISSING_PARAM, "Missing value for "
		    "the required parameter 'input'");
		goto out;
	}
	if (nin > MAX_FILTER_VALUES) {
		err = api_common_fail(c, r, -API_ERR_INVALID_REQUEST, "Too many filter "
		    "values: %zu (the limit is %d)", nin, MAX_FILTER_VALUES);
		goto out;
	}
	keys = arena_zalloc(&c->app->arena, nin * nkey * sizeof(*keys));
	map = arena_zalloc(&c->app->arena, nin * sizeof(*map));
	if (keys == NULL || map == NULL) {
		err = -API_ERR_SYSTEM;
		goto out;
	}
	sig = page_token_sig(PAGE_TOKEN_SIG_INIT, t.api_name,
	    strlen(t.api_name));
	sig = page_token_sig(sig, ftype, strlen(ftype));
	for (i = 0; i < nin; i++) {
		bool null = false;

		for (j = 0; j < nkey; j++) {
			struct lead_value *kv = &keys[m * nkey + j];
			struct json_object *tmp = NULL;

			if (input != NULL) {
				o = json_object_array_get_idx(input, i);
				if (o == NULL || !json_object_is_type(o,
				    json_type_object) ||
				    !json_object_object_get_ex(o, keycols[j],
				    &v)) {
					err = api_common_fail(c, r,
					    -API_ERR_INVALID_REQUEST, "Each "
					    "input must give '%s'", keycols[j]);
					goto out;
				}
			} else {
				tmp = json_object_new_string(vals[i]);
				v = tmp;
			}
			if (keyf[j] == NULL)
				rr = parse_guid(c, v, kv);
			else
				rr = co_value_parse(keyf[j], v,
				    &c->app->arena, kv);
			s = lead_value_text(v, &c->app->arena);
			json_object_put(tmp);
			if (rr != 0) {
				err = api_common_fail(c, r, -API_ERR_INVALID_REQUEST,
				    "Invalid value for field '%s' and value "
				    "'%s'", keycols[j], api_common_echo(c, s));
				goto out;
			}
			sig = page_token_sig(sig, s, strlen(s));
			if (kv->kind == LV_NULL)
				null = true;
		}
		/* A value with an empty part matches no record. */
		if (!null)
			map[m++] = i;
	}
	/* fields, batchSize, nextPageToken. */
	if ((err = list_arg(c, r, body, "fields", &fnames, &nf)) != 0)
		goto out;
	oc = arena_zalloc(&c->app->arena, ((size_t)nf + 4 + t.nfields) *
	    sizeof(*oc));
	cols = arena_zalloc(&c->app->arena, ((size_t)nf + 4 + t.nfields) *
	    sizeof(*cols));
	if (oc == NULL || cols == NULL) {
		err = -API_ERR_SYSTEM;
		goto out;
	}
	if (nf == 0) {
		(void)out_col(c, r, &t, "marketoGUID", &oc[ncols++]);
		for (j = 0; j < t.nfields; j++)
			if (t.fields[j].is_dedupe)
				(void)out_col(c, r, &t, t.fields[j].name,
				    &oc[ncols++]);
		(void)out_col(c, r, &t, "updatedAt", &oc[ncols++]);
		(void)out_col(c, r, &t, "createdAt", &oc[ncols++]);
	} else {
		for (i = 0; i < (size_t)nf; i++) {
			if ((err = out_col(c, r, &t, fnames[i],
			    &oc[ncols])) != 0)
				goto out;
			for (j = 0; j < ncols; j++)
				if (strcmp(oc[j].name, oc[ncols].name) == 0)
					break;
			if (j == ncols)
				ncols++;
		}
	}
	for (j = 0; j < ncols; j++)
		cols[j] = oc[j].name;
	if ((err = VALIDATE(c->req, r, get_params, pv)) != 0)
		goto out;
	if (pv[0].present)
		batch = pv[0].i;
	if ((s = scalar_arg(c, body, "nextPageToken")) != NULL &&
	    s[0] != '\0' && page_token_decode(s, TOKEN_KIND_CO, sig,
	    &after) != 0) {
		err = api_common_fail(c, r, -API_ERR_INVALID_REQUEST, "Invalid "
		    "nextPageToken");
		goto out;
	}
	if (m > 0) {
		rr = repo_co_records_lookup(c->app->db, &t, keycols, nkey,
		    keys, m, cols, ncols, after, (size_t)batch + 1, &rows);
		if (rr != 0) {
			err = err_from_repo(rr);
			goto out;
		}
	}
	shown_n = rows.n > (size_t)batch ? (size_t)batch : rows.n;
	for (i = 0; i < shown_n; i++) {
		const struct co_row *row = &rows.rows[i];

		o = json_object_new_object();
		json_object_object_add(o, "seq",
		    json_object_new_int64((int64_t)map[row->seq]));
		json_object_object_add(o, "marketoGUID",
		    json_object_new_string(row->guid));
		for (j = 0; j < ncols; j++)
			if (strcmp(oc[j].name, "marketoGUID") != 0)
				json_object_object_add(o, oc[j].name,
				    col_json(&oc[j], row->vals[j],
				    row->lens[j]));
		resp_add(r, o);
	}
	r->more_result = rows.n > (size_t)batch;
	if (rows.n > (size_t)batch) {
		page_token_encode(TOKEN_KIND_CO, sig,
		    rows.rows[shown_n - 1].id, tok);
		r->next_page_token = arena_strdup(&c->app->arena, tok);
	}
	err = 0;
out:
	repo_co_records_rows_free(&rows);
	co_type_clear(&t);
	return err;
}

/* GET /rest/v1/customobjects.json?names=: the approved types. */
int
api_co_records_list(struct call *c, struct resp *r)
{
	return api_co_types_browse(c, r, CO_VER_APPROVED, NULL, true, SHAPE_OBJECT);
}

/* GET /rest/v1/customobjects/{customObjectName}/describe.json */
int
api_co_records_describe(struct call *c, struct resp *r)
{
	struct co_type t;
	int err;

	memset(&t, 0, sizeof(t));
	if ((err = records_type(c, r, &t)) == 0)
		resp_add(r, api_co_types_json(&t, SHAPE_DESCRIBE));
	co_type_clear(&t);
	return err;
}

