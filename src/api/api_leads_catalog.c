/*
 * The lead field catalogue of a worker, and the `fields` parameter
 * (api_leads_catalog.h).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "api/api.h"
#include "api/api_common.h"
#include "api/api_leads_catalog.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_lead_fields.h"
#include "util/arena.h"
#include "util/timeutil.h"
#include "util/xmalloc.h"

/*
 * A worker's cache: the catalogue as last loaded, and the one it replaced,
 * kept until the next reload so that field pointers taken earlier in a
 * request stay valid.
 */
struct leads_catalog {
	struct lead_schema	 current;
	struct lead_schema	 retired;
	int64_t			 checked_ms;
	uint64_t		 loaded_at;	/* app->served + 1 */
};

/*
 * Reloads the catalogue when its version moved (or none is loaded).  At
 * most one reload per request: the catalogue it replaces is retired, not
 * freed, so field pointers a handler already holds stay valid until a
 * later request reloads again.
 */
static int
refresh(struct app *app, struct leads_catalog *lc)
{
	struct lead_schema fresh;
	int64_t version;
	int r;

	if (lc->current.fields != NULL && lc->loaded_at == app->served + 1)
		return 0;

	if (lc->current.fields != NULL) {
		if ((r = repo_lead_fields_version(app->db, &version)) != 0)
			return err_from_repo(r);
		if (version == lc->current.version) {
			lc->checked_ms = time_mono_ms();
			return 0;
		}
	}
	if ((r = repo_lead_fields_load(app->db, &fresh)) != 0)
		return err_from_repo(r);
	lead_schema_clear(&lc->retired);
	lc->retired = lc->current;
	lc->current = fresh;
	lc->loaded_at = app->served + 1;
	lc->checked_ms = time_mono_ms();
	return 0;
}

/* See api_leads_catalog.h. */
int
api_leads_catalog_get(struct call *c, bool fresh,
    const struct lead_schema **out)
{
	struct app *app = c->app;
	struct leads_catalog *lc;
	int r = 0;

	*out = NULL;
	if (app->leads_catalog == NULL)
		app->leads_catalog = xcalloc(1, sizeof(*app->leads_catalog));
	lc = app->leads_catalog;
	if (fresh || lc->current.fields == NULL ||
	    time_mono_ms() - lc->checked_ms >= LEAD_SCHEMA_CHECK_MS)
		r = refresh(app, lc);
	if (r == 0)
		*out = &lc->current;
	return r;
}

/* See api_leads_catalog.h. */
void
api_leads_catalog_free(struct leads_catalog *lc)
{
	if (lc == NULL)
		return;
	lead_schema_clear(&lc->current);
	lead_schema_clear(&lc->retired);
	free(lc);
}

/* See api_leads_catalog.h. */
int
api_leads_catalog_for(struct call *c, const char *const *names, size_t n,
    const struct lead_schema **s)
{
	size_t i;
	int r;

	if ((r = api_leads_catalog_get(c, false, s)) != 0)
		return r;
	for (i = 0; i < n; i++)
		if (names[i] != NULL && lead_schema_find(*s, names[i]) == NULL)
			return api_leads_catalog_get(c, true, s);
	return 0;
}

/* Appends f to list unless it is there already. */
static void
add_field(const struct lead_field **list, size_t *n, size_t cap,
    const struct lead_field *f)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (list[i] == f)
			return;
	if (*n < cap)
		list[(*n)++] = f;
}

/* See api_leads_catalog.h. */
int
api_leads_catalog_fields(struct call *c, struct resp *rp,
    const struct lead_schema **s,
    const char *const *defaults, const struct lead_field ***out, size_t *n)
{
	const struct lead_field **list, *f;
	const char **names = NULL;
	size_t cap, i;
	int count, r;

	*out = NULL;
	*n = 0;
	count = req_param_list(c->req, "fields", &names);
	if (count < 0)
		return count;
	if (count == 0) {
		names = (const char **)(uintptr_t)defaults;
		for (count = 0; defaults[count] != NULL; count++)
			;
	}
	cap = (size_t)count;
	if ((r = api_leads_catalog_for(c, names, cap, s)) != 0)
		return r;
	list = arena_zalloc(&c->app->arena, (cap + 1) * sizeof(*list));
	if (list == NULL)
		return -API_ERR_SYSTEM;
	for (i = 0; i < (size_t)count; i++) {
		if (names[i] == NULL || names[i][0] == '\0')
			continue;
		if ((f = lead_schema_find(*s, names[i])) == NULL) {
			api_common_err_msg(c, rp, "Field '%s' not found",
			    api_common_echo(c, names[i]));
			return -API_ERR_FIELD_NOT_FOUND;
		}
		add_field(list, n, cap, f);
	}
	*out = list;
	return 0;
}
