/*
 * Static lists of the lead database (docs/behaviour.md §20): Get Lists,
 * Get List by Id, Add to List, Remove from List and Member of List.  Get
 * Leads by List Id is a lead read (api_leads.c).
 *
 * Choices where the service is undocumented (beyond-seed §D, decided in
 * docs/behaviour.md §20):
 * - An unknown list id is the request-level 1013 "Static list not
 *   found" for the operations on one list; Get Lists with filters that
 *   match nothing answers an empty result.
 * - Lead ids come from the query (`id`, repeated or comma-separated),
 *   the JSON body's "input" array of {"id": N}, or both (their union, in
 *   that order); at most MAX_BATCH_RECORDS.  None is 1003 "Leads not
 *   specified", an id that is not a positive integer the request-level
 *   1001.
 * - Adding a lead already in the list answers "added" again and records
 *   no activity; removing a lead that is not in it is skipped with 1015
 *   "Lead not in list"; an unknown lead is skipped with 1004.
 * - Get Lists pages as the other position-paged reads do: moreResult
 *   and nextPageToken only when there is a next page.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "api/api.h"
#include "api/api_common.h"
#include "bounds.h"
#include "call.h"
#include "db/query.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "http/router.h"
#include "http/validate.h"
#include "repo/repo.h"
#include "repo/repo_lists.h"
#include "util/arena.h"
#include "util/num.h"
#include "util/pagetoken.h"

/* Paging token kind (util/pagetoken.h) of Get Lists. */
#define TOKEN_KIND_STATIC_LISTS	15

/* A static list as the lead database shows it (StaticList). */
static struct json_object *
list_json(const struct db_text_rows *t, size_t i)
{
	struct json_object *o = json_object_new_object();
	const char *s;

	json_object_object_add(o, "id",
	    json_object_new_int64(db_text_i64(t, i, LIST_COL_ID)));
	json_object_object_add(o, "name",
	    json_object_new_string(db_text_str(t, i, LIST_COL_NAME)));
	if ((s = db_text_str(t, i, LIST_COL_DESCRIPTION)) != NULL)
		json_object_object_add(o, "description",
		    json_object_new_string(s));
	if ((s = db_text_str(t, i, LIST_COL_PROGRAM)) != NULL)
		json_object_object_add(o, "programName",
		    json_object_new_string(s));
	if (db_text_str(t, i, LIST_COL_WORKSPACE_ID) != NULL)
		json_object_object_add(o, "workspaceId", json_object_new_int64(
		    db_text_i64(t, i, LIST_COL_WORKSPACE_ID)));
	json_object_object_add(o, "workspaceName",
	    json_object_new_string(db_text_str(t, i, LIST_COL_WORKSPACE)));
	json_object_object_add(o, "createdAt", api_common_db_time_json(
	    db_text_str(t, i, LIST_COL_CREATED)));
	json_object_object_add(o, "updatedAt", api_common_db_time_json(
	    db_text_str(t, i, LIST_COL_UPDATED)));
	return o;
}

/*
 * GET /rest/v1/lists.json?id=&name=&programName=&workspaceName=
 * &batchSize=&nextPageToken= (also POST with _method=GET): the lists
 * matching every filter given, by id.  Returns 0 or a negative api_err
 * (1001 bad id, 1003 bad batchSize or token).
 */
int
api_lists_browse(struct call *c, struct resp *r)
{
	struct repo_filter f;
	struct db_text_rows t;
	int64_t after;
	uint32_t sig = PAGE_TOKEN_SIG_INIT;
	size_t i, shown;
	int batch, e;

	if ((e = api_common_browse_filter(c, r, &f, &sig)) != 0 ||
	    (e = api_common_browse_page(c, r, TOKEN_KIND_STATIC_LISTS, sig,
	    &batch, &after)) != 0)
		return e;
	if ((e = repo_lists_browse(c->app->db, &c->app->arena, &f, after,
	    batch + 1, &t)) != 0)
		return err_from_repo(e);
	if (r->result == NULL)
		r->result = json_object_new_array();
	shown = t.count > (size_t)batch ? (size_t)batch : t.count;
	for (i = 0; i < shown; i++)
		resp_add(r, list_json(&t, i));
	if (t.count > shown)
		return api_common_browse_next(c, r, TOKEN_KIND_STATIC_LISTS,
		    sig, db_text_i64(&t, shown - 1, LIST_COL_ID));
	return 0;
}

/* The 1013 of an operation on one list that does not exist. */
static int
no_list(struct call *c, struct resp *r)
{
	return api_common_fail(c, r, -API_ERR_OBJECT_NOT_FOUND,
	    "Static list not found");
}

/*
 * GET /rest/v1/lists/{listId}.json: the list.  Returns 0, 1013 or
 * another negative api_err.
 */
int
api_lists_get(struct call *c, struct resp *r)
{
	struct repo_filter f;
	struct db_text_rows t;
	int64_t id = c->req->path_ints[0];
	int e;

	memset(&f, 0, sizeof(f));
	f.ids = &id;
	f.nids = 1;
	if (id < 1 || id > INT32_MAX)
		return no_list(c, r);
	if ((e = repo_lists_browse(c->app->db, &c->app->arena, &f, 0, 1,
	    &t)) != 0)
		return err_from_repo(e);
	if (t.count == 0)
		return no_list(c, r);
	resp_add(r, list_json(&t, 0));
	return 0;
}

/* ---- Members ------------------------------------------------------- */

/* Lead ids being collected: at most MAX_BATCH_RECORDS. */
struct ids {
	int64_t	 v[MAX_BATCH_RECORDS];
	size_t	 n;
	bool	 over;
};

/* Adds the id text s (n bytes) to l; 1001 when it is not an id. */
static int
ids_add(struct call *c, struct resp *r, struct ids *l, const char *s,
    size_t n)
{
	int64_t v;

	if (num_parse_i64n(s, n, 1, INT32_MAX, &v) != 0)
		return api_common_invalid(c, r, arena_strndup(&c->app->arena,
		    s, n), "Integer");
	if (l->n == MAX_BATCH_RECORDS)
		l->over = true;
	else
		l->v[l->n++] = v;
	return 0;
}

/*
 * Adds the ids of one text value: "1", "1,2" (split before) or "1&id=2",
 * which a client that escapes an id list it joined itself sends.
 */
static int
ids_add_text(struct call *c, struct resp *r, struct ids *l, const char *s)
{
	const char *amp;
	int e;

	while ((amp = strstr(s, "&id=")) != NULL) {
		if ((e = ids_add(c, r, l, s, (size_t)(amp - s))) != 0)
			return e;
		s = amp + 4;
	}
	return ids_add(c, r, l, s, strlen(s));
}

/* Adds a JSON id: a number or a string of digits. */
static int
ids_add_json(struct call *c, struct resp *r, struct ids *l,
    struct json_object *o)
{
	const char *s;

	if (o == NULL || (!json_object_is_type(o, json_type_int) &&
	    !json_object_is_type(o, json_type_string)))
		return api_common_invalid(c, r, o == NULL ? "null" :
		    json_object_to_json_string(o), "Integer");
	s = json_object_get_string(o);
	return ids_add_text(c, r, l, s);
}

/*
 * The lead ids of a member operation: the query's id values, then the
 * JSON body's input[].id; a body {"query": {"id": ...}} (a client that
 * wraps its query in the body) counts as the query.
 */
static int
read_ids(struct call *c, struct resp *r, struct ids *l)
{
	struct json_object *body = c->req->json, *in, *q, *id;
	const char **items = NULL;
	size_t i, n;
	int k, e;

	memset(l, 0, sizeof(*l));
	if ((k = req_param_list(c->req, "id", &items)) < 0)
		return k;
	for (i = 0; i < (size_t)k; i++)
		if ((e = ids_add_text(c, r, l, items[i])) != 0)
			return e;
	if (body != NULL && json_object_is_type(body, json_type_object)) {
		if (json_object_object_get_ex(body, "input", &in)) {
			if (!json_object_is_type(in, json_type_array))
				return api_common_fail(c, r,
				    -API_ERR_INVALID_REQUEST,
				    "input must be an array");
			n = json_object_array_length(in);
			for (i = 0; i < n; i++) {
				q = json_object_array_get_idx(in, i);
				id = NULL;
				if (json_object_is_type(q, json_type_object))
					json_object_object_get_ex(q, "id",
					    &id);
				else
					id = q;
				if ((e = ids_add_json(c, r, l, id)) != 0)
					return e;
			}
		}
		if (json_object_object_get_ex(body, "query", &q) &&
		    json_object_is_type(q, json_type_object) &&
		    json_object_object_get_ex(q, "id", &id)) {
			n = json_object_is_type(id, json_type_array) ?
			    json_object_array_length(id) : 1;
			for (i = 0; i < n; i++)
				if ((e = ids_add_json(c, r, l,
				    json_object_is_type(id, json_type_array) ?
				    json_object_array_get_idx(id, i) : id)) != 0)
					return e;
		}
	}
	if (l->n == 0)
		return api_common_fail(c, r, -API_ERR_INVALID_REQUEST,
		    "Leads not specified");
	if (l->over)
		return api_common_fail(c, r, -API_ERR_INVALID_REQUEST,
		    "Too many leads in input (at most "
		    API_STR(MAX_BATCH_RECORDS) ")");
	return 0;
}

/* The record of one lead of a member operation. */
static struct json_object *
member_record(enum list_members_op op, int64_t id, enum list_state st)
{
	struct json_object *v = json_object_new_int64(id);

	if (st == LIST_NO_LEAD)
		return api_common_skipped("id", v, 1004, "Lead not found");
	switch (op) {
	case LIST_MEMBERS_ADD:
		return api_common_record("id", v, "added");
	case LIST_MEMBERS_REMOVE:
		if (st == LIST_WAS_NOT_MEMBER)
			return api_common_skipped("id", v, 1015,
			    "Lead not in list");
		return api_common_record("id", v, "removed");
	default:
		return api_common_record("id", v, st == LIST_WAS_MEMBER ?
		    "memberof" : "notmemberof");
	}
}

/*
 * POST /rest/v1/lists/{listId}/leads.json (Add to List), DELETE the same
 * path (Remove from List), GET /rest/v1/lists/{listId}/leads/ismember.json
 * (Member of List), the route's variant saying which: one record per
 * lead id, in the order given.  Returns 0, 1001, 1003, 1013 or another
 * negative api_err.
 */
int
api_lists_members(struct call *c, struct resp *r)
{
	static const enum list_op ops[] = {
		[LIST_MEMBERS_ADD] = LIST_OP_ADD,
		[LIST_MEMBERS_REMOVE] = LIST_OP_REMOVE,
		[LIST_MEMBERS_ISMEMBER] = LIST_OP_READ,
	};
	enum list_members_op op = (enum list_members_op)c->route->variant;
	enum list_state st[MAX_BATCH_RECORDS];
	struct ids *l;
	int64_t id = c->req->path_ints[0];
	size_t i;
	int e;

	if ((l = arena_alloc(&c->app->arena, sizeof(*l))) == NULL)
		return -API_ERR_SYSTEM;
	if ((e = read_ids(c, r, l)) != 0)
		return e;
	if (id < 1 || id > INT32_MAX)
		return no_list(c, r);
	e = repo_lists_members_apply(c->app->db, (int32_t)id, ops[op], l->v,
	    l->n, st);
	if (e == -REPO_ERR_NOT_FOUND)
		return no_list(c, r);
	if (e != 0)
		return err_from_repo(e);
	if (r->result == NULL)
		r->result = json_object_new_array();
	for (i = 0; i < l->n; i++)
		resp_add(r, member_record(op, l->v[i], st[i]));
	return 0;
}
