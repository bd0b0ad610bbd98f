/*
 * repo_programs against a real MariaDB: partitions, programs and status
 * changes, the batch writers of Push Lead (members, and activities through
 * repo_activity.c), lists, forms, campaign members, the membership reads,
 * cookies, and Merge Leads (what moves, what is kept, and that a failure
 * half-way leaves every lead as it was).  Needs MAUTO_TEST_DB_* (migrated);
 * exits 77 (automake's SKIP) without them.
 *
 * The tests empty the lead tables, and other integration tests use them
 * at the same time (make -j): this one works on a private copy of the
 * test database's schema and seed rows, dropped at the end.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <mysql.h>

#include "db/pool.h"
#include "db/query.h"
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_activity.h"
#include "repo/repo_cookies.h"
#include "repo/repo_forms.h"
#include "repo/repo_lead_fields.h"
#include "repo/repo_lists.h"
#include "repo/repo_merge.h"
#include "repo/repo_partitions.h"
#include "repo/repo_programs.h"
#include "util/arena.h"
#include "util/config.h"
#include "util/num.h"
#include "itest.h"

static struct config cfg;
static struct db *db;
static struct db *src;		/* the test database, for the copy */
static char dbname[128];

/* The migrations' seed rows the repositories need. */
static const char *const seed_tables[] = {
	"lead_partition", "lead_schema", "activity_type", "workspace", "folder",
	NULL
};

/* Fixture SQL (tests only; production SQL is in src/repo). */
static void sql(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

static void
sql(const char *fmt, ...)
{
	char q[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(q, sizeof(q), fmt, ap);
	va_end(ap);
	itest_sql(db, q);
}

/* The first column of the first row of a query, as text ("" for NULL). */
static const char * str_of(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

static const char *
str_of(const char *fmt, ...)
{
	static char out[4096];
	char q[4096];
	MYSQL_RES *res;
	MYSQL_ROW row;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(q, sizeof(q), fmt, ap);
	va_end(ap);
	out[0] = '\0';
	if (mysql_query(db_conn(db), q) != 0)
		fail_msg("%s: %s", q, mysql_error(db_conn(db)));
	if ((res = mysql_store_result(db_conn(db))) == NULL)
		fail_msg("%s: no result", q);
	if ((row = mysql_fetch_row(res)) != NULL && row[0] != NULL)
		snprintf(out, sizeof(out), "%s", row[0]);
	mysql_free_result(res);
	return out;
}

static int64_t int_of(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

static int64_t
int_of(const char *fmt, ...)
{
	char q[4096];
	va_list ap;
	int64_t v = -1;

	va_start(ap, fmt);
	vsnprintf(q, sizeof(q), fmt, ap);
	va_end(ap);
	if (num_parse_i64(str_of("%s", q), INT64_MIN, INT64_MAX, &v) != 0)
		fail_msg("%s: not a number", q);
	return v;
}

/* A new lead; more is ", col = value, ..." SQL or "". */
static int64_t
lead_new(const char *email, const char *more)
{
	sql("INSERT INTO lead SET email = '%s', createdAt = UTC_TIMESTAMP(), "
	    "updatedAt = UTC_TIMESTAMP()%s", email, more);
	return (int64_t)mysql_insert_id(db_conn(db));
}

/* Runs one statement on the test database; -1 on error (printed). */
static int src_sql(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

static int
src_sql(const char *fmt, ...)
{
	char q[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(q, sizeof(q), fmt, ap);
	va_end(ap);
	if (mysql_query(db_conn(src), q) != 0) {
		fprintf(stderr, "%s: %s\n", q, mysql_error(db_conn(src)));
		return -1;
	}
	return 0;
}

/*
 * Creates dbname with every table of the test database (CREATE TABLE
 * ... LIKE) and the seed rows, and points cfg at it.
 */
static int
private_db(void)
{
	MYSQL_RES *res;
	MYSQL_ROW row;
	size_t i;
	int r = -1;

	if (db_open(&src, &cfg, &repo_schema, DB_PREPARE_NONE) != 0)
		return -1;
	snprintf(dbname, sizeof(dbname), "%.40s_prog%ld", cfg.db_name,
	    (long)getpid());
	if (src_sql("DROP DATABASE IF EXISTS `%s`", dbname) != 0 ||
	    src_sql("CREATE DATABASE `%s`", dbname) != 0 ||
	    src_sql("SELECT table_name FROM information_schema.tables WHERE "
	    "table_schema = DATABASE() AND table_type = 'BASE TABLE'") != 0 ||
	    (res = mysql_store_result(db_conn(src))) == NULL)
		return -1;
	while ((row = mysql_fetch_row(res)) != NULL)
		if (src_sql("CREATE TABLE `%s`.`%s` LIKE `%s`", dbname, row[0],
		    row[0]) != 0)
			goto out;
	for (i = 0; seed_tables[i] != NULL; i++)
		if (src_sql("INSERT INTO `%s`.`%s` SELECT * FROM `%s`", dbname,
		    seed_tables[i], seed_tables[i]) != 0)
			goto out;
	/* Standard fields only: custom ones are columns other tests add. */
	if (src_sql("INSERT INTO `%s`.lead_field SELECT * FROM lead_field "
	    "WHERE is_custom = 0", dbname) != 0)
		goto out;
	cfg.db_name = dbname;
	r = 0;
out:
	mysql_free_result(res);
	return r;
}

static int
group_setup(void **state)
{
	(void)state;
	return itest_open(&db, &cfg, NULL, NULL, 0);
}

static int
group_teardown(void **state)
{
	(void)state;
	return itest_close(db, NULL);
}

static int
setup(void **state)
{
	(void)state;
	sql("DROP TRIGGER IF EXISTS itest_lead_delete");
	sql("DELETE FROM activity");
	sql("DELETE FROM list_member");
	sql("DELETE FROM program_member");
	sql("DELETE FROM campaign_member");
	sql("DELETE FROM lead_cookie");
	sql("DELETE FROM form");
	sql("DELETE FROM program");
	sql("DELETE FROM static_list");
	sql("DELETE FROM lead");
	sql("DELETE FROM lead_partition WHERE id <> 1");
	return 0;
}

static const char *const webinar[] = {
	"Not in Program", "Invited", "Registered", "Attended", "No Show"
};
static const bool webinar_ok[] = { false, false, false, true, false };

static int32_t
program_new(const char *name)
{
	struct repo_program_new p = { name, "program", "Webinar", webinar,
	    webinar_ok, 5 };
	int32_t id;

	assert_int_equal(repo_programs_insert(db, &p, &id), 0);
	assert_true(id > 0);
	return id;
}

static void
test_partitions(void **state)
{
	struct repo_partition_list l = { NULL, 0 };
	int32_t id, id2;

	(void)state;
	assert_int_equal(repo_partitions_insert(db, "Mexico",
	    "Mexican leads", &id), 0);
	assert_int_equal(repo_partitions_insert(db, "Mexico", NULL,
	    &id2), -REPO_ERR_CONFLICT);
	assert_int_equal(repo_partitions_insert(db, "NoDesc", NULL,
	    &id2), 0);
	assert_int_equal(repo_partitions_list(db, &l), 0);
	assert_int_equal(l.count, 3);
	assert_int_equal(l.items[0].id, 1);
	assert_string_equal(l.items[0].name, "Default");
	assert_string_equal(l.items[0].description,
	    "Initial system lead partition");
	assert_int_equal(l.items[1].id, id);
	assert_string_equal(l.items[1].name, "Mexico");
	assert_string_equal(l.items[1].description, "Mexican leads");
	assert_null(l.items[2].description);
	repo_partitions_list_free(&l);
	assert_int_equal(l.count, 0);
}

static void
test_partition_update(void **state)
{
	struct repo_partition_move m[5];
	int64_t a, b;
	int32_t mx;

	(void)state;
	assert_int_equal(repo_partitions_insert(db, "Mexico", NULL,
	    &mx), 0);
	a = lead_new("a@example.com", "");
	b = lead_new("b@example.com", "");
	memset(m, 0, sizeof(m));
	m[0].lead_id = a;
	m[0].partition = "Mexico";
	m[1].lead_id = 99999999;
	m[1].partition = "Mexico";
	m[2].lead_id = b;
	m[2].partition = "mexico";		/* names are case-sensitive */
	m[3].lead_id = b;
	m[3].partition = "Mexico";
	m[3].skip = true;			/* the caller refused it */
	m[4].lead_id = a;
	m[4].partition = "Mexico";		/* already there */
	assert_int_equal(repo_partitions_lead_update(db, m, 5), 0);
	assert_int_equal(m[0].result, REPO_REC_UPDATED);
	assert_int_equal(m[1].result, REPO_REC_NO_LEAD);
	assert_int_equal(m[2].result, REPO_REC_NO_PARTITION);
	assert_int_equal(m[4].result, REPO_REC_UPDATED);
	assert_int_equal(int_of("SELECT leadPartitionId FROM lead WHERE "
	    "id = %lld", (long long)a), mx);
	assert_int_equal(int_of("SELECT leadPartitionId FROM lead WHERE "
	    "id = %lld", (long long)b), 1);
	/* One activity: the second move of a changed nothing. */
	assert_int_equal(int_of("SELECT COUNT(*) FROM activity WHERE "
	    "activity_type_id = 100"), 1);
	assert_int_equal(int_of("SELECT COUNT(*) FROM activity WHERE "
	    "lead_id = %lld AND primary_value_id = %d AND attributes = "
	    "'{\"Old Partition ID\":1,\"Old Partition\":\"Default\","
	    "\"New Partition ID\":%d,\"New Partition\":\"Mexico\"}'",
	    (long long)a, mx, mx), 1);
}

static void
test_programs(void **state)
{
	static const char *const st[] = { "A", "B", "C" };
	static const bool ok[] = { false, true, false };
	struct repo_program_new dup = { "P", "engagement", "Nurture", st, ok,
	    3 };
	struct repo_program p;
	struct repo_program_list l = { NULL, 0 };
	int32_t id, id2, got;

	(void)state;
	id = program_new("Webinar One");
	assert_int_equal(repo_programs_insert(db, &dup, &id2), 0);
	dup.name = "Webinar One";
	assert_int_equal(repo_programs_insert(db, &dup, &got),
	    -REPO_ERR_CONFLICT);
	dup.nstatuses = 0;
	assert_int_equal(repo_programs_insert(db, &dup, &got),
	    -REPO_ERR_INVALID);
	assert_int_equal(repo_programs_get_by_id(db, id, &p), 0);
	assert_string_equal(p.name, "Webinar One");
	assert_string_equal(p.type, "program");
	assert_string_equal(p.channel, "Webinar");
	assert_int_equal(p.nstatuses, 5);
	assert_int_equal(p.statuses[0].step, 1);
	assert_string_equal(p.statuses[3].name, "Attended");
	assert_true(p.statuses[3].success);
	assert_false(p.statuses[4].success);
	repo_programs_program_clear(&p);
	assert_int_equal(repo_programs_get_by_id(db, id2 + 1000, &p),
	    -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_programs_get_id_by_name(db, "P", &got), 0);
	assert_int_equal(got, id2);
	assert_int_equal(repo_programs_get_id_by_name(db, "p", &got),
	    -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_programs_list(db, &l), 0);
	assert_int_equal(l.count, 2);
	assert_int_equal(l.items[0].nstatuses, 5);
	assert_int_equal(l.items[1].nstatuses, 3);
	assert_string_equal(l.items[1].statuses[1].name, "B");
	assert_true(l.items[1].statuses[1].success);
	assert_string_equal(l.items[1].type, "engagement");
	repo_programs_list_free(&l);
}

/* The membership of lead in program pid: step, acquired, success. */
static const char *
member_of(int32_t pid, int64_t lead)
{
	return str_of("SELECT CONCAT(status_step, ' ', acquired_by, ' ', "
	    "reached_success) FROM program_member WHERE program_id = %d AND "
	    "lead_id = %lld", pid, (long long)lead);
}

/*
 * The batch writers of Push Lead: members made in one statement, an
 * existing one moved only forward and only when asked; activities of
 * several types in one call.
 */
static void
test_batch_writes(void **state)
{
	struct program_member_new m[2];
	struct activity acts[3];
	int32_t pid;
	int64_t a, b;

	(void)state;
	pid = program_new("Batch Program");
	a = lead_new("batch-a@example.com", "");
	b = lead_new("batch-b@example.com", "");
	memset(m, 0, sizeof(m));
	m[0].lead_id = a;
	m[0].acquired_by = true;
	m[1].lead_id = b;
	assert_int_equal(repo_programs_members_upsert(db, pid, m, 0, 3,
	    false, false), 0);
	assert_int_equal(repo_programs_members_upsert(db, pid, m, 2, 3,
	    false, false), 0);
	assert_string_equal(member_of(pid, a), "3 1 0");
	assert_string_equal(member_of(pid, b), "3 0 0");
	/* Not forward: an existing member stays as it is. */
	assert_int_equal(repo_programs_members_upsert(db, pid, m, 1, 4,
	    true, false), 0);
	assert_string_equal(member_of(pid, a), "3 1 0");
	/* Forward to a success step, and never back. */
	assert_int_equal(repo_programs_members_upsert(db, pid, m, 1, 4,
	    true, true), 0);
	assert_string_equal(member_of(pid, a), "4 1 1");
	assert_int_equal(repo_programs_members_upsert(db, pid, m, 1, 2,
	    false, true), 0);
	assert_string_equal(member_of(pid, a), "4 1 1");

	memset(acts, 0, sizeof(acts));
	acts[0].lead_id = a;
	acts[0].type = ACT_NEW_LEAD;
	acts[0].primary_id = a;
	acts[0].primary_value = "Ann Lee";
	acts[1].lead_id = b;
	acts[1].type = ACT_PUSH_LEAD;
	acts[1].primary_id = pid;
	acts[1].primary_value = "Batch Program";
	acts[1].attributes = "{\"Source\":\"x\"}";
	acts[2].lead_id = a;
	acts[2].type = ACT_CHANGE_DATA_VALUE;
	assert_int_equal(repo_activity_insert_batch(db, acts, 0), 0);
	assert_int_equal(repo_activity_insert_batch(db, acts, 3), 0);
	assert_int_equal(int_of("SELECT COUNT(*) FROM activity WHERE "
	    "lead_id IN (%lld, %lld)", (long long)a, (long long)b), 3);
	assert_int_equal(int_of("SELECT primary_value_id FROM activity "
	    "WHERE lead_id = %lld AND activity_type_id = %d", (long long)a,
	    ACT_NEW_LEAD), a);
	assert_string_equal(str_of("SELECT CONCAT(primary_value, ' ', "
	    "attributes) FROM activity WHERE lead_id = %lld AND "
	    "activity_type_id = %d", (long long)a, ACT_NEW_LEAD),
	    "Ann Lee {}");
	assert_string_equal(str_of("SELECT attributes FROM activity WHERE "
	    "lead_id = %lld AND activity_type_id = %d", (long long)b,
	    ACT_PUSH_LEAD), "{\"Source\":\"x\"}");
	assert_int_equal(int_of("SELECT COUNT(*) FROM activity WHERE "
	    "lead_id = %lld AND activity_type_id = %d AND primary_value_id "
	    "IS NULL AND primary_value IS NULL", (long long)a,
	    ACT_CHANGE_DATA_VALUE), 1);
}

static void
test_member_status(void **state)
{
	struct repo_status_change ch[5];
	struct repo_missing miss;
	struct repo_program p;
	struct activity_row *rows;
	size_t n;
	int64_t a, b;
	int32_t pid;
	char want[256];

	(void)state;
	pid = program_new("Webinar");
	a = lead_new("a@example.com", "");
	b = lead_new("b@example.com", "");
	assert_int_equal(repo_programs_member_add(db, pid, a, NULL, &miss), 0);
	assert_int_equal(int_of("SELECT status_step FROM program_member "
	    "WHERE lead_id = %lld", (long long)a), 1);
	assert_int_equal(repo_programs_member_add(db, pid, b, "Nope", &miss),
	    -REPO_ERR_NOT_FOUND);
	assert_int_equal(miss.what, REPO_WHAT_STATUS);
	assert_int_equal(repo_programs_member_add(db, pid, 99999999, NULL,
	    &miss), -REPO_ERR_NOT_FOUND);
	assert_int_equal(miss.what, REPO_WHAT_LEAD);
	assert_int_equal(miss.id, 99999999);
	assert_int_equal(repo_programs_member_add(db, pid + 1000, a, NULL,
	    &miss), -REPO_ERR_NOT_FOUND);
	assert_int_equal(miss.what, REPO_WHAT_PROGRAM);

	assert_int_equal(repo_programs_get_by_id(db, pid, &p), 0);
	memset(ch, 0, sizeof(ch));
	ch[0].lead_id = a;
	ch[1].lead_id = b;			/* not a member */
	ch[2].lead_id = 99999999;		/* no such lead */
	ch[3].lead_id = a;			/* now already there */
	ch[4].lead_id = b;
	ch[4].skip = true;
	assert_int_equal(repo_programs_member_status_update(db, &p, 2, ch, 5),
	    0);
	assert_int_equal(ch[0].result, REPO_REC_UPDATED);
	assert_int_equal(ch[1].result, REPO_REC_NOT_MEMBER);
	assert_int_equal(ch[2].result, REPO_REC_NO_LEAD);
	assert_int_equal(ch[3].result, REPO_REC_NOT_FORWARD);
	assert_int_equal(int_of("SELECT status_step FROM program_member "
	    "WHERE lead_id = %lld", (long long)a), 3);
	assert_int_equal(int_of("SELECT reached_success FROM program_member "
	    "WHERE lead_id = %lld", (long long)a), 0);
	/* Back to an earlier step: refused. */
	memset(ch, 0, sizeof(ch));
	ch[0].lead_id = a;
	assert_int_equal(repo_programs_member_status_update(db, &p, 1, ch, 1),
	    0);
	assert_int_equal(ch[0].result, REPO_REC_NOT_FORWARD);
	/* To the success step. */
	assert_int_equal(repo_programs_member_status_update(db, &p, 3, ch, 1),
	    0);
	assert_int_equal(ch[0].result, REPO_REC_UPDATED);
	assert_int_equal(int_of("SELECT reached_success FROM program_member "
	    "WHERE lead_id = %lld", (long long)a), 1);
	assert_int_equal(repo_programs_member_status_update(db, &p, 9, ch, 1),
	    -REPO_ERR_INVALID);
	repo_programs_program_clear(&p);

	assert_int_equal(repo_activity_list_by_lead(db, a, 0, 10, &rows, &n),
	    0);
	assert_int_equal(n, 2);
	assert_int_equal(rows[0].type, ACT_CHANGE_PROGRAM_STATUS);
	assert_int_equal(rows[0].primary_id, pid);
	assert_string_equal(rows[0].primary_value, "Webinar");
	snprintf(want, sizeof(want), "{\"Old Status ID\":1,"
	    "\"Old Status\":\"Not in Program\",\"New Status ID\":3,"
	    "\"New Status\":\"Registered\",\"Success\":false,"
	    "\"Acquired By\":false,\"Program ID\":%d}", (int)pid);
	assert_string_equal(rows[0].attributes, want);
	assert_non_null(strstr(rows[1].attributes,
	    "\"New Status\":\"Attended\",\"Success\":true"));
	repo_activity_list_free(rows, n);
}

static void
test_lists_forms_campaigns(void **state)
{
	static const char *const fields[] = { "EMAIL", "firstName", "email" };
	static const char *const bad[] = { "email", "noSuchField" };
	struct repo_missing miss;
	int64_t leads[2], bogus[2];
	int32_t list, id, pid, got;
	char want[128];

	(void)state;
	leads[0] = lead_new("a@example.com", "");
	leads[1] = lead_new("b@example.com", "");
	assert_int_equal(repo_lists_insert(db, "L", &list), 0);
	assert_int_equal(repo_lists_insert(db, "L", &id),
	    -REPO_ERR_CONFLICT);
	assert_int_equal(repo_lists_get_id_by_name(db, "L",
	    &got), 0);
	assert_int_equal(got, list);
	assert_int_equal(repo_lists_member_add(db, list + 1000, leads,
	    2, &miss), -REPO_ERR_NOT_FOUND);
	assert_int_equal(miss.what, REPO_WHAT_LIST);
	bogus[0] = leads[0];
	bogus[1] = 99999999;
	assert_int_equal(repo_lists_member_add(db, list, bogus, 2,
	    &miss), -REPO_ERR_NOT_FOUND);
	assert_int_equal(miss.what, REPO_WHAT_LEAD);
	assert_int_equal(miss.id, 99999999);
	assert_int_equal(miss.index, 1);
	/* Nothing was added: the good lead of that call is not a member. */
	assert_int_equal(int_of("SELECT COUNT(*) FROM list_member"), 0);
	assert_int_equal(repo_lists_member_add(db, list, leads, 2,
	    &miss), 0);
	assert_int_equal(repo_lists_member_add(db, list, leads, 1,
	    &miss), 0);
	assert_int_equal(int_of("SELECT COUNT(*) FROM list_member"), 2);
	/* An "Add to List" activity per lead added, not per call. */
	assert_int_equal(int_of("SELECT COUNT(*) FROM activity WHERE "
	    "activity_type_id = 24 AND primary_value_id = %d", list), 2);
	/* Named by the list, with its id and the API's Source. */
	snprintf(want, sizeof(want), "L {\"List ID\":%d,\"Source\":\"Web "
	    "service API\"}", list);
	assert_string_equal(str_of("SELECT GROUP_CONCAT(DISTINCT CONCAT("
	    "primary_value, ' ', attributes)) FROM activity WHERE "
	    "activity_type_id = 24"), want);

	pid = program_new("Form Program");
	/* A list of a program is named "<program>.<list>". */
	assert_int_equal(int_of("SELECT COUNT(*) FROM program WHERE id = %d",
	    pid), 1);
	sql("UPDATE static_list SET program_id = %d WHERE id = %d", pid, list);
	leads[1] = lead_new("c@example.com", "");
	assert_int_equal(repo_lists_member_add(db, list, &leads[1], 1,
	    &miss), 0);
	assert_string_equal(str_of("SELECT primary_value FROM activity WHERE "
	    "activity_type_id = 24 AND lead_id = %lld", (long long)leads[1]),
	    "Form Program.L");
	assert_int_equal(repo_forms_insert(db, "F", pid, fields, 3,
	    &id, &miss), 0);
	assert_string_equal(str_of("SELECT GROUP_CONCAT(field_name ORDER BY "
	    "field_name) FROM form_field WHERE form_id = %d", id),
	    "email,firstName");
	assert_int_equal(int_of("SELECT program_id FROM form WHERE id = %d",
	    id), pid);
	assert_int_equal(repo_forms_insert(db, "F", 0, fields, 1, &got,
	    &miss), -REPO_ERR_CONFLICT);
	assert_int_equal(repo_forms_insert(db, "G", 0, bad, 2, &got,
	    &miss), -REPO_ERR_NOT_FOUND);
	assert_int_equal(miss.what, REPO_WHAT_FIELD);
	assert_int_equal(miss.index, 1);
	assert_int_equal(repo_forms_insert(db, "H", pid + 1000, fields,
	    1, &got, &miss), -REPO_ERR_NOT_FOUND);
	assert_int_equal(miss.what, REPO_WHAT_PROGRAM);
	assert_int_equal(int_of("SELECT COUNT(*) FROM form"), 1);
	assert_int_equal(repo_forms_get_id_by_name(db, "F", &got), 0);
	assert_int_equal(got, id);
	assert_int_equal(repo_forms_get_id_by_name(db, "G", &got),
	    -REPO_ERR_NOT_FOUND);

	assert_int_equal(repo_programs_campaign_member_add(db, 77, bogus, 2,
	    &miss), -REPO_ERR_NOT_FOUND);
	assert_int_equal(miss.id, 99999999);
	assert_int_equal(repo_programs_campaign_member_add(db, 77, leads, 2,
	    &miss), 0);
	assert_int_equal(repo_programs_campaign_member_add(db, 77, leads, 2,
	    &miss), 0);
	assert_int_equal(int_of("SELECT COUNT(*) FROM campaign_member WHERE "
	    "campaign_id = 77"), 2);
}

static void
test_membership_reads(void **state)
{
	struct repo_member_query q;
	struct repo_member_list l = { NULL, 0 };
	struct repo_missing miss;
	int64_t a;
	int32_t p1, p2;

	(void)state;
	a = lead_new("a@example.com", "");
	sql("INSERT INTO static_list (id, name, created_at, updated_at) "
	    "VALUES (11, 'l11', NOW(), NOW()), (12, 'l12', NOW(), NOW()), "
	    "(13, 'l13', NOW(), NOW())");
	sql("INSERT INTO list_member VALUES (12, %lld, '2024-01-02 03:04:05', "
	    "'2024-02-03 04:05:06'), (11, %lld, NOW(), NOW()), "
	    "(13, %lld, NOW(), NOW())", (long long)a, (long long)a,
	    (long long)a);
	memset(&q, 0, sizeof(q));
	q.lead_id = a;
	q.limit = 2;
	assert_int_equal(repo_programs_list_membership(db, &q, &l), 0);
	assert_int_equal(l.count, 2);
	assert_int_equal(l.items[0].id, 11);
	assert_int_equal(l.items[1].id, 12);
	assert_string_equal(l.items[1].created_at, "2024-01-02T03:04:05Z");
	assert_string_equal(l.items[1].updated_at, "2024-02-03T04:05:06Z");
	repo_programs_member_list_free(&l);
	q.after = 12;
	assert_int_equal(repo_programs_list_membership(db, &q, &l), 0);
	assert_int_equal(l.count, 1);
	assert_int_equal(l.items[0].id, 13);
	repo_programs_member_list_free(&l);
	q.lead_id = a + 1000;
	q.after = 0;
	assert_int_equal(repo_programs_list_membership(db, &q, &l), 0);
	assert_int_equal(l.count, 0);
	repo_programs_member_list_free(&l);

	p1 = program_new("P1");
	p2 = program_new("P2");
	assert_int_equal(repo_programs_member_add(db, p1, a, "Attended",
	    &miss), 0);
	assert_int_equal(repo_programs_member_add(db, p2, a, "Invited",
	    &miss), 0);
	sql("UPDATE program_member SET updated_at = '2024-05-01 00:00:00', "
	    "membership_date = '2024-04-01 00:00:00' WHERE program_id = %d",
	    p1);
	sql("UPDATE program_member SET updated_at = '2024-06-01 00:00:00', "
	    "stream = 'S1', nurture_cadence = 'paused', is_exhausted = 1 "
	    "WHERE program_id = %d", p2);
	memset(&q, 0, sizeof(q));
	q.lead_id = a;
	q.limit = 10;
	assert_int_equal(repo_programs_program_membership(db, &q, &l), 0);
	assert_int_equal(l.count, 2);
	assert_int_equal(l.items[0].id, p1);
	assert_string_equal(l.items[0].status, "Attended");
	assert_true(l.items[0].reached_success);
	assert_false(l.items[0].is_exhausted);
	assert_null(l.items[0].stream);
	assert_string_equal(l.items[0].created_at, "2024-04-01T00:00:00Z");
	assert_string_equal(l.items[0].updated_at, "2024-05-01T00:00:00Z");
	assert_string_equal(l.items[1].status, "Invited");
	assert_false(l.items[1].reached_success);
	assert_true(l.items[1].is_exhausted);
	assert_string_equal(l.items[1].stream, "S1");
	assert_string_equal(l.items[1].cadence, "paused");
	repo_programs_member_list_free(&l);
	q.earliest = "2024-05-15 00:00:00";
	assert_int_equal(repo_programs_program_membership(db, &q, &l), 0);
	assert_int_equal(l.count, 1);
	assert_int_equal(l.items[0].id, p2);
	repo_programs_member_list_free(&l);
	q.earliest = NULL;
	q.latest = "2024-05-01 00:00:00";	/* inclusive */
	assert_int_equal(repo_programs_program_membership(db, &q, &l), 0);
	assert_int_equal(l.count, 1);
	assert_int_equal(l.items[0].id, p1);
	repo_programs_member_list_free(&l);
	q.latest = NULL;
	q.program_ids = str_of("SELECT '%d,999'", p2);
	assert_int_equal(repo_programs_program_membership(db, &q, &l), 0);
	assert_int_equal(l.count, 1);
	assert_int_equal(l.items[0].id, p2);
	repo_programs_member_list_free(&l);

	sql("INSERT INTO campaign_member VALUES (5, %lld, '2024-01-01', "
	    "'2024-01-01'), (6, %lld, '2024-03-01', '2024-03-01')",
	    (long long)a, (long long)a);
	memset(&q, 0, sizeof(q));
	q.lead_id = a;
	q.limit = 10;
	q.earliest = "2024-02-01 00:00:00";
	assert_int_equal(repo_programs_campaign_membership(db, &q, &l), 0);
	assert_int_equal(l.count, 1);
	assert_int_equal(l.items[0].id, 6);
	assert_string_equal(l.items[0].created_at, "2024-03-01T00:00:00Z");
	repo_programs_member_list_free(&l);
	q.limit = 0;
	assert_int_equal(repo_programs_campaign_membership(db, &q, &l),
	    -REPO_ERR_INVALID);
}

static void
test_cookies(void **state)
{
	static const char c0[] = "id:111-AAA-111&token:_mch-x.com-1-0";
	static const char c1[] = "id:111-AAA-111&token:_mch-x.com-1-1";
	int64_t a, b;

	(void)state;
	a = lead_new("a@example.com", "");
	b = lead_new("b@example.com", "");
	assert_int_equal(repo_cookies_associate(db, 99999999, c0),
	    -REPO_ERR_NOT_FOUND);
	assert_int_equal(int_of("SELECT COUNT(*) FROM lead_cookie"), 0);
	assert_int_equal(repo_cookies_associate(db, a, c0), 0);
	sql("UPDATE lead_cookie SET created_at = '2024-01-01'");
	assert_int_equal(repo_cookies_associate(db, a, c1), 0);
	assert_string_equal(str_of("SELECT cookies FROM lead WHERE id = %lld",
	    (long long)a), c1);
	/* c1 moves to b; a shows its remaining cookie again. */
	assert_int_equal(repo_cookies_associate(db, b, c1), 0);
	assert_string_equal(str_of("SELECT cookies FROM lead WHERE id = %lld",
	    (long long)b), c1);
	assert_string_equal(str_of("SELECT cookies FROM lead WHERE id = %lld",
	    (long long)a), c0);
	assert_int_equal(int_of("SELECT lead_id FROM lead_cookie WHERE "
	    "cookie = '%s'", c1), b);
	/* c0 moves too: a has none left. */
	assert_int_equal(repo_cookies_associate(db, b, c0), 0);
	assert_string_equal(str_of("SELECT COALESCE(cookies, 'none') FROM "
	    "lead WHERE id = %lld", (long long)a), "none");
	assert_int_equal(int_of("SELECT COUNT(*) FROM lead_cookie WHERE "
	    "lead_id = %lld", (long long)b), 2);
}

/* The merge fixture: a winner and two losers with memberships. */
struct merge_fix {
	int64_t	w, l1, l2;
	int32_t	p;
};

static void
merge_fixture(struct merge_fix *f)
{
	struct repo_missing miss;
	struct activity act = { .type = ACT_NEW_LEAD };

	f->w = lead_new("w@example.com", ", company = '', "
	    "leadPartitionId = 1");
	f->l1 = lead_new("l1@example.com", ", firstName = 'Ann', "
	    "company = 'Acme', numberOfEmployees = NULL, "
	    "dateOfBirth = '1990-01-02', unsubscribed = 1");
	f->l2 = lead_new("l2@example.com", ", firstName = 'Bob', "
	    "city = 'Paris', numberOfEmployees = 5, company = 'Other'");
	sql("INSERT INTO static_list (id, name, created_at, updated_at) "
	    "VALUES (21, 'm21', NOW(), NOW()), (22, 'm22', NOW(), NOW())");
	sql("INSERT INTO list_member VALUES (21, %lld, '2020-01-01', "
	    "'2020-01-01'), (21, %lld, '2021-01-01', '2021-01-01'), "
	    "(22, %lld, '2022-01-01', '2022-01-01')", (long long)f->w,
	    (long long)f->l1, (long long)f->l1);
	f->p = program_new("Merge Program");
	assert_int_equal(repo_programs_member_add(db, f->p, f->l1, "Invited",
	    &miss), 0);
	sql("INSERT INTO campaign_member VALUES (9, %lld, NOW(), NOW())",
	    (long long)f->l2);
	sql("INSERT INTO lead_cookie VALUES ('ck-l1', %lld, NOW())",
	    (long long)f->l1);
	act.lead_id = f->l1;
	assert_int_equal(repo_activity_insert(db, &act), 0);
	act.lead_id = f->l2;
	assert_int_equal(repo_activity_insert(db, &act), 0);
	act.lead_id = f->w;
	assert_int_equal(repo_activity_insert(db, &act), 0);
}

static void
test_merge(void **state)
{
	struct lead_schema s;
	struct merge_fix f;
	int64_t losers[2], missing;
	char want[256];

	(void)state;
	merge_fixture(&f);
	assert_int_equal(repo_lead_fields_load(db, &s), 0);
	losers[0] = f.l1;
	losers[1] = f.l2;
	assert_int_equal(repo_merge(db, f.w, losers, 2, s.fields,
	    s.count, &missing), 0);
	/* Empty winner fields take the first loser's non-empty value. */
	assert_string_equal(str_of("SELECT CONCAT_WS('|', email, firstName, "
	    "company, city, numberOfEmployees, dateOfBirth, unsubscribed, "
	    "mktoName) FROM lead WHERE id = %lld", (long long)f.w),
	    "w@example.com|Ann|Acme|Paris|5|1990-01-02|0|Ann");
	assert_int_equal(int_of("SELECT COUNT(*) FROM lead WHERE id IN "
	    "(%lld, %lld)", (long long)f.l1, (long long)f.l2), 0);
	/* Memberships moved; the winner's row kept on a conflict. */
	assert_string_equal(str_of("SELECT GROUP_CONCAT(CONCAT(list_id, '@', "
	    "YEAR(created_at)) ORDER BY list_id) FROM list_member WHERE "
	    "lead_id = %lld", (long long)f.w), "21@2020,22@2022");
	assert_int_equal(int_of("SELECT COUNT(*) FROM list_member"), 2);
	assert_int_equal(int_of("SELECT status_step FROM program_member WHERE "
	    "lead_id = %lld AND program_id = %d", (long long)f.w, f.p), 2);
	assert_int_equal(int_of("SELECT COUNT(*) FROM campaign_member WHERE "
	    "lead_id = %lld AND campaign_id = 9", (long long)f.w), 1);
	assert_int_equal(int_of("SELECT lead_id FROM lead_cookie WHERE "
	    "cookie = 'ck-l1'"), f.w);
	/* Activities: three moved or kept, and the merge itself. */
	assert_int_equal(int_of("SELECT COUNT(*) FROM activity WHERE "
	    "lead_id <> %lld", (long long)f.w), 0);
	assert_int_equal(int_of("SELECT COUNT(*) FROM activity WHERE "
	    "activity_type_id = 12"), 3);
	snprintf(want, sizeof(want), "{\"Merge IDs\":[%lld,%lld],\"Merge "
	    "Source\":\"Web service API\",\"Merged in Sales\":false}",
	    (long long)f.l1, (long long)f.l2);
	assert_string_equal(str_of("SELECT attributes FROM activity WHERE "
	    "activity_type_id = 32 AND lead_id = %lld", (long long)f.w), want);
	assert_int_equal(int_of("SELECT primary_value_id FROM activity WHERE "
	    "activity_type_id = 32"), f.w);
	lead_schema_clear(&s);
}

static void
test_merge_refused(void **state)
{
	struct lead_schema s;
	struct merge_fix f;
	int64_t losers[2], missing;

	(void)state;
	merge_fixture(&f);
	assert_int_equal(repo_lead_fields_load(db, &s), 0);
	losers[0] = f.l1;
	losers[1] = 99999999;
	assert_int_equal(repo_merge(db, f.w, losers, 2, s.fields,
	    s.count, &missing), -REPO_ERR_NOT_FOUND);
	assert_int_equal(missing, 99999999);
	assert_int_equal(repo_merge(db, 99999998, losers, 1,
	    s.fields, s.count, &missing), -REPO_ERR_NOT_FOUND);
	assert_int_equal(missing, 99999998);
	losers[1] = f.w;
	assert_int_equal(repo_merge(db, f.w, losers, 2, s.fields,
	    s.count, &missing), -REPO_ERR_INVALID);
	assert_int_equal(repo_merge(db, f.w, losers, 0, s.fields,
	    s.count, &missing), -REPO_ERR_INVALID);
	assert_int_equal(int_of("SELECT COUNT(*) FROM lead"), 3);
	assert_string_equal(str_of("SELECT COALESCE(firstName, 'null') FROM "
	    "lead WHERE id = %lld", (long long)f.w), "null");
	lead_schema_clear(&s);
}

/*
 * A failure half-way: deleting the second loser fails (a trigger), after
 * the first loser's fields, memberships and activities have moved and it
 * has been deleted inside the transaction.  Everything must be as it
 * was before.
 */
static void
test_merge_atomic(void **state)
{
	struct lead_schema s;
	struct merge_fix f;
	int64_t losers[2], missing;
	char before[4096];

	(void)state;
	merge_fixture(&f);
	assert_int_equal(repo_lead_fields_load(db, &s), 0);
	snprintf(before, sizeof(before), "%s", str_of("SELECT CONCAT_WS(';', "
	    "(SELECT GROUP_CONCAT(CONCAT_WS(',', id, email, firstName, "
	    "company, city, numberOfEmployees, updatedAt) ORDER BY id) "
	    "FROM lead), (SELECT GROUP_CONCAT(CONCAT(list_id, ':', lead_id) "
	    "ORDER BY list_id, lead_id) FROM list_member), (SELECT "
	    "GROUP_CONCAT(CONCAT(program_id, ':', lead_id)) FROM "
	    "program_member), (SELECT GROUP_CONCAT(CONCAT(campaign_id, ':', "
	    "lead_id)) FROM campaign_member), (SELECT GROUP_CONCAT(CONCAT("
	    "cookie, ':', lead_id)) FROM lead_cookie), (SELECT GROUP_CONCAT("
	    "CONCAT(id, ':', lead_id, ':', activity_type_id) ORDER BY id) "
	    "FROM activity))"));
	sql("CREATE TRIGGER itest_lead_delete BEFORE DELETE ON lead FOR EACH "
	    "ROW BEGIN IF OLD.id = %lld THEN SIGNAL SQLSTATE '45000' SET "
	    "MESSAGE_TEXT = 'itest: refused'; END IF; END", (long long)f.l2);
	losers[0] = f.l1;
	losers[1] = f.l2;
	assert_int_not_equal(repo_merge(db, f.w, losers, 2,
	    s.fields, s.count, &missing), 0);
	sql("DROP TRIGGER itest_lead_delete");
	assert_string_equal(str_of("SELECT CONCAT_WS(';', "
	    "(SELECT GROUP_CONCAT(CONCAT_WS(',', id, email, firstName, "
	    "company, city, numberOfEmployees, updatedAt) ORDER BY id) "
	    "FROM lead), (SELECT GROUP_CONCAT(CONCAT(list_id, ':', lead_id) "
	    "ORDER BY list_id, lead_id) FROM list_member), (SELECT "
	    "GROUP_CONCAT(CONCAT(program_id, ':', lead_id)) FROM "
	    "program_member), (SELECT GROUP_CONCAT(CONCAT(campaign_id, ':', "
	    "lead_id)) FROM campaign_member), (SELECT GROUP_CONCAT(CONCAT("
	    "cookie, ':', lead_id)) FROM lead_cookie), (SELECT GROUP_CONCAT("
	    "CONCAT(id, ':', lead_id, ':', activity_type_id) ORDER BY id) "
	    "FROM activity))"), before);
	assert_int_equal(int_of("SELECT COUNT(*) FROM activity WHERE "
	    "activity_type_id = 32"), 0);
	/* And the same merge without the trigger works. */
	assert_int_equal(repo_merge(db, f.w, losers, 2, s.fields,
	    s.count, &missing), 0);
	assert_int_equal(int_of("SELECT COUNT(*) FROM lead"), 1);
	lead_schema_clear(&s);
}

/* A custom field (a new column) is merged like a standard one. */
static void
test_merge_custom_field(void **state)
{
	struct lead_schema s;
	int64_t w, l, missing;

	(void)state;
	sql("ALTER TABLE lead ADD COLUMN IF NOT EXISTS itestScore INT NULL");
	sql("INSERT IGNORE INTO lead_field (name, display_name, data_type, "
	    "is_custom, created_at, updated_at) VALUES ('itestScore', "
	    "'Itest Score', 'integer', 1, NOW(), NOW())");
	w = lead_new("w@example.com", "");
	l = lead_new("l@example.com", ", itestScore = 42");
	assert_int_equal(repo_lead_fields_load(db, &s), 0);
	assert_int_equal(repo_merge(db, w, &l, 1, s.fields, s.count,
	    &missing), 0);
	assert_int_equal(int_of("SELECT itestScore FROM lead WHERE id = %lld",
	    (long long)w), 42);
	lead_schema_clear(&s);
	sql("DELETE FROM lead_field WHERE name = 'itestScore'");
	sql("ALTER TABLE lead DROP COLUMN itestScore");
}

/*
 * The list operations of the lead database: add, remove and read each
 * lead's standing (an unknown lead is LIST_NO_LEAD, a lead given twice
 * sees what the first time did), an activity for each change only, and
 * the browse filters.
 */
static void
test_list_members_apply(void **state)
{
	static const char *const names[] = { "M2", "nothing" };
	static const char *const progs[] = { "P" };
	struct repo_filter f;
	struct db_text_rows t;
	struct arena a;
	enum list_state st[4];
	int64_t leads[4], ids[2];
	int32_t l1, l2, pid;

	(void)state;
	arena_init(&a);
	leads[0] = lead_new("a@example.com", "");
	leads[1] = 99999999;
	leads[2] = lead_new("b@example.com", "");
	leads[3] = leads[0];
	assert_int_equal(repo_lists_insert(db, "M1", &l1), 0);
	assert_int_equal(repo_lists_insert(db, "M2", &l2), 0);
	assert_int_equal(repo_lists_members_apply(db, l2 + 1000, LIST_OP_ADD,
	    leads, 4, st), -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_lists_members_apply(db, l1, LIST_OP_ADD, leads,
	    4, st), 0);
	assert_int_equal(st[0], LIST_WAS_NOT_MEMBER);
	assert_int_equal(st[1], LIST_NO_LEAD);
	assert_int_equal(st[2], LIST_WAS_NOT_MEMBER);
	assert_int_equal(st[3], LIST_WAS_MEMBER);
	assert_int_equal(int_of("SELECT COUNT(*) FROM list_member WHERE "
	    "list_id = %d", l1), 2);
	assert_int_equal(int_of("SELECT COUNT(*) FROM activity WHERE "
	    "activity_type_id = 24 AND primary_value_id = %d", l1), 2);
	assert_int_equal(repo_lists_members_apply(db, l2, LIST_OP_READ, leads,
	    3, st), 0);
	assert_int_equal(st[0], LIST_WAS_NOT_MEMBER);
	assert_int_equal(st[1], LIST_NO_LEAD);
	assert_int_equal(repo_lists_members_apply(db, l1, LIST_OP_READ, leads,
	    1, st), 0);
	assert_int_equal(st[0], LIST_WAS_MEMBER);
	assert_int_equal(repo_lists_members_apply(db, l1, LIST_OP_REMOVE,
	    leads, 4, st), 0);
	assert_int_equal(st[0], LIST_WAS_MEMBER);
	assert_int_equal(st[1], LIST_NO_LEAD);
	assert_int_equal(st[2], LIST_WAS_MEMBER);
	assert_int_equal(st[3], LIST_WAS_NOT_MEMBER);
	assert_int_equal(int_of("SELECT COUNT(*) FROM list_member"), 0);
	assert_int_equal(int_of("SELECT COUNT(*) FROM activity WHERE "
	    "activity_type_id = 25 AND primary_value = 'M1' AND attributes = "
	    "'{\"List ID\":%d,\"Source\":\"Web service API\"}'", l1), 2);

	pid = program_new("P");
	sql("UPDATE static_list SET program_id = %d WHERE id = %d", pid, l2);
	memset(&f, 0, sizeof(f));
	assert_int_equal(repo_lists_browse(db, &a, &f, 0, 10, &t), 0);
	assert_int_equal(t.count, 2);
	assert_int_equal(repo_lists_browse(db, &a, &f, l1, 10, &t), 0);
	assert_int_equal(t.count, 1);
	assert_int_equal(db_text_i64(&t, 0, LIST_COL_ID), l2);
	assert_string_equal(db_text_str(&t, 0, LIST_COL_PROGRAM), "P");
	assert_string_equal(db_text_str(&t, 0, LIST_COL_WORKSPACE),
	    "Default");
	f.names = names;
	f.nnames = 2;
	assert_int_equal(repo_lists_browse(db, &a, &f, 0, 10, &t), 0);
	assert_int_equal(t.count, 1);
	ids[0] = l1;
	ids[1] = l2;
	f.ids = ids;
	f.nids = 2;
	f.programs = progs;
	f.nprograms = 1;
	assert_int_equal(repo_lists_browse(db, &a, &f, 0, 10, &t), 0);
	assert_int_equal(t.count, 1);
	f.nids = 1;
	assert_int_equal(repo_lists_browse(db, &a, &f, 0, 10, &t), 0);
	assert_int_equal(t.count, 0);
	arena_clear(&a);
}

/*
 * Static lists as assets: made in the Lead Database root (without a
 * place) or a program; read by id and name; browsed by place; renamed
 * (a taken name is a conflict); deleted.
 */
static void
test_list_assets(void **state)
{
	struct list_new t;
	struct list_asset_query q;
	struct db_text_rows rows;
	struct arena a;
	int32_t root, l1, l2, pid;

	(void)state;
	arena_init(&a);
	root = (int32_t)int_of("SELECT id FROM folder WHERE kind = "
	    "'staticList' AND parent_id IS NULL");
	assert_int_equal(repo_lists_insert(db, "A1", &l1), 0);
	assert_int_equal(int_of("SELECT folder_id FROM static_list WHERE "
	    "id = %d", l1), root);
	pid = program_new("AP");
	memset(&t, 0, sizeof(t));
	t.name = "A2";
	t.description = "d";
	t.has_place = true;
	t.place.type = FOLDER_T_PROGRAM;
	t.place.id = pid;
	assert_int_equal(repo_lists_create(db, &t, &l2), 0);
	assert_int_equal(repo_lists_create(db, &t, &l2), -REPO_ERR_CONFLICT);
	assert_int_equal(repo_lists_asset_get(db, &a, 0, "A2", &rows), 0);
	l2 = (int32_t)db_text_i64(&rows, 0, LIST_ASSET_COL_ID);
	assert_null(db_text_str(&rows, 0, LIST_ASSET_COL_FOLDER));
	assert_int_equal(db_text_i64(&rows, 0, LIST_ASSET_COL_PROGRAM), pid);
	assert_string_equal(db_text_str(&rows, 0, LIST_ASSET_COL_DESCRIPTION),
	    "d");
	assert_int_equal(repo_lists_asset_get(db, &a, l2 + 1000, NULL, &rows),
	    -REPO_ERR_NOT_FOUND);
	memset(&q, 0, sizeof(q));
	q.limit = 10;
	q.has_place = true;
	q.place.type = FOLDER_T_FOLDER;
	q.place.id = root;
	assert_int_equal(repo_lists_asset_browse(db, &a, &q, &rows), 0);
	assert_int_equal(rows.count, 1);
	assert_int_equal(db_text_i64(&rows, 0, LIST_ASSET_COL_ID), l1);
	q.has_place = false;
	q.offset = 1;
	assert_int_equal(repo_lists_asset_browse(db, &a, &q, &rows), 0);
	assert_int_equal(rows.count, 1);
	assert_int_equal(db_text_i64(&rows, 0, LIST_ASSET_COL_ID), l2);
	assert_int_equal(repo_lists_update(db, l2, "A1", NULL),
	    -REPO_ERR_CONFLICT);
	assert_int_equal(repo_lists_update(db, l2, "A3", NULL), 0);
	assert_string_equal(str_of("SELECT CONCAT(name, description) FROM "
	    "static_list WHERE id = %d", l2), "A3d");
	assert_int_equal(repo_lists_update(db, l2 + 1000, "A4", NULL),
	    -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_lists_delete(db, l2), 0);
	assert_int_equal(repo_lists_delete(db, l2), -REPO_ERR_NOT_FOUND);
	/*
	 * The members go by the schema's ON DELETE CASCADE, which the copy
	 * of this test (CREATE TABLE ... LIKE) leaves out: t_static_lists.sh
	 * checks it.
	 */
	arena_clear(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_partitions, setup),
		cmocka_unit_test_setup(test_partition_update, setup),
		cmocka_unit_test_setup(test_programs, setup),
		cmocka_unit_test_setup(test_batch_writes, setup),
		cmocka_unit_test_setup(test_member_status, setup),
		cmocka_unit_test_setup(test_lists_forms_campaigns, setup),
		cmocka_unit_test_setup(test_list_members_apply, setup),
		cmocka_unit_test_setup(test_list_assets, setup),
		cmocka_unit_test_setup(test_membership_reads, setup),
		cmocka_unit_test_setup(test_cookies, setup),
		cmocka_unit_test_setup(test_merge, setup),
		cmocka_unit_test_setup(test_merge_refused, setup),
		cmocka_unit_test_setup(test_merge_atomic, setup),
		cmocka_unit_test_setup(test_merge_custom_field, setup),
	};
	int rc;

	if (itest_config(&cfg) != 0) {
		printf("SKIP: MAUTO_TEST_DB_* not set\n");
		return 77;
	}
	if (private_db() != 0) {
		rc = 99;
		goto out;
	}
	rc = cmocka_run_group_tests(tests, group_setup, group_teardown);
out:
	if (src != NULL && dbname[0] != '\0')
		(void)src_sql("DROP DATABASE IF EXISTS `%s`", dbname);
	db_close(src);
	return rc;
}
