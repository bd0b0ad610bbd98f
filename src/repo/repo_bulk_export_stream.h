/*
 * The records of a bulk export, streamed: what a runner
 * (src/export/runner.c) writes into an export's file, selected from a
 * custom object type's record table with the job's filter.
 */
#ifndef MAUTO_REPO_REPO_BULK_EXPORT_STREAM_H
#define MAUTO_REPO_REPO_BULK_EXPORT_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/cotype.h"
#include "model/export.h"

struct db;

/* A column of an export: a record column and how to write it. */
struct export_column {
	const char	*name;		/* record column (checked API name) */
	enum co_dtype	 type;
};

/* What to select. */
struct export_select {
	const char			*table;	/* "co_rec_<id>" */
	const struct export_column	*cols;
	size_t				 ncols;
	enum export_filter		 filter;
	const char			*start;	/* updatedAt range, inclusive */
	const char			*end;
	int32_t				 list_id;
	const char			*link_field;
	bool				 link_by_email;	/* lead email */
};

struct export_stream;

/*
 * Runs the selection of sel on db, a connection of its own: rows are
 * fetched one at a time as they come (unbuffered), so the memory used
 * does not depend on the number of records.  Values come as text in the
 * API's form (datetimes "YYYY-MM-DDTHH:MM:SSZ", booleans true/false).
 * Returns 0 and an owned *out, or a negative repo_err.  Names in sel are
 * checked again ([A-Za-z0-9_] only) before they are put into the SQL.
 */
int	repo_bulk_export_stream_open(struct db *db,
	    const struct export_select *sel, struct export_stream **out);

/*
 * The next row: vals[i] (NULL for NULL) and lens[i] for each column,
 * borrowed until the next call.  Returns 1 with a row, 0 at the end, or
 * a negative repo_err.
 */
int	repo_bulk_export_stream_next(struct export_stream *s,
	    const char *const **vals, const unsigned long **lens);

/*
 * Ends the stream; NULL is fine.  Closing the statement of a stream not
 * read to its end makes the client library read (and drop) the rest of
 * the rows, so a caller that stops early closes the connection first
 * (db_close), which leaves the statement nothing to read: the runner
 * opens a connection per job and always does so.
 */
void	repo_bulk_export_stream_close(struct export_stream *s);

#endif
