/*
 * One request from start to end.  The order of the checks decides which
 * error a client sees when several apply, and what the limits count:
 *
 *   1. transport (414, 413, 400), GET /healthz (api_health.c), and
 *      routing (610, 605): not counted;
 *   2. an injected fault (fault_injection, src/http/fault.c): an error
 *      that is not counted; a delay is taken after the limits admitted
 *      the call (a call of the token endpoint: at once), so that the
 *      delayed call is in flight like a slow one (a client provokes 615
 *      with ten of them);
 *   3. the token: 601 and 602 are not counted (docs/behaviour.md §1.3),
 *      then the client's fault plan (mautoctl fault), not counted either;
 *   4. the limits (606, 607, 615): every other answer is counted;
 *   5. 600 (no token), 603 (permission), the body (612, 609, 613);
 *   6. the handler, retried once when the connection to the database was
 *      lost under a read-only (GET) operation.
 *
 * Each request ends with one log event at info (log_request), and each
 * failed authentication with one at warn: client id and peer address,
 * never the secret or the token.
 *
 * The usage statistics (docs/behaviour.md §18) count, once the answer is
 * written, each call the limits counted under its API client, and the
 * error code of every Marketo envelope answered with success:false
 * (HTTP 200) and of every skipped record of a call that succeeded.
 *
 * GET /metrics (exposition.h) and the outbox read (GET /outbox.json,
 * GET /outbox/{id}.json: outbox_read.h) are answered before routing: no
 * token, not counted by the limits or by the metrics, not logged; the
 * web server keeps both to loopback.  Every other request is counted
 * once its answer is written.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "api/api.h"
#include "api/api_common.h"
#include "auth/ratelimit.h"
#include "auth/token.h"
#include "db/pool.h"
#include "dispatch.h"
#include "err.h"
#include "exposition.h"
#include "http/fault.h"
#include "http/request.h"
#include "http/response.h"
#include "http/router.h"
#include "outbox_read.h"
#include "repo/repo_auth.h"
#include "util/arena.h"
#include "util/config.h"
#include "util/log.h"
#include "util/num.h"
#include "util/rid.h"
#include "util/text.h"
#include "util/timeutil.h"

static const char *
status_text(int status)
{
	switch (status) {
	case 200: return "OK";
	case 206: return "Partial Content";
	case 400: return "Bad Request";
	case 401: return "Unauthorized";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 413: return "Payload Too Large";
	case 414: return "URI Too Long";
	case 416: return "Range Not Satisfiable";
	case 501: return "Not Implemented";
	case 503: return "Service Unavailable";
	default:  return "Internal Server Error";
	}
}

/* The health probe's path, answered outside the route table. */
#define HEALTH_PATH	"/healthz"

/*
 * Every reply names the build that wrote it, so a client or a probe can
 * tell which version answered during a rolling upgrade.
 */
#define VERSION_HEADER	"X-Mauto-Version: " PACKAGE_VERSION "\r\n"

/*
 * GET (or HEAD) /healthz: no token, no limits.  Another method is 605,
 * as for a routed path.
 */
static int
serve_health(struct call *c, struct resp *r)
{
	const struct req *req = c->req;

	if (req->method == HTTP_GET || req->method == HTTP_HEAD)
		return api_health_get(c, r);
	r->err_msg = arena_printf(req->arena,
	    "Request method '%s' not supported",
	    req->method_name != NULL ? req->method_name : "");
	return -API_ERR_METHOD;
}

/* The access token: the Authorization header wins over the parameter. */
static const char *
find_token(const struct app *app, const struct req *req)
{
	const char *h = req->authorization, *t;

	if (h != NULL && strncasecmp(h, "Bearer ", 7) == 0) {
		for (h += 7; *h == ' '; h++)
			;
		if (*h != '\0')
			return h;
	}
	if (!app->cfg->allow_query_token)
		return NULL;
	t = req_param(req, "access_token");
	return t != NULL && *t != '\0' ? t : NULL;
}

/*
 * Whether the body suits what the route takes (612, 609, 613), and, for
 * an operation of named parameters, a JSON object body read as them.
 */
static int
check_body(const struct route *rt, struct req *req)
{
	switch (rt->body) {
	case BODY_JSON:
		if (req->body_kind == BODY_JSON)
			return req->body_err;
		/* A read reached by GET (or POST ?_method=GET) may omit it. */
		if (rt->method == HTTP_GET && req->body_kind != BODY_OTHER &&
		    req->body_kind != BODY_MULTIPART)
			return 0;
		/*
		 * No body at all: the handler sees no JSON and answers its
		 * own "missing input" error (Delete Leads also takes ?id=).
		 */
		if (req->body_kind == BODY_NONE)
			return 0;
		return -API_ERR_CONTENT_TYPE;
	default:
		/*
		 * Form-style operations read the query and a form or
		 * multipart body alike, and a JSON object body as the same
		 * parameters (docs/behaviour.md §0): a body that does not
		 * decode is refused, never ignored.  The JSON literal null,
		 * which some clients send, is no parameters.
		 */
		if (req->body_err != 0)
			return req->body_err;
		return request_json_params(req);
	}
}

/* Sleeps ms milliseconds (the worker keeps its stop signals blocked). */
static void
sleep_ms(int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000,
	    .tv_nsec = (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/*
 * The error err injected into a call, with the message the service
 * writes when it is real (the limits name their numbers).
 */
static int
fault_answer(struct app *app, struct call *c, struct resp *r, int err,
    const char *how)
{
	char *msg;

	log_info("%s: fault injected (%s): %s", c->request_id, how,
	    err_lookup(err)->code);
	c->faulted = true;	/* not an authentication failure to log */
	if ((msg = arena_alloc(&app->arena, 128)) != NULL)
		r->err_msg = limiter_message(app->lim, err, msg, 128);
	return err;
}

/*
 * X-Mauto-Fault when fault_injection is on: 0 to serve the call (after
 * the delay it asked for, in *delay_ms, which fault_delay takes), or the
 * error to answer.
 */
static int
fault_header(struct app *app, struct call *c, struct resp *r, int *delay_ms)
{
	struct fault f;

	*delay_ms = 0;
	if (!app->cfg->fault_injection)
		return 0;
	fault_parse(c->req->fault, c->route->env == ENV_IDENTITY, &f);
	switch (f.kind) {
	case FAULT_ERROR:
		return fault_answer(app, c, r, f.err, "X-Mauto-Fault");
	case FAULT_DELAY:
		*delay_ms = f.delay_ms;
		return 0;
	case FAULT_BAD:
		r->err_msg = arena_printf(&app->arena, "Invalid value '%s' "
		    "for X-Mauto-Fault", text_echo(&app->arena, c->req->fault));
		return -API_ERR_INVALID_VALUE;
	default:
		return 0;
	}
}

/* Waits the delay of X-Mauto-Fault (fault_header), if any. */
static void
fault_delay(const struct call *c, int delay_ms)
{
	if (delay_ms <= 0)
		return;
	log_info("%s: fault injected: delay of %d ms", c->request_id,
	    delay_ms);
	sleep_ms(delay_ms);
}

/*
 * The fault plan of the authenticated client cl (mautoctl fault) when
 * fault_injection is on: 0, or the planned error, which the call answers
 * instead of anything else.  A plan that cannot be read is no fault.
 */
static int
fault_plan(struct app *app, struct call *c, const struct client *cl,
    struct resp *r)
{
	int code, err;

	if (!app->cfg->fault_injection || app->db == NULL ||
	    repo_auth_fault_delete_next(app->db, cl->id, &code) != 0 ||
	    (err = fault_err_of_code(code)) == 0)
		return 0;
	return fault_answer(app, c, r, err, "fault plan");
}

/* Runs the route's checks and handler; the limiter slot is the caller's. */
static int
serve(struct app *app, struct call *c, struct client *cl, struct resp *r,
    bool *admitted)
{
	const struct route *rt = c->route;
	const struct token_ctx tx = { .cfg = app->cfg, .db = app->db,
	    .lim = app->lim, .tokens = app->tokens };
	const char *token;
	char *msg;
	int delay, err;

	*admitted = false;
	if ((err = fault_header(app, c, r, &delay)) != 0)
		return err;
	if (rt->auth != AUTH_TOKEN)
		fault_delay(c, delay);
	if (rt->auth == AUTH_TOKEN) {
		token = find_token(app, c->req);
		if (token != NULL &&
		    (err = token_authenticate(&tx, token, cl)) != 0)
			return err;
		if (token != NULL && (err = fault_plan(app, c, cl, r)) != 0)
			return err;
		if ((err = limiter_admit(app->lim)) != 0) {
			if ((msg = arena_alloc(&app->arena, 128)) != NULL)
				r->err_msg = limiter_message(app->lim, err, msg,
				    128);
			return err;
		}
		*admitted = true;
		fault_delay(c, delay);
		if (token == NULL)
			return -API_ERR_NO_TOKEN;
		if (!perm_allows(cl->perms, rt->perm_any, rt->perm_all))
			return -API_ERR_ACCESS_DENIED;
		c->client = cl;
	}
	if ((err = check_body(rt, c->req)) != 0)
		return err;
	err = rt->handler(c, r);
	if (err != 0 && rt->method == HTTP_GET && app->db != NULL &&
	    db_is_broken(app->db) && db_ensure(app->db) == 0) {
		log_info("%s: database connection restored, running again",
		    c->request_id);
		resp_clear(r);
		api_common_reasons_take(NULL);
		err = rt->handler(c, r);
	}
	return err;
}

/*
 * Sends the file of r (resp_file) in EXPORT_IO_BYTES pieces read with
 * pread(2), so a file of any size costs one buffer.  Returns 0, or -1
 * when the file came up short or the client went away.
 */
static int
write_file(const struct resp *r, const struct resp_writer *w)
{
	char buf[EXPORT_IO_BYTES];
	int64_t off = r->file_off, left = r->file_len;
	ssize_t n;

	while (left > 0) {
		n = pread(r->file_fd, buf, left < (int64_t)sizeof(buf) ?
		    (size_t)left : sizeof(buf), (off_t)off);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			log_err("dispatch: file body short at byte %lld: %s",
			    (long long)off, n == 0 ? "end of file" :
			    strerror(errno));
			return -1;
		}
		if (w->write(w->ctx, buf, (size_t)n) != 0)
			return -1;
		off += n;
		left -= n;
	}
	return 0;
}

/*
 * Writes the head and the body: the rendered envelope in app->out, or,
 * when raw (the handler succeeded), the handler's text or file body.
 */
static int
write_response(struct app *app, const struct resp *r, int status, bool raw,
    const struct resp_writer *w)
{
	char head[512];
	const char *ctype = "application/json;charset=UTF-8";
	long long len = (long long)app->out.len;
	bool file = raw && r->has_file;
	size_t i;
	int n;

	if (raw && r->content_type != NULL)
		ctype = r->content_type;
	if (file)
		len = (long long)r->file_len;
	n = snprintf(head, sizeof(head), "Status: %d %s\r\n"
	    "Content-Type: %s\r\n"
	    "Content-Length: %lld\r\n"
	    VERSION_HEADER, status, status_text(status), ctype, len);
	if (n < 0 || (size_t)n >= sizeof(head) ||
	    w->write(w->ctx, head, (size_t)n) != 0)
		return -1;
	for (i = 0; i < r->nheaders; i++)
		if (w->write(w->ctx, r->headers[i], strlen(r->headers[i])) ||
		    w->write(w->ctx, "\r\n", 2) != 0)
			return -1;
	if (w->write(w->ctx, "\r\n", 2) != 0)
		return -1;
	if (file)
		return write_file(r, w);
	return w->write(w->ctx, app->out.data, app->out.len);
}

/*
 * The client a request names: the one its token authenticated (also
 * when the token had expired or lacked the permission), or, on the
 * identity endpoint, the client_id it sent.  NULL when none.
 */
static const char *
request_client(const struct call *c, const struct client *cl)
{
	const char *id;

	if (cl->client_id[0] != '\0')
		return cl->client_id;
	if (c->route != NULL && c->route->auth == AUTH_NONE &&
	    (id = req_param(c->req, "client_id")) != NULL && *id != '\0')
		return id;
	return NULL;
}

/* The wire code of err: "606", "invalid_client"; NULL for success. */
static const char *
wire_code(int err)
{
	const struct err_info *ei;

	if (err == 0)
		return NULL;
	ei = err_lookup(err);
	return ei->code != NULL ? ei->code : ei->oauth_error;
}

/*
 * The failed authentications: bad client credentials on the identity
 * endpoint, no, an unknown or an expired token, a missing permission.
 */
static const char *
auth_failure(int err)
{
	switch (-err) {
	case API_ERR_OAUTH_INVALID_CLIENT: return "bad client credentials";
	case API_ERR_NO_TOKEN: return "no access token";
	case API_ERR_TOKEN_INVALID: return "unknown access token";
	case API_ERR_TOKEN_EXPIRED: return "expired access token";
	case API_ERR_ACCESS_DENIED: return "permission missing";
	default: return NULL;
	}
}

/* The request's log event, and a warning for a failed authentication. */
static void
log_request(const struct call *c, const struct client *cl, int status,
    int err, int64_t start_us)
{
	const char *client = request_client(c, cl);
	const char *why = c->faulted ? NULL : auth_failure(err);
	const struct req *req = c->req;
	char msg[96];

	if (why != NULL) {
		struct log_field af[] = {
			LOG_STR("requestId", c->request_id),
			LOG_STR("clientId", client),
			LOG_STR("peer", req->remote_addr),
			LOG_STR("reason", why),
			LOG_STR("code", wire_code(err)),
		};

		log_event(LOG_LVL_WARN, "authentication failed", af,
		    sizeof(af) / sizeof(af[0]));
	}
	if (!log_enabled(LOG_LVL_INFO))
		return;
	struct log_field f[] = {
		LOG_STR("requestId", c->request_id),
		LOG_STR("clientId", client),
		LOG_STR("operation", c->route != NULL ? c->route->op_id : NULL),
		LOG_STR("method", req->method_name),
		LOG_STR("path", req->path),
		LOG_INT("status", status),
		LOG_STR("code", wire_code(err)),
		LOG_US("durationMs", time_mono_us() - start_us),
		LOG_STR("peer", req->remote_addr),
	};

	(void)snprintf(msg, sizeof(msg), "%s %d", c->route != NULL ?
	    c->route->op_id : "-", status);
	log_event(LOG_LVL_INFO, msg, f, sizeof(f) / sizeof(f[0]));
}

/*
 * Counts the error codes the answered call gave in the usage statistics
 * (limiter_release_call counts the call itself).
 */
static void
count_errors(struct app *app, enum envelope envl, int status, int err)
{
	struct api_reasons rs;
	const char *code;
	int64_t n;
	size_t i;

	api_common_reasons_take(&rs);
	if (envl == ENV_IDENTITY || status != 200)
		return;
	if (err != 0) {
		if ((code = err_lookup(err)->code) != NULL &&
		    num_parse_i64(code, 0, INT32_MAX, &n) == 0)
			limiter_count_error(app->lim, (int32_t)n, 1);
		return;
	}
	for (i = 0; i < rs.n; i++)
		limiter_count_error(app->lim, rs.code[i], rs.count[i]);
}

int
dispatch(struct app *app, const struct req_env *env,
    const struct resp_writer *w)
{
	struct req req;
	struct resp r;
	struct call c;
	struct client cl;
	char rid[RID_BYTES];
	enum envelope envl;
	bool admitted = false, scrape = false;
	int64_t started = time_mono_us();
	int err, status, rc;

	memset(&req, 0, sizeof(req));
	memset(&c, 0, sizeof(c));
	memset(&cl, 0, sizeof(cl));
	resp_init(&r);
	api_common_reasons_take(NULL);
	rid_next(rid, sizeof(rid));
	c.app = app;
	c.req = &req;
	c.request_id = rid;

	err = request_read(&req, &app->arena, env);
	envl = response_envelope_for_path(req.path != NULL ? req.path : "");
	if (err == 0 && strcmp(req.path, HEALTH_PATH) == 0)
		err = serve_health(&c, &r);
	else if (err == 0 && (scrape = exposition_is_scrape(&req)))
		err = exposition_scrape(app, &r);
	else if (err == 0 && (scrape = outbox_read_is(&req)))
		err = outbox_read_serve(app, &req, &r);
	else {
		if (err == 0)
			err = router_find(&req, &c.route, &r.err_msg);
		if (c.route != NULL)
			envl = c.route->env;
		if (err == 0)
			err = serve(app, &c, &cl, &r, &admitted);
	}

	buf_reset(&app->out);
	status = response_render(&app->out, &r, envl, rid, err);
	if (!buf_ok(&app->out)) {
		log_err("%s: response over %zu bytes", rid, app->out.max);
		buf_reset(&app->out);
		resp_clear(&r);
		status = response_render(&app->out, &r, envl, rid,
		    -API_ERR_SYSTEM);
	}
	if (envl == ENV_IDENTITY && r.nheaders == 0) {
		resp_header(&r, "Cache-Control: no-store");
		resp_header(&r, "Pragma: no-cache");
	}
	rc = write_response(app, &r, status, err == 0, w);
	if (admitted)
		limiter_release_call(app->lim, cl.id);
	if (!scrape) {
		count_errors(app, envl, status, err);
		exposition_count(app, c.route, status, err, started);
		log_request(&c, &cl, status, err, started);
	}
	resp_clear(&r);
	request_clear(&req);
	return rc;
}
