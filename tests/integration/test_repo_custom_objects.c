/*
 * Custom object types and records against a real MariaDB with the
 * migrations applied: the draft/approve/discard life cycle, the records
 * table an approval makes and alters, record writes and lookups, the
 * approval lease, and type deletion.  Needs MAUTO_TEST_DB_SOCKET,
 * MAUTO_TEST_DB_NAME, MAUTO_TEST_DB_USER and MAUTO_TEST_DB_PASSWORD;
 * without them it exits 77 (automake's SKIP).
 */
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

#include "ctl/ctl.h"
#include "db/pool.h"
#include "err.h"
#include "model/cotype.h"
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_co_records.h"
#include "repo/repo_co_types.h"
#include "repo/repo_leads.h"
#include "util/buf.h"
#include "util/config.h"
#include "itest.h"

/* A string literal for the char * members of struct co_field. */
#define S(x)	((char *)(uintptr_t)(x))

static struct config cfg;
static struct db *db;

/* Runs a fixture statement (tests only; production SQL is in src/repo). */
static void
sql(const char *q)
{
	itest_sql(db, q);
}

/* The first column of the first row of q as an integer (-1: no row). */
static long long
sql_int(const char *q)
{
	MYSQL_RES *res;
	MYSQL_ROW row;
	long long v = -1;

	if (mysql_query(db_conn(db), q) != 0)
		fail_msg("%s: %s", q, mysql_error(db_conn(db)));
	res = mysql_store_result(db_conn(db));
	assert_non_null(res);
	if ((row = mysql_fetch_row(res)) != NULL && row[0] != NULL) {
		char *end;

		v = strtoll(row[0], &end, 10);
	}
	mysql_free_result(res);
	return v;
}

/*
 * The test runs in a database of its own, made and migrated here and
 * dropped at the end: it drops every custom object type between tests,
 * which must not touch other tests sharing MAUTO_TEST_DB_NAME.
 */
static char dbname[64];
static char *base_db;

/* Runs q on a connection to the server's base database. */
static int
admin_sql(const char *q)
{
	struct db *adm;
	int r;

	cfg.db_name = base_db;
	if (db_open(&adm, &cfg, &repo_schema, DB_PREPARE_NONE) != 0)
		return -1;
	r = mysql_query(db_conn(adm), q) == 0 ? 0 : -1;
	if (r != 0)
		fprintf(stderr, "%s: %s\n", q, mysql_error(db_conn(adm)));
	db_close(adm);
	return r;
}

static int
group_setup(void **state)
{
	char q[256], dir[] = MAUTO_SRCDIR "/db/migrations";
	char *argv[] = { (char *)(uintptr_t)"migrate",
	    (char *)(uintptr_t)"--dir", dir, NULL };

	(void)state;
	base_db = cfg.db_name;
	snprintf(dbname, sizeof(dbname), "mauto_itco_%ld", (long)getpid());
	snprintf(q, sizeof(q), "CREATE DATABASE `%s` CHARACTER SET utf8mb4 "
	    "COLLATE utf8mb4_unicode_ci", dbname);
	if (admin_sql(q) != 0)
		return -1;
	cfg.db_name = dbname;
	if (ctl_migrate(3, argv, &cfg) != 0)
		return -1;
	return itest_open(&db, &cfg, NULL, NULL, 0);
}

static int
group_teardown(void **state)
{
	char q[128];

	(void)state;
	(void)itest_close(db, NULL);
	snprintf(q, sizeof(q), "DROP DATABASE IF EXISTS `%s`", dbname);
	(void)admin_sql(q);
	return 0;
}

/* Drops every type and records table, so each test starts empty. */
static int
setup(void **state)
{
	MYSQL_RES *res;
	MYSQL_ROW row;
	char q[128];

	(void)state;
	if (mysql_query(db_conn(db), "SELECT TABLE_NAME FROM "
	    "information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND "
	    "TABLE_NAME LIKE 'co\\_rec\\_%'") != 0)
		return -1;
	res = mysql_store_result(db_conn(db));
	while (res != NULL && (row = mysql_fetch_row(res)) != NULL) {
		snprintf(q, sizeof(q), "DROP TABLE `%s`", row[0]);
		sql(q);
	}
	mysql_free_result(res);
	sql("DELETE FROM co_type");
	sql("DELETE FROM lead");
	return 0;
}

/* ---- Edits used by the tests --------------------------------------- */

struct new_type {
	const char		*display;
	const struct co_field	*fields;
	size_t			 nfields;
	int			 refuse_from;	/* refuse when ntypes >= this */
};

static int
create_fn(struct co_edit *e, struct co_type *d, const struct co_type *a)
{
	const struct new_type *nt = e->arg;
	size_t i;

	if (nt->refuse_from > 0 && e->ntypes >= (size_t)nt->refuse_from) {
		snprintf(e->msg, sizeof(e->msg), "too many");
		return -API_ERR_INVALID_REQUEST;
	}
	if (nt->display != NULL) {
		free(d->display_name);
		d->display_name = strdup(nt->display);
	}
	for (i = 0; i < nt->nfields; i++)
		if (co_rule_add_field(d, a, &nt->fields[i], e->msg,
		    sizeof(e->msg)) != CO_RULE_OK)
			return -API_ERR_INVALID_REQUEST;
	return 0;
}

static int
edit(const char *name, const char *display, const struct co_field *f,
    size_t n, bool may_create)
{
	struct new_type nt = { display, f, n, 0 };
	struct co_edit e;

	memset(&e, 0, sizeof(e));
	e.fn = create_fn;
	e.arg = &nt;
	e.may_create = may_create;
	return repo_co_types_edit(db, name, &e);
}

static int
check(const struct co_type *d, const struct co_type *a, char *msg)
{
	return co_rule_approvable(d, a, msg, 256) == CO_RULE_OK ? 0 :
	    -API_ERR_INVALID_REQUEST;
}

static int
approve(const char *name)
{
	char msg[256];
	int err = 0;

	return repo_co_types_approve(db, name, check, &err, msg);
}

/* A type "car": vin (dedupe string), year (integer), leadId (link). */
static const struct co_field car_fields[] = {
	{ .name = S("vin"), .display_name = S("VIN"), .type = CO_STRING,
	    .is_dedupe = true },
	{ .name = S("year"), .display_name = S("Year"), .type = CO_INTEGER },
	{ .name = S("leadId"), .display_name = S("Lead"), .type = CO_LINK,
	    .is_link = true, .related_object = S("lead"),
	    .related_field = S("id"),
	    .key_type = CO_INTEGER },
};

static void
make_car(void)
{
	assert_int_equal(edit("car", "Car", car_fields, 3, true), 0);
	assert_int_equal(approve("car"), 0);
}

static long long
count_rows(const struct co_type *t)
{
	char q[128];

	snprintf(q, sizeof(q), "SELECT COUNT(*) FROM `%s`", t->table);
	return sql_int(q);
}

static bool
has_column(const char *table, const char *col)
{
	char q[256];

	snprintf(q, sizeof(q), "SELECT COUNT(*) FROM information_schema."
	    "COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = '%s' "
	    "AND COLUMN_NAME = '%s'", table, col);
	return sql_int(q) == 1;
}

/* Writes n new cars vin "<prefix><i>" with year i, in batches of 300. */
static void
write_cars(const struct co_type *t, const char *prefix, size_t n)
{
	struct co_write *w;
	struct lead_value *vals;
	char (*vins)[32];
	size_t i, from, k;

	w = calloc(300, sizeof(*w));
	vals = calloc(300 * t->nfields, sizeof(*vals));
	vins = calloc(300, sizeof(*vins));
	for (from = 0; from < n; from += 300) {
		k = n - from < 300 ? n - from : 300;
		for (i = 0; i < k; i++) {
			snprintf(vins[i], sizeof(vins[i]), "%s%zu", prefix,
			    from + i);
			w[i].vals = &vals[i * t->nfields];
			memset(w[i].vals, 0, t->nfields * sizeof(*vals));
			w[i].vals[0].kind = LV_STR;
			w[i].vals[0].s = vins[i];
			w[i].vals[0].len = strlen(vins[i]);
			w[i].vals[1].kind = LV_INT;
			w[i].vals[1].i = (int64_t)(from + i);
			co_guid_new(w[i].guid);
		}
		assert_int_equal(repo_co_records_write(db, t, w, k, NULL,
		    0, false), 0);
	}
	free(w);
	free(vals);
	free(vins);
}

/* ---- Tests ---------------------------------------------------------- */

static void
test_draft_then_approved(void **state)
{
	struct co_type t;

	(void)state;
	assert_int_equal(repo_co_types_get(db, "car", false, &t),
	    -REPO_ERR_NOT_FOUND);
	co_type_clear(&t);
	assert_int_equal(edit("car", "Car", NULL, 0, false),
	    -REPO_ERR_NOT_FOUND);
	assert_int_equal(edit("car", "Car", car_fields, 3, true), 0);

	assert_int_equal(repo_co_types_get(db, "CAR", false, &t), 0);
	assert_string_equal(t.state, "draft");
	assert_true(t.is_draft);
	assert_false(t.approved);
	assert_string_equal(t.table, "");
	assert_int_equal(t.nfields, 3);
	assert_string_equal(t.fields[0].name, "vin");
	assert_true(t.fields[0].is_dedupe);
	assert_true(t.fields[2].is_link);
	assert_string_equal(t.fields[2].related_object, "lead");
	assert_int_equal(t.fields[2].key_type, CO_INTEGER);
	co_type_clear(&t);
	assert_int_equal(repo_co_types_get(db, "car", true, &t),
	    -REPO_ERR_NOT_FOUND);
	co_type_clear(&t);

	assert_int_equal(approve("car"), 0);
	assert_int_equal(repo_co_types_get(db, "car", true, &t), 0);
	assert_string_equal(t.state, "approved");
	assert_false(t.has_draft);
	assert_true(t.approved);
	assert_int_equal(t.nfields, 3);
	assert_true(strncmp(t.table, "co_rec_", 7) == 0);
	assert_true(has_column(t.table, "vin"));
	assert_true(has_column(t.table, "leadId"));
	assert_true(has_column(t.table, "marketoGUID"));
	/* The dedupe key is unique; the link is indexed. */
	{
		char q[256];

		snprintf(q, sizeof(q), "SELECT NON_UNIQUE FROM "
		    "information_schema.STATISTICS WHERE TABLE_SCHEMA = "
		    "DATABASE() AND TABLE_NAME = '%s' AND COLUMN_NAME = 'vin'",
		    t.table);
		assert_int_equal(sql_int(q), 0);
		snprintf(q, sizeof(q), "SELECT NON_UNIQUE FROM "
		    "information_schema.STATISTICS WHERE TABLE_SCHEMA = "
		    "DATABASE() AND TABLE_NAME = '%s' AND COLUMN_NAME = "
		    "'leadId'", t.table);
		assert_int_equal(sql_int(q), 1);
	}
	co_type_clear(&t);
	/* Nothing to approve now. */
	assert_int_equal(approve("car"), -REPO_ERR_INVALID);
}

static void
test_approve_needs_dedupe(void **state)
{
	static const struct co_field f = { .name = S("note"),
	    .display_name = S("Note"), .type = CO_TEXT };
	struct co_type t;

	(void)state;
	assert_int_equal(edit("thing", "Thing", &f, 1, true), 0);
	assert_int_equal(approve("thing"), -REPO_ERR_INVALID);
	assert_int_equal(repo_co_types_get(db, "thing", false, &t),
	    0);
	assert_string_equal(t.state, "draft");
	co_type_clear(&t);
	assert_int_equal(sql_int("SELECT COUNT(*) FROM information_schema."
	    "TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME LIKE "
	    "'co\\_rec\\_%'"), 0);
}

static void
test_records_write_lookup(void **state)
{
	struct co_type t;
	struct co_rows rows;
	struct co_write w[2], u[1];
	struct lead_value v1[3], v2[3], v3[3], keys[3];
	const char *keycol = "vin", *cols[2] = { "year", "createdAt" };

	(void)state;
	make_car();
	assert_int_equal(repo_co_types_get(db, "car", true, &t), 0);
	memset(v1, 0, sizeof(v1));
	memset(v2, 0, sizeof(v2));
	v1[0] = (struct lead_value){ .kind = LV_STR, .s = "A1", .len = 2 };
	v1[1] = (struct lead_value){ .kind = LV_INT, .i = 2001 };
	v2[0] = (struct lead_value){ .kind = LV_STR, .s = "B2", .len = 2 };
	memset(w, 0, sizeof(w));
	w[0].vals = v1;
	w[1].vals = v2;
	co_guid_new(w[0].guid);
	co_guid_new(w[1].guid);
	assert_int_equal(repo_co_records_write(db, &t, w, 2, NULL, 0,
	    false), 0);
	assert_int_equal(count_rows(&t), 2);

	/* Keys match back to their input position; unknown keys to none. */
	keys[0] = (struct lead_value){ .kind = LV_STR, .s = "zz", .len = 2 };
	keys[1] = v2[0];
	keys[2] = v1[0];
	assert_int_equal(repo_co_records_lookup(db, &t, &keycol, 1, keys,
	    3, cols, 2, 0, 0, &rows), 0);
	assert_int_equal(rows.n, 2);
	assert_int_equal(rows.rows[0].seq, 2);	/* A1: id order */
	assert_string_equal(rows.rows[0].guid, w[0].guid);
	assert_string_equal(rows.rows[0].vals[0], "2001");
	assert_non_null(rows.rows[0].vals[1]);
	assert_int_equal(rows.rows[1].seq, 1);
	assert_null(rows.rows[1].vals[0]);	/* year NULL */
	/* Paging: limit and after_id. */
	repo_co_records_rows_free(&rows);
	assert_int_equal(repo_co_records_lookup(db, &t, &keycol, 1, keys,
	    3, cols, 2, 0, 1, &rows), 0);
	assert_int_equal(rows.n, 1);
	{
		int64_t after = rows.rows[0].id;

		repo_co_records_rows_free(&rows);
		assert_int_equal(repo_co_records_lookup(db, &t, &keycol,
		    1, keys, 3, cols, 2, after, 1, &rows), 0);
		assert_int_equal(rows.n, 1);
		assert_int_equal(rows.rows[0].seq, 1);
	}
	repo_co_records_rows_free(&rows);

	/* An update gives year; absent fields stay. */
	memset(v3, 0, sizeof(v3));
	v3[1] = (struct lead_value){ .kind = LV_INT, .i = 1999 };
	memset(u, 0, sizeof(u));
	u[0].vals = v3;
	assert_int_equal(repo_co_records_lookup(db, &t, &keycol, 1,
	    &v1[0], 1, NULL, 0, 0, 0, &rows), 0);
	assert_int_equal(rows.n, 1);
	u[0].id = rows.rows[0].id;
	memcpy(u[0].guid, rows.rows[0].guid, sizeof(u[0].guid));
	repo_co_records_rows_free(&rows);
	assert_int_equal(repo_co_records_write(db, &t, NULL, 0, u, 1,
	    false), 0);
	assert_int_equal(repo_co_records_lookup(db, &t, &keycol, 1,
	    &v1[0], 1, cols, 1, 0, 0, &rows), 0);
	assert_string_equal(rows.rows[0].vals[0], "1999");
	repo_co_records_rows_free(&rows);
	assert_int_equal(count_rows(&t), 2);

	/* A create of an existing key: batch refused, one by one marked. */
	co_guid_new(w[0].guid);
	assert_int_equal(repo_co_records_write(db, &t, w, 1, NULL, 0,
	    false), -REPO_ERR_CONFLICT);
	assert_int_equal(repo_co_records_write(db, &t, w, 1, NULL, 0,
	    true), 0);
	assert_true(w[0].conflict);
	assert_int_equal(count_rows(&t), 2);

	/* By marketoGUID, in upper case. */
	{
		const char *gcol = "marketoGUID";
		char up[CO_GUID_LEN + 1];
		struct lead_value g;
		size_t i;

		memcpy(up, w[1].guid, sizeof(up));
		for (i = 0; up[i] != '\0'; i++)
			if (up[i] >= 'a' && up[i] <= 'f')
				up[i] = (char)(up[i] - 'a' + 'A');
		g = (struct lead_value){ .kind = LV_STR, .s = w[1].guid,
		    .len = CO_GUID_LEN };
		assert_int_equal(repo_co_records_lookup(db, &t, &gcol, 1,
		    &g, 1, NULL, 0, 0, 0, &rows), 0);
		assert_int_equal(rows.n, 1);
		assert_int_equal(rows.rows[0].seq, 0);
		/* Delete it by id. */
		assert_int_equal(repo_co_records_delete_ids(db, &t,
		    &rows.rows[0].id, 1), 0);
		repo_co_records_rows_free(&rows);
	}
	assert_int_equal(count_rows(&t), 1);
	co_type_clear(&t);
}

/*
 * The scenario: approve, 1,000 records in 4 batches, a field
 * added through a new draft, approved again: every record is still there
 * and has the new column.
 */
static void
test_reapprove_keeps_records(void **state)
{
	static const struct co_field color = { .name = S("color"),
	    .display_name = S("Color"), .type = CO_STRING };
	struct co_type t, t2;
	struct co_rows rows;
	struct lead_value key = { .kind = LV_STR, .s = "v999", .len = 4 };
	const char *keycol = "vin", *cols[2] = { "color", "year" };

	(void)state;
	make_car();
	assert_int_equal(repo_co_types_get(db, "car", true, &t), 0);
	write_cars(&t, "v", 1000);
	assert_int_equal(count_rows(&t), 1000);

	assert_int_equal(edit("car", NULL, &color, 1, false), 0);
	assert_int_equal(repo_co_types_get(db, "car", false, &t2),
	    0);
	assert_string_equal(t2.state, "approvedWithDraft");
	assert_true(t2.is_draft);
	assert_int_equal(t2.nfields, 4);
	co_type_clear(&t2);
	/* The records still follow the approved version. */
	assert_int_equal(repo_co_types_get(db, "car", true, &t2),
	    0);
	assert_int_equal(t2.nfields, 3);
	co_type_clear(&t2);
	assert_false(has_column(t.table, "color"));

	assert_int_equal(approve("car"), 0);
	assert_int_equal(repo_co_types_get(db, "car", true, &t2),
	    0);
	assert_string_equal(t2.state, "approved");
	assert_int_equal(t2.nfields, 4);
	assert_string_equal(t2.table, t.table);
	assert_true(has_column(t.table, "color"));
	assert_int_equal(count_rows(&t2), 1000);
	assert_int_equal(repo_co_records_lookup(db, &t2, &keycol, 1, &key,
	    1, cols, 2, 0, 0, &rows), 0);
	assert_int_equal(rows.n, 1);
	assert_null(rows.rows[0].vals[0]);
	assert_string_equal(rows.rows[0].vals[1], "999");
	repo_co_records_rows_free(&rows);
	co_type_clear(&t2);
	co_type_clear(&t);
}

/* Deleting a field and approving drops its column after the approval. */
static void
test_reapprove_drops_deleted_column(void **state)
{
	struct co_type t;
	struct co_edit e;

	(void)state;
	make_car();
	assert_int_equal(repo_co_types_get(db, "car", true, &t), 0);
	write_cars(&t, "d", 10);
	assert_true(has_column(t.table, "year"));
	/* A draft without "year" (a fresh edit that deletes it). */
	memset(&e, 0, sizeof(e));
	{
		struct new_type nt = { NULL, NULL, 0, 0 };

		e.fn = create_fn;
		e.arg = &nt;
		assert_int_equal(repo_co_types_edit(db, "car", &e),
		    0);
	}
	sql("DELETE FROM co_field WHERE is_draft = 1 AND name = 'year'");
	assert_int_equal(approve("car"), 0);
	assert_false(has_column(t.table, "year"));
	assert_true(has_column(t.table, "vin"));
	assert_int_equal(count_rows(&t), 10);
	co_type_clear(&t);
}

static void
test_discard(void **state)
{
	static const struct co_field color = { .name = S("color"),
	    .display_name = S("Color"), .type = CO_STRING };
	struct co_type t;

	(void)state;
	assert_int_equal(edit("car", "Car", car_fields, 3, true), 0);
	/* A type never approved has nothing to go back to. */
	assert_int_equal(repo_co_types_discard(db, "car"),
	    -REPO_ERR_INVALID);
	assert_int_equal(approve("car"), 0);
	/* Approved without a draft. */
	assert_int_equal(repo_co_types_discard(db, "car"),
	    -REPO_ERR_INVALID);
	assert_int_equal(edit("car", NULL, &color, 1, false), 0);
	assert_int_equal(repo_co_types_discard(db, "car"), 0);
	assert_int_equal(repo_co_types_get(db, "car", false, &t), 0);
	assert_string_equal(t.state, "approved");
	assert_false(t.is_draft);
	assert_int_equal(t.nfields, 3);
	co_type_clear(&t);
	assert_int_equal(repo_co_types_discard(db, "nosuch"),
	    -REPO_ERR_NOT_FOUND);
}

/* The edit sees how many types exist, so the limit can be enforced. */
static void
test_type_count(void **state)
{
	struct new_type nt = { "T", NULL, 0, 3 };
	struct co_edit e;
	char name[16];
	int i;

	(void)state;
	for (i = 0; i < 4; i++) {
		memset(&e, 0, sizeof(e));
		e.fn = create_fn;
		e.arg = &nt;
		e.may_create = true;
		snprintf(name, sizeof(name), "t%d", i);
		nt.display = name;	/* display names are unique */
		assert_int_equal(repo_co_types_edit(db, name, &e),
		    i < 3 ? 0 : -REPO_ERR_INVALID);
		assert_int_equal(e.ntypes, (size_t)i);
	}
	/* An existing type is still editable at the limit. */
	memset(&e, 0, sizeof(e));
	nt.refuse_from = 0;
	e.fn = create_fn;
	e.arg = &nt;
	assert_int_equal(repo_co_types_edit(db, "t0", &e), 0);
	assert_false(e.is_new);
	{
		char **names;
		size_t n;

		assert_int_equal(repo_co_types_list(db, &names, &n),
		    0);
		assert_int_equal(n, 3);
		assert_string_equal(names[0], "t0");
		repo_co_types_names_free(names, n);
	}
}

static void
test_delete_type(void **state)
{
	static const struct co_field link = { .name = S("carVin"),
	    .display_name = S("Car"), .type = CO_LINK, .is_link = true,
	    .related_object = S("car"), .related_field = S("vin"),
	    .key_type = CO_STRING };
	static const struct co_field key = { .name = S("code"),
	    .display_name = S("Code"), .type = CO_STRING, .is_dedupe = true };
	struct co_field fs[2] = { key, link };
	struct co_type t;
	char msg[256], table[32];

	(void)state;
	make_car();
	assert_int_equal(repo_co_types_get(db, "car", true, &t), 0);
	memcpy(table, t.table, sizeof(table));
	co_type_clear(&t);
	assert_int_equal(edit("part", "Part", fs, 2, true), 0);
	assert_int_equal(repo_co_types_delete(db, "car", msg),
	    -REPO_ERR_INVALID);
	assert_non_null(strstr(msg, "part"));
	assert_int_equal(repo_co_types_delete(db, "part", msg), 0);
	assert_int_equal(repo_co_types_delete(db, "car", msg), 0);
	assert_int_equal(repo_co_types_get(db, "car", false, &t),
	    -REPO_ERR_NOT_FOUND);
	co_type_clear(&t);
	assert_false(has_column(table, "vin"));
	assert_int_equal(sql_int("SELECT COUNT(*) FROM co_field"), 0);
	assert_int_equal(repo_co_types_delete(db, "car", msg),
	    -REPO_ERR_NOT_FOUND);
}

/* Another approval's live lease blocks; an expired one does not. */
static void
test_approve_lease(void **state)
{
	(void)state;
	assert_int_equal(edit("car", "Car", car_fields, 3, true), 0);
	sql("UPDATE co_type SET approving_owner = REPEAT('a', 36), "
	    "approving_until = UTC_TIMESTAMP() + INTERVAL 60 SECOND");
	assert_int_equal(approve("car"), -REPO_ERR_INVALID);
	sql("UPDATE co_type SET approving_until = UTC_TIMESTAMP() - "
	    "INTERVAL 1 SECOND");
	assert_int_equal(approve("car"), 0);
	assert_int_equal(sql_int("SELECT COUNT(*) FROM co_type WHERE "
	    "approving_owner IS NULL"), 1);
}

/* A table left by an interrupted first approval is made again. */
static void
test_approve_after_crash(void **state)
{
	struct co_type t;
	long long id;
	char q[128];

	(void)state;
	assert_int_equal(edit("car", "Car", car_fields, 3, true), 0);
	id = sql_int("SELECT id FROM co_type WHERE api_name = 'car'");
	snprintf(q, sizeof(q), "CREATE TABLE co_rec_%lld (id BIGINT PRIMARY "
	    "KEY, stale INT) ENGINE=InnoDB", id);
	sql(q);
	assert_int_equal(approve("car"), 0);
	assert_int_equal(repo_co_types_get(db, "car", true, &t), 0);
	assert_false(has_column(t.table, "stale"));
	assert_true(has_column(t.table, "vin"));
	co_type_clear(&t);
}

static void
test_leads_exist(void **state)
{
	struct lead_value keys[3];
	bool found[3];
	long long id;

	(void)state;
	sql("DELETE FROM lead WHERE email = 'x@y.z'");
	sql("INSERT INTO lead (email, createdAt, updatedAt) VALUES "
	    "('x@y.z', UTC_TIMESTAMP(), UTC_TIMESTAMP())");
	id = sql_int("SELECT MAX(id) FROM lead");
	memset(keys, 0, sizeof(keys));
	keys[0].kind = keys[1].kind = keys[2].kind = LV_INT;
	keys[0].i = id;
	keys[1].i = id + 1000;
	keys[2].i = id;
	assert_int_equal(repo_leads_exist(db, keys, 3, false,
	    found), 0);
	assert_true(found[0]);
	assert_false(found[1]);
	assert_true(found[2]);
	/* By email address, without regard to case. */
	keys[0].kind = keys[1].kind = keys[2].kind = LV_STR;
	keys[0].s = "X@Y.z";
	keys[1].s = "x@y.zz";
	keys[2].s = "x@y.z";
	keys[0].len = keys[2].len = 5;
	keys[1].len = 6;
	assert_int_equal(repo_leads_exist(db, keys, 3, true,
	    found), 0);
	assert_true(found[0]);
	assert_false(found[1]);
	assert_true(found[2]);
}

/* Key texts: the same for equal values, different for others. */
static void
test_key_text(void **state)
{
	struct lead_value a[2] = {
		{ .kind = LV_STR, .s = "ab", .len = 2 },
		{ .kind = LV_INT, .i = 7 },
	};
	struct lead_value b[2] = {
		{ .kind = LV_STR, .s = "a", .len = 1 },
		{ .kind = LV_STR, .s = "b7", .len = 2 },
	};
	struct buf x, y;

	(void)state;
	buf_init(&x, 1024);
	buf_init(&y, 1024);
	repo_co_records_key_text(&x, a, 2);
	repo_co_records_key_text(&y, b, 2);
	assert_true(x.len != y.len || memcmp(x.data, y.data, x.len) != 0);
	assert_int_equal(x.len, 4);
	assert_memory_equal(x.data, "ab\x1f" "7", 4);
	buf_clear(&x);
	buf_clear(&y);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_draft_then_approved, setup),
		cmocka_unit_test_setup(test_approve_needs_dedupe, setup),
		cmocka_unit_test_setup(test_records_write_lookup, setup),
		cmocka_unit_test_setup(test_reapprove_keeps_records, setup),
		cmocka_unit_test_setup(test_reapprove_drops_deleted_column,
		    setup),
		cmocka_unit_test_setup(test_discard, setup),
		cmocka_unit_test_setup(test_type_count, setup),
		cmocka_unit_test_setup(test_delete_type, setup),
		cmocka_unit_test_setup(test_approve_lease, setup),
		cmocka_unit_test_setup(test_approve_after_crash, setup),
		cmocka_unit_test_setup(test_leads_exist, setup),
		cmocka_unit_test(test_key_text),
	};

	if (itest_config(&cfg) != 0) {
		fprintf(stderr, "MAUTO_TEST_DB_* not set: skipped\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
