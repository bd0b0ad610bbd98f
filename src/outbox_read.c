/*
 * The outbox read over HTTP (outbox_read.h).  Times are UTC in the form
 * the activities use, with milliseconds: "2026-11-28T09:42:07.123Z".
 * Oldest first with sinceId, so a client that polls for what a campaign
 * sent asks only for what came after the last row it saw.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <json-c/json.h>

#include "bounds.h"
#include "call.h"
#include "err.h"
#include "http/request.h"
#include "http/response.h"
#include "outbox_read.h"
#include "repo/repo.h"
#include "repo/repo_outbox.h"
#include "util/arena.h"
#include "util/num.h"

/* Whether path is OUTBOX_READ_PREFIX, digits, ".json"; the id in *id. */
static bool
one_id(const char *path, int64_t *id)
{
	size_t plen = strlen(OUTBOX_READ_PREFIX), n;

	if (strncmp(path, OUTBOX_READ_PREFIX, plen) != 0)
		return false;
	path += plen;
	n = strspn(path, "0123456789");
	return n > 0 && strcmp(path + n, ".json") == 0 &&
	    num_parse_i64n(path, n, 1, INT64_MAX, id) == 0;
}

bool
outbox_read_is(const struct req *req)
{
	int64_t id;

	return req->wire_method == HTTP_GET &&
	    (strcmp(req->path, OUTBOX_READ_LIST) == 0 ||
	    one_id(req->path, &id));
}

/* A stored time "YYYY-MM-DD hh:mm:ss.ffffff" as JSON, or null. */
static struct json_object *
time_json(struct arena *a, const char *t)
{
	char *s;

	if (t == NULL || strlen(t) < 23)
		return NULL;
	s = arena_printf(a, "%.10sT%.12sZ", t, t + 11);
	return s != NULL ? json_object_new_string(s) : NULL;
}

/* An id as JSON, null when 0 (none). */
static struct json_object *
id_json(int64_t v)
{
	return v != 0 ? json_object_new_int64(v) : NULL;
}

/* A string as JSON, null for NULL. */
static struct json_object *
str_json(const char *s)
{
	return s != NULL ? json_object_new_string(s) : NULL;
}

/* Row w as the read answers it. */
static struct json_object *
row_json(struct arena *a, const struct repo_outbox_row *w)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "id", json_object_new_int64(w->id));
	json_object_object_add(o, "createdAt", time_json(a, w->created_at));
	json_object_object_add(o, "kind", str_json(w->kind));
	json_object_object_add(o, "campaignId", id_json(w->campaign_id));
	json_object_object_add(o, "runId", id_json(w->run_id));
	json_object_object_add(o, "leadId", id_json(w->lead_id));
	json_object_object_add(o, "stepId", id_json(w->step_id));
	json_object_object_add(o, "emailId", id_json(w->email_id));
	json_object_object_add(o, "to", str_json(w->rcpt_to));
	json_object_object_add(o, "from", str_json(w->mail_from));
	json_object_object_add(o, "subject", str_json(w->subject));
	json_object_object_add(o, "status", str_json(w->status));
	json_object_object_add(o, "smtpCode", id_json(w->smtp_code));
	json_object_object_add(o, "smtpReply", str_json(w->smtp_reply));
	json_object_object_add(o, "finishedAt", time_json(a, w->finished_at));
	if (w->message != NULL)
		json_object_object_add(o, "message",
		    json_object_new_string_len(w->message,
		    (int)w->message_len));
	return o;
}

/*
 * The whole-number parameter name of req into *v (0 when absent): 0, or
 * -1 when it is not a number from min to max.
 */
static int
int_param(const struct req *req, const char *name, int64_t min, int64_t max,
    int64_t *v)
{
	const char *s = req_param(req, name);

	*v = 0;
	if (s == NULL)
		return 0;
	return num_parse_i64(s, min, max, v) == 0 ? 0 : -1;
}

/* Makes r the JSON o (put) with status; 0, or -API_ERR_SYSTEM. */
static int
answer(struct app *app, struct resp *r, int status, struct json_object *o)
{
	size_t len;
	const char *s = json_object_to_json_string_length(o,
	    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
	char *body = len <= MAX_RESPONSE_BYTES ?
	    arena_strndup(&app->arena, s, len) : NULL;

	json_object_put(o);
	if (body == NULL)
		return -API_ERR_SYSTEM;
	resp_text(r, status, OUTBOX_READ_CTYPE, body);
	return 0;
}

/* Answers status with {"error": why}. */
static int
refuse(struct app *app, struct resp *r, int status, const char *why)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "error", json_object_new_string(why));
	return answer(app, r, status, o);
}

int
outbox_read_serve(struct app *app, const struct req *req, struct resp *r)
{
	struct repo_outbox_filter f;
	struct repo_outbox_row one, *rows = NULL;
	struct json_object *o, *list;
	int64_t id, campaign, run, lead, since, limit;
	size_t i, n = 0;
	int e;

	if (one_id(req->path, &id)) {
		e = repo_outbox_get(app->db, &app->arena, id, &one);
		if (e == -REPO_ERR_NOT_FOUND)
			return refuse(app, r, 404, "no such message");
		if (e != 0)
			return -API_ERR_SYSTEM;
		rows = &one;
		n = 1;
	} else {
		if (int_param(req, "campaignId", 1, INT32_MAX,
		    &campaign) != 0 ||
		    int_param(req, "runId", 1, INT64_MAX, &run) != 0 ||
		    int_param(req, "leadId", 1, INT32_MAX, &lead) != 0 ||
		    int_param(req, "sinceId", 0, INT64_MAX, &since) != 0 ||
		    int_param(req, "limit", 1, OUTBOX_LIST_MAX, &limit) != 0)
			return refuse(app, r, 400, arena_printf(&app->arena,
			    "campaignId, runId, leadId, sinceId and limit are "
			    "whole numbers (limit 1 to %d)", OUTBOX_LIST_MAX));
		memset(&f, 0, sizeof(f));
		f.campaign_id = (int32_t)campaign;
		f.run_id = run;
		f.lead_id = (int32_t)lead;
		f.since_id = since;
		if (repo_outbox_select(app->db, &app->arena, &f, limit > 0 ?
		    (size_t)limit : OUTBOX_READ_DEFAULT, &rows, &n) != 0)
			return -API_ERR_SYSTEM;
	}
	o = json_object_new_object();
	list = json_object_new_array();
	for (i = 0; i < n; i++)
		json_object_array_add(list, row_json(&app->arena, &rows[i]));
	json_object_object_add(o, "result", list);
	return answer(app, r, 200, o);
}
