/*
 * Responses: what a handler fills (struct resp) and how it is rendered in
 * one of the service's envelope families (docs/behaviour.md §2).  Handlers
 * never write the envelope; dispatch renders the struct once, success or
 * error.  A handler may write its result items as JSON text
 * (resp_add_text) instead of building json-c objects.
 */
#ifndef MAUTO_HTTP_RESPONSE_H
#define MAUTO_HTTP_RESPONSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"

struct json_object;

enum envelope {
	ENV_LEADDB,	/* /rest/v1, /bulk/v1: requestId,result,success */
	ENV_ASSET1,	/* /rest/asset/v1: success,errors,requestId,warnings,result */
	ENV_ASSET2,	/* /rest/asset/v2: success,requestId,result */
	ENV_IDENTITY,	/* /identity: bare OAuth bodies */
	ENV__MAX
};

#define RESP_MAX_HEADERS	8

struct resp {
	/* The result array; created on first resp_add.  Owned. */
	struct json_object	*result;
	/* Lead DB: warnings as {code,message}; asset: strings.  Owned. */
	struct json_object	*warnings;
	/* Lead DB operations without payload (merge, associate). */
	bool			 no_result;
	/*
	 * The result array as JSON text, sent instead of result when set
	 * (a page kept by util/pagecache.c): see resp_result_text.
	 */
	const char		*result_text;
	size_t			 result_len;
	/*
	 * Items written as JSON text (resp_add_text): "[" and the items so
	 * far, each after a comma but the first; "]" too once
	 * resp_result_json has closed it.  Owned.
	 */
	struct buf		 items;
	bool			 items_closed;
	/*
	 * Asset v2: a result that is one object, not an array (List
	 * Emails), and a pageDetails member after it (Get Email Used By).
	 * Owned.
	 */
	struct json_object	*result_object;
	struct json_object	*page_details;
	/* Paged lead DB reads: -1 omit, 0 false, 1 true. */
	int			 more_result;
	const char		*next_page_token;	/* arena string or NULL */
	/* A more specific message for the error the handler returns. */
	const char		*err_msg;
	/* A whole body that is not an envelope (identity).  Owned. */
	struct json_object	*body;
	/* HTTP status for a raw body; 0 means 200. */
	int			 status;
	/* Extra header lines "Name: value" (arena or static strings). */
	const char		*headers[RESP_MAX_HEADERS];
	size_t			 nheaders;
	/*
	 * A body that is not JSON, sent as it is with status (Get Export
	 * File's plain-text 404): see resp_text.  Arena or static.
	 */
	const char		*text;
	const char		*content_type;	/* of text or file */
	/* A file to stream as the body (Get Export File): see resp_file. */
	bool			 has_file;
	int			 file_fd;	/* owned; resp_clear closes */
	int64_t			 file_off;	/* first byte sent */
	int64_t			 file_len;	/* bytes sent */
};

void	resp_init(struct resp *r);
/* Puts the JSON objects the response owns and makes it empty again. */
void	resp_clear(struct resp *r);
/* Appends item to result; takes ownership of item. */
void	resp_add(struct resp *r, struct json_object *item);
/*
 * The buffer to write the next item of result into as JSON text (one
 * value, compact, strings as buf_add_jsonc_str writes them): a handler
 * that writes its items spares the json-c objects.  Items added either
 * way keep their order.  Valid until the next resp_add, resp_add_text or
 * resp_clear.
 */
struct buf	*resp_add_text(struct resp *r);
/*
 * The result array as the envelope writes it, into *len bytes (owned by
 * the response, valid until resp_clear or the next resp_add); NULL when
 * there is none.
 */
const char	*resp_result_json(struct resp *r, size_t *len);
/*
 * Makes the result the JSON array text (len bytes, borrowed until the
 * response is rendered) instead of the items added.
 */
void	resp_result_text(struct resp *r, const char *text, size_t len);
/*
 * Appends a warning (lead DB and asset v2: {code,message}, asset v2
 * rendering it as an entry of errors of type "warning"; asset v1: the
 * message).
 */
void	resp_warn(struct resp *r, enum envelope env, int code, const char *msg);
/* Adds a header line; extra lines past RESP_MAX_HEADERS are dropped. */
void	resp_header(struct resp *r, const char *line);
/*
 * Makes the response the text body text (borrowed: arena or static) with
 * HTTP status and Content-Type ctype, instead of an envelope.
 */
void	resp_text(struct resp *r, int status, const char *ctype,
	    const char *text);
/*
 * Makes the response len bytes of the open file fd from offset off, with
 * HTTP status and Content-Type ctype; the dispatcher streams them without
 * reading the file into memory.  Takes ownership of fd (resp_clear closes
 * it).
 */
void	resp_file(struct resp *r, int status, const char *ctype, int fd,
	    int64_t off, int64_t len);

/*
 * Renders the body of r in env's family into out: the success envelope
 * when err is 0, else the error envelope for err (negative api_err) with
 * r->err_msg or the table message.  Returns the HTTP status to send.
 */
int	response_render(struct buf *out, const struct resp *r,
	    enum envelope env, const char *request_id, int err);

/* The envelope family a path belongs to, by its prefix. */
enum envelope	response_envelope_for_path(const char *path);

#endif
