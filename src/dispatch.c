/*
 * One request from start to end.  The order of the checks decides which
 * error a client sees when several apply, and what the limits count:
 *
 *   1. transport (414, 413, 400) and routing (610, 605): not counted;
 *   2. the token: 601 and 602 are not counted (docs/behaviour.md §1.3);
 *   3. the limits (606, 607, 615): every other answer is counted;
 *   4. 600 (no token), 603 (permission), the body (612, 609, 613);
 *   5. the handler, retried once when the connection to the database was
 *      lost under a read-only (GET) operation.
 *
 * GET /metrics (exposition.h) is answered before routing: no token, not
 * counted by the limits or by the metrics themselves.  Every other
 * request is counted once its answer is written.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "api/api.h"
#include "auth/ratelimit.h"
#include "auth/token.h"
#include "db/pool.h"
#include "dispatch.h"
#include "err.h"
#include "exposition.h"
#include "http/request.h"
#include "http/response.h"
#include "http/router.h"
#include "util/config.h"
#include "util/log.h"
#include "util/rid.h"
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

/* Whether the body suits what the route takes (612, 609, 613). */
static int
check_body(const struct route *rt, const struct req *req)
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
	case BODY_MULTIPART:
		if (req->body_kind == BODY_MULTIPART)
			return req->body_err;
		return 0;
	default:
		/*
		 * Form-style operations read the query and a form body alike;
		 * some clients send a JSON body (often `null`) as well, which
		 * is tolerated and ignored.
		 */
		if (req->body_kind == BODY_MULTIPART)
			return req->body_err;
		return 0;
	}
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
	int err;

	*admitted = false;
	if (rt->auth == AUTH_TOKEN) {
		token = find_token(app, c->req);
		if (token != NULL &&
		    (err = token_authenticate(&tx, token, cl)) != 0)
			return err;
		if ((err = limiter_admit(app->lim)) != 0) {
			if ((msg = arena_alloc(&app->arena, 128)) != NULL)
				r->err_msg = limiter_message(app->lim, err, msg,
				    128);
			return err;
		}
		*admitted = true;
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
	    "Content-Length: %lld\r\n", status, status_text(status), ctype,
	    len);
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
	resp_init(&r);
	rid_next(rid, sizeof(rid));
	c.app = app;
	c.req = &req;
	c.request_id = rid;

	err = request_read(&req, &app->arena, env);
	envl = response_envelope_for_path(req.path != NULL ? req.path : "");
	if (err == 0 && (scrape = exposition_is_scrape(&req)))
		err = exposition_scrape(app, &r);
	else if (err == 0)
		err = router_find(&req, &c.route, &r.err_msg);
	if (c.route != NULL)
		envl = c.route->env;
	if (err == 0 && c.route != NULL)
		err = serve(app, &c, &cl, &r, &admitted);

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
		limiter_release(app->lim);
	if (!scrape)
		exposition_count(app, c.route, status, err, started);
	resp_clear(&r);
	request_clear(&req);
	return rc;
}
