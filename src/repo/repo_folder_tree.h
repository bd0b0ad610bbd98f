/*
 * The folder tree as the Folders operations read it (model/foldertree.h):
 * every folder and every program in one read, and what a folder or a
 * program holds (Get Folder Contents).  Like repo_folder_delete.c it
 * stands above the stores: it reads only the columns that say where
 * their rows stand, and writes nothing.
 */
#ifndef MAUTO_REPO_REPO_FOLDER_TREE_H
#define MAUTO_REPO_REPO_FOLDER_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/folder.h"
#include "model/foldertree.h"

struct arena;
struct db;

/*
 * Every folder, then every program, as nodes in the arena a (*out, *n).
 * Returns 0 or a negative repo_err.
 */
int	repo_folder_tree_read(struct db *db, struct arena *a,
	    struct ftree_node **out, size_t *n);

/* Whether a workspace of that name exists (any letter case). */
int	repo_folder_tree_workspace(struct db *db, const char *name,
	    bool *exists);

/* What a folder or program holds, as Get Folder Contents names it. */
enum repo_content_kind {
	RCK_FOLDER = 1,
	RCK_PROGRAM,
	RCK_EMAIL,
	RCK_EMAIL_TEMPLATE,
	RCK_LP_TEMPLATE,
	RCK_SMART_LIST,
	RCK_SMART_CAMPAIGN,
	RCK_STATIC_LIST,
};

struct repo_content_item {
	int64_t			 id;
	enum repo_content_kind	 kind;
};

/*
 * The content of place ref: subfolders, programs, emails, email
 * templates, landing page templates, smart lists (not a campaign's own),
 * smart campaigns and static lists, in that order, each by id; limit items from
 * offset, in the arena a.  Returns 0 or a negative repo_err.
 */
int	repo_folder_tree_content(struct db *db, struct arena *a,
	    const struct folder_ref *ref, int limit, int64_t offset,
	    struct repo_content_item **out, size_t *n);

#endif
