/*
 * The limits table (migration 0003): one row per host serving the
 * instance, written only by that host (docs/galera.md: no two hosts write the
 * same row, so the upserts never conflict).  ratelimit.c upserts its own
 * row every limits_sync_ms and reads the sums of the other hosts' rows.
 */
#ifndef MAUTO_REPO_REPO_LIMITS_H
#define MAUTO_REPO_REPO_LIMITS_H

#include <stdint.h>

struct db;

/* One host's counts as it last reported them. */
struct limits_row {
	int64_t	window_count;	/* calls admitted in the current window */
	int64_t	inflight;	/* calls in flight */
	int64_t	day_key;	/* US Central date as yyyymmdd */
	int64_t	day_count;	/* calls admitted on day_key */
};

/* The other hosts' counts, summed. */
struct limits_sums {
	int64_t	window;		/* fresh rows only */
	int64_t	inflight;	/* fresh rows only */
	int64_t	day;		/* rows of the given day, fresh or not */
};

/*
 * Writes host's row (insert or update) with updated_at = the database's
 * clock.  Returns 0 or a negative repo_err.
 */
int	repo_limits_upsert(struct db *db, const char *host,
	    const struct limits_row *row);

/*
 * Reads host's own row (a host adopts its day count after a restart).
 * Returns 0 and fills *out, -REPO_ERR_NOT_FOUND, or another negative
 * repo_err.
 */
int	repo_limits_get_by_host(struct db *db, const char *host,
	    struct limits_row *out);

/*
 * Sums the rows of every host but host: window and in-flight counts of
 * the rows updated within the last fresh_ms milliseconds (by the
 * database's clock), and the day counts of all rows whose day_key is
 * day_key (a host that went away still spent its calls today).
 * Returns 0 and fills *out, or a negative repo_err.
 */
int	repo_limits_sum_others(struct db *db, const char *host,
	    int64_t day_key, int64_t fresh_ms, struct limits_sums *out);

#endif
