/*
 * The service's errors, on the ground floor so every layer can name them:
 * enum api_err (what a request answers; one table maps each to the HTTP
 * status, the service's error code and its message, docs/behaviour.md §3),
 * enum repo_err (what a repository reports), and the mapping from the
 * second to the first.  Functions return 0 or a negative api_err/repo_err.
 */
#ifndef MAUTO_ERR_H
#define MAUTO_ERR_H

enum api_err {
	API_OK = 0,
	API_ERR_SYSTEM,			/* 611 System error */
	API_ERR_NO_TOKEN,		/* 600 */
	API_ERR_TOKEN_INVALID,		/* 601 */
	API_ERR_TOKEN_EXPIRED,		/* 602 */
	API_ERR_ACCESS_DENIED,		/* 603 */
	API_ERR_TIMEOUT,		/* 604 */
	API_ERR_METHOD,			/* 605 */
	API_ERR_RATE_LIMIT,		/* 606 */
	API_ERR_DAILY_QUOTA,		/* 607 */
	API_ERR_UNAVAILABLE,		/* 608 */
	API_ERR_BAD_JSON,		/* 609 */
	API_ERR_NOT_FOUND,		/* 610 */
	API_ERR_CONTENT_TYPE,		/* 612 */
	API_ERR_MULTIPART,		/* 613 */
	API_ERR_CONCURRENCY,		/* 615 */
	API_ERR_NOT_IMPLEMENTED,	/* 703, see api_pending.c */
	API_ERR_BAD_REQUEST,		/* HTTP 400: malformed transport */
	API_ERR_TOO_LARGE,		/* HTTP 413 */
	API_ERR_URI_TOO_LONG,		/* HTTP 414 */
	API_ERR_BLANK,			/* 701 "%s cannot be blank" */
	API_ERR_NO_DATA,		/* 702 */
	API_ERR_BAD_DATE,		/* 704 Invalid date format */
	API_ERR_RULE,			/* 709 business rule, with its own message */
	API_ERR_NO_PARENT,		/* 710 Parent Folder Not Found */
	API_ERR_FOLDER_TYPE,		/* 711 Incompatible Folder Type */
	API_ERR_INVALID_VALUE,		/* 1001 */
	API_ERR_MISSING_PARAM,		/* 1002 */
	API_ERR_INVALID_REQUEST,	/* 1003 */
	API_ERR_LEAD_NOT_FOUND,		/* 1004 */
	API_ERR_FIELD_NOT_FOUND,	/* 1006 */
	API_ERR_FIELD_NOT_SUPPORTED,	/* 1011 */
	API_ERR_INVALID_COOKIE,		/* 1012 */
	API_ERR_OBJECT_NOT_FOUND,	/* 1013 */
	API_ERR_MERGE_LIMIT,		/* 1080 */
	API_ERR_CO_DISCARD,		/* 1048 Custom Object Discard Draft Failed */
	API_ERR_STATUS_NOT_FOUND,	/* 1025 Program status not found */
	API_ERR_EXPORT_LIMIT,		/* 1029 bulk export queue/quota/state */
	API_ERR_FILTER_UNSUPPORTED,	/* 1035 */
	API_ERR_CLONE_LIMIT,		/* 1020 Too many clones to program */
	API_ERR_RUN_AT,			/* 1042 Invalid runAt date */
	API_ERR_OAUTH_INVALID_CLIENT,	/* HTTP 401 identity */
	API_ERR_OAUTH_INVALID_REQUEST,	/* HTTP 400 identity */
	API_ERR_OAUTH_UNSUPPORTED_GRANT,/* HTTP 400 identity */
	API_ERR__MAX
};

enum repo_err {
	REPO_OK = 0,
	REPO_ERR_INTERNAL,	/* anything unexpected; logged where seen */
	REPO_ERR_NOT_FOUND,
	REPO_ERR_CONFLICT,	/* duplicate key; 1451: row referenced */
	REPO_ERR_GONE,		/* 1452: a row the write refers to is gone */
	REPO_ERR_INVALID,	/* value refused by the schema */
	REPO_ERR_DEADLOCK,	/* 1213 / 1205: re-run the transaction */
	REPO_ERR_CONN,		/* 2006 / 2013: connection lost; outcome unknown */
	REPO_ERR_UNAVAILABLE,	/* 1047 / 1180 / 2002 / 2003: node not usable */
	REPO_ERR__MAX
};

struct err_info {
	int		 http_status;
	const char	*code;		/* service code, a string on the wire */
	const char	*message;	/* default message */
	const char	*oauth_error;	/* identity endpoint: "error" member */
};

/*
 * Returns the table row of err (positive or negative).  Unknown values map
 * to the API_ERR_SYSTEM row; never NULL.
 */
const struct err_info *err_lookup(int err);

/*
 * Maps a repo_err (positive or negative) to the negative api_err a
 * handler returns: NOT_FOUND is 702, GONE (a row the write refers to was
 * deleted) a 709 refusal that the handler may word, a deadlock that
 * outlived its retries 604, a lost or unusable connection 608, anything
 * else 611.
 */
int	err_from_repo(int repo_err);

#endif /* MAUTO_ERR_H */
