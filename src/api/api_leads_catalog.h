/*
 * The worker's lead field catalogue, kept current without a database
 * round trip on most requests, behind an opaque cache (struct app's
 * leads_catalog), and the parsing of the `fields` parameter.
 *
 * A worker reloads its catalogue when lead_schema.version has moved.  It
 * checks the version when asked for a fresh catalogue (describe and the
 * field schema operations), when a request names a field the loaded
 * catalogue lacks (so a field created on any worker or host is usable at
 * once), and otherwise at most every LEAD_SCHEMA_CHECK_MS.
 */
#ifndef MAUTO_API_API_LEADS_CATALOG_H
#define MAUTO_API_API_LEADS_CATALOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct call;
struct lead_field;
struct lead_schema;
struct leads_catalog;
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
int	api_leads_catalog_get(struct call *c, bool fresh,
	    const struct lead_schema **out);

/* Frees a worker's cache (NULL is fine). */
void	api_leads_catalog_free(struct leads_catalog *lc);

/*
 * The catalogue into *s, checked once more against the database when one
 * of the n names (NULL entries skipped) is missing from the loaded one (a
 * field created on another worker or host).  Check every name a request
 * uses before taking field pointers, so they all come from one catalogue
 * and compare equal.  Returns 0 or a negative api_err.
 */
int	api_leads_catalog_for(struct call *c, const char *const *names, size_t n,
	    const struct lead_schema **s);

/*
 * The fields a read returns: the `fields` parameter (comma-separated or
 * repeated), else the defaults given (NULL-terminated names), from the
 * catalogue api_leads_catalog_for gives for those names into *s.  Unknown
 * names answer 1006 "Field '<name>' not found" (r->err_msg set).  *out
 * is an arena array of *n fields, no duplicates.  Returns 0 or a
 * negative api_err.
 */
int	api_leads_catalog_fields(struct call *c, struct resp *r,
	    const struct lead_schema **s,
	    const char *const *defaults, const struct lead_field ***out,
	    size_t *n);

#endif
