/*
 * Programs (docs/behaviour.md §22): Get Programs, Get Program by Id, Get
 * Program by Name, Get Programs by Tag, Create Program, Update Program
 * Metadata, Clone Program, Delete Program, Update and Delete Program Tag,
 * and Approve and Unapprove Program (Email programs: their send runs on
 * the campaign engine, repo_program_send.h) under
 * /rest/asset/v1/program(s).  The programs are
 * the ones mautoctl program create makes, each standing in a folder of
 * the tree (§19).  Parameters are read from the query string or the body
 * alike.
 *
 * Choices where the real service is silent:
 *   - the stored type program is Default, engagement is Engagement,
 *     email is Email; status is "" for a Default program, "off" for an
 *     Engagement program (its streams do not run in mauto), "unlocked"
 *     or, once approved, "locked" for an Email program;
 *   - filterType is id, programId (both program ids), folderId (the
 *     folder a program stands in) or workspace, any letter case;
 *     filterValues (comma-separated or repeated) goes with it, and one
 *     without the other is 1003; an id that is not a number is 1003;
 *   - earliestUpdatedAt and latestUpdatedAt keep the programs created or
 *     last updated within the range (either end may be left out);
 *   - status on or off filters Engagement programs, locked and unlocked
 *     Email programs approved or not;
 *   - tags and costs are null when a program has none; by id and by
 *     tag always show them, by name with includeTags and includeCosts,
 *     the browse never;
 *   - headStart (false: mauto sends at the start date) appears on Email
 *     programs only, as the recorded replies show it, and so do
 *     startDate and endDate ("YYYY-MM-DDTHH:MM:SS.000Z") once set;
 *   - an id or a name that is no program's answers the "No assets found"
 *     warning, as every asset query does; a change of one is 702
 *     "<id> Program not found";
 *   - Create takes the types Default, Event, Event with Webinar,
 *     Engagement and Email, and a channel of the catalogue for that type
 *     (709 otherwise); the program gets its channel's statuses; a name in
 *     use is 709; startDate and endDate (ISO-8601, UTC) are for Email
 *     programs only (709 otherwise), endDate not before startDate, and
 *     Update changes them only while the program is not approved;
 *   - Approve Program takes an Email program that is not approved, whose
 *     startDate is later than the engine's clock, holding an approved
 *     email and a smart list with filters mauto evaluates (709 naming
 *     what is missing); it schedules the send at startDate and answers
 *     the id; Unapprove cancels a send that has not begun (709 once it
 *     has);
 *   - tags and costs are JSON or Python's list text; a tag type that
 *     does not exist, a value it does not allow, or (on create) a
 *     required tag type left out is 709; text that is no list of tags or
 *     costs is 1003; Update sets the tag types it names and adds its
 *     costs, or replaces them all with costsDestructiveUpdate;
 *   - Get Programs by Tag needs both tagType and tagValue, and answers
 *     by id (the documentation says the order is random);
 *   - Update Program Tag sets one value (709 for a tag type that does
 *     not exist or a value it does not allow); Delete Program Tag
 *     refuses a required tag type (709) and answers the id whether the
 *     program had a value or not;
 *   - Delete deletes the program with everything in it, and refuses
 *     (709, naming the asset) while one of its campaigns is active or
 *     an asset outside the program uses one of its assets or names the
 *     program;
 *   - Clone copies the program with its statuses, tags, costs and
 *     tokens and its assets (repo_program_clone.h); static lists, forms,
 *     smart lists and campaigns, whose names are unique in mauto, are named
 *     "<name> (<new program>)", a copy's name in use is 709 naming it.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "api/api.h"
#include "api/api_asset.h"
#include "api/api_common.h"
#include "api/api_leads_catalog.h"
#include "api/api_smart_lists.h"
#include "bounds.h"
#include "engine/audience.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "http/validate.h"
#include "model/folder.h"
#include "model/progmeta.h"
#include "repo/repo_engine.h"
#include "repo/repo_folders.h"
#include "repo/repo_program_assets.h"
#include "repo/repo_program_catalogue.h"
#include "repo/repo_program_clone.h"
#include "repo/repo_program_delete.h"
#include "repo/repo_program_send.h"
#include "repo/repo_smart_lists.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/timeutil.h"

/* The url code of a program. */
#define PROGRAM_URL_PREFIX	"PG"

/* The longest filterValues text joined again (200 ids or names). */
#define FILTER_VALUES_MAX_BYTES	(MAX_PARAM_VALUE_BYTES)

/* The stored type and the type and status a reply shows. */
static const struct {
	const char	*stored;
	const char	*type;
	const char	*status;
} types[] = {
	{ "program", "Default", "" },
	{ "engagement", "Engagement", "off" },
	{ "event", "Event", "" },
	{ "webinar", "Event with Webinar", "" },
	{ PROGRAM_TYPE_EMAIL, "Email", "unlocked" },
};

/* The row of types of Email programs. */
#define TYPE_EMAIL	4

/*
 * The types Create Program takes, in the order of types[], and the
 * applicableProgramType of the channels each may have.
 */
static const char *const create_type_words[] = {
	"Default", "Engagement", "Event", "Event with Webinar", "Email", NULL
};
static const char *const channel_program_types[] = {
	"program", "nurture", "event", "webinar", "email_batch"
};

/* The row of types for a stored type (the first for an unknown one). */
static size_t
type_row(const char *stored)
{
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (stored != NULL && strcmp(stored, types[i].stored) == 0)
			return i;
	return 0;
}

/* Whether p is an Email program. */
static bool
is_email(const struct repo_program_asset *p)
{
	return type_row(p->type) == TYPE_EMAIL;
}

/* UTC epoch seconds t as "YYYY-MM-DDTHH:MM:SS.000Z" on b. */
static void
date_text(struct buf *b, int64_t t)
{
	struct tm tm;
	time_t tt = (time_t)t;
	char out[32];

	if (gmtime_r(&tt, &tm) == NULL || strftime(out, sizeof(out),
	    "%Y-%m-%dT%H:%M:%S.000Z", &tm) == 0)
		out[0] = '\0';
	buf_add_jsonc_str(b, out);
}

/* Which of tags, costs a program object shows. */
#define SHOW_TAGS	0x1
#define SHOW_COSTS	0x2

/* The tags and costs a program object shows. */
struct meta {
	struct progmeta_tag	*tags;
	size_t			 ntags;
	struct progmeta_cost	*costs;
	size_t			 ncosts;
};

/* The tags of m as JSON text on b (null for none). */
static void
tags_text(struct buf *b, const struct meta *m)
{
	size_t i;

	if (m == NULL || m->ntags == 0) {
		buf_adds(b, "null");
		return;
	}
	for (i = 0; i < m->ntags; i++) {
		buf_adds(b, i > 0 ? ",{\"tagType\":" : "[{\"tagType\":");
		buf_add_jsonc_str(b, m->tags[i].type);
		buf_adds(b, ",\"tagValue\":");
		buf_add_jsonc_str(b, m->tags[i].value);
		buf_addc(b, '}');
	}
	buf_addc(b, ']');
}

/* The costs of m as JSON text on b (null for none). */
static void
costs_text(struct buf *b, const struct meta *m)
{
	size_t i;

	if (m == NULL || m->ncosts == 0) {
		buf_adds(b, "null");
		return;
	}
	for (i = 0; i < m->ncosts; i++) {
		buf_adds(b, i > 0 ? ",{\"startDate\":" : "[{\"startDate\":");
		buf_add_jsonc_str(b, m->costs[i].start_date);
		buf_printf(b, ",\"cost\":%lld", (long long)m->costs[i].cost);
		if (m->costs[i].note != NULL) {
			buf_adds(b, ",\"note\":");
			buf_add_jsonc_str(b, m->costs[i].note);
		}
		buf_addc(b, '}');
	}
	buf_addc(b, ']');
}

/* The program object p as JSON text on b, with m's tags and costs. */
static void
program_text(struct buf *b, struct call *c,
    const struct repo_program_asset *p, unsigned show, const struct meta *m)
{
	size_t t = type_row(p->type);

	buf_printf(b, "{\"id\":%lld,\"name\":", (long long)p->id);
	buf_add_jsonc_str(b, p->name != NULL ? p->name : "");
	buf_adds(b, ",\"description\":");
	buf_add_jsonc_str(b, p->description != NULL ? p->description : "");
	buf_adds(b, ",\"createdAt\":");
	api_asset_time_write(b, p->created_at);
	buf_adds(b, ",\"updatedAt\":");
	api_asset_time_write(b, p->updated_at);
	buf_adds(b, ",\"url\":");
	api_asset_url_write(b, c, PROGRAM_URL_PREFIX, p->id, "A1");
	buf_adds(b, ",\"type\":");
	buf_add_jsonc_str(b, types[t].type);
	buf_adds(b, ",\"channel\":");
	buf_add_jsonc_str(b, p->channel != NULL ? p->channel : "");
	buf_adds(b, ",\"folder\":");
	api_asset_folder_write(b, FOLDER_T_FOLDER, p->folder_id,
	    p->folder_name);
	buf_adds(b, ",\"status\":");
	buf_add_jsonc_str(b, t == TYPE_EMAIL && p->locked ? "locked" :
	    types[t].status);
	buf_adds(b, ",\"workspace\":");
	buf_add_jsonc_str(b, p->workspace != NULL ? p->workspace : "Default");
	if (t == TYPE_EMAIL && p->start_date != 0) {
		buf_adds(b, ",\"startDate\":");
		date_text(b, p->start_date);
	}
	if (t == TYPE_EMAIL && p->end_date != 0) {
		buf_adds(b, ",\"endDate\":");
		date_text(b, p->end_date);
	}
	if (show & SHOW_TAGS) {
		buf_adds(b, ",\"tags\":");
		tags_text(b, m);
	}
	if (show & SHOW_COSTS) {
		buf_adds(b, ",\"costs\":");
		costs_text(b, m);
	}
	if (t == TYPE_EMAIL)
		buf_adds(b, ",\"headStart\":false");
	buf_addc(b, '}');
}

/* What filterType names. */
enum filter_type { FT_ID, FT_PROGRAM_ID, FT_FOLDER_ID, FT_WORKSPACE };
static const char *const filter_words[] = {
	"id", "programId", "folderId", "workspace", NULL
};
/* What status names: the first two Engagement, the others Email. */
static const char *const status_words[] = {
	"on", "off", "locked", "unlocked", NULL
};

/*
 * The filterValues items of pv joined by commas into *out, in the request
 * arena; each must be a number when numeric.  0 or 1003.
 */
static int
join_values(struct call *c, struct resp *r, const struct vvalue *pv,
    bool numeric, const char **out)
{
	struct buf b;
	size_t i, k;
	const char *s;
	char *copy;

	buf_init(&b, FILTER_VALUES_MAX_BYTES);
	for (i = 0; i < pv->n; i++) {
		s = pv->items[i];
		for (k = 0; numeric && s[k] != '\0'; k++)
			if (s[k] < '0' || s[k] > '9' || k >= 10)
				break;
		if (numeric && (k == 0 || s[k] != '\0')) {
			buf_clear(&b);
			return api_common_fail(c, r, -API_ERR_INVALID_REQUEST,
			    "Invalid filterValues '%s'",
			    api_common_echo(c, s));
		}
		if (i > 0)
			buf_addc(&b, ',');
		buf_adds(&b, s);
	}
	if (!buf_ok(&b) || b.data == NULL ||
	    (copy = arena_strdup(&c->app->arena, b.data)) == NULL) {
		buf_clear(&b);
		return -API_ERR_SYSTEM;
	}
	buf_clear(&b);
	*out = copy;
	return 0;
}

/*
 * GET /rest/asset/v1/programs.json?maxReturn=&offset=&status=&filterType=
 * &filterValues=&earliestUpdatedAt=&latestUpdatedAt=
 */
int
api_programs_browse(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		API_ASSET_P_MAX_RETURN,
		API_ASSET_P_OFFSET,
		{ .name = "status", .type = VP_ENUM, .flags = VPF_NOCASE,
		  .words = status_words },
		{ .name = "filterType", .type = VP_ENUM, .flags = VPF_NOCASE,
		  .words = filter_words },
		{ .name = "filterValues", .type = VP_LIST,
		  .max = ASSET_MAX_RETURN },
		{ .name = "earliestUpdatedAt", .type = VP_DATETIME },
		{ .name = "latestUpdatedAt", .type = VP_DATETIME },
	};
	struct vvalue pv[7];
	struct repo_program_filter f;
	struct repo_program_asset *items;
	const char *joined = NULL;
	size_t n, i;
	int e, limit;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	memset(&f, 0, sizeof(f));
	if (pv[3].present != pv[4].present)
		return api_common_fail(c, r, -API_ERR_INVALID_REQUEST,
		    "filterType and filterValues go together");
	if (pv[3].present) {
		if ((e = join_values(c, r, &pv[4],
		    pv[3].i != FT_WORKSPACE, &joined)) != 0)
			return e;
		if (pv[3].i == FT_FOLDER_ID)
			f.folders = joined;
		else if (pv[3].i == FT_WORKSPACE)
			f.workspaces = joined;
		else
			f.ids = joined;
	}
	if (pv[2].present) {
		/* on: no program of mauto has it (streams do not run). */
		if (pv[2].i == 0)
			return api_asset_none(r);
		f.type = pv[2].i == 1 ? types[1].stored :
		    types[TYPE_EMAIL].stored;
		if (pv[2].i > 1)
			f.locked = pv[2].i == 2 ? "1" : "0";
	}
	if ((pv[5].present &&
	    (f.earliest = api_asset_db_time(c, pv[5].i)) == NULL) ||
	    (pv[6].present &&
	    (f.latest = api_asset_db_time(c, pv[6].i)) == NULL))
		return -API_ERR_SYSTEM;
	limit = pv[0].present ? (int)pv[0].i : ASSET_MAX_RETURN_DEFAULT;
	if ((e = repo_program_assets_list(c->app->db, &c->app->arena, &f,
	    limit, pv[1].present ? pv[1].i : 0, &items, &n)) != 0)
		return err_from_repo(e);
	if (n == 0)
		return api_asset_none(r);
	for (i = 0; i < n; i++)
		program_text(resp_add_text(r), c, &items[i], 0, NULL);
	return 0;
}

/* Adds program p to the result, its tags and costs read when shown. */
static int
show_program(struct call *c, struct resp *r,
    const struct repo_program_asset *p, unsigned show)
{
	struct meta m;
	int e;

	memset(&m, 0, sizeof(m));
	if (show != 0 && (e = repo_program_assets_meta(c->app->db,
	    &c->app->arena, p->id, &m.tags, &m.ntags, &m.costs,
	    &m.ncosts)) != 0)
		return err_from_repo(e);
	program_text(resp_add_text(r), c, p, show, &m);
	return 0;
}

/* GET /rest/asset/v1/program/{id}.json */
int
api_programs_get(struct call *c, struct resp *r)
{
	struct repo_program_asset p;
	int32_t id;
	int e;

	if ((id = api_asset_path_id(c, 0)) == 0)
		return api_asset_none(r);
	if ((e = api_asset_found(r, repo_program_assets_get(c->app->db,
	    &c->app->arena, id, NULL, &p))) <= 0)
		return e;
	return show_program(c, r, &p, SHOW_TAGS | SHOW_COSTS);
}

/*
 * GET /rest/asset/v1/program/{id}/smartList.json?includeRules=: the
 * program's smart list as Get Smart List by Id answers it: the first
 * smart list standing in the program, the one an Email program's
 * approval sends to (docs/behaviour.md §22); none, or no such program,
 * is the "No assets found" warning.
 */
int
api_programs_smart_list(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "includeRules", .type = VP_BOOL },
	};
	struct vvalue pv[1];
	struct repo_sl sl;
	int32_t id = api_asset_path_id(c, 0), slid = 0;
	bool rules;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	if (id == 0)
		return api_asset_none(r);
	rules = pv[0].present && pv[0].b;
	e = repo_sl_in_program(c->app->db, id, &slid);
	if (e == 0)
		e = repo_sl_get_reply(c->app->db, &c->app->arena, slid, rules,
		    &sl);
	if ((e = api_asset_found(r, e)) != 1)
		return e;
	return api_smart_lists_answer(c, r, &sl, rules);
}

/* GET /rest/asset/v1/program/byName.json?name=&includeTags=&includeCosts= */
int
api_programs_get_by_name(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "name", .type = VP_STR, .flags = VPF_REQUIRED,
		  .max = ASSET_NAME_CHARS * 4 },
		{ .name = "includeTags", .type = VP_BOOL },
		{ .name = "includeCosts", .type = VP_BOOL },
	};
	struct vvalue pv[3];
	struct repo_program_asset p;
	unsigned show = 0;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	if ((e = api_asset_found(r, repo_program_assets_get(c->app->db,
	    &c->app->arena, 0, pv[0].s, &p))) <= 0)
		return e;
	if (pv[1].present && pv[1].b)
		show |= SHOW_TAGS;
	if (pv[2].present && pv[2].b)
		show |= SHOW_COSTS;
	return show_program(c, r, &p, show);
}

/* Answers the program id as read now (after a change), tags and costs shown. */
static int
answer(struct call *c, struct resp *r, int32_t id)
{
	struct repo_program_asset p;
	int e;

	if ((e = api_asset_found(r, repo_program_assets_get(c->app->db,
	    &c->app->arena, id, NULL, &p))) <= 0)
		return e;
	return show_program(c, r, &p, SHOW_TAGS | SHOW_COSTS);
}

/*
 * The tags and costs parameters pv[0], pv[1] into *m (in the request
 * arena): 1003 naming what is wrong with the text; 709 for a tag type
 * that does not exist or a value it does not allow; on create (required
 * true), 709 for a required tag type left out.
 */
static int
meta_params(struct call *c, struct resp *r, const struct vvalue *pv,
    bool required, struct repo_program_meta *m)
{
	struct progmeta_tag *tags = NULL;
	struct progmeta_cost *costs = NULL;
	struct repo_tag_type *tt;
	const char **values;
	const char *why;
	int32_t *ids;
	size_t ntags = 0, i, k, n;
	int e;

	memset(m, 0, sizeof(*m));
	if (pv[0].present && progmeta_tags(&c->app->arena, pv[0].s, &tags,
	    &ntags, &why) != 0)
		return api_common_fail(c, r, -API_ERR_INVALID_REQUEST,
		    "Invalid tags: %s", why);
	if (pv[1].present && progmeta_costs(&c->app->arena, pv[1].s,
	    &costs, &m->ncosts, &why) != 0)
		return api_common_fail(c, r, -API_ERR_INVALID_REQUEST,
		    "Invalid costs: %s", why);
	m->costs = costs;
	ids = ntags > 0 ? arena_zalloc(&c->app->arena, ntags * sizeof(*ids)) :
	    NULL;
	values = ntags > 0 ? arena_zalloc(&c->app->arena,
	    ntags * sizeof(*values)) : NULL;
	if (ntags > 0 && (ids == NULL || values == NULL))
		return -API_ERR_SYSTEM;
	for (i = 0; i < ntags; i++) {
		if ((e = repo_program_catalogue_tag_types(c->app->db,
		    &c->app->arena, tags[i].type, 1, 0, &tt, &n)) != 0)
			return err_from_repo(e);
		if (n == 0)
			return api_common_fail(c, r, -API_ERR_RULE,
			    "Tag type '%s' not found",
			    api_common_echo(c, tags[i].type));
		for (k = 0; k < tt[0].nvalues; k++)
			if (strcmp(tt[0].values[k], tags[i].value) == 0)
				break;
		if (tt[0].nvalues > 0 && k == tt[0].nvalues)
			return api_common_fail(c, r, -API_ERR_RULE,
			    "Tag value '%s' is not allowed for tag type '%s'",
			    api_common_echo(c, tags[i].value),
			    api_common_echo(c, tags[i].type));
		ids[i] = tt[0].id;
		values[i] = tags[i].value;
	}
	if (required) {
		if ((e = repo_program_catalogue_tag_types(c->app->db,
		    &c->app->arena, NULL, ASSET_MAX_RETURN, 0, &tt, &n)) != 0)
			return err_from_repo(e);
		for (k = 0; k < n; k++) {
			for (i = 0; i < ntags && ids[i] != tt[k].id; i++)
				;
			if (tt[k].required && i == ntags)
				return api_common_fail(c, r, -API_ERR_RULE,
				    "Tag type '%s' is required",
				    api_common_echo(c, tt[k].name));
		}
	}
	m->tag_types = ids;
	m->tag_values = values;
	m->ntags = ntags;
	return 0;
}

/*
 * startDate pv[0] and endDate pv[1] into m (0: not given): 709 unless
 * the program is an Email program (email), or when the end would come
 * before the start, with start and end the program's own (0: none);
 * 1003 for a date not after the epoch.
 */
static int
dates_params(struct call *c, struct resp *r, const struct vvalue *pv,
    bool email, int64_t start, int64_t end, struct repo_program_meta *m)
{
	if (!pv[0].present && !pv[1].present)
		return 0;
	if (!email)
		return api_common_fail(c, r, -API_ERR_RULE, "startDate and "
		    "endDate are for Email programs only");
	/* 0 stands for "not given": the dates are after the epoch. */
	if ((pv[0].present && pv[0].i <= 0) || (pv[1].present && pv[1].i <= 0))
		return api_common_fail(c, r, -API_ERR_INVALID_REQUEST,
		    "startDate and endDate must be later than 1970-01-01");
	m->start_date = pv[0].present ? pv[0].i : 0;
	m->end_date = pv[1].present ? pv[1].i : 0;
	start = m->start_date != 0 ? m->start_date : start;
	end = m->end_date != 0 ? m->end_date : end;
	if (start != 0 && end != 0 && end < start)
		return api_common_fail(c, r, -API_ERR_RULE, "endDate is before "
		    "startDate");
	return 0;
}

/*
 * POST /rest/asset/v1/programs.json: name, folder, type, channel,
 * description, tags, costs, and for an Email program startDate and
 * endDate (query string or body).
 */
int
api_programs_create(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		API_ASSET_P_NAME,
		API_ASSET_P_FOLDER,
		{ .name = "type", .type = VP_ENUM,
		  .flags = VPF_REQUIRED | VPF_BLANK | VPF_NOCASE,
		  .words = create_type_words },
		{ .name = "channel", .type = VP_STR,
		  .flags = VPF_REQUIRED | VPF_BLANK,
		  .max = ASSET_NAME_CHARS * 4 },
		API_ASSET_P_DESCRIPTION,
		{ .name = "tags", .type = VP_RAW },
		{ .name = "costs", .type = VP_RAW },
		{ .name = "startDate", .type = VP_DATETIME },
		{ .name = "endDate", .type = VP_DATETIME },
	};
	struct vvalue pv[9];
	struct repo_place place;
	struct repo_channel *ch;
	struct repo_program_create p;
	size_t n, t;
	int e;

	memset(&p, 0, sizeof(p));
	if ((e = VALIDATE(c->req, r, params, pv)) != 0 ||
	    (e = api_asset_place_param(c, r, pv[1].s, AK_PROGRAM,
	    &place)) != 0 ||
	    (e = meta_params(c, r, &pv[5], true, &p.meta)) != 0)
		return e;
	t = (size_t)pv[2].i;
	if ((e = dates_params(c, r, &pv[7], t == TYPE_EMAIL, 0, 0,
	    &p.meta)) != 0)
		return e;
	if ((e = repo_program_catalogue_channels(c->app->db, &c->app->arena,
	    pv[3].s, 1, 0, &ch, &n)) != 0)
		return err_from_repo(e);
	if (n == 0)
		return api_common_fail(c, r, -API_ERR_RULE,
		    "Channel '%s' not found", api_common_echo(c, pv[3].s));
	if (strcmp(ch[0].program_type != NULL ? ch[0].program_type : "",
	    channel_program_types[t]) != 0)
		return api_common_fail(c, r, -API_ERR_RULE,
		    "Channel '%s' is not for %s programs",
		    api_common_echo(c, pv[3].s), types[t].type);
	p.name = pv[0].s;
	p.description = pv[4].present ? pv[4].s : NULL;
	p.type = types[t].stored;
	p.channel = pv[3].s;
	p.workspace = place.workspace;
	p.folder_id = (int32_t)place.ref.id;
	e = repo_program_assets_insert(c->app->db, &p);
	if (e == -REPO_ERR_CONFLICT)
		return api_asset_name_taken(c, r, "Program", p.name, false);
	if (e == -REPO_ERR_GONE)
		return api_asset_gone(c, r, &place.ref, AK_PROGRAM, NULL);
	if (e != 0)
		return err_from_repo(e);
	return answer(c, r, p.id);
}

/*
 * The program of the path's id into *p: 0, or 702 "<id> Program not
 * found".
 */
static int
path_program(struct call *c, struct resp *r, struct repo_program_asset *p)
{
	int32_t id = api_asset_path_id(c, 0);
	int e;

	e = id == 0 ? -REPO_ERR_NOT_FOUND : repo_program_assets_get(
	    c->app->db, &c->app->arena, id, NULL, p);
	if (e == -REPO_ERR_NOT_FOUND)
		return api_asset_not_found(c, r, "Program", id);
	return e != 0 ? err_from_repo(e) : 0;
}

/*
 * POST /rest/asset/v1/program/{id}.json: name, description, tags, costs,
 * costsDestructiveUpdate, and for an Email program not approved
 * startDate and endDate; a parameter left out or empty keeps its value.
 */
int
api_programs_update(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "name", .type = VP_STR,
		  .max = ASSET_NAME_CHARS * 4 },
		API_ASSET_P_DESCRIPTION,
		{ .name = "tags", .type = VP_RAW },
		{ .name = "costs", .type = VP_RAW },
		{ .name = "costsDestructiveUpdate", .type = VP_BOOL },
		{ .name = "startDate", .type = VP_DATETIME },
		{ .name = "endDate", .type = VP_DATETIME },
	};
	struct vvalue pv[7];
	struct repo_program_asset p;
	struct repo_program_meta m;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0 ||
	    (e = path_program(c, r, &p)) != 0 ||
	    (e = meta_params(c, r, &pv[2], false, &m)) != 0 ||
	    (e = dates_params(c, r, &pv[5], is_email(&p), p.start_date,
	    p.end_date, &m)) != 0)
		return e;
	if (p.locked && (pv[5].present || pv[6].present))
		return api_common_fail(c, r, -API_ERR_RULE, "Program %d is "
		    "approved: unapprove it to change startDate or endDate",
		    (int)p.id);
	/* costsDestructiveUpdate: the costs sent replace all (none: clear). */
	m.replace_costs = pv[4].present && pv[4].b;
	e = repo_program_assets_update(c->app->db, p.id,
	    pv[0].present ? pv[0].s : NULL, pv[1].present ? pv[1].s : NULL,
	    &m);
	if (e == -REPO_ERR_CONFLICT)
		return api_asset_name_taken(c, r, "Program", pv[0].s, false);
	if (e != 0)
		return err_from_repo(e);
	return answer(c, r, p.id);
}

/*
 * POST /rest/asset/v1/program/{id}/clone.json: name, folder, description
 * (query string or body).  The clone has the program's type, channel,
 * statuses, tags, costs and tokens, and copies of its assets
 * (repo_program_clone.h); a copy's name in use is 709 naming it.
 */
int
api_programs_clone(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		API_ASSET_P_NAME,
		API_ASSET_P_FOLDER,
		API_ASSET_P_DESCRIPTION,
	};
	struct vvalue pv[3];
	struct repo_program_asset from;
	struct repo_place place;
	struct repo_program_create p;
	struct repo_program_clone_fail f;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0 ||
	    (e = path_program(c, r, &from)) != 0 ||
	    (e = api_asset_place_param(c, r, pv[1].s, AK_PROGRAM,
	    &place)) != 0)
		return e;
	memset(&p, 0, sizeof(p));
	p.name = pv[0].s;
	p.description = pv[2].present ? pv[2].s : NULL;
	p.workspace = place.workspace;
	p.folder_id = (int32_t)place.ref.id;
	e = repo_program_clone(c->app->db, &c->app->arena, from.id,
	    from.name, &p, &f);
	if (e == -REPO_ERR_CONFLICT && f.kind != NULL)
		return api_asset_name_taken(c, r, f.kind, f.name, false);
	if (e == -REPO_ERR_CONFLICT)
		return api_asset_name_taken(c, r, "Program", p.name, false);
	if (e == -REPO_ERR_INVALID && f.kind != NULL)
		return api_common_fail(c, r, -API_ERR_RULE, "%s '%s' cannot be "
		    "copied: its copy's name would be longer than %d "
		    "characters", f.kind, api_common_echo(c, f.name),
		    PROGMETA_NAME_CHARS);
	if (e == -REPO_ERR_NOT_FOUND)
		return api_asset_not_found(c, r, "Program", from.id);
	if (e == -REPO_ERR_GONE)
		return api_asset_gone(c, r, &place.ref, AK_PROGRAM, NULL);
	if (e != 0)
		return err_from_repo(e);
	return answer(c, r, p.id);
}

/*
 * POST /rest/asset/v1/program/{id}/delete.json: the program with
 * everything in it (repo_program_delete.h); 709 naming the asset that
 * blocks when one of its campaigns is active or an asset outside the
 * program uses one of its assets or names the program.
 */
int
api_programs_delete(struct call *c, struct resp *r)
{
	static const struct {
		const char	*asset;
		const char	*why;
	} why[RPB__MAX] = {
		[RPB_NONE] = { "asset", "is in use" },
		[RPB_ACTIVE_CAMPAIGN] = { "smart campaign",
		    "is active: deactivate it first" },
		[RPB_CAMPAIGN] = { "smart campaign",
		    "is requested by a campaign outside the program" },
		[RPB_EMAIL] = { "email",
		    "is sent by a campaign outside the program" },
		[RPB_LIST] = { "static list",
		    "is used by an asset outside the program" },
		[RPB_FORM] = { "form",
		    "is used by a smart list outside the program" },
		[RPB_NAMED_BY_CAMPAIGN] = { "smart campaign",
		    "outside the program names it" },
		[RPB_NAMED_BY_LIST] = { "smart list",
		    "outside the program names it" },
	};
	struct repo_program_asset p;
	struct repo_program_block b;
	int e;

	if ((e = path_program(c, r, &p)) != 0)
		return e;
	e = repo_program_delete(c->app->db, p.id, &b);
	if (e == -REPO_ERR_CONFLICT && b.kind != RPB_NONE)
		return api_common_fail(c, r, -API_ERR_RULE, "Program %d cannot "
		    "be deleted: %s %d %s", (int)p.id, why[b.kind].asset,
		    (int)b.id, why[b.kind].why);
	if (e == -REPO_ERR_CONFLICT)
		return api_common_fail(c, r, -API_ERR_RULE, "Program %d is in "
		    "use", (int)p.id);
	if (e == -REPO_ERR_NOT_FOUND)
		return api_asset_not_found(c, r, "Program", p.id);
	if (e != 0)
		return err_from_repo(e);
	api_asset_id_result(r, p.id);
	return 0;
}

/*
 * GET /rest/asset/v1/program/byTag.json?tagType=&tagValue=&maxReturn=
 * &offset=: the programs with that value of that tag type, by id.
 */
int
api_programs_get_by_tag(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "tagType", .type = VP_STR, .flags = VPF_REQUIRED,
		  .max = PROGMETA_TEXT_BYTES },
		{ .name = "tagValue", .type = VP_STR, .flags = VPF_REQUIRED,
		  .max = PROGMETA_TEXT_BYTES },
		API_ASSET_P_MAX_RETURN,
		API_ASSET_P_OFFSET,
	};
	struct vvalue pv[4];
	struct repo_program_asset *items;
	size_t n, i;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	if ((e = repo_program_assets_by_tag(c->app->db, &c->app->arena,
	    pv[0].s, pv[1].s, pv[2].present ? (int)pv[2].i :
	    ASSET_MAX_RETURN_DEFAULT, pv[3].present ? pv[3].i : 0, &items,
	    &n)) != 0)
		return err_from_repo(e);
	if (n == 0)
		return api_asset_none(r);
	for (i = 0; i < n; i++)
		if ((e = show_program(c, r, &items[i],
		    SHOW_TAGS | SHOW_COSTS)) != 0)
			return e;
	return 0;
}

/*
 * The tag type the path names (path parameter 1) into *tt: 0, or 709
 * "Tag type '<name>' not found".
 */
static int
path_tag_type(struct call *c, struct resp *r, struct repo_tag_type **tt)
{
	const char *name = c->req->npath_params > 1 ?
	    c->req->path_params[1] : "";
	size_t n;
	int e;

	if ((e = repo_program_catalogue_tag_types(c->app->db, &c->app->arena,
	    name, 1, 0, tt, &n)) != 0)
		return err_from_repo(e);
	if (n == 0)
		return api_common_fail(c, r, -API_ERR_RULE,
		    "Tag type '%s' not found", api_common_echo(c, name));
	return 0;
}

/*
 * POST /rest/asset/v1/program/{id}/tag/{tagType}.json?tagValue=: sets
 * the program's value of that tag type; answers [{"id": N}].
 */
int
api_programs_tag_update(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "tagValue", .type = VP_STR,
		  .flags = VPF_REQUIRED | VPF_BLANK,
		  .max = PROGMETA_TEXT_BYTES },
	};
	struct vvalue pv[1];
	struct repo_program_asset p;
	struct repo_program_meta m;
	struct repo_tag_type *tt;
	const char *values[1];
	size_t k;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0 ||
	    (e = path_program(c, r, &p)) != 0 ||
	    (e = path_tag_type(c, r, &tt)) != 0)
		return e;
	for (k = 0; k < tt[0].nvalues; k++)
		if (strcmp(tt[0].values[k], pv[0].s) == 0)
			break;
	if (tt[0].nvalues > 0 && k == tt[0].nvalues)
		return api_common_fail(c, r, -API_ERR_RULE,
		    "Tag value '%s' is not allowed for tag type '%s'",
		    api_common_echo(c, pv[0].s), api_common_echo(c,
		    tt[0].name));
	memset(&m, 0, sizeof(m));
	values[0] = pv[0].s;
	m.tag_types = &tt[0].id;
	m.tag_values = values;
	m.ntags = 1;
	if ((e = repo_program_assets_update(c->app->db, p.id, NULL, NULL,
	    &m)) != 0)
		return err_from_repo(e);
	api_asset_id_result(r, p.id);
	return 0;
}

/*
 * POST /rest/asset/v1/program/{id}/tag/{tagType}/delete.json: removes
 * the program's value of a tag type that is not required; answers
 * [{"id": N}].
 */
int
api_programs_tag_delete(struct call *c, struct resp *r)
{
	struct repo_program_asset p;
	struct repo_tag_type *tt;
	int e;

	if ((e = path_program(c, r, &p)) != 0 ||
	    (e = path_tag_type(c, r, &tt)) != 0)
		return e;
	if (tt[0].required)
		return api_common_fail(c, r, -API_ERR_RULE,
		    "Tag type '%s' is required", api_common_echo(c,
		    tt[0].name));
	if ((e = repo_program_assets_tag_delete(c->app->db, p.id,
	    tt[0].id)) != 0)
		return err_from_repo(e);
	api_asset_id_result(r, p.id);
	return 0;
}

/*
 * Approve and Unapprove Program act on Email programs only: 702 for an
 * id that is no program's, 709 saying why for a program they refuse.
 */
static int
send_refused(struct call *c, struct resp *r, int32_t id,
    enum repo_send_why why, const char *op)
{
	static const char *const what[RPS__MAX] = {
		[RPS_OK] = "",
		[RPS_NOT_EMAIL] = "",
		[RPS_APPROVED] = "is approved already",
		[RPS_NO_START] = "has no startDate: set it with Update "
		    "Program",
		[RPS_START_PAST] = "has a startDate that has passed: set a "
		    "later one",
		[RPS_NO_EMAIL] = "has no approved email: approve its email "
		    "first",
		[RPS_NO_LIST] = "has no smart list to choose whom its email "
		    "goes to",
		[RPS_NAME_TAKEN] = "cannot be approved: the name of its send "
		    "campaign is in use by another smart campaign",
		[RPS_NOT_APPROVED] = "is not approved",
		[RPS_STARTED] = "cannot be unapproved: its send has begun",
	};

	if (why == RPS_NOT_EMAIL)
		return api_common_fail(c, r, -API_ERR_RULE, "Program %d is "
		    "not an Email program: %s Program is for Email programs "
		    "only", (int)id, op);
	return api_common_fail(c, r, -API_ERR_RULE, "Program %d %s", (int)id,
	    what[why]);
}

/*
 * The answer of op (Approve or Unapprove) of s, which the repository
 * returned e for: [{"id": N}], 702, 709 saying why, or e's error.
 */
static int
send_answer(struct call *c, struct resp *r, const struct repo_program_send *s,
    int e, const char *op)
{
	if (e == -REPO_ERR_NOT_FOUND)
		return api_asset_not_found(c, r, "Program", s->id);
	if (e != 0)
		return err_from_repo(e);
	if (s->why != RPS_OK)
		return send_refused(c, r, s->id, s->why, op);
	api_asset_id_result(r, s->id);
	return 0;
}

/*
 * 709 when the program's smart list (the first in it), if it has one,
 * has no filter or one mauto does not evaluate; no list is the
 * repository's to refuse under the program's lock.
 */
static int
list_check(struct call *c, struct resp *r, int32_t id, int64_t now_ms)
{
	const struct lead_schema *schema;
	char msg[SL_MSG_BYTES];
	int32_t list = 0;
	int e;

	e = repo_sl_in_program(c->app->db, id, &list);
	if (e == -REPO_ERR_NOT_FOUND || (e == 0 && list == 0))
		return 0;
	if (e != 0)
		return err_from_repo(e);
	if ((e = api_leads_catalog_get(c, false, &schema)) != 0)
		return e;
	e = audience_list_check(c->app->db, &c->app->arena, schema, list,
	    now_ms, msg, sizeof(msg));
	if (e == 1)
		return api_common_fail(c, r, -API_ERR_RULE, "Program %d: smart "
		    "list %d cannot choose whom its email goes to: %s", (int)id,
		    (int)list, msg);
	return e != 0 ? err_from_repo(e) : 0;
}

/*
 * POST /rest/asset/v1/program/{id}/approve.json: an Email program's send
 * scheduled at its startDate (repo_program_send.h); [{"id": N}].
 */
int
api_programs_approve(struct call *c, struct resp *r)
{
	struct repo_program_asset p;
	struct repo_program_send s;
	int64_t offset = 0, now;
	int e;

	if ((e = path_program(c, r, &p)) != 0)
		return e;
	if (!is_email(&p))
		return send_refused(c, r, p.id, RPS_NOT_EMAIL, "Approve");
	if ((e = repo_engine_clock(c->app->db, &offset)) != 0)
		return err_from_repo(e);
	now = time_now_ms() + offset;
	if ((e = list_check(c, r, p.id, now)) != 0)
		return e;
	memset(&s, 0, sizeof(s));
	s.id = p.id;
	s.now_ms = now;
	if ((s.campaign_name = arena_printf(&c->app->arena, "Email program "
	    "%d send", (int)p.id)) == NULL)
		return -API_ERR_SYSTEM;
	e = repo_program_send_approve(c->app->db, &c->app->arena, &s);
	return send_answer(c, r, &s, e, "Approve");
}

/*
 * POST /rest/asset/v1/program/{id}/unapprove.json: an approved Email
 * program's send cancelled while it has not begun; [{"id": N}].
 */
int
api_programs_unapprove(struct call *c, struct resp *r)
{
	struct repo_program_asset p;
	struct repo_program_send s;
	int e;

	if ((e = path_program(c, r, &p)) != 0)
		return e;
	memset(&s, 0, sizeof(s));
	s.id = p.id;
	e = repo_program_send_unapprove(c->app->db, &c->app->arena, &s);
	return send_answer(c, r, &s, e, "Unapprove");
}
