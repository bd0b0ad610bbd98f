/*
 * The statistics table (migration 0024_api_stats.sql).  A host writes
 * only rows whose host column is its own (docs/galera.md: no two nodes
 * write one row), adding to them rather than setting them, so counts
 * flushed before a restart stay counted.
 */
#include <string.h>

#include <mysql.h>

#include "db/bind.h"
#include "db/pool.h"
#include "db/query.h"
#include "repo/repo.h"
#include "repo/repo_stats.h"

enum stats_stmt {
	STATS_STMT_ADD,
	STATS_STMT_FORGET,
	STATS_STMT_READ_CALLS,
	STATS_STMT_READ_ERRORS,
	STATS_STMT__MAX
};

static const char *const sql[STATS_STMT__MAX] = {
	[STATS_STMT_ADD] =
	    "INSERT INTO api_stats_host (day_key, kind, item, host, n) "
	    "VALUES (?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE n = n + VALUES(n)",
	[STATS_STMT_FORGET] =
	    "DELETE FROM api_stats_host WHERE host = ? AND day_key < ?",
	/* Parameters: from, to. */
	[STATS_STMT_READ_CALLS] =
	    "SELECT s.day_key, c.scope, CAST(SUM(s.n) AS SIGNED) "
	    "FROM api_stats_host s JOIN auth_client c ON c.id = s.item "
	    "WHERE s.kind = 1 AND s.day_key BETWEEN ? AND ? "
	    "GROUP BY s.day_key, c.scope ORDER BY s.day_key DESC, c.scope",
	[STATS_STMT_READ_ERRORS] =
	    "SELECT day_key, item, CAST(SUM(n) AS SIGNED) "
	    "FROM api_stats_host "
	    "WHERE kind = 2 AND day_key BETWEEN ? AND ? "
	    "GROUP BY day_key, item ORDER BY day_key DESC, item",
};

const struct db_stmt_set repo_stats_sql = {
	.name = "stats",
	.sql = sql,
	.n = STATS_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum stats_stmt s)
{
	return db_stmt(db, REPO_STATS, (int)s);
}

/* What add_rows writes. */
struct add_args {
	const char		*host;
	const struct stats_row	*rows;
	size_t			 n;
};

/* db_run_tx body of repo_stats_add. */
static int
add_rows(struct db *db, void *arg)
{
	const struct add_args *a = arg;
	MYSQL_BIND in[5];
	unsigned long hlen = strlen(a->host);
	int64_t day, kind;
	size_t i;
	int r = 0;

	for (i = 0; i < a->n && r == 0; i++) {
		day = a->rows[i].day_key;
		kind = a->rows[i].kind;
		bind_i64(&in[0], &day);
		bind_i64(&in[1], &kind);
		bind_i64(&in[2], &a->rows[i].item);
		bind_str(&in[3], a->host, &hlen);
		bind_i64(&in[4], &a->rows[i].n);
		r = db_exec(db, stmt(db, STATS_STMT_ADD), in,
		    "repo_stats_add");
	}
	return r;
}

/* See repo_stats.h. */
int
repo_stats_add(struct db *db, const char *host, const struct stats_row *rows,
    size_t n)
{
	struct add_args a = { .host = host, .rows = rows, .n = n };
	int r;

	if (n == 0)
		return 0;
	if ((r = db_ensure(db)) != 0)
		return r;
	return db_run_tx(db, add_rows, &a, false);
}

/* See repo_stats.h. */
int
repo_stats_forget_before(struct db *db, const char *host, int32_t day_key)
{
	MYSQL_BIND in[2];
	unsigned long hlen = strlen(host);
	int64_t day = day_key;
	int r;

	if ((r = db_ensure(db)) == 0) {
		bind_str(&in[0], host, &hlen);
		bind_i64(&in[1], &day);
		r = db_exec(db, stmt(db, STATS_STMT_FORGET), in,
		    "repo_stats_forget_before");
	}
	return r;
}

/* See repo_stats.h. */
int
repo_stats_read(struct db *db, struct arena *a, enum stats_kind kind,
    int32_t from, int32_t to, struct db_text_rows *out)
{
	MYSQL_BIND in[2];
	int64_t lo = from, hi = to;
	int r;

	memset(out, 0, sizeof(*out));
	if ((r = db_ensure(db)) != 0)
		return r;
	bind_i64(&in[0], &lo);
	bind_i64(&in[1], &hi);
	return db_select_text(db, stmt(db, kind == STATS_CALLS ?
	    STATS_STMT_READ_CALLS : STATS_STMT_READ_ERRORS), in, a,
	    STATS_COL__N, 100000, "repo_stats_read", out);
}
