/*
 * The folder tree (db/migrations/0010_assets.sql): folders, and programs
 * as places of assets.  The only writer of the folder and workspace
 * tables; program rows are read through repo_programs.c and the assets
 * in a folder are counted by their own repositories.  Two read the
 * folder rows too, without writing them: repo_folder_tree.c (the whole
 * tree for the Folders operations) and repo_tokens.c (a place and its
 * parents).
 */
#ifndef MAUTO_REPO_REPO_FOLDERS_H
#define MAUTO_REPO_REPO_FOLDERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bounds.h"
#include "model/folder.h"

struct arena;
struct db;

/* A place an asset can be put: a folder, or a program. */
struct repo_place {
	struct folder_ref	 ref;
	char			 name[MAX_NAME_BYTES + 1];
	enum folder_kind	 kind;		/* folders only */
	char			 workspace[MAX_NAME_BYTES + 1];
	/*
	 * Folders only: the content generation, moved on by every change
	 * of what a browse of the folder shows (repo_lp_templates.c).
	 */
	uint64_t		 gen;
};

/*
 * The place ref names into *out.  Returns 0, -REPO_ERR_NOT_FOUND (no
 * folder or program with that id) or another negative repo_err.
 */
int	repo_folders_place(struct db *db, const struct folder_ref *ref,
	    struct repo_place *out);

/*
 * The name and workspace name of folder id, copied into the arena a.
 * A folder's workspace never changes and its name seldom does (Update
 * Folder), and a folder id is never used again, so this worker keeps
 * them by id for FOLDER_NAMES_TTL_MS after a read: a rename shows in
 * the replies of other assets within that time.  Returns 0,
 * -REPO_ERR_NOT_FOUND or another negative repo_err.
 */
int	repo_folders_names(struct db *db, struct arena *a, int32_t id,
	    const char **name, const char **workspace);

/*
 * The name of place ref (a folder or a program: Update Program Metadata
 * renames one, so its name is kept for the same bounded time) and the
 * name of workspace id (kept for good: workspaces are never renamed);
 * copies in the arena a.  Returns 0, -REPO_ERR_NOT_FOUND or another
 * negative repo_err.
 */
int	repo_folders_place_name(struct db *db, struct arena *a,
	    const struct folder_ref *ref, const char **name);
int	repo_folders_workspace_name(struct db *db, struct arena *a,
	    int32_t id, const char **name);

/* One folder, as mautoctl folder list shows it (strings in the arena). */
struct repo_folder {
	int32_t			 id;
	const char		*name;
	const char		*description;
	enum folder_kind	 kind;
	int32_t			 parent_id;	/* 0: a root */
	const char		*workspace;
	bool			 is_system;
};

/*
 * Makes a folder under parent_id of the parent's kind (a root when
 * parent_id is 0: then kind is used).  Returns 0 and *id,
 * -REPO_ERR_NOT_FOUND (no such parent), -REPO_ERR_CONFLICT (the parent
 * has a folder of that name) or another negative repo_err.
 */
int	repo_folders_insert(struct db *db, const char *name,
	    const char *description, enum folder_kind kind, int32_t parent_id,
	    int32_t *id);

/* The id of parent_id's folder named name; -REPO_ERR_NOT_FOUND. */
int	repo_folders_child_id(struct db *db, int32_t parent_id,
	    const char *name, int32_t *id);

/* Every folder, by id, into the arena a. */
int	repo_folders_list(struct db *db, struct arena *a,
	    struct repo_folder **out, size_t *n);

/*
 * Inside the caller's transaction (repo_folder_delete.h): locks folder
 * id's row.  -REPO_ERR_NOT_FOUND, or -REPO_ERR_CONFLICT for a system
 * folder or one that holds folders; 0 otherwise, the lock held.
 */
int	repo_folders_lock_empty(struct db *db, int32_t id);

/*
 * Inside the caller's transaction, after repo_folders_lock_empty and the
 * stores' counts: deletes folder id's row.
 */
int	repo_folders_delete_locked(struct db *db, int32_t id);

/*
 * Update Folder Metadata: folder id's name and description (NULL keeps
 * each) and its archive flag (1, 0, or -1 to keep it), under its row
 * lock; updatedAt moves on.  Returns 0, -REPO_ERR_NOT_FOUND,
 * -REPO_ERR_CONFLICT (*is_system when the folder is a system folder,
 * which cannot be changed; otherwise a sibling has that name) or another
 * negative repo_err.
 */
int	repo_folders_update(struct db *db, int32_t id, const char *name,
	    const char *description, int archive, bool *is_system);

#endif
