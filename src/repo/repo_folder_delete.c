/*
 * The folder delete (repo_folder_delete.h).  The folder's row lock comes
 * first: every insert into a folder takes a shared lock on its row (or
 * checks it by a foreign key), so no store can put anything in it while
 * the stores are asked.  A store missed here still answers a refusal:
 * the foreign key's error 1451 is a conflict (db/pool.c).
 */
#include <stddef.h>
#include <stdint.h>

#include "db/pool.h"
#include "model/folder.h"
#include "repo/repo.h"
#include "repo/repo_email_templates.h"
#include "repo/repo_emails.h"
#include "repo/repo_folder_delete.h"
#include "repo/repo_folders.h"
#include "repo/repo_lists.h"
#include "repo/repo_lp_templates.h"
#include "repo/repo_programs.h"
#include "repo/repo_smart_campaigns.h"
#include "repo/repo_smart_lists.h"

/* The emails of folder id (emails stand in a folder or a program). */
static int
count_emails(struct db *db, int32_t id, int64_t *n)
{
	struct folder_ref ref = { .id = id, .type = FOLDER_T_FOLDER };

	return repo_email_count_in_place(db, &ref, n);
}

/* Each kind of content a folder can hold, asked in turn. */
static int (*const counts[])(struct db *, int32_t, int64_t *) = {
	repo_programs_count_in_folder,
	repo_lpt_count_in_folder,
	repo_etpl_count_in_folder,
	count_emails,
	repo_sl_count_in_folder,
	repo_sc_count_in_folder,
	repo_lists_count_in_folder,
};

static int
folder_delete_tx(struct db *db, void *arg)
{
	int32_t id = *(int32_t *)arg;
	int64_t n = 0;
	size_t i;
	int r;

	if ((r = repo_folders_lock_empty(db, id)) != 0)
		return r;
	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		if ((r = counts[i](db, id, &n)) != 0)
			return r;
		if (n != 0)
			return -REPO_ERR_CONFLICT;
	}
	return repo_folders_delete_locked(db, id);
}

/* See repo_folder_delete.h. */
int
repo_folder_delete(struct db *db, int32_t id)
{
	return db_run_tx(db, folder_delete_tx, &id, false);
}
