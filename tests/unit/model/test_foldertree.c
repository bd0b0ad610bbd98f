/*
 * model/foldertree.c: finding nodes, folder types, paths, the subtree
 * test and the breadth-first browse.  No database.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/folder.h"
#include "model/foldertree.h"
#include "util/arena.h"
#include "util/buf.h"

#define F	FOLDER_T_FOLDER
#define P	FOLDER_T_PROGRAM

/*
 * Marketing Activities (1) > Campaigns (10) > Q1 (12), program 10 (in
 * 10) and program 3 (in 1); Emails (2) > Newsletters (11); Smart Lists
 * (5), in another workspace; Lead Database (6) > Customers (13), the
 * static lists' tree.  Given out of order on purpose.
 */
static const struct ftree_node nodes[] = {
	{ .id = 12, .type = F, .name = "Q1", .parent_id = 10,
	  .workspace = "Default" },
	{ .id = 10, .type = P, .name = "Webinar", .parent_id = 10,
	  .workspace = "Default" },
	{ .id = 1, .type = F, .name = "Marketing Activities",
	  .is_system = true, .workspace = "Default" },
	{ .id = 2, .type = F, .name = "Emails", .kind = FK_EMAIL,
	  .is_system = true, .workspace = "Default" },
	{ .id = 11, .type = F, .name = "Newsletters", .kind = FK_EMAIL,
	  .parent_id = 2, .workspace = "Default" },
	{ .id = 10, .type = F, .name = "Campaigns", .parent_id = 1,
	  .workspace = "Default" },
	{ .id = 3, .type = P, .name = "Launch", .parent_id = 1,
	  .workspace = "Default" },
	{ .id = 5, .type = F, .name = "Smart Lists", .kind = FK_SMART_LIST,
	  .is_system = true, .workspace = "Other" },
	{ .id = 6, .type = F, .name = "Lead Database", .kind = FK_STATIC_LIST,
	  .is_system = true, .workspace = "Default" },
	{ .id = 13, .type = F, .name = "Customers", .kind = FK_STATIC_LIST,
	  .parent_id = 6, .workspace = "Default" },
};
#define NNODES	(sizeof(nodes) / sizeof(nodes[0]))

struct fixture {
	struct arena	a;
	struct ftree	t;
};

static int
setup(void **state)
{
	static struct fixture fx;

	arena_init(&fx.a);
	assert_int_equal(ftree_index(&fx.t, nodes, NNODES, &fx.a), 0);
	*state = &fx;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *fx = *state;

	arena_clear(&fx->a);
	return 0;
}

static const struct ftree_node *
find(const struct ftree *t, int64_t id, enum folder_type type)
{
	struct folder_ref ref = { .id = id, .type = type };

	return ftree_find(t, &ref);
}

static void
test_find(void **state)
{
	struct fixture *fx = *state;
	const struct ftree_node *n;

	/* Folder 10 and program 10 are two nodes. */
	n = find(&fx->t, 10, F);
	assert_non_null(n);
	assert_string_equal(n->name, "Campaigns");
	n = find(&fx->t, 10, P);
	assert_non_null(n);
	assert_string_equal(n->name, "Webinar");
	assert_null(find(&fx->t, 12, P));
	assert_null(find(&fx->t, 99, F));
	assert_null(find(&fx->t, 0, F));
	assert_ptr_equal(ftree_parent(&fx->t, find(&fx->t, 12, F)),
	    find(&fx->t, 10, F));
	assert_null(ftree_parent(&fx->t, find(&fx->t, 1, F)));
}

static void
test_types(void **state)
{
	struct fixture *fx = *state;

	assert_string_equal(ftree_folder_type(find(&fx->t, 1, F)), "Zone");
	assert_string_equal(ftree_folder_type(find(&fx->t, 10, F)),
	    "Marketing Folder");
	assert_string_equal(ftree_folder_type(find(&fx->t, 10, P)),
	    "Program");
	assert_string_equal(ftree_folder_type(find(&fx->t, 2, F)), "Email");
	assert_string_equal(ftree_folder_type(find(&fx->t, 11, F)), "Email");
	assert_string_equal(ftree_folder_type(find(&fx->t, 5, F)), "List");
}

static void
expect_path(const struct ftree *t, int64_t id, enum folder_type type,
    const char *want)
{
	struct buf b;

	buf_init(&b, 4096);
	ftree_path(&b, t, find(t, id, type));
	assert_true(buf_ok(&b));
	assert_string_equal(b.data, want);
	buf_clear(&b);
}

static void
test_paths(void **state)
{
	struct fixture *fx = *state;

	expect_path(&fx->t, 1, F, "/Marketing Activities");
	expect_path(&fx->t, 12, F, "/Marketing Activities/Campaigns/Q1");
	expect_path(&fx->t, 10, P, "/Marketing Activities/Campaigns/Webinar");
	expect_path(&fx->t, 2, F, "/Design Studio/Emails");
	expect_path(&fx->t, 11, F, "/Design Studio/Emails/Newsletters");
	expect_path(&fx->t, 5, F, "/Lead Database/Smart Lists");
	expect_path(&fx->t, 6, F, "/Lead Database");
	expect_path(&fx->t, 13, F, "/Lead Database/Customers");
}

static void
test_within(void **state)
{
	struct fixture *fx = *state;
	const struct ftree_node *ma = find(&fx->t, 1, F);

	assert_true(ftree_within(&fx->t, find(&fx->t, 12, F), ma));
	assert_true(ftree_within(&fx->t, find(&fx->t, 10, P), ma));
	assert_true(ftree_within(&fx->t, ma, ma));
	assert_false(ftree_within(&fx->t, find(&fx->t, 11, F), ma));
}

/* Browses and compares the (id, type) sequence with want. */
static void
expect_browse(struct fixture *fx, const struct ftree_node *root,
    int64_t depth, const char *ws, const struct folder_ref *want, size_t n)
{
	const struct ftree_node **out;
	size_t got, i;

	assert_int_equal(ftree_browse(&fx->t, root, depth, ws, &fx->a, &out,
	    &got), 0);
	assert_int_equal(got, n);
	for (i = 0; i < n; i++) {
		assert_int_equal(out[i]->id, want[i].id);
		assert_int_equal(out[i]->type, want[i].type);
	}
}

static void
test_browse(void **state)
{
	struct fixture *fx = *state;
	const struct ftree_node *ma = find(&fx->t, 1, F);
	static const struct folder_ref d0[] = { { 1, F } };
	/* Breadth-first; a parent's folders before its programs. */
	static const struct folder_ref d1[] = { { 1, F }, { 10, F },
	    { 3, P } };
	static const struct folder_ref d2[] = { { 1, F }, { 10, F },
	    { 3, P }, { 12, F }, { 10, P } };
	static const struct folder_ref roots[] = { { 1, F }, { 2, F },
	    { 5, F }, { 6, F } };
	static const struct folder_ref all[] = { { 1, F }, { 2, F },
	    { 5, F }, { 6, F }, { 10, F }, { 3, P }, { 11, F }, { 13, F },
	    { 12, F }, { 10, P } };
	static const struct folder_ref other[] = { { 5, F } };
	static const struct folder_ref prog[] = { { 10, P } };

	expect_browse(fx, ma, 0, NULL, d0, 1);
	expect_browse(fx, ma, 1, NULL, d1, 3);
	expect_browse(fx, ma, 2, NULL, d2, 5);
	expect_browse(fx, ma, 100, NULL, d2, 5);
	expect_browse(fx, NULL, 0, NULL, roots, 4);
	expect_browse(fx, NULL, 2, NULL, all, 10);
	expect_browse(fx, NULL, 2, "other", other, 1);
	expect_browse(fx, find(&fx->t, 10, P), 2, NULL, prog, 1);
}

static void
test_empty(void **state)
{
	struct arena a;
	struct ftree t;
	const struct ftree_node **out;
	size_t n = 1;

	(void)state;
	arena_init(&a);
	assert_int_equal(ftree_index(&t, NULL, 0, &a), 0);
	assert_int_equal(ftree_browse(&t, NULL, 2, NULL, &a, &out, &n), 0);
	assert_int_equal(n, 0);
	arena_clear(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_types),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_within),
		cmocka_unit_test(test_browse),
		cmocka_unit_test(test_empty),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
