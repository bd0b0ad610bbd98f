/*
 * The export file writer: delimited text (CSV, TSV, SSV) written through
 * a fixed buffer to a file descriptor, with the byte count and the
 * SHA-256 of everything written kept on the way, so the file is never
 * read back and never held in memory.
 *
 * Format (docs/behaviour.md §7.2): one header row, then one row per
 * record, rows ended by "\n".  A value is quoted as RFC 4180 says (in
 * double quotes, inner quotes doubled) when it holds the separator, a
 * double quote, CR or LF, or is the text "null"; a NULL or empty value
 * is written as the bare word null, as the real service does.
 */
#ifndef MAUTO_EXPORT_CSV_H
#define MAUTO_EXPORT_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <sodium.h>

#include "model/export.h"
#include "bounds.h"

struct csv_writer {
	int			 fd;		/* borrowed */
	char			 delim;
	bool			 row_open;	/* a field was written */
	int			 err;		/* errno of the first failure */
	size_t			 len;		/* bytes in buf */
	int64_t			 bytes;		/* bytes written to fd */
	int64_t			 rows;		/* rows ended */
	crypto_hash_sha256_state sha;
	char			 buf[EXPORT_IO_BYTES];
};

/* Prepares w to write to fd (borrowed) with the separator delim. */
void	csv_writer_init(struct csv_writer *w, int fd, char delim);

/*
 * Appends one field to the current row: n bytes at v, or null when v is
 * NULL or n is 0.  Errors are sticky: see csv_writer_finish.
 */
void	csv_field(struct csv_writer *w, const char *v, size_t n);
/* Ends the current row. */
void	csv_row_end(struct csv_writer *w);

/*
 * Writes what is buffered and the checksum "sha256:<hex>" into
 * checksum.  Returns 0, or -1 when a write failed (w->err says why).
 * The caller closes the descriptor.
 */
int	csv_writer_finish(struct csv_writer *w,
	    char checksum[EXPORT_CHECKSUM_LEN + 1]);

#endif
