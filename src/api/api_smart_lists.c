/*
 * Smart Lists (docs/assets.md, docs/behaviour.md §11): the 15 operations
 * under /rest/asset/v1/smartList(s).  Parameters are form fields, read
 * from the query string or the body alike.
 *
 * Choices where the real service is silent:
 *   - a smart list stands in a smartList folder or a program (711
 *     otherwise, 710 for a place that does not exist); names are unique
 *     in the instance: a taken name is 709 "Smart list name '<name>' is
 *     already in use";
 *   - queries (by id, by name, browse, auto-suggest) that find nothing
 *     answer the "No assets found" warning; changes of a list that does
 *     not exist answer 702 "<id> Smart list not found", of a rule or
 *     constraint that does not exist 702 with what is missing;
 *   - maxReturn is 1 to 200 (default 20), offset 0 or more; browse takes
 *     earliestUpdatedAt and latestUpdatedAt (ISO 8601);
 *   - ruleId, attributeId and optionTypeId are JSON objects {"id":N,
 *     "type":"activity"|"attribute"}; anything else is 1001;
 *   - Add Rule with trigger=true is 709 on a plain smart list: triggers
 *     belong to the smart lists of smart campaigns (smartListId of a
 *     campaign, which takes them through this operation); a filter-only
 *     rule type as a trigger, or a trigger-only one (Campaign is
 *     Requested) as a filter, is 709;
 *     an unknown rule type is 709; index is 1 to the number of rules + 1
 *     (709 otherwise); the new rule has its primary condition with the
 *     default operator and no values, shown with isError and its
 *     errorMessage until values are set;
 *   - a campaign's smart list is read and changed here by its id, but
 *     is not browsed or found by name as a list of its own, and deleting
 *     or cloning it alone is 709 (it goes with its campaign, and a plain
 *     list takes no trigger);
 *   - a rule's operator is "occurs" ("does not occur" when negative) for
 *     activity rules, the primary condition's operator for attribute
 *     rules;
 *   - Update Filter Logic: a customRuleLogic that does not parse (a rule
 *     number that is not a rule of the list, unbalanced parentheses, a
 *     word other than and/or/not, nesting deeper than model/smartlist.h
 *     allows) is 709 with the parser's message, since whether it is valid
 *     depends on the list's rules; custom without customRuleLogic is
 *     1002.  The logic is stored in its canonical form;
 *   - rule numbers in custom logic follow the rules: adding, deleting and
 *     reordering renumber them, a deleted rule leaves the expression, and
 *     when no rule of it is left (or Delete All Rules) the match type
 *     falls back to all;
 *   - Reorder Rules takes order=[{"id":ruleId,"index":N},...] (the
 *     newer reference) or ruleId and index (one rule); the rules not
 *     named keep their order in the positions left;
 *   - Update Rule: values is comma-separated, a value holding a comma in
 *     double quotes; operator must be one of the constraint's (709), and
 *     defaults to the condition's current one, else the constraint's
 *     default; the primary constraint cannot be removed (709);
 *   - Auto Suggest answers [[{id, displayName, name, workspace,
 *     workspaceId}]] from the forms, static lists, programs or lead
 *     fields a constraint names, whose names start with
 *     primaryAttributeValue, taken literally (at most 200);
 *   - Auto Suggest of a free-text constraint (string, text, email, phone,
 *     url, link) of a lead attribute rule or a custom object filter
 *     answers the distinct values of the lead column or the record table
 *     column (repo_sl_suggest_values), not null nor empty, starting with
 *     primaryAttributeValue taken literally, case as the column's
 *     collation compares, sorted by it, at most 200: id is the value's
 *     1-based position, name and displayName the value, workspace
 *     "Default" (1).  Numbers, dates, booleans, references and formulas
 *     have none, nor have an activity's free-text constraints (no
 *     column holds them).  Only the newest REPO_SL_SUGGEST_SCAN rows of
 *     the table (by id) are read: the columns mostly have no index, and
 *     the call stays bounded on a huge table;
 *   - the url member is app_url, "/#SL", the id and "B2";
 *   - every approved custom object type is a filter (db/migrations/
 *     0019_co_filters.sql): activity-kind, id 200000 plus the type's id,
 *     named "Has <display name>", its approved fields the constraints
 *     (ids of their own, dbObject the type's API name, the first dedupe
 *     field primary and first); filters only, not triggers nor flow step
 *     choice conditions; their free-text fields' values are suggested
 *     (above); the rules naming a type are its dependent assets
 *     (api_co_types.c).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
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
#include "http/validate.h"
#include "model/folder.h"
#include "model/smartlist.h"
#include "repo/repo_folders.h"
#include "repo/repo_sl_catalogue.h"
#include "repo/repo_sl_suggest.h"
#include "repo/repo_smart_lists.h"
#include "util/buf.h"

#define SL_URL_PREFIX		"SL"
#define SL_SUGGEST_MAX		200
#define SL_REF_MAX_BYTES	256

static const char *const match_words[] = { "all", "any", "custom", NULL };

static void
cond_text(struct buf *b, const struct smartlist_rule *rule,
    const struct smartlist_cond *cd)
{
	const char *op = cd->op != NULL ? cd->op : "";

	buf_printf(b, rule->activity ? "{\"activityAttributeId\":%d,"
	    "\"activityAttributeName\":" : "{\"attributeId\":%d,"
	    "\"attributeName\":", (int)cd->attribute_id);
	buf_add_jsonc_str(b, cd->name != NULL ? cd->name : "");
	buf_adds(b, ",\"operator\":");
	buf_add_jsonc_str(b, op);
	buf_adds(b, ",\"values\":");
	if (api_common_array_text(b, cd->values_json) == 0 &&
	    strstr(op, "empty") == NULL)
		buf_printf(b, ",\"isPrimary\":%s,\"isError\":true,"
		    "\"errorMessage\":\"Missing value\"}",
		    cd->primary ? "true" : "false");
	else
		buf_printf(b, ",\"isPrimary\":%s}",
		    cd->primary ? "true" : "false");
}

static void
rule_text(struct buf *b, const struct smartlist_rule *rule)
{
	const char *op = rule->activity ? (rule->negative ?
	    "does not occur" : "occurs") : "is";
	size_t i;

	for (i = 0; !rule->activity && i < rule->nconds; i++)
		if (rule->conds[i].primary && rule->conds[i].op != NULL)
			op = rule->conds[i].op;
	buf_printf(b, "{\"id\":%d,\"name\":", (int)rule->id);
	buf_add_jsonc_str(b, rule->name != NULL ? rule->name : "");
	buf_printf(b, ",\"ruleTypeId\":%d,\"ruleType\":\"%s\","
	    "\"operator\":", (int)rule->type_id, rule->activity ?
	    "Activity" : "Attribute");
	buf_add_jsonc_str(b, op);
	buf_adds(b, ",\"conditions\":[");
	for (i = 0; i < rule->nconds; i++) {
		if (i > 0)
			buf_addc(b, ',');
		cond_text(b, rule, &rule->conds[i]);
	}
	buf_adds(b, "]}");
}

/* The rules that are triggers (or filters) of s as a JSON array. */
static void
rule_list_text(struct buf *b, const struct repo_sl *s, bool triggers)
{
	size_t i, n = 0;

	buf_addc(b, '[');
	for (i = 0; i < s->nrules; i++) {
		if (s->rules[i].trigger != triggers)
			continue;
		if (n++ > 0)
			buf_addc(b, ',');
		rule_text(b, &s->rules[i]);
	}
	buf_addc(b, ']');
}

static void
rules_text(struct buf *b, const struct repo_sl *s)
{
	buf_adds(b, "{\"filterMatchType\":");
	buf_add_jsonc_str(b, s->match_type);
	buf_adds(b, ",\"triggers\":");
	rule_list_text(b, s, true);
	buf_adds(b, ",\"filters\":");
	rule_list_text(b, s, false);
	if (strcmp(s->match_type, "custom") == 0) {
		buf_adds(b, ",\"filterCustomRuleLogic\":");
		buf_add_jsonc_str(b, s->custom_logic != NULL ?
		    s->custom_logic : "");
	}
	buf_addc(b, '}');
}

/*
 * The value of the rules member of list s: the text kept on its row, or
 * rendered from its rules and then kept for the reads to come (a keep
 * that fails, as when a change of the rules came meanwhile, is left to
 * a later read).
 */
static void
rules_member(struct buf *b, struct call *c, const struct repo_sl *s)
{
	size_t at = b->len;

	if (s->kept.json != NULL) {
		buf_add(b, s->kept.json, s->kept.len);
		return;
	}
	rules_text(b, s);
	if (s->kept.set && buf_ok(b))
		(void)repo_sl_keep_rules(c->app->db, s->id, &s->kept,
		    b->data + at, b->len - at);
}

/* See api_smart_lists.h. */
void
api_smart_lists_text(struct buf *b, struct call *c, const struct repo_sl *s,
    bool with_rules)
{
	buf_addc(b, '{');
	api_asset_head_text(b, c, s->id, s->name, s->description,
	    s->created_at, s->updated_at, SL_URL_PREFIX);
	buf_printf(b, ",\"folder\":{\"id\":%lld,\"type\":",
	    (long long)s->place.id);
	buf_add_jsonc_str(b, folder_type_name(s->place.type));
	buf_adds(b, "},\"workspace\":");
	buf_add_jsonc_str(b, s->workspace);
	if (with_rules) {
		buf_adds(b, ",\"rules\":");
		rules_member(b, c, s);
	}
	buf_addc(b, '}');
}

/* See api_smart_lists.h. */
int
api_smart_lists_answer(struct call *c, struct resp *r,
    const struct repo_sl *s, bool with_rules)
{
	api_smart_lists_text(resp_add_text(r), c, s, with_rules);
	return 0;
}

#define SL_WHAT	"Smart list"

/* 702 for a change of the path's list, which does not exist. */
static int
not_found(struct call *c, struct resp *r)
{
	return api_asset_not_found(c, r, SL_WHAT, c->req->path_ints[0]);
}

/* Reads list id back, with its rules when with_rules, into r. */
static int
answer(struct call *c, struct resp *r, int32_t id, bool with_rules)
{
	struct repo_sl s;
	int e;

	e = repo_sl_get_reply(c->app->db, &c->app->arena, id, with_rules,
	    &s);
	if (e == -REPO_ERR_NOT_FOUND)
		return not_found(c, r);
	if (e != 0)
		return err_from_repo(e);
	return api_smart_lists_answer(c, r, &s, with_rules);
}

/* See api_smart_lists.h. */
int
api_smart_lists_type_ref(struct call *c, struct resp *r, const char *text,
    int32_t *id, bool *activity)
{
	struct json_object *o, *vi, *vt;
	const char *t;
	int64_t v;
	int ok = 0;

	o = strlen(text) <= SL_REF_MAX_BYTES ? json_tokener_parse(text) :
	    NULL;
	if (o != NULL && json_object_is_type(o, json_type_object) &&
	    json_object_object_length(o) == 2 &&
	    json_object_object_get_ex(o, "id", &vi) &&
	    json_object_object_get_ex(o, "type", &vt) &&
	    json_object_is_type(vt, json_type_string) &&
	    (json_object_is_type(vi, json_type_int) ||
	    json_object_is_type(vi, json_type_string))) {
		v = json_object_get_int64(vi);
		t = json_object_get_string(vt);
		if (v >= -INT32_MAX && v <= INT32_MAX && v != 0 &&
		    (strcasecmp(t, "activity") == 0 ||
		    strcasecmp(t, "attribute") == 0)) {
			*id = (int32_t)v;
			*activity = strcasecmp(t, "activity") == 0;
			ok = 1;
		}
	}
	json_object_put(o);
	if (!ok)
		return api_common_invalid(c, r, text, "RuleTypeReference");
	return 0;
}

/* A repository error of a change of the path's list as the API's. */
static int
change_err(struct call *c, struct resp *r, int e,
    const struct repo_sl_change *ch)
{
	return api_asset_change_err(c, r, e, ch->msg, ch->msg[0] != '\0' ?
	    ch->msg : api_asset_not_found_msg(c, SL_WHAT,
	    c->req->path_ints[0]));
}

/* Applies ch to the path's list and answers it with its rules. */
static int
apply(struct call *c, struct resp *r, struct repo_sl_change *ch)
{
	int32_t id = api_asset_path_id(c, 0);
	int e;

	if (id == 0)
		return not_found(c, r);
	if ((e = repo_sl_change(c->app->db, id, ch)) != 0)
		return change_err(c, r, e, ch);
	return answer(c, r, id, true);
}

/* ---- Reads ------------------------------------------------------------ */

/* GET /rest/asset/v1/smartList/{id}.json?includeRules= */
int
api_smart_lists_get(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "includeRules", .type = VP_BOOL },
	};
	struct vvalue pv[1];
	struct repo_sl s;
	int32_t id = api_asset_path_id(c, 0);
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	if (id == 0)
		return api_asset_none(r);
	e = repo_sl_get_reply(c->app->db, &c->app->arena, id,
	    pv[0].present && pv[0].b, &s);
	if (e == -REPO_ERR_NOT_FOUND)
		return api_asset_none(r);
	if (e != 0)
		return err_from_repo(e);
	return api_smart_lists_answer(c, r, &s, pv[0].present && pv[0].b);
}

/* GET /rest/asset/v1/smartList/byName.json?name= */
int
api_smart_lists_get_by_name(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "name", .type = VP_STR, .flags = VPF_REQUIRED,
		  .max = ASSET_NAME_CHARS * 4 },
		{ .name = "includeRules", .type = VP_BOOL },
	};
	struct vvalue pv[2];
	struct repo_sl s;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	e = repo_sl_get_reply_by_name(c->app->db, &c->app->arena, pv[0].s,
	    pv[1].present && pv[1].b, &s);
	if (e == -REPO_ERR_NOT_FOUND)
		return api_asset_none(r);
	if (e != 0)
		return err_from_repo(e);
	return api_smart_lists_answer(c, r, &s, pv[1].present && pv[1].b);
}

/*
 * GET /rest/asset/v1/smartLists.json?folder=&offset=&maxReturn=
 * &earliestUpdatedAt=&latestUpdatedAt=
 */
int
api_smart_lists_browse(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		API_ASSET_P_MAX_RETURN,
		API_ASSET_P_OFFSET,
		API_ASSET_P_FOLDER_OPT,
		{ .name = "earliestUpdatedAt", .type = VP_DATETIME },
		{ .name = "latestUpdatedAt", .type = VP_DATETIME },
	};
	struct vvalue pv[5];
	struct repo_sl_query q;
	struct repo_sl *items;
	struct api_asset_browse b;
	size_t n, i;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0 ||
	    (e = api_asset_browse_query(c, r, AK_SMART_LIST, &pv[0], &pv[1],
	    &pv[2], &b)) != 0)
		return e;
	memset(&q, 0, sizeof(q));
	q.limit = b.limit;
	q.offset = b.offset;
	q.place = b.folder;
	q.earliest = pv[3].present ? api_asset_db_time(c, pv[3].i) : NULL;
	q.latest = pv[4].present ? api_asset_db_time(c, pv[4].i) : NULL;
	if ((e = repo_sl_browse(c->app->db, &c->app->arena, &q, &items,
	    &n)) != 0)
		return err_from_repo(e);
	if (n == 0)
		return api_asset_none(r);
	for (i = 0; i < n; i++)
		api_smart_lists_text(resp_add_text(r), c, &items[i], false);
	return 0;
}

/* See api_smart_lists.h. */
struct json_object *
api_smart_lists_types_json(const struct repo_sl_rule_type *types, size_t n,
    bool triggers)
{
	struct json_object *filters, *t, *ks, *k;
	size_t i, j;

	filters = json_object_new_array();
	for (i = 0; i < n; i++) {
		if (triggers ? !types[i].is_trigger : !types[i].is_filter)
			continue;
		t = json_object_new_object();
		json_object_object_add(t, "id",
		    json_object_new_int(types[i].id));
		json_object_object_add(t, "name",
		    json_object_new_string(types[i].name));
		json_object_object_add(t, "type", json_object_new_string(
		    types[i].activity ? "activity" : "attribute"));
		ks = json_object_new_array();
		for (j = 0; j < types[i].ncons; j++) {
			const struct repo_sl_constraint *kc =
			    &types[i].cons[j];
			const char *ops = kc->operators != NULL ?
			    kc->operators : "";

			k = json_object_new_object();
			json_object_object_add(k, "id",
			    json_object_new_int(kc->id));
			json_object_object_add(k, "name",
			    json_object_new_string(kc->name));
			json_object_object_add(k, "dataType",
			    json_object_new_string(kc->data_type != NULL ?
			    kc->data_type : "string"));
			json_object_object_add(k, "primary",
			    json_object_new_boolean(kc->primary));
			json_object_object_add(k, "operator",
			    json_object_new_string_len(ops,
			    (int)strcspn(ops, ",")));
			json_object_object_add(k, "dbAttrib",
			    json_object_new_boolean(!types[i].activity));
			if (types[i].co_api_name != NULL)
				json_object_object_add(k, "dbObject",
				    json_object_new_string(
				    types[i].co_api_name));
			json_object_array_add(ks, k);
		}
		json_object_object_add(t, "constraints", ks);
		json_object_array_add(filters, t);
	}
	return filters;
}

/* See api_smart_lists.h. */
int
api_smart_lists_rule_types_answer(struct call *c, struct resp *r,
    bool triggers)
{
	struct repo_sl_rule_type *types;
	struct json_object *o;
	size_t n;
	int e;

	if ((e = repo_sl_rule_types(c->app->db, &c->app->arena, &types,
	    &n)) != 0)
		return err_from_repo(e);
	o = json_object_new_object();
	json_object_object_add(o, "filters",
	    api_smart_lists_types_json(types, n, false));
	if (triggers)
		json_object_object_add(o, "triggers",
		    api_smart_lists_types_json(types, n, true));
	json_object_object_add(o, "predictiveFilters",
	    json_object_new_object());
	resp_add(r, o);
	return 0;
}

/* GET /rest/asset/v1/smartList/rules.json: the filter rule types. */
int
api_smart_lists_rule_types(struct call *c, struct resp *r)
{
	return api_smart_lists_rule_types_answer(c, r, false);
}

/* See api_smart_lists.h. */
int
api_smart_lists_suggest_params(struct call *c, struct resp *r,
    struct api_sl_suggest *q)
{
	static const struct vparam params[] = {
		{ .name = "ruleTypeId", .type = VP_RAW, .flags = VPF_REQUIRED,
		  .max = SL_REF_MAX_BYTES },
		{ .name = "optionTypeId", .type = VP_RAW,
		  .max = SL_REF_MAX_BYTES },
		{ .name = "primaryAttributeValue", .type = VP_STR,
		  .max = ASSET_NAME_CHARS * 4 },
	};
	struct vvalue pv[3];
	bool kact;
	int e;

	memset(q, 0, sizeof(*q));
	if ((e = VALIDATE(c->req, r, params, pv)) != 0 ||
	    (e = api_smart_lists_type_ref(c, r, pv[0].s, &q->type_id,
	    &q->activity)) != 0 ||
	    (pv[1].present && (e = api_smart_lists_type_ref(c, r, pv[1].s,
	    &q->option_id, &kact)) != 0))
		return e;
	q->prefix = pv[2].present ? pv[2].s : NULL;
	return 0;
}

/* See api_smart_lists.h. */
const struct repo_sl_constraint *
api_smart_lists_constraint(const struct repo_sl_rule_type *rt,
    int32_t option_id)
{
	size_t i;

	for (i = 0; i < rt->ncons; i++)
		if (option_id != 0 ? rt->cons[i].id == option_id :
		    rt->cons[i].primary)
			return &rt->cons[i];
	return NULL;
}

/* Answers the n suggestions sg, or "No assets found" when none. */
static int
suggestions(struct resp *r, const struct repo_sl_suggestion *sg, size_t n)
{
	struct json_object *a, *o;
	size_t i;

	if (n == 0)
		return api_asset_none(r);
	a = json_object_new_array();
	for (i = 0; i < n; i++) {
		o = json_object_new_object();
		json_object_object_add(o, "id", json_object_new_int(sg[i].id));
		json_object_object_add(o, "displayName",
		    json_object_new_string(sg[i].name));
		json_object_object_add(o, "name",
		    json_object_new_string(sg[i].name));
		json_object_object_add(o, "workspace",
		    json_object_new_string(sg[i].workspace));
		json_object_object_add(o, "workspaceId",
		    json_object_new_int(sg[i].workspace_id));
		json_object_array_add(a, o);
	}
	resp_add(r, a);
	return 0;
}

/* See api_smart_lists.h. */
int
api_smart_lists_suggest(struct call *c, struct resp *r, const char *dt,
    const char *prefix)
{
	struct repo_sl_suggestion *sg;
	size_t n;
	int e;

	if (dt == NULL)
		return api_asset_none(r);
	if ((e = repo_sl_suggest(c->app->db, &c->app->arena, dt, prefix,
	    SL_SUGGEST_MAX, &sg, &n)) != 0)
		return err_from_repo(e);
	return suggestions(r, sg, n);
}

/* See api_smart_lists.h. */
int
api_smart_lists_suggest_rule(struct call *c, struct resp *r,
    const struct repo_sl_rule_type *rt, int32_t option_id,
    const char *prefix)
{
	const struct repo_sl_constraint *k =
	    api_smart_lists_constraint(rt, option_id);
	struct repo_sl_suggestion *sg;
	size_t n;
	int e;

	if (k == NULL)
		return api_asset_none(r);
	/* An activity's constraint names assets; the others hold values. */
	if (rt->activity && rt->co_type_id == 0)
		return api_smart_lists_suggest(c, r, k->data_type, prefix);
	if ((e = repo_sl_suggest_values(c->app->db, &c->app->arena, rt, k,
	    prefix, SL_SUGGEST_MAX, &sg, &n)) != 0)
		return err_from_repo(e);
	return suggestions(r, sg, n);
}

/*
 * GET /rest/asset/v1/smartList/{id}/autoSuggest.json?ruleTypeId=
 * &optionTypeId=&primaryAttributeValue=
 */
int
api_smart_lists_auto_suggest(struct call *c, struct resp *r)
{
	struct api_sl_suggest q;
	struct repo_sl s;
	struct repo_sl_rule_type rt;
	int32_t id = api_asset_path_id(c, 0);
	int e;

	if ((e = api_smart_lists_suggest_params(c, r, &q)) != 0)
		return e;
	if (id == 0)
		return api_asset_none(r);
	e = repo_sl_get(c->app->db, &c->app->arena, id, false, &s);
	if (e == 0)
		e = repo_sl_rule_type(c->app->db, &c->app->arena, q.activity,
		    q.type_id, &rt);
	if (e == -REPO_ERR_NOT_FOUND)
		return api_asset_none(r);
	if (e != 0)
		return err_from_repo(e);
	return api_smart_lists_suggest_rule(c, r, &rt, q.option_id,
	    q.prefix);
}

/* ---- Create, clone, delete -------------------------------------------- */

/* name, folder, description of create and clone into *t. */
static int
new_list(struct call *c, struct resp *r, struct repo_sl_new *t)
{
	memset(t, 0, sizeof(*t));
	return api_asset_new(c, r, AK_SMART_LIST, &t->name, &t->description,
	    &t->place);
}

/* Inserts t and answers the new list. */
static int
insert(struct call *c, struct resp *r, const struct repo_sl_new *t)
{
	int32_t id;
	int e;

	e = repo_sl_insert(c->app->db, t, &id);
	if (e == -REPO_ERR_CONFLICT)
		return api_asset_name_taken(c, r, SL_WHAT, t->name, false);
	if (e == -REPO_ERR_GONE)
		return api_asset_gone(c, r, &t->place, AK_SMART_LIST, NULL);
	if (e == -REPO_ERR_NOT_FOUND)
		return not_found(c, r);
	if (e != 0)
		return err_from_repo(e);
	return answer(c, r, id, false);
}

/* POST /rest/asset/v1/smartLists.json: name, folder, description. */
int
api_smart_lists_create(struct call *c, struct resp *r)
{
	struct repo_sl_new t;
	int e;

	if ((e = new_list(c, r, &t)) != 0)
		return e;
	return insert(c, r, &t);
}

/*
 * 709 when list id belongs to a smart campaign (verb, what to do to the
 * campaign instead), 702 when there is no such list, 0 when it is a list
 * of its own, or the read's error.
 */
static int
campaign_owned(struct call *c, struct resp *r, int32_t id, const char *verb)
{
	struct repo_sl s;
	int e;

	e = repo_sl_get(c->app->db, &c->app->arena, id, false, &s);
	if (e == -REPO_ERR_NOT_FOUND)
		return not_found(c, r);
	if (e != 0)
		return err_from_repo(e);
	if (s.campaign_id != 0)
		return api_common_fail(c, r, -API_ERR_RULE, "Smart list %ld "
		    "belongs to smart campaign %ld: %s the campaign instead",
		    (long)id, (long)s.campaign_id, verb);
	return 0;
}

/* POST /rest/asset/v1/smartList/{id}/clone.json: name, folder, description. */
int
api_smart_lists_clone(struct call *c, struct resp *r)
{
	struct repo_sl_new t;
	int e;

	if ((e = new_list(c, r, &t)) != 0)
		return e;
	if ((t.clone_of = api_asset_path_id(c, 0)) == 0)
		return not_found(c, r);
	if ((e = campaign_owned(c, r, t.clone_of, "clone")) != 0)
		return e;
	return insert(c, r, &t);
}

/* POST /rest/asset/v1/smartList/{id}/delete.json */
int
api_smart_lists_delete(struct call *c, struct resp *r)
{
	int32_t id = api_asset_path_id(c, 0);
	int e;

	if (id == 0)
		return not_found(c, r);
	e = repo_sl_delete(c->app->db, id);
	if (e == -REPO_ERR_NOT_FOUND)
		return (e = campaign_owned(c, r, id, "delete")) != 0 ? e :
		    not_found(c, r);
	if (e != 0)
		return err_from_repo(e);
	api_asset_id_result(r, id);
	return 0;
}

/* ---- Rules ------------------------------------------------------------ */

/*
 * POST /rest/asset/v1/smartList/{id}/rules.json: ruleId, index,
 * trigger, negative.
 */
int
api_smart_lists_add_rule(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "ruleId", .type = VP_RAW, .flags = VPF_REQUIRED,
		  .max = SL_REF_MAX_BYTES },
		{ .name = "index", .type = VP_INT, .flags = VPF_REQUIRED,
		  .min = 1, .max = INT32_MAX },
		{ .name = "trigger", .type = VP_BOOL },
		{ .name = "negative", .type = VP_BOOL },
	};
	struct vvalue pv[4];
	struct repo_sl_change ch;
	struct repo_sl_rule_type rt;
	size_t i;
	int e;

	memset(&ch, 0, sizeof(ch));
	if ((e = VALIDATE(c->req, r, params, pv)) != 0 ||
	    (e = api_smart_lists_type_ref(c, r, pv[0].s, &ch.type_id, &ch.activity)) != 0)
		return e;
	ch.trigger = pv[2].present && pv[2].b;
	if (ch.trigger) {
		struct repo_sl s;
		int32_t id = api_asset_path_id(c, 0);

		e = id == 0 ? -REPO_ERR_NOT_FOUND : repo_sl_get(c->app->db,
		    &c->app->arena, id, false, &s);
		if (e == -REPO_ERR_NOT_FOUND)
			return not_found(c, r);
		if (e != 0)
			return err_from_repo(e);
		if (s.campaign_id == 0)
			return api_common_fail(c, r, -API_ERR_RULE, "Triggers "
			    "can only be added to the smart list of a smart "
			    "campaign");
	}
	e = repo_sl_rule_type(c->app->db, &c->app->arena, ch.activity,
	    ch.type_id, &rt);
	if (e == -REPO_ERR_NOT_FOUND)
		return api_common_fail(c, r, -API_ERR_RULE, "Rule type %d "
		    "(%s) not found", (int)ch.type_id, ch.activity ?
		    "activity" : "attribute");
	if (e != 0)
		return err_from_repo(e);
	if (ch.trigger && !rt.is_trigger)
		return api_common_fail(c, r, -API_ERR_RULE, "Rule type '%s' "
		    "is a filter only and cannot be a trigger", rt.name);
	if (!ch.trigger && !rt.is_filter)
		return api_common_fail(c, r, -API_ERR_RULE, "Rule type '%s' "
		    "is a trigger only and cannot be a filter", rt.name);
	ch.op = SL_OP_ADD;
	ch.index = (int)pv[1].i;
	ch.negative = pv[3].present && pv[3].b;
	ch.default_op = "is";
	for (i = 0; i < rt.ncons; i++)
		if (rt.cons[i].primary) {
			ch.primary_id = rt.cons[i].id;
			ch.default_op = rt.cons[i].operators != NULL ?
			    rt.cons[i].operators : "is";
			break;
		}
	/* The default operator is the first of the list. */
	if (strchr(ch.default_op, ',') != NULL) {
		size_t len = strcspn(ch.default_op, ",");
		char *d = arena_alloc(&c->app->arena, len + 1);

		if (d == NULL)
			return -API_ERR_SYSTEM;
		memcpy(d, ch.default_op, len);
		d[len] = '\0';
		ch.default_op = d;
	}
	return apply(c, r, &ch);
}

/* POST /rest/asset/v1/smartList/{id}/rule/{ruleId}/delete.json */
int
api_smart_lists_delete_rule(struct call *c, struct resp *r)
{
	struct repo_sl_change ch;
	int32_t id = api_asset_path_id(c, 0);
	int e;

	memset(&ch, 0, sizeof(ch));
	ch.op = SL_OP_DELETE;
	ch.rule_id = api_asset_path_id(c, 1);
	if (id == 0)
		return not_found(c, r);
	if ((e = repo_sl_change(c->app->db, id, &ch)) != 0)
		return change_err(c, r, e, &ch);
	api_asset_id_result(r, ch.rule_id);
	return 0;
}

/* POST /rest/asset/v1/smartList/{id}/rules/delete.json */
int
api_smart_lists_delete_all_rules(struct call *c, struct resp *r)
{
	struct repo_sl_change ch;

	memset(&ch, 0, sizeof(ch));
	ch.op = SL_OP_DELETE_ALL;
	return apply(c, r, &ch);
}

/*
 * The order parameter, [{"id":N,"index":M},...], into ch (arena arrays);
 * 1001 when it is not that.
 */
static int
parse_order(struct call *c, struct resp *r, const char *text,
    struct repo_sl_change *ch)
{
	struct json_object *a, *e, *vi, *vx;
	int32_t *ids;
	int *idx;
	size_t n, i;
	int ok = 1;

	a = json_tokener_parse(text);
	if (a == NULL || !json_object_is_type(a, json_type_array) ||
	    (n = json_object_array_length(a)) == 0 || n > SL_MAX_RULES) {
		json_object_put(a);
		return api_common_invalid(c, r, text, "RuleOrder");
	}
	ids = arena_alloc(&c->app->arena, n * sizeof(*ids));
	idx = arena_alloc(&c->app->arena, n * sizeof(*idx));
	for (i = 0; ok && ids != NULL && idx != NULL && i < n; i++) {
		e = json_object_array_get_idx(a, i);
		ok = json_object_is_type(e, json_type_object) &&
		    json_object_object_get_ex(e, "id", &vi) &&
		    json_object_object_get_ex(e, "index", &vx) &&
		    json_object_is_type(vi, json_type_int) &&
		    json_object_is_type(vx, json_type_int) &&
		    json_object_get_int64(vi) >= 1 &&
		    json_object_get_int64(vi) <= INT32_MAX &&
		    json_object_get_int64(vx) >= -SL_MAX_RULES &&
		    json_object_get_int64(vx) <= SL_MAX_RULES;
		if (ok) {
			ids[i] = (int32_t)json_object_get_int64(vi);
			idx[i] = (int)json_object_get_int64(vx);
		}
	}
	json_object_put(a);
	if (ids == NULL || idx == NULL)
		return -API_ERR_SYSTEM;
	if (!ok)
		return api_common_invalid(c, r, text, "RuleOrder");
	ch->move_ids = ids;
	ch->move_index = idx;
	ch->nmoves = (int)n;
	return 0;
}

/*
 * POST /rest/asset/v1/smartList/{id}/reorder.json: order, or ruleId and
 * index.
 */
int
api_smart_lists_reorder(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "order", .type = VP_RAW, .max = 64 * 1024 },
		{ .name = "ruleId", .type = VP_INT, .min = 1,
		  .max = INT32_MAX },
		{ .name = "index", .type = VP_INT, .min = 1,
		  .max = SL_MAX_RULES },
	};
	struct vvalue pv[3];
	struct repo_sl_change ch;
	int32_t one_id;
	int one_index, e;

	memset(&ch, 0, sizeof(ch));
	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	if (pv[0].present) {
		if ((e = parse_order(c, r, pv[0].s, &ch)) != 0)
			return e;
	} else if (pv[1].present && pv[2].present) {
		one_id = (int32_t)pv[1].i;
		one_index = (int)pv[2].i;
		ch.move_ids = &one_id;
		ch.move_index = &one_index;
		ch.nmoves = 1;
	} else
		return api_common_fail(c, r, -API_ERR_MISSING_PARAM, "Missing "
		    "value for the required parameter 'order'");
	ch.op = SL_OP_REORDER;
	return apply(c, r, &ch);
}

/*
 * POST /rest/asset/v1/smartList/{id}/filterLogic.json: matchType,
 * customRuleLogic.
 */
int
api_smart_lists_filter_logic(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "matchType", .type = VP_ENUM, .flags = VPF_REQUIRED,
		  .words = match_words, .type_name = "FilterMatchType" },
		{ .name = "customRuleLogic", .type = VP_STR,
		  .max = SL_LOGIC_MAX_BYTES },
	};
	struct vvalue pv[2];
	struct repo_sl_change ch;
	int e;

	memset(&ch, 0, sizeof(ch));
	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	ch.op = SL_OP_LOGIC;
	ch.match_type = match_words[pv[0].i];
	if (pv[0].i == 2) {
		if (!pv[1].present || pv[1].s[0] == '\0')
			return api_common_fail(c, r, -API_ERR_MISSING_PARAM,
			    "Missing value for the required parameter "
			    "'customRuleLogic'");
		ch.logic = pv[1].s;
	}
	return apply(c, r, &ch);
}

/* See api_smart_lists.h. */
const char *
api_smart_lists_values_json(struct call *c, const char *s)
{
	struct json_object *a = json_object_new_array();
	char *buf, *out;
	const char *text;
	size_t len = 0;
	bool quoted = false;

	if ((buf = arena_alloc(&c->app->arena, strlen(s) + 1)) == NULL) {
		json_object_put(a);
		return NULL;
	}
	for (;; s++) {
		if (*s == '"') {
			quoted = !quoted;
			continue;
		}
		if (*s == '\0' || (*s == ',' && !quoted)) {
			json_object_array_add(a,
			    json_object_new_string_len(buf, (int)len));
			len = 0;
			if (*s == '\0')
				break;
			continue;
		}
		buf[len++] = *s;
	}
	text = json_object_to_json_string_ext(a, JSON_C_TO_STRING_PLAIN);
	if ((out = arena_alloc(&c->app->arena, strlen(text) + 1)) != NULL)
		memcpy(out, text, strlen(text) + 1);
	json_object_put(a);
	return out;
}

/*
 * POST /rest/asset/v1/smartList/{id}/rule/{ruleId}.json: attributeId,
 * values, operator.
 */
int
api_smart_lists_update_rule(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "attributeId", .type = VP_RAW,
		  .flags = VPF_REQUIRED, .max = SL_REF_MAX_BYTES },
		{ .name = "values", .type = VP_STR, .flags = VPF_REQUIRED,
		  .max = 64 * 1024 },
		{ .name = "operator", .type = VP_STR, .max = 64 },
	};
	struct vvalue pv[3];
	struct repo_sl_change ch;
	bool act;
	int e;

	memset(&ch, 0, sizeof(ch));
	if ((e = VALIDATE(c->req, r, params, pv)) != 0 ||
	    (e = api_smart_lists_type_ref(c, r, pv[0].s, &ch.attribute_id, &act)) != 0)
		return e;
	ch.op = SL_OP_SET_COND;
	ch.rule_id = api_asset_path_id(c, 1);
	ch.cond_op = pv[2].present ? pv[2].s : NULL;
	if ((ch.values_json = api_smart_lists_values_json(c, pv[1].s)) == NULL)
		return -API_ERR_SYSTEM;
	return apply(c, r, &ch);
}

/*
 * POST /rest/asset/v1/smartList/{id}/rule/{ruleId}/removeConstraint.json:
 * attributeId.
 */
int
api_smart_lists_remove_constraint(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "attributeId", .type = VP_RAW,
		  .flags = VPF_REQUIRED, .max = SL_REF_MAX_BYTES },
	};
	struct vvalue pv[1];
	struct repo_sl_change ch;
	bool act;
	int e;

	memset(&ch, 0, sizeof(ch));
	if ((e = VALIDATE(c->req, r, params, pv)) != 0 ||
	    (e = api_smart_lists_type_ref(c, r, pv[0].s, &ch.attribute_id, &act)) != 0)
		return e;
	ch.op = SL_OP_REMOVE_COND;
	ch.rule_id = api_asset_path_id(c, 1);
	return apply(c, r, &ch);
}
