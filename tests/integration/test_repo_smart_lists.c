/*
 * The kept rules text of smart lists (repo_smart_lists.c, migration
 * 0020) against a real MariaDB: a read for a reply gives the key to keep
 * the rendered text by, and the kept text afterwards; a keep under a
 * revision a rule change has moved on does nothing; a text kept under
 * other schema versions is not answered; the plain read still reads the
 * rules; a keep leaves updated_at.  Other integration tests run at the
 * same time on the same database, so every row here is made under names
 * of this run.  Needs MAUTO_TEST_DB_*; without them it exits 77.
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
#include "err.h"
#include "model/folder.h"
#include "repo/repo.h"
#include "repo/repo_smart_lists.h"
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

/* Adds activity rule type at index to list id. */
static void
add_rule(int32_t id, int32_t type, int index)
{
	struct repo_sl_change c;

	memset(&c, 0, sizeof(c));
	c.op = SL_OP_ADD;
	c.activity = true;
	c.type_id = type;
	c.index = index;
	assert_int_equal(repo_sl_change(db, id, &c), 0);
}

/* Keeps text on list id under key k. */
static int
keep(int32_t id, const struct repo_kept *k, const char *text)
{
	return repo_sl_keep_rules(db, id, k, text, strlen(text));
}

static void
test_keep(void **state)
{
	struct repo_sl_new t;
	struct repo_sl s, r;
	struct repo_kept k1, k2;
	int32_t id;

	(void)state;
	memset(&t, 0, sizeof(t));
	t.name = arena_printf(&a, "kept-%s", tag);
	t.place.type = FOLDER_T_FOLDER;
	t.place.id = 1;
	assert_int_equal(repo_sl_insert(db, &t, &id), 0);
	add_rule(id, 24, 1);
	add_rule(id, 2, 2);

	/* Nothing kept: the rules, and the key to keep their text by. */
	assert_int_equal(repo_sl_get_reply(db, &a, id, true, &s), 0);
	assert_null(s.kept.json);
	assert_int_equal(s.nrules, 2);
	assert_true(s.kept.set);
	k1 = s.kept;
	assert_int_equal(keep(id, &k1, "{\"kept\":1}"), 0);
	assert_int_equal(repo_sl_get_reply(db, &a, id, true, &r), 0);
	assert_non_null(r.kept.json);
	assert_int_equal(r.kept.len, strlen("{\"kept\":1}"));
	assert_memory_equal(r.kept.json, "{\"kept\":1}", r.kept.len);
	assert_int_equal(r.nrules, 0);
	assert_false(r.kept.set);
	assert_string_equal(r.updated_at, s.updated_at);
	assert_string_equal(r.name, t.name);

	/* By name the same; without rules, neither text nor key. */
	assert_int_equal(repo_sl_get_reply_by_name(db, &a, t.name, true, &r),
	    0);
	assert_memory_equal(r.kept.json, "{\"kept\":1}", r.kept.len);
	assert_int_equal(repo_sl_get_reply(db, &a, id, false, &r), 0);
	assert_null(r.kept.json);
	assert_false(r.kept.set);

	/* The plain read reads the rules whatever is kept. */
	assert_int_equal(repo_sl_get(db, &a, id, true, &r), 0);
	assert_null(r.kept.json);
	assert_int_equal(r.nrules, 2);

	/* A change drops the text and moves the revision on: a text
	 * rendered under the old one is not kept. */
	add_rule(id, 13, 1);
	assert_int_equal(repo_sl_get_reply(db, &a, id, true, &r), 0);
	assert_null(r.kept.json);
	assert_int_equal(r.nrules, 3);
	k2 = r.kept;
	assert_int_equal(k2.rev, k1.rev + 1);
	assert_int_equal(keep(id, &k1, "{\"stale\":1}"), -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_sl_get_reply(db, &a, id, true, &r), 0);
	assert_null(r.kept.json);

	/* A text kept under another schema version is not answered. */
	k2.lead_ver--;
	assert_int_equal(keep(id, &k2, "{\"old\":1}"), 0);
	assert_int_equal(repo_sl_get_reply(db, &a, id, true, &r), 0);
	assert_null(r.kept.json);
	assert_int_equal(r.nrules, 3);
	assert_true(r.kept.set);

	/* Nor is a list that is gone. */
	assert_int_equal(repo_sl_delete(db, id), 0);
	assert_int_equal(keep(id, &r.kept, "{}"), -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_sl_get_reply(db, &a, id, true, &r),
	    -REPO_ERR_NOT_FOUND);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keep),
	};

	if (itest_config(&cfg) != 0) {
		fprintf(stderr, "MAUTO_TEST_DB_* not set: skipped\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
