/*
 * The folder tree's reads against a real MariaDB (repo_folder_tree.c):
 * every folder and program as nodes, the workspace lookup and the
 * content of a folder and of a program.  Other integration tests run at
 * the same time on the same database, so every row here is made under
 * names of this run and only its own rows are looked at.  Needs
 * MAUTO_TEST_DB_*; without them it exits 77.
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
#include "model/foldertree.h"
#include "repo/repo.h"
#include "repo/repo_folder_tree.h"
#include "repo/repo_folders.h"
#include "repo/repo_programs.h"
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
	return db_open(&db, &cfg, &repo_schema, DB_PREPARE_ALL) == 0 ? 0 : -1;
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

/* A program of this run in folder folder_id. */
static int32_t
program_in(const char *what, int32_t folder_id)
{
	static const char *const statuses[] = { "Not in Program", "Member" };
	static const bool success[] = { false, true };
	struct repo_program_new p = {
		.name = named(what), .type = "program", .channel = "Webinar",
		.statuses = statuses, .success = success, .nstatuses = 2,
	};
	int32_t id;

	assert_int_equal(repo_programs_insert(db, &p, &id), 0);
	itest_sql(db, arena_printf(&a, "UPDATE program SET folder_id = %d "
	    "WHERE id = %d", folder_id, id));
	return id;
}

static void
test_tree(void **state)
{
	struct ftree_node *nodes;
	struct ftree t;
	const struct ftree_node *x, *y, *p;
	struct folder_ref ref;
	size_t n;
	int32_t xid, yid, pid;

	(void)state;
	assert_int_equal(repo_folders_insert(db, named("ft-x"), "about x",
	    FK_MARKETING, 1, &xid), 0);
	assert_int_equal(repo_folders_insert(db, named("ft-y"), NULL,
	    FK_MARKETING, xid, &yid), 0);
	pid = program_in("ft-p", xid);
	assert_int_equal(repo_folder_tree_read(db, &a, &nodes, &n), 0);
	assert_int_equal(ftree_index(&t, nodes, n, &a), 0);

	ref = (struct folder_ref){ .id = xid, .type = FOLDER_T_FOLDER };
	assert_non_null(x = ftree_find(&t, &ref));
	assert_string_equal(x->name, named("ft-x"));
	assert_string_equal(x->description, "about x");
	assert_string_equal(x->workspace, "Default");
	assert_int_equal(x->parent_id, 1);
	assert_false(x->is_system);
	assert_non_null(x->created_at);
	ref = (struct folder_ref){ .id = yid, .type = FOLDER_T_FOLDER };
	assert_non_null(y = ftree_find(&t, &ref));
	assert_null(y->description);
	assert_int_equal(y->parent_id, xid);
	ref = (struct folder_ref){ .id = pid, .type = FOLDER_T_PROGRAM };
	assert_non_null(p = ftree_find(&t, &ref));
	assert_int_equal(p->parent_id, xid);
	assert_string_equal(ftree_folder_type(p), "Program");
	/* The migration's roots are system folders. */
	ref = (struct folder_ref){ .id = 1, .type = FOLDER_T_FOLDER };
	assert_true(ftree_find(&t, &ref)->is_system);
}

static void
test_workspace(void **state)
{
	bool exists;

	(void)state;
	assert_int_equal(repo_folder_tree_workspace(db, "Default", &exists),
	    0);
	assert_true(exists);
	assert_int_equal(repo_folder_tree_workspace(db, "default", &exists),
	    0);
	assert_true(exists);
	assert_int_equal(repo_folder_tree_workspace(db, named("none"),
	    &exists), 0);
	assert_false(exists);
}

static void
test_content(void **state)
{
	struct repo_content_item *items;
	struct folder_ref ref;
	size_t n;
	int32_t xid, yid, zid, pid;

	(void)state;
	assert_int_equal(repo_folders_insert(db, named("fc-x"), NULL,
	    FK_MARKETING, 1, &xid), 0);
	assert_int_equal(repo_folders_insert(db, named("fc-z"), NULL,
	    FK_MARKETING, xid, &zid), 0);
	assert_int_equal(repo_folders_insert(db, named("fc-y"), NULL,
	    FK_MARKETING, xid, &yid), 0);
	pid = program_in("fc-p", xid);

	ref = (struct folder_ref){ .id = xid, .type = FOLDER_T_FOLDER };
	assert_int_equal(repo_folder_tree_content(db, &a, &ref, 20, 0,
	    &items, &n), 0);
	assert_int_equal(n, 3);
	/* Folders by id, then programs. */
	assert_int_equal(items[0].id, zid);
	assert_int_equal(items[0].kind, RCK_FOLDER);
	assert_int_equal(items[1].id, yid);
	assert_int_equal(items[2].id, pid);
	assert_int_equal(items[2].kind, RCK_PROGRAM);
	assert_int_equal(repo_folder_tree_content(db, &a, &ref, 1, 1,
	    &items, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(items[0].id, yid);
	assert_int_equal(repo_folder_tree_content(db, &a, &ref, 20, 3,
	    &items, &n), 0);
	assert_int_equal(n, 0);
	/* An empty folder, a program with nothing in it, no such id. */
	ref = (struct folder_ref){ .id = yid, .type = FOLDER_T_FOLDER };
	assert_int_equal(repo_folder_tree_content(db, &a, &ref, 20, 0,
	    &items, &n), 0);
	assert_int_equal(n, 0);
	ref = (struct folder_ref){ .id = pid, .type = FOLDER_T_PROGRAM };
	assert_int_equal(repo_folder_tree_content(db, &a, &ref, 20, 0,
	    &items, &n), 0);
	assert_int_equal(n, 0);
	ref = (struct folder_ref){ .id = 0, .type = FOLDER_T_FOLDER };
	assert_int_equal(repo_folder_tree_content(db, &a, &ref, 20, 0,
	    &items, &n), 0);
	assert_int_equal(n, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree),
		cmocka_unit_test(test_workspace),
		cmocka_unit_test(test_content),
	};

	if (itest_config(&cfg) != 0) {
		fprintf(stderr, "MAUTO_TEST_DB_* not set: skipped\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
