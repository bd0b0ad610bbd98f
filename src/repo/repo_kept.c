/* Reply texts kept on their owners' rows (repo_kept.h). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <mysql.h>

#include "db/bind.h"
#include "db/pool.h"
#include "db/query.h"
#include "repo/repo.h"
#include "repo/repo_kept.h"

/* See repo_kept.h. */
void
repo_kept_fill(const struct db_text_rows *t, size_t row, size_t col,
    struct repo_kept *k)
{
	memset(k, 0, sizeof(*k));
	k->rev = (uint32_t)db_text_i64(t, row, col);
	k->lead_ver = db_text_i64(t, row, col + 1);
	k->co_ver = db_text_i64(t, row, col + 2);
	k->json = db_text_str(t, row, col + 3);
	if (k->json != NULL)
		k->len = t->len[row * t->ncol + col + 3];
	k->set = k->json == NULL;
}

/* See repo_kept.h. */
int
repo_kept_store(struct db *db, MYSQL_STMT *st, int32_t id,
    const struct repo_kept *k, const char *json, size_t len,
    const char *where)
{
	MYSQL_BIND in[5];
	unsigned long l = (unsigned long)len;
	int64_t lead_ver = k->lead_ver, co_ver = k->co_ver, rev = k->rev;
	uint64_t n;
	int r;

	if ((r = db_ensure(db)) != 0)
		return r;
	bind_str(&in[0], json, &l);
	bind_i64(&in[1], &lead_ver);
	bind_i64(&in[2], &co_ver);
	bind_i32(&in[3], &id);
	bind_i64(&in[4], &rev);
	if ((r = db_exec_keep(db, st, in, &n, where)) != 0)
		return r;
	/* CLIENT_FOUND_ROWS: 0 when the revision moved on. */
	return n == 1 ? 0 : -REPO_ERR_NOT_FOUND;
}
