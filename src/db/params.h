/*
 * Statements whose text is built at run time (a placeholder per value of
 * a batch, columns named from a catalogue): the parameter array of one
 * such statement, the padded IN lists that keep few texts in the
 * per-connection cache (db_stmt_sql), and running the text.
 *
 * Values are always bound, never pasted into the text.  A params is
 * sized by params_init for the placeholders the caller writes and freed
 * by params_clear; the bound values live in it until then.
 */
#ifndef MAUTO_DB_PARAMS_H
#define MAUTO_DB_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include <mysql.h>

struct arena;
struct buf;
struct db;
struct db_text_rows;

/* Parameter arrays for one statement, freed together. */
struct params {
	MYSQL_BIND	*b;
	unsigned long	*len;		/* string lengths, kept until execute */
	int64_t		*i;		/* integer scratch values */
	size_t		 n, cap;
};

/* Sizes p for cap placeholders (none bound yet). */
void		 params_init(struct params *p, size_t cap);
/* Frees p's arrays; p may be cleared again or initialised anew. */
void		 params_clear(struct params *p);

/*
 * The next placeholder and its index into *k (for len[] and i[]); the
 * caller sized p, so this never goes past cap (the last is reused).
 */
MYSQL_BIND	*params_next(struct params *p, size_t *k);
void		 params_i64(struct params *p, int64_t v);
void		 params_u64(struct params *p, uint64_t v);
/* A string, NULL for SQL NULL; s must live until execute. */
void		 params_str(struct params *p, const char *s);
void		 params_null(struct params *p);
/* Binds the n ids, then NULL up to np (a padded IN list, np >= n). */
void		 params_ids(struct params *p, const int64_t *ids, size_t n,
		    size_t np);

/*
 * The size an IN list of n values is padded to (with NULL, which equals
 * nothing): 1, 10, 50, 100 or MAX_BATCH_RECORDS; 0 when n is over that.
 */
size_t		 params_padded(size_t n);
/*
 * Appends " IN (?,...)" padded for n ids (params_padded) to b and binds
 * the ids, then NULLs, to p.  0, or -REPO_ERR_INVALID when n is over
 * what an IN list is padded to (MAX_BATCH_RECORDS; nothing appended or
 * bound).
 */
int		 params_in_ids(struct buf *b, struct params *p,
		    const int64_t *ids, size_t n);
/* Appends "?,?,?" with n marks to b. */
void		 params_add_marks(struct buf *b, size_t n);
/*
 * The rows one multi-row statement takes, at per_row placeholders a
 * row, so it stays under MAX_STMT_PARAMS (at least 1).
 */
size_t		 params_rows_per_stmt(size_t per_row);

/*
 * The cached statement for the text in b, where naming the caller in
 * the log; NULL when b overflowed or the text cannot be prepared.
 */
MYSQL_STMT	*params_stmt(struct db *db, struct buf *b, const char *where);
/*
 * Executes st (from params_stmt; NULL gives its error) with p's values,
 * without a result.  Returns 0 or a negative repo_err.
 */
int		 params_exec(struct db *db, MYSQL_STMT *st, struct params *p,
		    const char *where);
/*
 * Executes st with p's values (p may be NULL) and fetches up to max rows
 * of ncol columns as text in the arena a into *out.  Returns 0 or a
 * negative repo_err.
 */
int		 params_query(struct db *db, MYSQL_STMT *st, struct params *p,
		    struct arena *a, size_t ncol, size_t max, const char *where,
		    struct db_text_rows *out);

#endif
