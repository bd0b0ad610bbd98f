/*
 * What every handler shares: the error message setter and the record
 * result builders of the service's batch operations.
 */
#ifndef MAUTO_API_API_COMMON_H
#define MAUTO_API_API_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct call;
struct json_object;
struct resp;

/*
 * A skipped record result: {"id":id,"status":"skipped","reasons":
 * [{"code":"<code>","message":<printf>}]} (no "id" when id is 0), in
 * the service's key order.  Returns a new object owned by the caller.
 */
struct json_object *api_common_skipped(int64_t id, int code,
	    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A record result {"id":id,"status":status}; owned by the caller. */
struct json_object *api_common_status(int64_t id, const char *status);

/* Sets r->err_msg to a printf message in the request arena. */
void	api_common_err_msg(struct call *c, struct resp *r, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));

/* Sets r->err_msg to a printf message and returns err (negative). */
int	api_common_fail(struct call *c, struct resp *r, int err,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * Text of untrusted input for a message: printable, at most 60 bytes, in
 * the request arena ("" for NULL).
 */
const char *api_common_shown(struct call *c, const char *s);

/* An epoch time as "YYYY-MM-DDTHH:MM:SSZ", or NULL (json null) for 0. */
struct json_object *api_common_time_json(int64_t t);

/* A JSON string of s, or NULL (json null) when s is NULL. */
struct json_object *api_common_str_or_null(const char *s);

/* The request body when it is a JSON object (borrowed), else NULL. */
struct json_object *api_common_body_object(const struct call *c);

/*
 * A string member of o into *out (borrowed): NULL when absent (or json
 * null).  A member of another JSON type, or longer than max characters'
 * worth of bytes, is 1001.  Returns 0 or a negative api_err.
 */
int	api_common_member_str(struct call *c, struct resp *r,
	    struct json_object *o, const char *key, size_t max,
	    const char **out);

/*
 * A boolean member of o into *out (unchanged when absent); *has (when not
 * NULL) says whether it was there.  Another JSON type is 1001.  Returns 0
 * or a negative api_err.
 */
int	api_common_member_bool(struct call *c, struct resp *r,
	    struct json_object *o, const char *key, bool *out, bool *has);

/* The action of a sync body. */
enum api_action {
	ACT_CREATE_OR_UPDATE,
	ACT_CREATE_ONLY,
	ACT_UPDATE_ONLY,
};

/*
 * The "action" member of a JSON sync body into *out (createOrUpdate when
 * absent); anything else than createOnly, updateOnly, createOrUpdate is
 * 1001.  Returns 0 or a negative api_err.
 */
int	api_common_action(struct call *c, struct resp *r,
	    struct json_object *body, enum api_action *out);

#endif
