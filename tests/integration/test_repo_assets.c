/*
 * The asset repositories against a real MariaDB: the folder tree
 * (repo_folders.c), landing page templates and their versions
 * (repo_lp_templates.c), the usage relation (repo_usage.c) and smart
 * lists with their rules and the rule catalogue (repo_smart_lists.c).  Other
 * integration tests run at the same time on the same database, so every
 * row here is made under names of this run and nothing is deleted
 * wholesale.  Needs MAUTO_TEST_DB_*; without them it exits 77.
 */
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

#include "db/pool.h"
#include "err.h"
#include "model/asset.h"
#include "model/folder.h"
#include "model/lptemplate.h"
#include "repo/repo.h"
#include "repo/repo_folder_delete.h"
#include "repo/repo_folders.h"
#include "repo/repo_lp_templates.h"
#include "repo/repo_sl_catalogue.h"
#include "repo/repo_sl_suggest.h"
#include "repo/repo_smart_lists.h"
#include "repo/repo_usage.h"
#include "util/arena.h"
#include "util/config.h"
#include "itest.h"

static struct config cfg;
static struct db *db;
static struct arena a;
static char tag[16];

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

/* A name of this run. */
static const char *
named(const char *what)
{
	return arena_printf(&a, "%s-%s", what, tag);
}

/* A template folder of this run under the templates root. */
static int32_t
lpt_folder(const char *what)
{
	int32_t id;

	assert_int_equal(repo_folders_insert(db, named(what), NULL,
	    FK_MARKETING, 4, &id), 0);
	return id;
}

static int32_t
lpt_new(int32_t folder, const char *what, int32_t clone_of)
{
	struct repo_lpt_new t = {
		.name = named(what), .folder_id = folder, .type = LPT_GUIDED,
		.enable_munchkin = true, .clone_of = clone_of,
	};
	int32_t id;

	assert_int_equal(repo_lpt_insert(db, &t, &id), 0);
	return id;
}

/* A check that accepts anything but "bad". */
static int
check(enum lpt_type t, const char *html, size_t len, char *msg)
{
	(void)t;
	if (len == 3 && memcmp(html, "bad", 3) == 0) {
		(void)snprintf(msg, LPT_MSG_BYTES, "bad content");
		return -1;
	}
	return 0;
}

static int
change(int32_t id, enum asset_op op, const char *content, char *msg)
{
	return repo_lpt_change(db, id, op, content, content != NULL ?
	    strlen(content) : 0, check, msg);
}

static void
test_folders(void **state)
{
	struct folder_ref ref = { .id = 4, .type = FOLDER_T_FOLDER };
	struct repo_place p;
	struct repo_folder *f;
	size_t n, i;
	int32_t top, sub, again;
	int found = 0;

	(void)state;
	assert_int_equal(repo_folders_place(db, &ref, &p), 0);
	assert_string_equal(p.name, "Landing Page Templates");
	assert_int_equal(p.kind, FK_LP_TEMPLATE);
	assert_string_equal(p.workspace, "Default");
	ref.id = 99999999;
	assert_int_equal(repo_folders_place(db, &ref, &p),
	    -REPO_ERR_NOT_FOUND);
	/* Under a parent, a folder takes the parent's kind. */
	top = lpt_folder("f-top");
	assert_int_equal(repo_folders_insert(db, named("f-sub"), "d",
	    FK_EMAIL, top, &sub), 0);
	ref.id = sub;
	assert_int_equal(repo_folders_place(db, &ref, &p), 0);
	assert_int_equal(p.kind, FK_LP_TEMPLATE);
	assert_int_equal(repo_folders_insert(db, named("f-sub"), NULL,
	    FK_MARKETING, top, &again), -REPO_ERR_CONFLICT);
	assert_int_equal(repo_folders_insert(db, named("f-none"), NULL,
	    FK_MARKETING, 99999999, &again), -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_folders_child_id(db, top, named("f-sub"),
	    &again), 0);
	assert_int_equal(again, sub);
	assert_int_equal(repo_folders_list(db, &a, &f, &n), 0);
	for (i = 0; i < n; i++)
		if (f[i].id == sub) {
			assert_int_equal(f[i].parent_id, top);
			assert_false(f[i].is_system);
			found = 1;
		}
	assert_true(found);
	/* Roots and folders that hold something stay. */
	assert_int_equal(repo_folder_delete(db, 4), -REPO_ERR_CONFLICT);
	assert_int_equal(repo_folder_delete(db, top), -REPO_ERR_CONFLICT);
	(void)lpt_new(sub, "f-tpl", 0);
	assert_int_equal(repo_folder_delete(db, sub), -REPO_ERR_CONFLICT);
	assert_int_equal(repo_folder_delete(db, 99999999),
	    -REPO_ERR_NOT_FOUND);
}

static void
test_versions(void **state)
{
	struct repo_lpt t;
	char msg[LPT_MSG_BYTES];
	int32_t folder = lpt_folder("v-folder"), id;

	(void)state;
	id = lpt_new(folder, "v-tpl", 0);
	assert_int_equal(repo_lpt_get(db, &a, id, ASSET_ST_ANY, true, &t), 0);
	assert_int_equal(t.status, ASSET_ST_DRAFT);
	assert_true(t.v.has_draft && !t.v.has_approved);
	assert_int_equal(t.type, LPT_GUIDED);
	assert_true(t.enable_munchkin);
	assert_int_equal(t.content_len, 0);
	assert_int_equal(t.folder_id, folder);
	assert_string_equal(t.folder_name, named("v-folder"));
	/* The check refuses: nothing changes. */
	assert_int_equal(change(id, ASSET_EDIT, "bad", msg), 0);
	assert_int_equal(change(id, ASSET_APPROVE, NULL, msg),
	    -REPO_ERR_INVALID);
	assert_string_equal(msg, "bad content");
	assert_int_equal(repo_lpt_get(db, &a, id, ASSET_ST_APPROVED, false,
	    &t), -REPO_ERR_NOT_FOUND);
	/* Edit, approve: the approved version only. */
	assert_int_equal(change(id, ASSET_EDIT, "<p>1</p>", msg), 0);
	assert_int_equal(change(id, ASSET_APPROVE, NULL, msg), 0);
	assert_int_equal(repo_lpt_get(db, &a, id, ASSET_ST_ANY, true, &t), 0);
	assert_int_equal(t.status, ASSET_ST_APPROVED);
	assert_string_equal(t.content, "<p>1</p>");
	assert_true(!t.v.has_draft && t.v.has_approved);
	assert_int_equal(change(id, ASSET_APPROVE, NULL, msg),
	    -REPO_ERR_INVALID);
	assert_true(msg[0] != '\0');
	/* Approved with draft. */
	assert_int_equal(change(id, ASSET_EDIT, "<p>2</p>", msg), 0);
	assert_int_equal(repo_lpt_get(db, &a, id, ASSET_ST_DRAFT, true, &t),
	    0);
	assert_string_equal(t.content, "<p>2</p>");
	assert_int_equal(repo_lpt_get(db, &a, id, ASSET_ST_ANY, true, &t), 0);
	assert_string_equal(t.content, "<p>1</p>");
	assert_int_equal(change(id, ASSET_DELETE, NULL, msg),
	    -REPO_ERR_INVALID);
	/* In use: no unapprove; then unapprove keeps the draft. */
	assert_int_equal(repo_usage_add(db, USAGE_LP_TEMPLATE, id,
	    "landingPage", 1), 0);
	assert_int_equal(repo_usage_add(db, USAGE_LP_TEMPLATE, id,
	    "landingPage", 1), 0);
	assert_int_equal(change(id, ASSET_UNAPPROVE, NULL, msg),
	    -REPO_ERR_INVALID);
	assert_int_equal(repo_usage_forget(db, USAGE_LP_TEMPLATE, id), 0);
	assert_int_equal(change(id, ASSET_UNAPPROVE, NULL, msg), 0);
	assert_int_equal(repo_lpt_get(db, &a, id, ASSET_ST_ANY, true, &t), 0);
	assert_int_equal(t.status, ASSET_ST_DRAFT);
	assert_string_equal(t.content, "<p>2</p>");
	assert_int_equal(change(id, ASSET_DISCARD, NULL, msg),
	    -REPO_ERR_INVALID);
	assert_int_equal(change(id, ASSET_DELETE, NULL, msg), 0);
	assert_int_equal(repo_lpt_get(db, &a, id, ASSET_ST_ANY, false, &t),
	    -REPO_ERR_NOT_FOUND);
	assert_int_equal(change(id, ASSET_DELETE, NULL, msg),
	    -REPO_ERR_NOT_FOUND);
}

static void
test_meta_clone_browse(void **state)
{
	struct repo_lpt t, *items;
	struct repo_lpt_query q;
	struct repo_lpt_meta m = { NULL, NULL, -1 };
	char msg[LPT_MSG_BYTES];
	int32_t folder = lpt_folder("b-folder"), one, two, copy;
	int64_t n64;
	size_t n;

	(void)state;
	one = lpt_new(folder, "b-one", 0);
	two = lpt_new(folder, "b-two", 0);
	assert_int_equal(change(one, ASSET_EDIT, "<b>one</b>", msg), 0);
	assert_int_equal(change(one, ASSET_APPROVE, NULL, msg), 0);
	assert_int_equal(change(one, ASSET_EDIT, "<b>one again</b>", msg), 0);
	/* Metadata: only what is given changes; a taken name conflicts. */
	m.description = "described";
	assert_int_equal(repo_lpt_update_meta(db, two, &m), 0);
	m.description = NULL;
	m.name = named("b-one");
	assert_int_equal(repo_lpt_update_meta(db, two, &m),
	    -REPO_ERR_CONFLICT);
	m.name = NULL;
	m.enable_munchkin = 0;
	assert_int_equal(repo_lpt_update_meta(db, two, &m), 0);
	assert_int_equal(repo_lpt_update_meta(db, 99999999, &m),
	    -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_lpt_get_by_name(db, &a, named("b-two"),
	    ASSET_ST_ANY, &t), 0);
	assert_int_equal(t.id, two);
	assert_string_equal(t.description, "described");
	assert_false(t.enable_munchkin);
	/* A clone takes the approved content as its draft. */
	copy = lpt_new(folder, "b-copy", one);
	assert_int_equal(repo_lpt_get(db, &a, copy, ASSET_ST_ANY, true, &t),
	    0);
	assert_int_equal(t.status, ASSET_ST_DRAFT);
	assert_string_equal(t.content, "<b>one</b>");
	/* Browse the folder: one's two versions, two, copy. */
	memset(&q, 0, sizeof(q));
	q.folder_id = folder;
	q.limit = 200;
	assert_int_equal(repo_lpt_browse(db, &a, &q, &items, &n), 0);
	assert_int_equal(n, 4);
	assert_int_equal(items[0].id, one);
	assert_int_equal(items[0].status, ASSET_ST_APPROVED);
	assert_int_equal(items[1].id, one);
	assert_int_equal(items[1].status, ASSET_ST_DRAFT);
	assert_int_equal(items[2].id, two);
	assert_int_equal(items[3].id, copy);
	q.status = ASSET_ST_APPROVED;
	assert_int_equal(repo_lpt_browse(db, &a, &q, &items, &n), 0);
	assert_int_equal(n, 1);
	q.status = ASSET_ST_DRAFT;
	q.offset = 1;
	q.limit = 1;
	assert_int_equal(repo_lpt_browse(db, &a, &q, &items, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(items[0].id, two);
	q.offset = 3;
	assert_int_equal(repo_lpt_browse(db, &a, &q, &items, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(repo_lpt_count_in_folder(db, folder, &n64), 0);
	assert_int_equal(n64, 3);
}

/* Applies change c to list id; 0 or the repo error. */
static int
sl_apply(int32_t id, struct repo_sl_change *c)
{
	return repo_sl_change(db, id, c);
}

/* Adds a filter of activity type t at index to list id; its rule id. */
static int32_t
sl_add(int32_t id, int32_t t, int index)
{
	struct repo_sl_change c;

	memset(&c, 0, sizeof(c));
	c.op = SL_OP_ADD;
	c.activity = true;
	c.type_id = t;
	c.index = index;
	c.primary_id = 1;
	c.default_op = "is";
	assert_int_equal(sl_apply(id, &c), 0);
	return c.rule_id;
}

static void
test_smart_lists(void **state)
{
	struct repo_sl_new t;
	struct repo_sl s;
	struct repo_sl *items;
	struct repo_sl_query q;
	struct repo_sl_change c;
	struct repo_sl_rule_type *types;
	struct repo_sl_suggestion *sg;
	int32_t folder, one, copy, r1, r2, r3, id;
	int32_t ids[1];
	int idx[1];
	size_t n, i, attrs = 0;
	bool email = false;

	(void)state;
	assert_int_equal(repo_folders_insert(db, named("sl-folder"), NULL,
	    FK_MARKETING, 5, &folder), 0);
	memset(&t, 0, sizeof(t));
	t.name = named("sl-one");
	t.place.id = folder;
	t.place.type = FOLDER_T_FOLDER;
	assert_int_equal(repo_sl_insert(db, &t, &one), 0);
	assert_int_equal(repo_sl_insert(db, &t, &id), -REPO_ERR_CONFLICT);

	r1 = sl_add(one, 2, 1);
	r2 = sl_add(one, 24, 2);
	r3 = sl_add(one, 13, 3);
	memset(&c, 0, sizeof(c));
	c.op = SL_OP_LOGIC;
	c.match_type = "custom";
	c.logic = "1 and (2 or 4)";
	assert_int_equal(sl_apply(one, &c), -REPO_ERR_INVALID);
	assert_non_null(strstr(c.msg, "Rule 4"));
	c.logic = "1 AND (2 or 3)";
	assert_int_equal(sl_apply(one, &c), 0);

	/* Rule 3 to the front: 3 1 2, the logic follows. */
	memset(&c, 0, sizeof(c));
	c.op = SL_OP_REORDER;
	ids[0] = r3;
	idx[0] = 1;
	c.move_ids = ids;
	c.move_index = idx;
	c.nmoves = 1;
	assert_int_equal(sl_apply(one, &c), 0);
	assert_int_equal(repo_sl_get(db, &a, one, true, &s), 0);
	assert_int_equal(s.nrules, 3);
	assert_int_equal(s.rules[0].id, r3);
	assert_int_equal(s.rules[1].id, r1);
	assert_int_equal(s.rules[2].id, r2);
	assert_string_equal(s.match_type, "custom");
	assert_string_equal(s.custom_logic, "2 and (3 or 1)");

	/* Its primary condition, then a value. */
	assert_int_equal(s.rules[1].nconds, 1);
	assert_string_equal(s.rules[1].conds[0].values_json, "[]");
	memset(&c, 0, sizeof(c));
	c.op = SL_OP_SET_COND;
	c.rule_id = r1;
	c.attribute_id = 1;
	c.values_json = "[\"Signup\"]";
	assert_int_equal(sl_apply(one, &c), 0);
	c.attribute_id = 99;
	assert_int_equal(sl_apply(one, &c), -REPO_ERR_NOT_FOUND);

	/* Deleting rule 1 (r3) leaves "2 or 1" renumbered. */
	memset(&c, 0, sizeof(c));
	c.op = SL_OP_DELETE;
	c.rule_id = r3;
	assert_int_equal(sl_apply(one, &c), 0);
	assert_int_equal(repo_sl_get(db, &a, one, true, &s), 0);
	assert_int_equal(s.nrules, 2);
	assert_string_equal(s.custom_logic, "1 and 2");
	assert_int_equal(s.rules[0].position, 1);

	/* A clone has the rules, their conditions and the logic. */
	t.name = named("sl-copy");
	t.clone_of = one;
	assert_int_equal(repo_sl_insert(db, &t, &copy), 0);
	assert_int_equal(repo_sl_get_by_name(db, &a, t.name, true, &s), 0);
	assert_int_equal(s.id, copy);
	assert_int_equal(s.nrules, 2);
	assert_int_not_equal(s.rules[0].id, r1);
	assert_int_equal(s.rules[0].type_id, 2);
	assert_string_equal(s.rules[0].conds[0].values_json, "[\"Signup\"]");
	assert_string_equal(s.custom_logic, "1 and 2");

	memset(&q, 0, sizeof(q));
	q.place.id = folder;
	q.place.type = FOLDER_T_FOLDER;
	q.limit = 200;
	assert_int_equal(repo_sl_browse(db, &a, &q, &items, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(items[0].id, one);
	assert_int_equal(items[1].id, copy);

	/* Delete all rules: the custom logic goes, the match type is all. */
	memset(&c, 0, sizeof(c));
	c.op = SL_OP_DELETE_ALL;
	assert_int_equal(sl_apply(copy, &c), 0);
	assert_int_equal(repo_sl_get(db, &a, copy, true, &s), 0);
	assert_int_equal(s.nrules, 0);
	assert_string_equal(s.match_type, "all");
	assert_null(s.custom_logic);

	assert_int_equal(repo_sl_delete(db, one), 0);
	assert_int_equal(repo_sl_delete(db, one), -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_sl_get(db, &a, one, false, &s),
	    -REPO_ERR_NOT_FOUND);
	assert_int_equal(sl_apply(one, &c), -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_sl_delete(db, copy), 0);

	/* The catalogue: an attribute rule per lead field. */
	assert_int_equal(repo_sl_rule_types(db, &a, &types, &n), 0);
	for (i = 0; i < n; i++) {
		if (types[i].activity)
			continue;
		attrs++;
		assert_int_equal(types[i].ncons, 1);
		if (strcmp(types[i].name, "Email Address") == 0)
			email = true;
	}
	assert_true(attrs > 10);
	assert_true(email);
	assert_int_equal(repo_sl_suggest(db, &a, "field", "Email Addr", 10,
	    &sg, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(sg[0].name, "Email Address");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_folders),
		cmocka_unit_test(test_versions),
		cmocka_unit_test(test_meta_clone_browse),
		cmocka_unit_test(test_smart_lists),
	};

	if (itest_config(&cfg) != 0) {
		fprintf(stderr, "MAUTO_TEST_DB_* not set: skipped\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
