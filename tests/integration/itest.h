/*
 * Shared pieces of the integration tests: the test database settings from
 * MAUTO_TEST_DB_* (tests/harness/mariadb.sh), and fixture SQL.
 */
#ifndef MAUTO_TESTS_ITEST_H
#define MAUTO_TESTS_ITEST_H

#include <stddef.h>
#include <stdint.h>

struct arena;
struct config;
struct db;

/*
 * Fills cfg (zeroed first) with the test database and the defaults the
 * repositories need.  Returns -1 when the variables are not set, so the
 * caller exits 77 (automake's SKIP).
 */
int	itest_config(struct config *cfg);
/*
 * What a group's setup shares: with a non-NULL tag (tagsz bytes), the
 * process id as text in it (the suffix that keeps this run's names apart
 * from another's); with a non-NULL a, the arena initialised; then *db
 * opened on cfg with every statement prepared.  0, or -1 when the
 * database cannot be opened (cmocka then fails the group).
 */
int	itest_open(struct db **db, const struct config *cfg, struct arena *a,
	    char *tag, size_t tagsz);
/*
 * What itest_open set up, undone: a cleared (when non-NULL), db closed
 * (NULL is fine).  Returns 0, a group teardown's result.
 */
int	itest_close(struct db *db, struct arena *a);
/* Runs a fixture statement; fails the running test on error. */
void	itest_sql(struct db *db, const char *q);
/* itest_sql of the statement fmt makes (printf; up to 1 KiB). */
void	itest_sqlf(struct db *db, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/*
 * The first column of the first row of the query fmt makes (printf; up
 * to 1 KiB) as an integer, -1 when there is none (NULL, no row); fails
 * the running test on error.
 */
int64_t	itest_count(struct db *db, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

#endif
