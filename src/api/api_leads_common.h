/*
 * What the Leads handlers share: the worker's lead field catalogue, kept
 * current without a database round trip on most requests, and the
 * parsing of the `fields` parameter.
 *
 * A worker reloads its catalogue when lead_schema.version has moved.  It
 * checks the version when asked for a fresh catalogue (describe and the
 * field schema operations), when a request names a field the loaded
 * catalogue lacks (so a field created on any worker or host is usable at
 * once), and otherwise at most every LEAD_SCHEMA_CHECK_MS.
 */
#ifndef MAUTO_API_API_LEADS_COMMON_H
#define MAUTO_API_API_LEADS_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct call;
struct lead_field;
struct lead_schema;
struct json_object;
struct resp;

#define LEAD_SCHEMA_CHECK_MS	1000

/*
 * The catalogue into *out (borrowed from the worker).  It and every field
 * pointer taken from it stay valid until the request ends: a catalogue is
 * reloaded at most once per request, and the one it replaces is kept
 * until the next reload.  fresh: check the version now.  Returns 0 or a
 * negative api_err.
 */
int	leads_schema(struct call *c, bool fresh,
	    const struct lead_schema **out);

/*
 * The catalogue into *s, checked once more against the database when one
 * of the n names (NULL entries skipped) is missing from the loaded one (a
 * field created on another worker or host).  Check every name a request
 * uses before taking field pointers, so they all come from one catalogue
 * and compare equal.  Returns 0 or a negative api_err.
 */
int	leads_schema_for(struct call *c, const char *const *names, size_t n,
	    const struct lead_schema **s);

/*
 * The fields a read returns: the `fields` parameter (comma-separated or
 * repeated), else the defaults given (NULL-terminated names), from the
 * catalogue leads_schema_for gives for those names into *s.  Unknown
 * names answer 1006 "Field '<name>' not found" (r->err_msg set).  *out
 * is an arena array of *n fields, no duplicates.  Returns 0 or a
 * negative api_err.
 */
int	leads_fields_param(struct call *c, struct resp *r,
	    const struct lead_schema **s,
	    const char *const *defaults, const struct lead_field ***out,
	    size_t *n);

/*
 * A skipped record result: {"id":id,"status":"skipped","reasons":
 * [{"code":"<code>","message":<printf>}]} (no "id" when id is 0), in
 * the service's key order.  Returns a new object owned by the caller.
 */
struct json_object *leads_skipped(int64_t id, int code, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));

/* A record result {"id":id,"status":status}; owned by the caller. */
struct json_object *leads_status(int64_t id, const char *status);

/* Sets r->err_msg to a printf message in the request arena. */
void	leads_err_msg(struct call *c, struct resp *r, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));

#endif
