/*
 * Bulk export jobs against a real MariaDB: the state machine, the queue
 * limit (also with two processes racing), the two processing slots,
 * take-over of a dead or silent runner's job (requeued, then failed),
 * the runner writing files (content, count, size, checksum; filters;
 * formats), stop and cancel, expiry and purge, the quota sum and the
 * job list.  A custom object type "bxcar" with its records table is
 * made by fixture SQL as repo_custom_objects.c makes them.  Needs
 * MAUTO_TEST_DB_*; without them it exits 77 (automake's SKIP).
 */
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <mysql.h>
#include <sodium.h>

#include "auth/ratelimit.h"
#include "db/pool.h"
#include "model/export.h"
#include "export/runner.h"
#include "bounds.h"
#include "model/cotype.h"
#include "repo/repo.h"
#include "repo/repo_bulk_export.h"
#include "repo/repo_bulk_export_stream.h"
#include "util/config.h"
#include "itest.h"

#define OBJ	"bxcar"
#define NRECS	1000

static struct config cfg;
static struct db *db;
static char dir[] = "/tmp/mauto-itest-export-XXXXXX";
static int64_t client_a, client_b, type_id;
static volatile sig_atomic_t stop_flag;
static char host_id[] = "bxhost";

static void
sql(const char *q)
{
	itest_sql(db, q);
}

/* The first column of the first row of q as an integer (0 when NULL). */
static int64_t
q_i64(const char *q)
{
	MYSQL_RES *res;
	MYSQL_ROW row;
	int64_t v = 0;

	itest_sql(db, q);
	res = mysql_store_result(db_conn(db));
	assert_non_null(res);
	row = mysql_fetch_row(res);
	if (row != NULL && row[0] != NULL)
		v = strtoll(row[0], NULL, 10);
	mysql_free_result(res);
	return v;
}

static void __attribute__((format(printf, 1, 2)))
sqlf(const char *fmt, ...)
{
	char q[4096];
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(q, sizeof(q), fmt, ap);
	va_end(ap);
	sql(q);
}

static int64_t __attribute__((format(printf, 1, 2)))
q_i64f(const char *fmt, ...)
{
	char q[4096];
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(q, sizeof(q), fmt, ap);
	va_end(ap);
	return q_i64(q);
}

/* Drops what an earlier run left. */
static void
drop_fixture(void)
{
	int64_t old;

	while ((old = q_i64("SELECT COALESCE(MAX(id), 0) FROM co_type "
	    "WHERE api_name = '" OBJ "'")) != 0) {
		sqlf("DROP TABLE IF EXISTS co_rec_%lld", (long long)old);
		sqlf("DELETE FROM co_type WHERE id = %lld", (long long)old);
	}
	sql("DELETE FROM export_job");
	sql("DELETE FROM auth_client WHERE name LIKE 'bx-itest-%'");
	sql("DELETE FROM static_list WHERE name = 'bx list'");
}

static void
make_fixture(void)
{
	drop_fixture();
	sql("INSERT INTO auth_client (client_id, name, role_id, scope, "
	    "secret_hash, created_at) SELECT "
	    "'bx000000-0000-4000-8000-00000000000a', 'bx-itest-a', id, 'a', "
	    "'x', 0 FROM auth_role WHERE name = 'admin'");
	client_a = (int64_t)mysql_insert_id(db_conn(db));
	sql("INSERT INTO auth_client (client_id, name, role_id, scope, "
	    "secret_hash, created_at) SELECT "
	    "'bx000000-0000-4000-8000-00000000000b', 'bx-itest-b', id, 'b', "
	    "'x', 0 FROM auth_role WHERE name = 'admin'");
	client_b = (int64_t)mysql_insert_id(db_conn(db));
	sql("INSERT INTO co_type (api_name, state, has_approved, has_draft, "
	    "table_ready, created_at, updated_at, approved_at) VALUES ('" OBJ
	    "', 'approved', 1, 0, 1, UTC_TIMESTAMP(), UTC_TIMESTAMP(), "
	    "UTC_TIMESTAMP())");
	type_id = (int64_t)mysql_insert_id(db_conn(db));
	sqlf("INSERT INTO co_type_version (type_id, is_draft, display_name, "
	    "updated_at) VALUES (%lld, 0, 'BX car', UTC_TIMESTAMP())",
	    (long long)type_id);
	sqlf("INSERT INTO co_field (type_id, is_draft, name, pos, "
	    "display_name, data_type, is_dedupe, related_object, "
	    "related_field, key_type) VALUES "
	    "(%1$lld, 0, 'vin', 0, 'VIN', 'string', 1, NULL, NULL, NULL), "
	    "(%1$lld, 0, 'color', 1, 'Color', 'string', 0, NULL, NULL, NULL), "
	    "(%1$lld, 0, 'price', 2, 'Price', 'float', 0, NULL, NULL, NULL), "
	    "(%1$lld, 0, 'sold', 3, 'Sold', 'boolean', 0, NULL, NULL, NULL), "
	    "(%1$lld, 0, 'built', 4, 'Built', 'date', 0, NULL, NULL, NULL), "
	    "(%1$lld, 0, 'seen', 5, 'Seen', 'datetime', 0, NULL, NULL, NULL), "
	    "(%1$lld, 0, 'leadId', 6, 'Lead', 'link', 0, 'lead', 'id', "
	    "'integer')", (long long)type_id);
	sqlf("CREATE TABLE co_rec_%lld (`id` BIGINT NOT NULL AUTO_INCREMENT, "
	    "`marketoGUID` CHAR(36) CHARACTER SET ascii NOT NULL, "
	    "`createdAt` DATETIME NOT NULL, `updatedAt` DATETIME NOT NULL, "
	    "`vin` VARCHAR(255) NULL, `color` TEXT NULL, `price` DOUBLE NULL, "
	    "`sold` TINYINT(1) NULL, `built` DATE NULL, `seen` DATETIME NULL, "
	    "`leadId` INT NULL, PRIMARY KEY (`id`), UNIQUE KEY co_guid "
	    "(`marketoGUID`), KEY co_updated (`updatedAt`), KEY l_lead "
	    "(`leadId`)) ENGINE=InnoDB", (long long)type_id);
	/* Record n was updated n minutes after 2024-01-01 00:00:00. */
	sqlf("INSERT INTO co_rec_%lld (marketoGUID, createdAt, updatedAt, vin, "
	    "color, price, sold, built, seen, leadId) SELECT "
	    "CONCAT('00000000-0000-4000-8000-', LPAD(seq, 12, '0')), "
	    "'2023-12-31 00:00:00', "
	    "'2024-01-01 00:00:00' + INTERVAL seq MINUTE, "
	    "CONCAT('V', seq), IF(seq %% 7 = 0, NULL, IF(seq %% 5 = 0, "
	    "'red, \"metallic\"', 'blue')), seq * 1.5, seq %% 2, "
	    "'2020-01-01' + INTERVAL seq DAY, '2024-02-03 04:05:06', "
	    "seq %% 100 FROM seq_1_to_%d", (long long)type_id, NRECS);
	sql("INSERT INTO static_list (name, created_at, updated_at) VALUES "
	    "('bx list', UTC_TIMESTAMP(), UTC_TIMESTAMP())");
	sqlf("INSERT INTO list_member (list_id, lead_id, created_at, "
	    "updated_at) SELECT %lld, seq, UTC_TIMESTAMP(), UTC_TIMESTAMP() "
	    "FROM seq_1_to_10", (long long)mysql_insert_id(db_conn(db)));
}

static int
group_setup(void **state)
{
	(void)state;
	if (mkdtemp(dir) == NULL || itest_open(&db, &cfg, NULL, NULL, 0) != 0)
		return -1;
	make_fixture();
	return 0;
}

static int
group_teardown(void **state)
{
	char cmd[128];

	(void)state;
	drop_fixture();
	(void)itest_close(db, NULL);
	(void)snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	(void)system(cmd);
	return 0;
}

static int
setup(void **state)
{
	(void)state;
	stop_flag = 0;
	sql("DELETE FROM export_job");
	sql("UPDATE export_slot SET owner = NULL, job_id = NULL, "
	    "lease_until = NULL");
	return 0;
}

/* A new Created job of client on OBJ; its id goes into id. */
static void
new_job_spec(int64_t client, const char *fields, const char *headers,
    enum export_format fmt, enum export_filter filter, const char *start,
    const char *end, char id[EXPORT_ID_LEN + 1])
{
	struct export_new n;

	memset(&n, 0, sizeof(n));
	co_guid_new(n.export_id);
	n.client_ref = client;
	n.object_name = OBJ;
	n.format = fmt;
	n.fields = fields;
	n.headers = headers;
	n.filter = filter;
	if (filter == EXPORT_FILTER_UPDATED_AT) {
		n.start = start;
		n.end = end;
	} else {
		n.list_id = (int32_t)q_i64("SELECT id FROM static_list "
		    "WHERE name = 'bx list'");
		n.link_field = "leadId";
	}
	assert_int_equal(repo_bulk_export_insert(db, &n), 0);
	memcpy(id, n.export_id, EXPORT_ID_LEN + 1);
}

static void
new_job(int64_t client, char id[EXPORT_ID_LEN + 1])
{
	new_job_spec(client, "[\"vin\"]", "[\"vin\"]", EXPORT_CSV,
	    EXPORT_FILTER_UPDATED_AT, "2024-01-01 00:00:00",
	    "2024-01-31 00:00:00", id);
}

static enum export_status
status_of(const char *id)
{
	struct export_job j;

	assert_int_equal(repo_bulk_export_get(db, id, client_a, OBJ, &j), 0);
	return j.status;
}

static void
enqueue_ok(const char *id)
{
	enum export_refusal why;

	assert_int_equal(repo_bulk_export_enqueue(db, id, client_a, OBJ,
	    EXPORT_MAX_QUEUED, &why), 0);
}

static void
runner_make(struct export_runner *r)
{
	assert_int_equal(export_runner_init(r, &cfg, 0), 0);
	r->db = db;
	r->stop = &stop_flag;
}

static void
test_create_and_read(void **state)
{
	char id[EXPORT_ID_LEN + 1];
	struct export_job j;

	(void)state;
	new_job(client_a, id);
	assert_true(export_id_valid(id));
	assert_int_equal(repo_bulk_export_get(db, id, client_a, OBJ, &j), 0);
	assert_int_equal(j.status, EXPORT_CREATED);
	assert_int_equal(j.format, EXPORT_CSV);
	assert_int_equal(j.filter, EXPORT_FILTER_UPDATED_AT);
	assert_string_equal(j.filter_start, "2024-01-01 00:00:00.000000");
	assert_int_equal(strlen(j.created_at), EXPORT_TIME_LEN);
	assert_string_equal(j.queued_at, "");
	assert_int_equal(j.number_of_records, -1);
	assert_int_equal(j.file_size, -1);
	assert_null(j.fields);
	/* The object name matches in any case; others see nothing. */
	assert_int_equal(repo_bulk_export_get(db, id, client_a, "BXCAR", &j),
	    0);
	assert_int_equal(repo_bulk_export_get(db, id, client_b, OBJ, &j),
	    -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_bulk_export_get(db, id, client_a, "other", &j),
	    -REPO_ERR_NOT_FOUND);
}

static void
test_state_machine(void **state)
{
	char id[EXPORT_ID_LEN + 1];
	enum export_refusal why;
	struct export_job j;

	(void)state;
	new_job(client_a, id);
	/* Another client cannot enqueue or cancel it. */
	assert_int_equal(repo_bulk_export_enqueue(db, id, client_b, OBJ,
	    EXPORT_MAX_QUEUED, &why), -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_bulk_export_cancel(db, id, client_b, OBJ),
	    -REPO_ERR_NOT_FOUND);
	enqueue_ok(id);
	assert_int_equal(repo_bulk_export_get(db, id, client_a, OBJ, &j), 0);
	assert_int_equal(j.status, EXPORT_QUEUED);
	assert_int_equal(strlen(j.queued_at), EXPORT_TIME_LEN);
	/* Enqueue of a job that is not Created: "Job already queued". */
	assert_int_equal(repo_bulk_export_enqueue(db, id, client_a, OBJ,
	    EXPORT_MAX_QUEUED, &why), -REPO_ERR_CONFLICT);
	assert_int_equal(why, EXPORT_REFUSED_NOT_CREATED);
	assert_int_equal(repo_bulk_export_cancel(db, id, client_a, OBJ), 0);
	assert_int_equal(status_of(id), EXPORT_CANCELLED);
	/* Cancelling again is no error; enqueueing it is. */
	assert_int_equal(repo_bulk_export_cancel(db, id, client_a, OBJ), 0);
	assert_int_equal(repo_bulk_export_enqueue(db, id, client_a, OBJ,
	    EXPORT_MAX_QUEUED, &why), -REPO_ERR_CONFLICT);
	assert_int_equal(why, EXPORT_REFUSED_NOT_CREATED);
	/* Completed and Failed jobs cannot be cancelled. */
	new_job(client_a, id);
	sqlf("UPDATE export_job SET status = 'Completed' WHERE export_id = "
	    "'%s'", id);
	assert_int_equal(repo_bulk_export_cancel(db, id, client_a, OBJ),
	    -REPO_ERR_CONFLICT);
	sqlf("UPDATE export_job SET status = 'Failed' WHERE export_id = '%s'",
	    id);
	assert_int_equal(repo_bulk_export_cancel(db, id, client_a, OBJ),
	    -REPO_ERR_CONFLICT);
	assert_int_equal(status_of(id), EXPORT_FAILED);
}

/* GET /metrics reads the jobs by state with one grouped count. */
static void
test_count_by_status(void **state)
{
	char a[EXPORT_ID_LEN + 1], b[EXPORT_ID_LEN + 1], c[EXPORT_ID_LEN + 1];
	int64_t n[EXPORT_STATUS__MAX];

	(void)state;
	assert_int_equal(repo_bulk_export_count_by_status(db, n), 0);
	assert_int_equal(n[EXPORT_CREATED] + n[EXPORT_QUEUED] +
	    n[EXPORT_PROCESSING] + n[EXPORT_COMPLETED] + n[EXPORT_FAILED] +
	    n[EXPORT_CANCELLED], 0);
	new_job(client_a, a);
	new_job(client_a, b);
	new_job(client_a, c);
	enqueue_ok(b);
	assert_int_equal(repo_bulk_export_cancel(db, c, client_a, OBJ), 0);
	sqlf("UPDATE export_job SET status = 'Completed' WHERE export_id = "
	    "'%s'", a);
	new_job(client_b, a);
	assert_int_equal(repo_bulk_export_count_by_status(db, n), 0);
	assert_int_equal(n[EXPORT_CREATED], 1);
	assert_int_equal(n[EXPORT_QUEUED], 1);
	assert_int_equal(n[EXPORT_PROCESSING], 0);
	assert_int_equal(n[EXPORT_COMPLETED], 1);
	assert_int_equal(n[EXPORT_FAILED], 0);
	assert_int_equal(n[EXPORT_CANCELLED], 1);
}

static void
test_queue_full(void **state)
{
	char ids[EXPORT_MAX_QUEUED + 1][EXPORT_ID_LEN + 1];
	enum export_refusal why;
	struct export_claim c;
	int i;

	(void)state;
	/* The limit is the instance's: two clients fill the queue. */
	for (i = 0; i <= EXPORT_MAX_QUEUED; i++)
		new_job(i % 2 || i == EXPORT_MAX_QUEUED ? client_a : client_b,
		    ids[i]);
	for (i = 0; i < EXPORT_MAX_QUEUED; i++)
		assert_int_equal(repo_bulk_export_enqueue(db, ids[i],
		    i % 2 ? client_a : client_b, OBJ, EXPORT_MAX_QUEUED, &why),
		    0);
	/* Processing jobs count too: the queue is full for everyone. */
	assert_int_equal(repo_bulk_export_claim(db, "bxhost:1:q", 30, &c), 0);
	assert_int_equal(repo_bulk_export_enqueue(db, ids[EXPORT_MAX_QUEUED],
	    client_a, OBJ, EXPORT_MAX_QUEUED, &why), -REPO_ERR_CONFLICT);
	assert_int_equal(why, EXPORT_REFUSED_QUEUE_FULL);
	assert_int_equal(status_of(ids[EXPORT_MAX_QUEUED]), EXPORT_CREATED);
	/* A place frees when a queued job is cancelled. */
	assert_int_equal(repo_bulk_export_cancel(db, ids[1], client_a, OBJ),
	    0);
	assert_int_equal(repo_bulk_export_enqueue(db, ids[EXPORT_MAX_QUEUED],
	    client_a, OBJ, EXPORT_MAX_QUEUED, &why), 0);
	assert_int_equal(q_i64("SELECT COUNT(*) FROM export_job WHERE status "
	    "IN ('Queued', 'Processing')"), EXPORT_MAX_QUEUED);
}

/* Two processes enqueue 8 jobs each at once: exactly 10 get in. */
static void
test_queue_race(void **state)
{
	char ids[16][EXPORT_ID_LEN + 1];
	int i, status, ok = 0, got;
	int pipefd[2];
	pid_t pid;

	(void)state;
	for (i = 0; i < 16; i++)
		new_job(client_a, ids[i]);
	assert_int_equal(pipe(pipefd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct db *cdb = NULL;
		enum export_refusal why;
		int n = 0;

		if (db_open(&cdb, &cfg, &repo_schema, DB_PREPARE_ALL) != 0)
			_exit(2);
		for (i = 8; i < 16; i++)
			if (repo_bulk_export_enqueue(cdb, ids[i], client_a,
			    OBJ, EXPORT_MAX_QUEUED, &why) == 0)
				n++;
		db_close(cdb);
		if (write(pipefd[1], &n, sizeof(n)) != sizeof(n))
			_exit(3);
		_exit(0);
	}
	for (i = 0; i < 8; i++) {
		enum export_refusal why;

		if (repo_bulk_export_enqueue(db, ids[i], client_a, OBJ,
		    EXPORT_MAX_QUEUED, &why) == 0)
			ok++;
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(read(pipefd[0], &got, sizeof(got)), sizeof(got));
	(void)close(pipefd[0]);
	(void)close(pipefd[1]);
	assert_int_equal(ok + got, EXPORT_MAX_QUEUED);
	assert_int_equal(q_i64("SELECT COUNT(*) FROM export_job WHERE "
	    "status = 'Queued'"), EXPORT_MAX_QUEUED);
}

static void
test_two_slots(void **state)
{
	char ids[3][EXPORT_ID_LEN + 1];
	struct export_claim a, b, c;
	int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		new_job(client_a, ids[i]);
		enqueue_ok(ids[i]);
	}
	assert_int_equal(repo_bulk_export_claim(db, "h:1:a", 30, &a), 0);
	assert_int_equal(repo_bulk_export_claim(db, "h:2:b", 30, &b), 0);
	assert_int_not_equal(a.slot, b.slot);
	assert_int_not_equal(a.job_id, b.job_id);
	assert_int_equal(a.attempt, 1);
	/* A third runner finds no free slot. */
	assert_int_equal(repo_bulk_export_claim(db, "h:3:c", 30, &c),
	    -REPO_ERR_NOT_FOUND);
	assert_int_equal(q_i64("SELECT COUNT(*) FROM export_job WHERE "
	    "status = 'Processing'"), 2);
	/* Oldest first: the third job is the one still queued. */
	assert_int_equal(status_of(ids[2]), EXPORT_QUEUED);
	assert_int_equal(repo_bulk_export_heartbeat(db, "h:1:a", &a, 30), 0);
	/* Only the owner renews. */
	assert_int_equal(repo_bulk_export_heartbeat(db, "h:2:b", &a, 30),
	    -REPO_ERR_NOT_FOUND);
	/* A cancel stops the heartbeat: that is how the runner learns. */
	assert_int_equal(repo_bulk_export_cancel(db, ids[0], client_a, OBJ),
	    0);
	assert_int_equal(repo_bulk_export_heartbeat(db, "h:1:a", &a, 30),
	    -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_bulk_export_release(db, "h:1:a", &a, false), 0);
	assert_int_equal(status_of(ids[0]), EXPORT_CANCELLED);
	assert_int_equal(repo_bulk_export_claim(db, "h:3:c", 30, &c), 0);
	assert_int_equal(c.slot, a.slot);
	assert_int_equal(status_of(ids[2]), EXPORT_PROCESSING);
	/* A finish of a job that is no longer the owner's is refused. */
	sqlf("UPDATE export_slot SET owner = 'h:9:z' WHERE slot = %d", b.slot);
	{
		struct export_result res = { 1, 2, "sha256:x", 20240101 };

		assert_int_equal(repo_bulk_export_complete(db, "h:2:b", &b,
		    &res), -REPO_ERR_NOT_FOUND);
		assert_int_equal(repo_bulk_export_fail(db, "h:2:b", &b, "x"),
		    -REPO_ERR_NOT_FOUND);
	}
	assert_int_equal(status_of(ids[1]), EXPORT_PROCESSING);
	/* Giving a job back on stop does not count the attempt. */
	assert_int_equal(repo_bulk_export_release(db, "h:3:c", &c, true), 0);
	assert_int_equal(status_of(ids[2]), EXPORT_QUEUED);
	assert_int_equal(q_i64f("SELECT attempts FROM export_job WHERE "
	    "export_id = '%s'", ids[2]), 0);
}

static void
expire_slots(void)
{
	sql("UPDATE export_slot SET lease_until = NOW(6) - INTERVAL 1 SECOND "
	    "WHERE owner IS NOT NULL");
}

static void
test_take_over_silent_runner(void **state)
{
	struct export_runner r;
	struct export_claim c;
	struct export_job j;
	char id[EXPORT_ID_LEN + 1];
	int attempt;

	(void)state;
	runner_make(&r);
	new_job(client_a, id);
	enqueue_ok(id);
	/* A live lease of another host is left alone. */
	assert_int_equal(repo_bulk_export_claim(db, "farhost:1:a", 30, &c), 0);
	assert_int_equal(export_runner_sweep(&r), 0);
	assert_int_equal(status_of(id), EXPORT_PROCESSING);
	for (attempt = 1; attempt < EXPORT_MAX_ATTEMPTS; attempt++) {
		expire_slots();
		assert_int_equal(export_runner_sweep(&r), 1);
		assert_int_equal(repo_bulk_export_get(db, id, client_a, OBJ,
		    &j), 0);
		assert_int_equal(j.status, EXPORT_QUEUED);
		assert_int_equal(j.attempts, attempt);
		assert_string_equal(j.started_at, "");
		assert_int_equal(repo_bulk_export_claim(db, "farhost:1:a", 30,
		    &c), 0);
		assert_int_equal(c.attempt, attempt + 1);
	}
	/* The last allowed attempt went silent too: the job fails. */
	expire_slots();
	assert_int_equal(export_runner_sweep(&r), 1);
	assert_int_equal(repo_bulk_export_get(db, id, client_a, OBJ, &j), 0);
	assert_int_equal(j.status, EXPORT_FAILED);
	assert_non_null(strstr(j.error_msg, "stopped unexpectedly"));
	assert_int_equal(strlen(j.finished_at), EXPORT_TIME_LEN);
	assert_int_equal(q_i64("SELECT COUNT(*) FROM export_slot WHERE "
	    "owner IS NOT NULL"), 0);
}

static void
test_take_over_dead_process(void **state)
{
	struct export_runner r;
	struct export_claim c;
	char id[EXPORT_ID_LEN + 1], owner[128];
	pid_t pid;
	int status;

	(void)state;
	runner_make(&r);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	new_job(client_a, id);
	enqueue_ok(id);
	/* A runner of this host whose process is gone: at once. */
	(void)snprintf(owner, sizeof(owner), "%s:%ld:dead", r.host, (long)pid);
	assert_int_equal(repo_bulk_export_claim(db, owner, 3600, &c), 0);
	assert_int_equal(export_runner_sweep(&r), 1);
	assert_int_equal(status_of(id), EXPORT_QUEUED);
	/* A live process of this host keeps its job. */
	(void)snprintf(owner, sizeof(owner), "%s:%ld:live", r.host,
	    (long)getppid());
	assert_int_equal(repo_bulk_export_claim(db, owner, 3600, &c), 0);
	assert_int_equal(export_runner_sweep(&r), 0);
	assert_int_equal(status_of(id), EXPORT_PROCESSING);
}

static char *
slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(fp);
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	n = ftell(fp);
	rewind(fp);
	buf = calloc(1, (size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	(void)fclose(fp);
	*len = (size_t)n;
	return buf;
}

static int
count_lines(const char *s)
{
	int n = 0;

	for (; *s != '\0'; s++)
		if (*s == '\n')
			n++;
	return n;
}

/* Files in dir whose name starts with prefix and ends with suffix. */
static int
files_like(const char *prefix, const char *suffix)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	size_t n, m = strlen(suffix);
	int count = 0;

	assert_non_null(d);
	while ((de = readdir(d)) != NULL) {
		n = strlen(de->d_name);
		if (strncmp(de->d_name, prefix, strlen(prefix)) == 0 &&
		    n >= m && strcmp(de->d_name + n - m, suffix) == 0)
			count++;
	}
	(void)closedir(d);
	return count;
}

static int
files_ending(const char *suffix)
{
	return files_like("", suffix);
}

/* Runs job id to its end with a runner; returns the job. */
static void
run_to_end(const char *id, struct export_job *j)
{
	struct export_runner r;

	runner_make(&r);
	enqueue_ok(id);
	assert_int_equal(export_runner_step(&r), 1);
	assert_int_equal(repo_bulk_export_get(db, id, client_a, OBJ, j), 0);
}

/* The file of completed job j, checked against its size and checksum. */
static char *
job_file(const struct export_job *j, size_t *len)
{
	unsigned char md[crypto_hash_sha256_BYTES];
	char path[512], sum[EXPORT_CHECKSUM_LEN + 1], *text;

	assert_int_equal(export_file_path(path, sizeof(path), dir,
	    j->export_id, j->attempts, j->format), 0);
	text = slurp(path, len);
	assert_int_equal((int64_t)*len, j->file_size);
	crypto_hash_sha256(md, (unsigned char *)text, *len);
	memcpy(sum, "sha256:", 7);
	sodium_bin2hex(sum + 7, sizeof(sum) - 7, md, sizeof(md));
	assert_string_equal(sum, j->file_checksum);
	return text;
}

static void
test_export_file(void **state)
{
	static const char hdr[] = "VIN #,color,price,sold,built,seen,leadId,"
	    "updatedAt,marketoGUID\n";
	char id[EXPORT_ID_LEN + 1], *text;
	struct export_job j;
	size_t len;

	(void)state;
	new_job_spec(client_a, "[\"vin\",\"color\",\"price\",\"sold\","
	    "\"built\",\"seen\",\"leadId\",\"updatedAt\",\"marketoGUID\"]",
	    "[\"VIN #\",\"color\",\"price\",\"sold\",\"built\",\"seen\","
	    "\"leadId\",\"updatedAt\",\"marketoGUID\"]", EXPORT_CSV,
	    EXPORT_FILTER_UPDATED_AT, "2024-01-01 00:00:00",
	    "2024-01-31 00:00:00", id);
	run_to_end(id, &j);
	assert_int_equal(j.status, EXPORT_COMPLETED);
	assert_int_equal(j.number_of_records, NRECS);
	assert_int_equal(j.attempts, 1);
	assert_int_equal(strlen(j.finished_at), EXPORT_TIME_LEN);
	assert_int_equal(q_i64f("SELECT day_key FROM export_job WHERE "
	    "export_id = '%s'", id), limiter_day_key((int64_t)time(NULL)));
	text = job_file(&j, &len);
	assert_int_equal(count_lines(text), NRECS + 1);
	assert_true(strncmp(text, hdr, strlen(hdr)) == 0);
	/* In updatedAt order: record 1 first. */
	assert_non_null(strstr(text, "\nV1,blue,1.5,true,2020-01-02,"
	    "2024-02-03T04:05:06Z,1,2024-01-01T00:01:00Z,"
	    "00000000-0000-4000-8000-000000000001\n"));
	/* Quotes doubled, NULL as null, booleans, integers. */
	assert_non_null(strstr(text,
	    "\nV5,\"red, \"\"metallic\"\"\",7.5,true,"));
	assert_non_null(strstr(text, "\nV7,null,10.5,true,"));
	assert_non_null(strstr(text, "\nV100,\"red, \"\"metallic\"\"\",150,"
	    "false,2020-04-10,2024-02-03T04:05:06Z,0,"));
	assert_true(strstr(text, "\nV1,") < strstr(text, "\nV2,"));
	free(text);
	assert_int_equal(files_ending(".part"), 0);
}

static void
test_filters_and_formats(void **state)
{
	char id[EXPORT_ID_LEN + 1], *text, *p;
	struct export_job j;
	size_t len;
	int n;

	(void)state;
	/* Records 101..200 by updatedAt, inclusive ends; TSV. */
	new_job_spec(client_a, "[\"vin\",\"color\"]", "[\"vin\",\"color\"]",
	    EXPORT_TSV, EXPORT_FILTER_UPDATED_AT, "2024-01-01 01:41:00",
	    "2024-01-01 03:20:00", id);
	run_to_end(id, &j);
	assert_int_equal(j.status, EXPORT_COMPLETED);
	assert_int_equal(j.number_of_records, 100);
	text = job_file(&j, &len);
	assert_true(strncmp(text, "vin\tcolor\nV101\tblue\n", 20) == 0);
	assert_non_null(strstr(text, "\nV200\t\"red, \"\"metallic\"\"\"\n"));
	assert_null(strstr(text, "V201"));
	free(text);
	/* The static list's leads are 1..10: records whose link is one. */
	new_job_spec(client_a, "[\"leadId\",\"vin\"]", "[\"leadId\",\"vin\"]",
	    EXPORT_SSV, EXPORT_FILTER_STATIC_LIST, NULL, NULL, id);
	run_to_end(id, &j);
	assert_int_equal(j.status, EXPORT_COMPLETED);
	assert_int_equal(j.number_of_records, 100);
	text = job_file(&j, &len);
	assert_true(strncmp(text, "leadId;vin\n1;V1\n", 16) == 0);
	for (n = 0, p = strchr(text, '\n'); p != NULL && p[1] != '\0';
	    p = strchr(p + 1, '\n')) {
		int64_t lead = strtoll(p + 1, NULL, 10);

		assert_true(lead >= 1 && lead <= 10);
		n++;
	}
	assert_int_equal(n, 100);
	free(text);
	/* An empty selection is a file with the header row only. */
	new_job_spec(client_a, "[\"vin\"]", "[\"vin\"]", EXPORT_CSV,
	    EXPORT_FILTER_UPDATED_AT, "2030-01-01 00:00:00",
	    "2030-01-02 00:00:00", id);
	run_to_end(id, &j);
	assert_int_equal(j.number_of_records, 0);
	assert_int_equal(j.file_size, 4);
}

/*
 * A link to leads by email address: the static list filter matches the
 * record's email with its members' (no case), not their ids.
 */
static void
test_static_list_by_email(void **state)
{
	static const struct export_column cols[] = {
		{ "vin", CO_STRING }, { "owner", CO_EMAIL },
	};
	struct export_select sel;
	struct export_stream *st = NULL;
	const char *const *vals;
	const unsigned long *lens;
	int64_t list, lead1, lead2;
	char got[64] = "";
	int e;

	(void)state;
	sql("DROP TABLE IF EXISTS bx_rec_email");
	sql("DELETE FROM lead WHERE email LIKE 'bx-mail-%'");
	sql("CREATE TABLE bx_rec_email (`id` BIGINT NOT NULL AUTO_INCREMENT, "
	    "`vin` VARCHAR(255) NULL, `owner` VARCHAR(255) NULL, "
	    "PRIMARY KEY (`id`)) ENGINE=InnoDB");
	sql("INSERT INTO lead (email, createdAt, updatedAt) VALUES "
	    "('bx-mail-1@example.com', UTC_TIMESTAMP(), UTC_TIMESTAMP())");
	lead1 = (int64_t)mysql_insert_id(db_conn(db));
	sql("INSERT INTO lead (email, createdAt, updatedAt) VALUES "
	    "('bx-mail-2@example.com', UTC_TIMESTAMP(), UTC_TIMESTAMP())");
	lead2 = (int64_t)mysql_insert_id(db_conn(db));
	list = q_i64("SELECT id FROM static_list WHERE name = 'bx list'");
	sqlf("INSERT INTO list_member (list_id, lead_id, created_at, "
	    "updated_at) VALUES (%lld, %lld, UTC_TIMESTAMP(), "
	    "UTC_TIMESTAMP())", (long long)list, (long long)lead1);
	sql("INSERT INTO bx_rec_email (vin, owner) VALUES "
	    "('E1', 'BX-MAIL-1@example.com'), ('E2', 'bx-mail-2@example.com'), "
	    "('E3', NULL), ('E4', 'bx-mail-1@example.com')");
	memset(&sel, 0, sizeof(sel));
	sel.table = "bx_rec_email";
	sel.cols = cols;
	sel.ncols = 2;
	sel.filter = EXPORT_FILTER_STATIC_LIST;
	sel.list_id = (int32_t)list;
	sel.link_field = "owner";
	sel.link_by_email = true;
	assert_int_equal(repo_bulk_export_stream_open(db, &sel, &st), 0);
	while ((e = repo_bulk_export_stream_next(st, &vals, &lens)) == 1) {
		assert_non_null(vals[0]);
		strncat(got, vals[0], sizeof(got) - strlen(got) - 1);
		strncat(got, " ", sizeof(got) - strlen(got) - 1);
	}
	assert_int_equal(e, 0);
	repo_bulk_export_stream_close(st);
	/* lead 2 is not on the list; E3 has no link. */
	assert_string_equal(got, "E1 E4 ");
	sqlf("DELETE FROM list_member WHERE lead_id IN (%lld, %lld)",
	    (long long)lead1, (long long)lead2);
	sql("DELETE FROM lead WHERE email LIKE 'bx-mail-%'");
	sql("DROP TABLE bx_rec_email");
}

static void
test_job_fails_cleanly(void **state)
{
	char id[EXPORT_ID_LEN + 1];
	struct export_job j;

	(void)state;
	/* A field removed from the type since the job was made. */
	new_job_spec(client_a, "[\"vin\",\"ghost\"]", "[\"vin\",\"ghost\"]",
	    EXPORT_CSV, EXPORT_FILTER_UPDATED_AT, "2024-01-01 00:00:00",
	    "2024-01-31 00:00:00", id);
	run_to_end(id, &j);
	assert_int_equal(j.status, EXPORT_FAILED);
	assert_string_equal(j.error_msg, "Field 'ghost' no longer exists");
	assert_int_equal(j.file_size, -1);
	assert_int_equal(q_i64("SELECT COUNT(*) FROM export_slot WHERE "
	    "owner IS NOT NULL"), 0);
	assert_int_equal(files_ending(".part"), 0);
}

static void
test_stop_gives_job_back(void **state)
{
	struct export_runner r;
	char id[EXPORT_ID_LEN + 1];
	struct export_job j;

	(void)state;
	runner_make(&r);
	new_job(client_a, id);
	enqueue_ok(id);
	stop_flag = 1;
	assert_int_equal(export_runner_step(&r), 1);
	assert_int_equal(repo_bulk_export_get(db, id, client_a, OBJ, &j), 0);
	assert_int_equal(j.status, EXPORT_QUEUED);
	assert_int_equal(j.attempts, 0);
	assert_int_equal(files_like(id, ""), 0);
	stop_flag = 0;
	assert_int_equal(export_runner_step(&r), 1);
	assert_int_equal(status_of(id), EXPORT_COMPLETED);
}

static void
test_expiry_and_purge(void **state)
{
	struct export_runner r;
	char id[EXPORT_ID_LEN + 1], old[EXPORT_ID_LEN + 1], path[512];
	struct timeval tv[2];
	struct export_job j;
	FILE *fp;

	(void)state;
	new_job(client_a, id);
	run_to_end(id, &j);
	assert_false(j.file_expired);
	assert_int_equal(export_file_path(path, sizeof(path), dir, id,
	    j.attempts, j.format), 0);
	assert_int_equal(access(path, R_OK), 0);
	/* Eight days on, the file is gone for the API at once ... */
	sqlf("UPDATE export_job SET finished_at = finished_at - INTERVAL 8 DAY "
	    "WHERE export_id = '%s'", id);
	assert_int_equal(repo_bulk_export_get(db, id, client_a, OBJ, &j), 0);
	assert_true(j.file_expired);
	assert_int_equal(j.status, EXPORT_COMPLETED);
	/* ... and from the disk at the janitor's round. */
	new_job(client_a, old);
	sqlf("UPDATE export_job SET status = 'Cancelled', created_at = "
	    "created_at - INTERVAL 31 DAY WHERE export_id = '%s'", old);
	(void)snprintf(path, sizeof(path), "%s/%s-1.csv.abc.part", dir, old);
	fp = fopen(path, "w");
	assert_non_null(fp);
	(void)fclose(fp);
	tv[0].tv_sec = tv[1].tv_sec = time(NULL) - 7200;
	tv[0].tv_usec = tv[1].tv_usec = 0;
	assert_int_equal(utimes(path, tv), 0);
	(void)snprintf(path, sizeof(path), "%s/%s-2.csv.def.part", dir, old);
	fp = fopen(path, "w");
	assert_non_null(fp);
	(void)fclose(fp);
	runner_make(&r);
	assert_int_equal(export_runner_janitor(&r), 0);
	assert_int_equal(export_file_path(path, sizeof(path), dir, id, 1,
	    EXPORT_CSV), 0);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(q_i64f("SELECT file_expired FROM export_job WHERE "
	    "export_id = '%s'", id), 1);
	assert_int_equal(repo_bulk_export_get(db, old, client_a, OBJ, &j),
	    -REPO_ERR_NOT_FOUND);
	/* The stale partial file went, the fresh one stays. */
	assert_int_equal(files_ending(".part"), 1);
	(void)unlink(path);
	(void)snprintf(path, sizeof(path), "%s/%s-2.csv.def.part", dir, old);
	(void)unlink(path);
}

static void
test_orphans(void **state)
{
	char id[EXPORT_ID_LEN + 1];

	(void)state;
	new_job(client_a, id);
	sqlf("UPDATE export_job SET status = 'Processing', started_at = "
	    "NOW(6) - INTERVAL 10 MINUTE WHERE export_id = '%s'", id);
	assert_int_equal(repo_bulk_export_requeue_orphans(db, 3600), 0);
	assert_int_equal(repo_bulk_export_requeue_orphans(db, 60), 1);
	assert_int_equal(status_of(id), EXPORT_QUEUED);
}

static void
test_day_bytes(void **state)
{
	char a[EXPORT_ID_LEN + 1], b[EXPORT_ID_LEN + 1], c[EXPORT_ID_LEN + 1];
	int64_t sum;

	(void)state;
	new_job(client_a, a);
	new_job(client_b, b);
	new_job(client_a, c);
	sqlf("UPDATE export_job SET status = 'Completed', file_size = 1000, "
	    "day_key = 20240310 WHERE export_id = '%s'", a);
	sqlf("UPDATE export_job SET status = 'Completed', file_size = 234, "
	    "day_key = 20240310 WHERE export_id = '%s'", b);
	sqlf("UPDATE export_job SET status = 'Completed', file_size = 99, "
	    "day_key = 20240309 WHERE export_id = '%s'", c);
	assert_int_equal(repo_bulk_export_day_bytes(db, 20240310, &sum), 0);
	assert_int_equal(sum, 1234);
	assert_int_equal(repo_bulk_export_day_bytes(db, 20240311, &sum), 0);
	assert_int_equal(sum, 0);
}

static void
test_list(void **state)
{
	char ids[5][EXPORT_ID_LEN + 1], other[EXPORT_ID_LEN + 1];
	struct export_job *jobs;
	size_t n;
	int i;

	(void)state;
	for (i = 0; i < 5; i++)
		new_job(client_a, ids[i]);
	new_job(client_b, other);
	assert_int_equal(repo_bulk_export_cancel(db, ids[1], client_a, OBJ),
	    0);
	assert_int_equal(repo_bulk_export_cancel(db, ids[3], client_a, OBJ),
	    0);
	/* Eight days old: out of the list. */
	sqlf("UPDATE export_job SET created_at = created_at - INTERVAL 8 DAY "
	    "WHERE export_id = '%s'", ids[4]);
	assert_int_equal(repo_bulk_export_list(db, client_a, OBJ, "", 0, 2,
	    &jobs, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(jobs[0].export_id, ids[0]);
	assert_string_equal(jobs[1].export_id, ids[1]);
	i = (int)jobs[1].id;
	repo_bulk_export_jobs_free(jobs, n);
	assert_int_equal(repo_bulk_export_list(db, client_a, OBJ, "", i, 10,
	    &jobs, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(jobs[0].export_id, ids[2]);
	assert_string_equal(jobs[1].export_id, ids[3]);
	repo_bulk_export_jobs_free(jobs, n);
	assert_int_equal(repo_bulk_export_list(db, client_a, OBJ,
	    "Cancelled,Completed", 0, 10, &jobs, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(jobs[0].status, EXPORT_CANCELLED);
	repo_bulk_export_jobs_free(jobs, n);
	assert_int_equal(repo_bulk_export_list(db, client_b, "BXCAR", "", 0, 10,
	    &jobs, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(jobs[0].export_id, other);
	repo_bulk_export_jobs_free(jobs, n);
	assert_int_equal(repo_bulk_export_list(db, client_b, "nothing", "", 0,
	    10, &jobs, &n), 0);
	assert_int_equal(n, 0);
	repo_bulk_export_jobs_free(jobs, n);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_create_and_read, setup),
		cmocka_unit_test_setup(test_state_machine, setup),
		cmocka_unit_test_setup(test_count_by_status, setup),
		cmocka_unit_test_setup(test_queue_full, setup),
		cmocka_unit_test_setup(test_queue_race, setup),
		cmocka_unit_test_setup(test_two_slots, setup),
		cmocka_unit_test_setup(test_take_over_silent_runner, setup),
		cmocka_unit_test_setup(test_take_over_dead_process, setup),
		cmocka_unit_test_setup(test_export_file, setup),
		cmocka_unit_test_setup(test_filters_and_formats, setup),
		cmocka_unit_test_setup(test_static_list_by_email, setup),
		cmocka_unit_test_setup(test_job_fails_cleanly, setup),
		cmocka_unit_test_setup(test_stop_gives_job_back, setup),
		cmocka_unit_test_setup(test_expiry_and_purge, setup),
		cmocka_unit_test_setup(test_orphans, setup),
		cmocka_unit_test_setup(test_day_bytes, setup),
		cmocka_unit_test_setup(test_list, setup),
	};

	if (itest_config(&cfg) != 0) {
		(void)printf("SKIP: MAUTO_TEST_DB_* not set\n");
		return 77;
	}
	if (sodium_init() < 0)
		return 1;
	cfg.export_dir = dir;
	cfg.export_lease_secs = 30;
	cfg.export_daily_quota_mb = 500;
	cfg.host_id = host_id;
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
