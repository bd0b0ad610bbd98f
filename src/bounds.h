/*
 * Every API-visible bound of the service (sizes, lengths, counts), in one place (docs/style.md §6).
 * Values that mirror the real service cite docs/behaviour.md.
 */
#ifndef MAUTO_BOUNDS_H
#define MAUTO_BOUNDS_H

/* Request size (docs/behaviour.md §4): 1 MB body -> 413, 8 KB URI -> 414. */
#define MAX_BODY_BYTES		(1024 * 1024)
#define MAX_URI_BYTES		8192

/*
 * The hosted service's limits (docs/behaviour.md §4), the defaults of
 * rate_limit_calls, rate_limit_window and concurrency_limit.
 */
#define HOSTED_RATE_CALLS	100
#define HOSTED_RATE_WINDOW	20	/* seconds */
#define HOSTED_CONCURRENCY	10

/* X-Mauto-Fault: delay=MS (src/http/fault.c) waits at most this long. */
#define MAX_FAULT_DELAY_MS	30000

/* Decoded request parts. */
#define MAX_PARAMS		1024	/* query + form parameters together */
#define MAX_PARAM_NAME_BYTES	256
#define MAX_PARAM_VALUE_BYTES	65536	/* a text parameter, unless its descriptor says */
#define MAX_LIST_ITEMS		1024	/* items of one list parameter */
#define MAX_JSON_DEPTH		32
#define MAX_MULTIPART_PARTS	64
#define MAX_HEADER_BYTES	4096	/* one header value we look at */
#define MAX_PATH_SEGMENTS	16
#define MAX_PATH_PARAMS		4
#define MAX_SEGMENT_BYTES	256

/* Lead database batch limits (docs/behaviour.md §4). */
#define MAX_BATCH_RECORDS	300
#define MAX_FILTER_VALUES	300
#define MAX_BATCH_SIZE		300
/* Get Lead Activities: activityTypeIds, assetIds and leadIds at most. */
#define MAX_ACTIVITY_TYPE_IDS	10
#define MAX_ACTIVITY_ASSET_IDS	10
#define MAX_ACTIVITY_LEAD_IDS	30
/* Activity ids one page of the activity reads scans at most. */
#define ACTIVITY_SCAN_IDS	50000
/* A listId with this many members or more is refused (1003). */
#define MAX_ACTIVITY_LIST_MEMBERS	10000
/* Leads core (api_leads.c, repo_leads.c). */
#define MAX_FILTER_MATCHES	1000	/* more: 1003 "Too many results" (§5.3) */
#define MAX_STMT_PARAMS		60000	/* placeholders of one statement (65535) */

/* Lead field schema (docs/behaviour.md §4, §5.12). */
#define MAX_CREATE_FIELDS	100	/* records of one Create Lead Fields */
#define MAX_FIELD_NAME_CHARS	50	/* a custom field's API name */
#define MAX_LEAD_INDEXES	60	/* custom fields indexed while fewer */
#define LEAD_DDL_WAIT_SECS	10	/* ALTER TABLE lead waits for its lock */

/* Programs, lists, forms, merge, cookies (api_lead_membership.c, mautoctl). */
#define MAX_MERGE_LOSERS	25	/* leadIds of Merge Leads (§5.6) */
#define MAX_PROGRAM_STATUSES	64	/* statuses of one program */
#define MAX_FORM_FIELDS		128	/* fields of one form */
#define MAX_OBJECT_NAME_BYTES	255	/* program, list, form, partition */
#define MAX_COOKIE_BYTES	255	/* a _mkto_trk value (lead_cookie) */

/* Per-request scratch memory. */
#define ARENA_BLOCK_BYTES	(64 * 1024)
#define MAX_ARENA_BYTES		(64 * 1024 * 1024)

/* Response body ceiling (buffer grows up to this). */
#define MAX_RESPONSE_BYTES	(64 * 1024 * 1024)

/* Tokens (docs/behaviour.md §1.1). */
#define TOKEN_LIFETIME_SECS	3600
#define TOKEN_BYTES		64	/* text form, with the suffix */
#define CLIENT_ID_BYTES		36	/* UUID text */
#define CLIENT_SECRET_BYTES	32
#define CLIENT_SECRET_MIN_BYTES	16	/* mautoctl client create --secret */
#define MAX_NAME_BYTES		255	/* client, role names */

/* Assets (docs/assets.md). */
#define ASSET_MAX_RETURN_DEFAULT 20	/* browse: maxReturn when not given */
#define ASSET_MAX_RETURN	200	/* browse: the largest maxReturn */
#define ASSET_NAME_CHARS	255	/* asset and folder names */
/* An email module instance's id (four bytes a character), NUL included. */
#define MOD_ID_BYTES		(ASSET_NAME_CHARS * 4 + 1)
#define ASSET_DESCRIPTION_CHARS	2000
#define MAX_FOLDERS_LISTED	100000	/* mautoctl folder list */
#define FOLDER_BROWSE_DEPTH	2	/* Get Folders: maxDepth when not given */
/* Emails v2 (docs/behaviour.md §9): pages and bulk calls. */
#define EMAIL2_PAGE_DEFAULT	20	/* List Emails, Used By: pageSize */
#define EMAIL2_PAGE_MAX		50
#define EMAIL2_BULK_MAX		20	/* Bulk Get and Bulk Delete: ids */
#define EMAIL2_BULK_USEDBY_MAX	50	/* Bulk Used By: ids */

/* Workers. */
#define MAX_WORKERS		256
#define MAX_HOST_ID_BYTES	64
/*
 * Guessing a client secret: after AUTH_FAIL_MAX wrong secrets for one
 * client id within AUTH_FAIL_WINDOW_MS, that client id's wrong-looking
 * secrets are refused without the Argon2 check for AUTH_LOCK_MS.  The
 * secret last verified for that client id on this host is still
 * accepted (token.c).  AUTH_FAIL_SLOTS client ids are tracked per host;
 * the one whose count began longest ago gives way.
 */
#define AUTH_FAIL_MAX		5
#define AUTH_FAIL_WINDOW_MS	(60 * 1000)
#define AUTH_LOCK_MS		(60 * 1000)
#define AUTH_FAIL_SLOTS		64
#define AUTH_FAIL_ID_BYTES	64	/* longer client ids are cut */
#define AUTH_DIGEST_BYTES	32	/* keyed digest of a verified secret */
#define MAX_HOSTS		64	/* hosts tracked by the limiter */

/* Bulk export of custom objects (docs/behaviour.md §4, §7; src/export/). */
#define EXPORT_SLOTS		2	/* jobs Processing at once (export_slot rows) */
#define EXPORT_MAX_QUEUED	10	/* Queued + Processing, whole instance */
#define EXPORT_MAX_FIELDS	100	/* fields of one job */
#define EXPORT_MAX_HEADER_CHARS	255	/* a columnHeaderNames value */
#define EXPORT_MAX_RANGE_DAYS	31	/* updatedAt filter span */
#define EXPORT_LIST_DAYS	7	/* Get Jobs looks back this far */
#define EXPORT_FILE_DAYS	7	/* a file is kept this long */
#define EXPORT_STATUS_DAYS	30	/* a job row is kept this long */
#define EXPORT_MAX_ATTEMPTS	3	/* runner deaths before a job fails */
#define EXPORT_MAX_VALUE_BYTES	(1024 * 1024)	/* one exported value */
#define EXPORT_IO_BYTES		(64 * 1024)	/* file write/read chunk */

/* Mail (src/mail/): one message as sent and kept (outbox.message). */
#define MAIL_MAX_BYTES		(16 * 1024 * 1024 - 1)	/* MEDIUMTEXT */
#define MAIL_ADDRESS_BYTES	254	/* RFC 5321 §4.5.3.1.3 path */
#define MAIL_SUBJECT_BYTES	1000	/* outbox.subject */
#define MAIL_REPLY_BYTES	1000	/* the relay's reply kept */

/*
 * Pages of browse answers the workers of a host keep (util/pagecache.c):
 * slots (two to a set), the largest page and the longest key kept.  The
 * mapping is reserved, not committed: a slot costs memory only as far as
 * the pages written to it reach.
 */
#define PAGECACHE_SLOTS		2048
#define PAGECACHE_PAGE_BYTES	(128 * 1024)
#define PAGECACHE_KEY_BYTES	96

/*
 * Email templates a worker keeps copies of for the emails made from them
 * (repo_etpl_get_used): templates, and all their bytes.
 */
#define ETPL_CACHE_ENTRIES	16
#define ETPL_CACHE_BYTES	(32 * 1024 * 1024)

/* Folder names a worker keeps (repo_folders_names), by id. */
#define FOLDER_NAMES_CACHE	1024
/* How long a worker trusts a folder name it read (repo_folders_names). */
#define FOLDER_NAMES_TTL_MS	5000

/* Log lines: untrusted text is escaped and cut to this. */
#define MAX_LOG_FIELD_BYTES	200

#endif /* MAUTO_BOUNDS_H */
