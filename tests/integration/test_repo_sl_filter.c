/*
 * Smart list filters run in MariaDB (repo/repo_sl_filter.c): leads, a
 * static list, a program with statuses and activities made here, and the
 * ids each filter family selects, in keyset pages and one lead at a time;
 * a custom object type made here (and dropped) for its filter.
 * Only the leads of this run are looked at (the table holds others').
 * Needs MAUTO_TEST_DB_*; without them it exits 77.
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

#include "db/pool.h"
#include "model/leadfield.h"
#include "model/smartlist.h"
#include "repo/repo.h"
#include "repo/repo_lead_fields.h"
#include "repo/repo_sl_filter.h"
#include "util/arena.h"
#include "util/config.h"
#include "util/timeutil.h"
#include "itest.h"

#define NLEADS	5
#define DAY_MS	INT64_C(86400000)

static struct config cfg;
static struct db *db;
static struct lead_schema schema;
static char tag[16];
static int64_t leads[NLEADS];
static int64_t list_id, program_id, form_id;
static char list_json[64], program_json[64], form_json[64];

/* The lead made last (this connection's). */
static int64_t
last_id(void)
{
	return itest_count(db, "SELECT LAST_INSERT_ID()");
}

static int
group_setup(void **state)
{
	static const char *const company[NLEADS] = { "'Acme Corp'", "'acme'",
	    "NULL", "'Initech'", "''" };
	static const char *const size[NLEADS] = { "10", "50", "NULL", "5",
	    "7" };
	static const char *const birth[NLEADS] = { "'1990-05-01'", "NULL",
	    "'1990-05-02'", "NULL", "'2001-01-01'" };
	int i;

	(void)state;
	(void)snprintf(tag, sizeof(tag), "slf%ld", (long)getpid());
	if (itest_open(&db, &cfg, NULL, NULL, 0) != 0 ||
	    repo_lead_fields_load(db, &schema) != 0)
		return -1;
	for (i = 0; i < NLEADS; i++) {
		itest_sqlf(db, "INSERT INTO lead (email, company, "
		    "numberOfEmployees, mktoIsPartner, dateOfBirth, createdAt, "
		    "updatedAt) VALUES ('%s-%d@example.com', %s, %s, %d, %s, "
		    "UTC_TIMESTAMP(), UTC_TIMESTAMP())", tag, i, company[i],
		    size[i], i == 0, birth[i]);
		leads[i] = last_id();
	}
	itest_sqlf(db, "INSERT INTO static_list (name, created_at, updated_at) "
	    "VALUES ('%s-Customers', UTC_TIMESTAMP(), UTC_TIMESTAMP())", tag);
	list_id = last_id();
	itest_sqlf(db, "INSERT INTO list_member (list_id, lead_id, created_at, "
	    "updated_at) VALUES (%ld, %ld, UTC_TIMESTAMP(), UTC_TIMESTAMP()), "
	    "(%ld, %ld, UTC_TIMESTAMP(), UTC_TIMESTAMP())", (long)list_id,
	    (long)leads[0], (long)list_id, (long)leads[1]);
	itest_sqlf(db, "INSERT INTO program (name, type, channel, created_at, "
	    "updated_at) VALUES ('%s-Webinar', 'event', 'Webinar', "
	    "UTC_TIMESTAMP(), UTC_TIMESTAMP())", tag);
	program_id = last_id();
	itest_sqlf(db, "INSERT INTO program_status (program_id, step, name) "
	    "VALUES (%ld, 0, 'Not in Program'), (%ld, 1, 'Invited'), "
	    "(%ld, 2, 'Attended')", (long)program_id, (long)program_id,
	    (long)program_id);
	itest_sqlf(db, "INSERT INTO program_member (program_id, lead_id, "
	    "status_step, membership_date, updated_at) VALUES "
	    "(%ld, %ld, 2, UTC_TIMESTAMP(), UTC_TIMESTAMP()), "
	    "(%ld, %ld, 1, UTC_TIMESTAMP(), UTC_TIMESTAMP())",
	    (long)program_id, (long)leads[0], (long)program_id,
	    (long)leads[1]);
	itest_sqlf(db, "INSERT INTO form (name, created_at, updated_at) "
	    "VALUES ('%s-Signup', UTC_TIMESTAMP(), UTC_TIMESTAMP())", tag);
	form_id = last_id();
	/* Lead 0 added to the list now, lead 2 sixty days ago. */
	itest_sqlf(db, "INSERT INTO activity (lead_id, activity_type_id, "
	    "activity_date, primary_value_id, primary_value, attributes) "
	    "VALUES (%ld, 24, UTC_TIMESTAMP(3), %ld, 'x', '{}'), "
	    "(%ld, 24, UTC_TIMESTAMP(3) - INTERVAL 60 DAY, %ld, 'x', '{}')",
	    (long)leads[0], (long)list_id, (long)leads[2], (long)list_id);
	/* Lead 1 filled out the form three times, lead 3 once. */
	for (i = 0; i < 4; i++)
		itest_sqlf(db, "INSERT INTO activity (lead_id, "
		    "activity_type_id, activity_date, primary_value_id, "
		    "primary_value, attributes) VALUES (%ld, 2, "
		    "UTC_TIMESTAMP(3), %ld, 'Signup', '{\"Web Page\":"
		    "\"https://example.com/Signup\"}')",
		    (long)leads[i < 3 ? 1 : 3], (long)form_id);
	/* Lead 3's company changed from nothing to Initech. */
	itest_sqlf(db, "INSERT INTO activity (lead_id, activity_type_id, "
	    "activity_date, primary_value_id, primary_value, attributes) "
	    "VALUES (%ld, 13, UTC_TIMESTAMP(3), 4, 'Company Name', "
	    "'{\"New Value\":\"Initech\",\"Old Value\":null}')",
	    (long)leads[3]);
	(void)snprintf(list_json, sizeof(list_json), "[\"%s-Customers\"]",
	    tag);
	(void)snprintf(program_json, sizeof(program_json), "[\"%ld\"]",
	    (long)program_id);
	(void)snprintf(form_json, sizeof(form_json), "[\"%s-Signup\"]", tag);
	return 0;
}

static int
group_teardown(void **state)
{
	(void)state;
	lead_schema_clear(&schema);
	return itest_close(db, NULL);
}

/*
 * Which of this run's leads rules select (a bit per lead, lead 0 the
 * lowest), read in keyset pages of two; each is checked against
 * repo_sl_filter_match.
 */
static unsigned
selected(const struct smartlist_rule *rules, size_t n, const char *match,
    const char *logic)
{
	struct sl_filter f;
	char msg[SL_MSG_BYTES];
	int64_t ids[2], after = leads[0] - 1;
	size_t got, i;
	unsigned bits = 0, k;
	bool m;

	assert_int_equal(sl_filter_build(&schema, rules, n, match, logic,
	    time_now_ms(), &f, msg, sizeof(msg)), 0);
	do {
		assert_int_equal(repo_sl_filter_leads(db, &f, after, 2, ids,
		    &got), 0);
		for (i = 0; i < got; i++) {
			assert_true(ids[i] > after);
			after = ids[i];
			for (k = 0; k < NLEADS; k++)
				if (ids[i] == leads[k])
					bits |= 1u << k;
		}
	} while (got == 2 && after < leads[NLEADS - 1]);
	for (k = 0; k < NLEADS; k++) {
		assert_int_equal(repo_sl_filter_match(db, &f, leads[k], &m), 0);
		assert_int_equal(m, (bits >> k) & 1);
	}
	sl_filter_clear(&f);
	return bits;
}

static unsigned
one(bool activity, int32_t type, struct smartlist_cond *c, size_t nc)
{
	struct smartlist_rule r = { .activity = activity, .type_id = type,
	    .name = "R", .conds = c, .nconds = nc };

	return selected(&r, 1, "all", NULL);
}

static struct smartlist_cond
cond(int32_t id, const char *op, const char *vals)
{
	struct smartlist_cond c = { .attribute_id = id, .op = op,
	    .values_json = vals };

	return c;
}

static void
test_attributes(void **state)
{
	struct smartlist_cond c;

	(void)state;
	/* Strings ignore case; empty is NULL or ''. */
	c = cond(4, "is", "[\"ACME\",\"Initech\"]");
	assert_int_equal(one(false, 4, &c, 1), 0x2 | 0x8);
	c = cond(4, "is not", "[\"acme\"]");
	assert_int_equal(one(false, 4, &c, 1), 0x1 | 0x4 | 0x8 | 0x10);
	c = cond(4, "contains", "[\"CME\"]");
	assert_int_equal(one(false, 4, &c, 1), 0x1 | 0x2);
	c = cond(4, "not contains", "[\"cme\"]");
	assert_int_equal(one(false, 4, &c, 1), 0x4 | 0x8 | 0x10);
	c = cond(4, "starts with", "[\"acme \"]");
	assert_int_equal(one(false, 4, &c, 1), 0x1);
	c = cond(4, "contains", "[\"%\"]");
	assert_int_equal(one(false, 4, &c, 1), 0);
	c = cond(4, "is empty", "[]");
	assert_int_equal(one(false, 4, &c, 1), 0x4 | 0x10);
	c = cond(4, "is not empty", "[]");
	assert_int_equal(one(false, 4, &c, 1), 0x1 | 0x2 | 0x8);
	/* Numbers. */
	c = cond(16, "between", "[\"7\",\"10\"]");
	assert_int_equal(one(false, 16, &c, 1), 0x1 | 0x10);
	c = cond(16, "greater than", "[\"7\"]");
	assert_int_equal(one(false, 16, &c, 1), 0x1 | 0x2);
	c = cond(16, "is not", "[\"10\"]");
	assert_int_equal(one(false, 16, &c, 1), 0x2 | 0x4 | 0x8 | 0x10);
	c = cond(16, "is empty", "[]");
	assert_int_equal(one(false, 16, &c, 1), 0x4);
	/* Booleans, dates. */
	c = cond(48, "is", "[\"true\"]");
	assert_int_equal(one(false, 48, &c, 1), 0x1);
	c = cond(62, "between", "[\"1990-05-01\",\"1990-05-02\"]");
	assert_int_equal(one(false, 62, &c, 1), 0x1 | 0x4);
	c = cond(62, "after", "[\"1990-05-01\"]");
	assert_int_equal(one(false, 62, &c, 1), 0x4 | 0x10);
	c = cond(62, "before", "[\"1990-05-02\"]");
	assert_int_equal(one(false, 62, &c, 1), 0x1);
	c = cond(130, "in past", "[\"1 hour\"]");
	assert_int_equal(one(false, 130, &c, 1), 0x1f);
}

static void
test_membership(void **state)
{
	struct smartlist_cond c, s[2];
	char ids[64];

	(void)state;
	c = cond(1, "in", list_json);
	assert_int_equal(one(true, 100001, &c, 1), 0x1 | 0x2);
	(void)snprintf(ids, sizeof(ids), "[\"%ld\"]", (long)list_id);
	c = cond(1, "not in", ids);
	assert_int_equal(one(true, 100001, &c, 1), 0x4 | 0x8 | 0x10);
	c = cond(1, "in", program_json);
	assert_int_equal(one(true, 100003, &c, 1), 0x1 | 0x2);
	s[0] = cond(1, "is", program_json);
	s[1] = cond(2, "is", "[\"attended\"]");
	assert_int_equal(one(true, 100002, s, 2), 0x1);
	s[1] = cond(2, "is not", "[\"Attended\"]");
	assert_int_equal(one(true, 100002, s, 2), 0x2 | 0x4 | 0x8 | 0x10);
	s[1] = cond(2, "is", "[\"Invited\",\"Not in Program\"]");
	assert_int_equal(one(true, 100002, s, 2), 0x2 | 0x4 | 0x8 | 0x10);
}

static void
test_activities(void **state)
{
	struct smartlist_cond c[3];
	struct smartlist_rule r;

	(void)state;
	c[0] = cond(1, "is", list_json);
	assert_int_equal(one(true, 24, c, 1), 0x1 | 0x4);
	c[1] = cond(-101, "in past", "[\"30 days\"]");
	assert_int_equal(one(true, 24, c, 2), 0x1);
	/* Not Added to List in the past 30 days. */
	r = (struct smartlist_rule){ .activity = true, .type_id = 24,
	    .name = "R", .negative = true, .conds = c, .nconds = 2 };
	assert_int_equal(selected(&r, 1, "all", NULL), 0x2 | 0x4 | 0x8 |
	    0x10);
	c[0] = cond(1, "is", form_json);
	assert_int_equal(one(true, 2, c, 1), 0x2 | 0x8);
	c[1] = cond(-102, "at least", "[\"2\"]");
	assert_int_equal(one(true, 2, c, 2), 0x2);
	c[1] = cond(2, "contains", "[\"/signup\"]");
	assert_int_equal(one(true, 2, c, 2), 0x2 | 0x8);
	c[0] = cond(1, "is", "[\"Company Name\"]");
	c[1] = cond(2, "is", "[\"initech\"]");
	c[2] = cond(3, "is empty", "[]");
	assert_int_equal(one(true, 13, c, 3), 0x8);
	c[1] = cond(2, "is", "[\"Acme\"]");
	assert_int_equal(one(true, 13, c, 3), 0);
}

static void
test_logic(void **state)
{
	struct smartlist_cond c[3] = { cond(1, "in", NULL),
	    cond(16, "at least", "[\"10\"]"), cond(4, "is empty", "[]") };
	struct smartlist_rule r[3] = {
	    { .activity = true, .type_id = 100001, .name = "List",
	      .conds = &c[0], .nconds = 1 },
	    { .type_id = 16, .name = "Size", .conds = &c[1], .nconds = 1 },
	    { .type_id = 4, .name = "Company", .conds = &c[2], .nconds = 1 },
	};

	(void)state;
	c[0].values_json = list_json;
	assert_int_equal(selected(r, 2, "all", NULL), 0x1 | 0x2);
	assert_int_equal(selected(r, 3, "all", NULL), 0);
	assert_int_equal(selected(r, 3, "any", NULL), 0x1 | 0x2 | 0x4 |
	    0x10);
	assert_int_equal(selected(r, 3, "custom", "3 or (1 and not 2)"),
	    0x4 | 0x10);
	assert_int_equal(selected(r, 3, "custom", "not (1 or 3)"), 0x8);
	/* No filter: every lead. */
	assert_int_equal(selected(NULL, 0, "all", NULL), 0x1f);
}

/*
 * A custom object type linked to leads by id, made here as an approval
 * leaves one (approved version, fields, constraint ids, record table):
 * lead 0 owns a car priced 200, lead 3 one priced 50.
 */
static int64_t
co_type_make(void)
{
	int64_t id;

	itest_sqlf(db, "INSERT INTO co_type (api_name, state, has_approved, "
	    "has_draft, table_ready, created_at, updated_at) VALUES "
	    "('%s_car', 'approved', 1, 0, 1, UTC_TIMESTAMP(), "
	    "UTC_TIMESTAMP())", tag);
	id = last_id();
	itest_sqlf(db, "INSERT INTO co_type_version (type_id, is_draft, "
	    "display_name, updated_at) VALUES (%ld, 0, 'Car', "
	    "UTC_TIMESTAMP())", (long)id);
	itest_sqlf(db, "INSERT INTO co_field (type_id, is_draft, name, pos, "
	    "display_name, data_type, is_dedupe, related_object, "
	    "related_field, key_type) VALUES "
	    "(%ld, 0, 'vin', 1, 'VIN', 'string', 1, NULL, NULL, NULL), "
	    "(%ld, 0, 'price', 2, 'Price', 'float', 0, NULL, NULL, NULL), "
	    "(%ld, 0, 'owner', 3, 'Owner', 'link', 0, 'lead', 'id', "
	    "'integer')", (long)id, (long)id, (long)id);
	itest_sqlf(db, "INSERT INTO co_field_ref (type_id, name, is_primary) "
	    "VALUES (%ld, 'vin', 1), (%ld, 'price', 0), (%ld, 'owner', 0)",
	    (long)id, (long)id, (long)id);
	itest_sqlf(db, "CREATE TABLE co_rec_%ld (vin VARCHAR(255) NOT NULL, "
	    "price DOUBLE NULL, owner INT NULL, KEY (owner))", (long)id);
	itest_sqlf(db, "INSERT INTO co_rec_%ld (vin, price, owner) VALUES "
	    "('V1', 200, %ld), ('V2', 50, %ld)", (long)id, (long)leads[0],
	    (long)leads[3]);
	return id;
}

static void
test_custom_objects(void **state)
{
	struct smartlist_cond c;
	struct smartlist_rule r;
	struct sl_filter f;
	struct slf_co co;
	struct arena a;
	char msg[SL_MSG_BYTES];
	int64_t type, ids[NLEADS + 8];
	size_t got, i;
	unsigned bits = 0, k;

	(void)state;
	arena_init(&a);
	type = co_type_make();
	assert_int_equal(repo_sl_filter_co_load(db, &a, &co), 0);
	c = cond((int32_t)itest_count(db, "SELECT id FROM co_field_ref WHERE "
	    "type_id = %ld AND name = 'price'", (long)type), "at least",
	    "[\"100\"]");
	memset(&r, 0, sizeof(r));
	r.activity = true;
	r.type_id = SL_CO_RULE_BASE + (int32_t)type;
	r.name = "Has Car";
	r.conds = &c;
	r.nconds = 1;
	assert_int_equal(sl_filter_build_co(&schema, &co, &r, 1, "all", NULL,
	    time_now_ms(), &f, msg, sizeof(msg)), 0);
	assert_int_equal(repo_sl_filter_leads(db, &f, leads[0] - 1,
	    NLEADS + 8, ids, &got), 0);
	for (i = 0; i < got; i++)
		for (k = 0; k < NLEADS; k++)
			if (ids[i] == leads[k])
				bits |= 1u << k;
	assert_int_equal(bits, 0x1);
	sl_filter_clear(&f);
	/* Has Car at all: leads 0 and 3. */
	r.nconds = 0;
	assert_int_equal(sl_filter_build_co(&schema, &co, &r, 1, "all", NULL,
	    time_now_ms(), &f, msg, sizeof(msg)), 0);
	for (k = 0; k < NLEADS; k++) {
		bool m;

		assert_int_equal(repo_sl_filter_match(db, &f, leads[k], &m), 0);
		assert_int_equal(m, k == 0 || k == 3);
	}
	sl_filter_clear(&f);
	itest_sqlf(db, "DROP TABLE co_rec_%ld", (long)type);
	itest_sqlf(db, "DELETE FROM co_type WHERE id = %ld", (long)type);
	arena_clear(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attributes),
		cmocka_unit_test(test_membership),
		cmocka_unit_test(test_activities),
		cmocka_unit_test(test_logic),
		cmocka_unit_test(test_custom_objects),
	};

	if (itest_config(&cfg) != 0)
		return 77;
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
