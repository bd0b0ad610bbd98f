/*
 * Bulk export jobs (docs/behaviour.md §7): the state machine's states, the
 * file formats and filters as the API and the database name them, and
 * where a job's file lives.  Pure code: no SQL, no HTTP.
 *
 * States: Created -enqueue-> Queued -runner-> Processing -> Completed or
 * Failed; cancel takes Created, Queued and Processing to Cancelled.  The
 * service writes "Cancelled" (what real responses say) and accepts
 * "Canceled" (the swagger's enumeration) in the status filter.
 */
#ifndef MAUTO_MODEL_EXPORT_H
#define MAUTO_MODEL_EXPORT_H

#include <stdbool.h>
#include <stddef.h>

#define EXPORT_ID_LEN		36	/* lowercase UUID text */
#define EXPORT_CHECKSUM_LEN	71	/* "sha256:" and 64 hex digits */
/* A time as the repository reads it: "YYYY-MM-DD HH:MM:SS.ffffff". */
#define EXPORT_TIME_LEN		26

enum export_status {
	EXPORT_CREATED,
	EXPORT_QUEUED,
	EXPORT_PROCESSING,
	EXPORT_COMPLETED,
	EXPORT_FAILED,
	EXPORT_CANCELLED,
	EXPORT_STATUS__MAX
};

enum export_format {
	EXPORT_CSV,		/* comma */
	EXPORT_TSV,		/* tab */
	EXPORT_SSV,		/* semicolon (docs/behaviour.md §15) */
	EXPORT_FORMAT__MAX
};

enum export_filter {
	EXPORT_FILTER_UPDATED_AT,	/* records updated in a range */
	EXPORT_FILTER_STATIC_LIST,	/* records linked to a list's leads */
	EXPORT_FILTER__MAX
};

/* "Created" ... "Cancelled": the API's and the database's text. */
const char	*export_status_name(enum export_status s);
/*
 * Parses a status: exactly as export_status_name writes it (the
 * database), or with fold true in any case and with the spelling
 * "Canceled" too (the status filter of Get Jobs).  Returns 0 and *out, or
 * -1 when s is no status.
 */
int		 export_status_parse(const char *s, bool fold,
		    enum export_status *out);
/* Whether no transition leaves s (Completed, Failed, Cancelled). */
bool		 export_status_is_final(enum export_status s);

/* "CSV", "TSV", "SSV". */
const char	*export_format_name(enum export_format f);
/* Parses a format name in any case; 0 and *out, or -1. */
int		 export_format_parse(const char *s, enum export_format *out);
/* The field separator of a format. */
char		 export_format_delim(enum export_format f);
/* The Content-Type a format's file is served with. */
const char	*export_format_ctype(enum export_format f);

/* "updatedAt", "staticList": the database's filter_type text. */
const char	*export_filter_name(enum export_filter f);
int		 export_filter_parse(const char *s, enum export_filter *out);

/* Whether s is a job id as the service makes them (lowercase UUID). */
bool		 export_id_valid(const char *s);

/*
 * The path of the file of attempt attempt of job export_id in dir:
 * "<dir>/<export_id>-<attempt>.<csv|tsv|ssv>", into buf (size bytes).
 * Each attempt writes its own file, so a runner that lost its job (it
 * was paused past its lease and another took over) never touches the
 * file of the attempt that replaced it.  Returns 0, or -1 when the path
 * does not fit.
 */
int		 export_file_path(char *buf, size_t size, const char *dir,
		    const char *export_id, int attempt, enum export_format f);

#endif
