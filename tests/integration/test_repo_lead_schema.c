/*
 * Lead field schema changes against a real MariaDB (repo_lead_schema.c):
 * custom fields of every type become typed, indexed columns of lead with
 * their catalogue rows; duplicates and hostile names are refused without
 * an SQL error; two connections creating one field at once leave one
 * column and one row; an orphan column is adopted; the update rules.
 * Needs MAUTO_TEST_DB_*; without them it exits 77 (automake's SKIP).
 *
 * Every field made here is named "it..." and the group setup and
 * teardown drop such columns and rows, so the test can run again on the
 * same database.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <mysql.h>

#include "db/pool.h"
#include "bounds.h"
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_lead_fields.h"
#include "repo/repo_lead_schema.h"
#include "util/config.h"
#include "util/num.h"
#include "itest.h"

static struct config cfg;
static struct db *db;

static void
sql(const char *q)
{
	itest_sql(db, q);
}

/* The first column of the first row of q as text ("" for none/NULL). */
static void
sql_text(const char *q, char *out, size_t size)
{
	MYSQL *conn = db_conn(db);
	MYSQL_RES *res;
	MYSQL_ROW row;

	out[0] = '\0';
	if (mysql_query(conn, q) != 0)
		fail_msg("%s: %s", q, mysql_error(conn));
	if ((res = mysql_store_result(conn)) == NULL)
		fail_msg("%s: no result", q);
	if ((row = mysql_fetch_row(res)) != NULL && row[0] != NULL)
		snprintf(out, size, "%s", row[0]);
	mysql_free_result(res);
}

static long long
sql_int(const char *q)
{
	char buf[64];
	int64_t v;

	sql_text(q, buf, sizeof(buf));
	if (num_parse_i64(buf, INT64_MIN, INT64_MAX, &v) != 0)
		return -1;
	return v;
}

/* Drops every "it..." custom column and catalogue row. */
static void
cleanup(void)
{
	MYSQL *conn = db_conn(db);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	char q[256];
	char names[256][LF_NAME_BYTES + 1];
	size_t n = 0, i;

	if (mysql_query(conn, "SELECT COLUMN_NAME FROM "
	    "information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND "
	    "TABLE_NAME = 'lead' AND COLUMN_NAME LIKE 'it%'") != 0 ||
	    (res = mysql_store_result(conn)) == NULL)
		fail_msg("cleanup: %s", mysql_error(conn));
	while ((row = mysql_fetch_row(res)) != NULL && n < 256)
		snprintf(names[n++], sizeof(names[0]), "%s", row[0]);
	mysql_free_result(res);
	for (i = 0; i < n; i++) {
		snprintf(q, sizeof(q), "ALTER TABLE lead DROP COLUMN `%s`",
		    names[i]);
		sql(q);
	}
	sql("DELETE FROM lead_field WHERE name LIKE 'it%'");
}

static int
group_setup(void **state)
{
	(void)state;
	if (itest_open(&db, &cfg, NULL, NULL, 0) != 0)
		return -1;
	cleanup();
	return 0;
}

static int
group_teardown(void **state)
{
	(void)state;
	cleanup();
	return itest_close(db, NULL);
}

static int64_t
version(void)
{
	int64_t v;

	assert_int_equal(repo_lead_fields_version(db, &v), 0);
	return v;
}

static long long
ncolumns(void)
{
	return sql_int("SELECT COUNT(*) FROM information_schema.COLUMNS "
	    "WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'lead'");
}

static long long
nfields(void)
{
	return sql_int("SELECT COUNT(*) FROM lead_field");
}

/* Creates name of type t displayed as display; returns the repo result. */
static int
create(const char *name, const char *display, enum lf_type t,
    enum lf_conflict *conflict)
{
	struct lead_field_new f = {
		.name = name, .display_name = display, .type = t,
		.is_html_encoding = true,
	};
	enum lf_conflict dummy;
	bool full;

	return repo_lead_schema_insert(db, &f,
	    conflict != NULL ? conflict : &dummy, &full);
}

/* The column type of lead.name ("" when absent). */
static void
column_type(const char *name, char *out, size_t size)
{
	char q[256];

	snprintf(q, sizeof(q), "SELECT CONCAT(COLUMN_TYPE, ' ', IS_NULLABLE, "
	    "' ', COALESCE(COLLATION_NAME, '-')) FROM "
	    "information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() "
	    "AND TABLE_NAME = 'lead' AND COLUMN_NAME = '%s'", name);
	sql_text(q, out, size);
}

static long long
column_indexes(const char *name)
{
	char q[256];

	snprintf(q, sizeof(q), "SELECT COUNT(*) FROM "
	    "information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() "
	    "AND TABLE_NAME = 'lead' AND COLUMN_NAME = '%s'", name);
	return sql_int(q);
}

static void
test_every_type(void **state)
{
	static const struct {
		const char	*name;
		enum lf_type	 type;
		const char	*sqltype;
		bool		 indexed;
		int		 length;
	} cases[] = {
		{ "itString", LF_STRING, "text YES utf8mb4_bin", true, 255 },
		{ "itEmail", LF_EMAIL, "text YES utf8mb4_general_ci", true,
		    255 },
		{ "itPhone", LF_PHONE, "text YES utf8mb4_bin", false, 255 },
		{ "itUrl", LF_URL, "text YES utf8mb4_bin", false, 255 },
		{ "itInteger", LF_INTEGER, "int(11) YES -", true, 0 },
		{ "itScore", LF_SCORE, "int(11) YES -", false, 0 },
		{ "itFloat", LF_FLOAT, "double YES -", false, 0 },
		{ "itCurrency", LF_CURRENCY, "double YES -", false, 0 },
		{ "itPercent", LF_PERCENT, "double YES -", false, 0 },
		{ "itBoolean", LF_BOOLEAN, "tinyint(1) NO -", false, 0 },
		{ "itDate", LF_DATE, "date YES -", false, 0 },
		{ "itDatetime", LF_DATETIME, "datetime YES -", false, 0 },
	};
	struct lead_schema s;
	const struct lead_field *f;
	char got[128], display[64], q[256];
	int64_t v0 = version();
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(display, sizeof(display), "It %s", cases[i].name + 2);
		assert_int_equal(create(cases[i].name, display, cases[i].type,
		    NULL), 0);
		column_type(cases[i].name, got, sizeof(got));
		assert_string_equal(got, cases[i].sqltype);
		assert_int_equal(column_indexes(cases[i].name) > 0,
		    cases[i].indexed);
		snprintf(q, sizeof(q), "SELECT CONCAT(data_type, ' ', "
		    "COALESCE(length, 0), ' ', searchable, indexed, is_custom, "
		    "is_api_created, is_hidden, is_html_encoding, "
		    "is_sensitive, read_only) FROM lead_field WHERE "
		    "name = '%s'", cases[i].name);
		sql_text(q, got, sizeof(got));
		snprintf(q, sizeof(q), "%s %d %d%d110100", lf_type_name(
		    cases[i].type), cases[i].length,
		    repo_lead_schema_is_searchable(cases[i].type),
		    cases[i].indexed);
		assert_string_equal(got, q);
	}
	/* One version step per field, and the catalogue reloads them. */
	assert_int_equal(version(), v0 + (int64_t)i);
	assert_int_equal(repo_lead_fields_load(db, &s), 0);
	assert_int_equal(s.version, v0 + (int64_t)i);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		f = lead_schema_find(&s, cases[i].name);
		assert_non_null(f);
		assert_int_equal(f->type, cases[i].type);
		assert_true(f->is_custom && f->is_api_created);
		assert_true(f->attr_id > 2008);
		assert_int_equal(f->indexed, cases[i].indexed);
	}
	/* Lower case finds it too: names are unique without case. */
	assert_non_null(lead_schema_find(&s, "itstring"));
	lead_schema_clear(&s);
	/* The column holds values of its type. */
	sql("INSERT INTO lead (createdAt, updatedAt, itString, itInteger, "
	    "itBoolean, itDate, itDatetime, itFloat) VALUES (UTC_TIMESTAMP(), "
	    "UTC_TIMESTAMP(), 'x', 42, 1, '2024-02-29', '2024-02-29 10:00:00', "
	    "1.5)");
	assert_int_equal(sql_int("SELECT itInteger FROM lead WHERE "
	    "itString = 'x'"), 42);
	sql("DELETE FROM lead WHERE itString = 'x'");
}

static void
test_duplicates(void **state)
{
	enum lf_conflict cf;
	long long cols, rows;
	int64_t v;

	(void)state;
	assert_int_equal(create("itDup", "It Dup", LF_STRING, NULL), 0);
	cols = ncolumns();
	rows = nfields();
	v = version();
	assert_int_equal(create("itDup", "It Dup 2", LF_STRING, &cf),
	    -REPO_ERR_CONFLICT);
	assert_int_equal(cf, LF_CONFLICT_NAME);
	assert_int_equal(create("ITDUP", "It Dup 3", LF_INTEGER, &cf),
	    -REPO_ERR_CONFLICT);
	assert_int_equal(cf, LF_CONFLICT_NAME);
	/* Standard fields count, in any case. */
	assert_int_equal(create("Email", "It Email 2", LF_EMAIL, &cf),
	    -REPO_ERR_CONFLICT);
	assert_int_equal(cf, LF_CONFLICT_NAME);
	assert_int_equal(create("FIRSTNAME", "It First", LF_STRING, &cf),
	    -REPO_ERR_CONFLICT);
	assert_int_equal(cf, LF_CONFLICT_NAME);
	/* Display names, also differing only in case. */
	assert_int_equal(create("itDup2", "It Dup", LF_STRING, &cf),
	    -REPO_ERR_CONFLICT);
	assert_int_equal(cf, LF_CONFLICT_DISPLAY);
	assert_int_equal(create("itDup3", "IT DUP", LF_STRING, &cf),
	    -REPO_ERR_CONFLICT);
	assert_int_equal(cf, LF_CONFLICT_DISPLAY);
	assert_int_equal(create("itDup4", "email address", LF_STRING, &cf),
	    -REPO_ERR_CONFLICT);
	assert_int_equal(cf, LF_CONFLICT_DISPLAY);
	/* Nothing was added and the version did not move. */
	assert_int_equal(ncolumns(), cols);
	assert_int_equal(nfields(), rows);
	assert_int_equal(version(), v);
}

static void
test_hostile_names(void **state)
{
	static const struct {
		const char		*name;
		enum lf_name_err	 why;
	} bad[] = {
		{ "select", LF_NAME_RESERVED },
		{ "DROP", LF_NAME_RESERVED },
		{ "Current_Date", LF_NAME_RESERVED },
		{ "sql_big_result", LF_NAME_RESERVED },
		{ "int1", LF_NAME_RESERVED },
		{ "zerofill", LF_NAME_RESERVED },
		{ "accessible", LF_NAME_RESERVED },
		{ "itA'b", LF_NAME_CHARS },
		{ "itA`b", LF_NAME_CHARS },
		{ "itA\"b", LF_NAME_CHARS },
		{ "itA`; DROP TABLE lead; --", LF_NAME_CHARS },
		{ "it a", LF_NAME_CHARS },
		{ "it-a", LF_NAME_CHARS },
		{ "it\xc3\xa9t\xc3\xa9", LF_NAME_CHARS },
		{ "\xc3\xa9t\xc3\xa9", LF_NAME_FIRST },
		{ "1itField", LF_NAME_FIRST },
		{ "_itField", LF_NAME_FIRST },
		{ "", LF_NAME_EMPTY },
	};
	char longname[201], name51[52], name50[51];
	enum lf_conflict cf;
	long long cols = ncolumns(), rows = nfields();
	size_t i;

	(void)state;
	memset(longname, 'a', 200);
	memcpy(longname, "it", 2);
	longname[200] = '\0';
	memset(name51, 'b', 51);
	memcpy(name51, "it", 2);
	name51[51] = '\0';
	memcpy(name50, name51, 50);
	name50[50] = '\0';
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(repo_lead_schema_name_check(bad[i].name,
		    strlen(bad[i].name)), bad[i].why);
		assert_int_equal(create(bad[i].name, "It Hostile",
		    LF_STRING, &cf), -REPO_ERR_INVALID);
	}
	assert_int_equal(repo_lead_schema_name_check(longname, 200),
	    LF_NAME_TOO_LONG);
	assert_int_equal(create(longname, "It Long", LF_STRING, &cf),
	    -REPO_ERR_INVALID);
	assert_int_equal(create(name51, "It Long", LF_STRING, &cf),
	    -REPO_ERR_INVALID);
	/* Hostile display names. */
	assert_int_equal(create("itOk", "It <b>", LF_STRING, &cf),
	    -REPO_ERR_INVALID);
	assert_int_equal(create("itOk", "It'; DROP TABLE lead", LF_STRING,
	    &cf), -REPO_ERR_INVALID);
	assert_int_equal(create("itOk", "It\tTab", LF_STRING, &cf),
	    -REPO_ERR_INVALID);
	assert_int_equal(create("itOk", "   ", LF_STRING, &cf),
	    -REPO_ERR_INVALID);
	/* Types Create Lead Fields does not make. */
	assert_int_equal(create("itOk", "It Ok", LF_TEXT, &cf),
	    -REPO_ERR_INVALID);
	assert_int_equal(create("itOk", "It Ok", LF_REFERENCE, &cf),
	    -REPO_ERR_INVALID);
	/* Nothing reached the database, and the connection is fine. */
	assert_int_equal(ncolumns(), cols);
	assert_int_equal(nfields(), rows);
	assert_int_equal(mysql_errno(db_conn(db)), 0);
	/* 50 characters is the limit; a name that only looks odd is fine. */
	assert_int_equal(create(name50, "It Fifty", LF_INTEGER, &cf), 0);
	assert_int_equal(create("itSelect_2", "It Select 2", LF_STRING,
	    &cf), 0);
	assert_int_equal(ncolumns(), cols + 2);
}

/* One side of the race: its own connection, started by a barrier. */
struct racer {
	struct db		*db;
	pthread_barrier_t	*go;
	const char		*name;
	const char		*display;
	enum lf_type		 type;
	int			 r;
	enum lf_conflict	 conflict;
};

static void *
race(void *arg)
{
	struct racer *a = arg;
	struct lead_field_new f = {
		.name = a->name, .display_name = a->display, .type = a->type,
		.is_html_encoding = true,
	};
	bool full;

	pthread_barrier_wait(a->go);
	a->r = repo_lead_schema_insert(a->db, &f, &a->conflict, &full);
	return NULL;
}

static void
test_concurrent_create(void **state)
{
	struct racer rc[2];
	pthread_barrier_t go;
	pthread_t th[2];
	char name[32], display[2][32], q[256];
	long long cols = ncolumns();
	int round, i, wins;

	(void)state;
	memset(rc, 0, sizeof(rc));
	for (i = 0; i < 2; i++)
		assert_int_equal(db_open(&rc[i].db, &cfg, &repo_schema, DB_PREPARE_ALL), 0);
	for (round = 0; round < 10; round++) {
		snprintf(name, sizeof(name), "itRace%d", round);
		assert_int_equal(pthread_barrier_init(&go, NULL, 2), 0);
		for (i = 0; i < 2; i++) {
			rc[i].go = &go;
			rc[i].name = name;
			/* Odd rounds: the same display name as well. */
			snprintf(display[i], sizeof(display[i]), "It Race %d%s",
			    round, round % 2 ? "" : i == 0 ? " A" : " B");
			rc[i].display = display[i];
			rc[i].type = round < 5 ? LF_STRING : LF_INTEGER;
			assert_int_equal(pthread_create(&th[i], NULL, race,
			    &rc[i]), 0);
		}
		for (i = 0; i < 2; i++)
			pthread_join(th[i], NULL);
		pthread_barrier_destroy(&go);
		wins = 0;
		for (i = 0; i < 2; i++) {
			if (rc[i].r == 0)
				wins++;
			else {
				assert_int_equal(rc[i].r, -REPO_ERR_CONFLICT);
				assert_int_not_equal(rc[i].conflict,
				    LF_CONFLICT_NONE);
			}
		}
		assert_int_equal(wins, 1);
		snprintf(q, sizeof(q), "SELECT COUNT(*) FROM lead_field WHERE "
		    "name = '%s'", name);
		assert_int_equal(sql_int(q), 1);
	}
	assert_int_equal(ncolumns(), cols + 10);
	for (i = 0; i < 2; i++)
		db_close(rc[i].db);
}

static void
test_adopt_orphan(void **state)
{
	enum lf_conflict cf;
	char got[128];
	long long cols;

	(void)state;
	/* A crash between ALTER and INSERT leaves a column and no row. */
	sql("ALTER TABLE lead ADD COLUMN `itOrphan` TEXT NULL");
	cols = ncolumns();
	assert_int_equal(create("itOrphan", "It Orphan", LF_STRING, &cf), 0);
	assert_int_equal(ncolumns(), cols);
	sql_text("SELECT CONCAT(data_type, ' ', indexed) FROM lead_field "
	    "WHERE name = 'itOrphan'", got, sizeof(got));
	assert_string_equal(got, "string 0");
	/* Now catalogued: a second create is a duplicate. */
	assert_int_equal(create("itOrphan", "It Orphan 2", LF_STRING, &cf),
	    -REPO_ERR_CONFLICT);
	assert_int_equal(cf, LF_CONFLICT_NAME);
	/* An orphan of another type is not taken over. */
	sql("ALTER TABLE lead ADD COLUMN `itOrphanInt` TEXT NULL");
	assert_int_equal(create("itOrphanInt", "It Orphan Int", LF_INTEGER,
	    &cf), -REPO_ERR_CONFLICT);
	assert_int_equal(cf, LF_CONFLICT_NAME);
	assert_int_equal(sql_int("SELECT COUNT(*) FROM lead_field WHERE "
	    "name = 'itOrphanInt'"), 0);
}

static void
test_index_limit(void **state)
{
	char name[32], display[32], q[256];
	long long nidx;
	int i;

	(void)state;
	nidx = sql_int("SELECT COUNT(DISTINCT INDEX_NAME) FROM "
	    "information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() "
	    "AND TABLE_NAME = 'lead'");
	/* Fill up to the limit with indexed integer fields. */
	for (i = 0; nidx + i < MAX_LEAD_INDEXES; i++) {
		snprintf(name, sizeof(name), "itIdx%d", i);
		snprintf(display, sizeof(display), "It Idx %d", i);
		assert_int_equal(create(name, display, LF_INTEGER, NULL), 0);
		assert_int_equal(column_indexes(name), 1);
	}
	/* At the limit a searchable field is still made, unindexed. */
	assert_int_equal(create("itNoIdx", "It No Idx", LF_STRING, NULL), 0);
	assert_int_equal(column_indexes("itNoIdx"), 0);
	snprintf(q, sizeof(q), "SELECT CONCAT(searchable, indexed) FROM "
	    "lead_field WHERE name = 'itNoIdx'");
	sql_text(q, name, sizeof(name));
	assert_string_equal(name, "10");
	assert_true(sql_int("SELECT COUNT(DISTINCT INDEX_NAME) FROM "
	    "information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() "
	    "AND TABLE_NAME = 'lead'") <= MAX_LEAD_INDEXES);
}

static void
test_update(void **state)
{
	struct lead_field_change ch;
	char got[256];
	int64_t v;

	(void)state;
	assert_int_equal(create("itUpd", "It Upd", LF_STRING, NULL), 0);
	assert_int_equal(create("itUpd2", "It Upd 2", LF_STRING, NULL), 0);
	v = version();
	memset(&ch, 0, sizeof(ch));
	ch.set_display_name = true;
	ch.display_name = "It Updated";
	ch.set_description = true;
	ch.description = "what it is";
	ch.set_hidden = true;
	ch.is_hidden = true;
	ch.set_sensitive = true;
	ch.is_sensitive = true;
	/* The name matches without case. */
	assert_int_equal(repo_lead_schema_update(db, "ITUPD", &ch), 0);
	assert_int_equal(version(), v + 1);
	sql_text("SELECT CONCAT(display_name, '|', description, '|', "
	    "is_hidden, is_html_encoding, is_sensitive) FROM lead_field WHERE "
	    "name = 'itUpd'", got, sizeof(got));
	assert_string_equal(got, "It Updated|what it is|111");
	/* Only what is set changes; a null description clears it. */
	memset(&ch, 0, sizeof(ch));
	ch.set_description = true;
	ch.description = NULL;
	ch.set_html_encoding = true;
	ch.is_html_encoding = false;
	assert_int_equal(repo_lead_schema_update(db, "itUpd", &ch), 0);
	sql_text("SELECT CONCAT(display_name, '|', COALESCE(description, "
	    "'NULL'), '|', is_hidden, is_html_encoding, is_sensitive) FROM "
	    "lead_field WHERE name = 'itUpd'", got, sizeof(got));
	assert_string_equal(got, "It Updated|NULL|101");
	/* Another field's display name (any case) is refused. */
	v = version();
	memset(&ch, 0, sizeof(ch));
	ch.set_display_name = true;
	ch.display_name = "it upd 2";
	assert_int_equal(repo_lead_schema_update(db, "itUpd", &ch),
	    -REPO_ERR_CONFLICT);
	/* Its own display name in another case is fine. */
	ch.display_name = "IT UPDATED";
	assert_int_equal(repo_lead_schema_update(db, "itUpd", &ch), 0);
	/* Bad display names, unknown fields. */
	ch.display_name = "It <Upd>";
	assert_int_equal(repo_lead_schema_update(db, "itUpd", &ch),
	    -REPO_ERR_INVALID);
	ch.display_name = "It Nowhere";
	assert_int_equal(repo_lead_schema_update(db, "itNowhere", &ch),
	    -REPO_ERR_NOT_FOUND);
	assert_int_equal(version(), v + 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_type),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_hostile_names),
		cmocka_unit_test(test_concurrent_create),
		cmocka_unit_test(test_adopt_orphan),
		cmocka_unit_test(test_update),
		cmocka_unit_test(test_index_limit),
	};

	if (itest_config(&cfg) != 0) {
		fprintf(stderr, "MAUTO_TEST_DB_* not set: skipped\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
