/*
 * The asset repositories against a real MariaDB: the folder tree
 * (repo_folders.c), landing page templates and their versions
 * (repo_lp_templates.c) and the usage relation (repo_usage.c).  Other
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
#include "repo/repo_folders.h"
#include "repo/repo_lp_templates.h"
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
	(void)snprintf(tag, sizeof(tag), "%ld", (long)getpid());
	arena_init(&a);
	return db_open(&db, &cfg, &repo_schema, true) == 0 ? 0 : -1;
}

static int
group_teardown(void **state)
{
	(void)state;
	arena_clear(&a);
	db_close(db);
	return 0;
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
	assert_int_equal(repo_folders_delete(db, 4), -REPO_ERR_CONFLICT);
	assert_int_equal(repo_folders_delete(db, top), -REPO_ERR_CONFLICT);
	(void)lpt_new(sub, "f-tpl", 0);
	assert_int_equal(repo_folders_delete(db, sub), -REPO_ERR_CONFLICT);
	assert_int_equal(repo_folders_delete(db, 99999999),
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_folders),
		cmocka_unit_test(test_versions),
		cmocka_unit_test(test_meta_clone_browse),
	};

	if (itest_config(&cfg) != 0) {
		fprintf(stderr, "MAUTO_TEST_DB_* not set: skipped\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
