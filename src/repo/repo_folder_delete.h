/*
 * Deleting a folder: the one operation that asks every store what it keeps
 * in a folder.  It stands above the stores (repo_folders.c and the asset
 * stores include none of each other for it), so that a new kind of content
 * is one more row of its table.
 */
#ifndef MAUTO_REPO_REPO_FOLDER_DELETE_H
#define MAUTO_REPO_REPO_FOLDER_DELETE_H

#include <stdint.h>

struct db;

/*
 * Deletes folder id in a transaction of its own, under the folder's row
 * lock.  Returns 0, -REPO_ERR_NOT_FOUND, -REPO_ERR_CONFLICT (a system
 * folder, or one that holds folders, programs, templates, emails, smart
 * lists or smart campaigns) or another negative repo_err.
 */
int	repo_folder_delete(struct db *db, int32_t id);

#endif
