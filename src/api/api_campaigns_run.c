/*
 * Request Campaign and Schedule Campaign (docs/behaviour.md §24): the
 * calls that start a campaign's runs.  They check the campaign and the
 * input, record what the call itself records and leave the run to the
 * campaign engine (src/engine/): the reply comes at once, as the hosted
 * service's does, and the flow runs within the engine's next passes.
 *
 * Choices where the service is undocumented (beyond-seed §D 2-5,
 * decided in docs/behaviour.md §24):
 * - Unknown campaign: 1013 "Campaign not found" (request-level); a lead
 *   id that names no lead: 1004 "Lead [<id>] not found" for the whole
 *   call, nothing run (as recorded from the hosted service).
 * - Request Campaign on a batch campaign, an inactive one or one without
 *   a "Campaign is Requested" trigger of source Web Service API; Schedule
 *   Campaign on a trigger campaign: 1003 with a message that says which.
 * - input.leads absent or empty: 701 "input.leads cannot be blank"; more
 *   than 100 leads or tokens: 1003; a token whose name is not
 *   "{{my.<name>}}" or whose value is not a string: 1003.
 * - runAt later than two years from now: 1042; earlier than five
 *   minutes from now: the run starts five minutes from now.
 * - cloneToProgramName (or the documentation's cloneToProgram): Clone
 *   Program of the campaign's program (709 for a campaign in a folder),
 *   in the same folder, under that name; the copy of the campaign is the
 *   one scheduled and its id is the reply's; the 21st such call of a US
 *   Central day is 1020.
 * - The campaign's smart list filters (and each flow step's choice
 *   conditions) must be ones mauto evaluates, else 709 naming the
 *   first that is not; a requested lead that does not pass the filters
 *   does not run (the call still succeeds, as for qualification).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <json-c/json.h>

#include "api/api.h"
#include "api/api_common.h"
#include "api/api_leads_catalog.h"
#include "auth/ratelimit.h"
#include "call.h"
#include "engine/audience.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "model/campaign.h"
#include "model/leadfield.h"
#include "model/progmeta.h"
#include "repo/repo.h"
#include "repo/repo_activity.h"
#include "repo/repo_engine.h"
#include "repo/repo_leads.h"
#include "repo/repo_program_assets.h"
#include "repo/repo_program_clone.h"
#include "repo/repo_smart_campaigns.h"
#include "util/arena.h"
#include "util/metrics.h"
#include "util/timeutil.h"

/* The most leads and tokens of one call (the documented limits). */
#define RUN_MAX_LEADS		100
#define RUN_MAX_TOKENS		100
/* A scheduled run starts no sooner than this after the call. */
#define SCHEDULE_MIN_MS		(5 * 60 * 1000LL)
/* ... and no later than this (two years). */
#define SCHEDULE_MAX_MS		(2 * 366 * 86400000LL)

/*
 * The path's campaign into *sc and the body's "input" object into *input
 * (NULL: none): 0, 1013 "Campaign not found" or 1001 for an input that
 * is not an object.
 */
static int
path_campaign(struct call *c, struct resp *r, struct repo_sc *sc,
    struct json_object **input)
{
	struct json_object *body;
	int64_t id = c->req->path_ints[0];
	int e = -REPO_ERR_NOT_FOUND;

	*input = NULL;
	if (id >= 1 && id <= INT32_MAX)
		e = repo_sc_get(c->app->db, &c->app->arena, (int32_t)id, sc);
	if (e == -REPO_ERR_NOT_FOUND)
		return api_common_fail(c, r, -API_ERR_OBJECT_NOT_FOUND,
		    "Campaign not found");
	if (e != 0)
		return err_from_repo(e);
	body = api_common_body_object(c);
	return body != NULL ? api_common_member_obj(c, r, body, "input",
	    input) : 0;
}

/* The catalogues filters and conditions are compiled with, into *cats. */
static int
load_cats(struct call *c, struct audience_cats *cats)
{
	const struct lead_schema *schema;
	int e;

	if ((e = api_leads_catalog_get(c, false, &schema)) != 0)
		return e;
	if ((e = audience_cats_load(c->app->db, &c->app->arena, schema,
	    cats)) != 0)
		return err_from_repo(e);
	return 0;
}

/*
 * The campaign's flow and filters (compiled into *f, which the caller
 * clears): 709 when the flow has no step, a choice's condition or a
 * filter is one mauto does not evaluate.
 */
static int
audience_check(struct call *c, struct resp *r, const struct repo_sc *sc,
    const struct audience_cats *cats, int64_t now, struct sl_filter *f)
{
	struct campaign_step *steps;
	struct sl_filter cf;
	char msg[SL_MSG_BYTES];
	size_t n, i, k;
	int e;

	memset(f, 0, sizeof(*f));
	if ((e = repo_sc_flow(c->app->db, &c->app->arena, sc->id, &steps,
	    &n)) != 0)
		return err_from_repo(e);
	if (n == 0)
		return api_common_fail(c, r, -API_ERR_RULE, "Campaign %d has "
		    "no flow step", sc->id);
	for (i = 0; i < n; i++)
		for (k = 0; k < steps[i].nchoices; k++) {
			if (steps[i].choices[k].is_default)
				continue;
			e = audience_choice(cats, &steps[i].choices[k], now,
			    &cf, msg, sizeof(msg));
			sl_filter_clear(&cf);
			if (e != 0)
				return api_common_fail(c, r, -API_ERR_RULE,
				    "Campaign %d: flow step %zu (%s), choice "
				    "%zu: %s", sc->id, i + 1,
				    steps[i].type_name != NULL ?
				    steps[i].type_name : "?", k + 1, msg);
		}
	if ((e = audience_filters(c->app->db, &c->app->arena, cats, sc, now,
	    f, msg, sizeof(msg))) == 1)
		return api_common_fail(c, r, -API_ERR_RULE, "Campaign %d: %s",
		    sc->id, msg);
	return e != 0 ? err_from_repo(e) : 0;
}

/*
 * input.tokens (absent: none) as the JSON text a run keeps into *out
 * (NULL when none): at most 100 {name, value}, names "{{my.<name>}}".
 */
static int
read_tokens(struct call *c, struct resp *r, struct json_object *input,
    const char **out)
{
	struct json_object *arr, *t, *nv, *vv, *keep;
	const char *name;
	size_t i, n, len;

	*out = NULL;
	if (input == NULL || !json_object_object_get_ex(input, "tokens",
	    &arr) || arr == NULL)
		return 0;
	if (!json_object_is_type(arr, json_type_array))
		return api_common_fail(c, r, -API_ERR_INVALID_REQUEST,
		    "input.tokens must be an array of {name, value}");
	if ((n = json_object_array_length(arr)) > RUN_MAX_TOKENS)
		return api_common_fail(c, r, -API_ERR_INVALID_REQUEST,
		    "input.tokens holds %zu tokens: at most %d per call", n,
		    RUN_MAX_TOKENS);
	keep = json_object_new_array();
	for (i = 0; i < n; i++) {
		t = json_object_array_get_idx(arr, i);
		if (!json_object_is_type(t, json_type_object) ||
		    !json_object_object_get_ex(t, "name", &nv) ||
		    !json_object_is_type(nv, json_type_string) ||
		    !json_object_object_get_ex(t, "value", &vv) ||
		    !json_object_is_type(vv, json_type_string)) {
			json_object_put(keep);
			return api_common_fail(c, r, -API_ERR_INVALID_REQUEST,
			    "input.tokens[%zu] must have a string name and a "
			    "string value", i);
		}
		name = json_object_get_string(nv);
		len = strlen(name);
		if (len < 8 || len > 255 || strncasecmp(name, "{{my.", 5) != 0 ||
		    strcmp(name + len - 2, "}}") != 0 ||
		    strpbrk(name + 5, "{") != NULL) {
			json_object_put(keep);
			return api_common_fail(c, r, -API_ERR_INVALID_REQUEST,
			    "Invalid token name '%s': a token is named "
			    "{{my.<name>}}", api_common_echo(c, name));
		}
		json_object_array_add(keep, json_object_get(t));
	}
	*out = n > 0 ? arena_strdup(&c->app->arena,
	    json_object_to_json_string_ext(keep, JSON_C_TO_STRING_PLAIN)) :
	    NULL;
	json_object_put(keep);
	return 0;
}

/* The most Schedule Campaign calls with cloneToProgramName a day. */
#define CLONES_A_DAY		20

/*
 * cloneToProgramName: Clone Program of sc's program as name, in the same
 * folder; *sc becomes the copy of the campaign, s the clone's marks.
 * 0, or the api_err answered (709, 1020, 610-style errors of the clone).
 */
static int
clone_program(struct call *c, struct resp *r, struct repo_sc *sc,
    const char *name, struct engine_start *s)
{
	struct repo_program_asset from;
	struct repo_program_create p;
	struct repo_program_clone_fail f;
	const char *copy;
	int64_t n = 0;
	int32_t day = limiter_day_key(time_now_ms() / 1000);
	int e;

	if (sc->place.type != FOLDER_T_PROGRAM)
		return api_common_fail(c, r, -API_ERR_RULE, "Campaign %d is not "
		    "in a program: cloneToProgramName clones the campaign's "
		    "program", sc->id);
	if (name[0] == '\0' || strlen(name) > 255)
		return api_common_fail(c, r, -API_ERR_INVALID_VALUE, "Invalid "
		    "value for 'cloneToProgramName': 1 to 255 characters");
	if ((e = repo_engine_clones_on(c->app->db, day, &n)) != 0)
		return err_from_repo(e);
	if (n >= CLONES_A_DAY)
		return api_common_fail(c, r, -API_ERR_CLONE_LIMIT, "Too many "
		    "clones to program: %d a day", CLONES_A_DAY);
	if ((e = repo_program_assets_get(c->app->db, &c->app->arena,
	    (int32_t)sc->place.id, NULL, &from)) != 0)
		return err_from_repo(e);
	memset(&p, 0, sizeof(p));
	p.name = name;
	p.description = from.description;
	p.workspace = from.workspace;
	p.folder_id = from.folder_id;
	e = repo_program_clone(c->app->db, &c->app->arena, from.id, from.name,
	    &p, &f);
	if (e == -REPO_ERR_CONFLICT)
		return api_common_fail(c, r, -API_ERR_RULE, "%s name '%s' is "
		    "already in use", f.kind != NULL ? f.kind : "Program",
		    api_common_echo(c, f.kind != NULL ? f.name : name));
	if (e == -REPO_ERR_INVALID)
		return api_common_fail(c, r, -API_ERR_RULE, "The program cannot "
		    "be cloned as '%s': a copy's name would be too long",
		    api_common_echo(c, name));
	if (e != 0)
		return err_from_repo(e);
	if ((copy = progmeta_copy_name(&c->app->arena, sc->name, from.name,
	    name)) == NULL)
		return -API_ERR_SYSTEM;
	s->cloned_from = sc->id;
	s->clone_day = day;
	if ((e = repo_sc_get_by_name(c->app->db, &c->app->arena, copy,
	    sc)) != 0)
		return err_from_repo(e);
	return 0;
}

/* pass[i]: whether ids[i] passes the filters f (n leads). */
static int
filter_pass(struct call *c, const struct sl_filter *f, const int64_t *ids,
    size_t n, bool *pass)
{
	size_t i;
	int e;

	for (i = 0; i < n; i++)
		if ((e = repo_sl_filter_match(c->app->db, f, ids[i],
		    &pass[i])) != 0)
			return err_from_repo(e);
	return 0;
}

/* The reply's result: {"id": <campaign id>}. */
static struct json_object *
id_object(int32_t id)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "id", json_object_new_int(id));
	return o;
}

/* The engine's clock now (real time plus its offset). */
static int
engine_now(struct call *c, int64_t *real, int64_t *now)
{
	int64_t off = 0;
	int e;

	*real = time_now_ms();
	if ((e = repo_engine_clock(c->app->db, &off)) != 0)
		return err_from_repo(e);
	*now = *real + off;
	return 0;
}

/*
 * POST /rest/v1/campaigns/{campaignId}/trigger.json with
 * {"input": {"leads": [{"id": N}...], "tokens": [{name, value}...]}}.
 */
int
api_campaigns_request(struct call *c, struct resp *r)
{
	struct json_object *input, *leads, *o, *v;
	struct engine_start s;
	struct audience_cats cats;
	struct sl_filter f;
	struct activity *acts;
	struct lead_value *keys;
	struct repo_sc sc;
	const char *tokens, *attrs = "{\"Source\":\"Web Service API\"}";
	int64_t *ids, real, now, run;
	bool *found;
	size_t n, i, k;
	int e;

	if ((e = path_campaign(c, r, &sc, &input)) != 0)
		return e;
	if (input == NULL || !json_object_object_get_ex(input, "leads",
	    &leads) || leads == NULL ||
	    (json_object_is_type(leads, json_type_array) &&
	    json_object_array_length(leads) == 0))
		return api_common_fail(c, r, -API_ERR_BLANK,
		    "input.leads cannot be blank");
	if (!json_object_is_type(leads, json_type_array))
		return api_common_fail(c, r, -API_ERR_INVALID_REQUEST,
		    "input.leads must be an array of {id}");
	if ((n = json_object_array_length(leads)) > RUN_MAX_LEADS)
		return api_common_fail(c, r, -API_ERR_INVALID_REQUEST,
		    "input.leads holds %zu leads: at most %d per call", n,
		    RUN_MAX_LEADS);
	if ((e = read_tokens(c, r, input, &tokens)) != 0)
		return e;
	ids = arena_zalloc(&c->app->arena, n * sizeof(*ids));
	keys = arena_zalloc(&c->app->arena, n * sizeof(*keys));
	found = arena_zalloc(&c->app->arena, n * sizeof(*found));
	acts = arena_zalloc(&c->app->arena, n * sizeof(*acts));
	if (ids == NULL || keys == NULL || found == NULL || acts == NULL)
		return -API_ERR_SYSTEM;
	for (i = 0; i < n; i++) {
		o = json_object_array_get_idx(leads, i);
		if (!json_object_is_type(o, json_type_object) ||
		    !json_object_object_get_ex(o, "id", &v) ||
		    !json_object_is_type(v, json_type_int) ||
		    (ids[i] = json_object_get_int64(v)) < 1 ||
		    ids[i] > INT32_MAX)
			return api_common_fail(c, r, -API_ERR_INVALID_REQUEST,
			    "input.leads[%zu] must be {\"id\": <lead id>}", i);
		keys[i].kind = LV_INT;
		keys[i].i = ids[i];
	}
	if (sc.ntriggers == 0)
		return api_common_fail(c, r, -API_ERR_INVALID_REQUEST,
		    "Campaign %d is a batch campaign: Request Campaign runs "
		    "trigger campaigns", sc.id);
	if (!sc.active)
		return api_common_fail(c, r, -API_ERR_INVALID_REQUEST,
		    "Campaign %d is not active", sc.id);
	if (!sc.requested_by_api)
		return api_common_fail(c, r, -API_ERR_INVALID_REQUEST,
		    "Campaign %d has no 'Campaign is Requested' trigger with "
		    "source Web Service API", sc.id);
	if ((e = repo_leads_exist(c->app->db, keys, n, false, found)) != 0)
		return err_from_repo(e);
	for (i = 0; i < n; i++)
		if (!found[i])
			return api_common_fail(c, r, -API_ERR_LEAD_NOT_FOUND,
			    "Lead [%lld] not found", (long long)ids[i]);
	if ((e = engine_now(c, &real, &now)) != 0 ||
	    (e = load_cats(c, &cats)) != 0 ||
	    (e = audience_check(c, r, &sc, &cats, now, &f)) != 0 ||
	    (e = filter_pass(c, &f, ids, n, found)) != 0) {
		sl_filter_clear(&f);
		return e;
	}
	sl_filter_clear(&f);
	/* One Request Campaign activity per lead, a lead given twice once. */
	for (i = k = 0; i < n; i++) {
		size_t j;

		for (j = 0; j < i && ids[j] != ids[i]; j++)
			continue;
		if (j < i)
			continue;
		acts[k].lead_id = ids[i];
		acts[k].type = ACT_REQUEST_CAMPAIGN;
		acts[k].primary_id = sc.id;
		acts[k].primary_value = sc.name;
		acts[k].attributes = attrs;
		k++;
	}
	memset(&s, 0, sizeof(s));
	s.campaign_id = sc.id;
	s.kind = RUN_REQUEST;
	s.tokens = tokens;
	s.now_ms = now;
	s.qual = repo_engine_qual(&sc);
	s.pass = found;
	if ((e = repo_engine_request(c->app->db, &s, acts, k, ids, n,
	    &run)) != 0)
		return err_from_repo(e);
	metrics_run_started(c->app->metrics, METRICS_RUN_REQUEST, 1);
	resp_add(r, id_object(sc.id));
	return 0;
}

/*
 * POST /rest/v1/campaigns/{campaignId}/schedule.json with an optional
 * {"input": {"runAt": ..., "tokens": [...], "cloneToProgramName": ...}}.
 */
int
api_campaigns_schedule(struct call *c, struct resp *r)
{
	struct json_object *input;
	struct engine_start s;
	struct audience_cats cats;
	struct sl_filter f;
	struct repo_sc sc;
	const char *tokens, *run_at = NULL, *clone = NULL;
	int64_t real, now, at, t;
	int64_t run;
	bool has_time;
	int64_t day;
	int e;

	if ((e = path_campaign(c, r, &sc, &input)) != 0)
		return e;
	if (input != NULL && ((e = api_common_member_str(c, r, input,
	    "runAt", 64, &run_at)) != 0 || (e = api_common_member_str(c, r,
	    input, "cloneToProgramName", 1024, &clone)) != 0 ||
	    (clone == NULL && (e = api_common_member_str(c, r, input,
	    "cloneToProgram", 1024, &clone)) != 0)))
		return e;
	if ((e = read_tokens(c, r, input, &tokens)) != 0)
		return e;
	if (sc.ntriggers > 0)
		return api_common_fail(c, r, -API_ERR_INVALID_REQUEST,
		    "Campaign %d is a trigger campaign: Schedule Campaign runs "
		    "batch campaigns", sc.id);
	if (sc.nfilters == 0)
		return api_common_fail(c, r, -API_ERR_RULE, "Campaign %d has "
		    "no smart list filter to select its people", sc.id);
	if ((e = engine_now(c, &real, &now)) != 0 ||
	    (e = load_cats(c, &cats)) != 0)
		return e;
	e = audience_check(c, r, &sc, &cats, now, &f);
	sl_filter_clear(&f);
	if (e != 0)
		return e;
	at = real + SCHEDULE_MIN_MS;
	if (run_at != NULL) {
		if (!time_parse_iso(run_at, strlen(run_at), &t, &has_time,
		    &day) || t * 1000 > real + SCHEDULE_MAX_MS)
			return api_common_fail(c, r, -API_ERR_RUN_AT,
			    "Invalid runAt date");
		if (t * 1000 > at)
			at = t * 1000;
	}
	/* Last of the checks: a clone is made only for a run that starts. */
	memset(&s, 0, sizeof(s));
	if (clone != NULL && (e = clone_program(c, r, &sc, clone, &s)) != 0)
		return e;
	s.campaign_id = sc.id;
	s.kind = RUN_BATCH;
	s.tokens = tokens;
	s.now_ms = now;
	/* On the engine's clock, as every due time. */
	s.run_at_ms = at + (now - real);
	if ((e = repo_engine_schedule(c->app->db, &s, &run)) != 0)
		return err_from_repo(e);
	resp_add(r, id_object(sc.id));
	return 0;
}
