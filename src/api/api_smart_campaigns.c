/*
 * Smart Campaigns (docs/assets.md, docs/behaviour.md §10): the 21
 * operations under /rest/asset/v1/smartCampaign(s).  Parameters are form
 * fields, read from the query string or the body alike.  A campaign owns
 * a smart list (smartListId: a smart list changed through the Smart
 * Lists operations, the only one that takes triggers) and a flow
 * (flowId, the campaign's id).
 *
 * Choices where the real service is silent:
 *   - a campaign stands in a program or a marketing folder (Marketing
 *     Activities and the folders under it): 711 elsewhere, 710 for a
 *     place that does not exist; names are unique in the instance (as
 *     Get by Name needs): a taken name is 709 "Smart campaign name
 *     '<name>' is already in use"; ids start at 1001 and are the ids of
 *     the campaign memberships of leads;
 *   - type is trigger when its list has a trigger, batch when it has
 *     filters only, default with no rules; status is Active when
 *     active, Inactive for an inactive trigger campaign, Never Run
 *     otherwise (mauto runs no campaign);
 *   - new campaigns: isCommunicationLimitEnabled true, qualification
 *     rule once, no member limit, recurrence {"weekdayOnly":false};
 *     updatedAt is the later of the campaign's and its smart list's;
 *   - queries that find nothing answer the "No assets found" warning;
 *     changes of a campaign that does not exist answer 702 "<id> Smart
 *     campaign not found", of a step or choice that does not exist 702
 *     with what is missing;
 *   - browse: maxReturn 1 to 200 (default 20), offset 0 or more,
 *     isActive=true keeps the active campaigns only (false: all),
 *     folder is the place the campaigns stand in directly;
 *     earliestUpdatedAt after latestUpdatedAt is 709 (§10.2: the
 *     earliest must precede the latest);
 *   - Get by Id and by Name show the flow unless includeFlowSteps=false;
 *     every flow change answers the campaign with its flow;
 *   - Update takes name and description (absent or empty: kept, as
 *     Landing Page Templates' update); the campaign's smart list takes
 *     the new name;
 *   - Delete of an active campaign is 709 (deactivate it first); Clone
 *     copies the smart list (triggers, filters, logic) and the flow, and
 *     the clone is inactive;
 *   - Add Flow Step: activityType {"id":N,"type":"activity"} of the flow
 *     step catalogue (709 when it names none), index 0 to the number of
 *     steps; a new step has its default choice only;
 *   - a flow step's choices are evaluated top-down and the default
 *     choice (no condition) is always the last: Add Step Choice puts the
 *     new choice just above it; Reorder moves a non-default choice to
 *     newSeqNumZeroBased among the non-default ones (709 beyond them, or
 *     for the default choice); the default choice cannot be removed
 *     (709) and takes no condition (709);
 *   - Update Flow Step Choice: conditionTypeId names a filter rule type
 *     (as Get Smart Campaign Flow Step Types lists them), its operator
 *     defaults to its primary constraint's first; conditionValues are
 *     comma-separated as Smart Lists' values; attributes is a JSON
 *     object {"<activityTypeAttribId>":"value"}: a key that is not an
 *     attribute of the step's type, or a value outside the attribute's
 *     choices, is 709; "" clears a value; a value naming an email, list,
 *     program or campaign by id or exact name is kept as its id;
 *   - a choice attribute's id is its activityTypeAttribId; every
 *     attribute of the step type is shown, value null when not set;
 *   - Activate (709 with what is missing, checked in this order): the
 *     campaign is inactive; its smart list has a trigger; every rule has
 *     its primary value; mauto can evaluate every filter (docs/
 *     behaviour.md §25: the message names the first it cannot, "Filter 2
 *     'Visited Web Page' cannot be evaluated: ..."); the flow has a
 *     step; each non-default choice
 *     has a condition; each required attribute has a value; a Send
 *     Email email exists and is approved; a list exists; a Request
 *     Campaign campaign exists; a Change Program Status program exists
 *     and has the status (the rules: model/campaign.c); what they check
 *     is read in the transaction that activates, under the campaign's
 *     lock and its smart list's, so no rule or flow change slips between
 *     them and the activation;
 *   - Deactivate of an inactive campaign is 709;
 *   - while a campaign is active, the emails its flow sends are used by
 *     it (asset_usage): unapproving or deleting them is refused (709);
 *   - Used By lists the campaigns whose Request Campaign steps name the
 *     campaign: usedByCount is their number, compType "Smart Campaign",
 *     subType the campaign's type; maxReturn 1 to 50 (default 50);
 *     sortByColumn updatedAt (default) or name, order desc (default) or
 *     asc; query keeps names containing it;
 *   - Auto Suggest: ruleTypeId names a flow step type (its attribute by
 *     optionTypeId's id) or else a rule type (its constraint), as
 *     {"id":N,"type":"activity"|"attribute"}; the suggestions are the
 *     emails, lists, programs, campaigns, forms or lead fields whose
 *     names start with primaryAttributeValue (at most 200), or the
 *     values of a lead attribute or custom object field constraint as
 *     Smart Lists' Auto Suggest answers them (api_smart_lists.c);
 *   - Flow Step Types answers the filter rule types (those a choice's
 *     condition may use); Flow Steps the flow step catalogue; Rules the
 *     triggers and the filters;
 *   - computedUrl is app_url, "/#SC", the id and "A1".
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <json-c/json.h>

#include "api/api.h"
#include "api/api_asset.h"
#include "api/api_common.h"
#include "api/api_smart_lists.h"
#include "bounds.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "http/router.h"
#include "http/validate.h"
#include "model/campaign.h"
#include "model/folder.h"
#include "repo/repo_folders.h"
#include "repo/repo_sc_activation.h"
#include "repo/repo_sl_catalogue.h"
#include "repo/repo_smart_campaigns.h"
#include "repo/repo_smart_lists.h"
#include "util/buf.h"
#include "util/config.h"
#include "util/num.h"

#define SC_REF_MAX_BYTES	256
#define SC_USED_BY_MAX		50
#define SC_ATTRS_MAX_BYTES	(64 * 1024)

static const char *const sort_words[] = { "updatedAt", "name", "updated_at",
    NULL };
static const char *const order_words[] = { "asc", "desc", NULL };

static const char *
type_word(const struct repo_sc *s)
{
	return campaign_type_name(s->ntriggers, s->nfilters);
}

static const char *
status_word(const struct repo_sc *s)
{
	return campaign_status_name(s->active, s->ntriggers, s->batch_runs);
}

/* A boolean member's value. */
static const char *
tf(bool v)
{
	return v ? "true" : "false";
}

static void
attr_text(struct buf *b, const struct campaign_attr *k)
{
	buf_printf(b, "{\"id\":%d,\"activityTypeAttribId\":%d,\"name\":",
	    (int)k->id, (int)k->id);
	buf_add_jsonc_str(b, k->name);
	buf_adds(b, ",\"dataType\":");
	buf_add_jsonc_str(b, k->data_type);
	buf_adds(b, ",\"value\":");
	buf_add_jsonc_str(b, k->value);
	buf_adds(b, ",\"format\":null,\"primary\":");
	buf_adds(b, tf(k->primary));
	buf_addc(b, '}');
}

static void
choice_text(struct buf *b, const struct campaign_choice *ch)
{
	size_t i;

	buf_printf(b, "{\"id\":%d,\"default\":%s,\"attributes\":[",
	    (int)ch->id, tf(ch->is_default));
	for (i = 0; i < ch->nattrs; i++) {
		if (i > 0)
			buf_addc(b, ',');
		attr_text(b, &ch->attrs[i]);
	}
	buf_addc(b, ']');
	if (!ch->is_default) {
		buf_adds(b, ",\"rule\":{\"name\":");
		buf_add_jsonc_str(b, ch->cond_name);
		buf_adds(b, ",\"operator\":");
		buf_add_jsonc_str(b, ch->cond_op);
		buf_adds(b, ",\"ruleType\":");
		buf_adds(b, ch->cond_kind == NULL ? "null" :
		    strcmp(ch->cond_kind, "activity") == 0 ? "\"Activity\"" :
		    "\"Attribute\"");
		if (ch->cond_kind == NULL)
			buf_adds(b, ",\"ruleTypeId\":null");
		else
			buf_printf(b, ",\"ruleTypeId\":%d",
			    (int)ch->cond_type_id);
		buf_adds(b, ",\"values\":");
		(void)api_common_array_text(b, ch->cond_vals);
		buf_addc(b, '}');
	}
	buf_addc(b, '}');
}

static void
flow_text(struct buf *b, const struct campaign_step *steps, size_t n)
{
	size_t i, j;

	buf_adds(b, "{\"steps\":[");
	for (i = 0; i < n; i++) {
		if (i > 0)
			buf_addc(b, ',');
		buf_printf(b, "{\"id\":%d,\"activityTypeId\":%d,"
		    "\"activityTypeName\":", (int)steps[i].id,
		    (int)steps[i].type_id);
		buf_add_jsonc_str(b, steps[i].type_name);
		buf_adds(b, ",\"stepChoice\":[");
		for (j = 0; j < steps[i].nchoices; j++) {
			if (j > 0)
				buf_addc(b, ',');
			choice_text(b, &steps[i].choices[j]);
		}
		buf_adds(b, "]}");
	}
	buf_adds(b, "]}");
}

/* A campaign as read for a reply, with its flow when with_flow. */
struct sc_read {
	struct repo_sc		 s;
	bool			 with_flow;
	struct repo_kept	 kept;		/* the flow's kept text */
	struct campaign_step	*steps;		/* else its steps */
	size_t			 nsteps;
};

/*
 * The "flow" member's value of campaign x: the text its row keeps, or
 * the text of its steps, which the row then keeps (unless the flow
 * changed meanwhile).  A keep that fails costs the next read a render,
 * nothing more.
 */
static void
flow_member(struct buf *b, struct call *c, const struct sc_read *x)
{
	size_t at = b->len;

	if (x->kept.json != NULL) {
		buf_add(b, x->kept.json, x->kept.len);
		return;
	}
	flow_text(b, x->steps, x->nsteps);
	if (x->kept.set && buf_ok(b))
		(void)repo_sc_keep_flow(c->app->db, x->s.id, &x->kept,
		    b->data + at, b->len - at);
}

/*
 * The campaign's reply object as JSON text appended to b, with its flow
 * when x (NULL: none) was read with it: the members and their order
 * json-c objects had.
 */
static void
sc_text(struct buf *b, struct call *c, const struct repo_sc *s,
    const struct sc_read *x)
{
	buf_addc(b, '{');
	api_asset_head_members(b, s->id, s->name, s->description,
	    s->created_at, s->updated_at);
	buf_printf(b, ",\"folder\":{\"id\":%lld,\"type\":",
	    (long long)s->place.id);
	buf_add_jsonc_str(b, folder_type_name(s->place.type));
	buf_adds(b, "},\"status\":");
	buf_add_jsonc_str(b, status_word(s));
	buf_adds(b, ",\"type\":");
	buf_add_jsonc_str(b, type_word(s));
	buf_printf(b, ",\"isSystem\":%s,\"isActive\":%s,"
	    "\"isRequestable\":%s,\"isCommunicationLimitEnabled\":%s,"
	    "\"recurrence\":{\"weekdayOnly\":false},"
	    "\"qualificationRuleType\":", tf(s->system), tf(s->active),
	    tf(s->active && s->requested_by_api), tf(s->comm_limit));
	buf_add_jsonc_str(b, s->qual_type);
	if (s->qual_interval > 0)
		buf_printf(b, ",\"qualificationRuleInterval\":%lld",
		    (long long)s->qual_interval);
	if (s->qual_unit != NULL) {
		buf_adds(b, ",\"qualificationRuleUnit\":");
		buf_add_jsonc_str(b, s->qual_unit);
	}
	if (s->max_members > 0)
		buf_printf(b, ",\"maxMembers\":%lld",
		    (long long)s->max_members);
	buf_printf(b, ",\"smartListId\":%d,\"flowId\":%d",
	    (int)s->smart_list_id, (int)s->id);
	if (s->place.type == FOLDER_T_PROGRAM)
		buf_printf(b, ",\"parentProgramId\":%lld",
		    (long long)s->place.id);
	buf_adds(b, ",\"workspace\":");
	buf_add_jsonc_str(b, s->workspace);
	buf_adds(b, ",\"computedUrl\":");
	api_asset_url_write(b, c, "SC", s->id, "A1");
	if (x != NULL && x->with_flow) {
		buf_adds(b, ",\"flow\":");
		flow_member(b, c, x);
	}
	buf_addc(b, '}');
}

/* The campaign x read (sc_text) as r's one result. */
static int
sc_answer(struct call *c, struct resp *r, const struct sc_read *x)
{
	sc_text(resp_add_text(r), c, &x->s, x);
	return 0;
}

#define SC_WHAT	"Smart campaign"

/* 702 for a change of the path's campaign, which does not exist. */
static int
not_found(struct call *c, struct resp *r)
{
	return api_asset_not_found(c, r, SC_WHAT, c->req->path_ints[0]);
}

/*
 * Campaign id (or the one named name, when not NULL) into *x, with its
 * flow when with_flow; a negative repo_err on failure.
 */
static int
read_campaign(struct call *c, int32_t id, const char *name, bool with_flow,
    struct sc_read *x)
{
	memset(x, 0, sizeof(*x));
	x->with_flow = with_flow;
	if (with_flow)
		return repo_sc_get_with_flow(c->app->db, &c->app->arena, id,
		    name, &x->s, &x->steps, &x->nsteps, &x->kept);
	return name != NULL ? repo_sc_get_by_name(c->app->db,
	    &c->app->arena, name, &x->s) : repo_sc_get(c->app->db,
	    &c->app->arena, id, &x->s);
}

/* Reads campaign id back into r, with its flow when with_flow. */
static int
answer(struct call *c, struct resp *r, int32_t id, bool with_flow)
{
	struct sc_read x;
	int e;

	e = read_campaign(c, id, NULL, with_flow, &x);
	if (e == -REPO_ERR_NOT_FOUND)
		return not_found(c, r);
	if (e != 0)
		return err_from_repo(e);
	return sc_answer(c, r, &x);
}

/* ---- Reads ------------------------------------------------------------ */

/* GET /rest/asset/v1/smartCampaign/{id}.json?includeFlowSteps= */
int
api_smart_campaigns_get(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "includeFlowSteps", .type = VP_BOOL },
	};
	struct vvalue pv[1];
	struct sc_read x;
	int32_t id = api_asset_path_id(c, 0);
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	if (id == 0)
		return api_asset_none(r);
	e = read_campaign(c, id, NULL, !pv[0].present || pv[0].b, &x);
	if ((e = api_asset_found(r, e)) != 1)
		return e;
	return sc_answer(c, r, &x);
}

/* GET /rest/asset/v1/smartCampaign/byName.json?name=&includeFlowSteps= */
int
api_smart_campaigns_get_by_name(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "name", .type = VP_STR, .flags = VPF_REQUIRED,
		  .max = ASSET_NAME_CHARS * 4 },
		{ .name = "includeFlowSteps", .type = VP_BOOL },
	};
	struct vvalue pv[2];
	struct sc_read x;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	e = read_campaign(c, 0, pv[0].s, !pv[1].present || pv[1].b, &x);
	if ((e = api_asset_found(r, e)) != 1)
		return e;
	return sc_answer(c, r, &x);
}

/*
 * GET /rest/asset/v1/smartCampaigns.json?folder=&offset=&maxReturn=
 * &earliestUpdatedAt=&latestUpdatedAt=&isActive=
 */
int
api_smart_campaigns_browse(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		API_ASSET_P_MAX_RETURN,
		API_ASSET_P_OFFSET,
		API_ASSET_P_FOLDER_OPT,
		{ .name = "earliestUpdatedAt", .type = VP_DATETIME },
		{ .name = "latestUpdatedAt", .type = VP_DATETIME },
		{ .name = "isActive", .type = VP_BOOL },
	};
	struct vvalue pv[6];
	struct repo_sc_query q;
	struct repo_sc *items;
	struct api_asset_browse b;
	size_t n, i;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0 ||
	    (e = api_asset_browse_query(c, r, AK_SMART_CAMPAIGN, &pv[0],
	    &pv[1], &pv[2], &b)) != 0)
		return e;
	memset(&q, 0, sizeof(q));
	q.limit = b.limit;
	q.offset = b.offset;
	q.place = b.folder;
	if (pv[3].present && pv[4].present && pv[3].i > pv[4].i)
		return api_common_fail(c, r, -API_ERR_RULE, "earliestUpdatedAt "
		    "must precede latestUpdatedAt");
	q.earliest = pv[3].present ? api_asset_db_time(c, pv[3].i) : NULL;
	q.latest = pv[4].present ? api_asset_db_time(c, pv[4].i) : NULL;
	q.active_only = pv[5].present && pv[5].b;
	if ((e = repo_sc_browse(c->app->db, &c->app->arena, &q, &items,
	    &n)) != 0)
		return err_from_repo(e);
	if (n == 0)
		return api_asset_none(r);
	for (i = 0; i < n; i++)
		sc_text(resp_add_text(r), c, &items[i], NULL);
	return 0;
}

/* GET /rest/asset/v1/smartCampaign/{id}/smartList.json?includeRules= */
int
api_smart_campaigns_smart_list(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "includeRules", .type = VP_BOOL },
	};
	struct vvalue pv[1];
	struct repo_sc s;
	struct repo_sl sl;
	int32_t id = api_asset_path_id(c, 0);
	bool rules;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	if (id == 0)
		return api_asset_none(r);
	rules = pv[0].present && pv[0].b;
	e = repo_sc_get(c->app->db, &c->app->arena, id, &s);
	if (e == 0)
		e = repo_sl_get_reply(c->app->db, &c->app->arena,
		    s.smart_list_id, rules, &sl);
	if ((e = api_asset_found(r, e)) != 1)
		return e;
	return api_smart_lists_answer(c, r, &sl, rules);
}

/* GET /rest/asset/v1/smartCampaign/rules.json: triggers and filters. */
int
api_smart_campaigns_rule_types(struct call *c, struct resp *r)
{
	return api_smart_lists_rule_types_answer(c, r, true);
}

/* GET /rest/asset/v1/smartCampaign/flowStepTypes.json: the conditions. */
int
api_smart_campaigns_flow_step_types(struct call *c, struct resp *r)
{
	struct repo_sl_rule_type *types;
	struct json_object *o, *a, *t;
	size_t n, m, i;
	int e;

	if ((e = repo_sl_rule_types(c->app->db, &c->app->arena, &types,
	    &n)) != 0)
		return err_from_repo(e);
	/* Custom object filters are smart list rules only. */
	for (i = 0, m = 0; i < n; i++)
		if (types[i].co_type_id == 0)
			types[m++] = types[i];
	a = api_smart_lists_types_json(types, m, false);
	/* A choice's condition type is {id, name, constraints}. */
	for (i = 0; i < json_object_array_length(a); i++) {
		t = json_object_array_get_idx(a, i);
		json_object_object_del(t, "type");
	}
	o = json_object_new_object();
	json_object_object_add(o, "flowStepTypes", a);
	resp_add(r, o);
	return 0;
}

/* GET /rest/asset/v1/smartCampaign/flowSteps.json: the flow actions. */
int
api_smart_campaigns_flow_steps(struct call *c, struct resp *r)
{
	struct repo_sc_flow_type *types;
	struct json_object *o, *a, *t, *ks, *k;
	size_t n, i, j;
	int e;

	if ((e = repo_sc_flow_types(c->app->db, &c->app->arena, &types,
	    &n)) != 0)
		return err_from_repo(e);
	a = json_object_new_array();
	for (i = 0; i < n; i++) {
		t = json_object_new_object();
		json_object_object_add(t, "id",
		    json_object_new_int(types[i].id));
		json_object_object_add(t, "name",
		    json_object_new_string(types[i].name));
		ks = json_object_new_array();
		for (j = 0; j < types[i].nattrs; j++) {
			const struct campaign_attr *ka = &types[i].attrs[j];

			k = json_object_new_object();
			json_object_object_add(k, "id",
			    json_object_new_int(ka->id));
			json_object_object_add(k, "name",
			    json_object_new_string(ka->name));
			json_object_object_add(k, "dataType",
			    json_object_new_string(ka->data_type));
			json_object_object_add(k, "primary",
			    json_object_new_boolean(ka->primary));
			json_object_object_add(k, "required",
			    json_object_new_boolean(ka->required));
			if (ka->choices != NULL)
				json_object_object_add(k, "choices",
				    json_object_new_string(ka->choices));
			json_object_array_add(ks, k);
		}
		json_object_object_add(t, "constraints", ks);
		json_object_array_add(a, t);
	}
	o = json_object_new_object();
	json_object_object_add(o, "flowSteps", a);
	resp_add(r, o);
	return 0;
}

/* A flow step type reference {"id":N,"type":"activity"} into *id. */
static int
flow_type_ref(struct call *c, struct resp *r, const char *text, int32_t *id)
{
	bool act;
	int e;

	if ((e = api_smart_lists_type_ref(c, r, text, id, &act)) != 0)
		return e;
	if (!act)
		return api_common_invalid(c, r, text, "FlowStepTypeReference");
	return 0;
}

/*
 * GET /rest/asset/v1/smartCampaign/{id}/autoSuggest.json?ruleTypeId=
 * &optionTypeId=&primaryAttributeValue=
 */
int
api_smart_campaigns_auto_suggest(struct call *c, struct resp *r)
{
	struct api_sl_suggest q;
	struct repo_sc s;
	struct repo_sc_flow_type ft;
	struct repo_sl_rule_type rt;
	const char *dt = NULL;
	int32_t id = api_asset_path_id(c, 0);
	size_t i;
	int e;

	if ((e = api_smart_lists_suggest_params(c, r, &q)) != 0)
		return e;
	if (id == 0)
		return api_asset_none(r);
	e = repo_sc_get(c->app->db, &c->app->arena, id, &s);
	if ((e = api_asset_found(r, e)) != 1)
		return e;
	/* A flow step type's attribute first, else a rule's constraint. */
	if (q.activity && (e = repo_sc_flow_type(c->app->db, &c->app->arena,
	    q.type_id, &ft)) == 0) {
		for (i = 0; i < ft.nattrs && dt == NULL; i++)
			if (q.option_id != 0 ? ft.attrs[i].id == q.option_id :
			    ft.attrs[i].primary)
				dt = ft.attrs[i].data_type;
	} else if (q.activity && e != -REPO_ERR_NOT_FOUND)
		return err_from_repo(e);
	if (dt != NULL)
		return api_smart_lists_suggest(c, r, dt, q.prefix);
	e = repo_sl_rule_type(c->app->db, &c->app->arena, q.activity,
	    q.type_id, &rt);
	if (e == -REPO_ERR_NOT_FOUND)
		return api_asset_none(r);
	if (e != 0)
		return err_from_repo(e);
	return api_smart_lists_suggest_rule(c, r, &rt, q.option_id,
	    q.prefix);
}

/* qsort orders of campaigns: by update time or name, then id. */
static int
by_id(const struct repo_sc *a, const struct repo_sc *b)
{
	return a->id < b->id ? -1 : a->id > b->id;
}

static int
by_updated(const void *pa, const void *pb)
{
	int d = strcmp(((const struct repo_sc *)pa)->updated_at,
	    ((const struct repo_sc *)pb)->updated_at);

	return d != 0 ? d : by_id(pa, pb);
}

static int
by_name(const void *pa, const void *pb)
{
	int d = strcmp(((const struct repo_sc *)pa)->name,
	    ((const struct repo_sc *)pb)->name);

	return d != 0 ? d : by_id(pa, pb);
}

/*
 * GET /rest/asset/v1/smartCampaign/{id}/usedBy.json?offset=&maxReturn=
 * &sortByColumn=&order=&query=
 */
int
api_smart_campaigns_used_by(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		API_ASSET_P_OFFSET,
		{ .name = "maxReturn", .type = VP_INT, .min = 1,
		  .max = SC_USED_BY_MAX },
		{ .name = "sortByColumn", .type = VP_ENUM,
		  .words = sort_words, .type_name = "SortByColumn" },
		{ .name = "order", .type = VP_ENUM, .flags = VPF_NOCASE,
		  .words = order_words, .type_name = "Order" },
		{ .name = "query", .type = VP_STR,
		  .max = ASSET_NAME_CHARS * 4 },
	};
	struct vvalue pv[5];
	struct repo_sc s, *items;
	struct json_object *o, *a, *u;
	int64_t off, lim;
	char count[24];
	size_t n, i, k;
	int32_t id = api_asset_path_id(c, 0);
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	if (id == 0)
		return api_asset_none(r);
	e = repo_sc_get(c->app->db, &c->app->arena, id, &s);
	if ((e = api_asset_found(r, e)) != 1)
		return e;
	if ((e = repo_sc_used_by(c->app->db, &c->app->arena, id, &items,
	    &n)) != 0)
		return err_from_repo(e);
	/* The query keeps names containing it. */
	for (i = 0, k = 0; i < n; i++)
		if (!pv[4].present || strstr(items[i].name, pv[4].s) != NULL)
			items[k++] = items[i];
	n = k;
	if (n > 1)
		qsort(items, n, sizeof(*items), pv[2].present && pv[2].i == 1 ?
		    by_name : by_updated);
	/* Descending (the default) is the ascending order reversed. */
	for (i = 0; (!pv[3].present || pv[3].i == 1) && i < n / 2; i++) {
		s = items[i];
		items[i] = items[n - 1 - i];
		items[n - 1 - i] = s;
	}
	off = pv[0].present ? pv[0].i : 0;
	lim = pv[1].present ? pv[1].i : SC_USED_BY_MAX;
	a = json_object_new_array();
	for (i = (size_t)(off < (int64_t)n ? off : (int64_t)n);
	    i < n && lim > 0; i++, lim--) {
		u = json_object_new_object();
		json_object_object_add(u, "id",
		    json_object_new_int64(items[i].id));
		json_object_object_add(u, "name",
		    json_object_new_string(items[i].name));
		json_object_object_add(u, "compType",
		    json_object_new_string("Smart Campaign"));
		json_object_object_add(u, "subType",
		    json_object_new_string(type_word(&items[i])));
		json_object_object_add(u, "status",
		    json_object_new_string(status_word(&items[i])));
		json_object_object_add(u, "updatedAt",
		    api_asset_time_json(items[i].updated_at));
		json_object_object_add(u, "programId",
		    items[i].place.type == FOLDER_T_PROGRAM ?
		    json_object_new_int64(items[i].place.id) : NULL);
		json_object_object_add(u, "accessZoneId",
		    json_object_new_int(items[i].workspace_id));
		json_object_array_add(a, u);
	}
	o = json_object_new_object();
	(void)snprintf(count, sizeof(count), "%zu", n);
	json_object_object_add(o, "usedByCount",
	    json_object_new_string(count));
	json_object_object_add(o, "usedBy", a);
	resp_add(r, o);
	return 0;
}

/* ---- Create, update, clone, delete ------------------------------------ */

/* name, folder, description of create and clone into *t. */
static int
new_campaign(struct call *c, struct resp *r, struct repo_sc_new *t)
{
	memset(t, 0, sizeof(*t));
	return api_asset_new(c, r, AK_SMART_CAMPAIGN, &t->name,
	    &t->description, &t->place);
}

/* Inserts t and answers the new campaign. */
static int
insert(struct call *c, struct resp *r, const struct repo_sc_new *t)
{
	int32_t id;
	int e;

	e = repo_sc_insert(c->app->db, t, &id);
	if (e == -REPO_ERR_CONFLICT)
		return api_asset_name_taken(c, r, SC_WHAT, t->name, false);
	if (e == -REPO_ERR_GONE)
		return api_asset_gone(c, r, &t->place, AK_SMART_CAMPAIGN,
		    NULL);
	if (e == -REPO_ERR_NOT_FOUND)
		return not_found(c, r);
	if (e != 0)
		return err_from_repo(e);
	return answer(c, r, id, t->clone_of != 0);
}

/* POST /rest/asset/v1/smartCampaigns.json: name, folder, description. */
int
api_smart_campaigns_create(struct call *c, struct resp *r)
{
	struct repo_sc_new t;
	int e;

	if ((e = new_campaign(c, r, &t)) != 0)
		return e;
	return insert(c, r, &t);
}

/* POST /rest/asset/v1/smartCampaign/{id}/clone.json */
int
api_smart_campaigns_clone(struct call *c, struct resp *r)
{
	struct repo_sc_new t;
	int e;

	if ((e = new_campaign(c, r, &t)) != 0)
		return e;
	if ((t.clone_of = api_asset_path_id(c, 0)) == 0)
		return not_found(c, r);
	return insert(c, r, &t);
}

/* POST /rest/asset/v1/smartCampaign/{id}.json: name, description. */
int
api_smart_campaigns_update(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "name", .type = VP_STR,
		  .max = ASSET_NAME_CHARS * 4 },
		API_ASSET_P_DESCRIPTION,
	};
	struct vvalue pv[2];
	int32_t id = api_asset_path_id(c, 0);
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	if (id == 0)
		return not_found(c, r);
	e = repo_sc_update(c->app->db, id, pv[0].present ? pv[0].s : NULL,
	    pv[1].present ? pv[1].s : NULL);
	if (e == -REPO_ERR_CONFLICT)
		return api_asset_name_taken(c, r, SC_WHAT, pv[0].s, false);
	if (e == -REPO_ERR_NOT_FOUND)
		return not_found(c, r);
	if (e != 0)
		return err_from_repo(e);
	return answer(c, r, id, false);
}

/* POST /rest/asset/v1/smartCampaign/{id}/delete.json */
int
api_smart_campaigns_delete(struct call *c, struct resp *r)
{
	int32_t id = api_asset_path_id(c, 0);
	int e;

	if (id == 0)
		return not_found(c, r);
	e = repo_sc_delete(c->app->db, id);
	if (e == -REPO_ERR_NOT_FOUND)
		return not_found(c, r);
	if (e == -REPO_ERR_INVALID)
		return api_common_fail(c, r, -API_ERR_RULE, "Cannot delete an "
		    "active smart campaign: deactivate it first");
	if (e != 0)
		return err_from_repo(e);
	api_asset_id_result(r, id);
	return 0;
}

/* ---- Flow changes ----------------------------------------------------- */

/* Applies ch to the path's campaign and answers it with its flow. */
static int
apply(struct call *c, struct resp *r, struct repo_sc_change *ch)
{
	int32_t id = api_asset_path_id(c, 0);
	int e;

	if (id == 0)
		return not_found(c, r);
	if ((e = repo_sc_change(c->app->db, id, ch)) != 0)
		return api_asset_change_err(c, r, e, ch->msg,
		    ch->msg[0] != '\0' ? ch->msg : api_asset_not_found_msg(c,
		    SC_WHAT, id));
	return answer(c, r, id, true);
}

/* POST /rest/asset/v1/smartCampaign/{id}/flows.json: activityType, index. */
int
api_smart_campaigns_add_step(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "activityType", .type = VP_RAW,
		  .flags = VPF_REQUIRED, .max = SC_REF_MAX_BYTES },
		{ .name = "index", .type = VP_INT, .flags = VPF_REQUIRED,
		  .min = 0, .max = INT32_MAX },
	};
	struct vvalue pv[2];
	struct repo_sc_change ch;
	struct repo_sc_flow_type ft;
	int e;

	memset(&ch, 0, sizeof(ch));
	if ((e = VALIDATE(c->req, r, params, pv)) != 0 ||
	    (e = flow_type_ref(c, r, pv[0].s, &ch.type_id)) != 0)
		return e;
	e = repo_sc_flow_type(c->app->db, &c->app->arena, ch.type_id, &ft);
	if (e == -REPO_ERR_NOT_FOUND)
		return api_common_fail(c, r, -API_ERR_RULE, "Flow step type %d "
		    "not found", (int)ch.type_id);
	if (e != 0)
		return err_from_repo(e);
	ch.op = SC_OP_ADD_STEP;
	ch.index = (int)pv[1].i;
	return apply(c, r, &ch);
}

/*
 * POST /rest/asset/v1/smartCampaign/{id}/flow/{stepId}/remove.json,
 * .../flow/{stepId}/addChoice.json and
 * .../flow/{stepId}/choice/{choiceId}/remove.json: the changes that take
 * no parameter, applied to the path's step and choice (when the path has
 * one), the route's variant (a repo_sc_op) saying which.
 */
int
api_smart_campaigns_path_change(struct call *c, struct resp *r)
{
	struct repo_sc_change ch;

	memset(&ch, 0, sizeof(ch));
	ch.op = (enum repo_sc_op)c->route->variant;
	ch.step_id = api_asset_path_id(c, 1);
	if (c->req->npath_params > 2)
		ch.choice_id = api_asset_path_id(c, 2);
	return apply(c, r, &ch);
}

/* POST .../flow/{stepId}/choice/{choiceId}/reorder.json?newSeqNumZeroBased= */
int
api_smart_campaigns_reorder_choice(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "newSeqNumZeroBased", .type = VP_INT,
		  .flags = VPF_REQUIRED, .min = 0, .max = INT32_MAX },
	};
	struct vvalue pv[1];
	struct repo_sc_change ch;
	int e;

	memset(&ch, 0, sizeof(ch));
	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	ch.op = SC_OP_MOVE_CHOICE;
	ch.step_id = api_asset_path_id(c, 1);
	ch.choice_id = api_asset_path_id(c, 2);
	ch.index = pv[0].i > SC_MAX_CHOICES ? SC_MAX_CHOICES : (int)pv[0].i;
	return apply(c, r, &ch);
}

/* The step stepId of the path's campaign (its type's attributes), or
 * 702 for a campaign or step that is not there. */
static int
find_step(struct call *c, struct resp *r, int32_t step_id,
    const struct campaign_step **out)
{
	struct campaign_step *steps;
	struct repo_sc s;
	size_t n, i;
	int32_t id = api_asset_path_id(c, 0);
	int e;

	*out = NULL;
	e = id == 0 ? -REPO_ERR_NOT_FOUND : repo_sc_get(c->app->db,
	    &c->app->arena, id, &s);
	if (e == -REPO_ERR_NOT_FOUND)
		return not_found(c, r);
	if (e != 0 || (e = repo_sc_flow(c->app->db, &c->app->arena, id,
	    &steps, &n)) != 0)
		return err_from_repo(e);
	for (i = 0; i < n; i++)
		if (steps[i].id == step_id) {
			*out = &steps[i];
			return 0;
		}
	return api_common_fail(c, r, -API_ERR_NO_DATA, "%ld Flow step not "
	    "found", (long)step_id);
}

/*
 * The attributes parameter {"<attribId>":"value",...} for a step of
 * type attrs (n) into ch->values (arena); 1001 or 709.
 */
static int
parse_values(struct call *c, struct resp *r, const char *text,
    const struct campaign_attr *attrs, size_t n, struct repo_sc_change *ch)
{
	struct json_object *o;
	struct repo_sc_value *vals;
	size_t k = 0, i;
	int e = 0;

	o = json_tokener_parse(text);
	if (o == NULL || !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return api_common_invalid(c, r, text, "FlowStepAttributes");
	}
	vals = arena_zalloc(&c->app->arena, (size_t)(json_object_object_length(
	    o) + 1) * sizeof(*vals));
	if (vals == NULL) {
		json_object_put(o);
		return -API_ERR_SYSTEM;
	}
	json_object_object_foreach(o, key, val) {
		const struct campaign_attr *a = NULL;
		const char *v;
		char *copy;
		int64_t aid = 0;

		if (e != 0)
			break;
		if (num_parse_i64(key, 1, INT32_MAX, &aid) != 0)
			aid = 0;
		for (i = 0; aid != 0 && i < n; i++)
			if (attrs[i].id == aid)
				a = &attrs[i];
		if (a == NULL) {
			e = api_common_fail(c, r, -API_ERR_RULE, "'%s' is not an "
			    "attribute of this flow step",
			    api_common_echo(c, key));
			break;
		}
		if (!json_object_is_type(val, json_type_string) &&
		    !json_object_is_type(val, json_type_int)) {
			e = api_common_invalid(c, r, text,
			    "FlowStepAttributes");
			break;
		}
		v = json_object_get_string(val);
		if (v[0] != '\0' && a->choices != NULL &&
		    !campaign_is_choice(a->choices, v)) {
			e = api_common_fail(c, r, -API_ERR_RULE, "'%s' is not a "
			    "value of '%s' (%s)", api_common_echo(c, v), a->name,
			    a->choices);
			break;
		}
		/* A name of an asset is kept as its id. */
		if (v[0] != '\0') {
			int32_t ref;
			char buf[16];

			if (repo_sc_resolve(c->app->db, a->data_type, v,
			    &ref) == 0) {
				(void)snprintf(buf, sizeof(buf), "%ld",
				    (long)ref);
				v = buf;
			}
			if ((copy = arena_alloc(&c->app->arena,
			    strlen(v) + 1)) == NULL) {
				e = -API_ERR_SYSTEM;
				break;
			}
			memcpy(copy, v, strlen(v) + 1);
			v = copy;
		} else
			v = "";
		vals[k].id = a->id;
		vals[k].value = v;
		k++;
	}
	json_object_put(o);
	ch->values = vals;
	ch->nvalues = k;
	return e;
}

/*
 * POST /rest/asset/v1/smartCampaign/{id}/flow/{stepId}/choice/
 * {choiceId}.json: operator, conditionTypeId, conditionValues,
 * attributes.
 */
int
api_smart_campaigns_update_choice(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "operator", .type = VP_STR, .max = 64 },
		{ .name = "conditionTypeId", .type = VP_RAW,
		  .max = SC_REF_MAX_BYTES },
		{ .name = "conditionValues", .type = VP_STR,
		  .max = 64 * 1024 },
		{ .name = "attributes", .type = VP_RAW,
		  .max = SC_ATTRS_MAX_BYTES },
	};
	struct vvalue pv[4];
	struct repo_sc_change ch;
	const struct campaign_step *step;
	struct repo_sl_rule_type rt;
	const char *op = NULL;
	bool act;
	size_t i, len;
	int e;

	memset(&ch, 0, sizeof(ch));
	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	ch.op = SC_OP_SET_CHOICE;
	ch.step_id = api_asset_path_id(c, 1);
	ch.choice_id = api_asset_path_id(c, 2);
	if ((e = find_step(c, r, ch.step_id, &step)) != 0)
		return e;
	if (pv[1].present) {
		if ((e = api_smart_lists_type_ref(c, r, pv[1].s,
		    &ch.cond_type_id, &act)) != 0)
			return e;
		e = repo_sl_rule_type(c->app->db, &c->app->arena, act,
		    ch.cond_type_id, &rt);
		/* Custom object filters are smart list rules only. */
		if (e == -REPO_ERR_NOT_FOUND || (e == 0 && (!rt.is_filter ||
		    rt.co_type_id != 0)))
			return api_common_fail(c, r, -API_ERR_RULE, "Condition "
			    "type %d (%s) not found", (int)ch.cond_type_id,
			    act ? "activity" : "attribute");
		if (e != 0)
			return err_from_repo(e);
		for (i = 0; i < rt.ncons && op == NULL; i++)
			if (rt.cons[i].primary && rt.cons[i].operators != NULL)
				op = rt.cons[i].operators;
		if (pv[0].present)
			op = pv[0].s;
		else if (op != NULL) {
			char *d;

			len = strcspn(op, ",");
			if ((d = arena_alloc(&c->app->arena, len + 1)) == NULL)
				return -API_ERR_SYSTEM;
			memcpy(d, op, len);
			d[len] = '\0';
			op = d;
		} else
			op = "is";
		ch.set_cond = true;
		ch.cond_kind = act ? "activity" : "attribute";
		ch.cond_op = op;
		ch.cond_vals = pv[2].present ?
		    api_smart_lists_values_json(c, pv[2].s) : "[]";
		if (ch.cond_vals == NULL)
			return -API_ERR_SYSTEM;
	} else if (pv[0].present || pv[2].present)
		return api_common_fail(c, r, -API_ERR_MISSING_PARAM, "Missing "
		    "value for the required parameter 'conditionTypeId'");
	if (pv[3].present && step->nchoices > 0 && (e = parse_values(c, r,
	    pv[3].s, step->choices[0].attrs, step->choices[0].nattrs,
	    &ch)) != 0)
		return e;
	return apply(c, r, &ch);
}

/* ---- Activation -------------------------------------------------------- */

/*
 * Answers the 709 of activation refusal w (model/campaign.h) of campaign
 * id: the rule broken, and where, in words.
 */
static int
refused(struct call *c, struct resp *r, int32_t id,
    const struct campaign_refusal *w)
{
	char msg[512];
	const struct campaign_step *st = w->step;
	int pos = st != NULL ? st->position + 1 : 0;
	const char *step = st != NULL ? st->type_name : "";
	const char *attr = w->attr != NULL ? w->attr->name : "";
	const char *value = w->attr != NULL ? api_common_echo(c,
	    w->attr->value) : "";
	long ref = (long)w->ref;

	msg[0] = '\0';
	switch (w->why) {
	case CAMPAIGN_ACT_ACTIVE:
		(void)snprintf(msg, sizeof(msg), "it is already active");
		break;
	case CAMPAIGN_ACT_NO_TRIGGER:
		(void)snprintf(msg, sizeof(msg), "its smart list has no "
		    "trigger (only trigger campaigns are activated)");
		break;
	case CAMPAIGN_ACT_RULE_VALUE:
		(void)snprintf(msg, sizeof(msg), "smart list rule %d '%s' has "
		    "no value", w->rule_index, w->rule->name != NULL ?
		    w->rule->name : "");
		break;
	case CAMPAIGN_ACT_FILTER:
		(void)snprintf(msg, sizeof(msg), "%s", w->filter);
		break;
	case CAMPAIGN_ACT_NO_STEP:
		(void)snprintf(msg, sizeof(msg), "its flow has no step");
		break;
	case CAMPAIGN_ACT_NO_CONDITION:
		(void)snprintf(msg, sizeof(msg), "flow step %d '%s': choice %d "
		    "has no condition", pos, step, w->choice);
		break;
	case CAMPAIGN_ACT_NO_VALUE:
		(void)snprintf(msg, sizeof(msg), "flow step %d '%s' has no "
		    "'%s'", pos, step, attr);
		break;
	case CAMPAIGN_ACT_NOT_FOUND:
		(void)snprintf(msg, sizeof(msg), "flow step %d '%s': %s '%s' "
		    "not found", pos, step, w->kind, value);
		break;
	case CAMPAIGN_ACT_NOT_APPROVED:
		(void)snprintf(msg, sizeof(msg), "flow step %d '%s': email %ld "
		    "is not approved", pos, step, ref);
		break;
	case CAMPAIGN_ACT_NO_PROGRAM:
		(void)snprintf(msg, sizeof(msg), "flow step %d '%s' has no "
		    "program", pos, step);
		break;
	case CAMPAIGN_ACT_NO_STATUS:
		(void)snprintf(msg, sizeof(msg), "flow step %d '%s': program "
		    "%ld has no status '%s'", pos, step, ref, value);
		break;
	case CAMPAIGN_ACT_OK:
	case CAMPAIGN_ACT__MAX:
		break;
	}
	return api_common_fail(c, r, -API_ERR_RULE, "Cannot activate smart "
	    "campaign %ld: %s", (long)id, msg);
}

/*
 * Activates or deactivates the path's campaign.  The repository reads
 * the campaign under its locks and model/campaign.c checks it, in the
 * transaction that activates: a rule or flow change waits for the
 * activation, or is seen by its checks.
 */
static int
set_active(struct call *c, struct resp *r, bool active)
{
	struct campaign_refusal why;
	int32_t id = api_asset_path_id(c, 0);
	int e;

	memset(&why, 0, sizeof(why));
	if (id == 0)
		e = -REPO_ERR_NOT_FOUND;
	else if (active)
		e = repo_sc_activate(c->app->db, &c->app->arena, id, &why);
	else
		e = repo_sc_deactivate(c->app->db, id);
	if (e == -REPO_ERR_NOT_FOUND)
		return not_found(c, r);
	if (e == -REPO_ERR_INVALID && active)
		return refused(c, r, id, &why);
	if (e == -REPO_ERR_INVALID)
		return api_common_fail(c, r, -API_ERR_RULE, "Cannot deactivate "
		    "smart campaign %ld: it is not active", (long)id);
	if (e != 0)
		return err_from_repo(e);
	api_asset_id_result(r, id);
	return 0;
}

/* POST /rest/asset/v1/smartCampaign/{id}/activate.json */
int
api_smart_campaigns_activate(struct call *c, struct resp *r)
{
	return set_active(c, r, true);
}

/* POST /rest/asset/v1/smartCampaign/{id}/deactivate.json */
int
api_smart_campaigns_deactivate(struct call *c, struct resp *r)
{
	return set_active(c, r, false);
}
