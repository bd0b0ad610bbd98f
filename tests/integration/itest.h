/*
 * Shared pieces of the integration tests: the test database settings from
 * MAUTO_TEST_DB_* (tests/harness/mariadb.sh), and fixture SQL.
 */
#ifndef MAUTO_TESTS_ITEST_H
#define MAUTO_TESTS_ITEST_H

#include <stdint.h>

struct config;
struct db;

/*
 * Fills cfg (zeroed first) with the test database and the defaults the
 * repositories need.  Returns -1 when the variables are not set, so the
 * caller exits 77 (automake's SKIP).
 */
int	itest_config(struct config *cfg);
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
