/*
 * Campaigns of the lead database (docs/behaviour.md §23): Get Campaigns
 * and Get Campaign by Id, the older reads of the smart campaigns the
 * asset API makes (api_smart_campaigns.c); a campaign's id is its smart
 * campaign's.
 *
 * Choices where the service is undocumented (beyond-seed §D, decided in
 * docs/behaviour.md §23):
 * - An unknown id is the request-level 1013 "Campaign not found" for
 *   Get Campaign by Id; Get Campaigns with filters that match nothing
 *   answers an empty result.
 * - type is "trigger" when the campaign's smart list has a trigger, else
 *   "batch" (a campaign with no rules too: the asset API's "default" is
 *   not a value of this object).
 * - isTriggerable=true keeps the campaigns that are active and have a
 *   "Campaign is Requested" trigger of source Web Service API (the asset
 *   API's isRequestable); false, or absent, does not filter.
 * - Paging as Get Lists: moreResult and nextPageToken only when there
 *   is a next page.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <json-c/json.h>

#include "api/api.h"
#include "api/api_common.h"
#include "call.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "http/validate.h"
#include "model/folder.h"
#include "repo/repo.h"
#include "repo/repo_smart_campaigns.h"
#include "util/pagetoken.h"

/* Paging token kind (util/pagetoken.h) of Get Campaigns. */
#define TOKEN_KIND_CAMPAIGN_BROWSE	22

/*
 * A campaign as the lead database shows it, members in the order of the
 * service's replies; description, programName and programId only when
 * there is one.
 */
static struct json_object *
campaign_json(const struct repo_sc *s)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "id", json_object_new_int64(s->id));
	json_object_object_add(o, "name", json_object_new_string(s->name));
	if (s->description != NULL)
		json_object_object_add(o, "description",
		    json_object_new_string(s->description));
	json_object_object_add(o, "type", json_object_new_string(
	    s->ntriggers > 0 ? "trigger" : "batch"));
	if (s->place.type == FOLDER_T_PROGRAM && s->program_name != NULL) {
		json_object_object_add(o, "programName",
		    json_object_new_string(s->program_name));
		json_object_object_add(o, "programId",
		    json_object_new_int64(s->place.id));
	}
	json_object_object_add(o, "workspaceName",
	    json_object_new_string(s->workspace));
	json_object_object_add(o, "createdAt",
	    api_common_db_time_json(s->created_at));
	json_object_object_add(o, "updatedAt",
	    api_common_db_time_json(s->updated_at));
	json_object_object_add(o, "active", json_object_new_boolean(s->active));
	return o;
}

static const struct vparam browse_params[] = {
	{ .name = "isTriggerable", .type = VP_BOOL },
};

/*
 * GET /rest/v1/campaigns.json?id=&name=&programName=&workspaceName=
 * &isTriggerable=&batchSize=&nextPageToken= (also POST with
 * _method=GET, the filters in the query, the body or both): the
 * campaigns matching every filter given, by id.  Returns 0 or a
 * negative api_err (1001 bad id or isTriggerable, 1003 bad batchSize or
 * token).
 */
int
api_campaigns_browse(struct call *c, struct resp *r)
{
	struct repo_filter f;
	struct repo_sc *items;
	struct vvalue v[1];
	int64_t after;
	uint32_t sig = PAGE_TOKEN_SIG_INIT;
	size_t i, n, shown;
	bool trig;
	int batch, e;

	if ((e = api_common_browse_filter(c, r, &f, &sig)) != 0 ||
	    (e = VALIDATE(c->req, r, browse_params, v)) != 0)
		return e;
	trig = v[0].present && v[0].b;
	if (trig)
		sig = page_token_sig(sig, "isTriggerable", 13);
	if ((e = api_common_browse_page(c, r, TOKEN_KIND_CAMPAIGN_BROWSE, sig,
	    &batch, &after)) != 0)
		return e;
	if ((e = repo_sc_find(c->app->db, &c->app->arena, &f, trig, after,
	    batch + 1, &items, &n)) != 0)
		return err_from_repo(e);
	if (r->result == NULL)
		r->result = json_object_new_array();
	shown = n > (size_t)batch ? (size_t)batch : n;
	for (i = 0; i < shown; i++)
		resp_add(r, campaign_json(&items[i]));
	if (n > shown)
		return api_common_browse_next(c, r, TOKEN_KIND_CAMPAIGN_BROWSE,
		    sig, items[shown - 1].id);
	return 0;
}

/*
 * GET /rest/v1/campaigns/{campaignId}.json: the campaign (an id in the
 * query too, as a client sends it, is not read).  Returns 0, 1013 or
 * another negative api_err.
 */
int
api_campaigns_get(struct call *c, struct resp *r)
{
	struct repo_sc s;
	int64_t id = c->req->path_ints[0];
	int e;

	if (id >= 1 && id <= INT32_MAX) {
		e = repo_sc_get(c->app->db, &c->app->arena, (int32_t)id, &s);
		if (e == 0) {
			resp_add(r, campaign_json(&s));
			return 0;
		}
		if (e != -REPO_ERR_NOT_FOUND)
			return err_from_repo(e);
	}
	return api_common_fail(c, r, -API_ERR_OBJECT_NOT_FOUND,
	    "Campaign not found");
}
