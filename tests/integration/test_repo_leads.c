/*
 * The lead store's core repository (repo_leads.h) against a real MariaDB:
 * the upsert's action table, batches with repeated keys, partitions,
 * paging stable under inserts, Push Lead's membership and activity,
 * Submit Form's activity and cookie, delete, values with SQL
 * metacharacters, two processes racing to create the same new leads,
 * and four syncing full batches that overlap at once.  Needs
 * MAUTO_TEST_DB_*; without them it exits 77 (SKIP).
 */
#include <sys/types.h>
#include <sys/wait.h>

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

#include "db/pool.h"
#include "bounds.h"
#include "model/leadfield.h"
#include "repo/repo.h"
#include "repo/repo_activity.h"
#include "repo/repo_forms.h"
#include "repo/repo_lead_fields.h"
#include "repo/repo_lead_lock.h"
#include "repo/repo_leads.h"
#include "repo/repo_partitions.h"
#include "util/arena.h"
#include "util/config.h"
#include "itest.h"

static struct config cfg;
static struct db *db;
static struct lead_schema schema;
static struct arena arena;

static void
sql(const char *q)
{
	itest_sql(db, q);
}

/* One integer from a fixture query. */
static int64_t
sql_int(const char *q)
{
	MYSQL_RES *res;
	MYSQL_ROW row;
	int64_t v = -1;

	if (mysql_query(db_conn(db), q) != 0)
		fail_msg("%s: %s", q, mysql_error(db_conn(db)));
	res = mysql_store_result(db_conn(db));
	assert_non_null(res);
	row = mysql_fetch_row(res);
	if (row != NULL && row[0] != NULL)
		v = strtoll(row[0], NULL, 10);
	mysql_free_result(res);
	return v;
}

static const struct lead_field *
field(const char *name)
{
	const struct lead_field *f = lead_schema_find(&schema, name);

	assert_non_null(f);
	return f;
}

static int
group_setup(void **state)
{
	(void)state;
	if (itest_open(&db, &cfg, &arena, NULL, 0) != 0)
		return -1;
	return repo_lead_fields_load(db, &schema) == 0 ? 0 : -1;
}

static int
group_teardown(void **state)
{
	(void)state;
	lead_schema_clear(&schema);
	return itest_close(db, &arena);
}

static int
setup(void **state)
{
	(void)state;
	arena_reset(&arena);
	sql("DELETE FROM lead");
	sql("DELETE FROM activity");
	sql("DELETE FROM program_member");
	sql("DELETE FROM list_member");
	sql("DELETE FROM campaign_member");
	sql("DELETE FROM lead_cookie");
	sql("DELETE FROM lead_claim");
	sql("DELETE FROM form WHERE name LIKE 'itest leads%'");
	sql("DELETE FROM program WHERE name LIKE 'itest leads%'");
	sql("DELETE FROM static_list WHERE name LIKE 'itest leads%'");
	sql("DELETE FROM lead_partition WHERE id > 1");
	return 0;
}

/* A record of string fields: name, value, name, value, ..., NULL. */
static void
rec_set(struct lead_rec *rec, const char *lookup, ...)
{
	va_list ap;
	const char *name, *value;
	size_t n = 0;

	memset(rec, 0, sizeof(*rec));
	rec->cols = arena_zalloc(&arena, 16 * sizeof(*rec->cols));
	va_start(ap, lookup);
	while ((name = va_arg(ap, const char *)) != NULL) {
		value = va_arg(ap, const char *);
		rec->cols[n].f = field(name);
		if (value == NULL)
			rec->cols[n].v.kind = LV_NULL;
		else {
			rec->cols[n].v.kind = LV_STR;
			rec->cols[n].v.s = value;
			rec->cols[n].v.len = strlen(value);
		}
		if (lookup != NULL && strcmp(name, lookup) == 0)
			rec->key = &rec->cols[n].v;
		n++;
	}
	va_end(ap);
	rec->ncols = n;
}

static void
sync_init(struct lead_sync *s, enum lead_action action, struct lead_rec *recs,
    size_t n)
{
	memset(s, 0, sizeof(*s));
	s->action = action;
	s->lookup = field("email");
	s->recs = recs;
	s->n = n;
	s->new_lead_attrs = "{\"Source Type\":\"Web service API\"}";
	s->arena = &arena;
}

/* Reads one text column of a lead through the repository. */
static const char *
get_col(int64_t id, const char *name)
{
	const struct lead_field *cols[1] = { field(name) };
	struct lead_rows rows;

	assert_int_equal(repo_leads_get_by_id(db, &arena, cols, 1, id, &rows),
	    0);
	if (rows.count == 0)
		return "(no lead)";
	return rows.rows[0].vals[0] != NULL ? rows.rows[0].vals[0] : "(null)";
}

static void
test_actions(void **state)
{
	struct lead_rec r[4];
	struct lead_sync s;
	int64_t id;

	(void)state;
	/* createOrUpdate: new key creates, the same key (any case) updates. */
	rec_set(&r[0], "email", "email", "a@example.com", "firstName", "A",
	    NULL);
	sync_init(&s, LEAD_CREATE_OR_UPDATE, r, 1);
	assert_int_equal(repo_leads_sync(db, &s), 0);
	assert_int_equal(r[0].status, LEAD_CREATED);
	id = r[0].id;
	assert_true(id > 0);
	assert_string_equal(get_col(id, "firstName"), "A");
	rec_set(&r[0], "email", "email", "A@Example.com", "lastName", "Z",
	    NULL);
	assert_int_equal(repo_leads_sync(db, &s), 0);
	assert_int_equal(r[0].status, LEAD_UPDATED);
	assert_int_equal(r[0].id, id);
	assert_string_equal(get_col(id, "firstName"), "A");
	assert_string_equal(get_col(id, "lastName"), "Z");
	/* One "New Lead" activity, for the create only. */
	assert_int_equal(sql_int("SELECT COUNT(*) FROM activity WHERE "
	    "activity_type_id = 12"), 1);

	/* createOnly: an existing key is 1005; a new one is created. */
	rec_set(&r[0], "email", "email", "a@example.com", NULL);
	rec_set(&r[1], "email", "email", "b@example.com", NULL);
	sync_init(&s, LEAD_CREATE_ONLY, r, 2);
	assert_int_equal(repo_leads_sync(db, &s), 0);
	assert_int_equal(r[0].status, LEAD_SKIPPED);
	assert_int_equal(r[0].code, 1005);
	assert_int_equal(r[1].status, LEAD_CREATED);

	/* updateOnly: an unknown key is 1004. */
	rec_set(&r[0], "email", "email", "nobody@example.com", NULL);
	sync_init(&s, LEAD_UPDATE_ONLY, r, 1);
	assert_int_equal(repo_leads_sync(db, &s), 0);
	assert_int_equal(r[0].status, LEAD_SKIPPED);
	assert_int_equal(r[0].code, 1004);
	assert_int_equal(sql_int("SELECT COUNT(*) FROM lead WHERE email = "
	    "'nobody@example.com'"), 0);

	/* createDuplicate makes a second lead; then updates are 1007. */
	rec_set(&r[0], NULL, "email", "a@example.com", NULL);
	sync_init(&s, LEAD_CREATE_DUPLICATE, r, 1);
	assert_int_equal(repo_leads_sync(db, &s), 0);
	assert_int_equal(r[0].status, LEAD_CREATED);
	assert_true(r[0].id != id);
	rec_set(&r[0], "email", "email", "a@example.com", NULL);
	sync_init(&s, LEAD_CREATE_OR_UPDATE, r, 1);
	assert_int_equal(repo_leads_sync(db, &s), 0);
	assert_int_equal(r[0].code, 1007);
	sync_init(&s, LEAD_UPDATE_ONLY, r, 1);
	assert_int_equal(repo_leads_sync(db, &s), 0);
	assert_int_equal(r[0].code, 1007);
	/* A caller-refused record is left alone; nothing else to do. */
	r[0].skip = true;
	r[0].status = LEAD_SKIPPED;
	r[0].code = 1006;
	assert_int_equal(repo_leads_sync(db, &s), 0);
	assert_int_equal(r[0].code, 1006);
	assert_int_equal(sql_int("SELECT COUNT(*) FROM lead_claim"), 0);
}

static void
test_update_by_id(void **state)
{
	struct lead_rec r[2];
	struct lead_sync s;
	struct lead_value key;
	int64_t id;

	(void)state;
	rec_set(&r[0], "email", "email", "id@example.com", NULL);
	sync_init(&s, LEAD_CREATE_OR_UPDATE, r, 1);
	assert_int_equal(repo_leads_sync(db, &s), 0);
	id = r[0].id;
	rec_set(&r[0], NULL, "title", "Boss", NULL);
	memset(&key, 0, sizeof(key));
	key.kind = LV_INT;
	key.i = id;
	r[0].key = &key;
	rec_set(&r[1], NULL, "title", "Ghost", NULL);
	r[1].key = &(struct lead_value){ .kind = LV_INT, .i = id + 1000 };
	sync_init(&s, LEAD_UPDATE_ONLY, r, 2);
	s.lookup = field("id");
	assert_int_equal(repo_leads_sync(db, &s), 0);
	assert_int_equal(r[0].status, LEAD_UPDATED);
	assert_int_equal(r[0].id, id);
	assert_string_equal(get_col(id, "title"), "Boss");
	assert_int_equal(r[1].code, 1004);
}

/* Keys repeated in one batch act as if the records ran one by one. */
static void
test_batch_repeats(void **state)
{
	struct lead_rec r[5];
	struct lead_sync s;

	(void)state;
	rec_set(&r[0], "email", "email", "x@example.com", "firstName", "One",
	    NULL);
	rec_set(&r[1], "email", "email", "X@EXAMPLE.COM", "lastName", "Two",
	    NULL);
	rec_set(&r[2], "email", "email", "y@example.com", "firstName", "Y",
	    NULL);
	rec_set(&r[3], "email", "email", "x@example.com", "firstName",
	    "Three", NULL);
	rec_set(&r[4], "email", "email", "y@example.com", "title", "T", NULL);
	sync_init(&s, LEAD_CREATE_OR_UPDATE, r, 5);
	assert_int_equal(repo_leads_sync(db, &s), 0);
	assert_int_equal(r[0].status, LEAD_CREATED);
	assert_int_equal(r[1].status, LEAD_UPDATED);
	assert_int_equal(r[2].status, LEAD_CREATED);
	assert_int_equal(r[3].status, LEAD_UPDATED);
	assert_int_equal(r[4].status, LEAD_UPDATED);
	assert_int_equal(r[1].id, r[0].id);
	assert_int_equal(r[3].id, r[0].id);
	assert_int_equal(r[4].id, r[2].id);
	assert_int_equal(sql_int("SELECT COUNT(*) FROM lead"), 2);
	assert_string_equal(get_col(r[0].id, "firstName"), "Three");
	assert_string_equal(get_col(r[0].id, "lastName"), "Two");
	assert_string_equal(get_col(r[0].id, "email"), "x@example.com");
	assert_string_equal(get_col(r[2].id, "title"), "T");
	/* The same existing lead twice in one batch of updates. */
	rec_set(&r[0], "email", "email", "x@example.com", "title", "A", NULL);
	rec_set(&r[1], "email", "email", "x@example.com", "city", "B", NULL);
	sync_init(&s, LEAD_UPDATE_ONLY, r, 2);
	assert_int_equal(repo_leads_sync(db, &s), 0);
	assert_int_equal(r[0].status, LEAD_UPDATED);
	assert_int_equal(r[1].status, LEAD_UPDATED);
	assert_string_equal(get_col(r[0].id, "title"), "A");
	assert_string_equal(get_col(r[0].id, "city"), "B");
	/* createOnly twice in one batch: the second exists by then. */
	rec_set(&r[0], "email", "email", "z@example.com", NULL);
	rec_set(&r[1], "email", "email", "z@example.com", NULL);
	sync_init(&s, LEAD_CREATE_ONLY, r, 2);
	assert_int_equal(repo_leads_sync(db, &s), 0);
	assert_int_equal(r[0].status, LEAD_CREATED);
	assert_int_equal(r[1].code, 1005);
}

static void
test_typed_values(void **state)
{
	struct lead_rec r[1];
	struct lead_sync s;
	const struct lead_field *cols[5];
	struct lead_rows rows;
	static const char *const hostile[] = {
		"O'Brien \"quoted\"", "back\\slash\\",
		"x'); DROP TABLE lead; --",
		"\xc3\xa9t\xc3\xa9 \xf0\x9f\x98\x80",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		rec_set(&r[0], "email", "email", "meta@example.com",
		    "lastName", hostile[i], NULL);
		sync_init(&s, LEAD_CREATE_OR_UPDATE, r, 1);
		assert_int_equal(repo_leads_sync(db, &s), 0);
		assert_string_equal(get_col(r[0].id, "lastName"), hostile[i]);
	}
	/* Typed columns, and null booleans stored as false. */
	rec_set(&r[0], "email", "email", "typed@example.com", NULL);
	r[0].cols[1].f = field("numberOfEmployees");
	r[0].cols[1].v = (struct lead_value){ .kind = LV_INT, .i = -7 };
	r[0].cols[2].f = field("annualRevenue");
	r[0].cols[2].v = (struct lead_value){ .kind = LV_DBL, .d = 0.1 };
	r[0].cols[3].f = field("unsubscribed");
	r[0].cols[3].v = (struct lead_value){ .kind = LV_NULL };
	r[0].cols[4].f = field("emailSuspendedAt");
	r[0].cols[4].v = (struct lead_value){ .kind = LV_STR,
	    .s = "2024-02-29 23:59:59", .len = 19 };
	r[0].ncols = 5;
	sync_init(&s, LEAD_CREATE_OR_UPDATE, r, 1);
	assert_int_equal(repo_leads_sync(db, &s), 0);
	assert_int_equal(r[0].status, LEAD_CREATED);
	cols[0] = field("numberOfEmployees");
	cols[1] = field("annualRevenue");
	cols[2] = field("unsubscribed");
	cols[3] = field("emailSuspendedAt");
	cols[4] = field("leadPartitionId");
	assert_int_equal(repo_leads_get_by_id(db, &arena, cols, 5, r[0].id,
	    &rows), 0);
	assert_int_equal(rows.count, 1);
	assert_string_equal(rows.rows[0].vals[0], "-7");
	assert_string_equal(rows.rows[0].vals[1], "0.1");
	assert_string_equal(rows.rows[0].vals[2], "0");
	assert_string_equal(rows.rows[0].vals[3], "2024-02-29 23:59:59");
	assert_string_equal(rows.rows[0].vals[4], "1");
	/* An unknown id reads as nothing. */
	assert_int_equal(repo_leads_get_by_id(db, &arena, cols, 5, 999999999,
	    &rows), 0);
	assert_int_equal(rows.count, 0);
}

static void
test_long_values(void **state)
{
	struct lead_rec r[1];
	struct lead_sync s;
	char *big;

	(void)state;
	/* Longer than the fetch buffer: read back whole. */
	big = arena_zalloc(&arena, LF_TEXT_BYTES + 1);
	memset(big, 'q', LF_TEXT_BYTES);
	big[0] = 'A';
	big[LF_TEXT_BYTES - 1] = 'Z';
	rec_set(&r[0], "email", "email", "long@example.com", "address", big,
	    NULL);
	sync_init(&s, LEAD_CREATE_OR_UPDATE, r, 1);
	assert_int_equal(repo_leads_sync(db, &s), 0);
	assert_string_equal(get_col(r[0].id, "address"), big);
}

static void
test_partition(void **state)
{
	struct lead_rec r[2];
	struct lead_sync s;
	int32_t part;

	(void)state;
	sql("INSERT INTO lead_partition (id, name) VALUES (2, 'Mexico')");
	assert_int_equal(repo_partitions_get_id_by_name(db, "Mexico",
	    &part), 0);
	assert_int_equal(part, 2);
	assert_int_equal(repo_partitions_get_id_by_name(db, "mexico",
	    &part), -REPO_ERR_NOT_FOUND);
	rec_set(&r[0], "email", "email", "mx@example.com", NULL);
	sync_init(&s, LEAD_CREATE_OR_UPDATE, r, 1);
	s.partition = 2;
	assert_int_equal(repo_leads_sync(db, &s), 0);
	assert_int_equal(r[0].status, LEAD_CREATED);
	assert_string_equal(get_col(r[0].id, "leadPartitionId"), "2");
	/* The lead is in Mexico: an update naming Default is 1010. */
	s.partition = 1;
	assert_int_equal(repo_leads_sync(db, &s), 0);
	assert_int_equal(r[0].code, 1010);
	/* Naming no partition updates it wherever it is. */
	s.partition = 0;
	assert_int_equal(repo_leads_sync(db, &s), 0);
	assert_int_equal(r[0].status, LEAD_UPDATED);
}

/* Pages through the leads of emails[0..n) by batch, inserting between. */
static void
test_paging(void **state)
{
	struct lead_rec *r;
	struct lead_sync s;
	struct lead_filter flt;
	struct lead_value *vals;
	struct lead_rows rows;
	const struct lead_field *cols[1];
	char **emails;
	int seen[MAX_BATCH_RECORDS];
	int64_t after = 0, count, last = 0;
	size_t i, k, pages = 0;

	(void)state;
	r = arena_zalloc(&arena, MAX_BATCH_RECORDS * sizeof(*r));
	emails = arena_zalloc(&arena, MAX_BATCH_RECORDS * sizeof(*emails));
	vals = arena_zalloc(&arena, MAX_BATCH_RECORDS * sizeof(*vals));
	for (i = 0; i < MAX_BATCH_RECORDS; i++) {
		emails[i] = arena_printf(&arena, "page%03zu@example.com", i);
		rec_set(&r[i], "email", "email", emails[i], NULL);
		vals[i].kind = LV_STR;
		vals[i].s = emails[i];
		vals[i].len = strlen(emails[i]);
	}
	sync_init(&s, LEAD_CREATE_OR_UPDATE, r, MAX_BATCH_RECORDS);
	assert_int_equal(repo_leads_sync(db, &s), 0);
	for (i = 0; i < MAX_BATCH_RECORDS; i++) {
		assert_int_equal(r[i].status, LEAD_CREATED);
		if (i > 0)
			assert_true(r[i].id > r[i - 1].id);
	}
	memset(&flt, 0, sizeof(flt));
	flt.field = field("email");
	flt.values = vals;
	flt.nvalues = MAX_BATCH_RECORDS;
	assert_int_equal(repo_leads_count_by_filter(db, &flt, 1001, &count),
	    0);
	assert_int_equal(count, MAX_BATCH_RECORDS);
	assert_int_equal(repo_leads_count_by_filter(db, &flt, 10, &count), 0);
	assert_int_equal(count, 10);
	memset(seen, 0, sizeof(seen));
	cols[0] = field("email");
	for (;;) {
		assert_int_equal(repo_leads_list_by_filter(db, &arena, cols, 1,
		    &flt, after, 8, &rows), 0);
		pages++;
		for (k = 0; k < rows.count && k < 7; k++) {
			assert_true(rows.rows[k].id > last);
			last = rows.rows[k].id;
			for (i = 0; i < MAX_BATCH_RECORDS; i++)
				if (strcmp(emails[i], rows.rows[k].vals[0]) ==
				    0)
					seen[i]++;
		}
		if (rows.count <= 7)
			break;
		after = rows.rows[6].id;
		/* Others write between pages: not matching, and matching. */
		sql("INSERT INTO lead (email, createdAt, updatedAt) VALUES "
		    "('other@example.com', UTC_TIMESTAMP(), UTC_TIMESTAMP())");
	}
	for (i = 0; i < MAX_BATCH_RECORDS; i++)
		assert_int_equal(seen[i], 1);
	assert_int_equal(pages, (MAX_BATCH_RECORDS + 6) / 7);
	/* Case-insensitive email match. */
	vals[0].s = "PAGE000@EXAMPLE.COM";
	flt.nvalues = 1;
	assert_int_equal(repo_leads_list_by_filter(db, &arena, cols, 1, &flt,
	    0, 10, &rows), 0);
	assert_int_equal(rows.count, 1);
	assert_string_equal(rows.rows[0].vals[0], "page000@example.com");
}

static void
test_cookie_filter(void **state)
{
	struct lead_rec r[1];
	struct lead_sync s;
	struct lead_filter flt;
	struct lead_value v;
	struct lead_rows rows;
	const struct lead_field *cols[1];
	char q[256];

	(void)state;
	rec_set(&r[0], "email", "email", "ck@example.com", NULL);
	sync_init(&s, LEAD_CREATE_OR_UPDATE, r, 1);
	assert_int_equal(repo_leads_sync(db, &s), 0);
	snprintf(q, sizeof(q), "INSERT INTO lead_cookie VALUES ("
	    "'id:123-ABC-456&token:_mch-x.com-1-2', %lld, UTC_TIMESTAMP())",
	    (long long)r[0].id);
	sql(q);
	memset(&flt, 0, sizeof(flt));
	flt.field = field("cookies");
	flt.cookies = true;
	v = (struct lead_value){ .kind = LV_STR,
	    .s = "id:123-ABC-456&token:_mch-x.com-1-2", .len = 35 };
	flt.values = &v;
	flt.nvalues = 1;
	cols[0] = field("email");
	assert_int_equal(repo_leads_list_by_filter(db, &arena, cols, 1, &flt,
	    0, 10, &rows), 0);
	assert_int_equal(rows.count, 1);
	assert_int_equal(rows.rows[0].id, r[0].id);
}

static int32_t
make_program(const char *name)
{
	char q[512];

	snprintf(q, sizeof(q), "INSERT INTO program (name, type, channel, "
	    "created_at, updated_at) VALUES ('%s', 'program', 'Webinar', "
	    "UTC_TIMESTAMP(), UTC_TIMESTAMP())", name);
	sql(q);
	snprintf(q, sizeof(q), "SELECT id FROM program WHERE name = '%s'",
	    name);
	return (int32_t)sql_int(q);
}

static void
add_statuses(int32_t pid)
{
	char q[512];

	snprintf(q, sizeof(q), "INSERT INTO program_status (program_id, step, "
	    "name, success) VALUES (%d, 10, 'Invited', 0), (%d, 20, "
	    "'Registered', 0), (%d, 30, 'Attended', 1)", pid, pid, pid);
	sql(q);
}

static void
test_push(void **state)
{
	struct repo_program prog;
	struct lead_push push;
	struct lead_rec r[3];
	struct lead_sync s;
	struct activity_row *acts;
	struct lead_rows rows;
	const struct lead_field *cols[1];
	size_t nacts, i;
	int32_t pid;
	int64_t existing;

	(void)state;
	pid = make_program("itest leads push");
	add_statuses(pid);
	assert_int_equal(repo_programs_get_by_name(db, "itest leads nope",
	    &prog), -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_programs_get_by_name(db, "itest leads push",
	    &prog), 0);
	assert_int_equal(prog.id, pid);
	assert_int_equal(prog.nstatuses, 3);
	assert_string_equal(prog.statuses[0].name, "Invited");
	assert_true(prog.statuses[2].success);
	/* One existing lead, one new, and the new one again. */
	rec_set(&r[0], "email", "email", "old@example.com", NULL);
	sync_init(&s, LEAD_CREATE_OR_UPDATE, r, 1);
	assert_int_equal(repo_leads_sync(db, &s), 0);
	existing = r[0].id;
	rec_set(&r[0], "email", "email", "old@example.com", NULL);
	rec_set(&r[1], "email", "email", "new@example.com", NULL);
	rec_set(&r[2], "email", "email", "NEW@example.com", "title", "T",
	    NULL);
	memset(&push, 0, sizeof(push));
	push.program = &prog;
	push.status = 0;
	push.attrs = "{\"Source\":\"itest\",\"Reason\":\"because\"}";
	sync_init(&s, LEAD_CREATE_OR_UPDATE, r, 3);
	s.push = &push;
	assert_int_equal(repo_leads_sync(db, &s), 0);
	assert_int_equal(r[0].status, LEAD_UPDATED);
	assert_int_equal(r[0].id, existing);
	assert_int_equal(r[1].status, LEAD_CREATED);
	assert_int_equal(r[2].status, LEAD_UPDATED);
	assert_int_equal(r[2].id, r[1].id);
	for (i = 0; i < 3; i++) {
		assert_true(r[i].has_m);
		assert_string_equal(r[i].m.status, "Invited");
		assert_false(r[i].m.reached_success);
		assert_int_equal(strlen(r[i].m.membership_date), 19);
	}
	assert_false(r[0].m.acquired_by);
	assert_true(r[1].m.acquired_by);
	/* Exactly one push activity per lead, with its attributes. */
	assert_int_equal(repo_activity_list_by_lead(db, r[1].id, 0, 10, &acts,
	    &nacts), 0);
	assert_int_equal(nacts, 2);
	assert_int_equal(acts[0].type, ACT_NEW_LEAD);
	assert_int_equal(acts[1].type, ACT_PUSH_LEAD);
	assert_int_equal(acts[1].primary_id, pid);
	assert_string_equal(acts[1].primary_value, "itest leads push");
	assert_non_null(strstr(acts[1].attributes, "\"Reason\":\"because\""));
	repo_activity_list_free(acts, nacts);
	assert_int_equal(repo_activity_list_by_lead(db, existing, 0, 10, &acts,
	    &nacts), 0);
	assert_int_equal(nacts, 2);
	assert_int_equal(acts[1].type, ACT_PUSH_LEAD);
	repo_activity_list_free(acts, nacts);
	/* Pushed again with a named status: moves forward, never back. */
	push.status = 2;
	push.status_given = true;
	sync_init(&s, LEAD_CREATE_OR_UPDATE, r, 1);
	s.push = &push;
	assert_int_equal(repo_leads_sync(db, &s), 0);
	assert_string_equal(r[0].m.status, "Attended");
	assert_true(r[0].m.reached_success);
	push.status = 1;
	assert_int_equal(repo_leads_sync(db, &s), 0);
	assert_string_equal(r[0].m.status, "Attended");
	assert_true(r[0].m.reached_success);
	/* The program's members, with their membership. */
	cols[0] = field("email");
	assert_int_equal(repo_leads_list_by_program(db, &arena, cols, 1, pid,
	    0, 10, &rows), 0);
	assert_int_equal(rows.count, 2);
	assert_int_equal(rows.rows[0].id, existing);
	assert_string_equal(rows.rows[0].m->status, "Attended");
	assert_string_equal(rows.rows[1].m->status, "Invited");
	assert_int_equal(repo_leads_list_by_program(db, &arena, cols, 1, pid,
	    existing, 10, &rows), 0);
	assert_int_equal(rows.count, 1);
	assert_int_equal(repo_leads_list_by_program(db, &arena, cols, 1,
	    pid + 1000, 0, 10, &rows), 0);
	assert_int_equal(rows.count, 0);
	repo_programs_program_clear(&prog);
}

static void
test_form(void **state)
{
	struct repo_form form;
	struct lead_form_fill ff;
	struct lead_rec r[1];
	struct lead_sync s;
	struct activity_row *acts;
	size_t nacts;
	char q[512];
	int64_t fid, first;

	(void)state;
	sql("INSERT INTO form (name, created_at, updated_at) VALUES "
	    "('itest leads form', UTC_TIMESTAMP(), UTC_TIMESTAMP())");
	fid = sql_int("SELECT id FROM form WHERE name = 'itest leads form'");
	snprintf(q, sizeof(q), "INSERT INTO form_field VALUES (%lld, "
	    "'firstName'), (%lld, 'email')", (long long)fid, (long long)fid);
	sql(q);
	assert_int_equal(repo_forms_get_by_id(db, &arena, fid + 1000,
	    &form), -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_forms_get_by_id(db, &arena, fid, &form), 0);
	assert_string_equal(form.name, "itest leads form");
	assert_int_equal(form.nfields, 2);
	memset(&ff, 0, sizeof(ff));
	ff.form = &form;
	ff.attrs = "{\"Webform ID\":1}";
	ff.cookie = "id:123-ABC-456&token:_mch-x.com-9-9";
	rec_set(&r[0], "email", "email", "form@example.com", "firstName", "F",
	    NULL);
	sync_init(&s, LEAD_CREATE_OR_UPDATE, r, 1);
	s.form = &ff;
	assert_int_equal(repo_leads_sync(db, &s), 0);
	assert_int_equal(r[0].status, LEAD_CREATED);
	first = r[0].id;
	assert_int_equal(repo_activity_list_by_lead(db, first, 0, 10, &acts,
	    &nacts), 0);
	assert_int_equal(nacts, 2);
	assert_int_equal(acts[1].type, ACT_FILL_OUT_FORM);
	assert_int_equal(acts[1].primary_id, fid);
	repo_activity_list_free(acts, nacts);
	assert_string_equal(get_col(first, "cookies"), ff.cookie);
	snprintf(q, sizeof(q), "SELECT lead_id FROM lead_cookie WHERE cookie "
	    "= '%s'", ff.cookie);
	assert_int_equal(sql_int(q), first);
	/* The cookie belongs to a lead now: another lead does not take it. */
	rec_set(&r[0], "email", "email", "other@example.com", NULL);
	assert_int_equal(repo_leads_sync(db, &s), 0);
	assert_int_equal(r[0].status, LEAD_CREATED);
	assert_int_equal(sql_int(q), first);
	assert_string_equal(get_col(r[0].id, "cookies"), "(null)");
}

/* The activities of type of lead id, oldest first, into acts. */
static size_t
acts_of(int64_t id, int type, struct activity_row **acts)
{
	struct activity_row *all;
	size_t n, i, k = 0;

	assert_int_equal(repo_activity_list_by_lead(db, id, 0, 100, &all, &n),
	    0);
	for (i = 0; i < n; i++)
		if (all[i].type == type) {
			free(all[k].attributes);
			all[k] = all[i];
			all[i].attributes = NULL;
			k++;
		}
	for (i = k; i < n; i++)
		free(all[i].attributes);
	*acts = all;
	return k;
}

#define API_CHANGE	",\"Reason\":\"Web service API\"," \
	"\"Source\":\"Web service API\"}"

/*
 * Change Data Value (13): one per field whose value an update changed,
 * with the field's id and display name, the old and new values (null
 * for none) and the API's Reason and Source; nothing for a value
 * written again unchanged or for a lead the batch created.
 */
static void
test_change_data_value(void **state)
{
	struct lead_rec r[3];
	struct lead_sync s;
	struct activity_row *acts;
	int64_t ann, dan;
	size_t n;

	(void)state;
	rec_set(&r[0], "email", "email", "ann@example.com", "firstName",
	    "Ann", "lastName", "Lee", "title", "CTO", NULL);
	sync_init(&s, LEAD_CREATE_OR_UPDATE, r, 1);
	assert_int_equal(repo_leads_sync(db, &s), 0);
	ann = r[0].id;
	assert_int_equal(acts_of(ann, ACT_CHANGE_DATA_VALUE, &acts), 0);
	repo_activity_list_free(acts, 0);

	rec_set(&r[0], "email", "email", "ann@example.com", "firstName",
	    "Anna", "lastName", "Lee", "title", NULL, NULL);
	rec_set(&r[1], "email", "email", "dan@example.com", "firstName",
	    "Dan", NULL);
	rec_set(&r[2], "email", "email", "ann@example.com", "city", "Oslo",
	    NULL);
	sync_init(&s, LEAD_CREATE_OR_UPDATE, r, 3);
	assert_int_equal(repo_leads_sync(db, &s), 0);
	assert_int_equal(r[0].status, LEAD_UPDATED);
	assert_int_equal(r[1].status, LEAD_CREATED);
	dan = r[1].id;
	n = acts_of(ann, ACT_CHANGE_DATA_VALUE, &acts);
	assert_int_equal(n, 3);
	assert_int_equal(acts[0].primary_id, field("firstName")->attr_id);
	assert_string_equal(acts[0].primary_value,
	    field("firstName")->display_name);
	assert_string_equal(acts[0].attributes, "{\"New Value\":\"Anna\","
	    "\"Old Value\":\"Ann\"" API_CHANGE);
	assert_int_equal(acts[1].primary_id, field("title")->attr_id);
	assert_string_equal(acts[1].attributes, "{\"New Value\":null,"
	    "\"Old Value\":\"CTO\"" API_CHANGE);
	assert_int_equal(acts[2].primary_id, field("city")->attr_id);
	assert_string_equal(acts[2].attributes, "{\"New Value\":\"Oslo\","
	    "\"Old Value\":null" API_CHANGE);
	repo_activity_list_free(acts, n);
	assert_int_equal(acts_of(dan, ACT_CHANGE_DATA_VALUE, &acts), 0);
	repo_activity_list_free(acts, 0);
	/* New Lead's primary attribute: the lead, by id and full name. */
	assert_int_equal(acts_of(dan, ACT_NEW_LEAD, &acts), 1);
	assert_int_equal(acts[0].primary_id, dan);
	assert_string_equal(acts[0].primary_value, "Dan");
	repo_activity_list_free(acts, 1);
	assert_int_equal(acts_of(ann, ACT_NEW_LEAD, &acts), 1);
	assert_string_equal(acts[0].primary_value, "Ann Lee");
	repo_activity_list_free(acts, 1);

	/* The same values again: nothing changes, nothing is recorded. */
	rec_set(&r[0], "email", "email", "ann@example.com", "firstName",
	    "Anna", "city", "Oslo", NULL);
	sync_init(&s, LEAD_UPDATE_ONLY, r, 1);
	s.change_reason = "Form fill-out, URL: https://example.com/f";
	s.change_source = "Web form fillout";
	assert_int_equal(repo_leads_sync(db, &s), 0);
	assert_int_equal(r[0].status, LEAD_UPDATED);
	assert_int_equal(acts_of(ann, ACT_CHANGE_DATA_VALUE, &acts), 3);
	repo_activity_list_free(acts, 3);

	/* A caller's Reason and Source. */
	rec_set(&r[0], "email", "email", "ann@example.com", "city", "Bergen",
	    NULL);
	assert_int_equal(repo_leads_sync(db, &s), 0);
	assert_int_equal(acts_of(ann, ACT_CHANGE_DATA_VALUE, &acts), 4);
	assert_string_equal(acts[3].attributes, "{\"New Value\":\"Bergen\","
	    "\"Old Value\":\"Oslo\",\"Reason\":\"Form fill-out, URL: "
	    "https://example.com/f\",\"Source\":\"Web form fillout\"}");
	repo_activity_list_free(acts, 4);
}

static void
test_delete(void **state)
{
	struct lead_rec r[2];
	struct lead_sync s;
	struct lead_del d[4];
	char q[512];
	int32_t pid;

	(void)state;
	rec_set(&r[0], "email", "email", "del1@example.com", NULL);
	rec_set(&r[1], "email", "email", "del2@example.com", NULL);
	sync_init(&s, LEAD_CREATE_OR_UPDATE, r, 2);
	assert_int_equal(repo_leads_sync(db, &s), 0);
	pid = make_program("itest leads del");
	add_statuses(pid);
	snprintf(q, sizeof(q), "INSERT INTO program_member (program_id, "
	    "lead_id, status_step, membership_date, updated_at) VALUES (%d, "
	    "%lld, 10, UTC_TIMESTAMP(), UTC_TIMESTAMP())", pid,
	    (long long)r[0].id);
	sql(q);
	snprintf(q, sizeof(q), "INSERT INTO campaign_member VALUES (5, %lld, "
	    "UTC_TIMESTAMP(), UTC_TIMESTAMP())", (long long)r[0].id);
	sql(q);
	snprintf(q, sizeof(q), "INSERT INTO lead_cookie VALUES ('c1', %lld, "
	    "UTC_TIMESTAMP())", (long long)r[0].id);
	sql(q);
	memset(d, 0, sizeof(d));
	d[0].id = r[0].id;
	d[1].id = 99999999;
	d[2].id = r[0].id;
	d[3].id = r[1].id;
	d[3].skip = true;
	assert_int_equal(repo_leads_delete(db, d, 4), 0);
	assert_true(d[0].deleted);
	assert_false(d[1].deleted);
	assert_false(d[2].deleted);
	assert_false(d[3].deleted);
	assert_string_equal(get_col(r[0].id, "email"), "(no lead)");
	assert_string_equal(get_col(r[1].id, "email"), "del2@example.com");
	assert_int_equal(sql_int("SELECT COUNT(*) FROM program_member"), 0);
	assert_int_equal(sql_int("SELECT COUNT(*) FROM campaign_member"), 0);
	assert_int_equal(sql_int("SELECT COUNT(*) FROM lead_cookie"), 0);
}

#define RACE_ROUNDS	50

/* Reads or writes one byte on a pipe; fails the test on error. */
static void
pipe_byte(int fd, bool wr)
{
	char c = 'x';

	if ((wr ? write(fd, &c, 1) : read(fd, &c, 1)) != 1)
		fail_msg("pipe: %s", wr ? "write" : "read");
}

/*
 * Writer processes, each with a connection of its own, each syncing a
 * batch a round: batch(r, who, round) fills r (MAX_BATCH_RECORDS) and
 * returns how many records it filled.
 */
#define MAX_WRITERS	4
struct writers {
	int	 n;
	int	 rounds;
	size_t	(*batch)(struct lead_rec *, int, int);
	pid_t	 pid[MAX_WRITERS];
	int	 go[MAX_WRITERS][2];	/* a byte per round to run */
	int	 done[MAX_WRITERS][2];	/* a byte per round run */
};

/*
 * Writer who: for each round, waits for the go byte, syncs the round's
 * batch (create or update), reports.  Its exit status: 0 when every
 * batch succeeded with every record created or updated.
 */
static int
writer(const struct writers *w, int who)
{
	struct db *mine = NULL;
	struct lead_rec *r;
	struct lead_sync s;
	size_t i, n;
	int round, rc = 0;

	if (db_open(&mine, &cfg, &repo_schema, DB_PREPARE_ALL) != 0)
		return 2;
	for (round = 0; round < w->rounds; round++) {
		pipe_byte(w->go[who][0], false);
		arena_reset(&arena);
		r = arena_zalloc(&arena, MAX_BATCH_RECORDS * sizeof(*r));
		n = w->batch(r, who, round);
		sync_init(&s, LEAD_CREATE_OR_UPDATE, r, n);
		if (repo_leads_sync(mine, &s) != 0) {
			fprintf(stderr, "# writer %d round %d: failed\n", who,
			    round);
			rc = 1;
		}
		for (i = 0; i < n; i++)
			if (r[i].status != LEAD_CREATED &&
			    r[i].status != LEAD_UPDATED)
				rc = 1;
		pipe_byte(w->done[who][1], true);
	}
	db_close(mine);
	return rc;
}

/* Forks n writers of rounds rounds of batch. */
static void
writers_start(struct writers *w, int n, int rounds,
    size_t (*batch)(struct lead_rec *, int, int))
{
	int who;

	assert_true(n <= MAX_WRITERS);
	w->n = n;
	w->rounds = rounds;
	w->batch = batch;
	for (who = 0; who < n; who++) {
		assert_int_equal(pipe(w->go[who]), 0);
		assert_int_equal(pipe(w->done[who]), 0);
	}
	for (who = 0; who < n; who++) {
		w->pid[who] = fork();
		assert_true(w->pid[who] >= 0);
		if (w->pid[who] == 0) {
			/* The child must not touch the parent's connection. */
			_exit(writer(w, who));
		}
	}
}

/*
 * Runs the writers' rounds: in lockstep, each when every writer has run
 * the one before; otherwise all at once, each writer going on as soon
 * as it can.  Then waits for the writers, which must all exit 0.
 */
static void
writers_run(struct writers *w, bool lockstep)
{
	int who, round, status;

	for (round = 0; round < w->rounds; round++) {
		for (who = 0; who < w->n; who++)
			pipe_byte(w->go[who][1], true);
		for (who = 0; lockstep && who < w->n; who++)
			pipe_byte(w->done[who][0], false);
	}
	for (round = 0; !lockstep && round < w->rounds; round++)
		for (who = 0; who < w->n; who++)
			pipe_byte(w->done[who][0], false);
	for (who = 0; who < w->n; who++) {
		assert_int_equal(waitpid(w->pid[who], &status, 0),
		    w->pid[who]);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
}

/*
 * A racer's batch: the round's email, which the other racer syncs too,
 * and one of its own, so the batches overlap.
 */
static size_t
race_batch(struct lead_rec *r, int who, int round)
{
	rec_set(&r[who], "email", "email", arena_printf(&arena,
	    "race%d@example.com", round), NULL);
	rec_set(&r[1 - who], "email", "email", arena_printf(&arena,
	    "racer%d-%d@example.com", who, round), NULL);
	return 2;
}

static void
test_race(void **state)
{
	struct writers w;
	char q[256];
	int round;

	(void)state;
	writers_start(&w, 2, RACE_ROUNDS, race_batch);
	writers_run(&w, true);
	for (round = 0; round < RACE_ROUNDS; round++) {
		snprintf(q, sizeof(q), "SELECT COUNT(*) FROM lead WHERE "
		    "email = 'race%d@example.com'", round);
		assert_int_equal(sql_int(q), 1);
	}
	assert_int_equal(sql_int("SELECT COUNT(*) FROM lead"),
	    3 * RACE_ROUNDS);
	assert_int_equal(sql_int("SELECT COUNT(*) FROM lead_claim"), 0);
	assert_int_equal(sql_int("SELECT COUNT(*) FROM activity WHERE "
	    "activity_type_id = 12"), 3 * RACE_ROUNDS);
}

#define CROWD_WRITERS	4	/* in pairs */
#define CROWD_ROUNDS	6
#define CROWD_OLD	100	/* existing leads of a pair */
#define CROWD_SHARED	100	/* new leads of a pair, each round */
#define CROWD_OWN	(MAX_BATCH_RECORDS - CROWD_OLD - CROWD_SHARED)

/* An email of pair's existing lead i (round < 0) or of a round's new one. */
static const char *
crowd_email(int pair, int round, size_t i)
{
	if (round < 0)
		return arena_printf(&arena, "crowd-old-%d-%03zu@example.com",
		    pair, i);
	return arena_printf(&arena, "crowd-%d-%d-%03zu@example.com", round,
	    pair, i);
}

/*
 * Writer who's batch of a round: its pair's existing leads and new
 * leads of the round, which the other writer of the pair syncs too, and
 * new leads of its own, MAX_BATCH_RECORDS in all, in an order of its
 * own, a few columns each.  A pair's batches wait for each other on
 * their claims; the two pairs' batches share nothing and run side by
 * side, each locking existing leads and inserting new ones.
 */
static size_t
crowd_batch(struct lead_rec *r, int who, int round)
{
	const char *email;
	size_t i, j;

	for (i = 0; i < MAX_BATCH_RECORDS; i++) {
		j = (i + (size_t)who * 37) % MAX_BATCH_RECORDS;
		if (j < CROWD_OLD)
			email = crowd_email(who / 2, -1, j);
		else if (j < CROWD_OLD + CROWD_SHARED)
			email = crowd_email(who / 2, round, j);
		else
			email = arena_printf(&arena, "crowd-%d-own%d-%03zu@"
			    "example.com", round, who, j);
		rec_set(&r[i], "email", "email", email, "firstName",
		    who % 2 ? "Ann" : "Bob", "city", "Lyon", NULL);
	}
	return MAX_BATCH_RECORDS;
}

/*
 * Four connections sync full batches at once, each batch overlapping
 * another in existing and in new leads, and each with new leads of its
 * own: every batch must succeed with every record written (a batch
 * takes its locks in one order, and a deadlock left is retried), and
 * every email ends with exactly one lead and one "New Lead" activity.
 */
static void
test_crowd(void **state)
{
	struct writers w;
	struct lead_rec *r;
	struct lead_sync s;
	size_t i;

	(void)state;
	r = arena_zalloc(&arena, CROWD_WRITERS / 2 * CROWD_OLD * sizeof(*r));
	for (i = 0; i < CROWD_WRITERS / 2 * CROWD_OLD; i++)
		rec_set(&r[i], "email", "email", crowd_email((int)(i /
		    CROWD_OLD), -1, i % CROWD_OLD), NULL);
	sync_init(&s, LEAD_CREATE_OR_UPDATE, r, CROWD_WRITERS / 2 * CROWD_OLD);
	assert_int_equal(repo_leads_sync(db, &s), 0);
	writers_start(&w, CROWD_WRITERS, CROWD_ROUNDS, crowd_batch);
	writers_run(&w, false);
	assert_int_equal(sql_int("SELECT COUNT(*) FROM lead"),
	    CROWD_WRITERS / 2 * (CROWD_OLD + CROWD_ROUNDS * CROWD_SHARED) +
	    CROWD_WRITERS * CROWD_ROUNDS * CROWD_OWN);
	assert_int_equal(sql_int("SELECT COUNT(*) FROM (SELECT email FROM "
	    "lead GROUP BY email HAVING COUNT(*) > 1) AS d"), 0);
	assert_int_equal(sql_int("SELECT COUNT(*) FROM lead WHERE email LIKE "
	    "'crowd-old-%' AND firstName IS NULL"), 0);
	assert_int_equal(sql_int("SELECT COUNT(*) FROM activity WHERE "
	    "activity_type_id = 12"), sql_int("SELECT COUNT(*) FROM lead"));
	assert_int_equal(sql_int("SELECT COUNT(*) FROM lead_claim"), 0);
}

static double
ms_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) * 1e3 +
	    (double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
}

/*
 * Full batches of 300 leads with 11 columns, new and then updated, a few
 * rounds each (the statements are prepared once, then cached): every
 * record written, and the best time of each kind printed for reference.
 */
static void
test_wide_batch(void **state)
{
	static const char *const names[] = {
		"firstName", "lastName", "title", "city", "state", "country",
		"company", "industry", "phone", "department",
	};
	struct lead_rec *r;
	struct lead_sync s;
	struct timespec t0;
	double best[3] = { 1e9, 1e9, 1e9 }, t;
	size_t i, k;
	int round, kind;

	(void)state;
	/* Per set of leads: created, updated (ten values change), and the
	 * same values again (nothing changes, no activity). */
	for (round = 0; round < 12; round++) {
		kind = round % 3;
		arena_reset(&arena);
		r = arena_zalloc(&arena, MAX_BATCH_RECORDS * sizeof(*r));
		for (i = 0; i < MAX_BATCH_RECORDS; i++) {
			rec_set(&r[i], "email", "email", arena_printf(&arena,
			    "wide%d-%03zu@example.com", round / 3, i), NULL);
			for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
				struct lead_col *c = &r[i].cols[r[i].ncols++];

				c->f = field(names[k]);
				c->v.kind = LV_STR;
				c->v.s = kind > 0 ? "5551234" : "1234555";
				c->v.len = 7;
			}
		}
		sync_init(&s, LEAD_CREATE_OR_UPDATE, r, MAX_BATCH_RECORDS);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		assert_int_equal(repo_leads_sync(db, &s), 0);
		t = ms_since(&t0);
		if (t < best[kind])
			best[kind] = t;
		for (i = 0; i < MAX_BATCH_RECORDS; i++)
			assert_int_equal(r[i].status, kind > 0 ? LEAD_UPDATED :
			    LEAD_CREATED);
	}
	fprintf(stderr, "# 300 leads x 11 columns, best of 4: new %.1f ms, "
	    "updated %.1f ms, unchanged %.1f ms\n", best[0], best[1],
	    best[2]);
	assert_int_equal(sql_int("SELECT COUNT(*) FROM lead WHERE "
	    "department = '5551234'"), 4 * MAX_BATCH_RECORDS);
	/* Each first update changed the ten fields of each lead. */
	assert_int_equal(sql_int("SELECT COUNT(*) FROM activity WHERE "
	    "activity_type_id = 13"), 4 * MAX_BATCH_RECORDS * 10);
}

/*
 * The lead row lock the other stores take (repo_lead_lock.h): a lead's
 * partition under its lock; several leads, the first unknown one named
 * with its index.
 */
static void
test_lead_lock(void **state)
{
	struct repo_missing miss;
	int64_t ids[2], part = 0;

	(void)state;
	sql("INSERT INTO lead (email, createdAt, updatedAt) VALUES "
	    "('lock@example.com', UTC_TIMESTAMP(), UTC_TIMESTAMP())");
	ids[0] = sql_int("SELECT id FROM lead WHERE email = "
	    "'lock@example.com'");
	ids[1] = 99999999;
	memset(&miss, 0, sizeof(miss));
	assert_int_equal(db_tx_begin(db), 0);
	assert_int_equal(repo_lead_lock(db, ids[0], &part), 0);
	assert_int_equal(part, 1);
	assert_int_equal(repo_lead_lock(db, ids[1], NULL),
	    -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_lead_lock_all(db, ids, 1, &miss), 0);
	assert_int_equal(repo_lead_lock_all(db, ids, 2, &miss),
	    -REPO_ERR_NOT_FOUND);
	assert_int_equal(miss.what, REPO_WHAT_LEAD);
	assert_int_equal(miss.id, ids[1]);
	assert_int_equal(miss.index, 1);
	db_tx_rollback(db);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_actions, setup),
		cmocka_unit_test_setup(test_update_by_id, setup),
		cmocka_unit_test_setup(test_batch_repeats, setup),
		cmocka_unit_test_setup(test_typed_values, setup),
		cmocka_unit_test_setup(test_long_values, setup),
		cmocka_unit_test_setup(test_partition, setup),
		cmocka_unit_test_setup(test_paging, setup),
		cmocka_unit_test_setup(test_cookie_filter, setup),
		cmocka_unit_test_setup(test_push, setup),
		cmocka_unit_test_setup(test_form, setup),
		cmocka_unit_test_setup(test_change_data_value, setup),
		cmocka_unit_test_setup(test_delete, setup),
		cmocka_unit_test_setup(test_lead_lock, setup),
		cmocka_unit_test_setup(test_race, setup),
		cmocka_unit_test_setup(test_wide_batch, setup),
		cmocka_unit_test_setup(test_crowd, setup),
	};

	if (itest_config(&cfg) != 0) {
		fprintf(stderr, "MAUTO_TEST_DB_* not set: skipped\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
