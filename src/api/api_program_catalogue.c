/*
 * Channels and tag types (docs/behaviour.md §22): Get Channels, Get
 * Channel by Name, Get Tag Types and Get Tag Type by Name, read from the
 * catalogue of migration 0029.
 *
 * Choices where the real service is silent:
 *   - maxReturn is 1 to 200 (default 20) and offset 0 or more, as every
 *     asset browse; past the end, or a name that is no channel's or tag
 *     type's (exact, letter case counts), is the "No assets found"
 *     warning;
 *   - applicableProgramTypes and allowableValues are texts in brackets,
 *     the values joined by ", ", as the documented replies write them;
 *     allowableValues only by name, as documented.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/api.h"
#include "api/api_asset.h"
#include "bounds.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "http/validate.h"
#include "repo/repo_program_catalogue.h"
#include "util/buf.h"

/* The channel ch as JSON text on b. */
static void
channel_text(struct buf *b, const struct repo_channel *ch)
{
	const struct repo_channel_status *s;
	size_t i;

	buf_printf(b, "{\"id\":%lld,\"name\":", (long long)ch->id);
	buf_add_jsonc_str(b, ch->name != NULL ? ch->name : "");
	buf_adds(b, ",\"applicableProgramType\":");
	buf_add_jsonc_str(b, ch->program_type != NULL ? ch->program_type : "");
	buf_adds(b, ",\"progressionStatuses\":[");
	for (i = 0; i < ch->nstatuses; i++) {
		s = &ch->statuses[i];
		buf_adds(b, i > 0 ? ",{\"name\":" : "{\"name\":");
		buf_add_jsonc_str(b, s->name != NULL ? s->name : "");
		buf_printf(b, ",\"step\":%lld,\"description\":",
		    (long long)s->step);
		if (s->description != NULL)
			buf_add_jsonc_str(b, s->description);
		else
			buf_adds(b, "null");
		buf_printf(b, ",\"hidden\":%s,\"success\":%s}",
		    s->hidden ? "true" : "false",
		    s->success ? "true" : "false");
	}
	buf_adds(b, "],\"createdAt\":");
	api_asset_time_write(b, ch->created_at);
	buf_adds(b, ",\"updatedAt\":");
	api_asset_time_write(b, ch->updated_at);
	buf_addc(b, '}');
}

/* The tag type t as JSON text on b, its values when by_name. */
static void
tag_type_text(struct buf *b, const struct repo_tag_type *t, bool by_name)
{
	struct buf v;
	size_t i;

	buf_adds(b, "{\"tagType\":");
	buf_add_jsonc_str(b, t->name != NULL ? t->name : "");
	buf_adds(b, ",\"applicableProgramTypes\":");
	buf_add_jsonc_str(b, t->program_types != NULL ? t->program_types :
	    "[]");
	buf_printf(b, ",\"required\":%s", t->required ? "true" : "false");
	if (by_name) {
		buf_init(&v, MAX_PARAM_VALUE_BYTES * 4);
		buf_addc(&v, '[');
		for (i = 0; i < t->nvalues; i++) {
			if (i > 0)
				buf_adds(&v, ", ");
			buf_adds(&v, t->values[i]);
		}
		buf_addc(&v, ']');
		buf_adds(b, ",\"allowableValues\":");
		buf_add_jsonc_str(b, buf_ok(&v) && v.data != NULL ? v.data :
		    "[]");
		buf_clear(&v);
	}
	buf_addc(b, '}');
}

static const struct vparam page_params[] = {
	API_ASSET_P_MAX_RETURN,
	API_ASSET_P_OFFSET,
};
static const struct vparam name_params[] = {
	{ .name = "name", .type = VP_STR, .flags = VPF_REQUIRED,
	  .max = ASSET_NAME_CHARS * 4 },
};

/*
 * The channels of one page, or the one named: after answering the
 * warning when there are none, 0; else a negative api_err.
 */
static int
channels(struct call *c, struct resp *r, const char *name, int limit,
    int64_t offset)
{
	struct repo_channel *v;
	size_t n, i;
	int e;

	if ((e = repo_program_catalogue_channels(c->app->db, &c->app->arena,
	    name, limit, offset, &v, &n)) != 0)
		return err_from_repo(e);
	if (n == 0)
		return api_asset_none(r);
	for (i = 0; i < n; i++)
		channel_text(resp_add_text(r), &v[i]);
	return 0;
}

/* As channels, for tag types. */
static int
tag_types(struct call *c, struct resp *r, const char *name, int limit,
    int64_t offset)
{
	struct repo_tag_type *v;
	size_t n, i;
	int e;

	if ((e = repo_program_catalogue_tag_types(c->app->db, &c->app->arena,
	    name, limit, offset, &v, &n)) != 0)
		return err_from_repo(e);
	if (n == 0)
		return api_asset_none(r);
	for (i = 0; i < n; i++)
		tag_type_text(resp_add_text(r), &v[i], name != NULL);
	return 0;
}

/* GET /rest/asset/v1/channels.json?maxReturn=&offset= */
int
api_program_catalogue_channels(struct call *c, struct resp *r)
{
	struct vvalue pv[2];
	int e;

	if ((e = VALIDATE(c->req, r, page_params, pv)) != 0)
		return e;
	return channels(c, r, NULL, pv[0].present ? (int)pv[0].i :
	    ASSET_MAX_RETURN_DEFAULT, pv[1].present ? pv[1].i : 0);
}

/* GET /rest/asset/v1/channel/byName.json?name= */
int
api_program_catalogue_channel_by_name(struct call *c, struct resp *r)
{
	struct vvalue pv[1];
	int e;

	if ((e = VALIDATE(c->req, r, name_params, pv)) != 0)
		return e;
	return channels(c, r, pv[0].s, 1, 0);
}

/* GET /rest/asset/v1/tagTypes.json?maxReturn=&offset= */
int
api_program_catalogue_tag_types(struct call *c, struct resp *r)
{
	struct vvalue pv[2];
	int e;

	if ((e = VALIDATE(c->req, r, page_params, pv)) != 0)
		return e;
	return tag_types(c, r, NULL, pv[0].present ? (int)pv[0].i :
	    ASSET_MAX_RETURN_DEFAULT, pv[1].present ? pv[1].i : 0);
}

/* GET /rest/asset/v1/tagType/byName.json?name= */
int
api_program_catalogue_tag_type_by_name(struct call *c, struct resp *r)
{
	struct vvalue pv[1];
	int e;

	if ((e = VALIDATE(c->req, r, name_params, pv)) != 0)
		return e;
	return tag_types(c, r, pv[0].s, 1, 0);
}
