/*
 * Migration bookkeeping.  These statements are prepared on demand, not
 * at connect time, because they run before the schema exists.
 */
#include <stdlib.h>
#include <string.h>

#include "db/bind.h"
#include "db/pool.h"
#include "repo/repo.h"
#include "repo/repo_migrate.h"
#include "util/xmalloc.h"

enum migrate_stmt {
	MIGRATE_STMT_CREATE,
	MIGRATE_STMT_LIST,
	MIGRATE_STMT_INSERT,
	MIGRATE_STMT_UPDATE_DONE,
	MIGRATE_STMT__MAX
};

static const char *const migrate_sql[MIGRATE_STMT__MAX] = {
	[MIGRATE_STMT_CREATE] =
	    "CREATE TABLE IF NOT EXISTS schema_migrations ("
	    " version INT NOT NULL PRIMARY KEY,"
	    " name VARCHAR(255) NOT NULL,"
	    " checksum CHAR(64) NOT NULL,"
	    " done TINYINT(1) NOT NULL DEFAULT 0,"
	    " started_at DATETIME(3) NOT NULL,"
	    " finished_at DATETIME(3) NULL"
	    ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin",
	[MIGRATE_STMT_LIST] =
	    "SELECT version, name, checksum, done FROM schema_migrations"
	    " ORDER BY version",
	[MIGRATE_STMT_INSERT] =
	    "INSERT INTO schema_migrations (version, name, checksum, done,"
	    " started_at) VALUES (?, ?, ?, 0, UTC_TIMESTAMP(3))",
	[MIGRATE_STMT_UPDATE_DONE] =
	    "UPDATE schema_migrations SET done = 1,"
	    " finished_at = UTC_TIMESTAMP(3) WHERE version = ? AND done = 0",
};

/* Prepares one statement; *out is closed by the caller. */
static int
prepare(struct db *db, enum migrate_stmt s, MYSQL_STMT **out)
{
	*out = mysql_stmt_init(db_conn(db));
	if (*out == NULL)
		return -REPO_ERR_INTERNAL;
	if (mysql_stmt_prepare(*out, migrate_sql[s],
	    strlen(migrate_sql[s])) != 0)
		return db_error(db, *out, "migrate prepare");
	return 0;
}

int
repo_migrate_init(struct db *db)
{
	return repo_migrate_exec(db, migrate_sql[MIGRATE_STMT_CREATE],
	    strlen(migrate_sql[MIGRATE_STMT_CREATE]));
}

int
repo_migrate_list(struct db *db, struct migration_list *out)
{
	MYSQL_STMT *st = NULL;
	MYSQL_BIND res[4];
	struct migration_rec rec;
	int32_t version, done;
	unsigned long nlen, clen;
	my_bool nul[4];
	int r, f;

	out->items = NULL;
	out->count = 0;
	if ((r = prepare(db, MIGRATE_STMT_LIST, &st)) != 0 ||
	    (r = db_exec(db, st, NULL, "migrate list")) != 0)
		goto out;
	memset(&rec, 0, sizeof(rec));
	bind_out_i32(&res[0], &version, &nul[0]);
	bind_out_str(&res[1], rec.name, sizeof(rec.name), &nlen, &nul[1]);
	bind_out_str(&res[2], rec.checksum, sizeof(rec.checksum), &clen,
	    &nul[2]);
	bind_out_i32(&res[3], &done, &nul[3]);
	if (mysql_stmt_bind_result(st, res) != 0) {
		r = db_error(db, st, "migrate list bind");
		goto out;
	}
	while ((f = mysql_stmt_fetch(st)) == 0 || f == MYSQL_DATA_TRUNCATED) {
		rec.version = version;
		rec.done = done != 0;
		out->items = xrealloc(out->items,
		    (out->count + 1) * sizeof(*out->items));
		out->items[out->count++] = rec;
	}
	if (f == 1) {
		r = db_error(db, st, "migrate list fetch");
		goto out;
	}
	r = 0;
out:
	if (st != NULL)
		mysql_stmt_close(st);
	if (r != 0)
		repo_migrate_list_free(out);
	return r;
}

void
repo_migrate_list_free(struct migration_list *l)
{
	free(l->items);
	l->items = NULL;
	l->count = 0;
}

int
repo_migrate_begin(struct db *db, int version, const char *name,
    const char *checksum)
{
	MYSQL_STMT *st = NULL;
	MYSQL_BIND p[3];
	int32_t v = version;
	unsigned long nlen = strlen(name), clen = strlen(checksum);
	int r;

	bind_i32(&p[0], &v);
	bind_str(&p[1], name, &nlen);
	bind_str(&p[2], checksum, &clen);
	if ((r = prepare(db, MIGRATE_STMT_INSERT, &st)) == 0)
		r = db_exec(db, st, p, "migrate begin");
	if (st != NULL)
		mysql_stmt_close(st);
	return r;
}

int
repo_migrate_finish(struct db *db, int version)
{
	MYSQL_STMT *st = NULL;
	MYSQL_BIND p[1];
	int32_t v = version;
	int r;

	bind_i32(&p[0], &v);
	if ((r = prepare(db, MIGRATE_STMT_UPDATE_DONE, &st)) == 0 &&
	    (r = db_exec(db, st, p, "migrate finish")) == 0 &&
	    mysql_stmt_affected_rows(st) != 1)
		r = -REPO_ERR_NOT_FOUND;
	if (st != NULL)
		mysql_stmt_close(st);
	return r;
}

int
repo_migrate_exec(struct db *db, const char *sql, size_t len)
{
	MYSQL_RES *res;

	if (mysql_real_query(db_conn(db), sql, len) != 0)
		return db_error(db, NULL, "migrate exec");
	/* A statement may return rows (e.g. a SELECT in a data step). */
	do {
		if ((res = mysql_store_result(db_conn(db))) != NULL)
			mysql_free_result(res);
	} while (mysql_next_result(db_conn(db)) == 0);
	return 0;
}
