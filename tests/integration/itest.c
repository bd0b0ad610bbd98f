#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <mysql.h>

#include "db/pool.h"
#include "itest.h"
#include "repo/repo.h"
#include "util/arena.h"
#include "util/config.h"

int
itest_config(struct config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->db_socket = getenv("MAUTO_TEST_DB_SOCKET");
	cfg->db_name = getenv("MAUTO_TEST_DB_NAME");
	cfg->db_user = getenv("MAUTO_TEST_DB_USER");
	cfg->db_password = getenv("MAUTO_TEST_DB_PASSWORD");
	if (cfg->db_socket == NULL || cfg->db_name == NULL ||
	    cfg->db_user == NULL)
		return -1;
	cfg->db_port = 3306;
	cfg->db_connect_timeout = 5;
	cfg->db_read_timeout = 30;
	cfg->db_write_timeout = 30;
	return 0;
}

int
itest_open(struct db **db, const struct config *cfg, struct arena *a,
    char *tag, size_t tagsz)
{
	if (tag != NULL)
		(void)snprintf(tag, tagsz, "%ld", (long)getpid());
	if (a != NULL)
		arena_init(a);
	return db_open(db, cfg, &repo_schema, DB_PREPARE_ALL) == 0 ? 0 : -1;
}

int
itest_close(struct db *db, struct arena *a)
{
	if (a != NULL)
		arena_clear(a);
	db_close(db);
	return 0;
}

void
itest_sql(struct db *db, const char *q)
{
	if (mysql_query(db_conn(db), q) != 0)
		fail_msg("%s: %s", q, mysql_error(db_conn(db)));
}

void
itest_sqlf(struct db *db, const char *fmt, ...)
{
	char q[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(q, sizeof(q), fmt, ap);
	va_end(ap);
	itest_sql(db, q);
}

int64_t
itest_count(struct db *db, const char *fmt, ...)
{
	char q[1024];
	MYSQL_RES *res;
	MYSQL_ROW row;
	va_list ap;
	int64_t v = -1;

	va_start(ap, fmt);
	vsnprintf(q, sizeof(q), fmt, ap);
	va_end(ap);
	if (mysql_query(db_conn(db), q) != 0)
		fail_msg("%s: %s", q, mysql_error(db_conn(db)));
	res = mysql_store_result(db_conn(db));
	assert_non_null(res);
	if ((row = mysql_fetch_row(res)) != NULL && row[0] != NULL)
		v = strtoll(row[0], NULL, 10);
	mysql_free_result(res);
	return v;
}
