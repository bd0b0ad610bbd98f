/*
 * GET /outbox.json and GET /outbox/{id}.json: what mauto sent, read over
 * HTTP without a token (docs/operating.md, "The outbox over HTTP"), so
 * that a CI job can assert on the email a campaign sent without a shell
 * on the host.  Like GET /metrics it is answered before routing, not
 * counted by the limits or the metrics, and the web server keeps it to
 * loopback (deploy/nginx/mautod.conf, deploy/apache/mautod.conf): it
 * shows recipients and whole messages.  dispatch.c calls it.
 */
#ifndef MAUTO_OUTBOX_READ_H
#define MAUTO_OUTBOX_READ_H

#include <stdbool.h>

struct app;
struct req;
struct resp;

#define OUTBOX_READ_LIST	"/outbox.json"
#define OUTBOX_READ_PREFIX	"/outbox/"
#define OUTBOX_READ_CTYPE	"application/json; charset=utf-8"
/* Rows a list answers when limit is not given. */
#define OUTBOX_READ_DEFAULT	100

/* Whether req is a read of the outbox: GET of one of the two paths. */
bool	outbox_read_is(const struct req *req);

/*
 * Makes r the read's JSON body (resp_text, in the request arena).  The
 * list, GET /outbox.json?campaignId=&runId=&leadId=&sinceId=&limit=, is
 * {"result":[row...]}: the rows after sinceId (0) that the filters
 * select, oldest first, at most limit (1 to OUTBOX_LIST_MAX, default
 * OUTBOX_READ_DEFAULT), without their messages; a client pages on with
 * sinceId set to the last id it got.  GET /outbox/{id}.json is
 * {"result":[row]} with "message", the MIME text as it was sent.  A
 * row: id, createdAt, kind, campaignId, runId, leadId, stepId, emailId
 * (null when none), to, from, subject, status, smtpCode, smtpReply,
 * finishedAt (null until finished).  A parameter that is not a whole
 * number in range is 400 and an id that names no message 404, each
 * {"error":"<why>"}.  Returns 0, or -API_ERR_SYSTEM when the database
 * does not answer or the body is over MAX_RESPONSE_BYTES.
 */
int	outbox_read_serve(struct app *app, const struct req *req,
	    struct resp *r);

#endif
