/*
 * The lead row lock (repo_lead_lock.h): one statement, taken inside the
 * caller's transaction.
 */
#include <stddef.h>
#include <stdint.h>

#include <mysql.h>

#include "db/bind.h"
#include "db/pool.h"
#include "db/query.h"
#include "repo/repo.h"
#include "repo/repo_lead_lock.h"

enum lead_lock_stmt {
	LEAD_LOCK_STMT_LOCK,
	LEAD_LOCK_STMT__MAX
};

static const char *const sql[LEAD_LOCK_STMT__MAX] = {
	[LEAD_LOCK_STMT_LOCK] =
	    "SELECT leadPartitionId FROM lead WHERE id = ? FOR UPDATE",
};

const struct db_stmt_set repo_lead_lock_sql = {
	.name = "lead_lock",
	.sql = sql,
	.n = LEAD_LOCK_STMT__MAX,
};

/* See repo_lead_lock.h. */
int
repo_lead_lock(struct db *db, int64_t id, int64_t *partition)
{
	MYSQL_BIND in[1];
	int64_t p;

	bind_i64(&in[0], &id);
	return db_query_i64(db, db_stmt(db, REPO_LEAD_LOCK,
	    (int)LEAD_LOCK_STMT_LOCK), in, partition != NULL ? partition : &p,
	    "repo_lead_lock");
}

/* See repo_lead_lock.h. */
int
repo_lead_lock_all(struct db *db, const int64_t *ids, size_t n,
    struct repo_missing *miss)
{
	size_t i;
	int r;

	for (i = 0; i < n; i++) {
		if ((r = repo_lead_lock(db, ids[i], NULL)) != 0) {
			if (r == -REPO_ERR_NOT_FOUND) {
				miss->what = REPO_WHAT_LEAD;
				miss->id = ids[i];
				miss->index = i;
			}
			return r;
		}
	}
	return 0;
}
