/*
 * Every numeric limit of the service, in one place (style.md §6).
 * Values that mirror the real service cite api-behaviour.md.
 */
#ifndef MAUTO_LIMITS_H
#define MAUTO_LIMITS_H

/* Request size (api-behaviour.md §4): 1 MB body -> 413, 8 KB URI -> 414. */
#define MAX_BODY_BYTES		(1024 * 1024)
#define MAX_URI_BYTES		8192

/* Decoded request parts. */
#define MAX_PARAMS		1024	/* query + form parameters together */
#define MAX_PARAM_NAME_BYTES	256
#define MAX_LIST_ITEMS		1024	/* items of one list parameter */
#define MAX_JSON_DEPTH		32
#define MAX_MULTIPART_PARTS	64
#define MAX_HEADER_BYTES	4096	/* one header value we look at */
#define MAX_PATH_SEGMENTS	16
#define MAX_PATH_PARAMS		4
#define MAX_SEGMENT_BYTES	256

/* Lead database batch limits (api-behaviour.md §4). */
#define MAX_BATCH_RECORDS	300
#define MAX_FILTER_VALUES	300
#define MAX_BATCH_SIZE		300

/* Per-request scratch memory. */
#define ARENA_BLOCK_BYTES	(64 * 1024)
#define MAX_ARENA_BYTES		(64 * 1024 * 1024)

/* Response body ceiling (buffer grows up to this). */
#define MAX_RESPONSE_BYTES	(64 * 1024 * 1024)

/* Tokens (api-behaviour.md §1.1). */
#define TOKEN_LIFETIME_SECS	3600
#define TOKEN_BYTES		64	/* text form, with the suffix */
#define CLIENT_ID_BYTES		36	/* UUID text */
#define CLIENT_SECRET_BYTES	32
#define MAX_NAME_BYTES		255	/* client, role names */

/* Workers. */
#define MAX_WORKERS		256
#define MAX_HOST_ID_BYTES	64
#define MAX_HOSTS		64	/* hosts tracked by the limiter */

/* Log lines: untrusted text is escaped and cut to this. */
#define MAX_LOG_FIELD_BYTES	200

#endif /* MAUTO_LIMITS_H */
