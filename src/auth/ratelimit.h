/*
 * The instance-wide limits (docs/behaviour.md §4): calls per rolling
 * window (606), calls in flight (615) and calls per day (607).  The state
 * of one host lives in shared memory mapped by the master before fork, so
 * every worker of the host sees it at no cost; hosts serving one database
 * reconcile their counts through it every limits_sync_ms.  ratelimit.c
 * documents the design and how far over a limit a burst can get.
 */
#ifndef MAUTO_AUTH_RATELIMIT_H
#define MAUTO_AUTH_RATELIMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct config;
struct db;
struct limiter;

/* Master, before fork: maps the shared state.  NULL on failure (logged). */
struct limiter	*limiter_create(const struct config *cfg);
void		 limiter_destroy(struct limiter *lim);

/*
 * Admits one counted call: returns 0 (and counts it as in flight until
 * limiter_release) or -API_ERR_RATE_LIMIT, -API_ERR_CONCURRENCY,
 * -API_ERR_DAILY_QUOTA.  A refused call is not in flight.
 */
int		 limiter_admit(struct limiter *lim);
void		 limiter_release(struct limiter *lim);
/*
 * limiter_release, and the call counted in the usage statistics for the
 * API client whose row id is client_ref (0: none), under one lock.
 */
void		 limiter_release_call(struct limiter *lim, int64_t client_ref);
/*
 * This host's calls in flight (admitted, not yet released), whether or
 * not the concurrency limit is on; 0 when lim is NULL.
 */
int64_t		 limiter_inflight(struct limiter *lim);

/*
 * The message of a refusal, with the configured numbers filled in:
 * "Max rate limit '100' exceeded with in '20' secs",
 * "Concurrent access limit '10' reached", "Daily quota reached".
 */
const char	*limiter_message(const struct limiter *lim, int err, char *buf,
		    size_t size);

/*
 * Called by a worker between requests: when a reconciliation is due and
 * this worker wins it, writes the host's counts and reads the other
 * hosts' through db.  Cheap (one atomic load) when nothing is due.
 */
void		 limiter_tick(struct limiter *lim, struct db *db);

/*
 * Wrong client secrets (bounds.h, AUTH_FAIL_*), counted per client id
 * for the whole host.  A secret is named by a digest keyed with
 * limiter_auth_key (AUTH_DIGEST_BYTES random bytes of this host, the
 * same in every worker; NULL when lim is NULL).
 *   limiter_auth_locked: whether client_id is locked out now and digest
 *     is not that of the secret last verified for it;
 *   limiter_auth_failed: counts one wrong secret; true when this one
 *     starts a lock-out (the caller logs it);
 *   limiter_auth_succeeded: remembers digest (may be NULL) as client_id's
 *     verified secret and, outside a lock-out, forgets the count.
 * lim may be NULL: nothing is counted, nothing is locked.
 */
const unsigned char *limiter_auth_key(const struct limiter *lim);
bool		 limiter_auth_locked(struct limiter *lim, const char *client_id,
		    const unsigned char *digest);
bool		 limiter_auth_failed(struct limiter *lim, const char *client_id);
void		 limiter_auth_succeeded(struct limiter *lim,
		    const char *client_id, const unsigned char *digest);

/*
 * The usage and error statistics (docs/behaviour.md §18), counted in the
 * shared state with the limits and added to this host's rows of the
 * database (src/repo/repo_stats.c) by each reconciliation:
 *   limiter_release_call (above): one call of an API client, on the
 *     current quota day;
 *   limiter_count_error: n answers (or skipped records) with error code
 *     code.
 * A host counts up to LIMITER_STAT_SLOTS distinct clients and codes
 * between two flushes; more are dropped and logged.  lim may be NULL.
 */
void		 limiter_count_error(struct limiter *lim, int32_t code,
		    int64_t n);

/*
 * Adds what this host counted and has not written yet to the database
 * (a worker stopping calls it, so a graceful restart loses no count).
 * Returns 0 or a negative repo_err; nothing when lim or db is NULL.
 */
int		 limiter_flush(struct limiter *lim, struct db *db);

/* The auth epoch last read from the database (token caches compare it). */
uint64_t	 limiter_auth_epoch(const struct limiter *lim);

/*
 * The US Central (America/Chicago) date of a Unix time as yyyymmdd: the
 * daily quota's day, which starts at 00:00 Central (docs/behaviour.md
 * §4).  Applies the US DST rule in force since 2007 (second Sunday of
 * March 02:00 to first Sunday of November 02:00) without tzdata.
 */
int32_t		 limiter_day_key(int64_t unix_secs);

/* The day key days days after key (before, when days is negative). */
int32_t		 limiter_day_key_add(int32_t key, int days);

/*
 * Test hook: replaces the clocks the limiter reads, mono_ms (a monotonic
 * clock in milliseconds: rolling window and sync schedule) and wall_s
 * (Unix seconds: the quota's day).  NULL restores the system clock.  A
 * hook is per process and survives fork.
 */
void		 limiter_set_clock(struct limiter *lim, int64_t (*mono_ms)(void),
		    int64_t (*wall_s)(void));

/* The largest rate_limit_calls the limiter accepts (one slot per call). */
#define LIMITER_MAX_RATE_CALLS	1000000
/* Other hosts' rows count while updated within this many sync intervals. */
#define LIMITER_FRESH_INTERVALS	4
/* ... but never less than this (milliseconds). */
#define LIMITER_FRESH_MIN_MS	1000
/* Distinct (day, client or error code) counts kept between flushes. */
#define LIMITER_STAT_SLOTS	512

#endif
