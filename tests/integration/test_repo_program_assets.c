/*
 * Programs as the asset API reads and writes them, against a real
 * MariaDB (repo_program_assets.c): by id, by name, the browse with each
 * of its filters and its paging, and create (with its channel's
 * statuses), update and delete, and a program's delete and clone with
 * its assets (repo_program_delete.c, repo_program_clone.c), and an
 * Email program's approve and unapprove (repo_program_send.c).  Other
 * integration tests run at the same time on the same database, so every
 * row here is made under names of this run and every browse is narrowed
 * to this run's programs.  Needs MAUTO_TEST_DB_*; without them it exits
 * 77.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "db/pool.h"
#include "model/folder.h"
#include "repo/repo.h"
#include "repo/repo_folders.h"
#include "repo/repo_forms.h"
#include "repo/repo_lists.h"
#include "repo/repo_program_assets.h"
#include "repo/repo_program_catalogue.h"
#include "repo/repo_program_clone.h"
#include "repo/repo_program_delete.h"
#include "repo/repo_program_send.h"
#include "repo/repo_programs.h"
#include "util/arena.h"
#include "util/config.h"
#include "util/timeutil.h"
#include "itest.h"

static struct config cfg;
static struct db *db;
static struct arena a;
static char tag[16];
static int32_t folder, p1, p2;

/* A name of this run. */
static const char *
named(const char *what)
{
	return arena_printf(&a, "%s-%s", what, tag);
}

/* A program of this run of stored type type. */
static int32_t
program(const char *what, const char *type)
{
	static const char *const statuses[] = { "Not in Program", "Member" };
	static const bool success[] = { false, true };
	struct repo_program_new p = {
		.name = named(what), .type = type, .channel = "Nurture",
		.statuses = statuses, .success = success, .nstatuses = 2,
	};
	int32_t id;

	assert_int_equal(repo_programs_insert(db, &p, &id), 0);
	return id;
}

static int
group_setup(void **state)
{
	(void)state;
	return itest_open(&db, &cfg, &a, tag, sizeof(tag));
}

static int
group_teardown(void **state)
{
	(void)state;
	return itest_close(db, &a);
}

static void
test_get(void **state)
{
	struct repo_program_asset p;

	(void)state;
	assert_int_equal(repo_folders_insert(db, named("pa-f"), NULL,
	    FK_MARKETING, 1, &folder), 0);
	p1 = program("pa-1", "program");
	p2 = program("pa-2", "engagement");
	itest_sql(db, arena_printf(&a, "UPDATE program SET folder_id = %d, "
	    "description = 'about one', updated_at = '2030-01-02 03:04:05' "
	    "WHERE id = %d", folder, p1));

	assert_int_equal(repo_program_assets_get(db, &a, p1, NULL, &p), 0);
	assert_int_equal(p.id, p1);
	assert_string_equal(p.name, named("pa-1"));
	assert_string_equal(p.description, "about one");
	assert_string_equal(p.type, "program");
	assert_string_equal(p.channel, "Nurture");
	assert_string_equal(p.workspace, "Default");
	assert_int_equal(p.folder_id, folder);
	assert_string_equal(p.folder_name, named("pa-f"));
	assert_string_equal(p.updated_at, "2030-01-02 03:04:05");
	assert_non_null(p.created_at);

	assert_int_equal(repo_program_assets_get(db, &a, 0, named("pa-2"),
	    &p), 0);
	assert_int_equal(p.id, p2);
	assert_null(p.description);
	assert_int_equal(p.folder_id, 1);
	assert_string_equal(p.folder_name, "Marketing Activities");

	assert_int_equal(repo_program_assets_get(db, &a, INT32_MAX, NULL,
	    &p), -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_program_assets_get(db, &a, 0, "no such",
	    &p), -REPO_ERR_NOT_FOUND);
}

/* The ids of a browse of this run's two programs with f's other filters. */
static size_t
browse(struct repo_program_filter *f, int limit, int64_t offset,
    int32_t *ids)
{
	struct repo_program_asset *v;
	size_t n, i;

	if (f->ids == NULL && f->folders == NULL)
		f->ids = arena_printf(&a, "%d,%d", p1, p2);
	assert_int_equal(repo_program_assets_list(db, &a, f, limit, offset,
	    &v, &n), 0);
	for (i = 0; i < n; i++)
		ids[i] = v[i].id;
	return n;
}

static void
test_list(void **state)
{
	struct repo_program_filter f;
	int32_t ids[4];

	(void)state;
	memset(&f, 0, sizeof(f));
	assert_int_equal(browse(&f, 20, 0, ids), 2);
	assert_int_equal(ids[0], p1);
	assert_int_equal(ids[1], p2);

	memset(&f, 0, sizeof(f));
	assert_int_equal(browse(&f, 1, 1, ids), 1);
	assert_int_equal(ids[0], p2);
	memset(&f, 0, sizeof(f));
	assert_int_equal(browse(&f, 20, 2, ids), 0);

	memset(&f, 0, sizeof(f));
	f.folders = arena_printf(&a, "%d", folder);
	assert_int_equal(browse(&f, 20, 0, ids), 1);
	assert_int_equal(ids[0], p1);

	memset(&f, 0, sizeof(f));
	f.type = "engagement";
	assert_int_equal(browse(&f, 20, 0, ids), 1);
	assert_int_equal(ids[0], p2);

	memset(&f, 0, sizeof(f));
	f.workspaces = "Nowhere,Default";
	assert_int_equal(browse(&f, 20, 0, ids), 2);
	memset(&f, 0, sizeof(f));
	f.workspaces = "Nowhere";
	assert_int_equal(browse(&f, 20, 0, ids), 0);

	/* p1 was last updated in 2030: created or updated in the range. */
	memset(&f, 0, sizeof(f));
	f.earliest = "2029-12-31 00:00:00";
	assert_int_equal(browse(&f, 20, 0, ids), 1);
	assert_int_equal(ids[0], p1);
	memset(&f, 0, sizeof(f));
	f.earliest = "2000-01-01 00:00:00";
	f.latest = "2029-12-31 00:00:00";
	assert_int_equal(browse(&f, 20, 0, ids), 2);
	memset(&f, 0, sizeof(f));
	f.latest = "2000-01-01 00:00:00";
	assert_int_equal(browse(&f, 20, 0, ids), 0);
}

static void
test_write(void **state)
{
	struct repo_program_create c = {
		.type = "webinar", .channel = "Webinar",
		.workspace = "Default",
	};
	struct repo_program_asset p;
	struct repo_program st;
	struct repo_program_meta nometa = { 0 };
	int32_t id;

	(void)state;
	c.name = named("pa-w");
	c.folder_id = folder;
	assert_int_equal(repo_program_assets_insert(db, &c), 0);
	assert_true(c.id > 0);
	assert_int_equal(repo_programs_get_by_id(db, c.id, &st), 0);
	assert_int_equal(st.nstatuses, 5);
	assert_int_equal(st.statuses[0].step, 1);
	assert_string_equal(st.statuses[0].name, "Not in Program");
	assert_string_equal(st.statuses[3].name, "Attended");
	assert_true(st.statuses[3].success);
	repo_programs_program_clear(&st);
	id = c.id;
	assert_int_equal(repo_program_assets_insert(db, &c),
	    -REPO_ERR_CONFLICT);
	c.id = id;

	assert_int_equal(repo_program_assets_update(db, c.id, NULL, "d",
	    &nometa), 0);
	assert_int_equal(repo_program_assets_get(db, &a, c.id, NULL, &p), 0);
	assert_string_equal(p.name, named("pa-w"));
	assert_string_equal(p.description, "d");
	assert_int_equal(repo_program_assets_update(db, c.id, named("pa-1"),
	    NULL, &nometa), -REPO_ERR_CONFLICT);
	assert_int_equal(repo_program_assets_update(db, c.id, named("pa-w2"),
	    NULL, &nometa), 0);
	assert_int_equal(repo_program_assets_get(db, &a, 0, named("pa-w2"),
	    &p), 0);
	assert_int_equal(p.id, c.id);

	assert_int_equal(repo_program_assets_delete(db, c.id), 0);
	assert_int_equal(repo_program_assets_delete(db, c.id),
	    -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_programs_get_by_id(db, c.id, &st),
	    -REPO_ERR_NOT_FOUND);
}

static void
test_meta(void **state)
{
	struct repo_program_create c = {
		.type = "program", .channel = "Content",
		.workspace = "Default",
	};
	static const struct progmeta_cost costs[] = {
		{ "2026-01-01", 200, "Ads" }, { "2026-02-01", 50, NULL },
	};
	struct repo_program_meta m = { 0 };
	struct repo_program_create k = { 0 };
	struct repo_program_clone_fail f;
	struct repo_program_asset *v, one;
	struct repo_tag_type *types;
	struct progmeta_tag *tags;
	struct progmeta_cost *got;
	const char *values[1];
	int32_t tt;
	size_t nt, nc, n;

	(void)state;
	itest_sql(db, arena_printf(&a, "INSERT INTO tag_type (name, "
	    "program_types) VALUES ('pa-tt-%s', '[program]')", tag));
	assert_int_equal(repo_program_catalogue_tag_types(db, &a,
	    named("pa-tt"), 1, 0, &types, &n), 0);
	assert_int_equal(n, 1);
	tt = types[0].id;
	values[0] = "North";
	m.tag_types = &tt;
	m.tag_values = values;
	m.ntags = 1;
	m.costs = costs;
	m.ncosts = 1;
	c.name = named("pa-m");
	c.folder_id = folder;
	c.meta = m;
	assert_int_equal(repo_program_assets_insert(db, &c), 0);
	assert_int_equal(repo_program_assets_meta(db, &a, c.id, &tags, &nt,
	    &got, &nc), 0);
	assert_int_equal(nt, 1);
	assert_string_equal(tags[0].type, named("pa-tt"));
	assert_string_equal(tags[0].value, "North");
	assert_int_equal(nc, 1);
	assert_string_equal(got[0].start_date, "2026-01-01");
	assert_int_equal(got[0].cost, 200);
	assert_string_equal(got[0].note, "Ads");

	/* Update: the value replaced, a cost added; then all replaced. */
	values[0] = "South";
	m.costs = &costs[1];
	assert_int_equal(repo_program_assets_update(db, c.id, NULL, NULL,
	    &m), 0);
	assert_int_equal(repo_program_assets_meta(db, &a, c.id, &tags, &nt,
	    &got, &nc), 0);
	assert_string_equal(tags[0].value, "South");
	assert_int_equal(nc, 2);
	assert_null(got[1].note);
	m.ntags = 0;
	m.ncosts = 0;
	m.replace_costs = true;
	assert_int_equal(repo_program_assets_update(db, c.id, NULL, NULL,
	    &m), 0);
	assert_int_equal(repo_program_assets_meta(db, &a, c.id, &tags, &nt,
	    &got, &nc), 0);
	assert_int_equal(nt, 1);
	assert_int_equal(nc, 0);

	assert_int_equal(repo_program_assets_by_tag(db, &a, named("pa-tt"),
	    "South", 20, 0, &v, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].id, c.id);
	assert_int_equal(repo_program_assets_by_tag(db, &a, named("pa-tt"),
	    "North", 20, 0, &v, &n), 0);
	assert_int_equal(n, 0);

	/* Clone: the tags go with the program; the name must be new. */
	k.name = named("pa-k");
	k.workspace = "Default";
	k.folder_id = 1;
	assert_int_equal(repo_program_clone(db, &a, c.id, c.name, &k, &f), 0);
	assert_int_equal(repo_program_assets_meta(db, &a, k.id, &tags, &nt,
	    &got, &nc), 0);
	assert_int_equal(nt, 1);
	assert_string_equal(tags[0].value, "South");
	assert_int_equal(repo_program_assets_get(db, &a, k.id, NULL, &one), 0);
	assert_string_equal(one.channel, "Content");
	assert_int_equal(one.folder_id, 1);
	assert_int_equal(repo_program_clone(db, &a, c.id, c.name, &k, &f),
	    -REPO_ERR_CONFLICT);
	assert_null(f.kind);
	k.name = named("pa-k2");
	assert_int_equal(repo_program_clone(db, &a, INT32_MAX, "x", &k, &f),
	    -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_program_assets_delete(db, one.id), 0);

	/* Delete Program Tag: the value goes, twice is no error. */
	assert_int_equal(repo_program_assets_tag_delete(db, c.id, tt), 0);
	assert_int_equal(repo_program_assets_tag_delete(db, c.id, tt), 0);
	assert_int_equal(repo_program_assets_meta(db, &a, c.id, &tags, &nt,
	    &got, &nc), 0);
	assert_int_equal(nt, 0);

	assert_int_equal(repo_program_assets_delete(db, c.id), 0);
	itest_sql(db, arena_printf(&a, "DELETE FROM tag_type WHERE name = "
	    "'pa-tt-%s'", tag));
}

/*
 * Delete and Clone Program with assets: a static list with a member and
 * a form; the clone renames them and a taken name undoes the clone; the
 * delete takes them with the program, and a smart list condition outside
 * naming the list refuses it.
 */
static void
test_assets(void **state)
{
	static const char *const fields[] = { "email" };
	struct repo_program_create c = {
		.type = "program", .channel = "Webinar",
		.workspace = "Default",
	};
	struct repo_program_clone_fail f;
	struct repo_program_block b;
	struct repo_missing miss;
	struct list_new ln;
	int32_t src, list, form, lead;

	(void)state;
	src = program("pa-src", "program");
	memset(&ln, 0, sizeof(ln));
	ln.name = named("pa-list");
	ln.has_place = true;
	ln.place.id = src;
	ln.place.type = FOLDER_T_PROGRAM;
	assert_int_equal(repo_lists_create(db, &ln, &list), 0);
	assert_int_equal(repo_forms_insert(db, named("pa-form"), src, fields,
	    1, &form, &miss), 0);
	itest_sqlf(db, "INSERT INTO lead (email, createdAt, updatedAt) "
	    "VALUES ('pa-%s@example.com', UTC_TIMESTAMP(), UTC_TIMESTAMP())",
	    tag);
	lead = (int32_t)itest_count(db, "SELECT id FROM lead WHERE email = "
	    "'pa-%s@example.com'", tag);
	itest_sqlf(db, "INSERT INTO list_member (list_id, lead_id, "
	    "created_at, updated_at) VALUES (%d, %d, UTC_TIMESTAMP(), "
	    "UTC_TIMESTAMP())", (int)list, (int)lead);

	/* Clone: renamed copies, no members; a taken name undoes it all. */
	c.name = named("pa-copy");
	c.folder_id = folder;
	assert_int_equal(repo_program_clone(db, &a, src, named("pa-src"), &c,
	    &f), 0);
	assert_null(f.kind);
	assert_int_equal(itest_count(db, "SELECT COUNT(*) FROM static_list "
	    "WHERE program_id = %d AND name = '%s (%s)'", (int)c.id,
	    named("pa-list"), named("pa-copy")), 1);
	assert_int_equal(itest_count(db, "SELECT COUNT(*) FROM list_member m "
	    "JOIN static_list l ON l.id = m.list_id WHERE l.program_id = %d",
	    (int)c.id), 0);
	assert_int_equal(itest_count(db, "SELECT COUNT(*) FROM form f JOIN "
	    "form_field ff ON ff.form_id = f.id WHERE f.program_id = %d AND "
	    "f.name = '%s (%s)'", (int)c.id, named("pa-form"),
	    named("pa-copy")), 1);
	assert_int_equal(repo_program_delete(db, c.id, &b), 0);
	itest_sqlf(db, "INSERT INTO static_list (name, workspace, created_at, "
	    "updated_at) VALUES ('%s (%s)', 'Default', UTC_TIMESTAMP(), "
	    "UTC_TIMESTAMP())", named("pa-list"), named("pa-copy2"));
	c.name = named("pa-copy2");
	assert_int_equal(repo_program_clone(db, &a, src, named("pa-src"), &c,
	    &f), -REPO_ERR_CONFLICT);
	assert_string_equal(f.kind, "Static list");
	assert_int_equal(itest_count(db, "SELECT COUNT(*) FROM program WHERE "
	    "name = '%s'", named("pa-copy2")), 0);
	itest_sqlf(db, "DELETE FROM static_list WHERE name = '%s (%s)'",
	    named("pa-list"), named("pa-copy2"));

	/* Delete: a condition outside naming the list refuses it. */
	itest_sqlf(db, "INSERT INTO smart_list (name, folder_id, created_at, "
	    "updated_at) VALUES ('%s', 5, UTC_TIMESTAMP(), UTC_TIMESTAMP())",
	    named("pa-out"));
	itest_sqlf(db, "INSERT INTO smart_list_rule (smart_list_id, position, "
	    "kind, rule_type_id) SELECT id, 1, 'activity', 100001 FROM "
	    "smart_list WHERE name = '%s'", named("pa-out"));
	itest_sqlf(db, "INSERT INTO smart_list_condition (rule_id, "
	    "attribute_id, operator, vals) SELECT r.id, 1, 'in', "
	    "JSON_ARRAY('%s') FROM smart_list_rule r JOIN smart_list s ON "
	    "s.id = r.smart_list_id WHERE s.name = '%s'", named("pa-list"),
	    named("pa-out"));
	assert_int_equal(repo_program_delete(db, src, &b),
	    -REPO_ERR_CONFLICT);
	assert_int_equal(b.kind, RPB_LIST);
	assert_int_equal(b.id, list);
	itest_sqlf(db, "DELETE FROM smart_list WHERE name = '%s'",
	    named("pa-out"));
	assert_int_equal(repo_program_delete(db, src, &b), 0);
	assert_int_equal(b.kind, RPB_NONE);
	assert_int_equal(itest_count(db, "SELECT (SELECT COUNT(*) FROM "
	    "static_list WHERE id = %d) + (SELECT COUNT(*) FROM list_member "
	    "WHERE list_id = %d) + (SELECT COUNT(*) FROM form WHERE id = %d) "
	    "+ (SELECT COUNT(*) FROM program WHERE id = %d)", (int)list,
	    (int)list, (int)form, (int)src), 0);
	assert_int_equal(repo_program_delete(db, src, &b),
	    -REPO_ERR_NOT_FOUND);
	itest_sqlf(db, "DELETE FROM lead WHERE id = %d", (int)lead);
}

/* Approve of program id at real time now_ms: the reason (RPS_*). */
static int
approve(int32_t id, int64_t now_ms, struct repo_program_send *s)
{
	memset(s, 0, sizeof(*s));
	s->id = id;
	s->now_ms = now_ms;
	s->campaign_name = arena_printf(&a, "Email program %d send", (int)id);
	assert_int_equal(repo_program_send_approve(db, &a, s), 0);
	return (int)s->why;
}

/* Unapprove of program id: the reason (RPS_*). */
static int
unapprove(int32_t id, struct repo_program_send *s)
{
	memset(s, 0, sizeof(*s));
	s->id = id;
	assert_int_equal(repo_program_send_unapprove(db, &a, s), 0);
	return (int)s->why;
}

static void
test_send(void **state)
{
	struct repo_program_send s;
	struct repo_program_block b;
	int64_t now = time_now_ms();
	int32_t em, other;

	(void)state;
	em = program("pa-em", PROGRAM_TYPE_EMAIL);
	other = program("pa-other", "program");
	assert_int_equal(approve(other, now, &s), RPS_NOT_EMAIL);
	assert_int_equal(unapprove(other, &s), RPS_NOT_EMAIL);
	assert_int_equal(approve(em, now, &s), RPS_NO_START);
	itest_sqlf(db, "UPDATE program SET start_date = FROM_UNIXTIME(%lld) "
	    "WHERE id = %d", (long long)(now / 1000 - 60), (int)em);
	assert_int_equal(approve(em, now, &s), RPS_START_PAST);
	itest_sqlf(db, "UPDATE program SET start_date = FROM_UNIXTIME(%lld) "
	    "WHERE id = %d", (long long)(now / 1000 + 3600), (int)em);
	assert_int_equal(approve(em, now, &s), RPS_NO_EMAIL);
	itest_sqlf(db, "INSERT INTO email (name, place_type, place_id, "
	    "created_at, updated_at) VALUES ('pa-mail', 'Program', %d, "
	    "UTC_TIMESTAMP(), UTC_TIMESTAMP())", (int)em);
	itest_sqlf(db, "INSERT INTO email_version (email_id, status, content, "
	    "updated_at) SELECT id, 'draft', '', UTC_TIMESTAMP() FROM email "
	    "WHERE place_type = 'Program' AND place_id = %d", (int)em);
	assert_int_equal(approve(em, now, &s), RPS_NO_EMAIL);
	itest_sqlf(db, "UPDATE email_version v JOIN email e ON e.id = "
	    "v.email_id SET v.status = 'approved' WHERE e.place_type = "
	    "'Program' AND e.place_id = %d", (int)em);
	assert_int_equal(approve(em, now, &s), RPS_NO_LIST);
	itest_sqlf(db, "INSERT INTO smart_list (name, program_id, created_at, "
	    "updated_at) VALUES ('%s', %d, UTC_TIMESTAMP(), UTC_TIMESTAMP())",
	    named("pa-em-sl"), (int)em);
	assert_int_equal(unapprove(em, &s), RPS_NOT_APPROVED);

	/* Approved: a system campaign with one Send Email step, a run. */
	assert_int_equal(approve(em, now, &s), RPS_OK);
	assert_true(s.campaign_id > 0 && s.run_id > 0);
	assert_int_equal(itest_count(db, "SELECT COUNT(*) FROM smart_campaign "
	    "c JOIN sc_flow_step f ON f.campaign_id = c.id WHERE c.id = %d AND "
	    "c.is_system = 1 AND c.program_id = %d AND f.flow_type_id = 6",
	    (int)s.campaign_id, (int)em), 1);
	assert_int_equal(itest_count(db, "SELECT COUNT(*) FROM campaign_run "
	    "WHERE id = %lld AND campaign_id = %d AND status = 'scheduled' AND "
	    "run_at = FROM_UNIXTIME(%lld)", (long long)s.run_id,
	    (int)s.campaign_id, (long long)(now / 1000 + 3600)), 1);
	assert_int_equal(itest_count(db, "SELECT locked FROM program WHERE "
	    "id = %d", (int)em), 1);
	assert_int_equal(approve(em, now, &s), RPS_APPROVED);

	/* Unapproved before the run began: both gone, unlocked. */
	assert_int_equal(unapprove(em, &s), RPS_OK);
	assert_int_equal(itest_count(db, "SELECT (SELECT COUNT(*) FROM "
	    "smart_campaign WHERE id = %d) + (SELECT COUNT(*) FROM "
	    "campaign_run WHERE id = %lld) + (SELECT locked FROM program "
	    "WHERE id = %d)", (int)s.campaign_id, (long long)s.run_id,
	    (int)em), 0);

	/* Once a runner has claimed the run, unapprove changes nothing. */
	assert_int_equal(approve(em, now, &s), RPS_OK);
	itest_sqlf(db, "UPDATE campaign_run SET status = 'expanding' WHERE "
	    "id = %lld", (long long)s.run_id);
	assert_int_equal(unapprove(em, &s), RPS_STARTED);
	assert_int_equal(itest_count(db, "SELECT (SELECT COUNT(*) FROM "
	    "smart_campaign WHERE id = %d) + (SELECT locked FROM program "
	    "WHERE id = %d)", (int)s.campaign_id, (int)em), 2);

	itest_sqlf(db, "DELETE FROM campaign_run WHERE id = %lld",
	    (long long)s.run_id);
	assert_int_equal(repo_program_delete(db, em, &b), 0);
	assert_int_equal(repo_program_delete(db, other, &b), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_get),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_write),
		cmocka_unit_test(test_meta),
		cmocka_unit_test(test_assets),
		cmocka_unit_test(test_send),
	};

	if (itest_config(&cfg) != 0) {
		fprintf(stderr, "MAUTO_TEST_DB_* not set: skipped\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
