/*
 * The usage and error statistics (migration 0024_api_stats.sql): each
 * host adds the calls and errors it counted since its last flush to its
 * own rows (src/auth/ratelimit.c flushes them with the limits); the
 * statistics operations (src/api/api_stats.c) read the sums of every
 * host's rows.  The only reader and writer of api_stats_host.
 */
#ifndef MAUTO_REPO_REPO_STATS_H
#define MAUTO_REPO_REPO_STATS_H

#include <stddef.h>
#include <stdint.h>

struct arena;
struct db;
struct db_text_rows;

/* What a row counts. */
enum stats_kind {
	STATS_CALLS = 1,	/* item: the API client's row id (auth_client) */
	STATS_ERRORS = 2,	/* item: the error code */
};

/* The columns of repo_stats_read's rows. */
enum stats_col {
	STATS_COL_DAY,		/* day_key, yyyymmdd */
	STATS_COL_ITEM,		/* calls: the API user (scope); errors: code */
	STATS_COL_COUNT,
	STATS_COL__N
};

/* A count to add to a host's row (day_key, kind, item). */
struct stats_row {
	int32_t		 day_key;	/* yyyymmdd */
	int32_t		 kind;		/* enum stats_kind */
	int64_t		 item;
	int64_t		 n;
};

/*
 * Adds rows[i].n to host's row (day_key, kind, item) for each of the n
 * rows, making it when absent, all in one transaction (one write set on
 * Galera).  Returns 0 (all added) or a negative repo_err (none added, or,
 * when the connection was lost at COMMIT, not known).
 */
int	repo_stats_add(struct db *db, const char *host,
	    const struct stats_row *rows, size_t n);

/*
 * Forgets host's rows of the days before day_key (the statistics keep
 * STATS_KEEP_DAYS days).  Returns 0 or a negative repo_err.
 */
int	repo_stats_forget_before(struct db *db, const char *host,
	    int32_t day_key);

/*
 * The sums over every host of the days from..to (day keys, inclusive):
 * one row per day and item, newest day first, then by item (the API
 * user's scope, or the error code as a number).  Calls are summed by the
 * scope of the client that made them, so the clients of one API user
 * count as one.  Rows from the arena a.  Returns 0 or a negative
 * repo_err.
 */
int	repo_stats_read(struct db *db, struct arena *a, enum stats_kind kind,
	    int32_t from, int32_t to, struct db_text_rows *out);

/* How many days of statistics a host keeps (the reads ask for seven). */
#define STATS_KEEP_DAYS	31

#endif
