/*
 * Lead partitions, program status changes, the membership reads of one
 * lead, Associate Lead and Merge Leads (docs/behaviour.md §5.6, §5.9,
 * §5.10, §5.13).  Decisions where the real service is not documented:
 *
 * - Update Lead Partition: an unknown partition name skips the record
 *   with 1008 "Access denied to partition '<name>'" (what the service
 *   answers for a partition the user cannot reach); a missing name is
 *   1009; an unknown lead 1004.  Names are case-sensitive.
 * - Change Lead Program Status: an unknown program is the request-level
 *   1013 "Program '<id>' not found"; a status the program does not have
 *   skips every record with 1025 (§3.3 lists it per record); a missing
 *   status is the request-level 1002.  A non-member is skipped with 1013
 *   "Lead is not a member of the program", an unknown lead with 1004.
 * - The membership reads answer an empty result for an unknown lead, as
 *   the Lead DB reads do for queries that find nothing (§2.4).  Bad
 *   batchSize, dates or paging tokens are the request-level 1001
 *   "Invalid value '<v>'. Required of type '<type>'"; batchSize above
 *   300 is cut to 300.  nextPageToken (util/pagetoken.h) carries the
 *   last id shown and is valid only for the same operation, lead and
 *   filters: keyset paging, stable while rows are added.
 * - Merge Leads: mergeInCRM is accepted and has no effect (there is no
 *   CRM here).  A winner among the losers or no loser is 1003, more than
 *   25 losers 1080, an id that is not a number 1001.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <json-c/json.h>

#include "api/api.h"
#include "api/api_common.h"
#include "api/api_leads_catalog.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "http/router.h"
#include "http/validate.h"
#include "bounds.h"
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_cookies.h"
#include "repo/repo_merge.h"
#include "repo/repo_partitions.h"
#include "repo/repo_programs.h"
#include "util/arena.h"
#include "util/num.h"
#include "util/pagetoken.h"

/* Paging token kinds (util/pagetoken.h) of the three reads. */
#define TOKEN_KIND_LISTS	12
#define TOKEN_KIND_PROGRAMS	13
#define TOKEN_KIND_CAMPAIGNS	14

/*
 * The "input" array of a JSON body: 1..MAX_BATCH_RECORDS records, else
 * the request-level 1003.
 */
static const struct api_input input_rule = {
	.max = MAX_BATCH_RECORDS,
	.missing_err = -API_ERR_INVALID_REQUEST,
	.missing_msg = "Leads not specified",
	.max_err = -API_ERR_INVALID_REQUEST,
	.max_msg = "Too many leads in input (at most "
	    API_STR(MAX_BATCH_RECORDS) ")",
};

/* ---- Parameters ---------------------------------------------------- */

/* batchSize and nextPageToken of a membership read. */
struct page {
	int	 size;		/* rows on this page */
	int32_t	 after;		/* ids greater than this */
};

/*
 * Reads batchSize and nextPageToken.  A token is valid only for the
 * query it came from: kind and sig (the operation, the lead and the
 * filters) must match.
 */
static int
page_params(struct call *c, struct resp *r, uint8_t kind, uint32_t sig,
    struct page *pg)
{
	static const struct vparam params[] = {
		{ .name = "batchSize", .type = VP_INT, .min = 1,
		  .type_name = "batchSize" },
		{ .name = "nextPageToken", .type = VP_STR },
	};
	struct vvalue v[2];
	int64_t n;
	int err;

	pg->size = MAX_BATCH_SIZE;
	pg->after = 0;
	if ((err = VALIDATE(c->req, r, params, v)) != 0)
		return err;
	if (v[0].present && v[0].i < MAX_BATCH_SIZE)
		pg->size = (int)v[0].i;
	if (v[1].present) {
		if (page_token_decode(v[1].s, kind, sig, &n) != 0 ||
		    n > INT32_MAX)
			return api_common_invalid(c, r, v[1].s,
			    "nextPageToken");
		pg->after = (int32_t)n;
	}
	return 0;
}

/* Adds a string (NULL: none) to a query signature. */
static uint32_t
sig_add(uint32_t sig, const char *s)
{
	return s != NULL ? page_token_sig(sig, s, strlen(s)) :
	    page_token_sig(sig, "", 0);
}

/*
 * An ISO-8601 date or date-time parameter as "YYYY-MM-DD HH:MM:SS" UTC
 * (arena) in *out, or NULL when absent.  The parser is the one lead
 * datetime fields use.
 */
static int
date_param(struct call *c, struct resp *r, const char *name,
    const char **out)
{
	struct lead_field f;
	struct lead_value lv;
	struct json_object *js;
	const char *v;
	int rc;

	*out = NULL;
	if ((v = req_param(c->req, name)) == NULL || v[0] == '\0')
		return 0;
	memset(&f, 0, sizeof(f));
	f.type = LF_DATETIME;
	js = json_object_new_string(v);
	rc = lead_value_parse(&f, js, &c->app->arena, &lv);
	json_object_put(js);
	if (rc != 0 || lv.kind != LV_STR)
		return api_common_invalid(c, r, v, "datetime");
	*out = lv.s;
	return 0;
}

/*
 * filterType=programId&filterValues=1,2 of Get Programs by Lead Id: the
 * ids as a comma-separated arena list in *out (NULL: no filter).
 */
static int
program_filter(struct call *c, struct resp *r, const char **out)
{
	const char *type, **vals = NULL;
	char *list, *p;
	int64_t id;
	int n, i;

	*out = NULL;
	type = req_param(c->req, "filterType");
	if ((n = req_param_list(c->req, "filterValues", &vals)) < 0) {
		api_common_err_msg(c, r, "Too many filterValues (at most %d)",
		    MAX_FILTER_VALUES);
		return n;
	}
	if (type == NULL || type[0] == '\0') {
		if (n == 0)
			return 0;
		api_common_err_msg(c, r, "Missing value for the required "
		    "parameter 'filterType'");
		return -API_ERR_MISSING_PARAM;
	}
	if (strcmp(type, "programId") != 0) {
		api_common_err_msg(c, r, "Field '%s' not supported",
		    api_common_echo(c, type));
		return -API_ERR_FIELD_NOT_SUPPORTED;
	}
	if (n == 0) {
		api_common_err_msg(c, r, "Missing value for the required "
		    "parameter 'filterValues'");
		return -API_ERR_MISSING_PARAM;
	}
	if (n > MAX_FILTER_VALUES) {
		api_common_err_msg(c, r, "Too many filterValues (at most %d)",
		    MAX_FILTER_VALUES);
		return -API_ERR_INVALID_REQUEST;
	}
	if ((list = arena_alloc(&c->app->arena, (size_t)n * 12 + 1)) == NULL)
		return -API_ERR_SYSTEM;
	p = list;
	for (i = 0; i < n; i++) {
		if (num_parse_i64(vals[i], 0, INT32_MAX, &id) != 0)
			return api_common_invalid(c, r, vals[i], "integer");
		p += snprintf(p, 13, "%s%lld", i > 0 ? "," : "",
		    (long long)id);
	}
	*out = list;
	return 0;
}

/* ---- Membership reads ---------------------------------------------- */

static const uint8_t page_kind[] = {
	[MEMBERSHIP_LISTS] = TOKEN_KIND_LISTS,
	[MEMBERSHIP_PROGRAMS] = TOKEN_KIND_PROGRAMS,
	[MEMBERSHIP_CAMPAIGNS] = TOKEN_KIND_CAMPAIGNS,
};

static struct json_object *
member_json(enum membership_kind kind, const struct repo_member_row *m)
{
	struct json_object *o = json_object_new_object();

	switch (kind) {
	case MEMBERSHIP_LISTS:
		json_object_object_add(o, "listId",
		    json_object_new_int64(m->id));
		break;
	case MEMBERSHIP_CAMPAIGNS:
		json_object_object_add(o, "smartCampaignId",
		    json_object_new_int64(m->id));
		break;
	case MEMBERSHIP_PROGRAMS:
		/* Key order of the documented example (§5.13). */
		json_object_object_add(o, "id", json_object_new_int64(m->id));
		json_object_object_add(o, "progressionStatus",
		    json_object_new_string(m->status != NULL ? m->status :
		    ""));
		json_object_object_add(o, "isExhausted",
		    json_object_new_boolean(m->is_exhausted));
		json_object_object_add(o, "acquiredBy",
		    json_object_new_boolean(m->acquired_by));
		json_object_object_add(o, "reachedSuccess",
		    json_object_new_boolean(m->reached_success));
		if (m->stream != NULL)
			json_object_object_add(o, "stream",
			    json_object_new_string(m->stream));
		if (m->cadence != NULL)
			json_object_object_add(o, "nurtureCadence",
			    json_object_new_string(m->cadence));
		json_object_object_add(o, "membershipDate",
		    json_object_new_string(m->created_at));
		json_object_object_add(o, "updatedAt",
		    json_object_new_string(m->updated_at));
		return o;
	}
	json_object_object_add(o, "createdAt",
	    json_object_new_string(m->created_at));
	json_object_object_add(o, "updatedAt",
	    json_object_new_string(m->updated_at));
	return o;
}

/*
 * GET /rest/v1/leads/{leadId}/listMembership.json: the static lists of
 * the lead, [{"listId","createdAt","updatedAt"}], paged (batchSize,
 * nextPageToken).  Returns 0 or a negative api_err (1001 bad paging).
 * GET /rest/v1/leads/{leadId}/programMembership.json: the programs of the
 * lead with progression status and flags, filtered by filterType=
 * programId&filterValues and earliest/latestUpdatedAt, paged.  Returns 0
 * or a negative api_err (1001, 1002, 1003, 1011).
 * GET /rest/v1/leads/{leadId}/smartCampaignMembership.json: the smart
 * campaigns of the lead, [{"smartCampaignId","createdAt","updatedAt"}],
 * filtered by earliest/latestUpdatedAt, paged.  Returns 0 or a negative
 * api_err (1001).
 * The route's variant (enum membership_kind) says which; parameters, one
 * page, moreResult.
 */
int
api_lead_membership_read(struct call *c, struct resp *r)
{
	struct repo_member_query q;
	struct repo_member_list l = { NULL, 0 };
	struct page pg;
	int64_t lead = c->req->path_ints[0];
	enum membership_kind kind = (enum membership_kind)c->route->variant;
	uint32_t sig;
	char num[24], *tok;
	size_t i, shown;
	int err;

	memset(&q, 0, sizeof(q));
	if (kind != MEMBERSHIP_LISTS &&
	    ((err = date_param(c, r, "earliestUpdatedAt", &q.earliest)) != 0 ||
	    (err = date_param(c, r, "latestUpdatedAt", &q.latest)) != 0))
		goto out;
	if (kind == MEMBERSHIP_PROGRAMS &&
	    (err = program_filter(c, r, &q.program_ids)) != 0)
		goto out;
	snprintf(num, sizeof(num), "%lld", (long long)lead);
	sig = sig_add(sig_add(sig_add(sig_add(PAGE_TOKEN_SIG_INIT, num),
	    q.earliest), q.latest), q.program_ids);
	if ((err = page_params(c, r, page_kind[kind], sig, &pg)) != 0)
		goto out;
	q.lead_id = lead;
	q.after = pg.after;
	q.limit = pg.size + 1;		/* one more tells moreResult */
	switch (kind) {
	case MEMBERSHIP_LISTS:
		err = repo_programs_list_membership(c->app->db, &q, &l);
		break;
	case MEMBERSHIP_PROGRAMS:
		err = repo_programs_program_membership(c->app->db, &q, &l);
		break;
	default:
		err = repo_programs_campaign_membership(c->app->db, &q, &l);
		break;
	}
	if (err != 0) {
		err = err_from_repo(err);
		goto out;
	}
	shown = l.count > (size_t)pg.size ? (size_t)pg.size : l.count;
	if (r->result == NULL)
		r->result = json_object_new_array();
	for (i = 0; i < shown; i++)
		resp_add(r, member_json(kind, &l.items[i]));
	r->more_result = l.count > shown;
	if (l.count > shown) {
		if ((tok = arena_alloc(&c->app->arena, PAGE_TOKEN_BYTES)) ==
		    NULL) {
			err = -API_ERR_SYSTEM;
			goto out;
		}
		page_token_encode(page_kind[kind], sig, l.items[shown - 1].id,
		    tok);
		r->next_page_token = tok;
	}
	err = 0;
out:
	repo_programs_member_list_free(&l);
	return err;
}


/* ---- Partitions ---------------------------------------------------- */

/*
 * GET /rest/v1/leads/partitions.json: every partition as {"id","name",
 * "description"} (description omitted when it has none).  Returns 0 or a
 * negative api_err.
 */
int
api_lead_membership_partitions_list(struct call *c, struct resp *r)
{
	struct repo_partition_list l = { NULL, 0 };
	struct json_object *o;
	size_t i;
	int err;

	if ((err = repo_partitions_list(c->app->db, &l)) != 0) {
		err = err_from_repo(err);
		goto out;
	}
	if (r->result == NULL)
		r->result = json_object_new_array();
	for (i = 0; i < l.count; i++) {
		o = json_object_new_object();
		json_object_object_add(o, "id",
		    json_object_new_int64(l.items[i].id));
		json_object_object_add(o, "name",
		    json_object_new_string(l.items[i].name));
		if (l.items[i].description != NULL)
			json_object_object_add(o, "description",
			    json_object_new_string(l.items[i].description));
		resp_add(r, o);
	}
	err = 0;
out:
	repo_partitions_list_free(&l);
	return err;
}

/*
 * The lead id of one input record.  Returns NULL and *id, or the owned
 * skipped result when the record has no usable id.
 */
static struct json_object *
record_id(struct call *c, struct json_object *rec, int64_t *id)
{
	struct json_object *v;
	const char *s;
	int64_t n = 0;

	*id = 0;
	if (!json_object_is_type(rec, json_type_object))
		return api_common_skipped(NULL, NULL, 1003, "Invalid data");
	if (!json_object_object_get_ex(rec, "id", &v) ||
	    json_object_is_type(v, json_type_null))
		return api_common_skipped(NULL, NULL, 1002, "Missing value for the required "
		    "parameter 'id'");
	if (json_object_is_type(v, json_type_int))
		n = json_object_get_int64(v);
	else if (!json_object_is_type(v, json_type_string) ||
	    num_parse_i64(json_object_get_string(v), 1, INT64_MAX, &n) != 0)
		n = 0;
	if (n < 1) {
		s = lead_value_text(v, &c->app->arena);
		return api_common_skipped(NULL, NULL, 1001, "Invalid value '%s'. "
		    "Required of type 'integer'", api_common_echo(c, s));
	}
	*id = n;
	return NULL;
}

/*
 * POST /rest/v1/leads/partitions.json {"input":[{"id","partitionName"}]}:
 * moves each lead to the named partition; per record {"id","status":
 * "updated"} or skipped (1001, 1002, 1004, 1008, 1009).  Returns 0 or a
 * negative api_err (1003 no or too many records).
 */
int
api_lead_membership_partitions_update(struct call *c, struct resp *r)
{
	struct repo_partition_move *m = NULL;
	struct json_object *in, *rec, *v, **pre = NULL;
	size_t n = 0, i;
	int err;

	if ((err = api_common_input(c, r, &input_rule, &in, &n)) != 0)
		goto out;
	m = arena_zalloc(&c->app->arena, n * sizeof(*m));
	pre = arena_zalloc(&c->app->arena, n * sizeof(*pre));
	if (m == NULL || pre == NULL) {
		err = -API_ERR_SYSTEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		rec = json_object_array_get_idx(in, i);
		m[i].skip = true;
		if ((pre[i] = record_id(c, rec, &m[i].lead_id)) != NULL)
			continue;
		if (!json_object_object_get_ex(rec, "partitionName", &v) ||
		    json_object_is_type(v, json_type_null) ||
		    (json_object_is_type(v, json_type_string) &&
		    json_object_get_string_len(v) == 0)) {
			pre[i] = api_common_skipped("id", api_common_id(m[i].lead_id), 1009,
			    "Partition name must be specified");
			continue;
		}
		if (!json_object_is_type(v, json_type_string)) {
			pre[i] = api_common_skipped("id", api_common_id(m[i].lead_id), 1001,
			    "Invalid value '%s'. Required of type "
			    "'string'", api_common_echo(c,
			    lead_value_text(v, &c->app->arena)));
			continue;
		}
		m[i].partition = json_object_get_string(v);
		m[i].skip = false;
	}
	if ((err = repo_partitions_lead_update(c->app->db, m,
	    n)) != 0) {
		err = err_from_repo(err);
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (pre[i] != NULL) {
			resp_add(r, pre[i]);
			pre[i] = NULL;
		} else if (m[i].result == REPO_REC_NO_LEAD)
			resp_add(r, api_common_skipped("id", api_common_id(m[i].lead_id), 1004,
			    "Lead not found"));
		else if (m[i].result == REPO_REC_NO_PARTITION)
			resp_add(r, api_common_skipped("id", api_common_id(m[i].lead_id), 1008,
			    "Access denied to partition '%s'",
			    api_common_echo(c, m[i].partition)));
		else
			resp_add(r, api_common_record("id", json_object_new_int64(m[i].lead_id), "updated"));
	}
	err = 0;
out:
	for (i = 0; pre != NULL && i < n; i++)
		json_object_put(pre[i]);
	return err;
}

/* ---- Program status ------------------------------------------------ */

/*
 * POST /rest/v1/leads/programs/{programId}/status.json {"status":"<name>",
 * "input":[{"id"}]}: moves existing members forward to the status; per
 * record {"id","status":"updated"} or skipped (1001, 1002, 1004, 1013
 * not a member, 1025 no such status, 1037 already in or past it).
 * Returns 0 or a negative api_err (1002 no status, 1003 input, 1013 no
 * such program).
 */
int
api_lead_membership_program_status(struct call *c, struct resp *r)
{
	struct repo_program p;
	struct repo_status_change *ch = NULL;
	struct json_object *in, *rec, *v, **pre = NULL;
	const char *status;
	int32_t pid = (int32_t)c->req->path_ints[0];
	size_t n = 0, i, st;
	int err;

	memset(&p, 0, sizeof(p));
	if (c->req->json == NULL ||
	    !json_object_is_type(c->req->json, json_type_object) ||
	    !json_object_object_get_ex(c->req->json, "status", &v) ||
	    !json_object_is_type(v, json_type_string) ||
	    json_object_get_string_len(v) == 0) {
		api_common_err_msg(c, r, "Missing value for the required "
		    "parameter 'status'");
		err = -API_ERR_MISSING_PARAM;
		goto out;
	}
	status = json_object_get_string(v);
	if ((err = api_common_input(c, r, &input_rule, &in, &n)) != 0)
		goto out;
	if ((err = repo_programs_get_by_id(c->app->db, pid, &p)) != 0) {
		if (err == -REPO_ERR_NOT_FOUND) {
			api_common_err_msg(c, r, "Program '%ld' not found",
			    (long)pid);
			err = -API_ERR_OBJECT_NOT_FOUND;
		} else
			err = err_from_repo(err);
		goto out;
	}
	for (st = 0; st < p.nstatuses; st++)
		if (strcmp(p.statuses[st].name, status) == 0)
			break;
	ch = arena_zalloc(&c->app->arena, n * sizeof(*ch));
	pre = arena_zalloc(&c->app->arena, n * sizeof(*pre));
	if (ch == NULL || pre == NULL) {
		err = -API_ERR_SYSTEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		rec = json_object_array_get_idx(in, i);
		ch[i].skip = true;
		if ((pre[i] = record_id(c, rec, &ch[i].lead_id)) != NULL)
			continue;
		if (st == p.nstatuses) {
			pre[i] = api_common_skipped("id", api_common_id(ch[i].lead_id), 1025,
			    "Program status not found");
			continue;
		}
		ch[i].skip = false;
	}
	if (st < p.nstatuses && (err = repo_programs_member_status_update(
	    c->app->db, &p, st, ch, n)) != 0) {
		err = err_from_repo(err);
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (pre[i] != NULL) {
			resp_add(r, pre[i]);
			pre[i] = NULL;
		} else if (ch[i].result == REPO_REC_NO_LEAD)
			resp_add(r, api_common_skipped("id", api_common_id(ch[i].lead_id), 1004,
			    "Lead not found"));
		else if (ch[i].result == REPO_REC_NOT_MEMBER)
			resp_add(r, api_common_skipped("id", api_common_id(ch[i].lead_id), 1013,
			    "Lead is not a member of the program"));
		else if (ch[i].result == REPO_REC_NOT_FORWARD)
			resp_add(r, api_common_skipped("id", api_common_id(ch[i].lead_id), 1037,
			    "Lead skipped because it is already in or past "
			    "this status"));
		else
			resp_add(r, api_common_record("id", json_object_new_int64(ch[i].lead_id), "updated"));
	}
	err = 0;
out:
	for (i = 0; pre != NULL && i < n; i++)
		json_object_put(pre[i]);
	repo_programs_program_clear(&p);
	return err;
}

/* ---- Associate ----------------------------------------------------- */

/*
 * The cookie parameter.  A client that did not encode the '&' of the
 * value sends "cookie=id:...&token:_mch-...": the second half arrives as
 * a parameter of its own with no value, and is joined back.
 */
static const char *
cookie_param(struct call *c)
{
	const struct req *q = c->req;
	const char *v = req_param(q, "cookie");
	size_t i;

	if (v == NULL || strchr(v, '&') != NULL)
		return v;
	for (i = 0; i < q->nparams; i++)
		if (strncmp(q->params[i].name, "token:_mch-", 11) == 0 &&
		    q->params[i].value_len == 0)
			return arena_printf(&c->app->arena, "%s&%s", v,
			    q->params[i].name);
	return v;
}

/*
 * POST /rest/v1/leads/{leadId}/associate.json?cookie=<_mkto_trk value>:
 * associates the tracking cookie with the lead.  Success has no result.
 * Returns 0 or a negative api_err: 1002 no cookie, 1012 "Invalid cookie
 * value '<v>'", 1004 "Lead '<id>' not found".
 */
int
api_lead_membership_associate(struct call *c, struct resp *r)
{
	int64_t lead = c->req->path_ints[0];
	const char *cookie;
	int err;

	cookie = cookie_param(c);
	if (cookie == NULL || cookie[0] == '\0') {
		api_common_err_msg(c, r, "Missing value for the required "
		    "parameter 'cookie'");
		err = -API_ERR_MISSING_PARAM;
		goto out;
	}
	if (!lead_cookie_is_valid(cookie, strlen(cookie))) {
		api_common_err_msg(c, r, "Invalid cookie value '%s'",
		    api_common_echo(c, cookie));
		err = -API_ERR_INVALID_COOKIE;
		goto out;
	}
	if ((err = repo_cookies_associate(c->app->db, lead,
	    cookie)) != 0) {
		if (err == -REPO_ERR_NOT_FOUND) {
			api_common_err_msg(c, r, "Lead '%lld' not found",
			    (long long)lead);
			err = -API_ERR_LEAD_NOT_FOUND;
		} else
			err = err_from_repo(err);
		goto out;
	}
	r->no_result = true;
	err = 0;
out:
	return err;
}

/* ---- Merge --------------------------------------------------------- */

/* Adds the ids of v (no duplicates) to ids; 0 or an api_err. */
static int
add_loser(struct call *c, struct resp *r, const char *v, int64_t *ids,
    size_t *n)
{
	int64_t id;
	size_t i;

	if (num_parse_i64(v, 1, INT64_MAX, &id) != 0)
		return api_common_invalid(c, r, v, "integer");
	for (i = 0; i < *n; i++)
		if (ids[i] == id)
			return 0;
	if (*n == MAX_MERGE_LOSERS) {
		api_common_err_msg(c, r, "Too many leads to merge: at most %d "
		    "losing leads per call", MAX_MERGE_LOSERS);
		return -API_ERR_MERGE_LIMIT;
	}
	ids[(*n)++] = id;
	return 0;
}

/*
 * POST /rest/v1/leads/{leadId}/merge.json?leadId=N | leadIds=a,b,c
 * [&mergeInCRM=false]: merges the losers into the winning lead of the
 * path (repo_merge).  Success has no result.  Returns 0 or a
 * negative api_err: 1001 an id or mergeInCRM of the wrong type, 1003 no
 * loser or the winner among them, 1080 more than 25 losers, 1004 "Lead
 * '<id>' not found".
 */
int
api_lead_membership_merge(struct call *c, struct resp *r)
{
	const struct lead_schema *s;
	int64_t winner = c->req->path_ints[0], ids[MAX_MERGE_LOSERS], missing;
	static const struct vparam merge_params[] = {
		{ .name = "mergeInCRM", .type = VP_BOOL },
	};
	struct vvalue crm[1];
	const char *one, **list = NULL;
	size_t n = 0, i;
	int count, err;

	if ((count = req_param_list(c->req, "leadIds", &list)) < 0) {
		api_common_err_msg(c, r, "Too many leads to merge: at most %d "
		    "losing leads per call", MAX_MERGE_LOSERS);
		err = -API_ERR_MERGE_LIMIT;
		goto out;
	}
	if ((one = req_param(c->req, "leadId")) != NULL && one[0] != '\0' &&
	    (err = add_loser(c, r, one, ids, &n)) != 0)
		goto out;
	for (i = 0; i < (size_t)count; i++)
		if ((err = add_loser(c, r, list[i], ids, &n)) != 0)
			goto out;
	/* mergeInCRM is checked; there is no CRM to merge in. */
	if ((err = VALIDATE(c->req, r, merge_params, crm)) != 0)
		goto out;
	if (n == 0) {
		api_common_err_msg(c, r, "Losing leads not specified (leadId or "
		    "leadIds)");
		err = -API_ERR_INVALID_REQUEST;
		goto out;
	}
	for (i = 0; i < n; i++)
		if (ids[i] == winner) {
			api_common_err_msg(c, r, "Lead '%lld' cannot be both the "
			    "winner and a losing lead", (long long)winner);
			err = -API_ERR_INVALID_REQUEST;
			goto out;
		}
	/* Fresh: a field created a moment ago on any worker is merged. */
	if ((err = api_leads_catalog_get(c, true, &s)) != 0)
		goto out;
	err = repo_merge(c->app->db, winner, ids, n, s->fields,
	    s->count, &missing);
	if (err == -REPO_ERR_NOT_FOUND) {
		api_common_err_msg(c, r, "Lead '%lld' not found",
		    (long long)missing);
		err = -API_ERR_LEAD_NOT_FOUND;
		goto out;
	}
	if (err != 0) {
		err = err_from_repo(err);
		goto out;
	}
	r->no_result = true;
	err = 0;
out:
	return err;
}
