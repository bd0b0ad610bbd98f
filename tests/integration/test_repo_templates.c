/*
 * The repositories of what emails are made from, against a real MariaDB:
 * email templates and their dynamic sections (repo_email_templates.c),
 * segmentations (repo_segmentations.c) and snippets (repo_snippets.c),
 * with the uses that keep them from being deleted.  Other integration
 * tests run at the same time on the same database, so every row here is
 * made under names of this run and nothing is deleted wholesale.  Needs
 * MAUTO_TEST_DB_*; without them it exits 77.
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

#include "db/pool.h"
#include "err.h"
#include "model/folder.h"
#include "repo/repo.h"
#include "repo/repo_email_templates.h"
#include "repo/repo_folder_delete.h"
#include "repo/repo_folders.h"
#include "repo/repo_segmentations.h"
#include "repo/repo_snippets.h"
#include "repo/repo_usage.h"
#include "util/arena.h"
#include "util/config.h"
#include "itest.h"

static struct config cfg;
static struct db *db;
static struct arena a;
static char tag[16];

/* The Email Templates root (migration 0010). */
#define ROOT	3

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

static int32_t
seg_new(const char *what)
{
	static const char *const segs[] = { "Low", "High" };
	int32_t id;

	assert_int_equal(repo_seg_insert(db, named(what), "d", segs, 2, &id),
	    0);
	return id;
}

static void
test_segmentations(void **state)
{
	static const char *const two[] = { "X", "X" };
	struct repo_seg s, *list;
	size_t n, i;
	int32_t id, again;
	int found = 0;

	(void)state;
	id = seg_new("seg");
	assert_int_equal(repo_seg_get(db, &a, id, &s), 0);
	assert_string_equal(s.name, named("seg"));
	assert_string_equal(s.description, "d");
	assert_string_equal(s.status, "approved");
	assert_int_equal(s.nsegments, 3);
	assert_string_equal(s.segments[0].name, SEGMENT_DEFAULT);
	assert_int_equal(s.segments[0].position, 0);
	assert_string_equal(s.segments[1].name, "Low");
	assert_string_equal(s.segments[2].name, "High");
	assert_int_equal(s.segments[2].position, 2);
	assert_int_equal(repo_seg_get_id_by_name(db, named("seg"), &again), 0);
	assert_int_equal(again, id);
	assert_int_equal(repo_seg_get_id_by_name(db, named("seg-none"),
	    &again), -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_seg_list(db, &a, &list, &n), 0);
	for (i = 0; i < n; i++)
		if (list[i].id == id) {
			found = 1;
			assert_int_equal(list[i].nsegments, 3);
		}
	assert_true(found);
	/* A name taken; a segment twice: nothing is left behind. */
	assert_int_equal(repo_seg_insert(db, named("seg"), NULL, two, 1,
	    &again), -REPO_ERR_CONFLICT);
	assert_int_equal(repo_seg_insert(db, named("seg-two"), NULL, two, 2,
	    &again), -REPO_ERR_CONFLICT);
	assert_int_equal(repo_seg_get_id_by_name(db, named("seg-two"),
	    &again), -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_seg_get(db, &a, 99999999, &s),
	    -REPO_ERR_NOT_FOUND);
	/* In use by an asset: kept; then deleted with its segments. */
	assert_int_equal(repo_usage_add(db, USAGE_SEGMENTATION, id, "email",
	    1), 0);
	assert_int_equal(repo_seg_delete(db, id), -REPO_ERR_CONFLICT);
	assert_int_equal(repo_usage_forget(db, USAGE_SEGMENTATION, id), 0);
	assert_int_equal(repo_seg_delete(db, id), 0);
	assert_int_equal(repo_seg_delete(db, id), -REPO_ERR_NOT_FOUND);
}

static void
test_templates(void **state)
{
	struct repo_etpl t, *list;
	struct repo_etpl_dynamic dyn[2];
	struct repo_etpl_new nt = { .name = NULL };
	char *big;
	size_t n, i, len;
	int32_t seg, id, other, sub, again;
	int64_t count;
	int found = 0;

	(void)state;
	seg = seg_new("tseg");
	dyn[0].html_id = "intro";
	dyn[0].segmentation_id = seg;
	dyn[1].html_id = "hero";
	dyn[1].segmentation_id = seg;
	nt.name = named("tpl");
	nt.description = "desc";
	nt.folder_id = ROOT;
	nt.content = "<html><body><div class=\"mktoText\" id=\"intro\" "
	    "mktoName=\"I\">é</div></body></html>";
	nt.len = strlen(nt.content);
	nt.dynamic = dyn;
	nt.ndynamic = 2;
	assert_int_equal(repo_etpl_insert(db, &nt, &id), 0);
	assert_int_equal(repo_etpl_get(db, &a, id, true, &t), 0);
	assert_string_equal(t.name, named("tpl"));
	assert_string_equal(t.description, "desc");
	assert_int_equal(t.folder_id, ROOT);
	assert_int_equal(t.workspace_id, 1);
	assert_int_equal(t.content_len, nt.len);
	assert_memory_equal(t.content, nt.content, nt.len);
	assert_int_equal(t.ndynamic, 2);
	assert_string_equal(t.dynamic[0].html_id, "hero");
	assert_string_equal(t.dynamic[1].html_id, "intro");
	assert_int_equal(t.dynamic[1].segmentation_id, seg);
	assert_true(strlen(t.created_at) == 19);
	assert_int_equal(repo_etpl_get(db, &a, id, false, &t), 0);
	assert_null(t.content);
	assert_int_equal(repo_etpl_get_id_by_name(db, named("tpl"), &again),
	    0);
	assert_int_equal(again, id);
	assert_int_equal(repo_etpl_list(db, &a, &list, &n), 0);
	for (i = 0; i < n; i++)
		found += list[i].id == id;
	assert_int_equal(found, 1);
	/* Its two sections' segmentation: one use, by the template. */
	assert_int_equal(repo_usage_count(db, USAGE_SEGMENTATION, seg,
	    &count), 0);
	assert_int_equal(count, 1);

	/* A name taken; a segmentation missing: nothing stored. */
	assert_int_equal(repo_etpl_insert(db, &nt, &other),
	    -REPO_ERR_CONFLICT);
	nt.name = named("tpl-noseg");
	dyn[0].segmentation_id = 99999999;
	nt.ndynamic = 1;
	assert_int_equal(repo_etpl_insert(db, &nt, &other),
	    -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_etpl_get_id_by_name(db, named("tpl-noseg"),
	    &other), -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_etpl_get(db, &a, 99999999, false, &t),
	    -REPO_ERR_NOT_FOUND);

	/* A folder holding a template is not empty. */
	assert_int_equal(repo_folders_insert(db, named("tfolder"), NULL,
	    FK_MARKETING, ROOT, &sub), 0);
	nt.name = named("tpl-sub");
	nt.folder_id = sub;
	nt.ndynamic = 0;
	assert_int_equal(repo_etpl_insert(db, &nt, &other), 0);
	assert_int_equal(repo_etpl_count_in_folder(db, sub, &count), 0);
	assert_int_equal(count, 1);
	assert_int_equal(repo_folder_delete(db, sub), -REPO_ERR_CONFLICT);
	assert_int_equal(repo_etpl_delete(db, other), 0);
	assert_int_equal(repo_folder_delete(db, sub), 0);

	/* A 5 MB template is stored and read back whole. */
	len = 5 * 1000 * 1000;
	big = malloc(len + 1);
	assert_non_null(big);
	for (i = 0; i < len; i++)
		big[i] = (char)('a' + i % 26);
	big[len] = '\0';
	nt.name = named("tpl-big");
	nt.folder_id = ROOT;
	nt.content = big;
	nt.len = len;
	assert_int_equal(repo_etpl_insert(db, &nt, &other), 0);
	assert_int_equal(repo_etpl_get(db, &a, other, true, &t), 0);
	assert_int_equal(t.content_len, len);
	assert_memory_equal(t.content, big, len);
	assert_int_equal(repo_etpl_delete(db, other), 0);
	free(big);

	/* Used: kept; the segmentation stays while a section uses it. */
	assert_int_equal(repo_seg_delete(db, seg), -REPO_ERR_CONFLICT);
	assert_int_equal(repo_usage_add(db, USAGE_EMAIL_TEMPLATE, id, "email",
	    1), 0);
	assert_int_equal(repo_etpl_delete(db, id), -REPO_ERR_CONFLICT);
	assert_int_equal(repo_usage_forget(db, USAGE_EMAIL_TEMPLATE, id), 0);
	assert_int_equal(repo_etpl_delete(db, id), 0);
	assert_int_equal(repo_etpl_delete(db, id), -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_usage_count(db, USAGE_SEGMENTATION, seg,
	    &count), 0);
	assert_int_equal(count, 0);
	assert_int_equal(repo_seg_delete(db, seg), 0);
}

static void
test_snippets(void **state)
{
	struct repo_snippet s, *list;
	struct repo_snippet_new ns = { .name = NULL };
	size_t n, i;
	int32_t id, again;
	int found = 0;

	(void)state;
	ns.name = named("snip");
	ns.content = "<p>Footer</p>";
	ns.content_len = strlen(ns.content);
	ns.text = "Footer";
	ns.text_len = 6;
	assert_int_equal(repo_snippet_insert(db, &ns, &id), 0);
	assert_int_equal(repo_snippet_get(db, &a, id, &s), 0);
	assert_string_equal(s.name, named("snip"));
	assert_null(s.description);
	assert_string_equal(s.status, "approved");
	assert_string_equal(s.content, "<p>Footer</p>");
	assert_string_equal(s.text, "Footer");
	assert_int_equal(repo_snippet_list(db, &a, &list, &n), 0);
	for (i = 0; i < n; i++)
		found += list[i].id == id;
	assert_int_equal(found, 1);
	assert_int_equal(repo_snippet_insert(db, &ns, &again),
	    -REPO_ERR_CONFLICT);
	assert_int_equal(repo_usage_add(db, USAGE_SNIPPET, id, "email", 1),
	    0);
	assert_int_equal(repo_snippet_delete(db, id), -REPO_ERR_CONFLICT);
	assert_int_equal(repo_usage_forget(db, USAGE_SNIPPET, id), 0);
	assert_int_equal(repo_snippet_delete(db, id), 0);
	assert_int_equal(repo_snippet_get(db, &a, id, &s),
	    -REPO_ERR_NOT_FOUND);
	assert_int_equal(repo_snippet_delete(db, id), -REPO_ERR_NOT_FOUND);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_segmentations),
		cmocka_unit_test(test_templates),
		cmocka_unit_test(test_snippets),
	};

	if (itest_config(&cfg) != 0) {
		fprintf(stderr, "MAUTO_TEST_DB_* not set: skipped\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
