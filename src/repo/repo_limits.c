/*
 * The limits table (migration 0003_limits.sql): one row per host, written
 * only by that host, read by all (see ratelimit.c for the design).
 * Freshness is judged by the database's clock (updated_at = NOW(6)), so
 * the hosts' clocks need not agree.
 */
#include <string.h>

#include <mysql.h>

#include "db/bind.h"
#include "db/pool.h"
#include "db/query.h"
#include "repo/repo.h"
#include "repo/repo_limits.h"

enum limits_stmt {
	LIMITS_STMT_UPSERT,
	LIMITS_STMT_GET_BY_HOST,
	LIMITS_STMT_SUM_OTHERS,
	LIMITS_STMT__MAX
};

static const char *const sql[LIMITS_STMT__MAX] = {
	[LIMITS_STMT_UPSERT] =
	    "INSERT INTO limits_host "
	    "(host, window_count, inflight, day_key, day_count, updated_at) "
	    "VALUES (?, ?, ?, ?, ?, NOW(6)) ON DUPLICATE KEY UPDATE "
	    "window_count = VALUES(window_count), "
	    "inflight = VALUES(inflight), day_key = VALUES(day_key), "
	    "day_count = VALUES(day_count), updated_at = VALUES(updated_at)",
	[LIMITS_STMT_GET_BY_HOST] =
	    "SELECT window_count, inflight, day_key, day_count "
	    "FROM limits_host WHERE host = ?",
	/* Parameters: fresh_us, fresh_us, day_key, host. */
	[LIMITS_STMT_SUM_OTHERS] =
	    "SELECT "
	    "CAST(COALESCE(SUM(IF(updated_at >= NOW(6) - INTERVAL ? "
	    "MICROSECOND, window_count, 0)), 0) AS SIGNED), "
	    "CAST(COALESCE(SUM(IF(updated_at >= NOW(6) - INTERVAL ? "
	    "MICROSECOND, inflight, 0)), 0) AS SIGNED), "
	    "CAST(COALESCE(SUM(IF(day_key = ?, day_count, 0)), 0) AS SIGNED) "
	    "FROM limits_host WHERE host <> ?",
};

const struct db_stmt_set repo_limits_sql = {
	.name = "limits",
	.sql = sql,
	.n = LIMITS_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum limits_stmt s)
{
	return db_stmt(db, REPO_LIMITS, (int)s);
}

/* See repo_limits.h. */
int
repo_limits_upsert(struct db *db, const char *host,
    const struct limits_row *row)
{
	MYSQL_BIND in[5];
	unsigned long hlen = strlen(host);
	int r;

	if ((r = db_ensure(db)) == 0) {
		bind_str(&in[0], host, &hlen);
		bind_i64(&in[1], &row->window_count);
		bind_i64(&in[2], &row->inflight);
		bind_i64(&in[3], &row->day_key);
		bind_i64(&in[4], &row->day_count);
		r = db_exec(db, stmt(db, LIMITS_STMT_UPSERT), in,
		    "repo_limits_upsert");
	}
	return r;
}

/* See repo_limits.h. */
int
repo_limits_get_by_host(struct db *db, const char *host,
    struct limits_row *out)
{
	MYSQL_STMT *st;
	MYSQL_BIND in[1], res[4];
	unsigned long hlen = strlen(host);
	my_bool nul[4];
	int r;

	memset(out, 0, sizeof(*out));
	if ((r = db_ensure(db)) != 0)
		goto out;
	st = stmt(db, LIMITS_STMT_GET_BY_HOST);
	bind_str(&in[0], host, &hlen);
	bind_out_i64(&res[0], &out->window_count, &nul[0]);
	bind_out_i64(&res[1], &out->inflight, &nul[1]);
	bind_out_i64(&res[2], &out->day_key, &nul[2]);
	bind_out_i64(&res[3], &out->day_count, &nul[3]);
	if ((r = db_exec(db, st, in, "repo_limits_get_by_host")) != 0)
		goto out;
	r = db_fetch_one(db, st, res, "repo_limits_get_by_host");
out:
	if (r != 0)
		memset(out, 0, sizeof(*out));
	return r;
}

/* See repo_limits.h. */
int
repo_limits_sum_others(struct db *db, const char *host, int64_t day_key,
    int64_t fresh_ms, struct limits_sums *out)
{
	MYSQL_STMT *st;
	MYSQL_BIND in[4], res[3];
	unsigned long hlen = strlen(host);
	int64_t fresh_us = fresh_ms * 1000;
	my_bool nul[3];
	int r;

	memset(out, 0, sizeof(*out));
	if ((r = db_ensure(db)) != 0)
		goto out;
	/* The other hosts' latest rows: the read waits (src/repo/repo.c). */
	st = stmt(db, LIMITS_STMT_SUM_OTHERS);
	bind_i64(&in[0], &fresh_us);
	bind_i64(&in[1], &fresh_us);
	bind_i64(&in[2], &day_key);
	bind_str(&in[3], host, &hlen);
	bind_out_i64(&res[0], &out->window, &nul[0]);
	bind_out_i64(&res[1], &out->inflight, &nul[1]);
	bind_out_i64(&res[2], &out->day, &nul[2]);
	if ((r = db_exec(db, st, in, "repo_limits_sum_others")) != 0)
		goto out;
	r = db_fetch_one(db, st, res, "repo_limits_sum_others");
out:
	if (r != 0)
		memset(out, 0, sizeof(*out));
	return r;
}
