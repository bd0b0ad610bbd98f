/*
 * The names of export states, formats and filters (tables, docs/style.md §0),
 * and the job file naming.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "model/export.h"

static const char *const status_names[EXPORT_STATUS__MAX] = {
	[EXPORT_CREATED] = "Created",
	[EXPORT_QUEUED] = "Queued",
	[EXPORT_PROCESSING] = "Processing",
	[EXPORT_COMPLETED] = "Completed",
	[EXPORT_FAILED] = "Failed",
	[EXPORT_CANCELLED] = "Cancelled",
};

static_assert(sizeof(status_names) / sizeof(status_names[0]) ==
    EXPORT_STATUS__MAX, "one name per export status");

struct format_info {
	const char	*name;
	char		 delim;
	const char	*ext;
	const char	*ctype;
};

static const struct format_info formats[EXPORT_FORMAT__MAX] = {
	[EXPORT_CSV] = { "CSV", ',', "csv", "text/csv;charset=UTF-8" },
	[EXPORT_TSV] = { "TSV", '\t', "tsv", "text/plain;charset=UTF-8" },
	[EXPORT_SSV] = { "SSV", ';', "ssv", "text/plain;charset=UTF-8" },
};

static_assert(sizeof(formats) / sizeof(formats[0]) == EXPORT_FORMAT__MAX,
    "one row per export format");

static const char *const filter_names[EXPORT_FILTER__MAX] = {
	[EXPORT_FILTER_UPDATED_AT] = "updatedAt",
	[EXPORT_FILTER_STATIC_LIST] = "staticList",
};

/* See export.h. */
const char *
export_status_name(enum export_status s)
{
	return (unsigned)s < EXPORT_STATUS__MAX ? status_names[s] : "Failed";
}

/* See export.h. */
int
export_status_parse(const char *s, bool fold, enum export_status *out)
{
	size_t i;
	int r = -1;

	for (i = 0; i < EXPORT_STATUS__MAX && r != 0; i++)
		if (fold ? strcasecmp(s, status_names[i]) == 0 :
		    strcmp(s, status_names[i]) == 0) {
			*out = (enum export_status)i;
			r = 0;
		}
	if (r != 0 && fold && strcasecmp(s, "Canceled") == 0) {
		*out = EXPORT_CANCELLED;
		r = 0;
	}
	return r;
}

/* See export.h. */
bool
export_status_is_final(enum export_status s)
{
	return s == EXPORT_COMPLETED || s == EXPORT_FAILED ||
	    s == EXPORT_CANCELLED;
}

/* See export.h. */
const char *
export_format_name(enum export_format f)
{
	return formats[(unsigned)f < EXPORT_FORMAT__MAX ? f : EXPORT_CSV].name;
}

/* See export.h. */
int
export_format_parse(const char *s, enum export_format *out)
{
	size_t i;
	int r = -1;

	for (i = 0; i < EXPORT_FORMAT__MAX && r != 0; i++)
		if (strcasecmp(s, formats[i].name) == 0) {
			*out = (enum export_format)i;
			r = 0;
		}
	return r;
}

/* See export.h. */
char
export_format_delim(enum export_format f)
{
	return formats[(unsigned)f < EXPORT_FORMAT__MAX ? f : EXPORT_CSV].delim;
}

/* See export.h. */
const char *
export_format_ctype(enum export_format f)
{
	return formats[(unsigned)f < EXPORT_FORMAT__MAX ? f : EXPORT_CSV].ctype;
}

/* See export.h. */
const char *
export_filter_name(enum export_filter f)
{
	return (unsigned)f < EXPORT_FILTER__MAX ? filter_names[f] : "";
}

/* See export.h. */
int
export_filter_parse(const char *s, enum export_filter *out)
{
	size_t i;
	int r = -1;

	for (i = 0; i < EXPORT_FILTER__MAX && r != 0; i++)
		if (strcmp(s, filter_names[i]) == 0) {
			*out = (enum export_filter)i;
			r = 0;
		}
	return r;
}

/* See export.h. */
bool
export_id_valid(const char *s)
{
	bool ok = strlen(s) == EXPORT_ID_LEN;
	size_t i;

	for (i = 0; ok && i < EXPORT_ID_LEN; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23)
			ok = s[i] == '-';
		else
			ok = (s[i] >= '0' && s[i] <= '9') ||
			    (s[i] >= 'a' && s[i] <= 'f');
	}
	return ok;
}

/* See export.h. */
int
export_file_path(char *buf, size_t size, const char *dir,
    const char *export_id, int attempt, enum export_format f)
{
	int n;

	n = snprintf(buf, size, "%s/%s-%d.%s", dir, export_id, attempt,
	    formats[(unsigned)f < EXPORT_FORMAT__MAX ? f : EXPORT_CSV].ext);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}
