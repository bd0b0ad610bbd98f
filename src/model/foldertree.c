/*
 * The folder tree of the Folders operations (foldertree.h).  Two sorted
 * index arrays over the caller's rows: by (type, id) to find a node, by
 * (parent, type, id) to find a folder's children as one run.  Programs
 * hold no folders, so only folders have children.  A parent that is not
 * among the rows makes its child a root of the walk, never a loop: the
 * walks up stop after as many steps as there are nodes.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/folder.h"
#include "model/foldertree.h"
#include "util/arena.h"
#include "util/buf.h"

/* qsort has no context argument: the nodes being sorted. */
static const struct ftree_node *sorting;

static int
cmp_i64(int64_t a, int64_t b)
{
	return a < b ? -1 : a > b;
}

static int
cmp_ref(const void *pa, const void *pb)
{
	const struct ftree_node *a = &sorting[*(const size_t *)pa];
	const struct ftree_node *b = &sorting[*(const size_t *)pb];

	if (a->type != b->type)
		return a->type == FOLDER_T_FOLDER ? -1 : 1;
	return cmp_i64(a->id, b->id);
}

static int
cmp_parent(const void *pa, const void *pb)
{
	const struct ftree_node *a = &sorting[*(const size_t *)pa];
	const struct ftree_node *b = &sorting[*(const size_t *)pb];

	if (a->parent_id != b->parent_id)
		return cmp_i64(a->parent_id, b->parent_id);
	return cmp_ref(pa, pb);
}

/* See foldertree.h. */
int
ftree_index(struct ftree *t, const struct ftree_node *nodes, size_t n,
    struct arena *a)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	t->nodes = nodes;
	t->n = n;
	if (n == 0)
		return 0;
	if ((t->by_ref = arena_alloc(a, n * sizeof(size_t))) == NULL ||
	    (t->by_parent = arena_alloc(a, n * sizeof(size_t))) == NULL)
		return -1;
	for (i = 0; i < n; i++)
		t->by_ref[i] = t->by_parent[i] = i;
	sorting = nodes;
	qsort(t->by_ref, n, sizeof(size_t), cmp_ref);
	qsort(t->by_parent, n, sizeof(size_t), cmp_parent);
	sorting = NULL;
	return 0;
}

/* See foldertree.h. */
const struct ftree_node *
ftree_find(const struct ftree *t, const struct folder_ref *ref)
{
	size_t lo = 0, hi = t->n, mid;
	const struct ftree_node *m;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		m = &t->nodes[t->by_ref[mid]];
		if (m->type == ref->type && m->id == ref->id)
			return m;
		if (m->type != ref->type ? m->type == FOLDER_T_FOLDER :
		    m->id < ref->id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* See foldertree.h. */
const struct ftree_node *
ftree_parent(const struct ftree *t, const struct ftree_node *node)
{
	struct folder_ref ref = { .id = node->parent_id,
	    .type = FOLDER_T_FOLDER };

	return node->parent_id != 0 ? ftree_find(t, &ref) : NULL;
}

/* The first of the children of folder id in by_parent: [*first, *end). */
static void
children(const struct ftree *t, int32_t id, size_t *first, size_t *end)
{
	size_t lo = 0, hi = t->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (t->nodes[t->by_parent[mid]].parent_id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = lo;
	while (lo < t->n && t->nodes[t->by_parent[lo]].parent_id == id)
		lo++;
	*end = lo;
}

/* The root folder node stands under (itself for a root). */
static const struct ftree_node *
top(const struct ftree *t, const struct ftree_node *node)
{
	const struct ftree_node *p;
	size_t steps = 0;

	while ((p = ftree_parent(t, node)) != NULL && steps++ < t->n)
		node = p;
	return node;
}

/* See foldertree.h. */
const char *
ftree_folder_type(const struct ftree_node *node)
{
	if (node->type == FOLDER_T_PROGRAM)
		return "Program";
	switch (node->kind) {
	case FK_EMAIL:
		return "Email";
	case FK_EMAIL_TEMPLATE:
		return "Email Template";
	case FK_LP_TEMPLATE:
		return "Landing Page Template";
	case FK_SMART_LIST:
	case FK_STATIC_LIST:
		return "List";
	case FK_MARKETING:
	case FK__MAX:
		break;
	}
	return node->parent_id == 0 ? "Zone" : "Marketing Folder";
}

/* The area a root of kind k stands in, as the path's first name. */
static const char *
area(enum folder_kind k)
{
	switch (k) {
	case FK_EMAIL:
	case FK_EMAIL_TEMPLATE:
	case FK_LP_TEMPLATE:
		return "Design Studio";
	case FK_SMART_LIST:
	case FK_STATIC_LIST:
		return "Lead Database";
	case FK_MARKETING:
	case FK__MAX:
		break;
	}
	return NULL;
}

/* Appends "/<name>" for node and its parents, from the top down. */
static void
names(struct buf *b, const struct ftree *t, const struct ftree_node *node,
    size_t depth)
{
	const struct ftree_node *p = ftree_parent(t, node);

	if (p != NULL && depth < t->n)
		names(b, t, p, depth + 1);
	buf_addc(b, '/');
	buf_adds(b, node->name != NULL ? node->name : "");
}

/* See foldertree.h. */
void
ftree_path(struct buf *b, const struct ftree *t,
    const struct ftree_node *node)
{
	const struct ftree_node *root = top(t, node);
	const char *a = area(root->kind);

	/* A root named as its area (the static lists' Lead Database) is
	 * the area itself. */
	if (a != NULL && (root->name == NULL || strcmp(root->name, a) != 0)) {
		buf_addc(b, '/');
		buf_adds(b, a);
	}
	names(b, t, node, 0);
}

/* See foldertree.h. */
bool
ftree_within(const struct ftree *t, const struct ftree_node *node,
    const struct ftree_node *root)
{
	size_t steps = 0;

	while (node != NULL && steps++ <= t->n) {
		if (node == root)
			return true;
		node = ftree_parent(t, node);
	}
	return false;
}

/* See foldertree.h. */
int
ftree_browse(const struct ftree *t, const struct ftree_node *root,
    int64_t max_depth, const char *ws, struct arena *a,
    const struct ftree_node ***out, size_t *n)
{
	const struct ftree_node **q, *node;
	int64_t *depth;
	size_t head = 0, tail = 0, i, first, end, kept = 0;

	*out = NULL;
	*n = 0;
	if (t->n == 0)
		return 0;
	q = arena_alloc(a, t->n * sizeof(*q));
	depth = arena_alloc(a, t->n * sizeof(*depth));
	if (q == NULL || depth == NULL)
		return -1;
	if (root != NULL) {
		q[tail] = root;
		depth[tail++] = 0;
	} else
		for (i = 0; i < t->n; i++) {
			node = &t->nodes[t->by_ref[i]];
			if (node->type == FOLDER_T_FOLDER &&
			    ftree_parent(t, node) == NULL) {
				q[tail] = node;
				depth[tail++] = 0;
			}
		}
	/* Every node is queued at most once: it has one parent. */
	for (head = 0; head < tail; head++) {
		node = q[head];
		if (node->type != FOLDER_T_FOLDER || depth[head] >= max_depth)
			continue;
		children(t, node->id, &first, &end);
		for (i = first; i < end && tail < t->n; i++) {
			if (&t->nodes[t->by_parent[i]] == node)
				continue;
			q[tail] = &t->nodes[t->by_parent[i]];
			depth[tail++] = depth[head] + 1;
		}
	}
	for (i = 0; i < tail; i++)
		if (ws == NULL || (q[i]->workspace != NULL &&
		    strcasecmp(q[i]->workspace, ws) == 0))
			q[kept++] = q[i];
	*out = q;
	*n = kept;
	return 0;
}
