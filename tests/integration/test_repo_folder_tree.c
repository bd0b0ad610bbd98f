/*
 * The folder tree against a real MariaDB: its reads (repo_folder_tree.c:
 * every folder and program as nodes, the workspace lookup, the content
 * of a folder and of a program), Update Folder's change
 * (repo_folders_update) and its tokens (repo_tokens.c: create or
 * update by name, list, delete, the tokens in effect at a place,
 * inherited from the folders above with the nearest definition winning,
 * and the tokens going with their folder).  Other integration tests run at
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
#include "model/token.h"
#include "repo/repo.h"
#include "repo/repo_folder_delete.h"
#include "repo/repo_folder_tree.h"
#include "repo/repo_folders.h"
#include "repo/repo_programs.h"
#include "repo/repo_tokens.h"
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

static struct folder_ref
folder(int32_t id)
{
	return (struct folder_ref){ .id = id, .type = FOLDER_T_FOLDER };
}

/* A marketing folder of this run under parent. */
static int32_t
new_folder(const char *what, int32_t parent)
{
	int32_t id;

	assert_int_equal(repo_folders_insert(db, named(what), NULL,
	    FK_MARKETING, parent, &id), 0);
	return id;
}

/* The token named name of the n tokens t, or NULL. */
static const struct repo_token *
token(const struct repo_token *t, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(t[i].name, name) == 0)
			return &t[i];
	return NULL;
}

static void
test_upsert_list_delete(void **state)
{
	struct folder_ref f = folder(new_folder("tk-f", 1));
	struct folder_ref none = folder(INT32_MAX);
	struct repo_token *t;
	size_t n;
	bool deleted;

	(void)state;
	assert_int_equal(repo_tokens_list(db, &a, &f, &t, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(repo_tokens_upsert(db, &f, "Day", TOKEN_DATE,
	    "2015-04-01"), 0);
	assert_int_equal(repo_tokens_upsert(db, &f, "Title", TOKEN_TEXT,
	    "Hello"), 0);
	/* The same name again changes the token, in its place. */
	assert_int_equal(repo_tokens_upsert(db, &f, "Day", TOKEN_TEXT,
	    "Monday"), 0);
	assert_int_equal(repo_tokens_list(db, &a, &f, &t, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(t[0].name, "Day");
	assert_int_equal(t[0].type, TOKEN_TEXT);
	assert_string_equal(t[0].value, "Monday");
	assert_string_equal(t[1].name, "Title");
	/* Names are exact: another letter case is another token. */
	assert_int_equal(repo_tokens_upsert(db, &f, "title", TOKEN_TEXT,
	    "lower"), 0);
	assert_int_equal(repo_tokens_list(db, &a, &f, &t, &n), 0);
	assert_int_equal(n, 3);

	assert_int_equal(repo_tokens_delete(db, &f, "Day", TOKEN_DATE,
	    &deleted), 0);
	assert_false(deleted);
	assert_int_equal(repo_tokens_delete(db, &f, "Day", TOKEN_TEXT,
	    &deleted), 0);
	assert_true(deleted);
	assert_int_equal(repo_tokens_list(db, &a, &f, &t, &n), 0);
	assert_int_equal(n, 2);

	assert_int_equal(repo_tokens_list(db, &a, &none, &t, &n),
	    -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_tokens_upsert(db, &none, "x", TOKEN_TEXT, "y"),
	    -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_tokens_delete(db, &none, "x", TOKEN_TEXT,
	    &deleted), -REPO_ERR_NOT_FOUND);
}

static void
test_effective(void **state)
{
	struct folder_ref top, mid, prog;
	struct repo_token *t;
	const struct repo_token *k;
	size_t n;
	int32_t pid;

	(void)state;
	top = folder(new_folder("tk-top", 1));
	mid = folder(new_folder("tk-mid", (int32_t)top.id));
	pid = program_in("tk-prog", (int32_t)mid.id);
	prog = (struct folder_ref){ .id = pid, .type = FOLDER_T_PROGRAM };

	assert_int_equal(repo_tokens_upsert(db, &top, "Both", TOKEN_TEXT,
	    "top"), 0);
	assert_int_equal(repo_tokens_upsert(db, &top, "TopOnly", TOKEN_SCORE,
	    "5"), 0);
	assert_int_equal(repo_tokens_upsert(db, &mid, "Both", TOKEN_TEXT,
	    "mid"), 0);
	assert_int_equal(repo_tokens_upsert(db, &mid, "Own", TOKEN_TEXT,
	    "mid"), 0);
	assert_int_equal(repo_tokens_upsert(db, &prog, "Own", TOKEN_TEXT,
	    "program"), 0);

	/* At the program: its own, then its folder's, then the one above. */
	assert_int_equal(repo_tokens_effective(db, &a, &prog, &t, &n), 0);
	assert_non_null(k = token(t, n, "Own"));
	assert_string_equal(k->value, "program");
	assert_int_equal(k->place.type, FOLDER_T_PROGRAM);
	assert_int_equal(k->place.id, pid);
	assert_non_null(k = token(t, n, "Both"));
	assert_string_equal(k->value, "mid");
	assert_int_equal(k->place.type, FOLDER_T_FOLDER);
	assert_int_equal(k->place.id, mid.id);
	assert_non_null(k = token(t, n, "TopOnly"));
	assert_int_equal(k->type, TOKEN_SCORE);
	assert_int_equal(k->place.id, top.id);
	/* Each name once, by name. */
	assert_int_equal(n, 3);
	assert_string_equal(t[0].name, "Both");
	assert_string_equal(t[1].name, "Own");
	assert_string_equal(t[2].name, "TopOnly");

	/* At the middle folder: no program token. */
	assert_int_equal(repo_tokens_effective(db, &a, &mid, &t, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(token(t, n, "Own")->value, "mid");
	/* At the top: its own two only. */
	assert_int_equal(repo_tokens_effective(db, &a, &top, &t, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(token(t, n, "Both")->value, "top");
	/* A place that does not exist has none. */
	prog.id = INT32_MAX;
	assert_int_equal(repo_tokens_effective(db, &a, &prog, &t, &n), 0);
	assert_int_equal(n, 0);
}

static void
test_folder_delete_takes_tokens(void **state)
{
	struct folder_ref f = folder(new_folder("tk-gone", 1));
	struct repo_token *t;
	size_t n;

	(void)state;
	assert_int_equal(repo_tokens_upsert(db, &f, "X", TOKEN_TEXT, "x"), 0);
	/* Tokens are not content: the folder is still empty. */
	assert_int_equal(repo_folder_delete(db, (int32_t)f.id), 0);
	assert_int_equal(repo_tokens_list(db, &a, &f, &t, &n),
	    -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_tokens_effective(db, &a, &f, &t, &n), 0);
	assert_int_equal(n, 0);
}

static void
test_update(void **state)
{
	struct ftree_node *nodes;
	struct ftree t;
	const struct ftree_node *f;
	struct folder_ref ref;
	size_t n;
	int32_t xid, yid;
	bool sys;

	(void)state;
	assert_int_equal(repo_folders_insert(db, named("fu-x"), "old",
	    FK_MARKETING, 1, &xid), 0);
	assert_int_equal(repo_folders_insert(db, named("fu-y"), NULL,
	    FK_MARKETING, 1, &yid), 0);
	assert_int_equal(repo_folders_update(db, xid, named("fu-renamed"),
	    NULL, 1, &sys), 0);
	assert_false(sys);
	assert_int_equal(repo_folder_tree_read(db, &a, &nodes, &n), 0);
	assert_int_equal(ftree_index(&t, nodes, n, &a), 0);
	ref = (struct folder_ref){ .id = xid, .type = FOLDER_T_FOLDER };
	assert_non_null(f = ftree_find(&t, &ref));
	assert_string_equal(f->name, named("fu-renamed"));
	assert_string_equal(f->description, "old");
	assert_true(f->is_archive);
	/* Nothing given: only updatedAt moves; archive 0 unarchives. */
	assert_int_equal(repo_folders_update(db, xid, NULL, "new", 0, &sys),
	    0);
	assert_int_equal(repo_folder_tree_read(db, &a, &nodes, &n), 0);
	assert_int_equal(ftree_index(&t, nodes, n, &a), 0);
	assert_non_null(f = ftree_find(&t, &ref));
	assert_string_equal(f->name, named("fu-renamed"));
	assert_string_equal(f->description, "new");
	assert_false(f->is_archive);
	/* A sibling's name, a system folder, no such folder. */
	assert_int_equal(repo_folders_update(db, yid, named("fu-renamed"),
	    NULL, -1, &sys), -REPO_ERR_CONFLICT);
	assert_false(sys);
	assert_int_equal(repo_folders_update(db, 1, NULL, "x", -1, &sys),
	    -REPO_ERR_CONFLICT);
	assert_true(sys);
	assert_int_equal(repo_folders_update(db, INT32_MAX, NULL, "x", -1,
	    &sys), -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_folder_delete(db, xid), 0);
	assert_int_equal(repo_folder_delete(db, yid), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree),
		cmocka_unit_test(test_workspace),
		cmocka_unit_test(test_content),
		cmocka_unit_test(test_update),
		cmocka_unit_test(test_upsert_list_delete),
		cmocka_unit_test(test_effective),
		cmocka_unit_test(test_folder_delete_takes_tokens),
	};

	if (itest_config(&cfg) != 0) {
		fprintf(stderr, "MAUTO_TEST_DB_* not set: skipped\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
