/*
 * Emails v1's modules (docs/assets.md "Emails"): Add, Delete, Duplicate,
 * Rename and Rearrange Email Module, changes of the module instances of
 * the content document (model/email.h) of the email's draft.
 *
 * Choices where the real service is silent or contradicts itself:
 *   - modules are instances of the template's modules in its container,
 *     each with an id (the moduleId of the module operations), at first
 *     the template's modules added by default under their own ids; Get
 *     Email Content lists them after the sections as {htmlId, "Module",
 *     index, parentHtmlId (the container), isLocked false}; sections
 *     inside a module hold one content for every instance of it;
 *   - Add Email Module: the path's moduleId names the template's module
 *     (its id or mktoName; 702 when none), `index` (0 or more, required)
 *     where it goes, past the end appends, `name` (optional) the new
 *     instance's id, else the module's id or, when taken, <id>-N with
 *     the least free N from 2; Duplicate puts the copy, named `name` or
 *     <original>-N the same way, right after the original;
 *     Rename gives the instance the id `name` and keeps its module-scoped
 *     variable values; an id in use or not of letters, digits, '-' and
 *     '_' is 709; a module the email does not have is 702 "Module '<id>'
 *     not found"; Rearrange's positions must place every instance once
 *     at indexes 0 to n-1 (709 "Rearrange must place every module
 *     exactly once: ..."), positions that are not a JSON array 1001;
 *     positions may be the body itself (the swagger's body parameter);
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
#include "api/api_emails_ctx.h"
#include "bounds.h"
#include "call.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "http/validate.h"
#include "model/asset.h"
#include "model/email.h"
#include "model/template.h"
#include "repo/repo_emails.h"
#include "util/arena.h"

/* ---- Modules ------------------------------------------------------------ */

/* A refusal of a module change: code (0: 709), message before a after. */
static int
mod_refuse(struct email_edit *ed, int code, char *msg, const char *before,
    const char *a, const char *after)
{
	ed->code = code;
	(void)snprintf(msg, REPO_EMAIL_MSG_BYTES, "%s%s%s", before, a, after);
	return -1;
}

/* The instance the path names, or the 702 refusal (-1). */
static long
mod_find(struct email_edit *ed, struct json_object *mods, char *msg)
{
	long i = email_modules_find(mods, ed->mod_id);

	if (i < 0)
		return mod_refuse(ed, -API_ERR_NO_DATA, msg, "Module '",
		    ed->mod_id, "' not found");
	return i;
}

/* Whether id may name a new instance: a valid id not in use. */
static int
mod_new_id(struct email_edit *ed, struct json_object *mods, const char *id,
    char *msg)
{
	if (!tpl_is_valid_id(id))
		return mod_refuse(ed, 0, msg, "Invalid module id '", id, "'");
	if (email_modules_find(mods, id) >= 0)
		return mod_refuse(ed, 0, msg, "Module '", id,
		    "' already exists");
	return 0;
}

static int
mod_add(struct email_edit *ed, struct json_object *doc,
    struct json_object **mods, char *msg)
{
	char made[MOD_ID_BYTES];
	const char *id;

	(void)doc;
	id = email_modules_new_id(*mods, ed->mod_name, ed->mod_template, made,
	    sizeof(made));
	if (id == NULL)
		return mod_refuse(ed, 0, msg, "No free module id for '",
		    ed->mod_template, "'");
	if (mod_new_id(ed, *mods, id, msg) != 0)
		return -1;
	*mods = email_modules_insert(*mods, (size_t)ed->mod_index,
	    email_module_new(id, ed->mod_template));
	return 0;
}

static int
mod_delete(struct email_edit *ed, struct json_object *doc,
    struct json_object **mods, char *msg)
{
	long i = mod_find(ed, *mods, msg);

	(void)doc;
	if (i < 0)
		return -1;
	return json_object_array_del_idx(*mods, (size_t)i, 1) == 0 ? 0 : -1;
}

static int
mod_duplicate(struct email_edit *ed, struct json_object *doc,
    struct json_object **mods, char *msg)
{
	char made[MOD_ID_BYTES];
	const char *id, *module;
	long i = mod_find(ed, *mods, msg);

	(void)doc;
	if (i < 0)
		return -1;
	id = email_modules_new_id(*mods, ed->mod_name, ed->mod_id, made,
	    sizeof(made));
	if (id == NULL)
		return mod_refuse(ed, 0, msg, "No free module id for '",
		    ed->mod_id, "'");
	if (mod_new_id(ed, *mods, id, msg) != 0)
		return -1;
	if ((module = email_module_of(*mods, (size_t)i)) == NULL)
		return -1;
	*mods = email_modules_insert(*mods, (size_t)i + 1,
	    email_module_new(id, module));
	return 0;
}

static int
mod_rename(struct email_edit *ed, struct json_object *doc,
    struct json_object **mods, char *msg)
{
	long i = mod_find(ed, *mods, msg);

	if (i < 0 || mod_new_id(ed, *mods, ed->mod_name, msg) != 0)
		return -1;
	email_module_set_id(*mods, (size_t)i, ed->mod_name);
	email_doc_move_module_values(doc, ed->mod_id, ed->mod_name);
	return 0;
}

static int
mod_rearrange(struct email_edit *ed, struct json_object *doc,
    struct json_object **mods, char *msg)
{
	static const char every[] = "Rearrange must place every module "
	    "exactly once: ";
	struct json_object *out, *p, *iv, *mv;
	size_t n = json_object_array_length(*mods), k;
	struct json_object **slot;
	long i;
	int64_t at;

	(void)doc;
	if (json_object_array_length(ed->positions) != n)
		return mod_refuse(ed, 0, msg, every, "the email has a different "
		    "number of modules", "");
	slot = calloc(n + 1, sizeof(*slot));
	if (slot == NULL)
		return -1;
	for (k = 0; k < n; k++) {
		p = json_object_array_get_idx(ed->positions, k);
		if (!json_object_object_get_ex(p, "index", &iv) ||
		    !json_object_object_get_ex(p, "moduleId", &mv) ||
		    (i = email_modules_find(*mods,
		    json_object_get_string(mv))) < 0) {
			free(slot);
			return mod_refuse(ed, 0, msg, every, "a position names "
			    "no module of the email", "");
		}
		at = json_object_get_int64(iv);
		if (at < 0 || (size_t)at >= n || slot[at] != NULL) {
			free(slot);
			return mod_refuse(ed, 0, msg, every, "an index is out of "
			    "range or repeated", "");
		}
		slot[at] = json_object_array_get_idx(*mods, (size_t)i);
	}
	out = json_object_new_array();
	for (k = 0; k < n; k++)
		json_object_array_add(out, json_object_get(slot[k]));
	free(slot);
	for (k = 0; k < n; k++)
		for (i = (long)k + 1; (size_t)i < n; i++)
			if (json_object_array_get_idx(out, k) ==
			    json_object_array_get_idx(out, (size_t)i)) {
				json_object_put(out);
				return mod_refuse(ed, 0, msg, every, "a module "
				    "is named twice", "");
			}
	json_object_put(*mods);
	*mods = out;
	return 0;
}

/*
 * Runs a module change fn on email id's draft, with the email's outline
 * (an email without a template has no modules: 709).
 */
static int
module_change(struct call *c, struct resp *r, struct email_edit *ed,
    int (*fn)(struct email_edit *, struct json_object *,
    struct json_object **, char *))
{
	struct email_ctx x;
	int32_t id = api_emails_ctx_id(c);
	int e;

	if ((e = api_emails_ctx_load(c, r, id, ASSET_ST_ANY, false, &x)) != 0) {
		api_emails_ctx_clear(&x);
		return e;
	}
	if (!x.has_tpl || x.o.container_id == NULL) {
		api_emails_ctx_clear(&x);
		return api_common_fail(c, r, -API_ERR_RULE, "The email has no "
		    "module container");
	}
	ed->open_tracking_disabled = -1;
	ed->mod_id = c->req->path_params[1];
	ed->o = &x.o;
	ed->modules = fn;
	e = api_emails_ctx_edit(c, r, id, ed, true);
	api_emails_ctx_clear(&x);
	return e;
}

/* The template module named name (its mktoName or its id), or -1. */
static long
template_module(const struct tpl_outline *o, const char *name)
{
	size_t k;

	for (k = 0; k < o->nmodules; k++)
		if (strcmp(o->modules[k].name, name) == 0 ||
		    strcmp(o->modules[k].id, name) == 0)
			return (long)k;
	return -1;
}

/*
 * POST /rest/asset/v1/email/{id}/content/{moduleId}/add.json: index,
 * name.  moduleId names the template's module (its id or mktoName);
 * name, when given, is the new instance's id (else
 * email_modules_new_id makes one).
 */
int
api_emails_module_add(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "index", .type = VP_INT, .flags = VPF_REQUIRED,
		  .min = 0, .max = INT32_MAX },
		{ .name = "name", .type = VP_STR, .max = MOD_ID_BYTES - 1 },
	};
	struct vvalue pv[2];
	struct email_ctx x;
	struct email_edit ed;
	const char *want = c->req->path_params[1];
	long k;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	if ((e = api_emails_ctx_load(c, r, api_emails_ctx_id(c), ASSET_ST_ANY,
	    false, &x)) != 0) {
		api_emails_ctx_clear(&x);
		return e;
	}
	k = x.has_tpl ? template_module(&x.o, want) : -1;
	memset(&ed, 0, sizeof(ed));
	if (k >= 0)
		ed.mod_template = arena_strdup(&c->app->arena,
		    x.o.modules[k].id);
	api_emails_ctx_clear(&x);
	if (k < 0)
		return api_common_fail(c, r, -API_ERR_NO_DATA, "Module '%s' not "
		    "found in the template", api_common_echo(c, want));
	if (ed.mod_template == NULL)
		return -API_ERR_SYSTEM;
	ed.mod_index = pv[0].i;
	ed.mod_name = pv[1].present ? pv[1].s : NULL;
	return module_change(c, r, &ed, mod_add);
}

/* POST /rest/asset/v1/email/{id}/content/{moduleId}/delete.json */
int
api_emails_module_delete(struct call *c, struct resp *r)
{
	struct email_edit ed;

	memset(&ed, 0, sizeof(ed));
	return module_change(c, r, &ed, mod_delete);
}

/*
 * The name parameter of duplicate and rename (the new module id),
 * required unless optional.
 */
static int
module_named(struct call *c, struct resp *r, bool optional,
    int (*fn)(struct email_edit *, struct json_object *,
    struct json_object **, char *))
{
	static const struct vparam required[] = {
		{ .name = "name", .type = VP_STR, .flags = VPF_REQUIRED,
		  .max = MOD_ID_BYTES - 1 },
	};
	static const struct vparam maybe[] = {
		{ .name = "name", .type = VP_STR, .max = MOD_ID_BYTES - 1 },
	};
	struct vvalue pv[1];
	struct email_edit ed;
	int e;

	if ((e = validate(c->req, r, optional ? maybe : required, 1,
	    pv)) != 0)
		return e;
	memset(&ed, 0, sizeof(ed));
	ed.mod_name = pv[0].present ? pv[0].s : NULL;
	return module_change(c, r, &ed, fn);
}

/*
 * POST .../content/{moduleId}/duplicate.json[?name=]: without name the
 * copy gets an id made from the original's (email_modules_new_id).
 */
int
api_emails_module_duplicate(struct call *c, struct resp *r)
{
	return module_named(c, r, true, mod_duplicate);
}

/* POST .../content/{moduleId}/rename.json?name= */
int
api_emails_module_rename(struct call *c, struct resp *r)
{
	return module_named(c, r, false, mod_rename);
}

/*
 * POST /rest/asset/v1/email/{id}/content/rearrange.json:
 * positions=[{"index":0,"moduleId":"..."},...], every module once; the
 * array may also be the whole body (the swagger's body parameter).
 */
int
api_emails_module_rearrange(struct call *c, struct resp *r)
{
	static const struct vparam params[] = {
		{ .name = "positions", .type = VP_RAW,
		  .flags = VPF_REQUIRED | VPF_BODY, .max = 65536 },
	};
	struct vvalue pv[1];
	struct email_edit ed;
	int e;

	if ((e = VALIDATE(c->req, r, params, pv)) != 0)
		return e;
	memset(&ed, 0, sizeof(ed));
	ed.positions = json_tokener_parse(pv[0].s);
	if (ed.positions == NULL ||
	    !json_object_is_type(ed.positions, json_type_array)) {
		json_object_put(ed.positions);
		return api_common_fail(c, r, -API_ERR_INVALID_VALUE, "Invalid "
		    "value '%s'. Required of type 'List'",
		    api_common_echo(c, pv[0].s));
	}
	e = module_change(c, r, &ed, mod_rearrange);
	json_object_put(ed.positions);
	return e;
}

