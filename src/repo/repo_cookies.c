/*
 * Tracking cookies (repo_cookies.h): the lead_cookie table and the lead's
 * `cookies` column that shows its newest cookie.  Associate Lead runs its
 * own transaction; Submit Form and Merge Leads call in theirs.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <mysql.h>

#include "db/bind.h"
#include "db/pool.h"
#include "db/query.h"
#include "repo/repo.h"
#include "repo/repo_cookies.h"
#include "repo/repo_lead_lock.h"

enum cookies_stmt {
	COOKIES_STMT_UPSERT,
	COOKIES_STMT_RESET_OTHERS,
	COOKIES_STMT_LEAD_SET,
	COOKIES_STMT_INSERT_NEW,
	COOKIES_STMT_LEAD_SHOW,
	COOKIES_STMT_MOVE,
	COOKIES_STMT__MAX
};

static const char *const sql[COOKIES_STMT__MAX] = {
	/* cookie, lead: the cookie moves to this lead. */
	[COOKIES_STMT_UPSERT] =
	    "INSERT INTO lead_cookie (cookie, lead_id, created_at) "
	    "VALUES (?, ?, UTC_TIMESTAMP()) ON DUPLICATE KEY UPDATE "
	    "lead_id = VALUES(lead_id), created_at = VALUES(created_at)",
	/* cookie, lead: another lead that showed it shows its newest. */
	[COOKIES_STMT_RESET_OTHERS] =
	    "UPDATE lead l SET l.cookies = (SELECT c.cookie FROM lead_cookie c "
	    "WHERE c.lead_id = l.id ORDER BY c.created_at DESC, c.cookie "
	    "LIMIT 1), l.updatedAt = UTC_TIMESTAMP() "
	    "WHERE l.cookies = ? AND l.id <> ?",
	[COOKIES_STMT_LEAD_SET] =
	    "UPDATE lead SET cookies = ?, updatedAt = UTC_TIMESTAMP() "
	    "WHERE id = ?",
	/* A cookie that belongs to a lead already stays with it. */
	[COOKIES_STMT_INSERT_NEW] =
	    "INSERT IGNORE INTO lead_cookie (cookie, lead_id, created_at) "
	    "VALUES (?, ?, UTC_TIMESTAMP())",
	/* Within a write that sets updatedAt itself. */
	[COOKIES_STMT_LEAD_SHOW] =
	    "UPDATE lead SET `cookies` = ? WHERE id = ?",
	/* to, from. */
	[COOKIES_STMT_MOVE] =
	    "UPDATE lead_cookie SET lead_id = ? WHERE lead_id = ?",
};

const struct db_stmt_set repo_cookies_sql = {
	.name = "cookies",
	.sql = sql,
	.n = COOKIES_STMT__MAX,
};

static MYSQL_STMT *
stmt(struct db *db, enum cookies_stmt s)
{
	return db_stmt(db, REPO_COOKIES, (int)s);
}

struct cookie_tx {
	int64_t		 lead_id;
	const char	*cookie;
};

static int
cookie_tx(struct db *db, void *arg)
{
	struct cookie_tx *a = arg;
	MYSQL_BIND in[2];
	unsigned long len = strlen(a->cookie);
	int r;

	if ((r = repo_lead_lock(db, a->lead_id, NULL)) != 0)
		return r;
	bind_str(&in[0], a->cookie, &len);
	bind_i64(&in[1], &a->lead_id);
	if ((r = db_exec(db, stmt(db, COOKIES_STMT_UPSERT), in,
	    "repo_cookies_associate")) != 0 ||
	    (r = db_exec(db, stmt(db, COOKIES_STMT_RESET_OTHERS), in,
	    "repo_cookies_associate")) != 0)
		return r;
	return db_exec(db, stmt(db, COOKIES_STMT_LEAD_SET), in,
	    "repo_cookies_associate");
}

/* See repo_cookies.h. */
int
repo_cookies_associate(struct db *db, int64_t lead_id,
    const char *cookie)
{
	struct cookie_tx a = { lead_id, cookie };

	return db_run_tx(db, cookie_tx, &a, true);
}

/* See repo_cookies.h. */
int
repo_cookies_add_new(struct db *db, int64_t lead_id, const char *cookie)
{
	MYSQL_BIND in[2];
	unsigned long len = strlen(cookie);
	uint64_t n;
	int r;

	bind_str(&in[0], cookie, &len);
	bind_i64(&in[1], &lead_id);
	if ((r = db_exec_n(db, stmt(db, COOKIES_STMT_INSERT_NEW), in, &n,
	    "repo_cookies_add_new")) != 0 || n != 1)
		return r;
	return db_exec(db, stmt(db, COOKIES_STMT_LEAD_SHOW), in,
	    "repo_cookies_add_new");
}

/* See repo_cookies.h. */
int
repo_cookies_move(struct db *db, int64_t to, int64_t from)
{
	MYSQL_BIND in[2];

	bind_i64(&in[0], &to);
	bind_i64(&in[1], &from);
	return db_exec(db, stmt(db, COOKIES_STMT_MOVE), in,
	    "repo_cookies_move");
}
