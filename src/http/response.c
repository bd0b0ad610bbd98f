/*
 * Envelopes, byte for byte as the real service writes them
 * (docs/behaviour.md §2, §16): compact JSON, fixed key order, empty
 * members omitted in the lead database family and always present in the
 * asset family.  The envelope is written by hand around json-c's
 * serialisation of the result, so key order never depends on json-c.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "bounds.h"
#include "err.h"
#include "http/response.h"
#include "util/buf.h"

#define JSON_FLAGS	(JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

void
resp_init(struct resp *r)
{
	memset(r, 0, sizeof(*r));
	r->more_result = -1;
	buf_init(&r->items, MAX_RESPONSE_BYTES);
}

void
resp_clear(struct resp *r)
{
	buf_clear(&r->items);
	json_object_put(r->result);
	json_object_put(r->warnings);
	json_object_put(r->body);
	json_object_put(r->result_object);
	json_object_put(r->page_details);
	if (r->has_file)
		(void)close(r->file_fd);
	resp_init(r);
}

/*
 * Opens the next text item of r: "[" before the first, "," before the
 * others, after reopening what resp_result_json closed.
 */
static void
items_next(struct resp *r)
{
	if (r->items_closed) {
		r->items.len--;
		r->items_closed = false;
	}
	buf_addc(&r->items, r->items.len == 0 ? '[' : ',');
}

/* Appends o to the text items, serialised as the envelope writes it. */
static void
items_add_json(struct resp *r, struct json_object *o)
{
	const char *s;
	size_t len;

	items_next(r);
	s = json_object_to_json_string_length(o, JSON_FLAGS, &len);
	buf_add(&r->items, s, len);
}

void
resp_add(struct resp *r, struct json_object *item)
{
	if (r->items.len > 0) {
		items_add_json(r, item);
		json_object_put(item);
		return;
	}
	if (r->result == NULL)
		r->result = json_object_new_array();
	json_object_array_add(r->result, item);
}

/* See response.h. */
struct buf *
resp_add_text(struct resp *r)
{
	size_t i, n;

	/* Items added as objects before come first, as text. */
	if (r->result != NULL && r->items.len == 0) {
		n = json_object_array_length(r->result);
		for (i = 0; i < n; i++)
			items_add_json(r, json_object_array_get_idx(r->result,
			    i));
		json_object_put(r->result);
		r->result = NULL;
	}
	items_next(r);
	return &r->items;
}

void
resp_warn(struct resp *r, enum envelope env, int code, const char *msg)
{
	struct json_object *w;

	if (r->warnings == NULL)
		r->warnings = json_object_new_array();
	if (env == ENV_LEADDB || env == ENV_ASSET2) {
		w = json_object_new_object();
		json_object_object_add(w, "code", json_object_new_int(code));
		json_object_object_add(w, "message",
		    json_object_new_string(msg));
	} else
		w = json_object_new_string(msg);
	json_object_array_add(r->warnings, w);
}

void
resp_header(struct resp *r, const char *line)
{
	if (r->nheaders < RESP_MAX_HEADERS)
		r->headers[r->nheaders++] = line;
}

void
resp_text(struct resp *r, int status, const char *ctype, const char *text)
{
	r->status = status;
	r->content_type = ctype;
	r->text = text;
}

void
resp_file(struct resp *r, int status, const char *ctype, int fd,
    int64_t off, int64_t len)
{
	if (r->has_file)
		(void)close(r->file_fd);
	r->status = status;
	r->content_type = ctype;
	r->has_file = true;
	r->file_fd = fd;
	r->file_off = off;
	r->file_len = len;
}

/* See response.h. */
const char *
resp_result_json(struct resp *r, size_t *len)
{
	*len = 0;
	if (r->items.len > 0) {
		if (!r->items_closed) {
			buf_addc(&r->items, ']');
			r->items_closed = true;
		}
		if (!buf_ok(&r->items))
			return NULL;
		*len = r->items.len;
		return r->items.data;
	}
	if (r->result == NULL)
		return NULL;
	return json_object_to_json_string_length(r->result, JSON_FLAGS, len);
}

/* See response.h. */
void
resp_result_text(struct resp *r, const char *text, size_t len)
{
	r->result_text = text;
	r->result_len = len;
}

static void
add_json(struct buf *out, struct json_object *o)
{
	size_t len;
	const char *s;

	s = json_object_to_json_string_length(o, JSON_FLAGS, &len);
	buf_add(out, s, len);
}

static void
add_rid(struct buf *out, const char *rid)
{
	buf_adds(out, "\"requestId\":");
	buf_add_json_str(out, rid, strlen(rid));
}

/* [{"code":"601","message":"..."}] */
static void
add_errors(struct buf *out, const struct err_info *e, const char *msg)
{
	buf_adds(out, "[{\"code\":");
	buf_add_json_str(out, e->code, strlen(e->code));
	buf_adds(out, ",\"message\":");
	buf_add_json_str(out, msg, strlen(msg));
	buf_adds(out, "}]");
}

static void
add_array_or_empty(struct buf *out, struct json_object *a)
{
	if (a != NULL)
		add_json(out, a);
	else
		buf_adds(out, "[]");
}

/*
 * The result array of text items, closed; a response whose items did not
 * fit overflows out too, so the dispatcher answers its error.
 */
static void
add_items(struct buf *out, const struct resp *r)
{
	if (!buf_ok(&r->items)) {
		out->overflow = true;
		return;
	}
	buf_add(out, r->items.data, r->items.len);
	if (!r->items_closed)
		buf_addc(out, ']');
}

/* The result array: text items, the objects added, or [] for none. */
static void
add_result(struct buf *out, const struct resp *r)
{
	if (r->items.len > 0)
		add_items(out, r);
	else
		add_array_or_empty(out, r->result);
}

static void
render_leaddb(struct buf *out, const struct resp *r, const char *rid,
    const struct err_info *e, const char *msg)
{
	buf_addc(out, '{');
	add_rid(out, rid);
	if (e != NULL) {
		buf_adds(out, ",\"success\":false,\"errors\":");
		add_errors(out, e, msg);
		buf_addc(out, '}');
		return;
	}
	if (!r->no_result) {
		buf_adds(out, ",\"result\":");
		add_result(out, r);
	}
	buf_adds(out, ",\"success\":true");
	if (r->warnings != NULL) {
		buf_adds(out, ",\"warnings\":");
		add_json(out, r->warnings);
	}
	if (r->next_page_token != NULL) {
		buf_adds(out, ",\"nextPageToken\":");
		buf_add_json_str(out, r->next_page_token,
		    strlen(r->next_page_token));
	}
	if (r->more_result >= 0)
		buf_adds(out, r->more_result ? ",\"moreResult\":true" :
		    ",\"moreResult\":false");
	buf_addc(out, '}');
}

static void
render_asset1(struct buf *out, const struct resp *r, const char *rid,
    const struct err_info *e, const char *msg)
{
	if (e != NULL) {
		/* Failure order as recorded: requestId, success, warnings, errors. */
		buf_addc(out, '{');
		add_rid(out, rid);
		buf_adds(out, ",\"success\":false,\"warnings\":");
		add_array_or_empty(out, r->warnings);
		buf_adds(out, ",\"errors\":");
		add_errors(out, e, msg);
		buf_addc(out, '}');
		return;
	}
	buf_adds(out, "{\"success\":true,\"errors\":[],");
	add_rid(out, rid);
	buf_adds(out, ",\"warnings\":");
	add_array_or_empty(out, r->warnings);
	if (r->result_text != NULL) {
		buf_adds(out, ",\"result\":");
		buf_add(out, r->result_text, r->result_len);
	} else if (r->items.len > 0) {
		buf_adds(out, ",\"result\":");
		add_items(out, r);
	} else if (r->result != NULL &&
	    json_object_array_length(r->result) > 0) {
		buf_adds(out, ",\"result\":");
		add_json(out, r->result);
	}
	buf_addc(out, '}');
}

/*
 * One entry of an asset v2 errors array (docs/behaviour.md §2.3, the
 * swagger's ContentWaveErrorDTO): the code and message of the service's
 * table, key "api.error.<code>", source "validation", no position.
 */
static void
add_error2(struct buf *out, const char *code, const char *msg,
    const char *type)
{
	buf_adds(out, "{\"key\":");
	buf_adds(out, "\"api.error.");
	buf_adds(out, code);
	buf_adds(out, "\",\"message\":");
	buf_add_json_str(out, msg, strlen(msg));
	buf_adds(out, ",\"code\":");
	buf_add_json_str(out, code, strlen(code));
	buf_adds(out, ",\"dynamicMessage\":");
	buf_add_json_str(out, msg, strlen(msg));
	buf_adds(out, ",\"type\":\"");
	buf_adds(out, type);
	buf_adds(out, "\",\"source\":\"validation\",\"errorMessage\":");
	buf_add_json_str(out, msg, strlen(msg));
	buf_adds(out, ",\"errorPosition\":null}");
}

/*
 * Asset v2: {success, requestId, result} (an array, or the object of
 * result_object; none when no_result), pageDetails when set, and the
 * warnings as entries of errors of type "warning"; a failure is
 * {success:false, requestId, errors:[one entry of type "error"]}.
 */
static void
render_asset2(struct buf *out, const struct resp *r, const char *rid,
    const struct err_info *e, const char *msg)
{
	struct json_object *w, *v;
	char code[16];
	size_t i, n;

	if (e != NULL) {
		buf_adds(out, "{\"success\":false,");
		add_rid(out, rid);
		buf_adds(out, ",\"errors\":[");
		add_error2(out, e->code, msg, "error");
		buf_adds(out, "]}");
		return;
	}
	buf_adds(out, "{\"success\":true,");
	add_rid(out, rid);
	if (r->result_object != NULL) {
		buf_adds(out, ",\"result\":");
		add_json(out, r->result_object);
	} else if (!r->no_result) {
		buf_adds(out, ",\"result\":");
		add_result(out, r);
	}
	if (r->page_details != NULL) {
		buf_adds(out, ",\"pageDetails\":");
		add_json(out, r->page_details);
	}
	n = r->warnings != NULL ? json_object_array_length(r->warnings) : 0;
	if (n > 0) {
		buf_adds(out, ",\"errors\":[");
		for (i = 0; i < n; i++) {
			w = json_object_array_get_idx(r->warnings, i);
			(void)snprintf(code, sizeof(code), "%d",
			    json_object_object_get_ex(w, "code", &v) ?
			    json_object_get_int(v) : 0);
			if (i > 0)
				buf_addc(out, ',');
			add_error2(out, code, json_object_object_get_ex(w,
			    "message", &v) ? json_object_get_string(v) : "",
			    "warning");
		}
		buf_addc(out, ']');
	}
	buf_addc(out, '}');
}

/*
 * The OAuth error word of an error of the token endpoint and its HTTP
 * status (*status in, the table's; out, the endpoint's).  RFC 6749 §5.2:
 * a request that is malformed (a bad byte, a broken body, a wrong
 * method or path, too large) is the client's error, invalid_request
 * (method_not_allowed for a method, as Spring says it), HTTP 400 unless
 * the transport status says more (404, 405, 413, 414); server_error and
 * HTTP 500 are for the server's own failures only.
 */
static const char *
identity_error(int err, const struct err_info *e, int *status)
{
	if (err > 0)
		err = -err;
	if (e->oauth_error != NULL)
		return e->oauth_error;
	switch (-err) {
	case API_ERR_SYSTEM:
	case API_ERR_TIMEOUT:
	case API_ERR_UNAVAILABLE:
		*status = 500;
		return "server_error";
	case API_ERR_METHOD:
		*status = 405;
		return "method_not_allowed";
	case API_ERR_NOT_FOUND:
		*status = 404;
		return "invalid_request";
	default:
		if (*status < 400 || *status >= 500)
			*status = 400;
		return "invalid_request";
	}
}

/* OAuth bodies: a success body is the handler's; errors are Spring's. */
static void
render_identity(struct buf *out, const struct resp *r, const char *error,
    const char *msg)
{
	if (error == NULL) {
		if (r->body != NULL)
			add_json(out, r->body);
		else
			buf_adds(out, "{}");
		return;
	}
	buf_adds(out, "{\"error\":");
	buf_add_json_str(out, error, strlen(error));
	buf_adds(out, ",\"error_description\":");
	buf_add_json_str(out, msg, strlen(msg));
	buf_addc(out, '}');
}

int
response_render(struct buf *out, const struct resp *r, enum envelope env,
    const char *request_id, int err)
{
	const struct err_info *e = NULL;
	const char *msg = NULL, *oauth = NULL;
	int status = 200;

	if (err != 0) {
		e = err_lookup(err);
		msg = r->err_msg != NULL ? r->err_msg : e->message;
		status = e->http_status;
	} else if (r->status != 0)
		status = r->status;
	/* A text or file body is the handler's; the dispatcher sends it. */
	if (e == NULL && (r->text != NULL || r->has_file)) {
		if (r->text != NULL)
			buf_adds(out, r->text);
		return status;
	}
	/* The identity endpoint is not in the service envelope. */
	if (env == ENV_IDENTITY && e != NULL)
		oauth = identity_error(err, e, &status);
	switch (env) {
	case ENV_ASSET1:
		render_asset1(out, r, request_id, e, msg);
		break;
	case ENV_ASSET2:
		render_asset2(out, r, request_id, e, msg);
		break;
	case ENV_IDENTITY:
		render_identity(out, r, oauth, msg);
		break;
	case ENV_LEADDB:
	default:
		render_leaddb(out, r, request_id, e, msg);
		break;
	}
	return status;
}

enum envelope
response_envelope_for_path(const char *path)
{
	if (strncmp(path, "/identity/", 10) == 0)
		return ENV_IDENTITY;
	if (strncmp(path, "/rest/asset/v2/", 15) == 0)
		return ENV_ASSET2;
	if (strncmp(path, "/rest/asset/v1/", 15) == 0)
		return ENV_ASSET1;
	return ENV_LEADDB;
}
