/*
 * Read helpers every repository shares: one row into binds, one integer
 * or one string of one row, every row as text (to a callback, or into an
 * arena), affected-row counts, and the column conversions that go with
 * text rows.  They run prepared statements the caller owns (db_stmt or
 * db_stmt_sql) and answer 0 or a negative repo_err, like db_exec.
 */
#ifndef MAUTO_DB_QUERY_H
#define MAUTO_DB_QUERY_H

#include <stddef.h>
#include <stdint.h>

#include <mysql.h>

struct arena;
struct db;

/*
 * Binds res to the executed statement st's result and reads one row (a
 * value cut to its buffer still counts as read).  0, -REPO_ERR_NOT_FOUND
 * when there is no row, or the error.  The result is freed.
 */
int	db_fetch_one(struct db *db, MYSQL_STMT *st, MYSQL_BIND *res,
	    const char *where);

/* Executes st with in and reads the first column of one row; NULL is 0. */
int	db_query_i64(struct db *db, MYSQL_STMT *st, MYSQL_BIND *in,
	    int64_t *out, const char *where);

/*
 * The id of the row named name: st takes the name and answers one
 * integer; *id is 0 unless found.  Ensures the connection first.
 */
int	db_query_id(struct db *db, MYSQL_STMT *st, const char *name,
	    int32_t *id, const char *where);

/*
 * Executes st with in and copies the first column of one row into buf
 * (size bytes, NUL-ended, cut when longer; "" for NULL).
 */
int	db_query_str(struct db *db, MYSQL_STMT *st, MYSQL_BIND *in, char *buf,
	    size_t size, const char *where);

/* Executes st with in; *n is the number of rows it changed. */
int	db_exec_n(struct db *db, MYSQL_STMT *st, MYSQL_BIND *in, uint64_t *n,
	    const char *where);

/*
 * The write of a text a read rendered and keeps on a row for later reads
 * (a statement that waits for no lock: "SET STATEMENT
 * innodb_lock_wait_timeout = 0 FOR UPDATE ..."), as db_exec_n; a lock a
 * change holds (1205) or a cluster's certification failure (1213) is
 * -REPO_ERR_DEADLOCK, logged at debug only: the change drops the text
 * anyway and a later read keeps one, so it is neither retried nor
 * worth an error of the request.
 */
int	db_exec_keep(struct db *db, MYSQL_STMT *st, MYSQL_BIND *in,
	    uint64_t *n, const char *where);

/*
 * Every row of the executed statement st, which has ncols columns, as
 * NUL-ended text to fn (NULL for SQL NULL; the buffers grow to any
 * length and are reused for the next row).  fn returns 0 to go on, or
 * a negative repo_err that ends the fetch and is returned.
 */
typedef int (*db_row_fn)(void *arg, char **vals, const unsigned long *lens);
int	db_fetch_rows(struct db *db, MYSQL_STMT *st, size_t ncols,
	    db_row_fn fn, void *arg, const char *where);

/* Rows as text kept in an arena: v[row * ncol + col], NULL for NULL. */
struct db_text_rows {
	const char	**v;
	size_t		 *len;
	size_t		  ncol;
	size_t		  count;
};

/*
 * Fetches every row of the executed statement st (at most max) as text
 * into the arena a.  Values longer than an inline buffer are fetched
 * again at their full length.
 */
int	db_fetch_text(struct db *db, MYSQL_STMT *st, struct arena *a,
	    size_t ncol, size_t max, const char *where,
	    struct db_text_rows *out);

/* Executes st with in, then db_fetch_text: the rows of one query. */
int	db_select_text(struct db *db, MYSQL_STMT *st, MYSQL_BIND *in,
	    struct arena *a, size_t ncol, size_t max, const char *where,
	    struct db_text_rows *out);

/*
 * Executes st with in, reads the ids of its first column (at most max),
 * then calls fn(db, id, arg) for each in order, stopping at the first
 * that fails: a change made one row at a time, in the caller's
 * transaction, to the rows a query found (the result is read whole
 * before fn runs, so fn may run statements).  0 or the first error.
 */
int	db_each_id(struct db *db, MYSQL_STMT *st, MYSQL_BIND *in, size_t max,
	    int (*fn)(struct db *, int32_t, void *), void *arg,
	    const char *where);

/*
 * Binds b[0] and b[1] as bind_str_twice does to the JSON array text of
 * the n values a filter asks for: the integers ids when not NULL, else
 * the strings s; NULL (no filter) when n is 0.  One statement then
 * serves every combination of filters: "(? IS NULL OR JSON_CONTAINS(?,
 * ...))".  The text is kept in the arena a, its length in *len.
 * -REPO_ERR_INTERNAL when out of memory, else 0.
 */
int		 db_bind_json_list(MYSQL_BIND *b, struct arena *a,
		    const int64_t *ids, const char *const *s, size_t n,
		    unsigned long *len);

/*
 * Sorts the rows of t by the integer values of columns keys[0..nkeys-1]
 * (db_text_i64), ascending, rows of equal keys in the order they came;
 * the row arrays are new ones from the arena a.  For the ordered reads
 * of a join whose ORDER BY would name columns of two tables: MariaDB
 * sorts those in an internal temporary table, a file on disk when a
 * TEXT column is selected, and a few rows sort here for far less.
 * -REPO_ERR_INTERNAL when out of memory, else 0.
 */
int		 db_text_sort(struct db_text_rows *t, struct arena *a,
		    const size_t *keys, size_t nkeys);

/* A value of a text row: as an integer (0 for NULL or not a number). */
int64_t		 db_text_i64(const struct db_text_rows *t, size_t row,
		    size_t col);
/* A value of a text row, or NULL. */
const char	*db_text_str(const struct db_text_rows *t, size_t row,
		    size_t col);

/* A NUL-ended column value as an integer (0 for NULL or not a number). */
int64_t		 db_col_i64(const char *s);
/* A heap copy of a column value, or NULL for NULL. */
char		*db_col_dup(const char *s);

/*
 * Copies src (NULL: none), at most len bytes and up to a NUL, into dst of
 * size bytes, cut to fit and NUL-ended: the times MariaDB writes as text
 * go into fixed buffers this way (SIZE_MAX for a NUL-ended src).
 */
void		 db_copy_text(char *dst, size_t size, const char *src,
		    size_t len);

#endif
