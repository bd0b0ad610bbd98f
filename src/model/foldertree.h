/*
 * The folder tree as the Folders operations show it (docs/behaviour.md
 * §19): the folders of every kind and the programs, which stand in
 * marketing folders and count as folders of type Program.  Given the
 * rows, this finds a node, its children, its path and its folderType,
 * and walks a browse breadth-first.  Pure code: no SQL, no HTTP.
 */
#ifndef MAUTO_MODEL_FOLDERTREE_H
#define MAUTO_MODEL_FOLDERTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/folder.h"

struct arena;
struct buf;

/* One folder or program (strings owned by the caller). */
struct ftree_node {
	int32_t			 id;
	enum folder_type	 type;
	const char		*name;
	const char		*description;
	enum folder_kind	 kind;		/* programs: FK_MARKETING */
	int32_t			 parent_id;	/* a folder id; 0: a root */
	const char		*workspace;
	bool			 is_system;
	bool			 is_archive;
	const char		*created_at;	/* database times */
	const char		*updated_at;
};

struct ftree {
	const struct ftree_node	*nodes;
	size_t			 n;
	size_t			*by_ref;	/* by (type, id) */
	size_t			*by_parent;	/* by (parent, type, id) */
};

/*
 * Indexes the n nodes (kept by reference) in the arena a.  Returns 0, or
 * -1 when out of memory.
 */
int	ftree_index(struct ftree *t, const struct ftree_node *nodes, size_t n,
	    struct arena *a);

/* The node ref names, or NULL. */
const struct ftree_node	*ftree_find(const struct ftree *t,
			    const struct folder_ref *ref);

/* The parent folder of node, or NULL for a root (or a lost parent). */
const struct ftree_node	*ftree_parent(const struct ftree *t,
			    const struct ftree_node *node);

/*
 * The node's folderType: "Zone" for the root of Marketing Activities,
 * "Marketing Folder" below it, "Program" for a program, and the word of
 * what a folder of another kind holds ("Email", "Email Template",
 * "Landing Page Template", "List").
 */
const char	*ftree_folder_type(const struct ftree_node *node);

/*
 * The node's path, appended to b: the area ("/Marketing Activities",
 * "/Design Studio" for emails and templates, "/Lead Database" for smart
 * lists) then the names from below the area's root down to the node.
 * The root of Marketing Activities is the area itself.
 */
void	ftree_path(struct buf *b, const struct ftree *t,
	    const struct ftree_node *node);

/*
 * Whether node is root or stands below it (through its parents).
 */
bool	ftree_within(const struct ftree *t, const struct ftree_node *node,
	    const struct ftree_node *root);

/*
 * A browse: the nodes from root (every root folder, in id order, when
 * root is NULL), breadth-first to max_depth levels below it (0: the root
 * alone), a parent's folders before its programs, each by id; only
 * those of workspace ws (any letter case) when ws is not NULL, though
 * the walk passes through the others.  *out (in the arena a) and *n.
 * Returns 0, or -1 when out of memory.
 */
int	ftree_browse(const struct ftree *t, const struct ftree_node *root,
	    int64_t max_depth, const char *ws, struct arena *a,
	    const struct ftree_node ***out, size_t *n);

#endif
