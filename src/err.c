/*
 * The one error table (docs/style.md §4).  Messages are the real service's
 * (docs/behaviour.md §3.2); handlers may override a message with a more
 * specific one through resp_error_msg(), never with library or SQL text.
 */
#include <assert.h>
#include <stddef.h>

#include "err.h"

static const struct err_info table[API_ERR__MAX] = {
	[API_OK] =			{ 200, NULL, NULL, NULL },
	[API_ERR_SYSTEM] =		{ 200, "611", "System error", NULL },
	[API_ERR_NO_TOKEN] =		{ 200, "600", "Access token not specified", NULL },
	[API_ERR_TOKEN_INVALID] =	{ 200, "601", "Access token invalid", NULL },
	[API_ERR_TOKEN_EXPIRED] =	{ 200, "602", "Access token expired", NULL },
	[API_ERR_ACCESS_DENIED] =	{ 200, "603", "Access denied", NULL },
	[API_ERR_TIMEOUT] =		{ 200, "604", "Request time-out", NULL },
	[API_ERR_METHOD] =		{ 200, "605", "HTTP Method not supported", NULL },
	[API_ERR_RATE_LIMIT] =		{ 200, "606", "Max rate limit exceeded", NULL },
	[API_ERR_DAILY_QUOTA] =		{ 200, "607", "Daily quota reached", NULL },
	[API_ERR_UNAVAILABLE] =		{ 200, "608", "API Temporarily Unavailable", NULL },
	[API_ERR_BAD_JSON] =		{ 200, "609", "Invalid JSON", NULL },
	[API_ERR_NOT_FOUND] =		{ 200, "610", "Requested resource not found", NULL },
	[API_ERR_CONTENT_TYPE] =	{ 200, "612", "Invalid Content Type", NULL },
	[API_ERR_MULTIPART] =		{ 200, "613", "Invalid Multipart Request", NULL },
	[API_ERR_CONCURRENCY] =		{ 200, "615", "Concurrent access limit reached", NULL },
	[API_ERR_NOT_IMPLEMENTED] =	{ 200, "703", "Not implemented", NULL },
	[API_ERR_BAD_REQUEST] =		{ 400, "611", "Bad request", NULL },
	[API_ERR_TOO_LARGE] =		{ 413, "611", "Request entity too large", NULL },
	[API_ERR_URI_TOO_LONG] =	{ 414, "611", "Request-URI too long", NULL },
	[API_ERR_BLANK] =		{ 200, "701", "Value cannot be blank", NULL },
	[API_ERR_NO_DATA] =		{ 200, "702", "No data found for a given search scenario", NULL },
	[API_ERR_BAD_DATE] =		{ 200, "704", "Invalid date format", NULL },
	[API_ERR_RULE] =		{ 200, "709", "Business Rule Violation", NULL },
	[API_ERR_NO_PARENT] =		{ 200, "710", "Parent Folder Not Found", NULL },
	[API_ERR_FOLDER_TYPE] =		{ 200, "711", "Incompatible Folder Type", NULL },
	[API_ERR_INVALID_VALUE] =	{ 200, "1001", "Invalid value", NULL },
	[API_ERR_MISSING_PARAM] =	{ 200, "1002", "Missing value for required parameter", NULL },
	[API_ERR_INVALID_REQUEST] =	{ 200, "1003", "Invalid request. Please check and try again.", NULL },
	[API_ERR_LEAD_NOT_FOUND] =	{ 200, "1004", "Lead not found", NULL },
	[API_ERR_FIELD_NOT_FOUND] =	{ 200, "1006", "Field not found", NULL },
	[API_ERR_FIELD_NOT_SUPPORTED] =	{ 200, "1011", "Field not supported", NULL },
	[API_ERR_INVALID_COOKIE] =	{ 200, "1012", "Invalid cookie value", NULL },
	[API_ERR_OBJECT_NOT_FOUND] =	{ 200, "1013", "Object not found", NULL },
	[API_ERR_MERGE_LIMIT] =		{ 200, "1080", "Too many leads to merge", NULL },
	[API_ERR_CO_DISCARD] =		{ 200, "1048", "Custom Object Discard Draft Failed", NULL },
	[API_ERR_STATUS_NOT_FOUND] =	{ 200, "1025", "Program status not found", NULL },
	[API_ERR_EXPORT_LIMIT] =	{ 200, "1029", "Too many jobs in queue", NULL },
	[API_ERR_FILTER_UNSUPPORTED] =	{ 200, "1035", "Unsupported filter type for target subscription", NULL },
	[API_ERR_CLONE_LIMIT] =		{ 200, "1020", "Too many clones to program", NULL },
	[API_ERR_RUN_AT] =		{ 200, "1042", "Invalid runAt date", NULL },
	[API_ERR_OAUTH_INVALID_CLIENT] = { 401, NULL, "Bad client credentials", "invalid_client" },
	[API_ERR_OAUTH_INVALID_REQUEST] = { 400, NULL, "Missing grant type", "invalid_request" },
	[API_ERR_OAUTH_UNSUPPORTED_GRANT] = { 400, NULL, "Unsupported grant type", "unsupported_grant_type" },
};

static_assert(sizeof(table) / sizeof(table[0]) == API_ERR__MAX,
    "error table must have one row per api_err");

const struct err_info *
err_lookup(int err)
{
	if (err < 0)
		err = -err;
	if (err <= 0 || err >= API_ERR__MAX || table[err].message == NULL)
		return &table[API_ERR_SYSTEM];
	return &table[err];
}

/* See err.h. */
int
err_from_repo(int repo_err)
{
	if (repo_err < 0)
		repo_err = -repo_err;
	switch (repo_err) {
	case REPO_OK:
		return 0;
	case REPO_ERR_NOT_FOUND:
		return -API_ERR_NO_DATA;
	case REPO_ERR_GONE:
		return -API_ERR_RULE;
	case REPO_ERR_DEADLOCK:
		return -API_ERR_TIMEOUT;
	case REPO_ERR_CONN:
	case REPO_ERR_UNAVAILABLE:
		return -API_ERR_UNAVAILABLE;
	default:
		return -API_ERR_SYSTEM;
	}
}
